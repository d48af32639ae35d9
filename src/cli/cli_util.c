/* cli_util.c - argument parsing, usage lines and error reporting for every command.
 *
 * Invariant: a runtime error is printed as exactly one line on stderr (newlines inside a
 * library message are flattened), so scripts and tests can rely on `hudic: <file>: ...`. */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "cli/cli.h"

void cli_print_usage(FILE *out, const cli_group *g, const cli_command *cmd) {
    fprintf(out, "usage: hudic %s %s %s\n", g->name, cmd->name, cmd->args);
}

int cli_usage_error(const cli_group *g, const cli_command *cmd, const char *fmt, ...) {
    va_list ap;
    fputs("hudic: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    cli_print_usage(stderr, g, cmd);
    return CLI_EXIT_USAGE;
}

/* Writes `s` with control characters replaced by spaces, keeping the error on one line. */
static void put_one_line(FILE *out, const char *s) {
    for (; *s; s++) fputc((unsigned char)*s < 0x20 ? ' ' : *s, out);
}

int cli_runtime_error(const char *path, const hudi_error *err) {
    const char *msg = err && err->message[0] ? err->message : "unknown error";
    /* stdout first: whatever rows were produced before the error stay in order. */
    fflush(stdout);
    fputs("hudic: ", stderr);
    if (path && !strstr(msg, path)) {
        put_one_line(stderr, path);
        fputs(": ", stderr);
    }
    put_one_line(stderr, msg);
    fputc('\n', stderr);
    return CLI_EXIT_RUNTIME;
}

int cli_finish_output(int rc) {
    if (fflush(stdout) != 0 || ferror(stdout)) {
        if (rc == CLI_EXIT_OK) {
            fprintf(stderr, "hudic: writing output: %s\n", strerror(errno));
            rc = CLI_EXIT_RUNTIME;
        }
    }
    return rc;
}

static const cli_option *find_option(const cli_option *opts, size_t n, const char *arg,
                                     size_t name_len) {
    for (size_t i = 0; i < n; i++)
        if (strlen(opts[i].name) == name_len && strncmp(opts[i].name, arg, name_len) == 0)
            return &opts[i];
    return NULL;
}

int cli_parse_args(int argc, char **argv, const cli_option *opts, size_t n_opts, const char **pos,
                   int min_pos, int max_pos, int *n_pos, const cli_group *g,
                   const cli_command *cmd) {
    bool options_done = false;
    *n_pos = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!options_done && arg[0] == '-' && arg[1] != '\0') {
            if (strcmp(arg, "--") == 0) {
                options_done = true;
                continue;
            }
            if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
                cli_print_usage(stdout, g, cmd);
                return -1;
            }
            const char *eq = strchr(arg, '=');
            size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
            const cli_option *o = find_option(opts, n_opts, arg, name_len);
            if (!o) return cli_usage_error(g, cmd, "unknown option '%.*s'", (int)name_len, arg);
            if (o->flag) {
                if (eq) return cli_usage_error(g, cmd, "option '%s' takes no value", o->name);
                *o->flag = true;
                continue;
            }
            if (eq) {
                *o->value = eq + 1;
            } else {
                if (i + 1 >= argc)
                    return cli_usage_error(g, cmd, "option '%s' needs a value", o->name);
                *o->value = argv[++i];
            }
            continue;
        }
        if (*n_pos >= max_pos) return cli_usage_error(g, cmd, "unexpected argument '%s'", arg);
        pos[(*n_pos)++] = arg;
    }
    if (*n_pos < min_pos)
        return cli_usage_error(g, cmd, "missing %s", *n_pos == 0 ? "FILE" : "argument");
    return 0;
}
