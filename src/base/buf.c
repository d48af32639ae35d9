/* buf.c - hudi_buf: owned growable bytes, always NUL-terminated, with a sticky failure
 * flag so a sequence of appends needs one check at the end. */
#include <stdio.h>

#include "base.h"

int hudi_buf_grow(hudi_buf *b, size_t extra) {
    if (b->failed) return HUDI_ENOMEM;
    size_t need;
    if (hudi_add_overflow(b->len, extra, &need) || hudi_add_overflow(need, 1, &need)) {
        b->failed = true;
        return HUDI_ENOMEM;
    }
    if (need <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) {
            cap = need;
            break;
        }
        cap *= 2;
    }
    char *p = hudi_realloc(b->data, cap);
    if (!p) {
        b->failed = true;
        return HUDI_ENOMEM;
    }
    b->data = p;
    b->cap = cap;
    return 0;
}

void hudi_buf_append(hudi_buf *b, const void *data, size_t len) {
    if (hudi_buf_grow(b, len) < 0) return;
    if (len) memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
}

void hudi_buf_puts(hudi_buf *b, const char *s) { hudi_buf_append(b, s, strlen(s)); }

void hudi_buf_putc(hudi_buf *b, char c) {
    if (hudi_buf_grow(b, 1) < 0) return;
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
}

void hudi_buf_printf(hudi_buf *b, const char *fmt, ...) {
    va_list ap;
    char small[256];
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = true;
        return;
    }
    if ((size_t)n < sizeof(small)) {
        hudi_buf_append(b, small, (size_t)n);
        return;
    }
    if (hudi_buf_grow(b, (size_t)n) < 0) return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void hudi_buf_clear(hudi_buf *b) {
    b->len = 0;
    if (b->data) b->data[0] = '\0';
}

void hudi_buf_truncate(hudi_buf *b, size_t len) {
    if (len < b->len) {
        b->len = len;
        b->data[len] = '\0';
    }
}

char *hudi_buf_detach(hudi_buf *b) {
    char *p = b->failed ? NULL : b->data;
    if (!p && !b->failed) p = hudi_strdup("");
    if (b->failed) hudi_free(b->data);
    *b = (hudi_buf)HUDI_BUF_INIT;
    return p;
}

void hudi_buf_dispose(hudi_buf *b) {
    hudi_free(b->data);
    *b = (hudi_buf)HUDI_BUF_INIT;
}
