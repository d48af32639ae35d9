/* map.c - hudi_map: string keys to pointers; open addressing with linear probing and
 * backward-shift deletion, so there are no tombstones. Load factor kept below 3/4. */
#include <xxhash.h>
#include <libdeflate.h>

#include "base.h"

uint64_t hudi_hash64(const void *data, size_t len) { return XXH64(data, len, 0); }

uint64_t hudi_hash64_fast(const void *data, size_t len) { return XXH3_64bits(data, len); }

/* libdeflate's CRC-32 (the zlib/gzip polynomial, same values as zlib's crc32) folds with
 * PCLMULQDQ where the CPU has it, several times zlib 1.2's table-driven loop; it takes a
 * size_t length, so large buffers need no splitting. */
uint32_t hudi_crc32(uint32_t crc, const void *data, size_t len) {
    return len ? libdeflate_crc32(crc, data, len) : crc;
}

static int map_resize(hudi_map *m, size_t cap) {
    hudi_map_entry *slots = hudi_calloc(cap, sizeof(*slots));
    if (!slots) return HUDI_ENOMEM;
    for (size_t i = 0; i < m->cap; i++) {
        hudi_map_entry *e = &m->slots[i];
        if (!e->key) continue;
        size_t j = e->hash & (cap - 1);
        while (slots[j].key) j = (j + 1) & (cap - 1);
        slots[j] = *e;
    }
    hudi_free(m->slots);
    m->slots = slots;
    m->cap = cap;
    return 0;
}

static hudi_map_entry *map_find(const hudi_map *m, const char *key, size_t key_len, uint64_t h) {
    if (!m->cap) return NULL;
    for (size_t j = h & (m->cap - 1);; j = (j + 1) & (m->cap - 1)) {
        hudi_map_entry *e = &m->slots[j];
        if (!e->key) return NULL;
        if (e->hash == h && e->key_len == key_len && memcmp(e->key, key, key_len) == 0) return e;
    }
}

int hudi_map_put(hudi_map *m, const char *key, size_t key_len, void *value, void **old) {
    uint64_t h = hudi_hash64(key, key_len);
    hudi_map_entry *e = map_find(m, key, key_len, h);
    if (old) *old = e ? e->value : NULL;
    if (e) {
        e->value = value;
        return 0;
    }
    if ((m->len + 1) * 4 > m->cap * 3) {
        int rc = map_resize(m, m->cap ? m->cap * 2 : 16);
        if (rc < 0) return rc;
    }
    char *k = hudi_strndup(key, key_len);
    if (!k) return HUDI_ENOMEM;
    size_t j = h & (m->cap - 1);
    while (m->slots[j].key) j = (j + 1) & (m->cap - 1);
    m->slots[j] = (hudi_map_entry){k, key_len, h, value};
    m->len++;
    return 0;
}

void *hudi_map_get(const hudi_map *m, const char *key, size_t key_len) {
    hudi_map_entry *e = map_find(m, key, key_len, hudi_hash64(key, key_len));
    return e ? e->value : NULL;
}

bool hudi_map_remove(hudi_map *m, const char *key, size_t key_len, void **old) {
    hudi_map_entry *e = map_find(m, key, key_len, hudi_hash64(key, key_len));
    if (!e) return false;
    if (old) *old = e->value;
    hudi_free(e->key);
    size_t mask = m->cap - 1, i = (size_t)(e - m->slots), j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (!m->slots[j].key) break;
        size_t home = m->slots[j].hash & mask;
        /* Move j back to i unless its home lies cyclically in (i, j]. */
        bool stays = (i <= j) ? (i < home && home <= j) : (i < home || home <= j);
        if (stays) continue;
        m->slots[i] = m->slots[j];
        i = j;
    }
    m->slots[i] = (hudi_map_entry){0};
    m->len--;
    return true;
}

hudi_map_entry *hudi_map_next(const hudi_map *m, size_t *iter) {
    while (*iter < m->cap) {
        hudi_map_entry *e = &m->slots[(*iter)++];
        if (e->key) return e;
    }
    return NULL;
}

void hudi_map_dispose(hudi_map *m) {
    for (size_t i = 0; i < m->cap; i++) hudi_free(m->slots[i].key);
    hudi_free(m->slots);
    *m = (hudi_map)HUDI_MAP_INIT;
}
