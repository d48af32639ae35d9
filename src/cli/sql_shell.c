/* sql_shell.c - the statement loop of `hudic sql`: statements from -e, -f, piped input and
 * the terminal, dot commands, timing and error lines, and the interactive shell (libedit line
 * editing, history, completion, Ctrl-C).
 *
 * Input is fed line by line. A line starting with '.' between statements is a dot command;
 * other lines collect into the pending statement, which runs as soon as a ';' outside quotes
 * and comments ends it (the scanner below), so a multi-line statement runs when it is complete,
 * in a script as at the prompt. Statements are then split and run by hudi_session_execute. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <editline/readline.h>

#include "sql_shell.h"

hudi_session *volatile sql_running_session;
static volatile sig_atomic_t sigint_seen;

/* ---- the statement-completeness scanner -------------------------------------------------- */

enum { SC_CODE, SC_SQUOTE, SC_DQUOTE, SC_BQUOTE, SC_LINE_COMMENT, SC_BLOCK_COMMENT };

size_t sql_scan_feed(sql_scan *sc, const char *text, size_t n) {
    size_t end = 0;
    for (size_t i = 0; i < n; i++) {
        char c = text[i], prev = sc->prev;
        sc->prev = c;
        switch (sc->state) {
        case SC_SQUOTE:
        case SC_DQUOTE:
            if (sc->escape)
                sc->escape = false;
            else if (c == '\\')
                sc->escape = true;
            else if (c == (sc->state == SC_SQUOTE ? '\'' : '"'))
                sc->state = SC_CODE;
            break;
        case SC_BQUOTE:
            if (c == '`') sc->state = SC_CODE;
            break;
        case SC_LINE_COMMENT:
            if (c == '\n') sc->state = SC_CODE, sc->line_start = true;
            break;
        case SC_BLOCK_COMMENT:
            if (prev == '/' && c == '*') {
                sc->depth++;
                sc->prev = 0;
            } else if (prev == '*' && c == '/') {
                sc->prev = 0;
                if (--sc->depth == 0) sc->state = SC_CODE;
            }
            break;
        default:
            if (c == '\n') {
                sc->line_start = true;
                break;
            }
            if (c == ' ' || c == '\t' || c == '\r') break;
            bool line_start = sc->line_start;
            sc->line_start = false;
            /* Hudi's documentation puts "# ..." and "// ..." lines between statements */
            if (line_start && sc->empty &&
                (c == '#' || (c == '/' && i + 1 < n && text[i + 1] == '/'))) {
                sc->state = SC_LINE_COMMENT;
            } else if (c == '-' && i + 1 < n && text[i + 1] == '-') {
                sc->state = SC_LINE_COMMENT;
            } else if (c == '/' && i + 1 < n && text[i + 1] == '*') {
                sc->state = SC_BLOCK_COMMENT;
                sc->depth = 1;
                sc->prev = 0;
                i++;
            } else if (c == ';') {
                end = i + 1;
                sc->empty = true;
            } else {
                sc->empty = false;
                if (c == '\'') sc->state = SC_SQUOTE;
                if (c == '"') sc->state = SC_DQUOTE;
                if (c == '`') sc->state = SC_BQUOTE;
            }
        }
    }
    return end;
}

/* Whether the scanner stands between statements (nothing but blanks and comments pending). */
static bool scan_idle(const sql_scan *sc) {
    return sc->empty && (sc->state == SC_CODE || sc->state == SC_LINE_COMMENT);
}

/* ---- the shell's state ------------------------------------------------------------------- */

void sql_shell_init(sql_shell *sh, hudi_session *s) {
    memset(sh, 0, sizeof(*sh));
    sh->session = s;
    sh->mode = SQL_MODE_SPARK;
    sh->headers = -1;
    sh->timer = -1;
    sh->maxrows = 40;
    sh->out = stdout;
    sh->scan = (sql_scan)SQL_SCAN_INIT;
}

static void close_output(sql_shell *sh) {
    if (sh->out_is_file) fclose(sh->out);
    sh->out = stdout;
    sh->out_is_file = false;
}

void sql_shell_dispose(sql_shell *sh) {
    close_output(sh);
    cli_buf_dispose(&sh->pending);
    cli_buf_dispose(&sh->history);
}

static bool timer_on(const sql_shell *sh) {
    if (sh->timer >= 0) return sh->timer == 1;
    return !sh->silent && (sh->mode == SQL_MODE_SPARK || sh->interactive);
}

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* spark-sql's timing line: the seconds as Java prints a double (0.208, 1.0, 12.5), then
 * ", Fetched N row(s)" when rows came back. */
static void print_timing(int64_t ms, int64_t rows) {
    char frac[8];
    snprintf(frac, sizeof(frac), "%03lld", (long long)(ms % 1000));
    for (int i = 2; i > 0 && frac[i] == '0'; i--) frac[i] = '\0';
    fprintf(stderr, "Time taken: %lld.%s seconds", (long long)(ms / 1000), frac);
    if (rows > 0) fprintf(stderr, ", Fetched %lld row(s)", (long long)rows);
    fputc('\n', stderr);
}

/* The error of a statement: in spark mode an error of the statement itself (syntax, unknown
 * or existing names, types: Spark's analysis errors) prints as spark-sql 3.3 does ("Error in
 * query: ..."; hudic has no Spark error classes), everything else as "Error: ..."; then the
 * statement's line with a caret when the error has a position. */
static void print_error(sql_shell *sh, const hudi_error *err, bool at_execute) {
    fflush(sh->out);
    fflush(stdout);
    if (sh->interactive && sigint_seen) fputc('\n', stderr); /* after the terminal's ^C */
    bool analysis = at_execute && (err->code == HUDI_ESQL || err->code == HUDI_ENOTFOUND ||
                                   err->code == HUDI_EEXISTS);
    const char *prefix = sh->mode == SQL_MODE_SPARK && analysis ? "Error in query: " : "Error: ";
    fprintf(stderr, "%s%s\n", prefix, err->message[0] ? err->message : hudi_error_name(err->code));
    const char *ctx = at_execute ? hudi_session_error_context(sh->session) : NULL;
    if (ctx && *ctx) {
        fputs(ctx, stderr);
        if (ctx[strlen(ctx) - 1] != '\n') fputc('\n', stderr);
    }
    fflush(stderr);
}

static int shell_error(sql_shell *sh, const char *fmt, ...) HUDI_PRINTF(2, 3);
static int shell_error(sql_shell *sh, const char *fmt, ...) {
    hudi_error err = HUDI_ERROR_INIT;
    va_list ap;
    va_start(ap, fmt);
    hudi_error_setv(&err, HUDI_EINVAL, fmt, ap);
    va_end(ap);
    print_error(sh, &err, false);
    sh->failed++;
    return sh->bail ? 1 : 0;
}

static void update_width(sql_shell *sh) {
    struct winsize ws;
    if (!sh->out_is_file && isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
        ws.ws_col > 0) {
        sh->width = ws.ws_col;
        return;
    }
    const char *cols = getenv("COLUMNS");
    sh->width = cols && !sh->out_is_file ? atoi(cols) : 0;
}

/* ---- running statements ------------------------------------------------------------------ */

/* Skips blanks and comments. */
static size_t skip_blank(const char *s, size_t n, size_t i) {
    while (i < n) {
        if (isspace((unsigned char)s[i])) {
            i++;
        } else if (s[i] == '-' && i + 1 < n && s[i + 1] == '-') {
            while (i < n && s[i] != '\n') i++;
        } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
            int depth = 1;
            i += 2;
            while (i < n && depth > 0) {
                if (s[i] == '/' && i + 1 < n && s[i + 1] == '*')
                    depth++, i += 2;
                else if (s[i] == '*' && i + 1 < n && s[i + 1] == '/')
                    depth--, i += 2;
                else
                    i++;
            }
        } else {
            break;
        }
    }
    return i;
}

/* Whether the next statement is spark-sql's `quit` or `exit`. */
static bool is_quit(const char *s, size_t n) {
    size_t i = skip_blank(s, n, 0);
    if (n - i < 4) return false;
    if (strncasecmp(s + i, "quit", 4) != 0 && strncasecmp(s + i, "exit", 4) != 0) return false;
    i = skip_blank(s, n, i + 4);
    return i == n || s[i] == ';';
}

static bool errors_ignored(const sql_shell *sh) {
    const char *v = hudi_session_get(sh->session, "hive.cli.errors.ignore");
    return v && strcasecmp(v, "true") == 0;
}

int sql_run_sql(sql_shell *sh, const char *sql, size_t n) {
    size_t pos = 0;
    update_width(sh);
    while (pos < n && !sh->quit) {
        if (is_quit(sql + pos, n - pos)) {
            sh->quit = true;
            break;
        }
        hudi_error err = HUDI_ERROR_INIT;
        hudi_result *r = NULL;
        size_t used = 0;
        int64_t t0 = now_ms(), rows = 0;
        sigint_seen = 0;
        sql_running_session = sh->session;
        sql_progress_start(&sh->progress, sh->session);
        int rc = hudi_session_execute(sh->session, sql + pos, n - pos, &used, &r, &err);
        bool at_execute = rc < 0;
        if (rc == 0 && r && hudi_result_has_rows(r)) {
            rc = sql_print_rows(sh, r, &rows, &err);
        } else if (rc == 0 && r && sh->mode == SQL_MODE_BOX &&
                   hudi_result_kind(r) == HUDI_STMT_DML && hudi_result_rows_affected(r) >= 0) {
            int64_t k = hudi_result_rows_affected(r);
            sql_progress_stop(&sh->progress);
            fprintf(sh->out, "%lld row%s affected\n", (long long)k, k == 1 ? "" : "s");
        }
        sql_progress_stop(&sh->progress);
        sql_running_session = NULL;
        int64_t ms = now_ms() - t0;
        if (fflush(sh->out) != 0 && rc == 0)
            rc = hudi_error_set(&err, HUDI_EIO, "writing the output: %s", strerror(errno));
        if (rc < 0) {
            hudi_result_free(r);
            print_error(sh, &err, at_execute);
            sh->failed++;
            if (sh->bail && !errors_ignored(sh)) return 1;
        } else if (r) {
            if (timer_on(sh)) print_timing(ms, rows);
            hudi_result_free(r);
        } else {
            break; /* only blanks and comments were left */
        }
        if (used == 0) break;
        pos += used;
    }
    return 0;
}

/* ---- files and scripts ------------------------------------------------------------------- */

static int dot_command(sql_shell *sh, const char *line, size_t n);

static void history_add_line(sql_shell *sh, const char *line, size_t n) {
    if (!sh->interactive) return;
    /* a statement's lines join with a space, or a newline after a line with a -- comment */
    if (sh->history.len) cli_buf_putc(&sh->history, sh->history_newline ? '\n' : ' ');
    cli_buf_append(&sh->history, line, n);
    sh->history_newline = memmem(line, n, "--", 2) != NULL;
}

int sql_feed_line(sql_shell *sh, const char *line, size_t n) {
    if (n && line[n - 1] == '\r') n--;
    if (sh->pending.len == 0) {
        size_t i = 0;
        while (i < n && (line[i] == ' ' || line[i] == '\t')) i++;
        if (i == n) return 0;
        if (line[i] == '.') {
            history_add_line(sh, line, n);
            return dot_command(sh, line + i, n - i);
        }
    }
    history_add_line(sh, line, n);
    size_t before = sh->pending.len;
    cli_buf_append(&sh->pending, line, n);
    cli_buf_putc(&sh->pending, '\n');
    if (sh->pending.failed) {
        cli_buf_clear(&sh->pending);
        sh->pending.failed = false;
        sh->scan = (sql_scan)SQL_SCAN_INIT;
        return shell_error(sh, "out of memory");
    }
    size_t end = sql_scan_feed(&sh->scan, sh->pending.data + before, n + 1);
    int rc = 0;
    if (end) {
        end += before;
        /* run a copy: a .read inside cannot happen, but the pending text moves below */
        rc = sql_run_sql(sh, sh->pending.data, end);
        size_t rest = sh->pending.len - end;
        memmove(sh->pending.data, sh->pending.data + end, rest);
        sh->pending.len = rest;
        sh->pending.data[rest] = '\0';
    }
    if (scan_idle(&sh->scan)) cli_buf_clear(&sh->pending);
    return rc;
}

int sql_feed_end(sql_shell *sh) {
    int rc = 0;
    if (sh->pending.len && !sh->quit && !scan_idle(&sh->scan))
        rc = sql_run_sql(sh, sh->pending.data, sh->pending.len);
    cli_buf_clear(&sh->pending);
    sh->scan = (sql_scan)SQL_SCAN_INIT;
    return rc;
}

int sql_run_script(sql_shell *sh, const char *text, size_t n) {
    size_t pos = 0;
    while (pos < n && !sh->quit) {
        const char *nl = memchr(text + pos, '\n', n - pos);
        size_t len = nl ? (size_t)(nl - (text + pos)) : n - pos;
        if (sql_feed_line(sh, text + pos, len) != 0) {
            cli_buf_clear(&sh->pending);
            sh->scan = (sql_scan)SQL_SCAN_INIT;
            return 1;
        }
        pos += len + (nl ? 1 : 0);
    }
    return sql_feed_end(sh);
}

int sql_run_file(sql_shell *sh, const char *path) {
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "r");
    if (!f) {
        shell_error(sh, "%s: %s", path, strerror(errno));
        return 1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    int rc = 0;
    while (!sh->quit && (got = getline(&line, &cap, f)) >= 0) {
        size_t len = (size_t)got;
        if (len && line[len - 1] == '\n') len--;
        if (sql_feed_line(sh, line, len) != 0) {
            rc = 1;
            cli_buf_clear(&sh->pending);
            sh->scan = (sql_scan)SQL_SCAN_INIT;
            break;
        }
    }
    if (rc == 0 && ferror(f)) {
        shell_error(sh, "%s: %s", path, strerror(errno));
        rc = 1;
    }
    if (rc == 0) rc = sql_feed_end(sh);
    free(line);
    if (!is_stdin) fclose(f);
    return rc;
}

/* ---- dot commands ------------------------------------------------------------------------ */

#define MAX_ARGS 8

/* Splits a dot command into words ('..' and ".." quote a word with blanks). */
static int split_words(char *s, char **argv) {
    int argc = 0;
    while (*s && argc < MAX_ARGS) {
        while (*s == ' ' || *s == '\t') s++;
        if (!*s) break;
        char q = (*s == '\'' || *s == '"') ? *s++ : 0;
        argv[argc++] = s;
        while (*s && (q ? *s != q : (*s != ' ' && *s != '\t'))) s++;
        if (*s) *s++ = '\0';
    }
    return argc;
}

static const char dot_help[] =
    ".exit, .quit          leave the shell\n"
    ".headers on|off       print column names (spark, csv, tsv modes)\n"
    ".help                 this list\n"
    ".maxrows N            box mode: rows shown before the middle is elided (0: all)\n"
    ".mode [MODE]          output mode: " SQL_MODE_NAMES "\n"
    ".output [FILE]        send results to FILE, or back to stdout\n"
    ".read FILE            run the statements of FILE\n"
    ".schema [TABLE]       SHOW CREATE TABLE of TABLE or of every table\n"
    ".tables [PATTERN]     the tables of the current database (LIKE pattern: % and _)\n"
    ".timer on|off         print the time each statement took\n";

static bool parse_on_off(const char *s, int *out) {
    if (strcasecmp(s, "on") == 0 || strcmp(s, "1") == 0 || strcasecmp(s, "true") == 0)
        return *out = 1, true;
    if (strcasecmp(s, "off") == 0 || strcmp(s, "0") == 0 || strcasecmp(s, "false") == 0)
        return *out = 0, true;
    return false;
}

/* SQL LIKE with % and _ (case-insensitive, as table names are). */
static bool like(const char *s, const char *p) {
    for (; *p; p++, s++) {
        if (*p == '%') {
            for (p++; *s; s++)
                if (like(s, p)) return true;
            return like(s, p);
        }
        if (!*s || (*p != '_' && tolower((unsigned char)*p) != tolower((unsigned char)*s)))
            return false;
    }
    return *s == '\0';
}

typedef struct name_list {
    char **names;
    size_t n, cap;
    bool failed;
} name_list;

static void name_list_add(void *payload, const char *text) {
    name_list *l = payload;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 32;
        char **p = realloc(l->names, cap * sizeof(char *));
        if (!p) {
            l->failed = true;
            return;
        }
        l->names = p;
        l->cap = cap;
    }
    char *copy = strdup(text);
    if (!copy) {
        l->failed = true;
        return;
    }
    l->names[l->n++] = copy;
}

static void name_list_free(name_list *l) {
    for (size_t i = 0; i < l->n; i++) free(l->names[i]);
    free(l->names);
    memset(l, 0, sizeof(*l));
}

static int list_tables(sql_shell *sh, name_list *out) {
    int rc = sql_query_column(sh->session, "SHOW TABLES", "tableName", name_list_add, out);
    if (rc < 0) return rc;
    return out->failed ? HUDI_ENOMEM : 0;
}

static int dot_tables(sql_shell *sh, const char *pattern) {
    name_list l = {0};
    int rc = list_tables(sh, &l);
    if (rc < 0) {
        name_list_free(&l);
        return shell_error(sh, ".tables: %s", hudi_error_name(rc));
    }
    for (size_t i = 0; i < l.n; i++)
        if (!pattern || like(l.names[i], pattern)) fprintf(sh->out, "%s\n", l.names[i]);
    fflush(sh->out);
    name_list_free(&l);
    return 0;
}

static void print_schema_text(void *payload, const char *text) {
    sql_shell *sh = payload;
    size_t n = strlen(text);
    while (n && (text[n - 1] == '\n' || text[n - 1] == ' ' || text[n - 1] == ';')) n--;
    fprintf(sh->out, "%.*s;\n", (int)n, text);
}

static int dot_schema(sql_shell *sh, const char *table) {
    name_list l = {0};
    int rc = 0;
    if (table)
        name_list_add(&l, table);
    else
        rc = list_tables(sh, &l);
    for (size_t i = 0; rc == 0 && i < l.n; i++) {
        cli_buf sql = CLI_BUF_INIT;
        /* a name is backquoted unless the user already qualified or quoted it */
        if (strchr(l.names[i], '.') || strchr(l.names[i], '`'))
            cli_buf_printf(&sql, "SHOW CREATE TABLE %s", l.names[i]);
        else
            cli_buf_printf(&sql, "SHOW CREATE TABLE `%s`", l.names[i]);
        if (sql.failed)
            rc = HUDI_ENOMEM;
        else
            rc = sql_query_column(sh->session, sql.data, NULL, print_schema_text, sh);
        cli_buf_dispose(&sql);
        if (rc < 0) {
            /* run it again in the open to print the engine's error */
            cli_buf again = CLI_BUF_INIT;
            cli_buf_printf(&again, "SHOW CREATE TABLE %s;", l.names[i]);
            name_list_free(&l);
            int r2 = again.failed ? shell_error(sh, "out of memory")
                                  : sql_run_sql(sh, again.data, again.len);
            cli_buf_dispose(&again);
            fflush(sh->out);
            return r2 ? r2 : (sh->bail ? 1 : 0);
        }
    }
    fflush(sh->out);
    name_list_free(&l);
    return 0;
}

static int dot_command(sql_shell *sh, const char *line, size_t n) {
    char *copy = strndup(line, n);
    if (!copy) return shell_error(sh, "out of memory");
    char *argv[MAX_ARGS] = {0};
    int argc = split_words(copy, argv), rc = 0;
    const char *cmd = argv[0] ? argv[0] : ".";
    int on;
    if (strcmp(cmd, ".exit") == 0 || strcmp(cmd, ".quit") == 0) {
        sh->quit = true;
    } else if (strcmp(cmd, ".help") == 0) {
        fputs(dot_help, sh->out);
        fflush(sh->out);
    } else if (strcmp(cmd, ".mode") == 0) {
        sql_mode m;
        if (argc < 2) {
            fprintf(sh->out, "%s\n", sql_mode_name(sh->mode));
            fflush(sh->out);
        } else if (sql_mode_parse(argv[1], &m)) {
            sh->mode = m;
        } else {
            rc = shell_error(sh, ".mode: unknown mode '%s' (modes: %s)", argv[1], SQL_MODE_NAMES);
        }
    } else if (strcmp(cmd, ".headers") == 0 || strcmp(cmd, ".header") == 0) {
        if (argc == 2 && parse_on_off(argv[1], &on))
            sh->headers = on;
        else
            rc = shell_error(sh, ".headers: expected on or off");
    } else if (strcmp(cmd, ".timer") == 0) {
        if (argc == 2 && parse_on_off(argv[1], &on))
            sh->timer = on;
        else
            rc = shell_error(sh, ".timer: expected on or off");
    } else if (strcmp(cmd, ".maxrows") == 0) {
        char *end = NULL;
        long long v = argc == 2 ? strtoll(argv[1], &end, 10) : -1;
        if (argc == 2 && end && *end == '\0' && v >= 0)
            sh->maxrows = v;
        else
            rc = shell_error(sh, ".maxrows: expected a number of rows (0: all)");
    } else if (strcmp(cmd, ".output") == 0 || strcmp(cmd, ".out") == 0) {
        fflush(sh->out);
        close_output(sh);
        if (argc >= 2 && strcmp(argv[1], "stdout") != 0) {
            FILE *f = fopen(argv[1], "w");
            if (!f)
                rc = shell_error(sh, ".output: %s: %s", argv[1], strerror(errno));
            else
                sh->out = f, sh->out_is_file = true;
        }
    } else if (strcmp(cmd, ".read") == 0) {
        if (argc != 2) {
            rc = shell_error(sh, ".read: expected a file name");
        } else if (sh->read_depth >= 16) {
            rc = shell_error(sh, ".read: %s: nested too deeply", argv[1]);
        } else {
            sh->read_depth++;
            bool bail = sh->bail;
            rc = sql_run_file(sh, argv[1]);
            sh->bail = bail;
            sh->read_depth--;
            if (rc && !sh->bail) rc = 0;
        }
    } else if (strcmp(cmd, ".tables") == 0) {
        rc = dot_tables(sh, argc >= 2 ? argv[1] : NULL);
    } else if (strcmp(cmd, ".schema") == 0) {
        rc = dot_schema(sh, argc >= 2 ? argv[1] : NULL);
    } else {
        rc = shell_error(sh, "unknown command '%s' (.help lists them)", cmd);
    }
    free(copy);
    return rc;
}

/* ---- completion -------------------------------------------------------------------------- */

static const char *const keywords[] = {"ADD",
                                       "ALL",
                                       "ALTER",
                                       "AND",
                                       "ANTI",
                                       "ARRAY",
                                       "AS",
                                       "ASC",
                                       "BETWEEN",
                                       "BIGINT",
                                       "BINARY",
                                       "BOOLEAN",
                                       "BY",
                                       "CALL",
                                       "CASE",
                                       "CAST",
                                       "CATALOG",
                                       "CHANGE",
                                       "COLUMN",
                                       "COLUMNS",
                                       "COMMENT",
                                       "CREATE",
                                       "CROSS",
                                       "DATABASE",
                                       "DATABASES",
                                       "DATE",
                                       "DECIMAL",
                                       "DELETE",
                                       "DESC",
                                       "DESCRIBE",
                                       "DISTINCT",
                                       "DOUBLE",
                                       "DROP",
                                       "ELSE",
                                       "END",
                                       "EXISTS",
                                       "EXPLAIN",
                                       "EXTENDED",
                                       "FALSE",
                                       "FIRST",
                                       "FLOAT",
                                       "FROM",
                                       "FULL",
                                       "FUNCTIONS",
                                       "GROUP",
                                       "HAVING",
                                       "IF",
                                       "IN",
                                       "INNER",
                                       "INSERT",
                                       "INT",
                                       "INTO",
                                       "IS",
                                       "JOIN",
                                       "LAST",
                                       "LEFT",
                                       "LIKE",
                                       "LIMIT",
                                       "LOCATION",
                                       "MAP",
                                       "MATCHED",
                                       "MERGE",
                                       "NOT",
                                       "NULL",
                                       "NULLS",
                                       "OF",
                                       "ON",
                                       "OPTIONS",
                                       "OR",
                                       "ORDER",
                                       "OUTER",
                                       "OVERWRITE",
                                       "PARTITION",
                                       "PARTITIONED",
                                       "PARTITIONS",
                                       "PURGE",
                                       "RENAME",
                                       "REPLACE",
                                       "RESET",
                                       "RIGHT",
                                       "SELECT",
                                       "SEMI",
                                       "SERDEPROPERTIES",
                                       "SET",
                                       "SHOW",
                                       "SMALLINT",
                                       "STRING",
                                       "STRUCT",
                                       "SYSTEM_TIME",
                                       "TABLE",
                                       "TABLES",
                                       "TBLPROPERTIES",
                                       "THEN",
                                       "TIMESTAMP",
                                       "TINYINT",
                                       "TO",
                                       "TRUE",
                                       "TRUNCATE",
                                       "UNION",
                                       "UNSET",
                                       "UPDATE",
                                       "USE",
                                       "USING",
                                       "VALUES",
                                       "WHEN",
                                       "WHERE",
                                       "WITH",
                                       "hudi",
                                       "parquet"};

static const char *const procedures[] = {
    "create_savepoint",    "delete_savepoint",      "help",
    "rollback_to_instant", "rollback_to_savepoint", "run_clean",
    "show_commit_files",   "show_commits",          "show_fs_path_detail",
    "show_savepoints",     "show_table_properties"};

static const char *const config_keys[] = {
    "hive.cli.errors.ignore",
    "hoodie.combine.before.insert",
    "hoodie.datasource.write.hive_style_partitioning",
    "hoodie.datasource.write.operation",
    "hoodie.datasource.write.partitionpath.field",
    "hoodie.datasource.write.precombine.field",
    "hoodie.datasource.write.recordkey.field",
    "hoodie.datasource.write.table.type",
    "hoodie.sql.bulk.insert.enable",
    "hoodie.sql.insert.mode",
    "hoodie.write.concurrency.mode",
    "hoodie.write.lock.wait_time_ms",
    "hudic.memory.limit",
    "spark.sql.cli.print.header",
    "spark.sql.session.timeZone",
};

static sql_shell *completing;   /* the shell of the running completion */
static name_list candidates;    /* this completion's words */
static name_list function_list; /* SHOW FUNCTIONS, once */
static bool functions_loaded;

static void add_candidate(const char *s) { name_list_add(&candidates, s); }

/* The word ending just before `end` in `s`, lower-cased, into out. */
static void word_before(const char *s, size_t end, char *out, size_t cap) {
    size_t i = end;
    while (i > 0 && isspace((unsigned char)s[i - 1])) i--;
    size_t j = i;
    while (j > 0 && (isalnum((unsigned char)s[j - 1]) || s[j - 1] == '_')) j--;
    size_t n = i - j < cap - 1 ? i - j : cap - 1;
    for (size_t k = 0; k < n; k++) out[k] = (char)tolower((unsigned char)s[j + k]);
    out[n] = '\0';
}

static void add_describe_column(void *payload, const char *text) {
    (void)payload;
    if (*text && *text != '#') add_candidate(text);
}

/* Adds the columns of every table named in `text` (the statement typed so far). */
static void add_columns_of_mentioned(const name_list *tables, const char *text) {
    for (size_t t = 0; t < tables->n; t++) {
        const char *name = tables->names[t];
        size_t n = strlen(name);
        bool found = false;
        for (const char *p = text; (p = strcasestr(p, name)) != NULL; p += n) {
            bool left = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
            bool right = !(isalnum((unsigned char)p[n]) || p[n] == '_');
            if (left && right) {
                found = true;
                break;
            }
        }
        if (!found) continue;
        char sql[512];
        snprintf(sql, sizeof(sql), "DESCRIBE `%s`", name);
        sql_query_column(completing->session, sql, "col_name", add_describe_column, NULL);
    }
}

static char *generate(const char *text, int state) {
    static size_t next;
    if (state == 0) next = 0;
    size_t n = strlen(text);
    bool lower = n > 0 && islower((unsigned char)text[0]);
    while (next < candidates.n) {
        const char *c = candidates.names[next++];
        if (strncasecmp(c, text, n) != 0) continue;
        char *out = strdup(c);
        /* keywords follow the case the user types in */
        if (out && lower)
            for (size_t i = 0; i < CLI_ARRAY_LEN(keywords); i++)
                if (strcmp(keywords[i], c) == 0) {
                    for (char *p = out; *p; p++) *p = (char)tolower((unsigned char)*p);
                    break;
                }
        return out;
    }
    return NULL;
}

static void collect_candidates(sql_shell *sh, const char *line, size_t start) {
    name_list_free(&candidates);
    char prev[64];
    word_before(line, start, prev, sizeof(prev));
    bool after_dot = start > 0 && line[start - 1] == '.';
    if (strcmp(prev, "set") == 0 || strcmp(prev, "reset") == 0) {
        for (size_t i = 0; i < CLI_ARRAY_LEN(config_keys); i++) add_candidate(config_keys[i]);
        sql_query_column(sh->session, "SET", "key", name_list_add, &candidates);
        return;
    }
    if (strcmp(prev, "call") == 0) {
        for (size_t i = 0; i < CLI_ARRAY_LEN(procedures); i++) add_candidate(procedures[i]);
        return;
    }
    name_list tables = {0};
    list_tables(sh, &tables);
    /* the whole statement: the lines already entered and this one */
    cli_buf all = CLI_BUF_INIT;
    cli_buf_append(&all, sh->pending.data ? sh->pending.data : "", sh->pending.len);
    cli_buf_puts(&all, line);
    if (!all.failed) add_columns_of_mentioned(&tables, all.data);
    cli_buf_dispose(&all);
    if (!after_dot) {
        for (size_t i = 0; i < tables.n; i++) add_candidate(tables.names[i]);
        for (size_t i = 0; i < CLI_ARRAY_LEN(keywords); i++) add_candidate(keywords[i]);
        if (!functions_loaded) {
            functions_loaded = true;
            sql_query_column(sh->session, "SHOW FUNCTIONS", NULL, name_list_add, &function_list);
        }
        for (size_t i = 0; i < function_list.n; i++) add_candidate(function_list.names[i]);
    }
    name_list_free(&tables);
}

static char **complete(const char *text, int start, int end) {
    (void)end;
    rl_attempted_completion_over = 1;
    if (!completing) return NULL;
    collect_candidates(completing, rl_line_buffer, (size_t)start);
    return rl_completion_matches(text, generate);
}

/* ---- the interactive shell --------------------------------------------------------------- */

static void on_sigint(int sig) {
    (void)sig;
    sigint_seen = 1;
    hudi_session *s = sql_running_session;
    if (s) hudi_session_cancel(s);
}

static char *history_path(void) {
    const char *env = getenv("HUDIC_HISTORY");
    if (env && *env) return strdup(env);
    const char *home = getenv("HOME");
    if (!home || !*home) return NULL;
    size_t n = strlen(home) + sizeof("/.hudic_history");
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/.hudic_history", home);
    return p;
}

int sql_interactive(sql_shell *sh) {
    char *hist = history_path();
    using_history();
    stifle_history(2000);
    if (hist) read_history(hist);
    completing = sh;
    rl_attempted_completion_function = complete;
    rl_basic_word_break_characters = " \t\n\"'`(),;=<>+-*/%|.";
    struct sigaction sa, old;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_sigint;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old);
    fprintf(stderr,
            "hudic %s SQL shell. Statements end with ';'. .help for help, Ctrl-D to exit.\n",
            hudi_version());
    char prompt[160], cont[160];
    while (!sh->quit) {
        snprintf(prompt, sizeof(prompt), "hudic (%s)> ", hudi_session_database(sh->session));
        size_t w = strlen(prompt) - 2;
        memset(cont, ' ', w);
        snprintf(cont + w, sizeof(cont) - w, "> ");
        fflush(stdout);
        sigint_seen = 0;
        char *line = readline(sh->pending.len ? cont : prompt);
        if (!line) {
            if (sigint_seen) {
                /* Ctrl-C at the prompt: drop what was typed */
                fputs("^C\n", stdout);
                cli_buf_clear(&sh->pending);
                cli_buf_clear(&sh->history);
                sh->scan = (sql_scan)SQL_SCAN_INIT;
                continue;
            }
            fputc('\n', stdout);
            break;
        }
        sql_feed_line(sh, line, strlen(line));
        free(line);
        if (sh->pending.len == 0 && sh->history.len) {
            if (!sh->history.failed) {
                add_history(sh->history.data);
                if (hist) write_history(hist);
            }
            cli_buf_clear(&sh->history);
            sh->history.failed = false;
        }
    }
    sql_feed_end(sh);
    fflush(stdout);
    sigaction(SIGINT, &old, NULL);
    completing = NULL;
    name_list_free(&candidates);
    name_list_free(&function_list);
    functions_loaded = false;
    free(hist);
    return CLI_EXIT_OK;
}
