/* parquet_example.c - the hudic Parquet API end to end: write a Parquet file from hand-built
 * Arrow C Data Interface arrays (zstd, a bloom filter, footer metadata), read its footer, then
 * scan it back through an Arrow C stream with a projection and a filter, printing the counts
 * and what the scan skipped.
 *
 * Uses only include/hudi. Build: the `example_parquet` CMake target; ctest runs it. Exits
 * non-zero when anything does not come out as expected. */
#define _XOPEN_SOURCE 700 /* mkstemp: the example builds alone with -std=c11 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hudi/hudi_arrow.h"
#include "hudi/hudi_parquet.h"

#define N_ROWS 10000

/* ---- a tiny Arrow producer: id int64, city utf8, fare double --------------------------------
 * The arrays point at memory this program owns; release only marks them released (the Arrow
 * contract: release is called exactly once, then release == NULL). */

static void release_schema(struct ArrowSchema *s) { s->release = NULL; }
static void release_array(struct ArrowArray *a) { a->release = NULL; }

static const char *const cities[] = {"amsterdam", "berlin", "chennai", "denver"};

typedef struct batch {
    int64_t ids[N_ROWS];
    int32_t city_offsets[N_ROWS + 1];
    char city_data[N_ROWS * 10];
    double fares[N_ROWS];
    struct ArrowSchema schema, cols[3], *col_ptrs[3];
    struct ArrowArray array, arrays[3], *array_ptrs[3];
    const void *bufs[3][3], *struct_bufs[1];
} batch;

static void build(batch *b) {
    static const char *const names[3] = {"id", "city", "fare"};
    static const char *const formats[3] = {"l", "u", "g"};
    int32_t off = 0;
    for (int i = 0; i < N_ROWS; i++) {
        const char *c = cities[i % 4];
        b->ids[i] = i;
        memcpy(b->city_data + off, c, strlen(c));
        off += (int32_t)strlen(c);
        b->city_offsets[i + 1] = off;
        b->fares[i] = 5.0 + (i % 100) * 0.5; /* 5.0 .. 54.5 */
    }
    const void *const bufs[3][3] = {
        {NULL, b->ids}, {NULL, b->city_offsets, b->city_data}, {NULL, b->fares}};
    memcpy(b->bufs, bufs, sizeof(bufs));
    for (int c = 0; c < 3; c++) {
        b->cols[c] =
            (struct ArrowSchema){.format = formats[c], .name = names[c], .release = release_schema};
        b->col_ptrs[c] = &b->cols[c];
        b->arrays[c] = (struct ArrowArray){.length = N_ROWS,
                                           .n_buffers = c == 1 ? 3 : 2,
                                           .buffers = b->bufs[c],
                                           .release = release_array};
        b->array_ptrs[c] = &b->arrays[c];
    }
    b->schema = (struct ArrowSchema){.format = "+s",
                                     .name = "",
                                     .n_children = 3,
                                     .children = b->col_ptrs,
                                     .release = release_schema};
    b->array = (struct ArrowArray){.length = N_ROWS,
                                   .n_buffers = 1,
                                   .buffers = b->struct_bufs,
                                   .n_children = 3,
                                   .children = b->array_ptrs,
                                   .release = release_array};
}

static int fail(const char *what, const hudi_error *err) {
    fprintf(stderr, "parquet_example: %s: %s\n", what, err ? err->message : "unexpected result");
    return 1;
}

/* ---- write ------------------------------------------------------------------------------------
 */

static int write_file(const char *path, hudi_error *err) {
    static batch b;
    build(&b);
    const char *bloom[] = {"city"};
    const char *kv[] = {"example.source", "parquet_example.c", NULL};
    hudi_parquet_write_options wo = HUDI_PARQUET_WRITE_OPTIONS_INIT;
    wo.codec = HUDI_PARQUET_ZSTD;
    wo.codec_level = 3;
    wo.row_group_rows = 2500; /* four row groups, so statistics can skip some */
    wo.page_rows = 500;
    wo.bloom_filter_columns = bloom;
    wo.n_bloom_filter_columns = 1;
    wo.key_value_metadata = kv;
    hudi_parquet_writer *w = NULL;
    int64_t size = 0;
    if (hudi_parquet_writer_open(&w, path, &b.schema, &wo, err) < 0) return -1;
    if (hudi_parquet_writer_write(w, &b.schema, &b.array, err) < 0) {
        hudi_parquet_writer_abort(w);
        return -1;
    }
    if (hudi_parquet_writer_close(w, &size, err) < 0) return -1;
    printf("wrote %s: %d rows, %" PRId64 " bytes\n", path, N_ROWS, size);
    return 0;
}

/* ---- read -------------------------------------------------------------------------------------
 */

/* Scans with `filter`, counting rows; checks every returned row against the filter's meaning. */
static int scan(hudi_parquet_file *f, const char *filter, int64_t *rows, hudi_error *err) {
    const char *cols[] = {"city", "id"}; /* a projection, in our order */
    hudi_parquet_scan_options so = HUDI_PARQUET_SCAN_OPTIONS_INIT;
    so.columns = cols;
    so.n_columns = 2;
    so.filter = filter;
    hudi_parquet_scan *s = NULL;
    struct ArrowArrayStream st = {0};
    int rc = hudi_parquet_scan_open(&s, f, &so, err);
    if (rc == 0) rc = hudi_parquet_scan_to_arrow(s, &st, err);
    *rows = 0;
    while (rc == 0) {
        struct ArrowArray a = {0};
        if (st.get_next(&st, &a) != 0) {
            fprintf(stderr, "parquet_example: %s\n", st.get_last_error(&st));
            rc = -1;
            break;
        }
        if (!a.release) break;
        const int64_t *ids = a.children[1]->buffers[1];
        for (int64_t i = 0; i < a.length; i++)
            if (ids[a.children[1]->offset + i] >= 2500) rc = -1; /* the filter says id < 2500 */
        *rows += a.length;
        a.release(&a);
    }
    hudi_parquet_scan_stats stats;
    hudi_parquet_scan_stats_get(s, &stats);
    printf("scan \"%s\": %" PRId64 " rows; row groups %" PRId64 " of which %" PRId64 " skipped\n",
           filter, *rows, stats.row_groups_total, stats.row_groups_skipped);
    if (rc == 0 && stats.row_groups_skipped != 3) rc = -1;
    if (st.release) st.release(&st);
    hudi_parquet_scan_free(s);
    return rc;
}

int main(void) {
    char path[] = "/tmp/hudic_parquet_example_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return fail("mkstemp", NULL);
    close(fd);
    hudi_error err = HUDI_ERROR_INIT;
    hudi_parquet_file *f = NULL;
    int64_t rows = 0;
    int status = 1;
    if (write_file(path, &err) < 0) {
        fail("write", &err);
        goto done;
    }
    if (hudi_parquet_open(&f, path, NULL, &err) < 0) {
        fail("open", &err);
        goto done;
    }
    hudi_parquet_file_info fi;
    hudi_parquet_file_info_get(f, &fi);
    hudi_parquet_bytes src;
    printf("read: %" PRId64 " rows, %d row groups, %d columns, created by %.*s\n",
           hudi_parquet_num_rows(f), fi.num_row_groups, hudi_parquet_num_columns(f),
           (int)fi.created_by.len, (const char *)fi.created_by.data);
    if (hudi_parquet_num_rows(f) != N_ROWS || fi.num_row_groups != 4 ||
        !hudi_parquet_key_value_find(f, "example.source", &src)) {
        fail("footer", NULL);
        goto done;
    }
    if (scan(f, "id < 2500", &rows, &err) < 0 || rows != 2500) {
        fail("scan", err.code ? &err : NULL);
        goto done;
    }
    status = 0;
done:
    hudi_parquet_close(f);
    unlink(path);
    return status;
}
