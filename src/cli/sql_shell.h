/* sql_shell.h - the pieces of `hudic sql` shared by its option parsing (cmd_sql.c), the
 * statement loop and interactive shell (sql_shell.c) and result printing (sql_output.c).
 *
 * Everything goes through the public SQL API (hudi/hudi_sql.h). Rows go to the shell's output
 * (stdout or the file of `.output`); timing lines and errors go to stderr. */
#ifndef HUDI_CLI_SQL_SHELL_H
#define HUDI_CLI_SQL_SHELL_H

#include <signal.h>

#include "cli.h"
#include "hudi/hudi_sql.h"
#include "sql_progress.h"

/* Output modes (--mode, .mode). */
typedef enum sql_mode {
    SQL_MODE_SPARK,
    SQL_MODE_BOX,
    SQL_MODE_CSV,
    SQL_MODE_TSV,
    SQL_MODE_JSON,
    SQL_MODE_JSONL,
    SQL_MODE_LINE,
    SQL_MODE_MARKDOWN,
} sql_mode;

/* The mode named `name`; false when there is none. */
bool sql_mode_parse(const char *name, sql_mode *out);
const char *sql_mode_name(sql_mode m);
/* "spark, box, csv, ..." for messages and help. */
#define SQL_MODE_NAMES "spark, box, csv, tsv, json, jsonl, line, markdown"

/* Where the statement-completeness scanner stands after the text fed so far. */
typedef struct sql_scan {
    int state;       /* 0 code, 1 '..', 2 "..", 3 `..`, 4 -- comment, 5 block comment */
    int depth;       /* nesting of block comments */
    bool escape;     /* the previous character was a backslash inside a string */
    bool empty;      /* nothing but blanks and comments since the last ';' */
    bool line_start; /* only blanks so far on the current line */
    char prev;       /* the previous character (for "--", "/ *", "* /" and "//") */
} sql_scan;

#define SQL_SCAN_INIT                                                                              \
    { 0, 0, false, true, true, 0 }

/* Feeds text[0, n) to the scanner. Returns the offset just past the last ';' that ends a
 * statement within the text (outside quotes and comments), or 0 when there is none. */
size_t sql_scan_feed(sql_scan *sc, const char *text, size_t n);

typedef struct sql_shell {
    hudi_session *session;
    sql_mode mode;
    int headers; /* -1: the mode's default, 0 off, 1 on (.headers) */
    int timer;   /* -1: default (on in spark mode and interactively unless -S), 0, 1 */
    bool silent; /* -S */
    bool interactive;
    bool bail;       /* stop at the first failing statement (-e, -f, piped input) */
    bool quit;       /* `.exit`, `quit;` or `exit;` was given */
    int64_t maxrows; /* box mode: rows shown before the middle is elided (.maxrows) */
    int width;       /* terminal columns for box mode; 0 = do not fit */
    FILE *out;       /* stdout or the file of .output */
    bool out_is_file;
    int failed; /* statements that failed */
    /* the statement being typed or read: complete statements run as soon as they end */
    cli_buf pending;
    sql_scan scan;
    cli_buf history;       /* the pending statement as one history entry */
    bool history_newline;  /* its last line has a -- comment */
    int read_depth;        /* nesting of .read */
    sql_progress progress; /* the running statement's progress line */
} sql_shell;

/* The running session for the SIGINT handler (set while a statement runs). */
extern hudi_session *volatile sql_running_session;

/* Opens the shell's state around an open session. */
void sql_shell_init(sql_shell *sh, hudi_session *s);
/* Closes .output files and frees buffers (not the session). */
void sql_shell_dispose(sql_shell *sh);

/* Feeds one input line (without its newline): a dot command at a statement boundary, else SQL
 * appended to the pending statement, which runs as soon as a ';' ends it. Returns 0, or 1
 * when a statement failed and sh->bail is set. */
int sql_feed_line(sql_shell *sh, const char *line, size_t n);
/* The end of the input: runs a pending statement that has no ';'. Returns 0 or 1. */
int sql_feed_end(sql_shell *sh);
/* Runs a whole script text (lines fed one by one, then the end). */
int sql_run_script(sql_shell *sh, const char *text, size_t n);
/* Reads and runs the file at `path` ("-" is stdin). Returns 0, or 1 (error printed). */
int sql_run_file(sql_shell *sh, const char *path);
/* The interactive shell on the terminal; returns the exit code. */
int sql_interactive(sql_shell *sh);

/* Runs every statement of sql[0, n) and prints the results. Returns 0, or 1 at the first
 * failure when sh->bail is set (after printing the error). */
int sql_run_sql(sql_shell *sh, const char *sql, size_t n);

/* ---- sql_output.c ---------------------------------------------------------------------- */

/* Prints the rows of `r` (which has rows) in the shell's mode; *rows is set to the rows read.
 * Returns 0 or a negative HUDI_E* code with `err` filled (a stream error, a failed write). */
int sql_print_rows(sql_shell *sh, hudi_result *r, int64_t *rows, hudi_error *err);
/* Whether headers are printed in the current mode (spark: spark.sql.cli.print.header). */
bool sql_headers_on(const sql_shell *sh);
/* Spark's type name of an Arrow format string: "int", "decimal(10,2)", "array<string>". */
void sql_type_name(cli_buf *out, const struct ArrowSchema *col);

/* Runs `sql` quietly and calls `each` with the text of column `column` (by name; NULL: the
 * first column) of every row. For completion and .tables: errors are returned, not printed. */
int sql_query_column(hudi_session *s, const char *sql, const char *column,
                     void (*each)(void *payload, const char *text), void *payload);

#endif
