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

#define ENTRY_DELETE (-1)  /* mor_entry.batch of a delete */
#define ENTRY_SPILLED (-2) /* of a record in the spill file */
#define RUN_BASE (-1)      /* run_src of base rows */
#define RUN_GATHER (-2)    /* of rows of the gathered (spilled) records */

/* The current version of a record key. */
typedef struct mor_entry {
    uint64_t hash;  /* hash_key(key) */
    hudi_slice key; /* into a log batch's key column, a delete list or the spill arena */
    int32_t batch;  /* the log batch of the record; ENTRY_DELETE; ENTRY_SPILLED */
    uint32_t len;   /* spilled: bytes of its record in the spill file */
    int64_t row;    /* its row there; spilled: the record's offset in the spill file */
    const hudi_log_ordering *ord; /* a delete's ordering value; a spilled record's */
    bool matched;                 /* a base row took it */
    bool deleted;                 /* spilled: the record's _hoodie_is_deleted is true */
} mor_entry;

/* A slot of the key index. */
typedef struct mor_slot {
    uint32_t tag;  /* HASH_TAG of the entry's hash */
    int32_t entry; /* entry + 1, 0 = empty */
} mor_slot;

/* A block that applies: where it is, and its instant (kept when the file's bytes are not). */
typedef struct queued {
    uint32_t file;
    uint32_t block;
    bool corrupt;
    uint8_t instant_len; /* 0xff: too long to be an instant */
    char instant[HUDI_INSTANT_TIME_MAX];
} queued;

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
    hudi_fs *mem_fs;  /* Parquet data blocks are opened from here */
    mor_entry *entries;
    size_t n_entries, cap_entries;
    mor_slot *index; /* open addressing, linear probing */
    size_t index_cap;
    size_t next_insert; /* hudi_mor_next_inserts's cursor */
    hudi_mor_stats stats;
    const char *corrupt_file;
    /* hudi_mor_merge's plan: runs of rows */
    int32_t *run_src; /* RUN_BASE, RUN_GATHER, else log batch */
    int64_t *run_start, *run_len;
    size_t n_runs, cap_runs;
    /* bounded memory */
    int64_t max_memory;
    int64_t mem;       /* bytes of the decoded log batches in memory */
    int64_t kept;      /* bytes of log files kept between selection and decoding */
    bool *reread;      /* per log file: dropped after selection, read again to decode */
    bool no_spill;     /* the scan schema has types the spill records cannot hold */
    hudi_arena arena;  /* spilled entries' keys and ordering values */
    hudi_fs *spill_fs; /* owned when not the options' */
    bool own_spill_fs;
    char *spill_path;
    hudi_writer *spill_w; /* while records are spilled */
    hudi_file *spill_f;   /* once the logs are read */
    int64_t spill_len;
    hudi_avro_schema *spill_avro; /* the scan schema as Avro */
    hudi_field spill_field;       /* its columnar form (the scan schema's shape) */
    hudi_buf spill_buf;           /* encoded records; gathered records */
    int64_t *g_off;               /* the records to gather for the batch being built */
    uint32_t *g_len;
    size_t n_gather, cap_gather;
    hudi_batch *gathered;
    /* hudi_mor_merge's plan for one base batch: the rows a log record replaces (in row order,
     * with the record's source: a log batch or RUN_GATHER, and its row there), and the rows
     * dropped (deletes), in row order */
    int64_t *p_row, *p_srow;
    int32_t *p_src;
    hudi_array ***p_cols; /* each patch's source columns (filled once the plan is made) */
    size_t n_patch, cap_patch;
    int32_t *srcs; /* the distinct sources of the patches, whose shapes each column checks */
    size_t n_srcs, cap_srcs;
    int64_t *drops;
    size_t n_drops, cap_drops;
    /* per scan column, after hudi_mor_merge: the merged column holds the base batch's values
     * row for row (hudi_mor_same_values) */
    bool *same;
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

/* A 64-bit hash of a record key, 8 bytes at a time (keys are mostly 20-40 byte uuids or
 * composite keys): the length is mixed in first, then each word with a multiply and a shift;
 * the tail is the key's last 8 bytes (overlapping the last whole word; zero padded in a key
 * shorter than 8), then a final avalanche. Computed once per log key (kept in its entry) and
 * once per base row. */
static uint64_t hash_key(hudi_slice k) {
    const uint8_t *p = k.data;
    size_t n = k.len, i = 0;
    uint64_t h = 0x9e3779b97f4a7c15ull ^ ((uint64_t)n * 0xff51afd7ed558ccdull), w;
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
        h ^= h >> 29;
    }
    if (i < n && n >= 8) { /* the tail as the key's last 8 bytes: one fixed-size load */
        memcpy(&w, p + n - 8, 8);
        h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
    } else if (i < n) {
        w = 0;
        memcpy(&w, p + i, n - i);
        h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
    }
    h ^= h >> 32;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 29;
    return h;
}

/* A slot's tag: the hash's high 32 bits, so that most misses are settled without touching the
 * entry or its key bytes; slot.entry is entry + 1, 0 = empty. */
#define HASH_TAG(h) ((uint32_t)((h) >> 32))

static int index_grow(hudi_mor_slice *m, hudi_error *err) {
    size_t cap = m->index_cap ? m->index_cap * 2 : 1024;
    mor_slot *idx = hudi_calloc(cap, sizeof(mor_slot));
    if (!idx) return hudi_error_oom(err);
    for (size_t e = 0; e < m->n_entries; e++) {
        uint64_t hv = m->entries[e].hash;
        size_t h = (size_t)hv & (cap - 1);
        while (idx[h].entry) h = (h + 1) & (cap - 1);
        idx[h] = (mor_slot){HASH_TAG(hv), (int32_t)e + 1};
    }
    hudi_free(m->index);
    m->index = idx;
    m->index_cap = cap;
    return 0;
}

/* The entry of `key` (whose hash is hv), or NULL. */
static mor_entry *lookup_hashed(const hudi_mor_slice *m, hudi_slice key, uint64_t hv) {
    if (!m->index_cap) return NULL;
    uint32_t tag = HASH_TAG(hv);
    for (size_t h = (size_t)hv & (m->index_cap - 1); m->index[h].entry;
         h = (h + 1) & (m->index_cap - 1)) {
        if (m->index[h].tag != tag) continue;
        mor_entry *e = &m->entries[m->index[h].entry - 1];
        if (e->key.len == key.len && memcmp(e->key.data, key.data, key.len) == 0) return e;
    }
    return NULL;
}

static mor_entry *lookup(const hudi_mor_slice *m, hudi_slice key) {
    return m->index_cap ? lookup_hashed(m, key, hash_key(key)) : NULL;
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
    mor_entry *ne = &m->entries[m->n_entries];
    *ne = *e;
    ne->hash = hash_key(e->key);
    size_t h = (size_t)ne->hash & (m->index_cap - 1);
    while (m->index[h].entry) h = (h + 1) & (m->index_cap - 1);
    m->index[h] = (mor_slot){HASH_TAG(ne->hash), (int32_t)m->n_entries + 1};
    m->n_entries++;
    return 0;
}

static hudi_log_ordering entry_ordering(const hudi_mor_slice *m, const mor_entry *e) {
    if (e->batch < 0) return *e->ord;
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
            mor_entry n = {0, key, bi, 0, r, NULL, false, false};
            if (add_entry(m, &n, err) < 0) return HUDI_ENOMEM;
            continue;
        }
        /* A delete is replaced, except under EVENT_TIME by one whose ordering value is less. */
        bool compare = e->batch != ENTRY_DELETE
                           ? m->o->mode != HUDI_MOR_COMMIT_TIME
                           : m->o->mode == HUDI_MOR_EVENT_TIME && !no_ordering(e->ord);
        if (compare) {
            hudi_log_ordering old = entry_ordering(m, e), now = ordering_at(ord, r);
            if (greater(&old, &now)) continue;
        }
        e->key = key;
        e->batch = bi;
        e->row = r;
        e->ord = NULL;
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
            mor_entry n = {0, x->record_key, ENTRY_DELETE, 0, 0, &x->ordering, false, false};
            if (add_entry(m, &n, err) < 0) return HUDI_ENOMEM;
            continue;
        }
        if (m->o->mode != HUDI_MOR_COMMIT_TIME && !no_ordering(&x->ordering)) {
            hudi_log_ordering old = entry_ordering(m, e);
            if (greater(&old, &x->ordering)) continue;
        }
        e->key = x->record_key;
        e->batch = ENTRY_DELETE;
        e->ord = &x->ordering;
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
        m->mem += hudi_array_memory(b->cols[i]);
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
    if (!m->mem_fs) rc = hudi_fs_memory_new(&m->mem_fs, err);
    if (rc == 0)
        rc = hudi_fs_write_all(m->mem_fs, path, 0644, blk->content.data, blk->content.len, err);
    if (rc == 0) rc = hudi_pq_open(&k->pf, m->mem_fs, path, NULL, err);
    m->mem += (int64_t)blk->content.len; /* the copy the Parquet reader reads */
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

static int add_run(hudi_mor_slice *m, int32_t src, int64_t row, hudi_error *err);

/* ---- spilling (bounded memory) ------------------------------------------------------------ */

/* The scan schema as Avro, for the spill records; no_spill when it has types Avro cannot hold
 * (then the merge is not bounded - hudi_mor_slice_open's caller sees it in the stats). */
static int spill_schema(hudi_mor_slice *m, hudi_error *err) {
    hudi_buf js = HUDI_BUF_INIT;
    hudi_error scratch = HUDI_ERROR_INIT;
    hudi_field root = *m->o->schema;
    root.name = (char *)"hudic.spill";
    int rc = hudi_schema_write_avro(&js, &root, HUDI_AVRO_STYLE_HUDI, &scratch);
    if (rc == 0 && hudi_buf_failed(&js)) rc = HUDI_ENOMEM;
    if (rc == 0) rc = hudi_schema_parse_avro(&m->spill_field, js.data, js.len, &scratch);
    if (rc == 0) rc = hudi_avro_schema_parse(&m->spill_avro, HUDI_SLICE(js.data, js.len), &scratch);
    hudi_buf_dispose(&js);
    if (rc == HUDI_ENOMEM) return hudi_error_oom(err);
    if (rc < 0) m->no_spill = true; /* types the Avro records cannot hold: not bounded */
    return 0;
}

static int spill_open(hudi_mor_slice *m, hudi_error *err) {
    static const char *const dflt = "/tmp";
    hudi_buf path = HUDI_BUF_INIT;
    int rc = spill_schema(m, err);
    if (rc < 0 || m->no_spill) return rc;
    m->spill_fs = m->o->spill_fs;
    if (!m->spill_fs) {
        if ((rc = hudi_fs_local_new(&m->spill_fs, err)) < 0) return rc;
        m->own_spill_fs = true;
    }
    const char *dir = m->o->spill_dir && *m->o->spill_dir ? m->o->spill_dir : dflt;
    hudi_buf_printf(&path, "%s/hudic-merge-spill-%ld-%p-%lld", dir, hudi_os_pid(), (void *)m,
                    (long long)hudi_os_now_ms());
    if (hudi_buf_failed(&path)) return hudi_error_oom(err);
    m->spill_path = hudi_buf_detach(&path);
    return hudi_fs_create(m->spill_fs, m->spill_path, HUDI_CREATE_OVERWRITE, &m->spill_w, err);
}

static uint32_t get_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* Writes log batch bi (every row) to the spill file as Avro records (an Avro data block's
 * content without its 8-byte head: int32 length + datum per record); loc[r] = the offset of
 * row r's record, loc[rows] = the end. */
static int spill_batch(hudi_mor_slice *m, int32_t bi, int64_t *loc, hudi_error *err) {
    const log_batch *lb = &hudi_vec_at(&m->batches, log_batch, bi);
    hudi_batch b = {&m->spill_field, lb->rows, m->n_cols, lb->cols};
    hudi_buf_clear(&m->spill_buf);
    int rc = hudi_log_avro_block_encode(&m->spill_buf, &b, m->spill_avro, err);
    if (rc < 0) return rc;
    const uint8_t *d = (const uint8_t *)m->spill_buf.data;
    size_t pos = 8;
    for (int64_t r = 0; r < lb->rows; r++) {
        if (pos + 4 > m->spill_buf.len) return hudi_error_set(err, HUDI_EINVAL, "spill encoding");
        loc[r] = m->spill_len + (int64_t)pos - 8;
        pos += 4 + get_be32(d + pos);
    }
    loc[lb->rows] = m->spill_len + (int64_t)pos - 8;
    rc = hudi_writer_write(m->spill_w, d + 8, m->spill_buf.len - 8, err);
    if (rc == 0) m->spill_len += (int64_t)(m->spill_buf.len - 8);
    m->stats.spilled_records += lb->rows;
    return rc;
}

/* Moves the entries of the in-memory log batches to the spill file: their records are written
 * there, their keys and ordering values copied into the arena, and the batches (and what the
 * blocks kept alive for them) freed. */
static int spill_all(hudi_mor_slice *m, hudi_error *err) {
    int rc = 0;
    if (!m->spill_w && !m->no_spill && (rc = spill_open(m, err)) < 0) return rc;
    if (m->no_spill) return 0;
    size_t nb = m->batches.len;
    int64_t **loc = hudi_calloc(nb + 1, sizeof(int64_t *));
    if (!loc) return hudi_error_oom(err);
    for (size_t i = 0; rc == 0 && i < nb; i++) {
        log_batch *b = &hudi_vec_at(&m->batches, log_batch, i);
        if (!b->cols) continue;
        if (!(loc[i] = hudi_malloc(((size_t)b->rows + 1) * sizeof(int64_t))))
            rc = hudi_error_oom(err);
        else
            rc = spill_batch(m, (int32_t)i, loc[i], err);
    }
    for (size_t k = 0; rc == 0 && k < m->n_entries; k++) {
        mor_entry *e = &m->entries[k];
        if (e->batch < 0) continue;
        const log_batch *b = &hudi_vec_at(&m->batches, log_batch, e->batch);
        hudi_log_ordering o = entry_ordering(m, e);
        hudi_log_ordering *ord = hudi_arena_alloc(&m->arena, sizeof(*ord));
        uint8_t *key = hudi_arena_alloc(&m->arena, e->key.len + o.bytes.len + 1);
        if (!ord || !key) {
            rc = hudi_error_oom(err);
            break;
        }
        memcpy(key, e->key.data, e->key.len);
        if (o.bytes.len) memcpy(key + e->key.len, o.bytes.data, o.bytes.len);
        if (o.bytes.data) o.bytes.data = key + e->key.len;
        *ord = o;
        e->deleted = m->o->is_deleted_col >= 0 &&
                     b->cols[m->o->is_deleted_col]->field->type == HUDI_TYPE_BOOL &&
                     hudi_array_is_valid(b->cols[m->o->is_deleted_col], e->row) &&
                     hudi_bit_get(b->cols[m->o->is_deleted_col]->values, e->row);
        e->key = HUDI_SLICE(key, e->key.len);
        e->ord = ord;
        e->len = (uint32_t)(loc[e->batch][e->row + 1] - loc[e->batch][e->row]);
        e->row = loc[e->batch][e->row];
        e->batch = ENTRY_SPILLED;
    }
    for (size_t i = 0; i < nb; i++) {
        log_batch *b = &hudi_vec_at(&m->batches, log_batch, i);
        if (rc == 0 && loc[i]) {
            for (int32_t c = 0; c < m->n_cols; c++) hudi_array_free(b->cols[c]);
            hudi_free(b->cols);
            b->cols = NULL;
        }
        hudi_free(loc[i]);
    }
    hudi_free(loc);
    if (rc < 0) return rc;
    /* nothing borrows from the decoded blocks any more */
    for (size_t i = 0; i < m->keeps.len; i++) {
        block_keep *k = &hudi_vec_at(&m->keeps, block_keep, i);
        hudi_pq_scan_free(k->scan);
        hudi_pq_close(k->pf);
        k->scan = NULL;
        k->pf = NULL;
    }
    if (m->mem_fs) {
        hudi_fs_free(m->mem_fs);
        m->mem_fs = NULL;
    }
    m->mem = 0;
    m->stats.spills++;
    return 0;
}

/* The records of the entries queued by gather_add, in that order, as m->gathered: one Avro
 * data block content assembled from the spill file (adjacent records read at once). */
static int gather_load(hudi_mor_slice *m, hudi_error *err) {
    hudi_batch_free(m->gathered);
    m->gathered = NULL;
    if (m->n_gather == 0) return 0;
    size_t total = 8;
    for (size_t k = 0; k < m->n_gather; k++) total += m->g_len[k];
    hudi_buf_clear(&m->spill_buf);
    if (hudi_buf_grow(&m->spill_buf, total) < 0) return hudi_error_oom(err);
    uint8_t *d = (uint8_t *)m->spill_buf.data;
    put_be32(d, 3);
    put_be32(d + 4, (uint32_t)m->n_gather);
    size_t pos = 8;
    for (size_t k = 0; k < m->n_gather;) {
        size_t j = k + 1, len = m->g_len[k];
        while (j < m->n_gather && m->g_off[j] == m->g_off[k] + (int64_t)len) len += m->g_len[j++];
        int rc = hudi_file_read_at(m->spill_f, m->g_off[k], d + pos, len, err);
        if (rc < 0) return rc;
        pos += len;
        k = j;
    }
    m->spill_buf.len = total;
    hudi_log_block blk;
    memset(&blk, 0, sizeof(blk));
    blk.type = HUDI_LOG_AVRO_DATA_BLOCK;
    blk.format_version = 1;
    blk.content = HUDI_SLICE(d, total);
    return hudi_log_avro_block_read(&m->gathered, &blk, m->spill_avro, &m->spill_field,
                                    m->spill_path, err);
}

/* Queues the spilled record of entry e for gather_load; *at = its row in m->gathered. */
static int gather_push(hudi_mor_slice *m, const mor_entry *e, int64_t *at, hudi_error *err) {
    if (m->n_gather == m->cap_gather) {
        size_t cap = m->cap_gather ? m->cap_gather * 2 : 256;
        int64_t *o = hudi_realloc(m->g_off, cap * sizeof(int64_t));
        if (o) m->g_off = o;
        uint32_t *l = o ? hudi_realloc(m->g_len, cap * sizeof(uint32_t)) : NULL;
        if (!l) return hudi_error_oom(err);
        m->g_len = l;
        m->cap_gather = cap;
    }
    m->g_off[m->n_gather] = e->row;
    m->g_len[m->n_gather] = e->len;
    *at = (int64_t)m->n_gather++;
    return 0;
}

static int gather_add(hudi_mor_slice *m, const mor_entry *e, hudi_error *err) {
    int64_t at = 0;
    int rc = gather_push(m, e, &at, err);
    return rc < 0 ? rc : add_run(m, RUN_GATHER, at, err);
}

/* ---- block selection ---------------------------------------------------------------------- */

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

/* Selects the blocks of log file f that apply, in order, into q (the header comment's
 * rules); *ended when a block after the query instant ends the scan (not in an incremental
 * read, whose blocks outside its range are skipped instead). */
static int select_blocks(hudi_mor_slice *m, hudi_vec *q, size_t f, bool *ended, hudi_error *err) {
    const char *as_of = m->o->as_of && *m->o->as_of ? m->o->as_of : NULL;
    for (size_t i = 0; i < m->blocks[f].count; i++) {
        const hudi_log_block *b = &m->blocks[f].blocks[i];
        hudi_slice it = b->header[HUDI_LOG_INSTANT_TIME];
        m->stats.blocks++;
        if (b->type != HUDI_LOG_CORRUPT_BLOCK && as_of && !m->o->range_end && it.data &&
            instant_cmp(it, as_of) > 0) {
            *ended = true; /* after the query instant: the scan ends */
            return 0;
        }
        if (b->type == HUDI_LOG_COMMAND_BLOCK) {
            hudi_slice target = b->header[HUDI_LOG_TARGET_INSTANT_TIME];
            if (!header_is(b, HUDI_LOG_COMMAND_BLOCK_TYPE, "0") || !target.data) continue;
            size_t kept = 0;
            for (size_t k = 0; k < q->len; k++) {
                queued x = hudi_vec_at(q, queued, k);
                if (x.corrupt || (x.instant_len == target.len &&
                                  memcmp(x.instant, target.data, x.instant_len) == 0)) {
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
        memset(x, 0, sizeof(*x));
        x->file = (uint32_t)f;
        x->block = (uint32_t)i;
        x->corrupt = b->type == HUDI_LOG_CORRUPT_BLOCK;
        if (it.data && it.len < sizeof(x->instant)) {
            memcpy(x->instant, it.data, it.len);
            x->instant_len = (uint8_t)it.len;
        } else {
            x->instant_len = 0xff;
        }
    }
    return 0;
}

/* Reads and splits log file f (the first time, counting what it holds). */
static int load_file(hudi_mor_slice *m, const hudi_file_slice *s, size_t f, bool first,
                     hudi_error *err) {
    const hudi_log_file *lf = &s->logs[f];
    int rc = hudi_fs_read_all(m->o->fs, lf->path, &m->files[f], err);
    if (rc == 0)
        rc = hudi_log_scan(&m->blocks[f], HUDI_SLICE(m->files[f].data, m->files[f].len), lf->path,
                           err);
    if (rc < 0 || !first) return rc;
    m->stats.log_files++;
    if (m->blocks[f].corrupt > 0) {
        m->stats.corrupt_blocks += (int64_t)m->blocks[f].corrupt;
        if (!m->corrupt_file) m->corrupt_file = lf->path;
    }
    return 0;
}

static void unload_file(hudi_mor_slice *m, size_t f) {
    hudi_log_blocks_dispose(&m->blocks[f]);
    hudi_buf_dispose(&m->files[f]);
}

static int decode_block(hudi_mor_slice *m, const hudi_log_block *b, const char *name,
                        hudi_error *err) {
    switch (b->type) {
    case HUDI_LOG_AVRO_DATA_BLOCK: return read_avro_block(m, b, name, err);
    case HUDI_LOG_PARQUET_DATA_BLOCK: return read_parquet_block(m, b, name, err);
    case HUDI_LOG_DELETE_BLOCK: return read_delete_block(m, b, name, err);
    case HUDI_LOG_CORRUPT_BLOCK: return 0; /* dropped (counted when read) */
    case HUDI_LOG_HFILE_DATA_BLOCK:
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "%s: HFile data block at %lld: HFile log blocks (metadata "
                              "tables) are not supported",
                              name, (long long)b->offset);
    default:
        return hudi_error_set(err, HUDI_EUNSUPPORTED, "%s: block type %d at %lld in a data log",
                              name, (int)b->type, (long long)b->offset);
    }
}

/* Selection reads the files in order, keeping their bytes while they fit the memory bound
 * (else they are read again to decode); decoding applies the selected blocks in order,
 * spilling the decoded records whenever they outgrow the bound. */
int hudi_mor_slice_open(hudi_mor_slice **out, const hudi_mor_options *opts,
                        const hudi_file_slice *s, hudi_error *err) {
    hudi_mor_slice *m = hudi_calloc(1, sizeof(*m));
    hudi_vec q = HUDI_VEC_INIT(queued);
    int rc = 0;
    *out = NULL;
    if (!m) return hudi_error_oom(err);
    m->o = opts;
    m->n_cols = opts->schema->n_children;
    m->max_memory = opts->max_memory > 0 ? opts->max_memory : (int64_t)1 << 30;
    m->batches = (hudi_vec)HUDI_VEC_INIT(log_batch);
    m->keeps = (hudi_vec)HUDI_VEC_INIT(block_keep);
    m->deletes = (hudi_vec)HUDI_VEC_INIT(hudi_log_deletes *);
    m->arena = (hudi_arena)HUDI_ARENA_INIT;
    m->n_files = s->logs_count;
    if (!(m->files = hudi_calloc(s->logs_count + 1, sizeof(hudi_buf))) ||
        !(m->blocks = hudi_calloc(s->logs_count + 1, sizeof(hudi_log_blocks))) ||
        !(m->reread = hudi_calloc(s->logs_count + 1, sizeof(bool)))) {
        hudi_mor_slice_free(m);
        return hudi_error_oom(err);
    }
    for (size_t f = 0; f < s->logs_count; f++) {
        m->files[f] = (hudi_buf)HUDI_BUF_INIT;
        m->blocks[f] = (hudi_log_blocks)HUDI_LOG_BLOCKS_INIT;
    }
    bool ended = false;
    for (size_t f = 0; rc == 0 && !ended && f < s->logs_count; f++) {
        if ((rc = load_file(m, s, f, true, err)) < 0 ||
            (rc = select_blocks(m, &q, f, &ended, err)) < 0)
            break;
        if (m->kept + (int64_t)m->files[f].len > m->max_memory) {
            unload_file(m, f);
            m->reread[f] = true;
        } else {
            m->kept += (int64_t)m->files[f].len;
        }
    }
    for (size_t k = 0; rc == 0 && k < q.len; k++) {
        queued x = hudi_vec_at(&q, queued, k);
        const char *name = s->logs[x.file].path;
        if (m->reread[x.file] && !m->files[x.file].data) {
            for (size_t f = 0; f < x.file; f++) unload_file(m, f); /* decoded already */
            m->stats.reread_files++;
            if ((rc = load_file(m, s, x.file, false, err)) < 0) break;
        }
        if (x.block >= m->blocks[x.file].count) {
            rc = hudi_error_set(err, HUDI_ECORRUPT, "%s: changed while it was read", name);
            break;
        }
        const hudi_log_block *b = &m->blocks[x.file].blocks[x.block];
        rc = decode_block(m, b, name, err);
        if (rc == 0 && m->mem > m->max_memory && !m->no_spill) rc = spill_all(m, err);
    }
    hudi_vec_dispose(&q);
    /* Decoded batches and delete lists own their bytes: the files are no longer needed. */
    for (size_t f = 0; f < m->n_files; f++) unload_file(m, f);
    if (rc == 0 && m->spill_w) {
        hudi_writer *w = m->spill_w;
        m->spill_w = NULL;
        rc = hudi_writer_close(w, err);
        if (rc == 0) rc = hudi_fs_open(m->spill_fs, m->spill_path, &m->spill_f, err);
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
    hudi_fs_free(m->mem_fs);
    hudi_free(m->reread);
    hudi_free(m->same);
    hudi_arena_dispose(&m->arena);
    hudi_writer_abort(m->spill_w);
    if (m->spill_f) hudi_file_close(m->spill_f);
    if (m->spill_path) {
        hudi_error scratch = HUDI_ERROR_INIT;
        if (m->spill_fs) (void)hudi_fs_remove(m->spill_fs, m->spill_path, &scratch);
        hudi_free(m->spill_path);
    }
    if (m->own_spill_fs) hudi_fs_free(m->spill_fs);
    hudi_avro_schema_free(m->spill_avro);
    hudi_field_dispose(&m->spill_field);
    hudi_buf_dispose(&m->spill_buf);
    hudi_free(m->g_off);
    hudi_free(m->g_len);
    hudi_batch_free(m->gathered);
    hudi_free(m->entries);
    hudi_free(m->index);
    hudi_free(m->run_src);
    hudi_free(m->run_start);
    hudi_free(m->run_len);
    hudi_free(m->p_row);
    hudi_free(m->p_srow);
    hudi_free(m->p_src);
    hudi_free(m->p_cols);
    hudi_free(m->srcs);
    hudi_free(m->drops);
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
            int32_t rs = m->run_src[k];
            const hudi_array *src = rs == RUN_BASE ? in[c]
                                    : rs == RUN_GATHER
                                        ? m->gathered->columns[c]
                                        : hudi_vec_at(&m->batches, log_batch, rs).cols[c];
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

/* Whether the log record of entry e has _hoodie_is_deleted = true. */
static bool log_row_deleted(const hudi_mor_slice *m, const mor_entry *e) {
    if (e->batch == ENTRY_SPILLED) return e->deleted;
    if (m->o->is_deleted_col < 0) return false;
    const hudi_array *a = hudi_vec_at(&m->batches, log_batch, e->batch).cols[m->o->is_deleted_col];
    return a->field->type == HUDI_TYPE_BOOL && hudi_array_is_valid(a, e->row) &&
           hudi_bit_get(a->values, e->row);
}

/* The log record of entry e goes into the batch being built. */
static int take_entry(hudi_mor_slice *m, const mor_entry *e, hudi_error *err) {
    return e->batch == ENTRY_SPILLED ? gather_add(m, e, err) : add_run(m, e->batch, e->row, err);
}

/* Column c of a patch's source: a log batch, or the gathered spilled records. */
static const hudi_array *source_col(const hudi_mor_slice *m, int32_t src, int32_t c) {
    return src == RUN_GATHER ? m->gathered->columns[c]
                             : hudi_vec_at(&m->batches, log_batch, src).cols[c];
}

/* Notes `src` among the patches' distinct sources (searched from the newest: patches come in
 * runs from one log batch more often than not). */
static int note_source(hudi_mor_slice *m, int32_t src, hudi_error *err) {
    for (size_t i = m->n_srcs; i-- > 0;)
        if (m->srcs[i] == src) return 0;
    if (m->n_srcs == m->cap_srcs) {
        size_t cap = m->cap_srcs ? m->cap_srcs * 2 : 16;
        int32_t *v = hudi_realloc(m->srcs, cap * sizeof(int32_t));
        if (!v) return hudi_error_oom(err);
        m->srcs = v;
        m->cap_srcs = cap;
    }
    m->srcs[m->n_srcs++] = src;
    return 0;
}

static int push_patch(hudi_mor_slice *m, int64_t row, int32_t src, int64_t srow, hudi_error *err) {
    if (m->n_patch == m->cap_patch) {
        size_t cap = m->cap_patch ? m->cap_patch * 2 : 256;
        int64_t *r = hudi_realloc(m->p_row, cap * sizeof(int64_t));
        if (r) m->p_row = r;
        int64_t *sr = r ? hudi_realloc(m->p_srow, cap * sizeof(int64_t)) : NULL;
        if (sr) m->p_srow = sr;
        int32_t *s = sr ? hudi_realloc(m->p_src, cap * sizeof(int32_t)) : NULL;
        if (s) m->p_src = s;
        hudi_array ***pc = s ? hudi_realloc(m->p_cols, cap * sizeof(*pc)) : NULL;
        if (!pc) return hudi_error_oom(err);
        m->p_cols = pc;
        m->cap_patch = cap;
    }
    int rc = note_source(m, src, err);
    if (rc < 0) return rc;
    m->p_row[m->n_patch] = row;
    m->p_src[m->n_patch] = src;
    m->p_srow[m->n_patch] = srow;
    m->n_patch++;
    return 0;
}

static int push_drop(hudi_mor_slice *m, int64_t row, hudi_error *err) {
    if (m->n_drops == m->cap_drops) {
        size_t cap = m->cap_drops ? m->cap_drops * 2 : 64;
        int64_t *d = hudi_realloc(m->drops, cap * sizeof(int64_t));
        if (!d) return hudi_error_oom(err);
        m->drops = d;
        m->cap_drops = cap;
    }
    m->drops[m->n_drops++] = row;
    return 0;
}

static int shape_error(const hudi_array *a, const hudi_array *s, hudi_error *err) {
    return hudi_error_set(err, HUDI_EINVAL, "column %s: cannot merge %s log values into %s",
                          a->field->name ? a->field->name : "", hudi_type_name(s->field->type),
                          hudi_type_name(a->field->type));
}

static bool same_shape(const hudi_array *a, const hudi_array *s) {
    return a->field->type == s->field->type &&
           hudi_type_width(a->field) == hudi_type_width(s->field) && a->n_children == s->n_children;
}

/* Row r of `a` becomes valid or null; null_count follows. */
static int set_valid(hudi_array *a, int64_t r, bool v, hudi_error *err) {
    if (v) {
        if (a->validity && !hudi_bit_get(a->validity, r)) {
            hudi_bit_set(a->validity, r);
            a->null_count--;
        }
        return 0;
    }
    int rc = hudi_array_ensure_validity(a, err);
    if (rc < 0) return rc;
    if (hudi_bit_get(a->validity, r)) {
        hudi_bit_clear(a->validity, r);
        a->null_count++;
    }
    return 0;
}

static int64_t str_len(const hudi_array *a, int64_t r) { return a->offsets[r + 1] - a->offsets[r]; }

/* Fixed-width (and boolean) column c: the patched rows are overwritten in place. */
static int patch_fixed(hudi_mor_slice *m, hudi_array *a, int32_t c, hudi_error *err) {
    bool is_bool = a->field->type == HUDI_TYPE_BOOL;
    size_t w = is_bool ? 0 : (size_t)hudi_type_width(a->field);
    uint8_t *vals = a->values;
    bool same = m->same[c]; /* compared only while it holds */
    for (size_t k = 0; k < m->n_patch; k++) {
        const hudi_array *s = m->p_cols[k][c];
        int64_t r = m->p_row[k], sr = m->p_srow[k];
        bool v = hudi_array_is_valid(s, sr);
        if (same && v != hudi_array_is_valid(a, r)) same = false;
        if (is_bool) {
            bool bit = v && hudi_bit_get(s->values, sr);
            if (same && v && bit != hudi_bit_get(vals, r)) same = false;
            bit ? hudi_bit_set(vals, r) : hudi_bit_clear(vals, r);
        } else if (v && w == 8) { /* the common width, without a call per value */
            uint64_t x, y;
            memcpy(&x, (const uint8_t *)s->values + (size_t)sr * 8, 8);
            memcpy(&y, vals + (size_t)r * 8, 8);
            same = same && x == y;
            memcpy(vals + (size_t)r * 8, &x, 8);
        } else if (v) {
            const uint8_t *src = (const uint8_t *)s->values + (size_t)sr * w;
            if (same && memcmp(vals + (size_t)r * w, src, w) != 0) same = false;
            memcpy(vals + (size_t)r * w, src, w);
        } else {
            memset(vals + (size_t)r * w, 0, w);
        }
        int rc = set_valid(a, r, v, err);
        if (rc < 0) return rc;
    }
    m->same[c] = same;
    return 0;
}

/* String/binary column c: the patched values that have the length of the values they replace
 * (a null as length 0) overwrite their bytes in place, in patch order, until one does not;
 * *fitted is the number that did. A rebuild (below) then takes every patched value from its
 * source, so the rows already overwritten are written again with the same values, and the
 * null count, kept up to date here, stays right. */
static int patch_strings_in_place(hudi_mor_slice *m, hudi_array *a, int32_t c, size_t *fitted,
                                  hudi_error *err) {
    size_t k = 0;
    for (; k < m->n_patch; k++) {
        const hudi_array *s = m->p_cols[k][c];
        int64_t r = m->p_row[k], sr = m->p_srow[k];
        bool v = hudi_array_is_valid(s, sr);
        int64_t len = str_len(a, r);
        if ((v ? str_len(s, sr) : 0) != len) break;
        if (v != hudi_array_is_valid(a, r)) m->same[c] = false;
        if (v && len) {
            uint8_t *dst = a->data + a->offsets[r];
            const uint8_t *src = s->data + s->offsets[sr];
            if (m->same[c] && memcmp(dst, src, (size_t)len) != 0) m->same[c] = false;
            memcpy(dst, src, (size_t)len);
        }
        int rc = set_valid(a, r, v, err);
        if (rc < 0) return rc;
    }
    *fitted = k;
    return 0;
}

/* String/binary column c rebuilt in one pass: runs of base rows copied with one memcpy of
 * their bytes and shifted offsets, the patched values in between. */
static int patch_strings_rebuild(hudi_mor_slice *m, const hudi_array *a, int32_t c,
                                 hudi_array **out, hudi_error *err) {
    int64_t rows = a->length, total = a->offsets[rows] - a->offsets[0], nulls = a->null_count;
    bool need_validity = a->validity != NULL;
    for (size_t k = 0; k < m->n_patch; k++) {
        const hudi_array *s = m->p_cols[k][c];
        bool v = hudi_array_is_valid(s, m->p_srow[k]);
        total += (v ? str_len(s, m->p_srow[k]) : 0) - str_len(a, m->p_row[k]);
        need_validity |= !v;
    }
    if (total > INT32_MAX)
        return hudi_error_set(err, HUDI_ENOMEM, "column %s: more than 2 GiB of values in a batch",
                              a->field->name ? a->field->name : "");
    hudi_array *o = NULL;
    int rc = hudi_array_new(&o, a->field, err);
    if (rc == 0) rc = hudi_array_reserve(o, rows, err);
    if (rc == 0) rc = hudi_array_reserve_data(o, total, err);
    if (rc == 0 && need_validity) rc = hudi_array_ensure_validity(o, err);
    if (rc < 0) {
        hudi_array_free(o);
        return rc;
    }
    if (need_validity) {
        if (a->validity)
            hudi_bitmap_copy(o->validity, 0, a->validity, 0, rows);
        else
            hudi_bitmap_set_range(o->validity, 0, rows, true);
    }
    const int32_t *off = a->offsets;
    int32_t *oo = o->offsets;
    int64_t pos = 0, prev = 0;
    oo[0] = 0;
    for (size_t k = 0; k <= m->n_patch; k++) {
        int64_t r = k < m->n_patch ? m->p_row[k] : rows;
        int64_t bytes = off[r] - off[prev];
        if (bytes) memcpy(o->data + pos, a->data + off[prev], (size_t)bytes);
        int32_t shift = (int32_t)(pos - off[prev]);
        for (int64_t i = prev; i < r; i++) oo[i + 1] = off[i + 1] + shift;
        pos += bytes;
        if (k == m->n_patch) break;
        const hudi_array *s = m->p_cols[k][c];
        int64_t sr = m->p_srow[k];
        bool v = hudi_array_is_valid(s, sr), was = hudi_array_is_valid(a, r);
        if (v) {
            int64_t len = str_len(s, sr);
            if (len) memcpy(o->data + pos, s->data + s->offsets[sr], (size_t)len);
            pos += len;
        }
        oo[r + 1] = (int32_t)pos;
        if (need_validity) v ? hudi_bit_set(o->validity, r) : hudi_bit_clear(o->validity, r);
        nulls += (int64_t)was - (int64_t)v;
        prev = r + 1;
    }
    o->length = rows;
    o->data_len = pos;
    o->null_count = nulls;
    *out = o;
    return 0;
}

/* Any other column (nested, null-typed): rebuilt from runs of base rows and patched rows. */
static int patch_generic(hudi_mor_slice *m, const hudi_array *a, int32_t c, hudi_array **out,
                         hudi_error *err) {
    hudi_array *o = NULL;
    int rc = hudi_array_new(&o, a->field, err);
    if (rc == 0) rc = hudi_array_reserve(o, a->length, err);
    int64_t prev = 0;
    for (size_t k = 0; rc == 0 && k <= m->n_patch; k++) {
        int64_t r = k < m->n_patch ? m->p_row[k] : a->length;
        if (r > prev) rc = hudi_array_append_range(o, a, prev, r - prev, err);
        if (rc == 0 && k < m->n_patch)
            rc = hudi_array_append_range(o, m->p_cols[k][c], m->p_srow[k], 1, err);
        prev = r + 1;
    }
    if (rc < 0) {
        hudi_array_free(o);
        return rc;
    }
    *out = o;
    return 0;
}

/* The rows of `a` but the dropped ones, as a new array. */
static int drop_rows(const hudi_mor_slice *m, const hudi_array *a, hudi_array **out,
                     hudi_error *err) {
    hudi_array *o = NULL;
    int rc = hudi_array_new(&o, a->field, err);
    if (rc == 0) rc = hudi_array_reserve(o, a->length - (int64_t)m->n_drops, err);
    int64_t prev = 0;
    for (size_t k = 0; rc == 0 && k <= m->n_drops; k++) {
        int64_t r = k < m->n_drops ? m->drops[k] : a->length;
        if (r > prev) rc = hudi_array_append_range(o, a, prev, r - prev, err);
        prev = r + 1;
    }
    if (rc < 0) {
        hudi_array_free(o);
        return rc;
    }
    *out = o;
    return 0;
}

/* Column c of the merged batch: base column `a` patched (in place when it can be) and with
 * the dropped rows left out; *out == a when a itself was patched and kept. */
static int merge_column(hudi_mor_slice *m, hudi_array *a, int32_t c, hudi_array **out,
                        hudi_error *err) {
    hudi_type_id t = a->field->type;
    hudi_array *x = a;
    int rc = 0;
    if (m->n_patch > 0) {
        a->uniform = false; /* rows are overwritten in place below: one value no more */
        m->same[c] = m->o->compare_patches;
        bool fixed = t != HUDI_TYPE_NULL && hudi_type_is_fixed(t) && a->n_children == 0;
        bool strings = t == HUDI_TYPE_STRING || t == HUDI_TYPE_BINARY;
        if (fixed || strings)
            for (size_t i = 0; i < m->n_srcs; i++) {
                const hudi_array *s = source_col(m, m->srcs[i], c);
                if (!same_shape(a, s)) return shape_error(a, s, err);
            }
        if (fixed) {
            rc = patch_fixed(m, a, c, err);
        } else if (strings) {
            size_t fitted = 0;
            rc = patch_strings_in_place(m, a, c, &fitted, err);
            if (rc == 0 && fitted < m->n_patch) { /* a value of another length */
                m->same[c] = false;
                rc = patch_strings_rebuild(m, a, c, &x, err);
            }
        } else {
            m->same[c] = false; /* not compared */
            rc = patch_generic(m, a, c, &x, err);
        }
        if (rc < 0) return rc;
    }
    if (m->n_drops > 0) {
        m->same[c] = false;
        hudi_array *y = NULL;
        rc = drop_rows(m, x, &y, err);
        if (x != a) hudi_array_free(x);
        if (rc < 0) return rc;
        x = y;
    }
    *out = x;
    return 0;
}

/* Plans base row r, whose key has log entry e: kept, patched from the log record, or dropped. */
static int merge_row(hudi_mor_slice *m, mor_entry *e, const hudi_array *ord, int64_t r,
                     hudi_mor_merge_mode mode, hudi_error *err) {
    e->matched = true;
    hudi_log_ordering base = ordering_at(ord, r);
    if (e->batch == ENTRY_DELETE) {
        bool keep = mode == HUDI_MOR_EVENT_TIME && !no_ordering(e->ord) && greater(&base, e->ord);
        return keep ? 0 : push_drop(m, r, err);
    }
    if (mode == HUDI_MOR_EVENT_TIME || mode == HUDI_MOR_DEFAULT_PAYLOAD) {
        hudi_log_ordering lo = entry_ordering(m, e);
        if (greater(&base, &lo)) return 0; /* the base record stays */
    }
    if (log_row_deleted(m, e)) return push_drop(m, r, err);
    if (e->batch == ENTRY_SPILLED) {
        int64_t at = 0;
        int rc = gather_push(m, e, &at, err);
        return rc < 0 ? rc : push_patch(m, r, RUN_GATHER, at, err);
    }
    return push_patch(m, r, e->batch, e->row, err);
}

/* Plans the batch (which base rows a log record replaces, which are dropped), then builds each
 * column: a batch that nothing changed is handed over as it is; otherwise fixed-width columns
 * and strings whose new values have the old lengths are patched in place, other strings are
 * rebuilt in one pass, and deletes are compacted out last. */
int hudi_mor_merge(hudi_mor_slice *m, hudi_array **in, int64_t rows, hudi_array **out,
                   int64_t *out_rows, hudi_error *err) {
    const hudi_array *keys = in[m->o->key_col];
    const hudi_array *ord = m->o->ordering_col >= 0 ? in[m->o->ordering_col] : NULL;
    hudi_mor_merge_mode mode = m->o->mode;
    m->n_runs = 0;
    m->n_gather = 0;
    m->n_patch = 0;
    m->n_srcs = 0;
    m->n_drops = 0;
    /* Keys are hashed a block of rows ahead and their index slots prefetched, so the probes
     * (mostly misses: most base rows have no log version) do not wait on memory one by one. */
    enum { AHEAD = 32 };
    uint64_t hv[AHEAD];
    for (int64_t r0 = 0; m->n_entries > 0 && r0 < rows; r0 += AHEAD) {
        int64_t n = rows - r0 < AHEAD ? rows - r0 : AHEAD;
        for (int64_t i = 0; i < n; i++) {
            int64_t r = r0 + i;
            if (!hudi_array_is_valid(keys, r)) continue;
            hv[i] = hash_key(HUDI_SLICE(keys->data + keys->offsets[r],
                                        (size_t)(keys->offsets[r + 1] - keys->offsets[r])));
            __builtin_prefetch(&m->index[(size_t)hv[i] & (m->index_cap - 1)]);
        }
        for (int64_t i = 0; i < n; i++) {
            int64_t r = r0 + i;
            if (!hudi_array_is_valid(keys, r)) continue;
            hudi_slice key = HUDI_SLICE(keys->data + keys->offsets[r],
                                        (size_t)(keys->offsets[r + 1] - keys->offsets[r]));
            mor_entry *e = lookup_hashed(m, key, hv[i]);
            if (!e) continue;
            int rc = merge_row(m, e, ord, r, mode, err);
            if (rc < 0) return rc;
        }
    }
    int rc = gather_load(m, err);
    if (rc < 0) return rc;
    for (size_t k = 0; k < m->n_patch; k++)
        m->p_cols[k] = m->p_src[k] == RUN_GATHER
                           ? m->gathered->columns
                           : hudi_vec_at(&m->batches, log_batch, m->p_src[k]).cols;
    if (!m->same && !(m->same = hudi_malloc(((size_t)m->n_cols + 1) * sizeof(bool))))
        return hudi_error_oom(err);
    for (int32_t c = 0; c < m->n_cols; c++) {
        out[c] = NULL;
        m->same[c] = true;
    }
    for (int32_t c = 0; c < m->n_cols; c++) {
        hudi_array *x = in[c];
        if ((m->n_patch > 0 || m->n_drops > 0) && (rc = merge_column(m, in[c], c, &x, err)) < 0) {
            for (int32_t i = 0; i < c; i++) {
                hudi_array_free(out[i]);
                out[i] = NULL;
            }
            return rc;
        }
        if (x == in[c]) in[c] = NULL; /* handed over */
        out[c] = x;
    }
    *out_rows = rows - (int64_t)m->n_drops;
    m->stats.rows_dropped += (int64_t)m->n_drops;
    return 0;
}

const bool *hudi_mor_same_values(const hudi_mor_slice *m) { return m->same; }

int hudi_mor_next_inserts(hudi_mor_slice *m, const hudi_field *const *fields, hudi_array **out,
                          int64_t *out_rows, hudi_error *err) {
    int64_t max = m->o->batch_rows > 0 ? m->o->batch_rows : 65536, n = 0;
    m->n_runs = 0;
    m->n_gather = 0;
    *out_rows = 0;
    for (; m->next_insert < m->n_entries && n < max; m->next_insert++) {
        const mor_entry *e = &m->entries[m->next_insert];
        if (e->matched || e->batch == ENTRY_DELETE || log_row_deleted(m, e)) continue;
        int rc = take_entry(m, e, err);
        if (rc < 0) return rc;
        n++;
    }
    if (n == 0) return 0;
    int rc = gather_load(m, err);
    if (rc == 0) rc = build_runs(m, NULL, fields, out, out_rows, err);
    if (rc == 0) m->stats.rows_inserted += *out_rows;
    return rc;
}
