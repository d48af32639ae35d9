/* pool.c - worker threads handing out task indices (pool.h). The workers sleep on a condition
 * variable between runs. A run publishes its task under the mutex, marks itself active and
 * bumps the generation; a worker joins an active run it has not joined yet, copying the task
 * under the mutex, and takes indices from an atomic counter. The caller works too, then marks
 * the run inactive (no worker joins after that) and waits until the workers in it have left. */
#include "base/pool.h"

#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

struct hudi_pool {
    int32_t threads;
    int32_t n_workers, started;
    pthread_t *workers;
    pthread_mutex_t mu;
    pthread_cond_t work; /* a new run, or shutting down */
    pthread_cond_t done; /* a worker left the run */
    uint64_t generation; /* counts runs; a worker joins each run once */
    bool active;         /* a run is handing out work */
    bool shutdown;
    int32_t busy; /* workers inside the current run */
    /* the current run */
    hudi_pool_task task;
    void *payload;
    int64_t n;
    atomic_llong next;  /* the next index to hand out */
    atomic_bool failed; /* a task failed: hand out no more */
    int64_t err_index;  /* the failing task with the lowest index (under mu) */
    hudi_error err;
};

int32_t hudi_pool_default_threads(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (int32_t)n;
}

static int bad_threads(const char *key, const char *value, hudi_error *err) {
    return hudi_error_set(err, HUDI_EINVAL,
                          "%s: '%s' is not a number of threads (0 = the default, or 1-%d)", key,
                          value, HUDI_POOL_MAX_THREADS);
}

int hudi_pool_parse_threads(const char *key, const char *value, int32_t *out, hudi_error *err) {
    const char *p = value;
    int64_t v = 0;
    /* digits only: no sign, space or suffix; accumulation stops past the maximum */
    while (*p >= '0' && *p <= '9') {
        if (v <= HUDI_POOL_MAX_THREADS) v = v * 10 + (*p - '0');
        p++;
    }
    if (p == value || *p != '\0' || v > HUDI_POOL_MAX_THREADS) return bad_threads(key, value, err);
    *out = v == 0 ? hudi_pool_default_threads() : (int32_t)v;
    return 0;
}

int hudi_pool_check_threads(const char *key, int64_t value, int32_t *out, hudi_error *err) {
    if (value < 0 || value > HUDI_POOL_MAX_THREADS) {
        char text[24];
        snprintf(text, sizeof(text), "%lld", (long long)value);
        return bad_threads(key, text, err);
    }
    *out = value == 0 ? hudi_pool_default_threads() : (int32_t)value;
    return 0;
}

/* Takes indices until none is left or a task failed. */
static void work(hudi_pool *p, hudi_pool_task task, void *payload, int64_t n) {
    for (;;) {
        if (atomic_load(&p->failed)) return;
        int64_t i = atomic_fetch_add(&p->next, 1);
        if (i >= n) return;
        hudi_error e = HUDI_ERROR_INIT;
        int rc = task(payload, i, &e);
        if (rc < 0) {
            if (e.code == 0) hudi_error_set(&e, rc, "task %lld failed", (long long)i);
            pthread_mutex_lock(&p->mu);
            if (p->err_index < 0 || i < p->err_index) {
                p->err_index = i;
                p->err = e;
            }
            pthread_mutex_unlock(&p->mu);
            atomic_store(&p->failed, true);
            return;
        }
    }
}

static void *worker(void *arg) {
    hudi_pool *p = arg;
    uint64_t seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->shutdown && !(p->active && p->generation != seen))
            pthread_cond_wait(&p->work, &p->mu);
        if (p->shutdown) break;
        seen = p->generation;
        hudi_pool_task task = p->task;
        void *payload = p->payload;
        int64_t n = p->n;
        p->busy++;
        pthread_mutex_unlock(&p->mu);
        work(p, task, payload, n);
        pthread_mutex_lock(&p->mu);
        if (--p->busy == 0) pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

int hudi_pool_new(hudi_pool **out, int32_t threads, hudi_error *err) {
    *out = NULL;
    hudi_pool *p = hudi_calloc(1, sizeof(*p));
    if (!p) return hudi_error_oom(err);
    p->threads = threads < 1 ? 1 : threads;
    p->n_workers = p->threads - 1;
    p->err_index = -1;
    atomic_init(&p->next, 0);
    atomic_init(&p->failed, false);
    if (pthread_mutex_init(&p->mu, NULL) != 0) {
        hudi_free(p);
        return hudi_error_set(err, HUDI_ENOMEM, "cannot create a mutex");
    }
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    if (p->n_workers > 0 && !(p->workers = hudi_calloc((size_t)p->n_workers, sizeof(pthread_t)))) {
        hudi_pool_free(p);
        return hudi_error_oom(err);
    }
    for (int32_t i = 0; i < p->n_workers; i++) {
        if (pthread_create(&p->workers[i], NULL, worker, p) != 0) {
            hudi_pool_free(p);
            return hudi_error_set(err, HUDI_ENOMEM, "cannot start thread %d of %d", i + 2, threads);
        }
        p->started++;
    }
    *out = p;
    return 0;
}

void hudi_pool_free(hudi_pool *p) {
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    p->shutdown = true;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (int32_t i = 0; i < p->started; i++) pthread_join(p->workers[i], NULL);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->mu);
    hudi_free(p->workers);
    hudi_free(p);
}

int32_t hudi_pool_threads(const hudi_pool *p) { return p ? p->threads : 1; }

/* Publishes a run to the workers (under the mutex). */
static void publish(hudi_pool *p, int64_t n, hudi_pool_task task, void *payload) {
    pthread_mutex_lock(&p->mu);
    p->task = task;
    p->payload = payload;
    p->n = n;
    p->err_index = -1;
    p->err = (hudi_error)HUDI_ERROR_INIT;
    atomic_store(&p->next, 0);
    atomic_store(&p->failed, false);
    p->active = true;
    p->generation++;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
}

/* The caller's share of a published run, then the end of it: its error, if any. */
static int finish(hudi_pool *p, hudi_error *err) {
    work(p, p->task, p->payload, p->n); /* set under the mutex before; only runs change them */
    pthread_mutex_lock(&p->mu);
    p->active = false; /* a worker still asleep stays out of this run */
    while (p->busy > 0) pthread_cond_wait(&p->done, &p->mu);
    int rc = 0;
    if (p->err_index >= 0) {
        if (err) *err = p->err;
        rc = p->err.code < 0 ? p->err.code : HUDI_EINVAL;
    }
    p->task = NULL;
    p->payload = NULL;
    p->n = 0;
    pthread_mutex_unlock(&p->mu);
    return rc;
}

int hudi_pool_run(hudi_pool *p, int64_t n, hudi_pool_task task, void *payload, hudi_error *err) {
    if (n <= 0) return 0;
    if (!p || p->n_workers == 0 || n == 1) {
        for (int64_t i = 0; i < n; i++) {
            int rc = task(payload, i, err);
            if (rc < 0) return rc;
        }
        return 0;
    }
    publish(p, n, task, payload);
    return finish(p, err);
}

int hudi_pool_start(hudi_pool *p, int64_t n, hudi_pool_task task, void *payload, hudi_error *err) {
    if (!p || p->n_workers == 0)
        return hudi_error_set(err, HUDI_EINVAL, "a background run needs a pool with workers");
    publish(p, n < 0 ? 0 : n, task, payload);
    return 0;
}

int hudi_pool_wait(hudi_pool *p, hudi_error *err) { return p ? finish(p, err) : 0; }
