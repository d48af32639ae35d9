/* pool_tsan.c - the thread pool under ThreadSanitizer (Criterion cannot run under TSan: its
 * test arena fails to map, Criterion issue #274). Many runs of uneven tasks on pools of 2-8
 * threads, failures in the middle of runs, pools created and freed in a loop; exit 0 when every
 * task ran once and the errors were the lowest failing index; the same for background runs
 * (hudi_pool_start / hudi_pool_wait). Built by every preset; the tsan
 * preset (cmake --preset tsan) is where it means something. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/pool.h"

typedef struct job {
    int64_t *out;
    atomic_int *runs;
    int64_t fail_from;
} job;

static int task(void *payload, int64_t i, hudi_error *err) {
    job *j = payload;
    atomic_fetch_add(&j->runs[i], 1);
    if (j->fail_from >= 0 && i >= j->fail_from)
        return hudi_error_set(err, HUDI_EIO, "task %lld failed", (long long)i);
    int64_t v = 0;
    for (int64_t k = 0; k < i % 97; k++) v += k;
    j->out[i] = i + v;
    return 0;
}

/* One run: hudi_pool_run, or (background) hudi_pool_start, some work of the caller's own, then
 * hudi_pool_wait. */
static int check_run(hudi_pool *p, int64_t n, int64_t fail_from, bool background) {
    job j = {calloc((size_t)n + 1, sizeof(int64_t)), calloc((size_t)n + 1, sizeof(atomic_int)),
             fail_from};
    hudi_error err = HUDI_ERROR_INIT;
    int rc, bad = 0;
    if (background) {
        volatile int64_t own = 0;
        rc = hudi_pool_start(p, n, task, &j, &err);
        for (int64_t k = 0; k < n % 1000; k++) own += k;
        if (rc == 0) rc = hudi_pool_wait(p, &err);
    } else {
        rc = hudi_pool_run(p, n, task, &j, &err);
    }
    if (fail_from < 0 || fail_from >= n) {
        bad |= rc != 0;
        for (int64_t i = 0; i < n; i++) {
            int64_t v = 0;
            for (int64_t k = 0; k < i % 97; k++) v += k;
            bad |= atomic_load(&j.runs[i]) != 1 || j.out[i] != i + v;
        }
    } else {
        char want[64];
        snprintf(want, sizeof(want), "task %lld failed", (long long)fail_from);
        bad |= rc != HUDI_EIO || strcmp(err.message, want) != 0;
    }
    free(j.out);
    free(j.runs);
    return bad;
}

static int check(hudi_pool *p, int64_t n, int64_t fail_from) {
    return check_run(p, n, fail_from, false) | check_run(p, n, fail_from, true);
}

int main(void) {
    int bad = 0;
    for (int32_t threads = 2; threads <= 8; threads *= 2) {
        hudi_pool *p = NULL;
        hudi_error err = HUDI_ERROR_INIT;
        if (hudi_pool_new(&p, threads, &err) < 0) {
            fprintf(stderr, "pool_tsan: %s\n", err.message);
            return 1;
        }
        for (int rep = 0; rep < 200; rep++)
            bad |= check(p, 1 + rep * 13 % 3000, rep % 5 == 0 ? rep % 300 : -1);
        hudi_pool_free(p);
    }
    for (int rep = 0; rep < 50; rep++) { /* pools that live for one run */
        hudi_pool *p = NULL;
        hudi_error err = HUDI_ERROR_INIT;
        if (hudi_pool_new(&p, 3, &err) < 0) return 1;
        bad |= check(p, 100, -1);
        hudi_pool_free(p);
    }
    if (bad) fprintf(stderr, "pool_tsan: a run gave a wrong result\n");
    return bad;
}
