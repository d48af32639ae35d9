/* field.c - hudi_field type trees: construction, deep copy, widths and readable names.
 *
 * Invariant: a field owns its name and its children array; a zeroed field is a valid empty
 * field that hudi_field_dispose accepts, so every failure path can dispose unconditionally. */
#include "columnar/columnar.h"

int hudi_field_init(hudi_field *f, const char *name, hudi_type_id type, bool nullable) {
    memset(f, 0, sizeof(*f));
    f->type = type;
    f->nullable = nullable;
    f->field_id = -1;
    f->unit = HUDI_UNIT_MICROS;
    if (name && !(f->name = hudi_strdup(name))) return HUDI_ENOMEM;
    return 0;
}

int hudi_field_set_children(hudi_field *f, int32_t n) {
    if (n < 0) return HUDI_EINVAL;
    hudi_field *kids = NULL;
    if (n > 0 && !(kids = hudi_calloc((size_t)n, sizeof(*kids)))) return HUDI_ENOMEM;
    for (int32_t i = 0; i < n; i++) kids[i].field_id = -1;
    for (int32_t i = 0; i < f->n_children; i++) hudi_field_dispose(&f->children[i]);
    hudi_free(f->children);
    f->children = kids;
    f->n_children = n;
    return 0;
}

int hudi_field_copy(hudi_field *dst, const hudi_field *src) {
    *dst = *src;
    dst->name = NULL;
    dst->comment = NULL;
    dst->children = NULL;
    dst->n_children = 0;
    if (src->name && !(dst->name = hudi_strdup(src->name))) goto oom;
    if (src->comment && !(dst->comment = hudi_strdup(src->comment))) goto oom;
    if (src->n_children > 0) {
        dst->children = hudi_calloc((size_t)src->n_children, sizeof(*dst->children));
        if (!dst->children) goto oom;
        /* n_children grows one copied child at a time so dispose frees exactly those. */
        for (int32_t i = 0; i < src->n_children; i++) {
            if (hudi_field_copy(&dst->children[i], &src->children[i]) < 0) goto oom;
            dst->n_children = i + 1;
        }
    }
    return 0;
oom:
    hudi_field_dispose(dst);
    return HUDI_ENOMEM;
}

void hudi_field_dispose(hudi_field *f) {
    if (!f) return;
    for (int32_t i = 0; i < f->n_children; i++) hudi_field_dispose(&f->children[i]);
    hudi_free(f->children);
    hudi_free(f->name);
    hudi_free(f->comment);
    f->children = NULL;
    f->name = NULL;
    f->comment = NULL;
    f->n_children = 0;
}

int hudi_type_width(const hudi_field *f) {
    switch (f->type) {
    case HUDI_TYPE_BOOL: return 0;
    case HUDI_TYPE_INT8:
    case HUDI_TYPE_UINT8: return 1;
    case HUDI_TYPE_INT16:
    case HUDI_TYPE_UINT16:
    case HUDI_TYPE_FLOAT16: return 2;
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_UINT32:
    case HUDI_TYPE_FLOAT:
    case HUDI_TYPE_DATE: return 4;
    case HUDI_TYPE_INT64:
    case HUDI_TYPE_UINT64:
    case HUDI_TYPE_DOUBLE:
    case HUDI_TYPE_TIMESTAMP: return 8;
    case HUDI_TYPE_TIME: return f->unit == HUDI_UNIT_MILLIS ? 4 : 8;
    case HUDI_TYPE_DECIMAL: return 16;
    case HUDI_TYPE_FIXED_BINARY: return f->byte_width;
    default: return -1;
    }
}

bool hudi_type_is_fixed(hudi_type_id t) {
    return (t >= HUDI_TYPE_BOOL && t <= HUDI_TYPE_TIMESTAMP) || t == HUDI_TYPE_FIXED_BINARY;
}

bool hudi_type_is_nested(hudi_type_id t) {
    return t == HUDI_TYPE_STRUCT || t == HUDI_TYPE_LIST || t == HUDI_TYPE_MAP;
}

const char *hudi_type_name(hudi_type_id t) {
    static const char *const names[HUDI_TYPE_COUNT_] = {
        [HUDI_TYPE_NULL] = "null",
        [HUDI_TYPE_BOOL] = "bool",
        [HUDI_TYPE_INT8] = "int8",
        [HUDI_TYPE_INT16] = "int16",
        [HUDI_TYPE_INT32] = "int32",
        [HUDI_TYPE_INT64] = "int64",
        [HUDI_TYPE_UINT8] = "uint8",
        [HUDI_TYPE_UINT16] = "uint16",
        [HUDI_TYPE_UINT32] = "uint32",
        [HUDI_TYPE_UINT64] = "uint64",
        [HUDI_TYPE_FLOAT16] = "float16",
        [HUDI_TYPE_FLOAT] = "float",
        [HUDI_TYPE_DOUBLE] = "double",
        [HUDI_TYPE_DECIMAL] = "decimal",
        [HUDI_TYPE_DATE] = "date",
        [HUDI_TYPE_TIME] = "time",
        [HUDI_TYPE_TIMESTAMP] = "timestamp",
        [HUDI_TYPE_STRING] = "string",
        [HUDI_TYPE_BINARY] = "binary",
        [HUDI_TYPE_FIXED_BINARY] = "fixed_binary",
        [HUDI_TYPE_STRUCT] = "struct",
        [HUDI_TYPE_LIST] = "list",
        [HUDI_TYPE_MAP] = "map",
    };
    return ((unsigned)t < HUDI_TYPE_COUNT_) ? names[t] : "unknown";
}

static const char *unit_name(uint8_t unit) {
    return unit == HUDI_UNIT_MILLIS ? "ms" : unit == HUDI_UNIT_NANOS ? "ns" : "us";
}

static const char *hint_name(uint8_t hint) {
    switch (hint) {
    case HUDI_HINT_UUID: return "uuid";
    case HUDI_HINT_JSON: return "json";
    case HUDI_HINT_ENUM: return "enum";
    case HUDI_HINT_BSON: return "bson";
    case HUDI_HINT_INT96: return "int96";
    case HUDI_HINT_INTERVAL: return "interval";
    default: return NULL;
    }
}

void hudi_field_describe(hudi_buf *b, const hudi_field *f) {
    const char *hint = hint_name(f->hint);
    switch (f->type) {
    case HUDI_TYPE_DECIMAL: hudi_buf_printf(b, "decimal(%d, %d)", f->precision, f->scale); break;
    case HUDI_TYPE_TIME: hudi_buf_printf(b, "time[%s]", unit_name(f->unit)); break;
    case HUDI_TYPE_TIMESTAMP:
        hudi_buf_printf(b, "timestamp[%s%s]", unit_name(f->unit), f->utc ? ", UTC" : "");
        break;
    case HUDI_TYPE_FIXED_BINARY: hudi_buf_printf(b, "fixed_binary(%d)", f->byte_width); break;
    case HUDI_TYPE_STRUCT:
        hudi_buf_puts(b, "struct<");
        for (int32_t i = 0; i < f->n_children; i++) {
            if (i) hudi_buf_puts(b, ", ");
            hudi_buf_puts(b, f->children[i].name ? f->children[i].name : "");
            hudi_buf_puts(b, ": ");
            hudi_field_describe(b, &f->children[i]);
        }
        hudi_buf_putc(b, '>');
        break;
    case HUDI_TYPE_LIST:
        hudi_buf_puts(b, "list<");
        if (f->n_children == 1) hudi_field_describe(b, &f->children[0]);
        hudi_buf_putc(b, '>');
        break;
    case HUDI_TYPE_MAP:
        hudi_buf_puts(b, "map<");
        if (f->n_children == 1 && f->children[0].n_children == 2) {
            hudi_field_describe(b, &f->children[0].children[0]);
            hudi_buf_puts(b, ", ");
            hudi_field_describe(b, &f->children[0].children[1]);
        }
        hudi_buf_putc(b, '>');
        break;
    default: hudi_buf_puts(b, hudi_type_name(f->type)); break;
    }
    if (hint) hudi_buf_printf(b, " (%s)", hint);
}
