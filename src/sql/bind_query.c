/* bind_query.c - binding query blocks: FROM items (tables, subqueries, joins, CTEs,
 * hudi_table_changes), WHERE (with IN/EXISTS subqueries as semi/anti joins), GROUP BY and
 * aggregates, HAVING, the SELECT list, DISTINCT, ORDER BY, LIMIT/OFFSET, VALUES and set
 * operations. Spark's rules: SELECT * on a Hudi table includes the _hoodie_* meta columns;
 * ORDER BY sees the SELECT list's aliases first, then the FROM columns; GROUP BY accepts
 * ordinals and SELECT aliases. */
#include "read/cdc.h"
#include "sql/bind.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int oom(hudi_sql_binder *b) { return hudi_error_oom(b->err); }
static void *alloc(hudi_sql_binder *b, size_t n) { return hudi_arena_alloc(&b->r->arena, n); }

/* ---- FROM ---------------------------------------------------------------------------------- */

int hudi_sql_bind_scan(hudi_sql_binder *b, const hudi_catalog_table *entry, const char *qual,
                       const hudi_sql_rel *rel, hudi_sql_plan **out, hudi_sql_scope *scope) {
    hudi_sql_plan *p = hudi_sql_plan_new(b, HUDI_SQL_P_SCAN, NULL);
    hudi_sql_scan_spec *spec = alloc(b, sizeof(*spec));
    hudi_catalog_table *e = alloc(b, sizeof(*e));
    if (!p || !spec || !e) return oom(b);
    *e = *entry; /* ownership of the entry's strings moves to the result (below) */
    spec->entry = e;
    spec->display_name = e->database && *e->database ? hudi_arena_strdup(&b->r->arena, e->name)
                                                     : hudi_arena_strdup(&b->r->arena, e->location);
    int rc =
        hudi_sql_result_own_state(b->r, e, (void (*)(void *))hudi_catalog_table_dispose, b->err);
    if (rc < 0) return rc;
    if (rel && rel->travel != HUDI_SQL_TRAVEL_NONE) {
        if (e->provider != HUDI_CATALOG_HUDI)
            return ERR(b, rel->pos, HUDI_ESQL, "time travel needs a Hudi table; %s is not one",
                       spec->display_name);
        hudi_sql_bexpr *v;
        if ((rc = hudi_sql_bind_expr(b, NULL, NULL, rel->as_of, &v)) < 0) return rc;
        if (v->kind != HUDI_SQL_BX_CONST || !hudi_array_is_valid(v->value, 0))
            return ERR(b, rel->as_of->pos, HUDI_ESQL, "TIMESTAMP AS OF needs a constant");
        hudi_buf t = HUDI_BUF_INIT;
        hudi_sql_render_value(&t, b->ctx, v->value, 0);
        spec->as_of_instant = t.failed ? NULL : hudi_arena_strndup(&b->r->arena, t.data, t.len);
        hudi_buf_dispose(&t);
        if (!spec->as_of_instant) return oom(b);
        /* resolved to an instant once the table is open (hudi_sql_scan_prepare) */
    }
    if ((rc = hudi_sql_scan_prepare(b->ctx, spec, b->err)) < 0) return rc;
    p->scan = spec;
    int32_t n = spec->table_schema.n_children;
    spec->columns = alloc(b, sizeof(int32_t) * (size_t)(n ? n : 1));
    if (!spec->columns) return oom(b);
    for (int32_t i = 0; i < n; i++) spec->columns[i] = i;
    spec->n_columns = n;
    if ((rc = hudi_sql_plan_set_schema(b, p, spec->table_schema.children, NULL, n)) < 0) return rc;
    *out = p;
    return hudi_sql_scope_of(b, p, qual, scope);
}

static const hudi_sql_cte *find_cte(hudi_sql_binder *b, const char *name, int *level) {
    for (int i = b->n_ctes - 1; i >= 0; i--)
        for (uint32_t j = 0; j < b->ctes[i]->len; j++) {
            const hudi_sql_cte *c = HUDI_SQL_AT(*b->ctes[i], hudi_sql_cte, j);
            if (hudi_sql_ident_eq(c->name, name)) {
                *level = i;
                return c;
            }
        }
    return NULL;
}

/* Renames the output columns of a subquery: FROM (...) AS t(a, b). */
static int rename_columns(hudi_sql_binder *b, hudi_sql_plan *p, const hudi_sql_list *names,
                          hudi_sql_pos pos) {
    if (names->len == 0) return 0;
    if ((int32_t)names->len != p->schema.n_children)
        return ERR(b, pos, HUDI_ESQL, "%u column aliases for %d columns", names->len,
                   p->schema.n_children);
    hudi_field *c = alloc(b, sizeof(*c) * names->len);
    if (!c) return oom(b);
    for (uint32_t i = 0; i < names->len; i++) {
        c[i] = p->schema.children[i];
        c[i].name = HUDI_SQL_AT(*names, char, i);
    }
    p->schema.children = c;
    return 0;
}

static int bind_join(hudi_sql_binder *b, const hudi_sql_rel *rel, hudi_sql_plan **out,
                     hudi_sql_scope *scope);

/* hudi_table_changes(..., 'cdc', ...): the change rows of read/cdc.h, computed here and kept
 * as the plan's batches (statement-owned). */
static int bind_cdc(hudi_sql_binder *b, hudi_catalog_table *entry, const char *qual,
                    const char *begin, const char *end, hudi_sql_plan **out,
                    hudi_sql_scope *scope) {
    hudi_sql_scan_spec *spec = alloc(b, sizeof(*spec));
    hudi_catalog_table *e = alloc(b, sizeof(*e));
    hudi_sql_plan *p = hudi_sql_plan_new(b, HUDI_SQL_P_BATCHES, NULL);
    if (!spec || !e || !p) {
        hudi_catalog_table_dispose(entry);
        return oom(b);
    }
    *e = *entry;
    spec->entry = e;
    spec->display_name = e->database && *e->database ? hudi_arena_strdup(&b->r->arena, e->name)
                                                     : hudi_arena_strdup(&b->r->arena, e->location);
    int rc =
        hudi_sql_result_own_state(b->r, e, (void (*)(void *))hudi_catalog_table_dispose, b->err);
    if (rc < 0 || (rc = hudi_sql_scan_prepare(b->ctx, spec, b->err)) < 0) return rc;
    hudi_cdc_rows rows;
    if ((rc = hudi_cdc_read(&rows, spec->table, begin, end, b->err)) < 0) return rc;
    rc = hudi_sql_plan_set_schema(b, p, rows.schema.children, NULL, rows.schema.n_children);
    p->batches = alloc(b, sizeof(hudi_batch *) * (rows.count ? rows.count : 1));
    if (rc == 0 && !p->batches) rc = oom(b);
    for (size_t i = 0; i < rows.count; i++) {
        hudi_batch *x = rows.batches[i];
        rows.batches[i] = NULL;
        if (rc == 0)
            rc = hudi_sql_result_own_batch(b->r, x, b->err);
        else
            hudi_batch_free(x);
        if (rc < 0) continue;
        x->schema = &p->schema;
        for (int32_t j = 0; j < x->n_columns; j++) x->columns[j]->field = &p->schema.children[j];
        p->batches[p->n_batches++] = x;
    }
    hudi_cdc_rows_dispose(&rows);
    if (rc < 0) return rc;
    *out = p;
    return hudi_sql_scope_of(b, p, qual, scope);
}

static int bind_table_changes(hudi_sql_binder *b, const hudi_sql_rel *rel, hudi_sql_plan **out,
                              hudi_sql_scope *scope) {
    /* hudi_table_changes('db.tbl' | '/path', 'latest_state' | 'cdc', 'begin'[, 'end']) */
    uint32_t n = rel->args.len;
    if (n < 3 || n > 4)
        return ERR(b, rel->pos, HUDI_ESQL,
                   "hudi_table_changes(table, 'latest_state' | 'cdc', begin[, end]) takes 3 or 4 "
                   "arguments");
    const char *text[4] = {0};
    for (uint32_t i = 0; i < n; i++) {
        hudi_sql_bexpr *v;
        int rc = hudi_sql_bind_expr(b, NULL, NULL, HUDI_SQL_AT(rel->args, hudi_sql_expr, i), &v);
        if (rc < 0) return rc;
        if (v->kind != HUDI_SQL_BX_CONST || !hudi_array_is_valid(v->value, 0))
            return ERR(b, v->pos, HUDI_ESQL, "hudi_table_changes: argument %u must be a constant",
                       i + 1);
        hudi_buf t = HUDI_BUF_INIT;
        hudi_sql_render_value(&t, b->ctx, v->value, 0);
        text[i] = t.failed ? NULL : hudi_arena_strndup(&b->r->arena, t.data, t.len);
        hudi_buf_dispose(&t);
        if (!text[i]) return oom(b);
    }
    bool cdc = strcasecmp(text[1], "cdc") == 0;
    if (!cdc && strcasecmp(text[1], "latest_state") != 0)
        return ERR(b, rel->pos, HUDI_ESQL, "'hudi_table_changes' doesn't support `%s`", text[1]);
    /* the table: a path, or a name [db.]table */
    hudi_sql_name name;
    memset(&name, 0, sizeof(name));
    name.pos = rel->pos;
    hudi_catalog_table entry;
    int rc;
    if (text[0][0] == '/') {
        memset(&entry, 0, sizeof(entry));
        entry.provider = HUDI_CATALOG_HUDI;
        entry.database = hudi_strdup("");
        entry.name = hudi_strdup(text[0]);
        entry.location = hudi_strdup(text[0]);
        if (!entry.database || !entry.name || !entry.location) {
            hudi_catalog_table_dispose(&entry);
            return oom(b);
        }
    } else {
        char *copy = hudi_arena_strdup(&b->r->arena, text[0]);
        if (!copy) return oom(b);
        char *dot = strchr(copy, '.');
        void *items[2];
        name.parts.items = items;
        if (dot) {
            *dot = '\0';
            items[0] = copy;
            items[1] = dot + 1;
            name.parts.len = 2;
        } else {
            items[0] = copy;
            name.parts.len = 1;
        }
        if ((rc = hudi_sql_resolve_table(b->s, &name, &entry, b->err)) < 0) return rc;
    }
    if (entry.provider != HUDI_CATALOG_HUDI) {
        hudi_catalog_table_dispose(&entry);
        return ERR(b, rel->pos, HUDI_ESQL, "hudi_table_changes needs a Hudi table");
    }
    const char *qual = rel->alias ? hudi_sql_lower(&b->r->arena, rel->alias) : NULL;
    if (cdc) return bind_cdc(b, &entry, qual, text[2], text[3], out, scope);
    if ((rc = hudi_sql_bind_scan(b, &entry, qual, NULL, out, scope)) < 0) return rc;
    (*out)->scan->begin_instant = text[2];
    (*out)->scan->end_instant = text[3];
    return 0;
}

int hudi_sql_bind_rel(hudi_sql_binder *b, const hudi_sql_rel *rel, hudi_sql_plan **out,
                      hudi_sql_scope *scope) {
    int rc;
    switch (rel->kind) {
    case HUDI_SQL_R_TABLE: {
        const char *alias = rel->alias ? hudi_sql_lower(&b->r->arena, rel->alias) : NULL;
        if (rel->name.parts.len == 1) {
            int level;
            const hudi_sql_cte *cte =
                find_cte(b, HUDI_SQL_AT(rel->name.parts, const char, 0), &level);
            if (cte) {
                int saved = b->n_ctes;
                b->n_ctes = level; /* a CTE sees the ones before it */
                rc = hudi_sql_bind_query(b, cte->query, out, NULL);
                b->n_ctes = saved;
                if (rc < 0) return rc;
                if ((rc = rename_columns(b, *out, &cte->columns, rel->pos)) < 0) return rc;
                return hudi_sql_scope_of(
                    b, *out, alias ? alias : hudi_sql_lower(&b->r->arena, cte->name), scope);
            }
        }
        hudi_catalog_table entry;
        if ((rc = hudi_sql_resolve_table(b->s, &rel->name, &entry, b->err)) < 0) return rc;
        const char *qual = alias ? alias : hudi_sql_lower(&b->r->arena, entry.name);
        return hudi_sql_bind_scan(b, &entry, qual, rel, out, scope);
    }
    case HUDI_SQL_R_SUBQUERY: {
        if ((rc = hudi_sql_bind_query(b, rel->query, out, NULL)) < 0) return rc;
        if ((rc = rename_columns(b, *out, &rel->columns, rel->pos)) < 0) return rc;
        const char *alias = rel->alias ? hudi_sql_lower(&b->r->arena, rel->alias) : NULL;
        return hudi_sql_scope_of(b, *out, alias, scope);
    }
    case HUDI_SQL_R_FUNC: {
        const char *fname = HUDI_SQL_AT(rel->name.parts, const char, rel->name.parts.len - 1);
        if (strcasecmp(fname, "hudi_table_changes") == 0)
            return bind_table_changes(b, rel, out, scope);
        return ERR(b, rel->pos, HUDI_EUNSUPPORTED,
                   "table-valued function %s is not supported yet (hudi_table_changes is)", fname);
    }
    case HUDI_SQL_R_JOIN: return bind_join(b, rel, out, scope);
    }
    return ERR(b, rel->pos, HUDI_ESQL, "unknown FROM item");
}

/* Concatenates two scopes: the right side's indices move past the left's columns. */
static int concat_scopes(hudi_sql_binder *b, const hudi_sql_scope *l, const hudi_sql_scope *r,
                         const hudi_field *schema, hudi_sql_scope *out) {
    out->n = l->n + r->n;
    out->cols = alloc(b, sizeof(*out->cols) * (size_t)(out->n ? out->n : 1));
    if (!out->cols) return oom(b);
    memcpy(out->cols, l->cols, sizeof(*out->cols) * (size_t)l->n);
    int32_t shift = l->schema->n_children;
    for (int32_t i = 0; i < r->n; i++) {
        out->cols[l->n + i] = r->cols[i];
        out->cols[l->n + i].index += shift;
    }
    out->schema = schema;
    return 0;
}

/* Columns an expression reads, as a range test: all below `split`, or all at or above it. */
static void columns_side(const hudi_sql_bexpr *e, int32_t split, bool *left, bool *right) {
    if (e->kind == HUDI_SQL_BX_COLUMN) {
        if (e->column < split)
            *left = true;
        else
            *right = true;
    }
    for (int32_t i = 0; i < e->n_args; i++) columns_side(e->args[i], split, left, right);
}

/* A copy of `e` with column indices moved by `delta`. */
static hudi_sql_bexpr *shift_columns(hudi_sql_binder *b, const hudi_sql_bexpr *e, int32_t delta) {
    hudi_sql_bexpr *c = alloc(b, sizeof(*c));
    if (!c) return NULL;
    *c = *e;
    if (e->kind == HUDI_SQL_BX_COLUMN) c->column += delta;
    if (e->n_args) {
        c->args = alloc(b, sizeof(*c->args) * (size_t)e->n_args);
        if (!c->args) return NULL;
        for (int32_t i = 0; i < e->n_args; i++)
            if (!(c->args[i] = shift_columns(b, e->args[i], delta))) return NULL;
    }
    return c;
}

static bool is_fn(const hudi_sql_bexpr *e, const char *name) {
    return e->kind == HUDI_SQL_BX_CALL && e->fn && strcmp(e->fn->name, name) == 0;
}

/* Splits an AND tree into its conjuncts. */
static int conjuncts(hudi_sql_binder *b, hudi_sql_bexpr *e, hudi_sql_bexpr ***list, int32_t *n,
                     int32_t *cap) {
    if (is_fn(e, "and")) {
        for (int32_t i = 0; i < e->n_args; i++) {
            int rc = conjuncts(b, e->args[i], list, n, cap);
            if (rc < 0) return rc;
        }
        return 0;
    }
    if (*n == *cap) {
        int32_t c2 = *cap ? 2 * *cap : 8;
        hudi_sql_bexpr **l2 = alloc(b, sizeof(*l2) * (size_t)c2);
        if (!l2) return oom(b);
        if (*n) memcpy(l2, *list, sizeof(*l2) * (size_t)*n);
        *list = l2;
        *cap = c2;
    }
    (*list)[(*n)++] = e;
    return 0;
}

int hudi_sql_and_all(hudi_sql_binder *b, hudi_sql_bexpr **list, int32_t n, hudi_sql_bexpr **out) {
    *out = NULL;
    for (int32_t i = 0; i < n; i++) {
        if (!*out) {
            *out = list[i];
            continue;
        }
        hudi_sql_bexpr **args = alloc(b, sizeof(*args) * 2);
        if (!args) return oom(b);
        args[0] = *out;
        args[1] = list[i];
        int rc = hudi_sql_bind_fn(b->ctx, "and", args, 2, list[i]->pos, out, b->err);
        if (rc < 0) return rc;
        char text[1024];
        snprintf(text, sizeof(text), "(%s AND %s)", args[0]->text ? args[0]->text : "?",
                 list[i]->text ? list[i]->text : "?");
        if (!((*out)->text = hudi_arena_strdup(&b->r->arena, text))) return oom(b);
    }
    return 0;
}

/* Builds a JOIN of `l` and `r` on `cond` (over their concatenated columns; may be NULL):
 * equalities between a left-only and a right-only expression become hash keys. */
static int make_join(hudi_sql_binder *b, hudi_sql_join_kind kind, hudi_sql_plan *l,
                     hudi_sql_plan *r, hudi_sql_bexpr *cond, hudi_sql_plan **out) {
    hudi_sql_plan *j = hudi_sql_plan_new(b, HUDI_SQL_P_JOIN, l);
    if (!j) return oom(b);
    j->right = r;
    j->join = kind;
    int32_t split = l->schema.n_children;
    hudi_sql_bexpr **cs = NULL, **rest = NULL;
    int32_t n = 0, cap = 0, n_rest = 0;
    int rc;
    if (cond && (rc = conjuncts(b, cond, &cs, &n, &cap)) < 0) return rc;
    j->left_keys = alloc(b, sizeof(*j->left_keys) * (size_t)(n ? n : 1));
    j->right_keys = alloc(b, sizeof(*j->right_keys) * (size_t)(n ? n : 1));
    rest = alloc(b, sizeof(*rest) * (size_t)(n ? n : 1));
    if (!j->left_keys || !j->right_keys || !rest) return oom(b);
    for (int32_t i = 0; i < n; i++) {
        hudi_sql_bexpr *c = cs[i];
        if (is_fn(c, "=") && c->n_args == 2) {
            bool l0 = false, r0 = false, l1 = false, r1 = false;
            columns_side(c->args[0], split, &l0, &r0);
            columns_side(c->args[1], split, &l1, &r1);
            const hudi_sql_bexpr *lk = NULL, *rk = NULL;
            if (l0 && !r0 && r1 && !l1) {
                lk = c->args[0];
                rk = c->args[1];
            } else if (l1 && !r1 && r0 && !l0) {
                lk = c->args[1];
                rk = c->args[0];
            }
            if (lk) {
                j->left_keys[j->n_keys] = (hudi_sql_bexpr *)lk;
                if (!(j->right_keys[j->n_keys] = shift_columns(b, rk, -split))) return oom(b);
                j->n_keys++;
                continue;
            }
        }
        rest[n_rest++] = c;
    }
    if ((rc = hudi_sql_and_all(b, rest, n_rest, &j->cond)) < 0) return rc;
    /* output: left then right (semi/anti: left only) */
    int32_t nl = l->schema.n_children;
    int32_t nr = (kind == HUDI_SQL_J_SEMI || kind == HUDI_SQL_J_ANTI) ? 0 : r->schema.n_children;
    hudi_field *types = alloc(b, sizeof(*types) * (size_t)(nl + nr ? nl + nr : 1));
    if (!types) return oom(b);
    memcpy(types, l->schema.children, sizeof(*types) * (size_t)nl);
    if (nr) memcpy(types + nl, r->schema.children, sizeof(*types) * (size_t)nr);
    if ((rc = hudi_sql_plan_set_schema(b, j, types, NULL, nl + nr)) < 0) return rc;
    *out = j;
    return 0;
}

static int bind_join(hudi_sql_binder *b, const hudi_sql_rel *rel, hudi_sql_plan **out,
                     hudi_sql_scope *scope) {
    hudi_sql_plan *l, *r;
    hudi_sql_scope ls, rs;
    int rc;
    if ((rc = hudi_sql_bind_rel(b, rel->left, &l, &ls)) < 0) return rc;
    if ((rc = hudi_sql_bind_rel(b, rel->right, &r, &rs)) < 0) return rc;
    if (rel->natural)
        return ERR(b, rel->pos, HUDI_EUNSUPPORTED, "NATURAL joins are not supported yet");
    hudi_sql_join_kind kind = rel->join;
    /* the scope of ON: both sides */
    hudi_sql_plan tmp;
    memset(&tmp, 0, sizeof(tmp));
    tmp.schema.type = HUDI_TYPE_STRUCT;
    int32_t nl = l->schema.n_children, nr = r->schema.n_children;
    hudi_field *both = alloc(b, sizeof(*both) * (size_t)(nl + nr ? nl + nr : 1));
    if (!both) return oom(b);
    memcpy(both, l->schema.children, sizeof(*both) * (size_t)nl);
    memcpy(both + nl, r->schema.children, sizeof(*both) * (size_t)nr);
    hudi_field *both_schema = alloc(b, sizeof(*both_schema));
    if (!both_schema) return oom(b);
    both_schema->type = HUDI_TYPE_STRUCT;
    both_schema->name = "";
    both_schema->children = both;
    both_schema->n_children = nl + nr;
    hudi_sql_scope on_scope;
    if ((rc = concat_scopes(b, &ls, &rs, both_schema, &on_scope)) < 0) return rc;
    hudi_sql_bexpr *cond = NULL;
    if (rel->on) {
        if ((rc = hudi_sql_bind_expr(b, &on_scope, NULL, rel->on, &cond)) < 0) return rc;
        if (cond->type.type != HUDI_TYPE_BOOL && cond->type.type != HUDI_TYPE_NULL)
            return ERR(b, rel->on->pos, HUDI_ESQL, "the join condition must be a boolean");
    } else if (rel->using_cols.len) {
        hudi_sql_bexpr **eqs = alloc(b, sizeof(*eqs) * rel->using_cols.len);
        if (!eqs) return oom(b);
        for (uint32_t i = 0; i < rel->using_cols.len; i++) {
            const char *c = HUDI_SQL_AT(rel->using_cols, const char, i);
            int32_t a = -1, z = -1;
            for (int32_t k = 0; k < ls.n && a < 0; k++)
                if (hudi_sql_ident_eq(ls.cols[k].name, c)) a = k;
            for (int32_t k = 0; k < rs.n && z < 0; k++)
                if (hudi_sql_ident_eq(rs.cols[k].name, c)) z = k;
            if (a < 0 || z < 0)
                return ERR(b, rel->pos, HUDI_ESQL,
                           "USING column `%s` cannot be resolved on the %s side of the join", c,
                           a < 0 ? "left" : "right");
            hudi_sql_bexpr *x =
                hudi_sql_bx_column(b, ls.cols[a].index, &l->schema.children[ls.cols[a].index]);
            hudi_sql_bexpr *y =
                hudi_sql_bx_column(b, nl + rs.cols[z].index, &r->schema.children[rs.cols[z].index]);
            if (!x || !y) return oom(b);
            hudi_sql_bexpr **args = alloc(b, sizeof(*args) * 2);
            if (!args) return oom(b);
            args[0] = x;
            args[1] = y;
            if ((rc = hudi_sql_bind_fn(b->ctx, "=", args, 2, rel->pos, &eqs[i], b->err)) < 0)
                return rc;
            on_scope.cols[ls.n + z].hidden = true; /* `*` shows a USING column once */
        }
        if ((rc = hudi_sql_and_all(b, eqs, (int32_t)rel->using_cols.len, &cond)) < 0) return rc;
    }
    if ((rc = make_join(b, kind, l, r, cond, out)) < 0) return rc;
    if (kind == HUDI_SQL_J_SEMI || kind == HUDI_SQL_J_ANTI) {
        *scope = ls;
        scope->schema = &(*out)->schema;
        return 0;
    }
    *scope = on_scope;
    scope->schema = &(*out)->schema;
    return 0;
}

/* ---- WHERE with subqueries ------------------------------------------------------------ */

/* WHERE conjuncts that are [NOT] IN (subquery) or [NOT] EXISTS (subquery) become semi/anti
 * joins of `*plan`; the others are bound and ANDed into *rest. Only uncorrelated subqueries
 * (EXISTS may correlate by equalities with the outer query: those become the join keys). */
static int split_where(const hudi_sql_expr *e, const hudi_sql_expr **list, int32_t *n,
                       int32_t cap) {
    if (e->kind == HUDI_SQL_E_BINARY && e->op == HUDI_SQL_OP_AND) {
        if (split_where(e->left, list, n, cap) < 0) return -1;
        return split_where(e->right, list, n, cap);
    }
    if (*n >= cap) return -1;
    list[(*n)++] = e;
    return 0;
}

static int bind_in_subquery(hudi_sql_binder *b, const hudi_sql_scope *sc, const hudi_sql_expr *e,
                            bool negated, hudi_sql_plan **plan) {
    hudi_sql_bexpr *x;
    int rc = hudi_sql_bind_expr(b, sc, NULL, e->left, &x);
    if (rc < 0) return rc;
    hudi_sql_plan *sub;
    if ((rc = hudi_sql_bind_query(b, e->query, &sub, NULL)) < 0) return rc;
    if (sub->schema.n_children != 1)
        return ERR(b, e->pos, HUDI_ESQL, "an IN subquery must return one column, not %d",
                   sub->schema.n_children);
    hudi_sql_bexpr *y = hudi_sql_bx_column(b, 0, &sub->schema.children[0]);
    if (!y) return oom(b);
    /* a common type for both keys */
    hudi_field t;
    if ((rc = hudi_sql_common_type(&b->r->arena, &x->type, &y->type, &t, b->err)) < 0) {
        return ERR(b, e->pos, HUDI_ESQL, "IN subquery: %s", b->err->message);
    }
    if ((rc = hudi_sql_bind_cast(b->ctx, x, &t, &x, b->err)) < 0) return rc;
    if ((rc = hudi_sql_bind_cast(b->ctx, y, &t, &y, b->err)) < 0) return rc;
    if (negated) {
        /* NOT IN is null-aware: a null in the subquery makes every row unknown (none pass),
         * a null on the left never passes. The subquery is run now to see its nulls. */
        if ((rc = hudi_sql_optimize(b, &sub)) < 0) return rc;
        hudi_batch *rows = NULL;
        if ((rc = hudi_sql_collect(b->ctx, sub, &rows, b->err)) < 0) return rc;
        bool has_null = rows->columns[0]->null_count > 0;
        hudi_batch_free(rows);
        hudi_sql_bexpr *c;
        if (has_null) {
            if ((rc = hudi_sql_bx_bool(b, false, &c)) < 0) return rc;
        } else {
            hudi_sql_bexpr **args = alloc(b, sizeof(*args));
            if (!args) return oom(b);
            args[0] = x;
            if ((rc = hudi_sql_bind_fn(b->ctx, "isnotnull", args, 1, e->pos, &c, b->err)) < 0)
                return rc;
        }
        if ((rc = hudi_sql_plan_filter(b, *plan, c, plan)) < 0) return rc;
    }
    hudi_sql_plan *j = hudi_sql_plan_new(b, HUDI_SQL_P_JOIN, *plan);
    if (!j) return oom(b);
    j->right = sub;
    j->join = negated ? HUDI_SQL_J_ANTI : HUDI_SQL_J_SEMI;
    j->n_keys = 1;
    j->left_keys = alloc(b, sizeof(*j->left_keys));
    j->right_keys = alloc(b, sizeof(*j->right_keys));
    if (!j->left_keys || !j->right_keys) return oom(b);
    j->left_keys[0] = x;
    j->right_keys[0] = y;
    j->schema = (*plan)->schema;
    *plan = j;
    return 0;
}

static int bind_exists(hudi_sql_binder *b, const hudi_sql_expr *e, bool negated,
                       hudi_sql_plan **plan) {
    hudi_sql_plan *sub;
    int rc = hudi_sql_bind_query(b, e->query, &sub, NULL);
    if (rc < 0) {
        if (rc == HUDI_ESQL && strstr(b->err->message, "UNRESOLVED_COLUMN"))
            return ERR(b, e->pos, HUDI_EUNSUPPORTED,
                       "correlated EXISTS subqueries are not supported yet (%s)", b->err->message);
        return rc;
    }
    if ((rc = hudi_sql_optimize(b, &sub)) < 0) return rc;
    hudi_batch *rows = NULL;
    if ((rc = hudi_sql_collect(b->ctx, sub, &rows, b->err)) < 0) return rc;
    bool any = rows->num_rows > 0;
    hudi_batch_free(rows);
    hudi_sql_bexpr *c;
    if ((rc = hudi_sql_bx_bool(b, any != negated, &c)) < 0) return rc;
    return hudi_sql_plan_filter(b, *plan, c, plan);
}

static int bind_where(hudi_sql_binder *b, const hudi_sql_scope *sc, const hudi_sql_expr *where,
                      hudi_sql_plan **plan) {
    const hudi_sql_expr *list[256];
    int32_t n = 0;
    if (split_where(where, list, &n, 256) < 0)
        return ERR(b, where->pos, HUDI_ESQL, "WHERE has more than 256 ANDed conditions");
    hudi_sql_bexpr **bound = alloc(b, sizeof(*bound) * (size_t)n);
    if (!bound) return oom(b);
    int32_t nb = 0;
    int rc;
    for (int32_t i = 0; i < n; i++) {
        const hudi_sql_expr *e = list[i];
        bool neg = false;
        if (e->kind == HUDI_SQL_E_UNARY && e->op == HUDI_SQL_OP_NOT &&
            (e->left->kind == HUDI_SQL_E_EXISTS || e->left->kind == HUDI_SQL_E_IN_QUERY)) {
            neg = true;
            e = e->left;
        }
        if (e->kind == HUDI_SQL_E_IN_QUERY) {
            if ((rc = bind_in_subquery(b, sc, e, neg != e->negated, plan)) < 0) return rc;
            continue;
        }
        if (e->kind == HUDI_SQL_E_EXISTS) {
            if ((rc = bind_exists(b, e, neg != e->negated, plan)) < 0) return rc;
            continue;
        }
        if ((rc = hudi_sql_bind_expr(b, sc, NULL, e, &bound[nb])) < 0) return rc;
        if (bound[nb]->type.type != HUDI_TYPE_BOOL && bound[nb]->type.type != HUDI_TYPE_NULL) {
            hudi_field t;
            if (hudi_field_init(&t, "", HUDI_TYPE_BOOL, true) < 0) return oom(b);
            rc = hudi_sql_bind_cast(b->ctx, bound[nb], &t, &bound[nb], b->err);
            hudi_field_dispose(&t);
            if (rc < 0) return rc;
        }
        nb++;
    }
    hudi_sql_bexpr *cond;
    if ((rc = hudi_sql_and_all(b, bound, nb, &cond)) < 0) return rc;
    if (cond) rc = hudi_sql_plan_filter(b, *plan, cond, plan);
    return rc;
}

static bool scope_has(const hudi_sql_scope *sc, const char *name) {
    for (int32_t i = 0; i < sc->n; i++)
        if (hudi_sql_ident_eq(sc->cols[i].name, name)) return true;
    return false;
}

/* ---- SELECT ---------------------------------------------------------------------------------- */

typedef struct sel_item {
    hudi_sql_bexpr *expr;
    const char *name;
    const hudi_sql_expr *ast; /* NULL for expanded stars */
} sel_item;

static bool has_aggregate(const hudi_sql_expr *e) {
    if (!e) return false;
    if (e->kind == HUDI_SQL_E_FUNC && !e->over) {
        const char *n = HUDI_SQL_AT(e->name.parts, const char, e->name.parts.len - 1);
        const hudi_sql_func *fn = hudi_sql_func_lookup(n);
        if (fn && fn->kind == HUDI_SQL_FN_AGGREGATE) return true;
    }
    if (e->kind == HUDI_SQL_E_SUBQUERY || e->kind == HUDI_SQL_E_EXISTS ||
        e->kind == HUDI_SQL_E_IN_QUERY)
        return has_aggregate(e->left);
    if (has_aggregate(e->left) || has_aggregate(e->right) || has_aggregate(e->escape)) return true;
    for (uint32_t i = 0; i < e->args.len; i++)
        if (has_aggregate(HUDI_SQL_AT(e->args, hudi_sql_expr, i))) return true;
    return false;
}

static const char *item_name(hudi_sql_binder *b, const hudi_sql_select_item *it,
                             const hudi_sql_bexpr *x) {
    if (it->alias) return it->alias;
    const hudi_sql_expr *e = it->expr;
    if (e->kind == HUDI_SQL_E_COLUMN)
        return HUDI_SQL_AT(e->name.parts, const char, e->name.parts.len - 1);
    if (e->kind == HUDI_SQL_E_FIELD) return e->field;
    (void)b;
    return x->text ? x->text : "col";
}

/* The ORDER BY key `e`: an ordinal, a SELECT alias or expression, else an expression over the
 * FROM scope (appended to the SELECT list as a hidden column). Returns the item index. */
static int order_key(hudi_sql_binder *b, const hudi_sql_expr *e, sel_item *items, int32_t *n,
                     int32_t cap, int32_t n_visible, const hudi_sql_scope *sc, hudi_sql_aggctx *agg,
                     int32_t *index) {
    if (e->kind == HUDI_SQL_E_LITERAL && e->lit == HUDI_SQL_L_INT) {
        long k = strtol(e->text, NULL, 10);
        if (k < 1 || k > n_visible)
            return ERR(b, e->pos, HUDI_ESQL,
                       "ORDER BY position %ld is not in select list (valid range is [1, %d])", k,
                       n_visible);
        *index = (int32_t)k - 1;
        return 0;
    }
    if (e->kind == HUDI_SQL_E_COLUMN && e->name.parts.len == 1) {
        const char *nm = HUDI_SQL_AT(e->name.parts, const char, 0);
        for (int32_t i = 0; i < n_visible; i++)
            if (items[i].ast && hudi_sql_ident_eq(items[i].name, nm)) {
                *index = i;
                return 0;
            }
    }
    hudi_sql_bexpr *x;
    int rc = hudi_sql_bind_expr(b, sc, agg, e, &x);
    if (rc < 0) return rc;
    if (*n >= cap) return ERR(b, e->pos, HUDI_ESQL, "too many ORDER BY keys");
    items[*n].expr = x;
    items[*n].name = "_order_key";
    items[*n].ast = NULL;
    *index = (*n)++;
    return 0;
}

static int bind_select(hudi_sql_binder *b, const hudi_sql_query *q, hudi_sql_plan **out,
                       hudi_sql_scope *out_scope) {
    int rc;
    hudi_sql_plan *plan;
    hudi_sql_scope sc;
    if (q->from) {
        if ((rc = hudi_sql_bind_rel(b, q->from, &plan, &sc)) < 0) return rc;
    } else {
        /* SELECT without FROM: one row, no columns */
        plan = hudi_sql_plan_new(b, HUDI_SQL_P_VALUES, NULL);
        if (!plan) return oom(b);
        plan->n_rows = 1;
        memset(&sc, 0, sizeof(sc));
        sc.schema = &plan->schema;
    }
    if (q->where && (rc = bind_where(b, &sc, q->where, &plan)) < 0) return rc;
    /* aggregation */
    bool aggregate = q->group_by.len > 0 || has_aggregate(q->having);
    for (uint32_t i = 0; i < q->items.len && !aggregate; i++)
        aggregate = has_aggregate(HUDI_SQL_AT(q->items, hudi_sql_select_item, i)->expr);
    for (uint32_t i = 0; i < q->order_by.len && !aggregate; i++)
        aggregate = has_aggregate(HUDI_SQL_AT(q->order_by, hudi_sql_order_item, i)->expr);
    hudi_sql_aggctx aggc, *agg = NULL;
    memset(&aggc, 0, sizeof(aggc));
    if (aggregate) {
        agg = &aggc;
        aggc.pre = &sc;
        int32_t ng = (int32_t)q->group_by.len;
        aggc.group_ast = alloc(b, sizeof(*aggc.group_ast) * (size_t)(ng ? ng : 1));
        aggc.group = alloc(b, sizeof(*aggc.group) * (size_t)(ng ? ng : 1));
        aggc.group_text = alloc(b, sizeof(*aggc.group_text) * (size_t)(ng ? ng : 1));
        if (!aggc.group_ast || !aggc.group || !aggc.group_text) return oom(b);
        for (int32_t i = 0; i < ng; i++) {
            const hudi_sql_expr *g = HUDI_SQL_AT(q->group_by, hudi_sql_expr, i);
            /* GROUP BY 1 and GROUP BY alias name SELECT items */
            if (g->kind == HUDI_SQL_E_LITERAL && g->lit == HUDI_SQL_L_INT) {
                long k = strtol(g->text, NULL, 10);
                if (k < 1 || k > (long)q->items.len)
                    return ERR(
                        b, g->pos, HUDI_ESQL,
                        "GROUP BY position %ld is not in select list (valid range is [1, %u])", k,
                        q->items.len);
                g = HUDI_SQL_AT(q->items, hudi_sql_select_item, k - 1)->expr;
            } else if (g->kind == HUDI_SQL_E_COLUMN && g->name.parts.len == 1 &&
                       !scope_has(&sc, HUDI_SQL_AT(g->name.parts, const char, 0))) {
                for (uint32_t k = 0; k < q->items.len; k++) {
                    const hudi_sql_select_item *it = HUDI_SQL_AT(q->items, hudi_sql_select_item, k);
                    if (it->alias &&
                        hudi_sql_ident_eq(it->alias, HUDI_SQL_AT(g->name.parts, const char, 0))) {
                        g = it->expr;
                        break;
                    }
                }
            }
            if (has_aggregate(g))
                return ERR(b, g->pos, HUDI_ESQL, "aggregate functions are not allowed in GROUP BY");
            aggc.group_ast[i] = (hudi_sql_expr *)g;
            if ((rc = hudi_sql_bind_expr(b, &sc, NULL, g, &aggc.group[i])) < 0) return rc;
            if (!(aggc.group_text[i] = hudi_sql_canon(b, g))) return oom(b);
        }
        aggc.n_group = ng;
    }
    /* the SELECT list (over the aggregate's output when aggregating) */
    int32_t cap = 16;
    for (uint32_t i = 0; i < q->items.len; i++) {
        const hudi_sql_select_item *it = HUDI_SQL_AT(q->items, hudi_sql_select_item, i);
        cap += it->expr->kind == HUDI_SQL_E_STAR ? sc.n : 1;
    }
    cap += (int32_t)q->order_by.len;
    sel_item *items = alloc(b, sizeof(*items) * (size_t)cap);
    if (!items) return oom(b);
    int32_t n = 0;
    for (uint32_t i = 0; i < q->items.len; i++) {
        const hudi_sql_select_item *it = HUDI_SQL_AT(q->items, hudi_sql_select_item, i);
        if (it->expr->kind == HUDI_SQL_E_STAR) {
            if (agg)
                return ERR(b, it->expr->pos, HUDI_ESQL,
                           "'*' cannot be selected with GROUP BY or aggregates");
            const char *qual =
                it->expr->name.parts.len
                    ? HUDI_SQL_AT(it->expr->name.parts, const char, it->expr->name.parts.len - 1)
                    : NULL;
            int32_t before = n;
            for (int32_t k = 0; k < sc.n; k++) {
                const hudi_sql_scope_col *c = &sc.cols[k];
                if (qual ? (!c->qual || !hudi_sql_ident_eq(c->qual, qual)) : c->hidden) continue;
                items[n].expr = hudi_sql_bx_column(b, c->index, &sc.schema->children[c->index]);
                if (!items[n].expr) return oom(b);
                items[n].name = c->name;
                items[n].ast = it->expr;
                n++;
            }
            if (qual && n == before)
                return ERR(b, it->expr->pos, HUDI_ESQL, "cannot resolve '%s.*' given input columns",
                           qual);
            continue;
        }
        if ((rc = hudi_sql_bind_expr(b, &sc, agg, it->expr, &items[n].expr)) < 0) return rc;
        items[n].name = item_name(b, it, items[n].expr);
        items[n].ast = it->expr;
        n++;
    }
    int32_t n_visible = n;
    hudi_sql_bexpr *having = NULL;
    if (q->having) {
        if (!agg) return ERR(b, q->having->pos, HUDI_ESQL, "HAVING needs GROUP BY or an aggregate");
        if ((rc = hudi_sql_bind_expr(b, &sc, agg, q->having, &having)) < 0) return rc;
    }
    /* ORDER BY keys; keys over FROM columns become hidden items (not allowed with DISTINCT) */
    int32_t nk = (int32_t)q->order_by.len;
    hudi_sql_sort_key *keys = alloc(b, sizeof(*keys) * (size_t)(nk ? nk : 1));
    int32_t *key_items = alloc(b, sizeof(*key_items) * (size_t)(nk ? nk : 1));
    if (!keys || !key_items) return oom(b);
    for (int32_t i = 0; i < nk; i++) {
        const hudi_sql_order_item *o = HUDI_SQL_AT(q->order_by, hudi_sql_order_item, i);
        if ((rc = order_key(b, o->expr, items, &n, cap, n_visible, &sc, agg, &key_items[i])) < 0)
            return rc;
        keys[i].desc = o->desc;
        keys[i].nulls_first = o->nulls == 1 || (o->nulls == 0 && !o->desc);
    }
    if (q->distinct && n > n_visible)
        return ERR(b, q->pos, HUDI_ESQL, "ORDER BY of a SELECT DISTINCT must use selected columns");
    /* the aggregate node */
    if (agg) {
        hudi_sql_plan *a = hudi_sql_plan_new(b, HUDI_SQL_P_AGGREGATE, plan);
        if (!a) return oom(b);
        a->n_group = aggc.n_group;
        a->group = aggc.group;
        a->n_aggs = aggc.n_aggs;
        a->aggs = aggc.aggs;
        int32_t na = aggc.n_group + aggc.n_aggs;
        hudi_field *types = alloc(b, sizeof(*types) * (size_t)(na ? na : 1));
        const char **names = alloc(b, sizeof(*names) * (size_t)(na ? na : 1));
        if (!types || !names) return oom(b);
        for (int32_t i = 0; i < aggc.n_group; i++) {
            types[i] = aggc.group[i]->type;
            names[i] = aggc.group[i]->text ? aggc.group[i]->text : "group";
        }
        for (int32_t i = 0; i < aggc.n_aggs; i++) {
            types[aggc.n_group + i] = aggc.aggs[i]->type;
            names[aggc.n_group + i] = aggc.agg_text[i];
        }
        if ((rc = hudi_sql_plan_set_schema(b, a, types, names, na)) < 0) return rc;
        plan = a;
        if (having && (rc = hudi_sql_plan_filter(b, plan, having, &plan)) < 0) return rc;
    }
    /* project all items (visible, then hidden sort keys) */
    hudi_sql_bexpr **exprs = alloc(b, sizeof(*exprs) * (size_t)(n ? n : 1));
    const char **names = alloc(b, sizeof(*names) * (size_t)(n ? n : 1));
    if (!exprs || !names) return oom(b);
    for (int32_t i = 0; i < n; i++) {
        exprs[i] = items[i].expr;
        names[i] = items[i].name;
    }
    if ((rc = hudi_sql_plan_project(b, plan, exprs, names, n, &plan)) < 0) return rc;
    if (q->distinct) {
        hudi_sql_plan *d = hudi_sql_plan_new(b, HUDI_SQL_P_DISTINCT, plan);
        if (!d) return oom(b);
        d->schema = plan->schema;
        plan = d;
    }
    if (nk) {
        for (int32_t i = 0; i < nk; i++) {
            keys[i].expr =
                hudi_sql_bx_column(b, key_items[i], &plan->schema.children[key_items[i]]);
            if (!keys[i].expr) return oom(b);
        }
        hudi_sql_plan *s = hudi_sql_plan_new(b, HUDI_SQL_P_SORT, plan);
        if (!s) return oom(b);
        s->keys = keys;
        s->n_keys = nk;
        s->schema = plan->schema;
        plan = s;
    }
    if (n > n_visible) { /* drop the hidden sort keys */
        hudi_sql_bexpr **vis = alloc(b, sizeof(*vis) * (size_t)(n_visible ? n_visible : 1));
        if (!vis) return oom(b);
        for (int32_t i = 0; i < n_visible; i++)
            if (!(vis[i] = hudi_sql_bx_column(b, i, &plan->schema.children[i]))) return oom(b);
        if ((rc = hudi_sql_plan_project(b, plan, vis, names, n_visible, &plan)) < 0) return rc;
    }
    *out = plan;
    if (out_scope) return hudi_sql_scope_of(b, plan, NULL, out_scope);
    return 0;
}

/* ---- VALUES, set operations, the query ------------------------------------------------- */

static int bind_values(hudi_sql_binder *b, const hudi_sql_query *q, hudi_sql_plan **out) {
    int64_t nrows = q->rows.len;
    int32_t ncols = -1;
    for (int64_t i = 0; i < nrows; i++) {
        const hudi_sql_expr *row = HUDI_SQL_AT(q->rows, hudi_sql_expr, i);
        int32_t c = row->kind == HUDI_SQL_E_ROW ? (int32_t)row->args.len : 1;
        if (ncols >= 0 && c != ncols)
            return ERR(b, row->pos, HUDI_ESQL,
                       "VALUES rows have different numbers of columns (%d and %d)", ncols, c);
        ncols = c;
    }
    if (ncols <= 0) return ERR(b, q->pos, HUDI_ESQL, "VALUES needs at least one row");
    hudi_sql_bexpr **cells = alloc(b, sizeof(*cells) * (size_t)(nrows * ncols));
    hudi_field *types = alloc(b, sizeof(*types) * (size_t)ncols);
    const char **names = alloc(b, sizeof(*names) * (size_t)ncols);
    if (!cells || !types || !names) return oom(b);
    int rc;
    for (int64_t i = 0; i < nrows; i++) {
        const hudi_sql_expr *row = HUDI_SQL_AT(q->rows, hudi_sql_expr, i);
        for (int32_t c = 0; c < ncols; c++) {
            const hudi_sql_expr *x =
                row->kind == HUDI_SQL_E_ROW ? HUDI_SQL_AT(row->args, hudi_sql_expr, c) : row;
            if ((rc = hudi_sql_bind_expr(b, NULL, NULL, x, &cells[i * ncols + c])) < 0) return rc;
            const hudi_field *t = &cells[i * ncols + c]->type;
            if (i == 0)
                types[c] = *t;
            else if ((rc = hudi_sql_common_type(&b->r->arena, &types[c], t, &types[c], b->err)) < 0)
                return ERR(b, x->pos, HUDI_ESQL, "VALUES column %d: %s", c + 1, b->err->message);
        }
    }
    for (int32_t c = 0; c < ncols; c++) {
        char nm[24];
        snprintf(nm, sizeof(nm), "col%d", c + 1);
        if (!(names[c] = hudi_arena_strdup(&b->r->arena, nm))) return oom(b);
        if (types[c].type == HUDI_TYPE_NULL) {
            /* an all-NULL column is a string column, as Spark's VALUES (NULL) is void */
        }
        for (int64_t i = 0; i < nrows; i++) {
            hudi_sql_bexpr **cell = &cells[i * ncols + c];
            if (!hudi_sql_type_equal(&(*cell)->type, &types[c])) {
                if ((rc = hudi_sql_bind_cast(b->ctx, *cell, &types[c], cell, b->err)) < 0)
                    return rc;
                if ((rc = hudi_sql_fold(b, cell)) < 0) return rc;
            }
        }
    }
    hudi_sql_plan *p = hudi_sql_plan_new(b, HUDI_SQL_P_VALUES, NULL);
    if (!p) return oom(b);
    p->n_rows = nrows;
    p->rows = cells;
    if ((rc = hudi_sql_plan_set_schema(b, p, types, names, ncols)) < 0) return rc;
    *out = p;
    return 0;
}

/* Casts the columns of `p` to `types` with a projection when any differs. */
static int conform(hudi_sql_binder *b, hudi_sql_plan **p, const hudi_field *types,
                   const hudi_field *names_from) {
    int32_t n = (*p)->schema.n_children;
    bool same = true;
    for (int32_t i = 0; i < n && same; i++)
        same = hudi_sql_type_equal(&(*p)->schema.children[i], &types[i]);
    if (same) return 0;
    hudi_sql_bexpr **exprs = alloc(b, sizeof(*exprs) * (size_t)n);
    const char **names = alloc(b, sizeof(*names) * (size_t)n);
    if (!exprs || !names) return oom(b);
    for (int32_t i = 0; i < n; i++) {
        exprs[i] = hudi_sql_bx_column(b, i, &(*p)->schema.children[i]);
        if (!exprs[i]) return oom(b);
        int rc = hudi_sql_bind_cast(b->ctx, exprs[i], &types[i], &exprs[i], b->err);
        if (rc < 0) return rc;
        names[i] = names_from->children[i].name;
    }
    return hudi_sql_plan_project(b, *p, exprs, names, n, p);
}

static int bind_setop(hudi_sql_binder *b, const hudi_sql_query *q, hudi_sql_plan **out) {
    hudi_sql_plan *l, *r;
    int rc;
    if ((rc = hudi_sql_bind_query(b, q->left, &l, NULL)) < 0) return rc;
    if ((rc = hudi_sql_bind_query(b, q->right, &r, NULL)) < 0) return rc;
    int32_t n = l->schema.n_children;
    if (r->schema.n_children != n)
        return ERR(
            b, q->pos, HUDI_ESQL,
            "[NUM_COLUMNS_MISMATCH] %s can only be performed on inputs with the same number "
            "of columns, but the first input has %d columns and the second input has %d columns",
            q->setop == HUDI_SQL_SET_UNION       ? "UNION"
            : q->setop == HUDI_SQL_SET_INTERSECT ? "INTERSECT"
                                                 : "EXCEPT",
            n, r->schema.n_children);
    hudi_field *types = alloc(b, sizeof(*types) * (size_t)n);
    if (!types) return oom(b);
    for (int32_t i = 0; i < n; i++)
        if ((rc = hudi_sql_common_type(&b->r->arena, &l->schema.children[i], &r->schema.children[i],
                                       &types[i], b->err)) < 0)
            return ERR(b, q->pos, HUDI_ESQL, "column %d of the set operation: %s", i + 1,
                       b->err->message);
    hudi_field lnames = l->schema;
    if ((rc = conform(b, &l, types, &lnames)) < 0) return rc;
    if ((rc = conform(b, &r, types, &lnames)) < 0) return rc;
    hudi_sql_plan *s = hudi_sql_plan_new(b, HUDI_SQL_P_SETOP, l);
    if (!s) return oom(b);
    s->right = r;
    s->setop = q->setop;
    s->all = q->all;
    const char **names = alloc(b, sizeof(*names) * (size_t)n);
    if (!names) return oom(b);
    for (int32_t i = 0; i < n; i++) names[i] = lnames.children[i].name;
    if ((rc = hudi_sql_plan_set_schema(b, s, types, names, n)) < 0) return rc;
    *out = s;
    return 0;
}

/* ORDER BY over a VALUES/set operation/TABLE query: keys name output columns. */
static int order_outer(hudi_sql_binder *b, const hudi_sql_query *q, hudi_sql_plan **plan) {
    hudi_sql_scope sc;
    int rc = hudi_sql_scope_of(b, *plan, NULL, &sc);
    if (rc < 0) return rc;
    int32_t nk = (int32_t)q->order_by.len;
    hudi_sql_sort_key *keys = alloc(b, sizeof(*keys) * (size_t)nk);
    if (!keys) return oom(b);
    for (int32_t i = 0; i < nk; i++) {
        const hudi_sql_order_item *o = HUDI_SQL_AT(q->order_by, hudi_sql_order_item, i);
        if (o->expr->kind == HUDI_SQL_E_LITERAL && o->expr->lit == HUDI_SQL_L_INT) {
            long k = strtol(o->expr->text, NULL, 10);
            if (k < 1 || k > (*plan)->schema.n_children)
                return ERR(b, o->expr->pos, HUDI_ESQL,
                           "ORDER BY position %ld is not in select list", k);
            keys[i].expr = hudi_sql_bx_column(b, (int32_t)k - 1, &(*plan)->schema.children[k - 1]);
            if (!keys[i].expr) return oom(b);
        } else if ((rc = hudi_sql_bind_expr(b, &sc, NULL, o->expr, &keys[i].expr)) < 0) {
            return rc;
        }
        keys[i].desc = o->desc;
        keys[i].nulls_first = o->nulls == 1 || (o->nulls == 0 && !o->desc);
    }
    hudi_sql_plan *s = hudi_sql_plan_new(b, HUDI_SQL_P_SORT, *plan);
    if (!s) return oom(b);
    s->keys = keys;
    s->n_keys = nk;
    s->schema = (*plan)->schema;
    *plan = s;
    return 0;
}

static int const_int(hudi_sql_binder *b, const hudi_sql_expr *e, const char *what, int64_t *out) {
    hudi_sql_bexpr *x;
    int rc = hudi_sql_bind_expr(b, NULL, NULL, e, &x);
    if (rc < 0) return rc;
    if (x->kind != HUDI_SQL_BX_CONST || !hudi_array_is_valid(x->value, 0))
        return ERR(b, e->pos, HUDI_ESQL, "%s must be a constant integer", what);
    switch (x->type.type) {
    case HUDI_TYPE_INT8: *out = ((int8_t *)x->value->values)[0]; break;
    case HUDI_TYPE_INT16: *out = ((int16_t *)x->value->values)[0]; break;
    case HUDI_TYPE_INT32: *out = ((int32_t *)x->value->values)[0]; break;
    case HUDI_TYPE_INT64: *out = ((int64_t *)x->value->values)[0]; break;
    default: return ERR(b, e->pos, HUDI_ESQL, "%s must be an integer", what);
    }
    if (*out < 0)
        return ERR(b, e->pos, HUDI_ESQL, "%s must be zero or positive, not %lld", what,
                   (long long)*out);
    return 0;
}

int hudi_sql_bind_query(hudi_sql_binder *b, const hudi_sql_query *q, hudi_sql_plan **out,
                        hudi_sql_scope *scope) {
    int rc;
    bool pushed = false;
    if (q->ctes.len) {
        if (b->n_ctes >= 16) return ERR(b, q->pos, HUDI_ESQL, "WITH nested more than 16 deep");
        b->ctes[b->n_ctes++] = &q->ctes;
        pushed = true;
    }
    hudi_sql_plan *p = NULL;
    switch (q->kind) {
    case HUDI_SQL_Q_SELECT: rc = bind_select(b, q, &p, NULL); break;
    case HUDI_SQL_Q_VALUES: rc = bind_values(b, q, &p); break;
    case HUDI_SQL_Q_SETOP: rc = bind_setop(b, q, &p); break;
    case HUDI_SQL_Q_TABLE: {
        hudi_sql_rel rel;
        memset(&rel, 0, sizeof(rel));
        rel.kind = HUDI_SQL_R_TABLE;
        rel.name = q->table;
        rel.pos = q->pos;
        hudi_sql_scope sc;
        rc = hudi_sql_bind_rel(b, &rel, &p, &sc);
        break;
    }
    default: rc = ERR(b, q->pos, HUDI_ESQL, "unknown query kind");
    }
    if (rc == 0 && q->kind != HUDI_SQL_Q_SELECT && q->order_by.len) rc = order_outer(b, q, &p);
    if (rc == 0 && (q->limit || q->offset)) {
        int64_t limit = -1, offset = 0;
        if (q->limit) rc = const_int(b, q->limit, "LIMIT", &limit);
        if (rc == 0 && q->offset) rc = const_int(b, q->offset, "OFFSET", &offset);
        if (rc == 0) {
            hudi_sql_plan *l = hudi_sql_plan_new(b, HUDI_SQL_P_LIMIT, p);
            if (!l) {
                rc = oom(b);
            } else {
                l->limit = limit;
                l->offset = offset;
                l->schema = p->schema;
                p = l;
            }
        }
    }
    if (pushed) b->n_ctes--;
    if (rc < 0) return rc;
    *out = p;
    if (scope) return hudi_sql_scope_of(b, p, NULL, scope);
    return 0;
}
