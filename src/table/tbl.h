/* tbl.h - an open Hudi table: its filesystem, base path, properties, typed config and active
 * timeline, loaded together. The read and write layers take a hudi_table, and this struct is
 * also the public handle of include/hudi/hudi_table.h (opaque there): one object, no wrapper. */
#ifndef HUDI_TABLE_TBL_H
#define HUDI_TABLE_TBL_H

#include "table/table.h"

struct hudi_table {
    hudi_fs *fs; /* borrowed unless owns_fs */
    bool owns_fs;
    char *base_path; /* without a trailing slash */
    hudi_props props;
    hudi_table_config cfg; /* borrows props */
    hudi_timeline *timeline;
};
typedef struct hudi_table hudi_table;

/* Opens the table at `base_path` on `fs` (NULL = a local filesystem owned by the table):
 * loads hoodie.properties (with backup recovery rules), checks the version, loads the
 * timeline. ENOTFOUND "<path>: not a Hudi table (no .hoodie/hoodie.properties)". */
int hudi_tbl_open(hudi_table **out, hudi_fs *fs, const char *base_path, hudi_error *err);
/* Reloads the timeline (after a write by someone else). */
int hudi_tbl_reload(hudi_table *t, hudi_error *err);
void hudi_tbl_free(hudi_table *t); /* NULL-safe */

#endif
