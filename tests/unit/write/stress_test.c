/* stress_test.c - several processes write one table on local disk at the same time, some are
 * killed with SIGKILL mid-write (docs/formats/concurrency.md). Each child reports every write
 * it finished (committed or failed) through a pipe; afterwards every acknowledged commit is on
 * the timeline and its rows are there exactly once, every failed write left nothing visible,
 * a killed write is all or nothing, and the next writer recovers the table (stale lock,
 * pending instants of the dead). Bounded: a few processes, a few rounds, 200 rows each. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"
#include "table/txn.h"
#include "wt_util.h"

#define PROCS 4
#define ROUNDS 8
#define ROWS 200

static const char *const P2[] = {"a", "b"};

typedef struct ack {
    int proc, round, rc;
    char instant[HUDI_INSTANT_TIME_MAX];
} ack;

static void report(int fd, int proc, int round, int rc, const char *instant) {
    char line[128];
    int n = snprintf(line, sizeof(line), "%d %d %d %s\n", proc, round, rc,
                     instant && *instant ? instant : "-");
    if (write(fd, line, (size_t)n) != n) _exit(4); /* < PIPE_BUF: atomic */
}

static int read_acks(int fd, ack *out, int cap) {
    static char buf[1 << 16];
    size_t len = 0;
    ssize_t n;
    while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0) len += (size_t)n;
    buf[len] = '\0';
    int count = 0;
    for (char *line = strtok(buf, "\n"); line && count < cap; line = strtok(NULL, "\n")) {
        ack *a = &out[count];
        if (sscanf(line, "%d %d %d %31s", &a->proc, &a->round, &a->rc, a->instant) == 4) count++;
    }
    return count;
}

static bool committed(hudi_table *t, const char *instant) {
    for (size_t i = 0; i < t->timeline->count; i++)
        if (!strcmp(t->timeline->instants[i].time, instant) &&
            t->timeline->instants[i].state == HUDI_STATE_COMPLETED &&
            t->timeline->instants[i].action == HUDI_ACTION_COMMIT)
            return true;
    return false;
}

static size_t pending_writes(hudi_table *t) {
    const hudi_timeline *tl = t->timeline;
    size_t n = 0;
    for (size_t i = 0; i < tl->count; i++) {
        if (tl->instants[i].state != HUDI_STATE_REQUESTED ||
            tl->instants[i].action != HUDI_ACTION_COMMIT)
            continue;
        bool done = false;
        for (size_t k = 0; k < tl->count; k++)
            done |= !strcmp(tl->instants[k].time, tl->instants[i].time) &&
                    tl->instants[k].state == HUDI_STATE_COMPLETED;
        n += !done;
    }
    return n;
}

/* Forks PROCS children running `body(proc, fd)`; kills the victims after a random delay. */
static void run_children(void (*body)(int proc, int fd, const char *base), const char *base,
                         const bool *victim, int fds[2], bool *killed) {
    pid_t pids[PROCS];
    cr_assert_eq(pipe(fds), 0);
    for (int p = 0; p < PROCS; p++) {
        pids[p] = fork();
        cr_assert_geq(pids[p], 0);
        if (pids[p] == 0) {
            close(fds[0]);
            body(p, fds[1], base);
            _exit(0);
        }
    }
    close(fds[1]);
    srand((unsigned)getpid());
    for (int p = 0; p < PROCS; p++) {
        killed[p] = false;
        if (!victim[p]) continue;
        hudi_os_sleep_ms(40 + rand() % 400);
        killed[p] = kill(pids[p], SIGKILL) == 0;
    }
    for (int p = 0; p < PROCS; p++) {
        int status = 0;
        cr_assert_eq(waitpid(pids[p], &status, 0), pids[p]);
        if (WIFEXITED(status)) {
            cr_assert_eq(WEXITSTATUS(status), 0, "child %d exited with %d", p, WEXITSTATUS(status));
            killed[p] = false; /* finished before the signal */
        } else {
            cr_assert(killed[p] && WTERMSIG(status) == SIGKILL, "child %d died otherwise", p);
        }
    }
}

/* ---- single writer (the default): disjoint keys --------------------------------------- */

static int32_t first_id(int proc, int round) { return proc * 100000 + round * 1000; }

static void disjoint_child(int proc, int fd, const char *base) {
    hudi_fs *fs = NULL;
    hudi_field s = {0};
    if (hudi_fs_local_new(&fs, NULL) < 0) _exit(2);
    wt_schema(&s, false);
    for (int r = 0; r < ROUNDS; r++) {
        hudi_table *t = NULL;
        hudi_error err = HUDI_ERROR_INIT;
        hudi_table_write_result res;
        hudi_batch *b = wt_batch_range(&s, first_id(proc, r), ROWS, 1 + proc, P2, 2);
        hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
        o.op = HUDI_WRITE_UPSERT;
        o.clean_retain_commits = 3; /* the cleaner runs under the lock too */
        int rc = hudi_tbl_open(&t, fs, base, &err);
        if (rc == 0) rc = hudi_tbl_write(t, b, &o, &res, &err);
        report(fd, proc, r, rc, rc == 0 ? res.instant : NULL);
        hudi_tbl_free(t);
        hudi_batch_free(b);
    }
    hudi_field_dispose(&s);
    hudi_fs_free(fs);
}

/* Ids present in the table: count per (proc, round), and no id twice. */
static void tally(const char *dump, int counts[PROCS][ROUNDS]) {
    memset(counts, 0, sizeof(int) * PROCS * ROUNDS);
    int prev = -1;
    for (const char *p = dump; *p;) {
        int id = atoi(p);
        cr_assert_neq(id, prev, "row %d appears twice", id);
        prev = id;
        int proc = id / 100000, round = (id % 100000) / 1000;
        cr_assert(proc < PROCS && round < ROUNDS && id % 1000 < ROWS, "unexpected row %d", id);
        counts[proc][round]++;
        const char *nl = strchr(p, '\n');
        if (!nl) break;
        p = nl + 1;
    }
}

Test(stress, single_writer_processes_with_sigkill, .timeout = 240) {
    char base[1100];
    hudi_fs *fs = NULL;
    hudi_field s = {0};
    int fds[2];
    bool killed[PROCS];
    const bool victim[PROCS] = {true, false, true, false};
    snprintf(base, sizeof(base), "%s/tbl", test_tmpdir());
    cr_assert_eq(hudi_fs_local_new(&fs, NULL), 0);
    wt_schema(&s, false);
    hudi_table *t = wt_create(fs, base, NULL, "part", false, true, &s);
    hudi_tbl_free(t);
    run_children(disjoint_child, base, victim, fds, killed);
    ack acks[PROCS * ROUNDS];
    int n = read_acks(fds[0], acks, PROCS * ROUNDS);
    close(fds[0]);
    int ok = 0, failed = 0;
    bool done[PROCS][ROUNDS] = {{false}};
    cr_assert_eq(hudi_tbl_open(&t, fs, base, NULL), 0);
    char *dump = wt_dump(t, NULL);
    int counts[PROCS][ROUNDS];
    tally(dump, counts);
    for (int i = 0; i < n; i++) {
        ack *a = &acks[i];
        done[a->proc][a->round] = true;
        if (a->rc == 0) {
            ok++;
            cr_assert(committed(t, a->instant), "acknowledged %s is not a completed commit",
                      a->instant);
            cr_assert_eq(counts[a->proc][a->round], ROWS, "acknowledged %d/%d has %d rows", a->proc,
                         a->round, counts[a->proc][a->round]);
        } else {
            failed++;
            cr_assert_eq(counts[a->proc][a->round], 0, "failed %d/%d left rows", a->proc, a->round);
        }
    }
    for (int p = 0; p < PROCS; p++)
        for (int r = 0; r < ROUNDS; r++) {
            if (!killed[p]) cr_assert(done[p][r], "proc %d round %d not reported", p, r);
            if (!done[p][r]) /* the killed write and the ones never started: all or nothing */
                cr_assert(counts[p][r] == 0 || counts[p][r] == ROWS, "killed %d/%d: %d rows", p, r,
                          counts[p][r]);
        }
    /* single writer: nobody fails while the others live (they wait for the lock) */
    cr_assert_eq(failed, 0);
    cr_assert_geq(ok, 2 * ROUNDS);
    /* the next writer recovers: a stale lock is broken, the dead writers' instants rolled back */
    hudi_error err = HUDI_ERROR_INIT;
    static const char *const nowait[] = {"hoodie.write.lock.wait_time_ms", "0", NULL};
    hudi_batch *b = wt_batch_range(&s, 99, 1, 1, P2, 2);
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    o.props = nowait;
    cr_assert_eq(hudi_tbl_write(t, b, &o, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_tbl_reload(t, &err), 0);
    cr_assert_eq(pending_writes(t), 0);
    cr_log_info("single writer: %d committed, %d failed, killed %d %d", ok, failed, killed[0],
                killed[2]);
    hudi_batch_free(b);
    free(dump);
    hudi_tbl_free(t);
    hudi_field_dispose(&s);
    hudi_fs_free(fs);
}

/* ---- optimistic concurrency control: every write updates the same keys ----------------- */

#define SHARED_KEYS 100
static const char *const OCC[] = {
    "hoodie.write.concurrency.mode",
    "optimistic_concurrency_control",
    "hoodie.cleaner.policy.failed.writes",
    "LAZY",
    "hoodie.write.lock.provider",
    "org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider",
    NULL};

static void occ_child(int proc, int fd, const char *base) {
    hudi_fs *fs = NULL;
    hudi_field s = {0};
    if (hudi_fs_local_new(&fs, NULL) < 0) _exit(2);
    wt_schema(&s, false);
    for (int r = 0; r < ROUNDS; r++) {
        hudi_batch *b = wt_batch_range(&s, 0, SHARED_KEYS, proc * 100 + r, P2, 2);
        char tag[16];
        snprintf(tag, sizeof(tag), "p%dr%d", proc, r);
        /* every row names its writer and round */
        hudi_array *names = b->columns[1];
        hudi_array *fresh = NULL;
        if (hudi_array_new(&fresh, &s.children[1], NULL) < 0) _exit(2);
        for (int i = 0; i < SHARED_KEYS; i++)
            if (hudi_array_append_bytes(fresh, tag, strlen(tag), NULL) < 0) _exit(2);
        b->columns[1] = fresh;
        hudi_array_free(names);
        for (int attempt = 0; attempt < 200; attempt++) {
            hudi_table *t = NULL;
            hudi_error err = HUDI_ERROR_INIT;
            hudi_table_write_result res;
            hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
            o.latest_wins = true;
            o.props = OCC;
            int rc = hudi_tbl_open(&t, fs, base, &err);
            if (rc == 0) rc = hudi_tbl_write(t, b, &o, &res, &err);
            hudi_tbl_free(t);
            report(fd, proc, r, rc, rc == 0 ? res.instant : NULL);
            if (rc == 0) break;
            if (rc != HUDI_ECONFLICT && rc != HUDI_ELOCKED) _exit(3);
        }
        hudi_batch_free(b);
    }
    hudi_field_dispose(&s);
    hudi_fs_free(fs);
}

/* The name of key 0 and whether all SHARED_KEYS rows carry it. */
static void shared_state(const char *dump, char *tag, size_t cap, bool *uniform, int *rows) {
    *uniform = true;
    *rows = 0;
    tag[0] = '\0';
    for (const char *p = dump; *p;) {
        const char *bar = strchr(p, '|');
        const char *bar2 = bar ? strchr(bar + 1, '|') : NULL;
        cr_assert_not_null(bar2);
        char name[32];
        snprintf(name, sizeof(name), "%.*s", (int)(bar2 - bar - 1), bar + 1);
        if (!tag[0]) snprintf(tag, cap, "%s", name);
        *uniform &= strcmp(tag, name) == 0;
        (*rows)++;
        const char *nl = strchr(p, '\n');
        if (!nl) break;
        p = nl + 1;
    }
}

Test(stress, occ_processes_overlapping_keys_with_sigkill, .timeout = 240) {
    char base[1100];
    hudi_fs *fs = NULL;
    hudi_field s = {0};
    int fds[2];
    bool killed[PROCS];
    const bool victim[PROCS] = {false, true, false, false};
    snprintf(base, sizeof(base), "%s/tbl", test_tmpdir());
    cr_assert_eq(hudi_fs_local_new(&fs, NULL), 0);
    wt_schema(&s, false);
    hudi_table *t = wt_create(fs, base, NULL, NULL, false, true, &s);
    hudi_batch *seed = wt_batch_range(&s, 0, SHARED_KEYS, 0, P2, 2);
    wt_write(t, seed, HUDI_WRITE_INSERT);
    hudi_batch_free(seed);
    hudi_tbl_free(t);
    run_children(occ_child, base, victim, fds, killed);
    static ack acks[PROCS * ROUNDS * 200];
    int n = read_acks(fds[0], acks, (int)HUDI_ARRAY_LEN(acks));
    close(fds[0]);
    cr_assert_eq(hudi_tbl_open(&t, fs, base, NULL), 0);
    int ok = 0, conflicts = 0, locked = 0;
    const ack *latest = NULL;
    bool done[PROCS][ROUNDS] = {{false}};
    for (int i = 0; i < n; i++) {
        const ack *a = &acks[i];
        if (a->rc == HUDI_ECONFLICT) conflicts++;
        if (a->rc == HUDI_ELOCKED) locked++;
        if (a->rc != 0) continue;
        ok++;
        done[a->proc][a->round] = true;
        cr_assert(committed(t, a->instant), "acknowledged %s was lost", a->instant);
        if (!latest || strcmp(a->instant, latest->instant) > 0) latest = a;
    }
    for (int p = 0; p < PROCS; p++)
        if (!killed[p])
            for (int r = 0; r < ROUNDS; r++) cr_assert(done[p][r], "proc %d round %d", p, r);
    cr_assert_not_null(latest);
    /* The table is the last commit's batch: its writer's tag on every key, once. The last
     * commit is the newest acknowledged one, or an unacknowledged one of the killed writer. */
    char *dump = wt_dump(t, NULL);
    char tag[32], want[32];
    bool uniform;
    int rows;
    shared_state(dump, tag, sizeof(tag), &uniform, &rows);
    cr_assert_eq(rows, SHARED_KEYS);
    cr_assert(uniform, "rows of different commits: %s", dump);
    const hudi_instant *last = hudi_timeline_last_completed_commit(t->timeline);
    snprintf(want, sizeof(want), "p%dr%d", latest->proc, latest->round);
    if (strcmp(last->time, latest->instant) == 0)
        cr_assert_str_eq(tag, want);
    else
        cr_assert(killed[tag[1] - '0'] && strcmp(last->time, latest->instant) > 0,
                  "last commit %s (%s) is neither acknowledged nor the killed writer's", last->time,
                  tag);
    /* the next writer recovers */
    hudi_error err = HUDI_ERROR_INIT;
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    o.props = OCC;
    hudi_batch *b = wt_batch_range(&s, 0, 1, 1000, P2, 2);
    cr_assert_eq(hudi_tbl_write(t, b, &o, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_tbl_reload(t, &err), 0);
    cr_assert_eq(pending_writes(t), 0);
    cr_log_info("occ: %d committed, %d conflicts, %d lock timeouts, killed %d", ok, conflicts,
                locked, killed[1]);
    hudi_batch_free(b);
    free(dump);
    hudi_tbl_free(t);
    hudi_field_dispose(&s);
    hudi_fs_free(fs);
}
