/* cli.h - shared pieces of the hudic command line: the command tables main.c dispatches
 * on, argument parsing, error reporting and an output buffer.
 *
 * The CLI is a client of the public API only (include/hudi): its CMake target has no other
 * include path, so it cannot reach into the library's internals.
 *
 * Invariant: every command returns a process exit code (CLI_EXIT_*), prints runtime errors
 * as exactly one line "hudic: <message>" on stderr, and writes results only to stdout
 * (fully buffered, set up by main). Nothing here is part of the library. */
#ifndef HUDI_CLI_H
#define HUDI_CLI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hudi/hudi.h"
#include "hudi/hudi_arrow.h"
#include "hudi/hudi_json.h"
#include "hudi/hudi_parquet.h"
#include "hudi/hudi_table.h"

enum { CLI_EXIT_OK = 0, CLI_EXIT_RUNTIME = 1, CLI_EXIT_USAGE = 2 };

#define CLI_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- command tables -------------------------------------------------------------------- */

typedef struct cli_group cli_group;
typedef struct cli_command cli_command;

/* One option of a command while parsing. A flag sets *flag; an option with a value stores the
 * borrowed argv string in *value (given as --name VALUE or --name=VALUE). */
typedef struct cli_option {
    const char *name; /* with the dashes: "--limit" */
    const char **value;
    bool *flag;
} cli_option;

/* One option as --help (and docs/hudic.1) lists it. Every parsed option must have one:
 * cli_parse_args aborts on an undocumented option, so a test of the command catches it. */
typedef struct cli_option_doc {
    const char *name; /* "--limit" */
    const char *arg;  /* the value's placeholder ("N"); NULL for flags */
    const char *help; /* one line */
} cli_option_doc;

/* One command: `hudic <group> <name> <args>`. `run` gets argv with argv[0] = the command
 * name, plus its own table entries (for usage lines), and returns an exit code. */
struct cli_command {
    const char *name;
    const char *args;    /* synopsis after the name, for usage lines */
    const char *summary; /* one line for `hudic help` */
    int (*run)(const cli_group *g, const cli_command *self, int argc, char **argv);
    const cli_option_doc *options; /* for --help; NULL when the command has none */
    size_t n_options;
};

struct cli_group {
    const char *name;
    const char *summary;
    const cli_command *commands;
    size_t n_commands;
};

extern const cli_group cli_parquet_group; /* cmd_parquet.c */
extern const cli_group cli_table_group;   /* cmd_table.c */

/* `hudic sql [options]` (cmd_sql.c): argv[0] is "sql". Returns the exit code. */
int cli_sql_main(int argc, char **argv);
/* `hudic sql --help`. */
void cli_sql_help(FILE *out);

/* Prints "usage: hudic <group> <cmd> <args>" for `cmd` to `out`. */
void cli_print_usage(FILE *out, const cli_group *g, const cli_command *cmd);
/* The usage line, the summary and one line per option (`hudic <group> <cmd> --help`). */
void cli_print_command_help(FILE *out, const cli_group *g, const cli_command *cmd);

/* ---- argument parsing ------------------------------------------------------------------ */

/* Parses argv[1..] (argv[0] is the command name) against `opts`, collecting positional
 * arguments into pos[0..max_pos). "--" ends the options. Returns 0, or CLI_EXIT_USAGE after
 * printing "hudic: <problem>" and the usage line. `-h`/`--help` prints the command's help to
 * stdout and returns -1 (the caller exits 0). */
int cli_parse_args(int argc, char **argv, const cli_option *opts, size_t n_opts, const char **pos,
                   int min_pos, int max_pos, int *n_pos, const cli_group *g,
                   const cli_command *cmd);

/* ---- errors ---------------------------------------------------------------------------- */

/* Prints "hudic: <fmt...>" and the command's usage line to stderr; returns CLI_EXIT_USAGE. */
int cli_usage_error(const cli_group *g, const cli_command *cmd, const char *fmt, ...)
    HUDI_PRINTF(3, 4);
/* Prints a runtime error as one line "hudic: [<path>: ]<message>" on stderr (the path is
 * added only when the message does not already name it); returns CLI_EXIT_RUNTIME. */
int cli_runtime_error(const char *path, const hudi_error *err);
/* A failed scan filter (HUDI_EINVAL whose message holds "filter: ") as a usage error of
 * `option` ("--where: <why>"); any other error as a runtime error. */
int cli_filter_error(const cli_group *g, const cli_command *cmd, const char *option,
                     const char *path, const hudi_error *err);
/* Flushes stdout; a failed write becomes a runtime error. Returns `rc` otherwise. */
int cli_finish_output(int rc);

/* ---- output buffer ----------------------------------------------------------------------- */

/* A growable text buffer; a failed growth is sticky (later appends do nothing). */
typedef struct cli_buf {
    char *data; /* NUL-terminated when non-NULL */
    size_t len, cap;
    bool failed;
} cli_buf;
#define CLI_BUF_INIT                                                                               \
    { NULL, 0, 0, false }

void cli_buf_append(cli_buf *b, const void *p, size_t n);
void cli_buf_puts(cli_buf *b, const char *s);
void cli_buf_putc(cli_buf *b, char c);
void cli_buf_printf(cli_buf *b, const char *fmt, ...) HUDI_PRINTF(2, 3);
void cli_buf_clear(cli_buf *b);
void cli_buf_dispose(cli_buf *b);
/* Writes b to stdout and empties it; false (errno set) when stdout fails. */
bool cli_buf_flush(cli_buf *b);
/* The payload of cli_write_stdout: whether (and why) stdout failed. */
typedef struct cli_output {
    bool failed;
    int saved_errno;
} cli_output;
/* Writes to stdout for hudi_json_writer (payload: a cli_output): 0, or HUDI_EIO. */
int cli_write_stdout(void *payload, const char *data, size_t len);

/* ---- parquet printing (pq_print.c) ----------------------------------------------------- */

/* The schema tree in parquet-mr's text form, then the hudic type of each top-level column. */
void cli_print_parquet_schema(cli_buf *out, const hudi_parquet_file *f);
/* The footer: file facts, key/value metadata, column orders, row groups and chunks. */
void cli_print_parquet_meta(cli_buf *out, const hudi_parquet_file *f);

#endif
