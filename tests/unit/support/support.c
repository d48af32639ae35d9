/* support.c - see support.h. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *fixture_path(const char *rel) {
    static char path[4096];
    snprintf(path, sizeof(path), "%s/fixtures/%s", HUDI_SHARED_DIR, rel);
    return path;
}

const char *test_tmpdir(void) {
    static char path[4096];
    const char *base = getenv("TMPDIR");
    snprintf(path, sizeof(path), "%s/hudic-test-XXXXXX", base ? base : "/tmp");
    if (!mkdtemp(path)) return NULL;
    return path;
}

unsigned char *test_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *p = malloc(n > 0 ? (size_t)n : 1);
    if (p && n > 0 && fread(p, 1, (size_t)n, f) != (size_t)n) { free(p); p = NULL; }
    fclose(f);
    if (p) *len = (size_t)n;
    return p;
}
