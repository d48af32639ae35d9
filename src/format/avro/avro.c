/* avro.c - Avro schemas (parsed by libavro), binary datum decoding/encoding and object
 * container files (Avro 1.x specification, "Object Container Files" and "Binary Encoding").
 *
 * A schema is compiled once from libavro's tree into compact nodes (field names, symbols,
 * children, minimum encoded size), so decoding never calls back into libavro and can bound
 * every count before allocating: a block count times the item's minimum size must fit in the
 * remaining bytes, the total number of decoded values is capped, and nesting is limited to
 * HUDI_AVRO_MAX_DEPTH. Invariant: this is the only file that includes <avro.h>. */
#include "format/avro/avro.h"
#include "format/avro/avro_node.h"

#include <avro.h>
#include <math.h>
#include <stdio.h>
#include <sys/random.h>
#include <time.h>
#include <zlib.h>

#define NODE_UNION HUDI_AVRO_UNION

typedef hudi_avro_node anode;

struct hudi_avro_schema {
    avro_schema_t raw;
    char *json;
    char *name;
    anode *root;
    hudi_arena arena;
};

/* ---- schema compilation ----------------------------------------------------------------- */

typedef struct compiler {
    hudi_arena *arena;
    hudi_map seen; /* avro_schema_t pointer bytes -> anode*, for named types and recursion */
} compiler;

static anode *compile(compiler *c, avro_schema_t s, int depth);

static anode *compile_children(compiler *c, anode *n, avro_schema_t s, int depth) {
    if (n->n && !(n->kids = hudi_arena_alloc(c->arena, n->n * sizeof(anode *)))) return NULL;
    for (size_t i = 0; i < n->n; i++) {
        avro_schema_t kid = n->type == HUDI_AVRO_RECORD
                                ? avro_schema_record_field_get_by_index(s, (int)i)
                                : avro_schema_union_branch(s, (int)i);
        if (!kid || !(n->kids[i] = compile(c, kid, depth + 1))) return NULL;
        if (n->type == HUDI_AVRO_RECORD) {
            const char *name = avro_schema_record_field_name(s, (int)i);
            if (!name) return NULL;
            n->names[i] = hudi_slice_cstr(name);
        }
    }
    return n;
}

static anode *compile(compiler *c, avro_schema_t s, int depth) {
    if (depth > 4 * HUDI_AVRO_MAX_DEPTH) return NULL;
    while (is_avro_link(s)) s = avro_schema_link_target(s);
    if (!s) return NULL;
    anode *n = hudi_map_get(&c->seen, (const char *)&s, sizeof(s));
    if (n) return n;
    if (!(n = hudi_arena_alloc(c->arena, sizeof(*n)))) return NULL;
    avro_type_t t = avro_typeof(s);
    if (t == AVRO_RECORD || t == AVRO_ENUM || t == AVRO_FIXED) {
        /* Named types may be referenced again (or recursively) through links. */
        if (hudi_map_put(&c->seen, (const char *)&s, sizeof(s), n, NULL) < 0) return NULL;
    }
    switch (t) {
    case AVRO_NULL: n->type = HUDI_AVRO_NULL; break;
    case AVRO_BOOLEAN: n->type = HUDI_AVRO_BOOLEAN; break;
    case AVRO_INT32: n->type = HUDI_AVRO_INT; break;
    case AVRO_INT64: n->type = HUDI_AVRO_LONG; break;
    case AVRO_FLOAT: n->type = HUDI_AVRO_FLOAT; break;
    case AVRO_DOUBLE: n->type = HUDI_AVRO_DOUBLE; break;
    case AVRO_BYTES: n->type = HUDI_AVRO_BYTES; break;
    case AVRO_STRING: n->type = HUDI_AVRO_STRING; break;
    case AVRO_FIXED:
        n->type = HUDI_AVRO_FIXED;
        n->fixed_size = avro_schema_fixed_size(s);
        if (n->fixed_size < 0) return NULL;
        break;
    case AVRO_ENUM: {
        n->type = HUDI_AVRO_ENUM;
        int k = avro_schema_enum_number_of_symbols(s);
        if (k < 0) return NULL;
        n->n = (size_t)k;
        if (k && !(n->names = hudi_arena_alloc(c->arena, n->n * sizeof(hudi_slice)))) return NULL;
        for (int i = 0; i < k; i++) {
            const char *sym = avro_schema_enum_get(s, i);
            if (!sym) return NULL;
            n->names[i] = hudi_slice_cstr(sym);
        }
        break;
    }
    case AVRO_ARRAY:
    case AVRO_MAP:
        n->type = t == AVRO_ARRAY ? HUDI_AVRO_ARRAY : HUDI_AVRO_MAP;
        n->n = 0;
        if (!(n->kids = hudi_arena_alloc(c->arena, sizeof(anode *)))) return NULL;
        n->kids[0] = compile(
            c, t == AVRO_ARRAY ? avro_schema_array_items(s) : avro_schema_map_values(s), depth + 1);
        if (!n->kids[0]) return NULL;
        break;
    case AVRO_RECORD:
        n->type = HUDI_AVRO_RECORD;
        n->n = avro_schema_record_size(s);
        if (n->n && !(n->names = hudi_arena_alloc(c->arena, n->n * sizeof(hudi_slice))))
            return NULL;
        return compile_children(c, n, s, depth);
    case AVRO_UNION:
        n->type = NODE_UNION;
        n->n = avro_schema_union_size(s);
        if (n->n == 0) return NULL;
        return compile_children(c, n, s, depth);
    default: return NULL;
    }
    return n;
}

/* Minimum encoded size of every node reachable from `n`; a record on the current path
 * (recursion) counts as 0, which only loosens the bound. */
static size_t min_size(anode *n, int depth) {
    if (n->min_done || depth > 4 * HUDI_AVRO_MAX_DEPTH) return n->min_size;
    n->min_done = true;
    size_t m = 0, kids = n->type == HUDI_AVRO_ARRAY || n->type == HUDI_AVRO_MAP ? 1 : n->n;
    if (n->type == HUDI_AVRO_ENUM) kids = 0;
    for (size_t i = 0; i < kids; i++) {
        size_t k = min_size(n->kids[i], depth + 1);
        if (n->type == HUDI_AVRO_RECORD) m = m + k < m ? SIZE_MAX : m + k;
    }
    switch (n->type) {
    case HUDI_AVRO_NULL:
    case HUDI_AVRO_RECORD: break;
    case HUDI_AVRO_FLOAT: m = 4; break;
    case HUDI_AVRO_DOUBLE: m = 8; break;
    case HUDI_AVRO_FIXED: m = (size_t)n->fixed_size; break;
    default: m = 1; break; /* boolean, varints, length prefixes, union index, block count */
    }
    n->min_size = m;
    return m;
}

int hudi_avro_schema_parse(hudi_avro_schema **out, hudi_slice json, hudi_error *err) {
    *out = NULL;
    hudi_avro_schema *s = hudi_calloc(1, sizeof(*s));
    compiler c = {NULL, HUDI_MAP_INIT};
    int rc = 0;
    if (!s || !(s->json = hudi_strndup((const char *)json.data, json.len))) {
        rc = hudi_error_oom(err);
        goto done;
    }
    if (strlen(s->json) != json.len) {
        rc = hudi_error_set(err, HUDI_ECORRUPT, "avro schema: NUL byte in schema JSON");
        goto done;
    }
    if (avro_schema_from_json_length(s->json, json.len, &s->raw) != 0) {
        s->raw = NULL;
        rc = hudi_error_set(err, HUDI_ECORRUPT, "avro schema: %s", avro_strerror());
        goto done;
    }
    c.arena = &s->arena;
    if (!(s->root = compile(&c, s->raw, 0))) {
        rc =
            hudi_error_set(err, HUDI_ECORRUPT, "avro schema: cannot compile (too deep or invalid)");
        goto done;
    }
    min_size(s->root, 0);
    const char *name = avro_schema_name(s->raw), *ns = avro_schema_namespace(s->raw);
    hudi_buf b = HUDI_BUF_INIT;
    if (ns && *ns) hudi_buf_printf(&b, "%s.", ns);
    hudi_buf_puts(&b, name ? name : avro_schema_type_name(s->raw));
    if (hudi_buf_failed(&b)) {
        hudi_buf_dispose(&b);
        rc = hudi_error_oom(err);
        goto done;
    }
    s->name = hudi_buf_detach(&b);
done:
    hudi_map_dispose(&c.seen);
    if (rc < 0)
        hudi_avro_schema_free(s);
    else
        *out = s;
    return rc;
}

void hudi_avro_schema_free(hudi_avro_schema *s) {
    if (!s) return;
    if (s->raw) avro_schema_decref(s->raw);
    hudi_arena_dispose(&s->arena);
    hudi_free(s->json);
    hudi_free(s->name);
    hudi_free(s);
}

const char *hudi_avro_schema_json(const hudi_avro_schema *s) { return s->json; }
const hudi_avro_node *hudi_avro_schema_root(const hudi_avro_schema *s) { return s->root; }
const char *hudi_avro_schema_name(const hudi_avro_schema *s) { return s->name ? s->name : ""; }

/* ---- binary decoding ---------------------------------------------------------------------- */

typedef struct decoder {
    const uint8_t *p, *end;
    hudi_arena *arena;
    size_t budget; /* values still allowed */
    hudi_error *err;
} decoder;

static int corrupt(decoder *d, const char *what) {
    return hudi_error_set(d->err, HUDI_ECORRUPT, "avro: %s", what);
}

static int read_long(decoder *d, int64_t *out) {
    uint64_t v = 0;
    *out = 0; /* defined on every path, also when the read fails */
    for (int shift = 0; shift < 64; shift += 7) {
        if (d->p >= d->end) return corrupt(d, "truncated varint");
        uint8_t b = *d->p++;
        if (shift == 63 && (b & 0x7E)) return corrupt(d, "varint overflows 64 bits");
        v |= (uint64_t)(b & 0x7F) << shift;
        if (!(b & 0x80)) {
            *out = (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
            return 0;
        }
    }
    return corrupt(d, "varint too long");
}

static int read_len(decoder *d, size_t *out) {
    int64_t n = 0;
    *out = 0; /* defined on every path, also when the read fails */
    int rc = read_long(d, &n);
    if (rc < 0) return rc;
    if (n < 0 || (uint64_t)n > (uint64_t)(d->end - d->p)) return corrupt(d, "length out of range");
    *out = (size_t)n;
    return 0;
}

static int copy_bytes(decoder *d, size_t n, hudi_slice *out) {
    uint8_t *s = hudi_arena_alloc(d->arena, n + 1);
    if (!s) return hudi_error_oom(d->err);
    memcpy(s, d->p, n);
    s[n] = 0;
    d->p += n;
    *out = HUDI_SLICE(s, n);
    return 0;
}

static int decode_node(decoder *d, const anode *n, hudi_avro_value *out, int depth);

/* Arrays and maps: blocks of (count, [byte size,] items) ended by a zero count. */
static int decode_blocks(decoder *d, const anode *n, hudi_avro_value *out, int depth) {
    hudi_vec items = HUDI_VEC_INIT(hudi_avro_value), keys = HUDI_VEC_INIT(hudi_slice);
    const anode *item = n->kids[0];
    size_t item_min = item->min_size + (n->type == HUDI_AVRO_MAP);
    int rc = 0;
    for (;;) {
        int64_t count, size;
        if ((rc = read_long(d, &count)) < 0) goto done;
        if (count == 0) break;
        if (count < 0) {
            if (count == INT64_MIN) {
                rc = corrupt(d, "block count out of range");
                goto done;
            }
            count = -count;
            if ((rc = read_long(d, &size)) < 0) goto done;
        }
        size_t left = (size_t)(d->end - d->p);
        if ((uint64_t)count > d->budget || (item_min && (uint64_t)count > left / item_min)) {
            rc = corrupt(d, "block count larger than the data");
            goto done;
        }
        d->budget -= (size_t)count;
        if (hudi_vec_reserve(&items, (size_t)count) < 0 ||
            (n->type == HUDI_AVRO_MAP && hudi_vec_reserve(&keys, (size_t)count) < 0)) {
            rc = hudi_error_oom(d->err);
            goto done;
        }
        for (int64_t i = 0; i < count; i++) {
            if (n->type == HUDI_AVRO_MAP) {
                size_t klen;
                hudi_slice *k = hudi_vec_push(&keys);
                if ((rc = read_len(d, &klen)) < 0 || (rc = copy_bytes(d, klen, k)) < 0) goto done;
            }
            hudi_avro_value *v = hudi_vec_push(&items);
            if ((rc = decode_node(d, item, v, depth + 1)) < 0) goto done;
        }
    }
    out->count = items.len;
    if (items.len) {
        out->items = hudi_arena_alloc(d->arena, items.len * sizeof(hudi_avro_value));
        if (n->type == HUDI_AVRO_MAP)
            out->keys = hudi_arena_alloc(d->arena, keys.len * sizeof(hudi_slice));
        if (!out->items || (n->type == HUDI_AVRO_MAP && !out->keys)) {
            rc = hudi_error_oom(d->err);
            goto done;
        }
        memcpy(out->items, items.data, items.len * sizeof(hudi_avro_value));
        if (n->type == HUDI_AVRO_MAP) memcpy(out->keys, keys.data, keys.len * sizeof(hudi_slice));
    }
done:
    hudi_vec_dispose(&items);
    hudi_vec_dispose(&keys);
    return rc;
}

static int decode_node(decoder *d, const anode *n, hudi_avro_value *out, int depth) {
    int64_t v;
    size_t len;
    int rc = 0;
    if (depth > HUDI_AVRO_MAX_DEPTH) return corrupt(d, "values nested too deeply");
    memset(out, 0, sizeof(*out));
    out->branch = -1;
    if (n->type == NODE_UNION) {
        if ((rc = read_long(d, &v)) < 0) return rc;
        if (v < 0 || (uint64_t)v >= n->n) return corrupt(d, "union branch out of range");
        if ((rc = decode_node(d, n->kids[v], out, depth + 1)) < 0) return rc;
        out->branch = (int32_t)v;
        return 0;
    }
    out->type = (hudi_avro_type)n->type;
    switch (n->type) {
    case HUDI_AVRO_NULL: return 0;
    case HUDI_AVRO_BOOLEAN:
        if (d->p >= d->end) return corrupt(d, "truncated boolean");
        if (*d->p > 1) return corrupt(d, "boolean byte not 0 or 1");
        out->v.b = *d->p++ == 1;
        return 0;
    case HUDI_AVRO_INT:
        if ((rc = read_long(d, &v)) < 0) return rc;
        if (v < INT32_MIN || v > INT32_MAX) return corrupt(d, "int out of range");
        out->v.i = v;
        return 0;
    case HUDI_AVRO_LONG: return read_long(d, &out->v.i);
    case HUDI_AVRO_FLOAT: {
        if (d->end - d->p < 4) return corrupt(d, "truncated float");
        float f;
        memcpy(&f, d->p, 4);
        d->p += 4;
        out->v.d = f;
        return 0;
    }
    case HUDI_AVRO_DOUBLE:
        if (d->end - d->p < 8) return corrupt(d, "truncated double");
        memcpy(&out->v.d, d->p, 8);
        d->p += 8;
        return 0;
    case HUDI_AVRO_BYTES:
    case HUDI_AVRO_STRING:
        if ((rc = read_len(d, &len)) < 0) return rc;
        return copy_bytes(d, len, &out->bytes);
    case HUDI_AVRO_FIXED:
        if ((uint64_t)n->fixed_size > (uint64_t)(d->end - d->p))
            return corrupt(d, "truncated fixed");
        return copy_bytes(d, (size_t)n->fixed_size, &out->bytes);
    case HUDI_AVRO_ENUM:
        if ((rc = read_long(d, &v)) < 0) return rc;
        if (v < 0 || (uint64_t)v >= n->n) return corrupt(d, "enum index out of range");
        out->v.i = v;
        out->bytes = n->names[v];
        return 0;
    case HUDI_AVRO_ARRAY:
    case HUDI_AVRO_MAP: return decode_blocks(d, n, out, depth);
    case HUDI_AVRO_RECORD:
        if (n->n > d->budget) return corrupt(d, "too many values");
        d->budget -= n->n;
        out->count = n->n;
        out->keys = n->names;
        if (n->n && !(out->items = hudi_arena_alloc(d->arena, n->n * sizeof(hudi_avro_value))))
            return hudi_error_oom(d->err);
        for (size_t i = 0; i < n->n && rc == 0; i++)
            rc = decode_node(d, n->kids[i], &out->items[i], depth + 1);
        return rc;
    default: return corrupt(d, "unknown schema node");
    }
}

int hudi_avro_decode(hudi_avro_value *out, size_t count, const hudi_avro_schema *schema,
                     hudi_slice data, size_t *consumed, hudi_arena *arena, hudi_error *err) {
    decoder d = {data.data, data.data + data.len, arena, 0, err};
    /* Every value but nulls and empty records takes a byte; allow a generous multiple. */
    d.budget = data.len > (SIZE_MAX - (1u << 20)) / 16 ? SIZE_MAX : (1u << 20) + data.len * 16;
    if (data.len == 0) d.p = d.end = (const uint8_t *)"";
    for (size_t i = 0; i < count; i++) {
        int rc = decode_node(&d, schema->root, &out[i], 0);
        if (rc < 0) return rc;
    }
    if (consumed) *consumed = (size_t)(d.p - (data.len ? data.data : d.end));
    return 0;
}

/* ---- binary encoding ---------------------------------------------------------------------- */

void hudi_avro_put_long(hudi_buf *b, int64_t v) {
    uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
    uint8_t s[10];
    size_t n = 0;
    do {
        uint8_t byte = z & 0x7F;
        z >>= 7;
        s[n++] = (uint8_t)(byte | (z ? 0x80 : 0));
    } while (z);
    hudi_buf_append(b, s, n);
}

static bool branch_fits(const anode *n, const hudi_avro_value *v) {
    if (n->type == (int)v->type) return true;
    /* Allow widening the way Avro resolution does. */
    if (v->type == HUDI_AVRO_INT && (n->type == HUDI_AVRO_LONG)) return true;
    if ((v->type == HUDI_AVRO_FLOAT) && n->type == HUDI_AVRO_DOUBLE) return true;
    return false;
}

static int encode_node(hudi_buf *b, const anode *n, const hudi_avro_value *v, int depth,
                       hudi_error *err) {
    if (depth > HUDI_AVRO_MAX_DEPTH)
        return hudi_error_set(err, HUDI_EINVAL, "avro encode: values nested too deeply");
    if (n->type == NODE_UNION) {
        size_t k = n->n;
        if (v->branch >= 0 && (size_t)v->branch < n->n && branch_fits(n->kids[v->branch], v))
            k = (size_t)v->branch;
        for (size_t i = 0; k == n->n && i < n->n; i++)
            if (branch_fits(n->kids[i], v)) k = i;
        if (k == n->n)
            return hudi_error_set(err, HUDI_EINVAL,
                                  "avro encode: no union branch for a value of type %d",
                                  (int)v->type);
        hudi_avro_put_long(b, (int64_t)k);
        return encode_node(b, n->kids[k], v, depth + 1, err);
    }
    if (!branch_fits(n, v))
        return hudi_error_set(err, HUDI_EINVAL, "avro encode: value type %d where schema has %d",
                              (int)v->type, n->type);
    switch (n->type) {
    case HUDI_AVRO_NULL: return 0;
    case HUDI_AVRO_BOOLEAN: hudi_buf_putc(b, v->v.b ? 1 : 0); return 0;
    case HUDI_AVRO_INT:
    case HUDI_AVRO_LONG: hudi_avro_put_long(b, v->v.i); return 0;
    case HUDI_AVRO_FLOAT: {
        float f = (float)v->v.d;
        hudi_buf_append(b, &f, 4);
        return 0;
    }
    case HUDI_AVRO_DOUBLE: hudi_buf_append(b, &v->v.d, 8); return 0;
    case HUDI_AVRO_BYTES:
    case HUDI_AVRO_STRING:
        hudi_avro_put_long(b, (int64_t)v->bytes.len);
        hudi_buf_append(b, v->bytes.data, v->bytes.len);
        return 0;
    case HUDI_AVRO_FIXED:
        if ((int64_t)v->bytes.len != n->fixed_size)
            return hudi_error_set(err, HUDI_EINVAL,
                                  "avro encode: fixed of %zu bytes, schema says %lld", v->bytes.len,
                                  (long long)n->fixed_size);
        hudi_buf_append(b, v->bytes.data, v->bytes.len);
        return 0;
    case HUDI_AVRO_ENUM: {
        int64_t idx = v->v.i;
        for (size_t i = 0; v->bytes.data && i < n->n; i++)
            if (hudi_slice_eq(n->names[i], v->bytes)) idx = (int64_t)i;
        if (idx < 0 || (uint64_t)idx >= n->n)
            return hudi_error_set(err, HUDI_EINVAL, "avro encode: enum symbol out of range");
        hudi_avro_put_long(b, idx);
        return 0;
    }
    case HUDI_AVRO_ARRAY:
    case HUDI_AVRO_MAP:
        if (v->count) {
            hudi_avro_put_long(b, (int64_t)v->count);
            for (size_t i = 0; i < v->count; i++) {
                if (n->type == HUDI_AVRO_MAP) {
                    hudi_avro_put_long(b, (int64_t)v->keys[i].len);
                    hudi_buf_append(b, v->keys[i].data, v->keys[i].len);
                }
                int rc = encode_node(b, n->kids[0], &v->items[i], depth + 1, err);
                if (rc < 0) return rc;
            }
        }
        hudi_avro_put_long(b, 0);
        return 0;
    case HUDI_AVRO_RECORD:
        if (v->count != n->n)
            return hudi_error_set(err, HUDI_EINVAL,
                                  "avro encode: record with %zu fields, schema has %zu", v->count,
                                  n->n);
        for (size_t i = 0; i < n->n; i++) {
            int rc = encode_node(b, n->kids[i], &v->items[i], depth + 1, err);
            if (rc < 0) return rc;
        }
        return 0;
    default: return hudi_error_set(err, HUDI_EINVAL, "avro encode: unknown schema node");
    }
}

int hudi_avro_encode(hudi_buf *out, const hudi_avro_schema *schema, const hudi_avro_value *v,
                     hudi_error *err) {
    int rc = encode_node(out, schema->root, v, 0, err);
    if (rc == 0 && hudi_buf_failed(out)) rc = hudi_error_oom(err);
    return rc;
}

/* ---- object container files --------------------------------------------------------------- */

static const uint8_t MAGIC[4] = {'O', 'b', 'j', 1};

bool hudi_avro_is_container(hudi_slice file) {
    return file.len >= 4 && memcmp(file.data, MAGIC, 4) == 0;
}

/* Raw deflate (RFC 1951), as the Avro "deflate" codec stores blocks. */
static int inflate_block(hudi_buf *out, hudi_slice in, hudi_error *err) {
    z_stream z;
    memset(&z, 0, sizeof(z));
    if (inflateInit2(&z, -15) != Z_OK) return hudi_error_oom(err);
    z.next_in = (Bytef *)in.data;
    z.avail_in = (uInt)in.len;
    int zrc = Z_OK, rc = 0;
    const size_t limit = (size_t)1 << 30; /* refuse decompression bombs */
    while (zrc != Z_STREAM_END) {
        if (out->len >= limit || hudi_buf_grow(out, out->len < 4096 ? 4096 : out->len) < 0) {
            rc = out->len >= limit
                     ? hudi_error_set(err, HUDI_ECORRUPT, "avro: deflate block too large")
                     : hudi_error_oom(err);
            break;
        }
        z.next_out = (Bytef *)out->data + out->len;
        z.avail_out = (uInt)HUDI_MIN(out->cap - out->len - 1, (size_t)UINT32_MAX);
        uInt before = z.avail_out;
        zrc = inflate(&z, Z_NO_FLUSH);
        out->len += before - z.avail_out;
        if (zrc != Z_OK && zrc != Z_STREAM_END) {
            rc = hudi_error_set(err, HUDI_ECORRUPT, "avro: bad deflate block");
            break;
        }
        if (zrc == Z_OK && z.avail_in == 0 && z.avail_out != 0) {
            rc = hudi_error_set(err, HUDI_ECORRUPT, "avro: truncated deflate block");
            break;
        }
    }
    inflateEnd(&z);
    if (out->data) out->data[out->len] = 0;
    return rc;
}

typedef struct header {
    hudi_slice schema, codec;
    uint8_t sync[16];
} header;

static int read_header(decoder *d, header *h) {
    int rc;
    if (d->end - d->p < 4 || memcmp(d->p, MAGIC, 4) != 0)
        return corrupt(d, "not an Avro container file");
    d->p += 4;
    for (;;) {
        int64_t count, size;
        if ((rc = read_long(d, &count)) < 0) return rc;
        if (count == 0) break;
        if (count < 0) {
            if (count == INT64_MIN) return corrupt(d, "bad metadata count");
            count = -count;
            if ((rc = read_long(d, &size)) < 0) return rc;
        }
        if ((uint64_t)count > (uint64_t)(d->end - d->p) / 2)
            return corrupt(d, "bad metadata count");
        for (int64_t i = 0; i < count; i++) {
            size_t klen, vlen;
            if ((rc = read_len(d, &klen)) < 0) return rc;
            hudi_slice key = HUDI_SLICE(d->p, klen);
            d->p += klen;
            if ((rc = read_len(d, &vlen)) < 0) return rc;
            hudi_slice val = HUDI_SLICE(d->p, vlen);
            d->p += vlen;
            if (hudi_slice_eq(key, hudi_slice_cstr("avro.schema")))
                h->schema = val;
            else if (hudi_slice_eq(key, hudi_slice_cstr("avro.codec")))
                h->codec = val;
        }
    }
    if (d->end - d->p < 16) return corrupt(d, "truncated sync marker");
    memcpy(h->sync, d->p, 16);
    d->p += 16;
    if (!h->schema.data) return corrupt(d, "container header has no avro.schema");
    return 0;
}

void hudi_avro_container_dispose(hudi_avro_container *c) {
    hudi_avro_schema_free(c->schema);
    hudi_arena_dispose(&c->arena);
    *c = (hudi_avro_container)HUDI_AVRO_CONTAINER_INIT;
}

/* Decodes one data block's records and appends them to `recs`. */
static int read_block(decoder *d, hudi_avro_container *out, const header *h, bool deflate,
                      hudi_vec *recs) {
    int64_t count;
    size_t size;
    int rc;
    hudi_buf inflated = HUDI_BUF_INIT;
    if ((rc = read_long(d, &count)) < 0 || (rc = read_len(d, &size)) < 0) return rc;
    hudi_slice data = HUDI_SLICE(d->p, size);
    d->p += size;
    if (d->end - d->p < 16 || memcmp(d->p, h->sync, 16) != 0) return corrupt(d, "bad sync marker");
    d->p += 16;
    if (count < 0) return corrupt(d, "negative block count");
    if (deflate) {
        if ((rc = inflate_block(&inflated, data, d->err)) < 0) goto done;
        data = HUDI_SLICE(inflated.data, inflated.len);
    }
    size_t min = out->schema->root->min_size;
    if ((uint64_t)count > d->budget || (min && (uint64_t)count > data.len / min)) {
        rc = corrupt(d, "block count larger than the data");
        goto done;
    }
    d->budget -= (size_t)count;
    if (hudi_vec_reserve(recs, (size_t)count) < 0) {
        rc = hudi_error_oom(d->err);
        goto done;
    }
    size_t used = 0;
    hudi_avro_value *dst = (hudi_avro_value *)recs->data + recs->len;
    rc = hudi_avro_decode(dst, (size_t)count, out->schema, data, &used, &out->arena, d->err);
    if (rc == 0 && used != data.len) rc = corrupt(d, "trailing bytes in data block");
    if (rc == 0) recs->len += (size_t)count;
done:
    hudi_buf_dispose(&inflated);
    return rc;
}

int hudi_avro_container_read(hudi_avro_container *out, hudi_slice file, hudi_error *err) {
    *out = (hudi_avro_container)HUDI_AVRO_CONTAINER_INIT;
    decoder d = {file.data, file.data + file.len, NULL, 0, err};
    d.budget = file.len > (SIZE_MAX - (1u << 20)) / 16 ? SIZE_MAX : (1u << 20) + file.len * 16;
    header h;
    memset(&h, 0, sizeof(h));
    hudi_vec recs = HUDI_VEC_INIT(hudi_avro_value);
    int rc = read_header(&d, &h);
    if (rc < 0) goto done;
    bool deflate = false;
    if (h.codec.data && !hudi_slice_eq(h.codec, hudi_slice_cstr("null"))) {
        if (!hudi_slice_eq(h.codec, hudi_slice_cstr("deflate"))) {
            rc = hudi_error_set(err, HUDI_EUNSUPPORTED, "avro: unsupported codec %.*s",
                                (int)HUDI_MIN(h.codec.len, 32), (const char *)h.codec.data);
            goto done;
        }
        deflate = true;
    }
    if ((rc = hudi_avro_schema_parse(&out->schema, h.schema, err)) < 0) goto done;
    while (d.p < d.end)
        if ((rc = read_block(&d, out, &h, deflate, &recs)) < 0) goto done;
    if (recs.len) {
        out->records = hudi_arena_alloc(&out->arena, recs.len * sizeof(hudi_avro_value));
        if (!out->records) {
            rc = hudi_error_oom(err);
            goto done;
        }
        memcpy(out->records, recs.data, recs.len * sizeof(hudi_avro_value));
    }
    out->count = recs.len;
done:
    hudi_vec_dispose(&recs);
    if (rc < 0) hudi_avro_container_dispose(out);
    return rc;
}

static void put_bytes(hudi_buf *b, const void *data, size_t len) {
    hudi_avro_put_long(b, (int64_t)len);
    hudi_buf_append(b, data, len);
}

int hudi_avro_container_write(hudi_buf *out, const hudi_avro_schema *schema,
                              const hudi_avro_value *records, size_t count, const uint8_t sync[16],
                              hudi_error *err) {
    uint8_t marker[16];
    if (sync) {
        memcpy(marker, sync, 16);
    } else if (getrandom(marker, sizeof(marker), 0) != (ssize_t)sizeof(marker)) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t a = hudi_hash64(&ts, sizeof(ts)), bb = hudi_hash64(&a, sizeof(a));
        memcpy(marker, &a, 8);
        memcpy(marker + 8, &bb, 8);
    }
    hudi_buf block = HUDI_BUF_INIT;
    int rc = 0;
    for (size_t i = 0; i < count && rc == 0; i++)
        rc = hudi_avro_encode(&block, schema, &records[i], err);
    if (rc == 0) {
        hudi_buf_append(out, MAGIC, 4);
        hudi_avro_put_long(out,
                           1); /* one metadata entry: avro.schema, no codec (= null), as Hudi */
        put_bytes(out, "avro.schema", 11);
        put_bytes(out, schema->json, strlen(schema->json));
        hudi_avro_put_long(out, 0);
        hudi_buf_append(out, marker, 16);
        if (count) {
            hudi_avro_put_long(out, (int64_t)count);
            put_bytes(out, block.data, block.len);
            hudi_buf_append(out, marker, 16);
        }
        if (hudi_buf_failed(out)) rc = hudi_error_oom(err);
    }
    hudi_buf_dispose(&block);
    return rc;
}

/* ---- JSON ----------------------------------------------------------------------------------- */

/* A JSON string of UTF-8 text; invalid sequences become U+FFFD so the output is valid JSON. */
static void put_json_utf8(hudi_buf *b, hudi_slice s) {
    hudi_buf_putc(b, '"');
    const uint8_t *p = s.data, *end = s.data + s.len;
    while (p < end) {
        uint8_t c = *p;
        if (c < 0x80) {
            if (c == '"' || c == '\\')
                hudi_buf_putc(b, '\\'), hudi_buf_putc(b, (char)c);
            else if (c == '\n')
                hudi_buf_puts(b, "\\n");
            else if (c == '\t')
                hudi_buf_puts(b, "\\t");
            else if (c == '\r')
                hudi_buf_puts(b, "\\r");
            else if (c < 0x20 || c == 0x7F)
                hudi_buf_printf(b, "\\u%04x", c);
            else
                hudi_buf_putc(b, (char)c);
            p++;
            continue;
        }
        size_t n = hudi_utf8_seq_len(p, (size_t)(end - p));
        if (n) {
            hudi_buf_append(b, p, n);
            p += n;
        } else {
            hudi_buf_puts(b, "\\ufffd");
            p++;
        }
    }
    hudi_buf_putc(b, '"');
}

/* Bytes as a string of code points U+0000..U+00FF (Avro's JSON convention). */
static void put_json_latin1(hudi_buf *b, hudi_slice s) {
    hudi_buf_putc(b, '"');
    for (size_t i = 0; i < s.len; i++) {
        uint8_t c = s.data[i];
        if (c == '"' || c == '\\')
            hudi_buf_putc(b, '\\'), hudi_buf_putc(b, (char)c);
        else if (c < 0x20 || c >= 0x7F)
            hudi_buf_printf(b, "\\u%04x", c);
        else
            hudi_buf_putc(b, (char)c);
    }
    hudi_buf_putc(b, '"');
}

static void put_json(hudi_buf *b, const hudi_avro_value *v, int depth) {
    if (depth > 2 * HUDI_AVRO_MAX_DEPTH) {
        hudi_buf_puts(b, "null");
        return;
    }
    switch (v->type) {
    case HUDI_AVRO_NULL: hudi_buf_puts(b, "null"); break;
    case HUDI_AVRO_BOOLEAN: hudi_buf_puts(b, v->v.b ? "true" : "false"); break;
    case HUDI_AVRO_INT:
    case HUDI_AVRO_LONG: hudi_buf_printf(b, "%lld", (long long)v->v.i); break;
    case HUDI_AVRO_FLOAT:
        if (isfinite(v->v.d))
            hudi_buf_printf(b, "%.9g", v->v.d);
        else
            hudi_buf_puts(b, "null");
        break;
    case HUDI_AVRO_DOUBLE:
        if (isfinite(v->v.d))
            hudi_buf_printf(b, "%.17g", v->v.d);
        else
            hudi_buf_puts(b, "null");
        break;
    case HUDI_AVRO_STRING:
    case HUDI_AVRO_ENUM: put_json_utf8(b, v->bytes); break;
    case HUDI_AVRO_BYTES:
    case HUDI_AVRO_FIXED: put_json_latin1(b, v->bytes); break;
    case HUDI_AVRO_ARRAY:
        hudi_buf_putc(b, '[');
        for (size_t i = 0; i < v->count; i++) {
            if (i) hudi_buf_putc(b, ',');
            put_json(b, &v->items[i], depth + 1);
        }
        hudi_buf_putc(b, ']');
        break;
    case HUDI_AVRO_MAP:
    case HUDI_AVRO_RECORD:
        hudi_buf_putc(b, '{');
        for (size_t i = 0; i < v->count; i++) {
            if (i) hudi_buf_putc(b, ',');
            put_json_utf8(b, v->keys[i]);
            hudi_buf_putc(b, ':');
            put_json(b, &v->items[i], depth + 1);
        }
        hudi_buf_putc(b, '}');
        break;
    }
}

int hudi_avro_value_to_json(hudi_buf *out, const hudi_avro_value *v, hudi_error *err) {
    put_json(out, v, 0);
    return hudi_buf_failed(out) ? hudi_error_oom(err) : 0;
}

int hudi_avro_container_to_json(hudi_buf *out, hudi_slice file, hudi_error *err) {
    hudi_avro_container c;
    int rc = hudi_avro_container_read(&c, file, err);
    if (rc < 0) return rc;
    if (c.count != 1)
        rc = hudi_error_set(err, HUDI_ECORRUPT, "avro: expected one record, found %zu", c.count);
    else
        rc = hudi_avro_value_to_json(out, &c.records[0], err);
    hudi_avro_container_dispose(&c);
    return rc;
}
