/* support.h - helpers shared by the unit tests: fixture paths and temp directories. */
#ifndef HUDI_TEST_SUPPORT_H
#define HUDI_TEST_SUPPORT_H

#include <stddef.h>

#include "hudi/hudi.h"

/* Returns a static path "<test data>/<rel>" (tests/data/<rel> unless HUDI_TEST_DATA_DIR was
 * set at configure time; valid until the next call). */
const char *fixture_path(const char *rel);
/* Creates a fresh temporary directory (under $TMPDIR) and returns its path (static). */
const char *test_tmpdir(void);
/* Unzips the fixture zip "<test data>/<zip_rel_path>" into a fresh test_tmpdir() (with
 * `unzip -q`) and returns the path of the table inside: the zip's single top-level folder
 * (__MACOSX ignored), or the extraction directory itself when there is not exactly one.
 * The path is static (valid until the next call); NULL on failure. */
const char *fixture_unzip(const char *zip_rel_path);
/* Reads a whole file into a malloc'ed buffer; returns NULL on failure. */
unsigned char *test_read_file(const char *path, size_t *len);

/* Allocation-failure injection: the state of an allocator over malloc whose `fail_at`-th call
 * (malloc and realloc counted together from 1; 0 = never) returns NULL; `count` counts the calls.
 * Install it with hudi_set_allocator(&a) where a = test_failing_allocator(&state). */
typedef struct test_alloc_faults {
    int fail_at, count;
} test_alloc_faults;
hudi_allocator test_failing_allocator(test_alloc_faults *state);

#endif
