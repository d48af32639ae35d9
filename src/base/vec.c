/* vec.c - hudi_vec: a growable array of fixed-size elements. */
#include "base.h"

int hudi_vec_reserve(hudi_vec *v, size_t n) {
    size_t need;
    if (hudi_add_overflow(v->len, n, &need)) return HUDI_ENOMEM;
    if (need <= v->cap) return 0;
    size_t cap = v->cap ? v->cap : 8;
    while (cap < need) cap *= 2;
    size_t bytes;
    if (hudi_mul_overflow(cap, v->elem_size, &bytes)) return HUDI_ENOMEM;
    void *p = hudi_realloc(v->data, bytes);
    if (!p) return HUDI_ENOMEM;
    v->data = p;
    v->cap = cap;
    return 0;
}

void *hudi_vec_push(hudi_vec *v) {
    if (hudi_vec_reserve(v, 1) < 0) return NULL;
    void *slot = (char *)v->data + v->len * v->elem_size;
    memset(slot, 0, v->elem_size);
    v->len++;
    return slot;
}

void hudi_vec_dispose(hudi_vec *v) {
    hudi_free(v->data);
    v->data = NULL;
    v->len = v->cap = 0;
}
