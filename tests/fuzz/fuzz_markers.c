/* fuzz_markers.c - a MARKERS<n> file of Hudi's timeline-server marker layout: one marker path per
 * line. Whatever parses must be non-empty relative paths with no empty, "." or ".." component,
 * no newline and no NUL - what a rollback may join to the table's path and delete. */
#include <stdlib.h>
#include <string.h>

#include "write/write_int.h"

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        if (!(x)) abort();                                                                         \
    } while (0)

static void check_path(const char *m) {
    size_t n = strlen(m);
    CHECK(n > 0 && m[0] != '/' && m[n - 1] != '/' && !strchr(m, '\n'));
    for (const char *c = m; *c;) {
        const char *slash = strchr(c, '/');
        size_t len = slash ? (size_t)(slash - c) : strlen(c);
        CHECK(len > 0);
        CHECK(!(len == 1 && c[0] == '.'));
        CHECK(!(len == 2 && c[0] == '.' && c[1] == '.'));
        c += len + (slash ? 1 : 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    hudi_vec v = HUDI_VEC_INIT(char *);
    hudi_error err = HUDI_ERROR_INIT;
    int rc = hudi_write_parse_markers(HUDI_SLICE(data, size), "MARKERS0", &v, &err);
    CHECK(rc == 0 || rc == HUDI_ECORRUPT || rc == HUDI_ENOMEM);
    for (size_t i = 0; i < v.len; i++) {
        char *m = hudi_vec_at(&v, char *, i);
        check_path(m);
        hudi_free(m);
    }
    hudi_vec_dispose(&v);
    return 0;
}
