/* timeline.c - the active timeline: loading instant files (layout 1: .hoodie/, layout 2:
 * .hoodie/timeline/), queries (completed, commits, pending, ranges, as-of, the "before
 * timeline start" rule of docs/formats/timeline.md §5), reading instant content (JSON for both
 * layouts) and writing or deleting layout-1 instant files.
 *
 * Invariant: tl->instants is sorted by hudi_instant_cmp and mirrors the files in tl->dir as of
 * the load plus this handle's own writes and deletes. The archived timeline (layout 1:
 * .hoodie/archived, layout 2: the LSM history under timeline/history) is never read: its
 * folders are skipped while listing. */
#include <stdlib.h>

#include "format/avro/avro.h"
#include "table/table.h"

static int cmp_instants(const void *a, const void *b) { return hudi_instant_cmp(a, b); }

static int push_instant(hudi_timeline *tl, const hudi_instant *in, hudi_error *err) {
    if (tl->count == tl->cap) {
        size_t cap = tl->cap ? tl->cap * 2 : 32;
        hudi_instant *items = hudi_realloc(tl->instants, cap * sizeof(*items));
        if (!items) return hudi_error_oom(err);
        tl->instants = items;
        tl->cap = cap;
    }
    tl->instants[tl->count++] = *in;
    return 0;
}

void hudi_timeline_free(hudi_timeline *tl) {
    if (!tl) return;
    hudi_free(tl->instants);
    hudi_free(tl->base_path);
    hudi_free(tl->dir);
    hudi_free(tl);
}

int hudi_timeline_load_layout(hudi_timeline **out, hudi_fs *fs, const char *base_path, int layout,
                              const char *timeline_path, hudi_error *err) {
    *out = NULL;
    if (layout != 1 && layout != 2)
        return hudi_error_set(err, HUDI_EUNSUPPORTED, "%s: timeline layout version %d", base_path,
                              layout);
    hudi_timeline *tl = hudi_calloc(1, sizeof(*tl));
    hudi_buf dir = HUDI_BUF_INIT;
    hudi_dir_listing ls = {NULL, 0};
    int rc = 0;
    if (!tl || !(tl->base_path = hudi_strdup(base_path))) {
        rc = hudi_error_oom(err);
        goto done;
    }
    tl->fs = fs;
    tl->layout = layout;
    hudi_buf_printf(&dir, "%s/%s", base_path, HUDI_META_DIR);
    if (layout == 2) hudi_buf_printf(&dir, "/%s", timeline_path ? timeline_path : "timeline");
    if (hudi_buf_failed(&dir)) {
        rc = hudi_error_oom(err);
        goto done;
    }
    rc = hudi_fs_list(fs, dir.data, &ls, err);
    if (rc == HUDI_ENOTFOUND && layout == 2) {
        /* A v8+ table with no instant yet may lack the timeline folder. */
        hudi_buf meta = HUDI_BUF_INIT;
        hudi_buf_printf(&meta, "%s/%s", base_path, HUDI_META_DIR);
        bool is_table = !hudi_buf_failed(&meta) && hudi_fs_exists(fs, meta.data);
        hudi_buf_dispose(&meta);
        if (is_table) {
            hudi_error_clear(err);
            rc = 0;
        }
    }
    if (rc < 0) {
        if (rc == HUDI_ENOTFOUND)
            rc = hudi_error_set(err, HUDI_ENOTFOUND, "%s: no timeline folder (not a Hudi table?)",
                                dir.data);
        goto done;
    }
    for (size_t i = 0; i < ls.count; i++) {
        hudi_instant in;
        if (ls.entries[i].is_dir) continue; /* archived/, history/, .aux, .temp, metadata ... */
        if (hudi_instant_parse(&in, ls.entries[i].name, layout, NULL) < 0) continue;
        if ((rc = push_instant(tl, &in, err)) < 0) goto done;
    }
    if (tl->count) qsort(tl->instants, tl->count, sizeof(hudi_instant), cmp_instants);
    tl->dir = hudi_buf_detach(&dir);
    if (!tl->dir) rc = hudi_error_oom(err);
done:
    hudi_dir_listing_dispose(&ls);
    hudi_buf_dispose(&dir);
    if (rc < 0)
        hudi_timeline_free(tl);
    else
        *out = tl;
    return rc;
}

int hudi_timeline_load(hudi_timeline **out, hudi_fs *fs, const char *base_path,
                       const hudi_table_config *cfg, hudi_error *err) {
    return hudi_timeline_load_layout(out, fs, base_path, cfg->timeline_layout, cfg->timeline_path,
                                     err);
}

/* ---- queries -------------------------------------------------------------------------------- */

static bool matches(const hudi_instant *in, const hudi_instant_filter *f) {
    if (f->actions && !(f->actions & HUDI_ACTION_BIT(in->action))) return false;
    if (f->states && !(f->states & HUDI_STATE_BIT(in->state))) return false;
    if (f->after && strcmp(in->time, f->after) <= 0) return false;
    if (f->until && strcmp(in->time, f->until) > 0) return false;
    return true;
}

void hudi_instant_list_dispose(hudi_instant_list *l) {
    hudi_free(l->items);
    l->items = NULL;
    l->count = 0;
}

size_t hudi_timeline_count_matching(const hudi_timeline *tl, const hudi_instant_filter *f) {
    size_t n = 0;
    for (size_t i = 0; i < tl->count; i++) n += matches(&tl->instants[i], f);
    return n;
}

int hudi_timeline_select(hudi_instant_list *out, const hudi_timeline *tl,
                         const hudi_instant_filter *f, hudi_error *err) {
    out->items = NULL;
    out->count = 0;
    size_t n = hudi_timeline_count_matching(tl, f);
    if (n == 0) return 0;
    if (!(out->items = hudi_calloc(n, sizeof(*out->items)))) return hudi_error_oom(err);
    for (size_t i = 0; i < tl->count; i++)
        if (matches(&tl->instants[i], f)) out->items[out->count++] = &tl->instants[i];
    return 0;
}

int hudi_timeline_completed_commits(hudi_instant_list *out, const hudi_timeline *tl,
                                    hudi_error *err) {
    hudi_instant_filter f = {HUDI_ACTIONS_COMMITS, HUDI_STATE_BIT(HUDI_STATE_COMPLETED), NULL,
                             NULL};
    return hudi_timeline_select(out, tl, &f, err);
}

int hudi_timeline_pending(hudi_instant_list *out, const hudi_timeline *tl, hudi_error *err) {
    hudi_instant_filter f = {0, HUDI_STATES_PENDING, NULL, NULL};
    return hudi_timeline_select(out, tl, &f, err);
}

int hudi_timeline_commits_between(hudi_instant_list *out, const hudi_timeline *tl,
                                  const char *after, const char *until, hudi_error *err) {
    hudi_instant_filter f = {HUDI_ACTIONS_COMMITS, HUDI_STATE_BIT(HUDI_STATE_COMPLETED), after,
                             until};
    return hudi_timeline_select(out, tl, &f, err);
}

/* Index of the first instant whose time is >= `time` (instants are sorted by time first). */
static size_t lower_bound(const hudi_timeline *tl, const char *time) {
    size_t lo = 0, hi = tl->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(tl->instants[mid].time, time) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int hudi_timeline_find(const hudi_instant **out, const hudi_timeline *tl, const char *instant_time,
                       hudi_error *err) {
    const hudi_instant *best = NULL;
    for (size_t i = lower_bound(tl, instant_time);
         i < tl->count && strcmp(tl->instants[i].time, instant_time) == 0; i++)
        if (!best || tl->instants[i].state > best->state) best = &tl->instants[i];
    *out = best;
    if (!best)
        return hudi_error_set(err, HUDI_ENOTFOUND, "%s: instant %s not found", tl->base_path,
                              instant_time);
    return 0;
}

const hudi_instant *hudi_timeline_last_completed_commit(const hudi_timeline *tl) {
    for (size_t i = tl->count; i-- > 0;) {
        const hudi_instant *in = &tl->instants[i];
        if (in->state == HUDI_STATE_COMPLETED &&
            (HUDI_ACTION_BIT(in->action) & HUDI_ACTIONS_COMMITS))
            return in;
    }
    return NULL;
}

const char *hudi_timeline_start(const hudi_timeline *tl) {
    /* Any state counts: a pending write older than every completed one still bounds the
     * archived range, so its files are not mistaken for archived commits. */
    for (size_t i = 0; i < tl->count; i++)
        if (HUDI_ACTION_BIT(tl->instants[i].action) & HUDI_ACTIONS_WRITES)
            return tl->instants[i].time;
    return NULL;
}

bool hudi_timeline_is_committed(const hudi_timeline *tl, const char *time) {
    bool on_timeline = false;
    for (size_t i = lower_bound(tl, time); i < tl->count && strcmp(tl->instants[i].time, time) == 0;
         i++) {
        const hudi_instant *in = &tl->instants[i];
        if (in->state == HUDI_STATE_COMPLETED &&
            (HUDI_ACTION_BIT(in->action) & HUDI_ACTIONS_COMMITS))
            return true;
        on_timeline = true;
    }
    const char *start = hudi_timeline_start(tl);
    return !on_timeline && start && strcmp(time, start) < 0;
}

const char *hudi_timeline_last_time(const hudi_timeline *tl) {
    const char *best = NULL;
    for (size_t i = 0; i < tl->count; i++) {
        const hudi_instant *in = &tl->instants[i];
        if (!best || strcmp(in->time, best) > 0) best = in->time;
        if (in->completion[0] && strcmp(in->completion, best) > 0) best = in->completion;
    }
    return best;
}

/* ---- content -------------------------------------------------------------------------------- */

static int instant_path(hudi_buf *out, const hudi_timeline *tl, const char *file, hudi_error *err) {
    hudi_buf_clear(out);
    hudi_buf_printf(out, "%s/%s", tl->dir, file);
    return hudi_buf_failed(out) ? hudi_error_oom(err) : 0;
}

int hudi_timeline_read_instant(hudi_buf *out, const hudi_timeline *tl, const hudi_instant *in,
                               hudi_error *err) {
    hudi_buf path = HUDI_BUF_INIT;
    int rc = instant_path(&path, tl, in->file, err);
    if (rc == 0) rc = hudi_fs_read_all(tl->fs, path.data, out, err);
    hudi_buf_dispose(&path);
    return rc;
}

/* JSON text of instant content: Avro containers converted, JSON passed through. */
static int content_to_json(hudi_buf *out, const hudi_timeline *tl, const hudi_instant *in,
                           hudi_slice bytes, hudi_error *err) {
    if (hudi_avro_is_container(bytes)) {
        int rc = hudi_avro_container_to_json(out, bytes, err);
        if (rc < 0) hudi_error_wrap(err, "%s/%s", tl->dir, in->file);
        return rc;
    }
    size_t i = 0;
    while (i < bytes.len && (bytes.data[i] == ' ' || bytes.data[i] == '\n' ||
                             bytes.data[i] == '\r' || bytes.data[i] == '\t'))
        i++;
    if (i == bytes.len)
        return hudi_error_set(err, HUDI_ECORRUPT, "%s/%s: empty instant file", tl->dir, in->file);
    if (bytes.data[i] != '{')
        return hudi_error_set(err, HUDI_ECORRUPT, "%s/%s: neither JSON nor an Avro container",
                              tl->dir, in->file);
    hudi_buf_append(out, bytes.data, bytes.len);
    return hudi_buf_failed(out) ? hudi_error_oom(err) : 0;
}

int hudi_timeline_read_json(hudi_buf *out_json, const hudi_timeline *tl, const hudi_instant *in,
                            hudi_error *err) {
    hudi_buf raw = HUDI_BUF_INIT;
    int rc = hudi_timeline_read_instant(&raw, tl, in, err);
    if (rc == 0) rc = content_to_json(out_json, tl, in, HUDI_SLICE(raw.data, raw.len), err);
    hudi_buf_dispose(&raw);
    return rc;
}

int hudi_timeline_read_commit_json(hudi_buf *out_json, const hudi_timeline *tl,
                                   const hudi_instant *in, hudi_error *err) {
    if (!(HUDI_ACTION_BIT(in->action) & HUDI_ACTIONS_COMMITS))
        return hudi_error_set(err, HUDI_EINVAL, "%s/%s: not a commit instant", tl->dir, in->file);
    return hudi_timeline_read_json(out_json, tl, in, err);
}

/* ---- writing -------------------------------------------------------------------------------- */

int hudi_timeline_write_instant(hudi_timeline *tl, const char *time, hudi_action action,
                                hudi_state state, hudi_slice content, hudi_error *err) {
    hudi_instant in;
    hudi_buf path = HUDI_BUF_INIT;
    int rc;
    if (tl->layout != 1)
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "%s: writing timeline layout %d (table version 8+) is not supported",
                              tl->base_path, tl->layout);
    if ((rc = hudi_instant_make(&in, time, action, state, NULL, tl->layout, err)) < 0) return rc;
    if ((rc = instant_path(&path, tl, in.file, err)) < 0) goto done;
    /* The storage writer publishes on close (local: temp file + rename), so a reader sees the
     * whole file or none; EXCLUSIVE keeps a completed instant from being overwritten. */
    rc =
        hudi_fs_write_all(tl->fs, path.data, HUDI_CREATE_EXCLUSIVE, content.data, content.len, err);
    if (rc < 0) goto done;
    if ((rc = push_instant(tl, &in, err)) < 0) goto done;
    qsort(tl->instants, tl->count, sizeof(hudi_instant), cmp_instants);
done:
    hudi_buf_dispose(&path);
    return rc;
}

int hudi_timeline_delete_instant(hudi_timeline *tl, const char *instant_time, hudi_error *err) {
    hudi_buf path = HUDI_BUF_INIT;
    bool found = false;
    int rc = 0;
    /* Completed first, so a crash part way leaves a pending instant, never a committed one. */
    for (int state = HUDI_STATE_COMPLETED; state >= HUDI_STATE_REQUESTED && rc == 0; state--) {
        for (size_t i = 0; i < tl->count && rc == 0;) {
            hudi_instant *in = &tl->instants[i];
            if (in->state != (hudi_state)state || strcmp(in->time, instant_time) != 0) {
                i++;
                continue;
            }
            found = true;
            if ((rc = instant_path(&path, tl, in->file, err)) < 0) break;
            rc = hudi_fs_remove(tl->fs, path.data, err);
            if (rc == HUDI_ENOTFOUND) {
                hudi_error_clear(err);
                rc = 0;
            }
            if (rc < 0) break;
            memmove(in, in + 1, (tl->count - i - 1) * sizeof(*in));
            tl->count--;
        }
    }
    hudi_buf_dispose(&path);
    if (rc == 0 && !found)
        rc = hudi_error_set(err, HUDI_ENOTFOUND, "%s: instant %s not found", tl->base_path,
                            instant_time);
    return rc;
}
