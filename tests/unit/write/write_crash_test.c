/* write_crash_test.c - crash safety of a write. An upsert into an existing table runs on the
 * fault-injecting filesystem failing (sticky: a crashed process) at call N, for every N from 1
 * until the write succeeds. After each failure the table, opened on the plain filesystem,
 * reads exactly as before; the next write on the plain filesystem rolls the failed one back
 * and succeeds; no committed row is ever lost. Memory and local filesystems; file groups on the
 * default threads (the processors) and on four. The same for a bulk_insert of several chunks
 * whose files roll over, on one thread and on four. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "wt_util.h"

static const char *const P2[] = {"a", "b"};

typedef struct scenario {
    hudi_field s;
    hudi_batch *seed, *up;
    int rows_after; /* the table's rows after the write */
} scenario;

static hudi_write_operation g_op = HUDI_WRITE_UPSERT; /* the write of the loop */
static int64_t g_target_bytes;                        /* its target file size (0: default) */

static void scenario_init(scenario *sc) {
    wt_schema(&sc->s, false);
    sc->seed = wt_batch_range(&sc->s, 0, 12, 1, P2, 2);
    if (g_op == HUDI_WRITE_BULK_INSERT) { /* 300 new keys */
        sc->up = wt_batch_range(&sc->s, 100, 300, 2, P2, 2);
        sc->rows_after = 312;
        return;
    }
    /* updates of 4 keys in both partitions, 3 inserts */
    sc->up = wt_batch_range(&sc->s, 8, 7, 2, P2, 2);
    sc->rows_after = 15;
}

static void scenario_dispose(scenario *sc) {
    hudi_batch_free(sc->seed);
    hudi_batch_free(sc->up);
    hudi_field_dispose(&sc->s);
}

static hudi_fs *seeded(wt_fs_kind kind, scenario *sc, char *base, size_t len) {
    hudi_fs *fs = wt_fs(kind, base, len);
    hudi_table *t = wt_create(fs, base, NULL, "part", true, true, &sc->s);
    wt_write(t, sc->seed, HUDI_WRITE_INSERT);
    hudi_tbl_free(t);
    return fs;
}

static const char *const *g_props; /* writer settings of the loop (NULL: single writer) */

static int upsert(hudi_fs *fs, const char *base, const hudi_batch *b, hudi_error *err) {
    hudi_table *t = NULL;
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    o.clean_retain_commits = 1; /* the cleaner runs too */
    o.props = g_props;
    o.op = g_op;
    o.target_file_bytes = g_target_bytes;
    int rc = hudi_tbl_open(&t, fs, base, err);
    if (rc == 0) rc = hudi_tbl_write(t, b, &o, NULL, err);
    hudi_tbl_free(t);
    return rc;
}

static void no_pending(hudi_fs *fs, const char *base) {
    hudi_table *t = NULL;
    cr_assert_eq(hudi_tbl_open(&t, fs, base, NULL), 0);
    const hudi_timeline *tl = t->timeline;
    for (size_t i = 0; i < tl->count; i++) {
        bool done = false;
        for (size_t k = 0; k < tl->count; k++)
            done |= !strcmp(tl->instants[k].time, tl->instants[i].time) &&
                    tl->instants[k].state == HUDI_STATE_COMPLETED;
        cr_assert(done, "pending instant %s left", tl->instants[i].file);
    }
    hudi_tbl_free(t);
}

static void crash_loop(wt_fs_kind kind) {
    scenario sc;
    char base[512];
    scenario_init(&sc);
    /* the expected states, from a run without faults */
    hudi_fs *fs = seeded(kind, &sc, base, sizeof(base));
    char *before = wt_dump_path(fs, base, NULL);
    cr_assert_eq(upsert(fs, base, sc.up, NULL), 0);
    char *after = wt_dump_path(fs, base, NULL);
    cr_assert_eq(wt_lines(after), sc.rows_after);
    hudi_fs_free(fs);
    wt_fs_cleanup(kind, base);
    int failures = 0;
    for (int64_t n = 1; n < 5000; n++) {
        fs = seeded(kind, &sc, base, sizeof(base));
        hudi_fs *ff = NULL;
        cr_assert_eq(hudi_fs_faulty_new(&ff, fs, (hudi_fault_plan){n, -1, true}, NULL), 0);
        hudi_error err = HUDI_ERROR_INIT;
        int rc = upsert(ff, base, sc.up, &err);
        bool tripped = hudi_fs_faulty_tripped(ff);
        hudi_fs_free(ff);
        if (rc == 0) {
            char *d = wt_dump_path(fs, base, NULL);
            cr_assert_str_eq(d, after, "call %lld", (long long)n);
            free(d);
            hudi_fs_free(fs);
            wt_fs_cleanup(kind, base);
            if (!tripped) break; /* the write needed fewer than n calls: done */
            continue;            /* failed after the commit point: committed */
        }
        failures++;
        char *d = wt_dump_path(fs, base, NULL);
        cr_assert_str_eq(d, before, "after a failure at call %lld (%s)", (long long)n, err.message);
        free(d);
        rc = upsert(fs, base, sc.up, &err);
        cr_assert_eq(rc, 0, "retry after a failure at call %lld: %s", (long long)n, err.message);
        d = wt_dump_path(fs, base, NULL);
        cr_assert_str_eq(d, after, "retry after a failure at call %lld", (long long)n);
        free(d);
        no_pending(fs, base);
        hudi_fs_free(fs);
        wt_fs_cleanup(kind, base);
    }
    cr_assert_gt(failures, 20);
    free(before);
    free(after);
    scenario_dispose(&sc);
}

Test(write_crash, upsert_fails_at_every_call_memory, .timeout = 120) { crash_loop(WT_MEMORY); }
Test(write_crash, upsert_fails_at_every_call_local, .timeout = 120) { crash_loop(WT_LOCAL); }

/* With optimistic concurrency control the lock is taken twice and the commit reads the
 * timeline again for the conflict check: every one of those calls fails once too. */
static const char *const OCC[] = {"hoodie.write.concurrency.mode", "optimistic_concurrency_control",
                                  "hoodie.write.lock.wait_time_ms", "0", NULL};
Test(write_crash, occ_upsert_fails_at_every_call_memory, .timeout = 120) {
    g_props = OCC;
    crash_loop(WT_MEMORY);
}
Test(write_crash, occ_upsert_fails_at_every_call_local, .timeout = 120) {
    g_props = OCC;
    crash_loop(WT_LOCAL);
}

/* The file groups on 4 threads (hoodie.hudic.parallelism): the failing call lands in any of
 * them, the others may have written their files already; the failed write still reads as
 * before, and the next write rolls its files back (by their markers) and commits. */
static const char *const PAR4[] = {"hoodie.hudic.parallelism", "4", NULL};
Test(write_crash, parallel_upsert_fails_at_every_call_memory, .timeout = 120) {
    g_props = PAR4;
    crash_loop(WT_MEMORY);
}
Test(write_crash, parallel_upsert_fails_at_every_call_local, .timeout = 120) {
    g_props = PAR4;
    crash_loop(WT_LOCAL);
}

/* Markers in the timeline-server layout (MARKERS<n> files in one folder), on 4 threads: the
 * rollback finds a failed write's files through them. */
static const char *const FLAT4[] = {"hoodie.hudic.parallelism", "4", "hoodie.write.markers.type",
                                    "TIMELINE_SERVER_BASED", NULL};
Test(write_crash, flat_markers_upsert_fails_at_every_call_memory, .timeout = 120) {
    g_props = FLAT4;
    crash_loop(WT_MEMORY);
}
Test(write_crash, flat_markers_upsert_fails_at_every_call_local, .timeout = 120) {
    g_props = FLAT4;
    crash_loop(WT_LOCAL);
}

/* bulk_insert with its chunks' partitions on 4 threads (slices of 30 rows), and on 1: chunks of
 * 100 rows, files that roll over every 100 rows (a 1 KiB target), so a failing call lands in one
 * partition's task while the other's writes, between runs (new groups, metafiles) or in the last
 * files' closing. */
static const char *const BULK1[] = {"hoodie.hudic.parallelism", "1",
                                    "hoodie.hudic.bulk_insert.chunk.rows", "100", NULL};
static const char *const BULK4[] = {"hoodie.hudic.parallelism",
                                    "4",
                                    "hoodie.hudic.bulk_insert.chunk.rows",
                                    "100",
                                    "hoodie.hudic.bulk_insert.slice.rows",
                                    "30",
                                    NULL};
static void bulk_loop(wt_fs_kind kind, const char *const *props) {
    g_props = props;
    g_op = HUDI_WRITE_BULK_INSERT;
    g_target_bytes = 1 << 10;
    crash_loop(kind);
}
Test(write_crash, bulk_insert_fails_at_every_call_memory, .timeout = 120) {
    bulk_loop(WT_MEMORY, BULK1);
}
Test(write_crash, parallel_bulk_insert_fails_at_every_call_memory, .timeout = 120) {
    bulk_loop(WT_MEMORY, BULK4);
}
Test(write_crash, parallel_bulk_insert_fails_at_every_call_local, .timeout = 120) {
    bulk_loop(WT_LOCAL, BULK4);
}
