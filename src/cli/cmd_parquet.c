/* cmd_parquet.c - `hudic parquet schema|meta|cat FILE`: look inside one Parquet file.
 *
 * `cat` streams batches from the reader and renders each row as one JSON object (keys in
 * schema order, values per docs/formats/rendering.md) into a buffer flushed in large writes.
 * Invariant: --limit stops the scan as soon as enough rows were produced, and --where is
 * handed to the reader (row-group/page skipping plus exact row filtering) rather than
 * evaluated here, so the CLI shows what the scan API returns. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli/cli.h"

#define OUT_FLUSH_BYTES (1u << 20)
#define DEFAULT_BATCH_ROWS 65536

/* ---- shared: open a file -------------------------------------------------------------- */

typedef struct pq_session {
    hudi_fs *fs;
    hudi_pq_file *file;
} pq_session;

static int session_open(pq_session *s, const char *path, bool verify_crc, hudi_error *err) {
    hudi_pq_open_options opts = HUDI_PQ_OPEN_OPTIONS_INIT;
    opts.verify_crc = verify_crc;
    s->fs = NULL;
    s->file = NULL;
    int rc = hudi_fs_local_new(&s->fs, err);
    if (rc < 0) return rc;
    return hudi_pq_open(&s->file, s->fs, path, &opts, err);
}

static void session_close(pq_session *s) {
    hudi_pq_close(s->file);
    hudi_fs_free(s->fs);
    s->file = NULL;
    s->fs = NULL;
}

/* Writes b to stdout and empties it; false (errno set) when stdout fails. A large buffer goes
 * straight to the descriptor (after whatever stdio holds), saving a copy through stdio. */
static bool flush_out(hudi_buf *b) {
    bool ok = true;
    if (b->len >= OUT_FLUSH_BYTES) {
        ok = fflush(stdout) == 0;
        for (size_t done = 0; ok && done < b->len;) {
            ssize_t n = write(STDOUT_FILENO, b->data + done, b->len - done);
            if (n < 0 && errno == EINTR) continue;
            ok = n > 0;
            done += ok ? (size_t)n : 0;
        }
    } else if (b->len > 0) {
        ok = fwrite(b->data, 1, b->len, stdout) == b->len;
    }
    hudi_buf_clear(b);
    return ok;
}

static int out_error(const char *path, hudi_buf *b) {
    hudi_error err = HUDI_ERROR_INIT;
    if (hudi_buf_failed(b))
        hudi_error_oom(&err);
    else
        hudi_error_set(&err, HUDI_EIO, "writing output: %s", strerror(errno));
    return cli_runtime_error(path, &err);
}

/* ---- schema / meta ---------------------------------------------------------------------- */

static int print_footer(const cli_group *g, const cli_command *self, int argc, char **argv,
                        bool meta) {
    const char *pos[1];
    int n_pos, rc = cli_parse_args(argc, argv, NULL, 0, pos, 1, 1, &n_pos, g, self);
    if (rc) return rc < 0 ? CLI_EXIT_OK : rc;
    const char *path = pos[0];
    hudi_error err = HUDI_ERROR_INIT;
    hudi_buf out = HUDI_BUF_INIT;
    pq_session s;
    if (session_open(&s, path, true, &err) < 0) {
        rc = cli_runtime_error(path, &err);
        goto done;
    }
    if (meta) {
        hudi_stat st = {0};
        if (hudi_fs_stat(s.fs, path, &st, &err) < 0) {
            rc = cli_runtime_error(path, &err);
            goto done;
        }
        cli_print_parquet_meta(&out, hudi_pq_meta(s.file), st.size_bytes);
    } else {
        cli_print_parquet_schema(&out, hudi_pq_meta(s.file), hudi_pq_schema(s.file));
    }
    rc = hudi_buf_failed(&out) || !flush_out(&out) ? out_error(path, &out) : CLI_EXIT_OK;
done:
    session_close(&s);
    hudi_buf_dispose(&out);
    return rc;
}

static int cmd_schema(const cli_group *g, const cli_command *self, int argc, char **argv) {
    return print_footer(g, self, argc, argv, false);
}

static int cmd_meta(const cli_group *g, const cli_command *self, int argc, char **argv) {
    return print_footer(g, self, argc, argv, true);
}

/* ---- cat ----------------------------------------------------------------------------------- */

typedef struct cat_args {
    const char *path;
    const char *columns; /* --columns a,b */
    const char *limit_text;
    const char *where_text;
    bool count, no_crc;
    int64_t limit; /* -1 = none */
} cat_args;

/* The projection: file column indices, ascending, and which of them are printed. */
typedef struct cat_plan {
    int32_t *columns; /* file column indices to scan, ascending */
    int32_t n_columns;
    bool *printed;  /* per scanned column: part of the output (not only the --where column) */
    hudi_buf *keys; /* per scanned column: `"name":` prefix, rendered once */
    cli_where where;
    bool has_where;
} cat_plan;

static void plan_dispose(cat_plan *p) {
    for (int32_t i = 0; p->keys && i < p->n_columns; i++) hudi_buf_dispose(&p->keys[i]);
    hudi_free(p->keys);
    hudi_free(p->columns);
    hudi_free(p->printed);
    cli_where_dispose(&p->where);
}

static int find_top_column(const hudi_field *schema, const char *name, size_t len) {
    for (int32_t i = 0; i < schema->n_children; i++) {
        const char *n = schema->children[i].name;
        if (n && strlen(n) == len && memcmp(n, name, len) == 0) return i;
    }
    return -1;
}

/* Marks the columns named in "a,b,c" in `want`; usage error text in `why` otherwise. */
static int select_columns(const hudi_field *schema, const char *list, bool *want, hudi_buf *why) {
    const char *p = list;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *s = p;
        while (len > 0 && isspace((unsigned char)*s)) s++, len--;
        while (len > 0 && isspace((unsigned char)s[len - 1])) len--;
        if (len == 0) {
            hudi_buf_puts(why, "--columns: empty column name");
            return HUDI_EINVAL;
        }
        int c = find_top_column(schema, s, len);
        if (c < 0) {
            hudi_buf_printf(why, "--columns: unknown column '%.*s' (columns:", (int)len, s);
            for (int32_t i = 0; i < schema->n_children && i < 20; i++)
                hudi_buf_printf(why, "%s %s", i ? "," : "", schema->children[i].name);
            hudi_buf_puts(why, schema->n_children > 20 ? ", ...)" : ")");
            return HUDI_EINVAL;
        }
        if (want[c]) {
            hudi_buf_printf(why, "--columns: column '%.*s' given twice", (int)len, s);
            return HUDI_EINVAL;
        }
        want[c] = true;
        if (!end) return 0;
        p = end + 1;
    }
}

/* Builds the projection from --columns and --where. Returns 0, HUDI_EINVAL (message in
 * `why`, a usage problem) or HUDI_ENOMEM. */
static int plan_build(cat_plan *p, const hudi_field *schema, const cat_args *a, hudi_buf *why) {
    int32_t n = schema->n_children;
    bool *want = hudi_calloc((size_t)HUDI_MAX(n, 1), sizeof(bool));
    bool *print = hudi_calloc((size_t)HUDI_MAX(n, 1), sizeof(bool));
    int rc = 0;
    if (!want || !print) {
        rc = HUDI_ENOMEM;
        goto done;
    }
    if (a->columns) {
        if ((rc = select_columns(schema, a->columns, print, why)) < 0) goto done;
    } else {
        for (int32_t i = 0; i < n; i++) print[i] = true;
    }
    for (int32_t i = 0; i < n; i++) want[i] = print[i];
    if (a->where_text) {
        if ((rc = cli_where_parse(&p->where, a->where_text, schema, why)) < 0) {
            if (rc == HUDI_EINVAL) {
                /* prefix the option so the user knows which argument is wrong */
                hudi_buf msg = HUDI_BUF_INIT;
                hudi_buf_printf(&msg, "--where: %s", why->data ? why->data : "");
                hudi_buf_clear(why);
                hudi_buf_puts(why, msg.data ? msg.data : "--where: invalid");
                hudi_buf_dispose(&msg);
            }
            goto done;
        }
        p->has_where = true;
        want[p->where.pred.column] = true; /* the reader filters on a scanned column */
    }
    int32_t k = 0;
    for (int32_t i = 0; i < n; i++) k += want[i];
    p->columns = hudi_calloc((size_t)HUDI_MAX(k, 1), sizeof(int32_t));
    p->printed = hudi_calloc((size_t)HUDI_MAX(k, 1), sizeof(bool));
    p->keys = hudi_calloc((size_t)HUDI_MAX(k, 1), sizeof(hudi_buf));
    if (!p->columns || !p->printed || !p->keys) {
        rc = HUDI_ENOMEM;
        goto done;
    }
    for (int32_t i = 0; i < n; i++) {
        if (!want[i]) continue;
        const char *name = schema->children[i].name ? schema->children[i].name : "";
        p->columns[p->n_columns] = i;
        p->printed[p->n_columns] = print[i];
        hudi_render_json_string(&p->keys[p->n_columns], (const uint8_t *)name, strlen(name));
        hudi_buf_putc(&p->keys[p->n_columns], ':');
        if (hudi_buf_failed(&p->keys[p->n_columns])) rc = HUDI_ENOMEM;
        p->n_columns++;
    }
done:
    hudi_free(want);
    hudi_free(print);
    return rc;
}

/* Appends rows [0, n) of b as JSON lines; flushes `out` to stdout past OUT_FLUSH_BYTES. */
static int render_rows(hudi_buf *out, const hudi_batch *b, int64_t n, const cat_plan *p) {
    for (int64_t r = 0; r < n; r++) {
        hudi_buf_putc(out, '{');
        bool first = true;
        for (int32_t c = 0; c < b->n_columns && c < p->n_columns; c++) {
            if (!p->printed[c]) continue;
            if (!first) hudi_buf_putc(out, ',');
            first = false;
            hudi_buf_append(out, p->keys[c].data, p->keys[c].len);
            int rc = hudi_render_json_value(out, b->columns[c], r);
            if (rc < 0) return rc;
        }
        hudi_buf_puts(out, "}\n");
        if (out->len >= OUT_FLUSH_BYTES && !flush_out(out)) return HUDI_EIO;
    }
    return hudi_buf_failed(out) ? HUDI_ENOMEM : 0;
}

static int parse_cat_args(cat_args *a, const cli_group *g, const cli_command *self, int argc,
                          char **argv) {
    const cli_option opts[] = {
        {"--columns", &a->columns, NULL},  {"--limit", &a->limit_text, NULL},
        {"--where", &a->where_text, NULL}, {"--count", NULL, &a->count},
        {"--no-crc", NULL, &a->no_crc},
    };
    const char *pos[1];
    int n_pos;
    int rc = cli_parse_args(argc, argv, opts, HUDI_ARRAY_LEN(opts), pos, 1, 1, &n_pos, g, self);
    if (rc) return rc;
    a->path = pos[0];
    a->limit = -1;
    if (a->limit_text) {
        char *end;
        errno = 0;
        long long v = strtoll(a->limit_text, &end, 10);
        if (errno || *end || end == a->limit_text || v < 0 ||
            isspace((unsigned char)*a->limit_text))
            return cli_usage_error(g, self, "--limit needs a non-negative integer, not '%s'",
                                   a->limit_text);
        a->limit = v;
    }
    return 0;
}

static int cmd_cat(const cli_group *g, const cli_command *self, int argc, char **argv) {
    cat_args a = {0};
    int rc = parse_cat_args(&a, g, self, argc, argv);
    if (rc) return rc < 0 ? CLI_EXIT_OK : rc;

    hudi_error err = HUDI_ERROR_INIT;
    hudi_buf out = HUDI_BUF_INIT, why = HUDI_BUF_INIT;
    cat_plan plan = {.where = CLI_WHERE_INIT};
    hudi_pq_scan *scan = NULL;
    pq_session s;
    int64_t produced = 0;
    if (session_open(&s, a.path, !a.no_crc, &err) < 0) {
        rc = cli_runtime_error(a.path, &err);
        goto done;
    }
    if ((rc = plan_build(&plan, hudi_pq_schema(s.file), &a, &why)) < 0) {
        rc = rc == HUDI_EINVAL ? cli_usage_error(g, self, "%s", why.data ? why.data : "")
                               : cli_runtime_error(a.path, (hudi_error_oom(&err), &err));
        goto done;
    }
    if (a.limit == 0) goto finish; /* nothing to read */

    hudi_pq_scan_options so = HUDI_PQ_SCAN_OPTIONS_INIT;
    so.columns = plan.columns;
    so.n_columns = plan.n_columns;
    /* A small --limit decodes only that many rows; with --where rows may be dropped, so
     * batches keep their default size. */
    if (a.limit > 0 && a.limit < DEFAULT_BATCH_ROWS && !plan.has_where) so.batch_rows = a.limit;
    if (plan.has_where) {
        so.predicates = &plan.where.pred;
        so.n_predicates = 1;
        so.filter_rows = true;
    }
    if (hudi_pq_scan_open(&scan, s.file, &so, &err) < 0) {
        rc = cli_runtime_error(a.path, &err);
        goto done;
    }
    for (;;) {
        hudi_batch *b = NULL;
        if (hudi_pq_scan_next(scan, &b, &err) < 0) {
            flush_out(&out); /* rows before the error stay visible, in order */
            rc = cli_runtime_error(a.path, &err);
            goto done;
        }
        if (!b) break;
        int64_t n = b->num_rows;
        if (a.limit >= 0 && n > a.limit - produced) n = a.limit - produced;
        if (!a.count && (rc = render_rows(&out, b, n, &plan)) < 0) {
            rc = out_error(a.path, &out);
            goto done;
        }
        produced += n;
        if (a.limit >= 0 && produced >= a.limit) break;
    }
finish:
    if (a.count) hudi_buf_printf(&out, "%lld\n", (long long)produced);
    rc = hudi_buf_failed(&out) || !flush_out(&out) ? out_error(a.path, &out) : CLI_EXIT_OK;
done:
    hudi_pq_scan_free(scan);
    plan_dispose(&plan);
    session_close(&s);
    hudi_buf_dispose(&out);
    hudi_buf_dispose(&why);
    return rc;
}

/* ---- the group ----------------------------------------------------------------------------- */

static const cli_command parquet_commands[] = {
    {"schema", "FILE", "print the Parquet schema tree and the hudic type of each column",
     cmd_schema},
    {"meta", "FILE",
     "print the footer: file facts, key/value metadata, row groups, column chunks, statistics",
     cmd_meta},
    {"cat", "[--columns a,b] [--limit N] [--count] [--where 'COL OP VALUE'] [--no-crc] FILE",
     "print rows as JSON lines (or only their count)", cmd_cat},
};

const cli_group cli_parquet_group = {
    "parquet",
    "look inside Parquet files",
    parquet_commands,
    HUDI_ARRAY_LEN(parquet_commands),
};
