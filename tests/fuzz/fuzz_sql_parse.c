/* fuzz_sql_parse.c - the SQL lexer and parser on arbitrary text: every statement of the
 * script is parsed (errors resume at the next ';'), printed, and the printing must be
 * deterministic; an error must carry a position inside the text. */
#include <stdlib.h>
#include <string.h>

#include "sql/sql.h"

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        if (!(x)) abort();                                                                         \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 1 << 16) return 0;
    /* a private copy without a terminating NUL, so reads past the end are caught */
    char *src = malloc(size ? size : 1);
    if (!src) return 0;
    if (size) memcpy(src, data, size);
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_sql_parser p;
    hudi_sql_parser_init(&p, &arena, src, size);
    for (int n = 0; n < 10000; n++) {
        hudi_sql_stmt *s = NULL;
        hudi_error err = HUDI_ERROR_INIT;
        int rc = hudi_sql_parser_next(&p, &s, &err);
        if (rc == 0) break;
        hudi_buf a = HUDI_BUF_INIT, b = HUDI_BUF_INIT;
        if (rc < 0) {
            CHECK(rc == HUDI_ESQL || rc == HUDI_ENOMEM);
            CHECK(p.error_pos.offset <= size);
            CHECK(p.error_pos.line >= 1 && p.error_pos.col >= 1);
            hudi_sql_error_context(&a, src, size, p.error_pos);
        } else {
            CHECK(s && s->pos.offset <= s->src_end && s->src_end <= size);
            hudi_sql_ast_print(&a, s);
            hudi_sql_ast_print(&b, s);
            CHECK(a.len == b.len && (a.len == 0 || memcmp(a.data, b.data, a.len) == 0));
        }
        hudi_buf_dispose(&a);
        hudi_buf_dispose(&b);
    }
    hudi_arena_dispose(&arena);
    free(src);
    return 0;
}
