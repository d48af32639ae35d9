/* concurrency_bench.c - concurrent writers of one table (docs/formats/concurrency.md).
 *
 *   concurrency_bench DIR [--writers W] [--rounds R] [--rows N] [--small K]
 *
 * Same work three ways, each on a fresh table under DIR: W x R upserts of N new rows, writer w
 * always into its own partition "w<w>" - (1) one process doing all of them in turn, (2) W
 * processes at once with the default single-writer lock (they take turns), (3) W processes at
 * once with optimistic concurrency control (file writing overlaps; disjoint partitions never
 * conflict). Then the cost of the lock on a small write: K upserts of 1,000 rows, timed, and
 * the lock + heartbeat steps alone (acquire, heartbeat start, heartbeat stop, release) timed
 * 200 times. One JSON line per measurement (wall seconds, rows per second). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "format/parquet/parquet.h"
#include "table/txn.h"
#include "write/write.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what, const hudi_error *err) {
    fprintf(stderr, "concurrency_bench: %s: %s\n", what, err ? err->message : "failed");
    exit(1);
}

static void schema_init(hudi_field *s) {
    if (hudi_field_init(s, "rec", HUDI_TYPE_STRUCT, false) < 0 ||
        hudi_field_set_children(s, 4) < 0 ||
        hudi_field_init(&s->children[0], "key", HUDI_TYPE_STRING, false) < 0 ||
        hudi_field_init(&s->children[1], "ts", HUDI_TYPE_INT64, false) < 0 ||
        hudi_field_init(&s->children[2], "fare", HUDI_TYPE_DOUBLE, true) < 0 ||
        hudi_field_init(&s->children[3], "part", HUDI_TYPE_STRING, false) < 0)
        die("schema", NULL);
}

/* N rows with keys "w<w>-r<r>-<i>", all in partition "w<w>". */
static hudi_batch *make_batch(const hudi_field *s, int w, int r, int64_t n) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_batch *b = NULL;
    char key[64], part[16];
    if (hudi_batch_new(&b, s, &err) < 0) die("batch", &err);
    snprintf(part, sizeof(part), "w%d", w);
    for (int64_t i = 0; i < n; i++) {
        int len = snprintf(key, sizeof(key), "w%d-r%d-%08lld", w, r, (long long)i);
        int64_t ts = i;
        double fare = (double)(i % 1000) / 10.0;
        if (hudi_array_append_bytes(b->columns[0], key, (size_t)len, &err) < 0 ||
            hudi_array_append_fixed(b->columns[1], &ts, &err) < 0 ||
            hudi_array_append_fixed(b->columns[2], &fare, &err) < 0 ||
            hudi_array_append_bytes(b->columns[3], part, strlen(part), &err) < 0)
            die("append", &err);
    }
    b->num_rows = n;
    return b;
}

static void create_table(const char *path, const hudi_field *s) {
    hudi_create_options o = HUDI_CREATE_OPTIONS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    o.table_name = "bench";
    o.record_key_fields = "key";
    o.partition_fields = "part";
    o.precombine_field = "ts";
    o.schema = s;
    if (hudi_tbl_create(&t, NULL, path, &o, &err) < 0) die(path, &err);
    hudi_tbl_free(t);
}

static const char *const OCC[] = {"hoodie.write.concurrency.mode", "optimistic_concurrency_control",
                                  NULL};

/* One upsert; retried on a conflict or a lock timeout. Returns the number of retries. */
static int write_once(const char *path, const hudi_batch *b, const char *const *props) {
    for (int retries = 0;; retries++) {
        hudi_error err = HUDI_ERROR_INIT;
        hudi_table *t = NULL;
        hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
        o.props = props;
        o.codec = HUDI_PQ_CODEC_SNAPPY;
        int rc = hudi_tbl_open(&t, NULL, path, &err);
        if (rc == 0) rc = hudi_tbl_write(t, b, &o, NULL, &err);
        hudi_tbl_free(t);
        if (rc == 0) return retries;
        if ((rc != HUDI_ECONFLICT && rc != HUDI_ELOCKED) || retries > 100) die(path, &err);
    }
}

static void writer(const char *path, const hudi_field *s, int w, int rounds, int64_t rows,
                   const char *const *props, int *retries) {
    for (int r = 0; r < rounds; r++) {
        hudi_batch *b = make_batch(s, w, r, rows);
        *retries += write_once(path, b, props);
        hudi_batch_free(b);
    }
}

static void report(const char *name, int writers, int rounds, int64_t rows, double wall,
                   int retries) {
    double total = (double)writers * rounds * (double)rows;
    printf("{\"phase\": \"%s\", \"writers\": %d, \"commits\": %d, \"rows\": %.0f, \"wall_s\": "
           "%.3f, \"rows_per_s\": %.0f, \"retries\": %d}\n",
           name, writers, writers * rounds, total, wall, total / wall, retries);
    fflush(stdout);
}

static double run_parallel(const char *path, const hudi_field *s, int writers, int rounds,
                           int64_t rows, const char *const *props) {
    double t0 = now_s();
    pid_t pids[64];
    for (int w = 0; w < writers; w++) {
        if ((pids[w] = fork()) == 0) {
            int retries = 0;
            writer(path, s, w, rounds, rows, props, &retries);
            _exit(0);
        }
    }
    for (int w = 0; w < writers; w++) {
        int st = 0;
        if (waitpid(pids[w], &st, 0) != pids[w] || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            die("a writer process failed", NULL);
    }
    return now_s() - t0;
}

int main(int argc, char **argv) {
    int writers = 4, rounds = 5, small = 20;
    int64_t rows = 20000;
    if (argc < 2) {
        fprintf(stderr, "usage: concurrency_bench DIR [--writers W] [--rounds R] [--rows N] "
                        "[--small K]\n");
        return 2;
    }
    const char *dir = argv[1];
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--writers"))
            writers = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--rounds"))
            rounds = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--rows"))
            rows = atoll(argv[i + 1]);
        else if (!strcmp(argv[i], "--small"))
            small = atoi(argv[i + 1]);
    }
    if (writers < 1 || writers > 64 || rounds < 1 || rows < 1) return 2;
    hudi_field s = {0};
    schema_init(&s);
    char path[4096];

    snprintf(path, sizeof(path), "%s/one", dir);
    create_table(path, &s);
    double t0 = now_s();
    int retries = 0;
    for (int w = 0; w < writers; w++) writer(path, &s, w, rounds, rows, NULL, &retries);
    report("1 writer", 1, writers * rounds, rows, now_s() - t0, retries);

    snprintf(path, sizeof(path), "%s/single_writer", dir);
    create_table(path, &s);
    report("N writers, single_writer lock", writers, rounds, rows,
           run_parallel(path, &s, writers, rounds, rows, NULL), 0);

    snprintf(path, sizeof(path), "%s/occ", dir);
    create_table(path, &s);
    report("N writers, optimistic_concurrency_control", writers, rounds, rows,
           run_parallel(path, &s, writers, rounds, rows, OCC), 0);

    /* The lock's share of a small write. */
    snprintf(path, sizeof(path), "%s/small", dir);
    create_table(path, &s);
    double writes = 0;
    for (int k = 0; k < small; k++) {
        hudi_batch *b = make_batch(&s, 0, k, 1000);
        double a = now_s();
        write_once(path, b, NULL);
        writes += now_s() - a;
        hudi_batch_free(b);
    }
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    hudi_txn_config tc;
    if (hudi_tbl_open(&t, NULL, path, &err) < 0 || hudi_txn_config_load(&tc, t, NULL, &err) < 0)
        die(path, &err);
    const int reps = 200;
    double a = now_s();
    for (int k = 0; k < reps; k++) {
        hudi_table_lock *l = NULL;
        hudi_heartbeat *hb = NULL;
        char instant[32];
        snprintf(instant, sizeof(instant), "2000010100%07d", k);
        if (hudi_table_lock_acquire(&l, t, &tc, &err) < 0 ||
            hudi_heartbeat_start(&hb, t, &tc, instant, &err) < 0)
            die("lock", &err);
        hudi_heartbeat_stop(hb);
        hudi_table_lock_release(l);
    }
    double lock_s = (now_s() - a) / reps;
    printf("{\"phase\": \"small write, 1000 rows\", \"writes\": %d, \"mean_write_ms\": %.3f, "
           "\"lock_and_heartbeat_ms\": %.3f, \"lock_share\": %.4f}\n",
           small, 1000 * writes / small, 1000 * lock_s, lock_s / (writes / small));
    hudi_txn_config_dispose(&tc);
    hudi_tbl_free(t);
    hudi_field_dispose(&s);
    return 0;
}
