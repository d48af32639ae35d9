/* fmt.c - small formatting and conversion helpers the CLI needs beyond columnar/render.h:
 * hex dumps, UTF-8 checks, big-endian decimals, half floats and civil dates.
 *
 * Invariant: every helper is total over its input bytes (no assumption about what a file
 * holds), so statistics from any footer can be printed safely. */
#include <math.h>

#include "cli/cli.h"

double cli_half_to_double(uint16_t bits) {
    int sign = bits >> 15, exp = (bits >> 10) & 0x1f, frac = bits & 0x3ff;
    double v;
    if (exp == 0)
        v = ldexp(frac, -24);
    else if (exp == 31)
        v = frac ? NAN : INFINITY;
    else
        v = ldexp(frac | 0x400, exp - 25);
    return sign ? -v : v;
}

void cli_fmt_hex(hudi_buf *b, const uint8_t *p, size_t n, size_t max_bytes) {
    static const char digits[] = "0123456789abcdef";
    size_t shown = max_bytes && n > max_bytes ? max_bytes : n;
    hudi_buf_puts(b, "0x");
    for (size_t i = 0; i < shown; i++) {
        hudi_buf_putc(b, digits[p[i] >> 4]);
        hudi_buf_putc(b, digits[p[i] & 15]);
    }
    if (shown < n) hudi_buf_printf(b, "… (%zu bytes)", n);
}

bool cli_utf8_valid(const uint8_t *p, size_t n) {
    size_t i = 0;
    while (i < n) {
        uint8_t c = p[i];
        size_t len;
        uint32_t cp;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xe0) == 0xc0) {
            len = 2, cp = c & 0x1f;
        } else if ((c & 0xf0) == 0xe0) {
            len = 3, cp = c & 0x0f;
        } else if ((c & 0xf8) == 0xf0) {
            len = 4, cp = c & 0x07;
        } else {
            return false;
        }
        if (n - i < len) return false;
        for (size_t k = 1; k < len; k++) {
            if ((p[i + k] & 0xc0) != 0x80) return false;
            cp = (cp << 6) | (p[i + k] & 0x3f);
        }
        /* Overlong forms, surrogates and values past U+10FFFF are not UTF-8. */
        if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
            (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
            return false;
        i += len;
    }
    return true;
}

bool cli_be_to_i128(const uint8_t *p, size_t n, __int128 *out) {
    if (n == 0 || n > 16) return false;
    unsigned __int128 v = (p[0] & 0x80) ? ~(unsigned __int128)0 : 0; /* sign extension */
    for (size_t i = 0; i < n; i++) v = (v << 8) | p[i];
    *out = (__int128)v;
    return true;
}

/* Howard Hinnant's days_from_civil: exact for the proleptic Gregorian calendar. */
int64_t cli_days_from_civil(int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}
