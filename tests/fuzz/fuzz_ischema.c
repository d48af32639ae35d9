/* fuzz_ischema.c - InternalSchema JSON and .hoodie/.schema history JSON -> model -> JSON.
 * Whatever parses must write, parse again and write the same text again (the written form is
 * canonical); every id found must be found again by its path, and reading a schema's own files
 * by id must keep every name. */
#include <stdlib.h>
#include <string.h>

#include "schema/internal_schema.h"

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        if (!(x)) abort();                                                                         \
    } while (0)

static void same_names(const hudi_field *a, const hudi_field *b) {
    CHECK(a->n_children == b->n_children);
    for (int32_t i = 0; i < a->n_children; i++) {
        CHECK(strcmp(a->children[i].name, b->children[i].name) == 0);
        same_names(&a->children[i], &b->children[i]);
    }
}

/* Names that make paths unambiguous: non-empty, without dots, unique among siblings. */
static int plain_names(const hudi_field *f) {
    for (int32_t i = 0; i < f->n_children; i++) {
        const char *n = f->children[i].name;
        if (!*n || strchr(n, '.')) return 0;
        for (int32_t k = 0; k < i; k++)
            if (!strcmp(n, f->children[k].name)) return 0;
        if (!plain_names(&f->children[i])) return 0;
    }
    return 1;
}

static void check_schema(const hudi_ischema *s) {
    hudi_buf a = HUDI_BUF_INIT, b = HUDI_BUF_INIT;
    hudi_ischema t;
    CHECK(hudi_ischema_write(&a, s, NULL) == 0);
    CHECK(hudi_ischema_parse(&t, a.data ? a.data : "", a.len, NULL) == 0);
    CHECK(hudi_ischema_write(&b, &t, NULL) == 0);
    CHECK(a.len == b.len && (a.len == 0 || memcmp(a.data, b.data, a.len) == 0));
    hudi_ischema_dispose(&t);
    /* the path of an id leads back to it */
    int plain = plain_names(&s->root);
    for (int32_t id = 0; id <= 64 && plain; id++) {
        hudi_buf p = HUDI_BUF_INIT;
        const hudi_field *f = hudi_ischema_find_id(s, id, &p);
        if (f) {
            int32_t back = -1;
            CHECK(p.data && hudi_ischema_find_path(s, p.data, &back) == f && back == id);
        }
        hudi_buf_dispose(&p);
    }
    hudi_field names;
    if (hudi_ischema_file_names(&names, s, s, NULL) == 0) {
        same_names(&names, &s->root);
        hudi_field_dispose(&names);
    }
    hudi_buf_dispose(&a);
    hudi_buf_dispose(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    hudi_ischema s;
    if (hudi_ischema_parse(&s, (const char *)data, size, NULL) == 0) {
        check_schema(&s);
        hudi_ischema_dispose(&s);
    }
    hudi_ischema_history h;
    if (hudi_ischema_history_parse(&h, (const char *)data, size, NULL) == 0) {
        hudi_buf a = HUDI_BUF_INIT, b = HUDI_BUF_INIT;
        hudi_ischema_history g;
        CHECK(hudi_ischema_history_write(&a, &h, NULL) == 0);
        CHECK(hudi_ischema_history_parse(&g, a.data, a.len, NULL) == 0);
        CHECK(g.count == h.count);
        CHECK(hudi_ischema_history_write(&b, &g, NULL) == 0);
        CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
        for (size_t i = 0; i < h.count; i++) {
            CHECK(i == 0 || h.items[i - 1].version_id > h.items[i].version_id);
            CHECK(hudi_ischema_history_search(&h, h.items[i].version_id) == &h.items[i]);
            check_schema(&h.items[i]);
        }
        hudi_ischema_history_dispose(&g);
        hudi_ischema_history_dispose(&h);
        hudi_buf_dispose(&a);
        hudi_buf_dispose(&b);
    }
    return 0;
}
