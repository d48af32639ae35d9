/* parquet_scan.c - public Parquet scans (include/hudi/hudi_parquet.h): column names and text or
 * structured predicates resolved against the file schema, the format layer's scan run with
 * them, and its batches moved out as an Arrow C stream.
 *
 * Invariant: a predicate column that was not asked for is scanned (the format layer filters
 * on scanned columns) but never returned: it is the last of the internal projection, and the
 * stream hands out only the first n_out columns. */
#include "api/api.h"
#include "columnar/arrow_c.h"
#include "read/predicate.h"

struct hudi_parquet_scan {
    hudi_parquet_file *file; /* borrowed */
    hudi_pq_scan *s;
    hudi_predicate *preds; /* parsed predicates: they own the constants' bytes */
    hudi_pq_predicate *pq_preds;
    int32_t n_preds;
    int32_t *cols; /* internal projection: returned columns, then predicate-only ones */
    int32_t n_cols, n_out;
    hudi_field out_schema; /* STRUCT of the returned columns */
    bool streaming;
};

static int find_column(const hudi_field *schema, const char *name) {
    for (int32_t i = 0; name && i < schema->n_children; i++)
        if (schema->children[i].name && strcmp(schema->children[i].name, name) == 0) return i;
    return -1;
}

/* Adds column c to the internal projection unless it is there. */
static void project(hudi_parquet_scan *s, int32_t c) {
    for (int32_t i = 0; i < s->n_cols; i++)
        if (s->cols[i] == c) return;
    s->cols[s->n_cols++] = c;
}

static const hudi_cmp_op op_map[] = {
    [HUDI_PARQUET_EQ] = HUDI_CMP_EQ,           [HUDI_PARQUET_NE] = HUDI_CMP_NE,
    [HUDI_PARQUET_LT] = HUDI_CMP_LT,           [HUDI_PARQUET_LE] = HUDI_CMP_LE,
    [HUDI_PARQUET_GT] = HUDI_CMP_GT,           [HUDI_PARQUET_GE] = HUDI_CMP_GE,
    [HUDI_PARQUET_IS_NULL] = HUDI_CMP_IS_NULL, [HUDI_PARQUET_IS_NOT_NULL] = HUDI_CMP_IS_NOT_NULL,
};

/* A structured predicate, resolved and its constant converted exactly to the column's type. */
static int structured(hudi_predicate *out, const hudi_parquet_predicate *p,
                      const hudi_field *schema, hudi_error *err) {
    int32_t c = find_column(schema, p->column);
    if (c < 0)
        return hudi_error_set(err, HUDI_EINVAL, "predicate: unknown column '%s'",
                              p->column ? p->column : "(null)");
    if ((int)p->op < 0 || (size_t)p->op >= HUDI_ARRAY_LEN(op_map))
        return hudi_error_set(err, HUDI_EINVAL, "predicate on '%s': unknown operator %d", p->column,
                              (int)p->op);
    const hudi_field *f = &schema->children[c];
    out->column = c;
    out->op = op_map[p->op];
    if (out->op == HUDI_CMP_IS_NULL || out->op == HUDI_CMP_IS_NOT_NULL) {
        out->value.is_null = true;
        return 0;
    }
    if (hudi_type_is_nested(f->type) || f->type == HUDI_TYPE_NULL)
        return hudi_error_set(err, HUDI_EINVAL, "predicate: column '%s' is not primitive (%s)",
                              f->name, hudi_type_name(f->type));
    if (!p->value)
        return hudi_error_set(err, HUDI_EINVAL, "predicate on '%s': no constant", f->name);
    int rc = hudi_value_parse(&out->value, &out->bytes, p->value, true, p->value_is_hex, f, err);
    if (rc < 0) hudi_error_wrap(err, "predicate on '%s'", f->name);
    return rc;
}

static int parse_predicates(hudi_parquet_scan *s, const hudi_parquet_scan_options *o,
                            const hudi_field *schema, hudi_error *err) {
    int32_t n = (o->filter ? 1 : 0) + o->n_predicates;
    int rc;
    if (n == 0) return 0;
    s->preds = hudi_calloc((size_t)n, sizeof(*s->preds));
    s->pq_preds = hudi_calloc((size_t)n, sizeof(*s->pq_preds));
    if (!s->preds || !s->pq_preds) return hudi_error_oom(err);
    for (int32_t i = 0; i < n; i++) s->preds[i] = (hudi_predicate)HUDI_PREDICATE_INIT;
    s->n_preds = n;
    int32_t k = 0;
    if (o->filter) {
        if ((rc = hudi_predicate_parse(&s->preds[k++], o->filter, schema, err)) < 0) {
            hudi_error_wrap(err, "filter");
            return rc;
        }
    }
    for (int32_t i = 0; i < o->n_predicates; i++)
        if ((rc = structured(&s->preds[k++], &o->predicates[i], schema, err)) < 0) return rc;
    for (int32_t i = 0; i < n; i++)
        s->pq_preds[i] = (hudi_pq_predicate){s->preds[i].column, s->preds[i].op, s->preds[i].value};
    return 0;
}

static int build_projection(hudi_parquet_scan *s, const hudi_parquet_scan_options *o,
                            const hudi_field *schema, hudi_error *err) {
    int32_t n_file = schema->n_children, n_req = o->columns ? o->n_columns : n_file;
    if (!(s->cols = hudi_calloc((size_t)(n_req + s->n_preds) + 1, sizeof(int32_t))))
        return hudi_error_oom(err);
    for (int32_t i = 0; i < n_req; i++) {
        int32_t c = o->columns ? find_column(schema, o->columns[i]) : i;
        if (c < 0)
            return hudi_error_set(err, HUDI_ENOTFOUND, "unknown column '%s'",
                                  o->columns[i] ? o->columns[i] : "(null)");
        for (int32_t k = 0; k < s->n_cols; k++)
            if (s->cols[k] == c)
                return hudi_error_set(err, HUDI_EINVAL, "column '%s' given twice",
                                      schema->children[c].name);
        s->cols[s->n_cols++] = c;
    }
    s->n_out = s->n_cols;
    for (int32_t i = 0; i < s->n_preds; i++) project(s, s->preds[i].column);
    if (hudi_field_init(&s->out_schema, schema->name ? schema->name : "schema", HUDI_TYPE_STRUCT,
                        false) < 0 ||
        (s->n_out > 0 && hudi_field_set_children(&s->out_schema, s->n_out) < 0))
        return hudi_error_oom(err);
    for (int32_t i = 0; i < s->n_out; i++)
        if (hudi_field_copy(&s->out_schema.children[i], &schema->children[s->cols[i]]) < 0)
            return hudi_error_oom(err);
    return 0;
}

int hudi_parquet_scan_open(hudi_parquet_scan **out, hudi_parquet_file *f,
                           const hudi_parquet_scan_options *opts, hudi_error *err) {
    hudi_parquet_scan_options dflt = HUDI_PARQUET_SCAN_OPTIONS_INIT;
    hudi_parquet_scan *s = NULL;
    int rc;
    if (!out) return hudi_error_set(err, HUDI_EINVAL, "hudi_parquet_scan_open: out is NULL");
    *out = NULL;
    if (!f) return hudi_error_set(err, HUDI_EINVAL, "hudi_parquet_scan_open: no file");
    if (!opts) opts = &dflt;
    if (opts->version != HUDI_PARQUET_SCAN_OPTIONS_VERSION)
        return hudi_error_set(err, HUDI_EINVAL,
                              "hudi_parquet_scan_open: options version %d, expected %d",
                              opts->version, HUDI_PARQUET_SCAN_OPTIONS_VERSION);
    if (opts->n_columns < 0 || opts->n_predicates < 0 ||
        (opts->n_predicates > 0 && !opts->predicates))
        return hudi_error_set(err, HUDI_EINVAL,
                              "hudi_parquet_scan_open: bad column or "
                              "predicate list");
    const hudi_field *schema = hudi_pq_schema(f->f);
    if (!(s = hudi_calloc(1, sizeof(*s)))) return hudi_error_oom(err);
    s->file = f;
    if ((rc = parse_predicates(s, opts, schema, err)) < 0) goto fail;
    if ((rc = build_projection(s, opts, schema, err)) < 0) goto fail;
    hudi_pq_scan_options so = HUDI_PQ_SCAN_OPTIONS_INIT;
    so.columns = s->cols;
    so.n_columns = s->n_cols;
    so.batch_rows = opts->batch_rows;
    so.predicates = s->pq_preds;
    so.n_predicates = s->n_preds;
    so.filter_rows = opts->filter_rows;
    so.use_statistics = opts->use_statistics;
    so.use_page_index = opts->use_page_index;
    if ((rc = hudi_pq_scan_open(&s->s, f->f, &so, err)) < 0) goto fail;
    *out = s;
    return 0;
fail:
    hudi_api_name_path(err, hudi_pq_path(f->f));
    hudi_parquet_scan_free(s);
    return rc;
}

void hudi_parquet_scan_free(hudi_parquet_scan *s) {
    if (!s) return;
    hudi_pq_scan_free(s->s);
    for (int32_t i = 0; s->preds && i < s->n_preds; i++) hudi_predicate_dispose(&s->preds[i]);
    hudi_free(s->preds);
    hudi_free(s->pq_preds);
    hudi_free(s->cols);
    hudi_field_dispose(&s->out_schema);
    hudi_free(s);
}

void hudi_parquet_scan_stats_get(const hudi_parquet_scan *s, hudi_parquet_scan_stats *out) {
    if (!out) return;
    memset(out, 0, sizeof(*out));
    if (!s) return;
    const hudi_pq_scan_stats *st = hudi_pq_scan_get_stats(s->s);
    out->row_groups_total = st->row_groups_total;
    out->row_groups_skipped = st->row_groups_skipped;
    out->pages_total = st->pages_total;
    out->pages_skipped = st->pages_skipped;
    out->rows_read = st->rows_read;
    out->rows_returned = st->rows_returned;
    out->bytes_decompressed = st->bytes_decompressed;
}

/* Stream producer: the returned columns of the scan's batch (which the scan keeps and reuses)
 * are swapped into a batch the stream owns; the scan frees the empty arrays swapped in. */
static int scan_next(void *payload, hudi_batch **out, hudi_error *err) {
    hudi_parquet_scan *s = payload;
    hudi_batch *rb = NULL, *nb = NULL;
    int rc;
    *out = NULL;
    if ((rc = hudi_pq_scan_next(s->s, &rb, err)) < 0) {
        hudi_api_name_path(err, hudi_pq_path(s->file->f));
        return rc;
    }
    if (!rb) return 0;
    if ((rc = hudi_batch_new(&nb, &s->out_schema, err)) < 0) return rc;
    for (int32_t i = 0; i < s->n_out; i++) {
        hudi_array *tmp = nb->columns[i];
        nb->columns[i] = rb->columns[i];
        rb->columns[i] = tmp;
    }
    nb->num_rows = rb->num_rows;
    *out = nb;
    return 0;
}

int hudi_parquet_scan_to_arrow(hudi_parquet_scan *s, struct ArrowArrayStream *out,
                               hudi_error *err) {
    if (!s || !out)
        return hudi_error_set(err, HUDI_EINVAL, "hudi_parquet_scan_to_arrow: NULL argument");
    if (s->streaming)
        return hudi_error_set(err, HUDI_EINVAL, "%s: the scan already has a stream",
                              hudi_pq_path(s->file->f));
    int rc = hudi_arrow_stream_new(out, &s->out_schema, scan_next, NULL, s, err);
    if (rc == 0) s->streaming = true;
    return rc;
}
