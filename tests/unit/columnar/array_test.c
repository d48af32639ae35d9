/* array_test.c - fields, builders, nested building, reserve/clear, ranges, spreading and
 * validation of hudi_array. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "columnar_test_util.h"
#include "columnar/render.h"

static char *json_of(const hudi_array *a) {
    static char out[1024];
    hudi_buf b = HUDI_BUF_INIT;
    hudi_buf_putc(&b, '[');
    for (int64_t i = 0; i < a->length; i++) {
        if (i) hudi_buf_putc(&b, ',');
        hudi_render_json_value(&b, a, i);
    }
    hudi_buf_putc(&b, ']');
    snprintf(out, sizeof(out), "%s", b.data);
    hudi_buf_dispose(&b);
    return out;
}

Test(field, init_copy_describe) {
    hudi_field s, c;
    field_sample_schema(&s);
    cr_assert_eq(s.field_id, -1);
    cr_assert_eq(hudi_field_copy(&c, &s), 0);
    hudi_buf b = HUDI_BUF_INIT;
    hudi_field_describe(&b, &c);
    cr_assert_str_eq(b.data, "struct<id: int64, name: string, tags: list<string>, attrs: "
                             "map<string, int32>, pt: struct<x: double, y: double>>");
    cr_assert_neq(c.children[3].children[0].name, s.children[3].children[0].name);
    hudi_buf_clear(&b);
    hudi_field d;
    hudi_field_init(&d, "d", HUDI_TYPE_DECIMAL, true);
    d.precision = 38;
    d.scale = 4;
    hudi_field_describe(&b, &d);
    cr_assert_str_eq(b.data, "decimal(38, 4)");
    hudi_field_dispose(&d);
    hudi_buf_dispose(&b);
    hudi_field_dispose(&c);
    hudi_field_dispose(&s);
}

Test(field, widths_and_names) {
    hudi_field f;
    hudi_field_init(&f, NULL, HUDI_TYPE_TIME, true);
    f.unit = HUDI_UNIT_MILLIS;
    cr_assert_eq(hudi_type_width(&f), 4);
    f.unit = HUDI_UNIT_NANOS;
    cr_assert_eq(hudi_type_width(&f), 8);
    f.type = HUDI_TYPE_BOOL;
    cr_assert_eq(hudi_type_width(&f), 0);
    f.type = HUDI_TYPE_DECIMAL;
    cr_assert_eq(hudi_type_width(&f), 16);
    f.type = HUDI_TYPE_STRING;
    cr_assert_eq(hudi_type_width(&f), -1);
    cr_assert(hudi_type_is_fixed(HUDI_TYPE_FIXED_BINARY));
    cr_assert(!hudi_type_is_fixed(HUDI_TYPE_BINARY));
    cr_assert(hudi_type_is_nested(HUDI_TYPE_MAP));
    cr_assert_str_eq(hudi_type_name(HUDI_TYPE_UINT16), "uint16");
    cr_assert_str_eq(hudi_type_name((hudi_type_id)99), "unknown");
    hudi_field_dispose(&f);
}

Test(array, fixed_and_nulls) {
    hudi_field f;
    field_leaf(&f, "v", HUDI_TYPE_INT32);
    hudi_array *a;
    cr_assert_eq(hudi_array_new(&a, &f, NULL), 0);
    for (int32_t i = 0; i < 100; i++) {
        if (i % 7 == 3)
            cr_assert_eq(hudi_array_append_null(a, NULL), 0);
        else
            cr_assert_eq(hudi_array_append_fixed(a, &i, NULL), 0);
    }
    cr_assert_eq(a->length, 100);
    cr_assert_eq(a->null_count, 14);
    cr_assert_not_null(a->validity);
    cr_assert(!hudi_array_is_valid(a, 3));
    cr_assert(hudi_array_is_valid(a, 4));
    cr_assert_eq(((int32_t *)a->values)[99], 99);
    cr_assert_eq(((int32_t *)a->values)[3], 0, "null slots are zeroed");
    cr_assert_eq((uintptr_t)a->values % 64, 0);
    cr_assert_eq(hudi_array_validate(a, NULL), 0);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_array_append_bytes(a, "x", 1, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "column v"));
    hudi_array_free(a);
    hudi_field_dispose(&f);
}

Test(array, bool_bits) {
    hudi_field f;
    field_leaf(&f, "b", HUDI_TYPE_BOOL);
    hudi_array *a;
    cr_assert_eq(hudi_array_new(&a, &f, NULL), 0);
    for (int i = 0; i < 70; i++) cr_assert_eq(hudi_array_append_bool(a, i % 3 == 0, NULL), 0);
    uint8_t one = 1;
    cr_assert_eq(hudi_array_append_fixed(a, &one, NULL), 0);
    cr_assert_eq(hudi_array_append_null(a, NULL), 0);
    cr_assert_eq(a->length, 72);
    cr_assert_eq(hudi_bitmap_count(a->values, 0, 72), 24 + 1);
    cr_assert(hudi_bit_get(a->values, 69));
    cr_assert(!hudi_bit_get(a->values, 68));
    cr_assert_eq(hudi_array_validate(a, NULL), 0);
    hudi_array_free(a);
    hudi_field_dispose(&f);
}

Test(array, strings_and_fixed_binary) {
    hudi_field f, g;
    field_leaf(&f, "s", HUDI_TYPE_STRING);
    field_leaf(&g, "g", HUDI_TYPE_FIXED_BINARY);
    g.byte_width = 3;
    hudi_array *a, *b;
    cr_assert_eq(hudi_array_new(&a, &f, NULL), 0);
    cr_assert_eq(hudi_array_new(&b, &g, NULL), 0);
    cr_assert_eq(append_str(a, "hello"), 0);
    cr_assert_eq(hudi_array_append_null(a, NULL), 0);
    cr_assert_eq(append_str(a, ""), 0);
    char big[1000];
    memset(big, 'z', sizeof(big));
    cr_assert_eq(hudi_array_append_bytes(a, big, sizeof(big), NULL), 0);
    cr_assert_eq(a->offsets[0], 0);
    cr_assert_eq(a->offsets[1], 5);
    cr_assert_eq(a->offsets[2], 5);
    cr_assert_eq(a->offsets[3], 5);
    cr_assert_eq(a->offsets[4], 1005);
    cr_assert_eq(a->data_len, 1005);
    cr_assert_eq(hudi_array_append_bytes(b, "abc", 3, NULL), 0);
    cr_assert_eq(hudi_array_append_bytes(b, "ab", 2, NULL), HUDI_EINVAL);
    cr_assert_eq(b->length, 1);
    cr_assert_eq(memcmp(b->values, "abc", 3), 0);
    hudi_array_free(a);
    hudi_array_free(b);
    hudi_field_dispose(&f);
    hudi_field_dispose(&g);
}

Test(array, nested_batch) {
    hudi_field s;
    field_sample_schema(&s);
    hudi_batch *b;
    cr_assert_eq(hudi_batch_new(&b, &s, NULL), 0);
    cr_assert_eq(sample_fill(b, NULL), 0);
    cr_assert_eq(hudi_batch_validate(b, NULL), 0);
    cr_assert_str_eq(json_of(b->columns[2]), "[[\"x\",\"y\"],null,[]]");
    cr_assert_str_eq(json_of(b->columns[3]), "[[{\"key\":\"k1\",\"value\":1}],[],null]");
    cr_assert_str_eq(json_of(b->columns[4]), "[{\"x\":1.5,\"y\":2.5},null,{\"x\":0,\"y\":-1}]");
    /* A null struct row still gives its children one (null) row each. */
    cr_assert_eq(b->columns[4]->children[0]->length, 3);
    cr_assert(!hudi_array_is_valid(b->columns[4]->children[0], 1));
    hudi_batch_clear(b);
    cr_assert_eq(b->num_rows, 0);
    cr_assert_eq(b->columns[2]->children[0]->length, 0);
    cr_assert_eq(sample_fill(b, NULL), 0);
    cr_assert_eq(hudi_batch_validate(b, NULL), 0);
    cr_assert_str_eq(json_of(b->columns[1]), "[\"a\",null,\"ccc\"]");
    hudi_batch_free(b);
    hudi_field_dispose(&s);
}

Test(array, struct_null_with_required_child) {
    hudi_field f;
    field_leaf(&f, "s", HUDI_TYPE_STRUCT);
    hudi_field_set_children(&f, 2);
    hudi_field_init(&f.children[0], "req", HUDI_TYPE_INT32, false);
    field_leaf(&f.children[1], "opt", HUDI_TYPE_STRING);
    hudi_array *a;
    cr_assert_eq(hudi_array_new(&a, &f, NULL), 0);
    cr_assert_eq(hudi_array_append_nulls(a, 3, NULL), 0);
    cr_assert_eq(a->null_count, 3);
    cr_assert_eq(a->children[0]->null_count, 0, "required child gets zero values");
    cr_assert_eq(a->children[0]->length, 3);
    cr_assert_eq(a->children[1]->null_count, 3);
    cr_assert_eq(hudi_array_validate(a, NULL), 0);
    hudi_array_free(a);
    hudi_field_dispose(&f);
}

Test(array, reserve_and_clear) {
    hudi_field f;
    field_leaf(&f, "v", HUDI_TYPE_INT64);
    hudi_array *a;
    cr_assert_eq(hudi_array_new(&a, &f, NULL), 0);
    cr_assert_eq(hudi_array_reserve(a, 1000, NULL), 0);
    cr_assert_eq(a->capacity, 1000);
    void *values = a->values;
    for (int64_t i = 0; i < 1000; i++) cr_assert_eq(hudi_array_append_fixed(a, &i, NULL), 0);
    cr_assert_eq(a->values, values, "no regrowth within reserved capacity");
    cr_assert_eq(hudi_array_reserve(a, 10, NULL), 0);
    cr_assert_eq(a->capacity, 1000, "reserve never shrinks");
    cr_assert_eq(hudi_array_reserve(a, -1, NULL), HUDI_EINVAL);
    cr_assert_eq(hudi_array_append_null(a, NULL), 0);
    cr_assert_geq(a->capacity, 2000, "growth is geometric");
    hudi_array_clear(a);
    cr_assert_eq(a->length, 0);
    cr_assert_eq(a->null_count, 0);
    cr_assert_geq(a->capacity, 2000);
    int64_t v = 5;
    cr_assert_eq(hudi_array_append_fixed(a, &v, NULL), 0);
    cr_assert(hudi_array_is_valid(a, 0), "appends after clear set their validity bit");
    cr_assert_eq(hudi_array_validate(a, NULL), 0);
    hudi_array_free(a);
    hudi_field_dispose(&f);

    field_leaf(&f, "s", HUDI_TYPE_STRING);
    cr_assert_eq(hudi_array_new(&a, &f, NULL), 0);
    cr_assert_eq(hudi_array_reserve_data(a, 100, NULL), 0);
    cr_assert_eq(a->data_capacity, 100);
    cr_assert_eq(hudi_array_reserve(a, 4, NULL), 0);
    cr_assert_eq(a->offsets[0], 0);
    hudi_array_free(a);
    hudi_field_dispose(&f);
}

Test(array, append_range_and_slice) {
    hudi_field s;
    field_sample_schema(&s);
    hudi_batch *b;
    cr_assert_eq(hudi_batch_new(&b, &s, NULL), 0);
    cr_assert_eq(sample_fill(b, NULL), 0);
    for (int c = 0; c < b->n_columns; c++) {
        hudi_array *sl;
        cr_assert_eq(hudi_array_slice(&sl, b->columns[c], 1, 2, NULL), 0);
        cr_assert_eq(hudi_array_validate(sl, NULL), 0);
        cr_assert_eq(sl->length, 2);
        hudi_array *whole;
        cr_assert_eq(hudi_array_slice(&whole, b->columns[c], 0, 1, NULL), 0);
        cr_assert_eq(hudi_array_append_range(whole, sl, 0, 2, NULL), 0);
        hudi_buf why = HUDI_BUF_INIT;
        cr_assert(hudi_array_equal(whole, b->columns[c], &why), "column %d: %s", c, why.data);
        hudi_buf_dispose(&why);
        cr_assert_eq(hudi_array_append_range(whole, sl, 1, 2, NULL), HUDI_EINVAL);
        hudi_array_free(sl);
        hudi_array_free(whole);
    }
    cr_assert_eq(hudi_array_append_range(b->columns[0], b->columns[1], 0, 1, NULL), HUDI_EINVAL);
    hudi_batch_free(b);
    hudi_field_dispose(&s);
}

Test(array, spread_fixed_bool_offsets) {
    hudi_field f, g, h;
    field_leaf(&f, "i", HUDI_TYPE_INT32);
    field_leaf(&g, "b", HUDI_TYPE_BOOL);
    field_leaf(&h, "s", HUDI_TYPE_STRING);
    hudi_array *a, *b, *c;
    cr_assert_eq(hudi_array_new(&a, &f, NULL), 0);
    cr_assert_eq(hudi_array_new(&b, &g, NULL), 0);
    cr_assert_eq(hudi_array_new(&c, &h, NULL), 0);
    /* One valid row before, then 6 rows: valid pattern 0 1 1 0 1 0 with dense 10, 20, 30. */
    int32_t first = 7;
    cr_assert_eq(hudi_array_append_fixed(a, &first, NULL), 0);
    cr_assert_eq(hudi_array_append_bool(b, true, NULL), 0);
    cr_assert_eq(append_str(c, "q"), 0);
    hudi_array *all[] = {a, b, c};
    const bool valid[] = {0, 1, 1, 0, 1, 0};
    for (int k = 0; k < 3; k++) {
        hudi_array *x = all[k];
        cr_assert_eq(hudi_array_grow(x, 6, NULL), 0);
        cr_assert_eq(hudi_array_ensure_validity(x, NULL), 0);
        for (int i = 0; i < 6; i++)
            valid[i] ? hudi_bit_set(x->validity, 1 + i) : hudi_bit_clear(x->validity, 1 + i);
    }
    int32_t *iv = a->values;
    iv[1] = 10, iv[2] = 20, iv[3] = 30;
    hudi_bit_set(b->values, 1), hudi_bit_clear(b->values, 2), hudi_bit_set(b->values, 3);
    cr_assert_eq(hudi_array_grow_data(c, 6, NULL), 0);
    memcpy(c->data + 1, "aabccc", 6);
    c->offsets[2] = 3, c->offsets[3] = 4, c->offsets[4] = 7;
    c->data_len = 7;
    cr_assert_eq(hudi_array_spread(a, 1, 6, 4, NULL), HUDI_EINVAL);
    for (int k = 0; k < 3; k++) {
        cr_assert_eq(hudi_array_spread(all[k], 1, 6, 3, NULL), 0);
        all[k]->length = 7;
        all[k]->null_count = 3;
        cr_assert_eq(hudi_array_validate(all[k], NULL), 0);
    }
    cr_assert_str_eq(json_of(a), "[7,null,10,20,null,30,null]");
    cr_assert_eq(iv[1], 0);
    cr_assert_str_eq(json_of(b), "[true,null,true,false,null,true,null]");
    cr_assert_str_eq(json_of(c), "[\"q\",null,\"aa\",\"b\",null,\"ccc\",null]");
    hudi_array_free(a);
    hudi_array_free(b);
    hudi_array_free(c);
    hudi_field_dispose(&f);
    hudi_field_dispose(&g);
    hudi_field_dispose(&h);
}

Test(array, validate_catches_bad_offsets) {
    hudi_field f;
    field_leaf(&f, "s", HUDI_TYPE_STRING);
    hudi_array *a;
    cr_assert_eq(hudi_array_new(&a, &f, NULL), 0);
    cr_assert_eq(append_str(a, "abc"), 0);
    cr_assert_eq(append_str(a, "de"), 0);
    a->offsets[2] = 99;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_array_validate(a, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "column s: offsets run past"), "%s", err.message);
    a->offsets[2] = 1;
    cr_assert_eq(hudi_array_validate(a, &err), HUDI_EINVAL);
    a->offsets[2] = 5;
    a->null_count = 1;
    cr_assert_eq(hudi_array_validate(a, &err), HUDI_EINVAL);
    a->null_count = 0;
    cr_assert_eq(hudi_array_validate(a, &err), 0);
    hudi_array_free(a);
    hudi_field_dispose(&f);
}

Test(array, malformed_map_field) {
    hudi_field f;
    field_leaf(&f, "m", HUDI_TYPE_MAP);
    hudi_array *a = (hudi_array *)1;
    cr_assert_eq(hudi_array_new(&a, &f, NULL), HUDI_EINVAL);
    cr_assert_null(a);
    hudi_field_dispose(&f);
    hudi_field s;
    field_leaf(&s, "s", HUDI_TYPE_INT32);
    hudi_batch *b = (hudi_batch *)1;
    cr_assert_eq(hudi_batch_new(&b, &s, NULL), HUDI_EINVAL);
    cr_assert_null(b);
    hudi_field_dispose(&s);
}

Test(bitmap, count_set_copy) {
    uint8_t bits[40] = {0}, dst[40] = {0};
    hudi_bitmap_set_range(bits, 3, 250, true);
    cr_assert_eq(hudi_bitmap_count(bits, 0, 320), 250);
    cr_assert_eq(hudi_bitmap_count(bits, 5, 10), 10);
    cr_assert(!hudi_bit_get(bits, 2));
    cr_assert(!hudi_bit_get(bits, 253));
    hudi_bitmap_set_range(bits, 100, 20, false);
    cr_assert_eq(hudi_bitmap_count(bits, 0, 320), 230);
    hudi_bitmap_copy(dst, 1, bits, 0, 300);
    for (int i = 0; i < 300; i++) cr_assert_eq(hudi_bit_get(dst, i + 1), hudi_bit_get(bits, i));
    memset(dst, 0, sizeof(dst));
    hudi_bitmap_copy(dst, 8, bits, 16, 77);
    for (int i = 0; i < 77; i++) cr_assert_eq(hudi_bit_get(dst, i + 8), hudi_bit_get(bits, i + 16));
    cr_assert(!hudi_bit_get(dst, 85));
}

Test(bitmap, copy_all_alignments) {
    uint8_t src[16], dst[20];
    for (int i = 0; i < 16; i++) src[i] = (uint8_t)(i * 37 + 11);
    for (int so = 0; so < 9; so++)
        for (int d0 = 0; d0 < 9; d0++)
            for (int n = 0; n + so <= 128; n += 13) {
                memset(dst, 0xa5, sizeof(dst));
                hudi_bitmap_copy(dst, d0, src, so, n);
                for (int i = 0; i < n; i++)
                    cr_assert_eq(hudi_bit_get(dst, d0 + i), hudi_bit_get(src, so + i));
                for (int i = d0 + n; i < 160; i++)
                    cr_assert_eq(hudi_bit_get(dst, i), (0xa5 >> (i & 7)) & 1, "bits after kept");
                for (int i = 0; i < d0; i++)
                    cr_assert_eq(hudi_bit_get(dst, i), (0xa5 >> (i & 7)) & 1, "bits before kept");
            }
}
