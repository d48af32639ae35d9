/* read_tsan.c - parallel table reads under ThreadSanitizer (plain program: Criterion cannot run
 * under TSan). Writes a copy-on-write and a merge-on-read table with many files in three
 * partitions through the SQL API, then reads each with 4 threads (read/read.h
 * hudi_reader_set_threads): the rows must equal a serial read's, in order; a read freed after
 * its first batch and a cancelled read must end cleanly. Exit 0 when all holds. Built by every
 * preset; the tsan preset is where it means something. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hudi/hudi_sql.h"
#include "read/read.h"
#include "table/tbl.h"

static int fail(const char *what, const hudi_error *err) {
    fprintf(stderr, "read_tsan: %s: %s\n", what, err ? err->message : "");
    return 1;
}

static int exec(hudi_session *s, const char *sql) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_result *r = NULL;
    size_t used = 0;
    int rc = hudi_session_execute(s, sql, strlen(sql), &used, &r, &err);
    hudi_result_free(r);
    return rc < 0 ? fail(sql, &err) : 0;
}

static int make_table(hudi_session *s, const char *name, const char *type) {
    char sql[1024];
    snprintf(sql, sizeof(sql),
             "CREATE TABLE %s (id INT, name STRING, v DOUBLE, p STRING) USING hudi "
             "PARTITIONED BY (p) TBLPROPERTIES (type = '%s', primaryKey = 'id', "
             "preCombineField = 'v', 'hoodie.parquet.small.file.limit' = '0')",
             name, type);
    if (exec(s, sql)) return 1;
    if (exec(s, "SET hoodie.spark.sql.insert.into.operation = bulk_insert")) return 1;
    for (int k = 0; k < 6; k++) {
        char buf[8192];
        size_t n = (size_t)snprintf(buf, sizeof(buf), "INSERT INTO %s VALUES ", name);
        for (int i = 0; i < 50; i++) {
            int id = k * 50 + i;
            n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s(%d, 'n%d', %d.5, '%s')",
                                  i ? ", " : "", id, id, id % 7, id % 3 ? "a" : "b");
        }
        if (exec(s, buf)) return 1;
    }
    snprintf(sql, sizeof(sql), "UPDATE %s SET v = v + 100 WHERE id %% 4 = 0", name);
    if (exec(s, sql)) return 1;
    snprintf(sql, sizeof(sql), "DELETE FROM %s WHERE id %% 9 = 0", name);
    return exec(s, sql);
}

/* Reads the table at `dir` with `threads`: every id and v in order into ids/vs (n of them). */
static int read_all(const char *dir, int32_t threads, int64_t *ids, double *vs, int64_t *n,
                    int mode) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    hudi_reader *r = NULL;
    static const char *const cols[] = {"id", "v"};
    hudi_scan_options o = HUDI_SCAN_OPTIONS_INIT;
    o.columns = cols;
    o.n_columns = 2;
    o.batch_rows = 7;
    atomic_int cancel;
    atomic_init(&cancel, 0);
    if (hudi_tbl_open(&t, NULL, dir, &err) < 0) return fail(dir, &err);
    int rc = hudi_reader_open(&r, t, &o, &err);
    if (rc == 0) rc = hudi_reader_set_threads(r, threads, &cancel, &err);
    *n = 0;
    for (hudi_batch *b = NULL; rc == 0;) {
        if ((rc = hudi_reader_next(r, &b, &err)) < 0 || !b) break;
        for (int64_t i = 0; i < b->num_rows && *n < 4096; i++, (*n)++) {
            ids[*n] = ((const int32_t *)b->columns[0]->values)[i];
            vs[*n] = ((const double *)b->columns[1]->values)[i];
        }
        if (mode == 1) break;                    /* freed while the tasks run */
        if (mode == 2) atomic_store(&cancel, 1); /* cancelled */
    }
    hudi_reader_free(r);
    hudi_tbl_free(t);
    if (mode == 2 && rc == HUDI_ECANCELED) return 0;
    if (mode == 2) return fail("a cancelled read did not fail with ECANCELED", &err);
    return rc < 0 ? fail(dir, &err) : 0;
}

static int check(const char *dir) {
    static int64_t ids1[4096], ids4[4096], n1, n4;
    static double vs1[4096], vs4[4096];
    if (read_all(dir, 1, ids1, vs1, &n1, 0) || read_all(dir, 4, ids4, vs4, &n4, 0)) return 1;
    if (n1 < 200 || n1 != n4 || memcmp(ids1, ids4, sizeof(int64_t) * (size_t)n1) != 0 ||
        memcmp(vs1, vs4, sizeof(double) * (size_t)n1) != 0) {
        fprintf(stderr, "read_tsan: %s: %lld rows with 1 thread, %lld with 4, or other rows\n", dir,
                (long long)n1, (long long)n4);
        return 1;
    }
    for (int rep = 0; rep < 5; rep++)
        if (read_all(dir, 4, ids4, vs4, &n4, 1) || read_all(dir, 4, ids4, vs4, &n4, 2)) return 1;
    return 0;
}

int main(void) {
    char wh[512];
    snprintf(wh, sizeof(wh), "/tmp/hudic-read-tsan-%ld", (long)getpid());
    hudi_session *s = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_session_options so = HUDI_SESSION_OPTIONS_INIT;
    if (hudi_session_open(&s, wh, &so, &err) < 0) return fail(wh, &err);
    int bad = make_table(s, "cow", "cow") || make_table(s, "mor", "mor");
    hudi_session_close(s);
    char dir[640];
    snprintf(dir, sizeof(dir), "%s/default/cow", wh);
    bad = bad || check(dir);
    snprintf(dir, sizeof(dir), "%s/default/mor", wh);
    bad = bad || check(dir);
    char cmd[700];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", wh);
    if (system(cmd) != 0) bad = 1;
    if (!bad) printf("read_tsan: ok\n");
    return bad;
}
