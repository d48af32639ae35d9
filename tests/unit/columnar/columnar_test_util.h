/* columnar_test_util.h - shared helpers for the columnar tests: a counting allocator that
 * can fail the Nth allocation, and small field/array builders. Criterion runs each test in
 * its own process, so the process-wide allocator hook is per test. */
#ifndef HUDI_COLUMNAR_TEST_UTIL_H
#define HUDI_COLUMNAR_TEST_UTIL_H

#include <stdlib.h>

#include "columnar/columnar.h"

typedef struct test_alloc_state {
    long live;     /* allocations not yet freed */
    long count;    /* allocations attempted since arming */
    long fail_at;  /* attempt index that fails, -1 = never */
    long failures; /* failures injected */
} test_alloc_state;

static test_alloc_state g_talloc = {0, 0, -1, 0};

static inline bool talloc_should_fail(void) {
    long n = g_talloc.count++;
    if (g_talloc.fail_at >= 0 && n >= g_talloc.fail_at && g_talloc.failures == 0) {
        g_talloc.failures++;
        return true;
    }
    return false;
}

static void *talloc_malloc(size_t size, void *payload) {
    (void)payload;
    if (talloc_should_fail()) return NULL;
    void *p = malloc(size);
    if (p) g_talloc.live++;
    return p;
}

static void *talloc_realloc(void *ptr, size_t size, void *payload) {
    (void)payload;
    if (talloc_should_fail()) return NULL;
    void *p = realloc(ptr, size);
    if (p && !ptr) g_talloc.live++;
    return p;
}

static void talloc_free(void *ptr, void *payload) {
    (void)payload;
    if (ptr) g_talloc.live--;
    free(ptr);
}

/* Installs the counting allocator; fail_at < 0 never fails. */
static inline void talloc_install(long fail_at) {
    static const hudi_allocator a = {talloc_malloc, talloc_realloc, talloc_free, NULL};
    g_talloc.count = 0;
    g_talloc.failures = 0;
    g_talloc.fail_at = fail_at;
    hudi_set_allocator(&a);
}

static inline void talloc_disarm(void) { g_talloc.fail_at = -1; }

/* A nullable leaf field. */
static inline void field_leaf(hudi_field *f, const char *name, hudi_type_id t) {
    if (hudi_field_init(f, name, t, true) < 0) abort();
}

/* Builds: struct<id: int64, name: string, tags: list<string>, attrs: map<string, int32>,
 *                pt: struct<x: double, y: double>> */
static inline void field_sample_schema(hudi_field *s) {
    if (hudi_field_init(s, "root", HUDI_TYPE_STRUCT, false) < 0 ||
        hudi_field_set_children(s, 5) < 0)
        abort();
    hudi_field *c = s->children;
    if (hudi_field_init(&c[0], "id", HUDI_TYPE_INT64, false) < 0) abort();
    field_leaf(&c[1], "name", HUDI_TYPE_STRING);
    field_leaf(&c[2], "tags", HUDI_TYPE_LIST);
    if (hudi_field_set_children(&c[2], 1) < 0) abort();
    field_leaf(&c[2].children[0], "element", HUDI_TYPE_STRING);
    field_leaf(&c[3], "attrs", HUDI_TYPE_MAP);
    if (hudi_field_set_children(&c[3], 1) < 0) abort();
    hudi_field *e = &c[3].children[0];
    if (hudi_field_init(e, "key_value", HUDI_TYPE_STRUCT, false) < 0 ||
        hudi_field_set_children(e, 2) < 0 ||
        hudi_field_init(&e->children[0], "key", HUDI_TYPE_STRING, false) < 0)
        abort();
    field_leaf(&e->children[1], "value", HUDI_TYPE_INT32);
    field_leaf(&c[4], "pt", HUDI_TYPE_STRUCT);
    if (hudi_field_set_children(&c[4], 2) < 0) abort();
    field_leaf(&c[4].children[0], "x", HUDI_TYPE_DOUBLE);
    field_leaf(&c[4].children[1], "y", HUDI_TYPE_DOUBLE);
}

static inline int append_str(hudi_array *a, const char *s) {
    return hudi_array_append_bytes(a, s, strlen(s), NULL);
}

/* Appends one row to a batch of field_sample_schema(); tags/attrs may be NULL (null row).
 * Returns 0 or the first error. */
static inline int sample_append(hudi_batch *b, int64_t id, const char *name, const char **tags,
                                int n_tags, const char **keys, const int32_t *vals, int n_attrs,
                                const double *pt, hudi_error *err) {
    int rc;
    hudi_array **c = b->columns;
    if ((rc = hudi_array_append_fixed(c[0], &id, err)) < 0) return rc;
    rc = name ? hudi_array_append_bytes(c[1], name, strlen(name), err)
              : hudi_array_append_null(c[1], err);
    if (rc < 0) return rc;
    if (tags) {
        for (int i = 0; i < n_tags; i++)
            if ((rc = hudi_array_append_bytes(c[2]->children[0], tags[i], strlen(tags[i]), err)) <
                0)
                return rc;
        if ((rc = hudi_array_append_nested(c[2], n_tags, err)) < 0) return rc;
    } else if ((rc = hudi_array_append_null(c[2], err)) < 0) {
        return rc;
    }
    if (keys) {
        hudi_array *kv = c[3]->children[0];
        for (int i = 0; i < n_attrs; i++) {
            if ((rc = hudi_array_append_bytes(kv->children[0], keys[i], strlen(keys[i]), err)) < 0)
                return rc;
            if ((rc = hudi_array_append_fixed(kv->children[1], &vals[i], err)) < 0) return rc;
            if ((rc = hudi_array_append_nested(kv, 0, err)) < 0) return rc;
        }
        if ((rc = hudi_array_append_nested(c[3], n_attrs, err)) < 0) return rc;
    } else if ((rc = hudi_array_append_null(c[3], err)) < 0) {
        return rc;
    }
    if (pt) {
        if ((rc = hudi_array_append_fixed(c[4]->children[0], &pt[0], err)) < 0) return rc;
        if ((rc = hudi_array_append_fixed(c[4]->children[1], &pt[1], err)) < 0) return rc;
        if ((rc = hudi_array_append_nested(c[4], 0, err)) < 0) return rc;
    } else if ((rc = hudi_array_append_null(c[4], err)) < 0) {
        return rc;
    }
    b->num_rows++;
    return 0;
}

/* Three rows of the sample schema:
 *   {id 1, "a", ["x","y"], {"k1":1}, (1.5, 2.5)}
 *   {id 2, null, null, {}, null}
 *   {id 3, "ccc", [], null, (0, -1)} */
static inline int sample_fill(hudi_batch *b, hudi_error *err) {
    const char *t1[] = {"x", "y"};
    const char *k1[] = {"k1"};
    const int32_t v1[] = {1};
    const double p1[] = {1.5, 2.5}, p3[] = {0, -1};
    int rc;
    if ((rc = sample_append(b, 1, "a", t1, 2, k1, v1, 1, p1, err)) < 0) return rc;
    if ((rc = sample_append(b, 2, NULL, NULL, 0, k1, v1, 0, NULL, err)) < 0) return rc;
    return sample_append(b, 3, "ccc", t1, 0, NULL, NULL, 0, p3, err);
}

#endif
