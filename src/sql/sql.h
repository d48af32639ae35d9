/* sql.h - the SQL front end: lexer and parser for hudic's dialect (Spark SQL, Hudi's
 * extensions, the Flink DDL forms), documented in docs/SQL.md.
 *
 * Invariant: nothing here allocates outside the caller's arena, and nothing prints. A syntax
 * error is HUDI_ESQL with the message "line L, column C: <what>" and the position kept in the
 * parser, so a caller can show the offending line with hudi_sql_error_context. */
#ifndef HUDI_SQL_H
#define HUDI_SQL_H

#include "sql/ast.h"

/* ---- lexer ---------------------------------------------------------------------------- */

typedef enum hudi_sql_tok_kind {
    HUDI_SQL_TK_EOF,
    HUDI_SQL_TK_WORD,       /* identifier or keyword (keywords are not reserved) */
    HUDI_SQL_TK_QIDENT,     /* `backquoted`: text is the decoded name */
    HUDI_SQL_TK_STRING,     /* '...' or "...": text is the decoded bytes */
    HUDI_SQL_TK_NUMBER,     /* lit says which kind; text is the digits without suffix */
    HUDI_SQL_TK_BINARY,     /* X'0AFF': text is the decoded bytes */
    HUDI_SQL_TK_OP,         /* punctuation and operators: text is the operator */
    HUDI_SQL_TK_HINT_START, /* the opening of a hint comment */
    HUDI_SQL_TK_HINT_END,   /* the close of a hint comment */
} hudi_sql_tok_kind;

typedef struct hudi_sql_token {
    hudi_sql_tok_kind kind;
    hudi_sql_lit_kind lit; /* NUMBER */
    const char *text;      /* for WORD and OP: points into the source (not NUL-terminated) */
    size_t text_len;
    hudi_sql_pos pos;
    hudi_sql_pos end; /* just past the token */
    uint32_t src_len; /* bytes of source the token spans */
    bool lex_error;   /* parser only: an end token standing for a token that failed to lex */
} hudi_sql_token;

typedef struct hudi_sql_lexer {
    const char *src;
    size_t len, off;
    uint32_t line, col;
    bool in_hint;
    bool stmt_start; /* nothing but comments since the last ';' (for '#' and '//' lines) */
    hudi_arena *arena;
} hudi_sql_lexer;

void hudi_sql_lexer_init(hudi_sql_lexer *lx, hudi_arena *arena, const char *src, size_t len);

/** Reads the next token into `t`. Returns 0, or HUDI_ESQL with `*err_pos` set and `err`
 *  holding the bare message (no position prefix), or HUDI_ENOMEM. After an error the lexer
 *  has moved past the bad input (a character, or a literal or comment that never closes), so
 *  the next call goes on from there. */
int hudi_sql_lex(hudi_sql_lexer *lx, hudi_sql_token *t, hudi_sql_pos *err_pos, hudi_error *err);

/* ---- parser --------------------------------------------------------------------------- */

typedef struct hudi_sql_parser {
    hudi_sql_lexer lx;
    hudi_arena *arena;
    hudi_sql_token tok[5]; /* current token and four of lookahead */
    int ntok;              /* tokens valid in tok[] */
    hudi_sql_pos error_pos;
    int rc;      /* the error's code (HUDI_ESQL or HUDI_ENOMEM) */
    bool failed; /* the last statement failed; skip to the next ';' */
    bool lex_failed;
    int depth; /* nesting, bounded so hostile input cannot exhaust the stack */
    hudi_error *err;
    hudi_sql_pos last_end; /* just past the last consumed token */
} hudi_sql_parser;

void hudi_sql_parser_init(hudi_sql_parser *p, hudi_arena *arena, const char *src, size_t len);

/** Parses the next statement of the script. Returns 1 with `*out` set, 0 at the end of the
 *  text, or a negative code (HUDI_ESQL with "line L, column C: ..."; p->error_pos holds the
 *  position). After an error the next call resumes after the next ';'. Empty statements are
 *  skipped. */
int hudi_sql_parser_next(hudi_sql_parser *p, hudi_sql_stmt **out, hudi_error *err);

/** Parses exactly one statement (optional trailing ';'). `err_pos` may be NULL. */
int hudi_sql_parse(hudi_sql_stmt **out, hudi_arena *arena, const char *src, size_t len,
                   hudi_sql_pos *err_pos, hudi_error *err);

/** Appends two lines to `out`: the source line holding `pos`, and a caret under `pos`'s
 *  column (tabs kept so the caret lines up). Used to show a syntax error under its message. */
void hudi_sql_error_context(hudi_buf *out, const char *src, size_t len, hudi_sql_pos pos);

#endif
