/* writer_copy_test.c - hudi_pq_writer_write_copying: column chunks taken from another file's row
 * group as it stores them (what compaction does with the columns no log record changed). The
 * copied chunks must be byte for byte the source's, read back to the same values, keep their
 * statistics and a page index that still finds the right pages; the encoded columns beside
 * them and the row groups written normally after them must be unaffected; and every column
 * the writer cannot take as stored (nested, another type, another codec, absent) is refused. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "format/parquet/meta.h"
#include "format/parquet/parquet.h"
#include "support.h"

enum { ROWS = 3000, RG_ROWS = 1000, EXTRA = 500, HEAD = 100 };

static void fld(hudi_field *f, const char *name, hudi_type_id t, bool nullable) {
    cr_assert_eq(hudi_field_init(f, name, t, nullable), 0);
}

/* id INT64, name STRING (nullable, repeats), score DOUBLE (nullable), tags LIST<STRING>;
 * `score_type` lets a test store score as another type. */
static void schema(hudi_field *s, hudi_type_id score_type) {
    fld(s, "root", HUDI_TYPE_STRUCT, false);
    cr_assert_eq(hudi_field_set_children(s, 4), 0);
    fld(&s->children[0], "id", HUDI_TYPE_INT64, false);
    fld(&s->children[1], "name", HUDI_TYPE_STRING, true);
    fld(&s->children[2], "score", score_type, true);
    fld(&s->children[3], "tags", HUDI_TYPE_LIST, true);
    cr_assert_eq(hudi_field_set_children(&s->children[3], 1), 0);
    fld(&s->children[3].children[0], "element", HUDI_TYPE_STRING, true);
}

/* Rows [first, first + n): `salt` changes id and score (the columns a test rewrites). */
static hudi_batch *rows(const hudi_field *s, int64_t first, int64_t n, int salt) {
    hudi_batch *b = NULL;
    cr_assert_eq(hudi_batch_new(&b, s, NULL), 0);
    char txt[32];
    for (int64_t i = first; i < first + n; i++) {
        int64_t id = i * 7 + salt;
        cr_assert_eq(hudi_array_append_fixed(b->columns[0], &id, NULL), 0);
        if (i % 11 == 3) {
            cr_assert_eq(hudi_array_append_null(b->columns[1], NULL), 0);
        } else {
            int len = snprintf(txt, sizeof(txt), "name-%03d", (int)((i * 37) % 400));
            cr_assert_eq(hudi_array_append_bytes(b->columns[1], txt, (size_t)len, NULL), 0);
        }
        if (i % 13 == 5) {
            cr_assert_eq(hudi_array_append_null(b->columns[2], NULL), 0);
        } else if (s->children[2].type == HUDI_TYPE_DOUBLE) {
            double v = (double)((i * 2654435761u + (uint64_t)salt) % 100000) / 100000.0;
            cr_assert_eq(hudi_array_append_fixed(b->columns[2], &v, NULL), 0);
        } else {
            float v = (float)(i % 1000);
            cr_assert_eq(hudi_array_append_fixed(b->columns[2], &v, NULL), 0);
        }
        hudi_array *tags = b->columns[3];
        for (int k = 0; k < (int)(i % 3); k++) {
            int len = snprintf(txt, sizeof(txt), "t%d", (int)(i + k) % 5);
            cr_assert_eq(hudi_array_append_bytes(tags->children[0], txt, (size_t)len, NULL), 0);
        }
        cr_assert_eq(hudi_array_append_nested(tags, i % 3, NULL), 0);
    }
    b->num_rows = n;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_batch_validate(b, &err), 0, "%s", err.message);
    return b;
}

static void write_source(hudi_fs *fs, const char *path, const hudi_field *s, int codec) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    o.codec = codec;
    o.row_group_rows = RG_ROWS;
    o.page_rows = 170;
    hudi_pq_writer *w = NULL;
    cr_assert_eq(hudi_pq_writer_open(&w, fs, path, s, &o, &err), 0, "%s", err.message);
    hudi_batch *b = rows(s, 0, ROWS, 0);
    cr_assert_eq(hudi_pq_writer_write(w, b, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_pq_writer_close(w, NULL, &err), 0, "%s", err.message);
    hudi_batch_free(b);
}

/* The footer of `path`, decoded into `arena`; the file's bytes in `bytes`. */
static void footer(hudi_fs *fs, const char *path, pq_file_meta *m, hudi_arena *arena,
                   hudi_buf *bytes) {
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_fs_read_all(fs, path, bytes, &err), 0, "%s", err.message);
    uint32_t flen = hudi_load_u32le(bytes->data + bytes->len - 8);
    hudi_slice in = HUDI_SLICE(bytes->data + bytes->len - 8 - flen, flen);
    cr_assert_eq(hudi_pq_decode_file_meta(m, arena, in, &err), 0, "%s", err.message);
}

static int64_t chunk_start(const pq_column_meta *m) {
    return m->has_dictionary_page_offset && m->dictionary_page_offset > 0
               ? m->dictionary_page_offset
               : m->data_page_offset;
}

/* Every row of `path`, read back, equals `want`. */
static void check_values(hudi_fs *fs, const char *path, const hudi_batch *want) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_pq_file *f = NULL;
    hudi_pq_scan *sc = NULL;
    cr_assert_eq(hudi_pq_open(&f, fs, path, NULL, &err), 0, "%s", err.message);
    hudi_pq_scan_options so = HUDI_PQ_SCAN_OPTIONS_INIT;
    so.batch_rows = 333;
    cr_assert_eq(hudi_pq_scan_open(&sc, f, &so, &err), 0, "%s", err.message);
    int64_t at = 0;
    for (;;) {
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_pq_scan_next(sc, &b, &err), 0, "%s", err.message);
        if (!b) break;
        for (int c = 0; c < want->n_columns; c++) {
            hudi_array *part = NULL;
            cr_assert_eq(hudi_array_slice(&part, want->columns[c], at, b->num_rows, NULL), 0);
            hudi_buf why = HUDI_BUF_INIT;
            cr_assert(hudi_array_equal(part, b->columns[c], &why),
                      "column %d at row %" PRId64 ": %s", c, at, why.data ? why.data : "");
            hudi_buf_dispose(&why);
            hudi_array_free(part);
        }
        at += b->num_rows;
    }
    cr_assert_eq(at, want->num_rows);
    hudi_pq_scan_free(sc);
    hudi_pq_close(f);
}

/* Rows of `path` a scan with `score > 0.9` keeps, page index and row filter on. */
static int64_t count_score_above(hudi_fs *fs, const char *path, int64_t *pages_skipped) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_pq_file *f = NULL;
    hudi_pq_scan *sc = NULL;
    cr_assert_eq(hudi_pq_open(&f, fs, path, NULL, &err), 0, "%s", err.message);
    hudi_pq_predicate p = {.column = 2, .op = HUDI_CMP_GT};
    p.value.f64 = 0.9;
    hudi_pq_scan_options so = HUDI_PQ_SCAN_OPTIONS_INIT;
    so.predicates = &p;
    so.n_predicates = 1;
    so.filter_rows = true;
    cr_assert_eq(hudi_pq_scan_open(&sc, f, &so, &err), 0, "%s", err.message);
    int64_t n = 0;
    for (;;) {
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_pq_scan_next(sc, &b, &err), 0, "%s", err.message);
        if (!b) break;
        n += b->num_rows;
    }
    *pages_skipped = hudi_pq_scan_get_stats(sc)->pages_skipped;
    hudi_pq_scan_free(sc);
    hudi_pq_close(f);
    return n;
}

Test(writer_copy, chunks_copied_as_stored) {
    hudi_fs *fs = NULL;
    cr_assert_eq(hudi_fs_memory_new(&fs, NULL), 0);
    hudi_error err = HUDI_ERROR_INIT;
    hudi_field s;
    schema(&s, HUDI_TYPE_DOUBLE);
    write_source(fs, "src.parquet", &s, HUDI_PQ_CODEC_SNAPPY);
    hudi_pq_file *src = NULL;
    cr_assert_eq(hudi_pq_open(&src, fs, "src.parquet", NULL, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_pq_num_row_groups(src), ROWS / RG_ROWS);

    /* The new file: each source row group again, id rewritten (salt 1), name and score
     * copied; then EXTRA rows written as usual. Its pages are larger than the source's (the
     * default 20,000 rows against 170), so an encoded chunk never has the source's bytes. */
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    hudi_pq_writer *w = NULL;
    cr_assert_eq(hudi_pq_writer_open(&w, fs, "out.parquet", &s, &o, &err), 0, "%s", err.message);
    cr_assert(hudi_pq_writer_can_copy(w, 1, src, 0));
    cr_assert(hudi_pq_writer_can_copy(w, 2, src, 2));
    cr_assert(!hudi_pq_writer_can_copy(w, 3, src, 0), "a nested column is never copied");
    cr_assert(!hudi_pq_writer_can_copy(w, 1, src, 3), "no such row group");
    bool copy[4] = {false, true, true, false};
    /* an open row group before the copies: flushed as a row group of its own */
    hudi_batch *want = rows(&s, ROWS + EXTRA, HEAD, 3);
    cr_assert_eq(hudi_pq_writer_write(w, want, &err), 0, "%s", err.message);
    for (int32_t g = 0; g < ROWS / RG_ROWS; g++) {
        hudi_batch *b = rows(&s, (int64_t)g * RG_ROWS, RG_ROWS, 1);
        /* the unchanged columns as the source has them */
        hudi_batch *orig = rows(&s, (int64_t)g * RG_ROWS, RG_ROWS, 0);
        for (int c = 1; c <= 2; c++) {
            hudi_array *t = b->columns[c];
            b->columns[c] = orig->columns[c];
            orig->columns[c] = t;
        }
        cr_assert_eq(hudi_pq_writer_write_copying(w, b, src, g, copy, &err), 0, "%s", err.message);
        for (int c = 0; c < 4; c++)
            cr_assert_eq(hudi_array_append_range(want->columns[c], b->columns[c], 0, RG_ROWS, NULL),
                         0);
        want->num_rows += RG_ROWS;
        hudi_batch_free(b);
        hudi_batch_free(orig);
    }
    hudi_batch *tail = rows(&s, ROWS, EXTRA, 2);
    cr_assert_eq(hudi_pq_writer_write(w, tail, &err), 0, "%s", err.message);
    for (int c = 0; c < 4; c++)
        cr_assert_eq(hudi_array_append_range(want->columns[c], tail->columns[c], 0, EXTRA, NULL),
                     0);
    want->num_rows += EXTRA;
    cr_assert_eq(hudi_pq_writer_close(w, NULL, &err), 0, "%s", err.message);

    check_values(fs, "out.parquet", want);

    /* Chunk by chunk: the copied ones are the source's bytes, statistics and page count. */
    pq_file_meta sm, om;
    hudi_arena sa = HUDI_ARENA_INIT, oa = HUDI_ARENA_INIT;
    hudi_buf sb = HUDI_BUF_INIT, ob = HUDI_BUF_INIT;
    footer(fs, "src.parquet", &sm, &sa, &sb);
    footer(fs, "out.parquet", &om, &oa, &ob);
    cr_assert_eq(om.n_row_groups, ROWS / RG_ROWS + 2, "the head, one row group per copy, the tail");
    cr_assert_eq(om.row_groups[0].num_rows, HEAD);
    for (int32_t g = 0; g < ROWS / RG_ROWS; g++) {
        cr_assert_eq(om.row_groups[g + 1].num_rows, RG_ROWS);
        for (int32_t c = 0; c < sm.row_groups[g].n_columns; c++) {
            const pq_column_chunk *scc = &sm.row_groups[g].columns[c];
            const pq_column_chunk *occ = &om.row_groups[g + 1].columns[c];
            const pq_column_meta *s_m = &scc->meta_data, *o_m = &occ->meta_data;
            bool copied = c == 1 || c == 2; /* leaves: id, name, score, tags.element */
            bool same = s_m->total_compressed_size == o_m->total_compressed_size &&
                        memcmp(sb.data + chunk_start(s_m), ob.data + chunk_start(o_m),
                               (size_t)s_m->total_compressed_size) == 0;
            cr_assert_eq(same, copied, "row group %d leaf %d: copied %d, same bytes %d", g, c,
                         copied, same);
            if (!copied) continue;
            cr_assert_eq(o_m->num_values, s_m->num_values);
            cr_assert_eq(o_m->total_uncompressed_size, s_m->total_uncompressed_size);
            cr_assert_eq(o_m->data_page_offset - chunk_start(o_m),
                         s_m->data_page_offset - chunk_start(s_m));
            cr_assert(o_m->has_statistics);
            cr_assert_eq(o_m->statistics.null_count, s_m->statistics.null_count);
            cr_assert(hudi_slice_eq(o_m->statistics.min_value, s_m->statistics.min_value));
            cr_assert(hudi_slice_eq(o_m->statistics.max_value, s_m->statistics.max_value));
            cr_assert(occ->has_offset_index && occ->has_column_index);
            pq_offset_index soi, ooi;
            cr_assert_eq(hudi_pq_decode_offset_index(&soi, &sa,
                                                     HUDI_SLICE(sb.data + scc->offset_index_offset,
                                                                (size_t)scc->offset_index_length),
                                                     &err),
                         0);
            cr_assert_eq(hudi_pq_decode_offset_index(&ooi, &oa,
                                                     HUDI_SLICE(ob.data + occ->offset_index_offset,
                                                                (size_t)occ->offset_index_length),
                                                     &err),
                         0);
            cr_assert_eq(ooi.n_page_locations, soi.n_page_locations);
            cr_assert_gt(ooi.n_page_locations, 3);
            for (int32_t p = 0; p < ooi.n_page_locations; p++) {
                const pq_page_location *a = &soi.page_locations[p], *b = &ooi.page_locations[p];
                cr_assert_eq(b->offset - chunk_start(o_m), a->offset - chunk_start(s_m));
                cr_assert_eq(b->compressed_page_size, a->compressed_page_size);
                cr_assert_eq(b->first_row_index, a->first_row_index);
            }
        }
    }

    /* The page index of the copied score column still finds its rows. */
    int64_t expect = 0;
    const hudi_array *score = want->columns[2];
    for (int64_t i = 0; i < want->num_rows; i++)
        expect += hudi_array_is_valid(score, i) && ((const double *)score->values)[i] > 0.9;
    int64_t skipped = 0;
    cr_assert_eq(count_score_above(fs, "out.parquet", &skipped), expect);

    hudi_arena_dispose(&sa);
    hudi_arena_dispose(&oa);
    hudi_buf_dispose(&sb);
    hudi_buf_dispose(&ob);
    hudi_batch_free(want);
    hudi_batch_free(tail);
    hudi_pq_close(src);
    hudi_field_dispose(&s);
    hudi_fs_free(fs);
}

Test(writer_copy, what_cannot_be_copied_is_refused) {
    hudi_fs *fs = NULL;
    cr_assert_eq(hudi_fs_memory_new(&fs, NULL), 0);
    hudi_error err = HUDI_ERROR_INIT;
    hudi_field s, f32;
    schema(&s, HUDI_TYPE_DOUBLE);
    schema(&f32, HUDI_TYPE_FLOAT);
    write_source(fs, "snappy.parquet", &s, HUDI_PQ_CODEC_SNAPPY);
    write_source(fs, "float.parquet", &f32, HUDI_PQ_CODEC_SNAPPY);
    hudi_pq_file *snappy = NULL, *flt = NULL;
    cr_assert_eq(hudi_pq_open(&snappy, fs, "snappy.parquet", NULL, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_pq_open(&flt, fs, "float.parquet", NULL, &err), 0, "%s", err.message);

    /* another codec */
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    o.codec = HUDI_PQ_CODEC_GZIP;
    hudi_pq_writer *w = NULL;
    cr_assert_eq(hudi_pq_writer_open(&w, fs, "gzip.parquet", &s, &o, &err), 0, "%s", err.message);
    cr_assert(!hudi_pq_writer_can_copy(w, 1, snappy, 0));
    hudi_pq_writer_abort(w);

    /* another type under the same name; a name the source lacks */
    hudi_field renamed;
    schema(&renamed, HUDI_TYPE_DOUBLE);
    hudi_free(renamed.children[1].name);
    renamed.children[1].name = hudi_strdup("label");
    hudi_pq_write_options d = HUDI_PQ_WRITE_OPTIONS_INIT;
    cr_assert_eq(hudi_pq_writer_open(&w, fs, "x.parquet", &renamed, &d, &err), 0, "%s",
                 err.message);
    cr_assert(hudi_pq_writer_can_copy(w, 2, snappy, 0));
    cr_assert(!hudi_pq_writer_can_copy(w, 2, flt, 0), "FLOAT stored, DOUBLE written");
    cr_assert(!hudi_pq_writer_can_copy(w, 1, snappy, 0), "the source has no column label");

    /* a batch of another row count, a column that cannot be copied: EINVAL, writer usable */
    bool copy[4] = {false, false, true, false};
    hudi_batch *b = rows(&renamed, 0, RG_ROWS - 1, 0);
    cr_assert_eq(hudi_pq_writer_write_copying(w, b, snappy, 0, copy, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "rows"), "%s", err.message);
    hudi_batch_free(b);
    b = rows(&renamed, 0, RG_ROWS, 0);
    copy[1] = true;
    cr_assert_eq(hudi_pq_writer_write_copying(w, b, snappy, 0, copy, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "label"), "%s", err.message);
    cr_assert_eq(hudi_pq_writer_write(w, b, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_pq_writer_close(w, NULL, &err), 0, "%s", err.message);
    check_values(fs, "x.parquet", b);

    hudi_batch_free(b);
    hudi_pq_close(snappy);
    hudi_pq_close(flt);
    hudi_field_dispose(&s);
    hudi_field_dispose(&f32);
    hudi_field_dispose(&renamed);
    hudi_fs_free(fs);
}

/* A source whose footer undercounts a chunk (PARQUET-816: old parquet-mr left the dictionary
 * page header out of total_compressed_size) is not copied from: that column is encoded from
 * the batch, the others still copied, and the file reads back right. */
Test(writer_copy, chunk_whose_pages_do_not_tile_is_encoded) {
    hudi_fs *fs = NULL;
    cr_assert_eq(hudi_fs_memory_new(&fs, NULL), 0);
    hudi_error err = HUDI_ERROR_INIT;
    hudi_field s;
    schema(&s, HUDI_TYPE_DOUBLE);
    write_source(fs, "good.parquet", &s, HUDI_PQ_CODEC_SNAPPY);
    /* the same file with name's chunk in row group 0 counted 3 bytes short */
    pq_file_meta m;
    hudi_arena a = HUDI_ARENA_INIT;
    hudi_buf bytes = HUDI_BUF_INIT, out = HUDI_BUF_INIT;
    footer(fs, "good.parquet", &m, &a, &bytes);
    pq_column_meta *nm = &m.row_groups[0].columns[1].meta_data;
    nm->total_compressed_size -= 3;
    uint32_t flen = hudi_load_u32le(bytes.data + bytes.len - 8);
    hudi_buf_append(&out, bytes.data, bytes.len - 8 - flen);
    size_t at = out.len;
    cr_assert_eq(hudi_pq_encode_file_meta(&out, &m, &err), 0, "%s", err.message);
    uint8_t tail[8];
    hudi_store_u32le(tail, (uint32_t)(out.len - at));
    memcpy(tail + 4, "PAR1", 4);
    hudi_buf_append(&out, tail, 8);
    cr_assert_eq(hudi_fs_write_all(fs, "short.parquet", 0644, out.data, out.len, &err), 0);
    hudi_pq_file *src = NULL;
    cr_assert_eq(hudi_pq_open(&src, fs, "short.parquet", NULL, &err), 0, "%s", err.message);

    hudi_pq_writer *w = NULL;
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    cr_assert_eq(hudi_pq_writer_open(&w, fs, "out.parquet", &s, &o, &err), 0, "%s", err.message);
    bool copy[4] = {false, true, true, false};
    hudi_batch *b = rows(&s, 0, RG_ROWS, 0);
    cr_assert_eq(hudi_pq_writer_write_copying(w, b, src, 0, copy, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_pq_writer_close(w, NULL, &err), 0, "%s", err.message);
    check_values(fs, "out.parquet", b);

    pq_file_meta om;
    hudi_buf ob = HUDI_BUF_INIT;
    footer(fs, "out.parquet", &om, &a, &ob);
    const pq_column_meta *on = &om.row_groups[0].columns[1].meta_data;
    const pq_column_meta *os = &om.row_groups[0].columns[2].meta_data;
    const pq_column_meta *ss = &m.row_groups[0].columns[2].meta_data;
    cr_assert_neq(on->total_compressed_size, nm->total_compressed_size, "name was copied");
    cr_assert_eq(os->total_compressed_size, ss->total_compressed_size);
    cr_assert_eq(memcmp(ob.data + chunk_start(os), bytes.data + chunk_start(ss),
                        (size_t)ss->total_compressed_size),
                 0, "score, whose chunk is right, was copied");
    hudi_batch_free(b);
    hudi_pq_close(src);
    hudi_buf_dispose(&bytes);
    hudi_buf_dispose(&out);
    hudi_buf_dispose(&ob);
    hudi_arena_dispose(&a);
    hudi_field_dispose(&s);
    hudi_fs_free(fs);
}
