/* arrow_c.c - export of hudi fields, arrays and batches through the Arrow C Data Interface,
 * and an ArrowArrayStream adapter over a "next batch" callback.
 *
 * Format strings (Arrow spec): null n, bool b, int8/16/32/64 c s i l, uint8/16/32/64 C S I L,
 * float16 e, float f, double g, decimal d:P,S (decimal128), date tdD, time ttm (int32 millis)
 * / ttu / ttn, timestamp tsm: / tsu: / tsn: followed by "UTC" when utc else an empty zone,
 * string u, binary z, fixed binary w:N, struct +s, list +l, map +m (child "entries" struct;
 * keys-sorted flag off). UUID and JSON hints add the canonical extension names arrow.uuid and
 * arrow.json in the metadata.
 *
 * Invariant: an array is exported in two phases. Phase one allocates every ArrowArray node
 * and anything the data lacks (the offsets of an empty array) and may fail, leaving the
 * source untouched; phase two moves the buffers and cannot fail. */
#include "columnar/arrow_c.h"

#include <errno.h>
#include <stdio.h>

/* ---- schema ---------------------------------------------------------------------------------- */

typedef struct schema_priv {
    char format[32];
    char *name;
    char *metadata;
    struct ArrowSchema *kids; /* n_children structs; schema->children points into ptrs */
    struct ArrowSchema **ptrs;
} schema_priv;

static void release_schema(struct ArrowSchema *s) {
    if (!s || !s->release) return;
    schema_priv *p = s->private_data;
    for (int64_t i = 0; i < s->n_children; i++)
        if (s->children[i]->release) s->children[i]->release(s->children[i]);
    hudi_free(p->kids);
    hudi_free(p->ptrs);
    hudi_free(p->name);
    hudi_free(p->metadata);
    hudi_free(p);
    s->release = NULL;
}

static const char *unit_letter(uint8_t unit) {
    return unit == HUDI_UNIT_MILLIS ? "m" : unit == HUDI_UNIT_NANOS ? "n" : "u";
}

static int format_of(char *fmt, size_t cap, const hudi_field *f, hudi_error *err) {
    static const char *const simple[HUDI_TYPE_COUNT_] = {
        [HUDI_TYPE_NULL] = "n",   [HUDI_TYPE_BOOL] = "b",    [HUDI_TYPE_INT8] = "c",
        [HUDI_TYPE_INT16] = "s",  [HUDI_TYPE_INT32] = "i",   [HUDI_TYPE_INT64] = "l",
        [HUDI_TYPE_UINT8] = "C",  [HUDI_TYPE_UINT16] = "S",  [HUDI_TYPE_UINT32] = "I",
        [HUDI_TYPE_UINT64] = "L", [HUDI_TYPE_FLOAT16] = "e", [HUDI_TYPE_FLOAT] = "f",
        [HUDI_TYPE_DOUBLE] = "g", [HUDI_TYPE_DATE] = "tdD",  [HUDI_TYPE_STRING] = "u",
        [HUDI_TYPE_BINARY] = "z", [HUDI_TYPE_STRUCT] = "+s", [HUDI_TYPE_LIST] = "+l",
        [HUDI_TYPE_MAP] = "+m",
    };
    const char *name = f->name ? f->name : "";
    switch (f->type) {
    case HUDI_TYPE_DECIMAL:
        if (f->precision < 1 || f->precision > 38)
            return hudi_error_set(err, HUDI_EUNSUPPORTED,
                                  "column %s: decimal precision %d does not fit decimal128", name,
                                  f->precision);
        snprintf(fmt, cap, "d:%d,%d", f->precision, f->scale);
        return 0;
    case HUDI_TYPE_TIME: snprintf(fmt, cap, "tt%s", unit_letter(f->unit)); return 0;
    case HUDI_TYPE_TIMESTAMP:
        snprintf(fmt, cap, "ts%s:%s", unit_letter(f->unit), f->utc ? "UTC" : "");
        return 0;
    case HUDI_TYPE_FIXED_BINARY: snprintf(fmt, cap, "w:%d", f->byte_width); return 0;
    default:
        if ((unsigned)f->type < HUDI_TYPE_COUNT_ && simple[f->type]) {
            snprintf(fmt, cap, "%s", simple[f->type]);
            return 0;
        }
        return hudi_error_set(err, HUDI_EUNSUPPORTED, "column %s: type %d has no Arrow format",
                              name, (int)f->type);
    }
}

/* Arrow metadata: int32 count, then per pair int32 length + bytes for key and value. */
static char *extension_metadata(const char *ext_name) {
    static const char k1[] = "ARROW:extension:name", k2[] = "ARROW:extension:metadata";
    size_t n1 = strlen(k1), n2 = strlen(k2), nv = strlen(ext_name);
    size_t total = 4 + 4 + n1 + 4 + nv + 4 + n2 + 4;
    char *m = hudi_malloc(total);
    if (!m) return NULL;
    char *o = m;
    hudi_store_u32le(o, 2);
    hudi_store_u32le(o + 4, (uint32_t)n1);
    memcpy(o + 8, k1, n1);
    o += 8 + n1;
    hudi_store_u32le(o, (uint32_t)nv);
    memcpy(o + 4, ext_name, nv);
    o += 4 + nv;
    hudi_store_u32le(o, (uint32_t)n2);
    memcpy(o + 4, k2, n2);
    o += 4 + n2;
    hudi_store_u32le(o, 0);
    return m;
}

/* Fills *s; on failure *s has release == NULL and nothing is left allocated. */
static int export_schema(struct ArrowSchema *s, const hudi_field *f, hudi_error *err) {
    memset(s, 0, sizeof(*s));
    int rc;
    schema_priv *p = hudi_calloc(1, sizeof(*p));
    if (!p) return hudi_error_oom(err);
    s->private_data = p;
    s->release = release_schema;
    if ((rc = format_of(p->format, sizeof(p->format), f, err)) < 0) goto fail;
    if (!(p->name = hudi_strdup(f->name ? f->name : ""))) goto oom;
    const char *ext =
        f->hint == HUDI_HINT_UUID && f->type == HUDI_TYPE_FIXED_BINARY && f->byte_width == 16
            ? "arrow.uuid"
        : f->hint == HUDI_HINT_JSON && f->type == HUDI_TYPE_STRING ? "arrow.json"
                                                                   : NULL;
    if (ext && !(p->metadata = extension_metadata(ext))) goto oom;
    s->format = p->format;
    s->name = p->name;
    s->metadata = p->metadata;
    s->flags = f->nullable ? ARROW_FLAG_NULLABLE : 0;
    if (f->n_children > 0) {
        p->kids = hudi_calloc((size_t)f->n_children, sizeof(*p->kids));
        p->ptrs = hudi_calloc((size_t)f->n_children, sizeof(*p->ptrs));
        if (!p->kids || !p->ptrs) goto oom;
        s->children = p->ptrs;
        for (int32_t i = 0; i < f->n_children; i++) p->ptrs[i] = &p->kids[i];
        s->n_children = f->n_children; /* kids are zeroed: release skips unexported ones */
        for (int32_t i = 0; i < f->n_children; i++)
            if ((rc = export_schema(&p->kids[i], &f->children[i], err)) < 0) goto fail;
    }
    return 0;
oom:
    rc = hudi_error_oom(err);
fail:
    release_schema(s);
    return rc;
}

int hudi_arrow_export_schema(struct ArrowSchema *out, const hudi_field *field, hudi_error *err) {
    struct ArrowSchema tmp;
    int rc = export_schema(&tmp, field, err);
    if (rc == 0) *out = tmp;
    return rc;
}

/* ---- arrays ------------------------------------------------------------------------------------
 */

typedef struct array_priv {
    void *bufs[3];
    struct ArrowArray *kids;
    struct ArrowArray **ptrs;
} array_priv;

static void release_array(struct ArrowArray *a) {
    if (!a || !a->release) return;
    array_priv *p = a->private_data;
    for (int64_t i = 0; i < a->n_children; i++)
        if (a->children[i]->release) a->children[i]->release(a->children[i]);
    for (int i = 0; i < 3; i++) hudi_aligned_free(p->bufs[i]);
    hudi_free(p->kids);
    hudi_free(p->ptrs);
    hudi_free(p);
    a->release = NULL;
}

static int n_buffers_of(hudi_type_id t) {
    switch (t) {
    case HUDI_TYPE_NULL: return 0;
    case HUDI_TYPE_STRUCT: return 1;
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY: return 3;
    default: return 2;
    }
}

/* Phase one: the node tree for `a` (or for a batch when a == NULL and cols given). */
static int alloc_node(struct ArrowArray *o, hudi_type_id t, int32_t n_kids, hudi_array **kids,
                      bool needs_offsets, hudi_error *err);

static int alloc_array(struct ArrowArray *o, const hudi_array *a, hudi_error *err) {
    hudi_type_id t = a->field->type;
    bool has_offsets =
        t == HUDI_TYPE_STRING || t == HUDI_TYPE_BINARY || t == HUDI_TYPE_LIST || t == HUDI_TYPE_MAP;
    return alloc_node(o, t, a->n_children, a->children, has_offsets && !a->offsets, err);
}

static int alloc_node(struct ArrowArray *o, hudi_type_id t, int32_t n_kids, hudi_array **kids,
                      bool needs_offsets, hudi_error *err) {
    memset(o, 0, sizeof(*o));
    int rc;
    array_priv *p = hudi_calloc(1, sizeof(*p));
    if (!p) return hudi_error_oom(err);
    o->private_data = p;
    o->release = release_array;
    o->n_buffers = n_buffers_of(t);
    o->buffers = (const void **)p->bufs;
    /* An array that never grew has no offsets; Arrow wants length + 1 = 1 of them. */
    if (needs_offsets) {
        if (!(p->bufs[1] = hudi_aligned_alloc(sizeof(int32_t)))) goto oom;
        *(int32_t *)p->bufs[1] = 0;
    }
    if (n_kids > 0) {
        p->kids = hudi_calloc((size_t)n_kids, sizeof(*p->kids));
        p->ptrs = hudi_calloc((size_t)n_kids, sizeof(*p->ptrs));
        if (!p->kids || !p->ptrs) goto oom;
        o->children = p->ptrs;
        for (int32_t i = 0; i < n_kids; i++) p->ptrs[i] = &p->kids[i];
        o->n_children = n_kids;
        for (int32_t i = 0; i < n_kids; i++)
            if ((rc = alloc_array(&p->kids[i], kids[i], err)) < 0) goto fail;
    }
    return 0;
oom:
    rc = hudi_error_oom(err);
fail:
    release_array(o);
    return rc;
}

/* Phase two: moves a's buffers into the node and leaves `a` empty. Cannot fail. */
static void move_array(struct ArrowArray *o, hudi_array *a) {
    array_priv *p = o->private_data;
    hudi_type_id t = a->field->type;
    o->length = a->length;
    o->null_count = a->null_count;
    if (t == HUDI_TYPE_NULL || a->null_count == 0)
        hudi_aligned_free(a->validity);
    else
        p->bufs[0] = a->validity;
    switch (t) {
    case HUDI_TYPE_NULL:
    case HUDI_TYPE_STRUCT: break;
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY:
        p->bufs[2] = a->data;
        a->data = NULL;
        /* fallthrough */
    case HUDI_TYPE_LIST:
    case HUDI_TYPE_MAP:
        if (a->offsets) p->bufs[1] = a->offsets;
        a->offsets = NULL;
        break;
    default:
        p->bufs[1] = a->values;
        a->values = NULL;
        break;
    }
    /* Buffers of types that do not use them (none in practice) must not leak. */
    hudi_aligned_free(a->values);
    hudi_aligned_free(a->offsets);
    hudi_aligned_free(a->data);
    a->validity = a->values = NULL;
    a->offsets = NULL;
    a->data = NULL;
    a->length = a->null_count = a->data_len = a->capacity = a->data_capacity = 0;
    a->has_validity_capacity = false;
    a->uniform = false;
    for (int32_t i = 0; i < a->n_children; i++) move_array(o->children[i], a->children[i]);
}

int hudi_arrow_export_array(struct ArrowArray *out, hudi_array *a, hudi_error *err) {
    struct ArrowArray tmp;
    int rc;
    if ((rc = hudi_array_validate(a, err)) < 0) return rc;
    if ((rc = alloc_array(&tmp, a, err)) < 0) return rc;
    move_array(&tmp, a);
    *out = tmp;
    return 0;
}

int hudi_arrow_export_batch(struct ArrowArray *out, hudi_batch *batch, hudi_error *err) {
    struct ArrowArray tmp;
    int rc;
    if ((rc = hudi_batch_validate(batch, err)) < 0) return rc;
    if ((rc = alloc_node(&tmp, HUDI_TYPE_STRUCT, batch->n_columns, batch->columns, false, err)) < 0)
        return rc;
    tmp.length = batch->num_rows;
    tmp.null_count = 0;
    for (int32_t i = 0; i < batch->n_columns; i++) move_array(tmp.children[i], batch->columns[i]);
    batch->num_rows = 0;
    *out = tmp;
    return 0;
}

/* ---- stream ------------------------------------------------------------------------------------
 */

typedef struct stream_priv {
    hudi_field schema;
    hudi_arrow_next_fn next;
    void (*free_payload)(void *);
    void *payload;
    hudi_error err;
} stream_priv;

static int to_errno(int rc) {
    switch (rc) {
    case HUDI_ENOMEM: return ENOMEM;
    case HUDI_EINVAL: return EINVAL;
    case HUDI_EUNSUPPORTED: return ENOTSUP;
    default: return EIO;
    }
}

static int stream_get_schema(struct ArrowArrayStream *s, struct ArrowSchema *out) {
    stream_priv *p = s->private_data;
    hudi_error_clear(&p->err);
    int rc = hudi_arrow_export_schema(out, &p->schema, &p->err);
    return rc < 0 ? to_errno(rc) : 0;
}

static int stream_get_next(struct ArrowArrayStream *s, struct ArrowArray *out) {
    stream_priv *p = s->private_data;
    hudi_batch *b = NULL;
    hudi_error_clear(&p->err);
    int rc = p->next(p->payload, &b, &p->err);
    if (rc == 0 && !b) {
        memset(out, 0, sizeof(*out)); /* release == NULL marks the end of the stream */
        return 0;
    }
    if (rc == 0) rc = hudi_arrow_export_batch(out, b, &p->err);
    hudi_batch_free(b);
    if (rc < 0 && p->err.code == 0) hudi_error_set(&p->err, rc, "%s", hudi_error_name(rc));
    return rc < 0 ? to_errno(rc) : 0;
}

static const char *stream_last_error(struct ArrowArrayStream *s) {
    stream_priv *p = s->private_data;
    return p->err.code ? p->err.message : NULL;
}

static void stream_release(struct ArrowArrayStream *s) {
    if (!s || !s->release) return;
    stream_priv *p = s->private_data;
    if (p->free_payload) p->free_payload(p->payload);
    hudi_field_dispose(&p->schema);
    hudi_free(p);
    s->release = NULL;
}

int hudi_arrow_stream_new(struct ArrowArrayStream *out, const hudi_field *schema,
                          hudi_arrow_next_fn next, void (*free_payload)(void *payload),
                          void *payload, hudi_error *err) {
    if (schema->type != HUDI_TYPE_STRUCT)
        return hudi_error_set(err, HUDI_EINVAL, "stream schema must be a struct, not %s",
                              hudi_type_name(schema->type));
    stream_priv *p = hudi_calloc(1, sizeof(*p));
    if (!p) return hudi_error_oom(err);
    if (hudi_field_copy(&p->schema, schema) < 0) {
        hudi_free(p);
        return hudi_error_oom(err);
    }
    p->next = next;
    p->free_payload = free_payload;
    p->payload = payload;
    out->get_schema = stream_get_schema;
    out->get_next = stream_get_next;
    out->get_last_error = stream_last_error;
    out->release = stream_release;
    out->private_data = p;
    return 0;
}

/* ---- import --------------------------------------------------------------------------------
 * The inverse of the export: an ArrowSchema becomes a hudi_field tree and an ArrowArray is
 * copied (buffers and all, honouring every node's offset) into hudi arrays, so the producer's
 * structs stay the caller's to release. Large (64-bit offset) strings, binaries and lists are
 * narrowed to 32-bit offsets when they fit. */

static const char *schema_name(const struct ArrowSchema *s) { return s->name ? s->name : ""; }

/* The extension name from Arrow's binary metadata (int32 count, then length-prefixed key and
 * value strings), written to ext[0..cap) ("" when absent). */
static void extension_name(const char *md, char *ext, size_t cap) {
    ext[0] = '\0';
    if (!md) return;
    int32_t n;
    memcpy(&n, md, 4);
    const char *p = md + 4;
    for (int32_t i = 0; i < n && i < 1024; i++) {
        int32_t kl, vl;
        memcpy(&kl, p, 4);
        if (kl < 0) return;
        const char *k = p + 4;
        memcpy(&vl, k + kl, 4);
        if (vl < 0) return;
        const char *v = k + kl + 4;
        if (kl == 20 && memcmp(k, "ARROW:extension:name", 20) == 0) {
            snprintf(ext, cap, "%.*s", (int)HUDI_MIN((size_t)vl, cap - 1), v);
            return;
        }
        p = v + vl;
    }
}

static bool parse_unit(char c, uint8_t *unit) {
    switch (c) {
    case 'm': *unit = HUDI_UNIT_MILLIS; return true;
    case 'u': *unit = HUDI_UNIT_MICROS; return true;
    case 'n': *unit = HUDI_UNIT_NANOS; return true;
    default: return false;
    }
}

/* Sets f->type and parameters from the format string; `large` notes 64-bit offsets. */
static int import_format(hudi_field *f, const struct ArrowSchema *s, bool *large, hudi_error *err) {
    static const struct {
        const char *fmt;
        hudi_type_id t;
    } simple[] = {
        {"n", HUDI_TYPE_NULL},    {"b", HUDI_TYPE_BOOL},    {"c", HUDI_TYPE_INT8},
        {"s", HUDI_TYPE_INT16},   {"i", HUDI_TYPE_INT32},   {"l", HUDI_TYPE_INT64},
        {"C", HUDI_TYPE_UINT8},   {"S", HUDI_TYPE_UINT16},  {"I", HUDI_TYPE_UINT32},
        {"L", HUDI_TYPE_UINT64},  {"e", HUDI_TYPE_FLOAT16}, {"f", HUDI_TYPE_FLOAT},
        {"g", HUDI_TYPE_DOUBLE},  {"tdD", HUDI_TYPE_DATE},  {"u", HUDI_TYPE_STRING},
        {"z", HUDI_TYPE_BINARY},  {"U", HUDI_TYPE_STRING},  {"Z", HUDI_TYPE_BINARY},
        {"+s", HUDI_TYPE_STRUCT}, {"+l", HUDI_TYPE_LIST},   {"+L", HUDI_TYPE_LIST},
        {"+m", HUDI_TYPE_MAP},
    };
    const char *fmt = s->format ? s->format : "";
    *large = strcmp(fmt, "U") == 0 || strcmp(fmt, "Z") == 0 || strcmp(fmt, "+L") == 0;
    for (size_t i = 0; i < HUDI_ARRAY_LEN(simple); i++)
        if (strcmp(fmt, simple[i].fmt) == 0) {
            f->type = simple[i].t;
            return 0;
        }
    int a = 0, b = 0, bits = 128, used = 0;
    if (fmt[0] == 'd' && fmt[1] == ':') {
        int k = sscanf(fmt, "d:%d,%d%n,%d%n", &a, &b, &used, &bits, &used);
        if (k >= 2 && fmt[used] == '\0' && bits == 128 && a >= 1 && a <= 38) {
            f->type = HUDI_TYPE_DECIMAL;
            f->precision = a;
            f->scale = b;
            return 0;
        }
    } else if (fmt[0] == 'w' && fmt[1] == ':') {
        if (sscanf(fmt, "w:%d%n", &a, &used) == 1 && fmt[used] == '\0' && a > 0) {
            f->type = HUDI_TYPE_FIXED_BINARY;
            f->byte_width = a;
            return 0;
        }
    } else if (fmt[0] == 't' && fmt[1] == 't' && fmt[2] && !fmt[3] && fmt[2] != 's') {
        if (parse_unit(fmt[2], &f->unit)) {
            f->type = HUDI_TYPE_TIME;
            return 0;
        }
    } else if (fmt[0] == 't' && fmt[1] == 's' && fmt[2] && fmt[3] == ':') {
        if (parse_unit(fmt[2], &f->unit)) {
            /* Arrow: with any time zone the values are UTC instants. */
            f->type = HUDI_TYPE_TIMESTAMP;
            f->utc = fmt[4] != '\0';
            return 0;
        }
    }
    return hudi_error_set(err, HUDI_EUNSUPPORTED, "column %s: Arrow format '%s' is not supported",
                          schema_name(s), fmt);
}

static int import_schema(hudi_field *f, const struct ArrowSchema *s, int depth, hudi_error *err) {
    bool large;
    int rc;
    if (depth > 64)
        return hudi_error_set(err, HUDI_EUNSUPPORTED, "column %s: nested too deep", schema_name(s));
    if (!s->release)
        return hudi_error_set(err, HUDI_EINVAL, "column %s: ArrowSchema already released",
                              schema_name(s));
    if (s->dictionary)
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "column %s: dictionary-encoded Arrow columns are not supported",
                              schema_name(s));
    if (hudi_field_init(f, schema_name(s), HUDI_TYPE_NULL, (s->flags & ARROW_FLAG_NULLABLE) != 0) <
        0)
        return hudi_error_oom(err);
    if ((rc = import_format(f, s, &large, err)) < 0) return rc;
    char ext[32];
    extension_name(s->metadata, ext, sizeof(ext));
    if (strcmp(ext, "arrow.uuid") == 0 && f->type == HUDI_TYPE_FIXED_BINARY && f->byte_width == 16)
        f->hint = HUDI_HINT_UUID;
    else if (strcmp(ext, "arrow.json") == 0 && f->type == HUDI_TYPE_STRING)
        f->hint = HUDI_HINT_JSON;
    int64_t want = f->type == HUDI_TYPE_STRUCT                             ? s->n_children
                   : f->type == HUDI_TYPE_LIST || f->type == HUDI_TYPE_MAP ? 1
                                                                           : 0;
    if (s->n_children != want || (want > 0 && !s->children))
        return hudi_error_set(err, HUDI_EINVAL, "column %s: %s with %lld children", schema_name(s),
                              hudi_type_name(f->type), (long long)s->n_children);
    if (want > INT32_MAX || (want > 0 && hudi_field_set_children(f, (int32_t)want) < 0))
        return hudi_error_oom(err);
    for (int32_t i = 0; i < f->n_children; i++)
        if ((rc = import_schema(&f->children[i], s->children[i], depth + 1, err)) < 0) return rc;
    if (f->type == HUDI_TYPE_MAP &&
        (f->children[0].type != HUDI_TYPE_STRUCT || f->children[0].n_children != 2))
        return hudi_error_set(err, HUDI_EINVAL, "column %s: map entries are not a key/value struct",
                              schema_name(s));
    if (f->type == HUDI_TYPE_MAP) f->children[0].nullable = false;
    return 0;
}

int hudi_arrow_import_schema(hudi_field *out, const struct ArrowSchema *schema, hudi_error *err) {
    memset(out, 0, sizeof(*out));
    int rc = import_schema(out, schema, 0, err);
    if (rc < 0) {
        hudi_field_dispose(out);
        memset(out, 0, sizeof(*out));
    }
    return rc;
}

/* Offset i (of a node's logical range) as int64. */
static int64_t offset_at(const void *offsets, bool large, int64_t i) {
    return large ? ((const int64_t *)offsets)[i] : ((const int32_t *)offsets)[i];
}

static bool schema_large(const struct ArrowSchema *s) {
    return s && s->format &&
           (strcmp(s->format, "U") == 0 || strcmp(s->format, "Z") == 0 ||
            strcmp(s->format, "+L") == 0);
}

/* Appends rows [start, start + n) of src (logical, before src->offset) to dst. `under_null`: the
 * rows include slots of a null parent struct, where the Arrow format lets a non-nullable child
 * hold nulls too (hudic's reader produces such children), so they are not an error there. */
static int import_range(hudi_array *dst, const struct ArrowArray *src, const struct ArrowSchema *s,
                        int64_t start, int64_t n, bool under_null, hudi_error *err) {
    const hudi_field *f = dst->field;
    const char *name = f->name ? f->name : "";
    int rc;
    if (!src->release)
        return hudi_error_set(err, HUDI_EINVAL, "column %s: ArrowArray already released", name);
    if (src->dictionary)
        return hudi_error_set(err, HUDI_EUNSUPPORTED, "column %s: dictionary arrays", name);
    if (src->offset < 0 || src->length < 0 || start < 0 || n < 0 || start + n > src->length)
        return hudi_error_set(err, HUDI_EINVAL, "column %s: rows [%lld, +%lld) outside the array",
                              name, (long long)start, (long long)n);
    int need_bufs = f->type == HUDI_TYPE_NULL                                    ? 0
                    : f->type == HUDI_TYPE_STRUCT                                ? 1
                    : f->type == HUDI_TYPE_STRING || f->type == HUDI_TYPE_BINARY ? 3
                                                                                 : 2;
    if (src->n_buffers != need_bufs || (need_bufs > 0 && !src->buffers) ||
        src->n_children != dst->n_children || (src->n_children > 0 && !src->children))
        return hudi_error_set(err, HUDI_EINVAL,
                              "column %s: %lld buffers and %lld children do not "
                              "fit %s",
                              name, (long long)src->n_buffers, (long long)src->n_children,
                              hudi_type_name(f->type));
    if (n == 0) return 0;
    bool large = schema_large(s);
    int64_t at = dst->length, pos = src->offset + start;
    if ((rc = hudi_array_grow(dst, n, err)) < 0) return rc;
    const uint8_t *valid = need_bufs > 0 ? src->buffers[0] : NULL;
    int64_t nulls = f->type == HUDI_TYPE_NULL ? n
                    : valid                   ? n - hudi_bitmap_count(valid, pos, n)
                                              : 0;
    if (nulls > 0 && !f->nullable && !under_null)
        return hudi_error_set(err, HUDI_EINVAL, "column %s: null values in a non-nullable column",
                              name);
    if ((nulls > 0 || f->type == HUDI_TYPE_NULL) && (rc = hudi_array_ensure_validity(dst, err)) < 0)
        return rc;
    const void *b1 = need_bufs >= 2 ? src->buffers[1] : NULL;
    if (need_bufs >= 2 && !b1)
        return hudi_error_set(err, HUDI_EINVAL, "column %s: missing data buffer", name);
    switch (f->type) {
    case HUDI_TYPE_NULL: break;
    case HUDI_TYPE_BOOL: hudi_bitmap_copy(dst->values, at, b1, pos, n); break;
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY:
    case HUDI_TYPE_LIST:
    case HUDI_TYPE_MAP: {
        int64_t base = offset_at(b1, large, pos), end = offset_at(b1, large, pos + n);
        int64_t prev = base;
        for (int64_t i = 1; i <= n; i++) {
            int64_t o = offset_at(b1, large, pos + i);
            if (o < prev)
                return hudi_error_set(err, HUDI_EINVAL, "column %s: offsets decrease", name);
            prev = o;
        }
        int64_t span = end - base, dst_base;
        if (base < 0) return hudi_error_set(err, HUDI_EINVAL, "column %s: negative offset", name);
        if (f->type == HUDI_TYPE_STRING || f->type == HUDI_TYPE_BINARY) {
            const uint8_t *data = src->buffers[2];
            if (span > 0 && !data)
                return hudi_error_set(err, HUDI_EINVAL, "column %s: missing data buffer", name);
            if ((rc = hudi_array_grow_data(dst, span, err)) < 0) return rc;
            if (span) memcpy(dst->data + dst->data_len, data + base, (size_t)span);
            dst_base = dst->data_len;
            dst->data_len += span;
        } else {
            hudi_array *child = dst->children[0];
            if (child->length + span > INT32_MAX)
                return hudi_error_set(err, HUDI_ENOMEM, "column %s: more than 2^31 elements", name);
            dst_base = child->length;
            const struct ArrowSchema *cs = s && s->n_children > 0 ? s->children[0] : NULL;
            if ((rc = import_range(child, src->children[0], cs, base, span, false, err)) < 0)
                return rc;
        }
        for (int64_t i = 1; i <= n; i++)
            dst->offsets[at + i] = (int32_t)(dst_base + offset_at(b1, large, pos + i) - base);
        break;
    }
    case HUDI_TYPE_STRUCT:
        for (int32_t c = 0; c < dst->n_children; c++) {
            const struct ArrowSchema *cs = s && s->n_children > c ? s->children[c] : NULL;
            if ((rc = import_range(dst->children[c], src->children[c], cs, pos, n,
                                   under_null || nulls > 0, err)) < 0)
                return rc;
        }
        break;
    default: {
        size_t w = (size_t)hudi_type_width(f);
        memcpy((uint8_t *)dst->values + (size_t)at * w, (const uint8_t *)b1 + (size_t)pos * w,
               (size_t)n * w);
        break;
    }
    }
    if (dst->validity) {
        if (valid)
            hudi_bitmap_copy(dst->validity, at, valid, pos, n);
        else
            hudi_bitmap_set_range(dst->validity, at, n, f->type != HUDI_TYPE_NULL);
    }
    dst->null_count += nulls;
    dst->length += n;
    return 0;
}

int hudi_arrow_import_array(hudi_array **out, const struct ArrowArray *array,
                            const struct ArrowSchema *schema, const hudi_field *field,
                            hudi_error *err) {
    hudi_array *a = NULL;
    int rc = hudi_array_new(&a, field, err);
    if (rc == 0) rc = import_range(a, array, schema, 0, array->length, false, err);
    if (rc == 0) rc = hudi_array_validate(a, err);
    if (rc < 0) {
        hudi_array_free(a);
        a = NULL;
    }
    *out = a;
    return rc;
}

int hudi_arrow_import_batch(hudi_batch **out, const struct ArrowArray *array,
                            const struct ArrowSchema *schema, const hudi_field *field,
                            hudi_error *err) {
    hudi_batch *b = NULL;
    int rc;
    *out = NULL;
    if (field->type != HUDI_TYPE_STRUCT)
        return hudi_error_set(err, HUDI_EINVAL, "a record batch must be a struct array, not %s",
                              hudi_type_name(field->type));
    if (!array->release) return hudi_error_set(err, HUDI_EINVAL, "ArrowArray already released");
    if (array->n_buffers >= 1 && array->buffers && array->buffers[0] && array->null_count != 0 &&
        hudi_bitmap_count(array->buffers[0], array->offset, array->length) != array->length)
        return hudi_error_set(err, HUDI_EINVAL, "a record batch cannot have null rows");
    if (array->n_children != field->n_children || (array->n_children > 0 && !array->children))
        return hudi_error_set(err, HUDI_EINVAL, "record batch has %lld columns, its schema %d",
                              (long long)array->n_children, field->n_children);
    if ((rc = hudi_batch_new(&b, field, err)) < 0) return rc;
    for (int32_t c = 0; c < b->n_columns && rc == 0; c++) {
        const struct ArrowSchema *cs =
            schema && schema->n_children > c ? schema->children[c] : NULL;
        rc = import_range(b->columns[c], array->children[c], cs, array->offset, array->length,
                          false, err);
    }
    b->num_rows = array->length;
    if (rc == 0) rc = hudi_batch_validate(b, err);
    if (rc < 0) {
        hudi_batch_free(b);
        return rc;
    }
    *out = b;
    return 0;
}
