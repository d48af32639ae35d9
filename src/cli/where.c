/* where.c - `--where 'COL OP VALUE'` for `hudic parquet cat`: one simple predicate on a
 * top-level primitive column, its constant converted to the column's type so the reader
 * can compare it with statistics and values directly.
 *
 * Grammar: COL is a bare name (up to a space or one of = ! < >), "double-quoted" or
 * `back-quoted`; OP is = == != <> < <= > >= or IS [NOT] NULL (any case); VALUE is a number,
 * true/false, 'a quoted string' ('' for a quote; also dates, times, timestamps), x'hex' for
 * binary, or a bare word. Invariant: the constant is exact in the column's type or the parse
 * fails with a message - the predicate never silently changes meaning by rounding. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <strings.h>

#include "cli/cli.h"

static const char *skip_space(const char *s) {
    while (*s && isspace((unsigned char)*s)) s++;
    return s;
}

/* Case-insensitive keyword at s followed by a space or the end. */
static bool keyword(const char **s, const char *kw) {
    size_t n = strlen(kw);
    if (strncasecmp(*s, kw, n) != 0) return false;
    if ((*s)[n] && !isspace((unsigned char)(*s)[n])) return false;
    *s = skip_space(*s + n);
    return true;
}

static int parse_column(const char **s, hudi_buf *name, hudi_buf *why) {
    const char *p = *s;
    if (*p == '"' || *p == '`') {
        char q = *p++;
        for (;;) {
            if (!*p) {
                hudi_buf_printf(why, "unterminated %c in column name", q);
                return HUDI_EINVAL;
            }
            if (*p == q) {
                if (p[1] != q) break;
                p++; /* doubled quote = one quote */
            }
            hudi_buf_putc(name, *p++);
        }
        p++;
    } else {
        while (*p && !isspace((unsigned char)*p) && !strchr("=!<>", *p)) hudi_buf_putc(name, *p++);
    }
    if (name->len == 0) {
        hudi_buf_puts(why, "missing column name");
        return HUDI_EINVAL;
    }
    *s = skip_space(p);
    return 0;
}

static int parse_op(const char **s, hudi_cmp_op *op, hudi_buf *why) {
    static const struct {
        const char *text;
        hudi_cmp_op op;
    } ops[] = {{"==", HUDI_CMP_EQ}, {"!=", HUDI_CMP_NE}, {"<>", HUDI_CMP_NE}, {"<=", HUDI_CMP_LE},
               {">=", HUDI_CMP_GE}, {"=", HUDI_CMP_EQ},  {"<", HUDI_CMP_LT},  {">", HUDI_CMP_GT}};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(ops); i++) {
        size_t n = strlen(ops[i].text);
        if (strncmp(*s, ops[i].text, n) == 0) {
            *op = ops[i].op;
            *s = skip_space(*s + n);
            return 0;
        }
    }
    const char *p = *s;
    if (keyword(&p, "IS")) {
        bool not = keyword(&p, "NOT");
        if (keyword(&p, "NULL")) {
            *op = not ? HUDI_CMP_IS_NOT_NULL : HUDI_CMP_IS_NULL;
            *s = p;
            return 0;
        }
    }
    hudi_buf_printf(why, "expected an operator (= != < <= > >= IS NULL IS NOT NULL) at '%s'", *s);
    return HUDI_EINVAL;
}

/* The constant's text: the inside of '...' (quoted = true) or the bare rest of the input. */
static int parse_constant(const char *s, hudi_buf *text, bool *quoted, bool *hex, hudi_buf *why) {
    *quoted = *hex = false;
    if ((s[0] == 'x' || s[0] == 'X') && s[1] == '\'') {
        *hex = true;
        s++;
    }
    if (*s == '\'') {
        *quoted = true;
        const char *p = s + 1;
        for (;;) {
            if (!*p) {
                hudi_buf_puts(why, "unterminated quoted constant");
                return HUDI_EINVAL;
            }
            if (*p == '\'') {
                if (p[1] != '\'') break;
                p++;
            }
            hudi_buf_putc(text, *p++);
        }
        if (*skip_space(p + 1)) {
            hudi_buf_printf(why, "unexpected text after the constant: '%s'", skip_space(p + 1));
            return HUDI_EINVAL;
        }
        return 0;
    }
    if (*hex) {
        hudi_buf_puts(why, "x'...' needs quotes");
        return HUDI_EINVAL;
    }
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1])) n--;
    if (n == 0) {
        hudi_buf_puts(why, "missing constant after the operator");
        return HUDI_EINVAL;
    }
    hudi_buf_append(text, s, n);
    return 0;
}

static bool parse_i64(const char *s, int64_t *out) {
    if (!*s || isspace((unsigned char)*s)) return false;
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (errno || *end) return false;
    *out = v;
    return true;
}

static bool parse_u64(const char *s, uint64_t *out) {
    if (!*s || *s == '-' || isspace((unsigned char)*s)) return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end) return false;
    *out = v;
    return true;
}

static int parse_integer(const char *s, const hudi_field *f, hudi_value *v, hudi_buf *why) {
    static const struct {
        hudi_type_id t;
        int64_t lo;
        uint64_t hi;
    } ranges[] = {
        {HUDI_TYPE_INT8, INT8_MIN, INT8_MAX},    {HUDI_TYPE_INT16, INT16_MIN, INT16_MAX},
        {HUDI_TYPE_INT32, INT32_MIN, INT32_MAX}, {HUDI_TYPE_INT64, INT64_MIN, INT64_MAX},
        {HUDI_TYPE_UINT8, 0, UINT8_MAX},         {HUDI_TYPE_UINT16, 0, UINT16_MAX},
        {HUDI_TYPE_UINT32, 0, UINT32_MAX},       {HUDI_TYPE_UINT64, 0, UINT64_MAX},
    };
    for (size_t i = 0; i < HUDI_ARRAY_LEN(ranges); i++) {
        if (ranges[i].t != f->type) continue;
        if (ranges[i].lo < 0) {
            int64_t x;
            if (parse_i64(s, &x) && x >= ranges[i].lo && x <= (int64_t)ranges[i].hi) {
                v->i64 = x;
                return 0;
            }
        } else {
            uint64_t x;
            if (parse_u64(s, &x) && x <= ranges[i].hi) {
                v->i64 = (int64_t)x; /* uint64 keeps its bits */
                return 0;
            }
        }
        hudi_buf_printf(why, "'%s' is not a valid %s value", s, hudi_type_name(f->type));
        return HUDI_EINVAL;
    }
    return HUDI_EINVAL;
}

/* The nearest IEEE half of d (ties to even), as a double; overflow gives infinity. */
static double round_to_half(double d) {
    if (!isfinite(d) || d == 0) return d;
    int e;
    frexp(fabs(d), &e);
    int exp2 = HUDI_MAX(e - 1, -14); /* below 2^-14 halves are subnormal: fixed 2^-24 steps */
    double quantum = ldexp(1.0, exp2 - 10);
    double r = nearbyint(d / quantum) * quantum;
    return fabs(r) > 65504.0 ? copysign(INFINITY, d) : r;
}

/* A number for a FLOAT16/FLOAT/DOUBLE column, rounded to the column's precision: the reader
 * compares values of that type, and `float_col = 1.1` must match the float nearest 1.1. */
static int parse_float(const char *s, const hudi_field *f, hudi_value *v, hudi_buf *why) {
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (!*s || *end || isspace((unsigned char)*s)) {
        hudi_buf_printf(why, "'%s' is not a number", s);
        return HUDI_EINVAL;
    }
    if (f->type == HUDI_TYPE_FLOAT)
        d = (double)(float)d;
    else if (f->type == HUDI_TYPE_FLOAT16)
        d = round_to_half(d);
    v->f64 = d;
    return 0;
}

/* "-12.340" at `scale` -> unscaled -1234 (scale 2). Extra fraction digits must be zeros. */
static int parse_decimal(const char *s, const hudi_field *f, hudi_value *v, hudi_buf *why) {
    const char *p = s;
    bool neg = false;
    if (*p == '+' || *p == '-') neg = *p++ == '-';
    unsigned __int128 acc = 0;
    int32_t frac = 0, digits = 0;
    bool dot = false, ok = true;
    const unsigned __int128 limit = ~(unsigned __int128)0 >> 1; /* the int128 maximum */
    for (; *p; p++) {
        if (*p == '.' && !dot) {
            dot = true;
            continue;
        }
        if (!isdigit((unsigned char)*p)) {
            ok = false;
            break;
        }
        digits++;
        if (dot && frac >= f->scale) {
            if (*p != '0') {
                hudi_buf_printf(why, "'%s' has more than %d decimal places", s, f->scale);
                return HUDI_EINVAL;
            }
            continue;
        }
        if (dot) frac++;
        if (acc > (limit - 9) / 10) ok = false;
        acc = acc * 10 + (unsigned)(*p - '0');
    }
    for (; ok && frac < f->scale; frac++) {
        if (acc > limit / 10) ok = false;
        acc *= 10;
    }
    if (!ok || digits == 0) {
        hudi_buf_printf(why, "'%s' is not a decimal(%d, %d) value", s, f->precision, f->scale);
        return HUDI_EINVAL;
    }
    v->dec = neg ? -(__int128)acc : (__int128)acc;
    return 0;
}

/* Reads exactly `n` digits. */
static bool digits(const char **s, int n, int64_t *out) {
    int64_t v = 0;
    for (int i = 0; i < n; i++) {
        if (!isdigit((unsigned char)(*s)[i])) return false;
        v = v * 10 + ((*s)[i] - '0');
    }
    *s += n;
    *out = v;
    return true;
}

static bool parse_date_part(const char **s, int64_t *days) {
    const char *p = *s;
    bool neg = *p == '-';
    if (neg || *p == '+') p++;
    int64_t y, m, d;
    int ylen = 0;
    while (isdigit((unsigned char)p[ylen])) ylen++;
    if (ylen < 4 || ylen > 6 || !digits(&p, ylen, &y) || *p++ != '-' || !digits(&p, 2, &m) ||
        *p++ != '-' || !digits(&p, 2, &d))
        return false;
    if (neg) y = -y;
    static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1]) return false;
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (m == 2 && d == 29 && !leap) return false;
    *days = cli_days_from_civil(y, (unsigned)m, (unsigned)d);
    *s = p;
    return true;
}

/* "HH:MM[:SS[.f{1,9}]]" -> nanoseconds since midnight. */
static bool parse_time_part(const char **s, int64_t *nanos) {
    const char *p = *s;
    int64_t h, m, sec = 0, frac = 0;
    if (!digits(&p, 2, &h) || *p++ != ':' || !digits(&p, 2, &m)) return false;
    if (*p == ':') {
        p++;
        if (!digits(&p, 2, &sec)) return false;
        if (*p == '.') {
            p++;
            int n = 0;
            while (isdigit((unsigned char)*p) && n < 9) frac = frac * 10 + (*p++ - '0'), n++;
            if (n == 0 || isdigit((unsigned char)*p)) return false;
            for (; n < 9; n++) frac *= 10;
        }
    }
    if (h > 23 || m > 59 || sec > 59) return false;
    *nanos = ((h * 60 + m) * 60 + sec) * INT64_C(1000000000) + frac;
    *s = p;
    return true;
}

static int64_t unit_per_second(int unit) {
    return unit == HUDI_UNIT_MILLIS ? 1000 : unit == HUDI_UNIT_NANOS ? 1000000000 : 1000000;
}

/* Nanoseconds within a second -> the unit; false when precision would be lost. */
static bool nanos_to_unit(int64_t nanos, int unit, int64_t *out) {
    int64_t div = 1000000000 / unit_per_second(unit);
    if (nanos % div) return false;
    *out = nanos / div;
    return true;
}

static int parse_time(const char *s, const hudi_field *f, hudi_value *v, hudi_buf *why) {
    int64_t nanos, x;
    const char *p = s;
    if (parse_i64(s, &v->i64)) return 0; /* a raw value in the column's unit */
    if (!parse_time_part(&p, &nanos) || *p) {
        hudi_buf_printf(why, "'%s' is not a time (HH:MM:SS[.fff])", s);
        return HUDI_EINVAL;
    }
    if (!nanos_to_unit(nanos, f->unit, &x)) {
        hudi_buf_printf(why, "'%s' is more precise than the column", s);
        return HUDI_EINVAL;
    }
    v->i64 = x;
    return 0;
}

static int parse_date(const char *s, hudi_value *v, hudi_buf *why) {
    int64_t days;
    const char *p = s;
    if (parse_i64(s, &v->i64)) return 0; /* days since the epoch */
    if (!parse_date_part(&p, &days) || *p) {
        hudi_buf_printf(why, "'%s' is not a date (YYYY-MM-DD)", s);
        return HUDI_EINVAL;
    }
    v->i64 = days;
    return 0;
}

/* 'YYYY-MM-DD[( |T)HH:MM[:SS[.f]]][Z|+00:00]' (the wall clock, read as UTC) -> the unit. */
static int parse_timestamp(const char *s, const hudi_field *f, hudi_value *v, hudi_buf *why) {
    const char *p = s;
    int64_t days, nanos = 0, sub = 0;
    if (parse_i64(s, &v->i64)) return 0; /* a raw value in the column's unit */
    bool ok = parse_date_part(&p, &days);
    if (ok && (*p == ' ' || *p == 'T')) {
        p++;
        ok = parse_time_part(&p, &nanos);
    }
    if (ok && (*p == 'Z' || *p == 'z'))
        p++;
    else if (ok && strcmp(p, "+00:00") == 0)
        p += 6;
    if (!ok || *p) {
        hudi_buf_printf(why, "'%s' is not a timestamp (YYYY-MM-DD HH:MM:SS[.ffffff])", s);
        return HUDI_EINVAL;
    }
    int64_t per_sec = unit_per_second(f->unit), secs = days * 86400 + nanos / 1000000000, out;
    if (!nanos_to_unit(nanos % 1000000000, f->unit, &sub)) {
        hudi_buf_printf(why, "'%s' is more precise than the column", s);
        return HUDI_EINVAL;
    }
    if (__builtin_mul_overflow(secs, per_sec, &out) || __builtin_add_overflow(out, sub, &out)) {
        hudi_buf_printf(why, "'%s' is out of range for the column", s);
        return HUDI_EINVAL;
    }
    v->i64 = out;
    return 0;
}

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    c = (char)tolower((unsigned char)c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Hex digits (dashes allowed, for UUIDs) -> bytes in `out`. */
static bool parse_hex(const char *s, hudi_buf *out) {
    int hi = -1;
    for (; *s; s++) {
        if (*s == '-') continue;
        int h = hex_value(*s);
        if (h < 0) return false;
        if (hi < 0) {
            hi = h;
        } else {
            hudi_buf_putc(out, (char)(hi << 4 | h));
            hi = -1;
        }
    }
    return hi < 0;
}

static int parse_bytes(cli_where *w, const char *text, bool hex, const hudi_field *f,
                       hudi_buf *why) {
    hudi_buf_clear(&w->bytes);
    bool uuid =
        f->type == HUDI_TYPE_FIXED_BINARY && f->hint == HUDI_HINT_UUID && strlen(text) == 36;
    if (hex || uuid) {
        if (!parse_hex(text, &w->bytes)) {
            hudi_buf_printf(why, "'%s' is not hex", text);
            return HUDI_EINVAL;
        }
    } else {
        hudi_buf_puts(&w->bytes, text);
    }
    if (hudi_buf_failed(&w->bytes)) {
        hudi_buf_puts(why, "out of memory");
        return HUDI_ENOMEM;
    }
    if (f->type == HUDI_TYPE_FIXED_BINARY && w->bytes.len != (size_t)f->byte_width) {
        hudi_buf_printf(why, "the constant has %zu bytes, column '%s' holds %d-byte values",
                        w->bytes.len, f->name, f->byte_width);
        return HUDI_EINVAL;
    }
    w->pred.value.bytes = HUDI_SLICE(w->bytes.data ? w->bytes.data : "", w->bytes.len);
    return 0;
}

static int convert_constant(cli_where *w, const hudi_field *f, const char *text, bool quoted,
                            bool hex, hudi_buf *why) {
    hudi_value *v = &w->pred.value;
    if (!quoted && strcasecmp(text, "null") == 0) {
        hudi_buf_puts(why, "comparing with NULL is never true; use IS NULL or IS NOT NULL");
        return HUDI_EINVAL;
    }
    if (hex && f->type != HUDI_TYPE_BINARY && f->type != HUDI_TYPE_FIXED_BINARY) {
        hudi_buf_printf(why, "x'...' constants need a binary column, '%s' is %s", f->name,
                        hudi_type_name(f->type));
        return HUDI_EINVAL;
    }
    switch (f->type) {
    case HUDI_TYPE_BOOL:
        if (strcasecmp(text, "true") == 0 || strcmp(text, "1") == 0)
            v->i64 = 1;
        else if (strcasecmp(text, "false") == 0 || strcmp(text, "0") == 0)
            v->i64 = 0;
        else {
            hudi_buf_printf(why, "'%s' is not a boolean (true or false)", text);
            return HUDI_EINVAL;
        }
        return 0;
    case HUDI_TYPE_INT8:
    case HUDI_TYPE_INT16:
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_INT64:
    case HUDI_TYPE_UINT8:
    case HUDI_TYPE_UINT16:
    case HUDI_TYPE_UINT32:
    case HUDI_TYPE_UINT64: return parse_integer(text, f, v, why);
    case HUDI_TYPE_FLOAT16:
    case HUDI_TYPE_FLOAT:
    case HUDI_TYPE_DOUBLE: return parse_float(text, f, v, why);
    case HUDI_TYPE_DECIMAL: return parse_decimal(text, f, v, why);
    case HUDI_TYPE_DATE: return parse_date(text, v, why);
    case HUDI_TYPE_TIME: return parse_time(text, f, v, why);
    case HUDI_TYPE_TIMESTAMP: return parse_timestamp(text, f, v, why);
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY:
    case HUDI_TYPE_FIXED_BINARY: return parse_bytes(w, text, hex, f, why);
    default:
        hudi_buf_printf(why, "column '%s' (%s) cannot be compared with a constant", f->name,
                        hudi_type_name(f->type));
        return HUDI_EINVAL;
    }
}

static int find_column(const hudi_field *schema, const char *name, hudi_buf *why) {
    for (int32_t i = 0; i < schema->n_children; i++)
        if (schema->children[i].name && strcmp(schema->children[i].name, name) == 0) return i;
    hudi_buf_printf(why, "unknown column '%s'", name);
    return -1;
}

int cli_where_parse(cli_where *out, const char *text, const hudi_field *schema, hudi_buf *why) {
    hudi_buf name = HUDI_BUF_INIT, constant = HUDI_BUF_INIT;
    const char *p = skip_space(text);
    bool quoted, hex;
    int rc;
    memset(&out->pred, 0, sizeof(out->pred));
    if ((rc = parse_column(&p, &name, why)) < 0) goto done;
    if ((rc = parse_op(&p, &out->pred.op, why)) < 0) goto done;
    int32_t col = find_column(schema, name.data, why);
    if (col < 0) {
        rc = HUDI_EINVAL;
        goto done;
    }
    const hudi_field *f = &schema->children[col];
    out->pred.column = col;
    if (out->pred.op == HUDI_CMP_IS_NULL || out->pred.op == HUDI_CMP_IS_NOT_NULL) {
        out->pred.value.is_null = true;
        if (*p) {
            hudi_buf_printf(why, "unexpected text after IS NULL: '%s'", p);
            rc = HUDI_EINVAL;
        }
        goto done;
    }
    if (hudi_type_is_nested(f->type) || f->type == HUDI_TYPE_NULL) {
        hudi_buf_printf(why, "column '%s' is not a primitive column (%s)", f->name,
                        hudi_type_name(f->type));
        rc = HUDI_EINVAL;
        goto done;
    }
    if ((rc = parse_constant(p, &constant, &quoted, &hex, why)) < 0) goto done;
    if (hudi_buf_failed(&constant) || hudi_buf_failed(&name)) {
        rc = HUDI_ENOMEM;
        hudi_buf_puts(why, "out of memory");
        goto done;
    }
    rc = convert_constant(out, f, constant.data ? constant.data : "", quoted, hex, why);
done:
    hudi_buf_dispose(&name);
    hudi_buf_dispose(&constant);
    return rc;
}

void cli_where_dispose(cli_where *w) {
    if (w) hudi_buf_dispose(&w->bytes);
}
