/* mor_evolved_test.c - schema evolution on merge-on-read tables: log blocks written under an
 * older schema than the query's are read through the query schema, and the merge of base
 * files and log blocks of different schemas is right in both directions.
 *
 * - on write (no schema on read): an upsert whose batch adds a column and widens int -> long
 *   goes to a log block whose SCHEMA header is the writer schema, over base files of the old
 *   schema; a later upsert missing a column (hoodie.write.set.null.for.missing.columns) too;
 *   read-optimized and snapshot, then compacted: the new base files carry the evolved schema;
 * - ALTER TABLE on MOR is a deltacommit (Hudi's CommitUtils.getCommitActionType);
 * - schema on read: log blocks before and after DROP + RENAME + widen + ADD are read by column
 *   id (a dropped column's data never comes back under the reused name), deletes in logs of
 *   either schema, and compaction writes the evolved schema. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columnar/render.h"
#include "format/log/log.h"
#include "read/read.h"
#include "schema/schema.h"
#include "write/write.h"

#define BASE "/mem/morevo"

/* A STRUCT from "name:type,..." (int, long, double, string); the first column (the record key)
 * is required, the others nullable. */
static void mk_schema(hudi_field *out, const char *spec) {
    char buf[256], *save = NULL;
    int32_t n = 1;
    for (const char *p = spec; *p; p++) n += *p == ',';
    cr_assert_eq(hudi_field_init(out, "hoodie.morevo.morevo_record", HUDI_TYPE_STRUCT, false), 0);
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

/* A batch of `schema` (which it borrows) from rows of "|"-separated cells ("null" = null). */
static hudi_batch *mk_batch(const hudi_field *schema, const char *const *rows, int n) {
    hudi_batch *b = NULL;
    cr_assert_eq(hudi_batch_new(&b, schema, NULL), 0);
    for (int r = 0; r < n; r++) {
        char buf[256], *save = NULL;
        snprintf(buf, sizeof(buf), "%s", rows[r]);
        char *cell = strtok_r(buf, "|", &save);
        for (int32_t c = 0; c < b->schema->n_children; c++, cell = strtok_r(NULL, "|", &save)) {
            hudi_array *a = b->columns[c];
            cr_assert_not_null(cell, "row %d lacks column %d", r, c);
            if (strcmp(cell, "null") == 0) {
                cr_assert_eq(hudi_array_append_null(a, NULL), 0);
                continue;
            }
            switch (b->schema->children[c].type) {
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
    o.table_name = "morevo";
    o.record_key_fields = "id";
    o.precombine_field = "ts";
    o.populate_meta_fields = true;
    o.schema = &s;
    o.type = HUDI_MERGE_ON_READ;
    cr_assert_eq(hudi_tbl_create(&t, *fs, BASE, &o, &err), 0, "%s", err.message);
    hudi_field_dispose(&s);
    return t;
}

/* Writes the rows (columns `spec`) with `op`; `props` as hudi_write_options.props. */
static void write(hudi_table *t, hudi_write_operation op, const char *spec, const char *const *rows,
                  int n, const char *const *props) {
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    hudi_table_write_result res;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_field schema = {0};
    mk_schema(&schema, spec);
    hudi_batch *b = mk_batch(&schema, rows, n);
    o.op = op;
    o.clean_retain_commits = 0;
    o.props = props;
    cr_assert_eq(hudi_tbl_write(t, b, &o, &res, &err), 0, "write: %s", err.message);
    hudi_batch_free(b);
    hudi_field_dispose(&schema);
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The rows of the query as sorted JSON lines; `schema` gets "name:type,..." of the output. */
static char *run(hudi_table *t, const char *const *cols, int32_t n_cols, bool ro, char *schema,
                 size_t schema_len) {
    hudi_scan_options o = HUDI_SCAN_OPTIONS_INIT;
    hudi_reader *r = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    o.columns = cols;
    o.n_columns = n_cols;
    o.read_optimized = ro;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0);
    cr_assert_eq(hudi_reader_open(&r, t, &o, &err), 0, "open: %s", err.message);
    const hudi_field *s = hudi_reader_schema(r);
    if (schema) {
        schema[0] = '\0';
        for (int32_t i = 0; i < s->n_children; i++)
            snprintf(schema + strlen(schema), schema_len - strlen(schema), "%s%s:%s", i ? "," : "",
                     s->children[i].name, hudi_type_name(s->children[i].type));
    }
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
    hudi_reader_free(r);
    if (n) qsort(lines, n, sizeof(char *), cmp_str);
    hudi_buf all = HUDI_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        hudi_buf_printf(&all, "%s\n", lines[i]);
        hudi_free(lines[i]);
    }
    free(lines);
    return all.data ? hudi_buf_detach(&all) : hudi_strdup("");
}

static void check(hudi_table *t, const char *const *cols, int32_t n, bool ro, const char *want) {
    char *got = run(t, cols, n, ro, NULL, 0);
    cr_assert_str_eq(got, want, "%s read", ro ? "read-optimized" : "snapshot");
    hudi_free(got);
}

/* Counts base and log files of the latest slices. */
static void count_files(hudi_table *t, size_t *bases, size_t *logs) {
    hudi_fs_view *v = NULL;
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0);
    cr_assert_eq(hudi_fs_view_build(&v, t->timeline, &vo, &err), 0, "%s", err.message);
    size_t n = 0;
    const hudi_file_slice *s = hudi_fs_view_latest_slices(v, &n);
    *bases = *logs = 0;
    for (size_t i = 0; i < n; i++) {
        *bases += s[i].base != NULL;
        *logs += s[i].logs_count;
    }
    hudi_fs_view_free(v);
}

/* The SCHEMA header of the first data block of the newest log file (caller frees). */
static char *newest_log_schema(hudi_table *t) {
    hudi_fs_view *v = NULL;
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0);
    cr_assert_eq(hudi_fs_view_build(&v, t->timeline, &vo, &err), 0, "%s", err.message);
    size_t n = 0;
    const hudi_file_slice *s = hudi_fs_view_latest_slices(v, &n);
    const hudi_log_file *newest = NULL;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < s[i].logs_count; k++)
            if (!newest || strcmp(s[i].logs[k].path, newest->path) > 0) newest = &s[i].logs[k];
    cr_assert_not_null(newest);
    hudi_buf bytes = HUDI_BUF_INIT;
    hudi_log_blocks blocks = HUDI_LOG_BLOCKS_INIT;
    cr_assert_eq(hudi_fs_read_all(t->fs, newest->path, &bytes, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_log_scan(&blocks, HUDI_SLICE(bytes.data, bytes.len), newest->path, &err), 0);
    char *out = NULL;
    for (size_t i = 0; i < blocks.count && !out; i++)
        if (blocks.blocks[i].type == HUDI_LOG_AVRO_DATA_BLOCK) {
            hudi_slice js = blocks.blocks[i].header[HUDI_LOG_SCHEMA];
            out = hudi_strndup((const char *)js.data, js.len);
        }
    cr_assert_not_null(out, "no data block in %s", newest->path);
    hudi_log_blocks_dispose(&blocks);
    hudi_buf_dispose(&bytes);
    hudi_fs_view_free(v);
    return out;
}

/* The action of the newest completed instant. */
static hudi_action last_action(hudi_table *t) {
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0);
    for (size_t i = t->timeline->count; i-- > 0;)
        if (t->timeline->instants[i].state == HUDI_STATE_COMPLETED)
            return t->timeline->instants[i].action;
    cr_assert_fail("no completed instant");
    return HUDI_ACTION_COMMIT;
}

static void compact(hudi_table *t) {
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_gt(hudi_tbl_compact(t, NULL, NULL, &err), 0, "compact: %s", err.message);
}

static void alter(hudi_table *t, const hudi_schema_change *ch, int32_t n, bool sor) {
    hudi_alter_options o = {0};
    hudi_error err = HUDI_ERROR_INIT;
    o.schema_on_read = sor;
    cr_assert_eq(hudi_tbl_alter_schema(t, ch, n, &o, NULL, &err), 0, "alter: %s", err.message);
    cr_assert_eq(last_action(t), HUDI_ACTION_DELTACOMMIT, "ALTER on MOR is a deltacommit");
}

#define V0 "id:int,name:string,v:int,ts:long"
#define V1 "id:int,name:string,v:long,ts:long,score:double"
#define V1_MISSING "id:int,v:long,ts:long,score:double"

Test(mor_evolved, write_side_evolution_into_log_blocks) {
    hudi_fs *fs = NULL;
    hudi_table *t = create(&fs, V0);
    static const char *const r0[] = {"1|a|1|10", "2|b|2|10", "3|c|3|10", "4|d|4|10"};
    write(t, HUDI_WRITE_INSERT, V0, r0, 4, NULL);
    /* updates adding a column and widening v: a log block of the writer schema */
    static const char *const r1[] = {"1|a1|5000000000|20|1.5", "2|b1|null|20|null"};
    write(t, HUDI_WRITE_UPSERT, V1, r1, 2, NULL);
    size_t bases = 0, logs = 0;
    count_files(t, &bases, &logs);
    cr_assert_eq(logs, 1, "the updates went to a log file");
    char *js = newest_log_schema(t);
    hudi_field ws = {0};
    cr_assert_eq(hudi_schema_parse_avro(&ws, js, strlen(js), NULL), 0, "%s", js);
    cr_assert_eq(ws.n_children, 10, "meta fields + the writer's columns: %s", js);
    cr_assert_str_eq(ws.children[9].name, "score");
    cr_assert_eq(ws.children[7].type, HUDI_TYPE_INT64, "v widened in the block schema");
    hudi_field_dispose(&ws);
    hudi_free(js);
    static const char *const cols[] = {"id", "name", "v", "score"};
    char schema[256];
    char *got = run(t, cols, 4, false, schema, sizeof(schema));
    cr_assert_str_eq(schema, "id:int32,name:string,v:int64,score:double");
    cr_assert_str_eq(got, "{\"id\":1,\"name\":\"a1\",\"v\":5000000000,\"score\":1.5}\n"
                          "{\"id\":2,\"name\":\"b1\",\"v\":null,\"score\":null}\n"
                          "{\"id\":3,\"name\":\"c\",\"v\":3,\"score\":null}\n"
                          "{\"id\":4,\"name\":\"d\",\"v\":4,\"score\":null}\n");
    hudi_free(got);
    /* read-optimized: the base files of the old schema through the new one */
    check(t, cols, 4, true,
          "{\"id\":1,\"name\":\"a\",\"v\":1,\"score\":null}\n"
          "{\"id\":2,\"name\":\"b\",\"v\":2,\"score\":null}\n"
          "{\"id\":3,\"name\":\"c\",\"v\":3,\"score\":null}\n"
          "{\"id\":4,\"name\":\"d\",\"v\":4,\"score\":null}\n");
    /* a batch without `name`: refused by default, nulls with the setting */
    {
        hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
        hudi_error err = HUDI_ERROR_INIT;
        static const char *const r2[] = {"3|30|30|3.5"};
        hudi_field ms = {0};
        mk_schema(&ms, V1_MISSING);
        hudi_batch *b = mk_batch(&ms, r2, 1);
        o.op = HUDI_WRITE_UPSERT;
        cr_assert_lt(hudi_tbl_write(t, b, &o, NULL, &err), 0);
        cr_assert(strstr(err.message, "name") != NULL, "%s", err.message);
        hudi_batch_free(b);
        hudi_field_dispose(&ms);
    }
    static const char *const setnull[] = {"hoodie.write.set.null.for.missing.columns", "true",
                                          NULL};
    static const char *const r2[] = {"3|30|30|3.5", "1|1|50|9.9"};
    write(t, HUDI_WRITE_UPSERT, V1_MISSING, r2, 2, setnull);
    got = run(t, cols, 4, false, NULL, 0);
    cr_assert_str_eq(got, "{\"id\":1,\"name\":null,\"v\":1,\"score\":9.9}\n"
                          "{\"id\":2,\"name\":\"b1\",\"v\":null,\"score\":null}\n"
                          "{\"id\":3,\"name\":null,\"v\":30,\"score\":3.5}\n"
                          "{\"id\":4,\"name\":\"d\",\"v\":4,\"score\":null}\n");
    /* compaction folds both schemas into base files of the evolved one */
    compact(t);
    count_files(t, &bases, &logs);
    cr_assert_eq(logs, 0);
    check(t, cols, 4, false, got);
    check(t, cols, 4, true, got);
    hudi_free(got);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
}

#define S0 "id:int,a:string,b:string,v:int,ts:long"
#define S1 "id:int,a:string,v:long,ts:long,c:string"

/* One ALTER statement: DROP a; RENAME b TO a; v TYPE long; ADD c. */
static void alter_s0_to_s1(hudi_table *t, bool sor) {
    hudi_field lng = {0}, str = {0};
    cr_assert_eq(hudi_field_init(&lng, "v", HUDI_TYPE_INT64, true), 0);
    cr_assert_eq(hudi_field_init(&str, "c", HUDI_TYPE_STRING, true), 0);
    hudi_schema_change ch[4];
    memset(ch, 0, sizeof(ch));
    ch[0].kind = HUDI_SCHEMA_DROP;
    ch[0].path = "a";
    ch[1].kind = HUDI_SCHEMA_RENAME;
    ch[1].path = "b";
    ch[1].new_name = "a";
    ch[2].kind = HUDI_SCHEMA_ALTER_TYPE;
    ch[2].path = "v";
    ch[2].type = &lng;
    ch[3].kind = HUDI_SCHEMA_ADD;
    ch[3].path = "c";
    ch[3].type = &str;
    alter(t, ch, 4, sor);
    hudi_field_dispose(&lng);
    hudi_field_dispose(&str);
}

Test(mor_evolved, schema_on_read_logs_of_old_versions_read_by_id) {
    hudi_fs *fs = NULL;
    hudi_table *t = create(&fs, S0);
    static const char *const r0[] = {"1|a1|b1|1|10", "2|a2|b2|2|10", "3|a3|b3|3|10",
                                     "4|a4|b4|4|10"};
    write(t, HUDI_WRITE_INSERT, S0, r0, 4, NULL);
    /* a log block of the first schema: its `a` is the column about to be dropped */
    static const char *const r1[] = {"1|dropped-1|b1-log|11|20", "4|dropped-4|b4-log|44|20"};
    write(t, HUDI_WRITE_UPSERT, S0, r1, 2, NULL);
    alter_s0_to_s1(t, true);
    static const char *const sor[] = {"hoodie.schema.on.read.enable", "true", NULL};
    static const char *const r2[] = {"2|a2-new|7000000000|30|c2", "4|a4-new|8|30|c4"};
    write(t, HUDI_WRITE_UPSERT, S1, r2, 2, sor);
    static const char *const r3[] = {"3|x|0|40|null"};
    write(t, HUDI_WRITE_DELETE, S1, r3, 1, sor);
    size_t bases = 0, logs = 0;
    count_files(t, &bases, &logs);
    cr_assert_eq(logs, 3, "three deltacommits appended to the one file group");
    static const char *const cols[] = {"id", "a", "v", "c"};
    char schema[256];
    char *got = run(t, cols, 4, false, schema, sizeof(schema));
    cr_assert_str_eq(schema, "id:int32,a:string,v:int64,c:string");
    /* id 1: the old log's b is today's a, never its dropped a; v widened; c null */
    const char *want = "{\"id\":1,\"a\":\"b1-log\",\"v\":11,\"c\":null}\n"
                       "{\"id\":2,\"a\":\"a2-new\",\"v\":7000000000,\"c\":\"c2\"}\n"
                       "{\"id\":4,\"a\":\"a4-new\",\"v\":8,\"c\":\"c4\"}\n";
    cr_assert_str_eq(got, want);
    hudi_free(got);
    check(
        t, cols, 4, true,
        "{\"id\":1,\"a\":\"b1\",\"v\":1,\"c\":null}\n{\"id\":2,\"a\":\"b2\",\"v\":2,\"c\":null}\n"
        "{\"id\":3,\"a\":\"b3\",\"v\":3,\"c\":null}\n{\"id\":4,\"a\":\"b4\",\"v\":4,\"c\":null}\n");
    /* a second ALTER after the logs: RENAME a TO label; the logs of both versions follow */
    hudi_schema_change rn = {0};
    rn.kind = HUDI_SCHEMA_RENAME;
    rn.path = "a";
    rn.new_name = "label";
    alter(t, &rn, 1, true);
    static const char *const cols2[] = {"id", "label", "v", "c"};
    check(t, cols2, 4, false,
          "{\"id\":1,\"label\":\"b1-log\",\"v\":11,\"c\":null}\n"
          "{\"id\":2,\"label\":\"a2-new\",\"v\":7000000000,\"c\":\"c2\"}\n"
          "{\"id\":4,\"label\":\"a4-new\",\"v\":8,\"c\":\"c4\"}\n");
    /* compaction writes the evolved schema; the rows stay */
    compact(t);
    count_files(t, &bases, &logs);
    cr_assert_eq(logs, 0);
    const char *after = "{\"id\":1,\"label\":\"b1-log\",\"v\":11,\"c\":null}\n"
                        "{\"id\":2,\"label\":\"a2-new\",\"v\":7000000000,\"c\":\"c2\"}\n"
                        "{\"id\":4,\"label\":\"a4-new\",\"v\":8,\"c\":\"c4\"}\n";
    check(t, cols2, 4, false, after);
    check(t, cols2, 4, true, after);
    /* a log over the compacted base, under the newest schema */
    static const char *const r4[] = {"1|one|1|50|c1"};
    write(t, HUDI_WRITE_UPSERT, "id:int,label:string,v:long,ts:long,c:string", r4, 1, sor);
    check(t, cols2, 4, false,
          "{\"id\":1,\"label\":\"one\",\"v\":1,\"c\":\"c1\"}\n"
          "{\"id\":2,\"label\":\"a2-new\",\"v\":7000000000,\"c\":\"c2\"}\n"
          "{\"id\":4,\"label\":\"a4-new\",\"v\":8,\"c\":\"c4\"}\n");
    hudi_tbl_free(t);
    hudi_fs_free(fs);
}

Test(mor_evolved, alter_without_schema_on_read_is_a_deltacommit) {
    hudi_fs *fs = NULL;
    hudi_table *t = create(&fs, V0);
    static const char *const r0[] = {"1|a|1|10", "2|b|2|10"};
    write(t, HUDI_WRITE_INSERT, V0, r0, 2, NULL);
    static const char *const r1[] = {"1|a-log|11|20"};
    write(t, HUDI_WRITE_UPSERT, V0, r1, 1, NULL);
    hudi_field dbl = {0};
    cr_assert_eq(hudi_field_init(&dbl, "score", HUDI_TYPE_DOUBLE, true), 0);
    hudi_schema_change add = {0};
    add.kind = HUDI_SCHEMA_ADD;
    add.path = "score";
    add.type = &dbl;
    alter(t, &add, 1, false);
    hudi_field_dispose(&dbl);
    static const char *const r2[] = {"2|b-log|22|20|2.5"};
    write(t, HUDI_WRITE_UPSERT, "id:int,name:string,v:int,ts:long,score:double", r2, 1, NULL);
    static const char *const cols[] = {"id", "name", "v", "score"};
    check(t, cols, 4, false,
          "{\"id\":1,\"name\":\"a-log\",\"v\":11,\"score\":null}\n"
          "{\"id\":2,\"name\":\"b-log\",\"v\":22,\"score\":2.5}\n");
    /* no InternalSchema without schema on read: a RENAME is refused, naming the rule */
    hudi_schema_change rn = {0};
    rn.kind = HUDI_SCHEMA_RENAME;
    rn.path = "name";
    rn.new_name = "label";
    hudi_alter_options o = {0};
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_lt(hudi_tbl_alter_schema(t, &rn, 1, &o, NULL, &err), 0);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
}

/* Compaction copies the base file's column chunks that no log record changed, by name
 * (write/compact.c): after DROP a, RENAME b TO a, the new `a` is the file's `b`, while the file
 * still holds the dropped `a` under that name. An upsert that changes only v (and ts) leaves the
 * new `a` as stored in every row, so a copy by name would bring the dropped column's values
 * back; the compacted rows must keep b's. No row is deleted, so the other columns are copied. */
Test(mor_evolved, compaction_copies_by_column_not_by_reused_name) {
    hudi_fs *fs = NULL;
    hudi_table *t = create(&fs, S0);
    static const char *const r0[] = {"1|a1|b1|1|10", "2|a2|b2|2|10", "3|a3|b3|3|10",
                                     "4|a4|b4|4|10"};
    write(t, HUDI_WRITE_INSERT, S0, r0, 4, NULL);
    hudi_schema_change ch[2];
    memset(ch, 0, sizeof(ch));
    ch[0].kind = HUDI_SCHEMA_DROP;
    ch[0].path = "a";
    ch[1].kind = HUDI_SCHEMA_RENAME;
    ch[1].path = "b";
    ch[1].new_name = "a";
    alter(t, ch, 2, true);
    static const char *const sor[] = {"hoodie.schema.on.read.enable", "true", NULL};
    static const char *const r1[] = {"2|b2|20|30"};
    write(t, HUDI_WRITE_UPSERT, "id:int,a:string,v:int,ts:long", r1, 1, sor);
    static const char *const cols[] = {"id", "a", "v"};
    const char *want = "{\"id\":1,\"a\":\"b1\",\"v\":1}\n{\"id\":2,\"a\":\"b2\",\"v\":20}\n"
                       "{\"id\":3,\"a\":\"b3\",\"v\":3}\n{\"id\":4,\"a\":\"b4\",\"v\":4}\n";
    check(t, cols, 3, false, want);
    compact(t);
    size_t bases = 0, logs = 0;
    count_files(t, &bases, &logs);
    cr_assert_eq(logs, 0);
    check(t, cols, 3, false, want);
    check(t, cols, 3, true, want);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
}
