/* alter.c - ALTER TABLE on the table schema as one instant (docs/formats/schema-evolution.md §3,
 * internal-schema.md §6), the way Hudi's Spark DDL commits it.
 *
 * Under the table lock: the current table schema and InternalSchema (schema_view), the changes
 * applied to it (hudi_ischema_apply), then the instant (a `deltacommit` on merge-on-read tables,
 * as Hudi's CommitUtils.getCommitActionType picks it): `<t>.commit.requested` (empty),
 * `<t>.commit.inflight` (commit metadata with operationType ALTER_SCHEMA and nothing else),
 * with schema on read the history file `.hoodie/.schema/<t>.schemacommit` (written before the
 * commit, as Hudi does), and the completed `<t>.commit`: no write stats, operationType
 * ALTER_SCHEMA, extraMetadata "schema" (the new table schema as Avro: with schema on read the
 * InternalSchema's, meta fields included; without, the data columns) and, with schema on read,
 * "latest_schema" (the new InternalSchema, version <t>). The completed instant is the commit
 * point: a failure before it leaves the table reading as before (readers ignore pending
 * instants and history files of instants that never completed). No data file is touched. */
#include <stdio.h>

#include "columnar/convert.h"
#include "table/schema_view.h"
#include "write/write_int.h"

#define ALTER_OPERATION "ALTER_SCHEMA"

/* Record key, precombine and partition fields of the table config (CustomKeyGenerator's
 * "field:type" without the type), as arena strings. */
static int protected_columns(const hudi_table *t, hudi_arena *a, const char ***out, int32_t *n,
                             hudi_error *err) {
    const char *lists[] = {t->cfg.record_key_fields, t->cfg.precombine_field,
                           t->cfg.partition_fields};
    int32_t cap = 0;
    for (size_t i = 0; i < HUDI_ARRAY_LEN(lists); i++) {
        cap++;
        for (const char *p = lists[i]; p && *p; p++) cap += *p == ',';
    }
    const char **v = hudi_arena_alloc(a, sizeof(char *) * (size_t)(cap + 1));
    if (!v) return hudi_error_oom(err);
    *n = 0;
    for (size_t i = 0; i < HUDI_ARRAY_LEN(lists); i++) {
        for (const char *p = lists[i]; p && *p;) {
            const char *e = strchr(p, ',');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            const char *colon = memchr(p, ':', len);
            size_t k = colon ? (size_t)(colon - p) : len;
            const char *s = p;
            while (k && *s == ' ') s++, k--;
            while (k && s[k - 1] == ' ') k--;
            if (k && !(v[(*n)++] = hudi_arena_strndup(a, s, k))) return hudi_error_oom(err);
            if (!e) break;
            p = e + 1;
        }
    }
    *out = v;
    return 0;
}

/* The instant: opts->instant_time (after every instant of the timeline) or a new one. */
static int pick_instant(hudi_table *t, const hudi_alter_options *o, char out[HUDI_INSTANT_TIME_MAX],
                        const char *after, hudi_error *err) {
    const char *last = after ? after : hudi_timeline_last_time(t->timeline);
    if (!o->instant_time)
        return hudi_instant_time_new(out, o->clock, t->cfg.timeline_utc, last, err);
    size_t len = strlen(o->instant_time);
    if (!hudi_instant_time_valid(o->instant_time, len) || len >= HUDI_INSTANT_TIME_MAX)
        return hudi_error_set(err, HUDI_EINVAL, "invalid instant time '%s'", o->instant_time);
    if (last && hudi_instant_time_cmp(o->instant_time, last) <= 0)
        return hudi_error_set(err, HUDI_EINVAL, "%s: instant %s is not after %s", t->base_path,
                              o->instant_time, last);
    snprintf(out, HUDI_INSTANT_TIME_MAX, "%s", o->instant_time);
    return 0;
}

/* extraMetadata "schema": the new table schema as Avro in Hudi's style, named by the record
 * full name. With schema on read it is the InternalSchema converted, meta fields included (as
 * Hudi's AlterTableCommand writes it); without, the data columns only
 * (AlterHoodieTableAddColumnsCommand). */
static int schema_avro(hudi_buf *out, const hudi_table *t, const hudi_ischema *s, bool sor,
                       hudi_error *err) {
    hudi_field data = {0};
    hudi_buf full = HUDI_BUF_INIT;
    int rc = sor ? (hudi_field_copy(&data, &s->root) < 0 ? hudi_error_oom(err) : 0)
                 : hudi_schema_remove_meta_fields(&data, &s->root, err);
    if (rc == 0) {
        hudi_schema_record_fullname(&full, t->cfg.name);
        hudi_free(data.name);
        data.name = hudi_buf_failed(&full) ? NULL : hudi_strdup(full.data);
        if (!data.name) rc = hudi_error_oom(err);
    }
    if (rc == 0) rc = hudi_schema_write_avro(out, &data, HUDI_AVRO_STYLE_HUDI, err);
    hudi_field_dispose(&data);
    hudi_buf_dispose(&full);
    return rc;
}

/* Hudi's CommitUtils.getCommitActionType for ALTER_SCHEMA: the table type's write action, a
 * deltacommit on merge-on-read tables. */
static hudi_action alter_action(const hudi_table *t) {
    return t->cfg.type == HUDI_MERGE_ON_READ ? HUDI_ACTION_DELTACOMMIT : HUDI_ACTION_COMMIT;
}

static int write_metadata(hudi_table *t, const char *instant, hudi_state state, const char *schema,
                          const char *latest, hudi_error *err) {
    hudi_commit_metadata *md = NULL;
    hudi_buf body = HUDI_BUF_INIT;
    int rc = hudi_commit_metadata_new(&md, err);
    if (rc == 0 && schema) rc = hudi_commit_metadata_set_extra(md, "schema", schema, err);
    if (rc == 0 && latest) rc = hudi_commit_metadata_set_extra(md, "latest_schema", latest, err);
    if (rc == 0) rc = hudi_commit_metadata_set_operation(md, ALTER_OPERATION, err);
    if (rc == 0) rc = hudi_commit_metadata_write(md, &body, err);
    if (rc == 0)
        rc = hudi_timeline_write_instant(t->timeline, instant, alter_action(t), state,
                                         HUDI_SLICE(body.data, body.len), err);
    hudi_commit_metadata_free(md);
    hudi_buf_dispose(&body);
    return rc;
}

/* The first change that hudi_ischema_apply refuses when applied after the ones before it. */
static int32_t refused_change(const hudi_ischema *in, const hudi_schema_change *changes, int32_t n,
                              const hudi_schema_rules *rules, int64_t version) {
    for (int32_t k = 1; k <= n; k++) {
        hudi_ischema out = {0};
        hudi_error scratch = HUDI_ERROR_INIT;
        int rc = hudi_ischema_apply(&out, in, changes, k, rules, version, &scratch);
        hudi_ischema_dispose(&out);
        if (rc == HUDI_ENOMEM) return -1;
        if (rc < 0) return k - 1;
    }
    return -1;
}

/* Without schema on read Hudi's ADD COLUMNS puts the new columns after the data columns and
 * before the partition columns (AlterHoodieTableAddColumnsCommand): the top-level partition
 * columns move to the end, in the order of the partition fields. */
static int partition_columns_last(hudi_ischema *s, const hudi_table *t, hudi_error *err) {
    const char *pf = t->cfg.partition_fields;
    int32_t n = s->root.n_children;
    if (!pf || !*pf || n == 0) return 0;
    hudi_field *f = s->root.children;
    hudi_field *tmp = hudi_calloc((size_t)n, sizeof(hudi_field));
    int32_t *order = hudi_calloc((size_t)n, sizeof(int32_t));
    bool *moved = hudi_calloc((size_t)n, sizeof(bool));
    int rc = tmp && order && moved ? 0 : hudi_error_oom(err);
    int32_t n_order = 0, k = 0;
    for (const char *p = pf; rc == 0 && *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        const char *colon = memchr(p, ':', len);
        if (colon) len = (size_t)(colon - p);
        for (int32_t i = 0; i < n; i++)
            if (!moved[i] && strlen(f[i].name) == len && strncmp(f[i].name, p, len) == 0) {
                moved[i] = true;
                order[n_order++] = i;
                break;
            }
        if (!e) break;
        p = e + 1;
    }
    if (rc == 0) {
        for (int32_t i = 0; i < n; i++)
            if (!moved[i]) tmp[k++] = f[i];
        for (int32_t j = 0; j < n_order; j++) tmp[k++] = f[order[j]];
        memcpy(f, tmp, sizeof(hudi_field) * (size_t)n);
    }
    hudi_free(tmp);
    hudi_free(order);
    hudi_free(moved);
    return rc;
}

/* Whether the table holds no file slice yet (no rows). */
static int table_empty(hudi_table *t, bool *empty, hudi_error *err) {
    hudi_fs_view *v = NULL;
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    int rc = hudi_fs_view_build(&v, t->timeline, &vo, err);
    if (rc < 0) return rc;
    size_t n = 0;
    (void)hudi_fs_view_latest_slices(v, &n);
    *empty = n == 0;
    hudi_fs_view_free(v);
    return 0;
}

typedef struct alter_ctx {
    hudi_table *t;
    const hudi_alter_options *o;
    char instant[HUDI_INSTANT_TIME_MAX];
    hudi_schema_view *view;
    hudi_ischema fresh; /* the table schema with fresh ids, version 0 (no InternalSchema yet) */
    hudi_ischema next;  /* after the changes */
    hudi_ischema_history hist;
    hudi_buf schema_json, latest_json;
    hudi_arena arena;
} alter_ctx;

static void ctx_dispose(alter_ctx *c) {
    hudi_schema_view_free(c->view);
    hudi_ischema_dispose(&c->fresh);
    hudi_ischema_dispose(&c->next);
    hudi_ischema_history_dispose(&c->hist);
    hudi_buf_dispose(&c->schema_json);
    hudi_buf_dispose(&c->latest_json);
    hudi_arena_dispose(&c->arena);
}

/* Without schema on read the InternalSchema is only the means to apply the changes, and the
 * types it cannot hold (timestamps without time zone or in millis or nanos, int8/int16,
 * enums...) would come out converted. Every column the changes did not retype gets its type
 * back from the table schema: `conv` is hudi_ischema_from_field(`orig`), so the two have the
 * same shape and `conv` carries the ids that `next` still uses. */
static void restore_type(hudi_field *next, const hudi_field *orig, const hudi_field *conv) {
    if (orig->n_children != conv->n_children) return;
    if (orig->n_children == 0) {
        if (next->field_id != conv->field_id || !hudi_type_same(next, conv)) return;
        next->type = orig->type, next->unit = orig->unit, next->utc = orig->utc;
        next->hint = orig->hint, next->precision = orig->precision, next->scale = orig->scale;
        next->byte_width = orig->byte_width;
        return;
    }
    for (int32_t i = 0; i < orig->n_children; i++)
        for (int32_t k = 0; k < next->n_children; k++)
            if (next->children[k].field_id == conv->children[i].field_id)
                restore_type(&next->children[k], &orig->children[i], &conv->children[i]);
}

/* The new schema and what the commit carries; nothing is written yet. `sor` gets whether the
 * commit is a schema-on-read one. */
static int prepare(alter_ctx *c, const hudi_schema_change *changes, int32_t n, bool *sor,
                   hudi_error *err) {
    hudi_table *t = c->t;
    int rc = hudi_schema_view_open(&c->view, t, NULL, err);
    if (rc < 0) return rc;
    const hudi_field *table = hudi_schema_view_table(c->view);
    if (!table)
        return hudi_error_set(err, HUDI_EINVAL, "%s: the table has no schema to alter yet",
                              t->base_path);
    const hudi_ischema *cur = hudi_schema_view_ischema(c->view);
    /* once a table has an InternalSchema, schema on read stays on (files are read by id) */
    *sor = c->o->schema_on_read || cur;
    if (*sor && (rc = hudi_ischema_check_types(table, t->base_path, err)) < 0) return rc;
    if (!cur) {
        if ((rc = hudi_ischema_from_field(&c->fresh, table, 0, err)) < 0) return rc;
        cur = &c->fresh;
    }
    hudi_schema_rules rules = {0};
    rules.schema_on_read = *sor;
    if ((rc = protected_columns(t, &c->arena, (const char ***)&rules.protected_columns,
                                &rules.n_protected, err)) < 0)
        return rc;
    /* NOT NULL on ADD: refused on a table with rows (they have no value for the column),
     * honoured on one without (Hudi with schema on read silently adds it nullable) */
    bool not_null = false;
    for (int32_t i = 0; i < n; i++)
        not_null |= changes[i].kind == HUDI_SCHEMA_ADD && changes[i].not_null;
    bool empty = false;
    if (not_null && (rc = table_empty(t, &empty, err)) < 0) return rc;
    const hudi_schema_change *orig = changes;
    if (not_null && empty) {
        hudi_schema_change *own = hudi_arena_alloc(&c->arena, sizeof(*own) * (size_t)n);
        if (!own) return hudi_error_oom(err);
        memcpy(own, changes, sizeof(*own) * (size_t)n);
        for (int32_t i = 0; i < n; i++) own[i].not_null = false;
        changes = own;
    }
    int64_t version = hudi_ischema_version_of(c->instant);
    if (version < 0)
        return hudi_error_set(err, HUDI_EINVAL, "invalid instant time '%s'", c->instant);
    if ((rc = hudi_ischema_apply(&c->next, cur, changes, n, &rules, version, err)) < 0) {
        if (c->o->refused) *c->o->refused = refused_change(cur, changes, n, &rules, version);
        return rc;
    }
    for (int32_t i = 0; changes != orig && i < n; i++) {
        if (orig[i].kind != HUDI_SCHEMA_ADD || !orig[i].not_null) continue;
        hudi_field *f = (hudi_field *)hudi_ischema_find_path(&c->next, orig[i].path, NULL);
        if (f) f->nullable = false;
    }
    if (!*sor) restore_type(&c->next.root, table, &cur->root);
    if (!*sor && (rc = partition_columns_last(&c->next, t, err)) < 0) return rc;
    if ((rc = schema_avro(&c->schema_json, t, &c->next, *sor, err)) < 0) return rc;
    if (!*sor) return 0;
    if ((rc = hudi_ischema_write(&c->latest_json, &c->next, err)) < 0) return rc;
    /* the history: the pre-DDL schema is its oldest entry, so every older file maps to it */
    if ((rc = hudi_schema_history_load(&c->hist, t, err)) < 0) return rc;
    if (c->hist.count == 0 && (rc = hudi_ischema_history_add(&c->hist, cur, err)) < 0) return rc;
    return hudi_ischema_history_add(&c->hist, &c->next, err);
}

static int check_table(const hudi_table *t, int32_t n, hudi_error *err) {
    if (t->cfg.version != 6 || t->cfg.timeline_layout != 1)
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "%s: writing table version %d is not supported (only 6)",
                              t->base_path, t->cfg.version);
    if (n <= 0) return hudi_error_set(err, HUDI_EINVAL, "%s: no schema change", t->base_path);
    return 0;
}

int hudi_tbl_alter_schema(hudi_table *t, const hudi_schema_change *changes, int32_t n,
                          const hudi_alter_options *opts, char instant_out[32], hudi_error *err) {
    hudi_alter_options dflt = {0};
    alter_ctx c;
    memset(&c, 0, sizeof(c));
    c.t = t;
    c.o = opts ? opts : &dflt;
    hudi_txn_config tc;
    hudi_table_lock *lock = NULL;
    hudi_heartbeat *hb = NULL;
    bool started = false, committed = false, sor = false;
    if (instant_out) instant_out[0] = '\0';
    int rc = check_table(t, n, err);
    if (rc < 0) return rc;
    if ((rc = hudi_txn_config_load(&tc, t, c.o->props, err)) < 0) return rc;
    if ((rc = hudi_table_lock_acquire(&lock, t, &tc, err)) < 0) goto done;
    if ((rc = hudi_tbl_reload(t, err)) < 0) goto done;
    if ((rc = hudi_write_disable_metadata_table(t, c.o->clock, err)) < 0) goto done;
    if ((rc = hudi_write_rollback_failed(t, &tc, c.o->clock, err)) < 0) goto done;
    if ((rc = pick_instant(t, c.o, c.instant, NULL, err)) < 0) goto done;
    if ((rc = prepare(&c, changes, n, &sor, err)) < 0) goto done;
    /* a heartbeat left by a writer that died before its requested instant takes the time */
    for (int tries = 0; (rc = hudi_heartbeat_start(&hb, t, &tc, c.instant, err)) == HUDI_EEXISTS &&
                        tries < 8 && !c.o->instant_time;
         tries++) {
        char taken[HUDI_INSTANT_TIME_MAX];
        hudi_error_clear(err);
        memcpy(taken, c.instant, sizeof(taken));
        if ((rc = pick_instant(t, c.o, c.instant, taken, err)) < 0) goto done;
        /* the versions carry the instant: compute them again for the new one */
        hudi_schema_view_free(c.view);
        hudi_ischema_dispose(&c.fresh);
        hudi_ischema_dispose(&c.next);
        hudi_ischema_history_dispose(&c.hist);
        hudi_buf_clear(&c.schema_json);
        hudi_buf_clear(&c.latest_json);
        c.view = NULL;
        if ((rc = prepare(&c, changes, n, &sor, err)) < 0) goto done;
    }
    if (rc == HUDI_EEXISTS)
        rc = hudi_error_set(err, HUDI_ECONFLICT, "%s: a heartbeat for instant %s exists already",
                            t->base_path, c.instant);
    if (rc < 0) goto done;
    started = true;
    if ((rc = hudi_timeline_write_instant(t->timeline, c.instant, alter_action(t),
                                          HUDI_STATE_REQUESTED, HUDI_SLICE("", 0), err)) < 0)
        goto done;
    if ((rc = write_metadata(t, c.instant, HUDI_STATE_INFLIGHT, NULL, NULL, err)) < 0) goto done;
    if (sor && (rc = hudi_schema_history_save(t, c.instant, &c.hist, err)) < 0) goto done;
    if ((rc = hudi_heartbeat_beat(hb, err)) < 0) goto done;
    if ((rc = hudi_table_lock_check(lock, t->base_path, err)) < 0) goto done;
    if ((rc = write_metadata(t, c.instant, HUDI_STATE_COMPLETED, c.schema_json.data,
                             sor ? c.latest_json.data : NULL, err)) < 0)
        goto done;
    committed = true;
    if (instant_out) snprintf(instant_out, HUDI_INSTANT_TIME_MAX, "%s", c.instant);
done:
    if (rc < 0 && started && !committed) {
        /* undo now when storage lets us; else the next writer rolls it back (no heartbeat) */
        hudi_error scratch = HUDI_ERROR_INIT;
        if (hudi_tbl_reload(t, &scratch) == 0)
            (void)hudi_write_rollback_instant(t, c.instant, c.o->clock, &scratch);
    }
    hudi_heartbeat_stop(hb);
    if (committed) (void)hudi_tbl_reload(t, NULL); /* best effort: the commit is in */
    hudi_table_lock_release(lock);
    hudi_txn_config_dispose(&tc);
    ctx_dispose(&c);
    return rc;
}
