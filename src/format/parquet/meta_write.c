/* meta_write.c - encodes the pq_* structs of meta.h as Thrift compact protocol, the bytes
 * parquet-mr and arrow write (docs/formats/thrift.md §3, §9): fields in increasing id order,
 * short-form headers, only optionals that are present, required fields always, list<bool>
 * as element type 1 with bytes 1/2, exactly one member per union.
 *
 * Invariant: decode(encode(x)) == x for every x that pq_decode_* produced. Flags that have
 * no decoded contents (encryption_algorithm, crypto_metadata, encrypted_column_metadata,
 * an unknown union member) are written as an empty struct / empty binary so they survive
 * a round trip. On error nothing is appended to `out`. */
#include "format/parquet/meta.h"

#include "format/thrift/compact.h"

typedef struct enc {
    hudi_thrift_writer w;
    const char *bad; /* a list with elements but no array */
} enc;

/* Checks a list's count against its array; returns the count to write. */
static uint32_t list_count(enc *e, int32_t n, const void *p, const char *what) {
    if (n <= 0) return 0;
    if (!p) {
        if (!e->bad) e->bad = what;
        return 0;
    }
    return (uint32_t)n;
}

static void enc_empty_union(enc *e, int16_t field, int32_t member, int32_t max_id) {
    hudi_thrift_write_field_struct(&e->w, field);
    if (member >= 1 && member <= max_id) {
        hudi_thrift_write_field_struct(&e->w, (int16_t)member);
        hudi_thrift_write_struct_end(&e->w);
    }
    hudi_thrift_write_struct_end(&e->w);
}

static void enc_logical_type(enc *e, const pq_logical_type *lt) {
    hudi_thrift_writer *w = &e->w;
    hudi_thrift_write_field_struct(w, 10);
    if (lt->kind >= PQ_LT_STRING && lt->kind <= PQ_LT_FILE && lt->kind != 9) {
        hudi_thrift_write_field_struct(w, (int16_t)lt->kind);
        switch (lt->kind) {
        case PQ_LT_DECIMAL:
            hudi_thrift_write_field_i32(w, 1, lt->scale);
            hudi_thrift_write_field_i32(w, 2, lt->precision);
            break;
        case PQ_LT_TIME:
        case PQ_LT_TIMESTAMP:
            hudi_thrift_write_field_bool(w, 1, lt->is_adjusted_to_utc);
            enc_empty_union(e, 2, lt->unit, PQ_UNIT_NANOS);
            break;
        case PQ_LT_INTEGER:
            hudi_thrift_write_field_i8(w, 1, (int8_t)lt->bit_width);
            hudi_thrift_write_field_bool(w, 2, lt->is_signed);
            break;
        default: break; /* members without fields */
        }
        hudi_thrift_write_struct_end(w);
    }
    hudi_thrift_write_struct_end(w);
}

static void enc_statistics(enc *e, int16_t field, const pq_statistics *s) {
    hudi_thrift_writer *w = &e->w;
    hudi_thrift_write_field_struct(w, field);
    if (s->has_max) hudi_thrift_write_field_binary(w, 1, s->max);
    if (s->has_min) hudi_thrift_write_field_binary(w, 2, s->min);
    if (s->has_null_count) hudi_thrift_write_field_i64(w, 3, s->null_count);
    if (s->has_distinct_count) hudi_thrift_write_field_i64(w, 4, s->distinct_count);
    if (s->has_max_value) hudi_thrift_write_field_binary(w, 5, s->max_value);
    if (s->has_min_value) hudi_thrift_write_field_binary(w, 6, s->min_value);
    if (s->has_is_max_value_exact) hudi_thrift_write_field_bool(w, 7, s->is_max_value_exact);
    if (s->has_is_min_value_exact) hudi_thrift_write_field_bool(w, 8, s->is_min_value_exact);
    if (s->has_nan_count) hudi_thrift_write_field_i64(w, 9, s->nan_count);
    hudi_thrift_write_struct_end(w);
}

static void enc_key_values(enc *e, int16_t field, const pq_key_value *kv, int32_t n,
                           const char *what) {
    hudi_thrift_writer *w = &e->w;
    uint32_t count = list_count(e, n, kv, what);
    hudi_thrift_write_field(w, field, HUDI_THRIFT_LIST);
    hudi_thrift_write_list(w, HUDI_THRIFT_STRUCT, count);
    for (uint32_t i = 0; i < count; i++) {
        hudi_thrift_write_struct_begin(w);
        hudi_thrift_write_field_binary(w, 1, kv[i].key);
        if (kv[i].has_value) hudi_thrift_write_field_binary(w, 2, kv[i].value);
        hudi_thrift_write_struct_end(w);
    }
}

static void enc_schema_element(enc *e, const pq_schema_element *s) {
    hudi_thrift_writer *w = &e->w;
    hudi_thrift_write_struct_begin(w);
    if (s->has_type) hudi_thrift_write_field_i32(w, 1, s->type);
    if (s->has_type_length) hudi_thrift_write_field_i32(w, 2, s->type_length);
    if (s->has_repetition) hudi_thrift_write_field_i32(w, 3, s->repetition);
    hudi_thrift_write_field_binary(w, 4, s->name);
    /* Groups always carry num_children (even 0); leaves only if it was set. */
    if (!s->has_type || s->num_children != 0) hudi_thrift_write_field_i32(w, 5, s->num_children);
    if (s->has_converted_type) hudi_thrift_write_field_i32(w, 6, s->converted_type);
    if (s->has_scale) hudi_thrift_write_field_i32(w, 7, s->scale);
    if (s->has_precision) hudi_thrift_write_field_i32(w, 8, s->precision);
    if (s->has_field_id) hudi_thrift_write_field_i32(w, 9, s->field_id);
    if (s->has_logical_type) enc_logical_type(e, &s->logical_type);
    hudi_thrift_write_struct_end(w);
}

static void enc_column_meta(enc *e, const pq_column_meta *m) {
    hudi_thrift_writer *w = &e->w;
    hudi_thrift_write_field_struct(w, 3);
    hudi_thrift_write_field_i32(w, 1, m->type);

    uint32_t n = list_count(e, m->n_encodings, m->encodings, "ColumnMetaData.encodings");
    hudi_thrift_write_field(w, 2, HUDI_THRIFT_LIST);
    hudi_thrift_write_list(w, HUDI_THRIFT_I32, n);
    for (uint32_t i = 0; i < n; i++) hudi_thrift_write_i32(w, m->encodings[i]);

    n = list_count(e, m->n_path, m->path_in_schema, "ColumnMetaData.path_in_schema");
    hudi_thrift_write_field(w, 3, HUDI_THRIFT_LIST);
    hudi_thrift_write_list(w, HUDI_THRIFT_BINARY, n);
    for (uint32_t i = 0; i < n; i++) hudi_thrift_write_binary(w, m->path_in_schema[i]);

    hudi_thrift_write_field_i32(w, 4, m->codec);
    hudi_thrift_write_field_i64(w, 5, m->num_values);
    hudi_thrift_write_field_i64(w, 6, m->total_uncompressed_size);
    hudi_thrift_write_field_i64(w, 7, m->total_compressed_size);
    if (m->n_key_value > 0)
        enc_key_values(e, 8, m->key_value, m->n_key_value, "ColumnMetaData.key_value_metadata");
    hudi_thrift_write_field_i64(w, 9, m->data_page_offset);
    if (m->has_index_page_offset) hudi_thrift_write_field_i64(w, 10, m->index_page_offset);
    if (m->has_dictionary_page_offset)
        hudi_thrift_write_field_i64(w, 11, m->dictionary_page_offset);
    if (m->has_statistics) enc_statistics(e, 12, &m->statistics);
    if (m->n_encoding_stats >= 0) {
        n = list_count(e, m->n_encoding_stats, m->encoding_stats, "ColumnMetaData.encoding_stats");
        hudi_thrift_write_field(w, 13, HUDI_THRIFT_LIST);
        hudi_thrift_write_list(w, HUDI_THRIFT_STRUCT, n);
        for (uint32_t i = 0; i < n; i++) {
            const pq_page_encoding_stats *s = &m->encoding_stats[i];
            hudi_thrift_write_struct_begin(w);
            hudi_thrift_write_field_i32(w, 1, s->page_type);
            hudi_thrift_write_field_i32(w, 2, s->encoding);
            hudi_thrift_write_field_i32(w, 3, s->count);
            hudi_thrift_write_struct_end(w);
        }
    }
    if (m->has_bloom_filter_offset) hudi_thrift_write_field_i64(w, 14, m->bloom_filter_offset);
    if (m->has_bloom_filter_length) hudi_thrift_write_field_i32(w, 15, m->bloom_filter_length);
    hudi_thrift_write_struct_end(w);
}

static void enc_column_chunk(enc *e, const pq_column_chunk *c) {
    hudi_thrift_writer *w = &e->w;
    hudi_thrift_write_struct_begin(w);
    if (c->has_file_path) hudi_thrift_write_field_binary(w, 1, c->file_path);
    hudi_thrift_write_field_i64(w, 2, c->file_offset);
    if (c->has_meta_data) enc_column_meta(e, &c->meta_data);
    if (c->has_offset_index) {
        hudi_thrift_write_field_i64(w, 4, c->offset_index_offset);
        hudi_thrift_write_field_i32(w, 5, c->offset_index_length);
    }
    if (c->has_column_index) {
        hudi_thrift_write_field_i64(w, 6, c->column_index_offset);
        hudi_thrift_write_field_i32(w, 7, c->column_index_length);
    }
    if (c->has_crypto_metadata) enc_empty_union(e, 8, 0, 0);
    if (c->has_encrypted_column_metadata) hudi_thrift_write_field_binary(w, 9, HUDI_SLICE("", 0));
    hudi_thrift_write_struct_end(w);
}

static void enc_row_group(enc *e, const pq_row_group *g) {
    hudi_thrift_writer *w = &e->w;
    hudi_thrift_write_struct_begin(w);
    uint32_t n = list_count(e, g->n_columns, g->columns, "RowGroup.columns");
    hudi_thrift_write_field(w, 1, HUDI_THRIFT_LIST);
    hudi_thrift_write_list(w, HUDI_THRIFT_STRUCT, n);
    for (uint32_t i = 0; i < n; i++) enc_column_chunk(e, &g->columns[i]);
    hudi_thrift_write_field_i64(w, 2, g->total_byte_size);
    hudi_thrift_write_field_i64(w, 3, g->num_rows);
    if (g->n_sorting_columns >= 0) {
        n = list_count(e, g->n_sorting_columns, g->sorting_columns, "RowGroup.sorting_columns");
        hudi_thrift_write_field(w, 4, HUDI_THRIFT_LIST);
        hudi_thrift_write_list(w, HUDI_THRIFT_STRUCT, n);
        for (uint32_t i = 0; i < n; i++) {
            const pq_sorting_column *s = &g->sorting_columns[i];
            hudi_thrift_write_struct_begin(w);
            hudi_thrift_write_field_i32(w, 1, s->column_idx);
            hudi_thrift_write_field_bool(w, 2, s->descending);
            hudi_thrift_write_field_bool(w, 3, s->nulls_first);
            hudi_thrift_write_struct_end(w);
        }
    }
    if (g->has_file_offset) hudi_thrift_write_field_i64(w, 5, g->file_offset);
    if (g->has_total_compressed_size) hudi_thrift_write_field_i64(w, 6, g->total_compressed_size);
    if (g->has_ordinal) hudi_thrift_write_field_i16(w, 7, g->ordinal);
    hudi_thrift_write_struct_end(w);
}

/* Starts an encoding into `out`; finish() reports errors and rolls `out` back. */
static void begin(enc *e, hudi_buf *out) {
    hudi_thrift_writer_init(&e->w, out);
    e->bad = NULL;
    hudi_thrift_write_struct_begin(&e->w);
}

static int finish(enc *e, size_t start_len, hudi_error *err) {
    hudi_thrift_write_struct_end(&e->w);
    int rc = hudi_thrift_writer_finish(&e->w, err);
    if (rc == 0 && e->bad)
        rc = hudi_error_set(err, HUDI_EINVAL, "%s: list has elements but no array", e->bad);
    if (rc < 0 && !hudi_buf_failed(e->w.out)) hudi_buf_truncate(e->w.out, start_len);
    return rc;
}

int hudi_pq_encode_file_meta(hudi_buf *out, const pq_file_meta *m, hudi_error *err) {
    enc e;
    size_t start = out->len;
    begin(&e, out);
    hudi_thrift_writer *w = &e.w;
    hudi_thrift_write_field_i32(w, 1, m->version);
    uint32_t n = list_count(&e, m->n_schema, m->schema, "FileMetaData.schema");
    hudi_thrift_write_field(w, 2, HUDI_THRIFT_LIST);
    hudi_thrift_write_list(w, HUDI_THRIFT_STRUCT, n);
    for (uint32_t i = 0; i < n; i++) enc_schema_element(&e, &m->schema[i]);
    hudi_thrift_write_field_i64(w, 3, m->num_rows);
    n = list_count(&e, m->n_row_groups, m->row_groups, "FileMetaData.row_groups");
    hudi_thrift_write_field(w, 4, HUDI_THRIFT_LIST);
    hudi_thrift_write_list(w, HUDI_THRIFT_STRUCT, n);
    for (uint32_t i = 0; i < n; i++) enc_row_group(&e, &m->row_groups[i]);
    if (m->n_key_value >= 0)
        enc_key_values(&e, 5, m->key_value, m->n_key_value, "FileMetaData.key_value_metadata");
    if (m->has_created_by) hudi_thrift_write_field_binary(w, 6, m->created_by);
    if (m->n_column_orders >= 0) {
        n = list_count(&e, m->n_column_orders, m->column_orders, "FileMetaData.column_orders");
        hudi_thrift_write_field(w, 7, HUDI_THRIFT_LIST);
        hudi_thrift_write_list(w, HUDI_THRIFT_STRUCT, n);
        for (uint32_t i = 0; i < n; i++) {
            /* A ColumnOrder union element: {member: {}} (or {} when unknown). */
            int32_t o = m->column_orders[i];
            hudi_thrift_write_struct_begin(w);
            if (o >= PQ_ORDER_TYPE && o <= PQ_ORDER_INT96) {
                hudi_thrift_write_field_struct(w, (int16_t)o);
                hudi_thrift_write_struct_end(w);
            }
            hudi_thrift_write_struct_end(w);
        }
    }
    if (m->has_encryption_algorithm) enc_empty_union(&e, 8, 0, 0);
    return finish(&e, start, err);
}

int hudi_pq_encode_page_header(hudi_buf *out, const pq_page_header *h, hudi_error *err) {
    enc e;
    size_t start = out->len;
    begin(&e, out);
    hudi_thrift_writer *w = &e.w;
    hudi_thrift_write_field_i32(w, 1, h->type);
    hudi_thrift_write_field_i32(w, 2, h->uncompressed_page_size);
    hudi_thrift_write_field_i32(w, 3, h->compressed_page_size);
    if (h->has_crc) hudi_thrift_write_field_i32(w, 4, h->crc);
    if (h->has_data_page_header) {
        const pq_data_page_header *d = &h->data_page_header;
        hudi_thrift_write_field_struct(w, 5);
        hudi_thrift_write_field_i32(w, 1, d->num_values);
        hudi_thrift_write_field_i32(w, 2, d->encoding);
        hudi_thrift_write_field_i32(w, 3, d->definition_level_encoding);
        hudi_thrift_write_field_i32(w, 4, d->repetition_level_encoding);
        if (d->has_statistics) enc_statistics(&e, 5, &d->statistics);
        hudi_thrift_write_struct_end(w);
    }
    if (h->has_dictionary_page_header) {
        const pq_dictionary_page_header *d = &h->dictionary_page_header;
        hudi_thrift_write_field_struct(w, 7);
        hudi_thrift_write_field_i32(w, 1, d->num_values);
        hudi_thrift_write_field_i32(w, 2, d->encoding);
        if (d->has_is_sorted) hudi_thrift_write_field_bool(w, 3, d->is_sorted);
        hudi_thrift_write_struct_end(w);
    }
    if (h->has_data_page_header_v2) {
        const pq_data_page_header_v2 *d = &h->data_page_header_v2;
        hudi_thrift_write_field_struct(w, 8);
        hudi_thrift_write_field_i32(w, 1, d->num_values);
        hudi_thrift_write_field_i32(w, 2, d->num_nulls);
        hudi_thrift_write_field_i32(w, 3, d->num_rows);
        hudi_thrift_write_field_i32(w, 4, d->encoding);
        hudi_thrift_write_field_i32(w, 5, d->definition_levels_byte_length);
        hudi_thrift_write_field_i32(w, 6, d->repetition_levels_byte_length);
        /* Only when false, like parquet-mr (the IDL default is true; arrow-cpp writes it
         * either way; meta.h keeps no presence flag). */
        if (!d->is_compressed) hudi_thrift_write_field_bool(w, 7, false);
        if (d->has_statistics) enc_statistics(&e, 8, &d->statistics);
        hudi_thrift_write_struct_end(w);
    }
    return finish(&e, start, err);
}

int hudi_pq_encode_offset_index(hudi_buf *out, const pq_offset_index *oi, hudi_error *err) {
    enc e;
    size_t start = out->len;
    begin(&e, out);
    hudi_thrift_writer *w = &e.w;
    uint32_t n =
        list_count(&e, oi->n_page_locations, oi->page_locations, "OffsetIndex.page_locations");
    hudi_thrift_write_field(w, 1, HUDI_THRIFT_LIST);
    hudi_thrift_write_list(w, HUDI_THRIFT_STRUCT, n);
    for (uint32_t i = 0; i < n; i++) {
        const pq_page_location *l = &oi->page_locations[i];
        hudi_thrift_write_struct_begin(w);
        hudi_thrift_write_field_i64(w, 1, l->offset);
        hudi_thrift_write_field_i32(w, 2, l->compressed_page_size);
        hudi_thrift_write_field_i64(w, 3, l->first_row_index);
        hudi_thrift_write_struct_end(w);
    }
    return finish(&e, start, err);
}

static void enc_i64_list(enc *e, int16_t field, const int64_t *v, uint32_t n) {
    hudi_thrift_write_field(&e->w, field, HUDI_THRIFT_LIST);
    hudi_thrift_write_list(&e->w, HUDI_THRIFT_I64, n);
    for (uint32_t i = 0; i < n; i++) hudi_thrift_write_i64(&e->w, v[i]);
}

int hudi_pq_encode_column_index(hudi_buf *out, const pq_column_index *ci, hudi_error *err) {
    enc e;
    size_t start = out->len;
    begin(&e, out);
    hudi_thrift_writer *w = &e.w;
    const char *what = "ColumnIndex";
    uint32_t n = list_count(&e, ci->n_pages, ci->null_pages, what);
    if (n && (!ci->min_values || !ci->max_values || (ci->has_null_counts && !ci->null_counts) ||
              (ci->has_nan_counts && !ci->nan_counts))) {
        e.bad = what;
        n = 0;
    }
    hudi_thrift_write_field(w, 1, HUDI_THRIFT_LIST);
    hudi_thrift_write_list(w, HUDI_THRIFT_TRUE, n);
    for (uint32_t i = 0; i < n; i++) hudi_thrift_write_bool_elem(w, ci->null_pages[i]);
    hudi_thrift_write_field(w, 2, HUDI_THRIFT_LIST);
    hudi_thrift_write_list(w, HUDI_THRIFT_BINARY, n);
    for (uint32_t i = 0; i < n; i++) hudi_thrift_write_binary(w, ci->min_values[i]);
    hudi_thrift_write_field(w, 3, HUDI_THRIFT_LIST);
    hudi_thrift_write_list(w, HUDI_THRIFT_BINARY, n);
    for (uint32_t i = 0; i < n; i++) hudi_thrift_write_binary(w, ci->max_values[i]);
    hudi_thrift_write_field_i32(w, 4, ci->boundary_order);
    if (ci->has_null_counts) enc_i64_list(&e, 5, ci->null_counts, n);
    if (ci->has_nan_counts) enc_i64_list(&e, 8, ci->nan_counts, n);
    return finish(&e, start, err);
}

int hudi_pq_encode_bloom_header(hudi_buf *out, const pq_bloom_header *h, hudi_error *err) {
    enc e;
    size_t start = out->len;
    begin(&e, out);
    hudi_thrift_write_field_i32(&e.w, 1, h->num_bytes);
    enc_empty_union(&e, 2, h->algorithm, 1);
    enc_empty_union(&e, 3, h->hash, 1);
    enc_empty_union(&e, 4, h->compression, 1);
    return finish(&e, start, err);
}
