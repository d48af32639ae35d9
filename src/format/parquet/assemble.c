/* assemble.c - Dremel assembly (reader side, docs/formats/parquet.md §4.4): one leaf column's
 * repetition/definition levels plus its dense decoded values become slots, validity bitmaps and
 * offsets in the nested hudi_array tree of its top-level column.
 *
 * Invariants: every call appends; all assembly state lives in the arrays themselves (a list's
 * last slot stays "open": offsets[length] is bumped for each new element), so a column chunk can
 * be fed page by page, even when v1 pages split a record. A node is written only by the leaf
 * that owns it (pq_level.owned: the first leaf below it); other leaves append only their own
 * leaf slots, so assembling the leaves of a column in any order yields one consistent tree.
 * Each entry creates at most one slot per node, so n entries never need more than n slots of
 * capacity (hudi_pq_assemble_reserve). On error the arrays are memory-safe but unspecified: discard
 * the batch. */
#include "format/parquet/schema.h"

#include <stdio.h>

#define MAX_LEVELS (2 * PQ_SCHEMA_MAX_DEPTH + 4)

static const char *leaf_name(const pq_leaf *leaf, char *buf, size_t cap) {
    size_t at = 0;
    buf[0] = 0;
    for (int32_t i = 0; i < leaf->path_len && at + 1 < cap; i++) {
        hudi_slice nm = leaf->path[i];
        if (i > 0) buf[at++] = '.';
        size_t k = HUDI_MIN(nm.len, cap - 1 - at);
        if (k) memcpy(buf + at, nm.data, k);
        at += k;
        buf[at] = 0;
    }
    return buf;
}

#define CORRUPT(...)                                                                               \
    do {                                                                                           \
        char nb_[200];                                                                             \
        const char *col_ = leaf_name(leaf, nb_, sizeof(nb_));                                      \
        return hudi_error_set(err, HUDI_ECORRUPT, __VA_ARGS__);                                    \
    } while (0)

int hudi_pq_assemble_reserve(hudi_array *column, const pq_leaf *leaf, int64_t n_entries,
                             hudi_array **leaf_array, hudi_error *err) {
    hudi_array *a = column;
    int rc;
    *leaf_array = NULL;
    if (n_entries < 0 || n_entries > INT32_MAX)
        return hudi_error_set(err, HUDI_EINVAL, "bad entry count %lld", (long long)n_entries);
    for (int32_t i = 0; i < leaf->depth; i++) {
        const pq_level *l = &leaf->levels[i];
        if ((l->owned || i + 1 == leaf->depth) && (rc = hudi_array_grow(a, n_entries, err)) < 0)
            return rc;
        if (l->kind == PQ_NODE_LIST && l->owned &&
            a->children[0]->length > (int64_t)INT32_MAX - n_entries) {
            char nb[200];
            return hudi_error_set(err, HUDI_EUNSUPPORTED,
                                  "column %s: more than 2^31 list elements in one batch",
                                  leaf_name(leaf, nb, sizeof(nb)));
        }
        if (i + 1 < leaf->depth) a = a->children[l->child];
    }
    *leaf_array = a;
    return 0;
}

/* Appends one slot. Cannot fail unless the first null needs a bitmap. */
static inline int add_slot(hudi_array *a, bool valid, hudi_error *err) {
    int64_t i = a->length;
    if (valid) {
        if (a->validity) hudi_bit_set(a->validity, i);
    } else {
        if (!a->validity) {
            int rc = hudi_array_ensure_validity(a, err);
            if (rc < 0) return rc;
        }
        hudi_bit_clear(a->validity, i);
        a->null_count++;
    }
    a->length = i + 1;
    return 0;
}

/* bits[off + i] = (def[i] == max) for i < n. */
static void defs_to_bits(uint8_t *bits, int64_t off, const int16_t *def, int64_t n, int16_t max) {
    int64_t i = 0;
    for (; i < n && ((off + i) & 7); i++)
        def[i] == max ? hudi_bit_set(bits, off + i) : hudi_bit_clear(bits, off + i);
    for (; i + 8 <= n; i += 8) {
        unsigned b = 0;
        for (int k = 0; k < 8; k++) b |= (unsigned)(def[i + k] == max) << k;
        bits[(off + i) >> 3] = (uint8_t)b;
    }
    for (; i < n; i++) def[i] == max ? hudi_bit_set(bits, off + i) : hudi_bit_clear(bits, off + i);
}

/* Flat column (the leaf is the top-level column). */
static int assemble_flat(hudi_array *a, const pq_leaf *leaf, const int16_t *def, int64_t n,
                         int64_t n_values, hudi_error *err) {
    int64_t start = a->length;
    int rc;
    if (a->field->type == HUDI_TYPE_NULL) {
        if ((rc = hudi_array_ensure_validity(a, err)) < 0) return rc;
        hudi_bitmap_set_range(a->validity, start, n, false);
        a->null_count += n;
        a->length += n;
        return 0;
    }
    if (n_values == n) { /* REQUIRED, or OPTIONAL without nulls: values are already in place */
        if (a->validity) hudi_bitmap_set_range(a->validity, start, n, true);
        a->length += n;
        return 0;
    }
    if ((rc = hudi_array_ensure_validity(a, err)) < 0) return rc;
    defs_to_bits(a->validity, start, def, n, leaf->max_def);
    if ((rc = hudi_array_spread(a, start, n, n_values, err)) < 0) return rc;
    a->null_count += n - n_values;
    a->length += n;
    return 0;
}

static int assemble_nested(hudi_array *column, const pq_leaf *leaf, const int16_t *def,
                           const int16_t *rep, int64_t n, int64_t n_values, hudi_error *err) {
    hudi_array *arr[MAX_LEVELS];
    int16_t def_for_rep[MAX_LEVELS]; /* def_elem of the list whose elements repeat at rep r */
    const pq_level *lv = leaf->levels;
    int32_t depth = leaf->depth;
    int rc;
    if (depth > MAX_LEVELS) return hudi_error_set(err, HUDI_EINVAL, "leaf chain too deep");
    arr[0] = column;
    def_for_rep[0] = 0;
    for (int32_t i = 0; i < depth; i++) {
        if (i + 1 < depth) arr[i + 1] = arr[i]->children[lv[i].child];
        if (lv[i].kind == PQ_NODE_LIST) def_for_rep[lv[i].rep_elem] = lv[i].def_elem;
    }
    hudi_array *leaf_arr = arr[depth - 1];
    bool null_leaf = leaf_arr->field->type == HUDI_TYPE_NULL;
    int64_t leaf_start = leaf_arr->length;
    int16_t prev_d = INT16_MAX; /* unknown before the first entry of a call */
    for (int64_t e = 0; e < n; e++) {
        int16_t r = rep ? rep[e] : 0, d = def ? def[e] : 0;
        if (r > 0 && prev_d < def_for_rep[r])
            CORRUPT("column %s: entry %lld repeats a list that the previous entry left empty", col_,
                    (long long)e);
        prev_d = d;
        for (int32_t i = 0; i < depth; i++) {
            const pq_level *l = &lv[i];
            hudi_array *a = arr[i];
            if (r > l->rep_slot) { /* the entry continues the current slot of this node */
                if (l->kind == PQ_NODE_LIST && r <= l->rep_elem) {
                    if (d < l->def_elem)
                        CORRUPT("column %s: entry %lld repeats a list it does not define", col_,
                                (long long)e);
                    if (l->owned) {
                        if (a->length == 0)
                            CORRUPT("column %s: repetition level %d before any record", col_,
                                    (int)r);
                        a->offsets[a->length]++;
                    }
                }
                continue;
            }
            if (d < l->def_slot) break; /* an ancestor is null or empty */
            bool valid = d >= l->def_valid;
            if (l->kind == PQ_NODE_LEAF) {
                if ((rc = add_slot(a, valid && !null_leaf, err)) < 0) return rc;
                break;
            }
            if (l->owned) {
                if (l->kind == PQ_NODE_LIST) a->offsets[a->length + 1] = a->offsets[a->length];
                if ((rc = add_slot(a, valid, err)) < 0) return rc;
                if (l->null_child >= 0 &&
                    (rc = add_slot(a->children[l->null_child], false, err)) < 0)
                    return rc;
            }
            if (!valid) {
                if (l->kind == PQ_NODE_STRUCT) continue; /* children get null slots too */
                break;
            }
            if (l->kind == PQ_NODE_LIST) {
                if (d < l->def_elem) break; /* present but empty */
                if (l->owned) a->offsets[a->length]++;
            }
        }
    }
    if (null_leaf) return 0;
    return hudi_array_spread(leaf_arr, leaf_start, leaf_arr->length - leaf_start, n_values, err);
}

int hudi_pq_assemble_leaf(hudi_array *column, const pq_leaf *leaf, const int16_t *def,
                          const int16_t *rep, int64_t n, int64_t n_values, bool starts_record,
                          hudi_error *err) {
    int16_t max_def = leaf->max_def, max_rep = leaf->max_rep;
    if (n < 0 || n_values < 0 || (max_def > 0 && !def && n > 0) || (max_rep > 0 && !rep && n > 0))
        return hudi_error_set(err, HUDI_EINVAL, "hudi_pq_assemble_leaf: bad arguments");
    if (max_rep == 0) rep = NULL;
    if (max_def == 0) def = NULL;
    if (rep && n > 0 && starts_record && rep[0] != 0)
        CORRUPT("column %s: page starts with repetition level %d, not 0", col_, (int)rep[0]);
    int64_t defined = n;
    if (def) {
        defined = 0;
        bool bad = false;
        for (int64_t i = 0; i < n; i++) {
            bad |= (uint16_t)def[i] > (uint16_t)max_def;
            defined += def[i] == max_def;
        }
        if (bad) CORRUPT("column %s: definition level above %d", col_, (int)max_def);
    }
    if (rep) {
        bool bad = false;
        for (int64_t i = 0; i < n; i++) bad |= (uint16_t)rep[i] > (uint16_t)max_rep;
        if (bad) CORRUPT("column %s: repetition level above %d", col_, (int)max_rep);
    }
    if (defined != n_values)
        CORRUPT("column %s: %lld values for %lld defined entries", col_, (long long)n_values,
                (long long)defined);
    if (n == 0) return 0;
    if (leaf->depth == 1) return assemble_flat(column, leaf, def, n, n_values, err);
    return assemble_nested(column, leaf, def, rep, n, n_values, err);
}
