/* ast_print.c - a deterministic S-expression rendering of the syntax tree, for golden tests
 * (tests/sql/parse) and debugging. Each node is first written on one line; lists that do not
 * fit in 100 columns are then broken, one child per line, indented by two.
 *
 * Invariant: the output depends only on the tree (never on addresses or arena layout), and
 * every name or string is quoted so that the layout pass can split it unambiguously. */
#include "sql/ast.h"

typedef struct W {
    hudi_buf *b;
} W;

static void puts_(W *w, const char *s) { hudi_buf_puts(w->b, s); }
static void open_(W *w, const char *head) {
    hudi_buf_putc(w->b, '(');
    hudi_buf_puts(w->b, head);
}
static void close_(W *w) { hudi_buf_putc(w->b, ')'); }
static void sp(W *w) { hudi_buf_putc(w->b, ' '); }
static void atom(W *w, const char *s) {
    sp(w);
    puts_(w, s);
}

static bool bare_ident(const char *s) {
    if (!s[0] || (s[0] >= '0' && s[0] <= '9')) return false;
    for (const char *c = s; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '_'))
            return false;
    return true;
}

static void ident(W *w, const char *s) {
    if (bare_ident(s)) {
        puts_(w, s);
        return;
    }
    hudi_buf_putc(w->b, '`');
    for (const char *c = s; *c; c++) {
        if (*c == '`') hudi_buf_putc(w->b, '`');
        hudi_buf_putc(w->b, *c);
    }
    hudi_buf_putc(w->b, '`');
}

static void name(W *w, const hudi_sql_name *n) {
    for (uint32_t i = 0; i < n->parts.len; i++) {
        if (i) hudi_buf_putc(w->b, '.');
        ident(w, HUDI_SQL_AT(n->parts, char, i));
    }
}

static void sname(W *w, const hudi_sql_name *n) {
    sp(w);
    name(w, n);
}

static void str(W *w, const char *s, size_t n) {
    hudi_buf_putc(w->b, '\'');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '\'': puts_(w, "\\'"); break;
        case '\\': puts_(w, "\\\\"); break;
        case '\n': puts_(w, "\\n"); break;
        case '\t': puts_(w, "\\t"); break;
        case '\r': puts_(w, "\\r"); break;
        default:
            if (c < 0x20 || c == 0x7f)
                hudi_buf_printf(w->b, "\\x%02x", c);
            else
                hudi_buf_putc(w->b, (char)c);
        }
    }
    hudi_buf_putc(w->b, '\'');
}

static void sstr(W *w, const char *s) {
    sp(w);
    str(w, s, strlen(s));
}

static void tagged_str(W *w, const char *tag, const char *s) {
    if (!s) return;
    sp(w);
    open_(w, tag);
    sstr(w, s);
    close_(w);
}

static void flag(W *w, bool on, const char *word) {
    if (on) atom(w, word);
}

static void ident_list(W *w, const char *tag, const hudi_sql_list *l) {
    if (!l->len) return;
    sp(w);
    open_(w, tag);
    for (uint32_t i = 0; i < l->len; i++) {
        sp(w);
        ident(w, HUDI_SQL_AT(*l, char, i));
    }
    close_(w);
}

const char *hudi_sql_type_name(hudi_sql_type_kind kind) {
    static const char *const names[] = {
        "boolean",       "tinyint",       "smallint", "int",     "bigint", "float", "double",
        "decimal",       "string",        "char",     "varchar", "binary", "date",  "timestamp",
        "timestamp_ntz", "timestamp_ltz", "interval", "void",    "array",  "map",   "struct",
    };
    return (size_t)kind < HUDI_ARRAY_LEN(names) ? names[kind] : "?";
}

static void expr(W *w, const hudi_sql_expr *e);
static void query(W *w, const hudi_sql_query *q);
static void stmt(W *w, const hudi_sql_stmt *s);
static void coldef(W *w, const hudi_sql_coldef *c);

static void type(W *w, const hudi_sql_type *t) {
    const char *n = hudi_sql_type_name(t->kind);
    switch (t->kind) {
    case HUDI_SQL_T_ARRAY:
        open_(w, "array ");
        type(w, t->elem);
        close_(w);
        return;
    case HUDI_SQL_T_MAP:
        open_(w, "map ");
        type(w, t->elem);
        sp(w);
        type(w, t->value);
        close_(w);
        return;
    case HUDI_SQL_T_STRUCT:
        open_(w, "struct");
        for (uint32_t i = 0; i < t->fields.len; i++) {
            sp(w);
            coldef(w, HUDI_SQL_AT(t->fields, hudi_sql_coldef, i));
        }
        close_(w);
        return;
    default:
        if (t->precision < 0) {
            puts_(w, n);
        } else {
            open_(w, n);
            hudi_buf_printf(w->b, " %d", t->precision);
            if (t->scale >= 0) hudi_buf_printf(w->b, " %d", t->scale);
            close_(w);
        }
    }
}

static void props(W *w, const char *tag, const hudi_sql_list *l, bool always) {
    if (!l->len && !always) return;
    sp(w);
    open_(w, tag);
    for (uint32_t i = 0; i < l->len; i++) {
        const hudi_sql_prop *p = HUDI_SQL_AT(*l, hudi_sql_prop, i);
        if (!p->value) {
            sstr(w, p->key);
            continue;
        }
        sp(w);
        open_(w, "");
        str(w, p->key, strlen(p->key));
        sp(w);
        expr(w, p->value);
        close_(w);
    }
    close_(w);
}

static void hints(W *w, const hudi_sql_list *l) {
    if (!l->len) return;
    sp(w);
    open_(w, "hints");
    for (uint32_t i = 0; i < l->len; i++) {
        const hudi_sql_hint *h = HUDI_SQL_AT(*l, hudi_sql_hint, i);
        sp(w);
        open_(w, "");
        ident(w, h->name);
        for (uint32_t j = 0; j < h->args.len; j++) {
            sp(w);
            expr(w, HUDI_SQL_AT(h->args, hudi_sql_expr, j));
        }
        if (h->props.len) props(w, "props", &h->props, true);
        close_(w);
    }
    close_(w);
}

static void coldef(W *w, const hudi_sql_coldef *c) {
    hudi_buf_putc(w->b, '(');
    name(w, &c->name);
    if (c->type) {
        sp(w);
        type(w, c->type);
    }
    flag(w, c->not_null, "not_null");
    flag(w, c->primary_key, "primary_key");
    tagged_str(w, "comment", c->comment);
    flag(w, c->position == 1, "first");
    if (c->position == 2) {
        sp(w);
        open_(w, "after");
        sname(w, &c->after);
        close_(w);
    }
    if (c->options.len) props(w, "options", &c->options, true);
    close_(w);
}

static const char *op_name(hudi_sql_op op) {
    switch (op) {
    case HUDI_SQL_OP_NEG: return "-";
    case HUDI_SQL_OP_PLUS: return "+";
    case HUDI_SQL_OP_BITNOT: return "~";
    case HUDI_SQL_OP_NOT: return "not";
    case HUDI_SQL_OP_OR: return "or";
    case HUDI_SQL_OP_AND: return "and";
    case HUDI_SQL_OP_EQ: return "=";
    case HUDI_SQL_OP_NE: return "<>";
    case HUDI_SQL_OP_LT: return "<";
    case HUDI_SQL_OP_LE: return "<=";
    case HUDI_SQL_OP_GT: return ">";
    case HUDI_SQL_OP_GE: return ">=";
    case HUDI_SQL_OP_NULLSAFE_EQ: return "<=>";
    case HUDI_SQL_OP_BITOR: return "|";
    case HUDI_SQL_OP_BITXOR: return "^";
    case HUDI_SQL_OP_BITAND: return "&";
    case HUDI_SQL_OP_SHL: return "<<";
    case HUDI_SQL_OP_SHR: return ">>";
    case HUDI_SQL_OP_USHR: return ">>>";
    case HUDI_SQL_OP_ADD: return "+";
    case HUDI_SQL_OP_SUB: return "-";
    case HUDI_SQL_OP_CONCAT: return "||";
    case HUDI_SQL_OP_MUL: return "*";
    case HUDI_SQL_OP_DIV: return "/";
    case HUDI_SQL_OP_MOD: return "%";
    case HUDI_SQL_OP_IDIV: return "div";
    case HUDI_SQL_OP_IS_NULL: return "null";
    case HUDI_SQL_OP_IS_TRUE: return "true";
    case HUDI_SQL_OP_IS_FALSE: return "false";
    case HUDI_SQL_OP_IS_UNKNOWN: return "unknown";
    case HUDI_SQL_OP_LIKE: return "like";
    case HUDI_SQL_OP_ILIKE: return "ilike";
    case HUDI_SQL_OP_RLIKE: return "rlike";
    default: return "?";
    }
}

static void literal(W *w, const hudi_sql_expr *e) {
    static const char *const suffix[] = {
        [HUDI_SQL_L_INT] = "",      [HUDI_SQL_L_BIGINT] = "L", [HUDI_SQL_L_SMALLINT] = "S",
        [HUDI_SQL_L_TINYINT] = "Y", [HUDI_SQL_L_DECIMAL] = "", [HUDI_SQL_L_BIGDEC] = "BD",
        [HUDI_SQL_L_DOUBLE] = "D",  [HUDI_SQL_L_FLOAT] = "F",
    };
    switch (e->lit) {
    case HUDI_SQL_L_NULL:
    case HUDI_SQL_L_BOOL: puts_(w, e->text); return;
    case HUDI_SQL_L_INT:
    case HUDI_SQL_L_BIGINT:
    case HUDI_SQL_L_SMALLINT:
    case HUDI_SQL_L_TINYINT:
    case HUDI_SQL_L_DECIMAL:
    case HUDI_SQL_L_BIGDEC:
    case HUDI_SQL_L_DOUBLE:
    case HUDI_SQL_L_FLOAT:
        puts_(w, e->text);
        puts_(w, suffix[e->lit]);
        return;
    case HUDI_SQL_L_STRING: str(w, e->text, e->text_len); return;
    case HUDI_SQL_L_BINARY:
        puts_(w, "X'");
        for (size_t i = 0; i < e->text_len; i++)
            hudi_buf_printf(w->b, "%02X", (unsigned char)e->text[i]);
        hudi_buf_putc(w->b, '\'');
        return;
    case HUDI_SQL_L_DATE:
    case HUDI_SQL_L_TIMESTAMP:
    case HUDI_SQL_L_TIMESTAMP_NTZ:
    case HUDI_SQL_L_TIMESTAMP_LTZ:
        open_(w, e->lit == HUDI_SQL_L_DATE            ? "date "
                 : e->lit == HUDI_SQL_L_TIMESTAMP     ? "timestamp "
                 : e->lit == HUDI_SQL_L_TIMESTAMP_NTZ ? "timestamp_ntz "
                                                      : "timestamp_ltz ");
        str(w, e->text, e->text_len);
        close_(w);
        return;
    case HUDI_SQL_L_INTERVAL:
        open_(w, "interval");
        for (uint32_t i = 0; i < e->interval.len; i++) {
            const hudi_sql_interval_part *p = HUDI_SQL_AT(e->interval, hudi_sql_interval_part, i);
            sp(w);
            if (p->quoted)
                str(w, p->value, strlen(p->value));
            else
                puts_(w, p->value);
            if (p->unit) atom(w, p->unit);
            if (p->to_unit) {
                atom(w, "to");
                atom(w, p->to_unit);
            }
        }
        close_(w);
        return;
    }
}

static void expr_list(W *w, const hudi_sql_list *l) {
    for (uint32_t i = 0; i < l->len; i++) {
        sp(w);
        expr(w, HUDI_SQL_AT(*l, hudi_sql_expr, i));
    }
}

static void order_by(W *w, const hudi_sql_list *l) {
    if (!l->len) return;
    sp(w);
    open_(w, "order_by");
    for (uint32_t i = 0; i < l->len; i++) {
        const hudi_sql_order_item *o = HUDI_SQL_AT(*l, hudi_sql_order_item, i);
        sp(w);
        open_(w, o->desc ? "desc " : "asc ");
        expr(w, o->expr);
        flag(w, o->nulls == 1, "nulls_first");
        flag(w, o->nulls == 2, "nulls_last");
        close_(w);
    }
    close_(w);
}

static void expr(W *w, const hudi_sql_expr *e) {
    switch (e->kind) {
    case HUDI_SQL_E_LITERAL: literal(w, e); return;
    case HUDI_SQL_E_COLUMN: name(w, &e->name); return;
    case HUDI_SQL_E_STAR:
        if (e->name.parts.len) {
            name(w, &e->name);
            hudi_buf_putc(w->b, '.');
        }
        hudi_buf_putc(w->b, '*');
        return;
    case HUDI_SQL_E_UNARY:
        open_(w, op_name(e->op));
        sp(w);
        expr(w, e->left);
        close_(w);
        return;
    case HUDI_SQL_E_BINARY:
        open_(w, op_name(e->op));
        sp(w);
        expr(w, e->left);
        sp(w);
        expr(w, e->right);
        close_(w);
        return;
    case HUDI_SQL_E_IS:
        open_(w, e->negated ? "is_not " : "is ");
        expr(w, e->left);
        atom(w, op_name(e->op));
        close_(w);
        return;
    case HUDI_SQL_E_IS_DISTINCT:
        open_(w, e->negated ? "is_not_distinct_from " : "is_distinct_from ");
        expr(w, e->left);
        sp(w);
        expr(w, e->right);
        close_(w);
        return;
    case HUDI_SQL_E_IN_LIST:
    case HUDI_SQL_E_IN_QUERY:
        open_(w, e->negated ? "not_in " : "in ");
        expr(w, e->left);
        sp(w);
        if (e->kind == HUDI_SQL_E_IN_QUERY) {
            query(w, e->query);
        } else {
            open_(w, "list");
            expr_list(w, &e->args);
            close_(w);
        }
        close_(w);
        return;
    case HUDI_SQL_E_EXISTS:
        open_(w, "exists ");
        query(w, e->query);
        close_(w);
        return;
    case HUDI_SQL_E_BETWEEN:
        open_(w, e->negated ? "not_between " : "between ");
        expr(w, e->left);
        expr_list(w, &e->args);
        close_(w);
        return;
    case HUDI_SQL_E_LIKE:
        hudi_buf_putc(w->b, '(');
        if (e->negated) puts_(w, "not_");
        puts_(w, op_name(e->op));
        sp(w);
        expr(w, e->left);
        sp(w);
        expr(w, e->right);
        if (e->escape) {
            atom(w, "(escape ");
            expr(w, e->escape);
            close_(w);
        }
        close_(w);
        return;
    case HUDI_SQL_E_CASE:
        open_(w, "case");
        if (e->left) {
            sp(w);
            expr(w, e->left);
        }
        for (uint32_t i = 0; i + 1 < e->args.len; i += 2) {
            atom(w, "(when ");
            expr(w, HUDI_SQL_AT(e->args, hudi_sql_expr, i));
            sp(w);
            expr(w, HUDI_SQL_AT(e->args, hudi_sql_expr, i + 1));
            close_(w);
        }
        if (e->right) {
            atom(w, "(else ");
            expr(w, e->right);
            close_(w);
        }
        close_(w);
        return;
    case HUDI_SQL_E_CAST:
        open_(w, e->op == HUDI_SQL_OP_TRY ? "try_cast " : "cast ");
        expr(w, e->left);
        sp(w);
        type(w, e->type);
        close_(w);
        return;
    case HUDI_SQL_E_FUNC:
        open_(w, "call ");
        name(w, &e->name);
        flag(w, e->distinct, "distinct");
        expr_list(w, &e->args);
        if (e->filter) {
            atom(w, "(filter ");
            expr(w, e->filter);
            close_(w);
        }
        if (e->over) {
            atom(w, "(over");
            if (e->over->partition_by.len) {
                atom(w, "(partition_by");
                expr_list(w, &e->over->partition_by);
                close_(w);
            }
            order_by(w, &e->over->order_by);
            close_(w);
        }
        close_(w);
        return;
    case HUDI_SQL_E_FIELD:
        open_(w, "field ");
        expr(w, e->left);
        sp(w);
        ident(w, e->field);
        close_(w);
        return;
    case HUDI_SQL_E_SUBSCRIPT:
        open_(w, "subscript ");
        expr(w, e->left);
        sp(w);
        expr(w, e->right);
        close_(w);
        return;
    case HUDI_SQL_E_SUBQUERY:
        open_(w, "subquery ");
        query(w, e->query);
        close_(w);
        return;
    case HUDI_SQL_E_ROW:
        open_(w, "row");
        expr_list(w, &e->args);
        close_(w);
        return;
    case HUDI_SQL_E_ALIAS:
        open_(w, "as ");
        expr(w, e->left);
        sp(w);
        ident(w, e->field);
        close_(w);
        return;
    case HUDI_SQL_E_NAMED_ARG:
        open_(w, "=> ");
        ident(w, e->field);
        sp(w);
        expr(w, e->left);
        close_(w);
        return;
    }
}

static void alias(W *w, const char *a, const hudi_sql_list *cols) {
    if (!a) return;
    sp(w);
    open_(w, "alias ");
    ident(w, a);
    for (uint32_t i = 0; i < cols->len; i++) {
        sp(w);
        ident(w, HUDI_SQL_AT(*cols, char, i));
    }
    close_(w);
}

static void rel(W *w, const hudi_sql_rel *r) {
    static const char *const joins[] = {"inner_join", "left_join", "right_join", "full_join",
                                        "cross_join", "semi_join", "anti_join"};
    switch (r->kind) {
    case HUDI_SQL_R_TABLE:
        open_(w, "table");
        sname(w, &r->name);
        if (r->travel != HUDI_SQL_TRAVEL_NONE) {
            atom(w,
                 r->travel == HUDI_SQL_TRAVEL_TIMESTAMP ? "(timestamp_as_of " : "(version_as_of ");
            expr(w, r->as_of);
            close_(w);
        }
        hints(w, &r->hints);
        break;
    case HUDI_SQL_R_SUBQUERY:
        open_(w, "derived ");
        query(w, r->query);
        break;
    case HUDI_SQL_R_FUNC:
        open_(w, "tvf");
        sname(w, &r->name);
        expr_list(w, &r->args);
        break;
    case HUDI_SQL_R_JOIN:
        hudi_buf_putc(w->b, '(');
        if (r->natural) puts_(w, "natural_");
        puts_(w, joins[r->join]);
        sp(w);
        rel(w, r->left);
        sp(w);
        rel(w, r->right);
        if (r->on) {
            atom(w, "(on ");
            expr(w, r->on);
            close_(w);
        }
        ident_list(w, "using", &r->using_cols);
        close_(w);
        return;
    }
    alias(w, r->alias, &r->columns);
    close_(w);
}

static void query(W *w, const hudi_sql_query *q) {
    switch (q->kind) {
    case HUDI_SQL_Q_SELECT:
        open_(w, "select");
        flag(w, q->distinct, "distinct");
        hints(w, &q->hints);
        atom(w, "(items");
        for (uint32_t i = 0; i < q->items.len; i++) {
            const hudi_sql_select_item *it = HUDI_SQL_AT(q->items, hudi_sql_select_item, i);
            sp(w);
            if (it->alias) open_(w, "as ");
            expr(w, it->expr);
            if (it->alias) {
                sp(w);
                ident(w, it->alias);
                close_(w);
            }
        }
        close_(w);
        if (q->from) {
            atom(w, "(from ");
            rel(w, q->from);
            close_(w);
        }
        if (q->where) {
            atom(w, "(where ");
            expr(w, q->where);
            close_(w);
        }
        if (q->group_by.len) {
            atom(w, "(group_by");
            expr_list(w, &q->group_by);
            close_(w);
        }
        if (q->having) {
            atom(w, "(having ");
            expr(w, q->having);
            close_(w);
        }
        break;
    case HUDI_SQL_Q_VALUES:
        open_(w, "values");
        expr_list(w, &q->rows);
        break;
    case HUDI_SQL_Q_SETOP: {
        static const char *const ops[] = {"union", "intersect", "except"};
        open_(w, ops[q->setop]);
        if (q->all) puts_(w, "_all");
        sp(w);
        query(w, q->left);
        sp(w);
        query(w, q->right);
        break;
    }
    case HUDI_SQL_Q_TABLE:
        open_(w, "table_query");
        sname(w, &q->table);
        break;
    }
    if (q->ctes.len) {
        atom(w, "(with");
        for (uint32_t i = 0; i < q->ctes.len; i++) {
            const hudi_sql_cte *c = HUDI_SQL_AT(q->ctes, hudi_sql_cte, i);
            atom(w, "(cte ");
            ident(w, c->name);
            ident_list(w, "columns", &c->columns);
            sp(w);
            query(w, c->query);
            close_(w);
        }
        close_(w);
    }
    order_by(w, &q->order_by);
    if (q->limit) {
        atom(w, "(limit ");
        expr(w, q->limit);
        close_(w);
    }
    if (q->offset) {
        atom(w, "(offset ");
        expr(w, q->offset);
        close_(w);
    }
    close_(w);
}

static void partspec(W *w, const hudi_sql_partspec *spec) {
    if (!spec) return;
    sp(w);
    open_(w, "partition");
    for (uint32_t i = 0; i < spec->len; i++) {
        const hudi_sql_part_kv *kv = HUDI_SQL_AT(*spec, hudi_sql_part_kv, i);
        sp(w);
        hudi_buf_putc(w->b, '(');
        ident(w, kv->name);
        if (kv->value) {
            sp(w);
            expr(w, kv->value);
        }
        close_(w);
    }
    close_(w);
}

static void columns(W *w, const char *tag, const hudi_sql_list *l) {
    if (!l->len) return;
    sp(w);
    open_(w, tag);
    for (uint32_t i = 0; i < l->len; i++) {
        sp(w);
        coldef(w, HUDI_SQL_AT(*l, hudi_sql_coldef, i));
    }
    close_(w);
}

static void assigns(W *w, const char *tag, const hudi_sql_list *l) {
    sp(w);
    open_(w, tag);
    for (uint32_t i = 0; i < l->len; i++) {
        const hudi_sql_assign *a = HUDI_SQL_AT(*l, hudi_sql_assign, i);
        atom(w, "(= ");
        name(w, &a->target);
        sp(w);
        expr(w, a->value);
        close_(w);
    }
    close_(w);
}

static void tagged_name(W *w, const char *tag, const hudi_sql_name *n) {
    if (!n->parts.len) return;
    sp(w);
    open_(w, tag);
    sname(w, n);
    close_(w);
}

static void tagged_expr(W *w, const char *tag, const hudi_sql_expr *e) {
    if (!e) return;
    sp(w);
    open_(w, tag);
    sp(w);
    expr(w, e);
    close_(w);
}

static void alter(W *w, const hudi_sql_stmt *s) {
    switch (s->alter) {
    case HUDI_SQL_A_RENAME: tagged_name(w, "rename_to", &s->new_name); break;
    case HUDI_SQL_A_ADD_COLUMNS: columns(w, "add_columns", &s->columns); break;
    case HUDI_SQL_A_CHANGE_COLUMN:
        atom(w, "(change_column");
        sname(w, &s->column);
        tagged_name(w, "rename_to", &s->new_name);
        if (s->type) {
            atom(w, "(type ");
            type(w, s->type);
            close_(w);
        }
        tagged_str(w, "comment", s->comment);
        flag(w, s->position == 1, "first");
        tagged_name(w, "after", &s->after);
        flag(w, s->nullability == 1, "set_not_null");
        flag(w, s->nullability == 2, "drop_not_null");
        close_(w);
        break;
    case HUDI_SQL_A_DROP_COLUMNS:
        atom(w, "(drop_columns");
        flag(w, s->if_exists, "if_exists");
        for (uint32_t i = 0; i < s->names.len; i++)
            sname(w, HUDI_SQL_AT(s->names, hudi_sql_name, i));
        close_(w);
        break;
    case HUDI_SQL_A_RENAME_COLUMN:
        atom(w, "(rename_column");
        sname(w, &s->column);
        sname(w, &s->new_name);
        close_(w);
        break;
    case HUDI_SQL_A_SET_PROPS: props(w, "set_tblproperties", &s->props, true); break;
    case HUDI_SQL_A_SET_SERDE_PROPS: props(w, "set_serdeproperties", &s->props, true); break;
    case HUDI_SQL_A_UNSET_PROPS:
        atom(w, "(unset_tblproperties");
        flag(w, s->if_exists, "if_exists");
        for (uint32_t i = 0; i < s->props.len; i++)
            sstr(w, HUDI_SQL_AT(s->props, hudi_sql_prop, i)->key);
        close_(w);
        break;
    case HUDI_SQL_A_DROP_PARTITION:
    case HUDI_SQL_A_ADD_PARTITION:
        atom(w, s->alter == HUDI_SQL_A_DROP_PARTITION ? "(drop_partition" : "(add_partition");
        flag(w, s->if_exists, "if_exists");
        flag(w, s->if_not_exists, "if_not_exists");
        flag(w, s->purge, "purge");
        for (uint32_t i = 0; i < s->partitions.len; i++)
            partspec(w, HUDI_SQL_AT(s->partitions, hudi_sql_partspec, i));
        tagged_str(w, "location", s->location);
        close_(w);
        break;
    }
}

static void show(W *w, const hudi_sql_stmt *s) {
    static const char *const kinds[] = {
        "show_tables",   "show_databases",    "show_partitions", "show_tblproperties",
        "show_columns",  "show_create_table", "show_indexes",    "show_current_database",
        "show_catalogs", "show_functions"};
    open_(w, kinds[s->show]);
    if (s->name.parts.len) sname(w, &s->name);
    tagged_name(w, s->show == HUDI_SQL_SHOW_TABLES ? "in" : "in_database", &s->table);
    partspec(w, s->partition);
    tagged_str(w, s->show == HUDI_SQL_SHOW_TBLPROPERTIES ? "key" : "like", s->pattern);
    close_(w);
}

static void stmt(W *w, const hudi_sql_stmt *s) {
    switch (s->kind) {
    case HUDI_SQL_S_QUERY: query(w, s->query); return;
    case HUDI_SQL_S_CREATE_TABLE:
        open_(w, "create_table");
        sname(w, &s->name);
        flag(w, s->or_replace, "or_replace");
        flag(w, s->external, "external");
        flag(w, s->if_not_exists, "if_not_exists");
        columns(w, "columns", &s->columns);
        ident_list(w, "primary_key", &s->primary_key);
        if (s->provider) {
            atom(w, "(using ");
            ident(w, s->provider);
            close_(w);
        }
        props(w, "options", &s->options, false);
        columns(w, "partitioned_by", &s->partitioned_by);
        tagged_str(w, "comment", s->comment);
        tagged_str(w, "location", s->location);
        props(w, "tblproperties", &s->props, false);
        props(w, "with", &s->with, false);
        if (s->stored_as) {
            atom(w, "(stored_as ");
            ident(w, s->stored_as);
            close_(w);
        }
        if (s->query) {
            atom(w, "(as ");
            query(w, s->query);
            close_(w);
        }
        break;
    case HUDI_SQL_S_DROP_TABLE:
        open_(w, "drop_table");
        sname(w, &s->name);
        flag(w, s->if_exists, "if_exists");
        flag(w, s->purge, "purge");
        break;
    case HUDI_SQL_S_TRUNCATE:
        open_(w, "truncate_table");
        sname(w, &s->name);
        partspec(w, s->partition);
        break;
    case HUDI_SQL_S_ALTER_TABLE:
        open_(w, "alter_table");
        sname(w, &s->name);
        alter(w, s);
        break;
    case HUDI_SQL_S_SHOW: show(w, s); return;
    case HUDI_SQL_S_DESCRIBE:
        open_(w, s->describe == 1   ? "describe_query"
                 : s->describe == 2 ? "describe_database"
                                    : "describe");
        flag(w, s->extended, "extended");
        if (s->describe == 1) {
            sp(w);
            query(w, s->query);
        } else {
            sname(w, &s->name);
        }
        partspec(w, s->partition);
        tagged_name(w, "column", &s->describe_column);
        break;
    case HUDI_SQL_S_CREATE_INDEX:
        open_(w, "create_index");
        sname(w, &s->name);
        tagged_name(w, "on", &s->table);
        flag(w, s->if_not_exists, "if_not_exists");
        if (s->using_index) {
            atom(w, "(using ");
            ident(w, s->using_index);
            close_(w);
        }
        columns(w, "columns", &s->index_columns);
        props(w, "options", &s->options, false);
        break;
    case HUDI_SQL_S_DROP_INDEX:
    case HUDI_SQL_S_REFRESH_INDEX:
        open_(w, s->kind == HUDI_SQL_S_DROP_INDEX ? "drop_index" : "refresh_index");
        sname(w, &s->name);
        tagged_name(w, "on", &s->table);
        flag(w, s->if_exists, "if_exists");
        break;
    case HUDI_SQL_S_REFRESH_TABLE:
        open_(w, "refresh_table");
        sname(w, &s->name);
        break;
    case HUDI_SQL_S_CREATE_DATABASE:
        open_(w, "create_database");
        sname(w, &s->name);
        flag(w, s->if_not_exists, "if_not_exists");
        tagged_str(w, "comment", s->comment);
        tagged_str(w, "location", s->location);
        props(w, "properties", &s->props, false);
        break;
    case HUDI_SQL_S_DROP_DATABASE:
        open_(w, "drop_database");
        sname(w, &s->name);
        flag(w, s->if_exists, "if_exists");
        flag(w, s->cascade, "cascade");
        break;
    case HUDI_SQL_S_USE:
        open_(w, s->catalog ? "use_catalog" : "use");
        sname(w, &s->name);
        break;
    case HUDI_SQL_S_SET:
        open_(w, s->set == HUDI_SQL_SET_ALL ? "set_all" : "set");
        if (s->key) sstr(w, s->key);
        if (s->value) sstr(w, s->value);
        if (s->value_raw && strcmp(s->value, s->value_raw) != 0) tagged_str(w, "raw", s->value_raw);
        break;
    case HUDI_SQL_S_RESET:
        open_(w, "reset");
        if (s->key) sstr(w, s->key);
        break;
    case HUDI_SQL_S_INSERT:
        open_(w, s->overwrite ? "insert_overwrite" : "insert_into");
        sname(w, &s->name);
        hints(w, &s->hints);
        partspec(w, s->partition);
        flag(w, s->if_not_exists, "if_not_exists");
        ident_list(w, "columns", &s->insert_columns);
        sp(w);
        query(w, s->query);
        break;
    case HUDI_SQL_S_UPDATE:
        open_(w, "update");
        sname(w, &s->name);
        if (s->alias) {
            atom(w, "(alias ");
            ident(w, s->alias);
            close_(w);
        }
        assigns(w, "set", &s->assigns);
        tagged_expr(w, "where", s->where);
        break;
    case HUDI_SQL_S_DELETE:
        open_(w, "delete");
        sname(w, &s->name);
        if (s->alias) {
            atom(w, "(alias ");
            ident(w, s->alias);
            close_(w);
        }
        tagged_expr(w, "where", s->where);
        break;
    case HUDI_SQL_S_MERGE:
        open_(w, "merge");
        sname(w, &s->name);
        if (s->alias) {
            atom(w, "(alias ");
            ident(w, s->alias);
            close_(w);
        }
        atom(w, "(using ");
        rel(w, s->source);
        close_(w);
        tagged_expr(w, "on", s->on);
        for (uint32_t i = 0; i < s->clauses.len; i++) {
            const hudi_sql_merge_clause *c = HUDI_SQL_AT(s->clauses, hudi_sql_merge_clause, i);
            atom(w, c->match == HUDI_SQL_MATCHED       ? "(when_matched"
                    : c->match == HUDI_SQL_NOT_MATCHED ? "(when_not_matched"
                                                       : "(when_not_matched_by_source");
            tagged_expr(w, "and", c->cond);
            switch (c->action) {
            case HUDI_SQL_M_UPDATE_STAR: atom(w, "update_star"); break;
            case HUDI_SQL_M_UPDATE: assigns(w, "update_set", &c->assigns); break;
            case HUDI_SQL_M_DELETE: atom(w, "delete"); break;
            case HUDI_SQL_M_INSERT_STAR: atom(w, "insert_star"); break;
            case HUDI_SQL_M_INSERT:
                atom(w, "(insert");
                ident_list(w, "columns", &c->columns);
                atom(w, "(values");
                expr_list(w, &c->values);
                close_(w);
                close_(w);
                break;
            }
            close_(w);
        }
        break;
    case HUDI_SQL_S_EXPLAIN:
        open_(w, "explain");
        if (s->explain_mode) atom(w, s->explain_mode);
        sp(w);
        stmt(w, s->inner);
        break;
    case HUDI_SQL_S_CALL:
        open_(w, "call_procedure");
        sname(w, &s->name);
        expr_list(w, &s->args);
        break;
    case HUDI_SQL_S_CREATE_CATALOG:
        open_(w, "create_catalog");
        sname(w, &s->name);
        props(w, "with", &s->props, true);
        break;
    }
    close_(w);
}

/* ---- layout --------------------------------------------------------------------------- */

#define WIDTH 100

/* End of the element starting at s[i]: a list, a quoted run, or an atom. */
static size_t elem_end(const char *s, size_t n, size_t i) {
    if (s[i] == '(') {
        int depth = 0;
        while (i < n) {
            if (s[i] == '\'' || s[i] == '`') {
                i = elem_end(s, n, i);
                continue;
            }
            if (s[i] == '(') depth++;
            if (s[i] == ')' && --depth == 0) return i + 1;
            i++;
        }
        return n;
    }
    if (s[i] == '\'' || s[i] == '`') {
        char q = s[i++];
        while (i < n) {
            if (q == '\'' && s[i] == '\\' && i + 1 < n) {
                i += 2;
                continue;
            }
            if (s[i] == q) {
                if (q == '`' && i + 1 < n && s[i + 1] == '`') {
                    i += 2;
                    continue;
                }
                i++;
                break;
            }
            i++;
        }
        /* a quoted run may continue an atom: X'..', a.`b`.c */
        while (i < n && s[i] != ' ' && s[i] != '(' && s[i] != ')') {
            if (s[i] == '\'' || s[i] == '`') return elem_end(s, n, i);
            i++;
        }
        return i;
    }
    while (i < n && s[i] != ' ' && s[i] != '(' && s[i] != ')') {
        if (s[i] == '\'' || s[i] == '`') return elem_end(s, n, i);
        i++;
    }
    return i;
}

static void layout(hudi_buf *out, const char *s, size_t n, size_t indent) {
    if (n + indent <= WIDTH || s[0] != '(') {
        hudi_buf_append(out, s, n);
        return;
    }
    /* "(head atom atom" stay on the first line; each list child goes on its own line */
    size_t i = 1, lists = 0;
    hudi_buf_putc(out, '(');
    bool first = true;
    while (i < n - 1) {
        if (s[i] == ' ') {
            i++;
            continue;
        }
        size_t e = elem_end(s, n - 1, i);
        if (s[i] != '(' && lists == 0) {
            if (!first) hudi_buf_putc(out, ' ');
            hudi_buf_append(out, s + i, e - i);
        } else {
            lists++;
            hudi_buf_putc(out, '\n');
            for (size_t k = 0; k < indent + 2; k++) hudi_buf_putc(out, ' ');
            layout(out, s + i, e - i, indent + 2);
        }
        first = false;
        i = e;
    }
    hudi_buf_putc(out, ')');
}

static void print_laid_out(hudi_buf *out, hudi_buf *flat) {
    if (flat->failed) {
        out->failed = true;
        return;
    }
    if (flat->len) layout(out, flat->data, flat->len, 0);
}

void hudi_sql_ast_print(hudi_buf *out, const hudi_sql_stmt *s) {
    hudi_buf flat = HUDI_BUF_INIT;
    W w = {&flat};
    stmt(&w, s);
    print_laid_out(out, &flat);
    hudi_buf_dispose(&flat);
}

void hudi_sql_expr_print(hudi_buf *out, const hudi_sql_expr *e) {
    hudi_buf flat = HUDI_BUF_INIT;
    W w = {&flat};
    expr(&w, e);
    print_laid_out(out, &flat);
    hudi_buf_dispose(&flat);
}
