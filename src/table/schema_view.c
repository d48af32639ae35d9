/* schema_view.c - the table schema, the query's InternalSchema and each data file's
 * InternalSchema as of an instant (docs/formats/schema-evolution.md §1, docs/formats/
 * internal-schema.md §5), and the schema history files of .hoodie/.schema.
 *
 * Resolution, as Hudi's TableSchemaResolver and InternalSchemaCache do it:
 *   table schema   "schema" of the newest completed commit/deltacommit/replacecommit <= as_of
 *                  whose operationType can change the schema (not CLUSTER, COMPACT, INDEX,
 *                  LOG_COMPACT) and whose "schema" is not empty; else hoodie.table.create.schema;
 *                  else none. Meta fields in front (always, as Hudi's resolver adds them).
 *   InternalSchema "latest_schema" of that commit. Hudi returns none when that commit lacks it
 *                  (a writer without schema on read wrote last) and then reads by name, which
 *                  reads renamed columns as null; hudic instead takes the current history's
 *                  version in force at that commit (exact or newest older), extended with the
 *                  columns the commit's "schema" added (hudi_ischema_reconcile), so that a table
 *                  which ever had an InternalSchema is always read by column id.
 *   file schema    the "latest_schema" of the completed commit that wrote the file; else the
 *                  history's entry for the file's instant; else that commit's "schema" (meta
 *                  fields added) with fresh ids; else (the commit was archived and no history
 *                  covers it) the query's InternalSchema: the file is read by today's names. */
#include <stdio.h>
#include <stdlib.h>

#include "schema/schema.h"
#include "table/schema_view.h"

#define SCHEMA_DIR ".hoodie/.schema"
#define SCHEMA_COMMIT_SUFFIX "schemacommit"
#define META_SCHEMA_KEY "schema"
#define META_LATEST_SCHEMA_KEY "latest_schema"

typedef struct file_schema {
    char instant[HUDI_INSTANT_TIME_MAX];
    hudi_ischema schema;
} file_schema;

struct hudi_schema_view {
    hudi_table *t;
    char as_of[HUDI_INSTANT_TIME_MAX]; /* "" = latest */
    bool has_table;
    hudi_field table;
    char instant[HUDI_INSTANT_TIME_MAX]; /* the commit that gave the table schema; "" = none */
    bool has_ischema;
    hudi_ischema ischema;
    bool history_loaded;
    hudi_ischema_history history;
    file_schema *files; /* cache of hudi_schema_view_file */
    size_t n_files, cap_files;
};

/* WriteOperationType.canUpdateSchema: false only for table services that keep the schema. */
static bool can_update_schema(const char *op) {
    static const char *const keep[] = {"CLUSTER", "COMPACT", "INDEX", "LOG_COMPACT"};
    for (size_t i = 0; op && i < HUDI_ARRAY_LEN(keep); i++)
        if (strcmp(op, keep[i]) == 0) return false;
    return true;
}

static int read_commit(hudi_commit_metadata **out, const hudi_timeline *tl, const hudi_instant *in,
                       hudi_error *err) {
    hudi_buf json = HUDI_BUF_INIT;
    int rc = hudi_timeline_read_commit_json(&json, tl, in, err);
    if (rc == 0) rc = hudi_commit_metadata_parse(out, json.data, json.len, in->file, err);
    hudi_buf_dispose(&json);
    return rc;
}

/* Parses an Avro table schema and puts the meta fields in front (keeping _hoodie_operation
 * after them when the schema has it). Hudi adds them whether or not the table populates them:
 * its files always have the columns, null when not populated. */
static int table_schema_from_avro(hudi_field *out, const hudi_table *t, const char *json,
                                  const char *what, hudi_error *err) {
    hudi_field parsed = {0};
    int rc = hudi_schema_parse_avro(&parsed, json, strlen(json), err);
    if (rc < 0) return hudi_error_wrap(err, "%s: the schema JSON of %s", t->base_path, what), rc;
    int32_t op = -1;
    for (int32_t i = 0; i < parsed.n_children; i++)
        if (parsed.children[i].name &&
            strcmp(parsed.children[i].name, HUDI_META_OPERATION_FIELD) == 0)
            op = i;
    rc = hudi_schema_add_meta_fields(out, &parsed, err);
    if (rc == 0 && op >= 0) {
        /* add_meta_fields drops _hoodie_operation: put it back after the five. */
        hudi_field *kids =
            hudi_realloc(out->children, ((size_t)out->n_children + 1) * sizeof(hudi_field));
        if (!kids) {
            rc = hudi_error_oom(err);
        } else {
            out->children = kids;
            memmove(&kids[HUDI_META_FIELD_COUNT + 1], &kids[HUDI_META_FIELD_COUNT],
                    (size_t)(out->n_children - HUDI_META_FIELD_COUNT) * sizeof(hudi_field));
            out->n_children++;
            memset(&kids[HUDI_META_FIELD_COUNT], 0, sizeof(hudi_field));
            if (hudi_field_copy(&kids[HUDI_META_FIELD_COUNT], &parsed.children[op]) < 0)
                rc = hudi_error_oom(err);
        }
        if (rc < 0) {
            hudi_field_dispose(out);
            memset(out, 0, sizeof(*out));
        }
    }
    hudi_field_dispose(&parsed);
    return rc;
}

static int load_history(hudi_schema_view *v, hudi_error *err) {
    if (v->history_loaded) return 0;
    int rc = hudi_schema_history_load(&v->history, v->t, err);
    v->history_loaded = rc == 0;
    return rc;
}

static bool has_meta_commit_time(const hudi_field *root) {
    for (int32_t i = 0; i < root->n_children; i++)
        if (root->children[i].name &&
            strcmp(root->children[i].name, hudi_meta_field_names[HUDI_META_COMMIT_TIME]) == 0)
            return true;
    return false;
}

/* No "latest_schema" in the commit that gave the table schema: the history's version in force
 * at `version`, with the columns `avro` (that commit's "schema", may be NULL) adds. */
static int ischema_from_history(hudi_schema_view *v, int64_t version, const char *avro,
                                hudi_error *err) {
    int rc = load_history(v, err);
    if (rc < 0 || v->history.count == 0) return rc;
    const hudi_ischema *s =
        version < 0 ? &v->history.items[0] : hudi_ischema_history_search(&v->history, version);
    if (!s || s->version_id < 0) return 0;
    if (!avro || !*avro) {
        if ((rc = hudi_ischema_copy(&v->ischema, s, err)) == 0) v->has_ischema = true;
        return rc;
    }
    hudi_field parsed = {0}, writer = {0};
    bool changed = false;
    if ((rc = hudi_schema_parse_avro(&parsed, avro, strlen(avro), err)) < 0)
        return hudi_error_wrap(err, "%s: the schema JSON of commit %s", v->t->base_path,
                               v->instant),
               rc;
    /* Compare like with like: the InternalSchema may or may not carry the meta fields. */
    if (has_meta_commit_time(&s->root))
        rc = hudi_schema_add_meta_fields(&writer, &parsed, err);
    else
        rc = hudi_schema_remove_meta_fields(&writer, &parsed, err);
    if (rc == 0) rc = hudi_ischema_reconcile(&v->ischema, &changed, s, &writer, version, err);
    if (rc == 0) v->has_ischema = true;
    hudi_field_dispose(&parsed);
    hudi_field_dispose(&writer);
    return rc;
}

int hudi_schema_view_open(hudi_schema_view **out, hudi_table *t, const char *as_of,
                          hudi_error *err) {
    hudi_schema_view *v = hudi_calloc(1, sizeof(*v));
    hudi_instant_list l = {0};
    hudi_commit_metadata *md = NULL;
    int rc;
    *out = NULL;
    if (!v) return hudi_error_oom(err);
    v->t = t;
    if (as_of && *as_of) {
        if (strlen(as_of) >= sizeof(v->as_of) || !hudi_instant_time_valid(as_of, strlen(as_of))) {
            rc = hudi_error_set(err, HUDI_EINVAL, "%s: '%s' is not an instant time", t->base_path,
                                as_of);
            goto fail;
        }
        snprintf(v->as_of, sizeof(v->as_of), "%s", as_of);
    }
    if ((rc = hudi_timeline_completed_commits(&l, t->timeline, err)) < 0) goto fail;
    const char *avro = NULL;
    for (size_t i = l.count; i-- > 0;) {
        const hudi_instant *in = l.items[i];
        if (v->as_of[0] && hudi_instant_time_cmp(in->time, v->as_of) > 0) continue;
        hudi_commit_metadata_free(md);
        md = NULL;
        if ((rc = read_commit(&md, t->timeline, in, err)) < 0) goto fail;
        const char *s = hudi_commit_metadata_extra(md, META_SCHEMA_KEY);
        if (!can_update_schema(md->operation_type) || !s || !*s) continue;
        snprintf(v->instant, sizeof(v->instant), "%s", in->time);
        avro = s;
        break;
    }
    if (avro) {
        char what[HUDI_INSTANT_TIME_MAX + 8];
        snprintf(what, sizeof(what), "commit %s", v->instant);
        if ((rc = table_schema_from_avro(&v->table, t, avro, what, err)) < 0) goto fail;
        v->has_table = true;
    } else if (t->cfg.create_schema && *t->cfg.create_schema) {
        if ((rc = table_schema_from_avro(&v->table, t, t->cfg.create_schema,
                                         "hoodie.table.create.schema", err)) < 0)
            goto fail;
        v->has_table = true;
    }
    const char *latest = avro ? hudi_commit_metadata_extra(md, META_LATEST_SCHEMA_KEY) : NULL;
    if (latest && *latest) {
        if ((rc = hudi_ischema_parse(&v->ischema, latest, strlen(latest), err)) < 0) {
            hudi_error_wrap(err, "%s: the latest_schema JSON of commit %s", t->base_path,
                            v->instant);
            goto fail;
        }
        v->has_ischema = v->ischema.version_id >= 0;
        if (!v->has_ischema) hudi_ischema_dispose(&v->ischema);
    } else {
        const char *at = avro ? v->instant : v->as_of;
        int64_t version = *at ? hudi_ischema_version_of(at) : -1;
        if ((rc = ischema_from_history(v, version, avro, err)) < 0) goto fail;
    }
    hudi_commit_metadata_free(md);
    hudi_instant_list_dispose(&l);
    *out = v;
    return 0;
fail:
    hudi_commit_metadata_free(md);
    hudi_instant_list_dispose(&l);
    hudi_schema_view_free(v);
    return rc;
}

void hudi_schema_view_free(hudi_schema_view *v) {
    if (!v) return;
    hudi_field_dispose(&v->table);
    hudi_ischema_dispose(&v->ischema);
    hudi_ischema_history_dispose(&v->history);
    for (size_t i = 0; i < v->n_files; i++) hudi_ischema_dispose(&v->files[i].schema);
    hudi_free(v->files);
    hudi_free(v);
}

const hudi_field *hudi_schema_view_table(const hudi_schema_view *v) {
    return v->has_table ? &v->table : NULL;
}

const char *hudi_schema_view_instant(const hudi_schema_view *v) {
    return v->instant[0] ? v->instant : NULL;
}

const hudi_ischema *hudi_schema_view_ischema(const hudi_schema_view *v) {
    return v->has_ischema ? &v->ischema : NULL;
}

/* The file schema of `instant` by steps 2-4 (the cache is step 1's caller). */
static int resolve_file(hudi_ischema *out, hudi_schema_view *v, const char *instant,
                        hudi_error *err) {
    const hudi_timeline *tl = v->t->timeline;
    const hudi_instant *in = NULL;
    hudi_commit_metadata *md = NULL;
    int64_t version = hudi_ischema_version_of(instant);
    int rc = 0;
    for (size_t i = tl->count; i-- > 0 && !in;)
        if (tl->instants[i].state == HUDI_STATE_COMPLETED &&
            (HUDI_ACTIONS_COMMITS & HUDI_ACTION_BIT(tl->instants[i].action)) &&
            strcmp(tl->instants[i].time, instant) == 0)
            in = &tl->instants[i];
    const char *avro = NULL;
    if (in) {
        if ((rc = read_commit(&md, tl, in, err)) < 0) return rc;
        const char *latest = hudi_commit_metadata_extra(md, META_LATEST_SCHEMA_KEY);
        avro = hudi_commit_metadata_extra(md, META_SCHEMA_KEY);
        if (latest && *latest) {
            rc = hudi_ischema_parse(out, latest, strlen(latest), err);
            if (rc < 0)
                hudi_error_wrap(err, "%s: the latest_schema JSON of commit %s", v->t->base_path,
                                instant);
            if (rc < 0 || out->version_id >= 0) goto done;
            hudi_ischema_dispose(out);
        }
    }
    if ((rc = load_history(v, err)) < 0) goto done;
    const hudi_ischema *h = version >= 0 ? hudi_ischema_history_search(&v->history, version) : NULL;
    if (h && h->version_id >= 0) {
        rc = hudi_ischema_copy(out, h, err);
        goto done;
    }
    if (avro && *avro) {
        hudi_field parsed = {0}, with_meta = {0};
        if ((rc = hudi_schema_parse_avro(&parsed, avro, strlen(avro), err)) < 0) {
            hudi_error_wrap(err, "%s: the schema JSON of commit %s", v->t->base_path, instant);
            goto done;
        }
        /* InternalSchemaCache converts the Avro schema with the meta fields added. */
        rc = hudi_schema_add_meta_fields(&with_meta, &parsed, err);
        if (rc == 0) rc = hudi_ischema_from_field(out, &with_meta, version, err);
        hudi_field_dispose(&parsed);
        hudi_field_dispose(&with_meta);
        goto done;
    }
    rc = hudi_ischema_copy(out, &v->ischema, err);
done:
    hudi_commit_metadata_free(md);
    return rc;
}

int hudi_schema_view_file(const hudi_ischema **out, hudi_schema_view *v, const char *instant,
                          hudi_error *err) {
    *out = NULL;
    if (!v->has_ischema)
        return hudi_error_set(err, HUDI_EINVAL, "%s: the table has no InternalSchema",
                              v->t->base_path);
    if (strlen(instant) >= HUDI_INSTANT_TIME_MAX)
        return hudi_error_set(err, HUDI_EINVAL, "%s: '%s' is not an instant time", v->t->base_path,
                              instant);
    for (size_t i = 0; i < v->n_files; i++)
        if (strcmp(v->files[i].instant, instant) == 0) {
            *out = &v->files[i].schema;
            return 0;
        }
    if (v->n_files == v->cap_files) {
        size_t cap = v->cap_files ? v->cap_files * 2 : 8;
        file_schema *f = hudi_realloc(v->files, cap * sizeof(*f));
        if (!f) return hudi_error_oom(err);
        v->files = f;
        v->cap_files = cap;
    }
    file_schema *f = &v->files[v->n_files];
    memset(f, 0, sizeof(*f));
    snprintf(f->instant, sizeof(f->instant), "%s", instant);
    int rc = resolve_file(&f->schema, v, instant, err);
    if (rc < 0) return rc;
    v->n_files++;
    *out = &f->schema;
    return 0;
}

/* ---- .hoodie/.schema ------------------------------------------------------------------------ */

/* Whether `name` (a file of .hoodie/.schema) belongs to a completed commit: its text before the
 * first '.' is the time of a completed commit, deltacommit or replacecommit. */
static bool of_completed_commit(const hudi_timeline *tl, const char *name) {
    const char *dot = strchr(name, '.');
    size_t n = dot ? (size_t)(dot - name) : strlen(name);
    for (size_t i = 0; i < tl->count; i++) {
        const hudi_instant *in = &tl->instants[i];
        if (in->state == HUDI_STATE_COMPLETED &&
            (HUDI_ACTIONS_COMMITS & HUDI_ACTION_BIT(in->action)) && strlen(in->time) == n &&
            memcmp(in->time, name, n) == 0)
            return true;
    }
    return false;
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

static int list_schema_dir(hudi_table *t, hudi_buf *dir, hudi_dir_listing *l, hudi_error *err) {
    hudi_buf_printf(dir, "%s/%s", t->base_path, SCHEMA_DIR);
    if (hudi_buf_failed(dir)) return hudi_error_oom(err);
    int rc = hudi_fs_list(t->fs, dir->data, l, err);
    if (rc == HUDI_ENOTFOUND) {
        hudi_error_clear(err);
        l->entries = NULL;
        l->count = 0;
        return 0;
    }
    return rc;
}

int hudi_schema_history_load(hudi_ischema_history *out, hudi_table *t, hudi_error *err) {
    hudi_buf dir = HUDI_BUF_INIT, path = HUDI_BUF_INIT, text = HUDI_BUF_INIT;
    hudi_dir_listing l = {0};
    memset(out, 0, sizeof(*out));
    int rc = list_schema_dir(t, &dir, &l, err);
    const char *current = NULL; /* the listing is sorted by name: the last valid one wins */
    for (size_t i = 0; rc == 0 && i < l.count; i++)
        if (!l.entries[i].is_dir && ends_with(l.entries[i].name, SCHEMA_COMMIT_SUFFIX) &&
            of_completed_commit(t->timeline, l.entries[i].name))
            current = l.entries[i].name;
    if (rc == 0 && current) {
        hudi_buf_printf(&path, "%s/%s", dir.data, current);
        if (hudi_buf_failed(&path))
            rc = hudi_error_oom(err);
        else if ((rc = hudi_fs_read_all(t->fs, path.data, &text, err)) == 0 && text.len > 0 &&
                 (rc = hudi_ischema_history_parse(out, text.data, text.len, err)) < 0)
            hudi_error_wrap(err, "%s", path.data);
    }
    hudi_buf_dispose(&dir);
    hudi_buf_dispose(&path);
    hudi_buf_dispose(&text);
    hudi_dir_listing_dispose(&l);
    return rc;
}

int hudi_schema_history_save(hudi_table *t, const char *instant, const hudi_ischema_history *h,
                             hudi_error *err) {
    hudi_buf dir = HUDI_BUF_INIT, path = HUDI_BUF_INIT, json = HUDI_BUF_INIT;
    hudi_dir_listing l = {0};
    if (!hudi_instant_time_valid(instant, strlen(instant)))
        return hudi_error_set(err, HUDI_EINVAL, "%s: '%s' is not an instant time", t->base_path,
                              instant);
    int rc = hudi_ischema_history_write(&json, h, err);
    if (rc == 0) rc = list_schema_dir(t, &dir, &l, err);
    /* Hudi's cleanResidualFiles: files of instants that never completed (failed writers). */
    for (size_t i = 0; rc == 0 && i < l.count; i++) {
        if (l.entries[i].is_dir || of_completed_commit(t->timeline, l.entries[i].name)) continue;
        hudi_buf_clear(&path);
        hudi_buf_printf(&path, "%s/%s", dir.data, l.entries[i].name);
        if (hudi_buf_failed(&path)) rc = hudi_error_oom(err);
        if (rc == 0 && (rc = hudi_fs_remove(t->fs, path.data, err)) == HUDI_ENOTFOUND) {
            hudi_error_clear(err);
            rc = 0;
        }
    }
    if (rc == 0) rc = hudi_fs_mkdirs(t->fs, dir.data, err);
    static const char *const suffixes[] = {".requested", ".inflight", ""};
    for (size_t i = 0; rc == 0 && i < HUDI_ARRAY_LEN(suffixes); i++) {
        bool last = suffixes[i][0] == '\0';
        hudi_buf_clear(&path);
        hudi_buf_printf(&path, "%s/%s.%s%s", dir.data, instant, SCHEMA_COMMIT_SUFFIX, suffixes[i]);
        if (hudi_buf_failed(&path)) {
            rc = hudi_error_oom(err);
            break;
        }
        rc = hudi_fs_write_all(t->fs, path.data, HUDI_CREATE_EXCLUSIVE, last ? json.data : "",
                               last ? json.len : 0, err);
    }
    hudi_buf_dispose(&dir);
    hudi_buf_dispose(&path);
    hudi_buf_dispose(&json);
    hudi_dir_listing_dispose(&l);
    return rc;
}
