/* mor.h - merged snapshot reads of merge-on-read file slices (docs/formats/log-file.md
 * §10-11): the log records of one file slice, and their merge with the slice's base file rows.
 *
 * A hudi_mor_slice loads the log files of one slice (every byte through storage), splits them
 * into blocks (format/log/log.h), keeps the blocks that apply (instant <= the query's, completed,
 * not rolled back, not corrupt), decodes the data blocks into columnar batches of the reader's
 * scan schema (each block's writer schema projected onto it by name, schema/project.h) and indexes
 * the records by record key, log record against log record merged as the table's merge rules
 * say. The base file is then streamed through hudi_mor_merge batch by batch: each base row is kept,
 * replaced by its log record, or dropped (deletes); the base batch's columns are kept and only
 * the replaced rows patched (fixed-width values and same-length strings in place, other strings
 * rebuilt in one pass), deleted rows compacted out (no per-row allocation). Log records that
 * matched no base row are inserts: hudi_mor_next_inserts emits them after the base file.
 *
 * Memory is bounded by max_memory (hoodie.memory.merge.max.size, docs/ARCHITECTURE.md "Merged
 * reads"): decoded log records past it spill to a scratch file (an Avro record per log record,
 * read back by offset, in one gather per merged batch), and log files past it are dropped
 * after their blocks are selected and read again when decoded. The record keys of the slice
 * (and an ordering value per spilled record) stay in memory, as in Hudi's spillable map. */
#ifndef HUDI_READ_MOR_H
#define HUDI_READ_MOR_H

#include "columnar/columnar.h"
#include "table/table.h"

/* How a base record and its log record, or two log records, are merged. */
typedef enum hudi_mor_merge_mode {
    /* The later write wins (v8+ COMMIT_TIME_ORDERING). */
    HUDI_MOR_COMMIT_TIME = 0,
    /* v6 OverwriteWithLatestAvroPayload: log records combine by ordering value (preCombine),
     * the log record wins over the base record. */
    HUDI_MOR_OVERWRITE_LATEST,
    /* v6 DefaultHoodieRecordPayload: the greater ordering value wins, ties to the later write;
     * a delete drops the base record whatever its ordering value. */
    HUDI_MOR_DEFAULT_PAYLOAD,
    /* v8+ EVENT_TIME_ORDERING: as DEFAULT_PAYLOAD, but a delete that carries an ordering value
     * loses to a base record with a greater one. */
    HUDI_MOR_EVENT_TIME,
} hudi_mor_merge_mode;

/* The merge mode of a table from its config (docs/formats/log-file.md §11):
 * hoodie.record.merge.mode for versions 8 and up (default EVENT_TIME_ORDERING with an ordering
 * field, else COMMIT_TIME_ORDERING), hoodie.compaction.payload.class before. EUNSUPPORTED naming
 * the table for CUSTOM merge modes and payload classes whose merge is not one of these. */
int hudi_mor_merge_mode_of(hudi_mor_merge_mode *out, const hudi_table_config *cfg,
                           const char *table_path, hudi_error *err);

/* Column names of `schema` (the scan schema) as a block of the slice written at `instant` has
 * them: used with InternalSchemas (schema on read), as for base files; NULL = by name. */
typedef int (*hudi_mor_names_fn)(void *ctx, const char *instant, hudi_field *out, hudi_error *err);

typedef struct hudi_mor_options {
    hudi_fs *fs;
    const hudi_timeline *timeline;
    const char *as_of; /* the query instant; blocks after it end the scan ("" = none) */
    /* Incremental reads (Hudi 0.15's instant range): when `range_end` is set, data and delete
     * blocks of instants outside (range_begin, range_end] are skipped, and blocks after the
     * range do not end the scan (a later rollback's command block does not hide it). */
    const char *range_begin; /* NULL = from the start */
    const char *range_end;
    const hudi_field *schema; /* the scan schema (STRUCT); log batches are read as it */
    int32_t key_col;          /* column of _hoodie_record_key in `schema` */
    int32_t ordering_col;     /* the ordering (precombine) field, -1 = none */
    int32_t is_deleted_col;   /* _hoodie_is_deleted (boolean), -1 = none */
    hudi_mor_merge_mode mode;
    int64_t batch_rows; /* rows per batch of inserts (0 = 65536) */
    /* Compare each replaced value with its replacement (hudi_mor_same_values); false: every
     * column with a replaced row counts as changed, and the merge compares nothing. */
    bool compare_patches;
    hudi_mor_names_fn names;
    void *names_ctx;
    /* Bounded memory: bytes of decoded log records (and of log file bytes kept between block
     * selection and decoding) before they spill; 0 = 1 GiB. Spill files are created in
     * spill_dir (NULL = "/tmp") of spill_fs (NULL = the local disk) and removed by
     * hudi_mor_slice_free. */
    int64_t max_memory;
    hudi_fs *spill_fs;
    const char *spill_dir;
} hudi_mor_options;

typedef struct hudi_mor_slice hudi_mor_slice;

/* Loads and indexes the logs of slice `s`. `opts` (and what it points to) must outlive it.
 * Corrupt blocks are skipped and counted (hudi_mor_corrupt_blocks). Errors name the log file. */
int hudi_mor_slice_open(hudi_mor_slice **out, const hudi_mor_options *opts,
                        const hudi_file_slice *s, hudi_error *err);
void hudi_mor_slice_free(hudi_mor_slice *m); /* NULL-safe */

/* Merges one base batch: `in` holds `rows` rows of every scan column (arrays whose fields are
 * the columns' fields); `out` gets the arrays of the merged rows (*out_rows of them). A column
 * of `in` that the merge can reuse (no row changed, or only patched in place) is handed over:
 * out[c] is that array and in[c] is set to NULL; the others are new arrays and in[c] stays
 * the caller's (possibly patched: on an error any in[c] left may have been modified). */
int hudi_mor_merge(hudi_mor_slice *m, hudi_array **in, int64_t rows, hudi_array **out,
                   int64_t *out_rows, hudi_error *err);

/* After a successful hudi_mor_merge: per scan column, whether the merged column holds the
 * base batch's values row for row (no row dropped, every replaced value equal to the new one,
 * validity included; with compare_patches off, or for a column of another kind than
 * fixed-width or string/binary, any replaced row counts as a change). What a compaction needs
 * to take an unchanged column chunk of the base file as it is stored. NULL before the first
 * merge. */
const bool *hudi_mor_same_values(const hudi_mor_slice *m);

/* The next batch of log records no base row matched (inserts; deletes are left out) as new
 * arrays of the scan columns, whose fields are `fields` (the scan schema's children, or the
 * caller's copies of the same shape); *out_rows = 0 at the end. */
int hudi_mor_next_inserts(hudi_mor_slice *m, const hudi_field *const *fields, hudi_array **out,
                          int64_t *out_rows, hudi_error *err);

/* What the scan of the logs saw. */
typedef struct hudi_mor_stats {
    int64_t log_files, blocks, blocks_skipped; /* skipped: uncommitted, rolled back, after Q */
    int64_t corrupt_blocks;
    int64_t log_records, delete_records;
    int64_t spills;          /* times the decoded log records were spilled */
    int64_t spilled_records; /* log records written to the spill file */
    int64_t reread_files;    /* log files dropped after selection and read again */
    int64_t rows_dropped;    /* base rows hudi_mor_merge left out (deleted by the logs) */
    int64_t rows_inserted;   /* log records no base row matched (hudi_mor_next_inserts) */
} hudi_mor_stats;
const hudi_mor_stats *hudi_mor_slice_stats(const hudi_mor_slice *m);
/* The first log file with a corrupt block, or NULL. */
const char *hudi_mor_corrupt_file(const hudi_mor_slice *m);

#endif
