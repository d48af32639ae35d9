/* utf8.c - the one copy of UTF-8 validation, encoding and decoding (the sequence length test
 * is inline in base.h for the JSON renderer's inner loop). */
#include "base.h"

bool hudi_utf8_valid(const uint8_t *p, size_t n) {
    size_t i = 0;
    while (i < n) {
        if (p[i] < 0x80) {
            i++;
            continue;
        }
        size_t len = hudi_utf8_seq_len(p + i, n - i);
        if (len == 0) return false;
        i += len;
    }
    return true;
}

size_t hudi_utf8_encode(uint32_t cp, uint8_t out[4]) {
    if (cp < 0x80) {
        out[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (uint8_t)(0xc0 | cp >> 6);
        out[1] = (uint8_t)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (uint8_t)(0xe0 | cp >> 12);
        out[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
        out[2] = (uint8_t)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (uint8_t)(0xf0 | cp >> 18);
    out[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3f));
    out[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
    out[3] = (uint8_t)(0x80 | (cp & 0x3f));
    return 4;
}

int32_t hudi_utf8_decode(const uint8_t *s, size_t n) {
    static const uint8_t lead_mask[5] = {0, 0x7f, 0x1f, 0x0f, 0x07};
    if (n < 1 || n > 4) return -1;
    int32_t cp = s[0] & lead_mask[n];
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) return -1;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    return cp;
}

void hudi_buf_put_utf8(hudi_buf *b, uint32_t cp) {
    uint8_t u[4];
    hudi_buf_append(b, u, hudi_utf8_encode(cp, u));
}

int32_t hudi_java_string_hash(const uint8_t *s, size_t n) {
    uint32_t h = 0;
    size_t i = 0;
    while (i < n) {
        uint32_t cp = s[i];
        size_t len = 1;
        if (cp >= 0x80) {
            len = hudi_utf8_seq_len(s + i, n - i);
            if (len == 0) {
                cp = 0xFFFD;
                len = 1;
            } else {
                cp = (uint32_t)hudi_utf8_decode(s + i, len);
            }
        }
        if (cp >= 0x10000) { /* a surrogate pair */
            cp -= 0x10000;
            h = 31 * h + (0xD800 + (cp >> 10));
            h = 31 * h + (0xDC00 + (cp & 0x3FF));
        } else {
            h = 31 * h + cp;
        }
        i += len;
    }
    return (int32_t)h;
}
