/* evolved_read_test.c - reading tables whose schema changed between commits: files written
 * before an added column read it as null, a column widened int -> long reads old files
 * converted (and filters on it stay exact without trusting the old files' int statistics),
 * and with an InternalSchema (schema on read) a dropped-then-renamed column reads by id. The
 * tables are written by the write layer; the schema changes are ALTER_SCHEMA commits written
 * here (commit "schema", and for schema on read "latest_schema" plus the history file). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columnar/render.h"
#include "read/read.h"
#include "schema/schema.h"
#include "table/schema_view.h"
#include "write/write.h"

#define BASE "/mem/evolved"

/* A STRUCT from "name:type,..." (types int, long, double, string), every column nullable
 * except the first (the record key). */
static void mk_schema(hudi_field *out, const char *spec) {
    char buf[256], *save = NULL;
    int32_t n = 1;
    for (const char *p = spec; *p; p++) n += *p == ',';
    cr_assert_eq(hudi_field_init(out, "hoodie.evolved.evolved_record", HUDI_TYPE_STRUCT, false), 0);
    cr_assert_eq(hudi_field_set_children(out, n), 0);
    snprintf(buf, sizeof(buf), "%s", spec);
    int32_t i = 0;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save), i++) {
        char *colon = strchr(tok, ':');
        *colon = '\0';
        const char *ty = colon + 1;
        hudi_type_id t = strcmp(ty, "int") == 0      ? HUDI_TYPE_INT32
                         : strcmp(ty, "long") == 0   ? HUDI_TYPE_INT64
                         : strcmp(ty, "double") == 0 ? HUDI_TYPE_DOUBLE
                                                     : HUDI_TYPE_STRING;
        cr_assert_eq(hudi_field_init(&out->children[i], tok, t, i > 0), 0);
    }
}

/* A batch of `schema` from rows of "|"-separated cells ("null" = null). */
static hudi_batch *mk_batch(const hudi_field *schema, const char *const *rows, int n) {
    hudi_batch *b = NULL;
    cr_assert_eq(hudi_batch_new(&b, schema, NULL), 0);
    for (int r = 0; r < n; r++) {
        char buf[256], *save = NULL;
        snprintf(buf, sizeof(buf), "%s", rows[r]);
        char *cell = strtok_r(buf, "|", &save);
        for (int32_t c = 0; c < schema->n_children; c++, cell = strtok_r(NULL, "|", &save)) {
            hudi_array *a = b->columns[c];
            cr_assert_not_null(cell, "row %d lacks column %d", r, c);
            if (strcmp(cell, "null") == 0) {
                cr_assert_eq(hudi_array_append_null(a, NULL), 0);
                continue;
            }
            switch (schema->children[c].type) {
            case HUDI_TYPE_INT32: {
                int32_t v = (int32_t)strtol(cell, NULL, 10);
                cr_assert_eq(hudi_array_append_fixed(a, &v, NULL), 0);
                break;
            }
            case HUDI_TYPE_INT64: {
                int64_t v = strtoll(cell, NULL, 10);
                cr_assert_eq(hudi_array_append_fixed(a, &v, NULL), 0);
                break;
            }
            case HUDI_TYPE_DOUBLE: {
                double v = strtod(cell, NULL);
                cr_assert_eq(hudi_array_append_fixed(a, &v, NULL), 0);
                break;
            }
            default: cr_assert_eq(hudi_array_append_bytes(a, cell, strlen(cell), NULL), 0);
            }
        }
    }
    b->num_rows = n;
    return b;
}

static hudi_table *create(hudi_fs **fs, const char *spec) {
    hudi_field s = {0};
    hudi_create_options o = HUDI_CREATE_OPTIONS_INIT;
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_fs_memory_new(fs, NULL), 0);
    mk_schema(&s, spec);
    o.table_name = "evolved";
    o.record_key_fields = "id";
    o.schema = &s;
    cr_assert_eq(hudi_tbl_create(&t, *fs, BASE, &o, &err), 0, "%s", err.message);
    hudi_field_dispose(&s);
    return t;
}

/* Inserts the rows (columns `spec`) into new file groups; returns the instant (static). */
static const char *insert(hudi_table *t, const char *spec, const char *const *rows, int n) {
    static char instant[HUDI_INSTANT_TIME_MAX];
    hudi_field s = {0};
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    hudi_table_write_result res;
    hudi_error err = HUDI_ERROR_INIT;
    mk_schema(&s, spec);
    hudi_batch *b = mk_batch(&s, rows, n);
    o.op = HUDI_WRITE_INSERT;
    o.small_file_bytes = 1; /* no file is small: old files stay as they were written */
    o.clean_retain_commits = 0;
    cr_assert_eq(hudi_tbl_write(t, b, &o, &res, &err), 0, "write: %s", err.message);
    snprintf(instant, sizeof(instant), "%s", res.instant);
    hudi_batch_free(b);
    hudi_field_dispose(&s);
    return instant;
}

/* An ALTER TABLE commit: operationType ALTER_SCHEMA, no write stats, "schema" = `spec`, and
 * with schema on read "latest_schema" = `latest` and the history `history` (JSON) persisted
 * first. Returns the instant (static). */
static const char *alter(hudi_table *t, const char *spec, const char *latest,
                         const char *history_fmt) {
    static char instant[HUDI_INSTANT_TIME_MAX];
    hudi_error err = HUDI_ERROR_INIT;
    hudi_field s = {0};
    hudi_buf avro = HUDI_BUF_INIT, json = HUDI_BUF_INIT;
    hudi_commit_metadata *md = NULL;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0);
    cr_assert_eq(
        hudi_instant_time_new(instant, NULL, true, hudi_timeline_last_time(t->timeline), &err), 0);
    mk_schema(&s, spec);
    cr_assert_eq(hudi_schema_write_avro(&avro, &s, HUDI_AVRO_STYLE_HUDI, &err), 0, "%s",
                 err.message);
    cr_assert_eq(hudi_commit_metadata_new(&md, &err), 0);
    cr_assert_eq(hudi_commit_metadata_set_operation(md, "ALTER_SCHEMA", &err), 0);
    cr_assert_eq(hudi_commit_metadata_set_extra(md, "schema", avro.data, &err), 0);
    if (latest) {
        char l[4096], h[8192];
        snprintf(l, sizeof(l), latest, instant);
        cr_assert_eq(hudi_commit_metadata_set_extra(md, "latest_schema", l, &err), 0);
        hudi_ischema_history hist = {0};
        snprintf(h, sizeof(h), history_fmt, instant);
        cr_assert_eq(hudi_ischema_history_parse(&hist, h, strlen(h), &err), 0, "%s", err.message);
        cr_assert_eq(hudi_schema_history_save(t, instant, &hist, &err), 0, "%s", err.message);
        hudi_ischema_history_dispose(&hist);
    }
    cr_assert_eq(hudi_commit_metadata_write(md, &json, &err), 0);
    cr_assert_eq(hudi_timeline_write_instant(t->timeline, instant, HUDI_ACTION_COMMIT,
                                             HUDI_STATE_REQUESTED, hudi_slice_cstr(""), &err),
                 0, "%s", err.message);
    cr_assert_eq(hudi_timeline_write_instant(t->timeline, instant, HUDI_ACTION_COMMIT,
                                             HUDI_STATE_COMPLETED, HUDI_SLICE(json.data, json.len),
                                             &err),
                 0, "%s", err.message);
    hudi_commit_metadata_free(md);
    hudi_buf_dispose(&avro);
    hudi_buf_dispose(&json);
    hudi_field_dispose(&s);
    return instant;
}

typedef struct query {
    const char *const *columns;
    int32_t n_columns;
    const char *as_of, *begin;
    const char *filter;
    const hudi_read_predicate *preds;
    int32_t n_preds;
} query;

typedef struct result {
    char *rows; /* JSON rows, sorted, one a line */
    hudi_read_stats stats;
    char schema[512]; /* "name:type,..." of the output */
} result;

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static result run(hudi_table *t, const query *q) {
    hudi_scan_options o = HUDI_SCAN_OPTIONS_INIT;
    hudi_reader *r = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    result res = {0};
    o.columns = q->columns;
    o.n_columns = q->n_columns;
    o.as_of_instant = q->as_of;
    o.begin_instant = q->begin;
    o.filter = q->filter;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0);
    cr_assert_eq(hudi_reader_open_preds(&r, t, &o, q->preds, q->n_preds, &err), 0, "open: %s",
                 err.message);
    const hudi_field *s = hudi_reader_schema(r);
    for (int32_t i = 0; i < s->n_children; i++)
        snprintf(res.schema + strlen(res.schema), sizeof(res.schema) - strlen(res.schema),
                 "%s%s:%s", i ? "," : "", s->children[i].name, hudi_type_name(s->children[i].type));
    char **lines = NULL;
    size_t n = 0;
    for (;;) {
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_reader_next(r, &b, &err), 0, "next: %s", err.message);
        if (!b) break;
        cr_assert_eq(hudi_batch_validate(b, &err), 0, "%s", err.message);
        for (int64_t i = 0; i < b->num_rows; i++) {
            hudi_buf line = HUDI_BUF_INIT;
            cr_assert_eq(hudi_render_json_row(&line, b, i), 0);
            lines = realloc(lines, (n + 1) * sizeof(char *));
            lines[n++] = hudi_buf_detach(&line);
        }
    }
    res.stats = *hudi_reader_stats(r);
    hudi_reader_free(r);
    if (n) qsort(lines, n, sizeof(char *), cmp_str);
    hudi_buf all = HUDI_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        hudi_buf_printf(&all, "%s\n", lines[i]);
        hudi_free(lines[i]);
    }
    free(lines);
    res.rows = all.data ? hudi_buf_detach(&all) : hudi_strdup("");
    return res;
}

static void check(hudi_table *t, const query *q, const char *want_rows) {
    result res = run(t, q);
    cr_assert_str_eq(res.rows, want_rows, "filter %s", q->filter ? q->filter : "(none)");
    hudi_free(res.rows);
}

static void teardown(hudi_table *t, hudi_fs *fs) {
    hudi_tbl_free(t);
    hudi_fs_free(fs);
}

Test(evolved_read, added_column_is_null_in_older_files) {
    hudi_fs *fs = NULL;
    hudi_table *t = create(&fs, "id:int,name:string,ts:long");
    static const char *const r1[] = {"1|a|10", "2|b|20"};
    char c1[HUDI_INSTANT_TIME_MAX];
    snprintf(c1, sizeof(c1), "%s", insert(t, "id:int,name:string,ts:long", r1, 2));
    alter(t, "id:int,name:string,ts:long,score:double", NULL, NULL);
    static const char *const r2[] = {"3|c|30|1.5", "4|d|40|null"};
    insert(t, "id:int,name:string,ts:long,score:double", r2, 2);
    static const char *const cols[] = {"id", "name", "score"};
    query q = {cols, 3, NULL, NULL, NULL, NULL, 0};
    result res = run(t, &q);
    cr_assert_str_eq(res.schema, "id:int32,name:string,score:double");
    cr_assert_str_eq(res.rows, "{\"id\":1,\"name\":\"a\",\"score\":null}\n"
                               "{\"id\":2,\"name\":\"b\",\"score\":null}\n"
                               "{\"id\":3,\"name\":\"c\",\"score\":1.5}\n"
                               "{\"id\":4,\"name\":\"d\",\"score\":null}\n");
    hudi_free(res.rows);
    /* every column by default: the meta fields, then the table schema's order */
    query all = {0};
    res = run(t, &all);
    cr_assert_str_eq(res.schema,
                     "_hoodie_commit_time:string,_hoodie_commit_seqno:string,_hoodie_record_key:"
                     "string,_hoodie_partition_path:string,_hoodie_file_name:string,id:int32,"
                     "name:string,ts:int64,score:double");
    hudi_free(res.rows);
    /* a filter on the added column: the old file lacks it (all null) and is skipped */
    q.filter = "score > 1";
    res = run(t, &q);
    cr_assert_str_eq(res.rows, "{\"id\":3,\"name\":\"c\",\"score\":1.5}\n");
    cr_assert_eq(res.stats.files_skipped, 1);
    hudi_free(res.rows);
    q.filter = "score IS NULL";
    check(t, &q,
          "{\"id\":1,\"name\":\"a\",\"score\":null}\n{\"id\":2,\"name\":\"b\",\"score\":null}\n"
          "{\"id\":4,\"name\":\"d\",\"score\":null}\n");
    /* time travel: the schema as of the first commit has no score */
    static const char *const cols2[] = {"id", "name"};
    query tt = {cols2, 2, c1, NULL, NULL, NULL, 0};
    check(t, &tt, "{\"id\":1,\"name\":\"a\"}\n{\"id\":2,\"name\":\"b\"}\n");
    query tt_all = {NULL, 0, c1, NULL, NULL, NULL, 0};
    res = run(t, &tt_all);
    cr_assert(strstr(res.schema, "score") == NULL, "%s", res.schema);
    hudi_free(res.rows);
    hudi_scan_options o = HUDI_SCAN_OPTIONS_INIT;
    hudi_reader *r = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    o.columns = cols;
    o.n_columns = 3;
    o.as_of_instant = c1;
    cr_assert_eq(hudi_reader_open(&r, t, &o, &err), HUDI_ENOTFOUND, "score did not exist yet");
    /* incremental: the end instant's schema, the rows after c1 */
    query inc = {cols, 3, NULL, c1, NULL, NULL, 0};
    check(t, &inc,
          "{\"id\":3,\"name\":\"c\",\"score\":1.5}\n{\"id\":4,\"name\":\"d\",\"score\":null}\n");
    teardown(t, fs);
}

Test(evolved_read, widened_column_converts_and_filters_exactly) {
    hudi_fs *fs = NULL;
    hudi_table *t = create(&fs, "id:int,v:int,name:string");
    static const char *const r1[] = {"1|1|a", "2|2|b", "3|3000000|c", "4|null|d"};
    insert(t, "id:int,v:int,name:string", r1, 4);
    alter(t, "id:int,v:long,name:string", NULL, NULL);
    static const char *const r2[] = {"5|5000000000|e", "6|2|f"};
    insert(t, "id:int,v:long,name:string", r2, 2);
    static const char *const cols[] = {"id", "v"};
    query q = {cols, 2, NULL, NULL, NULL, NULL, 0};
    result res = run(t, &q);
    cr_assert_str_eq(res.schema, "id:int32,v:int64");
    cr_assert_str_eq(res.rows, "{\"id\":1,\"v\":1}\n{\"id\":2,\"v\":2}\n{\"id\":3,\"v\":3000000}\n"
                               "{\"id\":4,\"v\":null}\n{\"id\":5,\"v\":5000000000}\n"
                               "{\"id\":6,\"v\":2}\n");
    hudi_free(res.rows);
    /* exact filtering on the widened column, rows from both files */
    q.filter = "v = 2";
    check(t, &q, "{\"id\":2,\"v\":2}\n{\"id\":6,\"v\":2}\n");
    q.filter = "v >= 3000000";
    res = run(t, &q);
    cr_assert_str_eq(res.rows, "{\"id\":3,\"v\":3000000}\n{\"id\":5,\"v\":5000000000}\n");
    cr_assert_eq(res.stats.rows_returned, 2);
    hudi_free(res.rows);
    q.filter = "v IS NULL";
    check(t, &q, "{\"id\":4,\"v\":null}\n");
    q.filter = "v != 2";
    check(t, &q, "{\"id\":1,\"v\":1}\n{\"id\":3,\"v\":3000000}\n{\"id\":5,\"v\":5000000000}\n");
    /* a constant beyond int: the old file's int statistics must not be compared with it; only
     * the new file (long, statistics apply) can skip */
    hudi_read_predicate big = {"v", HUDI_CMP_GT, {.i64 = 4000000000LL}};
    query p = {cols, 2, NULL, NULL, NULL, &big, 1};
    check(t, &p, "{\"id\":5,\"v\":5000000000}\n");
    hudi_read_predicate small = {"v", HUDI_CMP_LT, {.i64 = 3}};
    p.preds = &small;
    check(t, &p, "{\"id\":1,\"v\":1}\n{\"id\":2,\"v\":2}\n{\"id\":6,\"v\":2}\n");
    /* probing: the old file's statistics are not used for v; they are for name (unchanged) */
    hudi_scan_options o = HUDI_SCAN_OPTIONS_INIT;
    hudi_reader *r = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    o.filter = "v > 4000000000";
    cr_assert_eq(hudi_reader_open(&r, t, &o, &err), 0, "%s", err.message);
    int n_old = 0, n_new = 0;
    for (size_t i = 0; i < hudi_reader_file_count(r); i++) {
        int64_t groups = 0, skipped = 0;
        cr_assert_eq(hudi_reader_probe_file(r, i, &groups, &skipped, NULL, &err), 0, "%s",
                     err.message);
        cr_assert_gt(groups, 0);
        /* the first insert wrote ids 1-4 */
        hudi_pq_file *pf = NULL;
        cr_assert_eq(hudi_pq_open(&pf, fs, hudi_reader_file(r, i)->path, NULL, &err), 0);
        bool old = hudi_pq_schema(pf)->children[6].type == HUDI_TYPE_INT32;
        hudi_pq_close(pf);
        if (old) {
            n_old++;
            cr_assert_eq(skipped, 0, "int statistics used for a long predicate");
        } else {
            n_new++;
        }
    }
    cr_assert_eq(n_old, 1);
    cr_assert_eq(n_new, 1);
    hudi_reader_free(r);
    o.filter = "name = 'zzz'";
    cr_assert_eq(hudi_reader_open(&r, t, &o, &err), 0, "%s", err.message);
    for (size_t i = 0; i < hudi_reader_file_count(r); i++) {
        int64_t groups = 0, skipped = 0;
        cr_assert_eq(hudi_reader_probe_file(r, i, &groups, &skipped, NULL, &err), 0, "%s",
                     err.message);
        cr_assert_eq(skipped, groups, "statistics of an unchanged column still skip");
    }
    hudi_reader_free(r);
    teardown(t, fs);
}

#define META_IDS                                                                                   \
    "{\"id\":0,\"name\":\"_hoodie_commit_time\",\"optional\":true,\"type\":\"string\"},"           \
    "{\"id\":1,\"name\":\"_hoodie_commit_seqno\",\"optional\":true,\"type\":\"string\"},"          \
    "{\"id\":2,\"name\":\"_hoodie_record_key\",\"optional\":true,\"type\":\"string\"},"            \
    "{\"id\":3,\"name\":\"_hoodie_partition_path\",\"optional\":true,\"type\":\"string\"},"        \
    "{\"id\":4,\"name\":\"_hoodie_file_name\",\"optional\":true,\"type\":\"string\"},"

/* The schema before the DDL (version 0, as Hudi bootstraps the history). */
#define V0                                                                                         \
    "{\"max_column_id\":8,\"version_id\":0,\"type\":\"record\",\"fields\":[" META_IDS              \
    "{\"id\":5,\"name\":\"id\",\"optional\":false,\"type\":\"int\"},"                              \
    "{\"id\":6,\"name\":\"a\",\"optional\":true,\"type\":\"string\"},"                             \
    "{\"id\":7,\"name\":\"b\",\"optional\":true,\"type\":\"string\"},"                             \
    "{\"id\":8,\"name\":\"ts\",\"optional\":true,\"type\":\"long\"}]}"
/* DROP COLUMN a; RENAME COLUMN b TO a (version = the DDL instant, %s) */
#define V1                                                                                         \
    "{\"max_column_id\":8,\"version_id\":%s,\"type\":\"record\",\"fields\":[" META_IDS             \
    "{\"id\":5,\"name\":\"id\",\"optional\":false,\"type\":\"int\"},"                              \
    "{\"id\":7,\"name\":\"a\",\"optional\":true,\"type\":\"string\"},"                             \
    "{\"id\":8,\"name\":\"ts\",\"optional\":true,\"type\":\"long\"}]}"

Test(evolved_read, dropped_then_renamed_column_reads_by_id) {
    hudi_fs *fs = NULL;
    hudi_table *t = create(&fs, "id:int,a:string,b:string,ts:long");
    static const char *const r1[] = {"1|old-a1|b1|10", "2|old-a2|b2|20"};
    char c1[HUDI_INSTANT_TIME_MAX];
    snprintf(c1, sizeof(c1), "%s", insert(t, "id:int,a:string,b:string,ts:long", r1, 2));
    alter(t, "id:int,a:string,ts:long", V1, "{\"schemas\":[" V1 "," V0 "]}");
    static const char *const r2[] = {"3|new-a3|30"};
    insert(t, "id:int,a:string,ts:long", r2, 1);
    static const char *const cols[] = {"id", "a", "ts"};
    query q = {cols, 3, NULL, NULL, NULL, NULL, 0};
    /* the old file's a is the dropped column: its b (id 7) is today's a */
    check(t, &q,
          "{\"id\":1,\"a\":\"b1\",\"ts\":10}\n{\"id\":2,\"a\":\"b2\",\"ts\":20}\n"
          "{\"id\":3,\"a\":\"new-a3\",\"ts\":30}\n");
    query all = {0};
    result res = run(t, &all);
    cr_assert(strstr(res.schema, "b:") == NULL, "%s", res.schema);
    hudi_free(res.rows);
    /* filters by id too: the renamed column's statistics are its own */
    q.filter = "a = 'b2'";
    check(t, &q, "{\"id\":2,\"a\":\"b2\",\"ts\":20}\n");
    q.filter = "a = 'old-a1'";
    check(t, &q, "");
    q.filter = "a > 'm'";
    check(t, &q, "{\"id\":3,\"a\":\"new-a3\",\"ts\":30}\n");
    /* time travel to before the DDL: the old names and values */
    static const char *const old_cols[] = {"id", "a", "b"};
    query tt = {old_cols, 3, c1, NULL, NULL, NULL, 0};
    check(t, &tt,
          "{\"id\":1,\"a\":\"old-a1\",\"b\":\"b1\"}\n{\"id\":2,\"a\":\"old-a2\",\"b\":\"b2\"}\n");
    teardown(t, fs);
}

#define W0                                                                                         \
    "{\"max_column_id\":7,\"version_id\":0,\"type\":\"record\",\"fields\":[" META_IDS              \
    "{\"id\":5,\"name\":\"id\",\"optional\":false,\"type\":\"int\"},"                              \
    "{\"id\":6,\"name\":\"n\",\"optional\":true,\"type\":\"int\"},"                                \
    "{\"id\":7,\"name\":\"ts\",\"optional\":true,\"type\":\"long\"}]}"
/* RENAME COLUMN n TO total; ALTER COLUMN total TYPE double; ADD COLUMNS (note string) */
#define W1                                                                                         \
    "{\"max_column_id\":8,\"version_id\":%s,\"type\":\"record\",\"fields\":[" META_IDS             \
    "{\"id\":5,\"name\":\"id\",\"optional\":false,\"type\":\"int\"},"                              \
    "{\"id\":6,\"name\":\"total\",\"optional\":true,\"type\":\"double\"},"                         \
    "{\"id\":7,\"name\":\"ts\",\"optional\":true,\"type\":\"long\"},"                              \
    "{\"id\":8,\"name\":\"note\",\"optional\":true,\"type\":\"string\"}]}"

Test(evolved_read, renamed_and_retyped_column_filters_after_conversion) {
    hudi_fs *fs = NULL;
    hudi_table *t = create(&fs, "id:int,n:int,ts:long");
    static const char *const r1[] = {"1|7|10", "2|8|20"};
    insert(t, "id:int,n:int,ts:long", r1, 2);
    alter(t, "id:int,total:double,ts:long,note:string", W1, "{\"schemas\":[" W1 "," W0 "]}");
    static const char *const r2[] = {"3|7.5|30|x"};
    insert(t, "id:int,total:double,ts:long,note:string", r2, 1);
    static const char *const cols[] = {"id", "total", "note"};
    query q = {cols, 3, NULL, NULL, NULL, NULL, 0};
    result res = run(t, &q);
    cr_assert_str_eq(res.schema, "id:int32,total:double,note:string");
    cr_assert_str_eq(res.rows, "{\"id\":1,\"total\":7,\"note\":null}\n"
                               "{\"id\":2,\"total\":8,\"note\":null}\n"
                               "{\"id\":3,\"total\":7.5,\"note\":\"x\"}\n");
    hudi_free(res.rows);
    q.filter = "total > 7.2";
    check(t, &q, "{\"id\":2,\"total\":8,\"note\":null}\n{\"id\":3,\"total\":7.5,\"note\":\"x\"}\n");
    /* a predicate-only column (not selected) */
    static const char *const id_only[] = {"id"};
    query p = {id_only, 1, NULL, NULL, "total <= 7", NULL, 0};
    check(t, &p, "{\"id\":1}\n");
    teardown(t, fs);
}
