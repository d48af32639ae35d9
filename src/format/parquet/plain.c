/* plain.c - PLAIN encoding for every physical type (docs/formats/parquet.md §2.1) and the
 * byte-array output buffer shared by all byte-array decoders.
 *
 * Fixed-width values are stored exactly as they sit in memory on a little-endian host (INT96
 * passes through as 12-byte values), so decoding is a bounds-checked memcpy. BOOLEAN is a
 * bitmap, LSB first. BYTE_ARRAY is u32le length + bytes per value; every length is checked
 * against the bytes left before anything is copied. */
#include "format/parquet/encoding.h"

int hudi_pq_bytes_reserve(pq_bytes_out *out, int64_t extra, hudi_error *err) {
    if (extra < 0 || out->data_len + extra > INT32_MAX)
        return hudi_error_set(err, HUDI_ENOMEM, "byte array data exceeds 2 GiB in one batch");
    int64_t need = out->data_len + extra + PQ_BYTES_PAD;
    if (need <= out->data_cap) return 0;
    if (out->grow) return out->grow(out, need, err);
    int64_t cap = out->data_cap > 0 ? out->data_cap : 256;
    while (cap < need) cap *= 2;
    if (cap > (int64_t)INT32_MAX + PQ_BYTES_PAD) cap = need;
    uint8_t *p = hudi_realloc(out->data, (size_t)cap);
    if (!p) return hudi_error_oom(err);
    out->data = p;
    out->data_cap = cap;
    return 0;
}

int hudi_pq_plain_decode_fixed(const uint8_t *in, size_t len, int32_t width, int64_t n,
                               uint8_t *out, size_t *consumed, hudi_error *err) {
    size_t bytes;
    if (width <= 0 || n < 0 || hudi_mul_overflow((size_t)n, (size_t)width, &bytes))
        return hudi_error_set(err, HUDI_ECORRUPT, "PLAIN: bad width %d or count %lld", width,
                              (long long)n);
    if (bytes > len)
        return hudi_error_set(err, HUDI_ECORRUPT,
                              "PLAIN: %lld values of %d bytes overrun page (%zu bytes left)",
                              (long long)n, width, len);
    if (bytes) memcpy(out, in, bytes);
    if (consumed) *consumed = bytes;
    return 0;
}

int hudi_pq_plain_decode_bool(const uint8_t *in, size_t len, int64_t first, int64_t n, uint8_t *out,
                              int64_t out_bit, hudi_error *err) {
    if (first < 0 || n < 0 || (uint64_t)first + (uint64_t)n > (uint64_t)len * 8)
        return hudi_error_set(err, HUDI_ECORRUPT, "PLAIN booleans overrun page");
    hudi_pq_copy_bits(out, out_bit, in, first, n);
    return 0;
}

/* One pass: each length is checked against the bytes left before its value is copied, and
 * the output grows (geometrically) only when a value would not fit. A failure leaves `out` as
 * it was on entry. */
int hudi_pq_plain_decode_bytes(const uint8_t *in, size_t len, int64_t n, pq_bytes_out *out,
                               size_t *consumed, hudi_error *err) {
    const int64_t data_len0 = out->data_len;
    int32_t *o = out->offsets + out->count + 1;
    int64_t dpos = out->data_len;
    /* Values may end at `room_end`: within the padded capacity and the 2 GiB limit. Beyond
     * it hudi_pq_bytes_reserve grows the buffer or reports the limit. */
    int64_t room_end = HUDI_MIN(out->data_cap - PQ_BYTES_PAD, (int64_t)INT32_MAX);
    uint8_t *data = out->data;
    size_t q = 0;
    int rc = 0;
    for (int64_t i = 0; i < n; i++) {
        if (len - q < 4) {
            rc = hudi_error_set(err, HUDI_ECORRUPT,
                                "PLAIN byte array %lld: length runs past page end", (long long)i);
            goto fail;
        }
        uint32_t l = hudi_load_u32le(in + q);
        q += 4;
        if (l > len - q) {
            rc = hudi_error_set(err, HUDI_ECORRUPT,
                                "PLAIN byte array %lld: length %u runs past page end", (long long)i,
                                l);
            goto fail;
        }
        if ((int64_t)l > room_end - dpos) {
            out->data_len = dpos; /* keep what is decoded when the buffer moves */
            if ((rc = hudi_pq_bytes_reserve(out, (int64_t)l, err)) < 0) goto fail;
            data = out->data;
            room_end = HUDI_MIN(out->data_cap - PQ_BYTES_PAD, (int64_t)INT32_MAX);
        }
        /* Short values with 64 bytes of input after them are block-copied (the reserve pads
         * the output); long values and the last few of the input use memcpy. */
        if (l <= 64 && len - q >= 64)
            pq_copy_upto64(data + dpos, in + q, l);
        else if (l)
            memcpy(data + dpos, in + q, l);
        q += l;
        dpos += l;
        o[i] = (int32_t)dpos;
    }
    out->data_len = dpos;
    out->count += n;
    if (consumed) *consumed = q;
    return 0;
fail:
    out->data_len = data_len0;
    return rc;
}

int hudi_pq_plain_encode_fixed(hudi_buf *out, const void *values, int32_t width, int64_t n) {
    size_t bytes;
    if (width < 0 || n < 0) return HUDI_EINVAL;
    if (hudi_mul_overflow((size_t)n, (size_t)width, &bytes)) {
        out->failed = true;
        return HUDI_ENOMEM;
    }
    hudi_buf_append(out, values, bytes);
    return hudi_buf_failed(out) ? HUDI_ENOMEM : 0;
}

int hudi_pq_plain_encode_bool(hudi_buf *out, const uint8_t *bits, int64_t bit_offset, int64_t n) {
    if (n < 0) return HUDI_EINVAL;
    size_t bytes = (size_t)(n + 7) / 8;
    if (hudi_buf_grow(out, bytes) < 0) return HUDI_ENOMEM;
    uint8_t *dst = (uint8_t *)out->data + out->len;
    memset(dst, 0, bytes);
    hudi_pq_copy_bits(dst, 0, bits, bit_offset, n);
    out->len += bytes;
    out->data[out->len] = '\0';
    return 0;
}

int hudi_pq_plain_encode_bytes(hudi_buf *out, const int32_t *offsets, const uint8_t *data,
                               int64_t n) {
    if (n < 0) return HUDI_EINVAL;
    size_t bytes = (size_t)n * 4 + (size_t)(offsets[n] - offsets[0]);
    if (hudi_buf_grow(out, bytes) < 0) return HUDI_ENOMEM;
    uint8_t *dst = (uint8_t *)out->data + out->len;
    for (int64_t i = 0; i < n; i++) {
        uint32_t l = (uint32_t)(offsets[i + 1] - offsets[i]);
        hudi_store_u32le(dst, l);
        if (l) memcpy(dst + 4, data + offsets[i], l);
        dst += 4 + l;
    }
    out->len += bytes;
    out->data[out->len] = '\0';
    return 0;
}
