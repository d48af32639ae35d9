/* cli_util.c - argument parsing, usage lines, --help, error reporting and the output buffer
 * for every command.
 *
 * Invariant: a runtime error is printed as exactly one line on stderr (newlines inside a
 * library message are flattened), so scripts and tests can rely on `hudic: <file>: ...`. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"

#define DIRECT_WRITE_BYTES (1u << 20)

void cli_print_usage(FILE *out, const cli_group *g, const cli_command *cmd) {
    fprintf(out, "usage: hudic %s %s %s\n", g->name, cmd->name, cmd->args);
}

void cli_print_command_help(FILE *out, const cli_group *g, const cli_command *cmd) {
    cli_print_usage(out, g, cmd);
    fprintf(out, "\n%s\n", cmd->summary);
    if (cmd->n_options == 0) return;
    fputs("\noptions:\n", out);
    int width = (int)strlen("-h, --help");
    for (size_t i = 0; i < cmd->n_options; i++) {
        const cli_option_doc *o = &cmd->options[i];
        int w = (int)(strlen(o->name) + (o->arg ? 1 + strlen(o->arg) : 0));
        if (w > width) width = w;
    }
    for (size_t i = 0; i < cmd->n_options; i++) {
        const cli_option_doc *o = &cmd->options[i];
        char head[96];
        snprintf(head, sizeof(head), "%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        fprintf(out, "  %-*s  %s\n", width, head, o->help);
    }
    fprintf(out, "  %-*s  %s\n", width, "-h, --help", "print this help and exit");
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

int cli_filter_error(const cli_group *g, const cli_command *cmd, const char *option,
                     const char *path, const hudi_error *err) {
    const char *why = err && err->code == HUDI_EINVAL ? strstr(err->message, "filter: ") : NULL;
    if (!why) return cli_runtime_error(path, err);
    return cli_usage_error(g, cmd, "%s: %s", option, why + strlen("filter: "));
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

/* The options a command parses are exactly those its --help lists (else a programming error). */
static void check_documented(const cli_option *opts, size_t n_opts, const cli_group *g,
                             const cli_command *cmd) {
    for (size_t i = 0; i < n_opts; i++) {
        size_t k = 0;
        while (k < cmd->n_options && strcmp(cmd->options[k].name, opts[i].name) != 0) k++;
        if (k == cmd->n_options || !cmd->options[k].arg != !!opts[i].flag) {
            fprintf(stderr, "hudic: internal error: %s %s: option %s is not documented\n", g->name,
                    cmd->name, opts[i].name);
            abort();
        }
    }
    for (size_t k = 0; k < cmd->n_options; k++) {
        size_t i = 0;
        while (i < n_opts && strcmp(cmd->options[k].name, opts[i].name) != 0) i++;
        if (i == n_opts) {
            fprintf(stderr, "hudic: internal error: %s %s: documented option %s is not parsed\n",
                    g->name, cmd->name, cmd->options[k].name);
            abort();
        }
    }
}

int cli_parse_args(int argc, char **argv, const cli_option *opts, size_t n_opts, const char **pos,
                   int min_pos, int max_pos, int *n_pos, const cli_group *g,
                   const cli_command *cmd) {
    bool options_done = false;
    *n_pos = 0;
    check_documented(opts, n_opts, g, cmd);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!options_done && arg[0] == '-' && arg[1] != '\0') {
            if (strcmp(arg, "--") == 0) {
                options_done = true;
                continue;
            }
            if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
                cli_print_command_help(stdout, g, cmd);
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

/* ---- output buffer ----------------------------------------------------------------------- */

static bool reserve(cli_buf *b, size_t extra) {
    if (b->failed) return false;
    if (b->len + extra + 1 <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1) {
        if (cap > SIZE_MAX / 2) {
            b->failed = true;
            return false;
        }
        cap *= 2;
    }
    char *p = realloc(b->data, cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void cli_buf_append(cli_buf *b, const void *p, size_t n) {
    if (!reserve(b, n)) return;
    if (n) memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void cli_buf_puts(cli_buf *b, const char *s) { cli_buf_append(b, s, strlen(s)); }
void cli_buf_putc(cli_buf *b, char c) { cli_buf_append(b, &c, 1); }

void cli_buf_printf(cli_buf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = true;
        return;
    }
    if (!reserve(b, (size_t)n)) return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void cli_buf_clear(cli_buf *b) {
    b->len = 0;
    if (b->data) b->data[0] = '\0';
}

void cli_buf_dispose(cli_buf *b) {
    free(b->data);
    *b = (cli_buf)CLI_BUF_INIT;
}

/* A large piece goes straight to the descriptor (after whatever stdio holds), saving a copy
 * through stdio. */
static bool write_stdout(const char *data, size_t len) {
    if (len < DIRECT_WRITE_BYTES) return len == 0 || fwrite(data, 1, len, stdout) == len;
    if (fflush(stdout) != 0) return false;
    for (size_t done = 0; done < len;) {
        ssize_t n = write(STDOUT_FILENO, data + done, len - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += (size_t)n;
    }
    return true;
}

bool cli_buf_flush(cli_buf *b) {
    bool ok = write_stdout(b->data, b->len);
    cli_buf_clear(b);
    return ok;
}

int cli_write_stdout(void *payload, const char *data, size_t len) {
    cli_output *o = payload;
    if (write_stdout(data, len)) return 0;
    if (o) {
        o->failed = true;
        o->saved_errno = errno;
    }
    return HUDI_EIO;
}
