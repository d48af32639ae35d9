/* reader_dynamic.c - the dynamic filter of a top-N (parquet.h, hudi_pq_dynfilter): its atomic
 * boundary, and its use by a scan: row groups from chunk statistics (docs/formats/parquet.md
 * §6.1-6.3), pages from the page index (§6.5, reader_pageindex.c) and rows (reader_skip.c).
 *
 * A value's rank is an unsigned key in ascending sort order (integers with the sign bit
 * flipped; doubles by their bits, negatives inverted, -0 as +0, every NaN the largest key, as
 * Spark sorts NaN above every number), inverted for a descending sort; a non-null row may be
 * in the result while rank <= bound. A null row sorts before every value with NULLS FIRST
 * (always kept) and after it with NULLS LAST (dropped once there is a boundary). Skipping from
 * bounds is conservative: a chunk or page with nulls that pass, or with NaNs that pass (a
 * descending float sort) or might (no NaN count), is read. */
#include <math.h>

#include "format/parquet/reader_int.h"
#include "format/parquet/stats.h"

#define SIGN (1ULL << 63)

bool hudi_pq_dynfilter_supports(hudi_type_id t) {
    switch (t) {
    case HUDI_TYPE_INT8:
    case HUDI_TYPE_INT16:
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_INT64:
    case HUDI_TYPE_DATE:
    case HUDI_TYPE_TIMESTAMP:
    case HUDI_TYPE_FLOAT:
    case HUDI_TYPE_DOUBLE: return true;
    default: return false;
    }
}

void hudi_pq_dynfilter_init(hudi_pq_dynfilter *f, hudi_type_id type, bool desc, bool nulls_first) {
    f->type = type;
    f->desc = desc;
    f->nulls_first = nulls_first;
    atomic_store(&f->bound, UINT64_MAX);
    atomic_store(&f->row_groups_skipped, 0);
    atomic_store(&f->pages_skipped, 0);
    atomic_store(&f->rows_dropped, 0);
}

static bool is_float(hudi_type_id t) { return t == HUDI_TYPE_FLOAT || t == HUDI_TYPE_DOUBLE; }

static uint64_t double_key(double d) {
    if (isnan(d)) return UINT64_MAX;
    if (d == 0) d = 0; /* -0.0 sorts as 0.0 */
    uint64_t u;
    memcpy(&u, &d, 8);
    return u & SIGN ? ~u : u | SIGN;
}

static double key_double(uint64_t k) {
    uint64_t u = k & SIGN ? k & ~SIGN : ~k;
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* The ascending key of row i of a (non-null). */
static uint64_t asc_key(hudi_type_id t, const hudi_array *a, int64_t i) {
    switch (t) {
    case HUDI_TYPE_INT8: return (uint64_t)(int64_t)((const int8_t *)a->values)[i] ^ SIGN;
    case HUDI_TYPE_INT16: return (uint64_t)(int64_t)((const int16_t *)a->values)[i] ^ SIGN;
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_DATE: return (uint64_t)(int64_t)((const int32_t *)a->values)[i] ^ SIGN;
    case HUDI_TYPE_FLOAT: return double_key(((const float *)a->values)[i]);
    case HUDI_TYPE_DOUBLE: return double_key(((const double *)a->values)[i]);
    default: return (uint64_t)((const int64_t *)a->values)[i] ^ SIGN;
    }
}

uint64_t hudi_pq_dynfilter_rank(const hudi_pq_dynfilter *f, const hudi_array *a, int64_t i) {
    uint64_t k = asc_key(f->type, a, i);
    return f->desc ? ~k : k;
}

void hudi_pq_dynfilter_tighten(hudi_pq_dynfilter *f, const hudi_array *a, int64_t i) {
    uint64_t r = hudi_pq_dynfilter_rank(f, a, i);
    uint64_t cur = atomic_load(&f->bound);
    while (r < cur && !atomic_compare_exchange_weak(&f->bound, &cur, r)) {
    }
}

bool hudi_pq_dyn_predicate(const hudi_pq_dynfilter *f, int32_t column, hudi_pq_predicate *p,
                           bool *nulls_pass, bool *nan_pass) {
    uint64_t bound = atomic_load(&f->bound);
    if (bound == UINT64_MAX) return false;
    uint64_t key = f->desc ? ~bound : bound;
    memset(p, 0, sizeof(*p));
    p->column = column;
    p->op = f->desc ? HUDI_CMP_GE : HUDI_CMP_LE;
    if (is_float(f->type)) {
        if (key == UINT64_MAX) return false; /* a NaN boundary: only NaN rows (rows filter) */
        p->value.f64 = key_double(key);
    } else {
        p->value.i64 = (int64_t)(key ^ SIGN);
    }
    *nulls_pass = f->nulls_first;
    *nan_pass = is_float(f->type) && f->desc;
    return true;
}

bool hudi_pq_dyn_keep_row_group(hudi_pq_scan *s, int32_t rg) {
    hudi_pq_predicate p;
    bool nulls_pass, nan_pass;
    if (!s->opts.use_statistics ||
        !hudi_pq_dyn_predicate(s->opts.dynamic, s->opts.dynamic_column, &p, &nulls_pass, &nan_pass))
        return true;
    const hudi_pq_file *f = s->f;
    const pq_leaf *leaf = hudi_pq_flat_leaf(&f->schema, p.column);
    if (!leaf) return true;
    pq_writer_version wv;
    hudi_pq_writer_version_parse(&wv, f->meta.has_created_by, f->meta.created_by);
    const pq_row_group *g = &f->meta.row_groups[rg];
    const pq_column_meta *cm = &g->columns[leaf->index].meta_data;
    int order = f->meta.n_column_orders > leaf->index ? f->meta.column_orders[leaf->index]
                                                      : PQ_STATS_ORDER_ABSENT;
    pq_stats_view sv;
    hudi_pq_stats_view_init(&sv, &wv, leaf->element, order,
                            cm->has_statistics ? &cm->statistics : NULL);
    if (nulls_pass && !(sv.has_null_count && sv.null_count == 0)) return true;
    if (nan_pass && !(sv.has_nan_count && sv.nan_count == 0)) return true;
    if (hudi_pq_chunk_may_match(&sv, &p, leaf, g->num_rows)) return true;
    s->stats.row_groups_dynamic_skipped++;
    atomic_fetch_add(&s->opts.dynamic->row_groups_skipped, 1);
    return false;
}

void hudi_pq_dyn_select(hudi_pq_scan *s, const hudi_array *a, int64_t n, uint8_t *keep) {
    hudi_pq_dynfilter *f = s->opts.dynamic;
    uint64_t bound = atomic_load(&f->bound);
    if (bound == UINT64_MAX) return;
    int64_t dropped = 0;
    bool nulls = a->validity != NULL;
    for (int64_t i = 0; i < n; i++) {
        if (!keep[i]) continue;
        if (nulls && !hudi_array_is_valid(a, i)) {
            if (!f->nulls_first) keep[i] = 0, dropped++;
        } else if (hudi_pq_dynfilter_rank(f, a, i) > bound) {
            keep[i] = 0;
            dropped++;
        }
    }
    if (dropped) {
        s->stats.rows_dynamic_dropped += dropped;
        atomic_fetch_add(&f->rows_dropped, dropped);
    }
}
