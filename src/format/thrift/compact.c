/* compact.c - Thrift compact protocol, reader and writer (docs/formats/thrift.md).
 *
 * Invariant: the reader never reads outside [start, end), never recurses deeper than
 * HUDI_THRIFT_MAX_DEPTH, and once r->rc < 0 consumes nothing more. */
#include "format/thrift/compact.h"

#include <stdarg.h>

/* ---- reader --------------------------------------------------------------------------- */

void hudi_thrift_reader_init(hudi_thrift_reader *r, hudi_slice in, hudi_error *err) {
    static const uint8_t empty[1];
    if (!in.data) in = HUDI_SLICE(empty, 0); /* NULL + 0 is undefined behaviour */
    r->start = in.data;
    r->p = in.data;
    r->end = in.data + in.len;
    r->rc = 0;
    r->err = err;
    r->depth = 0;
    r->last_id = 0;
}

int hudi_thrift_fail(hudi_thrift_reader *r, int code, const char *fmt, ...) {
    if (r->rc < 0) return r->rc;
    va_list ap;
    va_start(ap, fmt);
    hudi_error_setv(r->err, code, fmt, ap);
    va_end(ap);
    r->rc = code;
    r->p = r->end; /* consume nothing more */
    return code;
}

static void fail_truncated(hudi_thrift_reader *r, size_t need) {
    hudi_thrift_fail(r, HUDI_ECORRUPT,
                     "thrift: truncated input (%zu bytes needed at offset %zu of %zu)", need,
                     hudi_thrift_reader_pos(r), (size_t)(r->end - r->start));
}

uint64_t hudi_thrift_read_varint(hudi_thrift_reader *r) {
    uint64_t v = 0;
    const uint8_t *p = r->p;
    for (int i = 0; i < 10; i++) {
        if (p == r->end) {
            fail_truncated(r, 1);
            return 0;
        }
        uint8_t b = *p++;
        /* The 10th byte holds bit 63 only. */
        if (i == 9 && b > 1) break;
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            r->p = p;
            return v;
        }
    }
    hudi_thrift_fail(r, HUDI_ECORRUPT,
                     "thrift: varint longer than 10 bytes or over 64 bits at offset %zu",
                     hudi_thrift_reader_pos(r));
    return 0;
}

static inline int64_t unzigzag(uint64_t u) { return (int64_t)(u >> 1) ^ -(int64_t)(u & 1); }

int8_t hudi_thrift_read_i8(hudi_thrift_reader *r) {
    if (r->p == r->end) {
        fail_truncated(r, 1);
        return 0;
    }
    return (int8_t)*r->p++;
}

int16_t hudi_thrift_read_i16(hudi_thrift_reader *r) {
    uint64_t u = hudi_thrift_read_varint(r);
    if (u > UINT16_MAX) {
        hudi_thrift_fail(r, HUDI_ECORRUPT, "thrift: i16 varint %llu out of range",
                         (unsigned long long)u);
        return 0;
    }
    return (int16_t)unzigzag(u);
}

int32_t hudi_thrift_read_i32(hudi_thrift_reader *r) {
    uint64_t u = hudi_thrift_read_varint(r);
    if (u > UINT32_MAX) {
        hudi_thrift_fail(r, HUDI_ECORRUPT, "thrift: i32 varint %llu out of range",
                         (unsigned long long)u);
        return 0;
    }
    return (int32_t)unzigzag(u);
}

int64_t hudi_thrift_read_i64(hudi_thrift_reader *r) { return unzigzag(hudi_thrift_read_varint(r)); }

double hudi_thrift_read_double(hudi_thrift_reader *r) {
    if (r->end - r->p < 8) {
        fail_truncated(r, 8);
        return 0;
    }
    uint64_t bits = hudi_load_u64le(r->p); /* compact doubles are little-endian (thrift.md §1) */
    r->p += 8;
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

hudi_slice hudi_thrift_read_binary(hudi_thrift_reader *r) {
    uint64_t n = hudi_thrift_read_varint(r);
    if (r->rc < 0) return HUDI_SLICE(NULL, 0);
    if (n > (uint64_t)(r->end - r->p)) {
        hudi_thrift_fail(r, HUDI_ECORRUPT, "thrift: binary length %llu exceeds the %zu bytes left",
                         (unsigned long long)n, hudi_thrift_reader_left(r));
        return HUDI_SLICE(NULL, 0);
    }
    hudi_slice s = HUDI_SLICE(r->p, (size_t)n);
    r->p += n;
    return s;
}

bool hudi_thrift_read_bool_elem(hudi_thrift_reader *r) {
    if (r->p == r->end) {
        fail_truncated(r, 1);
        return false;
    }
    uint8_t b = *r->p;
    /* Java/C++/Rust Thrift write 1/2; the Thrift document says 0 for false (thrift.md §4). */
    if (b > 2) {
        hudi_thrift_fail(r, HUDI_ECORRUPT, "thrift: bad bool list element %u at offset %zu", b,
                         hudi_thrift_reader_pos(r));
        return false;
    }
    r->p++;
    return b == 1;
}

/* Pushes the field-id state for a struct or container. */
static bool enter(hudi_thrift_reader *r) {
    if (r->rc < 0) return false;
    if (r->depth >= HUDI_THRIFT_MAX_DEPTH) {
        hudi_thrift_fail(r, HUDI_ECORRUPT, "thrift: nesting deeper than %d", HUDI_THRIFT_MAX_DEPTH);
        return false;
    }
    r->stack[r->depth++] = r->last_id;
    r->last_id = 0;
    return true;
}

static void leave(hudi_thrift_reader *r) {
    if (r->depth > 0) r->last_id = r->stack[--r->depth];
}

void hudi_thrift_struct_begin(hudi_thrift_reader *r) { (void)enter(r); }

void hudi_thrift_struct_end(hudi_thrift_reader *r) { leave(r); }

bool hudi_thrift_read_field(hudi_thrift_reader *r, hudi_thrift_field *f) {
    f->id = 0;
    f->type = HUDI_THRIFT_STOP;
    if (r->p == r->end) {
        if (r->rc == 0) fail_truncated(r, 1);
        return false;
    }
    uint8_t b = *r->p++;
    uint8_t type = b & 0x0f;
    /* Like Java Thrift, a zero type nibble is STOP whatever the upper nibble holds. */
    if (type == HUDI_THRIFT_STOP) return false;
    if (type > HUDI_THRIFT_UUID) {
        hudi_thrift_fail(r, HUDI_ECORRUPT, "thrift: invalid field type %u at offset %zu", type,
                         hudi_thrift_reader_pos(r) - 1);
        return false;
    }
    int32_t id;
    if (b >> 4) {
        id = (int32_t)r->last_id + (b >> 4);
        if (id > INT16_MAX) {
            hudi_thrift_fail(r, HUDI_ECORRUPT, "thrift: field id %d out of range", (int)id);
            return false;
        }
    } else {
        id = hudi_thrift_read_i16(r);
        if (r->rc < 0) return false;
    }
    r->last_id = (int16_t)id;
    f->id = (int16_t)id;
    f->type = type;
    return true;
}

/* Smallest encoding of one container element of `type`; 0 for an invalid element type. */
static size_t elem_min_bytes(uint8_t type) {
    switch (type) {
    case HUDI_THRIFT_DOUBLE: return 8;
    case HUDI_THRIFT_UUID: return 16;
    case HUDI_THRIFT_STOP: return 0;
    default: return type <= HUDI_THRIFT_UUID ? 1 : 0;
    }
}

bool hudi_thrift_read_list(hudi_thrift_reader *r, uint8_t *elem_type, uint32_t *count) {
    *elem_type = 0;
    *count = 0;
    if (r->p == r->end) {
        if (r->rc == 0) fail_truncated(r, 1);
        return false;
    }
    uint8_t b = *r->p++;
    uint8_t type = b & 0x0f;
    uint64_t n = b >> 4;
    if (n == 15) {
        n = hudi_thrift_read_varint(r);
        if (r->rc < 0) return false;
    }
    if (n == 0) {
        /* Some writers emit an empty list as the single byte 00 (thrift.md §4). */
        *elem_type = type;
        return true;
    }
    size_t min = elem_min_bytes(type);
    if (min == 0) {
        hudi_thrift_fail(r, HUDI_ECORRUPT, "thrift: invalid list element type %u", type);
        return false;
    }
    if (n > INT32_MAX || n > hudi_thrift_reader_left(r) / min) {
        hudi_thrift_fail(r, HUDI_ECORRUPT,
                         "thrift: list of %llu elements exceeds the %zu bytes left",
                         (unsigned long long)n, hudi_thrift_reader_left(r));
        return false;
    }
    *elem_type = type;
    *count = (uint32_t)n;
    return true;
}

static void skip_bytes(hudi_thrift_reader *r, size_t n) {
    if ((size_t)(r->end - r->p) < n) {
        fail_truncated(r, n);
        return;
    }
    r->p += n;
}

/* Skips one container element: unlike a bool field, a bool element is one byte. */
static void skip_elem(hudi_thrift_reader *r, uint8_t type) {
    if (type == HUDI_THRIFT_TRUE || type == HUDI_THRIFT_FALSE)
        skip_bytes(r, 1);
    else
        hudi_thrift_skip(r, type);
}

static void skip_container(hudi_thrift_reader *r, uint8_t type) {
    if (type == HUDI_THRIFT_MAP) {
        uint64_t n = hudi_thrift_read_varint(r);
        if (r->rc < 0 || n == 0) return;
        if (r->p == r->end) {
            fail_truncated(r, 1);
            return;
        }
        uint8_t kv = *r->p++;
        uint8_t kt = kv >> 4, vt = kv & 0x0f;
        size_t min_kv = elem_min_bytes(kt) + elem_min_bytes(vt);
        if (!elem_min_bytes(kt) || !elem_min_bytes(vt) || n > hudi_thrift_reader_left(r) / min_kv) {
            hudi_thrift_fail(r, HUDI_ECORRUPT, "thrift: bad map header (%llu entries, types %u/%u)",
                             (unsigned long long)n, kt, vt);
            return;
        }
        if (!enter(r)) return;
        for (uint64_t i = 0; i < n && r->rc == 0; i++) {
            skip_elem(r, kt);
            skip_elem(r, vt);
        }
        leave(r);
        return;
    }
    uint8_t et;
    uint32_t n;
    if (!hudi_thrift_read_list(r, &et, &n)) return;
    if (!enter(r)) return;
    size_t fixed = 0;
    if (et == HUDI_THRIFT_TRUE || et == HUDI_THRIFT_FALSE || et == HUDI_THRIFT_I8) fixed = 1;
    if (et == HUDI_THRIFT_DOUBLE) fixed = 8;
    if (et == HUDI_THRIFT_UUID) fixed = 16;
    if (fixed) {
        skip_bytes(r, (size_t)n * fixed); /* n * fixed <= bytes left, checked by read_list */
    } else {
        for (uint32_t i = 0; i < n && r->rc == 0; i++) skip_elem(r, et);
    }
    leave(r);
}

void hudi_thrift_skip(hudi_thrift_reader *r, uint8_t type) {
    if (r->rc < 0) return;
    switch (type) {
    case HUDI_THRIFT_TRUE:
    case HUDI_THRIFT_FALSE:
        return; /* a bool field's value is in its header; elements go through skip_elem */
    case HUDI_THRIFT_I8: skip_bytes(r, 1); return;
    case HUDI_THRIFT_I16:
    case HUDI_THRIFT_I32:
    case HUDI_THRIFT_I64: (void)hudi_thrift_read_varint(r); return;
    case HUDI_THRIFT_DOUBLE: skip_bytes(r, 8); return;
    case HUDI_THRIFT_UUID: skip_bytes(r, 16); return;
    case HUDI_THRIFT_BINARY: (void)hudi_thrift_read_binary(r); return;
    case HUDI_THRIFT_LIST:
    case HUDI_THRIFT_SET:
    case HUDI_THRIFT_MAP: skip_container(r, type); return;
    case HUDI_THRIFT_STRUCT: {
        if (!enter(r)) return;
        hudi_thrift_field f;
        while (hudi_thrift_read_field(r, &f)) hudi_thrift_skip(r, f.type);
        leave(r);
        return;
    }
    default:
        hudi_thrift_fail(r, HUDI_ECORRUPT, "thrift: cannot skip a value of type %u", type);
        return;
    }
}

/* ---- writer --------------------------------------------------------------------------- */

void hudi_thrift_writer_init(hudi_thrift_writer *w, hudi_buf *out) {
    w->out = out;
    w->rc = 0;
    w->depth = 0;
    w->last_id = 0;
}

int hudi_thrift_writer_finish(hudi_thrift_writer *w, hudi_error *err) {
    if (w->rc == 0 && hudi_buf_failed(w->out)) w->rc = HUDI_ENOMEM;
    if (w->rc == HUDI_ENOMEM) return hudi_error_oom(err);
    if (w->rc < 0) return hudi_error_set(err, w->rc, "thrift writer: structs nested too deep");
    if (w->depth != 0)
        return hudi_error_set(err, HUDI_EINVAL, "thrift writer: %d structs left open", w->depth);
    return 0;
}

/* Room for `n` more bytes; returns the write position or NULL (sticky failure). */
static uint8_t *reserve(hudi_thrift_writer *w, size_t n) {
    if (w->rc < 0 || hudi_buf_grow(w->out, n) < 0) {
        if (w->rc == 0) w->rc = HUDI_ENOMEM;
        return NULL;
    }
    return (uint8_t *)w->out->data + w->out->len;
}

static void commit(hudi_thrift_writer *w, size_t n) {
    w->out->len += n;
    w->out->data[w->out->len] = '\0';
}

static size_t put_varint(uint8_t *p, uint64_t v) {
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

static inline uint64_t zigzag64(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }
static inline uint32_t zigzag32(int32_t v) { return ((uint32_t)v << 1) ^ (uint32_t)(v >> 31); }

static void put_byte(hudi_thrift_writer *w, uint8_t b) {
    uint8_t *p = reserve(w, 1);
    if (!p) return;
    *p = b;
    commit(w, 1);
}

void hudi_thrift_write_varint(hudi_thrift_writer *w, uint64_t v) {
    uint8_t *p = reserve(w, 10);
    if (p) commit(w, put_varint(p, v));
}

void hudi_thrift_write_i8(hudi_thrift_writer *w, int8_t v) { put_byte(w, (uint8_t)v); }
void hudi_thrift_write_i16(hudi_thrift_writer *w, int16_t v) {
    hudi_thrift_write_varint(w, zigzag32(v));
}
void hudi_thrift_write_i32(hudi_thrift_writer *w, int32_t v) {
    hudi_thrift_write_varint(w, zigzag32(v));
}
void hudi_thrift_write_i64(hudi_thrift_writer *w, int64_t v) {
    hudi_thrift_write_varint(w, zigzag64(v));
}

void hudi_thrift_write_double(hudi_thrift_writer *w, double v) {
    uint8_t *p = reserve(w, 8);
    if (!p) return;
    uint64_t bits;
    memcpy(&bits, &v, 8);
    hudi_store_u64le(p, bits);
    commit(w, 8);
}

void hudi_thrift_write_binary(hudi_thrift_writer *w, hudi_slice v) {
    size_t need;
    if (hudi_add_overflow(v.len, 10, &need)) {
        if (w->rc == 0) w->rc = HUDI_ENOMEM;
        return;
    }
    uint8_t *p = reserve(w, need);
    if (!p) return;
    size_t n = put_varint(p, v.len);
    if (v.len) memcpy(p + n, v.data, v.len);
    commit(w, n + v.len);
}

void hudi_thrift_write_bool_elem(hudi_thrift_writer *w, bool v) {
    put_byte(w, v ? HUDI_THRIFT_TRUE : HUDI_THRIFT_FALSE);
}

static void write_header(hudi_thrift_writer *w, int16_t id, uint8_t type) {
    int32_t delta = (int32_t)id - w->last_id;
    uint8_t *p = reserve(w, 4);
    if (!p) return;
    if (delta > 0 && delta <= 15) {
        p[0] = (uint8_t)(delta << 4 | type);
        commit(w, 1);
    } else {
        /* Long form: type byte, then the id as a zigzag i16 varint (thrift.md §3). */
        p[0] = type;
        commit(w, 1 + put_varint(p + 1, zigzag32(id)));
    }
    w->last_id = id;
}

void hudi_thrift_write_field(hudi_thrift_writer *w, int16_t id, uint8_t type) {
    write_header(w, id, type);
}

void hudi_thrift_write_struct_begin(hudi_thrift_writer *w) {
    if (w->rc < 0) return;
    if (w->depth >= HUDI_THRIFT_MAX_DEPTH) {
        w->rc = HUDI_EINVAL;
        return;
    }
    w->stack[w->depth++] = w->last_id;
    w->last_id = 0;
}

void hudi_thrift_write_struct_end(hudi_thrift_writer *w) {
    put_byte(w, HUDI_THRIFT_STOP);
    if (w->depth > 0) w->last_id = w->stack[--w->depth];
}

void hudi_thrift_write_field_struct(hudi_thrift_writer *w, int16_t id) {
    write_header(w, id, HUDI_THRIFT_STRUCT);
    hudi_thrift_write_struct_begin(w);
}

void hudi_thrift_write_list(hudi_thrift_writer *w, uint8_t elem_type, uint32_t count) {
    uint8_t *p = reserve(w, 6);
    if (!p) return;
    if (count <= 14) {
        p[0] = (uint8_t)(count << 4 | elem_type);
        commit(w, 1);
    } else {
        p[0] = (uint8_t)(0xf0 | elem_type);
        commit(w, 1 + put_varint(p + 1, count));
    }
}

void hudi_thrift_write_field_bool(hudi_thrift_writer *w, int16_t id, bool v) {
    write_header(w, id, v ? HUDI_THRIFT_TRUE : HUDI_THRIFT_FALSE);
}
void hudi_thrift_write_field_i8(hudi_thrift_writer *w, int16_t id, int8_t v) {
    write_header(w, id, HUDI_THRIFT_I8);
    hudi_thrift_write_i8(w, v);
}
void hudi_thrift_write_field_i16(hudi_thrift_writer *w, int16_t id, int16_t v) {
    write_header(w, id, HUDI_THRIFT_I16);
    hudi_thrift_write_i16(w, v);
}
void hudi_thrift_write_field_i32(hudi_thrift_writer *w, int16_t id, int32_t v) {
    write_header(w, id, HUDI_THRIFT_I32);
    hudi_thrift_write_i32(w, v);
}
void hudi_thrift_write_field_i64(hudi_thrift_writer *w, int16_t id, int64_t v) {
    write_header(w, id, HUDI_THRIFT_I64);
    hudi_thrift_write_i64(w, v);
}
void hudi_thrift_write_field_binary(hudi_thrift_writer *w, int16_t id, hudi_slice v) {
    write_header(w, id, HUDI_THRIFT_BINARY);
    hudi_thrift_write_binary(w, v);
}
