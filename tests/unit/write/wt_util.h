/* wt_util.h - helpers for the write-path tests: a small record schema, batches from row
 * literals, tables created on the memory or local filesystem, and canonical dumps of what a
 * table reads as (sorted lines), so tests compare whole table states. */
#ifndef HUDI_WT_UTIL_H
#define HUDI_WT_UTIL_H

#include "read/read.h"
#include "write/write.h"

typedef struct wt_row {
    int32_t id;
    const char *name; /* NULL = null */
    int64_t ts;
    const char *part;
    bool deleted; /* _hoodie_is_deleted (only with a schema that has it) */
} wt_row;

typedef enum { WT_MEMORY = 0, WT_LOCAL = 1 } wt_fs_kind;

/* Record schema: id int32, name string, ts int64, part string [, _hoodie_is_deleted bool]. */
void wt_schema(hudi_field *out, bool with_deleted);
hudi_batch *wt_batch(const hudi_field *schema, const wt_row *rows, size_t n);
/* Rows id = first..first+n-1, name "n<id>", ts = ts, part = parts[id % n_parts]. */
hudi_batch *wt_batch_range(const hudi_field *schema, int32_t first, int32_t n, int64_t ts,
                           const char *const *parts, int n_parts);

/* A fresh filesystem and a base path on it. */
hudi_fs *wt_fs(wt_fs_kind kind, char *base, size_t base_len);
/* Removes the temporary directory of a local base path (memory: nothing). */
void wt_fs_cleanup(wt_fs_kind kind, const char *base);
/* Creates a table: keys "id" (or `keys`), partition field "part" when partitioned, precombine
 * "ts". */
hudi_table *wt_create(hudi_fs *fs, const char *base, const char *keys, const char *parts, bool hive,
                      bool populate_meta, const hudi_field *schema);
/* A table partitioned by `part`: keyed by id (wt_create), or with generated keys (keys.md §9)
 * when `auto_keys` (no record key field; bloom filters of 100 entries). */
hudi_table *wt_create_parted(hudi_fs *fs, const char *base, const hudi_field *s, bool hive,
                             bool auto_keys);
/* Writes `b` with `op`; asserts success. Returns the instant (static). */
const char *wt_write(hudi_table *t, const hudi_batch *b, hudi_write_operation op);
/* "id|name|ts|part" lines, sorted, of the table as of `as_of` (NULL = latest); malloc'ed. */
/* A merge-on-read table named `name` (key id, partition part, precombine ts, meta fields,
 * small bloom filters) of `schema`. */
hudi_table *wt_mor_create(hudi_fs *fs, const char *base, const hudi_field *schema,
                          const char *name);
/* The same with `props` (NULL: none; Hudi's default bloom sizing) in hoodie.properties. */
hudi_table *wt_mor_create_props(hudi_fs *fs, const char *base, const hudi_field *schema,
                                const char *name, const char *const *props);
char *wt_dump(hudi_table *t, const char *as_of);
/* The same with the name column read under another name (after a RENAME COLUMN). */
char *wt_dump_named(hudi_table *t, const char *as_of, const char *name_col);
/* Same from a freshly opened table on `fs`. */
char *wt_dump_path(hudi_fs *fs, const char *base, const char *as_of);
/* Number of lines of a dump. */
int wt_lines(const char *dump);
/* NULL when dumps `got` and `want` are equal, else their first differing line, quoted, as
 * "line N: got '...', want '...'" (static; each side cut to 200 bytes). Large dumps compare
 * through it: a failed cr_assert_str_eq sends both whole strings to Criterion's runner, which
 * stalls on messages of megabytes until the test times out. */
const char *wt_diff(const char *got, const char *want);

#endif
