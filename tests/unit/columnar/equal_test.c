/* equal_test.c - deep equality: nulls, floats, nested values and the first-difference text. */
#include <criterion/criterion.h>
#include <math.h>

#include "columnar_test_util.h"

static hudi_array *doubles(const hudi_field *f, const double *v, const bool *valid, int n) {
    hudi_array *a;
    cr_assert_eq(hudi_array_new(&a, f, NULL), 0);
    for (int i = 0; i < n; i++) {
        int rc = valid && !valid[i] ? hudi_array_append_null(a, NULL)
                                    : hudi_array_append_fixed(a, &v[i], NULL);
        cr_assert_eq(rc, 0);
    }
    return a;
}

Test(equal, floats_bitwise_nan_equal) {
    hudi_field f;
    field_leaf(&f, "d", HUDI_TYPE_DOUBLE);
    double x[] = {1.0, NAN, 0.0}, y[] = {1.0, -NAN, 0.0}, z[] = {1.0, NAN, -0.0};
    hudi_array *a = doubles(&f, x, NULL, 3), *b = doubles(&f, y, NULL, 3),
               *c = doubles(&f, z, NULL, 3);
    hudi_buf why = HUDI_BUF_INIT;
    cr_assert(hudi_array_equal(a, b, &why), "%s", why.data);
    cr_assert(!hudi_array_equal(a, c, &why));
    cr_assert_str_eq(why.data, "row 2 at d: 0 != -0");
    hudi_array_free(a);
    hudi_array_free(b);
    hudi_array_free(c);
    hudi_buf_dispose(&why);
    hudi_field_dispose(&f);
}

Test(equal, nulls_ignore_buffer_contents) {
    hudi_field f;
    field_leaf(&f, "d", HUDI_TYPE_DOUBLE);
    double x[] = {1.0, 2.0}, y[] = {1.0, 3.0};
    bool valid[] = {true, false};
    hudi_array *a = doubles(&f, x, valid, 2), *b = doubles(&f, y, valid, 2);
    ((double *)b->values)[1] = 99; /* garbage under a null */
    cr_assert(hudi_array_equal(a, b, NULL));
    hudi_array *c = doubles(&f, y, NULL, 2);
    hudi_buf why = HUDI_BUF_INIT;
    cr_assert(!hudi_array_equal(a, c, &why));
    cr_assert_str_eq(why.data, "row 1 at d: null != 3");
    hudi_buf_clear(&why);
    hudi_array *d = doubles(&f, y, NULL, 1);
    cr_assert(!hudi_array_equal(a, d, &why));
    cr_assert_str_eq(why.data, "d: length 2 != 1");
    hudi_array_free(a);
    hudi_array_free(b);
    hudi_array_free(c);
    hudi_array_free(d);
    hudi_buf_dispose(&why);
    hudi_field_dispose(&f);
}

Test(equal, nested_path) {
    hudi_field s;
    field_sample_schema(&s);
    hudi_batch *a, *b;
    cr_assert_eq(hudi_batch_new(&a, &s, NULL), 0);
    cr_assert_eq(hudi_batch_new(&b, &s, NULL), 0);
    cr_assert_eq(sample_fill(a, NULL), 0);
    cr_assert_eq(sample_fill(b, NULL), 0);
    hudi_buf why = HUDI_BUF_INIT;
    cr_assert(hudi_batch_equal(a, b, &why), "%s", why.data);
    /* Change the second tag of row 0. */
    b->columns[2]->children[0]->data[1] = 'z';
    cr_assert(!hudi_batch_equal(a, b, &why));
    cr_assert_str_eq(why.data, "row 0 at tags[1]: \"y\" != \"z\"");
    b->columns[2]->children[0]->data[1] = 'y';
    /* The map value of row 0. */
    hudi_buf_clear(&why);
    ((int32_t *)b->columns[3]->children[0]->children[1]->values)[0] = 7;
    cr_assert(!hudi_batch_equal(a, b, &why));
    cr_assert_str_eq(why.data, "row 0 at attrs[0].value: 1 != 7");
    ((int32_t *)b->columns[3]->children[0]->children[1]->values)[0] = 1;
    /* Struct field of row 2. */
    hudi_buf_clear(&why);
    ((double *)b->columns[4]->children[1]->values)[2] = -2;
    cr_assert(!hudi_batch_equal(a, b, &why));
    cr_assert_str_eq(why.data, "row 2 at pt.y: -1 != -2");
    ((double *)b->columns[4]->children[1]->values)[2] = -1;
    cr_assert(hudi_batch_equal(a, b, NULL));
    hudi_buf_dispose(&why);
    hudi_batch_free(a);
    hudi_batch_free(b);
    hudi_field_dispose(&s);
}

Test(equal, list_lengths_and_types) {
    hudi_field f, g;
    field_leaf(&f, "l", HUDI_TYPE_LIST);
    hudi_field_set_children(&f, 1);
    field_leaf(&f.children[0], "element", HUDI_TYPE_INT32);
    field_leaf(&g, "l", HUDI_TYPE_LIST);
    hudi_field_set_children(&g, 1);
    field_leaf(&g.children[0], "element", HUDI_TYPE_INT64);
    hudi_array *a, *b, *c;
    cr_assert_eq(hudi_array_new(&a, &f, NULL), 0);
    cr_assert_eq(hudi_array_new(&b, &f, NULL), 0);
    cr_assert_eq(hudi_array_new(&c, &g, NULL), 0);
    int32_t one = 1;
    hudi_array_append_fixed(a->children[0], &one, NULL);
    hudi_array_append_nested(a, 1, NULL);
    hudi_array_append_nested(b, 0, NULL);
    hudi_buf why = HUDI_BUF_INIT;
    cr_assert(!hudi_array_equal(a, b, &why));
    cr_assert_str_eq(why.data, "row 0 at l: lengths differ: [1] != []");
    hudi_buf_clear(&why);
    cr_assert(!hudi_array_equal(a, c, &why));
    cr_assert_str_eq(why.data, "l: type list<int32> != list<int64>");
    hudi_buf_dispose(&why);
    hudi_array_free(a);
    hudi_array_free(b);
    hudi_array_free(c);
    hudi_field_dispose(&f);
    hudi_field_dispose(&g);
}

Test(equal, bools_half_and_strings) {
    hudi_field f, h, s;
    field_leaf(&f, NULL, HUDI_TYPE_BOOL);
    field_leaf(&h, NULL, HUDI_TYPE_FLOAT16);
    field_leaf(&s, NULL, HUDI_TYPE_STRING);
    hudi_array *a, *b;
    cr_assert_eq(hudi_array_new(&a, &f, NULL), 0);
    cr_assert_eq(hudi_array_new(&b, &f, NULL), 0);
    hudi_array_append_bool(a, true, NULL);
    hudi_array_append_bool(b, false, NULL);
    hudi_buf why = HUDI_BUF_INIT;
    cr_assert(!hudi_array_equal(a, b, &why));
    cr_assert_str_eq(why.data, "row 0: true != false");
    hudi_array_free(a);
    hudi_array_free(b);
    cr_assert_eq(hudi_array_new(&a, &h, NULL), 0);
    cr_assert_eq(hudi_array_new(&b, &h, NULL), 0);
    uint16_t n1 = 0x7e00, n2 = 0x7c01;
    hudi_array_append_fixed(a, &n1, NULL);
    hudi_array_append_fixed(b, &n2, NULL);
    cr_assert(hudi_array_equal(a, b, NULL), "two half NaNs are equal");
    hudi_array_free(a);
    hudi_array_free(b);
    cr_assert_eq(hudi_array_new(&a, &s, NULL), 0);
    cr_assert_eq(hudi_array_new(&b, &s, NULL), 0);
    append_str(a, "ab");
    append_str(b, "abc");
    cr_assert(!hudi_array_equal(a, b, NULL));
    hudi_array_free(a);
    hudi_array_free(b);
    hudi_buf_dispose(&why);
}
