/* write.h - writing Hudi copy-on-write tables (docs/formats/timeline.md,
 * commit-metadata.md, file-names.md, base-files.md, keys.md, properties.md): creating a table, and
 * committing a batch of records with one operation as one instant, the way Apache Hudi 0.14/0.15
 * does on Spark, so Spark, Flink, Trino and hudi-rs read the result.
 *
 * A write is: take the table lock, roll back failed writes of dead writers, pick a new instant
 * and start its heartbeat, plan (keys,
 * partitions, de-duplication, index lookup, file-group assignment with small-file
 * handling), write requested + inflight instants, markers, partition metadata and Parquet
 * base files (meta columns, Hudi footer: bloom filter, min/max keys, Avro schema), then the
 * completed instant with the commit metadata (the atomic commit point), then remove markers
 * and clean, release the lock. With optimistic concurrency control the lock is held only to
 * start the instant and to commit it, and the commit fails with HUDI_ECONFLICT (the write
 * rolled back) when a concurrent commit touched one of its file groups. A failure before the
 * completed instant leaves the table reading as before; the next write rolls the failed one
 * back once its writer is known to be dead. HUDI_ELOCKED: the lock was not had in time. */
#ifndef HUDI_WRITE_H
#define HUDI_WRITE_H

#include "columnar/columnar.h"
#include "hudi/hudi_table.h"
#include "schema/internal_schema.h"
#include "table/tbl.h"

/* Write operations are the public hudi_write_operation (include/hudi/hudi_table.h), whose
 * names and parsing (hudi_write_operation_name/_parse) live in write_client.c. */

/* Creating a table: hoodie.properties with the keys Hudi 0.14 writes for table version 6,
 * timeline layout 1, no metadata table (properties.md §6), and the create schema. */
typedef struct hudi_create_options {
    const char *table_name;        /* required */
    hudi_table_type type;          /* COPY_ON_WRITE (MERGE_ON_READ later) */
    const char *record_key_fields; /* comma separated; NULL/"" = generated keys (keys.md §9) */
    const char *partition_fields;  /* comma separated; NULL/"" = non-partitioned */
    const char *precombine_field;  /* NULL = none */
    const char *keygen_class;      /* NULL = inferred as Spark SQL does (keys.md §7) */
    bool hive_style_partitioning;
    bool url_encode_partitions;
    bool populate_meta_fields;      /* default true */
    const hudi_field *schema;       /* the data columns (no meta columns); required */
    const char *const *extra_props; /* more key, value pairs; NULL-terminated list */
} hudi_create_options;

#define HUDI_CREATE_OPTIONS_INIT                                                                   \
    { NULL, HUDI_COPY_ON_WRITE, NULL, NULL, NULL, NULL, false, false, true, NULL, NULL }

int hudi_tbl_create(hudi_table **out, hudi_fs *fs, const char *base_path,
                    const hudi_create_options *opts, hudi_error *err);

typedef struct hudi_write_options {
    hudi_write_operation op;
    /* payload semantics for upserts: ordering-field-wins (DefaultHoodieRecordPayload,
     * EVENT_TIME_ORDERING) or latest-wins (OverwriteWithLatestAvroPayload) */
    bool latest_wins;
    const char *const *partitions; /* DELETE_PARTITION: the partitions to drop */
    int32_t n_partitions;
    int64_t
        target_file_bytes;    /* base file target (hoodie.parquet.max.file.size), default 120 MiB */
    int64_t small_file_bytes; /* hoodie.parquet.small.file.limit, default 100 MiB */
    int32_t clean_retain_commits; /* hoodie.cleaner.commits.retained, default 10; 0 = no clean */
    bool use_bloom_index;         /* default true: bloom index; false: simple index */
    int codec;                    /* Parquet codec, default GZIP as Hudi 0.14 (or SNAPPY) */
    const char *instant_time;     /* force the instant (tests); NULL = generated */
    const hudi_clock *clock;      /* NULL = system clock */
    /* Writer settings as Hudi names them, a NULL-terminated key, value list (NULL = none);
     * hoodie.properties supplies those absent here. Concurrency: hoodie.write.concurrency.mode,
     * hoodie.write.lock.* and hoodie.client.heartbeat.* (docs/formats/concurrency.md). */
    const char *const *props;
    /* Tests: called once the data files are written, before the commit (with optimistic
     * concurrency, before the lock is taken again), so a test can commit a concurrent write. */
    void (*before_commit)(void *payload);
    void *payload;
    hudi_progress *progress; /* advanced per file group written (may be NULL) */
} hudi_write_options;

#define HUDI_WRITE_OPTIONS_INIT                                                                    \
    { HUDI_WRITE_UPSERT, false, NULL, 0, 0, 0, 10, true, 0, NULL, NULL, NULL, NULL, NULL, NULL }

/* A write's result is the public hudi_table_write_result (instant, record and file counts). */

/* Commits `batch` (columns of the table schema by name, without meta columns) with one
 * operation. On failure nothing is committed and the table reads as before. */
int hudi_tbl_write(hudi_table *t, const hudi_batch *batch, const hudi_write_options *opts,
                   hudi_table_write_result *result, hudi_error *err);

/* Rolls back every pending (requested/inflight) write instant left by a dead writer (timeline.md
 * §8; never one whose writer is alive, docs/formats/concurrency.md) under the table lock: deletes
 * its files (by markers, else by listing its instant's files), records a rollback instant,
 * deletes its timeline files and heartbeat. Returns the number rolled back. */
int hudi_tbl_rollback_pending(hudi_table *t, const hudi_clock *clock, hudi_error *err);

/* Rolls back the latest completed commit or replacecommit `instant` (Hudi's
 * rollback_to_instant), under the table lock: its completed instant is deleted first (the
 * commit point), then it is rolled back as a failed write. HUDI_ECONFLICT when a later commit
 * exists, a write is pending, or a clean already deleted file versions it replaced;
 * HUDI_ENOTFOUND for an instant that is not a completed commit. */
int hudi_tbl_rollback_commit(hudi_table *t, const char *instant, const hudi_clock *clock,
                             hudi_error *err);

/* Savepoints (docs/formats/timeline.md §11), under the table lock. create: savepoints the
 * completed commit `instant` (HUDI_ENOTFOUND if it is not one, HUDI_EEXISTS if savepointed,
 * HUDI_EINVAL when it is older than the last clean's earliest commit to retain: "beyond the
 * lookup window"); the cleaner then keeps the files it names. delete: removes it
 * (HUDI_ENOTFOUND). list: completed savepoint times, newest first (hudi_free each and the
 * array). restore: rolls back every completed commit after the savepoint, newest first (not
 * atomic as a whole, like Hudi's restore: after a crash, run it again). */
int hudi_tbl_savepoint_create(hudi_table *t, const char *instant, const char *user,
                              const char *comments, const hudi_clock *clock, hudi_error *err);
int hudi_tbl_savepoint_delete(hudi_table *t, const char *instant, hudi_error *err);
int hudi_tbl_savepoints(const hudi_table *t, char ***out, size_t *count, hudi_error *err);
int hudi_tbl_restore_savepoint(hudi_table *t, const char *instant, const hudi_clock *clock,
                               hudi_error *err);

/* ALTER TABLE on the table schema (docs/formats/schema-evolution.md §3, internal-schema.md §6),
 * under the table lock, as one instant the way Hudi's Spark DDL commits it: a commit (copy on
 * write) with operation ALTER_SCHEMA and no write stats, whose "schema" is the new table schema.
 * With schema on read the InternalSchema is evolved (hudi_ischema_apply: ids, history) and the
 * commit also carries "latest_schema", with the history persisted in .hoodie/.schema
 * (hudi_schema_history_save) - seeded with the pre-DDL schema as version 0 on the first DDL.
 * Without it only what Hudi allows then (top-level ADD at the end, COMMENT) is accepted; the
 * rest fails EUNSUPPORTED saying that schema on read (hoodie.schema.on.read.enable) allows it.
 * Record key, precombine and partition columns are protected. No data file is rewritten. */
typedef struct hudi_alter_options {
    bool schema_on_read;      /* hoodie.schema.on.read.enable (also on once the table has
                               * an InternalSchema: then it stays on) */
    const char *instant_time; /* force the instant (tests); NULL = generated */
    const hudi_clock *clock;  /* NULL = system clock */
    const char *const *props; /* writer settings as in hudi_write_options (locks) */
    int32_t *refused;         /* when not NULL: the index of the change refused (hudi_ischema_apply
                               * failed on it), else -1; lets a caller point at its column */
} hudi_alter_options;

int hudi_tbl_alter_schema(hudi_table *t, const hudi_schema_change *changes, int32_t n,
                          const hudi_alter_options *opts, char instant_out[32], hudi_error *err);

/* Cleans file slices no longer needed, under the table lock: keeps the latest
 * `retain_commits` commits' versions of every file group (KEEP_LATEST_COMMITS), records a
 * clean instant. */
int hudi_tbl_clean(hudi_table *t, int32_t retain_commits, const hudi_clock *clock, hudi_error *err);

/* Compaction of a merge-on-read table (write/compact.c, docs/formats/timeline.md), under the
 * table lock. Scheduling writes `<I>.compaction.requested` (the Avro plan: one operation per
 * file group whose latest slice has log files and that no pending compaction holds); running
 * executes a pending plan - hudic's or Hudi's - by its operations (compaction.inflight, one new
 * base file per operation, then `<I>.commit` with operationType COMPACT); an inflight one is
 * run again after its partial files are removed. Each returns the number of file groups
 * (0: nothing to schedule / no pending compaction) and the instant in `instant_out` (may be
 * NULL). EINVAL for a copy-on-write table or an instant that is not a pending compaction.
 * hudi_tbl_compact runs every pending compaction (oldest first), then schedules and runs a new
 * one; hudi_tbl_compact_run with `instant` NULL runs every pending compaction. */
int hudi_tbl_compact(hudi_table *t, const hudi_clock *clock, char instant_out[32], hudi_error *err);
int hudi_tbl_compact_schedule(hudi_table *t, const hudi_clock *clock, char instant_out[32],
                              hudi_error *err);
int hudi_tbl_compact_run(hudi_table *t, const char *instant, char instant_out[32], hudi_error *err);
/* hudi_tbl_compact_run with writer settings (key/value pairs, NULL-terminated, the last of a key
 * wins) taken before hoodie.properties: hoodie.hudic.parallelism, hoodie.parquet.compression.codec
 * (SQL's CALL run_compaction passes the table's TBLPROPERTIES and the session's SET values). */
int hudi_tbl_compact_run_with(hudi_table *t, const char *instant, const char *const *settings,
                              char instant_out[32], hudi_error *err);
/* Inline compaction's trigger (hoodie.compact.inline.max.delta.commits, Hudi's NUM_COMMITS):
 * 1 when the deltacommits after the latest compaction request number at least `max`. */
int hudi_write_inline_compaction_due(const hudi_timeline *tl, int64_t max_delta_commits);
/* How a compaction writes: its threads (hoodie.hudic.parallelism, checked) and the new base
 * files' Parquet codec (hoodie.parquet.compression.codec; gzip by default, as Hudi's). */
typedef struct hudi_compact_cfg {
    int32_t threads;
    int codec; /* HUDI_PQ_CODEC_* */
} hudi_compact_cfg;
/* hudi_tbl_compact with the table lock already held (inline compaction after a write), with the
 * write's settings (its options over the table's properties, as Hudi's write config). */
int hudi_tbl_compact_locked(hudi_table *t, const hudi_clock *clock, const hudi_compact_cfg *cfg,
                            char instant_out[32], hudi_error *err);
/* A Parquet codec by its hoodie.parquet.compression.codec name (any case): uncompressed (or
 * none), snappy, gzip, brotli, lz4, zstd, lz4_raw. EUNSUPPORTED names the value otherwise. */
int hudi_write_codec_parse(const char *name, int *codec, hudi_error *err);
/* The Avro HoodieCompactionPlan container of `n` slices (one operation each). */
int hudi_compaction_plan_encode(hudi_buf *out, const hudi_file_slice *slices, size_t n,
                                hudi_error *err);

/* Clustering (write/cluster.c, docs/formats/timeline.md "Clustering"), each under the table
 * lock. schedule returns the number of clustering groups planned (0: none, no instant). */
void hudi_cluster_options_defaults(hudi_cluster_options *o);
int hudi_tbl_cluster_schedule(hudi_table *t, const hudi_cluster_options *o, const hudi_clock *clock,
                              char instant_out[32], hudi_error *err);
int hudi_tbl_cluster_execute(hudi_table *t, const char *instant, const hudi_cluster_options *o,
                             hudi_error *err);
/* Pending clustering instants of the loaded timeline, oldest first. */
int hudi_tbl_cluster_pending(const hudi_table *t, char ***out, size_t *count, hudi_error *err);

/* A clustering plan as read from `<I>.replacecommit.requested`. */
typedef struct hudi_cluster_slice {
    char *partition, *file_id, *data_path; /* data_path: full path as planned, "" for none */
    char **logs;
    size_t n_logs;
} hudi_cluster_slice;
typedef struct hudi_cluster_group {
    hudi_cluster_slice *slices;
    size_t n_slices;
    int32_t num_output;
} hudi_cluster_group;
typedef struct hudi_cluster_plan {
    hudi_cluster_group *groups;
    size_t n_groups;
    char *strategy_class, *sort_columns; /* NULL when absent */
} hudi_cluster_plan;
/* ENOTFOUND when `time` is not a replacecommit with a clustering plan. */
int hudi_cluster_plan_read(hudi_cluster_plan **out, const hudi_timeline *tl, const char *time,
                           hudi_error *err);
void hudi_cluster_plan_free(hudi_cluster_plan *p);
/* Whether `time` is a pending (not completed) clustering. */
bool hudi_cluster_is_pending(const hudi_timeline *tl, const char *time);
/* Adds "<partition>\0<file id>" -> instant time (borrowed from `tl`) for every file group of a
 * pending clustering scheduled after `after` (NULL: all). */
int hudi_cluster_pending_file_groups(hudi_map *out, const hudi_timeline *tl, const char *after,
                                     hudi_error *err);
/* The pending clustering instant that holds (partition, file_id) in `m`, or NULL. */
const char *hudi_cluster_file_group_pending(const hudi_map *m, const char *partition,
                                            const char *file_id);

#endif
