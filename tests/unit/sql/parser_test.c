/* parser_test.c - statements, errors with their positions, recovery, limits and allocation
 * failure (src/sql/parser.c, parse_stmt.c). The golden files cover the grammar at large. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "sql/sql.h"
#include "support.h"

/* Parses one statement and returns its rendering (caller frees), or the error message plus
 * the context lines. */
static char *render(const char *sql) {
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_sql_stmt *s;
    hudi_sql_pos pos;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_buf out = HUDI_BUF_INIT;
    int rc = hudi_sql_parse(&s, &arena, sql, strlen(sql), &pos, &err);
    if (rc == 0) {
        hudi_sql_ast_print(&out, s);
    } else {
        hudi_buf_printf(&out, "%s\n", err.message);
        hudi_sql_error_context(&out, sql, strlen(sql), pos);
    }
    hudi_arena_dispose(&arena);
    return hudi_buf_detach(&out);
}

static void expect(const char *sql, const char *want) {
    char *got = render(sql);
    cr_assert_str_eq(got, want, "%s", sql);
    hudi_free(got);
}

Test(parser, error_has_position_and_caret) {
    expect("SELECT * FORM t", "line 1, column 10: expected end of statement, found 'FORM'\n"
                              "SELECT * FORM t\n"
                              "         ^");
    expect("SELECT a\nFROM t\nWHERE a = = 1",
           "line 3, column 11: expected an expression, found '='\n"
           "WHERE a = = 1\n"
           "          ^");
    /* tabs are kept in the caret line so it lines up under a tab-indented statement */
    expect("\tSELECT\t(1", "line 1, column 11: expected ')', found end of input\n"
                           "\tSELECT\t(1\n"
                           "\t      \t  ^");
}

Test(parser, one_statement_only) {
    expect("SELECT 1;;", "(select (items 1))");
    expect("SELECT 1; SELECT 2",
           "line 1, column 11: expected end of input (one statement only), found 'SELECT'\n"
           "SELECT 1; SELECT 2\n"
           "          ^");
    expect("  -- nothing\n", "line 2, column 1: empty statement\n\n^");
}

Test(parser, precedence_and_literals) {
    expect("SELECT 1 + 2 * 3 - 4 || 'x' = 'y' AND NOT a OR b",
           "(select (items (or (and (= (|| (- (+ 1 (* 2 3)) 4) 'x') 'y') (not a)) b)))");
    expect("SELECT -2147483648, - 1, -x, 2 - -1, - - 1",
           "(select (items -2147483648 -1 (- x) (- 2 -1) (- -1)))");
    expect("SELECT a BETWEEN 1 AND 2 AND b", "(select (items (and (between a 1 2) b)))");
    expect("SELECT a = 1 IS NULL", "(select (items (is (= a 1) null)))");
    expect("SELECT 'a' \"b\" 'c'", "(select (items 'abc'))");
}

Test(parser, nested_type_closes_split_shift_tokens) {
    expect("SELECT CAST(x AS ARRAY<ARRAY<MAP<STRING,ARRAY<INT>>>>)",
           "(select (items (cast x (array (array (map string (array int)))))))");
}

Test(parser, set_keeps_the_raw_value_and_strips_one_quote_level) {
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_sql_stmt *s;
    hudi_error err = HUDI_ERROR_INIT;
    const char *sql = "SET hoodie.spark.sql.insert.into.operation = 'bulk_insert'  ";
    cr_assert_eq(hudi_sql_parse(&s, &arena, sql, strlen(sql), NULL, &err), 0, "%s", err.message);
    cr_assert_eq(s->kind, HUDI_SQL_S_SET);
    cr_assert_eq(s->set, HUDI_SQL_SET_ASSIGN);
    cr_assert_str_eq(s->key, "hoodie.spark.sql.insert.into.operation");
    cr_assert_str_eq(s->value, "bulk_insert");
    cr_assert_str_eq(s->value_raw, "'bulk_insert'");
    sql = "set a.b=x y -- comment\n;";
    cr_assert_eq(hudi_sql_parse(&s, &arena, sql, strlen(sql), NULL, &err), 0, "%s", err.message);
    cr_assert_str_eq(s->key, "a.b");
    cr_assert_str_eq(s->value, "x y");
    hudi_arena_dispose(&arena);
}

Test(parser, script_resumes_after_an_error) {
    const char *sql = "SELECT 1;\nSELECT FROM;\nSELECT 'x\n;\nSELECT 2 @;\nSELECT 3;";
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_sql_parser p;
    hudi_sql_parser_init(&p, &arena, sql, strlen(sql));
    hudi_sql_stmt *s;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_sql_parser_next(&p, &s, &err), 1);
    cr_assert_eq(s->pos.line, 1);
    cr_assert_eq(s->src_end, 8, "statement text is [0, 8)");
    cr_assert_eq(hudi_sql_parser_next(&p, &s, &err), HUDI_ESQL);
    cr_assert_str_eq(err.message, "line 2, column 8: expected an expression, found 'FROM'");
    cr_assert_eq(p.error_pos.offset, 17);
    /* the unterminated string swallows the rest of the text */
    cr_assert_eq(hudi_sql_parser_next(&p, &s, &err), HUDI_ESQL);
    cr_assert_str_eq(err.message, "line 3, column 8: unterminated string literal");
    cr_assert_eq(hudi_sql_parser_next(&p, &s, &err), 0);
    hudi_arena_dispose(&arena);

    sql = "SELECT 2 @ 1;\nSELECT 3;";
    hudi_sql_parser_init(&p, &arena, sql, strlen(sql));
    cr_assert_eq(hudi_sql_parser_next(&p, &s, &err), HUDI_ESQL);
    cr_assert_str_eq(err.message, "line 1, column 10: unexpected character '@'");
    cr_assert_eq(hudi_sql_parser_next(&p, &s, &err), 1);
    cr_assert_eq(s->pos.line, 2);
    cr_assert_eq(hudi_sql_parser_next(&p, &s, &err), 0);
    hudi_arena_dispose(&arena);
}

Test(parser, statement_fields) {
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_sql_stmt *s;
    hudi_error err = HUDI_ERROR_INIT;
    const char *sql = "insert overwrite table db.t partition (dt = '2021-12-09', hh) (a, b) "
                      "select 1, 2";
    cr_assert_eq(hudi_sql_parse(&s, &arena, sql, strlen(sql), NULL, &err), 0, "%s", err.message);
    cr_assert_eq(s->kind, HUDI_SQL_S_INSERT);
    cr_assert(s->overwrite);
    cr_assert_eq(s->name.parts.len, 2);
    cr_assert_str_eq(HUDI_SQL_AT(s->name.parts, char, 0), "db");
    cr_assert_eq(s->partition->len, 2);
    hudi_sql_part_kv *kv = HUDI_SQL_AT(*s->partition, hudi_sql_part_kv, 1);
    cr_assert_str_eq(kv->name, "hh");
    cr_assert_null(kv->value);
    cr_assert_eq(s->insert_columns.len, 2);
    cr_assert_eq(s->query->kind, HUDI_SQL_Q_SELECT);

    sql = "CREATE TABLE t (d DECIMAL(10, 2) NOT NULL COMMENT 'c') USING hudi";
    cr_assert_eq(hudi_sql_parse(&s, &arena, sql, strlen(sql), NULL, &err), 0, "%s", err.message);
    hudi_sql_coldef *c = HUDI_SQL_AT(s->columns, hudi_sql_coldef, 0);
    cr_assert_eq(c->type->kind, HUDI_SQL_T_DECIMAL);
    cr_assert_eq(c->type->precision, 10);
    cr_assert_eq(c->type->scale, 2);
    cr_assert(c->not_null);
    cr_assert_str_eq(c->comment, "c");
    cr_assert_eq(c->pos.col, 17);
    cr_assert_str_eq(s->provider, "hudi");
    hudi_arena_dispose(&arena);
}

Test(parser, deep_nesting_is_an_error_not_a_crash) {
    size_t n = 100000;
    char *sql = malloc(n * 3 + 16);
    strcpy(sql, "SELECT ");
    size_t len = 7;
    for (size_t i = 0; i < n; i++) sql[len++] = '(';
    sql[len++] = '1';
    for (size_t i = 0; i < n; i++) sql[len++] = ')';
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_sql_stmt *s;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_sql_parse(&s, &arena, sql, len, NULL, &err), HUDI_ESQL);
    cr_assert(strstr(err.message, "statement nested too deeply"), "%s", err.message);
    hudi_arena_dispose(&arena);
    /* unary operators, NOT and nested queries recurse too */
    static const char *const prefixes[] = {"~", "- ", "NOT ", "(SELECT "};
    for (size_t k = 0; k < sizeof(prefixes) / sizeof(prefixes[0]); k++) {
        len = 7;
        size_t plen = strlen(prefixes[k]);
        for (size_t i = 0; i < n / 4; i++, len += plen) memcpy(sql + len, prefixes[k], plen);
        sql[len++] = 'x';
        cr_assert_eq(hudi_sql_parse(&s, &arena, sql, len, NULL, &err), HUDI_ESQL);
        cr_assert(strstr(err.message, "statement nested too deeply"), "%s: %s", prefixes[k],
                  err.message);
        hudi_arena_dispose(&arena);
    }
    free(sql);
}

Test(parser, every_allocation_failure_is_reported) {
    const char *sql = "MERGE INTO t USING (SELECT 'a' 'b' AS k, X'00' AS b) s ON t.k = s.k "
                      "WHEN MATCHED THEN UPDATE SET v = `q``x` WHEN NOT MATCHED THEN INSERT *";
    test_alloc_faults faults;
    hudi_allocator a = test_failing_allocator(&faults);
    int ok_at = 0;
    for (int fail = 1; fail < 10000 && !ok_at; fail++) {
        faults = (test_alloc_faults){.fail_at = fail};
        hudi_set_allocator(&a);
        hudi_arena arena = HUDI_ARENA_INIT;
        hudi_sql_stmt *s;
        hudi_error err = HUDI_ERROR_INIT;
        int rc = hudi_sql_parse(&s, &arena, sql, strlen(sql), NULL, &err);
        hudi_arena_dispose(&arena);
        hudi_set_allocator(NULL);
        if (faults.count < fail) {
            cr_assert_eq(rc, 0, "%s", err.message);
            ok_at = fail;
        } else {
            cr_assert_eq(rc, HUDI_ENOMEM, "allocation %d: rc %d (%s)", fail, rc, err.message);
        }
    }
    cr_assert_gt(ok_at, 10);
}
