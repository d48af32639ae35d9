/* cmd_table.c - `hudic table info|cat|create|write|rollback|clean`: inspect a Hudi table and
 * print its rows as JSON Lines (the rendering of docs/formats/rendering.md, meta columns
 * included), create tables, and commit Parquet or JSON Lines input with one write operation. */
#include <errno.h>
#include <stdlib.h>
#include <strings.h>

#include "api/api.h"
#include "cli/cli.h"
#include "format/json/jsonl.h"
#include "read/read.h"
#include "schema/schema.h"
#include "write/write.h"

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
        if (n > 200)
            hudi_buf_printf(o, "  %s = %.200s… (%zu bytes)\n", t->props.items[i].key, val, n);
        else
            hudi_buf_printf(o, "  %s = %s\n", t->props.items[i].key, val);
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
            hudi_buf_printf(o, "    base %s (%lld bytes)\n", s[i].base->name,
                            (long long)s[i].base->size_bytes);
        for (size_t k = 0; k < s[i].logs_count; k++)
            hudi_buf_printf(o, "    log  %s (%lld bytes)\n", s[i].logs[k].name,
                            (long long)s[i].logs[k].size_bytes);
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
    int rc = cli_parse_args(argc, argv, opts, HUDI_ARRAY_LEN(opts), pos, 1, 1, &n_pos, g, self);
    if (rc) return rc < 0 ? CLI_EXIT_OK : rc;

    hudi_read_options ro = HUDI_READ_OPTIONS_INIT;
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
    ro.ignore_missing_files = a.ignore_missing;

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
    if (hudi_reader_warning(r)) fprintf(stderr, "hudic: warning: %s\n", hudi_reader_warning(r));
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

/* ---- create ------------------------------------------------------------------------------ */

typedef struct create_args {
    const char *name, *type, *key, *partition, *precombine, *keygen, *schema_from, *schema, *props;
    bool hive_style, url_encode, no_meta_fields;
} create_args;

/* The data schema from --schema-from FILE.parquet (as Spark derives it) or --schema AVRO. */
static int load_create_schema(hudi_field *out, const create_args *a, hudi_error *err) {
    if (a->schema) return hudi_schema_parse_avro(out, a->schema, strlen(a->schema), err);
    hudi_fs *fs = NULL;
    hudi_pq_file *f = NULL;
    int rc = hudi_fs_local_new(&fs, err);
    if (rc == 0) rc = hudi_pq_open(&f, fs, a->schema_from, NULL, err);
    if (rc == 0) rc = hudi_schema_from_parquet(out, hudi_pq_schema(f), a->name, err);
    hudi_pq_close(f);
    hudi_fs_free(fs);
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
    int rc = cli_parse_args(argc, argv, opts, HUDI_ARRAY_LEN(opts), pos, 1, 1, &n_pos, g, self);
    if (rc) return rc < 0 ? CLI_EXIT_OK : rc;
    if (!a.name) return cli_usage_error(g, self, "--name is required");
    if (!a.key) return cli_usage_error(g, self, "--key is required");
    if (!a.schema_from == !a.schema)
        return cli_usage_error(
            g, self, "give exactly one of --schema-from FILE.parquet and --schema 'AVRO JSON'");
    hudi_create_options co = {0};
    co.type = HUDI_COPY_ON_WRITE;
    if (a.type && strcasecmp(a.type, "cow") != 0 && strcasecmp(a.type, "copy_on_write") != 0) {
        if (strcasecmp(a.type, "mor") != 0 && strcasecmp(a.type, "merge_on_read") != 0)
            return cli_usage_error(g, self, "--type is cow or mor, not '%s'", a.type);
        co.type = HUDI_MERGE_ON_READ;
    }
    hudi_error err = HUDI_ERROR_INIT;
    hudi_field schema = {0};
    hudi_tbl *t = NULL;
    char *path = clean_path(pos[0]);
    if (!path) {
        hudi_error_oom(&err);
        return cli_runtime_error(pos[0], &err);
    }
    if ((rc = load_create_schema(&schema, &a, &err)) < 0) {
        rc = cli_runtime_error(a.schema_from ? a.schema_from : "--schema", &err);
        goto done;
    }
    co.table_name = a.name;
    co.record_key_fields = a.key;
    co.partition_fields = a.partition;
    co.precombine_field = a.precombine;
    co.keygen_class = a.keygen;
    co.hive_style_partitioning = a.hive_style;
    co.url_encode_partitions = a.url_encode;
    co.populate_meta_fields = !a.no_meta_fields;
    co.schema = &schema;
    /* --props 'k1=v1,k2=v2': more table properties (e.g. hoodie.keygen.timebased.*). */
    char *props_copy = NULL;
    const char *extra[2 * 64 + 1] = {0};
    if (a.props) {
        size_t n = 0;
        props_copy = hudi_strdup(a.props);
        for (char *kv = props_copy ? strtok(props_copy, ",") : NULL; kv; kv = strtok(NULL, ",")) {
            char *eq = strchr(kv, '=');
            if (!eq || eq == kv || n + 2 >= HUDI_ARRAY_LEN(extra)) {
                hudi_free(props_copy);
                rc =
                    cli_usage_error(g, self, "--props takes KEY=VALUE[,KEY=VALUE...] (at most 64)");
                goto done;
            }
            *eq = '\0';
            extra[n++] = kv;
            extra[n++] = eq + 1;
        }
        co.extra_props = extra;
    }
    rc = hudi_tbl_create(&t, NULL, path, &co, &err);
    hudi_free(props_copy);
    if (rc < 0) {
        rc = cli_runtime_error(path, &err);
        goto done;
    }
    printf("created %s: table %s, %s, record key %s%s%s\n", path, a.name,
           co.type == HUDI_MERGE_ON_READ ? "MERGE_ON_READ" : "COPY_ON_WRITE", a.key,
           a.partition ? ", partitioned by " : "", a.partition ? a.partition : "");
    rc = cli_finish_output(CLI_EXIT_OK);
done:
    hudi_tbl_free(t);
    hudi_field_dispose(&schema);
    hudi_free(path);
    return rc;
}

/* ---- write ------------------------------------------------------------------------------- */

/* Input bytes for the JSON Lines reader: stdin or a file through the storage layer. */
typedef struct input_src {
    FILE *stdio;     /* stdin, or NULL */
    hudi_file *file; /* a file, or NULL */
    int64_t pos;
} input_src;

static int read_input(void *payload, void *buf, size_t cap, size_t *got, hudi_error *err) {
    input_src *s = payload;
    if (s->stdio) {
        *got = fread(buf, 1, cap, s->stdio);
        if (*got == 0 && ferror(s->stdio))
            return hudi_error_set(err, HUDI_EIO, "stdin: %s", strerror(errno));
        return 0;
    }
    int64_t left = s->file->size_bytes - s->pos;
    size_t n = left < (int64_t)cap ? (size_t)left : cap;
    int rc = n ? hudi_file_read_at(s->file, s->pos, buf, n, err) : 0;
    if (rc < 0) return rc;
    s->pos += (int64_t)n;
    *got = n;
    return 0;
}

/* Appends every row of `b` to *all (created on the first batch with a copy of b's schema, kept
 * in *schema), leaving out the meta columns. */
static int accumulate(hudi_batch **all, hudi_field *schema, const hudi_batch *b, hudi_error *err) {
    int rc;
    if (!*all) {
        int32_t keep = 0;
        for (int32_t i = 0; i < b->n_columns; i++)
            keep += !hudi_is_meta_field(b->schema->children[i].name);
        if (hudi_field_init(schema, b->schema->name ? b->schema->name : "schema", HUDI_TYPE_STRUCT,
                            false) < 0 ||
            (keep > 0 && hudi_field_set_children(schema, keep) < 0))
            return hudi_error_oom(err);
        for (int32_t i = 0, k = 0; i < b->n_columns; i++)
            if (!hudi_is_meta_field(b->schema->children[i].name) &&
                hudi_field_copy(&schema->children[k++], &b->schema->children[i]) < 0)
                return hudi_error_oom(err);
        if ((rc = hudi_batch_new(all, schema, err)) < 0) return rc;
    }
    for (int32_t i = 0, k = 0; i < b->n_columns; i++) {
        if (hudi_is_meta_field(b->schema->children[i].name)) continue;
        if ((rc = hudi_array_append_range((*all)->columns[k++], b->columns[i], 0, b->num_rows,
                                          err)) < 0)
            return rc;
    }
    (*all)->num_rows += b->num_rows;
    return 0;
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcasecmp(s + n - k, suffix) == 0;
}

/* Reads the whole input into one batch: the write layer commits one batch per instant. Input
 * is read a batch at a time (Parquet: row groups; JSON Lines: 8192 lines). */
static int read_input_rows(hudi_batch **all, hudi_field *all_schema, hudi_tbl *t, const char *input,
                           hudi_error *err) {
    hudi_fs *fs = NULL;
    hudi_pq_file *pf = NULL;
    hudi_pq_scan *scan = NULL;
    hudi_jsonl_reader *jr = NULL;
    hudi_field table_schema = {0};
    input_src src = {0};
    int rc;
    bool parquet = strcmp(input, "-") != 0 && ends_with(input, ".parquet");
    if ((rc = hudi_fs_local_new(&fs, err)) < 0) return rc;
    if (parquet) {
        hudi_pq_scan_options so = HUDI_PQ_SCAN_OPTIONS_INIT;
        if ((rc = hudi_pq_open(&pf, fs, input, NULL, err)) < 0) goto done;
        if ((rc = hudi_pq_scan_open(&scan, pf, &so, err)) < 0) goto done;
    } else {
        /* The meta columns are accepted (and dropped) so `hudic table cat` output reads back. */
        hudi_field data = {0};
        rc = hudi_api_data_schema(&data, t, err);
        if (rc == 0) rc = hudi_schema_add_meta_fields(&table_schema, &data, err);
        hudi_field_dispose(&data);
        if (rc < 0) goto done;
        if (strcmp(input, "-") == 0)
            src.stdio = stdin;
        else if ((rc = hudi_fs_open(fs, input, &src.file, err)) < 0)
            goto done;
        if ((rc = hudi_jsonl_reader_new(&jr, &table_schema, read_input, &src,
                                        strcmp(input, "-") == 0 ? "stdin" : input, NULL, err)) < 0)
            goto done;
    }
    for (;;) {
        hudi_batch *b = NULL;
        rc = scan ? hudi_pq_scan_next(scan, &b, err) : hudi_jsonl_reader_next(jr, &b, err);
        if (rc < 0 || !b) break;
        if ((rc = accumulate(all, all_schema, b, err)) < 0) break;
    }
    if (rc == 0 && !*all) {
        /* No rows: an empty batch of the input's schema (delete/overwrite may still mean
         * something). */
        hudi_batch empty = {scan ? hudi_pq_scan_schema(scan) : &table_schema, 0, 0, NULL};
        empty.n_columns = empty.schema->n_children;
        hudi_batch *tmp = NULL;
        if ((rc = hudi_batch_new(&tmp, empty.schema, err)) == 0)
            rc = accumulate(all, all_schema, tmp, err);
        hudi_batch_free(tmp);
    }
done:
    hudi_jsonl_reader_free(jr);
    hudi_file_close(src.file);
    hudi_pq_scan_free(scan);
    hudi_pq_close(pf);
    hudi_field_dispose(&table_schema);
    hudi_fs_free(fs);
    return rc;
}

typedef struct write_args {
    const char *op, *partitions, *input, *instant, *props;
    bool latest_wins, no_clean;
} write_args;

/* --props 'k1=v1,k2=v2' into a NULL-terminated key, value list over `copy` (owned). */
static int split_props(const char *text, char **copy, const char **kv_out, size_t cap) {
    size_t n = 0;
    if (!(*copy = hudi_strdup(text))) return -1;
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
    int rc = cli_parse_args(argc, argv, opts, HUDI_ARRAY_LEN(opts), pos, 1, 1, &n_pos, g, self);
    if (rc) return rc < 0 ? CLI_EXIT_OK : rc;
    hudi_write_options wo = HUDI_WRITE_OPTIONS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    if (!a.op) return cli_usage_error(g, self, "--op is required");
    if (hudi_write_op_parse(&wo.op, a.op, &err) < 0)
        return cli_usage_error(g, self, "%s", err.message);
    if (wo.op == HUDI_OP_DELETE_PARTITION ? !a.partitions : !a.input)
        return cli_usage_error(g, self,
                               wo.op == HUDI_OP_DELETE_PARTITION
                                   ? "delete_partition needs --partitions a,b"
                                   : "--input FILE.parquet|FILE.jsonl|- is required");
    const char *parts[MAX_COLUMNS];
    char *parts_copy = NULL;
    if (a.partitions) {
        if (!(parts_copy = hudi_strdup(a.partitions)) ||
            split_columns(parts_copy, parts, &wo.n_partitions) < 0) {
            hudi_free(parts_copy);
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
        if (split_props(a.props, &props_copy, props, HUDI_ARRAY_LEN(props)) < 0) {
            hudi_free(props_copy);
            hudi_free(parts_copy);
            return cli_usage_error(g, self, "--props takes KEY=VALUE[,KEY=VALUE...] (at most 64)");
        }
        wo.props = props;
    }
    hudi_tbl *t = NULL;
    hudi_batch *all = NULL;
    hudi_field all_schema = {0};
    hudi_write_result res;
    char *path = clean_path(pos[0]);
    if (!path) {
        hudi_error_oom(&err);
        rc = cli_runtime_error(pos[0], &err);
        goto done;
    }
    if ((rc = open_table(&t, path)) != 0) goto done;
    if (a.input && wo.op != HUDI_OP_DELETE_PARTITION &&
        read_input_rows(&all, &all_schema, t, a.input, &err) < 0) {
        rc = cli_runtime_error(strcmp(a.input, "-") == 0 ? "stdin" : a.input, &err);
        goto done;
    }
    if (hudi_tbl_write(t, all, &wo, &res, &err) < 0) {
        rc = cli_runtime_error(path, &err);
        goto done;
    }
    if (res.instant[0])
        printf("committed %s (%s): %lld inserted, %lld updated, %lld deleted, %lld files, %lld "
               "bytes\n",
               res.instant, hudi_write_op_name(wo.op), (long long)res.inserts,
               (long long)res.updates, (long long)res.deletes, (long long)res.files_written,
               (long long)res.bytes_written);
    else
        printf("nothing to commit (%s)\n", hudi_write_op_name(wo.op));
    rc = cli_finish_output(CLI_EXIT_OK);
done:
    hudi_batch_free(all);
    hudi_field_dispose(&all_schema);
    hudi_tbl_free(t);
    hudi_free(props_copy);
    hudi_free(parts_copy);
    hudi_free(path);
    return rc;
}

/* ---- rollback, clean --------------------------------------------------------------------- */

static int cmd_rollback(const cli_group *g, const cli_command *self, int argc, char **argv) {
    const char *pos[1];
    int n_pos = 0;
    int rc = cli_parse_args(argc, argv, NULL, 0, pos, 1, 1, &n_pos, g, self);
    if (rc) return rc < 0 ? CLI_EXIT_OK : rc;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_tbl *t = NULL;
    char *path = clean_path(pos[0]);
    if (!path) {
        hudi_error_oom(&err);
        return cli_runtime_error(pos[0], &err);
    }
    if ((rc = open_table(&t, path)) == 0) {
        int n = hudi_tbl_rollback_pending(t, NULL, &err);
        if (n < 0) {
            rc = cli_runtime_error(path, &err);
        } else {
            printf("rolled back %d pending write%s\n", n, n == 1 ? "" : "s");
            rc = cli_finish_output(CLI_EXIT_OK);
        }
    }
    hudi_tbl_free(t);
    hudi_free(path);
    return rc;
}

static int cmd_clean(const cli_group *g, const cli_command *self, int argc, char **argv) {
    const char *retain_text = NULL;
    const cli_option opts[] = {{"--retain", &retain_text, NULL}};
    const char *pos[1];
    int n_pos = 0;
    int rc = cli_parse_args(argc, argv, opts, HUDI_ARRAY_LEN(opts), pos, 1, 1, &n_pos, g, self);
    if (rc) return rc < 0 ? CLI_EXIT_OK : rc;
    long retain = 10; /* hoodie.cleaner.commits.retained */
    if (retain_text) {
        char *end;
        retain = strtol(retain_text, &end, 10);
        if (*end || retain < 1 || retain > INT32_MAX)
            return cli_usage_error(g, self, "--retain takes a positive number of commits");
    }
    hudi_error err = HUDI_ERROR_INIT;
    hudi_tbl *t = NULL;
    char *path = clean_path(pos[0]);
    if (!path) {
        hudi_error_oom(&err);
        return cli_runtime_error(pos[0], &err);
    }
    if ((rc = open_table(&t, path)) == 0) {
        int n = hudi_tbl_clean(t, (int32_t)retain, NULL, &err);
        if (n < 0) {
            rc = cli_runtime_error(path, &err);
        } else {
            printf("cleaned %d file%s, keeping the latest %ld commits\n", n, n == 1 ? "" : "s",
                   retain);
            rc = cli_finish_output(CLI_EXIT_OK);
        }
    }
    hudi_tbl_free(t);
    hudi_free(path);
    return rc;
}

static const cli_command table_commands[] = {
    {"info", "PATH", "table properties, timeline, file groups and latest file slices", cmd_info},
    {"cat",
     "[--as-of INSTANT] [--incremental BEGIN,END] [--read-optimized] [--columns a,b] [--where 'COL "
     "OP VALUE'] [--limit N] [--count] [--ignore-missing-files] PATH",
     "rows of a Hudi table (snapshot, time travel or incremental) as JSON Lines", cmd_cat},
    {"create",
     "--name NAME --key F[,F] [--partition P[,P]] [--precombine F] [--type cow] [--hive-style] "
     "[--props K=V,...] "
     "[--url-encode] [--keygen CLASS] [--no-meta-fields] (--schema-from FILE.parquet | --schema "
     "'AVRO JSON') PATH",
     "create an empty copy-on-write table (table version 6)", cmd_create},
    {"write",
     "--op insert|upsert|bulk_insert|delete|insert_overwrite|insert_overwrite_table|"
     "delete_partition [--input FILE.parquet|FILE.jsonl|-] [--partitions A,B] [--latest-wins] "
     "[--instant TIME] [--no-clean] [--props K=V,...] PATH",
     "commit Parquet or JSON Lines rows with one write operation", cmd_write},
    {"rollback", "PATH", "roll back writes left pending by a failed writer", cmd_rollback},
    {"clean", "[--retain N] PATH", "remove file versions older than the latest N commits need",
     cmd_clean},
};

const cli_group cli_table_group = {"table", "Hudi tables", table_commands,
                                   HUDI_ARRAY_LEN(table_commands)};
