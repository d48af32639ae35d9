/* schema_evolution_example.c - Apache Hudi's "Schema Evolution in Action" walk-through
 * (docs/SCHEMA_EVOLUTION.md §1) through the hudic public API: create a table keyed by rowId,
 * partitioned by partitionId, with preComb as precombine field; write three rows whose intToLong
 * is an int; upsert three rows whose intToLong is a long and which carry a new column newField;
 * then print the table's schema (int -> bigint, newField added) and its rows (the old rows read
 * with newField null) as the document shows them.
 *
 * Uses only include/hudi. Build: the `example_schema_evolution` CMake target; ctest runs it.
 * Exits non-zero when the schema or the rows are not the document's. */
#define _XOPEN_SOURCE 700 /* nftw, mkdtemp: the example builds alone with -std=c11 */
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hudi/hudi_arrow.h"
#include "hudi/hudi_table.h"

/* ---- a tiny Arrow producer: up to 8 columns of 4 rows in static memory ------------------------
 * The structs point at memory this program owns for its whole life, so release only marks them
 * released (the Arrow contract: release must be called exactly once, then release == NULL). */

static void release_schema(struct ArrowSchema *s) { s->release = NULL; }
static void release_array(struct ArrowArray *a) { a->release = NULL; }

enum { MAX_COLS = 8, MAX_ROWS = 4 };

typedef struct column {
    const char *name;
    const char *format;      /* "u" utf8, "l" int64, "i" int32 */
    const char *s[MAX_ROWS]; /* "u" */
    int64_t v[MAX_ROWS];     /* "l", "i" */
} column;

typedef struct batch {
    int64_t i64[MAX_COLS][MAX_ROWS];
    int32_t i32[MAX_COLS][MAX_ROWS];
    int32_t offsets[MAX_COLS][MAX_ROWS + 1];
    char data[MAX_COLS][128];
    struct ArrowSchema schema, col_schemas[MAX_COLS];
    struct ArrowSchema *col_schema_ptrs[MAX_COLS];
    struct ArrowArray array, cols[MAX_COLS];
    struct ArrowArray *col_ptrs[MAX_COLS];
    const void *bufs[MAX_COLS][3];
    const void *struct_bufs[1];
} batch;

static void build(batch *b, int n_cols, const column *cols, int n) {
    memset(b, 0, sizeof(*b));
    for (int c = 0; c < n_cols; c++) {
        const column *col = &cols[c];
        int n_buffers = 2;
        if (col->format[0] == 'u') {
            int32_t off = 0;
            for (int i = 0; i < n; i++) {
                size_t len = strlen(col->s[i]);
                memcpy(b->data[c] + off, col->s[i], len);
                off += (int32_t)len;
                b->offsets[c][i + 1] = off;
            }
            b->bufs[c][1] = b->offsets[c];
            b->bufs[c][2] = b->data[c];
            n_buffers = 3;
        } else if (col->format[0] == 'l') {
            for (int i = 0; i < n; i++) b->i64[c][i] = col->v[i];
            b->bufs[c][1] = b->i64[c];
        } else {
            for (int i = 0; i < n; i++) b->i32[c][i] = (int32_t)col->v[i];
            b->bufs[c][1] = b->i32[c];
        }
        b->col_schemas[c] = (struct ArrowSchema){.format = col->format,
                                                 .name = col->name,
                                                 .flags = ARROW_FLAG_NULLABLE,
                                                 .release = release_schema};
        b->col_schema_ptrs[c] = &b->col_schemas[c];
        b->cols[c] = (struct ArrowArray){
            .length = n, .n_buffers = n_buffers, .buffers = b->bufs[c], .release = release_array};
        b->col_ptrs[c] = &b->cols[c];
    }
    b->schema = (struct ArrowSchema){.format = "+s",
                                     .name = "",
                                     .n_children = n_cols,
                                     .children = b->col_schema_ptrs,
                                     .release = release_schema};
    b->array = (struct ArrowArray){.length = n,
                                   .n_buffers = 1,
                                   .buffers = b->struct_bufs,
                                   .n_children = n_cols,
                                   .children = b->col_ptrs,
                                   .release = release_array};
}

/* ---- the schema and the rows as Spark's desc / show print them --------------------------------
 */

static const char *spark_type(const char *format) {
    switch (format[0]) {
    case 'u': return "string";
    case 'l': return "bigint";
    case 'i': return "int";
    default: return format;
    }
}

/* Appends "name:type," for every column of `s` to out. */
static void describe(const struct ArrowSchema *s, char *out, size_t cap) {
    out[0] = '\0';
    for (int64_t i = 0; i < s->n_children; i++) {
        size_t len = strlen(out);
        snprintf(out + len, cap - len, "%s%s:%s", i ? "," : "", s->children[i]->name,
                 spark_type(s->children[i]->format));
    }
}

static int is_valid(const struct ArrowArray *a, int64_t i) {
    const uint8_t *v = a->buffers[0];
    i += a->offset;
    return !v || (v[i / 8] >> (i % 8)) & 1;
}

/* Appends cell i of column `a` (format `f`) to out. */
static void cell(char *out, size_t cap, const char *f, const struct ArrowArray *a, int64_t i) {
    size_t len = strlen(out);
    if (!is_valid(a, i)) {
        snprintf(out + len, cap - len, "null");
    } else if (f[0] == 'u') {
        const int32_t *off = a->buffers[1];
        const char *data = a->buffers[2];
        int64_t k = a->offset + i;
        snprintf(out + len, cap - len, "%.*s", (int)(off[k + 1] - off[k]), data + off[k]);
    } else if (f[0] == 'l') {
        snprintf(out + len, cap - len, "%" PRId64, ((const int64_t *)a->buffers[1])[a->offset + i]);
    } else if (f[0] == 'i') {
        snprintf(out + len, cap - len, "%" PRId32, ((const int32_t *)a->buffers[1])[a->offset + i]);
    } else {
        snprintf(out + len, cap - len, "?");
    }
}

static int by_text(const void *a, const void *b) { return strcmp(a, b); }

enum { LINE = 160, MAX_LINES = 16 };

/* Scans the data columns of `t`; prints and checks the schema and the rows (sorted by rowId). */
static int scan_check(hudi_table *t, const char *want_schema, const char *const *want_rows,
                      int n_want) {
    static const char *const cols[] = {"rowId",     "partitionId", "preComb", "name",
                                       "versionId", "intToLong",   "newField"};
    int n_cols = strstr(want_schema, "newField") ? 7 : 6;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_scan *scan = NULL;
    hudi_scan_options so = HUDI_SCAN_OPTIONS_INIT;
    struct ArrowArrayStream st;
    struct ArrowSchema schema;
    so.columns = cols;
    so.n_columns = n_cols;
    if (hudi_scan_open(&scan, t, &so, &err) < 0 || hudi_scan_to_arrow(scan, &st, &err) < 0) {
        fprintf(stderr, "scan: %s\n", err.message);
        return -1;
    }
    if (st.get_schema(&st, &schema) != 0) {
        fprintf(stderr, "get_schema: %s\n", st.get_last_error(&st));
        st.release(&st);
        return -1;
    }
    char got_schema[512];
    describe(&schema, got_schema, sizeof(got_schema));
    printf("schema: %s\n", got_schema);
    static char lines[MAX_LINES][LINE];
    int n = 0, rc = 0;
    for (;;) {
        struct ArrowArray b;
        if (st.get_next(&st, &b) != 0) {
            fprintf(stderr, "get_next: %s\n", st.get_last_error(&st));
            rc = -1;
            break;
        }
        if (!b.release) break;
        for (int64_t i = 0; i < b.length && n < MAX_LINES; i++, n++) {
            lines[n][0] = '\0';
            for (int64_t c = 0; c < b.n_children; c++) {
                if (c) strcat(lines[n], "|");
                cell(lines[n], LINE, schema.children[c]->format, b.children[c], i);
            }
        }
        b.release(&b);
    }
    schema.release(&schema);
    st.release(&st); /* and the scan it owns */
    if (rc < 0) return rc;
    qsort(lines, (size_t)n, LINE, by_text);
    for (int i = 0; i < n; i++) printf("  %s\n", lines[i]);
    if (strcmp(got_schema, want_schema) != 0) {
        fprintf(stderr, "schema: expected %s\n", want_schema);
        return -1;
    }
    if (n != n_want) {
        fprintf(stderr, "expected %d rows, got %d\n", n_want, n);
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (strcmp(lines[i], want_rows[i]) != 0) {
            fprintf(stderr, "row %d: expected %s\n", i, want_rows[i]);
            return -1;
        }
    return 0;
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

int main(void) {
    char dir[] = "/tmp/hudic_schema_evolution_XXXXXX";
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    int status = 1;
    static batch b;
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    char path[sizeof(dir) + 32];
    snprintf(path, sizeof(path), "%s/hudi_trips_cow", dir);

    /* data1: intToLong is an int */
    const column data1[] = {
        {"rowId", "u", {"row_1", "row_2", "row_3"}, {0}},
        {"partitionId", "u", {"part_0", "part_0", "part_0"}, {0}},
        {"preComb", "l", {0}, {0, 0, 0}},
        {"name", "u", {"bob", "john", "tom"}, {0}},
        {"versionId", "u", {"v_0", "v_0", "v_0"}, {0}},
        {"intToLong", "i", {0}, {0, 0, 0}},
    };
    build(&b, 6, data1, 3);
    hudi_table_create_options io = HUDI_TABLE_CREATE_OPTIONS_INIT;
    io.table_name = "hudi_trips_cow";
    io.record_key_fields = "rowId";
    io.partition_fields = "partitionId";
    io.precombine_field = "preComb";
    io.schema = &b.schema;
    if (hudi_table_create(&t, path, &io, &err) < 0) goto fail;
    hudi_table_write_options wo = HUDI_TABLE_WRITE_OPTIONS_INIT;
    hudi_table_write_result res;
    wo.operation = HUDI_WRITE_UPSERT;
    if (hudi_table_write(t, &b.schema, &b.array, &wo, &res, &err) < 0) goto fail;
    printf("-- data1 written at %s\n", res.instant);
    static const char *const rows1[] = {"row_1|part_0|0|bob|v_0|0", "row_2|part_0|0|john|v_0|0",
                                        "row_3|part_0|0|tom|v_0|0"};
    if (scan_check(t,
                   "rowId:string,partitionId:string,preComb:bigint,name:string,versionId:string,"
                   "intToLong:int",
                   rows1, 3) < 0)
        goto done;

    /* data2: intToLong is a long, newField is new; row_2 is updated (higher preComb) */
    const column data2[] = {
        {"rowId", "u", {"row_2", "row_5", "row_9"}, {0}},
        {"partitionId", "u", {"part_0", "part_0", "part_0"}, {0}},
        {"preComb", "l", {0}, {5, 5, 5}},
        {"name", "u", {"john", "maroon", "michael"}, {0}},
        {"versionId", "u", {"v_3", "v_2", "v_2"}, {0}},
        {"intToLong", "l", {0}, {3, 2, 2}},
        {"newField", "u", {"newField_1", "newField_1", "newField_1"}, {0}},
    };
    build(&b, 7, data2, 3);
    if (hudi_table_write(t, &b.schema, &b.array, &wo, &res, &err) < 0) goto fail;
    printf("-- data2 upserted at %s: %" PRId64 " updated, %" PRId64 " inserted\n", res.instant,
           res.updates, res.inserts);
    static const char *const rows2[] = {
        "row_1|part_0|0|bob|v_0|0|null",           "row_2|part_0|5|john|v_3|3|newField_1",
        "row_3|part_0|0|tom|v_0|0|null",           "row_5|part_0|5|maroon|v_2|2|newField_1",
        "row_9|part_0|5|michael|v_2|2|newField_1",
    };
    if (scan_check(t,
                   "rowId:string,partitionId:string,preComb:bigint,name:string,versionId:string,"
                   "intToLong:bigint,newField:string",
                   rows2, 5) < 0)
        goto done;
    status = 0;
    goto done;
fail:
    fprintf(stderr, "hudic: %s (%s)\n", err.message, hudi_error_name(err.code));
done:
    hudi_table_free(t);
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return status;
}
