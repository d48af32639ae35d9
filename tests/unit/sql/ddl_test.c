/* ddl_test.c - DDL, SHOW and CALL end to end through the public SQL API (hudi_session_open /
 * hudi_session_execute): registering a table Spark wrote without touching it, what CREATE TABLE
 * writes into hoodie.properties, two sessions on one warehouse, failed statements leaving
 * nothing behind, CTAS, TRUNCATE/DROP PARTITION as replacecommits, rollback_to_instant. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/base.h"
#include "hudi/hudi_arrow.h"
#include "hudi/hudi_sql.h"
#include "support.h"

static char *warehouse_new(void) {
    char *w = malloc(4200);
    snprintf(w, 4200, "%s/wh", test_tmpdir());
    return w;
}

static void rm_rf(const char *p) {
    char cmd[4400];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", p);
    cr_assert_eq(system(cmd), 0);
}

static hudi_session *open_session(const char *wh) {
    hudi_session *s = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    static const char *const conf[] = {"spark.sql.session.timeZone", "UTC", NULL};
    hudi_session_options o = HUDI_SESSION_OPTIONS_INIT;
    o.conf = conf;
    cr_assert_eq(hudi_session_open(&s, wh, &o, &err), 0, "%s", err.message);
    return s;
}

/* Runs one statement; returns its code. Rows go to `out` (when not NULL) as TAB-separated
 * lines of spark-sql renderings; the error message to `msg`. */

/* One value of a row: TAB-separated, a newline after the last column. */
struct cells {
    hudi_buf *out;
    int32_t n_columns;
};

static int render_cell(void *payload, int64_t row, int32_t column, const char *text, size_t len,
                       bool is_null) {
    (void)row;
    (void)is_null;
    struct cells *c = payload;
    if (column) hudi_buf_putc(c->out, '\t');
    hudi_buf_append(c->out, text, len);
    if (column + 1 == c->n_columns) hudi_buf_putc(c->out, '\n');
    return 0;
}

static int run(hudi_session *s, const char *sql, hudi_buf *out, char *msg) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_result *r = NULL;
    size_t used = 0;
    int rc = hudi_session_execute(s, sql, strlen(sql), &used, &r, &err);
    if (msg) snprintf(msg, HUDI_ERROR_MESSAGE_MAX, "%s", err.message);
    if (rc < 0) return rc;
    if (out && r && hudi_result_has_rows(r)) {
        struct ArrowArrayStream st;
        cr_assert_eq(hudi_result_stream(r, &st, &err), 0, "%s", err.message);
        struct ArrowSchema sch;
        cr_assert_eq(st.get_schema(&st, &sch), 0);
        for (;;) {
            struct ArrowArray arr;
            cr_assert_eq(st.get_next(&st, &arr), 0, "%s", st.get_last_error(&st));
            if (!arr.release) break;
            struct cells cells = {out, (int32_t)sch.n_children};
            cr_assert_geq(
                hudi_session_render(s, &sch, &arr, 0, arr.length, render_cell, &cells, &err), 0,
                "%s", err.message);
            arr.release(&arr);
        }
        sch.release(&sch);
        st.release(&st);
    }
    hudi_result_free(r);
    return rc;
}

static void ok(hudi_session *s, const char *sql) {
    char msg[HUDI_ERROR_MESSAGE_MAX];
    int rc = run(s, sql, NULL, msg);
    cr_assert_eq(rc, 0, "%s\n-> %s", sql, msg);
}

/* The rows of a statement as text (malloc'd). */
static char *rows(hudi_session *s, const char *sql) {
    hudi_buf b = HUDI_BUF_INIT;
    char msg[HUDI_ERROR_MESSAGE_MAX];
    int rc = run(s, sql, &b, msg);
    cr_assert_eq(rc, 0, "%s\n-> %s", sql, msg);
    char *res = strdup(b.data ? b.data : "");
    hudi_buf_dispose(&b);
    return res;
}

static void expect_rows(hudi_session *s, const char *sql, const char *want) {
    char *got = rows(s, sql);
    cr_assert_str_eq(got, want, "%s", sql);
    free(got);
}

static void expect_error(hudi_session *s, const char *sql, int code, const char *part) {
    char msg[HUDI_ERROR_MESSAGE_MAX];
    int rc = run(s, sql, NULL, msg);
    cr_assert_eq(rc, code, "%s\n-> %d %s", sql, rc, msg);
    if (part) cr_assert(strstr(msg, part), "%s\n-> %s (wanted '%s')", sql, msg, part);
}

static char *slurp(const char *path) {
    size_t n = 0;
    unsigned char *d = test_read_file(path, &n);
    if (!d) return NULL;
    char *s = malloc(n + 1);
    memcpy(s, d, n);
    s[n] = 0;
    free(d);
    return s;
}

/* Names in a folder, sorted, one per line. */
static char *listing(const char *dir) {
    char cmd[4400];
    snprintf(cmd, sizeof(cmd), "ls -a '%s' 2>/dev/null", dir);
    FILE *p = popen(cmd, "r");
    hudi_buf b = HUDI_BUF_INIT;
    char line[1024];
    while (p && fgets(line, sizeof(line), p)) hudi_buf_puts(&b, line);
    if (p) pclose(p);
    char *res = strdup(b.data ? b.data : "");
    hudi_buf_dispose(&b);
    return res;
}

Test(ddl, register_spark_table_without_rewriting_it) {
    const char *table = fixture_unzip("hudi-rs/sample_table/cow/v6_complexkeygen_hivestyle.zip");
    cr_assert_not_null(table);
    char props_path[4200], hoodie[4200];
    snprintf(props_path, sizeof(props_path), "%s/.hoodie/hoodie.properties", table);
    snprintf(hoodie, sizeof(hoodie), "%s/.hoodie", table);
    char *props_before = slurp(props_path), *files_before = listing(hoodie);
    char *tdir = strdup(table);
    char *wh = warehouse_new();
    hudi_session *s = open_session(wh);
    char sql[8800];
    /* given settings must agree with hoodie.properties */
    snprintf(sql, sizeof(sql),
             "CREATE TABLE spark_t USING hudi LOCATION '%s' TBLPROPERTIES (primaryKey = 'x')",
             tdir);
    expect_error(s, sql, HUDI_ESQL, "is not the same with the value in hoodie.properties");
    snprintf(sql, sizeof(sql), "CREATE TABLE spark_t USING hudi LOCATION '%s'", tdir);
    ok(s, sql);
    expect_rows(s, "SHOW TABLES", "default\tspark_t\tfalse\n");
    char *cols = rows(s, "SHOW COLUMNS IN spark_t");
    cr_assert(strncmp(cols,
                      "_hoodie_commit_time\n_hoodie_commit_seqno\n_hoodie_record_key\n"
                      "_hoodie_partition_path\n_hoodie_file_name\nid\n",
                      strlen("_hoodie_commit_time\n_hoodie_commit_seqno\n_hoodie_record_key\n"
                             "_hoodie_partition_path\n_hoodie_file_name\nid\n")) == 0,
              "%s", cols);
    free(cols);
    char *parts = rows(s, "SHOW PARTITIONS spark_t");
    cr_assert(strstr(parts, "byteField=") == parts, "hive-style partition paths: %s", parts);
    free(parts);
    char *desc = rows(s, "DESCRIBE spark_t");
    cr_assert(strstr(desc, "# Partition Information"), "%s", desc);
    free(desc);
    desc = rows(s, "DESCRIBE EXTENDED spark_t");
    cr_assert(strstr(desc, "# Detailed Table Information"), "%s", desc);
    cr_assert(strstr(desc, "\nType\tEXTERNAL\t\n"), "%s", desc);
    cr_assert(strstr(desc, "\nProvider\thudi\t\n"), "%s", desc);
    cr_assert(strstr(desc, "\nPartition Provider\tCatalog\t\n"), "%s", desc);
    free(desc);
    char *props_after = slurp(props_path), *files_after = listing(hoodie);
    cr_assert_str_eq(props_after, props_before, "hoodie.properties was rewritten");
    cr_assert_str_eq(files_after, files_before, ".hoodie changed");
    /* DROP of an external table keeps its data */
    ok(s, "DROP TABLE spark_t");
    cr_assert_eq(access(props_path, F_OK), 0);
    hudi_session_close(s);
    free(props_before);
    free(props_after);
    free(files_before);
    free(files_after);
    rm_rf(wh);
    free(wh);
    free(tdir);
}

Test(ddl, create_table_writes_what_spark_sql_writes) {
    char *wh = warehouse_new();
    hudi_session *s = open_session(wh);
    ok(s, "CREATE DATABASE db1");
    ok(s, "CREATE TABLE db1.t (id INT, region STRING, v STRING, ts BIGINT, dt STRING) USING hudi "
          "PARTITIONED BY (dt) TBLPROPERTIES (primaryKey = 'id, region', preCombineField = 'ts', "
          "'hoodie.table.cdc.enabled' = 'false', 'hoodie.keep.max.commits' = '40')");
    char path[4300];
    snprintf(path, sizeof(path), "%s/db1/t/.hoodie/hoodie.properties", wh);
    char *p = slurp(path);
    cr_assert_not_null(p);
    const char *want[] = {"hoodie.table.name=t\n",
                          "hoodie.database.name=db1\n",
                          "hoodie.table.recordkey.fields=id,region\n",
                          "hoodie.table.precombine.field=ts\n",
                          "hoodie.table.partition.fields=dt\n",
                          "hoodie.datasource.write.hive_style_partitioning=true\n",
                          "hoodie.datasource.write.partitionpath.urlencode=false\n",
                          "hoodie.table.keygenerator.class=org.apache.hudi.keygen."
                          "ComplexKeyGenerator\n",
                          "hoodie.table.cdc.enabled=false\n",
                          "hoodie.table.type=COPY_ON_WRITE\n"};
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
        cr_assert(strstr(p, want[i]), "missing %s in\n%s", want[i], p);
    cr_assert_null(strstr(p, "hoodie.keep.max.commits"), "a write config is not a table config");
    free(p);
    /* the partition column is last, meta columns first */
    expect_rows(s, "SHOW COLUMNS IN db1.t",
                "_hoodie_commit_time\n_hoodie_commit_seqno\n_hoodie_record_key\n"
                "_hoodie_partition_path\n_hoodie_file_name\nid\nregion\nv\nts\ndt\n");
    expect_rows(s, "SHOW TBLPROPERTIES db1.t ('primaryKey')", "primaryKey\tid, region\n");
    /* Flink's form: hive-style partitioning off, ordering field ts by default */
    ok(s, "CREATE TABLE db1.f (uuid STRING, name STRING, ts BIGINT, part STRING, PRIMARY KEY "
          "(uuid) NOT ENFORCED) PARTITIONED BY (part) WITH ('connector' = 'hudi')");
    snprintf(path, sizeof(path), "%s/db1/f/.hoodie/hoodie.properties", wh);
    p = slurp(path);
    cr_assert(strstr(p, "hoodie.datasource.write.hive_style_partitioning=false\n"), "%s", p);
    cr_assert(strstr(p, "hoodie.table.precombine.field=ts\n"), "%s", p);
    cr_assert(strstr(p, "hoodie.table.keygenerator.class=org.apache.hudi.keygen."
                        "SimpleKeyGenerator\n"),
              "%s", p);
    free(p);
    hudi_session_close(s);
    rm_rf(wh);
    free(wh);
}

Test(ddl, failed_statements_leave_nothing) {
    char *wh = warehouse_new();
    hudi_session *s = open_session(wh);
    char dir[4300];
    snprintf(dir, sizeof(dir), "%s/default/bad", wh);
    expect_error(s, "CREATE TABLE bad (id INT) USING hudi TBLPROPERTIES (primaryKey = 'nope')",
                 HUDI_ESQL, "Can't find primaryKey `nope`");
    cr_assert_neq(access(dir, F_OK), 0, "a failed CREATE left %s", dir);
    /* without a primaryKey the table is valid (generated keys); a bad ordering field is not */
    expect_error(s, "CREATE TABLE bad (id INT) USING hudi TBLPROPERTIES (preCombineField = 'nope')",
                 HUDI_ESQL, "nope");
    cr_assert_neq(access(dir, F_OK), 0);
    expect_rows(s, "SHOW TABLES", "");
    /* a CTAS whose query fails registers nothing */
    expect_error(s,
                 "CREATE TABLE bad USING hudi TBLPROPERTIES (primaryKey = 'id') AS SELECT "
                 "id FROM no_such_table",
                 HUDI_ENOTFOUND, "no_such_table");
    cr_assert_neq(access(dir, F_OK), 0);
    expect_rows(s, "SHOW TABLES", "");
    hudi_session_close(s);
    rm_rf(wh);
    free(wh);
}

Test(ddl, two_sessions_share_the_catalog) {
    char *wh = warehouse_new();
    hudi_session *a = open_session(wh), *b = open_session(wh);
    ok(a, "CREATE DATABASE shared");
    ok(b, "USE shared");
    ok(b, "CREATE TABLE t (id INT, v STRING) USING hudi TBLPROPERTIES (primaryKey = 'id')");
    expect_rows(a, "SHOW TABLES IN shared", "shared\tt\tfalse\n");
    ok(a, "ALTER TABLE shared.t SET TBLPROPERTIES ('k' = 'v')");
    expect_rows(b, "SHOW TBLPROPERTIES t ('k')", "k\tv\n");
    ok(a, "ALTER TABLE shared.t RENAME TO shared.t2");
    expect_rows(b, "SHOW TABLES", "shared\tt2\tfalse\n");
    /* Hudi's rename rewrites hoodie.table.name */
    char *props = rows(b, "CALL show_table_properties(table => 't2', limit => 100)");
    cr_assert(strstr(props, "hoodie.table.name\tt2\n"), "%s", props);
    free(props);
    hudi_session_close(a);
    hudi_session_close(b);
    rm_rf(wh);
    free(wh);
}

Test(ddl, ctas_truncate_drop_partition_rollback) {
    char *wh = warehouse_new();
    hudi_session *s = open_session(wh);
    ok(s, "CREATE TABLE c USING hudi PARTITIONED BY (dt) TBLPROPERTIES (primaryKey = 'id') AS "
          "SELECT 1 AS id, 'a' AS v, '2021-01-01' AS dt UNION ALL SELECT 2, 'b', '2021-01-02'");
    expect_rows(s, "SELECT id, v, dt FROM c ORDER BY id", "1\ta\t2021-01-01\n2\tb\t2021-01-02\n");
    expect_rows(s, "SHOW PARTITIONS c", "dt=2021-01-01\ndt=2021-01-02\n");
    char *commits = rows(s, "CALL show_commits(table => 'c')");
    cr_assert_eq(strchr(commits, '\n') - commits + 1, (long)strlen(commits), "one commit: %s",
                 commits);
    cr_assert(strstr(commits, "\tcommit\t"), "%s", commits);
    free(commits);
    ok(s, "ALTER TABLE c DROP PARTITION (dt = '2021-01-02')");
    expect_rows(s, "SELECT id FROM c", "1\n");
    expect_error(s, "ALTER TABLE c DROP PARTITION (nope = '1')", HUDI_ESQL,
                 "not a valid partition column");
    commits = rows(s, "CALL show_commits(table => 'c', limit => 1)");
    cr_assert(strstr(commits, "\treplacecommit\t"), "%s", commits);
    /* roll the drop back: the partition's rows are back */
    char instant[64];
    snprintf(instant, sizeof(instant), "%.*s", (int)(strchr(commits, '\t') - commits), commits);
    free(commits);
    char sql[256];
    snprintf(sql, sizeof(sql), "CALL rollback_to_instant(table => 'c', instant_time => '%s')",
             instant);
    expect_rows(s, sql, "true\n");
    expect_rows(s, "SELECT id FROM c ORDER BY id", "1\n2\n");
    ok(s, "TRUNCATE TABLE c");
    expect_rows(s, "SELECT count(*) FROM c", "0\n");
    ok(s, "INSERT INTO c VALUES (5, 'e', '2021-01-05')");
    expect_rows(s, "SELECT id FROM c", "5\n");
    /* managed: DROP deletes the folder */
    char dir[4300];
    snprintf(dir, sizeof(dir), "%s/default/c", wh);
    cr_assert_eq(access(dir, F_OK), 0);
    ok(s, "DROP TABLE c");
    cr_assert_neq(access(dir, F_OK), 0);
    hudi_session_close(s);
    rm_rf(wh);
    free(wh);
}

Test(ddl, procedures) {
    char *wh = warehouse_new();
    hudi_session *s = open_session(wh);
    ok(s, "CREATE TABLE t (id INT, v STRING, p STRING) USING hudi PARTITIONED BY (p) "
          "TBLPROPERTIES (primaryKey = 'id')");
    ok(s, "INSERT INTO t VALUES (1, 'a', 'x'), (2, 'b', 'y')");
    ok(s, "INSERT INTO t VALUES (1, 'c', 'x')");
    ok(s, "INSERT INTO t VALUES (1, 'd', 'x')");
    char *commits = rows(s, "CALL show_commits('t', 1)"); /* positional arguments */
    char instant[64];
    snprintf(instant, sizeof(instant), "%.*s", (int)(strchr(commits, '\t') - commits), commits);
    /* one file group updated in one partition, one record written, one of them an update */
    cr_assert(strstr(commits, "\tcommit\t"), "%s", commits);
    cr_assert(strstr(commits, "\t0\t1\t1\t1\t1\t0\n"), "%s", commits);
    free(commits);
    char sql[512];
    snprintf(sql, sizeof(sql), "CALL show_commit_files(table => 't', instant_time => '%s')",
             instant);
    char *files = rows(s, sql);
    cr_assert(strncmp(files, "commit\tp=x\t", 11) == 0, "%s", files);
    free(files);
    expect_error(s, "CALL show_commit_files(table => 't', instant_time => '1')", HUDI_ENOTFOUND,
                 "Commit 1 not found");
    /* the oldest version of the updated file group goes (KEEP_LATEST_COMMITS keeps the version
     * a query as of the earliest retained commit reads) */
    char *clean = rows(s, "CALL run_clean(table => 't', retain_commits => 1)");
    cr_assert(strstr(clean, "\t1\t"), "one file deleted: %s", clean);
    free(clean);
    expect_rows(s, "CALL run_clean(table => 't', retain_commits => 1)", "");
    expect_rows(s, "SELECT id, v FROM t ORDER BY id", "1\td\n2\tb\n");
    /* show_fs_path_detail over the table's partitions, largest first */
    snprintf(sql, sizeof(sql), "CALL show_fs_path_detail(path => '%s/default/t', is_sub => true)",
             wh);
    char *du = rows(s, sql);
    cr_assert(strstr(du, "/default/t/.hoodie\t"), "%s", du);
    cr_assert(strstr(du, "/default/t/p=x\t"), "%s", du);
    free(du);
    /* savepoints: create, list, restore, delete */
    snprintf(sql, sizeof(sql),
             "CALL create_savepoint(table => 't', commit_time => '%s', user => 'ann')", instant);
    expect_rows(s, sql, "true\n");
    snprintf(sql, sizeof(sql), "%s\n", instant);
    expect_rows(s, "CALL show_savepoints(table => 't')", sql);
    ok(s, "INSERT INTO t VALUES (1, 'e', 'x'), (3, 'f', 'y')");
    expect_rows(s, "SELECT id, v FROM t ORDER BY id", "1\te\n2\tb\n3\tf\n");
    snprintf(sql, sizeof(sql), "CALL rollback_to_savepoint(table => 't', instant_time => '%s')",
             instant);
    expect_rows(s, sql, "true\n");
    expect_rows(s, "SELECT id, v FROM t ORDER BY id", "1\td\n2\tb\n");
    snprintf(sql, sizeof(sql), "CALL delete_savepoint(table => 't', instant_time => '%s')",
             instant);
    expect_rows(s, sql, "true\n");
    expect_rows(s, "CALL show_savepoints(table => 't')", "");
    expect_error(s, sql, HUDI_ENOTFOUND, "not found");
    /* without commit_time: the latest completed commit */
    expect_rows(s, "CALL create_savepoint('t')", "true\n");
    char *sps = rows(s, "CALL show_savepoints(table => 't')");
    cr_assert_eq(strlen(sps), 18, "%s", sps);
    free(sps);
    expect_error(s, "CALL show_commits(table => 't', limit => 'x')", HUDI_ESQL,
                 "must be an integer");
    expect_error(s, "CALL show_commits(table => 't', table => 't')", HUDI_ESQL, "given twice");
    hudi_session_close(s);
    rm_rf(wh);
    free(wh);
}

/* A merge-on-read table through SQL: INSERT writes base files, UPDATE / DELETE / MERGE INTO
 * append log files (deltacommits), SELECT reads the merged snapshot. */
Test(ddl, merge_on_read_table) {
    char *wh = warehouse_new();
    hudi_session *s = open_session(wh);
    ok(s, "CREATE TABLE m (id INT, name STRING, ts BIGINT) USING hudi TBLPROPERTIES (type = "
          "'mor', primaryKey = 'id', preCombineField = 'ts')");
    ok(s, "INSERT INTO m VALUES (1, 'a', 1), (2, 'b', 1), (3, 'c', 1)");
    ok(s, "UPDATE m SET name = 'bb', ts = 2 WHERE id = 2");
    ok(s, "DELETE FROM m WHERE id = 3");
    ok(s, "MERGE INTO m USING (SELECT 1 AS id, 'aa' AS name, 3L AS ts) src ON m.id = src.id "
          "WHEN MATCHED THEN UPDATE SET *");
    expect_rows(s, "SELECT id, name, ts FROM m ORDER BY id", "1\taa\t3\n2\tbb\t2\n");
    char dir[4300], cmd[4400];
    snprintf(dir, sizeof(dir), "%s/default/m", wh);
    snprintf(cmd, sizeof(cmd), "ls -a '%s' | grep -c '\\.log\\.'", dir);
    FILE *p = popen(cmd, "r");
    int logs = 0;
    cr_assert_eq(fscanf(p, "%d", &logs), 1);
    pclose(p);
    cr_assert_eq(logs, 3, "one log file per UPDATE, DELETE and MERGE");
    hudi_session_close(s);
    rm_rf(wh);
    free(wh);
}

/* hudi_session_progress: a write counts the file groups it wrote and its rows, a scan the base
 * files it opened (after partition pruning) and the rows it decoded; the counts stay until the
 * next statement starts. */
Test(ddl, statement_progress) {
    char *wh = warehouse_new();
    hudi_session *s = open_session(wh);
    hudi_statement_progress pr;
    hudi_session_progress(s, &pr);
    cr_assert_eq(pr.phase, HUDI_PROGRESS_NONE);
    ok(s, "CREATE TABLE p (id INT, v STRING, part STRING) USING hudi PARTITIONED BY (part) "
          "TBLPROPERTIES (primaryKey = 'id')");
    hudi_session_progress(s, &pr);
    cr_assert_eq(pr.phase, HUDI_PROGRESS_NONE, "DDL reports nothing");
    ok(s, "INSERT INTO p VALUES (1, 'a', 'x'), (2, 'b', 'y'), (3, 'c', 'z'), (4, 'd', 'x')");
    hudi_session_progress(s, &pr);
    cr_assert_eq(pr.phase, HUDI_PROGRESS_WRITE);
    cr_assert_eq(pr.done, 3, "one file group per partition");
    cr_assert_eq(pr.total, 3);
    cr_assert_eq(pr.rows, 4);
    expect_rows(s, "SELECT count(*) FROM p", "4\n");
    hudi_session_progress(s, &pr);
    cr_assert_eq(pr.phase, HUDI_PROGRESS_SCAN);
    cr_assert_eq(pr.done, 3);
    cr_assert_eq(pr.total, 3);
    cr_assert_eq(pr.rows, 4);
    expect_rows(s, "SELECT id FROM p WHERE part = 'x' ORDER BY id", "1\n4\n");
    hudi_session_progress(s, &pr);
    cr_assert_eq(pr.phase, HUDI_PROGRESS_SCAN);
    cr_assert_eq(pr.total, 1, "the pruned partitions are not counted");
    cr_assert_eq(pr.done, 1);
    cr_assert_eq(pr.rows, 2);
    hudi_session_close(s);
    rm_rf(wh);
    free(wh);
}
