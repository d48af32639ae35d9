/* alloc.c - the public hudi_set_allocator (include/hudi/hudi.h): hudic's own hooks (base) and
 * the process-wide allocators of the two libraries that allocate for hudic, jansson (JSON:
 * schemas, commit metadata) and libavro (Avro schemas), routed through the same hooks. It lives
 * in the api layer because only here are all three visible; it is called once, before any
 * other call, so the libraries' hooks change while nothing they allocated is alive. */
#include <avro.h>
#include <jansson.h>

#include "base/base.h"

/* libavro's allocator contract: nsize 0 frees (and returns NULL), otherwise (re)allocates. */
static void *avro_hooks(void *user_data, void *ptr, size_t osize, size_t nsize) {
    (void)user_data, (void)osize;
    if (nsize == 0) {
        hudi_free(ptr);
        return NULL;
    }
    return ptr ? hudi_realloc(ptr, nsize) : hudi_malloc(nsize);
}

void hudi_set_allocator(const hudi_allocator *a) {
    /* What the libraries had before hudic first changed them, restored by a NULL `a`. */
    static bool saved;
    static json_malloc_t json_malloc_before;
    static json_free_t json_free_before;
    static struct avro_allocator_state avro_before;
    if (!saved) {
        json_get_alloc_funcs(&json_malloc_before, &json_free_before);
        avro_before = AVRO_CURRENT_ALLOCATOR;
        saved = true;
    }
    hudi_alloc_set(a);
    if (a) {
        json_set_alloc_funcs(hudi_malloc, hudi_free);
        avro_set_allocator(avro_hooks, NULL);
    } else {
        json_set_alloc_funcs(json_malloc_before, json_free_before);
        avro_set_allocator(avro_before.alloc, avro_before.user_data);
    }
}
