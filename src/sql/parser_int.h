/* parser_int.h - helpers shared by the parser's files (parser.c: tokens, names, types,
 * expressions and queries; parse_stmt.c: statements). Not used outside src/sql.
 *
 * Convention: parse functions return the node, or NULL after recording the first error in
 * the parser (later errors never overwrite it), so callers just propagate NULL. */
#ifndef HUDI_SQL_PARSER_INT_H
#define HUDI_SQL_PARSER_INT_H

#include "sql/sql.h"

#define PARSE_MAX_DEPTH 512

typedef hudi_sql_parser P;

hudi_sql_token *hudi_sql_peek(P *p, int k);
void hudi_sql_advance(P *p);
bool hudi_sql_failed(const P *p);
void *hudi_sql_fail(P *p, const hudi_sql_token *t, const char *fmt, ...) HUDI_PRINTF(3, 4);
void *hudi_sql_expected(P *p, const char *what);
void *hudi_sql_oom(P *p);
void *hudi_sql_new(P *p, size_t size);
bool hudi_sql_push(P *p, hudi_sql_list *l, void *item);
bool hudi_sql_is_kw(const hudi_sql_token *t, const char *kw);
bool hudi_sql_at_kw(P *p, int k, const char *kw);
bool hudi_sql_accept_kw(P *p, const char *kw);
bool hudi_sql_expect_kw(P *p, const char *kw);
bool hudi_sql_at_op(P *p, int k, const char *op);
bool hudi_sql_accept_op(P *p, const char *op);
bool hudi_sql_expect_op(P *p, const char *op);
bool hudi_sql_at_ident(P *p, int k);
const char *hudi_sql_ident(P *p);
bool hudi_sql_qname(P *p, hudi_sql_name *out);
bool hudi_sql_ident_list(P *p, hudi_sql_list *out); /* ( a, b, ... ) */
const char *hudi_sql_string(P *p, size_t *len);     /* adjacent literals concatenated */
bool hudi_sql_at_query_start(P *p, int k);
bool hudi_sql_enter(P *p);
void hudi_sql_leave(P *p);

hudi_sql_type *hudi_sql_parse_type(P *p);
hudi_sql_expr *hudi_sql_parse_expr(P *p);
hudi_sql_expr *hudi_sql_parse_value(P *p);   /* no AND/OR/NOT/predicates at the top */
hudi_sql_expr *hudi_sql_parse_literal(P *p); /* constants: properties, CALL, PARTITION */
hudi_sql_query *hudi_sql_parse_query(P *p);
/* `WITH name AS (query), ...` when there (else nothing is read): the CTEs into `ctes`. */
bool hudi_sql_parse_ctes(P *p, hudi_sql_list *ctes);
/* `q` with `ctes` in scope (q wrapped in a SELECT * when it has CTEs of its own). */
hudi_sql_query *hudi_sql_query_add_ctes(P *p, hudi_sql_query *q, hudi_sql_list ctes);
hudi_sql_rel *hudi_sql_parse_relation(P *p); /* one FROM item with its joins */
hudi_sql_rel *hudi_sql_parse_table_ref(P *p, bool allow_alias);
bool hudi_sql_parse_hints(P *p, hudi_sql_list *out);
bool hudi_sql_parse_props(P *p, hudi_sql_list *out, bool values);
const char *hudi_sql_parse_alias(P *p);

hudi_sql_stmt *hudi_sql_parse_statement(P *p);

#endif
