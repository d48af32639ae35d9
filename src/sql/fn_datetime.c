/* fn_datetime.c - date and time functions: from_unixtime, unix_timestamp, date_format,
 * to_date, to_timestamp, year .. second, dayofweek, dayofyear, quarter, date_add, date_sub,
 * datediff, add_months, last_day, trunc, date_trunc, make_date, current_date,
 * current_timestamp (docs/SQL.md "Functions and operators").
 *
 * Time zone: the session's fixed offset (hudi_sql_ctx.tz_offset_minutes); wall-clock fields of
 * a TIMESTAMP are those of its instant shifted by the offset. Patterns are Spark 3's
 * DateTimeFormatter letters (docs/SQL.md "Datetime patterns"); a constant pattern is compiled
 * once per call site when the call is bound. */
#include <stdio.h>
#include <stdlib.h>

#include "sql/fn_int.h"

/* ---- patterns -------------------------------------------------------------------------------- */

typedef struct dt_tok {
    char letter; /* 0: literal text */
    uint8_t count;
    bool optional; /* inside [ ] */
    const char *text;
    uint16_t len;
} dt_tok;

typedef struct dt_pattern {
    int32_t n;
    const dt_tok *toks;
} dt_pattern;

static const char *const month_names[] = {"January",   "February", "March",    "April",
                                          "May",       "June",     "July",     "August",
                                          "September", "October",  "November", "December"};
static const char *const day_names[] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                        "Friday", "Saturday", "Sunday"};

/* Compiles a pattern into arena memory (or heap when arena is NULL); NULL with *bad set to the
 * offending letter (or '\'' for an unclosed quote) when it is not a valid pattern. */
static dt_pattern *dt_compile(hudi_arena *arena, const char *p, size_t n, char *bad) {
    size_t cap = n + 1;
    dt_pattern *pat = arena ? hudi_arena_alloc(arena, sizeof(dt_pattern) + cap * sizeof(dt_tok))
                            : hudi_calloc(1, sizeof(dt_pattern) + cap * sizeof(dt_tok));
    if (!pat) {
        *bad = 0;
        return NULL;
    }
    dt_tok *toks = (dt_tok *)(pat + 1);
    pat->toks = toks;
    pat->n = 0;
    bool opt = false;
    for (size_t i = 0; i < n;) {
        char c = p[i];
        dt_tok *t = &toks[pat->n];
        memset(t, 0, sizeof(*t));
        t->optional = opt;
        if (c == '[' || c == ']') {
            opt = c == '[';
            i++;
            continue;
        }
        if (c == '\'') {
            /* '' is a quote; 'text' is literal text, in which '' is a quote too */
            if (i + 1 < n && p[i + 1] == '\'') {
                t->text = "'";
                t->len = 1;
                i += 2;
                pat->n++;
                continue;
            }
            size_t e = i + 1;
            for (;;) {
                size_t st = e;
                while (e < n && p[e] != '\'') e++;
                if (e >= n) {
                    *bad = '\'';
                    goto fail;
                }
                t = &toks[pat->n];
                memset(t, 0, sizeof(*t));
                t->optional = opt;
                t->text = p + st;
                t->len = (uint16_t)(e - st);
                if (t->len) pat->n++;
                if (e + 1 < n && p[e + 1] == '\'') {
                    t = &toks[pat->n++];
                    memset(t, 0, sizeof(*t));
                    t->optional = opt;
                    t->text = "'";
                    t->len = 1;
                    e += 2;
                    continue;
                }
                break;
            }
            i = e + 1;
            continue;
        }
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
            if (!strchr("GyDMLdQqEFahKkHmsSVzOXxZ", c)) {
                *bad = c;
                goto fail;
            }
            size_t e = i;
            while (e < n && p[e] == c) e++;
            t->letter = c;
            t->count = (uint8_t)HUDI_MIN(e - i, 255);
            i = e;
            pat->n++;
            continue;
        }
        t->text = p + i;
        t->len = 1;
        i++;
        pat->n++;
    }
    return pat;
fail:
    if (!arena) hudi_free(pat);
    return NULL;
}

static void put_num(hudi_buf *b, int64_t v, int width) {
    char tmp[48];
    int k = (int)sizeof(tmp);
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[--k] = (char)('0' + u % 10);
        u /= 10;
    } while (u && k > 1);
    while ((int)sizeof(tmp) - k < width && k > 1) tmp[--k] = '0';
    if (v < 0) tmp[--k] = '-';
    hudi_buf_append(b, tmp + k, sizeof(tmp) - (size_t)k);
}

static void put_offset(hudi_buf *b, int32_t minutes, char letter, int count) {
    if (minutes == 0 && (letter == 'X')) return hudi_buf_putc(b, 'Z');
    int32_t a = minutes < 0 ? -minutes : minutes;
    char sign = minutes < 0 ? '-' : '+';
    if (letter == 'O') {
        if (minutes == 0) return hudi_buf_puts(b, "GMT");
        if (count == 1 && a % 60 == 0) return hudi_buf_printf(b, "GMT%c%d", sign, a / 60);
        if (count == 1) return hudi_buf_printf(b, "GMT%c%d:%02d", sign, a / 60, a % 60);
        return hudi_buf_printf(b, "GMT%c%02d:%02d", sign, a / 60, a % 60);
    }
    if (letter == 'Z') {
        if (count == 4) {
            if (minutes == 0) return hudi_buf_puts(b, "GMT");
            return hudi_buf_printf(b, "GMT%c%02d:%02d", sign, a / 60, a % 60);
        }
        if (count == 5) {
            if (minutes == 0) return hudi_buf_putc(b, 'Z');
            return hudi_buf_printf(b, "%c%02d:%02d", sign, a / 60, a % 60);
        }
        return hudi_buf_printf(b, "%c%02d%02d", sign, a / 60, a % 60);
    }
    /* X, x: 1 = +HH[mm], 2 = +HHmm, 3 = +HH:mm */
    if (count == 1) {
        hudi_buf_printf(b, "%c%02d", sign, a / 60);
        if (a % 60) hudi_buf_printf(b, "%02d", a % 60);
    } else if (count == 2 || count == 4) {
        hudi_buf_printf(b, "%c%02d%02d", sign, a / 60, a % 60);
    } else {
        hudi_buf_printf(b, "%c%02d:%02d", sign, a / 60, a % 60);
    }
}

/* Formats `micros` (an instant) in the zone of `tz` minutes. */
static void dt_format(hudi_buf *b, const dt_pattern *pat, int64_t micros, int32_t tz,
                      const char *tz_name) {
    int64_t local = micros + (int64_t)tz * 60000000;
    int64_t days = hudi_sql_floor_div(local, HUDI_SQL_MICROS_PER_DAY);
    int64_t tod = local - days * HUDI_SQL_MICROS_PER_DAY;
    int64_t y;
    int m, d;
    hudi_civil_from_days(days, &y, &m, &d);
    int hour = (int)(tod / 3600000000), minute = (int)(tod / 60000000 % 60);
    int sec = (int)(tod / 1000000 % 60), frac = (int)(tod % 1000000);
    int dow = (int)hudi_sql_floor_mod(days + 3, 7); /* 0 = Monday; 1970-01-01 was a Thursday */
    for (int32_t k = 0; k < pat->n; k++) {
        const dt_tok *t = &pat->toks[k];
        int c = t->count;
        switch (t->letter) {
        case 0: hudi_buf_append(b, t->text, t->len); break;
        case 'G':
            hudi_buf_puts(b, c == 4 ? (y > 0 ? "Anno Domini" : "Before Christ")
                                    : (y > 0 ? "AD" : "BC"));
            break;
        case 'y': {
            int64_t ye = y > 0 ? y : 1 - y;
            if (c == 2) {
                put_num(b, ye % 100, 2);
            } else {
                int64_t lim = 1;
                for (int z = 0; z < c && lim < INT64_MAX / 10; z++) lim *= 10;
                if (c >= 4 && ye >= lim) hudi_buf_putc(b, '+');
                put_num(b, ye, c);
            }
            break;
        }
        case 'D': put_num(b, days - hudi_days_from_civil(y, 1, 1) + 1, c); break;
        case 'M':
        case 'L':
            if (c >= 4)
                hudi_buf_puts(b, month_names[m - 1]);
            else if (c == 3)
                hudi_buf_append(b, month_names[m - 1], 3);
            else
                put_num(b, m, c);
            break;
        case 'd': put_num(b, d, c); break;
        case 'Q':
        case 'q':
            if (c >= 4)
                hudi_buf_printf(b, "%d%s quarter", (m - 1) / 3 + 1,
                                (const char *[]){"st", "nd", "rd", "th"}[(m - 1) / 3]);
            else if (c == 3)
                hudi_buf_printf(b, "Q%d", (m - 1) / 3 + 1);
            else
                put_num(b, (m - 1) / 3 + 1, c);
            break;
        case 'E':
            if (c >= 4)
                hudi_buf_puts(b, day_names[dow]);
            else
                hudi_buf_append(b, day_names[dow], 3);
            break;
        case 'F': put_num(b, (d - 1) % 7 + 1, c); break;
        case 'a': hudi_buf_puts(b, hour < 12 ? "AM" : "PM"); break;
        case 'h': put_num(b, hour % 12 == 0 ? 12 : hour % 12, c); break;
        case 'K': put_num(b, hour % 12, c); break;
        case 'k': put_num(b, hour == 0 ? 24 : hour, c); break;
        case 'H': put_num(b, hour, c); break;
        case 'm': put_num(b, minute, c); break;
        case 's': put_num(b, sec, c); break;
        case 'S': {
            char f[6];
            for (int z = 5, v = frac; z >= 0; z--, v /= 10) f[z] = (char)('0' + v % 10);
            for (int z = 0; z < c; z++) hudi_buf_putc(b, z < 6 ? f[z] : '0');
            break;
        }
        case 'V': hudi_buf_puts(b, tz_name ? tz_name : "UTC"); break;
        case 'z':
            if (tz == 0)
                hudi_buf_puts(b, "UTC");
            else
                put_offset(b, tz, 'X', 3);
            break;
        default: put_offset(b, tz, t->letter, c); break;
        }
    }
}

static bool ieq_n(const uint8_t *s, size_t n, const char *w, size_t wl) {
    if (n < wl) return false;
    for (size_t i = 0; i < wl; i++) {
        uint8_t a = s[i], b = (uint8_t)w[i];
        if ((a >= 'A' && a <= 'Z' ? a + 32 : a) != (b >= 'A' && b <= 'Z' ? b + 32 : b))
            return false;
    }
    return true;
}

static bool take_digits(hudi_slice s, size_t *i, int min, int max, int64_t *v) {
    int n = 0;
    int64_t x = 0;
    while (*i < s.len && n < max && s.data[*i] >= '0' && s.data[*i] <= '9') {
        x = x * 10 + (s.data[(*i)++] - '0');
        n++;
    }
    if (n < min) return false;
    *v = x;
    return true;
}

/* Parses s by the pattern: the instant in micros (fields missing default to 1970-01-01
 * 00:00:00; the zone in the text wins over `tz`). */
static bool dt_parse(const dt_pattern *pat, hudi_slice s, int32_t tz, int64_t *out) {
    size_t i = 0;
    int64_t y = 1970, m = 1, d = 1, h = 0, mi = 0, sec = 0, frac = 0, doy = -1;
    int ampm = -1, hour12 = -1;
    int32_t zone = tz;
    for (int32_t k = 0; k < pat->n; k++) {
        const dt_tok *t = &pat->toks[k];
        size_t save = i;
        bool ok = true;
        int c = t->count;
        int64_t v = 0;
        switch (t->letter) {
        case 0:
            ok = ieq_n(s.data + i, s.len - i, t->text, t->len);
            if (ok) i += t->len;
            break;
        case 'y':
            if (c == 2) {
                ok = take_digits(s, &i, 2, 2, &v);
                y = 2000 + v;
            } else {
                ok = take_digits(s, &i, c < 4 ? 1 : c, 9, &v);
                y = v;
            }
            break;
        case 'M':
        case 'L':
            if (c >= 3) {
                ok = false;
                for (int z = 0; z < 12 && !ok; z++) {
                    size_t wl = c == 3 ? 3 : strlen(month_names[z]);
                    if (ieq_n(s.data + i, s.len - i, month_names[z], wl)) {
                        m = z + 1;
                        i += wl;
                        ok = true;
                    }
                }
            } else {
                ok = take_digits(s, &i, c, 2, &m);
            }
            break;
        case 'E': {
            ok = false;
            for (int z = 0; z < 7 && !ok; z++) {
                size_t wl = c >= 4 ? strlen(day_names[z]) : 3;
                if (ieq_n(s.data + i, s.len - i, day_names[z], wl)) {
                    i += wl;
                    ok = true;
                }
            }
            break;
        }
        case 'd': ok = take_digits(s, &i, c, 2, &d); break;
        case 'D': ok = take_digits(s, &i, c, 3, &doy); break;
        case 'H':
        case 'k':
            ok = take_digits(s, &i, c, 2, &h);
            if (t->letter == 'k' && h == 24) h = 0;
            break;
        case 'h':
        case 'K':
            ok = take_digits(s, &i, c, 2, &v);
            hour12 = (int)v % 12;
            break;
        case 'm': ok = take_digits(s, &i, c, 2, &mi); break;
        case 's': ok = take_digits(s, &i, c, 2, &sec); break;
        case 'S': {
            size_t st = i;
            ok = take_digits(s, &i, 1, c, &v);
            int digits = (int)(i - st);
            for (; digits < 6; digits++) v *= 10;
            for (; digits > 6; digits--) v /= 10;
            frac = v;
            break;
        }
        case 'a':
            if (ieq_n(s.data + i, s.len - i, "AM", 2))
                ampm = 0;
            else if (ieq_n(s.data + i, s.len - i, "PM", 2))
                ampm = 1;
            else
                ok = false;
            if (ok) i += 2;
            break;
        case 'G':
            if (ieq_n(s.data + i, s.len - i, "AD", 2))
                i += 2;
            else
                ok = false;
            break;
        case 'X':
        case 'x':
        case 'Z':
        case 'O':
        case 'z':
        case 'V': {
            /* Z, UTC/GMT[+-h[h][:mm]], +-hh[[:]mm] */
            size_t st = i;
            if (i < s.len && (s.data[i] == 'Z')) {
                zone = 0;
                i++;
                break;
            }
            if (ieq_n(s.data + i, s.len - i, "UTC", 3) || ieq_n(s.data + i, s.len - i, "GMT", 3)) {
                i += 3;
                zone = 0;
            }
            if (i < s.len && (s.data[i] == '+' || s.data[i] == '-')) {
                bool neg = s.data[i++] == '-';
                int64_t hh = 0, mm = 0;
                size_t hs = i;
                ok = take_digits(s, &i, 1, 2, &hh);
                if (ok && i < s.len && s.data[i] == ':') {
                    i++;
                    ok = take_digits(s, &i, 2, 2, &mm);
                } else if (ok && i - hs == 2 && i + 1 < s.len && s.data[i] >= '0' &&
                           s.data[i] <= '9') {
                    ok = take_digits(s, &i, 2, 2, &mm);
                }
                zone = (int32_t)((neg ? -1 : 1) * (hh * 60 + mm));
            } else if (i == st) {
                ok = false;
            }
            break;
        }
        default: ok = take_digits(s, &i, 1, 9, &v); break;
        }
        if (!ok) {
            if (!t->optional) return false;
            i = save;
            /* skip the rest of this optional section */
            while (k + 1 < pat->n && pat->toks[k + 1].optional) k++;
        }
    }
    if (i != s.len) return false;
    if (hour12 >= 0)
        h = hour12 + (ampm == 1 ? 12 : 0);
    else if (ampm == 1 && h < 12)
        h += 12;
    if (doy >= 0) {
        int64_t base = hudi_days_from_civil(y, 1, 1) + doy - 1;
        int64_t yy;
        int mm2, dd2;
        hudi_civil_from_days(base, &yy, &mm2, &dd2);
        if (yy != y) return false;
        m = mm2;
        d = dd2;
    }
    if (!hudi_civil_valid(y, (int)m, (int)d) || h > 23 || mi > 59 || sec > 59) return false;
    int64_t days = hudi_days_from_civil(y, (int)m, (int)d);
    *out = days * HUDI_SQL_MICROS_PER_DAY + (h * 3600 + mi * 60 + sec) * 1000000 + frac -
           (int64_t)zone * 60000000;
    return true;
}

/* ---- binding ----------------------------------------------------------------------------------
 */

/* Compiles the constant pattern of argument k into call->state; a non-constant pattern is
 * compiled per row. */
static int pattern_bind(hudi_sql_bind_call *call, int32_t k, hudi_error *err) {
    int rc = hudi_sql_want_id(call, k, HUDI_TYPE_STRING, err);
    if (rc < 0) return rc;
    size_t len;
    const char *p = hudi_sql_const_str(call, k, &len);
    if (!p) return 0;
    char bad = 0;
    dt_pattern *pat = dt_compile(call->ctx->arena, p, len, &bad);
    if (!pat) {
        if (!bad) return hudi_error_oom(err);
        if (bad == '\'') return hudi_sql_bind_error(call, err, "unclosed quote in pattern '%s'", p);
        return hudi_sql_bind_error(call, err, "illegal pattern letter '%c' in '%s'", bad, p);
    }
    call->state = pat;
    return 0;
}

/* A pattern compiled per row, kept while the rows repeat its text. */
typedef struct dt_cache {
    dt_pattern *pat; /* heap; NULL when `text` is not a valid pattern */
    hudi_buf text;
    bool have;
    bool oom; /* the last compile ran out of memory */
} dt_cache;

/* The pattern for row i: the bound one, the default, or the row's own (cached). */
static const dt_pattern *row_pattern(const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                                     int32_t k, int64_t i, const dt_pattern *dflt, dt_cache *c) {
    if (call->fn_state) return call->fn_state;
    if (k >= call->n_args) return dflt;
    hudi_slice p = hudi_sql_str(&args[k], i);
    if (c->have && c->text.len == p.len && (p.len == 0 || memcmp(c->text.data, p.data, p.len) == 0))
        return c->pat;
    hudi_free(c->pat);
    char bad = 0;
    c->pat = dt_compile(NULL, (const char *)p.data, p.len, &bad);
    c->oom = !c->pat && bad == 0;
    hudi_buf_clear(&c->text);
    hudi_buf_append(&c->text, p.data, p.len);
    c->have = c->pat && !c->text.failed;
    c->oom |= c->text.failed;
    return c->pat;
}

#define LIT(s)                                                                                     \
    { 0, 0, false, s, 1 }
static const dt_tok ts_toks[] = {
    {'y', 4, false, NULL, 0}, LIT("-"), {'M', 2, false, NULL, 0}, LIT("-"),
    {'d', 2, false, NULL, 0}, LIT(" "), {'H', 2, false, NULL, 0}, LIT(":"),
    {'m', 2, false, NULL, 0}, LIT(":"), {'s', 2, false, NULL, 0}};
static const dt_pattern ts_pattern = {(int32_t)HUDI_ARRAY_LEN(ts_toks), ts_toks};
#undef LIT

/* yyyy-MM-dd HH:mm:ss */
static const dt_pattern *default_pattern(bool date_only) {
    (void)date_only;
    return &ts_pattern;
}

/* ---- evaluation scaffolding
 * ---------------------------------------------------------------------- */

typedef struct dt_job {
    hudi_sql_ctx *ctx;
    const hudi_sql_bexpr *call;
    const hudi_sql_datum *args;
    hudi_array *out;
    hudi_buf tmp;
    dt_cache heap;
    hudi_error *err;
} dt_job;

typedef int (*dt_row_fn)(dt_job *j, int64_t i);

static int run_rows(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                    int64_t nrows, hudi_array **out, hudi_error *err, dt_row_fn fn) {
    dt_job j;
    memset(&j, 0, sizeof(j));
    j.ctx = ctx;
    j.call = call;
    j.args = args;
    j.err = err;
    int rc = hudi_sql_out_new(&call->type, nrows, &j.out, err);
    if (rc < 0) return rc;
    for (int64_t i = 0; i < nrows; i++) {
        if (!hudi_sql_all_valid(args, call->n_args, i)) {
            hudi_sql_out_null(j.out, i);
            continue;
        }
        if ((rc = fn(&j, i)) < 0) break;
    }
    hudi_buf_dispose(&j.tmp);
    hudi_free(j.heap.pat);
    hudi_buf_dispose(&j.heap.text);
    if (rc < 0) {
        hudi_array_free(j.out);
        return rc;
    }
    hudi_sql_out_done(j.out, nrows);
    *out = j.out;
    return 0;
}

#define EVAL(fname, rowfn)                                                                         \
    static int fname(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,    \
                     int64_t nrows, hudi_array **out, hudi_error *err) {                           \
        return run_rows(ctx, call, args, nrows, out, err, rowfn);                                  \
    }

static int64_t tz_us(const dt_job *j) { return (int64_t)j->ctx->tz_offset_minutes * 60000000; }

static int32_t local_days(const dt_job *j, int64_t micros) {
    return (int32_t)hudi_sql_floor_div(micros + tz_us(j), HUDI_SQL_MICROS_PER_DAY);
}

static hudi_field ts_type(void) { return hudi_sql_prim(HUDI_TYPE_TIMESTAMP); }

/* ---- from_unixtime, unix_timestamp, date_format, to_date, to_timestamp
 * ------------------------------ */

static int from_unixtime_bind(hudi_sql_bind_call *call, hudi_error *err) {
    call->result = hudi_sql_prim(HUDI_TYPE_STRING);
    int rc = hudi_sql_want_id(call, 0, HUDI_TYPE_INT64, err);
    if (rc < 0 || call->n_args < 2) return rc;
    return pattern_bind(call, 1, err);
}

static int from_unixtime_row(dt_job *j, int64_t i) {
    const dt_pattern *p = row_pattern(j->call, j->args, 1, i, default_pattern(false), &j->heap);
    if (!p) {
        if (j->heap.oom) return hudi_error_oom(j->err);
        hudi_sql_out_null(j->out, i);
        return 0;
    }
    int64_t secs = HUDI_SQL_VAL(&j->args[0], int64_t, i), us;
    if (__builtin_mul_overflow(secs, (int64_t)1000000, &us)) {
        hudi_sql_out_null(j->out, i);
        return 0;
    }
    hudi_buf_clear(&j->tmp);
    dt_format(&j->tmp, p, us, j->ctx->tz_offset_minutes, j->ctx->tz_name);
    if (j->tmp.failed) return hudi_error_oom(j->err);
    return hudi_sql_out_str(j->out, i, j->tmp.data, j->tmp.len, j->err);
}
EVAL(from_unixtime_eval, from_unixtime_row)

static int date_format_bind(hudi_sql_bind_call *call, hudi_error *err) {
    call->result = hudi_sql_prim(HUDI_TYPE_STRING);
    int rc = hudi_sql_want(call, 0, ts_type(), err);
    return rc < 0 ? rc : pattern_bind(call, 1, err);
}

static int date_format_row(dt_job *j, int64_t i) {
    const dt_pattern *p = row_pattern(j->call, j->args, 1, i, NULL, &j->heap);
    if (!p) {
        if (j->heap.oom) return hudi_error_oom(j->err);
        hudi_sql_out_null(j->out, i);
        return 0;
    }
    hudi_buf_clear(&j->tmp);
    dt_format(&j->tmp, p, hudi_sql_ts_micros(j->args[0].array, hudi_sql_row(&j->args[0], i)),
              j->ctx->tz_offset_minutes, j->ctx->tz_name);
    if (j->tmp.failed) return hudi_error_oom(j->err);
    return hudi_sql_out_str(j->out, i, j->tmp.data, j->tmp.len, j->err);
}
EVAL(date_format_eval, date_format_row)

/* unix_timestamp([x [, fmt]]), to_date(x [, fmt]), to_timestamp(x [, fmt]): a string argument
 * with a pattern is parsed; anything else is cast (DATE / TIMESTAMP). */
static int parse_bind(hudi_sql_bind_call *call, hudi_error *err) {
    const char *n = call->name;
    hudi_type_id res = n[0] == 'u'   ? HUDI_TYPE_INT64
                       : n[3] == 'd' ? HUDI_TYPE_DATE
                                     : HUDI_TYPE_TIMESTAMP;
    call->result = hudi_sql_prim(res);
    if (call->n_args == 0) return 0;
    hudi_type_id t = call->args[0]->type.type;
    bool parse = call->n_args > 1 || (res == HUDI_TYPE_INT64 && t == HUDI_TYPE_STRING);
    int rc;
    if (parse) {
        if ((rc = hudi_sql_want_id(call, 0, HUDI_TYPE_STRING, err)) < 0) return rc;
        return call->n_args > 1 ? pattern_bind(call, 1, err) : 0;
    }
    if (res == HUDI_TYPE_DATE) return hudi_sql_want_id(call, 0, HUDI_TYPE_DATE, err);
    if (t == HUDI_TYPE_DATE && res == HUDI_TYPE_INT64) return 0;
    return hudi_sql_want(call, 0, ts_type(), err);
}

static int parse_row(dt_job *j, int64_t i) {
    hudi_type_id res = j->call->type.type;
    int64_t us;
    if (j->call->n_args == 0) {
        us = j->ctx->now_micros;
    } else {
        const hudi_array *a = j->args[0].array;
        int64_t r = hudi_sql_row(&j->args[0], i);
        switch (a->field->type) {
        case HUDI_TYPE_STRING: {
            const dt_pattern *p =
                row_pattern(j->call, j->args, 1, i, default_pattern(false), &j->heap);
            if (!p && j->heap.oom) return hudi_error_oom(j->err);
            if (!p || !dt_parse(p, hudi_sql_str(&j->args[0], i), j->ctx->tz_offset_minutes, &us)) {
                hudi_sql_out_null(j->out, i);
                return 0;
            }
            break;
        }
        case HUDI_TYPE_DATE:
            if (res == HUDI_TYPE_DATE) {
                HUDI_SQL_OUT(j->out, int32_t, i, ((const int32_t *)a->values)[r]);
                return 0;
            }
            us = ((const int32_t *)a->values)[r] * HUDI_SQL_MICROS_PER_DAY - tz_us(j);
            break;
        default: us = hudi_sql_ts_micros(a, r); break;
        }
    }
    if (res == HUDI_TYPE_INT64)
        HUDI_SQL_OUT(j->out, int64_t, i, hudi_sql_floor_div(us, 1000000));
    else if (res == HUDI_TYPE_DATE)
        HUDI_SQL_OUT(j->out, int32_t, i, local_days(j, us));
    else
        HUDI_SQL_OUT(j->out, int64_t, i, us);
    return 0;
}
EVAL(parse_eval, parse_row)

/* ---- fields -------------------------------------------------------------------------------------
 */

static int field_bind(hudi_sql_bind_call *call, hudi_error *err) {
    const char *n = call->name;
    call->result = hudi_sql_prim(HUDI_TYPE_INT32);
    bool time = !strcmp(n, "hour") || !strcmp(n, "minute") || !strcmp(n, "second");
    return time ? hudi_sql_want(call, 0, ts_type(), err)
                : hudi_sql_want_id(call, 0, HUDI_TYPE_DATE, err);
}

static int field_row(dt_job *j, int64_t i) {
    const char *n = j->call->fn->name;
    const hudi_array *a = j->args[0].array;
    int64_t r = hudi_sql_row(&j->args[0], i);
    int32_t v;
    if (a->field->type == HUDI_TYPE_TIMESTAMP) {
        int64_t local = hudi_sql_ts_micros(a, r) + (a->field->utc ? tz_us(j) : 0);
        int64_t tod = hudi_sql_floor_mod(local, HUDI_SQL_MICROS_PER_DAY);
        v = n[0] == 'h'   ? (int32_t)(tod / 3600000000)
            : n[0] == 'm' ? (int32_t)(tod / 60000000 % 60)
                          : (int32_t)(tod / 1000000 % 60);
    } else {
        int32_t days = ((const int32_t *)a->values)[r];
        int64_t y;
        int m, d;
        hudi_civil_from_days(days, &y, &m, &d);
        if (!strcmp(n, "year"))
            v = (int32_t)y;
        else if (!strcmp(n, "month"))
            v = m;
        else if (!strcmp(n, "day"))
            v = d;
        else if (!strcmp(n, "quarter"))
            v = (m - 1) / 3 + 1;
        else if (!strcmp(n, "dayofweek")) /* 1 = Sunday */
            v = (int32_t)hudi_sql_floor_mod((int64_t)days + 4, 7) + 1;
        else if (!strcmp(n, "weekday")) /* 0 = Monday */
            v = (int32_t)hudi_sql_floor_mod((int64_t)days + 3, 7);
        else if (!strcmp(n, "dayofyear"))
            v = (int32_t)(days - hudi_days_from_civil(y, 1, 1) + 1);
        else {                                                     /* weekofyear: ISO 8601 */
            int64_t wd = hudi_sql_floor_mod((int64_t)days + 3, 7); /* 0 = Monday */
            int64_t thursday = days - wd + 3;
            int64_t ty;
            int tm, td;
            hudi_civil_from_days(thursday, &ty, &tm, &td);
            v = (int32_t)((thursday - hudi_days_from_civil(ty, 1, 1)) / 7 + 1);
        }
    }
    HUDI_SQL_OUT(j->out, int32_t, i, v);
    return 0;
}
EVAL(field_eval, field_row)

/* ---- date arithmetic
 * ------------------------------------------------------------------------------ */

static int date_int_bind(hudi_sql_bind_call *call, hudi_error *err) {
    call->result = hudi_sql_prim(HUDI_TYPE_DATE);
    int rc = hudi_sql_want_id(call, 0, HUDI_TYPE_DATE, err);
    return rc < 0 ? rc : hudi_sql_want_id(call, 1, HUDI_TYPE_INT32, err);
}

static int add_months_days(int32_t days, int32_t n) {
    int64_t y;
    int m, d;
    hudi_civil_from_days(days, &y, &m, &d);
    int64_t total = y * 12 + (m - 1) + n;
    int64_t ny = hudi_sql_floor_div(total, 12);
    int nm = (int)(total - ny * 12) + 1;
    while (d > 28 && !hudi_civil_valid(ny, nm, d)) d--;
    return (int32_t)hudi_days_from_civil(ny, nm, d);
}

static int date_int_row(dt_job *j, int64_t i) {
    const char *n = j->call->fn->name;
    int32_t days = HUDI_SQL_VAL(&j->args[0], int32_t, i), k = HUDI_SQL_VAL(&j->args[1], int32_t, i);
    int32_t r;
    if (!strcmp(n, "add_months"))
        r = add_months_days(days, k);
    else
        r = (int32_t)((uint32_t)days + (n[5] == 's' ? 0u - (uint32_t)k : (uint32_t)k));
    HUDI_SQL_OUT(j->out, int32_t, i, r);
    return 0;
}
EVAL(date_int_eval, date_int_row)

static int date1_bind(hudi_sql_bind_call *call, hudi_error *err) {
    const char *n = call->name;
    call->result = hudi_sql_prim(n[0] == 'd' ? HUDI_TYPE_INT32 : HUDI_TYPE_DATE);
    for (int32_t k = 0; k < call->n_args; k++) {
        int rc = hudi_sql_want_id(call, k, HUDI_TYPE_DATE, err);
        if (rc < 0) return rc;
    }
    return 0;
}

static int date1_row(dt_job *j, int64_t i) {
    const char *n = j->call->fn->name;
    int32_t days = HUDI_SQL_VAL(&j->args[0], int32_t, i);
    if (n[0] == 'd') { /* datediff(end, start) */
        int32_t s = HUDI_SQL_VAL(&j->args[1], int32_t, i);
        HUDI_SQL_OUT(j->out, int32_t, i, (int32_t)((uint32_t)days - (uint32_t)s));
        return 0;
    }
    int64_t y;
    int m, d;
    hudi_civil_from_days(days, &y, &m, &d); /* last_day */
    int last = 31;
    while (!hudi_civil_valid(y, m, last)) last--;
    HUDI_SQL_OUT(j->out, int32_t, i, (int32_t)hudi_days_from_civil(y, m, last));
    return 0;
}
EVAL(date1_eval, date1_row)

static int make_date_bind(hudi_sql_bind_call *call, hudi_error *err) {
    call->result = hudi_sql_prim(HUDI_TYPE_DATE);
    for (int32_t k = 0; k < 3; k++) {
        int rc = hudi_sql_want_id(call, k, HUDI_TYPE_INT32, err);
        if (rc < 0) return rc;
    }
    return 0;
}

static int make_date_row(dt_job *j, int64_t i) {
    int32_t y = HUDI_SQL_VAL(&j->args[0], int32_t, i), m = HUDI_SQL_VAL(&j->args[1], int32_t, i),
            d = HUDI_SQL_VAL(&j->args[2], int32_t, i);
    if (!hudi_civil_valid(y, m, d))
        hudi_sql_out_null(j->out, i);
    else
        HUDI_SQL_OUT(j->out, int32_t, i, (int32_t)hudi_days_from_civil(y, m, d));
    return 0;
}
EVAL(make_date_eval, make_date_row)

/* trunc(date, unit) -> DATE; date_trunc(unit, ts) -> TIMESTAMP */
static int unit_of(hudi_slice u) {
    static const char *const names[] = {"year", "yyyy",   "yy",     "quarter",     "month",
                                        "mon",  "mm",     "week",   "day",         "dd",
                                        "hour", "minute", "second", "millisecond", "microsecond"};
    static const int codes[] = {1, 1, 1, 2, 3, 3, 3, 4, 5, 5, 6, 7, 8, 9, 10};
    for (size_t k = 0; k < HUDI_ARRAY_LEN(names); k++)
        if (u.len == strlen(names[k]) && ieq_n(u.data, u.len, names[k], u.len)) return codes[k];
    return 0;
}

static int trunc_bind(hudi_sql_bind_call *call, hudi_error *err) {
    bool is_date = call->name[0] == 't';
    call->result = is_date ? hudi_sql_prim(HUDI_TYPE_DATE) : ts_type();
    int32_t v = is_date ? 0 : 1, u = is_date ? 1 : 0;
    int rc = is_date ? hudi_sql_want_id(call, v, HUDI_TYPE_DATE, err)
                     : hudi_sql_want(call, v, ts_type(), err);
    return rc < 0 ? rc : hudi_sql_want_id(call, u, HUDI_TYPE_STRING, err);
}

static int64_t trunc_days(int32_t days, int unit) {
    int64_t y;
    int m, d;
    hudi_civil_from_days(days, &y, &m, &d);
    switch (unit) {
    case 1: return hudi_days_from_civil(y, 1, 1);
    case 2: return hudi_days_from_civil(y, (m - 1) / 3 * 3 + 1, 1);
    case 3: return hudi_days_from_civil(y, m, 1);
    case 4: return days - hudi_sql_floor_mod((int64_t)days + 3, 7);
    default: return days;
    }
}

static int trunc_row(dt_job *j, int64_t i) {
    bool is_date = j->call->fn->name[0] == 't';
    int unit = unit_of(hudi_sql_str(&j->args[is_date ? 1 : 0], i));
    if (is_date) {
        if (unit < 1 || unit > 4) {
            hudi_sql_out_null(j->out, i);
            return 0;
        }
        HUDI_SQL_OUT(j->out, int32_t, i,
                     (int32_t)trunc_days(HUDI_SQL_VAL(&j->args[0], int32_t, i), unit));
        return 0;
    }
    if (unit == 0) {
        hudi_sql_out_null(j->out, i);
        return 0;
    }
    int64_t us = hudi_sql_ts_micros(j->args[1].array, hudi_sql_row(&j->args[1], i));
    int64_t local = us + tz_us(j), r;
    if (unit <= 5) {
        int64_t days = hudi_sql_floor_div(local, HUDI_SQL_MICROS_PER_DAY);
        r = trunc_days((int32_t)days, unit) * HUDI_SQL_MICROS_PER_DAY;
    } else {
        static const int64_t per[] = {3600000000, 60000000, 1000000, 1000, 1};
        int64_t p = per[unit - 6];
        r = hudi_sql_floor_div(local, p) * p;
    }
    HUDI_SQL_OUT(j->out, int64_t, i, r - tz_us(j));
    return 0;
}
EVAL(trunc_eval, trunc_row)

/* ---- current_date, current_timestamp
 * ------------------------------------------------------------- */

static int now_bind(hudi_sql_bind_call *call, hudi_error *err) {
    (void)err;
    call->result =
        strcmp(call->name, "current_date") == 0 ? hudi_sql_prim(HUDI_TYPE_DATE) : ts_type();
    return 0;
}

static int now_row(dt_job *j, int64_t i) {
    if (j->call->type.type == HUDI_TYPE_DATE)
        HUDI_SQL_OUT(j->out, int32_t, i, local_days(j, j->ctx->now_micros));
    else
        HUDI_SQL_OUT(j->out, int64_t, i, j->ctx->now_micros);
    return 0;
}
EVAL(now_eval, now_row)

#define F HUDI_SQL_SCALAR_FN

const hudi_sql_func hudi_sql_datetime_funcs[] = {
    F("from_unixtime", 1, 2, from_unixtime_bind, from_unixtime_eval,
      "from_unixtime(secs[, fmt]) - seconds since the epoch as text in the session zone "
      "(default fmt yyyy-MM-dd HH:mm:ss)"),
    F("unix_timestamp", 0, 2, parse_bind, parse_eval,
      "unix_timestamp([x[, fmt]]) - seconds since the epoch of x (now without x); NULL when x "
      "does not parse (to_unix_timestamp)"),
    F("date_format", 2, 2, date_format_bind, date_format_eval,
      "date_format(ts, fmt) - ts as text by the pattern"),
    F("to_date", 1, 2, parse_bind, parse_eval,
      "to_date(x[, fmt]) - x as a DATE (parsed by fmt when given); NULL when it does not parse"),
    F("to_timestamp", 1, 2, parse_bind, parse_eval,
      "to_timestamp(x[, fmt]) - x as a TIMESTAMP (parsed by fmt when given)"),
    F("year", 1, 1, field_bind, field_eval, "year(date) - the year"),
    F("quarter", 1, 1, field_bind, field_eval, "quarter(date) - 1 to 4"),
    F("month", 1, 1, field_bind, field_eval, "month(date) - 1 to 12"),
    F("day", 1, 1, field_bind, field_eval, "day(date) - day of the month (dayofmonth)"),
    F("dayofweek", 1, 1, field_bind, field_eval, "dayofweek(date) - 1 (Sunday) to 7 (Saturday)"),
    F("weekday", 1, 1, field_bind, field_eval, "weekday(date) - 0 (Monday) to 6 (Sunday)"),
    F("dayofyear", 1, 1, field_bind, field_eval, "dayofyear(date) - 1 to 366"),
    F("weekofyear", 1, 1, field_bind, field_eval, "weekofyear(date) - the ISO 8601 week"),
    F("hour", 1, 1, field_bind, field_eval, "hour(ts) - 0 to 23 in the session zone"),
    F("minute", 1, 1, field_bind, field_eval, "minute(ts) - 0 to 59"),
    F("second", 1, 1, field_bind, field_eval, "second(ts) - 0 to 59"),
    F("date_add", 2, 2, date_int_bind, date_int_eval, "date_add(date, n) - n days later"),
    F("date_sub", 2, 2, date_int_bind, date_int_eval, "date_sub(date, n) - n days earlier"),
    F("add_months", 2, 2, date_int_bind, date_int_eval,
      "add_months(date, n) - n months later (the day clamped to the month's last)"),
    F("datediff", 2, 2, date1_bind, date1_eval, "datediff(end, start) - days from start to end"),
    F("last_day", 1, 1, date1_bind, date1_eval, "last_day(date) - the last day of its month"),
    F("make_date", 3, 3, make_date_bind, make_date_eval, "make_date(y, m, d) - a DATE"),
    F("trunc", 2, 2, trunc_bind, trunc_eval,
      "trunc(date, unit) - date truncated to year, quarter, month or week"),
    F("date_trunc", 2, 2, trunc_bind, trunc_eval,
      "date_trunc(unit, ts) - ts truncated to year .. microsecond"),
    F("current_date", 0, 0, now_bind, now_eval, "current_date() - the statement's date"),
    F("current_timestamp", 0, 0, now_bind, now_eval,
      "current_timestamp() - the statement's start time (now)"),
};
const int32_t hudi_sql_datetime_nfuncs = (int32_t)HUDI_ARRAY_LEN(hudi_sql_datetime_funcs);
