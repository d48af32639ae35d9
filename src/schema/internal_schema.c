/* internal_schema.c - Hudi's InternalSchema: the model with ids, id assignment, the JSON of
 * Hudi's SerDeHelper, the history of .hoodie/.schema, lookups by id and path, and the renaming
 * of a query schema to a file's names (docs/formats/internal-schema.md).
 *
 * The model is a hudi_field tree (internal_schema.h). JSON is parsed with jansson and written
 * directly, so that key order and spacing are Hudi's. Invariant: every id in a parsed or built
 * schema is >= 0 and unique; the key_value struct of a map has id -1. */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "schema/internal_schema.h"
#include "schema/internal_schema_int.h"
#include "schema/schema.h"

#define MAX_DEPTH 64 /* nesting of types; deeper schemas are refused */

/* ---- model ---------------------------------------------------------------------------------- */

void hudi_ischema_dispose(hudi_ischema *s) {
    if (!s) return;
    hudi_field_dispose(&s->root);
    memset(s, 0, sizeof(*s));
}

int hudi_ischema_copy(hudi_ischema *dst, const hudi_ischema *src, hudi_error *err) {
    memset(dst, 0, sizeof(*dst));
    if (hudi_field_copy(&dst->root, &src->root) < 0) {
        memset(dst, 0, sizeof(*dst));
        return hudi_error_oom(err);
    }
    dst->version_id = src->version_id;
    dst->max_column_id = src->max_column_id;
    return 0;
}

/* The largest id in the tree under f (f's own id included), or -1. */
static int32_t max_id(const hudi_field *f) {
    int32_t m = f->field_id;
    for (int32_t i = 0; i < f->n_children; i++) m = HUDI_MAX(m, max_id(&f->children[i]));
    return m;
}

/* ---- conversion of a table schema to the model ------------------------------------------------
 */

typedef struct cctx {
    hudi_error *err;
    hudi_buf path;
    int depth;
} cctx;

static int conv_bad(cctx *c, int code, const char *what) {
    return hudi_error_set(c->err, code, "internal schema: column %s: %s",
                          c->path.len ? c->path.data : "<root>", what);
}

static int conv_type(cctx *c, hudi_field *dst, const hudi_field *src);

static int conv_child(cctx *c, hudi_field *dst, const hudi_field *src, const char *name,
                      bool nullable) {
    size_t saved = c->path.len;
    if (saved) hudi_buf_putc(&c->path, '.');
    hudi_buf_puts(&c->path, name);
    int rc;
    if (hudi_buf_failed(&c->path) || hudi_field_init(dst, name, HUDI_TYPE_NULL, nullable) < 0)
        rc = hudi_error_oom(c->err);
    else if (src->comment && !(dst->comment = hudi_strdup(src->comment)))
        rc = hudi_error_oom(c->err);
    else
        rc = conv_type(c, dst, src);
    hudi_buf_truncate(&c->path, saved);
    return rc;
}

/* dst (initialised, named) gets the model type of src: Hudi's Avro -> InternalSchema converter
 * applied to what hudi_schema_parse_avro / hudi_schema_from_parquet produce. */
static int conv_type(cctx *c, hudi_field *dst, const hudi_field *src) {
    if (++c->depth > MAX_DEPTH) return conv_bad(c, HUDI_EUNSUPPORTED, "nested too deeply");
    int rc = 0;
    dst->unit = HUDI_UNIT_MICROS;
    switch (src->type) {
    case HUDI_TYPE_BOOL:
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_INT64:
    case HUDI_TYPE_FLOAT:
    case HUDI_TYPE_DOUBLE:
    case HUDI_TYPE_DATE:
    case HUDI_TYPE_BINARY: dst->type = src->type; break;
    case HUDI_TYPE_INT8:
    case HUDI_TYPE_INT16:
    case HUDI_TYPE_UINT8:
    case HUDI_TYPE_UINT16: dst->type = HUDI_TYPE_INT32; break;
    case HUDI_TYPE_UINT32: dst->type = HUDI_TYPE_INT64; break;
    case HUDI_TYPE_UINT64:
        dst->type = HUDI_TYPE_DECIMAL, dst->precision = 20, dst->scale = 0;
        dst->byte_width = hudi_schema_decimal_bytes(20);
        break;
    case HUDI_TYPE_FLOAT16: dst->type = HUDI_TYPE_FLOAT; break;
    case HUDI_TYPE_DECIMAL:
        if (src->precision < 1 || src->precision > 38 || src->scale < 0 ||
            src->scale > src->precision) {
            rc = conv_bad(c, HUDI_EINVAL, "invalid decimal precision or scale");
            break;
        }
        dst->type = HUDI_TYPE_DECIMAL, dst->precision = src->precision, dst->scale = src->scale;
        dst->byte_width = hudi_schema_decimal_bytes(src->precision);
        break;
    case HUDI_TYPE_TIME:
        /* time-millis and time-micros are "time" (micros); nanos has no Avro form: long */
        dst->type = src->unit == HUDI_UNIT_NANOS ? HUDI_TYPE_INT64 : HUDI_TYPE_TIME;
        break;
    case HUDI_TYPE_TIMESTAMP:
        /* timestamp-millis/micros are "timestamp" (micros, utc); Hudi 0.15's converter does not
         * know local-timestamp-* or nanos and keeps their long; INT96 reads as micros */
        if (src->hint == HUDI_HINT_INT96 || (src->utc && src->unit != HUDI_UNIT_NANOS))
            dst->type = HUDI_TYPE_TIMESTAMP, dst->utc = true;
        else
            dst->type = HUDI_TYPE_INT64;
        break;
    case HUDI_TYPE_STRING:
        if (src->hint == HUDI_HINT_UUID)
            dst->type = HUDI_TYPE_FIXED_BINARY, dst->byte_width = 16, dst->hint = HUDI_HINT_UUID;
        else
            dst->type = HUDI_TYPE_STRING;
        break;
    case HUDI_TYPE_FIXED_BINARY:
        dst->type = HUDI_TYPE_FIXED_BINARY, dst->byte_width = src->byte_width;
        if (src->hint == HUDI_HINT_UUID && src->byte_width == 16) dst->hint = HUDI_HINT_UUID;
        if (src->byte_width < 1) rc = conv_bad(c, HUDI_EINVAL, "fixed of no bytes");
        break;
    case HUDI_TYPE_STRUCT:
        dst->type = HUDI_TYPE_STRUCT;
        if (hudi_field_set_children(dst, src->n_children) < 0) {
            rc = hudi_error_oom(c->err);
            break;
        }
        for (int32_t i = 0; i < src->n_children && rc == 0; i++) {
            const hudi_field *s = &src->children[i];
            rc = conv_child(c, &dst->children[i], s, s->name ? s->name : "", s->nullable);
        }
        break;
    case HUDI_TYPE_LIST:
        dst->type = HUDI_TYPE_LIST;
        if (src->n_children != 1) {
            rc = conv_bad(c, HUDI_EINVAL, "a list without one element");
        } else if (hudi_field_set_children(dst, 1) < 0) {
            rc = hudi_error_oom(c->err);
        } else {
            rc = conv_child(c, &dst->children[0], &src->children[0], "element",
                            src->children[0].nullable);
        }
        break;
    case HUDI_TYPE_MAP: {
        dst->type = HUDI_TYPE_MAP;
        const hudi_field *kv = src->n_children == 1 ? &src->children[0] : NULL;
        if (!kv || kv->n_children != 2) {
            rc = conv_bad(c, HUDI_EINVAL, "a map without key and value");
            break;
        }
        if (hudi_field_set_children(dst, 1) < 0 ||
            hudi_field_init(&dst->children[0], "key_value", HUDI_TYPE_STRUCT, false) < 0 ||
            hudi_field_set_children(&dst->children[0], 2) < 0) {
            rc = hudi_error_oom(c->err);
            break;
        }
        /* Avro map keys are strings; Hudi's converter types every key "string" */
        hudi_field *key = &dst->children[0].children[0];
        if (hudi_field_init(key, "key", HUDI_TYPE_STRING, false) < 0) {
            rc = hudi_error_oom(c->err);
            break;
        }
        rc = conv_child(c, &dst->children[0].children[1], &kv->children[1], "value",
                        kv->children[1].nullable);
        break;
    }
    default: rc = conv_bad(c, HUDI_EUNSUPPORTED, "a type an InternalSchema cannot hold"); break;
    }
    c->depth--;
    return rc;
}

/* Hudi's id assignment for one type (internal-schema.md §3): a struct reserves a block for its
 * direct fields, then descends into each in order; a list takes one id, a map two. */
static void assign_type(hudi_field *f, int32_t *next);

static void assign_struct(hudi_field *f, int32_t *next, bool root) {
    int32_t base = root ? 0 : *next;
    *next = base + f->n_children;
    for (int32_t i = 0; i < f->n_children; i++) {
        f->children[i].field_id = base + i;
        assign_type(&f->children[i], next);
    }
}

static void assign_type(hudi_field *f, int32_t *next) {
    if (f->type == HUDI_TYPE_STRUCT) {
        assign_struct(f, next, false);
    } else if (f->type == HUDI_TYPE_LIST) {
        f->children[0].field_id = (*next)++;
        assign_type(&f->children[0], next);
    } else if (f->type == HUDI_TYPE_MAP) {
        hudi_field *kv = &f->children[0];
        kv->field_id = -1;
        kv->children[0].field_id = (*next)++;
        kv->children[1].field_id = (*next)++;
        assign_type(&kv->children[0], next);
        assign_type(&kv->children[1], next);
    }
}

/* Gives the new column `f` (already converted) id *next and its nested ids after it (Hudi's
 * refreshNewId). Used by schema_change.c and reconcile. */
void hudi_ischema_assign_new(hudi_field *f, int32_t *next) {
    f->field_id = (*next)++;
    assign_type(f, next);
}

/* Converts a type to the model without ids (schema_change.c). */
int hudi_ischema_convert_type(hudi_field *out, const hudi_field *src, const char *name,
                              hudi_error *err) {
    cctx c = {.err = err, .path = HUDI_BUF_INIT};
    memset(out, 0, sizeof(*out));
    int rc = conv_child(&c, out, src, name, src->nullable);
    hudi_buf_dispose(&c.path);
    if (rc < 0) {
        hudi_field_dispose(out);
        memset(out, 0, sizeof(*out));
    }
    return rc;
}

static const hudi_field *lossy_type(const hudi_field *f, hudi_buf *path) {
    size_t len = path->len;
    if (f->name) hudi_buf_printf(path, "%s%s", len ? "." : "", f->name);
    if ((f->type == HUDI_TYPE_TIMESTAMP && f->hint != HUDI_HINT_INT96 &&
         (!f->utc || f->unit == HUDI_UNIT_NANOS)) ||
        (f->type == HUDI_TYPE_TIME && f->unit == HUDI_UNIT_NANOS))
        return f;
    for (int32_t i = 0; i < f->n_children; i++) {
        const hudi_field *r = lossy_type(&f->children[i], path);
        if (r) return r;
    }
    path->len = len;
    return NULL;
}

int hudi_ischema_check_types(const hudi_field *root, const char *table, hudi_error *err) {
    hudi_buf path = HUDI_BUF_INIT;
    int rc = 0;
    for (int32_t i = 0; i < root->n_children && rc == 0; i++) {
        const hudi_field *f = lossy_type(&root->children[i], &path);
        if (!f) continue;
        const char *what = f->type == HUDI_TYPE_TIME    ? "a time in nanoseconds"
                           : f->unit == HUDI_UNIT_NANOS ? "a timestamp in nanoseconds"
                                                        : "a timestamp without time zone";
        rc = hudi_error_set(err, HUDI_EUNSUPPORTED,
                            "%s: column %s is %s, which Hudi's InternalSchema cannot hold (it "
                            "would become bigint); schema on read is not supported for this table",
                            table, path.data ? path.data : "?", what);
    }
    hudi_buf_dispose(&path);
    return rc;
}

int hudi_ischema_from_field(hudi_ischema *out, const hudi_field *root, int64_t version_id,
                            hudi_error *err) {
    memset(out, 0, sizeof(*out));
    if (root->type != HUDI_TYPE_STRUCT)
        return hudi_error_set(err, HUDI_EINVAL, "internal schema: the root is not a struct");
    cctx c = {.err = err, .path = HUDI_BUF_INIT};
    int rc = 0;
    if (hudi_field_init(&out->root, root->name ? root->name : "", HUDI_TYPE_STRUCT, false) < 0)
        rc = hudi_error_oom(err);
    else
        rc = conv_type(&c, &out->root, root);
    hudi_buf_dispose(&c.path);
    if (rc < 0) {
        hudi_ischema_dispose(out);
        return rc;
    }
    int32_t next = 0;
    out->root.field_id = -1;
    assign_struct(&out->root, &next, true);
    out->version_id = version_id;
    out->max_column_id = max_id(&out->root);
    return 0;
}

/* ---- JSON writing --------------------------------------------------------------------------- */

/* A JSON string as Jackson's generator writes it: short escapes for \b \t \n \f \r, \u00XX for
 * other control characters, everything else (UTF-8 included) verbatim. */

/* The name of a primitive in the JSON (internal-schema.md §2), written to `b`; false when the
 * model has no such primitive. */
bool hudi_ischema_type_text(hudi_buf *b, const hudi_field *f) {
    switch (f->type) {
    case HUDI_TYPE_BOOL: hudi_buf_puts(b, "boolean"); return true;
    case HUDI_TYPE_INT32: hudi_buf_puts(b, "int"); return true;
    case HUDI_TYPE_INT64: hudi_buf_puts(b, "long"); return true;
    case HUDI_TYPE_FLOAT: hudi_buf_puts(b, "float"); return true;
    case HUDI_TYPE_DOUBLE: hudi_buf_puts(b, "double"); return true;
    case HUDI_TYPE_DATE: hudi_buf_puts(b, "date"); return true;
    case HUDI_TYPE_TIME: hudi_buf_puts(b, "time"); return true;
    case HUDI_TYPE_TIMESTAMP: hudi_buf_puts(b, "timestamp"); return true;
    case HUDI_TYPE_STRING: hudi_buf_puts(b, "string"); return true;
    case HUDI_TYPE_BINARY: hudi_buf_puts(b, "binary"); return true;
    case HUDI_TYPE_FIXED_BINARY:
        if (f->hint == HUDI_HINT_UUID && f->byte_width == 16)
            hudi_buf_puts(b, "uuid");
        else
            hudi_buf_printf(b, "fixed[%d]", (int)f->byte_width);
        return true;
    case HUDI_TYPE_DECIMAL:
        hudi_buf_printf(b, "decimal(%d, %d)", (int)f->precision, (int)f->scale);
        return true;
    case HUDI_TYPE_STRUCT: hudi_buf_puts(b, "record"); return true;
    case HUDI_TYPE_LIST: hudi_buf_puts(b, "array"); return true;
    case HUDI_TYPE_MAP: hudi_buf_puts(b, "map"); return true;
    default: return false;
    }
}

typedef struct wctx {
    hudi_buf *out;
    hudi_error *err;
    int depth;
} wctx;

static int write_type(wctx *w, const hudi_field *f);

static int write_fields(wctx *w, const hudi_field *rec) {
    hudi_buf_puts(w->out, "\"type\":\"record\",\"fields\":[");
    for (int32_t i = 0; i < rec->n_children; i++) {
        const hudi_field *c = &rec->children[i];
        hudi_buf_printf(w->out, "%s{\"id\":%d,\"name\":", i ? "," : "", (int)c->field_id);
        hudi_schema_put_json_string(w->out, c->name ? c->name : "");
        hudi_buf_printf(w->out, ",\"optional\":%s,\"type\":", c->nullable ? "true" : "false");
        int rc = write_type(w, c);
        if (rc < 0) return rc;
        if (c->comment) {
            hudi_buf_puts(w->out, ",\"doc\":");
            hudi_schema_put_json_string(w->out, c->comment);
        }
        hudi_buf_putc(w->out, '}');
    }
    hudi_buf_puts(w->out, "]}");
    return 0;
}

static int write_type(wctx *w, const hudi_field *f) {
    int rc = 0;
    if (++w->depth > MAX_DEPTH)
        return hudi_error_set(w->err, HUDI_EINVAL, "internal schema: nested too deeply");
    if (f->type == HUDI_TYPE_STRUCT) {
        hudi_buf_putc(w->out, '{');
        rc = write_fields(w, f);
    } else if (f->type == HUDI_TYPE_LIST && f->n_children == 1) {
        const hudi_field *e = &f->children[0];
        hudi_buf_printf(w->out,
                        "{\"type\":\"array\",\"element_id\":%d,\"element\":", (int)e->field_id);
        if ((rc = write_type(w, e)) == 0)
            hudi_buf_printf(w->out, ",\"element_optional\":%s}", e->nullable ? "true" : "false");
    } else if (f->type == HUDI_TYPE_MAP && f->n_children == 1 && f->children[0].n_children == 2) {
        const hudi_field *k = &f->children[0].children[0], *v = &f->children[0].children[1];
        hudi_buf_printf(w->out, "{\"type\":\"map\",\"key_id\":%d,\"key\":", (int)k->field_id);
        if ((rc = write_type(w, k)) == 0) {
            hudi_buf_printf(w->out, ",\"value_id\":%d,\"value\":", (int)v->field_id);
            if ((rc = write_type(w, v)) == 0)
                hudi_buf_printf(w->out, ",\"value_optional\":%s}", v->nullable ? "true" : "false");
        }
    } else if (hudi_type_is_nested(f->type)) {
        rc = hudi_error_set(w->err, HUDI_EINVAL, "internal schema: column %s: malformed %s",
                            f->name ? f->name : "?", hudi_type_name(f->type));
    } else {
        hudi_buf_putc(w->out, '"');
        if (!hudi_ischema_type_text(w->out, f))
            rc = hudi_error_set(w->err, HUDI_EINVAL,
                                "internal schema: column %s: type %s has no InternalSchema form",
                                f->name ? f->name : "?", hudi_type_name(f->type));
        hudi_buf_putc(w->out, '"');
    }
    w->depth--;
    return rc;
}

/* One schema object (also for versions < 0, as Hudi writes history entries). */
static int write_schema(wctx *w, const hudi_ischema *s) {
    if (s->root.type != HUDI_TYPE_STRUCT)
        return hudi_error_set(w->err, HUDI_EINVAL, "internal schema: the root is not a struct");
    hudi_buf_printf(w->out, "{\"max_column_id\":%d,\"version_id\":%lld,", (int)s->max_column_id,
                    (long long)s->version_id);
    return write_fields(w, &s->root);
}

int hudi_ischema_write(hudi_buf *out, const hudi_ischema *s, hudi_error *err) {
    if (s->version_id < 0) return 0; /* the empty schema is "" */
    size_t saved = out->len;
    wctx w = {.out = out, .err = err};
    int rc = write_schema(&w, s);
    if (rc == 0 && hudi_buf_failed(out)) rc = hudi_error_oom(err);
    if (rc < 0 && !hudi_buf_failed(out)) hudi_buf_truncate(out, saved);
    return rc;
}

/* ---- JSON parsing --------------------------------------------------------------------------- */

typedef struct jctx {
    hudi_error *err;
    hudi_buf path;
    int depth;
    const char *where; /* "internal schema" or "schema history entry N" */
    char where_buf[64];
} jctx;

static int jbad(jctx *c, const char *fmt, ...) HUDI_PRINTF(2, 3);
static int jbad(jctx *c, const char *fmt, ...) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (c->path.len)
        return hudi_error_set(c->err, HUDI_ECORRUPT, "%s: column %s: %s", c->where, c->path.data,
                              msg);
    return hudi_error_set(c->err, HUDI_ECORRUPT, "%s: %s", c->where, msg);
}

static int parse_type(jctx *c, json_t *j, hudi_field *f);

/* Case-insensitive match of a lower-case literal prefix; returns the rest or NULL. */
static const char *skip_ci(const char *s, const char *lit) {
    for (; *lit; s++, lit++)
        if ((*s >= 'A' && *s <= 'Z' ? *s + 32 : *s) != *lit) return NULL;
    return s;
}

/* Digits as a non-negative int32; advances *s; false when none or too large. */
static bool parse_digits(const char **s, int32_t *out) {
    const char *p = *s;
    int64_t v = 0;
    if (*p < '0' || *p > '9') return false;
    for (; *p >= '0' && *p <= '9'; p++) {
        v = v * 10 + (*p - '0');
        if (v > INT32_MAX) return false;
    }
    *s = p;
    *out = (int32_t)v;
    return true;
}

static bool is_space(char ch) {
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v';
}

/* A primitive name (any case): Hudi's names, fixed[N] and decimal(P,\s*S). */
bool hudi_ischema_parse_primitive(const char *t, hudi_field *f) {
    static const struct {
        const char *name;
        hudi_type_id type;
    } prims[] = {{"boolean", HUDI_TYPE_BOOL},  {"int", HUDI_TYPE_INT32},
                 {"long", HUDI_TYPE_INT64},    {"float", HUDI_TYPE_FLOAT},
                 {"double", HUDI_TYPE_DOUBLE}, {"date", HUDI_TYPE_DATE},
                 {"time", HUDI_TYPE_TIME},     {"timestamp", HUDI_TYPE_TIMESTAMP},
                 {"string", HUDI_TYPE_STRING}, {"binary", HUDI_TYPE_BINARY}};
    const char *r;
    f->unit = HUDI_UNIT_MICROS;
    f->utc = false;
    f->hint = HUDI_HINT_NONE;
    for (size_t i = 0; i < HUDI_ARRAY_LEN(prims); i++)
        if ((r = skip_ci(t, prims[i].name)) && !*r) {
            f->type = prims[i].type;
            if (f->type == HUDI_TYPE_TIMESTAMP) f->utc = true;
            return true;
        }
    if ((r = skip_ci(t, "uuid")) && !*r) {
        f->type = HUDI_TYPE_FIXED_BINARY, f->byte_width = 16, f->hint = HUDI_HINT_UUID;
        return true;
    }
    int32_t a, b;
    if ((r = skip_ci(t, "fixed[")) && parse_digits(&r, &a) && r[0] == ']' && !r[1]) {
        if (a < 1) return false;
        f->type = HUDI_TYPE_FIXED_BINARY, f->byte_width = a;
        return true;
    }
    if ((r = skip_ci(t, "decimal(")) && parse_digits(&r, &a) && *r++ == ',') {
        while (is_space(*r)) r++;
        if (parse_digits(&r, &b) && r[0] == ')' && !r[1]) {
            if (a < 1 || a > 38 || b > a) return false;
            f->type = HUDI_TYPE_DECIMAL, f->precision = a, f->scale = b;
            f->byte_width = hudi_schema_decimal_bytes(a);
            return true;
        }
    }
    return false;
}

static int get_id(jctx *c, json_t *obj, const char *key, int32_t *out) {
    json_t *v = json_object_get(obj, key);
    if (!json_is_integer(v)) return jbad(c, "\"%s\" is missing or not an integer", key);
    json_int_t n = json_integer_value(v);
    if (n < 0 || n > INT32_MAX) return jbad(c, "\"%s\" %lld is not a column id", key, (long long)n);
    *out = (int32_t)n;
    return 0;
}

static int get_bool(jctx *c, json_t *obj, const char *key, bool *out) {
    json_t *v = json_object_get(obj, key);
    if (!json_is_boolean(v)) return jbad(c, "\"%s\" is missing or not a boolean", key);
    *out = json_is_true(v);
    return 0;
}

/* A child of a nested type: named, with its id and flags, then its type. */
static int parse_child(jctx *c, json_t *type, hudi_field *f, const char *name, int32_t id,
                       bool nullable, const char *doc) {
    size_t saved = c->path.len;
    if (saved) hudi_buf_putc(&c->path, '.');
    hudi_buf_puts(&c->path, name);
    int rc;
    if (hudi_buf_failed(&c->path) || hudi_field_init(f, name, HUDI_TYPE_NULL, nullable) < 0 ||
        (doc && !(f->comment = hudi_strdup(doc))))
        rc = hudi_error_oom(c->err);
    else {
        f->field_id = id;
        rc = parse_type(c, type, f);
    }
    hudi_buf_truncate(&c->path, saved);
    return rc;
}

static int parse_fields(jctx *c, json_t *obj, hudi_field *f) {
    json_t *fields = json_object_get(obj, "fields");
    if (!json_is_array(fields)) return jbad(c, "a record without a \"fields\" array");
    f->type = HUDI_TYPE_STRUCT;
    size_t n = json_array_size(fields);
    if (n > INT32_MAX || hudi_field_set_children(f, (int32_t)n) < 0) return hudi_error_oom(c->err);
    for (size_t i = 0; i < n; i++) {
        json_t *fj = json_array_get(fields, i);
        if (!json_is_object(fj)) return jbad(c, "field %zu is not an object", i);
        json_t *name = json_object_get(fj, "name");
        if (!json_is_string(name)) return jbad(c, "field %zu has no \"name\"", i);
        int32_t id = 0;
        bool optional = false;
        int rc;
        json_t *doc = json_object_get(fj, "doc");
        if (doc && !json_is_string(doc) && !json_is_null(doc))
            return jbad(c, "field %s: \"doc\" is not a string", json_string_value(name));
        if ((rc = get_id(c, fj, "id", &id)) < 0 ||
            (rc = get_bool(c, fj, "optional", &optional)) < 0)
            return rc;
        json_t *type = json_object_get(fj, "type");
        if (!type) return jbad(c, "field %s has no \"type\"", json_string_value(name));
        if ((rc = parse_child(c, type, &f->children[i], json_string_value(name), id, optional,
                              json_is_string(doc) ? json_string_value(doc) : NULL)) < 0)
            return rc;
    }
    return 0;
}

static int parse_type(jctx *c, json_t *j, hudi_field *f) {
    int rc = 0;
    if (++c->depth > MAX_DEPTH) return jbad(c, "nested too deeply");
    if (json_is_string(j)) {
        if (!hudi_ischema_parse_primitive(json_string_value(j), f))
            rc = jbad(c, "invalid type \"%s\"", json_string_value(j));
    } else if (json_is_object(j)) {
        json_t *t = json_object_get(j, "type");
        const char *ts = json_is_string(t) ? json_string_value(t) : "";
        if (!strcmp(ts, "record")) {
            rc = parse_fields(c, j, f);
        } else if (!strcmp(ts, "array")) {
            int32_t id = 0;
            bool opt = false;
            json_t *e = json_object_get(j, "element");
            f->type = HUDI_TYPE_LIST;
            if ((rc = get_id(c, j, "element_id", &id)) == 0 &&
                (rc = get_bool(c, j, "element_optional", &opt)) == 0) {
                if (!e)
                    rc = jbad(c, "an array without \"element\"");
                else if (hudi_field_set_children(f, 1) < 0)
                    rc = hudi_error_oom(c->err);
                else
                    rc = parse_child(c, e, &f->children[0], "element", id, opt, NULL);
            }
        } else if (!strcmp(ts, "map")) {
            int32_t kid = 0, vid = 0;
            bool opt = false;
            json_t *k = json_object_get(j, "key"), *v = json_object_get(j, "value");
            f->type = HUDI_TYPE_MAP;
            if ((rc = get_id(c, j, "key_id", &kid)) == 0 &&
                (rc = get_id(c, j, "value_id", &vid)) == 0 &&
                (rc = get_bool(c, j, "value_optional", &opt)) == 0) {
                hudi_field *kv;
                if (!k || !v) {
                    rc = jbad(c, "a map without \"key\" or \"value\"");
                } else if (hudi_field_set_children(f, 1) < 0 ||
                           hudi_field_init(kv = &f->children[0], "key_value", HUDI_TYPE_STRUCT,
                                           false) < 0 ||
                           hudi_field_set_children(kv, 2) < 0) {
                    rc = hudi_error_oom(c->err);
                } else if ((rc = parse_child(c, k, &kv->children[0], "key", kid, false, NULL)) ==
                           0) {
                    /* key optionality is not serialised; keys are never null here */
                    if (hudi_type_is_nested(kv->children[0].type)) {
                        rc = jbad(c, "a map key must be a primitive type");
                    } else {
                        rc = parse_child(c, v, &kv->children[1], "value", vid, opt, NULL);
                    }
                }
            }
        } else {
            rc = jbad(c, "unknown nested type \"%s\"", ts);
        }
    } else {
        rc = jbad(c, "a type must be a string or an object");
    }
    c->depth--;
    return rc;
}

/* Ids must be unique: collects them and checks. */
static int collect_ids(const hudi_field *f, int32_t **ids, size_t *n, size_t *cap) {
    if (f->field_id >= 0) {
        if (*n == *cap) {
            size_t nc = *cap ? *cap * 2 : 64;
            int32_t *p = hudi_realloc(*ids, nc * sizeof(int32_t));
            if (!p) return HUDI_ENOMEM;
            *ids = p, *cap = nc;
        }
        (*ids)[(*n)++] = f->field_id;
    }
    for (int32_t i = 0; i < f->n_children; i++)
        if (collect_ids(&f->children[i], ids, n, cap) < 0) return HUDI_ENOMEM;
    return 0;
}

static int cmp_i32(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return x < y ? -1 : x > y;
}

static int check_unique_ids(jctx *c, const hudi_field *root) {
    int32_t *ids = NULL;
    size_t n = 0, cap = 0;
    if (collect_ids(root, &ids, &n, &cap) < 0) {
        hudi_free(ids);
        return hudi_error_oom(c->err);
    }
    int rc = 0;
    if (n > 1) qsort(ids, n, sizeof(int32_t), cmp_i32);
    for (size_t i = 1; i < n && rc == 0; i++)
        if (ids[i] == ids[i - 1]) rc = jbad(c, "column id %d is used twice", (int)ids[i]);
    hudi_free(ids);
    return rc;
}

/* SerDeHelper.fromJson(JsonNode): version_id absent -> 0 and max_column_id recomputed;
 * max_column_id absent -> the largest id present. */
static int schema_from_json(jctx *c, json_t *j, hudi_ischema *out) {
    memset(out, 0, sizeof(*out));
    if (!json_is_object(j)) return jbad(c, "not a JSON object");
    json_t *t = json_object_get(j, "type");
    if (!json_is_string(t) || strcmp(json_string_value(t), "record"))
        return jbad(c, "\"type\" is not \"record\"");
    json_t *mj = json_object_get(j, "max_column_id"), *vj = json_object_get(j, "version_id");
    if (mj && !json_is_integer(mj)) return jbad(c, "\"max_column_id\" is not an integer");
    if (vj && !json_is_integer(vj)) return jbad(c, "\"version_id\" is not an integer");
    if (mj && (json_integer_value(mj) < INT32_MIN || json_integer_value(mj) > INT32_MAX))
        return jbad(c, "\"max_column_id\" is out of range");
    int rc;
    if (hudi_field_init(&out->root, "", HUDI_TYPE_STRUCT, false) < 0) return hudi_error_oom(c->err);
    if ((rc = parse_fields(c, j, &out->root)) < 0 || (rc = check_unique_ids(c, &out->root)) < 0) {
        hudi_ischema_dispose(out);
        return rc;
    }
    out->version_id = vj ? (int64_t)json_integer_value(vj) : 0;
    out->max_column_id = (vj && mj) ? (int32_t)json_integer_value(mj) : max_id(&out->root);
    return 0;
}

static bool json_oom(const json_error_t *e) {
    return json_error_code(e) == json_error_out_of_memory || e->text[0] == '\0';
}

static int load_json(json_t **out, const char *json, size_t len, const char *what,
                     hudi_error *err) {
    json_error_t jerr = {0};
    *out = json_loadb(json, len, 0, &jerr);
    if (*out) return 0;
    if (json_oom(&jerr)) return hudi_error_oom(err);
    return hudi_error_set(err, HUDI_ECORRUPT, "%s: bad JSON at line %d column %d: %s", what,
                          jerr.line, jerr.column, jerr.text);
}

int hudi_ischema_parse(hudi_ischema *out, const char *json, size_t len, hudi_error *err) {
    memset(out, 0, sizeof(*out));
    if (len == 0) {
        if (hudi_field_init(&out->root, "", HUDI_TYPE_STRUCT, false) < 0)
            return hudi_error_oom(err);
        out->version_id = -1;
        out->max_column_id = -1;
        return 0;
    }
    json_t *j;
    int rc = load_json(&j, json, len, "internal schema", err);
    if (rc < 0) return rc;
    jctx c = {.err = err, .path = HUDI_BUF_INIT, .where = "internal schema"};
    rc = schema_from_json(&c, j, out);
    hudi_buf_dispose(&c.path);
    json_decref(j);
    return rc;
}

/* ---- history -------------------------------------------------------------------------------- */

void hudi_ischema_history_dispose(hudi_ischema_history *h) {
    if (!h) return;
    for (size_t i = 0; i < h->count; i++) hudi_ischema_dispose(&h->items[i]);
    hudi_free(h->items);
    h->items = NULL;
    h->count = 0;
}

static int cmp_version_desc(const void *a, const void *b) {
    int64_t x = ((const hudi_ischema *)a)->version_id, y = ((const hudi_ischema *)b)->version_id;
    return x > y ? -1 : x < y;
}

int hudi_ischema_history_parse(hudi_ischema_history *out, const char *json, size_t len,
                               hudi_error *err) {
    out->items = NULL;
    out->count = 0;
    json_t *j;
    int rc = load_json(&j, json, len, "schema history", err);
    if (rc < 0) return rc;
    json_t *arr = json_is_object(j) ? json_object_get(j, "schemas") : NULL;
    if (!json_is_array(arr)) {
        json_decref(j);
        return hudi_error_set(err, HUDI_ECORRUPT, "schema history: no \"schemas\" array");
    }
    size_t n = json_array_size(arr);
    if (n && !(out->items = hudi_calloc(n, sizeof(hudi_ischema)))) {
        json_decref(j);
        return hudi_error_oom(err);
    }
    jctx c = {.err = err, .path = HUDI_BUF_INIT};
    for (size_t i = 0; i < n && rc == 0; i++) {
        snprintf(c.where_buf, sizeof(c.where_buf), "schema history entry %zu", i);
        c.where = c.where_buf;
        hudi_ischema s;
        if ((rc = schema_from_json(&c, json_array_get(arr, i), &s)) < 0) break;
        /* a version seen before: the later element wins (Hudi's TreeMap.put) */
        size_t k = 0;
        while (k < out->count && out->items[k].version_id != s.version_id) k++;
        if (k < out->count) hudi_ischema_dispose(&out->items[k]);
        out->items[k] = s;
        if (k == out->count) out->count++;
    }
    hudi_buf_dispose(&c.path);
    json_decref(j);
    if (rc < 0) {
        hudi_ischema_history_dispose(out);
        return rc;
    }
    if (out->count > 1) qsort(out->items, out->count, sizeof(hudi_ischema), cmp_version_desc);
    return 0;
}

int hudi_ischema_history_write(hudi_buf *out, const hudi_ischema_history *h, hudi_error *err) {
    size_t saved = out->len;
    wctx w = {.out = out, .err = err};
    int rc = 0;
    hudi_buf_puts(out, "{\"schemas\":[");
    for (size_t i = 0; i < h->count && rc == 0; i++) {
        if (i) hudi_buf_putc(out, ',');
        rc = write_schema(&w, &h->items[i]);
    }
    hudi_buf_puts(out, "]}");
    if (rc == 0 && hudi_buf_failed(out)) rc = hudi_error_oom(err);
    if (rc < 0 && !hudi_buf_failed(out)) hudi_buf_truncate(out, saved);
    return rc;
}

int hudi_ischema_history_add(hudi_ischema_history *h, const hudi_ischema *s, hudi_error *err) {
    hudi_ischema copy;
    int rc = hudi_ischema_copy(&copy, s, err);
    if (rc < 0) return rc;
    for (size_t i = 0; i < h->count; i++)
        if (h->items[i].version_id == s->version_id) {
            hudi_ischema_dispose(&h->items[i]);
            h->items[i] = copy;
            return 0;
        }
    hudi_ischema *items = hudi_realloc(h->items, (h->count + 1) * sizeof(hudi_ischema));
    if (!items) {
        hudi_ischema_dispose(&copy);
        return hudi_error_oom(err);
    }
    h->items = items;
    size_t at = 0;
    while (at < h->count && h->items[at].version_id > s->version_id) at++;
    memmove(&h->items[at + 1], &h->items[at], (h->count - at) * sizeof(hudi_ischema));
    h->items[at] = copy;
    h->count++;
    return 0;
}

const hudi_ischema *hudi_ischema_history_search(const hudi_ischema_history *h, int64_t version) {
    /* newest first: the first entry not newer than `version` */
    for (size_t i = 0; i < h->count; i++)
        if (h->items[i].version_id <= version) return &h->items[i];
    return NULL;
}

/* ---- lookups -------------------------------------------------------------------------------- */

/* The path segment of child i of f: struct field names, "element", "key"/"value" (the map's
 * key_value level is skipped). */
static const hudi_field *find_id_in(const hudi_field *f, int32_t id, hudi_buf *path) {
    for (int32_t i = 0; i < f->n_children; i++) {
        const hudi_field *c = &f->children[i];
        if (f->type == HUDI_TYPE_MAP) {
            const hudi_field *r = find_id_in(c, id, path); /* key_value: no segment */
            if (r) return r;
            continue;
        }
        size_t saved = path ? path->len : 0;
        if (path) {
            if (saved) hudi_buf_putc(path, '.');
            hudi_buf_puts(path, c->name ? c->name : "");
        }
        if (c->field_id == id) return c;
        const hudi_field *r = find_id_in(c, id, path);
        if (r) return r;
        if (path) hudi_buf_truncate(path, saved);
    }
    return NULL;
}

const hudi_field *hudi_ischema_find_id(const hudi_ischema *s, int32_t id, hudi_buf *path) {
    if (id < 0) return NULL;
    size_t saved = path ? path->len : 0;
    const hudi_field *r = find_id_in(&s->root, id, path);
    if (!r && path) hudi_buf_truncate(path, saved);
    return r;
}

/* The child of `f` whose path segment is name[0..n). */
const hudi_field *hudi_ischema_child(const hudi_field *f, const char *name, size_t n) {
    if (f->type == HUDI_TYPE_MAP) {
        if (f->n_children != 1) return NULL;
        f = &f->children[0];
    } else if (f->type != HUDI_TYPE_STRUCT && f->type != HUDI_TYPE_LIST) {
        return NULL;
    }
    for (int32_t i = 0; i < f->n_children; i++) {
        const char *cn = f->children[i].name ? f->children[i].name : "";
        if (strlen(cn) == n && !memcmp(cn, name, n)) return &f->children[i];
    }
    return NULL;
}

const hudi_field *hudi_ischema_find_path(const hudi_ischema *s, const char *path, int32_t *id_out) {
    const hudi_field *f = &s->root;
    const char *p = path;
    if (!*p) return NULL;
    for (;;) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        if (!(f = hudi_ischema_child(f, p, n))) return NULL;
        if (!dot) break;
        p = dot + 1;
    }
    if (id_out) *id_out = f->field_id;
    return f;
}

/* ---- reading a file by id ------------------------------------------------------------------- */

typedef struct id_entry {
    int32_t id;
    const hudi_field *field;
} id_entry;

static int collect_fields(const hudi_field *f, hudi_vec *v) {
    for (int32_t i = 0; i < f->n_children; i++) {
        const hudi_field *c = &f->children[i];
        if (c->field_id >= 0) {
            id_entry *e = hudi_vec_push(v);
            if (!e) return HUDI_ENOMEM;
            e->id = c->field_id, e->field = c;
        }
        if (collect_fields(c, v) < 0) return HUDI_ENOMEM;
    }
    return 0;
}

static int cmp_entry(const void *a, const void *b) {
    int32_t x = ((const id_entry *)a)->id, y = ((const id_entry *)b)->id;
    return x < y ? -1 : x > y;
}

static int rename_by_id(hudi_field *q, const hudi_vec *file) {
    for (int32_t i = 0; i < q->n_children; i++) {
        hudi_field *c = &q->children[i];
        if (c->field_id >= 0) {
            id_entry key = {.id = c->field_id};
            const id_entry *e =
                file->len ? bsearch(&key, file->data, file->len, sizeof(id_entry), cmp_entry)
                          : NULL;
            const char *name = e ? (e->field->name ? e->field->name : "") : "";
            char *copy = hudi_strdup(name);
            if (!copy) return HUDI_ENOMEM;
            hudi_free(c->name);
            c->name = copy;
        }
        if (rename_by_id(c, file) < 0) return HUDI_ENOMEM;
    }
    return 0;
}

int hudi_ischema_file_names(hudi_field *out, const hudi_ischema *query, const hudi_ischema *file,
                            hudi_error *err) {
    memset(out, 0, sizeof(*out));
    hudi_vec ids = HUDI_VEC_INIT(id_entry);
    if (collect_fields(&file->root, &ids) < 0) goto oom;
    if (ids.len > 1) qsort(ids.data, ids.len, sizeof(id_entry), cmp_entry);
    if (hudi_field_copy(out, &query->root) < 0) goto oom;
    if (rename_by_id(out, &ids) < 0) goto oom;
    hudi_vec_dispose(&ids);
    return 0;
oom:
    hudi_vec_dispose(&ids);
    hudi_field_dispose(out);
    memset(out, 0, sizeof(*out));
    return hudi_error_oom(err);
}

/* ---- versions ------------------------------------------------------------------------------- */

int64_t hudi_ischema_version_of(const char *instant) {
    if (!instant || !*instant) return -1;
    int64_t v = 0;
    for (const char *p = instant; *p; p++) {
        if (*p < '0' || *p > '9') return -1;
        if (v > (INT64_MAX - (*p - '0')) / 10) return -1;
        v = v * 10 + (*p - '0');
    }
    return v;
}
