/* kernels.c - row kernels the operators share: hashing and comparing rows of any type, gathering
 * rows into arrays and batches, memory estimates, and the group table (exec_int.h).
 *
 * Invariant: hashing agrees with equality as compare_rows defines it: nulls hash alike, every
 * NaN hashes alike and -0.0 hashes as 0.0 (both compare equal), so rows that compare equal
 * always land in the same group. */
#include <math.h>
/* Inlined: the group table hashes every row, mostly short strings and 8-byte values, and a call
 * into the shared library per value costs as much as the hash. */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "sql/exec_int.h"

#define NULL_HASH 0x9e3779b97f4a7c15ULL

static inline uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
}

/* memcmp(p, q, n) == 0, inline for the short strings keys mostly are (a call to memcmp costs
 * more than comparing them): overlapping 8- or 4-byte words cover n bytes exactly; up to 64
 * bytes (paths, names) as 8-byte words, the last one ending at byte n. */
static inline bool bytes_equal(const uint8_t *p, const uint8_t *q, size_t n) {
    uint64_t x, y;
    uint32_t u, v;
    if (n >= 8 && n <= 16) {
        memcpy(&x, p, 8);
        memcpy(&y, q, 8);
        if (x != y) return false;
        memcpy(&x, p + n - 8, 8);
        memcpy(&y, q + n - 8, 8);
        return x == y;
    }
    if (n >= 4 && n < 8) {
        memcpy(&u, p, 4);
        memcpy(&v, q, 4);
        if (u != v) return false;
        memcpy(&u, p + n - 4, 4);
        memcpy(&v, q + n - 4, 4);
        return u == v;
    }
    if (n < 4) {
        for (size_t k = 0; k < n; k++)
            if (p[k] != q[k]) return false;
        return true;
    }
    if (n <= 64) {
        for (size_t k = 0; k + 8 < n; k += 8) {
            memcpy(&x, p + k, 8);
            memcpy(&y, q + k, 8);
            if (x != y) return false;
        }
        memcpy(&x, p + n - 8, 8);
        memcpy(&y, q + n - 8, 8);
        return x == y;
    }
    return memcmp(p, q, n) == 0;
}

static inline uint64_t hash_u64(uint64_t v) { return XXH3_64bits(&v, sizeof v); }

static double float_value(const hudi_array *a, int64_t i) {
    switch (a->field->type) {
    case HUDI_TYPE_FLOAT16: return hudi_half_to_float(((const uint16_t *)a->values)[i]);
    case HUDI_TYPE_FLOAT: return ((const float *)a->values)[i];
    default: return ((const double *)a->values)[i];
    }
}

static uint64_t hash_value(const hudi_array *a, int64_t i);

static uint64_t hash_elements(const hudi_array *child, int64_t from, int64_t to) {
    uint64_t h = hash_u64((uint64_t)(to - from));
    for (int64_t k = from; k < to; k++) h = mix(h, hash_value(child, k));
    return h;
}

/* The hash of one row; nested values hash their elements. */
static uint64_t hash_value(const hudi_array *a, int64_t i) {
    if (!hudi_array_is_valid(a, i)) return NULL_HASH;
    const hudi_field *f = a->field;
    switch (f->type) {
    case HUDI_TYPE_NULL: return NULL_HASH;
    case HUDI_TYPE_BOOL: return hash_u64(hudi_bit_get(a->values, i));
    case HUDI_TYPE_FLOAT16:
    case HUDI_TYPE_FLOAT:
    case HUDI_TYPE_DOUBLE: {
        double d = float_value(a, i);
        if (isnan(d)) return hash_u64(0x7ff8000000000000ULL);
        if (d == 0) d = 0; /* -0.0 */
        uint64_t bits;
        memcpy(&bits, &d, 8);
        return hash_u64(bits);
    }
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY:
        return XXH3_64bits(a->data + a->offsets[i], (size_t)(a->offsets[i + 1] - a->offsets[i]));
    case HUDI_TYPE_LIST:
    case HUDI_TYPE_MAP: return hash_elements(a->children[0], a->offsets[i], a->offsets[i + 1]);
    case HUDI_TYPE_STRUCT: {
        uint64_t h = 0x51ed27;
        for (int32_t c = 0; c < a->n_children; c++) h = mix(h, hash_value(a->children[c], i));
        return h;
    }
    default: {
        int w = hudi_type_width(f);
        return XXH3_64bits((const uint8_t *)a->values + (size_t)i * (size_t)w, (size_t)w);
    }
    }
}

static inline bool key_equal(const hudi_array *a, int64_t i, const hudi_array *b, int64_t j);

/* Hashes the rows into hashes[] and, when `same` is non-NULL, sets same[i] to whether row i's
 * keys equal row i - 1's (same[0] = 0): a row equal to the one before it (sorted or clustered
 * keys, a partition column) reuses its hash, and the group table its group, without a probe. */
static void hash_rows(const hudi_sql_datum *keys, int32_t n_keys, int64_t nrows, uint64_t *hashes,
                      uint8_t *same) {
    for (int64_t i = 0; i < nrows; i++) hashes[i] = 0x2545f4914f6cdd1dULL;
    if (same && nrows > 0) {
        memset(same, 1, (size_t)nrows);
        same[0] = 0;
    }
    for (int32_t k = 0; k < n_keys; k++) {
        const hudi_array *a = keys[k].array;
        if (keys[k].is_const) {
            uint64_t h = hash_value(a, 0);
            for (int64_t i = 0; i < nrows; i++) hashes[i] = mix(hashes[i], h);
            continue;
        }
        hudi_type_id t = a->field->type;
        int w = hudi_type_width(a->field);
        if ((t == HUDI_TYPE_STRING || t == HUDI_TYPE_BINARY) && !a->validity) {
            const int32_t *off = a->offsets;
            const uint8_t *data = a->data;
            uint64_t h = 0;
            for (int64_t i = 0; i < nrows; i++) {
                int32_t len = off[i + 1] - off[i];
                bool eq = i > 0 && len == off[i] - off[i - 1] &&
                          bytes_equal(data + off[i], data + off[i - 1], (size_t)len);
                if (!eq) h = XXH3_64bits(data + off[i], (size_t)len);
                if (same) same[i] &= eq;
                hashes[i] = mix(hashes[i], h);
            }
        } else if (hudi_type_is_fixed(t) && t != HUDI_TYPE_BOOL && t != HUDI_TYPE_FLOAT16 &&
                   t != HUDI_TYPE_FLOAT && t != HUDI_TYPE_DOUBLE && w > 0) {
            /* The common case of integer, date, timestamp and decimal keys. */
            const uint8_t *v = a->values;
            for (int64_t i = 0; i < nrows; i++) {
                uint64_t h = hudi_array_is_valid(a, i)
                                 ? XXH3_64bits(v + (size_t)i * (size_t)w, (size_t)w)
                                 : NULL_HASH;
                hashes[i] = mix(hashes[i], h);
            }
            if (same)
                for (int64_t i = 1; i < nrows; i++) same[i] &= key_equal(a, i, a, i - 1);
        } else {
            for (int64_t i = 0; i < nrows; i++) hashes[i] = mix(hashes[i], hash_value(a, i));
            if (same)
                for (int64_t i = 1; i < nrows; i++) same[i] &= key_equal(a, i, a, i - 1);
        }
    }
}

void hudi_sql_hash_rows(const hudi_sql_datum *keys, int32_t n_keys, int64_t nrows,
                        uint64_t *hashes) {
    hash_rows(keys, n_keys, nrows, hashes, NULL);
}

/* ---- comparison ------------------------------------------------------------------------- */

#define CMP(x, y) (((x) > (y)) - ((x) < (y)))

static int compare_doubles(double x, double y) {
    bool nx = isnan(x), ny = isnan(y);
    if (nx || ny) return nx && ny ? 0 : nx ? 1 : -1; /* NaN is larger than every number */
    return CMP(x, y);
}

static int compare_bytes(const uint8_t *p, int64_t n, const uint8_t *q, int64_t m) {
    int64_t k = HUDI_MIN(n, m);
    int c = k > 0 ? memcmp(p, q, (size_t)k) : 0;
    if (c) return c < 0 ? -1 : 1;
    return CMP(n, m);
}

static int compare_value(const hudi_array *a, int64_t i, const hudi_array *b, int64_t j,
                         bool nulls_first);

/* Lexicographic over element ranges, then shorter first (Spark's array ordering; nested nulls
 * come first). */
static int compare_ranges(const hudi_array *ca, int64_t ai, int64_t an, const hudi_array *cb,
                          int64_t bi, int64_t bn) {
    for (int64_t k = 0; k < an && k < bn; k++) {
        int c = compare_value(ca, ai + k, cb, bi + k, true);
        if (c) return c;
    }
    return CMP(an, bn);
}

static int compare_value(const hudi_array *a, int64_t i, const hudi_array *b, int64_t j,
                         bool nulls_first) {
    bool va = hudi_array_is_valid(a, i), vb = hudi_array_is_valid(b, j);
    if (!va || !vb) {
        if (!va && !vb) return 0;
        return !va ? (nulls_first ? -1 : 1) : (nulls_first ? 1 : -1);
    }
    const hudi_field *f = a->field;
    switch (f->type) {
    case HUDI_TYPE_NULL: return 0;
    case HUDI_TYPE_BOOL: return CMP(hudi_bit_get(a->values, i), hudi_bit_get(b->values, j));
    case HUDI_TYPE_INT8: return CMP(((const int8_t *)a->values)[i], ((const int8_t *)b->values)[j]);
    case HUDI_TYPE_INT16:
        return CMP(((const int16_t *)a->values)[i], ((const int16_t *)b->values)[j]);
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_DATE:
        return CMP(((const int32_t *)a->values)[i], ((const int32_t *)b->values)[j]);
    case HUDI_TYPE_INT64:
    case HUDI_TYPE_TIMESTAMP:
        return CMP(((const int64_t *)a->values)[i], ((const int64_t *)b->values)[j]);
    case HUDI_TYPE_UINT8:
        return CMP(((const uint8_t *)a->values)[i], ((const uint8_t *)b->values)[j]);
    case HUDI_TYPE_UINT16:
        return CMP(((const uint16_t *)a->values)[i], ((const uint16_t *)b->values)[j]);
    case HUDI_TYPE_UINT32:
        return CMP(((const uint32_t *)a->values)[i], ((const uint32_t *)b->values)[j]);
    case HUDI_TYPE_UINT64:
        return CMP(((const uint64_t *)a->values)[i], ((const uint64_t *)b->values)[j]);
    case HUDI_TYPE_TIME:
        if (hudi_type_width(f) == 4)
            return CMP(((const int32_t *)a->values)[i], ((const int32_t *)b->values)[j]);
        return CMP(((const int64_t *)a->values)[i], ((const int64_t *)b->values)[j]);
    case HUDI_TYPE_FLOAT16:
    case HUDI_TYPE_FLOAT:
    case HUDI_TYPE_DOUBLE: return compare_doubles(float_value(a, i), float_value(b, j));
    case HUDI_TYPE_DECIMAL: {
        __int128 x, y;
        memcpy(&x, (const uint8_t *)a->values + 16 * (size_t)i, 16);
        memcpy(&y, (const uint8_t *)b->values + 16 * (size_t)j, 16);
        if (f->scale != b->field->scale) {
            /* Same precision class but other scales: compare at the larger scale. */
            int32_t d = f->scale - b->field->scale;
            long double lx = (long double)x, ly = (long double)y;
            for (int32_t k = 0; k < (d < 0 ? -d : d); k++) d < 0 ? (lx *= 10) : (ly *= 10);
            return CMP(lx, ly);
        }
        return CMP(x, y);
    }
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY:
        return compare_bytes(a->data + a->offsets[i], a->offsets[i + 1] - a->offsets[i],
                             b->data + b->offsets[j], b->offsets[j + 1] - b->offsets[j]);
    case HUDI_TYPE_FIXED_BINARY: {
        int64_t w = f->byte_width;
        return compare_bytes((const uint8_t *)a->values + i * w, w,
                             (const uint8_t *)b->values + j * w, b->field->byte_width);
    }
    case HUDI_TYPE_LIST:
    case HUDI_TYPE_MAP:
        return compare_ranges(a->children[0], a->offsets[i], a->offsets[i + 1] - a->offsets[i],
                              b->children[0], b->offsets[j], b->offsets[j + 1] - b->offsets[j]);
    case HUDI_TYPE_STRUCT:
        for (int32_t c = 0; c < a->n_children && c < b->n_children; c++) {
            int r = compare_value(a->children[c], i, b->children[c], j, true);
            if (r) return r;
        }
        return 0;
    default: return 0;
    }
}

int hudi_sql_compare_rows(const hudi_array *a, int64_t i, const hudi_array *b, int64_t j,
                          bool nulls_first) {
    return compare_value(a, i, b, j, nulls_first);
}

/* Whether two values are equal as compare_value orders them (nulls equal, NaN equal to NaN,
 * -0.0 equal to 0.0), with direct paths for the key types group tables see most. */
static inline bool key_equal(const hudi_array *a, int64_t i, const hudi_array *b, int64_t j) {
    bool va = hudi_array_is_valid(a, i), vb = hudi_array_is_valid(b, j);
    if (!va || !vb) return va == vb;
    switch (a->field->type) {
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY: {
        int32_t n = a->offsets[i + 1] - a->offsets[i];
        return n == b->offsets[j + 1] - b->offsets[j] &&
               bytes_equal(a->data + a->offsets[i], b->data + b->offsets[j], (size_t)n);
    }
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_DATE: return ((const int32_t *)a->values)[i] == ((const int32_t *)b->values)[j];
    case HUDI_TYPE_INT64:
    case HUDI_TYPE_TIMESTAMP:
        return ((const int64_t *)a->values)[i] == ((const int64_t *)b->values)[j];
    default: return compare_value(a, i, b, j, true) == 0;
    }
}

/* ---- gathering rows ------------------------------------------------------------------------ */

int hudi_sql_array_take(hudi_array *dst, const hudi_array *src, const int64_t *rows, int64_t n,
                        hudi_error *err) {
    if (n <= 0) return 0;
    const hudi_field *f = dst->field;
    if (f->type != src->field->type)
        return hudi_error_set(err, HUDI_EINVAL, "column %s: cannot gather %s rows into %s",
                              f->name ? f->name : "", hudi_type_name(src->field->type),
                              hudi_type_name(f->type));
    int64_t saved = dst->length, at = dst->length;
    int rc;
    bool nested = f->type == HUDI_TYPE_STRUCT || f->type == HUDI_TYPE_LIST ||
                  f->type == HUDI_TYPE_MAP || f->type == HUDI_TYPE_NULL;
    if (nested) {
        /* Runs of consecutive rows go through append_range; nulls one run at a time. */
        for (int64_t k = 0; k < n;) {
            int64_t r = rows[k], len = 1;
            if (r < 0) {
                while (k + len < n && rows[k + len] < 0) len++;
                rc = hudi_array_append_nulls(dst, len, err);
            } else {
                while (k + len < n && rows[k + len] == r + len) len++;
                rc = hudi_array_append_range(dst, src, r, len, err);
            }
            if (rc < 0) goto fail;
            k += len;
        }
        return 0;
    }
    if ((rc = hudi_array_grow(dst, n, err)) < 0) goto fail;
    int64_t nulls = 0;
    for (int64_t k = 0; k < n; k++)
        if (rows[k] < 0 || !hudi_array_is_valid(src, rows[k])) nulls++;
    if (nulls && (rc = hudi_array_ensure_validity(dst, err)) < 0) goto fail;
    if (f->type == HUDI_TYPE_STRING || f->type == HUDI_TYPE_BINARY) {
        int64_t bytes = 0;
        for (int64_t k = 0; k < n; k++)
            if (rows[k] >= 0) bytes += src->offsets[rows[k] + 1] - src->offsets[rows[k]];
        if ((rc = hudi_array_grow_data(dst, bytes, err)) < 0) goto fail;
        int32_t end = dst->offsets[at];
        for (int64_t k = 0; k < n; k++) {
            int64_t r = rows[k];
            if (r >= 0) {
                int32_t len = src->offsets[r + 1] - src->offsets[r];
                if (len) memcpy(dst->data + end, src->data + src->offsets[r], (size_t)len);
                end += len;
            }
            dst->offsets[at + k + 1] = end;
        }
        dst->data_len = end;
    } else if (f->type == HUDI_TYPE_BOOL) {
        for (int64_t k = 0; k < n; k++) {
            if (rows[k] >= 0 && hudi_bit_get(src->values, rows[k]))
                hudi_bit_set(dst->values, at + k);
            else
                hudi_bit_clear(dst->values, at + k);
        }
    } else {
        size_t w = (size_t)hudi_type_width(f);
        uint8_t *d = (uint8_t *)dst->values + (size_t)at * w;
        const uint8_t *s = src->values;
        switch (w) {
        case 4:
            for (int64_t k = 0; k < n; k++)
                ((uint32_t *)d)[k] = rows[k] >= 0 ? ((const uint32_t *)s)[rows[k]] : 0;
            break;
        case 8:
            for (int64_t k = 0; k < n; k++)
                ((uint64_t *)d)[k] = rows[k] >= 0 ? ((const uint64_t *)s)[rows[k]] : 0;
            break;
        default:
            for (int64_t k = 0; k < n; k++) {
                if (rows[k] >= 0)
                    memcpy(d + (size_t)k * w, s + (size_t)rows[k] * w, w);
                else
                    memset(d + (size_t)k * w, 0, w);
            }
        }
    }
    if (dst->validity)
        for (int64_t k = 0; k < n; k++) {
            if (rows[k] >= 0 && hudi_array_is_valid(src, rows[k]))
                hudi_bit_set(dst->validity, at + k);
            else
                hudi_bit_clear(dst->validity, at + k);
        }
    dst->null_count += nulls;
    dst->length += n;
    return 0;
fail:
    hudi_array_truncate(dst, saved);
    return rc;
}

int hudi_sql_batch_take(hudi_batch *dst, const hudi_batch *in, const int64_t *rows, int64_t n,
                        hudi_error *err) {
    if (dst->n_columns != in->n_columns)
        return hudi_error_set(err, HUDI_EINVAL, "gathering %d columns into %d", in->n_columns,
                              dst->n_columns);
    int rc;
    for (int32_t c = 0; c < in->n_columns; c++) {
        if ((rc = hudi_sql_array_take(dst->columns[c], in->columns[c], rows, n, err)) < 0) {
            for (int32_t k = 0; k < c; k++) hudi_array_truncate(dst->columns[k], dst->num_rows);
            return rc;
        }
    }
    dst->num_rows += n;
    return 0;
}

int hudi_sql_take(const hudi_batch *in, const int64_t *rows, int64_t n, hudi_batch **out,
                  hudi_error *err) {
    *out = NULL;
    hudi_batch *b;
    int rc = hudi_batch_new(&b, in->schema, err);
    if (rc < 0) return rc;
    if ((rc = hudi_sql_batch_take(b, in, rows, n, err)) < 0) {
        hudi_batch_free(b);
        return rc;
    }
    *out = b;
    return 0;
}

int hudi_sql_batch_append(hudi_batch *dst, const hudi_batch *src, hudi_error *err) {
    if (dst->n_columns != src->n_columns)
        return hudi_error_set(err, HUDI_EINVAL, "appending %d columns to %d", src->n_columns,
                              dst->n_columns);
    int rc;
    for (int32_t c = 0; c < src->n_columns; c++) {
        if ((rc = hudi_array_append_range(dst->columns[c], src->columns[c], 0, src->num_rows,
                                          err)) < 0) {
            for (int32_t k = 0; k < c; k++) hudi_array_truncate(dst->columns[k], dst->num_rows);
            return rc;
        }
    }
    dst->num_rows += src->num_rows;
    return 0;
}

int hudi_sql_array_repeat(hudi_array **out, const hudi_array *c, int64_t n, hudi_error *err) {
    *out = NULL;
    hudi_array *a;
    int rc = hudi_array_new(&a, c->field, err);
    if (rc < 0) return rc;
    int64_t *zeros = n > 0 ? hudi_calloc((size_t)n, sizeof(*zeros)) : NULL;
    if (n > 0 && !zeros) {
        hudi_array_free(a);
        return hudi_error_oom(err);
    }
    rc = hudi_sql_array_take(a, c, zeros, n, err);
    hudi_free(zeros);
    if (rc < 0) {
        hudi_array_free(a);
        return rc;
    }
    *out = a;
    return 0;
}

int64_t hudi_sql_array_bytes(const hudi_array *a) {
    if (!a) return 0;
    int64_t n = a->length, bytes = a->validity ? (n + 7) / 8 : 0;
    int w = hudi_type_width(a->field);
    if (a->field->type == HUDI_TYPE_BOOL)
        bytes += (n + 7) / 8;
    else if (w > 0)
        bytes += n * w;
    if (a->offsets) bytes += 4 * (n + 1);
    bytes += a->data_len;
    for (int32_t c = 0; c < a->n_children; c++) bytes += hudi_sql_array_bytes(a->children[c]);
    return bytes;
}

int64_t hudi_sql_batch_bytes(const hudi_batch *b) {
    int64_t bytes = 0;
    for (int32_t c = 0; b && c < b->n_columns; c++) bytes += hudi_sql_array_bytes(b->columns[c]);
    return bytes;
}

int hudi_sql_oper_drain(hudi_sql_oper *op, const hudi_field *schema, hudi_batch **out,
                        int64_t *charged, hudi_error *err) {
    *out = NULL;
    *charged = 0;
    hudi_batch *all, *b;
    int rc = hudi_batch_new(&all, schema, err);
    if (rc < 0) return rc;
    for (;;) {
        if ((rc = hudi_sql_check_cancel(op->ctx, err)) < 0) break;
        if ((rc = hudi_sql_op_next(op, &b, err)) < 0 || !b) break;
        int64_t before = hudi_sql_batch_bytes(all);
        if ((rc = hudi_sql_batch_append(all, b, err)) < 0) break;
        int64_t grown = hudi_sql_batch_bytes(all) - before;
        if ((rc = hudi_sql_mem_charge(op->ctx, grown, err)) < 0) break;
        *charged += grown;
    }
    if (rc < 0) {
        hudi_sql_mem_charge(op->ctx, -*charged, NULL);
        *charged = 0;
        hudi_batch_free(all);
        return rc;
    }
    *out = all;
    return 0;
}

/* ---- views and schemas -------------------------------------------------------------------- */

int hudi_sql_view_new(hudi_batch **out, const hudi_field *schema, hudi_error *err) {
    *out = NULL;
    hudi_batch *b = hudi_calloc(1, sizeof(*b));
    if (!b) return hudi_error_oom(err);
    b->schema = schema;
    b->n_columns = schema->n_children;
    if (b->n_columns > 0 &&
        !(b->columns = hudi_calloc((size_t)b->n_columns, sizeof(*b->columns)))) {
        hudi_free(b);
        return hudi_error_oom(err);
    }
    *out = b;
    return 0;
}

void hudi_sql_view_free(hudi_batch *b) {
    if (!b) return;
    hudi_free(b->columns);
    hudi_free(b);
}

int hudi_sql_concat_schema(hudi_arena *arena, const hudi_field *a, const hudi_field *b,
                           hudi_field *out, hudi_error *err) {
    *out = *a;
    out->n_children = a->n_children + b->n_children;
    out->children = hudi_arena_alloc(arena, sizeof(hudi_field) * (size_t)(out->n_children + 1));
    if (!out->children) return hudi_error_oom(err);
    for (int32_t i = 0; i < a->n_children; i++) out->children[i] = a->children[i];
    for (int32_t i = 0; i < b->n_children; i++) out->children[a->n_children + i] = b->children[i];
    return 0;
}

/* ---- the group table ---------------------------------------------------------------------- */

int hudi_sql_groups_init(hudi_sql_groups *g, const hudi_field *const *fields, int32_t n_keys,
                         hudi_error *err) {
    memset(g, 0, sizeof(*g));
    if (n_keys > 0 && !(g->keys = hudi_calloc((size_t)n_keys, sizeof(*g->keys))))
        return hudi_error_oom(err);
    int rc;
    for (int32_t k = 0; k < n_keys; k++) {
        if ((rc = hudi_array_new(&g->keys[k], fields[k], err)) < 0) {
            g->n_keys = k;
            hudi_sql_groups_dispose(NULL, g);
            return rc;
        }
    }
    g->n_keys = n_keys;
    g->cap_slots = 64;
    if (!(g->slots = hudi_calloc((size_t)g->cap_slots, sizeof(*g->slots)))) {
        hudi_sql_groups_dispose(NULL, g);
        return hudi_error_oom(err);
    }
    return 0;
}

void hudi_sql_groups_dispose(hudi_sql_ctx *ctx, hudi_sql_groups *g) {
    for (int32_t k = 0; k < g->n_keys; k++) hudi_array_free(g->keys[k]);
    hudi_free(g->keys);
    hudi_free(g->hashes);
    hudi_free(g->slots);
    hudi_free(g->row_hashes);
    hudi_free(g->pending);
    hudi_free(g->same);
    if (ctx && g->charged) hudi_sql_mem_charge(ctx, -g->charged, NULL);
    memset(g, 0, sizeof(*g));
}

/* Groups [base, n_groups) were created by the batch being added: their keys are still rows
 * pending[gid - base] of that batch, appended to the key arrays once the batch is done. */
typedef struct batch_keys {
    const hudi_sql_datum *keys;
    int64_t base;
    const int64_t *pending;
} batch_keys;

static inline bool keys_equal(const hudi_sql_groups *g, int64_t gid, const batch_keys *bk,
                              int64_t i) {
    const hudi_sql_datum *keys = bk->keys;
    if (gid >= bk->base) {
        int64_t j = bk->pending[gid - bk->base];
        for (int32_t k = 0; k < g->n_keys; k++)
            if (!key_equal(keys[k].array, hudi_sql_datum_row(&keys[k], j), keys[k].array,
                           hudi_sql_datum_row(&keys[k], i)))
                return false;
        return true;
    }
    for (int32_t k = 0; k < g->n_keys; k++)
        if (!key_equal(g->keys[k], gid, keys[k].array, hudi_sql_datum_row(&keys[k], i)))
            return false;
    return true;
}

static int hash_batch(hudi_sql_groups *g, const hudi_sql_datum *keys, int64_t nrows,
                      hudi_error *err) {
    if (nrows > g->cap_rows) {
        uint64_t *h = hudi_malloc((size_t)nrows * sizeof(*h));
        int64_t *pend = hudi_malloc((size_t)nrows * sizeof(*pend));
        uint8_t *same = hudi_malloc((size_t)nrows);
        if (!h || !pend || !same) {
            hudi_free(h);
            hudi_free(pend);
            hudi_free(same);
            return hudi_error_oom(err);
        }
        hudi_free(g->row_hashes);
        hudi_free(g->pending);
        hudi_free(g->same);
        g->row_hashes = h;
        g->pending = pend;
        g->same = same;
        g->cap_rows = nrows;
    }
    hash_rows(keys, g->n_keys, nrows, g->row_hashes, g->same);
    return 0;
}

static inline __attribute__((always_inline)) int64_t
probe(const hudi_sql_groups *g, uint64_t h, const batch_keys *bk, int64_t i, int64_t *slot) {
    int64_t mask = g->cap_slots - 1, pos = (int64_t)(h & (uint64_t)mask);
    for (;; pos = (pos + 1) & mask) {
        uint64_t s = g->slots[pos];
        if (s == 0) break;
        /* The tag (the hash's high 32 bits) spares a key comparison for almost every other
         * group; the group's full hash is not read (another cache miss per row). */
        int64_t gid = (int64_t)(s & 0xffffffffu) - 1;
        if ((s >> 32) == (h >> 32) && keys_equal(g, gid, bk, i)) return gid;
    }
    *slot = pos;
    return -1;
}

/* The table is at most 1/8 full while it has at most 8192 slots (64 KiB, in cache), else at
 * most half: with few groups (a join's small build side, a GROUP BY of a thousand keys) a
 * probe for a key that is not there then almost always meets an empty slot first, so the
 * probe loop's branches are predictable; linear probing at 1/2 load inspects 2.5 slots per
 * miss on average. */
static inline int64_t max_load_inverse(const hudi_sql_groups *g) {
    return g->cap_slots <= 8192 ? 8 : 2;
}

/* A slot: the hash's high 32 bits, then the group id + 1 (0 = empty). */
static inline uint64_t slot_value(uint64_t h, int64_t gid) {
    return (h & 0xffffffff00000000ULL) | (uint64_t)(gid + 1);
}

static int rehash(hudi_sql_ctx *ctx, hudi_sql_groups *g, hudi_error *err) {
    int64_t cap = g->cap_slots * 2, more = (cap - g->cap_slots) * 8;
    int rc = hudi_sql_mem_charge(ctx, more, err);
    if (rc < 0) return rc;
    uint64_t *slots = hudi_calloc((size_t)cap, sizeof(*slots));
    if (!slots) {
        hudi_sql_mem_charge(ctx, -more, NULL);
        return hudi_error_oom(err);
    }
    g->charged += more;
    int64_t mask = cap - 1;
    for (int64_t gid = 0; gid < g->n_groups; gid++) {
        int64_t pos = (int64_t)(g->hashes[gid] & (uint64_t)mask);
        while (slots[pos]) pos = (pos + 1) & mask;
        slots[pos] = slot_value(g->hashes[gid], gid);
    }
    hudi_free(g->slots);
    g->slots = slots;
    g->cap_slots = cap;
    return 0;
}

static int grow_hashes(hudi_sql_ctx *ctx, hudi_sql_groups *g, hudi_error *err) {
    int64_t cap = g->cap_groups ? g->cap_groups * 2 : 64, more = (cap - g->cap_groups) * 8;
    int rc = hudi_sql_mem_charge(ctx, more, err);
    if (rc < 0) return rc;
    uint64_t *hs = hudi_realloc(g->hashes, (size_t)cap * sizeof(*hs));
    if (!hs) {
        hudi_sql_mem_charge(ctx, -more, NULL);
        return hudi_error_oom(err);
    }
    g->charged += more;
    g->hashes = hs;
    g->cap_groups = cap;
    return 0;
}

/* Appends the keys of the groups the batch created (rows pending[0..n)) to the key arrays. */
static int append_pending(hudi_sql_groups *g, const hudi_sql_datum *keys, int64_t n,
                          hudi_error *err) {
    int rc = 0;
    int64_t *zeros = NULL;
    for (int32_t k = 0; k < g->n_keys && rc == 0; k++) {
        const int64_t *rows = g->pending;
        if (keys[k].is_const) {
            if (!zeros && !(zeros = hudi_calloc((size_t)n + 1, sizeof(*zeros)))) {
                rc = hudi_error_oom(err);
                break;
            }
            rows = zeros;
        }
        rc = hudi_sql_array_take(g->keys[k], keys[k].array, rows, n, err);
    }
    hudi_free(zeros);
    return rc;
}

int hudi_sql_groups_add(hudi_sql_ctx *ctx, hudi_sql_groups *g, const hudi_sql_datum *keys,
                        int64_t nrows, const uint8_t *skip, int64_t *ids, uint8_t *is_new,
                        hudi_error *err) {
    int rc;
    /* Keys that are all constants (literals, or columns known to hold one value) make one
     * group of the whole batch: row 0 is looked up, the others copy its id. */
    bool one = g->n_keys > 0 && !skip && nrows > 0;
    for (int32_t k = 0; one && k < g->n_keys; k++) one = keys[k].is_const;
    int64_t looked = one ? 1 : nrows;
    if ((rc = hash_batch(g, keys, looked, err)) < 0) return rc;
    int64_t key_bytes = 0;
    for (int32_t k = 0; k < g->n_keys; k++) key_bytes += hudi_sql_array_bytes(g->keys[k]);
    batch_keys bk = {keys, g->n_groups, g->pending};
    for (int64_t i = 0; i < looked; i++) {
        /* Large tables miss the cache on every probe: ask for a later row's slot early. */
        if (i + 16 < looked)
            __builtin_prefetch(&g->slots[g->row_hashes[i + 16] & (uint64_t)(g->cap_slots - 1)]);
        if (is_new) is_new[i] = 0;
        if (skip && skip[i]) {
            ids[i] = -1;
            continue;
        }
        if (g->same[i] && !(skip && skip[i - 1])) {
            ids[i] = ids[i - 1]; /* the keys of the row before: its group, not a new one */
            continue;
        }
        uint64_t h = g->row_hashes[i];
        int64_t slot = 0, gid = probe(g, h, &bk, i, &slot);
        if (gid >= 0) {
            ids[i] = gid;
            continue;
        }
        if ((g->n_groups + 1) * max_load_inverse(g) > g->cap_slots) {
            if ((rc = rehash(ctx, g, err)) < 0) break;
            (void)probe(g, h, &bk, i, &slot);
        }
        if (g->n_groups == g->cap_groups && (rc = grow_hashes(ctx, g, err)) < 0) break;
        if (g->n_groups >= 0xfffffffeLL) {
            rc = hudi_error_set(err, HUDI_ENOMEM, "more than 2^32 groups");
            break;
        }
        gid = g->n_groups++;
        g->pending[gid - bk.base] = i;
        g->hashes[gid] = h;
        g->slots[slot] = slot_value(h, gid);
        ids[i] = gid;
        if (is_new) is_new[i] = 1;
    }
    if (rc == 0 && one) {
        for (int64_t i = 1; i < nrows; i++) ids[i] = ids[0];
        if (is_new) memset(is_new + 1, 0, (size_t)nrows - 1);
    }
    /* The new groups' keys, in one gather per key column (even after a failure, so the table
     * stays consistent for dispose). */
    int arc = append_pending(g, keys, g->n_groups - bk.base, err);
    if (rc == 0) rc = arc;
    if (arc < 0) g->n_groups = bk.base; /* the table is only good for dispose now */
    int64_t grown = -key_bytes;
    for (int32_t k = 0; k < g->n_keys; k++) grown += hudi_sql_array_bytes(g->keys[k]);
    if (grown > 0) {
        g->charged += grown;
        ctx->memory_used += grown;
        if (rc == 0 && ctx->memory_limit > 0 && ctx->memory_used > ctx->memory_limit)
            rc = hudi_error_set(err, HUDI_ENOMEM,
                                "query needs more than hudic.memory.limit (%lld bytes)",
                                (long long)ctx->memory_limit);
    }
    return rc;
}

int hudi_sql_groups_find(hudi_sql_groups *g, const hudi_sql_datum *keys, int64_t nrows,
                         const uint8_t *skip, int64_t *ids, hudi_error *err) {
    int rc;
    if ((rc = hash_batch(g, keys, nrows, err)) < 0) return rc;
    batch_keys bk = {keys, g->n_groups, g->pending};
    for (int64_t i = 0; i < nrows; i++) {
        int64_t slot;
        if (i + 16 < nrows)
            __builtin_prefetch(&g->slots[g->row_hashes[i + 16] & (uint64_t)(g->cap_slots - 1)]);
        if (skip && skip[i])
            ids[i] = -1;
        else if (g->same[i] && !(skip && skip[i - 1]))
            ids[i] = ids[i - 1];
        else
            ids[i] = probe(g, g->row_hashes[i], &bk, i, &slot);
    }
    return 0;
}
