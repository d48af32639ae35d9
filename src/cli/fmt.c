/* fmt.c - small formatting and conversion helpers the CLI needs beyond columnar/render.h:
 * hex dumps and half floats (UTF-8, big-endian decimals and dates are base.h's).
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
