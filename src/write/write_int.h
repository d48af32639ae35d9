/* write_int.h - internals shared by the copy-on-write write path (write_client.c, write_plan.c,
 * index.c, cow_merge.c, commit.c, rollback.c, clean.c).
 *
 * A write is planned over the caller's batch without copying it: every decision is an array
 * indexed by input row (partition id, key-table slot, destination file group), and rows are
 * gathered into per-file batches only when a file is written. Invariant: nothing reaches the
 * completed instant file unless every data file it names has been published. */
#ifndef HUDI_WRITE_INT_H
#define HUDI_WRITE_INT_H

#include "base/pool.h"
#include "format/avro/avro.h"
#include "format/parquet/parquet.h"
#include "read/cdc.h"
#include "schema/project.h"
#include "schema/schema.h"
#include "table/schema_view.h"
#include "table/txn.h"
#include "table/bloom.h"
#include "write/keygen.h"
#include "write/write.h"

#define WRITE_DEFAULT_TARGET_BYTES (120ll << 20)
#define WRITE_DEFAULT_SMALL_BYTES (100ll << 20)
#define WRITE_DEFAULT_RECORD_BYTES 1024 /* hoodie.copyonwrite.record.size.estimate */
#define WRITE_CHUNK_ROWS 65536          /* rows per batch handed to the Parquet writer */
#define WRITE_IS_DELETED_FIELD "_hoodie_is_deleted"
#define WRITE_TEMP_DIR ".hoodie/.temp"

/* ---- key table: (record key, partition) -> input row, open addressing ------------------- */

typedef struct wkey_slot {
    uint32_t tag; /* high 32 bits of the key's hash */
    int32_t row;  /* input row + 1; 0 = empty */
} wkey_slot;

typedef struct wkeys {
    const hudi_array *keys; /* STRING, one per input row (borrowed) */
    const int32_t *part;    /* partition id per input row (borrowed) */
    wkey_slot *slots;
    uint64_t mask;
} wkeys;

int hudi_wkeys_init(wkeys *k, const hudi_array *keys, const int32_t *part, int64_t rows,
                    hudi_error *err);
/* The slot for (key, part): holds row + 1, or 0 when absent (then store row + 1 there). */
int32_t *hudi_wkeys_slot(wkeys *k, const uint8_t *key, size_t len, int32_t part);
/* The row stored for (key, part), or -1. */
int32_t hudi_wkeys_find(const wkeys *k, const uint8_t *key, size_t len, int32_t part);
/* hudi_wkeys_find of keys[start, start + n) in partition `part` into rows[0, n): -1 for a key
 * not in the table or a null key. Same answers, with the slots of a block of keys prefetched. */
void hudi_wkeys_find_many(const wkeys *k, const hudi_array *keys, int64_t start, int64_t n,
                          int32_t part, int32_t *rows);
void hudi_wkeys_dispose(wkeys *k);

static inline hudi_slice wstr(const hudi_array *a, int64_t i) {
    return HUDI_SLICE(a->data + a->offsets[i], (size_t)(a->offsets[i + 1] - a->offsets[i]));
}

/* ---- plan ---------------------------------------------------------------------------------- */

typedef struct wrows {
    int32_t *v;
    int64_t n, cap;
} wrows;
int hudi_wrows_push(wrows *r, int32_t row, hudi_error *err);

/* One file group touched by the write. */
/* A log file after the first of a group's write: rollover at hoodie.logfile.max.size. */
typedef struct wlog {
    char *name, *rel_path;
    uint64_t version;
    int64_t num_writes, num_deletes, num_update_writes, num_inserts, size_bytes;
} wlog;

typedef struct wgroup {
    int32_t part;
    char file_id[HUDI_FILE_ID_MAX];
    const hudi_base_file *old;               /* latest base file (view-owned); NULL if new */
    const hudi_file_slice *slice;            /* its latest slice (view-owned); NULL if new */
    char prev_commit[HUDI_INSTANT_TIME_MAX]; /* its base instant, or "null" */
    bool active;                             /* written by this commit */
    char clustering[HUDI_INSTANT_TIME_MAX];  /* the pending clustering planning it, or "" */
    wrows upd;                               /* rows tagged to keys of this group */
    wrows ins;                               /* rows inserted into this group */
    hudi_bloom *old_bloom; /* the old base file's filter as the index decoded it (owned; the
                            * merge continues it), or NULL */
    /* outcome */
    int32_t task; /* the "task partition" of token and seqno */
    char token[HUDI_WRITE_TOKEN_MAX];
    char *name;     /* base file name */
    char *rel_path; /* relative to the base path */
    int64_t num_writes, num_deletes, num_update_writes, num_inserts, size_bytes;
    int64_t time_ms;
    /* merge-on-read: the rows go to a new log file of the slice instead of a new base file */
    bool append;
    uint64_t log_version;
    /* hoodie.table.cdc.enabled: the `.cdc` log file written next to a merged base file */
    char *cdc_rel_path; /* relative to the base path; NULL when none */
    int64_t cdc_size;
    wlog *rolled; /* the next log versions this write rolled over to (the counts above are the
                   * first file's) */
    size_t n_rolled;
} wgroup;

typedef struct wpart {
    char *path;
    int64_t n_inserts; /* untagged rows (workload profile) */
    bool touched;      /* rows of the batch land here */
} wpart;

/* Hudi's simple bucket index (bucket_index.c): hoodie.index.type=BUCKET. */
typedef struct wbucket {
    bool on;
    int32_t num_buckets; /* hoodie.bucket.index.num.buckets */
    char *fields_buf;    /* hoodie.bucket.index.hash.field, split in place (owned) */
    const char **fields; /* the hash fields (into fields_buf) */
    int32_t n_fields;
    int32_t *group;        /* [part * num_buckets + bucket]: the group index, -1 = none */
    int32_t n_group_parts; /* partitions `group` covers */
} wbucket;

typedef struct wctx {
    hudi_table *t;
    hudi_write_options o;
    hudi_table_write_result *res;
    char instant[HUDI_INSTANT_TIME_MAX];
    hudi_action action; /* COMMIT, DELTACOMMIT or REPLACECOMMIT */
    bool mor;           /* a MERGE_ON_READ table */
    const hudi_batch *in;
    /* schemas */
    hudi_field schema;         /* data columns; root named by the record full name */
    hudi_field file_schema;    /* meta + data as parquet-avro stores them */
    hudi_buf schema_json;      /* commit extraMetadata.schema */
    hudi_buf file_schema_json; /* parquet.avro.schema */
    hudi_array **cols;         /* per data column: the caller's array (borrowed) or owned nulls */
    bool *owned_cols;
    int32_t precombine_col;  /* in `in`, -1 */
    int32_t precombine_wcol; /* in `schema` (and cols), -1 */
    /* schema on read: the table's InternalSchema (owned by sv) and the writer's, reconciled */
    hudi_schema_view *sv;
    const hudi_ischema *ischema; /* NULL: the table has none */
    hudi_ischema ischema_new;
    bool ischema_changed;
    int32_t is_deleted_col; /* in `in`, -1 */
    /* keys and partitions */
    hudi_keygen *kg;
    bool kg_auto_nonpart; /* generated keys: partition paths from _hoodie_partition_path only */
    hudi_array *keys, *part_paths;
    hudi_field key_field, part_field;
    int32_t *row_part;
    wpart *parts;
    int32_t n_parts, cap_parts;
    hudi_map part_ids; /* path -> id + 1 */
    /* selection and routing */
    int32_t *sel; /* rows to write, after de-duplication, in input order */
    int64_t n_sel;
    int32_t *dest; /* per input row: group index, -1 = not written */
    bool *tagged;  /* per input row: the index found the key in dest's old base file */
    bool *done;    /* per input row: merged into an old record already */
    wkeys idx;
    /* groups */
    hudi_fs_view *view;
    wgroup *groups;
    size_t n_groups, cap_groups;
    int64_t avg_record_bytes;
    int32_t next_task;
    /* threads: hoodie.hudic.parallelism; the pool is started on first use by a step with more
     * than one task (hudi_write_pool) */
    int32_t threads;
    hudi_pool *pool;
    wbucket bucket;
    hudi_pq_block_pool *blocks; /* the Parquet writers' column chunk memory, shared by files */
    /* hoodie.write.markers.type=TIMELINE_SERVER_BASED: markers as lines of MARKERS<n> files in
     * the instant's marker folder (hudi_commit_write_marker_named), numbered by marker_seq */
    bool markers_flat;
    _Atomic int32_t marker_seq;
} wctx;

/* write_client.c: the pool for a step of `n_tasks` independent tasks: NULL (run in the caller)
 * with one thread or one task. Tasks of a write must only write their own slots (their group,
 * the rows routed to it) and call nothing that is not safe from several threads: the storage
 * backends are, the table's clock is called in the caller only. */
int hudi_write_pool(wctx *c, int64_t n_tasks, hudi_pool **out, hudi_error *err);
/* The order to hand tasks to the pool in (write_client.c): order[0..n) becomes a permutation of
 * 0..n-1 naming groups (or, with `gis`, entries of gis[] naming groups) by their work, largest
 * first - the old base file's bytes plus the routed rows at the average record size - ties in
 * index order. The big rewrites start first and the small ones fill in at the end, so a thread
 * is not left alone with a big one started last (longest processing time first). Only the
 * order tasks start in changes, never what they write. */
int hudi_write_order_by_work(const wctx *c, size_t *order, size_t n, const size_t *gis,
                             hudi_error *err);
/* The writer setting `key`: the write's props (the last wins), then hoodie.properties. */
const char *hudi_write_setting(const wctx *c, const char *key);

int hudi_wctx_part_id(wctx *c, const char *path, size_t len, int32_t *out, hudi_error *err);
int hudi_wctx_add_group(wctx *c, int32_t part, const char *file_id, const hudi_base_file *old,
                        const char *prev_commit, int32_t *out, hudi_error *err);
/* A new, active file group of partition `part` under a fresh file id; its index in *out. */
int hudi_wctx_new_group(wctx *c, int32_t part, int32_t *out, hudi_error *err);
/* cow_merge.c: gives group `g` the file name in `name` (taken over; `name` is left empty) and
 * its path relative to the table, "<partition>/<name>". `rc` is the result of formatting the
 * name: when it failed nothing is set and it is returned. */
int hudi_wgroup_take_name(wctx *c, wgroup *g, hudi_buf *name, int rc, hudi_error *err);

/* write_plan.c */
/* A table without record key fields: keys generated on insert (keys.md §9). */
bool hudi_write_auto_keys(const hudi_table *t);
/* The instant changed from `planned` after planning: generated keys take the new one (same
 * length; the key index only ever matches stored keys, so it stays valid). */
void hudi_plan_rekey(wctx *c, const char *planned);
/* The key generator, and c->keys/c->part_paths empty (hudi_plan_keys fills them for the
 * whole batch, bulk_insert.c chunk by chunk). */
int hudi_plan_keygen(wctx *c, hudi_error *err);
int hudi_plan_keys(wctx *c, hudi_error *err);
int hudi_plan_dedup(wctx *c, hudi_error *err);
int hudi_plan_existing_groups(wctx *c, hudi_error *err);
int hudi_plan_assign(wctx *c, hudi_error *err);
/* ECONFLICT when the write updates, deletes from or replaces a file group of a pending
 * clustering (Hudi's default SparkRejectUpdateStrategy). */
int hudi_plan_check_clustering(const wctx *c, hudi_error *err);
/* Ordering of row i of `a` against row j of `b` (precombine values; null is smallest). */
int hudi_plan_cmp_values(const hudi_array *a, int64_t i, const hudi_array *b, int64_t j);
bool hudi_plan_row_is_deleted(const wctx *c, int32_t row);

/* index.c: sets dest/tagged for selected rows whose key lives in an existing group. */
int hudi_index_tag(wctx *c, hudi_error *err);
/* A keygen producing record keys only, for a batch with the table's key columns. */
int hudi_index_key_keygen(hudi_keygen **out, const hudi_table_config *cfg, const hudi_field *schema,
                          hudi_error *err);

/* bucket_index.c: Hudi's simple bucket index (docs/formats/base-files.md §5.1). config reads
 * hoodie.index.type and the bucket settings (write options over table properties) into
 * c->bucket; tag routes every selected row of a bucket that has a file group in its partition to
 * that group (tagged, whether or not the key is stored there); assign_inserts gives the other rows
 * of partition `part` one new file group per bucket. */
int hudi_bucket_config(wctx *c, hudi_error *err);
void hudi_bucket_dispose(wbucket *b);
int hudi_bucket_tag(wctx *c, hudi_error *err);
int hudi_bucket_assign_inserts(wctx *c, int32_t part, const wrows *rows, hudi_error *err);
/* Hudi's BucketIdentifier.getBucketId of record key key[0..len) with the hash fields (n of them):
 * (List.hashCode(hash values) & INT_MAX) % num_buckets; the hash values are [key] for a key
 * without ':', else the fields' values in the "f1:v1,f2:v2" key. -1 for a key Java fails to
 * split (a part without ':'). */
int32_t hudi_bucket_id(const uint8_t *key, size_t len, const char *const *fields, int32_t n_fields,
                       int32_t num_buckets);
/* The bucket number of file id `file_id` (its first 8 characters as digits), -1 when it has
 * none. */
int32_t hudi_bucket_of_file_id(const char *file_id);

/* cow_merge.c */
int hudi_merge_write_group(wctx *c, size_t gi, hudi_error *err);
/* Appends rows idx[0..n) of src to dst (same shape). */
int hudi_take_rows(hudi_array *dst, const hudi_array *src, const int32_t *idx, int64_t n,
                   hudi_error *err);

/* cow_merge.c: a new file group (c->groups[gi], named here) written a slice of incoming rows
 * at a time: rows[0..n) (n <= WRITE_CHUNK_ROWS) are input rows, their keys c->keys at
 * rows[k] - key_base. open takes
 * over `reuse` (an empty batch of c->file_schema, or NULL) and writes the file's marker, not the
 * partition's metafile (the caller's, with the table clock); close hands the output batch back in
 * *spare when that is NULL (else frees it) and frees the file either way. Files of different
 * groups may be written from different threads (bulk_insert.c's tasks); one file from one
 * thread at a time. */
typedef struct hudi_wfile hudi_wfile;
int hudi_wfile_open(hudi_wfile **out, wctx *c, size_t gi, int64_t row_group_bytes,
                    hudi_batch *reuse, hudi_error *err);
int hudi_wfile_write(hudi_wfile *f, const int32_t *rows, int64_t n, int64_t key_base,
                     hudi_error *err);
int64_t hudi_wfile_rows(const hudi_wfile *f);      /* records written */
int64_t hudi_wfile_data_size(const hudi_wfile *f); /* hudi_pq_writer_data_size */
int hudi_wfile_close(hudi_wfile *f, hudi_batch **spare, hudi_error *err);
void hudi_wfile_free(hudi_wfile *f); /* discards the file; NULL-safe */

/* bulk_insert.c: bulk_insert planned and written in bounded chunks (see there). plan counts
 * the inserts per partition for the workload profile; write writes and rolls the files. */
int hudi_bulk_plan(wctx *c, hudi_error *err);
int hudi_bulk_write(wctx *c, hudi_heartbeat *hb, hudi_error *err);

/* cdc_log.c: the CDC log file of a merged file group (docs/formats/cdc.md). open leaves *out
 * NULL when the table does not log changes (CDC off, a new file group, merge-on-read). add
 * logs n changes `op` ('i', 'u', 'd'): before images from rows old_idx of `olds` (per data
 * column, NULL = absent; old_idx NULL = no before image), after images (not for 'd') and
 * record keys from incoming rows in_idx. close writes the file and its marker when Hudi
 * would (sets g->cdc_rel_path, g->cdc_size). */
typedef struct hudi_cdc_logger hudi_cdc_logger;
int hudi_cdc_logger_open(hudi_cdc_logger **out, wctx *c, wgroup *g, hudi_error *err);
int hudi_cdc_log_add(hudi_cdc_logger *lg, char op, const hudi_array *const *olds,
                     const int32_t *old_idx, const int32_t *in_idx, int64_t n, hudi_error *err);
int hudi_cdc_logger_close(hudi_cdc_logger *lg, hudi_error *err);
void hudi_cdc_logger_free(hudi_cdc_logger *lg); /* NULL-safe */
/* The Avro schema JSON of the CDC records for `mode` and the table's data schema (compact
 * Avro JSON of the record without meta columns), as Hudi writes it in block headers. */
int hudi_cdc_schema_json(hudi_buf *out, hudi_cdc_mode mode, const char *data_schema_json,
                         hudi_error *err);

/* mor_append.c: one log file appended to the latest slice of group gi (log-file.md). */
int hudi_mor_append_group(wctx *c, size_t gi, hudi_error *err);

/* commit.c */
int hudi_commit_resolve_schema(wctx *c, hudi_error *err);
/* Query column i of projection p built from `src` (a column of the projection's "file", not
 * given up; NULL = absent, `rows` nulls) as a new array of `field` in *out. */
int hudi_write_project_column(const hudi_projection *p, int32_t i, const hudi_array *src,
                              int64_t rows, const hudi_field *field, hudi_array **out,
                              hudi_error *err);
int hudi_commit_estimate_record_size(wctx *c, hudi_error *err);
int hudi_commit_write_requested(wctx *c, hudi_error *err);
int hudi_commit_write_inflight(wctx *c, hudi_error *err);
/* Starts the write's marker folder .hoodie/.temp/<instant>: with markers_flat, the folder and
 * its MARKERS.type file, before any marker (Hudi takes a folder without it for DIRECT markers). */
int hudi_commit_start_markers(wctx *c, hudi_error *err);
/* The marker of data file `name` in partition `part` (IOType CREATE, MERGE or APPEND), written
 * before the file (timeline.md §7): DIRECT, an empty file <part>/<name>.marker.<type> below the
 * marker folder, or with markers_flat a file MARKERS<n> of its own holding that path as a line
 * (Hudi's TIMELINE_SERVER_BASED layout, which needs no folder per partition). Thread-safe. */
int hudi_commit_write_marker_named(wctx *c, const char *part, const char *name, const char *type,
                                   hudi_error *err);
int hudi_commit_write_marker(wctx *c, const wgroup *g, hudi_error *err);
/* The APPEND marker of log file `name` of group g (a write that rolled over has several). */
int hudi_commit_write_log_marker(wctx *c, const wgroup *g, const char *name, hudi_error *err);
int hudi_commit_complete(wctx *c, hudi_error *err);
/* Deletes a directory tree (files first); a missing directory is fine. */
int hudi_write_remove_tree(hudi_fs *fs, const char *dir, hudi_error *err);
/* Lists every file below `dir` as paths relative to it. */
int hudi_write_list_tree(hudi_fs *fs, const char *dir, char ***out, size_t *count, hudi_error *err);
/* The markers of a write (its folder .hoodie/.temp/<instant>), as paths relative to it
 * ("<partition>/<file>.marker.<IOType>") in both of Hudi's layouts: DIRECT (one empty file per
 * marker) and TIMELINE_SERVER_BASED (MARKERS.type, and MARKERS0, MARKERS1... with one marker per
 * line, as a Spark writer's embedded timeline server leaves them); a folder holding both gives
 * the union. */
int hudi_write_list_markers(hudi_fs *fs, const char *dir, char ***out, size_t *count,
                            hudi_error *err);
/* The marker names of one MARKERS<n> file's text `body` (named `path` in errors), appended to
 * `out` (char *, owned): one per line, empty lines and a trailing \r skipped; ECORRUPT for a line
 * that is absolute or has an empty, "." or ".." component (a rollback deletes what markers
 * name). On error `out` keeps what was appended before. */
int hudi_write_parse_markers(hudi_slice body, const char *path, hudi_vec *out, hudi_error *err);
void hudi_write_free_strings(char **v, size_t n);

/* write_client.c: a table with a metadata table would have it go stale (properties.md §6); do
 * what a Spark writer with hoodie.metadata.enable=false does: clear the metadata partitions in
 * hoodie.properties and delete .hoodie/metadata. The caller holds the table lock. */
int hudi_write_disable_metadata_table(hudi_table *t, const hudi_clock *clock, hudi_error *err);

/* rollback.c, clean.c: the work of hudi_tbl_rollback_pending and hudi_tbl_clean for a caller
 * that holds the table lock and has reloaded the timeline under it. rollback_failed rolls back
 * the pending writes whose writers are dead (hudi_heartbeat_writer_dead) and returns their
 * number; rollback_instant rolls back one pending instant (a no-op if it is not pending). */
int hudi_write_rollback_failed(hudi_table *t, const hudi_txn_config *tc, const hudi_clock *clock,
                               hudi_error *err);
int hudi_write_rollback_instant(hudi_table *t, const char *time, const hudi_clock *clock,
                                hudi_error *err);
int hudi_write_clean_locked(hudi_table *t, int32_t retain_commits, const hudi_clock *clock,
                            bool multi_writer, hudi_error *err);

/* conflict.c: optimistic concurrency control. The snapshot is the set of completed commit
 * times of the timeline a write planned on; the check runs under the lock on the reloaded
 * timeline before the commit: ECONFLICT when the instant is no longer pending or a commit
 * completed since touched one of the write's file groups. */
typedef struct hudi_occ_snapshot {
    char **done; /* sorted */
    size_t n_done;
} hudi_occ_snapshot;
int hudi_occ_snapshot_take(hudi_occ_snapshot *s, hudi_table *t, hudi_error *err);
void hudi_occ_snapshot_dispose(hudi_occ_snapshot *s);
int hudi_occ_check(wctx *c, const hudi_occ_snapshot *s, hudi_error *err);

/* ---- Avro values for timeline files (commit.c) -------------------------------------------- */

hudi_avro_value *hudi_av_new(hudi_arena *a, hudi_avro_type type);
hudi_avro_value *hudi_av_str(hudi_arena *a, const char *s); /* NULL -> Avro null */
hudi_avro_value *hudi_av_long(hudi_arena *a, hudi_avro_type type, int64_t v);
hudi_avro_value *hudi_av_bool(hudi_arena *a, bool v);
/* RECORD/ARRAY/MAP with n items (and keys for MAP/RECORD). */
hudi_avro_value *hudi_av_coll(hudi_arena *a, hudi_avro_type type, size_t n);
/* Serialises one record as a container file to `out`. */
int hudi_av_container(hudi_buf *out, const char *schema_json, const hudi_avro_value *rec,
                      hudi_error *err);

/* Schemas of the timeline records hudic writes (Hudi 0.14 .avsc, as compiled by Avro). */
extern const char *const hudi_write_schema_rollback_plan;
extern const char *const hudi_write_schema_rollback_metadata;
extern const char *const hudi_write_schema_requested_replace;
extern const char *const hudi_write_schema_cleaner_plan;
extern const char *const hudi_write_schema_clean_metadata;
extern const char *const hudi_write_schema_savepoint_metadata;

/* rollback.c: makes the completed commit `f` a failed write (its completed instant file is
 * deleted first: the commit point), then rolls it back. The caller holds the table lock and
 * has checked that this is safe. */
int hudi_write_uncommit_and_rollback(hudi_table *t, const hudi_instant *f, const hudi_clock *clock,
                                     hudi_error *err);
/* savepoint.c: adds the names of every base file a completed savepoint keeps to `out` (a set:
 * values are (void *)1). */
int hudi_write_savepointed_files(const hudi_table *t, hudi_map *out, hudi_error *err);

/* The sizing of the bloom filters a table's base files get (cow_merge.c): Hudi's
 * hoodie.index.bloom.num_entries, hoodie.index.bloom.fpp, hoodie.bloom.index.filter.type and
 * hoodie.bloom.index.filter.dynamic.max.entries from the table properties, else Hudi's
 * defaults. Every writer of base files (writes, compaction, clustering) uses it. */
typedef struct hudi_bloom_cfg {
    hudi_bloom_type type;
    int32_t entries, max_entries;
    double fpp;
} hudi_bloom_cfg;
int hudi_write_bloom_cfg(const hudi_table *t, hudi_bloom_cfg *out, hudi_error *err);
int hudi_write_bloom_new(const hudi_bloom_cfg *cfg, hudi_bloom **out, hudi_error *err);

/* The record-key footer of a base file rewritten from merged or clustered records (compact.c):
 * Hudi's bloom filter of the keys (sized by the table's hudi_bloom_cfg) and the key range
 * (hoodie_min/max_record_key). */
typedef struct hudi_key_footer {
    hudi_bloom *bloom;
    hudi_buf min, max;
    bool have; /* a key was added */
} hudi_key_footer;
#define HUDI_KEY_FOOTER_INIT                                                                       \
    { NULL, HUDI_BUF_INIT, HUDI_BUF_INIT, false }
int hudi_key_footer_init(hudi_key_footer *f, const hudi_bloom_cfg *cfg, hudi_error *err);
/* Adds the non-null keys among the first `n` of `keys` (a string column). */
int hudi_key_footer_add(hudi_key_footer *f, const hudi_array *keys, int64_t n, hudi_error *err);
/* Writes the footer's key-value pairs into `w` (before closing it). */
int hudi_key_footer_put(hudi_key_footer *f, hudi_pq_writer *w, hudi_error *err);
void hudi_key_footer_dispose(hudi_key_footer *f);

#endif
