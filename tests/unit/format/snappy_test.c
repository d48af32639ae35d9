/* snappy_test.c - hudic's Snappy decoder against libsnappy: blocks libsnappy compresses
 * (random, text, runs, short periods, uuid-like, many sizes), hand-built blocks using every
 * element form (including forms libsnappy never writes), every SNAPPY page of the
 * parquet-testing fixtures, and malformed blocks, which must fail with ECORRUPT. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <snappy-c.h>
#include <stdio.h>
#include <stdlib.h>

#include "format/parquet/meta.h"
#include "format/parquet/parquet.h"
#include "format/parquet/snappy.h"
#include "storage/storage.h"
#include "support.h"

enum { GEN_RANDOM, GEN_TEXT, GEN_RUN, GEN_PERIOD, GEN_UUID, GEN_MIXED, GEN_COUNT };

static uint64_t next_rand(uint64_t *x) {
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return *x;
}

/* Deterministic test data of n bytes in one of the GEN_* shapes. */
static uint8_t *make_data(int gen, size_t n, uint64_t seed) {
    uint8_t *p = malloc(n ? n : 1);
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    size_t period = 1 + seed % 23;
    for (size_t i = 0; i < n; i++) {
        switch (gen) {
        case GEN_RANDOM: p[i] = (uint8_t)next_rand(&x); break;
        case GEN_TEXT:
            p[i] = (uint8_t)("snappy parquet hudi column "[i % 27] + (i / 5000) % 3);
            break;
        case GEN_RUN: p[i] = (uint8_t)(i / 100000); break;
        case GEN_PERIOD: p[i] = (uint8_t)('a' + i % period); break;
        case GEN_UUID: {
            /* u32 length 36 then 36 hex characters with dashes: the bench's uuid column. */
            size_t k = i % 40;
            if (k < 4)
                p[i] = k == 0 ? 36 : 0;
            else if (k == 12 || k == 17 || k == 22 || k == 27)
                p[i] = '-';
            else
                p[i] = (uint8_t) "0123456789abcdef"[next_rand(&x) & 15];
            break;
        }
        default: /* stretches of each shape */
            p[i] = (i / 777) % 3 == 0   ? (uint8_t)next_rand(&x)
                   : (i / 777) % 3 == 1 ? (uint8_t)(i % (1 + (i / 777) % 17))
                                        : 'z';
            break;
        }
    }
    return p;
}

static void check_round_trip(const uint8_t *src, size_t n, const char *what) {
    size_t cap = snappy_max_compressed_length(n), clen = cap;
    char *comp = malloc(cap);
    cr_assert_eq(snappy_compress((const char *)src, n, comp, &clen), SNAPPY_OK);
    uint8_t *out = malloc(n ? n : 1); /* exact size: ASan catches any write past n */
    hudi_error err = HUDI_ERROR_INIT;
    size_t declared = 12345;
    cr_assert_eq(hudi_pq_snappy_uncompressed_length(HUDI_SLICE(comp, clen), &declared, &err), 0);
    cr_assert_eq(declared, n);
    int rc = hudi_pq_snappy_decompress(HUDI_SLICE(comp, clen), n ? out : NULL, n, &err);
    cr_assert_eq(rc, 0, "%s n=%zu: %s", what, n, err.message);
    cr_assert(n == 0 || memcmp(out, src, n) == 0, "%s n=%zu: bytes differ", what, n);
    /* Any other expected size fails. */
    if (n > 0)
        cr_assert_eq(hudi_pq_snappy_decompress(HUDI_SLICE(comp, clen), out, n - 1, &err),
                     HUDI_ECORRUPT);
    free(out);
    free(comp);
}

/* Decodes a block incrementally, as the reader does for PLAIN pages: fills of odd steps (1
 * byte when step is 1), each checked to provide at least what it was asked for, then the
 * rest. */
static int stream_decode(const void *comp, size_t clen, uint8_t *out, size_t n, size_t step,
                         hudi_error *err) {
    pq_snappy_stream st;
    int rc = hudi_pq_snappy_stream_init(&st, HUDI_SLICE(comp, clen), out, n, err);
    for (size_t upto = step; rc == 0 && upto < n; upto += step + upto % 7) {
        if ((rc = hudi_pq_snappy_stream_fill(&st, upto, err)) < 0) break;
        cr_assert_geq((size_t)(st.op - out), upto);
        cr_assert(!st.finished);
    }
    if (rc == 0) rc = hudi_pq_snappy_stream_fill(&st, SIZE_MAX, err);
    if (rc == 0) {
        cr_assert(st.finished);
        cr_assert_eq(hudi_pq_snappy_stream_fill(&st, SIZE_MAX, err), 0); /* idempotent */
    }
    return rc;
}

Test(snappy, incremental_fills_match_one_shot) {
    static const size_t sizes[] = {0, 1, 15, 16, 17, 65, 66, 67, 130, 4097, 65537, 300001};
    static const size_t steps[] = {1, 3, 64, 1000, 65536};
    for (int g = 0; g < GEN_COUNT; g++) {
        for (size_t i = 0; i < HUDI_ARRAY_LEN(sizes); i++) {
            size_t n = sizes[i], clen = snappy_max_compressed_length(n);
            uint8_t *src = make_data(g, n, i + 3);
            char *comp = malloc(clen);
            cr_assert_eq(snappy_compress((const char *)src, n, comp, &clen), SNAPPY_OK);
            for (size_t k = 0; k < HUDI_ARRAY_LEN(steps); k++) {
                if (n > 70000 && steps[k] < 64) continue;
                uint8_t *out = malloc(n ? n : 1); /* exact size: ASan sees any overrun */
                hudi_error err = HUDI_ERROR_INIT;
                int rc = stream_decode(comp, clen, n ? out : NULL, n, steps[k], &err);
                cr_assert_eq(rc, 0, "shape %d n=%zu step %zu: %s", g, n, steps[k], err.message);
                cr_assert(n == 0 || memcmp(out, src, n) == 0, "shape %d n=%zu step %zu", g, n,
                          steps[k]);
                /* Truncated: the stream fails as the one-shot decoder does. */
                if (clen > 2)
                    cr_assert_eq(stream_decode(comp, clen - 1, n ? out : NULL, n, steps[k], &err),
                                 HUDI_ECORRUPT);
                free(out);
            }
            free(comp);
            free(src);
        }
    }
}

Test(snappy, libsnappy_blocks_of_many_sizes_and_shapes) {
    static const size_t sizes[] = {
        0,   1,   2,    3,    4,    5,    7,    8,     15,    16,    17,    31,     32,
        33,  60,  61,   63,   64,   65,   66,   79,    80,    81,    100,   127,    128,
        255, 256, 1000, 4095, 4096, 4097, 9999, 32768, 65535, 65536, 65537, 100003, 300000};
    for (int g = 0; g < GEN_COUNT; g++) {
        for (size_t i = 0; i < HUDI_ARRAY_LEN(sizes); i++) {
            uint8_t *src = make_data(g, sizes[i], i + 1);
            char what[32];
            snprintf(what, sizeof(what), "shape %d", g);
            check_round_trip(src, sizes[i], what);
            free(src);
        }
    }
    /* Every length from 0 to 300 in every shape: exercises the switch to the tail loop. */
    for (int g = 0; g < GEN_COUNT; g++) {
        for (size_t n = 0; n <= 300; n++) {
            uint8_t *src = make_data(g, n, n + 7);
            check_round_trip(src, n, "small");
            free(src);
        }
    }
}

Test(snappy, short_periods_and_long_runs) {
    /* Copies with every offset below 16 and lengths up to 64, in long and short blocks. */
    for (uint64_t seed = 0; seed < 23; seed++) {
        uint8_t *src = make_data(GEN_PERIOD, 5000 + seed * 31, seed);
        check_round_trip(src, 5000 + seed * 31, "period");
        free(src);
    }
    size_t n = 3u << 20; /* 3 MiB of one byte, then of another */
    uint8_t *src = malloc(n);
    memset(src, 'x', n / 2);
    memset(src + n / 2, 0, n - n / 2);
    check_round_trip(src, n, "run");
    free(src);
}

/* ---- hand-built blocks ---------------------------------------------------------------- */

typedef struct block {
    uint8_t b[4096];
    size_t n;
} block;

static void put(block *k, const void *p, size_t n) {
    cr_assert_leq(k->n + n, sizeof(k->b));
    memcpy(k->b + k->n, p, n);
    k->n += n;
}
static void put_byte(block *k, unsigned v) {
    uint8_t b = (uint8_t)v;
    put(k, &b, 1);
}
static void put_header(block *k, uint32_t len) {
    do {
        put_byte(k, (len & 0x7F) | (len > 0x7F ? 0x80 : 0));
        len >>= 7;
    } while (len);
}
/* A literal with its length in `extra` bytes after the tag (0: in the tag). */
static void put_literal(block *k, const void *p, size_t len, int extra) {
    if (extra == 0) {
        put_byte(k, (unsigned)(len - 1) << 2);
    } else {
        put_byte(k, (unsigned)(59 + extra) << 2);
        for (int i = 0; i < extra; i++) put_byte(k, (unsigned)((len - 1) >> (8 * i)));
    }
    put(k, p, len);
}
/* A copy in form 1, 2 or 4 (offset bytes). */
static void put_copy(block *k, int form, size_t len, size_t off) {
    if (form == 1) {
        put_byte(k, 1u | (unsigned)(len - 4) << 2 | (unsigned)(off >> 8) << 5);
        put_byte(k, (unsigned)off);
    } else {
        put_byte(k, (form == 2 ? 2u : 3u) | (unsigned)(len - 1) << 2);
        for (int i = 0; i < form; i++) put_byte(k, (unsigned)(off >> (8 * i)));
    }
}

/* Decodes `k` (declaring out_len) with hudic and libsnappy and compares; returns hudic's rc. */
static int decode_both(const block *k, size_t out_len, bool lib_must_agree) {
    uint8_t *mine = malloc(out_len ? out_len : 1);
    char *ref = malloc(out_len ? out_len : 1);
    hudi_error err = HUDI_ERROR_INIT;
    int rc = hudi_pq_snappy_decompress(HUDI_SLICE(k->b, k->n), mine, out_len, &err);
    size_t ref_len = 0;
    bool lib_ok = snappy_uncompressed_length((const char *)k->b, k->n, &ref_len) == SNAPPY_OK &&
                  ref_len == out_len &&
                  snappy_uncompress((const char *)k->b, k->n, ref, &ref_len) == SNAPPY_OK;
    if (lib_must_agree)
        cr_assert_eq(rc == 0, lib_ok, "hudic rc %d (%s), libsnappy ok %d", rc, err.message, lib_ok);
    if (rc == 0 && lib_ok) cr_assert_eq(memcmp(mine, ref, out_len), 0, "bytes differ");
    if (rc < 0) {
        cr_assert_eq(rc, HUDI_ECORRUPT);
        cr_assert_null(strchr(err.message, '\n'));
    }
    free(mine);
    free(ref);
    return rc;
}

Test(snappy, every_element_form) {
    uint8_t text[300];
    for (size_t i = 0; i < sizeof(text); i++)
        text[i] = (uint8_t)("0123456789abcdefXYZ"[i % 19] ^ (i / 19));
    for (int extra = 0; extra <= 4; extra++) {
        for (size_t lit = 1; lit <= (extra ? 300 : 60); lit += extra ? 37 : 1) {
            for (int form = 1; form <= 4; form += form == 2 ? 2 : 1) {
                for (size_t off = 1; off <= lit; off += off < 20 ? 1 : 13) {
                    if (extra == 1 && lit > 256) continue;
                    for (size_t len = form == 1 ? 4 : 1; len <= (form == 1 ? 11u : 64u); len += 3) {
                        if (form == 1 && off > 2047) continue;
                        block k = {.n = 0};
                        /* literal, copy, copy again, short literal: lengths that sum up. */
                        put_header(&k, (uint32_t)(lit + 2 * len + 3));
                        put_literal(&k, text, lit, extra);
                        put_copy(&k, form, len, off);
                        put_copy(&k, form, len, HUDI_MIN(off + 1, lit + len));
                        put_literal(&k, "end", 3, 0);
                        cr_assert_eq(decode_both(&k, lit + 2 * len + 3, true), 0,
                                     "extra %d lit %zu form %d off %zu len %zu", extra, lit, form,
                                     off, len);
                    }
                }
            }
        }
    }
}

Test(snappy, long_block_of_hand_built_elements) {
    /* Many elements in one block so the fast loop sees every form, then the tail loop. */
    block k = {.n = 0};
    uint8_t text[200];
    for (size_t i = 0; i < sizeof(text); i++) text[i] = (uint8_t)(i * 7 + 3);
    size_t total = 0;
    block body = {.n = 0};
    put_literal(&body, text, 200, 2);
    total += 200;
    for (size_t i = 0; total < 3800 && body.n < 3900; i++) {
        int form = (int)(i % 3) == 2 ? 4 : (int)(i % 3) + 1;
        size_t len = form == 1 ? 4 + i % 8 : 1 + (i * 5) % 64;
        size_t off = 1 + (i * 11) % HUDI_MIN(total, form == 1 ? 2047 : 1000);
        put_copy(&body, form, len, off);
        total += len;
        if (i % 4 == 0) {
            put_literal(&body, text + i % 100, 1 + i % 60, (int)(i % 3));
            total += 1 + i % 60;
        }
    }
    put_header(&k, (uint32_t)total);
    put(&k, body.b, body.n);
    cr_assert_eq(decode_both(&k, total, true), 0);
}

/* ---- malformed blocks ----------------------------------------------------------------- */

static void expect_corrupt(const block *k, size_t out_len, const char *what) {
    uint8_t *out = malloc(out_len ? out_len : 1);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(stream_decode(k->b, k->n, out, out_len, 1, &err), HUDI_ECORRUPT, "%s (stream)",
                 what);
    int rc = hudi_pq_snappy_decompress(HUDI_SLICE(k->b, k->n), out, out_len, &err);
    cr_assert_eq(rc, HUDI_ECORRUPT, "%s: rc %d", what, rc);
    cr_assert_null(strchr(err.message, '\n'));
    cr_assert_not_null(strstr(err.message, "SNAPPY"), "%s: %s", what, err.message);
    free(out);
    decode_both(k, out_len, true); /* libsnappy rejects it too */
}

Test(snappy, malformed_blocks) {
    block k;
#define BLOCK(...)                                                                                 \
    do {                                                                                           \
        static const uint8_t b_[] = {__VA_ARGS__};                                                 \
        k.n = 0;                                                                                   \
        put(&k, b_, sizeof(b_));                                                                   \
    } while (0)
    BLOCK(0x80); /* header truncated */
    expect_corrupt(&k, 0, "truncated header");
    BLOCK(0xFF, 0xFF, 0xFF, 0xFF, 0x1F); /* more than 32 bits */
    expect_corrupt(&k, 0, "33-bit header");
    BLOCK(0x80, 0x80, 0x80, 0x80, 0x80, 0x00); /* 6-byte header */
    expect_corrupt(&k, 0, "6-byte header");
    BLOCK(3, 0x08, 'a', 'b'); /* literal of 3 with 2 bytes */
    expect_corrupt(&k, 3, "literal past input");
    BLOCK(3, 0xF0); /* literal length in 1 byte that is missing */
    expect_corrupt(&k, 3, "literal length truncated");
    BLOCK(3, 0xFC, 0xFF, 0xFF); /* literal length in 4 bytes, 2 present */
    expect_corrupt(&k, 3, "literal 4-byte length truncated");
    BLOCK(0x05, 0xFC, 0xFF, 0xFF, 0xFF, 0xFF, 'a'); /* literal of 2^32 bytes */
    expect_corrupt(&k, 5, "literal length overflow");
    BLOCK(2, 0x04, 'a', 'b', 'c'); /* literal longer than the output */
    expect_corrupt(&k, 2, "literal past output");
    BLOCK(5, 0x00, 'a', 0x02 | (3 << 2), 0x00, 0x00); /* copy offset 0 */
    expect_corrupt(&k, 5, "offset 0");
    BLOCK(5, 0x00, 'a', 0x02 | (3 << 2), 0x02, 0x00); /* offset 2 after 1 byte */
    expect_corrupt(&k, 5, "offset before start");
    BLOCK(5, 0x00, 'a', 0x03 | (3 << 2), 0x01, 0x00, 0x00, 0x80); /* 4-byte offset 2^31+1 */
    expect_corrupt(&k, 5, "huge offset");
    BLOCK(5, 0x00, 'a', 0x01, 0x00); /* form-1 copy with offset 0 */
    expect_corrupt(&k, 5, "form-1 offset 0");
    BLOCK(4, 0x00, 'a', 0x02 | (9 << 2), 0x01, 0x00); /* copy of 10 into 3 bytes left */
    expect_corrupt(&k, 4, "copy past output");
    BLOCK(4, 0x00, 'a', 0x02); /* copy missing its offset bytes */
    expect_corrupt(&k, 4, "copy truncated");
    BLOCK(4, 0x00, 'a', 0x03, 0x01, 0x00); /* 4-byte offset, 2 present */
    expect_corrupt(&k, 4, "4-byte offset truncated");
    BLOCK(1, 0x00, 'a', 0x00, 'b'); /* output full, input left */
    expect_corrupt(&k, 1, "trailing element");
    BLOCK(3, 0x00, 'a'); /* input ends early */
    expect_corrupt(&k, 3, "short output");
    BLOCK(0, 0x00); /* a bare tag after an empty output */
    expect_corrupt(&k, 0, "tag without room");
    k.n = 0; /* empty input */
    expect_corrupt(&k, 0, "empty input");
    BLOCK(3, 0x08, 'a', 'b', 'c'); /* valid, but the caller expects 4 bytes */
    expect_corrupt(&k, 4, "declared size differs");
#undef BLOCK
    /* A valid empty block and a valid one-byte block. */
    uint8_t one = 0;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_snappy_decompress(HUDI_SLICE("\0", 1), NULL, 0, &err), 0);
    cr_assert_eq(hudi_pq_snappy_decompress(HUDI_SLICE("\x01\x00z", 3), &one, 1, &err), 0);
    cr_assert_eq(one, 'z');
}

Test(snappy, truncations_and_bit_flips_never_crash) {
    size_t n = 20000;
    uint8_t *src = make_data(GEN_MIXED, n, 3);
    size_t clen = snappy_max_compressed_length(n);
    char *comp = malloc(clen);
    cr_assert_eq(snappy_compress((const char *)src, n, comp, &clen), SNAPPY_OK);
    block k;
    uint8_t *out = malloc(n);
    hudi_error err = HUDI_ERROR_INIT;
    /* Every prefix is a truncated block. */
    for (size_t cut = 0; cut < clen; cut += cut < 200 ? 1 : 97)
        cr_assert_eq(hudi_pq_snappy_decompress(HUDI_SLICE(comp, cut), out, n, &err), HUDI_ECORRUPT,
                     "prefix %zu", cut);
    /* Bit flips: hudic and libsnappy accept exactly the same blocks, with the same bytes. */
    cr_assert_leq(clen, sizeof(k.b) * 8);
    uint8_t *flipped = malloc(clen);
    for (size_t i = 0; i < clen; i += 3) {
        memcpy(flipped, comp, clen);
        flipped[i] ^= (uint8_t)(1u << (i % 8));
        uint8_t *mine = malloc(n);
        char *ref = malloc(n);
        int rc = hudi_pq_snappy_decompress(HUDI_SLICE(flipped, clen), mine, n, &err);
        uint8_t *streamed = malloc(n);
        int src_rc = stream_decode(flipped, clen, streamed, n, 777, &err);
        cr_assert_eq(src_rc, rc, "flip at %zu: stream %d, one-shot %d", i, src_rc, rc);
        if (rc == 0) cr_assert_eq(memcmp(mine, streamed, n), 0);
        free(streamed);
        size_t rl = 0;
        bool lib_ok = snappy_uncompressed_length((char *)flipped, clen, &rl) == SNAPPY_OK &&
                      rl == n && snappy_uncompress((char *)flipped, clen, ref, &rl) == SNAPPY_OK;
        cr_assert_eq(rc == 0, lib_ok, "flip at %zu: hudic %d, libsnappy %d", i, rc, lib_ok);
        if (lib_ok)
            cr_assert_eq(memcmp(mine, ref, n), 0);
        else
            cr_assert_eq(rc, HUDI_ECORRUPT);
        free(mine);
        free(ref);
    }
    free(flipped);
    free(out);
    free(comp);
    free(src);
}

/* ---- every SNAPPY page of the fixtures ----------------------------------------------- */

/* Decodes every page of every SNAPPY column chunk of one file with both decoders; returns the
 * number of pages compared (0 for files hudic cannot open, e.g. the bad_data ones). */
static int compare_file_pages(const char *path) {
    hudi_fs *fs = NULL;
    hudi_pq_file *f = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    int pages = 0;
    cr_assert_eq(hudi_fs_local_new(&fs, &err), 0);
    if (hudi_pq_open(&f, fs, path, NULL, &err) < 0) {
        hudi_fs_free(fs);
        return 0;
    }
    size_t flen = 0;
    uint8_t *file = test_read_file(path, &flen);
    cr_assert_not_null(file);
    const pq_file_meta *m = hudi_pq_meta(f);
    for (int32_t rg = 0; rg < m->n_row_groups; rg++) {
        for (int32_t c = 0; c < m->row_groups[rg].n_columns; c++) {
            const pq_column_meta *cm = &m->row_groups[rg].columns[c].meta_data;
            if (cm->codec != PQ_CODEC_SNAPPY) continue;
            int64_t start = cm->data_page_offset;
            if (cm->has_dictionary_page_offset && cm->dictionary_page_offset > 0 &&
                cm->dictionary_page_offset < start)
                start = cm->dictionary_page_offset;
            if (start < 4 || (uint64_t)start >= flen) continue;
            size_t end =
                (size_t)HUDI_MIN((uint64_t)start + (uint64_t)cm->total_compressed_size, flen);
            int64_t seen = 0;
            for (size_t pos = (size_t)start; pos < end && seen < cm->num_values;) {
                hudi_arena arena = HUDI_ARENA_INIT;
                pq_page_header h;
                size_t used = 0;
                int rc = hudi_pq_decode_page_header(&h, &arena, HUDI_SLICE(file + pos, end - pos),
                                                    &used, NULL);
                hudi_arena_dispose(&arena);
                if (rc < 0 || h.compressed_page_size < 0 || h.uncompressed_page_size < 0 ||
                    (size_t)h.compressed_page_size > end - pos - used)
                    break;
                hudi_slice in = HUDI_SLICE(file + pos + used, (size_t)h.compressed_page_size);
                size_t out_len = (size_t)h.uncompressed_page_size;
                bool compressed = true;
                if (h.type == PQ_PAGE_DATA_V2 && h.has_data_page_header_v2) {
                    size_t lv = (size_t)h.data_page_header_v2.definition_levels_byte_length +
                                (size_t)h.data_page_header_v2.repetition_levels_byte_length;
                    compressed =
                        h.data_page_header_v2.is_compressed && lv <= in.len && lv <= out_len;
                    in.data += lv, in.len -= lv, out_len -= lv;
                    seen += h.data_page_header_v2.num_values;
                } else if (h.type == PQ_PAGE_DATA && h.has_data_page_header) {
                    seen += h.data_page_header.num_values;
                }
                pos += used + (size_t)h.compressed_page_size;
                if (!compressed || in.len == 0) continue;
                uint8_t *mine = malloc(out_len ? out_len : 1);
                char *ref = malloc(out_len ? out_len : 1);
                size_t rl = out_len;
                cr_assert_eq(snappy_uncompress((const char *)in.data, in.len, ref, &rl), SNAPPY_OK,
                             "%s: libsnappy rejects a page", path);
                cr_assert_eq(hudi_pq_snappy_decompress(in, mine, out_len, &err), 0, "%s: %s", path,
                             err.message);
                cr_assert(out_len == 0 || memcmp(mine, ref, out_len) == 0, "%s: page differs",
                          path);
                free(mine);
                free(ref);
                pages++;
            }
        }
    }
    free(file);
    hudi_pq_close(f);
    hudi_fs_free(fs);
    return pages;
}

/* Walks `dir` recursively, comparing the pages of every .parquet file. */
static void compare_tree(const char *dir, int *files, int *pages) {
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "%s", dir);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        size_t l = strlen(e->d_name);
        if (e->d_type == DT_DIR) {
            compare_tree(path, files, pages);
        } else if (l >= 8 && strcmp(e->d_name + l - 8, ".parquet") == 0) {
            int p = compare_file_pages(path);
            *files += p > 0;
            *pages += p;
        }
    }
    closedir(d);
}

Test(snappy, every_snappy_page_of_the_fixtures) {
    /* The Hudi tables of tests/data/hudi-rs are zipped and their base files are GZIP. */
    int files = 0, pages = 0;
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s", fixture_path("parquet-testing/data"));
    compare_tree(dir, &files, &pages);
    cr_assert_geq(files, 8, "only %d files with SNAPPY pages", files);
    cr_assert_geq(pages, 26, "only %d SNAPPY pages", pages);
    cr_log_info("%d SNAPPY pages in %d files", pages, files);
}
