/* exec_setop.c - DISTINCT and the set operations UNION [ALL], INTERSECT [ALL], EXCEPT [ALL]
 * with Spark's semantics: rows compare with nulls equal (and NaN equal to NaN); the distinct
 * forms return each row once; INTERSECT ALL returns a row min(l, r) times and EXCEPT ALL
 * max(l - r, 0) times, where l and r count it on each side (docs/ARCHITECTURE.md, "SQL engine:
 * operators").
 *
 * Everything streams the left side in order; UNION then streams the right side; INTERSECT and
 * EXCEPT first read the right side into a group table (exec_int.h) counting each distinct row.
 * Output rows come in the order of their first appearance on the left (then right) side. */
#include "sql/exec_int.h"

typedef struct setop_op {
    hudi_sql_oper base;
    hudi_sql_oper *left, *right; /* right NULL for DISTINCT */
    hudi_sql_setop setop;
    bool all, distinct_only;
    bool on_right; /* UNION: the left side is done */
    bool built;
    hudi_sql_groups seen;  /* rows returned so far (distinct forms) */
    hudi_sql_groups other; /* INTERSECT, EXCEPT: the right side's distinct rows */
    int64_t *counts;       /* per right group: rows left to cancel or pair */
    int64_t charged;
    hudi_sql_datum *cols;
    int64_t *ids, *ids2, *rows;
    uint8_t *flag, *fresh;
    int64_t cap;
    hudi_batch *out;
    hudi_batch *view;
} setop_op;

static int ensure_cap(setop_op *s, int64_t n, hudi_error *err) {
    if (n <= s->cap) return 0;
    int64_t *ids = hudi_realloc(s->ids, (size_t)n * 8);
    if (ids) s->ids = ids;
    int64_t *ids2 = hudi_realloc(s->ids2, (size_t)n * 8);
    if (ids2) s->ids2 = ids2;
    int64_t *rows = hudi_realloc(s->rows, (size_t)n * 8);
    if (rows) s->rows = rows;
    uint8_t *flag = hudi_realloc(s->flag, (size_t)n);
    if (flag) s->flag = flag;
    uint8_t *fresh = hudi_realloc(s->fresh, (size_t)n);
    if (fresh) s->fresh = fresh;
    if (!ids || !ids2 || !rows || !flag || !fresh) return hudi_error_oom(err);
    s->cap = n;
    return 0;
}

static void as_datums(setop_op *s, const hudi_batch *b) {
    for (int32_t c = 0; c < b->n_columns; c++) s->cols[c] = (hudi_sql_datum){b->columns[c], 0, 0};
}

/* Reads the right side of INTERSECT/EXCEPT into `other`, counting each distinct row. */
static int build_right(setop_op *s, hudi_error *err) {
    hudi_sql_ctx *ctx = s->base.ctx;
    int rc;
    int64_t cap = 0;
    for (;;) {
        hudi_batch *in;
        if ((rc = hudi_sql_check_cancel(ctx, err)) < 0) return rc;
        if ((rc = hudi_sql_op_next(s->right, &in, err)) < 0) return rc;
        if (!in) return 0;
        if (in->num_rows == 0) continue;
        if ((rc = ensure_cap(s, in->num_rows, err)) < 0) return rc;
        as_datums(s, in);
        if ((rc = hudi_sql_groups_add(ctx, &s->other, s->cols, in->num_rows, NULL, s->ids, NULL,
                                      err)) < 0)
            return rc;
        if (s->other.n_groups > cap) {
            int64_t nc = HUDI_MAX(s->other.n_groups, cap * 2);
            if ((rc = hudi_sql_mem_charge(ctx, 8 * (nc - cap), err)) < 0) return rc;
            s->charged += 8 * (nc - cap);
            int64_t *counts = hudi_realloc(s->counts, (size_t)nc * 8);
            if (!counts) return hudi_error_oom(err);
            memset(counts + cap, 0, (size_t)(nc - cap) * 8);
            s->counts = counts;
            cap = nc;
        }
        for (int64_t i = 0; i < in->num_rows; i++) s->counts[s->ids[i]]++;
    }
}

/* The rows of `in` that go out, into s->rows; returns how many. */
static int64_t select_rows(setop_op *s, const hudi_batch *in, hudi_error *err) {
    hudi_sql_ctx *ctx = s->base.ctx;
    int64_t n = in->num_rows, k = 0;
    int rc;
    as_datums(s, in);
    bool distinct = !s->all || s->distinct_only;
    if (s->right && s->setop != HUDI_SQL_SET_UNION) {
        /* INTERSECT keeps rows found on the right, EXCEPT rows not found; ALL pairs them off. */
        if ((rc = hudi_sql_groups_find(&s->other, s->cols, n, NULL, s->ids2, err)) < 0) return rc;
        bool intersect = s->setop == HUDI_SQL_SET_INTERSECT;
        for (int64_t i = 0; i < n; i++) {
            int64_t g = s->ids2[i];
            bool keep;
            if (s->all) {
                bool paired = g >= 0 && s->counts[g] > 0;
                if (paired) s->counts[g]--;
                keep = intersect ? paired : !paired;
            } else {
                keep = intersect ? g >= 0 : g < 0;
            }
            s->flag[i] = !keep; /* skipped by the distinct pass */
        }
    } else {
        memset(s->flag, 0, (size_t)n);
    }
    if (distinct) {
        if ((rc = hudi_sql_groups_add(ctx, &s->seen, s->cols, n, s->flag, s->ids, s->fresh, err)) <
            0)
            return rc;
        for (int64_t i = 0; i < n; i++)
            if (s->fresh[i]) s->rows[k++] = i;
    } else {
        for (int64_t i = 0; i < n; i++)
            if (!s->flag[i]) s->rows[k++] = i;
    }
    return k;
}

static int setop_next(hudi_sql_oper *op, hudi_batch **out, hudi_error *err) {
    setop_op *s = (setop_op *)op;
    *out = NULL;
    int rc;
    if (!s->built) {
        s->built = true;
        if (s->right && s->setop != HUDI_SQL_SET_UNION && (rc = build_right(s, err)) < 0) return rc;
    }
    for (;;) {
        if ((rc = hudi_sql_check_cancel(op->ctx, err)) < 0) return rc;
        hudi_sql_oper *from = s->on_right ? s->right : s->left;
        hudi_batch *in;
        if ((rc = hudi_sql_op_next(from, &in, err)) < 0) return rc;
        if (!in) {
            if (s->right && s->setop == HUDI_SQL_SET_UNION && !s->on_right) {
                s->on_right = true;
                continue;
            }
            return 0;
        }
        int64_t n = in->num_rows;
        if (n == 0) continue;
        if (s->right && s->setop == HUDI_SQL_SET_UNION && s->all) {
            /* UNION ALL: both sides as they come. */
            for (int32_t c = 0; c < in->n_columns; c++) s->view->columns[c] = in->columns[c];
            s->view->num_rows = n;
            *out = s->view;
            return 0;
        }
        if ((rc = ensure_cap(s, n, err)) < 0) return rc;
        int64_t k = select_rows(s, in, err);
        if (k < 0) return (int)k;
        if (k == 0) continue;
        hudi_batch_clear(s->out);
        if ((rc = hudi_sql_batch_take(s->out, in, s->rows, k, err)) < 0) return rc;
        *out = s->out;
        return 0;
    }
}

static void setop_free(hudi_sql_oper *op) {
    setop_op *s = (setop_op *)op;
    hudi_sql_op_free(s->left);
    hudi_sql_op_free(s->right);
    hudi_sql_groups_dispose(op->ctx, &s->seen);
    hudi_sql_groups_dispose(op->ctx, &s->other);
    hudi_sql_mem_charge(op->ctx, -s->charged, NULL);
    hudi_free(s->counts);
    hudi_free(s->cols);
    hudi_free(s->ids);
    hudi_free(s->ids2);
    hudi_free(s->rows);
    hudi_free(s->flag);
    hudi_free(s->fresh);
    hudi_batch_free(s->out);
    hudi_sql_view_free(s->view);
    hudi_free(s);
}

static int open_common(hudi_sql_oper **out, hudi_sql_ctx *ctx, const hudi_sql_plan *p,
                       hudi_sql_oper *left, hudi_sql_oper *right, hudi_error *err) {
    *out = NULL;
    setop_op *s = hudi_calloc(1, sizeof(*s));
    if (!s) {
        hudi_sql_op_free(left);
        hudi_sql_op_free(right);
        return hudi_error_oom(err);
    }
    s->base = (hudi_sql_oper){p, ctx, setop_next, setop_free};
    s->left = left;
    s->right = right;
    s->distinct_only = right == NULL;
    s->setop = right ? p->setop : HUDI_SQL_SET_UNION;
    s->all = right ? p->all : false;
    int32_t nc = p->schema.n_children;
    int rc = 0;
    const hudi_field **fields = hudi_calloc((size_t)nc + 1, sizeof(*fields));
    if (!fields || !(s->cols = hudi_calloc((size_t)nc + 1, sizeof(*s->cols)))) {
        rc = hudi_error_oom(err);
        goto done;
    }
    for (int32_t c = 0; c < nc; c++) fields[c] = &p->schema.children[c];
    if (right && (p->left->schema.n_children != nc || p->right->schema.n_children != nc)) {
        rc = hudi_error_set(err, HUDI_EINVAL, "set operation over %d and %d columns",
                            p->left->schema.n_children, p->right->schema.n_children);
        goto done;
    }
    if ((rc = hudi_sql_groups_init(&s->seen, fields, nc, err)) < 0) goto done;
    if ((rc = hudi_sql_groups_init(&s->other, fields, nc, err)) < 0) goto done;
    if ((rc = hudi_batch_new(&s->out, &p->schema, err)) < 0) goto done;
    rc = hudi_sql_view_new(&s->view, &p->schema, err);
done:
    hudi_free(fields);
    if (rc < 0) {
        setop_free(&s->base);
        return rc;
    }
    *out = &s->base;
    return 0;
}

int hudi_sql_open_distinct(hudi_sql_oper **out, hudi_sql_ctx *ctx, const hudi_sql_plan *p,
                           hudi_sql_oper *child, hudi_error *err) {
    return open_common(out, ctx, p, child, NULL, err);
}

int hudi_sql_open_setop(hudi_sql_oper **out, hudi_sql_ctx *ctx, const hudi_sql_plan *p,
                        hudi_sql_oper *left, hudi_sql_oper *right, hudi_error *err) {
    return open_common(out, ctx, p, left, right, err);
}
