/* read.h - reading Hudi tables: snapshot, time travel (as of an instant) and incremental
 * (changes in (begin, end]) queries over copy-on-write tables, as columnar batches.
 *
 * A reader resolves the file slices to read from the file-system view, then scans each base
 * file with the Parquet layer (projection, statistics and page-index skipping, row filters)
 * and conforms every batch to one output schema: columns matched by name, columns a file
 * lacks filled with nulls. */
#ifndef HUDI_READ_H
#define HUDI_READ_H

#include "format/parquet/parquet.h"
#include "hudi/hudi_table.h"
#include "table/tbl.h"

/* A query is described by the public hudi_scan_options (include/hudi/hudi_table.h): columns,
 * as_of_instant, begin_instant/end_instant (incremental when either is set: changes in
 * (begin, end]), the text filter, read_optimized and batch_rows. The filter is parsed here
 * (read/predicate.h) against the table schema of the query. */
typedef struct hudi_reader hudi_reader;

/* The full table schema for the query `opts` (as of its as_of, or of `end` when incremental;
 * its columns and filter are ignored): a STRUCT field the caller disposes with
 * hudi_field_dispose. Used to convert filter constants before hudi_reader_open. */
int hudi_read_table_schema(hudi_field *out, hudi_table *t, const hudi_scan_options *opts,
                           hudi_error *err);

int hudi_reader_open(hudi_reader **out, hudi_table *t, const hudi_scan_options *opts,
                     hudi_error *err);
/* The schema of the batches (a STRUCT owned by the reader). */
const hudi_field *hudi_reader_schema(const hudi_reader *r);
/* Fails (ENOTFOUND, naming the commit and the file) when a completed commit in the query's
 * range names a base file that storage lacks and nothing newer supersedes it
 * (hudi_fs_view_missing_files): reading on would silently return the file group's older rows,
 * or none. Cleaned older slices, replaced file groups and archived commits are not checked.
 * The next batch or *out = NULL at the end. The batch is owned by the reader and valid until
 * the next call. */
int hudi_reader_next(hudi_reader *r, hudi_batch **out, hudi_error *err);
/* The instant the read is as of ("" for an empty table). */
const char *hudi_reader_as_of(const hudi_reader *r);
/* Base files skipped because their partition's value cannot satisfy the filter. */
int64_t hudi_reader_files_pruned(const hudi_reader *r);
/* With ignore_missing_files: what was skipped ("N committed base files are missing ...",
 * naming the first commit and file), or NULL when nothing was. Owned by the reader. */
const char *hudi_reader_warning(const hudi_reader *r);
int64_t hudi_reader_files_missing(const hudi_reader *r);
void hudi_reader_free(hudi_reader *r); /* NULL-safe */

#endif
