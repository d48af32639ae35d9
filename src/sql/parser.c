/* parser.c - recursive descent over the lexer's tokens: token helpers, names, data types,
 * expressions (precedence climbing) and queries. Statements are in parse_stmt.c.
 *
 * Invariant: the first error wins. Every helper checks p->failed before doing anything, and
 * a failing helper returns NULL/false, so an error is reported once at its real position. */
#include <stdio.h>

#include "sql/parser_int.h"

/* ---- tokens --------------------------------------------------------------------------- */

static hudi_sql_token eof_token(const P *p) {
    hudi_sql_token t;
    memset(&t, 0, sizeof(t));
    t.kind = HUDI_SQL_TK_EOF;
    t.pos = (hudi_sql_pos){p->lx.line, p->lx.col, (uint32_t)p->lx.off};
    return t;
}

hudi_sql_token *hudi_sql_peek(P *p, int k) {
    if (k >= (int)HUDI_ARRAY_LEN(p->tok)) k = (int)HUDI_ARRAY_LEN(p->tok) - 1;
    while (p->ntok <= k) {
        hudi_sql_token *t = &p->tok[p->ntok];
        if (p->lex_failed) {
            *t = eof_token(p);
        } else {
            hudi_error e = HUDI_ERROR_INIT;
            hudi_sql_pos pos;
            int rc = hudi_sql_lex(&p->lx, t, &pos, &e);
            if (rc < 0) {
                p->lex_failed = true;
                if (!p->failed) {
                    p->failed = true;
                    p->rc = rc;
                    p->error_pos = pos;
                    if (rc == HUDI_ESQL)
                        hudi_error_set(p->err, rc, "line %u, column %u: %s", pos.line, pos.col,
                                       e.message);
                    else
                        hudi_error_set(p->err, rc, "%s", e.message);
                }
                *t = eof_token(p);
                t->lex_error = true;
            }
        }
        p->ntok++;
    }
    return &p->tok[k];
}

void hudi_sql_advance(P *p) {
    hudi_sql_peek(p, 0);
    p->last_end = p->tok[0].end;
    memmove(&p->tok[0], &p->tok[1], sizeof(p->tok[0]) * (size_t)(p->ntok - 1));
    p->ntok--;
}

bool hudi_sql_failed(const P *p) { return p->failed; }

/* "'SELECT'", "end of input": how an error names the token it stopped at. */
static void describe(const P *p, const hudi_sql_token *t, char *out, size_t cap) {
    if (t->kind == HUDI_SQL_TK_EOF) {
        snprintf(out, cap, "end of input");
        return;
    }
    const char *s = p->lx.src + t->pos.offset;
    size_t n = t->src_len;
    const char *nl = memchr(s, '\n', n);
    if (nl) n = (size_t)(nl - s);
    if (n > 40)
        snprintf(out, cap, "'%.*s...'", 37, s);
    else
        snprintf(out, cap, "'%.*s'", (int)n, s);
}

void *hudi_sql_fail(P *p, const hudi_sql_token *t, const char *fmt, ...) {
    if (p->failed) return NULL;
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    /* "expected ..., found end of input" points just past the last token, not at the end of
     * whatever blank lines follow it */
    hudi_sql_pos pos = t->kind == HUDI_SQL_TK_EOF && p->last_end.line ? p->last_end : t->pos;
    p->failed = true;
    p->rc = HUDI_ESQL;
    p->error_pos = pos;
    hudi_error_set(p->err, HUDI_ESQL, "line %u, column %u: %s", pos.line, pos.col, msg);
    return NULL;
}

void *hudi_sql_expected(P *p, const char *what) {
    hudi_sql_token *t = hudi_sql_peek(p, 0);
    char d[64];
    describe(p, t, d, sizeof(d));
    return hudi_sql_fail(p, t, "expected %s, found %s", what, d);
}

void *hudi_sql_oom(P *p) {
    if (!p->failed) {
        p->failed = true;
        p->rc = HUDI_ENOMEM;
        p->error_pos = hudi_sql_peek(p, 0)->pos;
        hudi_error_oom(p->err);
    }
    return NULL;
}

void *hudi_sql_new(P *p, size_t size) {
    if (p->failed) return NULL;
    void *n = hudi_arena_alloc(p->arena, size);
    if (!n) return hudi_sql_oom(p);
    return n;
}

bool hudi_sql_push(P *p, hudi_sql_list *l, void *item) {
    if (p->failed || !item) return false;
    if (l->len == l->cap) {
        uint32_t cap = l->cap ? l->cap * 2 : 4;
        void **items = hudi_arena_alloc(p->arena, sizeof(void *) * cap);
        if (!items) return hudi_sql_oom(p) != NULL;
        if (l->len) memcpy(items, l->items, sizeof(void *) * l->len);
        l->items = items;
        l->cap = cap;
    }
    l->items[l->len++] = item;
    return true;
}

bool hudi_sql_is_kw(const hudi_sql_token *t, const char *kw) {
    return t->kind == HUDI_SQL_TK_WORD && t->text_len == strlen(kw) &&
           strncasecmp(t->text, kw, t->text_len) == 0;
}

bool hudi_sql_at_kw(P *p, int k, const char *kw) { return hudi_sql_is_kw(hudi_sql_peek(p, k), kw); }

bool hudi_sql_accept_kw(P *p, const char *kw) {
    if (p->failed || !hudi_sql_at_kw(p, 0, kw)) return false;
    hudi_sql_advance(p);
    return true;
}

bool hudi_sql_expect_kw(P *p, const char *kw) {
    if (hudi_sql_accept_kw(p, kw)) return true;
    return hudi_sql_expected(p, kw) != NULL;
}

bool hudi_sql_at_op(P *p, int k, const char *op) {
    hudi_sql_token *t = hudi_sql_peek(p, k);
    return t->kind == HUDI_SQL_TK_OP && strcmp(t->text, op) == 0;
}

bool hudi_sql_accept_op(P *p, const char *op) {
    if (p->failed || !hudi_sql_at_op(p, 0, op)) return false;
    hudi_sql_advance(p);
    return true;
}

bool hudi_sql_expect_op(P *p, const char *op) {
    if (hudi_sql_accept_op(p, op)) return true;
    char what[16];
    snprintf(what, sizeof(what), "'%s'", op);
    return hudi_sql_expected(p, what) != NULL;
}

bool hudi_sql_at_ident(P *p, int k) {
    hudi_sql_token *t = hudi_sql_peek(p, k);
    return t->kind == HUDI_SQL_TK_WORD || t->kind == HUDI_SQL_TK_QIDENT;
}

const char *hudi_sql_ident(P *p) {
    if (p->failed) return NULL;
    hudi_sql_token *t = hudi_sql_peek(p, 0);
    if (t->kind == HUDI_SQL_TK_QIDENT) {
        const char *s = t->text;
        hudi_sql_advance(p);
        return s;
    }
    if (t->kind != HUDI_SQL_TK_WORD) return hudi_sql_expected(p, "a name");
    char *s = hudi_arena_strndup(p->arena, t->text, t->text_len);
    if (!s) return hudi_sql_oom(p);
    hudi_sql_advance(p);
    return s;
}

bool hudi_sql_qname(P *p, hudi_sql_name *out) {
    memset(out, 0, sizeof(*out));
    out->pos = hudi_sql_peek(p, 0)->pos;
    do {
        if (!hudi_sql_push(p, &out->parts, (void *)hudi_sql_ident(p))) return false;
    } while (hudi_sql_at_op(p, 0, ".") && hudi_sql_at_ident(p, 1) && hudi_sql_accept_op(p, "."));
    return true;
}

bool hudi_sql_ident_list(P *p, hudi_sql_list *out) {
    if (!hudi_sql_expect_op(p, "(")) return false;
    do {
        if (!hudi_sql_push(p, out, (void *)hudi_sql_ident(p))) return false;
    } while (hudi_sql_accept_op(p, ","));
    return hudi_sql_expect_op(p, ")");
}

const char *hudi_sql_string(P *p, size_t *len) {
    if (p->failed) return NULL;
    if (hudi_sql_peek(p, 0)->kind != HUDI_SQL_TK_STRING) return hudi_sql_expected(p, "a string");
    hudi_sql_token *t = hudi_sql_peek(p, 0);
    if (hudi_sql_peek(p, 1)->kind != HUDI_SQL_TK_STRING) {
        const char *s = t->text;
        if (len) *len = t->text_len;
        hudi_sql_advance(p);
        return s;
    }
    hudi_buf b = HUDI_BUF_INIT;
    while (!p->failed && hudi_sql_peek(p, 0)->kind == HUDI_SQL_TK_STRING) {
        t = hudi_sql_peek(p, 0);
        hudi_buf_append(&b, t->text, t->text_len);
        hudi_sql_advance(p);
    }
    char *s = b.failed ? NULL : hudi_arena_strndup(p->arena, b.data ? b.data : "", b.len);
    if (len) *len = b.len;
    hudi_buf_dispose(&b);
    if (!s) return hudi_sql_oom(p);
    return s;
}

bool hudi_sql_at_query_start(P *p, int k) {
    return hudi_sql_at_kw(p, k, "SELECT") || hudi_sql_at_kw(p, k, "WITH") ||
           hudi_sql_at_kw(p, k, "VALUES") ||
           (hudi_sql_at_kw(p, k, "TABLE") && hudi_sql_at_ident(p, k + 1)) ||
           (hudi_sql_at_op(p, k, "(") && k < 2 && hudi_sql_at_query_start(p, k + 1));
}

bool hudi_sql_enter(P *p) {
    if (p->failed) return false;
    if (++p->depth > PARSE_MAX_DEPTH) {
        hudi_sql_fail(p, hudi_sql_peek(p, 0), "statement nested too deeply");
        return false;
    }
    return true;
}

void hudi_sql_leave(P *p) { p->depth--; }

/* ---- types ---------------------------------------------------------------------------- */

/* ARRAY<ARRAY<INT>> lexes its end as ">>": take one '>' off the token. */
static bool close_angle(P *p) {
    if (p->failed) return false;
    hudi_sql_token *t = hudi_sql_peek(p, 0);
    if (t->kind == HUDI_SQL_TK_OP && t->text[0] == '>' && t->text_len > 1) {
        t->text++;
        t->text_len--;
        t->pos.col++;
        t->pos.offset++;
        t->src_len--;
        return true;
    }
    return hudi_sql_expect_op(p, ">");
}

static int type_param(P *p) {
    hudi_sql_token *t = hudi_sql_peek(p, 0);
    if (t->kind != HUDI_SQL_TK_NUMBER || t->lit != HUDI_SQL_L_INT || t->text_len > 6) {
        hudi_sql_expected(p, "a number");
        return -1;
    }
    int v = 0;
    for (size_t i = 0; i < t->text_len; i++) v = v * 10 + (t->text[i] - '0');
    hudi_sql_advance(p);
    return v;
}

/* (p[, s]) after DECIMAL, CHAR, VARCHAR, TIMESTAMP. */
static void type_params(P *p, hudi_sql_type *ty, bool two) {
    if (!hudi_sql_accept_op(p, "(")) return;
    ty->precision = type_param(p);
    if (two && hudi_sql_accept_op(p, ",")) ty->scale = type_param(p);
    hudi_sql_expect_op(p, ")");
}

static hudi_sql_coldef *struct_field(P *p) {
    hudi_sql_coldef *f = hudi_sql_new(p, sizeof(*f));
    if (!f) return NULL;
    f->pos = hudi_sql_peek(p, 0)->pos;
    if (!hudi_sql_push(p, &f->name.parts, (void *)hudi_sql_ident(p))) return NULL;
    hudi_sql_accept_op(p, ":");
    if (!(f->type = hudi_sql_parse_type(p))) return NULL;
    for (;;) {
        if (hudi_sql_at_kw(p, 0, "NOT") && hudi_sql_at_kw(p, 1, "NULL")) {
            hudi_sql_advance(p);
            hudi_sql_advance(p);
            f->not_null = true;
        } else if (hudi_sql_accept_kw(p, "COMMENT")) {
            if (!(f->comment = hudi_sql_string(p, NULL))) return NULL;
        } else {
            break;
        }
    }
    return p->failed ? NULL : f;
}

static const struct {
    const char *name;
    hudi_sql_type_kind kind;
} TYPE_NAMES[] = {
    {"BOOLEAN", HUDI_SQL_T_BOOLEAN},
    {"BOOL", HUDI_SQL_T_BOOLEAN},
    {"TINYINT", HUDI_SQL_T_TINYINT},
    {"BYTE", HUDI_SQL_T_TINYINT},
    {"SMALLINT", HUDI_SQL_T_SMALLINT},
    {"SHORT", HUDI_SQL_T_SMALLINT},
    {"INT", HUDI_SQL_T_INT},
    {"INTEGER", HUDI_SQL_T_INT},
    {"BIGINT", HUDI_SQL_T_BIGINT},
    {"LONG", HUDI_SQL_T_BIGINT},
    {"FLOAT", HUDI_SQL_T_FLOAT},
    {"REAL", HUDI_SQL_T_FLOAT},
    {"DOUBLE", HUDI_SQL_T_DOUBLE},
    {"DECIMAL", HUDI_SQL_T_DECIMAL},
    {"DEC", HUDI_SQL_T_DECIMAL},
    {"NUMERIC", HUDI_SQL_T_DECIMAL},
    {"STRING", HUDI_SQL_T_STRING},
    {"CHAR", HUDI_SQL_T_CHAR},
    {"CHARACTER", HUDI_SQL_T_CHAR},
    {"VARCHAR", HUDI_SQL_T_VARCHAR},
    {"BINARY", HUDI_SQL_T_BINARY},
    {"BYTES", HUDI_SQL_T_BINARY},
    {"VARBINARY", HUDI_SQL_T_BINARY},
    {"DATE", HUDI_SQL_T_DATE},
    {"TIMESTAMP", HUDI_SQL_T_TIMESTAMP},
    {"TIMESTAMP_NTZ", HUDI_SQL_T_TIMESTAMP_NTZ},
    {"TIMESTAMP_LTZ", HUDI_SQL_T_TIMESTAMP_LTZ},
    {"INTERVAL", HUDI_SQL_T_INTERVAL},
    {"VOID", HUDI_SQL_T_VOID},
    {"ARRAY", HUDI_SQL_T_ARRAY},
    {"MAP", HUDI_SQL_T_MAP},
    {"STRUCT", HUDI_SQL_T_STRUCT},
    {"ROW", HUDI_SQL_T_STRUCT},
};

static const char *const INTERVAL_UNITS[] = {
    "YEAR", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND"};

/* The unit at token k (YEAR, years, ...) in lower case and singular, or NULL. */
static const char *interval_unit(P *p, int k) {
    hudi_sql_token *t = hudi_sql_peek(p, k);
    if (t->kind != HUDI_SQL_TK_WORD) return NULL;
    for (size_t i = 0; i < HUDI_ARRAY_LEN(INTERVAL_UNITS); i++) {
        size_t n = strlen(INTERVAL_UNITS[i]);
        if ((t->text_len == n || (t->text_len == n + 1 && (t->text[n] | 0x20) == 's')) &&
            strncasecmp(t->text, INTERVAL_UNITS[i], n) == 0) {
            static const char *const lower[] = {"year",   "month",       "week",
                                                "day",    "hour",        "minute",
                                                "second", "millisecond", "microsecond"};
            return lower[i];
        }
    }
    return NULL;
}

hudi_sql_type *hudi_sql_parse_type(P *p) {
    if (!hudi_sql_enter(p)) return NULL;
    hudi_sql_type *ty = NULL;
    hudi_sql_token *t = hudi_sql_peek(p, 0);
    size_t i = 0;
    if (t->kind == HUDI_SQL_TK_WORD)
        for (; i < HUDI_ARRAY_LEN(TYPE_NAMES); i++)
            if (hudi_sql_is_kw(t, TYPE_NAMES[i].name)) break;
    if (t->kind != HUDI_SQL_TK_WORD || i == HUDI_ARRAY_LEN(TYPE_NAMES)) {
        if (t->kind == HUDI_SQL_TK_WORD || t->kind == HUDI_SQL_TK_QIDENT)
            hudi_sql_fail(p, t, "unknown data type '%.*s'", (int)HUDI_MIN(t->text_len, 60),
                          t->text);
        else
            hudi_sql_expected(p, "a data type");
        goto done;
    }
    if (!(ty = hudi_sql_new(p, sizeof(*ty)))) goto done;
    ty->kind = TYPE_NAMES[i].kind;
    ty->pos = t->pos;
    ty->precision = ty->scale = -1;
    ty->spelling = hudi_arena_strndup(p->arena, t->text, t->text_len);
    if (!ty->spelling) {
        ty = hudi_sql_oom(p);
        goto done;
    }
    hudi_sql_advance(p);
    switch (ty->kind) {
    case HUDI_SQL_T_DOUBLE: hudi_sql_accept_kw(p, "PRECISION"); break;
    case HUDI_SQL_T_DECIMAL: type_params(p, ty, true); break;
    case HUDI_SQL_T_CHAR:
    case HUDI_SQL_T_VARCHAR:
    case HUDI_SQL_T_BINARY:
    case HUDI_SQL_T_TIMESTAMP_LTZ: type_params(p, ty, false); break;
    case HUDI_SQL_T_TIMESTAMP:
        type_params(p, ty, false);
        if (hudi_sql_at_kw(p, 0, "WITH") && hudi_sql_at_kw(p, 1, "LOCAL")) {
            /* Flink: TIMESTAMP(3) WITH LOCAL TIME ZONE */
            hudi_sql_advance(p);
            hudi_sql_advance(p);
            hudi_sql_expect_kw(p, "TIME");
            hudi_sql_expect_kw(p, "ZONE");
            ty->kind = HUDI_SQL_T_TIMESTAMP_LTZ;
        }
        break;
    case HUDI_SQL_T_INTERVAL:
        if (interval_unit(p, 0)) {
            hudi_sql_advance(p);
            if (hudi_sql_accept_kw(p, "TO")) {
                if (!interval_unit(p, 0))
                    hudi_sql_expected(p, "an interval unit");
                else
                    hudi_sql_advance(p);
            }
        }
        break;
    case HUDI_SQL_T_ARRAY:
        if (!hudi_sql_expect_op(p, "<")) break;
        if (!(ty->elem = hudi_sql_parse_type(p))) break;
        close_angle(p);
        break;
    case HUDI_SQL_T_MAP:
        if (!hudi_sql_expect_op(p, "<")) break;
        if (!(ty->elem = hudi_sql_parse_type(p))) break;
        if (!hudi_sql_expect_op(p, ",")) break;
        if (!(ty->value = hudi_sql_parse_type(p))) break;
        close_angle(p);
        break;
    case HUDI_SQL_T_STRUCT: {
        if (hudi_sql_accept_op(p, "<>")) break;  /* STRUCT<> */
        bool paren = hudi_sql_accept_op(p, "("); /* Flink ROW(a INT) */
        if (!paren && !hudi_sql_expect_op(p, "<")) break;
        if (!(paren ? hudi_sql_at_op(p, 0, ")") : hudi_sql_at_op(p, 0, ">"))) {
            do {
                if (!hudi_sql_push(p, &ty->fields, struct_field(p))) break;
            } while (hudi_sql_accept_op(p, ","));
        }
        if (paren)
            hudi_sql_expect_op(p, ")");
        else
            close_angle(p);
        break;
    }
    default: break;
    }
done:
    hudi_sql_leave(p);
    return p->failed ? NULL : ty;
}

/* ---- expressions ---------------------------------------------------------------------- */

static hudi_sql_expr *new_expr(P *p, hudi_sql_expr_kind kind, hudi_sql_pos pos) {
    hudi_sql_expr *e = hudi_sql_new(p, sizeof(*e));
    if (e) {
        e->kind = kind;
        e->pos = pos;
    }
    return e;
}

static hudi_sql_expr *binary(P *p, hudi_sql_op op, hudi_sql_expr *l, hudi_sql_expr *r) {
    if (!l || !r) return NULL;
    hudi_sql_expr *e = new_expr(p, HUDI_SQL_E_BINARY, l->pos);
    if (e) {
        e->op = op;
        e->left = l;
        e->right = r;
    }
    return e;
}

/* A number token as a literal; `neg` puts a '-' in front (Spark's literals carry the sign). */
static hudi_sql_expr *number_literal(P *p, bool neg, hudi_sql_pos pos) {
    hudi_sql_token *t = hudi_sql_peek(p, 0);
    hudi_sql_expr *e = new_expr(p, HUDI_SQL_E_LITERAL, pos);
    if (!e) return NULL;
    e->lit = t->lit;
    char *s = hudi_arena_alloc(p->arena, t->text_len + 2);
    if (!s) return hudi_sql_oom(p);
    size_t n = 0;
    if (neg) s[n++] = '-';
    memcpy(s + n, t->text, t->text_len);
    s[n + t->text_len] = 0;
    e->text = s;
    e->text_len = n + t->text_len;
    hudi_sql_advance(p);
    return e;
}

static hudi_sql_expr *string_literal(P *p, hudi_sql_lit_kind lit, hudi_sql_pos pos) {
    hudi_sql_expr *e = new_expr(p, HUDI_SQL_E_LITERAL, pos);
    if (!e) return NULL;
    e->lit = lit;
    if (!(e->text = hudi_sql_string(p, &e->text_len))) return NULL;
    return e;
}

static hudi_sql_expr *interval_literal(P *p, hudi_sql_pos pos) {
    hudi_sql_expr *e = new_expr(p, HUDI_SQL_E_LITERAL, pos);
    if (!e) return NULL;
    e->lit = HUDI_SQL_L_INTERVAL;
    for (;;) {
        int k = hudi_sql_at_op(p, 0, "-") ? 1 : 0;
        hudi_sql_token *v = hudi_sql_peek(p, k);
        if (v->kind != HUDI_SQL_TK_STRING && v->kind != HUDI_SQL_TK_NUMBER) break;
        if (e->interval.len > 0 && !interval_unit(p, k + 1)) break;
        hudi_sql_interval_part *part = hudi_sql_new(p, sizeof(*part));
        if (!part) return NULL;
        part->quoted = v->kind == HUDI_SQL_TK_STRING;
        if (part->quoted) {
            if (k) return hudi_sql_fail(p, v, "expected a number after '-'");
            part->value = hudi_sql_string(p, NULL);
        } else {
            if (k) hudi_sql_advance(p); /* the '-' */
            hudi_sql_expr *num = number_literal(p, k, pos);
            part->value = num ? num->text : NULL;
        }
        if (!part->value) return NULL;
        part->unit = interval_unit(p, 0);
        if (part->unit) {
            hudi_sql_advance(p);
            if (hudi_sql_accept_kw(p, "TO")) {
                if (!(part->to_unit = interval_unit(p, 0)))
                    return hudi_sql_expected(p, "an interval unit");
                hudi_sql_advance(p);
            }
        } else if (!part->quoted) {
            return hudi_sql_expected(p, "an interval unit");
        }
        if (!hudi_sql_push(p, &e->interval, part)) return NULL;
        if (!part->unit) break;
    }
    if (e->interval.len == 0) return hudi_sql_expected(p, "an interval value");
    return p->failed ? NULL : e;
}

static hudi_sql_window *window(P *p);

static bool order_items(P *p, hudi_sql_list *out) {
    do {
        hudi_sql_order_item *o = hudi_sql_new(p, sizeof(*o));
        if (!o || !(o->expr = hudi_sql_parse_expr(p))) return false;
        if (hudi_sql_accept_kw(p, "DESC"))
            o->desc = true;
        else
            hudi_sql_accept_kw(p, "ASC");
        if (hudi_sql_accept_kw(p, "NULLS")) {
            if (hudi_sql_accept_kw(p, "FIRST"))
                o->nulls = 1;
            else if (hudi_sql_expect_kw(p, "LAST"))
                o->nulls = 2;
        }
        if (!hudi_sql_push(p, out, o)) return false;
    } while (hudi_sql_accept_op(p, ","));
    return !p->failed;
}

static hudi_sql_window *window(P *p) {
    hudi_sql_window *w = hudi_sql_new(p, sizeof(*w));
    if (!w || !hudi_sql_expect_op(p, "(")) return NULL;
    if (hudi_sql_accept_kw(p, "PARTITION")) {
        if (!hudi_sql_expect_kw(p, "BY")) return NULL;
        do {
            if (!hudi_sql_push(p, &w->partition_by, hudi_sql_parse_expr(p))) return NULL;
        } while (hudi_sql_accept_op(p, ","));
    }
    if (hudi_sql_accept_kw(p, "ORDER")) {
        if (!hudi_sql_expect_kw(p, "BY") || !order_items(p, &w->order_by)) return NULL;
    }
    if (hudi_sql_at_kw(p, 0, "ROWS") || hudi_sql_at_kw(p, 0, "RANGE"))
        return hudi_sql_fail(p, hudi_sql_peek(p, 0), "window frames are not supported yet");
    if (!hudi_sql_expect_op(p, ")")) return NULL;
    return w;
}

static hudi_sql_expr *function_call(P *p, hudi_sql_expr *e) {
    e->kind = HUDI_SQL_E_FUNC;
    hudi_sql_advance(p); /* ( */
    if (hudi_sql_accept_kw(p, "DISTINCT"))
        e->distinct = true;
    else if (hudi_sql_at_kw(p, 0, "ALL") && !hudi_sql_at_op(p, 1, ")"))
        hudi_sql_advance(p);
    if (hudi_sql_at_op(p, 0, "*") && hudi_sql_at_op(p, 1, ")")) {
        hudi_sql_expr *star = new_expr(p, HUDI_SQL_E_STAR, hudi_sql_peek(p, 0)->pos);
        hudi_sql_advance(p);
        if (!hudi_sql_push(p, &e->args, star)) return NULL;
    } else if (!hudi_sql_at_op(p, 0, ")")) {
        do {
            hudi_sql_expr *a = hudi_sql_parse_expr(p);
            if (a && hudi_sql_accept_kw(p, "AS")) { /* struct(1 AS a) */
                hudi_sql_expr *al = new_expr(p, HUDI_SQL_E_ALIAS, a->pos);
                if (!al) return NULL;
                al->left = a;
                if (!(al->field = hudi_sql_ident(p))) return NULL;
                a = al;
            }
            if (!hudi_sql_push(p, &e->args, a)) return NULL;
        } while (hudi_sql_accept_op(p, ","));
    }
    if (!hudi_sql_expect_op(p, ")")) return NULL;
    if (hudi_sql_at_kw(p, 0, "FILTER") && hudi_sql_at_op(p, 1, "(")) {
        hudi_sql_advance(p);
        hudi_sql_advance(p);
        if (!hudi_sql_expect_kw(p, "WHERE") || !(e->filter = hudi_sql_parse_expr(p)) ||
            !hudi_sql_expect_op(p, ")"))
            return NULL;
    }
    if (hudi_sql_accept_kw(p, "OVER")) {
        if (hudi_sql_at_ident(p, 0))
            return hudi_sql_fail(p, hudi_sql_peek(p, 0), "named windows are not supported yet");
        if (!(e->over = window(p))) return NULL;
    }
    return e;
}

static hudi_sql_expr *case_expr(P *p, hudi_sql_pos pos) {
    hudi_sql_expr *e = new_expr(p, HUDI_SQL_E_CASE, pos);
    if (!e) return NULL;
    if (!hudi_sql_at_kw(p, 0, "WHEN") && !(e->left = hudi_sql_parse_expr(p))) return NULL;
    if (!hudi_sql_at_kw(p, 0, "WHEN")) return hudi_sql_expected(p, "WHEN");
    while (hudi_sql_accept_kw(p, "WHEN")) {
        if (!hudi_sql_push(p, &e->args, hudi_sql_parse_expr(p)) || !hudi_sql_expect_kw(p, "THEN") ||
            !hudi_sql_push(p, &e->args, hudi_sql_parse_expr(p)))
            return NULL;
    }
    if (hudi_sql_accept_kw(p, "ELSE") && !(e->right = hudi_sql_parse_expr(p))) return NULL;
    if (!hudi_sql_expect_kw(p, "END")) return NULL;
    return e;
}

/* Words that cannot start an expression, so "SELECT FROM t" fails at FROM. */
static bool reserved_in_expr(const hudi_sql_token *t) {
    static const char *const words[] = {
        "FROM",   "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT",   "UNION", "INTERSECT",
        "EXCEPT", "JOIN",  "ON",    "SELECT", "WHEN",  "THEN",    "ELSE",  "END",
        "AND",    "OR",    "IS",    "IN",     "LIKE",  "BETWEEN", "AS",    "SET"};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(words); i++)
        if (hudi_sql_is_kw(t, words[i])) return true;
    return false;
}

static hudi_sql_expr *primary(P *p) {
    hudi_sql_token *t = hudi_sql_peek(p, 0);
    hudi_sql_pos pos = t->pos;
    hudi_sql_expr *e;
    switch (t->kind) {
    case HUDI_SQL_TK_NUMBER: return number_literal(p, false, pos);
    case HUDI_SQL_TK_STRING: return string_literal(p, HUDI_SQL_L_STRING, pos);
    case HUDI_SQL_TK_BINARY:
        if (!(e = new_expr(p, HUDI_SQL_E_LITERAL, pos))) return NULL;
        e->lit = HUDI_SQL_L_BINARY;
        e->text = t->text;
        e->text_len = t->text_len;
        hudi_sql_advance(p);
        return e;
    case HUDI_SQL_TK_OP:
        if (!hudi_sql_at_op(p, 0, "(")) break;
        hudi_sql_advance(p);
        if (hudi_sql_at_query_start(p, 0)) {
            if (!(e = new_expr(p, HUDI_SQL_E_SUBQUERY, pos))) return NULL;
            if (!(e->query = hudi_sql_parse_query(p))) return NULL;
        } else {
            hudi_sql_expr *first = hudi_sql_parse_expr(p);
            if (!first) return NULL;
            if (!hudi_sql_at_op(p, 0, ",")) {
                e = first;
            } else {
                if (!(e = new_expr(p, HUDI_SQL_E_ROW, pos))) return NULL;
                hudi_sql_push(p, &e->args, first);
                while (hudi_sql_accept_op(p, ","))
                    if (!hudi_sql_push(p, &e->args, hudi_sql_parse_expr(p))) return NULL;
            }
        }
        return hudi_sql_expect_op(p, ")") ? e : NULL;
    case HUDI_SQL_TK_WORD:
        if (hudi_sql_is_kw(t, "NULL") || hudi_sql_is_kw(t, "TRUE") || hudi_sql_is_kw(t, "FALSE")) {
            if (!(e = new_expr(p, HUDI_SQL_E_LITERAL, pos))) return NULL;
            e->lit = hudi_sql_is_kw(t, "NULL") ? HUDI_SQL_L_NULL : HUDI_SQL_L_BOOL;
            e->text = hudi_sql_is_kw(t, "NULL")   ? "null"
                      : hudi_sql_is_kw(t, "TRUE") ? "true"
                                                  : "false";
            e->text_len = strlen(e->text);
            hudi_sql_advance(p);
            return e;
        }
        if (hudi_sql_is_kw(t, "CASE")) {
            hudi_sql_advance(p);
            return case_expr(p, pos);
        }
        if ((hudi_sql_is_kw(t, "CAST") || hudi_sql_is_kw(t, "TRY_CAST")) &&
            hudi_sql_at_op(p, 1, "(")) {
            if (!(e = new_expr(p, HUDI_SQL_E_CAST, pos))) return NULL;
            if (hudi_sql_is_kw(t, "TRY_CAST")) e->op = HUDI_SQL_OP_TRY;
            hudi_sql_advance(p);
            hudi_sql_advance(p);
            if (!(e->left = hudi_sql_parse_expr(p)) || !hudi_sql_expect_kw(p, "AS") ||
                !(e->type = hudi_sql_parse_type(p)) || !hudi_sql_expect_op(p, ")"))
                return NULL;
            return e;
        }
        if (hudi_sql_is_kw(t, "EXISTS") && hudi_sql_at_op(p, 1, "(")) {
            if (!(e = new_expr(p, HUDI_SQL_E_EXISTS, pos))) return NULL;
            hudi_sql_advance(p);
            hudi_sql_advance(p);
            if (!(e->query = hudi_sql_parse_query(p)) || !hudi_sql_expect_op(p, ")")) return NULL;
            return e;
        }
        if (hudi_sql_peek(p, 1)->kind == HUDI_SQL_TK_STRING) {
            static const struct {
                const char *kw;
                hudi_sql_lit_kind lit;
            } typed[] = {{"DATE", HUDI_SQL_L_DATE},
                         {"TIMESTAMP", HUDI_SQL_L_TIMESTAMP},
                         {"TIMESTAMP_NTZ", HUDI_SQL_L_TIMESTAMP_NTZ},
                         {"TIMESTAMP_LTZ", HUDI_SQL_L_TIMESTAMP_LTZ}};
            for (size_t i = 0; i < HUDI_ARRAY_LEN(typed); i++) {
                if (hudi_sql_is_kw(t, typed[i].kw)) {
                    hudi_sql_advance(p);
                    return string_literal(p, typed[i].lit, pos);
                }
            }
        }
        if (hudi_sql_is_kw(t, "INTERVAL")) {
            hudi_sql_token *n = hudi_sql_peek(p, 1);
            if (n->kind == HUDI_SQL_TK_STRING || n->kind == HUDI_SQL_TK_NUMBER ||
                hudi_sql_at_op(p, 1, "-")) {
                hudi_sql_advance(p);
                return interval_literal(p, pos);
            }
        }
        if (reserved_in_expr(t)) break;
        /* fall through */
    case HUDI_SQL_TK_QIDENT:
        if (!(e = new_expr(p, HUDI_SQL_E_COLUMN, pos))) return NULL;
        e->name.pos = pos;
        if (!hudi_sql_push(p, &e->name.parts, (void *)hudi_sql_ident(p))) return NULL;
        while (hudi_sql_at_op(p, 0, ".")) {
            if (hudi_sql_at_op(p, 1, "*")) {
                hudi_sql_advance(p);
                hudi_sql_advance(p);
                e->kind = HUDI_SQL_E_STAR;
                return e;
            }
            if (!hudi_sql_at_ident(p, 1)) break;
            hudi_sql_advance(p);
            if (!hudi_sql_push(p, &e->name.parts, (void *)hudi_sql_ident(p))) return NULL;
        }
        if (hudi_sql_at_op(p, 0, "(")) return function_call(p, e);
        return e;
    default: break;
    }
    return hudi_sql_expected(p, "an expression");
}

static hudi_sql_expr *postfix(P *p) {
    hudi_sql_expr *e = primary(p);
    while (e && !p->failed) {
        hudi_sql_pos pos = hudi_sql_peek(p, 0)->pos;
        if (hudi_sql_accept_op(p, "[")) {
            hudi_sql_expr *s = new_expr(p, HUDI_SQL_E_SUBSCRIPT, pos);
            if (!s) return NULL;
            s->left = e;
            if (!(s->right = hudi_sql_parse_expr(p)) || !hudi_sql_expect_op(p, "]")) return NULL;
            e = s;
        } else if (hudi_sql_at_op(p, 0, ".") && hudi_sql_at_ident(p, 1)) {
            hudi_sql_advance(p);
            hudi_sql_expr *f = new_expr(p, HUDI_SQL_E_FIELD, pos);
            if (!f) return NULL;
            f->left = e;
            if (!(f->field = hudi_sql_ident(p))) return NULL;
            e = f;
        } else {
            break;
        }
    }
    return p->failed ? NULL : e;
}

static hudi_sql_expr *unary(P *p) {
    if (!hudi_sql_enter(p)) return NULL;
    hudi_sql_token *t = hudi_sql_peek(p, 0);
    hudi_sql_pos pos = t->pos;
    hudi_sql_expr *e = NULL;
    if (hudi_sql_at_op(p, 0, "-") && hudi_sql_peek(p, 1)->kind == HUDI_SQL_TK_NUMBER) {
        hudi_sql_advance(p);
        e = number_literal(p, true, pos);
    } else if (hudi_sql_at_op(p, 0, "-") || hudi_sql_at_op(p, 0, "+") ||
               hudi_sql_at_op(p, 0, "~")) {
        hudi_sql_op op = t->text[0] == '-'   ? HUDI_SQL_OP_NEG
                         : t->text[0] == '+' ? HUDI_SQL_OP_PLUS
                                             : HUDI_SQL_OP_BITNOT;
        hudi_sql_advance(p);
        hudi_sql_expr *x = unary(p);
        if (x && (e = new_expr(p, HUDI_SQL_E_UNARY, pos))) {
            e->op = op;
            e->left = x;
        }
    } else {
        e = postfix(p);
    }
    hudi_sql_leave(p);
    return p->failed ? NULL : e;
}

/* Binary operators of value expressions, by precedence (Spark's valueExpression). */
static int binop(P *p, hudi_sql_op *op) {
    static const struct {
        const char *text;
        hudi_sql_op op;
        int prec;
    } ops[] = {
        {"=", HUDI_SQL_OP_EQ, 1},
        {"==", HUDI_SQL_OP_EQ, 1},
        {"<>", HUDI_SQL_OP_NE, 1},
        {"!=", HUDI_SQL_OP_NE, 1},
        {"<", HUDI_SQL_OP_LT, 1},
        {"<=", HUDI_SQL_OP_LE, 1},
        {">", HUDI_SQL_OP_GT, 1},
        {">=", HUDI_SQL_OP_GE, 1},
        {"<=>", HUDI_SQL_OP_NULLSAFE_EQ, 1},
        {"|", HUDI_SQL_OP_BITOR, 2},
        {"^", HUDI_SQL_OP_BITXOR, 3},
        {"&", HUDI_SQL_OP_BITAND, 4},
        {"<<", HUDI_SQL_OP_SHL, 5},
        {">>", HUDI_SQL_OP_SHR, 5},
        {">>>", HUDI_SQL_OP_USHR, 5},
        {"+", HUDI_SQL_OP_ADD, 6},
        {"-", HUDI_SQL_OP_SUB, 6},
        {"||", HUDI_SQL_OP_CONCAT, 6},
        {"*", HUDI_SQL_OP_MUL, 7},
        {"/", HUDI_SQL_OP_DIV, 7},
        {"%", HUDI_SQL_OP_MOD, 7},
    };
    hudi_sql_token *t = hudi_sql_peek(p, 0);
    if (t->kind == HUDI_SQL_TK_OP) {
        for (size_t i = 0; i < HUDI_ARRAY_LEN(ops); i++) {
            if (strcmp(t->text, ops[i].text) == 0) {
                *op = ops[i].op;
                return ops[i].prec;
            }
        }
    } else if (hudi_sql_is_kw(t, "DIV")) {
        *op = HUDI_SQL_OP_IDIV;
        return 7;
    }
    return 0;
}

static hudi_sql_expr *binary_expr(P *p, int min_prec) {
    if (!hudi_sql_enter(p)) return NULL;
    hudi_sql_expr *l = unary(p);
    hudi_sql_op op;
    int prec;
    while (l && (prec = binop(p, &op)) >= min_prec && prec > 0) {
        hudi_sql_advance(p);
        l = binary(p, op, l, binary_expr(p, prec + 1));
    }
    hudi_sql_leave(p);
    return p->failed ? NULL : l;
}

hudi_sql_expr *hudi_sql_parse_value(P *p) { return binary_expr(p, 1); }

static hudi_sql_expr *predicate(P *p) {
    hudi_sql_expr *l = binary_expr(p, 1);
    while (l && !p->failed) {
        hudi_sql_pos pos = hudi_sql_peek(p, 0)->pos;
        bool neg = false;
        int k = 0;
        if (hudi_sql_at_kw(p, 0, "NOT")) k = 1;
        hudi_sql_token *t = hudi_sql_peek(p, k);
        hudi_sql_expr *e;
        if (hudi_sql_is_kw(t, "IN") || hudi_sql_is_kw(t, "BETWEEN") || hudi_sql_is_kw(t, "LIKE") ||
            hudi_sql_is_kw(t, "ILIKE") || hudi_sql_is_kw(t, "RLIKE") ||
            hudi_sql_is_kw(t, "REGEXP")) {
            neg = k == 1;
            if (neg) hudi_sql_advance(p);
        } else if (k == 1 || !hudi_sql_is_kw(t, "IS")) {
            break;
        }
        t = hudi_sql_peek(p, 0);
        if (hudi_sql_is_kw(t, "IN")) {
            hudi_sql_advance(p);
            if (!hudi_sql_expect_op(p, "(")) return NULL;
            if (hudi_sql_at_query_start(p, 0)) {
                if (!(e = new_expr(p, HUDI_SQL_E_IN_QUERY, pos))) return NULL;
                if (!(e->query = hudi_sql_parse_query(p))) return NULL;
            } else {
                if (!(e = new_expr(p, HUDI_SQL_E_IN_LIST, pos))) return NULL;
                do {
                    if (!hudi_sql_push(p, &e->args, hudi_sql_parse_expr(p))) return NULL;
                } while (hudi_sql_accept_op(p, ","));
            }
            if (!hudi_sql_expect_op(p, ")")) return NULL;
        } else if (hudi_sql_is_kw(t, "BETWEEN")) {
            hudi_sql_advance(p);
            if (!(e = new_expr(p, HUDI_SQL_E_BETWEEN, pos))) return NULL;
            if (!hudi_sql_push(p, &e->args, binary_expr(p, 1)) || !hudi_sql_expect_kw(p, "AND") ||
                !hudi_sql_push(p, &e->args, binary_expr(p, 1)))
                return NULL;
        } else if (hudi_sql_is_kw(t, "IS")) {
            hudi_sql_advance(p);
            if (hudi_sql_accept_kw(p, "NOT")) neg = true;
            if (hudi_sql_accept_kw(p, "DISTINCT")) {
                if (!hudi_sql_expect_kw(p, "FROM")) return NULL;
                if (!(e = new_expr(p, HUDI_SQL_E_IS_DISTINCT, pos))) return NULL;
                if (!(e->right = binary_expr(p, 1))) return NULL;
            } else {
                if (!(e = new_expr(p, HUDI_SQL_E_IS, pos))) return NULL;
                if (hudi_sql_accept_kw(p, "NULL"))
                    e->op = HUDI_SQL_OP_IS_NULL;
                else if (hudi_sql_accept_kw(p, "TRUE"))
                    e->op = HUDI_SQL_OP_IS_TRUE;
                else if (hudi_sql_accept_kw(p, "FALSE"))
                    e->op = HUDI_SQL_OP_IS_FALSE;
                else if (hudi_sql_accept_kw(p, "UNKNOWN"))
                    e->op = HUDI_SQL_OP_IS_UNKNOWN;
                else
                    return hudi_sql_expected(p, "NULL, TRUE, FALSE, UNKNOWN or DISTINCT FROM");
            }
        } else {
            if (!(e = new_expr(p, HUDI_SQL_E_LIKE, pos))) return NULL;
            e->op = hudi_sql_is_kw(t, "LIKE")    ? HUDI_SQL_OP_LIKE
                    : hudi_sql_is_kw(t, "ILIKE") ? HUDI_SQL_OP_ILIKE
                                                 : HUDI_SQL_OP_RLIKE;
            hudi_sql_advance(p);
            if (hudi_sql_at_kw(p, 0, "ANY") || hudi_sql_at_kw(p, 0, "ALL") ||
                hudi_sql_at_kw(p, 0, "SOME"))
                if (hudi_sql_at_op(p, 1, "("))
                    return hudi_sql_fail(p, hudi_sql_peek(p, 0),
                                         "LIKE ANY/ALL/SOME is not supported yet");
            if (!(e->right = binary_expr(p, 1))) return NULL;
            if (e->op != HUDI_SQL_OP_RLIKE && hudi_sql_accept_kw(p, "ESCAPE")) {
                hudi_sql_pos epos = hudi_sql_peek(p, 0)->pos;
                if (!(e->escape = string_literal(p, HUDI_SQL_L_STRING, epos))) return NULL;
            }
        }
        e->negated = neg;
        e->left = l;
        l = e;
    }
    return p->failed ? NULL : l;
}

static hudi_sql_expr *not_expr(P *p) {
    if (!hudi_sql_enter(p)) return NULL;
    hudi_sql_expr *e = NULL;
    hudi_sql_pos pos = hudi_sql_peek(p, 0)->pos;
    if (hudi_sql_accept_kw(p, "NOT") || hudi_sql_accept_op(p, "!")) {
        hudi_sql_expr *x = not_expr(p);
        if (x && (e = new_expr(p, HUDI_SQL_E_UNARY, pos))) {
            e->op = HUDI_SQL_OP_NOT;
            e->left = x;
        }
    } else {
        e = predicate(p);
    }
    hudi_sql_leave(p);
    return p->failed ? NULL : e;
}

static hudi_sql_expr *and_expr(P *p) {
    hudi_sql_expr *l = not_expr(p);
    while (l && hudi_sql_accept_kw(p, "AND")) l = binary(p, HUDI_SQL_OP_AND, l, not_expr(p));
    return p->failed ? NULL : l;
}

hudi_sql_expr *hudi_sql_parse_expr(P *p) {
    if (!hudi_sql_enter(p)) return NULL;
    hudi_sql_expr *l = and_expr(p);
    while (l && hudi_sql_accept_kw(p, "OR")) l = binary(p, HUDI_SQL_OP_OR, l, and_expr(p));
    hudi_sql_leave(p);
    return p->failed ? NULL : l;
}

hudi_sql_expr *hudi_sql_parse_literal(P *p) {
    hudi_sql_token *t = hudi_sql_peek(p, 0);
    hudi_sql_pos pos = t->pos;
    if (t->kind == HUDI_SQL_TK_STRING) return string_literal(p, HUDI_SQL_L_STRING, pos);
    if (t->kind == HUDI_SQL_TK_NUMBER) return number_literal(p, false, pos);
    if ((hudi_sql_at_op(p, 0, "-") || hudi_sql_at_op(p, 0, "+")) &&
        hudi_sql_peek(p, 1)->kind == HUDI_SQL_TK_NUMBER) {
        bool neg = t->text[0] == '-';
        hudi_sql_advance(p);
        return number_literal(p, neg, pos);
    }
    if (hudi_sql_is_kw(t, "TRUE") || hudi_sql_is_kw(t, "FALSE") || hudi_sql_is_kw(t, "NULL") ||
        t->kind == HUDI_SQL_TK_BINARY ||
        (t->kind == HUDI_SQL_TK_WORD && hudi_sql_peek(p, 1)->kind == HUDI_SQL_TK_STRING &&
         (hudi_sql_is_kw(t, "DATE") || hudi_sql_is_kw(t, "TIMESTAMP") ||
          hudi_sql_is_kw(t, "TIMESTAMP_NTZ") || hudi_sql_is_kw(t, "TIMESTAMP_LTZ"))))
        return primary(p);
    return hudi_sql_expected(p, "a constant");
}

/* ---- queries -------------------------------------------------------------------------- */

/* Words that end an expression or a relation, so they are never taken as an alias. */
static const char *const ALIAS_STOP[] = {
    "FROM",        "WHERE",      "GROUP",   "HAVING",  "ORDER",  "LIMIT",  "OFFSET",    "UNION",
    "INTERSECT",   "EXCEPT",     "MINUS",   "JOIN",    "INNER",  "LEFT",   "RIGHT",     "FULL",
    "CROSS",       "SEMI",       "ANTI",    "NATURAL", "ON",     "USING",  "WINDOW",    "LATERAL",
    "CLUSTER",     "DISTRIBUTE", "SORT",    "WHEN",    "THEN",   "ELSE",   "END",       "AND",
    "OR",          "NOT",        "IS",      "IN",      "LIKE",   "ILIKE",  "RLIKE",     "REGEXP",
    "BETWEEN",     "AS",         "SET",     "VALUES",  "SELECT", "WITH",   "PARTITION", "FOR",
    "TABLESAMPLE", "PIVOT",      "UNPIVOT", "OVER",    "FILTER", "ESCAPE", "DIV",
};

static bool alias_stop(const hudi_sql_token *t) {
    for (size_t i = 0; i < HUDI_ARRAY_LEN(ALIAS_STOP); i++)
        if (hudi_sql_is_kw(t, ALIAS_STOP[i])) return true;
    return false;
}

const char *hudi_sql_parse_alias(P *p) {
    if (p->failed) return NULL;
    if (hudi_sql_accept_kw(p, "AS")) return hudi_sql_ident(p);
    hudi_sql_token *t = hudi_sql_peek(p, 0);
    if (t->kind == HUDI_SQL_TK_QIDENT || (t->kind == HUDI_SQL_TK_WORD && !alias_stop(t)))
        return hudi_sql_ident(p);
    return NULL;
}

static hudi_sql_query *new_query(P *p, hudi_sql_query_kind kind, hudi_sql_pos pos) {
    hudi_sql_query *q = hudi_sql_new(p, sizeof(*q));
    if (q) {
        q->kind = kind;
        q->pos = pos;
    }
    return q;
}

bool hudi_sql_parse_hints(P *p, hudi_sql_list *out) {
    while (!p->failed && hudi_sql_peek(p, 0)->kind == HUDI_SQL_TK_HINT_START) {
        hudi_sql_advance(p);
        while (!p->failed && hudi_sql_peek(p, 0)->kind != HUDI_SQL_TK_HINT_END) {
            hudi_sql_hint *h = hudi_sql_new(p, sizeof(*h));
            if (!h) return false;
            h->pos = hudi_sql_peek(p, 0)->pos;
            if (!(h->name = hudi_sql_ident(p))) return false;
            if (hudi_sql_at_op(p, 0, "(")) {
                if (strcasecmp(h->name, "OPTIONS") == 0) {
                    if (!hudi_sql_parse_props(p, &h->props, true)) return false;
                } else {
                    hudi_sql_advance(p);
                    if (!hudi_sql_at_op(p, 0, ")")) {
                        do {
                            if (!hudi_sql_push(p, &h->args, hudi_sql_parse_expr(p))) return false;
                        } while (hudi_sql_accept_op(p, ","));
                    }
                    if (!hudi_sql_expect_op(p, ")")) return false;
                }
            }
            if (!hudi_sql_push(p, out, h)) return false;
            hudi_sql_accept_op(p, ",");
        }
        hudi_sql_advance(p); /* the hint's end */
    }
    return !p->failed;
}

/* key [=] value: keys are strings or dotted names; values are constants (or absent). */
bool hudi_sql_parse_props(P *p, hudi_sql_list *out, bool values) {
    if (!hudi_sql_expect_op(p, "(")) return false;
    do {
        hudi_sql_prop *pr = hudi_sql_new(p, sizeof(*pr));
        if (!pr) return false;
        hudi_sql_token *t = hudi_sql_peek(p, 0);
        pr->pos = t->pos;
        if (t->kind == HUDI_SQL_TK_STRING) {
            pr->key = hudi_sql_string(p, NULL);
        } else if (t->kind == HUDI_SQL_TK_WORD || t->kind == HUDI_SQL_TK_QIDENT) {
            hudi_sql_name n;
            if (!hudi_sql_qname(p, &n)) return false;
            hudi_buf b = HUDI_BUF_INIT;
            for (uint32_t i = 0; i < n.parts.len; i++) {
                if (i) hudi_buf_putc(&b, '.');
                hudi_buf_puts(&b, HUDI_SQL_AT(n.parts, char, i));
            }
            pr->key = b.failed ? NULL : hudi_arena_strndup(p->arena, b.data, b.len);
            hudi_buf_dispose(&b);
            if (!pr->key) return hudi_sql_oom(p) != NULL;
        } else {
            return hudi_sql_expected(p, "a property name") != NULL;
        }
        if (!pr->key) return false;
        if (values) {
            hudi_sql_accept_op(p, "=");
            if (!(pr->value = hudi_sql_parse_literal(p))) return false;
        }
        if (!hudi_sql_push(p, out, pr)) return false;
    } while (hudi_sql_accept_op(p, ","));
    if (!hudi_sql_at_op(p, 0, ")")) return hudi_sql_expected(p, "',' or ')'") != NULL;
    hudi_sql_advance(p);
    return true;
}

static hudi_sql_query *values_query(P *p) {
    hudi_sql_query *q = new_query(p, HUDI_SQL_Q_VALUES, hudi_sql_peek(p, 0)->pos);
    if (!q || !hudi_sql_expect_kw(p, "VALUES")) return NULL;
    do {
        /* Spark: VALUES (1, 'a'), (2, 'b') or VALUES 1, 2 (one column). */
        hudi_sql_pos pos = hudi_sql_peek(p, 0)->pos;
        hudi_sql_expr *row = hudi_sql_parse_expr(p);
        if (!row) return NULL;
        if (row->kind != HUDI_SQL_E_ROW) {
            hudi_sql_expr *r = new_expr(p, HUDI_SQL_E_ROW, pos);
            if (!r) return NULL;
            hudi_sql_push(p, &r->args, row);
            row = r;
        }
        if (!hudi_sql_push(p, &q->rows, row)) return NULL;
    } while (hudi_sql_accept_op(p, ","));
    return p->failed ? NULL : q;
}

static bool time_travel(P *p, hudi_sql_rel *r) {
    int k = hudi_sql_at_kw(p, 0, "FOR") ? 1 : 0;
    hudi_sql_token *t = hudi_sql_peek(p, k);
    hudi_sql_travel_kind kind = HUDI_SQL_TRAVEL_NONE;
    if (hudi_sql_is_kw(t, "TIMESTAMP") || hudi_sql_is_kw(t, "SYSTEM_TIME"))
        kind = HUDI_SQL_TRAVEL_TIMESTAMP;
    else if (hudi_sql_is_kw(t, "VERSION") || hudi_sql_is_kw(t, "SYSTEM_VERSION"))
        kind = HUDI_SQL_TRAVEL_VERSION;
    if (kind == HUDI_SQL_TRAVEL_NONE || !hudi_sql_at_kw(p, k + 1, "AS")) return true;
    if (!hudi_sql_at_kw(p, k + 2, "OF")) return true;
    for (int i = 0; i < k + 3; i++) hudi_sql_advance(p);
    r->travel = kind;
    return (r->as_of = binary_expr(p, 1)) != NULL;
}

hudi_sql_rel *hudi_sql_parse_table_ref(P *p, bool allow_alias) {
    hudi_sql_rel *r = hudi_sql_new(p, sizeof(*r));
    if (!r) return NULL;
    r->pos = hudi_sql_peek(p, 0)->pos;
    r->kind = HUDI_SQL_R_TABLE;
    if (!hudi_sql_qname(p, &r->name)) return NULL;
    if (!time_travel(p, r) || !hudi_sql_parse_hints(p, &r->hints)) return NULL;
    if (allow_alias) r->alias = hudi_sql_parse_alias(p);
    return p->failed ? NULL : r;
}

static hudi_sql_rel *rel_primary(P *p) {
    if (!hudi_sql_enter(p)) return NULL;
    hudi_sql_rel *r = NULL;
    hudi_sql_pos pos = hudi_sql_peek(p, 0)->pos;
    if (hudi_sql_at_op(p, 0, "(") && !hudi_sql_at_query_start(p, 1)) {
        hudi_sql_advance(p);
        r = hudi_sql_parse_relation(p);
        if (r && !hudi_sql_expect_op(p, ")")) r = NULL;
        goto done;
    }
    if (hudi_sql_at_op(p, 0, "(") || hudi_sql_at_kw(p, 0, "VALUES")) {
        if (!(r = hudi_sql_new(p, sizeof(*r)))) goto done;
        r->kind = HUDI_SQL_R_SUBQUERY;
        r->pos = pos;
        if (hudi_sql_accept_op(p, "(")) {
            if (!(r->query = hudi_sql_parse_query(p)) || !hudi_sql_expect_op(p, ")")) goto done;
        } else if (!(r->query = values_query(p))) {
            goto done;
        }
    } else if (hudi_sql_at_ident(p, 0)) {
        int k = 1;
        while (hudi_sql_at_op(p, k, ".") && hudi_sql_at_ident(p, k + 1) && k < 2) k += 2;
        if (!hudi_sql_at_op(p, k, "(") && k < 3) {
            r = hudi_sql_parse_table_ref(p, true);
            if (r && r->alias && hudi_sql_at_op(p, 0, "(")) hudi_sql_ident_list(p, &r->columns);
            goto done;
        }
        if (!(r = hudi_sql_new(p, sizeof(*r)))) goto done;
        r->kind = HUDI_SQL_R_FUNC;
        r->pos = pos;
        if (!hudi_sql_qname(p, &r->name)) goto done;
        if (!hudi_sql_at_op(p, 0, "(")) {
            /* a longer dotted name than a function takes: a table after all */
            r->kind = HUDI_SQL_R_TABLE;
            if (!time_travel(p, r) || !hudi_sql_parse_hints(p, &r->hints)) goto done;
            r->alias = hudi_sql_parse_alias(p);
            goto done;
        }
        hudi_sql_advance(p);
        if (!hudi_sql_at_op(p, 0, ")")) {
            do {
                if (!hudi_sql_push(p, &r->args, hudi_sql_parse_expr(p))) goto done;
            } while (hudi_sql_accept_op(p, ","));
        }
        if (!hudi_sql_expect_op(p, ")")) goto done;
    } else {
        hudi_sql_expected(p, "a table name or '('");
        goto done;
    }
    r->alias = hudi_sql_parse_alias(p);
    if (r->alias && hudi_sql_at_op(p, 0, "(")) hudi_sql_ident_list(p, &r->columns);
done:
    hudi_sql_leave(p);
    return p->failed ? NULL : r;
}

/* The join keyword sequence at the cursor: returns true and consumes it. */
static bool join_kind(P *p, hudi_sql_join_kind *kind, bool *natural) {
    int k = 0;
    *natural = false;
    if (hudi_sql_at_kw(p, 0, "NATURAL")) k = 1;
    hudi_sql_token *t = hudi_sql_peek(p, k);
    int n; /* words before JOIN */
    if (hudi_sql_is_kw(t, "JOIN")) {
        *kind = HUDI_SQL_J_INNER;
        n = 0;
    } else if (hudi_sql_is_kw(t, "INNER")) {
        *kind = HUDI_SQL_J_INNER;
        n = 1;
    } else if (hudi_sql_is_kw(t, "CROSS")) {
        *kind = HUDI_SQL_J_CROSS;
        n = 1;
    } else if (hudi_sql_is_kw(t, "SEMI")) {
        *kind = HUDI_SQL_J_SEMI;
        n = 1;
    } else if (hudi_sql_is_kw(t, "ANTI")) {
        *kind = HUDI_SQL_J_ANTI;
        n = 1;
    } else if (hudi_sql_is_kw(t, "LEFT") || hudi_sql_is_kw(t, "RIGHT") ||
               hudi_sql_is_kw(t, "FULL")) {
        *kind = hudi_sql_is_kw(t, "LEFT")    ? HUDI_SQL_J_LEFT
                : hudi_sql_is_kw(t, "RIGHT") ? HUDI_SQL_J_RIGHT
                                             : HUDI_SQL_J_FULL;
        n = 1;
        hudi_sql_token *u = hudi_sql_peek(p, k + 1);
        if (hudi_sql_is_kw(u, "OUTER")) {
            n = 2;
        } else if (*kind == HUDI_SQL_J_LEFT && hudi_sql_is_kw(u, "SEMI")) {
            *kind = HUDI_SQL_J_SEMI;
            n = 2;
        } else if (*kind == HUDI_SQL_J_LEFT && hudi_sql_is_kw(u, "ANTI")) {
            *kind = HUDI_SQL_J_ANTI;
            n = 2;
        }
    } else {
        return false;
    }
    if (k + n > 2 || !hudi_sql_at_kw(p, k + n, "JOIN")) {
        /* e.g. "LEFT OUTER" then something else: report at JOIN's place */
        for (int i = 0; i < k + n; i++) hudi_sql_advance(p);
        hudi_sql_expected(p, "JOIN");
        return false;
    }
    *natural = k == 1;
    for (int i = 0; i < k + n + 1; i++) hudi_sql_advance(p);
    return true;
}

hudi_sql_rel *hudi_sql_parse_relation(P *p) {
    hudi_sql_rel *l = rel_primary(p);
    hudi_sql_join_kind kind;
    bool natural;
    while (l && join_kind(p, &kind, &natural)) {
        hudi_sql_rel *j = hudi_sql_new(p, sizeof(*j));
        if (!j) return NULL;
        j->kind = HUDI_SQL_R_JOIN;
        j->pos = l->pos;
        j->join = kind;
        j->natural = natural;
        j->left = l;
        if (!(j->right = rel_primary(p))) return NULL;
        if (kind != HUDI_SQL_J_CROSS && !natural) {
            if (hudi_sql_accept_kw(p, "ON")) {
                if (!(j->on = hudi_sql_parse_expr(p))) return NULL;
            } else if (hudi_sql_accept_kw(p, "USING")) {
                if (!hudi_sql_ident_list(p, &j->using_cols)) return NULL;
            }
        }
        l = j;
    }
    return p->failed ? NULL : l;
}

static hudi_sql_query *select_query(P *p) {
    hudi_sql_query *q = new_query(p, HUDI_SQL_Q_SELECT, hudi_sql_peek(p, 0)->pos);
    if (!q || !hudi_sql_expect_kw(p, "SELECT")) return NULL;
    if (!hudi_sql_parse_hints(p, &q->hints)) return NULL;
    if (hudi_sql_accept_kw(p, "DISTINCT"))
        q->distinct = true;
    else
        hudi_sql_accept_kw(p, "ALL");
    do {
        hudi_sql_select_item *it = hudi_sql_new(p, sizeof(*it));
        if (!it) return NULL;
        hudi_sql_token *t = hudi_sql_peek(p, 0);
        if (hudi_sql_at_op(p, 0, "*")) {
            it->expr = new_expr(p, HUDI_SQL_E_STAR, t->pos);
            hudi_sql_advance(p);
        } else {
            it->expr = hudi_sql_parse_expr(p);
            if (it->expr && it->expr->kind != HUDI_SQL_E_STAR) it->alias = hudi_sql_parse_alias(p);
        }
        if (!hudi_sql_push(p, &q->items, it->expr ? it : NULL)) return NULL;
    } while (hudi_sql_accept_op(p, ","));
    if (hudi_sql_accept_kw(p, "FROM")) {
        if (!(q->from = hudi_sql_parse_relation(p))) return NULL;
        while (hudi_sql_accept_op(p, ",")) {
            hudi_sql_rel *j = hudi_sql_new(p, sizeof(*j));
            if (!j) return NULL;
            j->kind = HUDI_SQL_R_JOIN;
            j->join = HUDI_SQL_J_CROSS;
            j->pos = q->from->pos;
            j->left = q->from;
            if (!(j->right = hudi_sql_parse_relation(p))) return NULL;
            q->from = j;
        }
    }
    if (hudi_sql_accept_kw(p, "WHERE") && !(q->where = hudi_sql_parse_expr(p))) return NULL;
    if (hudi_sql_at_kw(p, 0, "GROUP")) {
        hudi_sql_advance(p);
        if (!hudi_sql_expect_kw(p, "BY")) return NULL;
        do {
            if (!hudi_sql_push(p, &q->group_by, hudi_sql_parse_expr(p))) return NULL;
        } while (hudi_sql_accept_op(p, ","));
    }
    if (hudi_sql_accept_kw(p, "HAVING") && !(q->having = hudi_sql_parse_expr(p))) return NULL;
    return p->failed ? NULL : q;
}

static hudi_sql_query *query_primary(P *p) {
    hudi_sql_pos pos = hudi_sql_peek(p, 0)->pos;
    if (hudi_sql_at_kw(p, 0, "SELECT")) return select_query(p);
    if (hudi_sql_at_kw(p, 0, "VALUES")) return values_query(p);
    if (hudi_sql_at_kw(p, 0, "TABLE")) {
        hudi_sql_advance(p);
        hudi_sql_query *q = new_query(p, HUDI_SQL_Q_TABLE, pos);
        return q && hudi_sql_qname(p, &q->table) ? q : NULL;
    }
    if (hudi_sql_accept_op(p, "(")) {
        hudi_sql_query *q = hudi_sql_parse_query(p);
        return q && hudi_sql_expect_op(p, ")") ? q : NULL;
    }
    return hudi_sql_expected(p, "SELECT, VALUES or '('");
}

static hudi_sql_query *setop(P *p, hudi_sql_setop op, hudi_sql_query *l, hudi_sql_query *r,
                             bool all) {
    if (!l || !r) return NULL;
    hudi_sql_query *q = new_query(p, HUDI_SQL_Q_SETOP, l->pos);
    if (q) {
        q->setop = op;
        q->left = l;
        q->right = r;
        q->all = all;
    }
    return q;
}

static bool set_quantifier(P *p) {
    if (hudi_sql_accept_kw(p, "ALL")) return true;
    hudi_sql_accept_kw(p, "DISTINCT");
    return false;
}

static hudi_sql_query *intersect_query(P *p) {
    hudi_sql_query *l = query_primary(p);
    while (l && hudi_sql_accept_kw(p, "INTERSECT")) {
        bool all = set_quantifier(p);
        l = setop(p, HUDI_SQL_SET_INTERSECT, l, query_primary(p), all);
    }
    return p->failed ? NULL : l;
}

/* Wraps q as SELECT * FROM (q) when an outer ORDER BY/LIMIT/WITH would clash with its own. */
static hudi_sql_query *wrap(P *p, hudi_sql_query *q) {
    hudi_sql_query *w = new_query(p, HUDI_SQL_Q_SELECT, q->pos);
    hudi_sql_select_item *it = hudi_sql_new(p, sizeof(*it));
    hudi_sql_rel *r = hudi_sql_new(p, sizeof(*r));
    if (!w || !it || !r || !(it->expr = new_expr(p, HUDI_SQL_E_STAR, q->pos))) return NULL;
    r->kind = HUDI_SQL_R_SUBQUERY;
    r->pos = q->pos;
    r->query = q;
    w->from = r;
    return hudi_sql_push(p, &w->items, it) ? w : NULL;
}

bool hudi_sql_parse_ctes(P *p, hudi_sql_list *ctes) {
    if (!hudi_sql_accept_kw(p, "WITH")) return true;
    if (hudi_sql_at_kw(p, 0, "RECURSIVE")) {
        hudi_sql_fail(p, hudi_sql_peek(p, 0), "WITH RECURSIVE is not supported");
        return false;
    }
    do {
        hudi_sql_cte *c = hudi_sql_new(p, sizeof(*c));
        if (!c || !(c->name = hudi_sql_ident(p))) return false;
        if (hudi_sql_at_op(p, 0, "(") && !hudi_sql_ident_list(p, &c->columns)) return false;
        hudi_sql_accept_kw(p, "AS");
        if (!hudi_sql_expect_op(p, "(") || !(c->query = hudi_sql_parse_query(p)) ||
            !hudi_sql_expect_op(p, ")") || !hudi_sql_push(p, ctes, c))
            return false;
    } while (hudi_sql_accept_op(p, ","));
    return true;
}

hudi_sql_query *hudi_sql_query_add_ctes(P *p, hudi_sql_query *q, hudi_sql_list ctes) {
    if (!ctes.len) return q;
    if (q->ctes.len && !(q = wrap(p, q))) return NULL;
    q->ctes = ctes;
    return q;
}

hudi_sql_query *hudi_sql_parse_query(P *p) {
    if (!hudi_sql_enter(p)) return NULL;
    hudi_sql_list ctes = {0};
    hudi_sql_query *q = NULL;
    if (!hudi_sql_parse_ctes(p, &ctes)) goto done;
    q = intersect_query(p);
    for (;;) {
        hudi_sql_setop op;
        if (hudi_sql_at_kw(p, 0, "UNION"))
            op = HUDI_SQL_SET_UNION;
        else if (hudi_sql_at_kw(p, 0, "EXCEPT") || hudi_sql_at_kw(p, 0, "MINUS"))
            op = HUDI_SQL_SET_EXCEPT;
        else
            break;
        if (!q) break;
        hudi_sql_advance(p);
        bool all = set_quantifier(p);
        q = setop(p, op, q, intersect_query(p), all);
    }
    if (!q || p->failed) goto done;
    bool has_order = hudi_sql_at_kw(p, 0, "ORDER") && hudi_sql_at_kw(p, 1, "BY");
    bool has_limit = hudi_sql_at_kw(p, 0, "LIMIT") || hudi_sql_at_kw(p, 0, "OFFSET");
    if ((has_order || has_limit || ctes.len) &&
        (q->order_by.len || q->limit || q->offset || q->ctes.len) && !(q = wrap(p, q)))
        goto done;
    q->ctes = ctes;
    if (has_order) {
        hudi_sql_advance(p);
        hudi_sql_advance(p);
        if (!order_items(p, &q->order_by)) goto done;
    }
    if (hudi_sql_accept_kw(p, "LIMIT") && !hudi_sql_accept_kw(p, "ALL") &&
        !(q->limit = hudi_sql_parse_expr(p)))
        goto done;
    if (hudi_sql_accept_kw(p, "OFFSET") && !(q->offset = hudi_sql_parse_expr(p))) goto done;
done:
    hudi_sql_leave(p);
    return p->failed ? NULL : q;
}

/* ---- error display -------------------------------------------------------------------- */

void hudi_sql_error_context(hudi_buf *out, const char *src, size_t len, hudi_sql_pos pos) {
    size_t off = pos.offset <= len ? pos.offset : len;
    size_t start = off, end = off;
    while (start > 0 && src[start - 1] != '\n') start--;
    while (end < len && src[end] != '\n') end++;
    size_t line_end = end;
    if (line_end > start && src[line_end - 1] == '\r') line_end--;
    hudi_buf_append(out, src + start, line_end - start);
    hudi_buf_putc(out, '\n');
    for (size_t i = start; i < off; i++) {
        unsigned char c = (unsigned char)src[i];
        if ((c & 0xC0) == 0x80) continue;
        hudi_buf_putc(out, c == '\t' ? '\t' : ' ');
    }
    hudi_buf_putc(out, '^');
}
