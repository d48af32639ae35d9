/* cli.h - shared pieces of the hudic command line: the command tables main.c dispatches
 * on, argument parsing, error reporting and value formatting.
 *
 * Invariant: every command returns a process exit code (CLI_EXIT_*), prints runtime errors
 * as exactly one line "hudic: <message>" on stderr, and writes results only to stdout
 * (fully buffered, set up by main). Nothing here is part of the library. */
#ifndef HUDI_CLI_H
#define HUDI_CLI_H

#include <stdio.h>

#include "base/base.h"
#include "columnar/columnar.h"
#include "columnar/render.h"
#include "format/parquet/meta.h" /* the footer printer; an exception in cmake/layers.txt */
#include "format/parquet/parquet.h"

enum { CLI_EXIT_OK = 0, CLI_EXIT_RUNTIME = 1, CLI_EXIT_USAGE = 2 };

/* ---- command tables -------------------------------------------------------------------- */

typedef struct cli_group cli_group;
typedef struct cli_command cli_command;

/* One command: `hudic <group> <name> <args>`. `run` gets argv with argv[0] = the command
 * name, plus its own table entries (for usage lines), and returns an exit code. */
struct cli_command {
    const char *name;
    const char *args;    /* synopsis after the name, for usage lines */
    const char *summary; /* one line for `hudic help` */
    int (*run)(const cli_group *g, const cli_command *self, int argc, char **argv);
};

struct cli_group {
    const char *name;
    const char *summary;
    const cli_command *commands;
    size_t n_commands;
};

extern const cli_group cli_parquet_group; /* cmd_parquet.c */
extern const cli_group cli_table_group;   /* cmd_table.c */

/* Prints "usage: hudic <group> <cmd> <args>" for `cmd` to `out`. */
void cli_print_usage(FILE *out, const cli_group *g, const cli_command *cmd);

/* ---- argument parsing ------------------------------------------------------------------ */

/* One option of a command. A flag sets *flag; an option with a value stores the borrowed
 * argv string in *value (given as --name VALUE or --name=VALUE). */
typedef struct cli_option {
    const char *name; /* with the dashes: "--limit" */
    const char **value;
    bool *flag;
} cli_option;

/* Parses argv[1..] (argv[0] is the command name) against `opts`, collecting positional
 * arguments into pos[0..max_pos). "--" ends the options. Returns 0, or CLI_EXIT_USAGE after
 * printing "hudic: <problem>" and the usage line. `-h`/`--help` prints the usage to stdout
 * and returns -1 (the caller exits 0). */
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
/* Flushes stdout; a failed write becomes a runtime error. Returns `rc` otherwise. */
int cli_finish_output(int rc);

/* ---- formatting (fmt.c) ---------------------------------------------------------------- */

/* Value text comes from columnar/render.h (the documented rendering); these fill gaps. */
/* IEEE half (raw bits) as a double. */
double cli_half_to_double(uint16_t bits);
/* Bytes as 0x-prefixed lowercase hex; at most `max_bytes` shown (0 = all), then "…". */
void cli_fmt_hex(hudi_buf *b, const uint8_t *p, size_t n, size_t max_bytes);

/* ---- parquet printing (pq_print.c) ----------------------------------------------------- */

/* The schema tree in parquet-mr's text form, then the hudic type of each top-level column. */
void cli_print_parquet_schema(hudi_buf *out, const pq_file_meta *m, const hudi_field *schema);
/* The footer: file facts, key/value metadata, column orders, row groups and chunks. */
void cli_print_parquet_meta(hudi_buf *out, const pq_file_meta *m, int64_t file_size);

/* ---- --where (where.c) ----------------------------------------------------------------- */

/* A parsed --where: the predicate plus the storage its constant borrows. */
typedef struct cli_where {
    hudi_pq_predicate pred;
    hudi_buf bytes; /* string/binary constant; pred.value.bytes points into it */
} cli_where;

#define CLI_WHERE_INIT                                                                             \
    { {0}, HUDI_BUF_INIT }

/* Parses "COL OP VALUE" / "COL IS [NOT] NULL" against the top-level columns of `schema`
 * (a STRUCT). On a problem writes a one-line message to `why` and returns HUDI_EINVAL. */
int cli_where_parse(cli_where *out, const char *text, const hudi_field *schema, hudi_buf *why);
void cli_where_dispose(cli_where *w);

#endif
