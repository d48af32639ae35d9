/* arena.c - bump allocation for objects that share a lifetime (a parsed footer, a
 * statement's AST). Freed all at once by hudi_arena_dispose. */
#include "base.h"

struct hudi_arena_chunk {
    hudi_arena_chunk *next;
    size_t used, size;
    _Alignas(16) uint8_t data[];
};

void *hudi_arena_alloc(hudi_arena *a, size_t size) {
    size = (size + 15) & ~(size_t)15;
    if (size == 0) size = 16;
#ifdef HUDI_ARENA_DEBUG
    size_t chunk_bytes = size;
#else
    hudi_arena_chunk *c = a->head;
    if (c && c->size - c->used >= size) {
        void *p = c->data + c->used;
        c->used += size;
        a->total += size;
        return p;
    }
    size_t base = a->chunk_size ? a->chunk_size : 16384;
    size_t chunk_bytes = size > base / 4 ? size : base;
#endif
    size_t total;
    if (hudi_add_overflow(chunk_bytes, sizeof(hudi_arena_chunk), &total)) return NULL;
    hudi_arena_chunk *n = hudi_malloc(total);
    if (!n) return NULL;
    memset(n->data, 0, chunk_bytes);
    n->size = chunk_bytes;
    n->used = size;
#ifdef HUDI_ARENA_DEBUG
    n->next = a->head;
    a->head = n;
#else
    /* An oversized block goes behind the current chunk so the chunk keeps serving. */
    if (chunk_bytes != base && a->head) {
        n->next = a->head->next;
        a->head->next = n;
    } else {
        n->next = a->head;
        a->head = n;
    }
#endif
    a->total += size;
    return n->data;
}

char *hudi_arena_strndup(hudi_arena *a, const char *s, size_t n) {
    char *p = hudi_arena_alloc(a, n + 1);
    if (!p) return NULL;
    if (n) memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *hudi_arena_strdup(hudi_arena *a, const char *s) {
    return hudi_arena_strndup(a, s, strlen(s));
}

void hudi_arena_dispose(hudi_arena *a) {
    hudi_arena_chunk *c = a->head;
    while (c) {
        hudi_arena_chunk *next = c->next;
        hudi_free(c);
        c = next;
    }
    a->head = NULL;
    a->total = 0;
}
