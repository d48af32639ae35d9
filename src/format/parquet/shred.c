/* shred.c - Dremel shredding (writer side, docs/formats/parquet.md §4.3): a range of rows of one
 * top-level hudi_array becomes, for one leaf column, its repetition/definition levels, the runs
 * of leaf slots holding non-null values, and the entry index where each row starts.
 *
 * Invariants: output buffers are caller-owned and only grow (no per-row allocation); value runs
 * are ascending, disjoint and maximal (adjacent runs are merged), so a writer gathers the dense
 * value stream with one memcpy per run. The walk follows the leaf's level plan (schema.h) and
 * works on whole ranges: a struct without nulls or a list's element range is handed down as one
 * range, and a leaf range without nulls is emitted with two fills. */
#include "format/parquet/schema.h"

typedef struct shred_ctx {
    pq_shredded *out;
    const pq_leaf *leaf;
    int16_t *def; /* == out->def when wanted, else NULL */
    int16_t *rep;
    hudi_error *err;
} shred_ctx;

void hudi_pq_shredded_dispose(pq_shredded *s) {
    if (!s) return;
    hudi_free(s->def);
    hudi_free(s->rep);
    hudi_free(s->runs);
    hudi_free(s->record_starts);
    memset(s, 0, sizeof(*s));
}

static int grow_i64(void **p, int64_t *cap, int64_t need, size_t elem, hudi_error *err) {
    if (need <= *cap) return 0;
    int64_t nc = *cap < 256 ? 256 : *cap;
    while (nc < need) nc *= 2;
    size_t bytes;
    if (hudi_mul_overflow((size_t)nc, elem, &bytes)) return hudi_error_oom(err);
    void *q = hudi_realloc(*p, bytes);
    if (!q) return hudi_error_oom(err);
    *p = q;
    *cap = nc;
    return 0;
}

/* def and rep always share one capacity; only the wanted streams are written. */
static int reserve_levels(shred_ctx *c, int64_t extra) {
    pq_shredded *o = c->out;
    int64_t need = o->n_levels + extra;
    if (need <= o->level_cap && o->def && o->rep) goto done;
    int64_t nc = o->level_cap < 1024 ? 1024 : o->level_cap;
    while (nc < need) nc *= 2;
    int16_t *d = hudi_realloc(o->def, (size_t)nc * sizeof(int16_t));
    if (!d) return hudi_error_oom(c->err);
    o->def = d;
    int16_t *r = hudi_realloc(o->rep, (size_t)nc * sizeof(int16_t));
    if (!r) return hudi_error_oom(c->err);
    o->rep = r;
    o->level_cap = nc;
done:
    c->def = c->leaf->max_def > 0 ? o->def : NULL;
    c->rep = c->leaf->max_rep > 0 ? o->rep : NULL;
    return 0;
}

/* One entry; room was reserved. */
static inline void put(shred_ctx *c, int16_t r, int16_t d) {
    int64_t k = c->out->n_levels++;
    if (c->def) c->def[k] = d;
    if (c->rep) c->rep[k] = r;
}

static int put1(shred_ctx *c, int16_t r, int16_t d) {
    int rc = reserve_levels(c, 1);
    if (rc == 0) put(c, r, d);
    return rc;
}

static int add_run(shred_ctx *c, int64_t start, int64_t len) {
    pq_shredded *o = c->out;
    o->n_values += len;
    if (o->n_runs > 0 && o->runs[o->n_runs - 1].start + o->runs[o->n_runs - 1].len == start) {
        o->runs[o->n_runs - 1].len += len;
        return 0;
    }
    int rc = grow_i64((void **)&o->runs, &o->run_cap, o->n_runs + 1, sizeof(pq_value_run), c->err);
    if (rc < 0) return rc;
    o->runs[o->n_runs++] = (pq_value_run){start, len};
    return 0;
}

static int null_in_required(shred_ctx *c, const hudi_array *a) {
    return hudi_error_set(c->err, HUDI_EINVAL, "column %s: null in a non-nullable field",
                          a->field->name ? a->field->name : "");
}

static int shred_leaf_range(shred_ctx *c, const pq_level *l, const hudi_array *a, int64_t start,
                            int64_t end, int16_t r) {
    int64_t k = end - start;
    int rc;
    if ((rc = reserve_levels(c, k)) < 0) return rc;
    const uint8_t *vb = a->validity;
    if (a->field->type == HUDI_TYPE_NULL) {
        int16_t d = (int16_t)(l->def_valid - (l->nullable ? 1 : 0));
        for (int64_t s = 0; s < k; s++, r = l->rep_slot) put(c, r, d);
        return 0;
    }
    if (!vb || hudi_bitmap_count(vb, start, k) == k) {
        int64_t at = c->out->n_levels;
        if (c->def)
            for (int64_t s = 0; s < k; s++) c->def[at + s] = l->def_valid;
        if (c->rep) {
            c->rep[at] = r;
            for (int64_t s = 1; s < k; s++) c->rep[at + s] = l->rep_slot;
        }
        c->out->n_levels += k;
        return add_run(c, start, k);
    }
    int64_t run = -1;
    for (int64_t s = start; s < end; s++, r = l->rep_slot) {
        if (hudi_bit_get(vb, s)) {
            put(c, r, l->def_valid);
            if (run < 0) run = s;
            continue;
        }
        if (!l->nullable) return null_in_required(c, a);
        put(c, r, (int16_t)(l->def_valid - 1));
        if (run >= 0 && (rc = add_run(c, run, s - run)) < 0) return rc;
        run = -1;
    }
    return run >= 0 ? add_run(c, run, end - run) : 0;
}

/* Emits the entries of slots [start, end) of the node at chain level i; the first slot's first
 * entry gets repetition level r, every later slot starts at the node's rep_slot. */
static int shred_range(shred_ctx *c, int32_t i, const hudi_array *a, int64_t start, int64_t end,
                       int16_t r) {
    const pq_level *l = &c->leaf->levels[i];
    const uint8_t *vb = a->validity;
    int rc;
    if (l->kind == PQ_NODE_LEAF) return shred_leaf_range(c, l, a, start, end, r);
    const hudi_array *child = a->children[l->child];
    if (l->kind == PQ_NODE_STRUCT) {
        if (!vb) return shred_range(c, i + 1, child, start, end, r);
        for (int64_t s = start; s < end; r = l->rep_slot) {
            if (hudi_bit_get(vb, s)) {
                int64_t t = s + 1;
                while (t < end && hudi_bit_get(vb, t)) t++;
                if ((rc = shred_range(c, i + 1, child, s, t, r)) < 0) return rc;
                s = t;
                continue;
            }
            if (!l->nullable) return null_in_required(c, a);
            if ((rc = put1(c, r, (int16_t)(l->def_valid - 1))) < 0) return rc;
            s++;
        }
        return 0;
    }
    /* LIST / MAP */
    const int32_t *off = a->offsets;
    for (int64_t s = start; s < end; s++, r = l->rep_slot) {
        if (vb && !hudi_bit_get(vb, s)) {
            if (!l->nullable) return null_in_required(c, a);
            if ((rc = put1(c, r, (int16_t)(l->def_valid - 1))) < 0) return rc;
            continue;
        }
        int32_t o0 = off[s], o1 = off[s + 1];
        if (o0 < 0 || o1 < o0 || o1 > child->length)
            return hudi_error_set(c->err, HUDI_EINVAL, "column %s: bad list offsets at row %lld",
                                  a->field->name ? a->field->name : "", (long long)s);
        if (o0 == o1)
            rc = put1(c, r, l->def_valid); /* present but empty */
        else
            rc = shred_range(c, i + 1, child, o0, o1, r);
        if (rc < 0) return rc;
    }
    return 0;
}

int hudi_pq_shred_leaf(pq_shredded *out, const pq_leaf *leaf, const hudi_array *column,
                       int64_t row_start, int64_t n_rows, hudi_error *err) {
    shred_ctx c = {out, leaf, NULL, NULL, err};
    int rc;
    out->n_levels = out->n_runs = out->n_values = out->n_records = 0;
    out->no_nulls = false;
    if (row_start < 0 || n_rows < 0 || row_start > column->length ||
        n_rows > column->length - row_start)
        return hudi_error_set(err, HUDI_EINVAL, "rows [%lld, +%lld) outside column of %lld",
                              (long long)row_start, (long long)n_rows, (long long)column->length);
    if ((rc = reserve_levels(&c, 0)) < 0) return rc;
    if (leaf->depth == 1 && leaf->max_def == 0 && column->field->type != HUDI_TYPE_NULL) {
        out->n_levels = n_rows; /* flat REQUIRED: no levels, one run */
        if (n_rows > 0 && (rc = add_run(&c, row_start, n_rows)) < 0) return rc;
    } else if ((rc = shred_range(&c, 0, column, row_start, row_start + n_rows, 0)) < 0) {
        return rc;
    }
    out->no_nulls = out->n_values == out->n_levels;
    if (leaf->max_rep > 0) {
        int64_t zeros = 0;
        for (int64_t i = 0; i < out->n_levels; i++) zeros += out->rep[i] == 0;
        if ((rc = grow_i64((void **)&out->record_starts, &out->record_cap, zeros, sizeof(int64_t),
                           err)) < 0)
            return rc;
        for (int64_t i = 0; i < out->n_levels; i++)
            if (out->rep[i] == 0) out->record_starts[out->n_records++] = i;
    } else {
        out->n_records = out->n_levels;
    }
    return 0;
}
