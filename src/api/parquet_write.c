/* parquet_write.c - public Parquet writers (include/hudi/hudi_parquet.h): Arrow C batches
 * imported into hudic's columns and handed to the format layer's writer.
 *
 * Invariant: every batch has the writer's shape (checked here, so a mismatch is an error
 * naming the column rather than a malformed file), and the file is published only by a
 * successful close. */
#include "api/api.h"
#include "columnar/arrow_c.h"

struct hudi_parquet_writer {
    hudi_fs *fs;
    hudi_pq_writer *w;
    hudi_field schema;
    char *path;
    hudi_pq_column_encoding *encodings; /* the format writer's copy of column_encodings */
};

/* Same column tree: names, types and their parameters, nullability. */
static bool same_shape(const hudi_field *a, const hudi_field *b) {
    if (a->type != b->type || a->nullable != b->nullable || a->n_children != b->n_children ||
        a->precision != b->precision || a->scale != b->scale || a->byte_width != b->byte_width ||
        a->unit != b->unit || a->utc != b->utc)
        return false;
    for (int32_t i = 0; i < a->n_children; i++) {
        const char *x = a->children[i].name, *y = b->children[i].name;
        if (strcmp(x ? x : "", y ? y : "") != 0 || !same_shape(&a->children[i], &b->children[i]))
            return false;
    }
    return true;
}

/* The public encodings are the Thrift Encoding numbers, as PQ_ENC_* are. */
_Static_assert((int)HUDI_PARQUET_ENCODING_PLAIN == (int)PQ_ENC_PLAIN, "PLAIN");
_Static_assert((int)HUDI_PARQUET_ENCODING_RLE == (int)PQ_ENC_RLE, "RLE");
_Static_assert((int)HUDI_PARQUET_ENCODING_DELTA_BINARY_PACKED == (int)PQ_ENC_DELTA_BINARY_PACKED,
               "DELTA_BINARY_PACKED");
_Static_assert((int)HUDI_PARQUET_ENCODING_DELTA_LENGTH_BYTE_ARRAY ==
                   (int)PQ_ENC_DELTA_LENGTH_BYTE_ARRAY,
               "DELTA_LENGTH_BYTE_ARRAY");
_Static_assert((int)HUDI_PARQUET_ENCODING_DELTA_BYTE_ARRAY == (int)PQ_ENC_DELTA_BYTE_ARRAY,
               "DELTA_BYTE_ARRAY");
_Static_assert((int)HUDI_PARQUET_ENCODING_RLE_DICTIONARY == (int)PQ_ENC_RLE_DICTIONARY,
               "RLE_DICTIONARY");
_Static_assert((int)HUDI_PARQUET_ENCODING_BYTE_STREAM_SPLIT == (int)PQ_ENC_BYTE_STREAM_SPLIT,
               "BYTE_STREAM_SPLIT");

/* Maps the public options onto the format writer's; per-column encodings go into `*enc`
 * (owned by the caller, NULL when there are none): the public hudi_parquet_encoding values are
 * the format's PQ_ENC_* numbers (the Thrift Encoding enum), DEFAULT entries are left out. */
static int map_options(hudi_pq_write_options *o, hudi_pq_column_encoding **enc,
                       const hudi_parquet_write_options *p, const char *path, hudi_error *err) {
    *enc = NULL;
    if (p->version != HUDI_PARQUET_WRITE_OPTIONS_VERSION)
        return hudi_error_set(err, HUDI_EINVAL,
                              "hudi_parquet_writer_open: options version %d, expected %d",
                              p->version, HUDI_PARQUET_WRITE_OPTIONS_VERSION);
    o->codec = (int)p->codec;
    o->codec_level = p->codec_level;
    o->dictionary = p->dictionary;
    o->data_page_v2 = p->data_page_v2;
    if (p->dictionary_page_bytes > 0) o->dictionary_page_bytes = p->dictionary_page_bytes;
    if (p->page_bytes > 0) o->page_bytes = p->page_bytes;
    if (p->page_rows > 0) o->page_rows = p->page_rows;
    if (p->row_group_bytes > 0) o->row_group_bytes = p->row_group_bytes;
    if (p->row_group_rows > 0) o->row_group_rows = p->row_group_rows;
    o->write_statistics = p->write_statistics;
    o->write_page_index = p->write_page_index;
    o->write_crc = p->write_crc;
    o->bloom_filter_columns = p->bloom_filter_columns;
    o->n_bloom_filter_columns = p->n_bloom_filter_columns;
    if (p->bloom_fpp > 0) o->bloom_fpp = p->bloom_fpp;
    if (p->n_column_encodings < 0 || (p->n_column_encodings > 0 && !p->column_encodings))
        return hudi_error_set(err, HUDI_EINVAL, "%s: bad column encoding list", path);
    if (p->n_column_encodings == 0) return 0;
    if (!(*enc = hudi_calloc((size_t)p->n_column_encodings, sizeof(**enc))))
        return hudi_error_oom(err);
    int32_t n = 0;
    for (int32_t i = 0; i < p->n_column_encodings; i++) {
        const hudi_parquet_column_encoding *ce = &p->column_encodings[i];
        if (!ce->column)
            return hudi_error_set(err, HUDI_EINVAL, "%s: column encoding %d names no column", path,
                                  (int)i);
        if (ce->encoding == HUDI_PARQUET_ENCODING_DEFAULT) continue;
        (*enc)[n].column = ce->column;
        (*enc)[n].encoding = (int)ce->encoding; /* same numbers as PQ_ENC_* */
        n++;
    }
    o->column_encodings = *enc;
    o->n_column_encodings = n;
    return 0;
}

int hudi_parquet_writer_open(hudi_parquet_writer **out, const char *path,
                             const struct ArrowSchema *schema,
                             const hudi_parquet_write_options *opts, hudi_error *err) {
    hudi_parquet_write_options dflt = HUDI_PARQUET_WRITE_OPTIONS_INIT;
    hudi_pq_write_options po = HUDI_PQ_WRITE_OPTIONS_INIT;
    hudi_parquet_writer *w = NULL;
    int rc;
    if (!out) return hudi_error_set(err, HUDI_EINVAL, "hudi_parquet_writer_open: out is NULL");
    *out = NULL;
    if (!path || !*path || !schema)
        return hudi_error_set(err, HUDI_EINVAL,
                              "hudi_parquet_writer_open: a path and a schema are required");
    if (!(w = hudi_calloc(1, sizeof(*w))) || !(w->path = hudi_strdup(path))) {
        rc = hudi_error_oom(err);
        goto fail;
    }
    if ((rc = map_options(&po, &w->encodings, opts ? opts : &dflt, path, err)) < 0) goto fail;
    if ((rc = hudi_arrow_import_schema(&w->schema, schema, err)) < 0) goto fail;
    if (w->schema.type != HUDI_TYPE_STRUCT) {
        rc = hudi_error_set(err, HUDI_EINVAL, "the schema must be a struct, not %s",
                            hudi_type_name(w->schema.type));
        goto fail;
    }
    if ((rc = hudi_fs_local_new(&w->fs, err)) < 0) goto fail;
    if ((rc = hudi_pq_writer_open(&w->w, w->fs, path, &w->schema, &po, err)) < 0) goto fail;
    for (const char *const *kv = opts ? opts->key_value_metadata : NULL; kv && kv[0]; kv += 2) {
        if (!kv[1]) {
            rc = hudi_error_set(err, HUDI_EINVAL, "key/value metadata: key '%s' has no value",
                                kv[0]);
            goto fail;
        }
        if ((rc = hudi_pq_writer_add_kv(w->w, kv[0], kv[1], err)) < 0) goto fail;
    }
    *out = w;
    return 0;
fail:
    hudi_api_name_path(err, path);
    hudi_parquet_writer_abort(w);
    return rc;
}

int hudi_parquet_writer_write(hudi_parquet_writer *w, const struct ArrowSchema *schema,
                              const struct ArrowArray *array, hudi_error *err) {
    hudi_field field = {0};
    hudi_batch *batch = NULL;
    int rc;
    if (!w || !schema || !array)
        return hudi_error_set(err, HUDI_EINVAL, "hudi_parquet_writer_write: NULL argument");
    if ((rc = hudi_arrow_import_schema(&field, schema, err)) < 0) goto done;
    if (!same_shape(&field, &w->schema)) {
        rc = hudi_error_set(err, HUDI_EINVAL, "the batch's schema differs from the writer's");
        goto done;
    }
    if ((rc = hudi_arrow_import_batch(&batch, array, schema, &w->schema, err)) < 0) goto done;
    rc = hudi_pq_writer_write(w->w, batch, err);
done:
    if (rc < 0) hudi_api_name_path(err, w->path);
    hudi_batch_free(batch);
    hudi_field_dispose(&field);
    return rc;
}

int hudi_parquet_writer_add_key_value(hudi_parquet_writer *w, const char *key, const char *value,
                                      hudi_error *err) {
    if (!w || !key || !value)
        return hudi_error_set(err, HUDI_EINVAL, "hudi_parquet_writer_add_key_value: NULL argument");
    return hudi_pq_writer_add_kv(w->w, key, value, err);
}

static void writer_free(hudi_parquet_writer *w) {
    hudi_fs_free(w->fs);
    hudi_field_dispose(&w->schema);
    hudi_free(w->path);
    hudi_free(w->encodings);
    hudi_free(w);
}

int hudi_parquet_writer_close(hudi_parquet_writer *w, int64_t *size_bytes, hudi_error *err) {
    if (size_bytes) *size_bytes = 0;
    if (!w) return hudi_error_set(err, HUDI_EINVAL, "hudi_parquet_writer_close: no writer");
    int rc = hudi_pq_writer_close(w->w, size_bytes, err);
    writer_free(w);
    return rc;
}

void hudi_parquet_writer_abort(hudi_parquet_writer *w) {
    if (!w) return;
    hudi_pq_writer_abort(w->w);
    writer_free(w);
}
