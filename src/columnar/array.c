/* array.c - hudi_array construction, growth and the slow-path appenders.
 *
 * Invariants: every buffer is 64-byte aligned from hudi_aligned_alloc and sized for
 * `capacity` rows (validity and bool values: capacity bits, zero-filled past what was
 * written; offsets: capacity + 1 entries with offsets[0] = 0 once allocated). A failed call
 * leaves the array exactly as it was: growth allocates every new buffer before freeing any
 * old one, and multi-step appends truncate back on failure. */
#include "columnar/columnar.h"

static int64_t bitmap_bytes(int64_t bits) { return (bits + 7) / 8; }

static bool uses_offsets(hudi_type_id t) {
    return t == HUDI_TYPE_STRING || t == HUDI_TYPE_BINARY || t == HUDI_TYPE_LIST ||
           t == HUDI_TYPE_MAP;
}

static bool uses_data(hudi_type_id t) { return t == HUDI_TYPE_STRING || t == HUDI_TYPE_BINARY; }

/* Bytes of `values` for `rows` rows; 0 when the type has no values buffer. */
static bool values_bytes(const hudi_field *f, int64_t rows, size_t *out) {
    if (f->type == HUDI_TYPE_BOOL) {
        *out = (size_t)bitmap_bytes(rows);
        return true;
    }
    if (!hudi_type_is_fixed(f->type)) {
        *out = 0;
        return true;
    }
    int w = hudi_type_width(f);
    return !hudi_mul_overflow((size_t)rows, (size_t)(w > 0 ? w : 0), out);
}

/* Replaces *p by a new buffer of new_bytes keeping the first old_bytes; bitmaps zero the tail. */
static void *resized(const void *old, size_t old_bytes, size_t new_bytes, bool zero_tail) {
    uint8_t *p = hudi_aligned_alloc(new_bytes ? new_bytes : 1);
    if (!p) return NULL;
    size_t keep = HUDI_MIN(old_bytes, new_bytes);
    if (old && keep) memcpy(p, old, keep);
    if (zero_tail && new_bytes > keep) memset(p + keep, 0, new_bytes - keep);
    return p;
}

static int reserve_self(hudi_array *a, int64_t rows, hudi_error *err) {
    if (rows <= a->capacity) return 0;
    const hudi_field *f = a->field;
    size_t vb_old, vb_new, ob_new = 0;
    if (!values_bytes(f, a->capacity, &vb_old) || !values_bytes(f, rows, &vb_new) ||
        (uses_offsets(f->type) && hudi_mul_overflow((size_t)rows + 1, 4, &ob_new)))
        return hudi_error_set(err, HUDI_ENOMEM, "column %s: %lld rows is too many",
                              f->name ? f->name : "", (long long)rows);
    void *values = NULL, *offsets = NULL, *validity = NULL;
    if (vb_new && !(values = resized(a->values, vb_old, vb_new, f->type == HUDI_TYPE_BOOL)))
        goto oom;
    if (ob_new) {
        size_t ob_old = a->offsets ? (size_t)(a->capacity + 1) * 4 : 0;
        if (!(offsets = resized(a->offsets, ob_old, ob_new, false))) goto oom;
        if (!a->offsets) ((int32_t *)offsets)[0] = 0;
    }
    if (a->validity && !(validity = resized(a->validity, (size_t)bitmap_bytes(a->capacity),
                                            (size_t)bitmap_bytes(rows), true)))
        goto oom;
    if (values) {
        hudi_aligned_free(a->values);
        a->values = values;
    }
    if (offsets) {
        hudi_aligned_free(a->offsets);
        a->offsets = offsets;
    }
    if (validity) {
        hudi_aligned_free(a->validity);
        a->validity = validity;
    }
    a->capacity = rows;
    return 0;
oom:
    hudi_aligned_free(values);
    hudi_aligned_free(offsets);
    hudi_aligned_free(validity);
    return hudi_error_oom(err);
}

int hudi_array_reserve(hudi_array *a, int64_t rows, hudi_error *err) {
    a->uniform = false;
    if (rows < 0)
        return hudi_error_set(err, HUDI_EINVAL, "negative row count %lld", (long long)rows);
    int rc;
    /* Struct children always have the struct's length, so they share its capacity. */
    if (a->field->type == HUDI_TYPE_STRUCT)
        for (int32_t i = 0; i < a->n_children; i++)
            if ((rc = hudi_array_reserve(a->children[i], rows, err)) < 0) return rc;
    return reserve_self(a, rows, err);
}

int hudi_array_grow(hudi_array *a, int64_t extra_rows, hudi_error *err) {
    a->uniform = false; /* rows are about to be added */
    if (extra_rows < 0 || a->length > INT64_MAX - extra_rows)
        return hudi_error_set(err, HUDI_EINVAL, "bad row count %lld", (long long)extra_rows);
    int64_t need = a->length + extra_rows;
    if (need <= a->capacity) return 0;
    int64_t cap = a->capacity < 32 ? 32 : a->capacity;
    while (cap < need) cap = cap > INT64_MAX / 2 ? need : cap * 2;
    return hudi_array_reserve(a, cap, err);
}

int hudi_array_reserve_data(hudi_array *a, int64_t bytes, hudi_error *err) {
    a->uniform = false;
    if (!uses_data(a->field->type))
        return hudi_error_set(err, HUDI_EINVAL, "column %s: %s has no data buffer",
                              a->field->name ? a->field->name : "", hudi_type_name(a->field->type));
    if (bytes <= a->data_capacity) return 0;
    uint8_t *p = resized(a->data, (size_t)a->data_len, (size_t)bytes, false);
    if (!p) return hudi_error_oom(err);
    hudi_aligned_free(a->data);
    a->data = p;
    a->data_capacity = bytes;
    return 0;
}

int hudi_array_grow_data(hudi_array *a, int64_t extra_bytes, hudi_error *err) {
    a->uniform = false;
    if (extra_bytes < 0 || a->data_len + extra_bytes > INT32_MAX)
        return hudi_error_set(err, HUDI_ENOMEM, "column %s: more than 2 GiB of bytes in one array",
                              a->field->name ? a->field->name : "");
    int64_t need = a->data_len + extra_bytes;
    if (need <= a->data_capacity) return 0;
    int64_t cap = a->data_capacity < 256 ? 256 : a->data_capacity;
    while (cap < need) cap *= 2;
    return hudi_array_reserve_data(a, cap, err);
}

int hudi_array_ensure_validity(hudi_array *a, hudi_error *err) {
    a->uniform = false;
    if (a->validity) return 0;
    size_t bytes = (size_t)bitmap_bytes(a->capacity);
    uint8_t *v = hudi_aligned_alloc(bytes ? bytes : 1);
    if (!v) return hudi_error_oom(err);
    memset(v, 0, bytes ? bytes : 1);
    hudi_bitmap_set_range(v, 0, a->length, true);
    a->validity = v;
    a->has_validity_capacity = true;
    return 0;
}

int hudi_array_new(hudi_array **out, const hudi_field *field, hudi_error *err) {
    *out = NULL;
    int rc = 0;
    int32_t n = 0;
    const hudi_field *kids = NULL;
    if (field->type == HUDI_TYPE_STRUCT) {
        n = field->n_children;
        kids = field->children;
    } else if (field->type == HUDI_TYPE_LIST || field->type == HUDI_TYPE_MAP) {
        if (field->n_children != 1 ||
            (field->type == HUDI_TYPE_MAP &&
             (field->children[0].type != HUDI_TYPE_STRUCT || field->children[0].n_children != 2)))
            return hudi_error_set(err, HUDI_EINVAL, "column %s: malformed %s field",
                                  field->name ? field->name : "", hudi_type_name(field->type));
        n = 1;
        kids = field->children;
    } else if (field->type == HUDI_TYPE_FIXED_BINARY && field->byte_width <= 0) {
        return hudi_error_set(err, HUDI_EINVAL, "column %s: fixed_binary width %d",
                              field->name ? field->name : "", field->byte_width);
    } else if ((unsigned)field->type >= HUDI_TYPE_COUNT_) {
        return hudi_error_set(err, HUDI_EINVAL, "column %s: unknown type %d",
                              field->name ? field->name : "", (int)field->type);
    }
    hudi_array *a = hudi_calloc(1, sizeof(*a));
    if (!a) return hudi_error_oom(err);
    a->field = field;
    if (n > 0) {
        if (!(a->children = hudi_calloc((size_t)n, sizeof(*a->children)))) {
            rc = hudi_error_oom(err);
            goto done;
        }
        for (int32_t i = 0; i < n; i++) {
            if ((rc = hudi_array_new(&a->children[i], &kids[i], err)) < 0) goto done;
            a->n_children = i + 1;
        }
    }
done:
    if (rc < 0)
        hudi_array_free(a);
    else
        *out = a;
    return rc;
}

void hudi_array_free(hudi_array *a) {
    if (!a) return;
    for (int32_t i = 0; i < a->n_children; i++) hudi_array_free(a->children[i]);
    hudi_free(a->children);
    hudi_aligned_free(a->validity);
    hudi_aligned_free(a->values);
    hudi_aligned_free(a->offsets);
    hudi_aligned_free(a->data);
    hudi_free(a);
}

int64_t hudi_array_memory(const hudi_array *a) {
    if (!a) return 0;
    int64_t n = (int64_t)sizeof(*a) + (int64_t)a->n_children * (int64_t)sizeof(hudi_array *);
    size_t vb = 0;
    if (a->validity) n += bitmap_bytes(a->capacity);
    if (a->values && values_bytes(a->field, a->capacity, &vb)) n += (int64_t)vb;
    if (a->offsets) n += (a->capacity + 1) * (int64_t)sizeof(int32_t);
    if (a->data) n += a->data_capacity;
    for (int32_t i = 0; i < a->n_children; i++) n += hudi_array_memory(a->children[i]);
    return n;
}

void hudi_array_clear(hudi_array *a) {
    a->length = 0;
    a->uniform = false;
    a->null_count = 0;
    a->data_len = 0;
    if (a->offsets) a->offsets[0] = 0;
    if (a->validity) memset(a->validity, 0, (size_t)bitmap_bytes(a->capacity));
    if (a->field->type == HUDI_TYPE_BOOL && a->values)
        memset(a->values, 0, (size_t)bitmap_bytes(a->capacity));
    for (int32_t i = 0; i < a->n_children; i++) hudi_array_clear(a->children[i]);
}

void hudi_array_truncate(hudi_array *a, int64_t len) {
    /* len == length still truncates children and data: a failed append may have grown them. */
    if (len < 0) len = 0;
    if (len > a->length) return;
    if (a->field->type == HUDI_TYPE_NULL)
        a->null_count = len;
    else if (a->validity)
        a->null_count -= (a->length - len) - hudi_bitmap_count(a->validity, len, a->length - len);
    a->length = len;
    int32_t end = a->offsets ? a->offsets[len] : 0;
    if (uses_data(a->field->type)) a->data_len = end;
    if (a->field->type == HUDI_TYPE_STRUCT) {
        for (int32_t i = 0; i < a->n_children; i++) hudi_array_truncate(a->children[i], len);
    } else if (a->n_children == 1) {
        hudi_array_truncate(a->children[0], end);
    }
}

/* ---- appenders ------------------------------------------------------------------------ */

static inline void mark_valid(hudi_array *a, int64_t i) {
    if (a->validity) hudi_bit_set(a->validity, i);
}

static int type_error(const hudi_array *a, const char *what, hudi_error *err) {
    return hudi_error_set(err, HUDI_EINVAL, "column %s: cannot append %s to %s",
                          a->field->name ? a->field->name : "", what,
                          hudi_type_name(a->field->type));
}

/* Makes room for n "empty" rows (null, or zero values for a non-nullable struct child),
 * recursively, so write_empty cannot fail. */
static int prepare_empty(hudi_array *a, int64_t n, bool null, hudi_error *err) {
    int rc;
    if ((rc = hudi_array_grow(a, n, err)) < 0) return rc;
    if ((null || a->field->type == HUDI_TYPE_NULL) && (rc = hudi_array_ensure_validity(a, err)) < 0)
        return rc;
    if (a->field->type == HUDI_TYPE_STRUCT)
        for (int32_t i = 0; i < a->n_children; i++)
            if ((rc = prepare_empty(a->children[i], n, a->children[i]->field->nullable, err)) < 0)
                return rc;
    return 0;
}

static void write_empty(hudi_array *a, int64_t n, bool null) {
    int64_t i = a->length;
    const hudi_field *f = a->field;
    if (f->type == HUDI_TYPE_NULL) null = true;
    if (f->type == HUDI_TYPE_BOOL) {
        hudi_bitmap_set_range(a->values, i, n, false);
    } else if (hudi_type_is_fixed(f->type)) {
        size_t w = (size_t)hudi_type_width(f);
        memset((uint8_t *)a->values + (size_t)i * w, 0, (size_t)n * w);
    } else if (uses_offsets(f->type)) {
        int32_t end = a->offsets[i];
        for (int64_t k = 1; k <= n; k++) a->offsets[i + k] = end;
    } else if (f->type == HUDI_TYPE_STRUCT) {
        for (int32_t c = 0; c < a->n_children; c++)
            write_empty(a->children[c], n, a->children[c]->field->nullable);
    }
    if (a->validity) hudi_bitmap_set_range(a->validity, i, n, !null);
    if (null) a->null_count += n;
    a->length += n;
}

int hudi_array_append_nulls(hudi_array *a, int64_t n, hudi_error *err) {
    if (n <= 0) return n < 0 ? hudi_error_set(err, HUDI_EINVAL, "negative null count") : 0;
    int64_t saved = a->length;
    int rc = prepare_empty(a, n, true, err);
    if (rc < 0) {
        hudi_array_truncate(a, saved);
        return rc;
    }
    write_empty(a, n, true);
    return 0;
}

int hudi_array_append_null(hudi_array *a, hudi_error *err) {
    return hudi_array_append_nulls(a, 1, err);
}

int hudi_array_append_fixed(hudi_array *a, const void *value, hudi_error *err) {
    if (!hudi_type_is_fixed(a->field->type)) return type_error(a, "a fixed-width value", err);
    if (a->field->type == HUDI_TYPE_BOOL)
        return hudi_array_append_bool(a, *(const uint8_t *)value != 0, err);
    int rc = hudi_array_grow(a, 1, err);
    if (rc < 0) return rc;
    size_t w = (size_t)hudi_type_width(a->field);
    memcpy((uint8_t *)a->values + (size_t)a->length * w, value, w);
    mark_valid(a, a->length);
    a->length++;
    return 0;
}

int hudi_array_append_bool(hudi_array *a, bool v, hudi_error *err) {
    if (a->field->type != HUDI_TYPE_BOOL) return type_error(a, "a bool", err);
    int rc = hudi_array_grow(a, 1, err);
    if (rc < 0) return rc;
    if (v)
        hudi_bit_set(a->values, a->length);
    else
        hudi_bit_clear(a->values, a->length);
    mark_valid(a, a->length);
    a->length++;
    return 0;
}

int hudi_array_append_bytes(hudi_array *a, const void *data, size_t len, hudi_error *err) {
    if (a->field->type == HUDI_TYPE_FIXED_BINARY) {
        if (len != (size_t)a->field->byte_width)
            return hudi_error_set(err, HUDI_EINVAL, "column %s: %zu bytes for fixed_binary(%d)",
                                  a->field->name ? a->field->name : "", len, a->field->byte_width);
        return hudi_array_append_fixed(a, data, err);
    }
    if (!uses_data(a->field->type)) return type_error(a, "bytes", err);
    if (len > INT32_MAX)
        return hudi_error_set(err, HUDI_ENOMEM, "column %s: value of %zu bytes is too long",
                              a->field->name ? a->field->name : "", len);
    int rc;
    if ((rc = hudi_array_grow(a, 1, err)) < 0) return rc;
    if ((rc = hudi_array_grow_data(a, (int64_t)len, err)) < 0) return rc;
    if (len) memcpy(a->data + a->data_len, data, len);
    a->data_len += (int64_t)len;
    a->offsets[a->length + 1] = (int32_t)a->data_len;
    mark_valid(a, a->length);
    a->length++;
    return 0;
}

int hudi_array_append_nested(hudi_array *a, int64_t n_elements, hudi_error *err) {
    hudi_type_id t = a->field->type;
    if (t != HUDI_TYPE_LIST && t != HUDI_TYPE_MAP && t != HUDI_TYPE_STRUCT)
        return type_error(a, "a nested row", err);
    int rc;
    if (t == HUDI_TYPE_STRUCT) {
        if ((rc = hudi_array_grow(a, 1, err)) < 0) return rc;
    } else {
        int64_t end = (a->offsets ? a->offsets[a->length] : 0) + n_elements;
        if (n_elements < 0 || end > INT32_MAX)
            return hudi_error_set(err, HUDI_EINVAL, "column %s: bad element count %lld",
                                  a->field->name ? a->field->name : "", (long long)n_elements);
        if ((rc = hudi_array_grow(a, 1, err)) < 0) return rc;
        a->offsets[a->length + 1] = (int32_t)end;
    }
    mark_valid(a, a->length);
    a->length++;
    return 0;
}
