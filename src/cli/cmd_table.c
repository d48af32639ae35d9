/* cmd_table.c - `hudic table info|cat`: inspect a Hudi table and print its rows as JSON
 * Lines (the rendering of docs/formats/rendering.md, meta columns included). */
#include <stdlib.h>

#include "cli/cli.h"
#include "read/read.h"

#define MAX_COLUMNS 1024

/* A copy of the table path without trailing slashes ("/" stays "/"): the table names itself
 * by its base path, and the CLI prefixes the path only when the message lacks it, so "tbl/"
 * would otherwise be named twice. NULL when out of memory. */
static char *clean_path(const char *path) {
    char *p = hudi_strdup(path);
    if (p) {
        size_t n = strlen(p);
        while (n > 1 && p[n - 1] == '/') p[--n] = '\0';
    }
    return p;
}

static int open_table(hudi_tbl **t, const char *path) {
    hudi_error err = HUDI_ERROR_INIT;
    if (hudi_tbl_open(t, NULL, path, &err) < 0) return cli_runtime_error(path, &err);
    return 0;
}

/* ---- info -------------------------------------------------------------------------------- */

static void print_info(hudi_buf *o, hudi_tbl *t, hudi_fs_view *v) {
    const hudi_table_config *c = &t->cfg;
    hudi_buf_printf(o, "table: %s\n", t->base_path);
    hudi_buf_printf(o, "name: %s\ntype: %s\nversion: %d\ntimeline layout: %d\n", c->name,
                    c->type == HUDI_MERGE_ON_READ ? "MERGE_ON_READ" : "COPY_ON_WRITE", c->version,
                    c->timeline_layout);
    hudi_buf_puts(o, "\nproperties:\n");
    for (size_t i = 0; i < t->props.count; i++) {
        const char *val = t->props.items[i].value;
        size_t n = strlen(val);
        if (n > 200) hudi_buf_printf(o, "  %s = %.200s… (%zu bytes)\n", t->props.items[i].key, val, n);
        else hudi_buf_printf(o, "  %s = %s\n", t->props.items[i].key, val);
    }
    const hudi_timeline *tl = t->timeline;
    hudi_buf_printf(o, "\ntimeline: %zu instants\n", tl->count);
    for (size_t i = 0; i < tl->count; i++) {
        const hudi_instant *in = &tl->instants[i];
        hudi_buf_printf(o, "  %s %-13s %-9s%s%s\n", in->time, hudi_action_name(in->action),
                        hudi_state_name(in->state), in->completion[0] ? " completed " : "",
                        in->completion);
    }
    size_t n = 0;
    const hudi_file_slice *s = hudi_fs_view_latest_slices(v, &n);
    hudi_buf_printf(o, "\nfile groups as of %s: %zu\n",
                    hudi_fs_view_as_of(v)[0] ? hudi_fs_view_as_of(v) : "(none)", n);
    for (size_t i = 0; i < n; i++) {
        hudi_buf_printf(o, "  partition '%s' file group %s (slice %s)\n", s[i].partition_path,
                        s[i].file_id, s[i].base_instant ? s[i].base_instant : "");
        if (s[i].base)
            hudi_buf_printf(o, "    base %s (%lld bytes)\n", s[i].base->name, (long long)s[i].base->size_bytes);
        for (size_t k = 0; k < s[i].logs_count; k++)
            hudi_buf_printf(o, "    log  %s (%lld bytes)\n", s[i].logs[k].name, (long long)s[i].logs[k].size_bytes);
    }
}

static int cmd_info(const cli_group *g, const cli_command *self, int argc, char **argv) {
    const char *pos[1];
    int n_pos = 0;
    int rc = cli_parse_args(argc, argv, NULL, 0, pos, 1, 1, &n_pos, g, self);
    if (rc) return rc < 0 ? CLI_EXIT_OK : rc;
    hudi_tbl *t = NULL;
    hudi_fs_view *v = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_buf o = HUDI_BUF_INIT;
    char *path = clean_path(pos[0]);
    if (!path) {
        hudi_error_oom(&err);
        return cli_runtime_error(pos[0], &err);
    }
    if ((rc = open_table(&t, path)) != 0) {
        hudi_free(path);
        return rc;
    }
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    if (hudi_fs_view_build(&v, t->timeline, &vo, &err) < 0) {
        rc = cli_runtime_error(path, &err);
    } else {
        print_info(&o, t, v);
        fwrite(o.data ? o.data : "", 1, o.len, stdout);
        rc = cli_finish_output(hudi_buf_failed(&o) ? CLI_EXIT_RUNTIME : CLI_EXIT_OK);
    }
    hudi_buf_dispose(&o);
    hudi_fs_view_free(v);
    hudi_tbl_free(t);
    hudi_free(path);
    return rc;
}

/* ---- cat --------------------------------------------------------------------------------- */

typedef struct cat_args {
    const char *path, *as_of, *incremental, *columns, *limit, *where;
    bool count, read_optimized;
} cat_args;

static int split_columns(char *list, const char **out, int32_t *n) {
    *n = 0;
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        if (*n >= MAX_COLUMNS) return -1;
        out[(*n)++] = tok;
    }
    return 0;
}

static int cmd_cat(const cli_group *g, const cli_command *self, int argc, char **argv) {
    cat_args a = {0};
    const cli_option opts[] = {
        {"--as-of", &a.as_of, NULL},       {"--incremental", &a.incremental, NULL},
        {"--columns", &a.columns, NULL},   {"--limit", &a.limit, NULL},
        {"--where", &a.where, NULL},       {"--count", NULL, &a.count},
        {"--read-optimized", NULL, &a.read_optimized},
    };
    const char *pos[1];
    int n_pos = 0;
    int rc = cli_parse_args(argc, argv, opts, HUDI_ARRAY_LEN(opts), pos, 1, 1, &n_pos, g, self);
    if (rc) return rc < 0 ? CLI_EXIT_OK : rc;

    hudi_read_options ro = HUDI_READ_OPTIONS_INIT;
    char *cols_copy = NULL, *inc_copy = NULL;
    const char *cols[MAX_COLUMNS];
    int64_t limit = -1;
    if (a.limit) {
        char *end;
        limit = strtoll(a.limit, &end, 10);
        if (*end || limit < 0) return cli_usage_error(g, self, "--limit takes a non-negative integer");
    }
    if (a.columns) {
        cols_copy = hudi_strdup(a.columns);
        if (!cols_copy || split_columns(cols_copy, cols, &ro.n_columns) < 0) {
            hudi_free(cols_copy);
            return cli_usage_error(g, self, "too many columns");
        }
        ro.columns = cols;
    }
    if (a.incremental) {
        inc_copy = hudi_strdup(a.incremental);
        char *comma = inc_copy ? strchr(inc_copy, ',') : NULL;
        if (!comma) {
            hudi_free(cols_copy);
            hudi_free(inc_copy);
            return cli_usage_error(g, self, "--incremental takes BEGIN,END (END may be empty)");
        }
        *comma = '\0';
        ro.incremental = true;
        ro.begin = inc_copy[0] ? inc_copy : NULL;
        ro.end = comma[1] ? comma + 1 : NULL;
    }
    ro.as_of = a.as_of;
    ro.read_optimized = a.read_optimized;

    hudi_tbl *t = NULL;
    hudi_reader *r = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_buf out = HUDI_BUF_INIT, why = HUDI_BUF_INIT;
    hudi_field full = {0};
    cli_where where = CLI_WHERE_INIT;
    int64_t produced = 0;
    char *path = clean_path(pos[0]);
    if (!path) {
        hudi_error_oom(&err);
        rc = cli_runtime_error(pos[0], &err);
        goto done;
    }
    a.path = path;
    if ((rc = open_table(&t, a.path)) != 0) goto done;
    if (a.where) {
        if (hudi_read_table_schema(&full, t, &ro, &err) < 0) {
            rc = cli_runtime_error(a.path, &err);
            goto done;
        }
        if (cli_where_parse(&where, a.where, &full, &why) < 0) {
            rc = cli_usage_error(g, self, "%s", why.data ? why.data : "bad --where");
            goto done;
        }
        ro.filter_column = full.children[where.pred.column].name;
        ro.filter_op = where.pred.op;
        ro.filter_value = where.pred.value;
    }
    if (hudi_reader_open(&r, t, &ro, &err) < 0) {
        rc = cli_runtime_error(a.path, &err);
        goto done;
    }
    while (limit < 0 || produced < limit) {
        hudi_batch *b = NULL;
        if (hudi_reader_next(r, &b, &err) < 0) {
            fwrite(out.data ? out.data : "", 1, out.len, stdout);
            rc = cli_runtime_error(a.path, &err);
            goto done;
        }
        if (!b) break;
        int64_t n = b->num_rows;
        if (limit >= 0 && n > limit - produced) n = limit - produced;
        if (!a.count) {
            for (int64_t i = 0; i < n; i++) {
                hudi_render_json_row(&out, b, i);
                hudi_buf_putc(&out, '\n');
            }
            if (out.len > (1u << 20)) {
                fwrite(out.data, 1, out.len, stdout);
                hudi_buf_clear(&out);
            }
        }
        produced += n;
    }
    if (a.count) hudi_buf_printf(&out, "%lld\n", (long long)produced);
    fwrite(out.data ? out.data : "", 1, out.len, stdout);
    rc = cli_finish_output(hudi_buf_failed(&out) ? CLI_EXIT_RUNTIME : CLI_EXIT_OK);
done:
    cli_where_dispose(&where);
    hudi_field_dispose(&full);
    hudi_reader_free(r);
    hudi_tbl_free(t);
    hudi_buf_dispose(&out);
    hudi_buf_dispose(&why);
    hudi_free(cols_copy);
    hudi_free(inc_copy);
    hudi_free(path);
    return rc;
}

static const cli_command table_commands[] = {
    {"info", "PATH", "table properties, timeline, file groups and latest file slices", cmd_info},
    {"cat",
     "[--as-of INSTANT] [--incremental BEGIN,END] [--read-optimized] [--columns a,b] [--where 'COL OP "
     "VALUE'] [--limit N] [--count] PATH",
     "rows of a Hudi table (snapshot, time travel or incremental) as JSON Lines", cmd_cat},
};

const cli_group cli_table_group = {"table", "Hudi tables", table_commands,
                                   HUDI_ARRAY_LEN(table_commands)};
