/* partition_prune_test.c - a filter on the partition field skips whole partitions (their
 * files are never opened) and returns exactly the rows a full scan filters to. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "read/read.h"
#include "support.h"

static int64_t read_count(hudi_table *t, const char *col, hudi_cmp_op op, int64_t v,
                          int64_t *pruned) {
    static const char *const ops[] = {
        [HUDI_CMP_EQ] = "=",  [HUDI_CMP_NE] = "!=", [HUDI_CMP_LT] = "<",
        [HUDI_CMP_LE] = "<=", [HUDI_CMP_GT] = ">",  [HUDI_CMP_GE] = ">="};
    hudi_scan_options o = HUDI_SCAN_OPTIONS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_reader *r = NULL;
    char filter[128];
    if (op == HUDI_CMP_IS_NULL || op == HUDI_CMP_IS_NOT_NULL)
        snprintf(filter, sizeof(filter), "%s IS %sNULL", col, op == HUDI_CMP_IS_NULL ? "" : "NOT ");
    else
        snprintf(filter, sizeof(filter), "%s %s %lld", col, ops[op], (long long)v);
    o.filter = filter;
    cr_assert_eq(hudi_reader_open(&r, t, &o, &err), 0, "%s", err.message);
    int64_t rows = 0;
    hudi_batch *b;
    while (hudi_reader_next(r, &b, &err) == 0 && b) rows += b->num_rows;
    cr_assert_eq(err.code, 0, "%s", err.message);
    *pruned = hudi_reader_files_pruned(r);
    hudi_reader_free(r);
    return rows;
}

Test(partition_prune, plain_partition_paths_of_a_spark_table) {
    /* byteField partitions 10, 20, 30 (not hive-style), written by Hudi 1.0 on Spark. */
    const char *dir = fixture_unzip("hudi-rs/sample_table/cow/v8_simplekeygen_nonhivestyle.zip");
    cr_assert_not_null(dir);
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_open(&t, NULL, dir, &err), 0, "%s", err.message);
    int64_t pruned = 0;
    int64_t all = read_count(t, "byteField", HUDI_CMP_IS_NOT_NULL, 0, &pruned);
    cr_assert_eq(pruned, 0);
    int64_t eq10 = read_count(t, "byteField", HUDI_CMP_EQ, 10, &pruned);
    cr_assert_gt(pruned, 0, "no partition was pruned");
    int64_t ne10 = read_count(t, "byteField", HUDI_CMP_NE, 10, &pruned);
    cr_assert_gt(pruned, 0);
    cr_assert_gt(eq10, 0);
    cr_assert_eq(eq10 + ne10, all);
    cr_assert_eq(read_count(t, "byteField", HUDI_CMP_GT, 30, &pruned), 0);
    /* A filter on another column prunes nothing. */
    read_count(t, "id", HUDI_CMP_EQ, 1, &pruned);
    cr_assert_eq(pruned, 0);
    hudi_tbl_free(t);
}

/* Rows of the query, and its files pruned. */
static int64_t read_preds(hudi_table *t, const char *filter, const hudi_read_predicate *preds,
                          int32_t n, int64_t *pruned) {
    hudi_scan_options o = HUDI_SCAN_OPTIONS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_reader *r = NULL;
    o.filter = filter;
    cr_assert_eq(hudi_reader_open_preds(&r, t, &o, preds, n, &err), 0, "%s", err.message);
    int64_t rows = 0;
    hudi_batch *b;
    while (hudi_reader_next(r, &b, &err) == 0 && b) rows += b->num_rows;
    cr_assert_eq(err.code, 0, "%s", err.message);
    const hudi_read_stats *st = hudi_reader_stats(r);
    *pruned = st->files_pruned;
    cr_assert_eq(st->files_total, (int64_t)hudi_reader_file_count(r));
    cr_assert_eq(st->rows_returned, rows);
    /* the files to read come first, then the pruned ones with the predicate that pruned them */
    for (size_t i = 0; i < hudi_reader_file_count(r); i++) {
        const hudi_read_file_info *f = hudi_reader_file(r, i);
        cr_assert_eq(f->pruned_by >= 0, i >= hudi_reader_file_count(r) - (size_t)*pruned);
        cr_assert(f->pruned_by < n + (filter ? 1 : 0));
    }
    hudi_reader_free(r);
    return rows;
}

Test(partition_prune, every_field_of_a_two_level_hive_partitioning) {
    /* byteField=10/shortField=300 (ids 1, 3), 20/100 (id 2), 30/100 (id 4), by Hudi 0.14 */
    const char *dir = fixture_unzip("hudi-rs/sample_table/cow/v6_complexkeygen_hivestyle.zip");
    cr_assert_not_null(dir);
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_open(&t, NULL, dir, &err), 0, "%s", err.message);
    int64_t pruned = 0;
    /* the text filter on the second field prunes now too */
    cr_assert_eq(read_preds(t, "shortField = 100", NULL, 0, &pruned), 2);
    cr_assert_eq(pruned, 1);
    hudi_read_predicate p[3] = {
        {"shortField", HUDI_CMP_EQ, {.i64 = 100}},
        {"byteField", HUDI_CMP_GE, {.i64 = 30}},
        {"id", HUDI_CMP_LT, {.i64 = 4}},
    };
    cr_assert_eq(read_preds(t, NULL, p, 2, &pruned), 1);
    cr_assert_eq(pruned, 2);
    /* rows are filtered exactly: id 4 is the only row of the partition left */
    cr_assert_eq(read_preds(t, NULL, p, 3, &pruned), 0);
    cr_assert_eq(read_preds(t, "id >= 2", p + 2, 1, &pruned), 2);
    cr_assert_eq(pruned, 0);
    /* an unknown column fails, naming it */
    hudi_read_predicate bad = {"nope", HUDI_CMP_IS_NULL, {.is_null = true}};
    hudi_reader *r = NULL;
    hudi_scan_options o = HUDI_SCAN_OPTIONS_INIT;
    cr_assert_eq(hudi_reader_open_preds(&r, t, &o, &bad, 1, &err), HUDI_ENOTFOUND);
    cr_assert(strstr(err.message, "nope"), "%s", err.message);
    hudi_tbl_free(t);
}

/* Rows of a query whose only restriction is hudi_reader_prune_in(column, values), and the files
 * it pruned (each reporting pruned_by = n_preds + 0: the first IN list after the predicates). */
static int64_t read_in(hudi_table *t, const hudi_read_predicate *preds, int32_t n_preds,
                       const char *column, const hudi_value *values, int32_t n, int64_t *pruned) {
    hudi_scan_options o = HUDI_SCAN_OPTIONS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_reader *r = NULL;
    cr_assert_eq(hudi_reader_open_preds(&r, t, &o, preds, n_preds, &err), 0, "%s", err.message);
    int64_t before = hudi_reader_stats(r)->files_pruned;
    cr_assert_eq(hudi_reader_prune_in(r, column, values, n, &err), 0, "%s", err.message);
    int64_t rows = 0;
    hudi_batch *b;
    while (hudi_reader_next(r, &b, &err) == 0 && b) rows += b->num_rows;
    cr_assert_eq(err.code, 0, "%s", err.message);
    *pruned = hudi_reader_stats(r)->files_pruned;
    size_t all = hudi_reader_file_count(r), by_in = 0;
    for (size_t i = 0; i < all; i++) {
        const hudi_read_file_info *f = hudi_reader_file(r, i);
        cr_assert_eq(f->pruned_by >= 0, i >= all - (size_t)*pruned);
        by_in += f->pruned_by == n_preds;
    }
    cr_assert_eq((int64_t)by_in, *pruned - before);
    /* too late once reading began */
    cr_assert_eq(hudi_reader_prune_in(r, column, values, n, &err), HUDI_EINVAL);
    hudi_reader_free(r);
    return rows;
}

Test(partition_prune, in_list_keeps_a_partition_when_any_value_matches) {
    /* byteField=10/shortField=300 (ids 1, 3), 20/100 (id 2), 30/100 (id 4), by Hudi 0.14 */
    const char *dir = fixture_unzip("hudi-rs/sample_table/cow/v6_complexkeygen_hivestyle.zip");
    cr_assert_not_null(dir);
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_open(&t, NULL, dir, &err), 0, "%s", err.message);
    int64_t pruned = 0;
    hudi_value v10_30[] = {{.i64 = 10}, {.i64 = 30}};
    /* rows are not filtered by it: both rows of 10/300 and the row of 30/100 */
    cr_assert_eq(read_in(t, NULL, 0, "byteField", v10_30, 2, &pruned), 3);
    cr_assert_eq(pruned, 1);
    hudi_value v300_7[] = {{.i64 = 7}, {.i64 = 300}, {.is_null = true}};
    cr_assert_eq(read_in(t, NULL, 0, "shortField", v300_7, 3, &pruned), 2);
    cr_assert_eq(pruned, 2);
    /* NULL items match nothing */
    hudi_value nulls[] = {{.is_null = true}};
    cr_assert_eq(read_in(t, NULL, 0, "byteField", nulls, 1, &pruned), 0);
    cr_assert_eq(pruned, 3);
    /* after a predicate: files it pruned keep its index; a data column prunes nothing */
    hudi_read_predicate ge = {"byteField", HUDI_CMP_GE, {.i64 = 20}};
    cr_assert_eq(read_in(t, &ge, 1, "byteField", v10_30, 2, &pruned), 1);
    cr_assert_eq(pruned, 2);
    hudi_value ids[] = {{.i64 = 1}, {.i64 = 2}};
    cr_assert_eq(read_in(t, NULL, 0, "id", ids, 2, &pruned), 4);
    cr_assert_eq(pruned, 0);
    hudi_tbl_free(t);
}

Test(partition_prune, bad_filter_fails_without_an_error_record) {
    /* hudi_error_wrap returns 0 when err is NULL: the reader must return its own code. */
    const char *dir = fixture_unzip("hudi-rs/sample_table/cow/v8_simplekeygen_nonhivestyle.zip");
    cr_assert_not_null(dir);
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_open(&t, NULL, dir, &err), 0, "%s", err.message);
    hudi_scan_options o = HUDI_SCAN_OPTIONS_INIT;
    o.filter = "no_such_column = 1";
    hudi_reader *r = NULL;
    cr_assert_lt(hudi_reader_open(&r, t, &o, NULL), 0);
    cr_assert_null(r);
    cr_assert_lt(hudi_reader_open(&r, t, &o, &err), 0);
    cr_assert(strstr(err.message, "filter") != NULL, "%s", err.message);
    hudi_tbl_free(t);
}
