/* exec_sort.c - ORDER BY: a stable sort of every input row, or the first N rows (top-N) when the
 * plan carries a limit (docs/ARCHITECTURE.md, "SQL engine: operators").
 *
 * The rows are copied into one batch; the sort keys are evaluated once over it and a merge sort
 * orders row indices with hudi_sql_compare_rows (NULLS FIRST/LAST independent of direction, as
 * in Spark). Top-N keeps at most 2N + one input batch of rows: when the buffer passes 2N it is
 * sorted and cut back to its first N, so memory stays O(N) and equal keys keep input order. */
#include "sql/exec_int.h"

typedef struct sort_op {
    hudi_sql_oper base;
    hudi_sql_oper *child;
    hudi_batch *rows; /* the rows read (top-N: the candidates kept) */
    int64_t charged;
    int64_t *order; /* sorted row indices into rows */
    int64_t n_order;
    int64_t emitted;
    bool consumed;
    hudi_batch *out;
} sort_op;

typedef struct sort_keys {
    const hudi_sql_sort_key *spec;
    hudi_sql_datum *vals;
    int32_t n;
} sort_keys;

static int compare_keyed(const sort_keys *k, int64_t x, int64_t y) {
    for (int32_t i = 0; i < k->n; i++) {
        const hudi_sql_datum *d = &k->vals[i];
        int64_t rx = hudi_sql_datum_row(d, x), ry = hudi_sql_datum_row(d, y);
        bool vx = hudi_array_is_valid(d->array, rx), vy = hudi_array_is_valid(d->array, ry);
        if (!vx || !vy) {
            if (vx == vy) continue;
            return !vx == k->spec[i].nulls_first ? -1 : 1;
        }
        int c = hudi_sql_compare_rows(d->array, rx, d->array, ry, true);
        if (c) return k->spec[i].desc ? -c : c;
    }
    return 0;
}

/* Bottom-up merge sort of idx[0..n) (stable). */
static int merge_sort(const sort_keys *k, int64_t *idx, int64_t n, hudi_error *err) {
    if (n < 2) return 0;
    int64_t *tmp = hudi_malloc((size_t)n * sizeof(*tmp));
    if (!tmp) return hudi_error_oom(err);
    /* Insertion sort of runs of 16, then merges. */
    const int64_t run = 16;
    for (int64_t lo = 0; lo < n; lo += run) {
        int64_t hi = HUDI_MIN(lo + run, n);
        for (int64_t i = lo + 1; i < hi; i++) {
            int64_t v = idx[i], j = i;
            while (j > lo && compare_keyed(k, idx[j - 1], v) > 0) {
                idx[j] = idx[j - 1];
                j--;
            }
            idx[j] = v;
        }
    }
    int64_t *src = idx, *dst = tmp;
    for (int64_t width = run; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = HUDI_MIN(lo + width, n), hi = HUDI_MIN(lo + 2 * width, n);
            int64_t a = lo, b = mid, o = lo;
            while (a < mid && b < hi)
                dst[o++] = compare_keyed(k, src[b], src[a]) < 0 ? src[b++] : src[a++];
            while (a < mid) dst[o++] = src[a++];
            while (b < hi) dst[o++] = src[b++];
        }
        int64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != idx) memcpy(idx, src, (size_t)n * sizeof(*idx));
    hudi_free(tmp);
    return 0;
}

/* Sorts s->rows into s->order (n_order = all its rows). */
static int sort_rows(sort_op *s, hudi_error *err) {
    const hudi_sql_plan *p = s->base.plan;
    int64_t n = s->rows->num_rows;
    int rc = 0;
    hudi_free(s->order);
    s->n_order = 0;
    if (!(s->order = hudi_malloc((size_t)(n + 1) * sizeof(*s->order)))) return hudi_error_oom(err);
    for (int64_t i = 0; i < n; i++) s->order[i] = i;
    sort_keys k = {p->keys, NULL, p->n_keys};
    if (p->n_keys > 0 && !(k.vals = hudi_calloc((size_t)p->n_keys, sizeof(*k.vals))))
        return hudi_error_oom(err);
    int32_t done = 0;
    for (; done < p->n_keys; done++)
        if ((rc = hudi_sql_eval(s->base.ctx, p->keys[done].expr, s->rows, &k.vals[done], err)) < 0)
            break;
    if (rc == 0) rc = merge_sort(&k, s->order, n, err);
    for (int32_t i = 0; i < done; i++) hudi_sql_datum_dispose(&k.vals[i]);
    hudi_free(k.vals);
    if (rc == 0) s->n_order = n;
    return rc;
}

static int charge_rows(sort_op *s, hudi_error *err) {
    int64_t now = hudi_sql_batch_bytes(s->rows), delta = now - s->charged;
    int rc = hudi_sql_mem_charge(s->base.ctx, delta, err);
    if (rc == 0) s->charged = now;
    return rc;
}

/* Top-N: keeps the first `keep` rows of the sorted buffer. */
static int cut_rows(sort_op *s, int64_t keep, hudi_error *err) {
    int rc;
    if ((rc = sort_rows(s, err)) < 0) return rc;
    hudi_batch *kept;
    if ((rc = hudi_sql_take(s->rows, s->order, HUDI_MIN(keep, s->n_order), &kept, err)) < 0)
        return rc;
    hudi_batch_free(s->rows);
    s->rows = kept;
    for (int64_t i = 0; i < s->rows->num_rows; i++) s->order[i] = i;
    s->n_order = s->rows->num_rows;
    return charge_rows(s, err);
}

static int consume(sort_op *s, hudi_error *err) {
    const hudi_sql_plan *p = s->base.plan;
    int64_t limit = p->limit;
    int rc;
    if (limit == 0) return 0;
    for (;;) {
        hudi_batch *in;
        if ((rc = hudi_sql_check_cancel(s->base.ctx, err)) < 0) return rc;
        if ((rc = hudi_sql_op_next(s->child, &in, err)) < 0) return rc;
        if (!in) break;
        if ((rc = hudi_sql_batch_append(s->rows, in, err)) < 0) return rc;
        if ((rc = charge_rows(s, err)) < 0) return rc;
        if (limit > 0 && s->rows->num_rows > 2 * limit && (rc = cut_rows(s, limit, err)) < 0)
            return rc;
    }
    if ((rc = sort_rows(s, err)) < 0) return rc;
    if (limit >= 0 && s->n_order > limit) s->n_order = limit;
    return 0;
}

static int sort_next(hudi_sql_oper *op, hudi_batch **out, hudi_error *err) {
    sort_op *s = (sort_op *)op;
    *out = NULL;
    int rc;
    if (!s->consumed) {
        s->consumed = true;
        if ((rc = consume(s, err)) < 0) return rc;
    }
    if ((rc = hudi_sql_check_cancel(op->ctx, err)) < 0) return rc;
    if (s->emitted >= s->n_order) return 0;
    int64_t step = op->ctx->batch_rows > 0 ? op->ctx->batch_rows : 8192;
    int64_t n = HUDI_MIN(step, s->n_order - s->emitted);
    hudi_batch_clear(s->out);
    if ((rc = hudi_sql_batch_take(s->out, s->rows, s->order + s->emitted, n, err)) < 0) return rc;
    s->emitted += n;
    *out = s->out;
    return 0;
}

static void sort_free(hudi_sql_oper *op) {
    sort_op *s = (sort_op *)op;
    hudi_sql_op_free(s->child);
    hudi_batch_free(s->rows);
    hudi_batch_free(s->out);
    hudi_free(s->order);
    hudi_sql_mem_charge(op->ctx, -s->charged, NULL);
    hudi_free(s);
}

int hudi_sql_open_sort(hudi_sql_oper **out, hudi_sql_ctx *ctx, const hudi_sql_plan *p,
                       hudi_sql_oper *child, hudi_error *err) {
    *out = NULL;
    sort_op *s = hudi_calloc(1, sizeof(*s));
    if (!s) {
        hudi_sql_op_free(child);
        return hudi_error_oom(err);
    }
    s->base = (hudi_sql_oper){p, ctx, sort_next, sort_free};
    s->child = child;
    int rc;
    if ((rc = hudi_batch_new(&s->rows, &p->schema, err)) < 0 ||
        (rc = hudi_batch_new(&s->out, &p->schema, err)) < 0) {
        sort_free(&s->base);
        return rc;
    }
    *out = &s->base;
    return 0;
}
