/* schema_test.c - Parquet schema elements <-> hudi_field: type mapping (docs/formats/parquet.md
 * §5.1), LIST rules 1-5 (§4.5), MAP forms (§4.6), unannotated repeated fields, validation, level
 * plans, round trips, and the schemas of real fixture files. */
#include "levels_support.h"
#include "support.h"

static const hudi_field *col(const pq_schema *s, int i) { return &s->root.children[i]; }

Test(pq_schema, leaf_type_mapping) {
    pq_schema_element el[] = {
        el_group("schema", -1, 14),
        el_lt(el_leaf("s", PQ_OPTIONAL, PQ_BYTE_ARRAY), PQ_LT_STRING),
        el_ct(el_leaf("s_ct", PQ_OPTIONAL, PQ_BYTE_ARRAY), PQ_CT_UTF8),
        el_leaf("bin", PQ_OPTIONAL, PQ_BYTE_ARRAY),
        el_leaf("ts96", PQ_OPTIONAL, PQ_INT96),
        el_ct(el_leaf("u32", PQ_REQUIRED, PQ_INT32), PQ_CT_UINT_32),
        el_ct(el_leaf("ts_ms", PQ_OPTIONAL, PQ_INT64), PQ_CT_TIMESTAMP_MILLIS),
        el_lt(el_len(el_leaf("uuid", PQ_OPTIONAL, PQ_FIXED_LEN_BYTE_ARRAY), 16), PQ_LT_UUID),
        el_lt(el_len(el_leaf("f16", PQ_OPTIONAL, PQ_FIXED_LEN_BYTE_ARRAY), 2), PQ_LT_FLOAT16),
        el_lt(el_leaf("j", PQ_OPTIONAL, PQ_BYTE_ARRAY), PQ_LT_JSON),
        el_ct(el_leaf("b", PQ_OPTIONAL, PQ_BYTE_ARRAY), PQ_CT_BSON),
        el_ct(el_len(el_leaf("iv", PQ_OPTIONAL, PQ_FIXED_LEN_BYTE_ARRAY), 12), PQ_CT_INTERVAL),
        el_lt(el_leaf("nul", PQ_OPTIONAL, PQ_INT32), PQ_LT_UNKNOWN),
        /* unknown LogicalType member (meta_read reports kind 0) falls back to ConvertedType */
        el_ct(el_lt(el_leaf("unk", PQ_OPTIONAL, PQ_BYTE_ARRAY), PQ_LT_NONE), PQ_CT_UTF8),
        el_ct(el_leaf("dec", PQ_OPTIONAL, PQ_INT64), PQ_CT_DECIMAL),
    };
    el[14].has_precision = true;
    el[14].precision = 12; /* scale defaults to 0 */
    pq_schema s;
    READ_SCHEMA(s, el);
    cr_assert_eq(s.root.n_children, 14);
    cr_assert_str_eq(s.root.name, "schema");
    cr_assert_eq(col(&s, 0)->type, HUDI_TYPE_STRING);
    cr_assert_eq(col(&s, 1)->type, HUDI_TYPE_STRING);
    cr_assert_eq(col(&s, 2)->type, HUDI_TYPE_BINARY);
    cr_assert_eq(col(&s, 3)->type, HUDI_TYPE_TIMESTAMP);
    cr_assert_eq(col(&s, 3)->hint, HUDI_HINT_INT96);
    cr_assert_eq(col(&s, 3)->unit, HUDI_UNIT_MICROS);
    cr_assert(col(&s, 3)->utc);
    cr_assert_eq(col(&s, 4)->type, HUDI_TYPE_UINT32);
    cr_assert_not(col(&s, 4)->nullable);
    cr_assert_eq(col(&s, 5)->type, HUDI_TYPE_TIMESTAMP);
    cr_assert_eq(col(&s, 5)->unit, HUDI_UNIT_MILLIS);
    cr_assert(col(&s, 5)->utc);
    cr_assert_eq(col(&s, 6)->type, HUDI_TYPE_FIXED_BINARY);
    cr_assert_eq(col(&s, 6)->byte_width, 16);
    cr_assert_eq(col(&s, 6)->hint, HUDI_HINT_UUID);
    cr_assert_eq(col(&s, 7)->type, HUDI_TYPE_FLOAT16);
    cr_assert_eq(col(&s, 8)->type, HUDI_TYPE_STRING);
    cr_assert_eq(col(&s, 8)->hint, HUDI_HINT_JSON);
    cr_assert_eq(col(&s, 9)->type, HUDI_TYPE_BINARY);
    cr_assert_eq(col(&s, 9)->hint, HUDI_HINT_BSON);
    cr_assert_eq(col(&s, 10)->type, HUDI_TYPE_FIXED_BINARY);
    cr_assert_eq(col(&s, 10)->hint, HUDI_HINT_INTERVAL);
    cr_assert_eq(col(&s, 11)->type, HUDI_TYPE_NULL);
    cr_assert_eq(col(&s, 12)->type, HUDI_TYPE_STRING);
    cr_assert_eq(col(&s, 13)->type, HUDI_TYPE_DECIMAL);
    cr_assert_eq(col(&s, 13)->precision, 12);
    cr_assert_eq(col(&s, 13)->scale, 0);
    cr_assert_eq(s.n_leaves, 14);
    cr_assert_eq(s.leaves[4].max_def, 0);
    cr_assert_eq(s.leaves[5].max_def, 1);
    cr_assert_eq(s.leaves[5].physical_type, PQ_INT64);
    cr_assert_eq(s.leaves[6].type_length, 16);
    hudi_pq_schema_dispose(&s);
}

Test(pq_schema, binary_as_string_and_logical_wins) {
    pq_schema_element el[] = {
        el_group("r", -1, 2),
        el_leaf("b", PQ_OPTIONAL, PQ_BYTE_ARRAY),
        /* LogicalType INTEGER(8, signed) contradicts UINT_16: LogicalType wins */
        el_ct(el_lt(el_leaf("i", PQ_OPTIONAL, PQ_INT32), PQ_LT_INTEGER), PQ_CT_UINT_16),
    };
    el[2].logical_type.bit_width = 8;
    el[2].logical_type.is_signed = true;
    pq_schema_read_options o = PQ_SCHEMA_READ_OPTIONS_INIT;
    o.binary_as_string = true;
    pq_schema s;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_schema_read(&s, el, 3, &o, &err), 0, "%s", err.message);
    cr_assert_eq(col(&s, 0)->type, HUDI_TYPE_STRING);
    cr_assert_eq(col(&s, 1)->type, HUDI_TYPE_INT8);
    hudi_pq_schema_dispose(&s);
}

static int read_err(pq_schema_element *el, int n, hudi_error *err) {
    pq_schema s;
    int rc = hudi_pq_schema_read(&s, el, n, NULL, err);
    hudi_pq_schema_dispose(&s);
    return rc;
}

Test(pq_schema, annotation_errors) {
    hudi_error err = HUDI_ERROR_INIT;
    pq_schema_element big[] = {el_group("r", -1, 1),
                               el_lt(el_leaf("d", PQ_OPTIONAL, PQ_BYTE_ARRAY), PQ_LT_DECIMAL)};
    big[1].logical_type.precision = 40;
    big[1].logical_type.scale = 2;
    cr_assert_eq(read_err(big, 2, &err), HUDI_EUNSUPPORTED);
    cr_assert(strstr(err.message, "d:") || strstr(err.message, "column d"), "%s", err.message);

    pq_schema_element date[] = {el_group("r", -1, 1),
                                el_ct(el_leaf("dt", PQ_OPTIONAL, PQ_BYTE_ARRAY), PQ_CT_DATE)};
    cr_assert_eq(read_err(date, 2, &err), HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "dt"), "%s", err.message);

    pq_schema_element d32[] = {el_group("r", -1, 1),
                               el_lt(el_leaf("d", PQ_OPTIONAL, PQ_INT32), PQ_LT_DECIMAL)};
    d32[1].logical_type.precision = 12;
    cr_assert_eq(read_err(d32, 2, &err), HUDI_ECORRUPT);

    pq_schema_element ts[] = {el_group("r", -1, 1),
                              el_lt(el_leaf("t", PQ_OPTIONAL, PQ_INT64), PQ_LT_TIMESTAMP)};
    ts[1].logical_type.unit = PQ_UNIT_UNKNOWN;
    cr_assert_eq(read_err(ts, 2, &err), HUDI_EUNSUPPORTED);

    pq_schema_element uuid[] = {
        el_group("r", -1, 1),
        el_lt(el_len(el_leaf("u", PQ_OPTIONAL, PQ_FIXED_LEN_BYTE_ARRAY), 8), PQ_LT_UUID)};
    cr_assert_eq(read_err(uuid, 2, &err), HUDI_ECORRUPT);
}

Test(pq_schema, structure_errors) {
    hudi_error err = HUDI_ERROR_INIT;
    pq_schema_element too_many[] = {el_group("r", -1, 3), el_leaf("a", PQ_REQUIRED, PQ_INT32)};
    cr_assert_eq(read_err(too_many, 2, &err), HUDI_ECORRUPT);
    pq_schema_element too_few[] = {el_group("r", -1, 1), el_leaf("a", PQ_REQUIRED, PQ_INT32),
                                   el_leaf("b", PQ_REQUIRED, PQ_INT32)};
    cr_assert_eq(read_err(too_few, 3, &err), HUDI_ECORRUPT);
    pq_schema_element no_rep[] = {el_group("r", -1, 1), el_leaf("a", -1, PQ_INT32)};
    cr_assert_eq(read_err(no_rep, 2, &err), HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "repetition"), "%s", err.message);
    pq_schema_element no_type[] = {el_group("r", -1, 1), el_group("a", PQ_OPTIONAL, 0)};
    cr_assert_eq(read_err(no_type, 2, &err), HUDI_ECORRUPT);
    pq_schema_element typed_group[] = {el_group("r", -1, 1), el_group("g", PQ_OPTIONAL, 1),
                                       el_leaf("a", PQ_REQUIRED, PQ_INT32)};
    typed_group[1].has_type = true;
    cr_assert_eq(read_err(typed_group, 3, &err), HUDI_ECORRUPT);
    pq_schema_element flba[] = {el_group("r", -1, 1),
                                el_leaf("f", PQ_OPTIONAL, PQ_FIXED_LEN_BYTE_ARRAY)};
    cr_assert_eq(read_err(flba, 2, &err), HUDI_ECORRUPT);
    pq_schema_element bad_type[] = {el_group("r", -1, 1), el_leaf("x", PQ_OPTIONAL, -7)};
    cr_assert_eq(read_err(bad_type, 2, &err), HUDI_ECORRUPT);
    cr_assert_eq(read_err(NULL, 0, &err), HUDI_ECORRUPT);
    pq_schema_element neg[] = {el_group("r", -1, -1)};
    cr_assert_eq(read_err(neg, 1, &err), HUDI_ECORRUPT);

    /* 102 nested groups */
    pq_schema_element deep[104];
    deep[0] = el_group("r", -1, 1);
    for (int i = 1; i <= 102; i++) deep[i] = el_group("g", PQ_OPTIONAL, 1);
    deep[103] = el_leaf("x", PQ_OPTIONAL, PQ_INT32);
    cr_assert_eq(read_err(deep, 104, &err), HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "deeper"), "%s", err.message);
    /* 99 nested groups are fine */
    pq_schema_element ok[101];
    ok[0] = el_group("r", -1, 1);
    for (int i = 1; i <= 99; i++) ok[i] = el_group("g", PQ_OPTIONAL, 1);
    ok[100] = el_leaf("x", PQ_OPTIONAL, PQ_INT32);
    cr_assert_eq(read_err(ok, 101, &err), 0, "%s", err.message);
}

/* ---- LIST rules (§4.5) ---- */

static void check_list(pq_schema_element *el, int n, hudi_type_id elem_type, bool elem_nullable,
                       const char *elem_name, int max_def, int max_rep) {
    pq_schema s;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_schema_read(&s, el, n, NULL, &err), 0, "%s", err.message);
    const hudi_field *l = col(&s, 0);
    cr_assert_eq(l->type, HUDI_TYPE_LIST);
    cr_assert_str_eq(l->name, "a");
    cr_assert_eq(l->children[0].type, elem_type);
    cr_assert_eq(l->children[0].nullable, elem_nullable);
    cr_assert_str_eq(l->children[0].name, elem_name);
    cr_assert_eq(s.leaves[0].max_def, max_def);
    cr_assert_eq(s.leaves[0].max_rep, max_rep);
    hudi_pq_schema_dispose(&s);
}

Test(pq_schema, list_rule1_primitive_repeated) {
    pq_schema_element el[] = {el_group("r", -1, 1),
                              el_ct(el_group("a", PQ_OPTIONAL, 1), PQ_CT_LIST),
                              el_leaf("array", PQ_REPEATED, PQ_INT32)};
    check_list(el, 3, HUDI_TYPE_INT32, false, "array", 2, 1);
}

Test(pq_schema, list_rule2_multi_field_group) {
    pq_schema_element el[] = {el_group("r", -1, 1),
                              el_lt(el_group("a", PQ_OPTIONAL, 1), PQ_LT_LIST),
                              el_group("array", PQ_REPEATED, 2),
                              el_ct(el_leaf("f1", PQ_OPTIONAL, PQ_BYTE_ARRAY), PQ_CT_UTF8),
                              el_leaf("f2", PQ_OPTIONAL, PQ_INT32)};
    check_list(el, 5, HUDI_TYPE_STRUCT, false, "array", 3, 1);
}

Test(pq_schema, list_rule3_old_list_structure) {
    /* required group a (LIST) { repeated group array (LIST) { repeated int32 array; } } */
    pq_schema_element el[] = {el_group("r", -1, 1),
                              el_ct(el_group("a", PQ_REQUIRED, 1), PQ_CT_LIST),
                              el_ct(el_group("array", PQ_REPEATED, 1), PQ_CT_LIST),
                              el_leaf("array", PQ_REPEATED, PQ_INT32)};
    check_list(el, 4, HUDI_TYPE_LIST, false, "array", 2, 2);
    pq_schema s;
    READ_SCHEMA(s, el);
    const hudi_field *inner = &col(&s, 0)->children[0];
    cr_assert_eq(inner->children[0].type, HUDI_TYPE_INT32);
    cr_assert_not(inner->children[0].nullable);
    cr_assert_eq(s.leaves[0].depth, 3);
    cr_assert_eq(s.leaves[0].path_len, 3);
    hudi_pq_schema_dispose(&s);
}

Test(pq_schema, list_rule4_array_and_tuple_names) {
    pq_schema_element el[] = {
        el_group("r", -1, 1), el_ct(el_group("a", PQ_OPTIONAL, 1), PQ_CT_LIST),
        el_group("a_tuple", PQ_REPEATED, 1), el_leaf("x", PQ_OPTIONAL, PQ_INT32)};
    check_list(el, 4, HUDI_TYPE_STRUCT, false, "a_tuple", 3, 1);
    el[2].name = hudi_slice_cstr("array");
    check_list(el, 4, HUDI_TYPE_STRUCT, false, "array", 3, 1);
}

Test(pq_schema, list_rule5_three_level_and_legacy_names) {
    pq_schema_element el[] = {
        el_group("r", -1, 1), el_lt(el_group("a", PQ_OPTIONAL, 1), PQ_LT_LIST),
        el_group("list", PQ_REPEATED, 1), el_leaf("element", PQ_OPTIONAL, PQ_INT32)};
    check_list(el, 4, HUDI_TYPE_INT32, true, "element", 3, 1);
    /* Spark legacy: repeated group bag { optional int32 array; } */
    el[2].name = hudi_slice_cstr("bag");
    el[3].name = hudi_slice_cstr("array");
    check_list(el, 4, HUDI_TYPE_INT32, true, "array", 3, 1);
    /* element REQUIRED */
    el[3].repetition = PQ_REQUIRED;
    check_list(el, 4, HUDI_TYPE_INT32, false, "array", 2, 1);
}

Test(pq_schema, list_errors) {
    hudi_error err = HUDI_ERROR_INIT;
    pq_schema_element two[] = {
        el_group("r", -1, 1), el_ct(el_group("a", PQ_OPTIONAL, 2), PQ_CT_LIST),
        el_leaf("x", PQ_REPEATED, PQ_INT32), el_leaf("y", PQ_REPEATED, PQ_INT32)};
    cr_assert_eq(read_err(two, 4, &err), HUDI_ECORRUPT);
    pq_schema_element notrep[] = {el_group("r", -1, 1),
                                  el_ct(el_group("a", PQ_OPTIONAL, 1), PQ_CT_LIST),
                                  el_leaf("x", PQ_OPTIONAL, PQ_INT32)};
    cr_assert_eq(read_err(notrep, 3, &err), HUDI_ECORRUPT);
}

Test(pq_schema, unannotated_repeated) {
    /* repeated_no_annotation.parquet: optional group phoneNumbers { repeated group phone {
     * required int64 number; optional binary kind (STRING); } } plus a top-level repeated int */
    pq_schema_element el[] = {el_group("r", -1, 3),
                              el_leaf("id", PQ_REQUIRED, PQ_INT32),
                              el_group("phoneNumbers", PQ_OPTIONAL, 1),
                              el_group("phone", PQ_REPEATED, 2),
                              el_leaf("number", PQ_REQUIRED, PQ_INT64),
                              el_ct(el_leaf("kind", PQ_OPTIONAL, PQ_BYTE_ARRAY), PQ_CT_UTF8),
                              el_leaf("tags", PQ_REPEATED, PQ_INT32)};
    el[3].has_field_id = true;
    el[3].field_id = 7;
    pq_schema s;
    READ_SCHEMA(s, el);
    const hudi_field *pn = col(&s, 1);
    cr_assert_eq(pn->type, HUDI_TYPE_STRUCT);
    const hudi_field *phone = &pn->children[0];
    cr_assert_eq(phone->type, HUDI_TYPE_LIST);
    cr_assert_not(phone->nullable);
    cr_assert_eq(phone->field_id, 7);
    cr_assert_eq(phone->children[0].type, HUDI_TYPE_STRUCT);
    cr_assert_not(phone->children[0].nullable);
    cr_assert_eq(phone->children[0].field_id, -1);
    cr_assert_eq(s.n_leaves, 4);
    cr_assert_eq(s.leaves[1].max_def, 2); /* phoneNumbers, phone */
    cr_assert_eq(s.leaves[1].max_rep, 1);
    cr_assert_eq(s.leaves[2].max_def, 3);
    cr_assert_eq(s.leaves[1].path_len, 3);
    cr_assert_eq(s.leaves[1].depth, 4); /* struct, list, struct, leaf */
    cr_assert(s.leaves[1].levels[0].owned && s.leaves[1].levels[1].owned);
    cr_assert(!s.leaves[2].levels[0].owned && !s.leaves[2].levels[2].owned);
    cr_assert(s.leaves[2].levels[3].owned);
    const hudi_field *tags = col(&s, 2);
    cr_assert_eq(tags->type, HUDI_TYPE_LIST);
    cr_assert_not(tags->nullable);
    cr_assert_eq(tags->children[0].type, HUDI_TYPE_INT32);
    cr_assert_eq(s.leaves[3].max_def, 1);
    cr_assert_eq(s.leaves[3].max_rep, 1);
    cr_assert_eq(s.column_leaves[0], 0);
    cr_assert_eq(s.column_leaves[1], 1);
    cr_assert_eq(s.column_leaves[2], 3);
    cr_assert_eq(s.column_leaves[3], 4);
    hudi_pq_schema_dispose(&s);
}

/* ---- MAP (§4.6) ---- */

Test(pq_schema, map_forms) {
    pq_schema_element el[] = {el_group("r", -1, 1), el_ct(el_group("m", PQ_OPTIONAL, 1), PQ_CT_MAP),
                              el_ct(el_group("map", PQ_REPEATED, 2), PQ_CT_MAP_KEY_VALUE),
                              el_ct(el_leaf("k", PQ_OPTIONAL, PQ_BYTE_ARRAY), PQ_CT_UTF8),
                              el_leaf("v", PQ_OPTIONAL, PQ_INT32)};
    pq_schema s;
    READ_SCHEMA(s, el);
    const hudi_field *m = col(&s, 0);
    cr_assert_eq(m->type, HUDI_TYPE_MAP);
    cr_assert_eq(m->children[0].type, HUDI_TYPE_STRUCT);
    cr_assert_not(m->children[0].nullable);
    cr_assert_str_eq(m->children[0].children[0].name, "k");
    cr_assert(m->children[0].children[0].nullable); /* optional key accepted */
    cr_assert_eq(s.leaves[0].max_def, 3);
    cr_assert_eq(s.leaves[1].max_def, 3);
    cr_assert_eq(s.leaves[0].depth, 3);
    cr_assert(s.leaves[0].levels[1].owned);
    cr_assert(!s.leaves[1].levels[1].owned);
    hudi_pq_schema_dispose(&s);

    /* MAP_KEY_VALUE on the outer group, and no value field */
    pq_schema_element nv[] = {
        el_group("r", -1, 1), el_ct(el_group("m", PQ_REQUIRED, 1), PQ_CT_MAP_KEY_VALUE),
        el_group("key_value", PQ_REPEATED, 1), el_leaf("key", PQ_REQUIRED, PQ_INT32)};
    READ_SCHEMA(s, nv);
    m = col(&s, 0);
    cr_assert_eq(m->type, HUDI_TYPE_MAP);
    cr_assert_eq(m->children[0].n_children, 2);
    cr_assert_eq(m->children[0].children[1].type, HUDI_TYPE_NULL);
    cr_assert(m->children[0].children[1].nullable);
    cr_assert_eq(s.n_leaves, 1);
    cr_assert_eq(s.leaves[0].levels[1].null_child, 1);
    hudi_pq_schema_dispose(&s);

    hudi_error err = HUDI_ERROR_INIT;
    pq_schema_element bad[] = {el_group("r", -1, 1),
                               el_ct(el_group("m", PQ_OPTIONAL, 1), PQ_CT_MAP),
                               el_leaf("kv", PQ_REPEATED, PQ_INT32)};
    cr_assert_eq(read_err(bad, 3, &err), HUDI_ECORRUPT);
}

/* ---- writing and round trips ---- */

static void build_all_types(hudi_field *root) {
    cr_assert_eq(hudi_field_init(root, "hudi_record", HUDI_TYPE_STRUCT, false), 0);
    static const hudi_type_id flat[] = {
        HUDI_TYPE_BOOL,  HUDI_TYPE_INT8,   HUDI_TYPE_INT16,  HUDI_TYPE_INT32,  HUDI_TYPE_INT64,
        HUDI_TYPE_UINT8, HUDI_TYPE_UINT16, HUDI_TYPE_UINT32, HUDI_TYPE_UINT64, HUDI_TYPE_FLOAT16,
        HUDI_TYPE_FLOAT, HUDI_TYPE_DOUBLE, HUDI_TYPE_DATE,   HUDI_TYPE_STRING, HUDI_TYPE_BINARY};
    int nflat = (int)HUDI_ARRAY_LEN(flat);
    cr_assert_eq(hudi_field_set_children(root, nflat + 20), 0);
    char name[32];
    for (int i = 0; i < nflat; i++) {
        snprintf(name, sizeof(name), "c%d", i);
        add_child(root, i, name, flat[i], i % 2 == 0);
        root->children[i].field_id = i % 3 == 0 ? 100 + i : -1;
    }
    hudi_field *f = &root->children[nflat];
    int32_t precs[] = {4, 9, 10, 18, 25, 38};
    for (int i = 0; i < 6; i++) {
        snprintf(name, sizeof(name), "dec%d", precs[i]);
        add_child(root, nflat + i, name, HUDI_TYPE_DECIMAL, true);
        f[i].precision = precs[i];
        f[i].scale = i;
    }
    f += 6;
    add_child(root, nflat + 6, "t_ms", HUDI_TYPE_TIME, true);
    f[0].unit = HUDI_UNIT_MILLIS;
    f[0].utc = false;
    add_child(root, nflat + 7, "t_ns", HUDI_TYPE_TIME, true);
    f[1].unit = HUDI_UNIT_NANOS;
    f[1].utc = true;
    add_child(root, nflat + 8, "ts_us", HUDI_TYPE_TIMESTAMP, true);
    f[2].unit = HUDI_UNIT_MICROS;
    f[2].utc = true;
    add_child(root, nflat + 9, "ts_ns_local", HUDI_TYPE_TIMESTAMP, true);
    f[3].unit = HUDI_UNIT_NANOS;
    f[3].utc = false;
    add_child(root, nflat + 10, "uuid", HUDI_TYPE_FIXED_BINARY, true);
    f[4].byte_width = 16;
    f[4].hint = HUDI_HINT_UUID;
    add_child(root, nflat + 11, "json", HUDI_TYPE_STRING, true);
    f[5].hint = HUDI_HINT_JSON;
    add_child(root, nflat + 12, "enum", HUDI_TYPE_STRING, false);
    f[6].hint = HUDI_HINT_ENUM;
    add_child(root, nflat + 13, "bson", HUDI_TYPE_BINARY, true);
    f[7].hint = HUDI_HINT_BSON;
    add_child(root, nflat + 14, "interval", HUDI_TYPE_FIXED_BINARY, true);
    f[8].byte_width = 12;
    f[8].hint = HUDI_HINT_INTERVAL;
    add_child(root, nflat + 15, "nothing", HUDI_TYPE_NULL, true);
    /* list<struct<a: int32, b: list<string not null>>> */
    hudi_field *l = &f[10];
    add_child(root, nflat + 16, "lst", HUDI_TYPE_LIST, true);
    cr_assert_eq(hudi_field_set_children(l, 1), 0);
    add_child(l, 0, "element", HUDI_TYPE_STRUCT, true);
    hudi_field *st = &l->children[0];
    cr_assert_eq(hudi_field_set_children(st, 2), 0);
    add_child(st, 0, "a", HUDI_TYPE_INT32, false);
    add_child(st, 1, "b", HUDI_TYPE_LIST, true);
    cr_assert_eq(hudi_field_set_children(&st->children[1], 1), 0);
    add_child(&st->children[1], 0, "element", HUDI_TYPE_STRING, false);
    /* map<string, map<int64, double>> */
    hudi_field *m = &f[11];
    add_child(root, nflat + 17, "mp", HUDI_TYPE_MAP, false);
    m->field_id = 42;
    cr_assert_eq(hudi_field_set_children(m, 1), 0);
    add_child(m, 0, "key_value", HUDI_TYPE_STRUCT, false);
    cr_assert_eq(hudi_field_set_children(&m->children[0], 2), 0);
    add_child(&m->children[0], 0, "key", HUDI_TYPE_STRING, false);
    add_child(&m->children[0], 1, "value", HUDI_TYPE_MAP, true);
    hudi_field *m2 = &m->children[0].children[1];
    cr_assert_eq(hudi_field_set_children(m2, 1), 0);
    add_child(m2, 0, "key_value", HUDI_TYPE_STRUCT, false);
    cr_assert_eq(hudi_field_set_children(&m2->children[0], 2), 0);
    add_child(&m2->children[0], 0, "key", HUDI_TYPE_INT64, false);
    add_child(&m2->children[0], 1, "value", HUDI_TYPE_DOUBLE, true);
    /* list<list<int32 not null> not null> and a struct with one field */
    hudi_field *ll = &f[12];
    add_child(root, nflat + 18, "ll", HUDI_TYPE_LIST, true);
    cr_assert_eq(hudi_field_set_children(ll, 1), 0);
    add_child(ll, 0, "element", HUDI_TYPE_LIST, false);
    cr_assert_eq(hudi_field_set_children(&ll->children[0], 1), 0);
    add_child(&ll->children[0], 0, "element", HUDI_TYPE_INT32, false);
    hudi_field *s1 = &f[13];
    add_child(root, nflat + 19, "s1", HUDI_TYPE_STRUCT, true);
    cr_assert_eq(hudi_field_set_children(s1, 1), 0);
    add_child(s1, 0, "only", HUDI_TYPE_INT64, true);
}

static void round_trip(const hudi_field *root, const pq_schema_write_options *o) {
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    pq_schema_element *el = NULL;
    int32_t n = 0;
    cr_assert_eq(hudi_pq_schema_write(&el, &n, &arena, root, o, &err), 0, "%s", err.message);
    pq_schema s;
    cr_assert_eq(hudi_pq_schema_read(&s, el, n, NULL, &err), 0, "%s", err.message);
    hudi_buf why = HUDI_BUF_INIT;
    bool same = field_same(root, &s.root, &why);
    cr_assert(same, "%s", why.data);
    hudi_buf_dispose(&why);
    hudi_pq_schema_dispose(&s);
    hudi_arena_dispose(&arena);
}

static void rename_field(hudi_field *f, const char *name) {
    hudi_free(f->name);
    f->name = hudi_strdup(name);
}

Test(pq_schema, write_read_round_trip_every_type) {
    hudi_field root;
    build_all_types(&root);
    round_trip(&root, NULL);
    pq_schema_write_options o = PQ_SCHEMA_WRITE_OPTIONS_INIT;
    o.decimal_as_flba = true;
    round_trip(&root, &o);
    /* two-level lists: element names become "array" */
    o.two_level_lists = true;
    hudi_field *ll = &root.children[15 + 18];
    rename_field(&ll->children[0], "array");
    rename_field(&ll->children[0].children[0], "array");
    hudi_field *b = &root.children[15 + 16].children[0].children[1];
    rename_field(&b->children[0], "array");
    round_trip(&root, &o);
    /* INT96 hint survives only when asked */
    hudi_field *ts = &root.children[15 + 8];
    ts->hint = HUDI_HINT_INT96;
    o.int96_timestamps = true;
    round_trip(&root, &o);
    hudi_field_dispose(&root);
}

Test(pq_schema, write_layouts) {
    hudi_field root;
    build_all_types(&root);
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    pq_schema_element *el = NULL;
    int32_t n = 0;
    cr_assert_eq(hudi_pq_schema_write(&el, &n, &arena, &root, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(el[0].num_children, root.n_children);
    cr_assert(hudi_slice_eq(el[0].name, hudi_slice_cstr("hudi_record")));
    bool saw_dec4 = false, saw_dec25 = false, saw_list = false, saw_map = false, saw_ts = false;
    for (int32_t i = 1; i < n; i++) {
        pq_schema_element *e = &el[i];
        if (hudi_slice_eq(e->name, hudi_slice_cstr("dec4"))) {
            saw_dec4 = true;
            cr_assert_eq(e->type, PQ_INT32);
            cr_assert(e->has_converted_type && e->converted_type == PQ_CT_DECIMAL);
            cr_assert(e->has_precision && e->precision == 4 && e->has_scale);
        }
        if (hudi_slice_eq(e->name, hudi_slice_cstr("dec25"))) {
            saw_dec25 = true;
            cr_assert_eq(e->type, PQ_FIXED_LEN_BYTE_ARRAY);
            cr_assert_eq(e->type_length, 11);
        }
        if (hudi_slice_eq(e->name, hudi_slice_cstr("lst"))) {
            saw_list = true;
            cr_assert_eq(e->logical_type.kind, PQ_LT_LIST);
            cr_assert_eq(e->converted_type, PQ_CT_LIST);
            cr_assert(hudi_slice_eq(el[i + 1].name, hudi_slice_cstr("list")));
            cr_assert_eq(el[i + 1].repetition, PQ_REPEATED);
            cr_assert(hudi_slice_eq(el[i + 2].name, hudi_slice_cstr("element")));
        }
        if (hudi_slice_eq(e->name, hudi_slice_cstr("mp"))) {
            saw_map = true;
            cr_assert_eq(e->logical_type.kind, PQ_LT_MAP);
            cr_assert(e->has_field_id && e->field_id == 42);
            cr_assert(hudi_slice_eq(el[i + 1].name, hudi_slice_cstr("key_value")));
            cr_assert_eq(el[i + 2].repetition, PQ_REQUIRED);
        }
        if (hudi_slice_eq(e->name, hudi_slice_cstr("ts_us"))) {
            saw_ts = true;
            cr_assert_eq(e->type, PQ_INT64);
            cr_assert_eq(e->logical_type.kind, PQ_LT_TIMESTAMP);
            cr_assert_eq(e->logical_type.unit, PQ_UNIT_MICROS);
            cr_assert(e->logical_type.is_adjusted_to_utc);
            cr_assert_eq(e->converted_type, PQ_CT_TIMESTAMP_MICROS);
        }
    }
    cr_assert(saw_dec4 && saw_dec25 && saw_list && saw_map && saw_ts);
    hudi_arena_dispose(&arena);
    hudi_field_dispose(&root);
}

Test(pq_schema, write_rejects) {
    hudi_field root;
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    pq_schema_element *el = NULL;
    int32_t n = 0;
    cr_assert_eq(hudi_field_init(&root, "r", HUDI_TYPE_STRUCT, false), 0);
    cr_assert_eq(hudi_field_set_children(&root, 1), 0);
    add_child(&root, 0, "empty", HUDI_TYPE_STRUCT, true);
    cr_assert_eq(hudi_pq_schema_write(&el, &n, &arena, &root, NULL, &err), HUDI_EINVAL);
    root.children[0].type = HUDI_TYPE_DECIMAL;
    root.children[0].precision = 39;
    cr_assert_eq(hudi_pq_schema_write(&el, &n, &arena, &root, NULL, &err), HUDI_EINVAL);
    hudi_field_dispose(&root);
    hudi_arena_dispose(&arena);
    cr_assert_eq(hudi_pq_decimal_min_bytes(1), 1);
    cr_assert_eq(hudi_pq_decimal_min_bytes(10), 5);
    cr_assert_eq(hudi_pq_decimal_min_bytes(18), 8);
    cr_assert_eq(hudi_pq_decimal_min_bytes(19), 9);
    cr_assert_eq(hudi_pq_decimal_min_bytes(38), 16);
}

/* ---- real files ---- */

static void read_fixture_schema(const char *name, pq_schema *s, hudi_arena *arena) {
    size_t len = 0;
    unsigned char *bytes = test_read_file(fixture_path(name), &len);
    cr_assert(bytes && len > 12, "cannot read %s", name);
    uint32_t flen = hudi_load_u32le(bytes + len - 8);
    cr_assert(flen <= len - 12);
    pq_file_meta meta;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(
        hudi_pq_decode_file_meta(&meta, arena, HUDI_SLICE(bytes + len - 8 - flen, flen), &err), 0,
        "%s", err.message);
    free(bytes);
    cr_assert_eq(hudi_pq_schema_read(s, meta.schema, meta.n_schema, NULL, &err), 0, "%s: %s", name,
                 err.message);
}

Test(pq_schema, fixture_schemas) {
    hudi_arena arena = HUDI_ARENA_INIT;
    pq_schema s;
    hudi_buf b = HUDI_BUF_INIT;

    read_fixture_schema("parquet-testing/data/old_list_structure.parquet", &s, &arena);
    hudi_field_describe(&b, &s.root.children[0]);
    cr_assert_eq(s.leaves[0].max_def, 2);
    cr_assert_eq(s.leaves[0].max_rep, 2);
    cr_assert_eq(s.root.children[0].children[0].type, HUDI_TYPE_LIST, "%s", b.data);
    hudi_pq_schema_dispose(&s);

    read_fixture_schema("parquet-testing/data/nested_lists.snappy.parquet", &s, &arena);
    cr_assert_eq(s.leaves[0].max_def, 7);
    cr_assert_eq(s.leaves[0].max_rep, 3);
    hudi_pq_schema_dispose(&s);

    read_fixture_schema("parquet-testing/data/repeated_no_annotation.parquet", &s, &arena);
    cr_assert_eq(s.root.n_children, 2);
    cr_assert_eq(s.root.children[1].children[0].type, HUDI_TYPE_LIST);
    hudi_pq_schema_dispose(&s);

    read_fixture_schema("parquet-testing/data/incorrect_map_schema.parquet", &s, &arena);
    hudi_buf_clear(&b);
    hudi_field_describe(&b, &s.root);
    bool has_map = false;
    for (int32_t i = 0; i < s.root.n_children; i++)
        has_map |= s.root.children[i].type == HUDI_TYPE_MAP;
    cr_assert(has_map, "%s", b.data);
    hudi_pq_schema_dispose(&s);

    read_fixture_schema("parquet-testing/data/unknown-logical-type.parquet", &s, &arena);
    cr_assert_eq(s.root.n_children, 2);
    cr_assert_eq(s.root.children[0].type, HUDI_TYPE_STRING);
    cr_assert_eq(s.root.children[1].type, HUDI_TYPE_BINARY);
    hudi_pq_schema_dispose(&s);

    read_fixture_schema("parquet-testing/data/int96_from_spark.parquet", &s, &arena);
    cr_assert_eq(s.root.children[0].hint, HUDI_HINT_INT96);
    hudi_pq_schema_dispose(&s);

    read_fixture_schema("parquet-testing/data/nonnullable.impala.parquet", &s, &arena);
    cr_assert_gt(s.n_leaves, 5);
    hudi_pq_schema_dispose(&s);

    read_fixture_schema("parquet-testing/data/fixed_length_decimal.parquet", &s, &arena);
    cr_assert_eq(s.root.children[0].type, HUDI_TYPE_DECIMAL);
    cr_assert_eq(s.root.children[0].precision, 25);
    hudi_pq_schema_dispose(&s);

    hudi_buf_dispose(&b);
    hudi_arena_dispose(&arena);
}
