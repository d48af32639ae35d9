/* fuzz_properties.c - java.util.Properties text: whatever parses must serialize, and the
 * serialized text must parse back to the same ordered pairs (store/load round trip). The typed
 * table config must accept or reject it without crashing. */
#include <stdlib.h>
#include <string.h>

#include "table/table.h"

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        if (!(x)) abort();                                                                         \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    hudi_props p = HUDI_PROPS_INIT, q = HUDI_PROPS_INIT;
    hudi_buf text = HUDI_BUF_INIT;
    if (hudi_props_parse(&p, HUDI_SLICE(data, size), "fuzz", NULL) == 0) {
        CHECK(hudi_props_serialize(&p, "fuzz", 0, &text, NULL) == 0);
        CHECK(hudi_props_parse(&q, HUDI_SLICE(text.data, text.len), "again", NULL) == 0);
        /* A key repeated after escaping/unescaping collapses the same way both times. */
        CHECK(q.count == p.count);
        for (size_t i = 0; i < p.count; i++) {
            CHECK(strcmp(p.items[i].key, q.items[i].key) == 0);
            CHECK(strcmp(p.items[i].value, q.items[i].value) == 0);
        }
        hudi_table_config cfg;
        if (hudi_table_config_from_props(&cfg, &p, "fuzz", NULL) == 0) {
            (void)hudi_table_config_check_readable(&cfg, NULL);
            (void)hudi_table_config_has_metadata_partition(&cfg, "files");
        }
        (void)hudi_props_verify_checksum(&p, NULL);
    }
    hudi_props_dispose(&p);
    hudi_props_dispose(&q);
    hudi_buf_dispose(&text);
    return 0;
}
