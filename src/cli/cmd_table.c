/* cmd_table.c - `hudic table info|cat|create|write|rollback|clean|compact|cluster`: inspect a Hudi
 * table and print its rows as JSON Lines (the rendering of docs/formats/rendering.md, meta columns
 * included), create tables, and commit Parquet or JSON Lines input with one write operation -
 * all through the public API (hudi_table.h, hudi_parquet.h, hudi_json.h). */
#include <errno.h>
#include <stdlib.h>
#include <strings.h>

#include "cli.h"

#define MAX_COLUMNS 1024

/* A copy of the table path without trailing slashes ("/" stays "/"): the table names itself
 * by its base path, and the CLI prefixes the path only when the message lacks it, so "tbl/"
 * would otherwise be named twice. NULL when out of memory. */
static char *clean_path(const char *path) {
    char *p = strdup(path);
    if (p) {
        size_t n = strlen(p);
        while (n > 1 && p[n - 1] == '/') p[--n] = '\0';
    }
    return p;
}

static int open_table(hudi_table **t, const char *path) {
    hudi_error err = HUDI_ERROR_INIT;
    if (hudi_table_open(t, path, NULL, &err) < 0) return cli_runtime_error(path, &err);
    return 0;
}

static int oom(const char *path) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_error_set(&err, HUDI_ENOMEM, "out of memory");
    return cli_runtime_error(path, &err);
}

/* ---- info -------------------------------------------------------------------------------- */

static void print_info(cli_buf *o, const hudi_table *t, const hudi_file_slices *v) {
    hudi_table_info info;
    hudi_table_info_get(t, &info);
    cli_buf_printf(o, "table: %s\n", hudi_table_base_path(t));
    cli_buf_printf(o, "name: %s\ntype: %s\nversion: %d\ntimeline layout: %d\n", info.name,
                   info.type, info.version, info.timeline_layout);
    cli_buf_puts(o, "\nproperties:\n");
    for (int32_t i = 0; i < hudi_table_property_count(t); i++) {
        const char *key, *val;
        hudi_table_property_get(t, i, &key, &val);
        size_t n = strlen(val);
        if (n > 200)
            cli_buf_printf(o, "  %s = %.200s… (%zu bytes)\n", key, val, n);
        else
            cli_buf_printf(o, "  %s = %s\n", key, val);
    }
    int32_t n_instants = hudi_table_instant_count(t);
    cli_buf_printf(o, "\ntimeline: %d instants\n", n_instants);
    for (int32_t i = 0; i < n_instants; i++) {
        hudi_instant_info in;
        hudi_table_instant_get(t, i, &in);
        cli_buf_printf(o, "  %s %-13s %-9s%s%s\n", in.time, in.action, in.state,
                       in.completion_time[0] ? " completed " : "", in.completion_time);
    }
    int32_t n = hudi_file_slices_count(v);
    const char *as_of = hudi_file_slices_as_of(v);
    cli_buf_printf(o, "\nfile groups as of %s: %d\n", as_of[0] ? as_of : "(none)", n);
    for (int32_t i = 0; i < n; i++) {
        hudi_file_slice_info s;
        hudi_file_slices_get(v, i, &s);
        cli_buf_printf(o, "  partition '%s' file group %s (slice %s)\n", s.partition_path,
                       s.file_id, s.base_instant);
        if (s.base_file)
            cli_buf_printf(o, "    base %s (%lld bytes)\n", s.base_file,
                           (long long)s.base_file_bytes);
        for (int32_t k = 0; k < s.n_log_files; k++) {
            const char *name;
            int64_t size;
            hudi_file_slice_log(v, i, k, &name, &size);
            cli_buf_printf(o, "    log  %s (%lld bytes)\n", name, (long long)size);
        }
    }
}

static int cmd_info(const cli_group *g, const cli_command *self, int argc, char **argv) {
    const char *pos[1];
    int n_pos = 0;
    int rc = cli_parse_args(argc, argv, NULL, 0, pos, 1, 1, &n_pos, g, self);
    if (rc) return rc < 0 ? CLI_EXIT_OK : rc;
    hudi_table *t = NULL;
    hudi_file_slices *v = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cli_buf o = CLI_BUF_INIT;
    char *path = clean_path(pos[0]);
    if (!path) return oom(pos[0]);
    if ((rc = open_table(&t, path)) != 0) {
        free(path);
        return rc;
    }
    if (hudi_table_file_slices(&v, t, NULL, &err) < 0) {
        rc = cli_runtime_error(path, &err);
    } else {
        print_info(&o, t, v);
        fwrite(o.data ? o.data : "", 1, o.len, stdout);
        rc = cli_finish_output(o.failed ? CLI_EXIT_RUNTIME : CLI_EXIT_OK);
    }
    cli_buf_dispose(&o);
    hudi_file_slices_free(v);
    hudi_table_free(t);
    free(path);
    return rc;
}

/* ---- cat --------------------------------------------------------------------------------- */

typedef struct cat_args {
    const char *path, *as_of, *incremental, *columns, *limit, *where;
    bool count, read_optimized, ignore_missing;
} cat_args;

static int split_columns(char *list, const char **out, int32_t *n) {
    *n = 0;
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        if (*n >= MAX_COLUMNS) return -1;
        out[(*n)++] = tok;
    }
    return 0;
}

/* Prints (or counts) at most `limit` rows of the stream as JSON Lines. */
static int print_stream(struct ArrowArrayStream *st, int64_t limit, bool count_only,
                        int64_t *produced, cli_output *o, hudi_error *err) {
    struct ArrowSchema schema = {0};
    hudi_json_writer *jw = NULL;
    int rc = 0;
    if (st->get_schema(st, &schema) != 0)
        return hudi_error_set(err, HUDI_EIO, "%s", st->get_last_error(st));
    if (!count_only && (rc = hudi_json_writer_new(&jw, &schema, cli_write_stdout, o, err)) < 0)
        goto done;
    while (limit < 0 || *produced < limit) {
        struct ArrowArray batch = {0};
        if (st->get_next(st, &batch) != 0) {
            rc = hudi_error_set(err, HUDI_EIO, "%s", st->get_last_error(st));
            break;
        }
        if (!batch.release) break;
        int64_t n = batch.length;
        if (limit >= 0 && n > limit - *produced) n = limit - *produced;
        rc = jw ? hudi_json_writer_write(jw, &batch, 0, n, err) : 0;
        batch.release(&batch);
        if (rc < 0) break;
        *produced += n;
    }
    if (jw) {
        hudi_error ignored = HUDI_ERROR_INIT; /* rows before an error stay visible, in order */
        int fr = hudi_json_writer_flush(jw, rc < 0 ? &ignored : err);
        if (rc == 0) rc = fr;
    }
done:
    hudi_json_writer_free(jw);
    schema.release(&schema);
    return rc;
}

static int cmd_cat(const cli_group *g, const cli_command *self, int argc, char **argv) {
    cat_args a = {0};
    const cli_option opts[] = {
        {"--as-of", &a.as_of, NULL},
        {"--incremental", &a.incremental, NULL},
        {"--columns", &a.columns, NULL},
        {"--limit", &a.limit, NULL},
        {"--where", &a.where, NULL},
        {"--count", NULL, &a.count},
        {"--read-optimized", NULL, &a.read_optimized},
        {"--ignore-missing-files", NULL, &a.ignore_missing},
    };
    const char *pos[1];
    int n_pos = 0;
    int rc = cli_parse_args(argc, argv, opts, CLI_ARRAY_LEN(opts), pos, 1, 1, &n_pos, g, self);
    if (rc) return rc < 0 ? CLI_EXIT_OK : rc;

    hudi_scan_options so = HUDI_SCAN_OPTIONS_INIT;
    char *cols_copy = NULL, *inc_copy = NULL;
    const char *cols[MAX_COLUMNS];
    int64_t limit = -1;
    if (a.limit) {
        char *end;
        limit = strtoll(a.limit, &end, 10);
        if (*end || limit < 0)
            return cli_usage_error(g, self, "--limit takes a non-negative integer");
    }
    if (a.columns) {
        cols_copy = strdup(a.columns);
        if (!cols_copy || split_columns(cols_copy, cols, &so.n_columns) < 0) {
            free(cols_copy);
            return cli_usage_error(g, self, "too many columns");
        }
        so.columns = cols;
    }
    if (a.incremental) {
        inc_copy = strdup(a.incremental);
        char *comma = inc_copy ? strchr(inc_copy, ',') : NULL;
        if (!comma) {
            free(cols_copy);
            free(inc_copy);
            return cli_usage_error(g, self, "--incremental takes BEGIN,END (END may be empty)");
        }
        *comma = '\0';
        /* An empty BEGIN is the start of the timeline: every instant is after "0". */
        so.begin_instant = inc_copy[0] ? inc_copy : "0";
        so.end_instant = comma[1] ? comma + 1 : NULL;
    }
    so.as_of_instant = a.as_of;
    so.read_optimized = a.read_optimized;
    so.filter = a.where;
    so.ignore_missing_files = a.ignore_missing;

    hudi_table *t = NULL;
    hudi_scan *scan = NULL;
    struct ArrowArrayStream stream = {0};
    hudi_error err = HUDI_ERROR_INIT;
    cli_buf out = CLI_BUF_INIT;
    cli_output o = {0};
    int64_t produced = 0;
    char *path = clean_path(pos[0]);
    if (!path) {
        rc = oom(pos[0]);
        goto done;
    }
    if ((rc = open_table(&t, path)) != 0) goto done;
    if (hudi_scan_open(&scan, t, &so, &err) < 0) {
        rc = cli_filter_error(g, self, "--where", path, &err);
        goto done;
    }
    if (hudi_scan_warning(scan)) fprintf(stderr, "hudic: warning: %s\n", hudi_scan_warning(scan));
    rc = hudi_scan_to_arrow(scan, &stream, &err);
    scan = NULL; /* the stream owns it, also on failure */
    if (rc < 0 || print_stream(&stream, limit, a.count, &produced, &o, &err) < 0) {
        if (o.failed) errno = o.saved_errno;
        if (o.failed) hudi_error_set(&err, HUDI_EIO, "writing output: %s", strerror(errno));
        rc = cli_runtime_error(path, &err);
        goto done;
    }
    if (a.count) cli_buf_printf(&out, "%lld\n", (long long)produced);
    fwrite(out.data ? out.data : "", 1, out.len, stdout);
    rc = cli_finish_output(out.failed ? CLI_EXIT_RUNTIME : CLI_EXIT_OK);
done:
    if (stream.release) stream.release(&stream);
    hudi_scan_free(scan);
    hudi_table_free(t);
    cli_buf_dispose(&out);
    free(cols_copy);
    free(inc_copy);
    free(path);
    return rc;
}

/* ---- create ------------------------------------------------------------------------------ */

typedef struct create_args {
    const char *name, *type, *key, *partition, *precombine, *keygen, *schema_from, *schema, *props;
    bool hive_style, url_encode, no_meta_fields;
} create_args;

/* The Arrow schema of --schema-from FILE.parquet (the library stores it as Hudi on Spark
 * derives it). */
static int schema_from_parquet(struct ArrowSchema *out, const char *file, hudi_error *err) {
    hudi_parquet_file *f = NULL;
    int rc = hudi_parquet_open(&f, file, NULL, err);
    if (rc == 0) rc = hudi_parquet_schema(f, out, err);
    hudi_parquet_close(f);
    return rc;
}

static int cmd_create(const cli_group *g, const cli_command *self, int argc, char **argv) {
    create_args a = {0};
    const cli_option opts[] = {
        {"--name", &a.name, NULL},
        {"--type", &a.type, NULL},
        {"--key", &a.key, NULL},
        {"--partition", &a.partition, NULL},
        {"--precombine", &a.precombine, NULL},
        {"--keygen", &a.keygen, NULL},
        {"--schema-from", &a.schema_from, NULL},
        {"--schema", &a.schema, NULL},
        {"--hive-style", NULL, &a.hive_style},
        {"--url-encode", NULL, &a.url_encode},
        {"--no-meta-fields", NULL, &a.no_meta_fields},
        {"--props", &a.props, NULL},
    };
    const char *pos[1];
    int n_pos = 0;
    int rc = cli_parse_args(argc, argv, opts, CLI_ARRAY_LEN(opts), pos, 1, 1, &n_pos, g, self);
    if (rc) return rc < 0 ? CLI_EXIT_OK : rc;
    if (!a.name) return cli_usage_error(g, self, "--name is required");
    if (!a.key) return cli_usage_error(g, self, "--key is required");
    if (!a.schema_from == !a.schema)
        return cli_usage_error(
            g, self, "give exactly one of --schema-from FILE.parquet and --schema 'AVRO JSON'");
    hudi_table_create_options co = HUDI_TABLE_CREATE_OPTIONS_INIT;
    co.table_type = "COPY_ON_WRITE";
    if (a.type && strcasecmp(a.type, "cow") != 0 && strcasecmp(a.type, "copy_on_write") != 0) {
        if (strcasecmp(a.type, "mor") != 0 && strcasecmp(a.type, "merge_on_read") != 0)
            return cli_usage_error(g, self, "--type is cow or mor, not '%s'", a.type);
        co.table_type = "MERGE_ON_READ";
    }
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    struct ArrowSchema schema = {0};
    char *path = clean_path(pos[0]);
    if (!path) return oom(pos[0]);
    co.table_name = a.name;
    co.record_key_fields = a.key;
    co.partition_fields = a.partition;
    co.precombine_field = a.precombine;
    co.keygen_class = a.keygen;
    co.hive_style_partitioning = a.hive_style;
    co.url_encode_partitions = a.url_encode;
    co.populate_meta_fields = !a.no_meta_fields;
    /* --props 'k1=v1,k2=v2': more table properties (e.g. hoodie.keygen.timebased.*). */
    char *props_copy = NULL;
    const char *extra[2 * 64 + 1] = {0};
    if (a.props) {
        size_t n = 0;
        props_copy = strdup(a.props);
        for (char *kv = props_copy ? strtok(props_copy, ",") : NULL; kv; kv = strtok(NULL, ",")) {
            char *eq = strchr(kv, '=');
            if (!eq || eq == kv || n + 2 >= CLI_ARRAY_LEN(extra)) {
                rc =
                    cli_usage_error(g, self, "--props takes KEY=VALUE[,KEY=VALUE...] (at most 64)");
                goto done;
            }
            *eq = '\0';
            extra[n++] = kv;
            extra[n++] = eq + 1;
        }
        co.extra_properties = extra;
    }
    if (a.schema_from && schema_from_parquet(&schema, a.schema_from, &err) < 0) {
        rc = cli_runtime_error(a.schema_from, &err);
        goto done;
    }
    co.schema = a.schema_from ? &schema : NULL;
    co.avro_schema = a.schema;
    if (hudi_table_create(&t, path, &co, &err) < 0) {
        rc = cli_runtime_error(path, &err);
        goto done;
    }
    printf("created %s: table %s, %s, record key %s%s%s\n", path, a.name, co.table_type, a.key,
           a.partition ? ", partitioned by " : "", a.partition ? a.partition : "");
    rc = cli_finish_output(CLI_EXIT_OK);
done:
    if (schema.release) schema.release(&schema);
    hudi_table_free(t);
    free(props_copy);
    free(path);
    return rc;
}

/* ---- write ------------------------------------------------------------------------------- */

/* Input bytes for the JSON Lines reader: stdin or a file. */
static int read_input(void *payload, void *buf, size_t cap, size_t *got, hudi_error *err) {
    FILE *in = payload;
    *got = fread(buf, 1, cap, in);
    if (*got == 0 && ferror(in))
        return hudi_error_set(err, HUDI_EIO, "read failed: %s", strerror(errno));
    return 0;
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcasecmp(s + n - k, suffix) == 0;
}

/* The rows to commit as a stream: a Parquet file's rows, or JSON Lines of the table's schema
 * (meta columns accepted, so `hudic table cat` output reads back; the write drops them). */
typedef struct write_input {
    hudi_parquet_file *pf;
    hudi_parquet_scan *scan;
    FILE *file;
    struct ArrowSchema schema;
    struct ArrowArrayStream stream;
} write_input;

static int input_open(write_input *in, hudi_table *t, const char *input, hudi_error *err) {
    int rc;
    if (strcmp(input, "-") != 0 && ends_with(input, ".parquet")) {
        if ((rc = hudi_parquet_open(&in->pf, input, NULL, err)) < 0) return rc;
        if ((rc = hudi_parquet_scan_open(&in->scan, in->pf, NULL, err)) < 0) return rc;
        return hudi_parquet_scan_to_arrow(in->scan, &in->stream, err);
    }
    bool is_stdin = strcmp(input, "-") == 0;
    if ((rc = hudi_table_full_schema(t, &in->schema, err)) < 0) return rc;
    if (!(in->file = is_stdin ? stdin : fopen(input, "rb")))
        return hudi_error_set(err, errno == ENOENT ? HUDI_ENOTFOUND : HUDI_EIO, "%s: %s", input,
                              strerror(errno));
    return hudi_json_reader_to_arrow(&in->schema, read_input, in->file, is_stdin ? "stdin" : input,
                                     NULL, &in->stream, err);
}

static void input_close(write_input *in) {
    if (in->stream.release) in->stream.release(&in->stream);
    if (in->schema.release) in->schema.release(&in->schema);
    if (in->file && in->file != stdin) fclose(in->file);
    hudi_parquet_scan_free(in->scan);
    hudi_parquet_close(in->pf);
}

typedef struct write_args {
    const char *op, *partitions, *input, *instant, *props;
    bool latest_wins, no_clean;
} write_args;

/* --props 'k1=v1,k2=v2' into a NULL-terminated key, value list over `copy` (owned). */
static int split_props(const char *text, char **copy, const char **kv_out, size_t cap) {
    size_t n = 0;
    if (!(*copy = strdup(text))) return -1;
    for (char *kv = strtok(*copy, ","); kv; kv = strtok(NULL, ",")) {
        char *eq = strchr(kv, '=');
        if (!eq || eq == kv || n + 2 >= cap) return -1;
        *eq = '\0';
        kv_out[n++] = kv;
        kv_out[n++] = eq + 1;
    }
    kv_out[n] = NULL;
    return 0;
}

static void print_result(const hudi_table_write_result *res, hudi_write_operation op) {
    if (res->instant[0])
        printf("committed %s (%s): %lld inserted, %lld updated, %lld deleted, %lld files, %lld "
               "bytes\n",
               res->instant, hudi_write_operation_name(op), (long long)res->inserts,
               (long long)res->updates, (long long)res->deletes, (long long)res->files_written,
               (long long)res->bytes_written);
    else
        printf("nothing to commit (%s)\n", hudi_write_operation_name(op));
}

static int cmd_write(const cli_group *g, const cli_command *self, int argc, char **argv) {
    write_args a = {0};
    const cli_option opts[] = {
        {"--op", &a.op, NULL},
        {"--partitions", &a.partitions, NULL},
        {"--input", &a.input, NULL},
        {"--instant", &a.instant, NULL},
        {"--props", &a.props, NULL},
        {"--latest-wins", NULL, &a.latest_wins},
        {"--no-clean", NULL, &a.no_clean},
    };
    const char *pos[1];
    int n_pos = 0;
    int rc = cli_parse_args(argc, argv, opts, CLI_ARRAY_LEN(opts), pos, 1, 1, &n_pos, g, self);
    if (rc) return rc < 0 ? CLI_EXIT_OK : rc;
    hudi_table_write_options wo = HUDI_TABLE_WRITE_OPTIONS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    if (!a.op) return cli_usage_error(g, self, "--op is required");
    if (hudi_write_operation_parse(&wo.operation, a.op, &err) < 0)
        return cli_usage_error(g, self, "%s", err.message);
    bool drop = wo.operation == HUDI_WRITE_DELETE_PARTITION;
    if (drop ? !a.partitions : !a.input)
        return cli_usage_error(g, self,
                               drop ? "delete_partition needs --partitions a,b"
                                    : "--input FILE.parquet|FILE.jsonl|- is required");
    const char *parts[MAX_COLUMNS];
    char *parts_copy = NULL;
    if (a.partitions) {
        if (!(parts_copy = strdup(a.partitions)) ||
            split_columns(parts_copy, parts, &wo.n_partitions) < 0) {
            free(parts_copy);
            return cli_usage_error(g, self, "too many partitions");
        }
        wo.partitions = parts;
    }
    wo.latest_wins = a.latest_wins;
    wo.instant_time = a.instant;
    if (a.no_clean) wo.clean_retain_commits = 0;
    /* --props: writer settings, e.g. hoodie.write.concurrency.mode, hoodie.write.lock.* */
    char *props_copy = NULL;
    const char *props[2 * 64 + 1] = {0};
    if (a.props) {
        if (split_props(a.props, &props_copy, props, CLI_ARRAY_LEN(props)) < 0) {
            free(props_copy);
            free(parts_copy);
            return cli_usage_error(g, self, "--props takes KEY=VALUE[,KEY=VALUE...] (at most 64)");
        }
        wo.properties = props;
    }
    hudi_table *t = NULL;
    write_input in;
    memset(&in, 0, sizeof(in));
    hudi_table_write_result res;
    char *path = clean_path(pos[0]);
    if (!path) {
        rc = oom(pos[0]);
        goto done;
    }
    if ((rc = open_table(&t, path)) != 0) goto done;
    if (drop) {
        rc = hudi_table_write(t, NULL, NULL, &wo, &res, &err);
    } else if ((rc = input_open(&in, t, a.input, &err)) < 0) {
        rc = cli_runtime_error(strcmp(a.input, "-") == 0 ? "stdin" : a.input, &err);
        goto done;
    } else {
        rc = hudi_table_write_stream(t, &in.stream, &wo, &res, &err);
    }
    if (rc < 0) {
        rc = cli_runtime_error(path, &err);
        goto done;
    }
    print_result(&res, wo.operation);
    rc = cli_finish_output(CLI_EXIT_OK);
done:
    input_close(&in);
    hudi_table_free(t);
    free(props_copy);
    free(parts_copy);
    free(path);
    return rc;
}

/* ---- rollback, clean --------------------------------------------------------------------- */

static int cmd_rollback(const cli_group *g, const cli_command *self, int argc, char **argv) {
    const char *pos[1];
    int n_pos = 0;
    int rc = cli_parse_args(argc, argv, NULL, 0, pos, 1, 1, &n_pos, g, self);
    if (rc) return rc < 0 ? CLI_EXIT_OK : rc;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    char *path = clean_path(pos[0]);
    if (!path) return oom(pos[0]);
    if ((rc = open_table(&t, path)) == 0) {
        int32_t n = 0;
        if (hudi_table_rollback(t, &n, &err) < 0) {
            rc = cli_runtime_error(path, &err);
        } else {
            printf("rolled back %d pending write%s\n", n, n == 1 ? "" : "s");
            rc = cli_finish_output(CLI_EXIT_OK);
        }
    }
    hudi_table_free(t);
    free(path);
    return rc;
}

static int cmd_clean(const cli_group *g, const cli_command *self, int argc, char **argv) {
    const char *retain_text = NULL;
    const cli_option opts[] = {{"--retain", &retain_text, NULL}};
    const char *pos[1];
    int n_pos = 0;
    int rc = cli_parse_args(argc, argv, opts, CLI_ARRAY_LEN(opts), pos, 1, 1, &n_pos, g, self);
    if (rc) return rc < 0 ? CLI_EXIT_OK : rc;
    long retain = 10; /* hoodie.cleaner.commits.retained */
    if (retain_text) {
        char *end;
        retain = strtol(retain_text, &end, 10);
        if (*end || retain < 1 || retain > INT32_MAX)
            return cli_usage_error(g, self, "--retain takes a positive number of commits");
    }
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    char *path = clean_path(pos[0]);
    if (!path) return oom(pos[0]);
    if ((rc = open_table(&t, path)) == 0) {
        int64_t n = 0;
        if (hudi_table_clean(t, (int32_t)retain, &n, &err) < 0) {
            rc = cli_runtime_error(path, &err);
        } else {
            printf("cleaned %lld file%s, keeping the latest %ld commits\n", (long long)n,
                   n == 1 ? "" : "s", retain);
            rc = cli_finish_output(CLI_EXIT_OK);
        }
    }
    hudi_table_free(t);
    free(path);
    return rc;
}

static int cmd_compact(const cli_group *g, const cli_command *self, int argc, char **argv) {
    const char *instant = NULL;
    bool schedule = false, pending = false;
    const cli_option opts[] = {{"--schedule", NULL, &schedule},
                               {"--instant", &instant, NULL},
                               {"--pending", NULL, &pending}};
    const char *pos[1];
    int n_pos = 0;
    int rc = cli_parse_args(argc, argv, opts, CLI_ARRAY_LEN(opts), pos, 1, 1, &n_pos, g, self);
    if (rc) return rc < 0 ? CLI_EXIT_OK : rc;
    if ((schedule ? 1 : 0) + (instant ? 1 : 0) + (pending ? 1 : 0) > 1)
        return cli_usage_error(g, self, "--schedule, --instant and --pending exclude each other");
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    char *path = clean_path(pos[0]);
    if (!path) return oom(pos[0]);
    if ((rc = open_table(&t, path)) == 0) {
        int32_t n = 0;
        char at[32] = "";
        int r = schedule               ? hudi_table_compact_schedule(t, &n, at, &err)
                : (instant || pending) ? hudi_table_compact_run(t, instant, &n, &err)
                                       : hudi_table_compact(t, &n, at, &err);
        if (r < 0) {
            rc = cli_runtime_error(path, &err);
        } else {
            if (schedule && n == 0)
                printf("nothing to compact\n");
            else if (schedule)
                printf("scheduled compaction %s of %d file group%s\n", at, n, n == 1 ? "" : "s");
            else if (instant)
                printf("compacted %d file group%s at %s\n", n, n == 1 ? "" : "s", instant);
            else if (pending)
                printf("compacted %d file group%s of pending compactions\n", n, n == 1 ? "" : "s");
            else if (n == 0)
                printf("nothing to compact\n");
            else
                printf("compacted %d file group%s at %s\n", n, n == 1 ? "" : "s", at);
            rc = cli_finish_output(CLI_EXIT_OK);
        }
    }
    hudi_table_free(t);
    free(path);
    return rc;
}

/* `hudic table cluster`: schedule a clustering plan and execute it (or only one of the two). */
static int cmd_cluster(const cli_group *g, const cli_command *self, int argc, char **argv) {
    const char *sort = NULL, *parts = NULL, *target = NULL, *small = NULL, *exec = NULL;
    bool schedule_only = false;
    const cli_option opts[] = {
        {"--sort", &sort, NULL},           {"--partitions", &parts, NULL},
        {"--target-bytes", &target, NULL}, {"--small-file-limit", &small, NULL},
        {"--execute", &exec, NULL},        {"--schedule-only", NULL, &schedule_only}};
    const char *pos[1];
    int n_pos = 0;
    int rc = cli_parse_args(argc, argv, opts, CLI_ARRAY_LEN(opts), pos, 1, 1, &n_pos, g, self);
    if (rc) return rc < 0 ? CLI_EXIT_OK : rc;
    hudi_cluster_options o = {0};
    o.version = 1;
    o.sort_columns = sort;
    const char *sizes[] = {target, small};
    int64_t *dst[] = {&o.target_file_max_bytes, &o.small_file_limit};
    for (int i = 0; i < 2; i++) {
        if (!sizes[i]) continue;
        char *end;
        long long v = strtoll(sizes[i], &end, 10);
        if (*end || v < 1)
            return cli_usage_error(g, self, "%s takes a positive number of bytes",
                                   i ? "--small-file-limit" : "--target-bytes");
        *dst[i] = v;
    }
    if (exec && schedule_only)
        return cli_usage_error(g, self, "--execute and --schedule-only exclude each other");
    char *plist = parts ? strdup(parts) : NULL;
    const char *pv[64];
    if (plist) {
        for (char *tok = strtok(plist, ","); tok && o.n_partitions < 64; tok = strtok(NULL, ","))
            pv[o.n_partitions++] = tok;
        o.partitions = pv;
    }
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    char *path = clean_path(pos[0]);
    if (!path) {
        free(plist);
        return oom(pos[0]);
    }
    if ((rc = open_table(&t, path)) == 0) {
        char instant[32] = "";
        int n = 0;
        if (exec) {
            snprintf(instant, sizeof(instant), "%s", exec);
            n = 1;
        } else if ((n = hudi_table_cluster_schedule(t, &o, instant, &err)) < 0) {
            rc = cli_runtime_error(path, &err);
        }
        if (rc == 0 && n > 0 && !schedule_only &&
            hudi_table_cluster_execute(t, instant, &o, &err) < 0)
            rc = cli_runtime_error(path, &err);
        if (rc == 0) {
            if (n == 0)
                printf("nothing to cluster\n");
            else if (exec)
                printf("executed clustering %s\n", instant);
            else
                printf("%s clustering of %d group%s at %s\n",
                       schedule_only ? "scheduled" : "completed", n, n == 1 ? "" : "s", instant);
            rc = cli_finish_output(CLI_EXIT_OK);
        }
    }
    hudi_table_free(t);
    free(path);
    free(plist);
    return rc;
}

static const cli_option_doc cat_options[] = {
    {"--as-of", "INSTANT", "time travel: the table as of this instant"},
    {"--incremental", "BEGIN,END",
     "only records changed by commits in (BEGIN, END]; either may be empty"},
    {"--read-optimized", NULL, "merge-on-read tables: base files only"},
    {"--columns", "a,b", "print only these columns"},
    {"--where", "'COL OP VALUE'",
     "only rows where the predicate holds (= != <> < <= > >=, IS [NOT] NULL)"},
    {"--limit", "N", "stop after N rows"},
    {"--count", NULL, "print only the number of rows"},
    {"--ignore-missing-files", NULL,
     "skip file groups whose committed base file is missing from storage (with a warning)"},
};

static const cli_option_doc create_options[] = {
    {"--name", "NAME", "table name (hoodie.table.name); required"},
    {"--key", "F[,F]", "record key fields; required"},
    {"--partition", "P[,P]", "partition fields; none = non-partitioned"},
    {"--precombine", "F", "ordering field that decides between records of one key"},
    {"--type", "cow", "table type: cow (copy-on-write) or mor (merge-on-read)"},
    {"--hive-style", NULL, "partition folders named FIELD=VALUE"},
    {"--props", "K=V,...", "more hoodie.properties entries (at most 64)"},
    {"--url-encode", NULL, "URL-encode partition values in folder names"},
    {"--keygen", "CLASS", "key generator class (default: inferred as Spark SQL does)"},
    {"--no-meta-fields", NULL, "do not write the _hoodie_* meta columns"},
    {"--schema-from", "FILE.parquet", "the data columns of a Parquet file's schema"},
    {"--schema", "'AVRO JSON'", "the data columns as an Avro record schema"},
};

static const cli_option_doc write_options[] = {
    {"--op", "OPERATION",
     "insert, upsert, bulk_insert, delete, insert_overwrite, insert_overwrite_table or "
     "delete_partition; required"},
    {"--input", "FILE", "rows to commit: FILE.parquet, FILE.jsonl, or - for JSON Lines on stdin"},
    {"--partitions", "A,B", "delete_partition: the partition paths to drop"},
    {"--latest-wins", NULL, "upserts: the incoming record always wins over the stored one"},
    {"--instant", "TIME", "commit at this instant (yyyyMMddHHmmssSSS) instead of now"},
    {"--no-clean", NULL, "do not clean old file versions after the commit"},
    {"--props", "K=V,...",
     "writer settings, e.g. hoodie.write.concurrency.mode=optimistic_concurrency_control, "
     "hoodie.write.set.null.for.missing.columns=true (at most 64)"},
};

static const cli_option_doc clean_options[] = {
    {"--retain", "N", "keep the file versions the latest N commits read (default 10)"},
};

static const cli_option_doc compact_options[] = {
    {"--schedule", NULL, "only schedule a compaction (write its plan); run it later"},
    {"--instant", "TIME", "only run the pending compaction TIME (hudic's or Spark's plan)"},
    {"--pending", NULL, "only run every pending compaction, oldest first"},
};

static const cli_option_doc cluster_options[] = {
    {"--sort", "C1,C2", "sort the records of each clustering group by these columns"},
    {"--partitions", "A,B", "only these partition paths"},
    {"--target-bytes", "N", "target size of the new files (default 1 GB)"},
    {"--small-file-limit", "N", "only files smaller than this are clustered (default 300 MB)"},
    {"--schedule-only", NULL, "write the plan (replacecommit.requested), do not execute it"},
    {"--execute", "INSTANT", "execute this pending clustering instead of planning a new one"},
};

static const cli_command table_commands[] = {
    {"info", "PATH", "table properties, timeline, file groups and latest file slices", cmd_info,
     NULL, 0},
    {"cat",
     "[--as-of INSTANT] [--incremental BEGIN,END] [--read-optimized] [--columns a,b] [--where 'COL "
     "OP VALUE'] [--limit N] [--count] [--ignore-missing-files] PATH",
     "rows of a Hudi table (snapshot, time travel or incremental) as JSON Lines", cmd_cat,
     cat_options, CLI_ARRAY_LEN(cat_options)},
    {"create",
     "--name NAME --key F[,F] [--partition P[,P]] [--precombine F] [--type cow] [--hive-style] "
     "[--props K=V,...] [--url-encode] [--keygen CLASS] [--no-meta-fields] (--schema-from "
     "FILE.parquet | --schema 'AVRO JSON') PATH",
     "create an empty copy-on-write table (table version 6)", cmd_create, create_options,
     CLI_ARRAY_LEN(create_options)},
    {"write",
     "--op insert|upsert|bulk_insert|delete|insert_overwrite|insert_overwrite_table|"
     "delete_partition [--input FILE.parquet|FILE.jsonl|-] [--partitions A,B] [--latest-wins] "
     "[--instant TIME] [--no-clean] [--props K=V,...] PATH",
     "commit Parquet or JSON Lines rows with one write operation", cmd_write, write_options,
     CLI_ARRAY_LEN(write_options)},
    {"rollback", "PATH", "roll back writes left pending by a failed writer", cmd_rollback, NULL, 0},
    {"clean", "[--retain N] PATH", "remove file versions older than the latest N commits need",
     cmd_clean, clean_options, CLI_ARRAY_LEN(clean_options)},
    {"compact", "[--schedule | --instant TIME | --pending] PATH",
     "compact a merge-on-read table: merge each file group's log files into a new base file",
     cmd_compact, compact_options, CLI_ARRAY_LEN(compact_options)},
    {"cluster",
     "[--sort C1,C2] [--partitions A,B] [--target-bytes N] [--small-file-limit N] "
     "[--schedule-only | --execute INSTANT] PATH",
     "cluster small file groups into new ones, optionally sorted (a replacecommit)", cmd_cluster,
     cluster_options, CLI_ARRAY_LEN(cluster_options)},
};

const cli_group cli_table_group = {"table", "Hudi tables", table_commands,
                                   CLI_ARRAY_LEN(table_commands)};
