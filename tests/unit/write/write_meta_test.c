/* write_meta_test.c - what hudic writes, checked in the bytes: meta columns as Hudi fills them
 * (seqno "<instant>_<task>_<pos>", carried-over records keep commit time and seqno, file name
 * of the file), the Hudi footer keys and their order, the commit metadata re-parsed, the
 * workload profile, DIRECT markers gone after commit, hoodie.populate.meta.fields=false, the
 * cleaner, and rollback instants (Avro) left by a failed write. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/avro/avro.h"
#include "format/parquet/meta.h"
#include "support.h"
#include "table/bloom.h"
#include "wt_util.h"

static const char *const P1[] = {"p"};

typedef struct fileinfo {
    char path[512];
    char name[256];
} fileinfo;

/* The base file the latest commit wrote for the (single) file group. */
static void latest_file(hudi_table *t, fileinfo *out) {
    hudi_fs_view *v = NULL;
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    cr_assert_eq(hudi_tbl_reload(t, NULL), 0);
    cr_assert_eq(hudi_fs_view_build(&v, t->timeline, &vo, NULL), 0);
    size_t n = 0;
    const hudi_file_slice *s = hudi_fs_view_latest_slices(v, &n);
    cr_assert_eq(n, 1);
    snprintf(out->path, sizeof(out->path), "%s", s[0].base->path);
    snprintf(out->name, sizeof(out->name), "%s", s[0].base->name);
    hudi_fs_view_free(v);
}

static char *str_at(const hudi_array *a, int64_t i) {
    static char buf[8][256];
    static int k;
    char *b = buf[k++ % 8];
    if (!hudi_array_is_valid(a, i)) return strcpy(b, "<null>");
    snprintf(b, 256, "%.*s", a->offsets[i + 1] - a->offsets[i],
             (const char *)a->data + a->offsets[i]);
    return b;
}

Test(write_meta, meta_columns_and_footer) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = wt_create(fs, base, NULL, NULL, false, true, &s);
    hudi_batch *b1 = wt_batch_range(&s, 0, 3, 1, P1, 1);
    char i1[HUDI_INSTANT_TIME_MAX];
    snprintf(i1, sizeof(i1), "%s", wt_write(t, b1, HUDI_WRITE_INSERT));
    wt_row up[] = {{1, "upd", 2, "p", false}, {7, "new", 2, "p", false}};
    hudi_batch *b2 = wt_batch(&s, up, 2);
    char i2[HUDI_INSTANT_TIME_MAX];
    snprintf(i2, sizeof(i2), "%s", wt_write(t, b2, HUDI_WRITE_UPSERT));
    fileinfo fi;
    latest_file(t, &fi);
    hudi_pq_file *pf = NULL;
    cr_assert_eq(hudi_pq_open(&pf, fs, fi.path, NULL, NULL), 0);
    /* footer keys in Hudi's order (docs/formats/base-files.md §2) */
    const pq_file_meta *m = hudi_pq_meta(pf);
    static const char *const keys[] = {
        "parquet.avro.schema",         "writer.model.name",     "hoodie_bloom_filter_type_code",
        "org.apache.hudi.bloomfilter", "hoodie_min_record_key", "hoodie_max_record_key"};
    cr_assert_eq(m->n_key_value, 6);
    for (int i = 0; i < 6; i++)
        cr_assert(hudi_slice_eq(m->key_value[i].key, hudi_slice_cstr(keys[i])), "key %d", i);
    hudi_slice v;
    cr_assert(hudi_pq_kv(pf, "hoodie_min_record_key", &v) && v.len == 1 && v.data[0] == '0');
    cr_assert(hudi_pq_kv(pf, "hoodie_max_record_key", &v) && v.len == 1 && v.data[0] == '7');
    cr_assert(hudi_pq_kv(pf, "parquet.avro.schema", &v));
    static const char *const rec = "\"name\":\"wt_record\",\"namespace\":\"hoodie.wt\"";
    cr_assert(memmem(v.data, v.len, rec, strlen(rec)));
    hudi_bloom *bf = NULL;
    cr_assert_eq(hudi_bloom_from_footer(&bf, pf, NULL), 0);
    cr_assert_eq(bf->type, HUDI_BLOOM_DYNAMIC_V0);
    cr_assert(hudi_bloom_test(bf, "7", 1) && hudi_bloom_test(bf, "0", 1));
    hudi_bloom_free(bf);
    cr_assert_str_eq(hudi_pq_schema(pf)->name, "hoodie.wt.wt_record");
    /* rows: old order with the update in place, then the insert */
    hudi_pq_scan *sc = NULL;
    hudi_batch *rb = NULL;
    cr_assert_eq(hudi_pq_scan_open(&sc, pf, NULL, NULL), 0);
    cr_assert_eq(hudi_pq_scan_next(sc, &rb, NULL), 0);
    cr_assert_eq(rb->num_rows, 4);
    const char *want_keys[] = {"0", "1", "2", "7"};
    for (int i = 0; i < 4; i++) {
        cr_assert_str_eq(str_at(rb->columns[2], i), want_keys[i]);
        cr_assert_str_eq(str_at(rb->columns[3], i), "");
        cr_assert_str_eq(str_at(rb->columns[4], i), fi.name);
        bool updated = i == 1 || i == 3;
        char seq[64];
        /* carried over: the first commit's time and seqno (task 0, position i) */
        snprintf(seq, sizeof(seq), "%s_0_%d", updated ? i2 : i1, i);
        cr_assert_str_eq(str_at(rb->columns[0], i), updated ? i2 : i1);
        cr_assert_str_eq(str_at(rb->columns[1], i), seq);
    }
    hudi_pq_scan_free(sc);
    hudi_pq_close(pf);
    /* the completed commit re-parses with the stats of the rewrite */
    hudi_buf json = HUDI_BUF_INIT;
    const hudi_instant *last = hudi_timeline_last_completed_commit(t->timeline);
    cr_assert_str_eq(last->time, i2);
    cr_assert_eq(hudi_timeline_read_commit_json(&json, t->timeline, last, NULL), 0);
    hudi_commit_metadata *md = NULL;
    cr_assert_eq(hudi_commit_metadata_parse(&md, json.data, json.len, "c", NULL), 0);
    cr_assert_str_eq(md->operation_type, "UPSERT");
    cr_assert_eq(md->partitions_count, 1);
    const hudi_write_stat *st = &md->partitions[0].stats[0];
    cr_assert_str_eq(st->prev_commit, i1);
    cr_assert_eq(st->num_writes, 4);
    cr_assert_eq(st->num_update_writes, 1);
    cr_assert_eq(st->num_inserts, 1);
    cr_assert_str_eq(st->path, fi.name);
    cr_assert_str_eq(st->partition_path, "");
    cr_assert(hudi_commit_metadata_extra(md, "schema"));
    /* the writer's own output bytes round-trip exactly */
    hudi_buf again = HUDI_BUF_INIT;
    cr_assert_eq(hudi_commit_metadata_write(md, &again, NULL), 0);
    cr_assert_str_eq(again.data, json.data);
    hudi_commit_metadata_free(md);
    /* no marker folder left */
    char markers[600];
    snprintf(markers, sizeof(markers), "%s/.hoodie/.temp/%s", base, i2);
    cr_assert(!hudi_fs_exists(fs, markers));
    hudi_buf_dispose(&json);
    hudi_buf_dispose(&again);
    hudi_batch_free(b1);
    hudi_batch_free(b2);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

Test(write_meta, no_meta_fields) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = wt_create(fs, base, NULL, NULL, false, false, &s);
    cr_assert(!t->cfg.populate_meta_fields);
    hudi_batch *b1 = wt_batch_range(&s, 0, 4, 1, P1, 1);
    wt_write(t, b1, HUDI_WRITE_INSERT);
    wt_row up[] = {{2, "two", 5, "p", false}};
    hudi_batch *b2 = wt_batch(&s, up, 1);
    wt_write(t, b2, HUDI_WRITE_UPSERT);
    char *d = wt_dump_path(fs, base, NULL);
    cr_assert_str_eq(d, "000000|n0|1|p\n000001|n1|1|p\n000002|two|5|p\n000003|n3|1|p\n");
    free(d);
    fileinfo fi;
    latest_file(t, &fi);
    hudi_pq_file *pf = NULL;
    cr_assert_eq(hudi_pq_open(&pf, fs, fi.path, NULL, NULL), 0);
    cr_assert_eq(hudi_pq_meta(pf)->n_key_value, 2); /* no Hudi keys */
    hudi_pq_scan *sc = NULL;
    hudi_batch *rb = NULL;
    cr_assert_eq(hudi_pq_scan_open(&sc, pf, NULL, NULL), 0);
    cr_assert_eq(hudi_pq_scan_next(sc, &rb, NULL), 0);
    for (int k = 0; k < 4; k++) cr_assert_eq(rb->columns[k]->null_count, rb->num_rows);
    cr_assert_str_eq(str_at(rb->columns[4], 0), fi.name);
    hudi_pq_scan_free(sc);
    hudi_pq_close(pf);
    hudi_batch_free(b1);
    hudi_batch_free(b2);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

static int count_files(hudi_fs *fs, const char *dir, const char *suffix) {
    hudi_dir_listing l = {0};
    if (hudi_fs_list(fs, dir, &l, NULL) < 0) return 0;
    int n = 0;
    for (size_t i = 0; i < l.count; i++) {
        size_t a = strlen(l.entries[i].name), b = strlen(suffix);
        n += a >= b && strcmp(l.entries[i].name + a - b, suffix) == 0;
    }
    hudi_dir_listing_dispose(&l);
    return n;
}

Test(write_meta, clean_keeps_latest_commits) {
    char base[512], meta[600];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = wt_create(fs, base, NULL, NULL, false, true, &s);
    char instants[4][HUDI_INSTANT_TIME_MAX];
    for (int i = 0; i < 4; i++) {
        hudi_batch *b = wt_batch_range(&s, i, 2, i, P1, 1);
        snprintf(instants[i], HUDI_INSTANT_TIME_MAX, "%s", wt_write(t, b, HUDI_WRITE_UPSERT));
        hudi_batch_free(b);
    }
    cr_assert_eq(count_files(fs, base, ".parquet"), 4);
    char *before = wt_dump(t, NULL);
    char *as_of3 = wt_dump(t, instants[2]);
    hudi_error err = HUDI_ERROR_INIT;
    /* retain 2: E = instants[2]; the group keeps its latest slice [3], the slices >= E ([2])
     * and the newest slice before E ([1]); only [0] goes (Hudi's CleanPlanner). */
    int n = hudi_tbl_clean(t, 2, NULL, &err);
    cr_assert_eq(n, 1, "%d %s", n, err.message);
    cr_assert_eq(count_files(fs, base, ".parquet"), 3);
    snprintf(meta, sizeof(meta), "%s/.hoodie", base);
    cr_assert_eq(count_files(fs, meta, ".clean"), 1);
    cr_assert_eq(count_files(fs, meta, ".clean.requested"), 1);
    char *after = wt_dump(t, NULL), *after3 = wt_dump(t, instants[2]);
    cr_assert_str_eq(after, before);
    cr_assert_str_eq(after3, as_of3);
    /* the clean metadata is an Avro container Hudi's schema describes */
    cr_assert_eq(hudi_tbl_reload(t, NULL), 0);
    const hudi_instant *c = NULL;
    for (size_t i = 0; i < t->timeline->count; i++)
        if (t->timeline->instants[i].action == HUDI_ACTION_CLEAN &&
            t->timeline->instants[i].state == HUDI_STATE_COMPLETED)
            c = &t->timeline->instants[i];
    cr_assert_not_null(c);
    hudi_buf j = HUDI_BUF_INIT;
    cr_assert_eq(hudi_timeline_read_json(&j, t->timeline, c, NULL), 0);
    cr_assert(strstr(j.data, "\"policy\":\"KEEP_LATEST_COMMITS\""), "%s", j.data);
    cr_assert(strstr(j.data, instants[2]), "%s", j.data);
    /* nothing more to clean: no new instant */
    cr_assert_eq(hudi_tbl_clean(t, 2, NULL, &err), 0);
    cr_assert_eq(count_files(fs, meta, ".clean"), 1);
    hudi_buf_dispose(&j);
    free(before);
    free(after);
    free(as_of3);
    free(after3);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* A pending clean is a crashed clean's for a single writer (dropped and planned again), but may
 * be another writer's clean in progress under optimistic concurrency control: Spark-Hudi creates
 * `<t>.clean.requested`, then writes and chmods it, and a concurrent writer that deleted it in
 * between made Spark's clean fail (tests/compat/test_concurrent_writers.py). */
static int clean_with_pending(bool occ) {
    char base[512], meta[600], pending[700];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = wt_create(fs, base, NULL, NULL, false, true, &s);
    for (int i = 0; i < 4; i++) {
        hudi_batch *b = wt_batch_range(&s, i, 2, i, P1, 1);
        wt_write(t, b, HUDI_WRITE_UPSERT);
        hudi_batch_free(b);
    }
    hudi_error err = HUDI_ERROR_INIT;
    snprintf(meta, sizeof(meta), "%s/.hoodie", base);
    snprintf(pending, sizeof(pending), "%s/20000101000000000.clean.requested", meta);
    cr_assert_eq(hudi_fs_write_all(fs, pending, HUDI_CREATE_EXCLUSIVE, "", 0, &err), 0, "%s",
                 err.message);
    if (occ)
        cr_assert_eq(hudi_props_set(&t->props, "hoodie.write.concurrency.mode",
                                    "optimistic_concurrency_control", &err),
                     0, "%s", err.message);
    cr_assert_eq(hudi_tbl_reload(t, &err), 0, "%s", err.message);
    int n = hudi_tbl_clean(t, 2, NULL, &err);
    cr_assert_eq(n, 1, "%d %s", n, err.message);
    cr_assert_eq(count_files(fs, meta, ".clean"), 1); /* this clean completed */
    int left = hudi_fs_exists(fs, pending) ? 1 : 0;
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
    return left;
}

Test(write_meta, pending_clean_dropped_by_a_single_writer_kept_under_occ) {
    cr_assert_eq(clean_with_pending(false), 0, "a single writer discards a crashed clean");
    cr_assert_eq(clean_with_pending(true), 1, "another writer's pending clean was deleted");
}

/* Before it writes, a writer redoes unfinished cleans and rollbacks (their instants go). Under
 * optimistic concurrency control a recent one may be another writer's in progress - Hudi plans
 * them under the lock and runs them after releasing it - so only those older than the heartbeat
 * expiry go (the compat test saw Spark's clean fail on a clean.requested a hudic write had
 * deleted). */
Test(write_meta, occ_writer_leaves_recent_pending_cleans_and_rollbacks) {
    char base[512], meta[600], now_t[HUDI_INSTANT_TIME_MAX], path[800];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = wt_create(fs, base, NULL, NULL, false, true, &s);
    hudi_batch *b = wt_batch_range(&s, 0, 2, 1, P1, 1);
    wt_write(t, b, HUDI_WRITE_UPSERT);
    hudi_error err = HUDI_ERROR_INIT;
    snprintf(meta, sizeof(meta), "%s/.hoodie", base);
    cr_assert_eq(hudi_instant_time_from_ms(now_t, hudi_os_now_ms(), t->cfg.timeline_utc, &err), 0);
    static const char *const OLD[] = {"20000101000000000.clean.requested",
                                      "20000101000000001.rollback.requested"};
    const char *recent[] = {"clean.requested", "rollback.requested"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof(path), "%s/%s", meta, OLD[i]);
        cr_assert_eq(hudi_fs_write_all(fs, path, HUDI_CREATE_EXCLUSIVE, "", 0, &err), 0);
        snprintf(path, sizeof(path), "%s/%s%d.%s", meta, now_t, i, recent[i]);
        cr_assert_eq(hudi_fs_write_all(fs, path, HUDI_CREATE_EXCLUSIVE, "", 0, &err), 0);
    }
    cr_assert_eq(hudi_props_set(&t->props, "hoodie.write.concurrency.mode",
                                "optimistic_concurrency_control", &err),
                 0, "%s", err.message);
    cr_assert_eq(hudi_tbl_reload(t, &err), 0, "%s", err.message);
    wt_write(t, b, HUDI_WRITE_UPSERT);
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof(path), "%s/%s", meta, OLD[i]);
        cr_assert(!hudi_fs_exists(fs, path), "a dead writer's %s was left", OLD[i]);
        snprintf(path, sizeof(path), "%s/%s%d.%s", meta, now_t, i, recent[i]);
        cr_assert(hudi_fs_exists(fs, path), "a live writer's %s was deleted", path);
    }
    hudi_batch_free(b);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

Test(write_meta, rollback_of_failed_write) {
    char base[512], meta[600];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = wt_create(fs, base, NULL, NULL, false, true, &s);
    hudi_batch *b = wt_batch_range(&s, 0, 3, 1, P1, 1);
    wt_write(t, b, HUDI_WRITE_INSERT);
    /* fail the upsert once its data file is published but before the commit: the call count
     * of a clean run, minus the last few calls. */
    hudi_fs *probe = NULL;
    cr_assert_eq(hudi_fs_faulty_new(&probe, fs, (hudi_fault_plan){0, -1, true}, NULL), 0);
    hudi_fs_free(probe);
    hudi_fs *ff = NULL;
    hudi_table *t2 = NULL;
    hudi_batch *u = wt_batch_range(&s, 1, 3, 2, P1, 1);
    int failed_at = -1;
    for (int64_t n = 40; n < 400 && failed_at < 0; n++) {
        cr_assert_eq(hudi_fs_faulty_new(&ff, fs, (hudi_fault_plan){n, -1, true}, NULL), 0);
        hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
        o.clean_retain_commits = 0;
        int rc = hudi_tbl_open(&t2, ff, base, NULL);
        if (rc == 0) rc = hudi_tbl_write(t2, u, &o, NULL, NULL);
        hudi_tbl_free(t2);
        t2 = NULL;
        hudi_fs_free(ff);
        if (rc < 0 && count_files(fs, base, ".parquet") == 2) failed_at = (int)n;
        if (rc == 0) break;
    }
    cr_assert(failed_at > 0, "no failure left a data file behind");
    snprintf(meta, sizeof(meta), "%s/.hoodie", base);
    cr_assert_eq(count_files(fs, meta, ".commit"), 1);
    char *d = wt_dump_path(fs, base, NULL);
    cr_assert_str_eq(d, "000000|n0|1|p\n000001|n1|1|p\n000002|n2|1|p\n");
    free(d);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_reload(t, NULL), 0);
    cr_assert_eq(hudi_tbl_rollback_pending(t, NULL, &err), 1, "%s", err.message);
    cr_assert_eq(count_files(fs, base, ".parquet"), 1);
    /* earlier failed attempts were rolled back by the attempts after them */
    cr_assert_geq(count_files(fs, meta, ".rollback"), 1);
    cr_assert_eq(count_files(fs, meta, ".rollback"), count_files(fs, meta, ".rollback.requested"));
    cr_assert_eq(count_files(fs, meta, ".commit.requested"), 1); /* no pending commit left */
    const hudi_instant *r = NULL;
    for (size_t i = 0; i < t->timeline->count; i++)
        if (t->timeline->instants[i].action == HUDI_ACTION_ROLLBACK &&
            t->timeline->instants[i].state == HUDI_STATE_COMPLETED)
            r = &t->timeline->instants[i];
    cr_assert_not_null(r);
    hudi_buf j = HUDI_BUF_INIT;
    cr_assert_eq(hudi_timeline_read_json(&j, t->timeline, r, NULL), 0);
    cr_assert(strstr(j.data, "\"totalFilesDeleted\":1"), "%s", j.data);
    cr_assert(strstr(j.data, "\"instantsRollback\":[{\"commitTime\":"), "%s", j.data);
    hudi_buf_dispose(&j);
    hudi_batch_free(b);
    hudi_batch_free(u);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* Writing into tables Spark + Hudi 0.14 wrote: the bloom index over their footers, their
 * schema (commit metadata: decimals, arrays, maps, structs) and their file groups. Upserting
 * the table's own rows rewrites every group; the data must read back unchanged. */
static void rewrite_fixture(const char *zip, int expect_rows) {
    const char *dir = fixture_unzip(zip);
    cr_assert_not_null(dir);
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_open(&t, NULL, dir, &err), 0, "%s", err.message);
    hudi_scan_options ro = HUDI_SCAN_OPTIONS_INIT;
    hudi_reader *r = NULL;
    cr_assert_eq(hudi_reader_open(&r, t, &ro, &err), 0, "%s", err.message);
    hudi_batch *all = NULL, *b = NULL;
    while (hudi_reader_next(r, &b, &err) == 0 && b) {
        if (!all) cr_assert_eq(hudi_batch_new(&all, b->schema, NULL), 0);
        for (int32_t c = 0; c < b->n_columns; c++)
            cr_assert_eq(
                hudi_array_append_range(all->columns[c], b->columns[c], 0, b->num_rows, NULL), 0);
        all->num_rows += b->num_rows;
    }
    cr_assert_eq(all->num_rows, expect_rows);
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    hudi_table_write_result res;
    cr_assert_eq(hudi_tbl_write(t, all, &o, &res, &err), 0, "%s: %s", zip, err.message);
    cr_assert_eq(res.updates, expect_rows, "%s", zip);
    cr_assert_eq(res.inserts, 0);
    /* read again: the same data columns, every row now from this commit */
    hudi_reader *r2 = NULL;
    cr_assert_eq(hudi_tbl_reload(t, NULL), 0);
    cr_assert_eq(hudi_reader_open(&r2, t, &ro, &err), 0, "%s", err.message);
    int64_t rows = 0;
    while (hudi_reader_next(r2, &b, &err) == 0 && b) {
        for (int64_t i = 0; i < b->num_rows; i++)
            cr_assert_str_eq(str_at(b->columns[0], i), res.instant);
        rows += b->num_rows;
    }
    cr_assert_eq(rows, expect_rows);
    hudi_reader_free(r2);
    hudi_reader_free(r);
    hudi_batch_free(all);
    hudi_tbl_free(t);
}

Test(write_meta, upsert_into_spark_tables) {
    rewrite_fixture("hudi-rs/sample_table/cow/v6_nonpartitioned.zip", 4);
    rewrite_fixture("hudi-rs/sample_table/cow/v6_complexkeygen_hivestyle.zip", 4);
    rewrite_fixture("hudi-rs/sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable.zip", 1);
}

/* The bloom filter of base file `path`, after checking that it answers true for every key in
 * the file; *rows = the file's record count. */
static hudi_bloom *bloom_covering_file(hudi_fs *fs, const char *path, int64_t *rows) {
    hudi_pq_file *pf = NULL;
    cr_assert_eq(hudi_pq_open(&pf, fs, path, NULL, NULL), 0);
    hudi_bloom *bf = NULL;
    cr_assert_eq(hudi_bloom_from_footer(&bf, pf, NULL), 0);
    int32_t col = 2; /* _hoodie_record_key */
    hudi_pq_scan_options so = HUDI_PQ_SCAN_OPTIONS_INIT;
    so.columns = &col;
    so.n_columns = 1;
    hudi_pq_scan *sc = NULL;
    cr_assert_eq(hudi_pq_scan_open(&sc, pf, &so, NULL), 0);
    *rows = 0;
    for (;;) {
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_pq_scan_next(sc, &b, NULL), 0);
        if (!b) break;
        const hudi_array *k = b->columns[0];
        for (int64_t i = 0; i < b->num_rows; i++) {
            const char *key = str_at(k, i);
            cr_assert(hudi_bloom_test(bf, key, strlen(key)), "%s: key %s", path, key);
        }
        *rows += b->num_rows;
    }
    hudi_pq_scan_free(sc);
    hudi_pq_close(pf);
    return bf;
}

static bool key_in(const hudi_bloom *bf, int id) {
    char key[16];
    int n = snprintf(key, sizeof(key), "%d", id);
    return hudi_bloom_test(bf, key, (size_t)n);
}

/* A merged file's filter continues the old file's (its bits are a superset, so keys deleted by
 * the merge may still answer true) and answers true for every key in the file, across rows a
 * DYNAMIC_V0 filter adds; with other bloom settings it is rebuilt from the file's keys. */
Test(write_meta, merged_file_bloom_continues_old_filter) {
    char base[256];
    hudi_field s;
    wt_schema(&s, true);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = wt_create(fs, base, NULL, NULL, false, true, &s); /* 100 keys per row */
    hudi_batch *b1 = wt_batch_range(&s, 0, 250, 1, P1, 1);
    wt_write(t, b1, HUDI_WRITE_INSERT);
    fileinfo f1, f2, f3;
    latest_file(t, &f1);
    int64_t rows = 0;
    hudi_bloom *a = bloom_covering_file(fs, f1.path, &rows);
    cr_assert_eq(rows, 250);
    cr_assert_eq(a->n_rows, 3);

    /* updates 0..39, deletes 40..59, inserts 300..449 into the same (small) file */
    static wt_row up[210];
    static char names[210][16];
    int n = 0;
    for (int id = 0; id < 60; id++, n++) {
        snprintf(names[n], sizeof(names[n]), "u%d", id);
        up[n] = (wt_row){id, names[n], 2, "p", id >= 40};
    }
    for (int id = 300; id < 450; id++, n++) {
        snprintf(names[n], sizeof(names[n]), "i%d", id);
        up[n] = (wt_row){id, names[n], 2, "p", false};
    }
    hudi_batch *b2 = wt_batch(&s, up, (size_t)n);
    wt_write(t, b2, HUDI_WRITE_UPSERT);
    latest_file(t, &f2);
    cr_assert_str_neq(f1.name, f2.name);
    hudi_bloom *b = bloom_covering_file(fs, f2.path, &rows);
    cr_assert_eq(rows, 250 - 20 + 150);
    cr_assert_eq(b->vector_bits, a->vector_bits);
    cr_assert_geq(b->n_rows, a->n_rows);
    size_t nbytes = ((size_t)a->vector_bits + 7) / 8;
    for (int32_t r = 0; r < a->n_rows; r++)
        for (size_t i = 0; i < nbytes; i++)
            cr_assert_eq(a->rows[r][i] & ~b->rows[r][i], 0, "row %d byte %zu", r, i);
    for (int id = 40; id < 60; id++) cr_expect(key_in(b, id), "deleted key %d", id);

    /* other bloom settings: the old filter does not fit, every key is added afresh */
    cr_assert_eq(hudi_props_set(&t->props, "hoodie.index.bloom.num_entries", "150", NULL), 0);
    wt_row more[] = {{500, "x", 3, "p", false}, {501, "y", 3, "p", false}};
    hudi_batch *b3 = wt_batch(&s, more, 2);
    wt_write(t, b3, HUDI_WRITE_UPSERT);
    latest_file(t, &f3);
    hudi_bloom *c = bloom_covering_file(fs, f3.path, &rows);
    cr_assert_eq(rows, 382);
    cr_assert_neq(c->vector_bits, b->vector_bits);
    int stale = 0;
    for (int id = 40; id < 60; id++) stale += key_in(c, id);
    cr_expect_eq(stale, 0);

    hudi_bloom_free(a);
    hudi_bloom_free(b);
    hudi_bloom_free(c);
    hudi_batch_free(b1);
    hudi_batch_free(b2);
    hudi_batch_free(b3);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}
