/* savepoint_test.c - savepoints (hudi_tbl_savepoint_*, hudi_tbl_restore_savepoint): the instant
 * files and their Avro content, the cleaner keeping savepointed files, restoring the table. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "table/tbl.h"
#include "wt_util.h"

static const char *const PARTS[] = {"a", "b"};

static void free_names(char **v, size_t n) {
    for (size_t i = 0; i < n; i++) hudi_free(v[i]);
    hudi_free(v);
}

Test(savepoint, create_clean_keeps_restore) {
    char base[256];
    hudi_fs *fs = wt_fs(WT_LOCAL, base, sizeof(base));
    hudi_field schema;
    wt_schema(&schema, false);
    hudi_table *t = wt_create(fs, base, NULL, "part", true, true, &schema);
    hudi_batch *b1 = wt_batch_range(&schema, 0, 10, 1, PARTS, 2);
    hudi_batch *b2 = wt_batch_range(&schema, 0, 10, 2, PARTS, 2); /* updates every row */
    char first[64];
    snprintf(first, sizeof(first), "%s", wt_write(t, b1, HUDI_WRITE_UPSERT));
    char *at_first = wt_dump(t, NULL);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_savepoint_create(t, "20000101000000000", "me", "", NULL, &err),
                 HUDI_ENOTFOUND);
    cr_assert(strstr(err.message, "Could not savepoint non-existing commit"), "%s", err.message);
    cr_assert_eq(hudi_tbl_savepoint_create(t, first, "ann", "before the update", NULL, &err), 0,
                 "%s", err.message);
    cr_assert_eq(hudi_tbl_savepoint_create(t, first, "ann", "", NULL, &err), HUDI_EEXISTS);
    /* the completed savepoint holds Avro HoodieSavepointMetadata */
    hudi_tbl_reload(t, &err);
    const hudi_instant *sp = NULL;
    for (size_t i = 0; i < t->timeline->count; i++)
        if (t->timeline->instants[i].action == HUDI_ACTION_SAVEPOINT &&
            t->timeline->instants[i].state == HUDI_STATE_COMPLETED)
            sp = &t->timeline->instants[i];
    cr_assert_not_null(sp);
    cr_assert_str_eq(sp->time, first);
    hudi_buf json = HUDI_BUF_INIT;
    cr_assert_eq(hudi_timeline_read_json(&json, t->timeline, sp, &err), 0, "%s", err.message);
    cr_assert(strstr(json.data, "\"savepointedBy\":\"ann\""), "%s", json.data);
    cr_assert(strstr(json.data, "\"comments\":\"before the update\""), "%s", json.data);
    cr_assert(strstr(json.data, "\"partitionPath\":\"part=a\""), "%s", json.data);
    cr_assert(strstr(json.data, first), "%s", json.data);
    hudi_buf_dispose(&json);
    /* three more commits, then a clean retaining one commit: the savepointed files stay */
    for (int i = 0; i < 3; i++) wt_write(t, b2, HUDI_WRITE_UPSERT);
    cr_assert_geq(hudi_tbl_clean(t, 1, NULL, &err), 0, "%s", err.message);
    char *as_of_first = wt_dump_path(fs, base, first);
    cr_assert_str_eq(as_of_first, at_first, "time travel to the savepoint still reads it");
    char **names = NULL;
    size_t n = 0;
    cr_assert_eq(hudi_tbl_savepoints(t, &names, &n, &err), 0);
    cr_assert_eq(n, 1);
    cr_assert_str_eq(names[0], first);
    free_names(names, n);
    /* restore: the table reads as at the savepoint, which stays */
    cr_assert_eq(hudi_tbl_restore_savepoint(t, first, NULL, &err), 0, "%s", err.message);
    char *restored = wt_dump_path(fs, base, NULL);
    cr_assert_str_eq(restored, at_first);
    cr_assert_eq(hudi_tbl_savepoints(t, &names, &n, &err), 0);
    cr_assert_eq(n, 1);
    free_names(names, n);
    /* and the table takes writes again */
    wt_write(t, b2, HUDI_WRITE_UPSERT);
    cr_assert_eq(hudi_tbl_savepoint_delete(t, first, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_tbl_savepoint_delete(t, first, &err), HUDI_ENOTFOUND);
    cr_assert_eq(hudi_tbl_restore_savepoint(t, first, NULL, &err), HUDI_ENOTFOUND);
    free(at_first);
    free(as_of_first);
    free(restored);
    hudi_batch_free(b1);
    hudi_batch_free(b2);
    hudi_tbl_free(t);
    hudi_field_dispose(&schema);
    wt_fs_cleanup(WT_LOCAL, base);
    hudi_fs_free(fs);
}

Test(savepoint, lookup_window_and_later_savepoints) {
    char base[256];
    hudi_fs *fs = wt_fs(WT_LOCAL, base, sizeof(base));
    hudi_field schema;
    wt_schema(&schema, false);
    hudi_table *t = wt_create(fs, base, NULL, "part", true, true, &schema);
    hudi_batch *b = wt_batch_range(&schema, 0, 4, 1, PARTS, 2);
    char c[4][64];
    for (int i = 0; i < 4; i++)
        snprintf(c[i], sizeof(c[i]), "%s", wt_write(t, b, HUDI_WRITE_UPSERT));
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_gt(hudi_tbl_clean(t, 2, NULL, &err), 0, "%s", err.message);
    /* the clean retained the last two commits: the first is beyond the lookup window */
    cr_assert_eq(hudi_tbl_savepoint_create(t, c[0], "", "", NULL, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "beyond the lookup window"), "%s", err.message);
    cr_assert_eq(hudi_tbl_savepoint_create(t, c[2], "", "", NULL, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_tbl_savepoint_create(t, c[3], "", "", NULL, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_tbl_restore_savepoint(t, c[2], NULL, &err), HUDI_ECONFLICT);
    cr_assert(strstr(err.message, "later savepoint"), "%s", err.message);
    hudi_batch_free(b);
    hudi_tbl_free(t);
    hudi_field_dispose(&schema);
    wt_fs_cleanup(WT_LOCAL, base);
    hudi_fs_free(fs);
}
