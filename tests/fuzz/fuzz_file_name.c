/* fuzz_file_name.c - base and log file name parsers (table/file_name.c) over arbitrary
 * bytes. A parsed name's parts must lie inside it, and a base/log name formatted from parsed
 * parts must parse back to the same parts. */
#include <stdlib.h>
#include <string.h>

#include "table/table.h"

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        if (!(x)) abort();                                                                         \
    } while (0)

static bool inside(hudi_slice s, const char *name, size_t n) {
    return s.len == 0 || ((const char *)s.data >= name && (const char *)s.data + s.len <= name + n);
}

static char *dup_slice(hudi_slice s) {
    char *p = malloc(s.len + 1);
    if (!p) abort();
    if (s.len) memcpy(p, s.data, s.len);
    p[s.len] = 0;
    return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *name = malloc(size + 1);
    if (!name) return 0;
    memcpy(name, data, size);
    name[size] = 0;
    size_t n = strlen(name);
    hudi_base_file_name b;
    if (hudi_base_file_name_parse(&b, name)) {
        CHECK(inside(b.file_id, name, n) && inside(b.instant, name, n) && inside(b.ext, name, n));
        char *id = dup_slice(b.file_id), *tok = dup_slice(b.write_token);
        char *inst = dup_slice(b.instant), *ext = dup_slice(b.ext);
        hudi_buf out = HUDI_BUF_INIT;
        CHECK(hudi_base_file_name_format(&out, id, tok, inst, ext, NULL) == 0);
        CHECK(strcmp(out.data, name) == 0);
        hudi_buf_dispose(&out);
        free(id), free(tok), free(inst), free(ext);
    }
    hudi_log_file_name l;
    if (hudi_log_file_name_parse(&l, name)) {
        CHECK(inside(l.file_id, name, n) && inside(l.instant, name, n) &&
              inside(l.write_token, name, n));
        CHECK(l.file_id.len > 0);
        CHECK(hudi_log_file_name_cmp(&l, &l) == 0);
    }
    free(name);
    return 0;
}
