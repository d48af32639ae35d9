/* bss.c - BYTE_STREAM_SPLIT (docs/formats/parquet.md §2.8): for N values of K bytes, K streams of N
 * bytes; stream k holds byte k of every value. Decoding is a byte transpose; widths 2, 4 and 8
 * get loops the compiler can vectorise, any other (FLBA) width a generic one.
 * Invariant: the section is exactly N * K bytes; value i's byte k is at in[k * N + i]. */
#include "format/parquet/encoding.h"

int hudi_pq_bss_decode(const uint8_t *in, size_t len, int32_t width, int64_t first, int64_t n,
                       uint8_t *out, hudi_error *err) {
    if (width <= 0)
        return hudi_error_set(err, HUDI_ECORRUPT, "BYTE_STREAM_SPLIT: bad width %d", width);
    if (len % (size_t)width != 0)
        return hudi_error_set(err, HUDI_ECORRUPT,
                              "BYTE_STREAM_SPLIT: %zu bytes is not a multiple of width %d", len,
                              width);
    const size_t total = len / (size_t)width;
    if (first < 0 || n < 0 || (uint64_t)first + (uint64_t)n > total)
        return hudi_error_set(err, HUDI_ECORRUPT,
                              "BYTE_STREAM_SPLIT: values %lld..%lld overrun page of %zu values",
                              (long long)first, (long long)(first + n), total);
    const uint8_t *s = in + first;
    const size_t N = total;
    switch (width) {
    case 2:
        for (int64_t i = 0; i < n; i++) {
            out[2 * i] = s[i];
            out[2 * i + 1] = s[N + i];
        }
        break;
    case 4:
        for (int64_t i = 0; i < n; i++) {
            uint32_t v = (uint32_t)s[i] | (uint32_t)s[N + i] << 8 | (uint32_t)s[2 * N + i] << 16 |
                         (uint32_t)s[3 * N + i] << 24;
            memcpy(out + 4 * i, &v, 4);
        }
        break;
    case 8:
        for (int64_t i = 0; i < n; i++) {
            uint64_t v = 0;
            for (int k = 0; k < 8; k++) v |= (uint64_t)s[k * N + i] << (8 * k);
            memcpy(out + 8 * i, &v, 8);
        }
        break;
    default:
        for (int32_t k = 0; k < width; k++) {
            const uint8_t *src = s + (size_t)k * N;
            uint8_t *dst = out + k;
            for (int64_t i = 0; i < n; i++) dst[(size_t)i * (size_t)width] = src[i];
        }
    }
    return 0;
}

int hudi_pq_bss_encode(hudi_buf *out, const uint8_t *values, int32_t width, int64_t n) {
    size_t bytes;
    if (width <= 0 || n < 0) return HUDI_EINVAL;
    if (hudi_mul_overflow((size_t)n, (size_t)width, &bytes) || hudi_buf_grow(out, bytes) < 0) {
        out->failed = true;
        return HUDI_ENOMEM;
    }
    uint8_t *dst = (uint8_t *)out->data + out->len;
    for (int32_t k = 0; k < width; k++) {
        uint8_t *d = dst + (size_t)k * (size_t)n;
        for (int64_t i = 0; i < n; i++) d[i] = values[(size_t)i * (size_t)width + (size_t)k];
    }
    out->len += bytes;
    out->data[out->len] = '\0';
    return 0;
}
