/* fuzz_thrift.c - the Thrift compact reader over arbitrary bytes: skipping a struct, and
 * decoding each of the small Parquet structs (page header, column/offset index, bloom
 * header). Whatever decodes must re-encode, decode again, and re-encode to the same
 * bytes. The first input byte picks the decoder. */
#include <stdlib.h>
#include <string.h>

#include "format/parquet/meta.h"
#include "format/thrift/compact.h"

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        if (!(x)) abort();                                                                         \
    } while (0)

/* Encodes a decoded struct, decodes that, encodes again: both encodings must agree. */
#define ROUND_TRIP(type, enc, dec_call)                                                            \
    do {                                                                                           \
        hudi_buf b1 = HUDI_BUF_INIT, b2 = HUDI_BUF_INIT;                                           \
        type again;                                                                                \
        CHECK(enc(&b1, &v, NULL) == 0);                                                            \
        hudi_slice in2 = HUDI_SLICE(b1.data, b1.len);                                              \
        CHECK(dec_call == 0);                                                                      \
        CHECK(enc(&b2, &again, NULL) == 0);                                                        \
        CHECK(b1.len == b2.len && memcmp(b1.data, b2.data, b1.len) == 0);                          \
        hudi_buf_dispose(&b1);                                                                     \
        hudi_buf_dispose(&b2);                                                                     \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    uint8_t which = data[0] % 5;
    hudi_slice in = HUDI_SLICE(data + 1, size - 1);
    hudi_arena arena = HUDI_ARENA_INIT;
    switch (which) {
    case 0: {
        hudi_thrift_reader r;
        hudi_thrift_reader_init(&r, in, NULL);
        hudi_thrift_skip(&r, HUDI_THRIFT_STRUCT);
        CHECK(r.rc < 0 || hudi_thrift_reader_pos(&r) <= in.len);
        break;
    }
    case 1: {
        pq_page_header v;
        size_t used = 0;
        if (hudi_pq_decode_page_header(&v, &arena, in, &used, NULL) == 0) {
            CHECK(used <= in.len);
            ROUND_TRIP(pq_page_header, hudi_pq_encode_page_header,
                       hudi_pq_decode_page_header(&again, &arena, in2, NULL, NULL));
        }
        break;
    }
    case 2: {
        pq_column_index v;
        if (hudi_pq_decode_column_index(&v, &arena, in, NULL) == 0)
            ROUND_TRIP(pq_column_index, hudi_pq_encode_column_index,
                       hudi_pq_decode_column_index(&again, &arena, in2, NULL));
        break;
    }
    case 3: {
        pq_offset_index v;
        if (hudi_pq_decode_offset_index(&v, &arena, in, NULL) == 0)
            ROUND_TRIP(pq_offset_index, hudi_pq_encode_offset_index,
                       hudi_pq_decode_offset_index(&again, &arena, in2, NULL));
        break;
    }
    default: {
        pq_bloom_header v;
        size_t used = 0;
        if (hudi_pq_decode_bloom_header(&v, in, &used, NULL) == 0) {
            CHECK(used <= in.len);
            ROUND_TRIP(pq_bloom_header, hudi_pq_encode_bloom_header,
                       hudi_pq_decode_bloom_header(&again, in2, NULL, NULL));
        }
        break;
    }
    }
    hudi_arena_dispose(&arena);
    return 0;
}
