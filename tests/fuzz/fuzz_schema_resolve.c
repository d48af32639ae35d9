/* fuzz_schema_resolve.c - two Avro schema JSON texts (split at the first NUL or newline) run
 * through schema resolution: the writer-schema deduction (several option sets), projections of
 * one onto the other by name and by column id, and the InternalSchema reconcile. Errors are
 * fine; crashes and leaks are not. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "schema/evolve.h"
#include "schema/internal_schema.h"
#include "schema/project.h"
#include "schema/schema.h"

static void project(const hudi_field *file, const hudi_field *query, const hudi_field *names) {
    for (int lenient = 0; lenient < 2; lenient++) {
        hudi_projection *p = NULL;
        if (hudi_projection_new(&p, file, query, names, lenient != 0, "f", NULL) == 0) {
            for (int32_t i = 0; i < query->n_children; i++) (void)hudi_projection_source(p, i);
        }
        hudi_projection_free(p);
    }
}

static void by_id(const hudi_field *a, const hudi_field *b) {
    hudi_ischema qa = {0}, fb = {0}, rec = {0};
    if (hudi_ischema_from_field(&qa, a, 1, NULL) == 0 &&
        hudi_ischema_from_field(&fb, b, 2, NULL) == 0) {
        hudi_field names = {0};
        if (hudi_ischema_file_names(&names, &qa, &fb, NULL) == 0) project(b, a, &names);
        hudi_field_dispose(&names);
        bool changed = false;
        if (hudi_ischema_reconcile(&rec, &changed, &qa, b, 3, NULL) == 0) {
            hudi_buf j = HUDI_BUF_INIT;
            (void)hudi_ischema_write(&j, &rec, NULL);
            hudi_buf_dispose(&j);
        }
    }
    hudi_ischema_dispose(&rec);
    hudi_ischema_dispose(&qa);
    hudi_ischema_dispose(&fb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    size_t cut = 0;
    while (cut < size && data[cut] != 0 && data[cut] != '\n') cut++;
    if (cut >= size) return 0;
    hudi_field a = {0}, b = {0};
    if (hudi_schema_parse_avro(&a, text, cut, NULL) != 0) return 0;
    if (hudi_schema_parse_avro(&b, text + cut + 1, size - cut - 1, NULL) != 0) {
        hudi_field_dispose(&a);
        return 0;
    }
    if (a.type == HUDI_TYPE_STRUCT && b.type == HUDI_TYPE_STRUCT) {
        for (int o = 0; o < 16; o++) {
            hudi_evolve_options eo = {0};
            eo.set_null_for_missing = o & 1;
            eo.allow_column_drop = o & 2;
            eo.reconcile = o & 4;
            eo.partial = o & 8;
            hudi_field w = {0};
            (void)hudi_schema_deduce_writer(&w, &a, &b, &eo, "t", NULL);
            hudi_field_dispose(&w);
            if (o == 0) { /* a table without a schema yet */
                (void)hudi_schema_deduce_writer(&w, NULL, &b, &eo, "t", NULL);
                hudi_field_dispose(&w);
            }
        }
        project(&a, &b, NULL);
        project(&b, &a, NULL);
        by_id(&a, &b);
        by_id(&b, &a);
    }
    hudi_field_dispose(&a);
    hudi_field_dispose(&b);
    return 0;
}
