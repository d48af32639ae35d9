/* main.c - the hudic command line: `hudic <group> <command> [options] ARGS` and `hudic sql`.
 *
 * Dispatch is table-driven: each group (parquet, table) is a cli_group listing its commands
 * and their options; `hudic sql` (cmd_sql.c) is a command of its own, and `hudic` with no
 * arguments on a terminal opens its interactive shell. Adding a group's command is one table
 * row, and `--help` at every level is printed from the same tables (docs/hudic.1 is checked against
 * it). Exit codes: 0 success, 1 runtime error (one line "hudic: ..." on stderr), 2 usage error.
 * stdout is fully buffered with a large buffer because `parquet cat` can print gigabytes. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "cli.h"

static const cli_group *const groups[] = {
    &cli_parquet_group,
    &cli_table_group,
};

#define STDOUT_BUFFER_BYTES (1u << 20)

static void print_help(FILE *out) {
    fprintf(out, "hudic %s - Apache Hudi in C\n\n", hudi_version());
    fprintf(out, "usage: hudic <group> <command> [options] ARGS\n");
    fprintf(out, "       hudic --version | --help | help [GROUP]\n");
    fprintf(out, "       hudic <group> <command> --help\n\n");
    fprintf(out, "options:\n");
    fprintf(out, "  %-26s %s\n", "--version", "print the version and exit");
    fprintf(out, "  %-26s %s\n\n", "-h, --help", "print this help and exit");
    fprintf(out, "sql: Spark SQL on the tables of a warehouse folder (hudic sql --help)\n");
    fprintf(out, "  hudic sql [--warehouse DIR] [--database DB] [--mode M] [--conf K=V]... "
                 "[-e SQL]... [-f FILE]... [-S]\n");
    fprintf(out, "      an interactive shell on a terminal (also plain `hudic`), else run "
                 "-e, -f or stdin\n");
    for (size_t gi = 0; gi < CLI_ARRAY_LEN(groups); gi++) {
        const cli_group *g = groups[gi];
        fprintf(out, "%s: %s\n", g->name, g->summary);
        for (size_t i = 0; i < g->n_commands; i++) {
            const cli_command *c = &g->commands[i];
            fprintf(out, "  hudic %s %s %s\n      %s\n", g->name, c->name, c->args, c->summary);
        }
    }
    fprintf(out, "\nExit status: 0 success, 1 runtime error, 2 usage error.\n");
}

static void print_group_help(FILE *out, const cli_group *g) {
    fprintf(out, "%s: %s\n", g->name, g->summary);
    for (size_t i = 0; i < g->n_commands; i++) {
        const cli_command *c = &g->commands[i];
        fprintf(out, "  hudic %s %s %s\n      %s\n", g->name, c->name, c->args, c->summary);
    }
}

static const cli_group *find_group(const char *name) {
    for (size_t i = 0; i < CLI_ARRAY_LEN(groups); i++)
        if (strcmp(groups[i]->name, name) == 0) return groups[i];
    return NULL;
}

static const cli_command *find_command(const cli_group *g, const char *name) {
    for (size_t i = 0; i < g->n_commands; i++)
        if (strcmp(g->commands[i].name, name) == 0) return &g->commands[i];
    return NULL;
}

static int run_help(int argc, char **argv) {
    if (argc <= 2) {
        print_help(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(argv[2], "sql") == 0) {
        cli_sql_help(stdout);
        return CLI_EXIT_OK;
    }
    const cli_group *g = find_group(argv[2]);
    if (!g) {
        fprintf(stderr, "hudic: unknown help topic '%s' (try 'hudic help')\n", argv[2]);
        return CLI_EXIT_USAGE;
    }
    print_group_help(stdout, g);
    return CLI_EXIT_OK;
}

static int dispatch(int argc, char **argv) {
    if (argc < 2) {
        if (isatty(STDIN_FILENO)) {
            char *sql_argv[] = {"sql", NULL};
            return cli_sql_main(1, sql_argv);
        }
        print_help(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *first = argv[1];
    if (strcmp(first, "--version") == 0 || strcmp(first, "version") == 0) {
        printf("hudic %s\n", hudi_version());
        return CLI_EXIT_OK;
    }
    if (strcmp(first, "help") == 0 || strcmp(first, "--help") == 0 || strcmp(first, "-h") == 0)
        return run_help(argc, argv);
    if (strcmp(first, "sql") == 0) return cli_sql_main(argc - 1, argv + 1);
    const cli_group *g = find_group(first);
    if (!g) {
        fprintf(stderr, "hudic: unknown command '%s' (try 'hudic help')\n", first);
        return CLI_EXIT_USAGE;
    }
    if (argc < 3) {
        fprintf(stderr, "hudic: '%s' needs a command\n", g->name);
        print_group_help(stderr, g);
        return CLI_EXIT_USAGE;
    }
    if (strcmp(argv[2], "help") == 0 || strcmp(argv[2], "--help") == 0 ||
        strcmp(argv[2], "-h") == 0) {
        print_group_help(stdout, g);
        return CLI_EXIT_OK;
    }
    const cli_command *c = find_command(g, argv[2]);
    if (!c) {
        fprintf(stderr, "hudic: unknown command '%s %s'\n", g->name, argv[2]);
        print_group_help(stderr, g);
        return CLI_EXIT_USAGE;
    }
    return c->run(g, c, argc - 2, argv + 2);
}

/* Scans allocate and free column buffers of 0.1-10 MB for every batch. By default glibc serves
 * such blocks with mmap and trims the heap when they are freed, so every batch touches fresh
 * zeroed pages again (a page fault per 4 KB: a tenth of a scan's time in BENCHMARKS.md). A
 * command-line process is short-lived and may keep its peak: serve blocks up to 64 MB from the
 * heap and give memory back only when 256 MB are free at its top. The library never tunes the
 * allocator; programs that embed it choose for themselves. */
static void tune_allocator(void) {
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

int main(int argc, char **argv) {
    tune_allocator();
    /* A full buffer: line buffering on a terminal would cost a syscall per row. */
    setvbuf(stdout, NULL, _IOFBF, STDOUT_BUFFER_BYTES);
    return cli_finish_output(dispatch(argc, argv));
}
