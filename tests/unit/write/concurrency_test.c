/* concurrency_test.c - concurrent writers in one process (docs/formats/concurrency.md): the
 * table lock and its error, locks and heartbeats of dead writers, pending instants of live
 * writers left alone, and optimistic concurrency control's conflict check. A second writer runs
 * from the write's before_commit hook, i.e. while the first one's files are written. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "table/txn.h"
#include "write/write_int.h"
#include "wt_util.h"

static const char *const P2[] = {"a", "b"};

#define OCC_PROPS "hoodie.write.concurrency.mode", "optimistic_concurrency_control"

typedef struct fixture {
    hudi_fs *fs;
    char base[512];
    hudi_field s;
    hudi_table *t;
} fixture;

static void setup(fixture *f, wt_fs_kind kind, bool partitioned) {
    memset(f, 0, sizeof(*f));
    f->fs = wt_fs(kind, f->base, sizeof(f->base));
    wt_schema(&f->s, false);
    f->t = wt_create(f->fs, f->base, NULL, partitioned ? "part" : NULL, false, true, &f->s);
    hudi_batch *seed = wt_batch_range(&f->s, 0, 20, 1, P2, 2);
    wt_write(f->t, seed, HUDI_WRITE_INSERT);
    hudi_batch_free(seed);
}

static void teardown(fixture *f, wt_fs_kind kind) {
    hudi_tbl_free(f->t);
    hudi_field_dispose(&f->s);
    hudi_fs_free(f->fs);
    wt_fs_cleanup(kind, f->base);
}

static hudi_table *open_tbl(fixture *f) {
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_open(&t, f->fs, f->base, &err), 0, "%s", err.message);
    return t;
}

/* Upserts rows first..first+n-1 with ts and name "<tag><id>". */
static int upsert(hudi_table *t, const hudi_field *s, int32_t first, int32_t n, int64_t ts,
                  const char *const *props, void (*hook)(void *), void *payload, hudi_error *err) {
    hudi_batch *b = wt_batch_range(s, first, n, ts, P2, 2);
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    o.props = props;
    o.before_commit = hook;
    o.payload = payload;
    int rc = hudi_tbl_write(t, b, &o, NULL, err);
    hudi_batch_free(b);
    return rc;
}

/* Instants of `action`: pending ones (no completed file) or completed ones. */
static size_t count_state(hudi_table *t, hudi_action action, bool pending) {
    cr_assert_eq(hudi_tbl_reload(t, NULL), 0);
    size_t n = 0;
    const hudi_timeline *tl = t->timeline;
    for (size_t i = 0; i < tl->count; i++) {
        const hudi_instant *in = &tl->instants[i];
        if (in->action != action) continue;
        if (!pending) {
            n += in->state == HUDI_STATE_COMPLETED;
            continue;
        }
        bool done = false;
        for (size_t k = 0; k < tl->count; k++)
            done |= !strcmp(tl->instants[k].time, in->time) &&
                    tl->instants[k].state == HUDI_STATE_COMPLETED;
        n += !done && in->state == HUDI_STATE_REQUESTED;
    }
    return n;
}

/* The ts of row `id` in a dump, -1 when absent. */
static long long ts_of(const char *dump, int id) {
    char key[16];
    snprintf(key, sizeof(key), "%06d|", id);
    const char *p = strstr(dump, key);
    if (!p) return -1;
    p = strchr(p + strlen(key), '|');
    return p ? atoll(p + 1) : -1;
}

/* ---- the table lock -------------------------------------------------------------------- */

Test(concurrency, second_writer_waits_then_fails_with_elocked) {
    fixture f;
    setup(&f, WT_MEMORY, true);
    hudi_table *other = open_tbl(&f);
    hudi_txn_config tc;
    hudi_table_lock *held = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_txn_config_load(&tc, other, NULL, &err), 0);
    cr_assert_eq(hudi_table_lock_acquire(&held, other, &tc, &err), 0, "%s", err.message);
    cr_assert(hudi_fs_exists(f.fs, tc.lock_path));
    char *before = wt_dump(f.t, NULL);
    static const char *const props[] = {"hoodie.write.lock.wait_time_ms", "150", NULL};
    int64_t t0 = hudi_os_now_ms();
    int rc = upsert(f.t, &f.s, 0, 5, 2, props, NULL, NULL, &err);
    int64_t waited = hudi_os_now_ms() - t0;
    cr_assert_eq(rc, HUDI_ELOCKED, "%d %s", rc, err.message);
    cr_assert_geq(waited, 150);
    cr_assert(strstr(err.message, "being written by another writer"), "%s", err.message);
    cr_assert(strstr(err.message, "hudic pid "), "%s", err.message);
    cr_assert(strstr(err.message, ", since 20"), "%s", err.message);
    cr_assert(strstr(err.message, "hoodie.write.lock.wait_time_ms"), "%s", err.message);
    char *mid = wt_dump(f.t, NULL);
    cr_assert_str_eq(mid, before);
    cr_assert_eq(count_state(f.t, HUDI_ACTION_COMMIT, true), 0);
    /* clean and rollback take the lock too */
    cr_assert_eq(hudi_tbl_clean(f.t, 1, NULL, &err), HUDI_ELOCKED);
    hudi_table_lock_release(held);
    cr_assert_not(hudi_fs_exists(f.fs, tc.lock_path));
    cr_assert_eq(upsert(f.t, &f.s, 0, 5, 2, props, NULL, NULL, &err), 0, "%s", err.message);
    cr_assert_not(hudi_fs_exists(f.fs, tc.lock_path));
    free(before);
    free(mid);
    hudi_txn_config_dispose(&tc);
    hudi_tbl_free(other);
    teardown(&f, WT_MEMORY);
}

typedef struct nested {
    fixture *f;
    const char *const *props;
    int32_t first;
    int rc;
    hudi_error err;
    const hudi_batch *batch; /* NULL: rows first..first+4 with ts 3 */
    bool rollback_all;       /* instead: roll back the pending writes, ignoring heartbeats */
} nested;

static void nested_write(void *payload) {
    nested *n = payload;
    hudi_table *t = open_tbl(n->f);
    if (n->rollback_all) {
        hudi_txn_config tc;
        hudi_table_lock *l = NULL;
        n->rc = hudi_txn_config_load(&tc, t, NULL, &n->err);
        tc.heartbeat_interval_ms = 1;
        if (n->rc == 0) n->rc = hudi_table_lock_acquire(&l, t, &tc, &n->err);
        const hudi_instant *p = NULL;
        for (size_t i = 0; n->rc == 0 && i < t->timeline->count; i++)
            if (t->timeline->instants[i].state != HUDI_STATE_COMPLETED)
                p = &t->timeline->instants[i];
        char time[HUDI_INSTANT_TIME_MAX];
        snprintf(time, sizeof(time), "%s", p ? p->time : "");
        if (n->rc == 0 && p) n->rc = hudi_write_rollback_instant(t, time, NULL, &n->err);
        hudi_table_lock_release(l);
        hudi_txn_config_dispose(&tc);
    } else if (n->batch) {
        hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
        o.props = n->props;
        n->rc = hudi_tbl_write(t, n->batch, &o, NULL, &n->err);
    } else {
        n->rc = upsert(t, &n->f->s, n->first, 5, 3, n->props, NULL, NULL, &n->err);
    }
    hudi_tbl_free(t);
}

Test(concurrency, single_writer_holds_the_lock_for_the_whole_write) {
    fixture f;
    setup(&f, WT_LOCAL, true);
    static const char *const props[] = {"hoodie.write.lock.wait_time_ms", "100", NULL};
    nested n = {&f, props, 10, 0, HUDI_ERROR_INIT, NULL, false};
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(upsert(f.t, &f.s, 0, 5, 2, NULL, nested_write, &n, &err), 0, "%s", err.message);
    cr_assert_eq(n.rc, HUDI_ELOCKED, "%s", n.err.message);
    char *d = wt_dump(f.t, NULL);
    cr_assert_eq(ts_of(d, 0), 2);
    cr_assert_eq(ts_of(d, 10), 1);
    free(d);
    teardown(&f, WT_LOCAL);
}

static void lock_info(hudi_buf *out, const char *thread) {
    hudi_buf_printf(out,
                    "{\n  \"lockCreateTime\" : \"2026-01-01 00:00:00.000\",\n  \"lockThreadName\" "
                    ": \"%s\",\n  \"lockStacksInfo\" : [ ]\n}",
                    thread);
}

Test(concurrency, lock_of_a_dead_hudic_process_is_broken_at_once) {
    fixture f;
    setup(&f, WT_LOCAL, true);
    hudi_buf path = HUDI_BUF_INIT, owner = HUDI_BUF_INIT, info = HUDI_BUF_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_buf_printf(&path, "%s/.hoodie/lock", f.base);
    hudi_txn_owner(&owner);
    lock_info(&info, owner.data); /* ours, but nobody holds its process lock: a dead process */
    cr_assert_eq(
        hudi_fs_write_all(f.fs, path.data, HUDI_CREATE_EXCLUSIVE, info.data, info.len, &err), 0);
    static const char *const props[] = {"hoodie.write.lock.wait_time_ms", "0", NULL};
    cr_assert_eq(upsert(f.t, &f.s, 0, 5, 2, props, NULL, NULL, &err), 0, "%s", err.message);
    cr_assert_not(hudi_fs_exists(f.fs, path.data));
    hudi_buf_dispose(&path);
    hudi_buf_dispose(&owner);
    hudi_buf_dispose(&info);
    teardown(&f, WT_LOCAL);
}

Test(concurrency, foreign_lock_waits_and_expires_like_hudi) {
    fixture f;
    setup(&f, WT_MEMORY, true);
    hudi_buf path = HUDI_BUF_INIT, info = HUDI_BUF_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_buf_printf(&path, "%s/.hoodie/lock", f.base);
    lock_info(&info, "main"); /* a Spark driver's lock */
    cr_assert_eq(
        hudi_fs_write_all(f.fs, path.data, HUDI_CREATE_EXCLUSIVE, info.data, info.len, &err), 0);
    static const char *const wait[] = {"hoodie.write.lock.wait_time_ms", "50", NULL};
    cr_assert_eq(upsert(f.t, &f.s, 0, 5, 2, wait, NULL, NULL, &err), HUDI_ELOCKED);
    cr_assert(strstr(err.message, "(Hudi writer thread main, since 2026-01-01 00:00:00.000)"), "%s",
              err.message);
    static const char *const expire[] = {"hoodie.write.lock.wait_time_ms", "50",
                                         "hoodie.write.lock.filesystem.expire", "1", NULL};
    cr_assert_eq(upsert(f.t, &f.s, 0, 5, 2, expire, NULL, NULL, &err), HUDI_ELOCKED);
    cr_assert_eq(hudi_fs_memory_set_mtime(f.fs, path.data, hudi_os_now_ms() - 61000, &err), 0);
    cr_assert_eq(upsert(f.t, &f.s, 0, 5, 2, expire, NULL, NULL, &err), 0, "%s", err.message);
    cr_assert_not(hudi_fs_exists(f.fs, path.data));
    hudi_buf_dispose(&path);
    hudi_buf_dispose(&info);
    teardown(&f, WT_MEMORY);
}

Test(concurrency, lock_path_and_provider_settings) {
    fixture f;
    setup(&f, WT_MEMORY, true);
    hudi_error err = HUDI_ERROR_INIT;
    static const char *const zk[] = {
        "hoodie.write.lock.provider",
        "org.apache.hudi.client.transaction.lock.ZookeeperBasedLockProvider", NULL};
    cr_assert_eq(upsert(f.t, &f.s, 0, 5, 2, zk, NULL, NULL, &err), HUDI_EUNSUPPORTED);
    cr_assert(strstr(err.message, "ZookeeperBasedLockProvider"), "%s", err.message);
    static const char *const bad[] = {"hoodie.write.lock.wait_time_ms", "soon", NULL};
    cr_assert_eq(upsert(f.t, &f.s, 0, 5, 2, bad, NULL, NULL, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "hoodie.write.lock.wait_time_ms=soon"), "%s", err.message);
    /* hoodie.write.lock.filesystem.path: the lock file lives there */
    static const char *const dir[] = {"hoodie.write.lock.filesystem.path", "/mem/locks", NULL};
    hudi_txn_config tc;
    cr_assert_eq(hudi_txn_config_load(&tc, f.t, dir, &err), 0);
    cr_assert_str_eq(tc.lock_path, "/mem/locks/lock");
    hudi_table_lock *held = NULL;
    cr_assert_eq(hudi_table_lock_acquire(&held, f.t, &tc, &err), 0, "%s", err.message);
    static const char *const dir_wait[] = {"hoodie.write.lock.filesystem.path", "/mem/locks",
                                           "hoodie.write.lock.wait_time_ms", "10", NULL};
    cr_assert_eq(upsert(f.t, &f.s, 0, 5, 2, dir_wait, NULL, NULL, &err), HUDI_ELOCKED);
    cr_assert_eq(upsert(f.t, &f.s, 0, 5, 2, NULL, NULL, NULL, &err), 0, "%s", err.message);
    hudi_table_lock_release(held);
    hudi_txn_config_dispose(&tc);
    teardown(&f, WT_MEMORY);
}

/* ---- heartbeats and failed writes ------------------------------------------------------ */

/* A pending commit instant as a writer leaves it after writing requested + inflight. */
static void pending_instant(fixture *f, char *time) {
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_reload(f->t, &err), 0);
    cr_assert_eq(
        hudi_instant_time_new(time, NULL, false, hudi_timeline_last_time(f->t->timeline), &err), 0);
    cr_assert_eq(hudi_timeline_write_instant(f->t->timeline, time, HUDI_ACTION_COMMIT,
                                             HUDI_STATE_REQUESTED, HUDI_SLICE("", 0), &err),
                 0, "%s", err.message);
}

static void heartbeat_path(fixture *f, hudi_buf *p, const char *time) {
    hudi_buf_clear(p);
    hudi_buf_printf(p, "%s/.hoodie/.heartbeat/%s", f->base, time);
}

static void live_writer_left_alone(wt_fs_kind kind) {
    fixture f;
    setup(&f, kind, true);
    char time[HUDI_INSTANT_TIME_MAX];
    hudi_buf hb = HUDI_BUF_INIT, owner = HUDI_BUF_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_fs_lock *alive = NULL;
    pending_instant(&f, time);
    heartbeat_path(&f, &hb, time);
    hudi_txn_owner(&owner);
    hudi_buf_putc(&owner, '\n');
    cr_assert_eq(hudi_fs_mkdirs(f.fs, hb.data, &err), 0); /* a folder, then replaced below */
    cr_assert_eq(hudi_fs_remove(f.fs, hb.data, &err), 0);
    cr_assert_eq(hudi_fs_create_locked(f.fs, hb.data, owner.data, owner.len, &alive, &err), 0, "%s",
                 err.message);
    /* even with an old modification time: hudic's own heartbeat is alive while locked */
    if (kind == WT_MEMORY) hudi_fs_memory_set_mtime(f.fs, hb.data, 1, NULL);
    cr_assert_eq(upsert(f.t, &f.s, 0, 5, 2, NULL, NULL, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_tbl_rollback_pending(f.t, NULL, &err), 0);
    cr_assert_eq(count_state(f.t, HUDI_ACTION_COMMIT, true), 1);
    cr_assert_eq(count_state(f.t, HUDI_ACTION_ROLLBACK, false), 0);
    /* the writer dies: its process lock goes, the file stays */
    hudi_fs_lock_release(alive);
    cr_assert_eq(upsert(f.t, &f.s, 5, 5, 2, NULL, NULL, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(count_state(f.t, HUDI_ACTION_COMMIT, true), 0);
    cr_assert_eq(count_state(f.t, HUDI_ACTION_ROLLBACK, false), 1);
    cr_assert_not(hudi_fs_exists(f.fs, hb.data));
    hudi_buf_dispose(&hb);
    hudi_buf_dispose(&owner);
    teardown(&f, kind);
}

Test(concurrency, live_writers_instant_is_never_rolled_back_memory) {
    live_writer_left_alone(WT_MEMORY);
}
Test(concurrency, live_writers_instant_is_never_rolled_back_local) {
    live_writer_left_alone(WT_LOCAL);
}

Test(concurrency, foreign_heartbeat_expires_after_tolerable_misses) {
    fixture f;
    setup(&f, WT_MEMORY, true);
    char time[HUDI_INSTANT_TIME_MAX];
    hudi_buf hb = HUDI_BUF_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    pending_instant(&f, time);
    heartbeat_path(&f, &hb, time);
    /* Spark's heartbeat: an empty file, alive by its modification time */
    cr_assert_eq(hudi_fs_write_all(f.fs, hb.data, HUDI_CREATE_EXCLUSIVE, "", 0, &err), 0);
    cr_assert_eq(upsert(f.t, &f.s, 0, 5, 2, NULL, NULL, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(count_state(f.t, HUDI_ACTION_COMMIT, true), 1);
    /* 119 s old: within 2 x 60 s */
    hudi_fs_memory_set_mtime(f.fs, hb.data, hudi_os_now_ms() - 119000, NULL);
    cr_assert_eq(hudi_tbl_rollback_pending(f.t, NULL, &err), 0);
    cr_assert_eq(count_state(f.t, HUDI_ACTION_COMMIT, true), 1);
    /* shorter settings make it expired */
    static const char *const fast[] = {"hoodie.client.heartbeat.interval_in_ms", "1000",
                                       "hoodie.client.heartbeat.tolerable.misses", "3", NULL};
    cr_assert_eq(upsert(f.t, &f.s, 0, 5, 3, fast, NULL, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(count_state(f.t, HUDI_ACTION_COMMIT, true), 0);
    cr_assert_not(hudi_fs_exists(f.fs, hb.data));
    /* no heartbeat at all: dead, as Hudi reads it (last beat at 0) */
    pending_instant(&f, time);
    cr_assert_eq(hudi_tbl_rollback_pending(f.t, NULL, &err), 1, "%s", err.message);
    cr_assert_eq(count_state(f.t, HUDI_ACTION_COMMIT, true), 0);
    hudi_buf_dispose(&hb);
    teardown(&f, WT_MEMORY);
}

Test(concurrency, heartbeat_file_lives_as_long_as_the_write) {
    fixture f;
    setup(&f, WT_LOCAL, true);
    hudi_error err = HUDI_ERROR_INIT;
    hudi_buf dir = HUDI_BUF_INIT;
    hudi_buf_printf(&dir, "%s/.hoodie/.heartbeat", f.base);
    cr_assert_eq(upsert(f.t, &f.s, 0, 5, 2, NULL, NULL, NULL, &err), 0, "%s", err.message);
    hudi_dir_listing l = {0};
    cr_assert_eq(hudi_fs_list(f.fs, dir.data, &l, &err), 0, "%s", err.message);
    cr_assert_eq(l.count, 0, "heartbeats left: %zu", l.count);
    hudi_dir_listing_dispose(&l);
    hudi_buf_dispose(&dir);
    teardown(&f, WT_LOCAL);
}

/* ---- optimistic concurrency control ----------------------------------------------------- */

static const char *const OCC[] = {OCC_PROPS, NULL};

static void occ_conflict(wt_fs_kind kind) {
    fixture f;
    setup(&f, kind, false); /* one file group: every upsert rewrites it */
    nested n = {&f, OCC, 10, 0, HUDI_ERROR_INIT, NULL, false};
    hudi_error err = HUDI_ERROR_INIT;
    int rc = upsert(f.t, &f.s, 0, 5, 2, OCC, nested_write, &n, &err);
    cr_assert_eq(n.rc, 0, "%s", n.err.message);
    cr_assert_eq(rc, HUDI_ECONFLICT, "%d %s", rc, err.message);
    cr_assert(strstr(err.message, "write conflict"), "%s", err.message);
    cr_assert(strstr(err.message, "UPSERT"), "%s", err.message);
    /* the loser was rolled back: no pending instant, its rows not visible, the winner's are */
    cr_assert_eq(count_state(f.t, HUDI_ACTION_COMMIT, true), 0);
    cr_assert_eq(count_state(f.t, HUDI_ACTION_ROLLBACK, false), 1);
    char *d = wt_dump(f.t, NULL);
    cr_assert_eq(ts_of(d, 0), 1);
    cr_assert_eq(ts_of(d, 10), 3);
    free(d);
    /* a retry succeeds and both updates are there */
    cr_assert_eq(upsert(f.t, &f.s, 0, 5, 2, OCC, NULL, NULL, &err), 0, "%s", err.message);
    d = wt_dump(f.t, NULL);
    cr_assert_eq(ts_of(d, 0), 2);
    cr_assert_eq(ts_of(d, 10), 3);
    cr_assert_eq(wt_lines(d), 20);
    free(d);
    teardown(&f, kind);
}

Test(concurrency, occ_overlapping_file_groups_conflict_memory) { occ_conflict(WT_MEMORY); }
Test(concurrency, occ_overlapping_file_groups_conflict_local) { occ_conflict(WT_LOCAL); }

Test(concurrency, occ_disjoint_file_groups_both_commit) {
    fixture f;
    setup(&f, WT_LOCAL, true); /* partitions a (even ids) and b (odd ids): one group each */
    hudi_batch *nb =
        wt_batch(&f.s, (wt_row[]){{13, "y", 7, "b", false}, {21, "y", 7, "b", false}}, 2);
    hudi_batch *outer =
        wt_batch(&f.s, (wt_row[]){{0, "x", 5, "a", false}, {2, "x", 5, "a", false}}, 2);
    nested n = {&f, OCC, 0, 0, HUDI_ERROR_INIT, NULL, false};
    n.batch = nb;
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    o.props = OCC;
    o.before_commit = nested_write;
    o.payload = &n;
    hudi_error err = HUDI_ERROR_INIT;
    int rc = hudi_tbl_write(f.t, outer, &o, NULL, &err);
    cr_assert_eq(n.rc, 0, "%s", n.err.message);
    cr_assert_eq(rc, 0, "%s", err.message);
    char *d = wt_dump(f.t, NULL);
    cr_assert_eq(ts_of(d, 0), 5);
    cr_assert_eq(ts_of(d, 2), 5);
    cr_assert_eq(ts_of(d, 13), 7);
    cr_assert_eq(ts_of(d, 21), 7);
    cr_assert_eq(wt_lines(d), 21);
    free(d);
    cr_assert_eq(count_state(f.t, HUDI_ACTION_ROLLBACK, false), 0);
    hudi_batch_free(nb);
    hudi_batch_free(outer);
    teardown(&f, WT_LOCAL);
}

Test(concurrency, occ_writer_rolled_back_by_others_fails_cleanly) {
    /* A writer whose instant another writer rolled back (its heartbeat expired) must not
     * commit. Here the nested call rolls it back as an expired writer would be. */
    fixture f;
    setup(&f, WT_MEMORY, true);
    hudi_error err = HUDI_ERROR_INIT;
    nested n = {&f, OCC, 0, 0, HUDI_ERROR_INIT, NULL, false};
    n.rollback_all = true;
    int rc = upsert(f.t, &f.s, 0, 5, 2, OCC, nested_write, &n, &err);
    cr_assert_eq(n.rc, 0, "%s", n.err.message);
    cr_assert_eq(rc, HUDI_ECONFLICT, "%s", err.message);
    cr_assert(strstr(err.message, "rolled back by another writer"), "%s", err.message);
    char *d = wt_dump(f.t, NULL);
    cr_assert_eq(ts_of(d, 0), 1);
    free(d);
    teardown(&f, WT_MEMORY);
}

/* Apache Hudi's FileSystemBasedLockProvider deletes .hoodie/lock when it closes, whether it
 * held it or not: a write whose lock file vanished must not commit, and must not delete the
 * lock file another writer created meanwhile. */
static void steal_lock(void *payload) {
    fixture *f = payload;
    hudi_buf p = HUDI_BUF_INIT;
    hudi_buf_printf(&p, "%s/.hoodie/lock", f->base);
    cr_assert_eq(hudi_fs_remove(f->fs, p.data, NULL), 0);
    cr_assert_eq(hudi_fs_write_all(f->fs, p.data, HUDI_CREATE_EXCLUSIVE, "{}", 2, NULL), 0);
    hudi_buf_dispose(&p);
}

static void lost_lock(wt_fs_kind kind) {
    fixture f;
    setup(&f, kind, true);
    hudi_error err = HUDI_ERROR_INIT;
    char *before = wt_dump(f.t, NULL);
    hudi_batch *b = wt_batch_range(&f.s, 0, 5, 2, P2, 2);
    static const char *const props[] = {"hoodie.write.lock.wait_time_ms", "50", NULL};
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    o.props = props;
    o.before_commit = steal_lock;
    o.payload = &f;
    cr_assert_eq(hudi_tbl_write(f.t, b, &o, NULL, &err), HUDI_ECONFLICT);
    cr_assert(strstr(err.message, "was deleted by another writer"), "%s", err.message);
    char *after = wt_dump(f.t, NULL);
    cr_assert_str_eq(after, before);
    /* the other writer's lock file is still there; the failed instant is pending until it
     * can be rolled back (its heartbeat stopped: the next writer does it) */
    hudi_buf p = HUDI_BUF_INIT;
    hudi_buf_printf(&p, "%s/.hoodie/lock", f.base);
    cr_assert(hudi_fs_exists(f.fs, p.data));
    cr_assert_eq(hudi_fs_remove(f.fs, p.data, NULL), 0);
    cr_assert_eq(hudi_tbl_rollback_pending(f.t, NULL, &err), 1, "%s", err.message);
    cr_assert_eq(count_state(f.t, HUDI_ACTION_COMMIT, true), 0);
    hudi_buf_dispose(&p);
    free(before);
    free(after);
    hudi_batch_free(b);
    teardown(&f, kind);
}

Test(concurrency, lock_deleted_by_another_writer_memory) { lost_lock(WT_MEMORY); }
Test(concurrency, lock_deleted_by_another_writer_local) { lost_lock(WT_LOCAL); }

/* Fault injection on the OCC commit path with a concurrent commit to check against: the outer
 * write runs on the fault-injecting filesystem (failing, sticky, at call n for every n), the
 * concurrent one on the plain filesystem from the hook. Whatever call fails, the table reads
 * as the concurrent commit left it, and the next writer recovers and commits. */
typedef struct faulted {
    fixture *f;
    bool ran;
} faulted;

static void concurrent_commit(void *payload) {
    faulted *x = payload;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = open_tbl(x->f);
    hudi_batch *b = wt_batch(&x->f->s, (wt_row[]){{13, "y", 7, "b", false}}, 1);
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    o.props = OCC;
    cr_assert_eq(hudi_tbl_write(t, b, &o, NULL, &err), 0, "%s", err.message);
    x->ran = true;
    hudi_batch_free(b);
    hudi_tbl_free(t);
}

Test(concurrency, occ_commit_path_fails_at_every_call, .timeout = 120) {
    static const char *const props[] = {OCC_PROPS, "hoodie.write.lock.wait_time_ms", "0", NULL};
    int failures = 0;
    for (int64_t n = 1; n < 3000; n++) {
        fixture f;
        setup(&f, WT_MEMORY, true);
        hudi_fs *ff = NULL;
        hudi_table *t = NULL;
        hudi_error err = HUDI_ERROR_INIT;
        cr_assert_eq(hudi_fs_faulty_new(&ff, f.fs, (hudi_fault_plan){n, -1, true}, NULL), 0);
        faulted x = {&f, false};
        hudi_batch *b =
            wt_batch(&f.s, (wt_row[]){{0, "x", 5, "a", false}, {2, "x", 5, "a", false}}, 2);
        hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
        o.props = props;
        o.before_commit = concurrent_commit;
        o.payload = &x;
        int rc = hudi_tbl_open(&t, ff, f.base, &err);
        if (rc == 0) rc = hudi_tbl_write(t, b, &o, NULL, &err);
        hudi_tbl_free(t);
        bool tripped = hudi_fs_faulty_tripped(ff);
        hudi_fs_free(ff);
        char *d = wt_dump(f.t, NULL);
        cr_assert_eq(ts_of(d, 13), x.ran ? 7 : 1, "call %lld", (long long)n);
        if (rc == 0) {
            cr_assert_eq(ts_of(d, 0), 5, "call %lld", (long long)n);
        } else {
            failures++;
            cr_assert_eq(ts_of(d, 0), 1, "call %lld: %s", (long long)n, err.message);
            /* the next writer recovers (stale lock, dead writer's instant) and commits */
            o.before_commit = NULL;
            cr_assert_eq(hudi_tbl_write(f.t, b, &o, NULL, &err), 0, "call %lld: %s", (long long)n,
                         err.message);
            free(d);
            d = wt_dump(f.t, NULL);
            cr_assert_eq(ts_of(d, 0), 5);
            cr_assert_eq(ts_of(d, 13), x.ran ? 7 : 1);
            cr_assert_eq(count_state(f.t, HUDI_ACTION_COMMIT, true), 0, "call %lld", (long long)n);
        }
        free(d);
        hudi_batch_free(b);
        teardown(&f, WT_MEMORY);
        if (!tripped) break;
    }
    cr_assert_gt(failures, 20);
}

/* ---- schema races: an ALTER or a schema-changing write while an OCC write runs ---------- */

typedef struct alter_mid {
    fixture *f;
    bool schema_on_read;
    const char *column;
    char instant[HUDI_INSTANT_TIME_MAX];
    int rc;
    hudi_error err;
    const char *const *props; /* the ALTER's (lock wait) */
} alter_mid;

static void alter_add(void *payload) {
    alter_mid *a = payload;
    hudi_table *t = open_tbl(a->f);
    hudi_field dbl = {0};
    hudi_field_init(&dbl, "x", HUDI_TYPE_DOUBLE, true);
    hudi_schema_change add = {HUDI_SCHEMA_ADD, a->column, &dbl, NULL, NULL, 0, NULL, false};
    hudi_alter_options o = {0};
    o.schema_on_read = a->schema_on_read;
    o.props = a->props;
    a->rc = hudi_tbl_alter_schema(t, &add, 1, &o, a->instant, &a->err);
    hudi_field_dispose(&dbl);
    hudi_tbl_free(t);
}

/* Data files (name ends .parquet) under partition directory `part`. */
static size_t data_files(fixture *f, const char *part) {
    char dir[600];
    snprintf(dir, sizeof(dir), "%s/%s", f->base, part);
    hudi_dir_listing l = {0};
    cr_assert_eq(hudi_fs_list(f->fs, dir, &l, NULL), 0);
    size_t n = 0;
    for (size_t i = 0; i < l.count; i++) {
        size_t len = strlen(l.entries[i].name);
        n += len > 8 && !strcmp(l.entries[i].name + len - 8, ".parquet");
    }
    hudi_dir_listing_dispose(&l);
    return n;
}

static bool table_has_column(hudi_table *t, const char *name) {
    hudi_schema_view *v = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_schema_view_open(&v, t, NULL, &err), 0, "%s", err.message);
    const hudi_field *s = hudi_schema_view_table(v);
    bool found = false;
    for (int32_t i = 0; s && i < s->n_children; i++) found |= !strcmp(s->children[i].name, name);
    hudi_schema_view_free(v);
    return found;
}

static void occ_alter_mid_write(bool schema_on_read) {
    fixture f;
    setup(&f, WT_LOCAL, true);
    size_t files_a = data_files(&f, "a"), files_b = data_files(&f, "b");
    char *before = wt_dump(f.t, NULL);
    alter_mid a = {&f, schema_on_read, "score", "", 0, HUDI_ERROR_INIT, NULL};
    hudi_batch *outer =
        wt_batch(&f.s, (wt_row[]){{0, "x", 5, "a", false}, {2, "x", 5, "a", false}}, 2);
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    o.props = OCC;
    o.before_commit = alter_add;
    o.payload = &a;
    hudi_error err = HUDI_ERROR_INIT;
    int rc = hudi_tbl_write(f.t, outer, &o, NULL, &err);
    cr_assert_eq(a.rc, 0, "%s", a.err.message);
    cr_assert_eq(rc, HUDI_ECONFLICT, "%d %s", rc, err.message);
    char want[128];
    snprintf(want, sizeof(want), "the table schema changed at %s while this write", a.instant);
    cr_assert(strstr(err.message, want), "%s", err.message);
    cr_assert_null(strchr(err.message, '\n'));
    /* rolled back: nothing pending, its files gone, rows as before; the ALTER's schema stays */
    cr_assert_eq(count_state(f.t, HUDI_ACTION_COMMIT, true), 0);
    cr_assert_eq(count_state(f.t, HUDI_ACTION_ROLLBACK, false), 1);
    cr_assert_eq(data_files(&f, "a"), files_a);
    cr_assert_eq(data_files(&f, "b"), files_b);
    cr_assert(table_has_column(f.t, "score"));
    char *after = wt_dump(f.t, NULL);
    cr_assert_eq(wt_lines(after), wt_lines(before));
    cr_assert_eq(ts_of(after, 0), 1);
    /* a retry sees the ALTER and commits with it (the batch lacks the new column) */
    static const char *const retry[] = {OCC_PROPS, "hoodie.write.set.null.for.missing.columns",
                                        "true", NULL};
    o.props = retry;
    o.before_commit = NULL;
    cr_assert_eq(hudi_tbl_write(f.t, outer, &o, NULL, &err), 0, "%s", err.message);
    cr_assert(table_has_column(f.t, "score"));
    free(after);
    after = wt_dump(f.t, NULL);
    cr_assert_eq(ts_of(after, 0), 5);
    free(before);
    free(after);
    hudi_batch_free(outer);
    teardown(&f, WT_LOCAL);
}

Test(concurrency, occ_alter_during_write_conflicts) { occ_alter_mid_write(false); }
Test(concurrency, occ_alter_during_write_conflicts_schema_on_read) { occ_alter_mid_write(true); }

/* Two ALTERs one after the other from two table handles (the second opened before the first
 * committed): both schema versions are in the history and the table has both columns. */
Test(concurrency, two_alters_keep_both_versions) {
    fixture f;
    setup(&f, WT_LOCAL, true);
    hudi_table *other = open_tbl(&f);
    alter_mid a1 = {&f, true, "c1", "", 0, HUDI_ERROR_INIT, NULL};
    alter_mid a2 = {&f, true, "c2", "", 0, HUDI_ERROR_INIT, NULL};
    alter_add(&a1);
    cr_assert_eq(a1.rc, 0, "%s", a1.err.message);
    hudi_field dbl = {0};
    hudi_field_init(&dbl, "x", HUDI_TYPE_DOUBLE, true);
    hudi_schema_change add = {HUDI_SCHEMA_ADD, "c2", &dbl, NULL, NULL, 0, NULL, false};
    hudi_alter_options ao = {0};
    ao.schema_on_read = true;
    a2.rc = hudi_tbl_alter_schema(other, &add, 1, &ao, a2.instant, &a2.err);
    cr_assert_eq(a2.rc, 0, "%s", a2.err.message);
    cr_assert(table_has_column(f.t, "c1"));
    cr_assert(table_has_column(f.t, "c2"));
    hudi_ischema_history h = {0};
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_reload(f.t, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_schema_history_load(&h, f.t, &err), 0, "%s", err.message);
    cr_assert_not_null(hudi_ischema_history_search(&h, hudi_ischema_version_of(a1.instant)));
    cr_assert_not_null(hudi_ischema_history_search(&h, hudi_ischema_version_of(a2.instant)));
    cr_assert_eq(hudi_ischema_history_search(&h, hudi_ischema_version_of(a1.instant))->version_id,
                 hudi_ischema_version_of(a1.instant));
    cr_assert_eq(hudi_ischema_history_search(&h, hudi_ischema_version_of(a2.instant))->version_id,
                 hudi_ischema_version_of(a2.instant));
    hudi_ischema_history_dispose(&h);
    hudi_field_dispose(&dbl);
    hudi_tbl_free(other);
    teardown(&f, WT_LOCAL);
}

/* Single writer: the lock is held through the whole write, so an ALTER cannot slip in. */
Test(concurrency, single_writer_alter_mid_write_is_locked_out) {
    fixture f;
    setup(&f, WT_LOCAL, true);
    static const char *const wait[] = {"hoodie.write.lock.wait_time_ms", "100", NULL};
    alter_mid a = {&f, false, "score", "", 0, HUDI_ERROR_INIT, wait};
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(upsert(f.t, &f.s, 0, 5, 2, NULL, alter_add, &a, &err), 0, "%s", err.message);
    cr_assert_eq(a.rc, HUDI_ELOCKED, "%d %s", a.rc, a.err.message);
    cr_assert_not(table_has_column(f.t, "score"));
    teardown(&f, WT_LOCAL);
}

/* With an InternalSchema (schema on read after an ALTER), a concurrent write that changes no
 * schema and touches other file groups still lets the OCC write commit. */
Test(concurrency, occ_disjoint_writes_with_internal_schema_both_commit) {
    fixture f;
    setup(&f, WT_LOCAL, true);
    alter_mid a = {&f, true, "score", "", 0, HUDI_ERROR_INIT, NULL};
    alter_add(&a);
    cr_assert_eq(a.rc, 0, "%s", a.err.message);
    static const char *const props[] = {OCC_PROPS, "hoodie.write.set.null.for.missing.columns",
                                        "true", NULL};
    hudi_batch *nb =
        wt_batch(&f.s, (wt_row[]){{13, "y", 7, "b", false}, {21, "y", 7, "b", false}}, 2);
    hudi_batch *outer =
        wt_batch(&f.s, (wt_row[]){{0, "x", 5, "a", false}, {2, "x", 5, "a", false}}, 2);
    nested n = {&f, props, 0, 0, HUDI_ERROR_INIT, NULL, false};
    n.batch = nb;
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    o.props = props;
    o.before_commit = nested_write;
    o.payload = &n;
    hudi_error err = HUDI_ERROR_INIT;
    int rc = hudi_tbl_write(f.t, outer, &o, NULL, &err);
    cr_assert_eq(n.rc, 0, "%s", n.err.message);
    cr_assert_eq(rc, 0, "%s", err.message);
    char *d = wt_dump(f.t, NULL);
    cr_assert_eq(ts_of(d, 0), 5);
    cr_assert_eq(ts_of(d, 13), 7);
    free(d);
    cr_assert(table_has_column(f.t, "score"));
    cr_assert_eq(count_state(f.t, HUDI_ACTION_ROLLBACK, false), 0);
    hudi_batch_free(nb);
    hudi_batch_free(outer);
    teardown(&f, WT_LOCAL);
}
