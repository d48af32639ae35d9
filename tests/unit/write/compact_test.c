/* compact_test.c - compaction of merge-on-read tables (write/compact.c): the merge-on-read
 * fixtures of tests/data/hudi-rs are compacted; the snapshot reads the same rows before and
 * after (every column but _hoodie_file_name, which names the new base file), the read-optimized
 * read equals the snapshot afterwards, the timeline holds compaction.requested (the Avro plan),
 * compaction.inflight and the completed commit (operationType COMPACT), and the column chunks
 * no log record changed are Spark's own bytes in the new base file (copied, not re-encoded). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/parquet/meta.h"
#include "format/parquet/parquet.h"
#include "read/read.h"
#include "storage/storage.h"
#include "schema/schema.h"
#include "support.h"
#include "table/bloom.h"
#include "write/write.h"
#include "write/write_int.h"
#include "write_fixtures.h"
#include "wt_util.h"

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The rows of a read as sorted text lines (every column but _hoodie_file_name). */
static char *dump(const char *dir, bool ro) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    cr_assert_eq(hudi_tbl_open(&t, NULL, dir, &err), 0, "%s", err.message);
    hudi_scan_options o = HUDI_SCAN_OPTIONS_INIT;
    o.read_optimized = ro;
    o.batch_rows = 3;
    hudi_reader *r = NULL;
    cr_assert_eq(hudi_reader_open(&r, t, &o, &err), 0, "%s", err.message);
    char **lines = NULL;
    size_t n = 0;
    hudi_batch *b;
    while (hudi_reader_next(r, &b, &err) == 0 && b) {
        for (int64_t i = 0; i < b->num_rows; i++) {
            hudi_buf l = HUDI_BUF_INIT;
            for (int32_t c = 0; c < b->n_columns; c++) {
                const hudi_array *a = b->columns[c];
                if (!strcmp(b->schema->children[c].name, "_hoodie_file_name")) continue;
                if (!hudi_array_is_valid(a, i)) {
                    hudi_buf_puts(&l, "null|");
                    continue;
                }
                switch (a->field->type) {
                case HUDI_TYPE_STRING:
                    hudi_buf_append(&l, a->data + a->offsets[i],
                                    (size_t)(a->offsets[i + 1] - a->offsets[i]));
                    break;
                case HUDI_TYPE_INT32: hudi_buf_printf(&l, "%d", ((int32_t *)a->values)[i]); break;
                case HUDI_TYPE_INT64:
                    hudi_buf_printf(&l, "%lld", (long long)((int64_t *)a->values)[i]);
                    break;
                case HUDI_TYPE_DOUBLE:
                    hudi_buf_printf(&l, "%.17g", ((double *)a->values)[i]);
                    break;
                default: hudi_buf_puts(&l, "?"); break;
                }
                hudi_buf_putc(&l, '|');
            }
            lines = realloc(lines, (n + 1) * sizeof(char *));
            lines[n++] = hudi_buf_detach(&l);
            hudi_buf_dispose(&l);
        }
    }
    cr_assert_eq(err.code, 0, "%s", err.message);
    qsort(lines, n, sizeof(char *), cmp_str);
    hudi_buf all = HUDI_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        hudi_buf_printf(&all, "%s\n", lines[i]);
        hudi_free(lines[i]);
    }
    free(lines);
    hudi_reader_free(r);
    hudi_tbl_free(t);
    char *s = strdup(all.data ? all.data : "");
    hudi_buf_dispose(&all);
    return s;
}

/* The compacted table under `dir` reads as `before`, `rows` rows, both snapshot and
 * read-optimized (compared through wt_diff: these dumps are large). */
static void reads_as(const char *dir, const char *before, int rows) {
    char *after = dump(dir, false), *ro = dump(dir, true);
    const char *d = wt_diff(after, before);
    cr_assert_null(d, "snapshot after compaction, %s", d);
    d = wt_diff(ro, before);
    cr_assert_null(d, "read-optimized after compaction, %s", d);
    cr_assert_eq(wt_lines(after), rows);
    free(after);
    free(ro);
}

/* Where a chunk's bytes start: its dictionary page, if any, else its first data page. */
static int64_t chunk_start(const pq_column_meta *m) {
    return m->has_dictionary_page_offset && m->dictionary_page_offset > 0
               ? m->dictionary_page_offset
               : m->data_page_offset;
}

/* Column chunks of the base files compaction wrote under `dir` whose bytes are those of the
 * same column in the file group's previous base file (taken as stored: write/compact.c). Each
 * file group's newest .parquet is compared with the one before it. */
static int chunks_kept(const char *dir) {
    char cmd[4600], line[4096];
    snprintf(cmd, sizeof(cmd), "find '%s' -name '*.parquet' -not -path '*/__MACOSX/*' | sort", dir);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    char *files[256];
    int n = 0, kept = 0;
    while (n < 256 && fgets(line, sizeof(line), p)) {
        line[strcspn(line, "\n")] = 0;
        files[n++] = strdup(line);
    }
    pclose(p);
    hudi_error err = HUDI_ERROR_INIT;
    hudi_fs *fs = NULL;
    cr_assert_eq(hudi_fs_local_new(&fs, &err), 0);
    for (int i = 0; i + 1 < n; i++) {
        /* the same directory and file id, so the same file group: files[i + 1] is newer
         * (sorted by name: file id, write token, then the instant) */
        const char *a = strrchr(files[i], '/'), *b = strrchr(files[i + 1], '/');
        size_t id = strcspn(a, "_");
        if (a - files[i] != b - files[i + 1] ||
            strncmp(files[i], files[i + 1], (size_t)(a - files[i]) + id) != 0)
            continue;
        const char *ta = strrchr(a, '_'), *tb = strrchr(b, '_');
        const char *older = strcmp(ta, tb) < 0 ? files[i] : files[i + 1];
        const char *newer = older == files[i] ? files[i + 1] : files[i];
        hudi_pq_file *fo = NULL, *fn = NULL;
        hudi_buf bo = HUDI_BUF_INIT, bn = HUDI_BUF_INIT;
        cr_assert_eq(hudi_pq_open(&fo, fs, older, NULL, &err), 0, "%s", err.message);
        cr_assert_eq(hudi_pq_open(&fn, fs, newer, NULL, &err), 0, "%s", err.message);
        cr_assert_eq(hudi_fs_read_all(fs, older, &bo, &err), 0);
        cr_assert_eq(hudi_fs_read_all(fs, newer, &bn, &err), 0);
        const pq_file_meta *mo = hudi_pq_meta(fo), *mn = hudi_pq_meta(fn);
        for (int32_t g = 0; g < mo->n_row_groups && g < mn->n_row_groups; g++) {
            for (int32_t c = 0; c < mn->row_groups[g].n_columns; c++) {
                const pq_column_meta *x = &mn->row_groups[g].columns[c].meta_data;
                for (int32_t k = 0; k < mo->row_groups[g].n_columns; k++) {
                    const pq_column_meta *y = &mo->row_groups[g].columns[k].meta_data;
                    if (y->n_path != 1 || x->n_path != 1 ||
                        !hudi_slice_eq(x->path_in_schema[0], y->path_in_schema[0]))
                        continue;
                    kept += x->total_compressed_size == y->total_compressed_size &&
                            memcmp(bn.data + chunk_start(x), bo.data + chunk_start(y),
                                   (size_t)x->total_compressed_size) == 0;
                }
            }
        }
        hudi_buf_dispose(&bo);
        hudi_buf_dispose(&bn);
        hudi_pq_close(fo);
        hudi_pq_close(fn);
    }
    for (int i = 0; i < n; i++) free(files[i]);
    hudi_fs_free(fs);
    return kept;
}

static void compact_fixture(const char *zip, int groups, int kept_chunks) {
    const char *d = fixture_unzip(zip);
    cr_assert_not_null(d, "%s", zip);
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s", d);
    char *before = dump(dir, false), *ro_before = dump(dir, true);
    cr_assert_str_neq(before, ro_before, "%s: the logs change nothing", zip);
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    cr_assert_eq(hudi_tbl_open(&t, NULL, dir, &err), 0, "%s", err.message);
    char instant[32];
    int rc = hudi_tbl_compact(t, NULL, instant, &err);
    cr_assert_eq(rc, groups, "%s: %d (%s)", zip, rc, err.message);
    /* the timeline: requested (the plan), inflight, commit */
    int states = 0;
    for (size_t i = 0; i < t->timeline->count; i++) {
        const hudi_instant *in = &t->timeline->instants[i];
        if (strcmp(in->time, instant) != 0) continue;
        if (in->action == HUDI_ACTION_COMPACTION && in->state == HUDI_STATE_REQUESTED) {
            hudi_buf json = HUDI_BUF_INIT;
            cr_assert_eq(hudi_timeline_read_json(&json, t->timeline, in, &err), 0, "%s",
                         err.message);
            cr_assert(strstr(json.data, "\"deltaFilePaths\"") && strstr(json.data, ".log."), "%s",
                      json.data);
            hudi_buf_dispose(&json);
            states |= 1;
        }
        if (in->action == HUDI_ACTION_COMPACTION && in->state == HUDI_STATE_INFLIGHT) states |= 2;
        if (in->action == HUDI_ACTION_COMMIT && in->state == HUDI_STATE_COMPLETED) {
            hudi_buf json = HUDI_BUF_INIT;
            cr_assert_eq(hudi_timeline_read_commit_json(&json, t->timeline, in, &err), 0);
            cr_assert(strstr(json.data, "\"COMPACT\""), "%s", json.data);
            hudi_buf_dispose(&json);
            states |= 4;
        }
    }
    cr_assert_eq(states, 7, "%s: timeline states %d", zip, states);
    /* nothing more to compact */
    cr_assert_eq(hudi_tbl_compact(t, NULL, NULL, &err), 0, "%s", err.message);
    hudi_tbl_free(t);
    char *after = dump(dir, false), *ro_after = dump(dir, true);
    cr_assert_str_eq(after, before, "%s: snapshot changed", zip);
    /* Spark's files are parquet-mr's: a chunk with their bytes was copied, not encoded by
     * hudic (the columns no log record changed, in file groups where no row was deleted); the
     * rows above show each copy holds the right values */
    int kept = chunks_kept(dir);
    cr_assert_eq(kept, kept_chunks, "%s: %d column chunks kept as stored", zip, kept);
    cr_assert_str_eq(ro_after, before, "%s: read-optimized differs from the snapshot", zip);
    free(before);
    free(ro_before);
    free(after);
    free(ro_after);
}

Test(compact, v6_trips_8i1u) {
    compact_fixture("hudi-rs/quickstart_trips_table/mor/avro/v6_trips_8i1u.zip", 1, 7);
}
Test(compact, v6_trips_8i3d) {
    compact_fixture("hudi-rs/quickstart_trips_table/mor/avro/v6_trips_8i3d.zip", 1, 0);
}
Test(compact, v6_nonpartitioned_parquet_logs) {
    compact_fixture("hudi-rs/sample_table/mor/parquet/v6_nonpartitioned.zip", 1, 13);
}

Test(compact, copy_on_write_refused) {
    const char *d = fixture_unzip("hudi-rs/sample_table/cow/v6_nonpartitioned.zip");
    cr_assert_not_null(d);
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    cr_assert_eq(hudi_tbl_open(&t, NULL, d, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_tbl_compact(t, NULL, NULL, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "merge-on-read"), "%s", err.message);
    hudi_tbl_free(t);
}

/* A failure at every storage call of a compaction leaves the snapshot unchanged, and a rerun
 * (which removes the failed compaction's files and instant first) compacts the table. */
Test(compact, fails_at_every_call) {
    const char *zip = "hudi-rs/quickstart_trips_table/mor/avro/v6_trips_8i1u.zip";
    int failures = 0;
    for (int64_t n = 1; n < 2000; n++) {
        const char *d = fixture_unzip(zip);
        cr_assert_not_null(d);
        char dir[4096];
        snprintf(dir, sizeof(dir), "%s", d);
        char *before = dump(dir, false);
        hudi_error err = HUDI_ERROR_INIT;
        hudi_fs *fs = NULL, *ff = NULL;
        cr_assert_eq(hudi_fs_local_new(&fs, &err), 0);
        cr_assert_eq(hudi_fs_faulty_new(&ff, fs, (hudi_fault_plan){n, -1, true}, NULL), 0);
        hudi_table *t = NULL;
        int rc = hudi_tbl_open(&t, ff, dir, &err);
        if (rc == 0) rc = hudi_tbl_compact(t, NULL, NULL, &err);
        bool tripped = hudi_fs_faulty_tripped(ff);
        hudi_tbl_free(t);
        hudi_fs_free(ff);
        hudi_fs_free(fs);
        char *now = dump(dir, false);
        cr_assert_str_eq(now, before, "call %lld: snapshot changed (%s)", (long long)n,
                         rc < 0 ? err.message : "ok");
        free(now);
        if (rc < 0) {
            failures++;
            hudi_error_clear(&err);
            cr_assert_eq(hudi_tbl_open(&t, NULL, dir, &err), 0, "%s", err.message);
            rc = hudi_tbl_compact(t, NULL, NULL, &err);
            cr_assert_eq(rc, 1, "rerun after a failure at call %lld: %s", (long long)n,
                         err.message);
            hudi_tbl_free(t);
            char *ro = dump(dir, true);
            cr_assert_str_eq(ro, before, "call %lld: read-optimized after the rerun", (long long)n);
            free(ro);
        }
        free(before);
        if (!tripped) break;
    }
    cr_assert_gt(failures, 10);
}

static int64_t fixed_ms(void *payload) { return *(const int64_t *)payload; }

/* Compacts the table at `dir` at a fixed instant with hoodie.hudic.parallelism = threads. */
static void compact_with(const char *dir, const char *threads, int groups) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    int64_t now = 1767225600123; /* 2026-01-01 */
    hudi_clock clock = {fixed_ms, &now};
    cr_assert_eq(hudi_tbl_open(&t, NULL, dir, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_props_set(&t->props, "hoodie.hudic.parallelism", threads, &err), 0);
    char instant[32];
    int rc = hudi_tbl_compact(t, &clock, instant, &err);
    cr_assert_eq(rc, groups, "%s threads: %d (%s)", threads, rc, err.message);
    hudi_tbl_free(t);
}

/* The decoded compaction plan of the table at `dir` (its only compaction). */
static char *plan_json(const char *dir) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    char *out = NULL;
    cr_assert_eq(hudi_tbl_open(&t, NULL, dir, &err), 0, "%s", err.message);
    for (size_t i = 0; i < t->timeline->count; i++) {
        const hudi_instant *in = &t->timeline->instants[i];
        if (in->action != HUDI_ACTION_COMPACTION || in->state != HUDI_STATE_REQUESTED) continue;
        hudi_buf json = HUDI_BUF_INIT;
        cr_assert_eq(hudi_timeline_read_json(&json, t->timeline, in, &err), 0, "%s", err.message);
        out = strdup(json.data);
        hudi_buf_dispose(&json);
    }
    hudi_tbl_free(t);
    cr_assert_not_null(out, "%s: no compaction plan", dir);
    return out;
}

/* File groups compacted on 4 threads give the files and the commit metadata of 1 thread, byte
 * for byte (the plans: the same decoded) (each operation's file name and write token come from its
 * index in the plan, the commit lists the operations in plan order), and the same snapshot as
 * before. */
Test(compact, parallel_matches_serial, .timeout = 120) {
    static const char *const parts[] = {"a", "b", "c", "d", "e"};
    char base[512], one[600], four[600], cmd[4096];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_LOCAL, base, sizeof(base));
    hudi_table *t = wt_mor_create(fs, base, &s, "par");
    hudi_batch *b = wt_batch_range(&s, 0, 500, 1, parts, 5);
    (void)wt_write(t, b, HUDI_WRITE_INSERT);
    hudi_batch_free(b);
    for (int round = 0; round < 3; round++) {
        b = wt_batch_range(&s, round * 37, 300, 2 + round, parts, 5);
        (void)wt_write(t, b, HUDI_WRITE_UPSERT);
        hudi_batch_free(b);
    }
    wt_row del[] = {{0, NULL, 0, "a", true}, {499, NULL, 0, "e", true}, {7, NULL, 0, "c", true}};
    b = wt_batch(&s, del, 3);
    (void)wt_write(t, b, HUDI_WRITE_DELETE);
    hudi_batch_free(b);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    char *before = dump(base, false);
    snprintf(one, sizeof(one), "%s-1", base);
    snprintf(four, sizeof(four), "%s-4", base);
    snprintf(cmd, sizeof(cmd), "cp -a '%s' '%s' && cp -a '%s' '%s'", base, one, base, four);
    cr_assert_eq(system(cmd), 0);
    compact_with(one, "1", 5);
    compact_with(four, "4", 5);
    /* every file alike but the plans (an Avro container's sync marker is random), whose
     * contents are compared decoded */
    snprintf(cmd, sizeof(cmd), "diff -r -x '*.compaction.requested' '%s' '%s'", one, four);
    cr_assert_eq(system(cmd), 0, "the compactions on 1 and 4 threads differ");
    char *plan1 = plan_json(one), *plan4 = plan_json(four);
    cr_assert_str_eq(plan1, plan4);
    free(plan1);
    free(plan4);
    reads_as(four, before, 497);
    free(before);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", one, four);
    cr_assert_eq(system(cmd), 0);
    wt_fs_cleanup(WT_LOCAL, base);
    hudi_field_dispose(&s);
}

/* The table property hoodie.hudic.parallelism follows hudi_pool_parse_threads: 0 = the default
 * (the compaction runs), a value out of range is refused with the key and the value named. */
Test(compact, parallelism_checked) {
    const char *d = fixture_unzip("hudi-rs/quickstart_trips_table/mor/avro/v6_trips_8i1u.zip");
    cr_assert_not_null(d);
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    cr_assert_eq(hudi_tbl_open(&t, NULL, d, &err), 0, "%s", err.message);
    size_t instants = t->timeline->count;
    static const char *const bad[] = {"1025", "-1", "four"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        cr_assert_eq(hudi_props_set(&t->props, "hoodie.hudic.parallelism", bad[i], &err), 0);
        cr_assert_eq(hudi_tbl_compact(t, NULL, NULL, &err), HUDI_EINVAL, "'%s' accepted", bad[i]);
        char want[4200];
        snprintf(want, sizeof(want),
                 "%s: hoodie.hudic.parallelism: '%s' is not a number of threads (0 = the "
                 "default, or 1-1024)",
                 t->base_path, bad[i]);
        cr_assert_str_eq(err.message, want);
        cr_assert_eq(hudi_tbl_compact_run(t, NULL, NULL, &err), HUDI_EINVAL);
    }
    /* nothing was compacted by the refused calls */
    cr_assert_eq(hudi_tbl_reload(t, &err), 0);
    cr_assert_eq(t->timeline->count, instants);
    cr_assert_eq(hudi_props_set(&t->props, "hoodie.hudic.parallelism", "0", &err), 0);
    cr_assert_gt(hudi_tbl_compact(t, NULL, NULL, &err), 0, "%s", err.message);
    hudi_tbl_free(t);
}

/* The bloom filter of every base file that compaction `instant` wrote under `root` is, byte for
 * byte, a new filter of the sizing `bc` (NULL: Hudi's default) fed the file's keys in row order;
 * returns how many files were checked. */
static int check_compacted_blooms(const char *root, const char *instant, const hudi_bloom_cfg *bc) {
    static const hudi_bloom_cfg dflt = {HUDI_BLOOM_DYNAMIC_V0, HUDI_BLOOM_DEFAULT_ENTRIES,
                                        HUDI_BLOOM_DEFAULT_MAX_ENTRIES, HUDI_BLOOM_DEFAULT_FPP};
    if (!bc) bc = &dflt;
    hudi_fs *fs = NULL;
    cr_assert_eq(hudi_fs_local_new(&fs, NULL), 0);
    char **paths = NULL;
    int n = list_base_files(root, &paths), checked = 0;
    for (int i = 0; i < n; i++) {
        if (!strstr(paths[i], instant)) continue;
        hudi_error err = HUDI_ERROR_INIT;
        file_batch fb;
        cr_assert_eq(file_batch_read(&fb, fs, paths[i], &err), 0, "%s", err.message);
        hudi_bloom *fresh = NULL;
        cr_assert_eq(hudi_write_bloom_new(bc, &fresh, NULL), 0);
        int col = batch_column(fb.batch, "_hoodie_record_key");
        cr_assert_geq(col, 0);
        cr_assert_eq(hudi_bloom_add_array(fresh, fb.batch->columns[col], &err), 0, "%s",
                     err.message);
        hudi_buf b64 = HUDI_BUF_INIT;
        hudi_slice have;
        cr_assert_eq(hudi_bloom_to_base64(fresh, &b64, NULL), 0);
        cr_assert(hudi_pq_kv(fb.file, HUDI_BLOOM_FOOTER_KEY, &have), "%s", paths[i]);
        cr_expect(hudi_slice_eq(have, HUDI_SLICE(b64.data, b64.len)), "%s: filter differs",
                  paths[i]);
        hudi_buf_dispose(&b64);
        hudi_bloom_free(fresh);
        file_batch_dispose(&fb);
        checked++;
    }
    free_paths(paths, n);
    hudi_fs_free(fs);
    return checked;
}

/* Compaction takes the base file's filter when the merge keeps the base file's keys (updates
 * only) and hashes every key otherwise (deletes): either way the filter is the one a writer of
 * the compacted file's keys would build. Base files with Hudi's default sizing (the filter is
 * reused only when it has compaction's own sizing), 150k keys per file so that it is past the
 * dynamic filter's maximum (100k: rows in round robin). */
Test(compact, bloom_filter_as_if_rebuilt, .timeout = 240) {
    static const char *const parts[] = {"a", "b"};
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_LOCAL, base, sizeof(base));
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = wt_mor_create_props(fs, base, &s, "bl", NULL);
    hudi_batch *b = wt_batch_range(&s, 0, 300000, 1, parts, 2);
    (void)wt_write(t, b, HUDI_WRITE_BULK_INSERT);
    hudi_batch_free(b);
    b = wt_batch_range(&s, 1000, 5000, 2, parts, 2); /* updates only */
    (void)wt_write(t, b, HUDI_WRITE_UPSERT);
    hudi_batch_free(b);
    char before[64], *dump_before = wt_dump(t, NULL);
    cr_assert_gt(hudi_tbl_compact(t, NULL, before, &err), 0, "%s", err.message);
    cr_assert_geq(check_compacted_blooms(base, before, NULL), 2);
    wt_row del[] = {{0, NULL, 0, "a", false}, {299999, NULL, 0, "b", false}};
    b = wt_batch(&s, del, 2);
    (void)wt_write(t, b, HUDI_WRITE_DELETE);
    hudi_batch_free(b);
    b = wt_batch_range(&s, 7000, 10, 3, parts, 2);
    (void)wt_write(t, b, HUDI_WRITE_UPSERT);
    hudi_batch_free(b);
    char after[64];
    cr_assert_gt(hudi_tbl_compact(t, NULL, after, &err), 0, "%s", err.message);
    cr_assert_geq(check_compacted_blooms(base, after, NULL), 2);
    char *dump_after = wt_dump(t, NULL);
    cr_expect_eq(wt_lines(dump_before), 300000);
    cr_expect_eq(wt_lines(dump_after), 299998);
    free(dump_before);
    free(dump_after);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    wt_fs_cleanup(WT_LOCAL, base);
    hudi_field_dispose(&s);
}

/* Compaction sizes the new base files' filters as the table's writers do (its bloom
 * properties), not by Hudi's defaults, both when it reuses the base file's filter (updates
 * only) and when it hashes every key (a delete). */
Test(compact, bloom_filter_of_the_table_sizing) {
    static const char *const parts[] = {"a", "b"};
    static const char *const props[] = {"hoodie.bloom.index.filter.type",
                                        "SIMPLE",
                                        "hoodie.index.bloom.num_entries",
                                        "3000",
                                        "hoodie.index.bloom.fpp",
                                        "0.01",
                                        NULL};
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_LOCAL, base, sizeof(base));
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = wt_mor_create_props(fs, base, &s, "bs", props);
    hudi_bloom_cfg bc;
    cr_assert_eq(hudi_write_bloom_cfg(t, &bc, &err), 0, "%s", err.message);
    cr_assert_eq(bc.type, HUDI_BLOOM_SIMPLE);
    cr_assert_eq(bc.entries, 3000);
    hudi_batch *b = wt_batch_range(&s, 0, 4000, 1, parts, 2);
    (void)wt_write(t, b, HUDI_WRITE_INSERT);
    hudi_batch_free(b);
    b = wt_batch_range(&s, 100, 500, 2, parts, 2); /* updates only: the filter is reused */
    (void)wt_write(t, b, HUDI_WRITE_UPSERT);
    hudi_batch_free(b);
    char first[64], second[64];
    cr_assert_gt(hudi_tbl_compact(t, NULL, first, &err), 0, "%s", err.message);
    cr_assert_geq(check_compacted_blooms(base, first, &bc), 2);
    wt_row del[] = {{0, NULL, 0, "a", false}};
    b = wt_batch(&s, del, 1);
    (void)wt_write(t, b, HUDI_WRITE_DELETE);
    hudi_batch_free(b);
    cr_assert_gt(hudi_tbl_compact(t, NULL, second, &err), 0, "%s", err.message);
    cr_assert_geq(check_compacted_blooms(base, second, &bc), 1);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    wt_fs_cleanup(WT_LOCAL, base);
    hudi_field_dispose(&s);
}

/* A base file of several row groups (bulk_insert in 64 KiB blocks), updates that change ts only
 * (the names are the generator's for every round) in the first row groups, a delete in a later
 * one: the row groups without a delete keep their name, id and key chunks as stored, the one with
 * the delete is written as usual, and the rows read the same before and after. */
Test(compact, row_groups_copied_and_not, .timeout = 120) {
    static const char *const parts[] = {"a"};
    static const char *const props[] = {"hoodie.parquet.block.size", "65536", NULL};
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_LOCAL, base, sizeof(base));
    hudi_table *t = wt_mor_create_props(fs, base, &s, "rgs", props);
    hudi_batch *b = wt_batch_range(&s, 0, 20000, 1, parts, 1);
    (void)wt_write(t, b, HUDI_WRITE_BULK_INSERT);
    hudi_batch_free(b);
    b = wt_batch_range(&s, 10, 300, 2, parts, 1);
    (void)wt_write(t, b, HUDI_WRITE_UPSERT);
    hudi_batch_free(b);
    wt_row del[] = {{19000, NULL, 0, "a", false}};
    b = wt_batch(&s, del, 1);
    (void)wt_write(t, b, HUDI_WRITE_DELETE);
    hudi_batch_free(b);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    /* the base file has row groups to copy */
    char cmd[1200], line[1024];
    snprintf(cmd, sizeof(cmd), "find '%s/a' -name '*.parquet'", base);
    FILE *p = popen(cmd, "r");
    cr_assert(p && fgets(line, sizeof(line), p));
    pclose(p);
    line[strcspn(line, "\n")] = 0;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_fs *lfs = NULL;
    hudi_pq_file *pf = NULL;
    cr_assert_eq(hudi_fs_local_new(&lfs, &err), 0);
    cr_assert_eq(hudi_pq_open(&pf, lfs, line, NULL, &err), 0, "%s", err.message);
    int32_t groups = hudi_pq_num_row_groups(pf);
    cr_assert_gt(groups, 3, "%d row groups", groups);
    hudi_pq_close(pf);
    hudi_fs_free(lfs);
    char *before = dump(base, false);
    compact_with(base, "2", 1);
    reads_as(base, before, 19999);
    /* key, partition path, id, name and part of the row groups before the delete's */
    int kept = chunks_kept(base);
    cr_assert_geq(kept, 5, "%d chunks kept", kept);
    free(before);
    wt_fs_cleanup(WT_LOCAL, base);
    hudi_field_dispose(&s);
}
