/**
 * @file hudi.h
 * @brief hudic public API: version and the umbrella include.
 */
#ifndef HUDI_H
#define HUDI_H

#include <stddef.h>

#include "hudi_error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HUDI_VERSION_MAJOR 0
#define HUDI_VERSION_MINOR 1
#define HUDI_VERSION_PATCH 0
#define HUDI_VERSION_STRING "0.1.0"
#define HUDI_VERSION_NUMBER                                                                        \
    (HUDI_VERSION_MAJOR * 10000 + HUDI_VERSION_MINOR * 100 + HUDI_VERSION_PATCH)

/** The library's version number, HUDI_VERSION_NUMBER of the build. */
HUDI_API int hudi_version_number(void);
/** The library's version string, e.g. "0.1.0". */
HUDI_API const char *hudi_version_string(void);

/** Memory allocation hooks: every allocation hudic makes, including those of the libraries it
 *  parses JSON and Avro schemas with (jansson, libavro), goes through them. `realloc_fn` gets
 *  NULL like realloc(3); `payload` is passed back to each hook. */
typedef struct hudi_allocator {
    void *(*malloc_fn)(size_t size, void *payload);
    void *(*realloc_fn)(void *ptr, size_t size, void *payload);
    void (*free_fn)(void *ptr, void *payload);
    void *payload;
} hudi_allocator;

/** Installs allocation hooks for the whole process (copied; NULL restores the C library's
 *  malloc, and the allocators jansson and libavro had before). Must be called before any other
 *  hudic call, and before any other thread uses hudic: memory allocated under one allocator is
 *  freed with the one installed when it is released. jansson and libavro each have a single
 *  process-wide allocator, so a program that also uses them directly gets these hooks there too
 *  (hudic changes them only when this function is called). */
HUDI_API void hudi_set_allocator(const hudi_allocator *a);

#ifdef __cplusplus
}
#endif
#endif
