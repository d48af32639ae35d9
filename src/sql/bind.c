/* bind.c - the binder: syntax tree (ast.h) to plan (engine.h). Resolves table and column names
 * in scopes, types expressions through the function registry (which inserts Spark's implicit
 * casts), turns GROUP BY and aggregate calls into an AGGREGATE node, uncorrelated IN and
 * EXISTS subqueries into semi/anti joins, and scalar subqueries into constants
 * (docs/ARCHITECTURE.md "SQL engine"). */
#include "sql/bind.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int hudi_sql_binder_error(hudi_sql_binder *b, hudi_sql_pos pos, int code, const char *fmt, ...) {
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (pos.line)
        return hudi_error_set(b->err, code, "line %u, column %u: %s", pos.line, pos.col, msg);
    return hudi_error_set(b->err, code, "%s", msg);
}

static int oom(hudi_sql_binder *b) { return hudi_error_oom(b->err); }

bool hudi_sql_ident_eq(const char *a, const char *b) { return strcasecmp(a, b) == 0; }

char *hudi_sql_lower(hudi_arena *a, const char *s) {
    char *d = hudi_arena_strdup(a, s);
    if (d)
        for (char *p = d; *p; p++)
            if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
    return d;
}

void hudi_sql_binder_init(hudi_sql_binder *b, hudi_sql_session *s, hudi_sql_result *r,
                          hudi_error *err) {
    memset(b, 0, sizeof(*b));
    b->s = s;
    b->r = r;
    b->ctx = &r->ctx;
    b->err = err;
}

/* ---- node builders ----------------------------------------------------------------------- */

static void *alloc(hudi_sql_binder *b, size_t n) { return hudi_arena_alloc(&b->r->arena, n); }

static hudi_sql_bexpr *bx_new(hudi_sql_binder *b, hudi_sql_bx_kind kind) {
    hudi_sql_bexpr *e = alloc(b, sizeof(*e));
    if (e) {
        e->kind = kind;
        e->type.field_id = -1;
    }
    return e;
}

hudi_sql_bexpr *hudi_sql_bx_column(hudi_sql_binder *b, int32_t index, const hudi_field *type) {
    hudi_sql_bexpr *e = bx_new(b, HUDI_SQL_BX_COLUMN);
    if (!e || hudi_sql_field_copy(&b->r->arena, &e->type, type) < 0) return NULL;
    e->column = index;
    e->text = e->type.name;
    return e;
}

int hudi_sql_bx_const(hudi_sql_binder *b, const hudi_field *type, const hudi_array *value,
                      int64_t row, hudi_sql_bexpr **out) {
    hudi_sql_bexpr *e = bx_new(b, HUDI_SQL_BX_CONST);
    if (!e || hudi_sql_field_copy(&b->r->arena, &e->type, type) < 0) return oom(b);
    hudi_array *a = NULL;
    int rc = hudi_array_new(&a, &e->type, b->err);
    if (rc < 0) return rc;
    if (value)
        rc = hudi_array_append_range(a, value, row, 1, b->err);
    else
        rc = hudi_array_append_null(a, b->err);
    if (rc < 0) {
        hudi_array_free(a);
        return rc;
    }
    if ((rc = hudi_sql_result_own_array(b->r, a, b->err)) < 0) return rc;
    e->value = a;
    *out = e;
    return 0;
}

static int const_of(hudi_sql_binder *b, hudi_type_id t, const void *fixed, const char *bytes,
                    size_t n, hudi_sql_bexpr **out) {
    hudi_field f;
    if (hudi_field_init(&f, "", t, true) < 0) return oom(b);
    hudi_array *tmp = NULL;
    int rc = hudi_array_new(&tmp, &f, b->err);
    if (rc == 0) {
        if (t == HUDI_TYPE_NULL || (!fixed && !bytes))
            rc = hudi_array_append_null(tmp, b->err);
        else if (t == HUDI_TYPE_BOOL)
            rc = hudi_array_append_bool(tmp, *(const bool *)fixed, b->err);
        else if (fixed)
            rc = hudi_array_append_fixed(tmp, fixed, b->err);
        else
            rc = hudi_array_append_bytes(tmp, bytes, n, b->err);
    }
    if (rc == 0) rc = hudi_sql_bx_const(b, &f, tmp, 0, out);
    hudi_array_free(tmp);
    hudi_field_dispose(&f);
    return rc;
}

int hudi_sql_bx_string(hudi_sql_binder *b, const char *s, size_t n, hudi_sql_bexpr **out) {
    return const_of(b, HUDI_TYPE_STRING, NULL, s ? s : "", n, out);
}

int hudi_sql_bx_bool(hudi_sql_binder *b, bool v, hudi_sql_bexpr **out) {
    return const_of(b, HUDI_TYPE_BOOL, &v, NULL, 0, out);
}

static bool is_const(const hudi_sql_bexpr *e) { return e->kind == HUDI_SQL_BX_CONST; }

int hudi_sql_fold(hudi_sql_binder *b, hudi_sql_bexpr **ep) {
    hudi_sql_bexpr *e = *ep;
    if (e->kind != HUDI_SQL_BX_CALL || !e->fn || !e->fn->eval) return 0;
    for (int32_t i = 0; i < e->n_args; i++)
        if (!is_const(e->args[i])) return 0;
    if (!b->one_row) {
        hudi_field *empty = alloc(b, sizeof(*empty));
        if (!empty) return oom(b);
        empty->name = "";
        empty->type = HUDI_TYPE_STRUCT;
        empty->field_id = -1;
        int rc = hudi_batch_new(&b->one_row, empty, b->err);
        if (rc < 0) return rc;
        if ((rc = hudi_sql_result_own_batch(b->r, b->one_row, b->err)) < 0) {
            b->one_row = NULL;
            return rc;
        }
        b->one_row->num_rows = 1;
    }
    hudi_array *v = NULL;
    int rc = hudi_sql_eval_array(b->ctx, e, b->one_row, &v, b->err);
    if (rc < 0) return rc;
    hudi_sql_bexpr *c;
    rc = hudi_sql_bx_const(b, &e->type, v, 0, &c);
    hudi_array_free(v);
    if (rc < 0) return rc;
    c->pos = e->pos;
    c->text = e->text;
    *ep = c;
    return 0;
}

/* A call of registry function `name`, folded when its arguments are constants. */
static int call(hudi_sql_binder *b, const char *name, hudi_sql_bexpr **args, int32_t n,
                hudi_sql_pos pos, hudi_sql_bexpr **out) {
    int rc = hudi_sql_bind_fn(b->ctx, name, args, n, pos, out, b->err);
    if (rc < 0) return rc;
    (*out)->pos = pos;
    return hudi_sql_fold(b, out);
}

static int call2(hudi_sql_binder *b, const char *name, hudi_sql_bexpr *x, hudi_sql_bexpr *y,
                 hudi_sql_pos pos, hudi_sql_bexpr **out) {
    hudi_sql_bexpr **args = alloc(b, sizeof(*args) * 2);
    if (!args) return oom(b);
    args[0] = x;
    args[1] = y;
    return call(b, name, args, 2, pos, out);
}

static int call1(hudi_sql_binder *b, const char *name, hudi_sql_bexpr *x, hudi_sql_pos pos,
                 hudi_sql_bexpr **out) {
    hudi_sql_bexpr **args = alloc(b, sizeof(*args));
    if (!args) return oom(b);
    args[0] = x;
    return call(b, name, args, 1, pos, out);
}

/* ---- plans -------------------------------------------------------------------------------- */

hudi_sql_plan *hudi_sql_plan_new(hudi_sql_binder *b, hudi_sql_plan_kind kind, hudi_sql_plan *left) {
    hudi_sql_plan *p = alloc(b, sizeof(*p));
    if (p) {
        p->kind = kind;
        p->left = left;
        p->limit = -1;
        p->schema.type = HUDI_TYPE_STRUCT;
        p->schema.name = "";
        p->schema.field_id = -1;
    }
    return p;
}

int hudi_sql_plan_set_schema(hudi_sql_binder *b, hudi_sql_plan *p, const hudi_field *types,
                             const char *const *names, int32_t n) {
    hudi_field *c = alloc(b, sizeof(*c) * (size_t)(n ? n : 1));
    if (!c) return oom(b);
    for (int32_t i = 0; i < n; i++) {
        if (hudi_sql_field_copy(&b->r->arena, &c[i], &types[i]) < 0) return oom(b);
        if (names && names[i] && !(c[i].name = hudi_arena_strdup(&b->r->arena, names[i])))
            return oom(b);
        c[i].nullable = true;
    }
    p->schema.children = c;
    p->schema.n_children = n;
    return 0;
}

int hudi_sql_plan_project(hudi_sql_binder *b, hudi_sql_plan *child, hudi_sql_bexpr **exprs,
                          const char *const *names, int32_t n, hudi_sql_plan **out) {
    hudi_sql_plan *p = hudi_sql_plan_new(b, HUDI_SQL_P_PROJECT, child);
    hudi_field *types = alloc(b, sizeof(*types) * (size_t)(n ? n : 1));
    if (!p || !types) return oom(b);
    for (int32_t i = 0; i < n; i++) types[i] = exprs[i]->type;
    p->exprs = exprs;
    p->n_exprs = n;
    int rc = hudi_sql_plan_set_schema(b, p, types, names, n);
    *out = p;
    return rc;
}

int hudi_sql_plan_filter(hudi_sql_binder *b, hudi_sql_plan *child, hudi_sql_bexpr *cond,
                         hudi_sql_plan **out) {
    hudi_sql_plan *p = hudi_sql_plan_new(b, HUDI_SQL_P_FILTER, child);
    if (!p) return oom(b);
    p->cond = cond;
    p->schema = child->schema;
    *out = p;
    return 0;
}

int hudi_sql_scope_of(hudi_sql_binder *b, const hudi_sql_plan *p, const char *qual,
                      hudi_sql_scope *out) {
    int32_t n = p->schema.n_children;
    out->cols = alloc(b, sizeof(*out->cols) * (size_t)(n ? n : 1));
    if (!out->cols) return oom(b);
    out->n = n;
    out->schema = &p->schema;
    for (int32_t i = 0; i < n; i++) {
        out->cols[i].qual = qual;
        out->cols[i].name = p->schema.children[i].name;
        out->cols[i].index = i;
    }
    return 0;
}

/* ---- display names (Spark's auto-generated column names) --------------------------------- */

/* Each operator: how Spark shows it in column names, and the registry function it binds to
 * (NULL for the unary and IS forms, which bind_expr_node maps itself). */
static const struct {
    hudi_sql_op op;
    const char *shown, *fn;
} operators[] = {
    {HUDI_SQL_OP_NEG, "-", NULL},
    {HUDI_SQL_OP_PLUS, "+", NULL},
    {HUDI_SQL_OP_BITNOT, "~", NULL},
    {HUDI_SQL_OP_NOT, "NOT", NULL},
    {HUDI_SQL_OP_OR, "OR", "or"},
    {HUDI_SQL_OP_AND, "AND", "and"},
    {HUDI_SQL_OP_EQ, "=", "="},
    {HUDI_SQL_OP_NE, "!=", "<>"},
    {HUDI_SQL_OP_LT, "<", "<"},
    {HUDI_SQL_OP_LE, "<=", "<="},
    {HUDI_SQL_OP_GT, ">", ">"},
    {HUDI_SQL_OP_GE, ">=", ">="},
    {HUDI_SQL_OP_NULLSAFE_EQ, "<=>", "<=>"},
    {HUDI_SQL_OP_BITOR, "|", "|"},
    {HUDI_SQL_OP_BITXOR, "^", "^"},
    {HUDI_SQL_OP_BITAND, "&", "&"},
    {HUDI_SQL_OP_SHL, "<<", "shiftleft"},
    {HUDI_SQL_OP_SHR, ">>", "shiftright"},
    {HUDI_SQL_OP_USHR, ">>>", "shiftrightunsigned"},
    {HUDI_SQL_OP_ADD, "+", "+"},
    {HUDI_SQL_OP_SUB, "-", "-"},
    {HUDI_SQL_OP_CONCAT, "||", "||"},
    {HUDI_SQL_OP_MUL, "*", "*"},
    {HUDI_SQL_OP_DIV, "/", "/"},
    {HUDI_SQL_OP_MOD, "%", "%"},
    {HUDI_SQL_OP_IDIV, "div", "div"},
};

static const char *op_symbol(hudi_sql_op op) {
    for (size_t i = 0; i < sizeof(operators) / sizeof(operators[0]); i++)
        if (operators[i].op == op) return operators[i].shown;
    return "?";
}

static const char *binary_fn(hudi_sql_op op) {
    for (size_t i = 0; i < sizeof(operators) / sizeof(operators[0]); i++)
        if (operators[i].op == op) return operators[i].fn;
    return NULL;
}

static void display(hudi_buf *o, const hudi_sql_expr *e);

static void display_list(hudi_buf *o, const hudi_sql_list *l, uint32_t from) {
    for (uint32_t i = from; i < l->len; i++) {
        if (i > from) hudi_buf_puts(o, ", ");
        display(o, HUDI_SQL_AT(*l, hudi_sql_expr, i));
    }
}

static void display(hudi_buf *o, const hudi_sql_expr *e) {
    switch (e->kind) {
    case HUDI_SQL_E_LITERAL:
        switch (e->lit) {
        case HUDI_SQL_L_NULL: hudi_buf_puts(o, "NULL"); break;
        case HUDI_SQL_L_STRING:
        case HUDI_SQL_L_BINARY: hudi_buf_append(o, e->text, e->text_len); break;
        case HUDI_SQL_L_DATE: hudi_buf_printf(o, "DATE '%s'", e->text); break;
        case HUDI_SQL_L_TIMESTAMP: hudi_buf_printf(o, "TIMESTAMP '%s'", e->text); break;
        case HUDI_SQL_L_BIGINT: hudi_buf_printf(o, "%s", e->text); break;
        default: hudi_buf_puts(o, e->text ? e->text : ""); break;
        }
        return;
    case HUDI_SQL_E_COLUMN: {
        uint32_t n = e->name.parts.len;
        hudi_buf_puts(o, HUDI_SQL_AT(e->name.parts, const char, n - 1));
        return;
    }
    case HUDI_SQL_E_STAR: hudi_buf_puts(o, "*"); return;
    case HUDI_SQL_E_UNARY:
        if (e->op == HUDI_SQL_OP_NOT) {
            hudi_buf_puts(o, "(NOT ");
            display(o, e->left);
            hudi_buf_puts(o, ")");
        } else {
            hudi_buf_puts(o, op_symbol(e->op));
            display(o, e->left);
        }
        return;
    case HUDI_SQL_E_BINARY:
        hudi_buf_puts(o, "(");
        display(o, e->left);
        hudi_buf_printf(o, " %s ", op_symbol(e->op));
        display(o, e->right);
        hudi_buf_puts(o, ")");
        return;
    case HUDI_SQL_E_IS:
        hudi_buf_puts(o, "(");
        display(o, e->left);
        hudi_buf_printf(o, " IS %s%s)", e->negated ? "NOT " : "",
                        e->op == HUDI_SQL_OP_IS_NULL    ? "NULL"
                        : e->op == HUDI_SQL_OP_IS_TRUE  ? "true"
                        : e->op == HUDI_SQL_OP_IS_FALSE ? "false"
                                                        : "UNKNOWN");
        return;
    case HUDI_SQL_E_IN_LIST:
        hudi_buf_puts(o, "(");
        display(o, e->left);
        hudi_buf_puts(o, e->negated ? " NOT IN (" : " IN (");
        display_list(o, &e->args, 0);
        hudi_buf_puts(o, "))");
        return;
    case HUDI_SQL_E_BETWEEN:
        hudi_buf_puts(o, "(");
        display(o, e->left);
        hudi_buf_puts(o, e->negated ? " NOT BETWEEN " : " BETWEEN ");
        display(o, HUDI_SQL_AT(e->args, hudi_sql_expr, 0));
        hudi_buf_puts(o, " AND ");
        display(o, HUDI_SQL_AT(e->args, hudi_sql_expr, 1));
        hudi_buf_puts(o, ")");
        return;
    case HUDI_SQL_E_LIKE:
        display(o, e->left);
        hudi_buf_puts(o, e->negated ? " NOT " : " ");
        hudi_buf_puts(o, e->op == HUDI_SQL_OP_ILIKE   ? "ILIKE "
                         : e->op == HUDI_SQL_OP_RLIKE ? "RLIKE "
                                                      : "LIKE ");
        display(o, e->right);
        return;
    case HUDI_SQL_E_CAST:
        hudi_buf_puts(o, e->op == HUDI_SQL_OP_TRY ? "TRY_CAST(" : "CAST(");
        display(o, e->left);
        hudi_buf_printf(o, " AS %s)", e->type && e->type->spelling ? e->type->spelling : "?");
        return;
    case HUDI_SQL_E_FUNC: {
        uint32_t n = e->name.parts.len;
        const char *fname = HUDI_SQL_AT(e->name.parts, const char, n - 1);
        for (const char *p = fname; *p; p++)
            hudi_buf_putc(o, (*p >= 'A' && *p <= 'Z') ? (char)(*p - 'A' + 'a') : *p);
        hudi_buf_puts(o, "(");
        if (e->distinct) hudi_buf_puts(o, "DISTINCT ");
        if (e->args.len == 1 && HUDI_SQL_AT(e->args, hudi_sql_expr, 0)->kind == HUDI_SQL_E_STAR &&
            strcasecmp(fname, "count") == 0)
            hudi_buf_puts(o, "1");
        else
            display_list(o, &e->args, 0);
        hudi_buf_puts(o, ")");
        return;
    }
    case HUDI_SQL_E_CASE: hudi_buf_puts(o, "CASE WHEN ... END"); return;
    case HUDI_SQL_E_FIELD:
        display(o, e->left);
        hudi_buf_printf(o, ".%s", e->field);
        return;
    case HUDI_SQL_E_SUBSCRIPT:
        display(o, e->left);
        hudi_buf_puts(o, "[");
        display(o, e->right);
        hudi_buf_puts(o, "]");
        return;
    case HUDI_SQL_E_SUBQUERY: hudi_buf_puts(o, "scalarsubquery()"); return;
    case HUDI_SQL_E_ALIAS: display(o, e->left); return;
    default: hudi_buf_puts(o, "expr"); return;
    }
}

static const char *display_name(hudi_sql_binder *b, const hudi_sql_expr *e) {
    hudi_buf o = HUDI_BUF_INIT;
    display(&o, e);
    const char *s = o.failed ? NULL : hudi_arena_strndup(&b->r->arena, o.data ? o.data : "", o.len);
    hudi_buf_dispose(&o);
    return s;
}

/* Canonical text of an expression for matching GROUP BY items: the AST rendering, lower case. */
char *hudi_sql_canon(hudi_sql_binder *b, const hudi_sql_expr *e) {
    hudi_buf o = HUDI_BUF_INIT;
    hudi_sql_expr_print(&o, e);
    char *s = o.failed ? NULL : hudi_arena_strndup(&b->r->arena, o.data ? o.data : "", o.len);
    hudi_buf_dispose(&o);
    if (s)
        for (char *p = s; *p; p++)
            if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
    return s;
}

/* ---- names ---------------------------------------------------------------------------------- */

static void scope_names(hudi_buf *o, const hudi_sql_scope *sc) {
    hudi_buf_puts(o, "[");
    int shown = 0;
    for (int32_t i = 0; i < sc->n && shown < 20; i++) {
        if (sc->cols[i].hidden) continue;
        if (shown++) hudi_buf_puts(o, ", ");
        if (sc->cols[i].qual) hudi_buf_printf(o, "%s.", sc->cols[i].qual);
        hudi_buf_puts(o, sc->cols[i].name);
    }
    hudi_buf_puts(o, "]");
}

/* Finds column `name` qualified by `qual` (NULL: any) in `sc`: its position in sc->cols, -1
 * when absent, -2 when ambiguous. */
static int32_t scope_find(const hudi_sql_scope *sc, const char *qual, const char *name) {
    int32_t found = -1;
    for (int32_t i = 0; i < sc->n; i++) {
        const hudi_sql_scope_col *c = &sc->cols[i];
        if (!hudi_sql_ident_eq(c->name, name)) continue;
        if (qual && (!c->qual || !hudi_sql_ident_eq(c->qual, qual))) continue;
        if (!qual && c->hidden) continue;
        if (found >= 0 && sc->cols[found].index != c->index) return -2;
        if (found < 0) found = i;
    }
    return found;
}

static int struct_field(hudi_sql_binder *b, hudi_sql_bexpr *base, const char *field,
                        hudi_sql_pos pos, hudi_sql_bexpr **out);

static int bind_column(hudi_sql_binder *b, const hudi_sql_scope *sc, const hudi_sql_expr *e,
                       hudi_sql_bexpr **out) {
    uint32_t n = e->name.parts.len;
    const char **parts = (const char **)e->name.parts.items;
    /* the longest qualifier that names a column wins: t.c.f is column c of t, field f */
    int32_t at = -1;
    uint32_t used = 0;
    for (uint32_t q = n >= 3 ? 2 : n - 1;; q--) {
        const char *qual = q == 0 ? NULL : parts[q - 1];
        if (q <= n - 1) {
            int32_t i = scope_find(sc, qual, parts[q]);
            if (i == -2) return ERR(b, e->pos, HUDI_ESQL, "Reference '%s' is ambiguous", parts[q]);
            if (i >= 0) {
                at = i;
                used = q + 1;
                break;
            }
        }
        if (q == 0) break;
    }
    if (at < 0) {
        hudi_buf o = HUDI_BUF_INIT;
        scope_names(&o, sc);
        hudi_buf cn = HUDI_BUF_INIT;
        for (uint32_t i = 0; i < n; i++) {
            if (i) hudi_buf_putc(&cn, '.');
            hudi_buf_printf(&cn, "`%s`", parts[i]);
        }
        int rc = ERR(b, e->pos, HUDI_ESQL,
                     "[UNRESOLVED_COLUMN] A column or function parameter with name %s cannot be "
                     "resolved; the input columns are %s",
                     cn.data ? cn.data : "", o.data ? o.data : "[]");
        hudi_buf_dispose(&o);
        hudi_buf_dispose(&cn);
        return rc;
    }
    const hudi_sql_scope_col *c = &sc->cols[at];
    hudi_sql_bexpr *x = hudi_sql_bx_column(b, c->index, &sc->schema->children[c->index]);
    if (!x) return oom(b);
    x->pos = e->pos;
    for (uint32_t i = used; i < n; i++) {
        int rc = struct_field(b, x, parts[i], e->pos, &x);
        if (rc < 0) return rc;
    }
    *out = x;
    return 0;
}

/* ---- nested access: struct fields, array and map subscripts --------------------------- */

typedef struct field_state {
    int32_t index;
} field_state;

/* A child of a struct array, sharing nothing: a copy of the child with the parent's nulls. */
static int eval_get_field(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                          int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    const field_state *st = call->fn_state;
    const hudi_array *s = args[0].array;
    const hudi_array *child = s->children[st->index];
    hudi_array *a = NULL;
    int rc = hudi_array_new(&a, &call->type, err);
    if (rc < 0) return rc;
    for (int64_t i = 0; i < nrows && rc == 0; i++) {
        int64_t r = args[0].is_const ? 0 : i;
        if (!hudi_array_is_valid(s, r))
            rc = hudi_array_append_null(a, err);
        else
            rc = hudi_array_append_range(a, child, r, 1, err);
    }
    if (rc < 0) {
        hudi_array_free(a);
        return rc;
    }
    *out = a;
    return 0;
}

static const hudi_sql_func get_field_fn = {
    "get_field", HUDI_SQL_FN_SCALAR, 1,    1,
    NULL,        eval_get_field,     NULL, "s.field - a field of a struct"};

static int struct_field(hudi_sql_binder *b, hudi_sql_bexpr *base, const char *field,
                        hudi_sql_pos pos, hudi_sql_bexpr **out) {
    if (base->type.type != HUDI_TYPE_STRUCT)
        return ERR(b, pos, HUDI_ESQL, "cannot take field '%s' of a value of type %s", field,
                   hudi_type_name(base->type.type));
    for (int32_t i = 0; i < base->type.n_children; i++) {
        if (!hudi_sql_ident_eq(base->type.children[i].name, field)) continue;
        hudi_sql_bexpr *e = bx_new(b, HUDI_SQL_BX_CALL);
        field_state *st = alloc(b, sizeof(*st));
        hudi_sql_bexpr **args = alloc(b, sizeof(*args));
        if (!e || !st || !args) return oom(b);
        if (hudi_sql_field_copy(&b->r->arena, &e->type, &base->type.children[i]) < 0) return oom(b);
        e->type.nullable = true;
        st->index = i;
        args[0] = base;
        e->fn = &get_field_fn;
        e->fn_state = st;
        e->args = args;
        e->n_args = 1;
        e->pos = pos;
        e->text = e->type.name;
        *out = e;
        return hudi_sql_fold(b, out);
    }
    hudi_buf o = HUDI_BUF_INIT;
    hudi_sql_type_spark_name(&o, &base->type);
    int rc = ERR(b, pos, HUDI_ESQL, "No such struct field `%s` in %s", field, o.data ? o.data : "");
    hudi_buf_dispose(&o);
    return rc;
}

/* ---- literals ----------------------------------------------------------------------------- */

static int bind_number(hudi_sql_binder *b, const hudi_sql_expr *e, hudi_sql_bexpr **out) {
    const char *t = e->text;
    switch (e->lit) {
    case HUDI_SQL_L_INT:
    case HUDI_SQL_L_BIGINT:
    case HUDI_SQL_L_SMALLINT:
    case HUDI_SQL_L_TINYINT: {
        errno = 0;
        char *end;
        long long v = strtoll(t, &end, 10);
        bool overflow = errno == ERANGE || *end;
        if (e->lit == HUDI_SQL_L_INT && !overflow && v >= INT32_MIN && v <= INT32_MAX) {
            int32_t x = (int32_t)v;
            return const_of(b, HUDI_TYPE_INT32, &x, NULL, 0, out);
        }
        if (e->lit == HUDI_SQL_L_SMALLINT) {
            if (overflow || v < INT16_MIN || v > INT16_MAX)
                return ERR(
                    b, e->pos, HUDI_ESQL,
                    "Numeric literal %s does not fit in range [-32768, 32767] for type smallint",
                    t);
            int16_t x = (int16_t)v;
            return const_of(b, HUDI_TYPE_INT16, &x, NULL, 0, out);
        }
        if (e->lit == HUDI_SQL_L_TINYINT) {
            if (overflow || v < INT8_MIN || v > INT8_MAX)
                return ERR(b, e->pos, HUDI_ESQL,
                           "Numeric literal %s does not fit in range [-128, 127] for type tinyint",
                           t);
            int8_t x = (int8_t)v;
            return const_of(b, HUDI_TYPE_INT8, &x, NULL, 0, out);
        }
        if (!overflow) {
            int64_t x = v;
            return const_of(b, HUDI_TYPE_INT64, &x, NULL, 0, out);
        }
        if (e->lit == HUDI_SQL_L_BIGINT)
            return ERR(b, e->pos, HUDI_ESQL,
                       "Numeric literal %s does not fit in range for type bigint", t);
        __attribute__((fallthrough)); /* an INT literal too big for bigint is a decimal */
    }
    case HUDI_SQL_L_DECIMAL:
    case HUDI_SQL_L_BIGDEC: {
        /* digits[.digits][e[+-]n] as DECIMAL(p, s) */
        __int128 v = 0;
        int digits = 0, scale = 0, exp = 0;
        bool neg = false, frac = false;
        const char *p = t;
        if (*p == '-' || *p == '+') neg = *p++ == '-';
        for (; *p; p++) {
            if (*p == '.') {
                frac = true;
                continue;
            }
            if (*p == 'e' || *p == 'E') {
                exp = atoi(p + 1);
                break;
            }
            if (*p < '0' || *p > '9') break;
            if (digits >= 38)
                return ERR(b, e->pos, HUDI_ESQL, "decimal literal %s has more than 38 digits", t);
            v = v * 10 + (*p - '0');
            if (v != 0 || frac) digits++;
            if (frac) scale++;
        }
        scale -= exp;
        while (scale < 0) {
            v *= 10;
            digits++;
            scale++;
        }
        if (neg) v = -v;
        int precision = digits > scale ? digits : scale;
        if (precision == 0) precision = 1;
        if (precision > 38)
            return ERR(b, e->pos, HUDI_ESQL, "decimal literal %s has more than 38 digits", t);
        hudi_field f;
        if (hudi_field_init(&f, "", HUDI_TYPE_DECIMAL, true) < 0) return oom(b);
        f.precision = precision;
        f.scale = scale;
        hudi_array *tmp = NULL;
        int rc = hudi_array_new(&tmp, &f, b->err);
        uint8_t bytes[16];
        memcpy(bytes, &v, 16);
        if (rc == 0) rc = hudi_array_append_fixed(tmp, bytes, b->err);
        if (rc == 0) rc = hudi_sql_bx_const(b, &f, tmp, 0, out);
        hudi_array_free(tmp);
        hudi_field_dispose(&f);
        return rc;
    }
    case HUDI_SQL_L_DOUBLE: {
        double d = strtod(t, NULL);
        return const_of(b, HUDI_TYPE_DOUBLE, &d, NULL, 0, out);
    }
    case HUDI_SQL_L_FLOAT: {
        float f = strtof(t, NULL);
        return const_of(b, HUDI_TYPE_FLOAT, &f, NULL, 0, out);
    }
    default: return ERR(b, e->pos, HUDI_ESQL, "unexpected literal");
    }
}

static int cast_const_string(hudi_sql_binder *b, const hudi_sql_expr *e, hudi_type_id to, bool utc,
                             hudi_sql_bexpr **out) {
    hudi_sql_bexpr *s;
    int rc = hudi_sql_bx_string(b, e->text, e->text_len, &s);
    if (rc < 0) return rc;
    hudi_field f;
    if (hudi_field_init(&f, "", to, true) < 0) return oom(b);
    f.utc = utc;
    f.unit = HUDI_UNIT_MICROS;
    rc = hudi_sql_bind_cast(b->ctx, s, &f, out, b->err);
    hudi_field_dispose(&f);
    if (rc == 0) rc = hudi_sql_fold(b, out);
    if (rc == 0 && is_const(*out) && !hudi_array_is_valid((*out)->value, 0))
        return ERR(b, e->pos, HUDI_ESQL, "Cannot parse the %s value: '%s'",
                   to == HUDI_TYPE_DATE ? "DATE" : "TIMESTAMP", e->text);
    return rc;
}

static int bind_literal(hudi_sql_binder *b, const hudi_sql_expr *e, hudi_sql_bexpr **out) {
    int rc;
    switch (e->lit) {
    case HUDI_SQL_L_NULL: rc = const_of(b, HUDI_TYPE_NULL, NULL, NULL, 0, out); break;
    case HUDI_SQL_L_BOOL: rc = hudi_sql_bx_bool(b, strcmp(e->text, "true") == 0, out); break;
    case HUDI_SQL_L_STRING: rc = hudi_sql_bx_string(b, e->text, e->text_len, out); break;
    case HUDI_SQL_L_BINARY:
        rc = const_of(b, HUDI_TYPE_BINARY, NULL, e->text, e->text_len, out);
        break;
    case HUDI_SQL_L_DATE: rc = cast_const_string(b, e, HUDI_TYPE_DATE, false, out); break;
    case HUDI_SQL_L_TIMESTAMP:
    case HUDI_SQL_L_TIMESTAMP_LTZ:
        rc = cast_const_string(b, e, HUDI_TYPE_TIMESTAMP, true, out);
        break;
    case HUDI_SQL_L_TIMESTAMP_NTZ:
        rc = cast_const_string(b, e, HUDI_TYPE_TIMESTAMP, false, out);
        break;
    case HUDI_SQL_L_INTERVAL:
        return ERR(b, e->pos, HUDI_EUNSUPPORTED, "INTERVAL literals are not supported yet");
    default: rc = bind_number(b, e, out); break;
    }
    if (rc == 0) {
        (*out)->pos = e->pos;
        (*out)->text = display_name(b, e);
    }
    return rc;
}

/* ---- expressions ----------------------------------------------------------------------- */

static int bind_list(hudi_sql_binder *b, const hudi_sql_scope *sc, hudi_sql_aggctx *agg,
                     const hudi_sql_list *l, uint32_t from, hudi_sql_bexpr **dst) {
    for (uint32_t i = from; i < l->len; i++) {
        int rc = hudi_sql_bind_expr(b, sc, agg, HUDI_SQL_AT(*l, hudi_sql_expr, i), &dst[i - from]);
        if (rc < 0) return rc;
    }
    return 0;
}

static int scalar_subquery(hudi_sql_binder *b, const hudi_sql_expr *e, hudi_sql_bexpr **out);
static int bind_agg_call(hudi_sql_binder *b, hudi_sql_aggctx *agg, const hudi_sql_expr *e,
                         const hudi_sql_func *fn, hudi_sql_bexpr **out);

/* GROUP BY match: the expression is one of the grouping expressions. */
static int32_t group_match(hudi_sql_binder *b, hudi_sql_aggctx *agg, const hudi_sql_expr *e) {
    if (!agg || agg->n_group == 0) return -1;
    if (e->kind == HUDI_SQL_E_LITERAL) return -1;
    char *t = hudi_sql_canon(b, e);
    if (!t) return -1;
    for (int32_t i = 0; i < agg->n_group; i++)
        if (agg->group_text[i] && strcmp(agg->group_text[i], t) == 0) return i;
    /* a bare column also matches a qualified grouping column and the other way round */
    if (e->kind == HUDI_SQL_E_COLUMN)
        for (int32_t i = 0; i < agg->n_group; i++) {
            const hudi_sql_expr *g = agg->group_ast[i];
            if (!g || g->kind != HUDI_SQL_E_COLUMN) continue;
            const char *a = HUDI_SQL_AT(e->name.parts, const char, e->name.parts.len - 1);
            const char *c = HUDI_SQL_AT(g->name.parts, const char, g->name.parts.len - 1);
            if (hudi_sql_ident_eq(a, c) && (e->name.parts.len == 1 || g->name.parts.len == 1))
                return i;
        }
    return -1;
}

static int bind_expr_node(hudi_sql_binder *b, const hudi_sql_scope *sc, hudi_sql_aggctx *agg,
                          const hudi_sql_expr *e, hudi_sql_bexpr **out);

/* Binds `e`; every node gets the text Spark would name it by (for column names and EXPLAIN). */
int hudi_sql_bind_expr(hudi_sql_binder *b, const hudi_sql_scope *sc, hudi_sql_aggctx *agg,
                       const hudi_sql_expr *e, hudi_sql_bexpr **out) {
    int rc = bind_expr_node(b, sc, agg, e, out);
    if (rc == 0 && *out && (*out)->kind != HUDI_SQL_BX_COLUMN && e->kind != HUDI_SQL_E_ALIAS) {
        hudi_sql_bexpr *c = *out;
        if (c->kind == HUDI_SQL_BX_CONST && e->kind != HUDI_SQL_E_LITERAL) {
            /* a folded expression: a node of its own, so the shared constant keeps its name */
            hudi_sql_bexpr *copy = hudi_arena_alloc(&b->r->arena, sizeof(*copy));
            if (!copy) return oom(b);
            *copy = *c;
            *out = c = copy;
        }
        if (c->kind != HUDI_SQL_BX_CONST || e->kind != HUDI_SQL_E_LITERAL || !c->text)
            c->text = display_name(b, e);
        if (!c->text) return oom(b);
    }
    return rc;
}

static int bind_expr_node(hudi_sql_binder *b, const hudi_sql_scope *sc, hudi_sql_aggctx *agg,
                          const hudi_sql_expr *e, hudi_sql_bexpr **out) {
    int rc = 0;
    hudi_sql_bexpr *l = NULL, *r = NULL;
    if (agg) {
        int32_t g = group_match(b, agg, e);
        if (g >= 0) {
            *out = hudi_sql_bx_column(b, g, &agg->group[g]->type);
            if (!*out) return oom(b);
            (*out)->pos = e->pos;
            return 0;
        }
    }
    switch (e->kind) {
    case HUDI_SQL_E_LITERAL: return bind_literal(b, e, out);
    case HUDI_SQL_E_COLUMN:
        if (agg) {
            /* not a grouping expression: resolvable below, so the error says why */
            hudi_sql_bexpr *probe;
            if ((rc = bind_column(b, agg->pre, e, &probe)) < 0) return rc;
            return ERR(b, e->pos, HUDI_ESQL,
                       "[MISSING_AGGREGATION] The non-aggregating expression %s is based on "
                       "columns which are not participating in the GROUP BY clause",
                       display_name(b, e));
        }
        return bind_column(b, sc, e, out);
    case HUDI_SQL_E_STAR:
        return ERR(b, e->pos, HUDI_ESQL, "'*' is only allowed in a SELECT list or count(*)");
    case HUDI_SQL_E_UNARY:
        if ((rc = hudi_sql_bind_expr(b, sc, agg, e->left, &l)) < 0) return rc;
        switch (e->op) {
        case HUDI_SQL_OP_NOT: return call1(b, "not", l, e->pos, out);
        case HUDI_SQL_OP_NEG: return call1(b, "negative", l, e->pos, out);
        case HUDI_SQL_OP_PLUS: return call1(b, "positive", l, e->pos, out);
        case HUDI_SQL_OP_BITNOT: return call1(b, "~", l, e->pos, out);
        default: return ERR(b, e->pos, HUDI_ESQL, "unknown unary operator");
        }
    case HUDI_SQL_E_BINARY: {
        const char *fn = binary_fn(e->op);
        if (!fn) return ERR(b, e->pos, HUDI_ESQL, "unknown operator");
        if ((rc = hudi_sql_bind_expr(b, sc, agg, e->left, &l)) < 0) return rc;
        if ((rc = hudi_sql_bind_expr(b, sc, agg, e->right, &r)) < 0) return rc;
        if ((rc = call2(b, fn, l, r, e->pos, out)) < 0) return rc;
        break;
    }
    case HUDI_SQL_E_IS: {
        if ((rc = hudi_sql_bind_expr(b, sc, agg, e->left, &l)) < 0) return rc;
        const char *fn = e->op == HUDI_SQL_OP_IS_NULL   ? (e->negated ? "isnotnull" : "isnull")
                         : e->op == HUDI_SQL_OP_IS_TRUE ? (e->negated ? "is_not_true" : "is_true")
                         : e->op == HUDI_SQL_OP_IS_FALSE
                             ? (e->negated ? "is_not_false" : "is_false")
                             : (e->negated ? "isnotnull" : "isnull");
        if ((rc = call1(b, fn, l, e->pos, out)) < 0) return rc;
        break;
    }
    case HUDI_SQL_E_IS_DISTINCT:
        if ((rc = hudi_sql_bind_expr(b, sc, agg, e->left, &l)) < 0) return rc;
        if ((rc = hudi_sql_bind_expr(b, sc, agg, e->right, &r)) < 0) return rc;
        if ((rc = call2(b, "<=>", l, r, e->pos, out)) < 0) return rc;
        if (!e->negated && (rc = call1(b, "not", *out, e->pos, out)) < 0) return rc;
        break;
    case HUDI_SQL_E_IN_LIST: {
        int32_t n = (int32_t)e->args.len + 1;
        hudi_sql_bexpr **args = alloc(b, sizeof(*args) * (size_t)n);
        if (!args) return oom(b);
        if ((rc = hudi_sql_bind_expr(b, sc, agg, e->left, &args[0])) < 0) return rc;
        if ((rc = bind_list(b, sc, agg, &e->args, 0, args + 1)) < 0) return rc;
        if ((rc = call(b, "in", args, n, e->pos, out)) < 0) return rc;
        if (e->negated && (rc = call1(b, "not", *out, e->pos, out)) < 0) return rc;
        break;
    }
    case HUDI_SQL_E_BETWEEN: {
        hudi_sql_bexpr *lo, *hi, *x2;
        if ((rc = hudi_sql_bind_expr(b, sc, agg, e->left, &l)) < 0) return rc;
        if ((rc = hudi_sql_bind_expr(b, sc, agg, HUDI_SQL_AT(e->args, hudi_sql_expr, 0), &lo)) < 0)
            return rc;
        if ((rc = hudi_sql_bind_expr(b, sc, agg, HUDI_SQL_AT(e->args, hudi_sql_expr, 1), &hi)) < 0)
            return rc;
        if ((rc = call2(b, ">=", l, lo, e->pos, &x2)) < 0) return rc;
        if ((rc = call2(b, "<=", l, hi, e->pos, &r)) < 0) return rc;
        if ((rc = call2(b, "and", x2, r, e->pos, out)) < 0) return rc;
        if (e->negated && (rc = call1(b, "not", *out, e->pos, out)) < 0) return rc;
        break;
    }
    case HUDI_SQL_E_LIKE: {
        const char *fn = e->op == HUDI_SQL_OP_ILIKE   ? "ilike"
                         : e->op == HUDI_SQL_OP_RLIKE ? "rlike"
                                                      : "like";
        hudi_sql_bexpr *args3[3];
        int32_t n = e->escape ? 3 : 2;
        if ((rc = hudi_sql_bind_expr(b, sc, agg, e->left, &args3[0])) < 0) return rc;
        if ((rc = hudi_sql_bind_expr(b, sc, agg, e->right, &args3[1])) < 0) return rc;
        if (e->escape && (rc = hudi_sql_bind_expr(b, sc, agg, e->escape, &args3[2])) < 0) return rc;
        hudi_sql_bexpr **args = alloc(b, sizeof(*args) * 3);
        if (!args) return oom(b);
        memcpy(args, args3, sizeof(args3));
        if ((rc = call(b, fn, args, n, e->pos, out)) < 0) return rc;
        if (e->negated && (rc = call1(b, "not", *out, e->pos, out)) < 0) return rc;
        break;
    }
    case HUDI_SQL_E_CASE: {
        /* "case" takes when1, then1, ..., whenN, thenN[, else]; CASE x WHEN v ... is bound as
         * WHEN x = v */
        int32_t pairs = (int32_t)e->args.len / 2;
        int32_t n = 2 * pairs + (e->right ? 1 : 0);
        hudi_sql_bexpr **args = alloc(b, sizeof(*args) * (size_t)(n ? n : 1));
        hudi_sql_bexpr *subject = NULL;
        if (!args) return oom(b);
        if (e->left && (rc = hudi_sql_bind_expr(b, sc, agg, e->left, &subject)) < 0) return rc;
        for (int32_t i = 0; i < pairs; i++) {
            hudi_sql_bexpr *w;
            if ((rc = hudi_sql_bind_expr(b, sc, agg, HUDI_SQL_AT(e->args, hudi_sql_expr, 2 * i),
                                         &w)) < 0)
                return rc;
            if (subject && (rc = call2(b, "=", subject, w, e->pos, &w)) < 0) return rc;
            args[2 * i] = w;
            if ((rc = hudi_sql_bind_expr(b, sc, agg, HUDI_SQL_AT(e->args, hudi_sql_expr, 2 * i + 1),
                                         &args[2 * i + 1])) < 0)
                return rc;
        }
        if (e->right && (rc = hudi_sql_bind_expr(b, sc, agg, e->right, &args[n - 1])) < 0)
            return rc;
        if ((rc = call(b, "case", args, n, e->pos, out)) < 0) return rc;
        break;
    }
    case HUDI_SQL_E_CAST: {
        if ((rc = hudi_sql_bind_expr(b, sc, agg, e->left, &l)) < 0) return rc;
        hudi_field to;
        if ((rc = hudi_sql_type_from_ast(&b->r->arena, e->type, "", &to, b->err)) < 0) return rc;
        if ((rc = hudi_sql_bind_cast(b->ctx, l, &to, out, b->err)) < 0) return rc;
        if ((rc = hudi_sql_fold(b, out)) < 0) return rc;
        break;
    }
    case HUDI_SQL_E_FUNC: {
        if (e->over)
            return ERR(b, e->pos, HUDI_EUNSUPPORTED,
                       "window functions (OVER) are not supported yet");
        uint32_t np = e->name.parts.len;
        const char *name = HUDI_SQL_AT(e->name.parts, const char, np - 1);
        const hudi_sql_func *fn = hudi_sql_func_lookup(name);
        if (!fn)
            return ERR(b, e->pos, HUDI_ESQL,
                       "[UNRESOLVED_ROUTINE] Cannot resolve function `%s` on search path", name);
        if (fn->kind == HUDI_SQL_FN_AGGREGATE) {
            if (!agg)
                return ERR(b, e->pos, HUDI_ESQL,
                           "aggregate function %s is not allowed here (only in SELECT, HAVING "
                           "and ORDER BY of a query)",
                           name);
            return bind_agg_call(b, agg, e, fn, out);
        }
        if (e->distinct)
            return ERR(b, e->pos, HUDI_ESQL, "DISTINCT is only allowed in aggregate functions");
        int32_t n = (int32_t)e->args.len;
        hudi_sql_bexpr **args = alloc(b, sizeof(*args) * (size_t)(n ? n : 1));
        if (!args) return oom(b);
        for (int32_t i = 0; i < n; i++) {
            const hudi_sql_expr *a = HUDI_SQL_AT(e->args, hudi_sql_expr, i);
            if (a->kind == HUDI_SQL_E_ALIAS) a = a->left;
            if ((rc = hudi_sql_bind_expr(b, sc, agg, a, &args[i])) < 0) return rc;
        }
        char *lname = hudi_sql_lower(&b->r->arena, name);
        if (!lname) return oom(b);
        if ((rc = call(b, lname, args, n, e->pos, out)) < 0) return rc;
        break;
    }
    case HUDI_SQL_E_FIELD:
        if ((rc = hudi_sql_bind_expr(b, sc, agg, e->left, &l)) < 0) return rc;
        if ((rc = struct_field(b, l, e->field, e->pos, out)) < 0) return rc;
        break;
    case HUDI_SQL_E_SUBSCRIPT:
        if ((rc = hudi_sql_bind_expr(b, sc, agg, e->left, &l)) < 0) return rc;
        if ((rc = hudi_sql_bind_expr(b, sc, agg, e->right, &r)) < 0) return rc;
        /* Spark: arr[i] is 0-based, map[k] a lookup; element_at is 1-based */
        if (l->type.type == HUDI_TYPE_LIST) {
            hudi_sql_bexpr *one;
            int32_t v = 1;
            if ((rc = const_of(b, HUDI_TYPE_INT32, &v, NULL, 0, &one)) < 0) return rc;
            if ((rc = call2(b, "+", r, one, e->pos, &r)) < 0) return rc;
        }
        if ((rc = call2(b, "element_at", l, r, e->pos, out)) < 0) return rc;
        break;
    case HUDI_SQL_E_SUBQUERY: return scalar_subquery(b, e, out);
    case HUDI_SQL_E_ROW:
        return ERR(b, e->pos, HUDI_EUNSUPPORTED, "row values are not supported here");
    case HUDI_SQL_E_IN_QUERY:
    case HUDI_SQL_E_EXISTS:
        return ERR(b, e->pos, HUDI_EUNSUPPORTED,
                   "IN and EXISTS subqueries are supported only as conditions of WHERE (ANDed), "
                   "not inside other expressions yet");
    case HUDI_SQL_E_ALIAS: return hudi_sql_bind_expr(b, sc, agg, e->left, out);
    case HUDI_SQL_E_NAMED_ARG:
        return ERR(b, e->pos, HUDI_ESQL, "named arguments (=>) are only allowed in CALL");
    }
    return rc;
}

static int bind_agg_call(hudi_sql_binder *b, hudi_sql_aggctx *agg, const hudi_sql_expr *e,
                         const hudi_sql_func *fn, hudi_sql_bexpr **out) {
    char *t = hudi_sql_canon(b, e);
    if (!t) return oom(b);
    int32_t j = -1;
    for (int32_t i = 0; i < agg->n_aggs; i++)
        if (strcmp(agg->agg_text[i], t) == 0) j = i;
    if (j < 0) {
        hudi_sql_aggcall *ac = alloc(b, sizeof(*ac));
        if (!ac) return oom(b);
        ac->fn = fn;
        ac->distinct = e->distinct;
        int32_t n = (int32_t)e->args.len;
        if (n == 1 && HUDI_SQL_AT(e->args, hudi_sql_expr, 0)->kind == HUDI_SQL_E_STAR) {
            ac->star = true;
            n = 0;
        }
        ac->args = alloc(b, sizeof(*ac->args) * (size_t)(n ? n : 1));
        hudi_field *types = alloc(b, sizeof(*types) * (size_t)(n ? n : 1));
        if (!ac->args || !types) return oom(b);
        ac->n_args = n;
        for (int32_t i = 0; i < n; i++) {
            /* arguments are bound below the aggregate; nested aggregates are refused there */
            int rc = hudi_sql_bind_expr(b, agg->pre, NULL, HUDI_SQL_AT(e->args, hudi_sql_expr, i),
                                        &ac->args[i]);
            if (rc < 0) return rc;
            types[i] = ac->args[i]->type;
        }
        if (e->filter) {
            int rc = hudi_sql_bind_expr(b, agg->pre, NULL, e->filter, &ac->filter);
            if (rc < 0) return rc;
        }
        if ((fn->min_args >= 0 && n < fn->min_args && !ac->star) ||
            (fn->max_args >= 0 && n > fn->max_args))
            return ERR(b, e->pos, HUDI_ESQL, "%s takes %d to %d arguments, not %d", fn->name,
                       fn->min_args, fn->max_args, n);
        hudi_sql_bind_call bc;
        memset(&bc, 0, sizeof(bc));
        bc.ctx = b->ctx;
        bc.name = fn->name;
        bc.n_args = n;
        bc.args = ac->args;
        bc.arg_types = types;
        bc.pos = e->pos;
        bc.result.field_id = -1;
        int rc = fn->bind ? fn->bind(&bc, b->err) : 0;
        if (rc < 0) return rc;
        for (int32_t i = 0; i < n; i++)
            if (!hudi_sql_type_equal(&types[i], &ac->args[i]->type) &&
                (rc = hudi_sql_bind_cast(b->ctx, ac->args[i], &types[i], &ac->args[i], b->err)) < 0)
                return rc;
        ac->type = bc.result;
        ac->type.nullable = true;
        if (agg->n_aggs == agg->cap_aggs) {
            int32_t cap = agg->cap_aggs ? 2 * agg->cap_aggs : 8;
            hudi_sql_aggcall **a2 = alloc(b, sizeof(*a2) * (size_t)cap);
            char **t2 = alloc(b, sizeof(*t2) * (size_t)cap);
            if (!a2 || !t2) return oom(b);
            if (agg->n_aggs) {
                memcpy(a2, agg->aggs, sizeof(*a2) * (size_t)agg->n_aggs);
                memcpy(t2, agg->agg_text, sizeof(*t2) * (size_t)agg->n_aggs);
            }
            agg->aggs = a2;
            agg->agg_text = t2;
            agg->cap_aggs = cap;
        }
        j = agg->n_aggs++;
        agg->aggs[j] = ac;
        agg->agg_text[j] = t;
    }
    *out = hudi_sql_bx_column(b, agg->n_group + j, &agg->aggs[j]->type);
    if (!*out) return oom(b);
    (*out)->pos = e->pos;
    (*out)->text = display_name(b, e);
    return 0;
}

static int scalar_subquery(hudi_sql_binder *b, const hudi_sql_expr *e, hudi_sql_bexpr **out) {
    hudi_sql_plan *p;
    int rc = hudi_sql_bind_query(b, e->query, &p, NULL);
    if (rc < 0) return rc;
    if (p->schema.n_children != 1)
        return ERR(b, e->pos, HUDI_ESQL, "a scalar subquery must return one column, not %d",
                   p->schema.n_children);
    if ((rc = hudi_sql_optimize(b, &p)) < 0) return rc;
    hudi_batch *rows = NULL;
    if ((rc = hudi_sql_collect(b->ctx, p, &rows, b->err)) < 0) return rc;
    if (rows->num_rows > 1) {
        hudi_batch_free(rows);
        return ERR(b, e->pos, HUDI_ESQL,
                   "more than one row returned by a subquery used as an expression");
    }
    rc = hudi_sql_bx_const(b, &p->schema.children[0], rows->num_rows ? rows->columns[0] : NULL, 0,
                           out);
    hudi_batch_free(rows);
    if (rc == 0) (*out)->pos = e->pos;
    return rc;
}
