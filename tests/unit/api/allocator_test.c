/* allocator_test.c - hudi_set_allocator (include/hudi/hudi.h) routes every allocation through
 * the caller's hooks: hudic's own, jansson's (JSON parsing) and libavro's (Avro schemas), and
 * NULL restores the libraries' previous allocators. Criterion runs each test in its own
 * process, so the process-wide hooks do not leak between tests. */
#include <avro.h>
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "format/avro/avro.h"
#include "schema/schema.h"

static struct { long calls, live; } g;

static void *count_malloc(size_t n, void *payload) {
    cr_assert_eq(payload, &g);
    g.calls++;
    void *p = malloc(n);
    if (p) g.live++;
    return p;
}
static void *count_realloc(void *ptr, size_t n, void *payload) {
    cr_assert_eq(payload, &g);
    g.calls++;
    void *p = realloc(ptr, n);
    if (p && !ptr) g.live++;
    return p;
}
static void count_free(void *ptr, void *payload) {
    cr_assert_eq(payload, &g);
    if (ptr) g.live--;
    free(ptr);
}

static const hudi_allocator COUNTING = {count_malloc, count_realloc, count_free, &g};

static const char *SCHEMA =
    "{\"type\":\"record\",\"name\":\"trip\",\"fields\":["
    "{\"name\":\"id\",\"type\":\"long\"},"
    "{\"name\":\"rider\",\"type\":[\"null\",\"string\"]},"
    "{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"items\":\"string\"}}]}";

/* Hook calls made by a hudic JSON parse (Avro schema JSON -> hudi_field, through jansson). */
static long json_parse_calls(void) {
    long before = g.calls;
    hudi_field f;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_schema_parse_avro(&f, SCHEMA, strlen(SCHEMA), &err), 0, "%s", err.message);
    cr_assert_eq(f.n_children, 3);
    hudi_field_dispose(&f);
    return g.calls - before;
}

/* Hook calls made by a hudic Avro decode: a container written and read back (the reader parses
 * the header's schema with libavro and decodes the records). */
static long avro_decode_calls(void) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_avro_schema *s = NULL;
    cr_assert_eq(hudi_avro_schema_parse(&s, hudi_slice_cstr(SCHEMA), &err), 0, "%s", err.message);
    hudi_avro_value tag = {
        .type = HUDI_AVRO_STRING, .branch = -1, .bytes = hudi_slice_cstr("night")};
    hudi_avro_value fields[3] = {
        {.type = HUDI_AVRO_LONG, .v.i = 7, .branch = -1},
        {.type = HUDI_AVRO_NULL, .branch = -1},
        {.type = HUDI_AVRO_ARRAY, .items = &tag, .count = 1, .branch = -1},
    };
    hudi_avro_value rec = {.type = HUDI_AVRO_RECORD, .items = fields, .count = 3, .branch = -1};
    hudi_buf file = HUDI_BUF_INIT;
    static const uint8_t sync[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    cr_assert_eq(hudi_avro_container_write(&file, s, &rec, 1, sync, &err), 0, "%s", err.message);
    long before = g.calls;
    hudi_avro_container c = HUDI_AVRO_CONTAINER_INIT;
    cr_assert_eq(hudi_avro_container_read(&c, HUDI_SLICE(file.data, file.len), &err), 0, "%s",
                 err.message);
    cr_assert_eq(c.count, 1);
    cr_assert_eq(c.records[0].items[0].v.i, 7);
    hudi_avro_container_dispose(&c);
    long calls = g.calls - before;
    hudi_buf_dispose(&file);
    hudi_avro_schema_free(s);
    return calls;
}

Test(allocator, routes_jansson_and_libavro_through_the_hooks) {
    /* Baseline: hudic's own hooks only (the base layer's setter), the libraries on malloc. */
    hudi_alloc_set(&COUNTING);
    long json_own = json_parse_calls(), avro_own = avro_decode_calls();
    hudi_alloc_set(NULL);
    cr_assert_eq(g.live, 0);

    /* The public setter: the same hudic calls now also count jansson's and libavro's blocks. */
    hudi_set_allocator(&COUNTING);
    long json_all = json_parse_calls(), avro_all = avro_decode_calls();
    cr_assert_gt(json_all, json_own, "jansson did not allocate through the hooks (%ld, %ld)",
                 json_all, json_own);
    cr_assert_gt(avro_all, avro_own, "libavro did not allocate through the hooks (%ld, %ld)",
                 avro_all, avro_own);

    /* The libraries used directly see the hooks too. */
    long before = g.calls;
    json_t *j = json_loads("{\"a\":[1,2,\"three\"]}", 0, NULL);
    cr_assert_not_null(j);
    cr_assert_gt(g.calls, before);
    json_decref(j);
    before = g.calls;
    avro_schema_t raw = NULL;
    cr_assert_eq(avro_schema_from_json_length(SCHEMA, strlen(SCHEMA), &raw), 0, "%s",
                 avro_strerror());
    cr_assert_gt(g.calls, before);
    avro_schema_decref(raw);
    cr_assert_eq(g.live, 0, "%ld blocks still allocated", g.live);

    /* NULL restores the previous allocators: nothing reaches the hooks any more. */
    hudi_set_allocator(NULL);
    before = g.calls;
    j = json_loads("[1,2,3]", 0, NULL);
    cr_assert_not_null(j);
    json_decref(j);
    cr_assert_eq(json_parse_calls(), 0);
    cr_assert_eq(g.calls, before);
}

/* With hooks that fail, jansson's out-of-memory is reported as HUDI_ENOMEM, not as bad JSON. */
static void *fail_malloc(size_t n, void *payload) { return NULL; }
static void *fail_realloc(void *p, size_t n, void *payload) { return NULL; }
static void plain_free(void *p, void *payload) { free(p); }

Test(allocator, jansson_out_of_memory_is_enomem) {
    static const hudi_allocator failing = {fail_malloc, fail_realloc, plain_free, NULL};
    hudi_set_allocator(&failing);
    hudi_field f;
    hudi_error err = HUDI_ERROR_INIT;
    int rc = hudi_schema_parse_avro(&f, SCHEMA, strlen(SCHEMA), &err);
    hudi_set_allocator(NULL);
    cr_assert_eq(rc, HUDI_ENOMEM, "%d: %s", rc, err.message);
}
