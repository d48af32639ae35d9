/* plan.c - the planner's rewrites after binding, EXPLAIN, and running queries:
 *   1. filters above inner joins move to the side whose columns they read;
 *   2. column pruning: every node keeps only the columns something above it reads, so scans
 *      read only the Parquet columns a query needs;
 *   3. conjuncts "column op constant" and "column IS [NOT] NULL" of a filter right above a scan
 *      are pushed into the scan (partition pruning, statistics and page-index skipping), and so
 *      are IN lists and ORs of equalities on one column (push_in: partition pruning, record-key
 *      probing, their bounds for statistics); the filter stays above it, so pushdown only ever
 *      saves work;
 *   4. a LIMIT over a SORT makes it a top-N, and a top-N whose first key is a plain column of
 *      the scan feeding it shares a dynamic filter with that scan (plan_topn).
 * Expression trees may share nodes (BETWEEN uses its operand twice), so rewrites copy. */
#include "format/parquet/parquet.h"
#include "sql/bind.h"
#include "sql/fn_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int oom(hudi_sql_binder *b) { return hudi_error_oom(b->err); }
static void *alloc(hudi_sql_binder *b, size_t n) { return hudi_arena_alloc(&b->r->arena, n); }

/* ---- expression helpers ------------------------------------------------------------------- */

static void mark_columns(const hudi_sql_bexpr *e, bool *used, int32_t n) {
    if (!e) return;
    if (e->kind == HUDI_SQL_BX_COLUMN && e->column >= 0 && e->column < n) used[e->column] = true;
    for (int32_t i = 0; i < e->n_args; i++) mark_columns(e->args[i], used, n);
}

/* A copy of `e` with every column c replaced by map[c] + shift (map NULL: c + shift). */
static hudi_sql_bexpr *remap(hudi_sql_binder *b, const hudi_sql_bexpr *e, const int32_t *map,
                             int32_t shift) {
    if (!e) return NULL;
    hudi_sql_bexpr *c = alloc(b, sizeof(*c));
    if (!c) return NULL;
    *c = *e;
    if (e->kind == HUDI_SQL_BX_COLUMN) c->column = (map ? map[e->column] : e->column) + shift;
    if (e->n_args) {
        c->args = alloc(b, sizeof(*c->args) * (size_t)e->n_args);
        if (!c->args) return NULL;
        for (int32_t i = 0; i < e->n_args; i++)
            if (!(c->args[i] = remap(b, e->args[i], map, shift))) return NULL;
    }
    return c;
}

static bool is_fn(const hudi_sql_bexpr *e, const char *name) {
    return e && e->kind == HUDI_SQL_BX_CALL && e->fn && strcmp(e->fn->name, name) == 0;
}

static int collect_conjuncts(hudi_sql_binder *b, hudi_sql_bexpr *e, hudi_vec *out) {
    if (is_fn(e, "and")) {
        for (int32_t i = 0; i < e->n_args; i++) {
            int rc = collect_conjuncts(b, e->args[i], out);
            if (rc < 0) return rc;
        }
        return 0;
    }
    hudi_sql_bexpr **slot = hudi_vec_push(out);
    if (!slot) return oom(b);
    *slot = e;
    return 0;
}

/* ---- 1. filters into join inputs ------------------------------------------------------- */

static int side_of(const hudi_sql_bexpr *e, int32_t split) {
    /* 1 left only, 2 right only, 3 both, 0 none */
    int s = 0;
    if (e->kind == HUDI_SQL_BX_COLUMN) s |= e->column < split ? 1 : 2;
    for (int32_t i = 0; i < e->n_args; i++) s |= side_of(e->args[i], split);
    return s;
}

static int push_filters(hudi_sql_binder *b, hudi_sql_plan **pp) {
    hudi_sql_plan *p = *pp;
    if (!p) return 0;
    int rc;
    if (p->kind == HUDI_SQL_P_FILTER && p->left->kind == HUDI_SQL_P_JOIN &&
        (p->left->join == HUDI_SQL_J_INNER || p->left->join == HUDI_SQL_J_CROSS ||
         p->left->join == HUDI_SQL_J_LEFT || p->left->join == HUDI_SQL_J_SEMI ||
         p->left->join == HUDI_SQL_J_ANTI)) {
        hudi_sql_plan *j = p->left;
        int32_t split = j->left->schema.n_children;
        bool right_ok = j->join == HUDI_SQL_J_INNER || j->join == HUDI_SQL_J_CROSS;
        hudi_vec cs = HUDI_VEC_INIT(hudi_sql_bexpr *);
        hudi_vec keep = HUDI_VEC_INIT(hudi_sql_bexpr *), left = HUDI_VEC_INIT(hudi_sql_bexpr *),
                 right = HUDI_VEC_INIT(hudi_sql_bexpr *);
        rc = collect_conjuncts(b, p->cond, &cs);
        for (size_t i = 0; rc == 0 && i < cs.len; i++) {
            hudi_sql_bexpr *c = hudi_vec_at(&cs, hudi_sql_bexpr *, i);
            int s = side_of(c, split);
            hudi_vec *to = &keep;
            if (s == 1)
                to = &left;
            else if (s == 2 && right_ok) {
                to = &right;
                if (!(c = remap(b, c, NULL, -split))) rc = oom(b);
            }
            hudi_sql_bexpr **slot = rc == 0 ? hudi_vec_push(to) : NULL;
            if (rc == 0 && !slot) rc = oom(b);
            if (slot) *slot = c;
        }
        hudi_sql_bexpr *lc = NULL, *rc_ = NULL, *kc = NULL;
        if (rc == 0) rc = hudi_sql_and_all(b, left.data, (int32_t)left.len, &lc);
        if (rc == 0) rc = hudi_sql_and_all(b, right.data, (int32_t)right.len, &rc_);
        if (rc == 0) rc = hudi_sql_and_all(b, keep.data, (int32_t)keep.len, &kc);
        hudi_vec_dispose(&cs);
        hudi_vec_dispose(&keep);
        hudi_vec_dispose(&left);
        hudi_vec_dispose(&right);
        if (rc < 0) return rc;
        if (lc && (rc = hudi_sql_plan_filter(b, j->left, lc, &j->left)) < 0) return rc;
        if (rc_ && (rc = hudi_sql_plan_filter(b, j->right, rc_, &j->right)) < 0) return rc;
        if (kc)
            p->cond = kc;
        else
            *pp = j;
    }
    p = *pp;
    if ((rc = push_filters(b, &p->left)) < 0) return rc;
    return push_filters(b, &p->right);
}

/* ---- 2. column pruning --------------------------------------------------------------------- */

static int set_children(hudi_sql_binder *b, hudi_sql_plan *p, const hudi_field *src,
                        const bool *keep, int32_t n, int32_t **map_out) {
    int32_t *map = alloc(b, sizeof(*map) * (size_t)(n ? n : 1));
    hudi_field *c = alloc(b, sizeof(*c) * (size_t)(n ? n : 1));
    if (!map || !c) return oom(b);
    int32_t k = 0;
    for (int32_t i = 0; i < n; i++) {
        map[i] = keep[i] ? k : -1;
        if (keep[i]) c[k++] = src[i];
    }
    p->schema.children = c;
    p->schema.n_children = k;
    *map_out = map;
    return 0;
}

static int32_t *identity(hudi_sql_binder *b, int32_t n) {
    int32_t *map = alloc(b, sizeof(*map) * (size_t)(n ? n : 1));
    if (map)
        for (int32_t i = 0; i < n; i++) map[i] = i;
    return map;
}

static bool *all_true(hudi_sql_binder *b, int32_t n) {
    bool *v = alloc(b, (size_t)(n ? n : 1));
    if (v) memset(v, 1, (size_t)(n ? n : 1));
    return v;
}

/* The cheapest column to read when a scan must produce rows but no column is asked for. */
static int32_t cheapest(const hudi_field *schema, const int32_t *cols, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        hudi_type_id t = schema->children[cols[i]].type;
        if (hudi_type_is_fixed(t) && t != HUDI_TYPE_DECIMAL) return i;
    }
    return 0;
}

static int prune(hudi_sql_binder *b, hudi_sql_plan *p, const bool *needed, int32_t **map_out) {
    int32_t n = p->schema.n_children;
    int rc;
    switch (p->kind) {
    case HUDI_SQL_P_SCAN: {
        hudi_sql_scan_spec *s = p->scan;
        bool *keep = alloc(b, (size_t)(n ? n : 1));
        if (!keep) return oom(b);
        bool any = false;
        for (int32_t i = 0; i < n; i++) any |= (keep[i] = needed[i]);
        if (!any && n > 0) keep[cheapest(&s->table_schema, s->columns, s->n_columns)] = true;
        int32_t k = 0;
        for (int32_t i = 0; i < n; i++)
            if (keep[i]) s->columns[k++] = s->columns[i];
        s->n_columns = k;
        return set_children(b, p, p->schema.children, keep, n, map_out);
    }
    case HUDI_SQL_P_VALUES:
    case HUDI_SQL_P_BATCHES: *map_out = identity(b, n); return *map_out ? 0 : oom(b);
    case HUDI_SQL_P_FILTER:
    case HUDI_SQL_P_SORT:
    case HUDI_SQL_P_LIMIT: {
        int32_t nc = p->left->schema.n_children;
        bool *need = alloc(b, (size_t)(nc ? nc : 1));
        if (!need) return oom(b);
        memcpy(need, needed, (size_t)nc);
        mark_columns(p->cond, need, nc);
        for (int32_t i = 0; i < p->n_keys && p->kind == HUDI_SQL_P_SORT; i++)
            mark_columns(p->keys[i].expr, need, nc);
        int32_t *cm;
        if ((rc = prune(b, p->left, need, &cm)) < 0) return rc;
        if (p->cond && !(p->cond = remap(b, p->cond, cm, 0))) return oom(b);
        if (p->kind == HUDI_SQL_P_SORT) {
            hudi_sql_sort_key *k2 = alloc(b, sizeof(*k2) * (size_t)(p->n_keys ? p->n_keys : 1));
            if (!k2) return oom(b);
            for (int32_t i = 0; i < p->n_keys; i++) {
                k2[i] = p->keys[i];
                if (!(k2[i].expr = remap(b, p->keys[i].expr, cm, 0))) return oom(b);
            }
            p->keys = k2;
        }
        p->schema = p->left->schema;
        *map_out = cm;
        return 0;
    }
    case HUDI_SQL_P_PROJECT: {
        bool *keep = alloc(b, (size_t)(n ? n : 1));
        if (!keep) return oom(b);
        bool any = false;
        for (int32_t i = 0; i < n; i++) any |= (keep[i] = needed[i]);
        if (!any && n > 0) keep[0] = true;
        int32_t nc = p->left->schema.n_children;
        bool *need = alloc(b, (size_t)(nc ? nc : 1));
        if (!need) return oom(b);
        memset(need, 0, (size_t)(nc ? nc : 1));
        for (int32_t i = 0; i < n; i++)
            if (keep[i]) mark_columns(p->exprs[i], need, nc);
        int32_t *cm;
        if ((rc = prune(b, p->left, need, &cm)) < 0) return rc;
        hudi_sql_bexpr **ex = alloc(b, sizeof(*ex) * (size_t)(n ? n : 1));
        if (!ex) return oom(b);
        int32_t k = 0;
        for (int32_t i = 0; i < n; i++)
            if (keep[i] && !(ex[k++] = remap(b, p->exprs[i], cm, 0))) return oom(b);
        hudi_field *old = p->schema.children;
        if ((rc = set_children(b, p, old, keep, n, map_out)) < 0) return rc;
        p->exprs = ex;
        p->n_exprs = k;
        return 0;
    }
    case HUDI_SQL_P_AGGREGATE: {
        int32_t nc = p->left->schema.n_children;
        bool *need = alloc(b, (size_t)(nc ? nc : 1));
        if (!need) return oom(b);
        memset(need, 0, (size_t)(nc ? nc : 1));
        for (int32_t i = 0; i < p->n_group; i++) mark_columns(p->group[i], need, nc);
        for (int32_t i = 0; i < p->n_aggs; i++) {
            for (int32_t a = 0; a < p->aggs[i]->n_args; a++)
                mark_columns(p->aggs[i]->args[a], need, nc);
            mark_columns(p->aggs[i]->filter, need, nc);
        }
        int32_t *cm;
        if ((rc = prune(b, p->left, need, &cm)) < 0) return rc;
        for (int32_t i = 0; i < p->n_group; i++)
            if (!(p->group[i] = remap(b, p->group[i], cm, 0))) return oom(b);
        for (int32_t i = 0; i < p->n_aggs; i++) {
            hudi_sql_aggcall *ac = alloc(b, sizeof(*ac));
            if (!ac) return oom(b);
            *ac = *p->aggs[i];
            if (ac->n_args) {
                ac->args = alloc(b, sizeof(*ac->args) * (size_t)ac->n_args);
                if (!ac->args) return oom(b);
                for (int32_t a = 0; a < ac->n_args; a++)
                    if (!(ac->args[a] = remap(b, p->aggs[i]->args[a], cm, 0))) return oom(b);
            }
            if (ac->filter && !(ac->filter = remap(b, ac->filter, cm, 0))) return oom(b);
            p->aggs[i] = ac;
        }
        *map_out = identity(b, n);
        return *map_out ? 0 : oom(b);
    }
    case HUDI_SQL_P_DISTINCT:
    case HUDI_SQL_P_SETOP: {
        int32_t *cm;
        bool *all = all_true(b, p->left->schema.n_children);
        if (!all) return oom(b);
        if ((rc = prune(b, p->left, all, &cm)) < 0) return rc;
        if (p->right) {
            bool *all_r = all_true(b, p->right->schema.n_children);
            if (!all_r) return oom(b);
            if ((rc = prune(b, p->right, all_r, &cm)) < 0) return rc;
        }
        *map_out = identity(b, n);
        return *map_out ? 0 : oom(b);
    }
    case HUDI_SQL_P_JOIN: {
        int32_t nl = p->left->schema.n_children, nr = p->right->schema.n_children;
        bool semi = p->join == HUDI_SQL_J_SEMI || p->join == HUDI_SQL_J_ANTI;
        bool *nl_need = alloc(b, (size_t)(nl + nr ? nl + nr : 1));
        if (!nl_need) return oom(b);
        memset(nl_need, 0, (size_t)(nl + nr ? nl + nr : 1));
        for (int32_t i = 0; i < n; i++) nl_need[i] = needed[i];
        mark_columns(p->cond, nl_need, nl + nr);
        for (int32_t i = 0; i < p->n_keys; i++) {
            mark_columns(p->left_keys[i], nl_need, nl);
            mark_columns(p->right_keys[i], nl_need + nl, nr);
        }
        int32_t *lm, *rm;
        if ((rc = prune(b, p->left, nl_need, &lm)) < 0) return rc;
        if ((rc = prune(b, p->right, nl_need + nl, &rm)) < 0) return rc;
        int32_t nl2 = p->left->schema.n_children;
        int32_t *both = alloc(b, sizeof(*both) * (size_t)(nl + nr ? nl + nr : 1));
        if (!both) return oom(b);
        for (int32_t i = 0; i < nl; i++) both[i] = lm[i];
        for (int32_t i = 0; i < nr; i++) both[nl + i] = rm[i] < 0 ? -1 : nl2 + rm[i];
        for (int32_t i = 0; i < p->n_keys; i++) {
            if (!(p->left_keys[i] = remap(b, p->left_keys[i], lm, 0))) return oom(b);
            if (!(p->right_keys[i] = remap(b, p->right_keys[i], rm, 0))) return oom(b);
        }
        if (p->cond && !(p->cond = remap(b, p->cond, both, 0))) return oom(b);
        int32_t nr2 = semi ? 0 : p->right->schema.n_children;
        hudi_field *c = alloc(b, sizeof(*c) * (size_t)(nl2 + nr2 ? nl2 + nr2 : 1));
        if (!c) return oom(b);
        memcpy(c, p->left->schema.children, sizeof(*c) * (size_t)nl2);
        if (nr2) memcpy(c + nl2, p->right->schema.children, sizeof(*c) * (size_t)nr2);
        p->schema.children = c;
        p->schema.n_children = nl2 + nr2;
        *map_out = both;
        return 0;
    }
    }
    return hudi_error_set(b->err, HUDI_EINVAL, "prune: unknown plan node");
}

/* ---- 3. pushdown into scans ------------------------------------------------------------- */

static int cmp_op(const char *fn, bool flipped) {
    static const struct {
        const char *fn;
        hudi_cmp_op op, flip;
    } ops[] = {
        {"=", HUDI_CMP_EQ, HUDI_CMP_EQ}, {"<>", HUDI_CMP_NE, HUDI_CMP_NE},
        {"<", HUDI_CMP_LT, HUDI_CMP_GT}, {"<=", HUDI_CMP_LE, HUDI_CMP_GE},
        {">", HUDI_CMP_GT, HUDI_CMP_LT}, {">=", HUDI_CMP_GE, HUDI_CMP_LE},
    };
    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
        if (strcmp(ops[i].fn, fn) == 0) return flipped ? (int)ops[i].flip : (int)ops[i].op;
    return -1;
}

/* `e` as a constant (1) when it is one or casts of one - binding a call casts its arguments
 * to their common type (docs/SQL.md 3.4) without folding the casts: they are evaluated here as
 * the filter would, into a new node. 0 for anything else, also when a cast fails (the filter
 * above meets the same failure); < 0 on running out of memory. */
static int fold_const(hudi_sql_binder *b, const hudi_sql_bexpr *e, const hudi_sql_bexpr **out) {
    if (e->kind == HUDI_SQL_BX_CONST) {
        *out = e;
        return 1;
    }
    if (e->kind != HUDI_SQL_BX_CALL || e->fn != &hudi_sql_cast_func || e->n_args != 1) return 0;
    const hudi_sql_bexpr *in;
    int rc = fold_const(b, e->args[0], &in);
    if (rc <= 0) return rc;
    hudi_sql_bexpr *c = alloc(b, sizeof(*c));
    hudi_sql_bexpr **args = alloc(b, sizeof(*args));
    if (!c || !args) return oom(b);
    *c = *e;
    args[0] = (hudi_sql_bexpr *)in;
    c->args = args;
    if ((rc = hudi_sql_fold(b, &c)) < 0) {
        if (rc == HUDI_ENOMEM) return rc;
        hudi_error_clear(b->err);
        return 0;
    }
    *out = c;
    return c->kind == HUDI_SQL_BX_CONST;
}

/* Whether `e` is `column = constant` (either way round), `column IN (constants)` or an OR of
 * those, all on one column (1, else 0; < 0 on running out of memory): its constants (NULLs
 * too, folded: fold_const) are appended to `out` and *column set to the filter's input column
 * (< 0 on entry). */
static int in_list(hudi_sql_binder *b, const hudi_sql_bexpr *e, int32_t *column, hudi_vec *out) {
    int rc;
    if (e->kind != HUDI_SQL_BX_CALL || !e->fn) return 0;
    if (is_fn(e, "or")) {
        for (int32_t i = 0; i < e->n_args; i++)
            if ((rc = in_list(b, e->args[i], column, out)) <= 0) return rc;
        return e->n_args > 0;
    }
    bool in = is_fn(e, "in");
    if ((!in && !is_fn(e, "=")) || e->n_args < 2 || (!in && e->n_args != 2)) return 0;
    int32_t col = 0; /* the argument that is the column: IN's first, either side of = */
    if (!in && e->args[0]->kind != HUDI_SQL_BX_COLUMN) col = 1;
    if (e->args[col]->kind != HUDI_SQL_BX_COLUMN) return 0;
    if (*column >= 0 && e->args[col]->column != *column) return 0;
    *column = e->args[col]->column;
    for (int32_t i = 0; i < e->n_args; i++) {
        const hudi_sql_bexpr *k;
        if (i == col) continue;
        if ((rc = fold_const(b, e->args[i], &k)) <= 0) return rc;
        const hudi_sql_bexpr **slot = hudi_vec_push(out);
        if (!slot) return oom(b);
        *slot = k;
    }
    return 1;
}

static int cmp_const(const void *a, const void *b) {
    const hudi_sql_bexpr *x = *(const hudi_sql_bexpr *const *)a;
    const hudi_sql_bexpr *y = *(const hudi_sql_bexpr *const *)b;
    return hudi_sql_cmp_value(x->value, 0, y->value, 0);
}

/* Column types an IN list is pushed on: those whose order and equality the scan's statistics,
 * partition values and record keys share with SQL's (not floating point: NaN). */
static bool in_type(hudi_type_id t) {
    switch (t) {
    case HUDI_TYPE_BOOL:
    case HUDI_TYPE_INT8:
    case HUDI_TYPE_INT16:
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_INT64:
    case HUDI_TYPE_DATE:
    case HUDI_TYPE_TIMESTAMP:
    case HUDI_TYPE_DECIMAL:
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY: return true;
    default: return false;
    }
}

/* "(name op constant)" for a pushed bound, NULL (EXPLAIN then writes the value) when the
 * constant has no text. */
static const char *bound_text(hudi_sql_binder *b, const char *name, const char *op,
                              const hudi_sql_bexpr *k) {
    if (!k->text) return NULL;
    size_t n = strlen(name) + strlen(op) + strlen(k->text) + 8;
    char *t = alloc(b, n);
    if (t) snprintf(t, n, "(%s %s %s)", name, op, k->text);
    return t;
}

/* Pushes conjunct `c` when it is an IN list or an OR of equalities on one column (in_list): a
 * single distinct value as `=`; more as HUDI_SQL_PUSH_IN (skipping by partition and record
 * key) with the list's bounds as >= and <= (statistics: any value of the list lies between
 * them). NULL items match no row, and a conjunct that is NULL filters the row out as false
 * does, so they are dropped; a list of NULLs only is not pushed. Adds to pd[*n]. */
static int push_in(hudi_sql_binder *b, hudi_sql_scan_spec *s, const hudi_sql_bexpr *c,
                   hudi_sql_pushdown *pd, int32_t *n) {
    hudi_vec ks = HUDI_VEC_INIT(hudi_sql_bexpr *);
    int32_t column = -1;
    int rc = in_list(b, c, &column, &ks);
    if (rc <= 0 || column < 0) goto done;
    rc = 0;
    const hudi_field *col = &s->table_schema.children[s->columns[column]];
    if (!in_type(col->type)) goto done;
    const hudi_sql_bexpr **k = ks.data;
    size_t m = 0;
    for (size_t i = 0; i < ks.len; i++) {
        if (!hudi_array_is_valid(k[i]->value, 0)) continue; /* NULL: matches nothing */
        if (!hudi_sql_type_equal(col, &k[i]->type)) goto done;
        k[m++] = k[i];
    }
    if (m > 1) qsort(k, m, sizeof(*k), cmp_const);
    size_t d = 0; /* distinct */
    for (size_t i = 0; i < m; i++)
        if (d == 0 || cmp_const(&k[d - 1], &k[i]) != 0) k[d++] = k[i];
    if (d == 0) goto done;
    int32_t at = s->columns[column];
    if (d == 1) {
        pd[(*n)++] = (hudi_sql_pushdown){at, HUDI_CMP_EQ, k[0]->value, c->text};
        goto done;
    }
    hudi_array *list = NULL;
    if ((rc = hudi_array_new(&list, k[0]->value->field, b->err)) < 0) goto done;
    for (size_t i = 0; i < d && rc == 0; i++)
        rc = hudi_array_append_range(list, k[i]->value, 0, 1, b->err);
    if (rc < 0 || (rc = hudi_sql_result_own_array(b->r, list, b->err)) < 0) {
        hudi_array_free(list);
        goto done;
    }
    pd[(*n)++] = (hudi_sql_pushdown){at, HUDI_SQL_PUSH_IN, list, c->text};
    pd[(*n)++] =
        (hudi_sql_pushdown){at, HUDI_CMP_GE, k[0]->value, bound_text(b, col->name, ">=", k[0])};
    pd[(*n)++] = (hudi_sql_pushdown){at, HUDI_CMP_LE, k[d - 1]->value,
                                     bound_text(b, col->name, "<=", k[d - 1])};
done:
    hudi_vec_dispose(&ks);
    return rc < 0 ? rc : 0;
}

static int push_scan(hudi_sql_binder *b, hudi_sql_plan *filter) {
    hudi_sql_plan *scan = filter->left;
    hudi_sql_scan_spec *s = scan->scan;
    hudi_vec cs = HUDI_VEC_INIT(hudi_sql_bexpr *);
    int rc = collect_conjuncts(b, filter->cond, &cs);
    hudi_sql_pushdown *pd =
        rc == 0 ? alloc(b, sizeof(*pd) * (3 * cs.len + (size_t)s->n_pushdown + 1)) : NULL;
    if (rc == 0 && !pd) rc = oom(b);
    int32_t n = 0;
    if (rc == 0 && s->n_pushdown) {
        memcpy(pd, s->pushdown, sizeof(*pd) * (size_t)s->n_pushdown);
        n = s->n_pushdown;
    }
    for (size_t i = 0; rc == 0 && i < cs.len; i++) {
        const hudi_sql_bexpr *c = hudi_vec_at(&cs, hudi_sql_bexpr *, i);
        if (c->kind != HUDI_SQL_BX_CALL || !c->fn) continue;
        if (is_fn(c, "in") || is_fn(c, "or")) {
            rc = push_in(b, s, c, pd, &n);
            continue;
        }
        if ((is_fn(c, "isnull") || is_fn(c, "isnotnull")) && c->n_args == 1 &&
            c->args[0]->kind == HUDI_SQL_BX_COLUMN) {
            pd[n].column = s->columns[c->args[0]->column];
            pd[n].op = is_fn(c, "isnull") ? HUDI_CMP_IS_NULL : HUDI_CMP_IS_NOT_NULL;
            pd[n].value = NULL;
            pd[n].text = c->text;
            n++;
            continue;
        }
        if (c->n_args != 2) continue;
        const hudi_sql_bexpr *x = c->args[0], *y = c->args[1];
        bool flipped = false;
        if (x->kind != HUDI_SQL_BX_COLUMN && y->kind == HUDI_SQL_BX_COLUMN) {
            const hudi_sql_bexpr *t = x;
            x = y;
            y = t;
            flipped = true;
        }
        if (x->kind != HUDI_SQL_BX_COLUMN) continue;
        int k = fold_const(b, y, &y);
        if (k < 0) rc = k;
        if (k <= 0) continue;
        int op = cmp_op(c->fn->name, flipped);
        if (op < 0 || !hudi_array_is_valid(y->value, 0)) continue;
        const hudi_field *col = &s->table_schema.children[s->columns[x->column]];
        if (!hudi_sql_type_equal(col, &y->type) || hudi_type_is_nested(col->type)) continue;
        pd[n].column = s->columns[x->column];
        pd[n].op = op;
        pd[n].value = y->value;
        pd[n].text = c->text;
        n++;
    }
    hudi_vec_dispose(&cs);
    if (rc < 0) return rc;
    s->pushdown = pd;
    s->n_pushdown = n;
    return 0;
}

static int push_scans(hudi_sql_binder *b, hudi_sql_plan *p) {
    if (!p) return 0;
    int rc;
    if (p->kind == HUDI_SQL_P_FILTER && p->left->kind == HUDI_SQL_P_SCAN &&
        (rc = push_scan(b, p)) < 0)
        return rc;
    if ((rc = push_scans(b, p->left)) < 0) return rc;
    return push_scans(b, p->right);
}

/* ---- top-N ---------------------------------------------------------------------------------- */

/* A LIMIT n [OFFSET m] over a SORT (through projections, which keep rows one for one) makes the
 * sort keep only its first n + m rows (a top-N); the LIMIT still applies the offset. */
static void limit_sort(hudi_sql_plan *p) {
    if (p->kind != HUDI_SQL_P_LIMIT || p->limit < 0 || p->offset > INT64_MAX - p->limit) return;
    hudi_sql_plan *q = p->left;
    while (q && q->kind == HUDI_SQL_P_PROJECT) q = q->left;
    if (!q || q->kind != HUDI_SQL_P_SORT) return;
    int64_t n = p->limit + p->offset;
    if (q->limit < 0 || n < q->limit) q->limit = n;
}

/* A top-N whose first key is a plain column of a scan that feeds it through projections and
 * filters only (never a join, an aggregate or another limit, which change what reaches the
 * sort) shares a dynamic filter with that scan: the scan drops what sorts after the N-th row
 * kept (docs/SQL.md "Top-N dynamic filter"). */
static int topn_filter(hudi_sql_binder *b, hudi_sql_plan *sort) {
    if (sort->limit < 0 || sort->n_keys == 0 || sort->keys[0].expr->kind != HUDI_SQL_BX_COLUMN)
        return 0;
    const char *off = b->s ? hudi_sql_conf_get(b->s, "hudic.topn.dynamic_filter") : NULL;
    if (off && hudi_sql_ident_eq(off, "false")) return 0;
    int32_t col = sort->keys[0].expr->column;
    hudi_sql_plan *q = sort->left;
    while (q && (q->kind == HUDI_SQL_P_PROJECT || q->kind == HUDI_SQL_P_FILTER)) {
        if (q->kind == HUDI_SQL_P_PROJECT) {
            if (col >= q->n_exprs || q->exprs[col]->kind != HUDI_SQL_BX_COLUMN) return 0;
            col = q->exprs[col]->column;
        }
        q = q->left;
    }
    if (!q || q->kind != HUDI_SQL_P_SCAN || !q->scan || q->scan->dynamic || col < 0 ||
        col >= q->scan->n_columns)
        return 0;
    hudi_sql_scan_spec *s = q->scan;
    int32_t tc = s->columns[col];
    hudi_type_id t = s->table_schema.children[tc].type;
    if (!hudi_pq_dynfilter_supports(t)) return 0;
    hudi_pq_dynfilter *f = alloc(b, sizeof(*f));
    if (!f) return oom(b);
    hudi_pq_dynfilter_init(f, t, sort->keys[0].desc, sort->keys[0].nulls_first);
    sort->dynamic = s->dynamic = f;
    s->dynamic_column = tc;
    return 0;
}

static int plan_topn(hudi_sql_binder *b, hudi_sql_plan *p) {
    if (!p) return 0;
    limit_sort(p);
    int rc;
    if ((rc = plan_topn(b, p->left)) < 0 || (rc = plan_topn(b, p->right)) < 0) return rc;
    return p->kind == HUDI_SQL_P_SORT ? topn_filter(b, p) : 0;
}

int hudi_sql_optimize(hudi_sql_binder *b, hudi_sql_plan **root) {
    int rc = push_filters(b, root);
    if (rc < 0) return rc;
    int32_t n = (*root)->schema.n_children;
    bool *all = all_true(b, n);
    int32_t *map;
    if (!all) return oom(b);
    if ((rc = prune(b, *root, all, &map)) < 0) return rc;
    if ((rc = push_scans(b, *root)) < 0) return rc;
    return plan_topn(b, *root);
}

/* ---- EXPLAIN -------------------------------------------------------------------------------- */

static void explain_expr(hudi_buf *o, const hudi_sql_bexpr *e) {
    hudi_buf_puts(o, e && e->text ? e->text : "?");
}

static void explain_columns(hudi_buf *o, const hudi_field *schema) {
    hudi_buf_puts(o, "[");
    for (int32_t i = 0; i < schema->n_children; i++) {
        if (i) hudi_buf_puts(o, ", ");
        hudi_buf_puts(o, schema->children[i].name ? schema->children[i].name : "?");
    }
    hudi_buf_puts(o, "]");
}

static const char *join_name(hudi_sql_join_kind k) {
    switch (k) {
    case HUDI_SQL_J_INNER: return "Inner";
    case HUDI_SQL_J_LEFT: return "LeftOuter";
    case HUDI_SQL_J_RIGHT: return "RightOuter";
    case HUDI_SQL_J_FULL: return "FullOuter";
    case HUDI_SQL_J_CROSS: return "Cross";
    case HUDI_SQL_J_SEMI: return "LeftSemi";
    case HUDI_SQL_J_ANTI: return "LeftAnti";
    }
    return "?";
}

static void explain(hudi_buf *o, const hudi_sql_plan *p, int depth) {
    for (int i = 0; i < depth; i++) hudi_buf_puts(o, i + 1 == depth ? "+- " : "   ");
    switch (p->kind) {
    case HUDI_SQL_P_SCAN: hudi_sql_scan_explain(o, p->scan, depth); break;
    case HUDI_SQL_P_VALUES:
        hudi_buf_printf(o, "Values %lld row(s) ", (long long)p->n_rows);
        explain_columns(o, &p->schema);
        break;
    case HUDI_SQL_P_BATCHES: hudi_buf_puts(o, "LocalRows"); break;
    case HUDI_SQL_P_FILTER:
        hudi_buf_puts(o, "Filter ");
        explain_expr(o, p->cond);
        break;
    case HUDI_SQL_P_PROJECT:
        hudi_buf_puts(o, "Project ");
        explain_columns(o, &p->schema);
        break;
    case HUDI_SQL_P_AGGREGATE:
        hudi_buf_puts(o, "HashAggregate keys=[");
        for (int32_t i = 0; i < p->n_group; i++) {
            if (i) hudi_buf_puts(o, ", ");
            explain_expr(o, p->group[i]);
        }
        hudi_buf_puts(o, "] output=");
        explain_columns(o, &p->schema);
        break;
    case HUDI_SQL_P_SORT:
        hudi_buf_puts(o, p->limit >= 0 ? "TopN " : "Sort [");
        if (p->limit >= 0) hudi_buf_printf(o, "%lld [", (long long)p->limit);
        for (int32_t i = 0; i < p->n_keys; i++) {
            if (i) hudi_buf_puts(o, ", ");
            hudi_buf_puts(o, p->schema.children[p->keys[i].expr->column].name);
            hudi_buf_puts(o, p->keys[i].desc ? " DESC" : " ASC");
            hudi_buf_puts(o, p->keys[i].nulls_first ? " NULLS FIRST" : " NULLS LAST");
        }
        hudi_buf_puts(o, "]");
        break;
    case HUDI_SQL_P_LIMIT:
        hudi_buf_printf(o, "Limit %lld", (long long)p->limit);
        if (p->offset) hudi_buf_printf(o, " offset %lld", (long long)p->offset);
        break;
    case HUDI_SQL_P_DISTINCT: hudi_buf_puts(o, "Distinct"); break;
    case HUDI_SQL_P_JOIN:
        hudi_buf_printf(o, "%s %s", p->n_keys ? "HashJoin" : "NestedLoopJoin", join_name(p->join));
        for (int32_t i = 0; i < p->n_keys; i++) {
            hudi_buf_puts(o, i ? ", " : " keys=[");
            explain_expr(o, p->left_keys[i]);
            hudi_buf_puts(o, " = ");
            explain_expr(o, p->right_keys[i]);
            if (i + 1 == p->n_keys) hudi_buf_puts(o, "]");
        }
        if (p->cond) {
            hudi_buf_puts(o, " condition=");
            explain_expr(o, p->cond);
        }
        break;
    case HUDI_SQL_P_SETOP:
        hudi_buf_printf(o, "%s%s",
                        p->setop == HUDI_SQL_SET_UNION       ? "Union"
                        : p->setop == HUDI_SQL_SET_INTERSECT ? "Intersect"
                                                             : "Except",
                        p->all ? " All" : "");
        break;
    }
    hudi_buf_putc(o, '\n');
    if (p->left) explain(o, p->left, depth + 1);
    if (p->right) explain(o, p->right, depth + 1);
}

void hudi_sql_plan_explain(hudi_buf *out, const hudi_sql_plan *p) {
    hudi_buf_puts(out, "== Physical Plan ==\n");
    explain(out, p, 0);
}

/* ---- running queries -------------------------------------------------------------------- */

int hudi_sql_plan_query(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_query *q,
                        hudi_sql_plan **out, hudi_error *err) {
    hudi_sql_binder b;
    hudi_sql_binder_init(&b, s, r, err);
    int rc = hudi_sql_bind_query(&b, q, out, NULL);
    if (rc == 0) rc = hudi_sql_optimize(&b, out);
    return rc;
}

int hudi_sql_exec_query(hudi_sql_session *s, const hudi_sql_stmt *st, hudi_sql_result *r,
                        hudi_error *err) {
    if (st->kind == HUDI_SQL_S_QUERY) return hudi_sql_plan_query(s, r, st->query, &r->plan, err);
    /* EXPLAIN: the plan of a query, as one row of text */
    const hudi_sql_stmt *in = st->inner;
    if (!in || in->kind != HUDI_SQL_S_QUERY)
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "EXPLAIN of statements other than queries is not supported yet");
    hudi_sql_plan *p;
    int rc = hudi_sql_plan_query(s, r, in->query, &p, err);
    if (rc < 0) return rc;
    hudi_buf text = HUDI_BUF_INIT;
    hudi_sql_plan_explain(&text, p);
    static const char *const names[] = {"plan"};
    static const hudi_type_id types[] = {HUDI_TYPE_STRING};
    hudi_field schema;
    hudi_batch *batch = NULL;
    rc = text.failed ? hudi_error_oom(err) : hudi_sql_schema_make(r, &schema, 1, names, types, err);
    if (rc == 0) rc = hudi_batch_new(&batch, &schema, err);
    if (rc == 0) rc = hudi_array_append_bytes(batch->columns[0], text.data, text.len, err);
    hudi_buf_dispose(&text);
    if (rc < 0) {
        hudi_batch_free(batch);
        return rc;
    }
    batch->num_rows = 1;
    return hudi_sql_plan_rows(r, &schema, batch, err);
}
