/* log.c - log files: block framing, header and footer maps, delete blocks, ordering values and
 * block writing (docs/formats/log-file.md). Avro data blocks are in log_avro.c.
 *
 * Every integer of the framing is big-endian (Java's DataOutputStream); the contents of data
 * and delete blocks are Avro binary (little-endian floats, zigzag varints). */
#include "format/log/log.h"

#include <math.h>

#include "format/log/log_int.h"

static const uint8_t MAGIC[6] = {'#', 'H', 'U', 'D', 'I', '#'};

#define MAGIC_LEN 6

static int64_t load_i64be(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = (v << 8) | p[i];
    return (int64_t)v;
}

static int32_t load_i32be(const uint8_t *p) { return (int32_t)hudi_load_u32be(p); }

void hudi_log_put_i32be(hudi_buf *b, int32_t v) {
    uint8_t s[4];
    hudi_store_u32be(s, (uint32_t)v);
    hudi_buf_append(b, s, 4);
}

static void put_i64be(hudi_buf *b, int64_t v) {
    uint8_t s[8];
    for (int i = 7; i >= 0; i--, v = (int64_t)((uint64_t)v >> 8)) s[i] = (uint8_t)v;
    hudi_buf_append(b, s, 8);
}

/* ---- scanning ------------------------------------------------------------------------------ */

static bool magic_at(hudi_slice f, size_t pos) {
    return f.len - pos >= MAGIC_LEN && memcmp(f.data + pos, MAGIC, MAGIC_LEN) == 0;
}

/* The offset of the next magic at or after `from`, or the end of the file. */
static size_t next_magic(hudi_slice f, size_t from) {
    while (from < f.len && f.len - from >= MAGIC_LEN) {
        const uint8_t *hash = memchr(f.data + from, '#', f.len - from - (MAGIC_LEN - 1));
        if (!hash) break;
        from = (size_t)(hash - f.data);
        if (magic_at(f, from)) return from;
        from++;
    }
    return f.len;
}

/* Hudi's corruption check for the block whose size field ends at `p` (docs/formats/log-file.md
 * §6): the size must stay inside the file, the trailing length must be size + 6, and the block
 * must be followed by a magic or the end of the file (fewer than 6 bytes count as the end, as
 * Hudi's reader sees them). */
static bool framed(hudi_slice f, size_t p, int64_t size) {
    if (size < 8 || (uint64_t)size > f.len - p) return false;
    size_t end = p + (size_t)size;
    if (load_i64be(f.data + end - 8) != size + MAGIC_LEN) return false;
    return end == f.len || f.len - end < MAGIC_LEN || magic_at(f, end);
}

typedef struct reader {
    const uint8_t *p, *end;
} reader;

static bool take(reader *r, size_t n, const uint8_t **out) {
    if ((size_t)(r->end - r->p) < n) return false;
    *out = r->p;
    r->p += n;
    return true;
}

static bool take_i32(reader *r, int32_t *v) {
    const uint8_t *s;
    if (!take(r, 4, &s)) return false;
    *v = load_i32be(s);
    return true;
}

static int bad_block(hudi_error *err, const char *name, size_t off, const char *what) {
    return hudi_error_set(err, HUDI_ECORRUPT, "%s: log block at offset %zu: %s", name, off, what);
}

/* A header or footer map: int32 count, then per entry int32 key, int32 length, bytes. */
static int read_map(reader *r, hudi_slice map[HUDI_LOG_META_KEYS], const char *name, size_t off,
                    hudi_error *err) {
    int32_t count;
    if (!take_i32(r, &count) || count < 0 || (size_t)count > (size_t)(r->end - r->p) / 8)
        return bad_block(err, name, off, "metadata count out of range");
    for (int32_t i = 0; i < count; i++) {
        int32_t key, len;
        const uint8_t *val;
        if (!take_i32(r, &key) || !take_i32(r, &len) || len < 0 || !take(r, (size_t)len, &val))
            return bad_block(err, name, off, "metadata entry runs past the block");
        if (key < 0 || key >= HUDI_LOG_META_KEYS)
            return hudi_error_set(err, HUDI_ECORRUPT,
                                  "%s: log block at offset %zu: unknown metadata key %d", name, off,
                                  (int)key);
        map[key] = HUDI_SLICE(val ? val : (const uint8_t *)"", (size_t)len);
    }
    return 0;
}

/* Parses a block that passed the framing check: [start, p + size) with p after the size. */
static int parse_block(hudi_log_block *b, hudi_slice f, size_t start, size_t p, int64_t size,
                       const char *name, hudi_error *err) {
    reader r = {f.data + p, f.data + p + size - 8};
    int32_t version, type;
    int rc;
    b->offset = (int64_t)start;
    b->length = (int64_t)(p - start) + size;
    if (!take_i32(&r, &version) || !take_i32(&r, &type))
        return bad_block(err, name, start, "block too short");
    if (version < 1)
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "%s: log block at offset %zu: log format version %d (legacy) is not "
                              "supported",
                              name, start, (int)version);
    if (type < 0 || type > HUDI_LOG_CDC_DATA_BLOCK || type == HUDI_LOG_CORRUPT_BLOCK)
        return hudi_error_set(err, HUDI_ECORRUPT,
                              "%s: log block at offset %zu: unknown block type %d", name, start,
                              (int)type);
    b->format_version = version;
    b->type = (hudi_log_block_type)type;
    if ((rc = read_map(&r, b->header, name, start, err)) < 0) return rc;
    const uint8_t *s;
    if (!take(&r, 8, &s)) return bad_block(err, name, start, "block too short");
    int64_t clen = load_i64be(s);
    if (clen < 0 || (uint64_t)clen > (uint64_t)(r.end - r.p))
        return bad_block(err, name, start, "content length runs past the block");
    b->content = HUDI_SLICE(r.p, (size_t)clen);
    r.p += clen;
    if ((rc = read_map(&r, b->footer, name, start, err)) < 0) return rc;
    if (r.p != r.end)
        return bad_block(err, name, start, "header, content and footer do not fill the block");
    return 0;
}

int hudi_log_scan(hudi_log_blocks *out, hudi_slice file, const char *name, hudi_error *err) {
    hudi_vec v = HUDI_VEC_INIT(hudi_log_block);
    size_t pos = 0, corrupt = 0;
    int rc = 0;
    *out = (hudi_log_blocks)HUDI_LOG_BLOCKS_INIT;
    if (!name) name = "log file";
    while (pos < file.len) {
        hudi_log_block *b = hudi_vec_push(&v);
        if (!b) {
            rc = hudi_error_oom(err);
            break;
        }
        size_t p = pos + MAGIC_LEN; /* after the magic; then after the size */
        if (magic_at(file, pos) && file.len - p >= 8) {
            int64_t size = load_i64be(file.data + p);
            p += 8;
            if (framed(file, p, size)) {
                if ((rc = parse_block(b, file, pos, p, size, name, err)) < 0) break;
                pos = p + (size_t)size;
                continue;
            }
        } else if (!magic_at(file, pos)) {
            p = pos; /* no magic: the corrupt bytes start here */
        } else {
            p = HUDI_MIN(p, file.len);
        }
        /* corrupt: everything up to the next magic (or the end) */
        size_t next = next_magic(file, p);
        b->type = HUDI_LOG_CORRUPT_BLOCK;
        b->offset = (int64_t)pos;
        b->length = (int64_t)(next - pos);
        b->content = HUDI_SLICE(file.data + p, next - p);
        corrupt++;
        pos = next;
    }
    if (rc < 0) {
        hudi_vec_dispose(&v);
        return rc;
    }
    out->blocks = v.data;
    out->count = v.len;
    out->corrupt = corrupt;
    return 0;
}

void hudi_log_blocks_dispose(hudi_log_blocks *b) {
    if (!b) return;
    hudi_free(b->blocks);
    *b = (hudi_log_blocks)HUDI_LOG_BLOCKS_INIT;
}

/* ---- writing blocks ------------------------------------------------------------------------ */

int hudi_log_block_write(hudi_buf *out, hudi_log_block_type type,
                         const hudi_slice header[HUDI_LOG_META_KEYS], hudi_slice content,
                         hudi_error *err) {
    if (type < 0 || type > HUDI_LOG_CDC_DATA_BLOCK || type == HUDI_LOG_CORRUPT_BLOCK)
        return hudi_error_set(err, HUDI_EINVAL, "log block: cannot write block type %d", (int)type);
    int32_t entries = 0;
    size_t hlen = 4;
    for (int k = 0; header && k < HUDI_LOG_META_KEYS; k++) {
        if (!header[k].data) continue;
        if (header[k].len > INT32_MAX)
            return hudi_error_set(err, HUDI_EINVAL, "log block: header value %d too long", k);
        entries++;
        hlen += 8 + header[k].len;
    }
    if (content.len > (size_t)INT32_MAX - hlen - 64)
        return hudi_error_set(err, HUDI_EINVAL, "log block: content of %zu bytes is too large",
                              content.len);
    /* size: version, type, header, content length, content, footer (empty), trailer */
    int64_t size = (int64_t)(4 + 4 + hlen + 8 + content.len + 4 + 8);
    hudi_buf_append(out, MAGIC, MAGIC_LEN);
    put_i64be(out, size);
    hudi_log_put_i32be(out, 1);
    hudi_log_put_i32be(out, (int32_t)type);
    hudi_log_put_i32be(out, entries);
    for (int k = 0; header && k < HUDI_LOG_META_KEYS; k++) {
        if (!header[k].data) continue;
        hudi_log_put_i32be(out, k);
        hudi_log_put_i32be(out, (int32_t)header[k].len);
        hudi_buf_append(out, header[k].data, header[k].len);
    }
    put_i64be(out, (int64_t)content.len);
    hudi_buf_append(out, content.data, content.len);
    hudi_log_put_i32be(out, 0);
    put_i64be(out, size + MAGIC_LEN);
    return hudi_buf_failed(out) ? hudi_error_oom(err) : 0;
}

/* ---- Avro varints shared with log_avro.c ------------------------------------------------- */

bool hudi_log_read_long(const uint8_t **p, const uint8_t *end, int64_t *out) {
    uint64_t v = 0;
    const uint8_t *s = *p;
    for (int shift = 0; shift < 64; shift += 7) {
        if (s >= end) return false;
        uint8_t b = *s++;
        if (shift == 63 && (b & 0x7E)) return false;
        v |= (uint64_t)(b & 0x7F) << shift;
        if (!(b & 0x80)) {
            *out = (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
            *p = s;
            return true;
        }
    }
    return false;
}

/* ---- delete blocks ------------------------------------------------------------------------- */

typedef struct ddec {
    const uint8_t *p, *end;
    hudi_arena *arena;
    const char *why;
} ddec;

static bool dd_long(ddec *d, int64_t *v) {
    if (hudi_log_read_long(&d->p, d->end, v)) return true;
    d->why = "truncated or overlong varint";
    return false;
}

/* Avro bytes/string: a length then the bytes, copied into the arena (NUL-terminated). */
static bool dd_bytes(ddec *d, hudi_slice *out) {
    int64_t n;
    if (!dd_long(d, &n)) return false;
    if (n < 0 || (uint64_t)n > (uint64_t)(d->end - d->p)) {
        d->why = "length out of range";
        return false;
    }
    uint8_t *s = hudi_arena_alloc(d->arena, (size_t)n + 1);
    if (!s) {
        d->why = NULL; /* out of memory */
        return false;
    }
    memcpy(s, d->p, (size_t)n);
    d->p += n;
    *out = HUDI_SLICE(s, (size_t)n);
    return true;
}

/* union {null, string}: ptr NULL for null */
static bool dd_opt_string(ddec *d, hudi_slice *out) {
    int64_t branch;
    if (!dd_long(d, &branch)) return false;
    *out = HUDI_SLICE(NULL, 0);
    if (branch == 0) return true;
    if (branch != 1) {
        d->why = "union branch out of range";
        return false;
    }
    return dd_bytes(d, out);
}

/* The orderingVal union: branch 0 null, 1..11 a wrapper record {value}. */
static bool dd_ordering(ddec *d, hudi_log_ordering *o) {
    int64_t branch, v;
    memset(o, 0, sizeof(*o));
    if (!dd_long(d, &branch)) return false;
    if (branch < 0 || branch > HUDI_LOG_ORDER_TIMESTAMP) {
        d->why = branch == 12 ? "orderingVal ArrayWrapper (Hudi 1.x) is not supported"
                              : "orderingVal union branch out of range";
        return false;
    }
    o->kind = (hudi_log_ordering_kind)branch;
    switch (o->kind) {
    case HUDI_LOG_ORDER_NULL: return true;
    case HUDI_LOG_ORDER_BOOLEAN:
        if (d->p >= d->end || *d->p > 1) {
            d->why = d->p >= d->end ? "truncated boolean" : "boolean byte not 0 or 1";
            return false;
        }
        o->i = *d->p++;
        return true;
    case HUDI_LOG_ORDER_INT:
    case HUDI_LOG_ORDER_DATE:
        if (!dd_long(d, &v)) return false;
        if (v < INT32_MIN || v > INT32_MAX) {
            d->why = "int out of range";
            return false;
        }
        o->i = v;
        return true;
    case HUDI_LOG_ORDER_LONG:
    case HUDI_LOG_ORDER_TIME:
    case HUDI_LOG_ORDER_TIMESTAMP: return dd_long(d, &o->i);
    case HUDI_LOG_ORDER_FLOAT:
    case HUDI_LOG_ORDER_DOUBLE: {
        size_t w = o->kind == HUDI_LOG_ORDER_FLOAT ? 4 : 8;
        if ((size_t)(d->end - d->p) < w) {
            d->why = "truncated floating-point value";
            return false;
        }
        if (w == 4) {
            float f;
            memcpy(&f, d->p, 4);
            o->d = f;
        } else {
            memcpy(&o->d, d->p, 8);
        }
        d->p += w;
        return true;
    }
    case HUDI_LOG_ORDER_BYTES:
    case HUDI_LOG_ORDER_STRING:
    case HUDI_LOG_ORDER_DECIMAL: return dd_bytes(d, &o->bytes);
    }
    return false;
}

int hudi_log_delete_block_read(hudi_log_deletes *out, const hudi_log_block *b, const char *name,
                               hudi_error *err) {
    *out = (hudi_log_deletes)HUDI_LOG_DELETES_INIT;
    if (!name) name = "log file";
    size_t off = (size_t)b->offset;
    if (b->type != HUDI_LOG_DELETE_BLOCK)
        return hudi_error_set(err, HUDI_EINVAL, "%s: log block at offset %zu is not a delete block",
                              name, off);
    if (b->content.len < 4) return bad_block(err, name, off, "delete block content too short");
    int32_t version = load_i32be(b->content.data);
    if (version == 1 || version == 2)
        return hudi_error_set(
            err, HUDI_EUNSUPPORTED,
            "%s: log block at offset %zu: delete block version %d (Java-serialised "
            "keys of older Hudi releases) is not supported",
            name, off, (int)version);
    if (version != 3)
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "%s: log block at offset %zu: delete block version %d", name, off,
                              (int)version);
    if (b->content.len < 8) return bad_block(err, name, off, "delete block content too short");
    int32_t dlen = load_i32be(b->content.data + 4);
    if (dlen < 0 || (size_t)dlen > b->content.len - 8)
        return bad_block(err, name, off, "delete block data length out of range");
    ddec d = {b->content.data + 8, b->content.data + 8 + dlen, &out->arena, NULL};
    hudi_vec items = HUDI_VEC_INIT(hudi_log_delete);
    int rc = 0;
    for (;;) {
        int64_t count, bytes;
        if (!dd_long(&d, &count)) goto fail;
        if (count == 0) break;
        if (count < 0) {
            if (count == INT64_MIN || !dd_long(&d, &bytes)) {
                d.why = d.why ? d.why : "array block count out of range";
                goto fail;
            }
            count = -count;
        }
        /* each delete takes at least three union bytes */
        if ((uint64_t)count > (uint64_t)(d.end - d.p) / 3) {
            d.why = "array block count larger than the data";
            goto fail;
        }
        if (hudi_vec_reserve(&items, (size_t)count) < 0) {
            rc = hudi_error_oom(err);
            goto done;
        }
        for (int64_t i = 0; i < count; i++) {
            hudi_log_delete *del = hudi_vec_push(&items);
            if (!dd_opt_string(&d, &del->record_key) || !dd_opt_string(&d, &del->partition_path) ||
                !dd_ordering(&d, &del->ordering))
                goto fail;
        }
    }
    if (items.len) {
        out->items = hudi_arena_alloc(&out->arena, items.len * sizeof(hudi_log_delete));
        if (!out->items) {
            rc = hudi_error_oom(err);
            goto done;
        }
        memcpy(out->items, items.data, items.len * sizeof(hudi_log_delete));
    }
    out->count = items.len;
    goto done;
fail:
    if (!d.why)
        rc = hudi_error_oom(err);
    else
        rc = hudi_error_set(err, HUDI_ECORRUPT, "%s: log block at offset %zu: delete %zu: %s", name,
                            off, items.len ? items.len - 1 : 0, d.why);
done:
    hudi_vec_dispose(&items);
    if (rc < 0) hudi_log_deletes_dispose(out);
    return rc;
}

void hudi_log_deletes_dispose(hudi_log_deletes *d) {
    if (!d) return;
    hudi_arena_dispose(&d->arena);
    *d = (hudi_log_deletes)HUDI_LOG_DELETES_INIT;
}

static void put_opt_string(hudi_buf *b, hudi_slice s) {
    if (!s.data) {
        hudi_avro_put_long(b, 0);
        return;
    }
    hudi_avro_put_long(b, 1);
    hudi_avro_put_long(b, (int64_t)s.len);
    hudi_buf_append(b, s.data, s.len);
}

static int put_ordering(hudi_buf *b, const hudi_log_ordering *o, hudi_error *err) {
    if (o->kind < HUDI_LOG_ORDER_NULL || o->kind > HUDI_LOG_ORDER_TIMESTAMP)
        return hudi_error_set(err, HUDI_EINVAL, "delete block: bad ordering value kind %d",
                              (int)o->kind);
    hudi_avro_put_long(b, (int64_t)o->kind);
    switch (o->kind) {
    case HUDI_LOG_ORDER_NULL: break;
    case HUDI_LOG_ORDER_BOOLEAN: hudi_buf_putc(b, o->i ? 1 : 0); break;
    case HUDI_LOG_ORDER_INT:
    case HUDI_LOG_ORDER_DATE:
        if (o->i < INT32_MIN || o->i > INT32_MAX)
            return hudi_error_set(err, HUDI_EINVAL, "delete block: int ordering value %lld",
                                  (long long)o->i);
        hudi_avro_put_long(b, o->i);
        break;
    case HUDI_LOG_ORDER_LONG:
    case HUDI_LOG_ORDER_TIME:
    case HUDI_LOG_ORDER_TIMESTAMP: hudi_avro_put_long(b, o->i); break;
    case HUDI_LOG_ORDER_FLOAT: {
        float f = (float)o->d;
        hudi_buf_append(b, &f, 4);
        break;
    }
    case HUDI_LOG_ORDER_DOUBLE: hudi_buf_append(b, &o->d, 8); break;
    case HUDI_LOG_ORDER_BYTES:
    case HUDI_LOG_ORDER_STRING:
    case HUDI_LOG_ORDER_DECIMAL:
        hudi_avro_put_long(b, (int64_t)o->bytes.len);
        hudi_buf_append(b, o->bytes.data, o->bytes.len);
        break;
    }
    return 0;
}

int hudi_log_delete_block_encode(hudi_buf *out, const hudi_log_delete *deletes, size_t count,
                                 hudi_error *err) {
    hudi_buf data = HUDI_BUF_INIT;
    int rc = 0;
    if (count) {
        hudi_avro_put_long(&data, (int64_t)count);
        for (size_t i = 0; i < count && rc == 0; i++) {
            put_opt_string(&data, deletes[i].record_key);
            put_opt_string(&data, deletes[i].partition_path);
            rc = put_ordering(&data, &deletes[i].ordering, err);
        }
    }
    hudi_avro_put_long(&data, 0);
    if (rc == 0 && data.len > INT32_MAX)
        rc = hudi_error_set(err, HUDI_EINVAL, "delete block: %zu bytes is too large", data.len);
    if (rc == 0) {
        hudi_log_put_i32be(out, 3);
        hudi_log_put_i32be(out, (int32_t)data.len);
        hudi_buf_append(out, data.data, data.len);
        if (hudi_buf_failed(out) || hudi_buf_failed(&data)) rc = hudi_error_oom(err);
    }
    hudi_buf_dispose(&data);
    return rc;
}

/* ---- ordering values ------------------------------------------------------------------------ */

static int sign3(int64_t a, int64_t b) { return (a > b) - (a < b); }

/* Java's Float/Double compareTo: -0.0 < 0.0 and NaN above everything, equal to itself. */
static int cmp_double(double a, double b) {
    bool na = a != a, nb = b != b;
    if (na || nb) return na - nb;
    if (a < b) return -1;
    if (a > b) return 1;
    bool sa = signbit(a) != 0, sb = signbit(b) != 0;
    return (int)sb - (int)sa;
}

/* The next UTF-16 code unit of UTF-8 text (String.compareTo order); -1 at the end, -2 on
 * malformed input. `pending` carries a low surrogate. */
static int32_t next_unit(const uint8_t **p, const uint8_t *end, int32_t *pending) {
    if (*pending) {
        int32_t u = *pending;
        *pending = 0;
        return u;
    }
    if (*p >= end) return -1;
    size_t n = hudi_utf8_seq_len(*p, (size_t)(end - *p));
    if (!n) return -2;
    int32_t cp = hudi_utf8_decode(*p, n);
    *p += n;
    if (cp < 0) return -2;
    if (cp < 0x10000) return cp;
    cp -= 0x10000;
    *pending = 0xDC00 + (cp & 0x3FF);
    return 0xD800 + (cp >> 10);
}

static int cmp_string(hudi_slice a, hudi_slice b) {
    const uint8_t *pa = a.data, *pb = b.data;
    int32_t qa = 0, qb = 0;
    for (;;) {
        int32_t ua = next_unit(&pa, a.data + a.len, &qa), ub = next_unit(&pb, b.data + b.len, &qb);
        if (ua == -2 || ub == -2) break;       /* not UTF-8: compare bytes */
        if (ua != ub) return ua < ub ? -1 : 1; /* -1 (the end) sorts first */
        if (ua == -1) return 0;
    }
    size_t n = HUDI_MIN(a.len, b.len);
    int c = n ? memcmp(a.data, b.data, n) : 0;
    return c ? (c < 0 ? -1 : 1) : sign3((int64_t)a.len, (int64_t)b.len);
}

/* ByteBuffer.compareTo: signed bytes, then the length. */
static int cmp_bytes(hudi_slice a, hudi_slice b) {
    size_t n = HUDI_MIN(a.len, b.len);
    for (size_t i = 0; i < n; i++)
        if (a.data[i] != b.data[i]) return (int8_t)a.data[i] < (int8_t)b.data[i] ? -1 : 1;
    return sign3((int64_t)a.len, (int64_t)b.len);
}

/* Big-endian two's complement integers of any length. */
static int cmp_bigint(hudi_slice a, hudi_slice b) {
    bool na = a.len && (a.data[0] & 0x80), nb = b.len && (b.data[0] & 0x80);
    if (na != nb) return na ? -1 : 1;
    uint8_t ext = na ? 0xFF : 0x00;
    size_t n = HUDI_MAX(a.len, b.len);
    for (size_t i = 0; i < n; i++) {
        uint8_t x = i + a.len >= n ? a.data[i + a.len - n] : ext;
        uint8_t y = i + b.len >= n ? b.data[i + b.len - n] : ext;
        if (x != y) return x < y ? -1 : 1;
    }
    return 0;
}

bool hudi_log_ordering_cmp(const hudi_log_ordering *a, const hudi_log_ordering *b, int *cmp) {
    if (a->kind != b->kind || a->kind == HUDI_LOG_ORDER_NULL) return false;
    switch (a->kind) {
    case HUDI_LOG_ORDER_NULL: return false;
    case HUDI_LOG_ORDER_BOOLEAN: *cmp = sign3(a->i != 0, b->i != 0); break;
    case HUDI_LOG_ORDER_INT:
    case HUDI_LOG_ORDER_LONG:
    case HUDI_LOG_ORDER_DATE:
    case HUDI_LOG_ORDER_TIME:
    case HUDI_LOG_ORDER_TIMESTAMP: *cmp = sign3(a->i, b->i); break;
    case HUDI_LOG_ORDER_FLOAT:
    case HUDI_LOG_ORDER_DOUBLE: *cmp = cmp_double(a->d, b->d); break;
    case HUDI_LOG_ORDER_BYTES: *cmp = cmp_bytes(a->bytes, b->bytes); break;
    case HUDI_LOG_ORDER_STRING: *cmp = cmp_string(a->bytes, b->bytes); break;
    case HUDI_LOG_ORDER_DECIMAL: *cmp = cmp_bigint(a->bytes, b->bytes); break;
    }
    return true;
}
