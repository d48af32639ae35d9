/* pool.h - a small pool of worker threads for work that is naturally parallel (file groups of
 * a write, base files of a scan). A run hands out the task indices 0..n-1 to the workers and
 * to the calling thread; the first task to fail stops the hand-out (tasks already running
 * finish) and its error is the run's. With one thread the tasks run in the caller, in order.
 *
 * Tasks must not share unsynchronised state: each writes its own slot of the payload. */
#ifndef HUDI_BASE_POOL_H
#define HUDI_BASE_POOL_H

#include "base/base.h"

typedef struct hudi_pool hudi_pool;

/* A task: runs item `index` of the run's payload; 0 or a negative HUDI_E* with `err` set. */
typedef int (*hudi_pool_task)(void *payload, int64_t index, hudi_error *err);

/* The number of threads to use by default: the processors online (at least 1, at most 256). */
int32_t hudi_pool_default_threads(void);

/* The one rule for a thread-count setting (hoodie.hudic.parallelism, SET hudic.threads,
 * hudi_reader_set_threads): 0 = the default (hudi_pool_default_threads()), 1 to
 * HUDI_POOL_MAX_THREADS = that many. hudi_pool_parse_threads takes the text of setting `key`
 * (decimal digits only); hudi_pool_check_threads a number. Either sets *out to the count to use
 * (0 resolved to the default) or returns EINVAL with the one message form
 * "<key>: '<value>' is not a number of threads (0 = the default, or 1-1024)". */
#define HUDI_POOL_MAX_THREADS 1024
int hudi_pool_parse_threads(const char *key, const char *value, int32_t *out, hudi_error *err);
int hudi_pool_check_threads(const char *key, int64_t value, int32_t *out, hudi_error *err);

/* A pool of `threads` threads in all, the caller of hudi_pool_run included (so threads - 1
 * workers are started; threads <= 1: none). */
int hudi_pool_new(hudi_pool **out, int32_t threads, hudi_error *err);
void hudi_pool_free(hudi_pool *p); /* NULL-safe; waits for the workers to end */
int32_t hudi_pool_threads(const hudi_pool *p);

/* Runs task(payload, i, err) for i in 0..n-1 and returns when every started task has ended: 0,
 * or the error of the failing task with the lowest index among those that ran (so a run in
 * which one task fails reports that task, whatever the interleaving). Once a task failed no
 * other is started. One run at a time per pool; `p` may be NULL (runs in the caller). */
int hudi_pool_run(hudi_pool *p, int64_t n, hudi_pool_task task, void *payload, hudi_error *err);

/* A run in the background, for a caller that consumes what the tasks produce (a parallel scan):
 * hudi_pool_start hands the indices 0..n-1 to the workers alone and returns at once;
 * hudi_pool_wait runs whatever no worker took yet in the caller, waits until every started task
 * has ended and returns as hudi_pool_run does. The pool needs at least one worker (threads >= 2;
 * EINVAL otherwise). Every start is followed by one wait before the next run or the pool's end;
 * tasks that wait for the caller must let a wait finish (the caller stops them first). */
int hudi_pool_start(hudi_pool *p, int64_t n, hudi_pool_task task, void *payload, hudi_error *err);
int hudi_pool_wait(hudi_pool *p, hudi_error *err);

#endif
