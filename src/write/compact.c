/* compact.c - compaction of merge-on-read tables (docs/formats/timeline.md): every file group
 * whose latest slice has log files gets a new base file holding its merged records (the merged
 * snapshot reader, read/read.h, restricted to the file group), written at the compaction instant.
 * Timeline: `<I>.compaction.requested` (Avro HoodieCompactionPlan), `<I>.compaction.inflight`
 * (empty), then `<I>.commit` (commit metadata, operationType COMPACT): the commit point. Until
 * then readers merge the pending compaction's slice as before (table/fs_view.c), so a failed
 * compaction leaves the table reading the same; its files are removed by rerunning. Meta columns
 * are the merged records' own (commit time, seqno, key, partition), the file name the new one. */
#include <stdio.h>
#include <string.h>

#include "read/read.h"
#include "write/write_int.h"

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
    const hudi_file_slice *s;
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
        const hudi_file_slice *s = ops[i].s;
        hudi_avro_value *op = hudi_av_coll(a, HUDI_AVRO_RECORD, 7);
        hudi_avro_value *logs = hudi_av_coll(a, HUDI_AVRO_ARRAY, s->logs_count);
        hudi_avro_value *metrics = hudi_av_coll(a, HUDI_AVRO_MAP, 0);
        hudi_avro_value *bi = hudi_av_str(a, s->base_instant), *fid = hudi_av_str(a, s->file_id);
        hudi_avro_value *part = hudi_av_str(a, s->partition_path);
        hudi_avro_value *data = hudi_av_str(a, s->base ? s->base->name : NULL);
        if (!op || !logs || !metrics || !bi || !fid || !part || !data) return NULL;
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
    for (size_t i = 0; i < n; i++) ops[i].s = &slices[i];
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

/* Writes the merged records of op's file group as its new base file. */
static int compact_one(hudi_table *t, const char *instant, const char *as_of, cop *op, int32_t task,
                       hudi_error *err) {
    const hudi_file_slice *s = op->s;
    hudi_scan_options so = HUDI_SCAN_OPTIONS_INIT;
    so.as_of_instant = as_of;
    hudi_reader *r = NULL;
    hudi_pq_writer *w = NULL;
    hudi_bloom *bf = NULL;
    hudi_field schema = {0};
    hudi_buf json = HUDI_BUF_INIT, path = HUDI_BUF_INIT, name = HUDI_BUF_INIT, full = HUDI_BUF_INIT;
    hudi_buf min_key = HUDI_BUF_INIT, max_key = HUDI_BUF_INIT;
    bool have_key = false;
    hudi_batch *b = NULL;
    int rc = hudi_reader_open(&r, t, &so, err);
    if (rc == 0) rc = hudi_reader_only_file_group(r, s->partition_path, s->file_id, err);
    if (rc < 0) goto done;
    if (hudi_field_copy(&schema, hudi_reader_schema(r)) < 0) goto oom;
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
    wo.legacy_list_format = true;
    wo.decimal_as_fixed = true;
    wo.row_group_bytes = WRITE_DEFAULT_TARGET_BYTES;
    if ((rc = hudi_pq_writer_open(&w, t->fs, path.data, &schema, &wo, err)) < 0 ||
        (rc = hudi_pq_writer_add_kv(w, "parquet.avro.schema", json.data, err)) < 0 ||
        (rc = hudi_pq_writer_add_kv(w, "writer.model.name", "avro", err)) < 0 ||
        (rc = hudi_bloom_new(&bf, HUDI_BLOOM_DYNAMIC_V0, HUDI_BLOOM_DEFAULT_ENTRIES,
                             HUDI_BLOOM_DEFAULT_FPP, HUDI_BLOOM_DEFAULT_MAX_ENTRIES, err)) < 0)
        goto done;
    for (;;) {
        hudi_batch *in = NULL;
        if ((rc = hudi_reader_next(r, &in, err)) < 0) goto done;
        if (!in) break;
        if (in->num_rows == 0) continue;
        hudi_batch_free(b);
        b = NULL;
        if ((rc = hudi_batch_new(&b, &schema, err)) < 0) goto done;
        for (int32_t j = 0; j < schema.n_children && rc == 0; j++) {
            if (j == name_col) {
                for (int64_t i = 0; i < in->num_rows && rc == 0; i++)
                    rc = hudi_array_append_bytes(b->columns[j], op->name, strlen(op->name), err);
            } else {
                rc = hudi_array_append_range(b->columns[j], in->columns[j], 0, in->num_rows, err);
            }
        }
        const hudi_array *keys = in->columns[key_col];
        for (int64_t i = 0; i < in->num_rows && rc == 0; i++) {
            if (!hudi_array_is_valid(keys, i)) continue;
            hudi_slice k = wstr(keys, i);
            rc = hudi_bloom_add(bf, k.data, k.len, err);
            int c = have_key ? memcmp(k.data, min_key.data, HUDI_MIN(k.len, min_key.len)) : -1;
            if (c < 0 || (c == 0 && k.len < min_key.len)) {
                hudi_buf_clear(&min_key);
                hudi_buf_append(&min_key, k.data, k.len);
            }
            c = have_key ? memcmp(k.data, max_key.data, HUDI_MIN(k.len, max_key.len)) : 1;
            if (c > 0 || (c == 0 && k.len > max_key.len)) {
                hudi_buf_clear(&max_key);
                hudi_buf_append(&max_key, k.data, k.len);
            }
            have_key = true;
        }
        if (rc < 0) goto done;
        b->num_rows = in->num_rows;
        op->rows += in->num_rows;
        if ((rc = hudi_pq_writer_write(w, b, err)) < 0) goto done;
    }
    hudi_buf b64 = HUDI_BUF_INIT;
    rc = hudi_bloom_to_base64(bf, &b64, err);
    if (rc == 0)
        rc = hudi_pq_writer_add_kv(w, HUDI_BLOOM_TYPE_FOOTER_KEY, hudi_bloom_type_name(bf->type),
                                   err);
    if (rc == 0) rc = hudi_pq_writer_add_kv(w, HUDI_BLOOM_FOOTER_KEY, b64.data, err);
    hudi_buf_dispose(&b64);
    if (rc == 0 && have_key) {
        hudi_buf_putc(&min_key, 0);
        hudi_buf_putc(&max_key, 0);
        rc = hudi_pq_writer_add_kv(w, "hoodie_min_record_key", min_key.data, err);
        if (rc == 0) rc = hudi_pq_writer_add_kv(w, "hoodie_max_record_key", max_key.data, err);
    }
    if (rc < 0) goto done;
    hudi_pq_writer *cw = w;
    w = NULL;
    rc = hudi_pq_writer_close(cw, &op->size_bytes, err);
    goto done;
oom:
    rc = hudi_error_oom(err);
done:
    hudi_pq_writer_abort(w);
    hudi_batch_free(b);
    hudi_bloom_free(bf);
    hudi_reader_free(r);
    hudi_field_dispose(&schema);
    hudi_buf_dispose(&json);
    hudi_buf_dispose(&path);
    hudi_buf_dispose(&name);
    hudi_buf_dispose(&full);
    hudi_buf_dispose(&min_key);
    hudi_buf_dispose(&max_key);
    return rc;
}

static int complete(hudi_table *t, const char *instant, const cop *ops, size_t n, hudi_error *err) {
    hudi_commit_metadata *md = NULL;
    hudi_buf body = HUDI_BUF_INIT;
    int rc = hudi_commit_metadata_new(&md, err);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const cop *op = &ops[i];
        hudi_write_stat st = {0};
        st.file_id = op->s->file_id;
        st.path = op->rel_path;
        st.prev_commit = op->s->base_instant;
        st.num_writes = op->rows;
        st.num_update_writes = op->rows;
        st.total_write_bytes = op->size_bytes;
        st.file_size_bytes = op->size_bytes;
        st.partition_path = op->s->partition_path;
        st.total_log_files_compacted = (int64_t)op->s->logs_count;
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

/* A pending compaction left by a failed run: its instant files and the base files it wrote
 * (named by its instant) are removed, so the rerun plans again. */
static int drop_pending(hudi_table *t, const hudi_fs_view *v, hudi_error *err) {
    (void)v;
    for (size_t i = t->timeline->count; i-- > 0;) {
        const hudi_instant *in = &t->timeline->instants[i];
        if (in->action != HUDI_ACTION_COMPACTION || in->state == HUDI_STATE_COMPLETED) continue;
        bool done = false; /* completed as a commit of the same time */
        for (size_t k = 0; k < t->timeline->count; k++)
            done |= !strcmp(t->timeline->instants[k].time, in->time) &&
                    t->timeline->instants[k].state == HUDI_STATE_COMPLETED;
        if (done) continue;
        char time[HUDI_INSTANT_TIME_MAX];
        snprintf(time, sizeof(time), "%s", in->time);
        /* Later writes append logs to the slice the plan started: it must be executed as
         * planned, which hudic does not do yet. */
        if (strcmp(hudi_timeline_last_time(t->timeline), time) != 0)
            return hudi_error_set(err, HUDI_EUNSUPPORTED,
                                  "%s: compaction %s is pending and later instants exist: "
                                  "executing a pending plan is not supported",
                                  t->base_path, time);
        /* its written files: <fileId>_<token>_<time>.parquet in any partition */
        char **files = NULL;
        size_t nf = 0;
        int rc = hudi_write_list_tree(t->fs, t->base_path, &files, &nf, err);
        hudi_buf p = HUDI_BUF_INIT, suffix = HUDI_BUF_INIT;
        hudi_buf_printf(&suffix, "_%s.parquet", time);
        for (size_t k = 0; rc == 0 && k < nf; k++) {
            size_t l = strlen(files[k]);
            if (strncmp(files[k], ".hoodie", 7) == 0 || l < suffix.len ||
                strcmp(files[k] + l - suffix.len, suffix.data) != 0)
                continue;
            hudi_buf_clear(&p);
            hudi_buf_printf(&p, "%s/%s", t->base_path, files[k]);
            rc = hudi_fs_remove(t->fs, p.data, err);
        }
        hudi_write_free_strings(files, nf);
        hudi_buf_dispose(&p);
        hudi_buf_dispose(&suffix);
        if (rc == 0) rc = hudi_timeline_delete_instant(t->timeline, time, err);
        if (rc < 0) return rc;
        i = t->timeline->count;
    }
    return 0;
}

static int compact_locked(hudi_table *t, const hudi_clock *clock, char instant_out[32],
                          hudi_error *err) {
    hudi_fs_view *v = NULL;
    cop *ops = NULL;
    size_t n_ops = 0, n = 0;
    hudi_buf body = HUDI_BUF_INIT;
    hudi_arena a = HUDI_ARENA_INIT;
    char instant[HUDI_INSTANT_TIME_MAX], as_of[HUDI_INSTANT_TIME_MAX];
    int rc = drop_pending(t, NULL, err);
    /* Logs of pending writes would be planned but not merged (their blocks are uncommitted). */
    for (size_t i = 0; rc == 0 && i < t->timeline->count; i++) {
        const hudi_instant *in = &t->timeline->instants[i];
        if (in->state != HUDI_STATE_COMPLETED && in->action == HUDI_ACTION_DELTACOMMIT) {
            bool done = false;
            for (size_t k = 0; k < t->timeline->count; k++)
                done |= !strcmp(t->timeline->instants[k].time, in->time) &&
                        t->timeline->instants[k].state == HUDI_STATE_COMPLETED;
            if (!done)
                rc = hudi_error_set(err, HUDI_ECONFLICT,
                                    "%s: deltacommit %s is pending: roll it back or let it "
                                    "finish before compacting",
                                    t->base_path, in->time);
        }
    }
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    if (rc == 0) rc = hudi_fs_view_build(&v, t->timeline, &vo, err);
    if (rc < 0) goto done;
    snprintf(as_of, sizeof(as_of), "%s", hudi_fs_view_as_of(v));
    const hudi_file_slice *slices = hudi_fs_view_latest_slices(v, &n);
    if (!(ops = hudi_calloc(n + 1, sizeof(cop)))) goto oom;
    for (size_t i = 0; i < n; i++)
        if (slices[i].logs_count > 0) {
            ops[n_ops].s = &slices[i];
            for (size_t k = 0; k < slices[i].logs_count; k++)
                ops[n_ops].log_bytes += slices[i].logs[k].size_bytes;
            n_ops++;
        }
    if (n_ops == 0) goto done;
    if ((rc = hudi_instant_time_new(instant, clock, t->cfg.timeline_utc,
                                    hudi_timeline_last_time(t->timeline), err)) < 0 ||
        (rc = hudi_av_container(&body, compaction_plan_schema, build_plan(&a, ops, n_ops), err)) <
            0 ||
        (rc = hudi_timeline_write_instant(t->timeline, instant, HUDI_ACTION_COMPACTION,
                                          HUDI_STATE_REQUESTED, HUDI_SLICE(body.data, body.len),
                                          err)) < 0 ||
        (rc = hudi_timeline_write_instant(t->timeline, instant, HUDI_ACTION_COMPACTION,
                                          HUDI_STATE_INFLIGHT, HUDI_SLICE("", 0), err)) < 0)
        goto done;
    for (size_t i = 0; i < n_ops && rc == 0; i++)
        rc = compact_one(t, instant, as_of, &ops[i], (int32_t)i, err);
    if (rc == 0) rc = complete(t, instant, ops, n_ops, err);
    if (rc == 0 && instant_out) snprintf(instant_out, 32, "%s", instant);
    goto done;
oom:
    rc = hudi_error_oom(err);
done:
    for (size_t i = 0; ops && i < n_ops; i++) {
        hudi_free(ops[i].name);
        hudi_free(ops[i].rel_path);
    }
    hudi_free(ops);
    hudi_fs_view_free(v);
    hudi_buf_dispose(&body);
    hudi_arena_dispose(&a);
    return rc < 0 ? rc : (int)n_ops;
}

int hudi_tbl_compact(hudi_table *t, const hudi_clock *clock, char instant_out[32],
                     hudi_error *err) {
    hudi_txn_config tc;
    hudi_table_lock *lock = NULL;
    if (instant_out) instant_out[0] = 0;
    if (t->cfg.type != HUDI_MERGE_ON_READ)
        return hudi_error_set(err, HUDI_EINVAL, "%s: compaction needs a merge-on-read table",
                              t->base_path);
    int rc = hudi_txn_config_load(&tc, t, NULL, err);
    if (rc < 0) return rc;
    if ((rc = hudi_table_lock_acquire(&lock, t, &tc, err)) == 0 &&
        (rc = hudi_tbl_reload(t, err)) == 0)
        rc = compact_locked(t, clock, instant_out, err);
    hudi_table_lock_release(lock);
    hudi_txn_config_dispose(&tc);
    return rc;
}
