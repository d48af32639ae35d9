/* cmd_sql.c - `hudic sql`: options, the session on the warehouse, and the choice between
 * running -e/-f/piped statements and the interactive shell (sql_shell.c).
 *
 * hudic sql [--warehouse DIR] [--database DB] [--mode M] [--conf K=V]... [-e SQL]...
 *           [-f FILE]... [-S]
 * -e and -f may repeat and run in the order given; with neither, a terminal on stdin gets the
 * interactive shell and anything else on stdin runs as a script. Scripts stop at the first
 * failing statement (exit 1, the error on stderr); the interactive shell goes on. */
#include <stdlib.h>
#include <unistd.h>

#include "sql_shell.h"

static const char usage_line[] = "usage: hudic sql [--warehouse DIR] [--database DB] [--mode M] "
                                 "[--conf K=V]... [-e SQL]... [-f FILE]... [-S]\n";

const cli_option_doc cli_sql_options[] = {
    {"--warehouse", "DIR",
     "the warehouse folder (default: $HUDIC_WAREHOUSE, else ./hudic-warehouse)"},
    {"--database", "DB", "the database to start in (default: default)"},
    {"--mode", "M", "output mode: " SQL_MODE_NAMES " (default: box on a terminal, else spark)"},
    {"--conf", "K=V", "a session setting, as SET K=V (repeatable)"},
    {"-e, --execute", "SQL", "run the statements SQL and exit (repeatable)"},
    {"-f, --file", "FILE", "run the statements of FILE and exit (repeatable)"},
    {"-S, --silent", NULL, "no timing lines on stderr"},
};
const size_t cli_sql_n_options = CLI_ARRAY_LEN(cli_sql_options);

void cli_sql_help(FILE *out) {
    fputs(usage_line, out);
    fputs("\nRun Spark SQL statements (with Hudi's extensions) on the tables of a warehouse "
          "folder: an interactive shell on a terminal, else the statements of -e, -f or stdin.\n",
          out);
    fputs("\noptions:\n", out);
    int width = (int)strlen("-h, --help");
    for (size_t i = 0; i < cli_sql_n_options; i++) {
        const cli_option_doc *o = &cli_sql_options[i];
        int w = (int)(strlen(o->name) + (o->arg ? 1 + strlen(o->arg) : 0));
        if (w > width) width = w;
    }
    for (size_t i = 0; i < cli_sql_n_options; i++) {
        const cli_option_doc *o = &cli_sql_options[i];
        char head[96];
        snprintf(head, sizeof(head), "%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        fprintf(out, "  %-*s  %s\n", width, head, o->help);
    }
    fprintf(out, "  %-*s  %s\n", width, "-h, --help", "print this help and exit");
}

static int usage(const char *fmt, const char *arg) {
    fputs("hudic: ", stderr);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    fputs(usage_line, stderr);
    return CLI_EXIT_USAGE;
}

typedef struct sql_action {
    bool file; /* -f FILE, else -e SQL */
    const char *text;
} sql_action;

/* The value of option `name` at argv[*i] (`--name=V` or `--name V`); NULL after a usage
 * message when it is missing. */
static const char *option_value(int argc, char **argv, int *i, const char *eq) {
    if (eq) return eq + 1;
    if (*i + 1 >= argc) return NULL;
    return argv[++*i];
}

int cli_sql_main(int argc, char **argv) {
    const char *warehouse = NULL, *database = NULL, *mode = NULL;
    bool silent = false;
    sql_action *actions = calloc((size_t)argc + 1, sizeof(sql_action));
    const char **conf = calloc((size_t)argc * 2 + 1, sizeof(char *));
    char **conf_copies = calloc((size_t)argc + 1, sizeof(char *));
    int n_actions = 0, n_conf = 0, rc = CLI_EXIT_OK;
    if (!actions || !conf || !conf_copies) {
        fputs("hudic: out of memory\n", stderr);
        rc = CLI_EXIT_RUNTIME;
        goto done;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            cli_sql_help(stdout);
            goto done;
        }
        if (strcmp(a, "-S") == 0 || strcmp(a, "--silent") == 0) {
            silent = true;
            continue;
        }
        const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
        size_t name_len = eq ? (size_t)(eq - a) : strlen(a);
        static const char *const with_value[] = {"--warehouse", "--database", "--mode", "--conf",
                                                 "-e",          "--execute",  "-f",     "--file"};
        size_t k = 0;
        while (k < CLI_ARRAY_LEN(with_value) &&
               !(strlen(with_value[k]) == name_len && strncmp(a, with_value[k], name_len) == 0))
            k++;
        if (k == CLI_ARRAY_LEN(with_value)) {
            rc = usage(a[0] == '-' ? "unknown option '%s'" : "unexpected argument '%s'", a);
            goto done;
        }
        const char *v = option_value(argc, argv, &i, eq);
        if (!v) {
            rc = usage("option '%s' needs a value", with_value[k]);
            goto done;
        }
        switch (k) {
        case 0: warehouse = v; break;
        case 1: database = v; break;
        case 2: mode = v; break;
        case 3: {
            const char *sep = strchr(v, '=');
            if (!sep || sep == v) {
                rc = usage("--conf: expected K=V, got '%s'", v);
                goto done;
            }
            char *key = strndup(v, (size_t)(sep - v));
            if (!key) {
                fputs("hudic: out of memory\n", stderr);
                rc = CLI_EXIT_RUNTIME;
                goto done;
            }
            conf_copies[n_conf / 2] = key;
            conf[n_conf++] = key;
            conf[n_conf++] = sep + 1;
            break;
        }
        case 4:
        case 5: actions[n_actions++] = (sql_action){false, v}; break;
        default: actions[n_actions++] = (sql_action){true, v}; break;
        }
    }
    sql_mode m = isatty(STDOUT_FILENO) ? SQL_MODE_BOX : SQL_MODE_SPARK;
    if (mode && !sql_mode_parse(mode, &m)) {
        rc = usage("--mode: unknown mode '%s' (modes: " SQL_MODE_NAMES ")", mode);
        goto done;
    }
    if (!warehouse) warehouse = getenv("HUDIC_WAREHOUSE");
    if (!warehouse || !*warehouse) warehouse = "./hudic-warehouse";

    hudi_session_options opts = HUDI_SESSION_OPTIONS_INIT;
    opts.database = database;
    opts.conf = n_conf ? conf : NULL;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_session *s = NULL;
    if (hudi_session_open(&s, warehouse, &opts, &err) < 0) {
        rc = cli_runtime_error(warehouse, &err);
        goto done;
    }
    sql_shell sh;
    sql_shell_init(&sh, s);
    sh.mode = m;
    sh.silent = silent;
    if (n_actions > 0) {
        sh.bail = true;
        for (int i = 0; i < n_actions && !sh.quit && rc == CLI_EXIT_OK; i++) {
            int r = actions[i].file ? sql_run_file(&sh, actions[i].text)
                                    : sql_run_script(&sh, actions[i].text, strlen(actions[i].text));
            if (r != 0 || sh.failed) rc = CLI_EXIT_RUNTIME;
        }
    } else if (isatty(STDIN_FILENO)) {
        sh.interactive = true;
        rc = sql_interactive(&sh);
    } else {
        sh.bail = true;
        if (sql_run_file(&sh, "-") != 0 || sh.failed) rc = CLI_EXIT_RUNTIME;
    }
    fflush(sh.out);
    sql_shell_dispose(&sh);
    hudi_session_close(s);
done:
    if (conf_copies)
        for (int i = 0; i < n_conf / 2; i++) free(conf_copies[i]);
    free(conf_copies);
    free(conf);
    free(actions);
    return rc;
}
