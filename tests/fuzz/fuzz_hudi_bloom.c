/* fuzz_hudi_bloom.c - Hudi bloom filter deserializer (SIMPLE / DYNAMIC_V0, raw or Base64).
 * The first byte picks the type and encoding. A parsed filter must re-serialize, parse back
 * and re-serialize to the same bytes, and answer membership queries. */
#include <stdlib.h>
#include <string.h>

#include "table/bloom.h"

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        if (!(x)) abort();                                                                         \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    hudi_bloom_type type = (data[0] & 1) ? HUDI_BLOOM_DYNAMIC_V0 : HUDI_BLOOM_SIMPLE;
    bool b64 = data[0] & 2;
    hudi_slice in = HUDI_SLICE(data + 1, size - 1);
    hudi_bloom *bf = NULL, *again = NULL;
    int rc =
        b64 ? hudi_bloom_parse_base64(&bf, type, in, NULL) : hudi_bloom_parse(&bf, type, in, NULL);
    if (rc != 0) {
        CHECK(bf == NULL);
        return 0;
    }
    hudi_buf a = HUDI_BUF_INIT, b = HUDI_BUF_INIT;
    CHECK(hudi_bloom_serialize(bf, &a, NULL) == 0);
    CHECK(hudi_bloom_parse(&again, type, HUDI_SLICE(a.data, a.len), NULL) == 0);
    CHECK(hudi_bloom_serialize(again, &b, NULL) == 0);
    CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
    (void)hudi_bloom_test(bf, "key", 3);
    hudi_bloom_free(again);
    hudi_bloom_free(bf);
    hudi_buf_dispose(&a);
    hudi_buf_dispose(&b);
    return 0;
}
