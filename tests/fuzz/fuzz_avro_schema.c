/* fuzz_avro_schema.c - Avro schema JSON -> hudi_field -> JSON. Whatever parses must write (in
 * both styles), parse again, and write the same text again (the written form is canonical). */
#include <stdlib.h>
#include <string.h>

#include "schema/schema.h"

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        if (!(x)) abort();                                                                         \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    hudi_field f, g;
    if (hudi_schema_parse_avro(&f, (const char *)data, size, NULL) != 0) return 0;
    for (int style = HUDI_AVRO_STYLE_HUDI; style <= HUDI_AVRO_STYLE_SPARK; style++) {
        hudi_buf a = HUDI_BUF_INIT, b = HUDI_BUF_INIT;
        CHECK(hudi_schema_write_avro(&a, &f, (hudi_avro_style)style, NULL) == 0);
        CHECK(hudi_schema_parse_avro(&g, a.data, a.len, NULL) == 0);
        CHECK(hudi_schema_write_avro(&b, &g, (hudi_avro_style)style, NULL) == 0);
        CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
        hudi_field_dispose(&g);
        hudi_buf_dispose(&a);
        hudi_buf_dispose(&b);
    }
    hudi_field h;
    if (hudi_schema_add_meta_fields(&h, &f, NULL) == 0) hudi_field_dispose(&h);
    hudi_field_dispose(&f);
    return 0;
}
