/* cdc_log_test.c - the CDC log schema hudic writes in CDC block headers (write/cdc_log.c) is
 * byte for byte the one Apache Hudi 0.15 wrote in tests/data/spark-cdc, for every supplemental
 * logging mode, given the table schema of that table's commits. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "write/write_int.h"

static const char *data_schema(const char *t) {
    static char buf[1024];
    snprintf(buf, sizeof(buf),
             "{\"type\":\"record\",\"name\":\"%s_record\",\"namespace\":\"hoodie.%s\",\"fields\":"
             "[{\"name\":\"id\",\"type\":[\"null\",\"int\"],\"default\":null},{\"name\":\"name\","
             "\"type\":[\"null\",\"string\"],\"default\":null},{\"name\":\"price\",\"type\":"
             "[\"null\",\"double\"],\"default\":null},{\"name\":\"ts\",\"type\":[\"null\","
             "\"long\"],\"default\":null},{\"name\":\"dt\",\"type\":[\"null\",\"string\"],"
             "\"default\":null}]}",
             t, t);
    return buf;
}

/* The SCHEMA header of the first block of a fixture file: its JSON text. */
static char *header_schema(const char *rel) {
    size_t len;
    unsigned char *d = test_read_file(fixture_path(rel), &len);
    cr_assert_not_null(d);
    const unsigned char *p = memmem(d, len, "{\"type\"", 7);
    cr_assert_not_null(p);
    int depth = 0;
    size_t k = (size_t)(p - d);
    for (; k < len; k++) {
        if (d[k] == '{') depth++;
        if (d[k] == '}' && --depth == 0) break;
    }
    char *s = strndup((const char *)p, k + 1 - (size_t)(p - d));
    free(d);
    return s;
}

static void expect_schema(hudi_cdc_mode mode, const char *table, const char *rel) {
    hudi_buf out = HUDI_BUF_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_cdc_schema_json(&out, mode, data_schema(table), &err), 0, "%s", err.message);
    hudi_buf_putc(&out, '\0');
    char *want = header_schema(rel);
    cr_expect_str_eq(out.data, want);
    free(want);
    hudi_buf_dispose(&out);
}

Test(cdc_log, schemas_are_hudis) {
    expect_schema(HUDI_CDC_DATA_BEFORE_AFTER, "t_data_before_after",
                  "spark-cdc/data_before_after.cdc");
    expect_schema(HUDI_CDC_DATA_BEFORE, "t_data_before", "spark-cdc/data_before.cdc");
    expect_schema(HUDI_CDC_OP_KEY_ONLY, "t_op_key_only", "spark-cdc/op_key_only.cdc");
}

Test(cdc_log, a_schema_that_is_not_a_record_is_refused) {
    hudi_buf out = HUDI_BUF_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_expect_eq(hudi_cdc_schema_json(&out, HUDI_CDC_DATA_BEFORE, "\"string\"", &err), HUDI_EINVAL);
    hudi_buf_dispose(&out);
}
