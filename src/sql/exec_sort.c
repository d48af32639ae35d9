/* exec_sort.c - ORDER BY: a stable sort of every input row, or the first N rows (top-N) when the
 * plan carries a limit (docs/ARCHITECTURE.md, "SQL engine: operators").
 *
 * The rows are copied into one batch; the sort keys are evaluated once over it and a merge sort
 * orders row indices, comparing keys as hudi_sql_compare_rows does (with direct comparisons for
 * integer, date, timestamp and floating-point keys; NULLS FIRST/LAST independent of direction,
 * as in Spark; a single numeric key sorts (key, row) pairs instead). Top-N keeps at most 2N + one
 * input batch of rows: when the buffer passes 2N it is sorted and cut back to its first N, and from
 * then on an input row enters only when it sorts before the N-th row kept (the boundary), so memory
 * stays O(N) and equal keys keep input order. Each cut also tightens the plan's dynamic filter
 * (hudi_pq_dynfilter) to the boundary's first key, so the scan below stops reading rows that
 * sort after it (plan.c decides when that is sound). */
#include <math.h>

#include "sql/exec_int.h"

typedef int (*cmp_fn)(const hudi_array *a, int64_t i, const hudi_array *b, int64_t j);

#define CMP(x, y) (((x) > (y)) - ((x) < (y)))

static int cmp_i64(const hudi_array *a, int64_t i, const hudi_array *b, int64_t j) {
    return CMP(((const int64_t *)a->values)[i], ((const int64_t *)b->values)[j]);
}
static int cmp_i32(const hudi_array *a, int64_t i, const hudi_array *b, int64_t j) {
    return CMP(((const int32_t *)a->values)[i], ((const int32_t *)b->values)[j]);
}
static int cmp_f64(const hudi_array *a, int64_t i, const hudi_array *b, int64_t j) {
    double x = ((const double *)a->values)[i], y = ((const double *)b->values)[j];
    bool nx = isnan(x), ny = isnan(y);
    if (nx || ny) return nx && ny ? 0 : nx ? 1 : -1; /* NaN sorts after every number */
    return CMP(x, y);
}
static int cmp_any(const hudi_array *a, int64_t i, const hudi_array *b, int64_t j) {
    return hudi_sql_compare_rows(a, i, b, j, true);
}

static cmp_fn comparator(const hudi_field *f) {
    switch (f->type) {
    case HUDI_TYPE_INT64:
    case HUDI_TYPE_TIMESTAMP: return cmp_i64;
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_DATE: return cmp_i32;
    case HUDI_TYPE_DOUBLE: return cmp_f64;
    default: return cmp_any;
    }
}

/* The sort keys evaluated over one batch. */
typedef struct sort_keys {
    const hudi_sql_sort_key *spec;
    hudi_sql_datum *vals;
    cmp_fn *cmp;
    int32_t n, done; /* done: values evaluated so far */
} sort_keys;

static void keys_dispose(sort_keys *k) {
    for (int32_t i = 0; i < k->done; i++) hudi_sql_datum_dispose(&k->vals[i]);
    hudi_free(k->vals);
    hudi_free(k->cmp);
    memset(k, 0, sizeof(*k));
}

static int keys_eval(sort_keys *k, hudi_sql_ctx *ctx, const hudi_sql_plan *p, const hudi_batch *b,
                     hudi_error *err) {
    memset(k, 0, sizeof(*k));
    k->spec = p->keys;
    k->n = p->n_keys;
    if (k->n == 0) return 0;
    k->vals = hudi_calloc((size_t)k->n, sizeof(*k->vals));
    k->cmp = hudi_calloc((size_t)k->n, sizeof(*k->cmp));
    if (!k->vals || !k->cmp) return hudi_error_oom(err);
    int rc;
    for (; k->done < k->n; k->done++) {
        if ((rc = hudi_sql_eval(ctx, p->keys[k->done].expr, b, &k->vals[k->done], err)) < 0)
            return rc;
        k->cmp[k->done] = comparator(k->vals[k->done].array->field);
    }
    return 0;
}

/* Row x of the keys ka against row y of kb (the same sort keys over two batches). */
static int compare_keyed(const sort_keys *ka, int64_t x, const sort_keys *kb, int64_t y) {
    for (int32_t i = 0; i < ka->n; i++) {
        const hudi_sql_datum *da = &ka->vals[i], *db = &kb->vals[i];
        int64_t rx = hudi_sql_datum_row(da, x), ry = hudi_sql_datum_row(db, y);
        if (da->array->validity || db->array->validity) {
            bool vx = hudi_array_is_valid(da->array, rx), vy = hudi_array_is_valid(db->array, ry);
            if (!vx || !vy) {
                if (vx == vy) continue;
                return !vx == ka->spec[i].nulls_first ? -1 : 1;
            }
        }
        int c = ka->cmp[i](da->array, rx, db->array, ry);
        if (c) return ka->spec[i].desc ? -c : c;
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
            while (j > lo && compare_keyed(k, idx[j - 1], k, v) > 0) {
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
            /* Already in order: copy the run through. */
            if (mid < hi && compare_keyed(k, src[mid - 1], k, src[mid]) <= 0) {
                memcpy(dst + lo, src + lo, (size_t)(hi - lo) * sizeof(*dst));
                continue;
            }
            while (a < mid && b < hi)
                dst[o++] = compare_keyed(k, src[b], k, src[a]) < 0 ? src[b++] : src[a++];
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

/* ---- one numeric key: sort (key, row) pairs --------------------------------------------- */

/* Sorting row indices by a single key reads the key column in random order; copying each key
 * next to its row and sorting the pairs reads memory in order, several times faster. */
typedef struct key_row {
    uint64_t key; /* order-preserving as unsigned */
    int64_t row;
} key_row;

static bool numeric_key(hudi_type_id t) {
    return t == HUDI_TYPE_INT64 || t == HUDI_TYPE_TIMESTAMP || t == HUDI_TYPE_INT32 ||
           t == HUDI_TYPE_DATE || t == HUDI_TYPE_INT16 || t == HUDI_TYPE_INT8 ||
           t == HUDI_TYPE_DOUBLE;
}

static uint64_t order_key(const hudi_array *a, int64_t i) {
    const uint64_t sign = 1ULL << 63;
    switch (a->field->type) {
    case HUDI_TYPE_INT8: return (uint64_t)(int64_t)((const int8_t *)a->values)[i] ^ sign;
    case HUDI_TYPE_INT16: return (uint64_t)(int64_t)((const int16_t *)a->values)[i] ^ sign;
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_DATE: return (uint64_t)(int64_t)((const int32_t *)a->values)[i] ^ sign;
    case HUDI_TYPE_DOUBLE: {
        double d = ((const double *)a->values)[i];
        if (isnan(d)) return UINT64_MAX; /* every NaN alike, after every number */
        if (d == 0) d = 0;               /* -0.0 sorts as 0.0 */
        uint64_t u;
        memcpy(&u, &d, 8);
        return u & sign ? ~u : u | sign;
    }
    default: return (uint64_t)((const int64_t *)a->values)[i] ^ sign;
    }
}

/* Stable merge sort of pairs by key (descending when `desc`). */
static int sort_pairs(key_row *v, int64_t n, bool desc, hudi_error *err) {
    if (n < 2) return 0;
    key_row *tmp = hudi_malloc((size_t)n * sizeof(*tmp));
    if (!tmp) return hudi_error_oom(err);
#define BEFORE(x, y) (desc ? (x).key > (y).key : (x).key < (y).key)
    const int64_t run = 16;
    for (int64_t lo = 0; lo < n; lo += run) {
        int64_t hi = HUDI_MIN(lo + run, n);
        for (int64_t i = lo + 1; i < hi; i++) {
            key_row x = v[i];
            int64_t j = i;
            while (j > lo && BEFORE(x, v[j - 1])) {
                v[j] = v[j - 1];
                j--;
            }
            v[j] = x;
        }
    }
    key_row *src = v, *dst = tmp;
    for (int64_t width = run; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = HUDI_MIN(lo + width, n), hi = HUDI_MIN(lo + 2 * width, n);
            int64_t a = lo, b = mid, o = lo;
            while (a < mid && b < hi) dst[o++] = BEFORE(src[b], src[a]) ? src[b++] : src[a++];
            while (a < mid) dst[o++] = src[a++];
            while (b < hi) dst[o++] = src[b++];
        }
        key_row *t = src;
        src = dst;
        dst = t;
    }
#undef BEFORE
    if (src != v) memcpy(v, src, (size_t)n * sizeof(*v));
    hudi_free(tmp);
    return 0;
}

/* idx = the rows of a single numeric key in order: nulls first or last, each part stable. */
static int sort_one_numeric(const sort_keys *k, int64_t *idx, int64_t n, hudi_error *err) {
    const hudi_array *a = k->vals[0].array;
    key_row *v = hudi_malloc((size_t)(n + 1) * sizeof(*v));
    if (!v) return hudi_error_oom(err);
    int64_t nv = 0, nn = 0;
    for (int64_t i = 0; i < n; i++)
        if (hudi_array_is_valid(a, i)) v[nv++] = (key_row){order_key(a, i), i};
    int rc = sort_pairs(v, nv, k->spec[0].desc, err);
    if (rc == 0) {
        int64_t at = k->spec[0].nulls_first ? n - nv : 0;
        for (int64_t i = 0; i < nv; i++) idx[at + i] = v[i].row;
        int64_t null_at = k->spec[0].nulls_first ? 0 : nv;
        for (int64_t i = 0; i < n && nn < n - nv; i++)
            if (!hudi_array_is_valid(a, i)) idx[null_at + nn++] = i;
    }
    hudi_free(v);
    return rc;
}

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
    /* top-N once the buffer was cut: the N-th row kept and its keys */
    hudi_batch *bound;
    sort_keys bound_keys;
    int64_t *sel;
    int64_t cap_sel;
} sort_op;

/* Sorts s->rows into s->order (n_order = all its rows). */
static int sort_rows(sort_op *s, hudi_error *err) {
    int64_t n = s->rows->num_rows;
    hudi_free(s->order);
    s->n_order = 0;
    if (!(s->order = hudi_malloc((size_t)(n + 1) * sizeof(*s->order)))) return hudi_error_oom(err);
    for (int64_t i = 0; i < n; i++) s->order[i] = i;
    sort_keys k;
    int rc = keys_eval(&k, s->base.ctx, s->base.plan, s->rows, err);
    if (rc == 0 && k.n == 1 && !k.vals[0].is_const && numeric_key(k.vals[0].array->field->type))
        rc = sort_one_numeric(&k, s->order, n, err);
    else if (rc == 0)
        rc = merge_sort(&k, s->order, n, err);
    keys_dispose(&k);
    if (rc == 0) s->n_order = n;
    return rc;
}

static int charge_rows(sort_op *s, hudi_error *err) {
    int64_t now = hudi_sql_batch_bytes(s->rows), delta = now - s->charged;
    int rc = hudi_sql_mem_charge(s->base.ctx, delta, err);
    if (rc == 0) s->charged = now;
    return rc;
}

/* Top-N: keeps the first `keep` rows of the sorted buffer; the last one becomes the boundary. */
static int cut_rows(sort_op *s, int64_t keep, hudi_error *err) {
    int rc;
    if ((rc = sort_rows(s, err)) < 0) return rc;
    keep = HUDI_MIN(keep, s->n_order);
    hudi_batch *kept;
    if ((rc = hudi_sql_take(s->rows, s->order, keep, &kept, err)) < 0) return rc;
    hudi_batch_free(s->rows);
    s->rows = kept;
    for (int64_t i = 0; i < keep; i++) s->order[i] = i;
    s->n_order = keep;
    keys_dispose(&s->bound_keys);
    hudi_batch_free(s->bound);
    s->bound = NULL;
    if (keep > 0) {
        int64_t last = keep - 1;
        if ((rc = hudi_sql_take(s->rows, &last, 1, &s->bound, err)) < 0) return rc;
        if ((rc = keys_eval(&s->bound_keys, s->base.ctx, s->base.plan, s->bound, err)) < 0)
            return rc;
        /* The scan below may drop what sorts after the boundary's first key (a null
         * boundary rules nothing out that the filter could express). */
        const hudi_sql_datum *d = &s->bound_keys.vals[0];
        int64_t r = hudi_sql_datum_row(d, 0);
        if (s->base.plan->dynamic && hudi_array_is_valid(d->array, r))
            hudi_pq_dynfilter_tighten(s->base.plan->dynamic, d->array, r);
    }
    return charge_rows(s, err);
}

/* Top-N after a cut: appends the rows of `in` that sort before the boundary. */
static int append_better(sort_op *s, const hudi_batch *in, hudi_error *err) {
    int64_t n = in->num_rows, k = 0;
    if (n > s->cap_sel) {
        int64_t *sel = hudi_realloc(s->sel, (size_t)n * sizeof(*sel));
        if (!sel) return hudi_error_oom(err);
        s->sel = sel;
        s->cap_sel = n;
    }
    sort_keys keys;
    int rc = keys_eval(&keys, s->base.ctx, s->base.plan, in, err);
    if (rc == 0) {
        /* Equal keys lose: the boundary row came first. */
        for (int64_t i = 0; i < n; i++)
            if (compare_keyed(&keys, i, &s->bound_keys, 0) < 0) s->sel[k++] = i;
    }
    keys_dispose(&keys);
    if (rc == 0 && k > 0) rc = hudi_sql_batch_take(s->rows, in, s->sel, k, err);
    return rc;
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
        if (in->num_rows == 0) continue;
        if (s->bound)
            rc = append_better(s, in, err);
        else
            rc = hudi_sql_batch_append(s->rows, in, err);
        if (rc < 0) return rc;
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
    keys_dispose(&s->bound_keys);
    hudi_batch_free(s->bound);
    hudi_free(s->sel);
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
    if (p->dynamic) /* a new run: no boundary yet */
        hudi_pq_dynfilter_init(p->dynamic, p->dynamic->type, p->dynamic->desc,
                               p->dynamic->nulls_first);
    int rc;
    if ((rc = hudi_batch_new(&s->rows, &p->schema, err)) < 0 ||
        (rc = hudi_batch_new(&s->out, &p->schema, err)) < 0) {
        sort_free(&s->base);
        return rc;
    }
    *out = &s->base;
    return 0;
}
