/* bind.h - the binder's internals shared by bind.c (queries and expressions), plan.c (pruning,
 * pushdown, EXPLAIN) and dml.c (INSERT, UPDATE, DELETE, MERGE).
 *
 * A scope lists the columns a query block can see: each is an output column of the plan being
 * built (index), with the qualifier it can be named by (a table name or alias). Binding an
 * expression resolves names in the scope, types every node, and inserts Spark's implicit
 * casts through the function registry (engine.h). */
#ifndef HUDI_SQL_BIND_H
#define HUDI_SQL_BIND_H

#include "sql/session.h"

typedef struct hudi_sql_scope_col {
    const char *qual; /* table name or alias (lower case), NULL when none */
    const char *name; /* column name as the schema spells it */
    int32_t index;    /* output column of the plan the scope describes */
    bool hidden;      /* not part of `*` (the right side's USING columns) */
} hudi_sql_scope_col;

typedef struct hudi_sql_scope {
    hudi_sql_scope_col *cols;
    int32_t n;
    const hudi_field *schema; /* the plan's output schema */
} hudi_sql_scope;

/* An aggregation being bound: GROUP BY expressions and the aggregate calls found so far. */
typedef struct hudi_sql_aggctx {
    const hudi_sql_scope *pre; /* the scope below the aggregate */
    int32_t n_group;
    hudi_sql_expr **group_ast;
    hudi_sql_bexpr **group;
    char **group_text; /* canonical text of each GROUP BY expression */
    hudi_sql_aggcall **aggs;
    char **agg_text;
    int32_t n_aggs, cap_aggs;
} hudi_sql_aggctx;

typedef struct hudi_sql_binder {
    hudi_sql_session *s;
    hudi_sql_result *r;
    hudi_sql_ctx *ctx;
    hudi_error *err;
    const hudi_sql_list *ctes[16]; /* WITH lists in scope, innermost last */
    int n_ctes;
    hudi_batch *one_row; /* a 1-row batch without columns, for folding constants */
} hudi_sql_binder;

void hudi_sql_binder_init(hudi_sql_binder *b, hudi_sql_session *s, hudi_sql_result *r,
                          hudi_error *err);

/* Binds a query into a plan; *scope (may be NULL) gets its output scope. */
int hudi_sql_bind_query(hudi_sql_binder *b, const hudi_sql_query *q, hudi_sql_plan **out,
                        hudi_sql_scope *scope);
/* Binds one expression against `sc` (no aggregates allowed when agg is NULL). */
int hudi_sql_bind_expr(hudi_sql_binder *b, const hudi_sql_scope *sc, hudi_sql_aggctx *agg,
                       const hudi_sql_expr *e, hudi_sql_bexpr **out);
/* Binds a FROM item (table, subquery, join) into a plan and its scope. */
int hudi_sql_bind_rel(hudi_sql_binder *b, const hudi_sql_rel *rel, hudi_sql_plan **out,
                      hudi_sql_scope *scope);
/* A SCAN of every column of a catalog entry; qualifier `qual`. */
int hudi_sql_bind_scan(hudi_sql_binder *b, const hudi_catalog_table *entry, const char *qual,
                       const hudi_sql_rel *rel, hudi_sql_plan **out, hudi_sql_scope *scope);

/* Records a binding error: "line L, column C: <message>" when `pos` is known. Returns `code`. */
int hudi_sql_binder_error(hudi_sql_binder *b, hudi_sql_pos pos, int code, const char *fmt, ...)
    HUDI_PRINTF(4, 5);
#define ERR(b, pos, code, ...) hudi_sql_binder_error(b, pos, code, __VA_ARGS__)

/* ANDs n conditions (n = 0: *out = NULL), each node named "(a AND b)" for EXPLAIN. */
int hudi_sql_and_all(hudi_sql_binder *b, hudi_sql_bexpr **list, int32_t n, hudi_sql_bexpr **out);

/* Node builders (arena). */
hudi_sql_bexpr *hudi_sql_bx_column(hudi_sql_binder *b, int32_t index, const hudi_field *type);
/* A constant of `type` holding row 0 of `value` (copied), or a typed NULL when value is NULL. */
int hudi_sql_bx_const(hudi_sql_binder *b, const hudi_field *type, const hudi_array *value,
                      int64_t row, hudi_sql_bexpr **out);
int hudi_sql_bx_string(hudi_sql_binder *b, const char *s, size_t n, hudi_sql_bexpr **out);
int hudi_sql_bx_bool(hudi_sql_binder *b, bool v, hudi_sql_bexpr **out);
/* Evaluates a call whose arguments are all constants once, replacing it with the constant. */
int hudi_sql_fold(hudi_sql_binder *b, hudi_sql_bexpr **e);

/* Plan builders (arena). The schema is copied. */
hudi_sql_plan *hudi_sql_plan_new(hudi_sql_binder *b, hudi_sql_plan_kind kind, hudi_sql_plan *left);
/* PROJECT of `exprs` named names[i]. */
int hudi_sql_plan_project(hudi_sql_binder *b, hudi_sql_plan *child, hudi_sql_bexpr **exprs,
                          const char *const *names, int32_t n, hudi_sql_plan **out);
int hudi_sql_plan_filter(hudi_sql_binder *b, hudi_sql_plan *child, hudi_sql_bexpr *cond,
                         hudi_sql_plan **out);
/* Sets p->schema to a STRUCT of n columns typed types[i] and named names[i]. */
int hudi_sql_plan_set_schema(hudi_sql_binder *b, hudi_sql_plan *p, const hudi_field *types,
                             const char *const *names, int32_t n);
/* A scope naming each output column of `p` with qualifier `qual`. */
int hudi_sql_scope_of(hudi_sql_binder *b, const hudi_sql_plan *p, const char *qual,
                      hudi_sql_scope *out);

/* plan.c: column pruning and predicate pushdown into scans (after binding). */
int hudi_sql_optimize(hudi_sql_binder *b, hudi_sql_plan **root);

/* Canonical text of an expression (its AST rendering, lower case), for matching GROUP BY
 * expressions in SELECT and HAVING. */
char *hudi_sql_canon(hudi_sql_binder *b, const hudi_sql_expr *e);

/* Case-insensitive comparison of identifiers. */
bool hudi_sql_ident_eq(const char *a, const char *b);
char *hudi_sql_lower(hudi_arena *a, const char *s);

#endif
