/**
 * @file hudi.h
 * @brief hudic public API: version and the umbrella include.
 */
#ifndef HUDI_H
#define HUDI_H

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

#ifdef __cplusplus
}
#endif
#endif
