/* keygen_format.c - value rendering as Java prints it (Double/Float.toString, BigDecimal,
 * LocalDate, java.sql.Timestamp), Hive partition escaping, and a subset of Joda-Time patterns
 * (format and parse) for TimestampBasedKeyGenerator. All dates are proleptic Gregorian. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "columnar/convert.h"
#include "write/keygen_int.h"

static int64_t floor_div(int64_t a, int64_t b) {
    return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

void hudi_kg_put_date(hudi_buf *out, int64_t days) {
    int64_t y;
    int m, d;
    hudi_civil_from_days(days, &y, &m, &d);
    /* LocalDate: 4+ digit years, '+' above 9999, '-' below 0 */
    if (y > 9999)
        hudi_buf_printf(out, "+%lld", (long long)y);
    else if (y < 0)
        hudi_buf_printf(out, "-%04lld", (long long)-y);
    else
        hudi_buf_printf(out, "%04lld", (long long)y);
    hudi_buf_printf(out, "-%02d-%02d", m, d);
}

void hudi_kg_put_sql_timestamp(hudi_buf *out, int64_t ms) {
    int64_t days = floor_div(ms, 86400000), rem = ms - days * 86400000;
    int64_t y;
    int m, d;
    hudi_civil_from_days(days, &y, &m, &d);
    int frac = (int)(rem % 1000);
    int64_t secs = rem / 1000;
    hudi_buf_printf(out, "%04lld-%02d-%02d %02d:%02d:%02d.", (long long)y, m, d, (int)(secs / 3600),
                    (int)(secs / 60 % 60), (int)(secs % 60));
    /* nanoseconds without trailing zeros, at least one digit */
    char f[16];
    snprintf(f, sizeof(f), "%09d", frac * 1000000);
    int n = 9;
    while (n > 1 && f[n - 1] == '0') n--;
    hudi_buf_append(out, f, (size_t)n);
}

void hudi_kg_put_decimal(hudi_buf *out, __int128 v, int32_t scale) {
    char digits[48];
    int n = 0;
    bool neg = v < 0;
    unsigned __int128 u = neg ? (unsigned __int128)0 - (unsigned __int128)v : (unsigned __int128)v;
    do {
        digits[n++] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u);
    /* digits are reversed; adjusted exponent as BigDecimal.toString defines it */
    int64_t adjusted = (int64_t)n - 1 - scale;
    if (neg) hudi_buf_putc(out, '-');
    if (scale == 0) {
        for (int i = n - 1; i >= 0; i--) hudi_buf_putc(out, digits[i]);
    } else if (scale > 0 && adjusted >= -6) {
        if (n <= scale) {
            hudi_buf_puts(out, "0.");
            for (int i = 0; i < scale - n; i++) hudi_buf_putc(out, '0');
            for (int i = n - 1; i >= 0; i--) hudi_buf_putc(out, digits[i]);
        } else {
            for (int i = n - 1; i >= 0; i--) {
                hudi_buf_putc(out, digits[i]);
                if (i == scale) hudi_buf_putc(out, '.');
            }
        }
    } else {
        hudi_buf_putc(out, digits[n - 1]);
        if (n > 1) {
            hudi_buf_putc(out, '.');
            for (int i = n - 2; i >= 0; i--) hudi_buf_putc(out, digits[i]);
        }
        hudi_buf_printf(out, "E%s%lld", adjusted >= 0 ? "+" : "", (long long)adjusted);
    }
}

/* ---- Java Double/Float.toString ----------------------------------------------------------- */

/* JDK 17's digits, which are not always the shortest (columnar/convert.h): a key must be the text
 * Hudi on Spark computed. */
void hudi_java_double_str(hudi_buf *out, double v) { hudi_java_double_text(out, v); }
void hudi_java_float_str(hudi_buf *out, float v) { hudi_java_float_text(out, v); }

/* ---- partition escaping (keys.md §8) -------------------------------------------------------- */

static bool needs_escape(unsigned char c) {
    if (c >= 0x01 && c <= 0x1f) return true;
    switch (c) {
    case '"':
    case '#':
    case '%':
    case '\'':
    case '*':
    case '/':
    case ':':
    case '=':
    case '?':
    case '\\':
    case 0x7f:
    case '{':
    case '[':
    case ']':
    case '^': return true;
    default: return false;
    }
}

void hudi_partition_escape(hudi_buf *out, const char *s, size_t len) {
    static const char hex[] = "0123456789ABCDEF";
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!needs_escape(c)) continue;
        hudi_buf_append(out, s + start, i - start);
        char e[3] = {'%', hex[c >> 4], hex[c & 15]};
        hudi_buf_append(out, e, 3);
        start = i + 1;
    }
    hudi_buf_append(out, s + start, len - start);
}

/* ---- time zones --------------------------------------------------------------------------- */

static bool parse_offset(const char *s, int32_t *out) {
    int sign = *s == '-' ? -1 : *s == '+' ? 1 : 0;
    if (!sign) return false;
    s++;
    int h = 0, m = 0, nd = 0;
    while (*s >= '0' && *s <= '9' && nd < 2) h = h * 10 + (*s++ - '0'), nd++;
    if (!nd) return false;
    if (*s == ':') s++;
    if (*s) {
        if (!(s[0] >= '0' && s[0] <= '9' && s[1] >= '0' && s[1] <= '9') || s[2]) return false;
        m = (s[0] - '0') * 10 + (s[1] - '0');
    }
    if (h > 18 || m > 59) return false;
    *out = sign * (h * 60 + m);
    return true;
}

int hudi_kg_parse_zone(int32_t *offset_min, const char *zone, hudi_error *err) {
    *offset_min = 0;
    if (!zone || !*zone || !strcmp(zone, "UTC") || !strcmp(zone, "GMT") || !strcmp(zone, "Z") ||
        !strcmp(zone, "Etc/UTC") || !strcmp(zone, "Etc/GMT"))
        return 0;
    const char *s = zone;
    if (!strncmp(s, "UTC", 3) || !strncmp(s, "GMT", 3)) s += 3;
    if (parse_offset(s, offset_min)) return 0;
    return hudi_error_set(err, HUDI_EUNSUPPORTED,
                          "keygen: time zone '%s' is not UTC or a fixed offset", zone);
}

/* ---- Joda patterns ------------------------------------------------------------------------ */

static const char *const month_names[12] = {"January",   "February", "March",    "April",
                                            "May",       "June",     "July",     "August",
                                            "September", "October",  "November", "December"};

/* Next token: a run of one letter (count), a quoted literal, or one literal char. */
typedef struct tok {
    char letter; /* 0 for a literal */
    int count;
    const char *lit;
    size_t lit_len;
    bool quoted_quote; /* '' inside or outside quotes */
} tok;

static const char *next_tok(const char *p, tok *t) {
    memset(t, 0, sizeof(*t));
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) {
        t->letter = *p;
        while (*p == t->letter) t->count++, p++;
        return p;
    }
    if (*p == '\'') {
        if (p[1] == '\'') { /* '' is a quote */
            t->lit = p;
            t->lit_len = 1;
            return p + 2;
        }
        const char *q = p + 1;
        while (*q && *q != '\'') q++;
        t->lit = p + 1;
        t->lit_len = (size_t)(q - p - 1);
        return *q ? q + 1 : q;
    }
    t->lit = p;
    t->lit_len = 1;
    return p + 1;
}

int hudi_kg_pattern_check(const char *pattern, hudi_error *err) {
    tok t;
    if (!pattern || !*pattern)
        return hudi_error_set(err, HUDI_EINVAL, "keygen: empty date pattern");
    for (const char *p = pattern; *p;) {
        p = next_tok(p, &t);
        if (t.letter && !strchr("yMdHhmsSaZ", t.letter))
            return hudi_error_set(err, HUDI_EUNSUPPORTED,
                                  "keygen: date pattern letter '%c' in '%s' is not supported",
                                  t.letter, pattern);
    }
    return 0;
}

void hudi_kg_pattern_format(hudi_buf *out, const char *pattern, int64_t ms, int32_t offset_min) {
    int64_t local = ms + (int64_t)offset_min * 60000;
    int64_t days = floor_div(local, 86400000), rem = local - days * 86400000;
    int64_t y;
    int mo, d;
    hudi_civil_from_days(days, &y, &mo, &d);
    int H = (int)(rem / 3600000), mi = (int)(rem / 60000 % 60), s = (int)(rem / 1000 % 60);
    int milli = (int)(rem % 1000);
    tok t;
    for (const char *p = pattern; *p;) {
        p = next_tok(p, &t);
        int n = t.count;
        switch (t.letter) {
        case 0: hudi_buf_append(out, t.lit, t.lit_len); break;
        case 'y':
            if (n == 2)
                hudi_buf_printf(out, "%02d", (int)(((y % 100) + 100) % 100));
            else
                hudi_buf_printf(out, "%0*lld", n, (long long)y);
            break;
        case 'M':
            if (n >= 4)
                hudi_buf_puts(out, month_names[mo - 1]);
            else if (n == 3)
                hudi_buf_append(out, month_names[mo - 1], 3);
            else
                hudi_buf_printf(out, "%0*d", n, mo);
            break;
        case 'd': hudi_buf_printf(out, "%0*d", n, d); break;
        case 'H': hudi_buf_printf(out, "%0*d", n, H); break;
        case 'h': hudi_buf_printf(out, "%0*d", n, H % 12 == 0 ? 12 : H % 12); break;
        case 'a': hudi_buf_puts(out, H < 12 ? "AM" : "PM"); break;
        case 'm': hudi_buf_printf(out, "%0*d", n, mi); break;
        case 's': hudi_buf_printf(out, "%0*d", n, s); break;
        case 'S': { /* fraction of the second, millisecond precision */
            char f[8];
            snprintf(f, sizeof(f), "%03d", milli);
            for (int i = 0; i < n; i++) hudi_buf_putc(out, i < 3 ? f[i] : '0');
            break;
        }
        case 'Z': {
            int32_t o = offset_min < 0 ? -offset_min : offset_min;
            hudi_buf_printf(out, n >= 2 ? "%c%02d:%02d" : "%c%02d%02d", offset_min < 0 ? '-' : '+',
                            o / 60, o % 60);
            break;
        }
        default: break; /* rejected by hudi_kg_pattern_check */
        }
    }
}

static bool parse_num(const char **s, const char *end, int min_digits, int max_digits, int64_t *v) {
    const char *p = *s;
    int64_t x = 0;
    int n = 0;
    while (p < end && n < max_digits && *p >= '0' && *p <= '9') x = x * 10 + (*p++ - '0'), n++;
    if (n < min_digits) return false;
    *s = p;
    *v = x;
    return true;
}

bool hudi_kg_pattern_parse(const char *pattern, const char *s, size_t len,
                           int32_t default_offset_min, int64_t *ms) {
    const char *p = s, *end = s + len;
    int64_t y = 1970, mo = 1, d = 1, H = 0, mi = 0, sec = 0, milli = 0, v;
    int32_t offset = default_offset_min;
    bool pm = false, has_ampm = false;
    tok t;
    for (const char *q = pattern; *q;) {
        q = next_tok(q, &t);
        int n = t.count;
        switch (t.letter) {
        case 0:
            if ((size_t)(end - p) < t.lit_len || memcmp(p, t.lit, t.lit_len) != 0) return false;
            p += t.lit_len;
            break;
        case 'y':
            if (!parse_num(&p, end, n == 2 ? 2 : 1, n == 2 ? 2 : HUDI_MAX(n, 4), &v)) return false;
            y = n == 2 ? 2000 + v - (v >= 70 ? 100 : 0) : v;
            break;
        case 'M':
            if (n >= 3) {
                int k = 0;
                for (; k < 12; k++) {
                    size_t l = n == 3 ? 3 : strlen(month_names[k]);
                    if ((size_t)(end - p) >= l && !strncasecmp(p, month_names[k], l)) {
                        p += l;
                        break;
                    }
                }
                if (k == 12) return false;
                mo = k + 1;
            } else if (!parse_num(&p, end, 1, 2, &mo)) {
                return false;
            }
            break;
        case 'd':
            if (!parse_num(&p, end, 1, 2, &d)) return false;
            break;
        case 'H':
            if (!parse_num(&p, end, 1, 2, &H)) return false;
            break;
        case 'h':
            if (!parse_num(&p, end, 1, 2, &H)) return false;
            break;
        case 'm':
            if (!parse_num(&p, end, 1, 2, &mi)) return false;
            break;
        case 's':
            if (!parse_num(&p, end, 1, 2, &sec)) return false;
            break;
        case 'S': {
            const char *st = p;
            if (!parse_num(&p, end, 1, 9, &v)) return false;
            int digits = (int)(p - st);
            while (digits > 3) v /= 10, digits--;
            while (digits < 3) v *= 10, digits++;
            milli = v;
            break;
        }
        case 'a':
            if (end - p < 2) return false;
            has_ampm = true;
            if (!strncasecmp(p, "PM", 2))
                pm = true;
            else if (strncasecmp(p, "AM", 2))
                return false;
            p += 2;
            break;
        case 'Z': {
            if (p < end && *p == 'Z') {
                offset = 0;
                p++;
                break;
            }
            char z[8];
            size_t k = 0;
            while (p < end && k < 6 &&
                   (k == 0 ? (*p == '+' || *p == '-') : ((*p >= '0' && *p <= '9') || *p == ':')))
                z[k++] = *p++;
            z[k] = '\0';
            if (!parse_offset(z, &offset)) return false;
            break;
        }
        default: return false;
        }
    }
    if (p != end) return false;
    if (has_ampm) H = (H % 12) + (pm ? 12 : 0);
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || H > 23 || mi > 59 || sec > 59) return false;
    int64_t days = hudi_days_from_civil(y, (int)mo, (int)d);
    *ms = ((days * 86400 + H * 3600 + mi * 60 + sec) * 1000 + milli) - (int64_t)offset * 60000;
    return true;
}
