/* fuzz_commit_json.c - HoodieCommitMetadata JSON (table/commit_meta.c) over arbitrary bytes.
 * Whatever parses must write; what it writes must parse again and write the same bytes
 * (writing is a fixed point after one round). */
#include <stdlib.h>
#include <string.h>

#include "table/table.h"

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        if (!(x)) abort();                                                                         \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    hudi_commit_metadata *md = NULL, *again = NULL;
    if (hudi_commit_metadata_parse(&md, (const char *)data, size, "fuzz", NULL) < 0) {
        CHECK(md == NULL);
        return 0;
    }
    hudi_buf a = HUDI_BUF_INIT, b = HUDI_BUF_INIT;
    /* Only an over-deep generic value (cdcStats, recordsStats) may refuse to be written. */
    if (hudi_commit_metadata_write(md, &a, NULL) == 0) {
        CHECK(hudi_commit_metadata_parse(&again, a.data, a.len, "fuzz rewrite", NULL) == 0);
        CHECK(hudi_commit_metadata_write(again, &b, NULL) == 0);
        CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
        CHECK(hudi_commit_metadata_stat_count(again) == hudi_commit_metadata_stat_count(md));
    }
    hudi_buf_dispose(&a);
    hudi_buf_dispose(&b);
    hudi_commit_metadata_free(again);
    hudi_commit_metadata_free(md);
    return 0;
}
