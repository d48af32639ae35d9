/* table_example.c - the hudic public API end to end: create a Hudi table in a temporary folder,
 * write rows given as hand-built Arrow C Data Interface arrays, upsert one of them, then scan
 * the table back through an Arrow C stream (with a filter) and print the rows.
 *
 * Uses only include/hudi. Build: the `example_table` CMake target; ctest runs it. Exits non-zero
 * when anything does not come out as expected. */
#define _XOPEN_SOURCE 700 /* nftw, mkdtemp: the example builds alone with -std=c11 */
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hudi/hudi_arrow.h"
#include "hudi/hudi_table.h"

/* ---- a tiny Arrow producer: four columns in static memory ------------------------------------
 * The structs point at memory this program owns for its whole life, so release only marks them
 * released (the Arrow contract: release must be called exactly once, then release == NULL). */

static void release_schema(struct ArrowSchema *s) { s->release = NULL; }
static void release_array(struct ArrowArray *a) { a->release = NULL; }

enum { N_COLS = 4 };
static const char *const col_names[N_COLS] = {"id", "name", "fare", "city"};
static const char *const col_formats[N_COLS] = {"l", "u", "g", "u"}; /* int64, utf8, double */

typedef struct rows {
    int64_t ids[8];
    int32_t name_offsets[9];
    char name_data[64];
    uint8_t name_valid[1];
    double fares[8];
    int32_t city_offsets[9];
    char city_data[64];
    /* Arrow structs */
    struct ArrowSchema schema, col_schemas[N_COLS];
    struct ArrowSchema *col_schema_ptrs[N_COLS];
    struct ArrowArray array, cols[N_COLS];
    struct ArrowArray *col_ptrs[N_COLS];
    const void *bufs[N_COLS][3];
    const void *struct_bufs[1];
} rows;

/* Fills `r` with n rows; names[i] NULL = a null name. */
static void build_rows(rows *r, int n, const int64_t *ids, const char *const *names,
                       const double *fares, const char *const *cities) {
    memset(r, 0, sizeof(*r));
    int32_t no = 0, co = 0;
    int64_t name_nulls = 0;
    for (int i = 0; i < n; i++) {
        r->ids[i] = ids[i];
        r->fares[i] = fares[i];
        if (names[i]) {
            r->name_valid[0] |= (uint8_t)(1u << i);
            memcpy(r->name_data + no, names[i], strlen(names[i]));
            no += (int32_t)strlen(names[i]);
        } else {
            name_nulls++;
        }
        r->name_offsets[i + 1] = no;
        memcpy(r->city_data + co, cities[i], strlen(cities[i]));
        co += (int32_t)strlen(cities[i]);
        r->city_offsets[i + 1] = co;
    }
    const void *const bufs[N_COLS][3] = {{NULL, r->ids},
                                         {r->name_valid, r->name_offsets, r->name_data},
                                         {NULL, r->fares},
                                         {NULL, r->city_offsets, r->city_data}};
    memcpy(r->bufs, bufs, sizeof(bufs));
    for (int c = 0; c < N_COLS; c++) {
        r->col_schemas[c] = (struct ArrowSchema){
            .format = col_formats[c],
            .name = col_names[c],
            .flags = c == 1 ? ARROW_FLAG_NULLABLE : 0,
            .release = release_schema,
        };
        r->col_schema_ptrs[c] = &r->col_schemas[c];
        r->cols[c] = (struct ArrowArray){
            .length = n,
            .null_count = c == 1 ? name_nulls : 0,
            .n_buffers = col_formats[c][0] == 'u' ? 3 : 2,
            .buffers = r->bufs[c],
            .release = release_array,
        };
        r->col_ptrs[c] = &r->cols[c];
    }
    r->schema = (struct ArrowSchema){.format = "+s",
                                     .name = "",
                                     .n_children = N_COLS,
                                     .children = r->col_schema_ptrs,
                                     .release = release_schema};
    r->array = (struct ArrowArray){.length = n,
                                   .n_buffers = 1,
                                   .buffers = r->struct_bufs,
                                   .n_children = N_COLS,
                                   .children = r->col_ptrs,
                                   .release = release_array};
}

/* ---- printing a stream ------------------------------------------------------------------------
 */

static int find_column(const struct ArrowSchema *s, const char *name) {
    for (int64_t i = 0; i < s->n_children; i++)
        if (strcmp(s->children[i]->name, name) == 0) return (int)i;
    return -1;
}

static int is_valid(const struct ArrowArray *a, int64_t i) {
    const uint8_t *v = a->buffers[0];
    i += a->offset;
    return !v || (v[i / 8] >> (i % 8)) & 1;
}

static void print_string(const struct ArrowArray *a, int64_t i) {
    if (!is_valid(a, i)) {
        printf("null");
        return;
    }
    const int32_t *off = a->buffers[1];
    const char *data = a->buffers[2];
    i += a->offset;
    printf("\"%.*s\"", (int)(off[i + 1] - off[i]), data + off[i]);
}

/* Prints every row of the stream; returns the row count or -1. */
static int64_t print_stream(struct ArrowArrayStream *st) {
    struct ArrowSchema schema;
    int64_t total = 0;
    if (st->get_schema(st, &schema) != 0) {
        fprintf(stderr, "get_schema: %s\n", st->get_last_error(st));
        return -1;
    }
    int c_time = find_column(&schema, "_hoodie_commit_time"), c_id = find_column(&schema, "id"),
        c_name = find_column(&schema, "name"), c_fare = find_column(&schema, "fare"),
        c_city = find_column(&schema, "city");
    if (c_time < 0 || c_id < 0 || c_name < 0 || c_fare < 0 || c_city < 0) {
        fprintf(stderr, "unexpected schema\n");
        schema.release(&schema);
        return -1;
    }
    for (;;) {
        struct ArrowArray batch;
        if (st->get_next(st, &batch) != 0) {
            fprintf(stderr, "get_next: %s\n", st->get_last_error(st));
            total = -1;
            break;
        }
        if (!batch.release) break; /* end of stream */
        const struct ArrowArray *ids = batch.children[c_id], *fares = batch.children[c_fare];
        for (int64_t i = 0; i < batch.length; i++) {
            printf("{\"_hoodie_commit_time\":");
            print_string(batch.children[c_time], i);
            printf(",\"id\":%" PRId64 ",\"name\":",
                   ((const int64_t *)ids->buffers[1])[ids->offset + i]);
            print_string(batch.children[c_name], i);
            printf(",\"fare\":%g,\"city\":",
                   ((const double *)fares->buffers[1])[fares->offset + i]);
            print_string(batch.children[c_city], i);
            printf("}\n");
        }
        total += batch.length;
        batch.release(&batch);
    }
    schema.release(&schema);
    return total;
}

static int64_t scan_print(hudi_table *t, const char *filter, const char *title) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_scan *scan = NULL;
    hudi_scan_options so = HUDI_SCAN_OPTIONS_INIT;
    struct ArrowArrayStream stream;
    so.filter = filter;
    printf("-- %s\n", title);
    if (hudi_scan_open(&scan, t, &so, &err) < 0 || hudi_scan_to_arrow(scan, &stream, &err) < 0) {
        fprintf(stderr, "scan: %s\n", err.message);
        return -1;
    }
    int64_t n = print_stream(&stream);
    stream.release(&stream);
    return n;
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

int main(void) {
    char dir[] = "/tmp/hudic_example_XXXXXX";
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    int status = 1;
    static rows r; /* large; static keeps it off the stack */
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    char path[sizeof(dir) + 16];
    snprintf(path, sizeof(path), "%s/trips", dir);

    /* 1. Create a partitioned table keyed by id. */
    const int64_t ids[] = {1, 2, 3, 4};
    const char *const names[] = {"ann", "bob", NULL, "dee"};
    const double fares[] = {12.5, 7.25, 30.0, 9.0};
    const char *const cities[] = {"paris", "oslo", "paris", "lima"};
    build_rows(&r, 4, ids, names, fares, cities);
    hudi_table_create_options io = HUDI_TABLE_CREATE_OPTIONS_INIT;
    io.table_name = "trips";
    io.record_key_fields = "id";
    io.partition_fields = "city";
    io.precombine_field = "fare";
    io.schema = &r.schema;
    if (hudi_table_create(&t, path, &io, &err) < 0) goto fail;

    /* 2. Insert four rows. The arrays stay ours: hudic copies what it needs. */
    hudi_table_write_options wo = HUDI_TABLE_WRITE_OPTIONS_INIT;
    hudi_table_write_result res;
    wo.operation = HUDI_WRITE_INSERT;
    if (hudi_table_write(t, &r.schema, &r.array, &wo, &res, &err) < 0) goto fail;
    printf("inserted %" PRId64 " rows at instant %s\n", res.inserts, res.instant);

    /* 3. Upsert: id 2 gets a higher fare (the precombine field decides), id 5 is new. */
    const int64_t ids2[] = {2, 5};
    const char *const names2[] = {"bob", "eve"};
    const double fares2[] = {8.75, 15.0};
    const char *const cities2[] = {"oslo", "lima"};
    build_rows(&r, 2, ids2, names2, fares2, cities2);
    wo.operation = HUDI_WRITE_UPSERT;
    if (hudi_table_write(t, &r.schema, &r.array, &wo, &res, &err) < 0) goto fail;
    printf("upserted: %" PRId64 " updated, %" PRId64 " inserted at instant %s\n", res.updates,
           res.inserts, res.instant);
    printf("latest instant: %s, table name: %s\n", hudi_table_latest_instant(t),
           hudi_table_property(t, "hoodie.table.name"));

    /* 4. Scan everything, then with a filter. */
    int64_t all = scan_print(t, NULL, "all rows");
    int64_t some = scan_print(t, "fare > 10", "fare > 10");
    if (all != 5 || some != 3) {
        fprintf(stderr, "expected 5 rows and 3 with fare > 10, got %" PRId64 " and %" PRId64 "\n",
                all, some);
        goto done;
    }
    status = 0;
    goto done;
fail:
    fprintf(stderr, "hudic: %s (%s)\n", err.message, hudi_error_name(err.code));
done:
    hudi_table_free(t);
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return status;
}
