/* reader_pageindex.c - page skipping from the page index (docs/formats/parquet.md §6.5): for each
 * predicate on a flat column with a ColumnIndex and an OffsetIndex, pages whose bounds cannot
 * match are dropped, giving the row ranges of the row group that may hold matches. The scan
 * then reads only those ranges: every projected column skips the gaps (whole pages without
 * decompressing them).
 *
 * Indexes are validated before use and discarded on any doubt (negative null counts, "null"
 * pages with no nulls, null pages in a REQUIRED column: parquet-mr's bogus index when
 * statistics are off), because a wrong index silently drops rows. */
#include "format/parquet/reader_int.h"
#include "format/parquet/stats.h"

static int read_index(hudi_pq_file *f, int64_t off, int32_t len, hudi_buf *out, hudi_error *err) {
    if (off < 4 || len <= 0 || off > f->size_bytes - 8 || len > f->size_bytes - 8 - off)
        return HUDI_ECORRUPT;
    hudi_buf_clear(out);
    if (hudi_buf_grow(out, (size_t)len) < 0) return hudi_error_oom(err);
    int rc = hudi_file_read_at(f->file, off, out->data, (size_t)len, err);
    if (rc == 0) out->len = (size_t)len;
    return rc;
}

static bool index_trustworthy(const pq_column_index *ci, const pq_offset_index *oi,
                              const pq_leaf *leaf, int64_t rg_rows) {
    if (ci->n_pages != oi->n_page_locations || ci->n_pages == 0) return false;
    for (int32_t i = 0; i < ci->n_pages; i++) {
        int64_t first = oi->page_locations[i].first_row_index;
        if (first < 0 || first >= rg_rows) return false;
        if (i > 0 && first <= oi->page_locations[i - 1].first_row_index) return false;
        if (ci->has_null_counts) {
            if (ci->null_counts[i] < 0) return false;
            if (ci->null_pages[i] && ci->null_counts[i] == 0) return false;
        }
        if (ci->null_pages[i] && leaf->element->repetition == PQ_REQUIRED) return false;
    }
    return oi->page_locations[0].first_row_index == 0;
}

/* Whether page i may hold a row that satisfies p (conservative). */
static bool page_may_match(const pq_column_index *ci, int32_t i, int kind,
                           const hudi_pq_predicate *p, hudi_slice c, bool have_c) {
    if (p->op == HUDI_CMP_IS_NULL)
        return !ci->has_null_counts || ci->null_counts[i] > 0 || ci->null_pages[i];
    if (ci->null_pages[i]) return false; /* only nulls: no comparison and no IS NOT NULL holds */
    if (p->op == HUDI_CMP_IS_NOT_NULL || !have_c || kind == PQ_SORT_NONE) return true;
    if (p->value.is_null) return false;
    hudi_slice mn = ci->min_values[i], mx = ci->max_values[i];
    int lo = hudi_pq_stats_compare(kind, c, mn), hi = hudi_pq_stats_compare(kind, c, mx);
    switch (p->op) {
    case HUDI_CMP_EQ: return lo >= 0 && hi <= 0;
    case HUDI_CMP_LT: return lo > 0;
    case HUDI_CMP_LE: return lo >= 0;
    case HUDI_CMP_GT: return hi < 0;
    case HUDI_CMP_GE: return hi <= 0;
    default: return true;
    }
}

/* Whether page i may hold a row the dynamic filter keeps: its boundary as predicate p, nulls
 * and NaNs passing it or not (reader_dynamic.c); float bounds are used only when the page
 * has a NaN count of 0 (no NaN hides beyond its bounds). */
static bool page_may_pass(const pq_column_index *ci, int32_t i, int kind,
                          const hudi_pq_predicate *p, hudi_slice c, bool have_c, bool nulls_pass,
                          bool nan_pass) {
    if (nulls_pass && (!ci->has_null_counts || ci->null_counts[i] > 0 || ci->null_pages[i]))
        return true;
    if (ci->null_pages[i]) return false;
    bool nan_free = ci->has_nan_counts && ci->nan_counts[i] == 0;
    if (nan_pass && !nan_free) return true;
    if (kind == PQ_SORT_FLOAT || kind == PQ_SORT_DOUBLE) {
        if (!nan_free) return true;
    } else if (kind == PQ_SORT_FLOAT16 || kind == PQ_SORT_FLOAT_TOTAL ||
               kind == PQ_SORT_DOUBLE_TOTAL || kind == PQ_SORT_FLOAT16_TOTAL) {
        return true;
    }
    return page_may_match(ci, i, kind, p, c, have_c);
}

/* Intersects the scan's ranges with the pages of one predicate's column that may match (`dyn`:
 * the predicate is the dynamic filter's boundary, nulls and NaNs passing as said). */
static int apply_predicate(hudi_pq_scan *s, int32_t rg, const hudi_pq_predicate *p,
                           const pq_leaf *leaf, const bool *dyn, hudi_buf *buf, hudi_error *err) {
    hudi_pq_file *f = s->f;
    const pq_column_chunk *cc = &f->meta.row_groups[rg].columns[leaf->index];
    int64_t rg_rows = f->meta.row_groups[rg].num_rows;
    hudi_arena arena = HUDI_ARENA_INIT;
    pq_column_index ci;
    pq_offset_index oi;
    hudi_error ignored = HUDI_ERROR_INIT;
    int rc = 0;
    if (!cc->has_column_index || !cc->has_offset_index) return 0;
    /* An unreadable or undecodable index is ignored, not fatal: the data is still there. */
    if (read_index(f, cc->column_index_offset, cc->column_index_length, buf, &ignored) < 0 ||
        hudi_pq_decode_column_index(&ci, &arena, HUDI_SLICE(buf->data, buf->len), &ignored) < 0 ||
        read_index(f, cc->offset_index_offset, cc->offset_index_length, buf, &ignored) < 0 ||
        hudi_pq_decode_offset_index(&oi, &arena, HUDI_SLICE(buf->data, buf->len), &ignored) < 0 ||
        !index_trustworthy(&ci, &oi, leaf, rg_rows))
        goto done;
    int order = f->meta.n_column_orders > leaf->index ? f->meta.column_orders[leaf->index]
                                                      : PQ_STATS_ORDER_ABSENT;
    int kind = hudi_pq_stats_sort_kind(leaf->element, order);
    int raw_kind = kind;
    /* Float bounds: NaN bounds or zero signs make a page's bounds unreliable; the stats layer
     * handles chunk statistics, here we simply do not prune float pages by value. */
    if (kind == PQ_SORT_FLOAT || kind == PQ_SORT_DOUBLE || kind == PQ_SORT_FLOAT16 ||
        kind == PQ_SORT_FLOAT_TOTAL || kind == PQ_SORT_DOUBLE_TOTAL ||
        kind == PQ_SORT_FLOAT16_TOTAL)
        kind = PQ_SORT_NONE;
    uint8_t cbuf[32];
    hudi_slice c = {0};
    bool have_c = hudi_pq_plain_constant(leaf, &p->value, cbuf, &c) >= 0;
    s->stats.pages_total += ci.n_pages;
    /* New ranges = old ranges ∩ union of matching pages. */
    int64_t *out = hudi_calloc((size_t)(s->n_ranges + ci.n_pages) * 2 + 2, sizeof(int64_t));
    int32_t n_out = 0;
    if (!out) {
        rc = hudi_error_oom(err);
        goto done;
    }
    bool *may = hudi_calloc((size_t)ci.n_pages + 1, sizeof(bool));
    if (!may) {
        hudi_free(out);
        rc = hudi_error_oom(err);
        goto done;
    }
    /* GT_TOTAL and GE_TOTAL: NaN rows pass, so on a float column a page's bounds are used only
     * when it has no NaN (as for a descending top-N boundary); elsewhere they are GT and GE. */
    hudi_pq_predicate q = *p;
    bool total = hudi_pq_total_op(p->op), fp = hudi_pq_is_float(leaf->field->type);
    q.op = hudi_pq_ieee_op(p->op);
    for (int32_t i = 0; i < ci.n_pages; i++) {
        if (total && fp)
            may[i] = p->value.f64 != p->value.f64 ||
                     page_may_pass(&ci, i, raw_kind, &q, c, have_c, false, true);
        else
            may[i] = dyn ? page_may_pass(&ci, i, raw_kind, p, c, have_c, dyn[0], dyn[1])
                         : page_may_match(&ci, i, kind, &q, c, have_c);
        if (may[i]) continue;
        s->stats.pages_skipped++;
        if (dyn) {
            s->stats.pages_dynamic_skipped++;
            atomic_fetch_add(&s->opts.dynamic->pages_skipped, 1);
        }
    }
    for (int32_t r = 0; r < s->n_ranges; r++) {
        int64_t a = s->ranges[2 * r], b = s->ranges[2 * r + 1];
        for (int32_t i = 0; i < ci.n_pages; i++) {
            int64_t ps = oi.page_locations[i].first_row_index;
            int64_t pe = i + 1 < ci.n_pages ? oi.page_locations[i + 1].first_row_index : rg_rows;
            int64_t lo = HUDI_MAX(a, ps), hi = HUDI_MIN(b, pe);
            if (lo >= hi || !may[i]) continue;
            if (n_out > 0 && out[2 * n_out - 1] == lo)
                out[2 * n_out - 1] = hi; /* merge */
            else {
                out[2 * n_out] = lo;
                out[2 * n_out + 1] = hi;
                n_out++;
            }
        }
    }
    hudi_free(may);
    hudi_free(s->ranges);
    s->ranges = out;
    s->n_ranges = n_out;
done:
    hudi_arena_dispose(&arena);
    return rc;
}

int hudi_pq_scan_select_rows(hudi_pq_scan *s, int32_t rg, hudi_error *err) {
    hudi_pq_file *f = s->f;
    int64_t rows = f->meta.row_groups[rg].num_rows;
    hudi_free(s->ranges);
    s->ranges = hudi_calloc(2, sizeof(int64_t));
    if (!s->ranges) return hudi_error_oom(err);
    s->ranges[0] = 0;
    s->ranges[1] = rows;
    s->n_ranges = rows > 0 ? 1 : 0;
    if (!s->opts.use_page_index || (s->opts.n_predicates == 0 && !s->opts.dynamic)) return 0;
    hudi_buf buf = HUDI_BUF_INIT;
    int rc = 0;
    for (int32_t i = 0; rc == 0 && i < s->opts.n_predicates && s->n_ranges > 0; i++) {
        const pq_leaf *leaf = hudi_pq_flat_leaf(&f->schema, s->opts.predicates[i].column);
        if (leaf) rc = apply_predicate(s, rg, &s->opts.predicates[i], leaf, NULL, &buf, err);
    }
    /* The dynamic filter's boundary as it stands when the row group opens. */
    hudi_pq_predicate dp;
    bool pass[2];
    if (rc == 0 && s->opts.dynamic && s->n_ranges > 0 &&
        hudi_pq_dyn_predicate(s->opts.dynamic, s->opts.dynamic_column, &dp, &pass[0], &pass[1]))
        rc = apply_predicate(s, rg, &dp, hudi_pq_flat_leaf(&f->schema, dp.column), pass, &buf, err);
    hudi_buf_dispose(&buf);
    return rc;
}
