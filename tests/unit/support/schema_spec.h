/* schema_spec.h - a compact notation for test schemas (header-only, for any test binary):
 *   "id int, name string?, s struct<x int?, y long>?, tags list<int?>?, m map<long?>?,
 *    d decimal(10,2), ts timestamp, b bytes"
 * `?` after a type = nullable; map<V> has string keys. Types: boolean int long float double
 * string bytes date timestamp (micros, UTC) decimal(p,s) fixed(n) int8 int16 struct<...>
 * list<T> map<V>. spec_record() parses a record, spec_describe*() print a field back in the
 * same notation (names of lists/maps' inner fields left out). */
#ifndef HUDI_TEST_SCHEMA_SPEC_H
#define HUDI_TEST_SCHEMA_SPEC_H

#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "columnar/columnar.h"
#include "schema/schema.h"

typedef struct spec_text {
    const char *p;
} spec_text;

static inline void spec_skip_ws(spec_text *s) {
    while (isspace((unsigned char)*s->p)) s->p++;
}

static inline void spec_parse_fields(spec_text *s, hudi_field *st, char close);

static inline void spec_parse_type(spec_text *s, hudi_field *f, const char *name) {
    spec_skip_ws(s);
    char word[32];
    size_t n = 0;
    while (isalnum((unsigned char)*s->p) && n + 1 < sizeof(word)) word[n++] = *s->p++;
    word[n] = 0;
    static const struct {
        const char *w;
        hudi_type_id t;
    } prims[] = {{"boolean", HUDI_TYPE_BOOL},        {"int", HUDI_TYPE_INT32},
                 {"long", HUDI_TYPE_INT64},          {"float", HUDI_TYPE_FLOAT},
                 {"double", HUDI_TYPE_DOUBLE},       {"string", HUDI_TYPE_STRING},
                 {"bytes", HUDI_TYPE_BINARY},        {"date", HUDI_TYPE_DATE},
                 {"timestamp", HUDI_TYPE_TIMESTAMP}, {"decimal", HUDI_TYPE_DECIMAL},
                 {"fixed", HUDI_TYPE_FIXED_BINARY},  {"int8", HUDI_TYPE_INT8},
                 {"int16", HUDI_TYPE_INT16},         {"struct", HUDI_TYPE_STRUCT},
                 {"list", HUDI_TYPE_LIST},           {"map", HUDI_TYPE_MAP}};
    hudi_type_id t = HUDI_TYPE_NULL;
    bool found = false;
    for (size_t i = 0; i < sizeof(prims) / sizeof(prims[0]); i++)
        if (strcmp(word, prims[i].w) == 0) {
            t = prims[i].t;
            found = true;
        }
    cr_assert(found, "unknown type '%s' in spec at '%s'", word, s->p);
    cr_assert_eq(hudi_field_init(f, name, t, false), 0);
    if (t == HUDI_TYPE_TIMESTAMP) f->utc = true;
    if (t == HUDI_TYPE_DECIMAL) {
        int used = 0;
        cr_assert_eq(sscanf(s->p, "(%d,%d)%n", &f->precision, &f->scale, &used), 2);
        s->p += used;
        f->byte_width = hudi_schema_decimal_bytes(f->precision);
    } else if (t == HUDI_TYPE_FIXED_BINARY) {
        int used = 0;
        cr_assert_eq(sscanf(s->p, "(%d)%n", &f->byte_width, &used), 1);
        s->p += used;
    } else if (t == HUDI_TYPE_STRUCT) {
        cr_assert_eq(*s->p++, '<');
        spec_parse_fields(s, f, '>');
    } else if (t == HUDI_TYPE_LIST) {
        cr_assert_eq(*s->p++, '<');
        cr_assert_eq(hudi_field_set_children(f, 1), 0);
        spec_parse_type(s, &f->children[0], "element");
        spec_skip_ws(s);
        cr_assert_eq(*s->p++, '>');
    } else if (t == HUDI_TYPE_MAP) {
        cr_assert_eq(*s->p++, '<');
        cr_assert_eq(hudi_field_set_children(f, 1), 0);
        hudi_field *kv = &f->children[0];
        cr_assert_eq(hudi_field_init(kv, "key_value", HUDI_TYPE_STRUCT, false), 0);
        cr_assert_eq(hudi_field_set_children(kv, 2), 0);
        cr_assert_eq(hudi_field_init(&kv->children[0], "key", HUDI_TYPE_STRING, false), 0);
        spec_parse_type(s, &kv->children[1], "value");
        spec_skip_ws(s);
        cr_assert_eq(*s->p++, '>');
    }
    if (*s->p == '?') {
        f->nullable = true;
        s->p++;
    }
}

static inline void spec_parse_fields(spec_text *s, hudi_field *st, char close) {
    hudi_field kids[32];
    int32_t n = 0;
    for (;;) {
        spec_skip_ws(s);
        if (*s->p == close || (!close && !*s->p)) break;
        char name[64];
        size_t k = 0;
        while ((isalnum((unsigned char)*s->p) || *s->p == '_') && k + 1 < sizeof(name))
            name[k++] = *s->p++;
        name[k] = 0;
        cr_assert(k > 0 && n < 32, "bad spec at '%s'", s->p);
        spec_parse_type(s, &kids[n++], name);
        spec_skip_ws(s);
        if (*s->p == ',') s->p++;
    }
    if (close) s->p++;
    cr_assert_eq(hudi_field_set_children(st, n), 0);
    memcpy(st->children, kids, (size_t)n * sizeof(hudi_field));
}

/* A record named `name` (a full name: its last part starts Hudi's paths). */
static inline hudi_field spec_record(const char *name, const char *text) {
    hudi_field f;
    spec_text s = {text};
    cr_assert_eq(hudi_field_init(&f, name, HUDI_TYPE_STRUCT, false), 0);
    spec_parse_fields(&s, &f, 0);
    return f;
}

static inline void spec_describe(hudi_buf *b, const hudi_field *f);

static inline void spec_describe_fields(hudi_buf *b, const hudi_field *st) {
    for (int32_t i = 0; i < st->n_children; i++) {
        hudi_buf_printf(b, "%s%s ", i ? ", " : "", st->children[i].name);
        spec_describe(b, &st->children[i]);
    }
}

static inline void spec_describe(hudi_buf *b, const hudi_field *f) {
    switch (f->type) {
    case HUDI_TYPE_BOOL: hudi_buf_puts(b, "boolean"); break;
    case HUDI_TYPE_INT32: hudi_buf_puts(b, "int"); break;
    case HUDI_TYPE_INT64: hudi_buf_puts(b, "long"); break;
    case HUDI_TYPE_FLOAT: hudi_buf_puts(b, "float"); break;
    case HUDI_TYPE_DOUBLE: hudi_buf_puts(b, "double"); break;
    case HUDI_TYPE_STRING: hudi_buf_puts(b, "string"); break;
    case HUDI_TYPE_BINARY: hudi_buf_puts(b, "bytes"); break;
    case HUDI_TYPE_DATE: hudi_buf_puts(b, "date"); break;
    case HUDI_TYPE_TIMESTAMP: hudi_buf_puts(b, "timestamp"); break;
    case HUDI_TYPE_DECIMAL: hudi_buf_printf(b, "decimal(%d,%d)", f->precision, f->scale); break;
    case HUDI_TYPE_FIXED_BINARY: hudi_buf_printf(b, "fixed(%d)", f->byte_width); break;
    case HUDI_TYPE_STRUCT:
        hudi_buf_puts(b, "struct<");
        spec_describe_fields(b, f);
        hudi_buf_puts(b, ">");
        break;
    case HUDI_TYPE_LIST:
        hudi_buf_puts(b, "list<");
        spec_describe(b, &f->children[0]);
        hudi_buf_puts(b, ">");
        break;
    case HUDI_TYPE_MAP:
        hudi_buf_puts(b, "map<");
        spec_describe(b, &f->children[0].children[1]);
        hudi_buf_puts(b, ">");
        break;
    default: hudi_buf_puts(b, hudi_type_name(f->type)); break;
    }
    if (f->nullable) hudi_buf_puts(b, "?");
}

#endif
