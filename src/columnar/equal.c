/* equal.c - deep equality of arrays, for tests and round-trip checks.
 *
 * Equality is by value: two null rows are equal whatever their buffers hold, list rows are
 * equal when their element runs are, and floats compare bit-for-bit except that any two NaNs
 * are equal (so -0.0 != 0.0). The first difference is described as "row R at PATH: X != Y"
 * with both values rendered as JSON (render.c). */
#include "columnar/columnar.h"
#include "columnar/render.h"

#include <stdio.h>

typedef struct eq_ctx {
    hudi_buf *why;
    int64_t row;
    size_t path_len;
    char path[256];
} eq_ctx;

static bool shape_equal(const hudi_field *a, const hudi_field *b) {
    if (a->type != b->type || a->n_children != b->n_children ||
        hudi_type_width(a) != hudi_type_width(b))
        return false;
    if ((a->type == HUDI_TYPE_TIME || a->type == HUDI_TYPE_TIMESTAMP) && a->unit != b->unit)
        return false;
    if (a->type == HUDI_TYPE_DECIMAL && a->scale != b->scale) return false;
    for (int32_t i = 0; i < a->n_children; i++)
        if (!shape_equal(&a->children[i], &b->children[i])) return false;
    return true;
}

static size_t push_path(eq_ctx *c, const char *fmt, const char *s, long long k) {
    size_t saved = c->path_len;
    size_t room = sizeof(c->path) - c->path_len;
    int n = s ? snprintf(c->path + c->path_len, room, fmt, s)
              : snprintf(c->path + c->path_len, room, fmt, k);
    if (n > 0) c->path_len += HUDI_MIN((size_t)n, room - 1);
    return saved;
}

static void pop_path(eq_ctx *c, size_t saved) {
    c->path_len = saved;
    c->path[saved] = '\0';
}

static bool report(eq_ctx *c, const char *what, const hudi_array *a, int64_t i, const hudi_array *b,
                   int64_t j) {
    if (!c->why) return false;
    hudi_buf_printf(c->why, "row %lld", (long long)c->row);
    if (c->path_len) hudi_buf_printf(c->why, " at %s", c->path);
    hudi_buf_puts(c->why, ": ");
    if (what) hudi_buf_printf(c->why, "%s: ", what);
    hudi_render_json_value(c->why, a, i);
    hudi_buf_puts(c->why, " != ");
    hudi_render_json_value(c->why, b, j);
    return false;
}

static bool is_nan16(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x03ff); }

static bool fixed_equal(const hudi_array *a, int64_t i, const hudi_array *b, int64_t j) {
    const hudi_field *f = a->field;
    switch (f->type) {
    case HUDI_TYPE_BOOL: return hudi_bit_get(a->values, i) == hudi_bit_get(b->values, j);
    case HUDI_TYPE_FLOAT16: {
        uint16_t x = ((const uint16_t *)a->values)[i], y = ((const uint16_t *)b->values)[j];
        return x == y || (is_nan16(x) && is_nan16(y));
    }
    case HUDI_TYPE_FLOAT: {
        float x = ((const float *)a->values)[i], y = ((const float *)b->values)[j];
        return memcmp(&x, &y, 4) == 0 || (x != x && y != y);
    }
    case HUDI_TYPE_DOUBLE: {
        double x = ((const double *)a->values)[i], y = ((const double *)b->values)[j];
        return memcmp(&x, &y, 8) == 0 || (x != x && y != y);
    }
    default: {
        size_t w = (size_t)hudi_type_width(f);
        return memcmp((const uint8_t *)a->values + (size_t)i * w,
                      (const uint8_t *)b->values + (size_t)j * w, w) == 0;
    }
    }
}

static bool value_equal(eq_ctx *c, const hudi_array *a, int64_t i, const hudi_array *b, int64_t j) {
    bool va = hudi_array_is_valid(a, i), vb = hudi_array_is_valid(b, j);
    if (a->field->type == HUDI_TYPE_NULL) return true;
    if (va != vb) return report(c, NULL, a, i, b, j);
    if (!va) return true;
    switch (a->field->type) {
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY: {
        int32_t la = a->offsets[i + 1] - a->offsets[i], lb = b->offsets[j + 1] - b->offsets[j];
        if (la != lb ||
            (la && memcmp(a->data + a->offsets[i], b->data + b->offsets[j], (size_t)la)))
            return report(c, NULL, a, i, b, j);
        return true;
    }
    case HUDI_TYPE_LIST:
    case HUDI_TYPE_MAP: {
        int32_t oa = a->offsets[i], ob = b->offsets[j];
        int32_t la = a->offsets[i + 1] - oa, lb = b->offsets[j + 1] - ob;
        if (la != lb) return report(c, "lengths differ", a, i, b, j);
        for (int32_t k = 0; k < la; k++) {
            size_t saved = push_path(c, "[%lld]", NULL, k);
            bool eq = value_equal(c, a->children[0], oa + k, b->children[0], ob + k);
            pop_path(c, saved);
            if (!eq) return false;
        }
        return true;
    }
    case HUDI_TYPE_STRUCT:
        for (int32_t k = 0; k < a->n_children; k++) {
            const char *name = a->children[k]->field->name;
            size_t saved = push_path(c, c->path_len ? ".%s" : "%s", name ? name : "?", 0);
            bool eq = value_equal(c, a->children[k], i, b->children[k], j);
            pop_path(c, saved);
            if (!eq) return false;
        }
        return true;
    default:
        if (!fixed_equal(a, i, b, j)) return report(c, NULL, a, i, b, j);
        return true;
    }
}

bool hudi_array_equal(const hudi_array *a, const hudi_array *b, hudi_buf *why) {
    eq_ctx c = {.why = why};
    const char *name = a->field->name && a->field->name[0] ? a->field->name : NULL;
    if (name) push_path(&c, "%s", name, 0);
    if (!shape_equal(a->field, b->field)) {
        if (why) {
            hudi_buf_printf(why, "%s%stype ", name ? name : "", name ? ": " : "");
            hudi_field_describe(why, a->field);
            hudi_buf_puts(why, " != ");
            hudi_field_describe(why, b->field);
        }
        return false;
    }
    if (a->length != b->length) {
        if (why)
            hudi_buf_printf(why, "%s%slength %lld != %lld", name ? name : "", name ? ": " : "",
                            (long long)a->length, (long long)b->length);
        return false;
    }
    for (int64_t r = 0; r < a->length; r++) {
        c.row = r;
        if (!value_equal(&c, a, r, b, r)) return false;
    }
    return true;
}
