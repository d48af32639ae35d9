/* fuzz_parquet_page.c - feeds arbitrary bytes to every Parquet value/level decoder in
 * src/format/parquet/encoding.h. Input: byte 0 selects the decoder, byte 1 the bit width (or
 * value width / dictionary size), bytes 2-3 the number of values asked for (< 2048), byte 4 the
 * batch size; the rest is the encoded section. Decoders must fail cleanly, never crash, hang or
 * allocate without bound. Where decoding succeeds, values are re-encoded and decoded again and
 * must round-trip (hybrid and DELTA_BINARY_PACKED). */
#include <stdlib.h>

#include "format/parquet/encoding.h"

#define MAX_VALUES 2048

static uint8_t out_fixed[MAX_VALUES * 64];
static uint32_t out_u32[MAX_VALUES], back_u32[MAX_VALUES];
static int16_t out_i16[MAX_VALUES];
static int64_t out_i64[MAX_VALUES], back_i64[MAX_VALUES];
static int32_t offsets[MAX_VALUES + 1];

static void abort_if(bool bad) {
    if (bad) abort();
}

static void rle_round_trip(const uint32_t *v, int64_t n, int w) {
    hudi_buf b = HUDI_BUF_INIT;
    pq_rle_decoder d;
    abort_if(hudi_pq_rle_encode_u32(&b, v, n, w) < 0);
    abort_if(hudi_pq_rle_init(&d, (uint8_t *)b.data, b.len, w, NULL) < 0);
    abort_if(hudi_pq_rle_next_u32(&d, back_u32, n, NULL) < 0);
    abort_if(n && memcmp(back_u32, v, (size_t)n * 4) != 0);
    hudi_buf_dispose(&b);
}

static void delta_round_trip(const int64_t *v, int64_t n) {
    hudi_buf b = HUDI_BUF_INIT;
    pq_delta_decoder d;
    abort_if(hudi_pq_delta_encode_i64(&b, v, n) < 0);
    abort_if(hudi_pq_delta_init(&d, (uint8_t *)b.data, b.len, false, NULL) < 0);
    abort_if(hudi_pq_delta_next_i64(&d, back_i64, n, NULL) < 0);
    abort_if(n && memcmp(back_i64, v, (size_t)n * 8) != 0);
    hudi_buf_dispose(&b);
}

static void bytes_out_init(pq_bytes_out *o) {
    memset(o, 0, sizeof(*o));
    offsets[0] = 0;
    o->offsets = offsets;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 5) return 0;
    int kind = data[0] % 16, param = data[1];
    int64_t n = (data[2] | data[3] << 8) % MAX_VALUES, step = data[4] % 64 + 1;
    const uint8_t *in = data + 5;
    /* DELTA_BYTE_ARRAY values can each be as long as the input: keep n * len small. */
    size_t len = HUDI_MIN(size - 5, (size_t)(kind == 9 || kind == 10 ? 4096 : 65536));
    pq_rle_decoder r;
    pq_delta_decoder dd;
    pq_bytes_out o;
    int rc = 0;
    switch (kind) {
    case 0: { /* hybrid u32 in batches; width 33..39 must be rejected */
        int w = param % 40;
        if (hudi_pq_rle_init(&r, in, len, w, NULL) < 0) break;
        for (int64_t i = 0; i < n && rc == 0; i += step)
            rc = hudi_pq_rle_next_u32(&r, out_u32 + i, HUDI_MIN(step, n - i), NULL);
        if (rc == 0) rle_round_trip(out_u32, n, w);
        break;
    }
    case 1: { /* v1 levels with length prefix */
        const uint8_t *runs;
        size_t rl;
        if (hudi_pq_rle_parse_prefix(in, len, &runs, &rl, NULL, NULL) < 0) break;
        if (hudi_pq_rle_init(&r, runs, rl, param % 17, NULL) < 0) break;
        if (hudi_pq_rle_consume_run(&r, step, 1, NULL) == 1) break;
        (void)hudi_pq_rle_next_i16(&r, out_i16, n, NULL);
        break;
    }
    case 2: /* RLE booleans at a bit offset */
        if (hudi_pq_rle_init(&r, in, len, 1, NULL) < 0) break;
        (void)hudi_pq_rle_next_bool(&r, out_fixed, param % 8, n, NULL);
        break;
    case 3: { /* dictionary gather, fixed width 1..16 from the first bytes of the input */
        int w = param % 16 + 1;
        int64_t dn = HUDI_MIN((int64_t)(len / (size_t)w), 64);
        pq_dict dict = {.n = dn, .width = w, .values = in};
        if (hudi_pq_rle_init_dict(&r, in, len, NULL) < 0) break;
        (void)hudi_pq_rle_gather_fixed(&r, &dict, n, out_fixed, NULL);
        break;
    }
    case 4: { /* dictionary gather, byte arrays of <= 8 bytes each */
        static int32_t doffs[65];
        int64_t dn = HUDI_MIN((int64_t)len, 64);
        doffs[0] = 0;
        for (int64_t i = 0; i < dn; i++) doffs[i + 1] = doffs[i] + in[i] % 9;
        pq_dict dict = {.n = dn, .offsets = doffs, .data = in};
        if ((size_t)doffs[dn] > len) break;
        if (hudi_pq_rle_init_dict(&r, in, len, NULL) < 0) break;
        bytes_out_init(&o);
        for (int64_t i = 0; i < n && rc == 0; i += step)
            rc = hudi_pq_rle_gather_bytes(&r, &dict, HUDI_MIN(step, n - i), &o, NULL);
        hudi_free(o.data);
        break;
    }
    case 5: /* deprecated BIT_PACKED levels */
        (void)hudi_pq_bitpacked_decode_i16(in, len, param % 17, step, n, out_i16, NULL);
        break;
    case 6: /* DELTA_BINARY_PACKED int32 */
        if (hudi_pq_delta_init(&dd, in, len, true, NULL) < 0) break;
        for (int64_t i = 0; i < n && rc == 0; i += step)
            rc = hudi_pq_delta_next_i32(&dd, (int32_t *)out_fixed + i, HUDI_MIN(step, n - i), NULL);
        break;
    case 7: { /* DELTA_BINARY_PACKED int64 */
        size_t sl;
        (void)hudi_pq_delta_stream_len(in, len, false, &sl, NULL);
        if (hudi_pq_delta_init(&dd, in, len, false, NULL) < 0) break;
        for (int64_t i = 0; i < n && rc == 0; i += step)
            rc = hudi_pq_delta_next_i64(&dd, out_i64 + i, HUDI_MIN(step, n - i), NULL);
        if (rc == 0) delta_round_trip(out_i64, n);
        break;
    }
    case 8: { /* DELTA_LENGTH_BYTE_ARRAY */
        pq_dlba_decoder dl;
        if (hudi_pq_dlba_init(&dl, in, len, NULL) < 0) break;
        bytes_out_init(&o);
        for (int64_t i = 0; i < n && rc == 0; i += step)
            rc = hudi_pq_dlba_next(&dl, HUDI_MIN(step, n - i), &o, NULL);
        hudi_free(o.data);
        break;
    }
    case 9: { /* DELTA_BYTE_ARRAY; outputs start over every batch, as a reader's might */
        pq_dba_decoder db = {0};
        if (hudi_pq_dba_init(&db, in, len, NULL) == 0) {
            for (int64_t i = 0; i < n && rc == 0; i += step) {
                bytes_out_init(&o);
                rc = hudi_pq_dba_next(&db, HUDI_MIN(step, n - i), &o, NULL);
                hudi_free(o.data);
            }
        }
        hudi_pq_dba_dispose(&db);
        break;
    }
    case 10: { /* DELTA_BYTE_ARRAY into FLBA */
        pq_dba_decoder db = {0};
        int w = param % 32 + 1;
        if (hudi_pq_dba_init(&db, in, len, NULL) == 0)
            (void)hudi_pq_dba_next_fixed(&db, HUDI_MIN(n, MAX_VALUES * 64 / w), w, out_fixed, NULL);
        hudi_pq_dba_dispose(&db);
        break;
    }
    case 11: /* PLAIN fixed width */
        (void)hudi_pq_plain_decode_fixed(in, len, param % 16 + 1, HUDI_MIN(n, MAX_VALUES * 4),
                                         out_fixed, NULL, NULL);
        break;
    case 12: /* PLAIN booleans */
        (void)hudi_pq_plain_decode_bool(in, len, step, n, out_fixed, param % 8, NULL);
        break;
    case 13: /* PLAIN byte arrays */
        bytes_out_init(&o);
        (void)hudi_pq_plain_decode_bytes(in, len, n, &o, NULL, NULL);
        hudi_free(o.data);
        break;
    case 14: /* BYTE_STREAM_SPLIT */
        (void)hudi_pq_bss_decode(in, len, param % 16 + 1, step, HUDI_MIN(n, MAX_VALUES * 4),
                                 out_fixed, NULL);
        break;
    default: /* hybrid: skip, fast-path probe, then read */
        if (hudi_pq_rle_init(&r, in, len, param % 33, NULL) < 0) break;
        if (hudi_pq_rle_skip(&r, step, NULL) < 0) break;
        (void)hudi_pq_rle_consume_run(&r, step, 0, NULL);
        (void)hudi_pq_rle_next_u32(&r, out_u32, n, NULL);
        break;
    }
    return 0;
}
