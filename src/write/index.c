/* index.c - finding the file group that holds each incoming key (docs/formats/base-files.md
 * §5): Hudi's BLOOM index (footer min/max record key range, then the footer bloom
 * filter, then the candidates confirmed against the file's keys) or its SIMPLE index (the keys
 * of every base file in the partitions the batch touches).
 *
 * Keys come from the _hoodie_record_key column, or, with hoodie.populate.meta.fields=false,
 * from the key columns through the key generator. Only one column set is read per file and
 * only files with candidate keys are read at all.
 *
 * Candidate files are looked up in parallel (one task per file, on the write's pool, the largest
 * files first): a task collects the rows whose keys its file holds, probing the batch's key
 * table a block of keys at a time (hudi_wkeys_find_many); the caller then tags them in group
 * order, so a key found in several files goes to the first group, whatever the thread count. */
#include "write/write_int.h"

static int find_top(const hudi_field *st, const char *name, size_t len) {
    for (int32_t i = 0; i < st->n_children; i++)
        if (st->children[i].name && strlen(st->children[i].name) == len &&
            memcmp(st->children[i].name, name, len) == 0)
            return i;
    return -1;
}

int hudi_index_key_keygen(hudi_keygen **out, const hudi_table_config *cfg, const hudi_field *schema,
                          hudi_error *err) {
    hudi_keygen_options ko = HUDI_KEYGEN_OPTIONS_INIT;
    hudi_keygen_type t = HUDI_KEYGEN_SIMPLE;
    if (!cfg->record_key_fields || !*cfg->record_key_fields)
        return hudi_error_set(err, HUDI_ECORRUPT,
                              "the table has no record key fields and the file no "
                              "_hoodie_record_key");
    const char *cls = cfg->keygen_class ? cfg->keygen_class : cfg->keygen_type;
    if (cls && hudi_keygen_type_parse(&t, cls, NULL) < 0) t = HUDI_KEYGEN_SIMPLE;
    /* Keys only: the complex format when the table's generator renders one. */
    ko.type = t == HUDI_KEYGEN_COMPLEX || strchr(cfg->record_key_fields, ',') ? HUDI_KEYGEN_COMPLEX
                                                                              : HUDI_KEYGEN_SIMPLE;
    ko.record_key_fields = cfg->record_key_fields;
    ko.partition_fields = "";
    return hudi_keygen_new(out, &ko, schema, err);
}

/* Columns holding the record key: the meta column, or the top-level columns of the key
 * fields. */
static int key_columns(const wctx *c, const hudi_field *fs, int32_t *cols, int32_t *n,
                       hudi_error *err) {
    *n = 0;
    if (c->t->cfg.populate_meta_fields) {
        int k = find_top(fs, "_hoodie_record_key", strlen("_hoodie_record_key"));
        if (k >= 0) {
            cols[(*n)++] = k;
            return 0;
        }
    }
    const char *s = c->t->cfg.record_key_fields;
    if (!s || !*s) /* generated keys live only in the meta column (keys.md §9) */
        return hudi_error_set(err, HUDI_ECORRUPT, "base file lacks _hoodie_record_key");
    while (*s) {
        const char *end = strchr(s, ',');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        const char *dot = memchr(s, '.', len);
        size_t top = dot ? (size_t)(dot - s) : len;
        int k = find_top(fs, s, top);
        if (k < 0)
            return hudi_error_set(err, HUDI_ECORRUPT, "base file lacks record key column %.*s",
                                  (int)top, s);
        bool dup = false;
        for (int32_t i = 0; i < *n; i++) dup |= cols[i] == k;
        if (!dup && *n < 64) cols[(*n)++] = k;
        s = end ? end + 1 : s + len;
    }
    return 0;
}

/* Reads the keys of `pf` batch by batch and calls back with a STRING array of them. A
 * callback returning non-zero stops the scan. */
typedef int (*key_fn)(wctx *c, size_t gi, const hudi_array *keys, void *arg, hudi_error *err);

static int scan_keys(wctx *c, size_t gi, hudi_pq_file *pf, key_fn fn, void *arg, hudi_error *err) {
    int32_t cols[64], n = 0;
    hudi_pq_scan *scan = NULL;
    hudi_keygen *kg = NULL;
    hudi_array *keys = NULL;
    int rc = key_columns(c, hudi_pq_schema(pf), cols, &n, err);
    if (rc < 0) return rc;
    hudi_pq_scan_options so = HUDI_PQ_SCAN_OPTIONS_INIT;
    so.columns = cols;
    so.n_columns = n;
    if ((rc = hudi_pq_scan_open(&scan, pf, &so, err)) < 0) goto done;
    bool meta = c->t->cfg.populate_meta_fields && n == 1 &&
                strcmp(hudi_pq_schema(pf)->children[cols[0]].name, "_hoodie_record_key") == 0;
    if (!meta) {
        if ((rc = hudi_index_key_keygen(&kg, &c->t->cfg, hudi_pq_scan_schema(scan), err)) < 0 ||
            (rc = hudi_array_new(&keys, &c->key_field, err)) < 0)
            goto done;
    }
    for (;;) {
        hudi_batch *b = NULL;
        if ((rc = hudi_pq_scan_next(scan, &b, err)) < 0 || !b) break;
        const hudi_array *k = b->columns[0];
        if (!meta) {
            hudi_array_clear(keys);
            if ((rc = hudi_keygen_record_keys(kg, b, keys, err)) < 0) break;
            k = keys;
        } else if (k->field->type != HUDI_TYPE_STRING && k->field->type != HUDI_TYPE_BINARY) {
            rc = hudi_error_set(err, HUDI_ECORRUPT, "%s: _hoodie_record_key is not a string",
                                hudi_pq_path(pf));
            break;
        }
        if ((rc = fn(c, gi, k, arg, err)) != 0) break;
    }
    if (rc > 0) rc = 0;
done:
    hudi_array_free(keys);
    hudi_keygen_free(kg);
    hudi_pq_scan_free(scan);
    return rc;
}

/* Collects the input rows whose keys the file holds (arg: a wrows). */
static int find_keys(wctx *c, size_t gi, const hudi_array *keys, void *arg, hudi_error *err) {
    wrows *hits = arg;
    int32_t part = c->groups[gi].part;
    int32_t rows[512];
    for (int64_t i = 0; i < keys->length; i += (int64_t)HUDI_ARRAY_LEN(rows)) {
        int64_t n = HUDI_MIN(keys->length - i, (int64_t)HUDI_ARRAY_LEN(rows));
        hudi_wkeys_find_many(&c->idx, keys, i, n, part, rows);
        for (int64_t j = 0; j < n; j++) {
            int rc = rows[j] < 0 ? 0 : hudi_wrows_push(hits, rows[j], err);
            if (rc < 0) return rc;
        }
    }
    return 0;
}

static int slice_cmp(hudi_slice a, hudi_slice b) {
    int x = memcmp(a.data, b.data, HUDI_MIN(a.len, b.len));
    return x ? x : (a.len < b.len ? -1 : a.len > b.len ? 1 : 0);
}

/* BLOOM pruning: true when some untagged row of the partition may be in the file. */
static int bloom_candidates(wctx *c, size_t gi, hudi_pq_file *pf, const wrows *rows, bool *any,
                            hudi_error *err) {
    hudi_slice lo, hi;
    hudi_bloom *bf = NULL;
    *any = true;
    bool range = hudi_pq_kv(pf, "hoodie_min_record_key", &lo) &&
                 hudi_pq_kv(pf, "hoodie_max_record_key", &hi);
    int rc = hudi_bloom_from_footer(&bf, pf, err);
    if (rc == HUDI_ENOTFOUND) {
        hudi_error_clear(err);
        return 0; /* no filter: check every key */
    }
    if (rc < 0) return rc;
    *any = false;
    for (int64_t i = 0; i < rows->n && !*any; i++) {
        int32_t r = rows->v[i];
        if (c->tagged[r]) continue;
        hudi_slice k = wstr(c->keys, r);
        if (range && (slice_cmp(k, lo) < 0 || slice_cmp(k, hi) > 0)) continue;
        *any = hudi_bloom_test(bf, k.data, k.len);
    }
    if (*any && !c->groups[gi].old_bloom)
        c->groups[gi].old_bloom = bf; /* the group's merge continues it (cow_merge.c) */
    else
        hudi_bloom_free(bf);
    return 0;
}

typedef struct lookup {
    wctx *c;
    const wrows *by_part; /* selected rows per partition */
    size_t *gi;           /* the candidate groups, in group order */
    size_t *order;        /* task i looks up candidate order[i]: the largest files first */
    wrows *hits;          /* per candidate: the rows its file holds */
} lookup;

static int lookup_task(void *payload, int64_t t, hudi_error *err) {
    lookup *l = payload;
    size_t i = l->order[t];
    wctx *c = l->c;
    size_t gi = l->gi[i];
    const wgroup *g = &c->groups[gi];
    hudi_pq_file *pf = NULL;
    int rc = hudi_pq_open(&pf, c->t->fs, g->old->path, NULL, err);
    if (rc < 0) return rc;
    bool any = true;
    if (c->o.use_bloom_index && c->t->cfg.populate_meta_fields)
        rc = bloom_candidates(c, gi, pf, &l->by_part[g->part], &any, err);
    if (rc == 0 && any) rc = scan_keys(c, gi, pf, find_keys, &l->hits[i], err);
    hudi_pq_close(pf);
    return rc;
}

int hudi_index_tag(wctx *c, hudi_error *err) {
    int rc = 0;
    lookup l = {c, NULL, NULL, NULL, NULL};
    wrows *by_part = hudi_calloc((size_t)c->n_parts + 1, sizeof(wrows));
    l.by_part = by_part;
    l.gi = hudi_calloc(c->n_groups + 1, sizeof(size_t));
    l.hits = hudi_calloc(c->n_groups + 1, sizeof(wrows));
    l.order = hudi_calloc(c->n_groups + 1, sizeof(size_t));
    if (!by_part || !l.gi || !l.hits || !l.order) rc = hudi_error_oom(err);
    for (int64_t s = 0; s < c->n_sel && rc == 0; s++)
        rc = hudi_wrows_push(&by_part[c->row_part[c->sel[s]]], c->sel[s], err);
    int64_t n = 0;
    for (size_t gi = 0; gi < c->n_groups && rc == 0; gi++)
        if (c->groups[gi].old && by_part[c->groups[gi].part].n > 0) l.gi[n++] = gi;
    hudi_pool *pool = NULL;
    if (rc == 0) rc = hudi_write_order_by_work(c, l.order, (size_t)n, l.gi, err);
    if (rc == 0) rc = hudi_write_pool(c, n, &pool, err);
    if (rc == 0) rc = hudi_pool_run(pool, n, lookup_task, &l, err);
    for (int64_t i = 0; i < n && rc == 0; i++) {
        for (int64_t k = 0; k < l.hits[i].n; k++) {
            int32_t r = l.hits[i].v[k];
            if (c->tagged[r]) continue;
            c->tagged[r] = true;
            c->dest[r] = (int32_t)l.gi[i];
        }
    }
    for (int64_t i = 0; l.hits && i < n; i++) hudi_free(l.hits[i].v);
    for (int32_t p = 0; by_part && p < c->n_parts; p++) hudi_free(by_part[p].v);
    hudi_free(by_part);
    hudi_free(l.gi);
    hudi_free(l.hits);
    hudi_free(l.order);
    return rc;
}
