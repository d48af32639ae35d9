/* pool_test.c - the thread pool: every task runs exactly once, results land in their own
 * slots whatever the thread count, the lowest failing index is reported and stops the
 * hand-out, runs follow each other on one pool, and one thread runs in order in the caller. */
#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdio.h>

#include "base/pool.h"

typedef struct sums {
    int64_t *out;
    atomic_int *runs;  /* per index: how many times it ran */
    int64_t fail_from; /* indices >= this fail (-1: none) */
    atomic_llong started;
} sums;

static int square(void *payload, int64_t i, hudi_error *err) {
    sums *s = payload;
    atomic_fetch_add(&s->started, 1);
    atomic_fetch_add(&s->runs[i], 1);
    if (s->fail_from >= 0 && i >= s->fail_from)
        return hudi_error_set(err, HUDI_EIO, "task %lld failed", (long long)i);
    int64_t v = 0;
    for (int64_t k = 0; k <= i % 1000; k++) v += k; /* uneven work */
    s->out[i] = i * i + v - v;
    return 0;
}

static void check_run(hudi_pool *p, int64_t n) {
    sums s = {calloc((size_t)n, sizeof(int64_t)), calloc((size_t)n, sizeof(atomic_int)), -1, 0};
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pool_run(p, n, square, &s, &err), 0, "%s", err.message);
    for (int64_t i = 0; i < n; i++) {
        cr_assert_eq(atomic_load(&s.runs[i]), 1, "task %lld ran once", (long long)i);
        cr_assert_eq(s.out[i], i * i);
    }
    free(s.out);
    free(s.runs);
}

Test(pool, every_task_once_for_any_thread_count) {
    for (int32_t threads = 1; threads <= 8; threads *= 2) {
        hudi_pool *p = NULL;
        hudi_error err = HUDI_ERROR_INIT;
        cr_assert_eq(hudi_pool_new(&p, threads, &err), 0, "%s", err.message);
        cr_assert_eq(hudi_pool_threads(p), threads);
        for (int rep = 0; rep < 50; rep++) check_run(p, rep % 7 == 0 ? 1 : 1000 + rep);
        check_run(p, 0);
        hudi_pool_free(p);
    }
    check_run(NULL, 100); /* no pool: the caller runs them */
    cr_assert_geq(hudi_pool_default_threads(), 1);
}

Test(pool, the_lowest_failing_task_is_reported_and_stops_the_rest) {
    hudi_pool *p = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pool_new(&p, 4, &err), 0, "%s", err.message);
    for (int rep = 0; rep < 20; rep++) {
        int64_t n = 100000;
        sums s = {calloc((size_t)n, sizeof(int64_t)), calloc((size_t)n, sizeof(atomic_int)), 10, 0};
        hudi_error e = HUDI_ERROR_INIT;
        cr_assert_eq(hudi_pool_run(p, n, square, &s, &e), HUDI_EIO);
        /* tasks 10, 11, ... may fail in any order; 10 always runs before the hand-out stops
         * (indices are handed out in order and a failure can only come from >= 10) */
        cr_assert_str_eq(e.message, "task 10 failed");
        /* every task from 10 on fails, so each of the 4 threads starts at most one of them */
        cr_assert_leq(atomic_load(&s.started), 10 + 4, "the hand-out stopped at the failure");
        free(s.out);
        free(s.runs);
        check_run(p, 500); /* the pool is usable after a failed run */
    }
    hudi_pool_free(p);
}

Test(pool, one_thread_runs_in_order_in_the_caller) {
    hudi_pool *p = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pool_new(&p, 1, &err), 0, "%s", err.message);
    int64_t n = 50;
    sums s = {calloc((size_t)n, sizeof(int64_t)), calloc((size_t)n, sizeof(atomic_int)), 3, 0};
    cr_assert_eq(hudi_pool_run(p, n, square, &s, &err), HUDI_EIO);
    cr_assert_str_eq(err.message, "task 3 failed");
    cr_assert_eq(atomic_load(&s.started), 4, "in order: 0, 1, 2, then 3 fails");
    free(s.out);
    free(s.runs);
    hudi_pool_free(p);
}

/* The one rule of a thread-count setting (hudi_pool_parse_threads): 0 = the default, 1-1024,
 * anything else EINVAL with "<key>: '<value>' is not a number of threads (...)". */
Test(pool, parse_threads) {
    static const struct {
        const char *text;
        int32_t want; /* 0: the default */
    } good[] = {{"0", 0}, {"1", 1}, {"2", 2}, {"1024", 1024}, {"0001", 1}, {"256", 256}};
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        hudi_error err = HUDI_ERROR_INIT;
        int32_t n = -5;
        cr_assert_eq(hudi_pool_parse_threads("k", good[i].text, &n, &err), 0, "%s: %s",
                     good[i].text, err.message);
        cr_assert_eq(n, good[i].want ? good[i].want : hudi_pool_default_threads(), "%s: %d",
                     good[i].text, n);
    }
    static const char *const bad[] = {"",
                                      "many",
                                      "4x",
                                      " 4",
                                      "4 ",
                                      "+4",
                                      "-1",
                                      "-0",
                                      "1025",
                                      "2048",
                                      "0x10",
                                      "4.0",
                                      "99999999999999999999999999"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        hudi_error err = HUDI_ERROR_INIT;
        int32_t n = -5;
        cr_assert_eq(hudi_pool_parse_threads("hudic.threads", bad[i], &n, &err), HUDI_EINVAL,
                     "'%s' accepted as %d", bad[i], n);
        cr_assert_eq(n, -5, "'%s': out set on failure", bad[i]);
        char want[200];
        snprintf(want, sizeof(want),
                 "hudic.threads: '%s' is not a number of threads (0 = the default, or 1-1024)",
                 bad[i]);
        cr_assert_str_eq(err.message, want);
    }
}

Test(pool, check_threads) {
    hudi_error err = HUDI_ERROR_INIT;
    int32_t n = -5;
    cr_assert_eq(hudi_pool_check_threads("threads", 0, &n, &err), 0);
    cr_assert_eq(n, hudi_pool_default_threads());
    cr_assert_eq(hudi_pool_check_threads("threads", 1, &n, &err), 0);
    cr_assert_eq(n, 1);
    cr_assert_eq(hudi_pool_check_threads("threads", HUDI_POOL_MAX_THREADS, &n, &err), 0);
    cr_assert_eq(n, 1024);
    cr_assert_eq(hudi_pool_check_threads("threads", 1025, &n, &err), HUDI_EINVAL);
    cr_assert_str_eq(err.message,
                     "threads: '1025' is not a number of threads (0 = the default, or 1-1024)");
    cr_assert_eq(hudi_pool_check_threads("threads", -1, &n, &err), HUDI_EINVAL);
    cr_assert_str_eq(err.message,
                     "threads: '-1' is not a number of threads (0 = the default, or 1-1024)");
    cr_assert_eq(hudi_pool_check_threads("threads", INT64_MIN, &n, &err), HUDI_EINVAL);
    cr_assert_eq(n, 1024);
}
