/* write_tsan.c - parallel writes under ThreadSanitizer (a plain program: Criterion cannot run
 * under TSan). On a temporary local table and on a memory table, with 4 threads
 * (hoodie.hudic.parallelism): a copy-on-write bulk_insert and insert into many file groups, an
 * upsert (index lookups and merges on the pool), a delete; a merge-on-read insert and upsert
 * deltacommit (log appends on the pool) and its compaction; every table read back and its row count
 * and values checked (bulk_insert in chunks of 300 rows, slices of 20 rows per task). A failing
 * upsert and a failing bulk_insert on the fault-injecting filesystem (failures in one task while
 * others run) must leave the table as before. Exit 0 when all holds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read/read.h"
#include "storage/storage.h"
#include "write/write.h"

static const char *const PARTS[] = {"a", "b", "c", "d"};
static const char *const PROPS[] = {"hoodie.hudic.parallelism", "4",
                                    /* bulk_insert: several chunks, each a run of tasks of 20
                                     * rows of a partition, a partition's waiting for each
                                     * other */
                                    "hoodie.hudic.bulk_insert.chunk.rows", "300",
                                    "hoodie.hudic.bulk_insert.slice.rows", "20", NULL};

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "write_tsan:%d: ", __LINE__);                                          \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static void schema(hudi_field *s) {
    CHECK(hudi_field_init(s, "rec", HUDI_TYPE_STRUCT, false) == 0 &&
              hudi_field_set_children(s, 4) == 0,
          "schema");
    hudi_field_init(&s->children[0], "id", HUDI_TYPE_INT32, true);
    hudi_field_init(&s->children[1], "name", HUDI_TYPE_STRING, true);
    hudi_field_init(&s->children[2], "ts", HUDI_TYPE_INT64, true);
    hudi_field_init(&s->children[3], "part", HUDI_TYPE_STRING, true);
}

/* Rows first..first+n-1: name "n<id>_<ts>", part PARTS[id % 4]. */
static hudi_batch *rows(const hudi_field *s, int32_t first, int32_t n, int64_t ts) {
    hudi_batch *b = NULL;
    CHECK(hudi_batch_new(&b, s, NULL) == 0, "batch");
    for (int32_t i = 0; i < n; i++) {
        int32_t id = first + i;
        char name[48];
        snprintf(name, sizeof(name), "n%d_%lld", id, (long long)ts);
        const char *p = PARTS[id % 4];
        CHECK(hudi_array_append_fixed(b->columns[0], &id, NULL) == 0 &&
                  hudi_array_append_bytes(b->columns[1], name, strlen(name), NULL) == 0 &&
                  hudi_array_append_fixed(b->columns[2], &ts, NULL) == 0 &&
                  hudi_array_append_bytes(b->columns[3], p, strlen(p), NULL) == 0,
              "append");
    }
    b->num_rows = n;
    return b;
}

static int64_t g_files; /* files written by the last write */

static int do_write(hudi_table *t, const hudi_field *s, hudi_write_operation op, int32_t first,
                    int32_t n, int64_t ts, hudi_error *err) {
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    hudi_table_write_result res;
    o.op = op;
    o.props = PROPS;
    o.target_file_bytes = 32 << 10; /* many file groups */
    o.small_file_bytes = 24 << 10;
    hudi_batch *b = rows(s, first, n, ts);
    int rc = hudi_tbl_write(t, b, &o, &res, err);
    g_files = rc == 0 ? res.files_written : 0;
    hudi_batch_free(b);
    return rc;
}

/* Reads the table: per id, the ts seen (-1 = absent); returns the row count. */
static int64_t read_back(hudi_table *t, int64_t *ts_of, int32_t max_id) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_scan_options so = HUDI_SCAN_OPTIONS_INIT;
    hudi_reader *r = NULL;
    const char *const cols[] = {"id", "name", "ts"};
    so.columns = cols;
    so.n_columns = 3;
    for (int32_t i = 0; i < max_id; i++) ts_of[i] = -1;
    CHECK(hudi_tbl_reload(t, &err) == 0, "reload: %s", err.message);
    CHECK(hudi_reader_open(&r, t, &so, &err) == 0, "reader: %s", err.message);
    int64_t n = 0;
    for (;;) {
        hudi_batch *b = NULL;
        CHECK(hudi_reader_next(r, &b, &err) == 0, "next: %s", err.message);
        if (!b) break;
        for (int64_t i = 0; i < b->num_rows; i++) {
            int32_t id = ((const int32_t *)b->columns[0]->values)[i];
            int64_t ts = ((const int64_t *)b->columns[2]->values)[i];
            const hudi_array *nm = b->columns[1];
            char want[48];
            snprintf(want, sizeof(want), "n%d_%lld", id, (long long)ts);
            CHECK(id >= 0 && id < max_id && ts_of[id] < 0, "id %d twice or out of range", id);
            CHECK((size_t)(nm->offsets[i + 1] - nm->offsets[i]) == strlen(want) &&
                      memcmp(nm->data + nm->offsets[i], want, strlen(want)) == 0,
                  "id %d: wrong name", id);
            ts_of[id] = ts;
            n++;
        }
    }
    hudi_reader_free(r);
    return n;
}

#define MAXID 4000

static void cow(hudi_fs *fs, const char *base) {
    hudi_field s = {0};
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    int64_t *ts = calloc(MAXID, sizeof(int64_t));
    schema(&s);
    hudi_create_options co = HUDI_CREATE_OPTIONS_INIT;
    static const char *const create_props[] = {"hoodie.index.bloom.num_entries", "100", NULL};
    co.table_name = "tsan";
    co.record_key_fields = "id";
    co.partition_fields = "part";
    co.precombine_field = "ts";
    co.populate_meta_fields = true;
    co.schema = &s;
    co.extra_props = create_props;
    CHECK(hudi_tbl_create(&t, fs, base, &co, &err) == 0, "create: %s", err.message);
    CHECK(do_write(t, &s, HUDI_WRITE_BULK_INSERT, 0, 2000, 1, &err) == 0, "bulk: %s", err.message);
    CHECK(do_write(t, &s, HUDI_WRITE_INSERT, 2000, 1000, 1, &err) == 0, "insert: %s", err.message);
    CHECK(do_write(t, &s, HUDI_WRITE_UPSERT, 500, 2000, 2, &err) == 0, "upsert: %s", err.message);
    CHECK(g_files >= 8, "the upsert rewrote %lld files: too few for 4 threads", (long long)g_files);
    CHECK(do_write(t, &s, HUDI_WRITE_DELETE, 0, 100, 3, &err) == 0, "delete: %s", err.message);
    CHECK(read_back(t, ts, MAXID) == 2900, "cow rows");
    for (int32_t i = 0; i < 3000; i++)
        CHECK(ts[i] == (i < 100                ? -1
                        : i >= 500 && i < 2500 ? 2
                                               : 1),
              "cow id %d: ts %lld", i, (long long)ts[i]);
    /* a write failing in one of its tasks, the others running: nothing of it is visible */
    hudi_fs *ff = NULL;
    hudi_table *ft = NULL;
    CHECK(hudi_fs_faulty_new(&ff, fs, (hudi_fault_plan){0, 60 << 10, true}, &err) == 0, "faulty");
    CHECK(hudi_tbl_open(&ft, ff, base, &err) == 0, "open: %s", err.message);
    CHECK(do_write(ft, &s, HUDI_WRITE_UPSERT, 0, 3000, 9, &err) < 0, "the faulty write succeeded");
    hudi_tbl_free(ft);
    hudi_fs_free(ff);
    CHECK(read_back(t, ts, MAXID) == 2900, "rows after a failed write");
    /* the same for a bulk_insert: one partition's file fails while the others write */
    CHECK(hudi_fs_faulty_new(&ff, fs, (hudi_fault_plan){0, 40 << 10, true}, &err) == 0, "faulty");
    CHECK(hudi_tbl_open(&ft, ff, base, &err) == 0, "open: %s", err.message);
    CHECK(do_write(ft, &s, HUDI_WRITE_BULK_INSERT, 3000, 1000, 9, &err) < 0,
          "the faulty bulk_insert succeeded");
    hudi_tbl_free(ft);
    hudi_fs_free(ff);
    CHECK(read_back(t, ts, MAXID) == 2900, "rows after a failed bulk_insert");
    /* the next write rolls the failed one back */
    CHECK(do_write(t, &s, HUDI_WRITE_UPSERT, 0, 10, 4, &err) == 0, "upsert: %s", err.message);
    CHECK(read_back(t, ts, MAXID) == 2910, "rows after the retry");
    hudi_tbl_free(t);
    hudi_field_dispose(&s);
    free(ts);
}

static void mor(hudi_fs *fs, const char *base) {
    hudi_field s = {0};
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    int64_t *ts = calloc(MAXID, sizeof(int64_t));
    schema(&s);
    hudi_create_options co = HUDI_CREATE_OPTIONS_INIT;
    static const char *const create_props[] = {"hoodie.index.bloom.num_entries", "100", NULL};
    co.table_name = "tsan_mor";
    co.record_key_fields = "id";
    co.partition_fields = "part";
    co.precombine_field = "ts";
    co.populate_meta_fields = true;
    co.schema = &s;
    co.type = HUDI_MERGE_ON_READ;
    co.extra_props = create_props;
    CHECK(hudi_tbl_create(&t, fs, base, &co, &err) == 0, "create: %s", err.message);
    CHECK(do_write(t, &s, HUDI_WRITE_INSERT, 0, 2000, 1, &err) == 0, "insert: %s", err.message);
    CHECK(do_write(t, &s, HUDI_WRITE_UPSERT, 0, 1500, 2, &err) == 0, "upsert: %s", err.message);
    CHECK(g_files >= 8, "the deltacommit wrote %lld files: too few", (long long)g_files);
    CHECK(do_write(t, &s, HUDI_WRITE_DELETE, 1000, 200, 3, &err) == 0, "delete: %s", err.message);
    CHECK(read_back(t, ts, MAXID) == 1800, "mor rows");
    for (int32_t i = 0; i < 2000; i++)
        CHECK(ts[i] == (i >= 1000 && i < 1200 ? -1
                        : i < 1500            ? 2
                                              : 1),
              "mor id %d: ts %lld", i, (long long)ts[i]);
    /* compaction (the default threads, 2 or more; on the memory filesystem one): a task per
     * file group, the last groups' column writing on helper pools (write/compact.c); the same
     * rows after */
    CHECK(hudi_tbl_compact(t, NULL, NULL, &err) > 0, "compact: %s", err.message);
    CHECK(read_back(t, ts, MAXID) == 1800, "compacted mor rows");
    for (int32_t i = 0; i < 2000; i++)
        CHECK(ts[i] == (i >= 1000 && i < 1200 ? -1
                        : i < 1500            ? 2
                                              : 1),
              "compacted mor id %d: ts %lld", i, (long long)ts[i]);
    hudi_tbl_free(t);
    hudi_field_dispose(&s);
    free(ts);
}

int main(void) {
    char dir[] = "/tmp/hudic-write-tsan-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    char base[256];
    hudi_fs *fs = NULL;
    CHECK(hudi_fs_local_new(&fs, NULL) == 0, "local fs");
    snprintf(base, sizeof(base), "%s/cow", dir);
    cow(fs, base);
    snprintf(base, sizeof(base), "%s/mor", dir);
    mor(fs, base);
    hudi_fs_free(fs);
    CHECK(hudi_fs_memory_new(&fs, NULL) == 0, "memory fs");
    cow(fs, "/mem/cow");
    mor(fs, "/mem/mor");
    hudi_fs_free(fs);
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0, "cleanup");
    return 0;
}
