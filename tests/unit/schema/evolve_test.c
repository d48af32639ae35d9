/* evolve_test.c - the writer schema of a write whose columns differ from the table's
 * (schema/evolve.h): every cell of Hudi's promotion chart, decimals and logical types, added,
 * missing and dropped columns at the root and nested in structs, list elements and map values,
 * Hudi 0.15's own TestHoodieSchemaUtils cases, and the errors (one line, table path first, the
 * column's Hudi path and both types). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "schema/evolve.h"
#include "schema/schema.h"
#include "schema_spec.h"

typedef struct outcome {
    int rc;
    char text[1024]; /* the writer schema in the notation, or the error message */
} outcome;

static outcome deduce(const char *table, const char *incoming, hudi_evolve_options o) {
    outcome r;
    hudi_field t = spec_record("hoodie.t.t_record", table ? table : ""),
               in = spec_record("in_record", incoming), w;
    hudi_error err = HUDI_ERROR_INIT;
    r.rc = hudi_schema_deduce_writer(&w, table ? &t : NULL, &in, &o, "/tmp/tbl", &err);
    if (r.rc == 0) {
        hudi_buf b = HUDI_BUF_INIT;
        spec_describe_fields(&b, &w);
        cr_assert_str_eq(w.name, "hoodie.t.t_record");
        snprintf(r.text, sizeof(r.text), "%s", b.data ? b.data : "");
        hudi_buf_dispose(&b);
    } else {
        cr_assert_eq(w.n_children, 0, "out is left empty on failure");
        snprintf(r.text, sizeof(r.text), "%s", err.message);
        cr_assert(strncmp(err.message, "/tmp/tbl: ", 10) == 0, "error starts with the path: %s",
                  err.message);
        cr_assert(!strchr(err.message, '\n'), "one line: %s", err.message);
    }
    hudi_field_dispose(&t);
    hudi_field_dispose(&in);
    hudi_field_dispose(&w);
    return r;
}

static const hudi_evolve_options NONE = {false, false, false, false};

#define EXPECT_SCHEMA(table, incoming, opts, want)                                                 \
    do {                                                                                           \
        outcome r_ = deduce(table, incoming, opts);                                                \
        cr_expect_eq(r_.rc, 0, "%s <- %s: %s", table, incoming, r_.text);                          \
        if (r_.rc == 0) cr_expect_str_eq(r_.text, want, "%s <- %s", table, incoming);              \
    } while (0)

#define EXPECT_REFUSED(table, incoming, opts, ...)                                                 \
    do {                                                                                           \
        outcome r_ = deduce(table, incoming, opts);                                                \
        cr_expect_eq(r_.rc, HUDI_EINVAL, "%s <- %s accepted: %s", table, incoming, r_.text);       \
        const char *words_[] = {__VA_ARGS__};                                                      \
        for (size_t w_ = 0; r_.rc && w_ < sizeof(words_) / sizeof(words_[0]); w_++)                \
            cr_expect(strstr(r_.text, words_[w_]), "'%s' not in: %s", words_[w_], r_.text);        \
    } while (0)

/* ---- the chart ---------------------------------------------------------------------------- */

/* Rows = incoming, columns = table (int long float double string bytes); "X" = refused. */
static const char *const chart_types[6] = {"int", "long", "float", "double", "string", "bytes"};
static const char *const chart[6][6] = {
    {"int", "long", "float", "double", "string", "X"},
    {"long", "long", "float", "double", "string", "X"},
    {"float", "float", "float", "double", "string", "X"},
    {"double", "double", "double", "double", "string", "X"},
    {"string", "string", "string", "string", "string", "bytes"},
    {"X", "X", "X", "X", "string", "bytes"},
};

Test(evolve, chart_every_cell_as_a_column) {
    char table[64], incoming[64], want[64];
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            snprintf(table, sizeof(table), "k string, c %s?", chart_types[j]);
            snprintf(incoming, sizeof(incoming), "k string, c %s?", chart_types[i]);
            if (strcmp(chart[i][j], "X") == 0) {
                char in_word[32], tb_word[32];
                snprintf(in_word, sizeof(in_word), "incoming type '%s'", chart_types[i]);
                snprintf(tb_word, sizeof(tb_word), "table's type '%s'", chart_types[j]);
                EXPECT_REFUSED(table, incoming, NONE, "not compatible", "'t_record.c'", in_word,
                               tb_word);
            } else {
                snprintf(want, sizeof(want), "k string, c %s?", chart[i][j]);
                EXPECT_SCHEMA(table, incoming, NONE, want);
            }
        }
}

Test(evolve, chart_every_cell_through_promote) {
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            char text[64];
            snprintf(text, sizeof(text), "a %s, b %s?", chart_types[i], chart_types[j]);
            hudi_field f = spec_record("r", text), out;
            bool ok = hudi_schema_promote(&f.children[0], &f.children[1], &out);
            cr_expect_eq(ok, strcmp(chart[i][j], "X") != 0, "%s into %s", chart_types[i],
                         chart_types[j]);
            if (ok) {
                hudi_buf b = HUDI_BUF_INIT;
                spec_describe(&b, &out);
                char want[32];
                snprintf(want, sizeof(want), "%s?", chart[i][j]);
                cr_expect_str_eq(b.data, want, "%s into %s", chart_types[i], chart_types[j]);
                cr_expect_str_eq(out.name, "b", "named as the table column");
                hudi_buf_dispose(&b);
            } else {
                cr_expect_null(out.name);
            }
            hudi_field_dispose(&out);
            hudi_field_dispose(&f);
        }
}

Test(evolve, decimals) {
    /* numbers and strings into a decimal column are converted to it */
    EXPECT_SCHEMA("d decimal(10,2)", "d int", NONE, "d decimal(10,2)");
    EXPECT_SCHEMA("d decimal(10,2)", "d long", NONE, "d decimal(10,2)");
    EXPECT_SCHEMA("d decimal(10,2)", "d double", NONE, "d decimal(10,2)");
    EXPECT_SCHEMA("d decimal(10,2)", "d string", NONE, "d decimal(10,2)");
    /* narrower decimal: converted; wider decimal (a widening of the table's): the table widens */
    EXPECT_SCHEMA("d decimal(10,2)", "d decimal(5,2)", NONE, "d decimal(10,2)");
    EXPECT_SCHEMA("d decimal(10,2)", "d decimal(12,2)", NONE, "d decimal(12,2)");
    EXPECT_SCHEMA("d decimal(10,2)", "d decimal(12,3)", NONE, "d decimal(12,3)");
    EXPECT_SCHEMA("d decimal(10,2)", "d decimal(9,1)", NONE, "d decimal(10,2)");
    /* a scale change that loses digits either way: refused (Hudi would change the scale) */
    EXPECT_REFUSED("d decimal(10,2)", "d decimal(10,3)", NONE, "decimal(10,3)", "decimal(10,2)",
                   "'t_record.d'", "not compatible");
    EXPECT_REFUSED("d decimal(10,2)", "d decimal(10,1)", NONE, "not compatible");
    /* decimals into text, not into numbers */
    EXPECT_SCHEMA("d string", "d decimal(10,2)", NONE, "d string");
    EXPECT_REFUSED("d double", "d decimal(10,2)", NONE, "not compatible");
    EXPECT_REFUSED("d int", "d decimal(10,2)", NONE, "not compatible");
    EXPECT_REFUSED("d bytes", "d decimal(10,2)", NONE, "not compatible");
}

Test(evolve, logical_types_are_never_lost) {
    EXPECT_REFUSED("d date", "d int", NONE, "incoming type 'int'", "table's type 'date'",
                   "'t_record.d'", "date would become a plain int");
    EXPECT_REFUSED("ts timestamp", "ts long", NONE, "incoming type 'long'",
                   "table's type 'timestamp-micros'", "logical type would be lost");
    EXPECT_REFUSED("d int", "d date", NONE, "not compatible");
    EXPECT_REFUSED("ts long", "ts timestamp", NONE, "not compatible");
    EXPECT_REFUSED("ts string", "ts timestamp", NONE, "not compatible");
    EXPECT_REFUSED("ts timestamp", "ts string", NONE, "not compatible");
    /* string <-> date is in Hudi's matrix both ways */
    EXPECT_SCHEMA("d date", "d string", NONE, "d date");
    EXPECT_SCHEMA("d string", "d date", NONE, "d string");
    EXPECT_SCHEMA("d date", "d date", NONE, "d date");
    EXPECT_SCHEMA("ts timestamp", "ts timestamp", NONE, "ts timestamp");
}

Test(evolve, boolean_fixed_and_null_types) {
    const char *others[] = {"int", "long", "double", "string", "bytes", "date"};
    for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
        char t[32], in[32];
        snprintf(t, sizeof(t), "b %s", others[i]);
        EXPECT_REFUSED("b boolean", t, NONE, "incoming type", "'boolean'", "not compatible");
        snprintf(in, sizeof(in), "b %s", others[i]);
        EXPECT_REFUSED(in, "b boolean", NONE, "incoming type 'boolean'", "not compatible");
    }
    EXPECT_SCHEMA("b boolean?", "b boolean", NONE, "b boolean?");
    EXPECT_SCHEMA("f fixed(4)", "f fixed(4)", NONE, "f fixed(4)");
    EXPECT_REFUSED("f fixed(4)", "f fixed(8)", NONE, "fixed[8]", "fixed[4]", "not compatible");
    EXPECT_REFUSED("f fixed(4)", "f bytes", NONE, "not compatible");
}

Test(evolve, arrow_only_types_take_their_table_form) {
    /* int8/int16 are Spark's int: into an int column as it is, into a long one converted */
    EXPECT_SCHEMA("a int, b long, c string", "a int8, b int16, c int16", NONE,
                  "a int, b long, c string");
    /* a first write: the batch's columns, Avro-shaped */
    hudi_field in = spec_record("x", "a int8, b int16?, c list<int8?>?"), w;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_schema_deduce_writer(&w, NULL, &in, NULL, "/tmp/tbl", &err), 0, "%s",
                 err.message);
    hudi_buf b = HUDI_BUF_INIT;
    spec_describe_fields(&b, &w);
    cr_expect_str_eq(b.data, "a int, b int?, c list<int?>?");
    hudi_buf_dispose(&b);
    hudi_field_dispose(&w);
    hudi_field_dispose(&in);
}

/* ---- nullability, added and missing columns ------------------------------------------------ */

Test(evolve, nullability_is_the_tables) {
    EXPECT_SCHEMA("a int, b int?", "a int?, b int", NONE, "a int, b int?");
    EXPECT_SCHEMA("a int, b int?", "a long?, b long", NONE, "a long, b long?");
    EXPECT_SCHEMA("s struct<x int>", "s struct<x int?>?", NONE, "s struct<x int>");
    EXPECT_SCHEMA("l list<int>?", "l list<long?>", NONE, "l list<long>?");
}

Test(evolve, nullable_root_column_added_at_the_end) {
    EXPECT_SCHEMA("a int, b string?", "a int, b string?, c double?", NONE,
                  "a int, b string?, c double?");
    /* reordered and extended (Hudi 0.15 takes the batch's order): the table's order stays,
     * new columns follow it in the batch's order */
    EXPECT_SCHEMA("a int, b string?", "z long?, b string?, a int, c double?", NONE,
                  "a int, b string?, z long?, c double?");
    EXPECT_SCHEMA("a int, b string?", "b string?, a int", NONE, "a int, b string?");
    /* nested types may be added whole */
    EXPECT_SCHEMA("a int", "a int, s struct<x int, y list<string>>?, m map<long?>?", NONE,
                  "a int, s struct<x int, y list<string>>?, m map<long?>?");
}

Test(evolve, custom_nullable_hoodie_column_is_a_column) {
    EXPECT_SCHEMA("a int", "a int, _hoodie_meta_col string?", NONE,
                  "a int, _hoodie_meta_col string?");
}

Test(evolve, non_nullable_added_column_refused) {
    EXPECT_REFUSED("a int", "a int, c double", NONE, "new field 't_record.c'",
                   "has no default value");
    EXPECT_REFUSED("a int, s struct<x int>?", "a int, s struct<x int, y int>?", NONE,
                   "new field 't_record.s.y'", "has no default value");
    EXPECT_REFUSED("a int, l list<struct<x int>?>?", "a int, l list<struct<x int, y int>?>?", NONE,
                   "new field 't_record.l.element.y'", "has no default value");
    EXPECT_REFUSED("a int, m map<struct<x int>?>?", "a int, m map<struct<x int, y int>?>?", NONE,
                   "new field 't_record.m.value.y'", "has no default value");
}

Test(evolve, nested_nullable_adds) {
    EXPECT_SCHEMA("a int, s struct<x int, y string?>?",
                  "a int, s struct<x int, z long?, y string?>?", NONE,
                  "a int, s struct<x int, y string?, z long?>?");
    EXPECT_SCHEMA("l list<struct<x int>?>?", "l list<struct<x int, n string?>?>?", NONE,
                  "l list<struct<x int, n string?>?>?");
    EXPECT_SCHEMA("m map<struct<x int>?>?", "m map<struct<x int, n string?>?>?", NONE,
                  "m map<struct<x int, n string?>?>?");
    EXPECT_SCHEMA("s struct<t struct<u int>>", "s struct<t struct<u int, v boolean?>>", NONE,
                  "s struct<t struct<u int, v boolean?>>");
}

Test(evolve, nested_promotions) {
    EXPECT_SCHEMA("s struct<x int, y long>?", "s struct<x long, y int>?", NONE,
                  "s struct<x long, y long>?");
    EXPECT_SCHEMA("l list<int?>?", "l list<long?>?", NONE, "l list<long?>?");
    EXPECT_SCHEMA("l list<long?>?", "l list<int?>?", NONE, "l list<long?>?");
    EXPECT_SCHEMA("l list<int>?", "l list<int?>?", NONE, "l list<int>?");
    EXPECT_SCHEMA("m map<int?>?", "m map<double?>?", NONE, "m map<double?>?");
    EXPECT_SCHEMA("m map<double?>?", "m map<float?>?", NONE, "m map<double?>?");
    EXPECT_SCHEMA("m map<string?>?", "m map<bytes?>?", NONE, "m map<string?>?");
    EXPECT_SCHEMA("l list<struct<x float>?>?", "l list<struct<x double>?>?", NONE,
                  "l list<struct<x double>?>?");
    EXPECT_REFUSED("l list<int?>?", "l list<bytes?>?", NONE, "'t_record.l.element'",
                   "incoming type 'bytes'", "table's type 'int'");
    EXPECT_REFUSED("m map<int?>?", "m map<boolean?>?", NONE, "'t_record.m.value'");
}

Test(evolve, struct_versus_primitive_refused) {
    EXPECT_REFUSED("s int", "s struct<x int>", NONE, "incoming type 'record'", "table's type 'int'",
                   "'t_record.s'");
    EXPECT_REFUSED("s struct<x int>", "s int", NONE, "incoming type 'int'",
                   "table's type 'record'");
    EXPECT_REFUSED("s list<int>", "s map<int>", NONE, "incoming type 'map'",
                   "table's type 'array'");
    EXPECT_REFUSED("s list<int>", "s int", NONE, "not compatible");
}

Test(evolve, missing_columns) {
    /* default: refused, every missing column named with its path */
    EXPECT_REFUSED("a int, b int?, s struct<x int?, y int?>?", "a int, s struct<x int?>?", NONE,
                   "missing field",
                   "fields missing from incoming schema: {t_record.b, t_record.s.y}",
                   "hoodie.write.set.null.for.missing.columns");
    EXPECT_REFUSED("a int, l list<struct<x int?, y int?>?>?", "a int, l list<struct<x int?>?>?",
                   NONE, "{t_record.l.element.y}");
    EXPECT_REFUSED("a int, m map<struct<x int?, y int?>?>?", "a int, m map<struct<y int?>?>?", NONE,
                   "{t_record.m.value.x}");
    /* set.null.for.missing.columns: kept (and written as null) */
    hudi_evolve_options set_null = {.set_null_for_missing = true};
    EXPECT_SCHEMA("a int, b int?, s struct<x int?, y int?>?", "a int, s struct<x int?>?", set_null,
                  "a int, b int?, s struct<x int?, y int?>?");
    /* ... unless a null cannot be written */
    EXPECT_REFUSED("a int, b int", "a int", set_null, "missing field {t_record.b}",
                   "no default value");
    /* reconcile keeps them too, also with drops allowed; partial updates keep even
     * non-nullable ones (their old values stay) */
    hudi_evolve_options reconcile = {.reconcile = true, .allow_column_drop = true};
    EXPECT_SCHEMA("a int, b int?, c string?", "c string?, a long", reconcile,
                  "a long, b int?, c string?");
    hudi_evolve_options partial = {.partial = true};
    EXPECT_SCHEMA("a int, b int", "a int", partial, "a int, b int");
}

Test(evolve, column_drop) {
    hudi_evolve_options drop = {.allow_column_drop = true};
    EXPECT_SCHEMA("a int, b int?, s struct<x int?, y int?>?", "a int, s struct<y int?>?, n long?",
                  drop, "a int, s struct<y int?>?, n long?");
    /* Hudi applies set.null.for.missing.columns only when drops are not allowed */
    hudi_evolve_options both = {.allow_column_drop = true, .set_null_for_missing = true};
    EXPECT_SCHEMA("a int, b int?", "a int", both, "a int");
}

Test(evolve, case_and_duplicates) {
    EXPECT_REFUSED("name string?", "name string?, Name string?", NONE, "twice");
    EXPECT_REFUSED("name string?", "Name string?", NONE, "'t_record.Name'", "differs only in case",
                   "'name'");
}

Test(evolve, same_schema_is_unchanged) {
    const char *s = "a int, b string?, c decimal(10,2)?, d date?, ts timestamp?, "
                    "s struct<x long?, y list<double?>?>?, m map<struct<k bytes?>?>?";
    EXPECT_SCHEMA(s, s, NONE, s);
}

/* ---- Hudi's TestHoodieSchemaUtils (0.15) ------------------------------------------------- */

static outcome deduce_named(const char *name, const char *table, const char *incoming,
                            hudi_evolve_options o) {
    outcome r;
    hudi_field t = spec_record(name, table), in = spec_record(name, incoming), w;
    hudi_error err = HUDI_ERROR_INIT;
    r.rc = hudi_schema_deduce_writer(&w, &t, &in, &o, "/tmp/tbl", &err);
    if (r.rc == 0) {
        hudi_buf b = HUDI_BUF_INIT;
        spec_describe_fields(&b, &w);
        snprintf(r.text, sizeof(r.text), "%s", b.data);
        hudi_buf_dispose(&b);
    } else {
        snprintf(r.text, sizeof(r.text), "%s", err.message);
    }
    hudi_field_dispose(&t);
    hudi_field_dispose(&in);
    hudi_field_dispose(&w);
    return r;
}

Test(evolve, hudi_missing_simple_field) {
    const char *table = "field1 int?, field2 string?, field3 long?";
    outcome r = deduce_named("missingSimpleField", table, "field1 int?, field3 long?", NONE);
    cr_expect_eq(r.rc, HUDI_EINVAL);
    cr_expect(strstr(r.text, "missing field") && strstr(r.text, "{missingSimpleField.field2}"),
              "%s", r.text);
    hudi_evolve_options set_null = {.set_null_for_missing = true};
    r = deduce_named("missingSimpleField", table, "field1 int?, field3 long?", set_null);
    cr_expect_eq(r.rc, 0, "%s", r.text);
    cr_expect_str_eq(r.text, table, "the writer schema is the table schema");
}

Test(evolve, hudi_numbers_into_bytes_refused) {
    const char *numbers[] = {"int", "long", "float", "double"};
    const char *shapes[][3] = {
        /* table, incoming pattern, path */
        {"simpleField bytes?", "simpleField %s?", "rec.simpleField"},
        {"arrayField list<bytes?>?", "arrayField list<%s?>?", "rec.arrayField.element"},
        {"mapField map<bytes?>?", "mapField map<%s?>?", "rec.mapField.value"},
        {"nestedField struct<nested bytes?>?", "nestedField struct<nested %s?>?",
         "rec.nestedField.nested"},
    };
    for (size_t i = 0; i < 4; i++)
        for (size_t k = 0; k < 4; k++) {
            char in[96], want[128];
            snprintf(in, sizeof(in), shapes[k][1], numbers[i]);
            outcome r = deduce_named("rec", shapes[k][0], in, NONE);
            snprintf(want, sizeof(want),
                     "incoming type '%s' is not compatible with the table's type 'bytes' for "
                     "field '%s'",
                     numbers[i], shapes[k][2]);
            cr_expect_eq(r.rc, HUDI_EINVAL, "%s accepted", in);
            cr_expect(strstr(r.text, want), "'%s' not in: %s", want, r.text);
        }
}

Test(evolve, spec_walk_through_schema) {
    /* the documentation's example: newField added, intToLong int -> long */
    EXPECT_SCHEMA("rowId string?, partitionId string?, preComb long?, name string?, "
                  "versionId string?, intToLong int?",
                  "rowId string?, partitionId string?, preComb long?, name string?, "
                  "versionId string?, intToLong long?, newField string?",
                  NONE,
                  "rowId string?, partitionId string?, preComb long?, name string?, "
                  "versionId string?, intToLong long?, newField string?");
}

Test(evolve, bad_arguments) {
    hudi_field t = spec_record("t", "a int"), w;
    hudi_field prim;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_field_init(&prim, "p", HUDI_TYPE_INT32, false), 0);
    cr_expect_eq(hudi_schema_deduce_writer(&w, &t, &prim, NULL, "/x", &err), HUDI_EINVAL);
    cr_expect(strncmp(err.message, "/x: ", 4) == 0, "%s", err.message);
    cr_expect_eq(hudi_schema_deduce_writer(&w, &prim, &t, NULL, "/x", &err), HUDI_EINVAL);
    hudi_field nulltype = spec_record("t", "a int");
    nulltype.children[0].type = HUDI_TYPE_NULL;
    nulltype.children[0].nullable = true;
    cr_expect_eq(hudi_schema_deduce_writer(&w, &t, &nulltype, NULL, "/x", &err), HUDI_EINVAL);
    cr_expect(strstr(err.message, "has type null"), "%s", err.message);
    cr_expect_eq(hudi_schema_deduce_writer(&w, NULL, &nulltype, NULL, "/x", &err), HUDI_EINVAL);
    hudi_field_dispose(&nulltype);
    hudi_field_dispose(&prim);
    hudi_field_dispose(&t);
}
