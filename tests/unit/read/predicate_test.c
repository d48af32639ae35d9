/* predicate_test.c - "COL OP CONSTANT" parsing (read/predicate.c): the grammar, constants exact
 * in the column's type, and one-line messages for what is wrong. */
#include <criterion/criterion.h>

#include "read/predicate.h"

static hudi_field schema;

static void setup(void) {
    cr_assert_eq(hudi_field_init(&schema, "s", HUDI_TYPE_STRUCT, false), 0);
    cr_assert_eq(hudi_field_set_children(&schema, 7), 0);
    hudi_field *c = schema.children;
    cr_assert_eq(hudi_field_init(&c[0], "id", HUDI_TYPE_INT32, true), 0);
    cr_assert_eq(hudi_field_init(&c[1], "odd name", HUDI_TYPE_STRING, true), 0);
    cr_assert_eq(hudi_field_init(&c[2], "f", HUDI_TYPE_FLOAT, true), 0);
    cr_assert_eq(hudi_field_init(&c[3], "dec", HUDI_TYPE_DECIMAL, true), 0);
    c[3].precision = 5, c[3].scale = 2;
    cr_assert_eq(hudi_field_init(&c[4], "ts", HUDI_TYPE_TIMESTAMP, true), 0);
    c[4].unit = HUDI_UNIT_MILLIS;
    cr_assert_eq(hudi_field_init(&c[5], "bin", HUDI_TYPE_BINARY, true), 0);
    cr_assert_eq(hudi_field_init(&c[6], "l", HUDI_TYPE_LIST, true), 0);
    cr_assert_eq(hudi_field_set_children(&c[6], 1), 0);
    cr_assert_eq(hudi_field_init(&c[6].children[0], "element", HUDI_TYPE_INT32, true), 0);
}

static void teardown(void) { hudi_field_dispose(&schema); }

static hudi_predicate ok(const char *text) {
    hudi_predicate p = HUDI_PREDICATE_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_predicate_parse(&p, text, &schema, &err), 0, "%s: %s", text, err.message);
    return p;
}

static void fails(const char *text, const char *part) {
    hudi_predicate p = HUDI_PREDICATE_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_predicate_parse(&p, text, &schema, &err), HUDI_EINVAL, "%s parsed", text);
    cr_assert(strstr(err.message, part), "%s: '%s' lacks '%s'", text, err.message, part);
    hudi_predicate_dispose(&p);
}

TestSuite(predicate, .init = setup, .fini = teardown);

Test(predicate, forms) {
    hudi_predicate p = ok("  id >= -5 ");
    cr_assert_eq(p.column, 0);
    cr_assert_eq(p.op, HUDI_CMP_GE);
    cr_assert_eq(p.value.i64, -5);
    p = ok("\"odd name\" <> 'it''s'");
    cr_assert_eq(p.column, 1);
    cr_assert_eq(p.op, HUDI_CMP_NE);
    cr_assert_eq(p.value.bytes.len, 4);
    cr_assert(memcmp(p.value.bytes.data, "it's", 4) == 0);
    hudi_predicate_dispose(&p);
    p = ok("f = 1.1");
    cr_assert_eq(p.value.f64, (double)1.1f);
    p = ok("dec < 12345.6"); /* wider than the column is still a valid bound */
    cr_assert(p.value.dec == 1234560);
    p = ok("ts > '2024-01-01 00:00:00.001'");
    cr_assert_eq(p.value.i64, INT64_C(1704067200001));
    p = ok("bin = x'00ff'");
    cr_assert_eq(p.value.bytes.len, 2);
    hudi_predicate_dispose(&p);
    p = ok("`id` is not null");
    cr_assert_eq(p.op, HUDI_CMP_IS_NOT_NULL);
    cr_assert(p.value.is_null);
}

Test(predicate, errors) {
    fails("zz = 1", "unknown column 'zz'");
    fails("id = 1.5", "not a valid int32 value");
    fails("id ~ 1", "expected an operator");
    fails("id = null", "use IS NULL");
    fails("dec = 1.001", "more than 2 decimal places");
    fails("ts = '2024-01-01 00:00:00.0001'", "more precise");
    fails("l = 1", "not a primitive column");
    fails("id = 'abc", "unterminated");
    fails("id = x'00'", "need a binary column");
    fails("id is null extra", "unexpected text after IS NULL");
    fails("= 1", "missing column name");
}
