/* write_fixtures.c - see write_fixtures.h. */
#include "write_fixtures.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk(const char *dir, char ***paths, int *n, int *cap) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || !strcmp(e->d_name, "__MACOSX")) continue; /* .hoodie too */
        char p[4096];
        struct stat st;
        snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
        if (stat(p, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            if (strcmp(e->d_name, "gold_data") != 0) walk(p, paths, n, cap);
        } else if (strlen(e->d_name) > 8 &&
                   !strcmp(e->d_name + strlen(e->d_name) - 8, ".parquet")) {
            if (*n == *cap) {
                *cap = *cap ? *cap * 2 : 16;
                *paths = realloc(*paths, sizeof(char *) * (size_t)*cap);
            }
            (*paths)[(*n)++] = strdup(p);
        }
    }
    closedir(d);
}

int list_base_files(const char *root, char ***out) {
    int n = 0, cap = 0;
    *out = NULL;
    walk(root, out, &n, &cap);
    if (n) qsort(*out, (size_t)n, sizeof(char *), cmp_str);
    return n;
}

void free_paths(char **paths, int n) {
    for (int i = 0; i < n; i++) free(paths[i]);
    free(paths);
}

int file_batch_read(file_batch *out, hudi_fs *fs, const char *path, hudi_error *err) {
    hudi_pq_scan_options o = HUDI_PQ_SCAN_OPTIONS_INIT;
    hudi_batch *b = NULL;
    int rc;
    memset(out, 0, sizeof(*out));
    o.batch_rows = 1 << 20;
    if ((rc = hudi_pq_open(&out->file, fs, path, NULL, err)) < 0) return rc;
    if ((rc = hudi_pq_scan_open(&out->scan, out->file, &o, err)) < 0) return rc;
    while ((rc = hudi_pq_scan_next(out->scan, &b, err)) == 0 && b) {
        if (!out->batch) {
            out->batch = hudi_pq_scan_take_batch(out->scan);
            continue;
        }
        for (int32_t c = 0; c < b->n_columns && rc == 0; c++)
            rc =
                hudi_array_append_range(out->batch->columns[c], b->columns[c], 0, b->num_rows, err);
        if (rc < 0) return rc;
        out->batch->num_rows += b->num_rows;
    }
    if (rc == 0 && !out->batch)
        rc = hudi_batch_new(&out->batch, hudi_pq_scan_schema(out->scan), err);
    return rc;
}

void file_batch_dispose(file_batch *fb) {
    hudi_batch_free(fb->batch);
    hudi_pq_scan_free(fb->scan);
    hudi_pq_close(fb->file);
    memset(fb, 0, sizeof(*fb));
}

int batch_column(const hudi_batch *b, const char *name) {
    for (int32_t i = 0; i < b->schema->n_children; i++)
        if (!strcmp(b->schema->children[i].name, name)) return i;
    return -1;
}
