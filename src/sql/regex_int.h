/* regex_int.h - Java-style regular expressions (PCRE2, UTF-8) for RLIKE and the regexp_*
 * functions: a constant pattern is compiled once when the call is bound, a pattern that
 * changes per row is recompiled only when it differs from the previous row's. */
#ifndef HUDI_SQL_REGEX_INT_H
#define HUDI_SQL_REGEX_INT_H

#include "sql/fn_int.h"

/* If argument `arg` is a constant string, compiles it into *state (statement arena memory; no
 * free needed). HUDI_ESQL naming the function for a bad pattern. */
int hudi_sql_regex_bind(hudi_sql_bind_call *call, int32_t arg, void **state, hudi_error *err);

typedef struct hudi_sql_regex_cursor {
    void *fixed;   /* the bound constant pattern, or NULL */
    void *code;    /* pcre2_code * in use */
    void *own;     /* pcre2_code * compiled for `last` (heap) */
    hudi_buf last; /* the pattern `own` was compiled from */
    void *md;      /* pcre2_match_data * */
    size_t *ovector;
    uint32_t groups; /* capture groups of the pattern */
} hudi_sql_regex_cursor;

void hudi_sql_regex_cursor_init(hudi_sql_regex_cursor *c, void *bound_state);
/* Finds the first match of `pattern` (ignored when a constant was bound) in subject at or after
 * byte `start`: 1 and c->ovector set, 0 when none, or a negative error. */
int hudi_sql_regex_find(hudi_sql_regex_cursor *c, hudi_slice pattern, hudi_slice subject,
                        size_t start, hudi_error *err);
void hudi_sql_regex_cursor_dispose(hudi_sql_regex_cursor *c);

#endif
