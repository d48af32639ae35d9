/* mor_write_test.c - writes to merge-on-read tables: upserts and deletes of stored keys become
 * one new log file per touched file group (data block, delete block), new keys new base files,
 * every write a deltacommit with HoodieDeltaWriteStats; read back read-optimized (base files
 * only) and merged (the base files with their log files applied in order, decoded here with
 * the log layer); log versions grow round by round; a failed deltacommit is rolled back (a
 * rollback command block for its log file) and the next write recovers. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/log/log.h"
#include "schema/schema.h"
#include "support.h"
#include "wt_util.h"

static const char *const P2[] = {"a", "b"};

static hudi_table *mor_create(hudi_fs *fs, const char *base, const hudi_field *schema) {
    return wt_mor_create(fs, base, schema, "mw");
}

/* ---- a table state: id -> "id|name|ts|part" ------------------------------------------------ */

#define MAXID 256

typedef struct state {
    char *line[MAXID];
} state;

static void state_free(state *s) {
    for (int i = 0; i < MAXID; i++) hudi_free(s->line[i]);
    memset(s, 0, sizeof(*s));
}

static char *fmt_line(const hudi_batch *b, const int32_t *cols, int64_t i) {
    char buf[512];
    const hudi_array *id = b->columns[cols[0]], *nm = b->columns[cols[1]],
                     *ts = b->columns[cols[2]], *pt = b->columns[cols[3]];
    int n = snprintf(buf, sizeof(buf), "%06d|", ((const int32_t *)id->values)[i]);
    if (hudi_array_is_valid(nm, i))
        n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%.*s", nm->offsets[i + 1] - nm->offsets[i],
                      (const char *)nm->data + nm->offsets[i]);
    else
        n += snprintf(buf + n, sizeof(buf) - (size_t)n, "null");
    n += snprintf(buf + n, sizeof(buf) - (size_t)n, "|%lld|%.*s",
                  (long long)((const int64_t *)ts->values)[i], pt->offsets[i + 1] - pt->offsets[i],
                  (const char *)pt->data + pt->offsets[i]);
    return hudi_strdup(buf);
}

static int32_t col(const hudi_field *st, const char *name) {
    for (int32_t i = 0; i < st->n_children; i++)
        if (strcmp(st->children[i].name, name) == 0) return i;
    cr_assert_fail("no column %s", name);
    return -1;
}

static void put_batch(state *s, const hudi_batch *b) {
    int32_t cols[4] = {col(b->schema, "id"), col(b->schema, "name"), col(b->schema, "ts"),
                       col(b->schema, "part")};
    for (int64_t i = 0; i < b->num_rows; i++) {
        int32_t id = ((const int32_t *)b->columns[cols[0]]->values)[i];
        cr_assert(id >= 0 && id < MAXID);
        hudi_free(s->line[id]);
        s->line[id] = fmt_line(b, cols, i);
    }
}

/* Read-optimized: the base files of the latest slices. */
static void read_ro(hudi_table *t, state *s) {
    hudi_scan_options ro = HUDI_SCAN_OPTIONS_INIT;
    hudi_reader *r = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    ro.read_optimized = true;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_reader_open(&r, t, &ro, &err), 0, "open: %s", err.message);
    for (;;) {
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_reader_next(r, &b, &err), 0, "next: %s", err.message);
        if (!b) break;
        put_batch(s, b); /* the reader's batch, valid until the next call */
    }
    hudi_reader_free(r);
}

static bool instant_completed(hudi_table *t, hudi_slice instant) {
    for (size_t i = 0; i < t->timeline->count; i++) {
        const hudi_instant *in = &t->timeline->instants[i];
        if (in->state == HUDI_STATE_COMPLETED && strlen(in->time) == instant.len &&
            memcmp(in->time, instant.data, instant.len) == 0)
            return true;
    }
    return false;
}

static int key_id(hudi_slice k) {
    char buf[32];
    snprintf(buf, sizeof(buf), "%.*s", (int)k.len, (const char *)k.data);
    return atoi(buf);
}

/* Applies one log file: data blocks overwrite (the table's payload is
 * OverwriteWithLatestAvroPayload), delete blocks remove; blocks of instants that did not
 * complete are skipped, as readers do. Returns the number of blocks applied. */
static int apply_log(hudi_table *t, state *s, const hudi_log_file *lf) {
    hudi_buf bytes = HUDI_BUF_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_log_blocks bl = HUDI_LOG_BLOCKS_INIT;
    int applied = 0;
    cr_assert_eq(hudi_fs_read_all(t->fs, lf->path, &bytes, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_log_scan(&bl, HUDI_SLICE(bytes.data, bytes.len), lf->name, &err), 0, "%s",
                 err.message);
    cr_assert_eq(bl.corrupt, 0, "%s: corrupt blocks", lf->name);
    for (size_t k = 0; k < bl.count; k++) {
        const hudi_log_block *b = &bl.blocks[k];
        cr_assert_not_null(b->header[HUDI_LOG_INSTANT_TIME].data);
        if (!instant_completed(t, b->header[HUDI_LOG_INSTANT_TIME])) continue;
        applied++;
        if (b->type == HUDI_LOG_AVRO_DATA_BLOCK) {
            hudi_slice sc = b->header[HUDI_LOG_SCHEMA];
            hudi_avro_schema *w = NULL;
            hudi_field fl;
            hudi_batch *batch = NULL;
            cr_assert_not_null(sc.data);
            cr_assert_eq(hudi_schema_parse_avro(&fl, (const char *)sc.data, sc.len, &err), 0);
            cr_assert_eq(hudi_avro_schema_parse(&w, sc, &err), 0);
            cr_assert_eq(hudi_log_avro_block_read(&batch, b, w, &fl, lf->name, &err), 0, "%s",
                         err.message);
            put_batch(s, batch);
            hudi_batch_free(batch);
            hudi_avro_schema_free(w);
            hudi_field_dispose(&fl);
        } else if (b->type == HUDI_LOG_DELETE_BLOCK) {
            hudi_log_deletes d = HUDI_LOG_DELETES_INIT;
            cr_assert_eq(hudi_log_delete_block_read(&d, b, lf->name, &err), 0, "%s", err.message);
            for (size_t i = 0; i < d.count; i++) {
                int id = key_id(d.items[i].record_key);
                hudi_free(s->line[id]);
                s->line[id] = NULL;
            }
            hudi_log_deletes_dispose(&d);
        } else if (b->type == HUDI_LOG_COMMAND_BLOCK) {
            /* a rollback's: the blocks it targets are of an instant that did not complete,
             * skipped above already */
            cr_assert(!instant_completed(t, b->header[HUDI_LOG_TARGET_INSTANT_TIME]));
        } else {
            cr_assert_fail("%s: unexpected block type %d", lf->name, (int)b->type);
        }
    }
    hudi_log_blocks_dispose(&bl);
    hudi_buf_dispose(&bytes);
    return applied;
}

/* The merged snapshot: read-optimized, then every latest slice's logs in order. */
static void read_merged(hudi_table *t, state *s) {
    hudi_fs_view *v = NULL;
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    read_ro(t, s);
    cr_assert_eq(hudi_fs_view_build(&v, t->timeline, &vo, NULL), 0);
    size_t n = 0;
    const hudi_file_slice *sl = hudi_fs_view_latest_slices(v, &n);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < sl[i].logs_count; k++) (void)apply_log(t, s, &sl[i].logs[k]);
    hudi_fs_view_free(v);
}

static char *state_dump(const state *s) {
    hudi_buf b = HUDI_BUF_INIT;
    for (int i = 0; i < MAXID; i++)
        if (s->line[i]) hudi_buf_printf(&b, "%s\n", s->line[i]);
    hudi_buf_putc(&b, 0);
    return hudi_buf_detach(&b);
}

/* The merged snapshot as the log layer decodes it here, checked against hudic's merge-on-read
 * snapshot reader (read/mor.c) on the same table. */
static char *dump_merged(hudi_table *t) {
    state s = {0};
    read_merged(t, &s);
    char *d = state_dump(&s);
    state_free(&s);
    char *real = wt_dump(t, NULL);
    cr_assert_str_eq(real, d, "snapshot reader\n%s\nlog layer\n%s", real, d);
    free(real);
    return d;
}

static char *dump_ro(hudi_table *t) {
    state s = {0};
    read_ro(t, &s);
    char *d = state_dump(&s);
    state_free(&s);
    return d;
}

/* The expected state after applying rows (deleted rows remove). */
static void expect_rows(state *s, const wt_row *rows, size_t n) {
    char buf[256];
    for (size_t i = 0; i < n; i++) {
        hudi_free(s->line[rows[i].id]);
        s->line[rows[i].id] = NULL;
        if (rows[i].deleted) continue;
        snprintf(buf, sizeof(buf), "%06d|%s|%lld|%s", rows[i].id,
                 rows[i].name ? rows[i].name : "null", (long long)rows[i].ts, rows[i].part);
        s->line[rows[i].id] = hudi_strdup(buf);
    }
}

static void expect_range(state *s, int32_t first, int32_t n, int64_t ts) {
    for (int32_t id = first; id < first + n; id++) {
        char name[32];
        snprintf(name, sizeof(name), "n%d", id);
        wt_row r = {id, name, ts, P2[id % 2], false};
        expect_rows(s, &r, 1);
    }
}

static void assert_state(hudi_table *t, state *want, const char *what) {
    char *w = state_dump(want), *got = dump_merged(t);
    cr_assert_str_eq(got, w, "%s: merged snapshot\n%s\nwant\n%s", what, got, w);
    hudi_free(w);
    hudi_free(got);
}

/* The completed deltacommit's metadata. */
static hudi_commit_metadata *deltacommit(hudi_table *t, const char *instant) {
    hudi_buf json = HUDI_BUF_INIT;
    hudi_commit_metadata *md = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    const hudi_instant *in = NULL;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0);
    for (size_t i = 0; i < t->timeline->count; i++)
        if (strcmp(t->timeline->instants[i].time, instant) == 0 &&
            t->timeline->instants[i].state == HUDI_STATE_COMPLETED)
            in = &t->timeline->instants[i];
    cr_assert_not_null(in, "instant %s not completed", instant);
    cr_assert_eq(in->action, HUDI_ACTION_DELTACOMMIT, "%s is a %s", instant,
                 hudi_action_name(in->action));
    cr_assert_eq(hudi_timeline_read_commit_json(&json, t->timeline, in, &err), 0);
    cr_assert_eq(hudi_commit_metadata_parse(&md, json.data, json.len, in->file, &err), 0);
    hudi_buf_dispose(&json);
    return md;
}

static size_t count_log_stats(const hudi_commit_metadata *md, int32_t version) {
    size_t n = 0;
    for (size_t p = 0; p < md->partitions_count; p++)
        for (size_t i = 0; i < md->partitions[p].count; i++) {
            const hudi_write_stat *st = &md->partitions[p].stats[i];
            if (!st->is_delta) continue;
            cr_assert_eq(st->log_version, version, "%s: log version %d", st->path,
                         (int)st->log_version);
            /* logFiles: the slice's log files through this one (Hudi's append handle) */
            cr_assert_eq(st->log_files_count, (size_t)st->log_version, "%s", st->path);
            const char *last = st->log_files[st->log_files_count - 1];
            cr_assert(strstr(st->path, last) != NULL);
            cr_assert_not_null(st->base_file);
            cr_assert(strncmp(st->base_file, st->file_id, strlen(st->file_id)) == 0);
            char want[64];
            snprintf(want, sizeof(want), ".log.%d_", (int)version);
            cr_assert(strstr(last, want) != NULL, "%s", last);
            cr_assert_eq(st->total_write_bytes, st->file_size_bytes);
            cr_assert_gt(st->file_size_bytes, 0);
            n++;
        }
    return n;
}

Test(mor_write, upsert_delete_rounds) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = mor_create(fs, base, &s);
    state want = {0};

    /* round 0: inserts -> base files, a deltacommit */
    hudi_batch *b0 = wt_batch_range(&s, 0, 20, 1, P2, 2);
    char i0[HUDI_INSTANT_TIME_MAX];
    snprintf(i0, sizeof(i0), "%s", wt_write(t, b0, HUDI_WRITE_INSERT));
    expect_range(&want, 0, 20, 1);
    assert_state(t, &want, "insert");
    hudi_commit_metadata *md = deltacommit(t, i0);
    cr_assert_eq(count_log_stats(md, 1), 0);
    cr_assert_str_eq(md->operation_type, "INSERT");
    hudi_commit_metadata_free(md);
    char *ro0 = dump_ro(t);

    /* rounds 1..3: updates of stored keys and a new key each: logs .1, .2, .3 */
    for (int round = 1; round <= 3; round++) {
        char n1[16], n2[16];
        snprintf(n1, sizeof(n1), "u%d", round);
        snprintf(n2, sizeof(n2), "v%d", round);
        wt_row up[] = {{1, n1, 10 + round, "b", false},
                       {2, n2, 10 + round, "a", false},
                       {(int32_t)(100 + round), "new", 5, "c", false}};
        hudi_batch *b = wt_batch(&s, up, 3);
        char in[HUDI_INSTANT_TIME_MAX];
        snprintf(in, sizeof(in), "%s", wt_write(t, b, HUDI_WRITE_UPSERT));
        expect_rows(&want, up, 3);
        assert_state(t, &want, "upsert");
        md = deltacommit(t, in);
        cr_assert_eq(count_log_stats(md, round), 2, "round %d: two log appends", round);
        cr_assert_str_eq(md->operation_type, "UPSERT");
        cr_assert_not_null(hudi_commit_metadata_extra(md, "schema"));
        for (size_t p = 0; p < md->partitions_count; p++)
            for (size_t i = 0; i < md->partitions[p].count; i++) {
                const hudi_write_stat *st = &md->partitions[p].stats[i];
                if (!st->is_delta) continue;
                cr_assert_eq(st->num_update_writes, 1);
                cr_assert_eq(st->num_writes, 1);
                cr_assert_eq(st->num_inserts, 0);
                cr_assert_eq(st->num_deletes, 0);
            }
        hudi_commit_metadata_free(md);
        hudi_batch_free(b);
        /* the base files did not change: the updates live in the logs only */
        char *ro = dump_ro(t);
        cr_assert(strstr(ro, "1|n1|1|b\n") != NULL, "read-optimized sees the base record:\n%s", ro);
        hudi_free(ro);
    }

    /* a DELETE: a delete block */
    wt_row del[] = {{3, NULL, 0, "b", true}, {4, NULL, 0, "a", true}, {1, NULL, 0, "b", true}};
    hudi_batch *bd = wt_batch(&s, del, 3);
    char id[HUDI_INSTANT_TIME_MAX];
    snprintf(id, sizeof(id), "%s", wt_write(t, bd, HUDI_WRITE_DELETE));
    expect_rows(&want, del, 3);
    assert_state(t, &want, "delete");
    md = deltacommit(t, id);
    cr_assert_str_eq(md->operation_type, "DELETE");
    int64_t deletes = 0;
    for (size_t p = 0; p < md->partitions_count; p++)
        for (size_t i = 0; i < md->partitions[p].count; i++) {
            cr_assert(md->partitions[p].stats[i].is_delta);
            cr_assert_eq(md->partitions[p].stats[i].num_writes, 0);
            deletes += md->partitions[p].stats[i].num_deletes;
        }
    cr_assert_eq(deletes, 3);
    hudi_commit_metadata_free(md);

    /* read-optimized still shows round 0's base records of the logged keys */
    char *ro = dump_ro(t);
    cr_assert(strstr(ro, "3|n3|1|b\n") != NULL);
    cr_assert(strstr(ro, "1|n1|1|b\n") != NULL);
    hudi_free(ro);

    /* the timeline: deltacommits only, no markers left */
    cr_assert_eq(hudi_tbl_reload(t, NULL), 0);
    for (size_t i = 0; i < t->timeline->count; i++)
        cr_assert_eq(t->timeline->instants[i].action, HUDI_ACTION_DELTACOMMIT);
    char tmp[600];
    snprintf(tmp, sizeof(tmp), "%s/.hoodie/.temp/%s", base, id);
    cr_assert(!hudi_fs_exists(fs, tmp));

    hudi_free(ro0);
    state_free(&want);
    hudi_batch_free(b0);
    hudi_batch_free(bd);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* _hoodie_is_deleted in an upsert: a delete block with the row's ordering value, the other
 * rows in the data block of the same log file. */
Test(mor_write, is_deleted_in_upsert) {
    char base[512];
    hudi_field s;
    wt_schema(&s, true);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = mor_create(fs, base, &s);
    hudi_batch *b0 = wt_batch_range(&s, 0, 6, 1, P2, 1);
    (void)wt_write(t, b0, HUDI_WRITE_INSERT);
    wt_row up[] = {{0, "x", 7, "a", true}, {2, "y", 8, "a", false}};
    hudi_batch *b1 = wt_batch(&s, up, 2);
    (void)wt_write(t, b1, HUDI_WRITE_UPSERT);
    state want = {0};
    expect_range(&want, 0, 6, 1);
    for (int i = 0; i < 6; i++) { /* all rows went to partition "a" */
        hudi_free(want.line[i]);
        char buf[64];
        snprintf(buf, sizeof(buf), "%06d|n%d|1|a", i, i);
        want.line[i] = hudi_strdup(buf);
    }
    expect_rows(&want, up, 2);
    assert_state(t, &want, "is_deleted");
    /* the one log file: a data block then a delete block with ordering value 7 (long) */
    hudi_fs_view *v = NULL;
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    cr_assert_eq(hudi_fs_view_build(&v, t->timeline, &vo, NULL), 0);
    size_t n = 0;
    const hudi_file_slice *sl = hudi_fs_view_latest_slices(v, &n);
    cr_assert_eq(n, 1);
    cr_assert_eq(sl[0].logs_count, 1);
    hudi_buf bytes = HUDI_BUF_INIT;
    hudi_log_blocks bl = HUDI_LOG_BLOCKS_INIT;
    cr_assert_eq(hudi_fs_read_all(fs, sl[0].logs[0].path, &bytes, NULL), 0);
    cr_assert_eq(hudi_log_scan(&bl, HUDI_SLICE(bytes.data, bytes.len), "x", NULL), 0);
    cr_assert_eq(bl.count, 2);
    cr_assert_eq(bl.blocks[0].type, HUDI_LOG_AVRO_DATA_BLOCK);
    cr_assert_eq(bl.blocks[1].type, HUDI_LOG_DELETE_BLOCK);
    /* both blocks carry the deltacommit's header as Hudi's append handle writes it: the
     * instant and the writer schema (with the meta fields) */
    hudi_slice sc = bl.blocks[0].header[HUDI_LOG_SCHEMA];
    cr_assert(sc.len > 0 && memmem(sc.data, sc.len, "_hoodie_record_key", 18));
    cr_assert(hudi_slice_eq(bl.blocks[1].header[HUDI_LOG_SCHEMA], sc));
    cr_assert(hudi_slice_eq(bl.blocks[1].header[HUDI_LOG_INSTANT_TIME],
                            bl.blocks[0].header[HUDI_LOG_INSTANT_TIME]));
    hudi_log_deletes d = HUDI_LOG_DELETES_INIT;
    cr_assert_eq(hudi_log_delete_block_read(&d, &bl.blocks[1], "x", NULL), 0);
    cr_assert_eq(d.count, 1);
    cr_assert_eq(d.items[0].ordering.kind, HUDI_LOG_ORDER_LONG);
    cr_assert_eq(d.items[0].ordering.i, 7);
    cr_assert(hudi_slice_eq(d.items[0].partition_path, hudi_slice_cstr("a")));
    hudi_log_deletes_dispose(&d);
    hudi_log_blocks_dispose(&bl);
    hudi_buf_dispose(&bytes);
    hudi_fs_view_free(v);
    state_free(&want);
    hudi_batch_free(b0);
    hudi_batch_free(b1);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* ---- crash safety (write_crash_test.c for a MOR upsert) ------------------------------------ */

static char *dump_merged_path(hudi_fs *fs, const char *base) {
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_open(&t, fs, base, &err), 0, "open: %s", err.message);
    char *d = dump_merged(t);
    hudi_tbl_free(t);
    return d;
}

static int mor_upsert(hudi_fs *fs, const char *base, const hudi_batch *b, hudi_error *err) {
    hudi_table *t = NULL;
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    int rc = hudi_tbl_open(&t, fs, base, err);
    if (rc == 0) rc = hudi_tbl_write(t, b, &o, NULL, err);
    hudi_tbl_free(t);
    return rc;
}

typedef struct mscenario {
    hudi_field s;
    hudi_batch *seed, *first, *up;
} mscenario;

/* A MOR table with base files and a log file in each partition. */
static hudi_fs *mseeded(wt_fs_kind kind, mscenario *sc, char *base, size_t len) {
    hudi_fs *fs = wt_fs(kind, base, len);
    hudi_table *t = mor_create(fs, base, &sc->s);
    wt_write(t, sc->seed, HUDI_WRITE_INSERT);
    wt_write(t, sc->first, HUDI_WRITE_UPSERT);
    hudi_tbl_free(t);
    return fs;
}

static void mor_crash_loop(wt_fs_kind kind) {
    mscenario sc;
    char base[512];
    wt_schema(&sc.s, false);
    sc.seed = wt_batch_range(&sc.s, 0, 12, 1, P2, 2);
    sc.first = wt_batch_range(&sc.s, 0, 2, 2, P2, 2);
    /* updates of 4 stored keys in both partitions (log appends), 3 inserts */
    sc.up = wt_batch_range(&sc.s, 8, 7, 3, P2, 2);
    hudi_fs *fs = mseeded(kind, &sc, base, sizeof(base));
    char *before = dump_merged_path(fs, base);
    cr_assert_eq(mor_upsert(fs, base, sc.up, NULL), 0);
    char *after = dump_merged_path(fs, base);
    cr_assert_eq(wt_lines(after), 15);
    cr_assert_str_neq(before, after);
    hudi_fs_free(fs);
    wt_fs_cleanup(kind, base);
    int failures = 0;
    for (int64_t n = 1; n < 5000; n++) {
        fs = mseeded(kind, &sc, base, sizeof(base));
        hudi_fs *ff = NULL;
        cr_assert_eq(hudi_fs_faulty_new(&ff, fs, (hudi_fault_plan){n, -1, true}, NULL), 0);
        hudi_error err = HUDI_ERROR_INIT;
        int rc = mor_upsert(ff, base, sc.up, &err);
        bool tripped = hudi_fs_faulty_tripped(ff);
        hudi_fs_free(ff);
        if (rc == 0) {
            char *d = dump_merged_path(fs, base);
            cr_assert_str_eq(d, after, "call %lld", (long long)n);
            hudi_free(d);
            hudi_fs_free(fs);
            wt_fs_cleanup(kind, base);
            if (!tripped) break;
            continue;
        }
        failures++;
        char *d = dump_merged_path(fs, base);
        cr_assert_str_eq(d, before, "after a failure at call %lld (%s)", (long long)n, err.message);
        hudi_free(d);
        rc = mor_upsert(fs, base, sc.up, &err);
        cr_assert_eq(rc, 0, "retry after a failure at call %lld: %s", (long long)n, err.message);
        d = dump_merged_path(fs, base);
        cr_assert_str_eq(d, after, "retry after a failure at call %lld", (long long)n);
        hudi_free(d);
        hudi_fs_free(fs);
        wt_fs_cleanup(kind, base);
    }
    cr_assert_gt(failures, 20);
    hudi_free(before);
    hudi_free(after);
    hudi_batch_free(sc.seed);
    hudi_batch_free(sc.first);
    hudi_batch_free(sc.up);
    hudi_field_dispose(&sc.s);
}

Test(mor_write, upsert_fails_at_every_call_memory, .timeout = 120) { mor_crash_loop(WT_MEMORY); }
Test(mor_write, upsert_fails_at_every_call_local, .timeout = 120) { mor_crash_loop(WT_LOCAL); }

/* Rolling back the latest completed deltacommit (found through the markers written from its
 * commit metadata) leaves its log files and adds a log file with a rollback command block to
 * each slice (mor_rollback_test.c): the table reads as before it, and the next upsert takes
 * the version after the command block's. */
Test(mor_write, rollback_completed_deltacommit) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = mor_create(fs, base, &s);
    hudi_batch *b0 = wt_batch_range(&s, 0, 10, 1, P2, 2);
    (void)wt_write(t, b0, HUDI_WRITE_INSERT);
    char *before = dump_merged(t);
    wt_row up[] = {{1, "u", 5, "b", false}, {2, NULL, 0, "a", true}};
    hudi_batch *b1 = wt_batch(&s, up, 2);
    char in[HUDI_INSTANT_TIME_MAX];
    snprintf(in, sizeof(in), "%s", wt_write(t, b1, HUDI_WRITE_UPSERT));
    hudi_commit_metadata *md = deltacommit(t, in);
    cr_assert_eq(count_log_stats(md, 1), 2);
    char log0[600];
    const hudi_write_stat *st = &md->partitions[0].stats[0];
    snprintf(log0, sizeof(log0), "%s/%s", base, st->path);
    hudi_commit_metadata_free(md);
    cr_assert(hudi_fs_exists(fs, log0));
    char *after = dump_merged(t);
    cr_assert_str_neq(before, after);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_rollback_commit(t, in, NULL, &err), 0, "%s", err.message);
    cr_assert(hudi_fs_exists(fs, log0), "%s deleted", log0);
    char *d = dump_merged(t);
    cr_assert_str_eq(d, before);
    hudi_free(d);
    /* again: version 3, after the command block's 2 */
    snprintf(in, sizeof(in), "%s", wt_write(t, b1, HUDI_WRITE_UPSERT));
    md = deltacommit(t, in);
    cr_assert_eq(count_log_stats(md, 3), 2);
    hudi_commit_metadata_free(md);
    d = dump_merged(t);
    cr_assert_str_eq(d, after);
    hudi_free(d);
    hudi_free(before);
    hudi_free(after);
    hudi_batch_free(b0);
    hudi_batch_free(b1);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* ---- a Spark-written MOR table continued by hudic ------------------------------------------ */

#define TRIPS 16

typedef struct trips {
    char key[TRIPS][64];
    char line[TRIPS][160]; /* "" = deleted */
    int n;
} trips;

static char *cell(const hudi_array *a, int64_t i, char *buf, size_t len) {
    if (!hudi_array_is_valid(a, i))
        snprintf(buf, len, "<null>");
    else if (a->field->type == HUDI_TYPE_DOUBLE)
        snprintf(buf, len, "%g", ((const double *)a->values)[i]);
    else
        snprintf(buf, len, "%.*s", a->offsets[i + 1] - a->offsets[i],
                 (const char *)a->data + a->offsets[i]);
    return buf;
}

static void trips_put(trips *tr, const hudi_batch *b) {
    int32_t k = col(b->schema, "uuid"), r = col(b->schema, "rider"), f = col(b->schema, "fare"),
            c = col(b->schema, "city");
    for (int64_t i = 0; i < b->num_rows; i++) {
        char kb[64], rb[64], fb[32], cb[64];
        cell(b->columns[k], i, kb, sizeof(kb));
        int at = 0;
        while (at < tr->n && strcmp(tr->key[at], kb) != 0) at++;
        cr_assert_lt(at, TRIPS);
        if (at == tr->n) snprintf(tr->key[tr->n++], 64, "%s", kb);
        snprintf(tr->line[at], 160, "%s|%s|%s", cell(b->columns[r], i, rb, sizeof(rb)),
                 cell(b->columns[f], i, fb, sizeof(fb)), cell(b->columns[c], i, cb, sizeof(cb)));
    }
}

/* Merged snapshot of the trips table: base files, then each latest slice's logs (the table's
 * payload is OverwriteWithLatestAvroPayload: the log wins); lines sorted by rider. */
static char *trips_lines(trips *tr) {
    qsort(tr->line, (size_t)tr->n, sizeof(tr->line[0]),
          (int (*)(const void *, const void *))strcmp);
    hudi_buf out = HUDI_BUF_INIT;
    for (int i = 0; i < tr->n; i++)
        if (tr->line[i][0]) hudi_buf_printf(&out, "%s\n", tr->line[i]);
    hudi_buf_putc(&out, 0);
    return hudi_buf_detach(&out);
}

/* hudic's snapshot reader (read/mor.c). */
static char *trips_snapshot(hudi_table *t) {
    trips tr;
    memset(&tr, 0, sizeof(tr));
    hudi_scan_options so = HUDI_SCAN_OPTIONS_INIT;
    hudi_reader *r = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_reader_open(&r, t, &so, &err), 0, "%s", err.message);
    for (;;) {
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_reader_next(r, &b, &err), 0, "%s", err.message);
        if (!b) break;
        trips_put(&tr, b);
    }
    hudi_reader_free(r);
    return trips_lines(&tr);
}

static char *trips_merged(hudi_table *t) {
    trips tr;
    memset(&tr, 0, sizeof(tr));
    hudi_scan_options ro = HUDI_SCAN_OPTIONS_INIT;
    hudi_reader *r = NULL;
    hudi_fs_view *v = NULL;
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    ro.read_optimized = true;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_reader_open(&r, t, &ro, &err), 0, "%s", err.message);
    for (;;) {
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_reader_next(r, &b, &err), 0, "%s", err.message);
        if (!b) break;
        trips_put(&tr, b);
    }
    hudi_reader_free(r);
    cr_assert_eq(hudi_fs_view_build(&v, t->timeline, &vo, NULL), 0);
    size_t n = 0;
    const hudi_file_slice *sl = hudi_fs_view_latest_slices(v, &n);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < sl[i].logs_count; k++) {
            hudi_buf bytes = HUDI_BUF_INIT;
            hudi_log_blocks bl = HUDI_LOG_BLOCKS_INIT;
            const hudi_log_file *lf = &sl[i].logs[k];
            cr_assert_eq(hudi_fs_read_all(t->fs, lf->path, &bytes, &err), 0);
            cr_assert_eq(hudi_log_scan(&bl, HUDI_SLICE(bytes.data, bytes.len), lf->name, &err), 0);
            for (size_t j = 0; j < bl.count; j++) {
                const hudi_log_block *b = &bl.blocks[j];
                if (!instant_completed(t, b->header[HUDI_LOG_INSTANT_TIME])) continue;
                if (b->type == HUDI_LOG_AVRO_DATA_BLOCK) {
                    hudi_slice sc = b->header[HUDI_LOG_SCHEMA];
                    hudi_avro_schema *w = NULL;
                    hudi_field fl;
                    hudi_batch *batch = NULL;
                    cr_assert_eq(hudi_schema_parse_avro(&fl, (const char *)sc.data, sc.len, &err),
                                 0);
                    cr_assert_eq(hudi_avro_schema_parse(&w, sc, &err), 0);
                    cr_assert_eq(hudi_log_avro_block_read(&batch, b, w, &fl, lf->name, &err), 0,
                                 "%s", err.message);
                    trips_put(&tr, batch);
                    hudi_batch_free(batch);
                    hudi_avro_schema_free(w);
                    hudi_field_dispose(&fl);
                } else if (b->type == HUDI_LOG_DELETE_BLOCK) {
                    hudi_log_deletes d = HUDI_LOG_DELETES_INIT;
                    cr_assert_eq(hudi_log_delete_block_read(&d, b, lf->name, &err), 0);
                    for (size_t q = 0; q < d.count; q++)
                        for (int a = 0; a < tr.n; a++)
                            if (hudi_slice_eq(d.items[q].record_key, hudi_slice_cstr(tr.key[a])))
                                tr.line[a][0] = 0;
                    hudi_log_deletes_dispose(&d);
                }
            }
            hudi_log_blocks_dispose(&bl);
            hudi_buf_dispose(&bytes);
        }
    hudi_fs_view_free(v);
    char *mine = trips_lines(&tr), *real = trips_snapshot(t);
    cr_assert_str_eq(real, mine, "snapshot reader\n%s\nlog layer\n%s", real, mine);
    hudi_free(real);
    return mine;
}

/* The rows of riders `which` from a read-optimized read, fare set to `fare`. */
static hudi_batch *trips_rows(hudi_table *t, const char *const *which, int n_which, double fare,
                              hudi_field *schema) {
    hudi_scan_options ro = HUDI_SCAN_OPTIONS_INIT;
    static const char *const cols[] = {"ts", "uuid", "rider", "driver", "fare", "city"};
    hudi_reader *r = NULL;
    hudi_batch *out = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    ro.read_optimized = true;
    ro.columns = cols;
    ro.n_columns = 6;
    cr_assert_eq(hudi_reader_open(&r, t, &ro, &err), 0, "%s", err.message);
    for (;;) {
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_reader_next(r, &b, &err), 0, "%s", err.message);
        if (!b) break;
        if (!out) { /* the batch borrows its schema: keep a copy that outlives the reader */
            cr_assert_eq(hudi_field_copy(schema, b->schema), 0);
            cr_assert_eq(hudi_batch_new(&out, schema, &err), 0);
        }
        for (int64_t i = 0; i < b->num_rows; i++) {
            char rb[64];
            cell(b->columns[2], i, rb, sizeof(rb));
            for (int w = 0; w < n_which; w++)
                if (strcmp(rb, which[w]) == 0)
                    for (int32_t c = 0; c < 6; c++)
                        cr_assert_eq(
                            hudi_array_append_range(out->columns[c], b->columns[c], i, 1, &err), 0);
        }
    }
    hudi_reader_free(r);
    out->num_rows = out->columns[0]->length;
    cr_assert_eq(out->num_rows, n_which);
    for (int64_t i = 0; i < out->num_rows; i++) ((double *)out->columns[4]->values)[i] = fare;
    return out;
}

static int count_logs(const char *dir) {
    char cmd[1200];
    snprintf(cmd, sizeof(cmd), "ls -a '%s' | grep -c '\\.log\\.'", dir);
    FILE *p = popen(cmd, "r");
    int n = -1;
    cr_assert_eq(fscanf(p, "%d", &n), 1);
    pclose(p);
    return n;
}

Test(mor_write, spark_fixture_continued) {
    const char *root = fixture_unzip("hudi-rs/quickstart_trips_table/mor/avro/v6_trips_8i1u.zip");
    cr_assert_not_null(root);
    char base[1024];
    snprintf(base, sizeof(base), "%s", root);
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_open(&t, NULL, base, &err), 0, "%s", err.message);
    /* Spark's state: 8 trips, rider-D's fare 25 from Spark's log block */
    char *before = trips_merged(t);
    cr_assert_eq(wt_lines(before), 8, "%s", before);
    cr_assert(strstr(before, "rider-D|25|san_francisco\n") != NULL, "%s", before);

    /* upsert rider-A (san_francisco: the slice has Spark's .log.1) and rider-F (sao_paulo: no
     * logs yet), then delete rider-I (chennai) */
    static const char *const up[] = {"rider-A", "rider-F"};
    hudi_field s1, s2;
    hudi_batch *b = trips_rows(t, up, 2, 99.5, &s1);
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    o.op = HUDI_WRITE_UPSERT;
    cr_assert_eq(hudi_tbl_write(t, b, &o, NULL, &err), 0, "%s", err.message);
    hudi_batch_free(b);
    static const char *const del[] = {"rider-I"};
    b = trips_rows(t, del, 1, 0, &s2);
    o.op = HUDI_WRITE_DELETE;
    cr_assert_eq(hudi_tbl_write(t, b, &o, NULL, &err), 0, "%s", err.message);
    hudi_batch_free(b);

    char *after = trips_merged(t);
    cr_assert_eq(wt_lines(after), 7, "%s", after);
    cr_assert(strstr(after, "rider-A|99.5|san_francisco\n") != NULL, "%s", after);
    cr_assert(strstr(after, "rider-F|99.5|sao_paulo\n") != NULL, "%s", after);
    cr_assert(strstr(after, "rider-D|25|san_francisco\n") != NULL, "%s", after);
    cr_assert(strstr(after, "rider-I") == NULL, "%s", after);
    /* one new log per slice: .log.2 after Spark's .log.1, .log.1 where there was none */
    char dir[1200];
    snprintf(dir, sizeof(dir), "%s/city=san_francisco", base);
    cr_assert_eq(count_logs(dir), 2);
    snprintf(dir, sizeof(dir), "%s/city=sao_paulo", base);
    cr_assert_eq(count_logs(dir), 1);
    snprintf(dir, sizeof(dir), "%s/city=chennai", base);
    cr_assert_eq(count_logs(dir), 1);
    hudi_fs_view *v = NULL;
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    cr_assert_eq(hudi_fs_view_build(&v, t->timeline, &vo, NULL), 0);
    const hudi_file_slice *sl = NULL;
    size_t n = 0;
    cr_assert_eq(hudi_fs_view_latest_slices_in(v, "city=san_francisco", &sl, &n), 0);
    cr_assert_eq(n, 1);
    cr_assert_eq(sl[0].logs_count, 2);
    cr_assert_eq(sl[0].logs[1].version, 2);
    hudi_fs_view_free(v);
    hudi_field_dispose(&s1);
    hudi_field_dispose(&s2);
    hudi_free(before);
    hudi_free(after);
    hudi_tbl_free(t);
}

/* ---- incremental reads: the log blocks of the range only ------------------------------------ */

/* "id|name|ts;" of an incremental read of (begin, end], in reading order. */
static void inc_rows(hudi_table *t, const char *begin, const char *end, char *out, size_t len) {
    const char *const cols[] = {"id", "name", "ts"};
    hudi_scan_options ro = HUDI_SCAN_OPTIONS_INIT;
    hudi_reader *r = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    ro.begin_instant = begin;
    ro.end_instant = end;
    ro.columns = cols;
    ro.n_columns = 3;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_reader_open(&r, t, &ro, &err), 0, "reader: %s", err.message);
    size_t n = 0;
    out[0] = '\0';
    for (;;) {
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_reader_next(r, &b, &err), 0, "next: %s", err.message);
        if (!b) break;
        for (int64_t i = 0; i < b->num_rows; i++) {
            const hudi_array *nm = b->columns[1];
            n += (size_t)snprintf(
                out + n, len - n, "%d|%.*s|%lld;", ((const int32_t *)b->columns[0]->values)[i],
                nm->offsets[i + 1] - nm->offsets[i], (const char *)nm->data + nm->offsets[i],
                (long long)((const int64_t *)b->columns[2]->values)[i]);
        }
    }
    hudi_reader_free(r);
}

/* Hudi 0.15's incremental query on MOR scans the log blocks of instants in (begin, end] only:
 * on a DefaultHoodieRecordPayload table, an update with ts 15 in the range against a log record
 * with ts 20 from before the range is in the range's changes (it beats the base row's ts 10),
 * as Spark returns it; a snapshot keeps ts 20. */
Test(mor_write, incremental_reads_blocks_of_range) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_create_options o = HUDI_CREATE_OPTIONS_INIT;
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    o.table_name = "mw";
    o.record_key_fields = "id";
    o.partition_fields = "part";
    o.precombine_field = "ts";
    o.populate_meta_fields = true;
    o.schema = &s;
    o.type = HUDI_MERGE_ON_READ;
    static const char *const props[] = {"hoodie.compaction.payload.class",
                                        "org.apache.hudi.common.model.DefaultHoodieRecordPayload",
                                        NULL};
    o.extra_props = props;
    cr_assert_eq(hudi_tbl_create(&t, fs, base, &o, &err), 0, "create: %s", err.message);
    char i1[HUDI_INSTANT_TIME_MAX], i2[HUDI_INSTANT_TIME_MAX], i3[HUDI_INSTANT_TIME_MAX];
    wt_row r1[] = {{0, "n", 10, "a", false}, {1, "n", 10, "a", false}};
    wt_row r2[] = {{0, "u", 20, "a", false}};
    wt_row r3[] = {{0, "old", 15, "a", false}, {1, "v", 11, "a", false}};
    hudi_batch *b1 = wt_batch(&s, r1, 2), *b2 = wt_batch(&s, r2, 1), *b3 = wt_batch(&s, r3, 2);
    snprintf(i1, sizeof(i1), "%s", wt_write(t, b1, HUDI_WRITE_INSERT));
    snprintf(i2, sizeof(i2), "%s", wt_write(t, b2, HUDI_WRITE_UPSERT));
    snprintf(i3, sizeof(i3), "%s", wt_write(t, b3, HUDI_WRITE_UPSERT));
    char got[256];
    inc_rows(t, i2, i3, got, sizeof(got));
    cr_assert_str_eq(got, "0|old|15;1|v|11;");
    inc_rows(t, i1, i2, got, sizeof(got));
    cr_assert_str_eq(got, "0|u|20;");
    char *snap = wt_dump(t, NULL);
    cr_assert_str_eq(snap, "000000|u|20|a\n000001|v|11|a\n");
    free(snap);
    hudi_batch_free(b1);
    hudi_batch_free(b2);
    hudi_batch_free(b3);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* The columnar merge (read/mor.c patches the replaced rows of a base batch in place, rebuilds
 * string columns whose new values change length, compacts deleted rows out): updates of the
 * first and last rows of both base files, names that keep their length (patched in place),
 * change it, shrink on neighbouring rows or become null (and back), ts patched, deletes then
 * re-inserts of the same keys, a row deleted and one updated in the same batch. Checked after
 * every round against the log layer's own decoding (dump_merged), with the merge in memory and
 * spilled. */
static void merge_patch_rounds(bool spill) {
    char base[512];
    hudi_field s;
    hudi_error err = HUDI_ERROR_INIT;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = mor_create(fs, base, &s);
    if (spill)
        cr_assert_eq(hudi_props_set(&t->props, "hoodie.memory.merge.max.size", "100", &err), 0);
    state want = {0};
    hudi_batch *b = wt_batch_range(&s, 0, 200, 1, P2, 2); /* a: 0, 2, .. 198; b: 1, .. 199 */
    (void)wt_write(t, b, HUDI_WRITE_INSERT);
    hudi_batch_free(b);
    expect_range(&want, 0, 200, 1);
    assert_state(t, &want, "insert");

    /* round 1: first/last rows, same-length names only (in place), ts changes */
    wt_row r1[] = {{0, "m0", 2, "a", false},     {1, "m1", 2, "b", false},
                   {198, "m198", 2, "a", false}, {199, "m199", 2, "b", false},
                   {100, "x100", 2, "a", false}, {57, "m57", 3, "b", false}};
    /* round 2: longer and shorter names, nulls (a name patched to null), more rows */
    wt_row r2[] = {{0, "a much longer name for row 0", 4, "a", false},
                   {199, NULL, 4, "b", false},
                   {2, "", 4, "a", false},
                   {101, NULL, 4, "b", false},
                   {150, "n150-longer", 4, "a", false},
                   {3, "z", 4, "b", false}};
    /* round 2b: shorter names, an empty one and a null on rows next to each other in both
     * files */
    wt_row r2b[] = {{10, "s", 5, "a", false}, {12, "", 5, "a", false},  {14, NULL, 5, "a", false},
                    {11, "t", 5, "b", false}, {13, "u", 5, "b", false}, {197, "v", 5, "b", false}};
    /* round 3: deletes of first, last and middle rows */
    wt_row r3[] = {{0, NULL, 0, "a", true},
                   {199, NULL, 0, "b", true},
                   {5, NULL, 0, "b", true},
                   {198, NULL, 0, "a", true}};
    /* round 4: re-inserts of deleted keys, a null name back to a value, another update */
    wt_row r4[] = {{0, "back0", 6, "a", false},
                   {199, "back199", 6, "b", false},
                   {101, "n101", 6, "b", false},
                   {1, NULL, 6, "b", false}};
    /* round 5: a delete and updates next to it, the re-inserted key updated again */
    wt_row r5[] = {{4, NULL, 0, "a", true}, {6, "six", 7, "a", false}, {0, "zero", 7, "a", false}};
    struct {
        const wt_row *rows;
        size_t n;
        hudi_write_operation op;
    } rounds[] = {{r1, 6, HUDI_WRITE_UPSERT},    {r2, 6, HUDI_WRITE_UPSERT},
                  {r2b, 6, HUDI_WRITE_UPSERT},   {r3, 4, HUDI_WRITE_DELETE},
                  {r4, 4, HUDI_WRITE_UPSERT},    {r5, 1, HUDI_WRITE_DELETE},
                  {r5 + 1, 2, HUDI_WRITE_UPSERT}};
    for (size_t k = 0; k < HUDI_ARRAY_LEN(rounds); k++) {
        b = wt_batch(&s, rounds[k].rows, rounds[k].n);
        (void)wt_write(t, b, rounds[k].op);
        hudi_batch_free(b);
        expect_rows(&want, rounds[k].rows, rounds[k].n);
        char what[32];
        snprintf(what, sizeof(what), "round %zu", k + 1);
        assert_state(t, &want, what);
    }
    char *got = wt_dump(t, NULL);
    cr_assert(strstr(got, "000000|zero|7|a\n") != NULL, "%s", got);
    cr_assert(strstr(got, "000199|back199|6|b\n") != NULL);
    cr_assert(strstr(got, "000101|n101|6|b\n") != NULL);
    cr_assert(strstr(got, "000001|null|6|b\n") != NULL);
    cr_assert(strstr(got, "000002||4|a\n") != NULL);
    cr_assert(strstr(got, "000012||5|a\n") != NULL && strstr(got, "000014|null|5|a\n") != NULL,
              "%s", got);
    cr_assert(strstr(got, "000013|u|5|b\n") != NULL && strstr(got, "000197|v|5|b\n") != NULL);
    cr_assert(strstr(got, "000004|") == NULL && strstr(got, "000198|") == NULL);
    cr_assert_eq(wt_lines(got), 200 - 3);
    free(got);
    state_free(&want);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

Test(mor_write, merge_patches_rows) { merge_patch_rounds(false); }
Test(mor_write, merge_patches_rows_spilled) { merge_patch_rounds(true); }
