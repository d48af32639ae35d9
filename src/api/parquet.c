/* parquet.c - public Parquet files (include/hudi/hudi_parquet.h): open and close, the schema,
 * and read-only views of the footer (schema elements, row groups, column chunks, statistics,
 * key/value metadata) copied out of the format layer's decoded structs.
 *
 * Invariant: every accessor checks its indices against the footer, which may hold anything a
 * writer put there; nothing is interpreted here beyond copying fields and flags. */
#include "api/api.h"
#include "columnar/arrow_c.h"

int hudi_api_name_path(hudi_error *err, const char *path) {
    if (!err) return HUDI_EIO;
    if (path && !strstr(err->message, path)) hudi_error_wrap(err, "%s", path);
    return err->code;
}

static hudi_parquet_bytes bytes_of(hudi_slice s) { return (hudi_parquet_bytes){s.data, s.len}; }

int hudi_parquet_open(hudi_parquet_file **out, const char *path,
                      const hudi_parquet_open_options *opts, hudi_error *err) {
    hudi_pq_open_options po = HUDI_PQ_OPEN_OPTIONS_INIT;
    hudi_parquet_file *pf = NULL;
    int rc;
    if (!out) return hudi_error_set(err, HUDI_EINVAL, "hudi_parquet_open: out is NULL");
    *out = NULL;
    if (!path || !*path) return hudi_error_set(err, HUDI_EINVAL, "hudi_parquet_open: no path");
    if (opts) {
        if (opts->version != HUDI_PARQUET_OPEN_OPTIONS_VERSION)
            return hudi_error_set(err, HUDI_EINVAL,
                                  "hudi_parquet_open: options version %d, expected %d",
                                  opts->version, HUDI_PARQUET_OPEN_OPTIONS_VERSION);
        po.verify_crc = opts->verify_crc;
        po.binary_as_string = opts->binary_as_string;
    }
    if (!(pf = hudi_calloc(1, sizeof(*pf)))) return hudi_error_oom(err);
    if ((rc = hudi_fs_local_new(&pf->fs, err)) < 0) goto fail;
    if ((rc = hudi_pq_open(&pf->f, pf->fs, path, &po, err)) < 0) goto fail;
    const pq_file_meta *m = hudi_pq_meta(pf->f);
    if (!(pf->leaf_elements = hudi_calloc((size_t)m->n_schema + 1, sizeof(int32_t)))) {
        rc = hudi_error_oom(err);
        goto fail;
    }
    for (int32_t i = 1; i < m->n_schema; i++)
        if (m->schema[i].num_children <= 0 && m->schema[i].has_type)
            pf->leaf_elements[pf->n_leaves++] = i;
    *out = pf;
    return 0;
fail:
    hudi_parquet_close(pf);
    return rc;
}

void hudi_parquet_close(hudi_parquet_file *f) {
    if (!f) return;
    hudi_pq_close(f->f);
    hudi_fs_free(f->fs);
    hudi_free(f->leaf_elements);
    hudi_free(f);
}

const char *hudi_parquet_path(const hudi_parquet_file *f) { return f ? hudi_pq_path(f->f) : NULL; }
int64_t hudi_parquet_file_size(const hudi_parquet_file *f) {
    return f ? hudi_pq_file_size(f->f) : 0;
}
int64_t hudi_parquet_num_rows(const hudi_parquet_file *f) { return f ? hudi_pq_num_rows(f->f) : 0; }

/* ---- schema ------------------------------------------------------------------------------- */

int hudi_parquet_schema(const hudi_parquet_file *f, struct ArrowSchema *out, hudi_error *err) {
    if (!f || !out) return hudi_error_set(err, HUDI_EINVAL, "hudi_parquet_schema: NULL argument");
    int rc = hudi_arrow_export_schema(out, hudi_pq_schema(f->f), err);
    if (rc < 0) hudi_api_name_path(err, hudi_pq_path(f->f));
    return rc;
}

int32_t hudi_parquet_num_columns(const hudi_parquet_file *f) {
    return f ? hudi_pq_schema(f->f)->n_children : 0;
}

static const hudi_field *top_column(const hudi_parquet_file *f, int32_t i) {
    const hudi_field *s = f ? hudi_pq_schema(f->f) : NULL;
    return s && i >= 0 && i < s->n_children ? &s->children[i] : NULL;
}

const char *hudi_parquet_column_name(const hudi_parquet_file *f, int32_t i) {
    const hudi_field *c = top_column(f, i);
    return c ? (c->name ? c->name : "") : NULL;
}

int32_t hudi_parquet_column_field_id(const hudi_parquet_file *f, int32_t i) {
    const hudi_field *c = top_column(f, i);
    return c && c->field_id >= 0 ? c->field_id : -1;
}

/* Copies `b` snprintf-style into buf[0..cap); returns the full length (-1 if `b` failed). */
static int64_t copy_out(hudi_buf *b, char *buf, size_t cap) {
    int64_t n = hudi_buf_failed(b) ? -1 : (int64_t)b->len;
    if (cap > 0 && buf) {
        size_t k = n < 0 ? 0 : HUDI_MIN((size_t)n, cap - 1);
        if (k) memcpy(buf, b->data, k);
        buf[k] = '\0';
    }
    hudi_buf_dispose(b);
    return n;
}

int64_t hudi_parquet_column_type_text(const hudi_parquet_file *f, int32_t i, char *buf,
                                      size_t cap) {
    const hudi_field *c = top_column(f, i);
    if (!c) return -1;
    hudi_buf b = HUDI_BUF_INIT;
    hudi_field_describe(&b, c);
    if (!c->nullable) hudi_buf_puts(&b, " not null");
    return copy_out(&b, buf, cap);
}

int32_t hudi_parquet_num_schema_elements(const hudi_parquet_file *f) {
    return f ? hudi_pq_meta(f->f)->n_schema : 0;
}

int hudi_parquet_schema_element_get(const hudi_parquet_file *f, int32_t i,
                                    hudi_parquet_schema_element *out) {
    if (!f || !out || i < 0 || i >= hudi_pq_meta(f->f)->n_schema) return HUDI_EINVAL;
    const pq_schema_element *e = &hudi_pq_meta(f->f)->schema[i];
    memset(out, 0, sizeof(*out));
    out->name = bytes_of(e->name);
    out->num_children = e->num_children;
    out->repetition = e->has_repetition ? e->repetition : -1;
    out->physical_type = e->has_type ? e->type : -1;
    out->type_length = e->has_type_length ? e->type_length : -1;
    out->converted_type = e->has_converted_type ? e->converted_type : -1;
    out->scale = e->has_scale ? e->scale : -1;
    out->precision = e->has_precision ? e->precision : -1;
    out->field_id = e->has_field_id ? e->field_id : -1;
    out->has_logical_type = e->has_logical_type;
    if (e->has_logical_type) {
        const pq_logical_type *lt = &e->logical_type;
        out->logical_type = (hudi_parquet_logical_type){
            lt->kind, lt->scale,     lt->precision, lt->is_adjusted_to_utc,
            lt->unit, lt->bit_width, lt->is_signed};
    }
    return 0;
}

int32_t hudi_parquet_num_leaves(const hudi_parquet_file *f) { return f ? f->n_leaves : 0; }

int32_t hudi_parquet_leaf_element(const hudi_parquet_file *f, int32_t leaf) {
    return f && leaf >= 0 && leaf < f->n_leaves ? f->leaf_elements[leaf] : -1;
}

/* ---- footer -------------------------------------------------------------------------------- */

void hudi_parquet_file_info_get(const hudi_parquet_file *f, hudi_parquet_file_info *out) {
    if (!out) return;
    memset(out, 0, sizeof(*out));
    if (!f) return;
    const pq_file_meta *m = hudi_pq_meta(f->f);
    out->format_version = m->version;
    out->footer_num_rows = m->num_rows;
    out->num_row_groups = m->n_row_groups;
    out->num_key_values = m->n_key_value;
    out->num_column_orders = m->n_column_orders;
    out->has_created_by = m->has_created_by;
    out->created_by = bytes_of(m->created_by);
    out->encryption_algorithm = m->has_encryption_algorithm;
}

static void copy_kv(hudi_parquet_key_value *out, const pq_key_value *kv) {
    out->key = bytes_of(kv->key);
    out->has_value = kv->has_value;
    out->value = kv->has_value ? bytes_of(kv->value) : (hudi_parquet_bytes){NULL, 0};
}

int hudi_parquet_key_value_get(const hudi_parquet_file *f, int32_t i, hudi_parquet_key_value *out) {
    if (!f || !out || i < 0 || i >= hudi_pq_meta(f->f)->n_key_value) return HUDI_EINVAL;
    copy_kv(out, &hudi_pq_meta(f->f)->key_value[i]);
    return 0;
}

bool hudi_parquet_key_value_find(const hudi_parquet_file *f, const char *key,
                                 hudi_parquet_bytes *value) {
    hudi_slice v = {0};
    if (!f || !key || !hudi_pq_kv(f->f, key, &v)) return false;
    if (value) *value = bytes_of(v);
    return true;
}

int32_t hudi_parquet_column_order(const hudi_parquet_file *f, int32_t i) {
    if (!f || i < 0 || i >= hudi_pq_meta(f->f)->n_column_orders) return -1;
    return hudi_pq_meta(f->f)->column_orders[i];
}

static const pq_row_group *row_group(const hudi_parquet_file *f, int32_t rg) {
    const pq_file_meta *m = f ? hudi_pq_meta(f->f) : NULL;
    return m && rg >= 0 && rg < m->n_row_groups ? &m->row_groups[rg] : NULL;
}

int hudi_parquet_row_group_get(const hudi_parquet_file *f, int32_t rg,
                               hudi_parquet_row_group *out) {
    const pq_row_group *g = row_group(f, rg);
    if (!g || !out) return HUDI_EINVAL;
    out->num_rows = g->num_rows;
    out->total_byte_size = g->total_byte_size;
    out->total_compressed_size = g->has_total_compressed_size ? g->total_compressed_size : -1;
    out->file_offset = g->has_file_offset ? g->file_offset : -1;
    out->ordinal = g->has_ordinal ? g->ordinal : -1;
    out->num_columns = g->n_columns;
    out->num_sorting_columns = g->n_sorting_columns;
    return 0;
}

int hudi_parquet_sorting_column_get(const hudi_parquet_file *f, int32_t rg, int32_t i,
                                    hudi_parquet_sorting_column *out) {
    const pq_row_group *g = row_group(f, rg);
    if (!g || !out || i < 0 || i >= g->n_sorting_columns) return HUDI_EINVAL;
    const pq_sorting_column *sc = &g->sorting_columns[i];
    out->column = sc->column_idx;
    out->descending = sc->descending;
    out->nulls_first = sc->nulls_first;
    return 0;
}

static const pq_column_chunk *chunk(const hudi_parquet_file *f, int32_t rg, int32_t c) {
    const pq_row_group *g = row_group(f, rg);
    return g && c >= 0 && c < g->n_columns ? &g->columns[c] : NULL;
}

static void copy_stats(hudi_parquet_statistics *o, const pq_statistics *s) {
    o->null_count = s->has_null_count ? s->null_count : -1;
    o->distinct_count = s->has_distinct_count ? s->distinct_count : -1;
    o->nan_count = s->has_nan_count ? s->nan_count : -1;
    o->has_min_value = s->has_min_value;
    o->has_max_value = s->has_max_value;
    o->min_value = bytes_of(s->min_value);
    o->max_value = bytes_of(s->max_value);
    o->min_exact = s->has_is_min_value_exact ? s->is_min_value_exact : -1;
    o->max_exact = s->has_is_max_value_exact ? s->is_max_value_exact : -1;
    o->has_deprecated_min = s->has_min;
    o->has_deprecated_max = s->has_max;
    o->deprecated_min = bytes_of(s->min);
    o->deprecated_max = bytes_of(s->max);
}

int hudi_parquet_column_chunk_get(const hudi_parquet_file *f, int32_t rg, int32_t column,
                                  hudi_parquet_column_chunk *out) {
    const pq_column_chunk *cc = chunk(f, rg, column);
    if (!cc || !out) return HUDI_EINVAL;
    memset(out, 0, sizeof(*out));
    out->has_meta_data = cc->has_meta_data;
    out->encrypted = cc->has_crypto_metadata || cc->has_encrypted_column_metadata;
    out->has_file_path = cc->has_file_path;
    out->file_path = bytes_of(cc->file_path);
    out->column_index_offset = cc->has_column_index ? cc->column_index_offset : -1;
    out->column_index_length = cc->has_column_index ? cc->column_index_length : -1;
    out->offset_index_offset = cc->has_offset_index ? cc->offset_index_offset : -1;
    out->offset_index_length = cc->has_offset_index ? cc->offset_index_length : -1;
    out->dictionary_page_offset = out->index_page_offset = out->bloom_filter_offset = -1;
    out->bloom_filter_length = -1;
    out->num_encoding_stats = -1;
    if (!cc->has_meta_data) return 0;
    const pq_column_meta *cm = &cc->meta_data;
    out->physical_type = cm->type;
    out->codec = cm->codec;
    out->num_path = cm->n_path;
    out->num_encodings = cm->n_encodings;
    out->encodings = cm->encodings;
    out->num_encoding_stats = cm->n_encoding_stats;
    out->num_key_values = cm->n_key_value;
    out->num_values = cm->num_values;
    out->total_compressed_size = cm->total_compressed_size;
    out->total_uncompressed_size = cm->total_uncompressed_size;
    out->data_page_offset = cm->data_page_offset;
    if (cm->has_dictionary_page_offset) out->dictionary_page_offset = cm->dictionary_page_offset;
    if (cm->has_index_page_offset) out->index_page_offset = cm->index_page_offset;
    if (cm->has_bloom_filter_offset) out->bloom_filter_offset = cm->bloom_filter_offset;
    if (cm->has_bloom_filter_length) out->bloom_filter_length = cm->bloom_filter_length;
    out->has_statistics = cm->has_statistics;
    if (cm->has_statistics) copy_stats(&out->statistics, &cm->statistics);
    return 0;
}

hudi_parquet_bytes hudi_parquet_column_chunk_path(const hudi_parquet_file *f, int32_t rg,
                                                  int32_t column, int32_t i) {
    const pq_column_chunk *cc = chunk(f, rg, column);
    if (!cc || !cc->has_meta_data || i < 0 || i >= cc->meta_data.n_path)
        return (hudi_parquet_bytes){NULL, 0};
    return bytes_of(cc->meta_data.path_in_schema[i]);
}

int hudi_parquet_encoding_stats_get(const hudi_parquet_file *f, int32_t rg, int32_t column,
                                    int32_t i, hudi_parquet_encoding_stats *out) {
    const pq_column_chunk *cc = chunk(f, rg, column);
    if (!cc || !out || !cc->has_meta_data || i < 0 || i >= cc->meta_data.n_encoding_stats)
        return HUDI_EINVAL;
    const pq_page_encoding_stats *es = &cc->meta_data.encoding_stats[i];
    out->page_type = es->page_type;
    out->encoding = es->encoding;
    out->count = es->count;
    return 0;
}

int hudi_parquet_column_key_value_get(const hudi_parquet_file *f, int32_t rg, int32_t column,
                                      int32_t i, hudi_parquet_key_value *out) {
    const pq_column_chunk *cc = chunk(f, rg, column);
    if (!cc || !out || !cc->has_meta_data || i < 0 || i >= cc->meta_data.n_key_value)
        return HUDI_EINVAL;
    copy_kv(out, &cc->meta_data.key_value[i]);
    return 0;
}

int64_t hudi_parquet_stat_text(const hudi_parquet_file *f, int32_t leaf, hudi_parquet_bytes value,
                               char *buf, size_t cap) {
    int32_t e = hudi_parquet_leaf_element(f, leaf);
    const pq_schema_element *el = e >= 0 ? &hudi_pq_meta(f->f)->schema[e] : NULL;
    hudi_buf b = HUDI_BUF_INIT;
    hudi_api_stat_text(&b, el, el ? el->type : -1, HUDI_SLICE(value.data, value.len));
    return copy_out(&b, buf, cap);
}
