/* write_fixtures.h - helpers for the write-layer tests: the Parquet base files of a fixture
 * table and whole-file batches read through the Parquet reader. */
#ifndef HUDI_WRITE_FIXTURES_H
#define HUDI_WRITE_FIXTURES_H

#include "format/parquet/parquet.h"

/* Base files (*.parquet outside .hoodie/, sorted) under `root`; frees with free_paths. */
int list_base_files(const char *root, char ***out);
void free_paths(char **paths, int n);

/* A whole Parquet file as one batch (all row groups appended). */
typedef struct file_batch {
    hudi_pq_file *file;
    hudi_pq_scan *scan; /* owns the batch schema */
    hudi_batch *batch;
} file_batch;

int file_batch_read(file_batch *out, hudi_fs *fs, const char *path, hudi_error *err);
void file_batch_dispose(file_batch *fb);
/* Column index by top-level name, -1 if absent. */
int batch_column(const hudi_batch *b, const char *name);

#endif
