/* rle.c - the RLE/bit-packing hybrid (docs/formats/parquet.md §2.2): levels, dictionary indices and
 * RLE booleans; dictionary gathers (§2.4); deprecated MSB-first BIT_PACKED levels (§2.3); and
 * the hybrid encoder.
 *
 * Stream: run*, run := varint(count << 1) value[ceil(w/8)] | varint(groups << 1 | 1) packed.
 * Invariant of the decoder: at most one of {buffered values, RLE run, packed run} is active;
 * a packed run's position is always on a group boundary (8 values = w bytes), so the packed
 * bytes at `p` can be unpacked directly. Every header yields at least one value (count-0 runs
 * are rejected), so decoding always progresses or fails. */
#include "format/parquet/encoding.h"

#define CHUNK 1024 /* indices decoded per gather step (4 KiB of stack) */

int hudi_pq_rle_init(pq_rle_decoder *d, const uint8_t *data, size_t len, int bit_width,
                     hudi_error *err) {
    memset(d, 0, offsetof(pq_rle_decoder, buf));
    if (bit_width < 0 || bit_width > 32)
        return hudi_error_set(err, HUDI_ECORRUPT, "bit width %d > 32", bit_width);
    d->p = data;
    d->end = len ? data + len : data; /* data may be NULL for an empty stream */
    d->bit_width = bit_width;
    d->value_bytes = (bit_width + 7) / 8;
    return 0;
}

int hudi_pq_rle_init_dict(pq_rle_decoder *d, const uint8_t *data, size_t len, hudi_error *err) {
    if (len < 1)
        return hudi_error_set(err, HUDI_ECORRUPT, "dictionary index page has no bit width byte");
    return hudi_pq_rle_init(d, data + 1, len - 1, data[0], err);
}

static int read_header(pq_rle_decoder *d, hudi_error *err) {
    uint64_t h;
    if (d->p >= d->end)
        return hudi_error_set(err, HUDI_ECORRUPT, "RLE/bit-packed data ends before all values");
    if (!pq_read_uleb(&d->p, d->end, 5, &h))
        return hudi_error_set(err, HUDI_ECORRUPT,
                              "RLE/bit-packed run header truncated or too long");
    if (h & 1) {
        if ((h >> 1) == 0)
            return hudi_error_set(err, HUDI_ECORRUPT, "bit-packed run with 0 values");
        d->packed_left = (int64_t)(h >> 1) * 8;
        return 0;
    }
    if ((h >> 1) == 0) return hudi_error_set(err, HUDI_ECORRUPT, "RLE run with count 0");
    if (d->end - d->p < d->value_bytes)
        return hudi_error_set(err, HUDI_ECORRUPT, "RLE run overruns page");
    uint32_t v = 0;
    for (int k = 0; k < d->value_bytes; k++) v |= (uint32_t)d->p[k] << (8 * k);
    d->p += d->value_bytes;
    if (d->bit_width < 32 && (v >> d->bit_width) != 0)
        return hudi_error_set(err, HUDI_ECORRUPT, "RLE value %u exceeds bit width %d", v,
                              d->bit_width);
    d->rle_value = v;
    d->rle_left = (int64_t)(h >> 1);
    return 0;
}

/* Unpacks the next group(s) of the current packed run (at most 32 values) into d->buf. A run
 * whose final groups are cut short by the end of the stream (writers that did not pad) still
 * yields the whole values present. */
static int fill_packed(pq_rle_decoder *d, hudi_error *err) {
    int64_t m = HUDI_MIN(d->packed_left, 32);
    size_t need = (size_t)m * (size_t)d->bit_width / 8;
    size_t avail = (size_t)(d->end - d->p);
    if (avail >= need) {
        hudi_pq_unpack32_u32(d->p, avail, d->buf, d->bit_width);
        d->p += need;
        d->packed_left -= m;
    } else {
        m = (int64_t)(avail * 8 / (size_t)d->bit_width); /* bit_width > 0 since need > 0 */
        if (m == 0) return hudi_error_set(err, HUDI_ECORRUPT, "bit-packed run overruns page");
        hudi_pq_unpack_u32(d->p, avail, d->buf, m, d->bit_width);
        d->p = d->end;
        d->packed_left = 0;
    }
    d->buf_pos = 0;
    d->buf_len = (int32_t)m;
    return 0;
}

/* The next piece of at most `max` values: either a run (*run_len > 0, value *run_value) or
 * *lit_len literal values written to `lit`. */
static int next_piece(pq_rle_decoder *d, int64_t max, uint32_t *lit, int64_t *lit_len,
                      int64_t *run_len, uint32_t *run_value, hudi_error *err) {
    *lit_len = *run_len = 0;
    for (;;) {
        if (d->buf_pos < d->buf_len) {
            int64_t k = HUDI_MIN(max, d->buf_len - d->buf_pos);
            memcpy(lit, d->buf + d->buf_pos, (size_t)k * sizeof(uint32_t));
            d->buf_pos += (int32_t)k;
            *lit_len = k;
            return 0;
        }
        if (d->rle_left > 0) {
            int64_t k = HUDI_MIN(max, d->rle_left);
            d->rle_left -= k;
            *run_len = k;
            *run_value = d->rle_value;
            return 0;
        }
        if (d->packed_left > 0) {
            /* Whole 32-value chunks go straight to the caller. */
            int64_t k = HUDI_MIN(max, d->packed_left) & ~(int64_t)31;
            size_t avail = (size_t)(d->end - d->p);
            size_t need = (size_t)k * (size_t)d->bit_width / 8;
            if (k > 0 && need <= avail) {
                hudi_pq_unpack_u32(d->p, avail, lit, k, d->bit_width);
                d->p += need;
                d->packed_left -= k;
                *lit_len = k;
                return 0;
            }
            int rc = fill_packed(d, err);
            if (rc < 0) return rc;
            continue;
        }
        int rc = read_header(d, err);
        if (rc < 0) return rc;
    }
}

int hudi_pq_rle_next_u32(pq_rle_decoder *d, uint32_t *out, int64_t n, hudi_error *err) {
    int64_t i = 0;
    while (i < n) {
        int64_t lit, run;
        uint32_t v;
        int rc = next_piece(d, n - i, out + i, &lit, &run, &v, err);
        if (rc < 0) return rc;
        if (run) {
            for (int64_t j = 0; j < run; j++) out[i + j] = v;
            i += run;
        } else {
            i += lit;
        }
    }
    return 0;
}

int hudi_pq_rle_next_i16(pq_rle_decoder *d, int16_t *out, int64_t n, hudi_error *err) {
    if (d->bit_width > 15)
        return hudi_error_set(err, HUDI_ECORRUPT, "level bit width %d > 15", d->bit_width);
    uint32_t tmp[256];
    int64_t i = 0;
    while (i < n) {
        int64_t lit, run;
        uint32_t v;
        int rc = next_piece(d, HUDI_MIN(n - i, 256), tmp, &lit, &run, &v, err);
        if (rc < 0) return rc;
        if (run) {
            for (int64_t j = 0; j < run; j++) out[i + j] = (int16_t)v;
            i += run;
        } else {
            for (int64_t j = 0; j < lit; j++) out[i + j] = (int16_t)tmp[j];
            i += lit;
        }
    }
    return 0;
}

int hudi_pq_rle_next_bool(pq_rle_decoder *d, uint8_t *out, int64_t out_bit, int64_t n,
                          hudi_error *err) {
    if (d->bit_width != 1)
        return hudi_error_set(err, HUDI_ECORRUPT, "RLE boolean bit width %d != 1", d->bit_width);
    uint32_t tmp[256];
    int64_t i = 0;
    while (i < n) {
        /* A packed run of width 1 already is a bitmap: copy whole groups as bits. */
        if (d->buf_pos == d->buf_len && d->rle_left == 0 && d->packed_left > 0) {
            int64_t k = HUDI_MIN(n - i, d->packed_left) & ~(int64_t)7;
            if (k > 0 && (size_t)(d->end - d->p) >= (size_t)k / 8) {
                hudi_pq_copy_bits(out, out_bit + i, d->p, 0, k);
                d->p += k / 8;
                d->packed_left -= k;
                i += k;
                continue;
            }
        }
        int64_t lit, run;
        uint32_t v;
        int rc = next_piece(d, HUDI_MIN(n - i, 256), tmp, &lit, &run, &v, err);
        if (rc < 0) return rc;
        if (run) {
            hudi_pq_fill_bits(out, out_bit + i, run, v != 0);
            i += run;
        } else {
            for (int64_t j = 0; j < lit; j++) {
                int64_t b = out_bit + i + j;
                out[b >> 3] =
                    (uint8_t)((out[b >> 3] & ~(1u << (b & 7))) | ((tmp[j] & 1u) << (b & 7)));
            }
            i += lit;
        }
    }
    return 0;
}

int hudi_pq_rle_skip(pq_rle_decoder *d, int64_t n, hudi_error *err) {
    uint32_t tmp[256];
    while (n > 0) {
        /* Whole groups of a packed run are skipped without unpacking. */
        if (d->buf_pos == d->buf_len && d->rle_left == 0 && d->packed_left > 0) {
            int64_t k = HUDI_MIN(n, d->packed_left) & ~(int64_t)7;
            size_t need = (size_t)k * (size_t)d->bit_width / 8;
            if (k > 0 && (size_t)(d->end - d->p) >= need) {
                d->p += need;
                d->packed_left -= k;
                n -= k;
                continue;
            }
        }
        int64_t lit, run;
        uint32_t v;
        int rc = next_piece(d, HUDI_MIN(n, 256), tmp, &lit, &run, &v, err);
        if (rc < 0) return rc;
        n -= run + lit;
    }
    return 0;
}

int hudi_pq_rle_consume_run(pq_rle_decoder *d, int64_t n, uint32_t value, hudi_error *err) {
    if (d->buf_pos < d->buf_len || d->packed_left > 0) return 0;
    const uint8_t *save_p = d->p;
    int64_t save_left = d->rle_left;
    uint32_t save_value = d->rle_value;
    int64_t left = n;
    while (left > 0) {
        /* Errors are not reported here: the slow path that follows will report them. */
        if (d->rle_left == 0 && (read_header(d, NULL) < 0 || d->packed_left > 0)) goto no;
        if (d->rle_value != value) goto no;
        int64_t k = HUDI_MIN(left, d->rle_left);
        d->rle_left -= k;
        left -= k;
    }
    return 1;
no:
    d->p = save_p;
    d->rle_left = save_left;
    d->rle_value = save_value;
    d->packed_left = 0;
    return 0;
}

int hudi_pq_rle_parse_prefix(const uint8_t *in, size_t len, const uint8_t **runs, size_t *runs_len,
                             size_t *consumed, hudi_error *err) {
    if (len < 4)
        return hudi_error_set(err, HUDI_ECORRUPT, "RLE length prefix truncated (%zu bytes)", len);
    uint32_t n = hudi_load_u32le(in);
    if (n > len - 4)
        return hudi_error_set(err, HUDI_ECORRUPT, "RLE length %u overruns page (%zu bytes left)", n,
                              len - 4);
    *runs = in + 4;
    *runs_len = n;
    if (consumed) *consumed = 4 + (size_t)n;
    return 0;
}

/* ---- dictionary gathers ----------------------------------------------------------------- */

static int bad_index(hudi_error *err, uint32_t idx, int64_t n) {
    return hudi_error_set(err, HUDI_ECORRUPT, "dictionary index %u >= dictionary size %lld", idx,
                          (long long)n);
}

static inline uint32_t max_u32(const uint32_t *v, int64_t n) {
    uint32_t m = 0;
    for (int64_t i = 0; i < n; i++) m = v[i] > m ? v[i] : m;
    return m;
}

int hudi_pq_rle_gather_fixed(pq_rle_decoder *d, const pq_dict *dict, int64_t n, uint8_t *out,
                             hudi_error *err) {
    uint32_t idx[CHUNK];
    const size_t w = (size_t)dict->width;
    const uint8_t *vals = dict->values;
    int64_t i = 0;
    while (i < n) {
        int64_t lit, run;
        uint32_t v;
        int rc = next_piece(d, HUDI_MIN(n - i, CHUNK), idx, &lit, &run, &v, err);
        if (rc < 0) return rc;
        uint8_t *o = out + (size_t)i * w;
        if (run) {
            if (v >= dict->n) return bad_index(err, v, dict->n);
            const uint8_t *src = vals + (size_t)v * w;
            if (w == 4) {
                uint32_t x = hudi_load_u32le(src);
                for (int64_t j = 0; j < run; j++) memcpy(o + 4 * j, &x, 4);
            } else if (w == 8) {
                uint64_t x = hudi_load_u64le(src);
                for (int64_t j = 0; j < run; j++) memcpy(o + 8 * j, &x, 8);
            } else {
                for (int64_t j = 0; j < run; j++) memcpy(o + (size_t)j * w, src, w);
            }
            i += run;
            continue;
        }
        /* One bound check per chunk keeps the gather loop branch-free. */
        uint32_t m = max_u32(idx, lit);
        if (m >= dict->n) return bad_index(err, m, dict->n);
        if (w == 4) {
            for (int64_t j = 0; j < lit; j++) memcpy(o + 4 * j, vals + 4 * (size_t)idx[j], 4);
        } else if (w == 8) {
            for (int64_t j = 0; j < lit; j++) memcpy(o + 8 * j, vals + 8 * (size_t)idx[j], 8);
        } else {
            for (int64_t j = 0; j < lit; j++) memcpy(o + (size_t)j * w, vals + idx[j] * w, w);
        }
        i += lit;
    }
    return 0;
}

/* Largest output a gather reserves from the dictionary's longest entry rather than the sum of
 * the gathered lengths; beyond it (long entries) the exact sum avoids over-allocating. */
#define MAX_BOUND_RESERVE ((int64_t)1 << 20)

/* Appends entries idx[0..lit) at data + pos copying `block` bytes for each (>= every entry's
 * length; the dictionary and the output both have 64 bytes of slack). Returns the new pos. */
static inline int64_t gather_in_blocks(uint8_t *data, int64_t pos, const uint8_t *dd,
                                       const int32_t *off, const uint32_t *idx, int64_t lit,
                                       int32_t *o, size_t block) {
    for (int64_t j = 0; j < lit; j++) {
        int32_t a = off[idx[j]];
        memcpy(data + pos, dd + a, block);
        pos += off[idx[j] + 1] - a;
        o[j] = (int32_t)pos;
    }
    return pos;
}

int hudi_pq_rle_gather_bytes(pq_rle_decoder *d, const pq_dict *dict, int64_t n, pq_bytes_out *out,
                             hudi_error *err) {
    uint32_t idx[CHUNK];
    const int32_t *off = dict->offsets;
    /* With >= 64 readable bytes after the dictionary data, a block copy of any entry stays
     * inside it; hudi_pq_bytes_reserve gives the output the same slack. */
    const bool blocks = dict->data_pad >= 64;
    /* One reservation up front when it is exact (a one-entry dictionary: a constant column) or
     * small: growing the output piece by piece copies what it holds at every doubling. */
    if (dict->max_len > 0 && (dict->n == 1 || n * (int64_t)dict->max_len <= MAX_BOUND_RESERVE)) {
        int rc = hudi_pq_bytes_reserve(out, n * (int64_t)dict->max_len, err);
        if (rc < 0) return rc;
    }
    int64_t i = 0;
    while (i < n) {
        int64_t lit, run;
        uint32_t v;
        int rc = next_piece(d, HUDI_MIN(n - i, CHUNK), idx, &lit, &run, &v, err);
        if (rc < 0) return rc;
        int32_t *o = out->offsets + out->count + 1;
        if (run) {
            if (v >= dict->n) return bad_index(err, v, dict->n);
            int64_t len = (int64_t)off[v + 1] - off[v];
            if ((rc = hudi_pq_bytes_reserve(out, len * run, err)) < 0) return rc;
            if (len > 0) {
                const uint8_t *src = dict->data + off[v];
                uint8_t *dst = out->data + out->data_len;
                if (blocks && len <= 64) {
                    for (int64_t j = 0; j < run; j++)
                        pq_copy_upto64(dst + j * len, src, (size_t)len);
                } else {
                    for (int64_t j = 0; j < run; j++) memcpy(dst + j * len, src, (size_t)len);
                }
            }
            for (int64_t j = 0; j < run; j++) o[j] = (int32_t)(out->data_len + (j + 1) * len);
            out->data_len += len * run;
            out->count += run;
            i += run;
            continue;
        }
        uint32_t m = max_u32(idx, lit);
        if (m >= dict->n) return bad_index(err, m, dict->n);
        int64_t total = 0;
        if (dict->max_len > 0 && lit * (int64_t)dict->max_len <= MAX_BOUND_RESERVE) {
            total = lit * (int64_t)dict->max_len; /* a bound: saves a pass over the indices */
        } else {
            for (int64_t j = 0; j < lit; j++) total += (int64_t)off[idx[j] + 1] - off[idx[j]];
        }
        if ((rc = hudi_pq_bytes_reserve(out, total, err)) < 0) return rc;
        uint8_t *data = out->data;
        const uint8_t *dd = dict->data;
        int64_t pos = out->data_len;
        /* A dictionary whose entries all fit in 1-4 blocks copies that many for every value:
         * one fixed-size copy, no branch on the length. */
        int blocks_each =
            blocks && dict->max_len > 0 && dict->max_len <= 64 ? (dict->max_len + 15) / 16 : 0;
        if (blocks_each == 1) {
            pos = gather_in_blocks(data, pos, dd, off, idx, lit, o, 16);
        } else if (blocks_each == 2) {
            pos = gather_in_blocks(data, pos, dd, off, idx, lit, o, 32);
        } else if (blocks_each == 3) {
            pos = gather_in_blocks(data, pos, dd, off, idx, lit, o, 48);
        } else if (blocks_each == 4) {
            pos = gather_in_blocks(data, pos, dd, off, idx, lit, o, 64);
        } else if (blocks) {
            for (int64_t j = 0; j < lit; j++) {
                int32_t a = off[idx[j]], len = off[idx[j] + 1] - a;
                if (len <= 64)
                    pq_copy_upto64(data + pos, dd + a, (size_t)len);
                else
                    memcpy(data + pos, dd + a, (size_t)len);
                pos += len;
                o[j] = (int32_t)pos;
            }
        } else {
            for (int64_t j = 0; j < lit; j++) {
                int32_t a = off[idx[j]], len = off[idx[j] + 1] - a;
                if (len) memcpy(data + pos, dd + a, (size_t)len);
                pos += len;
                o[j] = (int32_t)pos;
            }
        }
        out->data_len = pos;
        out->count += lit;
        i += lit;
    }
    return 0;
}

/* ---- deprecated BIT_PACKED (MSB first) --------------------------------------------------- */

int hudi_pq_bitpacked_decode_i16(const uint8_t *in, size_t len, int w, int64_t first, int64_t n,
                                 int16_t *out, hudi_error *err) {
    if (w < 0 || w > 15)
        return hudi_error_set(err, HUDI_ECORRUPT, "BIT_PACKED level bit width %d > 15", w);
    if (first < 0 || n < 0 || pq_bitpacked_size(first + n, w) > len)
        return hudi_error_set(err, HUDI_ECORRUPT, "BIT_PACKED levels overrun page");
    if (w == 0) {
        memset(out, 0, (size_t)n * sizeof(int16_t));
        return 0;
    }
    const uint32_t mask = (1u << w) - 1;
    for (int64_t i = 0; i < n; i++) {
        uint64_t bit = (uint64_t)(first + i) * (uint64_t)w;
        size_t b = (size_t)(bit >> 3);
        /* A value of <= 15 bits spans at most 3 bytes; bytes past the end read as 0. */
        uint32_t win = (uint32_t)in[b] << 16;
        if (b + 1 < len) win |= (uint32_t)in[b + 1] << 8;
        if (b + 2 < len) win |= in[b + 2];
        out[i] = (int16_t)((win >> (24 - (bit & 7) - (unsigned)w)) & mask);
    }
    return 0;
}

/* ---- encoder ------------------------------------------------------------------------------- */

#define MAX_LITERAL (63 * 8) /* parquet-mr's limit: the header fits in one varint byte */

static void put_rle_run(hudi_buf *out, uint32_t v, int64_t count, int w) {
    hudi_pq_write_uleb(out, (uint64_t)count << 1);
    uint8_t b[4];
    hudi_store_u32le(b, v);
    hudi_buf_append(out, b, (size_t)(w + 7) / 8);
}

/* Input kinds of the encoder; `kind` is a constant in each caller, so the always-inlined
 * encoder is specialised and `get` compiles to a plain load. */
enum { IN_U32, IN_I16, IN_BIT };

static inline __attribute__((always_inline)) uint32_t get(const void *src, int kind, int64_t i) {
    switch (kind) {
    case IN_U32: return ((const uint32_t *)src)[i];
    case IN_I16: return (uint16_t)((const int16_t *)src)[i];
    default: return (((const uint8_t *)src)[i >> 3] >> (i & 7)) & 1;
    }
}

/* Emits `n` literal values from index `at` as packed runs of <= 63 groups, zero-padding the
 * last group. */
static inline __attribute__((always_inline)) void
put_literals(hudi_buf *out, const void *src, int kind, int64_t at, int64_t n, int w) {
    uint32_t tmp[MAX_LITERAL];
    while (n > 0) {
        int64_t k = HUDI_MIN(n, MAX_LITERAL);
        int64_t groups = (k + 7) / 8;
        hudi_pq_write_uleb(out, (uint64_t)groups << 1 | 1);
        size_t bytes = (size_t)groups * (size_t)w;
        if (hudi_buf_grow(out, bytes) < 0) return;
        for (int64_t j = 0; j < k; j++) tmp[j] = get(src, kind, at + j);
        uint8_t *dst = (uint8_t *)out->data + out->len;
        memset(dst, 0, bytes);
        hudi_pq_pack_u32(tmp, k, w, dst);
        out->len += bytes;
        out->data[out->len] = '\0';
        at += k;
        n -= k;
    }
}

/* Runs of >= 8 equal values become RLE runs. A packed run must hold a multiple of 8 values,
 * so before an RLE run the pending literals are topped up to a group boundary with the run's
 * first values. Literals are kept contiguous: they start at `lit` and are `nlit` long. For
 * bitmaps, `src` is pre-offset by whole bytes and `base` is the remaining bit offset. */
static inline __attribute__((always_inline)) int encode(hudi_buf *out, const void *src, int kind,
                                                        int64_t base, int64_t n, int w) {
    int64_t lit = base, nlit = 0, i = base, end = base + n;
    while (i < end) {
        uint32_t x = get(src, kind, i);
        int64_t j = i + 1;
        while (j < end && get(src, kind, j) == x) j++;
        int64_t run = j - i;
        if (run >= 8 && nlit % 8 != 0) {
            int64_t take = 8 - nlit % 8;
            nlit += take;
            i += take;
            run -= take;
        }
        if (run >= 8) {
            put_literals(out, src, kind, lit, nlit, w);
            put_rle_run(out, x, run, w);
            i += run;
            lit = i;
            nlit = 0;
            continue;
        }
        nlit += run;
        i += run;
    }
    put_literals(out, src, kind, lit, nlit, w);
    return hudi_buf_failed(out) ? HUDI_ENOMEM : 0;
}

int hudi_pq_rle_encode_u32(hudi_buf *out, const uint32_t *values, int64_t n, int bit_width) {
    return encode(out, values, IN_U32, 0, n, bit_width);
}

static size_t begin_prefix(hudi_buf *out, bool length_prefix) {
    size_t start = out->len;
    if (length_prefix) hudi_buf_append(out, "\0\0\0\0", 4);
    return start;
}

static int end_prefix(hudi_buf *out, bool length_prefix, size_t start) {
    if (hudi_buf_failed(out)) return HUDI_ENOMEM;
    if (length_prefix) hudi_store_u32le(out->data + start, (uint32_t)(out->len - start - 4));
    return 0;
}

int hudi_pq_rle_encode_i16(hudi_buf *out, const int16_t *levels, int64_t n, int bit_width,
                           bool length_prefix) {
    size_t start = begin_prefix(out, length_prefix);
    encode(out, levels, IN_I16, 0, n, bit_width);
    return end_prefix(out, length_prefix, start);
}

int hudi_pq_rle_encode_bool(hudi_buf *out, const uint8_t *bits, int64_t bit_offset, int64_t n,
                            bool length_prefix) {
    size_t start = begin_prefix(out, length_prefix);
    encode(out, bits + (bit_offset >> 3), IN_BIT, bit_offset & 7, n, 1);
    return end_prefix(out, length_prefix, start);
}
