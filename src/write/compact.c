/* compact.c - compaction of merge-on-read tables (docs/formats/timeline.md §12), scheduled and
 * run apart. Scheduling writes `<I>.compaction.requested` (Avro HoodieCompactionPlan): one
 * operation per file group whose latest slice has log files and that no pending plan holds.
 * Running reads a pending plan - hudic's or Hudi's - and merges each operation's base file and
 * log files, exactly those (the merged snapshot reader, read/read.h, given the slice), into a
 * new base file at the compaction instant: `<I>.compaction.inflight` (empty), the base files,
 * then `<I>.commit` (operationType COMPACT), the commit point. Until then readers merge the
 * pending compaction's slice with the one before (table/fs_view.c), so a failed run leaves the
 * table reading the same; running it again removes its partial files first. Meta columns are the
 * merged records' own (commit time, seqno, key, partition), the file name the new one. */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "base/pool.h"
#include "read/read.h"
#include "write/write_int.h"

/* ---- the record-key footer of a rewritten base file (compaction, clustering) ---------------- */

int hudi_key_footer_init(hudi_key_footer *f, const hudi_bloom_cfg *cfg, hudi_error *err) {
    return hudi_write_bloom_new(cfg, &f->bloom, err);
}

int hudi_key_footer_add(hudi_key_footer *f, const hudi_array *keys, int64_t n, hudi_error *err) {
    hudi_slice batch[256];
    size_t nb = 0;
    int rc = 0;
    for (int64_t i = 0; i < n && rc == 0; i++) {
        if (!hudi_array_is_valid(keys, i)) continue;
        hudi_slice k = wstr(keys, i);
        batch[nb++] = k;
        if (nb == HUDI_ARRAY_LEN(batch)) {
            if (f->bloom) rc = hudi_bloom_add_many(f->bloom, batch, nb, err);
            nb = 0;
        }
        int c = f->have ? memcmp(k.data, f->min.data, HUDI_MIN(k.len, f->min.len)) : -1;
        if (c < 0 || (c == 0 && k.len < f->min.len)) {
            hudi_buf_clear(&f->min);
            hudi_buf_append(&f->min, k.data, k.len);
        }
        c = f->have ? memcmp(k.data, f->max.data, HUDI_MIN(k.len, f->max.len)) : 1;
        if (c > 0 || (c == 0 && k.len > f->max.len)) {
            hudi_buf_clear(&f->max);
            hudi_buf_append(&f->max, k.data, k.len);
        }
        f->have = true;
    }
    if (rc == 0 && f->bloom) rc = hudi_bloom_add_many(f->bloom, batch, nb, err);
    if (rc == 0 && (hudi_buf_failed(&f->min) || hudi_buf_failed(&f->max))) rc = hudi_error_oom(err);
    return rc;
}

int hudi_key_footer_put(hudi_key_footer *f, hudi_pq_writer *w, hudi_error *err) {
    hudi_buf b64 = HUDI_BUF_INIT;
    int rc = hudi_bloom_to_base64(f->bloom, &b64, err);
    if (rc == 0)
        rc = hudi_pq_writer_add_kv(w, HUDI_BLOOM_TYPE_FOOTER_KEY,
                                   hudi_bloom_type_name(f->bloom->type), err);
    if (rc == 0) rc = hudi_pq_writer_add_kv(w, HUDI_BLOOM_FOOTER_KEY, b64.data, err);
    hudi_buf_dispose(&b64);
    if (rc == 0 && f->have) {
        hudi_buf_putc(&f->min, 0);
        hudi_buf_putc(&f->max, 0);
        rc = hudi_pq_writer_add_kv(w, "hoodie_min_record_key", f->min.data, err);
        if (rc == 0) rc = hudi_pq_writer_add_kv(w, "hoodie_max_record_key", f->max.data, err);
    }
    return rc;
}

void hudi_key_footer_dispose(hudi_key_footer *f) {
    hudi_bloom_free(f->bloom);
    hudi_buf_dispose(&f->min);
    hudi_buf_dispose(&f->max);
    *f = (hudi_key_footer)HUDI_KEY_FOOTER_INIT;
}

/* Hudi's HoodieCompactionPlan schema as Hudi writes it (field set of the 1.x files; 0.14/0.15
 * readers resolve the extra trailing field away). */
static const char *const compaction_plan_schema =
    "{\"type\":\"record\",\"name\":\"HoodieCompactionPlan\",\"namespace\":\"org.apache.hudi.avro."
    "model\",\"f"
    "ields\":[{\"name\":\"operations\",\"type\":[\"null\",{\"type\":\"array\",\"items\":{\"type\":"
    "\"record\",\"name"
    "\":\"HoodieCompactionOperation\",\"fields\":[{\"name\":\"baseInstantTime\",\"type\":[\"null\","
    "{\"type\":\""
    "string\",\"avro.java.string\":\"String\"}]},{\"name\":\"deltaFilePaths\",\"type\":[\"null\",{"
    "\"type\":\"ar"
    "ray\",\"items\":{\"type\":\"string\",\"avro.java.string\":\"String\"}}],\"default\":null},{"
    "\"name\":\"data"
    "FilePath\",\"type\":[\"null\",{\"type\":\"string\",\"avro.java.string\":\"String\"}],"
    "\"default\":null},{\""
    "name\":\"fileId\",\"type\":[\"null\",{\"type\":\"string\",\"avro.java.string\":\"String\"}]},{"
    "\"name\":\"par"
    "titionPath\",\"type\":[\"null\",{\"type\":\"string\",\"avro.java.string\":\"String\"}],"
    "\"default\":null},"
    "{\"name\":\"metrics\",\"type\":[\"null\",{\"type\":\"map\",\"values\":\"double\",\"avro.java."
    "string\":\"Strin"
    "g\"}],\"default\":null},{\"name\":\"bootstrapFilePath\",\"type\":[\"null\",{\"type\":"
    "\"string\",\"avro.jav"
    "a.string\":\"String\"}],\"default\":null}]}}],\"default\":null},{\"name\":\"extraMetadata\","
    "\"type\":[\""
    "null\",{\"type\":\"map\",\"values\":{\"type\":\"string\",\"avro.java.string\":\"String\"},"
    "\"avro.java.stri"
    "ng\":\"String\"}],\"default\":null},{\"name\":\"version\",\"type\":[\"int\",\"null\"],"
    "\"default\":1},{\"name"
    "\":\"strategy\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"HoodieCompactionStrategy\","
    "\"fields\":[{"
    "\"name\":\"compactorClassName\",\"type\":[\"null\",{\"type\":\"string\",\"avro.java.string\":"
    "\"String\"}],"
    "\"doc\":\"The class name that is provided here should extend CompactionExecutionStrategy abst"
    "ract class, idea is that the plan generator will also provide the execution strategy to us"
    "e.\",\"default\":null},{\"name\":\"strategyParams\",\"type\":[\"null\",{\"type\":\"map\","
    "\"values\":{\"type\""
    ":\"string\",\"avro.java.string\":\"String\"},\"avro.java.string\":\"String\"}],\"doc\":"
    "\"These paramete"
    "rs play a key role in determining which action type it is i.e. compaction or logcompaction"
    " and it will also include configs that determine how compaction needs to be executed.\",\"de"
    "fault\":null},{\"name\":\"version\",\"type\":[\"int\",\"null\"],\"default\":1}]}],\"default\":"
    "null},{\"nam"
    "e\":\"preserveHoodieMetadata\",\"type\":[\"boolean\",\"null\"],\"default\":false},{\"name\":"
    "\"missingSch"
    "edulePartitions\",\"type\":[\"null\",{\"type\":\"array\",\"items\":{\"type\":\"string\","
    "\"avro.java.string"
    "\":\"String\"}}],\"default\":null}]}";

typedef struct cop {
    hudi_file_slice s; /* the slice to compact: the view's (scheduling) or the plan's (running) */
    char *name, *rel_path;
    char token[HUDI_WRITE_TOKEN_MAX];
    int64_t rows, size_bytes, log_bytes;
} cop;

static hudi_avro_value *build_plan(hudi_arena *a, const cop *ops, size_t n) {
    hudi_avro_value *rec = hudi_av_coll(a, HUDI_AVRO_RECORD, 6);
    hudi_avro_value *arr = hudi_av_coll(a, HUDI_AVRO_ARRAY, n);
    hudi_avro_value *ver = hudi_av_long(a, HUDI_AVRO_INT, 2);
    hudi_avro_value *nul = hudi_av_new(a, HUDI_AVRO_NULL), *pres = hudi_av_bool(a, false);
    if (!rec || !arr || !ver || !nul || !pres) return NULL;
    for (size_t i = 0; i < n; i++) {
        const hudi_file_slice *s = &ops[i].s;
        hudi_avro_value *op = hudi_av_coll(a, HUDI_AVRO_RECORD, 7);
        hudi_avro_value *logs = hudi_av_coll(a, HUDI_AVRO_ARRAY, s->logs_count);
        /* Hudi's CompactionStrategy.captureMetrics: Hudi's compactor reads
         * TOTAL_LOG_FILES_SIZE back when it runs the plan (a missing one fails it) */
        hudi_avro_value *metrics = hudi_av_coll(a, HUDI_AVRO_MAP, 5);
        hudi_avro_value *bi = hudi_av_str(a, s->base_instant), *fid = hudi_av_str(a, s->file_id);
        hudi_avro_value *part = hudi_av_str(a, s->partition_path);
        hudi_avro_value *data = hudi_av_str(a, s->base ? s->base->name : NULL);
        if (!op || !logs || !metrics || !bi || !fid || !part || !data) return NULL;
        int64_t log_bytes = 0, base_bytes = s->base ? s->base->size_bytes : 0;
        for (size_t k = 0; k < s->logs_count; k++) log_bytes += s->logs[k].size_bytes;
        int64_t read_mb = (base_bytes + log_bytes) / (1024 * 1024);
        int64_t write_mb = (s->base ? base_bytes : WRITE_DEFAULT_TARGET_BYTES) / (1024 * 1024);
        static const char *const mk[] = {"TOTAL_IO_READ_MB", "TOTAL_IO_WRITE_MB", "TOTAL_IO_MB",
                                         "TOTAL_LOG_FILES_SIZE", "TOTAL_LOG_FILES"};
        const double mv[] = {(double)read_mb, (double)write_mb, (double)(read_mb + write_mb),
                             (double)log_bytes, (double)s->logs_count};
        for (size_t k = 0; k < 5; k++) {
            metrics->keys[k] = hudi_slice_cstr(mk[k]);
            metrics->items[k].type = HUDI_AVRO_DOUBLE;
            metrics->items[k].v.d = mv[k];
        }
        for (size_t k = 0; k < s->logs_count; k++) {
            hudi_avro_value *l = hudi_av_str(a, s->logs[k].name);
            if (!l) return NULL;
            logs->items[k] = *l;
        }
        hudi_avro_value *f[] = {bi, logs, data, fid, part, metrics, nul};
        for (size_t k = 0; k < 7; k++) op->items[k] = *f[k];
        arr->items[i] = *op;
    }
    hudi_avro_value *f[] = {arr, nul, ver, nul, pres, nul};
    for (size_t k = 0; k < 6; k++) rec->items[k] = *f[k];
    return rec;
}

int hudi_compaction_plan_encode(hudi_buf *out, const hudi_file_slice *slices, size_t n,
                                hudi_error *err) {
    hudi_arena a = HUDI_ARENA_INIT;
    cop *ops = hudi_calloc(n + 1, sizeof(cop));
    if (!ops) return hudi_error_oom(err);
    for (size_t i = 0; i < n; i++) ops[i].s = slices[i];
    int rc = hudi_av_container(out, compaction_plan_schema, build_plan(&a, ops, n), err);
    hudi_free(ops);
    hudi_arena_dispose(&a);
    return rc;
}

static int find_col(const hudi_field *st, const char *name) {
    for (int32_t i = 0; i < st->n_children; i++)
        if (st->children[i].name && strcmp(st->children[i].name, name) == 0) return i;
    return -1;
}

/* Adds keys[from..) to the filter, nulls left out. */
static int bloom_add_from(hudi_bloom *bf, const hudi_array *keys, int64_t from, hudi_error *err) {
    hudi_slice batch[256];
    size_t nb = 0;
    int rc = 0;
    for (int64_t i = from; i < keys->length && rc == 0; i++) {
        if (!hudi_array_is_valid(keys, i)) continue;
        batch[nb++] = wstr(keys, i);
        if (nb == HUDI_ARRAY_LEN(batch)) {
            rc = hudi_bloom_add_many(bf, batch, nb, err);
            nb = 0;
        }
    }
    return rc < 0 ? rc : hudi_bloom_add_many(bf, batch, nb, err);
}

/* The bloom filter of a compacted file whose record keys, in order, are `keys`. When the merge
 * dropped no base row, the first keys are the base file's own, in its order (the merged read
 * returns the base rows in place, then the log records no base row matched): if the base file's
 * filter is what hudic's filter of those keys would be (hudi_bloom_continues: same sizing, the
 * counts of that many keys), it is taken and only the new keys are hashed - the same bytes as
 * hashing every key (Hudi's writers add a file's keys in row order), without the K hashes of
 * every unchanged key. Anything else (rows dropped, null keys, no or another filter in the base
 * file `pf`, no base file or one whose footer did not open: pf NULL) hashes every key. */
static int compact_bloom(hudi_pq_file *pf, const hudi_read_stats *st, const hudi_array *keys,
                         const hudi_bloom_cfg *bc, hudi_key_footer *kf, hudi_error *err) {
    int64_t base_keys = keys->length - st->merge_rows_inserted;
    if (pf && st->merge_rows_dropped == 0 && keys->null_count == 0 && base_keys >= 0) {
        hudi_error e = HUDI_ERROR_INIT;
        hudi_bloom *bf = NULL;
        if (hudi_pq_num_rows(pf) == base_keys && hudi_bloom_from_footer(&bf, pf, &e) == 0 &&
            hudi_bloom_continues(bf, bc->type, bc->entries, bc->fpp, bc->max_entries, base_keys)) {
            kf->bloom = bf;
            bf = NULL;
        }
        hudi_bloom_free(bf);
        if (kf->bloom) return bloom_add_from(kf->bloom, keys, base_keys, err);
    }
    int rc = hudi_key_footer_init(kf, bc, err);
    return rc < 0 ? rc : bloom_add_from(kf->bloom, keys, 0, err);
}

/* Row groups of a base file up to this size (as its writer counted it: encoded, uncompressed)
 * and row count are merged as one batch each, so that the columns no log record changed can be
 * taken as stored (compact_one); larger ones are read in the reader's default batches and every
 * column is encoded. The row bound keeps a decoded batch within reach of the encoded one when
 * values repeat (dictionaries, runs): a column overflows an array's 2 GiB of bytes only with
 * values over 2 KiB on average, as 65,536-row batches would with values over 32 KiB. */
#define COMPACT_COPY_MAX_BYTES (256ll << 20)
#define COMPACT_COPY_MAX_ROWS (1ll << 20)

/* The batch size that reads each row group of base file `pf` as one batch, or 0 (the
 * default) when a row group is beyond the bounds above. */
static int64_t whole_row_group_rows(const hudi_pq_file *pf) {
    int64_t rows = 0;
    for (int32_t g = 0; pf && g < hudi_pq_num_row_groups(pf); g++) {
        int64_t bytes = hudi_pq_row_group_bytes(pf, g), n = hudi_pq_row_group_rows(pf, g);
        if (bytes < 0 || bytes > COMPACT_COPY_MAX_BYTES || n > COMPACT_COPY_MAX_ROWS) return 0;
        rows = HUDI_MAX(rows, n);
    }
    return rows;
}

/* Writes merged batch `b`: when it is a whole row group of base file `base` (hudi_reader_origin),
 * the columns whose values are the ones stored there (no log record changed them, read without
 * conversion) and that the writer can take as they are go into the new file byte for byte
 * (hudi_pq_writer_write_copying; never _hoodie_file_name, which names the new file); the rest
 * are encoded. `copy`: scratch of b's column count. */
static int write_merged(hudi_pq_writer *w, const hudi_batch *b, const hudi_reader *r,
                        const hudi_pq_file *base, int32_t name_col, bool *copy, hudi_error *err) {
    hudi_read_origin o;
    hudi_reader_origin(r, &o);
    int32_t n = 0;
    if (base && o.row_group >= 0 && o.first_row == 0 &&
        o.rows == hudi_pq_row_group_rows(base, o.row_group) && o.rows == b->num_rows &&
        strcmp(o.base_path, hudi_pq_path(base)) == 0) {
        for (int32_t j = 0; j < b->n_columns; j++) {
            /* the reader's columns are b's without _hoodie_file_name */
            copy[j] = j != name_col && o.as_stored[j - (j > name_col)] &&
                      hudi_pq_writer_can_copy(w, j, base, o.row_group);
            n += copy[j];
        }
    }
    if (n == 0) return hudi_pq_writer_write(w, b, err);
    return hudi_pq_writer_write_copying(w, b, base, o.row_group, copy, err);
}

/* Writes the merged records of op's slice (its base file and log files, read through the table's
 * latest schema as Hudi's compactor does) as the file group's new base file. `active`: the
 * compaction's tasks running now, of `threads`: while fewer run than there are threads (the
 * last file groups; a compaction of fewer groups than threads), the batches' columns are
 * encoded and compressed on a pool of this task's own (hudi_pq_writer_set_pool), so that
 * idle threads take part of the file group's writing. */
static int compact_one(hudi_table *t, const char *instant, cop *op, int32_t task,
                       const hudi_compact_cfg *cfg, const hudi_field *table_schema,
                       atomic_int *active, hudi_error *err) {
    int32_t threads = cfg->threads;
    const hudi_file_slice *s = &op->s;
    hudi_scan_options so = HUDI_SCAN_OPTIONS_INIT;
    const char **read_cols = NULL;
    hudi_reader *r = NULL;
    hudi_pq_writer *w = NULL;
    hudi_key_footer kf = HUDI_KEY_FOOTER_INIT;
    hudi_field schema = {0};
    hudi_buf json = HUDI_BUF_INIT, path = HUDI_BUF_INIT, name = HUDI_BUF_INIT, full = HUDI_BUF_INIT;
    hudi_array *names = NULL, **cols = NULL, *keys = NULL;
    bool *copy = NULL;
    hudi_pool *helpers = NULL;
    /* the base file's footer: its row count sizes the key copy, its filter may be reused
     * (compact_bloom); a footer that does not open leaves both to the keys */
    hudi_pq_file *base = NULL;
    hudi_error base_err = HUDI_ERROR_INIT;
    if (s->base && hudi_pq_open(&base, t->fs, s->base->path, NULL, &base_err) < 0) base = NULL;
    so.batch_rows = whole_row_group_rows(base);
    int rc = 0;
    if (hudi_field_copy(&schema, table_schema) < 0) goto oom;
    hudi_schema_record_fullname(&full, t->cfg.name);
    if (hudi_buf_failed(&full)) goto oom;
    hudi_free(schema.name);
    if (!(schema.name = hudi_strdup(full.data))) goto oom;
    int32_t key_col = find_col(&schema, hudi_meta_field_names[HUDI_META_RECORD_KEY]);
    int32_t name_col = find_col(&schema, hudi_meta_field_names[HUDI_META_FILE_NAME]);
    if (key_col < 0 || name_col < 0) {
        rc = hudi_error_set(err, HUDI_EUNSUPPORTED, "%s: compaction needs the meta columns",
                            t->base_path);
        goto done;
    }
    /* Every column but _hoodie_file_name, which names the new file whatever the old rows held:
     * its values are neither decoded nor merged. */
    if (!(read_cols = hudi_calloc((size_t)schema.n_children, sizeof(char *)))) goto oom;
    for (int32_t j = 0, k = 0; j < schema.n_children; j++)
        if (j != name_col) read_cols[k++] = schema.children[j].name;
    so.columns = read_cols;
    so.n_columns = schema.n_children - 1;
    if ((rc = hudi_reader_open(&r, t, &so, err)) < 0 ||
        (rc = hudi_reader_only_slice(r, s, err)) < 0 ||
        /* one slice, read in this task: the compaction's threads are its tasks */
        (rc = hudi_reader_set_threads(r, 1, NULL, err)) < 0 ||
        (rc = hudi_reader_want_origin(r, err)) < 0)
        goto done;
    if (hudi_reader_schema(r)->n_children != schema.n_children - 1) {
        rc = hudi_error_set(err, HUDI_EINVAL, "%s: the slice's read has another schema",
                            t->base_path);
        goto done;
    }
    int32_t read_key = key_col - (key_col > name_col);
    hudi_write_token_format(op->token, (uint64_t)task, 0, (uint64_t)task);
    if ((rc = hudi_base_file_name_format(&name, s->file_id, op->token, instant, "parquet", err)) <
        0)
        goto done;
    hudi_buf rel = HUDI_BUF_INIT;
    if (*s->partition_path) hudi_buf_printf(&rel, "%s/", s->partition_path);
    hudi_buf_puts(&rel, name.data);
    hudi_buf_printf(&path, "%s/%s", t->base_path, rel.data ? rel.data : "");
    op->rel_path = hudi_buf_detach(&rel);
    hudi_buf_dispose(&rel);
    if (hudi_buf_failed(&path) || !op->rel_path || !(op->name = hudi_buf_detach(&name))) goto oom;
    if ((rc = hudi_schema_write_avro(&json, &schema, HUDI_AVRO_STYLE_HUDI, err)) < 0) goto done;
    hudi_pq_write_options wo = HUDI_PQ_WRITE_OPTIONS_INIT;
    wo.codec = cfg->codec;
    wo.legacy_list_format = true;
    wo.decimal_as_fixed = true;
    wo.row_group_bytes = WRITE_DEFAULT_TARGET_BYTES;
    if ((rc = hudi_pq_writer_open(&w, t->fs, path.data, &schema, &wo, err)) < 0 ||
        (rc = hudi_pq_writer_add_kv(w, "parquet.avro.schema", json.data, err)) < 0 ||
        (rc = hudi_pq_writer_add_kv(w, "writer.model.name", "avro", err)) < 0)
        goto done;
    /* Each merged batch is written as the reader returns it (its arrays borrowed, nothing
     * copied) but for _hoodie_file_name, which names the new file. */
    if (!(cols = hudi_calloc((size_t)schema.n_children + 1, sizeof(hudi_array *))) ||
        !(copy = hudi_calloc((size_t)schema.n_children + 1, sizeof(bool))) ||
        (rc = hudi_array_new(&names, &schema.children[name_col], err)) < 0 ||
        (rc = hudi_array_new(&keys, &schema.children[key_col], err)) < 0)
        goto oom;
    size_t name_len = strlen(op->name);
    for (;;) {
        hudi_batch *in = NULL;
        if ((rc = hudi_reader_next(r, &in, err)) < 0) goto done;
        if (!in) break;
        if (in->num_rows == 0) continue;
        hudi_array_clear(names);
        if ((rc = hudi_array_reserve(names, in->num_rows, err)) < 0 ||
            (rc = hudi_array_reserve_data(names, in->num_rows * (int64_t)name_len, err)) < 0)
            goto done;
        for (int64_t i = 0; i < in->num_rows && rc == 0; i++)
            rc = hudi_array_append_bytes(names, op->name, name_len, err);
        for (int32_t j = 0; j < schema.n_children; j++)
            cols[j] = j == name_col ? names : in->columns[j - (j > name_col)];
        /* the key range now; the keys kept for the bloom filter (compact_bloom) */
        if (rc == 0) rc = hudi_key_footer_add(&kf, in->columns[read_key], in->num_rows, err);
        const hudi_array *kc = in->columns[read_key];
        if (rc == 0 && keys->length == 0 && base && kc->offsets && in->num_rows > 0) {
            /* all the base file's keys at this batch's bytes per key, and 1/16 more */
            int64_t rows = hudi_pq_num_rows(base) + in->num_rows;
            int64_t bytes =
                rows * ((kc->offsets[in->num_rows] - kc->offsets[0]) / in->num_rows + 1);
            bytes = HUDI_MIN(bytes + bytes / 16, (int64_t)INT32_MAX);
            if ((rc = hudi_array_reserve(keys, rows, err)) == 0)
                rc = hudi_array_reserve_data(keys, bytes, err);
        }
        if (rc == 0) rc = hudi_array_append_range(keys, kc, 0, in->num_rows, err);
        if (rc < 0) goto done;
        hudi_batch view = {&schema, in->num_rows, schema.n_children, cols};
        op->rows += in->num_rows;
        bool help = threads > 1 && atomic_load(active) < threads;
        if (help && !helpers && (rc = hudi_pool_new(&helpers, threads, err)) < 0) goto done;
        if ((rc = hudi_pq_writer_set_pool(w, help ? helpers : NULL, err)) < 0 ||
            (rc = write_merged(w, &view, r, base, name_col, copy, err)) < 0)
            goto done;
    }
    hudi_bloom_cfg bc;
    rc = hudi_write_bloom_cfg(t, &bc, err);
    if (rc == 0) rc = compact_bloom(base, hudi_reader_stats(r), keys, &bc, &kf, err);
    if (rc == 0) rc = hudi_key_footer_put(&kf, w, err);
    if (rc < 0) goto done;
    hudi_pq_writer *cw = w;
    w = NULL;
    rc = hudi_pq_writer_close(cw, &op->size_bytes, err);
    goto done;
oom:
    rc = hudi_error_oom(err);
done:
    hudi_pq_writer_abort(w);
    hudi_pool_free(helpers);
    hudi_pq_close(base);
    hudi_array_free(names);
    hudi_array_free(keys);
    hudi_free(cols);
    hudi_free(copy);
    hudi_free(read_cols);
    hudi_key_footer_dispose(&kf);
    hudi_reader_free(r);
    hudi_field_dispose(&schema);
    hudi_buf_dispose(&json);
    hudi_buf_dispose(&path);
    hudi_buf_dispose(&name);
    hudi_buf_dispose(&full);
    return rc;
}

typedef struct compact_job {
    hudi_table *t;
    const char *instant;
    cop *ops;
    hudi_compact_cfg cfg;
    atomic_int active;       /* tasks running */
    hudi_field table_schema; /* the rows as every slice is read (the table's latest) */
} compact_job;

static int compact_task(void *payload, int64_t i, hudi_error *err) {
    compact_job *j = payload;
    atomic_fetch_add(&j->active, 1);
    int rc = compact_one(j->t, j->instant, &j->ops[i], (int32_t)i, &j->cfg, &j->table_schema,
                         &j->active, err);
    atomic_fetch_sub(&j->active, 1);
    return rc;
}

/* Runs the operations on a thread pool, one task per operation (docs/ARCHITECTURE.md
 * "Compaction"): each task writes its own op (new file name, write token from the operation's
 * index, row count, size), so the files and the commit metadata, built from the ops in plan
 * order afterwards, are the same whatever the thread count. Threads: `threads` (the caller's
 * hoodie.hudic.parallelism, compaction_threads): at most that many operations at once, and
 * while fewer run (the last ones, or fewer operations than threads) each one's column writing
 * takes the idle threads too (compact_one); one thread on a storage backend other than the
 * local file system (fault injection fails the Nth storage call, and the crash tests replay
 * every N, which needs the calls in one order). */
static int compact_all(hudi_table *t, const char *instant, cop *ops, size_t n,
                       const hudi_compact_cfg *cfg, hudi_error *err) {
    int rc;
    compact_job job = {t, instant, ops, *cfg, 0, {0}};
    if (strcmp(t->fs->ops->name, "local") != 0) job.cfg.threads = 1;
    hudi_scan_options so = HUDI_SCAN_OPTIONS_INIT;
    if ((rc = hudi_read_table_schema(&job.table_schema, t, &so, err)) < 0) return rc;
    int32_t threads = job.cfg.threads;
    hudi_pool *pool = NULL;
    int32_t tasks_at_once = (int64_t)n < threads ? (int32_t)n : threads;
    if (tasks_at_once > 1) rc = hudi_pool_new(&pool, tasks_at_once, err);
    if (rc == 0) rc = hudi_pool_run(pool, (int64_t)n, compact_task, &job, err);
    hudi_pool_free(pool);
    hudi_field_dispose(&job.table_schema);
    return rc;
}

static int complete(hudi_table *t, const char *instant, const cop *ops, size_t n, hudi_error *err) {
    hudi_commit_metadata *md = NULL;
    hudi_buf body = HUDI_BUF_INIT;
    int rc = hudi_commit_metadata_new(&md, err);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const cop *op = &ops[i];
        hudi_write_stat st = {0};
        st.file_id = op->s.file_id;
        st.path = op->rel_path;
        st.prev_commit = op->s.base_instant;
        st.num_writes = op->rows;
        st.num_update_writes = op->rows;
        st.total_write_bytes = op->size_bytes;
        st.file_size_bytes = op->size_bytes;
        st.partition_path = op->s.partition_path;
        st.total_log_files_compacted = (int64_t)op->s.logs_count;
        st.total_log_size_compacted = op->log_bytes;
        st.total_updated_records_compacted = op->rows;
        rc = hudi_commit_metadata_add_write_stat(md, NULL, &st, err);
    }
    if (rc == 0) rc = hudi_commit_metadata_set_operation(md, "COMPACT", err);
    if (rc == 0) rc = hudi_commit_metadata_write(md, &body, err);
    if (rc == 0)
        rc =
            hudi_timeline_write_instant(t->timeline, instant, HUDI_ACTION_COMMIT,
                                        HUDI_STATE_COMPLETED, HUDI_SLICE(body.data, body.len), err);
    hudi_commit_metadata_free(md);
    hudi_buf_dispose(&body);
    return rc;
}

static void free_ops(cop *ops, size_t n) {
    for (size_t i = 0; ops && i < n; i++) {
        hudi_free(ops[i].name);
        hudi_free(ops[i].rel_path);
    }
    hudi_free(ops);
}

/* A deltacommit that has not completed (its logs would be planned, but their blocks are not
 * committed): Hudi refuses to schedule a compaction before it too. */
static int check_no_pending_writes(hudi_table *t, hudi_error *err) {
    for (size_t i = 0; i < t->timeline->count; i++) {
        const hudi_instant *in = &t->timeline->instants[i];
        if (in->action != HUDI_ACTION_DELTACOMMIT || in->state == HUDI_STATE_COMPLETED ||
            hudi_timeline_is_committed(t->timeline, in->time))
            continue;
        return hudi_error_set(err, HUDI_ECONFLICT,
                              "%s: deltacommit %s is pending: roll it back or let it finish "
                              "before compacting",
                              t->base_path, in->time);
    }
    return 0;
}

/* Schedules: every file group whose latest slice has log files and that no pending compaction
 * holds becomes one operation of a plan written as `<I>.compaction.requested`. */
static int schedule_locked(hudi_table *t, const hudi_clock *clock, char instant_out[32],
                           hudi_error *err) {
    hudi_fs_view *v = NULL;
    cop *ops = NULL;
    size_t n_ops = 0, n = 0;
    hudi_buf body = HUDI_BUF_INIT;
    hudi_arena a = HUDI_ARENA_INIT;
    char instant[HUDI_INSTANT_TIME_MAX];
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    int rc = check_no_pending_writes(t, err);
    if (rc == 0) rc = hudi_fs_view_build(&v, t->timeline, &vo, err);
    if (rc < 0) goto done;
    const hudi_file_slice *slices = hudi_fs_view_latest_slices(v, &n);
    if (!(ops = hudi_calloc(n + 1, sizeof(cop)))) {
        rc = hudi_error_oom(err);
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        if (slices[i].logs_count > 0 && !slices[i].pending_compaction) ops[n_ops++].s = slices[i];
    if (n_ops == 0) goto done;
    if ((rc = hudi_instant_time_new(instant, clock, t->cfg.timeline_utc,
                                    hudi_timeline_last_time(t->timeline), err)) < 0 ||
        (rc = hudi_av_container(&body, compaction_plan_schema, build_plan(&a, ops, n_ops), err)) <
            0 ||
        (rc = hudi_timeline_write_instant(t->timeline, instant, HUDI_ACTION_COMPACTION,
                                          HUDI_STATE_REQUESTED, HUDI_SLICE(body.data, body.len),
                                          err)) < 0)
        goto done;
    if (instant_out) snprintf(instant_out, 32, "%s", instant);
done:
    hudi_free(ops);
    hudi_fs_view_free(v);
    hudi_buf_dispose(&body);
    hudi_arena_dispose(&a);
    return rc < 0 ? rc : (int)n_ops;
}

/* The slice of plan operation `po` from the listing of its partition: the plan's base file and
 * log files, which must all exist. Strings live in `a`. */
static int slice_of_op(hudi_table *t, const char *instant, const hudi_compaction_op *po,
                       const hudi_dir_listing *l, hudi_arena *a, cop *op, hudi_error *err) {
    hudi_file_slice *s = &op->s;
    memset(s, 0, sizeof(*s));
    s->partition_path = po->partition_path;
    s->file_id = po->file_id;
    s->base_instant = po->base_instant;
    hudi_log_file *logs = hudi_arena_alloc(a, (po->log_count + 1) * sizeof(*logs));
    hudi_base_file *bf = hudi_arena_alloc(a, sizeof(*bf));
    hudi_buf p = HUDI_BUF_INIT;
    if (!logs || !bf) return hudi_error_oom(err);
    const char *want[1 + 64], **names = want;
    size_t nn = 1 + po->log_count;
    if (nn > 65 && !(names = hudi_arena_alloc(a, nn * sizeof(char *)))) return hudi_error_oom(err);
    names[0] = po->data_file;
    for (size_t k = 0; k < po->log_count; k++) names[1 + k] = po->log_files[k];
    for (size_t k = 0; k < nn; k++) {
        if (!names[k]) continue;
        const hudi_dirent *d = NULL;
        for (size_t j = 0; j < l->count && !d; j++)
            if (!l->entries[j].is_dir && strcmp(l->entries[j].name, names[k]) == 0)
                d = &l->entries[j];
        hudi_buf_clear(&p);
        hudi_buf_printf(&p, "%s/%s%s%s", t->base_path, po->partition_path,
                        *po->partition_path ? "/" : "", names[k]);
        if (hudi_buf_failed(&p)) return hudi_error_oom(err);
        if (!d) {
            int rc = hudi_error_set(err, HUDI_ENOTFOUND,
                                    "%s: compaction %s: file %s of its plan is missing", p.data,
                                    instant, names[k]);
            hudi_buf_dispose(&p);
            return rc;
        }
        char *path = hudi_arena_strdup(a, p.data);
        if (!path) return hudi_error_oom(err);
        if (k == 0) {
            hudi_base_file_name bn;
            if (!hudi_base_file_name_parse(&bn, names[0])) {
                hudi_buf_dispose(&p);
                return hudi_error_set(err, HUDI_ECORRUPT, "%s: compaction %s: not a base file",
                                      path, instant);
            }
            *bf = (hudi_base_file){names[0], path, "", bn.format, d->size_bytes};
            s->base = bf;
            continue;
        }
        hudi_log_file_name ln;
        if (!hudi_log_file_name_parse(&ln, names[k])) {
            hudi_buf_dispose(&p);
            return hudi_error_set(err, HUDI_ECORRUPT, "%s: compaction %s: not a log file", path,
                                  instant);
        }
        hudi_log_file *lf = &logs[s->logs_count++];
        *lf = (hudi_log_file){
            names[k],
            path,
            hudi_arena_strndup(a, (const char *)ln.instant.data, ln.instant.len),
            hudi_arena_strndup(a, (const char *)ln.write_token.data, ln.write_token.len),
            ln.version,
            d->size_bytes};
        if (!lf->instant || !lf->write_token) return hudi_error_oom(err);
        op->log_bytes += d->size_bytes;
    }
    hudi_buf_dispose(&p);
    s->logs = logs;
    return 0;
}

/* Removes the base files a failed run of compaction `instant` wrote for the plan's file groups
 * (`<fileId>_<token>_<instant>.<ext>`: never visible while the compaction is pending). */
static int remove_partial(hudi_table *t, const char *instant, const hudi_compaction_op *po,
                          const hudi_dir_listing *l, hudi_error *err) {
    hudi_buf p = HUDI_BUF_INIT;
    int rc = 0;
    for (size_t j = 0; rc == 0 && j < l->count; j++) {
        hudi_base_file_name bn;
        const char *name = l->entries[j].name;
        if (l->entries[j].is_dir || !hudi_base_file_name_parse(&bn, name) ||
            bn.instant.len != strlen(instant) || memcmp(bn.instant.data, instant, bn.instant.len) ||
            bn.file_id.len != strlen(po->file_id) ||
            memcmp(bn.file_id.data, po->file_id, bn.file_id.len))
            continue;
        hudi_buf_clear(&p);
        hudi_buf_printf(&p, "%s/%s%s%s", t->base_path, po->partition_path,
                        *po->partition_path ? "/" : "", name);
        rc = hudi_buf_failed(&p) ? hudi_error_oom(err) : hudi_fs_remove(t->fs, p.data, err);
    }
    hudi_buf_dispose(&p);
    return rc;
}

/* Executes pending compaction `instant` by its plan's operations: each operation's base file
 * and log files are merged into a new base file named with the instant; then the commit. An
 * inflight compaction (a failed run) is run again after its partial files are removed. */
static int run_locked(hudi_table *t, const char *instant, const hudi_compact_cfg *cfg,
                      hudi_error *err) {
    const hudi_instant *in = NULL;
    int rc = hudi_timeline_find(&in, t->timeline, instant, err);
    if (rc < 0) return rc;
    if (!hudi_compaction_is_pending(t->timeline, instant))
        return hudi_error_set(err, HUDI_EINVAL, "%s: instant %s is not a pending compaction",
                              t->base_path, instant);
    bool inflight = in->state == HUDI_STATE_INFLIGHT;
    char time[HUDI_INSTANT_TIME_MAX];
    snprintf(time, sizeof(time), "%s", instant);
    hudi_compaction_plan plan;
    if ((rc = hudi_compaction_plan_read(&plan, t->timeline, time, err)) < 0) return rc;
    hudi_arena a = HUDI_ARENA_INIT;
    hudi_dir_listing l = {NULL, 0};
    hudi_buf dir = HUDI_BUF_INIT;
    const char *listed = NULL;
    size_t n = plan.count;
    cop *ops = hudi_calloc(n + 1, sizeof(cop));
    size_t *order = hudi_calloc(n + 1, sizeof(size_t));
    if (!ops || !order) {
        rc = hudi_error_oom(err);
        goto done;
    }
    /* operations by partition, so each partition is listed once */
    for (size_t i = 0; i < n; i++) {
        size_t k = i;
        while (k > 0 &&
               strcmp(plan.ops[order[k - 1]].partition_path, plan.ops[i].partition_path) > 0) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = i;
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const hudi_compaction_op *po = &plan.ops[order[i]];
        if (!listed || strcmp(listed, po->partition_path) != 0) {
            hudi_dir_listing_dispose(&l);
            hudi_buf_clear(&dir);
            hudi_buf_printf(&dir, "%s%s%s", t->base_path, *po->partition_path ? "/" : "",
                            po->partition_path);
            if (hudi_buf_failed(&dir)) {
                rc = hudi_error_oom(err);
                break;
            }
            if ((rc = hudi_fs_list(t->fs, dir.data, &l, err)) < 0) break;
            listed = po->partition_path;
        }
        rc = remove_partial(t, time, po, &l, err);
        if (rc == 0) rc = slice_of_op(t, time, po, &l, &a, &ops[i], err);
    }
    if (rc == 0 && !inflight)
        rc = hudi_timeline_write_instant(t->timeline, time, HUDI_ACTION_COMPACTION,
                                         HUDI_STATE_INFLIGHT, HUDI_SLICE("", 0), err);
    if (rc == 0) rc = compact_all(t, time, ops, n, cfg, err);
    if (rc == 0) rc = complete(t, time, ops, n, err);
done:
    free_ops(ops, n);
    hudi_free(order);
    hudi_dir_listing_dispose(&l);
    hudi_buf_dispose(&dir);
    hudi_arena_dispose(&a);
    hudi_compaction_plan_dispose(&plan);
    return rc < 0 ? rc : (int)n;
}

/* The oldest pending compaction's instant, or false. */
static bool oldest_pending(const hudi_table *t, char out[HUDI_INSTANT_TIME_MAX]) {
    for (size_t i = 0; i < t->timeline->count; i++) {
        const hudi_instant *in = &t->timeline->instants[i];
        if (in->action == HUDI_ACTION_COMPACTION &&
            hudi_compaction_is_pending(t->timeline, in->time)) {
            snprintf(out, HUDI_INSTANT_TIME_MAX, "%s", in->time);
            return true;
        }
    }
    return false;
}

typedef enum { DO_SCHEDULE, DO_RUN, DO_BOTH } compact_what;

/* The settings of a compaction (docs/CLI.md "Threads"), hudi_props_setting: `settings` (key/value
 * pairs, NULL-terminated; the last of a key wins, as a write's props), else hoodie.properties:
 * hoodie.hudic.parallelism (hudi_pool_parse_threads; absent = the default) and
 * hoodie.parquet.compression.codec (absent = gzip, Hudi 0.14/0.15's default). */
static int compact_settings(const hudi_table *t, const char *const *settings, hudi_compact_cfg *out,
                            hudi_error *err) {
    const char *v = hudi_props_setting(&t->props, settings, "hoodie.hudic.parallelism");
    out->threads = hudi_pool_default_threads();
    out->codec = HUDI_PQ_CODEC_GZIP;
    int rc = v ? hudi_pool_parse_threads("hoodie.hudic.parallelism", v, &out->threads, err) : 0;
    if (rc == 0 &&
        (v = hudi_props_setting(&t->props, settings, "hoodie.parquet.compression.codec")))
        rc = hudi_write_codec_parse(v, &out->codec, err);
    if (rc < 0) hudi_error_wrap(err, "%s", t->base_path); /* (returns 0 when err is NULL) */
    return rc;
}

static int compact_locked(hudi_table *t, compact_what what, const hudi_clock *clock,
                          const char *instant, const hudi_compact_cfg *cfg, char instant_out[32],
                          hudi_error *err) {
    char time[HUDI_INSTANT_TIME_MAX];
    int rc = 0, total = 0;
    switch (what) {
    case DO_SCHEDULE: return schedule_locked(t, clock, instant_out, err);
    case DO_RUN:
        if (instant) {
            rc = run_locked(t, instant, cfg, err);
            if (rc >= 0 && instant_out) snprintf(instant_out, 32, "%s", instant);
            return rc;
        }
        /* every pending compaction, oldest first */
        while (rc >= 0 && oldest_pending(t, time)) {
            if ((rc = run_locked(t, time, cfg, err)) >= 0) {
                total += rc;
                if (instant_out) snprintf(instant_out, 32, "%s", time);
            }
        }
        return rc < 0 ? rc : total;
    case DO_BOTH:
        if ((rc = compact_locked(t, DO_RUN, clock, NULL, cfg, instant_out, err)) < 0) return rc;
        total = rc;
        if ((rc = schedule_locked(t, clock, time, err)) <= 0) return rc < 0 ? rc : total;
        if ((rc = run_locked(t, time, cfg, err)) < 0) return rc;
        if (instant_out) snprintf(instant_out, 32, "%s", time);
        return total + rc;
    }
    return 0;
}

static int with_lock(hudi_table *t, compact_what what, const hudi_clock *clock, const char *instant,
                     const char *const *settings, char instant_out[32], hudi_error *err) {
    hudi_txn_config tc;
    hudi_table_lock *lock = NULL;
    if (instant_out) instant_out[0] = 0;
    if (t->cfg.type != HUDI_MERGE_ON_READ)
        return hudi_error_set(err, HUDI_EINVAL, "%s: compaction needs a merge-on-read table",
                              t->base_path);
    if (instant && !hudi_instant_time_valid(instant, strlen(instant)))
        return hudi_error_set(err, HUDI_EINVAL, "%s: '%s' is not an instant time", t->base_path,
                              instant);
    hudi_compact_cfg cfg;
    int rc = compact_settings(t, settings, &cfg, err);
    if (rc < 0) return rc;
    if ((rc = hudi_txn_config_load(&tc, t, NULL, err)) < 0) return rc;
    if ((rc = hudi_table_lock_acquire(&lock, t, &tc, err)) == 0 &&
        (rc = hudi_tbl_reload(t, err)) == 0)
        rc = compact_locked(t, what, clock, instant, &cfg, instant_out, err);
    hudi_table_lock_release(lock);
    hudi_txn_config_dispose(&tc);
    return rc;
}

int hudi_tbl_compact(hudi_table *t, const hudi_clock *clock, char instant_out[32],
                     hudi_error *err) {
    return with_lock(t, DO_BOTH, clock, NULL, NULL, instant_out, err);
}

int hudi_tbl_compact_schedule(hudi_table *t, const hudi_clock *clock, char instant_out[32],
                              hudi_error *err) {
    return with_lock(t, DO_SCHEDULE, clock, NULL, NULL, instant_out, err);
}

int hudi_tbl_compact_run(hudi_table *t, const char *instant, char instant_out[32],
                         hudi_error *err) {
    return with_lock(t, DO_RUN, NULL, instant, NULL, instant_out, err);
}

int hudi_tbl_compact_run_with(hudi_table *t, const char *instant, const char *const *settings,
                              char instant_out[32], hudi_error *err) {
    return with_lock(t, DO_RUN, NULL, instant, settings, instant_out, err);
}

int hudi_tbl_compact_locked(hudi_table *t, const hudi_clock *clock, const hudi_compact_cfg *cfg,
                            char instant_out[32], hudi_error *err) {
    return compact_locked(t, DO_BOTH, clock, NULL, cfg, instant_out, err);
}
