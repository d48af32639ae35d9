/* arrow_c_test.c - the Arrow C Data Interface export: schema formats and flags, array buffers
 * moved out of a batch, release freeing everything, and the stream adapter. */
#include <criterion/criterion.h>
#include <errno.h>

#include "columnar_test_util.h"
#include "columnar/arrow_c.h"

static void check_format(hudi_field *f, const char *expect) {
    struct ArrowSchema s;
    cr_assert_eq(hudi_arrow_export_schema(&s, f, NULL), 0);
    cr_assert_str_eq(s.format, expect);
    s.release(&s);
    cr_assert_null(s.release);
}

Test(arrow_c, schema_formats) {
    static const struct {
        hudi_type_id t;
        uint8_t unit;
        bool utc;
        const char *fmt;
    } cases[] = {
        {HUDI_TYPE_NULL, 0, 0, "n"},         {HUDI_TYPE_BOOL, 0, 0, "b"},
        {HUDI_TYPE_INT8, 0, 0, "c"},         {HUDI_TYPE_INT16, 0, 0, "s"},
        {HUDI_TYPE_INT32, 0, 0, "i"},        {HUDI_TYPE_INT64, 0, 0, "l"},
        {HUDI_TYPE_UINT8, 0, 0, "C"},        {HUDI_TYPE_UINT16, 0, 0, "S"},
        {HUDI_TYPE_UINT32, 0, 0, "I"},       {HUDI_TYPE_UINT64, 0, 0, "L"},
        {HUDI_TYPE_FLOAT16, 0, 0, "e"},      {HUDI_TYPE_FLOAT, 0, 0, "f"},
        {HUDI_TYPE_DOUBLE, 0, 0, "g"},       {HUDI_TYPE_DATE, 0, 0, "tdD"},
        {HUDI_TYPE_TIME, 0, 0, "ttm"},       {HUDI_TYPE_TIME, 1, 0, "ttu"},
        {HUDI_TYPE_TIME, 2, 0, "ttn"},       {HUDI_TYPE_TIMESTAMP, 0, 1, "tsm:UTC"},
        {HUDI_TYPE_TIMESTAMP, 1, 0, "tsu:"}, {HUDI_TYPE_TIMESTAMP, 2, 1, "tsn:UTC"},
        {HUDI_TYPE_STRING, 0, 0, "u"},       {HUDI_TYPE_BINARY, 0, 0, "z"},
    };
    for (size_t i = 0; i < HUDI_ARRAY_LEN(cases); i++) {
        hudi_field f;
        field_leaf(&f, NULL, cases[i].t);
        f.unit = cases[i].unit;
        f.utc = cases[i].utc;
        check_format(&f, cases[i].fmt);
    }
    hudi_field f;
    field_leaf(&f, NULL, HUDI_TYPE_DECIMAL);
    f.precision = 38;
    f.scale = 9;
    check_format(&f, "d:38,9");
    f.precision = 39;
    hudi_error err = HUDI_ERROR_INIT;
    struct ArrowSchema s = {0};
    cr_assert_eq(hudi_arrow_export_schema(&s, &f, &err), HUDI_EUNSUPPORTED);
    cr_assert_null(s.release, "out untouched on failure");
    field_leaf(&f, NULL, HUDI_TYPE_FIXED_BINARY);
    f.byte_width = 12;
    check_format(&f, "w:12");
}

Test(arrow_c, nested_schema) {
    hudi_field s;
    field_sample_schema(&s);
    s.children[1].hint = HUDI_HINT_JSON;
    struct ArrowSchema c;
    cr_assert_eq(hudi_arrow_export_schema(&c, &s, NULL), 0);
    cr_assert_str_eq(c.format, "+s");
    cr_assert_str_eq(c.name, "root");
    cr_assert_eq(c.flags, 0);
    cr_assert_eq(c.n_children, 5);
    cr_assert_str_eq(c.children[0]->name, "id");
    cr_assert_eq(c.children[0]->flags, 0);
    cr_assert_eq(c.children[1]->flags, ARROW_FLAG_NULLABLE);
    cr_assert_not_null(c.children[1]->metadata);
    cr_assert_eq(hudi_load_u32le(c.children[1]->metadata), 2);
    cr_assert_eq(memcmp(c.children[1]->metadata + 8, "ARROW:extension:name", 20), 0);
    cr_assert_eq(memcmp(c.children[1]->metadata + 32, "arrow.json", 10), 0);
    cr_assert_str_eq(c.children[2]->format, "+l");
    cr_assert_str_eq(c.children[2]->children[0]->format, "u");
    const struct ArrowSchema *m = c.children[3];
    cr_assert_str_eq(m->format, "+m");
    cr_assert_eq(m->flags & ARROW_FLAG_MAP_KEYS_SORTED, 0);
    cr_assert_eq(m->n_children, 1);
    cr_assert_str_eq(m->children[0]->format, "+s");
    cr_assert_eq(m->children[0]->flags, 0, "entries are not nullable");
    cr_assert_str_eq(m->children[0]->children[0]->name, "key");
    cr_assert_eq(m->children[0]->children[0]->flags, 0);
    cr_assert_str_eq(m->children[0]->children[1]->format, "i");
    cr_assert_str_eq(c.children[4]->children[1]->name, "y");
    cr_assert_null(c.dictionary);
    c.release(&c);
    cr_assert_null(c.release);
    hudi_field_dispose(&s);
}

Test(arrow_c, batch_buffers_moved) {
    hudi_field s;
    field_sample_schema(&s);
    talloc_install(-1);
    hudi_batch *b;
    cr_assert_eq(hudi_batch_new(&b, &s, NULL), 0);
    cr_assert_eq(sample_fill(b, NULL), 0);
    const void *ids = b->columns[0]->values, *name_data = b->columns[1]->data;
    const void *name_validity = b->columns[1]->validity;
    struct ArrowArray a;
    cr_assert_eq(hudi_arrow_export_batch(&a, b, NULL), 0);
    cr_assert_eq(b->num_rows, 0);
    cr_assert_null(b->columns[0]->values, "buffers moved out");
    cr_assert_eq(b->columns[0]->capacity, 0);
    cr_assert_eq(a.length, 3);
    cr_assert_eq(a.null_count, 0);
    cr_assert_eq(a.offset, 0);
    cr_assert_eq(a.n_buffers, 1);
    cr_assert_null(a.buffers[0]);
    cr_assert_eq(a.n_children, 5);
    /* id: int64 without nulls: no validity buffer. */
    struct ArrowArray *id = a.children[0];
    cr_assert_eq(id->n_buffers, 2);
    cr_assert_null(id->buffers[0]);
    cr_assert_eq(id->buffers[1], ids);
    cr_assert_eq(((const int64_t *)id->buffers[1])[2], 3);
    /* name: string with one null. */
    struct ArrowArray *name = a.children[1];
    cr_assert_eq(name->n_buffers, 3);
    cr_assert_eq(name->null_count, 1);
    cr_assert_eq(name->buffers[0], name_validity);
    cr_assert_eq(*(const uint8_t *)name->buffers[0] & 7, 5);
    const int32_t *off = name->buffers[1];
    cr_assert_eq(off[0], 0);
    cr_assert_eq(off[1], 1);
    cr_assert_eq(off[2], 1);
    cr_assert_eq(off[3], 4);
    cr_assert_eq(name->buffers[2], name_data);
    cr_assert_eq(memcmp(name->buffers[2], "accc", 4), 0);
    /* tags: list<string>. */
    struct ArrowArray *tags = a.children[2];
    cr_assert_eq(tags->n_buffers, 2);
    cr_assert_eq(tags->null_count, 1);
    cr_assert_eq(tags->n_children, 1);
    cr_assert_eq(tags->children[0]->length, 2);
    /* attrs: map -> entries struct (1 buffer, no nulls) -> key, value. */
    struct ArrowArray *attrs = a.children[3];
    cr_assert_eq(attrs->null_count, 1);
    cr_assert_eq(((const int32_t *)attrs->buffers[1])[3], 1);
    struct ArrowArray *entries = attrs->children[0];
    cr_assert_eq(entries->n_buffers, 1);
    cr_assert_eq(entries->length, 1);
    cr_assert_eq(entries->null_count, 0);
    cr_assert_eq(entries->n_children, 2);
    cr_assert_eq(((const int32_t *)entries->children[1]->buffers[1])[0], 1);
    /* pt: nullable struct whose null row also made child nulls. */
    struct ArrowArray *pt = a.children[4];
    cr_assert_eq(pt->n_buffers, 1);
    cr_assert_eq(pt->null_count, 1);
    cr_assert_eq(pt->children[0]->length, 3);
    cr_assert_eq(pt->children[0]->null_count, 1);
    /* Children may be moved out and released separately (spec: "move child"). */
    struct ArrowArray moved = *a.children[1];
    a.children[1]->release = NULL;
    moved.release(&moved);
    a.release(&a);
    cr_assert_null(a.release);
    /* The emptied batch can be refilled and exported again. */
    cr_assert_eq(sample_fill(b, NULL), 0);
    cr_assert_eq(hudi_arrow_export_batch(&a, b, NULL), 0);
    a.release(&a);
    hudi_batch_free(b);
    cr_assert_eq(g_talloc.live, 0, "release freed everything");
    hudi_set_allocator(NULL);
    hudi_field_dispose(&s);
}

Test(arrow_c, empty_and_null_arrays) {
    hudi_field s;
    hudi_field_init(&s, "root", HUDI_TYPE_STRUCT, false);
    hudi_field_set_children(&s, 3);
    field_leaf(&s.children[0], "s", HUDI_TYPE_STRING);
    field_leaf(&s.children[1], "n", HUDI_TYPE_NULL);
    field_leaf(&s.children[2], "l", HUDI_TYPE_LIST);
    hudi_field_set_children(&s.children[2], 1);
    field_leaf(&s.children[2].children[0], "element", HUDI_TYPE_BOOL);
    hudi_batch *b;
    cr_assert_eq(hudi_batch_new(&b, &s, NULL), 0);
    struct ArrowArray a;
    cr_assert_eq(hudi_arrow_export_batch(&a, b, NULL), 0);
    cr_assert_eq(a.length, 0);
    cr_assert_not_null(a.children[0]->buffers[1], "empty arrays still get one offset");
    cr_assert_eq(((const int32_t *)a.children[0]->buffers[1])[0], 0);
    cr_assert_eq(a.children[1]->n_buffers, 0);
    cr_assert_not_null(a.children[2]->buffers[1]);
    a.release(&a);
    /* A null column of 4 rows. */
    cr_assert_eq(hudi_array_append_nulls(b->columns[0], 4, NULL), 0);
    cr_assert_eq(hudi_array_append_nulls(b->columns[1], 4, NULL), 0);
    cr_assert_eq(hudi_array_append_nulls(b->columns[2], 4, NULL), 0);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_arrow_export_batch(&a, b, &err), HUDI_EINVAL, "num_rows not set");
    cr_assert(strstr(err.message, "column s: 4 rows in a batch of 0"), "%s", err.message);
    b->num_rows = 4;
    cr_assert_eq(hudi_arrow_export_batch(&a, b, NULL), 0);
    cr_assert_eq(a.children[1]->length, 4);
    cr_assert_eq(a.children[1]->null_count, 4);
    cr_assert_eq(a.children[0]->null_count, 4);
    cr_assert_eq(*(const uint8_t *)a.children[0]->buffers[0] & 15, 0);
    a.release(&a);
    hudi_batch_free(b);
    hudi_field_dispose(&s);
}

Test(arrow_c, single_array) {
    hudi_field f;
    field_leaf(&f, "v", HUDI_TYPE_BOOL);
    hudi_array *arr;
    cr_assert_eq(hudi_array_new(&arr, &f, NULL), 0);
    hudi_array_append_bool(arr, true, NULL);
    hudi_array_append_null(arr, NULL);
    hudi_array_append_bool(arr, true, NULL);
    struct ArrowArray a;
    cr_assert_eq(hudi_arrow_export_array(&a, arr, NULL), 0);
    cr_assert_eq(a.length, 3);
    cr_assert_eq(a.null_count, 1);
    cr_assert_eq(*(const uint8_t *)a.buffers[0] & 7, 5);
    cr_assert_eq(*(const uint8_t *)a.buffers[1] & 7, 5);
    cr_assert_eq(arr->length, 0);
    a.release(&a);
    hudi_array_free(arr);
    hudi_field_dispose(&f);
}

/* A producer of `left` sample batches, then an error if `fail`, else the end. */
typedef struct producer {
    const hudi_field *schema;
    int left;
    bool fail;
    bool *freed;
} producer;

static int produce(void *payload, hudi_batch **out, hudi_error *err) {
    producer *p = payload;
    *out = NULL;
    if (p->left == 0) return p->fail ? hudi_error_set(err, HUDI_EIO, "disk on fire") : 0;
    p->left--;
    int rc = hudi_batch_new(out, p->schema, err);
    if (rc == 0) rc = sample_fill(*out, err);
    return rc;
}

static void free_producer(void *payload) { *((producer *)payload)->freed = true; }

Test(arrow_c, stream) {
    hudi_field s;
    field_sample_schema(&s);
    talloc_install(-1);
    bool freed = false;
    producer p = {&s, 2, true, &freed};
    struct ArrowArrayStream st;
    cr_assert_eq(hudi_arrow_stream_new(&st, &s, produce, free_producer, &p, NULL), 0);
    struct ArrowSchema sc;
    cr_assert_eq(st.get_schema(&st, &sc), 0);
    cr_assert_str_eq(sc.format, "+s");
    cr_assert_eq(sc.n_children, 5);
    sc.release(&sc);
    struct ArrowArray a;
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(st.get_next(&st, &a), 0);
        cr_assert_not_null(a.release);
        cr_assert_eq(a.length, 3);
        a.release(&a);
    }
    cr_assert_null(st.get_last_error(&st));
    cr_assert_eq(st.get_next(&st, &a), EIO);
    cr_assert_str_eq(st.get_last_error(&st), "disk on fire");
    p.fail = false;
    cr_assert_eq(st.get_next(&st, &a), 0);
    cr_assert_null(a.release, "end of stream");
    st.release(&st);
    cr_assert_null(st.release);
    cr_assert(freed);
    cr_assert_eq(g_talloc.live, 0);
    hudi_set_allocator(NULL);
    hudi_field_dispose(&s);
}
