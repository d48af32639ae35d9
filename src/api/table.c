/* table.c - the public table handle (include/hudi/hudi_table.h): open, create, inspect, write
 * Arrow batches, roll back and clean. Arguments are checked here; the work is done by the table
 * (src/table), write (src/write) and read (src/read) layers, whose errors pass through as they
 * are. The public handle is the table layer's struct itself (src/table/tbl.h); after every
 * change its timeline is reloaded, so what the accessors return describes the table now. */
#include <stdio.h>
#include <strings.h>

#include "api/api.h"
#include "columnar/arrow_c.h"
#include "schema/schema.h"

/* A copy of `path` without trailing slashes ("/" stays): tables name themselves by it. */
static char *clean_path(const char *path) {
    char *p = hudi_strdup(path);
    size_t n = p ? strlen(p) : 0;
    while (n > 1 && p[n - 1] == '/') p[--n] = '\0';
    return p;
}

int hudi_table_open(hudi_table **out, const char *base_path, const hudi_table_open_options *opts,
                    hudi_error *err) {
    hudi_table *tbl = NULL;
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
    if (rc == 0) *out = tbl;
    return rc;
}

/* An Arrow schema as the table schema Hudi on Spark would store for it (type widening, list and
 * map naming: hudi_schema_from_parquet). */
static int import_create_schema(hudi_field *out, const struct ArrowSchema *schema,
                                const char *table_name, hudi_error *err) {
    hudi_field arrow = {0};
    int rc = hudi_arrow_import_schema(&arrow, schema, err);
    if (rc == 0 && arrow.type != HUDI_TYPE_STRUCT)
        rc = hudi_error_set(err, HUDI_EINVAL, "the schema must be a struct, not %s",
                            hudi_type_name(arrow.type));
    if (rc == 0) rc = hudi_schema_from_parquet(out, &arrow, table_name, err);
    hudi_field_dispose(&arrow);
    return rc;
}

int hudi_table_create(hudi_table **out, const char *base_path,
                      const hudi_table_create_options *opts, hudi_error *err) {
    hudi_create_options co = {0};
    hudi_field schema = {0};
    hudi_table *tbl = NULL;
    char *path = NULL;
    int rc;
    if (!out) return hudi_error_set(err, HUDI_EINVAL, "hudi_table_create: out is NULL");
    *out = NULL;
    if (!base_path || !*base_path || !opts)
        return hudi_error_set(err, HUDI_EINVAL,
                              "hudi_table_create: a base path and options are required");
    if (opts->version != 1 && opts->version != HUDI_TABLE_CREATE_OPTIONS_VERSION)
        return hudi_error_set(err, HUDI_EINVAL,
                              "hudi_table_create: options version %d, expected %d", opts->version,
                              HUDI_TABLE_CREATE_OPTIONS_VERSION);
    const char *avro = opts->version >= 2 ? opts->avro_schema : NULL;
    if (!opts->schema == !avro)
        return hudi_error_set(err, HUDI_EINVAL,
                              "%s: give exactly one of a schema and an Avro schema", base_path);
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
    if (avro) {
        if ((rc = hudi_schema_parse_avro(&schema, avro, strlen(avro), err)) < 0) {
            hudi_error_wrap(err, "%s: Avro schema", base_path);
            goto done;
        }
    } else if ((rc = import_create_schema(&schema, opts->schema, opts->table_name, err)) < 0) {
        goto done;
    }
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
    *out = tbl;
done:
    hudi_field_dispose(&schema);
    hudi_free(path);
    return rc;
}

void hudi_table_free(hudi_table *t) { hudi_tbl_free(t); }

const char *hudi_table_base_path(const hudi_table *t) { return t ? t->base_path : NULL; }

const char *hudi_table_property(const hudi_table *t, const char *key) {
    return t && key ? hudi_props_get(&t->props, key) : NULL;
}

const char *hudi_table_latest_instant(const hudi_table *t) {
    const hudi_instant *in = t ? hudi_timeline_last_completed_commit(t->timeline) : NULL;
    return in ? in->time : "";
}

int hudi_table_refresh(hudi_table *t, hudi_error *err) {
    if (!t) return hudi_error_set(err, HUDI_EINVAL, "hudi_table_refresh: no table");
    int rc = hudi_tbl_reload(t, err);
    return rc;
}

int hudi_api_data_schema(hudi_field *out, hudi_table *t, hudi_error *err) {
    hudi_scan_options ro = HUDI_SCAN_OPTIONS_INIT;
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

int hudi_table_full_schema(hudi_table *t, struct ArrowSchema *out, hudi_error *err) {
    hudi_field data = {0}, full = {0};
    if (!t || !out)
        return hudi_error_set(err, HUDI_EINVAL, "hudi_table_full_schema: NULL argument");
    int rc = hudi_api_data_schema(&data, t, err);
    if (rc == 0) rc = hudi_schema_add_meta_fields(&full, &data, err);
    if (rc == 0) rc = hudi_arrow_export_schema(out, &full, err);
    hudi_field_dispose(&data);
    hudi_field_dispose(&full);
    return rc;
}

int hudi_table_schema(hudi_table *t, struct ArrowSchema *out, hudi_error *err) {
    hudi_field f = {0};
    if (!t || !out) return hudi_error_set(err, HUDI_EINVAL, "hudi_table_schema: NULL argument");
    int rc = hudi_api_data_schema(&f, t, err);
    if (rc == 0) rc = hudi_arrow_export_schema(out, &f, err);
    hudi_field_dispose(&f);
    return rc;
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

/* The public options as the write layer's, checked. */
static int map_write_options(hudi_write_options *wo, hudi_table *t,
                             const hudi_table_write_options *opts, hudi_error *err) {
    if (opts->version < 1 || opts->version > HUDI_TABLE_WRITE_OPTIONS_VERSION)
        return hudi_error_set(err, HUDI_EINVAL,
                              "hudi_table_write: options version %d, expected 1 to %d",
                              opts->version, HUDI_TABLE_WRITE_OPTIONS_VERSION);
    if ((unsigned)opts->operation > HUDI_WRITE_DELETE_PARTITION)
        return hudi_error_set(err, HUDI_EINVAL, "unknown write operation %d", (int)opts->operation);
    if (opts->n_partitions < 0 || (opts->n_partitions > 0 && !opts->partitions))
        return hudi_error_set(err, HUDI_EINVAL, "%s: bad partition list", t->base_path);
    wo->op = opts->operation;
    wo->latest_wins = opts->latest_wins;
    wo->partitions = opts->partitions;
    wo->n_partitions = opts->n_partitions;
    wo->target_file_bytes = opts->target_file_bytes;
    wo->small_file_bytes = opts->small_file_bytes;
    wo->clean_retain_commits = opts->clean_retain_commits;
    wo->instant_time = opts->instant_time;
    if (opts->version >= 2) wo->props = opts->properties; /* version 1 structs end before it */
    return 0;
}

/* Commits `batch` (may be NULL for DELETE_PARTITION; meta columns are dropped), then reloads
 * the timeline. */
static int write_batch(hudi_table *t, const hudi_batch *batch, const hudi_write_options *wo,
                       hudi_table_write_result *result, hudi_error *err) {
    hudi_field view_field = {0};
    hudi_batch view;
    int rc = 0;
    memset(&view, 0, sizeof(view));
    if (batch) rc = drop_meta_columns(&view, &view_field, batch, err);
    if (rc == 0)
        rc = hudi_tbl_write(t, batch ? (view.columns ? &view : batch) : NULL, wo, result, err);
    /* The timeline changed (also on failure: a rollback or a pending instant may remain). */
    hudi_error ignored = HUDI_ERROR_INIT;
    if (hudi_tbl_reload(t, rc == 0 ? err : &ignored) < 0 && rc == 0)
        rc = err ? err->code : HUDI_EIO;
    hudi_free(view.columns);
    hudi_field_dispose(&view_field);
    return rc;
}

int hudi_table_write(hudi_table *t, const struct ArrowSchema *schema,
                     const struct ArrowArray *array, const hudi_table_write_options *opts,
                     hudi_table_write_result *result, hudi_error *err) {
    hudi_table_write_options dflt = HUDI_TABLE_WRITE_OPTIONS_INIT;
    hudi_write_options wo = HUDI_WRITE_OPTIONS_INIT;
    hudi_field field = {0};
    hudi_batch *batch = NULL;
    int rc;
    if (result) memset(result, 0, sizeof(*result));
    if (!t) return hudi_error_set(err, HUDI_EINVAL, "hudi_table_write: no table");
    if ((rc = map_write_options(&wo, t, opts ? opts : &dflt, err)) < 0) return rc;
    if (wo.op != HUDI_WRITE_DELETE_PARTITION && (!schema || !array))
        return hudi_error_set(err, HUDI_EINVAL, "%s: %s needs a schema and a batch", t->base_path,
                              hudi_write_operation_name(wo.op));
    if (schema && array) {
        if ((rc = hudi_arrow_import_schema(&field, schema, err)) < 0) goto done;
        if ((rc = hudi_arrow_import_batch(&batch, array, schema, &field, err)) < 0) goto done;
    }
    rc = write_batch(t, batch, &wo, result, err);
done:
    hudi_batch_free(batch);
    hudi_field_dispose(&field);
    return rc;
}

/* Every batch of `in` appended into *all (a batch of `field`). */
static int read_stream(hudi_batch **all, const hudi_field *field, struct ArrowArrayStream *in,
                       const struct ArrowSchema *schema, hudi_error *err) {
    int rc = hudi_batch_new(all, field, err);
    while (rc == 0) {
        struct ArrowArray array = {0};
        hudi_batch *b = NULL;
        if (in->get_next(in, &array) != 0) {
            const char *why = in->get_last_error ? in->get_last_error(in) : NULL;
            return hudi_error_set(err, HUDI_EIO, "%s",
                                  why ? why : "reading the input stream failed");
        }
        if (!array.release) break;
        rc = hudi_arrow_import_batch(&b, &array, schema, field, err);
        array.release(&array);
        for (int32_t c = 0; rc == 0 && c < b->n_columns; c++)
            rc = hudi_array_append_range((*all)->columns[c], b->columns[c], 0, b->num_rows, err);
        if (rc == 0) (*all)->num_rows += b->num_rows;
        hudi_batch_free(b);
    }
    return rc;
}

int hudi_table_write_stream(hudi_table *t, struct ArrowArrayStream *input,
                            const hudi_table_write_options *opts, hudi_table_write_result *result,
                            hudi_error *err) {
    hudi_table_write_options dflt = HUDI_TABLE_WRITE_OPTIONS_INIT;
    hudi_write_options wo = HUDI_WRITE_OPTIONS_INIT;
    struct ArrowSchema schema = {0};
    hudi_field field = {0};
    hudi_batch *all = NULL;
    int rc;
    if (result) memset(result, 0, sizeof(*result));
    if (!t || !input || !input->release)
        return hudi_error_set(err, HUDI_EINVAL, "hudi_table_write_stream: no table or stream");
    if ((rc = map_write_options(&wo, t, opts ? opts : &dflt, err)) < 0) return rc;
    if (input->get_schema(input, &schema) != 0) {
        const char *why = input->get_last_error ? input->get_last_error(input) : NULL;
        return hudi_error_set(err, HUDI_EIO, "%s", why ? why : "reading the input schema failed");
    }
    if ((rc = hudi_arrow_import_schema(&field, &schema, err)) < 0) goto done;
    if (field.type != HUDI_TYPE_STRUCT) {
        rc = hudi_error_set(err, HUDI_EINVAL, "a record batch schema must be a struct, not %s",
                            hudi_type_name(field.type));
        goto done;
    }
    if ((rc = read_stream(&all, &field, input, &schema, err)) < 0) goto done;
    rc = write_batch(t, all, &wo, result, err);
done:
    hudi_batch_free(all);
    hudi_field_dispose(&field);
    if (schema.release) schema.release(&schema);
    return rc;
}

int hudi_table_rollback(hudi_table *t, int32_t *rolled_back, hudi_error *err) {
    if (rolled_back) *rolled_back = 0;
    if (!t) return hudi_error_set(err, HUDI_EINVAL, "hudi_table_rollback: no table");
    int rc = hudi_tbl_rollback_pending(t, NULL, err);
    if (rc >= 0 && rolled_back) *rolled_back = rc;
    int rr = hudi_tbl_reload(t, rc >= 0 ? err : NULL);
    return rc < 0 ? rc : rr < 0 ? rr : 0;
}

int hudi_table_compact(hudi_table *t, int32_t *groups, char instant[32], hudi_error *err) {
    if (groups) *groups = 0;
    if (instant) instant[0] = 0;
    if (!t) return hudi_error_set(err, HUDI_EINVAL, "hudi_table_compact: no table");
    int rc = hudi_tbl_compact(t, NULL, instant, err);
    if (rc >= 0 && groups) *groups = rc;
    int rr = hudi_tbl_reload(t, rc >= 0 ? err : NULL);
    return rc < 0 ? rc : rr < 0 ? rr : 0;
}

int hudi_table_compact_schedule(hudi_table *t, int32_t *groups, char instant[32], hudi_error *err) {
    if (groups) *groups = 0;
    if (instant) instant[0] = 0;
    if (!t) return hudi_error_set(err, HUDI_EINVAL, "hudi_table_compact_schedule: no table");
    int rc = hudi_tbl_compact_schedule(t, NULL, instant, err);
    if (rc >= 0 && groups) *groups = rc;
    int rr = hudi_tbl_reload(t, rc >= 0 ? err : NULL);
    return rc < 0 ? rc : rr < 0 ? rr : 0;
}

int hudi_table_compact_run(hudi_table *t, const char *instant, int32_t *groups, hudi_error *err) {
    if (groups) *groups = 0;
    if (!t) return hudi_error_set(err, HUDI_EINVAL, "hudi_table_compact_run: no table");
    int rc = hudi_tbl_compact_run(t, instant, NULL, err);
    if (rc >= 0 && groups) *groups = rc;
    int rr = hudi_tbl_reload(t, rc >= 0 ? err : NULL);
    return rc < 0 ? rc : rr < 0 ? rr : 0;
}

int hudi_table_clean(hudi_table *t, int32_t retain_commits, int64_t *files_deleted,
                     hudi_error *err) {
    if (files_deleted) *files_deleted = 0;
    if (!t) return hudi_error_set(err, HUDI_EINVAL, "hudi_table_clean: no table");
    if (retain_commits < 1)
        return hudi_error_set(err, HUDI_EINVAL, "%s: retain at least one commit, not %d",
                              t->base_path, retain_commits);
    int rc = hudi_tbl_clean(t, retain_commits, NULL, err);
    if (rc >= 0 && files_deleted) *files_deleted = rc;
    int rr = hudi_tbl_reload(t, rc >= 0 ? err : NULL);
    return rc < 0 ? rc : rr < 0 ? rr : 0;
}

int hudi_table_cluster_schedule(hudi_table *t, const hudi_cluster_options *o, char instant[32],
                                hudi_error *err) {
    if (instant) instant[0] = 0;
    if (!t) return hudi_error_set(err, HUDI_EINVAL, "hudi_table_cluster_schedule: no table");
    int rc = hudi_tbl_cluster_schedule(t, o, NULL, instant, err);
    int rr = hudi_tbl_reload(t, rc >= 0 ? err : NULL);
    return rc < 0 ? rc : rr < 0 ? rr : rc;
}

int hudi_table_cluster_execute(hudi_table *t, const char *instant, const hudi_cluster_options *o,
                               hudi_error *err) {
    if (!t || !instant)
        return hudi_error_set(err, HUDI_EINVAL, "hudi_table_cluster_execute: no table or instant");
    int rc = hudi_tbl_cluster_execute(t, instant, o, err);
    int rr = hudi_tbl_reload(t, rc >= 0 ? err : NULL);
    return rc < 0 ? rc : rr < 0 ? rr : 0;
}

int hudi_table_cluster_pending(hudi_table *t, char ***instants, size_t *count, hudi_error *err) {
    if (!t || !instants || !count)
        return hudi_error_set(err, HUDI_EINVAL, "hudi_table_cluster_pending: bad arguments");
    int rc = hudi_tbl_reload(t, err);
    return rc < 0 ? rc : hudi_tbl_cluster_pending(t, instants, count, err);
}
