/* catalog.h - the persistent catalog of a warehouse folder: databases and the tables registered
 * in them (docs/formats/catalog.md), the model being Flink's Hudi catalog in 'dfs' mode.
 *
 * A database is a folder <warehouse>/<db>; a managed table lives in <warehouse>/<db>/<table>;
 * an external table is registered by its LOCATION. Every change is one atomic storage step
 * (write a temporary file, rename it into place), so a crash leaves the catalog as it was or
 * as it will be, never half-written, and two processes on the same warehouse see each other's
 * changes at their next call (nothing is cached across calls). Names are folded to lower case
 * as Spark's session catalog does. */
#ifndef HUDI_CATALOG_H
#define HUDI_CATALOG_H

#include "columnar/columnar.h"
#include "storage/storage.h"

typedef struct hudi_catalog hudi_catalog;

/* Opens (creating the folder and the "default" database when missing) the warehouse at `path`
 * on `fs` (borrowed; must outlive the catalog). */
int hudi_catalog_open(hudi_catalog **out, hudi_fs *fs, const char *path, hudi_error *err);
void hudi_catalog_free(hudi_catalog *c); /* NULL-safe */
const char *hudi_catalog_path(const hudi_catalog *c);

/* ---- databases ------------------------------------------------------------------------- */

/* HUDI_EEXISTS unless if_not_exists. `comment` and `location` may be NULL. */
int hudi_catalog_create_database(hudi_catalog *c, const char *name, bool if_not_exists,
                                 const char *comment, const char *location, hudi_error *err);
/* HUDI_ENOTFOUND unless if_exists; HUDI_EINVAL when not empty and !cascade ("database 'x' is
 * not empty"); cascade drops its tables (managed tables' data too). "default" cannot go. */
int hudi_catalog_drop_database(hudi_catalog *c, const char *name, bool if_exists, bool cascade,
                               hudi_error *err);
/* Same, with DBPROPERTIES: key, value, ..., NULL (may be NULL). A database without comment,
 * location or properties is a bare folder (as Flink's catalog makes them); otherwise its folder
 * is built with a marker file under a hidden name and renamed into place. */
int hudi_catalog_create_database_props(hudi_catalog *c, const char *name, bool if_not_exists,
                                       const char *comment, const char *location,
                                       const char *const *props, hudi_error *err);
bool hudi_catalog_database_exists(hudi_catalog *c, const char *name);

/* What CREATE DATABASE recorded (DESCRIBE DATABASE). Owned strings. */
typedef struct hudi_catalog_database {
    char *name;
    char *comment;  /* NULL when none */
    char *location; /* as given in CREATE DATABASE ... LOCATION, NULL when none */
    char **props;   /* key, value, ..., NULL */
    int32_t n_props;
    int64_t created_ms; /* 0 when unknown (a folder made by someone else) */
} hudi_catalog_database;
int hudi_catalog_get_database(hudi_catalog *c, const char *name, hudi_catalog_database *out,
                              hudi_error *err);
void hudi_catalog_database_dispose(hudi_catalog_database *d);
/* Database names, sorted; a NULL-terminated array of strings freed with hudi_catalog_names_free. */
int hudi_catalog_list_databases(hudi_catalog *c, char ***out, hudi_error *err);
void hudi_catalog_names_free(char **names);

/* ---- tables ---------------------------------------------------------------------------- */

typedef enum hudi_catalog_provider {
    HUDI_CATALOG_HUDI,    /* a Hudi table at `location` */
    HUDI_CATALOG_PARQUET, /* plain Parquet files: `location` is a folder, a file or a glob */
} hudi_catalog_provider;

/* A table entry. Strings and the schema are owned (hudi_catalog_table_dispose). */
typedef struct hudi_catalog_table {
    char *database;
    char *name;
    hudi_catalog_provider provider;
    char *location;  /* absolute path */
    bool managed;    /* created without LOCATION: DROP TABLE deletes the data */
    char *comment;   /* NULL when none */
    char **props;    /* TBLPROPERTIES / OPTIONS as given: key, value, ..., NULL */
    int32_t n_props; /* pairs */
    /* Parquet tables: the declared columns (n_children 0 when the schema comes from the files)
     * and partition column names (comma separated, NULL when none). Hudi tables keep their
     * schema in the table itself; these stay empty for them. */
    hudi_field schema;
    char *partition_columns;
    int64_t created_ms;
} hudi_catalog_table;

void hudi_catalog_table_dispose(hudi_catalog_table *t);
/* The value of property `key` (case-sensitive), or NULL. */
const char *hudi_catalog_table_prop(const hudi_catalog_table *t, const char *key);

/* Editing an entry in memory (then hudi_catalog_update_table): set replaces a key's value in
 * place or appends it; unset returns whether the key was there. */
int hudi_catalog_table_set_prop(hudi_catalog_table *t, const char *key, const char *value,
                                hudi_error *err);
bool hudi_catalog_table_unset_prop(hudi_catalog_table *t, const char *key);
/* Deep copy. */
int hudi_catalog_table_copy(hudi_catalog_table *dst, const hudi_catalog_table *src,
                            hudi_error *err);

/* The location a managed table `db`.`name` gets: <warehouse>/<db>/<name> (malloc'd). */
char *hudi_catalog_default_location(const hudi_catalog *c, const char *db, const char *name);

/* Looks up `db`.`name`: 0 with *out filled, or HUDI_ENOTFOUND "table db.name not found". */
int hudi_catalog_get_table(hudi_catalog *c, const char *db, const char *name,
                           hudi_catalog_table *out, hudi_error *err);
bool hudi_catalog_table_exists(hudi_catalog *c, const char *db, const char *name);
/* Registers `t` (database, name, provider, location, ...): HUDI_EEXISTS when the name is
 * taken, HUDI_ENOTFOUND when the database is missing. Atomic. */
int hudi_catalog_create_table(hudi_catalog *c, const hudi_catalog_table *t, hudi_error *err);
/* Replaces the entry of t->database.t->name (ALTER TABLE SET/UNSET TBLPROPERTIES). Atomic. */
int hudi_catalog_update_table(hudi_catalog *c, const hudi_catalog_table *t, hudi_error *err);
/* Unregisters the table; with purge_data (managed tables, or DROP ... PURGE) deletes its
 * location too, after the entry is gone. */
int hudi_catalog_drop_table(hudi_catalog *c, const char *db, const char *name, bool purge_data,
                            hudi_error *err);
/* Renames within or across databases. A managed table's entry lives in its folder, so one
 * folder rename moves data and entry together; an external table's entry file is renamed.
 * Either way the rename is one atomic step (docs/formats/catalog.md). */
int hudi_catalog_rename_table(hudi_catalog *c, const char *db, const char *name, const char *new_db,
                              const char *new_name, hudi_error *err);
/* Table names of `db`, sorted; NULL-terminated, freed with hudi_catalog_names_free. */
int hudi_catalog_list_tables(hudi_catalog *c, const char *db, char ***out, hudi_error *err);

/* ---- catalogs (Flink's CREATE CATALOG) --------------------------------------------------- */

/* Records (replacing) the catalog `name` with its WITH options (key, value, ..., NULL) in
 * <warehouse>/.hudic-catalog.<name>.json: a file, so Flink's dfs catalog, which lists folders,
 * does not take it for a database. Atomic. */
int hudi_catalog_put_catalog(hudi_catalog *c, const char *name, const char *const *props,
                             hudi_error *err);
/* Its options (NULL-terminated key, value list, freed with hudi_catalog_names_free), or
 * HUDI_ENOTFOUND "Catalog x not found". */
int hudi_catalog_get_catalog(hudi_catalog *c, const char *name, char ***props, hudi_error *err);
/* Names of the recorded catalogs, sorted (hudi_catalog_names_free). */
int hudi_catalog_list_catalogs(hudi_catalog *c, char ***out, hudi_error *err);

#endif
