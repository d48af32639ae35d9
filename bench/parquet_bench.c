/* parquet_bench.c - times hudic's Parquet reader and writer on trips-shaped files, for
 * bench/run.py to put side by side with DuckDB.
 *
 *   parquet_bench scan FILE [--threads N] [--columns a,b] [--where COL OP VALUE] [--batch-rows N]
 *   parquet_bench rawcodec FILE [--columns a,b]   (top-level names; first path element)
 *   parquet_bench write OUT [--rows N] [--codec snappy] [--threads N] [--row-group-rows N]
 *                           [--encoding col=ENC,col=ENC...] [--no-dictionary 1]
 *   common: [--repeat R] [--warmup W]
 *
 * Each mode prints one JSON line: per-repetition wall and CPU seconds, rows, peak RSS (VmHWM,
 * whole process lifetime) and the RSS after setup, plus per-column checksums
 * (sum of numbers, bytes of strings) that run.py compares with DuckDB's answers, so a fast
 * but wrong reader is caught.
 *
 * Key invariant: only the measured operation is inside the timed region. `write` builds
 * all its batches before the clock starts; `scan` opens files inside it (as DuckDB does).
 * The trips generator below must stay identical to trips_sql() in gen_trips.py. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "format/parquet/codec.h"
#include "format/parquet/meta.h"
#include "format/parquet/parquet.h"
#include "storage/storage.h"
#include "trips_gen.h"

#define MAX_REPEAT 64
#define MAX_COLS 256

typedef struct bench_args {
    const char *mode, *path;
    int threads, repeat, warmup;
    const char *columns; /* comma list or NULL */
    const char *where;   /* "col>value" or NULL */
    int64_t rows, batch_rows, row_group_rows;
    int codec;
    hudi_pq_column_encoding encodings[MAX_COLS];
    int32_t n_encodings;
    bool no_dictionary;
} bench_args;

/* Per-column checksum: what run.py compares with DuckDB's sum()/sum(strlen()). */
typedef struct colsum {
    double fsum;
    __int128 isum;
    int64_t bytes, nulls, n;
} colsum;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU seconds of the whole process (all threads): less sensitive than wall time to other
 * processes competing for the two cores. */
static double cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A line "Key:  N kB" of /proc/self/status, or -1. */
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

/* Peak RSS of this process image. VmHWM, not ru_maxrss: Linux carries ru_maxrss across
 * execve, so a child of a big parent (run.py imports DuckDB) would report the parent's peak. */
static long peak_rss_kb(void) {
    long kb = status_kb("VmHWM");
    if (kb < 0) {
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        kb = ru.ru_maxrss;
    }
    return kb;
}

static long current_rss_kb(void) { return status_kb("VmRSS"); }

static void die(const char *what, const hudi_error *err) {
    fprintf(stderr, "parquet_bench: %s: %s\n", what, err && err->message[0] ? err->message : "");
    exit(1);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(const double *t, int n) {
    double s[MAX_REPEAT];
    memcpy(s, t, (size_t)n * sizeof(double));
    qsort(s, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static void print_i128(__int128 v) {
    char buf[48];
    int i = (int)sizeof(buf);
    bool neg = v < 0;
    unsigned __int128 u = neg ? -(unsigned __int128)v : (unsigned __int128)v;
    buf[--i] = 0;
    do {
        buf[--i] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u);
    if (neg) buf[--i] = '-';
    fputs(&buf[i], stdout);
}

static void print_list(const char *name, const double *t, int n) {
    printf("\"%s\":[", name);
    for (int i = 0; i < n; i++) printf("%s%.6f", i ? "," : "", t[i]);
    printf("]");
}

/* Wall and CPU seconds of each repetition, and the median wall time. */
static void print_times(const double *t, const double *cpu, int n) {
    print_list("times_s", t, n);
    printf(",");
    print_list("cpu_s", cpu, n);
    printf(",\"median_s\":%.6f", median(t, n));
}

/* ================================ scan ==================================================== */

typedef struct scan_shared {
    const bench_args *a;
    hudi_fs *fs;
    const int32_t *cols;
    int32_t n_cols;
    const hudi_pq_predicate *pred; /* NULL or one */
    int32_t n_rgs;
} scan_shared;

typedef struct scan_job {
    scan_shared *sh;
    int index;
    pthread_t tid;
    int64_t rows;
    colsum sums[MAX_COLS];
    int rc;
    hudi_error err;
} scan_job;

static void sum_array(colsum *cs, const hudi_array *a) {
    int64_t n = a->length;
    cs->n += n;
    cs->nulls += a->null_count;
    switch (a->field->type) {
    case HUDI_TYPE_DOUBLE: {
        const double *v = a->values;
        double s = 0;
        for (int64_t i = 0; i < n; i++) s += v[i];
        cs->fsum += s;
        break;
    }
    case HUDI_TYPE_FLOAT: {
        const float *v = a->values;
        double s = 0;
        for (int64_t i = 0; i < n; i++) s += v[i];
        cs->fsum += s;
        break;
    }
    case HUDI_TYPE_INT64:
    case HUDI_TYPE_UINT64:
    case HUDI_TYPE_TIMESTAMP: {
        const int64_t *v = a->values;
        __int128 s = 0;
        for (int64_t i = 0; i < n; i++) s += v[i];
        cs->isum += s;
        break;
    }
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_DATE: {
        const int32_t *v = a->values;
        int64_t s = 0;
        for (int64_t i = 0; i < n; i++) s += v[i];
        cs->isum += s;
        break;
    }
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY:
        if (n > 0) cs->bytes += a->offsets[n] - a->offsets[0];
        break;
    default: break;
    }
}

/* Thread t reads row groups [t*n/T, (t+1)*n/T) through one scan on its own
 * hudi_pq_file, so no reader state is shared and the scan's batch buffers are reused
 * across its row groups. (DuckDB hands out row groups dynamically; with equal row groups a
 * static split balances as well.) */
static void *scan_thread(void *p) {
    scan_job *j = p;
    scan_shared *sh = j->sh;
    hudi_pq_file *f = NULL;
    hudi_pq_scan *s = NULL;
    int32_t first = (int32_t)((int64_t)sh->n_rgs * j->index / sh->a->threads);
    int32_t last = (int32_t)((int64_t)sh->n_rgs * (j->index + 1) / sh->a->threads);
    int32_t rgs[1024];
    if (last - first > (int32_t)HUDI_ARRAY_LEN(rgs)) {
        j->rc = hudi_error_set(&j->err, HUDI_EINVAL, "too many row groups per thread");
        return NULL;
    }
    if (last == first) return NULL;
    for (int32_t g = first; g < last; g++) rgs[g - first] = g;
    if ((j->rc = hudi_pq_open(&f, sh->fs, sh->a->path, NULL, &j->err)) < 0) return NULL;
    hudi_pq_scan_options o = HUDI_PQ_SCAN_OPTIONS_INIT;
    o.columns = sh->cols;
    o.n_columns = sh->n_cols;
    o.batch_rows = sh->a->batch_rows;
    o.row_groups = rgs;
    o.n_row_groups = last - first;
    if (sh->pred) {
        o.predicates = sh->pred;
        o.n_predicates = 1;
        o.filter_rows = true;
    }
    if ((j->rc = hudi_pq_scan_open(&s, f, &o, &j->err)) == 0) {
        hudi_batch *b;
        while ((j->rc = hudi_pq_scan_next(s, &b, &j->err)) == 0 && b) {
            j->rows += b->num_rows;
            for (int32_t c = 0; c < b->n_columns && c < MAX_COLS; c++)
                sum_array(&j->sums[c], b->columns[c]);
        }
    }
    hudi_pq_scan_free(s);
    hudi_pq_close(f);
    return NULL;
}

static int32_t find_column(const hudi_field *schema, const char *name, size_t len) {
    for (int32_t i = 0; i < schema->n_children; i++)
        if (strlen(schema->children[i].name) == len &&
            memcmp(schema->children[i].name, name, len) == 0)
            return i;
    return -1;
}

/* "fare>99.5" -> predicate on column `fare`. The value is parsed for the column's type. */
static void parse_where(const char *w, const hudi_field *schema, hudi_pq_predicate *p) {
    static const struct {
        const char *s;
        hudi_cmp_op op;
    } ops[] = {
        {">=", HUDI_CMP_GE}, {"<=", HUDI_CMP_LE}, {"!=", HUDI_CMP_NE},
        {">", HUDI_CMP_GT},  {"<", HUDI_CMP_LT},  {"=", HUDI_CMP_EQ},
    };
    size_t pos = strcspn(w, "<>=!");
    const char *rest = w + pos;
    size_t k;
    for (k = 0; k < HUDI_ARRAY_LEN(ops); k++)
        if (strncmp(rest, ops[k].s, strlen(ops[k].s)) == 0) break;
    if (w[pos] == 0 || k == HUDI_ARRAY_LEN(ops)) die("--where wants COL OP VALUE", NULL);
    memset(p, 0, sizeof(*p));
    if ((p->column = find_column(schema, w, pos)) < 0) die("--where: no such column", NULL);
    p->op = ops[k].op;
    const char *v = rest + strlen(ops[k].s);
    switch (schema->children[p->column].type) {
    case HUDI_TYPE_DOUBLE:
    case HUDI_TYPE_FLOAT: p->value.f64 = strtod(v, NULL); break;
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY: p->value.bytes = hudi_slice_cstr(v); break;
    default: p->value.i64 = strtoll(v, NULL, 10); break;
    }
}

static int32_t parse_columns(const char *list, const hudi_field *schema, int32_t *cols) {
    int32_t n = 0;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        int32_t c = find_column(schema, p, len);
        if (c < 0 || n >= MAX_COLS) die("--columns: no such column (or too many)", NULL);
        cols[n++] = c;
        p += len + (p[len] == ',');
    }
    return n;
}

static void run_scan(const bench_args *a) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_fs *fs = NULL;
    hudi_pq_file *f = NULL;
    if (hudi_fs_local_new(&fs, &err) < 0) die("local fs", &err);
    if (hudi_pq_open(&f, fs, a->path, NULL, &err) < 0) die(a->path, &err);
    const hudi_field *schema = hudi_pq_schema(f);
    int32_t cols[MAX_COLS + 1], n_cols = 0;
    hudi_pq_predicate pred;
    if (a->columns) n_cols = parse_columns(a->columns, schema, cols);
    if (a->where) {
        parse_where(a->where, schema, &pred);
        if (!a->columns) cols[n_cols++] = pred.column; /* a filter reads its own column */
        bool have = false;
        for (int32_t i = 0; i < n_cols; i++) have |= cols[i] == pred.column;
        if (!have) cols[n_cols++] = pred.column;
    }
    scan_shared sh = {.a = a,
                      .fs = fs,
                      .cols = n_cols ? cols : NULL,
                      .n_cols = n_cols,
                      .pred = a->where ? &pred : NULL,
                      .n_rgs = hudi_pq_meta(f)->n_row_groups};
    int32_t out_cols = n_cols ? n_cols : schema->n_children;
    long setup_rss = current_rss_kb();
    double times[MAX_REPEAT], cpus[MAX_REPEAT];
    scan_job *jobs = calloc((size_t)a->threads, sizeof(scan_job));
    if (!jobs) die("out of memory", NULL);
    for (int r = -a->warmup; r < a->repeat; r++) {
        memset(jobs, 0, (size_t)a->threads * sizeof(scan_job));
        double t0 = now_s(), c0 = cpu_s();
        for (int t = 0; t < a->threads; t++) {
            jobs[t].sh = &sh;
            jobs[t].index = t;
            if (pthread_create(&jobs[t].tid, NULL, scan_thread, &jobs[t]) != 0)
                die("pthread_create", NULL);
        }
        for (int t = 0; t < a->threads; t++) pthread_join(jobs[t].tid, NULL);
        double dt = now_s() - t0, dc = cpu_s() - c0;
        for (int t = 0; t < a->threads; t++)
            if (jobs[t].rc < 0) die(a->path, &jobs[t].err);
        if (r >= 0) {
            times[r] = dt;
            cpus[r] = dc;
        }
    }
    /* Merge the last repetition's per-thread results. */
    int64_t rows = 0;
    colsum total[MAX_COLS];
    memset(total, 0, sizeof(total));
    for (int t = 0; t < a->threads; t++) {
        rows += jobs[t].rows;
        for (int32_t c = 0; c < out_cols && c < MAX_COLS; c++) {
            total[c].fsum += jobs[t].sums[c].fsum;
            total[c].isum += jobs[t].sums[c].isum;
            total[c].bytes += jobs[t].sums[c].bytes;
            total[c].nulls += jobs[t].sums[c].nulls;
            total[c].n += jobs[t].sums[c].n;
        }
    }
    printf("{\"mode\":\"scan\",\"file\":\"%s\",\"threads\":%d,\"rows\":%" PRId64 ",", a->path,
           a->threads, rows);
    print_times(times, cpus, a->repeat);
    printf(",\"peak_rss_kb\":%ld,\"setup_rss_kb\":%ld,\"checksums\":{", peak_rss_kb(), setup_rss);
    for (int32_t c = 0; c < out_cols && c < MAX_COLS; c++) {
        const hudi_field *fl = &schema->children[n_cols ? cols[c] : c];
        printf("%s\"%s\":{\"n\":%" PRId64 ",\"nulls\":%" PRId64, c ? "," : "", fl->name, total[c].n,
               total[c].nulls);
        if (fl->type == HUDI_TYPE_DOUBLE || fl->type == HUDI_TYPE_FLOAT)
            printf(",\"sum\":%.17g", total[c].fsum);
        else if (fl->type == HUDI_TYPE_STRING || fl->type == HUDI_TYPE_BINARY)
            printf(",\"bytes\":%" PRId64, total[c].bytes);
        else {
            printf(",\"sum\":");
            print_i128(total[c].isum);
        }
        printf("}");
    }
    printf("}}\n");
    free(jobs);
    hudi_pq_close(f);
    hudi_fs_free(fs);
}

/* ================================ rawcodec ================================================ */

/* Decompresses every page of every column chunk exactly as a reader must, and nothing else:
 * the floor under any Parquet reader's cost for this file. */
typedef struct raw_result {
    double decompress_s, decompress_cpu_s, total_s;
    int64_t pages, compressed_bytes, uncompressed_bytes;
} raw_result;

/* The chunk's bytes: a borrowed view when the backend has one, else read into *chunk. */
static const uint8_t *chunk_bytes(hudi_file *file, int64_t start, size_t len, uint8_t **chunk,
                                  size_t *chunk_cap) {
    hudi_error err = HUDI_ERROR_INIT;
    const uint8_t *p = NULL;
    if (hudi_file_view(file, start, len, &p, &err) < 0) die("view of a column chunk", &err);
    if (p) return p;
    if (len > *chunk_cap) {
        free(*chunk);
        *chunk_cap = len;
        if (!(*chunk = malloc(len))) die("out of memory", NULL);
    }
    if (hudi_file_read_at(file, start, *chunk, len, &err) < 0) die("read of a column chunk", &err);
    return *chunk;
}

static void raw_chunk(hudi_file *file, const pq_column_meta *cm, pq_codec_ctx *ctx, uint8_t **buf,
                      size_t *cap, uint8_t **chunk, size_t *chunk_cap, raw_result *res) {
    hudi_error err = HUDI_ERROR_INIT;
    int64_t start = cm->data_page_offset;
    if (cm->has_dictionary_page_offset && cm->dictionary_page_offset > 0 &&
        cm->dictionary_page_offset < start)
        start = cm->dictionary_page_offset;
    size_t len = (size_t)cm->total_compressed_size;
    const uint8_t *p = chunk_bytes(file, start, len, chunk, chunk_cap);
    hudi_arena arena = HUDI_ARENA_INIT;
    for (size_t pos = 0; pos < len;) {
        pq_page_header h;
        size_t used = 0;
        if (hudi_pq_decode_page_header(&h, &arena, HUDI_SLICE(p + pos, len - pos), &used, &err) < 0)
            die("page header", &err);
        pos += used;
        if (h.compressed_page_size < 0 || (size_t)h.compressed_page_size > len - pos ||
            h.uncompressed_page_size < 0)
            die("page size out of range", NULL);
        hudi_slice in = HUDI_SLICE(p + pos, (size_t)h.compressed_page_size);
        size_t out_len = (size_t)h.uncompressed_page_size;
        bool compressed = true;
        if (h.type == PQ_PAGE_DATA_V2 && h.has_data_page_header_v2) {
            /* v2 levels are never compressed; the values may not be either. */
            size_t lv = (size_t)h.data_page_header_v2.definition_levels_byte_length +
                        (size_t)h.data_page_header_v2.repetition_levels_byte_length;
            if (lv > in.len || lv > out_len) die("v2 levels past the page", NULL);
            in.data += lv;
            in.len -= lv;
            out_len -= lv;
            compressed = h.data_page_header_v2.is_compressed;
        }
        if (out_len > *cap) {
            free(*buf);
            *cap = out_len * 2;
            if (!(*buf = malloc(*cap))) die("out of memory", NULL);
        }
        double t0 = now_s(), c0 = cpu_s();
        if (compressed && cm->codec != PQ_CODEC_UNCOMPRESSED) {
            if (hudi_pq_decompress(ctx, cm->codec, in, *buf, out_len, &err) < 0)
                die("decompress", &err);
        } else {
            memcpy(*buf, in.data, HUDI_MIN(in.len, out_len)); /* what a reader would copy */
        }
        res->decompress_s += now_s() - t0;
        res->decompress_cpu_s += cpu_s() - c0;
        res->pages++;
        res->compressed_bytes += h.compressed_page_size;
        res->uncompressed_bytes += h.uncompressed_page_size;
        pos += (size_t)h.compressed_page_size;
    }
    hudi_arena_dispose(&arena);
}

/* Whether `name` is one of the comma-separated names in `list`. */
static bool in_list(const char *list, hudi_slice name) {
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == name.len && memcmp(p, name.data, len) == 0) return true;
        p += len + (p[len] == ',');
    }
    return false;
}

static void run_rawcodec(const bench_args *a) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_fs *fs = NULL;
    hudi_pq_file *f = NULL;
    hudi_file *file = NULL;
    if (hudi_fs_local_new(&fs, &err) < 0) die("local fs", &err);
    if (hudi_pq_open(&f, fs, a->path, NULL, &err) < 0) die(a->path, &err);
    if (hudi_fs_open(fs, a->path, &file, &err) < 0) die(a->path, &err);
    const pq_file_meta *m = hudi_pq_meta(f);
    pq_codec_ctx *ctx = NULL;
    if (hudi_pq_codec_ctx_new(&ctx, &err) < 0) die("codec ctx", &err);
    uint8_t *buf = NULL, *chunk = NULL;
    size_t cap = 0, chunk_cap = 0;
    double dec[MAX_REPEAT], dec_cpu[MAX_REPEAT], tot[MAX_REPEAT];
    raw_result res;
    for (int r = -a->warmup; r < a->repeat; r++) {
        memset(&res, 0, sizeof(res));
        double t0 = now_s();
        for (int32_t g = 0; g < m->n_row_groups; g++)
            for (int32_t c = 0; c < m->row_groups[g].n_columns; c++) {
                const pq_column_meta *cm = &m->row_groups[g].columns[c].meta_data;
                if (a->columns && !in_list(a->columns, cm->path_in_schema[0])) continue;
                raw_chunk(file, cm, ctx, &buf, &cap, &chunk, &chunk_cap, &res);
            }
        res.total_s = now_s() - t0;
        if (r >= 0) {
            dec[r] = res.decompress_s;
            dec_cpu[r] = res.decompress_cpu_s;
            tot[r] = res.total_s;
        }
    }
    printf("{\"mode\":\"rawcodec\",\"file\":\"%s\",\"codec\":\"%s\",\"pages\":%" PRId64
           ",\"compressed_bytes\":%" PRId64 ",\"uncompressed_bytes\":%" PRId64 ",",
           a->path, hudi_pq_codec_name(m->row_groups[0].columns[0].meta_data.codec), res.pages,
           res.compressed_bytes, res.uncompressed_bytes);
    print_times(dec, dec_cpu, a->repeat);
    printf(",\"walk_median_s\":%.6f,\"peak_rss_kb\":%ld}\n", median(tot, a->repeat), peak_rss_kb());
    free(buf);
    free(chunk);
    hudi_pq_codec_ctx_free(ctx);
    hudi_file_close(file);
    hudi_pq_close(f);
    hudi_fs_free(fs);
}

/* ================================ write =================================================== */

static void trips_schema(hudi_field *s) {
    if (trips_schema_init(s, "duckdb_schema") < 0) die("out of memory", NULL);
}

/* Rows [first, first + n) as one batch, written straight into the buffers. */
static hudi_batch *trips_batch(const hudi_field *schema, int64_t first, int64_t n) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_batch *b = NULL;
    if (hudi_batch_new(&b, schema, &err) < 0) die("batch", &err);
    for (int c = 0; c < N_TRIP_COLS; c++) {
        hudi_array *a = b->columns[c];
        if (hudi_array_reserve(a, n, &err) < 0) die("reserve", &err);
        if (a->field->type == HUDI_TYPE_STRING &&
            hudi_array_reserve_data(a, n * (c == C_PART ? 40 : 36), &err) < 0)
            die("reserve", &err);
    }
    hudi_array **col = b->columns;
    for (int64_t r = 0; r < n; r++) trips_row(col, r, first + r, 0);
    for (int c = 0; c < N_TRIP_COLS; c++) col[c]->length = n;
    b->num_rows = n;
    if (hudi_batch_validate(b, &err) < 0) die("generated batch", &err);
    return b;
}

typedef struct write_job {
    const bench_args *a;
    hudi_fs *fs;
    const hudi_field *schema;
    hudi_batch **batches;
    int64_t first, count; /* batches [first, first + count) */
    char path[4096];
    pthread_t tid;
    int64_t bytes;
    int rc;
    hudi_error err;
} write_job;

static void *write_thread(void *p) {
    write_job *j = p;
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    hudi_pq_writer *w = NULL;
    o.codec = j->a->codec;
    if (j->a->row_group_rows > 0) o.row_group_rows = j->a->row_group_rows;
    o.dictionary = !j->a->no_dictionary;
    o.column_encodings = j->a->encodings;
    o.n_column_encodings = j->a->n_encodings;
    if ((j->rc = hudi_pq_writer_open(&w, j->fs, j->path, j->schema, &o, &j->err)) < 0) return NULL;
    for (int64_t k = 0; k < j->count; k++)
        if ((j->rc = hudi_pq_writer_write(w, j->batches[j->first + k], &j->err)) < 0) {
            hudi_pq_writer_abort(w);
            return NULL;
        }
    j->rc = hudi_pq_writer_close(w, &j->bytes, &j->err);
    return NULL;
}

static void run_write(const bench_args *a) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_fs *fs = NULL;
    hudi_field schema;
    if (hudi_fs_local_new(&fs, &err) < 0) die("local fs", &err);
    trips_schema(&schema);
    int64_t n_batches = (a->rows + a->batch_rows - 1) / a->batch_rows;
    hudi_batch **batches = calloc((size_t)n_batches + 1, sizeof(*batches));
    if (!batches) die("out of memory", NULL);
    double g0 = now_s();
    for (int64_t k = 0; k < n_batches; k++)
        batches[k] = trips_batch(&schema, k * a->batch_rows,
                                 HUDI_MIN(a->batch_rows, a->rows - k * a->batch_rows));
    double gen_s = now_s() - g0;
    long setup_rss = current_rss_kb();
    /* Threads write contiguous slices of the rows to their own files, as Hudi's write tasks
     * do (one base file per task); one thread writes exactly `path`. */
    write_job *jobs = calloc((size_t)a->threads, sizeof(write_job));
    if (!jobs) die("out of memory", NULL);
    double times[MAX_REPEAT], cpus[MAX_REPEAT];
    int64_t bytes = 0;
    for (int r = -a->warmup; r < a->repeat; r++) {
        double t0 = now_s(), c0 = cpu_s();
        for (int t = 0; t < a->threads; t++) {
            write_job *j = &jobs[t];
            memset(j, 0, sizeof(*j));
            *j = (write_job){.a = a, .fs = fs, .schema = &schema, .batches = batches};
            j->first = n_batches * t / a->threads;
            j->count = n_batches * (t + 1) / a->threads - j->first;
            if (a->threads == 1)
                snprintf(j->path, sizeof(j->path), "%s", a->path);
            else
                snprintf(j->path, sizeof(j->path), "%s.part%d", a->path, t);
            if (pthread_create(&j->tid, NULL, write_thread, j) != 0) die("pthread_create", NULL);
        }
        bytes = 0;
        for (int t = 0; t < a->threads; t++) pthread_join(jobs[t].tid, NULL);
        double dt = now_s() - t0, dc = cpu_s() - c0;
        for (int t = 0; t < a->threads; t++) {
            if (jobs[t].rc < 0) die(jobs[t].path, &jobs[t].err);
            bytes += jobs[t].bytes;
        }
        if (r >= 0) {
            times[r] = dt;
            cpus[r] = dc;
        }
    }
    printf("{\"mode\":\"write\",\"file\":\"%s\",\"threads\":%d,\"codec\":\"%s\",\"rows\":%" PRId64
           ",\"bytes\":%" PRId64 ",\"generate_s\":%.3f,",
           a->path, a->threads, hudi_pq_codec_name(a->codec), a->rows, bytes, gen_s);
    print_times(times, cpus, a->repeat);
    printf(",\"peak_rss_kb\":%ld,\"setup_rss_kb\":%ld}\n", peak_rss_kb(), setup_rss);
    for (int64_t k = 0; k < n_batches; k++) hudi_batch_free(batches[k]);
    free(batches);
    free(jobs);
    hudi_field_dispose(&schema);
    hudi_fs_free(fs);
}

/* ================================ main ==================================================== */

static int parse_codec(const char *s) {
    static const char *const names[] = {"uncompressed", "snappy", "gzip", "lzo",
                                        "brotli",       "lz4",    "zstd", "lz4_raw"};
    for (int i = 0; i < (int)HUDI_ARRAY_LEN(names); i++)
        if (strcasecmp(s, names[i]) == 0) return i;
    die("unknown --codec", NULL);
    return 0;
}

/* "col=ENC,col=ENC" (parquet.thrift Encoding names) into a->encodings; `spec` is kept. */
static void parse_encodings(bench_args *a, char *spec) {
    static const struct {
        const char *name;
        int enc;
    } names[] = {{"PLAIN", PQ_ENC_PLAIN},
                 {"RLE", PQ_ENC_RLE},
                 {"DELTA_BINARY_PACKED", PQ_ENC_DELTA_BINARY_PACKED},
                 {"DELTA_LENGTH_BYTE_ARRAY", PQ_ENC_DELTA_LENGTH_BYTE_ARRAY},
                 {"DELTA_BYTE_ARRAY", PQ_ENC_DELTA_BYTE_ARRAY},
                 {"BYTE_STREAM_SPLIT", PQ_ENC_BYTE_STREAM_SPLIT},
                 {"RLE_DICTIONARY", PQ_ENC_RLE_DICTIONARY}};
    for (char *save = NULL, *item = strtok_r(spec, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        int enc = -1;
        if (!eq || a->n_encodings >= MAX_COLS) die("bad --encoding (want col=ENC,...)", NULL);
        *eq = 0;
        for (int i = 0; i < (int)HUDI_ARRAY_LEN(names); i++)
            if (strcasecmp(eq + 1, names[i].name) == 0) enc = names[i].enc;
        if (enc < 0) die("unknown encoding in --encoding", NULL);
        a->encodings[a->n_encodings++] = (hudi_pq_column_encoding){item, enc};
    }
}

static void usage(void) {
    fputs("usage: parquet_bench scan FILE [--threads N] [--columns a,b] [--where 'col>v']\n"
          "       parquet_bench rawcodec FILE [--columns a,b]\n"
          "       parquet_bench write OUT [--rows N] [--codec snappy] [--threads N]\n"
          "                               [--row-group-rows N] [--encoding col=ENC,...]\n"
          "                               [--no-dictionary 1]\n"
          "       common: [--repeat R] [--warmup W] [--batch-rows N]\n",
          stderr);
    exit(2);
}

int main(int argc, char **argv) {
    bench_args a = {.threads = 1,
                    .repeat = 1,
                    .warmup = 0,
                    .rows = 10000000,
                    .batch_rows = 65536,
                    .codec = PQ_CODEC_SNAPPY};
    if (argc < 3) usage();
    a.mode = argv[1];
    a.path = argv[2];
    for (int i = 3; i < argc; i++) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) usage();
        i++;
        if (strcmp(k, "--threads") == 0)
            a.threads = atoi(v);
        else if (strcmp(k, "--repeat") == 0)
            a.repeat = atoi(v);
        else if (strcmp(k, "--warmup") == 0)
            a.warmup = atoi(v);
        else if (strcmp(k, "--columns") == 0)
            a.columns = v;
        else if (strcmp(k, "--where") == 0)
            a.where = v;
        else if (strcmp(k, "--rows") == 0)
            a.rows = strtoll(v, NULL, 10);
        else if (strcmp(k, "--batch-rows") == 0)
            a.batch_rows = strtoll(v, NULL, 10);
        else if (strcmp(k, "--codec") == 0)
            a.codec = parse_codec(v);
        else if (strcmp(k, "--row-group-rows") == 0)
            a.row_group_rows = strtoll(v, NULL, 10);
        else if (strcmp(k, "--encoding") == 0)
            parse_encodings(&a, argv[i]);
        else if (strcmp(k, "--no-dictionary") == 0)
            a.no_dictionary = atoi(v) != 0;
        else
            usage();
    }
    if (a.threads < 1 || a.threads > 64 || a.repeat < 1 || a.repeat > MAX_REPEAT || a.warmup < 0 ||
        a.rows < 1 || a.batch_rows < 1)
        usage();
    if (strcmp(a.mode, "scan") == 0)
        run_scan(&a);
    else if (strcmp(a.mode, "rawcodec") == 0)
        run_rawcodec(&a);
    else if (strcmp(a.mode, "write") == 0)
        run_write(&a);
    else
        usage();
    return 0;
}
