/* hudi_bench.c - times hudic's Hudi copy-on-write write and read paths on trips-shaped data,
 * for bench/hudi_run.py to put side by side with Apache Hudi 0.15 on Spark.
 *
 *   hudi_bench run TABLE [--rows N] [--rounds R] [--small-rounds S] [--codec snappy]
 *                        [--simple-index] [--phases bulk,upsert,small,scan] [--threads T]
 *                        [--buckets N] [--markers DIRECT|TIMELINE_SERVER_BASED]
 *   hudi_bench gen DIR [--rows N] [--rounds R] [--small-rounds S]
 *   hudi_bench scan TABLE [--keys k1,k2,...]
 *   hudi_bench mor TABLE [--rows N] [--create] [--dc-from A --dc-to B] [--scan-at K,...]
 *                        [--scan-now K] [--compact] [--threads N] [--codec snappy]
 *                        [--buckets N] [--markers DIRECT|TIMELINE_SERVER_BASED] [--scan-reps R]
 *   hudi_bench gen-mor DIR [--rows N] [--deltacommits D]
 *
 * `run` creates TABLE (COW, table version 6, no metadata table, key uuid, precombine ts,
 * partition partition_path) and times, each phase on its own: bulk_insert of the N base rows;
 * R upsert rounds of N/10 updates plus N/20 inserts; S upserts of 1,000 rows (500 updates of
 * recently inserted keys, 500 inserts); two snapshot scans of every column. One JSON line per
 * phase: wall and CPU seconds (the process's, and the calling thread's alone: thread_cpu_s,
 * the part of a pool's work that stays on the caller), the write result (files, bytes), the RSS
 * with the input batch resident and the peak RSS during the phase (VmHWM, reset through
 * /proc/self/clear_refs before each phase); --threads T sets the writes' hoodie.hudic.parallelism.
 * `gen` writes the same batches as Parquet files (base.parquet, round<k>.parquet, small<s>.parquet)
 * for the Spark side. `scan` reads any Hudi table and prints counts, sums and the rows of the given
 * keys, for the cross-engine check.
 *
 * `mor` times the merge-on-read workload of bench/mor_run.py on TABLE (mor_dc_spec below):
 * --create makes TABLE a MERGE_ON_READ table and bulk-inserts the N base rows; then
 * deltacommits A..B (upserts of updates only: 1%, 10%, then 1,000 rows each), a snapshot scan
 * (R times, default 2: the first cold, the others warm, "rep" 0..R-1) after each deltacommit
 * listed in --scan-at, --scan-now K scans first
 * (labelled K), --compact compacts every file group with logs and scans the result; --buckets N
 * (with --create) gives the table Hudi's simple bucket index with N buckets per partition
 * (hoodie.properties), so the upserts find their file groups by hash, reading no base file.
 * --markers TYPE (run and mor) writes with hoodie.write.markers.type=TYPE. `gen-mor` writes the
 * same batches as base.parquet and dc<k>.parquet for Spark and `hudic table write`.
 *
 * Environment: HUDI_BENCH_MALLOPT=1 tunes glibc's allocator as the hudic CLI does (src/cli/main.c);
 * HUDI_BENCH_TRIM=1 calls malloc_trim(0) before each write's rss_after_kb (the resident size
 * after the write with its batch freed: see BENCHMARKS.md on memory across upsert rounds);
 * HUDI_BENCH_LIVE=1 counts the bytes hudic holds through allocation hooks (hudi_set_allocator)
 * and adds live_after_kb, what is still allocated after each write, beside rss_after_kb, and
 * reader_cache_kb, the part of it that is the Parquet reader's warm-buffer cache (bounded).
 *
 * Key invariant: every row comes from trips_row(), which must stay identical to trips_sql()
 * in gen_trips.py (and to parquet_bench.c), so both engines work on the same rows; only the
 * measured call is inside the timed region (batches are built before the clock starts). */
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "format/parquet/meta.h"
#include "format/parquet/parquet.h"
#include "read/read.h"
#include "storage/storage.h"
#include "write/write.h"
#include "trips_gen.h"

#define MAX_KEYS 256

/* --codec: the names of the HUDI_PQ_CODEC_* values, in their order */
static const char *const codec_names[] = {"uncompressed", "snappy", "gzip", "lzo",
                                          "brotli",       "lz4",    "zstd", "lz4_raw"};

typedef struct bench_args {
    const char *mode, *path;
    int64_t rows;
    int rounds, small_rounds;
    int codec;
    bool simple_index;
    const char *phases;
    const char *keys;
    /* mor */
    bool create, compact;
    int dc_from, dc_to, deltacommits, scan_now;
    const char *scan_at;
    const char *threads;  /* --threads: hoodie.hudic.parallelism of the writes and the compaction
                             (NULL: default) */
    const char *props[5]; /* --threads and --markers as writer settings, NULL-terminated */
    const char *markers;
    const char *buckets; /* --buckets N: tables created with the simple bucket index, N buckets */
} bench_args;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU seconds of the calling thread alone: with the write's work on a pool, a bound on the
 * critical path that the machine's load does not inflate (the wall time does). */
static double thread_cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long status_kb(const char *key) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    size_t klen = strlen(key);
    long kb = -1;
    if (!f) return -1;
    while (fgets(line, sizeof(line), f))
        if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
            kb = strtol(line + klen + 1, NULL, 10);
            break;
        }
    fclose(f);
    return kb;
}

/* Resets VmHWM to the current RSS (Linux >= 4.0), so each phase reports its own peak. */
static void reset_peak_rss(void) {
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f) return;
    fputs("5", f);
    fclose(f);
}

static void die(const char *what, const hudi_error *err) {
    fprintf(stderr, "hudi_bench: %s: %s\n", what, err && err->message[0] ? err->message : "");
    exit(1);
}

/* ================================ trips rows ============================================== */

static void trips_schema(hudi_field *s) {
    if (trips_schema_init(s, "trips_record") < 0) die("out of memory", NULL);
}

/* What one batch holds: n rows, row r = generated row src(r) with salt salt(r). */
typedef struct batch_spec {
    int64_t n_upd, n_ins; /* updates first, then inserts */
    int64_t upd_first, upd_step, upd_salt;
    int64_t ins_first;
} batch_spec;

static hudi_batch *make_batch(const hudi_field *schema, const batch_spec *sp) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_batch *b = NULL;
    int64_t n = sp->n_upd + sp->n_ins;
    if (hudi_batch_new(&b, schema, &err) < 0) die("batch", &err);
    for (int c = 0; c < N_TRIP_COLS; c++) {
        hudi_array *a = b->columns[c];
        if (hudi_array_reserve(a, n, &err) < 0) die("reserve", &err);
        if (a->field->type == HUDI_TYPE_STRING &&
            hudi_array_reserve_data(a, n * (c == C_PART ? 40 : 36), &err) < 0)
            die("reserve", &err);
    }
    for (int64_t r = 0; r < sp->n_upd; r++)
        trips_row(b->columns, r, sp->upd_first + r * sp->upd_step, sp->upd_salt);
    for (int64_t r = 0; r < sp->n_ins; r++)
        trips_row(b->columns, sp->n_upd + r, sp->ins_first + r, 0);
    for (int c = 0; c < N_TRIP_COLS; c++) b->columns[c]->length = n;
    b->num_rows = n;
    if (hudi_batch_validate(b, &err) < 0) die("generated batch", &err);
    return b;
}

/* The workload (mirrored in hudi_run.py: expected counts and key samples):
 *   base      rows [0, N)
 *   round k   (1..R) updates of rows k-1, k-1+10, ... (N/10 of them, salt k), then inserts
 *             of rows [N + (k-1)N/20, N + kN/20)
 *   small s   (1..S) 500 updates of rows inserted by the last round (every I/500-th, offset
 *             s-1, salt R+s), then 500 inserts of rows [N + R·I + (s-1)·500, ... + 500) */
static int64_t ins_per_round(int64_t n) { return n / 20; }

static batch_spec base_spec(int64_t n) { return (batch_spec){.n_ins = n, .ins_first = 0}; }

static batch_spec round_spec(int64_t n, int k) {
    int64_t ins = ins_per_round(n);
    return (batch_spec){.n_upd = n / 10,
                        .upd_first = k - 1,
                        .upd_step = 10,
                        .upd_salt = k,
                        .n_ins = ins,
                        .ins_first = n + (k - 1) * ins};
}

static batch_spec small_spec(int64_t n, int rounds, int s) {
    int64_t ins = ins_per_round(n);
    int64_t step = ins / 500 > 0 ? ins / 500 : 1;
    return (batch_spec){.n_upd = 500,
                        .upd_first = n + (rounds - 1) * ins + (s - 1),
                        .upd_step = step,
                        .upd_salt = rounds + s,
                        .n_ins = 500,
                        .ins_first = n + rounds * ins + (int64_t)(s - 1) * 500};
}

/* The merge-on-read workload (mirrored in mor_run.py): after the bulk insert of rows [0, N),
 * deltacommit k updates existing rows only (salt k, so each carries a later ts):
 *   k = 1     1% of the rows:  0, 100, 200, ...  (N/100 rows)
 *   k = 2     10% of the rows: 1, 11, 21, ...    (N/10 rows)
 *   k >= 3    1,000 rows:      k, k + N/1000, k + 2N/1000, ...
 * The row order is unrelated to the uuid order, so every batch touches every file group. */
static batch_spec mor_dc_spec(int64_t n, int k) {
    if (k == 1)
        return (batch_spec){.n_upd = n / 100, .upd_first = 0, .upd_step = 100, .upd_salt = 1};
    if (k == 2) return (batch_spec){.n_upd = n / 10, .upd_first = 1, .upd_step = 10, .upd_salt = 2};
    return (batch_spec){.n_upd = 1000, .upd_first = k, .upd_step = n / 1000, .upd_salt = k};
}

/* ================================ gen ===================================================== */

static void write_parquet(hudi_fs *fs, const char *dir, const char *name, const hudi_field *schema,
                          const batch_spec *sp) {
    hudi_error err = HUDI_ERROR_INIT;
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    o.codec = PQ_CODEC_SNAPPY;
    hudi_pq_writer *w = NULL;
    if (hudi_pq_writer_open(&w, fs, path, schema, &o, &err) < 0) die(path, &err);
    /* In slices of 1M rows so generating 10M rows needs no 10M-row batch. */
    const int64_t slice = 1 << 20;
    int64_t total = sp->n_upd + sp->n_ins;
    for (int64_t at = 0; at < total; at += slice) {
        batch_spec part = {0};
        int64_t end = HUDI_MIN(total, at + slice);
        if (at < sp->n_upd) {
            int64_t ue = HUDI_MIN(end, sp->n_upd);
            part.n_upd = ue - at;
            part.upd_first = sp->upd_first + at * sp->upd_step;
            part.upd_step = sp->upd_step;
            part.upd_salt = sp->upd_salt;
        }
        int64_t is = HUDI_MAX(at, sp->n_upd);
        if (end > is) {
            part.n_ins = end - is;
            part.ins_first = sp->ins_first + (is - sp->n_upd);
        }
        hudi_batch *b = make_batch(schema, &part);
        if (hudi_pq_writer_write(w, b, &err) < 0) die(path, &err);
        hudi_batch_free(b);
    }
    int64_t bytes = 0;
    if (hudi_pq_writer_close(w, &bytes, &err) < 0) die(path, &err);
    printf("{\"file\":\"%s\",\"rows\":%" PRId64 ",\"bytes\":%" PRId64 "}\n", path, total, bytes);
}

static void run_gen(const bench_args *a) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_fs *fs = NULL;
    hudi_field schema;
    char name[64];
    if (hudi_fs_local_new(&fs, &err) < 0) die("local fs", &err);
    trips_schema(&schema);
    mkdir(a->path, 0755);
    batch_spec sp = base_spec(a->rows);
    write_parquet(fs, a->path, "base.parquet", &schema, &sp);
    for (int k = 1; k <= a->rounds; k++) {
        sp = round_spec(a->rows, k);
        snprintf(name, sizeof(name), "round%d.parquet", k);
        write_parquet(fs, a->path, name, &schema, &sp);
    }
    for (int s = 1; s <= a->small_rounds; s++) {
        sp = small_spec(a->rows, a->rounds, s);
        snprintf(name, sizeof(name), "small%d.parquet", s);
        write_parquet(fs, a->path, name, &schema, &sp);
    }
    hudi_field_dispose(&schema);
    hudi_fs_free(fs);
}

static void run_gen_mor(const bench_args *a) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_fs *fs = NULL;
    hudi_field schema;
    char name[64];
    if (hudi_fs_local_new(&fs, &err) < 0) die("local fs", &err);
    trips_schema(&schema);
    mkdir(a->path, 0755);
    batch_spec sp = base_spec(a->rows);
    write_parquet(fs, a->path, "base.parquet", &schema, &sp);
    for (int k = 1; k <= a->deltacommits; k++) {
        sp = mor_dc_spec(a->rows, k);
        snprintf(name, sizeof(name), "dc%d.parquet", k);
        write_parquet(fs, a->path, name, &schema, &sp);
    }
    hudi_field_dispose(&schema);
    hudi_fs_free(fs);
}

/* ================================ scan ==================================================== */

typedef struct scan_result {
    int64_t rows;
    double fsum[64];
    int64_t isum[64], bytes[64];
    char names[64][64];
    int n_cols;
    double open_s;
} scan_result;

typedef struct key_hit {
    char key[40];
    bool found;
    char part[64], rider[16];
    double fare;
    int64_t ts, dist;
} key_hit;

static int cmp_key_hit(const void *a, const void *b) {
    return strcmp(((const key_hit *)a)->key, ((const key_hit *)b)->key);
}

static int find_col(const hudi_field *s, const char *name) {
    for (int32_t i = 0; i < s->n_children; i++)
        if (strcmp(s->children[i].name, name) == 0) return i;
    return -1;
}

static void copy_str(char *dst, size_t cap, const hudi_array *a, int64_t i) {
    int32_t s = a->offsets[i], len = a->offsets[i + 1] - s;
    if ((size_t)len >= cap) len = (int32_t)cap - 1;
    memcpy(dst, a->data + s, (size_t)len);
    dst[len] = 0;
}

/* Snapshot scan of every column: rows, per-column sums (doubles, longs) and string bytes;
 * with keys, the data of those keys' rows. */
static void do_scan(hudi_table *t, scan_result *res, key_hit *keys, int n_keys) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_scan_options o = HUDI_SCAN_OPTIONS_INIT;
    hudi_reader *rd = NULL;
    memset(res, 0, sizeof(*res));
    double t0 = now_s();
    if (hudi_reader_open(&rd, t, &o, &err) < 0) die("reader open", &err);
    res->open_s = now_s() - t0;
    const hudi_field *s = hudi_reader_schema(rd);
    res->n_cols = s->n_children < 64 ? s->n_children : 64;
    for (int c = 0; c < res->n_cols; c++)
        snprintf(res->names[c], sizeof(res->names[c]), "%s", s->children[c].name);
    int ck = find_col(s, "uuid"), cp = find_col(s, "partition_path"), cf = find_col(s, "fare"),
        ct = find_col(s, "ts"), cd = find_col(s, "distance_m"), cr = find_col(s, "rider");
    hudi_batch *b;
    while (hudi_reader_next(rd, &b, &err) == 0 && b) {
        res->rows += b->num_rows;
        for (int c = 0; c < res->n_cols; c++) {
            const hudi_array *a = b->columns[c];
            int64_t n = a->length;
            switch (a->field->type) {
            case HUDI_TYPE_DOUBLE: {
                const double *v = a->values;
                double x = 0;
                for (int64_t i = 0; i < n; i++) x += v[i];
                res->fsum[c] += x;
                break;
            }
            case HUDI_TYPE_INT64: {
                const int64_t *v = a->values;
                int64_t x = 0;
                for (int64_t i = 0; i < n; i++) x += v[i];
                res->isum[c] += x;
                break;
            }
            case HUDI_TYPE_STRING:
                if (n > 0) res->bytes[c] += a->offsets[n] - a->offsets[0];
                break;
            default: break;
            }
        }
        if (n_keys > 0 && ck >= 0) {
            const hudi_array *ka = b->columns[ck];
            for (int64_t i = 0; i < b->num_rows; i++) {
                key_hit probe;
                copy_str(probe.key, sizeof(probe.key), ka, i);
                key_hit *h = bsearch(&probe, keys, (size_t)n_keys, sizeof(*keys), cmp_key_hit);
                if (!h) continue;
                h->found = true;
                if (cp >= 0) copy_str(h->part, sizeof(h->part), b->columns[cp], i);
                if (cr >= 0) copy_str(h->rider, sizeof(h->rider), b->columns[cr], i);
                if (cf >= 0) h->fare = ((const double *)b->columns[cf]->values)[i];
                if (ct >= 0) h->ts = ((const int64_t *)b->columns[ct]->values)[i];
                if (cd >= 0) h->dist = ((const int64_t *)b->columns[cd]->values)[i];
            }
        }
    }
    if (err.code < 0) die("reader", &err);
    hudi_reader_free(rd);
}

static void print_scan(const scan_result *r) {
    printf("\"sums\":{");
    int first = 1;
    for (int c = 0; c < r->n_cols; c++) {
        /* Sums of the data columns (meta columns differ between engines: instants, names). */
        if (strncmp(r->names[c], "_hoodie_", 8) == 0) continue;
        printf("%s\"%s\":", first ? "" : ",", r->names[c]);
        if (r->fsum[c] != 0)
            printf("%.17g", r->fsum[c]);
        else if (r->bytes[c] != 0)
            printf("%" PRId64, r->bytes[c]);
        else
            printf("%" PRId64, r->isum[c]);
        first = 0;
    }
    printf("}");
}

static int parse_keys(const char *list, key_hit *keys) {
    int n = 0;
    for (const char *p = list; p && *p && n < MAX_KEYS;) {
        size_t len = strcspn(p, ",");
        memset(&keys[n], 0, sizeof(keys[n]));
        if (len >= sizeof(keys[n].key)) die("--keys: key too long", NULL);
        memcpy(keys[n].key, p, len);
        n++;
        p += len + (p[len] == ',');
    }
    qsort(keys, (size_t)n, sizeof(*keys), cmp_key_hit);
    return n;
}

static void run_scan_only(const bench_args *a) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    static key_hit keys[MAX_KEYS];
    int n_keys = parse_keys(a->keys, keys);
    if (hudi_tbl_open(&t, NULL, a->path, &err) < 0) die(a->path, &err);
    scan_result res;
    double t0 = now_s();
    do_scan(t, &res, keys, n_keys);
    printf("{\"mode\":\"scan\",\"table\":\"%s\",\"time_s\":%.6f,\"rows\":%" PRId64 ",", a->path,
           now_s() - t0, res.rows);
    print_scan(&res);
    printf(",\"keys\":{");
    for (int i = 0; i < n_keys; i++) {
        const key_hit *h = &keys[i];
        printf("%s\"%s\":", i ? "," : "", h->key);
        if (!h->found)
            printf("null");
        else
            printf("[\"%s\",\"%s\",%.17g,%" PRId64 ",%" PRId64 "]", h->part, h->rider, h->fare,
                   h->ts, h->dist);
    }
    printf("}}\n");
    hudi_tbl_free(t);
}

/* ================================ run ===================================================== */

typedef struct phase {
    double t0, c0, tc0;
    long setup_kb;
} phase;

static void phase_begin(phase *p) {
    p->setup_kb = status_kb("VmRSS");
    reset_peak_rss();
    p->c0 = cpu_s();
    p->tc0 = thread_cpu_s();
    p->t0 = now_s();
}

static void phase_end_print(const phase *p, const char *name, int round, int64_t rows) {
    double dt = now_s() - p->t0, dc = cpu_s() - p->c0, dtc = thread_cpu_s() - p->tc0;
    printf("{\"phase\":\"%s\",\"round\":%d,\"rows\":%" PRId64
           ",\"time_s\":%.6f,\"cpu_s\":%.6f,\"thread_cpu_s\":%.6f,\"setup_rss_kb\":%ld,"
           "\"peak_rss_kb\":%ld",
           name, round, rows, dt, dc, dtc, p->setup_kb, status_kb("VmHWM"));
}

/* HUDI_BENCH_LIVE: the bytes allocated through hudic's hooks and not yet freed (usable sizes,
 * so glibc's rounding is included; its retained free memory is not). */
static _Atomic long long g_live;

static void *live_malloc(size_t n, void *payload) {
    (void)payload;
    void *p = malloc(n);
    if (p) g_live += (long long)malloc_usable_size(p);
    return p;
}

static void *live_realloc(void *p, size_t n, void *payload) {
    (void)payload;
    long long old = p ? (long long)malloc_usable_size(p) : 0;
    void *q = realloc(p, n);
    if (q) g_live += (long long)malloc_usable_size(q) - old;
    return q;
}

static void live_free(void *p, void *payload) {
    (void)payload;
    if (p) g_live -= (long long)malloc_usable_size(p);
    free(p);
}

/* Ends a write's JSON line; call after the input batch is freed: rss_after_kb is the resident
 * size the write left behind (the table handle, and what the allocator keeps). With
 * HUDI_BENCH_TRIM set, malloc_trim(0) runs first, so the two can be told apart. */
static void print_write_result(const hudi_table_write_result *r) {
    if (getenv("HUDI_BENCH_TRIM")) malloc_trim(0);
    printf(",\"instant\":\"%s\",\"inserts\":%" PRId64 ",\"updates\":%" PRId64
           ",\"files_written\":%" PRId64 ",\"bytes_written\":%" PRId64 ",\"rss_after_kb\":%ld",
           r->instant, r->inserts, r->updates, r->files_written, r->bytes_written,
           status_kb("VmRSS"));
    if (getenv("HUDI_BENCH_LIVE"))
        printf(",\"live_after_kb\":%lld,\"reader_cache_kb\":%zu,\"warm_cache_kb\":%zu",
               (long long)g_live / 1024, hudi_pq_buffer_cache_bytes() / 1024,
               hudi_alloc_warm_bytes() / 1024);
    printf("}\n");
    fflush(stdout);
}

static bool has_phase(const bench_args *a, const char *name) {
    if (!a->phases) return true;
    size_t len = strlen(name);
    for (const char *p = a->phases; *p;) {
        size_t l = strcspn(p, ",");
        if (l == len && memcmp(p, name, len) == 0) return true;
        p += l + (p[l] == ',');
    }
    return false;
}

static void timed_write(const bench_args *a, hudi_table *t, const hudi_field *schema,
                        const batch_spec *sp, hudi_write_operation op, const char *name,
                        int round) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    hudi_table_write_result res;
    o.op = op;
    o.codec = a->codec;
    o.latest_wins = true; /* OverwriteWithLatestAvroPayload, Spark's default for 0.15 */
    o.use_bloom_index = !a->simple_index;
    o.target_file_bytes = 120ll << 20;
    o.small_file_bytes = 100ll << 20;
    o.props = a->props[0] ? a->props : NULL;
    hudi_batch *b = make_batch(schema, sp);
    phase p;
    phase_begin(&p);
    if (hudi_tbl_write(t, b, &o, &res, &err) < 0) die(name, &err);
    phase_end_print(&p, name, round, b->num_rows);
    hudi_batch_free(b);
    print_write_result(&res);
}

static void run_run(const bench_args *a) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_fs *fs = NULL;
    hudi_table *t = NULL;
    hudi_field schema;
    if (hudi_fs_local_new(&fs, &err) < 0) die("local fs", &err);
    trips_schema(&schema);
    if (has_phase(a, "bulk")) {
        /* The table's creation (hoodie.properties, timeline folders) is part of the timed
         * bulk insert, as it is of Spark's first df.write. */
        batch_spec sp = base_spec(a->rows);
        hudi_batch *b = make_batch(&schema, &sp);
        hudi_create_options co = HUDI_CREATE_OPTIONS_INIT;
        co.table_name = "trips";
        co.record_key_fields = "uuid";
        co.partition_fields = "partition_path";
        co.precombine_field = "ts";
        co.schema = &schema;
        /* --buckets: in hoodie.properties, so every write of the table uses the index */
        const char *const bucket_props[] = {"hoodie.index.type", "BUCKET",
                                            "hoodie.bucket.index.num.buckets", a->buckets, NULL};
        if (a->buckets) co.extra_props = bucket_props;
        hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
        hudi_table_write_result res;
        o.op = HUDI_WRITE_BULK_INSERT;
        o.codec = a->codec;
        o.latest_wins = true;
        o.use_bloom_index = !a->simple_index;
        o.target_file_bytes = 120ll << 20;
        o.small_file_bytes = 100ll << 20;
        o.props = a->props[0] ? a->props : NULL;
        phase p;
        phase_begin(&p);
        if (hudi_tbl_create(&t, fs, a->path, &co, &err) < 0) die("create", &err);
        if (hudi_tbl_write(t, b, &o, &res, &err) < 0) die("bulk_insert", &err);
        phase_end_print(&p, "bulk_insert", 0, b->num_rows);
        hudi_batch_free(b);
        print_write_result(&res);
    } else if (hudi_tbl_open(&t, fs, a->path, &err) < 0) {
        die(a->path, &err);
    }
    if (has_phase(a, "upsert"))
        for (int k = 1; k <= a->rounds; k++) {
            batch_spec sp = round_spec(a->rows, k);
            timed_write(a, t, &schema, &sp, HUDI_WRITE_UPSERT, "upsert", k);
        }
    if (has_phase(a, "small"))
        for (int s = 1; s <= a->small_rounds; s++) {
            batch_spec sp = small_spec(a->rows, a->rounds, s);
            timed_write(a, t, &schema, &sp, HUDI_WRITE_UPSERT, "upsert_1000", s);
        }
    if (has_phase(a, "scan"))
        for (int r = 0; r < 2; r++) { /* first: cold process caches; second: warm */
            scan_result res;
            phase p;
            phase_begin(&p);
            do_scan(t, &res, NULL, 0);
            phase_end_print(&p, "scan", r, res.rows);
            printf(",\"open_s\":%.6f,", res.open_s);
            print_scan(&res);
            printf("}\n");
            fflush(stdout);
        }
    hudi_tbl_free(t);
    hudi_field_dispose(&schema);
    hudi_fs_free(fs);
}

/* ================================ mor ===================================================== */

static bool in_list(const char *list, int k) {
    for (const char *p = list; p && *p;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p) break;
        if (v == k) return true;
        p = end + (*end == ',');
    }
    return false;
}

static int g_scan_reps = 2; /* --scan-reps */

static void timed_scans(hudi_table *t, const char *name, int label) {
    for (int r = 0; r < g_scan_reps; r++) { /* first: cold process caches; then warm */
        scan_result res;
        phase p;
        phase_begin(&p);
        do_scan(t, &res, NULL, 0);
        phase_end_print(&p, name, label, res.rows);
        printf(",\"rep\":%d,\"open_s\":%.6f,", r, res.open_s);
        print_scan(&res);
        printf("}\n");
        fflush(stdout);
    }
}

static void run_mor(const bench_args *a) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_fs *fs = NULL;
    hudi_table *t = NULL;
    hudi_field schema;
    if (hudi_fs_local_new(&fs, &err) < 0) die("local fs", &err);
    trips_schema(&schema);
    if (a->create) {
        batch_spec sp = base_spec(a->rows);
        hudi_batch *b = make_batch(&schema, &sp);
        hudi_create_options co = HUDI_CREATE_OPTIONS_INIT;
        co.table_name = "trips";
        co.type = HUDI_MERGE_ON_READ;
        co.record_key_fields = "uuid";
        co.partition_fields = "partition_path";
        co.precombine_field = "ts";
        co.schema = &schema;
        /* --buckets: in hoodie.properties, so every write of the table uses the index */
        const char *const bucket_props[] = {"hoodie.index.type", "BUCKET",
                                            "hoodie.bucket.index.num.buckets", a->buckets, NULL};
        if (a->buckets) co.extra_props = bucket_props;
        hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
        hudi_table_write_result res;
        o.op = HUDI_WRITE_BULK_INSERT;
        o.codec = a->codec;
        o.latest_wins = true;
        o.target_file_bytes = 120ll << 20;
        o.small_file_bytes = 100ll << 20;
        phase p;
        phase_begin(&p);
        if (hudi_tbl_create(&t, fs, a->path, &co, &err) < 0) die("create", &err);
        if (hudi_tbl_write(t, b, &o, &res, &err) < 0) die("bulk_insert", &err);
        phase_end_print(&p, "bulk_insert", 0, b->num_rows);
        hudi_batch_free(b);
        print_write_result(&res);
    } else if (hudi_tbl_open(&t, fs, a->path, &err) < 0) {
        die(a->path, &err);
    }
    if (a->scan_now >= 0) timed_scans(t, "scan", a->scan_now);
    for (int k = a->dc_from; k >= 1 && k <= a->dc_to; k++) {
        batch_spec sp = mor_dc_spec(a->rows, k);
        timed_write(a, t, &schema, &sp, HUDI_WRITE_UPSERT,
                    k == 1   ? "upsert_1pct"
                    : k == 2 ? "upsert_10pct"
                             : "upsert_1000",
                    k);
        if (in_list(a->scan_at, k)) timed_scans(t, "scan", k);
    }
    if (a->compact) {
        char instant[32] = "";
        phase p;
        if (a->threads &&
            hudi_props_set(&t->props, "hoodie.hudic.parallelism", a->threads, &err) < 0)
            die("--threads", &err);
        /* the new base files in the writes' codec (--codec), as Spark's run sets it */
        if (hudi_props_set(&t->props, "hoodie.parquet.compression.codec", codec_names[a->codec],
                           &err) < 0)
            die("--codec", &err);
        phase_begin(&p);
        int n = hudi_tbl_compact(t, NULL, instant, &err);
        if (n < 0) die("compact", &err);
        phase_end_print(&p, "compact", 0, 0);
        printf(",\"instant\":\"%s\",\"file_groups\":%d,\"threads\":\"%s\"}\n", instant, n,
               a->threads ? a->threads : "default");
        fflush(stdout);
        /* The compacted table, read through a fresh handle as a new reader would. */
        hudi_tbl_free(t);
        t = NULL;
        if (hudi_tbl_open(&t, fs, a->path, &err) < 0) die(a->path, &err);
        timed_scans(t, "scan_compacted", 0);
    }
    hudi_tbl_free(t);
    hudi_field_dispose(&schema);
    hudi_fs_free(fs);
}

/* ================================ main ==================================================== */

static int parse_codec(const char *s) {
    for (int i = 0; i < (int)HUDI_ARRAY_LEN(codec_names); i++)
        if (strcasecmp(s, codec_names[i]) == 0) return i;
    die("unknown --codec", NULL);
    return 0;
}

static void usage(void) {
    fputs("usage: hudi_bench run TABLE [--rows N] [--rounds R] [--small-rounds S] [--codec C]\n"
          "                            [--simple-index] [--phases bulk,upsert,small,scan]\n"
          "                            [--threads T] [--buckets N] [--markers TYPE]\n"
          "       hudi_bench gen DIR [--rows N] [--rounds R] [--small-rounds S]\n"
          "       hudi_bench scan TABLE [--keys k1,k2,...]\n"
          "       hudi_bench mor TABLE [--rows N] [--create] [--dc-from A --dc-to B]\n"
          "                            [--scan-at K,...] [--scan-now K] [--compact] [--threads N] "
          "[--codec C]\n"
          "                            [--buckets N] [--markers TYPE] [--scan-reps R]\n"
          "       hudi_bench gen-mor DIR [--rows N] [--deltacommits D]\n",
          stderr);
    exit(2);
}

int main(int argc, char **argv) {
#ifdef __GLIBC__
    /* HUDI_BENCH_MALLOPT: the allocator settings the hudic CLI uses (src/cli/main.c), to measure
     * what freed buffers returning to the kernel cost an embedding program that keeps glibc's
     * defaults */
    if (getenv("HUDI_BENCH_MALLOPT")) {
        mallopt(M_MMAP_THRESHOLD, 64 << 20);
        mallopt(M_TRIM_THRESHOLD, 256 << 20);
    }
#endif
    if (getenv("HUDI_BENCH_LIVE")) {
        hudi_allocator live = {live_malloc, live_realloc, live_free, NULL};
        hudi_set_allocator(&live);
    }
    bench_args a = {.rows = 1000000,
                    .rounds = 5,
                    .small_rounds = 3,
                    .codec = PQ_CODEC_SNAPPY,
                    .deltacommits = 10,
                    .scan_now = -1};
    if (argc < 3) usage();
    a.mode = argv[1];
    a.path = argv[2];
    for (int i = 3; i < argc; i++) {
        const char *k = argv[i];
        if (strcmp(k, "--simple-index") == 0 || strcmp(k, "--create") == 0 ||
            strcmp(k, "--compact") == 0) {
            if (strcmp(k, "--simple-index") == 0) a.simple_index = true;
            if (strcmp(k, "--create") == 0) a.create = true;
            if (strcmp(k, "--compact") == 0) a.compact = true;
            continue;
        }
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) usage();
        i++;
        if (strcmp(k, "--rows") == 0)
            a.rows = strtoll(v, NULL, 10);
        else if (strcmp(k, "--rounds") == 0)
            a.rounds = atoi(v);
        else if (strcmp(k, "--small-rounds") == 0)
            a.small_rounds = atoi(v);
        else if (strcmp(k, "--codec") == 0)
            a.codec = parse_codec(v);
        else if (strcmp(k, "--phases") == 0)
            a.phases = v;
        else if (strcmp(k, "--keys") == 0)
            a.keys = v;
        else if (strcmp(k, "--dc-from") == 0)
            a.dc_from = atoi(v);
        else if (strcmp(k, "--dc-to") == 0)
            a.dc_to = atoi(v);
        else if (strcmp(k, "--deltacommits") == 0)
            a.deltacommits = atoi(v);
        else if (strcmp(k, "--scan-at") == 0)
            a.scan_at = v;
        else if (strcmp(k, "--scan-now") == 0)
            a.scan_now = atoi(v);
        else if (strcmp(k, "--threads") == 0)
            a.threads = v;
        else if (strcmp(k, "--buckets") == 0)
            a.buckets = v;
        else if (strcmp(k, "--markers") == 0)
            a.markers = v;
        else if (strcmp(k, "--scan-reps") == 0 && atoi(v) >= 1 && atoi(v) <= 20)
            g_scan_reps = atoi(v);
        else
            usage();
    }
    int np = 0;
    if (a.threads) {
        a.props[np++] = "hoodie.hudic.parallelism";
        a.props[np++] = a.threads;
    }
    if (a.markers) {
        a.props[np++] = "hoodie.write.markers.type";
        a.props[np++] = a.markers;
    }
    /* Rows up to 2^31 - 2 keep every uuid distinct (the LCG step is a bijection below P). */
    if (a.rows < 10000 || a.rows > 1000000000 || a.rounds < 1 || a.rounds > 100 ||
        a.small_rounds < 0 || a.small_rounds > 100 || a.deltacommits < 1 || a.deltacommits > 97)
        usage();
    if (strcmp(a.mode, "run") == 0)
        run_run(&a);
    else if (strcmp(a.mode, "gen") == 0)
        run_gen(&a);
    else if (strcmp(a.mode, "scan") == 0)
        run_scan_only(&a);
    else if (strcmp(a.mode, "mor") == 0)
        run_mor(&a);
    else if (strcmp(a.mode, "gen-mor") == 0)
        run_gen_mor(&a);
    else
        usage();
    return 0;
}
