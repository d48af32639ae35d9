/* json.c - public JSON Lines rendering of Arrow record batches (include/hudi/hudi_json.h): each
 * batch is imported into hudic's columns and rendered by columnar/render.h, the rendering of
 * docs/formats/rendering.md; and JSON Lines read back into batches (format/json). Invariant:
 * text reaches the callback whole lines at a time. */
#include "api/api.h"
#include "columnar/arrow_c.h"
#include "columnar/render.h"
#include "format/json/jsonl.h"

#define FLUSH_BYTES (1u << 20)

struct hudi_json_writer {
    const struct ArrowSchema *schema; /* borrowed */
    hudi_field field;
    hudi_buf *keys; /* per column: `"name":`, rendered once */
    hudi_buf out;
    hudi_json_write_fn write;
    void *payload;
};

void hudi_json_writer_free(hudi_json_writer *jw) {
    if (!jw) return;
    for (int32_t i = 0; jw->keys && i < jw->field.n_children; i++) hudi_buf_dispose(&jw->keys[i]);
    hudi_free(jw->keys);
    hudi_field_dispose(&jw->field);
    hudi_buf_dispose(&jw->out);
    hudi_free(jw);
}

int hudi_json_writer_new(hudi_json_writer **out, const struct ArrowSchema *schema,
                         hudi_json_write_fn write, void *payload, hudi_error *err) {
    hudi_json_writer *jw = NULL;
    int rc;
    if (!out) return hudi_error_set(err, HUDI_EINVAL, "hudi_json_writer_new: out is NULL");
    *out = NULL;
    if (!schema || !write)
        return hudi_error_set(err, HUDI_EINVAL, "hudi_json_writer_new: NULL argument");
    if (!(jw = hudi_calloc(1, sizeof(*jw)))) return hudi_error_oom(err);
    jw->schema = schema;
    jw->write = write;
    jw->payload = payload;
    if ((rc = hudi_arrow_import_schema(&jw->field, schema, err)) < 0) goto fail;
    if (jw->field.type != HUDI_TYPE_STRUCT) {
        rc = hudi_error_set(err, HUDI_EINVAL, "a record batch schema must be a struct, not %s",
                            hudi_type_name(jw->field.type));
        goto fail;
    }
    int32_t n = jw->field.n_children;
    if (!(jw->keys = hudi_calloc((size_t)n + 1, sizeof(hudi_buf)))) {
        rc = hudi_error_oom(err);
        goto fail;
    }
    for (int32_t i = 0; i < n; i++) {
        const char *name = jw->field.children[i].name ? jw->field.children[i].name : "";
        hudi_render_json_string(&jw->keys[i], (const uint8_t *)name, strlen(name));
        hudi_buf_putc(&jw->keys[i], ':');
        if (hudi_buf_failed(&jw->keys[i])) {
            rc = hudi_error_oom(err);
            goto fail;
        }
    }
    *out = jw;
    return 0;
fail:
    hudi_json_writer_free(jw);
    return rc;
}

int hudi_json_writer_flush(hudi_json_writer *jw, hudi_error *err) {
    if (!jw) return hudi_error_set(err, HUDI_EINVAL, "hudi_json_writer_flush: no writer");
    if (hudi_buf_failed(&jw->out)) return hudi_error_oom(err);
    int rc = jw->out.len ? jw->write(jw->payload, jw->out.data, jw->out.len) : 0;
    hudi_buf_clear(&jw->out);
    if (rc < 0 && (!err || err->code == 0))
        hudi_error_set(err, rc, "writing JSON Lines output failed");
    return rc;
}

static int render_rows(hudi_json_writer *jw, const hudi_batch *b, hudi_error *err) {
    hudi_buf *o = &jw->out;
    for (int64_t r = 0; r < b->num_rows; r++) {
        hudi_buf_putc(o, '{');
        for (int32_t c = 0; c < b->n_columns; c++) {
            if (c) hudi_buf_putc(o, ',');
            hudi_buf_append(o, jw->keys[c].data, jw->keys[c].len);
            int rc = hudi_render_json_value(o, b->columns[c], r);
            if (rc < 0) return rc == HUDI_ENOMEM ? hudi_error_oom(err) : rc;
        }
        hudi_buf_puts(o, "}\n");
        if (o->len >= FLUSH_BYTES) {
            int rc = hudi_json_writer_flush(jw, err);
            if (rc < 0) return rc;
        }
    }
    return hudi_buf_failed(o) ? hudi_error_oom(err) : 0;
}

int hudi_json_writer_write(hudi_json_writer *jw, const struct ArrowArray *array, int64_t offset,
                           int64_t length, hudi_error *err) {
    if (!jw || !array)
        return hudi_error_set(err, HUDI_EINVAL, "hudi_json_writer_write: NULL argument");
    if (offset < 0 || length < 0 || offset > array->length || length > array->length - offset)
        return hudi_error_set(err, HUDI_EINVAL, "rows [%lld, +%lld) outside a batch of %lld",
                              (long long)offset, (long long)length, (long long)array->length);
    if (length == 0) return 0;
    /* A view of the requested rows: the importer honours the array's offset. */
    struct ArrowArray view = *array;
    view.offset = array->offset + offset;
    view.length = length;
    hudi_batch *b = NULL;
    int rc = hudi_arrow_import_batch(&b, &view, jw->schema, &jw->field, err);
    if (rc == 0) rc = render_rows(jw, b, err);
    hudi_batch_free(b);
    return rc;
}

/* ---- reading ------------------------------------------------------------------------------- */

typedef struct json_source {
    hudi_field schema;
    hudi_jsonl_reader *r;
} json_source;

static void source_free(void *payload) {
    json_source *s = payload;
    hudi_jsonl_reader_free(s->r);
    hudi_field_dispose(&s->schema);
    hudi_free(s);
}

static int source_next(void *payload, hudi_batch **out, hudi_error *err) {
    json_source *s = payload;
    hudi_batch *b = NULL;
    *out = NULL;
    int rc = hudi_jsonl_reader_next(s->r, &b, err);
    if (rc < 0 || !b) return rc;
    *out = hudi_jsonl_reader_take_batch(s->r); /* the stream frees it */
    return *out ? 0 : hudi_error_oom(err);
}

int hudi_json_reader_to_arrow(const struct ArrowSchema *schema, hudi_json_read_fn read,
                              void *payload, const char *name, const hudi_json_read_options *opts,
                              struct ArrowArrayStream *out, hudi_error *err) {
    hudi_jsonl_options jo = HUDI_JSONL_OPTIONS_INIT;
    json_source *s = NULL;
    int rc;
    if (!schema || !read || !out)
        return hudi_error_set(err, HUDI_EINVAL, "hudi_json_reader_to_arrow: NULL argument");
    if (opts) {
        if (opts->version != HUDI_JSON_READ_OPTIONS_VERSION)
            return hudi_error_set(err, HUDI_EINVAL,
                                  "hudi_json_reader_to_arrow: options version %d, expected %d",
                                  opts->version, HUDI_JSON_READ_OPTIONS_VERSION);
        jo.batch_rows = opts->batch_rows;
        jo.ignore_unknown_fields = opts->ignore_unknown_fields;
    }
    if (!(s = hudi_calloc(1, sizeof(*s)))) return hudi_error_oom(err);
    if ((rc = hudi_arrow_import_schema(&s->schema, schema, err)) < 0) goto fail;
    if (s->schema.type != HUDI_TYPE_STRUCT) {
        rc = hudi_error_set(err, HUDI_EINVAL, "a record batch schema must be a struct, not %s",
                            hudi_type_name(s->schema.type));
        goto fail;
    }
    if ((rc = hudi_jsonl_reader_new(&s->r, &s->schema, read, payload, name, &jo, err)) < 0)
        goto fail;
    if ((rc = hudi_arrow_stream_new(out, &s->schema, source_next, source_free, s, err)) < 0)
        goto fail;
    return 0;
fail:
    source_free(s);
    return rc;
}
