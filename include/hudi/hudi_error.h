/**
 * @file hudi_error.h
 * @brief Error codes and the caller-owned error record used by every hudic call.
 *
 * Every fallible function returns 0 on success or a negative HUDI_E* code, and takes
 * a `hudi_error *err` as its last argument. `err` may be NULL. Reporting an error
 * never allocates: the message lives in a fixed buffer inside the record.
 */
#ifndef HUDI_ERROR_H
#define HUDI_ERROR_H

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(HUDI_BUILDING) && defined(__GNUC__)
#define HUDI_API __attribute__((visibility("default")))
#else
#define HUDI_API
#endif

#if defined(__GNUC__)
#define HUDI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define HUDI_PRINTF(f, a)
#endif

/** Error codes. 0 is success; every error is negative. */
enum {
    HUDI_OK = 0,
    HUDI_ENOTFOUND = -1,    /**< a file, table, column or instant does not exist */
    HUDI_EEXISTS = -2,      /**< something to be created already exists */
    HUDI_ECONFLICT = -3,    /**< a concurrent change or a state conflict (a write that
                                 touched file groups a concurrent commit also touched: it was
                                 rolled back and may be retried) */
    HUDI_ECORRUPT = -4,     /**< bytes read from storage are malformed */
    HUDI_EUNSUPPORTED = -5, /**< a valid feature hudic does not implement */
    HUDI_EINVAL = -6,       /**< a bad argument or option from the caller */
    HUDI_EIO = -7,          /**< the storage layer failed */
    HUDI_ENOMEM = -8,       /**< an allocation failed or a limit was hit */
    HUDI_ESQL = -9,         /**< a SQL statement is malformed or cannot be bound */
    HUDI_ELOCKED = -10,     /**< another writer holds the table lock past the wait time;
                                 nothing was written, the call may be retried */
    HUDI_ECANCELED = -11,   /**< hudi_session_cancel stopped the statement; a write that was
                                 canceled is rolled back, nothing half-written remains */
};

#define HUDI_ERROR_MESSAGE_MAX 512

/** A caller-owned error record. Zero-initialise it (HUDI_ERROR_INIT). */
typedef struct hudi_error {
    int code;                             /**< last error code, 0 if none */
    char message[HUDI_ERROR_MESSAGE_MAX]; /**< one line, NUL-terminated */
} hudi_error;

#define HUDI_ERROR_INIT                                                                            \
    {                                                                                              \
        0, { 0 }                                                                                   \
    }

/** Records `code` and a printf-style one-line message in `err` (if not NULL).
 *  @return `code`, so callers can write `return hudi_error_set(err, ...)`. */
HUDI_API int hudi_error_set(hudi_error *err, int code, const char *fmt, ...) HUDI_PRINTF(3, 4);

/** va_list variant of hudi_error_set. */
HUDI_API int hudi_error_setv(hudi_error *err, int code, const char *fmt, va_list ap);

/** Prepends "prefix: " to the message already in `err`, keeping its code.
 *  Used to add context (a file name, a column) as an error travels up.
 *  @return `err->code`, or 0 when `err` is NULL: a caller that may be passed NULL returns
 *  its own code (`return hudi_error_wrap(err, ...), rc;`). */
HUDI_API int hudi_error_wrap(hudi_error *err, const char *fmt, ...) HUDI_PRINTF(2, 3);

/** Short name of an error code ("ECORRUPT"), never NULL. */
HUDI_API const char *hudi_error_name(int code);

/** Clears `err`. */
HUDI_API void hudi_error_clear(hudi_error *err);

#ifdef __cplusplus
}
#endif
#endif
