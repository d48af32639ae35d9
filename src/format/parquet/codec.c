/* codec.c - Parquet page codecs over snappy, libdeflate, zstd, lz4 and brotli
 * (docs/formats/parquet.md §3.7; interoperability notes §8 items 4, 12, 13). SNAPPY pages are
 * decompressed by hudic's own snappy.c; libsnappy only compresses. GZIP is libdeflate both ways:
 * a page is one whole buffer of known size, which is what libdeflate is built for.
 *
 * Invariant: every decoder writes only inside out[0, out_len) and succeeds only when it
 * produced exactly out_len bytes from all of its input. Library state is created lazily in
 * the caller's pq_codec_ctx and reused between pages; zstd and brotli allocate through the
 * hudi hooks so OOM injection reaches them. libdeflate (1.14 has only a process-wide allocator
 * setting, which a library must not take over) and the LZ4 frame context use plain malloc. */
#include "format/parquet/codec.h"

#include <limits.h>

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <libdeflate.h>
#include <lz4.h>
#include <lz4frame.h>
#include <snappy-c.h>
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_create?Ctx_advanced: route allocations to hudi hooks */
#include <zstd.h>
#include <zstd_errors.h>

#include "format/parquet/meta.h"
#include "format/parquet/snappy.h"

#define GZIP_DEFAULT_LEVEL 6
/* parquet-mr's default (arrow uses 1). Decompression speed does not depend on the level,
 * level 3 still compresses at several hundred MB/s, and matching parquet-mr keeps hudic's
 * files the size Hudi/Spark users already see. */
#define ZSTD_DEFAULT_LEVEL 3
/* arrow-cpp's default; brotli's own default (11) is far too slow for pages. */
#define BROTLI_DEFAULT_LEVEL 8
#define LZ4_FRAME_MAGIC 0x184D2204u

struct pq_codec_ctx {
    ZSTD_DCtx *zstd_d;
    ZSTD_CCtx *zstd_c;
    struct libdeflate_decompressor *gzip_d;
    struct libdeflate_compressor *gzip_c;
    int gzip_level; /* of gzip_c */
    LZ4F_dctx *lz4f_d;
};

/* ---- allocator bridges ---------------------------------------------------------------- */

static void *hook_alloc(void *opaque, size_t size) {
    (void)opaque;
    return hudi_malloc(size);
}
static void hook_free(void *opaque, void *p) {
    (void)opaque;
    hudi_free(p);
}
static const ZSTD_customMem zstd_mem = {hook_alloc, hook_free, NULL};

/* ---- context -------------------------------------------------------------------------- */

int hudi_pq_codec_ctx_new(pq_codec_ctx **out, hudi_error *err) {
    *out = hudi_calloc(1, sizeof(pq_codec_ctx));
    return *out ? 0 : hudi_error_oom(err);
}

static void ctx_dispose(pq_codec_ctx *ctx) {
    ZSTD_freeDCtx(ctx->zstd_d);
    ZSTD_freeCCtx(ctx->zstd_c);
    libdeflate_free_decompressor(ctx->gzip_d);
    libdeflate_free_compressor(ctx->gzip_c);
    if (ctx->lz4f_d) LZ4F_freeDecompressionContext(ctx->lz4f_d);
    memset(ctx, 0, sizeof(*ctx));
}

void hudi_pq_codec_ctx_free(pq_codec_ctx *ctx) {
    if (!ctx) return;
    ctx_dispose(ctx);
    hudi_free(ctx);
}

const char *hudi_pq_codec_name(int codec) {
    switch (codec) {
    case PQ_CODEC_UNCOMPRESSED: return "UNCOMPRESSED";
    case PQ_CODEC_SNAPPY: return "SNAPPY";
    case PQ_CODEC_GZIP: return "GZIP";
    case PQ_CODEC_LZO: return "LZO";
    case PQ_CODEC_BROTLI: return "BROTLI";
    case PQ_CODEC_LZ4: return "LZ4";
    case PQ_CODEC_ZSTD: return "ZSTD";
    case PQ_CODEC_LZ4_RAW: return "LZ4_RAW";
    default: return "UNKNOWN";
    }
}

static int size_mismatch(hudi_error *err, int codec, size_t got, size_t want) {
    return hudi_error_set(err, HUDI_ECORRUPT, "%s: decompressed %zu bytes, page header says %zu",
                          hudi_pq_codec_name(codec), got, want);
}

static int corrupt(hudi_error *err, int codec, const char *what) {
    return hudi_error_set(err, HUDI_ECORRUPT, "%s: corrupt compressed data (%s)",
                          hudi_pq_codec_name(codec), what);
}

/* ---- decoders --------------------------------------------------------------------------- */

/* hudic's own decoder (snappy.c): about 1.5x Debian's libsnappy 1.1.9 on pages of
 * short literals; libsnappy is kept for compression only. */
static int snappy_dec(hudi_slice in, uint8_t *out, size_t out_len, hudi_error *err) {
    return hudi_pq_snappy_decompress(in, out, out_len, err);
}

/* True when p starts a zlib stream (RFC 1950): deflate with a window of at most 32 KiB and a
 * header check that is a multiple of 31. */
static bool zlib_header(const uint8_t *p, size_t n) {
    return n >= 2 && (p[0] & 0x0f) == 8 && (p[0] >> 4) <= 7 && ((p[0] << 8) | p[1]) % 31 == 0;
}

/* GZIP pages may hold several concatenated members (concatenated_gzip_members.parquet):
 * libdeflate stops at each member's end and says how much input it used, so decode members
 * into the rest of the output until the input is used up. Each member is a gzip member
 * (RFC 1952, what the format specifies) or, told apart by its first bytes, a zlib stream: zlib's
 * auto-detecting inflate, which hudic used before and arrow-cpp reads with, accepts both.
 * libdeflate checks each member's CRC-32 and length trailer. */
static int gzip_dec(pq_codec_ctx *ctx, hudi_slice in, uint8_t *out, size_t out_len,
                    hudi_error *err) {
    if (!ctx->gzip_d && !(ctx->gzip_d = libdeflate_alloc_decompressor()))
        return hudi_error_oom(err);
    uint8_t spill;
    size_t pos = 0, opos = 0;
    while (pos < in.len) {
        const uint8_t *p = in.data + pos;
        size_t n = in.len - pos, used = 0, made = 0;
        uint8_t *dst = opos < out_len ? out + opos : &spill; /* never NULL, even when full */
        enum libdeflate_result r;
        bool gzip = n >= 2 && p[0] == 0x1f && p[1] == 0x8b;
        if (gzip)
            r = libdeflate_gzip_decompress_ex(ctx->gzip_d, p, n, dst, out_len - opos, &used, &made);
        else if (zlib_header(p, n))
            r = libdeflate_zlib_decompress_ex(ctx->gzip_d, p, n, dst, out_len - opos, &used, &made);
        else
            return corrupt(err, PQ_CODEC_GZIP, "incorrect header check");
        if (r == LIBDEFLATE_INSUFFICIENT_SPACE)
            return hudi_error_set(err, HUDI_ECORRUPT,
                                  "GZIP: decompressed more than the %zu bytes the page header says",
                                  out_len);
        if (r != LIBDEFLATE_SUCCESS)
            return corrupt(err, PQ_CODEC_GZIP,
                           gzip ? "invalid or truncated gzip member"
                                : "invalid or truncated zlib stream");
        pos += used;
        opos += made;
    }
    return opos == out_len ? 0 : size_mismatch(err, PQ_CODEC_GZIP, opos, out_len);
}

static int zstd_dec(pq_codec_ctx *ctx, hudi_slice in, uint8_t *out, size_t out_len,
                    hudi_error *err) {
    uint8_t dummy;
    if (!ctx->zstd_d && !(ctx->zstd_d = ZSTD_createDCtx_advanced(zstd_mem)))
        return hudi_error_oom(err);
    /* Decodes every frame in the input (concatenated frames, absent content sizes). */
    size_t n = ZSTD_decompressDCtx(ctx->zstd_d, out_len ? out : &dummy, out_len, in.data, in.len);
    if (ZSTD_isError(n)) {
        if (ZSTD_getErrorCode(n) == ZSTD_error_memory_allocation) return hudi_error_oom(err);
        if (ZSTD_getErrorCode(n) == ZSTD_error_dstSize_tooSmall)
            return hudi_error_set(err, HUDI_ECORRUPT,
                                  "ZSTD: decompressed more than the %zu bytes the page header says",
                                  out_len);
        /* A failed call can leave the context mid-frame; the next call starts a new one. */
        ZSTD_DCtx_reset(ctx->zstd_d, ZSTD_reset_session_only);
        return corrupt(err, PQ_CODEC_ZSTD, ZSTD_getErrorName(n));
    }
    return n == out_len ? 0 : size_mismatch(err, PQ_CODEC_ZSTD, n, out_len);
}

static int lz4_raw_dec(int codec, hudi_slice in, uint8_t *out, size_t out_len, hudi_error *err) {
    char dummy;
    if (in.len > INT_MAX || out_len > INT_MAX)
        return hudi_error_set(err, HUDI_EUNSUPPORTED, "%s: page larger than 2 GiB",
                              hudi_pq_codec_name(codec));
    int n = LZ4_decompress_safe((const char *)in.data, out_len ? (char *)out : &dummy, (int)in.len,
                                (int)out_len);
    if (n < 0) return corrupt(err, codec, "invalid block or output larger than page");
    return (size_t)n == out_len ? 0 : size_mismatch(err, codec, (size_t)n, out_len);
}

/* Hadoop's Lz4Codec framing (BlockCompressorStream): repeated blocks of
 * [u32 BE decompressed size] then one or more [u32 BE compressed size][raw LZ4 block] whose
 * outputs add up to that size (parquet-mr splits inputs larger than its 256 KiB buffer).
 * Returns true only when the blocks tile the input and the output exactly. */
static bool lz4_hadoop_dec(hudi_slice in, uint8_t *out, size_t out_len) {
    size_t pos = 0, opos = 0;
    if (in.len < 8 || in.len > INT_MAX || out_len > INT_MAX) return false;
    while (pos < in.len) {
        if (in.len - pos < 8) return false;
        size_t dlen = hudi_load_u32be(in.data + pos);
        pos += 4;
        if (dlen > out_len - opos) return false;
        size_t end = opos + dlen;
        do {
            if (in.len - pos < 4) return false;
            size_t clen = hudi_load_u32be(in.data + pos);
            pos += 4;
            if (clen > in.len - pos) return false;
            if (clen == 0) {
                if (opos < end) return false; /* no progress possible */
                break;
            }
            char dummy;
            int n = LZ4_decompress_safe((const char *)in.data + pos,
                                        end > opos ? (char *)out + opos : &dummy, (int)clen,
                                        (int)(end - opos));
            if (n < 0 || (n == 0 && opos < end)) return false;
            pos += clen;
            opos += (size_t)n;
        } while (opos < end);
    }
    return opos == out_len;
}

/* The LZ4 frame format (magic 04 22 4D 18), which arrow-rs also accepts for codec 5. */
static int lz4_frame_dec(pq_codec_ctx *ctx, hudi_slice in, uint8_t *out, size_t out_len,
                         hudi_error *err) {
    if (!ctx->lz4f_d) {
        if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx->lz4f_d, LZ4F_VERSION))) {
            ctx->lz4f_d = NULL;
            return hudi_error_oom(err);
        }
    } else {
        LZ4F_resetDecompressionContext(ctx->lz4f_d);
    }
    size_t pos = 0, opos = 0;
    for (;;) {
        uint8_t spill;
        size_t src_n = in.len - pos;
        bool full = opos == out_len;
        size_t dst_n = full ? 1 : out_len - opos;
        size_t hint = LZ4F_decompress(ctx->lz4f_d, full ? &spill : out + opos, &dst_n,
                                      in.data + pos, &src_n, NULL);
        if (LZ4F_isError(hint)) {
            LZ4F_resetDecompressionContext(ctx->lz4f_d);
            return corrupt(err, PQ_CODEC_LZ4, LZ4F_getErrorName(hint));
        }
        if (full && dst_n > 0) return size_mismatch(err, PQ_CODEC_LZ4, out_len + 1, out_len);
        pos += src_n;
        opos += dst_n;
        if (hint == 0 && pos == in.len) break; /* frame complete, input used up */
        if (hint == 0) continue;               /* another frame follows */
        if (pos == in.len && dst_n == 0) return corrupt(err, PQ_CODEC_LZ4, "truncated frame");
    }
    return opos == out_len ? 0 : size_mismatch(err, PQ_CODEC_LZ4, opos, out_len);
}

static int lz4_legacy_dec(pq_codec_ctx *ctx, hudi_slice in, uint8_t *out, size_t out_len,
                          hudi_error *err) {
    if (lz4_hadoop_dec(in, out, out_len)) return 0;
    if (in.len >= 4 && hudi_load_u32le(in.data) == LZ4_FRAME_MAGIC)
        return lz4_frame_dec(ctx, in, out, out_len, err);
    /* Old parquet-cpp wrote one raw block (non_hadoop_lz4_compressed.parquet). */
    return lz4_raw_dec(PQ_CODEC_LZ4, in, out, out_len, err);
}

static int brotli_dec(hudi_slice in, uint8_t *out, size_t out_len, hudi_error *err) {
    BrotliDecoderState *st = BrotliDecoderCreateInstance(hook_alloc, hook_free, NULL);
    if (!st) return hudi_error_oom(err);
    const uint8_t *next_in = in.data;
    size_t avail_in = in.len;
    uint8_t *next_out = out;
    size_t avail_out = out_len;
    int rc = 0;
    BrotliDecoderResult r =
        BrotliDecoderDecompressStream(st, &avail_in, &next_in, &avail_out, &next_out, NULL);
    if (r == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) {
        rc = hudi_error_set(err, HUDI_ECORRUPT,
                            "BROTLI: decompressed more than the %zu bytes the page header says",
                            out_len);
    } else if (r == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT) {
        rc = corrupt(err, PQ_CODEC_BROTLI, "truncated stream");
    } else if (r == BROTLI_DECODER_RESULT_ERROR) {
        BrotliDecoderErrorCode ec = BrotliDecoderGetErrorCode(st);
        rc = ec <= BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MODES &&
                     ec >= BROTLI_DECODER_ERROR_ALLOC_BLOCK_TYPE_TREES
                 ? hudi_error_oom(err)
                 : corrupt(err, PQ_CODEC_BROTLI, BrotliDecoderErrorString(ec));
    } else if (avail_in != 0) {
        rc = corrupt(err, PQ_CODEC_BROTLI, "trailing bytes after stream");
    } else if (avail_out != 0) {
        rc = size_mismatch(err, PQ_CODEC_BROTLI, out_len - avail_out, out_len);
    }
    BrotliDecoderDestroyInstance(st);
    return rc;
}

int hudi_pq_decompress(pq_codec_ctx *ctx, int codec, hudi_slice in, uint8_t *out, size_t out_len,
                       hudi_error *err) {
    if (codec == PQ_CODEC_LZO) return hudi_error_set(err, HUDI_EUNSUPPORTED, "LZO");
    if (codec < PQ_CODEC_UNCOMPRESSED || codec > PQ_CODEC_LZ4_RAW)
        return hudi_error_set(err, HUDI_EUNSUPPORTED, "compression codec %d", codec);
    if (codec == PQ_CODEC_UNCOMPRESSED) {
        if (in.len != out_len) return size_mismatch(err, codec, in.len, out_len);
        if (out_len) memcpy(out, in.data, out_len);
        return 0;
    }
    /* Empty pages are written as 0 bytes by some writers (arrow-rs#7388): not a stream. */
    if (in.len == 0) {
        if (out_len == 0) return 0;
        return corrupt(err, codec, "empty input");
    }
    pq_codec_ctx tmp;
    bool own = ctx == NULL;
    if (own) {
        memset(&tmp, 0, sizeof(tmp));
        ctx = &tmp;
    }
    int rc;
    switch (codec) {
    case PQ_CODEC_SNAPPY: rc = snappy_dec(in, out, out_len, err); break;
    case PQ_CODEC_GZIP: rc = gzip_dec(ctx, in, out, out_len, err); break;
    case PQ_CODEC_ZSTD: rc = zstd_dec(ctx, in, out, out_len, err); break;
    case PQ_CODEC_LZ4_RAW: rc = lz4_raw_dec(codec, in, out, out_len, err); break;
    case PQ_CODEC_LZ4: rc = lz4_legacy_dec(ctx, in, out, out_len, err); break;
    default: rc = brotli_dec(in, out, out_len, err); break;
    }
    if (own) ctx_dispose(ctx);
    return rc;
}

/* ---- encoders ----------------------------------------------------------------------------- */

/* One gzip member (RFC 1952), which is what parquet-mr expects. libdeflate compresses the page
 * in one call; its levels follow zlib's scale (1 fastest, 6 default, 9 smallest), and at the
 * same level it is faster than zlib and its output no larger. The bytes differ from zlib's; any
 * gzip reader reads them. */
static int gzip_enc(pq_codec_ctx *ctx, int level, hudi_slice in, hudi_buf *out, hudi_error *err) {
    if (level == PQ_CODEC_LEVEL_DEFAULT) level = GZIP_DEFAULT_LEVEL;
    if (level < 1 || level > 9)
        return hudi_error_set(err, HUDI_EINVAL, "GZIP: compression level %d not in 1..9", level);
    if (ctx->gzip_c && ctx->gzip_level != level) {
        libdeflate_free_compressor(ctx->gzip_c);
        ctx->gzip_c = NULL;
    }
    if (!ctx->gzip_c) {
        if (!(ctx->gzip_c = libdeflate_alloc_compressor(level))) return hudi_error_oom(err);
        ctx->gzip_level = level;
    }
    size_t bound = libdeflate_gzip_compress_bound(ctx->gzip_c, in.len);
    if (bound < in.len) return hudi_error_set(err, HUDI_EUNSUPPORTED, "GZIP: page too large");
    if (hudi_buf_grow(out, bound) < 0) return hudi_error_oom(err);
    uint8_t empty = 0;
    size_t n = libdeflate_gzip_compress(ctx->gzip_c, in.len ? in.data : &empty, in.len,
                                        out->data + out->len, bound);
    if (n == 0) return hudi_error_set(err, HUDI_EIO, "GZIP: compression failed");
    out->len += n;
    out->data[out->len] = '\0';
    return 0;
}

static int zstd_enc(pq_codec_ctx *ctx, int level, hudi_slice in, hudi_buf *out, hudi_error *err) {
    if (level == PQ_CODEC_LEVEL_DEFAULT) level = ZSTD_DEFAULT_LEVEL;
    if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel())
        return hudi_error_set(err, HUDI_EINVAL, "ZSTD: compression level %d not in %d..%d", level,
                              ZSTD_minCLevel(), ZSTD_maxCLevel());
    if (!ctx->zstd_c && !(ctx->zstd_c = ZSTD_createCCtx_advanced(zstd_mem)))
        return hudi_error_oom(err);
    size_t bound = ZSTD_compressBound(in.len);
    if (ZSTD_isError(bound)) return hudi_error_set(err, HUDI_EUNSUPPORTED, "ZSTD: page too large");
    if (hudi_buf_grow(out, bound) < 0) return hudi_error_oom(err);
    size_t n = ZSTD_compressCCtx(ctx->zstd_c, out->data + out->len, bound, in.data, in.len, level);
    if (ZSTD_isError(n)) {
        if (ZSTD_getErrorCode(n) == ZSTD_error_memory_allocation) return hudi_error_oom(err);
        return hudi_error_set(err, HUDI_EIO, "ZSTD: %s", ZSTD_getErrorName(n));
    }
    out->len += n;
    out->data[out->len] = '\0';
    return 0;
}

static int snappy_enc(hudi_slice in, hudi_buf *out, hudi_error *err) {
    size_t bound = snappy_max_compressed_length(in.len);
    /* snappy's bound is 32 + n + n/6; it wraps only for absurd sizes. */
    if (bound < in.len) return hudi_error_set(err, HUDI_EUNSUPPORTED, "SNAPPY: page too large");
    if (hudi_buf_grow(out, bound) < 0) return hudi_error_oom(err);
    size_t n = bound;
    if (snappy_compress((const char *)in.data, in.len, out->data + out->len, &n) != SNAPPY_OK)
        return hudi_error_set(err, HUDI_EIO, "SNAPPY: compression failed");
    out->len += n;
    out->data[out->len] = '\0';
    return 0;
}

static int lz4_raw_enc(hudi_slice in, hudi_buf *out, hudi_error *err) {
    if (in.len > LZ4_MAX_INPUT_SIZE)
        return hudi_error_set(err, HUDI_EUNSUPPORTED, "LZ4_RAW: page larger than %d bytes",
                              LZ4_MAX_INPUT_SIZE);
    int bound = LZ4_compressBound((int)in.len);
    if (hudi_buf_grow(out, (size_t)bound) < 0) return hudi_error_oom(err);
    char empty = 0;
    int n = LZ4_compress_default(in.len ? (const char *)in.data : &empty, out->data + out->len,
                                 (int)in.len, bound);
    if (n <= 0) return hudi_error_set(err, HUDI_EIO, "LZ4_RAW: compression failed");
    out->len += (size_t)n;
    out->data[out->len] = '\0';
    return 0;
}

/* Hadoop's Lz4Codec framing, as read by lz4_hadoop_dec: the page is cut into pieces of at most
 * LZ4_HADOOP_FRAME_BYTES, each written as [u32 BE piece size][u32 BE compressed size][LZ4 block].
 * Each piece is one Hadoop block of one chunk, which Hadoop's BlockDecompressorStream reads with
 * its default 256 KiB buffer, and a run of such frames is what parquet-cpp/Arrow read (Arrow
 * itself writes one frame per page, which is the same when the page is small). */
#define LZ4_HADOOP_FRAME_BYTES (128u << 10)

static void store_u32be(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8),
    p[3] = (uint8_t)v;
}

static int lz4_hadoop_enc(hudi_slice in, hudi_buf *out, hudi_error *err) {
    size_t start = out->len, pos = 0;
    char empty = 0;
    do {
        size_t k = HUDI_MIN(in.len - pos, (size_t)LZ4_HADOOP_FRAME_BYTES);
        int bound = LZ4_compressBound((int)k);
        if (hudi_buf_grow(out, 8 + (size_t)bound) < 0) {
            hudi_buf_truncate(out, start);
            return hudi_error_oom(err);
        }
        uint8_t *hdr = (uint8_t *)out->data + out->len;
        int n = LZ4_compress_default(k ? (const char *)in.data + pos : &empty, (char *)hdr + 8,
                                     (int)k, bound);
        if (n <= 0) {
            hudi_buf_truncate(out, start);
            return hudi_error_set(err, HUDI_EIO, "LZ4: compression failed");
        }
        store_u32be(hdr, (uint32_t)k);
        store_u32be(hdr + 4, (uint32_t)n);
        out->len += 8 + (size_t)n;
        out->data[out->len] = '\0';
        pos += k;
    } while (pos < in.len);
    return 0;
}

static int brotli_enc(int level, hudi_slice in, hudi_buf *out, hudi_error *err) {
    if (level == PQ_CODEC_LEVEL_DEFAULT) level = BROTLI_DEFAULT_LEVEL;
    if (level < BROTLI_MIN_QUALITY || level > BROTLI_MAX_QUALITY)
        return hudi_error_set(err, HUDI_EINVAL, "BROTLI: compression level %d not in %d..%d", level,
                              BROTLI_MIN_QUALITY, BROTLI_MAX_QUALITY);
    size_t bound = BrotliEncoderMaxCompressedSize(in.len);
    if (bound == 0) return hudi_error_set(err, HUDI_EUNSUPPORTED, "BROTLI: page too large");
    if (hudi_buf_grow(out, bound) < 0) return hudi_error_oom(err);
    size_t n = bound;
    uint8_t empty = 0;
    if (!BrotliEncoderCompress(level, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, in.len,
                               in.len ? in.data : &empty, &n, (uint8_t *)out->data + out->len))
        return hudi_error_set(err, HUDI_EIO, "BROTLI: compression failed");
    out->len += n;
    out->data[out->len] = '\0';
    return 0;
}

int hudi_pq_compress(pq_codec_ctx *ctx, int codec, int level, hudi_slice in, hudi_buf *out,
                     hudi_error *err) {
    if (codec == PQ_CODEC_LZO) return hudi_error_set(err, HUDI_EUNSUPPORTED, "LZO");
    if (codec < PQ_CODEC_UNCOMPRESSED || codec > PQ_CODEC_LZ4_RAW)
        return hudi_error_set(err, HUDI_EUNSUPPORTED, "compression codec %d", codec);
    if (hudi_buf_failed(out)) return hudi_error_oom(err);
    if (codec == PQ_CODEC_UNCOMPRESSED) {
        hudi_buf_append(out, in.data, in.len);
        return hudi_buf_failed(out) ? hudi_error_oom(err) : 0;
    }
    pq_codec_ctx tmp;
    bool own = ctx == NULL;
    if (own) {
        memset(&tmp, 0, sizeof(tmp));
        ctx = &tmp;
    }
    int rc;
    switch (codec) {
    case PQ_CODEC_SNAPPY: rc = snappy_enc(in, out, err); break;
    case PQ_CODEC_GZIP: rc = gzip_enc(ctx, level, in, out, err); break;
    case PQ_CODEC_ZSTD: rc = zstd_enc(ctx, level, in, out, err); break;
    case PQ_CODEC_LZ4_RAW: rc = lz4_raw_enc(in, out, err); break;
    case PQ_CODEC_LZ4: rc = lz4_hadoop_enc(in, out, err); break;
    default: rc = brotli_enc(level, in, out, err); break;
    }
    if (own) ctx_dispose(ctx);
    return rc;
}
