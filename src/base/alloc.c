/* alloc.c - allocation hooks. The hooks are process-wide configuration, set once before
 * use (as sqlite3_config does; hudi_set_allocator in src/api/alloc.c); tests install a failing
 * allocator to exercise OOM paths. */
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

/* Aligned blocks keep the raw pointer just before the aligned address. */
void *hudi_aligned_alloc(size_t size) {
    size_t total;
    if (hudi_add_overflow(size, 64 + sizeof(void *), &total)) return NULL;
    uint8_t *raw = hudi_malloc(total);
    if (!raw) return NULL;
    uintptr_t a = ((uintptr_t)raw + sizeof(void *) + 63) & ~(uintptr_t)63;
    ((void **)a)[-1] = raw;
    return (void *)a;
}

void hudi_aligned_free(void *ptr) {
    if (ptr) hudi_free(((void **)ptr)[-1]);
}
