/* golden_test.c - the parser against tests/sql/parse: every NAME.sql is parsed statement by
 * statement and the rendering (the AST, or the error with its line and caret) must equal
 * NAME.ast byte for byte. HUDI_GOLDEN_UPDATE=1 rewrites the .ast files instead (review the
 * diff before committing):
 *   HUDI_GOLDEN_UPDATE=1 build/asan/tests/test_sql --filter 'golden/every*' */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

#include "sql/sql.h"
#include "support.h"

#define GOLDEN_DIR HUDI_SOURCE_DIR "/tests/sql/parse"

/* One block per statement: "-- line L" then the AST or "error: ..." with the caret lines. */
static void render_script(hudi_buf *out, const char *src, size_t len) {
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_sql_parser p;
    hudi_sql_parser_init(&p, &arena, src, len);
    for (;;) {
        hudi_sql_stmt *s = NULL;
        hudi_error err = HUDI_ERROR_INIT;
        int rc = hudi_sql_parser_next(&p, &s, &err);
        if (rc == 0) break;
        if (rc < 0) {
            hudi_buf_printf(out, "-- error\n%s\n", err.message);
            hudi_sql_error_context(out, src, len, p.error_pos);
        } else {
            hudi_buf_printf(out, "-- line %u\n", s->pos.line);
            hudi_sql_ast_print(out, s);
        }
        hudi_buf_puts(out, "\n\n");
    }
    hudi_arena_dispose(&arena);
}

static int check_file(const char *name, bool update) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", GOLDEN_DIR, name);
    size_t len;
    char *src = (char *)test_read_file(path, &len);
    cr_assert_not_null(src, "cannot read %s", path);
    hudi_buf out = HUDI_BUF_INIT;
    render_script(&out, src, len);
    cr_assert(!out.failed);
    size_t n = strlen(path);
    strcpy(path + n - 4, ".ast");
    int bad = 0;
    if (update) {
        FILE *f = fopen(path, "wb");
        cr_assert_not_null(f, "cannot write %s", path);
        fwrite(out.data, 1, out.len, f);
        fclose(f);
    } else {
        size_t elen;
        char *expected = (char *)test_read_file(path, &elen);
        cr_expect_not_null(expected, "missing %s (run with HUDI_GOLDEN_UPDATE=1)", path);
        if (expected && (elen != out.len || memcmp(expected, out.data, elen) != 0)) {
            size_t i = 0;
            while (i < elen && i < out.len && expected[i] == out.data[i]) i++;
            size_t line = 1;
            for (size_t k = 0; k < i; k++) line += expected[k] == '\n';
            cr_expect_fail("%s differs from its rendering at line %zu", path, line);
            bad = 1;
        }
        free(expected);
    }
    hudi_buf_dispose(&out);
    free(src);
    return bad;
}

Test(golden, every_sql_file_matches_its_ast) {
    bool update = getenv("HUDI_GOLDEN_UPDATE") && strcmp(getenv("HUDI_GOLDEN_UPDATE"), "1") == 0;
    DIR *d = opendir(GOLDEN_DIR);
    cr_assert_not_null(d);
    struct dirent *e;
    int files = 0, bad = 0;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".sql") != 0) continue;
        files++;
        bad += check_file(e->d_name, update);
    }
    closedir(d);
    cr_assert_geq(files, 6, "expected the golden files in %s", GOLDEN_DIR);
    cr_assert_eq(bad, 0);
}
