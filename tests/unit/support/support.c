/* support.c - see support.h. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

const char *fixture_path(const char *rel) {
    static char path[4096];
    snprintf(path, sizeof(path), "%s/%s", HUDI_TEST_DATA_DIR, rel);
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
    if (p && n > 0 && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    if (p) *len = (size_t)n;
    return p;
}

const char *fixture_unzip(const char *zip_rel_path) {
    static char out[4096];
    char dir[4096], cmd[9000], zip[4096];
    const char *tmp = test_tmpdir();
    if (!tmp) return NULL;
    snprintf(dir, sizeof(dir), "%s", tmp);
    snprintf(zip, sizeof(zip), "%s", fixture_path(zip_rel_path));
    snprintf(cmd, sizeof(cmd), "unzip -q -o '%s' -d '%s'", zip, dir);
    if (system(cmd) != 0) return NULL;
    /* the single top-level folder, ignoring macOS resource forks */
    DIR *d = opendir(dir);
    if (!d) return NULL;
    int n = 0;
    char only[1024] = "";
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, "__MACOSX"))
            continue;
        char p[8192];
        struct stat st;
        snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
        n++;
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) snprintf(only, sizeof(only), "%s", e->d_name);
    }
    closedir(d);
    /* the directory names are short (mkdtemp + a zip folder): truncation cannot happen */
    size_t dl = strlen(dir), ol = strlen(only);
    if (dl + ol + 2 > sizeof(out)) return NULL;
    memcpy(out, dir, dl + 1);
    if (n == 1 && only[0]) {
        out[dl] = '/';
        memcpy(out + dl + 1, only, ol + 1);
    }
    return out;
}

static void *faulty_malloc(size_t n, void *payload) {
    test_alloc_faults *f = payload;
    return ++f->count == f->fail_at ? NULL : malloc(n);
}

static void *faulty_realloc(void *q, size_t n, void *payload) {
    test_alloc_faults *f = payload;
    return ++f->count == f->fail_at ? NULL : realloc(q, n);
}

static void plain_free(void *q, void *payload) {
    (void)payload;
    free(q);
}

hudi_allocator test_failing_allocator(test_alloc_faults *state) {
    hudi_allocator a = {faulty_malloc, faulty_realloc, plain_free, state};
    return a;
}
