/* bloom.c - Hudi's SIMPLE and DYNAMIC_V0 bloom filters (docs/formats/base-files.md §4), byte-exact
 * with Hudi's Java classes (InternalBloomFilter = Hadoop BloomFilter, InternalDynamicBloomFilter,
 * HoodieDynamicBoundedBloomFilter, SimpleBloomFilter).
 *
 * Serialized standard filter (Java DataOutputStream, big-endian):
 *   int32 version (-1) | int32 nbHash | int8 hashType (1 = murmur) | int32 vectorSize |
 *   ceil(V/8) bytes of bits, bit i in byte i/8 under mask 1 << (i % 8)
 * DYNAMIC_V0 = the same 13-byte header (no bits) | int32 nr | int32 currentNbRecord |
 *   int32 rows | rows x standard filter.
 * Invariant: every row has exactly ceil(V/8) bytes and the bits past V are zero. */
#include "table/bloom.h"

#include <math.h>

#include "columnar/render.h"

#define HASH_JENKINS 0
#define HASH_MURMUR 1
#define FILTER_VERSION (-1)
#define MURMUR_M 0x5bd1e995u

int32_t hudi_murmur_hadoop(const void *data, size_t len, int32_t seed) {
    const uint8_t *d = data;
    const uint32_t m = MURMUR_M;
    uint32_t h = (uint32_t)seed ^ (uint32_t)len;
    size_t n4 = len >> 2;
    for (size_t i = 0; i < n4; i++) {
        uint32_t k = hudi_load_u32le(d + 4 * i);
        k *= m;
        k ^= k >> 24;
        k *= m;
        h *= m;
        h ^= k;
    }
    size_t left = len & 3;
    /* Hadoop indexes the tail from the end (data[len - 3] << 16, data[len - 2] << 8,
     * data[len - 1]), so with two bytes left the first one is shifted by 8 - not the reference
     * MurmurHash2 order; and Java bytes are signed, so tail bytes are sign-extended. */
    if (left) {
        if (left >= 3) h ^= (uint32_t)(int32_t)(int8_t)d[len - 3] << 16;
        if (left >= 2) h ^= (uint32_t)(int32_t)(int8_t)d[len - 2] << 8;
        h ^= (uint32_t)(int32_t)(int8_t)d[len - 1];
        h *= m;
    }
    h ^= h >> 13;
    h *= m;
    h ^= h >> 15;
    return (int32_t)h;
}

int hudi_bloom_size(int32_t num_entries, double fpp, int32_t *vector_bits, int32_t *num_hashes,
                    hudi_error *err) {
    if (num_entries < 1 || !(fpp > 0.0 && fpp < 1.0))
        return hudi_error_set(err, HUDI_EINVAL, "bloom filter: %d entries at fpp %g is invalid",
                              num_entries, fpp);
    /* same expression order as BloomFilterUtils, so rounding matches Java */
    const double log2_squared = log(2) * log(2);
    double bits = ceil(num_entries * (-log(fpp) / log2_squared));
    if (bits < 1 || bits > INT32_MAX - 7)
        return hudi_error_set(err, HUDI_EINVAL, "bloom filter: %d entries at fpp %g is too large",
                              num_entries, fpp);
    double k = ceil(log(2) * (double)(int32_t)bits / num_entries);
    *vector_bits = (int32_t)bits;
    *num_hashes = k < 1 ? 1 : (int32_t)k;
    return 0;
}

static size_t row_bytes(const hudi_bloom *bf) { return ((size_t)bf->vector_bits + 7) / 8; }

static int add_row(hudi_bloom *bf, hudi_error *err) {
    uint8_t **rows = hudi_realloc(bf->rows, sizeof(*rows) * ((size_t)bf->n_rows + 1));
    if (!rows) return hudi_error_oom(err);
    bf->rows = rows;
    rows[bf->n_rows] = hudi_calloc(1, row_bytes(bf));
    if (!rows[bf->n_rows]) return hudi_error_oom(err);
    bf->n_rows++;
    return 0;
}

static int check_shape(int32_t vector_bits, int32_t num_hashes, hudi_error *err, const char *what) {
    if (vector_bits < 1 || vector_bits > INT32_MAX - 7 || num_hashes < 1 || num_hashes > 1024)
        return hudi_error_set(err, what ? HUDI_ECORRUPT : HUDI_EINVAL,
                              "bloom filter%s%s: vector size %d with %d hashes is invalid",
                              what ? " " : "", what ? what : "", vector_bits, num_hashes);
    return 0;
}

static hudi_bloom *alloc_filter(hudi_bloom_type type, int32_t vector_bits, int32_t num_hashes) {
    hudi_bloom *bf = hudi_calloc(1, sizeof(*bf));
    if (!bf) return NULL;
    bf->type = type;
    bf->vector_bits = vector_bits;
    bf->num_hashes = num_hashes;
    return bf;
}

int hudi_bloom_new_sized(hudi_bloom **out, hudi_bloom_type type, int32_t vector_bits,
                         int32_t num_hashes, int32_t entries_per_row, int32_t max_entries,
                         hudi_error *err) {
    int rc;
    *out = NULL;
    if ((rc = check_shape(vector_bits, num_hashes, err, NULL)) < 0) return rc;
    if (type == HUDI_BLOOM_DYNAMIC_V0 && entries_per_row < 1)
        return hudi_error_set(err, HUDI_EINVAL, "bloom filter: %d entries per row is invalid",
                              entries_per_row);
    hudi_bloom *bf = alloc_filter(type, vector_bits, num_hashes);
    if (!bf) return hudi_error_oom(err);
    bf->entries_per_row = entries_per_row;
    bf->max_entries = max_entries;
    if ((rc = add_row(bf, err)) < 0) {
        hudi_bloom_free(bf);
        return rc;
    }
    *out = bf;
    return 0;
}

int hudi_bloom_new(hudi_bloom **out, hudi_bloom_type type, int32_t num_entries, double fpp,
                   int32_t max_entries, hudi_error *err) {
    int32_t v = 0, k = 0;
    int rc;
    *out = NULL;
    if ((rc = hudi_bloom_size(num_entries, fpp, &v, &k, err)) < 0) return rc;
    return hudi_bloom_new_sized(out, type, v, k, num_entries, max_entries, err);
}

void hudi_bloom_free(hudi_bloom *bf) {
    if (!bf) return;
    for (int32_t i = 0; i < bf->n_rows; i++) hudi_free(bf->rows[i]);
    hudi_free(bf->rows);
    hudi_free(bf);
}

/* HashFunction.hash: each hash seeds the next; position = |h % V| (Java remainder).
 *
 * Murmur's word mixing (k *= m; k ^= k >> 24; k *= m) does not depend on the seed, so a key's
 * words are mixed once for all K hashes; the K chained hashes of one key are sequential, but
 * those of different keys are independent: LANES keys of the same length are hashed side by
 * side (lane loops the compiler vectorises). |h % V| = |h| mod V (also for INT32_MIN), taken
 * with a multiply (Lemire's fastmod) instead of a division. */
#define LANES 8
#define MAX_WORDS 32 /* keys up to 128 bytes take the pre-mixed path */

typedef struct hasher {
    uint32_t v;       /* vector size V */
    uint64_t v_magic; /* UINT64_MAX / V + 1 */
    int32_t k;        /* hash count K */
} hasher;

static hasher hasher_of(const hudi_bloom *bf) {
    uint32_t v = (uint32_t)bf->vector_bits;
    return (hasher){v, UINT64_MAX / v + 1, bf->num_hashes};
}

static inline uint32_t fastmod(uint32_t a, const hasher *hs) {
    uint64_t low = hs->v_magic * a;
    return (uint32_t)(((unsigned __int128)low * hs->v) >> 64);
}

static inline uint32_t java_pos(uint32_t h, const hasher *hs) {
    uint32_t a = (int32_t)h < 0 ? 0u - h : h;
    return fastmod(a, hs);
}

static inline uint32_t mix_word(const uint8_t *p) {
    uint32_t k = hudi_load_u32le(p) * MURMUR_M;
    k ^= k >> 24;
    return k * MURMUR_M;
}

/* The tail bytes' contribution before the multiply (Hadoop order, sign-extended). */
static inline uint32_t tail_of(const uint8_t *d, size_t len) {
    size_t left = len & 3;
    uint32_t t = 0;
    if (left >= 3) t ^= (uint32_t)(int32_t)(int8_t)d[len - 3] << 16;
    if (left >= 2) t ^= (uint32_t)(int32_t)(int8_t)d[len - 2] << 8;
    if (left >= 1) t ^= (uint32_t)(int32_t)(int8_t)d[len - 1];
    return t;
}

/* Positions of one key: pos[0..K). */
static void positions(const hasher *hs, const uint8_t *key, size_t len, uint32_t *pos) {
    size_t n4 = len >> 2;
    if (n4 > MAX_WORDS) {
        int32_t h = 0;
        for (int32_t i = 0; i < hs->k; i++) {
            h = hudi_murmur_hadoop(key, len, h);
            pos[i] = java_pos((uint32_t)h, hs);
        }
        return;
    }
    uint32_t km[MAX_WORDS];
    for (size_t w = 0; w < n4; w++) km[w] = mix_word(key + 4 * w);
    bool has_tail = (len & 3) != 0;
    uint32_t tail = tail_of(key, len), h = 0;
    for (int32_t i = 0; i < hs->k; i++) {
        h ^= (uint32_t)len;
        for (size_t w = 0; w < n4; w++) h = (h * MURMUR_M) ^ km[w];
        if (has_tail) h = (h ^ tail) * MURMUR_M;
        h ^= h >> 13;
        h *= MURMUR_M;
        h ^= h >> 15;
        pos[i] = java_pos(h, hs);
    }
}

/* Positions of LANES keys of one length (at most MAX_WORDS words): pos[j * K + i]. */
static void positions_lanes(const hasher *hs, const hudi_slice *keys, uint32_t *pos) {
    size_t len = keys[0].len, n4 = len >> 2;
    uint32_t km[MAX_WORDS][LANES], tail[LANES], h[LANES];
    for (size_t w = 0; w < n4; w++)
        for (int j = 0; j < LANES; j++) km[w][j] = mix_word(keys[j].data + 4 * w);
    for (int j = 0; j < LANES; j++) {
        tail[j] = tail_of(keys[j].data, len);
        h[j] = 0;
    }
    bool has_tail = (len & 3) != 0;
    for (int32_t i = 0; i < hs->k; i++) {
        for (int j = 0; j < LANES; j++) h[j] ^= (uint32_t)len;
        for (size_t w = 0; w < n4; w++)
            for (int j = 0; j < LANES; j++) h[j] = (h[j] * MURMUR_M) ^ km[w][j];
        if (has_tail)
            for (int j = 0; j < LANES; j++) h[j] = (h[j] ^ tail[j]) * MURMUR_M;
        for (int j = 0; j < LANES; j++) {
            h[j] ^= h[j] >> 13;
            h[j] *= MURMUR_M;
            h[j] ^= h[j] >> 15;
        }
        for (int j = 0; j < LANES; j++) pos[j * hs->k + i] = java_pos(h[j], hs);
    }
}

/* InternalDynamicBoundedBloomFilter.getActiveStandardBF + add(), including the quirk that the
 * first call after reaching the maximum uses row 0 without advancing the round-robin index. */
static int active_row(hudi_bloom *bf, int32_t *row, hudi_error *err) {
    int rc;
    if (bf->type == HUDI_BLOOM_SIMPLE) {
        *row = 0;
        return 0;
    }
    if (bf->reached_max) {
        *row = bf->cur_index % bf->n_rows;
        bf->cur_index = (int32_t)(((uint32_t)bf->cur_index + 1u) & 0x7fffffffu);
        return 0;
    }
    int64_t capacity = (int64_t)bf->n_rows * bf->entries_per_row;
    if (bf->current_count >= bf->entries_per_row && capacity < bf->max_entries) {
        if ((rc = add_row(bf, err)) < 0) return rc;
        bf->current_count = 0;
        *row = bf->n_rows - 1;
    } else if (bf->current_count >= bf->entries_per_row) {
        bf->reached_max = true;
        *row = 0;
    } else {
        *row = bf->n_rows - 1;
    }
    return 0;
}

/* Sets the bits of one key whose positions are computed. */
static int put_key(hudi_bloom *bf, const uint32_t *pos, hudi_error *err) {
    int32_t row;
    int rc = active_row(bf, &row, err);
    if (rc < 0) return rc;
    uint8_t *bits = bf->rows[row];
    for (int32_t i = 0; i < bf->num_hashes; i++) hudi_bit_set(bits, pos[i]);
    if (bf->type == HUDI_BLOOM_DYNAMIC_V0) bf->current_count++;
    return 0;
}

int hudi_bloom_add(hudi_bloom *bf, const void *key, size_t len, hudi_error *err) {
    uint32_t pos[1024];
    if (len == 0) return hudi_error_set(err, HUDI_EINVAL, "bloom filter: empty record key");
    hasher hs = hasher_of(bf);
    positions(&hs, key, len, pos);
    return put_key(bf, pos, err);
}

int hudi_bloom_add_many(hudi_bloom *bf, const hudi_slice *keys, size_t n, hudi_error *err) {
    hasher hs = hasher_of(bf);
    uint32_t stack_pos[LANES * 64], *pos = stack_pos;
    int rc = 0;
    if (bf->num_hashes > 64 &&
        !(pos = hudi_malloc(sizeof(uint32_t) * LANES * (size_t)bf->num_hashes)))
        return hudi_error_oom(err);
    size_t i = 0;
    while (i < n && rc == 0) {
        bool lanes = n - i >= LANES && keys[i].len > 0 && (keys[i].len >> 2) <= MAX_WORDS;
        for (int j = 1; lanes && j < LANES; j++) lanes = keys[i + j].len == keys[i].len;
        if (!lanes) {
            rc = hudi_bloom_add(bf, keys[i].data, keys[i].len, err);
            i++;
            continue;
        }
        positions_lanes(&hs, keys + i, pos);
        for (int j = 0; j < LANES && rc == 0; j++) rc = put_key(bf, pos + j * hs.k, err);
        i += LANES;
    }
    if (pos != stack_pos) hudi_free(pos);
    return rc;
}

int hudi_bloom_add_array(hudi_bloom *bf, const hudi_array *keys, hudi_error *err) {
    hudi_slice batch[256];
    size_t nb = 0;
    int rc = 0;
    hudi_type_id t = keys->field->type;
    if (t != HUDI_TYPE_STRING && t != HUDI_TYPE_BINARY)
        return hudi_error_set(err, HUDI_EINVAL, "bloom filter: keys must be strings, not %s",
                              hudi_type_name(t));
    for (int64_t i = 0; i < keys->length && rc == 0; i++) {
        if (!hudi_array_is_valid(keys, i)) continue;
        int32_t b = keys->offsets[i], e = keys->offsets[i + 1];
        if (e <= b) {
            if ((rc = hudi_bloom_add_many(bf, batch, nb, err)) < 0) return rc;
            return hudi_error_set(err, HUDI_EINVAL, "bloom filter: record key of row %lld is empty",
                                  (long long)i);
        }
        batch[nb++] = HUDI_SLICE(keys->data + b, (size_t)(e - b));
        if (nb == HUDI_ARRAY_LEN(batch)) {
            rc = hudi_bloom_add_many(bf, batch, nb, err);
            nb = 0;
        }
    }
    return rc < 0 ? rc : hudi_bloom_add_many(bf, batch, nb, err);
}

bool hudi_bloom_test(const hudi_bloom *bf, const void *key, size_t len) {
    uint32_t pos[1024];
    if (len == 0) return false;
    hasher hs = hasher_of(bf);
    positions(&hs, key, len, pos);
    for (int32_t r = 0; r < bf->n_rows; r++) {
        const uint8_t *bits = bf->rows[r];
        int32_t i = 0;
        while (i < bf->num_hashes && hudi_bit_get(bits, pos[i])) i++;
        if (i == bf->num_hashes) return true;
    }
    return false;
}

bool hudi_bloom_continues(hudi_bloom *bf, hudi_bloom_type type, int32_t num_entries, double fpp,
                          int32_t max_entries, int64_t n_keys) {
    int32_t v = 0, k = 0;
    hudi_error e = HUDI_ERROR_INIT;
    if (!bf || bf->type != type || n_keys < 0 || n_keys > INT32_MAX ||
        hudi_bloom_size(num_entries, fpp, &v, &k, &e) < 0 || bf->vector_bits != v ||
        bf->num_hashes != k)
        return false;
    if (type == HUDI_BLOOM_SIMPLE) {
        if (bf->n_rows != 1) return false;
        bf->max_entries = max_entries;
        return true;
    }
    /* active_row from a new filter, n keys on: a row is added when the current one holds nr
     * keys and the rows hold fewer than max_entries, so rows stop at full = ceil(max / nr); the
     * key after full * nr keys reaches the maximum (row 0, index not advanced), each later one
     * advances the round-robin index. The count grows with every key and restarts per row. */
    int64_t nr = num_entries, n = n_keys;
    int64_t full = HUDI_MAX(1, ((int64_t)max_entries + nr - 1) / nr);
    bool reached = n > full * nr;
    int64_t rows = reached ? full : HUDI_MAX(1, (n + nr - 1) / nr);
    if (bf->entries_per_row != num_entries || bf->n_rows != rows ||
        bf->current_count != n - (rows - 1) * nr)
        return false;
    bf->max_entries = max_entries;
    bf->reached_max = reached;
    bf->cur_index = reached ? (int32_t)(n - full * nr - 1) : 0;
    return true;
}

/* ---- serialization ------------------------------------------------------------------------ */

static void put_i32be(hudi_buf *b, int32_t v) {
    uint8_t p[4];
    hudi_store_u32be(p, (uint32_t)v);
    hudi_buf_append(b, p, 4);
}

static void put_header(hudi_buf *b, const hudi_bloom *bf) {
    put_i32be(b, FILTER_VERSION);
    put_i32be(b, bf->num_hashes);
    hudi_buf_putc(b, (char)HASH_MURMUR);
    put_i32be(b, bf->vector_bits);
}

int hudi_bloom_serialize(const hudi_bloom *bf, hudi_buf *out, hudi_error *err) {
    if (bf->type == HUDI_BLOOM_DYNAMIC_V0) {
        put_header(out, bf);
        put_i32be(out, bf->entries_per_row);
        put_i32be(out, bf->current_count);
        put_i32be(out, bf->n_rows);
    }
    int32_t n = bf->type == HUDI_BLOOM_DYNAMIC_V0 ? bf->n_rows : 1;
    for (int32_t r = 0; r < n; r++) {
        put_header(out, bf);
        hudi_buf_append(out, bf->rows[r], row_bytes(bf));
    }
    return hudi_buf_failed(out) ? hudi_error_oom(err) : 0;
}

int hudi_bloom_to_base64(const hudi_bloom *bf, hudi_buf *out, hudi_error *err) {
    hudi_buf raw = HUDI_BUF_INIT;
    int rc = hudi_bloom_serialize(bf, &raw, err);
    if (rc == 0) {
        hudi_render_base64(out, (const uint8_t *)raw.data, raw.len);
        if (hudi_buf_failed(out)) rc = hudi_error_oom(err);
    }
    hudi_buf_dispose(&raw);
    return rc;
}

/* ---- parsing ------------------------------------------------------------------------------ */

typedef struct reader {
    const uint8_t *p, *end;
    hudi_error *err;
} reader;

static int get_i32(reader *r, int32_t *v, const char *what) {
    if (r->end - r->p < 4)
        return hudi_error_set(r->err, HUDI_ECORRUPT, "bloom filter: truncated at %s", what);
    *v = (int32_t)hudi_load_u32be(r->p);
    r->p += 4;
    return 0;
}

/* Filter.readFields: a positive first int is the old unversioned (Jenkins) format. */
static int get_header(reader *r, int32_t *nb_hash, int32_t *vector_bits) {
    int32_t ver = 0, hash_type = HASH_JENKINS;
    int rc;
    if ((rc = get_i32(r, &ver, "version")) < 0) return rc;
    if (ver > 0) {
        *nb_hash = ver;
    } else if (ver == FILTER_VERSION) {
        if ((rc = get_i32(r, nb_hash, "hash count")) < 0) return rc;
        if (r->p == r->end)
            return hudi_error_set(r->err, HUDI_ECORRUPT, "bloom filter: truncated at hash type");
        hash_type = (int8_t)*r->p++;
    } else {
        return hudi_error_set(r->err, HUDI_ECORRUPT, "bloom filter: unsupported version %d", ver);
    }
    if ((rc = get_i32(r, vector_bits, "vector size")) < 0) return rc;
    if (hash_type != HASH_MURMUR)
        return hudi_error_set(r->err, hash_type == HASH_JENKINS ? HUDI_EUNSUPPORTED : HUDI_ECORRUPT,
                              "bloom filter: hash type %d is not murmur", hash_type);
    return check_shape(*vector_bits, *nb_hash, r->err, "header");
}

static int get_row(reader *r, hudi_bloom *bf) {
    int32_t k = 0, v = 0;
    int rc;
    if ((rc = get_header(r, &k, &v)) < 0) return rc;
    if (k != bf->num_hashes || v != bf->vector_bits)
        return hudi_error_set(
            r->err, HUDI_ECORRUPT,
            "bloom filter: row %d has %d hashes over %d bits, expected %d over %d", bf->n_rows, k,
            v, bf->num_hashes, bf->vector_bits);
    size_t n = row_bytes(bf);
    if ((size_t)(r->end - r->p) < n)
        return hudi_error_set(r->err, HUDI_ECORRUPT, "bloom filter: row %d truncated", bf->n_rows);
    if ((rc = add_row(bf, r->err)) < 0) return rc;
    memcpy(bf->rows[bf->n_rows - 1], r->p, n);
    /* bits past V are never set by Java; clear them so re-serializing is canonical */
    if (bf->vector_bits & 7)
        bf->rows[bf->n_rows - 1][n - 1] &= (uint8_t)((1u << (bf->vector_bits & 7)) - 1);
    r->p += n;
    return 0;
}

int hudi_bloom_parse(hudi_bloom **out, hudi_bloom_type type, hudi_slice bytes, hudi_error *err) {
    reader r = {bytes.data, bytes.data + bytes.len, err};
    int32_t k, v, nr = 0, cur = 0, rows = 1;
    int rc;
    hudi_bloom *bf = NULL;
    *out = NULL;
    if (type != HUDI_BLOOM_SIMPLE && type != HUDI_BLOOM_DYNAMIC_V0)
        return hudi_error_set(err, HUDI_EINVAL, "bloom filter: unknown type %d", (int)type);
    if (type == HUDI_BLOOM_DYNAMIC_V0) {
        if ((rc = get_header(&r, &k, &v)) < 0) return rc;
        if ((rc = get_i32(&r, &nr, "entries per row")) < 0) return rc;
        if ((rc = get_i32(&r, &cur, "record count")) < 0) return rc;
        if ((rc = get_i32(&r, &rows, "row count")) < 0) return rc;
        /* every row needs at least its header and one byte: bounds a hostile count */
        if (rows < 1 || (uint64_t)rows * (13 + row_bytes(&(hudi_bloom){.vector_bits = v})) >
                            (uint64_t)(r.end - r.p))
            return hudi_error_set(err, HUDI_ECORRUPT, "bloom filter: %d rows do not fit", rows);
    } else {
        /* peek the row header for the shape */
        reader peek = r;
        if ((rc = get_header(&peek, &k, &v)) < 0) return rc;
    }
    if (!(bf = alloc_filter(type, v, k))) return hudi_error_oom(err);
    bf->entries_per_row = nr;
    bf->current_count = cur;
    for (int32_t i = 0; i < rows; i++)
        if ((rc = get_row(&r, bf)) < 0) goto done;
    if (r.p != r.end)
        rc = hudi_error_set(err, HUDI_ECORRUPT, "bloom filter: %zu trailing bytes",
                            (size_t)(r.end - r.p));
done:
    if (rc < 0)
        hudi_bloom_free(bf);
    else
        *out = bf;
    return rc;
}

int hudi_bloom_parse_base64(hudi_bloom **out, hudi_bloom_type type, hudi_slice b64,
                            hudi_error *err) {
    hudi_buf raw = HUDI_BUF_INIT;
    int rc;
    *out = NULL;
    if ((rc = hudi_base64_decode(&raw, (const char *)b64.data, b64.len, err)) == 0)
        rc = hudi_bloom_parse(out, type, HUDI_SLICE(raw.data, raw.len), err);
    hudi_buf_dispose(&raw);
    return rc;
}

/* `n` bytes from `off` of the Base64 text into out[]; ECORRUPT when they are not there. */
static int b64_bytes(hudi_slice b64, size_t off, uint8_t *out, size_t n, hudi_error *err) {
    for (size_t i = 0; i < n; i++) {
        int v = hudi_base64_byte_at((const char *)b64.data, b64.len, off + i);
        if (v < 0)
            return hudi_error_set(err, HUDI_ECORRUPT, "bloom filter: bad or missing byte %zu",
                                  off + i);
        out[i] = (uint8_t)v;
    }
    return 0;
}

int hudi_bloom_probe_base64(hudi_bloom_type type, hudi_slice b64, const hudi_slice *keys, size_t n,
                            bool *maybe, hudi_error *err) {
    uint8_t head[25];
    int32_t k = 0, v = 0, nr = 0, rows = 1;
    size_t rows_at = 0;
    int rc;
    *maybe = false;
    if (type != HUDI_BLOOM_SIMPLE && type != HUDI_BLOOM_DYNAMIC_V0)
        return hudi_error_set(err, HUDI_EINVAL, "bloom filter: unknown type %d", (int)type);
    int64_t total = hudi_base64_decoded_len((const char *)b64.data, b64.len);
    if (total < 0) return hudi_error_set(err, HUDI_ECORRUPT, "base64: bad length %zu", b64.len);
    if (type == HUDI_BLOOM_DYNAMIC_V0) {
        reader r = {head, head + sizeof(head), err};
        if ((rc = b64_bytes(b64, 0, head, sizeof(head), err)) < 0 ||
            (rc = get_header(&r, &k, &v)) < 0 || (rc = get_i32(&r, &nr, "entries per row")) < 0 ||
            (rc = get_i32(&r, &nr, "record count")) < 0 ||
            (rc = get_i32(&r, &rows, "row count")) < 0)
            return rc;
        rows_at = sizeof(head);
    } else {
        reader r = {head, head + 13, err};
        if ((rc = b64_bytes(b64, 0, head, 13, err)) < 0 || (rc = get_header(&r, &k, &v)) < 0)
            return rc;
    }
    size_t row_len = 13 + ((size_t)v + 7) / 8;
    /* the whole parse accepts exactly these bytes: no fewer, no trailing ones */
    if (rows < 1 || (uint64_t)rows * row_len != (uint64_t)total - rows_at)
        return hudi_error_set(err, HUDI_ECORRUPT, "bloom filter: %d rows of %zu bytes in %lld",
                              rows, row_len, (long long)total);
    for (int32_t i = 0; i < rows; i++) { /* every row's header says the same shape */
        int32_t rk = 0, rv = 0;
        reader r = {head, head + 13, err};
        if ((rc = b64_bytes(b64, rows_at + (size_t)i * row_len, head, 13, err)) < 0 ||
            (rc = get_header(&r, &rk, &rv)) < 0)
            return rc;
        if (rk != k || rv != v)
            return hudi_error_set(err, HUDI_ECORRUPT,
                                  "bloom filter: row %d has %d hashes over %d bits, expected %d "
                                  "over %d",
                                  i, rk, rv, k, v);
    }
    hasher hs = {(uint32_t)v, UINT64_MAX / (uint32_t)v + 1, k};
    uint32_t pos[1024];
    for (size_t j = 0; j < n && !*maybe; j++) {
        if (keys[j].len == 0) continue;
        positions(&hs, keys[j].data, keys[j].len, pos);
        for (int32_t r = 0; r < rows && !*maybe; r++) {
            size_t bits_at = rows_at + (size_t)r * row_len + 13;
            int32_t i = 0;
            for (; i < k; i++) {
                int b = hudi_base64_byte_at((const char *)b64.data, b64.len, bits_at + pos[i] / 8);
                if (b < 0)
                    return hudi_error_set(err, HUDI_ECORRUPT, "bloom filter: bad byte in row %d",
                                          r);
                if (!(b & (1 << (pos[i] % 8)))) break;
            }
            *maybe = i == k;
        }
    }
    return 0;
}

int hudi_bloom_from_footer(hudi_bloom **out, const hudi_pq_file *f, hudi_error *err) {
    hudi_slice value, code;
    hudi_bloom_type type = HUDI_BLOOM_SIMPLE;
    int rc;
    *out = NULL;
    if (!hudi_pq_kv(f, HUDI_BLOOM_FOOTER_KEY, &value) &&
        !hudi_pq_kv(f, HUDI_BLOOM_FOOTER_KEY_LEGACY, &value))
        return hudi_error_set(err, HUDI_ENOTFOUND, "%s: no bloom filter in the footer",
                              hudi_pq_path(f));
    if (hudi_pq_kv(f, HUDI_BLOOM_TYPE_FOOTER_KEY, &code) &&
        (rc = hudi_bloom_type_parse(&type, (const char *)code.data, code.len, err)) < 0)
        goto fail;
    if ((rc = hudi_bloom_parse_base64(out, type, value, err)) < 0) goto fail;
    return 0;
fail: /* hudi_error_wrap returns 0 when err is NULL: keep rc */
    hudi_error_wrap(err, "%s", hudi_pq_path(f));
    return rc;
}

const char *hudi_bloom_type_name(hudi_bloom_type t) {
    return t == HUDI_BLOOM_DYNAMIC_V0 ? "DYNAMIC_V0" : "SIMPLE";
}

int hudi_bloom_type_parse(hudi_bloom_type *out, const char *name, size_t len, hudi_error *err) {
    if (len == 6 && memcmp(name, "SIMPLE", 6) == 0)
        *out = HUDI_BLOOM_SIMPLE;
    else if (len == 10 && memcmp(name, "DYNAMIC_V0", 10) == 0)
        *out = HUDI_BLOOM_DYNAMIC_V0;
    else
        return hudi_error_set(err, HUDI_EINVAL, "bloom filter type '%.*s' is unknown",
                              (int)HUDI_MIN(len, 64), name);
    return 0;
}
