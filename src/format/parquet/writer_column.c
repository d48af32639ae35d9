/* writer_column.c - one leaf column of the Parquet writer: shredded levels and values in,
 * encoded data pages (and a dictionary page) of one column chunk out (docs/formats/parquet.md
 * §2.2, §2.4, §3.1-3.4, §4.3, §6.4-6.5).
 *
 * Flow per write: shred the rows (shred.c) -> cut the entries into segments that end at
 * record boundaries and fit the open page -> per segment gather the dense values once, then
 * update statistics, bloom hashes, and either the dictionary indices or the PLAIN bytes.
 * A page is closed when it reaches page_rows or page_bytes (estimated before compression),
 * always between records, so every page starts with rep level 0 (the page index needs it).
 *
 * Invariants: the open page holds page_levels entries, page_values values and page_rows
 * records; all of it is either dictionary-encoded (mode DICT) or in the column's value encoding
 * `enc` (mode PLAIN: PLAIN by default, else the encoding chosen for the column, which turns the
 * dictionary off) because the mode only changes right after a page is closed. Mode PLAIN keeps
 * the values in their PLAIN layout (byte arrays in DELTA_* bare, lengths in `voffs`) and
 * close_page encodes them. */
#include <pthread.h>
#include <xxhash.h>

#include "format/parquet/writer_int.h"

/* Dictionary mode works in segments of at most this many records, so the dictionary can
 * overshoot dictionary_page_bytes by at most one segment before we fall back. */
#define DICT_SEGMENT_RECORDS 8192
/* Chunk statistics bounds longer than this are omitted (parquet-mr/arrow-cpp behaviour). */
#define STATS_MAX_BOUND_BYTES 4096

/* ---- small helpers ------------------------------------------------------------------------ */

static int grow_mem(void **p, size_t *cap, size_t need, size_t elem, hudi_error *err) {
    if (need <= *cap) return 0;
    size_t nc = *cap ? *cap : 256;
    while (nc < need) {
        if (nc > SIZE_MAX / 4) return hudi_error_oom(err);
        nc *= 2;
    }
    size_t bytes;
    if (hudi_mul_overflow(nc, elem, &bytes)) return hudi_error_oom(err);
    void *q = hudi_realloc(*p, bytes);
    if (!q) return hudi_error_oom(err);
    *p = q;
    *cap = nc;
    return 0;
}

/* Makes room for `extra` bytes past b->len (hudi_buf keeps a NUL after len). */
static int buf_room(hudi_buf *b, size_t extra, hudi_error *err) {
    return hudi_buf_grow(b, extra) < 0 ? hudi_error_oom(err) : 0;
}

static const char *col_name(const pq_wcol *c, char *buf, size_t cap) {
    size_t at = 0;
    buf[0] = 0;
    for (int32_t i = 0; i < c->leaf->path_len && at + 1 < cap; i++) {
        hudi_slice s = c->leaf->path[i];
        if (i > 0) buf[at++] = '.';
        size_t k = HUDI_MIN(s.len, cap - 1 - at);
        if (k) memcpy(buf + at, s.data, k);
        at += k;
        buf[at] = 0;
    }
    return buf;
}

/* murmur3's fmix64; the high 32 bits are well mixed. */
static inline uint32_t hash_int(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return (uint32_t)(x >> 32);
}

static inline uint32_t hash_bytes(const uint8_t *p, size_t n) {
    return (uint32_t)(XXH3_64bits(p, n) >> 32);
}

/* ---- dictionary ----------------------------------------------------------------------------- */

static void dict_clear(pq_wdict *d) {
    if (d->slots) memset(d->slots, 0, ((size_t)d->mask + 1) * sizeof(uint64_t));
    d->n = 0;
    hudi_buf_clear(&d->plain);
}

static void dict_dispose(pq_wdict *d) {
    hudi_free(d->slots);
    hudi_free(d->offs);
    hudi_buf_dispose(&d->plain);
    memset(d, 0, sizeof(*d));
}

/* Keeps the load factor at or below 1/2 for `more` new entries. */
static int dict_reserve(pq_wdict *d, int64_t more, hudi_error *err) {
    uint64_t need = ((uint64_t)d->n + (uint64_t)more) * 2;
    uint64_t cap = d->slots ? (uint64_t)d->mask + 1 : 0;
    if (need <= cap) return 0;
    uint64_t ncap = cap ? cap : 1024;
    while (ncap < need) ncap *= 2;
    if (ncap > ((uint64_t)1 << 31)) return hudi_error_set(err, HUDI_ENOMEM, "dictionary too large");
    uint64_t *ns = hudi_calloc((size_t)ncap, sizeof(uint64_t));
    if (!ns) return hudi_error_oom(err);
    uint32_t nm = (uint32_t)(ncap - 1);
    for (uint64_t i = 0; i < cap; i++) {
        uint64_t s = d->slots[i];
        if (!s) continue;
        uint32_t j = (uint32_t)(s >> 32) & nm;
        while (ns[j]) j = (j + 1) & nm;
        ns[j] = s;
    }
    hudi_free(d->slots);
    d->slots = ns;
    d->mask = nm;
    return 0;
}

/* Looks up or adds `n` fixed-width values; `w` is a constant at each call site so the loop is
 * specialised (4 and 8 compare as integers). */
static inline __attribute__((always_inline)) void
dict_put_fixed(pq_wdict *d, const uint8_t *v, int64_t n, int32_t w, uint32_t *out) {
    uint8_t *plain = (uint8_t *)d->plain.data;
    uint64_t *slots = d->slots;
    uint32_t mask = d->mask;
    size_t len = d->plain.len;
    uint32_t cnt = d->n;
    for (int64_t i = 0; i < n; i++) {
        const uint8_t *p = v + i * w;
        uint32_t h = w == 4   ? hash_int(hudi_load_u32le(p))
                     : w == 8 ? hash_int(hudi_load_u64le(p))
                              : hash_bytes(p, (size_t)w);
        uint32_t j = h & mask;
        for (;;) {
            uint64_t s = slots[j];
            if (!s) {
                memcpy(plain + len, p, (size_t)w);
                len += (size_t)w;
                slots[j] = ((uint64_t)h << 32) | (uint64_t)(cnt + 1);
                out[i] = cnt++;
                break;
            }
            if ((uint32_t)(s >> 32) == h) {
                uint32_t e = (uint32_t)s - 1;
                if (memcmp(plain + (size_t)e * (size_t)w, p, (size_t)w) == 0) {
                    out[i] = e;
                    break;
                }
            }
            j = (j + 1) & mask;
        }
    }
    d->plain.len = len;
    d->n = cnt;
}

static void dict_put_bytes(pq_wdict *d, const int32_t *offs, const uint8_t *data, int64_t n,
                           uint32_t *out) {
    uint8_t *plain = (uint8_t *)d->plain.data;
    uint64_t *slots = d->slots;
    uint32_t mask = d->mask;
    size_t len = d->plain.len;
    uint32_t cnt = d->n;
    for (int64_t i = 0; i < n; i++) {
        const uint8_t *p = data + offs[i];
        uint32_t vlen = (uint32_t)(offs[i + 1] - offs[i]);
        uint32_t h = hash_bytes(p, vlen);
        uint32_t j = h & mask;
        for (;;) {
            uint64_t s = slots[j];
            if (!s) {
                d->offs[cnt] = (uint32_t)len;
                hudi_store_u32le(plain + len, vlen);
                if (vlen) memcpy(plain + len + 4, p, vlen);
                len += 4 + (size_t)vlen;
                slots[j] = ((uint64_t)h << 32) | (uint64_t)(cnt + 1);
                out[i] = cnt++;
                break;
            }
            if ((uint32_t)(s >> 32) == h) {
                uint32_t e = (uint32_t)s - 1;
                const uint8_t *q = plain + d->offs[e];
                /* vlen 0: p may be NULL (an array of empty strings has no data buffer) */
                if (hudi_load_u32le(q) == vlen && (vlen == 0 || memcmp(q + 4, p, vlen) == 0)) {
                    out[i] = e;
                    break;
                }
            }
            j = (j + 1) & mask;
        }
    }
    d->plain.len = len;
    d->n = cnt;
}

/* ---- bloom hash set ------------------------------------------------------------------------ */

static int hs_reserve(pq_whashset *s, int64_t more, hudi_error *err) {
    uint64_t need = (s->n + (uint64_t)more) * 2, cap = s->slots ? s->mask + 1 : 0;
    if (need <= cap) return 0;
    uint64_t ncap = cap ? cap : 1024;
    while (ncap < need) ncap *= 2;
    uint64_t *ns = hudi_calloc((size_t)ncap, sizeof(uint64_t));
    if (!ns) return hudi_error_oom(err);
    for (uint64_t i = 0; i < cap; i++) {
        uint64_t h = s->slots[i];
        if (!h) continue;
        uint64_t j = h & (ncap - 1);
        while (ns[j]) j = (j + 1) & (ncap - 1);
        ns[j] = h;
    }
    hudi_free(s->slots);
    s->slots = ns;
    s->mask = ncap - 1;
    return 0;
}

static int hs_add(pq_whashset *s, const uint64_t *h, int64_t n, hudi_error *err) {
    int rc = hs_reserve(s, n, err);
    if (rc < 0) return rc;
    for (int64_t i = 0; i < n; i++) {
        uint64_t x = h[i];
        if (!x) {
            s->has_zero = true;
            continue;
        }
        uint64_t j = x & s->mask;
        while (s->slots[j] && s->slots[j] != x) j = (j + 1) & s->mask;
        if (!s->slots[j]) {
            s->slots[j] = x;
            s->n++;
        }
    }
    return 0;
}

static void hs_clear(pq_whashset *s) {
    if (s->slots) memset(s->slots, 0, (size_t)(s->mask + 1) * sizeof(uint64_t));
    s->n = 0;
    s->has_zero = false;
}

/* ---- setup ------------------------------------------------------------------------------------
 */

static const char *physical_name(int32_t t) {
    static const char *const names[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                        "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
    return t >= 0 && t < 8 ? names[t] : "?";
}

static const char *encoding_name(int32_t e) {
    switch (e) {
    case PQ_ENC_PLAIN: return "PLAIN";
    case PQ_ENC_PLAIN_DICTIONARY: return "PLAIN_DICTIONARY";
    case PQ_ENC_RLE: return "RLE";
    case PQ_ENC_BIT_PACKED: return "BIT_PACKED";
    case PQ_ENC_DELTA_BINARY_PACKED: return "DELTA_BINARY_PACKED";
    case PQ_ENC_DELTA_LENGTH_BYTE_ARRAY: return "DELTA_LENGTH_BYTE_ARRAY";
    case PQ_ENC_DELTA_BYTE_ARRAY: return "DELTA_BYTE_ARRAY";
    case PQ_ENC_RLE_DICTIONARY: return "RLE_DICTIONARY";
    case PQ_ENC_BYTE_STREAM_SPLIT: return "BYTE_STREAM_SPLIT";
    case PQ_ENC_ALP: return "ALP";
    default: return NULL;
    }
}

/* Whether values of physical type `t` may be written in value encoding `e` (the table in
 * parquet.h above hudi_pq_column_encoding; dictionaries are handled by the caller). */
static bool encoding_fits(int32_t e, int32_t t) {
    switch (e) {
    case PQ_ENC_PLAIN: return true;
    case PQ_ENC_RLE: return t == PQ_BOOLEAN;
    case PQ_ENC_DELTA_BINARY_PACKED: return t == PQ_INT32 || t == PQ_INT64;
    case PQ_ENC_DELTA_LENGTH_BYTE_ARRAY: return t == PQ_BYTE_ARRAY;
    case PQ_ENC_DELTA_BYTE_ARRAY: return t == PQ_BYTE_ARRAY || t == PQ_FIXED_LEN_BYTE_ARRAY;
    case PQ_ENC_BYTE_STREAM_SPLIT:
        return t == PQ_FLOAT || t == PQ_DOUBLE || t == PQ_INT32 || t == PQ_INT64 ||
               t == PQ_FIXED_LEN_BYTE_ARRAY;
    default: return false;
    }
}

/* Sets c->enc and c->dict_enabled from the chosen encoding (-1: the defaults). */
static int choose_encoding(pq_wcol *c, const pq_wctx *cx, int32_t e, hudi_error *err) {
    int32_t t = c->leaf->physical_type;
    char nb[256];
    c->enc = t == PQ_BOOLEAN && cx->o.data_page_v2 ? PQ_ENC_RLE : PQ_ENC_PLAIN;
    c->dict_enabled = cx->o.dictionary;
    if (e < 0) return 0;
    const char *en = encoding_name(e);
    if (e == PQ_ENC_RLE_DICTIONARY || e == PQ_ENC_PLAIN_DICTIONARY) {
        if (t == PQ_BOOLEAN)
            return hudi_error_set(err, HUDI_EINVAL,
                                  "column %s: dictionary encoding is not written for BOOLEAN "
                                  "values (use PLAIN or RLE)",
                                  col_name(c, nb, sizeof(nb)));
        c->dict_enabled = c->dict_forced = c->dict_tried = true;
        return 0;
    }
    if (!en)
        return hudi_error_set(err, HUDI_EINVAL, "column %s: unknown parquet encoding %d",
                              col_name(c, nb, sizeof(nb)), (int)e);
    if (!encoding_fits(e, t))
        return hudi_error_set(err, HUDI_EINVAL, "column %s: %s cannot encode %s values (%s)",
                              col_name(c, nb, sizeof(nb)), en, physical_name(t),
                              hudi_type_name(c->src->type));
    c->enc = e;
    c->dict_enabled = false;
    return 0;
}

static int initial_mode(const pq_wcol *c) {
    return c->dict_enabled && c->leaf->physical_type != PQ_BOOLEAN && c->conv != PQ_CONV_NULL
               ? PQ_WMODE_DICT
               : PQ_WMODE_PLAIN;
}

int hudi_pq_wcol_init(pq_wcol *c, const pq_wctx *cx, const pq_leaf *leaf, const hudi_field *src,
                      bool bloom, int32_t encoding, hudi_error *err) {
    int rc;
    memset(c, 0, sizeof(*c));
    c->leaf = leaf;
    c->src = src;
    c->pages = (hudi_vec)HUDI_VEC_INIT(pq_wpage);
    c->chunk = (hudi_vec)HUDI_VEC_INIT(pq_wblock);
    c->def_bits = pq_bit_width((uint64_t)leaf->max_def);
    c->rep_bits = pq_bit_width((uint64_t)leaf->max_rep);
    int32_t want, sw = 0, w = 0;
    uint8_t conv = PQ_CONV_COPY;
    switch (src->type) {
    case HUDI_TYPE_BOOL: conv = PQ_CONV_BOOL, want = PQ_BOOLEAN, w = -1; break;
    case HUDI_TYPE_INT8: conv = PQ_CONV_I8, want = PQ_INT32, sw = 1, w = 4; break;
    case HUDI_TYPE_INT16: conv = PQ_CONV_I16, want = PQ_INT32, sw = 2, w = 4; break;
    case HUDI_TYPE_UINT8: conv = PQ_CONV_U8, want = PQ_INT32, sw = 1, w = 4; break;
    case HUDI_TYPE_UINT16: conv = PQ_CONV_U16, want = PQ_INT32, sw = 2, w = 4; break;
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_UINT32:
    case HUDI_TYPE_DATE: want = PQ_INT32, sw = w = 4; break;
    case HUDI_TYPE_INT64:
    case HUDI_TYPE_UINT64:
    case HUDI_TYPE_TIMESTAMP: want = PQ_INT64, sw = w = 8; break;
    case HUDI_TYPE_TIME:
        if (src->unit == HUDI_UNIT_MILLIS)
            want = PQ_INT32, sw = w = 4;
        else
            want = PQ_INT64, sw = w = 8;
        break;
    case HUDI_TYPE_FLOAT16: want = PQ_FIXED_LEN_BYTE_ARRAY, sw = w = 2; break;
    case HUDI_TYPE_FLOAT: want = PQ_FLOAT, sw = w = 4; break;
    case HUDI_TYPE_DOUBLE: want = PQ_DOUBLE, sw = w = 8; break;
    case HUDI_TYPE_DECIMAL:
        sw = 16;
        want = leaf->physical_type;
        if (want == PQ_INT32)
            conv = PQ_CONV_LOW, w = 4;
        else if (want == PQ_INT64)
            conv = PQ_CONV_LOW, w = 8;
        else
            conv = PQ_CONV_DEC_BE, want = PQ_FIXED_LEN_BYTE_ARRAY, w = leaf->type_length;
        break;
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY: conv = PQ_CONV_BYTES, want = PQ_BYTE_ARRAY, w = 0; break;
    case HUDI_TYPE_FIXED_BINARY: want = PQ_FIXED_LEN_BYTE_ARRAY, sw = w = src->byte_width; break;
    case HUDI_TYPE_NULL: conv = PQ_CONV_NULL, want = leaf->physical_type, w = 4; break;
    default: want = -1; break;
    }
    char nb[256];
    if (want != leaf->physical_type || w > 16 * 1024 * 1024 ||
        (want == PQ_FIXED_LEN_BYTE_ARRAY && (leaf->type_length != w || w <= 0)) ||
        (conv == PQ_CONV_DEC_BE && w > 16))
        return hudi_error_set(
            err, HUDI_EUNSUPPORTED, "column %s: cannot write %s as parquet physical type %d",
            col_name(c, nb, sizeof(nb)), hudi_type_name(src->type), (int)leaf->physical_type);
    c->conv = conv;
    c->src_width = sw;
    c->width = w;
    c->kind = hudi_pq_stats_sort_kind(leaf->element, PQ_ORDER_TYPE);
    c->want_bloom = bloom && want != PQ_BOOLEAN;
    if ((rc = choose_encoding(c, cx, encoding, err)) < 0) return rc;
    c->mode = initial_mode(c);
    hudi_pq_stats_acc_init(&c->pstats, leaf->element, (uint32_t)cx->o.stats_truncate_bytes);
    hudi_pq_stats_acc_init(&c->cstats, leaf->element, 0);
    return 0;
}

/* The column chunk's pages are kept in blocks of PQ_CHUNK_BLOCK bytes rather than one buffer
 * grown by doubling: growing a buffer of tens of MB copies it and touches twice its size, once
 * per doubling, and holds both copies for a moment. Pages run on from one block into the next,
 * so only the open block has room left. Blocks come from and go back to the writer's block pool
 * when it has one (hudi_pq_block_pool), else from malloc. */
struct hudi_pq_block_pool {
    pthread_mutex_t mu;
    void **free; /* blocks of PQ_CHUNK_BLOCK bytes */
    size_t n, cap;
};

int hudi_pq_block_pool_new(hudi_pq_block_pool **out, hudi_error *err) {
    hudi_pq_block_pool *p = hudi_calloc(1, sizeof(*p));
    if (!p) return hudi_error_oom(err);
    pthread_mutex_init(&p->mu, NULL);
    *out = p;
    return 0;
}

void hudi_pq_block_pool_free(hudi_pq_block_pool *p) {
    if (!p) return;
    for (size_t i = 0; i < p->n; i++) hudi_free(p->free[i]);
    hudi_free(p->free);
    pthread_mutex_destroy(&p->mu);
    hudi_free(p);
}

static void *block_get(hudi_pq_block_pool *p) {
    void *b = NULL;
    if (p) {
        pthread_mutex_lock(&p->mu);
        if (p->n > 0) b = p->free[--p->n];
        pthread_mutex_unlock(&p->mu);
    }
    return b ? b : hudi_malloc(PQ_CHUNK_BLOCK);
}

/* Gives block b back to pool p; frees it without a pool, or when the pool's list cannot grow. */
static void block_put(hudi_pq_block_pool *p, void *b) {
    if (p) {
        pthread_mutex_lock(&p->mu);
        if (p->n == p->cap) {
            size_t cap = p->cap ? p->cap * 2 : 64;
            void **f = hudi_realloc(p->free, cap * sizeof(void *));
            if (f) {
                p->free = f;
                p->cap = cap;
            }
        }
        if (p->n < p->cap) {
            p->free[p->n++] = b;
            b = NULL;
        }
        pthread_mutex_unlock(&p->mu);
    }
    hudi_free(b);
}

static void chunk_release(pq_wcol *c) {
    for (size_t i = 0; i < c->chunk.len; i++)
        block_put(c->pool, hudi_vec_at(&c->chunk, pq_wblock, i).data);
    c->chunk.len = 0;
    c->chunk_len = 0;
}

/* Appends n bytes to the column chunk, into as many blocks as they need. */
static int chunk_append(const pq_wctx *cx, pq_wcol *c, const void *data, size_t n,
                        hudi_error *err) {
    const uint8_t *p = data;
    c->pool = cx->blocks;
    while (n > 0) {
        pq_wblock *b = c->chunk.len ? &hudi_vec_at(&c->chunk, pq_wblock, c->chunk.len - 1) : NULL;
        if (!b || b->len == PQ_CHUNK_BLOCK) {
            if (hudi_vec_reserve(&c->chunk, 1) < 0) return hudi_error_oom(err);
            void *d = block_get(c->pool);
            if (!d) return hudi_error_oom(err);
            b = hudi_vec_push(&c->chunk);
            b->data = d;
            b->len = 0;
        }
        size_t k = HUDI_MIN(n, PQ_CHUNK_BLOCK - b->len);
        memcpy(b->data + b->len, p, k);
        b->len += k;
        c->chunk_len += (int64_t)k;
        p += k;
        n -= k;
    }
    return 0;
}

void hudi_pq_wcol_dispose(pq_wcol *c) {
    if (!c->leaf) return;
    hudi_pq_shredded_dispose(&c->sh);
    hudi_free(c->def);
    hudi_free(c->rep);
    hudi_free(c->idx);
    hudi_free(c->voffs);
    hudi_buf_dispose(&c->vals);
    hudi_pq_stats_acc_dispose(&c->pstats);
    hudi_pq_stats_acc_dispose(&c->cstats);
    dict_dispose(&c->dict);
    chunk_release(c);
    hudi_vec_dispose(&c->chunk);
    hudi_buf_dispose(&c->dict_page);
    hudi_vec_dispose(&c->pages);
    hudi_buf_dispose(&c->bounds);
    hudi_free(c->bloom_set.slots);
    memset(c, 0, sizeof(*c));
}

void hudi_pq_wcol_reset(pq_wcol *c) {
    chunk_release(c);
    hudi_buf_clear(&c->dict_page);
    hudi_buf_clear(&c->bounds);
    c->pages.len = 0;
    hudi_pq_stats_acc_reset(&c->cstats);
    hudi_pq_stats_acc_reset(&c->pstats);
    dict_clear(&c->dict);
    hs_clear(&c->bloom_set);
    c->num_values = c->rows = c->uncompressed = 0;
    c->n_dict_pages = c->n_enc_pages = 0;
    c->dict_tried = c->dict_forced;
    c->mode = initial_mode(c);
}

/* ---- dense values of one segment ---------------------------------------------------------------
 */

/* The segment's non-null values, dense, in their physical representation. */
typedef struct dense {
    const uint8_t *fixed;   /* width bytes each */
    const int32_t *offsets; /* byte arrays: offsets[0..n] into data */
    const uint8_t *data;
    const uint8_t *bits; /* booleans from bit `bit_off` */
    int64_t bit_off;
} dense;

/* Converts `n` source values at leaf slot `start` into `out` (physical, width w). */
static void convert_fixed(const pq_wcol *c, const hudi_array *a, int64_t start, int64_t n,
                          uint8_t *out) {
    const uint8_t *s = (const uint8_t *)a->values;
    int32_t w = c->width;
    switch (c->conv) {
    case PQ_CONV_I8:
        for (int64_t i = 0; i < n; i++) ((int32_t *)out)[i] = ((const int8_t *)s)[start + i];
        break;
    case PQ_CONV_I16:
        for (int64_t i = 0; i < n; i++) ((int32_t *)out)[i] = ((const int16_t *)s)[start + i];
        break;
    case PQ_CONV_U8:
        for (int64_t i = 0; i < n; i++) ((int32_t *)out)[i] = ((const uint8_t *)s)[start + i];
        break;
    case PQ_CONV_U16:
        for (int64_t i = 0; i < n; i++) ((int32_t *)out)[i] = ((const uint16_t *)s)[start + i];
        break;
    case PQ_CONV_LOW: /* little-endian: the low bytes come first */
        for (int64_t i = 0; i < n; i++) memcpy(out + i * w, s + (start + i) * 16, (size_t)w);
        break;
    case PQ_CONV_DEC_BE: /* two's complement: the low w bytes, most significant first */
        for (int64_t i = 0; i < n; i++) {
            const uint8_t *v = s + (start + i) * 16;
            uint8_t *o = out + i * w;
            for (int32_t k = 0; k < w; k++) o[k] = v[w - 1 - k];
        }
        break;
    default: memcpy(out, s + start * w, (size_t)(n * w)); break;
    }
}

/* Takes the next `nv` values from the shredded runs (advancing the run cursor) and makes
 * them dense: a direct view of the array when they are contiguous and need no conversion,
 * else a copy in the writer's scratch. */
static int gather(pq_wctx *cx, pq_wcol *c, const hudi_array *a, int64_t nv, dense *d,
                  hudi_error *err) {
    const pq_value_run *runs = c->sh.runs;
    memset(d, 0, sizeof(*d));
    int64_t first = runs[c->run_i].start + c->run_off;
    bool single = runs[c->run_i].len - c->run_off >= nv;
    int rc;
    if (single && c->conv == PQ_CONV_BYTES) {
        d->offsets = a->offsets + first;
        d->data = a->data;
    } else if (single && c->conv == PQ_CONV_BOOL) {
        d->bits = a->values;
        d->bit_off = first;
    } else if (single && c->conv == PQ_CONV_COPY) {
        d->fixed = (const uint8_t *)a->values + first * c->width;
    } else if (c->conv == PQ_CONV_BYTES) {
        /* two passes over the pieces: sizes, then copies */
        int64_t ri = c->run_i, ro = c->run_off, left = nv, bytes = 0;
        while (left > 0) {
            int64_t st = runs[ri].start + ro, k = HUDI_MIN(left, runs[ri].len - ro);
            bytes += a->offsets[st + k] - a->offsets[st];
            left -= k, ro += k;
            if (ro == runs[ri].len) ri++, ro = 0;
        }
        if ((rc = grow_mem((void **)&cx->offs, &cx->offs_cap, (size_t)nv + 1, 4, err)) < 0 ||
            (rc = grow_mem((void **)&cx->data, &cx->data_cap, (size_t)bytes + 1, 1, err)) < 0)
            return rc;
        ri = c->run_i, ro = c->run_off, left = nv;
        int64_t at = 0, pos = 0;
        cx->offs[0] = 0;
        while (left > 0) {
            int64_t st = runs[ri].start + ro, k = HUDI_MIN(left, runs[ri].len - ro);
            int32_t base = a->offsets[st];
            int32_t len = a->offsets[st + k] - base;
            if (len) memcpy(cx->data + pos, a->data + base, (size_t)len);
            for (int64_t i = 1; i <= k; i++)
                cx->offs[at + i] = (int32_t)pos + (a->offsets[st + i] - base);
            pos += len, at += k, left -= k, ro += k;
            if (ro == runs[ri].len) ri++, ro = 0;
        }
        d->offsets = cx->offs;
        d->data = cx->data;
    } else {
        size_t need =
            c->conv == PQ_CONV_BOOL ? (size_t)(nv + 7) / 8 : (size_t)nv * (size_t)c->width;
        if ((rc = grow_mem((void **)&cx->dense, &cx->dense_cap, need + 8, 1, err)) < 0) return rc;
        int64_t ri = c->run_i, ro = c->run_off, left = nv, at = 0;
        while (left > 0) {
            int64_t st = runs[ri].start + ro, k = HUDI_MIN(left, runs[ri].len - ro);
            if (c->conv == PQ_CONV_BOOL)
                hudi_bitmap_copy(cx->dense, at, a->values, st, k);
            else
                convert_fixed(c, a, st, k, cx->dense + at * c->width);
            at += k, left -= k, ro += k;
            if (ro == runs[ri].len) ri++, ro = 0;
        }
        if (c->conv == PQ_CONV_BOOL)
            d->bits = cx->dense;
        else
            d->fixed = cx->dense;
    }
    /* advance the cursor */
    int64_t left = nv;
    while (left > 0) {
        int64_t k = HUDI_MIN(left, runs[c->run_i].len - c->run_off);
        left -= k;
        c->run_off += k;
        if (c->run_off == runs[c->run_i].len) c->run_i++, c->run_off = 0;
    }
    return 0;
}

/* PLAIN bytes of the next `nv` values (without moving the cursor): byte arrays walk the
 * runs; other types multiply. */
static int64_t plain_bytes(const pq_wcol *c, const hudi_array *a, int64_t nv) {
    if (c->width < 0) return (nv + 7) / 8;
    if (c->width > 0) return nv * c->width;
    const pq_value_run *runs = c->sh.runs;
    int64_t ri = c->run_i, ro = c->run_off, left = nv, bytes = 4 * nv;
    while (left > 0) {
        int64_t st = runs[ri].start + ro, k = HUDI_MIN(left, runs[ri].len - ro);
        bytes += a->offsets[st + k] - a->offsets[st];
        left -= k, ro += k;
        if (ro == runs[ri].len) ri++, ro = 0;
    }
    return bytes;
}

/* ---- the open page ----------------------------------------------------------------------------
 */

/* Byte arrays whose values the open page keeps bare, lengths in `voffs` (DELTA_* encodings). */
static inline bool bare_bytes(const pq_wcol *c) {
    return c->width == 0 &&
           (c->enc == PQ_ENC_DELTA_LENGTH_BYTE_ARRAY || c->enc == PQ_ENC_DELTA_BYTE_ARRAY);
}

/* Uncompressed size estimate of the open page. */
static int64_t page_est(const pq_wcol *c) {
    int64_t lv = (c->page_levels * (c->def_bits + c->rep_bits) + 7) / 8;
    if (c->width < 0) return lv + (c->page_values + 7) / 8;
    /* until the first page has decided for the dictionary, count PLAIN bytes: the page may
     * still be rewritten as PLAIN */
    if (c->mode == PQ_WMODE_DICT && !c->dict_tried) return lv + c->page_plain;
    if (c->mode == PQ_WMODE_DICT)
        return lv + (c->page_values * HUDI_MAX(1, pq_bit_width(c->dict.n)) + 7) / 8;
    /* byte arrays in DELTA_*: count their PLAIN size (the lengths are in `voffs`) */
    return lv + (int64_t)c->vals.len + (bare_bytes(c) ? 4 * c->page_values : 0);
}

int64_t hudi_pq_wcol_buffered(const pq_wcol *c) {
    return pq_wcol_chunk_len(c) + page_est(c) + (int64_t)c->dict.plain.len;
}

static int levels_room(pq_wcol *c, int64_t need, hudi_error *err) {
    if ((size_t)need <= c->lv_cap) return 0;
    size_t cap = c->lv_cap ? c->lv_cap : 1024;
    while (cap < (size_t)need) cap *= 2;
    if (c->leaf->max_def > 0) {
        int16_t *p = hudi_realloc(c->def, cap * sizeof(int16_t));
        if (!p) return hudi_error_oom(err);
        c->def = p;
    }
    if (c->leaf->max_rep > 0) {
        int16_t *p = hudi_realloc(c->rep, cap * sizeof(int16_t));
        if (!p) return hudi_error_oom(err);
        c->rep = p;
    }
    c->lv_cap = cap;
    return 0;
}

static void fill_i16(int16_t *p, int64_t n, int16_t v) {
    for (int64_t i = 0; i < n; i++) p[i] = v;
}

/* Appends `nv` byte arrays to the open page's bare bytes and their offsets to `voffs`. */
static int append_bare(pq_wcol *c, const dense *d, int64_t nv, hudi_error *err) {
    int64_t pv = c->page_values, base = (int64_t)c->vals.len;
    int32_t first = d->offsets[0];
    int64_t bytes = (int64_t)d->offsets[nv] - first;
    if (base + bytes > INT32_MAX)
        return hudi_error_set(err, HUDI_EINVAL, "data page of byte arrays over 2 GiB");
    int rc = grow_mem((void **)&c->voffs, &c->voffs_cap, (size_t)(pv + nv + 1), 4, err);
    if (rc < 0) return rc;
    if (pv == 0) c->voffs[0] = 0;
    for (int64_t i = 1; i <= nv; i++) c->voffs[pv + i] = (int32_t)(base + d->offsets[i] - first);
    if (bytes > 0) hudi_buf_append(&c->vals, d->data + first, (size_t)bytes);
    return 0;
}

/* Appends entries [e, e + ne) holding `nv` values and `nrec` records to the open page. */
static int append_segment(pq_wctx *cx, pq_wcol *c, const hudi_array *a, int64_t e, int64_t ne,
                          int64_t nv, int64_t nrec, hudi_error *err) {
    const pq_leaf *lf = c->leaf;
    const pq_shredded *sh = &c->sh;
    int64_t pl = c->page_levels;
    int rc;
    if (pl + ne > INT32_MAX) return hudi_error_set(err, HUDI_EINVAL, "page holds too many levels");
    if (lf->max_rep > 0) {
        if ((rc = levels_room(c, pl + ne, err)) < 0) return rc;
        memcpy(c->rep + pl, sh->rep + e, (size_t)ne * sizeof(int16_t));
    }
    if (lf->max_def > 0) {
        if (sh->no_nulls && !c->def_mat) {
            c->def_const += ne;
        } else {
            if ((rc = levels_room(c, pl + ne, err)) < 0) return rc;
            if (!c->def_mat) {
                fill_i16(c->def, c->def_const, lf->max_def);
                c->def_mat = true;
            }
            if (sh->no_nulls)
                fill_i16(c->def + pl, ne, lf->max_def);
            else
                memcpy(c->def + pl, sh->def + e, (size_t)ne * sizeof(int16_t));
        }
    }
    pq_stats_add_nulls(&c->pstats, ne - nv);
    c->page_levels += ne;
    c->page_rows += nrec;
    if (nv == 0) return 0;

    dense d;
    if ((rc = gather(cx, c, a, nv, &d, err)) < 0) return rc;

    /* statistics */
    switch (lf->physical_type) {
    case PQ_BOOLEAN:
        hudi_pq_stats_update_bool(&c->pstats, d.bits, (size_t)d.bit_off, (size_t)nv);
        break;
    case PQ_INT32:
        hudi_pq_stats_update_i32(&c->pstats, (const int32_t *)d.fixed, (size_t)nv);
        break;
    case PQ_INT64:
        hudi_pq_stats_update_i64(&c->pstats, (const int64_t *)d.fixed, (size_t)nv);
        break;
    case PQ_FLOAT:
        hudi_pq_stats_update_float(&c->pstats, (const float *)d.fixed, (size_t)nv);
        break;
    case PQ_DOUBLE:
        hudi_pq_stats_update_double(&c->pstats, (const double *)d.fixed, (size_t)nv);
        break;
    case PQ_FIXED_LEN_BYTE_ARRAY:
        rc = hudi_pq_stats_update_fixed(&c->pstats, d.fixed, (size_t)c->width, (size_t)nv, err);
        break;
    case PQ_BYTE_ARRAY: /* dictionary mode: from the entries, below */
        if (c->mode != PQ_WMODE_DICT)
            rc = hudi_pq_stats_update_binary(&c->pstats, d.offsets, d.data, (size_t)nv, err);
        break;
    default: break;
    }
    if (rc < 0) return rc;

    /* bloom filter hashes */
    if (c->want_bloom) {
        if ((rc = grow_mem((void **)&cx->hashes, &cx->hashes_cap, (size_t)nv, 8, err)) < 0)
            return rc;
        if (c->width > 0)
            hudi_pq_bloom_hash_fixed(cx->hashes, d.fixed, (size_t)c->width, (size_t)nv);
        else
            hudi_pq_bloom_hash_binary(cx->hashes, d.offsets, d.data, (size_t)nv);
        if ((rc = hs_add(&c->bloom_set, cx->hashes, nv, err)) < 0) return rc;
    }

    int64_t pv = c->page_values;
    if (c->mode == PQ_WMODE_DICT) {
        pq_wdict *dc = &c->dict;
        size_t plain = c->width > 0 ? (size_t)nv * (size_t)c->width
                                    : (size_t)(4 * nv + (d.offsets[nv] - d.offsets[0]));
        if ((rc = grow_mem((void **)&c->idx, &c->idx_cap, (size_t)(pv + nv), 4, err)) < 0 ||
            (rc = dict_reserve(dc, nv, err)) < 0 || (rc = buf_room(&dc->plain, plain, err)) < 0)
            return rc;
        uint32_t *out = c->idx + pv;
        c->page_plain += (int64_t)plain;
        if (c->width == 0) {
            size_t ocap = dc->offs_cap;
            if ((rc = grow_mem((void **)&dc->offs, &ocap, (size_t)dc->n + (size_t)nv, 4, err)) < 0)
                return rc;
            dc->offs_cap = (uint32_t)HUDI_MIN(ocap, UINT32_MAX);
            dict_put_bytes(dc, d.offsets, d.data, nv, out);
            if (lf->physical_type == PQ_BYTE_ARRAY &&
                (rc = hudi_pq_stats_update_dict_bytes(&c->pstats, out, (size_t)nv,
                                                      (const uint8_t *)dc->plain.data, dc->offs,
                                                      err)) < 0)
                return rc;
        } else if (c->width == 4) {
            dict_put_fixed(dc, d.fixed, nv, 4, out);
        } else if (c->width == 8) {
            dict_put_fixed(dc, d.fixed, nv, 8, out);
        } else {
            dict_put_fixed(dc, d.fixed, nv, c->width, out);
        }
        dc->plain.data[dc->plain.len] = 0;
    } else if (c->width < 0) {
        size_t need = (size_t)(pv + nv + 7) / 8;
        if ((rc = buf_room(&c->vals, need - c->vals.len, err)) < 0) return rc;
        /* new bytes start as zeros: the bits past the last value are padding in the file */
        memset(c->vals.data + c->vals.len, 0, need - c->vals.len);
        hudi_bitmap_copy((uint8_t *)c->vals.data, pv, d.bits, d.bit_off, nv);
        c->vals.len = need;
    } else if (c->width > 0) {
        hudi_buf_append(&c->vals, d.fixed, (size_t)nv * (size_t)c->width);
    } else if (bare_bytes(c)) {
        if ((rc = append_bare(c, &d, nv, err)) < 0) return rc;
    } else {
        hudi_pq_plain_encode_bytes(&c->vals, d.offsets, d.data, nv);
    }
    if (hudi_buf_failed(&c->vals)) return hudi_error_oom(err);
    c->page_values += nv;
    return 0;
}

/* Turns the open dictionary-encoded page into a PLAIN one and drops the dictionary. */
static int undo_dict(pq_wcol *c, hudi_error *err) {
    pq_wdict *d = &c->dict;
    int64_t n = c->page_values;
    const uint8_t *plain = (const uint8_t *)d->plain.data;
    hudi_buf_clear(&c->vals);
    int rc;
    if (c->width > 0) {
        size_t w = (size_t)c->width;
        if ((rc = buf_room(&c->vals, (size_t)n * w, err)) < 0) return rc;
        uint8_t *o = (uint8_t *)c->vals.data;
        for (int64_t i = 0; i < n; i++) memcpy(o + (size_t)i * w, plain + (size_t)c->idx[i] * w, w);
        c->vals.len = (size_t)n * w;
    } else {
        size_t total = 0;
        for (int64_t i = 0; i < n; i++) total += 4 + hudi_load_u32le(plain + d->offs[c->idx[i]]);
        if ((rc = buf_room(&c->vals, total, err)) < 0) return rc;
        uint8_t *o = (uint8_t *)c->vals.data;
        size_t at = 0;
        for (int64_t i = 0; i < n; i++) {
            const uint8_t *q = plain + d->offs[c->idx[i]];
            size_t len = 4 + hudi_load_u32le(q);
            memcpy(o + at, q, len);
            at += len;
        }
        c->vals.len = at;
    }
    c->vals.data[c->vals.len] = 0;
    dict_clear(d);
    c->mode = PQ_WMODE_PLAIN;
    return 0;
}

/* One RLE run of `n` copies of `v` (w bits), with the v1 length prefix if asked. */
static void put_const_levels(hudi_buf *b, int64_t n, int v, int w, bool prefix) {
    size_t start = b->len;
    if (prefix) hudi_buf_append(b, "\0\0\0\0", 4);
    hudi_pq_write_uleb(b, (uint64_t)n << 1);
    uint8_t vb[4];
    hudi_store_u32le(vb, (uint32_t)v);
    hudi_buf_append(b, vb, (size_t)(w + 7) / 8);
    if (prefix && !hudi_buf_failed(b))
        hudi_store_u32le(b->data + start, (uint32_t)(b->len - start - 4));
}

/* Compresses `payload` with the chunk codec into cx->comp; returns its CRC when asked. */
static int compress(pq_wctx *cx, hudi_slice payload, hudi_error *err) {
    hudi_buf_clear(&cx->comp);
    return hudi_pq_compress(cx->codec, cx->o.codec, cx->o.codec_level, payload, &cx->comp, err);
}

/* Appends the open page's values in the column's encoding (not dictionary) to `pg`; a failure
 * can only be out of memory and leaves `pg` failed. */
static void encode_values(const pq_wcol *c, hudi_buf *pg) {
    static const int32_t no_offsets[1] = {0};
    /* no bytes yet (empty strings only): any valid pointer, the encoders read nothing */
    const uint8_t *v = c->vals.data ? (const uint8_t *)c->vals.data : (const uint8_t *)"";
    const int32_t *offs = c->page_values > 0 ? c->voffs : no_offsets;
    int64_t n = c->page_values;
    switch (c->enc) {
    case PQ_ENC_RLE: hudi_pq_rle_encode_bool(pg, v, 0, n, true); break;
    case PQ_ENC_DELTA_BINARY_PACKED:
        if (c->width == 4)
            hudi_pq_delta_encode_i32(pg, (const int32_t *)(const void *)v, n);
        else
            hudi_pq_delta_encode_i64(pg, (const int64_t *)(const void *)v, n);
        break;
    case PQ_ENC_DELTA_LENGTH_BYTE_ARRAY: hudi_pq_dlba_encode(pg, offs, v, n); break;
    case PQ_ENC_DELTA_BYTE_ARRAY:
        if (c->width == 0)
            hudi_pq_dba_encode(pg, offs, v, 0, n);
        else
            hudi_pq_dba_encode(pg, NULL, v, c->width, n);
        break;
    case PQ_ENC_BYTE_STREAM_SPLIT: hudi_pq_bss_encode(pg, v, c->width, n); break;
    default: hudi_buf_append(pg, c->vals.data, c->vals.len); break;
    }
}

static int close_page(pq_wctx *cx, pq_wcol *c, hudi_error *err) {
    if (c->page_levels == 0) return 0;
    const pq_leaf *lf = c->leaf;
    bool v2 = cx->o.data_page_v2;
    int rc;
    /* The dictionary must pay for itself: when the first page of the chunk has more distinct
     * values than half its values, the dictionary page would cost about as much as the data
     * and every page would pay an extra indirection on read. We then write PLAIN from the
     * start (no dictionary page at all), which is also the fastest to write. Pages without
     * values (all null) decide nothing and are written PLAIN (empty) while the dictionary is
     * empty, so an all-null chunk gets no dictionary page of zero entries. */
    if (c->mode == PQ_WMODE_DICT && !c->dict_tried && c->page_values > 0) {
        c->dict_tried = true;
        if ((int64_t)c->dict.n * 2 > c->page_values && (rc = undo_dict(c, err)) < 0) return rc;
    }
    hudi_buf *pg = &cx->page, *lv = &cx->lv;
    hudi_buf_clear(pg);
    hudi_buf_clear(lv);
    hudi_buf *lvb = v2 ? lv : pg;
    size_t rl_len = 0;
    if (lf->max_rep > 0) hudi_pq_rle_encode_i16(lvb, c->rep, c->page_levels, c->rep_bits, !v2);
    rl_len = lvb->len;
    if (lf->max_def > 0) {
        if (c->def_mat)
            hudi_pq_rle_encode_i16(lvb, c->def, c->page_levels, c->def_bits, !v2);
        else
            put_const_levels(lvb, c->page_levels, lf->max_def, c->def_bits, !v2);
    }
    size_t vstart = pg->len;
    int32_t enc = c->enc;
    bool dict_page = c->mode == PQ_WMODE_DICT && c->dict.n > 0;
    if (dict_page) {
        int bw = HUDI_MAX(1, pq_bit_width(c->dict.n > 0 ? c->dict.n - 1 : 0));
        hudi_buf_putc(pg, (char)bw);
        hudi_pq_rle_encode_u32(pg, c->idx, c->page_values, bw);
        enc = PQ_ENC_RLE_DICTIONARY;
    } else {
        encode_values(c, pg);
    }
    if (hudi_buf_failed(pg) || hudi_buf_failed(lv)) return hudi_error_oom(err);

    hudi_slice in =
        v2 ? HUDI_SLICE(pg->data + vstart, pg->len - vstart) : HUDI_SLICE(pg->data, pg->len);
    /* v2: an empty value section (all null) is stored as is (is_compressed false): 0 bytes,
     * not a codec's stream of nothing, which some readers refuse (DuckDB for LZ4) */
    bool raw = v2 && (cx->o.codec == PQ_CODEC_UNCOMPRESSED || in.len == 0);
    if (raw) {
        hudi_buf_clear(&cx->comp);
        hudi_buf_append(&cx->comp, in.data, in.len);
        if (hudi_buf_failed(&cx->comp)) return hudi_error_oom(err);
    } else if ((rc = compress(cx, in, err)) < 0) {
        return rc;
    }
    size_t usize = lv->len + pg->len, csize = lv->len + cx->comp.len;
    if (usize > INT32_MAX || csize > INT32_MAX)
        return hudi_error_set(err, HUDI_EINVAL, "data page of %zu bytes is too large", usize);

    pq_page_header h;
    memset(&h, 0, sizeof(h));
    h.type = v2 ? PQ_PAGE_DATA_V2 : PQ_PAGE_DATA;
    h.uncompressed_page_size = (int32_t)usize;
    h.compressed_page_size = (int32_t)csize;
    if (cx->o.write_crc) {
        uint32_t crc = hudi_crc32(0, lv->data, lv->len);
        h.has_crc = true;
        h.crc = (int32_t)hudi_crc32(crc, cx->comp.data, cx->comp.len);
    }
    if (v2) {
        h.has_data_page_header_v2 = true;
        pq_data_page_header_v2 *p = &h.data_page_header_v2;
        p->num_values = (int32_t)c->page_levels;
        p->num_nulls = (int32_t)(c->page_levels - c->page_values);
        p->num_rows = (int32_t)c->page_rows;
        p->encoding = enc;
        p->repetition_levels_byte_length = (int32_t)rl_len;
        p->definition_levels_byte_length = (int32_t)(lv->len - rl_len);
        p->is_compressed = !raw;
    } else {
        h.has_data_page_header = true;
        pq_data_page_header *p = &h.data_page_header;
        p->num_values = (int32_t)c->page_levels;
        p->encoding = enc;
        p->definition_level_encoding = PQ_ENC_RLE;
        p->repetition_level_encoding = PQ_ENC_RLE;
    }
    int64_t off = c->chunk_len;
    hudi_buf_clear(&cx->hdr);
    if ((rc = hudi_pq_encode_page_header(&cx->hdr, &h, err)) < 0) return rc;
    size_t hlen = cx->hdr.len;
    if ((rc = chunk_append(cx, c, cx->hdr.data, cx->hdr.len, err)) < 0 ||
        (rc = chunk_append(cx, c, lv->data, lv->len, err)) < 0 ||
        (rc = chunk_append(cx, c, cx->comp.data, cx->comp.len, err)) < 0)
        return rc;

    /* page index entry and statistics */
    pq_wpage *pe = hudi_vec_push(&c->pages);
    if (!pe) return hudi_error_oom(err);
    pe->offset = off;
    pe->size = (int32_t)(c->chunk_len - off);
    pe->first_row = c->rows;
    pe->null_count = c->page_levels - c->page_values;
    pe->nan_count = c->pstats.nan_count;
    pe->null_page = c->page_values == 0;
    pe->all_nan = c->page_values > 0 && c->pstats.nan_count == c->page_values;
    pq_statistics st;
    if ((rc = hudi_pq_stats_acc_finish(&c->pstats, &st, err)) < 0) return rc;
    pe->min_off = c->bounds.len;
    pe->min_len = st.has_min_value ? st.min_value.len : 0;
    if (st.has_min_value) hudi_buf_append(&c->bounds, st.min_value.data, st.min_value.len);
    pe->max_off = c->bounds.len;
    pe->max_len = st.has_max_value ? st.max_value.len : 0;
    if (st.has_max_value) hudi_buf_append(&c->bounds, st.max_value.data, st.max_value.len);
    if (hudi_buf_failed(&c->bounds)) return hudi_error_oom(err);
    if ((rc = hudi_pq_stats_merge(&c->cstats, &c->pstats, err)) < 0) return rc;
    hudi_pq_stats_acc_reset(&c->pstats);

    c->num_values += c->page_levels;
    c->rows += c->page_rows;
    c->uncompressed += (int64_t)(hlen + usize);
    if (dict_page)
        c->n_dict_pages++;
    else
        c->n_enc_pages++;
    c->page_levels = c->page_values = c->page_rows = c->page_plain = 0;
    c->def_const = 0;
    c->def_mat = false;
    hudi_buf_clear(&c->vals);
    return 0;
}

/* ---- feeding records into pages -----------------------------------------------------------------
 */

/* Entry index where record `k` of the shredded slice starts (or n_levels at the end). */
static inline int64_t record_entry(const pq_wcol *c, int64_t k, int64_t n_rec) {
    if (c->leaf->max_rep == 0) return k;
    return k < n_rec ? c->sh.record_starts[k] : c->sh.n_levels;
}

static int64_t count_values(const pq_wcol *c, int64_t e, int64_t end) {
    if (c->leaf->max_def == 0 || c->sh.no_nulls) return end - e;
    const int16_t *def = c->sh.def;
    int16_t m = c->leaf->max_def;
    int64_t n = 0;
    for (int64_t i = e; i < end; i++) n += def[i] == m;
    return n;
}

static int feed(pq_wctx *cx, pq_wcol *c, const hudi_array *a, hudi_error *err) {
    int64_t n_rec = c->leaf->max_rep > 0 ? c->sh.n_records : c->sh.n_levels;
    int64_t rec = 0, e = 0;
    int rc;
    while (rec < n_rec) {
        if (c->page_levels > 0 &&
            (c->page_rows >= cx->o.page_rows || page_est(c) >= cx->o.page_bytes) &&
            (rc = close_page(cx, c, err)) < 0)
            return rc;
        int64_t take = HUDI_MIN(n_rec - rec, cx->o.page_rows - c->page_rows);
        bool dict = c->mode == PQ_WMODE_DICT;
        if (dict) take = HUDI_MIN(take, DICT_SEGMENT_RECORDS);
        int64_t end, nv;
        for (;;) {
            end = record_entry(c, rec + take, n_rec);
            nv = count_values(c, e, end);
            if (take == 1) break;
            /* fit the page's byte budget; in dictionary mode also keep the PLAIN bytes
             * added to the dictionary near its remaining room */
            int64_t budget = cx->o.page_bytes - page_est(c);
            int64_t cost, pb = -1;
            if (dict && c->dict_tried) {
                cost = (nv * HUDI_MAX(1, pq_bit_width(c->dict.n + (uint64_t)nv)) + 7) / 8;
                pb = plain_bytes(c, a, nv);
            } else {
                cost = plain_bytes(c, a, nv);
                if (dict) pb = cost;
            }
            int64_t droom = HUDI_MAX(cx->o.dictionary_page_bytes - (int64_t)c->dict.plain.len,
                                     cx->o.dictionary_page_bytes / 4);
            if (cost <= budget && (pb < 0 || pb <= droom)) break;
            take /= 2;
        }
        if (dict && (int64_t)c->dict.plain.len + plain_bytes(c, a, nv) > INT32_MAX) {
            /* the dictionary would outgrow its u32 offsets: stop using it */
            if ((rc = close_page(cx, c, err)) < 0) return rc;
            c->mode = PQ_WMODE_PLAIN;
            continue;
        }
        if ((rc = append_segment(cx, c, a, e, end - e, nv, take, err)) < 0) return rc;
        rec += take;
        e = end;
        if (c->mode == PQ_WMODE_DICT && (int64_t)c->dict.plain.len > cx->o.dictionary_page_bytes) {
            /* dictionary full: this page stays dictionary-encoded, the rest is PLAIN */
            if ((rc = close_page(cx, c, err)) < 0) return rc;
            c->mode = PQ_WMODE_PLAIN;
        }
    }
    return 0;
}

int hudi_pq_wcol_write(pq_wctx *cx, pq_wcol *c, const hudi_array *column, int64_t row_start,
                       int64_t n_rows, hudi_error *err) {
    int rc = hudi_pq_shred_leaf(&c->sh, c->leaf, column, row_start, n_rows, err);
    if (rc < 0) return rc;
    c->run_i = c->run_off = 0;
    const hudi_array *a = pq_leaf_array((hudi_array *)column, c->leaf);
    return feed(cx, c, a, err);
}

/* ---- finishing a chunk ------------------------------------------------------------------------
 */

int hudi_pq_wcol_finish(pq_wctx *cx, pq_wcol *c, hudi_error *err) {
    int rc = close_page(cx, c, err);
    if (rc < 0) return rc;
    hudi_buf_clear(&c->dict_page);
    if (c->n_dict_pages == 0) return 0;
    pq_wdict *d = &c->dict;
    if ((rc = compress(cx, HUDI_SLICE(d->plain.data, d->plain.len), err)) < 0) return rc;
    if (d->plain.len > INT32_MAX || cx->comp.len > INT32_MAX)
        return hudi_error_set(err, HUDI_EINVAL, "dictionary page too large");
    pq_page_header h;
    memset(&h, 0, sizeof(h));
    h.type = PQ_PAGE_DICTIONARY;
    h.uncompressed_page_size = (int32_t)d->plain.len;
    h.compressed_page_size = (int32_t)cx->comp.len;
    if (cx->o.write_crc) {
        h.has_crc = true;
        h.crc = (int32_t)hudi_crc32(0, cx->comp.data, cx->comp.len);
    }
    h.has_dictionary_page_header = true;
    h.dictionary_page_header.num_values = (int32_t)d->n;
    h.dictionary_page_header.encoding = PQ_ENC_PLAIN;
    if ((rc = hudi_pq_encode_page_header(&c->dict_page, &h, err)) < 0) return rc;
    c->uncompressed += (int64_t)(c->dict_page.len + d->plain.len);
    hudi_buf_append(&c->dict_page, cx->comp.data, cx->comp.len);
    return hudi_buf_failed(&c->dict_page) ? hudi_error_oom(err) : 0;
}

int hudi_pq_wcol_statistics(pq_wcol *c, pq_statistics *out, hudi_error *err) {
    int rc = hudi_pq_stats_acc_finish(&c->cstats, out, err);
    if (rc < 0) return rc;
    /* parquet-mr's rule: bounds this long are useless for pruning and bloat the footer */
    if ((out->has_min_value && out->min_value.len > STATS_MAX_BOUND_BYTES) ||
        (out->has_max_value && out->max_value.len > STATS_MAX_BOUND_BYTES)) {
        out->has_min_value = out->has_max_value = out->has_min = out->has_max = false;
        out->has_is_min_value_exact = out->has_is_max_value_exact = false;
    }
    return 0;
}

static bool is_float_kind(int kind) {
    return kind == PQ_SORT_FLOAT || kind == PQ_SORT_DOUBLE || kind == PQ_SORT_FLOAT16;
}

/* ASCENDING when the non-null pages' mins and maxes never decrease, DESCENDING when they
 * never increase, else UNORDERED (§6.5). */
static int32_t boundary_order(const pq_wcol *c) {
    const pq_wpage *pg = c->pages.data;
    const uint8_t *b = (const uint8_t *)c->bounds.data;
    bool asc = true, desc = true;
    const pq_wpage *prev = NULL;
    for (size_t i = 0; i < c->pages.len; i++) {
        const pq_wpage *p = &pg[i];
        if (p->null_page) continue;
        if (prev) {
            int a = hudi_pq_stats_compare(c->kind, HUDI_SLICE(b + prev->min_off, prev->min_len),
                                          HUDI_SLICE(b + p->min_off, p->min_len));
            int m = hudi_pq_stats_compare(c->kind, HUDI_SLICE(b + prev->max_off, prev->max_len),
                                          HUDI_SLICE(b + p->max_off, p->max_len));
            if (a > 0 || m > 0) asc = false;
            if (a < 0 || m < 0) desc = false;
        }
        prev = p;
    }
    return asc ? PQ_BOUNDARY_ASCENDING : desc ? PQ_BOUNDARY_DESCENDING : PQ_BOUNDARY_UNORDERED;
}

int hudi_pq_wcol_page_index(pq_wcol *c, int64_t data_start, hudi_buf *ci, bool *has_ci,
                            hudi_buf *oi, hudi_error *err) {
    size_t n = c->pages.len;
    const pq_wpage *pg = c->pages.data;
    pq_page_location *locs = hudi_calloc(n ? n : 1, sizeof(*locs));
    bool *nulls = hudi_calloc(n ? n : 1, sizeof(bool));
    hudi_slice *mins = hudi_calloc(n ? n : 1, sizeof(hudi_slice));
    hudi_slice *maxs = hudi_calloc(n ? n : 1, sizeof(hudi_slice));
    int64_t *ncounts = hudi_calloc(n ? n : 1, sizeof(int64_t));
    int64_t *nans = hudi_calloc(n ? n : 1, sizeof(int64_t));
    int rc = 0;
    *has_ci = false;
    if (!locs || !nulls || !mins || !maxs || !ncounts || !nans) {
        rc = hudi_error_oom(err);
        goto done;
    }
    bool ci_ok = c->kind != PQ_SORT_NONE;
    const uint8_t *b = (const uint8_t *)c->bounds.data;
    for (size_t i = 0; i < n; i++) {
        locs[i].offset = data_start + pg[i].offset;
        locs[i].compressed_page_size = pg[i].size;
        locs[i].first_row_index = pg[i].first_row;
        nulls[i] = pg[i].null_page;
        /* §6.2: a page whose values are all NaN has no TYPE_ORDER bounds -> no ColumnIndex */
        if (pg[i].all_nan) ci_ok = false;
        if (!pg[i].null_page && (pg[i].min_len == 0 && pg[i].max_len == 0) && c->width != 0)
            ci_ok = false;
        mins[i] =
            pg[i].null_page ? HUDI_SLICE("", 0) : HUDI_SLICE(b + pg[i].min_off, pg[i].min_len);
        maxs[i] =
            pg[i].null_page ? HUDI_SLICE("", 0) : HUDI_SLICE(b + pg[i].max_off, pg[i].max_len);
        ncounts[i] = pg[i].null_count;
        nans[i] = pg[i].nan_count;
    }
    pq_offset_index o = {(int32_t)n, locs};
    if ((rc = hudi_pq_encode_offset_index(oi, &o, err)) < 0) goto done;
    if (ci_ok) {
        pq_column_index x;
        memset(&x, 0, sizeof(x));
        x.n_pages = (int32_t)n;
        x.null_pages = nulls;
        x.min_values = mins;
        x.max_values = maxs;
        x.boundary_order = boundary_order(c);
        x.has_null_counts = true;
        x.null_counts = ncounts;
        x.has_nan_counts = is_float_kind(c->kind);
        x.nan_counts = nans;
        if ((rc = hudi_pq_encode_column_index(ci, &x, err)) < 0) goto done;
        *has_ci = true;
    }
done:
    hudi_free(locs);
    hudi_free(nulls);
    hudi_free(mins);
    hudi_free(maxs);
    hudi_free(ncounts);
    hudi_free(nans);
    return rc;
}

int hudi_pq_wcol_bloom(pq_wcol *c, double fpp, hudi_buf *out, hudi_error *err) {
    pq_whashset *s = &c->bloom_set;
    uint64_t ndv = s->n + (s->has_zero ? 1 : 0);
    pq_bloom bf;
    int rc = hudi_pq_bloom_init(&bf, hudi_pq_bloom_optimal_bytes(ndv, fpp, 0), err);
    if (rc < 0) return rc;
    if (s->slots)
        for (uint64_t i = 0; i <= s->mask; i++)
            if (s->slots[i]) hudi_pq_bloom_insert(&bf, s->slots[i]);
    if (s->has_zero) hudi_pq_bloom_insert(&bf, 0);
    rc = hudi_pq_bloom_serialize(&bf, out, err);
    hudi_pq_bloom_dispose(&bf);
    return rc;
}
