/* cmd_parquet.c - `hudic parquet schema|meta|cat FILE`: look inside one Parquet file, through
 * the public API (hudi_parquet.h).
 *
 * `cat` streams batches from a public scan (an Arrow C stream) and renders each row as one
 * JSON object (keys in schema order, values per docs/formats/rendering.md) with the public
 * JSON Lines writer. Invariant: --limit stops the scan as soon as enough rows were produced,
 * and --where is handed to the scan (row-group/page skipping plus exact row filtering) rather
 * than evaluated here, so the CLI shows what the scan API returns. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "cli.h"

#define DEFAULT_BATCH_ROWS 65536

static int out_error(const char *path, const cli_buf *b) {
    hudi_error err = HUDI_ERROR_INIT;
    if (b->failed)
        hudi_error_set(&err, HUDI_ENOMEM, "out of memory");
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
    cli_buf out = CLI_BUF_INIT;
    hudi_parquet_file *f = NULL;
    if (hudi_parquet_open(&f, path, NULL, &err) < 0) {
        rc = cli_runtime_error(path, &err);
        goto done;
    }
    if (meta)
        cli_print_parquet_meta(&out, f);
    else
        cli_print_parquet_schema(&out, f);
    rc = out.failed || !cli_buf_flush(&out) ? out_error(path, &out) : CLI_EXIT_OK;
done:
    hudi_parquet_close(f);
    cli_buf_dispose(&out);
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

static int find_top_column(const hudi_parquet_file *f, const char *name, size_t len) {
    for (int32_t i = 0; i < hudi_parquet_num_columns(f); i++) {
        const char *n = hudi_parquet_column_name(f, i);
        if (strlen(n) == len && memcmp(n, name, len) == 0) return i;
    }
    return -1;
}

/* Marks the columns named in "a,b,c" in `want`; usage error text in `why` otherwise. */
static int select_columns(const hudi_parquet_file *f, const char *list, bool *want, cli_buf *why) {
    const char *p = list;
    int32_t n = hudi_parquet_num_columns(f);
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *s = p;
        while (len > 0 && isspace((unsigned char)*s)) s++, len--;
        while (len > 0 && isspace((unsigned char)s[len - 1])) len--;
        if (len == 0) {
            cli_buf_puts(why, "--columns: empty column name");
            return HUDI_EINVAL;
        }
        int c = find_top_column(f, s, len);
        if (c < 0) {
            cli_buf_printf(why, "--columns: unknown column '%.*s' (columns:", (int)len, s);
            for (int32_t i = 0; i < n && i < 20; i++)
                cli_buf_printf(why, "%s %s", i ? "," : "", hudi_parquet_column_name(f, i));
            cli_buf_puts(why, n > 20 ? ", ...)" : ")");
            return HUDI_EINVAL;
        }
        if (want[c]) {
            cli_buf_printf(why, "--columns: column '%.*s' given twice", (int)len, s);
            return HUDI_EINVAL;
        }
        want[c] = true;
        if (!end) return 0;
        p = end + 1;
    }
}

/* The projection from --columns, in the file's column order: names borrowed from the file,
 * *names NULL for all columns. Returns 0, HUDI_EINVAL (message in `why`) or HUDI_ENOMEM. */
static int plan_columns(const char ***names, int32_t *n_names, const hudi_parquet_file *f,
                        const char *list, cli_buf *why) {
    int32_t n = hudi_parquet_num_columns(f);
    *names = NULL;
    *n_names = 0;
    if (!list) return 0;
    bool *want = calloc((size_t)n + 1, sizeof(bool));
    *names = calloc((size_t)n + 1, sizeof(char *));
    if (!want || !*names) {
        free(want);
        return HUDI_ENOMEM;
    }
    int rc = select_columns(f, list, want, why);
    for (int32_t i = 0; rc == 0 && i < n; i++)
        if (want[i]) (*names)[(*n_names)++] = hudi_parquet_column_name(f, i);
    free(want);
    return rc;
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
    int rc = cli_parse_args(argc, argv, opts, CLI_ARRAY_LEN(opts), pos, 1, 1, &n_pos, g, self);
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

/* Streams the scan's batches: renders (or counts) at most `limit` rows. */
static int cat_stream(struct ArrowArrayStream *st, const cat_args *a, int64_t *produced,
                      cli_output *o, hudi_error *err) {
    struct ArrowSchema schema = {0};
    hudi_json_writer *jw = NULL;
    int rc = st->get_schema(st, &schema);
    if (rc != 0) {
        hudi_error_set(err, HUDI_EIO, "%s", st->get_last_error(st));
        return -1;
    }
    if (!a->count && (rc = hudi_json_writer_new(&jw, &schema, cli_write_stdout, o, err)) < 0)
        goto done;
    while (a->limit < 0 || *produced < a->limit) {
        struct ArrowArray batch = {0};
        if (st->get_next(st, &batch) != 0) {
            hudi_error_set(err, HUDI_EIO, "%s", st->get_last_error(st));
            rc = -1;
            break;
        }
        if (!batch.release) break;
        int64_t n = batch.length;
        if (a->limit >= 0 && n > a->limit - *produced) n = a->limit - *produced;
        rc = jw ? hudi_json_writer_write(jw, &batch, 0, n, err) : 0;
        batch.release(&batch);
        if (rc < 0) break;
        *produced += n;
    }
    if (rc < 0 && jw) {
        hudi_error ignored = HUDI_ERROR_INIT;
        hudi_json_writer_flush(jw, &ignored); /* rows before the error stay visible, in order */
    } else if (jw) {
        rc = hudi_json_writer_flush(jw, err);
    }
done:
    hudi_json_writer_free(jw);
    schema.release(&schema);
    return rc;
}

static int cmd_cat(const cli_group *g, const cli_command *self, int argc, char **argv) {
    cat_args a = {0};
    int rc = parse_cat_args(&a, g, self, argc, argv);
    if (rc) return rc < 0 ? CLI_EXIT_OK : rc;

    hudi_error err = HUDI_ERROR_INIT;
    cli_buf out = CLI_BUF_INIT, why = CLI_BUF_INIT;
    hudi_parquet_file *f = NULL;
    hudi_parquet_scan *scan = NULL;
    struct ArrowArrayStream stream = {0};
    const char **names = NULL;
    int32_t n_names = 0;
    int64_t produced = 0;
    cli_output o = {0};
    hudi_parquet_open_options oo = HUDI_PARQUET_OPEN_OPTIONS_INIT;
    oo.verify_crc = !a.no_crc;
    if (hudi_parquet_open(&f, a.path, &oo, &err) < 0) {
        rc = cli_runtime_error(a.path, &err);
        goto done;
    }
    if ((rc = plan_columns(&names, &n_names, f, a.columns, &why)) < 0) {
        hudi_error_set(&err, HUDI_ENOMEM, "out of memory");
        rc = rc == HUDI_EINVAL ? cli_usage_error(g, self, "%s", why.data ? why.data : "")
                               : cli_runtime_error(a.path, &err);
        goto done;
    }
    hudi_parquet_scan_options so = HUDI_PARQUET_SCAN_OPTIONS_INIT;
    so.columns = names;
    so.n_columns = n_names;
    so.filter = a.where_text;
    /* A small --limit decodes only that many rows; with --where rows may be dropped, so
     * batches keep their default size. */
    if (a.limit > 0 && a.limit < DEFAULT_BATCH_ROWS && !a.where_text) so.batch_rows = a.limit;
    if (hudi_parquet_scan_open(&scan, f, &so, &err) < 0) {
        rc = cli_filter_error(g, self, "--where", a.path, &err);
        goto done;
    }
    if (a.limit != 0) { /* --limit 0: nothing to read */
        if (hudi_parquet_scan_to_arrow(scan, &stream, &err) < 0 ||
            cat_stream(&stream, &a, &produced, &o, &err) < 0) {
            if (o.failed) errno = o.saved_errno;
            rc = o.failed ? out_error(a.path, &out) : cli_runtime_error(a.path, &err);
            goto done;
        }
    }
    if (a.count) cli_buf_printf(&out, "%lld\n", (long long)produced);
    rc = out.failed || !cli_buf_flush(&out) ? out_error(a.path, &out) : CLI_EXIT_OK;
done:
    if (stream.release) stream.release(&stream);
    hudi_parquet_scan_free(scan);
    hudi_parquet_close(f);
    free(names);
    cli_buf_dispose(&out);
    cli_buf_dispose(&why);
    return rc;
}

/* ---- the group ----------------------------------------------------------------------------- */

static const cli_option_doc cat_options[] = {
    {"--columns", "a,b", "print only these top-level columns (in the file's column order)"},
    {"--limit", "N", "stop after N rows"},
    {"--where", "'COL OP VALUE'",
     "only rows where the predicate holds (= != <> < <= > >=, IS [NOT] NULL)"},
    {"--count", NULL, "print only the number of rows"},
    {"--no-crc", NULL, "do not verify page checksums"},
};

static const cli_command parquet_commands[] = {
    {"schema", "FILE", "print the Parquet schema tree and the hudic type of each column",
     cmd_schema, NULL, 0},
    {"meta", "FILE",
     "print the footer: file facts, key/value metadata, row groups, column chunks, statistics",
     cmd_meta, NULL, 0},
    {"cat", "[--columns a,b] [--limit N] [--count] [--where 'COL OP VALUE'] [--no-crc] FILE",
     "print rows as JSON lines (or only their count)", cmd_cat, cat_options,
     CLI_ARRAY_LEN(cat_options)},
};

const cli_group cli_parquet_group = {
    "parquet",
    "look inside Parquet files",
    parquet_commands,
    CLI_ARRAY_LEN(parquet_commands),
};
