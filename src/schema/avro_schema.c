/* avro_schema.c - Avro schema JSON <-> hudi_field (see schema.h for the conventions).
 *
 * Parsing walks the JSON with jansson, resolving named types (records, enums, fixed) by full
 * name; a reference re-converts the definition (a recursive type is refused). Writing emits the
 * JSON text directly so that key order and namespace elision match Avro's Schema.toString()
 * for the schemas Hudi writes: a "namespace" is written only when it differs from the
 * enclosing record's namespace. Invariant: every error names the field path (a.b.c). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>

#include "schema/schema.h"

#define MAX_DEPTH 64 /* nesting of JSON types; deeper schemas are refused */

/* ---- shared ------------------------------------------------------------------------------- */

int32_t hudi_schema_decimal_bytes(int32_t precision) {
    /* Spark's minBytesForPrecision, same doubles: smallest n with 2^(8n-1) >= 10^precision */
    int32_t n = 1;
    while (n < 17 && pow(2.0, 8 * n - 1) < pow(10.0, precision)) n++;
    return n;
}

void hudi_schema_record_fullname(hudi_buf *out, const char *table_name) {
    hudi_buf_printf(out, "hoodie.%s.%s_record", table_name, table_name);
}

/* ---- parsing ------------------------------------------------------------------------------ */

typedef struct named {
    json_t *def;
    char *ns; /* namespace the definition was found in (owned by the arena) */
    bool active;
} named;

typedef struct pctx {
    hudi_error *err;
    hudi_map names; /* full name -> named (arena) */
    hudi_arena arena;
    char path[512];
    size_t path_len;
    int depth;
} pctx;

static const char *path_of(pctx *c) { return c->path_len ? c->path : "<root>"; }

static size_t path_push(pctx *c, const char *name) {
    size_t saved = c->path_len;
    int n = snprintf(c->path + c->path_len, sizeof(c->path) - c->path_len, "%s%s",
                     c->path_len ? "." : "", name);
    if (n > 0) c->path_len = HUDI_MIN(c->path_len + (size_t)n, sizeof(c->path) - 1);
    return saved;
}

static void path_pop(pctx *c, size_t saved) {
    c->path_len = saved;
    c->path[saved] = '\0';
}

#define BAD(c, ...) bad(c, HUDI_ECORRUPT, __VA_ARGS__)
static int bad(pctx *c, int code, const char *fmt, ...) HUDI_PRINTF(3, 4);
static int bad(pctx *c, int code, const char *fmt, ...) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return hudi_error_set(c->err, code, "avro schema: field %s: %s", path_of(c), msg);
}

static bool valid_name(const char *s) {
    if (!s || !((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_')) return false;
    for (s++; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
              *s == '_'))
            return false;
    return true;
}

/* A namespace is empty or dot-separated names. */
static bool valid_namespace(const char *s) {
    if (!*s) return true;
    char part[256];
    for (;;) {
        const char *dot = strchr(s, '.');
        size_t n = dot ? (size_t)(dot - s) : strlen(s);
        if (n == 0 || n >= sizeof(part)) return false;
        memcpy(part, s, n);
        part[n] = '\0';
        if (!valid_name(part)) return false;
        if (!dot) return true;
        s = dot + 1;
    }
}

static int convert_type(pctx *c, json_t *t, const char *ns, hudi_field *f);

static const char *get_str(json_t *obj, const char *key) {
    json_t *v = json_object_get(obj, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* Registers a named type; fills *fullname and *space (the namespace its members inherit). */
static int define_name(pctx *c, json_t *obj, const char *ns, const char **fullname,
                       const char **space) {
    const char *name = get_str(obj, "name");
    if (!name) return BAD(c, "a %s needs a string \"name\"", get_str(obj, "type"));
    const char *dot = strrchr(name, '.');
    const char *own_ns = get_str(obj, "namespace");
    char *full, *sp;
    if (dot) { /* a dotted name carries its namespace */
        sp = hudi_arena_strndup(&c->arena, name, (size_t)(dot - name));
        full = hudi_arena_strdup(&c->arena, name);
        name = dot + 1;
    } else {
        const char *n_s = own_ns ? own_ns : ns;
        sp = hudi_arena_strdup(&c->arena, n_s ? n_s : "");
        hudi_buf b = HUDI_BUF_INIT;
        hudi_buf_printf(&b, "%s%s%s", sp ? sp : "", sp && *sp ? "." : "", name);
        full = hudi_buf_failed(&b) ? NULL : hudi_arena_strdup(&c->arena, b.data);
        hudi_buf_dispose(&b);
    }
    if (!full || !sp) return hudi_error_oom(c->err);
    if (!valid_name(name)) return BAD(c, "invalid Avro name '%s'", name);
    if (!valid_namespace(sp)) return BAD(c, "invalid Avro namespace '%s'", sp);
    named *prev = hudi_map_get(&c->names, full, strlen(full));
    if (prev && prev->def != obj) return BAD(c, "type %s is defined twice", full);
    if (!prev) {
        named *n = hudi_arena_alloc(&c->arena, sizeof(*n));
        if (!n) return hudi_error_oom(c->err);
        n->def = obj;
        n->ns = sp;
        if (hudi_map_put(&c->names, full, strlen(full), n, NULL) < 0) return hudi_error_oom(c->err);
    }
    *fullname = full;
    *space = sp;
    return 0;
}

static bool set_primitive(hudi_field *f, const char *t) {
    static const struct {
        const char *name;
        hudi_type_id type;
    } prims[] = {{"null", HUDI_TYPE_NULL},    {"boolean", HUDI_TYPE_BOOL},
                 {"int", HUDI_TYPE_INT32},    {"long", HUDI_TYPE_INT64},
                 {"float", HUDI_TYPE_FLOAT},  {"double", HUDI_TYPE_DOUBLE},
                 {"bytes", HUDI_TYPE_BINARY}, {"string", HUDI_TYPE_STRING}};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(prims); i++)
        if (!strcmp(t, prims[i].name)) {
            f->type = prims[i].type;
            if (f->type == HUDI_TYPE_NULL) f->nullable = true;
            return true;
        }
    return false;
}

static int convert_ref(pctx *c, const char *name, const char *ns, hudi_field *f) {
    named *n = NULL;
    if (!strchr(name, '.') && ns && *ns) {
        hudi_buf b = HUDI_BUF_INIT;
        hudi_buf_printf(&b, "%s.%s", ns, name);
        if (hudi_buf_failed(&b)) return hudi_error_oom(c->err);
        n = hudi_map_get(&c->names, b.data, b.len);
        hudi_buf_dispose(&b);
    }
    if (!n) n = hudi_map_get(&c->names, name, strlen(name));
    if (!n) return BAD(c, "unknown type '%s'", name);
    if (n->active)
        return bad(c, HUDI_EUNSUPPORTED, "recursive type '%s' has no columnar form", name);
    n->active = true;
    int rc = convert_type(c, n->def, n->ns, f);
    n->active = false;
    return rc;
}

static int get_int(pctx *c, json_t *obj, const char *key, bool required, int64_t dflt,
                   int64_t *out) {
    json_t *v = json_object_get(obj, key);
    if (!v) {
        if (required) return BAD(c, "missing \"%s\"", key);
        *out = dflt;
        return 0;
    }
    if (!json_is_integer(v)) return BAD(c, "\"%s\" is not an integer", key);
    *out = json_integer_value(v);
    return 0;
}

static int apply_decimal(pctx *c, json_t *obj, hudi_field *f, int32_t fixed_size) {
    int64_t p = 0, s = 0;
    int rc;
    if ((rc = get_int(c, obj, "precision", true, 0, &p)) < 0) return rc;
    if ((rc = get_int(c, obj, "scale", false, 0, &s)) < 0) return rc;
    if (p < 1 || s < 0 || s > p)
        return BAD(c, "decimal(%lld,%lld) is invalid", (long long)p, (long long)s);
    if (p > 38)
        return bad(c, HUDI_EUNSUPPORTED, "decimal precision %lld is above 38", (long long)p);
    if (fixed_size > 0 && hudi_schema_decimal_bytes((int32_t)p) > fixed_size)
        return BAD(c, "fixed(%d) cannot hold decimal(%lld,%lld)", fixed_size, (long long)p,
                   (long long)s);
    f->type = HUDI_TYPE_DECIMAL;
    f->precision = (int32_t)p;
    f->scale = (int32_t)s;
    f->byte_width = fixed_size;
    return 0;
}

/* Logical types on primitives; a logical type on the wrong base is ignored, as Avro does. */
static int apply_logical(pctx *c, json_t *obj, hudi_field *f) {
    const char *lt = get_str(obj, "logicalType");
    if (!lt) return 0;
    hudi_type_id t = f->type;
    if (t == HUDI_TYPE_INT32 && !strcmp(lt, "date")) {
        f->type = HUDI_TYPE_DATE;
    } else if (t == HUDI_TYPE_INT32 && !strcmp(lt, "time-millis")) {
        f->type = HUDI_TYPE_TIME, f->unit = HUDI_UNIT_MILLIS, f->utc = false;
    } else if (t == HUDI_TYPE_INT64 && !strcmp(lt, "time-micros")) {
        f->type = HUDI_TYPE_TIME, f->unit = HUDI_UNIT_MICROS, f->utc = false;
    } else if (t == HUDI_TYPE_INT64 && !strncmp(lt, "timestamp-", 10)) {
        lt += 10;
        f->utc = true;
        goto ts;
    } else if (t == HUDI_TYPE_INT64 && !strncmp(lt, "local-timestamp-", 16)) {
        lt += 16;
        f->utc = false;
    ts:
        if (!strcmp(lt, "millis"))
            f->unit = HUDI_UNIT_MILLIS;
        else if (!strcmp(lt, "micros"))
            f->unit = HUDI_UNIT_MICROS;
        else if (!strcmp(lt, "nanos"))
            f->unit = HUDI_UNIT_NANOS;
        else
            return 0;
        f->type = HUDI_TYPE_TIMESTAMP;
    } else if (t == HUDI_TYPE_STRING && !strcmp(lt, "uuid")) {
        f->hint = HUDI_HINT_UUID;
    } else if (t == HUDI_TYPE_BINARY && !strcmp(lt, "decimal")) {
        return apply_decimal(c, obj, f, 0);
    }
    return 0;
}

static int convert_fields(pctx *c, json_t *fields, const char *space, hudi_field *f) {
    int rc;
    if (!json_is_array(fields)) return BAD(c, "a record needs a \"fields\" array");
    size_t n = json_array_size(fields);
    if (n > INT32_MAX / 2) return BAD(c, "too many fields");
    if (hudi_field_set_children(f, (int32_t)n) < 0) return hudi_error_oom(c->err);
    hudi_map seen = HUDI_MAP_INIT;
    rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        json_t *fo = json_array_get(fields, i);
        const char *name = json_is_object(fo) ? get_str(fo, "name") : NULL;
        if (!name) {
            rc = BAD(c, "field %zu has no name", i);
            break;
        }
        size_t saved = path_push(c, name);
        hudi_field *child = &f->children[i];
        json_t *type = json_object_get(fo, "type");
        const char *doc = get_str(fo, "doc");
        if (!valid_name(name))
            rc = BAD(c, "invalid Avro name");
        else if (hudi_map_get(&seen, name, strlen(name)))
            rc = BAD(c, "duplicate field name");
        else if (!type)
            rc = BAD(c, "missing \"type\"");
        else if (hudi_field_init(child, name, HUDI_TYPE_NULL, false) < 0 ||
                 (doc && !(child->comment = hudi_strdup(doc))) ||
                 hudi_map_put(&seen, name, strlen(name), child, NULL) < 0)
            rc = hudi_error_oom(c->err);
        else
            rc = convert_type(c, type, space, child);
        if (rc == 0) path_pop(c, saved);
    }
    hudi_map_dispose(&seen);
    return rc;
}

static int convert_union(pctx *c, json_t *u, const char *ns, hudi_field *f) {
    size_t n = json_array_size(u), non_null = 0, first = 0;
    bool has_null = false;
    int rc;
    for (size_t i = 0; i < n; i++) {
        json_t *b = json_array_get(u, i);
        if (json_is_string(b) && !strcmp(json_string_value(b), "null")) {
            if (has_null) return BAD(c, "union has \"null\" twice");
            has_null = true;
        } else {
            if (json_is_array(b)) return BAD(c, "a union cannot contain a union");
            if (!non_null++) first = i;
        }
    }
    if (n == 0) return BAD(c, "empty union");
    if (non_null == 0) {
        f->type = HUDI_TYPE_NULL;
        f->nullable = true;
        return 0;
    }
    if (non_null == 1) {
        if ((rc = convert_type(c, json_array_get(u, first), ns, f)) < 0) return rc;
        f->nullable = f->nullable || has_null;
        return 0;
    }
    /* several branches: a struct of nullable members (parquet-avro, Spark) */
    f->type = HUDI_TYPE_STRUCT;
    f->nullable = true;
    if (hudi_field_set_children(f, (int32_t)non_null) < 0) return hudi_error_oom(c->err);
    int32_t k = 0;
    for (size_t i = 0; i < n; i++) {
        json_t *b = json_array_get(u, i);
        if (json_is_string(b) && !strcmp(json_string_value(b), "null")) continue;
        char name[32];
        snprintf(name, sizeof(name), "member%d", k);
        hudi_field *m = &f->children[k++];
        if (hudi_field_init(m, name, HUDI_TYPE_NULL, true) < 0) return hudi_error_oom(c->err);
        size_t saved = path_push(c, name);
        if ((rc = convert_type(c, b, ns, m)) < 0) return rc;
        path_pop(c, saved);
        m->nullable = true;
    }
    return 0;
}

static int convert_object(pctx *c, json_t *obj, const char *ns, hudi_field *f) {
    json_t *tv = json_object_get(obj, "type");
    const char *full, *space;
    int rc;
    if (!tv) return BAD(c, "a type object needs \"type\"");
    if (!json_is_string(tv)) return convert_type(c, tv, ns, f); /* {"type": {...}} */
    const char *t = json_string_value(tv);
    if (!strcmp(t, "record") || !strcmp(t, "error")) {
        if ((rc = define_name(c, obj, ns, &full, &space)) < 0) return rc;
        f->type = HUDI_TYPE_STRUCT;
        return convert_fields(c, json_object_get(obj, "fields"), space, f);
    }
    if (!strcmp(t, "enum")) {
        if ((rc = define_name(c, obj, ns, &full, &space)) < 0) return rc;
        json_t *syms = json_object_get(obj, "symbols");
        if (!json_is_array(syms)) return BAD(c, "an enum needs a \"symbols\" array");
        for (size_t i = 0; i < json_array_size(syms); i++)
            if (!json_is_string(json_array_get(syms, i)))
                return BAD(c, "enum symbol %zu is not a string", i);
        f->type = HUDI_TYPE_STRING;
        f->hint = HUDI_HINT_ENUM;
        return 0;
    }
    if (!strcmp(t, "fixed")) {
        int64_t size = 0;
        if ((rc = define_name(c, obj, ns, &full, &space)) < 0) return rc;
        if ((rc = get_int(c, obj, "size", true, 0, &size)) < 0) return rc;
        if (size < 1 || size > INT32_MAX)
            return BAD(c, "fixed size %lld is invalid", (long long)size);
        f->type = HUDI_TYPE_FIXED_BINARY;
        f->byte_width = (int32_t)size;
        const char *lt = get_str(obj, "logicalType");
        if (lt && !strcmp(lt, "decimal")) return apply_decimal(c, obj, f, (int32_t)size);
        if (lt && !strcmp(lt, "uuid") && size == 16) f->hint = HUDI_HINT_UUID;
        if (lt && !strcmp(lt, "duration") && size == 12) f->hint = HUDI_HINT_INTERVAL;
        return 0;
    }
    if (!strcmp(t, "array") || !strcmp(t, "map")) {
        bool is_map = t[0] == 'm';
        json_t *inner = json_object_get(obj, is_map ? "values" : "items");
        if (!inner) return BAD(c, "an %s needs \"%s\"", t, is_map ? "values" : "items");
        f->type = is_map ? HUDI_TYPE_MAP : HUDI_TYPE_LIST;
        if (hudi_field_set_children(f, 1) < 0) return hudi_error_oom(c->err);
        hudi_field *e = &f->children[0];
        if (!is_map) {
            if (hudi_field_init(e, "element", HUDI_TYPE_NULL, false) < 0)
                return hudi_error_oom(c->err);
            return convert_type(c, inner, ns, e);
        }
        if (hudi_field_init(e, "key_value", HUDI_TYPE_STRUCT, false) < 0 ||
            hudi_field_set_children(e, 2) < 0 ||
            hudi_field_init(&e->children[0], "key", HUDI_TYPE_STRING, false) < 0 ||
            hudi_field_init(&e->children[1], "value", HUDI_TYPE_NULL, false) < 0)
            return hudi_error_oom(c->err);
        return convert_type(c, inner, ns, &e->children[1]);
    }
    if (set_primitive(f, t)) return apply_logical(c, obj, f);
    return convert_ref(c, t, ns, f);
}

static int convert_type(pctx *c, json_t *t, const char *ns, hudi_field *f) {
    int rc;
    if (++c->depth > MAX_DEPTH) {
        c->depth--;
        return bad(c, HUDI_EUNSUPPORTED, "types nested deeper than %d", MAX_DEPTH);
    }
    switch (json_typeof(t)) {
    case JSON_STRING:
        rc = set_primitive(f, json_string_value(t)) ? 0
                                                    : convert_ref(c, json_string_value(t), ns, f);
        break;
    case JSON_ARRAY: rc = convert_union(c, t, ns, f); break;
    case JSON_OBJECT: rc = convert_object(c, t, ns, f); break;
    default: rc = BAD(c, "a type must be a string, an object or a union array");
    }
    c->depth--;
    return rc;
}

/* jansson fails without a message when it cannot allocate its first buffer, and with
 * json_error_out_of_memory later: both are out of memory, not bad JSON. */
static bool json_out_of_memory(const json_error_t *e) {
    return json_error_code(e) == json_error_out_of_memory || e->text[0] == '\0';
}

int hudi_schema_parse_avro(hudi_field *out, const char *json, size_t len, hudi_error *err) {
    pctx c = {.err = err, .names = HUDI_MAP_INIT, .arena = HUDI_ARENA_INIT};
    json_error_t jerr = {0}; /* jansson leaves it untouched when its first allocation fails */
    int rc;
    memset(out, 0, sizeof(*out));
    json_t *root = json_loadb(json, len, JSON_DECODE_ANY, &jerr);
    if (!root && json_out_of_memory(&jerr)) return hudi_error_oom(err);
    if (!root) {
        return hudi_error_set(err, HUDI_ECORRUPT, "avro schema: bad JSON at line %d column %d: %s",
                              jerr.line, jerr.column, jerr.text);
    }
    const char *t = json_is_object(root) ? get_str(root, "type") : NULL;
    if (!t || (strcmp(t, "record") && strcmp(t, "error"))) {
        rc = hudi_error_set(err, HUDI_ECORRUPT, "avro schema: the top level is not a record");
        goto done;
    }
    const char *full, *space;
    if (hudi_field_init(out, "", HUDI_TYPE_STRUCT, false) < 0) {
        rc = hudi_error_oom(err);
        goto done;
    }
    if ((rc = define_name(&c, root, NULL, &full, &space)) < 0) goto done;
    hudi_free(out->name);
    const char *doc = get_str(root, "doc");
    if (!(out->name = hudi_strdup(full)) || (doc && !(out->comment = hudi_strdup(doc)))) {
        rc = hudi_error_oom(err);
        goto done;
    }
    rc = convert_fields(&c, json_object_get(root, "fields"), space, out);
done:
    if (rc < 0) {
        hudi_field_dispose(out);
        memset(out, 0, sizeof(*out));
    }
    json_decref(root);
    hudi_map_dispose(&c.names);
    hudi_arena_dispose(&c.arena);
    return rc;
}

/* ---- writing ------------------------------------------------------------------------------ */

typedef struct wctx {
    hudi_buf *out;
    hudi_error *err;
    hudi_buf path;
    hudi_avro_style style;
} wctx;

/* JSON string as Jackson writes it: short escapes for \b \t \n \f \r, \u00XX for the other
 * control characters, everything else (UTF-8 included) verbatim. */
void hudi_schema_put_json_string(hudi_buf *b, const char *s) {
    static const char hex[] = "0123456789ABCDEF";
    hudi_buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': hudi_buf_puts(b, "\\\""); break;
        case '\\': hudi_buf_puts(b, "\\\\"); break;
        case '\b': hudi_buf_puts(b, "\\b"); break;
        case '\t': hudi_buf_puts(b, "\\t"); break;
        case '\n': hudi_buf_puts(b, "\\n"); break;
        case '\f': hudi_buf_puts(b, "\\f"); break;
        case '\r': hudi_buf_puts(b, "\\r"); break;
        default:
            if (*p < 0x20) {
                char e[7] = {'\\', 'u', '0', '0', hex[*p >> 4], hex[*p & 15], 0};
                hudi_buf_puts(b, e);
            } else {
                hudi_buf_putc(b, (char)*p);
            }
        }
    }
    hudi_buf_putc(b, '"');
}

/* Avro's writeName: the namespace only when it differs from the enclosing one. */
static void put_name(hudi_buf *b, const char *name, const char *ns, const char *enclosing) {
    hudi_buf_puts(b, ",\"name\":");
    hudi_schema_put_json_string(b, name);
    const char *e = enclosing ? enclosing : "";
    if (ns && *ns) {
        if (strcmp(ns, e)) {
            hudi_buf_puts(b, ",\"namespace\":");
            hudi_schema_put_json_string(b, ns);
        }
    } else if (*e) {
        hudi_buf_puts(b, ",\"namespace\":\"\"");
    }
}

static int werr(wctx *w, const hudi_field *f, const char *what) {
    return hudi_error_set(w->err, HUDI_EINVAL, "avro schema: field %s: %s",
                          w->path.len ? w->path.data : (f->name ? f->name : "?"), what);
}

static int write_type(wctx *w, const hudi_field *f, const char *rec_name, const char *parent_full,
                      const char *enclosing);

/* Writes a record named `name` in namespace `ns` whose members inherit namespace `ns`. */
static int write_record(wctx *w, const hudi_field *f, const char *name, const char *ns,
                        const char *enclosing, const char *doc) {
    hudi_buf full = HUDI_BUF_INIT;
    int rc = 0;
    hudi_buf_printf(&full, "%s%s%s", ns ? ns : "", ns && *ns ? "." : "", name);
    if (hudi_buf_failed(&full)) return hudi_error_oom(w->err);
    hudi_buf_puts(w->out, "{\"type\":\"record\"");
    put_name(w->out, name, ns, enclosing);
    if (doc) {
        hudi_buf_puts(w->out, ",\"doc\":");
        hudi_schema_put_json_string(w->out, doc);
    }
    hudi_buf_puts(w->out, ",\"fields\":[");
    for (int32_t i = 0; i < f->n_children && rc == 0; i++) {
        const hudi_field *c = &f->children[i];
        if (!c->name || !valid_name(c->name)) {
            rc = werr(w, c, "not a valid Avro field name");
            break;
        }
        size_t saved = w->path.len;
        hudi_buf_printf(&w->path, "%s%s", saved ? "." : "", c->name);
        hudi_buf_puts(w->out, i ? ",{\"name\":" : "{\"name\":");
        hudi_schema_put_json_string(w->out, c->name);
        hudi_buf_puts(w->out, ",\"type\":");
        rc = write_type(w, c, c->name, full.data, ns ? ns : "");
        if (c->comment) {
            hudi_buf_puts(w->out, ",\"doc\":");
            hudi_schema_put_json_string(w->out, c->comment);
        }
        if ((c->nullable && w->style == HUDI_AVRO_STYLE_HUDI) || c->type == HUDI_TYPE_NULL)
            hudi_buf_puts(w->out, ",\"default\":null");
        hudi_buf_putc(w->out, '}');
        hudi_buf_truncate(&w->path, saved);
    }
    hudi_buf_puts(w->out, "]}");
    hudi_buf_dispose(&full);
    return rc;
}

static void put_logical(hudi_buf *b, const char *base, const char *lt) {
    hudi_buf_printf(b, "{\"type\":\"%s\",\"logicalType\":\"%s\"}", base, lt);
}

/* A fixed named "fixed" in namespace "<parent record full name>.<field>" (Spark's naming). */
static void put_fixed_head(hudi_buf *b, const char *rec_name, const char *parent_full,
                           const char *enclosing, int32_t size) {
    hudi_buf ns = HUDI_BUF_INIT;
    hudi_buf_printf(&ns, "%s%s%s", parent_full, *parent_full ? "." : "", rec_name);
    hudi_buf_puts(b, "{\"type\":\"fixed\"");
    put_name(b, "fixed", ns.data ? ns.data : "", enclosing);
    if (hudi_buf_failed(&ns)) b->failed = true;
    hudi_buf_dispose(&ns);
    hudi_buf_printf(b, ",\"size\":%d", size);
}

static int write_inner(wctx *w, const hudi_field *f, const char *rec_name, const char *parent_full,
                       const char *enclosing) {
    hudi_buf *b = w->out;
    static const char *const units[] = {"millis", "micros", "nanos"};
    switch (f->type) {
    case HUDI_TYPE_NULL: hudi_buf_puts(b, "\"null\""); return 0;
    case HUDI_TYPE_BOOL: hudi_buf_puts(b, "\"boolean\""); return 0;
    case HUDI_TYPE_INT32: hudi_buf_puts(b, "\"int\""); return 0;
    case HUDI_TYPE_INT64: hudi_buf_puts(b, "\"long\""); return 0;
    case HUDI_TYPE_FLOAT: hudi_buf_puts(b, "\"float\""); return 0;
    case HUDI_TYPE_DOUBLE: hudi_buf_puts(b, "\"double\""); return 0;
    case HUDI_TYPE_BINARY: hudi_buf_puts(b, "\"bytes\""); return 0;
    case HUDI_TYPE_STRING:
        if (f->hint == HUDI_HINT_UUID)
            put_logical(b, "string", "uuid");
        else
            hudi_buf_puts(b, "\"string\"");
        return 0;
    case HUDI_TYPE_DATE: put_logical(b, "int", "date"); return 0;
    case HUDI_TYPE_TIME:
        if (f->unit == HUDI_UNIT_MILLIS)
            put_logical(b, "int", "time-millis");
        else if (f->unit == HUDI_UNIT_MICROS)
            put_logical(b, "long", "time-micros");
        else
            return werr(w, f, "Avro has no nanosecond time");
        return 0;
    case HUDI_TYPE_TIMESTAMP: {
        if (f->unit > HUDI_UNIT_NANOS) return werr(w, f, "bad time unit");
        char lt[40];
        snprintf(lt, sizeof(lt), "%stimestamp-%s", f->utc ? "" : "local-", units[f->unit]);
        put_logical(b, "long", lt);
        return 0;
    }
    case HUDI_TYPE_DECIMAL: {
        if (f->precision < 1 || f->precision > 38 || f->scale < 0 || f->scale > f->precision)
            return werr(w, f, "invalid decimal precision/scale");
        int32_t size = hudi_schema_decimal_bytes(f->precision);
        if (f->byte_width > size) size = f->byte_width;
        put_fixed_head(b, rec_name, parent_full, enclosing, size);
        hudi_buf_printf(b, ",\"logicalType\":\"decimal\",\"precision\":%d,\"scale\":%d}",
                        f->precision, f->scale);
        return 0;
    }
    case HUDI_TYPE_FIXED_BINARY:
        if (f->byte_width < 1) return werr(w, f, "fixed width must be positive");
        put_fixed_head(b, rec_name, parent_full, enclosing, f->byte_width);
        if (f->hint == HUDI_HINT_UUID && f->byte_width == 16)
            hudi_buf_puts(b, ",\"logicalType\":\"uuid\"");
        else if (f->hint == HUDI_HINT_INTERVAL && f->byte_width == 12)
            hudi_buf_puts(b, ",\"logicalType\":\"duration\"");
        hudi_buf_putc(b, '}');
        return 0;
    case HUDI_TYPE_STRUCT: return write_record(w, f, rec_name, parent_full, enclosing, NULL);
    case HUDI_TYPE_LIST:
        if (f->n_children != 1) return werr(w, f, "a list needs one element field");
        hudi_buf_puts(b, "{\"type\":\"array\",\"items\":");
        break;
    case HUDI_TYPE_MAP:
        if (f->n_children != 1 || f->children[0].n_children != 2)
            return werr(w, f, "a map needs a key_value struct of key and value");
        if (f->children[0].children[0].type != HUDI_TYPE_STRING)
            return werr(w, f, "Avro map keys must be strings");
        hudi_buf_puts(b, "{\"type\":\"map\",\"values\":");
        break;
    default: {
        char msg[96];
        snprintf(msg, sizeof(msg), "%s has no Avro type (see hudi_schema_from_parquet)",
                 hudi_type_name(f->type));
        return werr(w, f, msg);
    }
    }
    /* list items / map values: same record name and namespace as the field (Spark) */
    const hudi_field *e = f->type == HUDI_TYPE_LIST ? &f->children[0] : &f->children[0].children[1];
    int rc = write_type(w, e, rec_name, parent_full, enclosing);
    hudi_buf_putc(b, '}');
    return rc;
}

static int write_type(wctx *w, const hudi_field *f, const char *rec_name, const char *parent_full,
                      const char *enclosing) {
    bool wrap = f->nullable && f->type != HUDI_TYPE_NULL;
    bool null_first = w->style == HUDI_AVRO_STYLE_HUDI;
    if (wrap) hudi_buf_puts(w->out, null_first ? "[\"null\"," : "[");
    int rc = write_inner(w, f, rec_name, parent_full, enclosing);
    if (wrap) hudi_buf_puts(w->out, null_first ? "]" : ",\"null\"]");
    return rc;
}

int hudi_schema_write_avro(hudi_buf *out, const hudi_field *root, hudi_avro_style style,
                           hudi_error *err) {
    wctx w = {out, err, HUDI_BUF_INIT, style};
    if (root->type != HUDI_TYPE_STRUCT)
        return hudi_error_set(err, HUDI_EINVAL, "avro schema: the root must be a struct, not %s",
                              hudi_type_name(root->type));
    const char *full = root->name ? root->name : "";
    const char *dot = strrchr(full, '.');
    const char *name = dot ? dot + 1 : full;
    if (!valid_name(name))
        return hudi_error_set(err, HUDI_EINVAL, "avro schema: record name '%s' is not valid", full);
    char *ns = dot ? hudi_strndup(full, (size_t)(dot - full)) : NULL;
    if (dot && !ns) return hudi_error_oom(err);
    size_t start = out->len;
    int rc = write_record(&w, root, name, ns, NULL, root->comment);
    hudi_free(ns);
    if (rc == 0 && (hudi_buf_failed(out) || hudi_buf_failed(&w.path))) rc = hudi_error_oom(err);
    if (rc < 0 && !hudi_buf_failed(out)) hudi_buf_truncate(out, start);
    hudi_buf_dispose(&w.path);
    return rc;
}
