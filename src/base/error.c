/* error.c - the caller-owned error record. Never allocates: messages are formatted into
 * the record's fixed buffer and truncated when too long. */
#include <stdio.h>

#include "base.h"

int hudi_error_setv(hudi_error *err, int code, const char *fmt, va_list ap) {
    if (err) {
        err->code = code;
        vsnprintf(err->message, sizeof(err->message), fmt, ap);
    }
    return code;
}

int hudi_error_set(hudi_error *err, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    hudi_error_setv(err, code, fmt, ap);
    va_end(ap);
    return code;
}

int hudi_error_wrap(hudi_error *err, const char *fmt, ...) {
    if (!err) return 0;
    char prefix[HUDI_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(prefix, sizeof(prefix) - 2, fmt, ap);
    va_end(ap);
    if (n < 0) return err->code;
    size_t plen = strlen(prefix);
    memcpy(prefix + plen, ": ", 3);
    plen += 2;
    /* Shift the old message right by the prefix, truncating at the end of the buffer. */
    size_t old_len = strlen(err->message);
    size_t keep = HUDI_MIN(old_len, sizeof(err->message) - 1 - plen);
    memmove(err->message + plen, err->message, keep);
    memcpy(err->message, prefix, plen);
    err->message[plen + keep] = '\0';
    return err->code;
}

const char *hudi_error_name(int code) {
    switch (code) {
    case HUDI_OK: return "OK";
    case HUDI_ENOTFOUND: return "ENOTFOUND";
    case HUDI_EEXISTS: return "EEXISTS";
    case HUDI_ECONFLICT: return "ECONFLICT";
    case HUDI_ECORRUPT: return "ECORRUPT";
    case HUDI_EUNSUPPORTED: return "EUNSUPPORTED";
    case HUDI_EINVAL: return "EINVAL";
    case HUDI_EIO: return "EIO";
    case HUDI_ENOMEM: return "ENOMEM";
    case HUDI_ESQL: return "ESQL";
    case HUDI_ELOCKED: return "ELOCKED";
    case HUDI_ECANCELED: return "ECANCELED";
    default: return "EUNKNOWN";
    }
}

void hudi_error_clear(hudi_error *err) {
    if (err) {
        err->code = 0;
        err->message[0] = '\0';
    }
}

int hudi_error_oom(hudi_error *err) { return hudi_error_set(err, HUDI_ENOMEM, "out of memory"); }

int hudi_version_number(void) { return HUDI_VERSION_NUMBER; }
const char *hudi_version(void) { return HUDI_VERSION; }
const char *hudi_version_string(void) { return HUDI_VERSION; }
