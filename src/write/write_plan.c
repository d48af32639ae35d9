/* write_plan.c - planning a write (docs/formats/base-files.md §6,
 * keys.md): record keys and partition
 * paths for the whole batch, de-duplication by (key, partition) with Hudi's preCombine rule,
 * the file groups the write may touch, and the routing of every row: updates to the group that
 * holds their key, inserts first into small files, then into new file groups sized from the
 * average record size (Hudi's UpsertPartitioner).
 *
 * Invariant: everything is indexed by input row; the batch itself is never copied here. */
#include <stdio.h>

#include "write/write_int.h"

/* ---- key table ------------------------------------------------------------------------------ */

int hudi_wkeys_init(wkeys *k, const hudi_array *keys, const int32_t *part, int64_t rows,
                    hudi_error *err) {
    uint64_t cap = 16;
    while (cap < (uint64_t)rows * 2) cap <<= 1;
    memset(k, 0, sizeof(*k));
    k->keys = keys;
    k->part = part;
    if (!(k->slots = hudi_calloc(cap, sizeof(wkey_slot)))) return hudi_error_oom(err);
    k->mask = cap - 1;
    return 0;
}

static inline uint64_t key_hash(const uint8_t *key, size_t len, int32_t part) {
    return hudi_hash64_fast(key, len) ^ ((uint64_t)(uint32_t)part * 0x9E3779B97F4A7C15ull);
}

/* Linear probing from the hash's low bits; a slot's tag (the hash's high 32 bits) settles
 * most mismatches without touching the stored row's key. */
static inline bool slot_matches(const wkeys *k, const wkey_slot *e, uint32_t tag,
                                const uint8_t *key, size_t len, int32_t part) {
    if (e->tag != tag) return false;
    int32_t r = e->row - 1;
    hudi_slice o = wstr(k->keys, r);
    return k->part[r] == part && o.len == len && memcmp(o.data, key, len) == 0;
}

int32_t *hudi_wkeys_slot(wkeys *k, const uint8_t *key, size_t len, int32_t part) {
    uint64_t hash = key_hash(key, len, part), h = hash & k->mask;
    uint32_t tag = (uint32_t)(hash >> 32);
    for (;;) {
        wkey_slot *e = &k->slots[h];
        if (e->row == 0) {
            e->tag = tag; /* the caller stores the row */
            return &e->row;
        }
        if (slot_matches(k, e, tag, key, len, part)) return &e->row;
        h = (h + 1) & k->mask;
    }
}

int32_t hudi_wkeys_find(const wkeys *k, const uint8_t *key, size_t len, int32_t part) {
    if (!k->slots) return -1;
    uint64_t hash = key_hash(key, len, part), h = hash & k->mask;
    uint32_t tag = (uint32_t)(hash >> 32);
    for (;;) {
        const wkey_slot *e = &k->slots[h];
        if (e->row == 0) return -1;
        if (slot_matches(k, e, tag, key, len, part)) return e->row - 1;
        h = (h + 1) & k->mask;
    }
}

/* A miss costs one cache miss on its slot once the table outgrows the cache: the slots of a
 * block of keys are hashed and prefetched first, then probed, so the misses overlap. */
enum { FIND_BLOCK = 16 };

void hudi_wkeys_find_many(const wkeys *k, const hudi_array *keys, int64_t start, int64_t n,
                          int32_t part, int32_t *rows) {
    if (!k->slots) {
        for (int64_t i = 0; i < n; i++) rows[i] = -1;
        return;
    }
    for (int64_t b = 0; b < n; b += FIND_BLOCK) {
        int64_t m = HUDI_MIN(n - b, (int64_t)FIND_BLOCK);
        uint64_t hash[FIND_BLOCK];
        for (int64_t j = 0; j < m; j++) {
            hudi_slice key = wstr(keys, start + b + j);
            hash[j] = key_hash(key.data, key.len, part);
            __builtin_prefetch(&k->slots[hash[j] & k->mask]);
        }
        for (int64_t j = 0; j < m; j++) {
            int64_t i = start + b + j;
            rows[b + j] = -1;
            if (!hudi_array_is_valid(keys, i)) continue;
            hudi_slice key = wstr(keys, i);
            uint32_t tag = (uint32_t)(hash[j] >> 32);
            for (uint64_t h = hash[j] & k->mask;; h = (h + 1) & k->mask) {
                const wkey_slot *e = &k->slots[h];
                if (e->row == 0) break;
                if (slot_matches(k, e, tag, key.data, key.len, part)) {
                    rows[b + j] = e->row - 1;
                    break;
                }
            }
        }
    }
}

void hudi_wkeys_dispose(wkeys *k) {
    hudi_free(k->slots);
    memset(k, 0, sizeof(*k));
}

int hudi_wrows_push(wrows *r, int32_t row, hudi_error *err) {
    if (r->n == r->cap) {
        int64_t cap = r->cap ? r->cap * 2 : 64;
        int32_t *v = hudi_realloc(r->v, (size_t)cap * sizeof(int32_t));
        if (!v) return hudi_error_oom(err);
        r->v = v;
        r->cap = cap;
    }
    r->v[r->n++] = row;
    return 0;
}

/* ---- partitions and groups ------------------------------------------------------------------ */

int hudi_wctx_part_id(wctx *c, const char *path, size_t len, int32_t *out, hudi_error *err) {
    if (len == 0) path = ""; /* an empty STRING value may have no data buffer */
    void *v = hudi_map_get(&c->part_ids, path, len);
    if (v) {
        *out = (int32_t)(intptr_t)v - 1;
        return 0;
    }
    if (c->n_parts == c->cap_parts) {
        int32_t cap = c->cap_parts ? c->cap_parts * 2 : 16;
        wpart *p = hudi_realloc(c->parts, (size_t)cap * sizeof(wpart));
        if (!p) return hudi_error_oom(err);
        c->parts = p;
        c->cap_parts = cap;
    }
    wpart *p = &c->parts[c->n_parts];
    memset(p, 0, sizeof(*p));
    if (!(p->path = hudi_strndup(path, len))) return hudi_error_oom(err);
    if (hudi_map_put(&c->part_ids, path, len, (void *)(intptr_t)(c->n_parts + 1), NULL) < 0) {
        hudi_free(p->path);
        return hudi_error_oom(err);
    }
    *out = c->n_parts++;
    return 0;
}

int hudi_wctx_add_group(wctx *c, int32_t part, const char *file_id, const hudi_base_file *old,
                        const char *prev_commit, int32_t *out, hudi_error *err) {
    if (c->n_groups == c->cap_groups) {
        size_t cap = c->cap_groups ? c->cap_groups * 2 : 16;
        wgroup *g = hudi_realloc(c->groups, cap * sizeof(wgroup));
        if (!g) return hudi_error_oom(err);
        c->groups = g;
        c->cap_groups = cap;
    }
    wgroup *g = &c->groups[c->n_groups];
    memset(g, 0, sizeof(*g));
    g->part = part;
    g->old = old;
    g->task = -1;
    snprintf(g->file_id, sizeof(g->file_id), "%s", file_id);
    snprintf(g->prev_commit, sizeof(g->prev_commit), "%s", prev_commit ? prev_commit : "null");
    *out = (int32_t)c->n_groups++;
    return 0;
}

/* ---- keys ----------------------------------------------------------------------------------- */

static int keygen_options(hudi_keygen_options *ko, const hudi_table *t, hudi_error *err) {
    const hudi_table_config *cfg = &t->cfg;
    const hudi_props *p = &t->props;
    hudi_keygen_options d = HUDI_KEYGEN_OPTIONS_INIT;
    *ko = d;
    bool autokeys = hudi_write_auto_keys(t);
    ko->record_key_fields = autokeys ? NULL : cfg->record_key_fields;
    ko->partition_fields = cfg->partition_fields ? cfg->partition_fields : "";
    ko->hive_style = cfg->hive_style_partitioning;
    ko->url_encode = cfg->url_encode_partitions;
    if (autokeys && !cfg->populate_meta_fields)
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "%s: a table without record key fields needs its meta fields "
                              "(hoodie.populate.meta.fields=false is not supported with "
                              "generated keys)",
                              t->base_path);
    const char *cls = cfg->keygen_class ? cfg->keygen_class : cfg->keygen_type;
    if (cls) {
        int rc = hudi_keygen_type_parse(&ko->type, cls, err);
        if (rc < 0) return rc;
    } else if (!*ko->partition_fields) {
        ko->type = HUDI_KEYGEN_NONPARTITIONED;
    } else if (strchr(ko->partition_fields, ':')) {
        ko->type = HUDI_KEYGEN_CUSTOM;
    } else {
        ko->type = strchr(ko->partition_fields, ',') ||
                           (ko->record_key_fields && strchr(ko->record_key_fields, ','))
                       ? HUDI_KEYGEN_COMPLEX
                       : HUDI_KEYGEN_SIMPLE;
    }
    const char *v = hudi_props_get(p, "hoodie.datasource.write.keygenerator.consistent.logical."
                                      "timestamp.enabled");
    ko->consistent_logical_timestamp = v && strcmp(v, "true") == 0;
    /* TimestampBasedKeyGenerator settings persisted in hoodie.properties (keys.md §5). */
    if ((v = hudi_props_get(p, "hoodie.keygen.timebased.timestamp.type"))) {
        static const char *const names[] = {"UNIX_TIMESTAMP", "EPOCHMILLISECONDS",
                                            "EPOCHMICROSECONDS", "SCALAR", "DATE_STRING"};
        for (size_t i = 0; i < HUDI_ARRAY_LEN(names); i++)
            if (strcmp(v, names[i]) == 0) ko->ts.type = (hudi_keygen_ts_type)i;
    } else if (hudi_props_get(p, "hoodie.keygen.timebased.input.dateformat")) {
        ko->ts.type = HUDI_TS_DATE_STRING; /* Spark SQL does not persist the type (keys.md §5) */
    }
    ko->ts.input_dateformat = hudi_props_get(p, "hoodie.keygen.timebased.input.dateformat");
    ko->ts.output_dateformat = hudi_props_get(p, "hoodie.keygen.timebased.output.dateformat");
    ko->ts.timezone = hudi_props_get(p, "hoodie.keygen.timebased.timezone");
    ko->ts.input_timezone = hudi_props_get(p, "hoodie.keygen.timebased.input.timezone");
    ko->ts.output_timezone = hudi_props_get(p, "hoodie.keygen.timebased.output.timezone");
    if ((v = hudi_props_get(p, "hoodie.keygen.timebased.input.dateformat.list.delimiter.regex")))
        ko->ts.input_delimiter = v;
    return 0;
}

bool hudi_write_auto_keys(const hudi_table *t) {
    return !t->cfg.record_key_fields || !*t->cfg.record_key_fields;
}

/* The STRING column `name` of the batch in *out, -1 when it has none. */
static int find_string_col(const hudi_batch *b, const char *name, int *out, hudi_error *err) {
    *out = -1;
    for (int32_t i = 0; i < b->schema->n_children; i++) {
        const hudi_field *f = &b->schema->children[i];
        if (!f->name || strcmp(f->name, name) != 0) continue;
        if (f->type != HUDI_TYPE_STRING)
            return hudi_error_set(err, HUDI_EINVAL, "column %s must be a STRING", name);
        *out = i;
    }
    return 0;
}

static bool prepped_op(hudi_write_operation op) {
    return op == HUDI_WRITE_UPSERT || op == HUDI_WRITE_DELETE;
}

/* Keys of a table without record key fields (keys.md §9). Inserts get a new key
 * "<instant>_<partitionId>_<rowId>" - one input partition (0) here, the row's position among
 * the rows that need a key - and the partition path of their data. Rows that carry a
 * _hoodie_record_key (UPDATE, DELETE and MERGE read it with the row) keep that key and their
 * _hoodie_partition_path: Hudi's "prepped" upsert and delete. */
static int auto_keys(wctx *c, hudi_error *err) {
    const hudi_batch *b = c->in;
    hudi_write_operation op = c->o.op;
    int kc = -1, pc = -1, rc;
    if (prepped_op(op) && ((rc = find_string_col(b, "_hoodie_record_key", &kc, err)) < 0 ||
                           (rc = find_string_col(b, "_hoodie_partition_path", &pc, err)) < 0))
        return rc;
    if (op == HUDI_WRITE_DELETE && kc < 0)
        return hudi_error_set(err, HUDI_EINVAL,
                              "%s: the table has no record key fields: a DELETE batch needs the "
                              "_hoodie_record_key column of the rows to delete",
                              c->t->base_path);
    if ((rc = hudi_keygen_partition_paths(c->kg, b, c->part_paths, err)) < 0) return rc;
    const hudi_array *ka = kc >= 0 ? b->columns[kc] : NULL;
    const hudi_array *pa = pc >= 0 ? b->columns[pc] : NULL;
    hudi_array *parts = NULL;
    if (pa && (rc = hudi_array_new(&parts, &c->part_field, err)) < 0) return rc;
    hudi_buf key = HUDI_BUF_INIT;
    int64_t next = 0;
    for (int64_t i = 0; rc == 0 && i < b->num_rows; i++) {
        hudi_slice part = wstr(c->part_paths, i);
        if (ka && hudi_array_is_valid(ka, i)) {
            hudi_slice k = wstr(ka, i);
            rc = hudi_array_append_bytes(c->keys, k.len ? k.data : (const uint8_t *)"", k.len, err);
            if (pa && hudi_array_is_valid(pa, i))
                part = wstr(pa, i);
            else if (pa && c->kg_auto_nonpart)
                rc = hudi_error_set(err, HUDI_EINVAL,
                                    "%s: row %lld of the DELETE batch has no "
                                    "_hoodie_partition_path",
                                    c->t->base_path, (long long)i);
        } else if (op == HUDI_WRITE_DELETE) {
            rc = hudi_error_set(err, HUDI_EINVAL,
                                "%s: row %lld of the DELETE batch has no _hoodie_record_key",
                                c->t->base_path, (long long)i);
        } else {
            hudi_buf_clear(&key);
            hudi_buf_printf(&key, "%s_0_%lld", c->instant, (long long)next++);
            rc = hudi_buf_failed(&key) ? hudi_error_oom(err)
                                       : hudi_array_append_bytes(c->keys, key.data, key.len, err);
        }
        if (rc == 0 && parts)
            rc = hudi_array_append_bytes(parts, part.len ? part.data : (const uint8_t *)"",
                                         part.len, err);
    }
    hudi_buf_dispose(&key);
    if (rc == 0 && parts) {
        hudi_array_free(c->part_paths);
        c->part_paths = parts;
        parts = NULL;
    }
    hudi_array_free(parts);
    return rc;
}

void hudi_plan_rekey(wctx *c, const char *planned) {
    size_t n = strlen(planned);
    if (!c->keys || !hudi_write_auto_keys(c->t) || strlen(c->instant) != n) return;
    /* only generated keys start with the planned instant: stored ones are older */
    for (int64_t i = 0; i < c->keys->length; i++) {
        hudi_slice k = wstr(c->keys, i);
        if (k.len > n && memcmp(k.data, planned, n) == 0 && k.data[n] == '_')
            memcpy((uint8_t *)c->keys->data + c->keys->offsets[i], c->instant, n);
    }
}

int hudi_plan_keygen(wctx *c, hudi_error *err) {
    hudi_keygen_options ko;
    const hudi_batch *b = c->in;
    int rc;
    if ((rc = keygen_options(&ko, c->t, err)) < 0) return rc;
    if (hudi_write_auto_keys(c->t) && c->o.op == HUDI_WRITE_DELETE) {
        /* a delete of stored rows: their partition paths come with them */
        int pc;
        if ((rc = find_string_col(b, "_hoodie_partition_path", &pc, err)) < 0) return rc;
        if (pc >= 0) {
            ko.type = HUDI_KEYGEN_NONPARTITIONED;
            c->kg_auto_nonpart = true;
        }
    }
    if ((rc = hudi_keygen_new(&c->kg, &ko, b->schema, err)) < 0) return rc;
    if (hudi_field_init(&c->key_field, "_hoodie_record_key", HUDI_TYPE_STRING, false) < 0 ||
        hudi_field_init(&c->part_field, "_hoodie_partition_path", HUDI_TYPE_STRING, false) < 0)
        return hudi_error_oom(err);
    if ((rc = hudi_array_new(&c->keys, &c->key_field, err)) < 0 ||
        (rc = hudi_array_new(&c->part_paths, &c->part_field, err)) < 0)
        return rc;
    return 0;
}

int hudi_plan_keys(wctx *c, hudi_error *err) {
    const hudi_batch *b = c->in;
    int rc;
    if ((rc = hudi_plan_keygen(c, err)) < 0) return rc;
    if (hudi_write_auto_keys(c->t)) {
        if ((rc = auto_keys(c, err)) < 0) return rc;
    } else if ((rc = hudi_keygen_record_keys(c->kg, b, c->keys, err)) < 0 ||
               (rc = hudi_keygen_partition_paths(c->kg, b, c->part_paths, err)) < 0) {
        return rc;
    }
    int64_t n = b->num_rows;
    if (!(c->row_part = hudi_calloc((size_t)n + 1, sizeof(int32_t))) ||
        !(c->dest = hudi_malloc(((size_t)n + 1) * sizeof(int32_t))) ||
        !(c->tagged = hudi_calloc((size_t)n + 1, sizeof(bool))))
        return hudi_error_oom(err);
    /* Rows of one partition usually come together: look the map up only on a change. */
    hudi_slice prev = {NULL, 0};
    int32_t prev_id = -1;
    for (int64_t i = 0; i < n; i++) {
        hudi_slice s = wstr(c->part_paths, i);
        c->dest[i] = -1;
        if (prev_id < 0 || !hudi_slice_eq(s, prev)) {
            if ((rc = hudi_wctx_part_id(c, (const char *)s.data, s.len, &prev_id, err)) < 0)
                return rc;
            c->parts[prev_id].touched = true;
            prev = s;
        }
        c->row_part[i] = prev_id;
    }
    return 0;
}

/* ---- ordering values ----------------------------------------------------------------------- */

typedef enum { V_INT, V_UINT, V_FLOAT, V_DEC, V_BYTES, V_NONE } vkind;

static vkind value_of(const hudi_array *a, int64_t i, int64_t *iv, double *fv, __int128 *dv,
                      hudi_slice *bv) {
    const hudi_field *f = a->field;
    switch (f->type) {
    case HUDI_TYPE_BOOL: *iv = hudi_bit_get(a->values, i); return V_INT;
    case HUDI_TYPE_INT8: *iv = ((const int8_t *)a->values)[i]; return V_INT;
    case HUDI_TYPE_INT16: *iv = ((const int16_t *)a->values)[i]; return V_INT;
    case HUDI_TYPE_DATE:
    case HUDI_TYPE_INT32: *iv = ((const int32_t *)a->values)[i]; return V_INT;
    case HUDI_TYPE_TIME:
        *iv = f->unit == HUDI_UNIT_MILLIS ? ((const int32_t *)a->values)[i]
                                          : ((const int64_t *)a->values)[i];
        return V_INT;
    case HUDI_TYPE_TIMESTAMP:
    case HUDI_TYPE_INT64: *iv = ((const int64_t *)a->values)[i]; return V_INT;
    case HUDI_TYPE_UINT8: *iv = ((const uint8_t *)a->values)[i]; return V_INT;
    case HUDI_TYPE_UINT16: *iv = ((const uint16_t *)a->values)[i]; return V_INT;
    case HUDI_TYPE_UINT32: *iv = ((const uint32_t *)a->values)[i]; return V_INT;
    case HUDI_TYPE_UINT64: *iv = (int64_t)((const uint64_t *)a->values)[i]; return V_UINT;
    case HUDI_TYPE_FLOAT: *fv = ((const float *)a->values)[i]; return V_FLOAT;
    case HUDI_TYPE_DOUBLE: *fv = ((const double *)a->values)[i]; return V_FLOAT;
    case HUDI_TYPE_DECIMAL: memcpy(dv, (const uint8_t *)a->values + i * 16, 16); return V_DEC;
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY: *bv = wstr(a, i); return V_BYTES;
    case HUDI_TYPE_FIXED_BINARY:
        *bv = HUDI_SLICE((const uint8_t *)a->values + i * f->byte_width, (size_t)f->byte_width);
        return V_BYTES;
    default: return V_NONE;
    }
}

#define CMP3(x, y) ((x) < (y) ? -1 : (x) > (y) ? 1 : 0)

int hudi_plan_cmp_values(const hudi_array *a, int64_t i, const hudi_array *b, int64_t j) {
    bool na = !hudi_array_is_valid(a, i), nb = !hudi_array_is_valid(b, j);
    if (na || nb) return na && nb ? 0 : na ? -1 : 1;
    int64_t ia = 0, ib = 0;
    double fa = 0, fb = 0;
    __int128 da = 0, db = 0;
    hudi_slice sa = {0}, sb = {0};
    vkind ka = value_of(a, i, &ia, &fa, &da, &sa), kb = value_of(b, j, &ib, &fb, &db, &sb);
    if (ka == V_NONE || kb == V_NONE) return 0;
    if (ka == V_BYTES || kb == V_BYTES) {
        if (ka != kb) return 0;
        int c = memcmp(sa.data, sb.data, HUDI_MIN(sa.len, sb.len));
        return c ? (c < 0 ? -1 : 1) : CMP3(sa.len, sb.len);
    }
    if (ka == V_FLOAT || kb == V_FLOAT) {
        double x = ka == V_FLOAT ? fa : ka == V_DEC ? (double)da : (double)ia;
        double y = kb == V_FLOAT ? fb : kb == V_DEC ? (double)db : (double)ib;
        return CMP3(x, y);
    }
    if (ka == V_DEC || kb == V_DEC) {
        __int128 x = ka == V_DEC ? da : ia, y = kb == V_DEC ? db : ib;
        return CMP3(x, y);
    }
    if (ka == V_UINT || kb == V_UINT) {
        if (ka == V_INT && ia < 0) return -1;
        if (kb == V_INT && ib < 0) return 1;
        return CMP3((uint64_t)ia, (uint64_t)ib);
    }
    return CMP3(ia, ib);
}

bool hudi_plan_row_is_deleted(const wctx *c, int32_t row) {
    if (c->is_deleted_col < 0) return false;
    const hudi_array *a = c->in->columns[c->is_deleted_col];
    return hudi_array_is_valid(a, row) && hudi_bit_get(a->values, row);
}

/* ---- de-duplication (base-files.md §6.1, preCombine) ---------------------------------------- */

static bool dedup_op(hudi_write_operation op) {
    return op == HUDI_WRITE_UPSERT || op == HUDI_WRITE_DELETE;
}

int hudi_plan_dedup(wctx *c, hudi_error *err) {
    int64_t n = c->in->num_rows;
    int rc;
    if (!(c->sel = hudi_malloc(((size_t)n + 1) * sizeof(int32_t)))) return hudi_error_oom(err);
    if (c->o.op == HUDI_WRITE_BULK_INSERT) {
        /* neither combined nor merged into old files: no key table (hudi_wkeys_find finds
         * nothing) */
        for (int64_t r = 0; r < n; r++) c->sel[r] = (int32_t)r;
        c->n_sel = n;
        return 0;
    }
    if ((rc = hudi_wkeys_init(&c->idx, c->keys, c->row_part, n, err)) < 0) return rc;
    const hudi_array *ord = c->precombine_col >= 0 ? c->in->columns[c->precombine_col] : NULL;
    bool dedup = dedup_op(c->o.op);
    for (int64_t r = 0; r < n; r++) {
        hudi_slice k = wstr(c->keys, r);
        int32_t *slot = hudi_wkeys_slot(&c->idx, k.data, k.len, c->row_part[r]);
        if (*slot == 0 || !dedup) {
            *slot = (int32_t)r + 1;
            continue;
        }
        /* new.preCombine(old): keep old only when its ordering value is greater; ties and
         * rows without an ordering field go to the later row (both Hudi payloads). */
        int32_t old = *slot - 1;
        if (ord && c->o.op != HUDI_WRITE_DELETE && hudi_plan_cmp_values(ord, old, ord, r) > 0)
            continue;
        *slot = (int32_t)r + 1;
    }
    c->n_sel = 0;
    for (int64_t r = 0; r < n; r++) {
        if (dedup) {
            hudi_slice k = wstr(c->keys, r);
            if (hudi_wkeys_find(&c->idx, k.data, k.len, c->row_part[r]) != r) continue;
        }
        c->sel[c->n_sel++] = (int32_t)r;
    }
    return 0;
}

/* ---- existing file groups ------------------------------------------------------------------- */

static int add_partition_groups(wctx *c, int32_t part, const hudi_map *clustering,
                                hudi_error *err) {
    const hudi_file_slice *slices = NULL;
    size_t n = 0;
    int rc = hudi_fs_view_latest_slices_in(c->view, c->parts[part].path, &slices, &n);
    if (rc < 0) return 0; /* a partition the table does not have yet */
    for (size_t i = 0; i < n; i++) {
        const hudi_file_slice *s = &slices[i];
        /* A slice of log files alone (Flink, or Spark with an index that reads logs) holds keys
         * the bloom index cannot see: an upsert would duplicate them, a delete miss them, an
         * overwrite leave them. Refused until the index reads log-only slices. */
        /* The bucket index routes by hash alone: a log-only slice is its bucket's group. */
        bool by_bucket =
            c->bucket.on && (c->o.op == HUDI_WRITE_UPSERT || c->o.op == HUDI_WRITE_DELETE ||
                             c->o.op == HUDI_WRITE_INSERT || c->o.op == HUDI_WRITE_BULK_INSERT);
        if (!s->base && s->logs_count > 0 && c->o.op != HUDI_WRITE_INSERT && !by_bucket)
            return hudi_error_set(err, HUDI_EUNSUPPORTED,
                                  "%s: file group %s in partition '%s' has log files and no base "
                                  "file; %s into such a table is not supported yet (compact it "
                                  "first)",
                                  c->t->base_path, s->file_id, c->parts[part].path,
                                  hudi_write_operation_name(c->o.op));
        if (!s->base && !(by_bucket && s->logs_count > 0)) continue;
        if (s->base &&
            (rc = hudi_base_format_require_parquet(s->base->format, s->base->path, err)) < 0)
            return rc;
        int32_t gi = -1;
        /* a group in a pending compaction's plan writes its logs to the slice the compaction
         * opens: they are named with (and their stats count from) the compaction instant */
        const char *prev =
            c->mor && s->pending_compaction ? s->pending_compaction : s->base_instant;
        if ((rc = hudi_wctx_add_group(c, part, s->file_id, s->base, prev, &gi, err)) < 0) return rc;
        c->groups[gi].slice = s;
        const char *when =
            hudi_cluster_file_group_pending(clustering, c->parts[part].path, s->file_id);
        snprintf(c->groups[gi].clustering, sizeof(c->groups[gi].clustering), "%s",
                 when ? when : "");
    }
    return 0;
}

int hudi_plan_existing_groups(wctx *c, hudi_error *err) {
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    int rc = hudi_fs_view_build(&c->view, c->t->timeline, &vo, err);
    if (rc < 0) return rc;
    hudi_write_operation op = c->o.op;
    if (op == HUDI_WRITE_BULK_INSERT && !c->bucket.on) return 0;
    if (op == HUDI_WRITE_INSERT_OVERWRITE_TABLE) {
        size_t np = 0;
        const char *const *ps = hudi_fs_view_partitions(c->view, &np);
        for (size_t i = 0; i < np; i++) {
            int32_t id;
            if ((rc = hudi_wctx_part_id(c, ps[i], strlen(ps[i]), &id, err)) < 0) return rc;
        }
    }
    if (op == HUDI_WRITE_DELETE_PARTITION) {
        for (int32_t i = 0; i < c->o.n_partitions; i++) {
            int32_t id;
            const char *p = c->o.partitions[i];
            if ((rc = hudi_wctx_part_id(c, p, strlen(p), &id, err)) < 0) return rc;
        }
    }
    /* file groups of pending clusterings: no inserts go to them (Hudi's UpsertPartitioner
     * leaves them out of the small files); updates are refused (hudi_plan_check_clustering) */
    hudi_map clustering = HUDI_MAP_INIT;
    rc = hudi_cluster_pending_file_groups(&clustering, c->t->timeline, NULL, err);
    for (int32_t p = 0; rc == 0 && p < c->n_parts; p++)
        rc = add_partition_groups(c, p, &clustering, err);
    hudi_map_dispose(&clustering);
    return rc;
}

int hudi_wctx_new_group(wctx *c, int32_t part, int32_t *out, hudi_error *err) {
    char fid[HUDI_FILE_ID_MAX];
    int rc = hudi_file_id_new(fid, 0, err);
    if (rc < 0 || (rc = hudi_wctx_add_group(c, part, fid, NULL, NULL, out, err)) < 0) return rc;
    c->groups[*out].active = true;
    return 0;
}

int hudi_plan_check_clustering(const wctx *c, hudi_error *err) {
    for (size_t gi = 0; gi < c->n_groups; gi++) {
        const wgroup *g = &c->groups[gi];
        bool replaced = c->action == HUDI_ACTION_REPLACECOMMIT && g->old;
        if (!g->clustering[0] || !(g->upd.n > 0 || replaced)) continue;
        /* SparkRejectUpdateStrategy's HoodieClusteringUpdateException, word for word */
        return hudi_error_set(err, HUDI_ECONFLICT,
                              "Not allowed to update the clustering file group "
                              "HoodieFileGroupId{partitionPath='%s', fileId='%s'}. For pending "
                              "clustering operations, we are not going to support update for now.",
                              c->parts[g->part].path, g->file_id);
    }
    return 0;
}

/* ---- routing -------------------------------------------------------------------------------- */

static int new_groups(wctx *c, int32_t part, const int32_t *rows, int64_t n, int64_t per_bucket,
                      hudi_error *err) {
    if (n == 0) return 0;
    if (per_bucket < 1) per_bucket = 1;
    int64_t buckets = (n + per_bucket - 1) / per_bucket;
    int64_t at = 0;
    for (int64_t b = 0; b < buckets; b++) {
        int64_t take = n / buckets + (b < n % buckets ? 1 : 0);
        int32_t gi = -1;
        int rc = hudi_wctx_new_group(c, part, &gi, err);
        if (rc < 0) return rc;
        wgroup *g = &c->groups[gi];
        for (int64_t k = 0; k < take; k++) {
            if ((rc = hudi_wrows_push(&g->ins, rows[at + k], err)) < 0) return rc;
            c->dest[rows[at + k]] = gi;
        }
        at += take;
    }
    return 0;
}

/* Inserts of one partition: small files first (upsert/insert), then new groups. */
static int assign_inserts(wctx *c, int32_t part, const wrows *rows, size_t n_existing,
                          hudi_error *err) {
    int64_t at = 0, avg = c->avg_record_bytes > 0 ? c->avg_record_bytes : 1;
    int64_t target = c->o.target_file_bytes;
    bool small =
        (c->o.op == HUDI_WRITE_UPSERT || c->o.op == HUDI_WRITE_INSERT) && c->o.small_file_bytes > 0;
    for (size_t gi = 0; small && gi < n_existing && at < rows->n; gi++) {
        wgroup *g = &c->groups[gi];
        if (g->part != part || !g->old || g->old->size_bytes >= c->o.small_file_bytes) continue;
        if (g->clustering[0]) continue;
        /* merge-on-read with the BLOOM index (which cannot see keys in log files): only slices
         * without logs take inserts, rewritten as a new base file (Hudi's MOR partitioner) */
        if (c->mor && g->slice && (g->slice->logs_count > 0 || g->slice->pending_compaction))
            continue;
        int64_t cap = (target - g->old->size_bytes) / avg;
        if (cap <= 0) continue;
        int64_t take = HUDI_MIN(cap, rows->n - at);
        for (int64_t k = 0; k < take; k++) {
            int rc = hudi_wrows_push(&g->ins, rows->v[at + k], err);
            if (rc < 0) return rc;
            c->dest[rows->v[at + k]] = (int32_t)gi;
        }
        g->active = true;
        at += take;
    }
    return new_groups(c, part, rows->v + at, rows->n - at, target / avg, err);
}

int hudi_plan_assign(wctx *c, hudi_error *err) {
    int rc = 0;
    size_t n_existing = c->n_groups;
    wrows *ins = hudi_calloc((size_t)c->n_parts + 1, sizeof(wrows));
    if (!ins) return hudi_error_oom(err);
    for (int64_t s = 0; s < c->n_sel && rc == 0; s++) {
        int32_t r = c->sel[s];
        if (c->tagged[r]) {
            wgroup *g = &c->groups[c->dest[r]];
            g->active = true;
            rc = hudi_wrows_push(&g->upd, r, err);
            continue;
        }
        if (c->o.op == HUDI_WRITE_DELETE || c->o.op == HUDI_WRITE_DELETE_PARTITION) continue;
        c->parts[c->row_part[r]].n_inserts++;
        /* A delete marker for a key the table does not hold writes nothing (Hudi's create
         * handle skips it). */
        if (hudi_plan_row_is_deleted(c, r)) continue;
        rc = hudi_wrows_push(&ins[c->row_part[r]], r, err);
    }
    for (int32_t p = 0; p < c->n_parts && rc == 0; p++)
        rc = c->bucket.on ? hudi_bucket_assign_inserts(c, p, &ins[p], err)
                          : assign_inserts(c, p, &ins[p], n_existing, err);
    for (int32_t p = 0; p < c->n_parts; p++) hudi_free(ins[p].v);
    hudi_free(ins);
    /* Task numbers in group order: they name write tokens and sequence numbers. A MOR group
     * with only updates and deletes gets a log file; one that took inserts (a small file,
     * never one with logs) is rewritten as COW does. */
    for (size_t gi = 0; gi < c->n_groups; gi++) {
        wgroup *g = &c->groups[gi];
        if (!g->active) continue;
        g->task = c->next_task++;
        g->append =
            c->mor && (g->old || g->slice) && g->ins.n == 0 && c->action == HUDI_ACTION_DELTACOMMIT;
    }
    return rc;
}
