/* commit_meta_test.c - HoodieCommitMetadata JSON: parsing every field, byte-exact rewriting of
 * every JSON instant file in the v6 fixture tables, builders, Java HashMap key order, errors. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "table/table.h"

static hudi_commit_metadata *parse_file(const char *path) {
    size_t len = 0;
    unsigned char *data = test_read_file(path, &len);
    cr_assert(data, "cannot read %s", path);
    hudi_commit_metadata *md = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    int rc = hudi_commit_metadata_parse(&md, (const char *)data, len, path, &err);
    cr_assert_eq(rc, 0, "%s: %s", path, err.message);
    free(data);
    return md;
}

/* parse -> write must give back the file's bytes. */
static void assert_rewrites_identically(const char *path) {
    size_t len = 0;
    unsigned char *data = test_read_file(path, &len);
    cr_assert(data, "cannot read %s", path);
    hudi_commit_metadata *md = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_commit_metadata_parse(&md, (const char *)data, len, path, &err), 0, "%s: %s",
                 path, err.message);
    hudi_buf out = HUDI_BUF_INIT;
    cr_assert_eq(hudi_commit_metadata_write(md, &out, &err), 0, "%s", err.message);
    if (out.len != len || memcmp(out.data, data, len) != 0) {
        size_t i = 0;
        while (i < len && i < out.len && out.data[i] == (char)data[i]) i++;
        cr_assert_fail("%s: rewrite differs at byte %zu of %zu (ours %zu): ...%.60s", path, i, len,
                       out.len, out.data + (i > 20 ? i - 20 : 0));
    }
    hudi_buf_dispose(&out);
    hudi_commit_metadata_free(md);
    free(data);
}

Test(commit_meta, parses_v6_commit_fixture) {
    hudi_commit_metadata *md =
        parse_file(fixture_path("hudi-rs/components/commit_metadata/v6_commit.json"));
    cr_assert_eq(md->partitions_count, 1);
    const hudi_partition_write_stats *ps = &md->partitions[0];
    cr_assert_str_eq(ps->partition_path, "");
    cr_assert_eq(ps->count, 1);
    const hudi_write_stat *s = &ps->stats[0];
    cr_assert_str_eq(s->file_id, "a079bdb3-731c-4894-b855-abfcd6921007-0");
    cr_assert_str_eq(s->path,
                     "a079bdb3-731c-4894-b855-abfcd6921007-0_0-203-274_20240418173551906.parquet");
    cr_assert_null(s->cdc_stats_json);
    cr_assert_str_eq(s->prev_commit, "20240418173550988");
    cr_assert_eq(s->num_writes, 4);
    cr_assert_eq(s->num_deletes, 0);
    cr_assert_eq(s->num_update_writes, 1);
    cr_assert_eq(s->num_inserts, 1);
    cr_assert_eq(s->total_write_bytes, 441520);
    cr_assert_null(s->temp_path);
    cr_assert_str_eq(s->partition_path, "");
    cr_assert_eq(s->file_size_bytes, 441520);
    cr_assert(!s->has_min_event_time && !s->has_max_event_time);
    cr_assert(s->has_runtime_stats);
    cr_assert_eq(s->runtime_stats.total_upsert_time, 105);
    cr_assert(!s->is_delta);
    cr_assert(!md->compacted);
    cr_assert(!md->is_replace);
    cr_assert_str_eq(md->operation_type, "UPSERT");
    const char *schema = hudi_commit_metadata_extra(md, "schema");
    cr_assert(schema &&
              strncmp(schema, "{\"type\":\"record\",\"name\":\"v6_nonpartitioned_record\"", 50) ==
                  0);
    cr_assert_eq(hudi_commit_metadata_stat_count(md), 1);
    hudi_commit_metadata_free(md);
}

Test(commit_meta, rewrites_v6_commit_fixture_byte_for_byte) {
    assert_rewrites_identically(fixture_path("hudi-rs/components/commit_metadata/v6_commit.json"));
}

/* Every JSON instant file (completed and inflight) in a timeline folder. */
static int rewrite_json_instants(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    static const char *const exts[] = {".commit", ".deltacommit", ".replacecommit", ".inflight"};
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        bool json = false;
        for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
            size_t el = strlen(exts[i]);
            if (len > el && strcmp(e->d_name + len - el, exts[i]) == 0) json = true;
        }
        if (!json) continue;
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        size_t size = 0;
        unsigned char *data = test_read_file(path, &size);
        free(data);
        if (size == 0) continue; /* empty inflight of an old writer */
        assert_rewrites_identically(path);
        n++;
    }
    closedir(d);
    return n;
}

Test(commit_meta, rewrites_every_v6_fixture_instant_byte_for_byte) {
    static const char *const zips[] = {
        "hudi-rs/sample_table/cow/v6_complexkeygen_hivestyle.zip",
        "hudi-rs/sample_table/cow/v6_nonpartitioned.zip",
        "hudi-rs/sample_table/cow/v6_simplekeygen_hivestyle_no_metafields.zip",
        "hudi-rs/sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable.zip",
        "hudi-rs/sample_table/cow/v6_timebasedkeygen_nonhivestyle.zip",
        "hudi-rs/sample_table/mor/parquet/v6_nonpartitioned.zip",
        "hudi-rs/sample_table/mor/parquet/v6_nonpartitioned_rollback.zip",
        "hudi-rs/sample_table/mor/parquet/v6_simplekeygen_nonhivestyle.zip",
        "hudi-rs/quickstart_trips_table/mor/avro/v6_trips_8i1u.zip",
        "hudi-rs/quickstart_trips_table/mor/avro/v6_trips_8i3d.zip",
        "hudi-rs/historical/python_0.x_cow_partitioned.zip",
    };
    int total = 0;
    for (size_t i = 0; i < sizeof(zips) / sizeof(zips[0]); i++) {
        const char *base = fixture_unzip(zips[i]);
        cr_assert(base, "unzip %s", zips[i]);
        char dir[4096];
        snprintf(dir, sizeof(dir), "%s/.hoodie", base);
        total += rewrite_json_instants(dir);
        snprintf(dir, sizeof(dir), "%s/.hoodie/metadata/.hoodie", base);
        total += rewrite_json_instants(dir);
    }
    cr_assert_geq(total, 40, "only %d instant files checked", total);
}

Test(commit_meta, parses_delta_and_replace_stats) {
    const char *base = fixture_unzip("hudi-rs/quickstart_trips_table/mor/avro/v6_trips_8i1u.zip");
    cr_assert(base);
    char path[4096];
    snprintf(path, sizeof(path), "%s/.hoodie/20250331030645735.deltacommit", base);
    hudi_commit_metadata *md = parse_file(path);
    cr_assert_eq(md->partitions_count, 1);
    const hudi_write_stat *s = &md->partitions[0].stats[0];
    cr_assert(s->is_delta);
    cr_assert_eq(s->log_version, 1);
    cr_assert_eq(s->log_offset, 0);
    cr_assert_str_eq(s->base_file,
                     "d0304c53-6fd2-4b7a-a9d6-5ff632f79224-0_0-13-60_20250331030642808.parquet");
    cr_assert_eq(s->log_files_count, 1);
    cr_assert_str_eq(s->log_files[0],
                     ".d0304c53-6fd2-4b7a-a9d6-5ff632f79224-0_20250331030642808.log.1_0-26-85");
    cr_assert_str_eq(s->records_stats_json, "{\"val\":null}");
    cr_assert_str_eq(hudi_commit_metadata_extra(md, "_hoodie.spark.sql.writes.prepped"), "true");
    cr_assert_str_eq(md->operation_type, "UPSERT_PREPPED");
    hudi_commit_metadata_free(md);

    base =
        fixture_unzip("hudi-rs/sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable.zip");
    snprintf(path, sizeof(path), "%s/.hoodie/20240707001303088.replacecommit", base);
    md = parse_file(path);
    cr_assert(md->is_replace);
    cr_assert_str_eq(md->operation_type, "INSERT_OVERWRITE_TABLE");
    cr_assert_eq(md->replaced_count, 3);
    cr_assert_str_eq(md->replaced[0].partition_path, "30");
    cr_assert_eq(md->replaced[0].count, 1);
    cr_assert_str_eq(md->replaced[0].file_ids[0], "d398fae1-c0e6-4098-8124-f55f7098bdba-0");
    cr_assert_str_eq(md->replaced[2].partition_path, "10");
    hudi_commit_metadata_free(md);

    /* the inflight of a replacecommit is a plain commit metadata (workload profile) */
    snprintf(path, sizeof(path), "%s/.hoodie/20240707001303088.replacecommit.inflight", base);
    md = parse_file(path);
    cr_assert(!md->is_replace);
    cr_assert_str_eq(md->partitions[0].stats[0].file_id, "");
    cr_assert_null(md->partitions[0].stats[0].path);
    cr_assert_null(md->partitions[0].stats[0].partition_path);
    cr_assert(!md->partitions[0].stats[0].has_runtime_stats);
    hudi_commit_metadata_free(md);
}

/* Builds what a hudic COW insert writes and checks Hudi's shape and HashMap key order. */
Test(commit_meta, builder_writes_hudi_shape_in_hashmap_order) {
    hudi_commit_metadata *md = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_commit_metadata_new(&md, &err), 0);
    static const char *const parts[] = {"10", "20", "30"};
    for (int i = 0; i < 3; i++) {
        char path[128];
        snprintf(path, sizeof(path), "%s/f%d-0_0-1-2_20240101000000000.parquet", parts[i], i);
        hudi_write_stat s = {0};
        s.file_id = "f-0";
        s.path = path;
        s.prev_commit = "null";
        s.num_writes = s.num_inserts = i + 1;
        s.total_write_bytes = s.file_size_bytes = 1000 + i;
        s.partition_path = parts[i];
        s.has_runtime_stats = true;
        s.runtime_stats.total_create_time = 7;
        cr_assert_eq(hudi_commit_metadata_add_write_stat(md, NULL, &s, &err), 0);
    }
    cr_assert_eq(hudi_commit_metadata_set_extra(md, "schema", "{\"type\":\"record\"}", &err), 0);
    cr_assert_eq(
        hudi_commit_metadata_set_extra(md, "_hoodie.spark.sql.writes.prepped", "true", &err), 0);
    cr_assert_eq(hudi_commit_metadata_set_operation(md, "UPSERT", &err), 0);
    hudi_buf out = HUDI_BUF_INIT;
    cr_assert_eq(hudi_commit_metadata_write(md, &out, &err), 0);
    /* Java's HashMap iterates "30", "20", "10" (buckets 13, 14, 15 of 16), and puts
     * "_hoodie.spark.sql.writes.prepped" after "schema" (as in the fixture deltacommit). */
    const char *p30 = strstr(out.data, "\"30\" : [ {"), *p20 = strstr(out.data, "\"20\" : [ {");
    const char *p10 = strstr(out.data, "\"10\" : [ {");
    cr_assert(p30 && p20 && p10 && p30 < p20 && p20 < p10, "%s", out.data);
    const char *ps = strstr(out.data, "\"schema\" : \"{\\\"type\\\":\\\"record\\\"}\"");
    const char *pp = strstr(out.data, "\"_hoodie.spark.sql.writes.prepped\" : \"true\"");
    cr_assert(ps && pp && ps < pp, "%s", out.data);
    cr_assert(strncmp(out.data,
                      "{\n  \"partitionToWriteStats\" : {\n    \"30\" : [ {\n      "
                      "\"fileId\" : \"f-0\",\n      \"path\" : \"30/f2-0_0-1-2_",
                      91) == 0,
              "%s", out.data);
    cr_assert(strstr(out.data, "      \"runtimeStats\" : {\n        \"totalScanTime\" : 0,\n"
                               "        \"totalUpsertTime\" : 0,\n        \"totalCreateTime\" : 7\n"
                               "      }\n    } ],\n"));
    cr_assert(strstr(out.data, "  \"compacted\" : false,\n  \"extraMetadata\" : {\n"));
    const char *tail = "  \"operationType\" : \"UPSERT\"\n}";
    cr_assert_str_eq(out.data + out.len - strlen(tail), tail);

    /* and it parses back to the same values, and rewrites identically */
    hudi_commit_metadata *back = NULL;
    cr_assert_eq(hudi_commit_metadata_parse(&back, out.data, out.len, "built", &err), 0, "%s",
                 err.message);
    cr_assert_eq(hudi_commit_metadata_stat_count(back), 3);
    hudi_buf again = HUDI_BUF_INIT;
    cr_assert_eq(hudi_commit_metadata_write(back, &again, &err), 0);
    cr_assert_str_eq(again.data, out.data);
    hudi_buf_dispose(&again);
    hudi_commit_metadata_free(back);
    hudi_buf_dispose(&out);
    hudi_commit_metadata_free(md);
}

Test(commit_meta, writes_empty_containers_and_replace_ids) {
    hudi_commit_metadata *md = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_commit_metadata_new(&md, &err), 0);
    cr_assert_eq(hudi_commit_metadata_set_operation(md, "DELETE_PARTITION", &err), 0);
    cr_assert_eq(hudi_commit_metadata_add_replaced(md, "10", "a-0", &err), 0);
    cr_assert_eq(hudi_commit_metadata_add_replaced(md, "10", "b-0", &err), 0);
    hudi_buf out = HUDI_BUF_INIT;
    cr_assert_eq(hudi_commit_metadata_write(md, &out, &err), 0);
    cr_assert_str_eq(out.data, "{\n"
                               "  \"partitionToWriteStats\" : { },\n"
                               "  \"compacted\" : false,\n"
                               "  \"extraMetadata\" : { },\n"
                               "  \"operationType\" : \"DELETE_PARTITION\",\n"
                               "  \"partitionToReplaceFileIds\" : {\n"
                               "    \"10\" : [ \"a-0\", \"b-0\" ]\n"
                               "  }\n"
                               "}");
    hudi_buf_dispose(&out);
    hudi_commit_metadata_free(md);
}

Test(commit_meta, delta_stat_defaults_and_escapes) {
    hudi_commit_metadata *md = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_commit_metadata_new(&md, &err), 0);
    hudi_write_stat s = {0};
    s.file_id = "x-0";
    s.is_delta = true;
    s.log_version = 2;
    s.base_file = "";
    s.has_min_event_time = true;
    s.min_event_time = -5;
    cr_assert_eq(hudi_commit_metadata_add_write_stat(md, "p", &s, &err), 0);
    cr_assert_eq(hudi_commit_metadata_set_extra(md, "k", "a\"b\\c\n\t\x01/é", &err), 0);
    hudi_buf out = HUDI_BUF_INIT;
    cr_assert_eq(hudi_commit_metadata_write(md, &out, &err), 0);
    cr_assert(strstr(out.data, "\"minEventTime\" : -5,\n"));
    cr_assert(strstr(out.data, "\"logVersion\" : 2,\n"));
    cr_assert(strstr(out.data, "\"baseFile\" : \"\",\n      \"logFiles\" : [ ],\n"
                               "      \"recordsStats\" : {\n        \"val\" : null\n      }\n"));
    cr_assert(strstr(out.data, "\"k\" : \"a\\\"b\\\\c\\n\\t\\u0001/é\""), "%s", out.data);
    hudi_commit_metadata *back = NULL;
    cr_assert_eq(hudi_commit_metadata_parse(&back, out.data, out.len, "x", &err), 0);
    cr_assert_str_eq(hudi_commit_metadata_extra(back, "k"), "a\"b\\c\n\t\x01/é");
    cr_assert(back->partitions[0].stats[0].is_delta);
    cr_assert_eq(back->partitions[0].stats[0].min_event_time, -5);
    hudi_commit_metadata_free(back);
    hudi_buf_dispose(&out);
    hudi_commit_metadata_free(md);
}

Test(commit_meta, raw_fields_round_trip) {
    const char *json = "{\"partitionToWriteStats\":{\"p\":[{\"fileId\":\"f\",\"cdcStats\":"
                       "{\"p/a.cdc\":12,\"p/b.cdc\":3},\"logFiles\":[\"l1\",\"l2\"],"
                       "\"recordsStats\":{\"val\":{\"c\":{\"min\":1.5,\"max\":1e20}}}}]},"
                       "\"compacted\":true}";
    hudi_commit_metadata *md = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_commit_metadata_parse(&md, json, strlen(json), "x", &err), 0, "%s",
                 err.message);
    cr_assert(md->compacted);
    cr_assert_str_eq(md->operation_type, "UNKNOWN");
    hudi_buf out = HUDI_BUF_INIT;
    cr_assert_eq(hudi_commit_metadata_write(md, &out, &err), 0);
    cr_assert(strstr(out.data, "\"cdcStats\" : {\n        \"p/a.cdc\" : 12,\n"
                               "        \"p/b.cdc\" : 3\n      },\n"),
              "%s", out.data);
    cr_assert(strstr(out.data, "\"logFiles\" : [ \"l1\", \"l2\" ],"));
    cr_assert(strstr(out.data, "\"min\" : 1.5,"), "%s", out.data);
    cr_assert(strstr(out.data, "\"max\" : 1.0E20\n"), "%s", out.data);
    cr_assert(strstr(out.data, "\"compacted\" : true,"));
    hudi_buf_dispose(&out);
    hudi_commit_metadata_free(md);
}

Test(commit_meta, malformed_input_is_ecorrupt_naming_the_file) {
    static const char *const bad[] = {
        "{\"partitionToWriteStats\" : {",
        "[1, 2]",
        "{\"partitionToWriteStats\" : {\"p\" : [ {\"numWrites\" : \"many\"} ]}}",
        "{\"partitionToWriteStats\" : {\"p\" : [ 7 ]}}",
        "{\"partitionToWriteStats\" : {\"p\" : 7}}",
        "{\"extraMetadata\" : {\"schema\" : 5}}",
        "{\"compacted\" : \"yes\"}",
        "{\"partitionToReplaceFileIds\" : {\"p\" : [ 1 ]}}",
        "{\"partitionToWriteStats\" : {\"p\" : [ {\"logFiles\" : \"x\"} ]}}",
        "{\"partitionToWriteStats\" : {\"p\" : [ {\"logVersion\" : 99999999999} ]}}",
        "{\"partitionToWriteStats\" : {\"p\" : [ {\"runtimeStats\" : [ ]} ]}}",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        hudi_commit_metadata *md = (hudi_commit_metadata *)1;
        hudi_error err = HUDI_ERROR_INIT;
        int rc = hudi_commit_metadata_parse(&md, bad[i], strlen(bad[i]),
                                            ".hoodie/20240101000000000.commit", &err);
        cr_assert_eq(rc, HUDI_ECORRUPT, "case %zu: rc %d", i, rc);
        cr_assert_null(md);
        cr_assert(strstr(err.message, ".hoodie/20240101000000000.commit"), "%s", err.message);
    }
}

/* ---- every allocation failing in turn ------------------------------------------------------ */

static struct { long count, fail_at, live; } g_ta;

static void *ta_malloc(size_t n, void *payload) {
    if (g_ta.fail_at >= 0 && g_ta.count++ == g_ta.fail_at) return NULL;
    void *p = malloc(n);
    if (p) g_ta.live++;
    return p;
}
static void *ta_realloc(void *ptr, size_t n, void *payload) {
    if (g_ta.fail_at >= 0 && g_ta.count++ == g_ta.fail_at) return NULL;
    void *p = realloc(ptr, n);
    if (p && !ptr) g_ta.live++;
    return p;
}
static void ta_free(void *ptr, void *payload) {
    if (ptr) g_ta.live--;
    free(ptr);
}

static int oom_scenario(const char *json, size_t len) {
    hudi_commit_metadata *md = NULL;
    hudi_buf out = HUDI_BUF_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    int rc;
    if ((rc = hudi_commit_metadata_parse(&md, json, len, "oom", &err)) < 0) goto done;
    const char *logs[] = {".f-0_1.log.1_0-0-1", ".f-0_1.log.2_0-0-1"};
    hudi_write_stat s = {.file_id = "f-0",
                         .path = "p/x",
                         .is_delta = true,
                         .log_files = logs,
                         .log_files_count = 2,
                         .partition_path = "p2"};
    if ((rc = hudi_commit_metadata_add_write_stat(md, NULL, &s, &err)) < 0) goto done;
    if ((rc = hudi_commit_metadata_set_extra(md, "k", "v", &err)) < 0) goto done;
    if ((rc = hudi_commit_metadata_add_replaced(md, "p3", "g-0", &err)) < 0) goto done;
    if ((rc = hudi_commit_metadata_write(md, &out, &err)) < 0) goto done;
    cr_assert_gt(out.len, len);
done:
    if (rc < 0) cr_assert_eq(rc, HUDI_ENOMEM, "rc %d: %s", rc, err.message);
    hudi_buf_dispose(&out);
    hudi_commit_metadata_free(md);
    return rc;
}

Test(commit_meta, every_allocation_fails_cleanly) {
    size_t len = 0;
    unsigned char *json =
        test_read_file(fixture_path("hudi-rs/components/commit_metadata/v6_commit.json"), &len);
    cr_assert(json);
    hudi_allocator a = {ta_malloc, ta_realloc, ta_free, NULL};
    int failures = 0;
    for (long n = 0;; n++) {
        g_ta.count = 0;
        g_ta.fail_at = n;
        g_ta.live = 0;
        /* hudic's own allocations only (hudi_alloc_set, not the public hudi_set_allocator,
         * which also routes jansson's): jansson reports some of its own allocation failures
         * as syntax errors and survives others, so only hudic's paths can promise ENOMEM. */
        hudi_alloc_set(&a);
        int rc = oom_scenario((const char *)json, len);
        hudi_alloc_set(NULL);
        cr_assert_eq(g_ta.live, 0, "allocation %ld failed: %ld blocks leaked", n, g_ta.live);
        if (rc == 0) break;
        failures++;
        cr_assert_lt(n, 10000);
    }
    cr_assert_gt(failures, 5);
    free(json);
}
