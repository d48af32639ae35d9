/* base64.c - the one Base64 decoder (RFC 4648 standard alphabet). The encoder is the JSON
 * renderer's (columnar/render.c, hudi_render_base64), which writes straight into its buffer. */
#include "base.h"

static int b64_value(uint8_t c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

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
    for (size_t i = 0; i < n; i++) {
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
