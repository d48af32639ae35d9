/* table.h - the Hudi table layer: table config (hoodie.properties), instants, the timeline,
 * partition metadata files, commit metadata and the file-system view.
 *
 * One section per module; each section names its owner. Everything here knows about Hudi but
 * nothing about SQL. Files are touched only through hudi_fs.
 * Formats: docs/formats/ (properties.md, timeline.md, commit-metadata.md, file-names.md). */
#ifndef HUDI_TABLE_H
#define HUDI_TABLE_H

#include "base/base.h"
#include "storage/storage.h"

/* ======================================================================================
 * properties.c - hoodie.properties (properties.md) [owner: timeline]
 * ====================================================================================== */

#define HUDI_META_DIR ".hoodie"
#define HUDI_PROPS_FILE "hoodie.properties"
#define HUDI_PROPS_BACKUP_FILE "hoodie.properties.backup"

/** An injectable wall clock: milliseconds since the Unix epoch. NULL clock = the system's. */
typedef struct hudi_clock {
    int64_t (*now_ms)(void *payload);
    void *payload;
} hudi_clock;
int64_t hudi_clock_now_ms(const hudi_clock *clock);

/** One property; both strings are owned UTF-8 (the file's ISO-8859-1 and \uXXXX decoded). */
typedef struct hudi_prop {
    char *key;
    char *value;
} hudi_prop;

/** Ordered properties: file order, a repeated key keeps its first position and last value. */
typedef struct hudi_props {
    hudi_prop *items;
    size_t count;
    size_t cap;
} hudi_props;

#define HUDI_PROPS_INIT                                                                            \
    { NULL, 0, 0 }

/** Parses Java .properties text exactly as java.util.Properties.load does, appending to (or
 *  updating) `out`. `path` names the file in errors ("<path>: line 7: ..."). */
int hudi_props_parse(hudi_props *out, hudi_slice text, const char *path, hudi_error *err);
void hudi_props_dispose(hudi_props *p);
/** The value of `key` (borrowed, lives until the key is set or unset), or NULL. */
const char *hudi_props_get(const hudi_props *p, const char *key);
/** A writer setting: the last value of `key` in `kv` (key/value pairs, NULL-terminated; SQL
 *  passes a table's properties, then the session's SET values, so the last wins), else `p`'s
 *  (`p` may be NULL). */
const char *hudi_props_setting(const hudi_props *p, const char *const *kv, const char *key);
/** Integer value, `dflt` when absent; ECORRUPT naming the key when not a decimal integer. */
int hudi_props_get_int(const hudi_props *p, const char *key, int64_t dflt, int64_t *out,
                       hudi_error *err);
/** Boolean value ("true"/"false", any case), `dflt` when absent; ECORRUPT otherwise. */
int hudi_props_get_bool(const hudi_props *p, const char *key, bool dflt, bool *out,
                        hudi_error *err);
/** Sets `key` (kept in place when present, appended otherwise). */
int hudi_props_set(hudi_props *p, const char *key, const char *value, hudi_error *err);
/** Removes `key`; returns whether it was present. */
bool hudi_props_unset(hudi_props *p, const char *key);
/** Appends Properties.store() text: "#<comment>", "#<Date.toString() of now_ms>", then one
 *  escaped key=value line per property in order, '\n' line ends. `comment` may be NULL. */
int hudi_props_serialize(const hudi_props *p, const char *comment, int64_t now_ms, hudi_buf *out,
                         hudi_error *err);

/** CRC-32 of "<hoodie.database.name or ''>.<hoodie.table.name>" (properties.md §3). EINVAL without
 * a name. */
int hudi_props_compute_checksum(const hudi_props *p, uint32_t *out, hudi_error *err);
/** 0 if hoodie.table.checksum matches; ENOTFOUND if absent; ECORRUPT if it does not match. */
int hudi_props_verify_checksum(const hudi_props *p, hudi_error *err);
/** Recomputes hoodie.table.checksum and moves it to the end (where Hudi writes it). */
int hudi_props_update_checksum(hudi_props *p, hudi_error *err);

/** Loads <base>/.hoodie/hoodie.properties like Hudi's reader: the main file, else the backup;
 *  a file whose checksum is present but wrong counts as invalid. Never writes. ENOTFOUND when
 *  neither file exists, ECORRUPT when only invalid ones do. */
int hudi_props_load(hudi_props *out, hudi_fs *fs, const char *base_path, hudi_error *err);
/** Hudi's recoverIfNeeded (properties.md §5 step 1): restores hoodie.properties from the backup
 * when the main file is missing or invalid, then removes the backup. */
int hudi_props_recover(hudi_fs *fs, const char *base_path, hudi_error *err);
/** Stores `p` (checksum recomputed) with the backup protocol of properties.md §5: recover, write
 * the current file to the backup, delete the main file, write the new one, verify, delete the
 * backup. With no existing table config it simply creates the file. A crash at any step leaves a
 *  readable config (old or new). `clock` stamps the comment lines (NULL = system clock). */
int hudi_props_store(hudi_props *p, hudi_fs *fs, const char *base_path, const hudi_clock *clock,
                     hudi_error *err);

typedef enum hudi_table_type {
    HUDI_COPY_ON_WRITE = 0,
    HUDI_MERGE_ON_READ = 1,
} hudi_table_type;

/** Typed view of the keys readers need (properties.md §4). Strings borrow from the hudi_props they
 *  came from and live as long as it does unchanged; absent optional keys are NULL. */
typedef struct hudi_table_config {
    const char *name;                /* hoodie.table.name (required) */
    const char *database;            /* hoodie.database.name */
    hudi_table_type type;            /* hoodie.table.type, default COPY_ON_WRITE */
    int version;                     /* hoodie.table.version: 5, 6, 8 or 9 */
    int timeline_layout;             /* hoodie.timeline.layout.version: 1 or 2 */
    const char *timeline_path;       /* layout 2: hoodie.timeline.path (default "timeline") */
    const char *record_key_fields;   /* comma separated; NULL = none (auto keys) */
    const char *partition_fields;    /* comma separated; NULL = non-partitioned */
    const char *precombine_field;    /* precombine.field, else v9 hoodie.table.ordering.fields */
    const char *keygen_class;        /* hoodie.table.keygenerator.class */
    const char *keygen_type;         /* hoodie.table.keygenerator.type (v8+) */
    const char *base_file_format;    /* hoodie.table.base.file.format, default "PARQUET" */
    const char *create_schema;       /* hoodie.table.create.schema (Avro JSON) */
    const char *metadata_partitions; /* hoodie.table.metadata.partitions, default "" */
    const char *payload_class;       /* hoodie.compaction.payload.class */
    const char *merge_mode;          /* hoodie.record.merge.mode (v8+) */
    bool populate_meta_fields;       /* default true */
    bool hive_style_partitioning;    /* default false */
    bool url_encode_partitions;      /* default false */
    bool drop_partition_columns;     /* default false */
    bool timeline_utc;               /* hoodie.table.timeline.timezone=UTC (default LOCAL) */
} hudi_table_config;

/** Fills `out` from `p`. ECORRUPT "<path>: ..." for missing/malformed required values,
 *  EUNSUPPORTED naming the table for versions other than 5, 6, 8, 9 or a layout that does not
 *  match the version. `path` is for messages only (may be NULL). */
int hudi_table_config_from_props(hudi_table_config *out, const hudi_props *p, const char *path,
                                 hudi_error *err);
/** EUNSUPPORTED "unsupported base file format LANCE" unless the base files are Parquet. */
int hudi_table_config_check_readable(const hudi_table_config *c, hudi_error *err);
/** True if `partition` is listed in hoodie.table.metadata.partitions (e.g. "files"). */
bool hudi_table_config_has_metadata_partition(const hudi_table_config *c, const char *partition);

/* ======================================================================================
 * instant.c - instants and their file names (timeline.md §1-3) [owner: timeline]
 * ====================================================================================== */

typedef enum hudi_action {
    HUDI_ACTION_COMMIT = 0,
    HUDI_ACTION_DELTACOMMIT,
    HUDI_ACTION_REPLACECOMMIT,
    HUDI_ACTION_COMPACTION,    /* pending only: completes as commit */
    HUDI_ACTION_LOGCOMPACTION, /* pending only: completes as deltacommit */
    HUDI_ACTION_CLUSTERING,    /* layout 2, pending only: completes as replacecommit */
    HUDI_ACTION_CLEAN,
    HUDI_ACTION_ROLLBACK,
    HUDI_ACTION_SAVEPOINT,
    HUDI_ACTION_RESTORE,
    HUDI_ACTION_INDEXING,
    HUDI_ACTION_SCHEMACOMMIT,
    HUDI_ACTION_COUNT_
} hudi_action;

#define HUDI_ACTION_BIT(a) (1u << (a))
/** The "commits timeline" (timeline.md §5): actions whose completed instants carry data. */
#define HUDI_ACTIONS_COMMITS                                                                       \
    (HUDI_ACTION_BIT(HUDI_ACTION_COMMIT) | HUDI_ACTION_BIT(HUDI_ACTION_DELTACOMMIT) |              \
     HUDI_ACTION_BIT(HUDI_ACTION_REPLACECOMMIT))
/** The write timeline: commits plus the pending table services that become commits. */
#define HUDI_ACTIONS_WRITES                                                                        \
    (HUDI_ACTIONS_COMMITS | HUDI_ACTION_BIT(HUDI_ACTION_COMPACTION) |                              \
     HUDI_ACTION_BIT(HUDI_ACTION_LOGCOMPACTION) | HUDI_ACTION_BIT(HUDI_ACTION_CLUSTERING))
#define HUDI_ACTIONS_ALL ((1u << HUDI_ACTION_COUNT_) - 1u)

/** States in timeline order: requested < inflight < completed. */
typedef enum hudi_state {
    HUDI_STATE_REQUESTED = 0,
    HUDI_STATE_INFLIGHT = 1,
    HUDI_STATE_COMPLETED = 2,
} hudi_state;

#define HUDI_STATE_BIT(s) (1u << (s))
#define HUDI_STATES_PENDING                                                                        \
    (HUDI_STATE_BIT(HUDI_STATE_REQUESTED) | HUDI_STATE_BIT(HUDI_STATE_INFLIGHT))
#define HUDI_STATES_ALL 7u

#define HUDI_INSTANT_TIME_MAX 32 /* buffer size for an instant time string */
#define HUDI_INSTANT_FILE_MAX 96 /* buffer size for an instant file name */

/** One timeline file. A value type: no allocation. */
typedef struct hudi_instant {
    char time[HUDI_INSTANT_TIME_MAX];       /* requested time, digits only */
    char completion[HUDI_INSTANT_TIME_MAX]; /* layout 2 completed instants; "" otherwise */
    hudi_action action;                     /* as in the file name */
    hudi_state state;
    char file[HUDI_INSTANT_FILE_MAX]; /* the file name it was parsed from / written as */
} hudi_instant;

const char *hudi_action_name(hudi_action a);                           /* "commit", ... */
int hudi_action_parse(hudi_action *out, const char *name, size_t len); /* ENOTFOUND if unknown */
const char *hudi_state_name(hudi_state s); /* "REQUESTED", "INFLIGHT", "COMPLETED" */

/** True for 1..HUDI_INSTANT_TIME_MAX-1 ASCII digits. */
bool hudi_instant_time_valid(const char *s, size_t len);
/** Parses a timeline file name of `layout` (1 or 2). ENOTFOUND (no message) when the name is
 *  not an instant file (hoodie.properties, directories, temp files...). */
int hudi_instant_parse(hudi_instant *out, const char *file_name, int layout, hudi_error *err);
/** Fills in->file from the other fields (layout 1 completed: "<t>.<action>"; layout 2
 *  completed: "<t>_<completion>.<action>", or "<t>.<action>" when the completion time is
 *  unknown; commit inflight: "<t>.inflight"). */
int hudi_instant_format(hudi_instant *in, int layout, hudi_error *err);
/** Builds an instant and its file name. `completion` is used by layout 2 completed only. */
int hudi_instant_make(hudi_instant *out, const char *time, hudi_action action, hudi_state state,
                      const char *completion, int layout, hudi_error *err);
/** Order (timeline.md §5): time string, then action (compaction as commit, logcompaction as
 *  deltacommit, clustering as replacecommit), then state. */
int hudi_instant_cmp(const hudi_instant *a, const hudi_instant *b);
/** strcmp of time strings, as Hudi compares instants (timeline.md §5). */
int hudi_instant_time_cmp(const char *a, const char *b);
/** A new 17-digit instant time (yyyyMMddHHmmssSSS): max(now, last + 1 ms), in UTC when `utc`
 *  else in local time (timeline.md §1). `last` may be NULL or "" (none); 14-digit values count as
 *  second precision. EINVAL when `last` is not an instant time. */
int hudi_instant_time_new(char out[HUDI_INSTANT_TIME_MAX], const hudi_clock *clock, bool utc,
                          const char *last, hudi_error *err);
/** Formats epoch milliseconds as a 17-digit instant time. */
int hudi_instant_time_from_ms(char out[HUDI_INSTANT_TIME_MAX], int64_t epoch_ms, bool utc,
                              hudi_error *err);

/* ======================================================================================
 * timeline.c - the active timeline (timeline.md §2-5) [owner: timeline]
 * ====================================================================================== */

/** The active timeline of a table: every instant file, sorted by hudi_instant_cmp. Borrows the
 *  hudi_fs, which must outlive it. */
typedef struct hudi_timeline {
    hudi_fs *fs;
    char *base_path;
    char *dir;  /* the folder with instant files: .hoodie or .hoodie/<timeline path> */
    int layout; /* 1 or 2 */
    hudi_instant *instants;
    size_t count;
    size_t cap;
} hudi_timeline;

/** Loads the timeline of the table at `base_path` described by `cfg` (layout and timeline
 *  path). Unknown files are skipped; the archived timeline is not read. */
int hudi_timeline_load(hudi_timeline **out, hudi_fs *fs, const char *base_path,
                       const hudi_table_config *cfg, hudi_error *err);
/** Same with explicit layout (1 or 2) and, for layout 2, timeline folder (NULL = "timeline"). */
int hudi_timeline_load_layout(hudi_timeline **out, hudi_fs *fs, const char *base_path, int layout,
                              const char *timeline_path, hudi_error *err);
void hudi_timeline_free(hudi_timeline *tl); /* NULL-safe */

/** A selection of instants: borrowed pointers into the timeline, in timeline order. */
typedef struct hudi_instant_list {
    const hudi_instant **items;
    size_t count;
} hudi_instant_list;
void hudi_instant_list_dispose(hudi_instant_list *l);

/** What hudi_timeline_select keeps. Times compare as strings; NULL bounds are open. */
typedef struct hudi_instant_filter {
    unsigned actions;  /* HUDI_ACTION_BIT mask; 0 = all */
    unsigned states;   /* HUDI_STATE_BIT mask; 0 = all */
    const char *after; /* keep time > after (exclusive) */
    const char *until; /* keep time <= until (inclusive): "as of" */
} hudi_instant_filter;

int hudi_timeline_select(hudi_instant_list *out, const hudi_timeline *tl,
                         const hudi_instant_filter *f, hudi_error *err);
/** Completed commit/deltacommit/replacecommit instants (the data timeline). */
int hudi_timeline_completed_commits(hudi_instant_list *out, const hudi_timeline *tl,
                                    hudi_error *err);
/** Requested and inflight instants of any action. */
int hudi_timeline_pending(hudi_instant_list *out, const hudi_timeline *tl, hudi_error *err);
/** Completed commits with after < time <= until (incremental queries: (begin, end]). */
int hudi_timeline_commits_between(hudi_instant_list *out, const hudi_timeline *tl,
                                  const char *after, const char *until, hudi_error *err);
/** Counts instants matching `f`. */
size_t hudi_timeline_count_matching(const hudi_timeline *tl, const hudi_instant_filter *f);

/** The instant for `instant_time` in its most advanced state (completed over inflight over
 *  requested). ENOTFOUND "instant <t> not found". */
int hudi_timeline_find(const hudi_instant **out, const hudi_timeline *tl, const char *instant_time,
                       hudi_error *err);
/** The latest completed commit-like instant, or NULL. */
const hudi_instant *hudi_timeline_last_completed_commit(const hudi_timeline *tl);
/** Time of the first instant (any state) of the write timeline, or NULL when empty: anything
 *  older was archived and counts as committed (timeline.md §5, "before timeline start"). */
const char *hudi_timeline_start(const hudi_timeline *tl);
/** Whether data written at `time` is committed: a completed commit-like instant, or older than
 *  hudi_timeline_start and not on the timeline in another state. */
bool hudi_timeline_is_committed(const hudi_timeline *tl, const char *time);
/** The newest instant time on the timeline (any action, any state; layout 2 also counts
 *  completion times), or NULL. New instants must be greater. */
const char *hudi_timeline_last_time(const hudi_timeline *tl);

/** Raw bytes of an instant file. */
int hudi_timeline_read_instant(hudi_buf *out, const hudi_timeline *tl, const hudi_instant *in,
                               hudi_error *err);
/** HoodieCommitMetadata-shaped JSON of a commit/deltacommit/replacecommit (completed or
 *  inflight) for both layouts: layout 1 JSON is returned as is, layout 2 Avro containers are
 *  converted (unions unwrapped, maps as objects, nulls as null). ECORRUPT for empty or
 *  malformed content. */
int hudi_timeline_read_commit_json(hudi_buf *out_json, const hudi_timeline *tl,
                                   const hudi_instant *in, hudi_error *err);
/** Any instant file as JSON (Avro containers converted; JSON passed through). */
int hudi_timeline_read_json(hudi_buf *out_json, const hudi_timeline *tl, const hudi_instant *in,
                            hudi_error *err);

/** Writes an instant file (layout 1 only; EUNSUPPORTED for layout 2) and adds it to `tl`.
 *  The storage writer publishes on close (temp + rename), so readers never see partial
 *  content; the file must not exist yet (EEXISTS). */
int hudi_timeline_write_instant(hudi_timeline *tl, const char *time, hudi_action action,
                                hudi_state state, hudi_slice content, hudi_error *err);
/** Deletes every file of `instant_time` (completed first, then inflight, then requested, so a
 *  crash never leaves it looking committed) and drops it from `tl`. ENOTFOUND if none. */
int hudi_timeline_delete_instant(hudi_timeline *tl, const char *instant_time, hudi_error *err);

/* ======================================================================================
 * partition_meta.c - .hoodie_partition_metadata (file-names.md §3) [owner: timeline]
 * ====================================================================================== */

#define HUDI_PARTITION_META_FILE ".hoodie_partition_metadata"

typedef struct hudi_partition_meta {
    char commit_time[HUDI_INSTANT_TIME_MAX];
    int depth;
} hudi_partition_meta;

/** Number of '/'-separated components of a relative partition path ("" -> 0). */
int hudi_partition_depth(const char *partition_path);
/** Reads <base>/<partition>/.hoodie_partition_metadata (text; else the .parquet variant's
 *  footer). ENOTFOUND when the partition has no metafile. */
int hudi_partition_meta_read(hudi_partition_meta *out, hudi_fs *fs, const char *base_path,
                             const char *partition_path, hudi_error *err);
/** Writes the metafile as Hudi does when it does not exist yet: temp file
 *  ".hoodie_partition_metadata_<write_token>" then rename; never rewrites an existing one.
 *  Creates the partition directory. `write_token` NULL = commit_time. */
int hudi_partition_meta_write(hudi_fs *fs, const char *base_path, const char *partition_path,
                              const char *commit_time, const char *write_token,
                              const hudi_clock *clock, hudi_error *err);

/* ==== view: file names, commit metadata, file-system view ==================================
 * Owner: engineer "view". Implemented in file_name.c, commit_meta.c, fs_view.c.
 * Formats: commit-metadata.md, file-names.md (names, file groups, slices), timeline.md §5. */

/* ---- file names (file_name.c, file-names.md §4-6) ------------------------------------------- */

#define HUDI_FILE_ID_MAX 64     /* "<uuid>-<n>" plus NUL, with room to spare */
#define HUDI_WRITE_TOKEN_MAX 64 /* "<partition>-<stage>-<attempt>" plus NUL */

typedef enum hudi_base_format {
    HUDI_BASE_FORMAT_PARQUET = 0,
    HUDI_BASE_FORMAT_ORC,
    HUDI_BASE_FORMAT_HFILE,
    HUDI_BASE_FORMAT_LANCE,
    HUDI_BASE_FORMAT_OTHER,
} hudi_base_format;

/** A parsed base file name `<fileId>_<writeToken>_<instant>.<ext>`. The slices borrow the
 *  name that was parsed and live as long as it. */
typedef struct hudi_base_file_name {
    hudi_slice file_id;
    hudi_slice write_token;
    hudi_slice instant;
    hudi_slice ext; /* without the dot */
    hudi_base_format format;
} hudi_base_file_name;

/** A parsed log file name `.<fileId>_<baseInstant>.<log|archive>.<version>[_<token>][.cdc]`.
 *  Slices borrow the parsed name. In table version 6 `instant` is the base instant of the
 *  file slice; from version 8 on it is the deltacommit that wrote the log (file-names.md §6). */
typedef struct hudi_log_file_name {
    hudi_slice file_id;
    hudi_slice instant;
    hudi_slice write_token; /* len 0 when absent */
    uint64_t version;
    bool is_archive; /* ".archive." (archived timeline) instead of ".log." */
    bool is_cdc;
} hudi_log_file_name;

/** Parses a base file name (a file name, not a path). Returns false if `name` is not a base
 *  file name by Hudi's rule (`[A-Za-z0-9-]+_[A-Za-z0-9-]+_[0-9]+\.[A-Za-z0-9]+`). A base file
 *  of another format (orc, hfile, lance) parses with `format` set accordingly. */
bool hudi_base_file_name_parse(hudi_base_file_name *out, const char *name);
/** Parses a log file name by Hudi 0.14's regex (file-names.md §6). False if it is not one. */
bool hudi_log_file_name_parse(hudi_log_file_name *out, const char *name);
/** Orders log files of one file group: instant, then version, then write token. */
int hudi_log_file_name_cmp(const hudi_log_file_name *a, const hudi_log_file_name *b);
/** "parquet", "orc", "hfile", "lance" or "other". */
const char *hudi_base_format_name(hudi_base_format f);
/** 0 for Parquet; else HUDI_EUNSUPPORTED "unsupported base file format '<ext>': <path>". */
int hudi_base_format_require_parquet(hudi_base_format f, const char *path, hudi_error *err);

/** Appends `<fileId>_<writeToken>_<instant>.<ext>` to `out` (ext without the dot). Returns 0 or
 *  HUDI_EINVAL when a part contains a character the parser would not accept back. */
int hudi_base_file_name_format(hudi_buf *out, const char *file_id, const char *write_token,
                               const char *instant, const char *ext, hudi_error *err);
/** Appends `.<fileId>_<instant>.log.<version>_<writeToken>` to `out`. */
int hudi_log_file_name_format(hudi_buf *out, const char *file_id, const char *instant,
                              uint64_t version, const char *write_token, hudi_error *err);
/** Writes "<taskPartitionId>-<stageId>-<taskAttemptId>" into `out`. */
void hudi_write_token_format(char out[HUDI_WRITE_TOKEN_MAX], uint64_t partition_id,
                             uint64_t stage_id, uint64_t attempt_id);
/** A new file id: a random version-4 UUID (lowercase 8-4-4-4-12) + "-" + index, as Hudi's
 *  FSUtils.createNewFileId. Randomness comes from getrandom(2). */
int hudi_file_id_new(char out[HUDI_FILE_ID_MAX], uint32_t index, hudi_error *err);
/* Tests only: a non-zero seed makes hudi_file_id_new deterministic (0: random again). */
void hudi_file_id_seed_for_tests(uint64_t seed);
/** Deterministic variant: the UUID is made from `random16` (version and variant bits set). */
void hudi_file_id_from_bytes(char out[HUDI_FILE_ID_MAX], const uint8_t random16[16],
                             uint32_t index);

/* ---- commit metadata (commit_meta.c, commit-metadata.md) ------------------------------------ */

/** RuntimeStats of a write stat. */
typedef struct hudi_runtime_stats {
    int64_t total_scan_time;
    int64_t total_upsert_time;
    int64_t total_create_time;
} hudi_runtime_stats;

/** One HoodieWriteStat (or HoodieDeltaWriteStat when `is_delta`). Strings are NULL for a JSON
 *  null; they are owned by the hudi_commit_metadata that holds the stat. Field order and
 *  meaning: commit-metadata.md §2. */
typedef struct hudi_write_stat {
    const char *file_id;
    const char *path;           /* relative to the base path */
    const char *cdc_stats_json; /* compact JSON of cdcStats, NULL for null */
    const char *prev_commit;    /* "null" (the string) for a new file group */
    int64_t num_writes;
    int64_t num_deletes;
    int64_t num_update_writes;
    int64_t num_inserts;
    int64_t total_write_bytes;
    int64_t total_write_errors;
    const char *temp_path;
    const char *partition_path;
    int64_t total_log_records;
    int64_t total_log_files_compacted;
    int64_t total_log_size_compacted;
    int64_t total_updated_records_compacted;
    int64_t total_log_blocks;
    int64_t total_corrupt_log_block;
    int64_t total_rollback_blocks;
    int64_t file_size_bytes; /* "fileSizeInBytes" */
    bool has_min_event_time, has_max_event_time;
    int64_t min_event_time, max_event_time;
    bool has_runtime_stats;
    hudi_runtime_stats runtime_stats;
    /* HoodieDeltaWriteStat (MOR log appends) */
    bool is_delta;
    int32_t log_version;
    int64_t log_offset;
    const char *base_file;
    const char **log_files;
    size_t log_files_count;
    const char *records_stats_json; /* compact JSON of recordsStats; NULL writes {"val":null} */
} hudi_write_stat;

/** The write stats of one partition ("" for a non-partitioned table). */
typedef struct hudi_partition_write_stats {
    const char *partition_path;
    hudi_write_stat *stats;
    size_t count;
    size_t cap; /* private */
} hudi_partition_write_stats;

/** The file ids one replacecommit retires in one partition. */
typedef struct hudi_partition_replaced {
    const char *partition_path;
    const char **file_ids;
    size_t count;
    size_t cap; /* private */
} hudi_partition_replaced;

typedef struct hudi_extra_metadata {
    const char *key;
    const char *value; /* NULL for a JSON null */
} hudi_extra_metadata;

/** HoodieCommitMetadata, or HoodieReplaceCommitMetadata when `is_replace`. Every string and
 *  array is owned by the object (an arena); free with hudi_commit_metadata_free. Lists keep
 *  the order in which they were parsed or added; hudi_commit_metadata_write orders maps as
 *  Java's HashMap iterates them, so the bytes match what Hudi writes. */
typedef struct hudi_commit_metadata {
    hudi_partition_write_stats *partitions;
    size_t partitions_count;
    bool compacted;
    hudi_extra_metadata *extra;
    size_t extra_count;
    const char *operation_type; /* "UPSERT", ...; NULL for null */
    bool is_replace;            /* has partitionToReplaceFileIds */
    hudi_partition_replaced *replaced;
    size_t replaced_count;
    /* private */
    size_t partitions_cap, extra_cap, replaced_cap;
    hudi_arena arena;
} hudi_commit_metadata;

/** An empty commit metadata (operationType "UNKNOWN", compacted false). */
int hudi_commit_metadata_new(hudi_commit_metadata **out, hudi_error *err);
void hudi_commit_metadata_free(hudi_commit_metadata *md); /* NULL-safe */

/** Parses HoodieCommitMetadata / HoodieReplaceCommitMetadata JSON. `what` names the source
 *  (e.g. ".hoodie/20240418172802262.commit") in error messages. Unknown fields are ignored,
 *  missing ones take Hudi's defaults. Malformed JSON or a wrongly typed field: HUDI_ECORRUPT. */
int hudi_commit_metadata_parse(hudi_commit_metadata **out, const char *json, size_t len,
                               const char *what, hudi_error *err);
/** Appends the JSON Hudi 0.14/0.15 writes (Jackson pretty printer, field order of
 * commit-metadata.md §3, maps in Java HashMap order, no trailing newline) to `out`. */
int hudi_commit_metadata_write(const hudi_commit_metadata *md, hudi_buf *out, hudi_error *err);

/** Adds a copy of `stat` (strings and log file list copied) under `stat->partition_path`
 *  (or `partition` when not NULL). */
int hudi_commit_metadata_add_write_stat(hudi_commit_metadata *md, const char *partition,
                                        const hudi_write_stat *stat, hudi_error *err);
/** Sets extraMetadata[key] = value (replaces an existing key in place). */
int hudi_commit_metadata_set_extra(hudi_commit_metadata *md, const char *key, const char *value,
                                   hudi_error *err);
int hudi_commit_metadata_set_operation(hudi_commit_metadata *md, const char *operation_type,
                                       hudi_error *err);
/** Marks the metadata as a replacecommit and records `file_id` as replaced in `partition`. */
int hudi_commit_metadata_add_replaced(hudi_commit_metadata *md, const char *partition,
                                      const char *file_id, hudi_error *err);
/** extraMetadata[key], or NULL. */
const char *hudi_commit_metadata_extra(const hudi_commit_metadata *md, const char *key);
/** Total number of write stats over all partitions. */
size_t hudi_commit_metadata_stat_count(const hudi_commit_metadata *md);

/* ---- file-system view (fs_view.c, file-names.md §7, timeline.md §5) ------------------------- */

/** One base file of a file slice. Strings are owned by the view. */
typedef struct hudi_base_file {
    const char *name; /* file name */
    const char *path; /* base_path "/" partition "/" name */
    const char *write_token;
    hudi_base_format format;
    int64_t size_bytes;
} hudi_base_file;

typedef struct hudi_log_file {
    const char *name;
    const char *path;
    const char *instant; /* from the name: base instant (v6) or deltacommit instant (v8+) */
    const char *write_token;
    uint64_t version;
    int64_t size_bytes;
} hudi_log_file;

/** A file slice: an optional base file plus its log files in the order to apply them
 *  (hudi_log_file_name_cmp: instant, version, write token; CDC logs are not included). In
 *  layout 1 a log joins the slice its name's base instant names; in layout 2 it joins the
 *  slice with the greatest base instant <= the completion time of the deltacommit that wrote
 *  it (logs of uncommitted instants or after Q are dropped there). */
typedef struct hudi_file_slice {
    const char *partition_path;
    const char *file_id;
    const char *base_instant;
    const hudi_base_file *base; /* NULL for a log-only slice */
    const hudi_log_file *logs;
    size_t logs_count;
    /* Latest slices only: the pending compaction whose plan holds this file group, or NULL.
     * Writers name new log files with it (the slice the compaction opens, file-names.md §7.4)
     * and give the group no inserts. */
    const char *pending_compaction;
} hudi_file_slice;

typedef struct hudi_fs_view hudi_fs_view;

/** Options for hudi_fs_view_build. Zero-initialise (HUDI_FS_VIEW_OPTIONS_INIT). */
typedef struct hudi_fs_view_options {
    int version;                   /* 1 */
    const char *as_of_instant;     /* Q; NULL = latest completed commits-timeline instant */
    const char *const *partitions; /* restrict to these partitions; NULL = list all */
    size_t partitions_count;
    bool check_missing;        /* find committed base files missing from storage (below) */
    const char *missing_after; /* check only commits > this (incremental); NULL = all <= Q */
} hudi_fs_view_options;
#define HUDI_FS_VIEW_OPTIONS_INIT                                                                  \
    { 1, NULL, NULL, 0, false, NULL }

/** Builds the view of the table of `tl` (its fs and base path) as of `opts->as_of_instant`:
 *  lists partitions (file-names.md §2) unless given (a given partition without a folder is empty),
 *  classifies files, keeps base files whose instant is committed
 *  (hudi_timeline_is_committed) and <= Q, removes file groups replaced by completed
 *  replacecommits <= Q, and keeps for every file group its slices <= Q. Two base files of one
 *  (file id, instant) - a retried task - resolve to the one named in the commit's write
 *  stats. An empty commits timeline gives an empty view, as in Hudi. EINVAL for an as-of that
 *  is not an instant time; ECORRUPT naming the instant file for bad replacecommit metadata. */
int hudi_fs_view_build(hudi_fs_view **out, const hudi_timeline *tl,
                       const hudi_fs_view_options *opts, hudi_error *err);
void hudi_fs_view_free(hudi_fs_view *v); /* NULL-safe */

/** The instant the view is as of ("" when the timeline has no completed commit). */
const char *hudi_fs_view_as_of(const hudi_fs_view *v);
/** The partitions found (sorted; "" for a non-partitioned table). Borrowed from the view. */
const char *const *hudi_fs_view_partitions(const hudi_fs_view *v, size_t *count);
/** The latest slice of every visible file group, sorted by (partition, file id): Hudi's
 *  "latest merged file slice", i.e. when the newest slice is a pending compaction's (logs, no
 *  base file yet) it is merged with the slice before it (that slice's base instant and base
 *  file, its logs then the pending slice's). Borrowed from the view. */
const hudi_file_slice *hudi_fs_view_latest_slices(const hudi_fs_view *v, size_t *count);
/** Like latest_slices but only for one partition. */
int hudi_fs_view_latest_slices_in(const hudi_fs_view *v, const char *partition,
                                  const hudi_file_slice **out, size_t *count);
/** All visible slices (every version <= Q) of all visible file groups, sorted by
 *  (partition, file id, base instant). */
const hudi_file_slice *hudi_fs_view_all_slices(const hudi_fs_view *v, size_t *count);
/** The latest slice of (partition, file_id), or NULL if that group is not visible. */
const hudi_file_slice *hudi_fs_view_find(const hudi_fs_view *v, const char *partition,
                                         const char *file_id);

/** A base file that a completed commit <= Q names in its write stats (partitionToWriteStats)
 *  but that the listing lacks, while no newer visible base file of its file group supersedes
 *  it and no replacecommit <= Q retired the group: without it the file group would read as an
 *  older version (or vanish). Files superseded in the view (cleaned older slices) do not
 *  count; neither do commits archived off the active timeline. */
typedef struct hudi_missing_file {
    const char *instant;        /* the commit naming it */
    const char *partition_path; /* "" when not partitioned */
    const char *file_id;
    const char *path; /* relative to the base path, as in the write stats */
    bool cleaned;     /* a committed newer base file of the group exists after Q and a clean
                         completed after the commit: probably the cleaner removed this one (time
                         travel to before the cleaner's retention) */
} hudi_missing_file;

/** With opts->check_missing: the missing base files found (in commit order), else none.
 *  Borrowed from the view. */
const hudi_missing_file *hudi_fs_view_missing_files(const hudi_fs_view *v, size_t *count);

/** Lists the partitions of the table at `base_path` (file-names.md §2): every directory under it,
 * not under ".hoodie" or a hidden directory, that holds a partition metafile
 *  (`.hoodie_partition_metadata[.parquet|.orc]`); "" when the base path has one. Sorted.
 *  The caller frees each string and the array with hudi_free. */
int hudi_table_list_partitions(hudi_fs *fs, const char *base_path, char ***out, size_t *count,
                               hudi_error *err);

/* ---- files written by commits (fs_view.c) ---------------------------------------------- */

/** One file written by a commit, from its write stats. */
typedef struct hudi_written_file {
    const char *instant; /* the commit that wrote it */
    const char *action;  /* "commit", "deltacommit", "replacecommit" */
    const char *partition_path;
    const char *file_id;
    const char *path; /* relative to the base path, as in the write stat */
    const char *prev_commit;
    bool is_log;
    int64_t num_writes, num_inserts, num_update_writes, num_deletes;
    int64_t file_size_bytes;
} hudi_written_file;

typedef struct hudi_written_files {
    hudi_written_file *files;
    size_t count;
    size_t cap;       /* private */
    hudi_arena arena; /* private */
} hudi_written_files;
#define HUDI_WRITTEN_FILES_INIT                                                                    \
    { NULL, 0, 0, HUDI_ARENA_INIT }

/** Files written by the completed commits-timeline instants in (begin, end] (begin NULL = from
 *  the start, end NULL = to the latest), in instant order, from their commit metadata
 *  (incremental reads, file-names.md §7.6). */
int hudi_fs_view_files_between(hudi_written_files *out, const hudi_timeline *tl, const char *begin,
                               const char *end, hudi_error *err);
/** Files written by instant `instant` (for rollback). Completed: from its commit metadata.
 *  Pending: by listing every partition for base files named with `instant` (and, layout 2,
 *  log files named with it); v6 log files of a pending instant cannot be told from their
 *  names (markers are needed). ENOTFOUND when the instant is not on the timeline. */
int hudi_fs_view_files_of_instant(hudi_written_files *out, const hudi_timeline *tl,
                                  const char *instant, hudi_error *err);
void hudi_written_files_dispose(hudi_written_files *w);

/* ---- compaction_plan.c: `<I>.compaction.requested` (timeline.md) ---------------------------- */

/** One operation of a compaction plan: the slice of one file group to compact. Names only
 *  (version 1 plans' full paths are reduced to their last component). */
typedef struct hudi_compaction_op {
    const char *base_instant;
    const char *file_id;
    const char *partition_path; /* "" when not partitioned */
    const char *data_file;      /* the base file's name; NULL for a log-only slice */
    const char **log_files;     /* the log files' names, in plan order */
    size_t log_count;
} hudi_compaction_op;

/** A decoded HoodieCompactionPlan (any writer's: hudic's or Hudi's 0.x/1.x). */
typedef struct hudi_compaction_plan {
    hudi_compaction_op *ops;
    size_t count;
    int32_t version;
    void *container; /* owns every string (hudi_avro_container) */
} hudi_compaction_plan;

/** Decodes plan bytes; `what` names the file in errors (ECORRUPT). */
int hudi_compaction_plan_parse(hudi_compaction_plan *out, hudi_slice bytes, const char *what,
                               hudi_error *err);
/** Reads the plan of compaction `instant` from its requested file (ENOTFOUND without one). */
int hudi_compaction_plan_read(hudi_compaction_plan *out, const hudi_timeline *tl,
                              const char *instant, hudi_error *err);
void hudi_compaction_plan_dispose(hudi_compaction_plan *p); /* NULL-safe */
/** True when `time` is a compaction that has not completed (requested or inflight). */
bool hudi_compaction_is_pending(const hudi_timeline *tl, const char *time);

/* ==== end of view section ================================================================== */

#endif
