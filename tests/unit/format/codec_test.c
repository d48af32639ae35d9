/* codec_test.c - round trips of every Parquet codec, hand-built multi-member/multi-frame
 * and Hadoop-framed inputs, corrupt inputs, wrong sizes, and every page of the fixture
 * files that use each codec. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include <lz4.h>
#include <lz4frame.h>
#include <zlib.h>
#include <zstd.h>

#include "format/parquet/codec.h"
#include "format/parquet/meta.h"
#include "format/thrift/compact.h"
#include "support.h"

static const int all_codecs[] = {PQ_CODEC_UNCOMPRESSED, PQ_CODEC_SNAPPY, PQ_CODEC_GZIP,
                                 PQ_CODEC_BROTLI,       PQ_CODEC_ZSTD,   PQ_CODEC_LZ4_RAW};

/* Deterministic pseudo-random bytes (xorshift) or compressible text-like bytes. */
static uint8_t *make_input(size_t n, bool random) {
    uint8_t *p = malloc(n ? n : 1);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < n; i++) {
        if (random) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            p[i] = (uint8_t)x;
        } else {
            p[i] = (uint8_t)("parquet hudi columnar "[i % 22] + (i / 4096) % 3);
        }
    }
    return p;
}

static void round_trip(pq_codec_ctx *ctx, int codec, size_t n, bool random) {
    uint8_t *src = make_input(n, random);
    hudi_buf comp = HUDI_BUF_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    int rc = hudi_pq_compress(ctx, codec, PQ_CODEC_LEVEL_DEFAULT, HUDI_SLICE(src, n), &comp, &err);
    cr_assert_eq(rc, 0, "%s compress %zu: %s", hudi_pq_codec_name(codec), n, err.message);
    uint8_t *dst = malloc(n + 1);
    rc = hudi_pq_decompress(ctx, codec, HUDI_SLICE(comp.data, comp.len), dst, n, &err);
    cr_assert_eq(rc, 0, "%s decompress %zu: %s", hudi_pq_codec_name(codec), n, err.message);
    cr_assert(n == 0 || memcmp(src, dst, n) == 0, "%s %zu: bytes differ", hudi_pq_codec_name(codec),
              n);
    if (!random && n >= 100000 && codec != PQ_CODEC_UNCOMPRESSED)
        cr_assert_lt(comp.len, n / 4, "%s did not compress", hudi_pq_codec_name(codec));
    /* Expecting one byte more or less must fail cleanly. */
    rc = hudi_pq_decompress(ctx, codec, HUDI_SLICE(comp.data, comp.len), dst, n + 1, &err);
    cr_assert_eq(rc, HUDI_ECORRUPT, "%s n+1: rc %d", hudi_pq_codec_name(codec), rc);
    cr_assert_null(strchr(err.message, '\n'));
    if (n > 0) {
        rc = hudi_pq_decompress(ctx, codec, HUDI_SLICE(comp.data, comp.len), dst, n - 1, &err);
        cr_assert_eq(rc, HUDI_ECORRUPT, "%s n-1: rc %d", hudi_pq_codec_name(codec), rc);
    }
    free(dst);
    free(src);
    hudi_buf_dispose(&comp);
}

Test(codec, round_trip_all_sizes_with_ctx) {
    static const size_t sizes[] = {0, 1, 100 * 1024};
    pq_codec_ctx *ctx = NULL;
    cr_assert_eq(hudi_pq_codec_ctx_new(&ctx, NULL), 0);
    for (size_t c = 0; c < HUDI_ARRAY_LEN(all_codecs); c++)
        for (size_t s = 0; s < HUDI_ARRAY_LEN(sizes); s++) {
            round_trip(ctx, all_codecs[c], sizes[s], true);
            round_trip(ctx, all_codecs[c], sizes[s], false);
        }
    hudi_pq_codec_ctx_free(ctx);
    hudi_pq_codec_ctx_free(NULL);
}

Test(codec, round_trip_without_ctx) {
    for (size_t c = 0; c < HUDI_ARRAY_LEN(all_codecs); c++)
        round_trip(NULL, all_codecs[c], 5000, false);
}

Test(codec, levels) {
    pq_codec_ctx *ctx = NULL;
    cr_assert_eq(hudi_pq_codec_ctx_new(&ctx, NULL), 0);
    uint8_t *src = make_input(50000, false);
    hudi_error err = HUDI_ERROR_INIT;
    /* Changing the GZIP level re-initialises the cached deflate stream. */
    const int levels[][2] = {{PQ_CODEC_GZIP, 1},  {PQ_CODEC_GZIP, 9},  {PQ_CODEC_ZSTD, 1},
                             {PQ_CODEC_ZSTD, 19}, {PQ_CODEC_ZSTD, -5}, {PQ_CODEC_BROTLI, 1}};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(levels); i++) {
        hudi_buf comp = HUDI_BUF_INIT;
        cr_assert_eq(
            hudi_pq_compress(ctx, levels[i][0], levels[i][1], HUDI_SLICE(src, 50000), &comp, &err),
            0, "%s", err.message);
        uint8_t *dst = malloc(50000);
        cr_assert_eq(hudi_pq_decompress(ctx, levels[i][0], HUDI_SLICE(comp.data, comp.len), dst,
                                        50000, &err),
                     0);
        cr_assert_eq(memcmp(dst, src, 50000), 0);
        free(dst);
        hudi_buf_dispose(&comp);
    }
    hudi_buf comp = HUDI_BUF_INIT;
    cr_assert_eq(hudi_pq_compress(ctx, PQ_CODEC_GZIP, 10, HUDI_SLICE(src, 10), &comp, &err),
                 HUDI_EINVAL);
    cr_assert_eq(comp.len, 0);
    free(src);
    hudi_pq_codec_ctx_free(ctx);
}

Test(codec, compress_appends) {
    hudi_buf out = HUDI_BUF_INIT;
    hudi_buf_append(&out, "HDR", 3);
    cr_assert_eq(
        hudi_pq_compress(NULL, PQ_CODEC_ZSTD, 0, hudi_slice_cstr("hello hello hello"), &out, NULL),
        0);
    cr_assert_eq(memcmp(out.data, "HDR", 3), 0);
    char dst[17];
    cr_assert_eq(hudi_pq_decompress(NULL, PQ_CODEC_ZSTD, HUDI_SLICE(out.data + 3, out.len - 3),
                                    (uint8_t *)dst, 17, NULL),
                 0);
    cr_assert_eq(memcmp(dst, "hello hello hello", 17), 0);
    hudi_buf_dispose(&out);
}

Test(codec, unsupported_and_names) {
    hudi_error err = HUDI_ERROR_INIT;
    uint8_t b[4] = {1, 2, 3, 4};
    hudi_buf out = HUDI_BUF_INIT;
    cr_assert_eq(hudi_pq_decompress(NULL, PQ_CODEC_LZO, HUDI_SLICE(b, 4), b, 4, &err),
                 HUDI_EUNSUPPORTED);
    cr_assert_str_eq(err.message, "LZO");
    cr_assert_eq(hudi_pq_decompress(NULL, 9, HUDI_SLICE(b, 4), b, 4, &err), HUDI_EUNSUPPORTED);
    cr_assert_str_eq(err.message, "compression codec 9");
    cr_assert_eq(hudi_pq_decompress(NULL, -1, HUDI_SLICE(b, 4), b, 4, &err), HUDI_EUNSUPPORTED);
    cr_assert_eq(hudi_pq_compress(NULL, PQ_CODEC_LZO, 0, HUDI_SLICE(b, 4), &out, &err),
                 HUDI_EUNSUPPORTED);
    cr_assert_eq(hudi_pq_compress(NULL, 9, 0, HUDI_SLICE(b, 4), &out, &err), HUDI_EUNSUPPORTED);
    cr_assert_str_eq(err.message, "compression codec 9");
    cr_assert_eq(out.len, 0);
    cr_assert_str_eq(hudi_pq_codec_name(PQ_CODEC_LZ4_RAW), "LZ4_RAW");
    cr_assert_str_eq(hudi_pq_codec_name(42), "UNKNOWN");
    hudi_buf_dispose(&out);
}

Test(codec, empty_input) {
    hudi_error err = HUDI_ERROR_INIT;
    for (int c = 0; c <= PQ_CODEC_LZ4_RAW; c++) {
        if (c == PQ_CODEC_LZO) continue;
        /* 0 bytes expecting 0: success without touching the codec (not a valid snappy block). */
        cr_assert_eq(hudi_pq_decompress(NULL, c, HUDI_SLICE(NULL, 0), NULL, 0, &err), 0, "%d", c);
        uint8_t out[4];
        cr_assert_eq(hudi_pq_decompress(NULL, c, HUDI_SLICE(NULL, 0), out, 4, &err), HUDI_ECORRUPT,
                     "%d", c);
    }
}

/* Garbage, truncated streams and flipped bytes fail with ECORRUPT and a one-line message. */
Test(codec, corrupt_input) {
    pq_codec_ctx *ctx = NULL;
    cr_assert_eq(hudi_pq_codec_ctx_new(&ctx, NULL), 0);
    size_t n = 20000;
    uint8_t *src = make_input(n, false);
    uint8_t *dst = malloc(n);
    hudi_error err = HUDI_ERROR_INIT;
    for (size_t c = 1; c < HUDI_ARRAY_LEN(all_codecs); c++) {
        int codec = all_codecs[c];
        hudi_buf comp = HUDI_BUF_INIT;
        cr_assert_eq(hudi_pq_compress(ctx, codec, 0, HUDI_SLICE(src, n), &comp, &err), 0);
        /* Truncated. */
        int rc = hudi_pq_decompress(ctx, codec, HUDI_SLICE(comp.data, comp.len / 2), dst, n, &err);
        cr_assert_eq(rc, HUDI_ECORRUPT, "%s truncated: %d", hudi_pq_codec_name(codec), rc);
        cr_assert_null(strchr(err.message, '\n'));
        /* Pure garbage. */
        uint8_t *junk = make_input(300, true);
        rc = hudi_pq_decompress(ctx, codec, HUDI_SLICE(junk, 300), dst, n, &err);
        cr_assert_eq(rc, HUDI_ECORRUPT, "%s garbage: %d", hudi_pq_codec_name(codec), rc);
        free(junk);
        /* Bit flips everywhere must never crash; most must be detected. */
        for (size_t i = 0; i < comp.len; i += 7) {
            comp.data[i] ^= 0x5A;
            (void)hudi_pq_decompress(ctx, codec, HUDI_SLICE(comp.data, comp.len), dst, n, &err);
            comp.data[i] ^= 0x5A;
        }
        /* The context still works after failures. */
        cr_assert_eq(hudi_pq_decompress(ctx, codec, HUDI_SLICE(comp.data, comp.len), dst, n, &err),
                     0, "%s after errors: %s", hudi_pq_codec_name(codec), err.message);
        cr_assert_eq(memcmp(dst, src, n), 0);
        hudi_buf_dispose(&comp);
    }
    free(dst);
    free(src);
    hudi_pq_codec_ctx_free(ctx);
}

static void put_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8),
    p[3] = (uint8_t)v;
}

/* Builds Hadoop framing: blocks of `block` input bytes each, and within each block
 * `sub` sub-chunks (parquet-mr splits large inputs that way). */
static size_t hadoop_lz4(uint8_t *dst, const uint8_t *src, size_t n, size_t block, int sub) {
    size_t pos = 0, o = 0;
    while (pos < n) {
        size_t len = HUDI_MIN(block, n - pos);
        put_be32(dst + o, (uint32_t)len);
        o += 4;
        size_t per = (len + (size_t)sub - 1) / (size_t)sub, done = 0;
        while (done < len) {
            size_t piece = HUDI_MIN(per, len - done);
            int c = LZ4_compress_default((const char *)src + pos + done, (char *)dst + o + 4,
                                         (int)piece, LZ4_compressBound((int)piece));
            put_be32(dst + o, (uint32_t)c);
            o += 4 + (size_t)c;
            done += piece;
        }
        pos += len;
    }
    return o;
}

Test(codec, lz4_hadoop_framing_raw_and_frame) {
    size_t n = 70000;
    uint8_t *src = make_input(n, false);
    uint8_t *comp = malloc(LZ4F_compressFrameBound(n, NULL) + 1000);
    uint8_t *dst = malloc(n);
    hudi_error err = HUDI_ERROR_INIT;
    /* One block, several blocks, blocks with sub-chunks. */
    const size_t blocks[][2] = {{n, 1}, {16384, 1}, {30000, 3}};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(blocks); i++) {
        size_t len = hadoop_lz4(comp, src, n, blocks[i][0], (int)blocks[i][1]);
        memset(dst, 0, n);
        cr_assert_eq(hudi_pq_decompress(NULL, PQ_CODEC_LZ4, HUDI_SLICE(comp, len), dst, n, &err), 0,
                     "case %zu: %s", i, err.message);
        cr_assert_eq(memcmp(dst, src, n), 0);
        cr_assert_eq(
            hudi_pq_decompress(NULL, PQ_CODEC_LZ4, HUDI_SLICE(comp, len), dst, n - 1, &err),
            HUDI_ECORRUPT);
    }
    /* A raw block (old parquet-cpp) under codec 5: the framing does not add up. */
    int c =
        LZ4_compress_default((const char *)src, (char *)comp, (int)n, LZ4_compressBound((int)n));
    cr_assert_eq(hudi_pq_decompress(NULL, PQ_CODEC_LZ4, HUDI_SLICE(comp, (size_t)c), dst, n, &err),
                 0, "%s", err.message);
    cr_assert_eq(memcmp(dst, src, n), 0);
    /* LZ4 frame format, two concatenated frames. */
    size_t f1 = LZ4F_compressFrame(comp, LZ4F_compressFrameBound(n / 2, NULL), src, n / 2, NULL);
    size_t f2 = LZ4F_compressFrame(comp + f1, LZ4F_compressFrameBound(n - n / 2, NULL), src + n / 2,
                                   n - n / 2, NULL);
    cr_assert(!LZ4F_isError(f1) && !LZ4F_isError(f2));
    memset(dst, 0, n);
    cr_assert_eq(hudi_pq_decompress(NULL, PQ_CODEC_LZ4, HUDI_SLICE(comp, f1 + f2), dst, n, &err), 0,
                 "%s", err.message);
    cr_assert_eq(memcmp(dst, src, n), 0);
    cr_assert_eq(
        hudi_pq_decompress(NULL, PQ_CODEC_LZ4, HUDI_SLICE(comp, f1 + f2), dst, n - 1, &err),
        HUDI_ECORRUPT);
    cr_assert_eq(
        hudi_pq_decompress(NULL, PQ_CODEC_LZ4, HUDI_SLICE(comp, f1 + f2 - 3), dst, n, &err),
        HUDI_ECORRUPT);
    free(comp);
    free(dst);
    free(src);
}

static size_t gzip_member(uint8_t *dst, size_t cap, const uint8_t *src, size_t n) {
    z_stream zs;
    memset(&zs, 0, sizeof(zs));
    cr_assert_eq(deflateInit2(&zs, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
    zs.next_in = (Bytef *)src;
    zs.avail_in = (uInt)n;
    zs.next_out = dst;
    zs.avail_out = (uInt)cap;
    cr_assert_eq(deflate(&zs, Z_FINISH), Z_STREAM_END);
    size_t len = zs.total_out;
    deflateEnd(&zs);
    return len;
}

Test(codec, gzip_concatenated_members) {
    size_t n = 30000, cap = 2 * n + 1000;
    uint8_t *src = make_input(n, true);
    uint8_t *comp = malloc(cap);
    uint8_t *dst = malloc(n);
    /* Three members: 10000 bytes, an empty member, 20000 bytes. */
    size_t len = gzip_member(comp, cap, src, 10000);
    len += gzip_member(comp + len, cap - len, src, 0);
    len += gzip_member(comp + len, cap - len, src + 10000, n - 10000);
    hudi_error err = HUDI_ERROR_INIT;
    pq_codec_ctx *ctx = NULL;
    cr_assert_eq(hudi_pq_codec_ctx_new(&ctx, NULL), 0);
    cr_assert_eq(hudi_pq_decompress(ctx, PQ_CODEC_GZIP, HUDI_SLICE(comp, len), dst, n, &err), 0,
                 "%s", err.message);
    cr_assert_eq(memcmp(dst, src, n), 0);
    cr_assert_eq(hudi_pq_decompress(ctx, PQ_CODEC_GZIP, HUDI_SLICE(comp, len), dst, n - 1, &err),
                 HUDI_ECORRUPT);
    cr_assert_eq(hudi_pq_decompress(ctx, PQ_CODEC_GZIP, HUDI_SLICE(comp, len), dst, 10000, &err),
                 HUDI_ECORRUPT);
    /* Trailing garbage after the last member is not a member. */
    comp[len] = 0x42;
    cr_assert_eq(hudi_pq_decompress(ctx, PQ_CODEC_GZIP, HUDI_SLICE(comp, len + 1), dst, n, &err),
                 HUDI_ECORRUPT);
    cr_assert_null(strchr(err.message, '\n'));
    /* A member that inflates to zero bytes, expecting zero. */
    len = gzip_member(comp, cap, src, 0);
    cr_assert_eq(hudi_pq_decompress(ctx, PQ_CODEC_GZIP, HUDI_SLICE(comp, len), NULL, 0, &err), 0,
                 "%s", err.message);
    hudi_pq_codec_ctx_free(ctx);
    free(comp);
    free(dst);
    free(src);
}

/* One zlib stream (RFC 1950), or a gzip member whose header carries every optional field
 * (FEXTRA, FNAME, FCOMMENT, FHCRC) as other gzip writers may set them. */
static size_t zlib_stream(uint8_t *dst, size_t cap, const uint8_t *src, size_t n) {
    uLongf len = cap;
    cr_assert_eq(compress2(dst, &len, src, (uLong)n, 6), Z_OK);
    return len;
}
static size_t gzip_member_full_header(uint8_t *dst, size_t cap, const uint8_t *src, size_t n) {
    z_stream zs;
    memset(&zs, 0, sizeof(zs));
    cr_assert_eq(deflateInit2(&zs, 9, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
    static uint8_t extra[] = {'h', 'u', 4, 0, 1, 2, 3, 4};
    gz_header h;
    memset(&h, 0, sizeof(h));
    h.text = 1, h.time = 1700000000, h.os = 3, h.hcrc = 1;
    h.extra = extra, h.extra_len = sizeof(extra);
    h.name = (Bytef *)"page.bin", h.comment = (Bytef *)"written by codec_test";
    cr_assert_eq(deflateSetHeader(&zs, &h), Z_OK);
    zs.next_in = (Bytef *)src;
    zs.avail_in = (uInt)n;
    zs.next_out = dst;
    zs.avail_out = (uInt)cap;
    cr_assert_eq(deflate(&zs, Z_FINISH), Z_STREAM_END);
    size_t len = zs.total_out;
    deflateEnd(&zs);
    return len;
}

/* Members of either wrapper, in any order, each with any header zlib writes. */
Test(codec, gzip_member_forms) {
    size_t n = 24000, cap = 2 * n + 1000;
    uint8_t *src = make_input(n, false);
    uint8_t *comp = malloc(cap);
    uint8_t *dst = malloc(n);
    size_t len = gzip_member_full_header(comp, cap, src, 8000);
    len += zlib_stream(comp + len, cap - len, src + 8000, 8000);
    len += gzip_member(comp + len, cap - len, src + 16000, 8000);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_decompress(NULL, PQ_CODEC_GZIP, HUDI_SLICE(comp, len), dst, n, &err), 0,
                 "%s", err.message);
    cr_assert_eq(memcmp(dst, src, n), 0);
    /* A lone zlib stream (what zlib's auto-detecting inflate also took). */
    len = zlib_stream(comp, cap, src, n);
    memset(dst, 0, n);
    cr_assert_eq(hudi_pq_decompress(NULL, PQ_CODEC_GZIP, HUDI_SLICE(comp, len), dst, n, &err), 0,
                 "%s", err.message);
    cr_assert_eq(memcmp(dst, src, n), 0);
    free(comp);
    free(dst);
    free(src);
}

/* Damage in each part of a two-member page: ECORRUPT with a one-line "GZIP: ..." message,
 * never a crash, and the context decodes the intact page afterwards. */
Test(codec, gzip_corrupt_pages) {
    size_t n = 30000, cap = 2 * n + 1000;
    uint8_t *src = make_input(n, true);
    uint8_t *good = malloc(cap), *bad = malloc(cap);
    uint8_t *dst = malloc(n);
    size_t m1 = gzip_member(good, cap, src, 12000);
    size_t len = m1 + gzip_member(good + m1, cap - m1, src + 12000, n - 12000);
    pq_codec_ctx *ctx = NULL;
    cr_assert_eq(hudi_pq_codec_ctx_new(&ctx, NULL), 0);
    const struct {
        const char *what;
        size_t at;    /* byte to change (or the new length when `cut`) */
        uint8_t xor_; /* 0: cut the page to `at` bytes */
    } cases[] = {
        {"bad magic", 1, 0x01},
        {"bad method", 2, 0x01},
        {"reserved flag bits", 3, 0xE0},
        {"deflate data", 200, 0x55},
        {"first member's CRC-32", m1 - 8, 0x01},
        {"first member's length", m1 - 4, 0x01},
        {"second member's header", m1, 0xFF},
        {"last member's CRC-32", len - 6, 0x80},
        {"last member's length", len - 1, 0x01},
        {"cut in the first header", 5, 0},
        {"cut in the first member", m1 / 2, 0},
        {"cut in the first trailer", m1 - 3, 0},
        {"cut after one byte of the second", m1 + 1, 0},
        {"cut in the last trailer", len - 2, 0},
    };
    for (size_t i = 0; i < HUDI_ARRAY_LEN(cases); i++) {
        size_t blen = len;
        memcpy(bad, good, len);
        if (cases[i].xor_)
            bad[cases[i].at] ^= cases[i].xor_;
        else
            blen = cases[i].at;
        hudi_error err = HUDI_ERROR_INIT;
        int rc = hudi_pq_decompress(ctx, PQ_CODEC_GZIP, HUDI_SLICE(bad, blen), dst, n, &err);
        cr_assert_eq(rc, HUDI_ECORRUPT, "%s: rc %d", cases[i].what, rc);
        cr_assert_eq(strncmp(err.message, "GZIP: ", 6), 0, "%s: %s", cases[i].what, err.message);
        cr_assert_null(strchr(err.message, '\n'), "%s", cases[i].what);
        rc = hudi_pq_decompress(NULL, PQ_CODEC_GZIP, HUDI_SLICE(bad, blen), dst, n, &err);
        cr_assert_eq(rc, HUDI_ECORRUPT, "%s without ctx: rc %d", cases[i].what, rc);
    }
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_decompress(ctx, PQ_CODEC_GZIP, HUDI_SLICE(good, len), dst, n, &err), 0,
                 "%s", err.message);
    cr_assert_eq(memcmp(dst, src, n), 0);
    hudi_pq_codec_ctx_free(ctx);
    free(good);
    free(bad);
    free(dst);
    free(src);
}

/* The page header's uncompressed size is wrong: too small by one, by a whole member, zero,
 * too large. Each fails with ECORRUPT naming both sizes, and nothing is written past the
 * declared size (the output buffer is exactly that long, so ASan would see it). */
Test(codec, gzip_declared_size_wrong) {
    size_t n = 20000, cap = 2 * n + 1000;
    uint8_t *src = make_input(n, false);
    uint8_t *comp = malloc(cap);
    size_t len = gzip_member(comp, cap, src, 5000);
    len += gzip_member(comp + len, cap - len, src + 5000, n - 5000);
    const size_t declared[] = {n - 1, 5000, 4999, 1, 0, n + 1, 2 * n};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(declared); i++) {
        size_t want = declared[i];
        uint8_t *dst = want ? malloc(want) : NULL;
        hudi_error err = HUDI_ERROR_INIT;
        int rc = hudi_pq_decompress(NULL, PQ_CODEC_GZIP, HUDI_SLICE(comp, len), dst, want, &err);
        cr_assert_eq(rc, HUDI_ECORRUPT, "declared %zu: rc %d", want, rc);
        char size[32];
        snprintf(size, sizeof(size), "%zu", want);
        cr_assert_not_null(strstr(err.message, size), "declared %zu: %s", want, err.message);
        cr_assert_not_null(strstr(err.message, "page header says"), "%s", err.message);
        cr_assert_null(strchr(err.message, '\n'));
        free(dst);
    }
    free(comp);
    free(src);
}

Test(codec, zstd_concatenated_frames_without_content_size) {
    size_t n = 40000, cap = ZSTD_compressBound(n) * 2;
    uint8_t *src = make_input(n, false);
    uint8_t *comp = malloc(cap);
    uint8_t *dst = malloc(n);
    size_t len = ZSTD_compress(comp, cap, src, 15000, 3);
    /* The second frame is streamed, so its header has no content size (like parquet-mr). */
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 0);
    ZSTD_outBuffer ob = {comp + len, cap - len, 0};
    ZSTD_inBuffer ib = {src + 15000, n - 15000, 0};
    cr_assert_eq(ZSTD_compressStream2(cc, &ob, &ib, ZSTD_e_end), 0);
    ZSTD_freeCCtx(cc);
    cr_assert_eq(ZSTD_getFrameContentSize(comp + len, ob.pos), ZSTD_CONTENTSIZE_UNKNOWN);
    len += ob.pos;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_decompress(NULL, PQ_CODEC_ZSTD, HUDI_SLICE(comp, len), dst, n, &err), 0,
                 "%s", err.message);
    cr_assert_eq(memcmp(dst, src, n), 0);
    cr_assert_eq(hudi_pq_decompress(NULL, PQ_CODEC_ZSTD, HUDI_SLICE(comp, len), dst, n - 1, &err),
                 HUDI_ECORRUPT);
    cr_assert_eq(hudi_pq_decompress(NULL, PQ_CODEC_ZSTD, HUDI_SLICE(comp, len), dst, 15000, &err),
                 HUDI_ECORRUPT);
    /* A frame that inflates to 0 bytes (page_v2_empty_compressed.parquet). */
    len = ZSTD_compress(comp, cap, src, 0, 3);
    cr_assert_eq(hudi_pq_decompress(NULL, PQ_CODEC_ZSTD, HUDI_SLICE(comp, len), NULL, 0, &err), 0);
    free(comp);
    free(dst);
    free(src);
}

/* ---- real files: decompress every page of the fixtures that use each codec ---------- */

typedef struct page_info {
    int32_t type, uncompressed, compressed, v2_levels;
    bool v2_compressed;
} page_info;

/* Parses just enough of a PageHeader (docs/formats/parquet.md §1.5) with the Thrift reader. */
static bool read_page_header(hudi_slice in, page_info *pi, size_t *hdr_len) {
    hudi_thrift_reader r;
    hudi_thrift_field f;
    memset(pi, 0, sizeof(*pi));
    pi->type = -1;
    pi->v2_compressed = true;
    hudi_thrift_reader_init(&r, in, NULL);
    hudi_thrift_struct_begin(&r);
    while (hudi_thrift_read_field(&r, &f)) {
        if (f.id >= 1 && f.id <= 3 && f.type != HUDI_THRIFT_I32) return false;
        if (f.id == 1)
            pi->type = hudi_thrift_read_i32(&r);
        else if (f.id == 2)
            pi->uncompressed = hudi_thrift_read_i32(&r);
        else if (f.id == 3)
            pi->compressed = hudi_thrift_read_i32(&r);
        else if (f.id == 8 && f.type == HUDI_THRIFT_STRUCT) {
            hudi_thrift_field g;
            hudi_thrift_struct_begin(&r);
            while (hudi_thrift_read_field(&r, &g)) {
                if ((g.id == 5 || g.id == 6) && g.type == HUDI_THRIFT_I32)
                    pi->v2_levels += hudi_thrift_read_i32(&r);
                else if (g.id == 7 && (g.type == HUDI_THRIFT_TRUE || g.type == HUDI_THRIFT_FALSE))
                    pi->v2_compressed = g.type == HUDI_THRIFT_TRUE;
                else
                    hudi_thrift_skip(&r, g.type);
            }
            hudi_thrift_struct_end(&r);
        } else
            hudi_thrift_skip(&r, f.type);
    }
    hudi_thrift_struct_end(&r);
    *hdr_len = hudi_thrift_reader_pos(&r);
    return hudi_thrift_ok(&r) && pi->type >= 0 && pi->type <= 3 && pi->compressed >= 0 &&
           pi->uncompressed >= 0 && pi->v2_levels >= 0;
}

/* Walks the pages from offset 4 until something that is not a page header (an index or
 * the footer); returns the number of pages decompressed. */
static int decode_file_pages(const char *name, int codec) {
    size_t len = 0;
    uint8_t *file = test_read_file(fixture_path(name), &len);
    cr_assert_not_null(file, "missing fixture %s", name);
    size_t footer_start = len - 8 - hudi_load_u32le(file + len - 8);
    size_t pos = 4;
    int pages = 0;
    pq_codec_ctx *ctx = NULL;
    cr_assert_eq(hudi_pq_codec_ctx_new(&ctx, NULL), 0);
    while (pos < footer_start) {
        page_info pi;
        size_t hl;
        if (!read_page_header(HUDI_SLICE(file + pos, footer_start - pos), &pi, &hl)) {
            /* parquet-cpp writes each chunk's ColumnMetaData after its pages: skip one
             * struct and go on if a page header follows. */
            hudi_thrift_reader r;
            hudi_thrift_reader_init(&r, HUDI_SLICE(file + pos, footer_start - pos), NULL);
            hudi_thrift_skip(&r, HUDI_THRIFT_STRUCT);
            size_t next = pos + hudi_thrift_reader_pos(&r);
            if (!hudi_thrift_ok(&r) || next >= footer_start ||
                !read_page_header(HUDI_SLICE(file + next, footer_start - next), &pi, &hl))
                break;
            pos = next;
        }
        cr_assert_leq((size_t)pi.compressed, footer_start - pos - hl, "%s: page overruns", name);
        const uint8_t *payload = file + pos + hl;
        size_t skip = pi.type == PQ_PAGE_DATA_V2 ? (size_t)pi.v2_levels : 0;
        int c = pi.type == PQ_PAGE_DATA_V2 && !pi.v2_compressed ? PQ_CODEC_UNCOMPRESSED : codec;
        size_t out_len = (size_t)pi.uncompressed - skip;
        uint8_t *out = malloc(out_len + 1);
        hudi_error err = HUDI_ERROR_INIT;
        int rc = hudi_pq_decompress(
            ctx, c, HUDI_SLICE(payload + skip, (size_t)pi.compressed - skip), out, out_len, &err);
        cr_assert_eq(rc, 0, "%s page %d at %zu: %s", name, pages, pos, err.message);
        free(out);
        pages++;
        pos += hl + (size_t)pi.compressed;
    }
    hudi_pq_codec_ctx_free(ctx);
    free(file);
    return pages;
}

Test(codec, fixture_pages) {
    static const struct {
        const char *name;
        int codec, pages; /* pages counted by hand: dictionary + data pages of all chunks */
    } files[] = {
        {"parquet-testing/data/hadoop_lz4_compressed.parquet", PQ_CODEC_LZ4, 6},
        {"parquet-testing/data/non_hadoop_lz4_compressed.parquet", PQ_CODEC_LZ4, 6},
        {"parquet-testing/data/lz4_raw_compressed.parquet", PQ_CODEC_LZ4_RAW, 3},
        {"parquet-testing/data/concatenated_gzip_members.parquet", PQ_CODEC_GZIP, 1},
        {"parquet-testing/data/byte_stream_split.zstd.parquet", PQ_CODEC_ZSTD, 2},
        {"parquet-testing/data/datapage_v2.snappy.parquet", PQ_CODEC_SNAPPY, 8},
        {"parquet-testing/data/datapage_v2_empty_datapage.snappy.parquet", PQ_CODEC_SNAPPY, 1},
        {"parquet-testing/data/nested_lists.snappy.parquet", PQ_CODEC_SNAPPY, 4},
    };
    for (size_t i = 0; i < HUDI_ARRAY_LEN(files); i++)
        cr_assert_eq(decode_file_pages(files[i].name, files[i].codec), files[i].pages, "%s",
                     files[i].name);
}

/* concatenated_gzip_members.parquet: 513 UINT_64 values 1..513 in one v2 data page whose
 * value section (after the uncompressed levels) is several gzip members. */
Test(codec, concatenated_gzip_members_values) {
    size_t len = 0;
    uint8_t *file = test_read_file(
        fixture_path("parquet-testing/data/concatenated_gzip_members.parquet"), &len);
    cr_assert_not_null(file);
    page_info pi;
    size_t hl;
    cr_assert(read_page_header(HUDI_SLICE(file + 4, len - 4), &pi, &hl));
    cr_assert_eq(pi.type, PQ_PAGE_DATA_V2);
    size_t skip = (size_t)pi.v2_levels, out_len = (size_t)pi.uncompressed - skip;
    cr_assert_eq(out_len, 513 * 8);
    uint8_t *out = malloc(out_len);
    hudi_slice payload = HUDI_SLICE(file + 4 + hl + skip, (size_t)pi.compressed - skip);
    cr_assert_eq(hudi_pq_decompress(NULL, PQ_CODEC_GZIP, payload, out, out_len, NULL), 0);
    for (uint64_t i = 0; i < 513; i++) cr_assert_eq(hudi_load_u64le(out + 8 * i), i + 1);
    /* More than one member really is present: a single inflate stops early. */
    z_stream zs;
    memset(&zs, 0, sizeof(zs));
    cr_assert_eq(inflateInit2(&zs, 15 + 32), Z_OK);
    zs.next_in = (Bytef *)payload.data;
    zs.avail_in = (uInt)payload.len;
    zs.next_out = out;
    zs.avail_out = (uInt)out_len;
    cr_assert_eq(inflate(&zs, Z_NO_FLUSH), Z_STREAM_END);
    cr_assert_gt(zs.avail_in, 0);
    inflateEnd(&zs);
    free(out);
    free(file);
}

/* ---- allocation failures reach the codecs' own allocations ---- */

static int fail_after = -1;
static void *failing_malloc(size_t n, void *p) {
    (void)p;
    if (fail_after == 0) return NULL;
    if (fail_after > 0) fail_after--;
    return malloc(n);
}
static void *failing_realloc(void *ptr, size_t n, void *p) {
    (void)p;
    if (fail_after == 0) return NULL;
    if (fail_after > 0) fail_after--;
    return realloc(ptr, n);
}
static void plain_free(void *ptr, void *p) {
    (void)p;
    free(ptr);
}

Test(codec, allocation_failures) {
    static const int codecs[] = {PQ_CODEC_GZIP, PQ_CODEC_ZSTD, PQ_CODEC_BROTLI, PQ_CODEC_SNAPPY};
    size_t n = 20000;
    uint8_t *src = make_input(n, false);
    uint8_t *dst = malloc(n);
    hudi_allocator a = {failing_malloc, failing_realloc, plain_free, NULL};
    hudi_set_allocator(&a);
    for (size_t c = 0; c < HUDI_ARRAY_LEN(codecs); c++) {
        hudi_buf comp = HUDI_BUF_INIT;
        fail_after = -1;
        cr_assert_eq(hudi_pq_compress(NULL, codecs[c], 0, HUDI_SLICE(src, n), &comp, NULL), 0);
        bool finished = false;
        for (int k = 0; k < 200 && !finished; k++) {
            hudi_error err = HUDI_ERROR_INIT;
            hudi_buf out = HUDI_BUF_INIT;
            fail_after = k;
            int rc1 = hudi_pq_compress(NULL, codecs[c], 0, HUDI_SLICE(src, n), &out, &err);
            cr_assert(rc1 == 0 || rc1 == HUDI_ENOMEM, "%s compress k=%d: %d",
                      hudi_pq_codec_name(codecs[c]), k, rc1);
            fail_after = k;
            int rc2 =
                hudi_pq_decompress(NULL, codecs[c], HUDI_SLICE(comp.data, comp.len), dst, n, &err);
            cr_assert(rc2 == 0 || rc2 == HUDI_ENOMEM, "%s decompress k=%d: %d %s",
                      hudi_pq_codec_name(codecs[c]), k, rc2, err.message);
            if (rc2 == 0) cr_assert_eq(memcmp(dst, src, n), 0);
            finished = rc1 == 0 && rc2 == 0;
            fail_after = -1;
            hudi_buf_dispose(&out);
        }
        cr_assert(finished, "%s never succeeded", hudi_pq_codec_name(codecs[c]));
        hudi_buf_dispose(&comp);
    }
    hudi_set_allocator(NULL);
    free(dst);
    free(src);
}
