/* timeline_test.c - timelines of the Spark-written fixture tables (layouts 1 and 2), queries,
 * commit JSON for both layouts, writing/deleting instants, and partition metadata files. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "format/avro/avro.h"
#include "support.h"
#include "table/table.h"

typedef struct fixture {
    hudi_fs *fs;
    const char *base;
    hudi_props props;
    hudi_table_config cfg;
    hudi_timeline *tl;
    json_t *expected;
} fixture;

static void open_fixture(fixture *f, const char *rel_no_ext) {
    char zip[512], exp[512];
    hudi_error err = HUDI_ERROR_INIT;
    snprintf(zip, sizeof(zip), "hudi-rs/%s.zip", rel_no_ext);
    snprintf(exp, sizeof(exp), "%s", fixture_path(zip));
    memcpy(exp + strlen(exp) - 4, ".expected.json", 15);
    memset(f, 0, sizeof(*f));
    json_error_t jerr;
    f->expected = json_load_file(exp, 0, &jerr);
    cr_assert(f->expected, "%s: %s", exp, jerr.text);
    f->base = fixture_unzip(zip);
    cr_assert(f->base, "unzip %s", zip);
    cr_assert_eq(hudi_fs_local_new(&f->fs, &err), 0);
    cr_assert_eq(hudi_props_load(&f->props, f->fs, f->base, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_table_config_from_props(&f->cfg, &f->props, NULL, &err), 0, "%s",
                 err.message);
    cr_assert_eq(hudi_timeline_load(&f->tl, f->fs, f->base, &f->cfg, &err), 0, "%s", err.message);
}

static void close_fixture(fixture *f) {
    hudi_timeline_free(f->tl);
    hudi_props_dispose(&f->props);
    hudi_fs_free(f->fs);
    json_decref(f->expected);
}

/* Every completed instant (any action) equals the fixture's timeline_completed list. */
static void check_completed(fixture *f) {
    json_t *want = json_object_get(f->expected, "timeline_completed");
    hudi_instant_filter all_completed = {0, HUDI_STATE_BIT(HUDI_STATE_COMPLETED), NULL, NULL};
    hudi_instant_list got;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_timeline_select(&got, f->tl, &all_completed, &err), 0);
    cr_assert_eq(got.count, json_array_size(want), "%s: %zu completed", f->base, got.count);
    for (size_t i = 0; i < got.count; i++) {
        json_t *w = json_array_get(want, i);
        const hudi_instant *in = got.items[i];
        cr_assert_str_eq(in->time, json_string_value(json_object_get(w, "instant")));
        cr_assert_str_eq(hudi_action_name(in->action),
                         json_string_value(json_object_get(w, "action")));
        json_t *ct = json_object_get(w, "completion_time");
        cr_assert_str_eq(in->completion, json_is_string(ct) ? json_string_value(ct) : "");
    }
    hudi_instant_list_dispose(&got);
}

static const char *V6_TABLES[] = {
    "sample_table/cow/v6_complexkeygen_hivestyle",
    "sample_table/cow/v6_empty",
    "sample_table/cow/v6_nonpartitioned",
    "sample_table/cow/v6_simplekeygen_hivestyle_no_metafields",
    "sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable",
    "sample_table/cow/v6_timebasedkeygen_nonhivestyle",
    "sample_table/mor/parquet/v6_nonpartitioned_rollback",
    "quickstart_trips_table/mor/avro/v6_trips_8i1u",
};

static const char *V8_V9_COW_TABLES[] = {
    "sample_table/cow/v8_simplekeygen_nonhivestyle",
    "sample_table/cow/v9_timebasedkeygen_nonhivestyle",
    "sample_table/cow/v9_txns_complex_meta",
    "sample_table/cow/v9_txns_nonpart_nometa",
    "sample_table/cow/v9_txns_simple_nometa",
    "sample_table/cow/v9_txns_simple_overwrite",
};

static const char *V8_V9_MOR_TABLES[] = {
    "sample_table/mor/avro/v9_txns_complex_nometa",
    "sample_table/mor/avro/v9_txns_nonpart_nometa",
    "sample_table/mor/avro/v9_txns_simple_meta",
    "quickstart_trips_table/mor/avro/v8_trips_8i3u1d",
    "pr602/mor/avro/table_log_only",
};

static void check_tables(const char **tables, size_t n) {
    for (size_t i = 0; i < n; i++) {
        fixture f;
        open_fixture(&f, tables[i]);
        check_completed(&f);
        close_fixture(&f);
    }
}

Test(timeline, completed_instants_v6_tables) { check_tables(V6_TABLES, HUDI_ARRAY_LEN(V6_TABLES)); }
Test(timeline, completed_instants_v8_v9_cow_tables) {
    check_tables(V8_V9_COW_TABLES, HUDI_ARRAY_LEN(V8_V9_COW_TABLES));
}
Test(timeline, completed_instants_v8_v9_mor_tables) {
    check_tables(V8_V9_MOR_TABLES, HUDI_ARRAY_LEN(V8_V9_MOR_TABLES));
}

static size_t count(const hudi_timeline *tl, unsigned actions, unsigned states) {
    hudi_instant_filter flt = {actions, states, NULL, NULL};
    return hudi_timeline_count_matching(tl, &flt);
}

Test(timeline, v6_layout1_counts_and_queries) {
    fixture f;
    hudi_error err = HUDI_ERROR_INIT;
    open_fixture(&f, "sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable");
    hudi_timeline *tl = f.tl;
    cr_assert_eq(tl->layout, 1);
    cr_assert_eq(tl->count, 9); /* 2 commits x 3 files + replacecommit x 3 */
    cr_assert_eq(count(tl, HUDI_ACTIONS_COMMITS, HUDI_STATE_BIT(HUDI_STATE_COMPLETED)), 3);
    cr_assert_eq(
        count(tl, HUDI_ACTION_BIT(HUDI_ACTION_COMMIT), HUDI_STATE_BIT(HUDI_STATE_INFLIGHT)), 2);
    cr_assert_eq(count(tl, 0, HUDI_STATES_PENDING), 6);
    hudi_instant_list l;
    cr_assert_eq(hudi_timeline_completed_commits(&l, tl, &err), 0);
    cr_assert_eq(l.count, 3);
    cr_assert_str_eq(l.items[0]->time, "20240707001301554");
    cr_assert_eq(l.items[2]->action, HUDI_ACTION_REPLACECOMMIT);
    hudi_instant_list_dispose(&l);
    /* (begin, end] and as-of */
    cr_assert_eq(
        hudi_timeline_commits_between(&l, tl, "20240707001301554", "20240707001303088", &err), 0);
    cr_assert_eq(l.count, 2);
    cr_assert_str_eq(l.items[0]->time, "20240707001302376");
    hudi_instant_list_dispose(&l);
    hudi_instant_filter asof = {HUDI_ACTIONS_COMMITS, HUDI_STATE_BIT(HUDI_STATE_COMPLETED), NULL,
                                "20240707001302376"};
    cr_assert_eq(hudi_timeline_count_matching(tl, &asof), 2);
    const hudi_instant *in = NULL;
    cr_assert_eq(hudi_timeline_find(&in, tl, "20240707001302376", &err), 0);
    cr_assert_eq(in->state, HUDI_STATE_COMPLETED);
    cr_assert_str_eq(in->file, "20240707001302376.commit");
    cr_assert_eq(hudi_timeline_find(&in, tl, "20240707001302377", &err), HUDI_ENOTFOUND);
    cr_assert(strstr(err.message, "instant 20240707001302377 not found"), "%s", err.message);
    cr_assert_str_eq(hudi_timeline_last_completed_commit(tl)->time, "20240707001303088");
    cr_assert_str_eq(hudi_timeline_start(tl), "20240707001301554");
    cr_assert_str_eq(hudi_timeline_last_time(tl), "20240707001303088");
    /* before the timeline start counts as committed (archived); unknown later times do not */
    cr_assert(hudi_timeline_is_committed(tl, "20240707001302376"));
    cr_assert(hudi_timeline_is_committed(tl, "20200101000000000"));
    cr_assert(!hudi_timeline_is_committed(tl, "20240707001302377"));
    /* commit JSON passes through for layout 1 */
    hudi_buf json = HUDI_BUF_INIT;
    cr_assert_eq(hudi_timeline_find(&in, tl, "20240707001302376", &err), 0);
    cr_assert_eq(hudi_timeline_read_commit_json(&json, tl, in, &err), 0, "%s", err.message);
    json_t *doc = json_loadb(json.data, json.len, 0, NULL);
    cr_assert(json_is_object(json_object_get(doc, "partitionToWriteStats")));
    json_decref(doc);
    hudi_buf_dispose(&json);
    close_fixture(&f);
}

Test(timeline, v8_layout2_avro_commits_as_json) {
    fixture f;
    hudi_error err = HUDI_ERROR_INIT;
    open_fixture(&f, "sample_table/cow/v8_simplekeygen_nonhivestyle");
    cr_assert_eq(f.tl->layout, 2);
    cr_assert(strstr(f.tl->dir, "/.hoodie/timeline"));
    cr_assert_eq(f.tl->count, 6);
    hudi_instant_list l;
    cr_assert_eq(hudi_timeline_completed_commits(&l, f.tl, &err), 0);
    cr_assert_eq(l.count, 2);
    cr_assert_str_eq(l.items[0]->completion, "20250713011316231");
    cr_assert_str_eq(l.items[1]->completion, "20250713011317225");
    cr_assert_str_eq(hudi_timeline_last_time(f.tl), "20250713011317225");
    for (size_t i = 0; i < l.count; i++) {
        hudi_buf json = HUDI_BUF_INIT;
        cr_assert_eq(hudi_timeline_read_commit_json(&json, f.tl, l.items[i], &err), 0, "%s",
                     err.message);
        json_error_t jerr;
        json_t *doc = json_loadb(json.data, json.len, 0, &jerr);
        cr_assert(doc, "%s: %s", jerr.text, json.data);
        json_t *parts = json_object_get(doc, "partitionToWriteStats");
        cr_assert(json_is_object(parts));
        const char *part = json_object_iter_key(json_object_iter(parts));
        cr_assert(part && (!strcmp(part, "10") || !strcmp(part, "20") || !strcmp(part, "30")));
        json_t *stats = json_object_get(parts, part);
        cr_assert(json_is_array(stats) && json_array_size(stats) >= 1);
        json_t *s0 = json_array_get(stats, 0);
        cr_assert_str_eq(json_string_value(json_object_get(s0, "partitionPath")), part);
        cr_assert(json_is_integer(json_object_get(s0, "numWrites")));
        cr_assert_str_eq(json_string_value(json_object_get(doc, "operationType")), "UPSERT");
        cr_assert(json_is_string(json_object_get(json_object_get(doc, "extraMetadata"), "schema")));
        json_decref(doc);
        hudi_buf_dispose(&json);
    }
    /* the inflight of layout 2 is an Avro container too */
    const hudi_instant *in;
    hudi_instant_filter inflight = {0, HUDI_STATE_BIT(HUDI_STATE_INFLIGHT), NULL, NULL};
    hudi_instant_list_dispose(&l);
    cr_assert_eq(hudi_timeline_select(&l, f.tl, &inflight, &err), 0);
    in = l.items[0];
    hudi_buf json = HUDI_BUF_INIT;
    cr_assert_eq(hudi_timeline_read_commit_json(&json, f.tl, in, &err), 0, "%s", err.message);
    cr_assert(json.len > 2 && json.data[0] == '{');
    hudi_buf_dispose(&json);
    /* empty requested files are not commit metadata */
    hudi_instant_filter req = {0, HUDI_STATE_BIT(HUDI_STATE_REQUESTED), NULL, NULL};
    hudi_instant_list_dispose(&l);
    cr_assert_eq(hudi_timeline_select(&l, f.tl, &req, &err), 0);
    cr_assert_eq(hudi_timeline_read_commit_json(&json, f.tl, l.items[0], &err), HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "empty instant file"), "%s", err.message);
    /* writing layout 2 is refused */
    cr_assert_eq(hudi_timeline_write_instant(f.tl, "20990101000000000", HUDI_ACTION_COMMIT,
                                             HUDI_STATE_REQUESTED, HUDI_SLICE("", 0), &err),
                 HUDI_EUNSUPPORTED);
    hudi_instant_list_dispose(&l);
    hudi_buf_dispose(&json);
    close_fixture(&f);
}

Test(timeline, v9_clustering_and_pending) {
    fixture f;
    hudi_error err = HUDI_ERROR_INIT;
    open_fixture(&f, "sample_table/cow/v9_txns_simple_nometa");
    hudi_timeline *tl = f.tl;
    cr_assert_eq(count(tl, HUDI_ACTIONS_COMMITS, HUDI_STATE_BIT(HUDI_STATE_COMPLETED)), 12);
    cr_assert_eq(count(tl, HUDI_ACTION_BIT(HUDI_ACTION_CLUSTERING), HUDI_STATES_PENDING), 2);
    cr_assert_eq(
        count(tl, HUDI_ACTION_BIT(HUDI_ACTION_REPLACECOMMIT), HUDI_STATE_BIT(HUDI_STATE_COMPLETED)),
        2);
    const hudi_instant *in;
    cr_assert_eq(hudi_timeline_find(&in, tl, "20260307135709297", &err), 0);
    cr_assert_eq(in->action, HUDI_ACTION_REPLACECOMMIT); /* clustering completes as replacecommit */
    cr_assert_str_eq(in->completion, "20260307135709818");
    hudi_instant_list p;
    cr_assert_eq(hudi_timeline_pending(&p, tl, &err), 0);
    cr_assert_eq(p.count, 12 * 2); /* every completed instant keeps requested + inflight */
    hudi_instant_list_dispose(&p);
    /* a replacecommit converts too */
    hudi_buf json = HUDI_BUF_INIT;
    cr_assert_eq(hudi_timeline_read_commit_json(&json, tl, in, &err), 0, "%s", err.message);
    json_t *doc = json_loadb(json.data, json.len, 0, NULL);
    cr_assert(json_is_object(json_object_get(doc, "partitionToReplaceFileIds")), "%s", json.data);
    json_decref(doc);
    hudi_buf_dispose(&json);
    /* and the clustering plan is an Avro container readable as JSON */
    hudi_instant_filter fl = {HUDI_ACTION_BIT(HUDI_ACTION_CLUSTERING),
                              HUDI_STATE_BIT(HUDI_STATE_REQUESTED), NULL, NULL};
    cr_assert_eq(hudi_timeline_select(&p, tl, &fl, &err), 0);
    cr_assert_eq(hudi_timeline_read_json(&json, tl, p.items[0], &err), 0, "%s", err.message);
    cr_assert(strstr(json.data, "clusteringPlan"), "%s", json.data);
    hudi_instant_list_dispose(&p);
    hudi_buf_dispose(&json);
    close_fixture(&f);
}

Test(timeline, v6_empty_and_missing_table) {
    fixture f;
    hudi_error err = HUDI_ERROR_INIT;
    open_fixture(&f, "sample_table/cow/v6_empty");
    cr_assert_eq(f.tl->count, 0);
    cr_assert_null(hudi_timeline_start(f.tl));
    cr_assert_null(hudi_timeline_last_completed_commit(f.tl));
    cr_assert(!hudi_timeline_is_committed(f.tl, "20240101000000000"));
    hudi_timeline *tl = NULL;
    cr_assert_eq(hudi_timeline_load_layout(&tl, f.fs, "/nonexistent/table", 1, NULL, &err),
                 HUDI_ENOTFOUND);
    cr_assert_null(tl);
    close_fixture(&f);
}

Test(timeline, v8_deltacommit_component_fixture) {
    size_t len = 0;
    unsigned char *bytes = test_read_file(
        fixture_path("hudi-rs/components/commit_metadata/v8_deltacommit.avro"), &len);
    cr_assert(bytes);
    hudi_buf json = HUDI_BUF_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_avro_container_to_json(&json, HUDI_SLICE(bytes, len), &err), 0, "%s",
                 err.message);
    json_t *doc = json_loadb(json.data, json.len, 0, NULL);
    cr_assert(doc);
    cr_assert_str_eq(json_string_value(json_object_get(doc, "operationType")), "UPSERT");
    json_t *parts = json_object_get(doc, "partitionToWriteStats");
    cr_assert_eq(json_object_size(parts), 3);
    json_t *s = json_array_get(json_object_get(parts, "city=san_francisco"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(s, "fileId")),
                     "87a4c895-1f59-4518-972f-27f49a92c7b4-0");
    cr_assert_str_eq(json_string_value(json_object_get(s, "prevCommit")), "null");
    cr_assert_eq(json_integer_value(json_object_get(s, "numWrites")), 4);
    cr_assert_eq(json_integer_value(json_object_get(s, "numInserts")), 4);
    cr_assert_eq(json_integer_value(json_object_get(s, "fileSizeInBytes")), 436413);
    json_decref(doc);
    hudi_buf_dispose(&json);
    free(bytes);
}

/* ---- writing ------------------------------------------------------------------------------- */

Test(timeline, write_reload_delete_layout1) {
    hudi_fs *fs = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_timeline *tl = NULL, *again = NULL;
    cr_assert_eq(hudi_fs_memory_new(&fs, &err), 0);
    cr_assert_eq(hudi_fs_mkdirs(fs, "/t/.hoodie", &err), 0);
    cr_assert_eq(hudi_timeline_load_layout(&tl, fs, "/t", 1, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(tl->count, 0);
    const char *t1 = "20240101000000000", *t2 = "20240101000000001";
    const char *meta = "{\"partitionToWriteStats\":{},\"compacted\":false}";
    cr_assert_eq(hudi_timeline_write_instant(tl, t1, HUDI_ACTION_COMMIT, HUDI_STATE_REQUESTED,
                                             HUDI_SLICE("", 0), &err),
                 0, "%s", err.message);
    cr_assert_eq(hudi_timeline_write_instant(tl, t1, HUDI_ACTION_COMMIT, HUDI_STATE_INFLIGHT,
                                             hudi_slice_cstr(meta), &err),
                 0);
    cr_assert_eq(hudi_timeline_write_instant(tl, t1, HUDI_ACTION_COMMIT, HUDI_STATE_COMPLETED,
                                             hudi_slice_cstr(meta), &err),
                 0);
    cr_assert_eq(hudi_timeline_write_instant(tl, t1, HUDI_ACTION_COMMIT, HUDI_STATE_COMPLETED,
                                             hudi_slice_cstr(meta), &err),
                 HUDI_EEXISTS);
    cr_assert_eq(hudi_timeline_write_instant(tl, t2, HUDI_ACTION_COMMIT, HUDI_STATE_REQUESTED,
                                             HUDI_SLICE("", 0), &err),
                 0);
    cr_assert(hudi_fs_exists(fs, "/t/.hoodie/20240101000000000.commit.requested"));
    cr_assert(hudi_fs_exists(fs, "/t/.hoodie/20240101000000000.inflight"));
    cr_assert(hudi_fs_exists(fs, "/t/.hoodie/20240101000000000.commit"));
    cr_assert_eq(hudi_timeline_load_layout(&again, fs, "/t", 1, NULL, &err), 0);
    cr_assert_eq(again->count, 4);
    for (size_t i = 0; i < 4; i++) cr_assert_str_eq(again->instants[i].file, tl->instants[i].file);
    hudi_timeline_free(again);
    cr_assert(hudi_timeline_is_committed(tl, t1));
    cr_assert(!hudi_timeline_is_committed(tl, t2));
    hudi_buf json = HUDI_BUF_INIT;
    const hudi_instant *in;
    cr_assert_eq(hudi_timeline_find(&in, tl, t1, &err), 0);
    cr_assert_eq(hudi_timeline_read_commit_json(&json, tl, in, &err), 0);
    cr_assert_str_eq(json.data, meta);
    hudi_buf_dispose(&json);
    /* rollback-style delete removes every file of the instant */
    cr_assert_eq(hudi_timeline_delete_instant(tl, t1, &err), 0, "%s", err.message);
    cr_assert_eq(tl->count, 1);
    cr_assert(!hudi_fs_exists(fs, "/t/.hoodie/20240101000000000.commit"));
    cr_assert(!hudi_fs_exists(fs, "/t/.hoodie/20240101000000000.inflight"));
    cr_assert(!hudi_fs_exists(fs, "/t/.hoodie/20240101000000000.commit.requested"));
    cr_assert_eq(hudi_timeline_delete_instant(tl, t1, &err), HUDI_ENOTFOUND);
    cr_assert_eq(hudi_timeline_write_instant(tl, "bad", HUDI_ACTION_COMMIT, HUDI_STATE_REQUESTED,
                                             HUDI_SLICE("", 0), &err),
                 HUDI_EINVAL);
    hudi_timeline_free(tl);
    hudi_fs_free(fs);
}

/* A crash while deleting never leaves the instant looking committed. */
Test(timeline, delete_under_faults_never_leaves_completed_without_pending) {
    hudi_error err = HUDI_ERROR_INIT;
    const char *t1 = "20240101000000000";
    for (int64_t n = 1;; n++) {
        hudi_fs *mem = NULL, *faulty = NULL;
        hudi_timeline *tl = NULL, *check = NULL;
        cr_assert_eq(hudi_fs_memory_new(&mem, &err), 0);
        cr_assert_eq(hudi_fs_mkdirs(mem, "/t/.hoodie", &err), 0);
        cr_assert_eq(hudi_timeline_load_layout(&tl, mem, "/t", 1, NULL, &err), 0);
        for (int s = HUDI_STATE_REQUESTED; s <= HUDI_STATE_COMPLETED; s++)
            cr_assert_eq(hudi_timeline_write_instant(tl, t1, HUDI_ACTION_COMMIT, (hudi_state)s,
                                                     hudi_slice_cstr("{}"), &err),
                         0);
        hudi_timeline_free(tl);
        hudi_fault_plan plan = {n, -1, true};
        cr_assert_eq(hudi_fs_faulty_new(&faulty, mem, plan, &err), 0);
        int rc = hudi_timeline_load_layout(&tl, faulty, "/t", 1, NULL, &err);
        if (rc == 0) rc = hudi_timeline_delete_instant(tl, t1, &err);
        bool tripped = hudi_fs_faulty_tripped(faulty);
        hudi_timeline_free(tl);
        hudi_fs_free(faulty);
        cr_assert_eq(hudi_timeline_load_layout(&check, mem, "/t", 1, NULL, &err), 0);
        bool completed = hudi_fs_exists(mem, "/t/.hoodie/20240101000000000.commit");
        bool pending = hudi_fs_exists(mem, "/t/.hoodie/20240101000000000.inflight") &&
                       hudi_fs_exists(mem, "/t/.hoodie/20240101000000000.commit.requested");
        cr_assert(!completed || pending, "call %lld", (long long)n);
        if (!tripped) cr_assert_eq(check->count, 0);
        hudi_timeline_free(check);
        hudi_fs_free(mem);
        if (!tripped) break;
    }
}

/* ---- partition metadata -------------------------------------------------------------------- */

Test(partition_meta, reads_fixture_metafiles) {
    hudi_fs *fs = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_partition_meta m;
    cr_assert_eq(hudi_fs_local_new(&fs, &err), 0);
    const char *base = fixture_unzip("hudi-rs/sample_table/cow/v8_simplekeygen_nonhivestyle.zip");
    cr_assert_eq(hudi_partition_meta_read(&m, fs, base, "10", &err), 0, "%s", err.message);
    cr_assert_str_eq(m.commit_time, "20250713011315930");
    cr_assert_eq(m.depth, 1);
    cr_assert_eq(hudi_partition_meta_read(&m, fs, base, "", &err), HUDI_ENOTFOUND);
    base = fixture_unzip("hudi-rs/sample_table/cow/v6_nonpartitioned.zip");
    cr_assert_eq(hudi_partition_meta_read(&m, fs, base, "", &err), 0, "%s", err.message);
    cr_assert_eq(m.depth, 0);
    base = fixture_unzip("hudi-rs/sample_table/cow/v6_timebasedkeygen_nonhivestyle.zip");
    cr_assert_eq(hudi_partition_meta_read(&m, fs, base, "2023/04/01/12", &err), 0, "%s",
                 err.message);
    cr_assert_eq(m.depth, 4);
    hudi_fs_free(fs);
}

static int64_t fixed_clock(void *payload) { return *(int64_t *)payload; }

Test(partition_meta, writes_like_hudi_and_never_rewrites) {
    setenv("TZ", "UTC", 1);
    tzset();
    hudi_fs *fs = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    int64_t now = 1752369196000LL; /* Sun Jul 13 01:13:16 UTC 2025 */
    hudi_clock clock = {fixed_clock, &now};
    cr_assert_eq(hudi_fs_memory_new(&fs, &err), 0);
    cr_assert_eq(
        hudi_partition_meta_write(fs, "/t", "10", "20250713011315930", "0-1-2", &clock, &err), 0,
        "%s", err.message);
    hudi_buf text = HUDI_BUF_INIT;
    cr_assert_eq(hudi_fs_read_all(fs, "/t/10/.hoodie_partition_metadata", &text, &err), 0);
    /* byte-identical to the v8 fixture's 10/.hoodie_partition_metadata */
    cr_assert_str_eq(text.data, "#partition metadata\n#Sun Jul 13 01:13:16 UTC 2025\n"
                                "commitTime=20250713011315930\npartitionDepth=1\n");
    cr_assert(!hudi_fs_exists(fs, "/t/10/.hoodie_partition_metadata_0-1-2"));
    cr_assert_eq(hudi_partition_meta_write(fs, "/t", "10", "20250713011399999", NULL, &clock, &err),
                 0);
    hudi_partition_meta m;
    cr_assert_eq(hudi_partition_meta_read(&m, fs, "/t", "10", &err), 0);
    cr_assert_str_eq(m.commit_time, "20250713011315930"); /* not rewritten */
    cr_assert_eq(hudi_partition_meta_write(fs, "/t", "", "20250713011315930", NULL, &clock, &err),
                 0);
    cr_assert_eq(hudi_partition_meta_read(&m, fs, "/t", "", &err), 0);
    cr_assert_eq(m.depth, 0);
    cr_assert_eq(
        hudi_partition_meta_write(fs, "/t", "a=1/b=2", "20250713011315930", NULL, &clock, &err), 0);
    cr_assert_eq(hudi_partition_meta_read(&m, fs, "/t", "a=1/b=2", &err), 0);
    cr_assert_eq(m.depth, 2);
    cr_assert_eq(hudi_partition_depth("2023/04/01/12"), 4);
    cr_assert_eq(hudi_partition_depth("2023/04/"), 2);
    cr_assert_eq(hudi_partition_meta_write(fs, "/t", "x", "nope", NULL, &clock, &err), HUDI_EINVAL);
    hudi_fs_write_all(fs, "/t/y/.hoodie_partition_metadata", HUDI_CREATE_OVERWRITE, "a=b\n", 4,
                      NULL);
    cr_assert_eq(hudi_partition_meta_read(&m, fs, "/t", "y", &err), HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "/t/y/.hoodie_partition_metadata: missing or invalid commitTime"),
              "%s", err.message);
    hudi_buf_dispose(&text);
    hudi_fs_free(fs);
}
