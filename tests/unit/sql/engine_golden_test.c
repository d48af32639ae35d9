/* engine_golden_test.c - the SQL engine end to end against tests/sql/engine: every NAME.sql
 * runs, statement by statement, through the public API (hudi_session_execute) in a fresh
 * warehouse, and the rendering of the results must equal NAME.out byte for byte:
 *   -- <first line of the statement>
 *   # col:type, ...        (statements that return rows)
 *   v1<TAB>v2 ...          (each row, values as spark-sql prints them)
 *   ok [N row(s) affected] | error ECODE: message (+ the caret lines)
 * In the .sql text, ${WAREHOUSE} is the warehouse folder, ${TMP} a scratch folder and ${DATA}
 * tests/data. The session time zone is UTC. HUDI_GOLDEN_UPDATE=1 rewrites the .out files
 * (review the diff before committing):
 *   HUDI_GOLDEN_UPDATE=1 build/asan/tests/test_sql --filter
 * "engine_golden/every_sql_file_matches_its_output" */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "columnar/arrow_c.h"
#include "hudi/hudi_arrow.h"
#include "hudi/hudi_sql.h"
#include "sql/engine.h"
#include "support.h"

#define GOLDEN_DIR HUDI_SOURCE_DIR "/tests/sql/engine"

static char *substitute(const char *src, size_t len, const char *warehouse, const char *tmp) {
    hudi_buf o = HUDI_BUF_INIT;
    for (size_t i = 0; i < len; i++) {
        if (src[i] == '$' && i + 1 < len && src[i + 1] == '{') {
            const char *end = memchr(src + i, '}', len - i);
            if (end) {
                size_t n = (size_t)(end - src - i - 2);
                const char *name = src + i + 2;
                const char *v = NULL;
                if (n == 9 && memcmp(name, "WAREHOUSE", 9) == 0) v = warehouse;
                if (n == 3 && memcmp(name, "TMP", 3) == 0) v = tmp;
                if (n == 4 && memcmp(name, "DATA", 4) == 0) v = HUDI_TEST_DATA_DIR;
                if (v) {
                    hudi_buf_puts(&o, v);
                    i = (size_t)(end - src);
                    continue;
                }
            }
        }
        hudi_buf_putc(&o, src[i]);
    }
    cr_assert(!o.failed);
    return o.data ? o.data : strdup("");
}

static void render_rows(hudi_buf *out, hudi_result *r) {
    struct ArrowArrayStream st;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_result_stream(r, &st, &err), 0, "%s", err.message);
    struct ArrowSchema sch;
    cr_assert_eq(st.get_schema(&st, &sch), 0);
    hudi_field schema;
    cr_assert_eq(hudi_arrow_import_schema(&schema, &sch, &err), 0, "%s", err.message);
    hudi_buf_puts(out, "# ");
    for (int32_t i = 0; i < schema.n_children; i++) {
        if (i) hudi_buf_puts(out, ", ");
        hudi_buf_printf(out, "%s:", schema.children[i].name);
        hudi_sql_type_spark_name(out, &schema.children[i]);
    }
    hudi_buf_putc(out, '\n');
    hudi_sql_ctx ctx;
    memset(&ctx, 0, sizeof(ctx));
    ctx.tz_name = "UTC";
    for (;;) {
        struct ArrowArray arr;
        int rc = st.get_next(&st, &arr);
        if (rc != 0) {
            hudi_buf_printf(out, "error while reading: %s\n", st.get_last_error(&st));
            break;
        }
        if (!arr.release) break;
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_arrow_import_batch(&b, &arr, &sch, &schema, &err), 0, "%s", err.message);
        for (int64_t row = 0; row < b->num_rows; row++) {
            for (int32_t c = 0; c < b->n_columns; c++) {
                if (c) hudi_buf_putc(out, '\t');
                hudi_sql_render_value(out, &ctx, b->columns[c], row);
            }
            hudi_buf_putc(out, '\n');
        }
        hudi_batch_free(b);
        arr.release(&arr);
    }
    sch.release(&sch);
    st.release(&st);
    hudi_field_dispose(&schema);
}

static void run_script(hudi_buf *out, const char *sql, const char *warehouse) {
    hudi_session *s = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    static const char *const conf[] = {"spark.sql.session.timeZone", "UTC", NULL};
    hudi_session_options o = HUDI_SESSION_OPTIONS_INIT;
    o.conf = conf;
    cr_assert_eq(hudi_session_open(&s, warehouse, &o, &err), 0, "%s", err.message);
    size_t len = strlen(sql), off = 0;
    while (off < len) {
        size_t used = 0;
        hudi_result *r = NULL;
        const char *stmt = sql + off;
        hudi_error_clear(&err);
        int rc = hudi_session_execute(s, stmt, len - off, &used, &r, &err);
        if (rc == 0 && !r) break;
        /* the statement's first line, comments and blanks skipped */
        const char *p = stmt;
        for (;;) {
            while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++;
            if ((p[0] == '-' && p[1] == '-') || p[0] == '#' || (p[0] == '/' && p[1] == '/')) {
                while (*p && *p != '\n') p++;
                continue;
            }
            break;
        }
        const char *eol = strchr(p, '\n');
        hudi_buf_puts(out, "-- ");
        hudi_buf_append(out, p, eol ? (size_t)(eol - p) : strlen(p));
        hudi_buf_putc(out, '\n');
        if (rc < 0) {
            hudi_buf_printf(out, "error %s: %s\n", hudi_error_name(rc), err.message);
            const char *ctx = hudi_session_error_context(s);
            if (*ctx) hudi_buf_printf(out, "%s", ctx);
        } else {
            if (hudi_result_has_rows(r)) render_rows(out, r);
            if (hudi_result_rows_affected(r) >= 0)
                hudi_buf_printf(out, "ok %lld row(s) affected\n",
                                (long long)hudi_result_rows_affected(r));
            else
                hudi_buf_puts(out, "ok\n");
            hudi_result_free(r);
        }
        hudi_buf_putc(out, '\n');
        cr_assert_gt(used, 0);
        off += used;
    }
    hudi_session_close(s);
}

static int check_file(const char *name, bool update) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", GOLDEN_DIR, name);
    size_t len;
    char *src = (char *)test_read_file(path, &len);
    cr_assert_not_null(src, "cannot read %s", path);
    char tmp[] = "/tmp/hudic_sql_golden_XXXXXX";
    cr_assert_not_null(mkdtemp(tmp));
    char warehouse[4200], scratch[4200];
    snprintf(warehouse, sizeof(warehouse), "%s/warehouse", tmp);
    snprintf(scratch, sizeof(scratch), "%s/scratch", tmp);
    char *sql = substitute(src, len, warehouse, scratch);
    hudi_buf out = HUDI_BUF_INIT;
    run_script(&out, sql, warehouse);
    cr_assert(!out.failed);
    /* paths and instants vary by run and machine: show them as ${TMPDIR}, ${DATA} and
     * ${INSTANT} */
    hudi_buf shown = HUDI_BUF_INIT;
    for (size_t i = 0; i < out.len; i++) {
        size_t d = 0;
        while (i + d < out.len && out.data[i + d] >= '0' && out.data[i + d] <= '9') d++;
        if (d == 17 && out.data[i] == '2' &&
            (i == 0 || out.data[i - 1] < '0' || out.data[i - 1] > '9')) {
            hudi_buf_puts(&shown, "${INSTANT}");
            i += d - 1;
            continue;
        }
        if (out.len - i >= strlen(tmp) && memcmp(out.data + i, tmp, strlen(tmp)) == 0) {
            hudi_buf_puts(&shown, "${TMPDIR}");
            i += strlen(tmp) - 1;
            continue;
        }
        size_t dl = strlen(HUDI_TEST_DATA_DIR);
        if (out.len - i >= dl && memcmp(out.data + i, HUDI_TEST_DATA_DIR, dl) == 0) {
            hudi_buf_puts(&shown, "${DATA}");
            i += dl - 1;
            continue;
        }
        hudi_buf_putc(&shown, out.data[i]);
    }
    size_t n = strlen(path);
    strcpy(path + n - 4, ".out");
    int bad = 0;
    if (update) {
        FILE *f = fopen(path, "wb");
        cr_assert_not_null(f, "cannot write %s", path);
        fwrite(shown.data, 1, shown.len, f);
        fclose(f);
    } else {
        size_t elen;
        char *expected = (char *)test_read_file(path, &elen);
        cr_expect_not_null(expected, "missing %s (run with HUDI_GOLDEN_UPDATE=1)", path);
        if (expected && (elen != shown.len || memcmp(expected, shown.data, elen) != 0)) {
            size_t i = 0;
            while (i < elen && i < shown.len && expected[i] == shown.data[i]) i++;
            size_t line = 1;
            for (size_t k = 0; k < i; k++) line += expected[k] == '\n';
            cr_expect_fail("%s differs from the engine's output at line %zu", path, line);
            bad = 1;
        }
        free(expected);
    }
    char cmd[4400];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
    cr_expect_eq(system(cmd), 0);
    hudi_buf_dispose(&out);
    hudi_buf_dispose(&shown);
    free(sql);
    free(src);
    return bad;
}

Test(engine_golden, every_sql_file_matches_its_output, .timeout = 600) {
    bool update = getenv("HUDI_GOLDEN_UPDATE") && strcmp(getenv("HUDI_GOLDEN_UPDATE"), "1") == 0;
    const char *only = getenv("HUDI_GOLDEN_ONLY");
    DIR *d = opendir(GOLDEN_DIR);
    cr_assert_not_null(d);
    struct dirent *e;
    int files = 0, bad = 0;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".sql") != 0) continue;
        if (only && !strstr(e->d_name, only)) continue;
        files++;
        bad += check_file(e->d_name, update);
    }
    closedir(d);
    cr_assert_geq(files, 1, "expected golden files in %s", GOLDEN_DIR);
    cr_assert_eq(bad, 0);
}
