/* fuzz_parquet_file.c - whole-file reader fuzzing: the input is a Parquet file placed in the
 * in-memory filesystem, opened and scanned to the end (all columns, small batches, CRCs
 * checked, then again with a predicate on column 0). Any outcome but a crash, a hang or a
 * leak is fine; errors must be clean. */
#include <stdint.h>
#include <stdio.h>

#include "format/parquet/parquet.h"

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
        }
        hudi_pq_close(f);
    }
    hudi_fs_free(fs);
    return 0;
}
