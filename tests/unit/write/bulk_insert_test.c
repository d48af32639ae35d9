/* bulk_insert_test.c - bulk_insert written in chunks (hoodie.hudic.bulk_insert.chunk.rows) and
 * files rolled at their actual size (hoodie.parquet.max.file.size plus the
 * hoodie.parquet.compression.ratio margin, Hudi's canWrite): many chunks give the same records,
 * keys and meta columns as one; a file is closed once it is full, not from an estimate. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/parquet/meta.h"
#include "support.h"
#include "table/table.h"
#include "wt_util.h"

static const char *const P3[] = {"a", "b", "c"};

/* A table keyed by id (or with generated keys when `auto_keys`), partitioned by part. */
static hudi_table *create(hudi_fs *fs, const char *base, const hudi_field *s, bool auto_keys) {
    return wt_create_parted(fs, base, s, false, auto_keys);
}

static void bulk(hudi_table *t, const hudi_batch *b, const char *const *props, int64_t target_bytes,
                 hudi_table_write_result *res) {
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    o.op = HUDI_WRITE_BULK_INSERT;
    o.instant_time = "20240101000000001";
    o.props = props;
    o.target_file_bytes = target_bytes;
    cr_assert_eq(hudi_tbl_write(t, b, &o, res, &err), 0, "bulk_insert: %s", err.message);
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted lines "commit time|key|partition|data columns" of every record as the table reads
 * (seqno and file name left out: file ids are random). */
static char *dump_meta(hudi_table *t) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_scan_options so = HUDI_SCAN_OPTIONS_INIT;
    hudi_reader *rd = NULL;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_reader_open(&rd, t, &so, &err), 0, "%s", err.message);
    char **lines = NULL;
    size_t n = 0, cap = 0;
    hudi_batch *b;
    while (hudi_reader_next(rd, &b, &err) == 0 && b) {
        for (int64_t i = 0; i < b->num_rows; i++) {
            hudi_buf line = HUDI_BUF_INIT;
            for (int32_t c = 0; c < b->n_columns; c++) {
                const char *name = b->schema->children[c].name;
                if (strcmp(name, "_hoodie_commit_seqno") == 0 ||
                    strcmp(name, "_hoodie_file_name") == 0)
                    continue;
                const hudi_array *a = b->columns[c];
                if (c) hudi_buf_putc(&line, '|');
                if (!hudi_array_is_valid(a, i))
                    hudi_buf_puts(&line, "null");
                else if (a->field->type == HUDI_TYPE_STRING)
                    hudi_buf_append(&line, a->data + a->offsets[i],
                                    (size_t)(a->offsets[i + 1] - a->offsets[i]));
                else if (a->field->type == HUDI_TYPE_INT32)
                    hudi_buf_printf(&line, "%d", ((const int32_t *)a->values)[i]);
                else if (a->field->type == HUDI_TYPE_INT64)
                    hudi_buf_printf(&line, "%lld", (long long)((const int64_t *)a->values)[i]);
            }
            hudi_buf_putc(&line, 0);
            if (n == cap) {
                cap = cap ? cap * 2 : 1024;
                lines = realloc(lines, cap * sizeof(*lines));
                cr_assert(lines);
            }
            lines[n++] = hudi_buf_detach(&line);
        }
    }
    cr_assert_eq(err.code, 0, "%s", err.message);
    hudi_reader_free(rd);
    qsort(lines, n, sizeof(*lines), cmp_str);
    hudi_buf all = HUDI_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        hudi_buf_puts(&all, lines[i]);
        hudi_buf_putc(&all, '\n');
        hudi_free(lines[i]);
    }
    free(lines);
    hudi_buf_putc(&all, 0);
    return hudi_buf_detach(&all);
}

/* Per latest base file: rows, data bytes (the row groups' compressed sizes) and row groups;
 * checks that the seqnos of each file count 0..rows-1. */
typedef struct finfo {
    int64_t rows, data_bytes;
    int32_t row_groups;
    char part[8];
} finfo;

static size_t files_of(hudi_table *t, finfo *out, size_t cap) {
    hudi_fs_view *v = NULL;
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0);
    cr_assert_eq(hudi_fs_view_build(&v, t->timeline, &vo, &err), 0, "%s", err.message);
    size_t n = 0;
    const hudi_file_slice *sl = hudi_fs_view_latest_slices(v, &n);
    cr_assert_leq(n, cap);
    for (size_t i = 0; i < n; i++) {
        hudi_pq_file *f = NULL;
        cr_assert(sl[i].base);
        cr_assert_eq(hudi_pq_open(&f, t->fs, sl[i].base->path, NULL, &err), 0, "%s", err.message);
        const pq_file_meta *m = hudi_pq_meta(f);
        finfo *fi = &out[i];
        memset(fi, 0, sizeof(*fi));
        fi->rows = hudi_pq_num_rows(f);
        fi->row_groups = m->n_row_groups;
        for (int32_t g = 0; g < m->n_row_groups; g++)
            fi->data_bytes += m->row_groups[g].total_compressed_size;
        snprintf(fi->part, sizeof(fi->part), "%s", sl[i].partition_path);
        /* seqnos <instant>_<task>_<0..rows-1> in file order */
        hudi_pq_scan *sc = NULL;
        hudi_pq_scan_options so = HUDI_PQ_SCAN_OPTIONS_INIT;
        cr_assert_eq(hudi_pq_scan_open(&sc, f, &so, &err), 0, "%s", err.message);
        int64_t pos = 0;
        hudi_batch *b;
        while (hudi_pq_scan_next(sc, &b, &err) == 0 && b) {
            const hudi_array *a = b->columns[1]; /* _hoodie_commit_seqno */
            for (int64_t r = 0; r < b->num_rows; r++, pos++) {
                const char *s = (const char *)a->data + a->offsets[r];
                int len = a->offsets[r + 1] - a->offsets[r];
                const char *us = s + len;
                while (us > s && us[-1] != '_') us--;
                cr_assert(us > s);
                int64_t seq = 0;
                for (const char *q = us; q < s + len; q++) seq = seq * 10 + (*q - '0');
                cr_assert_eq(seq, pos, "%.*s", len, s);
            }
        }
        cr_assert_eq(err.code, 0, "%s", err.message);
        cr_assert_eq(pos, fi->rows);
        hudi_pq_scan_free(sc);
        hudi_pq_close(f);
    }
    hudi_fs_view_free(v);
    return n;
}

/* The same batch through chunks of 777 rows and through one chunk: same records, keys,
 * partitions and commit times; each file's seqnos count from 0. */
static void chunked_same_as_one(bool auto_keys) {
    char b1[512], b2[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs1 = wt_fs(WT_MEMORY, b1, sizeof(b1)), *fs2 = wt_fs(WT_MEMORY, b2, sizeof(b2));
    hudi_table *t1 = create(fs1, b1, &s, auto_keys), *t2 = create(fs2, b2, &s, auto_keys);
    hudi_batch *b = wt_batch_range(&s, 0, 10000, 7, P3, 3);
    /* some null names, and a duplicate key: bulk_insert keeps both */
    hudi_array *name = b->columns[1];
    cr_assert_eq(hudi_array_ensure_validity(name, NULL), 0);
    for (int64_t i = 0; i < b->num_rows; i += 13) {
        hudi_bit_clear(name->validity, i);
        name->null_count++;
    }
    ((int32_t *)b->columns[0]->values)[5000] = 42; /* row 5000 (part c) repeats key 42 (part a) */
    ((int32_t *)b->columns[0]->values)[5001] = 42; /* row 5001 (part a): same key, same part */
    static const char *const chunked[] = {"hoodie.hudic.bulk_insert.chunk.rows", "777", NULL};
    hudi_table_write_result r1, r2;
    bulk(t1, b, chunked, 0, &r1);
    bulk(t2, b, NULL, 0, &r2);
    cr_assert_eq(r1.inserts, 10000);
    cr_assert_eq(r2.inserts, 10000);
    cr_assert_eq(r1.files_written, 3); /* one file per partition at the default 120 MiB */
    cr_assert_eq(r2.files_written, 3);
    char *d1 = dump_meta(t1), *d2 = dump_meta(t2);
    cr_assert_eq(wt_lines(d1), 10000);
    cr_assert_str_eq(d1, d2);
    if (auto_keys)
        cr_assert(strstr(d1, "20240101000000001|20240101000000001_0_9999|a|9999|n9999|7|a\n"),
                  "%.300s", d1);
    else
        cr_assert(strstr(d1, "20240101000000001|42|c|42|n5000|7|c\n"), "%.300s", d1);
    finfo fi[8];
    cr_assert_eq(files_of(t1, fi, 8), 3);
    free(d1);
    free(d2);
    hudi_batch_free(b);
    hudi_tbl_free(t1);
    hudi_tbl_free(t2);
    hudi_fs_free(fs1);
    hudi_fs_free(fs2);
    hudi_field_dispose(&s);
}

Test(bulk_insert, chunked_same_as_one_chunk) { chunked_same_as_one(false); }
Test(bulk_insert, chunked_same_as_one_chunk_generated_keys) { chunked_same_as_one(true); }

/* Files roll at their actual size: with a 64 KiB maximum (70.4 KiB with the 10% compression
 * margin) and 16 KiB row groups, every file holds at most the maximum plus one row group of
 * data, every file but each partition's last is at least half full, and the files of a
 * partition hold its rows in input order. */
Test(bulk_insert, rolls_at_max_file_size) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = create(fs, base, &s, false);
    hudi_batch *b = wt_batch_range(&s, 0, 60000, 7, P3, 2);
    static const char *const props[] = {"hoodie.hudic.bulk_insert.chunk.rows", "5000",
                                        "hoodie.parquet.block.size", "16384", NULL};
    const int64_t target = 64 << 10, max = target + target / 10, block = 16 << 10;
    hudi_table_write_result res;
    bulk(t, b, props, target, &res);
    cr_assert_eq(res.inserts, 60000);
    finfo fi[64];
    size_t n = files_of(t, fi, 64);
    cr_assert_eq((int64_t)n, res.files_written);
    int64_t rows = 0, data = 0, full = 0;
    for (size_t i = 0; i < n; i++) {
        rows += fi[i].rows;
        data += fi[i].data_bytes;
        cr_assert_leq(fi[i].data_bytes, max + block, "file %zu: %lld bytes", i,
                      (long long)fi[i].data_bytes);
        cr_assert_geq(fi[i].row_groups, 1);
        full += fi[i].data_bytes >= max / 2;
    }
    cr_assert_eq(rows, 60000);
    /* all but at most one file per partition are at least half full */
    cr_assert_geq(full, (int64_t)n - 2, "%lld of %zu", (long long)full, n);
    /* rolled by size, not one file per partition */
    cr_assert_geq((int64_t)n, data / max, "%zu files for %lld bytes", n, (long long)data);
    cr_assert_gt(n, 2);
    char *d = wt_dump(t, NULL);
    cr_assert_eq(wt_lines(d), 60000);
    free(d);
    /* a bad setting is refused, naming it */
    static const char *const bad[] = {"hoodie.hudic.bulk_insert.chunk.rows", "0", NULL};
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    o.op = HUDI_WRITE_BULK_INSERT;
    o.props = bad;
    cr_assert_lt(hudi_tbl_write(t, b, &o, NULL, &err), 0);
    cr_assert(strstr(err.message, "hoodie.hudic.bulk_insert.chunk.rows"), "%s", err.message);
    hudi_batch_free(b);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}
