/* mor_append.c - a merge-on-read write to an existing file group (docs/formats/base-files.md
 * §6.4, log-file.md §1, §8, §10): Hudi 0.14/0.15's append handle on storage
 * without append support. The rows routed to the group go into new log files of its latest
 * slice, `.<fileId>_<baseInstant>.log.<version>_<writeToken>` from the next version on, each
 * written once (exclusive create): data blocks of the written records (meta columns included,
 * header INSTANT_TIME + SCHEMA) - AVRO_DATA_BLOCKs, or PARQUET_DATA_BLOCKs with
 * hoodie.logfile.data.block.format=parquet - then a DELETE_BLOCK of the deleted keys with their
 * ordering values. The base file is left alone; readers merge (read/mor.c).
 *
 * Blocks and files (log-file.md §1): the records are cut into data blocks of about
 * hoodie.logfile.data.block.max.size (default 256 MiB) of in-memory size, as the append handle
 * flushes; the last data block goes out together with the delete block. After each such
 * append, a file past hoodie.logfile.max.size (default 1 GiB) is closed and the next append
 * goes to the next log version (HoodieLogFormatWriter's rollover), with its own APPEND marker
 * and write stat.
 *
 * Meta columns as the append handle fills them: commit time = the instant, seqno
 * "<instant>_<task>_<n>" counting from 1, the key, the partition, and the file id as the file
 * name. */
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <time.h>

#include "format/log/log.h"
#include "format/parquet/parquet.h"
#include "storage/storage.h"
#include "write/write_int.h"

#define LOG_DEFAULT_MAX_BYTES (1024ll << 20)  /* hoodie.logfile.max.size */
#define LOG_DEFAULT_BLOCK_BYTES (256ll << 20) /* hoodie.logfile.data.block.max.size */

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The next log version of the slice: one past its newest log, 1 for a slice without logs. */
static uint64_t next_version(const wgroup *g) {
    uint64_t v = 0;
    for (size_t i = 0; g->slice && i < g->slice->logs_count; i++)
        if (strcmp(g->slice->logs[i].instant, g->prev_commit) == 0 && g->slice->logs[i].version > v)
            v = g->slice->logs[i].version;
    return v + 1;
}

static int name_log(wctx *c, wgroup *g, hudi_error *err) {
    hudi_buf name = HUDI_BUF_INIT;
    hudi_write_token_format(g->token, (uint64_t)g->task, 0, (uint64_t)g->task);
    g->log_version = next_version(g);
    int rc =
        hudi_log_file_name_format(&name, g->file_id, g->prev_commit, g->log_version, g->token, err);
    return hudi_wgroup_take_name(c, g, &name, rc, err);
}

/* The ordering value of a delete (log-file.md, delete blocks): the row's precombine value for
 * an upsert's `_hoodie_is_deleted` record; for a DELETE, or a type without a wrapper, integer
 * 0, which Hudi reads as "no ordering value" (the delete wins). */
static hudi_log_ordering ordering_of(const wctx *c, int32_t r) {
    hudi_log_ordering o = {HUDI_LOG_ORDER_INT, 0, 0, {NULL, 0}};
    int32_t p = c->precombine_wcol;
    if (c->o.op == HUDI_WRITE_DELETE || p < 0 || !c->cols[p]) return o;
    const hudi_array *a = c->cols[p];
    if (!hudi_array_is_valid(a, r)) return o;
    switch (a->field->type) {
    case HUDI_TYPE_BOOL:
        o.kind = HUDI_LOG_ORDER_BOOLEAN;
        o.i = hudi_bit_get(a->values, r);
        break;
    case HUDI_TYPE_INT32:
        o.kind = HUDI_LOG_ORDER_INT;
        o.i = ((const int32_t *)a->values)[r];
        break;
    case HUDI_TYPE_INT64:
        o.kind = HUDI_LOG_ORDER_LONG;
        o.i = ((const int64_t *)a->values)[r];
        break;
    case HUDI_TYPE_FLOAT:
        o.kind = HUDI_LOG_ORDER_FLOAT;
        o.d = ((const float *)a->values)[r];
        break;
    case HUDI_TYPE_DOUBLE:
        o.kind = HUDI_LOG_ORDER_DOUBLE;
        o.d = ((const double *)a->values)[r];
        break;
    case HUDI_TYPE_STRING:
        o.kind = HUDI_LOG_ORDER_STRING;
        o.bytes = wstr(a, r);
        break;
    case HUDI_TYPE_DATE:
        o.kind = HUDI_LOG_ORDER_DATE;
        o.i = ((const int32_t *)a->values)[r];
        break;
    case HUDI_TYPE_TIMESTAMP:
        if (a->field->unit == HUDI_UNIT_MICROS) {
            o.kind = HUDI_LOG_ORDER_TIMESTAMP;
            o.i = ((const int64_t *)a->values)[r];
        }
        break;
    default: break;
    }
    return o;
}

typedef struct appender {
    wctx *c;
    wgroup *g;
    hudi_batch *out;
    int32_t *rows; /* input rows written as records: the updates, then the inserts */
    int64_t n_rows, n_upd;
    hudi_log_delete *dels;
    size_t n_dels;
    hudi_buf tmp;
    /* settings */
    bool parquet;           /* hoodie.logfile.data.block.format=parquet */
    int codec;              /* hoodie.parquet.compression.codec, for Parquet blocks */
    int64_t max_file;       /* hoodie.logfile.max.size */
    int64_t max_block;      /* hoodie.logfile.data.block.max.size */
    hudi_avro_schema *avro; /* the writer schema, for Avro blocks */
    /* the log file being filled */
    hudi_buf file;
    uint64_t version;
    int64_t f_writes, f_upd, f_ins; /* its records */
} appender;

static int size_setting(const wctx *c, const char *key, int64_t dflt, int64_t *out,
                        hudi_error *err) {
    const char *v = hudi_write_setting(c, key);
    char *end = NULL;
    *out = dflt;
    if (!v) return 0;
    long long n = strtoll(v, &end, 10);
    if (end == v || *end || n < 1)
        return hudi_error_set(err, HUDI_EINVAL, "%s: %s=%s: not a positive byte count",
                              c->t->base_path, key, v);
    *out = n;
    return 0;
}

static int read_settings(appender *ap, hudi_error *err) {
    const wctx *c = ap->c;
    const char *fmt = hudi_write_setting(c, "hoodie.logfile.data.block.format");
    if (fmt && strcasecmp(fmt, "parquet") == 0)
        ap->parquet = true;
    else if (fmt && *fmt && strcasecmp(fmt, "avro") != 0)
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "%s: hoodie.logfile.data.block.format=%s: log data blocks are "
                              "written as avro or parquet",
                              c->t->base_path, fmt);
    ap->codec = c->o.codec; /* hoodie.parquet.compression.codec (write_client.c) */
    int rc = size_setting(c, "hoodie.logfile.max.size", LOG_DEFAULT_MAX_BYTES, &ap->max_file, err);
    if (rc == 0)
        rc = size_setting(c, "hoodie.logfile.data.block.max.size", LOG_DEFAULT_BLOCK_BYTES,
                          &ap->max_block, err);
    return rc;
}

/* Sorts the group's rows into records and deletes. */
static void route_rows(appender *ap, const wrows *rows, bool inserts) {
    wctx *c = ap->c;
    wgroup *g = ap->g;
    for (int64_t k = 0; k < rows->n; k++) {
        int32_t r = rows->v[k];
        if (c->done[r]) continue;
        c->done[r] = true;
        if (c->o.op == HUDI_WRITE_DELETE || hudi_plan_row_is_deleted(c, r)) {
            if (inserts) continue; /* nothing stored to delete */
            hudi_log_delete *d = &ap->dels[ap->n_dels++];
            d->record_key = wstr(c->keys, r);
            d->partition_path = hudi_slice_cstr(c->parts[g->part].path);
            d->ordering = ordering_of(c, r);
            continue;
        }
        ap->rows[ap->n_rows++] = r;
        if (!inserts) ap->n_upd++;
    }
}

static int fill_records(appender *ap, hudi_error *err) {
    wctx *c = ap->c;
    wgroup *g = ap->g;
    hudi_array **m = ap->out->columns;
    const char *part = c->parts[g->part].path;
    int rc;
    for (int64_t k = 0; k < ap->n_rows; k++) {
        hudi_slice key = wstr(c->keys, ap->rows[k]);
        if (!c->t->cfg.populate_meta_fields) {
            for (int i = 0; i < HUDI_META_FIELD_COUNT; i++)
                if ((rc = hudi_array_append_null(m[i], err)) < 0) return rc;
            continue;
        }
        hudi_buf_clear(&ap->tmp);
        hudi_buf_printf(&ap->tmp, "%s_%d_%lld", c->instant, (int)g->task, (long long)(k + 1));
        if (hudi_buf_failed(&ap->tmp)) return hudi_error_oom(err);
        if ((rc = hudi_array_append_bytes(m[0], c->instant, strlen(c->instant), err)) < 0 ||
            (rc = hudi_array_append_bytes(m[1], ap->tmp.data, ap->tmp.len, err)) < 0 ||
            (rc = hudi_array_append_bytes(m[2], key.data, key.len, err)) < 0 ||
            (rc = hudi_array_append_bytes(m[3], part, strlen(part), err)) < 0 ||
            (rc = hudi_array_append_bytes(m[4], g->file_id, strlen(g->file_id), err)) < 0)
            return rc;
    }
    for (int32_t j = 0; j < c->schema.n_children; j++)
        if ((rc = hudi_take_rows(m[HUDI_META_FIELD_COUNT + j], c->cols[j], ap->rows, ap->n_rows,
                                 err)) < 0)
            return rc;
    ap->out->num_rows = ap->n_rows;
    return 0;
}

/* A PARQUET_DATA_BLOCK's content (log-file.md §8): a whole Parquet file of the records, as
 * Hudi's HoodieParquetDataBlock writes it through its Avro Parquet writer - the base files'
 * layout (parquet-avro lists and decimals, the Avro schema in the footer), no bloom filter. */
static int parquet_content(appender *ap, const hudi_batch *b, hudi_buf *out, hudi_error *err) {
    static const char path[] = "/block.parquet";
    wctx *c = ap->c;
    hudi_fs *mem = NULL;
    hudi_pq_writer *w = NULL;
    hudi_pq_write_options wo = HUDI_PQ_WRITE_OPTIONS_INIT;
    wo.codec = ap->codec;
    wo.legacy_list_format = true;
    wo.decimal_as_fixed = true;
    wo.row_group_rows = 0;
    /* the dictionary compares string values with memcmp on the data pointer: give every
     * string column one, even when all its values are empty */
    int rc = 0;
    for (int32_t j = 0; rc == 0 && j < b->n_columns; j++) {
        hudi_array *a = b->columns[j];
        if ((a->field->type == HUDI_TYPE_STRING || a->field->type == HUDI_TYPE_BINARY) && !a->data)
            rc = hudi_array_reserve_data(a, 64, err);
    }
    if (rc == 0) rc = hudi_fs_memory_new(&mem, err);
    if (rc == 0) rc = hudi_pq_writer_open(&w, mem, path, &c->file_schema, &wo, err);
    if (rc == 0)
        rc = hudi_pq_writer_add_kv(w, "parquet.avro.schema", c->file_schema_json.data, err);
    if (rc == 0) rc = hudi_pq_writer_add_kv(w, "writer.model.name", "avro", err);
    if (rc == 0) rc = hudi_pq_writer_write(w, b, err);
    if (rc == 0) {
        rc = hudi_pq_writer_close(w, NULL, err);
        w = NULL;
    }
    if (rc == 0) rc = hudi_fs_read_all(mem, path, out, err);
    hudi_pq_writer_abort(w);
    hudi_fs_free(mem);
    return rc;
}

/* Appends the data block of records [from, from + n) of ap->out to the current file. */
static int data_block(appender *ap, int64_t from, int64_t n, hudi_error *err) {
    wctx *c = ap->c;
    hudi_buf content = HUDI_BUF_INIT;
    hudi_slice header[HUDI_LOG_META_KEYS];
    memset(header, 0, sizeof(header));
    header[HUDI_LOG_INSTANT_TIME] = hudi_slice_cstr(c->instant);
    header[HUDI_LOG_SCHEMA] = HUDI_SLICE(c->file_schema_json.data, c->file_schema_json.len);
    hudi_batch part = *ap->out, *b = ap->out;
    hudi_array *cols[1024];
    int rc = 0;
    if (n < ap->out->num_rows) { /* one of several blocks: a copy of its rows */
        if (part.n_columns > (int32_t)HUDI_ARRAY_LEN(cols))
            return hudi_error_set(err, HUDI_EUNSUPPORTED, "more than 1024 columns");
        memset(cols, 0, sizeof(cols));
        part.columns = cols;
        part.num_rows = n;
        for (int32_t j = 0; rc == 0 && j < part.n_columns; j++)
            rc = hudi_array_slice(&cols[j], ap->out->columns[j], from, n, err);
        b = &part;
    }
    if (rc == 0)
        rc = ap->parquet ? parquet_content(ap, b, &content, err)
                         : hudi_log_avro_block_encode(&content, b, ap->avro, err);
    if (rc == 0)
        rc = hudi_log_block_write(
            &ap->file, ap->parquet ? HUDI_LOG_PARQUET_DATA_BLOCK : HUDI_LOG_AVRO_DATA_BLOCK, header,
            HUDI_SLICE(content.data, content.len), err);
    if (b == &part)
        for (int32_t j = 0; j < part.n_columns; j++) hudi_array_free(cols[j]);
    hudi_buf_dispose(&content);
    if (rc == 0) {
        int64_t upd = HUDI_MAX(0, HUDI_MIN(from + n, ap->n_upd) - from);
        ap->f_writes += n;
        ap->f_upd += upd;
        ap->f_ins += n - upd;
    }
    return rc;
}

/* The delete block carries the data blocks' header, INSTANT_TIME and SCHEMA (the writer schema
 * with the meta fields), as Hudi's append handle writes every block of a deltacommit. */
static int delete_block(appender *ap, hudi_error *err) {
    hudi_buf content = HUDI_BUF_INIT;
    hudi_slice header[HUDI_LOG_META_KEYS];
    memset(header, 0, sizeof(header));
    header[HUDI_LOG_INSTANT_TIME] = hudi_slice_cstr(ap->c->instant);
    header[HUDI_LOG_SCHEMA] = HUDI_SLICE(ap->c->file_schema_json.data, ap->c->file_schema_json.len);
    int rc = hudi_log_delete_block_encode(&content, ap->dels, ap->n_dels, err);
    if (rc == 0)
        rc = hudi_log_block_write(&ap->file, HUDI_LOG_DELETE_BLOCK, header,
                                  HUDI_SLICE(content.data, content.len), err);
    hudi_buf_dispose(&content);
    return rc;
}

/* Writes the current log file (its marker first: a failed write's log files are found by
 * their markers and deleted on rollback) and records its stat; the first file is the group's
 * own, later ones are rollovers. */
static int flush_file(appender *ap, bool last, hudi_error *err) {
    wctx *c = ap->c;
    wgroup *g = ap->g;
    hudi_buf path = HUDI_BUF_INIT;
    const char *name = g->name, *rel = g->rel_path;
    wlog *l = NULL;
    int rc = 0;
    if (ap->version != g->log_version) {
        l = &g->rolled[g->n_rolled - 1];
        name = l->name;
        rel = l->rel_path;
    }
    if ((rc = hudi_commit_write_log_marker(c, g, name, err)) < 0) return rc;
    hudi_buf_printf(&path, "%s/%s", c->t->base_path, rel);
    if (hudi_buf_failed(&path)) return hudi_error_oom(err);
    rc = hudi_fs_write_all(c->t->fs, path.data, HUDI_CREATE_EXCLUSIVE, ap->file.data, ap->file.len,
                           err);
    hudi_buf_dispose(&path);
    if (rc < 0) return rc;
    int64_t dels = last ? (int64_t)ap->n_dels : 0;
    if (l) {
        *l = (wlog){l->name, l->rel_path, l->version, ap->f_writes,
                    dels,    ap->f_upd,   ap->f_ins,  (int64_t)ap->file.len};
    } else {
        g->num_writes = ap->f_writes;
        g->num_deletes = dels;
        g->num_update_writes = ap->f_upd;
        g->num_inserts = ap->f_ins;
        g->size_bytes = (int64_t)ap->file.len;
    }
    hudi_buf_clear(&ap->file);
    ap->f_writes = ap->f_upd = ap->f_ins = 0;
    return 0;
}

/* Rolls over to the next log version: names it (same write token) and adds its wlog. */
static int roll_over(appender *ap, hudi_error *err) {
    wctx *c = ap->c;
    wgroup *g = ap->g;
    hudi_buf name = HUDI_BUF_INIT, rel = HUDI_BUF_INIT;
    const char *part = c->parts[g->part].path;
    wlog *more = hudi_realloc(g->rolled, (g->n_rolled + 1) * sizeof(wlog));
    if (!more) return hudi_error_oom(err);
    g->rolled = more;
    ap->version++;
    int rc =
        hudi_log_file_name_format(&name, g->file_id, g->prev_commit, ap->version, g->token, err);
    if (rc == 0) {
        if (*part) hudi_buf_printf(&rel, "%s/", part);
        hudi_buf_puts(&rel, name.data);
        if (hudi_buf_failed(&rel) || hudi_buf_failed(&name)) rc = hudi_error_oom(err);
    }
    if (rc == 0) {
        wlog *l = &g->rolled[g->n_rolled++];
        memset(l, 0, sizeof(*l));
        l->name = hudi_buf_detach(&name);
        l->rel_path = hudi_buf_detach(&rel);
        l->version = ap->version;
    }
    hudi_buf_dispose(&name);
    hudi_buf_dispose(&rel);
    return rc;
}

/* The blocks, appended as the append handle appends them: one data block per chunk of about
 * max_block bytes of records, the last one together with the delete block; after each append
 * a file past max_file is written and the next append starts the next log version. */
static int write_blocks(appender *ap, hudi_error *err) {
    wctx *c = ap->c;
    int64_t n = ap->n_rows, per_block = n;
    int rc = 0;
    if (n > 0) {
        if ((rc = hudi_batch_new(&ap->out, &c->file_schema, err)) < 0 ||
            (rc = fill_records(ap, err)) < 0)
            return rc;
        if (!ap->parquet &&
            (rc = hudi_avro_schema_parse(
                 &ap->avro, HUDI_SLICE(c->file_schema_json.data, c->file_schema_json.len), err)) <
                0)
            return rc;
        int64_t bytes = 0;
        for (int32_t j = 0; j < ap->out->n_columns; j++)
            bytes += hudi_array_memory(ap->out->columns[j]);
        int64_t per_row = HUDI_MAX(1, bytes / n);
        per_block = HUDI_MAX(1, ap->max_block / per_row);
    }
    int64_t from = 0;
    do {
        int64_t k = HUDI_MIN(per_block, n - from);
        bool last = from + k >= n;
        if (k > 0 && (rc = data_block(ap, from, k, err)) < 0) return rc;
        if (last && ap->n_dels > 0 && (rc = delete_block(ap, err)) < 0) return rc;
        from += k;
        if (!last && (int64_t)ap->file.len > ap->max_file) {
            if ((rc = flush_file(ap, false, err)) < 0 || (rc = roll_over(ap, err)) < 0) return rc;
        }
    } while (from < n);
    return ap->file.len > 0 ? flush_file(ap, true, err) : 0;
}

int hudi_mor_append_group(wctx *c, size_t gi, hudi_error *err) {
    appender ap;
    memset(&ap, 0, sizeof(ap));
    ap.c = c;
    ap.g = &c->groups[gi];
    wgroup *g = ap.g;
    int64_t t0 = now_ms();
    size_t cap = (size_t)(g->upd.n + g->ins.n) + 1;
    int rc = read_settings(&ap, err);
    if (rc == 0) rc = name_log(c, g, err);
    if (rc < 0) return rc;
    ap.version = g->log_version;
    if (!(ap.rows = hudi_malloc(cap * sizeof(int32_t))) ||
        !(ap.dels = hudi_calloc(cap, sizeof(hudi_log_delete)))) {
        rc = hudi_error_oom(err);
        goto done;
    }
    route_rows(&ap, &g->upd, false);
    route_rows(&ap, &g->ins, true);
    if (ap.n_rows == 0 && ap.n_dels == 0) { /* every row was met already: nothing to write */
        g->active = false;
        goto done;
    }
    rc = write_blocks(&ap, err);
done:
    g->time_ms = now_ms() - t0;
    hudi_avro_schema_free(ap.avro);
    hudi_batch_free(ap.out);
    hudi_free(ap.rows);
    hudi_free(ap.dels);
    hudi_buf_dispose(&ap.tmp);
    hudi_buf_dispose(&ap.file);
    return rc;
}
