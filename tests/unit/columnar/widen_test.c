/* widen_test.c - type promotion of fixed-width numbers (Hudi's chart). */
#include <criterion/criterion.h>

#include "columnar/columnar.h"

Test(widen, int8_to_int64_and_double_keeps_nulls) {
    hudi_field i8, i64, f64, str;
    hudi_field_init(&i8, "b", HUDI_TYPE_INT8, true);
    hudi_field_init(&i64, "b", HUDI_TYPE_INT64, true);
    hudi_field_init(&f64, "b", HUDI_TYPE_DOUBLE, true);
    hudi_field_init(&str, "b", HUDI_TYPE_STRING, true);
    cr_assert(hudi_type_can_widen(&i8, &i64));
    cr_assert(hudi_type_can_widen(&i8, &f64));
    cr_assert_not(hudi_type_can_widen(&i64, &i8));
    cr_assert_not(hudi_type_can_widen(&i8, &str));
    hudi_array *a = NULL, *w = NULL, *d = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_array_new(&a, &i8, &err), 0);
    int8_t vals[] = {-128, 0, 127};
    for (int i = 0; i < 3; i++) hudi_array_append_fixed(a, &vals[i], &err);
    hudi_array_append_null(a, &err);
    cr_assert_eq(hudi_array_widen(&w, a, &i64, &err), 0, "%s", err.message);
    cr_assert_eq(w->length, 4);
    cr_assert_eq(w->null_count, 1);
    cr_assert_eq(((int64_t *)w->values)[0], -128);
    cr_assert_eq(((int64_t *)w->values)[2], 127);
    cr_assert_not(hudi_array_is_valid(w, 3));
    cr_assert_eq(hudi_array_widen(&d, a, &f64, &err), 0);
    cr_assert_float_eq(((double *)d->values)[0], -128.0, 0);
    cr_assert_eq(hudi_array_validate(w, &err), 0, "%s", err.message);
    hudi_array *bad = NULL;
    cr_assert_eq(hudi_array_widen(&bad, a, &str, &err), HUDI_EINVAL);
    cr_assert_null(bad);
    hudi_array_free(a);
    hudi_array_free(w);
    hudi_array_free(d);
    hudi_field_dispose(&i8);
    hudi_field_dispose(&i64);
    hudi_field_dispose(&f64);
    hudi_field_dispose(&str);
}
