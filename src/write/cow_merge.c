/* cow_merge.c - writing one file group's new base file (docs/formats/base-files.md):
 * Hudi's create handle (new group: the rows routed to it) and merge handle (existing group:
 * the old base file read batch by batch in file order, each old record kept, replaced by the
 * incoming record for its key or dropped for a delete, then the inserts routed to the group).
 *
 * Meta columns as Hudi's Avro writer fills them: a written record gets the new instant,
 * seqno "<instant>_<task>_<position in file>", key, partition and file name; a record carried
 * over keeps its commit time and seqno and gets the new file name. The footer carries
 * parquet.avro.schema, writer.model.name, the DYNAMIC_V0 bloom filter of every key written and
 * the min/max keys (none of the Hudi keys with hoodie.populate.meta.fields=false).
 * Memory is bounded by one old batch plus one output chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "write/write_int.h"

/* ---- gathering rows --------------------------------------------------------------------- */

static int take_runs(hudi_array *dst, const hudi_array *src, const int32_t *idx, int64_t n,
                     hudi_error *err) {
    for (int64_t k = 0; k < n;) {
        int64_t e = k + 1;
        while (e < n && idx[e] == idx[e - 1] + 1) e++;
        int rc = hudi_array_append_range(dst, src, idx[k], e - k, err);
        if (rc < 0) return rc;
        k = e;
    }
    return 0;
}

int hudi_take_rows(hudi_array *dst, const hudi_array *src, const int32_t *idx, int64_t n,
                   hudi_error *err) {
    if (n == 0) return 0;
    hudi_type_id t = src->field->type;
    int width = hudi_type_width(src->field);
    bool bytes = t == HUDI_TYPE_STRING || t == HUDI_TYPE_BINARY;
    if (hudi_type_is_nested(t) || (!bytes && width < 0) || dst->field->type != t)
        return take_runs(dst, src, idx, n, err);
    int rc = hudi_array_grow(dst, n, err);
    if (rc < 0) return rc;
    if (src->null_count > 0 && !dst->validity && (rc = hudi_array_ensure_validity(dst, err)) < 0)
        return rc;
    int64_t base = dst->length;
    if (bytes) {
        int64_t total = 0;
        for (int64_t k = 0; k < n; k++) total += src->offsets[idx[k] + 1] - src->offsets[idx[k]];
        if ((rc = hudi_array_grow_data(dst, total, err)) < 0) return rc;
        int32_t off = dst->offsets[base];
        for (int64_t k = 0; k < n; k++) {
            int32_t s = src->offsets[idx[k]], len = src->offsets[idx[k] + 1] - s;
            if (len) memcpy(dst->data + off, src->data + s, (size_t)len);
            off += len;
            dst->offsets[base + k + 1] = off;
        }
        dst->data_len = off;
    } else if (width == 0) { /* BOOL bits */
        uint8_t *d = dst->values;
        for (int64_t k = 0; k < n; k++) {
            if (hudi_bit_get(src->values, idx[k]))
                hudi_bit_set(d, base + k);
            else
                hudi_bit_clear(d, base + k);
        }
    } else {
        uint8_t *d = (uint8_t *)dst->values + base * width;
        const uint8_t *s = src->values;
        switch (width) {
        case 4:
            for (int64_t k = 0; k < n; k++) memcpy(d + k * 4, s + (int64_t)idx[k] * 4, 4);
            break;
        case 8:
            for (int64_t k = 0; k < n; k++) memcpy(d + k * 8, s + (int64_t)idx[k] * 8, 8);
            break;
        default:
            for (int64_t k = 0; k < n; k++)
                memcpy(d + k * width, s + (int64_t)idx[k] * width, (size_t)width);
        }
    }
    int64_t nulls = 0;
    if (dst->validity) {
        for (int64_t k = 0; k < n; k++) {
            if (hudi_array_is_valid(src, idx[k])) {
                hudi_bit_set(dst->validity, base + k);
            } else {
                hudi_bit_clear(dst->validity, base + k);
                nulls++;
            }
        }
    }
    dst->length += n;
    dst->null_count += nulls;
    return 0;
}

/* ---- the file being written -------------------------------------------------------------- */

typedef struct fwriter {
    wctx *c;
    wgroup *g;
    size_t gi;
    hudi_pq_writer *w;
    hudi_batch *out;
    hudi_bloom *bf;
    bool bf_old; /* bf continues the old base file's filter: every old key is in it already */
    hudi_buf min_key, max_key;
    bool have_key;
    int64_t pos;  /* records written so far: the seqno counter */
    int32_t *idx; /* chunk of input rows */
    /* constant meta values of this file: commit time, partition, file name, and the seqno
     * prefix "<instant>_<task>_" the position is appended to */
    size_t instant_len, part_len, name_len;
    char seq[HUDI_INSTANT_TIME_MAX + 32];
    size_t seq_len;
    /* change data capture (cdc_log.c): this batch's updates and deletes, as (old row, input
     * row) pairs */
    hudi_cdc_logger *cdc;
    int32_t *cdc_u_old, *cdc_u_in, *cdc_d_old, *cdc_d_in;
    int64_t n_cdc_u, n_cdc_d;
    int64_t rg_bytes; /* Parquet row group target; 0 = the target file size */
} fwriter;

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The footer's key range (hoodie_min/max_record_key) takes key k. */
static int note_range(fwriter *fw, hudi_slice k, hudi_error *err) {
    if (!fw->have_key || memcmp(k.data, fw->min_key.data, HUDI_MIN(k.len, fw->min_key.len)) < 0 ||
        (memcmp(k.data, fw->min_key.data, HUDI_MIN(k.len, fw->min_key.len)) == 0 &&
         k.len < fw->min_key.len)) {
        hudi_buf_clear(&fw->min_key);
        hudi_buf_append(&fw->min_key, k.data, k.len);
    }
    int c = fw->have_key ? memcmp(k.data, fw->max_key.data, HUDI_MIN(k.len, fw->max_key.len)) : 1;
    if (c > 0 || (c == 0 && k.len > fw->max_key.len)) {
        hudi_buf_clear(&fw->max_key);
        hudi_buf_append(&fw->max_key, k.data, k.len);
    }
    fw->have_key = true;
    return hudi_buf_failed(&fw->min_key) || hudi_buf_failed(&fw->max_key) ? hudi_error_oom(err) : 0;
}

/* A key of a record merged from the old file (carried over or updated): in the filter already
 * when it continues the old one. */
static int note_old_key(fwriter *fw, hudi_slice k, hudi_error *err) {
    if (!fw->bf) return 0;
    int rc = fw->bf_old ? 0 : hudi_bloom_add(fw->bf, k.data, k.len, err);
    return rc < 0 ? rc : note_range(fw, k, err);
}

/* Keys of incoming rows idx[0..n) written as new records: filter (several keys at once) and
 * range. */
static int note_new_keys(fwriter *fw, const int32_t *idx, int64_t n, hudi_error *err) {
    const hudi_array *keys = fw->c->keys;
    hudi_slice batch[256];
    int rc = 0;
    if (!fw->bf) return 0;
    for (int64_t k = 0; k < n && rc == 0;) {
        size_t nb = 0;
        for (; k < n && nb < HUDI_ARRAY_LEN(batch); k++) {
            batch[nb++] = wstr(keys, idx[k]);
            if ((rc = note_range(fw, batch[nb - 1], err)) < 0) return rc;
        }
        rc = hudi_bloom_add_many(fw->bf, batch, nb, err);
    }
    return rc;
}

/* Appends the constant string s (len bytes) n times. */
static int append_repeat(hudi_array *a, const char *s, size_t len, int64_t n, hudi_error *err) {
    int rc;
    if (n == 0) return 0;
    if ((rc = hudi_array_grow(a, n, err)) < 0 ||
        (rc = hudi_array_grow_data(a, (int64_t)len * n, err)) < 0)
        return rc;
    uint8_t *d = a->data + a->data_len;
    int32_t off = (int32_t)a->data_len;
    for (int64_t k = 0; k < n; k++) {
        memcpy(d, s, len);
        d += len;
        off += (int32_t)len;
        a->offsets[a->length + k + 1] = off;
    }
    if (a->validity) hudi_bitmap_set_range(a->validity, a->length, n, true);
    a->data_len = off;
    a->length += n;
    return 0;
}

/* Appends n seqnos "<instant>_<task>_<pos>", pos counting on from fw->pos. */
static int append_seqnos(fwriter *fw, hudi_array *a, int64_t n, hudi_error *err) {
    int rc;
    if ((rc = hudi_array_grow(a, n, err)) < 0 ||
        (rc = hudi_array_grow_data(a, (int64_t)(fw->seq_len + 20) * n, err)) < 0)
        return rc;
    int32_t off = (int32_t)a->data_len;
    for (int64_t k = 0; k < n; k++) {
        char digits[24];
        int nd = 0;
        uint64_t v = (uint64_t)(fw->pos + k);
        do {
            digits[nd++] = (char)('0' + v % 10);
            v /= 10;
        } while (v);
        uint8_t *d = a->data + off;
        memcpy(d, fw->seq, fw->seq_len);
        d += fw->seq_len;
        for (int i = nd - 1; i >= 0; i--) *d++ = (uint8_t)digits[i];
        off += (int32_t)fw->seq_len + nd;
        a->offsets[a->length + k + 1] = off;
    }
    if (a->validity) hudi_bitmap_set_range(a->validity, a->length, n, true);
    a->data_len = off;
    a->length += n;
    return 0;
}

/* Meta values of incoming rows idx[0..n) written as new records at positions fw->pos...: the
 * new instant, seqno, key, partition and file name. Their keys are noted by the caller. */
static int meta_new_rows(fwriter *fw, const int32_t *idx, int64_t n, hudi_error *err) {
    wctx *c = fw->c;
    hudi_array **m = fw->out->columns;
    int rc;
    if (!c->t->cfg.populate_meta_fields) {
        for (int i = 0; i < HUDI_META_FILE_NAME; i++)
            if ((rc = hudi_array_append_nulls(m[i], n, err)) < 0) return rc;
    } else if ((rc = append_repeat(m[0], c->instant, fw->instant_len, n, err)) < 0 ||
               (rc = append_seqnos(fw, m[1], n, err)) < 0 ||
               (rc = hudi_take_rows(m[2], c->keys, idx, n, err)) < 0 ||
               (rc = append_repeat(m[3], c->parts[fw->g->part].path, fw->part_len, n, err)) < 0) {
        return rc;
    }
    fw->pos += n;
    return append_repeat(m[4], fw->g->name, fw->name_len, n, err);
}

/* Meta values of old rows [start, start + n) of batch b carried over: their own commit time,
 * seqno, key and partition, and the new file name. */
static int meta_old_rows(fwriter *fw, const hudi_batch *b, const int32_t *meta_cols, int64_t start,
                         int64_t n, hudi_error *err) {
    hudi_array **m = fw->out->columns;
    int rc;
    for (int k = 0; k < HUDI_META_FILE_NAME; k++) {
        const hudi_array *src = meta_cols[k] >= 0 ? b->columns[meta_cols[k]] : NULL;
        if (!src || !fw->c->t->cfg.populate_meta_fields)
            rc = hudi_array_append_nulls(m[k], n, err);
        else
            rc = hudi_array_append_range(m[k], src, start, n, err);
        if (rc < 0) return rc;
    }
    fw->pos += n;
    return append_repeat(m[4], fw->g->name, fw->name_len, n, err);
}

static int flush(fwriter *fw, hudi_error *err) {
    if (fw->out->columns[0]->length == 0) return 0;
    fw->out->num_rows = fw->out->columns[0]->length;
    int rc = hudi_pq_writer_write(fw->w, fw->out, err);
    hudi_batch_clear(fw->out);
    return rc;
}

/* Appends incoming rows idx[0..n) as records written by this commit. */
static int write_incoming(fwriter *fw, const int32_t *idx, int64_t n, hudi_error *err) {
    wctx *c = fw->c;
    int rc;
    if ((c->t->cfg.populate_meta_fields && (rc = note_new_keys(fw, idx, n, err)) < 0) ||
        (rc = meta_new_rows(fw, idx, n, err)) < 0)
        return rc;
    for (int32_t j = 0; j < c->schema.n_children; j++)
        if ((rc = hudi_take_rows(fw->out->columns[HUDI_META_FIELD_COUNT + j], c->cols[j], idx, n,
                                 err)) < 0)
            return rc;
    return 0;
}

static int write_rows(fwriter *fw, const wrows *rows, bool inserts, hudi_error *err) {
    wctx *c = fw->c;
    int64_t n = 0;
    int rc;
    for (int64_t k = 0; k < rows->n; k++) {
        int32_t r = rows->v[k];
        if (c->done[r]) continue;
        c->done[r] = true;
        if (hudi_plan_row_is_deleted(c, r) || c->o.op == HUDI_WRITE_DELETE) {
            if (!inserts) fw->g->num_deletes++;
            continue;
        }
        fw->idx[n++] = r;
        fw->g->num_inserts++;
        if (n == WRITE_CHUNK_ROWS) {
            if ((rc = write_incoming(fw, fw->idx, n, err)) < 0 || (rc = flush(fw, err)) < 0 ||
                (fw->cdc && (rc = hudi_cdc_log_add(fw->cdc, 'i', NULL, NULL, fw->idx, n, err)) < 0))
                return rc;
            n = 0;
        }
    }
    if (n && ((rc = write_incoming(fw, fw->idx, n, err)) < 0 || (rc = flush(fw, err)) < 0 ||
              (fw->cdc && (rc = hudi_cdc_log_add(fw->cdc, 'i', NULL, NULL, fw->idx, n, err)) < 0)))
        return rc;
    return 0;
}

/* ---- merging an old base file ------------------------------------------------------------- */

static int find_col(const hudi_field *st, const char *name) {
    for (int32_t i = 0; i < st->n_children; i++)
        if (st->children[i].name && strcmp(st->children[i].name, name) == 0) return i;
    return -1;
}

typedef struct run {
    bool from_in;
    int32_t start, len;
} run;

typedef struct merge_state {
    int32_t meta_cols[HUDI_META_FIELD_COUNT];
    hudi_projection *proj;   /* the old file's columns as the writer schema's (meta + data) */
    hudi_field names;        /* schema on read: the file-side names of the columns, by id */
    const hudi_array **olds; /* per data column, this batch: the old values as the writer's
                              * type (borrowed or in `owned`), NULL = absent (null) */
    hudi_array **owned;
    hudi_keygen *kg; /* keys of old rows without meta fields */
    hudi_array *keys;
    run *runs;
    int64_t n_runs, cap_runs;
    wkeys here;     /* the batch's key table cut down to the rows routed to this group */
    int32_t *found; /* per old row of the batch: its incoming row in `here`, or -1 */
    int64_t cap_found;
} merge_state;

static int push_run(merge_state *ms, bool from_in, int32_t row, hudi_error *err) {
    if (ms->n_runs > 0) {
        run *l = &ms->runs[ms->n_runs - 1];
        if (l->from_in == from_in && l->start + l->len == row) {
            l->len++;
            return 0;
        }
    }
    if (ms->n_runs == ms->cap_runs) {
        int64_t cap = ms->cap_runs ? ms->cap_runs * 2 : 256;
        run *r = hudi_realloc(ms->runs, (size_t)cap * sizeof(run));
        if (!r) return hudi_error_oom(err);
        ms->runs = r;
        ms->cap_runs = cap;
    }
    ms->runs[ms->n_runs++] = (run){from_in, row, 1};
    return 0;
}

/* Schema on read: the names the writer's columns had when the old file was written, found by
 * column id (hudi_ischema_file_names): a renamed column is read under its old name, a dropped
 * and re-added one not at all. Meta columns keep their names. */
static int file_names(fwriter *fw, merge_state *ms, hudi_error *err) {
    wctx *c = fw->c;
    const hudi_ischema *file_is = NULL;
    hudi_field renamed = {0};
    int rc = hudi_schema_view_file(&file_is, c->sv, fw->g->prev_commit, err);
    if (rc == 0) rc = hudi_ischema_file_names(&renamed, &c->ischema_new, file_is, err);
    if (rc == 0 && hudi_field_copy(&ms->names, &c->file_schema) < 0) rc = hudi_error_oom(err);
    for (int32_t j = 0; rc == 0 && j < c->schema.n_children; j++) {
        hudi_field *slot = &ms->names.children[HUDI_META_FIELD_COUNT + j];
        /* renamed has the query's shape: find the column by its name in the query */
        int32_t k = find_col(&c->ischema_new.root, slot->name);
        if (k >= renamed.n_children) k = -1;
        if (k < 0) { /* a column the InternalSchema lacks: not in this file */
            char *none = hudi_strdup("");
            if (!none) {
                rc = hudi_error_oom(err);
                break;
            }
            hudi_free(slot->name);
            slot->name = none;
            continue;
        }
        hudi_field copy;
        if (hudi_field_copy(&copy, &renamed.children[k]) < 0) {
            rc = hudi_error_oom(err);
            break;
        }
        hudi_field_dispose(slot);
        *slot = copy;
    }
    hudi_field_dispose(&renamed);
    return rc;
}

static int setup_merge(fwriter *fw, merge_state *ms, const hudi_field *fs, hudi_error *err) {
    wctx *c = fw->c;
    int32_t n = c->schema.n_children;
    int rc;
    for (int k = 0; k < HUDI_META_FIELD_COUNT; k++)
        ms->meta_cols[k] = find_col(fs, hudi_meta_field_names[k]);
    if (!(ms->olds = hudi_calloc((size_t)n + 1, sizeof(*ms->olds))) ||
        !(ms->owned = hudi_calloc((size_t)n + 1, sizeof(*ms->owned))))
        return hudi_error_oom(err);
    /* Old records are read as the writer schema: by name (by id with schema on read), older
     * types converted (an int column of a table now long), columns the file lacks null. */
    if (c->ischema && (rc = file_names(fw, ms, err)) < 0) return rc;
    if ((rc = hudi_projection_new(&ms->proj, fs, &c->file_schema, c->ischema ? &ms->names : NULL,
                                  false, fw->g->old->path, err)) < 0)
        return rc;
    if (!c->t->cfg.populate_meta_fields || ms->meta_cols[HUDI_META_RECORD_KEY] < 0) {
        if ((rc = hudi_index_key_keygen(&ms->kg, &c->t->cfg, fs, err)) < 0 ||
            (rc = hudi_array_new(&ms->keys, &c->key_field, err)) < 0)
            return rc;
    }
    return 0;
}

static void release_olds(wctx *c, merge_state *ms) {
    for (int32_t j = 0; ms->owned && j < c->schema.n_children; j++) {
        hudi_array_free(ms->owned[j]);
        ms->owned[j] = NULL;
        ms->olds[j] = NULL;
    }
}

/* This batch's old values of every data column, as the writer's types. */
static int project_olds(fwriter *fw, merge_state *ms, const hudi_batch *b, hudi_error *err) {
    wctx *c = fw->c;
    for (int32_t j = 0; j < c->schema.n_children; j++) {
        int32_t q = HUDI_META_FIELD_COUNT + j;
        int32_t k = hudi_projection_source(ms->proj, q);
        if (k < 0) continue; /* null */
        if (hudi_projection_exact(ms->proj, q)) {
            ms->olds[j] = b->columns[k];
            continue;
        }
        int rc = hudi_write_project_column(ms->proj, q, b->columns[k], b->num_rows,
                                           &c->file_schema.children[q], &ms->owned[j], err);
        if (rc < 0) return rc;
        ms->olds[j] = ms->owned[j];
    }
    return 0;
}

/* The fate of old row i whose key has incoming row r: true = write a record (incoming data
 * unless `old_wins`), false = delete. */
static bool merge_decide(fwriter *fw, const merge_state *ms, int64_t i, int32_t r, bool *old_wins) {
    wctx *c = fw->c;
    *old_wins = false;
    if (c->o.op == HUDI_WRITE_DELETE) return false;
    /* DefaultHoodieRecordPayload: the stored record stays when its ordering value is greater
     * (even against a delete); OverwriteWithLatestAvroPayload: the incoming record wins. */
    int32_t p = c->precombine_wcol;
    const hudi_array *old = p >= 0 ? ms->olds[p] : NULL;
    if (!c->o.latest_wins && c->precombine_col >= 0 && old && hudi_array_is_valid(old, i) &&
        hudi_plan_cmp_values(old, i, c->cols[p], r) > 0) {
        *old_wins = true;
        return true;
    }
    return !hudi_plan_row_is_deleted(c, r);
}

static int merge_batch(fwriter *fw, merge_state *ms, const hudi_batch *b, hudi_error *err) {
    wctx *c = fw->c;
    wgroup *g = fw->g;
    const hudi_array *keys = ms->keys;
    bool populate = c->t->cfg.populate_meta_fields;
    int rc;
    if (ms->kg) {
        hudi_array_clear(ms->keys);
        if ((rc = hudi_keygen_record_keys(ms->kg, b, ms->keys, err)) < 0) return rc;
    } else {
        keys = b->columns[ms->meta_cols[HUDI_META_RECORD_KEY]];
    }
    ms->n_runs = 0;
    fw->n_cdc_u = fw->n_cdc_d = 0;
    if ((rc = project_olds(fw, ms, b, err)) < 0) return rc;
    if (b->num_rows > ms->cap_found) {
        int32_t *f = hudi_realloc(ms->found, (size_t)b->num_rows * sizeof(int32_t));
        if (!f) return hudi_error_oom(err);
        ms->found = f;
        ms->cap_found = b->num_rows;
    }
    hudi_wkeys_find_many(&ms->here, keys, 0, b->num_rows, g->part, ms->found);
    for (int64_t i = 0; i < b->num_rows; i++) {
        hudi_slice k = hudi_array_is_valid(keys, i) ? wstr(keys, i) : HUDI_SLICE("", 0);
        int32_t r = ms->found[i];
        bool hit = r >= 0 && c->dest[r] == (int32_t)fw->gi && !c->done[r];
        bool old_wins = false;
        if (!hit) {
            if ((populate && (rc = note_old_key(fw, k, err)) < 0) ||
                (rc = push_run(ms, false, (int32_t)i, err)) < 0)
                return rc;
            continue;
        }
        c->done[r] = true;
        if (!merge_decide(fw, ms, i, r, &old_wins)) {
            g->num_deletes++;
            if (fw->cdc) {
                fw->cdc_d_old[fw->n_cdc_d] = (int32_t)i;
                fw->cdc_d_in[fw->n_cdc_d++] = r;
            }
            continue;
        }
        g->num_update_writes++;
        if (fw->cdc && !old_wins) { /* an incoming record that loses changes nothing */
            fw->cdc_u_old[fw->n_cdc_u] = (int32_t)i;
            fw->cdc_u_in[fw->n_cdc_u++] = r;
        }
        /* A stored record that wins over the incoming one is carried over unchanged, meta
         * columns included (as Hudi's merge handle does), so incremental reads do not see it
         * as changed by this commit. */
        if ((populate && (rc = note_old_key(fw, k, err)) < 0) ||
            (rc = push_run(ms, !old_wins, old_wins ? (int32_t)i : r, err)) < 0)
            return rc;
    }
    /* meta columns run by run, in record order (the seqno counts records) */
    for (int64_t u = 0; u < ms->n_runs; u++) {
        const run *x = &ms->runs[u];
        if (x->from_in) {
            for (int32_t q = 0; q < x->len; q++) fw->idx[q] = x->start + q;
            rc = meta_new_rows(fw, fw->idx, x->len, err);
        } else {
            rc = meta_old_rows(fw, b, ms->meta_cols, x->start, x->len, err);
        }
        if (rc < 0) return rc;
    }
    for (int32_t j = 0; j < c->schema.n_children; j++) {
        hudi_array *dst = fw->out->columns[HUDI_META_FIELD_COUNT + j];
        for (int64_t u = 0; u < ms->n_runs; u++) {
            const run *x = &ms->runs[u];
            if (x->from_in)
                rc = hudi_array_append_range(dst, c->cols[j], x->start, x->len, err);
            else if (ms->olds[j])
                rc = hudi_array_append_range(dst, ms->olds[j], x->start, x->len, err);
            else
                rc = hudi_array_append_nulls(dst, x->len, err);
            if (rc < 0) return rc;
        }
    }
    if (fw->cdc && ((fw->n_cdc_u && (rc = hudi_cdc_log_add(fw->cdc, 'u', ms->olds, fw->cdc_u_old,
                                                           fw->cdc_u_in, fw->n_cdc_u, err)) < 0) ||
                    (fw->n_cdc_d && (rc = hudi_cdc_log_add(fw->cdc, 'd', ms->olds, fw->cdc_d_old,
                                                           fw->cdc_d_in, fw->n_cdc_d, err)) < 0)))
        return rc;
    return flush(fw, err);
}

/* The new file's filter continues the old file's (the one the index decoded, else the
 * footer's) when both have the shape the table's settings give: every old key is in it, so
 * only keys new to the file group are added. It may also hold keys deleted by this write: a
 * superset is still a correct index filter (docs/formats/base-files.md §4). Otherwise, or
 * when the old file has none, every key is added afresh. */
static void continue_old_bloom(fwriter *fw, hudi_pq_file *pf) {
    hudi_bloom *old = fw->g->old_bloom, *bf = fw->bf;
    fw->g->old_bloom = NULL;
    if (!old && hudi_bloom_from_footer(&old, pf, NULL) < 0) return;
    if (old->type != bf->type || old->vector_bits != bf->vector_bits ||
        old->num_hashes != bf->num_hashes ||
        (bf->type == HUDI_BLOOM_DYNAMIC_V0 && old->entries_per_row != bf->entries_per_row)) {
        hudi_bloom_free(old);
        return;
    }
    old->max_entries = bf->max_entries; /* not serialized: the writer's setting */
    hudi_bloom_free(bf);
    fw->bf = old;
    fw->bf_old = true;
}

/* Every old record is looked up and most miss: a table of just the rows routed to this group
 * (those the batch's table holds for their key, so hits are the same) stays in cache. */
static int group_keys(fwriter *fw, wkeys *out, hudi_error *err) {
    wctx *c = fw->c;
    const wrows *lists[2] = {&fw->g->upd, &fw->g->ins};
    int rc = hudi_wkeys_init(out, c->keys, c->row_part, fw->g->upd.n + fw->g->ins.n, err);
    for (int l = 0; l < 2 && rc == 0; l++)
        for (int64_t k = 0; k < lists[l]->n; k++) {
            int32_t r = lists[l]->v[k];
            hudi_slice key = wstr(c->keys, r);
            if (hudi_wkeys_find(&c->idx, key.data, key.len, c->row_part[r]) == r)
                *hudi_wkeys_slot(out, key.data, key.len, c->row_part[r]) = r + 1;
        }
    return rc;
}

static int merge_old(fwriter *fw, hudi_error *err) {
    hudi_pq_file *pf = NULL;
    hudi_pq_scan *scan = NULL;
    merge_state ms;
    memset(&ms, 0, sizeof(ms));
    int rc = hudi_pq_open(&pf, fw->c->t->fs, fw->g->old->path, NULL, err);
    if (rc < 0) return rc;
    if (fw->bf) continue_old_bloom(fw, pf);
    if ((rc = setup_merge(fw, &ms, hudi_pq_schema(pf), err)) < 0 ||
        (rc = group_keys(fw, &ms.here, err)) < 0)
        goto done;
    hudi_pq_scan_options so = HUDI_PQ_SCAN_OPTIONS_INIT;
    so.batch_rows = WRITE_CHUNK_ROWS;
    if ((rc = hudi_pq_scan_open(&scan, pf, &so, err)) < 0) goto done;
    for (;;) {
        hudi_batch *b = NULL;
        if ((rc = hudi_pq_scan_next(scan, &b, err)) < 0 || !b) break;
        rc = merge_batch(fw, &ms, b, err);
        release_olds(fw->c, &ms);
        if (rc < 0) break;
    }
done:
    hudi_pq_scan_free(scan);
    hudi_pq_close(pf);
    hudi_keygen_free(ms.kg);
    hudi_array_free(ms.keys);
    release_olds(fw->c, &ms);
    hudi_free(ms.olds);
    hudi_free(ms.owned);
    hudi_projection_free(ms.proj);
    hudi_field_dispose(&ms.names);
    hudi_free(ms.runs);
    hudi_wkeys_dispose(&ms.here);
    hudi_free(ms.found);
    return rc;
}

/* ---- one file group ----------------------------------------------------------------------- */

int hudi_wgroup_take_name(wctx *c, wgroup *g, hudi_buf *name, int rc, hudi_error *err) {
    hudi_buf rel = HUDI_BUF_INIT;
    const char *part = c->parts[g->part].path;
    if (rc == 0) {
        if (*part) hudi_buf_printf(&rel, "%s/", part);
        hudi_buf_puts(&rel, name->data);
        if (hudi_buf_failed(&rel) || hudi_buf_failed(name)) rc = hudi_error_oom(err);
    }
    if (rc == 0) {
        g->name = hudi_buf_detach(name);
        g->rel_path = hudi_buf_detach(&rel);
    }
    hudi_buf_dispose(name);
    hudi_buf_dispose(&rel);
    return rc;
}

static int name_group(wctx *c, wgroup *g, hudi_error *err) {
    hudi_buf name = HUDI_BUF_INIT;
    hudi_write_token_format(g->token, (uint64_t)g->task, 0, (uint64_t)g->task);
    int rc = hudi_base_file_name_format(&name, g->file_id, g->token, c->instant, "parquet", err);
    return hudi_wgroup_take_name(c, g, &name, rc, err);
}

int hudi_write_bloom_cfg(const hudi_table *t, hudi_bloom_cfg *out, hudi_error *err) {
    const hudi_props *p = &t->props;
    int64_t entries, max_entries;
    out->type = HUDI_BLOOM_DYNAMIC_V0;
    out->fpp = HUDI_BLOOM_DEFAULT_FPP;
    int rc = hudi_props_get_int(p, "hoodie.index.bloom.num_entries", HUDI_BLOOM_DEFAULT_ENTRIES,
                                &entries, err);
    if (rc == 0)
        rc = hudi_props_get_int(p, "hoodie.bloom.index.filter.dynamic.max.entries",
                                HUDI_BLOOM_DEFAULT_MAX_ENTRIES, &max_entries, err);
    if (rc < 0) return rc;
    const char *v = hudi_props_get(p, "hoodie.bloom.index.filter.type");
    if (v && (rc = hudi_bloom_type_parse(&out->type, v, strlen(v), err)) < 0) return rc;
    if ((v = hudi_props_get(p, "hoodie.index.bloom.fpp"))) out->fpp = strtod(v, NULL);
    if (entries < 1 || entries > INT32_MAX || max_entries < 1 || max_entries > INT32_MAX)
        return hudi_error_set(err, HUDI_EINVAL, "%s: bad bloom filter entry counts", t->base_path);
    out->entries = (int32_t)entries;
    out->max_entries = (int32_t)max_entries;
    return 0;
}

int hudi_write_bloom_new(const hudi_bloom_cfg *cfg, hudi_bloom **out, hudi_error *err) {
    return hudi_bloom_new(out, cfg->type, cfg->entries, cfg->fpp, cfg->max_entries, err);
}

static int open_file(fwriter *fw, hudi_error *err) {
    wctx *c = fw->c;
    hudi_buf path = HUDI_BUF_INIT;
    hudi_pq_write_options wo = HUDI_PQ_WRITE_OPTIONS_INIT;
    wo.codec = c->o.codec;
    wo.legacy_list_format = true; /* parquet-avro's old list structure (base-files.md §3) */
    wo.decimal_as_fixed = true;
    wo.row_group_bytes = fw->rg_bytes > 0 ? fw->rg_bytes : c->o.target_file_bytes;
    wo.row_group_rows = 0;
    hudi_buf_printf(&path, "%s/%s", c->t->base_path, fw->g->rel_path);
    if (hudi_buf_failed(&path)) return hudi_error_oom(err);
    int rc = hudi_pq_writer_open(&fw->w, c->t->fs, path.data, &c->file_schema, &wo, err);
    hudi_buf_dispose(&path);
    if (rc < 0) return rc;
    hudi_pq_writer_use_block_pool(fw->w, c->blocks); /* NULL: its own */
    if ((rc = hudi_pq_writer_add_kv(fw->w, "parquet.avro.schema", c->file_schema_json.data, err)) <
            0 ||
        (rc = hudi_pq_writer_add_kv(fw->w, "writer.model.name", "avro", err)) < 0)
        return rc;
    hudi_bloom_cfg bc;
    if (c->t->cfg.populate_meta_fields && ((rc = hudi_write_bloom_cfg(c->t, &bc, err)) < 0 ||
                                           (rc = hudi_write_bloom_new(&bc, &fw->bf, err)) < 0))
        return rc;
    fw->instant_len = strlen(c->instant);
    fw->part_len = strlen(c->parts[fw->g->part].path);
    fw->name_len = strlen(fw->g->name);
    int n = snprintf(fw->seq, sizeof(fw->seq), "%s_%d_", c->instant, (int)fw->g->task);
    fw->seq_len = n > 0 && (size_t)n < sizeof(fw->seq) ? (size_t)n : 0;
    if (fw->out) /* a batch of an earlier file, emptied (hudi_wfile_close) */
        ;
    else if ((rc = hudi_batch_new(&fw->out, &c->file_schema, err)) < 0)
        return rc;
    /* Give string columns a data buffer even when every value is empty: the Parquet writer's
     * dictionary compares values with memcmp on that pointer. */
    for (int32_t j = 0; j < fw->out->n_columns; j++) {
        hudi_type_id t = c->file_schema.children[j].type;
        if ((t == HUDI_TYPE_STRING || t == HUDI_TYPE_BINARY) &&
            (rc = hudi_array_reserve_data(fw->out->columns[j], 64, err)) < 0)
            return rc;
    }
    if (!(fw->idx = hudi_malloc(WRITE_CHUNK_ROWS * sizeof(int32_t)))) return hudi_error_oom(err);
    if ((rc = hudi_cdc_logger_open(&fw->cdc, c, fw->g, err)) < 0) return rc;
    if (fw->cdc && (!(fw->cdc_u_old = hudi_malloc(WRITE_CHUNK_ROWS * sizeof(int32_t))) ||
                    !(fw->cdc_u_in = hudi_malloc(WRITE_CHUNK_ROWS * sizeof(int32_t))) ||
                    !(fw->cdc_d_old = hudi_malloc(WRITE_CHUNK_ROWS * sizeof(int32_t))) ||
                    !(fw->cdc_d_in = hudi_malloc(WRITE_CHUNK_ROWS * sizeof(int32_t)))))
        return hudi_error_oom(err);
    return 0;
}

/* Footer keys in Hudi's order (base-files.md §2), then publish. */
static int close_file(fwriter *fw, hudi_error *err) {
    int rc = 0;
    if (fw->bf) {
        hudi_buf b64 = HUDI_BUF_INIT;
        rc = hudi_bloom_to_base64(fw->bf, &b64, err);
        if (rc == 0)
            rc = hudi_pq_writer_add_kv(fw->w, HUDI_BLOOM_TYPE_FOOTER_KEY,
                                       hudi_bloom_type_name(fw->bf->type), err);
        if (rc == 0) rc = hudi_pq_writer_add_kv(fw->w, HUDI_BLOOM_FOOTER_KEY, b64.data, err);
        hudi_buf_dispose(&b64);
        if (rc == 0 && fw->have_key) {
            hudi_buf_putc(&fw->min_key, 0); /* make empty buffers non-NULL */
            hudi_buf_putc(&fw->max_key, 0);
            rc = hudi_pq_writer_add_kv(fw->w, "hoodie_min_record_key", fw->min_key.data, err);
            if (rc == 0)
                rc = hudi_pq_writer_add_kv(fw->w, "hoodie_max_record_key", fw->max_key.data, err);
        }
    }
    hudi_pq_writer *w = fw->w;
    fw->w = NULL;
    if (rc < 0) {
        hudi_pq_writer_abort(w);
        return rc;
    }
    return hudi_pq_writer_close(w, &fw->g->size_bytes, err);
}

int hudi_merge_write_group(wctx *c, size_t gi, hudi_error *err) {
    fwriter fw;
    memset(&fw, 0, sizeof(fw));
    fw.c = c;
    fw.gi = gi;
    fw.g = &c->groups[gi];
    wgroup *g = fw.g;
    int64_t t0 = now_ms();
    int rc;
    if ((rc = name_group(c, g, err)) < 0) return rc;
    if ((rc = hudi_commit_write_marker(c, g, err)) < 0) return rc;
    if ((rc = hudi_partition_meta_write(c->t->fs, c->t->base_path, c->parts[g->part].path,
                                        c->instant, g->token, c->o.clock, err)) < 0)
        return rc;
    if ((rc = open_file(&fw, err)) < 0) goto done;
    if (g->old && (rc = merge_old(&fw, err)) < 0) goto done;
    /* Inserts routed here; updates whose key was not met in the file become inserts too. */
    if ((rc = write_rows(&fw, &g->upd, false, err)) < 0) goto done;
    if ((rc = write_rows(&fw, &g->ins, true, err)) < 0) goto done;
    g->num_writes = fw.pos;
    rc = close_file(&fw, err);
    if (rc == 0 && fw.cdc) rc = hudi_cdc_logger_close(fw.cdc, err);
done:
    hudi_cdc_logger_free(fw.cdc);
    hudi_free(fw.cdc_u_old);
    hudi_free(fw.cdc_u_in);
    hudi_free(fw.cdc_d_old);
    hudi_free(fw.cdc_d_in);
    hudi_pq_writer_abort(fw.w);
    hudi_batch_free(fw.out);
    hudi_bloom_free(fw.bf);
    hudi_buf_dispose(&fw.min_key);
    hudi_buf_dispose(&fw.max_key);
    hudi_free(fw.idx);
    g->time_ms = now_ms() - t0;
    return rc;
}

/* ---- a new file group written slice by slice (bulk_insert.c) ---------------------------- */

struct hudi_wfile {
    fwriter fw;
    int64_t t0;
};

void hudi_wfile_free(hudi_wfile *f) {
    if (!f) return;
    hudi_cdc_logger_free(f->fw.cdc);
    hudi_free(f->fw.cdc_u_old);
    hudi_free(f->fw.cdc_u_in);
    hudi_free(f->fw.cdc_d_old);
    hudi_free(f->fw.cdc_d_in);
    hudi_pq_writer_abort(f->fw.w);
    hudi_batch_free(f->fw.out);
    hudi_bloom_free(f->fw.bf);
    hudi_buf_dispose(&f->fw.min_key);
    hudi_buf_dispose(&f->fw.max_key);
    hudi_free(f->fw.idx);
    hudi_free(f);
}

int hudi_wfile_open(hudi_wfile **out, wctx *c, size_t gi, int64_t row_group_bytes,
                    hudi_batch *reuse, hudi_error *err) {
    *out = NULL;
    hudi_wfile *f = hudi_calloc(1, sizeof(*f));
    if (!f) {
        hudi_batch_free(reuse);
        return hudi_error_oom(err);
    }
    f->t0 = now_ms();
    f->fw.c = c;
    f->fw.gi = gi;
    f->fw.g = &c->groups[gi];
    f->fw.rg_bytes = row_group_bytes;
    f->fw.out = reuse;
    wgroup *g = f->fw.g;
    int rc = name_group(c, g, err);
    if (rc == 0) rc = hudi_commit_write_marker(c, g, err);
    if (rc == 0) rc = open_file(&f->fw, err);
    if (rc < 0) {
        hudi_wfile_free(f);
        return rc;
    }
    *out = f;
    return 0;
}

int hudi_wfile_write(hudi_wfile *f, const int32_t *rows, int64_t n, int64_t key_base,
                     hudi_error *err) {
    fwriter *fw = &f->fw;
    wctx *c = fw->c;
    int rc;
    if (n > WRITE_CHUNK_ROWS)
        return hudi_error_set(err, HUDI_EINVAL, "bulk_insert: a slice of %lld rows", (long long)n);
    fw->g = &c->groups[fw->gi]; /* c->groups moves when a file rolls over */
    /* keys: the chunk's, in c->keys at rows[k] - key_base */
    for (int64_t k = 0; k < n; k++) fw->idx[k] = (int32_t)(rows[k] - key_base);
    if ((c->t->cfg.populate_meta_fields && (rc = note_new_keys(fw, fw->idx, n, err)) < 0) ||
        (rc = meta_new_rows(fw, fw->idx, n, err)) < 0)
        return rc;
    for (int32_t j = 0; j < c->schema.n_children; j++)
        if ((rc = hudi_take_rows(fw->out->columns[HUDI_META_FIELD_COUNT + j], c->cols[j], rows, n,
                                 err)) < 0)
            return rc;
    fw->g->num_inserts += n;
    return flush(fw, err);
}

int64_t hudi_wfile_rows(const hudi_wfile *f) { return f->fw.pos; }

int64_t hudi_wfile_data_size(const hudi_wfile *f) { return hudi_pq_writer_data_size(f->fw.w); }

int hudi_wfile_close(hudi_wfile *f, hudi_batch **spare, hudi_error *err) {
    fwriter *fw = &f->fw;
    fw->g = &fw->c->groups[fw->gi];
    fw->g->num_writes = fw->pos;
    int rc = close_file(fw, err);
    fw->g->time_ms = now_ms() - f->t0;
    if (rc == 0 && spare && !*spare) {
        hudi_batch_clear(fw->out);
        *spare = fw->out;
        fw->out = NULL;
    }
    hudi_wfile_free(f);
    return rc;
}
