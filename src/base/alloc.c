/* alloc.c - allocation hooks. The hooks are process-wide configuration, set once before
 * use (as sqlite3_config does; hudi_set_allocator in src/api/alloc.c); tests install a failing
 * allocator to exercise OOM paths. */
#include <pthread.h>
#include <stdlib.h>

#include "base.h"

static void *std_malloc(size_t size, void *payload) {
    (void)payload;
    return malloc(size);
}
static void *std_realloc(void *p, size_t size, void *payload) {
    (void)payload;
    return realloc(p, size);
}
static void std_free(void *p, void *payload) {
    (void)payload;
    free(p);
}

static hudi_allocator g_alloc = {std_malloc, std_realloc, std_free, NULL};

void hudi_alloc_set(const hudi_allocator *a) {
    hudi_alloc_warm_clear(); /* its blocks came from the hooks being replaced */
    if (a)
        g_alloc = *a;
    else
        g_alloc = (hudi_allocator){std_malloc, std_realloc, std_free, NULL};
}

void *hudi_malloc(size_t size) { return g_alloc.malloc_fn(size ? size : 1, g_alloc.payload); }

void *hudi_calloc(size_t n, size_t size) {
    size_t total;
    if (hudi_mul_overflow(n, size, &total)) return NULL;
    void *p = hudi_malloc(total);
    if (p) memset(p, 0, total);
    return p;
}

void *hudi_realloc(void *ptr, size_t size) {
    return g_alloc.realloc_fn(ptr, size ? size : 1, g_alloc.payload);
}

void hudi_free(void *ptr) {
    if (ptr) g_alloc.free_fn(ptr, g_alloc.payload);
}

char *hudi_strndup(const char *s, size_t n) {
    char *p = hudi_malloc(n + 1);
    if (!p) return NULL;
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *hudi_strdup(const char *s) { return s ? hudi_strndup(s, strlen(s)) : NULL; }

/* ---- aligned blocks, and the warm ones --------------------------------------------------- */

/* An aligned block keeps, just below its aligned address, the raw pointer and the usable size.
 *
 * Column buffers of a batch are big (hundreds of KB to tens of MB) and short-lived: a scan or a
 * compaction allocates them for one batch and frees them when the batch is consumed. Handed
 * back to the C library, blocks of that size return to the kernel (munmap, or a shrinking
 * per-thread heap), and the next batch pays a page fault and a cleared page per 4 KB again:
 * 18% of a compaction's CPU before this cache. So freed blocks of WARM_MIN or more wait here
 * for the next allocation of a similar size (at most twice smaller, so that a small array
 * never pins a huge block). The cache is bounded (WARM_SLOTS blocks, WARM_MAX_BYTES in all)
 * and is emptied when the allocation hooks change.
 *
 * Under ASan and valgrind the cache is off unless a test turns it on (hudi_alloc_warm_enable):
 * a block handed straight to the next allocation would skip ASan's quarantine and hide a use
 * after free, and blocks still waiting at exit would be valgrind's "possibly lost". When it is
 * on there, a waiting block is marked unusable and a reused one usable only up to the size
 * asked for. */
#define WARM_SLOTS 64
#define WARM_MIN ((size_t)256 << 10)
#define WARM_MAX_BYTES ((size_t)256 << 20)

#if defined(__SANITIZE_ADDRESS__)
#define HUDI_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HUDI_ASAN 1
#endif
#endif
#if !defined(HUDI_ASAN) && defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#define HUDI_MEMCHECK 1
#endif
#endif

#if defined(HUDI_ASAN)
#include <sanitizer/asan_interface.h>
#define WARM_HIDE(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define WARM_SHOW(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#elif defined(HUDI_MEMCHECK)
#include <valgrind/memcheck.h>
#define WARM_HIDE(p, n) ((void)VALGRIND_MAKE_MEM_NOACCESS(p, n))
#define WARM_SHOW(p, n) ((void)VALGRIND_MAKE_MEM_UNDEFINED(p, n))
#else
#define WARM_HIDE(p, n) ((void)(p), (void)(n))
#define WARM_SHOW(p, n) ((void)(p), (void)(n))
#endif

static pthread_mutex_t warm_mu = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int warm_state; /* 0: not decided yet, 1: on, 2: off */
static struct {
    uint8_t *p;
    size_t cap;
} warm[WARM_SLOTS];
static size_t warm_bytes;

static size_t block_cap(const void *a) { return ((const size_t *)a)[-2]; }

static bool warm_on(void) {
    int st = warm_state;
    if (st == 0) {
#if defined(HUDI_ASAN)
        st = 2;
#elif defined(HUDI_MEMCHECK)
        st = RUNNING_ON_VALGRIND ? 2 : 1;
#else
        st = 1;
#endif
        warm_state = st;
    }
    return st == 1;
}

void hudi_alloc_warm_enable(bool on) {
    if (!on) hudi_alloc_warm_clear();
    warm_state = on ? 1 : 2;
}

/* The smallest waiting block of `need` to 2 * need bytes, or NULL. */
static void *warm_take(size_t need) {
    pthread_mutex_lock(&warm_mu);
    int best = -1;
    for (int i = 0; i < WARM_SLOTS; i++)
        if (warm[i].p && warm[i].cap >= need && warm[i].cap / 2 <= need &&
            (best < 0 || warm[i].cap < warm[best].cap))
            best = i;
    uint8_t *p = NULL;
    if (best >= 0) {
        p = warm[best].p;
        warm_bytes -= warm[best].cap;
        warm[best].p = NULL;
        WARM_SHOW(p, need);
    }
    pthread_mutex_unlock(&warm_mu);
    return p;
}

/* Keeps `a` for a later allocation; false when the cache is full. */
static bool warm_give(uint8_t *a, size_t cap) {
    bool kept = false;
    pthread_mutex_lock(&warm_mu);
    if (warm_bytes + cap <= WARM_MAX_BYTES)
        for (int i = 0; i < WARM_SLOTS && !kept; i++)
            if (!warm[i].p) {
                warm[i].p = a;
                warm[i].cap = cap;
                warm_bytes += cap;
                WARM_HIDE(a, cap);
                kept = true;
            }
    pthread_mutex_unlock(&warm_mu);
    return kept;
}

static void raw_free(void *a) { hudi_free(((void **)a)[-1]); }

size_t hudi_alloc_warm_clear(void) {
    size_t n = 0;
    pthread_mutex_lock(&warm_mu);
    for (int i = 0; i < WARM_SLOTS; i++)
        if (warm[i].p) {
            WARM_SHOW(warm[i].p, warm[i].cap);
            raw_free(warm[i].p);
            n += warm[i].cap;
            warm[i].p = NULL;
        }
    warm_bytes = 0;
    pthread_mutex_unlock(&warm_mu);
    return n;
}

size_t hudi_alloc_warm_bytes(void) {
    pthread_mutex_lock(&warm_mu);
    size_t n = warm_bytes;
    pthread_mutex_unlock(&warm_mu);
    return n;
}

void *hudi_aligned_alloc(size_t size) {
    if (size >= WARM_MIN && warm_on()) {
        void *p = warm_take(size);
        if (p) return p;
    }
    size_t total;
    if (hudi_add_overflow(size, 64 + 2 * sizeof(void *), &total)) return NULL;
    uint8_t *raw = hudi_malloc(total);
    if (!raw) return NULL;
    uintptr_t a = ((uintptr_t)raw + 2 * sizeof(void *) + 63) & ~(uintptr_t)63;
    ((void **)a)[-1] = raw;
    ((size_t *)a)[-2] = size;
    return (void *)a;
}

void hudi_aligned_free(void *ptr) {
    if (!ptr) return;
    size_t cap = block_cap(ptr);
    if (cap >= WARM_MIN && warm_on() && warm_give(ptr, cap)) return;
    raw_free(ptr);
}
