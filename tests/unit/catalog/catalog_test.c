/* catalog_test.c - the warehouse catalog (src/catalog, docs/formats/catalog.md): databases,
 * table entries, two handles on one warehouse, and crash safety under injected storage faults. */
#include <criterion/criterion.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "support.h"

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static void rm_tree(const char *path) { nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS); }

typedef struct fixture {
    char dir[4096];
    hudi_fs *fs;
    hudi_catalog *c;
} fixture;

static void fx_open(fixture *f) {
    snprintf(f->dir, sizeof(f->dir), "%s/wh", test_tmpdir());
    cr_assert_eq(hudi_fs_local_new(&f->fs, NULL), 0);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_catalog_open(&f->c, f->fs, f->dir, &err), 0, "%s", err.message);
}

static void fx_close(fixture *f) {
    hudi_catalog_free(f->c);
    hudi_fs_free(f->fs);
    char parent[4096];
    snprintf(parent, sizeof(parent), "%s", f->dir);
    *strrchr(parent, '/') = '\0';
    rm_tree(parent);
}

static void touch_file(const char *dir, const char *name) {
    char p[4200];
    snprintf(p, sizeof(p), "mkdir -p '%s'", dir);
    cr_assert_eq(system(p), 0);
    snprintf(p, sizeof(p), "%s/%s", dir, name);
    FILE *fp = fopen(p, "w");
    cr_assert(fp);
    fputs("data", fp);
    fclose(fp);
}

static bool path_exists(const char *p) { return access(p, F_OK) == 0; }

/* A table entry with a nested schema and properties. */
static void make_entry(hudi_catalog_table *t, const char *db, const char *name, bool managed,
                       const char *location) {
    memset(t, 0, sizeof(*t));
    t->database = strdup(db);
    t->name = strdup(name);
    t->provider = HUDI_CATALOG_PARQUET;
    t->managed = managed;
    t->location = strdup(location);
    t->comment = strdup("a \"quoted\" comment\n");
    t->props = calloc(5, sizeof(char *));
    t->props[0] = strdup("primaryKey");
    t->props[1] = strdup("id");
    t->props[2] = strdup("hoodie.x");
    t->props[3] = strdup("v\u00e9");
    t->n_props = 2;
    t->partition_columns = strdup("dt");
    hudi_field_init(&t->schema, "schema", HUDI_TYPE_STRUCT, false);
    hudi_field_set_children(&t->schema, 3);
    hudi_field_init(&t->schema.children[0], "id", HUDI_TYPE_INT64, false);
    hudi_field_init(&t->schema.children[1], "amount", HUDI_TYPE_DECIMAL, true);
    t->schema.children[1].precision = 10;
    t->schema.children[1].scale = 2;
    t->schema.children[1].comment = strdup("money");
    hudi_field *tags = &t->schema.children[2];
    hudi_field_init(tags, "tags", HUDI_TYPE_LIST, true);
    hudi_field_set_children(tags, 1);
    hudi_field_init(&tags->children[0], "element", HUDI_TYPE_TIMESTAMP, true);
    tags->children[0].utc = true;
    t->created_ms = 1700000000000;
}

/* The tests build entries with libc strings; the catalog frees with hudi_free, which is libc
 * free unless an allocator was installed (none is here). */
static void free_entry(hudi_catalog_table *t) { hudi_catalog_table_dispose(t); }

Test(catalog, open_creates_default) {
    fixture f;
    fx_open(&f);
    char **dbs = NULL;
    cr_assert_eq(hudi_catalog_list_databases(f.c, &dbs, NULL), 0);
    cr_assert_str_eq(dbs[0], "default");
    cr_assert_null(dbs[1]);
    hudi_catalog_names_free(dbs);
    cr_assert(hudi_catalog_database_exists(f.c, "DEFAULT"));
    fx_close(&f);
}

Test(catalog, databases) {
    fixture f;
    fx_open(&f);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_catalog_create_database(f.c, "Sales", false, NULL, NULL, &err), 0);
    const char *props[] = {"owner", "ann", NULL};
    cr_assert_eq(
        hudi_catalog_create_database_props(f.c, "hr", false, "people", "/x/hr", props, &err), 0,
        "%s", err.message);
    cr_assert_eq(hudi_catalog_create_database(f.c, "sales", false, NULL, NULL, &err), HUDI_EEXISTS);
    cr_assert_str_eq(err.message, "database 'sales' already exists");
    cr_assert_eq(hudi_catalog_create_database(f.c, "sales", true, NULL, NULL, &err), 0);
    cr_assert_eq(hudi_catalog_create_database(f.c, "a/b", false, NULL, NULL, &err), HUDI_EINVAL);
    cr_assert_eq(hudi_catalog_create_database(f.c, ".x", false, NULL, NULL, &err), HUDI_EINVAL);

    char **dbs = NULL;
    cr_assert_eq(hudi_catalog_list_databases(f.c, &dbs, NULL), 0);
    cr_assert_str_eq(dbs[0], "default");
    cr_assert_str_eq(dbs[1], "hr");
    cr_assert_str_eq(dbs[2], "sales");
    cr_assert_null(dbs[3]);
    hudi_catalog_names_free(dbs);

    hudi_catalog_database d;
    cr_assert_eq(hudi_catalog_get_database(f.c, "HR", &d, &err), 0, "%s", err.message);
    cr_assert_str_eq(d.name, "hr");
    cr_assert_str_eq(d.comment, "people");
    cr_assert_str_eq(d.location, "/x/hr");
    cr_assert_eq(d.n_props, 1);
    cr_assert_str_eq(d.props[0], "owner");
    cr_assert_str_eq(d.props[1], "ann");
    cr_assert_gt(d.created_ms, 0);
    hudi_catalog_database_dispose(&d);
    cr_assert_eq(hudi_catalog_get_database(f.c, "sales", &d, &err), 0);
    cr_assert_null(d.comment);
    hudi_catalog_database_dispose(&d);

    cr_assert_eq(hudi_catalog_drop_database(f.c, "default", false, true, &err), HUDI_EINVAL);
    cr_assert_eq(hudi_catalog_drop_database(f.c, "nope", false, false, &err), HUDI_ENOTFOUND);
    cr_assert_str_eq(err.message, "database 'nope' not found");
    cr_assert_eq(hudi_catalog_drop_database(f.c, "nope", true, false, &err), 0);

    hudi_catalog_table t;
    char loc[4200];
    snprintf(loc, sizeof(loc), "%s/sales/t1", f.dir);
    make_entry(&t, "sales", "t1", true, loc);
    cr_assert_eq(hudi_catalog_create_table(f.c, &t, &err), 0, "%s", err.message);
    free_entry(&t);
    touch_file(loc, "part-0.parquet");
    cr_assert_eq(hudi_catalog_drop_database(f.c, "sales", false, false, &err), HUDI_EINVAL);
    cr_assert_str_eq(err.message, "database 'sales' is not empty");
    cr_assert_eq(hudi_catalog_drop_database(f.c, "sales", false, true, &err), 0, "%s", err.message);
    cr_assert_not(hudi_catalog_database_exists(f.c, "sales"));
    cr_assert_not(path_exists(loc));
    cr_assert_eq(hudi_catalog_drop_database(f.c, "hr", false, false, &err), 0);
    cr_assert_eq(hudi_catalog_list_databases(f.c, &dbs, NULL), 0);
    cr_assert_str_eq(dbs[0], "default");
    cr_assert_null(dbs[1]);
    hudi_catalog_names_free(dbs);
    fx_close(&f);
}

Test(catalog, tables_roundtrip) {
    fixture f;
    fx_open(&f);
    hudi_error err = HUDI_ERROR_INIT;
    hudi_catalog_table t, g;
    char *loc = hudi_catalog_default_location(f.c, "Default", "Orders");
    char want[4200];
    snprintf(want, sizeof(want), "%s/default/orders", f.dir);
    cr_assert_str_eq(loc, want);
    make_entry(&t, "default", "Orders", true, loc);
    cr_assert_eq(hudi_catalog_create_table(f.c, &t, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_catalog_create_table(f.c, &t, &err), HUDI_EEXISTS);
    cr_assert_str_eq(err.message, "table default.orders already exists");
    free_entry(&t);
    free(loc);

    cr_assert_eq(hudi_catalog_get_table(f.c, "DEFAULT", "orders", &g, &err), 0, "%s", err.message);
    cr_assert_str_eq(g.database, "default");
    cr_assert_str_eq(g.name, "orders");
    cr_assert_eq(g.provider, HUDI_CATALOG_PARQUET);
    cr_assert(g.managed);
    cr_assert_str_eq(g.location, want);
    cr_assert_str_eq(g.comment, "a \"quoted\" comment\n");
    cr_assert_str_eq(hudi_catalog_table_prop(&g, "primaryKey"), "id");
    cr_assert_str_eq(hudi_catalog_table_prop(&g, "hoodie.x"), "v\u00e9");
    cr_assert_null(hudi_catalog_table_prop(&g, "nope"));
    cr_assert_str_eq(g.partition_columns, "dt");
    cr_assert_eq(g.schema.n_children, 3);
    cr_assert_eq(g.schema.children[0].type, HUDI_TYPE_INT64);
    cr_assert_not(g.schema.children[0].nullable);
    cr_assert_eq(g.schema.children[1].precision, 10);
    cr_assert_eq(g.schema.children[1].scale, 2);
    cr_assert_str_eq(g.schema.children[1].comment, "money");
    cr_assert_eq(g.schema.children[2].type, HUDI_TYPE_LIST);
    cr_assert_eq(g.schema.children[2].children[0].type, HUDI_TYPE_TIMESTAMP);
    cr_assert(g.schema.children[2].children[0].utc);
    cr_assert_eq(g.created_ms, 1700000000000);

    /* update: SET / UNSET TBLPROPERTIES */
    cr_assert_eq(hudi_catalog_table_set_prop(&g, "k", "1", &err), 0);
    cr_assert_eq(hudi_catalog_table_set_prop(&g, "primaryKey", "id2", &err), 0);
    cr_assert(hudi_catalog_table_unset_prop(&g, "hoodie.x"));
    cr_assert_not(hudi_catalog_table_unset_prop(&g, "hoodie.x"));
    cr_assert_eq(hudi_catalog_update_table(f.c, &g, &err), 0, "%s", err.message);
    hudi_catalog_table h;
    cr_assert_eq(hudi_catalog_get_table(f.c, "default", "orders", &h, &err), 0);
    cr_assert_eq(h.n_props, 2);
    cr_assert_str_eq(h.props[0], "primaryKey");
    cr_assert_str_eq(h.props[1], "id2");
    cr_assert_str_eq(h.props[2], "k");
    cr_assert_str_eq(h.props[3], "1");
    cr_assert_null(h.props[4]);
    hudi_catalog_table cp;
    cr_assert_eq(hudi_catalog_table_copy(&cp, &h, &err), 0);
    cr_assert_str_eq(cp.props[3], "1");
    cr_assert_eq(cp.schema.n_children, 3);
    hudi_catalog_table_dispose(&cp);
    hudi_catalog_table_dispose(&h);
    hudi_catalog_table_dispose(&g);

    /* an external table, and listing */
    make_entry(&t, "default", "ext", false, "/data/somewhere");
    t.provider = HUDI_CATALOG_HUDI;
    cr_assert_eq(hudi_catalog_create_table(f.c, &t, &err), 0, "%s", err.message);
    free_entry(&t);
    char **names = NULL;
    cr_assert_eq(hudi_catalog_list_tables(f.c, "default", &names, &err), 0);
    cr_assert_str_eq(names[0], "ext");
    cr_assert_str_eq(names[1], "orders");
    cr_assert_null(names[2]);
    hudi_catalog_names_free(names);
    cr_assert_eq(hudi_catalog_get_table(f.c, "default", "ext", &g, &err), 0);
    cr_assert_not(g.managed);
    cr_assert_eq(g.provider, HUDI_CATALOG_HUDI);
    cr_assert_str_eq(g.location, "/data/somewhere");
    hudi_catalog_table_dispose(&g);

    cr_assert_eq(hudi_catalog_get_table(f.c, "default", "none", &g, &err), HUDI_ENOTFOUND);
    cr_assert_str_eq(err.message, "table default.none not found");
    cr_assert_eq(hudi_catalog_get_table(f.c, "nodb", "none", &g, &err), HUDI_ENOTFOUND);
    cr_assert_str_eq(err.message, "database 'nodb' not found");
    make_entry(&t, "nodb", "x", false, "/x");
    cr_assert_eq(hudi_catalog_create_table(f.c, &t, &err), HUDI_ENOTFOUND);
    free_entry(&t);
    fx_close(&f);
}

Test(catalog, rename_and_drop) {
    fixture f;
    fx_open(&f);
    hudi_error err = HUDI_ERROR_INIT;
    hudi_catalog_table t, g;
    cr_assert_eq(hudi_catalog_create_database(f.c, "other", false, NULL, NULL, &err), 0);
    char *loc = hudi_catalog_default_location(f.c, "default", "m");
    make_entry(&t, "default", "m", true, loc);
    cr_assert_eq(hudi_catalog_create_table(f.c, &t, &err), 0);
    free_entry(&t);
    touch_file(loc, "f.parquet");
    char ext[4200];
    snprintf(ext, sizeof(ext), "%s/ext-data", f.dir);
    touch_file(ext, "f.parquet");
    make_entry(&t, "default", "e", false, ext);
    cr_assert_eq(hudi_catalog_create_table(f.c, &t, &err), 0);
    free_entry(&t);

    /* rename a managed table across databases: its folder moves */
    cr_assert_eq(hudi_catalog_rename_table(f.c, "default", "m", "other", "m2", &err), 0, "%s",
                 err.message);
    cr_assert_not(path_exists(loc));
    cr_assert_not(hudi_catalog_table_exists(f.c, "default", "m"));
    cr_assert_eq(hudi_catalog_get_table(f.c, "other", "m2", &g, &err), 0);
    char want[4200];
    snprintf(want, sizeof(want), "%s/other/m2", f.dir);
    cr_assert_str_eq(g.location, want);
    cr_assert_str_eq(g.name, "m2");
    hudi_catalog_table_dispose(&g);
    snprintf(want, sizeof(want), "%s/other/m2/f.parquet", f.dir);
    cr_assert(path_exists(want));
    /* an external one: only the entry */
    cr_assert_eq(hudi_catalog_rename_table(f.c, "default", "e", "default", "e2", &err), 0);
    cr_assert_eq(hudi_catalog_get_table(f.c, "default", "e2", &g, &err), 0);
    cr_assert_str_eq(g.location, ext);
    hudi_catalog_table_dispose(&g);
    cr_assert_eq(hudi_catalog_rename_table(f.c, "default", "e2", "other", "m2", &err),
                 HUDI_EEXISTS);
    cr_assert_eq(hudi_catalog_rename_table(f.c, "default", "zz", "other", "q", &err),
                 HUDI_ENOTFOUND);

    /* drop: external keeps its data, managed deletes it */
    cr_assert_eq(hudi_catalog_drop_table(f.c, "default", "e2", false, &err), 0);
    cr_assert(path_exists(ext));
    cr_assert_eq(hudi_catalog_drop_table(f.c, "other", "m2", true, &err), 0);
    snprintf(want, sizeof(want), "%s/other/m2", f.dir);
    cr_assert_not(path_exists(want));
    cr_assert_eq(hudi_catalog_drop_table(f.c, "other", "m2", true, &err), HUDI_ENOTFOUND);
    /* external with PURGE deletes the location */
    make_entry(&t, "default", "e", false, ext);
    cr_assert_eq(hudi_catalog_create_table(f.c, &t, &err), 0);
    free_entry(&t);
    cr_assert_eq(hudi_catalog_drop_table(f.c, "default", "e", true, &err), 0);
    cr_assert_not(path_exists(ext));
    free(loc);
    fx_close(&f);
}

Test(catalog, two_handles_see_each_other) {
    fixture f;
    fx_open(&f);
    hudi_error err = HUDI_ERROR_INIT;
    hudi_catalog *c2 = NULL;
    cr_assert_eq(hudi_catalog_open(&c2, f.fs, f.dir, &err), 0);
    cr_assert_eq(hudi_catalog_create_database(f.c, "db1", false, "x", NULL, &err), 0);
    cr_assert(hudi_catalog_database_exists(c2, "db1"));
    hudi_catalog_table t, g;
    make_entry(&t, "db1", "t", false, "/somewhere");
    cr_assert_eq(hudi_catalog_create_table(c2, &t, &err), 0);
    cr_assert(hudi_catalog_table_exists(f.c, "db1", "t"));
    cr_assert_eq(hudi_catalog_create_table(f.c, &t, &err), HUDI_EEXISTS);
    free_entry(&t);
    cr_assert_eq(hudi_catalog_get_table(f.c, "db1", "t", &g, &err), 0);
    cr_assert_eq(hudi_catalog_table_set_prop(&g, "k", "v", &err), 0);
    cr_assert_eq(hudi_catalog_update_table(f.c, &g, &err), 0);
    hudi_catalog_table_dispose(&g);
    cr_assert_eq(hudi_catalog_get_table(c2, "db1", "t", &g, &err), 0);
    cr_assert_str_eq(hudi_catalog_table_prop(&g, "k"), "v");
    hudi_catalog_table_dispose(&g);
    cr_assert_eq(hudi_catalog_drop_table(c2, "db1", "t", false, &err), 0);
    cr_assert_not(hudi_catalog_table_exists(f.c, "db1", "t"));
    cr_assert_eq(hudi_catalog_drop_database(c2, "db1", false, false, &err), 0);
    cr_assert_not(hudi_catalog_database_exists(f.c, "db1"));
    hudi_catalog_free(c2);
    fx_close(&f);
}

Test(catalog, corrupt_entry_is_reported) {
    fixture f;
    fx_open(&f);
    hudi_error err = HUDI_ERROR_INIT;
    char p[4200];
    snprintf(p, sizeof(p), "%s/default/.hudic-table.bad.json", f.dir);
    FILE *fp = fopen(p, "w");
    fputs("{\"format\": 1, \"properties\": 3}", fp);
    fclose(fp);
    hudi_catalog_table g;
    cr_assert_eq(hudi_catalog_get_table(f.c, "default", "bad", &g, &err), HUDI_ECORRUPT);
    cr_assert(strstr(err.message, ".hudic-table.bad.json: catalog entry:") != NULL, "%s",
              err.message);
    fp = fopen(p, "w");
    fputs("{\"format\": 9}", fp);
    fclose(fp);
    cr_assert_eq(hudi_catalog_get_table(f.c, "default", "bad", &g, &err), HUDI_EUNSUPPORTED);
    fx_close(&f);
}

/* ---- crash safety ------------------------------------------------------------------------ */

/* The whole catalog as text: databases with their comment, tables with their entry and
 * whether their data is there. */
static void snapshot(hudi_fs *fs, const char *wh, hudi_buf *out) {
    hudi_catalog *c = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_catalog_open(&c, fs, wh, &err), 0, "%s", err.message);
    char **dbs = NULL;
    cr_assert_eq(hudi_catalog_list_databases(c, &dbs, &err), 0, "%s", err.message);
    for (char **d = dbs; *d; d++) {
        hudi_catalog_database dd;
        cr_assert_eq(hudi_catalog_get_database(c, *d, &dd, &err), 0, "%s", err.message);
        hudi_buf_printf(out, "db %s comment=%s\n", *d, dd.comment ? dd.comment : "-");
        hudi_catalog_database_dispose(&dd);
        char **ts = NULL;
        cr_assert_eq(hudi_catalog_list_tables(c, *d, &ts, &err), 0, "%s", err.message);
        for (char **t = ts; *t; t++) {
            hudi_catalog_table e;
            cr_assert_eq(hudi_catalog_get_table(c, *d, *t, &e, &err), 0, "%s", err.message);
            char data[4300];
            snprintf(data, sizeof(data), "%s/f.parquet", e.location);
            hudi_buf_printf(out, "  table %s managed=%d loc=%s data=%d props=", *t, e.managed,
                            e.location, hudi_fs_exists(fs, data));
            for (int32_t i = 0; i < e.n_props; i++)
                hudi_buf_printf(out, "%s=%s,", e.props[2 * i], e.props[2 * i + 1]);
            hudi_buf_putc(out, '\n');
            hudi_catalog_table_dispose(&e);
        }
        hudi_catalog_names_free(ts);
    }
    hudi_catalog_names_free(dbs);
    hudi_catalog_free(c);
}

typedef int (*catalog_op)(hudi_catalog *c, const char *wh, hudi_error *err);

static void setup_state(hudi_fs *fs, const char *wh) {
    hudi_catalog *c = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_catalog_open(&c, fs, wh, &err), 0);
    cr_assert_eq(hudi_catalog_create_database(c, "d", false, "dc", NULL, &err), 0);
    cr_assert_eq(hudi_catalog_create_database(c, "empty", false, "ec", NULL, &err), 0);
    hudi_catalog_table t;
    char *loc = hudi_catalog_default_location(c, "d", "m");
    make_entry(&t, "d", "m", true, loc);
    cr_assert_eq(hudi_catalog_create_table(c, &t, &err), 0);
    free_entry(&t);
    touch_file(loc, "f.parquet");
    free(loc);
    char ext[4200];
    snprintf(ext, sizeof(ext), "%s-ext", wh);
    touch_file(ext, "f.parquet");
    make_entry(&t, "d", "e", false, ext);
    cr_assert_eq(hudi_catalog_create_table(c, &t, &err), 0);
    free_entry(&t);
    hudi_catalog_free(c);
}

static int op_create_db(hudi_catalog *c, const char *wh, hudi_error *err) {
    const char *props[] = {"a", "b", NULL};
    return hudi_catalog_create_database_props(c, "nd", false, "new", NULL, props, err);
}
/* DROP DATABASE of an empty database is one step; CASCADE is one step per table, then one for
 * the database (docs/formats/catalog.md), so it is not checked here as a whole. */
static int op_drop_db(hudi_catalog *c, const char *wh, hudi_error *err) {
    return hudi_catalog_drop_database(c, "empty", false, false, err);
}
static int op_create_managed(hudi_catalog *c, const char *wh, hudi_error *err) {
    hudi_catalog_table t;
    char *loc = hudi_catalog_default_location(c, "d", "n");
    make_entry(&t, "d", "n", true, loc);
    free(loc);
    int rc = hudi_catalog_create_table(c, &t, err);
    free_entry(&t);
    return rc;
}
static int op_create_external(hudi_catalog *c, const char *wh, hudi_error *err) {
    hudi_catalog_table t;
    make_entry(&t, "d", "x", false, "/elsewhere");
    int rc = hudi_catalog_create_table(c, &t, err);
    free_entry(&t);
    return rc;
}
static int op_update(hudi_catalog *c, const char *wh, hudi_error *err) {
    hudi_catalog_table t;
    int rc = hudi_catalog_get_table(c, "d", "m", &t, err);
    if (rc < 0) return rc;
    hudi_catalog_table_set_prop(&t, "new", "1", NULL);
    rc = hudi_catalog_update_table(c, &t, err);
    hudi_catalog_table_dispose(&t);
    return rc;
}
static int op_drop_managed(hudi_catalog *c, const char *wh, hudi_error *err) {
    return hudi_catalog_drop_table(c, "d", "m", true, err);
}
static int op_drop_external(hudi_catalog *c, const char *wh, hudi_error *err) {
    return hudi_catalog_drop_table(c, "d", "e", false, err);
}
static int op_rename_managed(hudi_catalog *c, const char *wh, hudi_error *err) {
    return hudi_catalog_rename_table(c, "d", "m", "default", "m3", err);
}
static int op_rename_external(hudi_catalog *c, const char *wh, hudi_error *err) {
    return hudi_catalog_rename_table(c, "d", "e", "d", "e3", err);
}

/* Runs `op` failing storage call 1, 2, ... (sticky: the process is dead after the fault) until
 * it runs without a fault. After every failure the catalog reads exactly as before or as after
 * the operation; and a failure of the commit point itself must leave "before". */
static void crash_check(catalog_op op, const char *label) {
    hudi_buf before = HUDI_BUF_INIT, after = HUDI_BUF_INIT;
    char base[4096];
    snprintf(base, sizeof(base), "%s", test_tmpdir());
    hudi_fs *local = NULL;
    cr_assert_eq(hudi_fs_local_new(&local, NULL), 0);
    /* the reference run */
    char wh[4200];
    snprintf(wh, sizeof(wh), "%s/ref", base);
    setup_state(local, wh);
    snapshot(local, wh, &before);
    {
        hudi_catalog *c = NULL;
        hudi_error err = HUDI_ERROR_INIT;
        cr_assert_eq(hudi_catalog_open(&c, local, wh, &err), 0);
        cr_assert_eq(op(c, wh, &err), 0, "%s: %s", label, err.message);
        hudi_catalog_free(c);
    }
    snapshot(local, wh, &after);
    cr_assert_str_neq(before.data, after.data, "%s changes nothing", label);
    /* the same paths in every run, so snapshots compare as text */
    int runs = 0, saw_before = 0, saw_after = 0;
    for (int64_t n = 1; n < 500; n++) {
        snprintf(wh, sizeof(wh), "%s/ref", base);
        char cmd[8500];
        snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s-ext'", wh, wh);
        cr_assert_eq(system(cmd), 0);
        setup_state(local, wh);
        hudi_catalog *c = NULL;
        hudi_error err = HUDI_ERROR_INIT;
        /* count the calls of opening the handle, so the fault lands inside the operation */
        hudi_fs *faulty = NULL;
        cr_assert_eq(hudi_fs_faulty_new(&faulty, local, (hudi_fault_plan){0, -1, false}, NULL), 0);
        cr_assert_eq(hudi_catalog_open(&c, faulty, wh, &err), 0);
        int64_t open_calls = hudi_fs_faulty_calls(faulty);
        hudi_catalog_free(c);
        hudi_fs_free(faulty);
        cr_assert_eq(
            hudi_fs_faulty_new(&faulty, local, (hudi_fault_plan){open_calls + n, -1, true}, NULL),
            0);
        cr_assert_eq(hudi_catalog_open(&c, faulty, wh, &err), 0, "%s", err.message);
        int rc = op(c, wh, &err);
        bool tripped = hudi_fs_faulty_tripped(faulty);
        hudi_catalog_free(c);
        hudi_fs_free(faulty);
        hudi_buf now = HUDI_BUF_INIT;
        snapshot(local, wh, &now);
        if (!tripped) {
            cr_assert_eq(rc, 0, "%s: %s", label, err.message);
            cr_assert_str_eq(now.data, after.data, "%s without a fault", label);
            hudi_buf_dispose(&now);
            runs = (int)n;
            break;
        }
        bool is_before = strcmp(now.data, before.data) == 0;
        bool is_after = strcmp(now.data, after.data) == 0;
        cr_assert(is_before || is_after,
                  "%s: fault at call %lld (rc %d) left:\n%s\nbefore:\n%s\nafter:\n%s", label,
                  (long long)n, rc, now.data, before.data, after.data);
        saw_before += is_before;
        saw_after += is_after;
        hudi_buf_dispose(&now);
    }
    cr_assert_gt(runs, 1, "%s never ran without a fault", label);
    cr_assert_gt(saw_before, 0, "%s: no fault left the catalog as before", label);
    char cmd[8500];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
    cr_assert_eq(system(cmd), 0);
    hudi_fs_free(local);
    hudi_buf_dispose(&before);
    hudi_buf_dispose(&after);
}

Test(catalog, crash_create_database) { crash_check(op_create_db, "create database"); }
Test(catalog, crash_drop_database) { crash_check(op_drop_db, "drop empty database"); }
Test(catalog, crash_create_managed) { crash_check(op_create_managed, "create managed table"); }
Test(catalog, crash_create_external) { crash_check(op_create_external, "create external"); }
Test(catalog, crash_update) { crash_check(op_update, "update table"); }
Test(catalog, crash_drop_managed) { crash_check(op_drop_managed, "drop managed table"); }
Test(catalog, crash_drop_external) { crash_check(op_drop_external, "drop external table"); }
Test(catalog, crash_rename_managed) { crash_check(op_rename_managed, "rename managed table"); }
Test(catalog, crash_rename_external) { crash_check(op_rename_external, "rename external"); }

Test(catalog, flink_catalog_records) {
    fixture f;
    fx_open(&f);
    hudi_error err = HUDI_ERROR_INIT;
    const char *props[] = {"type", "hudi", "catalog.path", "/x", NULL};
    cr_assert_eq(hudi_catalog_put_catalog(f.c, "Hoodie_Catalog", props, &err), 0, "%s",
                 err.message);
    char **got = NULL;
    cr_assert_eq(hudi_catalog_get_catalog(f.c, "hoodie_catalog", &got, &err), 0);
    cr_assert_str_eq(got[0], "type");
    cr_assert_str_eq(got[3], "/x");
    cr_assert_null(got[4]);
    hudi_catalog_names_free(got);
    const char *props2[] = {"type", "hudi", NULL};
    cr_assert_eq(hudi_catalog_put_catalog(f.c, "hoodie_catalog", props2, &err), 0);
    cr_assert_eq(hudi_catalog_get_catalog(f.c, "hoodie_catalog", &got, &err), 0);
    cr_assert_null(got[2]);
    hudi_catalog_names_free(got);
    cr_assert_eq(hudi_catalog_get_catalog(f.c, "other", &got, &err), HUDI_ENOTFOUND);
    cr_assert_str_eq(err.message, "Catalog other not found");
    char **names = NULL;
    cr_assert_eq(hudi_catalog_list_catalogs(f.c, &names, &err), 0);
    cr_assert_str_eq(names[0], "hoodie_catalog");
    cr_assert_null(names[1]);
    hudi_catalog_names_free(names);
    /* a catalog record is a file: not a database */
    char **dbs = NULL;
    cr_assert_eq(hudi_catalog_list_databases(f.c, &dbs, NULL), 0);
    cr_assert_str_eq(dbs[0], "default");
    cr_assert_null(dbs[1]);
    hudi_catalog_names_free(dbs);
    fx_close(&f);
}

Test(catalog, leftovers_are_invisible_and_swept) {
    fixture f;
    fx_open(&f);
    char p[17000];
    /* a crashed drop (trash) and a crashed create (a half-built database folder) */
    snprintf(p, sizeof(p),
             "mkdir -p '%s/.hudic-trash-x-1/t' '%s/default/.hudic-trash-t-1/a' "
             "'%s/.hudic-new-db-1' '%s/Upper'",
             f.dir, f.dir, f.dir, f.dir);
    cr_assert_eq(system(p), 0);
    char **dbs = NULL;
    cr_assert_eq(hudi_catalog_list_databases(f.c, &dbs, NULL), 0);
    cr_assert_str_eq(dbs[0], "default");
    cr_assert_null(dbs[1], "%s", dbs[1]);
    hudi_catalog_names_free(dbs);
    char **ts = NULL;
    cr_assert_eq(hudi_catalog_list_tables(f.c, "default", &ts, NULL), 0);
    cr_assert_null(ts[0]);
    hudi_catalog_names_free(ts);
    snprintf(p, sizeof(p), "%s/default/.hudic-trash-t-1", f.dir);
    cr_assert_not(path_exists(p), "listing the tables sweeps the database's trash");
    hudi_catalog *c2 = NULL;
    cr_assert_eq(hudi_catalog_open(&c2, f.fs, f.dir, NULL), 0);
    snprintf(p, sizeof(p), "%s/.hudic-trash-x-1", f.dir);
    cr_assert_not(path_exists(p), "opening sweeps the warehouse's trash");
    snprintf(p, sizeof(p), "%s/.hudic-new-db-1", f.dir);
    cr_assert(path_exists(p), "a recent half-built database may still be in the making");
    hudi_catalog_free(c2);
    fx_close(&f);
}
