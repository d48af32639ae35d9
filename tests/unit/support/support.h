/* support.h - helpers shared by the unit tests: fixture paths and temp directories. */
#ifndef HUDI_TEST_SUPPORT_H
#define HUDI_TEST_SUPPORT_H

#include <stddef.h>

/* Returns a static path "<shared>/fixtures/<rel>" (valid until the next call). */
const char *fixture_path(const char *rel);
/* Creates a fresh temporary directory (under $TMPDIR) and returns its path (static). */
const char *test_tmpdir(void);
/* Reads a whole file into a malloc'ed buffer; returns NULL on failure. */
unsigned char *test_read_file(const char *path, size_t *len);

#endif
