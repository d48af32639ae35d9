/* convert.c - value conversions of schema evolution (docs/formats/schema-evolution.md §5).
 *
 * Invariant: a conversion costs no allocation per row. Fixed-width targets are written straight
 * into the new array's buffers; string targets format each value into one scratch hudi_buf and
 * append its bytes, so only the geometric growth of the scratch and data buffers allocates. */
#include "columnar/convert.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "columnar/render.h"
#include "columnar/value_parse.h"

typedef unsigned __int128 u128;

/* ---- type rules ----------------------------------------------------------------------------- */

static bool is_int(hudi_type_id t) {
    return t == HUDI_TYPE_INT8 || t == HUDI_TYPE_INT16 || t == HUDI_TYPE_INT32 ||
           t == HUDI_TYPE_INT64;
}

bool hudi_type_same(const hudi_field *a, const hudi_field *b) {
    if (a->type != b->type) return false;
    switch (a->type) {
    case HUDI_TYPE_DECIMAL: return a->precision == b->precision && a->scale == b->scale;
    case HUDI_TYPE_TIME:
    case HUDI_TYPE_TIMESTAMP: return a->unit == b->unit && a->utc == b->utc;
    case HUDI_TYPE_FIXED_BINARY: return a->byte_width == b->byte_width;
    default: return true;
    }
}

/* decimal(p1, s1) -> decimal(p2, s2): no integer digit lost, and either more fraction digits
 * or the same scale (the ALTER COLUMN TYPE rule of §5). */
static bool decimal_widens(const hudi_field *from, const hudi_field *to) {
    int32_t p1 = from->precision, s1 = from->scale, p2 = to->precision, s2 = to->scale;
    return (p2 - s2 >= p1 - s1 && s2 > s1) || (p2 >= p1 && s2 == s1);
}

bool hudi_type_can_convert(const hudi_field *from, const hudi_field *to) {
    hudi_type_id a = from->type, b = to->type;
    if (hudi_type_is_nested(a) || hudi_type_is_nested(b)) return false;
    if (hudi_type_same(from, to)) return true;
    switch (b) {
    case HUDI_TYPE_INT16:
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_INT64: return is_int(a) && hudi_type_width(from) < hudi_type_width(to);
    case HUDI_TYPE_FLOAT: return is_int(a);
    case HUDI_TYPE_DOUBLE: return is_int(a) || a == HUDI_TYPE_FLOAT;
    case HUDI_TYPE_DECIMAL:
        if (to->precision < 1 || to->precision > 38 || to->scale < 0 || to->scale > 38)
            return false;
        if (a == HUDI_TYPE_DECIMAL) return decimal_widens(from, to);
        return is_int(a) || a == HUDI_TYPE_FLOAT || a == HUDI_TYPE_DOUBLE || a == HUDI_TYPE_STRING;
    case HUDI_TYPE_STRING:
        return is_int(a) || a == HUDI_TYPE_FLOAT || a == HUDI_TYPE_DOUBLE ||
               a == HUDI_TYPE_DECIMAL || a == HUDI_TYPE_DATE || a == HUDI_TYPE_BINARY;
    case HUDI_TYPE_DATE:
    case HUDI_TYPE_BINARY: return a == HUDI_TYPE_STRING;
    /* another unit of the same kind: rescaled (timestamp-millis files of a table whose
     * InternalSchema says "timestamp", which is micros) */
    case HUDI_TYPE_TIMESTAMP: return a == HUDI_TYPE_TIMESTAMP && from->utc == to->utc;
    case HUDI_TYPE_TIME: return a == HUDI_TYPE_TIME;
    default: return false;
    }
}

/* ---- Java's Double.toString / Float.toString ------------------------------------------------ */

/* JDK 17 (like every JDK before 19) prints the digits of its FloatingDecimal class, which are
 * not always the shortest that read back: it stops generating digits on a symmetric half-ULP
 * test (the narrower one at powers of two), always gives the scientific form a second digit
 * (4.9E-324, not 5.0E-324), and prints integral values below 2^63 from the integer with only
 * the digits its exponent makes insignificant rounded off (float 1.13132703E18). These
 * functions compute the same digits (docs/formats/schema-evolution.md §5): B / S is the value
 * scaled into [1, 10), M half its ULP at the same scale, in exact integer arithmetic. */

/* ceil(log2(5^i)), the bit-length bound that picks the arithmetic (and so the exact ties). */
static const int n5_bits[27] = {0,  3,  5,  7,  10, 12, 14, 17, 19, 21, 24, 26, 28, 31,
                                33, 35, 38, 40, 42, 45, 47, 49, 52, 54, 56, 59, 61};

enum { BIG_LIMBS = 48 }; /* 1536 bits: 10 * 2^1077 * 5^340 at most */

typedef struct big {
    int n; /* limbs in use; no leading zero limb */
    uint32_t d[BIG_LIMBS];
} big;

static void big_set(big *a, uint64_t v) {
    a->n = 0;
    while (v) {
        a->d[a->n++] = (uint32_t)v;
        v >>= 32;
    }
}

static void big_mul_small(big *a, uint32_t k) {
    uint64_t carry = 0;
    for (int i = 0; i < a->n; i++) {
        uint64_t t = (uint64_t)a->d[i] * k + carry;
        a->d[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry && a->n < BIG_LIMBS) a->d[a->n++] = (uint32_t)carry;
}

static void big_mul_pow5(big *a, int e) {
    for (; e >= 13; e -= 13) big_mul_small(a, 1220703125u); /* 5^13 */
    static const uint32_t p5[13] = {1,     5,      25,      125,     625,      3125,     15625,
                                    78125, 390625, 1953125, 9765625, 48828125, 244140625};
    if (e > 0) big_mul_small(a, p5[e]);
}

static void big_shl(big *a, int bits) {
    if (a->n == 0 || bits <= 0) return;
    int limbs = bits / 32, r = bits % 32;
    int n = a->n + limbs + 1;
    if (n > BIG_LIMBS) n = BIG_LIMBS;
    for (int i = n - 1; i >= 0; i--) {
        int src = i - limbs;
        uint64_t hi = src >= 0 && src < a->n ? a->d[src] : 0;
        uint64_t lo = src - 1 >= 0 && src - 1 < a->n ? a->d[src - 1] : 0;
        a->d[i] = r ? (uint32_t)((hi << r) | (lo >> (32 - r))) : (uint32_t)hi;
    }
    a->n = n;
    while (a->n && a->d[a->n - 1] == 0) a->n--;
}

static int big_cmp(const big *a, const big *b) {
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->d[i] != b->d[i]) return a->d[i] < b->d[i] ? -1 : 1;
    return 0;
}

static void big_add(big *out, const big *a, const big *b) {
    uint64_t carry = 0;
    int n = HUDI_MAX(a->n, b->n);
    for (int i = 0; i < n; i++) {
        uint64_t t = (uint64_t)(i < a->n ? a->d[i] : 0) + (i < b->n ? b->d[i] : 0) + carry;
        out->d[i] = (uint32_t)t;
        carry = t >> 32;
    }
    out->n = n;
    if (carry && n < BIG_LIMBS) out->d[out->n++] = (uint32_t)carry;
}

static void big_sub(big *a, const big *b) { /* a >= b */
    int64_t borrow = 0;
    for (int i = 0; i < a->n; i++) {
        int64_t t = (int64_t)a->d[i] - (i < b->n ? b->d[i] : 0) - borrow;
        borrow = t < 0;
        a->d[i] = (uint32_t)(t + (borrow ? (int64_t)1 << 32 : 0));
    }
    while (a->n && a->d[a->n - 1] == 0) a->n--;
}

/* q = B / S (< 10); B = 10 * (B % S) */
static int big_digit(big *b, const big *s) {
    int q = 0;
    while (big_cmp(b, s) >= 0) {
        big_sub(b, s);
        q++;
    }
    big_mul_small(b, 10);
    return q;
}

static big big_pow52(int p5, int p2, uint64_t times) {
    big a;
    big_set(&a, times);
    big_mul_pow5(&a, p5);
    big_shl(&a, p2);
    return a;
}

/* floor(log10(v)) estimated from the binary exponent and the mantissa's first bits, as
 * FloatingDecimal does (one low sometimes: the first digit is then 0 and dropped). */
static int estimate_dec_exp(uint64_t fract_bits, int bin_exp) {
    uint64_t bits = (uint64_t)1023 << 52 | (fract_bits & 0x000fffffffffffffull);
    double d2;
    memcpy(&d2, &bits, 8);
    double t = (d2 - 1.5) * 0.289529654;
    t = t + 0.176091259;
    double u = (double)bin_exp * 0.301029995663981;
    return (int)floor(t + u);
}

/* Digits of fract_bits (hidden bit at 2^52) * 2^(bin_exp - 52), n_sig significant bits; v ~
 * 0.d1d2... * 10^(*dexp). Digits may end in zeros, as Java prints them. */
static int jdk_digits(int bin_exp, uint64_t fract_bits, int n_sig, char dig[24], int *dexp) {
    int tail_zeros = __builtin_ctzll(fract_bits);
    int n_fract_bits = 53 - tail_zeros;
    int n_tiny = HUDI_MAX(0, n_fract_bits - bin_exp - 1);
    if (bin_exp <= 62 && bin_exp >= -21 && n_tiny == 0 && n_fract_bits + n5_bits[0] < 64) {
        /* an integer: its digits, less the insignificant ones (rounded half up) */
        int insignificant = 0, p2 = bin_exp - n_sig - 1;
        if (bin_exp > n_sig && p2 > 1) insignificant = (int)floor(p2 * 0.30102999566398120);
        uint64_t v = bin_exp >= 52 ? fract_bits << (bin_exp - 52) : fract_bits >> (52 - bin_exp);
        if (insignificant > 0) {
            uint64_t pow10 = 1;
            for (int i = 0; i < insignificant; i++) pow10 *= 10;
            uint64_t residue = v % pow10;
            v /= pow10;
            if (residue >= pow10 / 2) v++;
        }
        char tmp[24];
        int n = 0;
        while (v % 10 == 0) {
            v /= 10;
            insignificant++;
        }
        do {
            tmp[n++] = (char)('0' + (int)(v % 10));
            v /= 10;
        } while (v);
        for (int i = 0; i < n; i++) dig[i] = tmp[n - 1 - i];
        *dexp = n + insignificant;
        return n;
    }
    int dec_exp = estimate_dec_exp(fract_bits, bin_exp);
    int b5 = HUDI_MAX(0, -dec_exp), b2 = b5 + n_tiny + bin_exp;
    int s5 = HUDI_MAX(0, dec_exp), s2 = s5 + n_tiny;
    int m5 = b5, m2 = b2 - n_sig;
    fract_bits >>= tail_zeros;
    b2 -= n_fract_bits - 1;
    int common = HUDI_MIN(b2, s2);
    b2 -= common;
    s2 -= common;
    m2 -= common;
    if (n_fract_bits == 1) m2 -= 1; /* a power of two: the next lower value is nearer */
    if (m2 < 0) {
        b2 -= m2;
        s2 -= m2;
        m2 = 0;
    }
    int b_bits = n_fract_bits + b2 + (b5 < 27 ? n5_bits[b5] : b5 * 3);
    int ten_s_bits = s2 + 1 + (s5 + 1 < 27 ? n5_bits[s5 + 1] : (s5 + 1) * 3);
    int nd = 0, q;
    bool low, high, e_form;
    int ldd; /* sign of 2 * remainder - 10 * S: which way a tie between both stops goes */
    if (b_bits < 64 && ten_s_bits < 64) {
        /* Java's int or long arithmetic, wrapping included (the stop tests are strict) */
        bool narrow = b_bits < 32 && ten_s_bits < 32;
        uint64_t mask = narrow ? 0xffffffffull : ~0ull;
        int64_t p5b = 1, p5s = 1;
        for (int i = 0; i < b5; i++) p5b *= 5;
        for (int i = 0; i < s5; i++) p5s *= 5;
#define WRAP(x) (narrow ? (int64_t)(int32_t)(uint32_t)((uint64_t)(x)&mask) : (int64_t)(uint64_t)(x))
        int64_t b = WRAP((uint64_t)WRAP((uint64_t)fract_bits * (uint64_t)p5b) << b2);
        int64_t s = WRAP((uint64_t)p5s << s2);
        int64_t m = WRAP((uint64_t)p5b << m2);
        int64_t tens = WRAP((uint64_t)s * 10);
        q = (int)(b / s);
        b = WRAP((uint64_t)(b % s) * 10);
        m = WRAP((uint64_t)m * 10);
        low = b < m;
        high = WRAP((uint64_t)b + (uint64_t)m) > tens;
        if (q == 0 && !high)
            dec_exp--;
        else
            dig[nd++] = (char)('0' + q);
        e_form = dec_exp < -3 || dec_exp >= 8;
        if (e_form) low = high = false;
        while (!low && !high && nd < 20) {
            q = (int)(b / s);
            b = WRAP((uint64_t)(b % s) * 10);
            m = WRAP((uint64_t)m * 10);
            if (m > 0) {
                low = b < m;
                high = WRAP((uint64_t)b + (uint64_t)m) > tens;
            } else {
                low = high = true;
            }
            dig[nd++] = (char)('0' + q);
        }
        int64_t diff = WRAP(((uint64_t)b << 1) - (uint64_t)tens);
#undef WRAP
        ldd = diff > 0 ? 1 : diff < 0 ? -1 : 0;
    } else {
        /* big integers; here the high test is B + M >= 10 S */
        big s = big_pow52(s5, s2, 1), ten_s = big_pow52(s5 + 1, s2 + 1, 1);
        big b = big_pow52(b5, b2, fract_bits), m = big_pow52(m5 + 1, m2 + 1, 1), sum;
        q = big_digit(&b, &s);
        low = big_cmp(&b, &m) < 0;
        big_add(&sum, &b, &m);
        high = big_cmp(&sum, &ten_s) >= 0;
        if (q == 0 && !high)
            dec_exp--;
        else
            dig[nd++] = (char)('0' + q);
        e_form = dec_exp < -3 || dec_exp >= 8;
        if (e_form) low = high = false;
        while (!low && !high && nd < 20) {
            q = big_digit(&b, &s);
            big_mul_small(&m, 10);
            low = big_cmp(&b, &m) < 0;
            big_add(&sum, &b, &m);
            high = big_cmp(&sum, &ten_s) >= 0;
            dig[nd++] = (char)('0' + q);
        }
        ldd = 0;
        if (high && low) {
            big_shl(&b, 1);
            ldd = big_cmp(&b, &ten_s);
        }
    }
    *dexp = dec_exp + 1;
    bool up = high && (!low || ldd > 0 || (ldd == 0 && ((dig[nd - 1] - '0') & 1)));
    if (up) {
        int i = nd - 1;
        while (i > 0 && dig[i] == '9') dig[i--] = '0';
        if (dig[i] == '9') { /* carried out of the first digit: 10...0 */
            dig[0] = '1';
            (*dexp)++;
        } else {
            dig[i]++;
        }
    }
    return nd;
}

/* Java's layout of 0.d1d2... * 10^dexp: plain for 10^-3 <= |v| < 10^7 with at least one
 * fraction digit ("100.0", "0.001"), else "d.ddd" (at least "d.0") + "E" + exponent. */
static void java_layout(hudi_buf *out, bool neg, const char *dig, int nd, int dexp) {
    char s[64], *o = s;
    if (neg) *o++ = '-';
    if (dexp > 0 && dexp < 8) {
        for (int i = 0; i < dexp; i++) *o++ = i < nd ? dig[i] : '0';
        *o++ = '.';
        if (nd > dexp) {
            memcpy(o, dig + dexp, (size_t)(nd - dexp));
            o += nd - dexp;
        } else {
            *o++ = '0';
        }
    } else if (dexp <= 0 && dexp > -3) {
        *o++ = '0';
        *o++ = '.';
        for (int i = 0; i < -dexp; i++) *o++ = '0';
        memcpy(o, dig, (size_t)nd);
        o += nd;
    } else {
        *o++ = dig[0];
        *o++ = '.';
        if (nd > 1) {
            memcpy(o, dig + 1, (size_t)(nd - 1));
            o += nd - 1;
        } else {
            *o++ = '0';
        }
        o += snprintf(o, 8, "E%d", dexp - 1);
    }
    hudi_buf_append(out, s, (size_t)(o - s));
}

static void java_text(hudi_buf *out, double v, bool single) {
    if (isnan(v)) {
        hudi_buf_puts(out, "NaN");
        return;
    }
    if (isinf(v)) {
        hudi_buf_puts(out, v > 0 ? "Infinity" : "-Infinity");
        return;
    }
    if (v == 0) {
        hudi_buf_puts(out, signbit(v) ? "-0.0" : "0.0");
        return;
    }
    uint64_t fract;
    int bin_exp, n_sig;
    if (single) {
        float f = (float)v;
        uint32_t fb;
        memcpy(&fb, &f, 4);
        uint32_t fr = fb & 0x7fffffu;
        int e = (int)((fb >> 23) & 0xff);
        if (e == 0) { /* subnormal: its top bit moves to where the hidden bit is */
            int lz = __builtin_clz(fr), shift = lz - 8;
            fr <<= shift;
            e = 1 - shift;
            n_sig = 32 - lz;
        } else {
            fr |= 1u << 23;
            n_sig = 24;
        }
        bin_exp = e - 127;
        fract = (uint64_t)fr << 29;
    } else {
        uint64_t db;
        memcpy(&db, &v, 8);
        fract = db & 0x000fffffffffffffull;
        int e = (int)((db >> 52) & 0x7ff);
        if (e == 0) {
            int lz = __builtin_clzll(fract), shift = lz - 11;
            fract <<= shift;
            e = 1 - shift;
            n_sig = 64 - lz;
        } else {
            fract |= 1ull << 52;
            n_sig = 53;
        }
        bin_exp = e - 1023;
    }
    char dig[24];
    int dexp;
    int nd = jdk_digits(bin_exp, fract, n_sig, dig, &dexp);
    java_layout(out, signbit(v) != 0, dig, nd, dexp);
}

void hudi_java_double_text(hudi_buf *out, double v) { java_text(out, v, false); }

void hudi_java_float_text(hudi_buf *out, float v) { java_text(out, v, true); }

/* ---- decimals ---------------------------------------------------------------------------------
 */

static u128 pow10_u128(int k) {
    u128 r = 1;
    while (k-- > 0) r *= 10;
    return r;
}

static __int128 load_dec(const void *values, int64_t i) {
    const uint8_t *p = (const uint8_t *)values + (size_t)i * 16;
    return (__int128)((u128)hudi_load_u64le(p + 8) << 64 | hudi_load_u64le(p));
}

static void store_dec(void *values, int64_t i, __int128 v) {
    uint8_t *p = (uint8_t *)values + (size_t)i * 16;
    hudi_store_u64le(p, (uint64_t)(u128)v);
    hudi_store_u64le(p + 8, (uint64_t)((u128)v >> 64));
}

/* Java's BigDecimal.toString of unscaled * 10^-scale: plain when scale >= 0 and the adjusted
 * exponent (-scale + digits - 1) is at least -6, else scientific ("0E-10", "1.2E-7", "1E+3"). */
static void bigdecimal_text(hudi_buf *out, __int128 unscaled, int32_t scale) {
    u128 m = unscaled < 0 ? (u128)0 - (u128)unscaled : (u128)unscaled;
    char dig[48];
    int nd = 0;
    do {
        dig[nd++] = (char)('0' + (int)(m % 10));
        m /= 10;
    } while (m);
    for (int i = 0; i < nd / 2; i++) {
        char t = dig[i];
        dig[i] = dig[nd - 1 - i];
        dig[nd - 1 - i] = t;
    }
    int64_t adjusted = -(int64_t)scale + (nd - 1);
    char s[160], *o = s;
    if (unscaled < 0) *o++ = '-';
    if (scale >= 0 && adjusted >= -6) {
        if (nd > scale) {
            memcpy(o, dig, (size_t)(nd - scale));
            o += nd - scale;
            if (scale > 0) {
                *o++ = '.';
                memcpy(o, dig + nd - scale, (size_t)scale);
                o += scale;
            }
        } else {
            *o++ = '0';
            *o++ = '.';
            for (int i = nd; i < scale; i++) *o++ = '0';
            memcpy(o, dig, (size_t)nd);
            o += nd;
        }
    } else {
        *o++ = dig[0];
        if (nd > 1) {
            *o++ = '.';
            memcpy(o, dig + 1, (size_t)(nd - 1));
            o += nd - 1;
        }
        o += snprintf(o, 24, "E%s%lld", adjusted > 0 ? "+" : "", (long long)adjusted);
    }
    hudi_buf_append(out, s, (size_t)(o - s));
}

enum { DEC_OK = 0, DEC_SYNTAX = -1, DEC_RANGE = -2 };

/* Java's trim(): every leading and trailing character <= ' '. */
static void trim(const char **s, size_t *n) {
    while (*n && (unsigned char)(*s)[0] <= ' ') {
        (*s)++;
        (*n)--;
    }
    while (*n && (unsigned char)(*s)[*n - 1] <= ' ') (*n)--;
}

/* BigDecimal text ([sign] digits [. digits] [e|E [sign] digits], or ". digits") rounded HALF_UP
 * to `scale` fraction digits: the unscaled value, which must have at most `precision` digits. */
static int parse_decimal_half_up(const char *s, size_t n, int32_t precision, int32_t scale,
                                 __int128 *out) {
    size_t i = 0;
    bool neg = false;
    if (i < n && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
    size_t mant = i, n_digits = 0, n_frac = 0;
    bool dot = false;
    for (; i < n; i++) {
        if (s[i] == '.' && !dot) {
            dot = true;
        } else if (s[i] >= '0' && s[i] <= '9') {
            n_digits++;
            if (dot) n_frac++;
        } else {
            break;
        }
    }
    size_t mant_end = i;
    if (n_digits == 0) return DEC_SYNTAX;
    int64_t exp10 = 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < n && (s[i] == '-' || s[i] == '+')) eneg = s[i++] == '-';
        if (i == n) return DEC_SYNTAX;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            if (exp10 < 1000000000) exp10 = exp10 * 10 + (s[i] - '0');
        if (eneg) exp10 = -exp10;
    }
    if (i != n) return DEC_SYNTAX;
    /* value = M * 10^(exp10 - n_frac), M the mantissa digits; unscaled = M * 10^k */
    int64_t k = exp10 - (int64_t)n_frac + scale;
    /* keep the first n_digits + k mantissa digits; the next one decides the rounding */
    int64_t keep = (int64_t)n_digits + k;
    u128 limit = pow10_u128(precision), m = 0;
    int round_digit = 0;
    int64_t idx = 0;
    for (size_t j = mant; j < mant_end; j++) {
        if (s[j] == '.') continue;
        int d = s[j] - '0';
        if (idx < keep) {
            m = m * 10 + (u128)d;
            if (m >= limit) return DEC_RANGE;
        } else if (idx == keep) {
            round_digit = d;
        }
        idx++;
    }
    if (k > 0 && m != 0) {
        if (k > 38) return DEC_RANGE;
        u128 f = pow10_u128((int)k);
        if (m > (limit - 1) / f) return DEC_RANGE;
        m *= f;
    }
    if (round_digit >= 5) m++;
    if (m >= limit) return DEC_RANGE;
    *out = neg ? -(__int128)m : (__int128)m;
    return DEC_OK;
}

/* unscaled at scale s1 -> scale s2, HALF_UP; DEC_RANGE when it needs more than `precision`. */
static int rescale(__int128 v, int32_t s1, int32_t s2, int32_t precision, __int128 *out) {
    bool neg = v < 0;
    u128 m = neg ? (u128)0 - (u128)v : (u128)v, limit = pow10_u128(precision);
    if (s2 >= s1) {
        if (m != 0) {
            if (s2 - s1 > 38) return DEC_RANGE;
            u128 f = pow10_u128(s2 - s1);
            if (m > (limit - 1) / f) return DEC_RANGE;
            m *= f;
        }
    } else if (s1 - s2 > 38) {
        m = 0;
    } else {
        u128 f = pow10_u128(s1 - s2), q = m / f, r = m % f;
        m = q + (r * 2 >= f ? 1 : 0);
    }
    if (m >= limit) return DEC_RANGE;
    *out = neg ? -(__int128)m : (__int128)m;
    return DEC_OK;
}

/* ---- strings ----------------------------------------------------------------------------------
 */

/* The length of the maximal prefix of an ill-formed sequence at s (s[0] >= 0x80): the bytes one
 * U+FFFD replaces (Unicode's "maximal subpart" practice, which Java's decoder follows). */
static size_t bad_utf8_len(const uint8_t *s, size_t n) {
    uint8_t c = s[0], lo = 0x80, hi = 0xbf;
    size_t len;
    if (c >= 0xc2 && c <= 0xdf)
        len = 2;
    else if (c >= 0xe0 && c <= 0xef)
        len = 3;
    else if (c >= 0xf0 && c <= 0xf4)
        len = 4;
    else
        return 1;
    if (c == 0xe0) lo = 0xa0;
    if (c == 0xed) hi = 0x9f;
    if (c == 0xf0) lo = 0x90;
    if (c == 0xf4) hi = 0x8f;
    size_t k = 1;
    if (k < n && s[k] >= lo && s[k] <= hi) {
        k++;
        while (k < len && k < n && (s[k] & 0xc0) == 0x80) k++;
    }
    return k;
}

/* s as UTF-8 with every ill-formed subsequence replaced by U+FFFD. */
static void put_utf8_repaired(hudi_buf *out, const uint8_t *s, size_t n) {
    size_t i = 0, run = 0;
    while (i < n) {
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        size_t len = hudi_utf8_seq_len(s + i, n - i);
        if (len) {
            i += len;
            continue;
        }
        hudi_buf_append(out, s + run, i - run);
        hudi_buf_append(out, "\xef\xbf\xbd", 3);
        i += bad_utf8_len(s + i, n - i);
        run = i;
    }
    hudi_buf_append(out, s + run, n - run);
}

/* java.sql.Date.valueOf: "yyyy-[m]m-[d]d" with month 1-12 and day 1-31; a day past the month's
 * end rolls into the next month, as java.util.Date's lenient calendar does. */
static bool parse_java_date(const char *s, size_t n, int32_t *days) {
    int part[3] = {0, 0, 0}, len[3] = {0, 0, 0}, k = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '-') {
            if (++k > 2) return false;
        } else if (s[i] >= '0' && s[i] <= '9') {
            if (++len[k] > 4) return false;
            part[k] = part[k] * 10 + (s[i] - '0');
        } else {
            return false;
        }
    }
    if (k != 2 || len[0] != 4 || len[1] < 1 || len[1] > 2 || len[2] < 1 || len[2] > 2) return false;
    if (part[1] < 1 || part[1] > 12 || part[2] < 1 || part[2] > 31) return false;
    *days = (int32_t)(hudi_days_from_civil(part[0], part[1], 1) + part[2] - 1);
    return true;
}

/* ---- the array conversion ---------------------------------------------------------------------
 */

typedef struct conv {
    const hudi_array *a;
    hudi_array *w;
    bool lenient;
    const char *column;
    hudi_buf text; /* scratch: one value's text */
    hudi_error *err;
} conv;

/* Value i of a signed integer array. */
static int64_t int_at(const hudi_array *a, int64_t i) {
    switch (a->field->type) {
    case HUDI_TYPE_INT8: return ((const int8_t *)a->values)[i];
    case HUDI_TYPE_INT16: return ((const int16_t *)a->values)[i];
    case HUDI_TYPE_INT32: return ((const int32_t *)a->values)[i];
    default: return ((const int64_t *)a->values)[i];
    }
}

static void describe(hudi_buf *b, const hudi_field *f) {
    if (f->type == HUDI_TYPE_DECIMAL)
        hudi_buf_printf(b, "decimal(%d,%d)", (int)f->precision, (int)f->scale);
    else
        hudi_buf_puts(b, hudi_type_name(f->type));
}

/* Row i does not convert: null when lenient, else EINVAL naming the column and the value (the
 * value's text is in c->text). */
static int bad_value(conv *c, int64_t i, const char *why) {
    if (c->lenient) {
        hudi_bit_clear(c->w->validity, i);
        c->w->null_count++;
        return 0;
    }
    hudi_buf t = HUDI_BUF_INIT;
    describe(&t, c->w->field);
    const char *value = c->text.data ? c->text.data : "";
    int rc = hudi_error_set(c->err, HUDI_EINVAL, "column %s: value '%.200s' %s %s", c->column,
                            value, why, t.data ? t.data : "?");
    hudi_buf_dispose(&t);
    return rc;
}

/* The text of row i of a (a valid row), in c->text. */
static void value_text(conv *c, int64_t i) {
    const hudi_array *a = c->a;
    const hudi_field *f = a->field;
    hudi_buf *t = &c->text;
    hudi_buf_clear(t);
    switch (f->type) {
    case HUDI_TYPE_INT8:
    case HUDI_TYPE_INT16:
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_INT64: hudi_render_i64(t, int_at(a, i)); break;
    case HUDI_TYPE_FLOAT: hudi_java_float_text(t, ((const float *)a->values)[i]); break;
    case HUDI_TYPE_DOUBLE: hudi_java_double_text(t, ((const double *)a->values)[i]); break;
    case HUDI_TYPE_DECIMAL: bigdecimal_text(t, load_dec(a->values, i), f->scale); break;
    case HUDI_TYPE_DATE: hudi_render_date(t, ((const int32_t *)a->values)[i]); break;
    case HUDI_TYPE_BINARY: {
        int32_t s = a->offsets[i], e = a->offsets[i + 1];
        put_utf8_repaired(t, a->data + s, (size_t)(e - s));
        break;
    }
    default: { /* STRING: as is */
        int32_t s = a->offsets[i], e = a->offsets[i + 1];
        hudi_buf_append(t, a->data + s, (size_t)(e - s));
        break;
    }
    }
}

static int to_string(conv *c) {
    const hudi_array *a = c->a;
    hudi_array *w = c->w;
    int64_t n = a->length;
    int rc;
    w->offsets[0] = 0;
    for (int64_t i = 0; i < n; i++) {
        if (hudi_array_is_valid(a, i)) {
            if (a->field->type == HUDI_TYPE_STRING) { /* string -> binary: the bytes */
                int32_t s = a->offsets[i], e = a->offsets[i + 1];
                if ((rc = hudi_array_grow_data(w, e - s, c->err)) < 0) return rc;
                memcpy(w->data + w->data_len, a->data + s, (size_t)(e - s));
                w->data_len += e - s;
            } else {
                value_text(c, i);
                if (hudi_buf_failed(&c->text)) return hudi_error_oom(c->err);
                if ((rc = hudi_array_grow_data(w, (int64_t)c->text.len, c->err)) < 0) return rc;
                memcpy(w->data + w->data_len, c->text.data, c->text.len);
                w->data_len += (int64_t)c->text.len;
            }
        }
        w->offsets[i + 1] = (int32_t)w->data_len;
    }
    return 0;
}

static int to_decimal(conv *c) {
    const hudi_array *a = c->a;
    hudi_array *w = c->w;
    const hudi_field *from = a->field, *to = w->field;
    int64_t n = a->length;
    int32_t p = to->precision, s = to->scale;
    u128 limit = pow10_u128(p);
    u128 factor = s >= 0 && s <= 38 ? pow10_u128(s) : 0;
    for (int64_t i = 0; i < n; i++) {
        __int128 v = 0;
        if (!hudi_array_is_valid(a, i)) {
            store_dec(w->values, i, 0);
            continue;
        }
        int r = DEC_OK;
        if (is_int(from->type) && factor) {
            int64_t x = int_at(a, i);
            u128 m = x < 0 ? (u128)((uint64_t)0 - (uint64_t)x) : (u128)(uint64_t)x;
            if (m != 0 && m > (limit - 1) / factor) {
                r = DEC_RANGE;
            } else {
                m *= factor;
                v = x < 0 ? -(__int128)m : (__int128)m;
            }
        } else if (from->type == HUDI_TYPE_DECIMAL) {
            r = rescale(load_dec(a->values, i), from->scale, s, p, &v);
        } else {
            value_text(c, i);
            const char *t = c->text.data ? c->text.data : "";
            size_t tn = c->text.len;
            if (from->type == HUDI_TYPE_STRING) trim(&t, &tn);
            r = parse_decimal_half_up(t, tn, p, s, &v);
        }
        if (r != DEC_OK) {
            if (is_int(from->type) || from->type == HUDI_TYPE_DECIMAL) value_text(c, i);
            store_dec(w->values, i, 0);
            int rc = bad_value(c, i, r == DEC_RANGE ? "does not fit" : "is not a number for");
            if (rc < 0) return rc;
            continue;
        }
        store_dec(w->values, i, v);
    }
    return 0;
}

static int to_date(conv *c) {
    const hudi_array *a = c->a;
    int32_t *out = c->w->values;
    for (int64_t i = 0; i < a->length; i++) {
        out[i] = 0;
        if (!hudi_array_is_valid(a, i)) continue;
        int32_t s = a->offsets[i], e = a->offsets[i + 1];
        if (parse_java_date((const char *)a->data + s, (size_t)(e - s), &out[i])) continue;
        value_text(c, i);
        out[i] = 0;
        int rc = bad_value(c, i, "is not a date (yyyy-[m]m-[d]d) for");
        if (rc < 0) return rc;
    }
    return 0;
}

/* Units per second of a time unit. */
static int64_t unit_scale(uint8_t unit) {
    return unit == HUDI_UNIT_MILLIS ? 1000 : unit == HUDI_UNIT_MICROS ? 1000000 : 1000000000;
}

/* Time or timestamp to another unit: finer units multiply (a value that overflows fails, or is
 * null when lenient), coarser ones divide rounding down (towards the past, as Spark does). TIME
 * in millis is int32, every other unit int64. */
static int to_time_unit(conv *c) {
    const hudi_array *a = c->a;
    int64_t from = unit_scale(a->field->unit), to = unit_scale(c->w->field->unit);
    bool in32 = hudi_type_width(a->field) == 4, out32 = hudi_type_width(c->w->field) == 4;
    for (int64_t i = 0; i < a->length; i++) {
        int64_t v = in32 ? ((const int32_t *)a->values)[i] : ((const int64_t *)a->values)[i], r;
        if (to >= from) {
            if (__builtin_mul_overflow(v, to / from, &r) && hudi_array_is_valid(a, i)) {
                hudi_buf_clear(&c->text);
                hudi_render_i64(&c->text, v);
                int rc = bad_value(c, i, "is out of range for");
                if (rc < 0) return rc;
                r = 0;
            }
        } else {
            int64_t k = from / to;
            r = v / k - (v % k < 0);
        }
        if (out32)
            ((int32_t *)c->w->values)[i] = (int32_t)r;
        else
            ((int64_t *)c->w->values)[i] = r;
    }
    return 0;
}

static void to_number(conv *c) {
    const hudi_array *a = c->a;
    hudi_array *w = c->w;
    hudi_type_id t = w->field->type;
    int64_t n = a->length;
    if (a->field->type == HUDI_TYPE_FLOAT) {
        /* float -> double through the float's decimal text: 1.1f reads 1.1 */
        for (int64_t i = 0; i < n; i++) {
            float f = ((const float *)a->values)[i];
            double d = f;
            if (isfinite(f) && f != 0 && hudi_array_is_valid(a, i)) {
                value_text(c, i);
                if (!hudi_buf_failed(&c->text)) hudi_parse_double(c->text.data, c->text.len, &d);
            }
            ((double *)w->values)[i] = d;
        }
        return;
    }
    /* one loop per (from, to) pair: no per-row type switch */
#define CAST_LOOP(SRC, DST)                                                                        \
    do {                                                                                           \
        const SRC *src_ = a->values;                                                               \
        DST *dst_ = w->values;                                                                     \
        for (int64_t i = 0; i < n; i++) dst_[i] = (DST)src_[i];                                    \
    } while (0)
#define FROM_INT(DST)                                                                              \
    do {                                                                                           \
        switch (a->field->type) {                                                                  \
        case HUDI_TYPE_INT8: CAST_LOOP(int8_t, DST); break;                                        \
        case HUDI_TYPE_INT16: CAST_LOOP(int16_t, DST); break;                                      \
        case HUDI_TYPE_INT32: CAST_LOOP(int32_t, DST); break;                                      \
        default: CAST_LOOP(int64_t, DST); break;                                                   \
        }                                                                                          \
    } while (0)
    switch (t) {
    case HUDI_TYPE_INT16: FROM_INT(int16_t); break;
    case HUDI_TYPE_INT32: FROM_INT(int32_t); break;
    case HUDI_TYPE_INT64: FROM_INT(int64_t); break;
    case HUDI_TYPE_FLOAT: FROM_INT(float); break;
    default: FROM_INT(double); break;
    }
#undef FROM_INT
#undef CAST_LOOP
}

int hudi_array_convert(hudi_array **out, const hudi_array *a, const hudi_field *to, bool lenient,
                       const char *column, hudi_error *err) {
    *out = NULL;
    const hudi_field *from = a->field;
    if (!column) column = to->name ? to->name : "";
    if (!hudi_type_can_convert(from, to)) {
        hudi_buf f = HUDI_BUF_INIT, t = HUDI_BUF_INIT;
        hudi_field_describe(&f, from);
        hudi_field_describe(&t, to);
        int rc = hudi_error_set(err, HUDI_EINVAL, "column %s: %s does not convert to %s", column,
                                f.data ? f.data : "?", t.data ? t.data : "?");
        hudi_buf_dispose(&f);
        hudi_buf_dispose(&t);
        return rc;
    }
    if (hudi_type_same(from, to)) {
        int rc = hudi_array_slice(out, a, 0, a->length, err);
        if (rc == 0) (*out)->field = to;
        return rc;
    }
    int64_t n = a->length;
    conv c = {a, NULL, lenient, column, HUDI_BUF_INIT, err};
    int rc = hudi_array_new(&c.w, to, err);
    if (rc == 0) rc = hudi_array_reserve(c.w, n, err);
    bool may_fail = to->type == HUDI_TYPE_DECIMAL || to->type == HUDI_TYPE_DATE ||
                    to->type == HUDI_TYPE_TIME || to->type == HUDI_TYPE_TIMESTAMP;
    if (rc == 0 && (a->validity || (lenient && may_fail))) {
        rc = hudi_array_ensure_validity(c.w, err);
        if (rc == 0) {
            if (a->validity)
                hudi_bitmap_copy(c.w->validity, 0, a->validity, 0, n);
            else
                hudi_bitmap_set_range(c.w->validity, 0, n, true);
        }
    }
    if (rc == 0) {
        c.w->null_count = a->null_count;
        switch (to->type) {
        case HUDI_TYPE_STRING:
        case HUDI_TYPE_BINARY: rc = to_string(&c); break;
        case HUDI_TYPE_DECIMAL: rc = to_decimal(&c); break;
        case HUDI_TYPE_DATE: rc = to_date(&c); break;
        case HUDI_TYPE_TIME:
        case HUDI_TYPE_TIMESTAMP: rc = to_time_unit(&c); break;
        default: to_number(&c); break;
        }
    }
    hudi_buf_dispose(&c.text);
    if (rc < 0) {
        hudi_array_free(c.w);
        return rc;
    }
    c.w->length = n;
    *out = c.w;
    return 0;
}
