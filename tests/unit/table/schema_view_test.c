/* schema_view_test.c - which schema a table has as of an instant (commit "schema" precedence,
 * table services ignored, create-schema fallback), its InternalSchema (latest_schema, history
 * fallback), the schema of each data file (exact, older history version, fresh ids) and the
 * history files of .hoodie/.schema (current one, residual files, save). Tables are built by
 * hand on the memory filesystem: hoodie.properties and commit files. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "schema/schema.h"
#include "table/schema_view.h"

#define BASE "/mem/t"
#define C1 "20240101000000001"
#define C2 "20240101000000002"
#define C3 "20240101000000003"
#define C4 "20240101000000004"
#define C9 "20240101000000009"

/* id int, a string */
static const char *const S1 =
    "{\"type\":\"record\",\"name\":\"t_record\",\"namespace\":\"hoodie.t\",\"fields\":["
    "{\"name\":\"id\",\"type\":\"int\"},"
    "{\"name\":\"a\",\"type\":[\"null\",\"string\"],\"default\":null}]}";
/* id int, a string, b long */
static const char *const S2 =
    "{\"type\":\"record\",\"name\":\"t_record\",\"namespace\":\"hoodie.t\",\"fields\":["
    "{\"name\":\"id\",\"type\":\"int\"},"
    "{\"name\":\"a\",\"type\":[\"null\",\"string\"],\"default\":null},"
    "{\"name\":\"b\",\"type\":[\"null\",\"long\"],\"default\":null}]}";
/* the create schema: id int only */
static const char *const S0 = "{\"type\":\"record\",\"name\":\"t_record\",\"namespace\":"
                              "\"hoodie.t\",\"fields\":[{\"name\":\"id\",\"type\":\"int\"}]}";

#define META_FIELDS_JSON                                                                           \
    "{\"id\":0,\"name\":\"_hoodie_commit_time\",\"optional\":true,\"type\":\"string\"},"           \
    "{\"id\":1,\"name\":\"_hoodie_commit_seqno\",\"optional\":true,\"type\":\"string\"},"          \
    "{\"id\":2,\"name\":\"_hoodie_record_key\",\"optional\":true,\"type\":\"string\"},"            \
    "{\"id\":3,\"name\":\"_hoodie_partition_path\",\"optional\":true,\"type\":\"string\"},"        \
    "{\"id\":4,\"name\":\"_hoodie_file_name\",\"optional\":true,\"type\":\"string\"},"

/* S1 as the version-0 InternalSchema */
static const char *const L0 = "{\"max_column_id\":6,\"version_id\":0,\"type\":\"record\","
                              "\"fields\":[" META_FIELDS_JSON
                              "{\"id\":5,\"name\":\"id\",\"optional\":false,\"type\":\"int\"},"
                              "{\"id\":6,\"name\":\"a\",\"optional\":true,\"type\":\"string\"}]}";
/* at C2: a renamed to name, n long added */
static const char *const L2 = "{\"max_column_id\":7,\"version_id\":" C2 ",\"type\":\"record\","
                              "\"fields\":[" META_FIELDS_JSON
                              "{\"id\":5,\"name\":\"id\",\"optional\":false,\"type\":\"int\"},"
                              "{\"id\":6,\"name\":\"name\",\"optional\":true,\"type\":\"string\"},"
                              "{\"id\":7,\"name\":\"n\",\"optional\":true,\"type\":\"long\"}]}";

typedef struct fixture {
    hudi_fs *fs;
    hudi_table *t;
} fixture;

static void put(hudi_fs *fs, const char *rel, const char *text) {
    char path[512];
    hudi_error err = HUDI_ERROR_INIT;
    snprintf(path, sizeof(path), "%s/%s", BASE, rel);
    char dir[512];
    snprintf(dir, sizeof(dir), "%s", path);
    *strrchr(dir, '/') = '\0';
    cr_assert_eq(hudi_fs_mkdirs(fs, dir, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_fs_write_all(fs, path, HUDI_CREATE_OVERWRITE, text, strlen(text), &err), 0,
                 "%s", err.message);
}

static bool exists(fixture *f, const char *rel) {
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", BASE, rel);
    return hudi_fs_exists(f->fs, path);
}

/* A table with (or without) a create schema; populate_meta_fields default true. */
static void setup(fixture *f, const char *create_schema, bool meta) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_buf props = HUDI_BUF_INIT;
    memset(f, 0, sizeof(*f));
    cr_assert_eq(hudi_fs_memory_new(&f->fs, &err), 0);
    hudi_buf_puts(&props, "hoodie.table.name=t\nhoodie.table.version=6\n"
                          "hoodie.timeline.layout.version=1\nhoodie.table.type=COPY_ON_WRITE\n");
    if (!meta) hudi_buf_puts(&props, "hoodie.populate.meta.fields=false\n");
    if (create_schema) {
        /* a .properties value: ':' and '=' need no escape in values, '\' would */
        hudi_buf_printf(&props, "hoodie.table.create.schema=%s\n", create_schema);
    }
    put(f->fs, ".hoodie/hoodie.properties", props.data);
    hudi_buf_dispose(&props);
    cr_assert_eq(hudi_tbl_open(&f->t, f->fs, BASE, &err), 0, "%s", err.message);
}

static void teardown(fixture *f) {
    hudi_tbl_free(f->t);
    hudi_fs_free(f->fs);
}

static void reload(fixture *f) {
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_reload(f->t, &err), 0, "%s", err.message);
}

/* A completed instant of `action` whose metadata has operationType `op` and the given extra
 * metadata (NULL = absent). No write stats: DDL commits have none. */
static void commit(fixture *f, const char *time, const char *action, const char *op,
                   const char *schema, const char *latest) {
    hudi_commit_metadata *md = NULL;
    hudi_buf json = HUDI_BUF_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    char rel[128];
    cr_assert_eq(hudi_commit_metadata_new(&md, &err), 0);
    cr_assert_eq(hudi_commit_metadata_set_operation(md, op, &err), 0);
    if (schema) cr_assert_eq(hudi_commit_metadata_set_extra(md, "schema", schema, &err), 0);
    if (latest) cr_assert_eq(hudi_commit_metadata_set_extra(md, "latest_schema", latest, &err), 0);
    cr_assert_eq(hudi_commit_metadata_write(md, &json, &err), 0, "%s", err.message);
    snprintf(rel, sizeof(rel), ".hoodie/%s.%s", time, action);
    put(f->fs, rel, json.data);
    hudi_buf_dispose(&json);
    hudi_commit_metadata_free(md);
    reload(f);
}

static hudi_schema_view *open_view(fixture *f, const char *as_of) {
    hudi_schema_view *v = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_schema_view_open(&v, f->t, as_of, &err), 0, "%s", err.message);
    return v;
}

/* The table schema's column names, comma separated. */
static const char *columns(const hudi_field *root) {
    static char out[512];
    out[0] = '\0';
    for (int32_t i = 0; root && i < root->n_children; i++)
        snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s", i ? "," : "",
                 root->children[i].name);
    return out;
}

#define META                                                                                       \
    "_hoodie_commit_time,_hoodie_commit_seqno,_hoodie_record_key,_hoodie_partition_path,"          \
    "_hoodie_file_name,"

Test(schema_view, latest_schema_changing_commit_wins) {
    fixture f;
    setup(&f, S0, true);
    commit(&f, C1, "commit", "UPSERT", S1, NULL);
    /* ALTER TABLE: a commit without write stats */
    commit(&f, C2, "commit", "ALTER_SCHEMA", S2, NULL);
    /* clustering keeps the schema: its (older) schema must not win */
    commit(&f, C3, "replacecommit", "CLUSTER", S1, NULL);
    commit(&f, C4, "commit", "COMPACT", S1, NULL);
    hudi_schema_view *v = open_view(&f, NULL);
    cr_assert_str_eq(columns(hudi_schema_view_table(v)), META "id,a,b");
    cr_assert_str_eq(hudi_schema_view_instant(v), C2);
    cr_assert_str_eq(hudi_schema_view_table(v)->name, "hoodie.t.t_record");
    cr_assert_eq(hudi_schema_view_table(v)->children[7].type, HUDI_TYPE_INT64);
    cr_assert_null(hudi_schema_view_ischema(v), "no latest_schema, no history");
    hudi_schema_view_free(v);
    /* time travel: the schema as of C1 */
    v = open_view(&f, C1);
    cr_assert_str_eq(columns(hudi_schema_view_table(v)), META "id,a");
    cr_assert_str_eq(hudi_schema_view_instant(v), C1);
    hudi_schema_view_free(v);
    teardown(&f);
}

Test(schema_view, empty_schema_and_create_schema_fallback) {
    fixture f;
    setup(&f, S0, true);
    hudi_schema_view *v = open_view(&f, NULL);
    cr_assert_str_eq(columns(hudi_schema_view_table(v)), META "id", "no commit: create schema");
    cr_assert_null(hudi_schema_view_instant(v));
    hudi_schema_view_free(v);
    /* a commit with an empty "schema" (a writer without one) does not count */
    commit(&f, C1, "commit", "DELETE", "", NULL);
    v = open_view(&f, NULL);
    cr_assert_str_eq(columns(hudi_schema_view_table(v)), META "id");
    cr_assert_null(hudi_schema_view_instant(v));
    hudi_schema_view_free(v);
    commit(&f, C2, "deltacommit", "UPSERT", S1, NULL);
    v = open_view(&f, NULL);
    cr_assert_str_eq(columns(hudi_schema_view_table(v)), META "id,a");
    hudi_schema_view_free(v);
    /* as of before any commit with a schema */
    v = open_view(&f, C1);
    cr_assert_str_eq(columns(hudi_schema_view_table(v)), META "id");
    hudi_schema_view_free(v);
    teardown(&f);
}

Test(schema_view, no_schema_at_all_and_no_meta_fields) {
    fixture f;
    setup(&f, NULL, false);
    hudi_schema_view *v = open_view(&f, NULL);
    cr_assert_null(hudi_schema_view_table(v));
    cr_assert_null(hudi_schema_view_ischema(v));
    hudi_schema_view_free(v);
    commit(&f, C1, "commit", "INSERT", S1, NULL);
    v = open_view(&f, NULL);
    /* Hudi's resolver adds the meta fields although the table does not populate them */
    cr_assert_str_eq(columns(hudi_schema_view_table(v)), META "id,a");
    hudi_schema_view_free(v);
    /* a bad as-of is refused */
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_schema_view_open(&v, f.t, "yesterday", &err), HUDI_EINVAL);
    cr_assert_null(v);
    teardown(&f);
}

Test(schema_view, inflight_commits_do_not_count) {
    fixture f;
    setup(&f, NULL, true);
    commit(&f, C1, "commit", "UPSERT", S1, NULL);
    put(f.fs, ".hoodie/" C2 ".inflight", "");
    hudi_commit_metadata *md = NULL;
    hudi_buf json = HUDI_BUF_INIT;
    cr_assert_eq(hudi_commit_metadata_new(&md, NULL), 0);
    cr_assert_eq(hudi_commit_metadata_set_extra(md, "schema", S2, NULL), 0);
    cr_assert_eq(hudi_commit_metadata_write(md, &json, NULL), 0);
    put(f.fs, ".hoodie/" C2 ".inflight", json.data);
    hudi_buf_dispose(&json);
    hudi_commit_metadata_free(md);
    reload(&f);
    hudi_schema_view *v = open_view(&f, NULL);
    cr_assert_str_eq(columns(hudi_schema_view_table(v)), META "id,a");
    hudi_schema_view_free(v);
    teardown(&f);
}

/* The history of a table whose DDL at C2 renamed a and added n: L2 newest, L0 the bootstrap. */
static void history_c2(fixture *f) {
    hudi_buf h = HUDI_BUF_INIT;
    hudi_buf_printf(&h, "{\"schemas\":[%s,%s]}", L2, L0);
    put(f->fs, ".hoodie/.schema/" C2 ".schemacommit.requested", "");
    put(f->fs, ".hoodie/.schema/" C2 ".schemacommit.inflight", "");
    put(f->fs, ".hoodie/.schema/" C2 ".schemacommit", h.data);
    hudi_buf_dispose(&h);
}

Test(schema_view, history_of_uncompleted_instants_is_ignored) {
    fixture f;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_ischema_history h;
    setup(&f, NULL, true);
    commit(&f, C1, "commit", "UPSERT", S1, NULL);
    cr_assert_eq(hudi_schema_history_load(&h, f.t, &err), 0, "%s", err.message);
    cr_assert_eq(h.count, 0, "no .schema folder: empty");
    hudi_ischema_history_dispose(&h);
    history_c2(&f);
    /* C2 is not completed yet: its history file is a failed writer's */
    cr_assert_eq(hudi_schema_history_load(&h, f.t, &err), 0, "%s", err.message);
    cr_assert_eq(h.count, 0);
    hudi_ischema_history_dispose(&h);
    commit(&f, C2, "commit", "ALTER_SCHEMA", S1, L2);
    /* a newer history file of an instant that never completed, and one of a clean */
    put(f.fs, ".hoodie/.schema/" C9 ".schemacommit", "{\"schemas\":[]}");
    put(f.fs, ".hoodie/" C3 ".clean", "");
    put(f.fs, ".hoodie/.schema/" C3 ".schemacommit", "not json");
    reload(&f);
    cr_assert_eq(hudi_schema_history_load(&h, f.t, &err), 0, "%s", err.message);
    cr_assert_eq(h.count, 2);
    cr_assert_eq(h.items[0].version_id, hudi_ischema_version_of(C2));
    cr_assert_eq(h.items[1].version_id, 0);
    hudi_ischema_history_dispose(&h);
    teardown(&f);
}

Test(schema_view, save_writes_three_files_and_removes_residue) {
    fixture f;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_ischema_history h = {0}, back = {0};
    setup(&f, NULL, true);
    commit(&f, C1, "commit", "UPSERT", S1, NULL);
    history_c2(&f);
    commit(&f, C2, "commit", "ALTER_SCHEMA", S1, L2);
    put(f.fs, ".hoodie/.schema/" C3 ".schemacommit.requested", ""); /* C3 failed */
    put(f.fs, ".hoodie/.schema/" C3 ".schemacommit", "{}");
    cr_assert_eq(hudi_schema_history_load(&h, f.t, &err), 0, "%s", err.message);
    hudi_ischema s = {0};
    cr_assert_eq(hudi_ischema_copy(&s, &h.items[0], &err), 0);
    s.version_id = hudi_ischema_version_of(C4);
    cr_assert_eq(hudi_ischema_history_add(&h, &s, &err), 0);
    hudi_ischema_dispose(&s);
    cr_assert_eq(hudi_schema_history_save(f.t, C4, &h, &err), 0, "%s", err.message);
    cr_assert(!exists(&f, ".hoodie/.schema/" C3 ".schemacommit"), "residue removed");
    cr_assert(!exists(&f, ".hoodie/.schema/" C3 ".schemacommit.requested"));
    cr_assert(exists(&f, ".hoodie/.schema/" C2 ".schemacommit"), "completed history kept");
    cr_assert(exists(&f, ".hoodie/.schema/" C4 ".schemacommit.requested"));
    cr_assert(exists(&f, ".hoodie/.schema/" C4 ".schemacommit.inflight"));
    cr_assert(exists(&f, ".hoodie/.schema/" C4 ".schemacommit"));
    /* the requested and inflight files are empty, the schemacommit holds the history JSON */
    hudi_buf text = HUDI_BUF_INIT, want = HUDI_BUF_INIT;
    cr_assert_eq(
        hudi_fs_read_all(f.fs, BASE "/.hoodie/.schema/" C4 ".schemacommit.inflight", &text, &err),
        0);
    cr_assert_eq(text.len, 0);
    hudi_buf_clear(&text);
    cr_assert_eq(hudi_fs_read_all(f.fs, BASE "/.hoodie/.schema/" C4 ".schemacommit", &text, &err),
                 0);
    cr_assert_eq(hudi_ischema_history_write(&want, &h, &err), 0);
    cr_assert_eq(text.len, want.len);
    cr_assert(memcmp(text.data, want.data, want.len) == 0);
    hudi_buf_dispose(&text);
    hudi_buf_dispose(&want);
    /* not current until C4 completes */
    cr_assert_eq(hudi_schema_history_load(&back, f.t, &err), 0);
    cr_assert_eq(back.count, 2);
    hudi_ischema_history_dispose(&back);
    commit(&f, C4, "commit", "UPSERT", S1, NULL);
    cr_assert_eq(hudi_schema_history_load(&back, f.t, &err), 0);
    cr_assert_eq(back.count, 3);
    cr_assert_eq(back.items[0].version_id, hudi_ischema_version_of(C4));
    hudi_ischema_history_dispose(&back);
    hudi_ischema_history_dispose(&h);
    /* a bad instant is refused */
    cr_assert_eq(hudi_schema_history_save(f.t, "x", &h, &err), HUDI_EINVAL);
    teardown(&f);
}

/* The column with id `id`: its name. */
static const char *name_of(const hudi_ischema *s, int32_t id) {
    const hudi_field *c = hudi_ischema_find_id(s, id, NULL);
    return c ? c->name : "(none)";
}

Test(schema_view, ischema_and_file_schemas) {
    fixture f;
    hudi_error err = HUDI_ERROR_INIT;
    setup(&f, NULL, true);
    commit(&f, C1, "commit", "UPSERT", S1, NULL);
    history_c2(&f);
    commit(&f, C2, "commit", "ALTER_SCHEMA", S1, L2);
    commit(&f, C3, "commit", "UPSERT", S1, L2);
    commit(&f, C4, "replacecommit", "CLUSTER", S1, NULL);
    hudi_schema_view *v = open_view(&f, NULL);
    const hudi_ischema *q = hudi_schema_view_ischema(v);
    cr_assert_not_null(q);
    cr_assert_eq(q->version_id, hudi_ischema_version_of(C2));
    cr_assert_str_eq(name_of(q, 6), "name");
    const hudi_ischema *fs = NULL, *again = NULL;
    /* exact: the file's commit has latest_schema */
    cr_assert_eq(hudi_schema_view_file(&fs, v, C3, &err), 0, "%s", err.message);
    cr_assert_eq(fs->version_id, hudi_ischema_version_of(C2));
    cr_assert_eq(hudi_schema_view_file(&again, v, C3, &err), 0);
    cr_assert_eq(again, fs, "cached");
    /* lower: C1 has no latest_schema, the history's newest version <= C1 is L0 */
    cr_assert_eq(hudi_schema_view_file(&fs, v, C1, &err), 0, "%s", err.message);
    cr_assert_eq(fs->version_id, 0);
    cr_assert_str_eq(name_of(fs, 6), "a");
    /* the clustering commit lacks latest_schema: the history's version in force at C4 (L2) */
    cr_assert_eq(hudi_schema_view_file(&fs, v, C4, &err), 0, "%s", err.message);
    cr_assert_eq(fs->version_id, hudi_ischema_version_of(C2));
    hudi_schema_view_free(v);
    /* time travel to C1: no InternalSchema yet (latest_schema absent, history starts at 0 but
     * is searched at C1: L0) */
    v = open_view(&f, C1);
    cr_assert_str_eq(columns(hudi_schema_view_table(v)), META "id,a");
    q = hudi_schema_view_ischema(v);
    cr_assert_not_null(q);
    cr_assert_eq(q->version_id, 0);
    hudi_schema_view_free(v);
    teardown(&f);
}

Test(schema_view, file_schema_fresh_ids_without_history) {
    fixture f;
    hudi_error err = HUDI_ERROR_INIT;
    setup(&f, NULL, true);
    commit(&f, C1, "commit", "UPSERT", S1, NULL);
    commit(&f, C2, "commit", "ALTER_SCHEMA", S1, L2); /* no history file */
    hudi_schema_view *v = open_view(&f, NULL);
    cr_assert_not_null(hudi_schema_view_ischema(v));
    const hudi_ischema *fs = NULL;
    cr_assert_eq(hudi_schema_view_file(&fs, v, C1, &err), 0, "%s", err.message);
    /* S1 with the meta fields, positional ids */
    cr_assert_str_eq(name_of(fs, 0), "_hoodie_commit_time");
    cr_assert_str_eq(name_of(fs, 5), "id");
    cr_assert_str_eq(name_of(fs, 6), "a");
    cr_assert_eq(fs->version_id, hudi_ischema_version_of(C1));
    /* a file whose commit is not on the active timeline (archived): read by today's names */
    cr_assert_eq(hudi_schema_view_file(&fs, v, "20230101000000000", &err), 0, "%s", err.message);
    cr_assert_str_eq(name_of(fs, 6), "name");
    hudi_schema_view_free(v);
    teardown(&f);
}

Test(schema_view, commit_without_latest_schema_uses_history) {
    fixture f;
    setup(&f, NULL, true);
    commit(&f, C1, "commit", "UPSERT", S1, NULL);
    history_c2(&f);
    commit(&f, C2, "commit", "ALTER_SCHEMA", S1, L2);
    /* a writer without schema on read adds column b (and knows "name" and "n") */
    static const char *const S3 =
        "{\"type\":\"record\",\"name\":\"t_record\",\"namespace\":\"hoodie.t\",\"fields\":["
        "{\"name\":\"id\",\"type\":\"int\"},"
        "{\"name\":\"name\",\"type\":[\"null\",\"string\"],\"default\":null},"
        "{\"name\":\"n\",\"type\":[\"null\",\"long\"],\"default\":null},"
        "{\"name\":\"b\",\"type\":[\"null\",\"double\"],\"default\":null}]}";
    commit(&f, C3, "commit", "UPSERT", S3, NULL);
    hudi_schema_view *v = open_view(&f, NULL);
    cr_assert_str_eq(hudi_schema_view_instant(v), C3);
    const hudi_ischema *q = hudi_schema_view_ischema(v);
    cr_assert_not_null(q, "the table has a history: still read by id");
    cr_assert_str_eq(name_of(q, 6), "name");
    int32_t id = -1;
    cr_assert_not_null(hudi_ischema_find_path(q, "b", &id));
    cr_assert_eq(id, 8, "a new id after max_column_id 7");
    cr_assert_eq(q->max_column_id, 8);
    hudi_schema_view_free(v);
    teardown(&f);
}

Test(schema_view, bad_latest_schema_names_the_commit) {
    fixture f;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_schema_view *v = NULL;
    setup(&f, NULL, true);
    commit(&f, C1, "commit", "UPSERT", S1, "{\"max_column_id\":");
    cr_assert_eq(hudi_schema_view_open(&v, f.t, NULL, &err), HUDI_ECORRUPT);
    cr_assert(strstr(err.message, C1), "%s", err.message);
    teardown(&f);
}
