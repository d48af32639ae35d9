/* fs_view_test.c - the file-system view (docs/formats/file-names.md §7,
 * timeline.md §5): latest file slices of every fixture
 * table against its expected.json, time travel and replaced file groups on the overwrite table,
 * files written by commits, and synthetic tables with failed, pending and duplicate files. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"
#include "table/table.h"

typedef struct fixture {
    hudi_fs *fs;
    hudi_props props;
    hudi_table_config cfg;
    hudi_timeline *tl;
} fixture;

static void open_fixture(fixture *f, const char *base) {
    hudi_error err = HUDI_ERROR_INIT;
    memset(f, 0, sizeof(*f));
    cr_assert_eq(hudi_fs_local_new(&f->fs, &err), 0);
    cr_assert_eq(hudi_props_load(&f->props, f->fs, base, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_table_config_from_props(&f->cfg, &f->props, base, &err), 0, "%s",
                 err.message);
    cr_assert_eq(hudi_timeline_load(&f->tl, f->fs, base, &f->cfg, &err), 0, "%s", err.message);
}

static void close_fixture(fixture *f) {
    hudi_timeline_free(f->tl);
    hudi_props_dispose(&f->props);
    hudi_fs_free(f->fs);
}

/* Unzips a fixture table once per fixture version into $TMPDIR/hudic-fixture-cache (the
 * view only reads, so tests and runs can share it) and returns the table folder. The metadata
 * table (.hoodie/metadata) is left out: the view never reads it, and it is most of the bytes. */
static const char *table_dir(const char *zip_rel) {
    static char out[8192];
    char zip[4096], dir[4096], tmp[4200], cmd[9000], key[1024];
    snprintf(zip, sizeof(zip), "%s", fixture_path(zip_rel));
    struct stat st;
    cr_assert_eq(stat(zip, &st), 0, "%s", zip);
    snprintf(key, sizeof(key), "%s-%lld-%lld", zip_rel, (long long)st.st_size,
             (long long)st.st_mtime);
    for (char *p = key; *p; p++)
        if (*p == '/') *p = '_';
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof(dir), "%s/hudic-fixture-cache", t ? t : "/tmp");
    mkdir(dir, 0755);
    snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/%s", key);
    if (stat(dir, &st) != 0) {
        snprintf(tmp, sizeof(tmp), "%s.tmp%d", dir, (int)getpid());
        snprintf(cmd, sizeof(cmd), "unzip -q -o '%s' -d '%s' -x '*/.hoodie/metadata/*' 2>/dev/null",
                 zip, tmp);
        int rc = system(cmd);
        cr_assert(rc == 0 || (WIFEXITED(rc) && WEXITSTATUS(rc) == 11), "%s: %d", cmd, rc);
        if (rename(tmp, dir) != 0) { /* another test got there first */
            snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
            cr_assert_eq(system(cmd), 0);
        }
    }
    DIR *d = opendir(dir);
    cr_assert(d, "%s", dir);
    struct dirent *e;
    out[0] = 0;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.' && strcmp(e->d_name, "__MACOSX") != 0)
            snprintf(out, sizeof(out), "%s/%s", dir, e->d_name);
    closedir(d);
    cr_assert(out[0], "%s: empty", dir);
    return out;
}

static hudi_fs_view *build_view(const hudi_timeline *tl, const char *as_of) {
    hudi_fs_view_options opts = HUDI_FS_VIEW_OPTIONS_INIT;
    opts.as_of_instant = as_of;
    hudi_fs_view *v = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_fs_view_build(&v, tl, &opts, &err), 0, "%s", err.message);
    return v;
}

/* "partition|fileId|base|log1,log2" lines, sorted, for comparing slice sets. */
static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *slice_line(const char *part, const char *id, const char *base, const char **logs,
                        size_t n) {
    hudi_buf b = HUDI_BUF_INIT;
    hudi_buf_printf(&b, "%s|%s|%s|", part, id, base ? base : "-");
    for (size_t i = 0; i < n; i++) hudi_buf_printf(&b, "%s%s", i ? "," : "", logs[i]);
    return hudi_buf_detach(&b);
}

static void check_latest_slices(const char *zip, const char *expected_json) {
    char exp_path[4096];
    snprintf(exp_path, sizeof(exp_path), "%s", fixture_path(expected_json));
    json_error_t jerr;
    json_t *exp = json_load_file(exp_path, 0, &jerr);
    cr_assert(exp, "%s: %s", exp_path, jerr.text);
    json_t *slices = json_object_get(exp, "file_slices_latest");
    cr_assert(json_is_array(slices), "%s", exp_path);

    const char *base = table_dir(zip);
    cr_assert(base, "unzip %s", zip);
    fixture f;
    open_fixture(&f, base);
    hudi_fs_view *v = build_view(f.tl, NULL);
    size_t n = 0;
    const hudi_file_slice *got = hudi_fs_view_latest_slices(v, &n);
    cr_assert_eq(n, json_array_size(slices), "%s: %zu slices, expected %zu", zip, n,
                 json_array_size(slices));

    char **want = calloc(n + 1, sizeof(char *)), **have = calloc(n + 1, sizeof(char *));
    for (size_t i = 0; i < n; i++) {
        json_t *s = json_array_get(slices, i);
        json_t *logs = json_object_get(s, "log_files");
        const char *names[64];
        size_t k = json_array_size(logs);
        cr_assert_leq(k, 64);
        for (size_t j = 0; j < k; j++) names[j] = json_string_value(json_array_get(logs, j));
        want[i] = slice_line(json_string_value(json_object_get(s, "partition")),
                             json_string_value(json_object_get(s, "file_id")),
                             json_string_value(json_object_get(s, "base_file")), names, k);
        const char *lnames[64];
        cr_assert_leq(got[i].logs_count, 64);
        for (size_t j = 0; j < got[i].logs_count; j++) lnames[j] = got[i].logs[j].name;
        have[i] = slice_line(got[i].partition_path, got[i].file_id,
                             got[i].base ? got[i].base->name : NULL, lnames, got[i].logs_count);
        if (got[i].base) {
            /* the path is base/partition/name and the file exists */
            struct stat st;
            cr_assert_eq(stat(got[i].base->path, &st), 0, "%s", got[i].base->path);
            cr_assert_eq(st.st_size, got[i].base->size_bytes);
            hudi_base_file_name bn;
            cr_assert(hudi_base_file_name_parse(&bn, got[i].base->name));
            cr_assert(hudi_slice_eq(bn.instant, hudi_slice_cstr(got[i].base_instant)));
        }
    }
    qsort(want, n, sizeof(char *), cmp_str);
    qsort(have, n, sizeof(char *), cmp_str);
    for (size_t i = 0; i < n; i++) {
        cr_assert_str_eq(have[i], want[i], "%s", zip);
        free(want[i]);
        free(have[i]);
    }
    free(want);
    free(have);

    /* partitions found by listing match the fixture's */
    json_t *parts = json_object_get(json_object_get(exp, "files"), "partitions");
    size_t np = 0;
    const char *const *vp = hudi_fs_view_partitions(v, &np);
    if (json_is_array(parts) && json_array_size(parts) > 0) {
        cr_assert_eq(np, json_array_size(parts), "%s: %zu partitions", zip, np);
        for (size_t i = 0; i < np; i++) {
            bool found = false;
            for (size_t j = 0; j < np && !found; j++)
                found = strcmp(vp[i], json_string_value(json_array_get(parts, j))) == 0;
            cr_assert(found, "%s: unexpected partition '%s'", zip, vp[i]);
        }
    }
    hudi_fs_view_free(v);
    close_fixture(&f);
    json_decref(exp);
}

#define FIXTURE_TEST(name, dir, table)                                                             \
    Test(fs_view, latest_##name) {                                                                 \
        check_latest_slices("hudi-rs/" dir "/" table ".zip",                                       \
                            "hudi-rs/" dir "/" table ".expected.json");                            \
    }

FIXTURE_TEST(cow_v6_complexkeygen_hivestyle, "sample_table/cow", "v6_complexkeygen_hivestyle")
FIXTURE_TEST(cow_v6_empty, "sample_table/cow", "v6_empty")
FIXTURE_TEST(cow_v6_nonpartitioned, "sample_table/cow", "v6_nonpartitioned")
FIXTURE_TEST(cow_v6_no_metafields, "sample_table/cow", "v6_simplekeygen_hivestyle_no_metafields")
FIXTURE_TEST(cow_v6_overwritetable, "sample_table/cow",
             "v6_simplekeygen_nonhivestyle_overwritetable")
FIXTURE_TEST(cow_v6_timebasedkeygen, "sample_table/cow", "v6_timebasedkeygen_nonhivestyle")
FIXTURE_TEST(cow_v8_simplekeygen, "sample_table/cow", "v8_simplekeygen_nonhivestyle")
FIXTURE_TEST(cow_v9_timebasedkeygen, "sample_table/cow", "v9_timebasedkeygen_nonhivestyle")
FIXTURE_TEST(cow_v9_txns_complex_meta, "sample_table/cow", "v9_txns_complex_meta")
FIXTURE_TEST(cow_v9_txns_nonpart_nometa, "sample_table/cow", "v9_txns_nonpart_nometa")
FIXTURE_TEST(cow_v9_txns_simple_nometa, "sample_table/cow", "v9_txns_simple_nometa")
FIXTURE_TEST(cow_v9_txns_simple_overwrite, "sample_table/cow", "v9_txns_simple_overwrite")
FIXTURE_TEST(cow_python_historical, "historical", "python_0.x_cow_partitioned")
FIXTURE_TEST(mor_v6_empty, "sample_table/mor/parquet", "v6_empty")
FIXTURE_TEST(mor_v6_nonpartitioned, "sample_table/mor/parquet", "v6_nonpartitioned")
FIXTURE_TEST(mor_v6_rollback, "sample_table/mor/parquet", "v6_nonpartitioned_rollback")
FIXTURE_TEST(mor_v6_simplekeygen, "sample_table/mor/parquet", "v6_simplekeygen_nonhivestyle")
FIXTURE_TEST(mor_v6_trips_8i1u, "quickstart_trips_table/mor/avro", "v6_trips_8i1u")
FIXTURE_TEST(mor_v6_trips_8i3d, "quickstart_trips_table/mor/avro", "v6_trips_8i3d")
FIXTURE_TEST(mor_v8_trips_8i3u1d, "quickstart_trips_table/mor/avro", "v8_trips_8i3u1d")
FIXTURE_TEST(mor_v9_txns_complex_nometa, "sample_table/mor/avro", "v9_txns_complex_nometa")
FIXTURE_TEST(mor_v9_txns_nonpart_nometa, "sample_table/mor/avro", "v9_txns_nonpart_nometa")
FIXTURE_TEST(mor_v9_txns_simple_meta, "sample_table/mor/avro", "v9_txns_simple_meta")
FIXTURE_TEST(mor_v9_log_only, "pr602/mor/avro", "table_log_only")
FIXTURE_TEST(mor_v9_column_projection, "pr602/mor/avro", "table_column_projection")
FIXTURE_TEST(mor_v9_8i4u_commit_time, "pr602/mor/avro", "v9_mor_8i4u_commit_time")

/* ---- the INSERT OVERWRITE TABLE fixture, as of each of its instants ---------------------- */

#define OW_C1 "20240707001301554"
#define OW_C2 "20240707001302376"
#define OW_C3 "20240707001303088"

static void expect_slice(const hudi_fs_view *v, const char *part, const char *id,
                         const char *base_name) {
    const hudi_file_slice *s = hudi_fs_view_find(v, part, id);
    cr_assert(s, "no slice %s/%s as of %s", part, id, hudi_fs_view_as_of(v));
    cr_assert(s->base);
    cr_assert_str_eq(s->base->name, base_name);
}

Test(fs_view, overwrite_table_time_travel) {
    const char *base =
        table_dir("hudi-rs/sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable.zip");
    fixture f;
    open_fixture(&f, base);
    size_t n;

    /* latest: only the replacecommit's file group */
    hudi_fs_view *v = build_view(f.tl, NULL);
    cr_assert_str_eq(hudi_fs_view_as_of(v), OW_C3);
    hudi_fs_view_latest_slices(v, &n);
    cr_assert_eq(n, 1);
    expect_slice(v, "30", "ebcb261d-62d3-4895-90ec-5b3c9622dff4-0",
                 "ebcb261d-62d3-4895-90ec-5b3c9622dff4-0_0-111-154_" OW_C3 ".parquet");
    cr_assert_null(hudi_fs_view_find(v, "10", "4f2685a3-614f-49ca-9b2b-e1cb9fb61f27-0"));
    const hudi_file_slice *in10;
    cr_assert_eq(hudi_fs_view_latest_slices_in(v, "10", &in10, &n), 0);
    cr_assert_eq(n, 0);
    hudi_fs_view_free(v);

    /* as of the second commit: the three groups before the overwrite, 10's updated version */
    v = build_view(f.tl, OW_C2);
    hudi_fs_view_latest_slices(v, &n);
    cr_assert_eq(n, 3);
    expect_slice(v, "10", "4f2685a3-614f-49ca-9b2b-e1cb9fb61f27-0",
                 "4f2685a3-614f-49ca-9b2b-e1cb9fb61f27-0_0-95-135_" OW_C2 ".parquet");
    expect_slice(v, "20", "88163884-fef0-4aab-865d-c72327a8a1d5-0",
                 "88163884-fef0-4aab-865d-c72327a8a1d5-0_0-74-110_" OW_C1 ".parquet");
    expect_slice(v, "30", "d398fae1-c0e6-4098-8124-f55f7098bdba-0",
                 "d398fae1-c0e6-4098-8124-f55f7098bdba-0_1-95-136_" OW_C2 ".parquet");
    cr_assert_null(hudi_fs_view_find(v, "30", "ebcb261d-62d3-4895-90ec-5b3c9622dff4-0"));
    cr_assert_eq(hudi_fs_view_latest_slices_in(v, "10", &in10, &n), 0);
    cr_assert_eq(n, 1);
    cr_assert_str_eq(in10->file_id, "4f2685a3-614f-49ca-9b2b-e1cb9fb61f27-0");
    /* both versions of group 10 are visible slices; the older one first */
    const hudi_file_slice *all = hudi_fs_view_all_slices(v, &n);
    cr_assert_eq(n, 4);
    cr_assert_str_eq(all[0].partition_path, "10");
    cr_assert_str_eq(all[0].base_instant, OW_C1);
    cr_assert_str_eq(all[1].base_instant, OW_C2);
    hudi_fs_view_free(v);

    /* as of the first commit: two groups; 30's first file came with commit 2 */
    v = build_view(f.tl, OW_C1);
    hudi_fs_view_latest_slices(v, &n);
    cr_assert_eq(n, 2);
    expect_slice(v, "10", "4f2685a3-614f-49ca-9b2b-e1cb9fb61f27-0",
                 "4f2685a3-614f-49ca-9b2b-e1cb9fb61f27-0_1-74-111_" OW_C1 ".parquet");
    expect_slice(v, "20", "88163884-fef0-4aab-865d-c72327a8a1d5-0",
                 "88163884-fef0-4aab-865d-c72327a8a1d5-0_0-74-110_" OW_C1 ".parquet");
    size_t np;
    const char *const *parts = hudi_fs_view_partitions(v, &np);
    cr_assert_eq(np, 3);
    cr_assert_str_eq(parts[0], "10");
    cr_assert_str_eq(parts[2], "30");
    hudi_fs_view_free(v);

    /* before the first commit: nothing */
    v = build_view(f.tl, "20240101000000000");
    hudi_fs_view_latest_slices(v, &n);
    cr_assert_eq(n, 0);
    hudi_fs_view_free(v);
    close_fixture(&f);
}

Test(fs_view, time_travel_to_first_commit) {
    const char *base = table_dir("hudi-rs/sample_table/cow/v6_nonpartitioned.zip");
    fixture f;
    open_fixture(&f, base);
    hudi_instant_list commits = {NULL, 0};
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_timeline_completed_commits(&commits, f.tl, &err), 0);
    cr_assert_eq(commits.count, 2);
    const char *c1 = commits.items[0]->time;
    hudi_fs_view *v = build_view(f.tl, c1);
    size_t n;
    const hudi_file_slice *s = hudi_fs_view_latest_slices(v, &n);
    cr_assert_eq(n, 1);
    cr_assert_str_eq(s->partition_path, "");
    cr_assert_str_eq(s->base_instant, c1);
    cr_assert(strstr(s->base->name, c1));
    hudi_fs_view_free(v);
    hudi_instant_list_dispose(&commits);
    close_fixture(&f);
}

Test(fs_view, restricted_partitions_and_bad_as_of) {
    const char *base = table_dir("hudi-rs/sample_table/cow/v6_complexkeygen_hivestyle.zip");
    fixture f;
    open_fixture(&f, base);
    const char *only[] = {"byteField=20/shortField=100", "nope", "byteField=20/shortField=100"};
    hudi_fs_view_options opts = HUDI_FS_VIEW_OPTIONS_INIT;
    opts.partitions = only;
    opts.partitions_count = 3;
    hudi_fs_view *v = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_fs_view_build(&v, f.tl, &opts, &err), 0, "%s", err.message);
    size_t n;
    const hudi_file_slice *s = hudi_fs_view_latest_slices(v, &n);
    cr_assert_eq(n, 1);
    cr_assert_str_eq(s->partition_path, "byteField=20/shortField=100");
    hudi_fs_view_free(v);

    opts = (hudi_fs_view_options)HUDI_FS_VIEW_OPTIONS_INIT;
    opts.as_of_instant = "2024-01-01";
    v = (hudi_fs_view *)1;
    cr_assert_eq(hudi_fs_view_build(&v, f.tl, &opts, &err), HUDI_EINVAL);
    cr_assert_null(v);

    char **parts = NULL;
    cr_assert_eq(hudi_table_list_partitions(f.fs, base, &parts, &n, &err), 0);
    cr_assert_eq(n, 3);
    cr_assert_str_eq(parts[0], "byteField=10/shortField=300");
    for (size_t i = 0; i < n; i++) hudi_free(parts[i]);
    hudi_free(parts);
    close_fixture(&f);
}

/* ---- files written by commits ------------------------------------------------------------ */

Test(fs_view, files_between_and_of_instant) {
    const char *base =
        table_dir("hudi-rs/sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable.zip");
    fixture f;
    open_fixture(&f, base);
    hudi_error err = HUDI_ERROR_INIT;
    hudi_written_files w = HUDI_WRITTEN_FILES_INIT;
    cr_assert_eq(hudi_fs_view_files_between(&w, f.tl, NULL, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(w.count, 5);
    cr_assert_str_eq(w.files[0].instant, OW_C1);
    cr_assert_str_eq(w.files[4].instant, OW_C3);
    cr_assert_str_eq(w.files[4].action, "replacecommit");
    cr_assert_str_eq(w.files[4].path,
                     "30/ebcb261d-62d3-4895-90ec-5b3c9622dff4-0_0-111-154_" OW_C3 ".parquet");
    cr_assert(!w.files[4].is_log);
    hudi_written_files_dispose(&w);

    cr_assert_eq(hudi_fs_view_files_between(&w, f.tl, OW_C1, OW_C2, &err), 0);
    cr_assert_eq(w.count, 2);
    for (size_t i = 0; i < w.count; i++) cr_assert_str_eq(w.files[i].instant, OW_C2);
    hudi_written_files_dispose(&w);

    cr_assert_eq(hudi_fs_view_files_of_instant(&w, f.tl, OW_C2, &err), 0);
    cr_assert_eq(w.count, 2);
    bool saw_update = false;
    for (size_t i = 0; i < w.count; i++)
        if (strcmp(w.files[i].prev_commit, OW_C1) == 0) saw_update = true;
    cr_assert(saw_update);
    hudi_written_files_dispose(&w);

    cr_assert_eq(hudi_fs_view_files_of_instant(&w, f.tl, "20990101000000000", &err),
                 HUDI_ENOTFOUND);
    hudi_written_files_dispose(&w);
    close_fixture(&f);
}

Test(fs_view, mor_log_files_of_a_deltacommit) {
    const char *base = table_dir("hudi-rs/quickstart_trips_table/mor/avro/v6_trips_8i1u.zip");
    fixture f;
    open_fixture(&f, base);
    hudi_error err = HUDI_ERROR_INIT;
    hudi_written_files w = HUDI_WRITTEN_FILES_INIT;
    cr_assert_eq(hudi_fs_view_files_of_instant(&w, f.tl, "20250331030645735", &err), 0);
    cr_assert_eq(w.count, 1);
    cr_assert(w.files[0].is_log);
    cr_assert_str_eq(w.files[0].action, "deltacommit");
    cr_assert_str_eq(w.files[0].partition_path, "city=san_francisco");
    hudi_written_files_dispose(&w);
    close_fixture(&f);
}

/* ---- synthetic tables: failed, pending, duplicate and log-only files --------------------- */

static void touch(const char *base, const char *rel, const char *content) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", base, rel);
    for (char *p = path + strlen(base) + 1; *p; p++) {
        if (*p == '/') {
            *p = 0;
            mkdir(path, 0755);
            *p = '/';
        }
    }
    FILE *fp = fopen(path, "wb");
    cr_assert(fp, "%s", path);
    fputs(content, fp);
    fclose(fp);
}

/* A commit metadata file listing `paths` (partition-relative "p/name"). */
static void write_commit(const char *base, const char *file, const char *const *paths, size_t n,
                         const char *replaced_part, const char *replaced_id) {
    hudi_commit_metadata *md = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_commit_metadata_new(&md, &err), 0);
    for (size_t i = 0; i < n; i++) {
        hudi_write_stat s = {0};
        char part[256];
        snprintf(part, sizeof(part), "%s", paths[i]);
        char *slash = strrchr(part, '/');
        *slash = 0;
        hudi_base_file_name bn;
        cr_assert(hudi_base_file_name_parse(&bn, slash + 1));
        char id[128];
        snprintf(id, sizeof(id), "%.*s", (int)bn.file_id.len, (const char *)bn.file_id.data);
        s.file_id = id;
        s.path = paths[i];
        s.partition_path = part;
        s.prev_commit = "null";
        cr_assert_eq(hudi_commit_metadata_add_write_stat(md, NULL, &s, &err), 0);
    }
    if (replaced_part)
        cr_assert_eq(hudi_commit_metadata_add_replaced(md, replaced_part, replaced_id, &err), 0);
    hudi_buf out = HUDI_BUF_INIT;
    cr_assert_eq(hudi_commit_metadata_write(md, &out, &err), 0);
    char rel[256];
    snprintf(rel, sizeof(rel), ".hoodie/%s", file);
    touch(base, rel, out.data);
    hudi_buf_dispose(&out);
    hudi_commit_metadata_free(md);
}

static hudi_timeline *load_tl(hudi_fs *fs, const char *base) {
    hudi_timeline *tl = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_timeline_load_layout(&tl, fs, base, 1, NULL, &err), 0, "%s", err.message);
    return tl;
}

Test(fs_view, synthetic_failed_pending_duplicate_and_log_only) {
    char base[4096];
    snprintf(base, sizeof(base), "%s", test_tmpdir());
    touch(base, ".hoodie/hoodie.properties", "hoodie.table.name=t\n");
    touch(base, "p/.hoodie_partition_metadata", "commitTime=1\npartitionDepth=1\n");
    touch(base, "q/.hoodie_partition_metadata", "commitTime=1\npartitionDepth=1\n");
    touch(base, "notapartition/x-0_0-0-0_100.parquet", "x"); /* no metafile: ignored */
    touch(base, ".hidden/.hoodie_partition_metadata", "");   /* hidden: ignored */
    /* 100: commit of a-0 (two attempts of the same task; the commit names 1-0-1) */
    touch(base, "p/a-0_0-0-0_100.parquet", "aa");
    touch(base, "p/a-0_1-0-1_100.parquet", "aaa");
    const char *c100[] = {"p/a-0_1-0-1_100.parquet"};
    write_commit(base, "100.commit", c100, 1, NULL, NULL);
    /* 050: files older than the timeline's start count as archived commits */
    touch(base, "q/old-0_0-0-0_050.parquet", "o");
    /* 200: deltacommit with a log on a-0's slice and a log-only group l-0 */
    touch(base, "p/.a-0_100.log.1_0-0-0", "l");
    touch(base, "p/.l-0_200.log.1_0-0-0", "l");
    touch(base, "p/.l-0_200.log.2_0-0-0", "l");
    /* Hadoop checksum files of a log and a base file (Spark on a local file system): not
     * files of the table (a log's would parse as a log of file id ".l-0") */
    touch(base, "p/..l-0_200.log.2_0-0-0.crc", "c");
    touch(base, "p/.a-0_1-0-1_100.parquet.crc", "c");
    write_commit(base, "200.deltacommit", NULL, 0, NULL, NULL);
    /* 300: inflight write of a-0 and b-0: invisible */
    touch(base, "p/a-0_0-0-0_300.parquet", "x");
    touch(base, "p/b-0_0-0-0_300.parquet", "x");
    touch(base, ".hoodie/300.commit.requested", "");
    touch(base, ".hoodie/300.inflight", "");
    /* 400: pending compaction of l-0: a new log slice for it, merged into the latest slice */
    touch(base, ".hoodie/400.compaction.requested", "");
    touch(base, "p/.l-0_400.log.1_0-0-0", "l");
    /* 500: replacecommit that retires q/old-0 and adds q/n-0 */
    touch(base, "q/n-0_0-0-0_500.parquet", "n");
    const char *c500[] = {"q/n-0_0-0-0_500.parquet"};
    write_commit(base, "500.replacecommit", c500, 1, "q", "old-0");

    hudi_fs *fs = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_fs_local_new(&fs, &err), 0);
    hudi_timeline *tl = load_tl(fs, base);
    hudi_fs_view *v = build_view(tl, NULL);
    cr_assert_str_eq(hudi_fs_view_as_of(v), "500");
    size_t n;
    const hudi_file_slice *s = hudi_fs_view_latest_slices(v, &n);
    cr_assert_eq(n, 3, "%zu slices", n);
    size_t np;
    const char *const *parts = hudi_fs_view_partitions(v, &np);
    cr_assert_eq(np, 2);
    cr_assert_str_eq(parts[0], "p");
    cr_assert_str_eq(parts[1], "q");

    const hudi_file_slice *a = hudi_fs_view_find(v, "p", "a-0");
    cr_assert(a && a->base);
    cr_assert_str_eq(a->base->name, "a-0_1-0-1_100.parquet"); /* the committed attempt */
    cr_assert_eq(a->base->size_bytes, 3);
    cr_assert_eq(a->logs_count, 1);
    cr_assert_null(hudi_fs_view_find(v, "p", "b-0")); /* inflight only */

    const hudi_file_slice *l = hudi_fs_view_find(v, "p", "l-0");
    cr_assert(l && !l->base);
    cr_assert_str_eq(l->base_instant, "200");
    cr_assert_eq(l->logs_count, 3); /* 200's two logs, then the pending compaction's */
    cr_assert_str_eq(l->logs[0].name, ".l-0_200.log.1_0-0-0");
    cr_assert_str_eq(l->logs[2].name, ".l-0_400.log.1_0-0-0");

    cr_assert_null(hudi_fs_view_find(v, "q", "old-0")); /* replaced */
    cr_assert(hudi_fs_view_find(v, "q", "n-0"));
    (void)s;
    hudi_fs_view_free(v);

    /* as of 200: the old group is back, the replacecommit's group is not there yet */
    v = build_view(tl, "200");
    cr_assert(hudi_fs_view_find(v, "q", "old-0"));
    cr_assert_null(hudi_fs_view_find(v, "q", "n-0"));
    l = hudi_fs_view_find(v, "p", "l-0");
    cr_assert(l && l->logs_count == 2);
    hudi_fs_view_free(v);

    /* files of the pending write 300, found by listing */
    hudi_written_files w = HUDI_WRITTEN_FILES_INIT;
    cr_assert_eq(hudi_fs_view_files_of_instant(&w, tl, "300", &err), 0, "%s", err.message);
    cr_assert_eq(w.count, 2);
    cr_assert_str_eq(w.files[0].partition_path, "p");
    hudi_written_files_dispose(&w);

    hudi_timeline_free(tl);
    hudi_fs_free(fs);
}

Test(fs_view, empty_timeline_shows_nothing) {
    char base[4096];
    snprintf(base, sizeof(base), "%s", test_tmpdir());
    touch(base, ".hoodie/hoodie.properties", "hoodie.table.name=t\n");
    touch(base, ".hoodie_partition_metadata", "commitTime=1\npartitionDepth=0\n");
    touch(base, "a-0_0-0-0_100.parquet", "x"); /* a failed first write */
    touch(base, ".hoodie/100.commit.requested", "");
    hudi_fs *fs = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_fs_local_new(&fs, &err), 0);
    hudi_timeline *tl = load_tl(fs, base);
    hudi_fs_view *v = build_view(tl, NULL);
    size_t n;
    hudi_fs_view_latest_slices(v, &n);
    cr_assert_eq(n, 0);
    cr_assert_str_eq(hudi_fs_view_as_of(v), "");
    const char *const *parts = hudi_fs_view_partitions(v, &n);
    cr_assert_eq(n, 1);
    cr_assert_str_eq(parts[0], "");
    hudi_fs_view_free(v);
    hudi_timeline_free(tl);
    hudi_fs_free(fs);
}
