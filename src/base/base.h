/* base.h - hudic's foundation: allocation hooks, overflow-checked sizes, owned growable
 * buffers, borrowed slices, vectors, arenas, a string-keyed hash map, and the one copy of
 * the byte-level helpers every layer shares: byte order, UTF-8, Base64 and civil dates.
 *
 * Invariant: nothing here touches files or prints; every allocation goes through the
 * hooks in alloc.c so tests can fail the Nth one. */
#ifndef HUDI_BASE_H
#define HUDI_BASE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hudi/hudi.h"

#define HUDI_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define HUDI_MIN(a, b) ((a) < (b) ? (a) : (b))
#define HUDI_MAX(a, b) ((a) > (b) ? (a) : (b))
#define HUDI_UNUSED(x) ((void)(x))

#if defined(__GNUC__)
#define HUDI_LIKELY(x) __builtin_expect(!!(x), 1)
#define HUDI_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define HUDI_INTERNAL __attribute__((visibility("hidden")))
#else
#define HUDI_LIKELY(x) (x)
#define HUDI_UNLIKELY(x) (x)
#define HUDI_INTERNAL
#endif

/* ---- progress of a long operation ----------------------------------------------------- */

/* Counters one thread advances while another reads them (hudi_session_progress): the phase
 * (HUDI_PROGRESS_PHASE_*, the values of include/hudi/hudi_sql.h's hudi_progress_phase; 0 = none),
 * units done of total (base files of a scan, file groups of a write) and rows (decoded, or to
 * write). */
#define HUDI_PROGRESS_PHASE_SCAN 1
#define HUDI_PROGRESS_PHASE_WRITE 2
typedef struct hudi_progress {
    atomic_int phase;
    atomic_llong done, total, rows;
} hudi_progress;

static inline void hudi_progress_reset(hudi_progress *p) {
    atomic_store(&p->phase, 0);
    atomic_store(&p->done, 0);
    atomic_store(&p->total, 0);
    atomic_store(&p->rows, 0);
}

/* ---- allocation hooks (alloc.c) ------------------------------------------------------ */

/* hudi_allocator and the public hudi_set_allocator are in include/hudi/hudi.h; the public
 * function (src/api/alloc.c) also routes jansson and libavro through the hooks. This installs
 * hudic's own hooks only (`a` is copied; NULL restores the C library's allocator). */
void hudi_alloc_set(const hudi_allocator *a);

void *hudi_malloc(size_t size);
void *hudi_calloc(size_t n, size_t size); /* overflow-checked, zeroed */
void *hudi_realloc(void *ptr, size_t size);
void hudi_free(void *ptr);
char *hudi_strdup(const char *s);
char *hudi_strndup(const char *s, size_t n);
/* 64-byte aligned allocation for column buffers (Arrow recommends 64). */
void *hudi_aligned_alloc(size_t size);
void hudi_aligned_free(void *ptr);
/* Freed aligned blocks of 256 KB or more wait in a bounded cache (256 MiB) for the next
 * allocation of a similar size, so that batch after batch reuses memory already faulted in.
 * The bytes waiting there now, and freeing them all (returns the bytes freed). */
size_t hudi_alloc_warm_bytes(void);
size_t hudi_alloc_warm_clear(void);
/* The cache is on, except under ASan and valgrind (see alloc.c); tests turn it on or off. */
void hudi_alloc_warm_enable(bool on);

/** Sets `err` to HUDI_ENOMEM ("out of memory") and returns HUDI_ENOMEM. */
int hudi_error_oom(hudi_error *err);

/* ---- overflow-checked arithmetic ----------------------------------------------------- */

static inline bool hudi_add_overflow(size_t a, size_t b, size_t *out) {
    return __builtin_add_overflow(a, b, out);
}
static inline bool hudi_mul_overflow(size_t a, size_t b, size_t *out) {
    return __builtin_mul_overflow(a, b, out);
}

/* ---- little-endian loads and stores (unaligned-safe) ---------------------------------- */

static inline uint16_t hudi_load_u16le(const void *p) {
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}
static inline uint32_t hudi_load_u32le(const void *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static inline uint64_t hudi_load_u64le(const void *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}
static inline void hudi_store_u32le(void *p, uint32_t v) { memcpy(p, &v, 4); }
static inline void hudi_store_u64le(void *p, uint64_t v) { memcpy(p, &v, 8); }

/* ---- big-endian loads and stores ------------------------------------------------------ */

static inline uint32_t hudi_load_u32be(const void *p) {
    return __builtin_bswap32(hudi_load_u32le(p));
}
static inline void hudi_store_u32be(void *p, uint32_t v) {
    hudi_store_u32le(p, __builtin_bswap32(v));
}
/* Big-endian two's complement of `len` bytes (decimals in Parquet and Avro) to 128 bits, sign
 * extended; past 16 bytes only the low 16 are kept (callers check the value fits). */
static inline __int128 hudi_load_i128be(const uint8_t *p, size_t len) {
    unsigned __int128 v = (len > 0 && (p[0] & 0x80)) ? ~(unsigned __int128)0 : 0;
    for (size_t i = 0; i < len; i++) v = (v << 8) | p[i];
    return (__int128)v;
}
/* The low `len` bytes (1..16) of `v`, most significant first. */
static inline void hudi_store_i128be(uint8_t *p, __int128 v, size_t len) {
    unsigned __int128 u = (unsigned __int128)v;
    for (size_t i = len; i-- > 0; u >>= 8) p[i] = (uint8_t)u;
}

/* ---- slices: borrowed bytes ----------------------------------------------------------- */

/** A borrowed view of bytes. Lives as long as whatever owns `data`. */
typedef struct hudi_slice {
    const uint8_t *data;
    size_t len;
} hudi_slice;

#define HUDI_SLICE(p, n) ((hudi_slice){(const uint8_t *)(p), (n)})
static inline hudi_slice hudi_slice_cstr(const char *s) { return HUDI_SLICE(s, strlen(s)); }
static inline bool hudi_slice_eq(hudi_slice a, hudi_slice b) {
    return a.len == b.len && (a.len == 0 || memcmp(a.data, b.data, a.len) == 0);
}

/* ---- hudi_buf: owned, growable, NUL-kept bytes with a sticky failure flag ------------- */

typedef struct hudi_buf {
    char *data;  /* always NUL-terminated when non-NULL */
    size_t len;  /* bytes in use, not counting the NUL */
    size_t cap;  /* bytes allocated */
    bool failed; /* a growth failed; all later appends are no-ops */
} hudi_buf;

#define HUDI_BUF_INIT                                                                              \
    { NULL, 0, 0, false }

int hudi_buf_grow(hudi_buf *b, size_t extra); /* ensure room for len+extra+1; 0 or ENOMEM */
void hudi_buf_append(hudi_buf *b, const void *data, size_t len);
void hudi_buf_puts(hudi_buf *b, const char *s);
void hudi_buf_putc(hudi_buf *b, char c);
void hudi_buf_printf(hudi_buf *b, const char *fmt, ...) HUDI_PRINTF(2, 3);
void hudi_buf_clear(hudi_buf *b);                /* len = 0, keeps memory */
void hudi_buf_truncate(hudi_buf *b, size_t len); /* shrink len */
char *hudi_buf_detach(hudi_buf *b);              /* caller owns the string; b is reset */
void hudi_buf_dispose(hudi_buf *b);
static inline bool hudi_buf_failed(const hudi_buf *b) { return b->failed; }

/* ---- hudi_vec: a growable array of fixed-size elements -------------------------------- */

typedef struct hudi_vec {
    void *data;
    size_t len;
    size_t cap;
    size_t elem_size;
} hudi_vec;

#define HUDI_VEC_INIT(type)                                                                        \
    { NULL, 0, 0, sizeof(type) }
int hudi_vec_reserve(hudi_vec *v, size_t n); /* room for n more */
void *hudi_vec_push(hudi_vec *v);            /* zeroed new slot, NULL on OOM */
#define hudi_vec_at(v, type, i) (((type *)(v)->data)[i])
void hudi_vec_dispose(hudi_vec *v);

/* ---- arena: bump allocation for phase lifetimes --------------------------------------- */

/* With HUDI_ARENA_DEBUG defined every allocation is a separate malloc, so ASan sees
 * overflows between objects. */
typedef struct hudi_arena_chunk hudi_arena_chunk;
typedef struct hudi_arena {
    hudi_arena_chunk *head;
    size_t chunk_size; /* default 16 KiB */
    size_t total;      /* bytes handed out, for limits */
} hudi_arena;

#define HUDI_ARENA_INIT                                                                            \
    { NULL, 0, 0 }
void *hudi_arena_alloc(hudi_arena *a, size_t size); /* 16-byte aligned, zeroed; NULL on OOM */
char *hudi_arena_strndup(hudi_arena *a, const char *s, size_t n);
char *hudi_arena_strdup(hudi_arena *a, const char *s);
void hudi_arena_dispose(hudi_arena *a);

/* ---- hudi_map: string keys to pointers (open addressing, xxhash) ----------------------- */

typedef struct hudi_map_entry {
    char *key; /* owned copy */
    size_t key_len;
    uint64_t hash;
    void *value;
} hudi_map_entry;

typedef struct hudi_map {
    hudi_map_entry *slots;
    size_t cap; /* power of two */
    size_t len;
} hudi_map;

#define HUDI_MAP_INIT                                                                              \
    { NULL, 0, 0 }
/* Inserts or replaces. `*old` (if non-NULL) receives the replaced value or NULL. */
int hudi_map_put(hudi_map *m, const char *key, size_t key_len, void *value, void **old);
void *hudi_map_get(const hudi_map *m, const char *key, size_t key_len);
bool hudi_map_remove(hudi_map *m, const char *key, size_t key_len, void **old);
/* Iterate: for (size_t i = 0; (e = hudi_map_next(m, &i));) */
hudi_map_entry *hudi_map_next(const hudi_map *m, size_t *iter);
void hudi_map_dispose(hudi_map *m); /* frees keys, not values */

/* ---- UTF-8 (utf8.c) ---------------------------------------------------------------------- */

/* Length of the well-formed UTF-8 sequence (Unicode table 3-7: no overlongs, surrogates or
 * code points past U+10FFFF) starting at s[0] (a byte >= 0x80), or 0 if there is none. */
static inline size_t hudi_utf8_seq_len(const uint8_t *s, size_t n) {
    uint8_t c = s[0], lo = 0x80, hi = 0xbf;
    size_t len;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        if (c == 0xe0) lo = 0xa0;
        if (c == 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        if (c == 0xf0) lo = 0x90;
        if (c == 0xf4) hi = 0x8f;
    } else {
        return 0;
    }
    if (n < len || s[1] < lo || s[1] > hi) return 0;
    for (size_t k = 2; k < len; k++)
        if ((s[k] & 0xc0) != 0x80) return 0;
    return len;
}
/** True when all `n` bytes are well-formed UTF-8. */
bool hudi_utf8_valid(const uint8_t *p, size_t n);
/** Writes code point `cp` (<= 0x10FFFF) as UTF-8 to `out`; returns its length (1..4). */
size_t hudi_utf8_encode(uint32_t cp, uint8_t out[4]);
/** Decodes the `n`-byte sequence at `s` (n = its length, 1..4); -1 if it is not one. */
int32_t hudi_utf8_decode(const uint8_t *s, size_t n);
/** Appends code point `cp` as UTF-8. */
void hudi_buf_put_utf8(hudi_buf *b, uint32_t cp);
/** Java's String.hashCode of the string whose UTF-8 bytes are s[0..n): h = 31 * h + c over its
 *  UTF-16 code units, wrapping at 32 bits. A byte that starts no well-formed sequence counts as
 *  U+FFFD, as Java's decoder replaces it. */
int32_t hudi_java_string_hash(const uint8_t *s, size_t n);

/* ---- Base64 (base64.c), RFC 4648 standard alphabet ------------------------------------------ */

/** Decodes `len` characters, strict as java.util.Base64's decoder: '=' padding is optional but,
 *  when present, completes the last quad; appends the bytes to `out`. HUDI_ECORRUPT (bad
 *  character or length, with the position in `err`) or HUDI_ENOMEM. */
int hudi_base64_decode(hudi_buf *out, const char *in, size_t len, hudi_error *err);
/** The length hudi_base64_decode would give for `len` characters (padding as there), or -1 for
 *  a bad length. The characters are not checked. */
int64_t hudi_base64_decoded_len(const char *in, size_t len);
/** Byte `off` of the decoded text, decoding only its quad: 0..255, or -1 when `off` is past the
 *  end or a character of the quad is not Base64. */
int hudi_base64_byte_at(const char *in, size_t len, size_t off);

/* ---- civil dates (civil.c): proleptic Gregorian, days since 1970-01-01 ------------------------
 */

/** Days since 1970-01-01 of year `y`, month `m` (1..12), day `d` (1..31). Exact for every
 *  int64 year that does not overflow (H. Hinnant's days_from_civil). */
int64_t hudi_days_from_civil(int64_t y, int m, int d);
/** The date of `days` since 1970-01-01 (H. Hinnant's civil_from_days). */
void hudi_civil_from_days(int64_t days, int64_t *y, int *m, int *d);
/** True when y-m-d is a real date (month 1..12, day within the month, leap years). */
bool hudi_civil_valid(int64_t y, int m, int d);

/* ---- misc ----------------------------------------------------------------------------- */

uint64_t hudi_hash64(const void *data, size_t len); /* XXH64, seed 0 */
/* XXH3's 64-bit hash: faster than XXH64 on short keys; for in-memory tables only (its values
 * are not stored anywhere). */
uint64_t hudi_hash64_fast(const void *data, size_t len);
/* CRC-32 as zlib and gzip compute it (libdeflate_crc32); start with crc 0. */
uint32_t hudi_crc32(uint32_t crc, const void *data, size_t len);

#endif
