/* meta_test.c - Parquet metadata decode/encode over every parquet-testing fixture: facts
 * from docs/formats/parquet.md §9, must-fail files, and round trips
 * (decode -> encode -> decode gives equal structs; re-encoding is byte-identical to what
 * parquet-mr / arrow / impala wrote, except where the file holds fields meta.h drops). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/parquet/meta.h"
#include "support.h"

/* ---- loading ---------------------------------------------------------------------------- */

typedef struct pfile {
    unsigned char *bytes;
    size_t len;
    hudi_slice footer; /* the FileMetaData bytes (§1.2) */
    hudi_arena arena;
    pq_file_meta meta;
} pfile;

/* Reads `path`; returns false when it is not a PAR1 parquet file (footer left empty). */
static bool load(pfile *f, const char *path) {
    memset(f, 0, sizeof(*f));
    f->bytes = test_read_file(path, &f->len);
    cr_assert_not_null(f->bytes, "cannot read %s", path);
    if (f->len < 12 || memcmp(f->bytes + f->len - 4, "PAR", 3) != 0) return false;
    uint32_t n = hudi_load_u32le(f->bytes + f->len - 8);
    if (n == 0 || n > f->len - 12) return false;
    f->footer = HUDI_SLICE(f->bytes + f->len - 8 - n, n);
    return memcmp(f->bytes + f->len - 4, "PAR1", 4) == 0;
}

static void open_ok(pfile *f, const char *rel) {
    char path[512];
    snprintf(path, sizeof(path), "parquet-testing/%s", rel);
    cr_assert(load(f, fixture_path(path)), "%s is not a parquet file", rel);
    hudi_error err = HUDI_ERROR_INIT;
    int rc = hudi_pq_decode_file_meta(&f->meta, &f->arena, f->footer, &err);
    cr_assert_eq(rc, 0, "%s: %s", rel, err.message);
}

static void pfile_free(pfile *f) {
    hudi_arena_dispose(&f->arena);
    free(f->bytes);
}

static bool slice_is(hudi_slice s, const char *str) {
    return hudi_slice_eq(s, hudi_slice_cstr(str));
}

static bool slice_starts(hudi_slice s, const char *str) {
    size_t n = strlen(str);
    return s.len >= n && memcmp(s.data, str, n) == 0;
}

static int leaf_count(const pq_file_meta *m) {
    int n = 0;
    for (int i = 0; i < m->n_schema; i++) n += m->schema[i].has_type;
    return n;
}

static int64_t row_group_rows(const pq_file_meta *m) {
    int64_t rows = 0;
    for (int i = 0; i < m->n_row_groups; i++) rows += m->row_groups[i].num_rows;
    return rows;
}

/* ---- deep equality ------------------------------------------------------------------------ */

#define EQ(a, b, f) ((a)->f == (b)->f)
#define SEQ(a, b, f) hudi_slice_eq((a)->f, (b)->f)

static bool eq_stats(const pq_statistics *a, const pq_statistics *b) {
    return EQ(a, b, has_max) && EQ(a, b, has_min) && EQ(a, b, has_null_count) &&
           EQ(a, b, has_distinct_count) && EQ(a, b, has_max_value) && EQ(a, b, has_min_value) &&
           EQ(a, b, has_is_max_value_exact) && EQ(a, b, has_is_min_value_exact) &&
           EQ(a, b, has_nan_count) && SEQ(a, b, max) && SEQ(a, b, min) && EQ(a, b, null_count) &&
           EQ(a, b, distinct_count) && SEQ(a, b, max_value) && SEQ(a, b, min_value) &&
           EQ(a, b, is_max_value_exact) && EQ(a, b, is_min_value_exact) && EQ(a, b, nan_count);
}

static bool eq_kvs(const pq_key_value *a, const pq_key_value *b, int32_t n) {
    for (int32_t i = 0; i < n; i++)
        if (!SEQ(&a[i], &b[i], key) || !EQ(&a[i], &b[i], has_value) || !SEQ(&a[i], &b[i], value))
            return false;
    return true;
}

static bool eq_lt(const pq_logical_type *a, const pq_logical_type *b) {
    return EQ(a, b, kind) && EQ(a, b, scale) && EQ(a, b, precision) &&
           EQ(a, b, is_adjusted_to_utc) && EQ(a, b, unit) && EQ(a, b, bit_width) &&
           EQ(a, b, is_signed);
}

static bool eq_schema(const pq_schema_element *a, const pq_schema_element *b) {
    return EQ(a, b, has_type) && EQ(a, b, type) && EQ(a, b, has_type_length) &&
           EQ(a, b, type_length) && EQ(a, b, has_repetition) && EQ(a, b, repetition) &&
           SEQ(a, b, name) && EQ(a, b, num_children) && EQ(a, b, has_converted_type) &&
           EQ(a, b, converted_type) && EQ(a, b, has_scale) && EQ(a, b, has_precision) &&
           EQ(a, b, scale) && EQ(a, b, precision) && EQ(a, b, has_field_id) && EQ(a, b, field_id) &&
           EQ(a, b, has_logical_type) && eq_lt(&a->logical_type, &b->logical_type);
}

static bool eq_column_meta(const pq_column_meta *a, const pq_column_meta *b) {
    if (!(EQ(a, b, type) && EQ(a, b, n_encodings) && EQ(a, b, n_path) && EQ(a, b, codec) &&
          EQ(a, b, num_values) && EQ(a, b, total_uncompressed_size) &&
          EQ(a, b, total_compressed_size) && EQ(a, b, n_key_value) && EQ(a, b, data_page_offset) &&
          EQ(a, b, has_index_page_offset) && EQ(a, b, index_page_offset) &&
          EQ(a, b, has_dictionary_page_offset) && EQ(a, b, dictionary_page_offset) &&
          EQ(a, b, has_statistics) && eq_stats(&a->statistics, &b->statistics) &&
          EQ(a, b, n_encoding_stats) && EQ(a, b, has_bloom_filter_offset) &&
          EQ(a, b, bloom_filter_offset) && EQ(a, b, has_bloom_filter_length) &&
          EQ(a, b, bloom_filter_length)))
        return false;
    for (int32_t i = 0; i < a->n_encodings; i++)
        if (a->encodings[i] != b->encodings[i]) return false;
    for (int32_t i = 0; i < a->n_path; i++)
        if (!hudi_slice_eq(a->path_in_schema[i], b->path_in_schema[i])) return false;
    for (int32_t i = 0; i < a->n_encoding_stats; i++)
        if (memcmp(&a->encoding_stats[i], &b->encoding_stats[i], sizeof(pq_page_encoding_stats)))
            return false;
    return eq_kvs(a->key_value, b->key_value, a->n_key_value);
}

static bool eq_chunk(const pq_column_chunk *a, const pq_column_chunk *b) {
    return EQ(a, b, has_file_path) && SEQ(a, b, file_path) && EQ(a, b, file_offset) &&
           EQ(a, b, has_meta_data) && eq_column_meta(&a->meta_data, &b->meta_data) &&
           EQ(a, b, has_offset_index) && EQ(a, b, offset_index_offset) &&
           EQ(a, b, offset_index_length) && EQ(a, b, has_column_index) &&
           EQ(a, b, column_index_offset) && EQ(a, b, column_index_length) &&
           EQ(a, b, has_crypto_metadata) && EQ(a, b, has_encrypted_column_metadata);
}

static bool eq_row_group(const pq_row_group *a, const pq_row_group *b) {
    if (!(EQ(a, b, n_columns) && EQ(a, b, total_byte_size) && EQ(a, b, num_rows) &&
          EQ(a, b, n_sorting_columns) && EQ(a, b, has_file_offset) && EQ(a, b, file_offset) &&
          EQ(a, b, has_total_compressed_size) && EQ(a, b, total_compressed_size) &&
          EQ(a, b, has_ordinal) && EQ(a, b, ordinal)))
        return false;
    for (int32_t i = 0; i < a->n_columns; i++)
        if (!eq_chunk(&a->columns[i], &b->columns[i])) return false;
    for (int32_t i = 0; i < a->n_sorting_columns; i++) {
        const pq_sorting_column *x = &a->sorting_columns[i], *y = &b->sorting_columns[i];
        if (!EQ(x, y, column_idx) || !EQ(x, y, descending) || !EQ(x, y, nulls_first)) return false;
    }
    return true;
}

static bool eq_file_meta(const pq_file_meta *a, const pq_file_meta *b) {
    if (!(EQ(a, b, version) && EQ(a, b, n_schema) && EQ(a, b, num_rows) && EQ(a, b, n_row_groups) &&
          EQ(a, b, n_key_value) && EQ(a, b, has_created_by) && SEQ(a, b, created_by) &&
          EQ(a, b, n_column_orders) && EQ(a, b, has_encryption_algorithm)))
        return false;
    for (int32_t i = 0; i < a->n_schema; i++)
        if (!eq_schema(&a->schema[i], &b->schema[i])) return false;
    for (int32_t i = 0; i < a->n_row_groups; i++)
        if (!eq_row_group(&a->row_groups[i], &b->row_groups[i])) return false;
    for (int32_t i = 0; i < a->n_column_orders; i++)
        if (a->column_orders[i] != b->column_orders[i]) return false;
    return eq_kvs(a->key_value, b->key_value, a->n_key_value);
}

static bool eq_page_header(const pq_page_header *a, const pq_page_header *b) {
    const pq_data_page_header *d1 = &a->data_page_header, *d2 = &b->data_page_header;
    const pq_data_page_header_v2 *v1 = &a->data_page_header_v2, *v2 = &b->data_page_header_v2;
    const pq_dictionary_page_header *x = &a->dictionary_page_header,
                                    *y = &b->dictionary_page_header;
    return EQ(a, b, type) && EQ(a, b, uncompressed_page_size) && EQ(a, b, compressed_page_size) &&
           EQ(a, b, has_crc) && EQ(a, b, crc) && EQ(a, b, has_data_page_header) &&
           EQ(a, b, has_dictionary_page_header) && EQ(a, b, has_data_page_header_v2) &&
           EQ(d1, d2, num_values) && EQ(d1, d2, encoding) &&
           EQ(d1, d2, definition_level_encoding) && EQ(d1, d2, repetition_level_encoding) &&
           EQ(d1, d2, has_statistics) && eq_stats(&d1->statistics, &d2->statistics) &&
           EQ(v1, v2, num_values) && EQ(v1, v2, num_nulls) && EQ(v1, v2, num_rows) &&
           EQ(v1, v2, encoding) && EQ(v1, v2, definition_levels_byte_length) &&
           EQ(v1, v2, repetition_levels_byte_length) && EQ(v1, v2, is_compressed) &&
           EQ(v1, v2, has_statistics) && eq_stats(&v1->statistics, &v2->statistics) &&
           EQ(x, y, num_values) && EQ(x, y, encoding) && EQ(x, y, has_is_sorted) &&
           EQ(x, y, is_sorted);
}

static bool eq_column_index(const pq_column_index *a, const pq_column_index *b) {
    if (!(EQ(a, b, n_pages) && EQ(a, b, boundary_order) && EQ(a, b, has_null_counts) &&
          EQ(a, b, has_nan_counts)))
        return false;
    for (int32_t i = 0; i < a->n_pages; i++) {
        if (a->null_pages[i] != b->null_pages[i] ||
            !hudi_slice_eq(a->min_values[i], b->min_values[i]) ||
            !hudi_slice_eq(a->max_values[i], b->max_values[i]))
            return false;
        if (a->has_null_counts && a->null_counts[i] != b->null_counts[i]) return false;
        if (a->has_nan_counts && a->nan_counts[i] != b->nan_counts[i]) return false;
    }
    return true;
}

static bool eq_offset_index(const pq_offset_index *a, const pq_offset_index *b) {
    if (a->n_page_locations != b->n_page_locations) return false;
    for (int32_t i = 0; i < a->n_page_locations; i++) {
        const pq_page_location *x = &a->page_locations[i], *y = &b->page_locations[i];
        if (!EQ(x, y, offset) || !EQ(x, y, compressed_page_size) || !EQ(x, y, first_row_index))
            return false;
    }
    return true;
}

/* ---- every fixture ----------------------------------------------------------------------- */

/* Footers that hold fields meta.h does not keep, so re-encoding is shorter:
 * size_statistics (ColumnMetaData 16), Dremio's list field 15, LogicalType member 2555. */
static const char *const lossy_footers[] = {
    "binary_truncated_min_max.parquet", "dict-page-offset-zero.parquet",
    "old_list_structure.parquet", "unknown-logical-type.parquet"};
static const char *const corrupt_footers[] = {"PARQUET-1481.parquet", "ARROW-GH-41317.parquet"};

static bool in_list(const char *name, const char *const *list, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(name, list[i]) == 0) return true;
    return false;
}

static hudi_slice at(const pfile *f, int64_t off, int64_t len) {
    if (off < 0 || len < 0 || (uint64_t)off > f->len || (uint64_t)len > f->len - (uint64_t)off)
        return HUDI_SLICE(NULL, 0);
    return HUDI_SLICE(f->bytes + off, (size_t)len);
}

/* Page header, column index and offset index of every chunk: decode, re-encode, compare. */
static void check_chunk_structs(pfile *f, const char *name, int *pages, int *indexes) {
    hudi_error err = HUDI_ERROR_INIT;
    bool bad_pages = strcmp(name, "ARROW-RS-GH-6229-DICTHEADER.parquet") == 0;
    for (int g = 0; g < f->meta.n_row_groups; g++) {
        for (int c = 0; c < f->meta.row_groups[g].n_columns; c++) {
            const pq_column_chunk *cc = &f->meta.row_groups[g].columns[c];
            const pq_column_meta *m = &cc->meta_data;
            int64_t start = m->data_page_offset;
            if (m->has_dictionary_page_offset && m->dictionary_page_offset > 0 &&
                (start == 0 || m->dictionary_page_offset < start))
                start = m->dictionary_page_offset;
            hudi_slice in = start > 0 ? at(f, start, (int64_t)f->len - start) : HUDI_SLICE(NULL, 0);
            if (!bad_pages && in.len && cc->has_meta_data) {
                pq_page_header h, h2;
                size_t used = 0, used2 = 0;
                cr_assert_eq(hudi_pq_decode_page_header(&h, &f->arena, in, &used, &err), 0,
                             "%s col %d: %s", name, c, err.message);
                hudi_buf b = HUDI_BUF_INIT;
                cr_assert_eq(hudi_pq_encode_page_header(&b, &h, &err), 0);
                cr_assert_eq(hudi_pq_decode_page_header(&h2, &f->arena, HUDI_SLICE(b.data, b.len),
                                                        &used2, &err),
                             0);
                cr_assert(eq_page_header(&h, &h2), "%s col %d: page header round trip", name, c);
                /* DataPageHeaderV2.is_compressed = true: parquet-mr omits it (as we do),
                 * arrow-cpp writes it (one byte more). Everything else is byte-identical. */
                if (h.has_data_page_header_v2 && h.data_page_header_v2.is_compressed)
                    cr_assert(b.len == used || b.len + 1 == used, "%s col %d", name, c);
                else
                    cr_assert(b.len == used && memcmp(b.data, in.data, used) == 0,
                              "%s col %d: page header re-encoding differs", name, c);
                hudi_buf_dispose(&b);
                (*pages)++;
            }
            if (cc->has_column_index) {
                hudi_slice ci_in = at(f, cc->column_index_offset, cc->column_index_length);
                pq_column_index ci, ci2;
                cr_assert_eq(hudi_pq_decode_column_index(&ci, &f->arena, ci_in, &err), 0,
                             "%s col %d: %s", name, c, err.message);
                hudi_buf b = HUDI_BUF_INIT;
                cr_assert_eq(hudi_pq_encode_column_index(&b, &ci, &err), 0);
                cr_assert_eq(
                    hudi_pq_decode_column_index(&ci2, &f->arena, HUDI_SLICE(b.data, b.len), &err),
                    0);
                cr_assert(eq_column_index(&ci, &ci2), "%s col %d: column index", name, c);
                hudi_buf_dispose(&b);
                (*indexes)++;
            }
            if (cc->has_offset_index) {
                hudi_slice oi_in = at(f, cc->offset_index_offset, cc->offset_index_length);
                pq_offset_index oi, oi2;
                cr_assert_eq(hudi_pq_decode_offset_index(&oi, &f->arena, oi_in, &err), 0,
                             "%s col %d: %s", name, c, err.message);
                hudi_buf b = HUDI_BUF_INIT;
                cr_assert_eq(hudi_pq_encode_offset_index(&b, &oi, &err), 0);
                /* parquet-rs 55 also writes unencoded_byte_array_data_bytes (field 2). */
                if (strcmp(name, "binary_truncated_min_max.parquet") != 0)
                    cr_assert(b.len == oi_in.len && memcmp(b.data, oi_in.data, b.len) == 0,
                              "%s col %d: offset index re-encoding differs", name, c);
                cr_assert_eq(
                    hudi_pq_decode_offset_index(&oi2, &f->arena, HUDI_SLICE(b.data, b.len), &err),
                    0);
                cr_assert(eq_offset_index(&oi, &oi2));
                hudi_buf_dispose(&b);
                (*indexes)++;
            }
        }
    }
}

static void check_dir(const char *dir, int *decoded, int *failed, int *pages, int *indexes) {
    DIR *d = opendir(fixture_path(dir));
    cr_assert_not_null(d, "cannot list %s", dir);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", fixture_path(dir), e->d_name);
        pfile f;
        bool par1 = load(&f, path);
        hudi_error err = HUDI_ERROR_INIT;
        if (!f.footer.len) { /* not parquet (csv, bloom blobs) */
            pfile_free(&f);
            continue;
        }
        int rc = hudi_pq_decode_file_meta(&f.meta, &f.arena, f.footer, &err);
        if (!par1) {
            /* PARE: the footer is FileCryptoMetaData + ciphertext. Refusing the magic is the
             * file reader's job; the decoder just must not crash (any result is fine). */
            pfile_free(&f);
            continue;
        }
        if (in_list(e->d_name, corrupt_footers, HUDI_ARRAY_LEN(corrupt_footers))) {
            cr_assert_eq(rc, HUDI_ECORRUPT, "%s decoded", e->d_name);
            (*failed)++;
            pfile_free(&f);
            continue;
        }
        cr_assert_eq(rc, 0, "%s: %s", e->d_name, err.message);
        (*decoded)++;

        hudi_buf b = HUDI_BUF_INIT;
        cr_assert_eq(hudi_pq_encode_file_meta(&b, &f.meta, &err), 0, "%s: %s", e->d_name,
                     err.message);
        pq_file_meta again;
        hudi_arena arena2 = HUDI_ARENA_INIT;
        cr_assert_eq(hudi_pq_decode_file_meta(&again, &arena2, HUDI_SLICE(b.data, b.len), &err), 0,
                     "%s re-decode: %s", e->d_name, err.message);
        cr_assert(eq_file_meta(&f.meta, &again), "%s: round trip changed the footer", e->d_name);
        if (!in_list(e->d_name, lossy_footers, HUDI_ARRAY_LEN(lossy_footers)))
            cr_assert(b.len == f.footer.len && memcmp(b.data, f.footer.data, b.len) == 0,
                      "%s: re-encoded footer differs from the writer's bytes", e->d_name);
        else
            cr_assert_lt(b.len, f.footer.len);
        hudi_arena_dispose(&arena2);
        hudi_buf_dispose(&b);
        check_chunk_structs(&f, e->d_name, pages, indexes);
        pfile_free(&f);
    }
    closedir(d);
}

Test(meta, every_fixture_footer_decodes_and_round_trips) {
    int decoded = 0, failed = 0, pages = 0, indexes = 0;
    check_dir("parquet-testing/data", &decoded, &failed, &pages, &indexes);
    check_dir("parquet-testing/bad_data", &decoded, &failed, &pages, &indexes);
    cr_assert_geq(decoded, 50, "only %d footers decoded", decoded);
    cr_assert_eq(failed, 2);
    cr_assert_geq(pages, 100);
    cr_assert_geq(indexes, 40);
}

/* ---- facts of parquet.md §9 ----------------------------------------------------------------- */

Test(meta, alltypes_plain) {
    pfile f;
    open_ok(&f, "data/alltypes_plain.parquet");
    const pq_file_meta *m = &f.meta;
    cr_assert_eq(m->num_rows, 8);
    cr_assert_eq(row_group_rows(m), 8);
    cr_assert_eq(m->n_schema, 12);
    cr_assert_eq(leaf_count(m), 11);
    cr_assert_eq(m->schema[0].num_children, 11);
    cr_assert(slice_is(m->schema[0].name, "schema"));
    cr_assert(slice_starts(m->created_by, "impala version 1.3.0-INTERNAL (build 8a48ddb"));
    cr_assert_eq(m->n_column_orders, -1);
    cr_assert_eq(m->n_key_value, -1);
    static const char *names[] = {
        "id",        "bool_col",   "tinyint_col",     "smallint_col", "int_col",      "bigint_col",
        "float_col", "double_col", "date_string_col", "string_col",   "timestamp_col"};
    static const int types[] = {PQ_INT32,      PQ_BOOLEAN,    PQ_INT32, PQ_INT32,
                                PQ_INT32,      PQ_INT64,      PQ_FLOAT, PQ_DOUBLE,
                                PQ_BYTE_ARRAY, PQ_BYTE_ARRAY, PQ_INT96};
    cr_assert_eq(m->n_row_groups, 1);
    const pq_row_group *g = &m->row_groups[0];
    cr_assert_eq(g->n_columns, 11);
    for (int i = 0; i < 11; i++) {
        const pq_schema_element *e = &m->schema[i + 1];
        cr_assert(slice_is(e->name, names[i]), "column %d", i);
        cr_assert(e->has_type && e->type == types[i], "column %d type", i);
        cr_assert(e->has_repetition && e->repetition == PQ_OPTIONAL);
        cr_assert_not(e->has_converted_type); /* unannotated strings */
        const pq_column_meta *cm = &g->columns[i].meta_data;
        cr_assert(g->columns[i].has_meta_data);
        cr_assert_eq(cm->type, types[i]);
        cr_assert_eq(cm->n_path, 1);
        cr_assert(slice_is(cm->path_in_schema[0], names[i]));
        cr_assert_eq(cm->num_values, 8);
        cr_assert_eq(cm->codec, PQ_CODEC_UNCOMPRESSED);
    }
    /* The chunk lists RLE, PLAIN_DICTIONARY, PLAIN; the BIT_PACKED rep-level label is only
     * in the data page header. */
    const pq_column_meta *id = &g->columns[0].meta_data;
    cr_assert_eq(id->n_encodings, 3);
    cr_assert(id->encodings[0] == PQ_ENC_RLE && id->encodings[1] == PQ_ENC_PLAIN_DICTIONARY &&
              id->encodings[2] == PQ_ENC_PLAIN);
    cr_assert(id->has_dictionary_page_offset && id->dictionary_page_offset == 4);
    cr_assert_eq(id->data_page_offset, 49);
    pq_page_header h;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(
        hudi_pq_decode_page_header(&h, &f.arena, HUDI_SLICE(f.bytes + 49, f.len - 49), NULL, &err),
        0, "%s", err.message);
    cr_assert_eq(h.type, PQ_PAGE_DATA);
    cr_assert_eq(h.data_page_header.num_values, 8);
    cr_assert_eq(h.data_page_header.encoding, PQ_ENC_PLAIN_DICTIONARY);
    cr_assert_eq(h.data_page_header.definition_level_encoding, PQ_ENC_RLE);
    cr_assert_eq(h.data_page_header.repetition_level_encoding, PQ_ENC_BIT_PACKED);
    cr_assert_eq(
        hudi_pq_decode_page_header(&h, &f.arena, HUDI_SLICE(f.bytes + 4, f.len - 4), NULL, &err), 0,
        "%s", err.message);
    cr_assert_eq(h.type, PQ_PAGE_DICTIONARY);
    cr_assert_eq(h.dictionary_page_header.num_values, 8);
    pfile_free(&f);
}

Test(meta, repeated_no_annotation_num_rows_is_wrong) {
    pfile f;
    open_ok(&f, "data/repeated_no_annotation.parquet");
    cr_assert_eq(f.meta.num_rows, 0);
    cr_assert_eq(row_group_rows(&f.meta), 6);
    cr_assert(slice_starts(f.meta.created_by, "parquet-rs version 0.3.0"));
    pfile_free(&f);
}

Test(meta, created_by_strings) {
    static const struct {
        const char *file, *created_by;
    } cases[] = {
        {"data/alltypes_tiny_pages.parquet", "parquet-mr version 1.12.0-SNAPSHOT (build "},
        {"data/binary_truncated_min_max.parquet", "parquet-rs version 55.1.0"},
        {"data/byte_array_decimal.parquet", "HVR 5.3.0/9 (linux_glibc2.5-x64-64bit)"},
        {"data/byte_stream_split.zstd.parquet", "parquet-cpp-arrow version 14.0.2"},
        {"data/nation.dict-malformed.parquet", "parquet-mr"},
        {"data/nested_structs.rust.parquet", "UrbanLogiq"},
        {"data/overflow_i16_page_cnt.parquet", "cpp version BuildInfo:"},
        {"bad_data/ARROW-GH-43605.parquet", "Polars"},
    };
    for (size_t i = 0; i < HUDI_ARRAY_LEN(cases); i++) {
        pfile f;
        open_ok(&f, cases[i].file);
        cr_assert(f.meta.has_created_by);
        cr_assert(slice_starts(f.meta.created_by, cases[i].created_by), "%s", cases[i].file);
        pfile_free(&f);
    }
    pfile f;
    open_ok(&f, "data/nation.dict-malformed.parquet");
    cr_assert(slice_is(f.meta.created_by, "parquet-mr")); /* no version at all */
    pfile_free(&f);
    open_ok(&f, "data/rle_boolean_encoding.parquet");
    cr_assert_not(f.meta.has_created_by);
    pfile_free(&f);
}

Test(meta, alltypes_tiny_pages_page_index) {
    pfile f;
    open_ok(&f, "data/alltypes_tiny_pages.parquet");
    const pq_file_meta *m = &f.meta;
    cr_assert_eq(row_group_rows(m), 7300);
    cr_assert_eq(leaf_count(m), 13);
    cr_assert_eq(m->n_column_orders, 13);
    for (int i = 0; i < 13; i++) cr_assert_eq(m->column_orders[i], PQ_ORDER_TYPE);
    const pq_row_group *g = &m->row_groups[0];
    for (int i = 0; i < g->n_columns; i++) {
        cr_assert(g->columns[i].has_offset_index, "column %d", i);
        cr_assert_gt(g->columns[i].offset_index_length, 0);
        /* No ColumnIndex for timestamp_col (leaf 10): INT96 has no defined order. */
        cr_assert_eq(g->columns[i].has_column_index, i != 10, "column %d", i);
    }
    cr_assert(slice_is(g->columns[10].meta_data.path_in_schema[0], "timestamp_col"));
    cr_assert_eq(m->schema[3].logical_type.kind, PQ_LT_INTEGER);
    cr_assert_eq(m->schema[3].logical_type.bit_width, 8);
    cr_assert(m->schema[3].logical_type.is_signed);
    cr_assert_eq(m->schema[3].converted_type, PQ_CT_INT_8);
    cr_assert_eq(m->schema[10].logical_type.kind, PQ_LT_STRING);
    /* tinyint_col: data_page_offset points at the dictionary page, no dictionary offset
     * (§8 item 1), and its OffsetIndex starts at 40404. */
    const pq_column_chunk *tiny = &g->columns[2];
    cr_assert(slice_is(tiny->meta_data.path_in_schema[0], "tinyint_col"));
    cr_assert_eq(tiny->meta_data.data_page_offset, 40351);
    cr_assert_not(tiny->meta_data.has_dictionary_page_offset);
    hudi_error err = HUDI_ERROR_INIT;
    pq_page_header h;
    cr_assert_eq(hudi_pq_decode_page_header(&h, &f.arena,
                                            HUDI_SLICE(f.bytes + 40351, f.len - 40351), NULL, &err),
                 0, "%s", err.message);
    cr_assert_eq(h.type, PQ_PAGE_DICTIONARY);
    cr_assert(h.has_dictionary_page_header);
    cr_assert_eq(h.dictionary_page_header.num_values, 10);
    pq_offset_index oi;
    cr_assert_eq(hudi_pq_decode_offset_index(&oi, &f.arena,
                                             HUDI_SLICE(f.bytes + tiny->offset_index_offset,
                                                        (size_t)tiny->offset_index_length),
                                             &err),
                 0, "%s", err.message);
    cr_assert_gt(oi.n_page_locations, 1);
    cr_assert_eq(oi.page_locations[0].offset, 40404);
    cr_assert_eq(oi.page_locations[0].first_row_index, 0);
    for (int i = 1; i < oi.n_page_locations; i++)
        cr_assert_gt(oi.page_locations[i].first_row_index,
                     oi.page_locations[i - 1].first_row_index);

    /* id column: 325 tiny pages */
    const pq_column_chunk *id = &g->columns[0];
    cr_assert_eq(hudi_pq_decode_offset_index(
                     &oi, &f.arena,
                     HUDI_SLICE(f.bytes + id->offset_index_offset, (size_t)id->offset_index_length),
                     &err),
                 0);
    cr_assert_eq(oi.n_page_locations, 325);
    pq_column_index ci;
    cr_assert_eq(hudi_pq_decode_column_index(
                     &ci, &f.arena,
                     HUDI_SLICE(f.bytes + id->column_index_offset, (size_t)id->column_index_length),
                     &err),
                 0, "%s", err.message);
    cr_assert_eq(ci.n_pages, 325);
    cr_assert(ci.has_null_counts);
    for (int i = 0; i < ci.n_pages; i++) {
        cr_assert_not(ci.null_pages[i]);
        cr_assert_eq(ci.null_counts[i], 0);
        cr_assert_eq(ci.min_values[i].len, 4);
    }
    pfile_free(&f);
}

Test(meta, column_chunk_key_value_without_value) {
    pfile f;
    open_ok(&f, "data/column_chunk_key_value_metadata.parquet");
    cr_assert_eq(row_group_rows(&f.meta), 0);
    cr_assert_eq(leaf_count(&f.meta), 2);
    const pq_column_chunk *c = &f.meta.row_groups[0].columns[0];
    cr_assert_eq(c->meta_data.data_page_offset, 0); /* arrow 17, empty chunk (§1.4) */
    cr_assert_eq(c->meta_data.n_key_value, 2);
    const pq_key_value *kv = c->meta_data.key_value;
    cr_assert(slice_is(kv[0].key, "foo"));
    cr_assert(kv[0].has_value && slice_is(kv[0].value, "bar"));
    cr_assert(slice_is(kv[1].key, "thisiskeywithoutvalue"));
    cr_assert_not(kv[1].has_value);
    cr_assert_eq(f.meta.row_groups[0].columns[1].meta_data.n_key_value, 0);
    pfile_free(&f);
}

Test(meta, dremio_list_typed_field_15_is_skipped) {
    pfile f;
    open_ok(&f, "data/dict-page-offset-zero.parquet");
    cr_assert_eq(row_group_rows(&f.meta), 39);
    const pq_column_meta *cm = &f.meta.row_groups[0].columns[0].meta_data;
    cr_assert(cm->has_dictionary_page_offset);
    cr_assert_eq(cm->dictionary_page_offset, 0);
    cr_assert_not(cm->has_bloom_filter_length);
    cr_assert_eq(cm->type, PQ_INT32);
    pfile_free(&f);
}

Test(meta, unknown_logical_type_member_degrades) {
    pfile f;
    open_ok(&f, "data/unknown-logical-type.parquet");
    const pq_file_meta *m = &f.meta;
    cr_assert_eq(m->n_schema, 3);
    cr_assert(slice_is(m->schema[1].name, "column with known type"));
    cr_assert(m->schema[1].has_logical_type);
    cr_assert_eq(m->schema[1].logical_type.kind, PQ_LT_STRING);
    cr_assert(m->schema[2].has_logical_type);
    cr_assert_eq(m->schema[2].logical_type.kind, PQ_LT_NONE);
    cr_assert_eq(m->schema[2].type, PQ_BYTE_ARRAY);
    pfile_free(&f);
}

Test(meta, logical_types_and_decimals) {
    pfile f;
    open_ok(&f, "data/float16_nonzeros_and_nans.parquet");
    const pq_schema_element *e = &f.meta.schema[1];
    cr_assert_eq(e->type, PQ_FIXED_LEN_BYTE_ARRAY);
    cr_assert_eq(e->type_length, 2);
    cr_assert_eq(e->logical_type.kind, PQ_LT_FLOAT16);
    const pq_statistics *s = &f.meta.row_groups[0].columns[0].meta_data.statistics;
    cr_assert(s->has_null_count && s->null_count == 1);
    pfile_free(&f);

    open_ok(&f, "data/fixed_length_decimal.parquet");
    e = &f.meta.schema[1];
    cr_assert_eq(e->type, PQ_FIXED_LEN_BYTE_ARRAY);
    cr_assert_eq(e->type_length, 11);
    cr_assert(e->has_converted_type && e->converted_type == PQ_CT_DECIMAL);
    cr_assert(e->has_precision && e->precision == 25);
    cr_assert(e->has_scale && e->scale == 2);
    pfile_free(&f);

    open_ok(&f, "data/int96_from_spark.parquet");
    cr_assert_eq(f.meta.schema[1].type, PQ_INT96);
    pfile_free(&f);

    open_ok(&f, "data/null_list.parquet");
    bool unknown = false;
    for (int i = 0; i < f.meta.n_schema; i++)
        unknown |= f.meta.schema[i].logical_type.kind == PQ_LT_UNKNOWN;
    cr_assert(unknown, "null_list.parquet has an UNKNOWN (null) logical type");
    pfile_free(&f);
}

Test(meta, statistics_exactness_and_nan_counts) {
    pfile f;
    open_ok(&f, "data/binary_truncated_min_max.parquet");
    bool found = false;
    for (int i = 0; i < f.meta.row_groups[0].n_columns; i++) {
        const pq_column_meta *cm = &f.meta.row_groups[0].columns[i].meta_data;
        if (!slice_is(cm->path_in_schema[0], "utf8_full_truncation")) continue;
        const pq_statistics *s = &cm->statistics;
        cr_assert(s->has_min_value && slice_is(s->min_value, "Al"));
        cr_assert(s->has_max_value && slice_is(s->max_value, "Kf"));
        cr_assert(s->has_is_min_value_exact && !s->is_min_value_exact);
        cr_assert(s->has_is_max_value_exact && !s->is_max_value_exact);
        found = true;
    }
    cr_assert(found);
    pfile_free(&f);

    open_ok(&f, "data/floating_orders_nan_count.parquet");
    cr_assert_eq(f.meta.n_row_groups, 5);
    cr_assert_eq(f.meta.n_column_orders, 6);
    int ieee = 0;
    for (int i = 0; i < 6; i++) {
        const pq_schema_element *e = &f.meta.schema[i + 1];
        bool is_ieee =
            e->name.len > 8 && memcmp(e->name.data + e->name.len - 8, "_ieee754", 8) == 0;
        cr_assert_eq(f.meta.column_orders[i], is_ieee ? PQ_ORDER_IEEE754_TOTAL : PQ_ORDER_TYPE);
        ieee += is_ieee;
    }
    cr_assert_gt(ieee, 0);
    /* RG2 is all NaN */
    const pq_statistics *s = &f.meta.row_groups[2].columns[0].meta_data.statistics;
    cr_assert(s->has_nan_count && s->nan_count == 10);
    pfile_free(&f);
}

Test(meta, encoding_stats_and_bloom_header) {
    pfile f;
    open_ok(&f, "data/data_index_bloom_encoding_stats.parquet");
    const pq_column_chunk *c = &f.meta.row_groups[0].columns[0];
    const pq_column_meta *cm = &c->meta_data;
    cr_assert_gt(cm->n_encoding_stats, 0);
    cr_assert(cm->has_bloom_filter_offset);
    cr_assert_not(cm->has_bloom_filter_length);
    cr_assert(cm->statistics.has_min_value && slice_is(cm->statistics.min_value, "Hello"));
    cr_assert(cm->statistics.has_max_value && slice_is(cm->statistics.max_value, "today"));
    cr_assert(c->has_column_index && c->has_offset_index);
    pq_bloom_header bh;
    size_t used = 0;
    hudi_error err = HUDI_ERROR_INIT;
    int64_t off = cm->bloom_filter_offset;
    cr_assert_eq(hudi_pq_decode_bloom_header(&bh, HUDI_SLICE(f.bytes + off, f.len - (size_t)off),
                                             &used, &err),
                 0, "%s", err.message);
    cr_assert(bh.num_bytes > 0 && bh.algorithm == 1 && bh.hash == 1 && bh.compression == 1);
    cr_assert_lt(used, 32);
    pfile_free(&f);

    /* The same header in the standalone blob of thrift.md §8. */
    size_t len;
    unsigned char *blob =
        test_read_file(fixture_path("parquet-testing/data/bloom_filter.xxhash.bin"), &len);
    cr_assert_not_null(blob);
    cr_assert_eq(hudi_pq_decode_bloom_header(&bh, HUDI_SLICE(blob, len), &used, &err), 0);
    cr_assert_eq(used, 16);
    cr_assert_eq(bh.num_bytes, 1024);
    cr_assert_eq(len, 16 + 1024);
    free(blob);
}

Test(meta, first_page_headers) {
    hudi_error err = HUDI_ERROR_INIT;
    pfile f;
    open_ok(&f, "data/datapage_v2.snappy.parquet");
    /* column b: a v2 data page (no dictionary) */
    const pq_column_meta *b = &f.meta.row_groups[0].columns[1].meta_data;
    pq_page_header h;
    int64_t off = b->data_page_offset;
    cr_assert_eq(hudi_pq_decode_page_header(
                     &h, &f.arena, HUDI_SLICE(f.bytes + off, f.len - (size_t)off), NULL, &err),
                 0);
    cr_assert_eq(h.type, PQ_PAGE_DATA_V2);
    cr_assert(h.has_data_page_header_v2);
    cr_assert_eq(h.data_page_header_v2.num_values, 5);
    cr_assert_eq(h.data_page_header_v2.num_rows, 5);
    cr_assert(h.data_page_header_v2.is_compressed);
    pfile_free(&f);

    open_ok(&f, "data/datapage_v1-uncompressed-checksum.parquet");
    const pq_column_meta *a = &f.meta.row_groups[0].columns[0].meta_data;
    cr_assert_eq(a->data_page_offset, 4);
    cr_assert_eq(
        hudi_pq_decode_page_header(&h, &f.arena, HUDI_SLICE(f.bytes + 4, f.len - 4), NULL, &err),
        0);
    cr_assert(h.has_crc && (uint32_t)h.crc == 3150855069u);
    cr_assert_eq(h.data_page_header.num_values, 2560);
    pfile_free(&f);

    /* v2 header without is_compressed defaults to compressed */
    static const uint8_t v2[] = {0x15, 0x06, 0x15, 0x02, 0x15, 0x02, 0x5C, 0x15, 0x02, 0x15, 0x00,
                                 0x15, 0x02, 0x15, 0x00, 0x15, 0x00, 0x15, 0x00, 0x00, 0x00};
    cr_assert_eq(hudi_pq_decode_page_header(&h, &f.arena, HUDI_SLICE(v2, sizeof(v2)), NULL, &err),
                 0, "%s", err.message);
    cr_assert(h.has_data_page_header_v2 && h.data_page_header_v2.is_compressed);
    hudi_arena_dispose(&f.arena);
}

/* ---- must-fail ------------------------------------------------------------------------------ */

Test(meta, parquet_1481_invalid_physical_type) {
    pfile f;
    cr_assert(load(&f, fixture_path("parquet-testing/bad_data/PARQUET-1481.parquet")));
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_decode_file_meta(&f.meta, &f.arena, f.footer, &err), HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "invalid physical type -7"), "%s", err.message);
    cr_assert_eq(f.meta.n_schema, 0); /* out is zeroed on failure */
    pfile_free(&f);
}

Test(meta, arrow_gh_41317_list_element_type) {
    pfile f;
    cr_assert(load(&f, fixture_path("parquet-testing/bad_data/ARROW-GH-41317.parquet")));
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_decode_file_meta(&f.meta, &f.arena, f.footer, &err), HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "expected list<i32>"), "%s", err.message);
    cr_assert(strstr(err.message, "encodings"), "%s", err.message);
    pfile_free(&f);
}

Test(meta, negative_dictionary_num_values) {
    pfile f;
    open_ok(&f, "bad_data/ARROW-RS-GH-6229-DICTHEADER.parquet");
    const pq_column_meta *cm = &f.meta.row_groups[0].columns[1].meta_data;
    int64_t off =
        cm->has_dictionary_page_offset ? cm->dictionary_page_offset : cm->data_page_offset;
    pq_page_header h;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_decode_page_header(
                     &h, &f.arena, HUDI_SLICE(f.bytes + off, f.len - (size_t)off), NULL, &err),
                 HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "num_values"), "%s", err.message);
    pfile_free(&f);
}

Test(meta, encrypted_footer_never_crashes) {
    pfile f;
    bool par1 = load(&f, fixture_path("parquet-testing/data/uniform_encryption.parquet.encrypted"));
    cr_assert_not(par1);
    cr_assert_eq(memcmp(f.bytes + f.len - 4, "PARE", 4), 0);
    cr_assert_eq(memcmp(f.bytes, "PARE", 4), 0);
    hudi_error err = HUDI_ERROR_INIT;
    int rc = hudi_pq_decode_file_meta(&f.meta, &f.arena, f.footer, &err);
    cr_assert(rc == 0 || rc == HUDI_ECORRUPT);
    pfile_free(&f);
}

Test(meta, missing_required_fields_are_named) {
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    pq_file_meta m;
    /* FileMetaData { version 1, schema [] , row_groups [] } - num_rows missing */
    static const uint8_t fm[] = {0x15, 0x02, 0x19, 0x0C, 0x29, 0x0C, 0x00};
    cr_assert_eq(hudi_pq_decode_file_meta(&m, &arena, HUDI_SLICE(fm, sizeof(fm)), &err),
                 HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "FileMetaData") && strstr(err.message, "num_rows"), "%s",
              err.message);
    /* SchemaElement without a name */
    static const uint8_t fm2[] = {0x15, 0x02, 0x19, 0x1C, 0x15, 0x02,
                                  0x00, 0x16, 0x00, 0x19, 0x0C, 0x00};
    cr_assert_eq(hudi_pq_decode_file_meta(&m, &arena, HUDI_SLICE(fm2, sizeof(fm2)), &err),
                 HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "SchemaElement") && strstr(err.message, "name"), "%s",
              err.message);
    /* minimal valid one, with a known id of a foreign type (version as binary) first */
    static const uint8_t fm3[] = {0x18, 0x01, 'x',  0x05, 0x02, 0x02, 0x19, 0x1C, 0x48,
                                  0x01, 'r',  0x00, 0x16, 0x00, 0x19, 0x0C, 0x00};
    cr_assert_eq(hudi_pq_decode_file_meta(&m, &arena, HUDI_SLICE(fm3, sizeof(fm3)), &err), 0, "%s",
                 err.message);
    cr_assert_eq(m.version, 1);
    cr_assert_eq(m.n_schema, 1);
    cr_assert(slice_is(m.schema[0].name, "r"));
    cr_assert_eq(m.n_key_value, -1);
    cr_assert_eq(m.n_column_orders, -1);
    /* the same with both forms of the reserved extension field 32767 before the stop */
    static const uint8_t fm4[] = {0x15, 0x02, 0x19, 0x1C, 0x48, 0x01, 'r',  0x00, 0x16,
                                  0x00, 0x19, 0x0C, 0x08, 0xFE, 0xFF, 0x03, 0x01, 'x',
                                  0x08, 0xFF, 0xFF, 0x01, 0x01, 'y',  0x00};
    cr_assert_eq(hudi_pq_decode_file_meta(&m, &arena, HUDI_SLICE(fm4, sizeof(fm4)), &err), 0, "%s",
                 err.message);
    cr_assert_eq(m.n_schema, 1);
    hudi_arena_dispose(&arena);
}

Test(meta, strings_are_copied_into_the_arena) {
    pfile f;
    open_ok(&f, "data/alltypes_plain.parquet");
    const uint8_t *p = f.meta.created_by.data;
    cr_assert(p < f.bytes || p >= f.bytes + f.len, "created_by points into the input");
    char want[64];
    memcpy(want, p, 20);
    memset(f.bytes, 0, f.len); /* the caller may free its input */
    cr_assert_eq(memcmp(f.meta.created_by.data, want, 20), 0);
    pq_page_header h;
    static const uint8_t ph[] = {0x15, 0x00, 0x15, 0x02, 0x15, 0x02, 0x2C, 0x15, 0x02, 0x15, 0x00,
                                 0x15, 0x06, 0x15, 0x06, 0x1C, 0x18, 0x01, 'z',  0x00, 0x00, 0x00};
    uint8_t copy[sizeof(ph)];
    memcpy(copy, ph, sizeof(ph));
    cr_assert_eq(
        hudi_pq_decode_page_header(&h, &f.arena, HUDI_SLICE(copy, sizeof(copy)), NULL, NULL), 0);
    memset(copy, 0, sizeof(copy));
    cr_assert(h.data_page_header.has_statistics && h.data_page_header.statistics.has_max);
    cr_assert(slice_is(h.data_page_header.statistics.max, "z"));
    pfile_free(&f);
}

Test(meta, encoder_rejects_missing_arrays) {
    pq_file_meta m;
    memset(&m, 0, sizeof(m));
    m.n_schema = 3; /* but no array */
    m.n_key_value = -1;
    m.n_column_orders = -1;
    hudi_buf b = HUDI_BUF_INIT;
    hudi_buf_append(&b, "xy", 2);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_encode_file_meta(&b, &m, &err), HUDI_EINVAL);
    cr_assert_eq(b.len, 2); /* rolled back */
    hudi_buf_dispose(&b);
}
