/* fuzz_log.c - log files (docs/formats/log-file.md). The input is a whole log file: it is split
 * into blocks, which must tile the input; every framed block is written again and must scan back
 * to the same type, header and content. Avro data blocks are decoded with the writer schema of
 * their header (when it parses) and with a fixed schema of every shape; whatever decodes must
 * encode and decode again to an equal batch. Delete blocks must survive encode and decode, and
 * ordering values must compare antisymmetrically. The input is also read as a `.cdc` file
 * (read/cdc.h): its CDC blocks decoded and every value rendered as the CDC query does. */
#include <stdlib.h>
#include <string.h>

#include "format/log/log.h"
#include "read/cdc.h"
#include "schema/schema.h"

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        if (!(x)) abort();                                                                         \
    } while (0)

static const char *FIXED_SCHEMA =
    "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
    "{\"name\":\"k\",\"type\":[\"null\",\"string\"]},"
    "{\"name\":\"n\",\"type\":\"long\"},"
    "{\"name\":\"f\",\"type\":[\"null\",\"float\"]},"
    "{\"name\":\"b\",\"type\":\"boolean\"},"
    "{\"name\":\"dt\",\"type\":{\"type\":\"int\",\"logicalType\":\"date\"}},"
    "{\"name\":\"dec\",\"type\":[\"null\",{\"type\":\"bytes\",\"logicalType\":\"decimal\","
    "\"precision\":38,\"scale\":2}]},"
    "{\"name\":\"fd\",\"type\":{\"type\":\"fixed\",\"name\":\"F5\",\"size\":5,\"logicalType\":"
    "\"decimal\",\"precision\":10,\"scale\":2}},"
    "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\"]}},"
    "{\"name\":\"u\",\"type\":[\"int\",\"null\",\"string\"]},"
    "{\"name\":\"a\",\"type\":{\"type\":\"array\",\"items\":[\"null\",{\"type\":\"record\","
    "\"name\":\"P\",\"fields\":[{\"name\":\"x\",\"type\":\"double\"}]}]}},"
    "{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":{\"type\":\"array\",\"items\":"
    "\"bytes\"}}}]}";

/* Decodes `b` with the given schemas; what decodes must encode and decode to an equal batch. */
static void data_round_trip(const hudi_log_block *b, const hudi_avro_schema *w,
                            const hudi_field *fields) {
    hudi_batch *batch = NULL, *again = NULL;
    if (hudi_log_avro_block_read(&batch, b, w, fields, "fuzz.log", NULL) != 0) return;
    CHECK(hudi_batch_validate(batch, NULL) == 0);
    hudi_buf content = HUDI_BUF_INIT;
    CHECK(hudi_log_avro_block_encode(&content, batch, w, NULL) == 0);
    hudi_log_block t = *b;
    t.content = HUDI_SLICE(content.data, content.len);
    CHECK(hudi_log_avro_block_read(&again, &t, w, fields, "fuzz.log", NULL) == 0);
    CHECK(hudi_batch_equal(batch, again, NULL));
    hudi_batch_free(again);
    hudi_batch_free(batch);
    hudi_buf_dispose(&content);
}

static void delete_round_trip(const hudi_log_block *b) {
    hudi_log_deletes d, again;
    if (hudi_log_delete_block_read(&d, b, "fuzz.log", NULL) != 0) return;
    hudi_buf content = HUDI_BUF_INIT;
    CHECK(hudi_log_delete_block_encode(&content, d.items, d.count, NULL) == 0);
    hudi_log_block t = *b;
    t.content = HUDI_SLICE(content.data, content.len);
    CHECK(hudi_log_delete_block_read(&again, &t, "fuzz.log", NULL) == 0);
    CHECK(again.count == d.count);
    for (size_t i = 0; i < d.count; i++) {
        const hudi_log_delete *x = &d.items[i], *y = &again.items[i];
        CHECK(hudi_slice_eq(x->record_key, y->record_key));
        CHECK((x->record_key.data == NULL) == (y->record_key.data == NULL));
        CHECK(hudi_slice_eq(x->partition_path, y->partition_path));
        CHECK(x->ordering.kind == y->ordering.kind);
        int c1 = 0, c2 = 0;
        if (i > 0 && hudi_log_ordering_cmp(&x->ordering, &d.items[i - 1].ordering, &c1)) {
            CHECK(hudi_log_ordering_cmp(&d.items[i - 1].ordering, &x->ordering, &c2));
            CHECK((c1 > 0) == (c2 < 0) && (c1 == 0) == (c2 == 0));
        }
    }
    hudi_log_deletes_dispose(&again);
    hudi_log_deletes_dispose(&d);
    hudi_buf_dispose(&content);
}

/* The input as a `.cdc` log file: decode, then render every row both ways. */
static void cdc_render(const uint8_t *data, size_t size) {
    hudi_batch **b = NULL;
    size_t n = 0;
    hudi_field f;
    if (hudi_cdc_log_decode(&b, &n, &f, HUDI_SLICE(data, size), "fuzz.cdc", NULL) != 0) return;
    hudi_buf out = HUDI_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        int32_t *order = malloc(sizeof(int32_t) * (size_t)(b[i]->n_columns + 1));
        CHECK(order != NULL);
        hudi_cdc_json_order(b[i]->schema, order);
        for (int64_t r = 0; r < b[i]->num_rows; r++) {
            for (int32_t c = 0; c < b[i]->n_columns; c++)
                hudi_cdc_render_avro(&out, b[i]->columns[c], r);
            hudi_cdc_render_json(&out, b[i], order, r);
            hudi_buf_clear(&out);
        }
        free(order);
        hudi_batch_free(b[i]);
    }
    hudi_free(b);
    hudi_buf_dispose(&out);
    hudi_field_dispose(&f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static hudi_avro_schema *fixed;
    static hudi_field fixed_fields;
    if (!fixed) {
        CHECK(hudi_avro_schema_parse(&fixed, hudi_slice_cstr(FIXED_SCHEMA), NULL) == 0);
        CHECK(hudi_schema_parse_avro(&fixed_fields, FIXED_SCHEMA, strlen(FIXED_SCHEMA), NULL) == 0);
    }
    cdc_render(data, size);
    hudi_log_blocks bl;
    if (hudi_log_scan(&bl, HUDI_SLICE(data, size), "fuzz.log", NULL) != 0) return 0;
    int64_t at = 0;
    size_t corrupt = 0;
    for (size_t i = 0; i < bl.count; i++) {
        const hudi_log_block *b = &bl.blocks[i];
        CHECK(b->offset == at && b->length > 0);
        at += b->length;
        if (b->type == HUDI_LOG_CORRUPT_BLOCK) {
            corrupt++;
            continue;
        }
        /* written again, the block scans back the same */
        hudi_buf out = HUDI_BUF_INIT;
        hudi_log_blocks again;
        CHECK(hudi_log_block_write(&out, b->type, b->header, b->content, NULL) == 0);
        CHECK(hudi_log_scan(&again, HUDI_SLICE(out.data, out.len), "again.log", NULL) == 0);
        CHECK(again.count == 1 && again.blocks[0].type == b->type);
        CHECK(hudi_slice_eq(again.blocks[0].content, b->content));
        for (int k = 0; k < HUDI_LOG_META_KEYS; k++) {
            CHECK((again.blocks[0].header[k].data == NULL) == (b->header[k].data == NULL));
            CHECK(hudi_slice_eq(again.blocks[0].header[k], b->header[k]));
        }
        hudi_log_blocks_dispose(&again);
        hudi_buf_dispose(&out);
        if (b->type == HUDI_LOG_AVRO_DATA_BLOCK || b->type == HUDI_LOG_CDC_DATA_BLOCK) {
            data_round_trip(b, fixed, &fixed_fields);
            hudi_slice s = b->header[HUDI_LOG_SCHEMA];
            hudi_avro_schema *w = NULL;
            hudi_field f;
            /* the schema layer first: libavro leaks when it refuses a schema that defines a
             * named type twice, which the schema layer refuses before */
            if (s.data && s.len < 65536 &&
                hudi_schema_parse_avro(&f, (const char *)s.data, s.len, NULL) == 0) {
                if (hudi_avro_schema_parse(&w, s, NULL) == 0) {
                    data_round_trip(b, w, &f);
                    hudi_avro_schema_free(w);
                }
                hudi_field_dispose(&f);
            }
        } else if (b->type == HUDI_LOG_DELETE_BLOCK) {
            delete_round_trip(b);
        }
    }
    CHECK(at == (int64_t)size && corrupt == bl.corrupt);
    hudi_log_blocks_dispose(&bl);
    return 0;
}
