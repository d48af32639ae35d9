/* snappy.c - decodes raw Snappy blocks (Parquet SNAPPY pages, docs/formats/parquet.md §3.7),
 * written from Snappy's public format description; faster than Debian's libsnappy on the short
 * literals that dominate barely-compressible columns.
 *
 * Block: varint32 uncompressed length, then elements until the input ends. The low 2 bits of
 * an element's tag byte give its kind:
 *   00 literal: length-1 in the upper 6 bits, or 60..63 meaning 1..4 little-endian bytes of
 *      length-1 follow the tag; then the literal bytes.
 *   01 copy: length 4 + bits 2..4 (4..11), offset = bits 5..7 << 8 | the next byte.
 *   10 copy: length 1 + bits 2..7 (1..64), offset = the next 2 bytes (LE).
 *   11 copy: as 10 with a 4-byte offset.
 * A copy repeats `length` bytes starting `offset` bytes back in the output; offset < length
 * repeats a pattern, so copies run forward and may read what they just wrote.
 *
 * Invariant: writes only inside out[0, out_len), reads only inside the input, and succeeds
 * only when the elements use all the input and produce exactly out_len bytes. The fast loop
 * runs while FAST_IN input and FAST_OUT output bytes remain, which bounds every over-long
 * 16-byte block copy it makes; the last bytes go through a loop that checks every element. */
#include "format/parquet/snappy.h"

/* At the fast loop's top: an element reads 8 bytes from its tag on, a literal of at most 64
 * bytes in 16-byte blocks after the tag, and the next tag (at most 65 bytes on); it writes
 * at most 64 bytes in 16-byte blocks. */
#define FAST_IN 66
#define FAST_OUT 64

/* Per tag byte: the mask of the offset bytes among the 4 after the tag (bits 0-31), the
 * length (bits 32-39) and the offset bits held in the tag (bits 40-63). Literals of <= 60
 * bytes get "offset" 16 and literals whose length follows the tag get 0, so one test - the
 * offset lies in [16, bytes produced] - admits exactly the elements the fast loop handles:
 * short literals and copies whose 16-byte blocks never overlap what they write. */
#define ENTRY(mask, len, off) ((uint64_t)(mask) | (uint64_t)(len) << 32 | (uint64_t)(off) << 40)
#define TAG(t)                                                                                     \
    (((t)&3) == 0   ? ENTRY(0, ((t) >> 2) + 1, ((t) >> 2) < 60 ? 16 : 0)                           \
     : ((t)&3) == 1 ? ENTRY(0xFFu, (((t) >> 2) & 7) + 4, ((t) >> 5) << 8)                          \
     : ((t)&3) == 2 ? ENTRY(0xFFFFu, ((t) >> 2) + 1, 0)                                            \
                    : ENTRY(0xFFFFFFFFu, ((t) >> 2) + 1, 0))
#define TAG4(t) TAG(t), TAG((t) + 1), TAG((t) + 2), TAG((t) + 3)
#define TAG16(t) TAG4(t), TAG4((t) + 4), TAG4((t) + 8), TAG4((t) + 12)
#define TAG64(t) TAG16(t), TAG16((t) + 16), TAG16((t) + 32), TAG16((t) + 48)
static const uint64_t tag_table[256] = {TAG64(0), TAG64(64), TAG64(128), TAG64(192)};

static inline void copy16(uint8_t *dst, const uint8_t *src) {
    uint8_t t[16];
    memcpy(t, src, 16);
    memcpy(dst, t, 16);
}

static inline void copy8(uint8_t *dst, const uint8_t *src) {
    uint8_t t[8];
    memcpy(t, src, 8);
    memcpy(dst, t, 8);
}

static int corrupt(hudi_error *err, const char *what) {
    return hudi_error_set(err, HUDI_ECORRUPT, "SNAPPY: corrupt compressed data (%s)", what);
}

static int bad_offset(hudi_error *err, size_t off, size_t produced) {
    return hudi_error_set(err, HUDI_ECORRUPT,
                          "SNAPPY: copy offset %zu invalid after %zu output bytes", off, produced);
}

static int overrun(hudi_error *err, size_t out_len) {
    return hudi_error_set(err, HUDI_ECORRUPT,
                          "SNAPPY: block decodes to more than the %zu bytes it declares", out_len);
}

int hudi_pq_snappy_uncompressed_length(hudi_slice in, size_t *out_len, hudi_error *err) {
    uint32_t v = 0;
    for (size_t i = 0; i < 5 && i < in.len; i++) {
        uint8_t b = in.data[i];
        if (i == 4 && b > 0x0F) break; /* more than 32 bits */
        v |= (uint32_t)(b & 0x7F) << (7 * i);
        if (!(b & 0x80)) {
            *out_len = v;
            return 0;
        }
    }
    return corrupt(err, "bad length header");
}

static size_t header_size(const uint8_t *p) {
    size_t i = 0;
    while (p[i] & 0x80) i++;
    return i + 1;
}

/* A copy whose offset is below 16, with at least len + 7 bytes of room at op: 8-byte blocks
 * that each read only bytes already written (the distance is >= 8). */
static inline void copy_pattern(uint8_t *op, size_t off, size_t len) {
    const uint8_t *src = op - off;
    if (off >= 8) {
        for (size_t k = 0; k < len; k += 8) copy8(op + k, src + k);
        return;
    }
    /* Expand the pattern to 8 bytes one byte at a time, then copy from the nearest multiple
     * of the offset that is at least 8 bytes back. */
    for (size_t k = 0; k < 8; k++) op[k] = src[k];
    size_t d = off * ((8 + off - 1) / off);
    for (size_t k = 8; k < len; k += 8) copy8(op + k, op + k - d);
}

/* Decodes the element at *ipp with every check against both buffer ends. Copies are exact
 * except for short-offset patterns, which use block copies when the output has room. */
static int decode_element(const uint8_t **ipp, const uint8_t *in_end, uint8_t **opp, uint8_t *out,
                          uint8_t *out_end, hudi_error *err) {
    const uint8_t *ip = *ipp;
    uint8_t *op = *opp;
    uint32_t tag = *ip++;
    size_t in_room = (size_t)(in_end - ip), out_room = (size_t)(out_end - op);
    if ((tag & 3) == 0) {
        size_t lenm1 = tag >> 2;
        if (lenm1 >= 60) {
            size_t nb = lenm1 - 59;
            if (in_room < nb) return corrupt(err, "literal length truncated");
            lenm1 = 0;
            for (size_t k = 0; k < nb; k++) lenm1 |= (size_t)ip[k] << (8 * k);
            ip += nb;
            in_room -= nb;
        }
        if (lenm1 >= in_room) return corrupt(err, "literal runs past the input");
        if (lenm1 >= out_room) return overrun(err, (size_t)(out_end - out));
        memcpy(op, ip, lenm1 + 1);
        *ipp = ip + lenm1 + 1;
        *opp = op + lenm1 + 1;
        return 0;
    }
    size_t nb = (tag & 3) == 3 ? 4 : (tag & 3);
    if (in_room < nb) return corrupt(err, "copy element truncated");
    size_t len, off = 0;
    for (size_t k = 0; k < nb; k++) off |= (size_t)ip[k] << (8 * k);
    ip += nb;
    if ((tag & 3) == 1) {
        len = ((tag >> 2) & 7) + 4;
        off |= (size_t)(tag >> 5) << 8;
    } else {
        len = (tag >> 2) + 1;
    }
    if (off == 0 || off > (size_t)(op - out)) return bad_offset(err, off, (size_t)(op - out));
    if (len > out_room) return overrun(err, (size_t)(out_end - out));
    const uint8_t *src = op - off;
    if (off < 16 && out_room >= len + 7) {
        copy_pattern(op, off, len);
    } else if (off >= len) {
        memcpy(op, src, len);
    } else {
        for (size_t k = 0; k < len; k++) op[k] = src[k]; /* forward: overlap repeats */
    }
    *ipp = ip;
    *opp = op + len;
    return 0;
}

/* Returns if_zero when kind is 0, else otherwise, without a branch: literals and copies
 * alternate unpredictably, and compilers turn a plain ?: here into a jump. */
static inline uintptr_t select_if_zero(uint32_t kind, uintptr_t if_zero, uintptr_t otherwise) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __asm__("test %1, %1\n\tcmovz %2, %0" : "+r"(otherwise) : "r"(kind), "r"(if_zero) : "cc");
    return otherwise;
#else
    return kind == 0 ? if_zero : otherwise;
#endif
}

/* The bulk of the block, for the common elements: literals of <= 60 bytes and copies from
 * >= 16 bytes back; anything else (and the first 16 output bytes) goes to decode_element.
 * Speed is bounded by the chain from one tag to the next, so the next tag is fetched for both
 * cases before the kind is known - after a literal by a load, after a copy from the 8 bytes
 * already loaded - and the right one picked with a conditional move. */
static int decode_fast(const uint8_t **ipp, const uint8_t *in_end, uint8_t **opp, uint8_t *out,
                       uint8_t *out_end, const uint8_t *stop, hudi_error *err) {
    const uint8_t *ip = *ipp;
    uint8_t *op = *opp;
    int rc = 0;
    /* The first 16 output bytes element by element: afterwards every literal passes the
     * offset test below. */
    while (op - out < 16 && ip < in_end)
        if ((rc = decode_element(&ip, in_end, &op, out, out_end, err)) < 0) goto done;
    if ((size_t)(in_end - ip) < FAST_IN || (size_t)(out_end - op) < FAST_OUT) goto done;
    const uint8_t *ip_last = in_end - FAST_IN, *out16 = out + 16;
    const uint8_t *op_last = out_end - FAST_OUT;
    if (stop < op_last) op_last = stop; /* a partial fill ends at the element crossing stop */
    uint32_t tag = ip[0];
    while (ip <= ip_last && op <= op_last) {
        uint64_t x8 = hudi_load_u64le(ip); /* the tag and the 7 bytes after it */
        uint64_t e = tag_table[tag];
        size_t off = ((uint32_t)(x8 >> 8) & (uint32_t)e) | (size_t)(e >> 40);
        if (off - 16 > (size_t)(op - out16)) {
            if ((rc = decode_element(&ip, in_end, &op, out, out_end, err)) < 0) break;
            if (ip < in_end) tag = ip[0];
            continue;
        }
        size_t len = (size_t)(e >> 32) & 0xFF;
        uint32_t kind = tag & 3;
        const uint8_t *lit_next = ip + (tag >> 2) + 2;
        uint32_t copy_adv = (0x05030200u >> (kind * 8)) & 0xFF; /* 2, 3 or 5 bytes */
        uint32_t lit_tag = *lit_next, copy_tag = (uint32_t)(x8 >> (copy_adv * 8)) & 0xFF;
        const uint8_t *src =
            (const uint8_t *)select_if_zero(kind, (uintptr_t)(ip + 1), (uintptr_t)(op - off));
        copy16(op, src);
        if (len > 16) {
            copy16(op + 16, src + 16);
            copy16(op + 32, src + 32);
            copy16(op + 48, src + 48);
        }
        op += len;
        ip = (const uint8_t *)select_if_zero(kind, (uintptr_t)lit_next, (uintptr_t)(ip + copy_adv));
        tag = (uint32_t)select_if_zero(kind, lit_tag, copy_tag);
    }
done:
    *ipp = ip;
    *opp = op;
    return rc;
}

static int decode_tail(const uint8_t *ip, const uint8_t *in_end, uint8_t *op, uint8_t *out,
                       uint8_t *out_end, hudi_error *err) {
    int rc;
    while (ip < in_end)
        if ((rc = decode_element(&ip, in_end, &op, out, out_end, err)) < 0) return rc;
    if (op != out_end)
        return hudi_error_set(err, HUDI_ECORRUPT,
                              "SNAPPY: block decodes to %zu bytes but declares %zu",
                              (size_t)(op - out), (size_t)(out_end - out));
    return 0;
}

int hudi_pq_snappy_decompress(hudi_slice in, uint8_t *out, size_t out_len, hudi_error *err) {
    size_t n = 0;
    int rc;
    uint8_t dummy;
    if ((rc = hudi_pq_snappy_uncompressed_length(in, &n, err)) < 0) return rc;
    if (n != out_len)
        return hudi_error_set(err, HUDI_ECORRUPT,
                              "SNAPPY: decompressed %zu bytes, page header says %zu", n, out_len);
    if (!out) out = &dummy; /* out_len is 0: keeps the pointer arithmetic defined */
    const uint8_t *ip = in.data + header_size(in.data), *in_end = in.data + in.len;
    uint8_t *op = out, *out_end = out + out_len;
    if ((rc = decode_fast(&ip, in_end, &op, out, out_end, out_end, err)) < 0) return rc;
    return decode_tail(ip, in_end, op, out, out_end, err);
}

int hudi_pq_snappy_stream_init(pq_snappy_stream *s, hudi_slice in, uint8_t *out, size_t out_len,
                               hudi_error *err) {
    size_t n = 0;
    int rc;
    if ((rc = hudi_pq_snappy_uncompressed_length(in, &n, err)) < 0) return rc;
    if (n != out_len)
        return hudi_error_set(err, HUDI_ECORRUPT,
                              "SNAPPY: decompressed %zu bytes, page header says %zu", n, out_len);
    s->ip = in.data + header_size(in.data);
    s->in_end = in.data + in.len;
    s->out = s->op = out;
    s->out_end = out ? out + out_len : out;
    s->finished = out_len == 0;
    if (s->finished && s->ip != s->in_end) /* every element produces at least one byte */
        return overrun(err, 0);
    return 0;
}

int hudi_pq_snappy_stream_fill(pq_snappy_stream *s, size_t upto, hudi_error *err) {
    if (s->finished) return 0;
    size_t len = (size_t)(s->out_end - s->out);
    int rc;
    if (upto >= len) {
        if ((rc = decode_fast(&s->ip, s->in_end, &s->op, s->out, s->out_end, s->out_end, err)) <
                0 ||
            (rc = decode_tail(s->ip, s->in_end, s->op, s->out, s->out_end, err)) < 0)
            return rc;
        s->ip = s->in_end;
        s->op = s->out_end;
        s->finished = true;
        return 0;
    }
    const uint8_t *stop = s->out + upto;
    if (s->op >= stop) return 0;
    if ((rc = decode_fast(&s->ip, s->in_end, &s->op, s->out, s->out_end, stop, err)) < 0) return rc;
    while (s->op < stop && s->ip < s->in_end)
        if ((rc = decode_element(&s->ip, s->in_end, &s->op, s->out, s->out_end, err)) < 0)
            return rc;
    if (s->op < stop)
        return hudi_error_set(err, HUDI_ECORRUPT,
                              "SNAPPY: block decodes to %zu bytes but declares %zu",
                              (size_t)(s->op - s->out), len);
    return 0;
}
