/* bitpack.c - LSB-first bit unpacking and packing for widths 0..64 (parquet.md §2.2, used
 * by the RLE/bit-packed hybrid and DELTA_BINARY_PACKED).
 *
 * Unpacking works 32 values at a time with one routine per width: the width is a compile-time
 * constant inside each routine, so the unrolled loop becomes shifts and masks over unaligned
 * 64-bit loads. Invariant: no routine reads past in + in_len. The fast routines read up to
 * 8 (9 for widths > 56) bytes beyond a value's first byte, so they run only while at least
 * 4*w + 16 bytes remain; the tail goes through a zero-padded stack copy. */
#include "format/parquet/encoding.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

static inline uint64_t load64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

ALWAYS_INLINE void unpack32_u32_body(const uint8_t *in, uint32_t *out, const int w) {
    const uint64_t mask = w == 32 ? 0xffffffffu : ((1ull << w) - 1);
#pragma GCC unroll 32
    for (int i = 0; i < 32; i++) {
        const int bit = i * w;
        out[i] = (uint32_t)((load64(in + (bit >> 3)) >> (bit & 7)) & mask);
    }
}

ALWAYS_INLINE void unpack32_u64_body(const uint8_t *in, uint64_t *out, const int w) {
    const uint64_t mask = w == 64 ? ~0ull : ((1ull << w) - 1);
#pragma GCC unroll 32
    for (int i = 0; i < 32; i++) {
        const int bit = i * w, s = bit & 7;
        const uint8_t *p = in + (bit >> 3);
        uint64_t v = load64(p) >> s;
        /* A value may straddle 9 bytes only when s + w > 64, i.e. for widths above 56. */
        if (w > 56 && s + w > 64) v |= (uint64_t)p[8] << (64 - s);
        out[i] = v & mask;
    }
}

typedef void (*unpack32_u32_fn)(const uint8_t *in, uint32_t *out);
typedef void (*unpack32_u64_fn)(const uint8_t *in, uint64_t *out);

#define DEF32(W)                                                                                   \
    static void unpack32_u32_##W(const uint8_t *in, uint32_t *out) {                               \
        unpack32_u32_body(in, out, W);                                                             \
    }
#define DEF64(W)                                                                                   \
    static void unpack32_u64_##W(const uint8_t *in, uint64_t *out) {                               \
        unpack32_u64_body(in, out, W);                                                             \
    }
/* Widths 1..64, spelled without leading zeros. */
/* clang-format off */
#define WIDTHS_1_32(D)                                                                             \
    D(1) D(2) D(3) D(4) D(5) D(6) D(7) D(8) D(9) D(10) D(11)                                       \
    D(12) D(13) D(14) D(15) D(16) D(17) D(18) D(19) D(20) D(21) D(22)                              \
    D(23) D(24) D(25) D(26) D(27) D(28) D(29) D(30) D(31) D(32)
#define WIDTHS_33_64(D)                                                                            \
    D(33) D(34) D(35) D(36) D(37) D(38) D(39) D(40) D(41) D(42) D(43)                              \
    D(44) D(45) D(46) D(47) D(48) D(49) D(50) D(51) D(52) D(53) D(54)                              \
    D(55) D(56) D(57) D(58) D(59) D(60) D(61) D(62) D(63) D(64)
/* clang-format on */

WIDTHS_1_32(DEF32)
WIDTHS_1_32(DEF64)
WIDTHS_33_64(DEF64)

#define REF32(W) unpack32_u32_##W,
#define REF64(W) unpack32_u64_##W,
static const unpack32_u32_fn unpack32_u32_tab[33] = {NULL, WIDTHS_1_32(REF32)};
static const unpack32_u64_fn unpack32_u64_tab[65] = {NULL, WIDTHS_1_32(REF64) WIDTHS_33_64(REF64)};

void hudi_pq_unpack32_u32(const uint8_t *in, size_t in_len, uint32_t *out, int w) {
    if (w == 0) {
        memset(out, 0, 32 * sizeof(uint32_t));
    } else if (in_len >= (size_t)4 * (size_t)w + 16) {
        unpack32_u32_tab[w](in, out);
    } else {
        uint8_t tmp[4 * 32 + 16];
        size_t take = HUDI_MIN(in_len, (size_t)4 * (size_t)w);
        memcpy(tmp, in, take);
        memset(tmp + take, 0, sizeof(tmp) - take);
        unpack32_u32_tab[w](tmp, out);
    }
}

void hudi_pq_unpack32_u64(const uint8_t *in, size_t in_len, uint64_t *out, int w) {
    if (w == 0) {
        memset(out, 0, 32 * sizeof(uint64_t));
    } else if (in_len >= (size_t)4 * (size_t)w + 16) {
        unpack32_u64_tab[w](in, out);
    } else {
        uint8_t tmp[4 * 64 + 16];
        size_t take = HUDI_MIN(in_len, (size_t)4 * (size_t)w);
        memcpy(tmp, in, take);
        memset(tmp + take, 0, sizeof(tmp) - take);
        unpack32_u64_tab[w](tmp, out);
    }
}

void hudi_pq_unpack_u32(const uint8_t *in, size_t in_len, uint32_t *out, int64_t n, int w) {
    if (n <= 0) return;
    if (w == 0) {
        memset(out, 0, (size_t)n * sizeof(uint32_t));
        return;
    }
    const unpack32_u32_fn fn = unpack32_u32_tab[w];
    const size_t chunk = (size_t)4 * (size_t)w; /* bytes holding 32 values */
    int64_t i = 0;
    while (n - i >= 32 && in_len >= chunk + 16) {
        fn(in, out + i);
        in += chunk;
        in_len -= chunk;
        i += 32;
    }
    while (i < n) {
        uint8_t tmp[4 * 32 + 16];
        uint32_t vals[32];
        size_t take = HUDI_MIN(in_len, chunk);
        memcpy(tmp, in, take);
        memset(tmp + take, 0, sizeof(tmp) - take);
        fn(tmp, vals);
        int64_t m = HUDI_MIN(n - i, 32);
        memcpy(out + i, vals, (size_t)m * sizeof(uint32_t));
        in += take;
        in_len -= take;
        i += m;
    }
}

void hudi_pq_unpack_u64(const uint8_t *in, size_t in_len, uint64_t *out, int64_t n, int w) {
    if (n <= 0) return;
    if (w == 0) {
        memset(out, 0, (size_t)n * sizeof(uint64_t));
        return;
    }
    const unpack32_u64_fn fn = unpack32_u64_tab[w];
    const size_t chunk = (size_t)4 * (size_t)w;
    int64_t i = 0;
    while (n - i >= 32 && in_len >= chunk + 16) {
        fn(in, out + i);
        in += chunk;
        in_len -= chunk;
        i += 32;
    }
    while (i < n) {
        uint8_t tmp[4 * 64 + 16];
        uint64_t vals[32];
        size_t take = HUDI_MIN(in_len, chunk);
        memcpy(tmp, in, take);
        memset(tmp + take, 0, sizeof(tmp) - take);
        fn(tmp, vals);
        int64_t m = HUDI_MIN(n - i, 32);
        memcpy(out + i, vals, (size_t)m * sizeof(uint64_t));
        in += take;
        in_len -= take;
        i += m;
    }
}

/* A little-endian bit writer: at most 31 bits pending, flushed 32 at a time. */
typedef struct bitwriter {
    uint8_t *out;
    uint64_t acc;
    int nbits;
} bitwriter;

static inline void bw_put(bitwriter *bw, uint32_t v, int w) {
    bw->acc |= (uint64_t)v << bw->nbits;
    bw->nbits += w;
    if (bw->nbits >= 32) {
        hudi_store_u32le(bw->out, (uint32_t)bw->acc);
        bw->out += 4;
        bw->acc >>= 32;
        bw->nbits -= 32;
    }
}

static inline void bw_flush(bitwriter *bw) {
    for (; bw->nbits > 0; bw->nbits -= 8) {
        *bw->out++ = (uint8_t)bw->acc;
        bw->acc >>= 8;
    }
}

void hudi_pq_pack_u32(const uint32_t *in, int64_t n, int w, uint8_t *out) {
    if (w == 0 || n <= 0) return;
    const uint32_t mask = w == 32 ? 0xffffffffu : ((1u << w) - 1);
    bitwriter bw = {out, 0, 0};
    for (int64_t i = 0; i < n; i++) bw_put(&bw, in[i] & mask, w);
    bw_flush(&bw);
}

void hudi_pq_pack_u64(const uint64_t *in, int64_t n, int w, uint8_t *out) {
    if (w == 0 || n <= 0) return;
    bitwriter bw = {out, 0, 0};
    if (w <= 32) {
        const uint32_t mask = w == 32 ? 0xffffffffu : ((1u << w) - 1);
        for (int64_t i = 0; i < n; i++) bw_put(&bw, (uint32_t)in[i] & mask, w);
    } else {
        const int hi = w - 32;
        const uint32_t mask = hi == 32 ? 0xffffffffu : ((1u << hi) - 1);
        for (int64_t i = 0; i < n; i++) {
            bw_put(&bw, (uint32_t)in[i], 32);
            bw_put(&bw, (uint32_t)(in[i] >> 32) & mask, hi);
        }
    }
    bw_flush(&bw);
}

void hudi_pq_write_uleb(hudi_buf *out, uint64_t v) {
    uint8_t tmp[10];
    int n = 0;
    do {
        uint8_t b = v & 0x7f;
        v >>= 7;
        tmp[n++] = (uint8_t)(b | (v ? 0x80 : 0));
    } while (v);
    hudi_buf_append(out, tmp, (size_t)n);
}

void hudi_pq_copy_bits(uint8_t *dst, int64_t dst_bit, const uint8_t *src, int64_t src_bit,
                       int64_t n) {
    if (n <= 0) return;
    dst += dst_bit >> 3;
    src += src_bit >> 3;
    int d = (int)(dst_bit & 7), s = (int)(src_bit & 7);
    /* Head: single bits until dst is byte-aligned. */
    while (d != 0 && n > 0) {
        uint8_t bit = (*src >> s) & 1;
        *dst = (uint8_t)((*dst & ~(1u << d)) | ((unsigned)bit << d));
        if (++s == 8) s = 0, src++;
        if (++d == 8) d = 0, dst++;
        n--;
    }
    int64_t bytes = n >> 3;
    if (s == 0) {
        memcpy(dst, src, (size_t)bytes);
    } else {
        /* Each output byte takes the top 8-s bits of one input byte and the low s of the next;
         * both bytes hold needed bits, so nothing past the last needed byte is read. */
        for (int64_t i = 0; i < bytes; i++)
            dst[i] = (uint8_t)((src[i] >> s) | (src[i + 1] << (8 - s)));
    }
    dst += bytes;
    src += bytes;
    n &= 7;
    for (int i = 0; i < n; i++) {
        uint8_t bit = (*src >> s) & 1;
        *dst = (uint8_t)((*dst & ~(1u << i)) | ((unsigned)bit << i));
        if (++s == 8) s = 0, src++;
    }
}

void hudi_pq_fill_bits(uint8_t *dst, int64_t dst_bit, int64_t n, bool value) {
    if (n <= 0) return;
    dst += dst_bit >> 3;
    int d = (int)(dst_bit & 7);
    for (; d != 0 && n > 0; n--) {
        if (value)
            *dst |= (uint8_t)(1u << d);
        else
            *dst &= (uint8_t) ~(1u << d);
        if (++d == 8) d = 0, dst++;
    }
    memset(dst, value ? 0xff : 0, (size_t)(n >> 3));
    dst += n >> 3;
    for (int i = 0; i < (n & 7); i++) {
        if (value)
            *dst |= (uint8_t)(1u << i);
        else
            *dst &= (uint8_t) ~(1u << i);
    }
}
