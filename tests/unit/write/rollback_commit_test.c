/* rollback_commit_test.c - rolling back a completed commit (hudi_tbl_rollback_commit, Hudi's
 * rollback_to_instant): the table reads as before the commit, later commits block it, and a
 * crash at any storage call leaves the table reading as before or as after the rollback. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "table/tbl.h"
#include "wt_util.h"

static const char *const PARTS[] = {"a", "b"};

Test(rollback_commit, upsert_then_rollback_reads_as_before) {
    char base[256];
    hudi_fs *fs = wt_fs(WT_LOCAL, base, sizeof(base));
    hudi_field schema;
    wt_schema(&schema, false);
    hudi_table *t = wt_create(fs, base, NULL, "part", true, true, &schema);
    hudi_batch *b1 = wt_batch_range(&schema, 0, 20, 1, PARTS, 2);
    char first[64];
    snprintf(first, sizeof(first), "%s", wt_write(t, b1, HUDI_WRITE_UPSERT));
    char *before = wt_dump(t, NULL);
    hudi_batch *b2 = wt_batch_range(&schema, 10, 20, 2, PARTS, 2); /* updates and inserts */
    char second[64];
    snprintf(second, sizeof(second), "%s", wt_write(t, b2, HUDI_WRITE_UPSERT));
    hudi_error err = HUDI_ERROR_INIT;
    /* not the latest: refused */
    cr_assert_eq(hudi_tbl_rollback_commit(t, first, NULL, &err), HUDI_ECONFLICT);
    cr_assert(strstr(err.message, "please rollback greater commits first"), "%s", err.message);
    cr_assert_eq(hudi_tbl_rollback_commit(t, "20000101000000000", NULL, &err), HUDI_ENOTFOUND);
    cr_assert_eq(hudi_tbl_rollback_commit(t, second, NULL, &err), 0, "%s", err.message);
    char *after = wt_dump_path(fs, base, NULL);
    cr_assert_str_eq(after, before);
    /* the timeline: the commit is gone, a rollback instant names it */
    hudi_table *t2 = NULL;
    cr_assert_eq(hudi_tbl_open(&t2, fs, base, &err), 0);
    const hudi_instant *in = NULL;
    cr_assert_eq(hudi_timeline_find(&in, t2->timeline, second, &err), HUDI_ENOTFOUND);
    bool has_rollback = false;
    for (size_t i = 0; i < t2->timeline->count; i++)
        has_rollback |= t2->timeline->instants[i].action == HUDI_ACTION_ROLLBACK &&
                        t2->timeline->instants[i].state == HUDI_STATE_COMPLETED;
    cr_assert(has_rollback);
    /* the first commit can go too now, and a new write works afterwards */
    cr_assert_eq(hudi_tbl_rollback_commit(t2, first, NULL, &err), 0, "%s", err.message);
    char *empty = wt_dump_path(fs, base, NULL);
    cr_assert_str_eq(empty, "");
    wt_write(t2, b2, HUDI_WRITE_UPSERT);
    char *again = wt_dump(t2, NULL);
    cr_assert_eq(wt_lines(again), 20);
    free(again);
    free(before);
    free(after);
    free(empty);
    hudi_batch_free(b1);
    hudi_batch_free(b2);
    hudi_tbl_free(t);
    hudi_tbl_free(t2);
    hudi_field_dispose(&schema);
    wt_fs_cleanup(WT_LOCAL, base);
    hudi_fs_free(fs);
}

Test(rollback_commit, replacecommit_restores_replaced_groups) {
    char base[256];
    hudi_fs *fs = wt_fs(WT_LOCAL, base, sizeof(base));
    hudi_field schema;
    wt_schema(&schema, false);
    hudi_table *t = wt_create(fs, base, NULL, "part", true, true, &schema);
    hudi_batch *b1 = wt_batch_range(&schema, 0, 10, 1, PARTS, 2);
    wt_write(t, b1, HUDI_WRITE_UPSERT);
    char *before = wt_dump(t, NULL);
    hudi_batch *b2 = wt_batch_range(&schema, 100, 3, 1, PARTS, 2);
    char ow[64];
    snprintf(ow, sizeof(ow), "%s", wt_write(t, b2, HUDI_WRITE_INSERT_OVERWRITE_TABLE));
    char *mid = wt_dump(t, NULL);
    cr_assert_eq(wt_lines(mid), 3);
    free(mid);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_rollback_commit(t, ow, NULL, &err), 0, "%s", err.message);
    char *after = wt_dump_path(fs, base, NULL);
    cr_assert_str_eq(after, before);
    free(before);
    free(after);
    hudi_batch_free(b1);
    hudi_batch_free(b2);
    hudi_tbl_free(t);
    hudi_field_dispose(&schema);
    wt_fs_cleanup(WT_LOCAL, base);
    hudi_fs_free(fs);
}

Test(rollback_commit, crash_at_every_call_reads_before_or_after) {
    hudi_field schema;
    wt_schema(&schema, false);
    hudi_batch *b1 = wt_batch_range(&schema, 0, 8, 1, PARTS, 2);
    hudi_batch *b2 = wt_batch_range(&schema, 4, 8, 2, PARTS, 2);
    int saw_before = 0, saw_after = 0;
    for (int64_t n = 1; n < 400; n++) {
        char base[256];
        hudi_fs *fs = wt_fs(WT_LOCAL, base, sizeof(base));
        hudi_table *t = wt_create(fs, base, NULL, "part", true, true, &schema);
        wt_write(t, b1, HUDI_WRITE_UPSERT);
        char *before = wt_dump(t, NULL);
        char second[64];
        snprintf(second, sizeof(second), "%s", wt_write(t, b2, HUDI_WRITE_UPSERT));
        char *latest = wt_dump(t, NULL);
        hudi_tbl_free(t);
        hudi_fs *faulty = NULL;
        cr_assert_eq(hudi_fs_faulty_new(&faulty, fs, (hudi_fault_plan){n, -1, true}, NULL), 0);
        hudi_error err = HUDI_ERROR_INIT;
        hudi_table *ft = NULL;
        int rc = hudi_tbl_open(&ft, faulty, base, &err);
        if (rc == 0) rc = hudi_tbl_rollback_commit(ft, second, NULL, &err);
        bool tripped = hudi_fs_faulty_tripped(faulty);
        hudi_tbl_free(ft);
        hudi_fs_free(faulty);
        char *now = wt_dump_path(fs, base, NULL);
        if (!tripped) {
            cr_assert_eq(rc, 0, "%s", err.message);
            cr_assert_str_eq(now, before);
        } else {
            /* a crash: the table reads as with the commit, or without it */
            bool is_before = strcmp(now, before) == 0, is_latest = strcmp(now, latest) == 0;
            cr_assert(is_before || is_latest, "fault at call %lld left:\n%s", (long long)n, now);
            saw_before += is_before;
            saw_after += is_latest;
            /* and the next writer's recovery finishes the job or keeps the commit */
            hudi_table *rt = NULL;
            cr_assert_eq(hudi_tbl_open(&rt, fs, base, &err), 0, "%s", err.message);
            cr_assert_geq(hudi_tbl_rollback_pending(rt, NULL, &err), 0, "%s", err.message);
            char *rec = wt_dump(rt, NULL);
            cr_assert(strcmp(rec, before) == 0 || strcmp(rec, latest) == 0);
            free(rec);
            hudi_tbl_free(rt);
        }
        free(now);
        free(before);
        free(latest);
        wt_fs_cleanup(WT_LOCAL, base);
        hudi_fs_free(fs);
        if (!tripped) break;
    }
    cr_assert_gt(saw_before, 0);
    cr_assert_gt(saw_after, 0);
    hudi_batch_free(b1);
    hudi_batch_free(b2);
    hudi_field_dispose(&schema);
}
