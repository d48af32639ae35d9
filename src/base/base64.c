/* base64.c - the one Base64 decoder (RFC 4648 standard alphabet). The encoder is the JSON
 * renderer's (columnar/render.c, hudi_render_base64), which writes straight into its buffer. */
#include "base.h"

/* Value + 1 of each alphabet byte; 0 = not Base64. */
static const uint8_t b64_table[256] = {
    ['A'] = 1,  ['B'] = 2,  ['C'] = 3,  ['D'] = 4,  ['E'] = 5,  ['F'] = 6,  ['G'] = 7,  ['H'] = 8,
    ['I'] = 9,  ['J'] = 10, ['K'] = 11, ['L'] = 12, ['M'] = 13, ['N'] = 14, ['O'] = 15, ['P'] = 16,
    ['Q'] = 17, ['R'] = 18, ['S'] = 19, ['T'] = 20, ['U'] = 21, ['V'] = 22, ['W'] = 23, ['X'] = 24,
    ['Y'] = 25, ['Z'] = 26, ['a'] = 27, ['b'] = 28, ['c'] = 29, ['d'] = 30, ['e'] = 31, ['f'] = 32,
    ['g'] = 33, ['h'] = 34, ['i'] = 35, ['j'] = 36, ['k'] = 37, ['l'] = 38, ['m'] = 39, ['n'] = 40,
    ['o'] = 41, ['p'] = 42, ['q'] = 43, ['r'] = 44, ['s'] = 45, ['t'] = 46, ['u'] = 47, ['v'] = 48,
    ['w'] = 49, ['x'] = 50, ['y'] = 51, ['z'] = 52, ['0'] = 53, ['1'] = 54, ['2'] = 55, ['3'] = 56,
    ['4'] = 57, ['5'] = 58, ['6'] = 59, ['7'] = 60, ['8'] = 61, ['9'] = 62, ['+'] = 63, ['/'] = 64};

static int b64_value(uint8_t c) { return (int)b64_table[c] - 1; }

int hudi_base64_decode(hudi_buf *out, const char *in, size_t len, hudi_error *err) {
    const uint8_t *s = (const uint8_t *)in;
    size_t n = len;
    /* '=' padding is optional (as java.util.Base64), but when present it ends the data */
    if (n % 4 == 0 && n >= 2 && s[n - 1] == '=') n -= s[n - 2] == '=' ? 2 : 1;
    if (n % 4 == 1) return hudi_error_set(err, HUDI_ECORRUPT, "base64: bad length %zu", len);
    if (hudi_buf_grow(out, n / 4 * 3 + 3) < 0) return hudi_error_oom(err);
    uint8_t *o = (uint8_t *)out->data + out->len;
    uint32_t acc = 0;
    int bits = 0;
    size_t i = 0;
    /* Whole quads first (a footer's bloom filter is hundreds of KB); the loop below finishes
     * the tail and reports a bad character. */
    for (; i + 4 <= n; i += 4) {
        uint32_t a = b64_table[s[i]], b = b64_table[s[i + 1]], c = b64_table[s[i + 2]],
                 d = b64_table[s[i + 3]];
        if (!a || !b || !c || !d) break;
        uint32_t v = (a - 1) << 18 | (b - 1) << 12 | (c - 1) << 6 | (d - 1);
        o[0] = (uint8_t)(v >> 16);
        o[1] = (uint8_t)(v >> 8);
        o[2] = (uint8_t)v;
        o += 3;
    }
    for (; i < n; i++) {
        int v = b64_value(s[i]);
        if (v < 0)
            return hudi_error_set(err, HUDI_ECORRUPT, "base64: bad character 0x%02x at %zu", s[i],
                                  i);
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            *o++ = (uint8_t)(acc >> bits);
        }
    }
    out->len = (size_t)((char *)o - out->data);
    out->data[out->len] = '\0';
    return 0;
}

int64_t hudi_base64_decoded_len(const char *in, size_t len) {
    const uint8_t *s = (const uint8_t *)in;
    size_t n = len;
    if (n % 4 == 0 && n >= 2 && s[n - 1] == '=') n -= s[n - 2] == '=' ? 2 : 1;
    if (n % 4 == 1) return -1;
    return (int64_t)(n / 4 * 3 + (n % 4 ? n % 4 - 1 : 0));
}

int hudi_base64_byte_at(const char *in, size_t len, size_t off) {
    const uint8_t *s = (const uint8_t *)in;
    int64_t total = hudi_base64_decoded_len(in, len);
    if (total < 0 || off >= (uint64_t)total) return -1;
    size_t q = off / 3 * 4, k = off % 3; /* the quad, and the byte in it */
    int a = b64_value(s[q]), b = b64_value(s[q + 1]);
    if (a < 0 || b < 0) return -1;
    if (k == 0) return (a << 2 | b >> 4) & 0xff;
    int c = b64_value(s[q + 2]);
    if (c < 0) return -1;
    if (k == 1) return (b << 4 | c >> 2) & 0xff;
    int d = b64_value(s[q + 3]);
    if (d < 0) return -1;
    return (c << 6 | d) & 0xff;
}
