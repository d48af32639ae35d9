/* arrow_roundtrip_lib.c - a shared-library helper for arrow_roundtrip.py: builds a two-batch
 * ArrowArrayStream holding one column of every hudi type so pyarrow can import and check it. */
#include "columnar/arrow_c.h"
#include "columnar/render.h"

#include <stdlib.h>

static hudi_field g_schema;

static void leaf(hudi_field *f, const char *name, hudi_type_id t) {
    if (hudi_field_init(f, name, t, true) < 0) abort();
}

static void build_schema(void) {
    hudi_field *s = &g_schema;
    if (hudi_field_init(s, "root", HUDI_TYPE_STRUCT, false) < 0 ||
        hudi_field_set_children(s, 30) < 0)
        abort();
    hudi_field *c = s->children;
    static const struct {
        const char *name;
        hudi_type_id t;
        uint8_t unit;
        bool utc;
    } leaves[] = {
        {"b", HUDI_TYPE_BOOL, 0, 0},
        {"i8", HUDI_TYPE_INT8, 0, 0},
        {"i16", HUDI_TYPE_INT16, 0, 0},
        {"i32", HUDI_TYPE_INT32, 0, 0},
        {"i64", HUDI_TYPE_INT64, 0, 0},
        {"u8", HUDI_TYPE_UINT8, 0, 0},
        {"u16", HUDI_TYPE_UINT16, 0, 0},
        {"u32", HUDI_TYPE_UINT32, 0, 0},
        {"u64", HUDI_TYPE_UINT64, 0, 0},
        {"f16", HUDI_TYPE_FLOAT16, 0, 0},
        {"f32", HUDI_TYPE_FLOAT, 0, 0},
        {"f64", HUDI_TYPE_DOUBLE, 0, 0},
        {"dec", HUDI_TYPE_DECIMAL, 0, 0},
        {"date", HUDI_TYPE_DATE, 0, 0},
        {"tms", HUDI_TYPE_TIME, 0, 0},
        {"tus", HUDI_TYPE_TIME, 1, 0},
        {"tns", HUDI_TYPE_TIME, 2, 0},
        {"tsms", HUDI_TYPE_TIMESTAMP, 0, 1},
        {"tsus", HUDI_TYPE_TIMESTAMP, 1, 0},
        {"tsns", HUDI_TYPE_TIMESTAMP, 2, 1},
        {"str", HUDI_TYPE_STRING, 0, 0},
        {"bin", HUDI_TYPE_BINARY, 0, 0},
        {"fixed", HUDI_TYPE_FIXED_BINARY, 0, 0},
        {"uuid", HUDI_TYPE_FIXED_BINARY, 0, 0},
        {"nul", HUDI_TYPE_NULL, 0, 0},
    };
    for (int i = 0; i < 25; i++) {
        leaf(&c[i], leaves[i].name, leaves[i].t);
        c[i].unit = leaves[i].unit;
        c[i].utc = leaves[i].utc;
    }
    c[12].precision = 38;
    c[12].scale = 2;
    c[22].byte_width = 3;
    c[23].byte_width = 16;
    c[23].hint = HUDI_HINT_UUID;
    leaf(&c[25], "list", HUDI_TYPE_LIST);
    if (hudi_field_set_children(&c[25], 1) < 0) abort();
    leaf(&c[25].children[0], "element", HUDI_TYPE_INT32);
    leaf(&c[26], "map", HUDI_TYPE_MAP);
    if (hudi_field_set_children(&c[26], 1) < 0) abort();
    hudi_field *e = &c[26].children[0];
    if (hudi_field_init(e, "entries", HUDI_TYPE_STRUCT, false) < 0 ||
        hudi_field_set_children(e, 2) < 0 ||
        hudi_field_init(&e->children[0], "key", HUDI_TYPE_STRING, false) < 0)
        abort();
    leaf(&e->children[1], "value", HUDI_TYPE_INT64);
    leaf(&c[27], "st", HUDI_TYPE_STRUCT);
    if (hudi_field_set_children(&c[27], 2) < 0) abort();
    leaf(&c[27].children[0], "x", HUDI_TYPE_DOUBLE);
    leaf(&c[27].children[1], "s", HUDI_TYPE_STRING);
    if (hudi_field_init(&c[28], "req", HUDI_TYPE_INT32, false) < 0) abort();
    leaf(&c[29], "json", HUDI_TYPE_STRING);
    c[29].hint = HUDI_HINT_JSON;
}

/* Row r of batch k: row 1 is null in every nullable column; others hold r-dependent values. */
static int fill(hudi_batch *b, int k) {
    hudi_array **c = b->columns;
    int rc = 0;
    for (int r = 0; r < 3; r++) {
        int64_t v = (int64_t)k * 10 + r;
        for (int i = 0; i < 30; i++) {
            hudi_array *a = c[i];
            const hudi_field *f = a->field;
            if (r == 1 && f->nullable) {
                rc = hudi_array_append_null(a, NULL);
            } else if (f->type == HUDI_TYPE_STRING) {
                char s[32];
                int n = snprintf(s, sizeof(s), i == 29 ? "{\"v\":%lld}" : "s\xc3\xa9%lld",
                                 (long long)v);
                rc = hudi_array_append_bytes(a, s, (size_t)n, NULL);
            } else if (f->type == HUDI_TYPE_BINARY) {
                rc = hudi_array_append_bytes(a, "\x00\xff", (size_t)(r + 1 > 2 ? 2 : r + 1), NULL);
            } else if (f->type == HUDI_TYPE_FIXED_BINARY) {
                uint8_t bytes[16];
                for (int j = 0; j < 16; j++) bytes[j] = (uint8_t)(v + j);
                rc = hudi_array_append_fixed(a, bytes, NULL);
            } else if (f->type == HUDI_TYPE_LIST) {
                for (int j = 0; j < r; j++) {
                    int32_t x = (int32_t)(v + j);
                    if ((rc = hudi_array_append_fixed(a->children[0], &x, NULL)) < 0) return rc;
                }
                rc = hudi_array_append_nested(a, r, NULL);
            } else if (f->type == HUDI_TYPE_MAP) {
                hudi_array *kv = a->children[0];
                if ((rc = hudi_array_append_bytes(kv->children[0], "k", 1, NULL)) < 0 ||
                    (rc = hudi_array_append_fixed(kv->children[1], &v, NULL)) < 0 ||
                    (rc = hudi_array_append_nested(kv, 0, NULL)) < 0)
                    return rc;
                rc = hudi_array_append_nested(a, 1, NULL);
            } else if (f->type == HUDI_TYPE_STRUCT) {
                double x = (double)v / 4;
                if ((rc = hudi_array_append_fixed(a->children[0], &x, NULL)) < 0 ||
                    (rc = hudi_array_append_bytes(a->children[1], "z", 1, NULL)) < 0)
                    return rc;
                rc = hudi_array_append_nested(a, 0, NULL);
            } else if (f->type == HUDI_TYPE_BOOL) {
                rc = hudi_array_append_bool(a, r == 0, NULL);
            } else if (f->type == HUDI_TYPE_FLOAT16) {
                uint16_t h = 0x3c00; /* 1.0 */
                rc = hudi_array_append_fixed(a, &h, NULL);
            } else if (f->type == HUDI_TYPE_FLOAT) {
                float x = (float)v / 2;
                rc = hudi_array_append_fixed(a, &x, NULL);
            } else if (f->type == HUDI_TYPE_DOUBLE) {
                double x = (double)v / 2;
                rc = hudi_array_append_fixed(a, &x, NULL);
            } else if (f->type == HUDI_TYPE_DECIMAL) {
                uint8_t d[16];
                hudi_store_u64le(d, (uint64_t)(-v - 5));
                hudi_store_u64le(d + 8, UINT64_MAX);
                rc = hudi_array_append_fixed(a, d, NULL);
            } else if (hudi_type_is_fixed(f->type)) {
                uint8_t d[16] = {0};
                memcpy(d, &v, 8); /* little-endian: the low bytes are v for every width */
                rc = hudi_array_append_fixed(a, d, NULL);
            } else {
                rc = hudi_array_append_null(a, NULL);
            }
            if (rc < 0) return rc;
        }
        b->num_rows++;
    }
    return 0;
}

typedef struct producer {
    int next;
} producer;

static int produce(void *payload, hudi_batch **out, hudi_error *err) {
    producer *p = payload;
    *out = NULL;
    if (p->next == 2) return 0;
    int rc = hudi_batch_new(out, &g_schema, err);
    if (rc == 0) rc = fill(*out, p->next++);
    return rc;
}

static void free_producer(void *payload) { hudi_free(payload); }

__attribute__((visibility("default"))) int roundtrip_stream(struct ArrowArrayStream *out) {
    if (!g_schema.name) build_schema();
    producer *p = hudi_calloc(1, sizeof(*p));
    if (!p) return HUDI_ENOMEM;
    int rc = hudi_arrow_stream_new(out, &g_schema, produce, free_producer, p, NULL);
    if (rc < 0) hudi_free(p);
    return rc;
}

/* Renders row `row` of batch `k` as JSON into buf (NUL-terminated, truncated to cap). */
__attribute__((visibility("default"))) int roundtrip_render(int k, int row, char *buf, size_t cap) {
    if (!g_schema.name) build_schema();
    hudi_batch *b = NULL;
    hudi_buf out = HUDI_BUF_INIT;
    int rc = hudi_batch_new(&b, &g_schema, NULL);
    if (rc == 0) rc = fill(b, k);
    if (rc == 0) rc = hudi_render_json_row(&out, b, row);
    if (rc == 0) snprintf(buf, cap, "%s", out.data);
    hudi_buf_dispose(&out);
    hudi_batch_free(b);
    return rc;
}
