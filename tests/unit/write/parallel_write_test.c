/* parallel_write_test.c - a write's result does not depend on its thread count
 * (hoodie.hudic.parallelism): the same copy-on-write rounds (bulk_insert, insert into small
 * files, upsert, delete) and merge-on-read rounds (insert, upsert deltacommit of log files,
 * delete) with forced instants, a fixed clock and file ids from a seeded sequence
 * (hudi_file_id_seed_for_tests; they are random otherwise), once with 1 thread and once with 4,
 * leave byte-identical trees: the same data file names and bytes (base files, log files, partition
 * metafiles) and the same timeline files, commit metadata included (only the write stats'
 * timings differ, so they are zeroed before comparing). bulk_insert, whose chunks write their
 * partitions' files as tasks, the same with files rolling over inside and across chunks. A bad
 * parallelism value is refused. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "write/write_int.h"
#include "wt_util.h"

static const char *const P3[] = {"a", "b", "c"};

static int64_t fixed_ms(void *payload) { return *(const int64_t *)payload; }

typedef struct round {
    hudi_write_operation op;
    int32_t first, n;
    int64_t ts;
} round;

/* One write of rows first..first+n-1 at instant `instant`. */
static void write_round(hudi_table *t, const hudi_field *s, const round *r, const char *instant,
                        const char *threads) {
    int64_t now = 1767225600000LL;
    hudi_clock clock = {fixed_ms, &now};
    const char *props[] = {"hoodie.hudic.parallelism", threads, "hoodie.logfile.max.size", "4096",
                           NULL};
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    o.op = r->op;
    o.instant_time = instant;
    o.clock = &clock;
    o.props = props;
    o.target_file_bytes = 48 << 10; /* many file groups */
    o.small_file_bytes = 40 << 10;
    o.codec = HUDI_PQ_CODEC_SNAPPY;
    hudi_batch *b = wt_batch_range(s, r->first, r->n, r->ts, P3, 3);
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table_write_result res;
    cr_assert_eq(hudi_tbl_write(t, b, &o, &res, &err), 0, "%s with %s threads: %s",
                 hudi_write_operation_name(r->op), threads, err.message);
    cr_assert_str_eq(res.instant, instant);
    hudi_batch_free(b);
}

/* Replaces the numbers after "totalScanTime", "totalUpsertTime" and "totalCreateTime" by 0
 * (a file group's write time in milliseconds). */
static void zero_timings(hudi_buf *b) {
    static const char *const keys[] = {"\"totalScanTime\"", "\"totalUpsertTime\"",
                                       "\"totalCreateTime\""};
    char *s = (char *)b->data;
    for (size_t k = 0; k < 3; k++) {
        size_t kl = strlen(keys[k]);
        for (size_t i = 0; i + kl <= b->len; i++) {
            if (memcmp(s + i, keys[k], kl) != 0) continue;
            size_t j = i + kl;
            while (j < b->len && (s[j] == ' ' || s[j] == ':')) j++;
            size_t e = j;
            while (e < b->len && s[e] >= '0' && s[e] <= '9') e++;
            if (e == j) continue;
            s[j] = '0';
            memmove(s + j + 1, s + e, b->len - e);
            b->len -= e - j - 1;
        }
    }
}

typedef struct tree {
    char **names;
    size_t n;
    hudi_buf *data;
} tree;

static void tree_read(tree *tr, hudi_fs *fs, const char *base) {
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_write_list_tree(fs, base, &tr->names, &tr->n, &err), 0, "%s", err.message);
    tr->data = calloc(tr->n + 1, sizeof(hudi_buf));
    for (size_t i = 0; i < tr->n; i++) {
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", base, tr->names[i]);
        cr_assert_eq(hudi_fs_read_all(fs, path, &tr->data[i], &err), 0, "%s", err.message);
        if (strstr(tr->names[i], ".commit") || strstr(tr->names[i], ".deltacommit"))
            zero_timings(&tr->data[i]);
    }
}

static void tree_free(tree *tr) {
    for (size_t i = 0; i < tr->n; i++) hudi_buf_dispose(&tr->data[i]);
    free(tr->data);
    hudi_write_free_strings(tr->names, tr->n);
}

/* Counts the files whose names contain `what`. */
static size_t count(const tree *tr, const char *what) {
    size_t n = 0;
    for (size_t i = 0; i < tr->n; i++) n += strstr(tr->names[i], what) != NULL;
    return n;
}

static void compare(const tree *a, const tree *b) {
    cr_assert_eq(a->n, b->n, "%zu files with 1 thread, %zu with 4", a->n, b->n);
    for (size_t i = 0; i < a->n; i++) {
        cr_assert_str_eq(a->names[i], b->names[i]);
        if (strcmp(a->names[i], ".hoodie/hoodie.properties") == 0)
            continue; /* written at table creation, with the real clock */
        cr_assert(a->data[i].len == b->data[i].len &&
                      memcmp(a->data[i].data, b->data[i].data, a->data[i].len) == 0,
                  "%s differs between 1 and 4 threads", a->names[i]);
    }
}

static void run_cow(tree *out, wt_fs_kind kind, const char *threads) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(kind, base, sizeof(base));
    hudi_table *t = wt_create(fs, base, NULL, "part", true, true, &s);
    hudi_file_id_seed_for_tests(12345); /* both runs name their file groups alike */
    static const round rounds[] = {
        {HUDI_WRITE_BULK_INSERT, 0, 3000, 1}, {HUDI_WRITE_INSERT, 3000, 600, 2},
        {HUDI_WRITE_UPSERT, 100, 1200, 3}, /* 1200 updates */
        {HUDI_WRITE_UPSERT, 3500, 400, 4}, /* 100 updates, 300 inserts */
        {HUDI_WRITE_DELETE, 200, 500, 5},
    };
    static const char *const instants[] = {"20260101000000001", "20260101000000002",
                                           "20260101000000003", "20260101000000004",
                                           "20260101000000005"};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(rounds); i++)
        write_round(t, &s, &rounds[i], instants[i], threads);
    char *dump = wt_dump(t, NULL);
    cr_assert_eq(wt_lines(dump), 3900 - 500);
    free(dump);
    hudi_file_id_seed_for_tests(0);
    tree_read(out, fs, base);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    wt_fs_cleanup(kind, base);
    hudi_field_dispose(&s);
}

static void run_mor(tree *out, wt_fs_kind kind, const char *threads) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(kind, base, sizeof(base));
    hudi_table *t = wt_mor_create(fs, base, &s, "pw");
    hudi_file_id_seed_for_tests(12345);
    static const round rounds[] = {
        {HUDI_WRITE_INSERT, 0, 2000, 1},
        {HUDI_WRITE_UPSERT, 0, 1500, 2}, /* log files in every group, some rolled over */
        {HUDI_WRITE_DELETE, 300, 400, 3},
        {HUDI_WRITE_UPSERT, 1900, 300, 4}, /* 100 updates, 200 new keys */
    };
    static const char *const instants[] = {"20260101000000001", "20260101000000002",
                                           "20260101000000003", "20260101000000004"};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(rounds); i++)
        write_round(t, &s, &rounds[i], instants[i], threads);
    hudi_file_id_seed_for_tests(0);
    tree_read(out, fs, base);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    wt_fs_cleanup(kind, base);
    hudi_field_dispose(&s);
}

static void same_cow(wt_fs_kind kind) {
    tree one = {0}, four = {0};
    run_cow(&one, kind, "1");
    run_cow(&four, kind, "4");
    cr_assert_gt(count(&one, ".parquet"), 12, "the test needs many file groups");
    compare(&one, &four);
    tree_free(&one);
    tree_free(&four);
}

static void same_mor(wt_fs_kind kind) {
    tree one = {0}, four = {0};
    run_mor(&one, kind, "1");
    run_mor(&four, kind, "4");
    cr_assert_gt(count(&one, ".log."), 8, "the test needs log files in many file groups");
    compare(&one, &four);
    tree_free(&one);
    tree_free(&four);
}

Test(parallel_write, cow_rounds_identical_with_1_and_4_threads_memory, .timeout = 120) {
    same_cow(WT_MEMORY);
}
Test(parallel_write, cow_rounds_identical_with_1_and_4_threads_local, .timeout = 120) {
    same_cow(WT_LOCAL);
}
Test(parallel_write, mor_rounds_identical_with_1_and_4_threads_memory, .timeout = 120) {
    same_mor(WT_MEMORY);
}
Test(parallel_write, mor_rounds_identical_with_1_and_4_threads_local, .timeout = 120) {
    same_mor(WT_LOCAL);
}

/* bulk_insert on the pool (tasks of 40 rows of one partition, a partition's in order): chunks of
 * 700 rows over five partitions and 8 KiB files with 16 KiB row groups, so files roll inside
 * chunks (a chunk then takes several runs) and across them; a second bulk_insert adds file groups
 * next to the first's. Once with the key column, once with generated keys (keys.md §9). */
static const char *const P5[] = {"p0", "p1", "p2", "p3", "p4"};

static hudi_table *create_bulk(hudi_fs *fs, const char *base, const hudi_field *s, bool auto_keys) {
    return wt_create_parted(fs, base, s, true, auto_keys);
}

static void run_bulk(tree *out, wt_fs_kind kind, const char *threads, bool auto_keys) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(kind, base, sizeof(base));
    hudi_table *t = create_bulk(fs, base, &s, auto_keys);
    hudi_file_id_seed_for_tests(12345);
    static const char *const instants[] = {"20260101000000001", "20260101000000002"};
    for (int k = 0; k < 2; k++) {
        int64_t now = 1767225600000LL;
        hudi_clock clock = {fixed_ms, &now};
        const char *props[] = {"hoodie.hudic.parallelism",
                               threads,
                               "hoodie.hudic.bulk_insert.chunk.rows",
                               "700",
                               "hoodie.hudic.bulk_insert.slice.rows",
                               "40",
                               "hoodie.parquet.block.size",
                               "16384",
                               NULL};
        hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
        o.op = HUDI_WRITE_BULK_INSERT;
        o.instant_time = instants[k];
        o.clock = &clock;
        o.props = props;
        o.target_file_bytes = 8 << 10;
        o.codec = HUDI_PQ_CODEC_SNAPPY;
        int32_t n = 9000 - k * 3000;
        hudi_batch *b = wt_batch_range(&s, k * 9000, n, k + 1, P5, 5);
        hudi_error err = HUDI_ERROR_INIT;
        hudi_table_write_result res;
        cr_assert_eq(hudi_tbl_write(t, b, &o, &res, &err), 0, "bulk_insert %d, %s threads: %s", k,
                     threads, err.message);
        cr_assert_eq(res.inserts, n);
        hudi_batch_free(b);
    }
    char *dump = wt_dump(t, NULL);
    cr_assert_eq(wt_lines(dump), 15000);
    free(dump);
    hudi_file_id_seed_for_tests(0);
    tree_read(out, fs, base);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    wt_fs_cleanup(kind, base);
    hudi_field_dispose(&s);
}

static void same_bulk(wt_fs_kind kind, bool auto_keys) {
    tree one = {0}, four = {0};
    run_bulk(&one, kind, "1", auto_keys);
    run_bulk(&four, kind, "4", auto_keys);
    /* more files than partitions in each write: files rolled over */
    cr_assert_gt(count(&one, ".parquet"), 2 * 2 * 5, "%zu files: none rolled over",
                 count(&one, ".parquet"));
    compare(&one, &four);
    tree_free(&one);
    tree_free(&four);
}

Test(parallel_write, bulk_insert_identical_with_1_and_4_threads_memory, .timeout = 120) {
    same_bulk(WT_MEMORY, false);
}
Test(parallel_write, bulk_insert_identical_with_1_and_4_threads_local, .timeout = 120) {
    same_bulk(WT_LOCAL, false);
}
Test(parallel_write, bulk_insert_generated_keys_identical_with_1_and_4_threads, .timeout = 120) {
    same_bulk(WT_MEMORY, true);
}

Test(parallel_write, bad_parallelism_is_refused) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = wt_create(fs, base, NULL, "part", true, true, &s);
    hudi_batch *b = wt_batch_range(&s, 0, 10, 1, P3, 3);
    static const char *const bad[] = {"two", "-1", "4x", "", "1025"};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(bad); i++) {
        const char *props[] = {"hoodie.hudic.parallelism", bad[i], NULL};
        hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
        o.op = HUDI_WRITE_INSERT;
        o.props = props;
        hudi_error err = HUDI_ERROR_INIT;
        cr_assert_eq(hudi_tbl_write(t, b, &o, NULL, &err), HUDI_EINVAL, "'%s' accepted", bad[i]);
        char want[700];
        snprintf(want, sizeof(want),
                 "%s: hoodie.hudic.parallelism: '%s' is not a number of threads (0 = the "
                 "default, or 1-1024)",
                 t->base_path, bad[i]);
        cr_assert_str_eq(err.message, want);
    }
    char *dump = wt_dump(t, NULL);
    cr_assert_eq(wt_lines(dump), 0);
    free(dump);
    /* 0 = the default (the processors online) */
    const char *props0[] = {"hoodie.hudic.parallelism", "0", NULL};
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    o.op = HUDI_WRITE_INSERT;
    o.props = props0;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_write(t, b, &o, NULL, &err), 0, "%s", err.message);
    dump = wt_dump(t, NULL);
    cr_assert_eq(wt_lines(dump), 10);
    free(dump);
    hudi_batch_free(b);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}
