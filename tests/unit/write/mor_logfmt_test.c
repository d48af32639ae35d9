/* mor_logfmt_test.c - the log files of merge-on-read writes (docs/formats/log-file.md §1, §8):
 * data blocks as Avro or Parquet (hoodie.logfile.data.block.format), records cut into blocks
 * of hoodie.logfile.data.block.max.size, and rollover to the next log version once a file is
 * past hoodie.logfile.max.size - read back by the snapshot reader, block by block with the log
 * layer, and through the deltacommit's write stats (one per log file). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/log/log.h"
#include "format/parquet/meta.h"
#include "format/parquet/parquet.h"
#include "support.h"
#include "table/txn.h"
#include "wt_util.h"

static const char *const P1[] = {"a"};

static hudi_table *mor_create(hudi_fs *fs, const char *base, const hudi_field *schema) {
    hudi_create_options o = HUDI_CREATE_OPTIONS_INIT;
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    o.table_name = "lf";
    o.record_key_fields = "id";
    o.partition_fields = "part";
    o.precombine_field = "ts";
    o.schema = schema;
    o.type = HUDI_MERGE_ON_READ;
    cr_assert_eq(hudi_tbl_create(&t, fs, base, &o, &err), 0, "create: %s", err.message);
    return t;
}

static int write_props(hudi_table *t, const hudi_batch *b, hudi_write_operation op,
                       const char *const *props, char instant[HUDI_INSTANT_TIME_MAX],
                       hudi_error *err) {
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    hudi_table_write_result res;
    o.op = op;
    o.props = props;
    int rc = hudi_tbl_write(t, b, &o, &res, err);
    if (rc == 0 && instant) snprintf(instant, HUDI_INSTANT_TIME_MAX, "%s", res.instant);
    return rc;
}

/* What the log files of `instant` in the table hold. */
typedef struct log_census {
    int files;
    int data_blocks, delete_blocks, other_blocks;
    uint64_t max_version;
    int64_t smallest_closed; /* the smallest file size but the last one's */
} log_census;

static log_census census(hudi_table *t, const char *instant, hudi_log_block_type data_type) {
    log_census c = {0, 0, 0, 0, 0, INT64_MAX};
    hudi_fs_view *v = NULL;
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0);
    cr_assert_eq(hudi_fs_view_build(&v, t->timeline, &vo, NULL), 0);
    size_t n = 0;
    const hudi_file_slice *sl = hudi_fs_view_latest_slices(v, &n);
    for (size_t i = 0; i < n; i++) {
        uint64_t expect_version = 1;
        for (size_t k = 0; k < sl[i].logs_count; k++) {
            const hudi_log_file *lf = &sl[i].logs[k];
            hudi_buf bytes = HUDI_BUF_INIT;
            hudi_log_blocks bl = HUDI_LOG_BLOCKS_INIT;
            cr_assert_eq(lf->version, expect_version++, "%s: versions follow each other", lf->name);
            cr_assert_eq(hudi_fs_read_all(t->fs, lf->path, &bytes, &err), 0);
            cr_assert_eq(hudi_log_scan(&bl, HUDI_SLICE(bytes.data, bytes.len), lf->name, &err), 0);
            cr_assert_eq(bl.corrupt, 0);
            cr_assert_gt(bl.count, 0, "%s: no block", lf->name);
            bool mine = false;
            for (size_t b = 0; b < bl.count; b++) {
                const hudi_log_block *blk = &bl.blocks[b];
                hudi_slice it = blk->header[HUDI_LOG_INSTANT_TIME];
                if (!hudi_slice_eq(it, hudi_slice_cstr(instant))) continue;
                mine = true;
                if (blk->type == data_type) {
                    c.data_blocks++;
                    cr_assert_not_null(blk->header[HUDI_LOG_SCHEMA].data);
                    if (data_type == HUDI_LOG_PARQUET_DATA_BLOCK)
                        cr_assert(
                            blk->content.len > 8 && memcmp(blk->content.data, "PAR1", 4) == 0 &&
                                memcmp(blk->content.data + blk->content.len - 4, "PAR1", 4) == 0,
                            "a Parquet data block holds a Parquet file");
                } else if (blk->type == HUDI_LOG_DELETE_BLOCK) {
                    c.delete_blocks++;
                } else {
                    c.other_blocks++;
                }
            }
            if (mine) {
                c.files++;
                if (lf->version > c.max_version) c.max_version = lf->version;
                if (k + 1 < sl[i].logs_count && (int64_t)bytes.len < c.smallest_closed)
                    c.smallest_closed = (int64_t)bytes.len;
            }
            hudi_log_blocks_dispose(&bl);
            hudi_buf_dispose(&bytes);
        }
    }
    hudi_fs_view_free(v);
    return c;
}

/* The deltacommit's write stats: how many log files, records and deletes they count. */
static void stats_of(hudi_table *t, const char *instant, int *files, int64_t *writes,
                     int64_t *deletes) {
    hudi_buf json = HUDI_BUF_INIT;
    hudi_commit_metadata *md = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    const hudi_instant *in = NULL;
    for (size_t i = 0; i < t->timeline->count; i++)
        if (strcmp(t->timeline->instants[i].time, instant) == 0 &&
            t->timeline->instants[i].state == HUDI_STATE_COMPLETED)
            in = &t->timeline->instants[i];
    cr_assert_not_null(in);
    cr_assert_eq(hudi_timeline_read_commit_json(&json, t->timeline, in, &err), 0);
    cr_assert_eq(hudi_commit_metadata_parse(&md, json.data, json.len, in->file, &err), 0);
    *files = 0;
    *writes = *deletes = 0;
    for (size_t p = 0; p < md->partitions_count; p++)
        for (size_t i = 0; i < md->partitions[p].count; i++) {
            const hudi_write_stat *st = &md->partitions[p].stats[i];
            cr_assert(st->is_delta);
            /* logFiles: the slice's log files through this one (Hudi's append handle) */
            cr_assert_eq(st->log_files_count, (size_t)st->log_version, "%s", st->path);
            const char *last = st->log_files[st->log_files_count - 1];
            cr_assert(strstr(st->path, last) != NULL);
            char want[32];
            snprintf(want, sizeof(want), ".log.%d_", (int)st->log_version);
            cr_assert(strstr(last, want) != NULL, "%s", last);
            (*files)++;
            *writes += st->num_writes;
            *deletes += st->num_deletes;
        }
    hudi_commit_metadata_free(md);
    hudi_buf_dispose(&json);
}

static char *expected_dump(int32_t n, int64_t ts, int32_t first_deleted, int32_t n_deleted) {
    hudi_buf b = HUDI_BUF_INIT;
    for (int32_t id = 0; id < n; id++)
        if (id < first_deleted || id >= first_deleted + n_deleted)
            hudi_buf_printf(&b, "%06d|n%d|%lld|a\n", id, id, (long long)ts);
    hudi_buf_putc(&b, 0);
    return hudi_buf_detach(&b);
}

/* Upserts every stored key with tiny block and file limits, then deletes some: several data
 * blocks, several log versions, read back as the rows the writes imply. */
static void rollover_case(const char *format, hudi_log_block_type data_type) {
    char base[512], up[HUDI_INSTANT_TIME_MAX], del[HUDI_INSTANT_TIME_MAX];
    hudi_field s;
    hudi_error err = HUDI_ERROR_INIT;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = mor_create(fs, base, &s);
    const int32_t n = 400;
    hudi_batch *b0 = wt_batch_range(&s, 0, n, 1, P1, 1);
    (void)wt_write(t, b0, HUDI_WRITE_INSERT);
    const char *const props[] = {"hoodie.logfile.data.block.format",
                                 format,
                                 "hoodie.logfile.data.block.max.size",
                                 "4000",
                                 "hoodie.logfile.max.size",
                                 "6000",
                                 "hoodie.parquet.compression.codec",
                                 "snappy",
                                 NULL};
    hudi_batch *b1 = wt_batch_range(&s, 0, n, 2, P1, 1);
    cr_assert_eq(write_props(t, b1, HUDI_WRITE_UPSERT, props, up, &err), 0, "%s", err.message);
    log_census c = census(t, up, data_type);
    cr_assert_gt(c.data_blocks, 3, "%s: records cut into blocks (%d)", format, c.data_blocks);
    cr_assert_gt(c.files, 1, "%s: rolled over (%d files)", format, c.files);
    cr_assert_lt(c.files, c.data_blocks + 1);
    cr_assert_eq(c.delete_blocks + c.other_blocks, 0);
    cr_assert_gt(c.smallest_closed, 6000, "a file is closed only once past the limit");
    int files = 0;
    int64_t writes = 0, deletes = 0;
    stats_of(t, up, &files, &writes, &deletes);
    cr_assert_eq(files, c.files, "one write stat per log file");
    cr_assert_eq(writes, n);
    char *want = expected_dump(n, 2, n, 0), *got = wt_dump(t, NULL);
    cr_assert_str_eq(got, want);
    free(got);
    hudi_free(want);

    /* deletes and upserts in one write: the delete block follows the last data block */
    wt_row rows[] = {{10, NULL, 3, "a", false}, {11, NULL, 3, "a", false}};
    hudi_batch *bd = wt_batch(&s, rows, 2);
    cr_assert_eq(write_props(t, bd, HUDI_WRITE_DELETE, props, del, &err), 0, "%s", err.message);
    log_census d = census(t, del, data_type);
    cr_assert_eq(d.files, 1);
    cr_assert_eq(d.delete_blocks, 1);
    cr_assert_eq(d.max_version, c.max_version + 1, "the next write takes the next version");
    stats_of(t, del, &files, &writes, &deletes);
    cr_assert_eq(files, 1);
    cr_assert_eq(deletes, 2);
    want = expected_dump(n, 2, 10, 2);
    got = wt_dump(t, NULL);
    cr_assert_str_eq(got, want);
    free(got);
    hudi_free(want);
    /* the whole table still reads the same from a fresh open */
    got = wt_dump_path(fs, base, NULL);
    want = expected_dump(n, 2, 10, 2);
    cr_assert_str_eq(got, want);
    free(got);
    hudi_free(want);

    hudi_batch_free(b0);
    hudi_batch_free(b1);
    hudi_batch_free(bd);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

Test(mor_logfmt, avro_blocks_roll_over) { rollover_case("avro", HUDI_LOG_AVRO_DATA_BLOCK); }

Test(mor_logfmt, parquet_blocks_roll_over) {
    rollover_case("parquet", HUDI_LOG_PARQUET_DATA_BLOCK);
}

/* Defaults: one Parquet data block in one log file; bad settings are refused by name. */
Test(mor_logfmt, parquet_default_limits_and_bad_settings) {
    char base[512], in[HUDI_INSTANT_TIME_MAX];
    hudi_field s;
    hudi_error err = HUDI_ERROR_INIT;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = mor_create(fs, base, &s);
    hudi_batch *b0 = wt_batch_range(&s, 0, 50, 1, P1, 1);
    (void)wt_write(t, b0, HUDI_WRITE_INSERT);
    const char *const pq[] = {"hoodie.logfile.data.block.format", "PARQUET", NULL};
    hudi_batch *b1 = wt_batch_range(&s, 0, 50, 2, P1, 1);
    cr_assert_eq(write_props(t, b1, HUDI_WRITE_UPSERT, pq, in, &err), 0, "%s", err.message);
    log_census c = census(t, in, HUDI_LOG_PARQUET_DATA_BLOCK);
    cr_assert_eq(c.files, 1);
    cr_assert_eq(c.data_blocks, 1);
    char *want = expected_dump(50, 2, 50, 0), *got = wt_dump(t, NULL);
    cr_assert_str_eq(got, want);
    free(got);
    hudi_free(want);

    const char *const bad_fmt[] = {"hoodie.logfile.data.block.format", "hfile", NULL};
    const char *const bad_size[] = {"hoodie.logfile.max.size", "1GB", NULL};
    const char *const bad_codec[] = {"hoodie.logfile.data.block.format", "parquet",
                                     "hoodie.parquet.compression.codec", "lzo", NULL};
    cr_assert_eq(write_props(t, b1, HUDI_WRITE_UPSERT, bad_fmt, NULL, &err), HUDI_EUNSUPPORTED);
    cr_assert(strstr(err.message, "hoodie.logfile.data.block.format=hfile") != NULL, "%s",
              err.message);
    cr_assert_eq(write_props(t, b1, HUDI_WRITE_UPSERT, bad_size, NULL, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "hoodie.logfile.max.size=1GB") != NULL, "%s", err.message);
    cr_assert_eq(write_props(t, b1, HUDI_WRITE_UPSERT, bad_codec, NULL, &err), HUDI_EUNSUPPORTED);
    cr_assert(strstr(err.message, "hoodie.parquet.compression.codec=lzo") != NULL, "%s",
              err.message);
    const char *const bad_markers[] = {"hoodie.write.markers.type", "EMBEDDED", NULL};
    cr_assert_eq(write_props(t, b1, HUDI_WRITE_UPSERT, bad_markers, NULL, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "hoodie.write.markers.type=EMBEDDED") != NULL, "%s", err.message);
    /* the refused writes left the table as it was */
    got = wt_dump(t, NULL);
    want = expected_dump(50, 2, 50, 0);
    cr_assert_str_eq(got, want);
    free(got);
    hudi_free(want);

    hudi_batch_free(b0);
    hudi_batch_free(b1);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* ---- bounded memory in merged reads (hoodie.memory.merge.max.size) ------------------------ */

static hudi_reader *open_reader(hudi_table *t) {
    hudi_scan_options o = HUDI_SCAN_OPTIONS_INIT;
    hudi_reader *r = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    o.batch_rows = 64; /* several merged batches and insert batches per slice */
    cr_assert_eq(hudi_reader_open(&r, t, &o, &err), 0, "open: %s", err.message);
    return r;
}

static int dir_entries(hudi_fs *fs, const char *dir) {
    hudi_dir_listing l;
    memset(&l, 0, sizeof(l));
    cr_assert_eq(hudi_fs_list(fs, dir, &l, NULL), 0);
    int n = (int)l.count;
    hudi_dir_listing_dispose(&l);
    return n;
}

/* A slice whose logs (several deltacommits of Avro and Parquet blocks, deletes, inserts) are
 * far larger than a 2000-byte bound reads exactly as without the bound: every batch equal,
 * meta columns included, in the same order - while the reader spilled its log records and
 * read its log files twice, and left no spill file behind. */
/* A setting given twice takes its last value: SQL passes a table's TBLPROPERTIES before the
 * session's SET values, and SET wins (docs/SQL.md). */
Test(mor_logfmt, the_last_value_of_a_setting_wins) {
    char base[512], in[HUDI_INSTANT_TIME_MAX];
    hudi_field s;
    hudi_error err = HUDI_ERROR_INIT;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = mor_create(fs, base, &s);
    hudi_batch *b0 = wt_batch_range(&s, 0, 20, 1, P1, 1);
    (void)wt_write(t, b0, HUDI_WRITE_INSERT);
    const char *const twice[] = {"hoodie.logfile.data.block.format",
                                 "hfile",
                                 "hoodie.logfile.max.size",
                                 "1GB",
                                 "hoodie.logfile.data.block.format",
                                 "parquet",
                                 "hoodie.logfile.max.size",
                                 "1048576",
                                 "hoodie.write.concurrency.mode",
                                 "optimistic_concurrency_control",
                                 "hoodie.write.concurrency.mode",
                                 "single_writer",
                                 "hoodie.write.lock.wait_time_ms",
                                 "x",
                                 "hoodie.write.lock.wait_time_ms",
                                 "100",
                                 NULL};
    hudi_batch *b1 = wt_batch_range(&s, 0, 20, 2, P1, 1);
    cr_assert_eq(write_props(t, b1, HUDI_WRITE_UPSERT, twice, in, &err), 0, "%s", err.message);
    log_census c = census(t, in, HUDI_LOG_PARQUET_DATA_BLOCK);
    cr_assert_eq(c.files, 1);
    cr_assert_eq(c.data_blocks, 1);
    hudi_txn_config tc;
    cr_assert_eq(hudi_txn_config_load(&tc, t, twice, &err), 0, "%s", err.message);
    cr_assert(!tc.occ);
    cr_assert_eq(tc.lock_wait_ms, 100);
    hudi_txn_config_dispose(&tc);
    hudi_batch_free(b0);
    hudi_batch_free(b1);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

Test(mor_logfmt, bounded_merge_reads_the_unbounded_rows) {
    char base[512], spill[600];
    hudi_field s;
    hudi_error err = HUDI_ERROR_INIT;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_LOCAL, base, sizeof(base));
    hudi_table *t = mor_create(fs, base, &s);
    const int32_t n = 600;
    hudi_batch *b = wt_batch_range(&s, 0, n, 1, P1, 1);
    (void)wt_write(t, b, HUDI_WRITE_INSERT);
    hudi_batch_free(b);
    const char *const parquet[] = {"hoodie.logfile.data.block.format", "parquet",
                                   "hoodie.logfile.data.block.max.size", "8000", NULL};
    const char *const avro[] = {"hoodie.logfile.data.block.max.size", "8000", NULL};
    for (int round = 0; round < 4; round++) { /* upserts of stored keys: log files */
        b = wt_batch_range(&s, round * 50, n - round * 100, 2 + round, P1, 1);
        cr_assert_eq(write_props(t, b, HUDI_WRITE_UPSERT, round % 2 ? parquet : avro, NULL, &err),
                     0, "%s", err.message);
        hudi_batch_free(b);
    }
    wt_row del[] = {
        {7, NULL, 0, "a", false}, {300, NULL, 0, "a", false}, {599, NULL, 0, "a", false}};
    b = wt_batch(&s, del, 3);
    (void)wt_write(t, b, HUDI_WRITE_DELETE);
    hudi_batch_free(b);

    /* the unbounded reader, then the same table with a tiny bound and a spill folder */
    hudi_table *tb = NULL;
    cr_assert_eq(hudi_tbl_open(&tb, fs, base, &err), 0, "%s", err.message);
    hudi_reader *big = open_reader(tb);
    snprintf(spill, sizeof(spill), "%s-spill", base);
    cr_assert_eq(hudi_fs_mkdirs(fs, spill, &err), 0);
    cr_assert_eq(hudi_props_set(&t->props, "hoodie.memory.merge.max.size", "2000", &err), 0);
    cr_assert_eq(hudi_props_set(&t->props, "hoodie.memory.spillable.map.path", spill, &err), 0);
    cr_assert_eq(hudi_props_store(&t->props, fs, base, NULL, &err), 0, "%s", err.message);
    hudi_table *ts = NULL;
    cr_assert_eq(hudi_tbl_open(&ts, fs, base, &err), 0, "%s", err.message);
    hudi_reader *small = open_reader(ts);

    int64_t rows = 0, batches = 0;
    for (;;) {
        hudi_batch *x = NULL, *y = NULL;
        cr_assert_eq(hudi_reader_next(big, &x, &err), 0, "%s", err.message);
        cr_assert_eq(hudi_reader_next(small, &y, &err), 0, "bounded: %s", err.message);
        cr_assert_eq(x == NULL, y == NULL, "batch %lld: one read ended first", (long long)batches);
        if (!x) break;
        cr_assert_eq(x->num_rows, y->num_rows, "batch %lld", (long long)batches);
        cr_assert_eq(x->n_columns, y->n_columns);
        for (int32_t c = 0; c < x->n_columns; c++) {
            hudi_buf why = HUDI_BUF_INIT;
            bool same = hudi_array_equal(x->columns[c], y->columns[c], &why);
            cr_assert(same, "batch %lld column %s: %s", (long long)batches,
                      x->schema->children[c].name, why.data ? why.data : "");
            hudi_buf_dispose(&why);
        }
        rows += x->num_rows;
        batches++;
    }
    cr_assert_eq(rows, n - 3);
    cr_assert_gt(batches, 5);
    const hudi_read_stats *sb = hudi_reader_stats(big), *ss = hudi_reader_stats(small);
    cr_assert_eq(sb->log_spills + sb->log_files_reread, 0, "1 GiB: nothing spilled");
    cr_assert_gt(ss->log_spills, 3, "spilled after every block (%lld)", (long long)ss->log_spills);
    cr_assert_eq(ss->log_spilled_records, 600 + 500 + 400 + 300, "every log record spilled");
    cr_assert_gt(ss->log_files_reread, 3);
    hudi_reader_free(big);
    hudi_reader_free(small);
    cr_assert_eq(dir_entries(fs, spill), 0, "spill files removed");
    /* the values are those the writes imply */
    char *got = wt_dump(ts, NULL);
    cr_assert_eq(wt_lines(got), n - 3);
    cr_assert(strstr(got, "000450|n450|4|a\n") != NULL, "round 2 wrote id 450 last");
    cr_assert(strstr(got, "000007|") == NULL);
    free(got);

    hudi_tbl_free(tb);
    hudi_tbl_free(ts);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    wt_fs_cleanup(WT_LOCAL, base);
    hudi_field_dispose(&s);
}

/* The codec of every base file in the table's latest slices (all the same, or -1). */
static int base_codec(hudi_table *t) {
    hudi_fs_view *v = NULL;
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0);
    cr_assert_eq(hudi_fs_view_build(&v, t->timeline, &vo, NULL), 0);
    size_t n = 0;
    const hudi_file_slice *sl = hudi_fs_view_latest_slices(v, &n);
    int codec = -2;
    for (size_t i = 0; i < n; i++) {
        cr_assert_not_null(sl[i].base);
        hudi_pq_file *f = NULL;
        cr_assert_eq(hudi_pq_open(&f, t->fs, sl[i].base->path, NULL, &err), 0, "%s", err.message);
        const pq_file_meta *m = hudi_pq_meta(f);
        for (int g = 0; g < m->n_row_groups; g++)
            for (int c = 0; c < m->row_groups[g].n_columns; c++) {
                int cc = m->row_groups[g].columns[c].meta_data.codec;
                codec = codec == -2 || codec == cc ? cc : -1;
            }
        hudi_pq_close(f);
    }
    hudi_fs_view_free(v);
    return codec;
}

/* hoodie.parquet.compression.codec chooses the codec of base files, from the write's settings
 * or hoodie.properties (gzip without it, as Hudi), and compaction follows the same rule: its
 * own settings (SQL's TBLPROPERTIES and SET), then hoodie.properties, then gzip. */
Test(mor_logfmt, codec_setting_for_base_files_and_compaction) {
    char base[512], instant[32];
    hudi_field s;
    hudi_error err = HUDI_ERROR_INIT;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = mor_create(fs, base, &s);
    const char *const zstd[] = {"hoodie.parquet.compression.codec", "ZSTD", NULL};
    const char *const snappy[] = {"hoodie.parquet.compression.codec", "snappy", NULL};
    const char *const bad[] = {"hoodie.parquet.compression.codec", "lzo", NULL};
    hudi_batch *b = wt_batch_range(&s, 0, 50, 1, P1, 1);
    cr_assert_eq(write_props(t, b, HUDI_WRITE_INSERT, zstd, NULL, &err), 0, "%s", err.message);
    hudi_batch_free(b);
    cr_assert_eq(base_codec(t), PQ_CODEC_ZSTD);

    /* a compaction with its own setting */
    b = wt_batch_range(&s, 0, 10, 2, P1, 1);
    cr_assert_eq(write_props(t, b, HUDI_WRITE_UPSERT, NULL, NULL, &err), 0, "%s", err.message);
    hudi_batch_free(b);
    cr_assert_eq(hudi_tbl_compact_schedule(t, NULL, instant, &err), 1, "%s", err.message);
    cr_assert_eq(hudi_tbl_compact_run_with(t, instant, bad, NULL, &err), HUDI_EUNSUPPORTED);
    cr_assert(strstr(err.message, "hoodie.parquet.compression.codec=lzo") != NULL, "%s",
              err.message);
    hudi_error_clear(&err);
    cr_assert_eq(hudi_tbl_compact_run_with(t, instant, snappy, NULL, &err), 1, "%s", err.message);
    cr_assert_eq(base_codec(t), PQ_CODEC_SNAPPY);

    /* none: gzip; then hoodie.properties' */
    b = wt_batch_range(&s, 0, 10, 3, P1, 1);
    cr_assert_eq(write_props(t, b, HUDI_WRITE_UPSERT, NULL, NULL, &err), 0, "%s", err.message);
    hudi_batch_free(b);
    cr_assert_eq(hudi_tbl_compact(t, NULL, NULL, &err), 1, "%s", err.message);
    cr_assert_eq(base_codec(t), PQ_CODEC_GZIP);
    cr_assert_eq(hudi_props_set(&t->props, "hoodie.parquet.compression.codec", "zstd", &err), 0);
    cr_assert_eq(hudi_props_store(&t->props, fs, base, NULL, &err), 0, "%s", err.message);
    b = wt_batch_range(&s, 0, 10, 4, P1, 1);
    cr_assert_eq(write_props(t, b, HUDI_WRITE_UPSERT, NULL, NULL, &err), 0, "%s", err.message);
    hudi_batch_free(b);
    cr_assert_eq(hudi_tbl_compact(t, NULL, NULL, &err), 1, "%s", err.message);
    cr_assert_eq(base_codec(t), PQ_CODEC_ZSTD);
    hudi_tbl_free(t);
    hudi_field_dispose(&s);
    hudi_fs_free(fs);
}
