/* mor.c - the log records of a merge-on-read file slice and their merge with its base file
 * (docs/formats/log-file.md §10-11).
 *
 * Block selection, across the slice's log files in order: a block (other than a corrupt one)
 * whose INSTANT_TIME is after the query instant ends the scan; data and delete blocks of an
 * instant that is not committed are skipped; an incremental read (an instant range, as Hudi
 * 0.15's incremental relation scans) skips data and delete blocks outside its range instead of
 * ending the scan; a rollback command block drops the queued blocks
 * of its TARGET_INSTANT_TIME and the queued corrupt blocks; corrupt blocks are dropped. The
 * queued blocks are then applied oldest first.
 *
 * Merging, by record key (_hoodie_record_key):
 *   log record N after log record O: O stays when it is not a delete and its ordering value
 *     is greater than N's (N wins on ties, nulls and values of different types); under
 *     COMMIT_TIME N always wins; under EVENT_TIME (Hudi 1.x) a delete O that carries an ordering
 *     value (not Integer 0) stays when that value is greater;
 *   delete D (ordering value d) after O: ignored when d is not Integer 0, O's ordering value is
 *     of d's type and greater; under COMMIT_TIME never ignored;
 *   base record B vs log entry L: a delete drops B (EVENT_TIME: unless d is not Integer 0 and
 *     B's ordering value is of d's type and greater); a data record replaces B unless the mode
 *     orders by event time and B's ordering value is greater; a winning log record with
 *     _hoodie_is_deleted = true drops the row. Unmatched log records are inserts. */
#include <stdio.h>

#include "format/avro/avro.h"
#include "format/log/log.h"
#include "format/parquet/parquet.h"
#include "read/mor.h"
#include "schema/project.h"
#include "schema/schema.h"
#include "storage/storage.h"

/* A batch of log records, as the scan schema. */
typedef struct log_batch {
    hudi_array **cols; /* schema->n_children arrays */
    int64_t rows;
} log_batch;

/* The current version of a record key. */
typedef struct mor_entry {
    hudi_slice key;               /* into a log batch's key column or a delete list */
    int32_t batch;                /* the log batch of the record; -1 for a delete */
    int64_t row;                  /* its row there */
    const hudi_log_ordering *del; /* a delete's ordering value */
    bool matched;                 /* a base row took it */
} mor_entry;

/* What decoding a block left to keep alive: the writer schema the arrays may borrow. */
typedef struct block_keep {
    hudi_avro_schema *avro;
    hudi_field writer;
    hudi_pq_file *pf;
    hudi_pq_scan *scan;
} block_keep;

struct hudi_mor_slice {
    const hudi_mor_options *o;
    int32_t n_cols;
    hudi_buf *files; /* the bytes of each log file, while its blocks are decoded */
    hudi_log_blocks *blocks;
    size_t n_files;
    hudi_vec batches; /* log_batch */
    hudi_vec keeps;   /* block_keep */
    hudi_vec deletes; /* hudi_log_deletes * */
    hudi_fs *mem;     /* Parquet data blocks are opened from here */
    mor_entry *entries;
    size_t n_entries, cap_entries;
    int32_t *index; /* open addressing: entry + 1, 0 = empty */
    size_t index_cap;
    size_t next_insert; /* hudi_mor_next_inserts's cursor */
    hudi_mor_stats stats;
    const char *corrupt_file;
    /* hudi_mor_merge's plan: runs of rows */
    int32_t *run_src; /* -1 = base, else log batch */
    int64_t *run_start, *run_len;
    size_t n_runs, cap_runs;
};

/* ---- merge mode --------------------------------------------------------------------------- */

int hudi_mor_merge_mode_of(hudi_mor_merge_mode *out, const hudi_table_config *cfg,
                           const char *table_path, hudi_error *err) {
    const char *mm = cfg->merge_mode;
    if (cfg->version >= 8 && mm && *mm) {
        if (strcmp(mm, "COMMIT_TIME_ORDERING") == 0) {
            *out = HUDI_MOR_COMMIT_TIME;
            return 0;
        }
        if (strcmp(mm, "EVENT_TIME_ORDERING") == 0) {
            *out = HUDI_MOR_EVENT_TIME;
            return 0;
        }
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "%s: hoodie.record.merge.mode=%s: merge-on-read snapshots are read "
                              "with COMMIT_TIME_ORDERING or EVENT_TIME_ORDERING only",
                              table_path, mm);
    }
    if (cfg->version >= 8) {
        *out = cfg->precombine_field && *cfg->precombine_field ? HUDI_MOR_EVENT_TIME
                                                               : HUDI_MOR_COMMIT_TIME;
        return 0;
    }
    const char *pc = cfg->payload_class;
    const char *dot = pc ? strrchr(pc, '.') : NULL;
    const char *simple = dot ? dot + 1 : pc;
    if (!simple || !*simple || strcmp(simple, "OverwriteWithLatestAvroPayload") == 0) {
        *out = HUDI_MOR_OVERWRITE_LATEST;
        return 0;
    }
    if (strcmp(simple, "DefaultHoodieRecordPayload") == 0 ||
        strcmp(simple, "EventTimeAvroPayload") == 0) {
        *out = HUDI_MOR_DEFAULT_PAYLOAD;
        return 0;
    }
    return hudi_error_set(err, HUDI_EUNSUPPORTED,
                          "%s: payload class %s: merge-on-read snapshots are read with "
                          "OverwriteWithLatestAvroPayload or DefaultHoodieRecordPayload only",
                          table_path, pc);
}

/* ---- ordering values ---------------------------------------------------------------------- */

/* The ordering value at `row` of `a` as a delete's ordering value would hold it. */
static hudi_log_ordering ordering_at(const hudi_array *a, int64_t row) {
    hudi_log_ordering o = {HUDI_LOG_ORDER_NULL, 0, 0, {NULL, 0}};
    if (!a || !hudi_array_is_valid(a, row)) return o;
    const hudi_field *f = a->field;
    switch (f->type) {
    case HUDI_TYPE_BOOL:
        o.kind = HUDI_LOG_ORDER_BOOLEAN;
        o.i = hudi_bit_get(a->values, row);
        break;
    case HUDI_TYPE_INT8:
        o = (hudi_log_ordering){.kind = HUDI_LOG_ORDER_INT, .i = ((int8_t *)a->values)[row]};
        break;
    case HUDI_TYPE_INT16:
        o = (hudi_log_ordering){.kind = HUDI_LOG_ORDER_INT, .i = ((int16_t *)a->values)[row]};
        break;
    case HUDI_TYPE_INT32:
        o = (hudi_log_ordering){.kind = HUDI_LOG_ORDER_INT, .i = ((int32_t *)a->values)[row]};
        break;
    case HUDI_TYPE_INT64:
        o = (hudi_log_ordering){.kind = HUDI_LOG_ORDER_LONG, .i = ((int64_t *)a->values)[row]};
        break;
    case HUDI_TYPE_FLOAT:
        o.kind = HUDI_LOG_ORDER_FLOAT;
        o.d = ((float *)a->values)[row];
        break;
    case HUDI_TYPE_DOUBLE:
        o.kind = HUDI_LOG_ORDER_DOUBLE;
        o.d = ((double *)a->values)[row];
        break;
    case HUDI_TYPE_DATE:
        o = (hudi_log_ordering){.kind = HUDI_LOG_ORDER_DATE, .i = ((int32_t *)a->values)[row]};
        break;
    case HUDI_TYPE_TIMESTAMP: {
        int64_t v = ((int64_t *)a->values)[row];
        if (f->unit == HUDI_UNIT_MILLIS) v *= 1000;
        if (f->unit == HUDI_UNIT_NANOS) v /= 1000;
        o = (hudi_log_ordering){.kind = HUDI_LOG_ORDER_TIMESTAMP, .i = v};
        break;
    }
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY:
        o.kind = f->type == HUDI_TYPE_STRING ? HUDI_LOG_ORDER_STRING : HUDI_LOG_ORDER_BYTES;
        o.bytes =
            HUDI_SLICE(a->data + a->offsets[row], (size_t)(a->offsets[row + 1] - a->offsets[row]));
        break;
    default: break; /* other types: not comparable (treated as no ordering value) */
    }
    return o;
}

/* Whether ordering value `a` is greater than `b` (both present and of the same type). */
static bool greater(const hudi_log_ordering *a, const hudi_log_ordering *b) {
    int c = 0;
    if (a->kind == HUDI_LOG_ORDER_NULL || b->kind == HUDI_LOG_ORDER_NULL) return false;
    return hudi_log_ordering_cmp(a, b, &c) && c > 0;
}

/* Integer 0: a delete without ordering value (Hudi's default). */
static bool no_ordering(const hudi_log_ordering *d) {
    return d->kind == HUDI_LOG_ORDER_NULL || (d->kind == HUDI_LOG_ORDER_INT && d->i == 0);
}

/* ---- the key index ------------------------------------------------------------------------ */

static uint64_t hash_key(hudi_slice k) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < k.len; i++) h = (h ^ k.data[i]) * 1099511628211ull;
    return h;
}

static int index_grow(hudi_mor_slice *m, hudi_error *err) {
    size_t cap = m->index_cap ? m->index_cap * 2 : 1024;
    int32_t *idx = hudi_calloc(cap, sizeof(int32_t));
    if (!idx) return hudi_error_oom(err);
    for (size_t e = 0; e < m->n_entries; e++) {
        size_t h = (size_t)hash_key(m->entries[e].key) & (cap - 1);
        while (idx[h]) h = (h + 1) & (cap - 1);
        idx[h] = (int32_t)e + 1;
    }
    hudi_free(m->index);
    m->index = idx;
    m->index_cap = cap;
    return 0;
}

/* The entry of `key`, or NULL. */
static mor_entry *lookup(const hudi_mor_slice *m, hudi_slice key) {
    if (!m->index_cap) return NULL;
    size_t h = (size_t)hash_key(key) & (m->index_cap - 1);
    for (; m->index[h]; h = (h + 1) & (m->index_cap - 1)) {
        mor_entry *e = &m->entries[m->index[h] - 1];
        if (hudi_slice_eq(e->key, key)) return e;
    }
    return NULL;
}

static int add_entry(hudi_mor_slice *m, const mor_entry *e, hudi_error *err) {
    if (m->n_entries >= INT32_MAX - 1)
        return hudi_error_set(err, HUDI_ENOMEM, "more than 2^31 log records in one file slice");
    if ((m->n_entries + 1) * 2 > m->index_cap && index_grow(m, err) < 0) return HUDI_ENOMEM;
    if (m->n_entries == m->cap_entries) {
        size_t cap = m->cap_entries ? m->cap_entries * 2 : 256;
        mor_entry *n = hudi_realloc(m->entries, cap * sizeof(*n));
        if (!n) return hudi_error_oom(err);
        m->entries = n;
        m->cap_entries = cap;
    }
    m->entries[m->n_entries] = *e;
    size_t h = (size_t)hash_key(e->key) & (m->index_cap - 1);
    while (m->index[h]) h = (h + 1) & (m->index_cap - 1);
    m->index[h] = (int32_t)m->n_entries + 1;
    m->n_entries++;
    return 0;
}

static hudi_log_ordering entry_ordering(const hudi_mor_slice *m, const mor_entry *e) {
    if (e->batch < 0) return *e->del;
    const log_batch *b = &hudi_vec_at(&m->batches, log_batch, e->batch);
    return ordering_at(m->o->ordering_col >= 0 ? b->cols[m->o->ordering_col] : NULL, e->row);
}

/* Adds the records of log batch `bi` (§9.2 of the header comment). */
static int apply_batch(hudi_mor_slice *m, int32_t bi, const char *name, hudi_error *err) {
    const log_batch *b = &hudi_vec_at(&m->batches, log_batch, bi);
    const hudi_array *keys = b->cols[m->o->key_col];
    const hudi_array *ord = m->o->ordering_col >= 0 ? b->cols[m->o->ordering_col] : NULL;
    for (int64_t r = 0; r < b->rows; r++) {
        if (!hudi_array_is_valid(keys, r))
            return hudi_error_set(err, HUDI_ECORRUPT, "%s: a log record without record key", name);
        hudi_slice key = HUDI_SLICE(keys->data + keys->offsets[r],
                                    (size_t)(keys->offsets[r + 1] - keys->offsets[r]));
        mor_entry *e = lookup(m, key);
        if (!e) {
            mor_entry n = {key, bi, r, NULL, false};
            if (add_entry(m, &n, err) < 0) return HUDI_ENOMEM;
            continue;
        }
        /* A delete is replaced, except under EVENT_TIME by one whose ordering value is less. */
        bool compare = e->batch >= 0 ? m->o->mode != HUDI_MOR_COMMIT_TIME
                                     : m->o->mode == HUDI_MOR_EVENT_TIME && !no_ordering(e->del);
        if (compare) {
            hudi_log_ordering old = entry_ordering(m, e), now = ordering_at(ord, r);
            if (greater(&old, &now)) continue;
        }
        e->key = key;
        e->batch = bi;
        e->row = r;
        e->del = NULL;
    }
    m->stats.log_records += b->rows;
    return 0;
}

static int apply_deletes(hudi_mor_slice *m, const hudi_log_deletes *d, hudi_error *err) {
    for (size_t i = 0; i < d->count; i++) {
        const hudi_log_delete *x = &d->items[i];
        if (!x->record_key.data) continue; /* no key: nothing to delete */
        mor_entry *e = lookup(m, x->record_key);
        if (!e) {
            mor_entry n = {x->record_key, -1, 0, &x->ordering, false};
            if (add_entry(m, &n, err) < 0) return HUDI_ENOMEM;
            continue;
        }
        if (m->o->mode != HUDI_MOR_COMMIT_TIME && !no_ordering(&x->ordering)) {
            hudi_log_ordering old = entry_ordering(m, e);
            if (greater(&old, &x->ordering)) continue;
        }
        e->key = x->record_key;
        e->batch = -1;
        e->del = &x->ordering;
    }
    m->stats.delete_records += (int64_t)d->count;
    return 0;
}

/* ---- decoding data blocks ----------------------------------------------------------------- */

/* Projects the columns `src` (of `file`, the block's schema; `map` file column -> src index)
 * onto the scan schema and adds them as a log batch. Takes the arrays of src it uses. */
static int add_projected(hudi_mor_slice *m, const hudi_projection *p, hudi_array **src,
                         const int32_t *map, int64_t rows, int32_t *bi, hudi_error *err) {
    const hudi_field *schema = m->o->schema;
    log_batch *b = hudi_vec_push(&m->batches);
    if (!b) return hudi_error_oom(err);
    *bi = (int32_t)(m->batches.len - 1);
    b->rows = rows;
    if (!(b->cols = hudi_calloc((size_t)m->n_cols + 1, sizeof(hudi_array *))))
        return hudi_error_oom(err);
    for (int32_t i = 0; i < m->n_cols; i++) {
        int32_t c = hudi_projection_source(p, i);
        hudi_array *a = c >= 0 ? src[map ? map[c] : c] : NULL;
        bool moved = false;
        int rc =
            hudi_projection_column(p, i, a, rows, &schema->children[i], &b->cols[i], &moved, err);
        if (moved) src[map ? map[c] : c] = NULL;
        if (rc < 0) return rc;
    }
    return 0;
}

static int block_projection(hudi_mor_slice *m, hudi_projection **p, const hudi_field *file,
                            const hudi_log_block *blk, const char *name, hudi_error *err) {
    hudi_field names = {0};
    int rc = 0;
    bool by_names = false;
    if (m->o->names && blk->header[HUDI_LOG_INSTANT_TIME].data) {
        char instant[HUDI_INSTANT_TIME_MAX];
        hudi_slice it = blk->header[HUDI_LOG_INSTANT_TIME];
        snprintf(instant, sizeof(instant), "%.*s", (int)HUDI_MIN(it.len, sizeof(instant) - 1),
                 (const char *)it.data);
        rc = m->o->names(m->o->names_ctx, instant, &names, err);
        by_names = rc == 0;
    }
    if (rc == 0)
        rc = hudi_projection_new(p, file, m->o->schema, by_names ? &names : NULL, false, name, err);
    hudi_field_dispose(&names);
    return rc;
}

static int read_avro_block(hudi_mor_slice *m, const hudi_log_block *blk, const char *name,
                           hudi_error *err) {
    hudi_slice js = blk->header[HUDI_LOG_SCHEMA];
    if (!js.data)
        return hudi_error_set(err, HUDI_ECORRUPT, "%s: data block at %lld has no schema", name,
                              (long long)blk->offset);
    block_keep *k = hudi_vec_push(&m->keeps);
    if (!k) return hudi_error_oom(err);
    hudi_batch *batch = NULL;
    hudi_projection *p = NULL;
    int32_t bi = -1;
    int rc = hudi_avro_schema_parse(&k->avro, js, err);
    if (rc == 0) rc = hudi_schema_parse_avro(&k->writer, (const char *)js.data, js.len, err);
    if (rc == 0) rc = hudi_log_avro_block_read(&batch, blk, k->avro, &k->writer, name, err);
    if (rc == 0) rc = block_projection(m, &p, &k->writer, blk, name, err);
    if (rc == 0) rc = add_projected(m, p, batch->columns, NULL, batch->num_rows, &bi, err);
    hudi_projection_free(p);
    hudi_batch_free(batch);
    if (rc == 0) rc = apply_batch(m, bi, name, err);
    return rc;
}

static int read_parquet_block(hudi_mor_slice *m, const hudi_log_block *blk, const char *name,
                              hudi_error *err) {
    char path[64];
    snprintf(path, sizeof(path), "/block%zu.parquet", m->keeps.len);
    block_keep *k = hudi_vec_push(&m->keeps);
    if (!k) return hudi_error_oom(err);
    int rc = 0;
    if (!m->mem) rc = hudi_fs_memory_new(&m->mem, err);
    if (rc == 0)
        rc = hudi_fs_write_all(m->mem, path, 0644, blk->content.data, blk->content.len, err);
    if (rc == 0) rc = hudi_pq_open(&k->pf, m->mem, path, NULL, err);
    hudi_projection *p = NULL;
    int32_t *cols = NULL, *map = NULL, n = 0;
    if (rc == 0) rc = block_projection(m, &p, hudi_pq_schema(k->pf), blk, name, err);
    if (rc == 0) {
        int32_t nf = hudi_pq_schema(k->pf)->n_children;
        cols = hudi_calloc((size_t)m->n_cols + 1, sizeof(int32_t));
        map = hudi_calloc((size_t)nf + 1, sizeof(int32_t));
        if (!cols || !map) rc = hudi_error_oom(err);
        for (int32_t i = 0; rc == 0 && i < m->n_cols; i++) {
            int32_t c = hudi_projection_source(p, i);
            if (c < 0) continue;
            map[c] = n;
            cols[n++] = c;
        }
    }
    if (rc == 0) {
        hudi_pq_scan_options so = HUDI_PQ_SCAN_OPTIONS_INIT;
        so.columns = cols;
        so.n_columns = n;
        rc = hudi_pq_scan_open(&k->scan, k->pf, &so, err);
    }
    for (;;) {
        hudi_batch *b = NULL;
        int32_t bi = -1;
        if (rc < 0 || (rc = hudi_pq_scan_next(k->scan, &b, err)) < 0 || !b) break;
        b = hudi_pq_scan_take_batch(k->scan);
        rc = add_projected(m, p, b->columns, map, b->num_rows, &bi, err);
        hudi_batch_free(b);
        if (rc == 0) rc = apply_batch(m, bi, name, err);
    }
    hudi_projection_free(p);
    hudi_free(cols);
    hudi_free(map);
    return rc;
}

static int read_delete_block(hudi_mor_slice *m, const hudi_log_block *blk, const char *name,
                             hudi_error *err) {
    hudi_log_deletes **slot = hudi_vec_push(&m->deletes);
    if (!slot) return hudi_error_oom(err);
    if (!(*slot = hudi_calloc(1, sizeof(hudi_log_deletes)))) return hudi_error_oom(err);
    **slot = (hudi_log_deletes)HUDI_LOG_DELETES_INIT;
    int rc = hudi_log_delete_block_read(*slot, blk, name, err);
    if (rc == 0) rc = apply_deletes(m, *slot, err);
    return rc;
}

/* ---- block selection ---------------------------------------------------------------------- */

typedef struct queued {
    uint32_t file;
    uint32_t block;
} queued;

static bool header_is(const hudi_log_block *b, hudi_log_meta_key k, const char *s) {
    return b->header[k].data && hudi_slice_eq(b->header[k], hudi_slice_cstr(s));
}

/* Compares header INSTANT_TIME of `b` with instant time `t` (strcmp order). */
static int instant_cmp(hudi_slice it, const char *t) {
    size_t n = strlen(t), k = HUDI_MIN(it.len, n);
    int c = k ? memcmp(it.data, t, k) : 0;
    if (c) return c;
    return (it.len > n) - (it.len < n);
}

static bool committed(const hudi_mor_slice *m, hudi_slice it) {
    char t[HUDI_INSTANT_TIME_MAX];
    if (!it.data || it.len >= sizeof(t)) return false;
    memcpy(t, it.data, it.len);
    t[it.len] = '\0';
    return hudi_timeline_is_committed(m->o->timeline, t);
}

/* Whether a data or delete block's instant is in an incremental read's range. */
static bool in_range(const hudi_mor_slice *m, hudi_slice it) {
    if (!m->o->range_end) return true;
    if (!it.data) return false;
    if (m->o->range_begin && instant_cmp(it, m->o->range_begin) <= 0) return false;
    return instant_cmp(it, m->o->range_end) <= 0;
}

/* The blocks that apply, in order (the header comment's rules). */
static int select_blocks(hudi_mor_slice *m, hudi_vec *q, hudi_error *err) {
    const char *as_of = m->o->as_of && *m->o->as_of ? m->o->as_of : NULL;
    for (size_t f = 0; f < m->n_files; f++) {
        for (size_t i = 0; i < m->blocks[f].count; i++) {
            const hudi_log_block *b = &m->blocks[f].blocks[i];
            hudi_slice it = b->header[HUDI_LOG_INSTANT_TIME];
            m->stats.blocks++;
            if (b->type != HUDI_LOG_CORRUPT_BLOCK && as_of && !m->o->range_end && it.data &&
                instant_cmp(it, as_of) > 0)
                return 0; /* after the query instant: the scan ends */
            if (b->type == HUDI_LOG_COMMAND_BLOCK) {
                hudi_slice target = b->header[HUDI_LOG_TARGET_INSTANT_TIME];
                if (!header_is(b, HUDI_LOG_COMMAND_BLOCK_TYPE, "0") || !target.data) continue;
                size_t kept = 0;
                for (size_t k = 0; k < q->len; k++) {
                    queued x = hudi_vec_at(q, queued, k);
                    const hudi_log_block *qb = &m->blocks[x.file].blocks[x.block];
                    if (qb->type == HUDI_LOG_CORRUPT_BLOCK ||
                        hudi_slice_eq(qb->header[HUDI_LOG_INSTANT_TIME], target)) {
                        m->stats.blocks_skipped++;
                        continue;
                    }
                    hudi_vec_at(q, queued, kept++) = x;
                }
                q->len = kept;
                continue;
            }
            if (b->type != HUDI_LOG_CORRUPT_BLOCK && (!committed(m, it) || !in_range(m, it))) {
                m->stats.blocks_skipped++;
                continue;
            }
            queued *x = hudi_vec_push(q);
            if (!x) return hudi_error_oom(err);
            *x = (queued){(uint32_t)f, (uint32_t)i};
        }
    }
    return 0;
}

int hudi_mor_slice_open(hudi_mor_slice **out, const hudi_mor_options *opts,
                        const hudi_file_slice *s, hudi_error *err) {
    hudi_mor_slice *m = hudi_calloc(1, sizeof(*m));
    hudi_vec q = HUDI_VEC_INIT(queued);
    int rc = 0;
    *out = NULL;
    if (!m) return hudi_error_oom(err);
    m->o = opts;
    m->n_cols = opts->schema->n_children;
    m->batches = (hudi_vec)HUDI_VEC_INIT(log_batch);
    m->keeps = (hudi_vec)HUDI_VEC_INIT(block_keep);
    m->deletes = (hudi_vec)HUDI_VEC_INIT(hudi_log_deletes *);
    m->n_files = s->logs_count;
    if (!(m->files = hudi_calloc(s->logs_count + 1, sizeof(hudi_buf))) ||
        !(m->blocks = hudi_calloc(s->logs_count + 1, sizeof(hudi_log_blocks)))) {
        hudi_mor_slice_free(m);
        return hudi_error_oom(err);
    }
    for (size_t f = 0; rc == 0 && f < s->logs_count; f++) {
        const hudi_log_file *lf = &s->logs[f];
        m->files[f] = (hudi_buf)HUDI_BUF_INIT;
        m->blocks[f] = (hudi_log_blocks)HUDI_LOG_BLOCKS_INIT;
        rc = hudi_fs_read_all(opts->fs, lf->path, &m->files[f], err);
        if (rc == 0)
            rc = hudi_log_scan(&m->blocks[f], HUDI_SLICE(m->files[f].data, m->files[f].len),
                               lf->path, err);
        m->stats.log_files++;
        if (rc == 0 && m->blocks[f].corrupt > 0) {
            m->stats.corrupt_blocks += (int64_t)m->blocks[f].corrupt;
            if (!m->corrupt_file) m->corrupt_file = lf->path;
        }
    }
    if (rc == 0) rc = select_blocks(m, &q, err);
    for (size_t k = 0; rc == 0 && k < q.len; k++) {
        queued x = hudi_vec_at(&q, queued, k);
        const hudi_log_block *b = &m->blocks[x.file].blocks[x.block];
        const char *name = s->logs[x.file].path;
        switch (b->type) {
        case HUDI_LOG_AVRO_DATA_BLOCK: rc = read_avro_block(m, b, name, err); break;
        case HUDI_LOG_PARQUET_DATA_BLOCK: rc = read_parquet_block(m, b, name, err); break;
        case HUDI_LOG_DELETE_BLOCK: rc = read_delete_block(m, b, name, err); break;
        case HUDI_LOG_CORRUPT_BLOCK: break; /* dropped (counted above) */
        case HUDI_LOG_HFILE_DATA_BLOCK:
            rc = hudi_error_set(err, HUDI_EUNSUPPORTED,
                                "%s: HFile data block at %lld: HFile log blocks (metadata "
                                "tables) are not supported",
                                name, (long long)b->offset);
            break;
        default:
            rc = hudi_error_set(err, HUDI_EUNSUPPORTED, "%s: block type %d at %lld in a data log",
                                name, (int)b->type, (long long)b->offset);
        }
    }
    hudi_vec_dispose(&q);
    /* Decoded batches and delete lists own their bytes: the files are no longer needed. */
    for (size_t f = 0; f < m->n_files; f++) {
        hudi_log_blocks_dispose(&m->blocks[f]);
        hudi_buf_dispose(&m->files[f]);
    }
    if (rc < 0) {
        hudi_mor_slice_free(m);
        return rc;
    }
    *out = m;
    return 0;
}

void hudi_mor_slice_free(hudi_mor_slice *m) {
    if (!m) return;
    for (size_t i = 0; i < m->batches.len; i++) {
        log_batch *b = &hudi_vec_at(&m->batches, log_batch, i);
        for (int32_t c = 0; b->cols && c < m->n_cols; c++) hudi_array_free(b->cols[c]);
        hudi_free(b->cols);
    }
    hudi_vec_dispose(&m->batches);
    for (size_t i = 0; i < m->keeps.len; i++) {
        block_keep *k = &hudi_vec_at(&m->keeps, block_keep, i);
        hudi_pq_scan_free(k->scan);
        hudi_pq_close(k->pf);
        hudi_field_dispose(&k->writer);
        hudi_avro_schema_free(k->avro);
    }
    hudi_vec_dispose(&m->keeps);
    for (size_t i = 0; i < m->deletes.len; i++) {
        hudi_log_deletes *d = hudi_vec_at(&m->deletes, hudi_log_deletes *, i);
        hudi_log_deletes_dispose(d);
        hudi_free(d);
    }
    hudi_vec_dispose(&m->deletes);
    for (size_t f = 0; f < m->n_files; f++) {
        if (m->blocks) hudi_log_blocks_dispose(&m->blocks[f]);
        if (m->files) hudi_buf_dispose(&m->files[f]);
    }
    hudi_free(m->blocks);
    hudi_free(m->files);
    hudi_fs_free(m->mem);
    hudi_free(m->entries);
    hudi_free(m->index);
    hudi_free(m->run_src);
    hudi_free(m->run_start);
    hudi_free(m->run_len);
    hudi_free(m);
}

const hudi_mor_stats *hudi_mor_slice_stats(const hudi_mor_slice *m) { return &m->stats; }
const char *hudi_mor_corrupt_file(const hudi_mor_slice *m) { return m->corrupt_file; }

/* ---- merging ------------------------------------------------------------------------------ */

static int add_run(hudi_mor_slice *m, int32_t src, int64_t row, hudi_error *err) {
    size_t n = m->n_runs;
    if (n > 0 && m->run_src[n - 1] == src && m->run_start[n - 1] + m->run_len[n - 1] == row) {
        m->run_len[n - 1]++;
        return 0;
    }
    if (n == m->cap_runs) {
        size_t cap = m->cap_runs ? m->cap_runs * 2 : 64;
        int32_t *s = hudi_realloc(m->run_src, cap * sizeof(int32_t));
        if (s) m->run_src = s;
        int64_t *st = s ? hudi_realloc(m->run_start, cap * sizeof(int64_t)) : NULL;
        if (st) m->run_start = st;
        int64_t *ln = st ? hudi_realloc(m->run_len, cap * sizeof(int64_t)) : NULL;
        if (!ln) return hudi_error_oom(err);
        m->run_len = ln;
        m->cap_runs = cap;
    }
    m->run_src[n] = src;
    m->run_start[n] = row;
    m->run_len[n] = 1;
    m->n_runs++;
    return 0;
}

/* Builds the planned runs into new arrays of `fields`; base rows come from `in`. */
static int build_runs(hudi_mor_slice *m, hudi_array *const *in, const hudi_field *const *fields,
                      hudi_array **out, int64_t *out_rows, hudi_error *err) {
    int64_t total = 0;
    for (size_t k = 0; k < m->n_runs; k++) total += m->run_len[k];
    for (int32_t c = 0; c < m->n_cols; c++) out[c] = NULL;
    for (int32_t c = 0; c < m->n_cols; c++) {
        int rc = hudi_array_new(&out[c], fields[c], err);
        if (rc == 0) rc = hudi_array_reserve(out[c], total, err);
        for (size_t k = 0; rc == 0 && k < m->n_runs; k++) {
            const hudi_array *src =
                m->run_src[k] < 0 ? in[c]
                                  : hudi_vec_at(&m->batches, log_batch, m->run_src[k]).cols[c];
            rc = hudi_array_append_range(out[c], src, m->run_start[k], m->run_len[k], err);
        }
        if (rc < 0) {
            for (int32_t i = 0; i <= c; i++) {
                hudi_array_free(out[i]);
                out[i] = NULL;
            }
            return rc;
        }
    }
    *out_rows = total;
    return 0;
}

static bool log_row_deleted(const hudi_mor_slice *m, int32_t bi, int64_t row) {
    if (m->o->is_deleted_col < 0) return false;
    const hudi_array *a = hudi_vec_at(&m->batches, log_batch, bi).cols[m->o->is_deleted_col];
    return a->field->type == HUDI_TYPE_BOOL && hudi_array_is_valid(a, row) &&
           hudi_bit_get(a->values, row);
}

int hudi_mor_merge(hudi_mor_slice *m, hudi_array *const *in, int64_t rows, hudi_array **out,
                   int64_t *out_rows, hudi_error *err) {
    const hudi_array *keys = in[m->o->key_col];
    const hudi_array *ord = m->o->ordering_col >= 0 ? in[m->o->ordering_col] : NULL;
    hudi_mor_merge_mode mode = m->o->mode;
    const hudi_field *fields[1024];
    if (m->n_cols > (int32_t)HUDI_ARRAY_LEN(fields))
        return hudi_error_set(err, HUDI_EUNSUPPORTED, "more than 1024 columns");
    m->n_runs = 0;
    for (int64_t r = 0; r < rows; r++) {
        mor_entry *e = NULL;
        if (hudi_array_is_valid(keys, r))
            e = lookup(m, HUDI_SLICE(keys->data + keys->offsets[r],
                                     (size_t)(keys->offsets[r + 1] - keys->offsets[r])));
        int rc = 0;
        if (!e) {
            rc = add_run(m, -1, r, err);
        } else {
            e->matched = true;
            hudi_log_ordering base = ordering_at(ord, r);
            if (e->batch < 0) {
                bool keep =
                    mode == HUDI_MOR_EVENT_TIME && !no_ordering(e->del) && greater(&base, e->del);
                if (keep) rc = add_run(m, -1, r, err);
            } else {
                bool keep = false;
                if (mode == HUDI_MOR_EVENT_TIME || mode == HUDI_MOR_DEFAULT_PAYLOAD) {
                    hudi_log_ordering lo = entry_ordering(m, e);
                    keep = greater(&base, &lo);
                }
                if (keep)
                    rc = add_run(m, -1, r, err);
                else if (!log_row_deleted(m, e->batch, e->row))
                    rc = add_run(m, e->batch, e->row, err);
            }
        }
        if (rc < 0) return rc;
    }
    for (int32_t c = 0; c < m->n_cols; c++) fields[c] = in[c]->field;
    return build_runs(m, in, fields, out, out_rows, err);
}

int hudi_mor_next_inserts(hudi_mor_slice *m, const hudi_field *const *fields, hudi_array **out,
                          int64_t *out_rows, hudi_error *err) {
    int64_t max = m->o->batch_rows > 0 ? m->o->batch_rows : 65536, n = 0;
    m->n_runs = 0;
    *out_rows = 0;
    for (; m->next_insert < m->n_entries && n < max; m->next_insert++) {
        const mor_entry *e = &m->entries[m->next_insert];
        if (e->matched || e->batch < 0 || log_row_deleted(m, e->batch, e->row)) continue;
        int rc = add_run(m, e->batch, e->row, err);
        if (rc < 0) return rc;
        n++;
    }
    if (n == 0) return 0;
    return build_runs(m, NULL, fields, out, out_rows, err);
}
