/* cdc_api_test.c - hudi_table_cdc (include/hudi/hudi_table.h): a CDC table written through the
 * public SQL API gives its changes as an Arrow stream of (op, ts_ms, before, after); a table
 * without CDC is refused. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "hudi/hudi_arrow.h"
#include "hudi/hudi_sql.h"
#include "hudi/hudi_table.h"
#include "support.h"

static void run(hudi_session *s, const char *sql) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_result *r = NULL;
    size_t used = 0;
    cr_assert_eq(hudi_session_execute(s, sql, strlen(sql), &used, &r, &err), 0, "%s: %s", sql,
                 err.message);
    hudi_result_free(r);
}

Test(cdc_api, changes_as_an_arrow_stream) {
    char dir[4096], sql[8192];
    hudi_error err = HUDI_ERROR_INIT;
    snprintf(dir, sizeof(dir), "%s", test_tmpdir());
    hudi_session *s = NULL;
    cr_assert_eq(hudi_session_open(&s, dir, NULL, &err), 0, "%s", err.message);
    snprintf(sql, sizeof(sql),
             "CREATE TABLE c (id INT, v STRING, ts BIGINT) USING hudi TBLPROPERTIES "
             "(primaryKey = 'id', preCombineField = 'ts', 'hoodie.table.cdc.enabled' = 'true') "
             "LOCATION '%s/c'",
             dir);
    run(s, sql);
    run(s, "INSERT INTO c VALUES (1, 'a', 1), (2, 'b', 1)");
    run(s, "UPDATE c SET v = 'x' WHERE id = 1");
    run(s, "DELETE FROM c WHERE id = 2");
    snprintf(sql, sizeof(sql),
             "CREATE TABLE p (id INT, ts BIGINT) USING hudi TBLPROPERTIES (primaryKey = 'id') "
             "LOCATION '%s/p'",
             dir);
    run(s, sql);
    hudi_session_close(s);

    hudi_table *t = NULL;
    snprintf(sql, sizeof(sql), "%s/c", dir);
    cr_assert_eq(hudi_table_open(&t, sql, NULL, &err), 0, "%s", err.message);
    struct ArrowArrayStream st;
    cr_assert_eq(hudi_table_cdc(t, "earliest", NULL, &st, &err), 0, "%s", err.message);
    hudi_table_free(t); /* the stream owns its rows */
    struct ArrowSchema sch;
    cr_assert_eq(st.get_schema(&st, &sch), 0);
    cr_assert_eq(sch.n_children, 4);
    cr_expect_str_eq(sch.children[0]->name, "op");
    cr_expect_str_eq(sch.children[3]->name, "after");
    sch.release(&sch);
    int64_t rows = 0;
    int ops[3] = {0, 0, 0};
    for (;;) {
        struct ArrowArray a;
        cr_assert_eq(st.get_next(&st, &a), 0);
        if (!a.release) break;
        const struct ArrowArray *op = a.children[0];
        const int32_t *off = op->buffers[1];
        const char *data = op->buffers[2];
        for (int64_t i = 0; i < a.length; i++) {
            char c = data[off[op->offset + i]];
            ops[c == 'i' ? 0 : c == 'u' ? 1 : 2]++;
        }
        rows += a.length;
        a.release(&a);
    }
    st.release(&st);
    cr_expect_eq(rows, 4);
    cr_expect(ops[0] == 2 && ops[1] == 1 && ops[2] == 1, "i %d u %d d %d", ops[0], ops[1], ops[2]);

    snprintf(sql, sizeof(sql), "%s/p", dir);
    cr_assert_eq(hudi_table_open(&t, sql, NULL, &err), 0, "%s", err.message);
    cr_expect_eq(hudi_table_cdc(t, NULL, NULL, &st, &err), HUDI_EINVAL);
    cr_expect(strstr(err.message, "isn't a CDC hudi table") != NULL, "%s", err.message);
    hudi_table_free(t);
}
