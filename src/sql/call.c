/* call.c - CALL procedure(...) (docs/SQL.md "Procedures"): Hudi's Spark procedures that the
 * table and write layers can serve, with Hudi's parameter names, defaults and output columns
 * (HoodieProcedures, Hudi 0.15). Arguments are positional or named (`table => 't'`); names are
 * case-insensitive; an unknown procedure, an unknown or repeated argument and a missing
 * required one are errors. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "read/read.h"
#include "sql/ddl_int.h"
#include "table/schema_view.h"
#include "write/write.h"

static int oom(hudi_error *err) { return hudi_error_oom(err); }

typedef enum { P_STR, P_INT, P_BOOL } ptype;

typedef struct param {
    const char *name;
    ptype type;
    bool required;
    const char *dflt; /* NULL: none */
} param;

#define MAX_PARAMS 12

typedef struct args {
    const char *v[MAX_PARAMS]; /* argument text by parameter, NULL when not given */
    bool given[MAX_PARAMS];
} args;

typedef struct proc proc;
typedef int (*proc_fn)(hudi_sql_session *s, hudi_sql_result *r, const proc *p, const args *a,
                       hudi_error *err);

struct proc {
    const char *name;
    proc_fn fn;
    param params[MAX_PARAMS];
    const char *outputs; /* "name type, ..." for help */
};

static int bind_args(hudi_sql_result *r, const hudi_sql_stmt *st, const proc *p, args *a,
                     hudi_error *err) {
    memset(a, 0, sizeof(*a));
    int32_t np = 0;
    while (np < MAX_PARAMS && p->params[np].name) np++;
    int32_t pos = 0;
    for (uint32_t i = 0; i < st->args.len; i++) {
        const hudi_sql_expr *e = HUDI_SQL_AT(st->args, hudi_sql_expr, i);
        int32_t k;
        const hudi_sql_expr *v = e;
        if (e->kind == HUDI_SQL_E_NAMED_ARG) {
            k = -1;
            for (int32_t j = 0; j < np; j++)
                if (strcasecmp(p->params[j].name, e->field) == 0) k = j;
            if (k < 0)
                return hudi_error_set(err, HUDI_ESQL,
                                      "line %u, column %u: procedure %s has no argument '%s'",
                                      e->pos.line, e->pos.col, p->name, e->field);
            v = e->left;
        } else {
            k = pos++;
            if (k >= np)
                return hudi_error_set(err, HUDI_ESQL,
                                      "line %u, column %u: too many arguments for procedure %s",
                                      e->pos.line, e->pos.col, p->name);
        }
        if (a->given[k])
            return hudi_error_set(err, HUDI_ESQL,
                                  "line %u, column %u: argument '%s' of %s is given twice",
                                  e->pos.line, e->pos.col, p->params[k].name, p->name);
        int rc = hudi_sql_const_text(r, v, "a procedure argument", &a->v[k], err);
        if (rc < 0) return rc;
        a->given[k] = true;
        if (a->v[k] && p->params[k].type == P_INT) {
            char *end;
            strtoll(a->v[k], &end, 10);
            if (!*a->v[k] || *end)
                return hudi_error_set(err, HUDI_ESQL, "argument '%s' of %s must be an integer",
                                      p->params[k].name, p->name);
        }
    }
    for (int32_t j = 0; j < np; j++) {
        if (!a->v[j] && p->params[j].required)
            return hudi_error_set(err, HUDI_ESQL, "procedure %s: argument '%s' is required",
                                  p->name, p->params[j].name);
        if (!a->given[j]) a->v[j] = p->params[j].dflt;
    }
    return 0;
}

static int64_t arg_int(const args *a, int k, int64_t dflt) {
    return a->v[k] ? strtoll(a->v[k], NULL, 10) : dflt;
}

static bool arg_bool(const args *a, int k) { return a->v[k] && strcasecmp(a->v[k], "true") == 0; }

/* True when writer settings `kv` (a table's properties, then the session's SET values, as a
 * write takes them: hudi_sql_write_props) have hoodie.index.type=BUCKET. */
static bool bucket_index(const char *const *kv) {
    const char *v = hudi_props_setting(NULL, kv, "hoodie.index.type");
    return v && strcasecmp(v, "BUCKET") == 0;
}

/* The writer settings of entry `e` (hudi_sql_write_props: the catalog's properties, then SET),
 * copied into the result's arena (they outlive the entry); NULL when out of memory. */
static const char *const *settings_of(hudi_sql_result *r, const hudi_sql_session *s,
                                      const hudi_catalog_table *e) {
    const char *const *kv = hudi_sql_write_props(r, s, e);
    size_t n = 0;
    while (kv && kv[n]) n++;
    const char **out = kv ? hudi_arena_alloc(&r->arena, (n + 1) * sizeof(char *)) : NULL;
    for (size_t i = 0; out && i < n; i++)
        if (!(out[i] = hudi_arena_strdup(&r->arena, kv[i]))) return NULL;
    if (out) out[n] = NULL;
    return out;
}

/* The table named by `table` (a catalog name) or `path` (a base path); *settings (when not
 * NULL) its writer settings (settings_of). */
static int open_arg_table_ex(hudi_sql_session *s, hudi_sql_result *r, const args *a, int k_table,
                             int k_path, hudi_table **out, const char *const **settings,
                             hudi_error *err) {
    *out = NULL;
    hudi_catalog_table e;
    memset(&e, 0, sizeof(e));
    int rc;
    if (k_table >= 0 && a->v[k_table]) {
        hudi_sql_name n;
        memset(&n, 0, sizeof(n));
        const char *t = a->v[k_table];
        const char *dot = strchr(t, '.');
        void **items = hudi_arena_alloc(&r->arena, 2 * sizeof(void *));
        if (!items) return oom(err);
        if (dot) {
            items[0] = hudi_arena_strndup(&r->arena, t, (size_t)(dot - t));
            items[1] = hudi_arena_strdup(&r->arena, dot + 1);
            n.parts.len = 2;
        } else {
            items[0] = hudi_arena_strdup(&r->arena, t);
            n.parts.len = 1;
        }
        n.parts.items = items;
        n.parts.cap = 2;
        if ((rc = hudi_sql_resolve_table(s, &n, &e, err)) < 0) return rc;
    } else if (k_path >= 0 && a->v[k_path]) {
        e.provider = HUDI_CATALOG_HUDI;
        e.database = "";
        e.name = (char *)a->v[k_path];
        e.location = (char *)a->v[k_path];
        if (settings && !(*settings = settings_of(r, s, &e))) return oom(err);
        return hudi_sql_open_entry(s, r, &e, "CALL", out, err);
    } else {
        return hudi_error_set(err, HUDI_ESQL, "Table name or table path must be given one");
    }
    if (settings && !(*settings = settings_of(r, s, &e))) {
        hudi_catalog_table_dispose(&e);
        return oom(err);
    }
    rc = hudi_sql_open_entry(s, r, &e, "CALL", out, err);
    hudi_catalog_table_dispose(&e);
    return rc;
}

static int open_arg_table(hudi_sql_session *s, hudi_sql_result *r, const args *a, int k_table,
                          int k_path, hudi_table **out, hudi_error *err) {
    return open_arg_table_ex(s, r, a, k_table, k_path, out, NULL, err);
}

/* ---- show_commits / show_commit_files ---------------------------------------------------- */

static int read_commit(hudi_table *t, const hudi_instant *in, hudi_commit_metadata **md,
                       hudi_error *err) {
    hudi_buf json = HUDI_BUF_INIT;
    int rc = hudi_timeline_read_commit_json(&json, t->timeline, in, err);
    if (rc == 0) rc = hudi_commit_metadata_parse(md, json.data, json.len, in->file, err);
    hudi_buf_dispose(&json);
    return rc;
}

static int show_commits(hudi_sql_session *s, hudi_sql_result *r, const proc *p, const args *a,
                        hudi_error *err) {
    hudi_table *t;
    int rc = open_arg_table(s, r, a, 0, -1, &t, err);
    if (rc < 0) return rc;
    int64_t limit = arg_int(a, 1, 10);
    hudi_instant_list l = {0};
    if ((rc = hudi_timeline_completed_commits(&l, t->timeline, err)) < 0) return rc;
    hudi_sql_rows w;
    const char *cols[] = {"commit_time",
                          "state_transition_time",
                          "action",
                          "total_bytes_written",
                          "total_files_added",
                          "total_files_updated",
                          "total_partitions_written",
                          "total_records_written",
                          "total_update_records_written",
                          "total_errors"};
    const hudi_type_id ty[] = {
        HUDI_TYPE_STRING, HUDI_TYPE_STRING, HUDI_TYPE_STRING, HUDI_TYPE_INT64, HUDI_TYPE_INT64,
        HUDI_TYPE_INT64,  HUDI_TYPE_INT64,  HUDI_TYPE_INT64,  HUDI_TYPE_INT64, HUDI_TYPE_INT64};
    rc = hudi_sql_rows_begin(&w, r, 10, cols, ty, err);
    int64_t shown = 0;
    for (size_t i = l.count; rc == 0 && i > 0 && shown < limit; i--, shown++) {
        const hudi_instant *in = l.items[i - 1];
        hudi_commit_metadata *md = NULL;
        if ((rc = read_commit(t, in, &md, err)) < 0) break;
        int64_t bytes = 0, added = 0, updated = 0, recs = 0, upd = 0, errs = 0;
        for (size_t pi = 0; pi < md->partitions_count; pi++)
            for (size_t k = 0; k < md->partitions[pi].count; k++) {
                const hudi_write_stat *ws = &md->partitions[pi].stats[k];
                bytes += ws->total_write_bytes;
                /* HoodieCommitMetadata.fetchTotalFilesInsert/Updated: by prevCommit */
                if (ws->prev_commit && strcasecmp(ws->prev_commit, "null") == 0)
                    added++;
                else if (ws->prev_commit)
                    updated++;
                recs += ws->num_writes;
                upd += ws->num_update_writes;
                errs += ws->total_write_errors;
            }
        /* Hudi 0.15: when the instant reached its state, the completed file's modification
         * time as an instant time in the timeline's zone */
        char moved[HUDI_INSTANT_TIME_MAX] = "";
        hudi_buf path = HUDI_BUF_INIT;
        hudi_stat stt;
        hudi_buf_printf(&path, "%s/%s", t->timeline->dir, in->file);
        if (!hudi_buf_failed(&path) && hudi_fs_stat(t->fs, path.data, &stt, NULL) == 0)
            hudi_instant_time_from_ms(moved, stt.mtime_ms, t->cfg.timeline_utc, NULL);
        hudi_buf_dispose(&path);
        hudi_sql_rows_str(&w, 0, in->time);
        hudi_sql_rows_str(&w, 1, moved[0] ? moved : NULL);
        hudi_sql_rows_str(&w, 2, hudi_action_name(in->action));
        hudi_sql_rows_i64(&w, 3, bytes);
        hudi_sql_rows_i64(&w, 4, added);
        hudi_sql_rows_i64(&w, 5, updated);
        hudi_sql_rows_i64(&w, 6, (int64_t)md->partitions_count);
        hudi_sql_rows_i64(&w, 7, recs);
        hudi_sql_rows_i64(&w, 8, upd);
        hudi_sql_rows_i64(&w, 9, errs);
        hudi_sql_rows_end(&w);
        hudi_commit_metadata_free(md);
    }
    hudi_instant_list_dispose(&l);
    HUDI_UNUSED(p);
    if (rc < 0) {
        hudi_sql_rows_abort(&w);
        return rc;
    }
    return hudi_sql_rows_finish(&w, err);
}

static int show_commit_files(hudi_sql_session *s, hudi_sql_result *r, const proc *p, const args *a,
                             hudi_error *err) {
    hudi_table *t;
    int rc = open_arg_table(s, r, a, 0, -1, &t, err);
    if (rc < 0) return rc;
    int64_t limit = arg_int(a, 1, 10);
    const char *instant = a->v[2];
    hudi_instant_list l = {0};
    if ((rc = hudi_timeline_completed_commits(&l, t->timeline, err)) < 0) return rc;
    const hudi_instant *in = NULL;
    for (size_t i = 0; i < l.count; i++)
        if (strcmp(l.items[i]->time, instant) == 0) in = l.items[i];
    if (!in) {
        hudi_instant_list_dispose(&l);
        return hudi_error_set(err, HUDI_ENOTFOUND, "Commit %s not found in Commits %s.%s", instant,
                              t->cfg.database ? t->cfg.database : "", t->cfg.name);
    }
    hudi_commit_metadata *md = NULL;
    rc = read_commit(t, in, &md, err);
    hudi_sql_rows w;
    const char *cols[] = {"action",
                          "partition_path",
                          "file_id",
                          "previous_commit",
                          "total_records_updated",
                          "total_records_written",
                          "total_bytes_written",
                          "total_errors",
                          "file_size"};
    const hudi_type_id ty[] = {HUDI_TYPE_STRING, HUDI_TYPE_STRING, HUDI_TYPE_STRING,
                               HUDI_TYPE_STRING, HUDI_TYPE_INT64,  HUDI_TYPE_INT64,
                               HUDI_TYPE_INT64,  HUDI_TYPE_INT64,  HUDI_TYPE_INT64};
    if (rc == 0) rc = hudi_sql_rows_begin(&w, r, 9, cols, ty, err);
    int64_t shown = 0;
    for (size_t pi = 0; rc == 0 && pi < md->partitions_count; pi++)
        for (size_t k = 0; k < md->partitions[pi].count && shown < limit; k++, shown++) {
            const hudi_write_stat *ws = &md->partitions[pi].stats[k];
            hudi_sql_rows_str(&w, 0, hudi_action_name(in->action));
            hudi_sql_rows_str(&w, 1, md->partitions[pi].partition_path);
            hudi_sql_rows_str(&w, 2, ws->file_id);
            hudi_sql_rows_str(&w, 3, ws->prev_commit);
            hudi_sql_rows_i64(&w, 4, ws->num_update_writes);
            hudi_sql_rows_i64(&w, 5, ws->num_writes);
            hudi_sql_rows_i64(&w, 6, ws->total_write_bytes);
            hudi_sql_rows_i64(&w, 7, ws->total_write_errors);
            hudi_sql_rows_i64(&w, 8, ws->file_size_bytes);
            hudi_sql_rows_end(&w);
        }
    hudi_commit_metadata_free(md);
    hudi_instant_list_dispose(&l);
    HUDI_UNUSED(p);
    if (rc < 0) return rc;
    return hudi_sql_rows_finish(&w, err);
}

/* ---- show_schema_history (hudic's own) ----------------------------------------------------- */

static void type_text(hudi_buf *b, const hudi_field *f) {
    switch (f->type) {
    case HUDI_TYPE_DECIMAL: hudi_buf_printf(b, "decimal(%d,%d)", f->precision, f->scale); break;
    case HUDI_TYPE_BOOL: hudi_buf_puts(b, "boolean"); break;
    case HUDI_TYPE_INT32: hudi_buf_puts(b, "int"); break;
    case HUDI_TYPE_INT64: hudi_buf_puts(b, "long"); break;
    case HUDI_TYPE_STRUCT: hudi_buf_puts(b, "struct"); break;
    case HUDI_TYPE_LIST: hudi_buf_puts(b, "array"); break;
    case HUDI_TYPE_FIXED_BINARY:
        if (f->hint == HUDI_HINT_UUID)
            hudi_buf_puts(b, "uuid");
        else
            hudi_buf_printf(b, "fixed[%d]", f->byte_width);
        break;
    default: hudi_buf_puts(b, hudi_type_name(f->type)); break;
    }
}

static bool same_type(const hudi_field *a, const hudi_field *b) {
    return a->type == b->type && a->precision == b->precision && a->scale == b->scale &&
           a->byte_width == b->byte_width && a->hint == b->hint;
}

static bool same_text(const char *a, const char *b) {
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The id of the sibling before (dir -1) or after (dir 1) child `i` of `parent` among the
 * siblings whose ids `other` also has; -1 when none. */
static int32_t common_neighbour(const hudi_field *parent, int32_t i, int dir,
                                const hudi_ischema *other) {
    for (int32_t j = i + dir; j >= 0 && j < parent->n_children; j += dir) {
        int32_t id = parent->children[j].field_id;
        if (id >= 0 && hudi_ischema_find_id(other, id, NULL)) return id;
    }
    return -1;
}

static int32_t child_index(const hudi_field *parent, int32_t id) {
    for (int32_t j = 0; j < parent->n_children; j++)
        if (parent->children[j].field_id == id) return j;
    return -1;
}

/* The parent of the column with id `id` in `s` (a struct, list or map entry), or NULL. */
static const hudi_field *parent_of(const hudi_field *f, int32_t id) {
    for (int32_t j = 0; j < f->n_children; j++) {
        if (f->children[j].field_id == id) return f;
        const hudi_field *p = parent_of(&f->children[j], id);
        if (p) return p;
    }
    return NULL;
}

static void sep(hudi_buf *b) {
    if (b->len) hudi_buf_puts(b, "; ");
}

/* Appends to `b` what changed from `old` for every column of `nw` under `f` (depth first). */
static void describe_new(hudi_buf *b, const hudi_ischema *old, const hudi_ischema *nw,
                         const hudi_field *f) {
    int32_t last_moved = -1;
    for (int32_t i = 0; i < f->n_children; i++) {
        const hudi_field *c = &f->children[i];
        if (c->field_id >= 0) {
            hudi_buf path = HUDI_BUF_INIT, opath = HUDI_BUF_INIT;
            hudi_ischema_find_id(nw, c->field_id, &path);
            const hudi_field *o = hudi_ischema_find_id(old, c->field_id, &opath);
            if (!o) {
                sep(b);
                hudi_buf_printf(b, "added %s (id %d)", path.data ? path.data : c->name,
                                (int)c->field_id);
            } else {
                if (strcmp(o->name, c->name) != 0) {
                    sep(b);
                    hudi_buf_printf(b, "renamed %s to %s", opath.data ? opath.data : o->name,
                                    c->name);
                }
                if (!same_type(o, c) && !hudi_type_is_nested(c->type)) {
                    sep(b);
                    hudi_buf_printf(b, "%s: ", path.data ? path.data : c->name);
                    type_text(b, o);
                    hudi_buf_puts(b, " -> ");
                    type_text(b, c);
                }
                if (!same_text(o->comment, c->comment)) {
                    sep(b);
                    hudi_buf_printf(b, "comment of %s", path.data ? path.data : c->name);
                }
                if (c->nullable && !o->nullable) {
                    sep(b);
                    hudi_buf_printf(b, "optional: %s", path.data ? path.data : c->name);
                }
                /* moved: both of its neighbours among the columns the two versions share
                 * differ (a move changes them; its old and new neighbours keep one each) - but
                 * not the column a just-moved one was put in front of (a swap is one move) */
                const hudi_field *op = parent_of(&old->root, c->field_id);
                int32_t oi = op ? child_index(op, c->field_id) : -1;
                if (f->type == HUDI_TYPE_STRUCT && oi >= 0) {
                    int32_t prev = common_neighbour(f, i, -1, old);
                    int32_t old_next = common_neighbour(op, oi, 1, nw);
                    if (prev != common_neighbour(op, oi, -1, nw) &&
                        common_neighbour(f, i, 1, old) != old_next &&
                        !(prev >= 0 && prev == last_moved && old_next == prev)) {
                        sep(b);
                        hudi_buf_printf(b, "moved %s", path.data ? path.data : c->name);
                        last_moved = c->field_id;
                    }
                }
            }
            hudi_buf_dispose(&path);
            hudi_buf_dispose(&opath);
        }
        describe_new(b, old, nw, c);
    }
}

static void describe_dropped(hudi_buf *b, const hudi_ischema *old, const hudi_ischema *nw,
                             const hudi_field *f) {
    for (int32_t i = 0; i < f->n_children; i++) {
        const hudi_field *c = &f->children[i];
        if (c->field_id >= 0 && !hudi_ischema_find_id(nw, c->field_id, NULL)) {
            hudi_buf path = HUDI_BUF_INIT;
            hudi_ischema_find_id(old, c->field_id, &path);
            sep(b);
            hudi_buf_printf(b, "dropped %s", path.data ? path.data : c->name);
            hudi_buf_dispose(&path);
            continue; /* its nested columns went with it */
        }
        describe_dropped(b, old, nw, c);
    }
}

static int show_schema_history(hudi_sql_session *s, hudi_sql_result *r, const proc *p,
                               const args *a, hudi_error *err) {
    hudi_table *t;
    int rc = open_arg_table(s, r, a, 0, 1, &t, err);
    if (rc < 0) return rc;
    int64_t limit = arg_int(a, 2, 100);
    hudi_ischema_history h = {0};
    hudi_ischema current = {0};
    if ((rc = hudi_schema_history_load(&h, t, err)) < 0) return rc;
    if (h.count == 0) {
        /* schema on write: the table schema of the latest commit, ids as Hudi would give */
        hudi_schema_view *v = NULL;
        if ((rc = hudi_schema_view_open(&v, t, NULL, err)) < 0) return rc;
        const hudi_field *ts = hudi_schema_view_table(v);
        if (ts) rc = hudi_ischema_from_field(&current, ts, 0, err);
        hudi_schema_view_free(v);
        if (rc < 0) return rc;
    }
    hudi_sql_rows w;
    const char *cols[] = {"version_id", "max_column_id", "column_count", "changes", "schema"};
    const hudi_type_id ty[] = {HUDI_TYPE_STRING, HUDI_TYPE_INT32, HUDI_TYPE_INT32, HUDI_TYPE_STRING,
                               HUDI_TYPE_STRING};
    if ((rc = hudi_sql_rows_begin(&w, r, 5, cols, ty, err)) < 0) goto out;
    size_t n = h.count ? h.count : (current.root.type == HUDI_TYPE_STRUCT ? 1 : 0);
    for (size_t i = 0; i < n && (int64_t)i < limit; i++) {
        const hudi_ischema *cur = h.count ? &h.items[i] : &current;
        hudi_buf json = HUDI_BUF_INIT, changes = HUDI_BUF_INIT;
        char ver[32];
        snprintf(ver, sizeof(ver), "%lld", (long long)cur->version_id);
        if ((rc = hudi_ischema_write(&json, cur, err)) == 0) {
            if (!h.count) {
                hudi_buf_puts(&changes, "no schema history (schema on write)");
            } else if (i + 1 < h.count) {
                describe_new(&changes, &h.items[i + 1], cur, &cur->root);
                describe_dropped(&changes, &h.items[i + 1], cur, &h.items[i + 1].root);
            }
            if (hudi_buf_failed(&changes)) rc = oom(err);
        }
        if (rc == 0) {
            hudi_sql_rows_str(&w, 0, h.count ? ver : "");
            hudi_sql_rows_i64(&w, 1, cur->max_column_id);
            hudi_sql_rows_i64(&w, 2, cur->root.n_children);
            hudi_sql_rows_str(&w, 3, changes.data ? changes.data : "");
            hudi_sql_rows_str(&w, 4, json.data ? json.data : "");
            hudi_sql_rows_end(&w);
        }
        hudi_buf_dispose(&json);
        hudi_buf_dispose(&changes);
        if (rc < 0) break;
    }
    if (rc < 0)
        hudi_sql_rows_abort(&w);
    else
        rc = hudi_sql_rows_finish(&w, err);
out:
    hudi_ischema_history_dispose(&h);
    hudi_ischema_dispose(&current);
    HUDI_UNUSED(p);
    return rc;
}

/* ---- show_table_properties --------------------------------------------------------------- */

static int show_table_properties(hudi_sql_session *s, hudi_sql_result *r, const proc *p,
                                 const args *a, hudi_error *err) {
    hudi_table *t;
    int rc = open_arg_table(s, r, a, 0, 1, &t, err);
    if (rc < 0) return rc;
    int64_t limit = arg_int(a, 2, 10);
    hudi_sql_rows w;
    const char *cols[] = {"key", "value"};
    const hudi_type_id ty[] = {HUDI_TYPE_STRING, HUDI_TYPE_STRING};
    if ((rc = hudi_sql_rows_begin(&w, r, 2, cols, ty, err)) < 0) return rc;
    for (size_t i = 0; i < t->props.count && (int64_t)i < limit; i++) {
        hudi_sql_rows_str(&w, 0, t->props.items[i].key);
        hudi_sql_rows_str(&w, 1, t->props.items[i].value);
        hudi_sql_rows_end(&w);
    }
    HUDI_UNUSED(p);
    return hudi_sql_rows_finish(&w, err);
}

/* ---- run_clean --------------------------------------------------------------------------- */

static const hudi_instant *last_clean(const hudi_timeline *tl) {
    const hudi_instant *found = NULL;
    for (size_t i = 0; i < tl->count; i++)
        if (tl->instants[i].action == HUDI_ACTION_CLEAN &&
            tl->instants[i].state == HUDI_STATE_COMPLETED)
            found = &tl->instants[i];
    return found;
}

static int run_clean(hudi_sql_session *s, hudi_sql_result *r, const proc *p, const args *a,
                     hudi_error *err) {
    hudi_table *t;
    int rc = open_arg_table(s, r, a, 0, -1, &t, err);
    if (rc < 0) return rc;
    const char *policy = a->v[3];
    if (policy && strcasecmp(policy, "KEEP_LATEST_COMMITS") != 0)
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "run_clean: clean_policy %s is not supported yet (only "
                              "KEEP_LATEST_COMMITS)",
                              policy);
    if (a->v[5] || a->v[6])
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "run_clean: hours_retained and file_versions_retained are not "
                              "supported yet (KEEP_LATEST_COMMITS with retain_commits)");
    int64_t retain = arg_int(a, 4, 10);
    if (retain < 1 || retain > INT32_MAX)
        return hudi_error_set(err, HUDI_ESQL, "run_clean: retain_commits must be at least 1");
    char before[HUDI_INSTANT_TIME_MAX] = "";
    const hudi_instant *lc = last_clean(t->timeline);
    if (lc) snprintf(before, sizeof(before), "%s", lc->time);
    if ((rc = hudi_tbl_clean(t, (int32_t)retain, NULL, err)) < 0) return rc;
    if ((rc = hudi_tbl_reload(t, err)) < 0) return rc;
    hudi_sql_rows w;
    const char *cols[] = {"start_clean_time",        "time_taken_in_millis",
                          "total_files_deleted",     "earliest_commit_to_retain",
                          "bootstrap_part_metadata", "version"};
    const hudi_type_id ty[] = {HUDI_TYPE_STRING, HUDI_TYPE_INT64,  HUDI_TYPE_INT32,
                               HUDI_TYPE_STRING, HUDI_TYPE_STRING, HUDI_TYPE_INT32};
    if ((rc = hudi_sql_rows_begin(&w, r, 6, cols, ty, err)) < 0) return rc;
    lc = last_clean(t->timeline);
    if (lc && strcmp(lc->time, before) != 0) { /* a clean happened: one row */
        hudi_buf json = HUDI_BUF_INIT;
        rc = hudi_timeline_read_json(&json, t->timeline, lc, err);
        json_error_t jerr;
        memset(&jerr, 0, sizeof(jerr));
        json_t *root = rc == 0 ? json_loadb(json.data ? json.data : "", json.len, 0, &jerr) : NULL;
        if (rc == 0 && !json_is_object(root))
            rc = hudi_error_set(err, HUDI_ECORRUPT, "%s: not clean metadata", lc->file);
        if (rc == 0) {
            json_t *bm = json_object_get(root, "bootstrapPartitionMetadata");
            char *bms = bm && !json_is_null(bm) ? json_dumps(bm, JSON_COMPACT) : NULL;
            json_t *v;
            hudi_sql_rows_str(&w, 0, json_string_value(json_object_get(root, "startCleanTime")));
            v = json_object_get(root, "timeTakenInMillis");
            hudi_sql_rows_i64(&w, 1, json_is_integer(v) ? json_integer_value(v) : 0);
            v = json_object_get(root, "totalFilesDeleted");
            hudi_sql_rows_i64(&w, 2, json_is_integer(v) ? json_integer_value(v) : 0);
            hudi_sql_rows_str(&w, 3,
                              json_string_value(json_object_get(root, "earliestCommitToRetain")));
            hudi_sql_rows_str(&w, 4, bms ? bms : "{}");
            v = json_object_get(root, "version");
            hudi_sql_rows_i64(&w, 5, json_is_integer(v) ? json_integer_value(v) : 0);
            hudi_sql_rows_end(&w);
            if (bms) {
                json_free_t fr;
                json_malloc_t ma;
                json_get_alloc_funcs(&ma, &fr);
                fr(bms);
            }
        }
        json_decref(root);
        hudi_buf_dispose(&json);
    }
    HUDI_UNUSED(p);
    if (rc < 0) {
        hudi_sql_rows_abort(&w);
        return rc;
    }
    return hudi_sql_rows_finish(&w, err);
}

/* ---- show_fs_path_detail ----------------------------------------------------------------- */

typedef struct usage {
    int64_t dirs, files, bytes;
} usage;

static int du(hudi_fs *fs, const char *path, usage *u, hudi_error *err) {
    hudi_stat st;
    int rc = hudi_fs_stat(fs, path, &st, err);
    if (rc < 0) return rc;
    if (!st.is_dir) {
        u->files++;
        u->bytes += st.size_bytes;
        return 0;
    }
    u->dirs++;
    hudi_dir_listing l = {0};
    if ((rc = hudi_fs_list(fs, path, &l, err)) < 0) return rc;
    for (size_t i = 0; rc == 0 && i < l.count; i++) {
        hudi_buf c = HUDI_BUF_INIT;
        hudi_path_join(&c, path, l.entries[i].name);
        rc = hudi_buf_failed(&c) ? oom(err) : du(fs, c.data, u, err);
        hudi_buf_dispose(&c);
    }
    hudi_dir_listing_dispose(&l);
    return rc;
}

/* Hudi's unit rendering (ShowFsPathDetailProcedure): bytes as an integer ("307B"), larger sizes
 * with two decimals ("848.73KB"). */
static void human_size(char *out, size_t cap, int64_t bytes) {
    static const char *const units[] = {"B", "KB", "MB", "GB", "TB", "PB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024 && u < 5) {
        v /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(out, cap, "%lldB", (long long)bytes);
    else
        snprintf(out, cap, "%.2f%s", v, units[u]);
}

typedef struct fs_row {
    char *path;
    usage u;
} fs_row;

static int cmp_fs_row(const void *a, const void *b) {
    const fs_row *x = a, *y = b;
    return (x->u.bytes < y->u.bytes) - (x->u.bytes > y->u.bytes); /* largest first */
}

static int show_fs_path_detail(hudi_sql_session *s, hudi_sql_result *r, const proc *p,
                               const args *a, hudi_error *err) {
    const char *path = a->v[0];
    bool is_sub = arg_bool(a, 1), sort = a->v[2] ? arg_bool(a, 2) : true;
    int64_t limit = arg_int(a, 3, 100);
    hudi_vec rows = HUDI_VEC_INIT(fs_row);
    int rc = 0;
    if (is_sub) {
        hudi_dir_listing l = {0};
        if ((rc = hudi_fs_list(s->fs, path, &l, err)) < 0) return rc;
        for (size_t i = 0; rc == 0 && i < l.count; i++) {
            fs_row *fr = hudi_vec_push(&rows);
            hudi_buf c = HUDI_BUF_INIT;
            hudi_path_join(&c, path, l.entries[i].name);
            if (!fr || hudi_buf_failed(&c)) {
                hudi_buf_dispose(&c);
                rc = oom(err);
                break;
            }
            fr->path = hudi_arena_strdup(&r->arena, c.data);
            hudi_buf_dispose(&c);
            rc = fr->path ? du(s->fs, fr->path, &fr->u, err) : oom(err);
        }
        hudi_dir_listing_dispose(&l);
    } else {
        fs_row *fr = hudi_vec_push(&rows);
        if (!fr) return oom(err);
        fr->path = (char *)path;
        rc = du(s->fs, path, &fr->u, err);
    }
    if (rc == 0 && sort && rows.len > 1) qsort(rows.data, rows.len, sizeof(fs_row), cmp_fs_row);
    hudi_sql_rows w;
    const char *cols[] = {"path_num",     "file_num",       "storage_size", "storage_size(unit)",
                          "storage_path", "space_consumed", "quota",        "space_quota"};
    const hudi_type_id ty[] = {HUDI_TYPE_INT64,  HUDI_TYPE_INT64, HUDI_TYPE_INT64, HUDI_TYPE_STRING,
                               HUDI_TYPE_STRING, HUDI_TYPE_INT64, HUDI_TYPE_INT64, HUDI_TYPE_INT64};
    if (rc == 0) rc = hudi_sql_rows_begin(&w, r, 8, cols, ty, err);
    for (size_t i = 0; rc == 0 && i < rows.len && (int64_t)i < limit; i++) {
        const fs_row *fr = &hudi_vec_at(&rows, fs_row, i);
        char hs[32];
        human_size(hs, sizeof(hs), fr->u.bytes);
        hudi_sql_rows_i64(&w, 0, fr->u.dirs);
        hudi_sql_rows_i64(&w, 1, fr->u.files);
        hudi_sql_rows_i64(&w, 2, fr->u.bytes);
        hudi_sql_rows_str(&w, 3, hs);
        size_t sl = strlen(fr->path) + 6;
        char *shown = hudi_arena_alloc(&r->arena, sl);
        if (shown) snprintf(shown, sl, "file:%s", fr->path);
        hudi_sql_rows_str(&w, 4, shown ? shown : fr->path);
        /* a local file system has no quotas; Hudi fills space_consumed with the quota and
         * quota with the space consumed (a swap in ShowFsPathDetailProcedure) */
        hudi_sql_rows_i64(&w, 5, -1);
        hudi_sql_rows_i64(&w, 6, fr->u.bytes);
        hudi_sql_rows_i64(&w, 7, -1);
        hudi_sql_rows_end(&w);
    }
    hudi_vec_dispose(&rows);
    HUDI_UNUSED(p);
    if (rc < 0) return rc;
    return hudi_sql_rows_finish(&w, err);
}

/* ---- rollback_to_instant ----------------------------------------------------------------- */

static int rollback_to_instant(hudi_sql_session *s, hudi_sql_result *r, const proc *p,
                               const args *a, hudi_error *err) {
    hudi_table *t;
    int rc = open_arg_table(s, r, a, 0, -1, &t, err);
    if (rc < 0) return rc;
    if ((rc = hudi_tbl_rollback_commit(t, a->v[1], NULL, err)) < 0) return rc;
    hudi_sql_rows w;
    const char *cols[] = {"rollback_result"};
    const hudi_type_id ty[] = {HUDI_TYPE_BOOL};
    if ((rc = hudi_sql_rows_begin(&w, r, 1, cols, ty, err)) < 0) return rc;
    hudi_sql_rows_bool(&w, 0, true);
    hudi_sql_rows_end(&w);
    HUDI_UNUSED(p);
    return hudi_sql_rows_finish(&w, err);
}

/* ---- savepoints --------------------------------------------------------------------------- */

static int bool_row(hudi_sql_result *r, const char *col, hudi_error *err) {
    hudi_sql_rows w;
    const char *cols[] = {col};
    const hudi_type_id ty[] = {HUDI_TYPE_BOOL};
    int rc = hudi_sql_rows_begin(&w, r, 1, cols, ty, err);
    if (rc < 0) return rc;
    hudi_sql_rows_bool(&w, 0, true);
    hudi_sql_rows_end(&w);
    return hudi_sql_rows_finish(&w, err);
}

static int create_savepoint(hudi_sql_session *s, hudi_sql_result *r, const proc *p, const args *a,
                            hudi_error *err) {
    hudi_table *t;
    int rc = open_arg_table(s, r, a, 0, 4, &t, err);
    if (rc < 0) return rc;
    const char *instant = a->v[1];
    if (!instant || !*instant) { /* later Hudi versions: the latest completed commit */
        const hudi_instant *last = hudi_timeline_last_completed_commit(t->timeline);
        if (!last) return hudi_error_set(err, HUDI_ENOTFOUND, "the table has no commit");
        /* a copy: the savepoint reloads the timeline */
        if (!(instant = hudi_arena_strdup(&r->arena, last->time))) return oom(err);
    }
    if ((rc = hudi_tbl_savepoint_create(t, instant, a->v[2], a->v[3], NULL, err)) < 0) return rc;
    HUDI_UNUSED(p);
    return bool_row(r, "create_savepoint_result", err);
}

static int show_savepoints(hudi_sql_session *s, hudi_sql_result *r, const proc *p, const args *a,
                           hudi_error *err) {
    hudi_table *t;
    int rc = open_arg_table(s, r, a, 0, 1, &t, err);
    if (rc < 0) return rc;
    char **times = NULL;
    size_t n = 0;
    if ((rc = hudi_tbl_savepoints(t, &times, &n, err)) < 0) return rc;
    hudi_sql_rows w;
    const char *cols[] = {"savepoint_time"};
    const hudi_type_id ty[] = {HUDI_TYPE_STRING};
    rc = hudi_sql_rows_begin(&w, r, 1, cols, ty, err);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        hudi_sql_rows_str(&w, 0, times[i]);
        hudi_sql_rows_end(&w);
    }
    for (size_t i = 0; i < n; i++) hudi_free(times[i]);
    hudi_free(times);
    HUDI_UNUSED(p);
    return rc < 0 ? rc : hudi_sql_rows_finish(&w, err);
}

static int delete_savepoint(hudi_sql_session *s, hudi_sql_result *r, const proc *p, const args *a,
                            hudi_error *err) {
    hudi_table *t;
    int rc = open_arg_table(s, r, a, 0, 2, &t, err);
    if (rc < 0) return rc;
    if ((rc = hudi_tbl_savepoint_delete(t, a->v[1], err)) < 0) return rc;
    HUDI_UNUSED(p);
    return bool_row(r, "delete_savepoint_result", err);
}

static int rollback_to_savepoint(hudi_sql_session *s, hudi_sql_result *r, const proc *p,
                                 const args *a, hudi_error *err) {
    hudi_table *t;
    int rc = open_arg_table(s, r, a, 0, 2, &t, err);
    if (rc < 0) return rc;
    const char *instant = a->v[1];
    char **times = NULL;
    size_t n = 0;
    if (!instant || !*instant) { /* later Hudi versions: the latest savepoint */
        if ((rc = hudi_tbl_savepoints(t, &times, &n, err)) < 0) return rc;
        if (n == 0) {
            hudi_free(times);
            return hudi_error_set(err, HUDI_ENOTFOUND, "the table has no savepoint");
        }
        instant = hudi_arena_strdup(&r->arena, times[0]);
        for (size_t i = 0; i < n; i++) hudi_free(times[i]);
        hudi_free(times);
        if (!instant) return oom(err);
    }
    if ((rc = hudi_tbl_restore_savepoint(t, instant, NULL, err)) < 0) return rc;
    HUDI_UNUSED(p);
    return bool_row(r, "rollback_savepoint_result", err);
}

/* ---- run_compaction / show_compaction (RunCompactionProcedure, ShowCompactionProcedure) ----- */

/* The compaction instants, oldest first (arena copies): the pending ones, or with `all` also
 * those that completed (a commit whose compaction.requested is on the timeline). */
static int compactions(hudi_sql_result *r, const hudi_table *t, bool all, const char ***out,
                       size_t *n, hudi_error *err) {
    const hudi_timeline *tl = t->timeline;
    *n = 0;
    if (!(*out = hudi_arena_alloc(&r->arena, (tl->count + 1) * sizeof(char *)))) return oom(err);
    for (size_t i = 0; i < tl->count; i++) {
        const hudi_instant *in = &tl->instants[i];
        if (in->action != HUDI_ACTION_COMPACTION ||
            (!all && !hudi_compaction_is_pending(tl, in->time)) ||
            (*n && strcmp((*out)[*n - 1], in->time) == 0))
            continue;
        if (!((*out)[(*n)++] = hudi_arena_strdup(&r->arena, in->time))) return oom(err);
    }
    return 0;
}

/* Rows (timestamp, operation_size, state) of `times`, newest first: the state of each instant
 * as the timeline holds it (a compaction that ran is its COMPLETED commit). */
static int compaction_rows(hudi_sql_result *r, hudi_table *t, const char **times, size_t n,
                           hudi_error *err) {
    hudi_sql_rows w;
    const char *cols[] = {"timestamp", "operation_size", "state"};
    const hudi_type_id ty[] = {HUDI_TYPE_STRING, HUDI_TYPE_INT32, HUDI_TYPE_STRING};
    int rc = hudi_sql_rows_begin(&w, r, 3, cols, ty, err);
    for (size_t i = n; rc == 0 && i-- > 0;) {
        const hudi_instant *in = NULL;
        hudi_compaction_plan plan;
        if ((rc = hudi_timeline_find(&in, t->timeline, times[i], err)) < 0 ||
            (rc = hudi_compaction_plan_read(&plan, t->timeline, times[i], err)) < 0)
            break;
        hudi_sql_rows_str(&w, 0, times[i]);
        hudi_sql_rows_i64(&w, 1, (int64_t)plan.count);
        hudi_sql_rows_str(&w, 2, hudi_state_name(in->state));
        hudi_sql_rows_end(&w);
        hudi_compaction_plan_dispose(&plan);
    }
    return rc < 0 ? rc : hudi_sql_rows_finish(&w, err);
}

static int cmp_time(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool key_is(const char *o, size_t klen, const char *key) {
    return klen == strlen(key) && strncmp(o, key, klen) == 0;
}

/* op: schedule (a new plan), execute (the given instants, else every pending one) or
 * scheduleAndExecute (`run`: a new plan and run it; with none, every pending one). A timestamp
 * means execute it. Scheduling follows Hudi's trigger (NUM_COMMITS): a plan only once
 * hoodie.compact.inline.max.delta.commits deltacommits (default 5) followed the latest
 * compaction request. Options: that key (and the metadata-table / timeline-server keys, which
 * do not apply to hudic); others are refused. */
static int run_compaction(hudi_sql_session *s, hudi_sql_result *r, const proc *p, const args *a,
                          hudi_error *err) {
    HUDI_UNUSED(p);
    const char *op = a->v[0], *wanted = a->v[5];
    /* the trigger (NUM_COMMITS): options, then SET, then hoodie.properties, then 5 */
    const char *max = hudi_sql_conf_get(s, "hoodie.compact.inline.max.delta.commits");
    for (const char *o = a->v[4]; o && *o;) {
        size_t len = strcspn(o, ","), klen = strcspn(o, "=");
        if (klen < len && key_is(o, klen, "hoodie.compact.inline.max.delta.commits")) {
            if (!(max = hudi_arena_strndup(&r->arena, o + klen + 1, len - klen - 1)))
                return oom(err);
        } else if (!(klen < len && (key_is(o, klen, "hoodie.metadata.enable") ||
                                    key_is(o, klen, "hoodie.embed.timeline.server")))) {
            return hudi_error_set(err, HUDI_EUNSUPPORTED,
                                  "run_compaction: option '%.*s' is not supported", (int)len, o);
        }
        o += len + (o[len] == ',');
    }
    if (strcasecmp(op, "run") == 0) op = "scheduleandexecute";
    if (a->v[3] && !wanted) {
        wanted = a->v[3];
        op = "execute";
    }
    bool sched = strcasecmp(op, "schedule") == 0 || strcasecmp(op, "scheduleandexecute") == 0;
    bool exec = strcasecmp(op, "execute") == 0 || strcasecmp(op, "scheduleandexecute") == 0;
    if (!sched && !exec) return hudi_error_set(err, HUDI_ESQL, "Invalid value (%s)", op);
    hudi_table *t;
    const char *const *settings = NULL;
    int rc = open_arg_table_ex(s, r, a, 1, 2, &t, &settings, err);
    if (rc < 0) return rc;
    if (t->cfg.type != HUDI_MERGE_ON_READ)
        return hudi_error_set(err, HUDI_EINVAL, "%s: compaction needs a merge-on-read table",
                              t->base_path);
    const char **todo = NULL;
    size_t n = 0;
    if ((rc = compactions(r, t, false, &todo, &n, err)) < 0) return rc;
    if (wanted) {
        if (strcasecmp(op, "execute") != 0)
            return hudi_error_set(err, HUDI_ESQL,
                                  "specific instants only can be used in 'execute' op or not "
                                  "specific op");
        const char **pending = todo;
        size_t np = n, cap = strlen(wanted) / 2 + 2;
        if (!(todo = hudi_arena_alloc(&r->arena, cap * sizeof(char *)))) return oom(err);
        n = 0;
        for (const char *q = wanted; *q;) {
            size_t len = strcspn(q, ",");
            char *one = hudi_arena_strndup(&r->arena, q, len);
            if (!one) return oom(err);
            bool found = false;
            for (size_t i = 0; i < np && !found; i++) found = strcmp(pending[i], one) == 0;
            if (!found)
                return hudi_error_set(err, HUDI_ENOTFOUND, "specific %s instants is not exist",
                                      one);
            if (n < cap) todo[n++] = one;
            q += len + (q[len] == ',');
        }
        qsort(todo, n, sizeof(char *), cmp_time);
    } else if (a->v[6]) {
        int64_t limit = arg_int(a, 6, 0);
        if (limit >= 0 && (size_t)limit < n) n = (size_t)limit;
    }
    if (!max) max = hudi_props_get(&t->props, "hoodie.compact.inline.max.delta.commits");
    int64_t max_n = max ? strtoll(max, NULL, 10) : 5;
    if (sched && hudi_write_inline_compaction_due(t->timeline, max_n < 1 ? 1 : max_n) > 0) {
        char instant[32] = "";
        if ((rc = hudi_tbl_compact_schedule(t, NULL, instant, err)) < 0) return rc;
        if (rc > 0) {
            if (!(todo[0] = hudi_arena_strdup(&r->arena, instant))) return oom(err);
            n = 1;
        }
    }
    for (size_t i = 0; exec && i < n; i++)
        if ((rc = hudi_tbl_compact_run_with(t, todo[i], settings, NULL, err)) < 0) return rc;
    if ((rc = hudi_tbl_reload(t, err)) < 0) return rc;
    return compaction_rows(r, t, todo, n, err);
}

/* The compactions, pending and completed (as Spark with Hudi 0.15 lists them), newest first. */
static int show_compaction(hudi_sql_session *s, hudi_sql_result *r, const proc *p, const args *a,
                           hudi_error *err) {
    HUDI_UNUSED(p);
    hudi_table *t;
    int rc = open_arg_table(s, r, a, 0, 1, &t, err);
    if (rc < 0) return rc;
    if (t->cfg.type != HUDI_MERGE_ON_READ)
        return hudi_error_set(err, HUDI_EINVAL,
                              "Cannot show compaction on a Non Merge On Read table.");
    const char **times = NULL;
    size_t n = 0;
    if ((rc = compactions(r, t, true, &times, &n, err)) < 0) return rc;
    int64_t limit = arg_int(a, 2, 20);
    if (limit >= 0 && (size_t)limit < n) {
        times += n - (size_t)limit;
        n = (size_t)limit;
    }
    return compaction_rows(r, t, times, n, err);
}

/* ---- clustering ----------------------------------------------------------------------------- */

/* Rows of ShowClusteringProcedure / RunClusteringProcedure: timestamp, input_group_size, state,
 * involved_partitions ("*" unless asked), newest first; `only` (n of them) restricts the
 * instants (NULL: every clustering, at most `limit`). Replacecommits that are not clusterings
 * (insert overwrite, delete partition) are left out. */
static int clustering_rows(hudi_sql_result *r, hudi_table *t, char **only, size_t n_only,
                           int64_t limit, bool show_parts, hudi_error *err) {
    hudi_sql_rows w;
    const char *cols[] = {"timestamp", "input_group_size", "state", "involved_partitions"};
    const hudi_type_id ty[] = {HUDI_TYPE_STRING, HUDI_TYPE_INT32, HUDI_TYPE_STRING,
                               HUDI_TYPE_STRING};
    int rc = hudi_sql_rows_begin(&w, r, 4, cols, ty, err);
    const hudi_timeline *tl = t->timeline;
    hudi_buf parts = HUDI_BUF_INIT;
    int64_t shown = 0;
    for (size_t i = tl->count; rc == 0 && i-- > 0 && (only || shown < limit);) {
        const hudi_instant *in = &tl->instants[i];
        const hudi_instant *latest = NULL;
        if (in->action != HUDI_ACTION_REPLACECOMMIT ||
            hudi_timeline_find(&latest, tl, in->time, NULL) < 0 || latest != in)
            continue; /* one row per instant, in its latest state */
        bool wanted = !only;
        for (size_t k = 0; k < n_only; k++) wanted |= strcmp(only[k], in->time) == 0;
        hudi_cluster_plan *plan = NULL;
        if (!wanted || hudi_cluster_plan_read(&plan, tl, in->time, NULL) < 0) continue;
        hudi_buf_clear(&parts);
        for (size_t g = 0; show_parts && g < plan->n_groups; g++)
            for (size_t k = 0; k < plan->groups[g].n_slices; k++) {
                const char *pp = plan->groups[g].slices[k].partition;
                bool seen = false; /* a set, as HoodieCLIUtils.extractPartitions */
                for (const char *q = parts.data; q && *q && !seen;) {
                    const char *e = strchr(q, ',');
                    size_t l = e ? (size_t)(e - q) : strlen(q);
                    seen = strlen(pp) == l && strncmp(q, pp, l) == 0;
                    q = e ? e + 1 : q + l;
                }
                if (seen) continue;
                if (parts.len) hudi_buf_putc(&parts, ',');
                hudi_buf_puts(&parts, pp);
            }
        if (hudi_buf_failed(&parts)) rc = oom(err);
        hudi_sql_rows_str(&w, 0, in->time);
        hudi_sql_rows_i64(&w, 1, (int64_t)plan->n_groups);
        hudi_sql_rows_str(&w, 2, hudi_state_name(in->state));
        hudi_sql_rows_str(&w, 3, show_parts ? (parts.data ? parts.data : "") : "*");
        hudi_sql_rows_end(&w);
        hudi_cluster_plan_free(plan);
        shown++;
    }
    hudi_buf_dispose(&parts);
    if (rc < 0) {
        hudi_sql_rows_abort(&w);
        return rc;
    }
    return hudi_sql_rows_finish(&w, err);
}

static int show_clustering(hudi_sql_session *s, hudi_sql_result *r, const proc *p, const args *a,
                           hudi_error *err) {
    hudi_table *t;
    int rc = open_arg_table(s, r, a, 0, 1, &t, err);
    if (rc < 0) return rc;
    HUDI_UNUSED(p);
    return clustering_rows(r, t, NULL, 0, arg_int(a, 2, 20), arg_bool(a, 3), err);
}

/* Splits "a,b,c" into arena strings (empty items dropped). */
static int split_list(hudi_sql_result *r, const char *text, char ***out, size_t *n,
                      hudi_error *err) {
    *out = NULL;
    *n = 0;
    size_t cap = 1;
    for (const char *q = text; *q; q++) cap += *q == ',';
    char **v = hudi_arena_alloc(&r->arena, cap * sizeof(char *));
    if (!v) return oom(err);
    for (const char *q = text; *q;) {
        const char *e = strchr(q, ',');
        size_t l = e ? (size_t)(e - q) : strlen(q);
        const char *b = q;
        while (l && *b == ' ') b++, l--;
        while (l && b[l - 1] == ' ') l--;
        if (l && !(v[(*n)++] = hudi_arena_strndup(&r->arena, b, l))) return oom(err);
        q = e ? e + 1 : q + strlen(q);
    }
    *out = v;
    return 0;
}

static int cmp_strp(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One "k=v" of run_clustering's options into `o` (HoodieClusteringConfig keys). */
static int cluster_option(hudi_cluster_options *o, hudi_sql_result *r, const char *kv,
                          hudi_error *err) {
    const char *eq = strchr(kv, '=');
    if (!eq) return hudi_error_set(err, HUDI_ESQL, "run_clustering: option '%s' is not k=v", kv);
    char *k = hudi_arena_strndup(&r->arena, kv, (size_t)(eq - kv));
    const char *v = eq + 1;
    if (!k) return oom(err);
    const char *pre = "hoodie.clustering.plan.strategy.";
    size_t pl = strlen(pre);
    char *end = NULL;
    long long num = strtoll(v, &end, 10);
    bool is_num = *v && end && !*end;
    if (strncmp(k, pre, pl) == 0) {
        const char *f = k + pl;
        if (strcmp(f, "sort.columns") == 0) {
            o->sort_columns = v;
            return 0;
        }
        if (strcmp(f, "single.group.clustering.enabled") == 0) {
            o->no_single_group = strcasecmp(v, "false") == 0;
            return 0;
        }
        int64_t *dst = strcmp(f, "small.file.limit") == 0        ? &o->small_file_limit
                       : strcmp(f, "target.file.max.bytes") == 0 ? &o->target_file_max_bytes
                       : strcmp(f, "max.bytes.per.group") == 0   ? &o->max_bytes_per_group
                                                                 : NULL;
        if (dst && is_num && num > 0) {
            *dst = num;
            return 0;
        }
        if (strcmp(f, "max.num.groups") == 0 && is_num && num > 0 && num <= INT32_MAX) {
            o->max_num_groups = (int32_t)num;
            return 0;
        }
        if (strcmp(f, "class") == 0 && strstr(v, "SparkSizeBasedClusteringPlanStrategy")) return 0;
        if (dst || strcmp(f, "max.num.groups") == 0)
            return hudi_error_set(err, HUDI_ESQL, "run_clustering: option %s: bad value '%s'", k,
                                  v);
    }
    if (strcmp(k, "hoodie.clustering.execution.strategy.class") == 0 &&
        strstr(v, "SparkSortAndSizeExecutionStrategy"))
        return 0;
    return hudi_error_set(err, HUDI_EUNSUPPORTED, "run_clustering: option %s is not supported", k);
}

static int run_clustering(hudi_sql_session *s, hudi_sql_result *r, const proc *p, const args *a,
                          hudi_error *err) {
    hudi_table *t;
    hudi_cluster_options o;
    memset(&o, 0, sizeof(o));
    o.version = 1;
    const char *const *settings = NULL;
    int rc = open_arg_table_ex(s, r, a, 0, 1, &t, &settings, err);
    if (rc < 0) return rc;
    HUDI_UNUSED(p);
    if (bucket_index(settings)) /* as hudi_tbl_cluster_schedule refuses it for hoodie.properties */
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "run_clustering: clustering is not supported with the simple bucket "
                              "index (hoodie.index.type=BUCKET)");
    if (a->v[2])
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "run_clustering: predicate is not supported yet; use "
                              "selected_partitions");
    if (a->v[6] && strcasecmp(a->v[6], "linear") != 0)
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "run_clustering: order_strategy '%s' is not supported yet (linear "
                              "only)",
                              a->v[6]);
    char **list = NULL;
    size_t n_list = 0;
    if (a->v[7]) { /* options => 'k=v,k2=v2' */
        if ((rc = split_list(r, a->v[7], &list, &n_list, err)) < 0) return rc;
        for (size_t i = 0; i < n_list; i++)
            if ((rc = cluster_option(&o, r, list[i], err)) < 0) return rc;
    }
    if (a->v[3]) { /* order: columns of the table schema */
        hudi_field schema = {0};
        hudi_scan_options so = HUDI_SCAN_OPTIONS_INIT;
        if ((rc = hudi_read_table_schema(&schema, t, &so, err)) < 0) return rc;
        if ((rc = split_list(r, a->v[3], &list, &n_list, err)) < 0) {
            hudi_field_dispose(&schema);
            return rc;
        }
        for (size_t i = 0; rc == 0 && i < n_list; i++) {
            bool found = false;
            for (int32_t c = 0; c < schema.n_children; c++)
                found |= strcasecmp(schema.children[c].name, list[i]) == 0;
            if (!found)
                rc = hudi_error_set(err, HUDI_ENOTFOUND, "Order column not exist:%s", list[i]);
        }
        hudi_field_dispose(&schema);
        if (rc < 0) return rc;
        o.sort_columns = a->v[3];
    }
    if (a->v[9]) {
        if ((rc = split_list(r, a->v[9], &list, &n_list, err)) < 0) return rc;
        o.partitions = (const char *const *)list;
        o.n_partitions = (int32_t)n_list;
    }
    bool schedule = true, execute = true;
    char **pending = NULL, **run = NULL;
    size_t n_pending = 0, n_run = 0;
    if (a->v[5] && !a->v[8]) {
        if (strcasecmp(a->v[5], "schedule") == 0)
            execute = false;
        else if (strcasecmp(a->v[5], "execute") == 0)
            schedule = false;
        else if (strcasecmp(a->v[5], "scheduleAndExecute") != 0)
            return hudi_error_set(err, HUDI_ESQL, "run_clustering: unknown op '%s'", a->v[5]);
    }
    if ((rc = hudi_tbl_cluster_pending(t, &pending, &n_pending, err)) < 0) return rc;
    if (a->v[8]) { /* instants: execute those (pending ones only) */
        if (a->v[5] && strcasecmp(a->v[5], "execute") != 0)
            rc = hudi_error_set(err, HUDI_ESQL,
                                "specific instants only can be used in 'execute' op or not "
                                "specific op");
        if (rc == 0) rc = split_list(r, a->v[8], &run, &n_run, err);
        for (size_t i = 0; rc == 0 && i < n_run; i++) {
            bool found = false;
            for (size_t k = 0; k < n_pending; k++) found |= strcmp(pending[k], run[i]) == 0;
            if (!found)
                rc = hudi_error_set(err, HUDI_ENOTFOUND, "specific %s instants is not exist",
                                    run[i]);
        }
        if (rc == 0 && n_run > 1) qsort(run, n_run, sizeof(char *), cmp_strp);
        schedule = false;
    } else if (rc == 0) {
        if (!(run = hudi_arena_alloc(&r->arena, (n_pending + 1) * sizeof(char *)))) rc = oom(err);
        for (size_t k = 0; rc == 0 && k < n_pending; k++)
            if (!(run[n_run++] = hudi_arena_strdup(&r->arena, pending[k]))) rc = oom(err);
    }
    for (size_t k = 0; k < n_pending; k++) hudi_free(pending[k]);
    hudi_free(pending);
    if (rc < 0) return rc;
    if (schedule) {
        char instant[32];
        rc = hudi_tbl_cluster_schedule(t, &o, NULL, instant, err);
        if (rc < 0) return rc;
        if (rc > 0 && !(run[n_run++] = hudi_arena_strdup(&r->arena, instant))) return oom(err);
        if ((rc = hudi_tbl_reload(t, err)) < 0) return rc;
    }
    if (a->v[10] && arg_int(a, 10, 0) >= 0 && (size_t)arg_int(a, 10, 0) < n_run)
        n_run = (size_t)arg_int(a, 10, 0);
    for (size_t i = 0; execute && rc == 0 && i < n_run; i++)
        rc = hudi_tbl_cluster_execute(t, run[i], &o, err);
    if (rc == 0) rc = hudi_tbl_reload(t, err);
    if (rc < 0) return rc;
    return clustering_rows(r, t, run, n_run, INT64_MAX, arg_bool(a, 4), err);
}

static int help(hudi_sql_session *s, hudi_sql_result *r, const proc *p, const args *a,
                hudi_error *err);

/* Hudi 0.15's parameters (name, type, required, default) and output columns. */
static const proc procs[] = {
    {"create_savepoint",
     create_savepoint,
     {{"table", P_STR, false, NULL},
      {"commit_time", P_STR, false, NULL},
      {"user", P_STR, false, ""},
      {"comments", P_STR, false, ""},
      {"path", P_STR, false, NULL}},
     "create_savepoint_result boolean"},
    {"delete_savepoint",
     delete_savepoint,
     {{"table", P_STR, false, NULL},
      {"instant_time", P_STR, true, NULL},
      {"path", P_STR, false, NULL}},
     "delete_savepoint_result boolean"},
    {"help", help, {{"cmd", P_STR, false, NULL}}, "result string"},
    {"rollback_to_instant",
     rollback_to_instant,
     {{"table", P_STR, true, NULL}, {"instant_time", P_STR, true, NULL}},
     "rollback_result boolean"},
    {"rollback_to_savepoint",
     rollback_to_savepoint,
     {{"table", P_STR, false, NULL},
      {"instant_time", P_STR, false, NULL},
      {"path", P_STR, false, NULL}},
     "rollback_savepoint_result boolean"},
    {"run_clustering",
     run_clustering,
     {{"table", P_STR, false, NULL},
      {"path", P_STR, false, NULL},
      {"predicate", P_STR, false, NULL},
      {"order", P_STR, false, NULL},
      {"show_involved_partition", P_BOOL, false, "false"},
      {"op", P_STR, false, NULL},
      {"order_strategy", P_STR, false, NULL},
      {"options", P_STR, false, NULL},
      {"instants", P_STR, false, NULL},
      {"selected_partitions", P_STR, false, NULL},
      {"limit", P_INT, false, NULL}},
     "timestamp string, input_group_size integer, state string, involved_partitions string"},
    {"run_clean",
     run_clean,
     {{"table", P_STR, true, NULL},
      {"skip_locking", P_BOOL, false, "false"},
      {"schedule_in_line", P_BOOL, false, "true"},
      {"clean_policy", P_STR, false, NULL},
      {"retain_commits", P_INT, false, "10"},
      {"hours_retained", P_INT, false, NULL},
      {"file_versions_retained", P_INT, false, NULL},
      {"trigger_strategy", P_STR, false, NULL},
      {"trigger_max_commits", P_INT, false, NULL},
      {"options", P_STR, false, NULL}},
     "start_clean_time string, time_taken_in_millis long, total_files_deleted integer, "
     "earliest_commit_to_retain string, bootstrap_part_metadata string, version integer"},
    {"run_compaction",
     run_compaction,
     {{"op", P_STR, true, NULL},
      {"table", P_STR, false, NULL},
      {"path", P_STR, false, NULL},
      {"timestamp", P_INT, false, NULL},
      {"options", P_STR, false, NULL},
      {"instants", P_STR, false, NULL},
      {"limit", P_INT, false, NULL}},
     "timestamp string, operation_size integer, state string"},
    {"show_clustering",
     show_clustering,
     {{"table", P_STR, false, NULL},
      {"path", P_STR, false, NULL},
      {"limit", P_INT, false, "20"},
      {"show_involved_partition", P_BOOL, false, "false"}},
     "timestamp string, input_group_size integer, state string, involved_partitions string"},
    {"show_commit_files",
     show_commit_files,
     {{"table", P_STR, true, NULL},
      {"limit", P_INT, false, "10"},
      {"instant_time", P_STR, true, NULL}},
     "action string, partition_path string, file_id string, previous_commit string, "
     "total_records_updated long, total_records_written long, total_bytes_written long, "
     "total_errors long, file_size long"},
    {"show_commits",
     show_commits,
     {{"table", P_STR, true, NULL}, {"limit", P_INT, false, "10"}},
     "commit_time string, state_transition_time string, action string, total_bytes_written "
     "long, total_files_added long, total_files_updated long, total_partitions_written long, "
     "total_records_written long, total_update_records_written long, total_errors long"},
    {"show_compaction",
     show_compaction,
     {{"table", P_STR, false, NULL}, {"path", P_STR, false, NULL}, {"limit", P_INT, false, "20"}},
     "timestamp string, operation_size integer, state string"},
    {"show_fs_path_detail",
     show_fs_path_detail,
     {{"path", P_STR, true, NULL},
      {"is_sub", P_BOOL, false, "false"},
      {"sort", P_BOOL, false, "true"},
      {"limit", P_INT, false, "100"}},
     "path_num long, file_num long, storage_size long, storage_size(unit) string, "
     "storage_path string, space_consumed long, quota long, space_quota long"},
    {"show_savepoints",
     show_savepoints,
     {{"table", P_STR, false, NULL}, {"path", P_STR, false, NULL}},
     "savepoint_time string"},
    {"show_schema_history",
     show_schema_history,
     {{"table", P_STR, false, NULL}, {"path", P_STR, false, NULL}, {"limit", P_INT, false, "100"}},
     "version_id string, max_column_id integer, column_count integer, changes string, schema "
     "string"},
    {"show_table_properties",
     show_table_properties,
     {{"table", P_STR, false, NULL},
      {"path", P_STR, false, NULL},
      {"limit", P_INT, false, "10"},
      {"filter", P_STR, false, ""}},
     "key string, value string"},
};

static const char *type_word(ptype t) {
    return t == P_INT ? "integer" : t == P_BOOL ? "boolean" : "string";
}

static int help(hudi_sql_session *s, hudi_sql_result *r, const proc *p, const args *a,
                hudi_error *err) {
    HUDI_UNUSED(s);
    HUDI_UNUSED(p);
    hudi_buf b = HUDI_BUF_INIT;
    const char *cmd = a->v[0];
    if (!cmd || !*cmd) {
        hudi_buf_puts(&b, "procedures:");
        for (size_t i = 0; i < HUDI_ARRAY_LEN(procs); i++)
            hudi_buf_printf(&b, "\n  %s", procs[i].name);
        hudi_buf_puts(&b, "\nCALL help(cmd => 'name') shows one procedure's parameters.");
    } else {
        const proc *q = NULL;
        for (size_t i = 0; i < HUDI_ARRAY_LEN(procs); i++)
            if (strcasecmp(procs[i].name, cmd) == 0) q = &procs[i];
        if (!q) {
            hudi_buf_dispose(&b);
            return hudi_error_set(err, HUDI_ENOTFOUND, "Procedure %s not found", cmd);
        }
        /* HelpProcedure's layout: tab-led cells padded to 30 */
        hudi_buf_printf(&b, "parameters:\n\t%-30s\t%-30s\t%-30s\t%-30s\n", "param", "type_name",
                        "default_value", "required");
        for (int i = 0; i < MAX_PARAMS && q->params[i].name; i++)
            hudi_buf_printf(&b, "\t%-30s\t%-30s\t%-30s\t%-30s\n", q->params[i].name,
                            type_word(q->params[i].type),
                            q->params[i].dflt ? q->params[i].dflt : "null",
                            q->params[i].required ? "true" : "false");
        hudi_buf_printf(&b, "outputType:\n\t%-30s\t%-30s\t%-30s\t%-30s\n", "name", "type_name",
                        "nullable", "metadata");
        for (const char *o = q->outputs; *o;) {
            const char *end = strstr(o, ", ");
            size_t len = end ? (size_t)(end - o) : strlen(o);
            const char *sp = o + len;
            while (sp > o && sp[-1] != ' ') sp--;
            char name[64], type[32];
            snprintf(name, sizeof(name), "%.*s", (int)(sp > o ? sp - o - 1 : 0), o);
            snprintf(type, sizeof(type), "%.*s", (int)(o + len - sp), sp);
            hudi_buf_printf(&b, "\t%-30s\t%-30s\t%-30s\t%-30s\n", name, type, "true", "{}");
            o = end ? end + 2 : o + len;
        }
    }
    if (hudi_buf_failed(&b)) {
        hudi_buf_dispose(&b);
        return oom(err);
    }
    hudi_sql_rows w;
    const char *cols[] = {"result"};
    const hudi_type_id ty[] = {HUDI_TYPE_STRING};
    int rc = hudi_sql_rows_begin(&w, r, 1, cols, ty, err);
    if (rc == 0) {
        hudi_sql_rows_str(&w, 0, b.data);
        hudi_sql_rows_end(&w);
        rc = hudi_sql_rows_finish(&w, err);
    }
    hudi_buf_dispose(&b);
    return rc;
}

int hudi_sql_exec_call(hudi_sql_session *s, const hudi_sql_stmt *st, hudi_sql_result *r,
                       hudi_error *err) {
    uint32_t n = st->name.parts.len;
    if (n == 0 || n > 2) return hudi_error_set(err, HUDI_ESQL, "invalid procedure name");
    const char *name = HUDI_SQL_AT(st->name.parts, char, n - 1);
    const proc *p = NULL;
    for (size_t i = 0; i < HUDI_ARRAY_LEN(procs); i++)
        if (strcasecmp(procs[i].name, name) == 0) p = &procs[i];
    if (!p)
        return hudi_error_set(err, HUDI_ENOTFOUND, "line %u, column %u: Procedure %s not found",
                              st->name.pos.line, st->name.pos.col, name);
    args a;
    int rc = bind_args(r, st, p, &a, err);
    if (rc < 0) return rc;
    return p->fn(s, r, p, &a, err);
}
