/**
 * @file hudi_table.h
 * @brief Hudi tables: create, open, inspect, write batches and scan them.
 *
 * A table is a directory holding data files and a `.hoodie/` folder (properties and the
 * timeline) in Apache Hudi's on-disk format, table version 6 (Hudi 0.14/0.15); tables of
 * versions 8 and 9 (Hudi 1.x) can be read. Rows enter as Arrow C Data Interface arrays and
 * leave as an Arrow C stream, so any Arrow-speaking engine can consume them without copies.
 * The Arrow structs are declared here only by name: include hudi_arrow.h (or Arrow's own
 * arrow/c/abi.h) to use them.
 *
 * Handles are opaque. Functions return 0 or a negative HUDI_E* code and fill the caller's
 * hudi_error (which may be NULL). Outputs are NULL on failure. hudi_*_free(NULL) is a no-op.
 * Option structs are versioned: start from the _INIT macro, then set fields.
 *
 * Threads: a hudi_table and everything opened from it (scans, streams) must be used by one
 * thread at a time. Different tables are independent.
 *
 * A short session:
 * @code
 * hudi_table *t = NULL;
 * hudi_error err = HUDI_ERROR_INIT;
 * hudi_table_create_options io = HUDI_TABLE_CREATE_OPTIONS_INIT;
 * io.table_name = "trips";
 * io.record_key_fields = "id";
 * io.schema = &schema;                      // an ArrowSchema (struct) of the data columns
 * if (hudi_table_create(&t, "/tmp/trips", &io, &err) < 0) fprintf(stderr, "%s\n", err.message);
 * hudi_table_write_options wo = HUDI_TABLE_WRITE_OPTIONS_INIT;
 * wo.operation = HUDI_WRITE_UPSERT;
 * hudi_table_write_result res;
 * hudi_table_write(t, &schema, &array, &wo, &res, &err);   // res.instant: the commit
 * hudi_scan *scan = NULL;
 * hudi_scan_options so = HUDI_SCAN_OPTIONS_INIT;
 * so.filter = "fare > 10";
 * hudi_scan_open(&scan, t, &so, &err);
 * struct ArrowArrayStream stream;
 * hudi_scan_to_arrow(scan, &stream, &err);  // then stream.get_next(...) until release == NULL
 * stream.release(&stream);
 * hudi_table_free(t);
 * @endcode
 */
/* The guard is not HUDI_TABLE_H: the internal src/table/table.h uses that one. */
#ifndef HUDI_PUBLIC_TABLE_H
#define HUDI_PUBLIC_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "hudi.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ArrowSchema;
struct ArrowArray;
struct ArrowArrayStream;

typedef struct hudi_table hudi_table;
typedef struct hudi_scan hudi_scan;

/** Options for opening an existing table. */
typedef struct hudi_table_open_options {
    int version; /**< HUDI_TABLE_OPEN_OPTIONS_VERSION */
} hudi_table_open_options;
#define HUDI_TABLE_OPEN_OPTIONS_VERSION 1
#define HUDI_TABLE_OPEN_OPTIONS_INIT                                                               \
    { HUDI_TABLE_OPEN_OPTIONS_VERSION }

/* ---- opening and creating ------------------------------------------------------------------ */

/** Opens the table at `base_path` (a local directory). Reads hoodie.properties and the
 *  timeline. Fails with HUDI_ENOTFOUND when there is no table, HUDI_EUNSUPPORTED for table
 *  versions or base file formats hudic cannot read. */
HUDI_API int hudi_table_open(hudi_table **out, const char *base_path,
                             const hudi_table_open_options *opts, hudi_error *err);

/** Options for creating a table. Strings and the schema are borrowed for the duration of
 *  hudi_table_create. */
typedef struct hudi_table_create_options {
    int version;                         /**< HUDI_TABLE_CREATE_OPTIONS_VERSION */
    const char *table_name;              /**< hoodie.table.name; required, a valid Avro name */
    const char *table_type;              /**< "COPY_ON_WRITE" (NULL = that); MERGE_ON_READ: later */
    const char *record_key_fields;       /**< comma separated; NULL = generated keys */
    const char *partition_fields;        /**< comma separated; NULL or "" = non-partitioned */
    const char *precombine_field;        /**< ordering field of upserts; NULL = none */
    const char *keygen_class;            /**< NULL = inferred from the keys and partitions, as
                                              Spark SQL does */
    bool hive_style_partitioning;        /**< partition folders named "field=value" */
    bool url_encode_partitions;          /**< URL-encode partition values in folder names */
    bool populate_meta_fields;           /**< write the _hoodie_* columns (default true) */
    const struct ArrowSchema *schema;    /**< required: a struct ("+s") of the data columns,
                                              without the _hoodie_* meta columns */
    const char *const *extra_properties; /**< more hoodie.properties entries: key, value, ...,
                                              NULL; may be NULL */
    const char *avro_schema;             /**< version 2: the data columns as an Avro record schema
                                              (JSON), instead of `schema` */
} hudi_table_create_options;
#define HUDI_TABLE_CREATE_OPTIONS_VERSION 2
#define HUDI_TABLE_CREATE_OPTIONS_INIT                                                             \
    {                                                                                              \
        HUDI_TABLE_CREATE_OPTIONS_VERSION, NULL, NULL, NULL, NULL, NULL, NULL, false, false, true, \
            NULL, NULL, NULL                                                                       \
    }

/** Creates a new, empty Hudi table (table version 6, as Hudi 0.14/0.15 write it; no metadata
 *  table) at `base_path` and opens it. Column types are stored as Hudi on Spark derives them
 *  (int8/int16/uint8/uint16 as int, uint32 as long, uint64 as decimal(20,0), float16 as float,
 *  nanosecond timestamps as long). The directory may exist but must not hold a table:
 *  HUDI_EEXISTS then. HUDI_EINVAL names a missing or bad option, HUDI_EUNSUPPORTED an Arrow
 *  type Hudi cannot store (the schema is stored as Avro). On success `*out` is the open table
 *  (free it with hudi_table_free). */
HUDI_API int hudi_table_create(hudi_table **out, const char *base_path,
                               const hudi_table_create_options *opts, hudi_error *err);

/** Closes the table. NULL does nothing. Scans and streams opened from it must be released
 *  first. */
HUDI_API void hudi_table_free(hudi_table *t);

/* ---- inspecting ---------------------------------------------------------------------------- */

/** The table's base path as given when it was opened (without trailing slashes). Valid until
 *  the table is freed. */
HUDI_API const char *hudi_table_base_path(const hudi_table *t);

/** Value of a table property (hoodie.properties), or NULL. Valid until the table is freed
 *  or written. */
HUDI_API const char *hudi_table_property(const hudi_table *t, const char *key);

/** The latest completed instant of the commits timeline ("" for an empty table). Valid until
 *  the table is freed or written. */
HUDI_API const char *hudi_table_latest_instant(const hudi_table *t);

/** The table's current data schema (the columns a write takes, without the _hoodie_* meta
 *  columns) as an ArrowSchema struct. The caller owns `out` and calls out->release. */
HUDI_API int hudi_table_schema(hudi_table *t, struct ArrowSchema *out, hudi_error *err);

/** The schema of the rows a scan of every column returns: the _hoodie_* meta columns, then the
 *  data columns. The caller owns `out` and calls out->release. */
HUDI_API int hudi_table_full_schema(hudi_table *t, struct ArrowSchema *out, hudi_error *err);

/** Facts from hoodie.properties, with Hudi's defaults applied. Strings are valid until the table
 *  is freed. */
typedef struct hudi_table_info {
    const char *name;        /**< hoodie.table.name */
    const char *type;        /**< "COPY_ON_WRITE" or "MERGE_ON_READ" */
    int32_t version;         /**< hoodie.table.version */
    int32_t timeline_layout; /**< hoodie.timeline.layout.version */
} hudi_table_info;

HUDI_API void hudi_table_info_get(const hudi_table *t, hudi_table_info *out);

/** Number of hoodie.properties entries. */
HUDI_API int32_t hudi_table_property_count(const hudi_table *t);
/** Entry `i` of hoodie.properties in file order (HUDI_EINVAL when out of range). The strings are
 *  valid until the table is freed or written. */
HUDI_API int hudi_table_property_get(const hudi_table *t, int32_t i, const char **key,
                                     const char **value);

/** One instant of the timeline. */
typedef struct hudi_instant_info {
    const char *time;            /**< requested time, "yyyyMMddHHmmssSSS" */
    const char *action;          /**< "commit", "replacecommit", "clean", "rollback", ... */
    const char *state;           /**< "REQUESTED", "INFLIGHT" or "COMPLETED" */
    const char *completion_time; /**< "" unless the timeline records it (layout 2) */
} hudi_instant_info;

/** Number of instants on the active timeline (every action and state). */
HUDI_API int32_t hudi_table_instant_count(const hudi_table *t);
/** Instant `i` in timeline order (HUDI_EINVAL when out of range). Strings are valid until the
 *  table is freed, written or refreshed. */
HUDI_API int hudi_table_instant_get(const hudi_table *t, int32_t i, hudi_instant_info *out);

/** The file slices a query sees: the latest slice of every file group. */
typedef struct hudi_file_slices hudi_file_slices;

/** The file slices as of `as_of_instant` (NULL = the latest commit). The table must outlive
 *  them. */
HUDI_API int hudi_table_file_slices(hudi_file_slices **out, hudi_table *t,
                                    const char *as_of_instant, hudi_error *err);
/** The instant the slices are as of ("" for an empty table). */
HUDI_API const char *hudi_file_slices_as_of(const hudi_file_slices *v);
HUDI_API int32_t hudi_file_slices_count(const hudi_file_slices *v);

/** One file slice. Strings are valid until hudi_file_slices_free. */
typedef struct hudi_file_slice_info {
    const char *partition_path; /**< "" for a non-partitioned table */
    const char *file_id;
    const char *base_instant; /**< the instant that wrote the slice */
    const char *base_file;    /**< base file name; NULL for a log-only slice */
    int64_t base_file_bytes;  /**< -1 without a base file */
    int32_t n_log_files;      /**< log files (hudi_file_slice_log) */
} hudi_file_slice_info;

HUDI_API int hudi_file_slices_get(const hudi_file_slices *v, int32_t i, hudi_file_slice_info *out);
/** Log file `k` of slice `i`: its name and size. */
HUDI_API int hudi_file_slice_log(const hudi_file_slices *v, int32_t i, int32_t k, const char **name,
                                 int64_t *size_bytes);
HUDI_API void hudi_file_slices_free(hudi_file_slices *v);

/** Re-reads the timeline, to see commits made by other writers since the table was opened. */
HUDI_API int hudi_table_refresh(hudi_table *t, hudi_error *err);

/* ---- writing ------------------------------------------------------------------------------- */

/** A write operation: Hudi's operationType. */
typedef enum hudi_write_operation {
    HUDI_WRITE_INSERT = 0,           /**< new records (duplicates of existing keys are kept) */
    HUDI_WRITE_UPSERT = 1,           /**< insert new keys, update existing ones */
    HUDI_WRITE_BULK_INSERT = 2,      /**< like insert, planned for throughput */
    HUDI_WRITE_DELETE = 3,           /**< the batch's rows name the keys to delete */
    HUDI_WRITE_INSERT_OVERWRITE = 4, /**< replace the partitions the batch touches */
    HUDI_WRITE_INSERT_OVERWRITE_TABLE = 5, /**< replace the whole table with the batch */
    HUDI_WRITE_DELETE_PARTITION = 6,       /**< drop `partitions` (no batch) */
} hudi_write_operation;

/** Hudi's name of an operation (its operationType: "INSERT", "UPSERT", "BULK_INSERT", "DELETE",
 *  "INSERT_OVERWRITE", "INSERT_OVERWRITE_TABLE", "DELETE_PARTITION"); "UNKNOWN" otherwise. */
HUDI_API const char *hudi_write_operation_name(hudi_write_operation op);
/** The operation named `name` (any case: "upsert", "BULK_INSERT", ...). HUDI_EINVAL otherwise. */
HUDI_API int hudi_write_operation_parse(hudi_write_operation *out, const char *name,
                                        hudi_error *err);

/** Options of one write. Strings are borrowed for the duration of the call. */
typedef struct hudi_table_write_options {
    int version;                    /**< HUDI_TABLE_WRITE_OPTIONS_VERSION */
    hudi_write_operation operation; /**< default HUDI_WRITE_UPSERT */
    bool latest_wins;               /**< upserts: the incoming record always wins
                                         (OverwriteWithLatestAvroPayload); default false:
                                         the larger precombine value wins */
    const char *const *partitions;  /**< DELETE_PARTITION: partition paths to drop */
    int32_t n_partitions;
    int64_t target_file_bytes;    /**< base file size target; 0 = 120 MiB */
    int64_t small_file_bytes;     /**< files below this get new inserts; 0 = 100 MiB */
    int32_t clean_retain_commits; /**< clean after the write keeping this many commits;
                                       default 10, 0 = do not clean */
    const char *instant_time;     /**< force the instant ("yyyyMMddHHmmssSSS"); NULL = now */
    /** Version 2: writer settings as Apache Hudi names them, a NULL-terminated key, value list
     *  (NULL = none); hoodie.properties supplies those absent here. Concurrency:
     *  hoodie.write.concurrency.mode (single_writer, the default, or
     *  optimistic_concurrency_control), hoodie.write.lock.wait_time_ms (60000),
     *  hoodie.write.lock.provider (only FileSystemBasedLockProvider),
     *  hoodie.write.lock.filesystem.path and .expire, hoodie.client.heartbeat.interval_in_ms and
     *  .tolerable.misses. hoodie.hudic.parallelism: the threads of the write and of the inline
     *  compaction it triggers (0 = the processors, 1-1024; docs/CLI.md "Threads"). */
    const char *const *properties;
} hudi_table_write_options;
#define HUDI_TABLE_WRITE_OPTIONS_VERSION 2
#define HUDI_TABLE_WRITE_OPTIONS_INIT                                                              \
    { HUDI_TABLE_WRITE_OPTIONS_VERSION, HUDI_WRITE_UPSERT, false, NULL, 0, 0, 0, 10, NULL, NULL }

/** What a write did. */
typedef struct hudi_table_write_result {
    char instant[32];                  /**< the committed instant; "" when nothing was written */
    int64_t inserts, updates, deletes; /**< records */
    int64_t files_written, bytes_written;
} hudi_table_write_result;

/** Commits one record batch with one operation as one instant (commit or replacecommit).
 *  `schema` is a struct ArrowSchema and `array` a struct ArrowArray of the same shape: its
 *  columns are matched to the table's columns by name; _hoodie_* meta columns in it are
 *  ignored. Both are borrowed: hudic copies what it needs and the caller still releases them.
 *  For HUDI_WRITE_DELETE_PARTITION both may be NULL.
 *  The write holds the table lock (.hoodie/lock, shared with Apache Hudi's
 *  FileSystemBasedLockProvider) from its first look at the timeline to the end of its cleanup
 *  (with optimistic concurrency control: only to start and to commit). Before writing, writes
 *  left pending by dead writers are rolled back; a live writer's never. On failure nothing is
 *  committed and the table reads as before. `result` may be NULL.
 *  Retryable failures: HUDI_ELOCKED (another writer held the lock longer than
 *  hoodie.write.lock.wait_time_ms; the message names it and since when) and HUDI_ECONFLICT
 *  (optimistic concurrency: a commit that completed meanwhile changed a file group this write
 *  changed; this write was rolled back). */
HUDI_API int hudi_table_write(hudi_table *t, const struct ArrowSchema *schema,
                              const struct ArrowArray *array, const hudi_table_write_options *opts,
                              hudi_table_write_result *result, hudi_error *err);

/** Commits every batch of `input` (an Arrow C stream of record batches; borrowed: the caller
 *  still releases it) with one operation as one instant, as hudi_table_write does for one
 *  batch. A stream without batches commits an empty batch of its schema. */
HUDI_API int hudi_table_write_stream(hudi_table *t, struct ArrowArrayStream *input,
                                     const hudi_table_write_options *opts,
                                     hudi_table_write_result *result, hudi_error *err);

/** Rolls back every pending (requested or inflight) write left by a failed writer: deletes its
 *  files, records a rollback instant. `*rolled_back` (may be NULL) receives their number. */
HUDI_API int hudi_table_rollback(hudi_table *t, int32_t *rolled_back, hudi_error *err);

/** Cleans file versions no longer needed, keeping those the latest `retain_commits` (>= 1)
 *  commits read (KEEP_LATEST_COMMITS), and records a clean instant when anything was removed.
 *  `*files_deleted` (may be NULL) receives the number of files removed. */
HUDI_API int hudi_table_clean(hudi_table *t, int32_t retain_commits, int64_t *files_deleted,
                              hudi_error *err);

/** Compacts a merge-on-read table: runs every pending compaction (oldest first), then
 *  schedules one for every file group whose latest file slice has log files and runs it. A
 *  compaction runs by its plan (`<I>.compaction.requested`, hudic's or Apache Hudi's): each
 *  operation's base file and log files are merged into a new base file named with the
 *  compaction instant, then `<I>.commit` commits them all; a compaction left inflight by a
 *  failed run is run again after its partial files are removed. `*groups` (may be NULL)
 *  receives the number of file groups compacted (0: nothing to do), `instant` (may be NULL,
 *  32 bytes) the last instant run. HUDI_EINVAL for a copy-on-write table. */
HUDI_API int hudi_table_compact(hudi_table *t, int32_t *groups, char instant[32], hudi_error *err);

/** Schedules a compaction only: writes `<I>.compaction.requested` with one operation per file
 *  group whose latest file slice has log files and that no pending compaction holds. Writers
 *  then put that group's new log files in the slice the compaction opens (named with `I`), and
 *  readers merge both slices until it runs. `*groups` (may be NULL) receives the number of
 *  operations (0: nothing to compact, nothing written), `instant` (may be NULL, 32 bytes) the
 *  instant ("" when none). HUDI_EINVAL for a copy-on-write table, HUDI_ECONFLICT while a
 *  deltacommit is pending. */
HUDI_API int hudi_table_compact_schedule(hudi_table *t, int32_t *groups, char instant[32],
                                         hudi_error *err);

/** Runs pending compaction `instant` by its plan (see hudi_table_compact), or every pending
 *  compaction, oldest first, when `instant` is NULL. `*groups` (may be NULL) receives the
 *  number of file groups compacted (0 when nothing was pending). HUDI_EINVAL when `instant` is
 *  not a pending compaction (or already completed) or the table is copy-on-write; HUDI_ENOTFOUND
 *  when a file the plan names is missing. */
HUDI_API int hudi_table_compact_run(hudi_table *t, const char *instant, int32_t *groups,
                                    hudi_error *err);

/** Clustering (docs/formats/timeline.md "Clustering"): small file groups of a partition are
 *  rewritten together into new file groups, their records optionally sorted, as Hudi 0.15's
 *  SparkSizeBasedClusteringPlanStrategy and SparkSortAndSizeExecutionStrategy do. Zero-initialise;
 *  0 or NULL takes Hudi's default. */
typedef struct hudi_cluster_options {
    int version;                   /**< 1 */
    const char *sort_columns;      /**< hoodie.clustering.plan.strategy.sort.columns "c1,c2" */
    int64_t small_file_limit;      /**< ...plan.strategy.small.file.limit (300 MB): only base files
                                    *   smaller than this are clustered */
    int64_t target_file_max_bytes; /**< ...plan.strategy.target.file.max.bytes (1 GB) */
    int64_t max_bytes_per_group;   /**< ...plan.strategy.max.bytes.per.group (2 GB) */
    int32_t max_num_groups;        /**< ...plan.strategy.max.num.groups (30) */
    bool no_single_group;          /**< ...plan.strategy.single.group.clustering.enabled=false:
                                    *   a partition's last group of one file slice is left out */
    const char *const
        *partitions; /**< only these partition paths (SELECTED_PARTITIONS); NULL all */
    int32_t n_partitions;
    const char *instant_time; /**< the plan's instant (tests); NULL = a new one */
} hudi_cluster_options;

/** Schedules a clustering: writes its plan as `<instant>.replacecommit.requested`. Returns the
 *  number of clustering groups (0: nothing to cluster, no instant), the instant in `instant`
 *  (may be NULL, 32 bytes). `o` may be NULL. */
HUDI_API int hudi_table_cluster_schedule(hudi_table *t, const hudi_cluster_options *o,
                                         char instant[32], hudi_error *err);
/** Executes the pending clustering `instant` (scheduled by hudic or by Hudi's Spark writer): a
 *  failed earlier execution is rolled back to the plan first, then the new file groups are
 *  written and the replacecommit completed. Updates to the file groups of a pending clustering
 *  fail (HUDI_ECONFLICT) as Hudi's default SparkRejectUpdateStrategy does. Only
 *  target_file_max_bytes of `o` (may be NULL) is used. */
HUDI_API int hudi_table_cluster_execute(hudi_table *t, const char *instant,
                                        const hudi_cluster_options *o, hudi_error *err);
/** The pending clustering instants, oldest first (hudi_free each and the array). */
HUDI_API int hudi_table_cluster_pending(hudi_table *t, char ***instants, size_t *count,
                                        hudi_error *err);

/* ---- reading ------------------------------------------------------------------------------- */

/** Options of a scan. Strings are borrowed for the duration of hudi_scan_open. */
typedef struct hudi_scan_options {
    int version;                /**< HUDI_SCAN_OPTIONS_VERSION */
    const char *const *columns; /**< columns to return (names); NULL = all, meta columns included */
    int32_t n_columns;
    const char *as_of_instant; /**< time travel: the table as of this instant; NULL = latest */
    const char *begin_instant; /**< incremental: changes in (begin, end]; NULL = not incremental */
    const char *end_instant;   /**< incremental end; NULL = latest */
    const char *filter;        /**< one predicate "col op constant" on a top-level column:
                                    op is = != <> < <= > >= or IS [NOT] NULL, the constant a
                                    number, true/false, 'quoted text' (also dates and
                                    timestamps), x'hex'; NULL = none */
    bool read_optimized;       /**< MOR: base files only */
    int64_t batch_rows;        /**< rows per batch; 0 = default */
    bool ignore_missing_files; /**< a base file that a completed commit wrote but storage lacks
                                    (deleted, half-copied table) fails the scan (HUDI_ENOTFOUND
                                    naming the commit and the file); true: its file group is
                                    left out and hudi_scan_warning says so */
} hudi_scan_options;
#define HUDI_SCAN_OPTIONS_VERSION 1
#define HUDI_SCAN_OPTIONS_INIT                                                                     \
    { HUDI_SCAN_OPTIONS_VERSION, NULL, 0, NULL, NULL, NULL, NULL, false, 0, false }

/** Starts a scan (snapshot, time travel or incremental per `opts`; `opts` may be NULL for a
 *  snapshot of every column). The table must outlive the scan and any stream made from it.
 *  HUDI_EINVAL for a bad filter (the message says what is wrong), HUDI_ENOTFOUND for an
 *  unknown column or instant. */
HUDI_API int hudi_scan_open(hudi_scan **out, hudi_table *t, const hudi_scan_options *opts,
                            hudi_error *err);

/** Moves the scan into an Arrow C stream: each get_next yields one record batch (a struct
 *  array whose buffers the consumer owns), and a released (release == NULL) array marks the
 *  end. get_last_error gives the message of a failed call. The scan handle is consumed, also
 *  on failure (do not free it); the stream owns it until stream->release. */
HUDI_API int hudi_scan_to_arrow(hudi_scan *scan, struct ArrowArrayStream *out, hudi_error *err);

/** What the scan left out with ignore_missing_files ("N committed base files missing, file
 *  groups skipped: commit ... wrote ..."), and corrupt merge-on-read log blocks skipped in the
 *  file slices read so far ("N corrupt log blocks skipped in <log file>"), or NULL when
 *  nothing. Valid until the scan is freed or moved into a stream. */
HUDI_API const char *hudi_scan_warning(const hudi_scan *scan);

/** Frees a scan that was not moved into a stream. NULL does nothing. */
HUDI_API void hudi_scan_free(hudi_scan *scan);

/** Change data capture: the changes of the commits in (begin, end] (`begin` "earliest" or
 *  NULL = from the start, `end` NULL = to the latest commit) of a table (copy-on-write or
 *  merge-on-read) with hoodie.table.cdc.enabled=true, as Hudi 0.15's CDC query returns them:
 *  a stream of batches of four string columns `op` ("i", "u", "d"), `ts_ms` (the commit
 *  instant), `before` and `after` (the record images as text; docs/formats/cdc.md §4). The
 *  rows are computed before the call returns. HUDI_EINVAL for a table without CDC. The stream
 *  owns its rows: the table may be freed before it. */
HUDI_API int hudi_table_cdc(hudi_table *t, const char *begin, const char *end,
                            struct ArrowArrayStream *out, hudi_error *err);

#ifdef __cplusplus
}
#endif
#endif
