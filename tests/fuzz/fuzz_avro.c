/* fuzz_avro.c - Avro decoding. Input byte 0 even: the rest is an object container file
 * (header, schema, blocks); whatever reads must convert to JSON and re-encode under its
 * schema to bytes that decode to the same JSON. Odd: the rest is a binary datum of a fixed
 * HoodieWriteStat-like schema (the path of MOR log data blocks). */
#include <stdlib.h>
#include <string.h>

#include "format/avro/avro.h"

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        if (!(x)) abort();                                                                         \
    } while (0)

static const char *DATUM_SCHEMA =
    "{\"type\":\"record\",\"name\":\"W\",\"fields\":["
    "{\"name\":\"id\",\"type\":[\"null\",\"string\"]},"
    "{\"name\":\"n\",\"type\":[\"null\",\"long\"]},"
    "{\"name\":\"d\",\"type\":\"double\"},"
    "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\",\"C\"]}},"
    "{\"name\":\"fx\",\"type\":{\"type\":\"fixed\",\"name\":\"F\",\"size\":3}},"
    "{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":{\"type\":\"array\",\"items\":\"int\"}}}"
    ","
    "{\"name\":\"next\",\"type\":[\"null\",\"W\"]}]}";

static void check_reencode(const hudi_avro_schema *s, const hudi_avro_value *v) {
    hudi_buf bin = HUDI_BUF_INIT, j1 = HUDI_BUF_INIT, j2 = HUDI_BUF_INIT;
    hudi_arena a = HUDI_ARENA_INIT;
    hudi_avro_value back;
    CHECK(hudi_avro_value_to_json(&j1, v, NULL) == 0);
    CHECK(hudi_avro_encode(&bin, s, v, NULL) == 0);
    CHECK(hudi_avro_decode(&back, 1, s, HUDI_SLICE(bin.data, bin.len), NULL, &a, NULL) == 0);
    CHECK(hudi_avro_value_to_json(&j2, &back, NULL) == 0);
    CHECK(j1.len == j2.len && memcmp(j1.data, j2.data, j1.len) == 0);
    hudi_buf_dispose(&bin);
    hudi_buf_dispose(&j1);
    hudi_buf_dispose(&j2);
    hudi_arena_dispose(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    hudi_slice in = HUDI_SLICE(data + 1, size - 1);
    if ((data[0] & 1) == 0) {
        hudi_avro_container c;
        if (hudi_avro_container_read(&c, in, NULL) == 0) {
            for (size_t i = 0; i < c.count && i < 16; i++) check_reencode(c.schema, &c.records[i]);
            hudi_avro_container_dispose(&c);
        }
        hudi_buf json = HUDI_BUF_INIT;
        (void)hudi_avro_container_to_json(&json, in, NULL);
        hudi_buf_dispose(&json);
        return 0;
    }
    static hudi_avro_schema *schema;
    if (!schema) CHECK(hudi_avro_schema_parse(&schema, hudi_slice_cstr(DATUM_SCHEMA), NULL) == 0);
    hudi_arena a = HUDI_ARENA_INIT;
    hudi_avro_value v[4];
    size_t used = 0;
    if (hudi_avro_decode(v, 4, schema, in, &used, &a, NULL) == 0) {
        CHECK(used <= in.len);
        for (int i = 0; i < 4; i++) check_reencode(schema, &v[i]);
    }
    hudi_arena_dispose(&a);
    return 0;
}
