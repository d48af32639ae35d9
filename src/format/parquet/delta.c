/* delta.c - DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY
 * (docs/formats/parquet.md §2.5-2.7), decoders and encoders.
 *
 * DELTA_BINARY_PACKED: header (block size, miniblocks per block, total count, zigzag first
 * value), then blocks of (zigzag min delta, one bit-width byte per miniblock, the packed
 * miniblocks). v[i] = v[i-1] + min_delta + packed[i] in wrapping arithmetic. The decoder always
 * computes in 64 bits: INT32 results are the low 32 bits, which equals 32-bit wrapping
 * arithmetic. Invariant: miniblocks hold multiples of 32 values, so the decoder unpacks whole
 * 32-value chunks and only ever needs the bytes of values it actually hands out (a stream whose
 * final miniblock was cut short still decodes). */
#include "format/parquet/encoding.h"

#define MAX_BLOCK_SIZE (1u << 30)

static inline int64_t unzigzag(uint64_t v) { return (int64_t)((v >> 1) ^ (~(v & 1) + 1)); }
static inline uint64_t zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }

int hudi_pq_delta_init(pq_delta_decoder *d, const uint8_t *data, size_t len, bool is32,
                       hudi_error *err) {
    memset(d, 0, offsetof(pq_delta_decoder, buf));
    d->p = d->start = data;
    d->end = len ? data + len : data; /* data may be NULL for an empty stream */
    d->is32 = is32;
    uint64_t bs, mb, total, first;
    if (!pq_read_uleb(&d->p, d->end, 10, &bs) || !pq_read_uleb(&d->p, d->end, 10, &mb) ||
        !pq_read_uleb(&d->p, d->end, 10, &total) || !pq_read_uleb(&d->p, d->end, 10, &first))
        return hudi_error_set(err, HUDI_ECORRUPT, "DELTA_BINARY_PACKED header truncated");
    if (bs == 0 || bs % 128 != 0 || bs > MAX_BLOCK_SIZE)
        return hudi_error_set(err, HUDI_ECORRUPT,
                              "DELTA_BINARY_PACKED block size %llu is not a multiple of 128",
                              (unsigned long long)bs);
    if (mb == 0 || bs % mb != 0 || (bs / mb) % 32 != 0)
        return hudi_error_set(err, HUDI_ECORRUPT,
                              "DELTA_BINARY_PACKED: %llu miniblocks do not split a block of %llu "
                              "into multiples of 32",
                              (unsigned long long)mb, (unsigned long long)bs);
    d->block_size = (uint32_t)bs;
    d->miniblocks = (uint32_t)mb;
    d->mini_size = (uint32_t)(bs / mb);
    d->total = total;
    d->last = (uint64_t)unzigzag(first);
    d->mini_index = d->miniblocks; /* no block loaded yet */
    return 0;
}

static int check_width(const pq_delta_decoder *d, int w, hudi_error *err) {
    if (w > (d->is32 ? 32 : 64))
        return hudi_error_set(err, HUDI_ECORRUPT, "DELTA_BINARY_PACKED bit width %d > %d", w,
                              d->is32 ? 32 : 64);
    return 0;
}

/* Unpacks the next 32 deltas into d->buf, starting a new miniblock or block when needed. */
static int load_chunk(pq_delta_decoder *d, hudi_error *err) {
    if (d->mini_left == 0) {
        if (d->mini_index == d->miniblocks) {
            uint64_t zz;
            if (!pq_read_uleb(&d->p, d->end, 10, &zz))
                return hudi_error_set(err, HUDI_ECORRUPT,
                                      "DELTA_BINARY_PACKED block header truncated");
            if ((size_t)(d->end - d->p) < d->miniblocks)
                return hudi_error_set(err, HUDI_ECORRUPT,
                                      "DELTA_BINARY_PACKED bit widths overrun page");
            d->min_delta = (uint64_t)unzigzag(zz);
            d->widths = d->p;
            d->p += d->miniblocks;
            d->mini_index = 0;
        }
        d->mini_left = d->mini_size;
        d->mini_index++;
    }
    int w = d->widths[d->mini_index - 1];
    int rc = check_width(d, w, err);
    if (rc < 0) return rc;
    /* Only the values still to be handed out must be present. */
    uint64_t want = HUDI_MIN(d->total - d->produced, 32);
    size_t need = (size_t)((want * (uint64_t)w + 7) / 8), avail = (size_t)(d->end - d->p);
    if (avail < need)
        return hudi_error_set(err, HUDI_ECORRUPT, "DELTA_BINARY_PACKED miniblock overruns page");
    hudi_pq_unpack32_u64(d->p, avail, d->buf, w);
    d->p += HUDI_MIN(avail, (size_t)4 * (size_t)w);
    d->mini_left -= 32;
    d->buf_pos = 0;
    d->buf_len = 32;
    return 0;
}

static inline __attribute__((always_inline)) int
next_values(pq_delta_decoder *d, void *out, int64_t n, bool out32, hudi_error *err) {
    if (n < 0 || (uint64_t)n > d->total - d->produced)
        return hudi_error_set(err, HUDI_ECORRUPT,
                              "DELTA_BINARY_PACKED holds %llu more values, %lld wanted",
                              (unsigned long long)(d->total - d->produced), (long long)n);
    int64_t i = 0;
    uint64_t last = d->last;
    if (n > 0 && d->produced == 0) {
        if (out32)
            ((int32_t *)out)[0] = (int32_t)(uint32_t)last;
        else
            ((int64_t *)out)[0] = (int64_t)last;
        i = 1;
    }
    while (i < n) {
        if (d->buf_pos == d->buf_len) {
            d->produced += (uint64_t)i; /* load_chunk sizes by what is still owed */
            int rc = load_chunk(d, err);
            d->produced -= (uint64_t)i;
            if (rc < 0) return rc;
        }
        int64_t k = HUDI_MIN(n - i, d->buf_len - d->buf_pos);
        const uint64_t *b = d->buf + d->buf_pos, md = d->min_delta;
        if (out32) {
            int32_t *o = (int32_t *)out + i;
            for (int64_t j = 0; j < k; j++) {
                last += md + b[j];
                o[j] = (int32_t)(uint32_t)last;
            }
        } else {
            int64_t *o = (int64_t *)out + i;
            for (int64_t j = 0; j < k; j++) {
                last += md + b[j];
                o[j] = (int64_t)last;
            }
        }
        d->buf_pos += (int32_t)k;
        i += k;
    }
    d->last = last;
    d->produced += (uint64_t)n;
    return 0;
}

int hudi_pq_delta_next_i32(pq_delta_decoder *d, int32_t *out, int64_t n, hudi_error *err) {
    return next_values(d, out, n, true, err);
}

int hudi_pq_delta_next_i64(pq_delta_decoder *d, int64_t *out, int64_t n, hudi_error *err) {
    return next_values(d, out, n, false, err);
}

int hudi_pq_delta_stream_len(const uint8_t *data, size_t len, bool is32, size_t *out_len,
                             hudi_error *err) {
    pq_delta_decoder d;
    int rc = hudi_pq_delta_init(&d, data, len, is32, err);
    if (rc < 0) return rc;
    /* Each block consumes at least 1 + miniblocks bytes, so this loop is bounded by len. */
    uint64_t left = d.total > 0 ? d.total - 1 : 0;
    while (left > 0) {
        uint64_t zz;
        if (!pq_read_uleb(&d.p, d.end, 10, &zz) || (size_t)(d.end - d.p) < d.miniblocks)
            return hudi_error_set(err, HUDI_ECORRUPT, "DELTA_BINARY_PACKED block header truncated");
        const uint8_t *widths = d.p;
        d.p += d.miniblocks;
        for (uint32_t m = 0; m < d.miniblocks && left > 0; m++) {
            if ((rc = check_width(&d, widths[m], err)) < 0) return rc;
            size_t bytes = (size_t)d.mini_size / 8 * widths[m];
            if ((size_t)(d.end - d.p) < bytes)
                return hudi_error_set(err, HUDI_ECORRUPT,
                                      "DELTA_BINARY_PACKED miniblock overruns page");
            d.p += bytes;
            left -= HUDI_MIN(left, d.mini_size);
        }
    }
    *out_len = (size_t)(d.p - data);
    return 0;
}

/* ---- DELTA_LENGTH_BYTE_ARRAY ------------------------------------------------------------- */

int hudi_pq_dlba_init(pq_dlba_decoder *d, const uint8_t *data, size_t len, hudi_error *err) {
    size_t l;
    int rc = hudi_pq_delta_stream_len(data, len, true, &l, err);
    if (rc < 0) return rc;
    if ((rc = hudi_pq_delta_init(&d->lengths, data, l, true, err)) < 0) return rc;
    d->data = data + l;
    d->data_end = data + len;
    return 0;
}

/* Next `n` lengths into `lens`, checking they are >= 0 and their bytes are present;
 * *total receives their sum. */
static int next_lengths(pq_dlba_decoder *d, int32_t *lens, int64_t n, int64_t *total,
                        hudi_error *err) {
    int rc = hudi_pq_delta_next_i32(&d->lengths, lens, n, err);
    if (rc < 0) return rc;
    int64_t t = 0;
    int32_t min = 0;
    for (int64_t j = 0; j < n; j++) {
        t += lens[j];
        min = lens[j] < min ? lens[j] : min;
    }
    if (min < 0)
        return hudi_error_set(err, HUDI_ECORRUPT, "DELTA_LENGTH_BYTE_ARRAY negative length %d",
                              min);
    if (t > d->data_end - d->data)
        return hudi_error_set(err, HUDI_ECORRUPT, "DELTA_LENGTH_BYTE_ARRAY data overruns page");
    *total = t;
    return 0;
}

int hudi_pq_dlba_next(pq_dlba_decoder *d, int64_t n, pq_bytes_out *out, hudi_error *err) {
    int32_t lens[256];
    while (n > 0) {
        int64_t k = HUDI_MIN(n, 256), total = 0;
        int rc = next_lengths(d, lens, k, &total, err);
        if (rc < 0) return rc;
        if ((rc = hudi_pq_bytes_reserve(out, total, err)) < 0) return rc;
        /* The values are contiguous: one copy, then offsets by prefix sum. */
        if (total) memcpy(out->data + out->data_len, d->data, (size_t)total);
        d->data += total;
        int32_t *o = out->offsets + out->count + 1;
        int64_t pos = out->data_len;
        for (int64_t j = 0; j < k; j++) {
            pos += lens[j];
            o[j] = (int32_t)pos;
        }
        out->data_len = pos;
        out->count += k;
        n -= k;
    }
    return 0;
}

/* ---- DELTA_BYTE_ARRAY ---------------------------------------------------------------------- */

int hudi_pq_dba_init(pq_dba_decoder *d, const uint8_t *data, size_t len, hudi_error *err) {
    size_t l;
    d->prev_len = 0; /* the previous value starts empty at every page */
    int rc = hudi_pq_delta_stream_len(data, len, true, &l, err);
    if (rc < 0) return rc;
    if ((rc = hudi_pq_delta_init(&d->prefixes, data, l, true, err)) < 0) return rc;
    return hudi_pq_dlba_init(&d->suffixes, data + l, len - l, err);
}

void hudi_pq_dba_dispose(pq_dba_decoder *d) {
    hudi_free(d->prev);
    d->prev = NULL;
    d->prev_len = d->prev_cap = 0;
}

static int save_prev(pq_dba_decoder *d, const uint8_t *v, size_t len, hudi_error *err) {
    if (len > d->prev_cap) {
        size_t cap = HUDI_MAX(len, 2 * d->prev_cap);
        uint8_t *p = hudi_realloc(d->prev, cap);
        if (!p) return hudi_error_oom(err);
        d->prev = p;
        d->prev_cap = cap;
    }
    if (len) memcpy(d->prev, v, len);
    d->prev_len = len;
    return 0;
}

static int bad_prefix(hudi_error *err, int32_t pre, int64_t prev_len) {
    return hudi_error_set(err, HUDI_ECORRUPT,
                          "DELTA_BYTE_ARRAY prefix %d > previous value length %lld", pre,
                          (long long)prev_len);
}

/* Next `k` prefix and suffix lengths, validated before anything is allocated or copied: each
 * prefix fits in the value before it (*prev_len on entry, the last value's length on return).
 * *total = bytes of the k values. */
static int next_pairs(pq_dba_decoder *d, int32_t *pre, int32_t *suf, int64_t k, int64_t *prev_len,
                      int64_t *total, hudi_error *err) {
    int64_t suf_total = 0, t = 0, prev = *prev_len;
    int rc = hudi_pq_delta_next_i32(&d->prefixes, pre, k, err);
    if (rc < 0 || (rc = next_lengths(&d->suffixes, suf, k, &suf_total, err)) < 0) return rc;
    for (int64_t j = 0; j < k; j++) {
        if (pre[j] < 0)
            return hudi_error_set(err, HUDI_ECORRUPT, "DELTA_BYTE_ARRAY negative prefix %d",
                                  pre[j]);
        if (pre[j] > prev) return bad_prefix(err, pre[j], prev);
        prev = (int64_t)pre[j] + suf[j];
        t += prev;
    }
    *prev_len = prev;
    *total = t;
    return 0;
}

int hudi_pq_dba_next(pq_dba_decoder *d, int64_t n, pq_bytes_out *out, hudi_error *err) {
    int32_t pre[256], suf[256];
    int64_t prev_off = -1, prev_len = (int64_t)d->prev_len; /* -1: previous is d->prev */
    int64_t first_count = out->count;
    while (n > 0) {
        int64_t k = HUDI_MIN(n, 256), total = 0, last_len = prev_len;
        int rc = next_pairs(d, pre, suf, k, &last_len, &total, err);
        if (rc < 0 || (rc = hudi_pq_bytes_reserve(out, total, err)) < 0) return rc;
        int32_t *o = out->offsets + out->count + 1;
        uint8_t *data = out->data;
        int64_t pos = out->data_len;
        for (int64_t j = 0; j < k; j++) {
            /* The previous value ends where this one starts: the copies never overlap. */
            if (pre[j])
                memcpy(data + pos, prev_off < 0 ? d->prev : data + prev_off, (size_t)pre[j]);
            if (suf[j]) memcpy(data + pos + pre[j], d->suffixes.data, (size_t)suf[j]);
            d->suffixes.data += suf[j];
            prev_off = pos;
            prev_len = (int64_t)pre[j] + suf[j];
            pos += prev_len;
            o[j] = (int32_t)pos;
        }
        out->data_len = pos;
        out->count += k;
        n -= k;
    }
    if (out->count > first_count)
        return save_prev(d, prev_len ? out->data + prev_off : NULL, (size_t)prev_len, err);
    return 0;
}

int hudi_pq_dba_next_fixed(pq_dba_decoder *d, int64_t n, int32_t width, uint8_t *out,
                           hudi_error *err) {
    int32_t pre[256], suf[256];
    const uint8_t *prev = d->prev;
    int64_t prev_len = (int64_t)d->prev_len;
    uint8_t *o = out;
    if (width <= 0) return hudi_error_set(err, HUDI_ECORRUPT, "FLBA width %d", width);
    while (n > 0) {
        int64_t k = HUDI_MIN(n, 256), total = 0;
        int rc = next_pairs(d, pre, suf, k, &prev_len, &total, err);
        if (rc < 0) return rc;
        for (int64_t j = 0; j < k; j++) {
            if ((int64_t)pre[j] + suf[j] != width)
                return hudi_error_set(err, HUDI_ECORRUPT,
                                      "DELTA_BYTE_ARRAY value of %lld bytes in FLBA(%d) column",
                                      (long long)pre[j] + suf[j], width);
            if (pre[j]) memcpy(o, prev, (size_t)pre[j]);
            if (suf[j]) memcpy(o + pre[j], d->suffixes.data, (size_t)suf[j]);
            d->suffixes.data += suf[j];
            prev = o;
            o += width;
        }
        n -= k;
    }
    if (o != out) return save_prev(d, prev, (size_t)width, err);
    return 0;
}

/* ---- encoders ------------------------------------------------------------------------------ */

#define ENC_BLOCK 128
#define ENC_MINIS 4
#define ENC_MINI (ENC_BLOCK / ENC_MINIS)

static inline int64_t value_at(const void *values, bool is32, int64_t i) {
    return is32 ? ((const int32_t *)values)[i] : ((const int64_t *)values)[i];
}

/* Delta of v[i] from v[i-1] in the column's wrapping arithmetic, as a signed value. */
static inline int64_t delta_at(const void *values, bool is32, int64_t i) {
    if (is32) {
        const int32_t *v = values;
        return (int32_t)((uint32_t)v[i] - (uint32_t)v[i - 1]);
    }
    const int64_t *v = values;
    return (int64_t)((uint64_t)v[i] - (uint64_t)v[i - 1]);
}

static int delta_encode(hudi_buf *out, const void *values, int64_t n, bool is32) {
    if (n < 0) return HUDI_EINVAL;
    hudi_pq_write_uleb(out, ENC_BLOCK);
    hudi_pq_write_uleb(out, ENC_MINIS);
    hudi_pq_write_uleb(out, (uint64_t)n);
    hudi_pq_write_uleb(out, zigzag(n > 0 ? value_at(values, is32, 0) : 0));
    for (int64_t start = 1; start < n; start += ENC_BLOCK) {
        int64_t k = HUDI_MIN(n - start, ENC_BLOCK), min = INT64_MAX;
        int64_t deltas[ENC_BLOCK];
        uint64_t rel[ENC_BLOCK] = {0}; /* zero padding fills the last miniblock */
        for (int64_t j = 0; j < k; j++) {
            deltas[j] = delta_at(values, is32, start + j);
            min = deltas[j] < min ? deltas[j] : min;
        }
        for (int64_t j = 0; j < k; j++) rel[j] = (uint64_t)deltas[j] - (uint64_t)min;
        hudi_pq_write_uleb(out, zigzag(min));
        uint8_t widths[ENC_MINIS] = {0};
        int used = (int)((k + ENC_MINI - 1) / ENC_MINI);
        for (int m = 0; m < used; m++) {
            uint64_t all = 0;
            for (int j = 0; j < ENC_MINI; j++) all |= rel[m * ENC_MINI + j];
            widths[m] = (uint8_t)pq_bit_width(all);
        }
        hudi_buf_append(out, widths, ENC_MINIS);
        for (int m = 0; m < used; m++) {
            size_t bytes = (size_t)ENC_MINI / 8 * widths[m];
            if (hudi_buf_grow(out, bytes) < 0) return HUDI_ENOMEM;
            hudi_pq_pack_u64(rel + m * ENC_MINI, ENC_MINI, widths[m],
                             (uint8_t *)out->data + out->len);
            out->len += bytes;
            out->data[out->len] = '\0';
        }
    }
    return hudi_buf_failed(out) ? HUDI_ENOMEM : 0;
}

int hudi_pq_delta_encode_i32(hudi_buf *out, const int32_t *values, int64_t n) {
    return delta_encode(out, values, n, true);
}

int hudi_pq_delta_encode_i64(hudi_buf *out, const int64_t *values, int64_t n) {
    return delta_encode(out, values, n, false);
}

int hudi_pq_dlba_encode(hudi_buf *out, const int32_t *offsets, const uint8_t *data, int64_t n) {
    if (n < 0) return HUDI_EINVAL;
    int32_t *lens = hudi_malloc((size_t)(n ? n : 1) * sizeof(int32_t));
    if (!lens) {
        out->failed = true;
        return HUDI_ENOMEM;
    }
    for (int64_t i = 0; i < n; i++) lens[i] = offsets[i + 1] - offsets[i];
    int rc = delta_encode(out, lens, n, true);
    hudi_free(lens);
    if (rc < 0) return rc;
    if (offsets[n] > offsets[0])
        hudi_buf_append(out, data + offsets[0], (size_t)(offsets[n] - offsets[0]));
    return hudi_buf_failed(out) ? HUDI_ENOMEM : 0;
}

int hudi_pq_dba_encode(hudi_buf *out, const int32_t *offsets, const uint8_t *data, int32_t width,
                       int64_t n) {
    if (n < 0 || (!offsets && width <= 0)) return HUDI_EINVAL;
    int32_t *pre = hudi_malloc((size_t)(n ? n : 1) * 2 * sizeof(int32_t)), *suf;
    if (!pre) {
        out->failed = true;
        return HUDI_ENOMEM;
    }
    suf = pre + n;
#define VAL(i) (offsets ? data + offsets[i] : data + (size_t)(i) * (size_t)width)
#define LEN(i) (offsets ? offsets[(i) + 1] - offsets[i] : width)
    for (int64_t i = 0; i < n; i++) {
        int32_t p = 0;
        if (i > 0) {
            const uint8_t *a = VAL(i - 1), *b = VAL(i);
            int32_t lim = HUDI_MIN(LEN(i - 1), LEN(i));
            while (p < lim && a[p] == b[p]) p++;
        }
        pre[i] = p;
        suf[i] = LEN(i) - p;
    }
    int rc = delta_encode(out, pre, n, true);
    if (rc == 0) rc = delta_encode(out, suf, n, true);
    if (rc == 0) {
        size_t total = 0;
        for (int64_t i = 0; i < n; i++) total += (size_t)suf[i];
        if (hudi_buf_grow(out, total) == 0) {
            uint8_t *dst = (uint8_t *)out->data + out->len;
            for (int64_t i = 0; i < n; i++) {
                if (suf[i]) memcpy(dst, VAL(i) + pre[i], (size_t)suf[i]);
                dst += suf[i];
            }
            out->len += total;
            out->data[out->len] = '\0';
        }
    }
#undef VAL
#undef LEN
    hudi_free(pre);
    return hudi_buf_failed(out) ? HUDI_ENOMEM : rc;
}
