/* avro_test.c - Avro schemas, binary datums, object container files and JSON conversion. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "format/avro/avro.h"
#include "support.h"

static const char *SCHEMA =
    "{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"ns\",\"fields\":["
    "{\"name\":\"n\",\"type\":\"null\"},"
    "{\"name\":\"b\",\"type\":\"boolean\"},"
    "{\"name\":\"i\",\"type\":\"int\"},"
    "{\"name\":\"l\",\"type\":\"long\"},"
    "{\"name\":\"f\",\"type\":\"float\"},"
    "{\"name\":\"d\",\"type\":\"double\"},"
    "{\"name\":\"by\",\"type\":\"bytes\"},"
    "{\"name\":\"s\",\"type\":{\"type\":\"string\",\"avro.java.string\":\"String\"}},"
    "{\"name\":\"fx\",\"type\":{\"type\":\"fixed\",\"name\":\"F4\",\"size\":4}},"
    "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\"]}},"
    "{\"name\":\"a\",\"type\":{\"type\":\"array\",\"items\":\"int\"}},"
    "{\"name\":\"m\",\"type\":[\"null\",{\"type\":\"map\",\"values\":\"string\"}],\"default\":null}"
    ","
    "{\"name\":\"u\",\"type\":[\"null\",\"string\"]},"
    "{\"name\":\"sub\",\"type\":{\"type\":\"record\",\"name\":\"S\",\"fields\":["
    "{\"name\":\"x\",\"type\":\"long\"}]}},"
    "{\"name\":\"again\",\"type\":[\"null\",\"S\"]}]}";

static hudi_avro_schema *parse_schema(const char *json) {
    hudi_avro_schema *s = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_avro_schema_parse(&s, hudi_slice_cstr(json), &err), 0, "%s", err.message);
    return s;
}

/* Builds one record value of SCHEMA in `arena`. */
static hudi_avro_value make_record(hudi_arena *a) {
    hudi_avro_value *f = hudi_arena_alloc(a, 15 * sizeof(*f));
    for (int i = 0; i < 15; i++) f[i].branch = -1;
    f[0].type = HUDI_AVRO_NULL;
    f[1] = (hudi_avro_value){.type = HUDI_AVRO_BOOLEAN, .branch = -1, .v.b = true};
    f[2] = (hudi_avro_value){.type = HUDI_AVRO_INT, .branch = -1, .v.i = -123456};
    f[3] = (hudi_avro_value){.type = HUDI_AVRO_LONG, .branch = -1, .v.i = INT64_MIN};
    f[4] = (hudi_avro_value){.type = HUDI_AVRO_FLOAT, .branch = -1, .v.d = 1.5};
    f[5] = (hudi_avro_value){.type = HUDI_AVRO_DOUBLE, .branch = -1, .v.d = -0.25};
    f[6] = (hudi_avro_value){
        .type = HUDI_AVRO_BYTES, .branch = -1, .bytes = HUDI_SLICE("\x00\xff\"", 3)};
    f[7] = (hudi_avro_value){
        .type = HUDI_AVRO_STRING, .branch = -1, .bytes = hudi_slice_cstr("h\xc3\xa9 \"q\"\n")};
    f[8] = (hudi_avro_value){.type = HUDI_AVRO_FIXED, .branch = -1, .bytes = HUDI_SLICE("abcd", 4)};
    f[9] = (hudi_avro_value){.type = HUDI_AVRO_ENUM, .branch = -1, .bytes = hudi_slice_cstr("B")};
    hudi_avro_value *items = hudi_arena_alloc(a, 3 * sizeof(*items));
    for (int i = 0; i < 3; i++)
        items[i] = (hudi_avro_value){.type = HUDI_AVRO_INT, .branch = -1, .v.i = i * 100};
    f[10] = (hudi_avro_value){.type = HUDI_AVRO_ARRAY, .branch = -1, .count = 3, .items = items};
    hudi_avro_value *mv = hudi_arena_alloc(a, 2 * sizeof(*mv));
    hudi_slice *mk = hudi_arena_alloc(a, 2 * sizeof(*mk));
    mk[0] = hudi_slice_cstr("k1");
    mk[1] = hudi_slice_cstr("k2");
    mv[0] =
        (hudi_avro_value){.type = HUDI_AVRO_STRING, .branch = -1, .bytes = hudi_slice_cstr("v1")};
    mv[1] = (hudi_avro_value){.type = HUDI_AVRO_STRING, .branch = -1, .bytes = hudi_slice_cstr("")};
    f[11] =
        (hudi_avro_value){.type = HUDI_AVRO_MAP, .branch = -1, .count = 2, .items = mv, .keys = mk};
    f[12] = (hudi_avro_value){.type = HUDI_AVRO_NULL, .branch = -1};
    hudi_avro_value *x = hudi_arena_alloc(a, sizeof(*x));
    *x = (hudi_avro_value){.type = HUDI_AVRO_LONG, .branch = -1, .v.i = 7};
    static hudi_slice xname = {(const uint8_t *)"x", 1};
    f[13] = (hudi_avro_value){
        .type = HUDI_AVRO_RECORD, .branch = -1, .count = 1, .items = x, .keys = &xname};
    f[14] = f[13];
    return (hudi_avro_value){.type = HUDI_AVRO_RECORD, .branch = -1, .count = 15, .items = f};
}

static const char *EXPECTED_JSON =
    "{\"n\":null,\"b\":true,\"i\":-123456,\"l\":-9223372036854775808,\"f\":1.5,\"d\":-0.25,"
    "\"by\":\"\\u0000\\u00ff\\\"\",\"s\":\"h\xc3\xa9 \\\"q\\\"\\n\",\"fx\":\"abcd\",\"e\":\"B\","
    "\"a\":[0,100,200],\"m\":{\"k1\":\"v1\",\"k2\":\"\"},\"u\":null,\"sub\":{\"x\":7},"
    "\"again\":{\"x\":7}}";

Test(avro, encode_decode_json_round_trip) {
    hudi_avro_schema *s = parse_schema(SCHEMA);
    cr_assert_str_eq(hudi_avro_schema_name(s), "ns.R");
    cr_assert_str_eq(hudi_avro_schema_json(s), SCHEMA);
    hudi_arena a = HUDI_ARENA_INIT;
    hudi_avro_value rec = make_record(&a);
    hudi_buf bin = HUDI_BUF_INIT, json = HUDI_BUF_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_avro_encode(&bin, s, &rec, &err), 0, "%s", err.message);
    hudi_avro_value back;
    size_t used = 0;
    cr_assert_eq(hudi_avro_decode(&back, 1, s, HUDI_SLICE(bin.data, bin.len), &used, &a, &err), 0,
                 "%s", err.message);
    cr_assert_eq(used, bin.len);
    cr_assert_eq(back.items[11].branch, 1); /* the map sits in union branch 1 */
    cr_assert_eq(back.items[12].branch, 0);
    cr_assert_eq(back.items[9].v.i, 1);
    cr_assert_eq(hudi_avro_value_to_json(&json, &back, &err), 0);
    cr_assert_str_eq(json.data, EXPECTED_JSON);
    /* re-encoding the decoded value gives the same bytes */
    hudi_buf bin2 = HUDI_BUF_INIT;
    cr_assert_eq(hudi_avro_encode(&bin2, s, &back, &err), 0);
    cr_assert_eq(bin2.len, bin.len);
    cr_assert(memcmp(bin2.data, bin.data, bin.len) == 0);
    /* every truncation is ECORRUPT, never a crash */
    for (size_t n = 0; n < bin.len; n++) {
        hudi_arena t = HUDI_ARENA_INIT;
        cr_assert_eq(hudi_avro_decode(&back, 1, s, HUDI_SLICE(bin.data, n), NULL, &t, &err),
                     HUDI_ECORRUPT, "prefix %zu", n);
        hudi_arena_dispose(&t);
    }
    hudi_buf_dispose(&bin);
    hudi_buf_dispose(&bin2);
    hudi_buf_dispose(&json);
    hudi_arena_dispose(&a);
    hudi_avro_schema_free(s);
}

Test(avro, container_write_read) {
    hudi_avro_schema *s = parse_schema(SCHEMA);
    hudi_arena a = HUDI_ARENA_INIT;
    hudi_avro_value recs[2] = {make_record(&a), make_record(&a)};
    hudi_buf file = HUDI_BUF_INIT, json = HUDI_BUF_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    const uint8_t sync[16] = "0123456789abcdef";
    cr_assert_eq(hudi_avro_container_write(&file, s, recs, 2, sync, &err), 0, "%s", err.message);
    cr_assert(hudi_avro_is_container(HUDI_SLICE(file.data, file.len)));
    cr_assert(memcmp(file.data,
                     "Obj\x01\x02\x16"
                     "avro.schema",
                     17) == 0);
    hudi_avro_container c;
    cr_assert_eq(hudi_avro_container_read(&c, HUDI_SLICE(file.data, file.len), &err), 0, "%s",
                 err.message);
    cr_assert_eq(c.count, 2);
    cr_assert_eq(hudi_avro_value_to_json(&json, &c.records[1], &err), 0);
    cr_assert_str_eq(json.data, EXPECTED_JSON);
    hudi_avro_container_dispose(&c);
    /* two records: not a timeline file */
    cr_assert_eq(hudi_avro_container_to_json(&json, HUDI_SLICE(file.data, file.len), &err),
                 HUDI_ECORRUPT);
    /* a damaged sync marker */
    file.data[file.len - 1] ^= 1;
    cr_assert_eq(hudi_avro_container_read(&c, HUDI_SLICE(file.data, file.len), &err),
                 HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "sync"), "%s", err.message);
    /* every truncation fails cleanly */
    for (size_t n = 0; n + 1 < file.len; n += 7) {
        int rc = hudi_avro_container_read(&c, HUDI_SLICE(file.data, n), &err);
        cr_assert(rc == HUDI_ECORRUPT, "prefix %zu: %d", n, rc);
    }
    cr_assert_eq(hudi_avro_container_read(&c, hudi_slice_cstr("Obj"), &err), HUDI_ECORRUPT);
    hudi_buf_dispose(&file);
    hudi_buf_dispose(&json);
    hudi_arena_dispose(&a);
    hudi_avro_schema_free(s);
}

/* Appends an Avro long (zig-zag varint). */
static void put_long(hudi_buf *b, int64_t v) {
    uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
    do {
        uint8_t c = z & 0x7F;
        z >>= 7;
        hudi_buf_putc(b, (char)(c | (z ? 0x80 : 0)));
    } while (z);
}

static void container_with_codec(hudi_buf *f, const char *codec, const void *block, size_t n,
                                 int64_t count) {
    const char *schema = "\"long\"";
    hudi_buf_append(f, "Obj\x01", 4);
    put_long(f, 2);
    put_long(f, 11);
    hudi_buf_puts(f, "avro.schema");
    put_long(f, (int64_t)strlen(schema));
    hudi_buf_puts(f, schema);
    put_long(f, 10);
    hudi_buf_puts(f, "avro.codec");
    put_long(f, (int64_t)strlen(codec));
    hudi_buf_puts(f, codec);
    put_long(f, 0);
    hudi_buf_append(f, "SSSSSSSSSSSSSSSS", 16);
    put_long(f, count);
    put_long(f, (int64_t)n);
    hudi_buf_append(f, block, n);
    hudi_buf_append(f, "SSSSSSSSSSSSSSSS", 16);
}

Test(avro, deflate_codec_and_unknown_codec) {
    hudi_buf raw = HUDI_BUF_INIT, f = HUDI_BUF_INIT;
    for (int64_t i = 0; i < 1000; i++) put_long(&raw, i * 1000);
    uint8_t packed[8192];
    z_stream z;
    memset(&z, 0, sizeof(z));
    cr_assert_eq(deflateInit2(&z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = (Bytef *)raw.data;
    z.avail_in = (uInt)raw.len;
    z.next_out = packed;
    z.avail_out = sizeof(packed);
    cr_assert_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
    size_t n = sizeof(packed) - z.avail_out;
    deflateEnd(&z);
    container_with_codec(&f, "deflate", packed, n, 1000);
    hudi_avro_container c;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_avro_container_read(&c, HUDI_SLICE(f.data, f.len), &err), 0, "%s",
                 err.message);
    cr_assert_eq(c.count, 1000);
    cr_assert_eq(c.records[999].v.i, 999000);
    hudi_avro_container_dispose(&c);
    hudi_buf_clear(&f);
    container_with_codec(&f, "snappy", "x", 1, 1);
    cr_assert_eq(hudi_avro_container_read(&c, HUDI_SLICE(f.data, f.len), &err), HUDI_EUNSUPPORTED);
    cr_assert(strstr(err.message, "unsupported codec snappy"), "%s", err.message);
    hudi_buf_dispose(&raw);
    hudi_buf_dispose(&f);
}

Test(avro, hostile_counts_are_refused) {
    hudi_avro_schema *arr = parse_schema("{\"type\":\"array\",\"items\":\"null\"}");
    hudi_avro_schema *lng = parse_schema("{\"type\":\"array\",\"items\":\"long\"}");
    hudi_buf b = HUDI_BUF_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_avro_value v;
    hudi_arena a = HUDI_ARENA_INIT;
    put_long(&b, INT64_MAX / 2); /* a block of 2^62 values in a few bytes */
    put_long(&b, 0);
    cr_assert_eq(hudi_avro_decode(&v, 1, arr, HUDI_SLICE(b.data, b.len), NULL, &a, &err),
                 HUDI_ECORRUPT);
    cr_assert_eq(hudi_avro_decode(&v, 1, lng, HUDI_SLICE(b.data, b.len), NULL, &a, &err),
                 HUDI_ECORRUPT);
    hudi_buf_clear(&b);
    put_long(&b, 1000); /* 1000 nulls is fine */
    put_long(&b, 0);
    cr_assert_eq(hudi_avro_decode(&v, 1, arr, HUDI_SLICE(b.data, b.len), NULL, &a, &err), 0);
    cr_assert_eq(v.count, 1000);
    hudi_buf_clear(&b);
    hudi_buf_append(&b, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11); /* 11-byte varint */
    cr_assert_eq(hudi_avro_decode(&v, 1, lng, HUDI_SLICE(b.data, b.len), NULL, &a, &err),
                 HUDI_ECORRUPT);
    hudi_avro_schema *bad = NULL;
    cr_assert_eq(hudi_avro_schema_parse(&bad, hudi_slice_cstr("{\"type\":\"nope\"}"), &err),
                 HUDI_ECORRUPT);
    cr_assert_null(bad);
    cr_assert_eq(hudi_avro_schema_parse(&bad, HUDI_SLICE("\"long\"\0", 7), &err), HUDI_ECORRUPT);
    /* a recursive schema decodes up to the depth limit, then stops */
    hudi_avro_schema *rec = parse_schema("{\"type\":\"record\",\"name\":\"L\",\"fields\":[{"
                                         "\"name\":\"next\",\"type\":[\"null\",\"L\"]}]}");
    hudi_buf_clear(&b);
    for (int i = 0; i < 1000; i++) put_long(&b, 1);
    put_long(&b, 0);
    cr_assert_eq(hudi_avro_decode(&v, 1, rec, HUDI_SLICE(b.data, b.len), NULL, &a, &err),
                 HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "nested"), "%s", err.message);
    hudi_buf_clear(&b);
    for (int i = 0; i < 10; i++) put_long(&b, 1);
    put_long(&b, 0);
    cr_assert_eq(hudi_avro_decode(&v, 1, rec, HUDI_SLICE(b.data, b.len), NULL, &a, &err), 0);
    hudi_avro_schema_free(rec);
    hudi_avro_schema_free(arr);
    hudi_avro_schema_free(lng);
    hudi_arena_dispose(&a);
    hudi_buf_dispose(&b);
}

Test(avro, hudi_timeline_containers) {
    size_t len = 0;
    unsigned char *bytes = test_read_file(
        fixture_path("hudi-rs/components/commit_metadata/v8_deltacommit.avro"), &len);
    cr_assert(bytes);
    hudi_avro_container c;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_avro_container_read(&c, HUDI_SLICE(bytes, len), &err), 0, "%s", err.message);
    cr_assert_eq(c.count, 1);
    cr_assert_str_eq(hudi_avro_schema_name(c.schema),
                     "org.apache.hudi.avro.model.HoodieCommitMetadata");
    /* re-encoding under the embedded schema reproduces the data block */
    hudi_buf out = HUDI_BUF_INIT, file = HUDI_BUF_INIT;
    cr_assert_eq(hudi_avro_encode(&out, c.schema, &c.records[0], &err), 0, "%s", err.message);
    cr_assert(out.len > 100);
    cr_assert(memmem(bytes, len, out.data, out.len) != NULL);
    /* and writing a container with the same sync gives the same file, byte for byte */
    cr_assert_eq(hudi_avro_container_write(&file, c.schema, c.records, 1, bytes + len - 16, &err),
                 0);
    cr_assert_eq(file.len, len);
    cr_assert(memcmp(file.data, bytes, len) == 0);
    hudi_buf_dispose(&out);
    hudi_buf_dispose(&file);
    hudi_avro_container_dispose(&c);
    free(bytes);
}
