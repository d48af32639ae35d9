/* savepoint.c - savepoints (docs/formats/timeline.md §11): keeping the files of a completed
 * commit from the cleaner, and restoring the table to it, as Hudi 0.14/0.15 does.
 *
 * A savepoint of commit C is the instant pair `<C>.savepoint.inflight` (empty) and
 * `<C>.savepoint` (Avro HoodieSavepointMetadata: who, when, a comment, and per partition the
 * names of the files of the latest slices as of C: base files and, merge-on-read, their log
 * files). The cleaner keeps every slice a completed savepoint names a file of. Restoring to a
 * savepoint rolls back every commit after it, newest first. */
#include <jansson.h>
#include <stdio.h>

#include "write/write_int.h"

static int lock_table(hudi_table *t, hudi_txn_config *tc, hudi_table_lock **lock, hudi_error *err) {
    int rc = hudi_txn_config_load(tc, t, NULL, err);
    if (rc < 0) return rc;
    if ((rc = hudi_table_lock_acquire(lock, t, tc, err)) == 0) rc = hudi_tbl_reload(t, err);
    if (rc < 0) {
        hudi_table_lock_release(*lock);
        *lock = NULL;
        hudi_txn_config_dispose(tc);
    }
    return rc;
}

static void unlock_table(hudi_txn_config *tc, hudi_table_lock *lock) {
    hudi_table_lock_release(lock);
    hudi_txn_config_dispose(tc);
}

static const hudi_instant *completed_of(const hudi_timeline *tl, const char *time,
                                        unsigned actions) {
    for (size_t i = 0; i < tl->count; i++) {
        const hudi_instant *in = &tl->instants[i];
        if (in->state == HUDI_STATE_COMPLETED && (HUDI_ACTION_BIT(in->action) & actions) &&
            strcmp(in->time, time) == 0)
            return in;
    }
    return NULL;
}

/* The last clean's earliest commit to retain, else the first completed commit ("" if none):
 * a savepoint of an older commit could name files the cleaner already deleted. */
static int lookup_window(const hudi_table *t, char out[HUDI_INSTANT_TIME_MAX], hudi_error *err) {
    const hudi_timeline *tl = t->timeline;
    out[0] = '\0';
    const hudi_instant *clean = NULL;
    for (size_t i = 0; i < tl->count; i++)
        if (tl->instants[i].action == HUDI_ACTION_CLEAN &&
            tl->instants[i].state == HUDI_STATE_COMPLETED)
            clean = &tl->instants[i];
    if (clean) {
        hudi_buf json = HUDI_BUF_INIT;
        int rc = hudi_timeline_read_json(&json, tl, clean, err);
        if (rc < 0) return rc;
        json_error_t jerr;
        memset(&jerr, 0, sizeof(jerr));
        json_t *root = json_loadb(json.data ? json.data : "", json.len, 0, &jerr);
        json_t *e = root ? json_object_get(root, "earliestCommitToRetain") : NULL;
        if (json_is_string(e)) snprintf(out, HUDI_INSTANT_TIME_MAX, "%s", json_string_value(e));
        json_decref(root);
        hudi_buf_dispose(&json);
        if (out[0]) return 0;
    }
    for (size_t i = 0; i < tl->count; i++)
        if ((HUDI_ACTION_BIT(tl->instants[i].action) & HUDI_ACTIONS_COMMITS) &&
            tl->instants[i].state == HUDI_STATE_COMPLETED) {
            snprintf(out, HUDI_INSTANT_TIME_MAX, "%s", tl->instants[i].time);
            break;
        }
    return 0;
}

static int savepoint_locked(hudi_table *t, const char *time, const char *user, const char *comments,
                            const hudi_clock *clock, hudi_error *err) {
    const hudi_timeline *tl = t->timeline;
    if (!completed_of(tl, time, HUDI_ACTIONS_COMMITS))
        return hudi_error_set(err, HUDI_ENOTFOUND, "%s: Could not savepoint non-existing commit %s",
                              t->base_path, time);
    if (completed_of(tl, time, HUDI_ACTION_BIT(HUDI_ACTION_SAVEPOINT)))
        return hudi_error_set(err, HUDI_EEXISTS, "%s: commit %s is already savepointed",
                              t->base_path, time);
    char window[HUDI_INSTANT_TIME_MAX];
    int rc = lookup_window(t, window, err);
    if (rc < 0) return rc;
    if (window[0] && hudi_instant_time_cmp(time, window) < 0)
        return hudi_error_set(err, HUDI_EINVAL,
                              "%s: Could not savepoint commit %s as this is beyond the lookup "
                              "window %s",
                              t->base_path, time, window);
    /* the files of the latest slices of every partition as of the commit */
    hudi_fs_view *v = NULL;
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    vo.as_of_instant = time;
    if ((rc = hudi_fs_view_build(&v, tl, &vo, err)) < 0) return rc;
    hudi_arena a = HUDI_ARENA_INIT;
    size_t np = 0, ns = 0;
    const char *const *parts = hudi_fs_view_partitions(v, &np);
    const hudi_file_slice *sl = hudi_fs_view_latest_slices(v, &ns);
    hudi_avro_value *rec = hudi_av_coll(&a, HUDI_AVRO_RECORD, 5);
    hudi_avro_value *map = hudi_av_coll(&a, HUDI_AVRO_MAP, np);
    hudi_avro_value *by = hudi_av_str(&a, user ? user : ""),
                    *at = hudi_av_long(&a, HUDI_AVRO_LONG, hudi_clock_now_ms(clock)),
                    *cm = hudi_av_str(&a, comments ? comments : ""),
                    *ver = hudi_av_long(&a, HUDI_AVRO_INT, 1);
    bool ok = rec && map && by && at && cm && ver;
    for (size_t p = 0; ok && p < np; p++) {
        size_t n = 0;
        for (size_t k = 0; k < ns; k++)
            if (!strcmp(sl[k].partition_path, parts[p]))
                n += (sl[k].base ? 1 : 0) + sl[k].logs_count;
        hudi_avro_value *pm = hudi_av_coll(&a, HUDI_AVRO_RECORD, 2),
                        *pp = hudi_av_str(&a, parts[p]),
                        *files = hudi_av_coll(&a, HUDI_AVRO_ARRAY, n);
        ok = pm && pp && files;
        for (size_t k = 0, i = 0; ok && k < ns; k++) {
            if (strcmp(sl[k].partition_path, parts[p]) != 0) continue;
            /* the slice's base file, then its log files (merge-on-read) */
            for (size_t j = 0; ok && j < sl[k].logs_count + 1; j++) {
                const char *name =
                    j == 0 ? (sl[k].base ? sl[k].base->name : NULL) : sl[k].logs[j - 1].name;
                if (!name) continue;
                hudi_avro_value *f = hudi_av_str(&a, name);
                if ((ok = f != NULL)) files->items[i++] = *f;
            }
        }
        if (!ok) break;
        pm->items[0] = *pp;
        pm->items[1] = *files;
        map->keys[p] = hudi_slice_cstr(parts[p]);
        map->items[p] = *pm;
    }
    hudi_buf body = HUDI_BUF_INIT;
    if (!ok) {
        rc = hudi_error_oom(err);
    } else {
        rec->items[0] = *by;
        rec->items[1] = *at;
        rec->items[2] = *cm;
        rec->items[3] = *map;
        rec->items[4] = *ver;
        rc = hudi_av_container(&body, hudi_write_schema_savepoint_metadata, rec, err);
    }
    if (rc == 0 && !hudi_timeline_is_committed(tl, time))
        rc = hudi_error_set(err, HUDI_ECONFLICT, "%s: commit %s is not committed", t->base_path,
                            time);
    /* an inflight left by an earlier attempt that crashed is reused */
    bool inflight = false;
    for (size_t i = 0; i < tl->count; i++)
        inflight |= tl->instants[i].action == HUDI_ACTION_SAVEPOINT &&
                    tl->instants[i].state == HUDI_STATE_INFLIGHT &&
                    !strcmp(tl->instants[i].time, time);
    if (rc == 0 && !inflight)
        rc = hudi_timeline_write_instant(t->timeline, time, HUDI_ACTION_SAVEPOINT,
                                         HUDI_STATE_INFLIGHT, HUDI_SLICE("", 0), err);
    if (rc == 0) /* the commit point */
        rc =
            hudi_timeline_write_instant(t->timeline, time, HUDI_ACTION_SAVEPOINT,
                                        HUDI_STATE_COMPLETED, HUDI_SLICE(body.data, body.len), err);
    hudi_buf_dispose(&body);
    hudi_arena_dispose(&a);
    hudi_fs_view_free(v);
    return rc;
}

int hudi_tbl_savepoint_create(hudi_table *t, const char *instant, const char *user,
                              const char *comments, const hudi_clock *clock, hudi_error *err) {
    hudi_txn_config tc;
    hudi_table_lock *lock = NULL;
    int rc = lock_table(t, &tc, &lock, err);
    if (rc < 0) return rc;
    rc = savepoint_locked(t, instant, user, comments, clock, err);
    unlock_table(&tc, lock);
    return rc;
}

int hudi_tbl_savepoint_delete(hudi_table *t, const char *instant, hudi_error *err) {
    hudi_txn_config tc;
    hudi_table_lock *lock = NULL;
    int rc = lock_table(t, &tc, &lock, err);
    if (rc < 0) return rc;
    if (!completed_of(t->timeline, instant, HUDI_ACTION_BIT(HUDI_ACTION_SAVEPOINT))) {
        rc = hudi_error_set(err, HUDI_ENOTFOUND, "%s: savepoint %s not found", t->base_path,
                            instant);
    } else {
        /* the completed file first: from then on the savepoint is gone */
        hudi_buf p = HUDI_BUF_INIT;
        hudi_buf_printf(&p, "%s/%s.savepoint", t->timeline->dir, instant);
        rc = hudi_buf_failed(&p) ? hudi_error_oom(err) : hudi_fs_remove(t->fs, p.data, err);
        hudi_buf_clear(&p);
        hudi_buf_printf(&p, "%s/%s.savepoint.inflight", t->timeline->dir, instant);
        if (rc == 0 && !hudi_buf_failed(&p)) {
            int r2 = hudi_fs_remove(t->fs, p.data, NULL);
            HUDI_UNUSED(r2); /* a leftover inflight savepoint protects nothing */
        }
        hudi_buf_dispose(&p);
        if (rc == 0) rc = hudi_tbl_reload(t, err);
    }
    unlock_table(&tc, lock);
    return rc;
}

int hudi_tbl_savepoints(const hudi_table *t, char ***out, size_t *count, hudi_error *err) {
    *out = NULL;
    *count = 0;
    const hudi_timeline *tl = t->timeline;
    size_t n = 0;
    for (size_t i = 0; i < tl->count; i++)
        n += tl->instants[i].action == HUDI_ACTION_SAVEPOINT &&
             tl->instants[i].state == HUDI_STATE_COMPLETED;
    char **v = hudi_calloc(n + 1, sizeof(char *));
    if (!v) return hudi_error_oom(err);
    size_t k = 0;
    for (size_t i = tl->count; i-- > 0;) { /* newest first */
        const hudi_instant *in = &tl->instants[i];
        if (in->action != HUDI_ACTION_SAVEPOINT || in->state != HUDI_STATE_COMPLETED) continue;
        if (!(v[k++] = hudi_strdup(in->time))) {
            hudi_write_free_strings(v, k - 1);
            return hudi_error_oom(err);
        }
    }
    *out = v;
    *count = k;
    return 0;
}

int hudi_write_savepointed_files(const hudi_table *t, hudi_map *out, hudi_error *err) {
    const hudi_timeline *tl = t->timeline;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < tl->count; i++) {
        const hudi_instant *in = &tl->instants[i];
        if (in->action != HUDI_ACTION_SAVEPOINT || in->state != HUDI_STATE_COMPLETED) continue;
        hudi_buf json = HUDI_BUF_INIT;
        if ((rc = hudi_timeline_read_json(&json, tl, in, err)) < 0) break;
        json_error_t jerr;
        memset(&jerr, 0, sizeof(jerr));
        json_t *root = json_loadb(json.data ? json.data : "", json.len, 0, &jerr);
        json_t *pm = root ? json_object_get(root, "partitionMetadata") : NULL;
        if (!json_is_object(pm)) {
            rc = hudi_error_set(err, HUDI_ECORRUPT, "%s/%s: not savepoint metadata", tl->dir,
                                in->file);
        } else {
            const char *key;
            json_t *val;
            json_object_foreach(pm, key, val) {
                json_t *files = json_object_get(val, "savepointDataFile");
                for (size_t k = 0; rc == 0 && json_is_array(files) && k < json_array_size(files);
                     k++) {
                    json_t *f = json_array_get(files, k);
                    if (!json_is_string(f)) continue;
                    const char *name = json_string_value(f);
                    if (hudi_map_put(out, name, strlen(name), (void *)1, NULL) < 0)
                        rc = hudi_error_oom(err);
                }
            }
        }
        json_decref(root);
        hudi_buf_dispose(&json);
    }
    return rc;
}

int hudi_tbl_restore_savepoint(hudi_table *t, const char *instant, const hudi_clock *clock,
                               hudi_error *err) {
    hudi_txn_config tc;
    hudi_table_lock *lock = NULL;
    hudi_fs_view *v = NULL;
    char(*times)[HUDI_INSTANT_TIME_MAX] = NULL;
    int rc = lock_table(t, &tc, &lock, err);
    if (rc < 0) return rc;
    const hudi_timeline *tl = t->timeline;
    size_t n = 0;
    if (!completed_of(tl, instant, HUDI_ACTION_BIT(HUDI_ACTION_SAVEPOINT))) {
        rc = hudi_error_set(err, HUDI_ENOTFOUND, "%s: savepoint %s not found", t->base_path,
                            instant);
        goto done;
    }
    /* nothing may be in flight, and no later savepoint may lose its commit */
    for (size_t i = 0; i < tl->count; i++) {
        const hudi_instant *in = &tl->instants[i];
        if ((HUDI_ACTION_BIT(in->action) & HUDI_ACTIONS_WRITES) &&
            in->state != HUDI_STATE_COMPLETED && !completed_of(tl, in->time, HUDI_ACTIONS_WRITES)) {
            rc = hudi_error_set(err, HUDI_ECONFLICT,
                                "%s: cannot restore while the write %s is pending", t->base_path,
                                in->time);
            goto done;
        }
        if (in->action == HUDI_ACTION_SAVEPOINT && in->state == HUDI_STATE_COMPLETED &&
            hudi_instant_time_cmp(in->time, instant) > 0) {
            rc = hudi_error_set(err, HUDI_ECONFLICT,
                                "%s: the later savepoint %s would be lost: delete it first",
                                t->base_path, in->time);
            goto done;
        }
    }
    /* the savepoint's files must all be there (the cleaner kept them) */
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    vo.as_of_instant = instant;
    vo.check_missing = true;
    size_t missing = 0;
    if ((rc = hudi_fs_view_build(&v, tl, &vo, err)) < 0) goto done;
    const hudi_missing_file *mf = hudi_fs_view_missing_files(v, &missing);
    if (missing) {
        rc = hudi_error_set(err, HUDI_ECORRUPT, "%s: savepoint %s: %s is missing", t->base_path,
                            instant, mf[0].path);
        goto done;
    }
    /* the completed commits after it, newest first */
    if (!(times = hudi_calloc(tl->count + 1, HUDI_INSTANT_TIME_MAX))) {
        rc = hudi_error_oom(err);
        goto done;
    }
    for (size_t i = tl->count; i-- > 0;) {
        const hudi_instant *in = &tl->instants[i];
        if ((HUDI_ACTION_BIT(in->action) & HUDI_ACTIONS_COMMITS) &&
            in->state == HUDI_STATE_COMPLETED && hudi_instant_time_cmp(in->time, instant) > 0) {
            snprintf(times[n++], HUDI_INSTANT_TIME_MAX, "%s", in->time);
        }
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const hudi_instant *f = completed_of(t->timeline, times[i], HUDI_ACTIONS_COMMITS);
        if (!f) continue;
        rc = hudi_write_uncommit_and_rollback(t, f, clock, err);
    }
done:
    hudi_free(times);
    hudi_fs_view_free(v);
    unlock_table(&tc, lock);
    return rc;
}
