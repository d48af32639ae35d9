/* oom_test.c - every columnar entry point under a failing allocator: the Nth allocation
 * fails for N = 0, 1, 2, ... until the scenario succeeds; each run must return HUDI_ENOMEM
 * (never crash), leave arrays valid, and free everything (live allocation count back to 0). */
#include <criterion/criterion.h>

#include "columnar_test_util.h"
#include "columnar/arrow_c.h"
#include "columnar/render.h"

/* The whole columnar life cycle: copy a schema, build a nested batch, slice and re-append,
 * render, export schema and data through the C Data Interface, release. */
static int scenario(const hudi_field *schema) {
    hudi_field copy = {0};
    hudi_batch *b = NULL;
    hudi_array *sl = NULL, *dst = NULL;
    hudi_buf out = HUDI_BUF_INIT;
    struct ArrowSchema cs = {0};
    struct ArrowArray ca = {0};
    hudi_error err = HUDI_ERROR_INIT;
    int rc;
    if ((rc = hudi_field_copy(&copy, schema)) < 0) goto done;
    if ((rc = hudi_batch_new(&b, &copy, &err)) < 0) goto done;
    if ((rc = sample_fill(b, &err)) < 0) goto done;
    for (int32_t c = 0; c < b->n_columns; c++) {
        if ((rc = hudi_array_slice(&sl, b->columns[c], 1, 2, &err)) < 0) goto done;
        if ((rc = hudi_array_new(&dst, b->columns[c]->field, &err)) < 0) goto done;
        if ((rc = hudi_array_append_range(dst, b->columns[c], 0, 1, &err)) < 0) goto done;
        if ((rc = hudi_array_append_range(dst, sl, 0, 2, &err)) < 0) goto done;
        cr_assert(hudi_array_equal(dst, b->columns[c], NULL));
        hudi_array_free(sl);
        hudi_array_free(dst);
        sl = dst = NULL;
    }
    for (int64_t r = 0; r < b->num_rows; r++)
        if ((rc = hudi_render_json_row(&out, b, r)) < 0) goto done;
    if ((rc = hudi_arrow_export_schema(&cs, &copy, &err)) < 0) goto done;
    if ((rc = hudi_arrow_export_batch(&ca, b, &err)) < 0) goto done;
    cr_assert_eq(ca.length, 3);
done:
    if (rc < 0) cr_assert_eq(rc, HUDI_ENOMEM, "rc %d: %s", rc, err.message);
    if (rc < 0 && err.code) cr_assert_eq(err.code, HUDI_ENOMEM);
    if (ca.release) ca.release(&ca);
    if (cs.release) cs.release(&cs);
    hudi_buf_dispose(&out);
    hudi_array_free(sl);
    hudi_array_free(dst);
    hudi_batch_free(b);
    hudi_field_dispose(&copy);
    return rc;
}

Test(oom, every_allocation_fails_cleanly) {
    hudi_field s;
    field_sample_schema(&s);
    int failures = 0;
    for (long n = 0;; n++) {
        talloc_install(n);
        int rc = scenario(&s);
        talloc_disarm();
        cr_assert_eq(g_talloc.live, 0, "allocation %ld failed: %ld blocks leaked", n,
                     g_talloc.live);
        if (rc == 0) {
            cr_assert_eq(g_talloc.failures, 0);
            break;
        }
        failures++;
        cr_assert_lt(n, 10000);
    }
    cr_assert_gt(failures, 20, "the scenario allocates");
    hudi_set_allocator(NULL);
    hudi_field_dispose(&s);
}

/* Each appender leaves the array unchanged (and valid) when growth fails. */
Test(oom, appenders_leave_array_unchanged) {
    hudi_field s;
    field_sample_schema(&s);
    talloc_install(-1);
    for (long n = 0; n < 200; n++) {
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_batch_new(&b, &s, NULL), 0);
        cr_assert_eq(sample_fill(b, NULL), 0);
        g_talloc.count = 0;
        g_talloc.failures = 0;
        g_talloc.fail_at = n;
        for (int32_t c = 0; c < b->n_columns; c++) {
            hudi_array *a = b->columns[c];
            int64_t len = a->length, nulls = a->null_count;
            int rc = hudi_array_append_nulls(a, 1000, NULL);
            if (rc < 0) {
                cr_assert_eq(rc, HUDI_ENOMEM);
                cr_assert_eq(a->length, len);
                cr_assert_eq(a->null_count, nulls);
            }
            cr_assert_eq(hudi_array_validate(a, NULL), 0);
        }
        hudi_array *str = b->columns[1];
        int64_t len = str->length;
        char big[5000] = {0};
        if (hudi_array_append_bytes(str, big, sizeof(big), NULL) < 0)
            cr_assert_eq(str->length, len);
        cr_assert_eq(hudi_array_validate(str, NULL), 0);
        talloc_disarm();
        hudi_batch_free(b);
        cr_assert_eq(g_talloc.live, 0);
    }
    hudi_set_allocator(NULL);
    hudi_field_dispose(&s);
}
