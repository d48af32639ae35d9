/* table.c - the public table handle (include/hudi/hudi_table.h): open, create, inspect, write
 * Arrow batches, roll back and clean. Arguments are checked here; the work is done by the table
 * (src/table), write (src/write) and read (src/read) layers, whose errors pass through as they
 * are. Invariant: t->latest always describes t->t's timeline (refreshed after every change). */
#include <stdio.h>
#include <strings.h>

#include "api/api.h"
#include "columnar/arrow_c.h"
#include "schema/schema.h"

static void refresh_latest(hudi_table *t) {
    const hudi_instant *in = hudi_timeline_last_completed_commit(t->t->timeline);
    snprintf(t->latest, sizeof(t->latest), "%s", in ? in->time : "");
}

/* Wraps an open hudi_tbl (taken over) in a public handle. */
static int wrap(hudi_table **out, hudi_tbl *tbl, hudi_error *err) {
    hudi_table *t = hudi_calloc(1, sizeof(*t));
    if (!t) {
        hudi_tbl_free(tbl);
        return hudi_error_oom(err);
    }
    t->t = tbl;
    refresh_latest(t);
    *out = t;
    return 0;
}

/* A copy of `path` without trailing slashes ("/" stays): tables name themselves by it. */
static char *clean_path(const char *path) {
    char *p = hudi_strdup(path);
    size_t n = p ? strlen(p) : 0;
    while (n > 1 && p[n - 1] == '/') p[--n] = '\0';
    return p;
}

int hudi_table_open(hudi_table **out, const char *base_path, const hudi_table_open_options *opts,
                    hudi_error *err) {
    hudi_tbl *tbl = NULL;
    if (!out) return hudi_error_set(err, HUDI_EINVAL, "hudi_table_open: out is NULL");
    *out = NULL;
    if (!base_path || !*base_path)
        return hudi_error_set(err, HUDI_EINVAL, "hudi_table_open: no base path");
    if (opts && opts->version != HUDI_TABLE_OPEN_OPTIONS_VERSION)
        return hudi_error_set(err, HUDI_EINVAL, "hudi_table_open: options version %d, expected %d",
                              opts->version, HUDI_TABLE_OPEN_OPTIONS_VERSION);
    char *path = clean_path(base_path);
    if (!path) return hudi_error_oom(err);
    int rc = hudi_tbl_open(&tbl, NULL, path, err);
    hudi_free(path);
    return rc < 0 ? rc : wrap(out, tbl, err);
}

int hudi_table_create(hudi_table **out, const char *base_path,
                      const hudi_table_create_options *opts, hudi_error *err) {
    hudi_create_options co = {0};
    hudi_field schema = {0};
    hudi_tbl *tbl = NULL;
    char *path = NULL;
    int rc;
    if (!out) return hudi_error_set(err, HUDI_EINVAL, "hudi_table_create: out is NULL");
    *out = NULL;
    if (!base_path || !*base_path || !opts)
        return hudi_error_set(err, HUDI_EINVAL,
                              "hudi_table_create: a base path and options are required");
    if (opts->version != HUDI_TABLE_CREATE_OPTIONS_VERSION)
        return hudi_error_set(err, HUDI_EINVAL,
                              "hudi_table_create: options version %d, expected %d", opts->version,
                              HUDI_TABLE_CREATE_OPTIONS_VERSION);
    if (!opts->schema)
        return hudi_error_set(err, HUDI_EINVAL, "%s: a schema is required", base_path);
    co.type = HUDI_COPY_ON_WRITE;
    if (opts->table_type && strcasecmp(opts->table_type, "COPY_ON_WRITE") != 0 &&
        strcasecmp(opts->table_type, "cow") != 0) {
        if (strcasecmp(opts->table_type, "MERGE_ON_READ") == 0 ||
            strcasecmp(opts->table_type, "mor") == 0)
            co.type = HUDI_MERGE_ON_READ; /* the write layer says whether it can */
        else
            return hudi_error_set(err, HUDI_EINVAL, "%s: unknown table type '%s'", base_path,
                                  opts->table_type);
    }
    if ((rc = hudi_arrow_import_schema(&schema, opts->schema, err)) < 0) goto done;
    if (schema.type != HUDI_TYPE_STRUCT) {
        rc = hudi_error_set(err, HUDI_EINVAL, "%s: the schema must be a struct, not %s", base_path,
                            hudi_type_name(schema.type));
        goto done;
    }
    if (!(path = clean_path(base_path))) {
        rc = hudi_error_oom(err);
        goto done;
    }
    co.table_name = opts->table_name;
    co.record_key_fields = opts->record_key_fields;
    co.partition_fields = opts->partition_fields;
    co.precombine_field = opts->precombine_field;
    co.keygen_class = opts->keygen_class;
    co.hive_style_partitioning = opts->hive_style_partitioning;
    co.url_encode_partitions = opts->url_encode_partitions;
    co.populate_meta_fields = opts->populate_meta_fields;
    co.schema = &schema;
    co.extra_props = opts->extra_properties;
    if ((rc = hudi_tbl_create(&tbl, NULL, path, &co, err)) < 0) goto done;
    rc = wrap(out, tbl, err);
done:
    hudi_field_dispose(&schema);
    hudi_free(path);
    return rc;
}

void hudi_table_free(hudi_table *t) {
    if (!t) return;
    hudi_tbl_free(t->t);
    hudi_free(t);
}

const char *hudi_table_base_path(const hudi_table *t) { return t ? t->t->base_path : NULL; }

const char *hudi_table_property(const hudi_table *t, const char *key) {
    return t && key ? hudi_props_get(&t->t->props, key) : NULL;
}

const char *hudi_table_latest_instant(const hudi_table *t) { return t ? t->latest : ""; }

int hudi_table_refresh(hudi_table *t, hudi_error *err) {
    if (!t) return hudi_error_set(err, HUDI_EINVAL, "hudi_table_refresh: no table");
    int rc = hudi_tbl_reload(t->t, err);
    refresh_latest(t);
    return rc;
}

int hudi_api_data_schema(hudi_field *out, hudi_tbl *t, hudi_error *err) {
    hudi_read_options ro = HUDI_READ_OPTIONS_INIT;
    hudi_field full = {0};
    memset(out, 0, sizeof(*out));
    int rc = hudi_read_table_schema(&full, t, &ro, err);
    if (rc == 0 && full.n_children == 0 && t->cfg.create_schema) {
        /* No data file yet: the schema given at creation. */
        hudi_field_dispose(&full);
        rc = hudi_schema_parse_avro(&full, t->cfg.create_schema, strlen(t->cfg.create_schema), err);
        if (rc < 0) hudi_error_wrap(err, "%s: hoodie.table.create.schema", t->base_path);
    }
    if (rc == 0) rc = hudi_schema_remove_meta_fields(out, &full, err);
    hudi_field_dispose(&full);
    return rc;
}

int hudi_table_schema(hudi_table *t, struct ArrowSchema *out, hudi_error *err) {
    hudi_field f = {0};
    if (!t || !out) return hudi_error_set(err, HUDI_EINVAL, "hudi_table_schema: NULL argument");
    int rc = hudi_api_data_schema(&f, t->t, err);
    if (rc == 0) rc = hudi_arrow_export_schema(out, &f, err);
    hudi_field_dispose(&f);
    return rc;
}

int hudi_api_write_op(hudi_write_op *out, int operation, hudi_error *err) {
    static const hudi_write_op ops[] = {
        [HUDI_WRITE_INSERT] = HUDI_OP_INSERT,
        [HUDI_WRITE_UPSERT] = HUDI_OP_UPSERT,
        [HUDI_WRITE_BULK_INSERT] = HUDI_OP_BULK_INSERT,
        [HUDI_WRITE_DELETE] = HUDI_OP_DELETE,
        [HUDI_WRITE_INSERT_OVERWRITE] = HUDI_OP_INSERT_OVERWRITE,
        [HUDI_WRITE_INSERT_OVERWRITE_TABLE] = HUDI_OP_INSERT_OVERWRITE_TABLE,
        [HUDI_WRITE_DELETE_PARTITION] = HUDI_OP_DELETE_PARTITION,
    };
    if (operation < 0 || (size_t)operation >= HUDI_ARRAY_LEN(ops))
        return hudi_error_set(err, HUDI_EINVAL, "unknown write operation %d", operation);
    *out = ops[operation];
    return 0;
}

/* `b` without its top-level meta columns, as a batch view `v` over the same arrays (v->schema
 * is `vf`, disposed by the caller; v->columns is freed by the caller, not the arrays). */
static int drop_meta_columns(hudi_batch *v, hudi_field *vf, const hudi_batch *b, hudi_error *err) {
    int32_t keep = 0;
    *v = *b;
    for (int32_t i = 0; i < b->n_columns; i++)
        keep += !hudi_is_meta_field(b->schema->children[i].name);
    v->columns = NULL;
    if (keep == b->n_columns) return 0;
    if (hudi_field_init(vf, b->schema->name ? b->schema->name : "schema", HUDI_TYPE_STRUCT, false) <
            0 ||
        (keep > 0 && hudi_field_set_children(vf, keep) < 0) ||
        !(v->columns = hudi_calloc((size_t)keep + 1, sizeof(*v->columns))))
        return hudi_error_oom(err);
    int32_t k = 0;
    for (int32_t i = 0; i < b->n_columns; i++) {
        if (hudi_is_meta_field(b->schema->children[i].name)) continue;
        if (hudi_field_copy(&vf->children[k], &b->schema->children[i]) < 0)
            return hudi_error_oom(err);
        v->columns[k++] = b->columns[i];
    }
    v->schema = vf;
    v->n_columns = keep;
    return 0;
}

int hudi_table_write(hudi_table *t, const struct ArrowSchema *schema,
                     const struct ArrowArray *array, const hudi_table_write_options *opts,
                     hudi_table_write_result *result, hudi_error *err) {
    hudi_table_write_options dflt = HUDI_TABLE_WRITE_OPTIONS_INIT;
    hudi_write_options wo = HUDI_WRITE_OPTIONS_INIT;
    hudi_write_result wr;
    hudi_field field = {0}, view_field = {0};
    hudi_batch *batch = NULL, view;
    int rc;
    memset(&view, 0, sizeof(view));
    if (result) memset(result, 0, sizeof(*result));
    if (!t) return hudi_error_set(err, HUDI_EINVAL, "hudi_table_write: no table");
    if (!opts) opts = &dflt;
    if (opts->version < 1 || opts->version > HUDI_TABLE_WRITE_OPTIONS_VERSION)
        return hudi_error_set(err, HUDI_EINVAL,
                              "hudi_table_write: options version %d, "
                              "expected 1 to %d",
                              opts->version, HUDI_TABLE_WRITE_OPTIONS_VERSION);
    if ((rc = hudi_api_write_op(&wo.op, opts->operation, err)) < 0) return rc;
    if (opts->n_partitions < 0 || (opts->n_partitions > 0 && !opts->partitions))
        return hudi_error_set(err, HUDI_EINVAL, "%s: bad partition list", t->t->base_path);
    bool needs_batch = wo.op != HUDI_OP_DELETE_PARTITION;
    if (needs_batch && (!schema || !array))
        return hudi_error_set(err, HUDI_EINVAL, "%s: %s needs a schema and a batch",
                              t->t->base_path, hudi_write_op_name(wo.op));
    wo.latest_wins = opts->latest_wins;
    wo.partitions = opts->partitions;
    wo.n_partitions = opts->n_partitions;
    wo.target_file_bytes = opts->target_file_bytes;
    wo.small_file_bytes = opts->small_file_bytes;
    wo.clean_retain_commits = opts->clean_retain_commits;
    wo.instant_time = opts->instant_time;
    if (opts->version >= 2) wo.props = opts->properties; /* version 1 structs end before it */
    if (schema && array) {
        if ((rc = hudi_arrow_import_schema(&field, schema, err)) < 0) goto done;
        if ((rc = hudi_arrow_import_batch(&batch, array, schema, &field, err)) < 0) goto done;
        if ((rc = drop_meta_columns(&view, &view_field, batch, err)) < 0) goto done;
    }
    rc = hudi_tbl_write(t->t, batch ? (view.columns ? &view : batch) : NULL, &wo, &wr, err);
    if (rc == 0 && result) {
        snprintf(result->instant, sizeof(result->instant), "%s", wr.instant);
        result->inserts = wr.inserts;
        result->updates = wr.updates;
        result->deletes = wr.deletes;
        result->files_written = wr.files_written;
        result->bytes_written = wr.bytes_written;
    }
    /* The timeline changed (also on failure: a rollback or a pending instant may remain). */
    {
        hudi_error ignored = HUDI_ERROR_INIT;
        if (hudi_tbl_reload(t->t, rc == 0 ? err : &ignored) < 0 && rc == 0)
            rc = err ? err->code : HUDI_EIO;
        refresh_latest(t);
    }
done:
    hudi_free(view.columns);
    hudi_field_dispose(&view_field);
    hudi_batch_free(batch);
    hudi_field_dispose(&field);
    return rc;
}

int hudi_table_rollback(hudi_table *t, int32_t *rolled_back, hudi_error *err) {
    if (rolled_back) *rolled_back = 0;
    if (!t) return hudi_error_set(err, HUDI_EINVAL, "hudi_table_rollback: no table");
    int rc = hudi_tbl_rollback_pending(t->t, NULL, err);
    if (rc >= 0 && rolled_back) *rolled_back = rc;
    int rr = hudi_tbl_reload(t->t, rc >= 0 ? err : NULL);
    refresh_latest(t);
    return rc < 0 ? rc : rr < 0 ? rr : 0;
}

int hudi_table_clean(hudi_table *t, int32_t retain_commits, int64_t *files_deleted,
                     hudi_error *err) {
    if (files_deleted) *files_deleted = 0;
    if (!t) return hudi_error_set(err, HUDI_EINVAL, "hudi_table_clean: no table");
    if (retain_commits < 1)
        return hudi_error_set(err, HUDI_EINVAL, "%s: retain at least one commit, not %d",
                              t->t->base_path, retain_commits);
    int rc = hudi_tbl_clean(t->t, retain_commits, NULL, err);
    if (rc >= 0 && files_deleted) *files_deleted = rc;
    int rr = hudi_tbl_reload(t->t, rc >= 0 ? err : NULL);
    refresh_latest(t);
    return rc < 0 ? rc : rr < 0 ? rr : 0;
}
