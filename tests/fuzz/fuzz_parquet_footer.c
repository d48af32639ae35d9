/* fuzz_parquet_footer.c - hudi_pq_decode_file_meta over arbitrary bytes (the footer's
 * FileMetaData). Whatever decodes must encode, the encoding must decode, and encoding that
 * again must give the same bytes (decode(encode(x)) == x, observed through the encoder). */
#include <stdlib.h>
#include <string.h>

#include "format/parquet/meta.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    hudi_arena arena = HUDI_ARENA_INIT, arena2 = HUDI_ARENA_INIT;
    hudi_buf b1 = HUDI_BUF_INIT, b2 = HUDI_BUF_INIT;
    pq_file_meta m, again;
    hudi_error err = HUDI_ERROR_INIT;
    int rc = hudi_pq_decode_file_meta(&m, &arena, HUDI_SLICE(data, size), &err);
    if (rc == 0) {
        if (hudi_pq_encode_file_meta(&b1, &m, &err) != 0) abort();
        if (hudi_pq_decode_file_meta(&again, &arena2, HUDI_SLICE(b1.data, b1.len), &err) != 0)
            abort();
        if (hudi_pq_encode_file_meta(&b2, &again, &err) != 0) abort();
        if (b1.len != b2.len || memcmp(b1.data, b2.data, b1.len) != 0) abort();
    } else if (rc != HUDI_ECORRUPT && rc != HUDI_ENOMEM) {
        abort();
    }
    hudi_buf_dispose(&b1);
    hudi_buf_dispose(&b2);
    hudi_arena_dispose(&arena);
    hudi_arena_dispose(&arena2);
    return 0;
}
