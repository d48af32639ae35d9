/* base_test.c - errors, buffers, vectors, arenas, the hash map, allocation failure and the
 * warm-block cache. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/base.h"
#include "support.h"

Test(error, set_formats_and_returns_code) {
    hudi_error err = HUDI_ERROR_INIT;
    int rc = hudi_error_set(&err, HUDI_ECORRUPT, "%s: footer length %u too large", "f.parquet", 9u);
    cr_assert_eq(rc, HUDI_ECORRUPT);
    cr_assert_str_eq(err.message, "f.parquet: footer length 9 too large");
    hudi_error_wrap(&err, "table %s", "t");
    cr_assert_str_eq(err.message, "table t: f.parquet: footer length 9 too large");
    cr_assert_eq(err.code, HUDI_ECORRUPT);
    cr_assert_eq(hudi_error_set(NULL, HUDI_EIO, "x"), HUDI_EIO);
    cr_assert_str_eq(hudi_error_name(HUDI_EUNSUPPORTED), "EUNSUPPORTED");
}

Test(error, long_message_truncates) {
    hudi_error err = HUDI_ERROR_INIT;
    char big[2000];
    memset(big, 'a', sizeof(big) - 1);
    big[sizeof(big) - 1] = 0;
    hudi_error_set(&err, HUDI_EINVAL, "%s", big);
    cr_assert_eq(strlen(err.message), HUDI_ERROR_MESSAGE_MAX - 1);
}

Test(buf, append_printf_detach) {
    hudi_buf b = HUDI_BUF_INIT;
    hudi_buf_puts(&b, "abc");
    hudi_buf_putc(&b, '-');
    hudi_buf_printf(&b, "%d/%s", 42, "x");
    for (int i = 0; i < 1000; i++) hudi_buf_printf(&b, "%04d", i);
    cr_assert_eq(b.len, 3 + 1 + 4 + 4000);
    cr_assert_eq(b.data[b.len], '\0');
    cr_assert(strncmp(b.data, "abc-42/x0000", 12) == 0);
    hudi_buf_truncate(&b, 3);
    cr_assert_str_eq(b.data, "abc");
    char *s = hudi_buf_detach(&b);
    cr_assert_str_eq(s, "abc");
    cr_assert_null(b.data);
    hudi_free(s);
}

Test(buf, failure_is_sticky) {
    test_alloc_faults faults = {.fail_at = 2};
    hudi_allocator a = test_failing_allocator(&faults);
    hudi_set_allocator(&a);
    hudi_buf b = HUDI_BUF_INIT;
    hudi_buf_puts(&b, "first");                                                   /* allocation 1 */
    for (int i = 0; i < 100; i++) hudi_buf_puts(&b, "more text to force growth"); /* 2 fails */
    hudi_set_allocator(NULL);
    cr_assert(hudi_buf_failed(&b));
    /* Appends stop at the first failed growth (past the initial 64 bytes) and stay stopped. */
    cr_assert_str_eq(b.data, "firstmore text to force growthmore text to force growth");
    hudi_buf_dispose(&b);
}

Test(vec, push_and_grow) {
    hudi_vec v = HUDI_VEC_INIT(int64_t);
    for (int64_t i = 0; i < 10000; i++) *(int64_t *)hudi_vec_push(&v) = i * 3;
    cr_assert_eq(v.len, 10000);
    cr_assert_eq(hudi_vec_at(&v, int64_t, 9999), 29997);
    hudi_vec_dispose(&v);
}

Test(arena, many_small_and_large) {
    hudi_arena a = HUDI_ARENA_INIT;
    char *first = hudi_arena_strdup(&a, "hello");
    for (int i = 0; i < 5000; i++) {
        uint8_t *p = hudi_arena_alloc(&a, (size_t)(i % 97) + 1);
        cr_assert_not_null(p);
        cr_assert_eq(((uintptr_t)p) % 16, 0);
        cr_assert_eq(p[0], 0);
        p[0] = 1;
    }
    void *big = hudi_arena_alloc(&a, 1 << 20);
    cr_assert_not_null(big);
    cr_assert_str_eq(first, "hello");
    hudi_arena_dispose(&a);
}

Test(map, put_get_remove_many) {
    hudi_map m = HUDI_MAP_INIT;
    char key[32];
    for (intptr_t i = 0; i < 5000; i++) {
        int n = snprintf(key, sizeof(key), "key-%ld", (long)i);
        cr_assert_eq(hudi_map_put(&m, key, (size_t)n, (void *)(i + 1), NULL), 0);
    }
    cr_assert_eq(m.len, 5000);
    for (intptr_t i = 0; i < 5000; i += 2) {
        int n = snprintf(key, sizeof(key), "key-%ld", (long)i);
        void *old;
        cr_assert(hudi_map_remove(&m, key, (size_t)n, &old));
        cr_assert_eq((intptr_t)old, i + 1);
    }
    for (intptr_t i = 0; i < 5000; i++) {
        int n = snprintf(key, sizeof(key), "key-%ld", (long)i);
        void *v = hudi_map_get(&m, key, (size_t)n);
        if (i % 2)
            cr_assert_eq((intptr_t)v, i + 1);
        else
            cr_assert_null(v);
    }
    size_t it = 0, seen = 0;
    while (hudi_map_next(&m, &it)) seen++;
    cr_assert_eq(seen, 2500);
    void *old;
    hudi_map_put(&m, "key-1", 5, (void *)7, &old);
    cr_assert_eq((intptr_t)old, 2);
    hudi_map_dispose(&m);
}

/* Bit-at-a-time CRC-32 (reflected polynomial 0xEDB88320): the definition, to check the
 * library against on inputs of every length and alignment. */
static uint32_t crc32_bitwise(uint32_t crc, const uint8_t *p, size_t n) {
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1)));
    }
    return ~crc;
}

/* Published CRC-32 check values (zlib, gzip and Parquet page CRCs use this one), chaining
 * across calls, and every length and start alignment of a buffer against the definition:
 * the vectorised paths take over at different lengths and alignments. */
Test(misc, crc32_vectors) {
    static const struct {
        const char *s;
        uint32_t crc;
    } v[] = {{"", 0},
             {"a", 0xE8B7BE43u},
             {"abc", 0x352441C2u},
             {"123456789", 0xCBF43926u},
             {"The quick brown fox jumps over the lazy dog", 0x414FA339u}};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(v); i++)
        cr_assert_eq(hudi_crc32(0, v[i].s, strlen(v[i].s)), v[i].crc, "%s", v[i].s);
    uint8_t b[1024 + 64];
    memset(b, 0, 32);
    cr_assert_eq(hudi_crc32(0, b, 32), 0x190A55ADu);
    memset(b, 0xFF, 32);
    cr_assert_eq(hudi_crc32(0, b, 32), 0xFF6CAB0Bu);
    for (int i = 0; i < 32; i++) b[i] = (uint8_t)i;
    cr_assert_eq(hudi_crc32(0, b, 32), 0x91267E8Au);
    for (size_t i = 0; i < 1024; i++) b[i] = (uint8_t)i;
    cr_assert_eq(hudi_crc32(0, b, 1024), 0xB70B4C26u);
    /* Empty input leaves any running value alone; pieces chain to the whole. */
    cr_assert_eq(hudi_crc32(0x12345678u, b, 0), 0x12345678u);
    cr_assert_eq(hudi_crc32(hudi_crc32(0, "1234", 4), "56789", 5), 0xCBF43926u);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < sizeof(b); i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        b[i] = (uint8_t)x;
    }
    for (size_t off = 0; off < 64; off += 7)
        for (size_t n = 0; n <= 1024; n += (n < 300 ? 1 : 37)) {
            uint32_t want = crc32_bitwise(0, b + off, n);
            cr_assert_eq(hudi_crc32(0, b + off, n), want, "off %zu len %zu", off, n);
            size_t cut = n / 3;
            cr_assert_eq(hudi_crc32(hudi_crc32(0, b + off, cut), b + off + cut, n - cut), want);
        }
}

Test(misc, crc32_and_hash) {
    cr_assert_eq(hudi_crc32(0, "123456789", 9), 0xCBF43926u);
    cr_assert_eq(hudi_hash64("", 0), 0xEF46DB3751D8E999ull);
}

/* ---- warm blocks: freed column-sized blocks wait for the next allocation of a similar size */

/* Each test turns the cache on: ASan and valgrind runs have it off by default. */

Test(warm, a_freed_big_block_serves_the_next_similar_allocation) {
    hudi_alloc_warm_enable(true);
    hudi_alloc_warm_clear();
    uint8_t *p = hudi_aligned_alloc(1 << 20);
    cr_assert_not_null(p);
    memset(p, 7, 1 << 20);
    hudi_aligned_free(p);
    cr_assert_eq(hudi_alloc_warm_bytes(), (size_t)1 << 20);

    uint8_t *q = hudi_aligned_alloc(600 << 10); /* half the block or more: reused */
    cr_assert_eq(q, p);
    cr_assert_eq((uintptr_t)q % 64, 0);
    cr_assert_eq(hudi_alloc_warm_bytes(), 0);
    uint8_t *r = hudi_aligned_alloc(400 << 10); /* less than half: a block of its own */
    cr_assert_neq(r, p);
    hudi_aligned_free(q); /* goes back with its full size */
    hudi_aligned_free(r);
    cr_assert_eq(hudi_alloc_warm_bytes(), ((size_t)1 << 20) + (400 << 10));

    void *small = hudi_aligned_alloc(1000); /* small blocks go back to the C library */
    hudi_aligned_free(small);
    cr_assert_eq(hudi_alloc_warm_bytes(), ((size_t)1 << 20) + (400 << 10));
    uint8_t *big = hudi_aligned_alloc(3 << 20); /* nothing waiting is big enough */
    cr_assert(big != p && big != r);
    hudi_aligned_free(big);

    cr_assert_eq(hudi_alloc_warm_clear(), ((size_t)1 << 20) + (400 << 10) + (3 << 20));
    cr_assert_eq(hudi_alloc_warm_bytes(), 0);
}

Test(warm, the_cache_is_bounded) {
    hudi_alloc_warm_enable(true);
    hudi_alloc_warm_clear();
    enum { N = 20 };
    void *blocks[N];
    for (int i = 0; i < N; i++) cr_assert_not_null(blocks[i] = hudi_aligned_alloc(20 << 20));
    for (int i = 0; i < N; i++) hudi_aligned_free(blocks[i]);
    /* 400 MiB freed; 256 MiB at most wait, the rest went back to the C library */
    cr_assert_eq(hudi_alloc_warm_bytes(), (size_t)12 * (20 << 20));
    hudi_alloc_warm_clear();
    for (int i = 0; i < 100; i++) {
        void *b = hudi_aligned_alloc(300 << 10);
        cr_assert_not_null(b);
        hudi_aligned_free(b);
    }
    cr_assert_eq(hudi_alloc_warm_bytes(), (size_t)300 << 10); /* one block, reused 99 times */
    void *many[80];
    for (int i = 0; i < 80; i++) cr_assert_not_null(many[i] = hudi_aligned_alloc(300 << 10));
    for (int i = 0; i < 80; i++) hudi_aligned_free(many[i]);
    cr_assert_eq(hudi_alloc_warm_bytes(), (size_t)64 * (300 << 10)); /* 64 slots */
    hudi_alloc_warm_clear();
}

Test(warm, new_allocation_hooks_empty_the_cache) {
    hudi_alloc_warm_enable(true);
    hudi_alloc_warm_clear();
    hudi_aligned_free(hudi_aligned_alloc(1 << 20));
    cr_assert_eq(hudi_alloc_warm_bytes(), (size_t)1 << 20);
    test_alloc_faults faults = {.fail_at = 1}; /* the first allocation through the hooks fails */
    hudi_allocator a = test_failing_allocator(&faults);
    hudi_set_allocator(&a);
    cr_assert_eq(hudi_alloc_warm_bytes(), 0); /* freed through the hooks that made it */
    cr_assert_null(hudi_aligned_alloc(1 << 20), "a block made before must not be handed out");
    hudi_set_allocator(NULL);
}

Test(warm, turned_off_it_keeps_nothing) {
    hudi_alloc_warm_enable(true);
    hudi_aligned_free(hudi_aligned_alloc(1 << 20));
    cr_assert_eq(hudi_alloc_warm_bytes(), (size_t)1 << 20);
    hudi_alloc_warm_enable(false); /* empties it */
    cr_assert_eq(hudi_alloc_warm_bytes(), 0);
    hudi_aligned_free(hudi_aligned_alloc(1 << 20));
    cr_assert_eq(hudi_alloc_warm_bytes(), 0);
}
