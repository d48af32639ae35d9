/* lexer_test.c - tokens, positions, literal decoding and comments (src/sql/lexer.c). */
#include <criterion/criterion.h>

#include "sql/sql.h"

typedef struct lexed {
    hudi_arena arena;
    hudi_sql_lexer lx;
    const char *src;
} lexed;

static void start(lexed *l, const char *src) {
    memset(l, 0, sizeof(*l));
    l->src = src;
    hudi_sql_lexer_init(&l->lx, &l->arena, src, strlen(src));
}

static hudi_sql_token next(lexed *l) {
    hudi_sql_token t;
    hudi_sql_pos pos;
    hudi_error err = HUDI_ERROR_INIT;
    int rc = hudi_sql_lex(&l->lx, &t, &pos, &err);
    cr_assert_eq(rc, 0, "lex failed: %s", err.message);
    return t;
}

static void expect_tok(lexed *l, hudi_sql_tok_kind kind, const char *text, uint32_t line,
                       uint32_t col) {
    hudi_sql_token t = next(l);
    cr_assert_eq(t.kind, kind, "'%s': kind %d, expected %d", text, t.kind, kind);
    cr_assert_eq(t.text_len, strlen(text));
    cr_assert(memcmp(t.text, text, t.text_len) == 0, "got '%.*s', expected '%s'", (int)t.text_len,
              t.text, text);
    cr_assert_eq(t.pos.line, line, "'%s' line %u, expected %u", text, t.pos.line, line);
    cr_assert_eq(t.pos.col, col, "'%s' column %u, expected %u", text, t.pos.col, col);
}

static void expect_error(const char *src, const char *msg, uint32_t line, uint32_t col) {
    lexed l;
    start(&l, src);
    hudi_sql_token t;
    hudi_sql_pos pos;
    hudi_error err = HUDI_ERROR_INIT;
    int rc;
    while ((rc = hudi_sql_lex(&l.lx, &t, &pos, &err)) == 0 && t.kind != HUDI_SQL_TK_EOF) {
    }
    cr_assert_eq(rc, HUDI_ESQL, "no error for %s", src);
    cr_assert_str_eq(err.message, msg);
    cr_assert_eq(pos.line, line);
    cr_assert_eq(pos.col, col);
    hudi_arena_dispose(&l.arena);
}

Test(lexer, words_operators_and_positions) {
    lexed l;
    start(&l, "SELECT a,\n  `b``c` FROM t\n\twhere x<=>1;");
    expect_tok(&l, HUDI_SQL_TK_WORD, "SELECT", 1, 1);
    expect_tok(&l, HUDI_SQL_TK_WORD, "a", 1, 8);
    expect_tok(&l, HUDI_SQL_TK_OP, ",", 1, 9);
    expect_tok(&l, HUDI_SQL_TK_QIDENT, "b`c", 2, 3);
    expect_tok(&l, HUDI_SQL_TK_WORD, "FROM", 2, 10);
    expect_tok(&l, HUDI_SQL_TK_WORD, "t", 2, 15);
    expect_tok(&l, HUDI_SQL_TK_WORD, "where", 3, 2);
    expect_tok(&l, HUDI_SQL_TK_WORD, "x", 3, 8);
    expect_tok(&l, HUDI_SQL_TK_OP, "<=>", 3, 9);
    expect_tok(&l, HUDI_SQL_TK_NUMBER, "1", 3, 12);
    expect_tok(&l, HUDI_SQL_TK_OP, ";", 3, 13);
    cr_assert_eq(next(&l).kind, HUDI_SQL_TK_EOF);
    hudi_arena_dispose(&l.arena);
}

Test(lexer, columns_count_characters_not_bytes) {
    lexed l;
    start(&l, "SELECT 'é€', x");
    expect_tok(&l, HUDI_SQL_TK_WORD, "SELECT", 1, 1);
    expect_tok(&l, HUDI_SQL_TK_STRING, "é€", 1, 8);
    expect_tok(&l, HUDI_SQL_TK_OP, ",", 1, 12);
    expect_tok(&l, HUDI_SQL_TK_WORD, "x", 1, 14);
    hudi_arena_dispose(&l.arena);
}

Test(lexer, number_suffixes) {
    static const struct {
        const char *src;
        hudi_sql_lit_kind lit;
        const char *digits;
    } cases[] = {
        {"12", HUDI_SQL_L_INT, "12"},
        {"12L", HUDI_SQL_L_BIGINT, "12"},
        {"12s", HUDI_SQL_L_SMALLINT, "12"},
        {"12Y", HUDI_SQL_L_TINYINT, "12"},
        {"1.5", HUDI_SQL_L_DECIMAL, "1.5"},
        {".5", HUDI_SQL_L_DECIMAL, ".5"},
        {"5.", HUDI_SQL_L_DECIMAL, "5."},
        {"1.5D", HUDI_SQL_L_DOUBLE, "1.5"},
        {"1.5f", HUDI_SQL_L_FLOAT, "1.5"},
        {"1.5BD", HUDI_SQL_L_BIGDEC, "1.5"},
        {"7bd", HUDI_SQL_L_BIGDEC, "7"},
        {"1e3", HUDI_SQL_L_DOUBLE, "1e3"},
        {"1.5E-2", HUDI_SQL_L_DOUBLE, "1.5E-2"},
        {"2e+3D", HUDI_SQL_L_DOUBLE, "2e+3"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        lexed l;
        start(&l, cases[i].src);
        hudi_sql_token t = next(&l);
        cr_assert_eq(t.kind, HUDI_SQL_TK_NUMBER, "%s", cases[i].src);
        cr_assert_eq(t.lit, cases[i].lit, "%s: kind %d", cases[i].src, t.lit);
        cr_assert_eq(t.text_len, strlen(cases[i].digits), "%s", cases[i].src);
        cr_assert(memcmp(t.text, cases[i].digits, t.text_len) == 0, "%s", cases[i].src);
        cr_assert_eq(next(&l).kind, HUDI_SQL_TK_EOF, "%s: trailing token", cases[i].src);
        hudi_arena_dispose(&l.arena);
    }
}

Test(lexer, digits_followed_by_letters_form_a_word) {
    lexed l;
    start(&l, "1a 12Lx 1ex 1.5x");
    expect_tok(&l, HUDI_SQL_TK_WORD, "1a", 1, 1);
    expect_tok(&l, HUDI_SQL_TK_WORD, "12Lx", 1, 4);
    expect_tok(&l, HUDI_SQL_TK_WORD, "1ex", 1, 9);
    expect_tok(&l, HUDI_SQL_TK_NUMBER, "1.5", 1, 13);
    expect_tok(&l, HUDI_SQL_TK_WORD, "x", 1, 16);
    hudi_arena_dispose(&l.arena);
}

Test(lexer, string_escapes) {
    lexed l;
    start(&l, "'a\\'b' \"q\\\"\" 'n\\nt\\tz\\0' '\\u00e9' '\\101\\%\\_\\q' \"it's\" 'x'");
    hudi_sql_token t = next(&l);
    cr_assert_eq(t.kind, HUDI_SQL_TK_STRING);
    cr_assert_str_eq(t.text, "a'b");
    cr_assert_str_eq(next(&l).text, "q\"");
    t = next(&l);
    cr_assert_eq(t.text_len, 6);
    cr_assert(memcmp(t.text, "n\nt\tz\0", 6) == 0);
    cr_assert_str_eq(next(&l).text, "\xc3\xa9");
    cr_assert_str_eq(next(&l).text, "A\\%\\_q");
    cr_assert_str_eq(next(&l).text, "it's");
    hudi_arena_dispose(&l.arena);
}

Test(lexer, binary_literal) {
    lexed l;
    start(&l, "X'0aFF' x''");
    hudi_sql_token t = next(&l);
    cr_assert_eq(t.kind, HUDI_SQL_TK_BINARY);
    cr_assert_eq(t.text_len, 2);
    cr_assert_eq((unsigned char)t.text[0], 0x0a);
    cr_assert_eq((unsigned char)t.text[1], 0xff);
    t = next(&l);
    cr_assert_eq(t.kind, HUDI_SQL_TK_BINARY);
    cr_assert_eq(t.text_len, 0);
    hudi_arena_dispose(&l.arena);
}

Test(lexer, comments_and_hints) {
    lexed l;
    start(&l, "a -- to the end\n/* x /* nested */ still */ b /*+ HINT(1) */ c");
    expect_tok(&l, HUDI_SQL_TK_WORD, "a", 1, 1);
    expect_tok(&l, HUDI_SQL_TK_WORD, "b", 2, 28);
    expect_tok(&l, HUDI_SQL_TK_HINT_START, "/*+", 2, 30);
    expect_tok(&l, HUDI_SQL_TK_WORD, "HINT", 2, 34);
    expect_tok(&l, HUDI_SQL_TK_OP, "(", 2, 38);
    expect_tok(&l, HUDI_SQL_TK_NUMBER, "1", 2, 39);
    expect_tok(&l, HUDI_SQL_TK_OP, ")", 2, 40);
    expect_tok(&l, HUDI_SQL_TK_HINT_END, "*/", 2, 42);
    expect_tok(&l, HUDI_SQL_TK_WORD, "c", 2, 45);
    hudi_arena_dispose(&l.arena);
}

Test(lexer, hash_and_slash_lines_only_between_statements) {
    lexed l;
    start(&l, "# doc comment\n  // another\nSELECT 1;\n# again\nx");
    expect_tok(&l, HUDI_SQL_TK_WORD, "SELECT", 3, 1);
    expect_tok(&l, HUDI_SQL_TK_NUMBER, "1", 3, 8);
    expect_tok(&l, HUDI_SQL_TK_OP, ";", 3, 9);
    expect_tok(&l, HUDI_SQL_TK_WORD, "x", 5, 1);
    hudi_arena_dispose(&l.arena);
    expect_error("SELECT 1 # not here", "unexpected character '#'", 1, 10);
}

Test(lexer, errors_name_their_start) {
    expect_error("SELECT 'abc", "unterminated string literal", 1, 8);
    expect_error("x\n  /* /* */", "unterminated comment", 2, 3);
    expect_error("`abc", "unterminated quoted identifier", 1, 1);
    expect_error("X'0'", "binary literal needs an even number of digits", 1, 1);
    expect_error("X'0G'", "invalid hex digit in binary literal", 1, 1);
    expect_error("a\n b @", "unexpected character '@'", 2, 4);
    expect_error("a，b", "unexpected character '，'", 1, 2);
    expect_error("a \x01", "unexpected byte 0x01", 1, 3);
}

Test(lexer, input_need_not_be_nul_terminated) {
    /* the text ends inside a number, a word and a string: never read past len */
    static const char buf[] = "12345abc'xy";
    for (size_t n = 1; n < sizeof(buf) - 1; n++) {
        char *copy = malloc(n);
        memcpy(copy, buf, n);
        lexed l;
        memset(&l, 0, sizeof(l));
        hudi_sql_lexer_init(&l.lx, &l.arena, copy, n);
        hudi_sql_token t;
        hudi_sql_pos pos;
        hudi_error err = HUDI_ERROR_INIT;
        int rc;
        while ((rc = hudi_sql_lex(&l.lx, &t, &pos, &err)) == 0 && t.kind != HUDI_SQL_TK_EOF) {
        }
        cr_assert(rc == 0 || n >= 9, "n=%zu: %s", n, err.message);
        hudi_arena_dispose(&l.arena);
        free(copy);
    }
}
