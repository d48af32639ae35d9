/* predicate.c - "COL OP CONSTANT" text to a typed predicate (grammar in predicate.h). The
 * constant is converted with columnar/value_parse.h and must be exact in the column's type:
 * a float constant is rounded to the column's float width because the reader compares values
 * of that width, everything else that would round is an error. */
#include "read/predicate.h"

#include <ctype.h>
#include <strings.h>

#include "columnar/value_parse.h"

static const char *skip_space(const char *s) {
    while (*s && isspace((unsigned char)*s)) s++;
    return s;
}

/* Case-insensitive keyword at s followed by a space or the end. */
static bool keyword(const char **s, const char *kw) {
    size_t n = strlen(kw);
    if (strncasecmp(*s, kw, n) != 0) return false;
    if ((*s)[n] && !isspace((unsigned char)(*s)[n])) return false;
    *s = skip_space(*s + n);
    return true;
}

static int parse_column(const char **s, hudi_buf *name, hudi_error *err) {
    const char *p = *s;
    if (*p == '"' || *p == '`') {
        char q = *p++;
        for (;;) {
            if (!*p) return hudi_error_set(err, HUDI_EINVAL, "unterminated %c in column name", q);
            if (*p == q) {
                if (p[1] != q) break;
                p++; /* doubled quote = one quote */
            }
            hudi_buf_putc(name, *p++);
        }
        p++;
    } else {
        while (*p && !isspace((unsigned char)*p) && !strchr("=!<>", *p)) hudi_buf_putc(name, *p++);
    }
    if (hudi_buf_failed(name)) return hudi_error_oom(err);
    if (name->len == 0) return hudi_error_set(err, HUDI_EINVAL, "missing column name");
    *s = skip_space(p);
    return 0;
}

static int parse_op(const char **s, hudi_cmp_op *op, hudi_error *err) {
    static const struct {
        const char *text;
        hudi_cmp_op op;
    } ops[] = {{"==", HUDI_CMP_EQ}, {"!=", HUDI_CMP_NE}, {"<>", HUDI_CMP_NE}, {"<=", HUDI_CMP_LE},
               {">=", HUDI_CMP_GE}, {"=", HUDI_CMP_EQ},  {"<", HUDI_CMP_LT},  {">", HUDI_CMP_GT}};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(ops); i++) {
        size_t n = strlen(ops[i].text);
        if (strncmp(*s, ops[i].text, n) == 0) {
            *op = ops[i].op;
            *s = skip_space(*s + n);
            return 0;
        }
    }
    const char *p = *s;
    if (keyword(&p, "IS")) {
        bool not = keyword(&p, "NOT");
        if (keyword(&p, "NULL")) {
            *op = not ? HUDI_CMP_IS_NOT_NULL : HUDI_CMP_IS_NULL;
            *s = p;
            return 0;
        }
    }
    return hudi_error_set(err, HUDI_EINVAL,
                          "expected an operator (= != < <= > >= IS NULL IS NOT NULL) at '%s'", *s);
}

/* The constant's text: the inside of '...' (quoted = true) or the bare rest of the input. */
static int parse_constant(const char *s, hudi_buf *text, bool *quoted, bool *hex, hudi_error *err) {
    *quoted = *hex = false;
    if ((s[0] == 'x' || s[0] == 'X') && s[1] == '\'') {
        *hex = true;
        s++;
    }
    if (*s == '\'') {
        *quoted = true;
        const char *p = s + 1;
        for (;;) {
            if (!*p) return hudi_error_set(err, HUDI_EINVAL, "unterminated quoted constant");
            if (*p == '\'') {
                if (p[1] != '\'') break;
                p++;
            }
            hudi_buf_putc(text, *p++);
        }
        if (*skip_space(p + 1))
            return hudi_error_set(err, HUDI_EINVAL, "unexpected text after the constant: '%s'",
                                  skip_space(p + 1));
        return 0;
    }
    if (*hex) return hudi_error_set(err, HUDI_EINVAL, "x'...' needs quotes");
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1])) n--;
    if (n == 0) return hudi_error_set(err, HUDI_EINVAL, "missing constant after the operator");
    hudi_buf_append(text, s, n);
    return 0;
}

static int bad_value(hudi_error *err, int why, const char *text, const hudi_field *f,
                     const char *expected) {
    if (why == HUDI_PARSE_PRECISION)
        return hudi_error_set(err, HUDI_EINVAL, "'%s' is more precise than column '%s' (%s)", text,
                              f->name, hudi_type_name(f->type));
    if (why == HUDI_PARSE_RANGE)
        return hudi_error_set(err, HUDI_EINVAL, "'%s' is out of range for column '%s' (%s)", text,
                              f->name, hudi_type_name(f->type));
    return hudi_error_set(err, HUDI_EINVAL, "'%s' is not %s", text, expected);
}

static int parse_bytes(hudi_value *v, hudi_buf *bytes, const char *text, bool hex,
                       const hudi_field *f, hudi_error *err) {
    size_t n = strlen(text);
    hudi_buf_clear(bytes);
    bool uuid = f->type == HUDI_TYPE_FIXED_BINARY && f->hint == HUDI_HINT_UUID && n == 36;
    if (hex || uuid) {
        if (hudi_parse_hex(text, n, bytes) < 0)
            return hudi_error_set(err, HUDI_EINVAL, "'%s' is not hex", text);
    } else {
        hudi_buf_append(bytes, text, n);
    }
    if (hudi_buf_failed(bytes)) return hudi_error_oom(err);
    if (f->type == HUDI_TYPE_FIXED_BINARY && bytes->len != (size_t)f->byte_width)
        return hudi_error_set(err, HUDI_EINVAL,
                              "the constant has %zu bytes, column '%s' holds %d-byte values",
                              bytes->len, f->name, f->byte_width);
    v->bytes = HUDI_SLICE(bytes->data ? bytes->data : "", bytes->len);
    return 0;
}

int hudi_value_parse(hudi_value *v, hudi_buf *bytes, const char *text, bool quoted, bool hex,
                     const hudi_field *f, hudi_error *err) {
    size_t n = strlen(text);
    int rc;
    memset(v, 0, sizeof(*v));
    if (!quoted && strcasecmp(text, "null") == 0)
        return hudi_error_set(err, HUDI_EINVAL,
                              "comparing with NULL is never true; use IS NULL or IS NOT NULL");
    if (hex && f->type != HUDI_TYPE_BINARY && f->type != HUDI_TYPE_FIXED_BINARY)
        return hudi_error_set(err, HUDI_EINVAL, "x'...' constants need a binary column, '%s' is %s",
                              f->name, hudi_type_name(f->type));
    switch (f->type) {
    case HUDI_TYPE_BOOL:
        if (strcasecmp(text, "true") == 0 || strcmp(text, "1") == 0)
            v->i64 = 1;
        else if (strcasecmp(text, "false") == 0 || strcmp(text, "0") == 0)
            v->i64 = 0;
        else
            return bad_value(err, HUDI_PARSE_SYNTAX, text, f, "a boolean (true or false)");
        return 0;
    case HUDI_TYPE_INT8:
    case HUDI_TYPE_INT16:
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_INT64:
    case HUDI_TYPE_UINT8:
    case HUDI_TYPE_UINT16:
    case HUDI_TYPE_UINT32:
    case HUDI_TYPE_UINT64:
        if (hudi_parse_int_for(f, text, n, &v->i64) < 0)
            return hudi_error_set(err, HUDI_EINVAL, "'%s' is not a valid %s value", text,
                                  hudi_type_name(f->type));
        return 0;
    case HUDI_TYPE_FLOAT16:
    case HUDI_TYPE_FLOAT:
    case HUDI_TYPE_DOUBLE:
        if ((rc = hudi_parse_double(text, n, &v->f64)) < 0)
            return bad_value(err, rc, text, f, "a number");
        /* the reader compares values of the column's width: `f = 1.1` means the float nearest */
        if (f->type == HUDI_TYPE_FLOAT)
            v->f64 = (double)(float)v->f64;
        else if (f->type == HUDI_TYPE_FLOAT16)
            v->f64 = hudi_round_to_half(v->f64);
        return 0;
    case HUDI_TYPE_DECIMAL:
        /* precision 0: a constant wider than the column is still a valid bound */
        if ((rc = hudi_parse_decimal(text, n, 0, f->scale, &v->dec)) < 0) {
            if (rc == HUDI_PARSE_PRECISION)
                return hudi_error_set(err, HUDI_EINVAL, "'%s' has more than %d decimal places",
                                      text, f->scale);
            return hudi_error_set(err, HUDI_EINVAL, "'%s' is not a decimal(%d, %d) value", text,
                                  f->precision, f->scale);
        }
        return 0;
    case HUDI_TYPE_DATE:
        if (hudi_parse_i64(text, n, &v->i64) == 0) return 0; /* days since the epoch */
        if ((rc = hudi_parse_date(text, n, &v->i64)) < 0)
            return bad_value(err, rc, text, f, "a date (YYYY-MM-DD)");
        return 0;
    case HUDI_TYPE_TIME:
        if (hudi_parse_i64(text, n, &v->i64) == 0) return 0; /* raw, in the column's unit */
        if ((rc = hudi_parse_time(text, n, f->unit, &v->i64)) < 0)
            return bad_value(err, rc, text, f, "a time (HH:MM:SS[.fff])");
        return 0;
    case HUDI_TYPE_TIMESTAMP:
        if (hudi_parse_i64(text, n, &v->i64) == 0) return 0; /* raw, in the column's unit */
        if ((rc = hudi_parse_timestamp(text, n, f->unit, &v->i64)) < 0)
            return bad_value(err, rc, text, f, "a timestamp (YYYY-MM-DD HH:MM:SS[.ffffff])");
        return 0;
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY:
    case HUDI_TYPE_FIXED_BINARY: return parse_bytes(v, bytes, text, hex, f, err);
    default:
        return hudi_error_set(err, HUDI_EINVAL,
                              "column '%s' (%s) cannot be compared with a constant", f->name,
                              hudi_type_name(f->type));
    }
}

int hudi_predicate_parse(hudi_predicate *out, const char *text, const hudi_field *schema,
                         hudi_error *err) {
    hudi_buf name = HUDI_BUF_INIT, constant = HUDI_BUF_INIT;
    const char *p = skip_space(text);
    bool quoted, hex;
    int rc;
    out->column = -1;
    memset(&out->value, 0, sizeof(out->value));
    if ((rc = parse_column(&p, &name, err)) < 0) goto done;
    if ((rc = parse_op(&p, &out->op, err)) < 0) goto done;
    const hudi_field *f = NULL;
    for (int32_t i = 0; i < schema->n_children && !f; i++)
        if (schema->children[i].name && strcmp(schema->children[i].name, name.data) == 0) {
            f = &schema->children[i];
            out->column = i;
        }
    if (!f) {
        rc = hudi_error_set(err, HUDI_EINVAL, "unknown column '%s'", name.data);
        goto done;
    }
    if (out->op == HUDI_CMP_IS_NULL || out->op == HUDI_CMP_IS_NOT_NULL) {
        out->value.is_null = true;
        if (*p) rc = hudi_error_set(err, HUDI_EINVAL, "unexpected text after IS NULL: '%s'", p);
        goto done;
    }
    if (hudi_type_is_nested(f->type) || f->type == HUDI_TYPE_NULL) {
        rc = hudi_error_set(err, HUDI_EINVAL, "column '%s' is not a primitive column (%s)", f->name,
                            hudi_type_name(f->type));
        goto done;
    }
    if ((rc = parse_constant(p, &constant, &quoted, &hex, err)) < 0) goto done;
    if (hudi_buf_failed(&constant)) {
        rc = hudi_error_oom(err);
        goto done;
    }
    rc = hudi_value_parse(&out->value, &out->bytes, constant.data ? constant.data : "", quoted, hex,
                          f, err);
done:
    hudi_buf_dispose(&name);
    hudi_buf_dispose(&constant);
    return rc;
}

void hudi_predicate_dispose(hudi_predicate *p) {
    if (p) hudi_buf_dispose(&p->bytes);
}
