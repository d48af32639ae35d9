/* alter_test.c - hudi_tbl_alter_schema: each change kind, the rules without schema on read,
 * protected columns, what the commit writes (requested, inflight, completed commit with
 * operationType ALTER_SCHEMA and no write stats; "schema", "latest_schema", the history files
 * in .hoodie/.schema) and a crash at every storage call leaving the table as before. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schema.h"
#include "support.h"
#include "table/schema_view.h"
#include "table/tbl.h"
#include "wt_util.h"

static const char *const PARTS[] = {"a", "b"};

/* Applies `n` changes; returns rc (err filled). */
static int alter(hudi_table *t, const hudi_schema_change *c, int32_t n, bool sor, char *instant,
                 int32_t *refused, hudi_error *err) {
    hudi_alter_options o = {0};
    o.schema_on_read = sor;
    o.refused = refused;
    char scratch[HUDI_INSTANT_TIME_MAX];
    return hudi_tbl_alter_schema(t, c, n, &o, instant ? instant : scratch, err);
}

static void alter_ok(hudi_table *t, const hudi_schema_change *c, int32_t n, bool sor,
                     char *instant) {
    hudi_error err = HUDI_ERROR_INIT;
    int rc = alter(t, c, n, sor, instant, NULL, &err);
    cr_assert_eq(rc, 0, "alter: %s", err.message);
}

static const hudi_instant *find_instant(const hudi_table *t, const char *time, hudi_state state) {
    for (size_t i = 0; i < t->timeline->count; i++) {
        const hudi_instant *in = &t->timeline->instants[i];
        if (!strcmp(in->time, time) && in->state == state) return in;
    }
    return NULL;
}

/* The completed commit's metadata (checked: a commit, ALTER_SCHEMA, no write stats). */
static hudi_commit_metadata *alter_commit(hudi_table *t, const char *instant) {
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0, "%s", err.message);
    const hudi_instant *in = find_instant(t, instant, HUDI_STATE_COMPLETED);
    cr_assert_not_null(in, "no completed instant %s", instant);
    cr_assert_eq(in->action, HUDI_ACTION_COMMIT);
    hudi_buf json = HUDI_BUF_INIT;
    cr_assert_eq(hudi_timeline_read_commit_json(&json, t->timeline, in, &err), 0, "%s",
                 err.message);
    hudi_commit_metadata *md = NULL;
    cr_assert_eq(hudi_commit_metadata_parse(&md, json.data, json.len, in->file, &err), 0, "%s",
                 err.message);
    cr_assert_str_eq(md->operation_type, "ALTER_SCHEMA");
    cr_assert_eq(md->partitions_count, 0, "an ALTER commit has no write stats");
    hudi_buf_dispose(&json);
    return md;
}

/* Names of the data columns of the commit's "schema", comma separated (static); `out` gets the
 * schema without the meta fields. With schema on read (a "latest_schema") the meta fields are
 * in front, as Hudi's AlterTableCommand writes them; without, they are absent. */
static const char *schema_columns(const hudi_commit_metadata *md, hudi_field *out) {
    static char buf[512];
    const char *s = hudi_commit_metadata_extra(md, "schema");
    cr_assert_not_null(s);
    hudi_error err = HUDI_ERROR_INIT;
    hudi_field full = {0}, f = {0};
    cr_assert_eq(hudi_schema_parse_avro(&full, s, strlen(s), &err), 0, "%s", err.message);
    cr_assert_str_eq(full.name, "hoodie.wt.wt_record");
    bool sor = hudi_commit_metadata_extra(md, "latest_schema") != NULL;
    cr_assert_eq(hudi_schema_has_meta_fields(&full), sor, "%s", s);
    cr_assert_eq(hudi_schema_remove_meta_fields(&f, &full, &err), 0);
    hudi_field_dispose(&full);
    buf[0] = '\0';
    for (int32_t i = 0; i < f.n_children; i++)
        snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", i ? "," : "",
                 f.children[i].name);
    if (out)
        *out = f;
    else
        hudi_field_dispose(&f);
    return buf;
}

static hudi_ischema latest_schema(const hudi_commit_metadata *md) {
    const char *s = hudi_commit_metadata_extra(md, "latest_schema");
    cr_assert_not_null(s, "no latest_schema");
    hudi_ischema is = {0};
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_ischema_parse(&is, s, strlen(s), &err), 0, "%s", err.message);
    return is;
}

static bool exists(hudi_fs *fs, const char *base, const char *rel) {
    char p[1024];
    snprintf(p, sizeof(p), "%s/%s", base, rel);
    hudi_stat st;
    return hudi_fs_stat(fs, p, &st, NULL) == 0;
}

static int32_t id_of(const hudi_ischema *s, const char *path) {
    int32_t id = -1;
    cr_assert_not_null(hudi_ischema_find_path(s, path, &id), "no column %s", path);
    return id;
}

Test(alter, add_column_with_schema_on_read_writes_commit_history_and_latest_schema) {
    char base[256];
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_field schema;
    wt_schema(&schema, false);
    hudi_table *t = wt_create(fs, base, NULL, "part", true, true, &schema);
    hudi_batch *b = wt_batch_range(&schema, 0, 6, 1, PARTS, 2);
    wt_write(t, b, HUDI_WRITE_UPSERT);
    char *before = wt_dump(t, NULL);

    hudi_field dbl = {0};
    hudi_field_init(&dbl, "x", HUDI_TYPE_DOUBLE, true);
    hudi_schema_change add = {HUDI_SCHEMA_ADD, "score", &dbl, "the score", NULL, 0, NULL, false};
    char i1[HUDI_INSTANT_TIME_MAX];
    alter_ok(t, &add, 1, true, i1);

    /* requested (empty), inflight (ALTER_SCHEMA), completed */
    char rel[600];
    hudi_buf body = HUDI_BUF_INIT;
    snprintf(rel, sizeof(rel), "%s/.hoodie/%s.commit.requested", base, i1);
    cr_assert_eq(hudi_fs_read_all(fs, rel, &body, NULL), 0);
    cr_assert_eq(body.len, 0);
    hudi_buf_clear(&body);
    snprintf(rel, sizeof(rel), "%s/.hoodie/%s.inflight", base, i1);
    cr_assert_eq(hudi_fs_read_all(fs, rel, &body, NULL), 0);
    cr_assert(body.data && strstr(body.data, "\"operationType\" : \"ALTER_SCHEMA\""), "%.*s",
              (int)body.len, body.data ? body.data : "");
    hudi_buf_dispose(&body);
    hudi_commit_metadata *md = alter_commit(t, i1);
    hudi_field fs1;
    /* the new column at the end (after the partition column: schema on read appends) */
    cr_assert_str_eq(schema_columns(md, &fs1), "id,name,ts,part,score");
    cr_assert_str_eq(fs1.children[4].comment, "the score");
    cr_assert(fs1.children[4].nullable);
    hudi_field_dispose(&fs1);
    hudi_ischema is = latest_schema(md);
    cr_assert_eq(is.version_id, hudi_ischema_version_of(i1));
    /* meta fields 0..4, data 5..8, the new column takes max_column_id + 1 */
    cr_assert_eq(id_of(&is, "_hoodie_commit_time"), 0);
    cr_assert_eq(id_of(&is, "id"), 5);
    cr_assert_eq(id_of(&is, "score"), 9);
    cr_assert_eq(is.max_column_id, 9);
    hudi_commit_metadata_free(md);

    /* the history: written before the commit, seeded with the pre-DDL schema (version 0) */
    snprintf(rel, sizeof(rel), ".hoodie/.schema/%s.schemacommit", i1);
    cr_assert(exists(fs, base, rel));
    snprintf(rel, sizeof(rel), ".hoodie/.schema/%s.schemacommit.requested", i1);
    cr_assert(exists(fs, base, rel));
    snprintf(rel, sizeof(rel), ".hoodie/.schema/%s.schemacommit.inflight", i1);
    cr_assert(exists(fs, base, rel));
    hudi_ischema_history h = {0};
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_schema_history_load(&h, t, &err), 0, "%s", err.message);
    cr_assert_eq(h.count, 2);
    cr_assert_eq(h.items[0].version_id, hudi_ischema_version_of(i1));
    cr_assert_eq(h.items[1].version_id, 0);
    cr_assert_null(hudi_ischema_find_path(&h.items[1], "score", NULL));
    cr_assert_eq(h.items[1].max_column_id, 8);
    hudi_ischema_history_dispose(&h);

    /* the data reads as before (no file rewritten) */
    char *after = wt_dump(t, NULL);
    cr_assert_str_eq(after, before);

    /* the table has an InternalSchema now: schema on read stays on without asking */
    hudi_schema_change ren = {HUDI_SCHEMA_RENAME, "name", NULL, NULL, "full_name", 0, NULL, false};
    char i2[HUDI_INSTANT_TIME_MAX];
    alter_ok(t, &ren, 1, false, i2);
    md = alter_commit(t, i2);
    cr_assert_str_eq(schema_columns(md, NULL), "id,full_name,ts,part,score");
    hudi_ischema is2 = latest_schema(md);
    cr_assert_eq(is2.version_id, hudi_ischema_version_of(i2));
    cr_assert_eq(id_of(&is2, "full_name"), id_of(&is, "name"), "a rename keeps the id");
    hudi_commit_metadata_free(md);
    cr_assert_eq(hudi_schema_history_load(&h, t, &err), 0, "%s", err.message);
    cr_assert_eq(h.count, 3);
    cr_assert_eq(h.items[0].version_id, hudi_ischema_version_of(i2));
    hudi_ischema_history_dispose(&h);

    /* and the schema view sees the new schema */
    hudi_schema_view *v = NULL;
    cr_assert_eq(hudi_schema_view_open(&v, t, NULL, &err), 0, "%s", err.message);
    cr_assert_not_null(hudi_schema_view_ischema(v));
    cr_assert_eq(hudi_schema_view_ischema(v)->version_id, hudi_ischema_version_of(i2));
    hudi_schema_view_free(v);

    hudi_ischema_dispose(&is);
    hudi_ischema_dispose(&is2);
    hudi_field_dispose(&dbl);
    free(before);
    free(after);
    hudi_batch_free(b);
    hudi_tbl_free(t);
    hudi_field_dispose(&schema);
    hudi_fs_free(fs);
}

Test(alter, without_schema_on_read_only_add_and_comment) {
    char base[256];
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_field schema;
    wt_schema(&schema, false);
    hudi_table *t = wt_create(fs, base, NULL, "part", true, true, &schema);
    hudi_batch *b = wt_batch_range(&schema, 0, 4, 1, PARTS, 2);
    wt_write(t, b, HUDI_WRITE_UPSERT);
    hudi_field str = {0};
    hudi_field_init(&str, "x", HUDI_TYPE_STRING, true);
    hudi_schema_change add = {HUDI_SCHEMA_ADD, "note", &str, NULL, NULL, 0, NULL, false};
    char i1[HUDI_INSTANT_TIME_MAX];
    alter_ok(t, &add, 1, false, i1);
    hudi_commit_metadata *md = alter_commit(t, i1);
    /* Hudi: after the data columns, before the partition columns; only "schema" */
    cr_assert_str_eq(schema_columns(md, NULL), "id,name,ts,note,part");
    cr_assert_null(hudi_commit_metadata_extra(md, "latest_schema"));
    hudi_commit_metadata_free(md);
    hudi_ischema_history h = {0};
    hudi_error herr = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_schema_history_load(&h, t, &herr), 0, "%s", herr.message);
    cr_assert_eq(h.count, 0, "no history without schema on read");
    char rel[600];
    snprintf(rel, sizeof(rel), ".hoodie/.schema/%s.schemacommit", i1);
    cr_assert_not(exists(fs, base, rel));

    hudi_schema_change cm = {HUDI_SCHEMA_COMMENT, "note", NULL, "a note", NULL, 0, NULL, false};
    char i2[HUDI_INSTANT_TIME_MAX];
    alter_ok(t, &cm, 1, false, i2);
    md = alter_commit(t, i2);
    hudi_field f;
    schema_columns(md, &f);
    cr_assert_str_eq(f.children[3].comment, "a note");
    hudi_field_dispose(&f);
    hudi_commit_metadata_free(md);

    /* the rest needs schema on read; nothing is committed */
    hudi_error err = HUDI_ERROR_INIT;
    size_t count = t->timeline->count;
    hudi_field lng = {0};
    hudi_field_init(&lng, "x", HUDI_TYPE_INT64, true);
    hudi_schema_change refused[] = {
        {HUDI_SCHEMA_RENAME, "name", NULL, NULL, "n2", 0, NULL, false},
        {HUDI_SCHEMA_DROP, "note", NULL, NULL, NULL, 0, NULL, false},
        {HUDI_SCHEMA_ALTER_TYPE, "id", &lng, NULL, NULL, 0, NULL, false},
        {HUDI_SCHEMA_ADD, "later", &str, NULL, NULL, HUDI_SCHEMA_POS_AFTER, "id", false},
        {HUDI_SCHEMA_MOVE, "note", NULL, NULL, NULL, HUDI_SCHEMA_POS_AFTER, "id", false},
    };
    for (size_t i = 0; i < HUDI_ARRAY_LEN(refused); i++) {
        int32_t at = -2;
        int rc = alter(t, &refused[i], 1, false, NULL, &at, &err);
        cr_assert_lt(rc, 0, "change %zu was accepted", i);
        cr_assert_eq(at, 0, "change %zu", i);
        cr_assert(strstr(err.message, refused[i].path), "change %zu: %s", i, err.message);
        cr_assert_eq(hudi_tbl_reload(t, NULL), 0);
        cr_assert_eq(t->timeline->count, count, "change %zu left instants", i);
    }
    /* a later change of a statement refused: its index is reported, nothing committed */
    hudi_schema_change two[] = {add, refused[0]};
    two[0].path = "other";
    int32_t at = -2;
    cr_assert_lt(alter(t, two, 2, false, NULL, &at, &err), 0);
    cr_assert_eq(at, 1);
    cr_assert_eq(hudi_tbl_reload(t, NULL), 0);
    cr_assert_eq(t->timeline->count, count);
    hudi_field_dispose(&lng);
    hudi_field_dispose(&str);
    hudi_batch_free(b);
    hudi_tbl_free(t);
    hudi_field_dispose(&schema);
    hudi_fs_free(fs);
}

Test(alter, protected_columns) {
    char base[256];
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_field schema;
    wt_schema(&schema, false);
    hudi_table *t = wt_create(fs, base, NULL, "part", true, true, &schema);
    hudi_field lng = {0};
    hudi_field_init(&lng, "x", HUDI_TYPE_INT64, true);
    hudi_field str = {0};
    hudi_field_init(&str, "x", HUDI_TYPE_STRING, true);
    hudi_schema_change bad[] = {
        {HUDI_SCHEMA_DROP, "id", NULL, NULL, NULL, 0, NULL, false},         /* record key */
        {HUDI_SCHEMA_RENAME, "ts", NULL, NULL, "t2", 0, NULL, false},       /* precombine */
        {HUDI_SCHEMA_DROP, "part", NULL, NULL, NULL, 0, NULL, false},       /* partition */
        {HUDI_SCHEMA_ALTER_TYPE, "id", &lng, NULL, NULL, 0, NULL, false},   /* key type */
        {HUDI_SCHEMA_ALTER_TYPE, "part", &str, NULL, NULL, 0, NULL, false}, /* same type: ok */
        {HUDI_SCHEMA_DROP, "_hoodie_record_key", NULL, NULL, NULL, 0, NULL, false}, /* meta */
    };
    hudi_error err = HUDI_ERROR_INIT;
    for (size_t i = 0; i < HUDI_ARRAY_LEN(bad); i++) {
        int32_t at = -2;
        int rc = alter(t, &bad[i], 1, true, NULL, &at, &err);
        if (i == 4) { /* the same type: a no-op, allowed */
            cr_assert_eq(rc, 0, "%s", err.message);
            continue;
        }
        cr_assert_lt(rc, 0, "change %zu was accepted", i);
        cr_assert_eq(at, 0);
        cr_assert(strstr(err.message, bad[i].path), "change %zu: %s", i, err.message);
    }
    /* other columns change freely */
    hudi_schema_change ok[] = {
        {HUDI_SCHEMA_RENAME, "name", NULL, NULL, "label", 0, NULL, false},
        {HUDI_SCHEMA_COMMENT, "id", NULL, "the key", NULL, 0, NULL, false},
    };
    char i1[HUDI_INSTANT_TIME_MAX];
    alter_ok(t, ok, 2, true, i1);
    hudi_commit_metadata *md = alter_commit(t, i1);
    cr_assert_str_eq(schema_columns(md, NULL), "id,label,ts,part");
    hudi_commit_metadata_free(md);
    hudi_field_dispose(&lng);
    hudi_field_dispose(&str);
    hudi_tbl_free(t);
    hudi_field_dispose(&schema);
    hudi_fs_free(fs);
}

/* id int, ts long, s struct<a int, b string>, tags list<struct<k string>>, m map<string, int> */
static void nested_schema(hudi_field *f) {
    hudi_field_init(f, "r", HUDI_TYPE_STRUCT, false);
    hudi_field_set_children(f, 5);
    hudi_field_init(&f->children[0], "id", HUDI_TYPE_INT32, false);
    hudi_field_init(&f->children[1], "ts", HUDI_TYPE_INT64, true);
    hudi_field *s = &f->children[2];
    hudi_field_init(s, "s", HUDI_TYPE_STRUCT, true);
    hudi_field_set_children(s, 2);
    hudi_field_init(&s->children[0], "a", HUDI_TYPE_INT32, false);
    hudi_field_init(&s->children[1], "b", HUDI_TYPE_STRING, true);
    hudi_field *l = &f->children[3];
    hudi_field_init(l, "tags", HUDI_TYPE_LIST, true);
    hudi_field_set_children(l, 1);
    hudi_field_init(&l->children[0], "element", HUDI_TYPE_STRUCT, true);
    hudi_field_set_children(&l->children[0], 1);
    hudi_field_init(&l->children[0].children[0], "k", HUDI_TYPE_STRING, true);
    hudi_field *m = &f->children[4];
    hudi_field_init(m, "m", HUDI_TYPE_MAP, true);
    hudi_field_set_children(m, 1);
    hudi_field_init(&m->children[0], "key_value", HUDI_TYPE_STRUCT, false);
    hudi_field_set_children(&m->children[0], 2);
    hudi_field_init(&m->children[0].children[0], "key", HUDI_TYPE_STRING, false);
    hudi_field_init(&m->children[0].children[1], "value", HUDI_TYPE_INT32, true);
}

static const char *struct_names(const hudi_field *st) {
    static char buf[256];
    buf[0] = '\0';
    for (int32_t i = 0; i < st->n_children; i++)
        snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", i ? "," : "",
                 st->children[i].name);
    return buf;
}

Test(alter, every_change_kind_with_schema_on_read) {
    char base[256];
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_field schema;
    nested_schema(&schema);
    hudi_create_options co = HUDI_CREATE_OPTIONS_INIT;
    co.table_name = "wt";
    co.record_key_fields = "id";
    co.precombine_field = "ts";
    co.schema = &schema;
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_create(&t, fs, base, &co, &err), 0, "%s", err.message);
    hudi_field str = {0}, lng = {0}, dbl = {0};
    hudi_field_init(&str, "x", HUDI_TYPE_STRING, true);
    hudi_field_init(&lng, "x", HUDI_TYPE_INT64, true);
    hudi_field_init(&dbl, "x", HUDI_TYPE_DOUBLE, true);
    char in[8][HUDI_INSTANT_TIME_MAX];
    /* ADD into a struct after a sibling, into a list's struct element, FIRST inside a struct */
    hudi_schema_change add[] = {
        {HUDI_SCHEMA_ADD, "s.c", &str, "new", NULL, HUDI_SCHEMA_POS_AFTER, "a", false},
        {HUDI_SCHEMA_ADD, "tags.element.v", &lng, NULL, NULL, 0, NULL, false},
        {HUDI_SCHEMA_ADD, "s.z", &dbl, NULL, NULL, HUDI_SCHEMA_POS_FIRST, NULL, false},
    };
    alter_ok(t, add, 3, true, in[0]);
    hudi_schema_change ty = {HUDI_SCHEMA_ALTER_TYPE, "s.a", &lng, NULL, NULL, 0, NULL, false};
    alter_ok(t, &ty, 1, true, in[1]);
    hudi_schema_change mv = {HUDI_SCHEMA_MOVE,      "s.a", NULL, NULL, NULL,
                             HUDI_SCHEMA_POS_AFTER, "b",   false};
    alter_ok(t, &mv, 1, true, in[2]);
    hudi_schema_change nn = {HUDI_SCHEMA_DROP_NOT_NULL, "s.a", NULL, NULL, NULL, 0, NULL, false};
    alter_ok(t, &nn, 1, true, in[3]);
    hudi_schema_change mt = {HUDI_SCHEMA_ALTER_TYPE, "m.value", &dbl, NULL, NULL, 0, NULL, false};
    alter_ok(t, &mt, 1, true, in[4]);
    hudi_schema_change dr = {HUDI_SCHEMA_DROP, "s.b", NULL, NULL, NULL, 0, NULL, false};
    alter_ok(t, &dr, 1, true, in[5]);
    hudi_schema_change rn = {HUDI_SCHEMA_RENAME, "s.c", NULL, NULL, "cc", 0, NULL, false};
    alter_ok(t, &rn, 1, true, in[6]);
    /* SET NOT NULL is refused */
    hudi_schema_change sn = {HUDI_SCHEMA_SET_NOT_NULL, "ts", NULL, NULL, NULL, 0, NULL, false};
    cr_assert_lt(alter(t, &sn, 1, true, NULL, NULL, &err), 0);
    cr_assert(strstr(err.message, "ts"), "%s", err.message);

    hudi_commit_metadata *md = alter_commit(t, in[6]);
    hudi_field f;
    cr_assert_str_eq(schema_columns(md, &f), "id,ts,s,tags,m");
    cr_assert_str_eq(struct_names(&f.children[2]), "z,cc,a");
    cr_assert_eq(f.children[2].children[2].type, HUDI_TYPE_INT64);
    cr_assert(f.children[2].children[2].nullable);
    cr_assert_str_eq(f.children[2].children[1].comment, "new");
    cr_assert_str_eq(struct_names(&f.children[3].children[0]), "k,v");
    cr_assert_eq(f.children[4].children[0].children[1].type, HUDI_TYPE_DOUBLE);
    hudi_field_dispose(&f);
    hudi_ischema is = latest_schema(md);
    hudi_commit_metadata_free(md);
    /* ids: the first DDL saw no InternalSchema (ids as Hudi gives them), later ones kept them */
    md = alter_commit(t, in[0]);
    hudi_ischema first = latest_schema(md);
    hudi_commit_metadata_free(md);
    cr_assert_eq(id_of(&is, "s.cc"), id_of(&first, "s.c"));
    cr_assert_eq(id_of(&is, "s.a"), id_of(&first, "s.a"));
    cr_assert_null(hudi_ischema_find_path(&is, "s.b", NULL));
    cr_assert_eq(is.max_column_id, first.max_column_id, "a drop keeps max_column_id");
    hudi_ischema_history h = {0};
    cr_assert_eq(hudi_schema_history_load(&h, t, &err), 0, "%s", err.message);
    cr_assert_eq(h.count, 8, "7 DDLs and the version-0 schema");
    hudi_ischema_history_dispose(&h);
    hudi_ischema_dispose(&is);
    hudi_ischema_dispose(&first);
    hudi_field_dispose(&str);
    hudi_field_dispose(&lng);
    hudi_field_dispose(&dbl);
    hudi_tbl_free(t);
    hudi_field_dispose(&schema);
    hudi_fs_free(fs);
}

Test(alter, not_null_add_only_while_the_table_has_no_rows) {
    char base[256];
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_field schema;
    wt_schema(&schema, false);
    hudi_table *t = wt_create(fs, base, NULL, NULL, false, true, &schema);
    hudi_field i32 = {0};
    hudi_field_init(&i32, "x", HUDI_TYPE_INT32, true);
    hudi_schema_change add = {HUDI_SCHEMA_ADD, "qty", &i32, NULL, NULL, 0, NULL, true};
    char i1[HUDI_INSTANT_TIME_MAX];
    alter_ok(t, &add, 1, true, i1);
    hudi_commit_metadata *md = alter_commit(t, i1);
    hudi_field f;
    cr_assert_str_eq(schema_columns(md, &f), "id,name,ts,part,qty");
    cr_assert_not(f.children[4].nullable, "NOT NULL is kept on a table without rows");
    hudi_field_dispose(&f);
    hudi_commit_metadata_free(md);
    hudi_batch *b = wt_batch_range(&schema, 0, 2, 1, PARTS, 2);
    hudi_table_write_result res;
    hudi_write_options wo = HUDI_WRITE_OPTIONS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_lt(hudi_tbl_write(t, b, &wo, &res, &err), 0, "a batch without the NOT NULL column");
    add.path = "qty2";
    hudi_table *t2 = wt_create(fs, "/mem/other", NULL, NULL, false, true, &schema);
    wt_write(t2, b, HUDI_WRITE_UPSERT);
    int32_t at = -2;
    cr_assert_eq(alter(t2, &add, 1, true, NULL, &at, &err), HUDI_EINVAL);
    cr_assert_eq(at, 0);
    cr_assert(strstr(err.message, "qty2"), "%s", err.message);
    add.not_null = false;
    alter_ok(t2, &add, 1, true, NULL);
    hudi_batch_free(b);
    hudi_field_dispose(&i32);
    hudi_tbl_free(t);
    hudi_tbl_free(t2);
    hudi_field_dispose(&schema);
    hudi_fs_free(fs);
}

Test(alter, bad_calls) {
    char base[256];
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_field schema;
    wt_schema(&schema, false);
    hudi_table *t = wt_create(fs, base, NULL, NULL, false, true, &schema);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(alter(t, NULL, 0, true, NULL, NULL, &err), HUDI_EINVAL);
    hudi_field str = {0};
    hudi_field_init(&str, "x", HUDI_TYPE_STRING, true);
    hudi_schema_change add = {HUDI_SCHEMA_ADD, "c", &str, NULL, NULL, 0, NULL, false};
    hudi_alter_options o = {0};
    o.instant_time = "20240101000000000";
    char instant[HUDI_INSTANT_TIME_MAX];
    cr_assert_eq(hudi_tbl_alter_schema(t, &add, 1, &o, instant, &err), 0, "%s", err.message);
    cr_assert_str_eq(instant, "20240101000000000");
    add.path = "d";
    cr_assert_eq(hudi_tbl_alter_schema(t, &add, 1, &o, instant, &err), HUDI_EINVAL,
                 "an instant not after the timeline's last");
    o.instant_time = "nope";
    cr_assert_eq(hudi_tbl_alter_schema(t, &add, 1, &o, instant, &err), HUDI_EINVAL);
    hudi_field_dispose(&str);
    hudi_tbl_free(t);
    hudi_field_dispose(&schema);
    hudi_fs_free(fs);
}

/* The files of the first ALTER Apache Hudi 0.15.0 (Spark 3.5.9) committed on a table created by
 * CREATE TABLE sor_ddl (id int, name string, price double, qty int, fl float, col_struct
 * struct<a:int, b:string>, ts bigint, part string) USING hudi PARTITIONED BY (part)
 * TBLPROPERTIES (primaryKey = 'id', preCombineField = 'ts') with schema on read:
 * ALTER TABLE sor_ddl ADD COLUMNS (note string AFTER name), instant 20261201203931333. */
static const char SPARK_COMMIT[] =
    "{\n  \"partitionToWriteStats\" : { },\n  \"compacted\" : false,\n  \"extraMetadata\" : {"
    "\n    \"schema\" : \"{\\\"type\\\":\\\"record\\\",\\\"name\\\":\\\"sor_ddl_record\\\",\\"
    "\"namespace\\\":\\\"hoodie.sor_ddl\\\",\\\"fields\\\":[{\\\"name\\\":\\\"_hoodie_commit_"
    "time\\\",\\\"type\\\":[\\\"null\\\",\\\"string\\\"],\\\"doc\\\":\\\"\\\",\\\"default\\\""
    ":null},{\\\"name\\\":\\\"_hoodie_commit_seqno\\\",\\\"type\\\":[\\\"null\\\",\\\"string"
    "\\\"],\\\"doc\\\":\\\"\\\",\\\"default\\\":null},{\\\"name\\\":\\\"_hoodie_record_key\\"
    "\",\\\"type\\\":[\\\"null\\\",\\\"string\\\"],\\\"doc\\\":\\\"\\\",\\\"default\\\":null}"
    ",{\\\"name\\\":\\\"_hoodie_partition_path\\\",\\\"type\\\":[\\\"null\\\",\\\"string\\\"]"
    ",\\\"doc\\\":\\\"\\\",\\\"default\\\":null},{\\\"name\\\":\\\"_hoodie_file_name\\\",\\\""
    "type\\\":[\\\"null\\\",\\\"string\\\"],\\\"doc\\\":\\\"\\\",\\\"default\\\":null},{\\\"n"
    "ame\\\":\\\"id\\\",\\\"type\\\":[\\\"null\\\",\\\"int\\\"],\\\"default\\\":null},{\\\"na"
    "me\\\":\\\"name\\\",\\\"type\\\":[\\\"null\\\",\\\"string\\\"],\\\"default\\\":null},{\\"
    "\"name\\\":\\\"note\\\",\\\"type\\\":[\\\"null\\\",\\\"string\\\"],\\\"default\\\":null}"
    ",{\\\"name\\\":\\\"price\\\",\\\"type\\\":[\\\"null\\\",\\\"double\\\"],\\\"default\\\":"
    "null},{\\\"name\\\":\\\"qty\\\",\\\"type\\\":[\\\"null\\\",\\\"int\\\"],\\\"default\\\":"
    "null},{\\\"name\\\":\\\"fl\\\",\\\"type\\\":[\\\"null\\\",\\\"float\\\"],\\\"default\\\""
    ":null},{\\\"name\\\":\\\"col_struct\\\",\\\"type\\\":[\\\"null\\\",{\\\"type\\\":\\\"rec"
    "ord\\\",\\\"name\\\":\\\"col_struct\\\",\\\"namespace\\\":\\\"hoodie.sor_ddl.sor_ddl_rec"
    "ord\\\",\\\"fields\\\":[{\\\"name\\\":\\\"a\\\",\\\"type\\\":[\\\"null\\\",\\\"int\\\"],"
    "\\\"default\\\":null},{\\\"name\\\":\\\"b\\\",\\\"type\\\":[\\\"null\\\",\\\"string\\\"]"
    ",\\\"default\\\":null}]}],\\\"default\\\":null},{\\\"name\\\":\\\"ts\\\",\\\"type\\\":["
    "\\\"null\\\",\\\"long\\\"],\\\"default\\\":null},{\\\"name\\\":\\\"part\\\",\\\"type\\\""
    ":[\\\"null\\\",\\\"string\\\"],\\\"default\\\":null}]}\",\n    \"latest_schema\" : \"{\\"
    "\"max_column_id\\\":15,\\\"version_id\\\":20261201203931333,\\\"type\\\":\\\"record\\\","
    "\\\"fields\\\":[{\\\"id\\\":0,\\\"name\\\":\\\"_hoodie_commit_time\\\",\\\"optional\\\":"
    "true,\\\"type\\\":\\\"string\\\",\\\"doc\\\":\\\"\\\"},{\\\"id\\\":1,\\\"name\\\":\\\"_h"
    "oodie_commit_seqno\\\",\\\"optional\\\":true,\\\"type\\\":\\\"string\\\",\\\"doc\\\":\\"
    "\"\\\"},{\\\"id\\\":2,\\\"name\\\":\\\"_hoodie_record_key\\\",\\\"optional\\\":true,\\\""
    "type\\\":\\\"string\\\",\\\"doc\\\":\\\"\\\"},{\\\"id\\\":3,\\\"name\\\":\\\"_hoodie_par"
    "tition_path\\\",\\\"optional\\\":true,\\\"type\\\":\\\"string\\\",\\\"doc\\\":\\\"\\\"},"
    "{\\\"id\\\":4,\\\"name\\\":\\\"_hoodie_file_name\\\",\\\"optional\\\":true,\\\"type\\\":"
    "\\\"string\\\",\\\"doc\\\":\\\"\\\"},{\\\"id\\\":5,\\\"name\\\":\\\"id\\\",\\\"optional"
    "\\\":true,\\\"type\\\":\\\"int\\\"},{\\\"id\\\":6,\\\"name\\\":\\\"name\\\",\\\"optional"
    "\\\":true,\\\"type\\\":\\\"string\\\"},{\\\"id\\\":15,\\\"name\\\":\\\"note\\\",\\\"opti"
    "onal\\\":true,\\\"type\\\":\\\"string\\\"},{\\\"id\\\":7,\\\"name\\\":\\\"price\\\",\\\""
    "optional\\\":true,\\\"type\\\":\\\"double\\\"},{\\\"id\\\":8,\\\"name\\\":\\\"qty\\\",\\"
    "\"optional\\\":true,\\\"type\\\":\\\"int\\\"},{\\\"id\\\":9,\\\"name\\\":\\\"fl\\\",\\\""
    "optional\\\":true,\\\"type\\\":\\\"float\\\"},{\\\"id\\\":10,\\\"name\\\":\\\"col_struct"
    "\\\",\\\"optional\\\":true,\\\"type\\\":{\\\"type\\\":\\\"record\\\",\\\"fields\\\":[{\\"
    "\"id\\\":13,\\\"name\\\":\\\"a\\\",\\\"optional\\\":true,\\\"type\\\":\\\"int\\\"},{\\\""
    "id\\\":14,\\\"name\\\":\\\"b\\\",\\\"optional\\\":true,\\\"type\\\":\\\"string\\\"}]}},{"
    "\\\"id\\\":11,\\\"name\\\":\\\"ts\\\",\\\"optional\\\":true,\\\"type\\\":\\\"long\\\"},{"
    "\\\"id\\\":12,\\\"name\\\":\\\"part\\\",\\\"optional\\\":true,\\\"type\\\":\\\"string\\"
    "\"}]}\"\n  },\n  \"operationType\" : \"ALTER_SCHEMA\"\n}";

static const char SPARK_INFLIGHT[] =
    "{\n  \"partitionToWriteStats\" : { },\n  \"compacted\" : false,\n  \"extraMetadata\" : {"
    " },\n  \"operationType\" : \"ALTER_SCHEMA\"\n}";

static const char SPARK_HISTORY[] =
    "{\"schemas\":[{\"max_column_id\":15,\"version_id\":20261201203931333,\"type\":\"record\""
    ",\"fields\":[{\"id\":0,\"name\":\"_hoodie_commit_time\",\"optional\":true,\"type\":\"str"
    "ing\",\"doc\":\"\"},{\"id\":1,\"name\":\"_hoodie_commit_seqno\",\"optional\":true,\"type"
    "\":\"string\",\"doc\":\"\"},{\"id\":2,\"name\":\"_hoodie_record_key\",\"optional\":true,"
    "\"type\":\"string\",\"doc\":\"\"},{\"id\":3,\"name\":\"_hoodie_partition_path\",\"option"
    "al\":true,\"type\":\"string\",\"doc\":\"\"},{\"id\":4,\"name\":\"_hoodie_file_name\",\"o"
    "ptional\":true,\"type\":\"string\",\"doc\":\"\"},{\"id\":5,\"name\":\"id\",\"optional\":"
    "true,\"type\":\"int\"},{\"id\":6,\"name\":\"name\",\"optional\":true,\"type\":\"string\""
    "},{\"id\":15,\"name\":\"note\",\"optional\":true,\"type\":\"string\"},{\"id\":7,\"name\""
    ":\"price\",\"optional\":true,\"type\":\"double\"},{\"id\":8,\"name\":\"qty\",\"optional"
    "\":true,\"type\":\"int\"},{\"id\":9,\"name\":\"fl\",\"optional\":true,\"type\":\"float\""
    "},{\"id\":10,\"name\":\"col_struct\",\"optional\":true,\"type\":{\"type\":\"record\",\"f"
    "ields\":[{\"id\":13,\"name\":\"a\",\"optional\":true,\"type\":\"int\"},{\"id\":14,\"name"
    "\":\"b\",\"optional\":true,\"type\":\"string\"}]}},{\"id\":11,\"name\":\"ts\",\"optional"
    "\":true,\"type\":\"long\"},{\"id\":12,\"name\":\"part\",\"optional\":true,\"type\":\"str"
    "ing\"}]},{\"max_column_id\":14,\"version_id\":0,\"type\":\"record\",\"fields\":[{\"id\":"
    "0,\"name\":\"_hoodie_commit_time\",\"optional\":true,\"type\":\"string\",\"doc\":\"\"},{"
    "\"id\":1,\"name\":\"_hoodie_commit_seqno\",\"optional\":true,\"type\":\"string\",\"doc\""
    ":\"\"},{\"id\":2,\"name\":\"_hoodie_record_key\",\"optional\":true,\"type\":\"string\","
    "\"doc\":\"\"},{\"id\":3,\"name\":\"_hoodie_partition_path\",\"optional\":true,\"type\":"
    "\"string\",\"doc\":\"\"},{\"id\":4,\"name\":\"_hoodie_file_name\",\"optional\":true,\"ty"
    "pe\":\"string\",\"doc\":\"\"},{\"id\":5,\"name\":\"id\",\"optional\":true,\"type\":\"int"
    "\"},{\"id\":6,\"name\":\"name\",\"optional\":true,\"type\":\"string\"},{\"id\":7,\"name"
    "\":\"price\",\"optional\":true,\"type\":\"double\"},{\"id\":8,\"name\":\"qty\",\"optiona"
    "l\":true,\"type\":\"int\"},{\"id\":9,\"name\":\"fl\",\"optional\":true,\"type\":\"float"
    "\"},{\"id\":10,\"name\":\"col_struct\",\"optional\":true,\"type\":{\"type\":\"record\","
    "\"fields\":[{\"id\":13,\"name\":\"a\",\"optional\":true,\"type\":\"int\"},{\"id\":14,\"n"
    "ame\":\"b\",\"optional\":true,\"type\":\"string\"}]}},{\"id\":11,\"name\":\"ts\",\"optio"
    "nal\":true,\"type\":\"long\"},{\"id\":12,\"name\":\"part\",\"optional\":true,\"type\":\""
    "string\"}]}]}";

static void read_file(hudi_fs *fs, const char *base, const char *rel, hudi_buf *out) {
    char p[1024];
    snprintf(p, sizeof(p), "%s/%s", base, rel);
    hudi_buf_clear(out);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_fs_read_all(fs, p, out, &err), 0, "%s", err.message);
    hudi_buf_putc(out, '\0');
    cr_assert_not(hudi_buf_failed(out));
    out->len--;
}

Test(alter, commit_files_byte_identical_to_hudi) {
    char base[256];
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    static const struct {
        const char *name;
        hudi_type_id type;
    } cols[] = {{"id", HUDI_TYPE_INT32},     {"name", HUDI_TYPE_STRING},
                {"price", HUDI_TYPE_DOUBLE}, {"qty", HUDI_TYPE_INT32},
                {"fl", HUDI_TYPE_FLOAT},     {"col_struct", HUDI_TYPE_STRUCT},
                {"ts", HUDI_TYPE_INT64},     {"part", HUDI_TYPE_STRING}};
    hudi_field schema;
    hudi_field_init(&schema, "r", HUDI_TYPE_STRUCT, false);
    hudi_field_set_children(&schema, 8);
    for (int i = 0; i < 8; i++)
        hudi_field_init(&schema.children[i], cols[i].name, cols[i].type, true);
    hudi_field *st = &schema.children[5];
    hudi_field_set_children(st, 2);
    hudi_field_init(&st->children[0], "a", HUDI_TYPE_INT32, true);
    hudi_field_init(&st->children[1], "b", HUDI_TYPE_STRING, true);
    hudi_create_options co = HUDI_CREATE_OPTIONS_INIT;
    co.table_name = "sor_ddl";
    co.record_key_fields = "id";
    co.partition_fields = "part";
    co.precombine_field = "ts";
    co.hive_style_partitioning = true;
    co.schema = &schema;
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_create(&t, fs, base, &co, &err), 0, "%s", err.message);
    hudi_field str = {0};
    hudi_field_init(&str, "x", HUDI_TYPE_STRING, true);
    hudi_schema_change add = {HUDI_SCHEMA_ADD,       "note", &str, NULL, NULL,
                              HUDI_SCHEMA_POS_AFTER, "name", false};
    hudi_alter_options o = {0};
    o.schema_on_read = true;
    o.instant_time = "20261201203931333";
    char instant[HUDI_INSTANT_TIME_MAX];
    cr_assert_eq(hudi_tbl_alter_schema(t, &add, 1, &o, instant, &err), 0, "%s", err.message);
    hudi_buf b = HUDI_BUF_INIT;
    read_file(fs, base, ".hoodie/20261201203931333.commit.requested", &b);
    cr_assert_eq(b.len, 0);
    read_file(fs, base, ".hoodie/20261201203931333.inflight", &b);
    cr_assert_str_eq(b.data, SPARK_INFLIGHT);
    read_file(fs, base, ".hoodie/20261201203931333.commit", &b);
    cr_assert_str_eq(b.data, SPARK_COMMIT);
    read_file(fs, base, ".hoodie/.schema/20261201203931333.schemacommit", &b);
    cr_assert_str_eq(b.data, SPARK_HISTORY);
    read_file(fs, base, ".hoodie/.schema/20261201203931333.schemacommit.requested", &b);
    cr_assert_eq(b.len, 0);
    read_file(fs, base, ".hoodie/.schema/20261201203931333.schemacommit.inflight", &b);
    cr_assert_eq(b.len, 0);
    hudi_buf_dispose(&b);
    hudi_field_dispose(&str);
    hudi_field_dispose(&schema);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
}

/* The table schema a fresh reader sees, as Avro text (malloc'ed), and whether it has an
 * InternalSchema. */
static char *table_schema_text(hudi_fs *fs, const char *base, bool *has_ischema) {
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_open(&t, fs, base, &err), 0, "%s", err.message);
    hudi_schema_view *v = NULL;
    cr_assert_eq(hudi_schema_view_open(&v, t, NULL, &err), 0, "%s", err.message);
    hudi_buf b = HUDI_BUF_INIT;
    cr_assert_eq(hudi_schema_write_avro(&b, hudi_schema_view_table(v), HUDI_AVRO_STYLE_HUDI, &err),
                 0, "%s", err.message);
    *has_ischema = hudi_schema_view_ischema(v) != NULL;
    hudi_schema_view_free(v);
    hudi_tbl_free(t);
    char *s = strdup(b.data);
    hudi_buf_dispose(&b);
    return s;
}

Test(alter, crash_at_every_storage_call_leaves_the_table_as_before) {
    hudi_field schema;
    wt_schema(&schema, false);
    hudi_batch *b = wt_batch_range(&schema, 0, 6, 1, PARTS, 2);
    hudi_field str = {0};
    hudi_field_init(&str, "x", HUDI_TYPE_STRING, true);
    hudi_schema_change ch[] = {
        {HUDI_SCHEMA_ADD, "note", &str, NULL, NULL, 0, NULL, false},
        {HUDI_SCHEMA_RENAME, "name", NULL, NULL, "label", 0, NULL, false},
    };
    int tripped_runs = 0;
    for (int64_t n = 1; n < 400; n++) {
        char base[256];
        hudi_fs *fs = wt_fs(WT_LOCAL, base, sizeof(base));
        hudi_table *t = wt_create(fs, base, NULL, "part", true, true, &schema);
        wt_write(t, b, HUDI_WRITE_UPSERT);
        char *data_before = wt_dump(t, NULL);
        bool had = true;
        char *schema_before = table_schema_text(fs, base, &had);
        cr_assert_not(had);
        hudi_tbl_free(t);

        hudi_fs *faulty = NULL;
        cr_assert_eq(hudi_fs_faulty_new(&faulty, fs, (hudi_fault_plan){n, -1, true}, NULL), 0);
        hudi_error err = HUDI_ERROR_INIT;
        hudi_table *ft = NULL;
        int rc = hudi_tbl_open(&ft, faulty, base, &err);
        if (rc == 0) rc = alter(ft, ch, 2, true, NULL, NULL, &err);
        bool tripped = hudi_fs_faulty_tripped(faulty);
        hudi_tbl_free(ft);
        hudi_fs_free(faulty);

        bool has = false;
        char *schema_now = table_schema_text(fs, base, &has);
        /* the rows are the same, their name column read as label once the rename committed */
        hudi_table *dt = NULL;
        cr_assert_eq(hudi_tbl_open(&dt, fs, base, &err), 0, "%s", err.message);
        char *data_now =
            wt_dump_named(dt, NULL, strstr(schema_now, "\"label\"") ? "label" : "name");
        hudi_tbl_free(dt);
        cr_assert_str_eq(data_now, data_before, "fault at call %lld", (long long)n);
        if (!tripped || rc == 0) { /* not tripped, or only after the commit point */
            cr_assert_eq(rc, 0, "%s", err.message);
            cr_assert_str_neq(schema_now, schema_before);
            cr_assert(strstr(schema_now, "\"label\"") && strstr(schema_now, "\"note\""));
            cr_assert(has);
        } else {
            tripped_runs++;
            /* the commit point was not reached, or it was: nothing in between */
            bool same = strcmp(schema_now, schema_before) == 0;
            cr_assert(same || (has && strstr(schema_now, "\"label\"")),
                      "fault at call %lld left:\n%s", (long long)n, schema_now);
            if (same)
                cr_assert_not(has, "fault at call %lld: InternalSchema without commit",
                              (long long)n);
            /* the next ALTER rolls the failed one back and commits */
            hudi_table *rt = NULL;
            cr_assert_eq(hudi_tbl_open(&rt, fs, base, &err), 0, "%s", err.message);
            hudi_schema_change again = {HUDI_SCHEMA_ADD, "again", &str, NULL, NULL, 0, NULL, false};
            cr_assert_eq(alter(rt, &again, 1, true, NULL, NULL, &err), 0, "fault at %lld: %s",
                         (long long)n, err.message);
            cr_assert_eq(hudi_tbl_reload(rt, NULL), 0);
            hudi_instant_list pend = {0};
            cr_assert_eq(hudi_timeline_pending(&pend, rt->timeline, NULL), 0);
            for (size_t k = 0; k < pend.count; k++) /* rolled back, or completed */
                cr_assert_not_null(find_instant(rt, pend.items[k]->time, HUDI_STATE_COMPLETED),
                                   "fault at %lld: %s is left", (long long)n, pend.items[k]->file);
            hudi_instant_list_dispose(&pend);
            hudi_tbl_free(rt);
            char *data_after = wt_dump_path(fs, base, NULL);
            cr_assert_str_eq(data_after, data_before);
            free(data_after);
        }
        free(data_before);
        free(data_now);
        free(schema_before);
        free(schema_now);
        wt_fs_cleanup(WT_LOCAL, base);
        hudi_fs_free(fs);
        if (!tripped) break;
    }
    cr_assert_gt(tripped_runs, 5);
    hudi_field_dispose(&str);
    hudi_batch_free(b);
    hudi_field_dispose(&schema);
}
