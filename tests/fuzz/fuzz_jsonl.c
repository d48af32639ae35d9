/* fuzz_jsonl.c - JSON Lines input (src/format/json/jsonl.c). The first byte picks options
 * (unknown fields ignored or not, batch size); the rest is JSON Lines text parsed against a
 * schema with every scalar type, lists, maps and structs. Every batch that comes out must
 * validate, and must render and parse back to equal values (the round trip the CLI relies on). */
#include <stdlib.h>
#include <string.h>

#include "columnar/render.h"
#include "format/json/jsonl.h"

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        if (!(x)) abort();                                                                         \
    } while (0)

static void set(hudi_field *f, const char *name, hudi_type_id t) {
    CHECK(hudi_field_init(f, name, t, true) == 0);
}

static void build_schema(hudi_field *s) {
    static const struct {
        const char *name;
        hudi_type_id t;
    } scalars[] = {
        {"b", HUDI_TYPE_BOOL},    {"i8", HUDI_TYPE_INT8},    {"i32", HUDI_TYPE_INT32},
        {"i64", HUDI_TYPE_INT64}, {"u64", HUDI_TYPE_UINT64}, {"h", HUDI_TYPE_FLOAT16},
        {"f", HUDI_TYPE_FLOAT},   {"d", HUDI_TYPE_DOUBLE},   {"dec", HUDI_TYPE_DECIMAL},
        {"date", HUDI_TYPE_DATE}, {"t", HUDI_TYPE_TIME},     {"ts", HUDI_TYPE_TIMESTAMP},
        {"s", HUDI_TYPE_STRING},  {"bin", HUDI_TYPE_BINARY}, {"u", HUDI_TYPE_FIXED_BINARY}};
    int n = (int)(sizeof(scalars) / sizeof(scalars[0]));
    CHECK(hudi_field_init(s, "schema", HUDI_TYPE_STRUCT, false) == 0);
    CHECK(hudi_field_set_children(s, n + 3) == 0);
    for (int i = 0; i < n; i++) set(&s->children[i], scalars[i].name, scalars[i].t);
    s->children[8].precision = 10, s->children[8].scale = 2;
    s->children[11].utc = true;
    s->children[14].byte_width = 16, s->children[14].hint = HUDI_HINT_UUID;
    hudi_field *l = &s->children[n];
    set(l, "l", HUDI_TYPE_LIST);
    CHECK(hudi_field_set_children(l, 1) == 0);
    set(&l->children[0], "element", HUDI_TYPE_INT64);
    hudi_field *m = &s->children[n + 1];
    set(m, "m", HUDI_TYPE_MAP);
    CHECK(hudi_field_set_children(m, 1) == 0);
    CHECK(hudi_field_init(&m->children[0], "key_value", HUDI_TYPE_STRUCT, false) == 0);
    CHECK(hudi_field_set_children(&m->children[0], 2) == 0);
    CHECK(hudi_field_init(&m->children[0].children[0], "key", HUDI_TYPE_STRING, false) == 0);
    set(&m->children[0].children[1], "value", HUDI_TYPE_DOUBLE);
    hudi_field *st = &s->children[n + 2];
    set(st, "st", HUDI_TYPE_STRUCT);
    CHECK(hudi_field_set_children(st, 2) == 0);
    set(&st->children[0], "x", HUDI_TYPE_STRING);
    CHECK(hudi_field_init(&st->children[1], "y", HUDI_TYPE_LIST, false) == 0);
    CHECK(hudi_field_set_children(&st->children[1], 1) == 0);
    set(&st->children[1].children[0], "element", HUDI_TYPE_DATE);
}

typedef struct src {
    const uint8_t *data;
    size_t len, pos;
} src;

static int read_src(void *payload, void *buf, size_t cap, size_t *got, hudi_error *err) {
    src *s = payload;
    size_t n = s->len - s->pos < cap ? s->len - s->pos : cap;
    if (n > 13) n = 13; /* small reads exercise lines that straddle reads */
    memcpy(buf, s->data + s->pos, n);
    s->pos += n;
    *got = n;
    return 0;
}

/* Every row renders to JSON that parses back to the same values. */
static void check_roundtrip(const hudi_batch *b) {
    hudi_batch *back = NULL;
    hudi_buf line = HUDI_BUF_INIT, why = HUDI_BUF_INIT;
    CHECK(hudi_batch_new(&back, b->schema, NULL) == 0);
    for (int64_t i = 0; i < b->num_rows; i++) {
        hudi_buf_clear(&line);
        CHECK(hudi_render_json_row(&line, b, i) == 0);
        CHECK(hudi_jsonl_parse_row(back, line.data, line.len, 1, NULL, NULL) == 0);
    }
    CHECK(hudi_batch_equal(b, back, &why));
    hudi_buf_dispose(&why);
    hudi_buf_dispose(&line);
    hudi_batch_free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static hudi_field schema;
    static int ready;
    if (!ready) {
        build_schema(&schema);
        ready = 1;
    }
    if (size < 1 || size > 1 << 16) return 0;
    hudi_jsonl_options o = HUDI_JSONL_OPTIONS_INIT;
    o.ignore_unknown_fields = data[0] & 1;
    o.batch_rows = 1 + (data[0] >> 1 & 7);
    src in = {data + 1, size - 1, 0};
    hudi_jsonl_reader *r = NULL;
    CHECK(hudi_jsonl_reader_new(&r, &schema, read_src, &in, "fuzz", &o, NULL) == 0);
    for (;;) {
        hudi_batch *b = NULL;
        if (hudi_jsonl_reader_next(r, &b, NULL) < 0 || !b) break;
        CHECK(hudi_batch_validate(b, NULL) == 0);
        check_roundtrip(b);
    }
    hudi_jsonl_reader_free(r);
    return 0;
}
