/* bucket_index.c - Hudi's simple bucket index (docs/formats/base-files.md §5.1): with
 * hoodie.index.type=BUCKET a record's file group follows from a hash of its key alone, so a
 * write reads no base file to tag its rows.
 *
 * A partition holds at most hoodie.bucket.index.num.buckets file groups, one per bucket; the
 * first 8 characters of a group's file id are its bucket number ("%08d"). Every row whose bucket
 * has a group in its partition goes to that group, stored there or not (merge-on-read: to its log
 * files; copy-on-write: its base file is rewritten with the row); the others go to a new group
 * of their bucket. No small-file packing, no key lookup. The bucket of a key is Hudi's
 * BucketIdentifier.getBucketId, Java's List.hashCode of the hash values. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "write/write_int.h"

#define BUCKET_DEFAULT_NUM 256  /* hoodie.bucket.index.num.buckets */
#define BUCKET_MAX_NUM 99999999 /* a bucket number takes 8 digits of the file id */

void hudi_bucket_dispose(wbucket *b) {
    hudi_free(b->fields_buf);
    hudi_free(b->fields);
    hudi_free(b->group);
    memset(b, 0, sizeof(*b));
}

/* True when `name` is one of the comma-separated `list`. */
static bool in_list(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *s = list; s && *s;) {
        const char *end = strchr(s, ',');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        if (len == n && memcmp(s, name, n) == 0) return true;
        s = end ? end + 1 : s + len;
    }
    return false;
}

int hudi_bucket_config(wctx *c, hudi_error *err) {
    wbucket *b = &c->bucket;
    const char *base = c->t->base_path;
    const char *type = hudi_write_setting(c, "hoodie.index.type");
    if (!type || strcasecmp(type, "BUCKET") != 0) return 0;
    const char *engine = hudi_write_setting(c, "hoodie.index.bucket.engine");
    if (engine && strcasecmp(engine, "SIMPLE") != 0)
        return hudi_error_set(
            err, strcasecmp(engine, "CONSISTENT_HASHING") == 0 ? HUDI_EUNSUPPORTED : HUDI_EINVAL,
            "%s: hoodie.index.bucket.engine=%s is not supported yet (only the "
            "SIMPLE bucket index)",
            base, engine);
    if (hudi_write_auto_keys(c->t))
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "%s: the bucket index needs record key fields (the table has none)",
                              base);
    const char *v = hudi_write_setting(c, "hoodie.bucket.index.num.buckets");
    b->num_buckets = BUCKET_DEFAULT_NUM;
    if (v) {
        char *end;
        errno = 0;
        long long x = strtoll(v, &end, 10);
        if (errno || end == v || *end || x < 1 || x > BUCKET_MAX_NUM)
            return hudi_error_set(err, HUDI_EINVAL,
                                  "%s: hoodie.bucket.index.num.buckets: bad value '%s' (1 to %d)",
                                  base, v, BUCKET_MAX_NUM);
        b->num_buckets = (int32_t)x;
    }
    const char *keys = c->t->cfg.record_key_fields;
    const char *hf = hudi_write_setting(c, "hoodie.bucket.index.hash.field");
    if (!hf || !*hf) hf = keys;
    if (!(b->fields_buf = hudi_strdup(hf))) return hudi_error_oom(err);
    size_t cap = 1;
    for (const char *s = hf; *s; s++) cap += *s == ',';
    if (!(b->fields = hudi_calloc(cap, sizeof(char *)))) return hudi_error_oom(err);
    for (char *s = b->fields_buf; s;) {
        char *end = strchr(s, ',');
        if (end) *end = 0;
        if (!*s || !in_list(keys, s))
            return hudi_error_set(err, HUDI_EINVAL,
                                  "%s: hoodie.bucket.index.hash.field '%s' must be record key "
                                  "fields (%s)",
                                  base, hf, keys);
        b->fields[b->n_fields++] = s;
        s = end ? end + 1 : NULL;
    }
    b->on = true;
    return 0;
}

/* ---- bucket ids ------------------------------------------------------------------------------ */

/* The value of field `f` in the "f1:v1,f2:v2" key k[0..end), as Java's split(",") then
 * split(":") takes it: the text after a part's first ':' up to the next one. *found = false
 * when no part names `f` (a null hash value). -1 when a part has no value (Java fails). */
static int key_value(const uint8_t *k, size_t end, const char *f, hudi_slice *out, bool *found) {
    size_t flen = strlen(f), at = 0;
    *found = false;
    while (at < end) {
        const uint8_t *seg = k + at, *comma = memchr(seg, ',', end - at);
        size_t len = comma ? (size_t)(comma - seg) : end - at;
        const uint8_t *colon = memchr(seg, ':', len);
        if (!colon) return -1;
        size_t name_len = (size_t)(colon - seg), rest = len - name_len - 1;
        const uint8_t *val = colon + 1, *next = memchr(val, ':', rest);
        size_t vlen = next ? (size_t)(next - val) : rest;
        if (vlen == 0) { /* Java drops trailing empty strings: "f:" and "f::" have no value */
            size_t k2 = 0;
            while (k2 < rest && val[k2] == ':') k2++;
            if (k2 == rest) return -1;
        }
        if (!*found && name_len == flen && memcmp(seg, f, flen) == 0) {
            *out = HUDI_SLICE(val, vlen);
            *found = true;
        }
        at += len + 1;
    }
    return 0;
}

int32_t hudi_bucket_id(const uint8_t *key, size_t len, const char *const *fields, int32_t n_fields,
                       int32_t num_buckets) {
    uint32_t h = 1; /* java.util.List.hashCode */
    if (!memchr(key, ':', len)) {
        h = 31 * h + (uint32_t)hudi_java_string_hash(key, len);
    } else {
        size_t end = len;
        while (end > 0 && key[end - 1] == ',') end--; /* trailing empty parts are dropped */
        for (int32_t i = 0; i < n_fields; i++) {
            hudi_slice v = {NULL, 0};
            bool found = false;
            if (key_value(key, end, fields[i], &v, &found) < 0) return -1;
            h = 31 * h + (found ? (uint32_t)hudi_java_string_hash(v.data, v.len) : 0);
        }
    }
    return (int32_t)((h & 0x7fffffffu) % (uint32_t)num_buckets);
}

int32_t hudi_bucket_of_file_id(const char *file_id) {
    int32_t b = 0;
    for (int i = 0; i < 8; i++) {
        if (file_id[i] < '0' || file_id[i] > '9') return -1;
        b = b * 10 + (file_id[i] - '0');
    }
    return b;
}

/* ---- tagging and new groups ----------------------------------------------------------------- */

/* c->bucket.group covering every partition of the write, new entries -1. */
static int ensure_map(wctx *c, hudi_error *err) {
    wbucket *b = &c->bucket;
    if (b->n_group_parts >= c->n_parts) return 0;
    size_t nb = (size_t)b->num_buckets, np = (size_t)c->n_parts;
    if (np > SIZE_MAX / sizeof(int32_t) / nb) return hudi_error_oom(err);
    int32_t *g = hudi_realloc(b->group, np * nb * sizeof(int32_t));
    if (!g) return hudi_error_oom(err);
    for (size_t i = (size_t)b->n_group_parts * nb; i < np * nb; i++) g[i] = -1;
    b->group = g;
    b->n_group_parts = c->n_parts;
    return 0;
}

static int32_t row_bucket(const wctx *c, int32_t r, hudi_error *err) {
    hudi_slice k = wstr(c->keys, r);
    int32_t b = hudi_bucket_id(k.len ? k.data : (const uint8_t *)"", k.len, c->bucket.fields,
                               c->bucket.n_fields, c->bucket.num_buckets);
    if (b < 0)
        hudi_error_set(err, HUDI_EINVAL,
                       "%s: record key '%.*s' is not a list of field:value pairs Hudi's bucket "
                       "index can split",
                       c->t->base_path, (int)HUDI_MIN(k.len, 200), (const char *)k.data);
    return b;
}

int hudi_bucket_tag(wctx *c, hudi_error *err) {
    wbucket *b = &c->bucket;
    int rc = ensure_map(c, err);
    if (rc < 0) return rc;
    for (size_t gi = 0; gi < c->n_groups; gi++) {
        const wgroup *g = &c->groups[gi];
        if (!g->old && !g->slice) continue;
        const char *part = c->parts[g->part].path;
        int32_t id = hudi_bucket_of_file_id(g->file_id);
        if (id < 0 || id >= b->num_buckets)
            return hudi_error_set(err, HUDI_EINVAL,
                                  "%s: file group %s in partition '%s' is not one of the %d "
                                  "buckets of hoodie.bucket.index.num.buckets (%s; the bucket "
                                  "count of a table cannot change)",
                                  c->t->base_path, g->file_id, part, b->num_buckets,
                                  id < 0 ? "not a bucket file id" : "a larger bucket number");
        int32_t *slot = &b->group[(size_t)g->part * (size_t)b->num_buckets + (size_t)id];
        if (*slot >= 0)
            return hudi_error_set(err, HUDI_ECORRUPT,
                                  "%s: multiple files at partition path=%s belong to the same "
                                  "bucket id = %d (file groups %s and %s)",
                                  c->t->base_path, part, id, c->groups[*slot].file_id, g->file_id);
        *slot = (int32_t)gi;
    }
    for (int64_t s = 0; s < c->n_sel; s++) {
        int32_t r = c->sel[s];
        int32_t id = row_bucket(c, r, err);
        if (id < 0) return HUDI_EINVAL;
        int32_t gi = b->group[(size_t)c->row_part[r] * (size_t)b->num_buckets + (size_t)id];
        if (gi < 0) continue;
        c->tagged[r] = true;
        c->dest[r] = gi;
    }
    return 0;
}

/* A new, active group of bucket `id` in partition `part`: a fresh file id whose first 8
 * characters are the bucket number (BucketIdentifier.newBucketFileIdPrefix, then "-0" as
 * Spark's create handle names the first file of a prefix). */
static int new_bucket_group(wctx *c, int32_t part, int32_t id, int32_t *out, hudi_error *err) {
    char fid[HUDI_FILE_ID_MAX], num[16];
    int rc = hudi_file_id_new(fid, 0, err);
    if (rc < 0) return rc;
    snprintf(num, sizeof(num), "%08d", (int)id);
    memcpy(fid, num, 8);
    if ((rc = hudi_wctx_add_group(c, part, fid, NULL, NULL, out, err)) < 0) return rc;
    c->groups[*out].active = true;
    return 0;
}

int hudi_bucket_assign_inserts(wctx *c, int32_t part, const wrows *rows, hudi_error *err) {
    wbucket *b = &c->bucket;
    if (rows->n == 0) return 0;
    int rc = ensure_map(c, err);
    if (rc < 0) return rc;
    int32_t *map = b->group + (size_t)part * (size_t)b->num_buckets;
    int32_t *ids = hudi_malloc((size_t)rows->n * sizeof(int32_t));
    bool *need = hudi_calloc((size_t)b->num_buckets, sizeof(bool));
    if (!ids || !need) rc = hudi_error_oom(err);
    for (int64_t k = 0; rc == 0 && k < rows->n; k++) {
        if ((ids[k] = row_bucket(c, rows->v[k], err)) < 0)
            rc = HUDI_EINVAL;
        else if (map[ids[k]] < 0)
            need[ids[k]] = true;
    }
    /* new groups in bucket order, so file ids and task numbers follow the buckets */
    for (int32_t id = 0; rc == 0 && id < b->num_buckets; id++)
        if (need[id]) rc = new_bucket_group(c, part, id, &map[id], err);
    for (int64_t k = 0; rc == 0 && k < rows->n; k++) {
        wgroup *g = &c->groups[map[ids[k]]];
        g->active = true;
        c->dest[rows->v[k]] = map[ids[k]];
        rc = hudi_wrows_push(&g->ins, rows->v[k], err);
    }
    hudi_free(ids);
    hudi_free(need);
    return rc;
}
