/* read.h - reading Hudi tables: snapshot, time travel (as of an instant) and incremental
 * (changes in (begin, end]) queries over copy-on-write and merge-on-read tables, as columnar
 * batches (merge-on-read slices with log files are merged by read/mor.h unless the query is
 * read-optimized).
 *
 * A reader resolves the file slices to read from the file-system view and the table schema
 * as of the query (table/schema_view.h), then scans each base file with the Parquet layer
 * (projection, statistics and page-index skipping, row filters) and reads its columns as the
 * table schema's (schema/project.h): matched by name, or by column id when the table has an
 * InternalSchema, converted from the file's types, columns a file lacks filled with nulls. */
#ifndef HUDI_READ_H
#define HUDI_READ_H

#include <stdatomic.h>

#include "format/parquet/parquet.h"
#include "hudi/hudi_table.h"
#include "table/tbl.h"

/* A query is described by the public hudi_scan_options (include/hudi/hudi_table.h): columns,
 * as_of_instant, begin_instant/end_instant (incremental when either is set: changes in
 * (begin, end]), the text filter, read_optimized and batch_rows. The filter is parsed here
 * (read/predicate.h) against the table schema of the query.
 *
 * Inside the library (the SQL engine's scans) a reader also takes any number of already
 * converted predicates (hudi_reader_open_preds), ANDed with each other and with the text
 * filter. Every predicate is used three ways: partition pruning (a predicate on any partition
 * field, of a table partitioned by one field or several, drops the partitions whose value -
 * parsed from the partition path in the column's type - cannot satisfy it; not for
 * timestamp-based or custom key generators, whose paths are formatted values), row-group and
 * page skipping from Parquet statistics, and exact row filtering: a reader returns only rows
 * that satisfy every predicate. What was pruned and skipped is reported (hudi_reader_stats,
 * hudi_reader_file) and can be computed before reading (hudi_reader_probe_file), for EXPLAIN. */
typedef struct hudi_reader hudi_reader;

/* The full table schema for the query `opts` (as of its as_of, or of `end` when incremental;
 * its columns and filter are ignored): a STRUCT field the caller disposes with
 * hudi_field_dispose. Used to convert filter constants before hudi_reader_open. It is the
 * schema the timeline records (docs/formats/schema-evolution.md §1), or the newest base file's
 * footer when the table records none. */
int hudi_read_table_schema(hudi_field *out, hudi_table *t, const hudi_scan_options *opts,
                           hudi_error *err);

int hudi_reader_open(hudi_reader **out, hudi_table *t, const hudi_scan_options *opts,
                     hudi_error *err);

/* A predicate on a top-level column of the table schema (hudi_read_table_schema): `column` op
 * `value`, the value already in that column's type (the table's: a file that stores the column
 * in another type is filtered after conversion, its statistics unused) (hudi_value of
 * format/parquet/parquet.h: i64 for integers, booleans, dates, times and timestamps in the column's
 * unit, f64, dec, bytes); IS [NOT] NULL ignore the value. The reader copies everything. */
typedef struct hudi_read_predicate {
    const char *column;
    hudi_cmp_op op;
    hudi_value value;
} hudi_read_predicate;

/* hudi_reader_open with `n_preds` predicates ANDed (and with opts->filter when set). An
 * unknown or nested predicate column fails (ENOTFOUND / EINVAL naming it). */
int hudi_reader_open_preds(hudi_reader **out, hudi_table *t, const hudi_scan_options *opts,
                           const hudi_read_predicate *preds, int32_t n_preds, hudi_error *err);

/* Gives the reader a top-N's dynamic filter (format/parquet/parquet.h) on output column
 * `column` (ignored unless the reader returns it in the filter's type): base files that store the
 * column as the query has it drop the rows, pages and row groups the boundary rules out, as it
 * tightens. Merge-on-read slices with log files never use it (a base row dropped could let an older
 * log record of its key win). The filter must outlive the reader. */
int hudi_reader_set_dynamic(hudi_reader *r, const char *column, hudi_pq_dynfilter *f,
                            hudi_error *err);

/* A base file of the query. */
typedef struct hudi_read_file_info {
    const char *path;      /* the base file */
    const char *partition; /* its partition path ("" when not partitioned) */
    const char *instant;   /* the base instant of its file slice */
    int64_t size_bytes;
    int32_t pruned_by; /* -1: to be read; else the restriction whose partition value excluded
                        * it: an index into hudi_reader_open_preds's predicates, the text filter
                        * after them, then the hudi_reader_prune_in calls in order */
} hudi_read_file_info;

/* Every base file of the query: those to read first (in reading order), then the pruned ones.
 * Owned by the reader. */
size_t hudi_reader_file_count(const hudi_reader *r);
const hudi_read_file_info *hudi_reader_file(const hudi_reader *r, size_t i);
/* Opens only the footer of file `i` and says how many of its row groups the predicates skip
 * by statistics (all of them when a predicate column is absent from the file and the
 * predicate is not IS NULL, or when the file's record key range and bloom filter exclude
 * every key wanted: then *by_keys is set, when given): what a read would skip, known before
 * reading. */
int hudi_reader_probe_file(hudi_reader *r, size_t i, int64_t *row_groups,
                           int64_t *row_groups_skipped, bool *by_keys, hudi_error *err);

/* Record-key probing (read/key_probe.h). Predicates `_hoodie_record_key = 'k'`, or `=` on the
 * record key field of a table whose keys are that field's value (one key field, simple or
 * non-partitioned key generator, meta fields populated), make the reader test each base
 * file's footer - min/max record key, then Hudi's bloom filter - and skip a file that holds
 * none of the keys without reading a page. This call adds such a restriction for an IN list
 * (`column` IN `values`, n of them, in the column's type), which the predicates cannot say;
 * the caller still filters the rows. Ignored for any other column; call before the first
 * hudi_reader_next. */
int hudi_reader_want_keys(hudi_reader *r, const char *column, const hudi_value *values, int32_t n,
                          hudi_error *err);

/* Restricts the read to the merged slice of one file group (`partition`, `file_id`) that has
 * log files (compaction reads one file group at a time, write/compact.c): every other file is
 * dropped. Call before the first hudi_reader_next (EINVAL after); ENOTFOUND when the query has no
 * such slice with logs. */
int hudi_reader_only_file_group(hudi_reader *r, const char *partition, const char *file_id,
                                hudi_error *err);

/* Like hudi_reader_only_file_group, then the file group is read as slice `s` instead of the
 * view's (a compaction plan's operation: exactly its base file and log files). `s` must outlive
 * the reader. */
int hudi_reader_only_slice(hudi_reader *r, const hudi_file_slice *s, hudi_error *err);
/* Restricts the read to the file groups `file_ids[0..n)` of `partition`, base-only or merged
 * slices alike (clustering rewrites them, write/cluster.c): every other file is dropped. None
 * found leaves the reader empty. Call before the first hudi_reader_next (EINVAL after). */
int hudi_reader_only_file_groups(hudi_reader *r, const char *partition, const char *const *file_ids,
                                 size_t n, hudi_error *err);

/* Partition pruning by an IN list (`column` IN `values`, n of them, in the column's type),
 * which the predicates cannot say: when `column` is a partition field (as for predicates), the
 * files of a partition whose value equals none of the values are pruned (a null value matches
 * nothing). Ignored for any other column; the rows of the files kept are not filtered by it -
 * the caller filters. Call before the first hudi_reader_next (EINVAL after). */
int hudi_reader_prune_in(hudi_reader *r, const char *column, const hudi_value *values, int32_t n,
                         hudi_error *err);

/* Threads (docs/ARCHITECTURE.md "Threads in the read path"). A reader whose query has more than
 * one file to read reads them on a pool of `threads` threads (one task per file) while the
 * caller of hudi_reader_next takes the batches: they come in the order, with the counts,
 * warnings and first error, of a serial read; read-ahead is bounded (2 x threads files, about
 * threads x HUDI_READ_AHEAD_BYTES of queued batches). `threads` follows the rule of
 * hudi_pool_check_threads (0 to HUDI_POOL_MAX_THREADS, EINVAL otherwise, key "threads"), but 0
 * = the table's hoodie.hudic.parallelism when set (hudi_pool_parse_threads), else
 * hudi_pool_default_threads(); 1 = serial. `cancel` (may be NULL), when it turns non-zero,
 * stops the tasks and hudi_reader_next fails with HUDI_ECANCELED. Call before the first
 * hudi_reader_next (EINVAL after). */
#define HUDI_READ_THREADS_KEY "hoodie.hudic.parallelism"
#define HUDI_READ_AHEAD_BYTES (64 << 20)
int hudi_reader_set_threads(hudi_reader *r, int32_t threads, const atomic_int *cancel,
                            hudi_error *err);

/* What a reader did so far (files are counted when opened, row groups and rows when a file
 * has been read to its end or the reader moved on). */
typedef struct hudi_read_stats {
    int64_t files_total;        /* base files of the query before pruning */
    int64_t files_pruned;       /* left out by partition values (never opened) */
    int64_t files_opened;       /* footers read */
    int64_t files_skipped;      /* opened, but no row group can match (statistics, absent column) */
    int64_t files_skipped_keys; /* footer read, no wanted record key (key range, bloom filter) */
    int64_t row_groups_total, row_groups_skipped;
    int64_t rows_read;     /* rows decoded from the kept row groups and pages */
    int64_t rows_returned; /* rows that satisfied the predicates */
    /* merged reads under hoodie.memory.merge.max.size (read/mor.h), over the slices closed */
    int64_t log_spills, log_spilled_records, log_files_reread;
    /* merged reads: base rows the logs deleted, log records no base row matched (returned
     * after the base rows of their slice) */
    int64_t merge_rows_dropped, merge_rows_inserted;
} hudi_read_stats;
const hudi_read_stats *hudi_reader_stats(const hudi_reader *r);
/* The schema of the batches (a STRUCT owned by the reader). */
const hudi_field *hudi_reader_schema(const hudi_reader *r);
/* Fails (ENOTFOUND, naming the commit and the file) when a completed commit in the query's
 * range names a base file that storage lacks and nothing newer supersedes it
 * (hudi_fs_view_missing_files): reading on would silently return the file group's older rows,
 * or none. Cleaned older slices, replaced file groups and archived commits are not checked.
 * The next batch or *out = NULL at the end. The batch is owned by the reader and valid until
 * the next call. With threads, a failure is reported once, after the batches of the files
 * before the failing one; later calls fail again without reading. */
int hudi_reader_next(hudi_reader *r, hudi_batch **out, hudi_error *err);
/* Where the rows of the batch hudi_reader_next returned last come from, as a compaction
 * needs it to take unchanged column chunks of a base file as they are stored
 * (write/compact.c). Kept only after hudi_reader_want_origin (before the first
 * hudi_reader_next, EINVAL after; the merge then compares each replaced value with its
 * replacement, which other reads skip). Known only for a merge-on-read slice's base rows in a
 * serial read: the batch is rows [first_row, first_row + rows) of row group `row_group` of base
 * file `base_path` (owned by the reader, valid until the next call), in order, none dropped or
 * filtered, and as_stored[i] says whether output column i holds exactly the values the file
 * stores under the column's own name (the file column of that name read as it is: not
 * converted, not another column read by field id under a new name; and no log record changed
 * a value of it). row_group -1: not known (log inserts, a file without logs, a
 * filtered or parallel read, rows dropped). */
typedef struct hudi_read_origin {
    int32_t row_group;
    int64_t first_row, rows;
    const char *base_path;
    const bool *as_stored;
} hudi_read_origin;
int hudi_reader_want_origin(hudi_reader *r, hudi_error *err);
void hudi_reader_origin(const hudi_reader *r, hudi_read_origin *out);
/* The instant the read is as of ("" for an empty table). */
const char *hudi_reader_as_of(const hudi_reader *r);
/* Base files skipped because their partition's value cannot satisfy the filter. */
int64_t hudi_reader_files_pruned(const hudi_reader *r);
/* What was skipped, or NULL when nothing was. Owned by the reader. With ignore_missing_files:
 * "N committed base files are missing ...", naming the first commit and file; merge-on-read
 * slices read so far: "N corrupt log block(s) skipped in <log file>" (read/mor.h). */
const char *hudi_reader_warning(const hudi_reader *r);
int64_t hudi_reader_files_missing(const hudi_reader *r);
void hudi_reader_free(hudi_reader *r); /* NULL-safe */

#endif
