/* array_ops.c - bitmap utilities and bulk array operations: spreading dense values over a
 * validity bitmap, copying row ranges between arrays, and structural validation.
 *
 * Invariant: bulk operations keep the array invariants of array.c (every row's validity bit
 * written when a bitmap exists; offsets monotone from 0; struct children as long as the
 * struct), and a failed append_range leaves dst as it was. */
#include "columnar/columnar.h"

static const char *col_name(const hudi_array *a) { return a->field->name ? a->field->name : ""; }

static bool uses_offsets(hudi_type_id t) {
    return t == HUDI_TYPE_STRING || t == HUDI_TYPE_BINARY || t == HUDI_TYPE_LIST ||
           t == HUDI_TYPE_MAP;
}

/* ---- bitmaps -------------------------------------------------------------------------- */

int64_t hudi_bitmap_count(const uint8_t *bits, int64_t offset, int64_t n) {
    int64_t c = 0, i = offset, end = offset + n;
    while (i < end && (i & 7)) c += hudi_bit_get(bits, i++);
    const uint8_t *p = bits + (i >> 3);
    int64_t nbytes = (end - i) >> 3, k = 0;
    for (; k + 8 <= nbytes; k += 8) c += __builtin_popcountll(hudi_load_u64le(p + k));
    for (; k < nbytes; k++) c += __builtin_popcount(p[k]);
    i += nbytes * 8;
    while (i < end) c += hudi_bit_get(bits, i++);
    return c;
}

void hudi_bitmap_set_range(uint8_t *bits, int64_t offset, int64_t n, bool v) {
    int64_t i = offset, end = offset + n;
    for (; i < end && (i & 7); i++) v ? hudi_bit_set(bits, i) : hudi_bit_clear(bits, i);
    int64_t nbytes = (end - i) >> 3;
    if (nbytes > 0) memset(bits + (i >> 3), v ? 0xff : 0, (size_t)nbytes);
    for (i += nbytes * 8; i < end; i++) v ? hudi_bit_set(bits, i) : hudi_bit_clear(bits, i);
}

static inline void copy_bit(uint8_t *dst, int64_t d, const uint8_t *src, int64_t s) {
    if (hudi_bit_get(src, s))
        hudi_bit_set(dst, d);
    else
        hudi_bit_clear(dst, d);
}

/* Bit-by-bit until dst is byte aligned, then one whole dst byte per step assembled from at most
 * two src bytes (the second only when the src bits straddle a byte, so no read goes past the
 * last byte that holds a copied bit), then the tail. */
void hudi_bitmap_copy(uint8_t *dst, int64_t dst_off, const uint8_t *src, int64_t src_off,
                      int64_t n) {
    while (n > 0 && (dst_off & 7)) {
        copy_bit(dst, dst_off++, src, src_off++);
        n--;
    }
    uint8_t *d = dst + (dst_off >> 3);
    int shift = (int)(src_off & 7);
    const uint8_t *sp = src + (src_off >> 3);
    int64_t nbytes = n >> 3;
    if (shift == 0) {
        memcpy(d, sp, (size_t)nbytes);
    } else {
        for (int64_t k = 0; k < nbytes; k++)
            d[k] = (uint8_t)((sp[k] >> shift) | (sp[k + 1] << (8 - shift)));
    }
    dst_off += nbytes * 8;
    src_off += nbytes * 8;
    for (int64_t i = nbytes * 8; i < n; i++) copy_bit(dst, dst_off++, src, src_off++);
}

/* ---- spreading dense values ------------------------------------------------------------ */

/* Each loop walks backwards: row i takes dense value k - 1 where k counts valid rows in
 * [0, i]; k <= i + 1, so a value is read before its slot can be overwritten. Once k == i + 1
 * every remaining row is valid and already in place. */
int hudi_array_spread(hudi_array *a, int64_t start, int64_t n, int64_t n_dense, hudi_error *err) {
    const uint8_t *vb = a->validity;
    a->uniform = false;
    if (vb ? hudi_bitmap_count(vb, start, n) != n_dense : n_dense != n)
        return hudi_error_set(err, HUDI_EINVAL, "column %s: %lld dense values for %lld valid rows",
                              col_name(a), (long long)n_dense,
                              (long long)(vb ? hudi_bitmap_count(vb, start, n) : n));
    if (n_dense == n) return 0;
    hudi_type_id t = a->field->type;
    int64_t k = n_dense;
    if (t == HUDI_TYPE_BOOL) {
        uint8_t *bits = a->values;
        for (int64_t i = n - 1; i >= 0 && k != i + 1; i--) {
            bool v = false;
            if (hudi_bit_get(vb, start + i)) v = hudi_bit_get(bits, start + --k);
            v ? hudi_bit_set(bits, start + i) : hudi_bit_clear(bits, start + i);
        }
    } else if (hudi_type_is_fixed(t)) {
        size_t w = (size_t)hudi_type_width(a->field);
        uint8_t *base = (uint8_t *)a->values + (size_t)start * w;
        for (int64_t i = n - 1; i >= 0 && k != i + 1; i--) {
            if (hudi_bit_get(vb, start + i))
                memcpy(base + (size_t)i * w, base + (size_t)--k * w, w);
            else
                memset(base + (size_t)i * w, 0, w);
        }
    } else if (uses_offsets(t)) {
        int32_t *o = a->offsets + start;
        for (int64_t i = n - 1; i >= 0 && k != i + 1; i--) {
            o[i + 1] = o[k];
            if (hudi_bit_get(vb, start + i)) k--;
        }
    } else {
        return hudi_error_set(err, HUDI_EINVAL, "column %s: cannot spread %s values", col_name(a),
                              hudi_type_name(t));
    }
    return 0;
}

/* ---- copying row ranges ------------------------------------------------------------------ */

static int check_same_shape(const hudi_array *dst, const hudi_array *src, hudi_error *err) {
    const hudi_field *a = dst->field, *b = src->field;
    if (a->type != b->type || hudi_type_width(a) != hudi_type_width(b) ||
        dst->n_children != src->n_children)
        return hudi_error_set(err, HUDI_EINVAL, "column %s: cannot append %s rows to %s",
                              col_name(dst), hudi_type_name(b->type), hudi_type_name(a->type));
    return 0;
}

/* Appends without restoring dst on failure; dst->length changes only on success, so the
 * caller's truncate to the old length undoes partial child appends. */
static int append_range(hudi_array *dst, const hudi_array *src, int64_t off, int64_t n,
                        hudi_error *err) {
    int rc;
    if ((rc = check_same_shape(dst, src, err)) < 0 || n == 0) return rc;
    if ((rc = hudi_array_grow(dst, n, err)) < 0) return rc;
    const hudi_field *f = dst->field;
    int64_t at = dst->length;
    int64_t nulls = f->type == HUDI_TYPE_NULL ? n
                    : src->validity           ? n - hudi_bitmap_count(src->validity, off, n)
                                              : 0;
    if ((nulls > 0 || f->type == HUDI_TYPE_NULL) && (rc = hudi_array_ensure_validity(dst, err)) < 0)
        return rc;
    switch (f->type) {
    case HUDI_TYPE_NULL: break;
    case HUDI_TYPE_BOOL: hudi_bitmap_copy(dst->values, at, src->values, off, n); break;
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY: {
        int32_t base = src->offsets[off];
        int64_t bytes = src->offsets[off + n] - base;
        if ((rc = hudi_array_grow_data(dst, bytes, err)) < 0) return rc;
        if (bytes) memcpy(dst->data + dst->data_len, src->data + base, (size_t)bytes);
        int32_t shift = (int32_t)dst->data_len - base;
        for (int64_t i = 1; i <= n; i++) dst->offsets[at + i] = src->offsets[off + i] + shift;
        dst->data_len += bytes;
        break;
    }
    case HUDI_TYPE_LIST:
    case HUDI_TYPE_MAP: {
        int32_t base = src->offsets[off];
        int64_t elems = src->offsets[off + n] - base;
        hudi_array *child = dst->children[0];
        if (child->length + elems > INT32_MAX)
            return hudi_error_set(err, HUDI_ENOMEM, "column %s: more than 2^31 elements",
                                  col_name(dst));
        if ((rc = append_range(child, src->children[0], base, elems, err)) < 0) return rc;
        int32_t shift = (int32_t)(child->length - elems) - base;
        for (int64_t i = 1; i <= n; i++) dst->offsets[at + i] = src->offsets[off + i] + shift;
        break;
    }
    case HUDI_TYPE_STRUCT:
        for (int32_t c = 0; c < dst->n_children; c++)
            if ((rc = append_range(dst->children[c], src->children[c], off, n, err)) < 0) return rc;
        break;
    default: {
        size_t w = (size_t)hudi_type_width(f);
        memcpy((uint8_t *)dst->values + (size_t)at * w,
               (const uint8_t *)src->values + (size_t)off * w, (size_t)n * w);
        break;
    }
    }
    if (dst->validity) {
        if (src->validity)
            hudi_bitmap_copy(dst->validity, at, src->validity, off, n);
        else
            hudi_bitmap_set_range(dst->validity, at, n, f->type != HUDI_TYPE_NULL);
    }
    dst->null_count += nulls;
    dst->length += n;
    return 0;
}

int hudi_array_append_range(hudi_array *dst, const hudi_array *src, int64_t offset, int64_t n,
                            hudi_error *err) {
    if (offset < 0 || n < 0 || offset > src->length || n > src->length - offset)
        return hudi_error_set(err, HUDI_EINVAL, "column %s: rows [%lld, +%lld) outside 0..%lld",
                              col_name(src), (long long)offset, (long long)n,
                              (long long)src->length);
    if (n == 0) return check_same_shape(dst, src, err);
    int64_t saved = dst->length;
    int rc = append_range(dst, src, offset, n, err);
    if (rc < 0) hudi_array_truncate(dst, saved);
    return rc;
}

int hudi_array_slice(hudi_array **out, const hudi_array *src, int64_t offset, int64_t n,
                     hudi_error *err) {
    hudi_array *a = NULL;
    int rc;
    *out = NULL;
    if ((rc = hudi_array_new(&a, src->field, err)) < 0) return rc;
    if ((rc = hudi_array_reserve(a, n, err)) < 0 ||
        (rc = hudi_array_append_range(a, src, offset, n, err)) < 0) {
        hudi_array_free(a);
        return rc;
    }
    *out = a;
    return 0;
}

/* ---- validation ---------------------------------------------------------------------------- */

static int invalid(const hudi_array *a, const char *what, long long v1, long long v2,
                   hudi_error *err) {
    return hudi_error_set(err, HUDI_EINVAL, "column %s: %s (%lld vs %lld)", col_name(a), what, v1,
                          v2);
}

int hudi_array_validate(const hudi_array *a, hudi_error *err) {
    const hudi_field *f = a->field;
    if (a->length < 0 || a->length > a->capacity)
        return invalid(a, "length exceeds capacity", a->length, a->capacity, err);
    int64_t nulls = f->type == HUDI_TYPE_NULL ? a->length
                    : a->validity ? a->length - hudi_bitmap_count(a->validity, 0, a->length)
                                  : 0;
    if (nulls != a->null_count)
        return invalid(a, "null_count does not match the bitmap", a->null_count, nulls, err);
    int expect_children = f->type == HUDI_TYPE_STRUCT                               ? f->n_children
                          : (f->type == HUDI_TYPE_LIST || f->type == HUDI_TYPE_MAP) ? 1
                                                                                    : 0;
    if (a->n_children != expect_children)
        return invalid(a, "wrong number of children", a->n_children, expect_children, err);
    if (uses_offsets(f->type) && a->length > 0) {
        if (a->offsets[0] != 0) return invalid(a, "first offset is not 0", a->offsets[0], 0, err);
        for (int64_t i = 0; i < a->length; i++)
            if (a->offsets[i + 1] < a->offsets[i])
                return invalid(a, "offsets decrease at row", i, a->offsets[i + 1], err);
        int64_t end = a->offsets[a->length];
        int64_t limit = a->n_children ? a->children[0]->length : a->data_len;
        if (end > limit) return invalid(a, "offsets run past the values", end, limit, err);
    }
    int rc;
    for (int32_t c = 0; c < a->n_children; c++) {
        const hudi_array *ch = a->children[c];
        if (f->type == HUDI_TYPE_STRUCT && ch->length != a->length)
            return invalid(ch, "struct child length differs from the struct", ch->length, a->length,
                           err);
        if (f->type == HUDI_TYPE_MAP &&
            (ch->null_count != 0 || ch->n_children != 2 || ch->children[0]->null_count != 0))
            return invalid(a, "map entries or keys contain nulls", ch->null_count,
                           ch->n_children == 2 ? ch->children[0]->null_count : -1, err);
        if ((rc = hudi_array_validate(ch, err)) < 0) return rc;
    }
    return 0;
}

/* ---- widening (type promotion) ------------------------------------------------------------- */

static bool is_int_type(hudi_type_id t) {
    return t == HUDI_TYPE_INT8 || t == HUDI_TYPE_INT16 || t == HUDI_TYPE_INT32 ||
           t == HUDI_TYPE_INT64;
}

bool hudi_type_can_widen(const hudi_field *from, const hudi_field *to) {
    hudi_type_id a = from->type, b = to->type;
    if (a == b) return false;
    if (is_int_type(a) && is_int_type(b)) return hudi_type_width(from) < hudi_type_width(to);
    if (is_int_type(a) && (b == HUDI_TYPE_FLOAT || b == HUDI_TYPE_DOUBLE)) return true;
    return a == HUDI_TYPE_FLOAT && b == HUDI_TYPE_DOUBLE;
}

/* Reads value i of a signed integer or float array as a double / int64. */
static int64_t int_at(const hudi_array *a, int64_t i) {
    switch (a->field->type) {
    case HUDI_TYPE_INT8: return ((const int8_t *)a->values)[i];
    case HUDI_TYPE_INT16: return ((const int16_t *)a->values)[i];
    case HUDI_TYPE_INT32: return ((const int32_t *)a->values)[i];
    default: return ((const int64_t *)a->values)[i];
    }
}

int hudi_array_widen(hudi_array **out, const hudi_array *a, const hudi_field *to, hudi_error *err) {
    hudi_array *w = NULL;
    *out = NULL;
    if (!hudi_type_can_widen(a->field, to))
        return hudi_error_set(err, HUDI_EINVAL, "column %s: %s does not widen to %s",
                              to->name ? to->name : "", hudi_type_name(a->field->type),
                              hudi_type_name(to->type));
    int rc = hudi_array_new(&w, to, err);
    if (rc == 0) rc = hudi_array_reserve(w, a->length, err);
    if (rc == 0 && a->validity) rc = hudi_array_ensure_validity(w, err);
    if (rc < 0) {
        hudi_array_free(w);
        return rc;
    }
    int64_t n = a->length;
    if (a->validity) hudi_bitmap_copy(w->validity, 0, a->validity, 0, n);
    if (to->type == HUDI_TYPE_DOUBLE || to->type == HUDI_TYPE_FLOAT) {
        for (int64_t i = 0; i < n; i++) {
            double v = a->field->type == HUDI_TYPE_FLOAT ? ((const float *)a->values)[i]
                                                         : (double)int_at(a, i);
            if (to->type == HUDI_TYPE_DOUBLE)
                ((double *)w->values)[i] = v;
            else
                ((float *)w->values)[i] = (float)v;
        }
    } else {
        for (int64_t i = 0; i < n; i++) {
            int64_t v = int_at(a, i);
            switch (to->type) {
            case HUDI_TYPE_INT16: ((int16_t *)w->values)[i] = (int16_t)v; break;
            case HUDI_TYPE_INT32: ((int32_t *)w->values)[i] = (int32_t)v; break;
            default: ((int64_t *)w->values)[i] = v; break;
            }
        }
    }
    w->length = n;
    w->null_count = a->null_count;
    *out = w;
    return 0;
}
