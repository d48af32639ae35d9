/* ops.c - the operators as registry functions: comparison, arithmetic (Spark's non-ANSI
 * semantics: integers wrap, division by zero is NULL, decimals follow Spark's precision and
 * scale rules), bitwise, ||, three-valued logic, IS, IN, BETWEEN, LIKE/ILIKE/RLIKE, CASE,
 * COALESCE, IF, NVL, NVL2, NULLIF (docs/SQL.md "Functions and operators").
 *
 * Argument layouts the binder follows:
 *   "in"          value, item1, item2, ...
 *   "between"     value, low, high
 *   "like"/"ilike" str, pattern [, escape]        "rlike" str, regex
 *   "case"        when1, then1, when2, then2, ... [, else]   (searched CASE; an odd count
 *                 ends with the ELSE value)
 *   "simple_case" operand, value1, then1, value2, then2, ... [, else]  (CASE x WHEN v ...;
 *                 an even count ends with the ELSE value)
 *   "negative"/"positive" unary - and +; "~" bitwise not; "not".
 * Unary IS forms: "is_null", "is_not_null", "is_true", "is_not_true", "is_false",
 * "is_not_false" (IS UNKNOWN = is_null). */
#include <math.h>
#include <string.h>

#include "sql/fn_int.h"
#include "sql/regex_int.h"

/* ---- comparison ------------------------------------------------------------------------------ */

enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_NSEQ };

static bool comparable(const hudi_field *t) { return t->type != HUDI_TYPE_MAP; }

/* The type both sides of a comparison are cast to (Spark's findCommonTypeForBinaryComparison,
 * then the wider type). */
static int compare_type(hudi_sql_bind_call *call, int32_t from, int32_t to, hudi_error *err) {
    hudi_field acc = hudi_sql_prim(HUDI_TYPE_NULL);
    for (int32_t i = from; i < to; i++) {
        const hudi_field *t = &call->args[i]->type;
        hudi_type_id x = acc.type, y = t->type;
        hudi_field next;
        if (x == HUDI_TYPE_NULL || hudi_sql_type_equal(&acc, t)) {
            next = hudi_sql_keep(call, t);
        } else if (y == HUDI_TYPE_NULL) {
            next = acc;
        } else if ((x == HUDI_TYPE_STRING && y == HUDI_TYPE_DECIMAL) ||
                   (y == HUDI_TYPE_STRING && x == HUDI_TYPE_DECIMAL)) {
            next = hudi_sql_prim(HUDI_TYPE_DOUBLE);
        } else if (x == HUDI_TYPE_STRING && y != HUDI_TYPE_STRING && !hudi_type_is_nested(y)) {
            next = hudi_sql_keep(call, t);
        } else if (y == HUDI_TYPE_STRING && !hudi_type_is_nested(x)) {
            next = acc;
        } else {
            hudi_error e2 = HUDI_ERROR_INIT;
            if (hudi_sql_common_type(call->ctx->arena, &acc, t, &next, &e2) < 0)
                return hudi_sql_bind_error(call, err, "cannot compare %s with %s",
                                           hudi_sql_type_str(call->ctx->arena, &acc),
                                           hudi_sql_type_str(call->ctx->arena, t));
        }
        acc = next;
    }
    if (!comparable(&acc))
        return hudi_sql_bind_error(call, err, "cannot compare values of type %s",
                                   hudi_sql_type_str(call->ctx->arena, &acc));
    acc.name = NULL;
    acc.nullable = true;
    for (int32_t i = from; i < to; i++)
        if (!hudi_sql_type_equal(&call->args[i]->type, &acc)) call->arg_types[i] = acc;
    return 0;
}

static int cmp_bind(hudi_sql_bind_call *call, hudi_error *err) {
    call->result = hudi_sql_prim(HUDI_TYPE_BOOL);
    return compare_type(call, 0, call->n_args, err);
}

static int op_of(const char *name) {
    switch (name[0]) {
    case '=': return OP_EQ;
    case '<':
        return name[1] == '>' ? OP_NE : name[1] == '=' ? (name[2] == '>' ? OP_NSEQ : OP_LE) : OP_LT;
    case '>': return name[1] == '=' ? OP_GE : OP_GT;
    default: return OP_EQ;
    }
}

static inline bool apply_op(int op, int c) {
    switch (op) {
    case OP_EQ:
    case OP_NSEQ: return c == 0;
    case OP_NE: return c != 0;
    case OP_LT: return c < 0;
    case OP_LE: return c <= 0;
    case OP_GT: return c > 0;
    default: return c >= 0;
    }
}

/* Compares every row (nulls too: their validity is cleared afterwards) into the value bits. */
#define CMP_BITS(T, EXPR)                                                                          \
    for (int64_t i = 0; i < nrows; i++) {                                                          \
        T x = xv[xc ? 0 : i], y = yv[yc ? 0 : i];                                                  \
        bits[i >> 3] |= (uint8_t)((EXPR) << (i & 7));                                              \
    }
#define CMP_LOOP(T)                                                                                \
    do {                                                                                           \
        const T *xv = a->values, *yv = b->values;                                                  \
        switch (op) {                                                                              \
        case OP_EQ: CMP_BITS(T, x == y) break;                                                     \
        case OP_NE: CMP_BITS(T, x != y) break;                                                     \
        case OP_LT: CMP_BITS(T, x < y) break;                                                      \
        case OP_LE: CMP_BITS(T, x <= y) break;                                                     \
        case OP_GT: CMP_BITS(T, x > y) break;                                                      \
        default: CMP_BITS(T, x >= y) break;                                                        \
        }                                                                                          \
    } while (0)

static int cmp_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                    int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    int op = op_of(call->fn->name);
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    if (rc < 0) return rc;
    const hudi_array *a = args[0].array, *b = args[1].array;
    hudi_type_id t = a->field->type;
    bool xc = args[0].is_const, yc = args[1].is_const;
    uint8_t *bits = o->values;
    if (op == OP_NSEQ) {
        for (int64_t i = 0; i < nrows; i++)
            hudi_sql_out_bool(o, i,
                              hudi_sql_cmp_value(a, hudi_sql_row(&args[0], i), b,
                                                 hudi_sql_row(&args[1], i)) == 0);
    } else if ((t == HUDI_TYPE_INT32 || t == HUDI_TYPE_DATE) && b->field->type == t) {
        memset(bits, 0, (size_t)(nrows + 7) / 8);
        CMP_LOOP(int32_t);
        hudi_sql_out_and_validity(o, args, 2, nrows);
    } else if ((t == HUDI_TYPE_INT64 ||
                (t == HUDI_TYPE_TIMESTAMP && a->field->unit == b->field->unit)) &&
               b->field->type == t) {
        memset(bits, 0, (size_t)(nrows + 7) / 8);
        CMP_LOOP(int64_t);
        hudi_sql_out_and_validity(o, args, 2, nrows);
    } else if ((t == HUDI_TYPE_STRING || t == HUDI_TYPE_BINARY) && b->field->type == t) {
        memset(bits, 0, (size_t)(nrows + 7) / 8);
        hudi_sql_out_and_validity(o, args, 2, nrows);
        for (int64_t i = 0; i < nrows; i++) {
            if (!hudi_bit_get(o->validity, i)) continue;
            hudi_slice x = hudi_sql_str(&args[0], i), y = hudi_sql_str(&args[1], i);
            int c;
            if (op == OP_EQ || op == OP_NE) {
                c = x.len != y.len || (x.len && memcmp(x.data, y.data, x.len) != 0);
            } else {
                c = x.len && y.len ? memcmp(x.data, y.data, HUDI_MIN(x.len, y.len)) : 0;
                if (c == 0) c = (x.len > y.len) - (x.len < y.len);
            }
            if (apply_op(op, c)) hudi_bit_set(bits, i);
        }
    } else {
        for (int64_t i = 0; i < nrows; i++) {
            if (!hudi_sql_valid(&args[0], i) || !hudi_sql_valid(&args[1], i)) {
                hudi_sql_out_null(o, i);
                continue;
            }
            int c = hudi_sql_cmp_value(a, hudi_sql_row(&args[0], i), b, hudi_sql_row(&args[1], i));
            hudi_sql_out_bool(o, i, apply_op(op, c));
        }
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

/* ---- arithmetic ------------------------------------------------------------------------------ */

enum { AR_ADD, AR_SUB, AR_MUL, AR_DIV, AR_MOD, AR_IDIV, AR_PMOD };

static int ar_of(const char *name) {
    switch (name[0]) {
    case '+': return AR_ADD;
    case '-': return AR_SUB;
    case '*': return AR_MUL;
    case '/': return AR_DIV;
    case '%': return AR_MOD;
    case 'p': return AR_PMOD;
    default: return AR_IDIV;
    }
}

/* Whether a constant's text is an integer literal as written (12, -3, 12L): a folded
 * CAST(1 AS INT) is a constant too, but Spark types it as its type, not as a literal. */
static bool int_literal_text(const char *t) {
    if (!t) return true;
    if (*t == '-') t++;
    if (!(*t >= '0' && *t <= '9')) return false;
    while (*t >= '0' && *t <= '9') t++;
    if (*t == 'L' || *t == 'l' || *t == 'S' || *t == 's' || *t == 'Y' || *t == 'y') t++;
    return *t == '\0';
}

hudi_field hudi_sql_decimal_of_arg(const hudi_sql_bexpr *e) {
    if (e->kind == HUDI_SQL_BX_CONST && e->value && hudi_sql_is_integral(e->type.type) &&
        int_literal_text(e->text) && e->value->length > 0 && hudi_array_is_valid(e->value, 0)) {
        int64_t v = hudi_sql_num_i64(e->value, 0);
        uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
        int digits = 1;
        while (m >= 10) m /= 10, digits++;
        return hudi_sql_decimal(digits, 0);
    }
    return hudi_sql_decimal_for(&e->type);
}

static bool is_float(hudi_type_id t) { return t == HUDI_TYPE_FLOAT || t == HUDI_TYPE_DOUBLE; }

static int arith_bind(hudi_sql_bind_call *call, hudi_error *err) {
    int op = ar_of(call->name);
    hudi_field *ta = &call->args[0]->type, *tb = &call->args[1]->type;
    hudi_type_id a = ta->type, b = tb->type;
    /* date + n, n + date, date - n */
    if ((op == AR_ADD || op == AR_SUB) && a == HUDI_TYPE_DATE &&
        (hudi_sql_is_integral(b) || b == HUDI_TYPE_NULL)) {
        call->result = hudi_sql_prim(HUDI_TYPE_DATE);
        return hudi_sql_want_id(call, 1, HUDI_TYPE_INT32, err);
    }
    if (op == AR_ADD && b == HUDI_TYPE_DATE && (hudi_sql_is_integral(a) || a == HUDI_TYPE_NULL)) {
        call->result = hudi_sql_prim(HUDI_TYPE_DATE);
        return hudi_sql_want_id(call, 0, HUDI_TYPE_INT32, err);
    }
    hudi_field x = a == HUDI_TYPE_STRING ? hudi_sql_prim(HUDI_TYPE_DOUBLE)
                   : a == HUDI_TYPE_NULL ? hudi_sql_prim(HUDI_TYPE_INT32)
                                         : *ta;
    hudi_field y = b == HUDI_TYPE_STRING ? hudi_sql_prim(HUDI_TYPE_DOUBLE)
                   : b == HUDI_TYPE_NULL ? hudi_sql_prim(HUDI_TYPE_INT32)
                                         : *tb;
    if (!hudi_sql_is_numeric(x.type) || !hudi_sql_is_numeric(y.type))
        return hudi_sql_bind_error(call, err, "requires numeric operands, not %s and %s",
                                   hudi_sql_type_str(call->ctx->arena, ta),
                                   hudi_sql_type_str(call->ctx->arena, tb));
    bool dec = (x.type == HUDI_TYPE_DECIMAL || y.type == HUDI_TYPE_DECIMAL) && !is_float(x.type) &&
               !is_float(y.type);
    if (op == AR_DIV && !dec) {
        call->result = hudi_sql_prim(HUDI_TYPE_DOUBLE);
        int rc = hudi_sql_want_id(call, 0, HUDI_TYPE_DOUBLE, err);
        return rc < 0 ? rc : hudi_sql_want_id(call, 1, HUDI_TYPE_DOUBLE, err);
    }
    if (op == AR_IDIV && !dec) {
        call->result = hudi_sql_prim(HUDI_TYPE_INT64);
        if (is_float(x.type) || is_float(y.type))
            return hudi_sql_bind_error(call, err, "requires integral or decimal operands");
        int rc = hudi_sql_want_id(call, 0, HUDI_TYPE_INT64, err);
        return rc < 0 ? rc : hudi_sql_want_id(call, 1, HUDI_TYPE_INT64, err);
    }
    if (dec) {
        hudi_field da = x.type == HUDI_TYPE_DECIMAL ? x : hudi_sql_decimal_of_arg(call->args[0]);
        hudi_field db = y.type == HUDI_TYPE_DECIMAL ? y : hudi_sql_decimal_of_arg(call->args[1]);
        int32_t p1 = da.precision, s1 = da.scale, p2 = db.precision, s2 = db.scale;
        switch (op) {
        case AR_ADD:
        case AR_SUB: {
            int32_t s = HUDI_MAX(s1, s2);
            call->result = hudi_sql_decimal_adjust(HUDI_MAX(p1 - s1, p2 - s2) + s + 1, s);
            break;
        }
        case AR_MUL: call->result = hudi_sql_decimal_adjust(p1 + p2 + 1, s1 + s2); break;
        case AR_DIV: {
            int32_t s = HUDI_MAX(6, s1 + p2 + 1);
            call->result = hudi_sql_decimal_adjust(p1 - s1 + s2 + s, s);
            break;
        }
        case AR_IDIV: call->result = hudi_sql_prim(HUDI_TYPE_INT64); break;
        default: {
            int32_t s = HUDI_MAX(s1, s2);
            call->result = hudi_sql_decimal_adjust(HUDI_MIN(p1 - s1, p2 - s2) + s, s);
            break;
        }
        }
        int rc = hudi_sql_want(call, 0, da, err);
        return rc < 0 ? rc : hudi_sql_want(call, 1, db, err);
    }
    hudi_field common;
    if (hudi_sql_common_type(call->ctx->arena, &x, &y, &common, err) < 0) return HUDI_ESQL;
    call->result = common;
    int rc = hudi_sql_want(call, 0, common, err);
    return rc < 0 ? rc : hudi_sql_want(call, 1, common, err);
}

/* 256-bit magnitudes for decimal products and quotients. */
typedef struct u256 {
    unsigned __int128 hi, lo;
} u256;

static u256 mul128(unsigned __int128 a, unsigned __int128 b) {
    uint64_t a0 = (uint64_t)a, a1 = (uint64_t)(a >> 64), b0 = (uint64_t)b, b1 = (uint64_t)(b >> 64);
    unsigned __int128 p00 = (unsigned __int128)a0 * b0, p01 = (unsigned __int128)a0 * b1;
    unsigned __int128 p10 = (unsigned __int128)a1 * b0, p11 = (unsigned __int128)a1 * b1;
    unsigned __int128 mid = (p00 >> 64) + (uint64_t)p01 + (uint64_t)p10;
    u256 r = {p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64), (mid << 64) | (uint64_t)p00};
    return r;
}

/* n / d rounded half up; false when the quotient does not fit 127 bits. */
static bool div256(u256 n, unsigned __int128 d, unsigned __int128 *q_out) {
    if (n.hi == 0) {
        unsigned __int128 q = n.lo / d, r = n.lo % d;
        if (r >= d - r) q++;
        *q_out = q;
        return q >> 127 == 0;
    }
    if (n.hi >= d) return false;
    unsigned __int128 q = 0, r = n.hi;
    for (int i = 127; i >= 0; i--) {
        bool carry = r >> 127;
        r = (r << 1) | ((n.lo >> i) & 1);
        q <<= 1;
        if (carry || r >= d) {
            r -= d;
            q |= 1;
        }
    }
    if (r >= d - r) q++;
    *q_out = q;
    return q >> 127 == 0;
}

static unsigned __int128 uabs(__int128 v) {
    return v < 0 ? (unsigned __int128)0 - (unsigned __int128)v : (unsigned __int128)v;
}

static bool dec_op(int op, __int128 x, int32_t s1, __int128 y, int32_t s2, const hudi_field *rt,
                   __int128 *out) {
    int32_t p = rt->precision, s = rt->scale;
    bool neg = (x < 0) != (y < 0);
    switch (op) {
    case AR_ADD:
    case AR_SUB: {
        int32_t m = HUDI_MAX(s1, s2);
        __int128 a, b, r;
        if (__builtin_mul_overflow(x, hudi_sql_pow10[m - s1], &a) ||
            __builtin_mul_overflow(y, hudi_sql_pow10[m - s2], &b))
            return false;
        if (op == AR_ADD ? __builtin_add_overflow(a, b, &r) : __builtin_sub_overflow(a, b, &r))
            return false;
        return hudi_sql_dec_rescale(r, m, s, p, out);
    }
    case AR_MUL: {
        u256 m = mul128(uabs(x), uabs(y));
        int32_t k = s1 + s2 - s;
        unsigned __int128 q;
        if (k <= 38) {
            if (!div256(m, (unsigned __int128)hudi_sql_pow10[k], &q)) return false;
        } else {
            unsigned __int128 q1;
            if (!div256(m, (unsigned __int128)hudi_sql_pow10[38], &q1)) return false;
            u256 m2 = {0, q1};
            if (!div256(m2, (unsigned __int128)hudi_sql_pow10[k - 38], &q)) return false;
        }
        __int128 v = neg ? -(__int128)q : (__int128)q;
        if (!hudi_sql_dec_fits(v, p)) return false;
        *out = v;
        return true;
    }
    case AR_DIV: {
        if (y == 0) return false;
        int32_t k = s - s1 + s2;
        unsigned __int128 q;
        if (k >= 0) {
            if (k > 38) return false;
            u256 n = mul128(uabs(x), (unsigned __int128)hudi_sql_pow10[k]);
            if (!div256(n, uabs(y), &q)) return false;
        } else {
            u256 d = mul128(uabs(y), (unsigned __int128)hudi_sql_pow10[-k > 38 ? 38 : -k]);
            if (d.hi || -k > 38) {
                q = 0;
            } else {
                u256 n = {0, uabs(x)};
                if (!div256(n, d.lo, &q)) return false;
            }
        }
        __int128 v = neg ? -(__int128)q : (__int128)q;
        if (!hudi_sql_dec_fits(v, p)) return false;
        *out = v;
        return true;
    }
    default: { /* % and pmod */
        if (y == 0) return false;
        int32_t m = HUDI_MAX(s1, s2);
        __int128 a, b;
        if (__builtin_mul_overflow(x, hudi_sql_pow10[m - s1], &a) ||
            __builtin_mul_overflow(y, hudi_sql_pow10[m - s2], &b))
            return false;
        __int128 r = a % b;
        if (op == AR_PMOD && r < 0) r = (r + b) % b;
        return hudi_sql_dec_rescale(r, m, s, p, out);
    }
    }
}

/* Integer arithmetic over every row (wrapping); division and remainder by zero are NULL. */
#define AR_INT_LOOP(T, UT)                                                                         \
    do {                                                                                           \
        const T *xv = args[0].array->values, *yv = args[1].array->values;                          \
        T *rv = o->values;                                                                         \
        switch (op) {                                                                              \
        case AR_ADD: AR_EACH(rv[i] = (T)(UT)((UT)x + (UT)y)) break;                                \
        case AR_SUB: AR_EACH(rv[i] = (T)(UT)((UT)x - (UT)y)) break;                                \
        case AR_MUL: AR_EACH(rv[i] = (T)(UT)((UT)x * (UT)y)) break;                                \
        case AR_IDIV:                                                                              \
            AR_EACH(rv[i] = y == 0    ? (hudi_bit_clear(o->validity, i), 0)                        \
                            : y == -1 ? (T)(UT)((UT)0 - (UT)x)                                     \
                                      : (T)(x / y))                                                \
            break;                                                                                 \
        default:                                                                                   \
            AR_EACH(T r = y == 0    ? (hudi_bit_clear(o->validity, i), 0)                          \
                          : y == -1 ? 0                                                            \
                                    : (T)(x % y);                                                  \
                    if (op == AR_PMOD && r < 0) r = (T)((r + y) % y); rv[i] = r)                   \
            break;                                                                                 \
        }                                                                                          \
    } while (0)

#define AR_EACH(STMT)                                                                              \
    for (int64_t i = 0; i < nrows; i++) {                                                          \
        __typeof__(xv[0]) x = xv[xc ? 0 : i], y = yv[yc ? 0 : i];                                  \
        STMT;                                                                                      \
    }

#define AR_FLOAT_LOOP(T, MODF)                                                                     \
    do {                                                                                           \
        const T *xv = args[0].array->values, *yv = args[1].array->values;                          \
        T *rv = o->values;                                                                         \
        switch (op) {                                                                              \
        case AR_ADD: AR_EACH(rv[i] = x + y) break;                                                 \
        case AR_SUB: AR_EACH(rv[i] = x - y) break;                                                 \
        case AR_MUL: AR_EACH(rv[i] = x * y) break;                                                 \
        case AR_DIV: AR_EACH(rv[i] = y == 0 ? (hudi_bit_clear(o->validity, i), 0) : x / y) break;  \
        default:                                                                                   \
            AR_EACH(T r = y == 0 ? (hudi_bit_clear(o->validity, i), 0) : MODF(x, y);               \
                    if (op == AR_PMOD && r < 0) r = MODF(r + y, y); rv[i] = r)                     \
            break;                                                                                 \
        }                                                                                          \
    } while (0)

static int arith_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                      int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    int op = ar_of(call->fn->name);
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    if (rc < 0) return rc;
    const hudi_field *ta = args[0].array->field, *tb = args[1].array->field;
    if (call->type.type == HUDI_TYPE_DATE) {
        bool date_first = ta->type == HUDI_TYPE_DATE;
        const hudi_sql_datum *d = date_first ? &args[0] : &args[1];
        const hudi_sql_datum *n = date_first ? &args[1] : &args[0];
        for (int64_t i = 0; i < nrows; i++) {
            if (!hudi_sql_valid(d, i) || !hudi_sql_valid(n, i)) {
                hudi_sql_out_null(o, i);
                continue;
            }
            int32_t k = HUDI_SQL_VAL(n, int32_t, i);
            uint32_t v = (uint32_t)HUDI_SQL_VAL(d, int32_t, i);
            HUDI_SQL_OUT(o, int32_t, i,
                         (int32_t)(op == AR_SUB ? v - (uint32_t)k : v + (uint32_t)k));
        }
    } else if (ta->type == HUDI_TYPE_DECIMAL) {
        bool to_long = call->type.type == HUDI_TYPE_INT64;
        hudi_field rt = to_long ? hudi_sql_decimal(38, 0) : call->type;
        for (int64_t i = 0; i < nrows; i++) {
            __int128 r;
            if (!hudi_sql_valid(&args[0], i) || !hudi_sql_valid(&args[1], i) ||
                (to_long && hudi_sql_dec(&args[1], i) == 0)) {
                hudi_sql_out_null(o, i);
                continue;
            }
            __int128 x = hudi_sql_dec(&args[0], i), y = hudi_sql_dec(&args[1], i);
            if (to_long) {
                int32_t m = HUDI_MAX(ta->scale, tb->scale);
                __int128 a, b;
                if (__builtin_mul_overflow(x, hudi_sql_pow10[m - ta->scale], &a) ||
                    __builtin_mul_overflow(y, hudi_sql_pow10[m - tb->scale], &b)) {
                    hudi_sql_out_null(o, i);
                    continue;
                }
                HUDI_SQL_OUT(o, int64_t, i, (int64_t)(uint64_t)(unsigned __int128)(a / b));
            } else if (dec_op(op, x, ta->scale, y, tb->scale, &rt, &r)) {
                hudi_sql_out_dec(o, i, r);
            } else {
                hudi_sql_out_null(o, i);
            }
        }
    } else {
        bool xc = args[0].is_const, yc = args[1].is_const;
        hudi_sql_out_and_validity(o, args, 2, nrows);
        switch (ta->type) {
        case HUDI_TYPE_INT8: AR_INT_LOOP(int8_t, uint8_t); break;
        case HUDI_TYPE_INT16: AR_INT_LOOP(int16_t, uint16_t); break;
        case HUDI_TYPE_INT32: AR_INT_LOOP(int32_t, uint32_t); break;
        case HUDI_TYPE_INT64: AR_INT_LOOP(int64_t, uint64_t); break;
        case HUDI_TYPE_FLOAT: AR_FLOAT_LOOP(float, fmodf); break;
        case HUDI_TYPE_DOUBLE: AR_FLOAT_LOOP(double, fmod); break;
        default:
            hudi_array_free(o);
            return hudi_error_set(err, HUDI_EINVAL, "%s: unexpected type %s", call->fn->name,
                                  hudi_type_name(ta->type));
        }
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

/* unary - and + */
static int neg_bind(hudi_sql_bind_call *call, hudi_error *err) {
    hudi_type_id t = call->args[0]->type.type;
    if (t == HUDI_TYPE_STRING)
        return hudi_sql_want_id(call, 0, HUDI_TYPE_DOUBLE, err) < 0
                   ? HUDI_ESQL
                   : (call->result = hudi_sql_prim(HUDI_TYPE_DOUBLE), 0);
    if (t == HUDI_TYPE_NULL) {
        call->result = hudi_sql_prim(HUDI_TYPE_INT32);
        return hudi_sql_want_id(call, 0, HUDI_TYPE_INT32, err);
    }
    if (!hudi_sql_is_numeric(t))
        return hudi_sql_bind_error(call, err, "requires a numeric operand, not %s",
                                   hudi_sql_type_str(call->ctx->arena, &call->args[0]->type));
    call->result = hudi_sql_keep(call, &call->args[0]->type);
    return 0;
}

static int neg_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                    int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    if (rc < 0) return rc;
    bool neg = call->fn->name[0] == 'n';
    const hudi_sql_datum *a = &args[0];
    for (int64_t i = 0; i < nrows; i++) {
        if (!hudi_sql_valid(a, i)) {
            hudi_sql_out_null(o, i);
            continue;
        }
        switch (call->type.type) {
        case HUDI_TYPE_INT8:
            HUDI_SQL_OUT(o, int8_t, i,
                         (int8_t)(neg ? (uint8_t)0 - (uint8_t)HUDI_SQL_VAL(a, int8_t, i)
                                      : (uint8_t)HUDI_SQL_VAL(a, int8_t, i)));
            break;
        case HUDI_TYPE_INT16:
            HUDI_SQL_OUT(o, int16_t, i,
                         (int16_t)(neg ? (uint16_t)0 - (uint16_t)HUDI_SQL_VAL(a, int16_t, i)
                                       : (uint16_t)HUDI_SQL_VAL(a, int16_t, i)));
            break;
        case HUDI_TYPE_INT32:
            HUDI_SQL_OUT(o, int32_t, i,
                         (int32_t)(neg ? 0u - (uint32_t)HUDI_SQL_VAL(a, int32_t, i)
                                       : (uint32_t)HUDI_SQL_VAL(a, int32_t, i)));
            break;
        case HUDI_TYPE_INT64:
            HUDI_SQL_OUT(o, int64_t, i,
                         (int64_t)(neg ? (uint64_t)0 - (uint64_t)HUDI_SQL_VAL(a, int64_t, i)
                                       : (uint64_t)HUDI_SQL_VAL(a, int64_t, i)));
            break;
        case HUDI_TYPE_FLOAT:
            HUDI_SQL_OUT(o, float, i, neg ? -HUDI_SQL_VAL(a, float, i) : HUDI_SQL_VAL(a, float, i));
            break;
        case HUDI_TYPE_DOUBLE:
            HUDI_SQL_OUT(o, double, i,
                         neg ? -HUDI_SQL_VAL(a, double, i) : HUDI_SQL_VAL(a, double, i));
            break;
        default: hudi_sql_out_dec(o, i, neg ? -hudi_sql_dec(a, i) : hudi_sql_dec(a, i)); break;
        }
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

/* ---- bitwise ------------------------------------------------------------------------------------
 */

static int bit_bind(hudi_sql_bind_call *call, hudi_error *err) {
    for (int32_t i = 0; i < call->n_args; i++) {
        hudi_type_id t = call->args[i]->type.type;
        if (!hudi_sql_is_integral(t) && t != HUDI_TYPE_NULL)
            return hudi_sql_bind_error(call, err, "requires integral operands, not %s",
                                       hudi_sql_type_str(call->ctx->arena, &call->args[i]->type));
    }
    const char *n = call->name;
    if (n[0] == '<' || n[0] == '>') { /* shifts: int or bigint by an int */
        hudi_type_id t = call->args[0]->type.type;
        call->result = hudi_sql_prim(t == HUDI_TYPE_INT64 ? HUDI_TYPE_INT64 : HUDI_TYPE_INT32);
        int rc = hudi_sql_want(call, 0, call->result, err);
        return rc < 0 ? rc : hudi_sql_want_id(call, 1, HUDI_TYPE_INT32, err);
    }
    hudi_field t;
    int rc = hudi_sql_want_common(call, 0, call->n_args, &t, err);
    if (rc < 0) return rc;
    if (t.type == HUDI_TYPE_NULL) {
        t = hudi_sql_prim(HUDI_TYPE_INT32);
        for (int32_t i = 0; i < call->n_args; i++) call->arg_types[i] = t;
    }
    call->result = t;
    return 0;
}

static int bit_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                    int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    if (rc < 0) return rc;
    const char *n = call->fn->name;
    hudi_type_id t = call->type.type;
    int bits = t == HUDI_TYPE_INT8 ? 8 : t == HUDI_TYPE_INT16 ? 16 : t == HUDI_TYPE_INT32 ? 32 : 64;
    for (int64_t i = 0; i < nrows; i++) {
        if (!hudi_sql_all_valid(args, call->n_args, i)) {
            hudi_sql_out_null(o, i);
            continue;
        }
        uint64_t x = (uint64_t)hudi_sql_num_i64(args[0].array, hudi_sql_row(&args[0], i));
        uint64_t y = call->n_args > 1
                         ? (uint64_t)hudi_sql_num_i64(args[1].array, hudi_sql_row(&args[1], i))
                         : 0;
        uint64_t r;
        unsigned sh = (unsigned)(y & (uint64_t)(bits - 1));
        uint64_t mask = bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
        switch (n[0]) {
        case '&': r = x & y; break;
        case '|': r = x | y; break;
        case '^': r = x ^ y; break;
        case '~': r = ~x; break;
        case '<': r = x << sh; break;
        default:
            if (n[2] == '>') /* >>> */
                r = (x & mask) >> sh;
            else
                r = (uint64_t)((int64_t)x >> sh);
            break;
        }
        switch (t) {
        case HUDI_TYPE_INT8: HUDI_SQL_OUT(o, int8_t, i, (int8_t)r); break;
        case HUDI_TYPE_INT16: HUDI_SQL_OUT(o, int16_t, i, (int16_t)r); break;
        case HUDI_TYPE_INT32: HUDI_SQL_OUT(o, int32_t, i, (int32_t)r); break;
        default: HUDI_SQL_OUT(o, int64_t, i, (int64_t)r); break;
        }
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

/* ---- || ------------------------------------------------------------------------------------- */

static int concat_op_bind(hudi_sql_bind_call *call, hudi_error *err) {
    bool bin = call->args[0]->type.type == HUDI_TYPE_BINARY &&
               call->args[1]->type.type == HUDI_TYPE_BINARY;
    hudi_type_id t = bin ? HUDI_TYPE_BINARY : HUDI_TYPE_STRING;
    call->result = hudi_sql_prim(t);
    for (int32_t i = 0; i < call->n_args; i++) {
        int rc = hudi_sql_want_id(call, i, t, err);
        if (rc < 0) return rc;
    }
    return 0;
}

static int concat_op_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                          int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    if (rc < 0) return rc;
    for (int64_t i = 0; i < nrows; i++) {
        if (!hudi_sql_all_valid(args, call->n_args, i)) {
            hudi_sql_out_null(o, i);
            continue;
        }
        size_t total = 0;
        for (int32_t k = 0; k < call->n_args; k++) total += hudi_sql_str(&args[k], i).len;
        uint8_t *w = hudi_sql_out_reserve(o, total, err);
        if (!w) {
            hudi_array_free(o);
            return HUDI_ENOMEM;
        }
        for (int32_t k = 0; k < call->n_args; k++) {
            hudi_slice s = hudi_sql_str(&args[k], i);
            if (s.len) memcpy(w, s.data, s.len);
            w += s.len;
        }
        hudi_sql_out_commit(o, i, total);
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

/* ---- logic ------------------------------------------------------------------------------------
 */

static int logic_bind(hudi_sql_bind_call *call, hudi_error *err) {
    call->result = hudi_sql_prim(HUDI_TYPE_BOOL);
    for (int32_t i = 0; i < call->n_args; i++) {
        int rc = hudi_sql_want_id(call, i, HUDI_TYPE_BOOL, err);
        if (rc < 0) return rc;
    }
    return 0;
}

static int logic_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                      int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    if (rc < 0) return rc;
    char k = call->fn->name[0]; /* a(nd), o(r), n(ot) */
    for (int64_t i = 0; i < nrows; i++) {
        bool va = hudi_sql_valid(&args[0], i), a = va && hudi_sql_bool(&args[0], i);
        if (k == 'n') {
            if (va)
                hudi_sql_out_bool(o, i, !a);
            else
                hudi_sql_out_null(o, i);
            continue;
        }
        bool vb = hudi_sql_valid(&args[1], i), b = vb && hudi_sql_bool(&args[1], i);
        if (k == 'a') {
            if ((va && !a) || (vb && !b))
                hudi_sql_out_bool(o, i, false);
            else if (va && vb)
                hudi_sql_out_bool(o, i, true);
            else
                hudi_sql_out_null(o, i);
        } else {
            if ((va && a) || (vb && b))
                hudi_sql_out_bool(o, i, true);
            else if (va && vb)
                hudi_sql_out_bool(o, i, false);
            else
                hudi_sql_out_null(o, i);
        }
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

/* ---- IS
 * ------------------------------------------------------------------------------------------ */

static int is_bind(hudi_sql_bind_call *call, hudi_error *err) {
    call->result = hudi_sql_prim(HUDI_TYPE_BOOL);
    call->result.nullable = false;
    if (strstr(call->name, "null")) return 0;
    return hudi_sql_want_id(call, 0, HUDI_TYPE_BOOL, err);
}

static int is_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                   int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    if (rc < 0) return rc;
    const char *n = call->fn->name;
    bool negated = strncmp(n, "is_not_", 7) == 0;
    const char *what = n + (negated ? 7 : 3);
    for (int64_t i = 0; i < nrows; i++) {
        bool v = args[0].array->field->type != HUDI_TYPE_NULL && hudi_sql_valid(&args[0], i);
        bool r;
        if (what[0] == 'n')
            r = !v;
        else if (what[0] == 't')
            r = v && hudi_sql_bool(&args[0], i);
        else
            r = v && !hudi_sql_bool(&args[0], i);
        hudi_sql_out_bool(o, i, negated ? !r : r);
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

/* ---- IN, BETWEEN
 * ---------------------------------------------------------------------------------- */

static int in_bind(hudi_sql_bind_call *call, hudi_error *err) {
    call->result = hudi_sql_prim(HUDI_TYPE_BOOL);
    hudi_field t;
    return hudi_sql_want_common(call, 0, call->n_args, &t, err);
}

static int in_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                   int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    if (rc < 0) return rc;
    const hudi_sql_datum *v = &args[0];
    for (int64_t i = 0; i < nrows; i++) {
        if (!hudi_sql_valid(v, i) || v->array->field->type == HUDI_TYPE_NULL) {
            hudi_sql_out_null(o, i);
            continue;
        }
        bool found = false, saw_null = false;
        for (int32_t k = 1; k < call->n_args && !found; k++) {
            if (!hudi_sql_valid(&args[k], i) || args[k].array->field->type == HUDI_TYPE_NULL)
                saw_null = true;
            else
                found = hudi_sql_cmp_value(v->array, hudi_sql_row(v, i), args[k].array,
                                           hudi_sql_row(&args[k], i)) == 0;
        }
        if (found || !saw_null)
            hudi_sql_out_bool(o, i, found);
        else
            hudi_sql_out_null(o, i);
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

static int between_bind(hudi_sql_bind_call *call, hudi_error *err) {
    call->result = hudi_sql_prim(HUDI_TYPE_BOOL);
    return compare_type(call, 0, 3, err);
}

static int between_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                        int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    if (rc < 0) return rc;
    const hudi_sql_datum *v = &args[0];
    for (int64_t i = 0; i < nrows; i++) {
        /* v >= lo AND v <= hi, with three-valued AND */
        int ge = -1, le = -1; /* -1 unknown, 0 false, 1 true */
        if (hudi_sql_valid(v, i) && v->array->field->type != HUDI_TYPE_NULL) {
            for (int k = 1; k <= 2; k++) {
                if (!hudi_sql_valid(&args[k], i) || args[k].array->field->type == HUDI_TYPE_NULL)
                    continue;
                int c = hudi_sql_cmp_value(v->array, hudi_sql_row(v, i), args[k].array,
                                           hudi_sql_row(&args[k], i));
                if (k == 1)
                    ge = c >= 0;
                else
                    le = c <= 0;
            }
        }
        if (ge == 0 || le == 0)
            hudi_sql_out_bool(o, i, false);
        else if (ge == 1 && le == 1)
            hudi_sql_out_bool(o, i, true);
        else
            hudi_sql_out_null(o, i);
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

/* ---- LIKE, ILIKE, RLIKE -------------------------------------------------------------------------
 */

static size_t utf8_len_at(const uint8_t *s, size_t n) {
    if (s[0] < 0x80) return 1;
    size_t k = hudi_utf8_seq_len(s, n);
    return k ? k : 1;
}

/* SQL LIKE over UTF-8: % any run, _ one character, `esc` quotes the next character. */
static bool like_match(const uint8_t *s, size_t n, const uint8_t *p, size_t m, uint32_t esc) {
    size_t si = 0, pi = 0, star_p = (size_t)-1, star_s = 0;
    while (si < n) {
        if (pi < m && p[pi] == '%') {
            star_p = ++pi;
            star_s = si;
            continue;
        }
        if (pi < m) {
            size_t pl = utf8_len_at(p + pi, m - pi);
            bool escaped = false;
            if (esc && pl == 1 && p[pi] == esc && pi + 1 < m) {
                pi++;
                pl = utf8_len_at(p + pi, m - pi);
                escaped = true;
            }
            size_t sl = utf8_len_at(s + si, n - si);
            if (!escaped && p[pi] == '_') {
                pi++;
                si += sl;
                continue;
            }
            if (pl == sl && memcmp(p + pi, s + si, pl) == 0) {
                pi += pl;
                si += sl;
                continue;
            }
            if (escaped) pi--;
        }
        if (star_p == (size_t)-1) return false;
        star_s += utf8_len_at(s + star_s, n - star_s);
        si = star_s;
        pi = star_p;
    }
    while (pi < m && p[pi] == '%') pi++;
    return pi == m;
}

/* A constant LIKE pattern without `_` or escapes and with `%` only at its ends is a plain
 * comparison: exact, prefix, suffix or substring. */
enum { LK_GENERAL, LK_EXACT, LK_PREFIX, LK_SUFFIX, LK_CONTAINS };

static int like_shape(hudi_slice p, uint32_t esc, hudi_slice *core) {
    size_t a = 0, b = p.len;
    bool lead = a < b && p.data[a] == '%', trail = b > a + lead && p.data[b - 1] == '%';
    if (lead) a++;
    if (trail) b--;
    for (size_t k = a; k < b; k++)
        if (p.data[k] == '%' || p.data[k] == '_' || p.data[k] == esc) return LK_GENERAL;
    *core = HUDI_SLICE(p.data + a, b - a);
    return lead && trail ? LK_CONTAINS : lead ? LK_SUFFIX : trail ? LK_PREFIX : LK_EXACT;
}

static bool like_simple(int shape, hudi_slice s, hudi_slice c) {
    switch (shape) {
    case LK_EXACT: return s.len == c.len && (c.len == 0 || memcmp(s.data, c.data, c.len) == 0);
    case LK_PREFIX: return c.len == 0 || (s.len >= c.len && memcmp(s.data, c.data, c.len) == 0);
    case LK_SUFFIX:
        return c.len == 0 || (s.len >= c.len && memcmp(s.data + s.len - c.len, c.data, c.len) == 0);
    default: return c.len == 0 || (s.len >= c.len && memmem(s.data, s.len, c.data, c.len) != NULL);
    }
}

static int like_bind(hudi_sql_bind_call *call, hudi_error *err) {
    call->result = hudi_sql_prim(HUDI_TYPE_BOOL);
    for (int32_t i = 0; i < call->n_args; i++) {
        int rc = hudi_sql_want_id(call, i, HUDI_TYPE_STRING, err);
        if (rc < 0) return rc;
    }
    if (call->n_args == 3) {
        size_t len;
        const char *e = hudi_sql_const_str(call, 2, &len);
        if (!e || len != 1)
            return hudi_sql_bind_error(call, err, "the escape must be a one-character constant");
    }
    return 0;
}

static int like_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                     int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    if (rc < 0) return rc;
    bool ci = call->fn->name[0] == 'i';
    uint32_t esc = '\\';
    if (call->n_args == 3 && hudi_sql_valid(&args[2], 0)) {
        hudi_slice e = hudi_sql_str(&args[2], 0);
        esc = e.len ? e.data[0] : 0;
    }
    hudi_buf ls = HUDI_BUF_INIT, lp = HUDI_BUF_INIT;
    hudi_slice core = {NULL, 0};
    int shape = !ci && args[1].is_const && hudi_sql_valid(&args[1], 0)
                    ? like_shape(hudi_sql_str(&args[1], 0), esc, &core)
                    : LK_GENERAL;
    for (int64_t i = 0; i < nrows; i++) {
        if (!hudi_sql_valid(&args[0], i) || !hudi_sql_valid(&args[1], i)) {
            hudi_sql_out_null(o, i);
            continue;
        }
        hudi_slice s = hudi_sql_str(&args[0], i), p = hudi_sql_str(&args[1], i);
        if (shape != LK_GENERAL) {
            hudi_sql_out_bool(o, i, like_simple(shape, s, core));
            continue;
        }
        if (ci) {
            hudi_buf_clear(&ls);
            hudi_buf_clear(&lp);
            hudi_sql_utf8_lower(s.data, s.len, &ls);
            hudi_sql_utf8_lower(p.data, p.len, &lp);
            if (ls.failed || lp.failed) {
                rc = hudi_error_oom(err);
                break;
            }
            s = HUDI_SLICE(ls.data ? ls.data : "", ls.len);
            p = HUDI_SLICE(lp.data ? lp.data : "", lp.len);
        }
        hudi_sql_out_bool(o, i, like_match(s.data, s.len, p.data, p.len, esc));
    }
    hudi_buf_dispose(&ls);
    hudi_buf_dispose(&lp);
    if (rc < 0) {
        hudi_array_free(o);
        return rc;
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

static int rlike_bind(hudi_sql_bind_call *call, hudi_error *err) {
    call->result = hudi_sql_prim(HUDI_TYPE_BOOL);
    int rc;
    if ((rc = hudi_sql_want_id(call, 0, HUDI_TYPE_STRING, err)) < 0 ||
        (rc = hudi_sql_want_id(call, 1, HUDI_TYPE_STRING, err)) < 0)
        return rc;
    return hudi_sql_regex_bind(call, 1, &call->state, err);
}

static int rlike_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                      int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    if (rc < 0) return rc;
    hudi_sql_regex_cursor cur;
    hudi_sql_regex_cursor_init(&cur, call->fn_state);
    for (int64_t i = 0; i < nrows; i++) {
        if (!hudi_sql_valid(&args[0], i) || !hudi_sql_valid(&args[1], i)) {
            hudi_sql_out_null(o, i);
            continue;
        }
        hudi_slice s = hudi_sql_str(&args[0], i);
        int m = hudi_sql_regex_find(&cur, hudi_sql_str(&args[1], i), s, 0, err);
        if (m < 0) {
            rc = m;
            break;
        }
        hudi_sql_out_bool(o, i, m > 0);
    }
    hudi_sql_regex_cursor_dispose(&cur);
    if (rc < 0) {
        hudi_array_free(o);
        return rc;
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

/* ---- CASE, COALESCE, IF, NVL, NVL2, NULLIF
 * ---------------------------------------------------------- */

static int case_bind(hudi_sql_bind_call *call, hudi_error *err) {
    int32_t n = call->n_args, pairs = n / 2;
    bool has_else = n % 2 == 1;
    for (int32_t k = 0; k < pairs; k++) {
        int rc = hudi_sql_want_id(call, 2 * k, HUDI_TYPE_BOOL, err);
        if (rc < 0) return rc;
    }
    /* the THEN values and ELSE share one type */
    hudi_field acc = hudi_sql_prim(HUDI_TYPE_NULL);
    for (int32_t i = 1; i < n; i += 2) {
        int rc = hudi_sql_common_type(call->ctx->arena, &acc, &call->args[i]->type, &acc, err);
        if (rc < 0)
            return hudi_sql_bind_error(call, err, "THEN and ELSE values have no common type");
    }
    if (has_else &&
        hudi_sql_common_type(call->ctx->arena, &acc, &call->args[n - 1]->type, &acc, err) < 0)
        return hudi_sql_bind_error(call, err, "THEN and ELSE values have no common type");
    for (int32_t i = 1; i < n; i += 2) call->arg_types[i] = acc;
    if (has_else) call->arg_types[n - 1] = acc;
    call->result = acc;
    return 0;
}

static int simple_case_bind(hudi_sql_bind_call *call, hudi_error *err) {
    int32_t n = call->n_args;
    bool has_else = n % 2 == 0;
    int32_t last_when = has_else ? n - 2 : n - 1;
    /* the operand and the WHEN values are compared: one type */
    hudi_field acc = hudi_sql_keep(call, &call->args[0]->type);
    for (int32_t i = 1; i <= last_when; i += 2) {
        if (hudi_sql_common_type(call->ctx->arena, &acc, &call->args[i]->type, &acc, err) < 0)
            return hudi_sql_bind_error(call, err, "WHEN values do not match the CASE operand");
    }
    call->arg_types[0] = acc;
    for (int32_t i = 1; i <= last_when; i += 2) call->arg_types[i] = acc;
    hudi_field res = hudi_sql_prim(HUDI_TYPE_NULL);
    for (int32_t i = 2; i < n; i += 2)
        if (hudi_sql_common_type(call->ctx->arena, &res, &call->args[i]->type, &res, err) < 0)
            return hudi_sql_bind_error(call, err, "THEN and ELSE values have no common type");
    if (has_else &&
        hudi_sql_common_type(call->ctx->arena, &res, &call->args[n - 1]->type, &res, err) < 0)
        return hudi_sql_bind_error(call, err, "THEN and ELSE values have no common type");
    for (int32_t i = 2; i < n; i += 2) call->arg_types[i] = res;
    if (has_else) call->arg_types[n - 1] = res;
    call->result = res;
    return 0;
}

static int choose_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                       int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    int32_t *choice = hudi_malloc((size_t)(nrows > 0 ? nrows : 1) * sizeof(int32_t));
    if (!choice) return hudi_error_oom(err);
    const char *name = call->fn->name;
    int32_t n = call->n_args;
    for (int64_t i = 0; i < nrows; i++) {
        int32_t c = -1;
        if (strcmp(name, "case") == 0) {
            int32_t k = 0;
            for (; k + 1 < n; k += 2)
                if (hudi_sql_valid(&args[k], i) && hudi_sql_bool(&args[k], i)) break;
            c = k + 1 < n ? k + 1 : (n % 2 ? n - 1 : -1);
        } else if (strcmp(name, "simple_case") == 0) {
            int32_t k = 1;
            bool ok = hudi_sql_valid(&args[0], i);
            for (; k + 1 < n; k += 2)
                if (ok && hudi_sql_valid(&args[k], i) &&
                    hudi_sql_cmp_value(args[0].array, hudi_sql_row(&args[0], i), args[k].array,
                                       hudi_sql_row(&args[k], i)) == 0)
                    break;
            c = k + 1 < n ? k + 1 : (n % 2 == 0 ? n - 1 : -1);
        } else if (strcmp(name, "coalesce") == 0 || strcmp(name, "nvl") == 0) {
            for (int32_t k = 0; k < n && c < 0; k++)
                if (hudi_sql_valid(&args[k], i) && args[k].array->field->type != HUDI_TYPE_NULL)
                    c = k;
        } else if (strcmp(name, "if") == 0) {
            c = hudi_sql_valid(&args[0], i) && hudi_sql_bool(&args[0], i) ? 1 : 2;
        } else if (strcmp(name, "nvl2") == 0) {
            c = hudi_sql_valid(&args[0], i) && args[0].array->field->type != HUDI_TYPE_NULL ? 1 : 2;
        } else { /* nullif */
            bool eq = hudi_sql_valid(&args[0], i) && hudi_sql_valid(&args[1], i) &&
                      args[0].array->field->type != HUDI_TYPE_NULL &&
                      hudi_sql_cmp_value(args[0].array, hudi_sql_row(&args[0], i), args[1].array,
                                         hudi_sql_row(&args[1], i)) == 0;
            c = eq ? -1 : 0;
        }
        choice[i] = c;
    }
    int rc = hudi_sql_gather(&call->type, args, choice, nrows, out, err);
    hudi_free(choice);
    return rc;
}

static int coalesce_bind(hudi_sql_bind_call *call, hudi_error *err) {
    return hudi_sql_want_common(call, 0, call->n_args, &call->result, err);
}

static int if_bind(hudi_sql_bind_call *call, hudi_error *err) {
    int rc = hudi_sql_want_id(call, 0, HUDI_TYPE_BOOL, err);
    return rc < 0 ? rc : hudi_sql_want_common(call, 1, 3, &call->result, err);
}

static int nvl2_bind(hudi_sql_bind_call *call, hudi_error *err) {
    return hudi_sql_want_common(call, 1, 3, &call->result, err);
}

static int nullif_bind(hudi_sql_bind_call *call, hudi_error *err) {
    int rc = compare_type(call, 0, 2, err);
    if (rc < 0) return rc;
    call->result = call->arg_types[0];
    return 0;
}

#define F HUDI_SQL_SCALAR_FN

const hudi_sql_func hudi_sql_ops_funcs[] = {
    F("=", 2, 2, cmp_bind, cmp_eval, "a = b - true when a equals b (NaN equals NaN)"),
    F("<>", 2, 2, cmp_bind, cmp_eval, "a <> b - true when a differs from b"),
    F("<", 2, 2, cmp_bind, cmp_eval, "a < b"),
    F("<=", 2, 2, cmp_bind, cmp_eval, "a <= b"),
    F(">", 2, 2, cmp_bind, cmp_eval, "a > b"),
    F(">=", 2, 2, cmp_bind, cmp_eval, "a >= b"),
    F("<=>", 2, 2, cmp_bind, cmp_eval, "a <=> b - equality where NULL <=> NULL is true"),
    F("+", 2, 2, arith_bind, arith_eval, "a + b - sum (integers wrap; date + days)"),
    F("-", 2, 2, arith_bind, arith_eval, "a - b - difference (date - days)"),
    F("*", 2, 2, arith_bind, arith_eval, "a * b - product"),
    F("/", 2, 2, arith_bind, arith_eval,
      "a / b - quotient as DOUBLE (DECIMAL for decimals); NULL when b is 0"),
    F("%", 2, 2, arith_bind, arith_eval, "a % b - remainder with the sign of a; NULL when b is 0"),
    F("div", 2, 2, arith_bind, arith_eval,
      "a div b - integral quotient (BIGINT); NULL when b is 0"),
    F("pmod", 2, 2, arith_bind, arith_eval, "pmod(a, b) - positive remainder"),
    F("negative", 1, 1, neg_bind, neg_eval, "-a - negation (integers wrap)"),
    F("positive", 1, 1, neg_bind, neg_eval, "+a - a"),
    F("&", 2, 2, bit_bind, bit_eval, "a & b - bitwise and"),
    F("|", 2, 2, bit_bind, bit_eval, "a | b - bitwise or"),
    F("^", 2, 2, bit_bind, bit_eval, "a ^ b - bitwise exclusive or"),
    F("~", 1, 1, bit_bind, bit_eval, "~a - bitwise not"),
    F("<<", 2, 2, bit_bind, bit_eval, "a << n - shift left (shiftleft)"),
    F(">>", 2, 2, bit_bind, bit_eval, "a >> n - arithmetic shift right (shiftright)"),
    F(">>>", 2, 2, bit_bind, bit_eval, "a >>> n - logical shift right (shiftrightunsigned)"),
    F("||", 2, 2, concat_op_bind, concat_op_eval, "a || b - string (or binary) concatenation"),
    F("and", 2, 2, logic_bind, logic_eval, "a AND b - three-valued conjunction"),
    F("or", 2, 2, logic_bind, logic_eval, "a OR b - three-valued disjunction"),
    F("not", 1, 1, logic_bind, logic_eval, "NOT a - negation (NOT NULL is NULL)"),
    F("is_null", 1, 1, is_bind, is_eval, "a IS NULL (isnull)"),
    F("is_not_null", 1, 1, is_bind, is_eval, "a IS NOT NULL (isnotnull)"),
    F("is_true", 1, 1, is_bind, is_eval, "a IS TRUE"),
    F("is_not_true", 1, 1, is_bind, is_eval, "a IS NOT TRUE"),
    F("is_false", 1, 1, is_bind, is_eval, "a IS FALSE"),
    F("is_not_false", 1, 1, is_bind, is_eval, "a IS NOT FALSE"),
    F("in", 1, -1, in_bind, in_eval,
      "a IN (x, y, ...) - true when a equals an item; NULL when none does and an item is NULL"),
    F("between", 3, 3, between_bind, between_eval, "a BETWEEN lo AND hi - lo <= a AND a <= hi"),
    F("like", 2, 3, like_bind, like_eval,
      "str LIKE pattern [ESCAPE c] - % any run, _ one character, default escape \\"),
    F("ilike", 2, 3, like_bind, like_eval, "str ILIKE pattern - case-insensitive LIKE"),
    F("rlike", 2, 2, rlike_bind, rlike_eval, "str RLIKE regex - true when regex matches anywhere"),
    F("case", 1, -1, case_bind, choose_eval,
      "CASE WHEN c1 THEN v1 [WHEN ...] [ELSE e] END - the first value whose condition is true"),
    F("simple_case", 2, -1, simple_case_bind, choose_eval,
      "CASE x WHEN a THEN v1 [WHEN ...] [ELSE e] END - the first value whose WHEN equals x"),
    F("coalesce", 1, -1, coalesce_bind, choose_eval, "coalesce(a, b, ...) - the first non-NULL"),
    F("nvl", 2, 2, coalesce_bind, choose_eval, "nvl(a, b) - b when a is NULL (ifnull)"),
    F("nvl2", 3, 3, nvl2_bind, choose_eval, "nvl2(a, b, c) - b when a is not NULL, else c"),
    F("if", 3, 3, if_bind, choose_eval, "if(cond, a, b) - a when cond is true, else b"),
    F("nullif", 2, 2, nullif_bind, choose_eval, "nullif(a, b) - NULL when a equals b, else a"),
};
const int32_t hudi_sql_ops_nfuncs = (int32_t)HUDI_ARRAY_LEN(hudi_sql_ops_funcs);
