/* reader_skip.c - using predicates: skip row groups whose statistics prove no row can match
 * (docs/formats/parquet.md §6.1-6.3, trust rules in stats.c), and drop non-matching rows from a
 * decoded batch. Skipping is conservative: a row group is skipped only on proof; filtering
 * is exact (SQL semantics: a comparison with NULL is not true). */
#include "format/parquet/reader_int.h"
#include "format/parquet/stats.h"

/* The leaf of a top-level primitive column, or NULL for nested columns. */
const pq_leaf *hudi_pq_flat_leaf(const pq_schema *ps, int32_t column) {
    int32_t first = ps->column_leaves[column];
    if (ps->column_leaves[column + 1] - first != 1) return NULL;
    const pq_leaf *l = &ps->leaves[first];
    return l->depth == 1 ? l : NULL;
}

/* Writes the PLAIN bytes of `v` for `leaf` into buf; returns the length, or -1 when the
 * constant cannot be expressed in the column's physical type (then nothing is skipped). */
int hudi_pq_plain_constant(const pq_leaf *leaf, const hudi_value *v, uint8_t buf[32],
                           hudi_slice *out) {
    const hudi_field *f = leaf->field;
    if (f->type == HUDI_TYPE_FLOAT16) return -1; /* half constants: no pruning, rows are filtered */
    switch (leaf->physical_type) {
    case PQ_BOOLEAN:
        buf[0] = v->i64 != 0;
        *out = HUDI_SLICE(buf, 1);
        return 1;
    case PQ_INT32: {
        int64_t x = f->type == HUDI_TYPE_DECIMAL ? (int64_t)v->dec : v->i64;
        if (x < INT32_MIN || x > (int64_t)UINT32_MAX) return -1;
        hudi_store_u32le(buf, (uint32_t)x);
        *out = HUDI_SLICE(buf, 4);
        return 4;
    }
    case PQ_INT64: {
        int64_t x = f->type == HUDI_TYPE_DECIMAL ? (int64_t)v->dec : v->i64;
        hudi_store_u64le(buf, (uint64_t)x);
        *out = HUDI_SLICE(buf, 8);
        return 8;
    }
    case PQ_FLOAT: {
        float x = (float)v->f64;
        if ((double)x != v->f64) return -1; /* not representable: no safe bound */
        memcpy(buf, &x, 4);
        *out = HUDI_SLICE(buf, 4);
        return 4;
    }
    case PQ_DOUBLE:
        memcpy(buf, &v->f64, 8);
        *out = HUDI_SLICE(buf, 8);
        return 8;
    case PQ_BYTE_ARRAY:
    case PQ_FIXED_LEN_BYTE_ARRAY:
        if (f->type == HUDI_TYPE_DECIMAL) {
            int len = leaf->physical_type == PQ_FIXED_LEN_BYTE_ARRAY ? leaf->type_length : 16;
            if (len <= 0 || len > 16) return -1;
            hudi_store_i128be(buf, v->dec, (size_t)len);
            *out = HUDI_SLICE(buf, (size_t)len);
            return len;
        }
        *out = v->bytes;
        return (int)HUDI_MIN(v->bytes.len, (size_t)INT32_MAX);
    default: return -1;
    }
}

bool hudi_pq_is_float(hudi_type_id t) {
    return t == HUDI_TYPE_FLOAT || t == HUDI_TYPE_DOUBLE || t == HUDI_TYPE_FLOAT16;
}

bool hudi_pq_total_op(hudi_cmp_op op) { return op == HUDI_CMP_GT_TOTAL || op == HUDI_CMP_GE_TOTAL; }

hudi_cmp_op hudi_pq_ieee_op(hudi_cmp_op op) {
    return op == HUDI_CMP_GT_TOTAL ? HUDI_CMP_GT : op == HUDI_CMP_GE_TOTAL ? HUDI_CMP_GE : op;
}

bool hudi_pq_chunk_may_match(const pq_stats_view *sv, const hudi_pq_predicate *p,
                             const pq_leaf *leaf, int64_t rows) {
    if (hudi_pq_total_op(p->op)) {
        /* Bounds leave NaN out, and a NaN row passes a number bound: the IEEE comparison
         * decides only when the chunk is known to hold no NaN (and the constant is none). */
        hudi_pq_predicate q = *p;
        q.op = hudi_pq_ieee_op(p->op);
        if (hudi_pq_is_float(leaf->field->type) &&
            (!(sv->has_nan_count && sv->nan_count == 0) || p->value.f64 != p->value.f64))
            return !(sv->has_null_count && sv->null_count >= rows && rows > 0);
        return hudi_pq_chunk_may_match(sv, &q, leaf, rows);
    }
    if (p->op == HUDI_CMP_IS_NULL) return !(sv->has_null_count && sv->null_count == 0);
    if (sv->has_null_count && sv->null_count >= rows && rows > 0) return false; /* all null */
    if (p->op == HUDI_CMP_IS_NOT_NULL) return true;
    if (p->value.is_null) return false;
    uint8_t buf[32];
    hudi_slice c;
    int kind = sv->kind;
    /* Rows are compared with IEEE semantics (-0 == +0), so bounds kept in IEEE 754 total order
     * are compared numerically, and NaN bounds (all-NaN groups) prove nothing. */
    if (kind == PQ_SORT_FLOAT_TOTAL || kind == PQ_SORT_DOUBLE_TOTAL ||
        kind == PQ_SORT_FLOAT16_TOTAL) {
        kind = kind == PQ_SORT_FLOAT_TOTAL    ? PQ_SORT_FLOAT
               : kind == PQ_SORT_DOUBLE_TOTAL ? PQ_SORT_DOUBLE
                                              : PQ_SORT_FLOAT16;
        if ((sv->has_min && hudi_pq_stats_is_nan(kind, sv->min)) ||
            (sv->has_max && hudi_pq_stats_is_nan(kind, sv->max)))
            return true;
    }
    if (kind == PQ_SORT_NONE || hudi_pq_plain_constant(leaf, &p->value, buf, &c) < 0) return true;
    int lo = sv->has_min ? hudi_pq_stats_compare(kind, c, sv->min) : 1;  /* c vs min */
    int hi = sv->has_max ? hudi_pq_stats_compare(kind, c, sv->max) : -1; /* c vs max */
    switch (p->op) {
    case HUDI_CMP_EQ: return !(sv->has_min && lo < 0) && !(sv->has_max && hi > 0);
    case HUDI_CMP_LT: return !(sv->has_min && lo <= 0);
    case HUDI_CMP_LE: return !(sv->has_min && lo < 0);
    case HUDI_CMP_GT: return !(sv->has_max && hi >= 0);
    case HUDI_CMP_GE: return !(sv->has_max && hi > 0);
    case HUDI_CMP_NE:
        return !(sv->has_min && sv->has_max && sv->min_exact && sv->max_exact && lo == 0 &&
                 hi == 0 && sv->has_null_count);
    default: return true;
    }
}

bool hudi_pq_scan_keep_row_group(hudi_pq_scan *s, int32_t rg) {
    if (!s->opts.use_statistics || s->opts.n_predicates == 0) return true;
    const hudi_pq_file *f = s->f;
    pq_writer_version wv;
    hudi_pq_writer_version_parse(&wv, f->meta.has_created_by, f->meta.created_by);
    const pq_row_group *g = &f->meta.row_groups[rg];
    for (int32_t i = 0; i < s->opts.n_predicates; i++) {
        const hudi_pq_predicate *p = &s->opts.predicates[i];
        const pq_leaf *leaf = hudi_pq_flat_leaf(&f->schema, p->column);
        if (!leaf) continue;
        const pq_column_meta *cm = &g->columns[leaf->index].meta_data;
        int order = f->meta.n_column_orders > leaf->index ? f->meta.column_orders[leaf->index]
                                                          : PQ_STATS_ORDER_ABSENT;
        pq_stats_view sv;
        hudi_pq_stats_view_init(&sv, &wv, leaf->element, order,
                                cm->has_statistics ? &cm->statistics : NULL);
        if (!hudi_pq_chunk_may_match(&sv, p, leaf, g->num_rows)) return false;
    }
    return true;
}

/* ---- exact filtering ----------------------------------------------------------------------- */

static int cmp3_i64(int64_t a, int64_t b) { return (a > b) - (a < b); }
static int cmp3_u64(uint64_t a, uint64_t b) { return (a > b) - (a < b); }

static bool apply_op(hudi_cmp_op op, int c) {
    switch (op) {
    case HUDI_CMP_EQ: return c == 0;
    case HUDI_CMP_NE: return c != 0;
    case HUDI_CMP_LT: return c < 0;
    case HUDI_CMP_LE: return c <= 0;
    case HUDI_CMP_GT:
    case HUDI_CMP_GT_TOTAL: return c > 0;
    case HUDI_CMP_GE:
    case HUDI_CMP_GE_TOTAL: return c >= 0;
    default: return false;
    }
}

/* keep[i] &= (v[i] OP c) over a whole fixed-width array, one branch-free loop per operator so
 * the compiler vectorises it. IEEE comparisons give the row semantics of the general loop
 * below: NaN on either side compares false, except !=, and -0 == +0. */
#define CMP_LOOP(T, C)                                                                             \
    do {                                                                                           \
        const T *v = (const T *)a->values;                                                         \
        switch (op) {                                                                              \
        case HUDI_CMP_EQ:                                                                          \
            for (int64_t i = 0; i < n; i++) keep[i] &= (uint8_t)(v[i] == (C));                     \
            break;                                                                                 \
        case HUDI_CMP_NE:                                                                          \
            for (int64_t i = 0; i < n; i++) keep[i] &= (uint8_t)(v[i] != (C));                     \
            break;                                                                                 \
        case HUDI_CMP_LT:                                                                          \
            for (int64_t i = 0; i < n; i++) keep[i] &= (uint8_t)(v[i] < (C));                      \
            break;                                                                                 \
        case HUDI_CMP_LE:                                                                          \
            for (int64_t i = 0; i < n; i++) keep[i] &= (uint8_t)(v[i] <= (C));                     \
            break;                                                                                 \
        case HUDI_CMP_GT:                                                                          \
            for (int64_t i = 0; i < n; i++) keep[i] &= (uint8_t)(v[i] > (C));                      \
            break;                                                                                 \
        case HUDI_CMP_GE:                                                                          \
            for (int64_t i = 0; i < n; i++) keep[i] &= (uint8_t)(v[i] >= (C));                     \
            break;                                                                                 \
        default: return false;                                                                     \
        }                                                                                          \
    } while (0)

/* keep[i] &= (v[i] OP c) for GT_TOTAL and GE_TOTAL with a number c: NaN rows pass. */
#define TOTAL_LOOP(T, C)                                                                           \
    do {                                                                                           \
        const T *v = (const T *)a->values;                                                         \
        if (op == HUDI_CMP_GT_TOTAL)                                                               \
            for (int64_t i = 0; i < n; i++) keep[i] &= (uint8_t)((v[i] > (C)) | (v[i] != v[i]));   \
        else                                                                                       \
            for (int64_t i = 0; i < n; i++) keep[i] &= (uint8_t)((v[i] >= (C)) | (v[i] != v[i]));  \
    } while (0)

/* The common comparisons of a numeric column with a constant of its own range, without the
 * per-row type switch. Returns false when the general loop must do it. */
static bool eval_fixed_fast(const hudi_array *a, hudi_cmp_op op, const hudi_value *value,
                            uint8_t *keep) {
    int64_t n = a->length;
    if (value->is_null || !a->values) return false;
    if (!hudi_pq_is_float(a->field->type)) op = hudi_pq_ieee_op(op);
    switch (a->field->type) {
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_DATE: {
        if (value->i64 < INT32_MIN || value->i64 > INT32_MAX) return false;
        int32_t c = (int32_t)value->i64;
        CMP_LOOP(int32_t, c);
        break;
    }
    case HUDI_TYPE_INT64:
    case HUDI_TYPE_TIMESTAMP: {
        int64_t c = value->i64;
        CMP_LOOP(int64_t, c);
        break;
    }
    case HUDI_TYPE_DOUBLE: {
        double c = value->f64;
        if (hudi_pq_total_op(op) && c != c) return false; /* NaN constant: the general loop */
        if (hudi_pq_total_op(op))
            TOTAL_LOOP(double, c);
        else
            CMP_LOOP(double, c);
        break;
    }
    case HUDI_TYPE_FLOAT: {
        double c = value->f64; /* each float widens exactly, as in the general loop */
        if (hudi_pq_total_op(op) && c != c) return false;
        if (hudi_pq_total_op(op))
            TOTAL_LOOP(float, c);
        else
            CMP_LOOP(float, c);
        break;
    }
    default: return false;
    }
    if (a->validity) /* a comparison with NULL is not true */
        for (int64_t i = 0; i < n; i++) keep[i] &= (uint8_t)hudi_bit_get(a->validity, i);
    return true;
}
#undef CMP_LOOP
#undef TOTAL_LOOP

int hudi_pq_eval_predicate(const hudi_array *a, hudi_cmp_op op, const hudi_value *value,
                           uint8_t *keep, hudi_error *err) {
    const hudi_pq_predicate pred = {0, op, *value}, *p = &pred;
    int64_t n = a->length;
    const hudi_field *f = a->field;
    if (eval_fixed_fast(a, op, value, keep)) return 0;
    if (p->op == HUDI_CMP_IS_NULL || p->op == HUDI_CMP_IS_NOT_NULL) {
        bool want_null = p->op == HUDI_CMP_IS_NULL;
        for (int64_t i = 0; i < n; i++)
            if (hudi_array_is_valid(a, i) == want_null) keep[i] = 0;
        return 0;
    }
    if (p->value.is_null) {
        memset(keep, 0, (size_t)n);
        return 0;
    }
    for (int64_t i = 0; i < n; i++) {
        if (!keep[i]) continue;
        if (!hudi_array_is_valid(a, i)) {
            keep[i] = 0;
            continue;
        }
        int c;
        switch (f->type) {
        case HUDI_TYPE_BOOL: c = cmp3_i64(hudi_bit_get(a->values, i), p->value.i64 != 0); break;
        case HUDI_TYPE_INT8: c = cmp3_i64(((const int8_t *)a->values)[i], p->value.i64); break;
        case HUDI_TYPE_INT16: c = cmp3_i64(((const int16_t *)a->values)[i], p->value.i64); break;
        case HUDI_TYPE_INT32:
        case HUDI_TYPE_DATE: c = cmp3_i64(((const int32_t *)a->values)[i], p->value.i64); break;
        case HUDI_TYPE_TIME:
            c = hudi_type_width(f) == 4 ? cmp3_i64(((const int32_t *)a->values)[i], p->value.i64)
                                        : cmp3_i64(((const int64_t *)a->values)[i], p->value.i64);
            break;
        case HUDI_TYPE_INT64:
        case HUDI_TYPE_TIMESTAMP:
            c = cmp3_i64(((const int64_t *)a->values)[i], p->value.i64);
            break;
        case HUDI_TYPE_UINT8:
            c = cmp3_u64(((const uint8_t *)a->values)[i], (uint64_t)p->value.i64);
            break;
        case HUDI_TYPE_UINT16:
            c = cmp3_u64(((const uint16_t *)a->values)[i], (uint64_t)p->value.i64);
            break;
        case HUDI_TYPE_UINT32:
            c = cmp3_u64(((const uint32_t *)a->values)[i], (uint64_t)p->value.i64);
            break;
        case HUDI_TYPE_UINT64:
            c = cmp3_u64(((const uint64_t *)a->values)[i], (uint64_t)p->value.i64);
            break;
        case HUDI_TYPE_FLOAT:
        case HUDI_TYPE_DOUBLE:
        case HUDI_TYPE_FLOAT16: {
            double x = f->type == HUDI_TYPE_FLOAT ? ((const float *)a->values)[i]
                       : f->type == HUDI_TYPE_DOUBLE
                           ? ((const double *)a->values)[i]
                           : hudi_half_to_float(((const uint16_t *)a->values)[i]);
            bool nx = x != x, nc = p->value.f64 != p->value.f64;
            if (nx || nc) {
                if (hudi_pq_total_op(p->op)) { /* NaN above every number, equal to NaN */
                    c = nx && nc ? 0 : nx ? 1 : -1;
                    break;
                }
                if (p->op != HUDI_CMP_NE) keep[i] = 0; /* IEEE: NaN compares false, except != */
                continue;
            }
            c = (x > p->value.f64) - (x < p->value.f64);
            break;
        }
        case HUDI_TYPE_DECIMAL: {
            __int128 x;
            memcpy(&x, (const uint8_t *)a->values + i * 16, 16);
            c = (x > p->value.dec) - (x < p->value.dec);
            break;
        }
        case HUDI_TYPE_STRING:
        case HUDI_TYPE_BINARY:
        case HUDI_TYPE_FIXED_BINARY: {
            const uint8_t *d;
            size_t len;
            if (f->type == HUDI_TYPE_FIXED_BINARY) {
                d = (const uint8_t *)a->values + i * f->byte_width;
                len = (size_t)f->byte_width;
            } else {
                d = a->data + a->offsets[i];
                len = (size_t)(a->offsets[i + 1] - a->offsets[i]);
            }
            size_t m = HUDI_MIN(len, p->value.bytes.len);
            c = m ? memcmp(d, p->value.bytes.data, m) : 0;
            if (c == 0)
                c = (len > p->value.bytes.len) - (len < p->value.bytes.len);
            else
                c = c < 0 ? -1 : 1;
            break;
        }
        default:
            return hudi_error_set(err, HUDI_EUNSUPPORTED, "cannot filter on column %s (%s)",
                                  f->name ? f->name : "", hudi_type_name(f->type));
        }
        if (!apply_op(p->op, c)) keep[i] = 0;
    }
    return 0;
}

/* Replaces each chosen column by the rows whose keep flag is set (copied run by run). */
int hudi_pq_batch_compact(hudi_batch *b, int64_t n, const uint8_t *keep, const bool *which,
                          hudi_error *err) {
    for (int32_t c = 0; c < b->n_columns; c++) {
        if (which && !which[c]) continue;
        hudi_array *old = b->columns[c], *fresh = NULL;
        int rc = hudi_array_new(&fresh, old->field, err);
        for (int64_t i = 0; rc == 0 && i < n;) {
            if (!keep[i]) {
                i++;
                while (i + 8 <= n && hudi_load_u64le(keep + i) == 0) i += 8; /* sparse selections */
                continue;
            }
            int64_t j = i;
            while (j < n && keep[j]) j++;
            rc = hudi_array_append_range(fresh, old, i, j - i, err);
            i = j;
        }
        if (rc < 0) {
            hudi_array_free(fresh);
            return rc;
        }
        b->columns[c] = fresh;
        hudi_array_free(old);
    }
    return 0;
}

/* The batch column each predicate is evaluated on: the last one reading its file column. */
static int predicate_column(const hudi_pq_scan *s, const hudi_pq_predicate *p, int32_t *col,
                            hudi_error *err) {
    *col = -1;
    for (int32_t k = 0; k < s->n_cols; k++)
        if (s->cols[k] == p->column) *col = k;
    if (*col < 0)
        return hudi_error_set(err, HUDI_EINVAL,
                              "%s: a filtered column must be among the columns read", s->f->path);
    return 0;
}

int hudi_pq_scan_select(hudi_pq_scan *s, const hudi_batch *b, int64_t n, uint8_t *keep,
                        int64_t *kept, hudi_error *err) {
    int rc = 0;
    memset(keep, 1, (size_t)n);
    *kept = 0;
    for (int32_t i = 0; rc == 0 && s->opts.filter_rows && i < s->opts.n_predicates; i++) {
        const hudi_pq_predicate *p = &s->opts.predicates[i];
        int32_t col;
        if ((rc = predicate_column(s, p, &col, err)) < 0) break;
        rc = hudi_pq_eval_predicate(b->columns[col], p->op, &p->value, keep, err);
    }
    if (rc < 0) return rc;
    if (s->opts.dynamic) hudi_pq_dyn_select(s, b->columns[s->dyn_col], n, keep);
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) k += keep[i];
    *kept = k;
    return 0;
}

int hudi_pq_scan_filter_batch(hudi_pq_scan *s, hudi_batch *b, hudi_error *err) {
    uint8_t *keep = hudi_malloc((size_t)b->num_rows + 1);
    int64_t kept = 0;
    if (!keep) return hudi_error_oom(err);
    int rc = hudi_pq_scan_select(s, b, b->num_rows, keep, &kept, err);
    if (rc == 0 && kept < b->num_rows) {
        rc = hudi_pq_batch_compact(b, b->num_rows, keep, NULL, err);
        b->num_rows = kept;
    }
    hudi_free(keep);
    return rc;
}
