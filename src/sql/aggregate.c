/* aggregate.c - the aggregate functions (count, count_if, sum, avg/mean, min, max, first, last,
 * any_value, bool_and/every, bool_or/some/any, collect_list, collect_set) and the hash aggregate
 * operator (docs/ARCHITECTURE.md, "SQL engine: operators").
 *
 * The operator hashes each input batch's group keys at once and finds every row's group id in
 * an open-addressing table (exec_int.h, hudi_sql_groups) whose keys live in columnar arrays, one
 * row per group; each aggregate keeps its state in arrays indexed by group id, so nothing is
 * allocated per row. Output: the group columns, then one column per aggregate.
 *
 * Result types follow Spark (non-ANSI): count is bigint and never null; sum of integers is a
 * bigint that wraps on overflow, of floating point a double, of decimal(p,s) a
 * decimal(min(38,p+10),s) that is null when it overflows; avg is a double, or for decimal(p,s)
 * a decimal(min(38,p+4),min(38,s+4)) rounded half up; min and max keep the argument's type and
 * order as ORDER BY does (NaN largest); collect_list and collect_set are arrays of the non-null
 * values (collect_set without repeats), empty for a group without any. The others ignore nulls
 * (first and last unless asked) and are null without an input row, except count. A global aggregate
 * (no GROUP BY) returns one row even for an empty input. */
#include <math.h>

#include "sql/exec_int.h"

/* ---- binding: argument checks and result types -------------------------------------------- */

static bool is_integer(hudi_type_id t) { return (t >= HUDI_TYPE_INT8 && t <= HUDI_TYPE_UINT64); }
static bool is_floating(hudi_type_id t) {
    return t == HUDI_TYPE_FLOAT16 || t == HUDI_TYPE_FLOAT || t == HUDI_TYPE_DOUBLE;
}

static void set_type(hudi_field *f, hudi_type_id t, bool nullable) {
    memset(f, 0, sizeof(*f));
    f->type = t;
    f->nullable = nullable;
    f->field_id = -1;
    f->unit = HUDI_UNIT_MICROS;
}

static int arg_type_error(hudi_sql_bind_call *c, const char *what, hudi_error *err) {
    return hudi_error_set(err, HUDI_ESQL, "line %u, column %u: %s requires %s, not %s", c->pos.line,
                          c->pos.col, c->name, what, hudi_type_name(c->arg_types[0].type));
}

static int bind_count(hudi_sql_bind_call *c, hudi_error *err) {
    set_type(&c->result, HUDI_TYPE_INT64, false);
    return 0;
}

static int bind_count_if(hudi_sql_bind_call *c, hudi_error *err) {
    hudi_type_id t = c->arg_types[0].type;
    if (t != HUDI_TYPE_BOOL && t != HUDI_TYPE_NULL) return arg_type_error(c, "a boolean", err);
    set_type(&c->result, HUDI_TYPE_INT64, false);
    return 0;
}

/* sum and avg of a string or an untyped NULL go through double, as in Spark. */
static int numeric_arg(hudi_sql_bind_call *c, hudi_error *err) {
    hudi_type_id t = c->arg_types[0].type;
    if (t == HUDI_TYPE_STRING || t == HUDI_TYPE_NULL) {
        set_type(&c->arg_types[0], HUDI_TYPE_DOUBLE, true);
        return 0;
    }
    if (!is_integer(t) && !is_floating(t) && t != HUDI_TYPE_DECIMAL)
        return arg_type_error(c, "a numeric argument", err);
    return 0;
}

static int bind_sum(hudi_sql_bind_call *c, hudi_error *err) {
    int rc = numeric_arg(c, err);
    if (rc < 0) return rc;
    const hudi_field *a = &c->arg_types[0];
    if (a->type == HUDI_TYPE_DECIMAL) {
        set_type(&c->result, HUDI_TYPE_DECIMAL, true);
        c->result.precision = HUDI_MIN(38, a->precision + 10);
        c->result.scale = a->scale;
    } else {
        set_type(&c->result, is_integer(a->type) ? HUDI_TYPE_INT64 : HUDI_TYPE_DOUBLE, true);
    }
    return 0;
}

static int bind_avg(hudi_sql_bind_call *c, hudi_error *err) {
    int rc = numeric_arg(c, err);
    if (rc < 0) return rc;
    const hudi_field *a = &c->arg_types[0];
    if (a->type == HUDI_TYPE_DECIMAL) {
        set_type(&c->result, HUDI_TYPE_DECIMAL, true);
        c->result.precision = HUDI_MIN(38, a->precision + 4);
        c->result.scale = HUDI_MIN(38, a->scale + 4);
    } else {
        set_type(&c->result, HUDI_TYPE_DOUBLE, true);
    }
    return 0;
}

static int bind_minmax(hudi_sql_bind_call *c, hudi_error *err) {
    if (c->arg_types[0].type == HUDI_TYPE_MAP)
        return arg_type_error(c, "an orderable argument (maps have no order)", err);
    c->result = c->arg_types[0];
    c->result.nullable = true;
    return 0;
}

/* first(x[, ignoreNulls]) and any_value(x[, ignoreNulls]): the second argument is a constant. */
static int bind_first(hudi_sql_bind_call *c, hudi_error *err) {
    if (c->n_args == 2 &&
        (c->args[1]->kind != HUDI_SQL_BX_CONST || c->args[1]->type.type != HUDI_TYPE_BOOL))
        return hudi_error_set(err, HUDI_ESQL,
                              "line %u, column %u: %s: ignoreNulls must be a boolean literal",
                              c->pos.line, c->pos.col, c->name);
    c->result = c->arg_types[0];
    c->result.nullable = true;
    return 0;
}

static int bind_bool(hudi_sql_bind_call *c, hudi_error *err) {
    hudi_type_id t = c->arg_types[0].type;
    if (t != HUDI_TYPE_BOOL && t != HUDI_TYPE_NULL) return arg_type_error(c, "a boolean", err);
    set_type(&c->arg_types[0], HUDI_TYPE_BOOL, true);
    set_type(&c->result, HUDI_TYPE_BOOL, true);
    return 0;
}

/* collect_list(x), collect_set(x): array<x> of the non-null values (Spark: containsNull false). */
static int bind_collect(hudi_sql_bind_call *c, hudi_error *err) {
    if (c->arg_types[0].type == HUDI_TYPE_MAP && !strcmp(c->name, "collect_set"))
        return arg_type_error(c, "a comparable argument (maps have no equality)", err);
    hudi_field *elem = hudi_arena_alloc(c->ctx->arena, sizeof(*elem));
    if (!elem) return hudi_error_oom(err);
    *elem = c->arg_types[0];
    elem->name = "element";
    elem->nullable = false;
    set_type(&c->result, HUDI_TYPE_LIST, false);
    c->result.n_children = 1;
    c->result.children = elem;
    return 0;
}

static const hudi_sql_func agg_funcs[] = {
    {"any", HUDI_SQL_FN_AGGREGATE, 1, 1, bind_bool, NULL, NULL, "any(expr) - same as bool_or"},
    {"any_value", HUDI_SQL_FN_AGGREGATE, 1, 2, bind_first, NULL, NULL,
     "any_value(expr[, ignoreNulls]) - some value of expr in the group (the first one read)"},
    {"avg", HUDI_SQL_FN_AGGREGATE, 1, 1, bind_avg, NULL, NULL,
     "avg(expr) - the mean of the non-null values"},
    {"bool_and", HUDI_SQL_FN_AGGREGATE, 1, 1, bind_bool, NULL, NULL,
     "bool_and(expr) - true when expr is true for every non-null value"},
    {"bool_or", HUDI_SQL_FN_AGGREGATE, 1, 1, bind_bool, NULL, NULL,
     "bool_or(expr) - true when expr is true for some value"},
    {"collect_list", HUDI_SQL_FN_AGGREGATE, 1, 1, bind_collect, NULL, NULL,
     "collect_list(expr) - an array of the non-null values, in the order read"},
    {"collect_set", HUDI_SQL_FN_AGGREGATE, 1, 1, bind_collect, NULL, NULL,
     "collect_set(expr) - an array of the distinct non-null values"},
    {"count", HUDI_SQL_FN_AGGREGATE, 0, -1, bind_count, NULL, NULL,
     "count(*) - the number of rows; count(expr[, ...]) - rows where every expr is non-null; "
     "count(DISTINCT expr[, ...]) - distinct non-null values"},
    {"count_if", HUDI_SQL_FN_AGGREGATE, 1, 1, bind_count_if, NULL, NULL,
     "count_if(expr) - the number of rows where expr is true"},
    {"every", HUDI_SQL_FN_AGGREGATE, 1, 1, bind_bool, NULL, NULL, "every(expr) - same as bool_and"},
    {"first", HUDI_SQL_FN_AGGREGATE, 1, 2, bind_first, NULL, NULL,
     "first(expr[, ignoreNulls]) - the first value of expr in the group"},
    {"last", HUDI_SQL_FN_AGGREGATE, 1, 2, bind_first, NULL, NULL,
     "last(expr[, ignoreNulls]) - the last value of expr in the group"},
    {"max", HUDI_SQL_FN_AGGREGATE, 1, 1, bind_minmax, NULL, NULL,
     "max(expr) - the largest non-null value"},
    {"mean", HUDI_SQL_FN_AGGREGATE, 1, 1, bind_avg, NULL, NULL, "mean(expr) - same as avg"},
    {"min", HUDI_SQL_FN_AGGREGATE, 1, 1, bind_minmax, NULL, NULL,
     "min(expr) - the smallest non-null value"},
    {"some", HUDI_SQL_FN_AGGREGATE, 1, 1, bind_bool, NULL, NULL, "some(expr) - same as bool_or"},
    {"sum", HUDI_SQL_FN_AGGREGATE, 1, 1, bind_sum, NULL, NULL,
     "sum(expr) - the sum of the non-null values"},
};

const hudi_sql_func *const *hudi_sql_aggregate_funcs(int32_t *count) {
    static const hudi_sql_func *const list[] = {
        &agg_funcs[0],  &agg_funcs[1],  &agg_funcs[2],  &agg_funcs[3],  &agg_funcs[4],
        &agg_funcs[5],  &agg_funcs[6],  &agg_funcs[7],  &agg_funcs[8],  &agg_funcs[9],
        &agg_funcs[10], &agg_funcs[11], &agg_funcs[12], &agg_funcs[13], &agg_funcs[14],
        &agg_funcs[15], &agg_funcs[16]};
    _Static_assert(HUDI_ARRAY_LEN(list) == HUDI_ARRAY_LEN(agg_funcs), "every aggregate listed");
    *count = (int32_t)HUDI_ARRAY_LEN(list);
    return list;
}

/* ---- accumulators -------------------------------------------------------------------------- */

typedef enum agg_kind {
    AK_COUNT,
    AK_COUNT_IF,
    AK_SUM_INT,
    AK_SUM_DOUBLE,
    AK_SUM_DEC,
    AK_AVG_DOUBLE,
    AK_AVG_DEC,
    AK_MIN,
    AK_MAX,
    AK_FIRST,
    AK_LAST,
    AK_BOOL_AND,
    AK_BOOL_OR,
    AK_COLLECT, /* collect_list; collect_set is collect_list over a distinct set */
} agg_kind;

typedef struct agg_state {
    const hudi_sql_aggcall *call;
    agg_kind kind;
    bool ignore_nulls; /* first, any_value */
    int32_t in_scale;  /* decimals: the argument's scale */
    /* per group, cap_groups entries */
    int64_t *count; /* rows counted, or non-null values summed */
    int64_t *i64;
    double *f64;
    __int128 *dec;
    uint8_t *overflow;
    int64_t *best; /* min, max, first, last: row in `store`, -1 = none yet */
    int64_t *cand; /* min, max, last: this batch's best row per group, -1 = none */
    uint8_t *flag; /* bool_and, bool_or */
    hudi_array *store;
    /* collect: store row k belongs to group owner[k]; at the end rows are ordered by group */
    int64_t *owner;
    int64_t n_owner, cap_owner;
    int64_t *order, *start; /* store rows by group; group g's are order[start[g]..start[g+1]) */
    /* count(DISTINCT ...), sum(DISTINCT ...): (group id, args) seen so far */
    bool distinct;
    hudi_sql_groups seen;
    hudi_field gid_field;
} agg_state;

static int64_t int_at(const hudi_array *a, int64_t i) {
    const void *v = a->values;
    switch (a->field->type) {
    case HUDI_TYPE_INT8: return ((const int8_t *)v)[i];
    case HUDI_TYPE_INT16: return ((const int16_t *)v)[i];
    case HUDI_TYPE_INT32: return ((const int32_t *)v)[i];
    case HUDI_TYPE_UINT8: return ((const uint8_t *)v)[i];
    case HUDI_TYPE_UINT16: return ((const uint16_t *)v)[i];
    case HUDI_TYPE_UINT32: return ((const uint32_t *)v)[i];
    default: return ((const int64_t *)v)[i];
    }
}

static double double_at(const hudi_array *a, int64_t i) {
    switch (a->field->type) {
    case HUDI_TYPE_FLOAT16: return hudi_half_to_float(((const uint16_t *)a->values)[i]);
    case HUDI_TYPE_FLOAT: return ((const float *)a->values)[i];
    case HUDI_TYPE_DOUBLE: return ((const double *)a->values)[i];
    case HUDI_TYPE_UINT64: return (double)((const uint64_t *)a->values)[i];
    default: return (double)int_at(a, i);
    }
}

static __int128 dec_at(const hudi_array *a, int64_t i) {
    __int128 v;
    memcpy(&v, (const uint8_t *)a->values + 16 * (size_t)i, 16);
    return v;
}

static __int128 pow10_i128(int n) {
    __int128 p = 1;
    while (n-- > 0) p *= 10;
    return p;
}

/* ---- the operator -------------------------------------------------------------------------- */

typedef struct agg_op {
    hudi_sql_oper base;
    hudi_sql_oper *child;
    int32_t n_group, n_aggs;
    hudi_sql_groups groups; /* GROUP BY keys; unused for a global aggregate */
    int64_t n_groups;
    int64_t cap_groups;
    int64_t charged; /* per-group state arrays */
    agg_state *aggs;
    hudi_sql_datum *keys; /* scratch: the batch's group keys */
    int64_t *gids;        /* scratch: the batch's group ids */
    uint8_t *mask;        /* scratch: rows an aggregate takes */
    uint8_t *skip;        /* scratch: rows a distinct set skips */
    uint8_t *is_new;
    int64_t *touched;
    int64_t *runs;  /* scratch: run r of equal group ids is rows [runs[r], runs[r + 1]) */
    int64_t n_runs; /* 0: the batch's ids change too often for the per-run loops */
    int64_t cap_rows;
    bool consumed;
    int64_t emitted; /* groups returned so far */
    hudi_batch *out;
} agg_op;

static void agg_free(hudi_sql_oper *op) {
    agg_op *a = (agg_op *)op;
    hudi_sql_op_free(a->child);
    hudi_sql_groups_dispose(op->ctx, &a->groups);
    for (int32_t i = 0; a->aggs && i < a->n_aggs; i++) {
        agg_state *s = &a->aggs[i];
        hudi_free(s->count);
        hudi_free(s->i64);
        hudi_free(s->f64);
        hudi_free(s->dec);
        hudi_free(s->overflow);
        hudi_free(s->best);
        hudi_free(s->cand);
        hudi_free(s->flag);
        hudi_free(s->owner);
        hudi_free(s->order);
        hudi_free(s->start);
        hudi_array_free(s->store);
        hudi_sql_groups_dispose(op->ctx, &s->seen);
    }
    hudi_sql_mem_charge(op->ctx, -a->charged, NULL);
    hudi_free(a->aggs);
    hudi_free(a->keys);
    hudi_free(a->gids);
    hudi_free(a->mask);
    hudi_free(a->skip);
    hudi_free(a->is_new);
    hudi_free(a->touched);
    hudi_free(a->runs);
    hudi_batch_free(a->out);
    hudi_free(a);
}

/* Grows `*p` (elem bytes each) from `old` to `cap` entries, filling the new ones with `fill`
 * (0 or 0xff bytes: -1 for int64). */
static int grow_state(void **p, size_t elem, int64_t old, int64_t cap, int fill) {
    void *q = hudi_realloc(*p, (size_t)cap * elem);
    if (!q) return -1;
    memset((uint8_t *)q + (size_t)old * elem, fill, (size_t)(cap - old) * elem);
    *p = q;
    return 0;
}

static int ensure_groups(agg_op *a, int64_t n, hudi_error *err) {
    if (n <= a->cap_groups) return 0;
    int64_t cap = a->cap_groups ? a->cap_groups : 64;
    while (cap < n) cap *= 2;
    int64_t old = a->cap_groups, bytes = 0;
    for (int32_t i = 0; i < a->n_aggs; i++) {
        agg_state *s = &a->aggs[i];
        int bad = 0;
        switch (s->kind) {
        case AK_COUNT:
        case AK_COUNT_IF: bad |= grow_state((void **)&s->count, 8, old, cap, 0); break;
        case AK_SUM_INT:
            bad |= grow_state((void **)&s->count, 8, old, cap, 0);
            bad |= grow_state((void **)&s->i64, 8, old, cap, 0);
            break;
        case AK_SUM_DOUBLE:
        case AK_AVG_DOUBLE:
            bad |= grow_state((void **)&s->count, 8, old, cap, 0);
            bad |= grow_state((void **)&s->f64, 8, old, cap, 0);
            break;
        case AK_SUM_DEC:
        case AK_AVG_DEC:
            bad |= grow_state((void **)&s->count, 8, old, cap, 0);
            bad |= grow_state((void **)&s->dec, 16, old, cap, 0);
            bad |= grow_state((void **)&s->overflow, 1, old, cap, 0);
            break;
        case AK_MIN:
        case AK_MAX:
        case AK_LAST: bad |= grow_state((void **)&s->cand, 8, old, cap, 0xff); /* fall through */
        case AK_FIRST: bad |= grow_state((void **)&s->best, 8, old, cap, 0xff); break;
        case AK_BOOL_AND:
        case AK_BOOL_OR:
            bad |= grow_state((void **)&s->count, 8, old, cap, 0);
            bad |= grow_state((void **)&s->flag, 1, old, cap, s->kind == AK_BOOL_AND);
            break;
        case AK_COLLECT: break;
        }
        if (bad) return hudi_error_oom(err);
        bytes += 32 * (cap - old);
    }
    a->cap_groups = cap;
    int rc = hudi_sql_mem_charge(a->base.ctx, bytes, err);
    if (rc == 0) a->charged += bytes;
    return rc;
}

static int ensure_rows(agg_op *a, int64_t n, hudi_error *err) {
    if (n <= a->cap_rows) return 0;
    int64_t *gids = hudi_realloc(a->gids, (size_t)n * 8);
    if (gids) a->gids = gids;
    uint8_t *mask = hudi_realloc(a->mask, (size_t)n);
    if (mask) a->mask = mask;
    uint8_t *skip = hudi_realloc(a->skip, (size_t)n);
    if (skip) a->skip = skip;
    uint8_t *is_new = hudi_realloc(a->is_new, (size_t)n);
    if (is_new) a->is_new = is_new;
    int64_t *touched = hudi_realloc(a->touched, (size_t)n * 8);
    if (touched) a->touched = touched;
    int64_t *runs = hudi_realloc(a->runs, ((size_t)n + 1) * 8);
    if (runs) a->runs = runs;
    if (!gids || !mask || !skip || !is_new || !touched || !runs) return hudi_error_oom(err);
    a->cap_rows = n;
    return 0;
}

/* Drops the values of `store` no group points at any more (min/max replace their best). */
static int compact_store(agg_op *a, agg_state *s, hudi_error *err) {
    hudi_array *fresh;
    int rc = hudi_array_new(&fresh, s->store->field, err);
    if (rc < 0) return rc;
    int64_t *rows = hudi_malloc((size_t)(a->n_groups + 1) * 8);
    if (!rows) {
        hudi_array_free(fresh);
        return hudi_error_oom(err);
    }
    int64_t n = 0;
    for (int64_t g = 0; g < a->n_groups; g++)
        if (s->best[g] >= 0) rows[n++] = s->best[g];
    if ((rc = hudi_sql_array_take(fresh, s->store, rows, n, err)) == 0) {
        n = 0;
        for (int64_t g = 0; g < a->n_groups; g++)
            if (s->best[g] >= 0) s->best[g] = n++;
        hudi_array_free(s->store);
        s->store = fresh;
        fresh = NULL;
    }
    hudi_array_free(fresh);
    hudi_free(rows);
    return rc;
}

static int update_minmax(agg_op *a, agg_state *s, const hudi_sql_datum *arg, int64_t n,
                         hudi_error *err) {
    int sign = s->kind == AK_MIN ? 1 : -1;
    bool last = s->kind == AK_LAST;        /* the batch's last row always replaces the stored one */
    int64_t nt = 0, *touched = a->touched; /* at most one entry per row */
    const hudi_array *v = arg->array;
    for (int64_t i = 0; i < n; i++) {
        int64_t r = hudi_sql_datum_row(arg, i);
        if (!a->mask[i] || (!hudi_array_is_valid(v, r) && (!last || s->ignore_nulls))) continue;
        int64_t g = a->gids[i];
        if (s->cand[g] < 0) {
            s->cand[g] = r;
            touched[nt++] = g;
        } else if (last || sign * hudi_sql_compare_rows(v, r, v, s->cand[g], true) < 0) {
            s->cand[g] = r;
        }
    }
    int rc = 0;
    int64_t before = hudi_sql_array_bytes(s->store);
    for (int64_t k = 0; k < nt; k++) {
        int64_t g = touched[k], r = s->cand[g];
        s->cand[g] = -1;
        if (rc == 0 && (last || s->best[g] < 0 ||
                        sign * hudi_sql_compare_rows(v, r, s->store, s->best[g], true) < 0)) {
            if ((rc = hudi_array_append_range(s->store, v, r, 1, err)) == 0)
                s->best[g] = s->store->length - 1;
        }
    }
    if (rc == 0 && s->store->length > 2 * a->n_groups + 1024) rc = compact_store(a, s, err);
    int64_t grown = hudi_sql_array_bytes(s->store) - before;
    if (rc == 0 && grown) {
        if ((rc = hudi_sql_mem_charge(a->base.ctx, grown, err)) == 0) a->charged += grown;
    }
    return rc;
}

static int update_first(agg_op *a, agg_state *s, const hudi_sql_datum *arg, int64_t n,
                        hudi_error *err) {
    int64_t before = hudi_sql_array_bytes(s->store);
    int rc = 0;
    for (int64_t i = 0; i < n && rc == 0; i++) {
        int64_t r = hudi_sql_datum_row(arg, i), g = a->gids[i];
        if (!a->mask[i] || s->best[g] >= 0) continue;
        if (s->ignore_nulls && !hudi_array_is_valid(arg->array, r)) continue;
        if ((rc = hudi_array_append_range(s->store, arg->array, r, 1, err)) == 0)
            s->best[g] = s->store->length - 1;
    }
    int64_t grown = hudi_sql_array_bytes(s->store) - before;
    if (rc == 0 && grown) {
        if ((rc = hudi_sql_mem_charge(a->base.ctx, grown, err)) == 0) a->charged += grown;
    }
    return rc;
}

static int update_collect(agg_op *a, agg_state *s, const hudi_sql_datum *arg, int64_t n,
                          hudi_error *err) {
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) k += a->mask[i];
    if (k == 0) return 0;
    if (s->n_owner + k > s->cap_owner) {
        int64_t cap = HUDI_MAX(s->cap_owner * 2, s->n_owner + k);
        int64_t *o = hudi_realloc(s->owner, (size_t)cap * 8);
        if (!o) return hudi_error_oom(err);
        s->owner = o;
        s->cap_owner = cap;
    }
    int64_t *rows = a->touched; /* scratch of n entries */
    k = 0;
    for (int64_t i = 0; i < n; i++)
        if (a->mask[i]) {
            rows[k++] = hudi_sql_datum_row(arg, i);
            s->owner[s->n_owner++] = a->gids[i];
        }
    int64_t before = hudi_sql_array_bytes(s->store);
    int rc = hudi_sql_array_take(s->store, arg->array, rows, k, err);
    if (rc < 0) {
        s->n_owner -= k;
        return rc;
    }
    int64_t grown = hudi_sql_array_bytes(s->store) - before + 8 * k;
    if ((rc = hudi_sql_mem_charge(a->base.ctx, grown, err)) == 0) a->charged += grown;
    return rc;
}

/* sum[gids[i]] += VALUE and count[gids[i]]++ over every row (no mask). A global aggregate
 * keeps one running total in a local; so does each run of rows with the same group id when the
 * batch has few runs (a constant or clustered key): adding to s->f64[g] row by row makes every
 * addition wait for the store of the one before. The additions happen in row order either way,
 * so the sums are the same to the bit. T is the sum's arithmetic type (uint64_t wraps around as
 * Spark's long sum does). */
#define SUM_ROWS(T, sums, VALUE)                                                                   \
    do {                                                                                           \
        if (a->n_group == 0) {                                                                     \
            T acc_ = (T)sums[0];                                                                   \
            for (int64_t i = 0; i < n; i++) acc_ += (VALUE);                                       \
            memcpy(&sums[0], &acc_, sizeof(acc_));                                                 \
            s->count[0] += n;                                                                      \
        } else if (a->n_runs > 0) {                                                                \
            for (int64_t r_ = 0; r_ < a->n_runs; r_++) {                                           \
                int64_t lo_ = a->runs[r_], hi_ = a->runs[r_ + 1], g_ = gids[lo_];                  \
                T acc_;                                                                            \
                memcpy(&acc_, &sums[g_], sizeof(acc_));                                            \
                for (int64_t i = lo_; i < hi_; i++) acc_ += (VALUE);                               \
                memcpy(&sums[g_], &acc_, sizeof(acc_));                                            \
                s->count[g_] += hi_ - lo_;                                                         \
            }                                                                                      \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++) {                                                      \
                int64_t g_ = gids[i];                                                              \
                T cur_;                                                                            \
                memcpy(&cur_, &sums[g_], sizeof(cur_));                                            \
                cur_ += (VALUE);                                                                   \
                memcpy(&sums[g_], &cur_, sizeof(cur_));                                            \
                s->count[g_]++;                                                                    \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* Feeds one batch into aggregate `s`: its FILTER, its DISTINCT set, then the accumulator. */
static int update_agg(agg_op *a, agg_state *s, const hudi_batch *in, hudi_error *err) {
    hudi_sql_ctx *ctx = a->base.ctx;
    const hudi_sql_aggcall *call = s->call;
    int64_t n = in->num_rows;
    int rc = 0;
    if (call->filter) {
        int64_t k = hudi_sql_eval_select(ctx, call->filter, in, a->mask, err);
        if (k < 0) return (int)k;
        if (k == 0) return 0;
    } else {
        memset(a->mask, 1, (size_t)n);
    }
    int32_t nargs = s->kind == AK_FIRST || s->kind == AK_LAST ? 1 : call->n_args;
    if (call->star) nargs = 0;
    hudi_sql_datum local[4], *args = local;
    int32_t done = 0;
    if (nargs + 1 > (int32_t)HUDI_ARRAY_LEN(local) &&
        !(args = hudi_calloc((size_t)nargs + 1, sizeof(*args))))
        return hudi_error_oom(err);
    /* args[0] is the group id column of a distinct set; the arguments follow. */
    for (; done < nargs; done++)
        if ((rc = hudi_sql_eval(ctx, call->args[done], in, &args[done + 1], err)) < 0) goto done;
    /* Rows with a null argument count for nothing (count(*) has none). `all`: every row
     * counts (no FILTER, no null), so the accumulators below need not read the mask. */
    bool all = !call->filter;
    if (s->kind != AK_FIRST && s->kind != AK_LAST)
        for (int32_t k = 1; k <= nargs; k++) {
            const hudi_array *v = args[k].array;
            if (v->field->type == HUDI_TYPE_NULL) {
                memset(a->mask, 0, (size_t)n);
                all = false;
            } else if (v->validity) {
                for (int64_t i = 0; i < n; i++)
                    if (!hudi_bit_get(v->validity, hudi_sql_datum_row(&args[k], i))) {
                        a->mask[i] = 0;
                        all = false;
                    }
            }
        }
    if (s->distinct) all = false;
    if (s->distinct) {
        hudi_array gid = {.field = &s->gid_field, .length = n, .values = a->gids};
        args[0] = (hudi_sql_datum){&gid, false, false};
        for (int64_t i = 0; i < n; i++) a->skip[i] = !a->mask[i];
        int64_t *ids = hudi_malloc((size_t)n * 8 + 8);
        if (!ids) {
            rc = hudi_error_oom(err);
            goto done;
        }
        rc = hudi_sql_groups_add(ctx, &s->seen, args, n, a->skip, ids, a->is_new, err);
        hudi_free(ids);
        if (rc < 0) goto done;
        memcpy(a->mask, a->is_new, (size_t)n);
    }
    const hudi_sql_datum *arg = &args[1];
    const int64_t *gids = a->gids;
    const uint8_t *mask = a->mask;
    switch (s->kind) {
    case AK_COUNT:
        if (a->n_runs > 0) {
            for (int64_t r = 0; r < a->n_runs; r++) {
                int64_t lo = a->runs[r], hi = a->runs[r + 1], c = hi - lo;
                if (!all) {
                    c = 0;
                    for (int64_t i = lo; i < hi; i++) c += mask[i];
                }
                s->count[gids[lo]] += c;
            }
        } else if (all) {
            for (int64_t i = 0; i < n; i++) s->count[gids[i]]++;
        } else {
            for (int64_t i = 0; i < n; i++) s->count[gids[i]] += mask[i];
        }
        break;
    case AK_COUNT_IF: {
        const hudi_array *v = arg->array;
        if (v->field->type == HUDI_TYPE_BOOL)
            for (int64_t i = 0; i < n; i++)
                if (mask[i] && hudi_bit_get(v->values, hudi_sql_datum_row(arg, i)))
                    s->count[gids[i]]++;
        break;
    }
    case AK_SUM_INT: {
        const hudi_array *v = arg->array;
        hudi_type_id t = v->field->type;
        if (all && !arg->is_const && (t == HUDI_TYPE_INT32 || t == HUDI_TYPE_INT64)) {
            /* Spark (non-ANSI) wraps a long sum around on overflow. */
            if (t == HUDI_TYPE_INT32)
                SUM_ROWS(uint64_t, s->i64, (uint64_t)(int64_t)((const int32_t *)v->values)[i]);
            else
                SUM_ROWS(uint64_t, s->i64, (uint64_t)((const int64_t *)v->values)[i]);
            break;
        }
        for (int64_t i = 0; i < n; i++) {
            if (!mask[i]) continue;
            int64_t g = gids[i];
            /* Spark (non-ANSI) wraps a long sum around on overflow. */
            s->i64[g] =
                (int64_t)((uint64_t)s->i64[g] + (uint64_t)int_at(v, hudi_sql_datum_row(arg, i)));
            s->count[g]++;
        }
        break;
    }
    case AK_SUM_DOUBLE:
    case AK_AVG_DOUBLE: {
        const hudi_array *v = arg->array;
        hudi_type_id t = v->field->type;
        if (all && !arg->is_const && t == HUDI_TYPE_DOUBLE) {
            SUM_ROWS(double, s->f64, ((const double *)v->values)[i]);
        } else if (all && !arg->is_const && t == HUDI_TYPE_INT32) {
            SUM_ROWS(double, s->f64, (double)((const int32_t *)v->values)[i]);
        } else if (all && !arg->is_const && t == HUDI_TYPE_INT64) {
            SUM_ROWS(double, s->f64, (double)((const int64_t *)v->values)[i]);
        } else if (t == HUDI_TYPE_DOUBLE && !arg->is_const && a->n_runs > 0) {
            const double *d = v->values;
            for (int64_t r = 0; r < a->n_runs; r++) {
                int64_t lo = a->runs[r], hi = a->runs[r + 1], g = gids[lo], c = 0;
                double acc = s->f64[g];
                for (int64_t i = lo; i < hi; i++)
                    if (mask[i]) {
                        acc += d[i];
                        c++;
                    }
                s->f64[g] = acc;
                s->count[g] += c;
            }
        } else if (t == HUDI_TYPE_DOUBLE && !arg->is_const) {
            const double *d = v->values;
            for (int64_t i = 0; i < n; i++)
                if (mask[i]) {
                    s->f64[gids[i]] += d[i];
                    s->count[gids[i]]++;
                }
        } else {
            for (int64_t i = 0; i < n; i++)
                if (mask[i]) {
                    s->f64[gids[i]] += double_at(v, hudi_sql_datum_row(arg, i));
                    s->count[gids[i]]++;
                }
        }
        break;
    }
    case AK_SUM_DEC:
    case AK_AVG_DEC: {
        const hudi_array *v = arg->array;
        for (int64_t i = 0; i < n; i++) {
            if (!mask[i]) continue;
            int64_t g = gids[i];
            __int128 x = dec_at(v, hudi_sql_datum_row(arg, i)), sum;
            if (__builtin_add_overflow(s->dec[g], x, &sum)) s->overflow[g] = 1;
            s->dec[g] = sum;
            s->count[g]++;
        }
        break;
    }
    case AK_MIN:
    case AK_MAX:
    case AK_LAST: rc = update_minmax(a, s, arg, n, err); break;
    case AK_FIRST: rc = update_first(a, s, arg, n, err); break;
    case AK_BOOL_AND:
    case AK_BOOL_OR: {
        const hudi_array *v = arg->array;
        bool and = s->kind == AK_BOOL_AND;
        for (int64_t i = 0; i < n; i++) {
            if (!mask[i]) continue;
            int64_t g = gids[i];
            bool x = hudi_bit_get(v->values, hudi_sql_datum_row(arg, i));
            s->flag[g] = and? (s->flag[g] && x) : (s->flag[g] || x);
            s->count[g]++;
        }
        break;
    }
    case AK_COLLECT: rc = update_collect(a, s, arg, n, err); break;
    }
done:
    for (int32_t k = 0; k < done; k++) hudi_sql_datum_dispose(&args[k + 1]);
    if (args != local) hudi_free(args);
    return rc;
}

/* Splits the batch's rows into runs of equal group ids for the accumulators' per-run loops, or
 * sets n_runs = 0 when the runs are short (under 8 rows on average: random keys), where the
 * per-row loops are faster. */
static void find_runs(agg_op *a, int64_t n) {
    const int64_t *gids = a->gids;
    int64_t k = 0, most = n / 8;
    a->runs[k++] = 0;
    for (int64_t i = 1; i < n; i++)
        if (gids[i] != gids[i - 1]) {
            if (k > most) {
                a->n_runs = 0;
                return;
            }
            a->runs[k++] = i;
        }
    a->runs[k] = n;
    a->n_runs = k;
}

static int consume(agg_op *a, hudi_error *err) {
    hudi_sql_ctx *ctx = a->base.ctx;
    const hudi_sql_plan *p = a->base.plan;
    int rc;
    if (a->n_group == 0) {
        a->n_groups = 1;
        if ((rc = ensure_groups(a, 1, err)) < 0) return rc;
    }
    for (;;) {
        hudi_batch *in;
        if ((rc = hudi_sql_check_cancel(ctx, err)) < 0) return rc;
        if ((rc = hudi_sql_op_next(a->child, &in, err)) < 0) return rc;
        if (!in) break;
        int64_t n = in->num_rows;
        if (n == 0) continue;
        if ((rc = ensure_rows(a, n, err)) < 0) return rc;
        if (a->n_group == 0) {
            memset(a->gids, 0, (size_t)n * 8);
            a->runs[0] = 0;
            a->runs[1] = n;
            a->n_runs = 1;
        } else {
            int32_t k = 0;
            for (; k < a->n_group; k++) {
                if ((rc = hudi_sql_eval(ctx, p->group[k], in, &a->keys[k], err)) < 0) break;
                /* A column the reader knows to hold one value (columnar.h, `uniform`) is
                 * grouped as a constant: one hash for the batch, no row compared. */
                if (a->keys[k].array->uniform && a->keys[k].array->length >= n)
                    a->keys[k].is_const = true;
            }
            if (rc == 0)
                rc = hudi_sql_groups_add(ctx, &a->groups, a->keys, n, NULL, a->gids, NULL, err);
            for (int32_t j = 0; j < k; j++) hudi_sql_datum_dispose(&a->keys[j]);
            if (rc < 0) return rc;
            a->n_groups = a->groups.n_groups;
            if ((rc = ensure_groups(a, a->n_groups, err)) < 0) return rc;
            find_runs(a, n);
        }
        for (int32_t i = 0; i < a->n_aggs; i++)
            if ((rc = update_agg(a, &a->aggs[i], in, err)) < 0) return rc;
    }
    return 0;
}

/* The value of aggregate `s` for groups [from, from + n) into `col`. */
static int finish_agg(agg_op *a, agg_state *s, hudi_array *col, int64_t from, int64_t n,
                      hudi_error *err) {
    int rc;
    if (s->kind == AK_MIN || s->kind == AK_MAX || s->kind == AK_FIRST || s->kind == AK_LAST)
        return hudi_sql_array_take(col, s->store, s->best + from, n, err);
    if (s->kind == AK_COLLECT) {
        int64_t lo = s->start[from], hi = s->start[from + n];
        if ((rc = hudi_sql_array_take(col->children[0], s->store, s->order + lo, hi - lo, err)) < 0)
            return rc;
        for (int64_t g = from; g < from + n; g++)
            if ((rc = hudi_array_append_nested(col, s->start[g + 1] - s->start[g], err)) < 0)
                return rc;
        return 0;
    }
    if ((rc = hudi_array_grow(col, n, err)) < 0) return rc;
    for (int64_t g = from; g < from + n; g++) {
        bool null = false;
        switch (s->kind) {
        case AK_COUNT:
        case AK_COUNT_IF: rc = hudi_array_append_fixed(col, &s->count[g], err); break;
        case AK_SUM_INT:
            if (!(null = s->count[g] == 0)) rc = hudi_array_append_fixed(col, &s->i64[g], err);
            break;
        case AK_SUM_DOUBLE:
            if (!(null = s->count[g] == 0)) rc = hudi_array_append_fixed(col, &s->f64[g], err);
            break;
        case AK_BOOL_AND:
        case AK_BOOL_OR:
            if (!(null = s->count[g] == 0)) rc = hudi_array_append_bool(col, s->flag[g], err);
            break;
        case AK_AVG_DOUBLE:
            if (!(null = s->count[g] == 0)) {
                double v = s->f64[g] / (double)s->count[g];
                rc = hudi_array_append_fixed(col, &v, err);
            }
            break;
        case AK_SUM_DEC: {
            __int128 v = s->dec[g], limit = pow10_i128(col->field->precision);
            null = s->count[g] == 0 || s->overflow[g] || v >= limit || v <= -limit;
            if (!null) rc = hudi_array_append_fixed(col, &v, err);
            break;
        }
        case AK_AVG_DEC: {
            /* sum / count at the result's scale, rounded half up (away from zero). */
            null = s->count[g] == 0 || s->overflow[g];
            __int128 sum = s->dec[g], scaled, q = 0;
            if (!null)
                null = __builtin_mul_overflow(sum, pow10_i128(col->field->scale - s->in_scale),
                                              &scaled);
            if (!null) {
                __int128 c = s->count[g], r;
                q = scaled / c;
                r = scaled % c;
                if (2 * (r < 0 ? -r : r) >= c) q += scaled < 0 ? -1 : 1;
                __int128 limit = pow10_i128(col->field->precision);
                null = q >= limit || q <= -limit;
            }
            if (!null) rc = hudi_array_append_fixed(col, &q, err);
            break;
        }
        default: break;
        }
        if (null) rc = hudi_array_append_null(col, err);
        if (rc < 0) return rc;
    }
    return 0;
}

/* Orders the collected values by group (a counting sort keeping the order they were read). */
static int order_collected(agg_op *a, agg_state *s, hudi_error *err) {
    int64_t ng = a->n_groups, n = s->n_owner;
    int rc = hudi_sql_mem_charge(a->base.ctx, 8 * (ng + 1 + n), err);
    if (rc < 0) return rc;
    a->charged += 8 * (ng + 1 + n);
    s->start = hudi_calloc((size_t)ng + 2, 8);
    s->order = hudi_malloc(((size_t)n + 1) * 8);
    if (!s->start || !s->order) return hudi_error_oom(err);
    for (int64_t k = 0; k < n; k++) s->start[s->owner[k] + 1]++;
    for (int64_t g = 0; g < ng; g++) s->start[g + 1] += s->start[g];
    int64_t *next = hudi_malloc(((size_t)ng + 1) * 8);
    if (!next) return hudi_error_oom(err);
    memcpy(next, s->start, (size_t)ng * 8);
    for (int64_t k = 0; k < n; k++) s->order[next[s->owner[k]]++] = k;
    hudi_free(next);
    return 0;
}

static int agg_next(hudi_sql_oper *op, hudi_batch **out, hudi_error *err) {
    agg_op *a = (agg_op *)op;
    *out = NULL;
    int rc;
    if (!a->consumed) {
        a->consumed = true;
        if ((rc = consume(a, err)) < 0) return rc;
        for (int32_t i = 0; i < a->n_aggs; i++)
            if (a->aggs[i].kind == AK_COLLECT && (rc = order_collected(a, &a->aggs[i], err)) < 0)
                return rc;
    }
    if ((rc = hudi_sql_check_cancel(op->ctx, err)) < 0) return rc;
    if (a->emitted >= a->n_groups) return 0;
    int64_t step = op->ctx->batch_rows > 0 ? op->ctx->batch_rows : 8192;
    int64_t from = a->emitted, n = HUDI_MIN(step, a->n_groups - from);
    hudi_batch_clear(a->out);
    for (int32_t k = 0; k < a->n_group; k++)
        if ((rc = hudi_array_append_range(a->out->columns[k], a->groups.keys[k], from, n, err)) < 0)
            return rc;
    for (int32_t i = 0; i < a->n_aggs; i++)
        if ((rc = finish_agg(a, &a->aggs[i], a->out->columns[a->n_group + i], from, n, err)) < 0)
            return rc;
    a->out->num_rows = n;
    a->emitted += n;
    *out = a->out;
    return 0;
}

static int setup_agg(agg_op *a, int32_t i, hudi_error *err) {
    const hudi_sql_plan *p = a->base.plan;
    const hudi_sql_aggcall *call = p->aggs[i];
    agg_state *s = &a->aggs[i];
    s->call = call;
    const char *name = call->fn ? call->fn->name : "";
    const hudi_field *res = &p->schema.children[a->n_group + i];
    hudi_type_id at = HUDI_TYPE_NULL;
    if (!call->star && call->n_args > 0)
        at = call->args[0]->type.type;
    else if (strcmp(name, "count") != 0)
        return hudi_error_set(err, HUDI_EINVAL, "%s() without an argument", name);
    if (!strcmp(name, "count")) {
        s->kind = AK_COUNT;
    } else if (!strcmp(name, "count_if")) {
        s->kind = AK_COUNT_IF;
    } else if (!strcmp(name, "sum")) {
        s->kind = at == HUDI_TYPE_DECIMAL ? AK_SUM_DEC
                  : is_integer(at)        ? AK_SUM_INT
                                          : AK_SUM_DOUBLE;
    } else if (!strcmp(name, "avg") || !strcmp(name, "mean")) {
        s->kind = at == HUDI_TYPE_DECIMAL ? AK_AVG_DEC : AK_AVG_DOUBLE;
    } else if (!strcmp(name, "min") || !strcmp(name, "max")) {
        s->kind = name[1] == 'i' ? AK_MIN : AK_MAX;
    } else if (!strcmp(name, "first") || !strcmp(name, "any_value") || !strcmp(name, "last")) {
        s->kind = name[0] == 'l' ? AK_LAST : AK_FIRST;
        if (call->n_args == 2) {
            const hudi_array *v = call->args[1]->value;
            s->ignore_nulls = v && hudi_array_is_valid(v, 0) && hudi_bit_get(v->values, 0);
        }
    } else if (!strcmp(name, "bool_and") || !strcmp(name, "every")) {
        s->kind = AK_BOOL_AND;
    } else if (!strcmp(name, "bool_or") || !strcmp(name, "some") || !strcmp(name, "any")) {
        s->kind = AK_BOOL_OR;
    } else if (!strcmp(name, "collect_list") || !strcmp(name, "collect_set")) {
        s->kind = AK_COLLECT;
    } else {
        return hudi_error_set(err, HUDI_EINVAL, "%s is not an aggregate function", name);
    }
    /* Check the argument types the accumulators read. */
    bool ok = true;
    switch (s->kind) {
    case AK_COUNT_IF: ok = at == HUDI_TYPE_BOOL || at == HUDI_TYPE_NULL; break;
    case AK_SUM_INT: ok = res->type == HUDI_TYPE_INT64; break;
    case AK_SUM_DOUBLE:
    case AK_AVG_DOUBLE:
        ok = (is_integer(at) || is_floating(at)) && res->type == HUDI_TYPE_DOUBLE;
        break;
    case AK_SUM_DEC:
    case AK_AVG_DEC:
        ok = res->type == HUDI_TYPE_DECIMAL && res->scale >= call->args[0]->type.scale;
        s->in_scale = call->args[0]->type.scale;
        break;
    case AK_MIN:
    case AK_MAX:
    case AK_FIRST:
    case AK_LAST: ok = res->type == at; break;
    case AK_BOOL_AND:
    case AK_BOOL_OR: ok = at == HUDI_TYPE_BOOL && res->type == HUDI_TYPE_BOOL; break;
    case AK_COLLECT:
        ok = res->type == HUDI_TYPE_LIST && res->n_children == 1 && res->children[0].type == at;
        break;
    default: break;
    }
    if (!ok)
        return hudi_error_set(err, HUDI_EINVAL, "%s over %s cannot give %s", name,
                              hudi_type_name(at), hudi_type_name(res->type));
    int rc;
    if (s->kind == AK_MIN || s->kind == AK_MAX || s->kind == AK_FIRST || s->kind == AK_LAST)
        if ((rc = hudi_array_new(&s->store, res, err)) < 0) return rc;
    if (s->kind == AK_COLLECT && (rc = hudi_array_new(&s->store, &res->children[0], err)) < 0)
        return rc;
    bool set = !strcmp(name, "collect_set");
    if ((call->distinct || set) && s->kind != AK_MIN && s->kind != AK_MAX) {
        /* min/max ignore DISTINCT; the others see each (group, value) once. */
        int32_t nk = call->star ? 1 : call->n_args + 1;
        const hudi_field **fields = hudi_calloc((size_t)nk, sizeof(*fields));
        if (!fields) return hudi_error_oom(err);
        set_type(&s->gid_field, HUDI_TYPE_INT64, false);
        fields[0] = &s->gid_field;
        for (int32_t k = 1; k < nk; k++) fields[k] = &call->args[k - 1]->type;
        rc = hudi_sql_groups_init(&s->seen, fields, nk, err);
        hudi_free(fields);
        if (rc < 0) return rc;
        s->distinct = true;
    }
    return 0;
}

int hudi_sql_open_aggregate(hudi_sql_oper **out, hudi_sql_ctx *ctx, const hudi_sql_plan *p,
                            hudi_sql_oper *child, hudi_error *err) {
    *out = NULL;
    agg_op *a = hudi_calloc(1, sizeof(*a));
    if (!a) {
        hudi_sql_op_free(child);
        return hudi_error_oom(err);
    }
    a->base = (hudi_sql_oper){p, ctx, agg_next, agg_free};
    a->child = child;
    a->n_group = p->n_group;
    int rc = 0;
    if (p->schema.n_children != p->n_group + p->n_aggs) {
        rc = hudi_error_set(err, HUDI_EINVAL,
                            "AGGREGATE of %d groups and %d aggregates over %d "
                            "columns",
                            p->n_group, p->n_aggs, p->schema.n_children);
        goto done;
    }
    if (p->n_aggs > 0 && !(a->aggs = hudi_calloc((size_t)p->n_aggs, sizeof(*a->aggs)))) {
        rc = hudi_error_oom(err);
        goto done;
    }
    for (int32_t i = 0; i < p->n_aggs; i++) {
        a->n_aggs = i + 1;
        if ((rc = setup_agg(a, i, err)) < 0) goto done;
    }
    if (p->n_group > 0) {
        const hudi_field **fields = hudi_calloc((size_t)p->n_group, sizeof(*fields));
        if (!fields || !(a->keys = hudi_calloc((size_t)p->n_group, sizeof(*a->keys)))) {
            hudi_free(fields);
            rc = hudi_error_oom(err);
            goto done;
        }
        for (int32_t k = 0; k < p->n_group; k++) fields[k] = &p->schema.children[k];
        rc = hudi_sql_groups_init(&a->groups, fields, p->n_group, err);
        hudi_free(fields);
        if (rc < 0) goto done;
    }
    rc = hudi_batch_new(&a->out, &p->schema, err);
done:
    if (rc < 0) {
        agg_free(&a->base);
        return rc;
    }
    *out = &a->base;
    return 0;
}
