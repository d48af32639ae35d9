/* internal_schema.h - Hudi's InternalSchema: a table schema whose every column has an id, so
 * that columns keep their identity through renames, moves, drops and type changes (schema
 * evolution on read, hoodie.schema.on.read.enable). docs/formats/internal-schema.md.
 *
 * The model is a hudi_field tree whose field_id members carry the ids:
 *   - every struct field has its column id;
 *   - a LIST's child "element" carries the element id;
 *   - a MAP's "key_value" struct has field_id -1; its "key" and "value" carry the key and value
 *     ids (the key is a non-null STRING);
 *   - types are those an InternalSchema can hold: BOOL, INT32, INT64, FLOAT, DOUBLE, DATE,
 *     TIME (micros), TIMESTAMP (micros, utc), STRING, FIXED_BINARY(16) with hint UUID ("uuid"),
 *     BINARY, FIXED_BINARY(N) ("fixed[N]"), DECIMAL (byte_width = the minimal fixed size),
 *     STRUCT, LIST, MAP;
 *   - the root is a non-null STRUCT; its name is the Avro record full name when known (it is
 *     not serialised).
 * Column paths are dotted full names: "a.b", "tags.element", "props.key", "props.value.x".
 * Lookups by path are case-sensitive; duplicate-name checks are case-insensitive within the
 * parent struct. */
#ifndef HUDI_SCHEMA_INTERNAL_SCHEMA_H
#define HUDI_SCHEMA_INTERNAL_SCHEMA_H

#include "columnar/columnar.h"

typedef struct hudi_ischema {
    int64_t version_id;    /* the instant (as a number) that introduced it; 0 = the schema
                            * before any evolution; -1 = the empty schema */
    int32_t max_column_id; /* high-water mark of ids ever given out; never decreases */
    hudi_field root;       /* STRUCT with ids as above (owned) */
} hudi_ischema;

void hudi_ischema_dispose(hudi_ischema *s); /* frees root; NULL-safe; leaves *s zeroed */
int hudi_ischema_copy(hudi_ischema *dst, const hudi_ischema *src, hudi_error *err);

/* EUNSUPPORTED naming the first column of `root` whose type an InternalSchema cannot hold
 * without changing it: a timestamp without time zone (timestamp_ntz) or in nanoseconds, a time
 * in nanoseconds. Hudi 0.15's converter turns those into bigint, so the column would lose its
 * type (and its old files would no longer read as the table's type); hudic refuses schema on
 * read for such tables instead. `table` names the table in the message. */
int hudi_ischema_check_types(const hudi_field *root, const char *table, hudi_error *err);

/* An InternalSchema for `root` (a table schema as hudi_schema_parse_avro gives it, with the
 * meta fields when the table has them), ids given as Hudi gives them to a schema that has none
 * (root fields 0..n-1, then depth first, each struct's direct fields a contiguous block before
 * descending; an element one id, a map key and value two; internal-schema.md §3); root's own
 * field_ids are ignored. Types the model cannot hold are converted as Hudi's converter does
 * (int8/int16 -> int, timestamp millis -> micros, enum -> string...). */
int hudi_ischema_from_field(hudi_ischema *out, const hudi_field *root, int64_t version_id,
                            hudi_error *err);

/* JSON, byte-identical to Hudi 0.14/0.15's SerDeHelper (internal-schema.md §4):
 * {"max_column_id":N,"version_id":V,"type":"record","fields":[...]}. Parse accepts what Hudi
 * accepts (decimal(P,\s*S), primitive names in any case, missing max_column_id / version_id);
 * ECORRUPT naming the problem. "" parses to the empty schema (version -1). */
int hudi_ischema_parse(hudi_ischema *out, const char *json, size_t len, hudi_error *err);
int hudi_ischema_write(hudi_buf *out, const hudi_ischema *s, hudi_error *err);

/* The history file of .hoodie/.schema: {"schemas":[newest, ..., oldest]}. */
typedef struct hudi_ischema_history {
    hudi_ischema *items; /* newest first (by version_id, descending) */
    size_t count;
} hudi_ischema_history;

void hudi_ischema_history_dispose(hudi_ischema_history *h);
/* Parses a history; two entries with one version: the later array element wins (as Hudi). */
int hudi_ischema_history_parse(hudi_ischema_history *out, const char *json, size_t len,
                               hudi_error *err);
int hudi_ischema_history_write(hudi_buf *out, const hudi_ischema_history *h, hudi_error *err);
/* Adds a copy of `s` (replacing an entry of the same version), keeping newest-first order. */
int hudi_ischema_history_add(hudi_ischema_history *h, const hudi_ischema *s, hudi_error *err);
/* Hudi's searchSchema: the entry with exactly `version`, else the newest older one, else NULL. */
const hudi_ischema *hudi_ischema_history_search(const hudi_ischema_history *h, int64_t version);

/* The column with id `id` (and its dotted path in `path` when non-NULL), or NULL. */
const hudi_field *hudi_ischema_find_id(const hudi_ischema *s, int32_t id, hudi_buf *path);
/* The column at dotted `path` (case-sensitive), or NULL; *id_out gets its id. */
const hudi_field *hudi_ischema_find_path(const hudi_ischema *s, const char *path, int32_t *id_out);

/* How a file written with schema `file` is read as `query` (both InternalSchemas; Hudi's
 * InternalSchemaMerger, internal-schema.md §7): `out` is a copy of query->root in which every
 * field (struct fields, elements, map keys/values, at every depth) is renamed to the leaf name
 * the column with its id has in `file`, and a field whose id `file` does not have is renamed to
 * "" (absent: reads as null; a column of `file` that merely shares its name - dropped and
 * re-added, or a reused name - is never read for it). Types stay the query's; the caller reads
 * each present column with the file's physical type and converts. */
int hudi_ischema_file_names(hudi_field *out, const hudi_ischema *query, const hudi_ischema *file,
                            hudi_error *err);

/* ---- changes (ALTER TABLE) ------------------------------------------------------------------ */

typedef enum hudi_schema_change_kind {
    HUDI_SCHEMA_ADD,           /* path (parent path + new leaf), type, comment, position */
    HUDI_SCHEMA_ALTER_TYPE,    /* path, type (a primitive) */
    HUDI_SCHEMA_COMMENT,       /* path, comment */
    HUDI_SCHEMA_MOVE,          /* path, position (FIRST / AFTER anchor) */
    HUDI_SCHEMA_DROP_NOT_NULL, /* path */
    HUDI_SCHEMA_SET_NOT_NULL,  /* path: refused (optional -> required) */
    HUDI_SCHEMA_RENAME,        /* path, new_name (a leaf name) */
    HUDI_SCHEMA_DROP,          /* path */
} hudi_schema_change_kind;

typedef enum hudi_schema_position {
    HUDI_SCHEMA_POS_NONE = 0, /* ADD: at the end of the parent struct; others: unchanged */
    HUDI_SCHEMA_POS_FIRST,    /* first in the parent struct (not for top-level columns) */
    HUDI_SCHEMA_POS_AFTER,    /* right after `anchor`, a sibling (dotted path or leaf name) */
} hudi_schema_position;

typedef struct hudi_schema_change {
    hudi_schema_change_kind kind;
    const char *path;       /* dotted full name of the column changed or added */
    const hudi_field *type; /* ADD: the new column's type (its name is ignored; nested types
                             * allowed); ALTER_TYPE: the new primitive type */
    const char *comment;    /* ADD, COMMENT (NULL = none) */
    const char *new_name;   /* RENAME */
    hudi_schema_position position;
    const char *anchor; /* POS_AFTER */
    bool not_null;      /* ADD ... NOT NULL */
} hudi_schema_change;

typedef struct hudi_schema_rules {
    /* true: schema on read (every kind above, ids, internal-schema.md §6 legality); false:
     * Hudi without schema on read: top-level ADD at the end (positions refused), COMMENT, and
     * ALTER_TYPE only to the same type; everything else refused with a one-line error. */
    bool schema_on_read;
    /* Record key, precombine and partition columns (top-level names): never dropped, renamed
     * or retyped. */
    const char *const *protected_columns;
    int32_t n_protected;
} hudi_schema_rules;

/* Applies `n` changes in order to `in` (a copy; `in` is unchanged) as one statement: `out` gets
 * version `new_version` and max_column_id carried forward (new columns take max_column_id + 1
 * and up, nested ids after them). Meta columns are never a target; every refusal is EINVAL
 * (EUNSUPPORTED for what only schema on read allows) with a one-line message naming the column
 * and the rule (internal-schema.md §6). */
int hudi_ischema_apply(hudi_ischema *out, const hudi_ischema *in, const hudi_schema_change *changes,
                       int32_t n, const hudi_schema_rules *rules, int64_t new_version,
                       hudi_error *err);

/* Whether a column of type `from` may become `to` by ALTER COLUMN ... TYPE (and so be read as
 * `to` from old files): Hudi's type-change matrix, internal-schema.md §6 (same type always). */
bool hudi_schema_type_change_allowed(const hudi_field *from, const hudi_field *to);

/* Schema on write with schema on read on (Hudi's reconcileSchema): `in` extended with the
 * columns of `writer` (a table schema without ids) it lacks - new ids, each placed before the
 * next column of `writer` that `in` has - and the primitive type changes `writer` makes that
 * hudi_schema_type_change_allowed accepts; columns `writer` lacks are kept. `*changed` says
 * whether anything changed; `out` gets `new_version` when it did, in's version otherwise. */
int hudi_ischema_reconcile(hudi_ischema *out, bool *changed, const hudi_ischema *in,
                           const hudi_field *writer, int64_t new_version, hudi_error *err);

/* The instant text "20240601120000123" as a version number (-1 when not all digits). */
int64_t hudi_ischema_version_of(const char *instant);

#endif
