/* cdc_test.c - change data capture reading (read/cdc.h): `.cdc` log files written by Apache
 * Hudi 0.15 on Spark (tests/data/spark-cdc, one per supplemental logging mode) decode and render
 * as Spark's CDC query shows them, and the key order of Spark's JSON rendering of base file
 * rows (a Scala HashMap's iteration order) is the one Spark printed for two real tables. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "read/cdc.h"
#include "support.h"

typedef struct decoded {
    hudi_batch **b;
    size_t n;
    hudi_field fields;
    unsigned char *bytes;
} decoded;

static decoded decode(const char *rel) {
    decoded d;
    size_t len;
    hudi_error err = HUDI_ERROR_INIT;
    d.bytes = test_read_file(fixture_path(rel), &len);
    cr_assert_not_null(d.bytes, "missing %s", rel);
    int rc = hudi_cdc_log_decode(&d.b, &d.n, &d.fields, HUDI_SLICE(d.bytes, len), rel, &err);
    cr_assert_eq(rc, 0, "%s", err.message);
    return d;
}

static void dispose(decoded *d) {
    for (size_t i = 0; i < d->n; i++) hudi_batch_free(d->b[i]);
    hudi_free(d->b);
    hudi_field_dispose(&d->fields);
    free(d->bytes);
}

static void expect_str(const hudi_array *a, int64_t i, const char *want) {
    cr_assert(hudi_array_is_valid(a, i));
    size_t n = (size_t)(a->offsets[i + 1] - a->offsets[i]);
    cr_expect(n == strlen(want) && memcmp(a->data + a->offsets[i], want, n) == 0,
              "got %.*s, want %s", (int)n, a->data + a->offsets[i], want);
}

static void expect_image(const hudi_array *a, int64_t i, const char *want) {
    hudi_buf b = HUDI_BUF_INIT;
    hudi_cdc_render_avro(&b, a, i);
    hudi_buf_putc(&b, '\0');
    cr_expect_str_eq(b.data, want);
    hudi_buf_dispose(&b);
}

Test(cdc, decodes_sparks_data_before_after_log) {
    decoded d = decode("spark-cdc/data_before_after.cdc");
    cr_assert_eq(d.n, 1);
    const hudi_batch *b = d.b[0];
    cr_assert_eq(b->num_rows, 2);
    cr_assert_eq(d.fields.n_children, 4);
    expect_str(b->columns[0], 0, "u");
    expect_str(b->columns[1], 0, "20261202024828514");
    expect_image(b->columns[2], 0,
                 "{\"id\": 3, \"name\": \"c\", \"price\": 30.0, \"ts\": 1000, "
                 "\"dt\": \"2022\"}");
    expect_image(b->columns[3], 0,
                 "{\"id\": 3, \"name\": \"cc\", \"price\": 33.0, \"ts\": 1200, "
                 "\"dt\": \"2022\"}");
    expect_str(b->columns[0], 1, "i");
    expect_image(b->columns[2], 1, "null"); /* Spark shows the string "null" */
    expect_image(b->columns[3], 1,
                 "{\"id\": 4, \"name\": \"d\", \"price\": 40.0, \"ts\": 1200, "
                 "\"dt\": \"2022\"}");
    dispose(&d);
}

Test(cdc, decodes_sparks_data_before_and_op_key_only_logs) {
    decoded d = decode("spark-cdc/data_before.cdc");
    cr_assert_eq(d.n, 1);
    cr_assert_eq(d.fields.n_children, 3);
    cr_assert_str_eq(d.fields.children[1].name, "record_key");
    const hudi_batch *b = d.b[0];
    cr_assert_eq(b->num_rows, 2);
    for (int64_t i = 0; i < 2; i++) {
        hudi_slice op = HUDI_SLICE(b->columns[0]->data + b->columns[0]->offsets[i], 1);
        if (op.data[0] == 'u') {
            expect_str(b->columns[1], i, "3");
            expect_image(b->columns[2], i,
                         "{\"id\": 3, \"name\": \"c\", \"price\": 30.0, \"ts\": 1000, "
                         "\"dt\": \"2022\"}");
        } else {
            cr_expect_eq(op.data[0], 'i');
            expect_str(b->columns[1], i, "4");
            cr_expect(!hudi_array_is_valid(b->columns[2], i));
        }
    }
    dispose(&d);
    d = decode("spark-cdc/op_key_only.cdc");
    cr_assert_eq(d.n, 1);
    cr_assert_eq(d.fields.n_children, 2);
    cr_assert_eq(d.b[0]->num_rows, 2);
    dispose(&d);
}

Test(cdc, a_file_without_cdc_blocks_or_with_junk) {
    decoded d;
    hudi_error err = HUDI_ERROR_INIT;
    const char junk[] = "#HUDI#\0\0\0\0\0\0\0\xff";
    int rc = hudi_cdc_log_decode(&d.b, &d.n, &d.fields, HUDI_SLICE(junk, sizeof(junk) - 1),
                                 "junk.cdc", &err);
    cr_assert_eq(rc, 0); /* a corrupt block is skipped, as Hudi's reader does */
    cr_assert_eq(d.n, 0);
    hudi_field_dispose(&d.fields);
}

static void expect_order(const char *const *names, int32_t n, const char *const *want) {
    hudi_field st;
    cr_assert_eq(hudi_field_init(&st, "r", HUDI_TYPE_STRUCT, false), 0);
    cr_assert_eq(hudi_field_set_children(&st, n), 0);
    for (int32_t k = 0; k < n; k++)
        cr_assert_eq(hudi_field_init(&st.children[k], names[k], HUDI_TYPE_INT32, true), 0);
    int32_t order[32];
    hudi_cdc_json_order(&st, order);
    for (int32_t k = 0; k < n; k++) cr_expect_str_eq(names[order[k]], want[k], "position %d", k);
    hudi_field_dispose(&st);
}

/* Spark 0.15's cdc query rows of two tables (10 columns: no resize; 15: one resize). */
Test(cdc, json_key_order_is_scalas_hashmap_order) {
    const char *t10[] = {"_hoodie_commit_time",
                         "_hoodie_commit_seqno",
                         "_hoodie_record_key",
                         "_hoodie_partition_path",
                         "_hoodie_file_name",
                         "id",
                         "name",
                         "price",
                         "ts",
                         "dt"};
    const char *w10[] = {"price",
                         "_hoodie_record_key",
                         "_hoodie_partition_path",
                         "_hoodie_file_name",
                         "_hoodie_commit_seqno",
                         "dt",
                         "name",
                         "_hoodie_commit_time",
                         "ts",
                         "id"};
    expect_order(t10, 10, w10);
    const char *t15[] = {"_hoodie_commit_time",
                         "_hoodie_commit_seqno",
                         "_hoodie_record_key",
                         "_hoodie_partition_path",
                         "_hoodie_file_name",
                         "id",
                         "name",
                         "price",
                         "ts",
                         "b",
                         "f",
                         "dd",
                         "tt",
                         "dec",
                         "dt"};
    const char *w15[] = {"price",
                         "_hoodie_record_key",
                         "_hoodie_partition_path",
                         "b",
                         "_hoodie_file_name",
                         "_hoodie_commit_seqno",
                         "dt",
                         "name",
                         "tt",
                         "_hoodie_commit_time",
                         "f",
                         "dec",
                         "ts",
                         "dd",
                         "id"};
    expect_order(t15, 15, w15);
}
