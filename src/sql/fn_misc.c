/* fn_misc.c - conversion functions named after types (int(x), string(x), ... as Spark has
 * them: CAST by another name), isnan, nanvl, hex, unhex, base64, unbase64, crc32, md5, sha1,
 * sha2 (docs/SQL.md "Functions and operators"). The digests are written from their
 * specifications (RFC 1321, FIPS 180-4). */
#include <math.h>
#include <stdio.h>

#include "columnar/render.h"
#include "sql/fn_int.h"

/* ---- int(x), string(x), ... ----------------------------------------------------------------- */

static hudi_type_id type_of_name(const char *n) {
    static const struct {
        const char *name;
        hudi_type_id t;
    } map[] = {{"boolean", HUDI_TYPE_BOOL},   {"tinyint", HUDI_TYPE_INT8},
               {"smallint", HUDI_TYPE_INT16}, {"int", HUDI_TYPE_INT32},
               {"bigint", HUDI_TYPE_INT64},   {"float", HUDI_TYPE_FLOAT},
               {"double", HUDI_TYPE_DOUBLE},  {"decimal", HUDI_TYPE_DECIMAL},
               {"string", HUDI_TYPE_STRING},  {"binary", HUDI_TYPE_BINARY},
               {"date", HUDI_TYPE_DATE},      {"timestamp", HUDI_TYPE_TIMESTAMP}};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(map); i++)
        if (strcmp(map[i].name, n) == 0) return map[i].t;
    return HUDI_TYPE_NULL;
}

static int conv_bind(hudi_sql_bind_call *call, hudi_error *err) {
    hudi_type_id t = type_of_name(call->name);
    call->result = t == HUDI_TYPE_DECIMAL ? hudi_sql_decimal(10, 0) : hudi_sql_prim(t);
    hudi_sql_bexpr *c;
    /* the cast must exist; the binder then casts the argument to the result type */
    int rc = hudi_sql_bind_cast(call->ctx, call->args[0], &call->result, &c, err);
    if (rc < 0) return rc;
    call->arg_types[0] = call->result;
    return 0;
}

/* The argument arrives cast to the result type: the value passes through. */
static int conv_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                     int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    hudi_array *o = NULL;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    for (int64_t i = 0; i < nrows && rc == 0; i++)
        rc = hudi_sql_out_copy(o, i, args[0].array, hudi_sql_row(&args[0], i), err);
    if (rc < 0) {
        hudi_array_free(o);
        return rc;
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

/* ---- isnan, nanvl ------------------------------------------------------------------------------
 */

static int isnan_bind(hudi_sql_bind_call *call, hudi_error *err) {
    call->result = hudi_sql_prim(HUDI_TYPE_BOOL);
    call->result.nullable = false;
    return hudi_sql_want_id(call, 0, HUDI_TYPE_DOUBLE, err);
}

static int isnan_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                      int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    if (rc < 0) return rc;
    for (int64_t i = 0; i < nrows; i++)
        hudi_sql_out_bool(o, i,
                          hudi_sql_valid(&args[0], i) && isnan(HUDI_SQL_VAL(&args[0], double, i)));
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

static int nanvl_bind(hudi_sql_bind_call *call, hudi_error *err) {
    call->result = hudi_sql_prim(HUDI_TYPE_DOUBLE);
    int rc = hudi_sql_want_id(call, 0, HUDI_TYPE_DOUBLE, err);
    return rc < 0 ? rc : hudi_sql_want_id(call, 1, HUDI_TYPE_DOUBLE, err);
}

static int nanvl_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                      int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    int32_t *choice = hudi_malloc((size_t)(nrows > 0 ? nrows : 1) * sizeof(int32_t));
    if (!choice) return hudi_error_oom(err);
    for (int64_t i = 0; i < nrows; i++) {
        bool nan = hudi_sql_valid(&args[0], i) && isnan(HUDI_SQL_VAL(&args[0], double, i));
        choice[i] = nan ? 1 : 0;
    }
    int rc = hudi_sql_gather(&call->type, args, choice, nrows, out, err);
    hudi_free(choice);
    return rc;
}

/* ---- digests
 * ------------------------------------------------------------------------------------- */

static uint32_t rol(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }
static uint32_t ror(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
static uint64_t ror64(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

/* Pads a message in the MD5/SHA way into blocks of `bs` bytes, calling `block` for each; the
 * length is stored little-endian (MD5) or big-endian, in `lenbytes` bytes. */
static void pad_blocks(const uint8_t *p, size_t n, size_t bs, size_t lenbytes, bool le,
                       void (*block)(void *st, const uint8_t *b), void *st) {
    size_t full = n / bs * bs;
    for (size_t k = 0; k < full; k += bs) block(st, p + k);
    uint8_t tail[256];
    size_t r = n - full;
    memcpy(tail, p + full, r);
    tail[r++] = 0x80;
    size_t total = r + lenbytes <= bs ? bs : 2 * bs;
    memset(tail + r, 0, total - r);
    uint64_t bits = (uint64_t)n * 8;
    for (size_t k = 0; k < 8; k++) {
        uint8_t byte = (uint8_t)(bits >> (8 * k));
        if (le)
            tail[total - lenbytes + k] = byte;
        else
            tail[total - 1 - k] = byte;
    }
    for (size_t k = 0; k < total; k += bs) block(st, tail + k);
}

static void md5_block(void *st, const uint8_t *b) {
    static const uint32_t K[64] = {
        0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613,
        0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193,
        0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d,
        0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed,
        0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122,
        0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa,
        0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244,
        0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
        0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb,
        0xeb86d391};
    static const int S[16] = {7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21};
    uint32_t *h = st, m[16];
    for (int i = 0; i < 16; i++) m[i] = hudi_load_u32le(b + 4 * i);
    uint32_t a = h[0], bb = h[1], c = h[2], d = h[3];
    for (int i = 0; i < 64; i++) {
        uint32_t f;
        int g;
        if (i < 16) {
            f = (bb & c) | (~bb & d);
            g = i;
        } else if (i < 32) {
            f = (d & bb) | (~d & c);
            g = (5 * i + 1) % 16;
        } else if (i < 48) {
            f = bb ^ c ^ d;
            g = (3 * i + 5) % 16;
        } else {
            f = c ^ (bb | ~d);
            g = (7 * i) % 16;
        }
        uint32_t t = d;
        d = c;
        c = bb;
        bb = bb + rol(a + f + K[i] + m[g], S[(i / 16) * 4 + i % 4]);
        a = t;
    }
    h[0] += a;
    h[1] += bb;
    h[2] += c;
    h[3] += d;
}

static size_t md5(const uint8_t *p, size_t n, uint8_t out[16]) {
    uint32_t h[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
    pad_blocks(p, n, 64, 8, true, md5_block, h);
    for (int i = 0; i < 4; i++) memcpy(out + 4 * i, &h[i], 4); /* little-endian words */
    return 16;
}

static void sha1_block(void *st, const uint8_t *b) {
    uint32_t *h = st, w[80];
    for (int i = 0; i < 16; i++) w[i] = hudi_load_u32be(b + 4 * i);
    for (int i = 16; i < 80; i++) w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], bb = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; i++) {
        uint32_t f, k;
        if (i < 20) {
            f = (bb & c) | (~bb & d);
            k = 0x5a827999;
        } else if (i < 40) {
            f = bb ^ c ^ d;
            k = 0x6ed9eba1;
        } else if (i < 60) {
            f = (bb & c) | (bb & d) | (c & d);
            k = 0x8f1bbcdc;
        } else {
            f = bb ^ c ^ d;
            k = 0xca62c1d6;
        }
        uint32_t t = rol(a, 5) + f + e + k + w[i];
        e = d;
        d = c;
        c = rol(bb, 30);
        bb = a;
        a = t;
    }
    h[0] += a;
    h[1] += bb;
    h[2] += c;
    h[3] += d;
    h[4] += e;
}

static size_t sha1(const uint8_t *p, size_t n, uint8_t out[20]) {
    uint32_t h[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
    pad_blocks(p, n, 64, 8, false, sha1_block, h);
    for (int i = 0; i < 5; i++) hudi_store_u32be(out + 4 * i, h[i]);
    return 20;
}

static void sha256_block(void *st, const uint8_t *b) {
    static const uint32_t K[64] = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2};
    uint32_t *h = st, w[64];
    for (int i = 0; i < 16; i++) w[i] = hudi_load_u32be(b + 4 * i);
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t v[8];
    memcpy(v, h, sizeof(v));
    for (int i = 0; i < 64; i++) {
        uint32_t S1 = ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25);
        uint32_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
        uint32_t t1 = v[7] + S1 + ch + K[i] + w[i];
        uint32_t S0 = ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22);
        uint32_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
        memmove(v + 1, v, 7 * sizeof(uint32_t));
        v[4] += t1;
        v[0] = t1 + S0 + maj;
    }
    for (int i = 0; i < 8; i++) h[i] += v[i];
}

static size_t sha256(const uint8_t *p, size_t n, uint8_t *out, bool is224) {
    uint32_t h256[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    uint32_t h224[8] = {0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
                        0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4};
    uint32_t *h = is224 ? h224 : h256;
    pad_blocks(p, n, 64, 8, false, sha256_block, h);
    int words = is224 ? 7 : 8;
    for (int i = 0; i < words; i++) hudi_store_u32be(out + 4 * i, h[i]);
    return (size_t)words * 4;
}

static void sha512_block(void *st, const uint8_t *b) {
    static const uint64_t K[80] = {
        0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
        0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
        0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
        0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
        0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
        0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
        0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
        0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
        0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
        0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
        0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
        0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
        0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
        0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
        0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
        0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
        0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
        0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
        0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
        0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL};
    uint64_t *h = st, w[80];
    for (int i = 0; i < 16; i++)
        w[i] = (uint64_t)hudi_load_u32be(b + 8 * i) << 32 | hudi_load_u32be(b + 8 * i + 4);
    for (int i = 16; i < 80; i++) {
        uint64_t s0 = ror64(w[i - 15], 1) ^ ror64(w[i - 15], 8) ^ (w[i - 15] >> 7);
        uint64_t s1 = ror64(w[i - 2], 19) ^ ror64(w[i - 2], 61) ^ (w[i - 2] >> 6);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint64_t v[8];
    memcpy(v, h, sizeof(v));
    for (int i = 0; i < 80; i++) {
        uint64_t S1 = ror64(v[4], 14) ^ ror64(v[4], 18) ^ ror64(v[4], 41);
        uint64_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
        uint64_t t1 = v[7] + S1 + ch + K[i] + w[i];
        uint64_t S0 = ror64(v[0], 28) ^ ror64(v[0], 34) ^ ror64(v[0], 39);
        uint64_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
        memmove(v + 1, v, 7 * sizeof(uint64_t));
        v[4] += t1;
        v[0] = t1 + S0 + maj;
    }
    for (int i = 0; i < 8; i++) h[i] += v[i];
}

static size_t sha512(const uint8_t *p, size_t n, uint8_t *out, bool is384) {
    uint64_t h512[8] = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
                        0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
                        0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};
    uint64_t h384[8] = {0xcbbb9d5dc1059ed8ULL, 0x629a292a367cd507ULL, 0x9159015a3070dd17ULL,
                        0x152fecd8f70e5939ULL, 0x67332667ffc00b31ULL, 0x8eb44a8768581511ULL,
                        0xdb0c2e0d64f98fa7ULL, 0x47b5481dbefa4fa4ULL};
    uint64_t *h = is384 ? h384 : h512;
    pad_blocks(p, n, 128, 16, false, sha512_block, h);
    int words = is384 ? 6 : 8;
    for (int i = 0; i < words; i++) {
        hudi_store_u32be(out + 8 * i, (uint32_t)(h[i] >> 32));
        hudi_store_u32be(out + 8 * i + 4, (uint32_t)h[i]);
    }
    return (size_t)words * 8;
}

static void put_hex(uint8_t *w, const uint8_t *p, size_t n, bool upper) {
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        w[2 * i] = (uint8_t)digits[p[i] >> 4];
        w[2 * i + 1] = (uint8_t)digits[p[i] & 15];
    }
}

static int bytes_bind(hudi_sql_bind_call *call, hudi_error *err) {
    const char *n = call->name;
    bool num_ok = strcmp(n, "hex") == 0 && hudi_sql_is_integral(call->args[0]->type.type);
    if (!num_ok && call->args[0]->type.type != HUDI_TYPE_BINARY) {
        int rc = hudi_sql_want_id(call, 0,
                                  strcmp(n, "unhex") == 0 || strcmp(n, "unbase64") == 0
                                      ? HUDI_TYPE_STRING
                                      : HUDI_TYPE_BINARY,
                                  err);
        if (rc < 0) return rc;
    }
    if (num_ok) call->arg_types[0] = hudi_sql_prim(HUDI_TYPE_INT64);
    hudi_type_id res = !strcmp(n, "unhex") || !strcmp(n, "unbase64") ? HUDI_TYPE_BINARY
                       : !strcmp(n, "crc32")                         ? HUDI_TYPE_INT64
                                                                     : HUDI_TYPE_STRING;
    call->result = hudi_sql_prim(res);
    if (!strcmp(n, "sha2")) {
        int rc = hudi_sql_want_id(call, 1, HUDI_TYPE_INT32, err);
        if (rc < 0) return rc;
    }
    return 0;
}

static int hexval(uint8_t c) {
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

static int bytes_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                      int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    const char *n = call->fn->name;
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    if (rc < 0) return rc;
    hudi_buf tmp = HUDI_BUF_INIT;
    bool numeric = args[0].array->field->type == HUDI_TYPE_INT64;
    for (int64_t i = 0; i < nrows && rc == 0; i++) {
        if (!hudi_sql_all_valid(args, call->n_args, i)) {
            hudi_sql_out_null(o, i);
            continue;
        }
        uint8_t digest[64];
        size_t dn = 0;
        hudi_slice s = numeric ? HUDI_SLICE("", 0) : hudi_sql_str(&args[0], i);
        if (!strcmp(n, "crc32")) {
            HUDI_SQL_OUT(o, int64_t, i,
                         (int64_t)hudi_crc32(0, s.len ? s.data : (const uint8_t *)"", s.len));
            continue;
        }
        if (!strcmp(n, "md5")) {
            dn = md5(s.data, s.len, digest);
        } else if (!strcmp(n, "sha1")) {
            dn = sha1(s.data, s.len, digest);
        } else if (!strcmp(n, "sha2")) {
            int32_t bits = HUDI_SQL_VAL(&args[1], int32_t, i);
            if (bits == 0 || bits == 256)
                dn = sha256(s.data, s.len, digest, false);
            else if (bits == 224)
                dn = sha256(s.data, s.len, digest, true);
            else if (bits == 384)
                dn = sha512(s.data, s.len, digest, true);
            else if (bits == 512)
                dn = sha512(s.data, s.len, digest, false);
            else {
                hudi_sql_out_null(o, i);
                continue;
            }
        }
        if (dn) {
            uint8_t *w = hudi_sql_out_reserve(o, 2 * dn, err);
            if (!w) {
                rc = HUDI_ENOMEM;
                break;
            }
            put_hex(w, digest, dn, false);
            hudi_sql_out_commit(o, i, 2 * dn);
            continue;
        }
        if (!strcmp(n, "hex")) {
            if (numeric) {
                char t[20];
                int k = snprintf(t, sizeof(t), "%llX",
                                 (unsigned long long)HUDI_SQL_VAL(&args[0], int64_t, i));
                rc = hudi_sql_out_str(o, i, t, (size_t)k, err);
            } else {
                uint8_t *w = hudi_sql_out_reserve(o, 2 * s.len, err);
                if (!w) {
                    rc = HUDI_ENOMEM;
                    break;
                }
                put_hex(w, s.data, s.len, true);
                hudi_sql_out_commit(o, i, 2 * s.len);
            }
        } else if (!strcmp(n, "unhex")) {
            /* an odd count gets a leading 0; a non-hex digit makes the result NULL */
            uint8_t *w = hudi_sql_out_reserve(o, s.len / 2 + 1, err);
            if (!w) {
                rc = HUDI_ENOMEM;
                break;
            }
            size_t k = 0, at = 0;
            bool ok = true;
            if (s.len % 2) {
                int v = hexval(s.data[0]);
                ok = v >= 0;
                w[k++] = (uint8_t)(v & 15);
                at = 1;
            }
            for (; ok && at < s.len; at += 2) {
                int hi = hexval(s.data[at]), lo = hexval(s.data[at + 1]);
                if (hi < 0 || lo < 0)
                    ok = false;
                else
                    w[k++] = (uint8_t)(hi << 4 | lo);
            }
            if (ok)
                hudi_sql_out_commit(o, i, k);
            else
                hudi_sql_out_null(o, i);
        } else if (!strcmp(n, "base64")) {
            hudi_buf_clear(&tmp);
            hudi_render_base64(&tmp, s.data, s.len);
            if (tmp.failed) rc = hudi_error_oom(err);
            if (rc == 0) rc = hudi_sql_out_str(o, i, tmp.data ? tmp.data : "", tmp.len, err);
        } else { /* unbase64 */
            hudi_buf_clear(&tmp);
            hudi_error e2 = HUDI_ERROR_INIT;
            int r2 = hudi_base64_decode(&tmp, (const char *)s.data, s.len, &e2);
            if (r2 == HUDI_ENOMEM) {
                rc = hudi_error_oom(err);
            } else if (r2 < 0) {
                hudi_sql_out_null(o, i);
            } else {
                rc = hudi_sql_out_str(o, i, tmp.data ? tmp.data : "", tmp.len, err);
            }
        }
    }
    hudi_buf_dispose(&tmp);
    if (rc < 0) {
        hudi_array_free(o);
        return rc;
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

#define F HUDI_SQL_SCALAR_FN
#define CONV(name) F(name, 1, 1, conv_bind, conv_eval, name "(x) - CAST(x AS " name ")")

const hudi_sql_func hudi_sql_misc_funcs[] = {
    CONV("boolean"),
    CONV("tinyint"),
    CONV("smallint"),
    CONV("int"),
    CONV("bigint"),
    CONV("float"),
    CONV("double"),
    CONV("decimal"),
    CONV("string"),
    CONV("binary"),
    CONV("timestamp"),
    F("isnan", 1, 1, isnan_bind, isnan_eval, "isnan(x) - whether x is NaN"),
    F("nanvl", 2, 2, nanvl_bind, nanvl_eval, "nanvl(x, y) - y when x is NaN, else x"),
    F("hex", 1, 1, bytes_bind, bytes_eval,
      "hex(x) - upper-case hex of a string's bytes, or of an integer's value"),
    F("unhex", 1, 1, bytes_bind, bytes_eval,
      "unhex(str) - the bytes of hex text (NULL if not hex)"),
    F("base64", 1, 1, bytes_bind, bytes_eval, "base64(bin) - base64 text of the bytes"),
    F("unbase64", 1, 1, bytes_bind, bytes_eval, "unbase64(str) - the bytes of base64 text"),
    F("crc32", 1, 1, bytes_bind, bytes_eval, "crc32(bin) - the CRC-32 of the bytes as a BIGINT"),
    F("md5", 1, 1, bytes_bind, bytes_eval, "md5(bin) - the MD5 digest as 32 hex digits"),
    F("sha1", 1, 1, bytes_bind, bytes_eval, "sha1(bin) - the SHA-1 digest as hex (sha)"),
    F("sha2", 2, 2, bytes_bind, bytes_eval,
      "sha2(bin, bits) - the SHA-2 digest (224, 256 or 0, 384, 512 bits) as hex"),
};
const int32_t hudi_sql_misc_nfuncs = (int32_t)HUDI_ARRAY_LEN(hudi_sql_misc_funcs);
