/* cdc_log.c - the `.cdc` log file of a merged file group, as Hudi 0.15's HoodieCDCLogger
 * writes it next to the new base file of a table with hoodie.table.cdc.enabled=true
 * (docs/formats/cdc.md §2): `.<fileId>_<instant>.log.1_<writeToken>.cdc`, CDC_DATA_BLOCKs
 * (an Avro data block's layout) whose header carries the instant and the CDC schema of the
 * supplemental logging mode, one record per changed row: op "i"/"u"/"d" and, by mode, the
 * commit time, the record key and the before/after images (data columns, no meta columns).
 *
 * The merge hands over changes a run at a time as row indices into the old batch and the
 * incoming rows; images are gathered column by column (hudi_take_rows). Records are encoded
 * into a block every CDC_BLOCK_ROWS, so memory stays bounded by one block's records plus the
 * encoded file. */
#include <string.h>

#include "format/log/log.h"
#include "write/write_int.h"

#define CDC_BLOCK_ROWS 65536

struct hudi_cdc_logger {
    wctx *c;
    wgroup *g;
    hudi_cdc_mode mode;
    hudi_field schema; /* STRUCT: the columnar form of schema_json */
    hudi_buf schema_json;
    hudi_avro_schema *writer;
    hudi_batch *rows; /* records not yet in a block */
    hudi_buf file;    /* the encoded blocks */
    hudi_buf content;
    int64_t records;
};

/* HoodieCDCUtils' schemas: OP_KEY_ONLY a fixed record; the others wrap the data schema (as
 * nullable "before"/"after" images) in a record "CDC" of the table's namespace, where the
 * image record is written without its (same) namespace and "after" names it. */
static int cdc_schema_json(hudi_buf *o, hudi_cdc_mode mode, const char *data_json,
                           hudi_error *err) {
    if (mode == HUDI_CDC_OP_KEY_ONLY) {
        hudi_buf_puts(o, "{\"type\":\"record\",\"name\":\"Record\",\"fields\":[{\"name\":\"op\","
                         "\"type\":[\"string\",\"null\"]},{\"name\":\"record_key\",\"type\":"
                         "[\"string\",\"null\"]}]}");
        return hudi_buf_failed(o) ? hudi_error_oom(err) : 0;
    }
    /* {"type":"record","name":"N","namespace":"NS","fields":...} */
    const char *nm = strstr(data_json, "\"name\":\"");
    if (!nm || strncmp(data_json, "{\"type\":\"record\",", 17) != 0)
        return hudi_error_set(err, HUDI_EINVAL, "CDC log: unexpected table schema %.40s",
                              data_json);
    nm += 8;
    const char *nm_end = strchr(nm, '"');
    const char *ns = NULL, *ns_end = NULL;
    if (nm_end && strncmp(nm_end, "\",\"namespace\":\"", 15) == 0) {
        ns = nm_end + 15;
        ns_end = strchr(ns, '"');
    }
    if (!nm_end || (ns && !ns_end))
        return hudi_error_set(err, HUDI_EINVAL, "CDC log: unexpected table schema %.40s",
                              data_json);
    hudi_buf_puts(o, "{\"type\":\"record\",\"name\":\"CDC\",");
    if (ns) hudi_buf_printf(o, "\"namespace\":\"%.*s\",", (int)(ns_end - ns), ns);
    hudi_buf_puts(o, "\"fields\":[{\"name\":\"op\",\"type\":[\"null\",\"string\"],\"doc\":\"\","
                     "\"default\":null},");
    hudi_buf_printf(o,
                    "{\"name\":\"%s\",\"type\":[\"null\",\"string\"],\"doc\":\"\","
                    "\"default\":null},",
                    mode == HUDI_CDC_DATA_BEFORE_AFTER ? "ts_ms" : "record_key");
    hudi_buf_puts(o, "{\"name\":\"before\",\"type\":[\"null\",");
    hudi_buf_append(o, data_json, (size_t)(nm_end + 1 - data_json));
    hudi_buf_puts(o, ns ? ns_end + 1 : nm_end + 1); /* the rest, without the namespace */
    hudi_buf_puts(o, "],\"doc\":\"\",\"default\":null}");
    if (mode == HUDI_CDC_DATA_BEFORE_AFTER)
        hudi_buf_printf(o,
                        ",{\"name\":\"after\",\"type\":[\"null\",\"%.*s\"],\"doc\":\"\","
                        "\"default\":null}",
                        (int)(nm_end - nm), nm);
    hudi_buf_puts(o, "]}");
    return hudi_buf_failed(o) ? hudi_error_oom(err) : 0;
}

int hudi_cdc_schema_json(hudi_buf *out, hudi_cdc_mode mode, const char *data_schema_json,
                         hudi_error *err) {
    return cdc_schema_json(out, mode, data_schema_json, err);
}

void hudi_cdc_logger_free(hudi_cdc_logger *lg) {
    if (!lg) return;
    hudi_batch_free(lg->rows);
    hudi_avro_schema_free(lg->writer);
    hudi_field_dispose(&lg->schema);
    hudi_buf_dispose(&lg->schema_json);
    hudi_buf_dispose(&lg->file);
    hudi_buf_dispose(&lg->content);
    hudi_free(lg);
}

int hudi_cdc_logger_open(hudi_cdc_logger **out, wctx *c, wgroup *g, hudi_error *err) {
    *out = NULL;
    bool enabled;
    hudi_cdc_mode mode;
    int rc = hudi_cdc_config(c->t, &enabled, &mode, err);
    if (rc < 0 || !enabled || !g->old) return rc;
    hudi_cdc_logger *lg = hudi_calloc(1, sizeof(*lg));
    if (!lg) return hudi_error_oom(err);
    lg->c = c;
    lg->g = g;
    lg->mode = mode;
    if ((rc = cdc_schema_json(&lg->schema_json, mode, c->schema_json.data, err)) == 0 &&
        (rc = hudi_avro_schema_parse(
             &lg->writer, HUDI_SLICE(lg->schema_json.data, lg->schema_json.len), err)) == 0 &&
        (rc = hudi_schema_parse_avro(&lg->schema, lg->schema_json.data, lg->schema_json.len,
                                     err)) == 0)
        rc = hudi_batch_new(&lg->rows, &lg->schema, err);
    if (rc < 0) {
        hudi_cdc_logger_free(lg);
        return rc;
    }
    *out = lg;
    return 0;
}

static int flush_block(hudi_cdc_logger *lg, hudi_error *err) {
    if (lg->rows->columns[0]->length == 0) return 0;
    lg->rows->num_rows = lg->rows->columns[0]->length;
    hudi_slice header[HUDI_LOG_META_KEYS];
    memset(header, 0, sizeof(header));
    header[HUDI_LOG_INSTANT_TIME] = hudi_slice_cstr(lg->c->instant);
    header[HUDI_LOG_SCHEMA] = HUDI_SLICE(lg->schema_json.data, lg->schema_json.len);
    hudi_buf_clear(&lg->content);
    int rc = hudi_log_avro_block_encode(&lg->content, lg->rows, lg->writer, err);
    if (rc == 0)
        rc = hudi_log_block_write(&lg->file, HUDI_LOG_CDC_DATA_BLOCK, header,
                                  HUDI_SLICE(lg->content.data, lg->content.len), err);
    hudi_batch_clear(lg->rows);
    return rc;
}

/* An image column (STRUCT): rows idx[0..n) of `src` (per data column; NULL = absent, null
 * values), or n null images when idx is NULL. */
static int add_images(hudi_array *img, const hudi_array *const *src, const int32_t *idx, int64_t n,
                      hudi_error *err) {
    if (!idx) return hudi_array_append_nulls(img, n, err);
    int rc;
    for (int32_t j = 0; j < img->n_children; j++) {
        rc = src[j] ? hudi_take_rows(img->children[j], src[j], idx, n, err)
                    : hudi_array_append_nulls(img->children[j], n, err);
        if (rc < 0) return rc;
    }
    for (int64_t k = 0; k < n; k++)
        if ((rc = hudi_array_append_nested(img, 0, err)) < 0) return rc;
    return 0;
}

static int add_const(hudi_array *a, const char *s, int64_t n, hudi_error *err) {
    size_t len = strlen(s);
    int rc = hudi_array_grow(a, n, err);
    for (int64_t k = 0; rc == 0 && k < n; k++) rc = hudi_array_append_bytes(a, s, len, err);
    return rc;
}

int hudi_cdc_log_add(hudi_cdc_logger *lg, char op, const hudi_array *const *olds,
                     const int32_t *old_idx, const int32_t *in_idx, int64_t n, hudi_error *err) {
    wctx *c = lg->c;
    hudi_array **col = lg->rows->columns;
    char ops[2] = {op, 0};
    int rc = 0;
    for (int64_t done = 0; rc == 0 && done < n;) {
        int64_t room = CDC_BLOCK_ROWS - col[0]->length;
        int64_t m = HUDI_MIN(room, n - done);
        const int32_t *oi = old_idx ? old_idx + done : NULL, *ii = in_idx + done;
        rc = add_const(col[0], ops, m, err);
        if (rc == 0 && lg->mode == HUDI_CDC_DATA_BEFORE_AFTER) {
            rc = add_const(col[1], c->instant, m, err);
            if (rc == 0) rc = add_images(col[2], olds, oi, m, err);
            if (rc == 0)
                rc = add_images(col[3], (const hudi_array *const *)c->cols, op == 'd' ? NULL : ii,
                                m, err);
        } else if (rc == 0) { /* the record key, then (DATA_BEFORE) the before image */
            rc = hudi_take_rows(col[1], c->keys, ii, m, err);
            if (rc == 0 && lg->mode == HUDI_CDC_DATA_BEFORE)
                rc = add_images(col[2], olds, oi, m, err);
        }
        lg->records += m;
        done += m;
        if (rc == 0 && col[0]->length >= CDC_BLOCK_ROWS) rc = flush_block(lg, err);
    }
    return rc;
}

/* Hudi keeps the file only when the merge kept or updated stored records: not when every
 * stored record was deleted and nothing was inserted, nor when every record written is an
 * insert (those changes are inferred from the base files). */
int hudi_cdc_logger_close(hudi_cdc_logger *lg, hudi_error *err) {
    wctx *c = lg->c;
    wgroup *g = lg->g;
    if (g->num_writes == 0 || g->num_writes == g->num_inserts) return 0;
    hudi_buf name = HUDI_BUF_INIT, rel = HUDI_BUF_INIT, path = HUDI_BUF_INIT;
    const char *part = c->parts[g->part].path;
    int rc = flush_block(lg, err);
    if (rc == 0) rc = hudi_log_file_name_format(&name, g->file_id, c->instant, 1, g->token, err);
    if (rc == 0) {
        hudi_buf_puts(&name, ".cdc");
        hudi_buf_printf(&rel, "%s%s%s", part, *part ? "/" : "", name.data);
        hudi_buf_printf(&path, "%s/%s", c->t->base_path, rel.data);
        if (hudi_buf_failed(&name) || hudi_buf_failed(&rel) || hudi_buf_failed(&path))
            rc = hudi_error_oom(err);
    }
    /* the marker first, so a rollback finds the file */
    if (rc == 0) rc = hudi_commit_write_marker_named(c, part, name.data, "APPEND", err);
    if (rc == 0)
        rc = hudi_fs_write_all(c->t->fs, path.data, HUDI_CREATE_EXCLUSIVE, lg->file.data,
                               lg->file.len, err);
    if (rc == 0) {
        g->cdc_size = (int64_t)lg->file.len;
        g->cdc_rel_path = hudi_buf_detach(&rel);
    }
    hudi_buf_dispose(&name);
    hudi_buf_dispose(&rel);
    hudi_buf_dispose(&path);
    return rc;
}
