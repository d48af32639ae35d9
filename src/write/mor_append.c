/* mor_append.c - a merge-on-read write to an existing file group (docs/formats/base-files.md
 * §6.4, log-file.md): Hudi 0.14/0.15's append handle on storage
 * without append support. The rows routed to the group go into ONE new log file of its latest
 * slice, `.<fileId>_<baseInstant>.log.<version>_<writeToken>` with the next version, written
 * once (exclusive create): an AVRO_DATA_BLOCK of the written records (meta columns included,
 * header INSTANT_TIME + SCHEMA), then a DELETE_BLOCK of the deleted keys with their ordering
 * values. The base file is left alone; readers merge (read/mor.c).
 *
 * Meta columns as the append handle fills them: commit time = the instant, seqno
 * "<instant>_<task>_<n>" counting from 1, the key, the partition, and the file id as the file
 * name. */
#include <stdio.h>
#include <time.h>

#include "format/log/log.h"
#include "write/write_int.h"

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
    int32_t *rows; /* input rows written as records */
    int64_t n_rows;
    hudi_log_delete *dels;
    size_t n_dels;
    hudi_buf tmp;
} appender;

/* Sorts the group's rows into records and deletes. */
static int route_rows(appender *ap, const wrows *rows, bool inserts, hudi_error *err) {
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
            g->num_deletes++;
            continue;
        }
        ap->rows[ap->n_rows++] = r;
        if (inserts)
            g->num_inserts++;
        else
            g->num_update_writes++;
    }
    HUDI_UNUSED(err);
    return 0;
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

/* The log file's bytes: the data block, then the delete block. Both carry the same header,
 * INSTANT_TIME and SCHEMA (the writer schema with the meta fields), as Hudi's append handle
 * writes every block of a deltacommit (a delete block of Spark's has the SCHEMA too). */
static int encode(appender *ap, hudi_buf *file, hudi_error *err) {
    wctx *c = ap->c;
    hudi_buf content = HUDI_BUF_INIT;
    hudi_avro_schema *writer = NULL;
    hudi_slice header[HUDI_LOG_META_KEYS];
    memset(header, 0, sizeof(header));
    header[HUDI_LOG_INSTANT_TIME] = hudi_slice_cstr(c->instant);
    header[HUDI_LOG_SCHEMA] = HUDI_SLICE(c->file_schema_json.data, c->file_schema_json.len);
    int rc = 0;
    if (ap->n_rows > 0) {
        if ((rc = hudi_batch_new(&ap->out, &c->file_schema, err)) == 0 &&
            (rc = fill_records(ap, err)) == 0 &&
            (rc = hudi_avro_schema_parse(&writer, header[HUDI_LOG_SCHEMA], err)) == 0 &&
            (rc = hudi_log_avro_block_encode(&content, ap->out, writer, err)) == 0)
            rc = hudi_log_block_write(file, HUDI_LOG_AVRO_DATA_BLOCK, header,
                                      HUDI_SLICE(content.data, content.len), err);
    }
    if (rc == 0 && ap->n_dels > 0) {
        hudi_buf_clear(&content);
        if ((rc = hudi_log_delete_block_encode(&content, ap->dels, ap->n_dels, err)) == 0)
            rc = hudi_log_block_write(file, HUDI_LOG_DELETE_BLOCK, header,
                                      HUDI_SLICE(content.data, content.len), err);
    }
    hudi_avro_schema_free(writer);
    hudi_buf_dispose(&content);
    return rc;
}

int hudi_mor_append_group(wctx *c, size_t gi, hudi_error *err) {
    appender ap;
    memset(&ap, 0, sizeof(ap));
    ap.c = c;
    ap.g = &c->groups[gi];
    wgroup *g = ap.g;
    hudi_buf file = HUDI_BUF_INIT, path = HUDI_BUF_INIT;
    int64_t t0 = now_ms();
    size_t cap = (size_t)(g->upd.n + g->ins.n) + 1;
    int rc = name_log(c, g, err);
    if (rc < 0) return rc;
    if (!(ap.rows = hudi_malloc(cap * sizeof(int32_t))) ||
        !(ap.dels = hudi_calloc(cap, sizeof(hudi_log_delete)))) {
        rc = hudi_error_oom(err);
        goto done;
    }
    if ((rc = route_rows(&ap, &g->upd, false, err)) < 0 ||
        (rc = route_rows(&ap, &g->ins, true, err)) < 0)
        goto done;
    g->num_writes = ap.n_rows;
    if ((rc = encode(&ap, &file, err)) < 0) goto done;
    /* the marker first (a failed write's log file is found by it and deleted on rollback),
     * then the file, written whole and never replaced */
    if ((rc = hudi_commit_write_marker(c, g, err)) < 0) goto done;
    hudi_buf_printf(&path, "%s/%s", c->t->base_path, g->rel_path);
    if (hudi_buf_failed(&path)) {
        rc = hudi_error_oom(err);
        goto done;
    }
    if (file.len == 0) { /* every row was met already: nothing to write */
        g->active = false;
        goto done;
    }
    if ((rc = hudi_fs_write_all(c->t->fs, path.data, HUDI_CREATE_EXCLUSIVE, file.data, file.len,
                                err)) < 0)
        goto done;
    g->size_bytes = (int64_t)file.len;
done:
    g->time_ms = now_ms() - t0;
    hudi_batch_free(ap.out);
    hudi_free(ap.rows);
    hudi_free(ap.dels);
    hudi_buf_dispose(&ap.tmp);
    hudi_buf_dispose(&file);
    hudi_buf_dispose(&path);
    return rc;
}
