/* write_test.c - the copy-on-write write path, end to end through the reader: create + insert,
 * upserts with out-of-order ordering values (both payload semantics), deletes (by key and by
 * _hoodie_is_deleted), insert_overwrite(_table) and delete_partition with time travel,
 * partitioned (hive-style and plain) and non-partitioned tables, complex keys, small-file
 * handling, populate.meta.fields=false, bulk insert sizing - each on the memory and the local
 * filesystem. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "read/read.h"
#include "wt_util.h"

static const char *const P2[] = {"a", "b"};

static size_t count_active_files(hudi_table *t) {
    hudi_fs_view *v = NULL;
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0);
    cr_assert_eq(hudi_fs_view_build(&v, t->timeline, &vo, &err), 0, "%s", err.message);
    size_t n = 0;
    hudi_fs_view_latest_slices(v, &n);
    hudi_fs_view_free(v);
    return n;
}

static void insert_read_back(wt_fs_kind kind) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(kind, base, sizeof(base));
    hudi_table *t = wt_create(fs, base, NULL, "part", true, true, &s);
    hudi_batch *b = wt_batch_range(&s, 1, 10, 100, P2, 2);
    wt_write(t, b, HUDI_WRITE_INSERT);
    char *d = wt_dump_path(fs, base, NULL);
    cr_assert_eq(wt_lines(d), 10);
    cr_assert(strstr(d, "000001|n1|100|b\n"), "%s", d);
    cr_assert(strstr(d, "000010|n10|100|a\n"), "%s", d);
    cr_assert_eq(count_active_files(t), 2); /* one file group per partition */
    free(d);
    hudi_batch_free(b);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

Test(write, insert_read_back_memory) { insert_read_back(WT_MEMORY); }
Test(write, insert_read_back_local) { insert_read_back(WT_LOCAL); }

static void upsert_ordering(wt_fs_kind kind, bool latest_wins) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(kind, base, sizeof(base));
    hudi_table *t = wt_create(fs, base, NULL, "part", false, true, &s);
    wt_row r1[] = {{1, "a", 10, "p", false}, {2, "b", 10, "p", false}, {3, "c", 10, "q", false}};
    hudi_batch *b1 = wt_batch(&s, r1, 3);
    char first[HUDI_INSTANT_TIME_MAX];
    snprintf(first, sizeof(first), "%s", wt_write(t, b1, HUDI_WRITE_UPSERT));
    /* In-batch duplicates: the greater ts wins regardless of position; equal ts -> later row.
     * Against storage: id 1 comes with an older ts (5 < 10), id 2 with a newer one. */
    wt_row r2[] = {{4, "d1", 7, "q", false},    {4, "d0", 3, "q", false},
                   {1, "a-old", 5, "p", false}, {2, "b-new", 20, "p", false},
                   {5, "e1", 1, "p", false},    {5, "e2", 1, "p", false}};
    hudi_batch *b2 = wt_batch(&s, r2, 6);
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    hudi_table_write_result res;
    hudi_error err = HUDI_ERROR_INIT;
    o.latest_wins = latest_wins;
    cr_assert_eq(hudi_tbl_write(t, b2, &o, &res, &err), 0, "%s", err.message);
    cr_assert_eq(res.inserts, 2);
    cr_assert_eq(res.updates, 2);
    char *d = wt_dump_path(fs, base, NULL);
    const char *want = latest_wins ? "000001|a-old|5|p\n000002|b-new|20|p\n000003|c|10|q\n"
                                     "000004|d1|7|q\n000005|e2|1|p\n"
                                   : "000001|a|10|p\n000002|b-new|20|p\n000003|c|10|q\n"
                                     "000004|d1|7|q\n000005|e2|1|p\n";
    cr_assert_str_eq(d, want);
    free(d);
    /* Incremental read of the second commit: a stored record that won over the incoming one
     * was carried over unchanged, so it is not a change of that commit. */
    hudi_scan_options ro = HUDI_SCAN_OPTIONS_INIT;
    const char *cols[] = {"_hoodie_commit_time", "id"};
    ro.begin_instant = first;
    ro.columns = cols;
    ro.n_columns = 2;
    hudi_reader *rd = NULL;
    cr_assert_eq(hudi_reader_open(&rd, t, &ro, &err), 0, "%s", err.message);
    int64_t changed = 0;
    hudi_batch *ob;
    while (hudi_reader_next(rd, &ob, &err) == 0 && ob) changed += ob->num_rows;
    hudi_reader_free(rd);
    cr_assert_eq(changed, latest_wins ? 4 : 3, "rows changed by the second commit: %lld",
                 (long long)changed);
    hudi_batch_free(b1);
    hudi_batch_free(b2);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

Test(write, upsert_ordering_field_wins_memory) { upsert_ordering(WT_MEMORY, false); }
Test(write, upsert_ordering_field_wins_local) { upsert_ordering(WT_LOCAL, false); }
Test(write, upsert_latest_wins_memory) { upsert_ordering(WT_MEMORY, true); }

static void deletes(wt_fs_kind kind) {
    char base[512];
    hudi_field s, ks;
    wt_schema(&s, true);
    hudi_fs *fs = wt_fs(kind, base, sizeof(base));
    hudi_table *t = wt_create(fs, base, NULL, "part", true, true, &s);
    hudi_batch *b = wt_batch_range(&s, 1, 8, 10, P2, 2);
    wt_write(t, b, HUDI_WRITE_INSERT);
    /* _hoodie_is_deleted in an upsert: 2 goes, 3 is updated, 100 (unknown) writes nothing. */
    wt_row up[] = {{2, "x", 11, "a", true}, {3, "c3", 11, "b", false}, {100, "z", 1, "a", true}};
    hudi_batch *u = wt_batch(&s, up, 3);
    wt_write(t, u, HUDI_WRITE_UPSERT);
    /* DELETE by key: a batch of only the key and partition columns; 99 does not exist. */
    cr_assert_eq(hudi_field_init(&ks, "keys", HUDI_TYPE_STRUCT, false), 0);
    cr_assert_eq(hudi_field_set_children(&ks, 2), 0);
    hudi_field_init(&ks.children[0], "id", HUDI_TYPE_INT32, true);
    hudi_field_init(&ks.children[1], "part", HUDI_TYPE_STRING, true);
    hudi_batch *kb = NULL;
    cr_assert_eq(hudi_batch_new(&kb, &ks, NULL), 0);
    int32_t ids[] = {4, 5, 99};
    const char *parts[] = {"a", "b", "a"};
    for (int i = 0; i < 3; i++) {
        hudi_array_append_fixed(kb->columns[0], &ids[i], NULL);
        hudi_array_append_bytes(kb->columns[1], parts[i], 1, NULL);
    }
    kb->num_rows = 3;
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    hudi_table_write_result res;
    hudi_error err = HUDI_ERROR_INIT;
    o.op = HUDI_WRITE_DELETE;
    cr_assert_eq(hudi_tbl_write(t, kb, &o, &res, &err), 0, "%s", err.message);
    cr_assert_eq(res.deletes, 2);
    char *d = wt_dump_path(fs, base, NULL);
    cr_assert_str_eq(d, "000001|n1|10|b\n000003|c3|11|b\n000006|n6|10|a\n000007|n7|10|b\n"
                        "000008|n8|10|a\n");
    free(d);
    hudi_batch_free(b);
    hudi_batch_free(u);
    hudi_batch_free(kb);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
    hudi_field_dispose(&ks);
}

Test(write, deletes_memory) { deletes(WT_MEMORY); }
Test(write, deletes_local) { deletes(WT_LOCAL); }

static void overwrite(wt_fs_kind kind) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    static const char *const P3[] = {"x", "y", "z"};
    hudi_fs *fs = wt_fs(kind, base, sizeof(base));
    hudi_table *t = wt_create(fs, base, NULL, "part", false, true, &s);
    hudi_batch *b = wt_batch_range(&s, 0, 9, 1, P3, 3);
    char first[HUDI_INSTANT_TIME_MAX];
    snprintf(first, sizeof(first), "%s", wt_write(t, b, HUDI_WRITE_INSERT));
    /* insert_overwrite of partition x: its old rows go, y and z stay */
    wt_row ow[] = {{100, "new", 2, "x", false}};
    hudi_batch *o1 = wt_batch(&s, ow, 1);
    char second[HUDI_INSTANT_TIME_MAX];
    snprintf(second, sizeof(second), "%s", wt_write(t, o1, HUDI_WRITE_INSERT_OVERWRITE));
    char *d = wt_dump_path(fs, base, NULL);
    cr_assert_eq(wt_lines(d), 7, "%s", d);
    cr_assert(strstr(d, "000100|new|2|x\n") && !strstr(d, "000003|"), "%s", d);
    free(d);
    /* time travel to the first commit sees the replaced file group */
    d = wt_dump_path(fs, base, first);
    cr_assert_eq(wt_lines(d), 9, "%s", d);
    cr_assert(strstr(d, "000003|n3|1|x\n"), "%s", d);
    free(d);
    /* delete_partition y */
    const char *drop[] = {"y"};
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    o.op = HUDI_WRITE_DELETE_PARTITION;
    o.partitions = drop;
    o.n_partitions = 1;
    cr_assert_eq(hudi_tbl_write(t, NULL, &o, NULL, &err), 0, "%s", err.message);
    d = wt_dump_path(fs, base, NULL);
    cr_assert_str_eq(d, "000002|n2|1|z\n000005|n5|1|z\n000008|n8|1|z\n000100|new|2|x\n");
    free(d);
    d = wt_dump_path(fs, base, second);
    cr_assert_eq(wt_lines(d), 7, "%s", d);
    free(d);
    /* insert_overwrite_table: only the new rows remain */
    wt_row ot[] = {{7, "t", 3, "q", false}};
    hudi_batch *o2 = wt_batch(&s, ot, 1);
    wt_write(t, o2, HUDI_WRITE_INSERT_OVERWRITE_TABLE);
    d = wt_dump_path(fs, base, NULL);
    cr_assert_str_eq(d, "000007|t|3|q\n");
    free(d);
    cr_assert_eq(count_active_files(t), 1);
    hudi_batch_free(b);
    hudi_batch_free(o1);
    hudi_batch_free(o2);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

Test(write, overwrite_and_delete_partition_memory) { overwrite(WT_MEMORY); }
Test(write, overwrite_and_delete_partition_local) { overwrite(WT_LOCAL); }

/* Non-partitioned, complex key (id,name): a second small insert lands in the same file group. */
static void nonpartitioned_complex(wt_fs_kind kind) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    static const char *const P1[] = {"p"};
    hudi_fs *fs = wt_fs(kind, base, sizeof(base));
    hudi_table *t = wt_create(fs, base, "id,name", NULL, false, true, &s);
    cr_assert_str_eq(t->cfg.keygen_class, "org.apache.hudi.keygen.NonpartitionedKeyGenerator");
    hudi_batch *b1 = wt_batch_range(&s, 0, 5, 1, P1, 1);
    hudi_batch *b2 = wt_batch_range(&s, 5, 5, 1, P1, 1);
    wt_write(t, b1, HUDI_WRITE_INSERT);
    wt_write(t, b2, HUDI_WRITE_INSERT);
    cr_assert_eq(count_active_files(t), 1);
    /* update (id 1, name n1) by its complex key */
    wt_row up[] = {{1, "n1", 9, "changed", false}};
    hudi_batch *u = wt_batch(&s, up, 1);
    wt_write(t, u, HUDI_WRITE_UPSERT);
    char *d = wt_dump_path(fs, base, NULL);
    cr_assert_eq(wt_lines(d), 10, "%s", d);
    cr_assert(strstr(d, "000001|n1|9|changed\n"), "%s", d);
    free(d);
    cr_assert_eq(count_active_files(t), 1);
    hudi_batch_free(b1);
    hudi_batch_free(b2);
    hudi_batch_free(u);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

Test(write, nonpartitioned_complex_small_files_memory) { nonpartitioned_complex(WT_MEMORY); }
Test(write, nonpartitioned_complex_small_files_local) { nonpartitioned_complex(WT_LOCAL); }

/* New file groups of an insert are sized from the record-size estimate and the target file
 * size (Hudi's UpsertPartitioner; bulk_insert rolls files at their actual size instead,
 * bulk_insert_test.c). */
Test(write, new_groups_sized_by_target) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    static const char *const P1[] = {"p"};
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = wt_create(fs, base, NULL, NULL, false, true, &s);
    hudi_batch *b = wt_batch_range(&s, 0, 100, 1, P1, 1);
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    hudi_table_write_result res;
    hudi_error err = HUDI_ERROR_INIT;
    o.op = HUDI_WRITE_INSERT;
    o.target_file_bytes = 1024 * 30; /* 30 records at the default 1 KiB estimate */
    cr_assert_eq(hudi_tbl_write(t, b, &o, &res, &err), 0, "%s", err.message);
    cr_assert_eq(res.files_written, 4);
    cr_assert_eq(res.inserts, 100);
    char *d = wt_dump_path(fs, base, NULL);
    cr_assert_eq(wt_lines(d), 100);
    free(d);
    hudi_batch_free(b);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}
