/* jsonl.c - JSON Lines to columnar batches (value forms in jsonl.h, the inverse of
 * docs/formats/rendering.md). A schema-driven recursive descent over RFC 8259 JSON: each value
 * is converted straight into its column as it is read, so there is no document tree.
 *
 * Invariants: a row is appended whole or not at all (on error every column is truncated back to
 * the batch's row count); the parser never reads outside [text, text + len); nesting deeper than
 * MAX_DEPTH is an error, so the recursion is bounded whatever the input. jansson is not used here
 * because it keeps no number text (decimals and uint64 would round) and builds a tree per line. */
#include "format/json/jsonl.h"

#include <stdarg.h>
#include <stdio.h>

#include "columnar/value_parse.h"

#define MAX_DEPTH 64
#define DEFAULT_BATCH_ROWS 8192
#define DEFAULT_MAX_LINE (64ll << 20)
#define READ_CHUNK (1u << 20)

typedef struct path_elem {
    const char *name; /* field name, or NULL for an element */
    int64_t index;    /* list/map element index when name == NULL */
} path_elem;

typedef struct jp {
    const char *p, *end;
    const char *source;
    int64_t line;
    bool ignore_unknown;
    hudi_buf str;   /* unescaped string scratch */
    hudi_buf bytes; /* decoded binary scratch */
    path_elem path[MAX_DEPTH + 2];
    int depth;
    hudi_error *err;
} jp;

/* ---- errors ------------------------------------------------------------------------------- */

static int fail(jp *j, int code, const char *fmt, ...) HUDI_PRINTF(3, 4);
static int fail(jp *j, int code, const char *fmt, ...) {
    char msg[256], where[256];
    size_t w = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    where[0] = '\0';
    for (int i = 0; i < j->depth && w < sizeof(where); i++) {
        int n = j->path[i].name
                    ? snprintf(where + w, sizeof(where) - w, "%s%s", i ? "." : "", j->path[i].name)
                    : snprintf(where + w, sizeof(where) - w, "[%lld]", (long long)j->path[i].index);
        if (n < 0) break;
        w += (size_t)n;
    }
    if (code == HUDI_ENOMEM) return hudi_error_oom(j->err);
    return hudi_error_set(j->err, code, "%s%sline %lld: %s%s%s%s", j->source ? j->source : "",
                          j->source ? ": " : "", (long long)j->line, where[0] ? "field " : "",
                          where, where[0] ? ": " : "", msg);
}

static int bad(jp *j, const char *fmt, ...) HUDI_PRINTF(2, 3);
static int bad(jp *j, const char *fmt, ...) {
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return fail(j, HUDI_EINVAL, "%s", msg);
}

/* Passes a columnar error (ENOMEM, EINVAL from a builder) on with the line and field. */
static int pass(jp *j, int rc) {
    if (rc == HUDI_ENOMEM) return hudi_error_oom(j->err);
    return fail(j, rc, "%s", j->err ? j->err->message : hudi_error_name(rc));
}

/* A short, printable excerpt of s[0, n) for messages. */
static const char *excerpt(const char *s, size_t n, char *buf, size_t cap) {
    size_t k = 0;
    for (size_t i = 0; i < n && k + 4 < cap; i++)
        buf[k++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
    if (k < n) {
        buf[k++] = '.', buf[k++] = '.', buf[k++] = '.';
    }
    buf[k] = '\0';
    return buf;
}

/* ---- tokens ------------------------------------------------------------------------------- */

static void skip_ws(jp *j) {
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\r' || *j->p == '\n'))
        j->p++;
}

static bool literal(jp *j, const char *word) {
    size_t n = strlen(word);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n) != 0) return false;
    j->p += n;
    return true;
}

static const char *token_name(jp *j) {
    if (j->p >= j->end) return "the end of the line";
    switch (*j->p) {
    case '{': return "an object";
    case '[': return "an array";
    case '"': return "a string";
    case 't':
    case 'f': return "a boolean";
    case 'n': return "null";
    default: return (*j->p == '-' || (*j->p >= '0' && *j->p <= '9')) ? "a number" : "invalid JSON";
    }
}

static int hex4(const char *p, uint32_t *out) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0) return -1;
        v = v << 4 | (uint32_t)d;
    }
    *out = v;
    return 0;
}

/* A string token at j->p: *s, *n is the decoded text (borrowed from the line when it has no
 * escapes, else from j->str, valid until the next string). Lone surrogates become U+FFFD. */
static int string_token(jp *j, const char **s, size_t *n) {
    if (j->p >= j->end || *j->p != '"') return bad(j, "expected a string, found %s", token_name(j));
    const char *start = ++j->p;
    while (j->p < j->end && *j->p != '"' && *j->p != '\\' && (unsigned char)*j->p >= 0x20) j->p++;
    if (j->p < j->end && *j->p == '"') {
        *s = start;
        *n = (size_t)(j->p++ - start);
        return 0;
    }
    hudi_buf_clear(&j->str);
    hudi_buf_append(&j->str, start, (size_t)(j->p - start));
    while (j->p < j->end && *j->p != '"') {
        unsigned char c = (unsigned char)*j->p;
        if (c < 0x20) return bad(j, "control character 0x%02x in a string", c);
        if (c != '\\') {
            const char *run = j->p;
            while (j->p < j->end && *j->p != '"' && *j->p != '\\' && (unsigned char)*j->p >= 0x20)
                j->p++;
            hudi_buf_append(&j->str, run, (size_t)(j->p - run));
            continue;
        }
        if (j->end - j->p < 2) break;
        char e = j->p[1];
        j->p += 2;
        static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
        const char *k = e ? strchr(from, e) : NULL;
        if (k) {
            hudi_buf_putc(&j->str, to[k - from]);
            continue;
        }
        if (e != 'u') return bad(j, "bad escape \\%c in a string", e);
        uint32_t cp, lo;
        if (j->end - j->p < 4 || hex4(j->p, &cp) < 0) return bad(j, "bad \\u escape in a string");
        j->p += 4;
        if (cp >= 0xd800 && cp <= 0xdbff && j->end - j->p >= 6 && j->p[0] == '\\' &&
            j->p[1] == 'u' && hex4(j->p + 2, &lo) == 0 && lo >= 0xdc00 && lo <= 0xdfff) {
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            j->p += 6;
        } else if (cp >= 0xd800 && cp <= 0xdfff) {
            cp = 0xfffd;
        }
        hudi_buf_put_utf8(&j->str, cp);
    }
    if (j->p >= j->end) return bad(j, "unterminated string");
    j->p++;
    if (hudi_buf_failed(&j->str)) return fail(j, HUDI_ENOMEM, "out of memory");
    *s = j->str.data ? j->str.data : "";
    *n = j->str.len;
    return 0;
}

/* A number token's text (validated later by the value parsers). */
static void number_token(jp *j, const char **s, size_t *n) {
    const char *start = j->p;
    while (j->p < j->end && (strchr("+-.eE", *j->p) || (*j->p >= '0' && *j->p <= '9')) && *j->p)
        j->p++;
    *s = start;
    *n = (size_t)(j->p - start);
}

static int skip_value(jp *j, int depth) {
    skip_ws(j);
    if (depth > MAX_DEPTH) return bad(j, "nested deeper than %d levels", MAX_DEPTH);
    if (j->p >= j->end) return bad(j, "expected a value, found the end of the line");
    const char *s;
    size_t n;
    char c = *j->p;
    if (c == '"') return string_token(j, &s, &n);
    if (literal(j, "true") || literal(j, "false") || literal(j, "null")) return 0;
    if (c == '-' || (c >= '0' && c <= '9')) {
        number_token(j, &s, &n);
        return 0;
    }
    if (c != '{' && c != '[') return bad(j, "invalid JSON at '%c'", c);
    char close = c == '{' ? '}' : ']';
    j->p++;
    skip_ws(j);
    if (j->p < j->end && *j->p == close) return j->p++, 0;
    for (;;) {
        int rc;
        if (c == '{') {
            skip_ws(j);
            if ((rc = string_token(j, &s, &n)) < 0) return rc;
            skip_ws(j);
            if (j->p >= j->end || *j->p != ':') return bad(j, "expected ':' after an object key");
            j->p++;
        }
        if ((rc = skip_value(j, depth + 1)) < 0) return rc;
        skip_ws(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        if (j->p < j->end && *j->p == close) return j->p++, 0;
        return bad(j, "expected ',' or '%c'", close);
    }
}

/* ---- scalars ------------------------------------------------------------------------------- */

typedef enum { TOK_NUMBER, TOK_STRING } tok_kind;

static int parse_problem(jp *j, int why, const char *s, size_t n, const hudi_field *f,
                         const char *what) {
    char ex[64];
    excerpt(s, n, ex, sizeof(ex));
    if (why == HUDI_PARSE_PRECISION)
        return bad(j, "'%s' is more precise than %s", ex, hudi_type_name(f->type));
    if (why == HUDI_PARSE_RANGE)
        return bad(j, "'%s' is out of range for %s", ex, hudi_type_name(f->type));
    return bad(j, "'%s' is not %s", ex, what);
}

/* Appends the scalar token s[0, n) to `a`. */
static int put_scalar(jp *j, hudi_array *a, tok_kind kind, const char *s, size_t n) {
    const hudi_field *f = a->field;
    int rc;
    int64_t i64;
    switch (f->type) {
    case HUDI_TYPE_INT8:
    case HUDI_TYPE_INT16:
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_INT64:
    case HUDI_TYPE_UINT8:
    case HUDI_TYPE_UINT16:
    case HUDI_TYPE_UINT32:
    case HUDI_TYPE_UINT64:
        if ((rc = hudi_parse_int_for(f, s, n, &i64)) < 0)
            return parse_problem(j, rc, s, n, f, "an integer");
        rc = hudi_array_append_fixed(a, &i64, j->err); /* little-endian: the low bytes */
        break;
    case HUDI_TYPE_FLOAT16: {
        double d;
        if ((rc = hudi_parse_double(s, n, &d)) < 0)
            return parse_problem(j, rc, s, n, f, "a number");
        uint16_t h = hudi_float_to_half(d);
        rc = hudi_array_append_fixed(a, &h, j->err);
        break;
    }
    case HUDI_TYPE_FLOAT: {
        float x;
        if ((rc = hudi_parse_float32(s, n, &x)) < 0)
            return parse_problem(j, rc, s, n, f, "a number");
        rc = hudi_array_append_fixed(a, &x, j->err);
        break;
    }
    case HUDI_TYPE_DOUBLE: {
        double d;
        if ((rc = hudi_parse_double(s, n, &d)) < 0)
            return parse_problem(j, rc, s, n, f, "a number");
        rc = hudi_array_append_fixed(a, &d, j->err);
        break;
    }
    case HUDI_TYPE_DECIMAL: {
        __int128 v;
        if ((rc = hudi_parse_decimal(s, n, f->precision, f->scale, &v)) < 0)
            return parse_problem(j, rc, s, n, f, "a decimal");
        rc = hudi_array_append_fixed(a, &v, j->err);
        break;
    }
    case HUDI_TYPE_DATE:
        rc = kind == TOK_NUMBER ? hudi_parse_i64(s, n, &i64) : hudi_parse_date(s, n, &i64);
        if (rc == 0 && (i64 < INT32_MIN || i64 > INT32_MAX)) rc = HUDI_PARSE_RANGE;
        if (rc < 0) return parse_problem(j, rc, s, n, f, "a date (YYYY-MM-DD)");
        rc = hudi_array_append_fixed(a, &(int32_t){(int32_t)i64}, j->err);
        break;
    case HUDI_TYPE_TIME:
        rc = kind == TOK_NUMBER ? hudi_parse_i64(s, n, &i64) : hudi_parse_time(s, n, f->unit, &i64);
        if (rc == 0 && hudi_type_width(f) == 4 && (i64 < INT32_MIN || i64 > INT32_MAX))
            rc = HUDI_PARSE_RANGE;
        if (rc < 0) return parse_problem(j, rc, s, n, f, "a time (HH:MM:SS[.fff])");
        rc = hudi_array_append_fixed(a, &i64, j->err);
        break;
    case HUDI_TYPE_TIMESTAMP:
        rc = kind == TOK_NUMBER ? hudi_parse_i64(s, n, &i64)
                                : hudi_parse_timestamp(s, n, f->unit, &i64);
        if (rc < 0)
            return parse_problem(j, rc, s, n, f, "a timestamp (YYYY-MM-DDTHH:MM:SS[.f][Z])");
        rc = hudi_array_append_fixed(a, &i64, j->err);
        break;
    case HUDI_TYPE_STRING:
        if (kind != TOK_STRING) return bad(j, "expected a string, found a number");
        if (!hudi_utf8_valid((const uint8_t *)s, n)) return bad(j, "string is not valid UTF-8");
        rc = hudi_array_append_bytes(a, s, n, j->err);
        break;
    case HUDI_TYPE_BINARY:
    case HUDI_TYPE_FIXED_BINARY: {
        if (kind != TOK_STRING) return bad(j, "expected base64 text, found a number");
        hudi_buf_clear(&j->bytes);
        uint8_t uuid[16];
        if (f->type == HUDI_TYPE_FIXED_BINARY && f->hint == HUDI_HINT_UUID && n == 36) {
            if (hudi_parse_uuid(s, n, uuid) < 0) return parse_problem(j, -1, s, n, f, "a UUID");
            hudi_buf_append(&j->bytes, uuid, 16);
        } else if (hudi_parse_base64(s, n, &j->bytes) < 0) {
            return parse_problem(j, HUDI_PARSE_SYNTAX, s, n, f, "base64");
        }
        if (hudi_buf_failed(&j->bytes)) return fail(j, HUDI_ENOMEM, "out of memory");
        if (f->type == HUDI_TYPE_FIXED_BINARY && j->bytes.len != (size_t)f->byte_width)
            return bad(j, "%zu bytes, the field holds %d", j->bytes.len, f->byte_width);
        rc = hudi_array_append_bytes(a, j->bytes.data ? j->bytes.data : "", j->bytes.len, j->err);
        break;
    }
    default: return bad(j, "expected %s value, found a scalar", hudi_type_name(f->type));
    }
    return rc < 0 ? pass(j, rc) : 0;
}

/* ---- values -------------------------------------------------------------------------------- */

static int value(jp *j, hudi_array *a, int depth);

static int push(jp *j, const char *name, int64_t index) {
    if (j->depth >= MAX_DEPTH) return bad(j, "nested deeper than %d levels", MAX_DEPTH);
    j->path[j->depth++] = (path_elem){name, index};
    return 0;
}

static int32_t find_field(const hudi_field *st, int32_t hint, const char *s, size_t n) {
    for (int32_t k = 0; k < st->n_children; k++) {
        int32_t i = (hint + k) % st->n_children; /* keys usually come in schema order */
        const char *name = st->children[i].name ? st->children[i].name : "";
        if (strlen(name) == n && memcmp(name, s, n) == 0) return i;
    }
    return -1;
}

/* An object whose keys are the fields of `st`, one value appended to each kids[i]; absent keys
 * become nulls. `seen` has st->n_children entries. */
static int object_fields(jp *j, const hudi_field *st, hudi_array **kids, bool *seen, int depth) {
    int rc;
    int32_t hint = 0;
    j->p++; /* '{' */
    skip_ws(j);
    if (j->p < j->end && *j->p == '}') {
        j->p++;
    } else {
        for (;;) {
            const char *k;
            size_t kn;
            skip_ws(j);
            if ((rc = string_token(j, &k, &kn)) < 0) return rc;
            int32_t i = find_field(st, hint, k, kn);
            char ex[64];
            if (i < 0 && !j->ignore_unknown)
                return bad(j, "unknown field '%s'", excerpt(k, kn, ex, sizeof(ex)));
            if (i >= 0 && seen[i])
                return bad(j, "duplicate field '%s'", excerpt(k, kn, ex, sizeof(ex)));
            skip_ws(j);
            if (j->p >= j->end || *j->p != ':') return bad(j, "expected ':' after an object key");
            j->p++;
            if (i < 0) {
                if ((rc = skip_value(j, depth + 1)) < 0) return rc;
            } else {
                seen[i] = true;
                hint = i + 1;
                if ((rc = push(j, st->children[i].name, 0)) < 0) return rc;
                if ((rc = value(j, kids[i], depth + 1)) < 0) return rc;
                j->depth--;
            }
            skip_ws(j);
            if (j->p < j->end && *j->p == ',') {
                j->p++;
                continue;
            }
            if (j->p < j->end && *j->p == '}') {
                j->p++;
                break;
            }
            return bad(j, "expected ',' or '}' in an object");
        }
    }
    for (int32_t i = 0; i < st->n_children; i++) {
        if (seen[i]) continue;
        if (!st->children[i].nullable)
            return bad(j, "missing field '%s' (not nullable)", st->children[i].name);
        if ((rc = hudi_array_append_null(kids[i], j->err)) < 0) return pass(j, rc);
    }
    return 0;
}

static int struct_value(jp *j, hudi_array *a, int depth) {
    bool stack[64], *seen = stack;
    int32_t n = a->n_children;
    if (n > (int32_t)HUDI_ARRAY_LEN(stack) && !(seen = hudi_calloc((size_t)n, sizeof(bool))))
        return fail(j, HUDI_ENOMEM, "out of memory");
    if (seen == stack) memset(stack, 0, sizeof(stack));
    int rc = object_fields(j, a->field, a->children, seen, depth);
    if (seen != stack) hudi_free(seen);
    if (rc == 0 && (rc = hudi_array_append_nested(a, 0, j->err)) < 0) rc = pass(j, rc);
    return rc;
}

static int list_value(jp *j, hudi_array *a, int depth) {
    int rc;
    int64_t count = 0;
    j->p++; /* '[' */
    skip_ws(j);
    if (j->p < j->end && *j->p == ']') {
        j->p++;
    } else {
        for (;; count++) {
            if ((rc = push(j, NULL, count)) < 0) return rc;
            if ((rc = value(j, a->children[0], depth + 1)) < 0) return rc;
            j->depth--;
            skip_ws(j);
            if (j->p < j->end && *j->p == ',') {
                j->p++;
                continue;
            }
            if (j->p < j->end && *j->p == ']') {
                j->p++;
                count++;
                break;
            }
            return bad(j, "expected ',' or ']' in an array");
        }
    }
    return (rc = hudi_array_append_nested(a, count, j->err)) < 0 ? pass(j, rc) : 0;
}

/* A map as [{"key": k, "value": v}, ...] (the rendering) or as {"k": v, ...}. */
static int map_value(jp *j, hudi_array *a, int depth) {
    hudi_array *entries = a->children[0];
    hudi_array *key = entries->children[0], *val = entries->children[1];
    int rc;
    int64_t count = 0;
    char open = *j->p, close = open == '{' ? '}' : ']';
    j->p++;
    skip_ws(j);
    if (j->p < j->end && *j->p == close) {
        j->p++;
        return (rc = hudi_array_append_nested(a, 0, j->err)) < 0 ? pass(j, rc) : 0;
    }
    /* The rendering names the entry fields "key" and "value" whatever the schema calls them. */
    hudi_field names_kids[2] = {{.name = (char *)"key", .nullable = key->field->nullable},
                                {.name = (char *)"value", .nullable = val->field->nullable}};
    hudi_field names = {.name = (char *)"entries",
                        .type = HUDI_TYPE_STRUCT,
                        .n_children = 2,
                        .children = names_kids};
    for (;; count++) {
        if ((rc = push(j, NULL, count)) < 0) return rc;
        skip_ws(j);
        if (open == '[') {
            if (j->p >= j->end || *j->p != '{')
                return bad(j, "expected a {\"key\": ..., \"value\": ...} object, found %s",
                           token_name(j));
            hudi_array *kids[2] = {key, val};
            bool seen[2] = {false, false};
            if ((rc = object_fields(j, &names, kids, seen, depth + 1)) < 0) return rc;
        } else {
            const char *k;
            size_t kn;
            if ((rc = string_token(j, &k, &kn)) < 0) return rc;
            if ((rc = push(j, "key", 0)) < 0) return rc;
            hudi_type_id kt = key->field->type;
            bool numeric = kt != HUDI_TYPE_STRING && kt != HUDI_TYPE_BINARY &&
                           kt != HUDI_TYPE_FIXED_BINARY && kt != HUDI_TYPE_DATE &&
                           kt != HUDI_TYPE_TIME && kt != HUDI_TYPE_TIMESTAMP;
            if ((rc = put_scalar(j, key, numeric ? TOK_NUMBER : TOK_STRING, k, kn)) < 0) return rc;
            j->depth--;
            skip_ws(j);
            if (j->p >= j->end || *j->p != ':') return bad(j, "expected ':' after an object key");
            j->p++;
            if ((rc = push(j, "value", 0)) < 0) return rc;
            if ((rc = value(j, val, depth + 1)) < 0) return rc;
            j->depth--;
        }
        j->depth--;
        if (!hudi_array_is_valid(key, key->length - 1))
            return bad(j, "map key %lld is null", (long long)count);
        if ((rc = hudi_array_append_nested(entries, 0, j->err)) < 0) return pass(j, rc);
        skip_ws(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        if (j->p < j->end && *j->p == close) {
            j->p++;
            count++;
            break;
        }
        return bad(j, "expected ',' or '%c'", close);
    }
    return (rc = hudi_array_append_nested(a, count, j->err)) < 0 ? pass(j, rc) : 0;
}

static int value(jp *j, hudi_array *a, int depth) {
    const hudi_field *f = a->field;
    int rc;
    skip_ws(j);
    if (depth > MAX_DEPTH) return bad(j, "nested deeper than %d levels", MAX_DEPTH);
    if (j->p >= j->end) return bad(j, "expected a value, found the end of the line");
    char c = *j->p;
    if (literal(j, "null")) {
        if (!f->nullable) return bad(j, "null for a field that is not nullable");
        return (rc = hudi_array_append_null(a, j->err)) < 0 ? pass(j, rc) : 0;
    }
    if (f->type == HUDI_TYPE_NULL) return bad(j, "expected null, found %s", token_name(j));
    if (f->type == HUDI_TYPE_BOOL) {
        bool v;
        if (literal(j, "true"))
            v = true;
        else if (literal(j, "false"))
            v = false;
        else
            return bad(j, "expected true or false, found %s", token_name(j));
        return (rc = hudi_array_append_bool(a, v, j->err)) < 0 ? pass(j, rc) : 0;
    }
    if (f->type == HUDI_TYPE_STRUCT) {
        if (c != '{') return bad(j, "expected an object, found %s", token_name(j));
        return struct_value(j, a, depth);
    }
    if (f->type == HUDI_TYPE_LIST) {
        if (c != '[') return bad(j, "expected an array, found %s", token_name(j));
        return list_value(j, a, depth);
    }
    if (f->type == HUDI_TYPE_MAP) {
        if (c != '[' && c != '{')
            return bad(j, "expected an array or object, found %s", token_name(j));
        return map_value(j, a, depth);
    }
    const char *s;
    size_t n;
    if (c == '"') {
        if ((rc = string_token(j, &s, &n)) < 0) return rc;
        return put_scalar(j, a, TOK_STRING, s, n);
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        number_token(j, &s, &n);
        return put_scalar(j, a, TOK_NUMBER, s, n);
    }
    return bad(j, "expected a %s value, found %s", hudi_type_name(f->type), token_name(j));
}

/* ---- rows ---------------------------------------------------------------------------------- */

static int parse_row(jp *j, hudi_batch *b, const char *text, size_t len) {
    bool stack[64], *seen = stack;
    int rc;
    j->p = text;
    j->end = text + len;
    j->depth = 0;
    skip_ws(j);
    if (j->p >= j->end || *j->p != '{') {
        rc = bad(j, "expected a JSON object, found %s", token_name(j));
        goto done;
    }
    if (b->n_columns > (int32_t)HUDI_ARRAY_LEN(stack) &&
        !(seen = hudi_calloc((size_t)b->n_columns, sizeof(bool)))) {
        rc = fail(j, HUDI_ENOMEM, "out of memory");
        goto done;
    }
    if (seen == stack) memset(stack, 0, sizeof(stack));
    if ((rc = object_fields(j, b->schema, b->columns, seen, 0)) < 0) goto done;
    skip_ws(j);
    if (j->p < j->end) {
        char ex[32];
        rc = bad(j, "unexpected text after the object: '%s'",
                 excerpt(j->p, (size_t)(j->end - j->p), ex, sizeof(ex)));
        goto done;
    }
    b->num_rows++;
done:
    if (rc < 0)
        for (int32_t i = 0; i < b->n_columns; i++) hudi_array_truncate(b->columns[i], b->num_rows);
    if (seen != stack) hudi_free(seen);
    return rc;
}

int hudi_jsonl_parse_row(hudi_batch *batch, const char *text, size_t len, int64_t line_no,
                         const hudi_jsonl_options *opts, hudi_error *err) {
    jp j;
    memset(&j, 0, sizeof(j));
    j.line = line_no;
    j.err = err;
    j.ignore_unknown = opts && opts->ignore_unknown_fields;
    int rc = parse_row(&j, batch, text, len);
    hudi_buf_dispose(&j.str);
    hudi_buf_dispose(&j.bytes);
    return rc;
}

/* ---- the streaming reader ------------------------------------------------------------------ */

struct hudi_jsonl_reader {
    const hudi_field *schema;
    hudi_jsonl_read_fn read;
    void *payload;
    char *source;
    int64_t batch_rows, max_line;
    hudi_batch *batch;
    char *buf; /* bytes read, [start, len) not yet consumed */
    size_t cap, start, len;
    bool eof;
    jp j;
};

int hudi_jsonl_reader_new(hudi_jsonl_reader **out, const hudi_field *schema,
                          hudi_jsonl_read_fn read, void *payload, const char *source,
                          const hudi_jsonl_options *opts, hudi_error *err) {
    *out = NULL;
    if (schema->type != HUDI_TYPE_STRUCT)
        return hudi_error_set(err, HUDI_EINVAL, "JSON Lines schema must be a struct, not %s",
                              hudi_type_name(schema->type));
    hudi_jsonl_reader *r = hudi_calloc(1, sizeof(*r));
    if (!r) return hudi_error_oom(err);
    r->schema = schema;
    r->read = read;
    r->payload = payload;
    r->batch_rows = opts && opts->batch_rows > 0 ? opts->batch_rows : DEFAULT_BATCH_ROWS;
    r->max_line = opts && opts->max_line_bytes > 0 ? opts->max_line_bytes : DEFAULT_MAX_LINE;
    r->j.ignore_unknown = opts && opts->ignore_unknown_fields;
    int rc = 0;
    if ((source && !(r->source = hudi_strdup(source))) || !(r->buf = hudi_malloc(READ_CHUNK))) {
        rc = hudi_error_oom(err);
    } else {
        r->cap = READ_CHUNK;
        r->j.source = r->source;
        rc = hudi_batch_new(&r->batch, schema, err);
    }
    if (rc < 0) {
        hudi_jsonl_reader_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

/* Reads more bytes after moving the unconsumed ones to the front, growing the buffer when one
 * line fills it (up to the line limit). */
static int fill(hudi_jsonl_reader *r, hudi_error *err) {
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, r->len - r->start);
        r->len -= r->start;
        r->start = 0;
    }
    if (r->len == r->cap) {
        if ((int64_t)r->cap > r->max_line)
            return hudi_error_set(err, HUDI_EINVAL, "%s%sline %lld: longer than %lld bytes",
                                  r->source ? r->source : "", r->source ? ": " : "",
                                  (long long)r->j.line + 1, (long long)r->max_line);
        char *nb = hudi_realloc(r->buf, r->cap * 2);
        if (!nb) return hudi_error_oom(err);
        r->buf = nb;
        r->cap *= 2;
    }
    size_t got = 0;
    int rc = r->read(r->payload, r->buf + r->len, r->cap - r->len, &got, err);
    if (rc < 0) return rc;
    if (got == 0) r->eof = true;
    r->len += got;
    return 0;
}

static bool blank(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') return false;
    return true;
}

int hudi_jsonl_reader_next(hudi_jsonl_reader *r, hudi_batch **out, hudi_error *err) {
    int rc;
    *out = NULL;
    if (!r->batch && (rc = hudi_batch_new(&r->batch, r->schema, err)) < 0) return rc;
    hudi_batch_clear(r->batch);
    r->j.err = err;
    size_t scanned = r->start; /* where to resume looking for '\n' */
    while (r->batch->num_rows < r->batch_rows) {
        char *nl = memchr(r->buf + scanned, '\n', r->len - scanned);
        if (!nl && !r->eof) {
            size_t pending = r->len - r->start;
            if ((rc = fill(r, err)) < 0) return rc;
            scanned = r->start + pending;
            continue;
        }
        size_t end = nl ? (size_t)(nl - r->buf) : r->len;
        if (!nl && end == r->start) break; /* the end of the input */
        const char *line = r->buf + r->start;
        size_t n = end - r->start;
        r->start = scanned = nl ? end + 1 : end;
        r->j.line++;
        if (blank(line, n)) continue;
        if ((int64_t)n > r->max_line)
            return hudi_error_set(err, HUDI_EINVAL, "%s%sline %lld: longer than %lld bytes",
                                  r->source ? r->source : "", r->source ? ": " : "",
                                  (long long)r->j.line, (long long)r->max_line);
        if ((rc = parse_row(&r->j, r->batch, line, n)) < 0) return rc;
    }
    if (r->batch->num_rows > 0) *out = r->batch;
    return 0;
}

hudi_batch *hudi_jsonl_reader_take_batch(hudi_jsonl_reader *r) {
    hudi_batch *b = r->batch;
    r->batch = NULL;
    return b;
}

int64_t hudi_jsonl_reader_lines(const hudi_jsonl_reader *r) { return r->j.line; }

void hudi_jsonl_reader_free(hudi_jsonl_reader *r) {
    if (!r) return;
    hudi_batch_free(r->batch);
    hudi_buf_dispose(&r->j.str);
    hudi_buf_dispose(&r->j.bytes);
    hudi_free(r->buf);
    hudi_free(r->source);
    hudi_free(r);
}
