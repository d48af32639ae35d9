/* functions.c - the function registry (names, aliases, lookup), Spark's types as hudi_field
 * trees (names, DDL types, equality, the common type of two types) and the binding of calls
 * and casts with Spark's implicit coercion (docs/SQL.md "Types and casts").
 *
 * The registry is the union of the tables of ops.c, cast.c, fn_string.c, fn_datetime.c,
 * fn_math.c, fn_nested.c, fn_misc.c and aggregate.c, plus one entry per alias (a copy of its
 * function under the alias name, so SHOW FUNCTIONS lists it), sorted once by name. Looking an alias
 * up returns the function it names: evaluators may tell functions apart by fn->name. */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "sql/fn_int.h"

/* ---- the registry ------------------------------------------------------------------------ */

static const struct {
    const char *alias, *name;
} aliases[] = {
    {"!", "not"},
    {"!=", "<>"},
    {"==", "="},
    {"cardinality", "size"},
    {"ceiling", "ceil"},
    {"char", "chr"},
    {"char_length", "length"},
    {"character_length", "length"},
    {"date", "to_date"},
    {"dayofmonth", "day"},
    {"ifnull", "nvl"},
    {"isnotnull", "is_not_null"},
    {"isnull", "is_null"},
    {"lcase", "lower"},
    {"mod", "%"},
    {"now", "current_timestamp"},
    {"position", "locate"},
    {"power", "pow"},
    {"regexp", "rlike"},
    {"regexp_like", "rlike"},
    {"sha", "sha1"},
    {"shiftleft", "<<"},
    {"shiftright", ">>"},
    {"shiftrightunsigned", ">>>"},
    {"signum", "sign"},
    {"substr", "substring"},
    {"to_unix_timestamp", "unix_timestamp"},
    {"ucase", "upper"},
};

#define MAX_FUNCS 512
static const hudi_sql_func *registry[MAX_FUNCS];
static hudi_sql_func alias_funcs[HUDI_ARRAY_LEN(aliases)];
static const hudi_sql_func *alias_target[HUDI_ARRAY_LEN(aliases)];
static int32_t registry_len;
static pthread_once_t registry_once = PTHREAD_ONCE_INIT;

static int by_name(const void *a, const void *b) {
    return strcmp((*(const hudi_sql_func *const *)a)->name,
                  (*(const hudi_sql_func *const *)b)->name);
}

static void add_table(const hudi_sql_func *t, int32_t n) {
    for (int32_t i = 0; i < n && registry_len < MAX_FUNCS; i++) registry[registry_len++] = &t[i];
}

static const hudi_sql_func *find(const char *lower) {
    size_t lo = 0, hi = (size_t)registry_len;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(registry[mid]->name, lower);
        if (c == 0) return registry[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static void registry_init(void) {
    add_table(hudi_sql_ops_funcs, hudi_sql_ops_nfuncs);
    add_table(hudi_sql_string_funcs, hudi_sql_string_nfuncs);
    add_table(hudi_sql_datetime_funcs, hudi_sql_datetime_nfuncs);
    add_table(hudi_sql_math_funcs, hudi_sql_math_nfuncs);
    add_table(hudi_sql_nested_funcs, hudi_sql_nested_nfuncs);
    add_table(hudi_sql_misc_funcs, hudi_sql_misc_nfuncs);
    add_table(&hudi_sql_cast_func, 1);
    int32_t n_agg = 0;
    const hudi_sql_func *const *agg = hudi_sql_aggregate_funcs(&n_agg);
    for (int32_t i = 0; i < n_agg && registry_len < MAX_FUNCS; i++)
        registry[registry_len++] = agg[i];
    qsort(registry, (size_t)registry_len, sizeof(registry[0]), by_name);
    int32_t base = registry_len;
    for (size_t i = 0; i < HUDI_ARRAY_LEN(aliases); i++) {
        const hudi_sql_func *target = NULL;
        for (int32_t k = 0; k < base; k++)
            if (strcmp(registry[k]->name, aliases[i].name) == 0) target = registry[k];
        if (!target || registry_len >= MAX_FUNCS) continue;
        alias_funcs[i] = *target;
        alias_funcs[i].name = aliases[i].alias;
        alias_target[i] = target;
        registry[registry_len++] = &alias_funcs[i];
    }
    qsort(registry, (size_t)registry_len, sizeof(registry[0]), by_name);
}

const hudi_sql_func *hudi_sql_func_lookup(const char *name) {
    pthread_once(&registry_once, registry_init);
    char lower[64];
    size_t n = strlen(name);
    if (n >= sizeof(lower)) return NULL;
    for (size_t i = 0; i <= n; i++)
        lower[i] = (char)((name[i] >= 'A' && name[i] <= 'Z') ? name[i] + 32 : name[i]);
    const hudi_sql_func *f = find(lower);
    /* an alias entry resolves to the function it names */
    for (size_t i = 0; f && i < HUDI_ARRAY_LEN(aliases); i++)
        if (f == &alias_funcs[i]) return alias_target[i];
    return f;
}

const hudi_sql_func *const *hudi_sql_func_all(int32_t *count) {
    pthread_once(&registry_once, registry_init);
    *count = registry_len;
    return registry;
}

/* ---- types ------------------------------------------------------------------------------- */

hudi_field hudi_sql_prim(hudi_type_id t) {
    hudi_field f;
    memset(&f, 0, sizeof(f));
    f.type = t;
    f.nullable = true;
    f.unit = HUDI_UNIT_MICROS;
    f.utc = t == HUDI_TYPE_TIMESTAMP;
    f.field_id = -1;
    return f;
}

hudi_field hudi_sql_decimal(int32_t precision, int32_t scale) {
    hudi_field f = hudi_sql_prim(HUDI_TYPE_DECIMAL);
    f.precision = precision;
    f.scale = scale;
    return f;
}

bool hudi_sql_is_integral(hudi_type_id t) { return t >= HUDI_TYPE_INT8 && t <= HUDI_TYPE_INT64; }

bool hudi_sql_is_numeric(hudi_type_id t) {
    return hudi_sql_is_integral(t) || t == HUDI_TYPE_FLOAT || t == HUDI_TYPE_DOUBLE ||
           t == HUDI_TYPE_DECIMAL;
}

hudi_field hudi_sql_decimal_for(const hudi_field *t) {
    switch (t->type) {
    case HUDI_TYPE_INT8: return hudi_sql_decimal(3, 0);
    case HUDI_TYPE_INT16: return hudi_sql_decimal(5, 0);
    case HUDI_TYPE_INT32: return hudi_sql_decimal(10, 0);
    case HUDI_TYPE_DECIMAL: return hudi_sql_decimal(t->precision, t->scale);
    default: return hudi_sql_decimal(20, 0);
    }
}

hudi_field hudi_sql_decimal_adjust(int32_t precision, int32_t scale) {
    if (precision <= 38) return hudi_sql_decimal(precision, scale);
    int32_t int_digits = precision - scale;
    int32_t min_scale = HUDI_MIN(scale, 6);
    return hudi_sql_decimal(38, HUDI_MAX(38 - int_digits, min_scale));
}

bool hudi_sql_type_equal(const hudi_field *a, const hudi_field *b) {
    if (a->type != b->type) return false;
    switch (a->type) {
    case HUDI_TYPE_DECIMAL: return a->precision == b->precision && a->scale == b->scale;
    case HUDI_TYPE_TIMESTAMP:
    case HUDI_TYPE_TIME: return a->utc == b->utc && a->unit == b->unit;
    case HUDI_TYPE_FIXED_BINARY: return a->byte_width == b->byte_width;
    case HUDI_TYPE_STRUCT:
    case HUDI_TYPE_LIST:
    case HUDI_TYPE_MAP:
        if (a->n_children != b->n_children) return false;
        for (int32_t i = 0; i < a->n_children; i++) {
            if (a->type == HUDI_TYPE_STRUCT &&
                strcasecmp(a->children[i].name ? a->children[i].name : "",
                           b->children[i].name ? b->children[i].name : "") != 0)
                return false;
            if (!hudi_sql_type_equal(&a->children[i], &b->children[i])) return false;
        }
        return true;
    default: return true;
    }
}

void hudi_sql_type_spark_name(hudi_buf *out, const hudi_field *t) {
    switch (t->type) {
    case HUDI_TYPE_NULL: hudi_buf_puts(out, "void"); break;
    case HUDI_TYPE_BOOL: hudi_buf_puts(out, "boolean"); break;
    case HUDI_TYPE_INT8: hudi_buf_puts(out, "tinyint"); break;
    case HUDI_TYPE_INT16: hudi_buf_puts(out, "smallint"); break;
    case HUDI_TYPE_INT32: hudi_buf_puts(out, "int"); break;
    case HUDI_TYPE_INT64: hudi_buf_puts(out, "bigint"); break;
    case HUDI_TYPE_FLOAT16:
    case HUDI_TYPE_FLOAT: hudi_buf_puts(out, "float"); break;
    case HUDI_TYPE_DOUBLE: hudi_buf_puts(out, "double"); break;
    case HUDI_TYPE_DECIMAL: hudi_buf_printf(out, "decimal(%d,%d)", t->precision, t->scale); break;
    case HUDI_TYPE_STRING: hudi_buf_puts(out, "string"); break;
    case HUDI_TYPE_BINARY:
    case HUDI_TYPE_FIXED_BINARY: hudi_buf_puts(out, "binary"); break;
    case HUDI_TYPE_DATE: hudi_buf_puts(out, "date"); break;
    case HUDI_TYPE_TIMESTAMP: hudi_buf_puts(out, t->utc ? "timestamp" : "timestamp_ntz"); break;
    case HUDI_TYPE_LIST:
        hudi_buf_puts(out, "array<");
        if (t->n_children == 1) hudi_sql_type_spark_name(out, &t->children[0]);
        hudi_buf_putc(out, '>');
        break;
    case HUDI_TYPE_MAP:
        hudi_buf_puts(out, "map<");
        if (t->n_children == 1 && t->children[0].n_children == 2) {
            hudi_sql_type_spark_name(out, &t->children[0].children[0]);
            hudi_buf_putc(out, ',');
            hudi_sql_type_spark_name(out, &t->children[0].children[1]);
        }
        hudi_buf_putc(out, '>');
        break;
    case HUDI_TYPE_STRUCT:
        hudi_buf_puts(out, "struct<");
        for (int32_t i = 0; i < t->n_children; i++) {
            if (i) hudi_buf_putc(out, ',');
            hudi_buf_puts(out, t->children[i].name ? t->children[i].name : "");
            hudi_buf_putc(out, ':');
            hudi_sql_type_spark_name(out, &t->children[i]);
        }
        hudi_buf_putc(out, '>');
        break;
    case HUDI_TYPE_UINT8: hudi_buf_puts(out, "smallint"); break;
    case HUDI_TYPE_UINT16: hudi_buf_puts(out, "int"); break;
    case HUDI_TYPE_UINT32: hudi_buf_puts(out, "bigint"); break;
    case HUDI_TYPE_UINT64: hudi_buf_puts(out, "decimal(20,0)"); break;
    default: hudi_buf_puts(out, hudi_type_name(t->type)); break;
    }
}

const char *hudi_sql_type_str(hudi_arena *arena, const hudi_field *t) {
    hudi_buf b = HUDI_BUF_INIT;
    hudi_sql_type_spark_name(&b, t);
    const char *s = b.failed ? "?" : hudi_arena_strdup(arena, b.data ? b.data : "");
    hudi_buf_dispose(&b);
    return s ? s : "?";
}

int hudi_sql_field_copy(hudi_arena *arena, hudi_field *dst, const hudi_field *src) {
    *dst = *src;
    dst->name = NULL;
    dst->comment = NULL;
    dst->children = NULL;
    if (src->name && !(dst->name = hudi_arena_strdup(arena, src->name))) return HUDI_ENOMEM;
    if (src->comment && !(dst->comment = hudi_arena_strdup(arena, src->comment)))
        return HUDI_ENOMEM;
    if (src->n_children > 0) {
        dst->children = hudi_arena_alloc(arena, (size_t)src->n_children * sizeof(hudi_field));
        if (!dst->children) return HUDI_ENOMEM;
        for (int32_t i = 0; i < src->n_children; i++) {
            int rc = hudi_sql_field_copy(arena, &dst->children[i], &src->children[i]);
            if (rc < 0) return rc;
        }
    }
    return 0;
}

/* A LIST or MAP field with arena children (element, or key_value{key, value}). */
static int make_list(hudi_arena *arena, const hudi_field *elem, hudi_field *out) {
    *out = hudi_sql_prim(HUDI_TYPE_LIST);
    hudi_field *kid = hudi_arena_alloc(arena, sizeof(hudi_field));
    if (!kid || hudi_sql_field_copy(arena, kid, elem) < 0) return HUDI_ENOMEM;
    kid->name = (char *)"element";
    out->children = kid;
    out->n_children = 1;
    return 0;
}

static int make_map(hudi_arena *arena, const hudi_field *k, const hudi_field *v, hudi_field *out) {
    *out = hudi_sql_prim(HUDI_TYPE_MAP);
    hudi_field *kv = hudi_arena_alloc(arena, sizeof(hudi_field));
    hudi_field *kids = hudi_arena_alloc(arena, 2 * sizeof(hudi_field));
    if (!kv || !kids || hudi_sql_field_copy(arena, &kids[0], k) < 0 ||
        hudi_sql_field_copy(arena, &kids[1], v) < 0)
        return HUDI_ENOMEM;
    kids[0].name = (char *)"key";
    kids[0].nullable = false;
    kids[1].name = (char *)"value";
    *kv = hudi_sql_prim(HUDI_TYPE_STRUCT);
    kv->name = (char *)"key_value";
    kv->nullable = false;
    kv->children = kids;
    kv->n_children = 2;
    out->children = kv;
    out->n_children = 1;
    return 0;
}

static int type_error_at(hudi_error *err, hudi_sql_pos pos, const char *msg, const char *what) {
    return hudi_error_set(err, HUDI_ESQL, "line %u, column %u: %s%s", pos.line, pos.col, msg, what);
}

int hudi_sql_type_from_ast(hudi_arena *arena, const hudi_sql_type *t, const char *name,
                           hudi_field *out, hudi_error *err) {
    hudi_type_id id;
    switch (t->kind) {
    case HUDI_SQL_T_BOOLEAN: id = HUDI_TYPE_BOOL; break;
    case HUDI_SQL_T_TINYINT: id = HUDI_TYPE_INT8; break;
    case HUDI_SQL_T_SMALLINT: id = HUDI_TYPE_INT16; break;
    case HUDI_SQL_T_INT: id = HUDI_TYPE_INT32; break;
    case HUDI_SQL_T_BIGINT: id = HUDI_TYPE_INT64; break;
    case HUDI_SQL_T_FLOAT: id = HUDI_TYPE_FLOAT; break;
    case HUDI_SQL_T_DOUBLE: id = HUDI_TYPE_DOUBLE; break;
    case HUDI_SQL_T_STRING:
    case HUDI_SQL_T_CHAR:
    case HUDI_SQL_T_VARCHAR: id = HUDI_TYPE_STRING; break;
    case HUDI_SQL_T_BINARY: id = HUDI_TYPE_BINARY; break;
    case HUDI_SQL_T_DATE: id = HUDI_TYPE_DATE; break;
    case HUDI_SQL_T_TIMESTAMP:
    case HUDI_SQL_T_TIMESTAMP_LTZ:
    case HUDI_SQL_T_TIMESTAMP_NTZ: id = HUDI_TYPE_TIMESTAMP; break;
    case HUDI_SQL_T_VOID: id = HUDI_TYPE_NULL; break;
    case HUDI_SQL_T_DECIMAL: {
        int p = t->precision < 0 ? 10 : t->precision, s = t->scale < 0 ? 0 : t->scale;
        if (p < 1 || p > 38)
            return hudi_error_set(err, HUDI_ESQL,
                                  "line %u, column %u: decimal precision %d is outside 1..38",
                                  t->pos.line, t->pos.col, p);
        if (s > p)
            return hudi_error_set(err, HUDI_ESQL,
                                  "line %u, column %u: decimal scale %d is larger than its "
                                  "precision %d",
                                  t->pos.line, t->pos.col, s, p);
        *out = hudi_sql_decimal(p, s);
        goto named;
    }
    case HUDI_SQL_T_ARRAY: {
        hudi_field elem;
        int rc = hudi_sql_type_from_ast(arena, t->elem, "element", &elem, err);
        if (rc < 0) return rc;
        if (make_list(arena, &elem, out) < 0) return hudi_error_oom(err);
        goto named;
    }
    case HUDI_SQL_T_MAP: {
        hudi_field k, v;
        int rc;
        if ((rc = hudi_sql_type_from_ast(arena, t->elem, "key", &k, err)) < 0 ||
            (rc = hudi_sql_type_from_ast(arena, t->value, "value", &v, err)) < 0)
            return rc;
        if (make_map(arena, &k, &v, out) < 0) return hudi_error_oom(err);
        goto named;
    }
    case HUDI_SQL_T_STRUCT: {
        *out = hudi_sql_prim(HUDI_TYPE_STRUCT);
        int32_t n = (int32_t)t->fields.len;
        if (n > 0 && !(out->children = hudi_arena_alloc(arena, (size_t)n * sizeof(hudi_field))))
            return hudi_error_oom(err);
        for (int32_t i = 0; i < n; i++) {
            const hudi_sql_coldef *c = HUDI_SQL_AT(t->fields, hudi_sql_coldef, i);
            const char *fname =
                c->name.parts.len ? HUDI_SQL_AT(c->name.parts, char, c->name.parts.len - 1) : "";
            for (int32_t k = 0; k < i; k++)
                if (strcasecmp(out->children[k].name, fname) == 0)
                    return type_error_at(err, c->pos, "duplicate struct field ", fname);
            int rc = hudi_sql_type_from_ast(arena, c->type, fname, &out->children[i], err);
            if (rc < 0) return rc;
            out->children[i].nullable = !c->not_null;
            if (c->comment && !(out->children[i].comment = hudi_arena_strdup(arena, c->comment)))
                return hudi_error_oom(err);
        }
        out->n_children = n;
        goto named;
    }
    case HUDI_SQL_T_INTERVAL:
    default:
        return type_error_at(err, t->pos, "unsupported data type ", hudi_sql_type_name(t->kind));
    }
    *out = hudi_sql_prim(id);
    if (t->kind == HUDI_SQL_T_TIMESTAMP_NTZ) out->utc = false;
named:
    if (name && !(out->name = hudi_arena_strdup(arena, name))) return hudi_error_oom(err);
    return 0;
}

/* ---- common types and implicit casts ------------------------------------------------------ */

static int numeric_rank(hudi_type_id t) {
    switch (t) {
    case HUDI_TYPE_INT8: return 1;
    case HUDI_TYPE_INT16: return 2;
    case HUDI_TYPE_INT32: return 3;
    case HUDI_TYPE_INT64: return 4;
    case HUDI_TYPE_FLOAT: return 6;
    case HUDI_TYPE_DOUBLE: return 7;
    default: return 0;
    }
}

/* The wider of two numeric types (Spark's findWiderTypeForTwo on numbers). */
static hudi_field wider_numeric(const hudi_field *a, const hudi_field *b) {
    if (a->type == HUDI_TYPE_DECIMAL || b->type == HUDI_TYPE_DECIMAL) {
        const hudi_field *o = a->type == HUDI_TYPE_DECIMAL ? b : a;
        if (o->type == HUDI_TYPE_FLOAT || o->type == HUDI_TYPE_DOUBLE)
            return hudi_sql_prim(HUDI_TYPE_DOUBLE);
        hudi_field x = hudi_sql_decimal_for(a), y = hudi_sql_decimal_for(b);
        int32_t scale = HUDI_MAX(x.scale, y.scale);
        int32_t range = HUDI_MAX(x.precision - x.scale, y.precision - y.scale);
        return hudi_sql_decimal(HUDI_MIN(38, range + scale), HUDI_MIN(38, scale));
    }
    return numeric_rank(a->type) >= numeric_rank(b->type) ? hudi_sql_prim(a->type)
                                                          : hudi_sql_prim(b->type);
}

static bool is_atomic(hudi_type_id t) {
    return t != HUDI_TYPE_LIST && t != HUDI_TYPE_MAP && t != HUDI_TYPE_STRUCT;
}

static int common(hudi_arena *arena, const hudi_field *a, const hudi_field *b, hudi_field *out) {
    if (hudi_sql_type_equal(a, b)) return hudi_sql_field_copy(arena, out, a) < 0 ? HUDI_ENOMEM : 0;
    if (a->type == HUDI_TYPE_NULL) return hudi_sql_field_copy(arena, out, b) < 0 ? HUDI_ENOMEM : 0;
    if (b->type == HUDI_TYPE_NULL) return hudi_sql_field_copy(arena, out, a) < 0 ? HUDI_ENOMEM : 0;
    if (hudi_sql_is_numeric(a->type) && hudi_sql_is_numeric(b->type)) {
        *out = wider_numeric(a, b);
        return 0;
    }
    if ((a->type == HUDI_TYPE_DATE || a->type == HUDI_TYPE_TIMESTAMP) &&
        (b->type == HUDI_TYPE_DATE || b->type == HUDI_TYPE_TIMESTAMP)) {
        *out = hudi_sql_prim(HUDI_TYPE_TIMESTAMP);
        out->utc = (a->type == HUDI_TYPE_TIMESTAMP && a->utc) ||
                   (b->type == HUDI_TYPE_TIMESTAMP && b->utc);
        return 0;
    }
    if (a->type == HUDI_TYPE_STRING || b->type == HUDI_TYPE_STRING) {
        const hudi_field *o = a->type == HUDI_TYPE_STRING ? b : a;
        if (is_atomic(o->type) && o->type != HUDI_TYPE_BINARY && o->type != HUDI_TYPE_BOOL) {
            *out = hudi_sql_prim(HUDI_TYPE_STRING);
            return 0;
        }
        return HUDI_ESQL;
    }
    if (a->type != b->type || a->n_children != b->n_children) return HUDI_ESQL;
    if (a->type == HUDI_TYPE_LIST) {
        hudi_field e;
        int rc = common(arena, &a->children[0], &b->children[0], &e);
        if (rc < 0) return rc;
        e.nullable = a->children[0].nullable || b->children[0].nullable;
        return make_list(arena, &e, out) < 0 ? HUDI_ENOMEM : 0;
    }
    if (a->type == HUDI_TYPE_MAP) {
        hudi_field k, v;
        int rc;
        if ((rc = common(arena, &a->children[0].children[0], &b->children[0].children[0], &k)) <
                0 ||
            (rc = common(arena, &a->children[0].children[1], &b->children[0].children[1], &v)) < 0)
            return rc;
        return make_map(arena, &k, &v, out) < 0 ? HUDI_ENOMEM : 0;
    }
    if (a->type == HUDI_TYPE_STRUCT) {
        *out = hudi_sql_prim(HUDI_TYPE_STRUCT);
        int32_t n = a->n_children;
        if (n > 0 && !(out->children = hudi_arena_alloc(arena, (size_t)n * sizeof(hudi_field))))
            return HUDI_ENOMEM;
        for (int32_t i = 0; i < n; i++) {
            const hudi_field *x = &a->children[i], *y = &b->children[i];
            if (strcasecmp(x->name ? x->name : "", y->name ? y->name : "") != 0) return HUDI_ESQL;
            int rc = common(arena, x, y, &out->children[i]);
            if (rc < 0) return rc;
            out->children[i].name = x->name;
            out->children[i].nullable = x->nullable || y->nullable;
        }
        out->n_children = n;
        return 0;
    }
    return HUDI_ESQL;
}

int hudi_sql_common_type(hudi_arena *arena, const hudi_field *a, const hudi_field *b,
                         hudi_field *out, hudi_error *err) {
    /* `out` may be `a` or `b` (callers fold a list of types into one): build the result aside,
     * since common() reads its inputs' children while it fills its output. */
    hudi_field t;
    int rc = common(arena, a, b, &t);
    if (rc == HUDI_ENOMEM) return hudi_error_oom(err);
    if (rc < 0)
        return hudi_error_set(err, HUDI_ESQL, "incompatible types %s and %s",
                              hudi_sql_type_str(arena, a), hudi_sql_type_str(arena, b));
    *out = t;
    out->name = NULL;
    out->nullable = true;
    return 0;
}

bool hudi_sql_can_implicit(const hudi_field *from, const hudi_field *to) {
    hudi_type_id f = from->type, t = to->type;
    if (hudi_sql_type_equal(from, to) || f == HUDI_TYPE_NULL) return true;
    if (hudi_sql_is_numeric(f) && hudi_sql_is_numeric(t)) return true;
    if (f == HUDI_TYPE_STRING)
        return hudi_sql_is_numeric(t) || t == HUDI_TYPE_DATE || t == HUDI_TYPE_TIMESTAMP ||
               t == HUDI_TYPE_BINARY || t == HUDI_TYPE_BOOL;
    if (t == HUDI_TYPE_STRING) return is_atomic(f);
    if ((f == HUDI_TYPE_DATE || f == HUDI_TYPE_TIMESTAMP) &&
        (t == HUDI_TYPE_DATE || t == HUDI_TYPE_TIMESTAMP))
        return true;
    if (f == HUDI_TYPE_LIST && t == HUDI_TYPE_LIST)
        return hudi_sql_can_implicit(&from->children[0], &to->children[0]);
    return false;
}

/* Whether an explicit CAST from `from` to `to` exists (cast.c implements these). */
static bool can_cast(const hudi_field *from, const hudi_field *to) {
    hudi_type_id f = from->type, t = to->type;
    if (hudi_sql_type_equal(from, to) || f == HUDI_TYPE_NULL) return true;
    if (t == HUDI_TYPE_STRING) return true;
    bool fnum = hudi_sql_is_numeric(f) || f == HUDI_TYPE_BOOL;
    bool tnum = hudi_sql_is_numeric(t) || t == HUDI_TYPE_BOOL;
    switch (t) {
    case HUDI_TYPE_BOOL:
    case HUDI_TYPE_INT8:
    case HUDI_TYPE_INT16:
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_INT64:
    case HUDI_TYPE_FLOAT:
    case HUDI_TYPE_DOUBLE:
    case HUDI_TYPE_DECIMAL:
        return fnum || f == HUDI_TYPE_STRING || f == HUDI_TYPE_TIMESTAMP || f == HUDI_TYPE_DATE;
    case HUDI_TYPE_DATE: return f == HUDI_TYPE_STRING || f == HUDI_TYPE_TIMESTAMP;
    case HUDI_TYPE_TIMESTAMP:
        return f == HUDI_TYPE_STRING || f == HUDI_TYPE_DATE || f == HUDI_TYPE_TIMESTAMP || fnum;
    case HUDI_TYPE_BINARY:
        return f == HUDI_TYPE_STRING || hudi_sql_is_integral(f) || f == HUDI_TYPE_FIXED_BINARY;
    case HUDI_TYPE_LIST:
        return f == HUDI_TYPE_LIST && can_cast(&from->children[0], &to->children[0]);
    case HUDI_TYPE_MAP:
        return f == HUDI_TYPE_MAP &&
               can_cast(&from->children[0].children[0], &to->children[0].children[0]) &&
               can_cast(&from->children[0].children[1], &to->children[0].children[1]);
    case HUDI_TYPE_STRUCT:
        if (f != HUDI_TYPE_STRUCT || from->n_children != to->n_children) return false;
        for (int32_t i = 0; i < to->n_children; i++)
            if (!can_cast(&from->children[i], &to->children[i])) return false;
        return true;
    default: (void)tnum; return false;
    }
}

/* ---- binding -------------------------------------------------------------------------------- */

int hudi_sql_bind_error(const hudi_sql_bind_call *call, hudi_error *err, const char *fmt, ...) {
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return hudi_error_set(err, HUDI_ESQL, "line %u, column %u: %s: %s", call->pos.line,
                          call->pos.col, call->name, msg);
}

hudi_field hudi_sql_keep(hudi_sql_bind_call *call, const hudi_field *t) {
    hudi_field f;
    if (hudi_sql_field_copy(call->ctx->arena, &f, t) < 0) return hudi_sql_prim(t->type);
    return f;
}

int hudi_sql_want(hudi_sql_bind_call *call, int32_t i, hudi_field t, hudi_error *err) {
    const hudi_field *have = &call->args[i]->type;
    if (!hudi_sql_can_implicit(have, &t))
        return hudi_sql_bind_error(call, err, "argument %d requires %s, not %s", i + 1,
                                   hudi_sql_type_str(call->ctx->arena, &t),
                                   hudi_sql_type_str(call->ctx->arena, have));
    if (!hudi_sql_type_equal(have, &t)) call->arg_types[i] = hudi_sql_keep(call, &t);
    return 0;
}

int hudi_sql_want_common(hudi_sql_bind_call *call, int32_t from, int32_t to, hudi_field *out,
                         hudi_error *err) {
    hudi_field acc = hudi_sql_prim(HUDI_TYPE_NULL);
    for (int32_t i = from; i < to; i++) {
        hudi_field next;
        int rc = common(call->ctx->arena, &acc, &call->args[i]->type, &next);
        if (rc == HUDI_ENOMEM) return hudi_error_oom(err);
        if (rc < 0)
            return hudi_sql_bind_error(call, err,
                                       "arguments of types %s and %s have no common type",
                                       hudi_sql_type_str(call->ctx->arena, &acc),
                                       hudi_sql_type_str(call->ctx->arena, &call->args[i]->type));
        acc = next;
    }
    acc.name = NULL;
    acc.nullable = true;
    for (int32_t i = from; i < to; i++)
        if (!hudi_sql_type_equal(&call->args[i]->type, &acc)) call->arg_types[i] = acc;
    *out = acc;
    return 0;
}

bool hudi_sql_arg_const(const hudi_sql_bind_call *call, int32_t i) {
    const hudi_sql_bexpr *e = call->args[i];
    while (e->kind == HUDI_SQL_BX_CALL && e->fn == &hudi_sql_cast_func) e = e->args[0];
    return e->kind == HUDI_SQL_BX_CONST;
}

const char *hudi_sql_const_str(hudi_sql_bind_call *call, int32_t i, size_t *len) {
    const hudi_sql_bexpr *e = call->args[i];
    if (e->kind != HUDI_SQL_BX_CONST || !e->value || e->value->length < 1 ||
        !hudi_array_is_valid(e->value, 0) || e->type.type != HUDI_TYPE_STRING)
        return NULL;
    const hudi_array *a = e->value;
    size_t n = (size_t)(a->offsets[1] - a->offsets[0]);
    if (len) *len = n;
    return hudi_arena_strndup(call->ctx->arena, (const char *)a->data + a->offsets[0], n);
}

void *hudi_sql_state_alloc(hudi_sql_ctx *ctx, size_t n) { return hudi_arena_alloc(ctx->arena, n); }

static int new_call(hudi_arena *arena, const hudi_sql_func *fn, hudi_sql_bexpr **args,
                    int32_t n_args, hudi_sql_pos pos, hudi_sql_bexpr **out) {
    hudi_sql_bexpr *e = hudi_arena_alloc(arena, sizeof(*e));
    if (!e) return HUDI_ENOMEM;
    e->kind = HUDI_SQL_BX_CALL;
    e->fn = fn;
    e->n_args = n_args;
    e->pos = pos;
    e->column = -1;
    if (n_args > 0) {
        if (!(e->args = hudi_arena_alloc(arena, (size_t)n_args * sizeof(*e->args))))
            return HUDI_ENOMEM;
        memcpy(e->args, args, (size_t)n_args * sizeof(*e->args));
    }
    *out = e;
    return 0;
}

int hudi_sql_bind_cast(hudi_sql_ctx *ctx, hudi_sql_bexpr *e, const hudi_field *to,
                       hudi_sql_bexpr **out, hudi_error *err) {
    if (hudi_sql_type_equal(&e->type, to)) {
        *out = e;
        return 0;
    }
    if (!can_cast(&e->type, to))
        return hudi_error_set(err, HUDI_ESQL, "line %u, column %u: cannot cast %s to %s",
                              e->pos.line, e->pos.col, hudi_sql_type_str(ctx->arena, &e->type),
                              hudi_sql_type_str(ctx->arena, to));
    hudi_sql_bexpr *c;
    if (new_call(ctx->arena, &hudi_sql_cast_func, &e, 1, e->pos, &c) < 0 ||
        hudi_sql_field_copy(ctx->arena, &c->type, to) < 0)
        return hudi_error_oom(err);
    c->type.name = NULL;
    c->type.nullable = true;
    c->text = e->text;
    *out = c;
    return 0;
}

int hudi_sql_bind_fn(hudi_sql_ctx *ctx, const char *name, hudi_sql_bexpr **args, int32_t n_args,
                     hudi_sql_pos pos, hudi_sql_bexpr **out, hudi_error *err) {
    const hudi_sql_func *fn = hudi_sql_func_lookup(name);
    if (!fn)
        return hudi_error_set(err, HUDI_ESQL, "line %u, column %u: undefined function: %s",
                              pos.line, pos.col, name);
    if (n_args < fn->min_args || (fn->max_args >= 0 && n_args > fn->max_args)) {
        if (fn->min_args == fn->max_args)
            return hudi_error_set(
                err, HUDI_ESQL, "line %u, column %u: %s takes %d argument%s, %d given", pos.line,
                pos.col, fn->name, fn->min_args, fn->min_args == 1 ? "" : "s", n_args);
        if (fn->max_args < 0)
            return hudi_error_set(
                err, HUDI_ESQL, "line %u, column %u: %s takes at least %d argument%s, %d given",
                pos.line, pos.col, fn->name, fn->min_args, fn->min_args == 1 ? "" : "s", n_args);
        return hudi_error_set(err, HUDI_ESQL,
                              "line %u, column %u: %s takes %d to %d arguments, %d given", pos.line,
                              pos.col, fn->name, fn->min_args, fn->max_args, n_args);
    }
    hudi_sql_bind_call call;
    memset(&call, 0, sizeof(call));
    call.ctx = ctx;
    call.name = fn->name;
    call.n_args = n_args;
    call.args = args;
    call.pos = pos;
    call.result = hudi_sql_prim(HUDI_TYPE_NULL);
    if (n_args > 0) {
        if (!(call.arg_types = hudi_arena_alloc(ctx->arena, (size_t)n_args * sizeof(hudi_field))))
            return hudi_error_oom(err);
        for (int32_t i = 0; i < n_args; i++) call.arg_types[i] = args[i]->type;
    }
    int rc = fn->bind ? fn->bind(&call, err) : 0;
    if (rc < 0) {
        if (call.state && fn->free_state) fn->free_state(call.state);
        return rc;
    }
    hudi_sql_bexpr *e;
    if (new_call(ctx->arena, fn, args, n_args, pos, &e) < 0) {
        if (call.state && fn->free_state) fn->free_state(call.state);
        return hudi_error_oom(err);
    }
    e->fn_state = call.state;
    for (int32_t i = 0; i < n_args; i++)
        if ((rc = hudi_sql_bind_cast(ctx, args[i], &call.arg_types[i], &e->args[i], err)) < 0)
            return rc;
    e->type = call.result;
    e->type.name = NULL;
    *out = e;
    return 0;
}

/* ---- result writers ------------------------------------------------------------------------ */

int hudi_sql_out_new(const hudi_field *type, int64_t nrows, hudi_array **out, hudi_error *err) {
    hudi_array *a;
    int rc = hudi_array_new(&a, type, err);
    if (rc < 0) return rc;
    if ((rc = hudi_array_reserve(a, nrows > 0 ? nrows : 1, err)) < 0 ||
        (rc = hudi_array_ensure_validity(a, err)) < 0) {
        hudi_array_free(a);
        return rc;
    }
    *out = a;
    return 0;
}

void hudi_sql_out_and_validity(hudi_array *o, const hudi_sql_datum *args, int32_t n,
                               int64_t nrows) {
    hudi_bitmap_set_range(o->validity, 0, nrows, true);
    size_t bytes = (size_t)(nrows + 7) / 8;
    for (int32_t k = 0; k < n; k++) {
        const hudi_array *a = args[k].array;
        if (a->field->type == HUDI_TYPE_NULL || (args[k].is_const && !hudi_array_is_valid(a, 0))) {
            hudi_bitmap_set_range(o->validity, 0, nrows, false);
            return;
        }
        if (!args[k].is_const && a->validity)
            for (size_t b = 0; b < bytes; b++) o->validity[b] &= a->validity[b];
    }
}

void hudi_sql_out_null(hudi_array *a, int64_t i) {
    hudi_bit_clear(a->validity, i);
    switch (a->field->type) {
    case HUDI_TYPE_BOOL: hudi_bit_clear(a->values, i); break;
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY:
    case HUDI_TYPE_LIST:
    case HUDI_TYPE_MAP: a->offsets[i + 1] = a->offsets[i]; break;
    case HUDI_TYPE_NULL:
    case HUDI_TYPE_STRUCT: break;
    default: {
        int w = hudi_type_width(a->field);
        if (w > 0) memset((uint8_t *)a->values + (size_t)w * (size_t)i, 0, (size_t)w);
    }
    }
}

void hudi_sql_out_done(hudi_array *a, int64_t nrows) {
    a->length = nrows;
    a->null_count = a->validity ? nrows - hudi_bitmap_count(a->validity, 0, nrows) : 0;
    if (a->null_count == 0 && a->field->type != HUDI_TYPE_NULL && a->validity) {
        /* no nulls: no bitmap, so consumers take their fast paths */
        hudi_aligned_free(a->validity);
        a->validity = NULL;
        a->has_validity_capacity = false;
    }
}

int hudi_sql_out_str(hudi_array *a, int64_t i, const void *p, size_t n, hudi_error *err) {
    uint8_t *w = hudi_sql_out_reserve(a, n, err);
    if (!w) return err && err->code ? err->code : HUDI_ENOMEM;
    if (n) memcpy(w, p, n);
    hudi_sql_out_commit(a, i, n);
    return 0;
}

int hudi_sql_out_copy(hudi_array *a, int64_t i, const hudi_array *src, int64_t row,
                      hudi_error *err) {
    if (!src || !hudi_array_is_valid(src, row) || src->field->type == HUDI_TYPE_NULL) {
        if (hudi_type_is_nested(a->field->type)) {
            /* keep children in step: append an empty/null row through the slow path */
            int64_t saved = a->length;
            a->length = i;
            int rc = hudi_array_append_null(a, err);
            a->length = saved;
            if (rc < 0) return rc;
            a->null_count--;
            hudi_bit_clear(a->validity, i);
            return 0;
        }
        hudi_sql_out_null(a, i);
        return 0;
    }
    switch (a->field->type) {
    case HUDI_TYPE_BOOL: hudi_sql_out_bool(a, i, hudi_bit_get(src->values, row)); return 0;
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY:
        return hudi_sql_out_str(a, i, src->data + src->offsets[row],
                                (size_t)(src->offsets[row + 1] - src->offsets[row]), err);
    case HUDI_TYPE_LIST:
    case HUDI_TYPE_MAP:
    case HUDI_TYPE_STRUCT: {
        int64_t saved = a->length;
        a->length = i;
        int rc = hudi_array_append_range(a, src, row, 1, err);
        a->length = saved;
        if (rc < 0) return rc;
        hudi_bit_set(a->validity, i);
        return 0;
    }
    default: {
        int w = hudi_type_width(a->field);
        memcpy((uint8_t *)a->values + (size_t)w * (size_t)i,
               (const uint8_t *)src->values + (size_t)w * (size_t)row, (size_t)w);
        hudi_bit_set(a->validity, i);
        return 0;
    }
    }
}

int hudi_sql_gather(const hudi_field *type, const hudi_sql_datum *args, const int32_t *choice,
                    int64_t nrows, hudi_array **out, hudi_error *err) {
    hudi_array *a;
    int rc = hudi_sql_out_new(type, nrows, &a, err);
    if (rc < 0) return rc;
    for (int64_t i = 0; i < nrows; i++) {
        const hudi_sql_datum *d = choice[i] >= 0 ? &args[choice[i]] : NULL;
        if ((rc = hudi_sql_out_copy(a, i, d ? d->array : NULL, d ? hudi_sql_row(d, i) : 0, err)) <
            0)
            break;
    }
    if (rc < 0) {
        hudi_array_free(a);
        return rc;
    }
    hudi_sql_out_done(a, nrows);
    *out = a;
    return 0;
}

/* ---- comparing values --------------------------------------------------------------------------
 */

static int cmp_f64(double x, double y) {
    bool nx = isnan(x), ny = isnan(y);
    if (nx || ny) return nx && ny ? 0 : nx ? 1 : -1;
    return x < y ? -1 : x > y ? 1 : 0;
}

int hudi_sql_cmp_value(const hudi_array *a, int64_t i, const hudi_array *b, int64_t j) {
    bool va = hudi_array_is_valid(a, i), vb = hudi_array_is_valid(b, j);
    if (!va || !vb) return va == vb ? 0 : va ? 1 : -1;
    switch (a->field->type) {
    case HUDI_TYPE_NULL: return 0;
    case HUDI_TYPE_FLOAT:
    case HUDI_TYPE_DOUBLE:
    case HUDI_TYPE_FLOAT16: return cmp_f64(hudi_sql_num_f64(a, i), hudi_sql_num_f64(b, j));
    case HUDI_TYPE_DECIMAL: {
        __int128 x, y;
        memcpy(&x, (const uint8_t *)a->values + 16 * i, 16);
        memcpy(&y, (const uint8_t *)b->values + 16 * j, 16);
        if (a->field->scale != b->field->scale) {
            __int128 t;
            if (a->field->scale < b->field->scale &&
                hudi_sql_dec_rescale(x, a->field->scale, b->field->scale, 38, &t))
                x = t;
            else if (b->field->scale < a->field->scale &&
                     hudi_sql_dec_rescale(y, b->field->scale, a->field->scale, 38, &t))
                y = t;
        }
        return x < y ? -1 : x > y;
    }
    case HUDI_TYPE_TIMESTAMP: {
        int64_t x = hudi_sql_ts_micros(a, i), y = hudi_sql_ts_micros(b, j);
        return x < y ? -1 : x > y;
    }
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY: {
        size_t la = (size_t)(a->offsets[i + 1] - a->offsets[i]);
        size_t lb = (size_t)(b->offsets[j + 1] - b->offsets[j]);
        int c = la && lb
                    ? memcmp(a->data + a->offsets[i], b->data + b->offsets[j], HUDI_MIN(la, lb))
                    : 0;
        return c ? (c < 0 ? -1 : 1) : la < lb ? -1 : la > lb;
    }
    case HUDI_TYPE_FIXED_BINARY: {
        size_t w = (size_t)a->field->byte_width;
        int c = memcmp((const uint8_t *)a->values + w * (size_t)i,
                       (const uint8_t *)b->values + w * (size_t)j, w);
        return c < 0 ? -1 : c > 0;
    }
    case HUDI_TYPE_LIST:
    case HUDI_TYPE_MAP: {
        int32_t la = a->offsets[i + 1] - a->offsets[i], lb = b->offsets[j + 1] - b->offsets[j];
        for (int32_t k = 0; k < la && k < lb; k++) {
            int c = hudi_sql_cmp_value(a->children[0], a->offsets[i] + k, b->children[0],
                                       b->offsets[j] + k);
            if (c) return c;
        }
        return la < lb ? -1 : la > lb;
    }
    case HUDI_TYPE_STRUCT:
        for (int32_t c = 0; c < a->n_children && c < b->n_children; c++) {
            int r = hudi_sql_cmp_value(a->children[c], i, b->children[c], j);
            if (r) return r;
        }
        return 0;
    default: {
        int64_t x = hudi_sql_num_i64(a, i), y = hudi_sql_num_i64(b, j);
        return x < y ? -1 : x > y;
    }
    }
}
