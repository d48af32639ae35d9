/* bulk_insert.c - bulk_insert (docs/formats/base-files.md §6.3) planned and written in bounded
 * chunks, laid out as Hudi's row writer lays it out with sort mode NONE: rows go in input order
 * to one open file per partition path; once a file's size reaches hoodie.parquet.max.file.size
 * plus the hoodie.parquet.compression.ratio margin (120 MiB + 10%), checked the way Hudi's
 * HoodieBaseParquetWriter.canWrite checks it, the file is closed and the partition's next rows
 * go to a new file group.
 *
 * Memory: record keys, partition paths and routing exist for one chunk of input rows at a time
 * (hoodie.hudic.bulk_insert.chunk.rows, a hudic setting, default 262,144 rows), never for the
 * whole batch. Beyond the caller's batch a write holds that chunk's state, the copies of the
 * key generator's columns for the chunk, and per open file the Parquet row group being built
 * plus one output slice (at most 10,000 rows). Row groups are hoodie.parquet.block.size (default
 * 120 MiB) or smaller: the open files share hoodie.hudic.bulk_insert.buffer.bytes (a hudic
 * setting, default 256 MiB). The output batch of a closed file is reused by its partition's next
 * one. No de-duplication (Hudi's hoodie.combine.before.insert=false) and no index lookup.
 *
 * Threads (hoodie.hudic.parallelism): keys, partition paths and routing of a chunk are computed
 * in the calling thread; then the partitions' rows are written as tasks on the write's pool, a
 * slice of one partition's rows each (hoodie.hudic.bulk_insert.slice.rows, default 8,192)
 * (gathering, meta columns, bloom filter, Parquet encoding and compression, storage writes into
 * that partition's open file). A partition's slices run one after the other, the partitions' side
 * by side; slices are handed out round-robin over the partitions, so three partitions keep two
 * threads busy. Everything shared - new file groups (file ids, task numbers), partition metafiles,
 * the heartbeat - happens in the caller between runs, in partition order, so the files, their rows
 * and the commit metadata do not depend on the thread count. The files share the same buffer budget
 * whatever the threads: no memory is added per thread. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "write/write_int.h"

#define BULK_CHUNK_ROWS_KEY "hoodie.hudic.bulk_insert.chunk.rows"
#define BULK_DEFAULT_CHUNK_ROWS (1 << 18)
#define BULK_BUFFER_KEY "hoodie.hudic.bulk_insert.buffer.bytes"
#define BULK_DEFAULT_BUFFER_BYTES (256ll << 20)
#define BULK_DEFAULT_BLOCK_BYTES (120ll << 20) /* hoodie.parquet.block.size */
#define BULK_DEFAULT_COMPRESSION_RATIO 0.1     /* hoodie.parquet.compression.ratio */
/* parquet-mr's DEFAULT_MINIMUM/MAXIMUM_RECORD_COUNT_FOR_CHECK, as Hudi's size check uses them */
#define BULK_MIN_CHECK 100
#define BULK_MAX_CHECK 10000
/* rows of a partition written by one task (a slice of its rows in a chunk) */
#define BULK_SLICE_ROWS_KEY "hoodie.hudic.bulk_insert.slice.rows"
#define BULK_DEFAULT_SLICE_ROWS 8192

typedef struct bfile { /* the open file of one partition */
    hudi_wfile *f;
    int64_t next_check;  /* records written at the next size check */
    int32_t gi;          /* the group of the next file (made by the caller), -1 */
    hudi_batch *spare;   /* output batch of the partition's last closed file */
    const int32_t *todo; /* the chunk's rows not written yet (into bulk.rows) */
    int64_t n_todo;
    /* the current run (under bulk.mu): slices written; the file filled up */
    int64_t slices_done;
    bool stopped;
} bfile;

typedef struct bslice { /* a task: slice `slice` of partition `part`'s rows left */
    int32_t part;
    int64_t slice;
} bslice;

typedef struct bulk {
    wctx *c;
    int64_t chunk_rows, slice_rows, block_bytes, max_bytes;
    /* the chunk as a batch for the key generator: copies of the columns it reads (`sliced`),
     * the caller's arrays for the others (never read) */
    hudi_batch view;
    hudi_array **view_cols;
    bool *sliced;
    /* per partition id (c->parts): open file, this chunk's rows */
    bfile *files;
    wrows *rows;
    int32_t cap_parts;
    int64_t key_base; /* the chunk's first input row: its keys are c->keys at row - key_base */
    /* the tasks of the current run; mu and cv order a partition's slices */
    bslice *tasks;
    int64_t n_tasks, cap_tasks;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool failed; /* a task of the run failed (under mu) */
    hudi_heartbeat *hb;
} bulk;

static int int_setting(const wctx *c, const char *key, int64_t dflt, int64_t min, int64_t *out,
                       hudi_error *err) {
    const char *v = hudi_write_setting(c, key);
    *out = dflt;
    if (!v) return 0;
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || end == v || *end || x < min)
        return hudi_error_set(err, HUDI_EINVAL, "%s: %s: bad value '%s'", c->t->base_path, key, v);
    *out = x;
    return 0;
}

static int bulk_init(bulk *bk, wctx *c, hudi_error *err) {
    memset(bk, 0, sizeof(*bk));
    bk->c = c;
    pthread_mutex_init(&bk->mu, NULL);
    pthread_cond_init(&bk->cv, NULL);
    int rc = int_setting(c, BULK_CHUNK_ROWS_KEY, BULK_DEFAULT_CHUNK_ROWS, 1, &bk->chunk_rows, err);
    if (rc == 0)
        rc = int_setting(c, BULK_SLICE_ROWS_KEY, BULK_DEFAULT_SLICE_ROWS, 1, &bk->slice_rows, err);
    if (rc == 0)
        rc = int_setting(c, "hoodie.parquet.block.size", BULK_DEFAULT_BLOCK_BYTES, 1,
                         &bk->block_bytes, err);
    int64_t budget = 0;
    if (rc == 0)
        rc = int_setting(c, BULK_BUFFER_KEY, BULK_DEFAULT_BUFFER_BYTES, 1 << 20, &budget, err);
    if (rc < 0) return rc;
    /* Every partition of the batch has a file open, each building a row group in memory: their
     * row groups share the buffer budget (hoodie.parquet.block.size when it allows). The files
     * still roll at the same size; only their row groups get smaller. */
    if (c->n_parts > 0)
        bk->block_bytes = HUDI_MIN(bk->block_bytes, HUDI_MAX(budget / c->n_parts, 1 << 20));
    double ratio = BULK_DEFAULT_COMPRESSION_RATIO;
    const char *v = hudi_write_setting(c, "hoodie.parquet.compression.ratio");
    if (v) {
        char *end;
        ratio = strtod(v, &end);
        if (end == v || *end || !(ratio >= 0 && ratio <= 100))
            return hudi_error_set(err, HUDI_EINVAL,
                                  "%s: hoodie.parquet.compression.ratio: bad value '%s'",
                                  c->t->base_path, v);
    }
    /* HoodieBaseParquetWriter: maxFileSize + round(maxFileSize * compressionRatio) */
    int64_t target = c->o.target_file_bytes;
    bk->max_bytes = target + (int64_t)((double)target * ratio + 0.5);
    const hudi_batch *in = c->in;
    int32_t nc = in->n_columns;
    if (!(bk->view_cols = hudi_calloc((size_t)nc + 1, sizeof(*bk->view_cols))) ||
        !(bk->sliced = hudi_calloc((size_t)nc + 1, sizeof(bool))))
        return hudi_error_oom(err);
    bk->view.schema = in->schema;
    bk->view.n_columns = nc;
    bk->view.columns = bk->view_cols;
    bool whole = in->num_rows <= bk->chunk_rows; /* one chunk: the batch itself */
    for (int32_t i = 0; i < nc; i++) {
        bk->view_cols[i] = in->columns[i];
        bk->sliced[i] = !whole && hudi_keygen_uses_column(c->kg, i);
        if (bk->sliced[i] &&
            (rc = hudi_array_new(&bk->view_cols[i], in->columns[i]->field, err)) < 0) {
            bk->sliced[i] = false; /* view_cols[i] was left NULL: not ours to free */
            bk->view_cols[i] = in->columns[i];
            return rc;
        }
    }
    return 0;
}

static void bulk_dispose(bulk *bk) {
    for (int32_t i = 0; bk->sliced && i < bk->view.n_columns; i++)
        if (bk->sliced[i]) hudi_array_free(bk->view_cols[i]);
    hudi_free(bk->view_cols);
    hudi_free(bk->sliced);
    for (int32_t p = 0; p < bk->cap_parts; p++) {
        hudi_wfile_free(bk->files[p].f); /* still open only after a failure */
        hudi_batch_free(bk->files[p].spare);
        hudi_free(bk->rows[p].v);
    }
    hudi_free(bk->files);
    hudi_free(bk->rows);
    hudi_free(bk->tasks);
    pthread_cond_destroy(&bk->cv);
    pthread_mutex_destroy(&bk->mu);
}

/* The key generator's view of input rows [start, start + n). */
static int view_chunk(bulk *bk, int64_t start, int64_t n, hudi_error *err) {
    const hudi_batch *in = bk->c->in;
    for (int32_t i = 0; i < in->n_columns; i++) {
        if (!bk->sliced[i]) continue;
        hudi_array_clear(bk->view_cols[i]);
        int rc = hudi_array_append_range(bk->view_cols[i], in->columns[i], start, n, err);
        if (rc < 0) return rc;
    }
    bk->view.num_rows = n;
    return 0;
}

/* Per-partition state for every partition id seen so far. */
static int grow_parts(bulk *bk, hudi_error *err) {
    int32_t need = bk->c->n_parts;
    if (need <= bk->cap_parts) return 0;
    int32_t cap = bk->cap_parts ? bk->cap_parts : 4;
    while (cap < need) cap *= 2;
    bfile *f = hudi_realloc(bk->files, (size_t)cap * sizeof(*f));
    if (!f) return hudi_error_oom(err);
    bk->files = f;
    wrows *r = hudi_realloc(bk->rows, (size_t)cap * sizeof(*r));
    if (!r) return hudi_error_oom(err);
    bk->rows = r;
    memset(f + bk->cap_parts, 0, (size_t)(cap - bk->cap_parts) * sizeof(*f));
    memset(r + bk->cap_parts, 0, (size_t)(cap - bk->cap_parts) * sizeof(*r));
    for (int32_t q = bk->cap_parts; q < cap; q++) f[q].gi = -1;
    bk->cap_parts = cap;
    return 0;
}

/* Partition paths of rows [start, start + n) into c->part_paths; with `keys`, record keys into
 * c->keys too. */
static int chunk_keys(bulk *bk, int64_t start, int64_t n, bool keys, hudi_error *err) {
    wctx *c = bk->c;
    int rc = view_chunk(bk, start, n, err);
    if (rc < 0) return rc;
    hudi_array_clear(c->part_paths);
    hudi_array_clear(c->keys);
    if ((rc = hudi_keygen_partition_paths(c->kg, &bk->view, c->part_paths, err)) < 0 || !keys)
        return rc;
    if (!hudi_write_auto_keys(c->t)) return hudi_keygen_record_keys(c->kg, &bk->view, c->keys, err);
    /* generated keys (keys.md §9): "<instant>_<input partition 0>_<row>"; every row of a
     * bulk_insert needs one */
    char key[HUDI_INSTANT_TIME_MAX + 32];
    for (int64_t i = 0; i < n; i++) {
        int len = snprintf(key, sizeof(key), "%s_0_%lld", c->instant, (long long)(start + i));
        if ((rc = hudi_array_append_bytes(c->keys, key, (size_t)len, err)) < 0) return rc;
    }
    return 0;
}

/* Partition id of chunk row i; `prev`/`prev_id` cache the last path (rows of one partition
 * usually come together). */
static int part_of(wctx *c, int64_t i, hudi_slice *prev, int32_t *prev_id, hudi_error *err) {
    hudi_slice s = wstr(c->part_paths, i);
    if (*prev_id >= 0 && hudi_slice_eq(s, *prev)) return 0;
    int rc = hudi_wctx_part_id(c, (const char *)s.data, s.len, prev_id, err);
    if (rc < 0) return rc;
    c->parts[*prev_id].touched = true;
    *prev = s;
    return 0;
}

int hudi_bulk_plan(wctx *c, hudi_error *err) {
    int rc;
    if ((rc = hudi_plan_keygen(c, err)) < 0) return rc;
    /* The workload profile of the inflight instant: inserts per partition, counted chunk by
     * chunk before anything is written. */
    bulk bk;
    if ((rc = bulk_init(&bk, c, err)) < 0) goto done;
    int64_t total = c->in->num_rows;
    for (int64_t start = 0; rc == 0 && start < total; start += bk.chunk_rows) {
        int64_t n = HUDI_MIN(bk.chunk_rows, total - start);
        if ((rc = chunk_keys(&bk, start, n, false, err)) < 0) break;
        hudi_slice prev = {NULL, 0};
        int32_t pid = -1;
        for (int64_t i = 0; i < n && rc == 0; i++)
            if ((rc = part_of(c, i, &prev, &pid, err)) == 0) c->parts[pid].n_inserts++;
    }
    hudi_array_clear(c->part_paths);
done:
    bulk_dispose(&bk);
    return rc;
}

/* Hudi's canWrite at a check point: false once the file is within two average records of the
 * maximum size; else the next check comes halfway to the projected limit, after at least 100 and
 * at most 10,000 more records. */
static bool can_write(const bulk *bk, bfile *bf, int64_t written) {
    int64_t size = hudi_wfile_data_size(bf->f);
    int64_t avg = HUDI_MAX(size / written, 1);
    if (size > bk->max_bytes - 2 * avg) return false;
    bf->next_check =
        written +
        HUDI_MIN(HUDI_MAX(BULK_MIN_CHECK, (bk->max_bytes / avg - written) / 2), BULK_MAX_CHECK);
    return true;
}

/* In the caller: the file group of partition `part`'s next file (its file id and task number,
 * so in partition order within a run), and the partition's metafile, written by the first new
 * file's group with that group's write token at the table clock's time (as write_client.c's
 * before_groups does for the other writes). The task opens the file. */
static int next_group(bulk *bk, int32_t part, hudi_error *err) {
    wctx *c = bk->c;
    int32_t gi = -1;
    int rc = hudi_wctx_new_group(c, part, &gi, err);
    if (rc < 0) return rc;
    wgroup *g = &c->groups[gi];
    g->task = c->next_task++;
    char token[HUDI_WRITE_TOKEN_MAX];
    hudi_write_token_format(token, (uint64_t)g->task, 0, (uint64_t)g->task);
    if ((rc = hudi_partition_meta_write(c->t->fs, c->t->base_path, c->parts[part].path, c->instant,
                                        token, c->o.clock, err)) < 0)
        return rc;
    bk->files[part].gi = gi;
    if (c->o.progress) atomic_fetch_add(&c->o.progress->total, 1);
    return 0;
}

/* Closes the partition's file; its output batch goes to bf->spare when `keep` (the partition's
 * next file reuses it), else it is freed. */
static int close_file(bulk *bk, bfile *bf, bool keep, hudi_error *err) {
    hudi_wfile *f = bf->f;
    bf->f = NULL;
    int rc = hudi_wfile_close(f, keep ? &bf->spare : NULL, err);
    if (bk->c->o.progress) atomic_fetch_add(&bk->c->o.progress->done, 1);
    return rc;
}

/* Appends the next slice of partition `bf`'s rows left in the chunk (bf->todo, at most
 * hoodie.hudic.bulk_insert.slice.rows), in order, to its open file (opened here on the group the
 * caller made). When the file fills up it is closed and *full set: the rows after it wait for the
 * next run. */
static int write_slice(bulk *bk, bfile *bf, bool *full, hudi_error *err) {
    int rc;
    *full = false;
    if (!bf->f) {
        rc = hudi_wfile_open(&bf->f, bk->c, (size_t)bf->gi, bk->block_bytes, bf->spare, err);
        bf->spare = NULL;
        bf->gi = -1;
        bf->next_check = BULK_MIN_CHECK;
        if (rc < 0) return rc;
    }
    for (int64_t n = HUDI_MIN(bf->n_todo, bk->slice_rows); n > 0;) {
        int64_t written = hudi_wfile_rows(bf->f);
        int64_t m = HUDI_MIN(n, HUDI_MAX(bf->next_check - written, 1));
        if ((rc = hudi_wfile_write(bf->f, bf->todo, m, bk->key_base, err)) < 0) return rc;
        bf->todo += m;
        bf->n_todo -= m;
        n -= m;
        written += m;
        if (written >= bf->next_check && !can_write(bk, bf, written)) {
            *full = true;
            return close_file(bk, bf, true, err);
        }
    }
    return 0;
}

/* A task of a run: slice tasks[i].slice of partition tasks[i].part. It waits for the
 * partition's previous slice (handed out earlier, so running or done: no deadlock), and does
 * nothing once the partition's file filled up in this run or a task failed. The partition's
 * bfile, group and file are touched by one task at a time, in slice order (the mutex orders
 * them). */
static int slice_task(void *payload, int64_t i, hudi_error *err) {
    bulk *bk = payload;
    bslice t = bk->tasks[i];
    bfile *bf = &bk->files[t.part];
    pthread_mutex_lock(&bk->mu);
    while (bf->slices_done < t.slice && !bf->stopped && !bk->failed)
        pthread_cond_wait(&bk->cv, &bk->mu);
    bool skip = bf->stopped || bk->failed;
    pthread_mutex_unlock(&bk->mu);
    if (skip) return 0;
    bool full = false;
    int rc = write_slice(bk, bf, &full, err);
    pthread_mutex_lock(&bk->mu);
    bf->slices_done++;
    bf->stopped = full;
    bk->failed |= rc < 0;
    pthread_cond_broadcast(&bk->cv);
    pthread_mutex_unlock(&bk->mu);
    return rc;
}

/* Runs `task` over payload indices [0, n) (on the pool when there are several), then beats the
 * heartbeat (in the caller: the tasks never do). */
static int run_tasks(bulk *bk, int64_t n, hudi_pool_task task, hudi_error *err) {
    hudi_pool *pool = NULL;
    int rc = hudi_write_pool(bk->c, n, &pool, err);
    if (rc == 0) rc = hudi_pool_run(pool, n, task, bk, err);
    if (rc == 0) rc = hudi_heartbeat_beat(bk->hb, err);
    return rc;
}

static int push_task(bulk *bk, int32_t part, int64_t slice, hudi_error *err) {
    if (bk->n_tasks == bk->cap_tasks) {
        int64_t cap = bk->cap_tasks ? 2 * bk->cap_tasks : 64;
        bslice *v = hudi_realloc(bk->tasks, (size_t)cap * sizeof(*v));
        if (!v) return hudi_error_oom(err);
        bk->tasks = v;
        bk->cap_tasks = cap;
    }
    bk->tasks[bk->n_tasks++] = (bslice){part, slice};
    return 0;
}

/* Writes the rows routed to each partition (bk->rows, input rows from `start`) in runs: first
 * new groups (in partition order) for the partitions with rows left and no open file, then one
 * task per slice of hoodie.hudic.bulk_insert.slice.rows rows left, handed out slice by slice across
 * the partitions so that the threads stay busy with fewer partitions than threads would need. A
 * partition whose file fills up stops there; its rows left go to the next run. Most chunks take one
 * run. Groups are made in the same order, and every file gets the same rows in the same slices,
 * with any number of threads. */
static int write_chunk(bulk *bk, int64_t start, hudi_error *err) {
    wctx *c = bk->c;
    int rc = 0;
    bk->key_base = start;
    for (int32_t q = 0; q < c->n_parts; q++) {
        bk->files[q].todo = bk->rows[q].v;
        bk->files[q].n_todo = bk->rows[q].n;
        bk->rows[q].n = 0;
    }
    for (;;) {
        int64_t slices = 0;
        for (int32_t q = 0; q < c->n_parts; q++) {
            bfile *bf = &bk->files[q];
            bf->slices_done = 0;
            bf->stopped = false;
            if (bf->n_todo == 0) continue;
            if (!bf->f && (rc = next_group(bk, q, err)) < 0) return rc;
            slices = HUDI_MAX(slices, (bf->n_todo + bk->slice_rows - 1) / bk->slice_rows);
        }
        if (slices == 0) return 0;
        bk->n_tasks = 0;
        for (int64_t k = 0; k < slices; k++)
            for (int32_t q = 0; q < c->n_parts; q++)
                if (k * bk->slice_rows < bk->files[q].n_todo && (rc = push_task(bk, q, k, err)) < 0)
                    return rc;
        if ((rc = run_tasks(bk, bk->n_tasks, slice_task, err)) < 0) return rc;
    }
}

/* The last open files, closed as tasks: each flushes its last row group. */
static int close_task(void *payload, int64_t i, hudi_error *err) {
    bulk *bk = payload;
    return close_file(bk, &bk->files[bk->tasks[i].part], false, err);
}

static int close_all(bulk *bk, hudi_error *err) {
    int rc = 0;
    bk->n_tasks = 0;
    for (int32_t q = 0; q < bk->cap_parts && rc == 0; q++)
        if (bk->files[q].f) rc = push_task(bk, q, 0, err);
    if (rc == 0 && bk->n_tasks > 0) rc = run_tasks(bk, bk->n_tasks, close_task, err);
    return rc;
}

int hudi_bulk_write(wctx *c, hudi_heartbeat *hb, hudi_error *err) {
    bulk bk;
    int rc = bulk_init(&bk, c, err);
    bk.hb = hb;
    hudi_progress *p = c->o.progress;
    if (p) {
        atomic_store(&p->done, 0);
        atomic_store(&p->total, 0);
        atomic_store(&p->rows, c->in->num_rows);
        atomic_store(&p->phase, HUDI_PROGRESS_PHASE_WRITE);
    }
    int64_t total = c->in->num_rows;
    for (int64_t start = 0; rc == 0 && start < total; start += bk.chunk_rows) {
        int64_t n = HUDI_MIN(bk.chunk_rows, total - start);
        if ((rc = chunk_keys(&bk, start, n, true, err)) < 0) break;
        hudi_slice prev = {NULL, 0};
        int32_t pid = -1;
        for (int64_t i = 0; i < n && rc == 0; i++) {
            if ((rc = part_of(c, i, &prev, &pid, err)) < 0 || (rc = grow_parts(&bk, err)) < 0)
                break;
            /* a delete marker for a key the table does not hold writes nothing */
            if (!hudi_plan_row_is_deleted(c, (int32_t)(start + i)))
                rc = hudi_wrows_push(&bk.rows[pid], (int32_t)(start + i), err);
        }
        if (rc == 0) rc = write_chunk(&bk, start, err);
    }
    if (rc == 0) rc = close_all(&bk, err);
    hudi_array_clear(c->keys);
    hudi_array_clear(c->part_paths);
    bulk_dispose(&bk);
    return rc;
}
