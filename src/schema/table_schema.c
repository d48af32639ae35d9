/* table_schema.c - Hudi's meta fields (docs/formats/avro-schema.md §2) and the table schema derived
 * from a Parquet file schema (what Spark sees through Hudi's Avro conversion, avro-schema.md §3).
 * Invariant: every function builds a fresh tree in `out` and leaves it zeroed on failure. */
#include "schema/schema.h"

const char *const hudi_meta_field_names[HUDI_META_FIELD_COUNT] = {
    "_hoodie_commit_time",    "_hoodie_commit_seqno", "_hoodie_record_key",
    "_hoodie_partition_path", "_hoodie_file_name",
};

bool hudi_is_meta_field(const char *name) {
    if (!name || strncmp(name, "_hoodie_", 8) != 0) return false;
    for (int i = 0; i < HUDI_META_FIELD_COUNT; i++)
        if (!strcmp(name, hudi_meta_field_names[i])) return true;
    return !strcmp(name, HUDI_META_OPERATION_FIELD);
}

bool hudi_schema_has_meta_fields(const hudi_field *root) {
    if (root->type != HUDI_TYPE_STRUCT || root->n_children < HUDI_META_FIELD_COUNT) return false;
    for (int i = 0; i < HUDI_META_FIELD_COUNT; i++)
        if (!root->children[i].name || strcmp(root->children[i].name, hudi_meta_field_names[i]))
            return false;
    return true;
}

/* Copies `root` keeping `extra` empty leading slots and dropping meta fields. */
static int copy_without_meta(hudi_field *out, const hudi_field *root, int32_t extra,
                             hudi_error *err) {
    memset(out, 0, sizeof(*out));
    if (root->type != HUDI_TYPE_STRUCT)
        return hudi_error_set(err, HUDI_EINVAL, "schema root must be a struct, not %s",
                              hudi_type_name(root->type));
    int32_t keep = 0;
    for (int32_t i = 0; i < root->n_children; i++)
        keep += !hudi_is_meta_field(root->children[i].name);
    hudi_field shell = *root;
    shell.children = NULL;
    shell.n_children = 0;
    if (hudi_field_copy(out, &shell) < 0 || hudi_field_set_children(out, extra + keep) < 0)
        goto oom;
    int32_t k = extra;
    for (int32_t i = 0; i < root->n_children; i++) {
        if (hudi_is_meta_field(root->children[i].name)) continue;
        if (hudi_field_copy(&out->children[k++], &root->children[i]) < 0) goto oom;
    }
    return 0;
oom:
    hudi_field_dispose(out);
    memset(out, 0, sizeof(*out));
    return hudi_error_oom(err);
}

int hudi_schema_remove_meta_fields(hudi_field *out, const hudi_field *root, hudi_error *err) {
    return copy_without_meta(out, root, 0, err);
}

int hudi_schema_add_meta_fields(hudi_field *out, const hudi_field *root, hudi_error *err) {
    int rc = copy_without_meta(out, root, HUDI_META_FIELD_COUNT, err);
    if (rc < 0) return rc;
    for (int i = 0; i < HUDI_META_FIELD_COUNT; i++) {
        hudi_field *m = &out->children[i];
        /* Hudi's meta fields: ["null","string"], doc "", default null (avro-schema.md §2) */
        if (hudi_field_init(m, hudi_meta_field_names[i], HUDI_TYPE_STRING, true) < 0 ||
            !(m->comment = hudi_strdup(""))) {
            hudi_field_dispose(out);
            memset(out, 0, sizeof(*out));
            return hudi_error_oom(err);
        }
    }
    return 0;
}

/* ---- Parquet -> table schema -------------------------------------------------------------- */

static int normalize(hudi_field *f, hudi_buf *path, hudi_error *err) {
    int rc;
    f->field_id = -1;
    switch (f->type) {
    case HUDI_TYPE_INT8:
    case HUDI_TYPE_INT16:
    case HUDI_TYPE_UINT8:
    case HUDI_TYPE_UINT16: f->type = HUDI_TYPE_INT32; break;
    case HUDI_TYPE_UINT32: f->type = HUDI_TYPE_INT64; break;
    case HUDI_TYPE_UINT64: /* Spark reads UINT_64 as decimal(20,0) */
        f->type = HUDI_TYPE_DECIMAL;
        f->precision = 20;
        f->scale = 0;
        f->byte_width = 0;
        break;
    case HUDI_TYPE_FLOAT16: f->type = HUDI_TYPE_FLOAT; break;
    case HUDI_TYPE_TIMESTAMP:
        if (f->hint == HUDI_HINT_INT96) { /* Spark: INT96 is a UTC timestamp in micros */
            f->unit = HUDI_UNIT_MICROS;
            f->utc = true;
        } else if (f->unit == HUDI_UNIT_NANOS) { /* Spark's nanosAsLong */
            f->type = HUDI_TYPE_INT64;
        }
        break;
    case HUDI_TYPE_TIME:
        if (f->unit == HUDI_UNIT_NANOS) f->type = HUDI_TYPE_INT64;
        break;
    case HUDI_TYPE_DECIMAL: f->byte_width = 0; break;
    case HUDI_TYPE_MAP:
        if (f->n_children == 1 && f->children[0].n_children == 2 &&
            f->children[0].children[0].type != HUDI_TYPE_STRING)
            return hudi_error_set(err, HUDI_EUNSUPPORTED,
                                  "column %s: map keys of type %s have no Avro form (strings only)",
                                  path->data ? path->data : "?",
                                  hudi_type_name(f->children[0].children[0].type));
        break;
    default: break;
    }
    if (f->type != HUDI_TYPE_FIXED_BINARY && f->type != HUDI_TYPE_STRING) f->hint = HUDI_HINT_NONE;
    if (f->type == HUDI_TYPE_STRING && f->hint != HUDI_HINT_UUID) f->hint = HUDI_HINT_NONE;
    /* canonical child names for lists and maps */
    const char *rename = NULL;
    if (f->type == HUDI_TYPE_LIST && f->n_children == 1) rename = "element";
    if (f->type == HUDI_TYPE_MAP && f->n_children == 1) rename = "key_value";
    if (rename) {
        char *n = hudi_strdup(rename);
        if (!n) return hudi_error_oom(err);
        hudi_free(f->children[0].name);
        f->children[0].name = n;
    }
    for (int32_t i = 0; i < f->n_children; i++) {
        size_t saved = path->len;
        if (f->type == HUDI_TYPE_STRUCT)
            hudi_buf_printf(path, "%s%s", saved ? "." : "", f->children[i].name);
        rc = normalize(&f->children[i], path, err);
        hudi_buf_truncate(path, saved);
        if (rc < 0) return rc;
    }
    return hudi_buf_failed(path) ? hudi_error_oom(err) : 0;
}

int hudi_schema_from_parquet(hudi_field *out, const hudi_field *parquet_root,
                             const char *table_name, hudi_error *err) {
    hudi_buf path = HUDI_BUF_INIT, name = HUDI_BUF_INIT;
    int rc = 0;
    memset(out, 0, sizeof(*out));
    if (parquet_root->type != HUDI_TYPE_STRUCT)
        return hudi_error_set(err, HUDI_EINVAL, "schema root must be a struct, not %s",
                              hudi_type_name(parquet_root->type));
    if (hudi_field_copy(out, parquet_root) < 0) return hudi_error_oom(err);
    out->nullable = false;
    if ((rc = normalize(out, &path, err)) < 0) goto done;
    if (table_name) {
        hudi_schema_record_fullname(&name, table_name);
        char *n = hudi_buf_failed(&name) ? NULL : hudi_buf_detach(&name);
        if (!n) {
            rc = hudi_error_oom(err);
            goto done;
        }
        hudi_free(out->name);
        out->name = n;
    }
done:
    if (rc < 0) {
        hudi_field_dispose(out);
        memset(out, 0, sizeof(*out));
    }
    hudi_buf_dispose(&path);
    hudi_buf_dispose(&name);
    return rc;
}

static void drop_element_nullability(hudi_field *f) {
    if (f->type == HUDI_TYPE_LIST && f->n_children == 1 && f->children[0].type != HUDI_TYPE_NULL)
        f->children[0].nullable = false;
    for (int32_t i = 0; i < f->n_children; i++) drop_element_nullability(&f->children[i]);
}

int hudi_schema_parquet_avro(hudi_field *out, const hudi_field *root, hudi_error *err) {
    if (hudi_field_copy(out, root) < 0) {
        memset(out, 0, sizeof(*out));
        return hudi_error_oom(err);
    }
    drop_element_nullability(out);
    return 0;
}
