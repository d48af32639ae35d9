/* threads_test.c - parallel reads (read/read.h hudi_reader_set_threads, SET hudic.threads):
 * snapshot, filtered, time-travel, incremental and merged merge-on-read scans of tables with
 * many files in several partitions return the same rows in the same order with 1 and 4
 * threads; a corrupt base file fails the scan once, naming the file, with the message of a
 * serial read; a cancelled parallel read stops; a reader freed while its tasks run ends them;
 * hudic.threads is checked when set. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/base.h"
#include "hudi/hudi_arrow.h"
#include "hudi/hudi_sql.h"
#include "read/read.h"
#include "support.h"
#include "table/tbl.h"

static hudi_session *open_session(const char *wh) {
    hudi_session *s = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    static const char *const conf[] = {"spark.sql.session.timeZone", "UTC", NULL};
    hudi_session_options o = HUDI_SESSION_OPTIONS_INIT;
    o.conf = conf;
    cr_assert_eq(hudi_session_open(&s, wh, &o, &err), 0, "%s", err.message);
    return s;
}

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

/* Runs one statement: its code; rows as TAB-separated lines to `out`, the error to `msg`. */
static int run(hudi_session *s, const char *sql, hudi_buf *out, char *msg) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_result *r = NULL;
    size_t used = 0;
    int rc = hudi_session_execute(s, sql, strlen(sql), &used, &r, &err);
    if (rc == 0 && r && hudi_result_has_rows(r)) {
        struct ArrowArrayStream st;
        cr_assert_eq(hudi_result_stream(r, &st, &err), 0, "%s", err.message);
        struct ArrowSchema sch;
        cr_assert_eq(st.get_schema(&st, &sch), 0);
        for (;;) {
            struct ArrowArray arr;
            if (st.get_next(&st, &arr) != 0) {
                rc = HUDI_EIO;
                snprintf(err.message, sizeof(err.message), "%s", st.get_last_error(&st));
                break;
            }
            if (!arr.release) break;
            struct cells cells = {out, (int32_t)sch.n_children};
            if (out)
                cr_assert_geq(
                    hudi_session_render(s, &sch, &arr, 0, arr.length, render_cell, &cells, &err), 0,
                    "%s", err.message);
            arr.release(&arr);
        }
        sch.release(&sch);
        st.release(&st);
    }
    if (msg) snprintf(msg, HUDI_ERROR_MESSAGE_MAX, "%s", err.message);
    hudi_result_free(r);
    return rc;
}

static void ok(hudi_session *s, const char *sql) {
    char msg[HUDI_ERROR_MESSAGE_MAX];
    cr_assert_eq(run(s, sql, NULL, msg), 0, "%s\n-> %s", sql, msg);
}

static char *rows(hudi_session *s, const char *sql) {
    hudi_buf b = HUDI_BUF_INIT;
    char msg[HUDI_ERROR_MESSAGE_MAX];
    cr_assert_eq(run(s, sql, &b, msg), 0, "%s\n-> %s", sql, msg);
    char *res = strdup(b.data ? b.data : "");
    hudi_buf_dispose(&b);
    return res;
}

/* The rows of `sql` with hudic.threads 1 and 4 must be the same text (order included). */
static void same_rows(hudi_session *s, const char *sql, int64_t min_lines) {
    ok(s, "SET hudic.threads = 1");
    char *one = rows(s, sql);
    ok(s, "SET hudic.threads = 4");
    char *four = rows(s, sql);
    int64_t lines = 0;
    for (const char *p = one; *p; p++) lines += *p == '\n';
    cr_assert_geq(lines, min_lines, "%s: %lld rows", sql, (long long)lines);
    cr_assert_str_eq(four, one, "%s: 4 threads differ from 1", sql);
    free(one);
    free(four);
}

/* A table `name` (cow or mor) in 3 partitions, 8 bulk inserts (new file groups in each
 * partition each time), then an update and a delete: 24 file groups; logs for mor. */
static void make_table(hudi_session *s, const char *name, const char *type) {
    char sql[1024];
    snprintf(sql, sizeof(sql),
             "CREATE TABLE %s (id INT, name STRING, v DOUBLE, p STRING) USING hudi "
             "PARTITIONED BY (p) TBLPROPERTIES (type = '%s', primaryKey = 'id', "
             "preCombineField = 'v', 'hoodie.parquet.small.file.limit' = '0')",
             name, type);
    ok(s, sql);
    ok(s, "SET hoodie.spark.sql.insert.into.operation = bulk_insert"); /* new file groups */
    for (int k = 0; k < 8; k++) {
        hudi_buf b = HUDI_BUF_INIT;
        hudi_buf_printf(&b, "INSERT INTO %s VALUES ", name);
        for (int i = 0; i < 60; i++) {
            int id = k * 60 + i;
            hudi_buf_printf(&b, "%s(%d, 'n%d', %d.5, '%s')", i ? ", " : "", id, id, id % 7,
                            id % 3 == 0   ? "a"
                            : id % 3 == 1 ? "b"
                                          : "c");
        }
        ok(s, b.data);
        hudi_buf_dispose(&b);
    }
    snprintf(sql, sizeof(sql), "UPDATE %s SET v = v + 100, name = 'u' WHERE id %% 5 = 0", name);
    ok(s, sql);
    snprintf(sql, sizeof(sql), "DELETE FROM %s WHERE id %% 11 = 0", name);
    ok(s, sql);
    snprintf(sql, sizeof(sql), "SELECT count(DISTINCT _hoodie_file_name) >= 24 FROM %s", name);
    char *many = rows(s, sql);
    cr_assert_str_eq(many, "true\n", "%s: fewer than 24 files", name);
    free(many);
}

static void check_table(hudi_session *s, const char *name, bool mor) {
    char sql[512];
    snprintf(sql, sizeof(sql), "SELECT * FROM %s", name);
    same_rows(s, sql, 400);
    snprintf(sql, sizeof(sql), "SELECT id, name, v FROM %s WHERE v > 3 AND p <> 'b'", name);
    same_rows(s, sql, 100);
    snprintf(sql, sizeof(sql), "SELECT p, count(*), sum(v) FROM %s GROUP BY p", name);
    same_rows(s, sql, 3);
    /* the commit times: time travel to the fourth, changes after the third */
    snprintf(sql, sizeof(sql),
             "SELECT DISTINCT _hoodie_commit_time FROM %s ORDER BY _hoodie_commit_time", name);
    char *commits = rows(s, sql);
    char c3[64] = "", c4[64] = "";
    cr_assert_eq(sscanf(commits, "%*s %63s %63s", c3, c4), 2, "%s", commits);
    free(commits);
    snprintf(sql, sizeof(sql), "SELECT * FROM %s TIMESTAMP AS OF '%s'", name, c4);
    same_rows(s, sql, 100);
    snprintf(sql, sizeof(sql), "SELECT * FROM hudi_table_changes('%s', 'latest_state', '%s')", name,
             c3);
    same_rows(s, sql, 100);
    if (mor) {
        snprintf(sql, sizeof(sql), "SELECT id, name, v FROM %s WHERE name = 'u'", name);
        same_rows(s, sql, 40);
    }
}

Test(threads, cow_and_mor_reads_match_serial) {
    char wh[4200];
    snprintf(wh, sizeof(wh), "%s/wh", test_tmpdir());
    hudi_session *s = open_session(wh);
    make_table(s, "cow", "cow");
    make_table(s, "mor", "mor");
    check_table(s, "cow", false);
    check_table(s, "mor", true);
    hudi_session_close(s);
}

/* The path of base file `name` under `dir`. */
static char *base_file(const char *dir, const char *name) {
    char cmd[5200];
    snprintf(cmd, sizeof(cmd), "find '%s' -name '%s'", dir, name);
    FILE *f = popen(cmd, "r");
    cr_assert_not_null(f);
    char line[4200] = "";
    cr_assert_not_null(fgets(line, sizeof(line), f), "%s not in %s", name, dir);
    pclose(f);
    line[strcspn(line, "\n")] = 0;
    return strdup(line);
}

Test(threads, corrupt_base_file_fails_once_naming_it) {
    char wh[4200];
    snprintf(wh, sizeof(wh), "%s/wh", test_tmpdir());
    hudi_session *s = open_session(wh);
    make_table(s, "cow", "cow");
    char dir[4300];
    snprintf(dir, sizeof(dir), "%s/default/cow", wh);
    /* the tenth of the files the snapshot reads */
    char *names = rows(s, "SELECT DISTINCT _hoodie_file_name FROM cow ORDER BY 1");
    char name[512] = "";
    const char *line = names;
    for (int i = 0; i < 9 && line; i++)
        if ((line = strchr(line, '\n'))) line++;
    cr_assert(line && sscanf(line, "%511s", name) == 1, "%s", names);
    free(names);
    char *bad = base_file(dir, name);
    /* overwrite the footer's length and magic: "not a Parquet file" */
    FILE *f = fopen(bad, "r+b");
    cr_assert_not_null(f, "%s", bad);
    cr_assert_eq(fseek(f, -8, SEEK_END), 0);
    cr_assert_eq(fwrite("XXXXXXXX", 1, 8, f), 8);
    fclose(f);
    char one[HUDI_ERROR_MESSAGE_MAX], four[HUDI_ERROR_MESSAGE_MAX];
    ok(s, "SET hudic.threads = 1");
    cr_assert_lt(run(s, "SELECT * FROM cow", NULL, one), 0);
    ok(s, "SET hudic.threads = 4");
    cr_assert_lt(run(s, "SELECT * FROM cow", NULL, four), 0);
    const char *base = strrchr(bad, '/') + 1;
    const char *at = strstr(four, base);
    cr_assert_not_null(at, "%s does not name %s", four, base);
    cr_assert_null(strstr(at + 1, base), "%s names the file twice", four);
    cr_assert_str_eq(four, one);
    free(bad);
    hudi_session_close(s);
}

/* Reads `dir` with 4 threads through the read layer: a reader cancelled after its first batch
 * fails with ECANCELED (and again after); one freed after its first batch ends its tasks. */
Test(threads, cancel_and_early_free) {
    char wh[4200];
    snprintf(wh, sizeof(wh), "%s/wh", test_tmpdir());
    hudi_session *s = open_session(wh);
    make_table(s, "mor", "mor");
    hudi_session_close(s);
    char dir[4300];
    snprintf(dir, sizeof(dir), "%s/default/mor", wh);
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    cr_assert_eq(hudi_tbl_open(&t, NULL, dir, &err), 0, "%s", err.message);
    for (int mode = 0; mode < 2; mode++) {
        hudi_scan_options o = HUDI_SCAN_OPTIONS_INIT;
        o.batch_rows = 4;
        hudi_reader *r = NULL;
        atomic_int cancel;
        atomic_init(&cancel, 0);
        cr_assert_eq(hudi_reader_open(&r, t, &o, &err), 0, "%s", err.message);
        cr_assert_eq(hudi_reader_set_threads(r, 4, &cancel, &err), 0, "%s", err.message);
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_reader_next(r, &b, &err), 0, "%s", err.message);
        cr_assert_not_null(b);
        cr_assert_eq(hudi_reader_set_threads(r, 2, NULL, &err), HUDI_EINVAL);
        if (mode == 0) {
            atomic_store(&cancel, 1);
            err = (hudi_error)HUDI_ERROR_INIT;
            cr_assert_eq(hudi_reader_next(r, &b, &err), HUDI_ECANCELED, "%d %s", err.code,
                         err.message);
            cr_assert_eq(hudi_reader_next(r, &b, &err), HUDI_ECANCELED);
        }
        hudi_reader_free(r);
    }
    hudi_tbl_free(t);
}

/* SET hudic.threads / hoodie.hudic.parallelism follow hudi_pool_parse_threads (0 = the
 * default, 1-1024), checked at SET with the key and the value named; 0 reaches scans and writes
 * (the write gets it as hoodie.hudic.parallelism). */
Test(threads, setting_is_checked) {
    char wh[4200];
    snprintf(wh, sizeof(wh), "%s/wh", test_tmpdir());
    hudi_session *s = open_session(wh);
    char msg[HUDI_ERROR_MESSAGE_MAX];
    const char *bad[] = {"SET hudic.threads = many", "SET hudic.threads = 1025",
                         "SET hoodie.hudic.parallelism = -1", "SET hudic.threads = 4x"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        cr_assert_eq(run(s, bad[i], NULL, msg), HUDI_EINVAL, "%s -> %s", bad[i], msg);
        cr_assert(strstr(msg, "is not a number of threads (0 = the default, or 1-1024)"), "%s",
                  msg);
    }
    cr_assert_eq(run(s, "SET hudic.threads = 1025", NULL, msg), HUDI_EINVAL);
    cr_assert_str_eq(msg, "hudic.threads: '1025' is not a number of threads (0 = the default, or "
                          "1-1024)");
    char *v = rows(s, "SET hudic.threads"); /* nothing stored by the refused SETs */
    cr_assert_str_eq(v, "hudic.threads\t<undefined>\n");
    free(v);
    ok(s, "SET hudic.threads = 1024");
    ok(s, "SET hudic.threads = 3");
    v = rows(s, "SET hudic.threads");
    cr_assert_str_eq(v, "hudic.threads\t3\n");
    free(v);
    ok(s, "SET hudic.threads = 0");
    ok(s, "CREATE TABLE z (id INT, p STRING) USING hudi PARTITIONED BY (p) "
          "TBLPROPERTIES (primaryKey = 'id')");
    ok(s, "INSERT INTO z VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    v = rows(s, "SELECT count(*), sum(id) FROM z");
    cr_assert_str_eq(v, "3\t6\n");
    free(v);
    hudi_session_close(s);
}

/* The reader: hudi_reader_set_threads takes 0-1024 (0 = the table's setting, else the
 * default); the table property hoodie.hudic.parallelism follows hudi_pool_parse_threads, checked
 * at the first read with the table, the key and the value named. */
Test(threads, reader_threads_checked) {
    char wh[4200];
    snprintf(wh, sizeof(wh), "%s/wh", test_tmpdir());
    hudi_session *s = open_session(wh);
    make_table(s, "cow", "cow");
    hudi_session_close(s);
    char dir[4300];
    snprintf(dir, sizeof(dir), "%s/default/cow", wh);
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    cr_assert_eq(hudi_tbl_open(&t, NULL, dir, &err), 0, "%s", err.message);
    hudi_scan_options o = HUDI_SCAN_OPTIONS_INIT;
    hudi_reader *r = NULL;
    hudi_batch *b = NULL;
    char want[8000];
    cr_assert_eq(hudi_reader_open(&r, t, &o, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_reader_set_threads(r, 1025, NULL, &err), HUDI_EINVAL);
    snprintf(want, sizeof(want),
             "%s: threads: '1025' is not a number of threads (0 = the default, or 1-1024)",
             t->base_path);
    cr_assert_str_eq(err.message, want);
    cr_assert_eq(hudi_reader_set_threads(r, -1, NULL, &err), HUDI_EINVAL);
    cr_assert_eq(hudi_reader_set_threads(r, 1024, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_reader_set_threads(r, 0, NULL, &err), 0, "%s", err.message);
    /* 0: the table's setting, here unusable */
    cr_assert_eq(hudi_props_set(&t->props, "hoodie.hudic.parallelism", "1025", &err), 0);
    cr_assert_eq(hudi_reader_next(r, &b, &err), HUDI_EINVAL);
    snprintf(want, sizeof(want),
             "%s: hoodie.hudic.parallelism: '1025' is not a number of threads (0 = the default, "
             "or 1-1024)",
             t->base_path);
    cr_assert_str_eq(err.message, want);
    hudi_reader_free(r);
    /* an explicit count wins over the table's setting; 0 in the table = the default */
    static const char *const table_value[] = {"1025", "0"};
    for (int k = 0; k < 2; k++) {
        err = (hudi_error)HUDI_ERROR_INIT;
        cr_assert_eq(hudi_props_set(&t->props, "hoodie.hudic.parallelism", table_value[k], &err),
                     0);
        r = NULL;
        cr_assert_eq(hudi_reader_open(&r, t, &o, &err), 0, "%s", err.message);
        if (k == 0) cr_assert_eq(hudi_reader_set_threads(r, 2, NULL, &err), 0, "%s", err.message);
        int64_t n = 0;
        while (hudi_reader_next(r, &b, &err) == 0 && b) n += b->num_rows;
        cr_assert_eq(err.code, 0, "%s", err.message);
        cr_assert_gt(n, 400);
        hudi_reader_free(r);
    }
    hudi_tbl_free(t);
}
