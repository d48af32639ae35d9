/* missing_files_test.c - a base file that a completed commit names but storage lacks (deleted
 * by hand, half-copied table) fails reads with an error naming the commit and the file, instead
 * of reading the file group's older rows; ignore_missing_files skips the group with a warning.
 * Cleaned older slices, replaced file groups and incremental ranges that do not cover the
 * commit still read. Tables are written by hudic and files removed through the storage layer. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hudi/hudi_table.h"
#include "read/read.h"
#include "support.h"
#include "wt_util.h"

static const char *const P2[] = {"a", "b"};

typedef struct read_result {
    int rc;
    uint64_t ids; /* bit i set when the row with id i was read (ids < 64) */
    int64_t rows;
    char message[512]; /* the error, or the warning */
    int64_t missing;
} read_result;

static read_result read_table(hudi_table *t, const hudi_scan_options *given) {
    static const char *const cols[] = {"id"};
    hudi_scan_options ro = *given;
    hudi_reader *r = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    read_result out = {0};
    ro.columns = cols;
    ro.n_columns = 1;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0, "%s", err.message);
    if ((out.rc = hudi_reader_open(&r, t, &ro, &err)) < 0) {
        snprintf(out.message, sizeof(out.message), "%s", err.message);
        return out;
    }
    if (hudi_reader_warning(r))
        snprintf(out.message, sizeof(out.message), "%s", hudi_reader_warning(r));
    out.missing = hudi_reader_files_missing(r);
    for (;;) {
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_reader_next(r, &b, &err), 0, "%s", err.message);
        if (!b) break;
        for (int64_t i = 0; i < b->num_rows; i++) {
            int32_t id = ((const int32_t *)b->columns[0]->values)[i];
            cr_assert(id >= 0 && id < 64);
            out.ids |= (uint64_t)1 << id;
            out.rows++;
        }
    }
    hudi_reader_free(r);
    return out;
}

static read_result read_as_of(hudi_table *t, const char *as_of, bool ignore) {
    hudi_scan_options ro = HUDI_SCAN_OPTIONS_INIT;
    ro.as_of_instant = as_of;
    ro.ignore_missing_files = ignore;
    return read_table(t, &ro);
}

static uint64_t ids(int first, int last, int step) {
    uint64_t m = 0;
    for (int i = first; i <= last; i += step) m |= (uint64_t)1 << i;
    return m;
}

/* The relative path (partition/name) of the latest base file in `partition`: malloc'ed. */
static char *latest_base(hudi_table *t, const char *partition, char **abs_path) {
    hudi_fs_view *v = NULL;
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0);
    cr_assert_eq(hudi_fs_view_build(&v, t->timeline, &vo, &err), 0, "%s", err.message);
    const hudi_file_slice *s = NULL;
    size_t n = 0;
    hudi_fs_view_latest_slices_in(v, partition, &s, &n);
    cr_assert_eq(n, 1, "partition %s: %zu file groups", partition, n);
    cr_assert_not_null(s->base);
    char rel[1024];
    snprintf(rel, sizeof(rel), "%s/%s", partition, s->base->name);
    *abs_path = strdup(s->base->path);
    hudi_fs_view_free(v);
    return strdup(rel);
}

static void remove_file(hudi_fs *fs, const char *path) {
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_fs_remove(fs, path, &err), 0, "%s", err.message);
}

/* A fresh table (one commit, one file group per partition) loses one base file. */
static void fresh_table(wt_fs_kind kind) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(kind, base, sizeof(base));
    hudi_table *t = wt_create(fs, base, NULL, "part", false, true, &s);
    hudi_batch *b = wt_batch_range(&s, 1, 8, 100, P2, 2); /* even ids in a, odd in b */
    char instant[HUDI_INSTANT_TIME_MAX];
    snprintf(instant, sizeof(instant), "%s", wt_write(t, b, HUDI_WRITE_INSERT));
    read_result r = read_as_of(t, NULL, false);
    cr_assert_eq(r.rc, 0, "%s", r.message);
    cr_assert_eq(r.ids, ids(1, 8, 1));
    cr_assert_eq(r.message[0], '\0', "no warning on a whole table: %s", r.message);

    char *abs = NULL, *rel = latest_base(t, "a", &abs);
    remove_file(fs, abs);
    r = read_as_of(t, NULL, false);
    cr_assert_eq(r.rc, HUDI_ENOTFOUND, "read %d: %s", r.rc, r.message);
    cr_assert(strstr(r.message, instant) && strstr(r.message, rel) && strstr(r.message, "missing"),
              "%s (want %s and %s)", r.message, instant, rel);
    /* the option reads what is there and says what it skipped */
    r = read_as_of(t, NULL, true);
    cr_assert_eq(r.rc, 0, "%s", r.message);
    cr_assert_eq(r.ids, ids(1, 7, 2), "only partition b's rows: %llx", (unsigned long long)r.ids);
    cr_assert_eq(r.missing, 1);
    cr_assert(strstr(r.message, instant) && strstr(r.message, rel), "warning: %s", r.message);
    /* time travel to the commit and an incremental read of it fail the same way */
    r = read_as_of(t, instant, false);
    cr_assert_eq(r.rc, HUDI_ENOTFOUND, "%s", r.message);
    hudi_scan_options ro = HUDI_SCAN_OPTIONS_INIT;
    ro.begin_instant = "0"; /* incremental from the start */
    r = read_table(t, &ro);
    cr_assert_eq(r.rc, HUDI_ENOTFOUND, "%s", r.message);
    free(abs);
    free(rel);
    hudi_batch_free(b);
    hudi_tbl_free(t);
    wt_fs_cleanup(kind, base);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

Test(missing_files, fresh_table_memory) { fresh_table(WT_MEMORY); }
Test(missing_files, fresh_table_local) { fresh_table(WT_LOCAL); }

/* An upsert's new base file goes missing: the old read returned the file group's previous
 * version of the rows with success; now it fails, and incremental reads of the range before
 * the upsert do not look at it. */
Test(missing_files, no_stale_rows_after_upsert) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = wt_create(fs, base, NULL, "part", false, true, &s);
    hudi_batch *b1 = wt_batch_range(&s, 1, 8, 100, P2, 2);
    char first[HUDI_INSTANT_TIME_MAX], second[HUDI_INSTANT_TIME_MAX];
    snprintf(first, sizeof(first), "%s", wt_write(t, b1, HUDI_WRITE_INSERT));
    wt_row up[] = {{2, "updated", 200, "a", false}};
    hudi_batch *b2 = wt_batch(&s, up, 1);
    snprintf(second, sizeof(second), "%s", wt_write(t, b2, HUDI_WRITE_UPSERT));
    char *abs = NULL, *rel = latest_base(t, "a", &abs);
    cr_assert(strstr(rel, second), "%s", rel);
    remove_file(fs, abs);

    read_result r = read_as_of(t, NULL, false);
    cr_assert_eq(r.rc, HUDI_ENOTFOUND, "stale read: rc %d, %lld rows", r.rc, (long long)r.rows);
    cr_assert(strstr(r.message, second) && strstr(r.message, rel), "%s", r.message);
    r = read_as_of(t, NULL, true);
    cr_assert_eq(r.rc, 0, "%s", r.message);
    cr_assert_eq(r.ids, ids(1, 7, 2), "the file group is skipped, not read stale");
    /* as of the first commit the first file is there and is the latest: nothing is missing */
    r = read_as_of(t, first, false);
    cr_assert_eq(r.rc, 0, "%s", r.message);
    cr_assert_eq(r.ids, ids(1, 8, 1));
    /* incremental (.., first] does not cover the upsert; (first, ..] does */
    hudi_scan_options ro = HUDI_SCAN_OPTIONS_INIT;
    ro.begin_instant = "0"; /* incremental (start, first] */
    ro.end_instant = first;
    r = read_table(t, &ro);
    cr_assert_eq(r.rc, 0, "%s", r.message);
    cr_assert_eq(r.rows, 8);
    ro.begin_instant = first;
    ro.end_instant = NULL;
    r = read_table(t, &ro);
    cr_assert_eq(r.rc, HUDI_ENOTFOUND, "%s", r.message);
    free(abs);
    free(rel);
    hudi_batch_free(b1);
    hudi_batch_free(b2);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* Cleaned older slices and replaced file groups are gone from storage by design: snapshot reads
 * stay clean; only time travel to before the cleaner's retention is refused, saying so. */
Test(missing_files, cleaned_and_replaced_groups_read) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = wt_create(fs, base, NULL, "part", false, true, &s);
    char instants[4][HUDI_INSTANT_TIME_MAX];
    hudi_batch *b = wt_batch_range(&s, 1, 8, 100, P2, 2);
    snprintf(instants[0], HUDI_INSTANT_TIME_MAX, "%s", wt_write(t, b, HUDI_WRITE_INSERT));
    hudi_batch_free(b);
    for (int i = 1; i < 3; i++) {
        b = wt_batch_range(&s, 1, 8, 100 + i, P2, 2);
        snprintf(instants[i], HUDI_INSTANT_TIME_MAX, "%s", wt_write(t, b, HUDI_WRITE_UPSERT));
        hudi_batch_free(b);
    }
    /* insert_overwrite of partition b replaces its file group */
    wt_row ow[] = {{41, "new", 1, "b", false}};
    b = wt_batch(&s, ow, 1);
    snprintf(instants[3], HUDI_INSTANT_TIME_MAX, "%s", wt_write(t, b, HUDI_WRITE_INSERT_OVERWRITE));
    hudi_batch_free(b);
    /* one more commit, so the replacecommit falls before the retained one */
    wt_row up[] = {{2, "last", 300, "a", false}};
    b = wt_batch(&s, up, 1);
    wt_write(t, b, HUDI_WRITE_UPSERT);
    hudi_batch_free(b);
    hudi_error err = HUDI_ERROR_INIT;
    int n = hudi_tbl_clean(t, 1, NULL, &err);
    /* a's two oldest slices (the newest before the retained commit stays), b's replaced group
     * (three slices) */
    cr_assert_eq(n, 5, "cleaned %d: %s", n, err.message);

    read_result r = read_as_of(t, NULL, false);
    cr_assert_eq(r.rc, 0, "%s", r.message);
    cr_assert_eq(r.ids, ids(2, 8, 2) | ids(41, 41, 1));
    cr_assert_eq(r.message[0], '\0', "%s", r.message);
    /* the first commit's files were cleaned: as of it, the read cannot be answered */
    r = read_as_of(t, instants[0], false);
    cr_assert_eq(r.rc, HUDI_ENOTFOUND, "%s", r.message);
    cr_assert(strstr(r.message, instants[0]) && strstr(r.message, "clean"), "%s", r.message);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* The public API: the option and the warning of a scan. */
Test(missing_files, public_scan_option) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_LOCAL, base, sizeof(base));
    hudi_table *t = wt_create(fs, base, NULL, "part", false, true, &s);
    hudi_batch *b = wt_batch_range(&s, 1, 8, 100, P2, 2);
    wt_write(t, b, HUDI_WRITE_INSERT);
    char *abs = NULL, *rel = latest_base(t, "b", &abs);
    remove_file(fs, abs);

    hudi_table *pt = NULL;
    hudi_scan *scan = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_table_open(&pt, base, NULL, &err), 0, "%s", err.message);
    hudi_scan_options so = HUDI_SCAN_OPTIONS_INIT;
    cr_assert_eq(hudi_scan_open(&scan, pt, &so, &err), HUDI_ENOTFOUND);
    cr_assert(strstr(err.message, rel), "%s", err.message);
    so.ignore_missing_files = true;
    cr_assert_eq(hudi_scan_open(&scan, pt, &so, &err), 0, "%s", err.message);
    const char *w = hudi_scan_warning(scan);
    cr_assert(w && strstr(w, rel), "%s", w ? w : "(no warning)");
    hudi_scan_free(scan);
    hudi_table_free(pt);
    free(abs);
    free(rel);
    hudi_batch_free(b);
    hudi_tbl_free(t);
    wt_fs_cleanup(WT_LOCAL, base);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}
