/* topn_test.c - the top-N dynamic filter (plan.c, exec_sort.c, scan.c, read/read.c,
 * format/parquet/reader_dynamic.c): every query returns the same rows with the filter as
 * without it (SET hudic.topn.dynamic_filter=false), over ties, nulls first and last, NaN,
 * several sort keys, LIMIT beyond the table, OFFSET, partitioned, Parquet and merge-on-read
 * tables; and the filter's counters show that it skips row groups and drops rows where it
 * should, and does nothing on slices with log files. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "format/parquet/parquet.h"
#include "sql/engine.h"
#include "sql/session.h"
#include "sql/sql.h"
#include "support.h"

typedef struct env {
    hudi_sql_session *s;
    char dir[512];
} env;

/* What the filter of the last query did (zero when there was none). */
typedef struct counts {
    bool planned;
    int64_t row_groups, pages, rows;
} counts;

static void env_open(env *e) {
    hudi_error err = HUDI_ERROR_INIT;
    snprintf(e->dir, sizeof(e->dir), "%s", test_tmpdir());
    char wh[600];
    snprintf(wh, sizeof(wh), "%s/warehouse", e->dir);
    cr_assert_eq(hudi_sql_session_open(&e->s, wh, &err), 0, "%s", err.message);
}

static const hudi_sql_scan_spec *find_scan(const hudi_sql_plan *p) {
    if (!p) return NULL;
    if (p->kind == HUDI_SQL_P_SCAN) return p->scan;
    const hudi_sql_scan_spec *s = find_scan(p->left);
    return s ? s : find_scan(p->right);
}

/* Runs one statement; a query's rows are rendered one per line (values TAB-separated) into
 * a malloc'ed string (NULL for other statements). batch_rows > 0 sets the rows per batch. */
static char *run(env *e, const char *sql, int64_t batch_rows, counts *c) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_sql_result r;
    hudi_sql_result_init(&r, e->s);
    hudi_sql_stmt *st = NULL;
    hudi_sql_pos pos;
    cr_assert_eq(hudi_sql_parse(&st, &r.arena, sql, strlen(sql), &pos, &err), 0, "%s: %s", sql,
                 err.message);
    cr_assert_eq(hudi_sql_execute_stmt(e->s, st, &r, &err), 0, "%s: %s", sql, err.message);
    char *text = NULL;
    if (c) memset(c, 0, sizeof(*c));
    if (r.plan) {
        if (batch_rows > 0) r.ctx.batch_rows = batch_rows;
        hudi_sql_oper *op = NULL;
        cr_assert_eq(hudi_sql_op_open(&op, &r.ctx, r.plan, &err), 0, "%s: %s", sql, err.message);
        hudi_buf out = HUDI_BUF_INIT;
        for (;;) {
            hudi_batch *b = NULL;
            cr_assert_eq(hudi_sql_op_next(op, &b, &err), 0, "%s: %s", sql, err.message);
            if (!b) break;
            for (int64_t i = 0; i < b->num_rows; i++) {
                for (int32_t k = 0; k < b->n_columns; k++) {
                    if (k) hudi_buf_putc(&out, '\t');
                    hudi_sql_render_value(&out, &r.ctx, b->columns[k], i);
                }
                hudi_buf_putc(&out, '\n');
            }
        }
        hudi_sql_op_free(op);
        const hudi_sql_scan_spec *spec = find_scan(r.plan);
        if (c && spec && spec->dynamic) {
            c->planned = true;
            c->row_groups = atomic_load(&spec->dynamic->row_groups_skipped);
            c->pages = atomic_load(&spec->dynamic->pages_skipped);
            c->rows = atomic_load(&spec->dynamic->rows_dropped);
        }
        cr_assert(!out.failed);
        text = strdup(out.data ? out.data : "");
        hudi_buf_dispose(&out);
    }
    hudi_sql_result_dispose(&r);
    return text;
}

static void exec(env *e, const char *sql) { free(run(e, sql, 0, NULL)); }

/* The query's rows with the filter and without it must be equal; returns the counters (with
 * the filter) summed over batch sizes 2 and the default. */
static counts same_rows(env *e, const char *sql) {
    counts sum = {0}, c;
    int64_t sizes[] = {2, 0};
    for (size_t k = 0; k < 2; k++) {
        exec(e, "SET hudic.topn.dynamic_filter=false");
        char *want = run(e, sql, sizes[k], &c);
        cr_assert(!c.planned, "%s: a filter while disabled", sql);
        exec(e, "SET hudic.topn.dynamic_filter=true");
        char *got = run(e, sql, sizes[k], &c);
        cr_assert_str_eq(got, want, "%s (batch rows %lld)", sql, (long long)sizes[k]);
        free(want);
        free(got);
        sum.planned |= c.planned;
        sum.row_groups += c.row_groups;
        sum.pages += c.pages;
        sum.rows += c.rows;
    }
    return sum;
}

TestSuite(topn_dynamic);

static void make_tables(env *e) {
    exec(e, "CREATE TABLE t (id INT, d DOUBLE, f FLOAT, i BIGINT, dt DATE, ts TIMESTAMP, "
            "s STRING, p STRING) USING hudi PARTITIONED BY (p) "
            "TBLPROPERTIES (primaryKey = 'id', preCombineField = 'i')");
    /* several commits: several files per partition, with ties, nulls, NaN, -0.0 */
    exec(e, "INSERT INTO t VALUES "
            "(1, 5.0, 5.0, 50, DATE'2024-01-05', TIMESTAMP'2024-01-05 00:00:00', 'a', 'x'),"
            "(2, 7.5, 7.5, 75, DATE'2024-01-07', TIMESTAMP'2024-01-07 00:00:00', 'b', 'y'),"
            "(3, NULL, NULL, NULL, NULL, NULL, 'c', 'x'),"
            "(4, 7.5, 7.5, 75, DATE'2024-01-07', TIMESTAMP'2024-01-07 00:00:00', 'd', 'y'),"
            "(5, -1.0, -1.0, -10, DATE'2023-12-31', TIMESTAMP'2023-12-31 00:00:00', 'e', 'x')");
    exec(e, "INSERT INTO t VALUES "
            "(6, CAST('NaN' AS DOUBLE), CAST('NaN' AS FLOAT), 90, DATE'2024-02-01', "
            "TIMESTAMP'2024-02-01 00:00:00', 'f', 'x'),"
            "(7, 7.5, 7.5, 75, DATE'2024-01-07', TIMESTAMP'2024-01-07 00:00:00', 'g', 'x'),"
            "(8, -0.0, -0.0, 0, DATE'2024-01-01', TIMESTAMP'2024-01-01 00:00:00', 'h', 'y'),"
            "(9, 0.0, 0.0, 0, DATE'2024-01-01', TIMESTAMP'2024-01-01 00:00:00', 'i', 'y'),"
            "(10, NULL, NULL, NULL, NULL, NULL, 'j', 'y')");
    exec(e, "INSERT INTO t VALUES "
            "(11, 100.0, 100.0, 1000, DATE'2025-01-01', TIMESTAMP'2025-01-01 00:00:00', 'k', 'z'),"
            "(12, 3.0, 3.0, 30, DATE'2024-01-03', TIMESTAMP'2024-01-03 00:00:00', 'l', 'z'),"
            "(13, 3.0, 3.0, 30, DATE'2024-01-03', TIMESTAMP'2024-01-03 00:00:00', 'm', 'x'),"
            "(14, 8.0, 8.0, 80, DATE'2024-01-08', TIMESTAMP'2024-01-08 00:00:00', 'n', 'z'),"
            "(15, CAST('NaN' AS DOUBLE), CAST('NaN' AS FLOAT), 95, DATE'2024-02-02', "
            "TIMESTAMP'2024-02-02 00:00:00', 'o', 'y')");
}

Test(topn_dynamic, rows_equal_with_and_without_the_filter) {
    env e;
    env_open(&e);
    make_tables(&e);
    const char *cols[] = {"d", "f", "i", "dt", "ts", "id"};
    const char *orders[] = {"ASC", "DESC", "ASC NULLS LAST", "DESC NULLS FIRST"};
    const int limits[] = {1, 2, 3, 100};
    char sql[512];
    for (size_t c = 0; c < HUDI_ARRAY_LEN(cols); c++)
        for (size_t o = 0; o < HUDI_ARRAY_LEN(orders); o++)
            for (size_t l = 0; l < HUDI_ARRAY_LEN(limits); l++) {
                snprintf(sql, sizeof(sql), "SELECT id, s, %s FROM t ORDER BY %s %s LIMIT %d",
                         cols[c], cols[c], orders[o], limits[l]);
                counts n = same_rows(&e, sql);
                cr_assert(n.planned, "%s: no filter planned", sql);
                /* more keys: ties on the first one are decided by the second */
                snprintf(sql, sizeof(sql),
                         "SELECT id, s, %s FROM t ORDER BY %s %s, s DESC LIMIT %d", cols[c],
                         cols[c], orders[o], limits[l]);
                same_rows(&e, sql);
                snprintf(sql, sizeof(sql),
                         "SELECT s FROM t WHERE p <> 'q' ORDER BY %s %s, id LIMIT %d OFFSET 2",
                         cols[c], orders[o], limits[l]);
                cr_assert(same_rows(&e, sql).planned, "%s", sql);
            }
    /* not a plain column, an aggregate or a join below: no filter */
    const char *none[] = {
        "SELECT id FROM t ORDER BY d + 1 DESC LIMIT 2",
        "SELECT p, max(d) AS m FROM t GROUP BY p ORDER BY m DESC LIMIT 1",
        "SELECT a.id FROM t a JOIN t b ON a.id = b.id ORDER BY a.d DESC LIMIT 2",
        "SELECT id FROM t ORDER BY s DESC LIMIT 2",
    };
    for (size_t i = 0; i < HUDI_ARRAY_LEN(none); i++)
        cr_assert(!same_rows(&e, none[i]).planned, "%s", none[i]);
    hudi_sql_session_close(e.s);
}

/* Four partitions of disjoint ranges (one file each): whatever order the files are read in, a
 * file whose range is not a new low (ascending) or a new high (descending) when it comes is
 * skipped by its statistics, so the two orders skip at least three row groups together. The
 * files are read one at a time: a parallel read opens files ahead of the boundary and skips
 * less (its rows are the same; the other tests run with the default threads). */
Test(topn_dynamic, row_groups_and_rows_are_skipped) {
    env e;
    env_open(&e);
    exec(&e, "SET hudic.threads = 1");
    exec(&e, "CREATE TABLE r (id INT, v BIGINT, w DOUBLE, s STRING, g INT) USING hudi "
             "PARTITIONED BY (g) TBLPROPERTIES (primaryKey = 'id', preCombineField = 'v')");
    char sql[4096];
    for (int f = 0; f < 4; f++) {
        int n = snprintf(sql, sizeof(sql), "INSERT INTO r VALUES ");
        for (int i = 0; i < 10; i++) {
            int id = f * 10 + i + 1;
            n += snprintf(sql + n, sizeof(sql) - (size_t)n, "%s(%d, %d, %d.5, 's%d', %d)",
                          i ? "," : "", id, id * 7 % 10 + f * 10, id * 7 % 10 + f * 10, id, f);
        }
        exec(&e, sql);
    }
    counts asc = same_rows(&e, "SELECT id, s FROM r ORDER BY v LIMIT 3");
    counts desc = same_rows(&e, "SELECT id, s FROM r ORDER BY v DESC LIMIT 3");
    cr_assert(asc.planned && desc.planned);
    cr_assert_geq(asc.row_groups + desc.row_groups, 3 * 2, "%lld + %lld row groups",
                  (long long)asc.row_groups, (long long)desc.row_groups);
    /* doubles: written with a NaN count of 0, so descending skips too */
    counts wd = same_rows(&e, "SELECT id, s FROM r ORDER BY w DESC LIMIT 3");
    counts wa = same_rows(&e, "SELECT id, s FROM r ORDER BY w ASC LIMIT 3");
    cr_assert_geq(wd.row_groups + wa.row_groups, 3 * 2);
    /* two rows per batch: rows after the boundary are dropped inside a file */
    cr_assert_gt(asc.rows + desc.rows, 0);
    hudi_sql_session_close(e.s);
}

/* A merge-on-read table whose every slice has log files: the filter is planned but never
 * applied (a log record could then win over a dropped base row), and the rows are those of
 * the unfiltered read. */
Test(topn_dynamic, not_applied_to_slices_with_logs) {
    env e;
    env_open(&e);
    exec(&e, "CREATE TABLE m (id INT, v BIGINT, ts BIGINT) USING hudi "
             "TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts')");
    exec(&e, "INSERT INTO m VALUES (1, 10, 5), (2, 20, 5), (3, 30, 5), (4, 40, 5), (5, 50, 5),"
             "(6, 60, 5), (7, 70, 5), (8, 80, 5)");
    /* an older version of key 8 (loses to the base row) and a newer one of key 1 */
    exec(&e, "INSERT INTO m VALUES (8, 1, 1), (1, 99, 9)");
    counts c = same_rows(&e, "SELECT id, v FROM m ORDER BY v LIMIT 2");
    cr_assert(c.planned);
    cr_assert_eq(c.row_groups + c.pages + c.rows, 0);
    c = same_rows(&e, "SELECT id, v FROM m ORDER BY v DESC LIMIT 2");
    cr_assert(c.planned);
    cr_assert_eq(c.row_groups + c.pages + c.rows, 0);
    hudi_sql_session_close(e.s);
}

/* A Parquet table (CREATE TABLE ... USING parquet over files hudic wrote) and a partitioned
 * one whose partition column is the sort key (partition values come from the folder: no
 * filter on them). */
Test(topn_dynamic, parquet_tables) {
    env e;
    env_open(&e);
    make_tables(&e);
    char sql[1024];
    snprintf(sql, sizeof(sql), "CREATE TABLE pq USING parquet LOCATION '%s/warehouse/default/t'",
             e.dir);
    free(run(&e, sql, 0, NULL));
    cr_assert(same_rows(&e, "SELECT id, d FROM pq ORDER BY d DESC LIMIT 3").planned);
    cr_assert(same_rows(&e, "SELECT id, i FROM pq ORDER BY i LIMIT 4").planned);
    same_rows(&e, "SELECT id, p FROM pq ORDER BY p DESC, id LIMIT 4");
    same_rows(&e, "SELECT id, p FROM t ORDER BY p DESC, id LIMIT 4");
    hudi_sql_session_close(e.s);
}
