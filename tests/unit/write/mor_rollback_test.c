/* mor_rollback_test.c - rollback and cleaning of merge-on-read tables as Hudi 0.14/0.15 does
 * them (docs/formats/timeline.md §8-9, log-file.md §7): a deltacommit that appended to the
 * logs of existing slices is rolled back with a rollback command block in a new log file of
 * each slice (its own log files stay), recorded in the rollback metadata; a crash at any
 * storage call of the rollback leaves a table that the next rollback finishes; the cleaner
 * deletes old slices whole (base and log files) and keeps the slices a query as of the earliest
 * retained commit, a pending compaction or a savepoint needs. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/log/log.h"
#include "table/tbl.h"
#include "write/write_int.h"
#include "wt_util.h"

static const char *const P2[] = {"a", "b"};

static hudi_table *mor_create(hudi_fs *fs, const char *base, const hudi_field *schema) {
    return wt_mor_create(fs, base, schema, "mr");
}

/* Names of the files in partitions a and b containing `part` ("" = all), sorted, one a line. */
static char *files_with(hudi_fs *fs, const char *base, const char *part) {
    char *names[256];
    size_t n = 0;
    for (int p = 0; p < 2; p++) {
        char dir[600];
        hudi_dir_listing l = {0};
        snprintf(dir, sizeof(dir), "%s/%s", base, P2[p]);
        if (hudi_fs_list(fs, dir, &l, NULL) < 0) continue;
        for (size_t i = 0; i < l.count; i++) {
            if (l.entries[i].is_dir || strstr(l.entries[i].name, ".hoodie_partition_metadata") ||
                !strstr(l.entries[i].name, part))
                continue;
            cr_assert_lt(n, 256);
            char buf[700];
            snprintf(buf, sizeof(buf), "%s/%s", P2[p], l.entries[i].name);
            names[n++] = hudi_strdup(buf);
        }
        hudi_dir_listing_dispose(&l);
    }
    for (size_t i = 1; i < n; i++)
        for (size_t k = i; k > 0 && strcmp(names[k - 1], names[k]) > 0; k--) {
            char *x = names[k];
            names[k] = names[k - 1];
            names[k - 1] = x;
        }
    hudi_buf b = HUDI_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        hudi_buf_printf(&b, "%s\n", names[i]);
        hudi_free(names[i]);
    }
    hudi_buf_putc(&b, 0);
    return hudi_buf_detach(&b);
}

static int count_lines(const char *s) {
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

static const hudi_instant *last_completed(hudi_table *t, hudi_action action) {
    const hudi_instant *r = NULL;
    cr_assert_eq(hudi_tbl_reload(t, NULL), 0);
    for (size_t i = 0; i < t->timeline->count; i++)
        if (t->timeline->instants[i].action == action &&
            t->timeline->instants[i].state == HUDI_STATE_COMPLETED)
            r = &t->timeline->instants[i];
    return r;
}

static char *instant_json(hudi_table *t, const hudi_instant *in) {
    hudi_buf json = HUDI_BUF_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_timeline_read_json(&json, t->timeline, in, &err), 0, "%s", err.message);
    hudi_buf_putc(&json, 0);
    return hudi_buf_detach(&json);
}

/* ---- rollback of a failed deltacommit -------------------------------------------------------- */

typedef struct mstate {
    hudi_field s;
    hudi_batch *seed, *first, *up;
    char before[64 * 1024], after[64 * 1024];
} mstate;

/* On one thread: the tests find the storage call after which a failed upsert has left its
 * log files and fail that call again, which needs the calls in the same order every time. */
static const char *const ONE_THREAD[] = {"hoodie.hudic.parallelism", "1", NULL};
static const char *const *g_props = ONE_THREAD; /* the upserts' settings */

static int upsert(hudi_fs *fs, const char *base, const hudi_batch *b, hudi_error *err) {
    hudi_table *t = NULL;
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    o.props = g_props;
    int rc = hudi_tbl_open(&t, fs, base, err);
    if (rc == 0) rc = hudi_tbl_write(t, b, &o, NULL, err);
    hudi_tbl_free(t);
    return rc;
}

static int rollback_pending(hudi_fs *fs, const char *base, hudi_error *err) {
    hudi_table *t = NULL;
    int rc = hudi_tbl_open(&t, fs, base, err);
    if (rc == 0) rc = hudi_tbl_rollback_pending(t, NULL, err);
    hudi_tbl_free(t);
    return rc;
}

static char *dump(hudi_fs *fs, const char *base) { return wt_dump_path(fs, base, NULL); }

/* Base files (insert), then a log file .log.1 in every group (upsert of 2 keys); the failing
 * upsert updates 4 stored keys (a .log.2 in each partition's group) and inserts 3. */
static hudi_fs *seeded(mstate *m, char *base, size_t len) {
    hudi_fs *fs = wt_fs(WT_MEMORY, base, len);
    hudi_table *t = mor_create(fs, base, &m->s);
    wt_write(t, m->seed, HUDI_WRITE_INSERT);
    wt_write(t, m->first, HUDI_WRITE_UPSERT);
    hudi_tbl_free(t);
    return fs;
}

static void mstate_init(mstate *m) {
    wt_schema(&m->s, false);
    m->seed = wt_batch_range(&m->s, 0, 12, 1, P2, 2);
    m->first = wt_batch_range(&m->s, 0, 2, 2, P2, 2);
    m->up = wt_batch_range(&m->s, 8, 7, 3, P2, 2);
    char base[512];
    hudi_fs *fs = seeded(m, base, sizeof(base));
    char *d = dump(fs, base);
    snprintf(m->before, sizeof(m->before), "%s", d);
    free(d);
    cr_assert_eq(upsert(fs, base, m->up, NULL), 0);
    d = dump(fs, base);
    snprintf(m->after, sizeof(m->after), "%s", d);
    free(d);
    cr_assert_str_neq(m->before, m->after);
    hudi_fs_free(fs);
}

static void mstate_dispose(mstate *m) {
    hudi_batch_free(m->seed);
    hudi_batch_free(m->first);
    hudi_batch_free(m->up);
    hudi_field_dispose(&m->s);
}

/* A seeded table with a failed upsert that left its .log.2 files: the first failing storage
 * call after which they exist. `*at` carries the call number found (0: search). */
static hudi_fs *with_failed_upsert(mstate *m, char *base, size_t len, int64_t *at) {
    for (int64_t n = *at ? *at : 1; n < 5000; n++) {
        hudi_fs *fs = seeded(m, base, len);
        hudi_fs *ff = NULL;
        cr_assert_eq(hudi_fs_faulty_new(&ff, fs, (hudi_fault_plan){n, -1, true}, NULL), 0);
        int rc = upsert(ff, base, m->up, NULL);
        hudi_fs_free(ff);
        cr_assert_neq(rc, 0, "the upsert completed before its log files were found");
        char *logs = files_with(fs, base, ".log.2_");
        int k = count_lines(logs);
        free(logs);
        if (k == 2) {
            char *d = dump(fs, base);
            cr_assert_str_eq(d, m->before, "a failed upsert reads as before");
            free(d);
            *at = n;
            return fs;
        }
        cr_assert(*at == 0, "call %lld no longer leaves the log files", (long long)n);
        hudi_fs_free(fs);
    }
    cr_assert_fail("no failing call left the log files");
    return NULL;
}

static void check_command_block(hudi_fs *fs, const char *base, const char *rel, const char *target,
                                const char *r_time) {
    char path[700];
    hudi_buf bytes = HUDI_BUF_INIT;
    hudi_log_blocks bl = HUDI_LOG_BLOCKS_INIT;
    snprintf(path, sizeof(path), "%s/%s", base, rel);
    cr_assert_eq(hudi_fs_read_all(fs, path, &bytes, NULL), 0);
    cr_assert_eq(hudi_log_scan(&bl, HUDI_SLICE(bytes.data, bytes.len), rel, NULL), 0);
    cr_assert_eq(bl.count, 1, "%s: %zu blocks", rel, bl.count);
    const hudi_log_block *b = &bl.blocks[0];
    cr_assert_eq(b->type, HUDI_LOG_COMMAND_BLOCK);
    cr_assert_eq(b->content.len, 0);
    cr_assert(hudi_slice_eq(b->header[HUDI_LOG_TARGET_INSTANT_TIME], hudi_slice_cstr(target)));
    cr_assert(hudi_slice_eq(b->header[HUDI_LOG_INSTANT_TIME], hudi_slice_cstr(r_time)));
    cr_assert(hudi_slice_eq(b->header[HUDI_LOG_COMMAND_BLOCK_TYPE], hudi_slice_cstr("0")));
    cr_assert_null(b->header[HUDI_LOG_SCHEMA].data);
    hudi_log_blocks_dispose(&bl);
    hudi_buf_dispose(&bytes);
}

/* The instant of the failed upsert: the header of one of its .log.2 files. */
static void failed_instant(hudi_fs *fs, const char *base, char out[HUDI_INSTANT_TIME_MAX]) {
    char *logs = files_with(fs, base, ".log.2_");
    char *nl = strchr(logs, '\n');
    cr_assert_not_null(nl);
    *nl = '\0';
    char path[700];
    hudi_buf bytes = HUDI_BUF_INIT;
    hudi_log_blocks bl = HUDI_LOG_BLOCKS_INIT;
    snprintf(path, sizeof(path), "%s/%s", base, logs);
    cr_assert_eq(hudi_fs_read_all(fs, path, &bytes, NULL), 0);
    cr_assert_eq(hudi_log_scan(&bl, HUDI_SLICE(bytes.data, bytes.len), logs, NULL), 0);
    cr_assert_geq(bl.count, 1);
    hudi_slice it = bl.blocks[0].header[HUDI_LOG_INSTANT_TIME];
    snprintf(out, HUDI_INSTANT_TIME_MAX, "%.*s", (int)it.len, (const char *)it.data);
    hudi_log_blocks_dispose(&bl);
    hudi_buf_dispose(&bytes);
    free(logs);
}

Test(mor_rollback, failed_deltacommit_gets_command_blocks) {
    mstate m;
    char base[512];
    int64_t at = 0;
    mstate_init(&m);
    hudi_fs *fs = with_failed_upsert(&m, base, sizeof(base), &at);
    char f_time[HUDI_INSTANT_TIME_MAX];
    failed_instant(fs, base, f_time);
    char *f_logs = files_with(fs, base, ".log.2_");
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(rollback_pending(fs, base, &err), 1, "%s", err.message);
    /* F's log files stay; each slice got .log.3_1-0-1 with one rollback command block */
    char *still = files_with(fs, base, ".log.2_");
    cr_assert_str_eq(still, f_logs);
    char *cmds = files_with(fs, base, ".log.3_1-0-1");
    cr_assert_eq(count_lines(cmds), 2, "%s", cmds);
    hudi_table *t = NULL;
    cr_assert_eq(hudi_tbl_open(&t, fs, base, &err), 0);
    const hudi_instant *r = last_completed(t, HUDI_ACTION_ROLLBACK);
    cr_assert_not_null(r);
    char r_time[HUDI_INSTANT_TIME_MAX];
    snprintf(r_time, sizeof(r_time), "%s", r->time);
    for (char *line = cmds, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
        *nl = '\0';
        check_command_block(fs, base, line, f_time, r_time);
        *nl = '\n';
    }
    /* the metadata names both kinds of log files, the plan the slices */
    char *md = instant_json(t, r);
    cr_assert(strstr(md, "\"rollbackLogFiles\":{\"") && strstr(md, ".log.3_1-0-1\":"), "%s", md);
    cr_assert(strstr(md, "\"logFilesFromFailedCommit\":{\"."), "%s", md);
    cr_assert(strstr(md, "\"commitsRollback\":[\""), "%s", md);
    cr_assert(strstr(md, f_time), "%s", md);
    for (char *line = f_logs, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
        char name[300];
        snprintf(name, sizeof(name), "\"%.*s\":1", (int)(nl - line - 2), line + 2);
        cr_assert(strstr(md, name), "%s not in %s", name, md);
    }
    free(md);
    const hudi_instant *f = NULL;
    cr_assert_eq(hudi_timeline_find(&f, t->timeline, f_time, NULL), HUDI_ENOTFOUND);
    hudi_tbl_free(t);
    /* no markers left */
    char mk[700];
    snprintf(mk, sizeof(mk), "%s/.hoodie/.temp/%s", base, r_time);
    cr_assert(!hudi_fs_exists(fs, mk));
    snprintf(mk, sizeof(mk), "%s/.hoodie/.temp/%s", base, f_time);
    cr_assert(!hudi_fs_exists(fs, mk));
    /* reads as before; the next upsert takes version 4 and reads as the upsert should */
    char *d = dump(fs, base);
    cr_assert_str_eq(d, m.before);
    free(d);
    cr_assert_eq(upsert(fs, base, m.up, &err), 0, "%s", err.message);
    char *v4 = files_with(fs, base, ".log.4_");
    cr_assert_eq(count_lines(v4), 2, "%s", v4);
    d = dump(fs, base);
    cr_assert_str_eq(d, m.after);
    free(d);
    free(v4);
    free(f_logs);
    free(still);
    free(cmds);
    hudi_fs_free(fs);
    mstate_dispose(&m);
}

/* Rewrites the DIRECT markers of instant `time` as a Spark writer's embedded timeline server
 * leaves them: MARKERS.type, and the marker names one per line in MARKERS0 and MARKERS1. */
static void to_timeline_server_markers(hudi_fs *fs, const char *base, const char *time) {
    char dir[700], path[900];
    snprintf(dir, sizeof(dir), "%s/.hoodie/.temp/%s", base, time);
    char **markers = NULL;
    size_t n = 0;
    cr_assert_eq(hudi_write_list_tree(fs, dir, &markers, &n, NULL), 0);
    cr_assert_geq(n, 2, "%zu markers", n);
    hudi_buf files[2] = {HUDI_BUF_INIT, HUDI_BUF_INIT};
    for (size_t i = 0; i < n; i++) hudi_buf_printf(&files[i % 2], "%s\n", markers[i]);
    cr_assert_eq(hudi_write_remove_tree(fs, dir, NULL), 0);
    snprintf(path, sizeof(path), "%s/MARKERS.type", dir);
    cr_assert_eq(
        hudi_fs_write_all(fs, path, HUDI_CREATE_EXCLUSIVE, "TIMELINE_SERVER_BASED", 21, NULL), 0);
    for (int k = 0; k < 2; k++) {
        snprintf(path, sizeof(path), "%s/MARKERS%d", dir, k);
        cr_assert_eq(
            hudi_fs_write_all(fs, path, HUDI_CREATE_EXCLUSIVE, files[k].data, files[k].len, NULL),
            0);
        hudi_buf_dispose(&files[k]);
    }
    hudi_write_free_strings(markers, n);
}

/* The same failed deltacommit with its markers in the timeline-server layout (Spark's default
 * marker type): the rollback finds the log files F appended to through MARKERS<n> and writes
 * their command blocks, as with direct markers. */
Test(mor_rollback, timeline_server_markers) {
    mstate m;
    char base[512];
    int64_t at = 0;
    mstate_init(&m);
    hudi_fs *fs = with_failed_upsert(&m, base, sizeof(base), &at);
    char f_time[HUDI_INSTANT_TIME_MAX];
    failed_instant(fs, base, f_time);
    to_timeline_server_markers(fs, base, f_time);
    hudi_error err = HUDI_ERROR_INIT;
    /* a line reaching outside the marker folder is refused, naming the file; nothing changes */
    char bad[700];
    static const char *const lines[] = {"../../x.parquet.marker.CREATE", "/x.marker.CREATE",
                                        "a/./x.marker.CREATE", "a//x.marker.CREATE"};
    for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
        snprintf(bad, sizeof(bad), "%s/.hoodie/.temp/%s/MARKERS7", base, f_time);
        cr_assert_eq(
            hudi_fs_write_all(fs, bad, HUDI_CREATE_EXCLUSIVE, lines[i], strlen(lines[i]), NULL), 0);
        cr_assert_eq(rollback_pending(fs, base, &err), HUDI_ECORRUPT, "%s", lines[i]);
        cr_assert(strstr(err.message, "MARKERS7") && strstr(err.message, lines[i]), "%s",
                  err.message);
        cr_assert_eq(hudi_fs_remove(fs, bad, NULL), 0);
        char *d = dump(fs, base);
        cr_assert_str_eq(d, m.before);
        free(d);
    }
    cr_assert_eq(rollback_pending(fs, base, &err), 1, "%s", err.message);
    char *cmds = files_with(fs, base, ".log.3_1-0-1");
    cr_assert_eq(count_lines(cmds), 2, "the APPEND markers were not read: %s", cmds);
    char mk[700];
    snprintf(mk, sizeof(mk), "%s/.hoodie/.temp/%s", base, f_time);
    cr_assert(!hudi_fs_exists(fs, mk));
    char *d = dump(fs, base);
    cr_assert_str_eq(d, m.before);
    free(d);
    free(cmds);
    hudi_fs_free(fs);
    mstate_dispose(&m);
}

/* hudic writing markers in the timeline-server layout (hoodie.write.markers.type =
 * TIMELINE_SERVER_BASED): a failed deltacommit leaves one flat folder with MARKERS.type and a
 * MARKERS<n> file per marker, no folder per partition; its rollback gives the slices their
 * command blocks, and the next write commits. */
Test(mor_rollback, hudic_writes_timeline_server_markers) {
    static const char *const FLAT[] = {"hoodie.hudic.parallelism", "1", "hoodie.write.markers.type",
                                       "TIMELINE_SERVER_BASED", NULL};
    g_props = FLAT;
    mstate m;
    char base[512];
    int64_t at = 0;
    mstate_init(&m);
    hudi_fs *fs = with_failed_upsert(&m, base, sizeof(base), &at);
    char f_time[HUDI_INSTANT_TIME_MAX], dir[700], path[900];
    failed_instant(fs, base, f_time);
    snprintf(dir, sizeof(dir), "%s/.hoodie/.temp/%s", base, f_time);
    hudi_dir_listing l = {0};
    cr_assert_eq(hudi_fs_list(fs, dir, &l, NULL), 0);
    int markers = 0, type = 0;
    for (size_t i = 0; i < l.count; i++) {
        cr_assert(!l.entries[i].is_dir, "a folder in the flat layout: %s", l.entries[i].name);
        if (strcmp(l.entries[i].name, "MARKERS.type") == 0)
            type++;
        else if (strncmp(l.entries[i].name, "MARKERS", 7) == 0)
            markers++;
    }
    hudi_dir_listing_dispose(&l);
    cr_assert_eq(type, 1);
    cr_assert_geq(markers, 2);
    hudi_buf body = HUDI_BUF_INIT;
    snprintf(path, sizeof(path), "%s/MARKERS.type", dir);
    cr_assert_eq(hudi_fs_read_all(fs, path, &body, NULL), 0);
    cr_assert_eq(body.len, 21);
    cr_assert(memcmp(body.data, "TIMELINE_SERVER_BASED", 21) == 0);
    hudi_buf_dispose(&body);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(rollback_pending(fs, base, &err), 1, "%s", err.message);
    char *cmds = files_with(fs, base, ".log.3_1-0-1");
    cr_assert_eq(count_lines(cmds), 2, "%s", cmds);
    cr_assert(!hudi_fs_exists(fs, dir));
    char *d = dump(fs, base);
    cr_assert_str_eq(d, m.before);
    free(d);
    cr_assert_eq(upsert(fs, base, m.up, &err), 0, "%s", err.message);
    d = dump(fs, base);
    cr_assert_str_eq(d, m.after);
    free(d);
    free(cmds);
    hudi_fs_free(fs);
    mstate_dispose(&m);
    g_props = ONE_THREAD;
}

/* A crash at every storage call of the rollback: the table reads as before it, and the next
 * rollback completes it (a discarded attempt's command-block files are taken back). */
Test(mor_rollback, rollback_fails_at_every_call) {
    mstate m;
    char base[512];
    int64_t at = 0;
    mstate_init(&m);
    int failures = 0;
    for (int64_t n = 1; n < 2000; n++) {
        hudi_fs *fs = with_failed_upsert(&m, base, sizeof(base), &at);
        hudi_fs *ff = NULL;
        hudi_error err = HUDI_ERROR_INIT;
        cr_assert_eq(hudi_fs_faulty_new(&ff, fs, (hudi_fault_plan){n, -1, true}, NULL), 0);
        int rc = rollback_pending(ff, base, &err);
        bool tripped = hudi_fs_faulty_tripped(ff);
        hudi_fs_free(ff);
        char *d = dump(fs, base);
        cr_assert_str_eq(d, m.before, "after a failure at call %lld", (long long)n);
        free(d);
        if (rc >= 0 && !tripped) {
            hudi_fs_free(fs);
            break;
        }
        failures += rc < 0;
        rc = rollback_pending(fs, base, &err);
        cr_assert_geq(rc, 0, "rerun after call %lld: %s", (long long)n, err.message);
        d = dump(fs, base);
        cr_assert_str_eq(d, m.before, "rerun after call %lld", (long long)n);
        free(d);
        char *cmds = files_with(fs, base, "_1-0-1");
        cr_assert_geq(count_lines(cmds), 2, "call %lld: %s", (long long)n, cmds);
        free(cmds);
        cr_assert_eq(upsert(fs, base, m.up, &err), 0, "upsert after call %lld: %s", (long long)n,
                     err.message);
        d = dump(fs, base);
        cr_assert_str_eq(d, m.after, "upsert after call %lld", (long long)n);
        free(d);
        hudi_fs_free(fs);
    }
    cr_assert_gt(failures, 10);
    mstate_dispose(&m);
}

/* rollback_to_instant of a completed deltacommit: the same command blocks, found through the
 * APPEND markers written from its commit metadata. */
Test(mor_rollback, completed_deltacommit) {
    mstate m;
    char base[512];
    mstate_init(&m);
    hudi_fs *fs = seeded(&m, base, sizeof(base));
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_open(&t, fs, base, &err), 0);
    char in[HUDI_INSTANT_TIME_MAX];
    snprintf(in, sizeof(in), "%s", wt_write(t, m.up, HUDI_WRITE_UPSERT));
    char *logs = files_with(fs, base, ".log.2_");
    cr_assert_eq(count_lines(logs), 2);
    char *inserted = files_with(fs, base, in); /* base files of the inserts, named with it */
    cr_assert_geq(count_lines(inserted), 1);
    cr_assert_eq(hudi_tbl_rollback_commit(t, in, NULL, &err), 0, "%s", err.message);
    char *still = files_with(fs, base, ".log.2_");
    cr_assert_str_eq(still, logs);
    char *gone = files_with(fs, base, in);
    cr_assert_str_eq(gone, "");
    char *cmds = files_with(fs, base, ".log.3_1-0-1");
    cr_assert_eq(count_lines(cmds), 2, "%s", cmds);
    const hudi_instant *r = last_completed(t, HUDI_ACTION_ROLLBACK);
    cr_assert_not_null(r);
    for (char *line = cmds, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
        *nl = '\0';
        check_command_block(fs, base, line, in, r->time);
        *nl = '\n';
    }
    char *md = instant_json(t, r);
    cr_assert(strstr(md, "\"successDeleteFiles\":[\""), "%s", md);
    cr_assert(strstr(md, ".log.3_1-0-1\":"), "%s", md);
    free(md);
    char *d = dump(fs, base);
    cr_assert_str_eq(d, m.before);
    free(d);
    hudi_tbl_free(t);
    cr_assert_eq(upsert(fs, base, m.up, &err), 0, "%s", err.message);
    d = dump(fs, base);
    cr_assert_str_eq(d, m.after);
    free(d);
    free(logs);
    free(inserted);
    free(still);
    free(gone);
    free(cmds);
    hudi_fs_free(fs);
    mstate_dispose(&m);
}

/* ---- cleaning -------------------------------------------------------------------------------- */

static void compact(hudi_table *t, char out[32]) {
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_gt(hudi_tbl_compact(t, NULL, out, &err), 0, "%s", err.message);
}

/* Slices I0 (insert) + log D1, C1 (compaction) + log D2, C2 + log D3: keeping one commit
 * (E = D3) deletes the slices I0 and C1 whole, base and log files, and nothing of C2. */
Test(mor_clean, old_slices_go_with_their_logs) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = mor_create(fs, base, &s);
    hudi_batch *b0 = wt_batch_range(&s, 0, 10, 1, P2, 2);
    hudi_batch *b1 = wt_batch_range(&s, 0, 4, 2, P2, 2);
    hudi_batch *b2 = wt_batch_range(&s, 2, 4, 3, P2, 2);
    char i0[64], c1[32], c2[32];
    snprintf(i0, sizeof(i0), "%s", wt_write(t, b0, HUDI_WRITE_INSERT));
    wt_write(t, b1, HUDI_WRITE_UPSERT);
    compact(t, c1);
    wt_write(t, b2, HUDI_WRITE_UPSERT);
    compact(t, c2);
    wt_write(t, b1, HUDI_WRITE_UPSERT);
    char *before = wt_dump(t, NULL);
    char *all = files_with(fs, base, "");
    char *old0 = files_with(fs, base, i0), *old1 = files_with(fs, base, c1);
    char *keep = files_with(fs, base, c2);
    cr_assert_eq(count_lines(old0), 4, "%s", old0); /* 2 base files, 2 logs */
    cr_assert_eq(count_lines(old1), 4, "%s", old1);
    cr_assert_eq(count_lines(keep), 4, "%s", keep);
    cr_assert_eq(count_lines(all), 12, "%s", all);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_clean(t, 1, NULL, &err), 8, "%s", err.message);
    char *left = files_with(fs, base, "");
    cr_assert_str_eq(left, keep);
    char *d = wt_dump_path(fs, base, NULL);
    cr_assert_str_eq(d, before);
    /* plan and metadata list the log files too */
    const hudi_instant *c = last_completed(t, HUDI_ACTION_CLEAN);
    cr_assert_not_null(c);
    char *md = instant_json(t, c);
    for (char *line = old1, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
        char name[300];
        snprintf(name, sizeof(name), "\"%.*s\"", (int)(nl - line - 2), line + 2);
        cr_assert(strstr(md, name), "%s not in %s", name, md);
    }
    free(md);
    for (size_t i = 0; i < t->timeline->count; i++) {
        const hudi_instant *in = &t->timeline->instants[i];
        if (in->action != HUDI_ACTION_CLEAN || in->state != HUDI_STATE_REQUESTED) continue;
        char *plan = instant_json(t, in);
        cr_assert(strstr(plan, ".log.1_"), "%s", plan);
        free(plan);
    }
    free(d);
    free(left);
    free(all);
    free(old0);
    free(old1);
    free(keep);
    free(before);
    hudi_batch_free(b0);
    hudi_batch_free(b1);
    hudi_batch_free(b2);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* A compaction C2 scheduled over slice C1 (pending, a write since has logs named with C2): the
 * cleaner keeps C1, which C2 reads, though the newest slice before E is C2's; I0 goes. A
 * savepoint of D1 keeps I0's slice instead. */
static void pending_compaction_case(bool savepoint) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = mor_create(fs, base, &s);
    hudi_batch *b0 = wt_batch_range(&s, 0, 10, 1, P2, 2);
    hudi_batch *b1 = wt_batch_range(&s, 0, 4, 2, P2, 2);
    hudi_batch *b2 = wt_batch_range(&s, 2, 4, 3, P2, 2);
    hudi_error err = HUDI_ERROR_INIT;
    char i0[64], d1[64], c1[32], c2[HUDI_INSTANT_TIME_MAX];
    snprintf(i0, sizeof(i0), "%s", wt_write(t, b0, HUDI_WRITE_INSERT));
    snprintf(d1, sizeof(d1), "%s", wt_write(t, b1, HUDI_WRITE_UPSERT));
    if (savepoint)
        cr_assert_eq(hudi_tbl_savepoint_create(t, d1, "me", "", NULL, &err), 0, "%s", err.message);
    compact(t, c1);
    wt_write(t, b2, HUDI_WRITE_UPSERT);
    /* schedule C2 over the latest slices (as Spark's schedule does) */
    cr_assert_eq(hudi_tbl_reload(t, &err), 0);
    cr_assert_eq(hudi_instant_time_new(c2, NULL, t->cfg.timeline_utc,
                                       hudi_timeline_last_time(t->timeline), &err),
                 0);
    hudi_fs_view *v = NULL;
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    cr_assert_eq(hudi_fs_view_build(&v, t->timeline, &vo, &err), 0);
    size_t n = 0;
    const hudi_file_slice *sl = hudi_fs_view_latest_slices(v, &n);
    cr_assert_eq(n, 2);
    hudi_buf plan = HUDI_BUF_INIT;
    cr_assert_eq(hudi_compaction_plan_encode(&plan, sl, n, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_timeline_write_instant(t->timeline, c2, HUDI_ACTION_COMPACTION,
                                             HUDI_STATE_REQUESTED, HUDI_SLICE(plan.data, plan.len),
                                             &err),
                 0, "%s", err.message);
    hudi_buf_dispose(&plan);
    hudi_fs_view_free(v);
    /* a write after the schedule: its logs go to the slice C2 opens (named with C2) */
    wt_write(t, b1, HUDI_WRITE_UPSERT);
    char *opened = files_with(fs, base, c2);
    cr_assert_geq(count_lines(opened), 1, "%s", opened);
    free(opened);
    char *before = wt_dump(t, NULL);
    char *old0 = files_with(fs, base, i0), *mid = files_with(fs, base, c1);
    char *all = files_with(fs, base, "");
    cr_assert_eq(count_lines(old0), 4, "%s", old0);
    cr_assert_geq(count_lines(mid), 4, "%s", mid); /* 2 base files, logs */
    int cleaned = hudi_tbl_clean(t, 1, NULL, &err);
    cr_assert_eq(cleaned, savepoint ? 0 : 4, "%d: %s", cleaned, err.message);
    char *left = files_with(fs, base, "");
    if (savepoint) {
        cr_assert_str_eq(left, all);
    } else {
        char *gone = files_with(fs, base, i0);
        cr_assert_str_eq(gone, "");
        free(gone);
        char *still = files_with(fs, base, c1);
        cr_assert_str_eq(still, mid);
        free(still);
        cr_assert_eq(count_lines(left), count_lines(all) - 4);
    }
    char *d = wt_dump_path(fs, base, NULL);
    cr_assert_str_eq(d, before);
    free(d);
    free(left);
    free(all);
    free(old0);
    free(mid);
    free(before);
    hudi_batch_free(b0);
    hudi_batch_free(b1);
    hudi_batch_free(b2);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

Test(mor_clean, keeps_slices_of_a_pending_compaction) { pending_compaction_case(false); }
Test(mor_clean, savepoint_keeps_a_slice_with_its_logs) { pending_compaction_case(true); }

/* Restoring a MOR table to a savepoint rolls back the deltacommits after it (command blocks)
 * and a compaction in between (its base files and the logs named with it go). */
Test(mor_rollback, restore_to_savepoint) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = mor_create(fs, base, &s);
    hudi_batch *b0 = wt_batch_range(&s, 0, 10, 1, P2, 2);
    hudi_batch *b1 = wt_batch_range(&s, 0, 4, 2, P2, 2);
    hudi_batch *b2 = wt_batch_range(&s, 2, 6, 3, P2, 2);
    hudi_error err = HUDI_ERROR_INIT;
    wt_write(t, b0, HUDI_WRITE_INSERT);
    char d1[64], c1[32];
    snprintf(d1, sizeof(d1), "%s", wt_write(t, b1, HUDI_WRITE_UPSERT));
    char *at_d1 = wt_dump(t, NULL);
    cr_assert_eq(hudi_tbl_savepoint_create(t, d1, "me", "", NULL, &err), 0, "%s", err.message);
    wt_write(t, b2, HUDI_WRITE_UPSERT);
    compact(t, c1);
    wt_write(t, b1, HUDI_WRITE_UPSERT);
    char *later = wt_dump(t, NULL);
    cr_assert_str_neq(later, at_d1);
    free(later);
    cr_assert_eq(hudi_tbl_restore_savepoint(t, d1, NULL, &err), 0, "%s", err.message);
    char *d = wt_dump_path(fs, base, NULL);
    cr_assert_str_eq(d, at_d1);
    char *c1_files = files_with(fs, base, c1);
    cr_assert_str_eq(c1_files, "");
    /* writes go on */
    wt_write(t, b2, HUDI_WRITE_UPSERT);
    free(d);
    free(c1_files);
    free(at_d1);
    hudi_batch_free(b0);
    hudi_batch_free(b1);
    hudi_batch_free(b2);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}
