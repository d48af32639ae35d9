/* key_probe.c - skipping base files by record key: footer min/max key range and Hudi bloom
 * filter (docs/formats/base-files.md §2, §4; keys.md for when a column's text is the key). */
#include <inttypes.h>
#include <stdio.h>

#include "read/key_probe.h"
#include "table/bloom.h"

#define META_RECORD_KEY "_hoodie_record_key"

/* Whether `name` is `want` with or without a package ("org.apache.hudi.keygen."). */
static bool class_is(const char *name, const char *want) {
    size_t n = strlen(name), w = strlen(want);
    return n >= w && strcmp(name + n - w, want) == 0 && (n == w || name[n - w - 1] == '.');
}

/* Whether the table's record keys are the rendered value of its one key field: the simple or
 * non-partitioned key generator (keys.md §2, §4), named or inferred (keys.md §7: no partition
 * field, or one without a kind). */
static bool key_is_field_value(const hudi_table_config *c) {
    const char *rk = c->record_key_fields, *pf = c->partition_fields;
    if (!rk || !*rk || strchr(rk, ',')) return false;
    if (c->keygen_class && *c->keygen_class)
        return class_is(c->keygen_class, "SimpleKeyGenerator") ||
               class_is(c->keygen_class, "SimpleAvroKeyGenerator") ||
               class_is(c->keygen_class, "NonpartitionedKeyGenerator") ||
               class_is(c->keygen_class, "NonpartitionedAvroKeyGenerator");
    if (c->keygen_type && *c->keygen_type)
        return strcmp(c->keygen_type, "SIMPLE") == 0 ||
               strcmp(c->keygen_type, "NON_PARTITION") == 0;
    return !pf || !*pf || (!strchr(pf, ',') && !strchr(pf, ':'));
}

int hudi_key_probe_init(hudi_key_probe *kp, const hudi_table_config *cfg, const hudi_field *full,
                        hudi_error *err) {
    kp->meta = cfg->populate_meta_fields;
    if (!kp->meta || !key_is_field_value(cfg)) return 0;
    const char *name = cfg->record_key_fields;
    for (int32_t i = 0; i < full->n_children; i++) {
        const hudi_field *f = &full->children[i];
        if (!f->name || strcmp(f->name, name) != 0) continue;
        switch (f->type) {
        case HUDI_TYPE_STRING:
        case HUDI_TYPE_INT8:
        case HUDI_TYPE_INT16:
        case HUDI_TYPE_INT32:
        case HUDI_TYPE_INT64: break;
        default: return 0; /* rendered otherwise (keys.md): not probed */
        }
        if (!(kp->key_field = hudi_strdup(name))) return hudi_error_oom(err);
        kp->key_type = f->type;
        return 0;
    }
    return 0;
}

static void free_keys(char **keys, size_t *lens, int32_t n) {
    for (int32_t i = 0; i < n; i++) hudi_free(keys[i]);
    hudi_free(keys);
    hudi_free(lens);
}

int hudi_key_probe_add(hudi_key_probe *kp, const char *column, const hudi_value *values, int32_t n,
                       hudi_error *err) {
    bool meta = kp->meta && strcmp(column, META_RECORD_KEY) == 0;
    bool field = !meta && kp->key_field && strcmp(column, kp->key_field) == 0;
    if ((!meta && !field) || n <= 0 || (kp->keys && kp->n_keys <= n)) return 0;
    hudi_type_id type = meta ? HUDI_TYPE_STRING : kp->key_type;
    char **keys = hudi_calloc((size_t)n, sizeof(char *));
    size_t *lens = hudi_calloc((size_t)n, sizeof(size_t));
    int32_t k = 0;
    if (!keys || !lens) goto oom;
    for (int32_t i = 0; i < n; i++) {
        const hudi_value *v = &values[i];
        char num[32];
        const char *text = num;
        size_t len;
        if (v->is_null) continue; /* `= NULL` matches no row: no key is wanted for it */
        if (type == HUDI_TYPE_STRING) {
            text = (const char *)v->bytes.data;
            len = v->bytes.len;
        } else {
            len = (size_t)snprintf(num, sizeof(num), "%" PRId64, v->i64);
        }
        if (len == 0) { /* empty keys are never written: leave such a query alone */
            free_keys(keys, lens, k);
            return 0;
        }
        if (!(keys[k] = hudi_strndup(text, len))) goto oom;
        lens[k++] = len;
    }
    free_keys(kp->keys, kp->lens, kp->n_keys);
    kp->keys = keys;
    kp->lens = lens;
    kp->n_keys = k;
    return 0;
oom:
    free_keys(keys, lens, k);
    return hudi_error_oom(err);
}

/* Byte-order comparison of a key with a footer value (base-files.md §2: byte order). */
static int cmp_key(const char *key, size_t len, hudi_slice v) {
    size_t n = HUDI_MIN(len, v.len);
    int c = n ? memcmp(key, v.data, n) : 0;
    if (c) return c;
    return (len > v.len) - (len < v.len);
}

bool hudi_key_probe_file(const hudi_key_probe *kp, const hudi_pq_file *pf) {
    if (!kp->keys) return false;
    hudi_slice lo, hi;
    bool range = hudi_pq_kv(pf, "hoodie_min_record_key", &lo) &&
                 hudi_pq_kv(pf, "hoodie_max_record_key", &hi);
    int32_t in_range = 0;
    for (int32_t i = 0; i < kp->n_keys; i++)
        in_range += !range || (cmp_key(kp->keys[i], kp->lens[i], lo) >= 0 &&
                               cmp_key(kp->keys[i], kp->lens[i], hi) <= 0);
    if (in_range == 0) return true;
    /* Only the filter's bits for these keys are decoded (a footer's filter is hundreds of KB).
     * No filter (written without meta fields), or one this build cannot use (a Jenkins-hash
     * filter, a damaged value): the file is read, as it would be without probing. */
    hudi_slice value, code;
    hudi_bloom_type type = HUDI_BLOOM_SIMPLE;
    if (!hudi_pq_kv(pf, HUDI_BLOOM_FOOTER_KEY, &value) &&
        !hudi_pq_kv(pf, HUDI_BLOOM_FOOTER_KEY_LEGACY, &value))
        return false;
    if (hudi_pq_kv(pf, HUDI_BLOOM_TYPE_FOOTER_KEY, &code) &&
        hudi_bloom_type_parse(&type, (const char *)code.data, code.len, NULL) < 0)
        return false;
    hudi_slice *want = hudi_malloc((size_t)in_range * sizeof(hudi_slice));
    if (!want) return false;
    int32_t n = 0;
    for (int32_t i = 0; i < kp->n_keys; i++)
        if (!range || (cmp_key(kp->keys[i], kp->lens[i], lo) >= 0 &&
                       cmp_key(kp->keys[i], kp->lens[i], hi) <= 0))
            want[n++] = HUDI_SLICE(kp->keys[i], kp->lens[i]);
    bool maybe = true;
    if (hudi_bloom_probe_base64(type, value, want, (size_t)n, &maybe, NULL) < 0) maybe = true;
    hudi_free(want);
    return !maybe;
}

void hudi_key_probe_dispose(hudi_key_probe *kp) {
    free_keys(kp->keys, kp->lens, kp->n_keys);
    hudi_free(kp->key_field);
    *kp = (hudi_key_probe)HUDI_KEY_PROBE_INIT;
}
