/* compact_plan_test.c - compaction scheduled and run apart (write/compact.c): the plan written
 * by scheduling reads back (table/compaction_plan.c) with the operations of the file groups that
 * have logs; deltacommits while a plan is pending put their logs in the slice the compaction
 * opens (named with its instant) and readers merge both slices; running the plan compacts
 * exactly its operations' files; a failure at every storage call of the run leaves the table
 * reading the same and a rerun completes it; inline compaction triggers after
 * hoodie.compact.inline.max.delta.commits deltacommits (Hudi's NUM_COMMITS). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "wt_util.h"

static const char *const P2[] = {"a", "b"};

static hudi_table *mor_table(hudi_fs *fs, const char *base, hudi_field *schema) {
    hudi_create_options o = HUDI_CREATE_OPTIONS_INIT;
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    wt_schema(schema, false);
    o.table_name = "cp";
    o.record_key_fields = "id";
    o.partition_fields = "part";
    o.precombine_field = "ts";
    o.populate_meta_fields = true;
    o.schema = schema;
    o.type = HUDI_MERGE_ON_READ;
    static const char *const props[] = {"hoodie.index.bloom.num_entries", "100", NULL};
    o.extra_props = props;
    cr_assert_eq(hudi_tbl_create(&t, fs, base, &o, &err), 0, "create: %s", err.message);
    return t;
}

/* Writes rows first..first+n-1 with ts; `props` the writer settings (may be NULL). */
static void put(hudi_table *t, const hudi_field *schema, int32_t first, int32_t n, int64_t ts,
                hudi_write_operation op, const char *const *props, hudi_table_write_result *res) {
    hudi_batch *b = wt_batch_range(schema, first, n, ts, P2, 2);
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    hudi_table_write_result scratch;
    hudi_error err = HUDI_ERROR_INIT;
    o.op = op;
    o.props = props;
    cr_assert_eq(hudi_tbl_write(t, b, &o, res ? res : &scratch, &err), 0, "write: %s", err.message);
    hudi_batch_free(b);
}

/* insert 0..19, upsert 0..5 (logs in both partitions), schedule: the plan's instant. */
static void scheduled_table(hudi_table *t, const hudi_field *schema, char instant[32]) {
    hudi_error err = HUDI_ERROR_INIT;
    put(t, schema, 0, 20, 1, HUDI_WRITE_INSERT, NULL, NULL);
    put(t, schema, 0, 6, 2, HUDI_WRITE_UPSERT, NULL, NULL);
    int n = hudi_tbl_compact_schedule(t, NULL, instant, &err);
    cr_assert_eq(n, 2, "schedule: %d %s", n, err.message);
}

static int count_files(hudi_fs *fs, const char *base, const char *part, const char *needle) {
    char dir[512];
    snprintf(dir, sizeof(dir), "%s/%s", base, part);
    hudi_dir_listing l = {NULL, 0};
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_fs_list(fs, dir, &l, &err), 0, "%s", err.message);
    int n = 0;
    for (size_t i = 0; i < l.count; i++) n += strstr(l.entries[i].name, needle) != NULL;
    hudi_dir_listing_dispose(&l);
    return n;
}

Test(compact_plan, round_trip) {
    char base[256];
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_field schema = {0};
    hudi_table *t = mor_table(fs, base, &schema);
    hudi_error err = HUDI_ERROR_INIT;
    put(t, &schema, 0, 20, 1, HUDI_WRITE_INSERT, NULL, NULL);
    put(t, &schema, 0, 6, 2, HUDI_WRITE_UPSERT, NULL, NULL);
    put(t, &schema, 2, 2, 3, HUDI_WRITE_UPSERT, NULL, NULL);
    hudi_fs_view *v = NULL;
    cr_assert_eq(hudi_fs_view_build(&v, t->timeline, NULL, &err), 0, "%s", err.message);
    size_t n = 0;
    const hudi_file_slice *s = hudi_fs_view_latest_slices(v, &n);
    cr_assert_eq(n, 2);
    /* a Hadoop checksum beside a log (Spark writes them) is no log file of file id ".<id>" */
    char crc[512];
    snprintf(crc, sizeof(crc), "%s/%s/.%s.crc", base, s[0].partition_path, s[0].logs[0].name);
    cr_assert_eq(hudi_fs_write_all(fs, crc, HUDI_CREATE_EXCLUSIVE, "crc", 3, &err), 0, "%s",
                 err.message);
    char instant[32];
    cr_assert_eq(hudi_tbl_compact_schedule(t, NULL, instant, &err), 2, "%s", err.message);
    /* nothing more to schedule while the plan holds both groups */
    char again[32];
    cr_assert_eq(hudi_tbl_compact_schedule(t, NULL, again, &err), 0, "%s", err.message);
    cr_assert_str_eq(again, "");
    hudi_compaction_plan plan;
    cr_assert_eq(hudi_compaction_plan_read(&plan, t->timeline, instant, &err), 0, "%s",
                 err.message);
    cr_assert_eq(plan.count, 2);
    cr_assert_eq(plan.version, 2);
    for (size_t i = 0; i < n; i++) {
        const hudi_compaction_op *op = NULL;
        for (size_t k = 0; k < plan.count; k++)
            if (!strcmp(plan.ops[k].file_id, s[i].file_id)) op = &plan.ops[k];
        cr_assert_not_null(op, "no operation for %s", s[i].file_id);
        cr_assert_str_eq(op->partition_path, s[i].partition_path);
        cr_assert_str_eq(op->base_instant, s[i].base_instant);
        cr_assert_str_eq(op->data_file, s[i].base->name);
        cr_assert_eq(op->log_count, s[i].logs_count);
        cr_assert_eq(op->log_count, 2);
        for (size_t k = 0; k < op->log_count; k++)
            cr_assert_str_eq(op->log_files[k], s[i].logs[k].name);
    }
    /* the metrics Hudi's compactor reads back (TOTAL_LOG_FILES_SIZE) */
    hudi_buf json = HUDI_BUF_INIT;
    const hudi_instant *req = NULL;
    cr_assert_eq(hudi_timeline_find(&req, t->timeline, instant, &err), 0);
    cr_assert_eq(hudi_timeline_read_json(&json, t->timeline, req, &err), 0, "%s", err.message);
    cr_assert(strstr(json.data, "\"TOTAL_LOG_FILES_SIZE\"") &&
                  strstr(json.data, "\"TOTAL_LOG_FILES\":2"),
              "%s", json.data);
    hudi_buf_dispose(&json);
    /* the same bytes through the encoder of slices */
    hudi_buf bytes = HUDI_BUF_INIT;
    hudi_compaction_plan p2;
    cr_assert_eq(hudi_compaction_plan_encode(&bytes, s, n, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_compaction_plan_parse(&p2, HUDI_SLICE(bytes.data, bytes.len), "p", &err), 0,
                 "%s", err.message);
    cr_assert_eq(p2.count, n);
    cr_assert_str_eq(p2.ops[0].file_id, s[0].file_id);
    cr_assert_eq(p2.ops[1].log_count, s[1].logs_count);
    /* a cut plan is an error naming it */
    hudi_compaction_plan p3;
    cr_assert_eq(
        hudi_compaction_plan_parse(&p3, HUDI_SLICE(bytes.data, bytes.len / 2), "cut.plan", &err),
        HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "cut.plan"), "%s", err.message);
    hudi_compaction_plan_dispose(&p2);
    hudi_buf_dispose(&bytes);
    hudi_compaction_plan_dispose(&plan);
    hudi_fs_view_free(v);
    hudi_tbl_free(t);
    hudi_field_dispose(&schema);
    hudi_fs_free(fs);
}

/* Deltacommits after the plan: their logs are named with the compaction instant and read merged
 * with the slice before; running the plan compacts only the plan's files (read-optimized shows
 * the records as of the plan), and the next compaction folds the later logs in. */
Test(compact_plan, run_with_later_deltacommits) {
    char base[256];
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_field schema = {0};
    hudi_table *t = mor_table(fs, base, &schema);
    hudi_error err = HUDI_ERROR_INIT;
    char instant[32], suffix[64];
    scheduled_table(t, &schema, instant);
    char *planned = wt_dump(t, NULL);
    put(t, &schema, 3, 6, 7, HUDI_WRITE_UPSERT, NULL, NULL);  /* ids 3..8, planned groups */
    put(t, &schema, 20, 2, 8, HUDI_WRITE_UPSERT, NULL, NULL); /* new keys: new groups */
    snprintf(suffix, sizeof(suffix), "_%s.log.1_", instant);
    cr_assert_eq(count_files(fs, base, "a", suffix) + count_files(fs, base, "b", suffix), 2,
                 "the later logs are not in the compaction's slice");
    char *latest = wt_dump(t, NULL);
    cr_assert(strstr(latest, "000003|n3|7|"), "%s", latest);
    cr_assert(strstr(latest, "000001|n1|2|"), "%s", latest);
    cr_assert_eq(wt_lines(latest), 22);
    cr_assert_eq(hudi_tbl_compact_run(t, instant, NULL, &err), 2, "%s", err.message);
    char *after = wt_dump(t, NULL);
    cr_assert_str_eq(after, latest);
    /* read-optimized: the compacted base files hold the planned records */
    hudi_scan_options ro = HUDI_SCAN_OPTIONS_INIT;
    ro.read_optimized = true;
    hudi_reader *r = NULL;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0);
    cr_assert_eq(hudi_reader_open(&r, t, &ro, &err), 0, "%s", err.message);
    int64_t rows = 0, ts2 = 0;
    hudi_batch *b;
    while (hudi_reader_next(r, &b, &err) == 0 && b) {
        int32_t c = -1;
        for (int32_t k = 0; k < b->n_columns; k++)
            if (!strcmp(b->schema->children[k].name, "ts")) c = k;
        for (int64_t i = 0; i < b->num_rows; i++) {
            int64_t ts = ((const int64_t *)b->columns[c]->values)[i];
            cr_assert(ts != 7, "a log written after the plan was compacted");
            ts2 += ts == 2;
        }
        rows += b->num_rows;
    }
    hudi_reader_free(r);
    cr_assert_eq(rows, 20 + 2);
    cr_assert_eq(ts2, 6);
    /* running it again: not pending */
    cr_assert_eq(hudi_tbl_compact_run(t, instant, NULL, &err), HUDI_EINVAL);
    /* the later logs: the next compaction (both planned groups, the new keys' groups have none) */
    char next[32];
    cr_assert_eq(hudi_tbl_compact(t, NULL, next, &err), 2, "%s", err.message);
    cr_assert_str_gt(next, instant);
    char *final = wt_dump(t, NULL);
    cr_assert_str_eq(final, latest);
    free(planned);
    free(latest);
    free(after);
    free(final);
    hudi_tbl_free(t);
    hudi_field_dispose(&schema);
    hudi_fs_free(fs);
}

/* A failure at every storage call of running a pending plan (with a deltacommit after it)
 * leaves the snapshot as it was; running it again completes it. */
Test(compact_plan, run_fails_at_every_call) {
    int failures = 0;
    for (int64_t n = 1; n < 3000; n++) {
        char base[256], instant[32];
        hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
        hudi_field schema = {0};
        hudi_table *t = mor_table(fs, base, &schema);
        hudi_error err = HUDI_ERROR_INIT;
        scheduled_table(t, &schema, instant);
        put(t, &schema, 4, 4, 9, HUDI_WRITE_UPSERT, NULL, NULL);
        char *before = wt_dump(t, NULL);
        hudi_tbl_free(t);
        t = NULL;
        hudi_fs *ff = NULL;
        cr_assert_eq(hudi_fs_faulty_new(&ff, fs, (hudi_fault_plan){n, -1, true}, NULL), 0);
        int rc = hudi_tbl_open(&t, ff, base, &err);
        if (rc == 0) rc = hudi_tbl_compact_run(t, instant, NULL, &err);
        bool tripped = hudi_fs_faulty_tripped(ff);
        hudi_tbl_free(t);
        hudi_fs_free(ff);
        char *now = wt_dump_path(fs, base, NULL);
        cr_assert_str_eq(now, before, "call %lld: snapshot changed (%s)", (long long)n,
                         rc < 0 ? err.message : "ok");
        free(now);
        if (rc < 0) {
            failures++;
            hudi_error_clear(&err);
            cr_assert_eq(hudi_tbl_open(&t, fs, base, &err), 0, "%s", err.message);
            rc = hudi_tbl_compact_run(t, instant, NULL, &err);
            cr_assert_eq(rc, 2, "rerun after a failure at call %lld: %s", (long long)n,
                         err.message);
            char *again = wt_dump(t, NULL);
            cr_assert_str_eq(again, before, "call %lld: after the rerun", (long long)n);
            free(again);
            hudi_tbl_free(t);
        }
        free(before);
        hudi_field_dispose(&schema);
        hudi_fs_free(fs);
        if (!tripped) break;
    }
    cr_assert_gt(failures, 10);
}

static int64_t completed_compactions(hudi_table *t) {
    int64_t n = 0;
    for (size_t i = 0; i < t->timeline->count; i++) {
        const hudi_instant *in = &t->timeline->instants[i];
        n += in->action == HUDI_ACTION_COMMIT && in->state == HUDI_STATE_COMPLETED;
    }
    return n;
}

/* hoodie.compact.inline with max.delta.commits = 3: the third deltacommit (all count while
 * nothing was compacted) compacts, then every third after the compaction. */
Test(compact_plan, inline_trigger) {
    char base[256];
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_field schema = {0};
    hudi_table *t = mor_table(fs, base, &schema);
    static const char *const props[] = {"hoodie.compact.inline", "true",
                                        "hoodie.compact.inline.max.delta.commits", "3", NULL};
    hudi_table_write_result res;
    hudi_error err = HUDI_ERROR_INIT;
    int want[] = {0, 0, 1, 0, 0, 1, 0};
    for (int i = 0, done = 0; i < 7; i++) {
        put(t, &schema, i == 0 ? 0 : i, i == 0 ? 10 : 3, 10 + i,
            i == 0 ? HUDI_WRITE_INSERT : HUDI_WRITE_UPSERT, props, &res);
        cr_assert_eq(hudi_tbl_reload(t, &err), 0);
        done += want[i];
        cr_assert_eq(completed_compactions(t), done, "write %d", i + 1);
        /* the compaction comes after the deltacommit that triggered it */
        if (want[i]) cr_assert_str_gt(hudi_timeline_last_time(t->timeline), res.instant);
    }
    cr_assert_eq(completed_compactions(t), 2);
    /* the trigger counts deltacommits after a pending compaction too */
    cr_assert_eq(hudi_write_inline_compaction_due(t->timeline, 2), 0);
    cr_assert_eq(hudi_write_inline_compaction_due(t->timeline, 1), 1);
    /* without the setting nothing compacts */
    for (int i = 0; i < 4; i++) put(t, &schema, i, 2, 30 + i, HUDI_WRITE_UPSERT, NULL, &res);
    cr_assert_eq(hudi_tbl_reload(t, &err), 0);
    cr_assert_eq(completed_compactions(t), 2);
    char *d = wt_dump(t, NULL);
    cr_assert_eq(wt_lines(d), 10);
    cr_assert(strstr(d, "000004|n4|33|"), "%s", d);
    free(d);
    hudi_tbl_free(t);
    hudi_field_dispose(&schema);
    hudi_fs_free(fs);
}

/* An inline compaction runs with its write's settings (write options over table properties, as
 * Hudi's write config): with an unusable table property hoodie.hudic.parallelism and a write
 * option of 1, the writes and the inline compaction they trigger both succeed (a compaction that
 * read the table property alone would fail and stay undone); without the write option, the
 * write itself is refused, naming the table property's value. */
Test(compact_plan, inline_uses_the_write_settings) {
    char base[256];
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_field schema = {0};
    hudi_table *t = mor_table(fs, base, &schema);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_props_set(&t->props, "hoodie.hudic.parallelism", "lots", &err), 0);
    static const char *const props[] = {"hoodie.compact.inline",
                                        "true",
                                        "hoodie.compact.inline.max.delta.commits",
                                        "2",
                                        "hoodie.hudic.parallelism",
                                        "1",
                                        NULL};
    put(t, &schema, 0, 10, 1, HUDI_WRITE_INSERT, props, NULL);
    put(t, &schema, 0, 4, 2, HUDI_WRITE_UPSERT, props, NULL);
    cr_assert_eq(hudi_tbl_reload(t, &err), 0);
    cr_assert_eq(completed_compactions(t), 1);
    /* the table property applies when the write sets nothing */
    static const char *const inline_only[] = {"hoodie.compact.inline", "true", NULL};
    hudi_batch *b = wt_batch_range(&schema, 0, 2, 3, P2, 2);
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    o.op = HUDI_WRITE_UPSERT;
    o.props = inline_only;
    cr_assert_eq(hudi_tbl_write(t, b, &o, NULL, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "hoodie.hudic.parallelism: 'lots' is not a number of threads"),
              "%s", err.message);
    hudi_batch_free(b);
    cr_assert_eq(hudi_props_set(&t->props, "hoodie.hudic.parallelism", "0", &err), 0);
    char *d = wt_dump(t, NULL);
    cr_assert_eq(wt_lines(d), 10);
    free(d);
    hudi_tbl_free(t);
    hudi_field_dispose(&schema);
    hudi_fs_free(fs);
}
