/* conflict.c - optimistic concurrency control at commit time, as Hudi's
 * SimpleConcurrentFileWritesConflictResolutionStrategy (docs/formats/concurrency.md): the
 * candidates are the commits completed since this write started (every completed
 * commit/deltacommit/replacecommit that was not completed in the timeline the write planned
 * on); a candidate conflicts when it wrote or replaced a file group (partition, file id) this
 * write also wrote or replaced. The later committer fails with HUDI_ECONFLICT. A candidate that
 * changed the table schema conflicts too (an ALTER_SCHEMA commit always; any other when the
 * table schema or InternalSchema as of now differs from the one the write started from):
 * committing would lose that schema version. */
#include <stdio.h>
#include <stdlib.h>

#include "write/write_int.h"

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int hudi_occ_snapshot_take(hudi_occ_snapshot *s, hudi_table *t, hudi_error *err) {
    hudi_instant_list l = {0};
    int rc = hudi_timeline_completed_commits(&l, t->timeline, err);
    if (rc < 0) return rc;
    if (l.count && !(s->done = hudi_calloc(l.count, sizeof(char *)))) rc = hudi_error_oom(err);
    for (size_t i = 0; rc == 0 && i < l.count; i++) {
        if (!(s->done[i] = hudi_strdup(l.items[i]->time))) rc = hudi_error_oom(err);
        s->n_done = i + 1;
    }
    if (rc == 0 && s->n_done > 1) qsort(s->done, s->n_done, sizeof(char *), cmp_str);
    hudi_instant_list_dispose(&l);
    return rc;
}

void hudi_occ_snapshot_dispose(hudi_occ_snapshot *s) {
    hudi_write_free_strings(s->done, s->n_done);
    s->done = NULL;
    s->n_done = 0;
}

static bool was_done(const hudi_occ_snapshot *s, const char *time) {
    return s->n_done && bsearch(&time, s->done, s->n_done, sizeof(char *), cmp_str) != NULL;
}

/* The group of this write that (partition, file id) names, or NULL. */
static const wgroup *mine(const wctx *c, const char *part, const char *file_id) {
    if (!part || !file_id) return NULL;
    for (size_t gi = 0; gi < c->n_groups; gi++) {
        const wgroup *g = &c->groups[gi];
        bool touched = g->active || (c->action == HUDI_ACTION_REPLACECOMMIT && g->old);
        if (touched && strcmp(g->file_id, file_id) == 0 &&
            strcmp(c->parts[g->part].path, part) == 0)
            return g;
    }
    return NULL;
}

static int conflict(const wctx *c, const hudi_instant *other, const hudi_commit_metadata *md,
                    const char *part, const char *file_id, hudi_error *err) {
    return hudi_error_set(err, HUDI_ECONFLICT,
                          "%s: write conflict: commit %s (%s) changed file group %s of partition "
                          "'%s' that this write (instant %s) changed too; the write was rolled "
                          "back and can be retried",
                          c->t->base_path, other->time,
                          md->operation_type ? md->operation_type : hudi_action_name(other->action),
                          file_id, part, c->instant);
}

static int schema_conflict(const wctx *c, const char *other, hudi_error *err) {
    return hudi_error_set(err, HUDI_ECONFLICT,
                          "%s: the table schema changed at %s while this write (instant %s) ran; "
                          "the write was rolled back and can be retried",
                          c->t->base_path, other ? other : "?", c->instant);
}

static int check_one(const wctx *c, const hudi_instant *other, hudi_error *err) {
    hudi_buf json = HUDI_BUF_INIT;
    hudi_commit_metadata *md = NULL;
    int rc = hudi_timeline_read_commit_json(&json, c->t->timeline, other, err);
    if (rc == 0) rc = hudi_commit_metadata_parse(&md, json.data, json.len, other->file, err);
    for (size_t p = 0; rc == 0 && p < md->partitions_count; p++) {
        const hudi_partition_write_stats *ps = &md->partitions[p];
        for (size_t i = 0; rc == 0 && i < ps->count; i++)
            if (mine(c, ps->partition_path, ps->stats[i].file_id))
                rc = conflict(c, other, md, ps->partition_path, ps->stats[i].file_id, err);
    }
    for (size_t p = 0; rc == 0 && md && p < md->replaced_count; p++) {
        const hudi_partition_replaced *r = &md->replaced[p];
        for (size_t i = 0; rc == 0 && i < r->count; i++)
            if (mine(c, r->partition_path, r->file_ids[i]))
                rc = conflict(c, other, md, r->partition_path, r->file_ids[i], err);
    }
    if (rc == 0 && md->operation_type && strcmp(md->operation_type, "ALTER_SCHEMA") == 0)
        rc = schema_conflict(c, other->time, err);
    hudi_commit_metadata_free(md);
    hudi_buf_dispose(&json);
    return rc;
}

/* Canonical JSON of a table schema and an InternalSchema (either may be NULL). */
static int schema_text(hudi_buf *out, const hudi_field *table, const hudi_ischema *is,
                       hudi_error *err) {
    int rc = 0;
    if (table) rc = hudi_schema_write_avro(out, table, HUDI_AVRO_STYLE_HUDI, err);
    hudi_buf_puts(out, "\n");
    if (rc == 0 && is) rc = hudi_ischema_write(out, is, err);
    if (rc == 0 && hudi_buf_failed(out)) rc = hudi_error_oom(err);
    return rc;
}

/* The table schema and InternalSchema as of now (the reloaded timeline) against those the write
 * resolved when it started. */
static int check_schema(const wctx *c, hudi_error *err) {
    hudi_schema_view *now = NULL;
    hudi_buf a = HUDI_BUF_INIT, b = HUDI_BUF_INIT;
    int rc = hudi_schema_view_open(&now, c->t, NULL, err);
    if (rc == 0 && c->sv)
        rc = schema_text(&a, hudi_schema_view_table(c->sv), hudi_schema_view_ischema(c->sv), err);
    if (rc == 0)
        rc = schema_text(&b, hudi_schema_view_table(now), hudi_schema_view_ischema(now), err);
    if (rc == 0 && c->sv && (a.len != b.len || memcmp(a.data, b.data, a.len) != 0))
        rc = schema_conflict(c, hudi_schema_view_instant(now), err);
    hudi_buf_dispose(&a);
    hudi_buf_dispose(&b);
    hudi_schema_view_free(now);
    return rc;
}

int hudi_occ_check(wctx *c, const hudi_occ_snapshot *s, hudi_error *err) {
    const hudi_timeline *tl = c->t->timeline;
    bool pending = false, completed = false;
    for (size_t i = 0; i < tl->count; i++) {
        if (strcmp(tl->instants[i].time, c->instant) != 0) continue;
        completed |= tl->instants[i].state == HUDI_STATE_COMPLETED;
        pending |= tl->instants[i].state != HUDI_STATE_COMPLETED;
    }
    if (!pending || completed)
        return hudi_error_set(err, HUDI_ECONFLICT,
                              "%s: instant %s was rolled back by another writer while it was "
                              "written (its heartbeat had expired); retry the write",
                              c->t->base_path, c->instant);
    hudi_instant_list l = {0};
    int rc = hudi_timeline_completed_commits(&l, tl, err);
    bool any = false;
    for (size_t i = 0; rc == 0 && i < l.count; i++)
        if (!was_done(s, l.items[i]->time)) {
            any = true;
            rc = check_one(c, l.items[i], err);
        }
    hudi_instant_list_dispose(&l);
    if (rc == 0 && any) rc = check_schema(c, err);
    /* A clustering scheduled after this write started plans the file groups as they were: one
     * that this write changed conflicts (Hudi's candidates include pending clusterings after
     * the current instant). */
    hudi_map pend = HUDI_MAP_INIT;
    if (rc == 0) rc = hudi_cluster_pending_file_groups(&pend, tl, c->instant, err);
    for (size_t gi = 0; rc == 0 && gi < c->n_groups; gi++) {
        const wgroup *g = &c->groups[gi];
        const char *part = c->parts[g->part].path;
        const char *when = hudi_cluster_file_group_pending(&pend, part, g->file_id);
        if (when && mine(c, part, g->file_id))
            rc = hudi_error_set(err, HUDI_ECONFLICT,
                                "%s: write conflict: clustering %s (scheduled after this write "
                                "started) plans file group %s of partition '%s' that this write "
                                "(instant %s) changed; the write was rolled back and can be "
                                "retried",
                                c->t->base_path, when, g->file_id, part, c->instant);
    }
    hudi_map_dispose(&pend);
    return rc;
}
