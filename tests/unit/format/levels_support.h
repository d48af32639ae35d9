/* levels_support.h - helpers shared by schema_test.c, assemble_test.c and shred_test.c:
 * schema element builders, field comparison, random nested arrays, and a reference
 * "decode" that gathers dense leaf values from shredded value runs. All static inline so a test
 * file that uses only some of them compiles without unused-function warnings. */
#ifndef HUDI_TEST_LEVELS_SUPPORT_H
#define HUDI_TEST_LEVELS_SUPPORT_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "format/parquet/schema.h"

/* ---- schema elements ---- */

static inline pq_schema_element el_group(const char *name, int rep, int n_children) {
    pq_schema_element e = {0};
    e.name = hudi_slice_cstr(name);
    e.has_repetition = rep >= 0;
    e.repetition = rep;
    e.num_children = n_children;
    return e;
}

static inline pq_schema_element el_leaf(const char *name, int rep, int type) {
    pq_schema_element e = el_group(name, rep, 0);
    e.has_type = true;
    e.type = type;
    return e;
}

static inline pq_schema_element el_ct(pq_schema_element e, int ct) {
    e.has_converted_type = true;
    e.converted_type = ct;
    return e;
}

static inline pq_schema_element el_lt(pq_schema_element e, int kind) {
    e.has_logical_type = true;
    e.logical_type.kind = kind;
    return e;
}

static inline pq_schema_element el_len(pq_schema_element e, int len) {
    e.has_type_length = true;
    e.type_length = len;
    return e;
}

#define READ_SCHEMA(s, arr)                                                                        \
    do {                                                                                           \
        hudi_error e_ = HUDI_ERROR_INIT;                                                           \
        int rc_ = hudi_pq_schema_read(&(s), (arr), (int32_t)HUDI_ARRAY_LEN(arr), NULL, &e_);       \
        cr_assert_eq(rc_, 0, "hudi_pq_schema_read: %s", e_.message);                               \
    } while (0)

/* ---- field comparison (every attribute, names included) ---- */

static inline bool field_same(const hudi_field *a, const hudi_field *b, hudi_buf *why) {
    if (strcmp(a->name ? a->name : "", b->name ? b->name : "") != 0 || a->type != b->type ||
        a->nullable != b->nullable || a->unit != b->unit || a->utc != b->utc ||
        a->hint != b->hint || a->precision != b->precision || a->scale != b->scale ||
        a->byte_width != b->byte_width || a->field_id != b->field_id ||
        a->n_children != b->n_children) {
        hudi_buf_printf(why,
                        "%s(%s nullable=%d unit=%d utc=%d hint=%d p=%d s=%d w=%d id=%d n=%d) != "
                        "%s(%s nullable=%d unit=%d utc=%d hint=%d p=%d s=%d w=%d id=%d n=%d)",
                        a->name, hudi_type_name(a->type), a->nullable, a->unit, a->utc, a->hint,
                        a->precision, a->scale, a->byte_width, a->field_id, a->n_children, b->name,
                        hudi_type_name(b->type), b->nullable, b->unit, b->utc, b->hint,
                        b->precision, b->scale, b->byte_width, b->field_id, b->n_children);
        return false;
    }
    for (int32_t i = 0; i < a->n_children; i++)
        if (!field_same(&a->children[i], &b->children[i], why)) return false;
    return true;
}

static inline void add_child(hudi_field *parent, int32_t i, const char *name, hudi_type_id t,
                             bool nullable) {
    cr_assert_eq(hudi_field_init(&parent->children[i], name, t, nullable), 0);
}

/* ---- random arrays ---- */

static inline uint32_t rng_next(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

/* Appends one random row to `a` (nulls at every nullable level, empty lists). */
static inline void gen_row(hudi_array *a, uint64_t *rng, int depth) {
    const hudi_field *f = a->field;
    if (f->type == HUDI_TYPE_NULL || (f->nullable && rng_next(rng) % 5 == 0)) {
        cr_assert_eq(hudi_array_append_null(a, NULL), 0);
        return;
    }
    switch (f->type) {
    case HUDI_TYPE_STRUCT:
        for (int32_t k = 0; k < a->n_children; k++) gen_row(a->children[k], rng, depth + 1);
        cr_assert_eq(hudi_array_append_nested(a, 0, NULL), 0);
        break;
    case HUDI_TYPE_LIST:
    case HUDI_TYPE_MAP: {
        int n = depth > 6 ? 0 : (int)(rng_next(rng) % 4);
        for (int k = 0; k < n; k++) gen_row(a->children[0], rng, depth + 1);
        cr_assert_eq(hudi_array_append_nested(a, n, NULL), 0);
        break;
    }
    case HUDI_TYPE_BOOL: cr_assert_eq(hudi_array_append_bool(a, rng_next(rng) & 1, NULL), 0); break;
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY: {
        char buf[8];
        size_t n = rng_next(rng) % 6;
        for (size_t k = 0; k < n; k++) buf[k] = (char)('a' + rng_next(rng) % 26);
        cr_assert_eq(hudi_array_append_bytes(a, buf, n, NULL), 0);
        break;
    }
    default: {
        uint8_t v[16];
        for (int k = 0; k < 16; k++) v[k] = (uint8_t)rng_next(rng);
        cr_assert_eq(hudi_array_append_fixed(a, v, NULL), 0);
        break;
    }
    }
}

/* Copies the value of src row i densely to dst at slot dst->length + k (not changing length):
 * the layout hudi_pq_assemble_leaf expects from a value decoder. */
static inline void put_dense(hudi_array *dst, int64_t k, const hudi_array *src, int64_t i) {
    const hudi_field *f = dst->field;
    int64_t at = dst->length + k;
    if (f->type == HUDI_TYPE_BOOL) {
        if (hudi_bit_get(src->values, i))
            hudi_bit_set(dst->values, at);
        else
            hudi_bit_clear(dst->values, at);
    } else if (f->type == HUDI_TYPE_STRING || f->type == HUDI_TYPE_BINARY) {
        int32_t len = src->offsets[i + 1] - src->offsets[i];
        cr_assert_eq(hudi_array_grow_data(dst, len, NULL), 0);
        if (len) memcpy(dst->data + dst->data_len, src->data + src->offsets[i], (size_t)len);
        dst->data_len += len;
        dst->offsets[at + 1] = (int32_t)dst->data_len;
    } else if (f->type != HUDI_TYPE_NULL) {
        size_t w = (size_t)hudi_type_width(f);
        memcpy((uint8_t *)dst->values + (size_t)at * w,
               (const uint8_t *)src->values + (size_t)i * w, w);
    }
}

#endif
