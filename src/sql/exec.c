/* exec.c - the operator tree: hudi_sql_op_open dispatches on the plan kind, and the streaming
 * operators live here (VALUES, BATCHES, FILTER, PROJECT, LIMIT); the blocking ones are in
 * aggregate.c, exec_sort.c, exec_join.c and exec_setop.c (docs/ARCHITECTURE.md, "SQL engine:
 * operators").
 *
 * Invariant: an operator's output batch stays valid until its next call to next or free; the
 * streaming operators return views whose columns are borrowed from the child's batch (valid
 * just as long) or arrays they own and free on the next call. */
#include "sql/exec_int.h"

/* ---- VALUES and BATCHES ------------------------------------------------------------------ */

typedef struct values_op {
    hudi_sql_oper base;
    hudi_batch *batch;
    int32_t next_batch; /* BATCHES: the next plan batch to return */
    bool done;
} values_op;

static void values_free(hudi_sql_oper *op) {
    values_op *v = (values_op *)op;
    hudi_batch_free(v->batch);
    hudi_free(v);
}

/* Each row's expressions are constant-foldable: evaluated over a 1-row batch of no columns. */
static int values_build(values_op *v, hudi_error *err) {
    const hudi_sql_plan *p = v->base.plan;
    hudi_sql_ctx *ctx = v->base.ctx;
    int32_t ncols = p->schema.n_children;
    hudi_batch one = {.schema = &p->schema, .num_rows = 1, .n_columns = 0, .columns = NULL};
    int rc = hudi_batch_new(&v->batch, &p->schema, err);
    if (rc < 0) return rc;
    for (int64_t r = 0; r < p->n_rows; r++) {
        for (int32_t c = 0; c < ncols; c++) {
            const hudi_sql_bexpr *e = p->rows[r * ncols + c];
            hudi_sql_datum d;
            if ((rc = hudi_sql_eval(ctx, e, &one, &d, err)) < 0) return rc;
            hudi_array *col = v->batch->columns[c];
            if (d.array->field->type != col->field->type)
                rc = hudi_error_set(err, HUDI_EINVAL, "VALUES row %lld column %s: %s for %s",
                                    (long long)r + 1, col->field->name ? col->field->name : "",
                                    hudi_type_name(d.array->field->type),
                                    hudi_type_name(col->field->type));
            else
                rc = hudi_array_append_range(col, d.array, 0, 1, err);
            hudi_sql_datum_dispose(&d);
            if (rc < 0) return rc;
        }
        v->batch->num_rows++;
    }
    return 0;
}

static int values_next(hudi_sql_oper *op, hudi_batch **out, hudi_error *err) {
    values_op *v = (values_op *)op;
    *out = NULL;
    int rc;
    if ((rc = hudi_sql_check_cancel(op->ctx, err)) < 0) return rc;
    if (op->plan->kind == HUDI_SQL_P_BATCHES) {
        while (v->next_batch < op->plan->n_batches) {
            hudi_batch *b = op->plan->batches[v->next_batch++];
            if (b && b->num_rows > 0) {
                *out = b;
                return 0;
            }
        }
        return 0;
    }
    if (v->done) return 0;
    v->done = true;
    if ((rc = values_build(v, err)) < 0) return rc;
    if (v->batch->num_rows > 0) *out = v->batch;
    return 0;
}

/* ---- FILTER -------------------------------------------------------------------------------- */

typedef struct filter_op {
    hudi_sql_oper base;
    hudi_sql_oper *child;
    hudi_batch *view;  /* all rows selected: the child's columns */
    hudi_batch *taken; /* some rows selected: copies */
    uint8_t *sel;
    int64_t *rows;
    int64_t cap;
} filter_op;

static void filter_free(hudi_sql_oper *op) {
    filter_op *f = (filter_op *)op;
    hudi_sql_op_free(f->child);
    hudi_sql_view_free(f->view);
    hudi_batch_free(f->taken);
    hudi_free(f->sel);
    hudi_free(f->rows);
    hudi_free(f);
}

static int filter_next(hudi_sql_oper *op, hudi_batch **out, hudi_error *err) {
    filter_op *f = (filter_op *)op;
    *out = NULL;
    int rc;
    for (;;) {
        hudi_batch *in;
        if ((rc = hudi_sql_check_cancel(op->ctx, err)) < 0) return rc;
        if ((rc = hudi_sql_op_next(f->child, &in, err)) < 0 || !in) return rc;
        int64_t n = in->num_rows;
        if (n == 0) continue;
        if (n > f->cap) {
            uint8_t *sel = hudi_realloc(f->sel, (size_t)n);
            if (!sel) return hudi_error_oom(err);
            f->sel = sel;
            int64_t *rows = hudi_realloc(f->rows, (size_t)n * sizeof(*rows));
            if (!rows) return hudi_error_oom(err);
            f->rows = rows;
            f->cap = n;
        }
        int64_t count = hudi_sql_eval_select(op->ctx, op->plan->cond, in, f->sel, err);
        if (count < 0) return (int)count;
        if (count == 0) continue;
        if (count == n) {
            for (int32_t c = 0; c < in->n_columns; c++) f->view->columns[c] = in->columns[c];
            f->view->num_rows = n;
            *out = f->view;
            return 0;
        }
        int64_t k = 0;
        for (int64_t i = 0; i < n; i++)
            if (f->sel[i]) f->rows[k++] = i;
        hudi_batch_clear(f->taken);
        if ((rc = hudi_sql_batch_take(f->taken, in, f->rows, k, err)) < 0) return rc;
        *out = f->taken;
        return 0;
    }
}

/* ---- PROJECT -------------------------------------------------------------------------------- */

typedef struct project_op {
    hudi_sql_oper base;
    hudi_sql_oper *child;
    hudi_batch *view;
    bool *owned; /* per output column: the operator frees it */
} project_op;

static void project_release(project_op *p) {
    for (int32_t c = 0; c < p->view->n_columns; c++) {
        if (p->owned[c]) hudi_array_free(p->view->columns[c]);
        p->view->columns[c] = NULL;
        p->owned[c] = false;
    }
}

static void project_free(hudi_sql_oper *op) {
    project_op *p = (project_op *)op;
    hudi_sql_op_free(p->child);
    if (p->view) project_release(p);
    hudi_sql_view_free(p->view);
    hudi_free(p->owned);
    hudi_free(p);
}

static int project_next(hudi_sql_oper *op, hudi_batch **out, hudi_error *err) {
    project_op *p = (project_op *)op;
    *out = NULL;
    project_release(p);
    int rc;
    hudi_batch *in;
    for (;;) {
        if ((rc = hudi_sql_check_cancel(op->ctx, err)) < 0) return rc;
        if ((rc = hudi_sql_op_next(p->child, &in, err)) < 0 || !in) return rc;
        if (in->num_rows > 0) break;
    }
    for (int32_t c = 0; c < op->plan->n_exprs; c++) {
        hudi_sql_datum d;
        if ((rc = hudi_sql_eval(op->ctx, op->plan->exprs[c], in, &d, err)) < 0) return rc;
        if (d.is_const) {
            rc = hudi_sql_array_repeat(&p->view->columns[c], d.array, in->num_rows, err);
            hudi_sql_datum_dispose(&d);
            if (rc < 0) return rc;
            p->owned[c] = true;
        } else {
            p->view->columns[c] = d.array;
            p->owned[c] = d.owned;
        }
    }
    p->view->num_rows = in->num_rows;
    *out = p->view;
    return 0;
}

/* ---- LIMIT / OFFSET ------------------------------------------------------------------------ */

typedef struct limit_op {
    hudi_sql_oper base;
    hudi_sql_oper *child;
    hudi_batch *part; /* a batch cut by the offset or the limit */
    hudi_batch *view;
    int64_t skipped, returned;
} limit_op;

static void limit_free(hudi_sql_oper *op) {
    limit_op *l = (limit_op *)op;
    hudi_sql_op_free(l->child);
    hudi_batch_free(l->part);
    hudi_sql_view_free(l->view);
    hudi_free(l);
}

static int limit_next(hudi_sql_oper *op, hudi_batch **out, hudi_error *err) {
    limit_op *l = (limit_op *)op;
    const hudi_sql_plan *p = op->plan;
    *out = NULL;
    int rc;
    for (;;) {
        /* Stop pulling as soon as the limit is reached: the child never reads further. */
        if (p->limit >= 0 && l->returned >= p->limit) return 0;
        if ((rc = hudi_sql_check_cancel(op->ctx, err)) < 0) return rc;
        hudi_batch *in;
        if ((rc = hudi_sql_op_next(l->child, &in, err)) < 0 || !in) return rc;
        int64_t n = in->num_rows, from = 0;
        if (l->skipped < p->offset) {
            int64_t skip = HUDI_MIN(n, p->offset - l->skipped);
            l->skipped += skip;
            from = skip;
        }
        int64_t take = n - from;
        if (p->limit >= 0) take = HUDI_MIN(take, p->limit - l->returned);
        if (take <= 0) continue;
        l->returned += take;
        if (from == 0 && take == n) {
            for (int32_t c = 0; c < in->n_columns; c++) l->view->columns[c] = in->columns[c];
            l->view->num_rows = n;
            *out = l->view;
            return 0;
        }
        hudi_batch_clear(l->part);
        for (int32_t c = 0; c < in->n_columns; c++)
            if ((rc = hudi_array_append_range(l->part->columns[c], in->columns[c], from, take,
                                              err)) < 0)
                return rc;
        l->part->num_rows = take;
        *out = l->part;
        return 0;
    }
}

/* ---- open, free, collect ------------------------------------------------------------------- */

static int alloc_op(hudi_sql_oper **out, size_t size, hudi_sql_ctx *ctx, const hudi_sql_plan *p,
                    int (*next)(hudi_sql_oper *, hudi_batch **, hudi_error *),
                    void (*free_fn)(hudi_sql_oper *), hudi_error *err) {
    hudi_sql_oper *op = hudi_calloc(1, size);
    if (!op) return hudi_error_oom(err);
    op->plan = p;
    op->ctx = ctx;
    op->next = next;
    op->free = free_fn;
    *out = op;
    return 0;
}

static int open_streaming(hudi_sql_oper **out, hudi_sql_ctx *ctx, const hudi_sql_plan *p,
                          hudi_sql_oper *child, hudi_error *err) {
    int rc = 0;
    hudi_sql_oper *op = NULL;
    switch (p->kind) {
    case HUDI_SQL_P_FILTER: {
        if (!p->cond) {
            rc = hudi_error_set(err, HUDI_EINVAL, "FILTER without a condition");
            break;
        }
        if ((rc = alloc_op(&op, sizeof(filter_op), ctx, p, filter_next, filter_free, err)) < 0)
            break;
        filter_op *f = (filter_op *)op;
        f->child = child;
        if ((rc = hudi_sql_view_new(&f->view, &p->schema, err)) < 0 ||
            (rc = hudi_batch_new(&f->taken, &p->schema, err)) < 0)
            break;
        break;
    }
    case HUDI_SQL_P_PROJECT: {
        if (p->n_exprs != p->schema.n_children) {
            rc = hudi_error_set(err, HUDI_EINVAL, "PROJECT of %d expressions over %d columns",
                                p->n_exprs, p->schema.n_children);
            break;
        }
        if ((rc = alloc_op(&op, sizeof(project_op), ctx, p, project_next, project_free, err)) < 0)
            break;
        project_op *pr = (project_op *)op;
        pr->child = child;
        if ((rc = hudi_sql_view_new(&pr->view, &p->schema, err)) < 0) break;
        if (!(pr->owned = hudi_calloc((size_t)p->n_exprs + 1, sizeof(bool))))
            rc = hudi_error_oom(err);
        break;
    }
    default: {
        if ((rc = alloc_op(&op, sizeof(limit_op), ctx, p, limit_next, limit_free, err)) < 0) break;
        limit_op *l = (limit_op *)op;
        l->child = child;
        if ((rc = hudi_sql_view_new(&l->view, &p->schema, err)) < 0) break;
        rc = hudi_batch_new(&l->part, &p->schema, err);
        break;
    }
    }
    if (rc < 0) {
        if (op)
            hudi_sql_op_free(op); /* frees the child too */
        else
            hudi_sql_op_free(child);
        return rc;
    }
    *out = op;
    return 0;
}

int hudi_sql_op_open(hudi_sql_oper **out, hudi_sql_ctx *ctx, const hudi_sql_plan *p,
                     hudi_error *err) {
    *out = NULL;
    int rc;
    hudi_sql_oper *left = NULL, *right = NULL;
    switch (p->kind) {
    case HUDI_SQL_P_SCAN: return hudi_sql_scan_open(out, ctx, p, err);
    case HUDI_SQL_P_VALUES:
    case HUDI_SQL_P_BATCHES:
        if (p->kind == HUDI_SQL_P_VALUES && p->n_rows > 0 && p->schema.n_children > 0 && !p->rows)
            return hudi_error_set(err, HUDI_EINVAL, "VALUES without rows");
        return alloc_op(out, sizeof(values_op), ctx, p, values_next, values_free, err);
    case HUDI_SQL_P_FILTER:
    case HUDI_SQL_P_PROJECT:
    case HUDI_SQL_P_LIMIT:
    case HUDI_SQL_P_SORT:
    case HUDI_SQL_P_AGGREGATE:
    case HUDI_SQL_P_DISTINCT:
        if (!p->left) return hudi_error_set(err, HUDI_EINVAL, "plan node without an input");
        if ((rc = hudi_sql_op_open(&left, ctx, p->left, err)) < 0) return rc;
        switch (p->kind) {
        case HUDI_SQL_P_SORT: return hudi_sql_open_sort(out, ctx, p, left, err);
        case HUDI_SQL_P_AGGREGATE: return hudi_sql_open_aggregate(out, ctx, p, left, err);
        case HUDI_SQL_P_DISTINCT: return hudi_sql_open_distinct(out, ctx, p, left, err);
        default: return open_streaming(out, ctx, p, left, err);
        }
    case HUDI_SQL_P_JOIN:
    case HUDI_SQL_P_SETOP:
        if (!p->left || !p->right)
            return hudi_error_set(err, HUDI_EINVAL, "plan node without two inputs");
        if ((rc = hudi_sql_op_open(&left, ctx, p->left, err)) < 0) return rc;
        if ((rc = hudi_sql_op_open(&right, ctx, p->right, err)) < 0) {
            hudi_sql_op_free(left);
            return rc;
        }
        if (p->kind == HUDI_SQL_P_JOIN) return hudi_sql_open_join(out, ctx, p, left, right, err);
        return hudi_sql_open_setop(out, ctx, p, left, right, err);
    }
    return hudi_error_set(err, HUDI_EINVAL, "unknown plan node kind %d", (int)p->kind);
}

void hudi_sql_op_free(hudi_sql_oper *op) {
    if (op) op->free(op);
}

int hudi_sql_collect(hudi_sql_ctx *ctx, const hudi_sql_plan *p, hudi_batch **out, hudi_error *err) {
    *out = NULL;
    hudi_sql_oper *op;
    int rc = hudi_sql_op_open(&op, ctx, p, err);
    if (rc < 0) return rc;
    int64_t charged = 0;
    rc = hudi_sql_oper_drain(op, &p->schema, out, &charged, err);
    /* The limit applied while collecting; the batch is the caller's from here on. */
    hudi_sql_mem_charge(ctx, -charged, NULL);
    hudi_sql_op_free(op);
    return rc;
}
