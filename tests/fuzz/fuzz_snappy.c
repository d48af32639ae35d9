/* fuzz_snappy.c - libFuzzer target for hudic's Snappy decoder (format/parquet/snappy.c).
 * The input is decoded as a raw Snappy block by hudic and by libsnappy: both must accept or
 * both reject it, accepted blocks must decode to the same bytes, and a rejection must be
 * HUDI_ECORRUPT. The input is also compressed with libsnappy and must decode back to itself.
 * Output buffers are exactly the declared size, so ASan catches any write past them. */
#include <snappy-c.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/parquet/snappy.h"

#define MAX_OUT ((size_t)1 << 24) /* larger declared sizes are not allocated */

static void cross_check(const uint8_t *data, size_t size) {
    size_t n = 0;
    if (hudi_pq_snappy_uncompressed_length(HUDI_SLICE(data, size), &n, NULL) < 0) {
        if (snappy_uncompressed_length((const char *)data, size, &n) == SNAPPY_OK) abort();
        return;
    }
    if (n > MAX_OUT) return;
    uint8_t *mine = malloc(n ? n : 1);
    char *ref = malloc(n ? n : 1);
    if (!mine || !ref) abort();
    hudi_error err = HUDI_ERROR_INIT;
    int rc = hudi_pq_snappy_decompress(HUDI_SLICE(data, size), n ? mine : NULL, n, &err);
    size_t rl = n;
    bool lib_ok = snappy_uncompress((const char *)data, size, ref, &rl) == SNAPPY_OK && rl == n;
    if ((rc == 0) != lib_ok) abort();
    if (rc < 0 && (rc != HUDI_ECORRUPT || strchr(err.message, '\n'))) abort();
    if (rc == 0 && n && memcmp(mine, ref, n) != 0) abort();
    free(mine);
    free(ref);
}

static void round_trip(const uint8_t *data, size_t size) {
    size_t clen = snappy_max_compressed_length(size);
    char *comp = malloc(clen);
    uint8_t *out = malloc(size ? size : 1);
    if (!comp || !out) abort();
    if (snappy_compress((const char *)data, size, comp, &clen) != SNAPPY_OK) abort();
    if (hudi_pq_snappy_decompress(HUDI_SLICE(comp, clen), size ? out : NULL, size, NULL) != 0)
        abort();
    if (size && memcmp(out, data, size) != 0) abort();
    free(out);
    free(comp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    cross_check(data, size);
    round_trip(data, size);
    return 0;
}
