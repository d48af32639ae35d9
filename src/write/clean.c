/* clean.c - the cleaner with Hudi's KEEP_LATEST_COMMITS policy (docs/formats/timeline.md §9,
 * commit-metadata.md §6; Hudi's CleanPlanner): with N commits retained, the earliest commit to
 * retain E is the N-th newest completed commit. In every file group, a slice older than E is
 * deleted unless it is the group's latest slice or the newest slice older than E (the one a query
 * as of E reads), or a pending compaction reads it. A slice goes whole: its base file and, in a
 * merge-on-read table, its log files. File groups replaced by a replacecommit older than E are
 * deleted entirely (base and log files). Slices a completed savepoint names a file of are never
 * deleted (timeline.md §11).
 *
 * The clean is recorded as Avro HoodieCleanerPlan (requested, inflight) and HoodieCleanMetadata
 * (completed), every file listed (log files too). Nothing to delete = no clean instant, as in
 * Hudi. An interrupted clean leaves a pending instant that the next single writer discards and
 * plans again (deleting is idempotent). With several writers (optimistic concurrency control) a
 * pending clean may be another writer's clean in progress - Spark-Hudi's cleaner does not take
 * the table lock for all of it - so it is left alone: a new clean plans the same deletions
 * anyway, and Hudi runs a pending clean's plan the next time it cleans. */
#include <stdio.h>
#include <time.h>

#include "write/write_int.h"

#define POLICY "KEEP_LATEST_COMMITS"

typedef struct cl_part {
    const char *path;
    hudi_vec files; /* char*: file names to delete (arena) */
    hudi_vec ok;    /* char*: deleted */
} cl_part;

typedef struct cl_state {
    hudi_table *t;
    hudi_map keep; /* file names savepoints keep */
    cl_part *parts;
    size_t n_parts;
    size_t n_files;
    hudi_arena arena;
} cl_state;

static int add_file(cl_state *s, const char *part, const char *name, hudi_error *err) {
    if (hudi_map_get(&s->keep, name, strlen(name))) return 0; /* a savepoint keeps it */
    cl_part *p = NULL;
    for (size_t i = 0; i < s->n_parts && !p; i++)
        if (strcmp(s->parts[i].path, part) == 0) p = &s->parts[i];
    if (!p) {
        cl_part *v = hudi_realloc(s->parts, (s->n_parts + 1) * sizeof(cl_part));
        if (!v) return hudi_error_oom(err);
        s->parts = v;
        p = &s->parts[s->n_parts++];
        p->path = hudi_arena_strdup(&s->arena, part);
        p->files = (hudi_vec)HUDI_VEC_INIT(char *);
        p->ok = (hudi_vec)HUDI_VEC_INIT(char *);
        if (!p->path) return hudi_error_oom(err);
    }
    for (size_t i = 0; i < p->files.len; i++)
        if (strcmp(hudi_vec_at(&p->files, char *, i), name) == 0) return 0;
    char **slot = hudi_vec_push(&p->files);
    if (!slot || !(*slot = hudi_arena_strdup(&s->arena, name))) return hudi_error_oom(err);
    s->n_files++;
    return 0;
}

/* Whether a completed savepoint names the slice's base file or one of its log files: then the
 * whole slice stays (Hudi's CleanPlanner.isFileSliceExistInSavepointedFiles). */
static bool slice_savepointed(const cl_state *s, const hudi_file_slice *sl) {
    if (sl->base && hudi_map_get(&s->keep, sl->base->name, strlen(sl->base->name))) return true;
    for (size_t i = 0; i < sl->logs_count; i++)
        if (hudi_map_get(&s->keep, sl->logs[i].name, strlen(sl->logs[i].name))) return true;
    return false;
}

/* A slice goes whole: its base file and, in a merge-on-read table, its log files. */
static int add_slice(cl_state *s, const hudi_file_slice *sl, hudi_error *err) {
    int rc = sl->base ? add_file(s, sl->partition_path, sl->base->name, err) : 0;
    for (size_t i = 0; rc == 0 && i < sl->logs_count; i++)
        rc = add_file(s, sl->partition_path, sl->logs[i].name, err);
    return rc;
}

/* Whether `time` is a compaction that has not completed. */
static bool pending_compaction(const hudi_timeline *tl, const char *time) {
    bool pending = false;
    for (size_t i = 0; i < tl->count; i++) {
        const hudi_instant *in = &tl->instants[i];
        if (strcmp(in->time, time) != 0) continue;
        if (in->state == HUDI_STATE_COMPLETED) return false;
        pending |= in->action == HUDI_ACTION_COMPACTION || in->action == HUDI_ACTION_LOGCOMPACTION;
    }
    return pending;
}

/* Older slices of the visible file groups. `all` is sorted by (partition, file id, instant).
 * In every group the latest slice stays, and the newest slice before E, and every slice from
 * E on; so does every slice a pending compaction reads: the slices from the one before the
 * compaction's own slice (the logs written since it was scheduled, base instant = the
 * compaction) on (Hudi: base instant >= the operation's base instant). */
static int plan_slices(cl_state *s, const hudi_fs_view *v, const char *earliest, hudi_error *err) {
    size_t n = 0;
    const hudi_file_slice *all = hudi_fs_view_all_slices(v, &n);
    for (size_t i = 0; i < n;) {
        size_t e = i + 1;
        while (e < n && strcmp(all[e].file_id, all[i].file_id) == 0 &&
               strcmp(all[e].partition_path, all[i].partition_path) == 0)
            e++;
        /* slices i..e-1 of one group, oldest first */
        const char *before = NULL;
        size_t keep_from = e - 1;
        for (size_t k = i; k < e; k++) {
            if (strcmp(all[k].base_instant, earliest) < 0) before = all[k].base_instant;
            if (k > i && k - 1 < keep_from &&
                pending_compaction(s->t->timeline, all[k].base_instant))
                keep_from = k - 1;
        }
        for (size_t k = i; k < keep_from; k++) {
            const hudi_file_slice *sl = &all[k];
            if (strcmp(sl->base_instant, earliest) >= 0 ||
                (before && !strcmp(before, sl->base_instant)) || slice_savepointed(s, sl))
                continue;
            int rc = add_slice(s, sl, err);
            if (rc < 0) return rc;
        }
        i = e;
    }
    return 0;
}

/* Every base and log file of file groups replaced before E. */
static int plan_replaced(cl_state *s, const char *earliest, hudi_error *err) {
    hudi_instant_list l = {0};
    hudi_buf json = HUDI_BUF_INIT, dir = HUDI_BUF_INIT;
    int rc = hudi_timeline_completed_commits(&l, s->t->timeline, err);
    for (size_t i = 0; rc == 0 && i < l.count; i++) {
        const hudi_instant *in = l.items[i];
        if (in->action != HUDI_ACTION_REPLACECOMMIT || strcmp(in->time, earliest) >= 0) continue;
        hudi_commit_metadata *md = NULL;
        hudi_buf_clear(&json);
        if ((rc = hudi_timeline_read_commit_json(&json, s->t->timeline, in, err)) < 0 ||
            (rc = hudi_commit_metadata_parse(&md, json.data, json.len, in->file, err)) < 0)
            break;
        for (size_t p = 0; rc == 0 && p < md->replaced_count; p++) {
            const hudi_partition_replaced *r = &md->replaced[p];
            hudi_dir_listing dl = {0};
            hudi_buf_clear(&dir);
            hudi_buf_printf(&dir, "%s%s%s", s->t->base_path, *r->partition_path ? "/" : "",
                            r->partition_path);
            if (hudi_buf_failed(&dir)) {
                rc = hudi_error_oom(err);
                break;
            }
            int lr = hudi_fs_list(s->t->fs, dir.data, &dl, NULL);
            for (size_t f = 0; lr == 0 && rc == 0 && f < dl.count; f++) {
                hudi_base_file_name bn;
                hudi_log_file_name ln;
                hudi_slice fid;
                if (dl.entries[f].is_dir) continue;
                if (hudi_base_file_name_parse(&bn, dl.entries[f].name))
                    fid = bn.file_id;
                else if (hudi_log_file_name_parse(&ln, dl.entries[f].name) && !ln.is_archive)
                    fid = ln.file_id; /* a merge-on-read group goes with its logs */
                else
                    continue;
                for (size_t k = 0; k < r->count; k++)
                    if (hudi_slice_eq(fid, hudi_slice_cstr(r->file_ids[k])))
                        rc = add_file(s, r->partition_path, dl.entries[f].name, err);
            }
            hudi_dir_listing_dispose(&dl);
        }
        hudi_commit_metadata_free(md);
    }
    hudi_buf_dispose(&json);
    hudi_buf_dispose(&dir);
    hudi_instant_list_dispose(&l);
    return rc;
}

static char *abs_path(cl_state *s, const char *part, const char *name) {
    size_t n = strlen(s->t->base_path) + strlen(part) + strlen(name) + 3;
    char *p = hudi_arena_alloc(&s->arena, n);
    if (p) snprintf(p, n, "%s%s%s/%s", s->t->base_path, *part ? "/" : "", part, name);
    return p;
}

static hudi_avro_value *names_array(hudi_arena *a, const hudi_vec *v) {
    hudi_avro_value *arr = hudi_av_coll(a, HUDI_AVRO_ARRAY, v->len);
    for (size_t i = 0; arr && i < v->len; i++) {
        hudi_avro_value *x = hudi_av_str(a, hudi_vec_at(v, char *, i));
        if (!x) return NULL;
        arr->items[i] = *x;
    }
    return arr;
}

static hudi_avro_value *build_plan(cl_state *s, const char *earliest, const char *earliest_action) {
    hudi_arena *a = &s->arena;
    hudi_avro_value *rec = hudi_av_coll(a, HUDI_AVRO_RECORD, 6),
                    *ei = hudi_av_coll(a, HUDI_AVRO_RECORD, 3);
    hudi_avro_value *ts = hudi_av_str(a, earliest), *act = hudi_av_str(a, earliest_action);
    hudi_avro_value *st = hudi_av_str(a, "COMPLETED"), *pol = hudi_av_str(a, POLICY);
    hudi_avro_value *old = hudi_av_coll(a, HUDI_AVRO_MAP, 0),
                    *ver = hudi_av_long(a, HUDI_AVRO_INT, 2);
    hudi_avro_value *map = hudi_av_coll(a, HUDI_AVRO_MAP, s->n_parts);
    hudi_avro_value *dropped = hudi_av_coll(a, HUDI_AVRO_ARRAY, 0);
    if (!rec || !ei || !ts || !act || !st || !pol || !old || !ver || !map || !dropped) return NULL;
    ei->items[0] = *ts;
    ei->items[1] = *act;
    ei->items[2] = *st;
    for (size_t i = 0; i < s->n_parts; i++) {
        const cl_part *p = &s->parts[i];
        hudi_avro_value *arr = hudi_av_coll(a, HUDI_AVRO_ARRAY, p->files.len);
        if (!arr) return NULL;
        for (size_t k = 0; k < p->files.len; k++) {
            hudi_avro_value *info = hudi_av_coll(a, HUDI_AVRO_RECORD, 2);
            hudi_avro_value *path =
                hudi_av_str(a, abs_path(s, p->path, hudi_vec_at(&p->files, char *, k)));
            hudi_avro_value *boot = hudi_av_bool(a, false);
            if (!info || !path || !boot) return NULL;
            info->items[0] = *path;
            info->items[1] = *boot;
            arr->items[k] = *info;
        }
        map->keys[i] = hudi_slice_cstr(p->path);
        map->items[i] = *arr;
    }
    rec->items[0] = *ei;
    rec->items[1] = *pol;
    rec->items[2] = *old;
    rec->items[3] = *ver;
    rec->items[4] = *map;
    rec->items[5] = *dropped;
    return rec;
}

static hudi_avro_value *build_metadata(cl_state *s, const char *c_time, int64_t took,
                                       int32_t deleted, const char *earliest, const char *last) {
    hudi_arena *a = &s->arena;
    hudi_avro_value *rec = hudi_av_coll(a, HUDI_AVRO_RECORD, 9);
    hudi_avro_value *pol = hudi_av_str(a, POLICY), *start = hudi_av_str(a, c_time);
    hudi_avro_value *t = hudi_av_long(a, HUDI_AVRO_LONG, took),
                    *n = hudi_av_long(a, HUDI_AVRO_INT, deleted);
    hudi_avro_value *e = hudi_av_str(a, earliest), *l = hudi_av_str(a, last ? last : "");
    hudi_avro_value *pm = hudi_av_coll(a, HUDI_AVRO_MAP, s->n_parts),
                    *ver = hudi_av_long(a, HUDI_AVRO_INT, 2);
    hudi_avro_value *boot = hudi_av_coll(a, HUDI_AVRO_MAP, 0);
    if (!rec || !pol || !start || !t || !n || !e || !l || !pm || !ver || !boot) return NULL;
    for (size_t i = 0; i < s->n_parts; i++) {
        const cl_part *p = &s->parts[i];
        hudi_avro_value *r = hudi_av_coll(a, HUDI_AVRO_RECORD, 6), *path = hudi_av_str(a, p->path);
        hudi_avro_value *pp = hudi_av_str(a, POLICY), *pat = names_array(a, &p->files);
        hudi_avro_value *ok = names_array(a, &p->ok), *bad = hudi_av_coll(a, HUDI_AVRO_ARRAY, 0);
        hudi_avro_value *del = hudi_av_bool(a, false);
        if (!r || !path || !pp || !pat || !ok || !bad || !del) return NULL;
        r->items[0] = *path;
        r->items[1] = *pp;
        r->items[2] = *pat;
        r->items[3] = *ok;
        r->items[4] = *bad;
        r->items[5] = *del;
        pm->keys[i] = hudi_slice_cstr(p->path);
        pm->items[i] = *r;
    }
    hudi_avro_value *fields[] = {pol, start, t, n, e, l, pm, ver, boot};
    for (size_t i = 0; i < 9; i++) rec->items[i] = *fields[i];
    return rec;
}

static int64_t mono_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int execute(cl_state *s, const char *earliest, const char *earliest_action, const char *last,
                   const hudi_clock *clock, int32_t *deleted, hudi_error *err) {
    hudi_table *t = s->t;
    hudi_buf body = HUDI_BUF_INIT;
    char c_time[HUDI_INSTANT_TIME_MAX];
    int64_t t0 = mono_ms();
    *deleted = 0;
    int rc = hudi_instant_time_new(c_time, clock, t->cfg.timeline_utc,
                                   hudi_timeline_last_time(t->timeline), err);
    if (rc == 0)
        rc = hudi_av_container(&body, hudi_write_schema_cleaner_plan,
                               build_plan(s, earliest, earliest_action), err);
    if (rc == 0)
        rc =
            hudi_timeline_write_instant(t->timeline, c_time, HUDI_ACTION_CLEAN,
                                        HUDI_STATE_REQUESTED, HUDI_SLICE(body.data, body.len), err);
    if (rc == 0)
        rc = hudi_timeline_write_instant(t->timeline, c_time, HUDI_ACTION_CLEAN,
                                         HUDI_STATE_INFLIGHT, HUDI_SLICE(body.data, body.len), err);
    for (size_t i = 0; rc == 0 && i < s->n_parts; i++) {
        cl_part *p = &s->parts[i];
        for (size_t k = 0; rc == 0 && k < p->files.len; k++) {
            char *name = hudi_vec_at(&p->files, char *, k);
            char *abs = abs_path(s, p->path, name);
            if (!abs) {
                rc = hudi_error_oom(err);
                break;
            }
            rc = hudi_fs_remove(t->fs, abs, err);
            if (rc == HUDI_ENOTFOUND) {
                hudi_error_clear(err);
                rc = 0;
                continue;
            }
            char **slot = rc == 0 ? hudi_vec_push(&p->ok) : NULL;
            if (rc == 0 && !slot) rc = hudi_error_oom(err);
            if (rc == 0) {
                *slot = name;
                (*deleted)++;
            }
        }
    }
    if (rc == 0) {
        hudi_buf_clear(&body);
        rc = hudi_av_container(&body, hudi_write_schema_clean_metadata,
                               build_metadata(s, c_time, mono_ms() - t0, *deleted, earliest, last),
                               err);
    }
    if (rc == 0)
        rc =
            hudi_timeline_write_instant(t->timeline, c_time, HUDI_ACTION_CLEAN,
                                        HUDI_STATE_COMPLETED, HUDI_SLICE(body.data, body.len), err);
    hudi_buf_dispose(&body);
    return rc;
}

static int drop_pending_cleans(hudi_table *t, hudi_error *err) {
    for (size_t i = t->timeline->count; i-- > 0;) {
        const hudi_instant *in = &t->timeline->instants[i];
        if (in->action != HUDI_ACTION_CLEAN || in->state == HUDI_STATE_COMPLETED) continue;
        bool done = false;
        for (size_t k = 0; k < t->timeline->count; k++)
            done |= !strcmp(t->timeline->instants[k].time, in->time) &&
                    t->timeline->instants[k].state == HUDI_STATE_COMPLETED;
        if (done) continue;
        char time[HUDI_INSTANT_TIME_MAX];
        snprintf(time, sizeof(time), "%s", in->time);
        int rc = hudi_timeline_delete_instant(t->timeline, time, err);
        if (rc < 0) return rc;
        i = t->timeline->count;
    }
    return 0;
}

int hudi_write_clean_locked(hudi_table *t, int32_t retain_commits, const hudi_clock *clock,
                            bool multi_writer, hudi_error *err) {
    cl_state s;
    memset(&s, 0, sizeof(s));
    s.t = t;
    hudi_instant_list l = {0};
    hudi_fs_view *v = NULL;
    int32_t deleted = 0;
    if (retain_commits < 1)
        return hudi_error_set(err, HUDI_EINVAL, "%s: clean must retain at least one commit",
                              t->base_path);
    int rc = multi_writer ? 0 : drop_pending_cleans(t, err);
    if (rc == 0) rc = hudi_write_savepointed_files(t, &s.keep, err);
    if (rc == 0) rc = hudi_timeline_completed_commits(&l, t->timeline, err);
    if (rc < 0 || l.count <= (size_t)retain_commits) goto done;
    char earliest[HUDI_INSTANT_TIME_MAX], last[HUDI_INSTANT_TIME_MAX];
    const hudi_instant *e = l.items[l.count - (size_t)retain_commits];
    snprintf(earliest, sizeof(earliest), "%s", e->time);
    snprintf(last, sizeof(last), "%s", l.items[l.count - 1]->time);
    const char *e_action = hudi_action_name(e->action);
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    if ((rc = hudi_fs_view_build(&v, t->timeline, &vo, err)) < 0) goto done;
    if ((rc = plan_slices(&s, v, earliest, err)) < 0) goto done;
    if ((rc = plan_replaced(&s, earliest, err)) < 0) goto done;
    if (s.n_files == 0) goto done;
    rc = execute(&s, earliest, e_action, last, clock, &deleted, err);
done:
    for (size_t i = 0; i < s.n_parts; i++) {
        hudi_vec_dispose(&s.parts[i].files);
        hudi_vec_dispose(&s.parts[i].ok);
    }
    hudi_free(s.parts);
    hudi_map_dispose(&s.keep);
    hudi_arena_dispose(&s.arena);
    hudi_fs_view_free(v);
    hudi_instant_list_dispose(&l);
    return rc < 0 ? rc : deleted;
}

int hudi_tbl_clean(hudi_table *t, int32_t retain_commits, const hudi_clock *clock,
                   hudi_error *err) {
    hudi_txn_config tc;
    hudi_table_lock *lock = NULL;
    if (retain_commits < 1)
        return hudi_error_set(err, HUDI_EINVAL, "%s: clean must retain at least one commit",
                              t->base_path);
    int rc = hudi_txn_config_load(&tc, t, NULL, err);
    if (rc < 0) return rc;
    if ((rc = hudi_table_lock_acquire(&lock, t, &tc, err)) == 0 &&
        (rc = hudi_tbl_reload(t, err)) == 0)
        rc = hudi_write_clean_locked(t, retain_commits, clock, tc.occ, err);
    hudi_table_lock_release(lock);
    hudi_txn_config_dispose(&tc);
    return rc;
}
