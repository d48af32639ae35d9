/* fuzz_parquet_file.c - whole-file reader fuzzing: the input is a Parquet file placed in the
 * in-memory filesystem, opened and scanned to the end (all columns, small batches, CRCs
 * checked, then again with a predicate on column 0). Then compaction's copy path: row group 0
 * read as one batch and written again with every column the writer may take as stored copied
 * (hudi_pq_writer_write_copying walks the source's page headers), and the copy scanned. Any
 * outcome but a crash, a hang or a leak is fine; errors must be clean. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "format/parquet/parquet.h"
#include "format/parquet/reader_int.h"

static void scan_all(hudi_pq_file *f, const hudi_pq_scan_options *o) {
    hudi_pq_scan *s = NULL;
    if (hudi_pq_scan_open(&s, f, o, NULL) == 0) {
        hudi_batch *b = NULL;
        int guard = 0;
        while (hudi_pq_scan_next(s, &b, NULL) == 0 && b && guard++ < 100000) {
        }
    }
    hudi_pq_scan_free(s);
}

static void copy_first_row_group(hudi_fs *fs, hudi_pq_file *f) {
    int64_t rows = hudi_pq_row_group_rows(f, 0);
    if (rows <= 0 || rows > 100000 || f->meta.row_groups[0].n_columns < 1) return;
    hudi_pq_scan_options so = HUDI_PQ_SCAN_OPTIONS_INIT;
    so.batch_rows = rows;
    hudi_pq_scan *s = NULL;
    hudi_batch *b = NULL;
    int32_t rg = -1;
    int64_t first = -1, n = -1;
    if (hudi_pq_scan_open(&s, f, &so, NULL) == 0 && hudi_pq_scan_next(s, &b, NULL) == 0 && b &&
        hudi_pq_scan_last_rows(s, &rg, &first, &n) && rg == 0 && first == 0 && n == rows &&
        b->num_rows == rows) {
        const hudi_field *schema = hudi_pq_scan_schema(s);
        hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
        o.codec = f->meta.row_groups[0].columns[0].meta_data.codec; /* a codec it can copy */
        hudi_pq_writer *w = NULL;
        bool *copy = calloc((size_t)schema->n_children + 1, sizeof(bool));
        if (copy && o.codec != HUDI_PQ_CODEC_LZO &&
            hudi_pq_writer_open(&w, fs, "/copy.parquet", schema, &o, NULL) == 0) {
            for (int32_t j = 0; j < schema->n_children; j++)
                copy[j] = hudi_pq_writer_can_copy(w, j, f, 0);
            hudi_pq_file *c = NULL;
            if (hudi_pq_writer_write_copying(w, b, f, 0, copy, NULL) < 0)
                hudi_pq_writer_abort(w);
            else if (hudi_pq_writer_close(w, NULL, NULL) == 0 &&
                     hudi_pq_open(&c, fs, "/copy.parquet", NULL, NULL) == 0) {
                hudi_pq_scan_options co = HUDI_PQ_SCAN_OPTIONS_INIT;
                scan_all(c, &co);
                hudi_pq_close(c);
            }
        }
        free(copy);
    }
    hudi_pq_scan_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    hudi_fs *fs = NULL;
    hudi_pq_file *f = NULL;
    if (hudi_fs_memory_new(&fs, NULL) < 0) return 0;
    if (hudi_fs_write_all(fs, "/f.parquet", HUDI_CREATE_OVERWRITE, data, size, NULL) == 0 &&
        hudi_pq_open(&f, fs, "/f.parquet", NULL, NULL) == 0) {
        /* Refuse absurd row counts so the fuzzer explores decoding, not allocation. */
        if (hudi_pq_num_rows(f) <= 1000000) {
            hudi_pq_scan_options o = HUDI_PQ_SCAN_OPTIONS_INIT;
            o.batch_rows = 97;
            scan_all(f, &o);
            if (hudi_pq_schema(f)->n_children > 0) {
                hudi_pq_predicate p = {.column = 0, .op = HUDI_CMP_GT, .value = {.i64 = 3}};
                o.predicates = &p;
                o.n_predicates = 1;
                o.filter_rows = false;
                scan_all(f, &o);
            }
            copy_first_row_group(fs, f);
        }
        hudi_pq_close(f);
    }
    hudi_fs_free(fs);
    return 0;
}
