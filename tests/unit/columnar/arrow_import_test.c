/* arrow_import_test.c - the Arrow C Data Interface import (columnar/arrow_c.c): export then
 * import gives back equal fields and values, offsets of every node (sliced arrays) are honoured,
 * large (64-bit offset) layouts are narrowed, and what cannot be imported is refused by name. */
#include <criterion/criterion.h>

#include "columnar/arrow_c.h"
#include "columnar/render.h"
#include "columnar_test_util.h"

static void assert_fields_equal(const hudi_field *a, const hudi_field *b) {
    cr_assert_str_eq(a->name ? a->name : "", b->name ? b->name : "");
    cr_assert_eq(a->type, b->type, "%s", a->name);
    cr_assert_eq(a->nullable, b->nullable, "%s", a->name);
    cr_assert_eq(a->n_children, b->n_children, "%s", a->name);
    for (int32_t i = 0; i < a->n_children; i++)
        assert_fields_equal(&a->children[i], &b->children[i]);
}

Test(arrow_import, batch_roundtrip) {
    hudi_field s, back;
    hudi_batch *b = NULL, *again = NULL, *orig = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    field_sample_schema(&s);
    cr_assert_eq(hudi_batch_new(&b, &s, NULL), 0);
    cr_assert_eq(hudi_batch_new(&orig, &s, NULL), 0);
    cr_assert_eq(sample_fill(b, NULL), 0);
    cr_assert_eq(sample_fill(orig, NULL), 0);
    struct ArrowSchema as;
    struct ArrowArray aa;
    cr_assert_eq(hudi_arrow_export_schema(&as, &s, NULL), 0);
    cr_assert_eq(hudi_arrow_export_batch(&aa, b, NULL), 0);
    cr_assert_eq(hudi_arrow_import_schema(&back, &as, &err), 0, "%s", err.message);
    assert_fields_equal(&s, &back);
    cr_assert_eq(hudi_arrow_import_batch(&again, &aa, &as, &back, &err), 0, "%s", err.message);
    cr_assert_eq(again->num_rows, 3);
    hudi_buf why = HUDI_BUF_INIT;
    cr_assert(hudi_batch_equal(orig, again, &why), "%s", why.data);
    /* The import copied: the Arrow structs are still the producer's to release. */
    cr_assert_not_null(aa.release);
    aa.release(&aa);
    as.release(&as);
    hudi_buf_dispose(&why);
    hudi_batch_free(again);
    hudi_batch_free(orig);
    hudi_batch_free(b);
    hudi_field_dispose(&back);
    hudi_field_dispose(&s);
}

/* A sliced struct array: offset 1 on the parent and 1 more on one child. */
Test(arrow_import, offsets_of_every_node) {
    hudi_field s, back;
    hudi_batch *b = NULL, *got = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    field_sample_schema(&s);
    cr_assert_eq(hudi_batch_new(&b, &s, NULL), 0);
    cr_assert_eq(sample_fill(b, NULL), 0);
    cr_assert_eq(sample_fill(b, NULL), 0); /* 6 rows: the sample twice */
    hudi_buf want = HUDI_BUF_INIT, have = HUDI_BUF_INIT;
    for (int64_t i = 1; i < 5; i++) {
        cr_assert_eq(hudi_render_json_row(&want, b, i), 0);
        hudi_buf_putc(&want, '\n');
    }
    struct ArrowSchema as;
    struct ArrowArray aa;
    cr_assert_eq(hudi_arrow_export_schema(&as, &s, NULL), 0);
    cr_assert_eq(hudi_arrow_export_batch(&aa, b, NULL), 0);
    aa.offset = 1;
    aa.length = 4;
    cr_assert_eq(hudi_arrow_import_schema(&back, &as, NULL), 0);
    cr_assert_eq(hudi_arrow_import_batch(&got, &aa, &as, &back, &err), 0, "%s", err.message);
    for (int64_t i = 0; i < got->num_rows; i++) {
        cr_assert_eq(hudi_render_json_row(&have, got, i), 0);
        hudi_buf_putc(&have, '\n');
    }
    cr_assert_str_eq(have.data, want.data);
    hudi_batch_free(got);

    /* A child with its own offset (as Arrow allows): the id column starts one further in. */
    struct ArrowArray *ids = aa.children[0];
    ids->offset = 1;
    ids->length = 5;
    cr_assert_eq(hudi_arrow_import_batch(&got, &aa, &as, &back, NULL), 0);
    int64_t *v = got->columns[0]->values;
    cr_assert_eq(v[0], 3); /* rows 1.. of ids, shifted by one more: 3, 1, 2, 3 */
    cr_assert_eq(v[1], 1);
    cr_assert_eq(v[3], 3);
    hudi_batch_free(got);
    aa.release(&aa);
    as.release(&as);
    hudi_buf_dispose(&want);
    hudi_buf_dispose(&have);
    hudi_batch_free(b);
    hudi_field_dispose(&back);
    hudi_field_dispose(&s);
}

static void noop_schema(struct ArrowSchema *s) { s->release = NULL; }
static void noop_array(struct ArrowArray *a) { a->release = NULL; }

Test(arrow_import, large_strings_and_time_zones) {
    /* utf8 with int64 offsets ("U"), sliced, nulls; a timestamp with a named zone. */
    int64_t offs[] = {0, 1, 3, 3, 6};
    const char data[] = "abbccc";
    uint8_t valid[] = {0x0b}; /* rows 0, 1, 3 valid */
    const void *bufs[] = {valid, offs, data};
    struct ArrowSchema cs = {
        .format = "U", .name = "s", .flags = ARROW_FLAG_NULLABLE, .release = noop_schema};
    struct ArrowArray ca = {
        .length = 4, .null_count = 1, .n_buffers = 3, .buffers = bufs, .release = noop_array};
    hudi_field f;
    hudi_array *a = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_arrow_import_schema(&f, &cs, &err), 0, "%s", err.message);
    cr_assert_eq(f.type, HUDI_TYPE_STRING);
    ca.offset = 1;
    ca.length = 3;
    cr_assert_eq(hudi_arrow_import_array(&a, &ca, &cs, &f, &err), 0, "%s", err.message);
    cr_assert_eq(a->length, 3);
    cr_assert_eq(a->null_count, 1);
    cr_assert_eq(a->offsets[0], 0);
    cr_assert_eq(a->offsets[1], 2);
    cr_assert_eq(a->offsets[3], 5);
    cr_assert(memcmp(a->data, "bbccc", 5) == 0);
    cr_assert(!hudi_array_is_valid(a, 1));
    hudi_array_free(a);
    hudi_field_dispose(&f);

    struct ArrowSchema ts = {.format = "tsu:Europe/Paris", .name = "t", .release = noop_schema};
    cr_assert_eq(hudi_arrow_import_schema(&f, &ts, NULL), 0);
    cr_assert_eq(f.type, HUDI_TYPE_TIMESTAMP);
    cr_assert(f.utc);
    cr_assert_eq(f.unit, HUDI_UNIT_MICROS);
    hudi_field_dispose(&f);
}

Test(arrow_import, refusals) {
    static const char *const bad[] = {"tss:", "d:40,2", "d:10,2,256", "vu", "+w:4", "+ud:0,1", "x"};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(bad); i++) {
        struct ArrowSchema s = {.format = bad[i], .name = "col", .release = noop_schema};
        hudi_field f;
        hudi_error err = HUDI_ERROR_INIT;
        cr_assert_eq(hudi_arrow_import_schema(&f, &s, &err), HUDI_EUNSUPPORTED, "%s", bad[i]);
        cr_assert(strstr(err.message, "column col"), "%s", err.message);
        cr_assert_null(f.name);
    }
    /* Decreasing offsets and nulls in a non-nullable column are caught. */
    int32_t offs[] = {0, 3, 1};
    const void *bufs[] = {NULL, offs, "abc"};
    struct ArrowSchema cs = {.format = "u", .name = "s", .release = noop_schema};
    struct ArrowArray ca = {.length = 2, .n_buffers = 3, .buffers = bufs, .release = noop_array};
    hudi_field f;
    hudi_array *a = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_arrow_import_schema(&f, &cs, NULL), 0);
    cr_assert_eq(hudi_arrow_import_array(&a, &ca, &cs, &f, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "offsets decrease"), "%s", err.message);
    cr_assert_null(a);
    int32_t good[] = {0, 1, 2};
    uint8_t valid[] = {0x01};
    const void *bufs2[] = {valid, good, "ab"};
    ca.buffers = bufs2;
    ca.null_count = 1;
    cr_assert_eq(hudi_arrow_import_array(&a, &ca, &cs, &f, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "non-nullable"), "%s", err.message);
    hudi_field_dispose(&f);
}
