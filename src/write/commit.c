/* commit.c - the timeline side of a write (docs/formats/timeline.md §4, §6,
 * §7; commit-metadata.md; avro-schema.md §5):
 * the write schema, the average record size, the requested and inflight instants (workload
 * profile), markers (DIRECT, or Hudi's timeline-server layout), and the completed instant with
 * the commit metadata - the atomic commit point, published whole by the storage writer. Also the
 * Avro value helpers used for the rollback, replace and clean instant files. */
#include <stdatomic.h>
#include <stdio.h>
#include <strings.h>

#include "schema/evolve.h"
#include "write/write_int.h"

/* ---- Avro values ---------------------------------------------------------------------------- */

hudi_avro_value *hudi_av_new(hudi_arena *a, hudi_avro_type type) {
    hudi_avro_value *v = hudi_arena_alloc(a, sizeof(*v));
    if (v) {
        v->type = type;
        v->branch = -1;
    }
    return v;
}

hudi_avro_value *hudi_av_str(hudi_arena *a, const char *s) {
    if (!s) return hudi_av_new(a, HUDI_AVRO_NULL);
    hudi_avro_value *v = hudi_av_new(a, HUDI_AVRO_STRING);
    char *copy = hudi_arena_strdup(a, s);
    if (!v || !copy) return NULL;
    v->bytes = hudi_slice_cstr(copy);
    return v;
}

hudi_avro_value *hudi_av_long(hudi_arena *a, hudi_avro_type type, int64_t x) {
    hudi_avro_value *v = hudi_av_new(a, type);
    if (v) v->v.i = x;
    return v;
}

hudi_avro_value *hudi_av_bool(hudi_arena *a, bool x) {
    hudi_avro_value *v = hudi_av_new(a, HUDI_AVRO_BOOLEAN);
    if (v) v->v.b = x;
    return v;
}

hudi_avro_value *hudi_av_coll(hudi_arena *a, hudi_avro_type type, size_t n) {
    hudi_avro_value *v = hudi_av_new(a, type);
    if (!v) return NULL;
    v->count = n;
    if (n) {
        v->items = hudi_arena_alloc(a, n * sizeof(hudi_avro_value));
        v->keys = hudi_arena_alloc(a, n * sizeof(hudi_slice));
        if (!v->items || !v->keys) return NULL;
        for (size_t i = 0; i < n; i++) v->items[i].branch = -1;
    }
    return v;
}

int hudi_av_container(hudi_buf *out, const char *schema_json, const hudi_avro_value *rec,
                      hudi_error *err) {
    hudi_avro_schema *s = NULL;
    if (!rec) return hudi_error_oom(err);
    int rc = hudi_avro_schema_parse(&s, hudi_slice_cstr(schema_json), err);
    if (rc == 0) rc = hudi_avro_container_write(out, s, rec, 1, NULL, err);
    hudi_avro_schema_free(s);
    return rc;
}

/* ---- directories ---------------------------------------------------------------------------- */

static int list_into(hudi_fs *fs, const char *dir, const char *prefix, hudi_vec *out,
                     hudi_error *err) {
    hudi_dir_listing l = {0};
    hudi_buf sub = HUDI_BUF_INIT, rel = HUDI_BUF_INIT;
    int rc = hudi_fs_list(fs, dir, &l, err);
    if (rc == HUDI_ENOTFOUND) {
        hudi_error_clear(err);
        return 0;
    }
    for (size_t i = 0; rc == 0 && i < l.count; i++) {
        hudi_buf_clear(&sub);
        hudi_buf_clear(&rel);
        hudi_buf_printf(&sub, "%s/%s", dir, l.entries[i].name);
        hudi_buf_printf(&rel, "%s%s%s", prefix, *prefix ? "/" : "", l.entries[i].name);
        if (hudi_buf_failed(&sub) || hudi_buf_failed(&rel)) {
            rc = hudi_error_oom(err);
            break;
        }
        if (l.entries[i].is_dir) {
            rc = list_into(fs, sub.data, rel.data, out, err);
        } else {
            char **slot = hudi_vec_push(out);
            if (!slot || !(*slot = hudi_strdup(rel.data))) rc = hudi_error_oom(err);
        }
    }
    hudi_buf_dispose(&sub);
    hudi_buf_dispose(&rel);
    hudi_dir_listing_dispose(&l);
    return rc;
}

int hudi_write_list_tree(hudi_fs *fs, const char *dir, char ***out, size_t *count,
                         hudi_error *err) {
    hudi_vec v = HUDI_VEC_INIT(char *);
    int rc = list_into(fs, dir, "", &v, err);
    if (rc < 0) {
        hudi_write_free_strings(v.data, v.len);
        return rc;
    }
    *out = v.data;
    *count = v.len;
    return 0;
}

/* Whether a marker name from a MARKERS file stays below the marker folder (and so its data file
 * below the table): relative, no "." or ".." component, no empty component. A rollback deletes
 * what markers name, so a crafted line must not reach outside the table. */
static bool marker_name_ok(const char *s, size_t n) {
    if (n == 0 || s[0] == '/') return false;
    for (size_t i = 0; i < n;) {
        const char *slash = memchr(s + i, '/', n - i);
        size_t len = slash ? (size_t)(slash - (s + i)) : n - i;
        if (len == 0 || (len == 1 && s[i] == '.') || (len == 2 && s[i] == '.' && s[i + 1] == '.') ||
            memchr(s + i, '\0', len))
            return false;
        i += len + 1;
    }
    return s[n - 1] != '/';
}

int hudi_write_parse_markers(hudi_slice body, const char *path, hudi_vec *out, hudi_error *err) {
    const char *p = (const char *)body.data;
    for (size_t i = 0; i < body.len;) {
        const char *line = p + i;
        const char *nl = memchr(line, '\n', body.len - i);
        size_t n = nl ? (size_t)(nl - line) : body.len - i;
        i += n + 1;
        if (n && line[n - 1] == '\r') n--;
        if (n == 0) continue;
        if (!marker_name_ok(line, n))
            return hudi_error_set(err, HUDI_ECORRUPT,
                                  "%s: a line is not a marker path below the marker folder: "
                                  "'%.*s'",
                                  path, (int)(n > 200 ? 200 : n), line);
        char **slot = hudi_vec_push(out);
        if (!slot || !(*slot = hudi_strndup(line, n))) return hudi_error_oom(err);
    }
    return 0;
}

/* Appends the marker names of one MARKERS<n> file to v. */
static int read_marker_file(hudi_fs *fs, const char *dir, const char *name, hudi_vec *v,
                            hudi_error *err) {
    hudi_buf path = HUDI_BUF_INIT, body = HUDI_BUF_INIT;
    hudi_buf_printf(&path, "%s/%s", dir, name);
    int rc =
        hudi_buf_failed(&path) ? hudi_error_oom(err) : hudi_fs_read_all(fs, path.data, &body, err);
    if (rc == 0) rc = hudi_write_parse_markers(HUDI_SLICE(body.data, body.len), path.data, v, err);
    hudi_buf_dispose(&path);
    hudi_buf_dispose(&body);
    return rc;
}

int hudi_write_list_markers(hudi_fs *fs, const char *dir, char ***out, size_t *count,
                            hudi_error *err) {
    char **files = NULL;
    size_t n = 0;
    hudi_vec v = HUDI_VEC_INIT(char *);
    int rc = hudi_write_list_tree(fs, dir, &files, &n, err);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const char *f = files[i];
        if (strncmp(f, "MARKERS", 7) == 0 && !strchr(f, '/')) {
            if (strcmp(f, "MARKERS.type") != 0) rc = read_marker_file(fs, dir, f, &v, err);
            continue;
        }
        char **slot = hudi_vec_push(&v);
        if (!slot) {
            rc = hudi_error_oom(err);
            break;
        }
        *slot = files[i];
        files[i] = NULL;
    }
    hudi_write_free_strings(files, n);
    if (rc < 0) {
        hudi_write_free_strings(v.data, v.len);
        return rc;
    }
    *out = v.data;
    *count = v.len;
    return 0;
}

void hudi_write_free_strings(char **v, size_t n) {
    for (size_t i = 0; v && i < n; i++) hudi_free(v[i]);
    hudi_free(v);
}

int hudi_write_remove_tree(hudi_fs *fs, const char *dir, hudi_error *err) {
    hudi_dir_listing l = {0};
    hudi_buf sub = HUDI_BUF_INIT;
    int rc = hudi_fs_list(fs, dir, &l, err);
    if (rc == HUDI_ENOTFOUND) {
        hudi_error_clear(err);
        return 0;
    }
    for (size_t i = 0; rc == 0 && i < l.count; i++) {
        hudi_buf_clear(&sub);
        hudi_buf_printf(&sub, "%s/%s", dir, l.entries[i].name);
        if (hudi_buf_failed(&sub))
            rc = hudi_error_oom(err);
        else if (l.entries[i].is_dir)
            rc = hudi_write_remove_tree(fs, sub.data, err);
        else
            rc = hudi_fs_remove(fs, sub.data, err);
        if (rc == HUDI_ENOTFOUND) {
            hudi_error_clear(err);
            rc = 0;
        }
    }
    if (rc == 0) {
        rc = hudi_fs_remove(fs, dir, err);
        if (rc == HUDI_ENOTFOUND) {
            hudi_error_clear(err);
            rc = 0;
        }
    }
    hudi_buf_dispose(&sub);
    hudi_dir_listing_dispose(&l);
    return rc;
}

/* ---- schema --------------------------------------------------------------------------------- */

static int find_child(const hudi_field *st, const char *name) {
    for (int32_t i = 0; st && i < st->n_children; i++)
        if (st->children[i].name && strcmp(st->children[i].name, name) == 0) return i;
    return -1;
}

/* A boolean writer setting (hudi_write_setting) that is "true". */
static bool prop_true(const wctx *c, const char *key) {
    const char *v = hudi_write_setting(c, key);
    return v && strcasecmp(v, "true") == 0;
}

/* The batch's columns as the deduction sees them: without the meta columns (`hudic table cat`
 * output writes back) and without _hoodie_is_deleted unless the table has it (it marks deletes
 * in an upsert and is data only then). */
static int incoming_schema(wctx *c, const hudi_field *table, hudi_field *out, hudi_error *err) {
    int rc = hudi_schema_remove_meta_fields(out, c->in->schema, err);
    if (rc < 0) return rc;
    int32_t k = find_child(out, WRITE_IS_DELETED_FIELD);
    if (k >= 0 && table && find_child(table, WRITE_IS_DELETED_FIELD) < 0) {
        hudi_field_dispose(&out->children[k]);
        memmove(&out->children[k], &out->children[k + 1],
                (size_t)(out->n_children - k - 1) * sizeof(hudi_field));
        out->n_children--;
    }
    return 0;
}

int hudi_write_project_column(const hudi_projection *p, int32_t i, const hudi_array *src,
                              int64_t rows, const hudi_field *field, hudi_array **out,
                              hudi_error *err) {
    /* The projection takes over the array it is given (schema/project.h): give it a copy, since
     * `src` belongs to its owner (the incoming batch, a scan's batch). */
    hudi_array *copy = NULL;
    bool moved = false;
    int rc = src ? hudi_array_slice(&copy, src, 0, src->length, err) : 0;
    if (rc == 0) rc = hudi_projection_column(p, i, copy, rows, field, out, &moved, err);
    if (!moved) hudi_array_free(copy);
    return rc;
}

/* The writer's columns from the batch's, by name (the batch is the "file" of a projection onto
 * the writer schema: one mechanism for incoming and stored data, schema/project.h). A column
 * stored as the writer has it is borrowed; one of another type is converted (Hudi's promotion
 * chart: int into a long column, numbers into a string one...); an absent one is null. */
static int conform_columns(wctx *c, hudi_error *err) {
    const hudi_batch *b = c->in;
    int32_t n = c->schema.n_children;
    hudi_projection *p = NULL;
    if (!(c->cols = hudi_calloc((size_t)n + 1, sizeof(hudi_array *))) ||
        !(c->owned_cols = hudi_calloc((size_t)n + 1, sizeof(bool))))
        return hudi_error_oom(err);
    if (!b || c->o.op == HUDI_WRITE_DELETE) return 0; /* no incoming records are written */
    int rc = hudi_projection_new(&p, b->schema, &c->schema, NULL, false, c->t->base_path, err);
    for (int32_t j = 0; rc == 0 && j < n; j++) {
        const hudi_field *want = &c->schema.children[j];
        int32_t k = hudi_projection_source(p, j);
        if (k >= 0 && hudi_projection_exact(p, j)) {
            c->cols[j] = b->columns[k];
            continue;
        }
        if (k < 0 && !want->nullable) {
            rc = hudi_error_set(err, HUDI_EINVAL, "%s: the batch lacks non-null column %s",
                                c->t->base_path, want->name);
            break;
        }
        rc = hudi_write_project_column(p, j, k >= 0 ? b->columns[k] : NULL, b->num_rows, want,
                                       &c->cols[j], err);
        c->owned_cols[j] = c->cols[j] != NULL;
    }
    hudi_projection_free(p);
    return rc;
}

/* Schema on read (docs/formats/schema-evolution.md §2): the table's InternalSchema reconciled
 * with the writer schema - new columns get new ids, allowed type changes apply. Hudi keeps
 * columns a batch lacks under schema on read, so a drop allowed by the write settings keeps
 * them as null here. */
static int reconcile_ischema(wctx *c, hudi_error *err) {
    hudi_field with_meta = {0};
    bool meta = false; /* compare like with like: the InternalSchema may lack the meta fields */
    for (int32_t i = 0; i < c->ischema->root.n_children && !meta; i++)
        meta = c->ischema->root.children[i].name &&
               strcmp(c->ischema->root.children[i].name,
                      hudi_meta_field_names[HUDI_META_COMMIT_TIME]) == 0;
    int rc = hudi_ischema_check_types(&c->schema, c->t->base_path, err);
    if (rc == 0)
        rc = meta ? hudi_schema_add_meta_fields(&with_meta, &c->schema, err)
                  : (hudi_field_copy(&with_meta, &c->schema) < 0 ? hudi_error_oom(err) : 0);
    if (rc == 0)
        rc = hudi_ischema_reconcile(&c->ischema_new, &c->ischema_changed, c->ischema, &with_meta,
                                    hudi_ischema_version_of(c->instant), err);
    hudi_field_dispose(&with_meta);
    return rc;
}

int hudi_commit_resolve_schema(wctx *c, hudi_error *err) {
    hudi_table *t = c->t;
    hudi_field table = {0}, incoming = {0}, with_meta = {0};
    hudi_buf full = HUDI_BUF_INIT;
    bool have_table = false;
    /* the table schema (Hudi's TableSchemaResolver precedence) and its InternalSchema */
    int rc = hudi_schema_view_open(&c->sv, t, NULL, err);
    if (rc < 0) goto done;
    c->ischema = hudi_schema_view_ischema(c->sv);
    const hudi_field *current = hudi_schema_view_table(c->sv);
    if (current) {
        if ((rc = hudi_schema_remove_meta_fields(&table, current, err)) < 0) goto done;
        have_table = true;
    } else if (!c->in) {
        rc = hudi_error_set(err, HUDI_EINVAL, "%s: the table has no schema yet", t->base_path);
        goto done;
    }
    if (c->in && (c->o.op != HUDI_WRITE_DELETE || !have_table)) {
        /* the writer schema (Hudi's deduceWriterSchema) */
        hudi_evolve_options eo = {0};
        eo.set_null_for_missing = prop_true(c, "hoodie.write.set.null.for.missing.columns");
        eo.allow_column_drop =
            prop_true(c, "hoodie.datasource.write.schema.allow.auto.evolution.column.drop");
        eo.reconcile = prop_true(c, "hoodie.datasource.write.reconcile.schema");
        if (c->ischema && eo.allow_column_drop) {
            eo.allow_column_drop = false;
            eo.set_null_for_missing = true;
        }
        if ((rc = incoming_schema(c, have_table ? &table : NULL, &incoming, err)) < 0 ||
            (rc = hudi_schema_deduce_writer(&c->schema, have_table ? &table : NULL, &incoming, &eo,
                                            t->base_path, err)) < 0)
            goto done;
    } else if (hudi_field_copy(&c->schema, &table) < 0) {
        goto oom;
    }
    hudi_schema_record_fullname(&full, t->cfg.name);
    if (hudi_buf_failed(&full)) goto oom;
    hudi_free(c->schema.name);
    if (!(c->schema.name = hudi_strdup(full.data))) goto oom;
    if (c->ischema && (rc = reconcile_ischema(c, err)) < 0) goto done;
    if ((rc = hudi_schema_write_avro(&c->schema_json, &c->schema, HUDI_AVRO_STYLE_HUDI, err)) < 0 ||
        (rc = hudi_schema_add_meta_fields(&with_meta, &c->schema, err)) < 0 ||
        (rc = hudi_schema_write_avro(&c->file_schema_json, &with_meta, HUDI_AVRO_STYLE_HUDI, err)) <
            0 ||
        (rc = hudi_field_copy(&c->file_schema, &with_meta) < 0 ? hudi_error_oom(err) : 0) < 0)
        goto done;
    /* Lists: parquet-avro's 2-level `repeated T array` where elements are non-null, the
     * standard 3-level form where they may be null (the Parquet writer picks per list). Hudi's
     * own Avro path strips the element's null and then fails on a null element ("Array
     * contains a null element"); every reader accepts both forms, in one table too. */
    if ((rc = conform_columns(c, err)) < 0) goto done;
    c->precombine_col = -1;
    c->precombine_wcol =
        t->cfg.precombine_field ? find_child(&c->schema, t->cfg.precombine_field) : -1;
    c->is_deleted_col = -1;
    if (c->in) {
        if (t->cfg.precombine_field)
            c->precombine_col = find_child(c->in->schema, t->cfg.precombine_field);
        int32_t k = find_child(c->in->schema, WRITE_IS_DELETED_FIELD);
        if (k >= 0 && c->in->schema->children[k].type == HUDI_TYPE_BOOL) c->is_deleted_col = k;
    }
    goto done;
oom:
    rc = hudi_error_oom(err);
done:
    hudi_field_dispose(&table);
    hudi_field_dispose(&incoming);
    hudi_field_dispose(&with_meta);
    hudi_buf_dispose(&full);
    return rc;
}

/* Hudi's AverageRecordSizeUtils: bytes / records of the newest commit that wrote more than
 * the small-file limit, else hoodie.copyonwrite.record.size.estimate. */
int hudi_commit_estimate_record_size(wctx *c, hudi_error *err) {
    hudi_instant_list l = {0};
    hudi_buf json = HUDI_BUF_INIT;
    int rc = hudi_timeline_completed_commits(&l, c->t->timeline, err);
    c->avg_record_bytes = WRITE_DEFAULT_RECORD_BYTES;
    for (size_t i = l.count; rc == 0 && i-- > 0;) {
        hudi_commit_metadata *md = NULL;
        hudi_buf_clear(&json);
        if ((rc = hudi_timeline_read_commit_json(&json, c->t->timeline, l.items[i], err)) < 0 ||
            (rc = hudi_commit_metadata_parse(&md, json.data, json.len, l.items[i]->file, err)) < 0)
            break;
        int64_t bytes = 0, records = 0;
        for (size_t p = 0; p < md->partitions_count; p++)
            for (size_t s = 0; s < md->partitions[p].count; s++) {
                bytes += md->partitions[p].stats[s].total_write_bytes;
                records += md->partitions[p].stats[s].num_writes;
            }
        hudi_commit_metadata_free(md);
        if (bytes > c->o.small_file_bytes && records > 0) {
            c->avg_record_bytes = (bytes + records - 1) / records;
            break;
        }
    }
    hudi_buf_dispose(&json);
    hudi_instant_list_dispose(&l);
    return rc;
}

/* ---- instants ------------------------------------------------------------------------------- */

int hudi_commit_write_requested(wctx *c, hudi_error *err) {
    hudi_buf body = HUDI_BUF_INIT;
    hudi_arena a = HUDI_ARENA_INIT;
    int rc = 0;
    if (c->action == HUDI_ACTION_REPLACECOMMIT) {
        /* HoodieRequestedReplaceMetadata with every field null, as Spark writes it for
         * INSERT_OVERWRITE(_TABLE) (commit-metadata.md §5). */
        hudi_avro_value *rec = hudi_av_coll(&a, HUDI_AVRO_RECORD, 4);
        if (rec)
            for (size_t i = 0; i < 4; i++) rec->items[i].type = HUDI_AVRO_NULL;
        rc = hudi_av_container(&body, hudi_write_schema_requested_replace, rec, err);
    }
    if (rc == 0)
        rc =
            hudi_timeline_write_instant(c->t->timeline, c->instant, c->action, HUDI_STATE_REQUESTED,
                                        HUDI_SLICE(body.data, body.len), err);
    hudi_arena_dispose(&a);
    hudi_buf_dispose(&body);
    return rc;
}

/* The workload profile (commit-metadata.md §5): per partition of the input, one insert stat (fileId
 * "") and one stat per file group holding updated keys. */
int hudi_commit_write_inflight(wctx *c, hudi_error *err) {
    hudi_commit_metadata *md = NULL;
    hudi_buf body = HUDI_BUF_INIT;
    int rc = hudi_commit_metadata_new(&md, err);
    if (rc == 0)
        rc = hudi_commit_metadata_set_operation(md, hudi_write_operation_name(c->o.op), err);
    for (int32_t p = 0; rc == 0 && p < c->n_parts; p++) {
        bool updates = false;
        for (size_t gi = 0; gi < c->n_groups; gi++)
            updates |= c->groups[gi].part == p && c->groups[gi].upd.n > 0;
        if (!c->parts[p].n_inserts && !updates) continue;
        hudi_write_stat ins = {0};
        ins.file_id = "";
        ins.prev_commit = "null";
        ins.num_inserts = c->parts[p].n_inserts;
        rc = hudi_commit_metadata_add_write_stat(md, c->parts[p].path, &ins, err);
        for (size_t gi = 0; rc == 0 && gi < c->n_groups; gi++) {
            const wgroup *g = &c->groups[gi];
            if (g->part != p || g->upd.n == 0) continue;
            hudi_write_stat st = {0};
            st.file_id = g->file_id;
            st.prev_commit = g->prev_commit;
            st.num_update_writes = g->upd.n;
            rc = hudi_commit_metadata_add_write_stat(md, c->parts[p].path, &st, err);
        }
    }
    if (rc == 0) rc = hudi_commit_metadata_write(md, &body, err);
    if (rc == 0)
        rc = hudi_timeline_write_instant(c->t->timeline, c->instant, c->action, HUDI_STATE_INFLIGHT,
                                         HUDI_SLICE(body.data, body.len), err);
    hudi_commit_metadata_free(md);
    hudi_buf_dispose(&body);
    return rc;
}

int hudi_commit_start_markers(wctx *c, hudi_error *err) {
    if (!c->markers_flat) return 0;
    hudi_buf dir = HUDI_BUF_INIT, path = HUDI_BUF_INIT;
    hudi_buf_printf(&dir, "%s/%s/%s", c->t->base_path, WRITE_TEMP_DIR, c->instant);
    hudi_buf_printf(&path, "%s/MARKERS.type", dir.data);
    int rc = hudi_buf_failed(&dir) || hudi_buf_failed(&path) ? hudi_error_oom(err) : 0;
    if (rc == 0) rc = hudi_fs_mkdirs(c->t->fs, dir.data, err);
    if (rc == 0)
        rc = hudi_fs_write_all(c->t->fs, path.data, HUDI_CREATE_OVERWRITE, "TIMELINE_SERVER_BASED",
                               21, err);
    hudi_buf_dispose(&dir);
    hudi_buf_dispose(&path);
    return rc;
}

int hudi_commit_write_marker_named(wctx *c, const char *part, const char *name, const char *type,
                                   hudi_error *err) {
    hudi_buf dir = HUDI_BUF_INIT, path = HUDI_BUF_INIT, line = HUDI_BUF_INIT;
    int rc;
    if (c->markers_flat) {
        int32_t n = atomic_fetch_add(&c->marker_seq, 1);
        hudi_buf_printf(&path, "%s/%s/%s/MARKERS%d", c->t->base_path, WRITE_TEMP_DIR, c->instant,
                        (int)n);
        hudi_buf_printf(&line, "%s%s%s.marker.%s\n", part, *part ? "/" : "", name, type);
        rc = hudi_buf_failed(&path) || hudi_buf_failed(&line) ? hudi_error_oom(err) : 0;
        if (rc == 0)
            rc = hudi_fs_write_all(c->t->fs, path.data, HUDI_CREATE_OVERWRITE, line.data, line.len,
                                   err);
    } else {
        hudi_buf_printf(&dir, "%s/%s/%s%s%s", c->t->base_path, WRITE_TEMP_DIR, c->instant,
                        *part ? "/" : "", part);
        hudi_buf_printf(&path, "%s/%s.marker.%s", dir.data, name, type);
        rc = hudi_buf_failed(&dir) || hudi_buf_failed(&path) ? hudi_error_oom(err) : 0;
        if (rc == 0) rc = hudi_fs_mkdirs(c->t->fs, dir.data, err);
        if (rc == 0) rc = hudi_fs_write_all(c->t->fs, path.data, HUDI_CREATE_OVERWRITE, "", 0, err);
    }
    hudi_buf_dispose(&dir);
    hudi_buf_dispose(&path);
    hudi_buf_dispose(&line);
    return rc;
}

int hudi_commit_write_marker(wctx *c, const wgroup *g, hudi_error *err) {
    return hudi_commit_write_log_marker(c, g, g->name, err);
}

int hudi_commit_write_log_marker(wctx *c, const wgroup *g, const char *name, hudi_error *err) {
    return hudi_commit_write_marker_named(c, c->parts[g->part].path, name,
                                          g->append ? "APPEND"
                                          : g->old  ? "MERGE"
                                                    : "CREATE",
                                          err);
}

static int add_stat(hudi_commit_metadata *md, const wctx *c, const wgroup *g, hudi_error *err) {
    hudi_write_stat st = {0};
    st.file_id = g->file_id;
    st.path = g->rel_path;
    st.prev_commit = g->prev_commit;
    st.num_writes = g->num_writes;
    st.num_deletes = g->num_deletes;
    st.num_update_writes = g->num_update_writes;
    st.num_inserts = g->num_inserts;
    st.total_write_bytes = g->size_bytes;
    st.partition_path = c->parts[g->part].path;
    st.file_size_bytes = g->size_bytes;
    st.has_runtime_stats = true;
    if (g->append) { /* HoodieDeltaWriteStat (commit-metadata.md) */
        /* logFiles: the slice's log files up to and including this one, as Hudi's append
         * handle lists them (Spark's CDC query reads the before image from them) */
        size_t n_old = g->slice ? g->slice->logs_count : 0;
        const char **logs = hudi_malloc((n_old + 1 + g->n_rolled) * sizeof(char *));
        if (!logs) return hudi_error_oom(err);
        size_t n = 0;
        hudi_log_file_name me;
        if (hudi_log_file_name_parse(&me, g->name))
            for (size_t i = 0; i < n_old; i++) {
                const char *in = g->slice->logs[i].instant;
                if (in && strlen(in) == me.instant.len &&
                    memcmp(in, me.instant.data, me.instant.len) == 0)
                    logs[n++] = g->slice->logs[i].name;
            }
        logs[n++] = g->name;
        st.is_delta = true;
        st.log_version = (int32_t)g->log_version;
        st.log_offset = 0;
        st.base_file = g->old ? g->old->name : "";
        st.log_files = logs;
        st.log_files_count = n;
        st.runtime_stats.total_upsert_time = g->time_ms;
        int rc = hudi_commit_metadata_add_write_stat(md, NULL, &st, err);
        /* one stat per log file, as Hudi's append handle adds one after each rollover */
        for (size_t i = 0; rc == 0 && i < g->n_rolled; i++) {
            const wlog *l = &g->rolled[i];
            logs[n++] = l->name;
            st.path = l->rel_path;
            st.num_writes = l->num_writes;
            st.num_deletes = l->num_deletes;
            st.num_update_writes = l->num_update_writes;
            st.num_inserts = l->num_inserts;
            st.total_write_bytes = st.file_size_bytes = l->size_bytes;
            st.log_version = (int32_t)l->version;
            st.log_files_count = n;
            st.runtime_stats.total_upsert_time = 0;
            rc = hudi_commit_metadata_add_write_stat(md, NULL, &st, err);
        }
        hudi_free(logs);
        return rc;
    }
    if (g->old)
        st.runtime_stats.total_upsert_time = g->time_ms;
    else
        st.runtime_stats.total_create_time = g->time_ms;
    hudi_buf cdc = HUDI_BUF_INIT; /* cdcStats: {"<partition>/<cdc log name>": size} */
    if (g->cdc_rel_path) {
        hudi_buf_putc(&cdc, '{');
        hudi_schema_put_json_string(&cdc, g->cdc_rel_path);
        hudi_buf_printf(&cdc, ":%lld}", (long long)g->cdc_size);
        if (hudi_buf_failed(&cdc)) return hudi_error_oom(err);
        st.cdc_stats_json = cdc.data;
    }
    int rc = hudi_commit_metadata_add_write_stat(md, NULL, &st, err);
    hudi_buf_dispose(&cdc);
    return rc;
}

/* Schema on read (docs/formats/schema-evolution.md §2, internal-schema.md): the commit carries
 * the InternalSchema in force as "latest_schema"; when the write changed it (a new version
 * named by this instant) the history in .hoodie/.schema gets it first, before the commit
 * point. Unlike Hudi, an unchanged schema does not copy the history file again. */
static int save_ischema(wctx *c, hudi_commit_metadata *md, hudi_error *err) {
    hudi_ischema_history h = {0};
    hudi_buf json = HUDI_BUF_INIT;
    int rc = 0;
    if (c->ischema_changed) {
        /* the instant may have moved since planning (a taken heartbeat) */
        c->ischema_new.version_id = hudi_ischema_version_of(c->instant);
        const hudi_ischema *in_force = NULL;
        if ((rc = hudi_schema_history_load(&h, c->t, err)) == 0)
            in_force = hudi_ischema_history_search(&h, c->ischema->version_id);
        if (rc == 0 && (!in_force || in_force->version_id != c->ischema->version_id))
            rc = hudi_ischema_history_add(&h, c->ischema, err);
        if (rc == 0) rc = hudi_ischema_history_add(&h, &c->ischema_new, err);
        if (rc == 0) rc = hudi_schema_history_save(c->t, c->instant, &h, err);
    }
    if (rc == 0) rc = hudi_ischema_write(&json, &c->ischema_new, err);
    if (rc == 0) rc = hudi_commit_metadata_set_extra(md, "latest_schema", json.data, err);
    hudi_ischema_history_dispose(&h);
    hudi_buf_dispose(&json);
    return rc;
}

int hudi_commit_complete(wctx *c, hudi_error *err) {
    hudi_commit_metadata *md = NULL;
    hudi_buf body = HUDI_BUF_INIT;
    int rc = hudi_commit_metadata_new(&md, err);
    for (size_t gi = 0; rc == 0 && gi < c->n_groups; gi++)
        if (c->groups[gi].active) rc = add_stat(md, c, &c->groups[gi], err);
    /* with schema on read Hudi's "schema" carries the meta fields (the InternalSchema's Avro) */
    const hudi_buf *schema = c->ischema ? &c->file_schema_json : &c->schema_json;
    if (rc == 0) rc = hudi_commit_metadata_set_extra(md, "schema", schema->data, err);
    if (rc == 0 && c->ischema) rc = save_ischema(c, md, err);
    if (rc == 0)
        rc = hudi_commit_metadata_set_operation(md, hudi_write_operation_name(c->o.op), err);
    if (c->action == HUDI_ACTION_REPLACECOMMIT) {
        md->is_replace = true;
        for (size_t gi = 0; rc == 0 && gi < c->n_groups; gi++) {
            const wgroup *g = &c->groups[gi];
            if (g->old)
                rc = hudi_commit_metadata_add_replaced(md, c->parts[g->part].path, g->file_id, err);
        }
    }
    if (rc == 0) rc = hudi_commit_metadata_write(md, &body, err);
    if (rc == 0)
        rc =
            hudi_timeline_write_instant(c->t->timeline, c->instant, c->action, HUDI_STATE_COMPLETED,
                                        HUDI_SLICE(body.data, body.len), err);
    if (rc == 0 && c->res) {
        for (size_t gi = 0; gi < c->n_groups; gi++) {
            const wgroup *g = &c->groups[gi];
            if (!g->active) continue;
            c->res->inserts += g->num_inserts;
            c->res->updates += g->num_update_writes;
            c->res->deletes += g->num_deletes;
            c->res->files_written += 1 + (int64_t)g->n_rolled;
            c->res->bytes_written += g->size_bytes;
            for (size_t i = 0; i < g->n_rolled; i++) {
                c->res->inserts += g->rolled[i].num_inserts;
                c->res->updates += g->rolled[i].num_update_writes;
                c->res->deletes += g->rolled[i].num_deletes;
                c->res->bytes_written += g->rolled[i].size_bytes;
            }
        }
    }
    hudi_commit_metadata_free(md);
    hudi_buf_dispose(&body);
    return rc;
}
