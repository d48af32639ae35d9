/* read.c - snapshot, time-travel and incremental reads of copy-on-write tables (docs/formats/
 * timeline.md §5, file-names.md §7). The file list comes from the file-system view as of the query
 * instant, the table schema from the schema view (docs/formats/schema-evolution.md §1); each base
 * file is scanned with the Parquet layer through a projection onto the scan's columns (by name,
 * or by column id with an InternalSchema; schema-evolution.md §4). Predicates on columns a file
 * stores as the query has them go to the Parquet scan; the others filter the converted
 * columns. Incremental reads take the file groups written by the
 * commits in (begin, end], read their slices as of `end`, and keep the rows whose
 * _hoodie_commit_time lies in the range. Read-optimized reads take the base file of every
 * latest slice and ignore its log files (merge-on-read tables). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/pool.h"
#include "read/key_probe.h"
#include "read/mor.h"
#include "read/predicate.h"
#include "read/read.h"
#include "schema/project.h"
#include "schema/schema.h"
#include "table/schema_view.h"

#define META_COMMIT_TIME "_hoodie_commit_time"

typedef struct read_file {
    hudi_read_file_info info;   /* what hudi_reader_file reports */
    const hudi_base_file *base; /* NULL for a slice of log files only */
    const hudi_file_slice *mor; /* a slice whose logs merge into the rows; NULL = base only */
} read_file;

/* A predicate the reader applies: the text filter or one of hudi_reader_open_preds's. */
typedef struct read_pred {
    char *column;     /* owned */
    int32_t scan_col; /* its column in the reader's scan schema */
    hudi_cmp_op op;
    hudi_value value; /* its bytes point into `bytes` */
    hudi_buf bytes;
} read_pred;

/* The state of one file being read: the serial reader's (hudi_reader.cur), or a parallel
 * task's. */
typedef struct file_cursor {
    hudi_pq_file *pf;
    hudi_pq_scan *scan;
    hudi_projection *proj; /* the current file's columns as scan_schema */
    bool *post;            /* per predicate: filtered after conversion in the current file */
    bool post_any;
    int32_t *map;      /* scan column -> batch column of the current scan, -1 = absent */
    hudi_array **conv; /* scan columns of the current batch */
    hudi_batch *in;    /* last batch taken from the scan */
    /* merge-on-read slices (read/mor.h) */
    hudi_mor_slice *mor; /* the current file's logs, when merged */
    bool mor_base_done;  /* its base file was read to the end */
    hudi_array **merged; /* hudi_mor_merge's output, per scan column */
    bool merged_base;    /* the last batch is a base batch merged (not log inserts) */
    int64_t corrupt;     /* log blocks skipped as corrupt in the slice */
    char *corrupt_file;  /* the first log file that had one (owned) */
} file_cursor;

typedef struct read_par read_par; /* a parallel read (below) */

struct hudi_reader {
    hudi_table *t;
    bool incremental, read_optimized, ignore_missing_files;
    int64_t batch_rows;
    const char *const *columns; /* borrowed, only while the reader opens */
    int32_t n_columns;
    char *begin, *end; /* owned copies */
    read_pred *preds;  /* ANDed: the caller's predicates, then the text filter */
    int32_t n_preds;
    hudi_fs_view *view;
    char as_of[HUDI_INSTANT_TIME_MAX];
    read_file *files; /* the files to read (n_files), then the pruned ones (to n_all) */
    size_t n_files, n_all, next_file;
    hudi_schema_view *sv;   /* the schemas as of the query instant */
    pthread_mutex_t sv_mu;  /* guards sv's cache of file schemas (parallel tasks share it) */
    hudi_field full;        /* the table schema of the query (every column) */
    const hudi_ischema *is; /* the query's InternalSchema (borrowed from sv); NULL = by name */
    int32_t *full_is;       /* with `is`: full column -> is->root child, -1 = not in it */
    hudi_field schema;      /* output STRUCT */
    hudi_field scan_schema; /* the output columns, then the predicate-only columns */
    int32_t *scan_full;     /* scan column -> full column */
    file_cursor cur;        /* the file being read (serial reads) */
    hudi_batch *out;
    hudi_read_stats stats;
    int64_t files_missing; /* committed base files missing (ignore_missing_files) */
    char *warning;         /* what was skipped for them; NULL = nothing */
    hudi_key_probe keys;   /* record keys wanted by the predicates (key_probe.h) */
    int32_t n_in;          /* hudi_reader_prune_in calls so far */
    bool started;          /* hudi_reader_next was called */
    /* threads (hudi_reader_set_threads; 0 = hoodie.hudic.parallelism, else the default) */
    int32_t threads;
    bool any_order;           /* batches may come in any order (hudi_reader_set_threads) */
    const atomic_int *cancel; /* non-zero: stop with HUDI_ECANCELED (may be NULL) */
    read_par *par;            /* the parallel read, once started */
    int failed;               /* a parallel read's error, reported once; later calls repeat it */
    /* merge-on-read snapshots (read/mor.h) */
    bool any_mor; /* some slice has logs to merge */
    hudi_mor_options mor_opts;
    int32_t commit_time_col;   /* scan column of _hoodie_commit_time (incremental MOR), -1 */
    int64_t corrupt_blocks;    /* skipped in the logs read so far */
    const hudi_field **fields; /* the fields of the scan columns as built (output's first) */
    hudi_pq_dynfilter *dyn;    /* a top-N's boundary (hudi_reader_set_dynamic), or NULL */
    int32_t dyn_col;           /* its scan column */
    bool want_origin;          /* hudi_reader_want_origin was called */
    hudi_read_origin origin;   /* of the last batch of a serial read (hudi_reader_origin) */
    bool *as_stored;           /* origin.as_stored's storage, per output column */
};

static int mor_names(void *ctx, const char *instant, hudi_field *out, hudi_error *err);

/* A cursor's per-column arrays, for the reader's scan schema (built). */
static int cursor_init(const hudi_reader *r, file_cursor *c, hudi_error *err) {
    size_t n = (size_t)r->scan_schema.n_children + 1;
    memset(c, 0, sizeof(*c));
    if (!(c->map = hudi_calloc(n, sizeof(int32_t))) ||
        !(c->conv = hudi_calloc(n, sizeof(hudi_array *))) ||
        !(c->merged = hudi_calloc(n, sizeof(hudi_array *))) ||
        !(c->post = hudi_calloc((size_t)r->n_preds + 1, sizeof(bool))))
        return hudi_error_oom(err);
    return 0;
}

static int cmp_read_file(const void *a, const void *b) {
    const read_file *x = a, *y = b;
    int c = strcmp(x->info.path, y->info.path);
    return c;
}

/* Base files to read, from the view (snapshot) or from the commits in range (incremental). */
/* Whether the file group of `s` lost its latest committed base file (ignore_missing_files). */
static bool group_missing(const hudi_reader *r, const hudi_file_slice *s) {
    size_t n = 0;
    const hudi_missing_file *m = hudi_fs_view_missing_files(r->view, &n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(m[i].file_id, s->file_id) == 0 &&
            strcmp(m[i].partition_path, s->partition_path) == 0)
            return true;
    return false;
}

/* Committed base files missing from storage (hudi_fs_view_missing_files): an error naming the
 * first, or with ignore_missing_files a warning and their file groups left out. */
static int check_missing(hudi_reader *r, hudi_error *err) {
    size_t n = 0;
    const hudi_missing_file *m = hudi_fs_view_missing_files(r->view, &n);
    if (n == 0) return 0;
    const char *why = m[0].cleaned ? "removed by a clean: the table as of this instant is older "
                                     "than the cleaner keeps"
                                   : "deleted, or the table was copied incompletely";
    hudi_buf more = HUDI_BUF_INIT;
    if (n > 1) hudi_buf_printf(&more, " (and %zu more)", n - 1);
    const char *and_more = more.data ? more.data : "";
    int rc = 0;
    if (!r->ignore_missing_files) {
        rc = hudi_error_set(err, HUDI_ENOTFOUND,
                            "%s: commit %s wrote base file %s, which is missing (%s)%s; without "
                            "it file group %s would read as older rows or none",
                            r->t->base_path, m[0].instant, m[0].path, why, and_more, m[0].file_id);
    } else {
        hudi_buf w = HUDI_BUF_INIT;
        hudi_buf_printf(&w,
                        "%zu committed base file%s missing, file group%s skipped: commit %s wrote "
                        "%s (%s)%s",
                        n, n > 1 ? "s" : "", n > 1 ? "s" : "", m[0].instant, m[0].path, why,
                        and_more);
        r->files_missing = (int64_t)n;
        if (hudi_buf_failed(&w) || hudi_buf_failed(&more)) rc = hudi_error_oom(err);
        r->warning = rc == 0 ? hudi_buf_detach(&w) : NULL;
        hudi_buf_dispose(&w);
    }
    hudi_buf_dispose(&more);
    return rc;
}

static int collect_files(hudi_reader *r, hudi_error *err) {
    size_t n = 0;
    const hudi_file_slice *slices = hudi_fs_view_latest_slices(r->view, &n);
    hudi_written_files wf = HUDI_WRITTEN_FILES_INIT;
    int rc = 0;
    if (!(r->files = hudi_calloc(n + 1, sizeof(read_file)))) return hudi_error_oom(err);
    if (r->incremental) {
        if ((rc = hudi_fs_view_files_between(&wf, r->t->timeline, r->begin,
                                             r->as_of[0] ? r->as_of : NULL, err)) < 0)
            return rc;
    }
    for (size_t i = 0; i < n; i++) {
        const hudi_file_slice *s = &slices[i];
        if (r->incremental) {
            bool touched = false;
            for (size_t k = 0; k < wf.count && !touched; k++)
                touched = (!wf.files[k].is_log || !r->read_optimized) &&
                          strcmp(wf.files[k].file_id, s->file_id) == 0 &&
                          strcmp(wf.files[k].partition_path ? wf.files[k].partition_path : "",
                                 s->partition_path) == 0;
            if (!touched) continue;
        }
        bool merge = s->logs_count > 0 && !r->read_optimized;
        if ((!s->base && !merge) || (r->files_missing && group_missing(r, s))) continue;
        if (s->base &&
            (rc = hudi_base_format_require_parquet(s->base->format, s->base->path, err)) < 0)
            break;
        if (merge && !r->t->cfg.populate_meta_fields) {
            rc = hudi_error_set(err, HUDI_EUNSUPPORTED,
                                "%s: file group %s has log files and the table does not populate "
                                "meta fields: merging by the key generator's keys is not "
                                "supported (--read-optimized reads base files only)",
                                r->t->base_path, s->file_id);
            break;
        }
        r->any_mor |= merge;
        /* A log-only slice is named by its first log file. */
        const char *path = s->base ? s->base->path : s->logs[0].path;
        int64_t size = s->base ? s->base->size_bytes : 0;
        for (size_t k = 0; merge && k < s->logs_count; k++) size += s->logs[k].size_bytes;
        r->files[r->n_files++] = (read_file){
            {path, s->partition_path, s->base_instant, size, -1}, s->base, merge ? s : NULL};
    }
    hudi_written_files_dispose(&wf);
    if (rc == 0 && r->n_files > 1) qsort(r->files, r->n_files, sizeof(read_file), cmp_read_file);
    r->n_all = r->n_files;
    r->stats.files_total = (int64_t)r->n_files;
    return rc;
}

static int find_child(const hudi_field *st, const char *name) {
    for (int32_t i = 0; i < st->n_children; i++)
        if (st->children[i].name && strcmp(st->children[i].name, name) == 0) return i;
    return -1;
}

/* Hudi's table schema is an Avro schema, which has no 8- or 16-bit integers: Spark's bulk
 * insert stores byte/short columns as INT(8)/INT(16) while its other write paths store int, so
 * the table type of such a column is int and every file's values widen to it. */
static void widen_small_ints(hudi_field *f) {
    if (f->type == HUDI_TYPE_INT8 || f->type == HUDI_TYPE_INT16) f->type = HUDI_TYPE_INT32;
    for (int32_t i = 0; i < f->n_children; i++) widen_small_ints(&f->children[i]);
}

static void clear_ids(hudi_field *f) {
    f->field_id = -1;
    for (int32_t i = 0; i < f->n_children; i++) clear_ids(&f->children[i]);
}

/* A table that records no schema (no commit "schema", no create schema): that of the newest
 * base file (the latest writer's), or no column at all when there is no file. */
static int newest_file_schema(hudi_field *out, hudi_table *t, const read_file *files, size_t n,
                              hudi_error *err) {
    const read_file *newest = NULL;
    for (size_t i = 0; i < n; i++)
        if (files[i].base && (!newest || strcmp(files[i].info.instant, newest->info.instant) > 0))
            newest = &files[i];
    if (!newest)
        return hudi_field_init(out, "schema", HUDI_TYPE_STRUCT, false) < 0 ? hudi_error_oom(err)
                                                                           : 0;
    hudi_pq_file *pf = NULL;
    int rc = hudi_pq_open(&pf, t->fs, newest->base->path, NULL, err);
    if (rc < 0) return rc;
    rc = hudi_field_copy(out, hudi_pq_schema(pf)) < 0 ? hudi_error_oom(err) : 0;
    hudi_pq_close(pf);
    if (rc == 0) widen_small_ints(out);
    return rc;
}

/* The table schema from the query's InternalSchema: its columns (meta fields in front when it
 * lacks them), named like the table schema's record. */
static int ischema_table_schema(hudi_reader *r, const hudi_field *avro, hudi_error *err) {
    const hudi_field *root = &r->is->root;
    int rc = 0;
    if (!hudi_schema_has_meta_fields(root))
        rc = hudi_schema_add_meta_fields(&r->full, root, err);
    else if (hudi_field_copy(&r->full, root) < 0)
        rc = hudi_error_oom(err);
    if (rc < 0) return rc;
    clear_ids(&r->full);
    const char *name = avro && avro->name ? avro->name : r->full.name ? r->full.name : "schema";
    char *copy = hudi_strdup(name);
    if (!copy) return hudi_error_oom(err);
    hudi_free(r->full.name);
    r->full.name = copy;
    if (!(r->full_is = hudi_calloc((size_t)r->full.n_children + 1, sizeof(int32_t))))
        return hudi_error_oom(err);
    for (int32_t j = 0; j < r->full.n_children; j++) {
        r->full_is[j] = -1;
        for (int32_t k = 0; k < root->n_children && r->full_is[j] < 0; k++)
            if (root->children[k].name &&
                strcmp(root->children[k].name, r->full.children[j].name) == 0)
                r->full_is[j] = k;
    }
    return 0;
}

/* The table schema of the query (docs/formats/schema-evolution.md §1): the InternalSchema's when
 * the table has one, else the schema its commits record (or its create schema), else the newest
 * base file's. */
static int table_schema(hudi_reader *r, hudi_error *err) {
    int rc = hudi_schema_view_open(&r->sv, r->t, r->as_of[0] ? r->as_of : NULL, err);
    if (rc < 0) return rc;
    const hudi_field *avro = hudi_schema_view_table(r->sv);
    if ((r->is = hudi_schema_view_ischema(r->sv))) return ischema_table_schema(r, avro, err);
    if (avro) {
        if (hudi_field_copy(&r->full, avro) < 0) return hudi_error_oom(err);
        widen_small_ints(&r->full);
        return 0;
    }
    return newest_file_schema(&r->full, r->t, r->files, r->n_files, err);
}

/* ---- partition pruning -------------------------------------------------------------------- */

static int cmp_value(const hudi_field *f, const hudi_value *a, const hudi_value *b) {
    switch (f->type) {
    case HUDI_TYPE_FLOAT:
    case HUDI_TYPE_DOUBLE:
    case HUDI_TYPE_FLOAT16: return (a->f64 > b->f64) - (a->f64 < b->f64);
    case HUDI_TYPE_DECIMAL: return (a->dec > b->dec) - (a->dec < b->dec);
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY:
    case HUDI_TYPE_FIXED_BINARY: {
        size_t n = HUDI_MIN(a->bytes.len, b->bytes.len);
        int c = n ? memcmp(a->bytes.data, b->bytes.data, n) : 0;
        if (c) return c < 0 ? -1 : 1;
        return (a->bytes.len > b->bytes.len) - (a->bytes.len < b->bytes.len);
    }
    default: return (a->i64 > b->i64) - (a->i64 < b->i64);
    }
}

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    c = (char)(c | 0x20);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Decodes %XX escapes (Hudi's PartitionPathEncodeUtils.escapePathName) into `out`. */
static void unescape_path(hudi_buf *out, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        int hi, lo;
        if (s[i] == '%' && i + 2 < n && (hi = hex_value(s[i + 1])) >= 0 &&
            (lo = hex_value(s[i + 2])) >= 0) {
            hudi_buf_putc(out, (char)(hi * 16 + lo));
            i += 2;
        } else {
            hudi_buf_putc(out, s[i]);
        }
    }
}

/* Whether rows whose partition value is `text` (as the partition path spells it, unescaped)
 * can satisfy `p`. Anything doubtful (the default partition for nulls, a value that does not
 * parse, NaN) keeps the partition. */
static bool value_may_match(const read_pred *p, const hudi_field *f, const char *text) {
    if (!*text || strcmp(text, "__HIVE_DEFAULT_PARTITION__") == 0 || strcmp(text, "default") == 0)
        return true;
    if (p->op == HUDI_CMP_IS_NULL) return false; /* values in a named partition are not null */
    if (p->op == HUDI_CMP_IS_NOT_NULL) return true;
    if (p->value.is_null) return false;
    hudi_value v = {0};
    hudi_buf bytes = HUDI_BUF_INIT;
    bool quoted = f->type == HUDI_TYPE_STRING;
    int rc = hudi_value_parse(&v, &bytes, text, quoted, false, f, NULL);
    bool keep = true;
    if (rc == 0 && !v.is_null && !(v.f64 != v.f64) && !(p->value.f64 != p->value.f64)) {
        int cmp = cmp_value(f, &v, &p->value);
        switch (p->op) {
        case HUDI_CMP_EQ: keep = cmp == 0; break;
        case HUDI_CMP_NE: keep = cmp != 0; break;
        case HUDI_CMP_LT: keep = cmp < 0; break;
        case HUDI_CMP_LE: keep = cmp <= 0; break;
        case HUDI_CMP_GT:
        case HUDI_CMP_GT_TOTAL: keep = cmp > 0; break; /* NaN values and constants: above */
        case HUDI_CMP_GE:
        case HUDI_CMP_GE_TOTAL: keep = cmp >= 0; break;
        default: break;
        }
    }
    hudi_buf_dispose(&bytes);
    return keep;
}

/* Whether rows of `partition_path` can satisfy one of the `n_alt` predicates `alt` (ORed: one
 * predicate, or the equalities of an IN list) on partition field number `k` of `n_fields`:
 * segment k of the path holds the field's value (the whole path for one field; "name=value"
 * when hive-style, %-escaped when URL-encoded). A path of another shape keeps the partition. */
static bool partition_may_match(const hudi_reader *r, const read_pred *alt, int32_t n_alt,
                                const hudi_field *f, int32_t k, int32_t n_fields,
                                const char *partition_path) {
    const hudi_table_config *c = &r->t->cfg;
    const char *seg = partition_path;
    int32_t segs = 1;
    for (const char *q = partition_path; *q; q++) segs += *q == '/';
    /* One field: the whole path is its value (a value may hold '/', e.g. 2024/01/01). */
    if (!*partition_path || (n_fields > 1 && segs != n_fields)) return true;
    for (int32_t i = 0; i < k; i++) seg = strchr(seg, '/') + 1;
    const char *end = n_fields > 1 ? strchr(seg, '/') : NULL;
    size_t len = end ? (size_t)(end - seg) : strlen(seg);
    if (c->hive_style_partitioning) {
        size_t n = strlen(f->name);
        if (len <= n || strncmp(seg, f->name, n) != 0 || seg[n] != '=') return true;
        seg += n + 1;
        len -= n + 1;
    }
    hudi_buf text = HUDI_BUF_INIT;
    if (c->url_encode_partitions)
        unescape_path(&text, seg, len);
    else
        hudi_buf_append(&text, seg, len);
    bool keep = hudi_buf_failed(&text);
    for (int32_t i = 0; i < n_alt && !keep; i++)
        keep = value_may_match(&alt[i], f, text.data ? text.data : "");
    hudi_buf_dispose(&text);
    return keep;
}

/* The position k of `column` among the table's partition fields (n_fields of them), when
 * partition pruning applies to it: only for key generators that write the field values as
 * they are (simple, complex; not timestamp-based or custom ones, whose paths are formatted). */
static bool partition_field(const hudi_reader *r, const char *column, int32_t *k,
                            int32_t *n_fields) {
    const hudi_table_config *c = &r->t->cfg;
    const char *pf = c->partition_fields;
    const char *kg = c->keygen_class ? c->keygen_class : c->keygen_type ? c->keygen_type : "";
    if (!pf || !*pf || strstr(kg, "Timestamp") || strstr(kg, "TIMESTAMP") || strstr(kg, "Custom") ||
        strstr(kg, "CUSTOM"))
        return false;
    size_t want = strlen(column);
    *k = -1;
    *n_fields = 0;
    for (const char *p = pf; *p && *n_fields < 64;) {
        size_t len = strcspn(p, ",");
        if (len > 0) {
            if (*k < 0 && len == want && strncmp(p, column, len) == 0) *k = *n_fields;
            (*n_fields)++;
        }
        p += len + (p[len] == ',');
    }
    return *k >= 0;
}

/* Moves the files whose partition cannot satisfy any of `alt` (n_alt predicates ORed, on
 * `column`) behind the kept ones (kept order unchanged); they report pruned_by = `tag`. */
static void prune_by(hudi_reader *r, const char *column, const read_pred *alt, int32_t n_alt,
                     int32_t tag) {
    int32_t k, n_fields;
    if (!partition_field(r, column, &k, &n_fields)) return;
    int col = find_child(&r->full, column);
    if (col < 0 || hudi_type_is_nested(r->full.children[col].type)) return;
    size_t kept = 0;
    const char *last = NULL; /* files are sorted by path: a partition's come together */
    bool keep = true;
    for (size_t i = 0; i < r->n_files; i++) {
        read_file rf = r->files[i];
        if (!last || strcmp(last, rf.info.partition) != 0) {
            keep = partition_may_match(r, alt, n_alt, &r->full.children[col], k, n_fields,
                                       rf.info.partition);
            last = rf.info.partition;
        }
        if (keep) {
            memmove(&r->files[kept + 1], &r->files[kept], (i - kept) * sizeof(read_file));
            r->files[kept++] = rf;
        } else if (r->files[i].info.pruned_by < 0) {
            r->files[i].info.pruned_by = tag;
        }
    }
    r->stats.files_pruned += (int64_t)(r->n_files - kept);
    r->n_files = kept;
}

/* Partition pruning: every predicate on a partition field drops the files of partitions whose
 * value cannot satisfy it. */
static void prune_partitions(hudi_reader *r) {
    for (int32_t pi = 0; pi < r->n_preds; pi++)
        prune_by(r, r->preds[pi].column, &r->preds[pi], 1, pi);
}

int hudi_reader_prune_in(hudi_reader *r, const char *column, const hudi_value *values, int32_t n,
                         hudi_error *err) {
    if (r->started)
        return hudi_error_set(err, HUDI_EINVAL, "%s: IN list on %s after reading began",
                              r->t->base_path, column);
    read_pred *alt = hudi_calloc((size_t)(n > 0 ? n : 0) + 1, sizeof(read_pred));
    if (!alt) return hudi_error_oom(err);
    int32_t n_alt = 0;
    for (int32_t i = 0; i < n; i++) /* a null item matches no row */
        if (!values[i].is_null) {
            alt[n_alt].op = HUDI_CMP_EQ; /* value_may_match reads only op and value */
            alt[n_alt++].value = values[i];
        }
    prune_by(r, column, alt, n_alt, r->n_preds + r->n_in++);
    hudi_free(alt);
    return 0;
}

int hudi_reader_only_file_group(hudi_reader *r, const char *partition, const char *file_id,
                                hudi_error *err) {
    if (r->started)
        return hudi_error_set(err, HUDI_EINVAL, "%s: reader already started", r->t->base_path);
    size_t kept = 0;
    for (size_t i = 0; i < r->n_files; i++) {
        const hudi_file_slice *s = r->files[i].mor;
        if (s && strcmp(s->file_id, file_id) == 0 && strcmp(s->partition_path, partition) == 0)
            r->files[kept++] = r->files[i];
    }
    if (kept == 0)
        return hudi_error_set(err, HUDI_ENOTFOUND, "%s: no file slice with logs for file group %s",
                              r->t->base_path, file_id);
    r->n_files = r->n_all = kept;
    r->stats.files_total = (int64_t)kept;
    return 0;
}

int hudi_reader_only_slice(hudi_reader *r, const hudi_file_slice *s, hudi_error *err) {
    int rc = hudi_reader_only_file_group(r, s->partition_path, s->file_id, err);
    if (rc < 0) return rc;
    if (s->logs_count == 0)
        return hudi_error_set(err, HUDI_EINVAL, "%s: file group %s: a slice without log files",
                              r->t->base_path, s->file_id);
    read_file *rf = &r->files[0];
    rf->base = s->base;
    rf->mor = s;
    rf->info.path = s->base ? s->base->path : s->logs[0].path;
    rf->info.instant = s->base_instant;
    return 0;
}

int hudi_reader_only_file_groups(hudi_reader *r, const char *partition, const char *const *file_ids,
                                 size_t n, hudi_error *err) {
    if (r->started)
        return hudi_error_set(err, HUDI_EINVAL, "%s: reader already started", r->t->base_path);
    size_t kept = 0;
    for (size_t i = 0; i < r->n_files; i++) {
        const read_file *f = &r->files[i];
        bool keep = false;
        for (size_t k = 0; k < n && !keep; k++) {
            if (f->mor) {
                keep = strcmp(f->mor->file_id, file_ids[k]) == 0 &&
                       strcmp(f->mor->partition_path, partition) == 0;
            } else if (f->base) { /* <fileId>_<token>_<instant>.<ext> */
                size_t l = strlen(file_ids[k]);
                keep = strncmp(f->base->name, file_ids[k], l) == 0 && f->base->name[l] == '_' &&
                       strcmp(f->info.partition, partition) == 0;
            }
        }
        if (keep) r->files[kept++] = r->files[i];
    }
    r->n_files = r->n_all = kept;
    r->stats.files_total = (int64_t)kept;
    return 0;
}

int64_t hudi_reader_files_pruned(const hudi_reader *r) { return r->stats.files_pruned; }
const hudi_read_stats *hudi_reader_stats(const hudi_reader *r) { return &r->stats; }
size_t hudi_reader_file_count(const hudi_reader *r) { return r->n_all; }
const hudi_read_file_info *hudi_reader_file(const hudi_reader *r, size_t i) {
    return i < r->n_all ? &r->files[i].info : NULL;
}
const char *hudi_reader_warning(const hudi_reader *r) { return r->warning; }
int64_t hudi_reader_files_missing(const hudi_reader *r) { return r->files_missing; }

/* The scan column of full column `c`, added to the scan columns when not among them. */
static int32_t scan_col_of(hudi_reader *r, int32_t *n_scan, int32_t c) {
    int32_t k = 0;
    while (k < *n_scan && r->scan_full[k] != c) k++;
    if (k == *n_scan) r->scan_full[(*n_scan)++] = c;
    return k;
}

/* Merge-on-read slices: the columns merging needs (record key, ordering field,
 * _hoodie_is_deleted; _hoodie_commit_time when incremental) join the scan columns. */
static int mor_columns(hudi_reader *r, int32_t *n_scan, hudi_error *err) {
    const hudi_field *full = &r->full;
    const hudi_table_config *c = &r->t->cfg;
    hudi_mor_options *o = &r->mor_opts;
    int rc = hudi_mor_merge_mode_of(&o->mode, c, r->t->base_path, err);
    if (rc < 0) return rc;
    int32_t key = find_child(full, "_hoodie_record_key");
    if (key < 0)
        return hudi_error_set(err, HUDI_ECORRUPT, "%s: the table schema has no _hoodie_record_key",
                              r->t->base_path);
    o->key_col = scan_col_of(r, n_scan, key);
    o->ordering_col = o->is_deleted_col = -1;
    const char *of = c->precombine_field;
    if (of && strchr(of, ','))
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "%s: ordering fields %s: merging by several ordering fields is not "
                              "supported",
                              r->t->base_path, of);
    int32_t oc = of && *of ? find_child(full, of) : -1;
    if (oc >= 0) o->ordering_col = scan_col_of(r, n_scan, oc);
    int32_t dc = find_child(full, "_hoodie_is_deleted");
    if (dc >= 0 && full->children[dc].type == HUDI_TYPE_BOOL)
        o->is_deleted_col = scan_col_of(r, n_scan, dc);
    if (r->incremental) {
        int32_t tc = find_child(full, META_COMMIT_TIME);
        if (tc < 0)
            return hudi_error_set(err, HUDI_ECORRUPT, "%s: the table schema has no %s",
                                  r->t->base_path, META_COMMIT_TIME);
        r->commit_time_col = scan_col_of(r, n_scan, tc);
    }
    return 0;
}

/* The output schema (the selected columns, by query name) and the scan schema: the output
 * columns, then the predicate columns not among them; every predicate gets its scan column. */
static int project_schema(hudi_reader *r, hudi_error *err) {
    const hudi_field *full = &r->full;
    int32_t n = r->columns ? r->n_columns : full->n_children;
    if (!(r->scan_full = hudi_calloc((size_t)(n + r->n_preds) + 4, sizeof(int32_t))))
        return hudi_error_oom(err);
    for (int32_t i = 0; i < n; i++) {
        int32_t src = i;
        if (r->columns && (src = find_child(full, r->columns[i])) < 0)
            return hudi_error_set(err, HUDI_ENOTFOUND, "%s: no column named %s", r->t->base_path,
                                  r->columns[i]);
        r->scan_full[i] = src;
    }
    int32_t n_scan = n;
    for (int32_t p = 0; p < r->n_preds; p++) {
        int32_t c = find_child(full, r->preds[p].column), k = 0;
        while (k < n_scan && r->scan_full[k] != c) k++;
        if (k == n_scan) r->scan_full[n_scan++] = c;
        r->preds[p].scan_col = k;
    }
    int rc = r->any_mor ? mor_columns(r, &n_scan, err) : 0;
    if (rc < 0) return rc;
    const char *name = full->name ? full->name : "schema";
    if (hudi_field_init(&r->schema, name, HUDI_TYPE_STRUCT, false) < 0 ||
        hudi_field_set_children(&r->schema, n) < 0 ||
        hudi_field_init(&r->scan_schema, name, HUDI_TYPE_STRUCT, false) < 0 ||
        hudi_field_set_children(&r->scan_schema, n_scan) < 0)
        return hudi_error_oom(err);
    for (int32_t i = 0; i < n_scan; i++)
        if ((i < n &&
             hudi_field_copy(&r->schema.children[i], &full->children[r->scan_full[i]]) < 0) ||
            hudi_field_copy(&r->scan_schema.children[i], &full->children[r->scan_full[i]]) < 0)
            return hudi_error_oom(err);
    return cursor_init(r, &r->cur, err);
}

int hudi_read_table_schema(hudi_field *out, hudi_table *t, const hudi_scan_options *opts,
                           hudi_error *err) {
    hudi_reader *r = NULL;
    hudi_scan_options o = HUDI_SCAN_OPTIONS_INIT;
    bool incremental = opts->begin_instant || opts->end_instant;
    o.as_of_instant = incremental ? opts->end_instant : opts->as_of_instant;
    o.read_optimized = opts->read_optimized;
    /* Only the schema is needed here; the query's own reader reports missing files for its
     * range (an incremental query's range is narrower than this as-of read). */
    o.ignore_missing_files = true;
    int rc = hudi_reader_open(&r, t, &o, err);
    if (rc == 0) rc = hudi_field_copy(out, &r->schema) < 0 ? hudi_error_oom(err) : 0;
    hudi_reader_free(r);
    return rc;
}

/* The text filter, parsed against the table schema `full`, as the last predicate. */
static int parse_filter(hudi_reader *r, const char *filter, const hudi_field *full,
                        hudi_error *err) {
    hudi_predicate pred = HUDI_PREDICATE_INIT;
    int rc = hudi_predicate_parse(&pred, filter, full, err);
    if (rc < 0) {
        hudi_predicate_dispose(&pred);
        return hudi_error_wrap(err, "%s: filter", r->t->base_path), rc;
    }
    read_pred *p = &r->preds[r->n_preds];
    p->op = pred.op;
    p->value = pred.value;
    p->bytes = pred.bytes; /* moved: pred.value.bytes points into it */
    if (!(p->column = hudi_strdup(full->children[pred.column].name))) return hudi_error_oom(err);
    r->n_preds++;
    return 0;
}

/* Copies the caller's predicates (their constants' bytes too). */
static int copy_preds(hudi_reader *r, const hudi_read_predicate *preds, int32_t n,
                      hudi_error *err) {
    for (int32_t i = 0; i < n; i++) {
        read_pred *p = &r->preds[r->n_preds++];
        p->bytes = (hudi_buf)HUDI_BUF_INIT;
        p->op = preds[i].op;
        p->value = preds[i].value;
        if (!(p->column = hudi_strdup(preds[i].column ? preds[i].column : "")))
            return hudi_error_oom(err);
        if (preds[i].value.bytes.len > 0) {
            hudi_buf_append(&p->bytes, preds[i].value.bytes.data, preds[i].value.bytes.len);
            if (hudi_buf_failed(&p->bytes)) return hudi_error_oom(err);
            p->value.bytes = HUDI_SLICE(p->bytes.data, p->bytes.len);
        }
    }
    return 0;
}

/* The caller's predicates must name columns of the table schema. */
static int check_preds(const hudi_reader *r, const hudi_field *full, hudi_error *err) {
    for (int32_t i = 0; i < r->n_preds; i++) {
        int c = find_child(full, r->preds[i].column);
        if (c < 0)
            return hudi_error_set(err, HUDI_ENOTFOUND, "%s: no column named %s", r->t->base_path,
                                  r->preds[i].column);
        if (hudi_type_is_nested(full->children[c].type))
            return hudi_error_set(err, HUDI_EINVAL, "%s: column %s is not a primitive column (%s)",
                                  r->t->base_path, r->preds[i].column,
                                  hudi_type_name(full->children[c].type));
    }
    return 0;
}

int hudi_reader_open(hudi_reader **out, hudi_table *t, const hudi_scan_options *opts,
                     hudi_error *err) {
    return hudi_reader_open_preds(out, t, opts, NULL, 0, err);
}

int hudi_reader_open_preds(hudi_reader **out, hudi_table *t, const hudi_scan_options *opts,
                           const hudi_read_predicate *preds, int32_t n_preds, hudi_error *err) {
    hudi_reader *r = hudi_calloc(1, sizeof(*r));
    int rc;
    *out = NULL;
    if (!r) return hudi_error_oom(err);
    pthread_mutex_init(&r->sv_mu, NULL); /* destroyed by hudi_reader_free */
    r->t = t;
    r->commit_time_col = -1;
    r->origin.row_group = -1;
    r->incremental = opts->begin_instant || opts->end_instant;
    r->ignore_missing_files = opts->ignore_missing_files;
    r->read_optimized = opts->read_optimized;
    r->batch_rows = opts->batch_rows;
    r->columns = opts->columns;
    r->n_columns = opts->columns ? opts->n_columns : 0;
    if ((opts->begin_instant && !(r->begin = hudi_strdup(opts->begin_instant))) ||
        (opts->end_instant && !(r->end = hudi_strdup(opts->end_instant))) ||
        !(r->preds = hudi_calloc((size_t)(n_preds > 0 ? n_preds : 0) + 1, sizeof(read_pred)))) {
        rc = hudi_error_oom(err);
        goto fail;
    }
    if ((rc = copy_preds(r, preds, n_preds, err)) < 0) goto fail;
    const char *q = r->incremental ? opts->end_instant : opts->as_of_instant;
    /* Refuse a non-Parquet table up front: otherwise the error depends on which slice comes
     * first (a log-file slice of a MOR table would report its logs instead of the format). */
    if ((rc = hudi_table_config_check_readable(&t->cfg, err)) < 0) goto fail;
    if (r->incremental && !t->cfg.populate_meta_fields) {
        rc = hudi_error_set(err, HUDI_EUNSUPPORTED,
                            "%s: incremental reads need meta fields "
                            "(hoodie.populate.meta.fields=false)",
                            t->base_path);
        goto fail;
    }
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    vo.as_of_instant = q;
    vo.check_missing = true;
    vo.missing_after = r->incremental ? opts->begin_instant : NULL;
    if ((rc = hudi_fs_view_build(&r->view, t->timeline, &vo, err)) < 0) goto fail;
    snprintf(r->as_of, sizeof(r->as_of), "%s", hudi_fs_view_as_of(r->view));
    if ((rc = check_missing(r, err)) < 0) goto fail;
    if ((rc = collect_files(r, err)) < 0) goto fail;
    if ((rc = table_schema(r, err)) < 0) goto fail;
    if ((rc = check_preds(r, &r->full, err)) < 0) goto fail;
    if (opts->filter && (rc = parse_filter(r, opts->filter, &r->full, err)) < 0) goto fail;
    prune_partitions(r);
    if ((rc = hudi_key_probe_init(&r->keys, &t->cfg, &r->full, err)) < 0) goto fail;
    for (int32_t i = 0; i < r->n_preds && rc == 0; i++)
        if (r->preds[i].op == HUDI_CMP_EQ)
            rc = hudi_key_probe_add(&r->keys, r->preds[i].column, &r->preds[i].value, 1, err);
    if (rc < 0) goto fail;
    if ((rc = project_schema(r, err)) < 0) goto fail;
    if (r->any_mor) {
        hudi_mor_options *mo = &r->mor_opts;
        mo->fs = t->fs;
        mo->timeline = t->timeline;
        mo->as_of = r->as_of;
        if (r->incremental) { /* the log blocks of the range only (mor.h) */
            mo->range_begin = r->begin;
            mo->range_end = r->as_of;
        }
        mo->schema = &r->scan_schema;
        mo->batch_rows = r->batch_rows;
        /* Hudi's merge memory bound and spill folder, from the table's properties */
        if ((rc = hudi_props_get_int(&t->props, "hoodie.memory.merge.max.size", 0, &mo->max_memory,
                                     err)) < 0)
            goto fail;
        mo->spill_dir = hudi_props_get(&t->props, "hoodie.memory.spillable.map.path");
        mo->names = r->is ? mor_names : NULL;
        mo->names_ctx = r;
        if (!(r->fields =
                  hudi_calloc((size_t)r->scan_schema.n_children + 1, sizeof(hudi_field *)))) {
            rc = hudi_error_oom(err);
            goto fail;
        }
        for (int32_t i = 0; i < r->scan_schema.n_children; i++)
            r->fields[i] =
                i < r->schema.n_children ? &r->schema.children[i] : &r->scan_schema.children[i];
    }
    r->columns = NULL; /* borrowed only while opening */
    if ((rc = hudi_batch_new(&r->out, &r->schema, err)) < 0) goto fail;
    *out = r;
    return 0;
fail:
    hudi_reader_free(r);
    return rc;
}

const hudi_field *hudi_reader_schema(const hudi_reader *r) { return &r->schema; }
const char *hudi_reader_as_of(const hudi_reader *r) { return r->as_of; }

static void free_conv(const hudi_reader *r, file_cursor *c) {
    for (int32_t i = 0; c->conv && i < r->scan_schema.n_children; i++) {
        hudi_array_free(c->conv[i]);
        c->conv[i] = NULL;
    }
}

/* Ends the cursor's file: its counts go to `st`. */
static void close_file(const hudi_reader *r, file_cursor *c, hudi_read_stats *st) {
    if (c->scan) {
        const hudi_pq_scan_stats *ps = hudi_pq_scan_get_stats(c->scan);
        st->row_groups_total += ps->row_groups_total;
        st->row_groups_skipped += ps->row_groups_skipped;
        st->rows_read += ps->rows_read;
        if (!c->mor) st->rows_returned += ps->rows_returned; /* merged rows count there */
    }
    if (c->mor) {
        const hudi_mor_stats *ms = hudi_mor_slice_stats(c->mor);
        st->log_spills += ms->spills;
        st->log_spilled_records += ms->spilled_records;
        st->log_files_reread += ms->reread_files;
        st->merge_rows_dropped += ms->rows_dropped;
        st->merge_rows_inserted += ms->rows_inserted;
    }
    hudi_mor_slice_free(c->mor);
    c->mor = NULL;
    free_conv(r, c);
    hudi_batch_free(c->in);
    c->in = NULL;
    hudi_pq_scan_free(c->scan);
    c->scan = NULL;
    hudi_projection_free(c->proj);
    c->proj = NULL;
    hudi_pq_close(c->pf);
    c->pf = NULL;
}

static void cursor_dispose(const hudi_reader *r, file_cursor *c, hudi_read_stats *st) {
    close_file(r, c, st);
    if (c->merged)
        for (int32_t i = 0; i < r->scan_schema.n_children; i++) hudi_array_free(c->merged[i]);
    hudi_free(c->map);
    hudi_free(c->conv);
    hudi_free(c->merged);
    hudi_free(c->post);
    hudi_free(c->corrupt_file);
    memset(c, 0, sizeof(*c));
}

/* The file-side names of the scan columns for a file written by `instant` (schema on read):
 * hudi_ischema_file_names of the query's and the file's InternalSchemas, picked per scan column;
 * a column the InternalSchema lacks (meta fields it does not list) keeps its own name. */
static int file_names(hudi_field *out, hudi_reader *r, const char *instant, hudi_error *err) {
    const hudi_ischema *fis = NULL;
    hudi_field all = {0};
    /* parallel tasks share the view, which caches file schemas as they are asked for */
    pthread_mutex_lock(&r->sv_mu);
    int rc = hudi_schema_view_file(&fis, r->sv, instant, err);
    if (rc == 0) rc = hudi_ischema_file_names(&all, r->is, fis, err);
    pthread_mutex_unlock(&r->sv_mu);
    if (rc < 0) return rc;
    int32_t n = r->scan_schema.n_children;
    if (hudi_field_init(out, r->scan_schema.name, HUDI_TYPE_STRUCT, false) < 0 ||
        hudi_field_set_children(out, n) < 0)
        rc = hudi_error_oom(err);
    for (int32_t i = 0; rc == 0 && i < n; i++) {
        int32_t k = r->full_is[r->scan_full[i]];
        const hudi_field *src =
            k >= 0 && k < all.n_children ? &all.children[k] : &r->scan_schema.children[i];
        if (hudi_field_copy(&out->children[i], src) < 0) rc = hudi_error_oom(err);
    }
    hudi_field_dispose(&all);
    return rc;
}

static int mor_names(void *ctx, const char *instant, hudi_field *out, hudi_error *err) {
    return file_names(out, ctx, instant, err);
}

/* How file `rf` (footer schema `fs`) is read as the scan schema: by name, or by column id when
 * the table has an InternalSchema. */
static int file_projection(hudi_projection **out, hudi_reader *r, const hudi_field *fs,
                           const read_file *rf, hudi_error *err) {
    hudi_field names = {0};
    int rc = 0;
    if (r->is) rc = file_names(&names, r, rf->info.instant, err);
    if (rc == 0)
        rc = hudi_projection_new(out, fs, &r->scan_schema, r->is ? &names : NULL, false,
                                 rf->info.path, err);
    hudi_field_dispose(&names);
    return rc;
}

/* The Parquet predicates for a file (schema `fs`, projection `p`): each reader predicate whose
 * column the file stores as the query has it goes to the scan (statistics, page index, row
 * filter) on the file's column; one on a converted column is not shown the file's statistics
 * and is applied after conversion (post[i]); the incremental range on _hoodie_commit_time is
 * added. Sets *skip when no row of the file can match (a predicate other than IS NULL on a
 * column the file lacks: all null). `preds` has room for n_preds + 2 entries. */
static int file_preds(const hudi_reader *r, const hudi_projection *p, const hudi_field *fs,
                      const char *path, hudi_pq_predicate *preds, int32_t *n_out, bool *post,
                      bool *skip, hudi_error *err) {
    int32_t n = 0;
    *skip = false;
    for (int32_t i = 0; i < r->n_preds; i++) {
        int32_t sc = r->preds[i].scan_col, c = hudi_projection_source(p, sc);
        post[i] = false;
        if (c < 0)
            *skip |= r->preds[i].op != HUDI_CMP_IS_NULL; /* absent = all null */
        else if (hudi_projection_exact(p, sc))
            preds[n++] = (hudi_pq_predicate){c, r->preds[i].op, r->preds[i].value};
        else
            post[i] = true;
    }
    if (r->incremental) {
        int32_t c = find_child(fs, META_COMMIT_TIME);
        if (c < 0)
            return hudi_error_set(err, HUDI_ECORRUPT, "%s: no %s column", path, META_COMMIT_TIME);
        if (r->begin) {
            hudi_value v = {.bytes = hudi_slice_cstr(r->begin)};
            preds[n++] = (hudi_pq_predicate){c, HUDI_CMP_GT, v};
        }
        if (r->as_of[0]) {
            hudi_value v = {.bytes = hudi_slice_cstr(r->as_of)};
            preds[n++] = (hudi_pq_predicate){c, HUDI_CMP_LE, v};
        }
    }
    *n_out = n;
    return 0;
}

/* Adds file column `c` to the columns to read (once); returns its batch index or -1. */
static int32_t add_col(int32_t *cols, int32_t *n_cols, int32_t max, int32_t c) {
    for (int32_t k = 0; k < *n_cols; k++)
        if (cols[k] == c) return k;
    if (*n_cols >= max) return -1;
    cols[*n_cols] = c;
    return (*n_cols)++;
}

/* Notes `n` corrupt log blocks skipped in `file` in the reader's warning. */
static int warn_corrupt(hudi_reader *r, int64_t n, const char *file, hudi_error *err) {
    if (n == 0) return 0;
    hudi_buf w = HUDI_BUF_INIT;
    if (r->warning) hudi_buf_printf(&w, "%s; ", r->warning);
    hudi_buf_printf(&w, "%lld corrupt log block%s skipped in %s", (long long)n, n > 1 ? "s" : "",
                    file);
    if (hudi_buf_failed(&w)) {
        hudi_buf_dispose(&w);
        return hudi_error_oom(err);
    }
    hudi_free(r->warning);
    r->warning = hudi_buf_detach(&w);
    r->corrupt_blocks += n;
    return 0;
}

/* Opens a merge-on-read slice: its logs (read/mor.h), then its base file, if any, unfiltered:
 * a base row's log version may decide whether it matches, so every predicate (and the
 * incremental range) applies to the merged rows, and nothing is skipped by statistics or keys.
 * The slice's corrupt log blocks are noted in the cursor (c->corrupt). */
static int open_mor_file(hudi_reader *r, file_cursor *c, const read_file *rf, hudi_read_stats *st,
                         hudi_error *err) {
    int rc = hudi_mor_slice_open(&c->mor, &r->mor_opts, rf->mor, err);
    if (rc < 0) return rc;
    c->corrupt = hudi_mor_slice_stats(c->mor)->corrupt_blocks;
    if (c->corrupt > 0 && !(c->corrupt_file = hudi_strdup(hudi_mor_corrupt_file(c->mor))))
        return hudi_error_oom(err);
    st->files_opened++;
    c->mor_base_done = !rf->base;
    c->post_any = r->n_preds > 0 || r->commit_time_col >= 0;
    for (int32_t p = 0; p < r->n_preds; p++) c->post[p] = true;
    if (!rf->base) return 1;
    if ((rc = hudi_pq_open(&c->pf, r->t->fs, rf->base->path, NULL, err)) < 0) return rc;
    if ((rc = file_projection(&c->proj, r, hudi_pq_schema(c->pf), rf, err)) < 0) return rc;
    int32_t n = r->scan_schema.n_children, n_cols = 0;
    int32_t *cols = hudi_calloc((size_t)n + 1, sizeof(int32_t));
    if (!cols) return hudi_error_oom(err);
    for (int32_t i = 0; i < n; i++) {
        int32_t k = hudi_projection_source(c->proj, i);
        c->map[i] = k < 0 ? -1 : add_col(cols, &n_cols, n, k);
    }
    hudi_pq_scan_options so = HUDI_PQ_SCAN_OPTIONS_INIT;
    so.columns = cols;
    so.n_columns = n_cols;
    so.batch_rows = r->batch_rows;
    rc = hudi_pq_scan_open(&c->scan, c->pf, &so, err);
    hudi_free(cols);
    return rc < 0 ? rc : 1;
}

/* Opens file `rf` in cursor `c` with the projection (+ filter columns) and predicates; the
 * counts go to `st`. Returns 1 when the file was opened, 0 when it cannot match (closed). */
static int open_file(hudi_reader *r, file_cursor *c, const read_file *rf, hudi_read_stats *st,
                     hudi_error *err) {
    if (rf->mor) return open_mor_file(r, c, rf, st, err);
    int rc = hudi_pq_open(&c->pf, r->t->fs, rf->info.path, NULL, err);
    if (rc < 0) return rc;
    st->files_opened++;
    if (hudi_key_probe_file(&r->keys, c->pf)) {
        st->files_skipped_keys++;
        close_file(r, c, st);
        return 0;
    }
    const hudi_field *fs = hudi_pq_schema(c->pf);
    if ((rc = file_projection(&c->proj, r, fs, rf, err)) < 0) return rc;
    int32_t cols[1024], n_cols = 0, max = (int32_t)HUDI_ARRAY_LEN(cols);
    hudi_pq_predicate *preds = hudi_calloc((size_t)r->n_preds + 2, sizeof(*preds));
    int32_t n_preds = 0;
    bool skip = false;
    if (!preds) return hudi_error_oom(err);
    for (int32_t i = 0; i < r->scan_schema.n_children; i++) {
        int32_t k = hudi_projection_source(c->proj, i);
        c->map[i] = k < 0 ? -1 : add_col(cols, &n_cols, max, k);
        if (k >= 0 && c->map[i] < 0) {
            hudi_free(preds);
            return hudi_error_set(err, HUDI_EUNSUPPORTED, "%s: more than 1024 columns",
                                  rf->info.path);
        }
    }
    if ((rc = file_preds(r, c->proj, fs, rf->info.path, preds, &n_preds, c->post, &skip, err)) <
        0) {
        hudi_free(preds);
        return rc;
    }
    c->post_any = false;
    for (int32_t p = 0; p < r->n_preds; p++) c->post_any |= c->post[p];
    /* Filtered columns must be read; extra ones are dropped when conforming. */
    for (int32_t p = 0; p < n_preds; p++) add_col(cols, &n_cols, max, preds[p].column);
    if (skip) {
        hudi_free(preds);
        st->files_skipped++;
        close_file(r, c, st);
        return 0;
    }
    hudi_pq_scan_options so = HUDI_PQ_SCAN_OPTIONS_INIT;
    so.columns = cols;
    so.n_columns = n_cols;
    so.batch_rows = r->batch_rows;
    so.predicates = preds;
    so.n_predicates = n_preds;
    so.filter_rows = n_preds > 0;
    /* The top-N boundary, on a column the file stores as the query has it. */
    if (r->dyn && c->map[r->dyn_col] >= 0 && hudi_projection_exact(c->proj, r->dyn_col)) {
        so.dynamic = r->dyn;
        so.dynamic_column = cols[c->map[r->dyn_col]];
    }
    rc = hudi_pq_scan_open(&c->scan, c->pf, &so, err); /* copies the predicates */
    hudi_free(preds);
    if (rc < 0) return rc;
    const hudi_pq_scan_stats *ps = hudi_pq_scan_get_stats(c->scan);
    if (ps->row_groups_total > 0 && ps->row_groups_skipped == ps->row_groups_total)
        st->files_skipped++;
    return 1;
}

int hudi_reader_set_dynamic(hudi_reader *r, const char *column, hudi_pq_dynfilter *f,
                            hudi_error *err) {
    int c = find_child(&r->schema, column);
    if (c < 0)
        return hudi_error_set(err, HUDI_ENOTFOUND, "%s: no column named %s among those read",
                              r->t->base_path, column);
    if (r->schema.children[c].type != f->type) return 0; /* read converted: not used */
    r->dyn = f;
    r->dyn_col = c;
    return 0;
}

int hudi_reader_want_keys(hudi_reader *r, const char *column, const hudi_value *values, int32_t n,
                          hudi_error *err) {
    return hudi_key_probe_add(&r->keys, column, values, n, err);
}

int hudi_reader_probe_file(hudi_reader *r, size_t i, int64_t *row_groups,
                           int64_t *row_groups_skipped, bool *by_keys, hudi_error *err) {
    *row_groups = *row_groups_skipped = 0;
    if (by_keys) *by_keys = false;
    if (i >= r->n_all) return hudi_error_set(err, HUDI_EINVAL, "file %zu out of range", i);
    const read_file *rf = &r->files[i];
    hudi_pq_file *pf = NULL;
    hudi_pq_scan *scan = NULL;
    hudi_projection *proj = NULL;
    if (rf->mor && !rf->base) return 0; /* logs only: no row group */
    int rc = hudi_pq_open(&pf, r->t->fs, rf->base->path, NULL, err);
    if (rc < 0) return rc;
    if (rf->mor) { /* merged slices are read whole (open_mor_file) */
        *row_groups = hudi_pq_num_row_groups(pf);
        hudi_pq_close(pf);
        return 0;
    }
    hudi_pq_predicate *preds = hudi_calloc((size_t)r->n_preds + 2, sizeof(*preds));
    bool *post = hudi_calloc((size_t)r->n_preds + 1, sizeof(bool));
    int32_t n_preds = 0;
    bool skip = false;
    if (!preds || !post) {
        rc = hudi_error_oom(err);
        goto done;
    }
    if ((rc = file_projection(&proj, r, hudi_pq_schema(pf), rf, err)) < 0) goto done;
    if ((rc = file_preds(r, proj, hudi_pq_schema(pf), rf->info.path, preds, &n_preds, post, &skip,
                         err)) < 0)
        goto done;
    *row_groups = hudi_pq_num_row_groups(pf);
    if (hudi_key_probe_file(&r->keys, pf)) {
        if (by_keys) *by_keys = true;
        skip = true;
    }
    if (skip) {
        *row_groups_skipped = *row_groups;
        goto done;
    }
    hudi_pq_scan_options so = HUDI_PQ_SCAN_OPTIONS_INIT;
    int32_t none[1] = {0};
    so.columns = none; /* nothing is read: the row groups are chosen when the scan opens */
    so.n_columns = 0;
    so.predicates = preds;
    so.n_predicates = n_preds;
    if ((rc = hudi_pq_scan_open(&scan, pf, &so, err)) < 0) goto done;
    *row_groups_skipped = hudi_pq_scan_get_stats(scan)->row_groups_skipped;
done:
    hudi_pq_scan_free(scan);
    hudi_projection_free(proj);
    hudi_free(preds);
    hudi_free(post);
    hudi_pq_close(pf);
    return rc;
}

/* Keeps the rows of the cursor's converted scan columns that satisfy the predicates the scan
 * could not apply (post); *rows is updated. */
static int post_filter(const hudi_reader *r, file_cursor *c, hudi_read_stats *st, int64_t *rows,
                       hudi_error *err) {
    uint8_t *keep = hudi_malloc((size_t)*rows + 1);
    int rc = 0;
    if (!keep) return hudi_error_oom(err);
    memset(keep, 1, (size_t)*rows);
    for (int32_t p = 0; rc == 0 && p < r->n_preds; p++)
        if (c->post[p])
            rc = hudi_pq_eval_predicate(c->conv[r->preds[p].scan_col], r->preds[p].op,
                                        &r->preds[p].value, keep, err);
    if (c->mor && r->commit_time_col >= 0) { /* incremental: the merged rows' commit times */
        hudi_value lo = {.bytes = hudi_slice_cstr(r->begin ? r->begin : "")};
        hudi_value hi = {.bytes = hudi_slice_cstr(r->as_of)};
        if (rc == 0 && r->begin)
            rc = hudi_pq_eval_predicate(c->conv[r->commit_time_col], HUDI_CMP_GT, &lo, keep, err);
        if (rc == 0 && r->as_of[0])
            rc = hudi_pq_eval_predicate(c->conv[r->commit_time_col], HUDI_CMP_LE, &hi, keep, err);
    }
    int64_t kept = 0;
    for (int64_t i = 0; i < *rows; i++) kept += keep[i];
    st->rows_returned -= *rows - kept; /* the scan counts them returned */
    for (int32_t k = 0; rc == 0 && kept < *rows && k < r->scan_schema.n_children; k++) {
        hudi_array *old = c->conv[k], *fresh = NULL;
        rc = hudi_array_new(&fresh, old->field, err);
        for (int64_t i = 0; rc == 0 && i < *rows;) {
            if (!keep[i]) {
                i++;
                continue;
            }
            int64_t j = i;
            while (j < *rows && keep[j]) j++;
            rc = hudi_array_append_range(fresh, old, i, j - i, err);
            i = j;
        }
        if (rc < 0) {
            hudi_array_free(fresh);
            break;
        }
        c->conv[k] = fresh;
        hudi_array_free(old);
    }
    hudi_free(keep);
    if (rc == 0) *rows = kept;
    return rc;
}

/* Every scan column of the scan's last batch as the query has it (c->conv): read, renamed,
 * converted or all null. */
static int convert_batch(const hudi_reader *r, file_cursor *c, int64_t *rows, hudi_error *err) {
    hudi_batch_free(c->in);
    c->in = hudi_pq_scan_take_batch(c->scan);
    *rows = c->in->num_rows;
    int32_t n_out = r->schema.n_children;
    free_conv(r, c);
    for (int32_t i = 0; i < r->scan_schema.n_children; i++) {
        hudi_array *src = c->map[i] >= 0 ? c->in->columns[c->map[i]] : NULL;
        const hudi_field *qf = i < n_out ? &r->schema.children[i] : &r->scan_schema.children[i];
        bool moved = false;
        int rc = hudi_projection_column(c->proj, i, src, *rows, qf, &c->conv[i], &moved, err);
        if (moved) c->in->columns[c->map[i]] = NULL; /* taken over, also on failure */
        if (rc < 0) return rc;
    }
    return 0;
}

/* The next merged batch of a merge-on-read slice into c->conv: the base file's batches merged
 * with the log records, then the log records no base row matched. 0 at the end of the slice. */
static int mor_next(const hudi_reader *r, file_cursor *c, int64_t *rows, hudi_error *err) {
    int32_t n = r->scan_schema.n_children;
    int rc;
    if (!c->mor_base_done) {
        hudi_batch *b = NULL;
        if ((rc = hudi_pq_scan_next(c->scan, &b, err)) < 0) return rc;
        if (b) {
            int64_t base_rows = 0;
            if ((rc = convert_batch(r, c, &base_rows, err)) < 0) return rc;
            if ((rc = hudi_mor_merge(c->mor, c->conv, base_rows, c->merged, rows, err)) < 0)
                return rc;
            c->merged_base = true;
            free_conv(r, c);
            for (int32_t i = 0; i < n; i++) {
                c->conv[i] = c->merged[i];
                c->merged[i] = NULL;
            }
            return 1;
        }
        c->mor_base_done = true;
    }
    free_conv(r, c);
    c->merged_base = false;
    if ((rc = hudi_mor_next_inserts(c->mor, r->fields, c->conv, rows, err)) < 0) return rc;
    return *rows > 0 ? 1 : 0;
}

/* The next batch of the cursor's open file into c->conv (*rows rows, at least one, filtered):
 * 1, or 0 at the end of the file (still open). */
static int file_next(const hudi_reader *r, file_cursor *c, hudi_read_stats *st, int64_t *rows,
                     hudi_error *err) {
    int rc;
    for (;;) {
        *rows = 0;
        if (c->mor) {
            if ((rc = mor_next(r, c, rows, err)) <= 0) return rc;
            st->rows_returned += *rows;
            if (*rows == 0) continue;
        } else {
            hudi_batch *b = NULL;
            if ((rc = hudi_pq_scan_next(c->scan, &b, err)) < 0) return rc;
            if (!b) return 0;
            if ((rc = convert_batch(r, c, rows, err)) < 0) return rc;
        }
        if (c->post_any) {
            if ((rc = post_filter(r, c, st, rows, err)) < 0) return rc;
            if (*rows == 0) continue;
        }
        return 1;
    }
}

/* Hands the output columns of c->conv (rows rows) out as the reader's batch. */
static void deliver(hudi_reader *r, hudi_array **cols, int64_t rows, hudi_batch **out) {
    hudi_batch *o = r->out;
    for (int32_t i = 0; i < o->n_columns; i++) {
        hudi_array_free(o->columns[i]);
        o->columns[i] = cols[i];
        cols[i] = NULL;
    }
    o->num_rows = rows;
    *out = o;
}

static bool canceled(const hudi_reader *r) { return r->cancel && atomic_load(r->cancel) != 0; }

static int cancel_error(const hudi_reader *r, hudi_error *err) {
    return hudi_error_set(err, HUDI_ECANCELED, "%s: read canceled", r->t->base_path);
}

/* ---- parallel reads ----------------------------------------------------------------------
 * One pool task per file to read (docs/ARCHITECTURE.md "Threads"). A task opens its file in its
 * own cursor and queues the file's batches in its slot; the caller of hudi_reader_next takes
 * the batches of file `head` and moves to the next file when the task has ended and its queue
 * is empty, so the batches come in the order of a serial read, and so do the counts, the
 * warnings and the first error (the error of the lowest file that failed: the files before it
 * are delivered whole, as when reading serially). Bounded read-ahead: a task starts its file
 * only within `window` (2 x threads) files of the head, and a task of a later file queues a
 * batch only while the batches queued by all tasks hold less than `budget` bytes (the head's
 * task always may, up to HEAD_QUEUE batches; a queue may always hold one). Cancellation, an
 * error taken by the caller and hudi_reader_free set `stop`: tasks end at their next batch. */

#define HEAD_QUEUE 4

typedef struct queued {
    hudi_array **cols; /* the output columns */
    int64_t rows, bytes;
    struct queued *next;
} queued;

typedef struct read_slot {
    queued *first, *last; /* batches ready */
    int32_t n_queued;
    bool done; /* the task ended (rc, err) */
    int rc;
    hudi_error err;
    hudi_read_stats stats; /* the file's counts */
    int64_t corrupt;       /* corrupt log blocks, in corrupt_file (owned) */
    char *corrupt_file;
} read_slot;

struct read_par {
    hudi_reader *r;
    hudi_pool *pool;
    size_t first, n; /* the files read: r->files[first .. first + n) */
    size_t window;   /* files in flight at most (slots) */
    int64_t budget;  /* bytes queued by the tasks of files after the head */
    pthread_mutex_t mu;
    pthread_cond_t ready; /* a batch was queued or a task ended (the caller waits) */
    pthread_cond_t room;  /* the head moved or a queue shrank (tasks wait) */
    read_slot *slots;     /* file i is in slots[i % window] while i < head + window */
    size_t head;          /* the file whose batches the caller takes */
    int64_t queued_bytes; /* batches in queues, excluding the head's */
    bool stop;
};

static int64_t batch_bytes(hudi_array *const *cols, int32_t n) {
    int64_t b = 0;
    for (int32_t i = 0; i < n; i++) b += cols[i] ? hudi_array_memory(cols[i]) : 0;
    return b;
}

static void free_queued(queued *q, int32_t n_cols) {
    while (q) {
        queued *next = q->next;
        for (int32_t i = 0; q->cols && i < n_cols; i++) hudi_array_free(q->cols[i]);
        hudi_free(q->cols);
        hudi_free(q);
        q = next;
    }
}

/* Queues the cursor's batch in the slot of file `i` when there is room (under the mutex);
 * false when the read stops. */
static bool enqueue(read_par *par, size_t i, queued *q) {
    read_slot *sl = &par->slots[i % par->window];
    pthread_mutex_lock(&par->mu);
    for (;;) {
        if (par->stop) break;
        bool is_head = i == par->head;
        if (is_head ? sl->n_queued < HEAD_QUEUE
                    : sl->n_queued == 0 || par->queued_bytes + q->bytes <= par->budget)
            break;
        pthread_cond_wait(&par->room, &par->mu);
    }
    bool ok = !par->stop;
    if (ok) {
        if (sl->last)
            sl->last->next = q;
        else
            sl->first = q;
        sl->last = q;
        sl->n_queued++;
        if (i != par->head) par->queued_bytes += q->bytes;
        pthread_cond_broadcast(&par->ready);
    }
    pthread_mutex_unlock(&par->mu);
    return ok;
}

/* Reads file `first + i` into its slot (pool task; errors go to the slot, never to the pool). */
static int par_task(void *payload, int64_t index, hudi_error *unused) {
    (void)unused;
    read_par *par = payload;
    hudi_reader *r = par->r;
    size_t i = (size_t)index;
    read_slot *sl = &par->slots[i % par->window];
    pthread_mutex_lock(&par->mu);
    while (!par->stop && i >= par->head + par->window) pthread_cond_wait(&par->room, &par->mu);
    bool stop = par->stop;
    pthread_mutex_unlock(&par->mu);
    if (stop) return 0; /* the slot may still be an earlier file's */
    hudi_error e = HUDI_ERROR_INIT;
    hudi_read_stats st = {0};
    file_cursor c = {0};
    int32_t n_out = r->schema.n_children;
    int rc = cursor_init(r, &c, &e);
    if (rc < 0) goto end;
    if (canceled(r)) {
        rc = cancel_error(r, &e);
        goto end;
    }
    rc = open_file(r, &c, &r->files[par->first + i], &st, &e);
    for (int64_t rows = 0; rc > 0;) {
        if ((rc = file_next(r, &c, &st, &rows, &e)) <= 0) break;
        queued *q = hudi_calloc(1, sizeof(*q));
        if (!q || !(q->cols = hudi_calloc((size_t)n_out + 1, sizeof(hudi_array *)))) {
            hudi_free(q);
            rc = hudi_error_oom(&e);
            break;
        }
        for (int32_t k = 0; k < n_out; k++) {
            q->cols[k] = c.conv[k];
            c.conv[k] = NULL;
        }
        free_conv(r, &c); /* predicate-only columns */
        q->rows = rows;
        q->bytes = batch_bytes(q->cols, n_out);
        if (!enqueue(par, i, q)) {
            free_queued(q, n_out);
            rc = 0;
            break;
        }
        if (canceled(r)) rc = cancel_error(r, &e);
    }
end:;
    int64_t corrupt = c.corrupt;
    char *corrupt_file = c.corrupt_file;
    c.corrupt_file = NULL;
    cursor_dispose(r, &c, &st);
    pthread_mutex_lock(&par->mu);
    sl->stats = st;
    sl->corrupt = corrupt;
    sl->corrupt_file = corrupt_file;
    sl->done = true;
    sl->rc = rc < 0 ? rc : 0;
    sl->err = e;
    pthread_cond_broadcast(&par->ready);
    pthread_mutex_unlock(&par->mu);
    return 0;
}

/* The number of threads of the reader: hudi_reader_set_threads, else the table's
 * hoodie.hudic.parallelism (hudi_pool_parse_threads), else hudi_pool_default_threads(). */
static int reader_threads(const hudi_reader *r, int32_t *out, hudi_error *err) {
    if (r->threads > 0) {
        *out = r->threads;
        return 0;
    }
    const char *v = hudi_props_get(&r->t->props, HUDI_READ_THREADS_KEY);
    *out = hudi_pool_default_threads();
    int rc = v ? hudi_pool_parse_threads(HUDI_READ_THREADS_KEY, v, out, err) : 0;
    if (rc < 0) hudi_error_wrap(err, "%s", r->t->base_path);
    return rc;
}

static void par_free(hudi_reader *r) {
    read_par *par = r->par;
    if (!par) return;
    if (par->pool) {
        pthread_mutex_lock(&par->mu);
        par->stop = true;
        pthread_cond_broadcast(&par->room);
        pthread_mutex_unlock(&par->mu);
        hudi_pool_wait(par->pool, NULL);
        hudi_pool_free(par->pool);
    }
    for (size_t k = 0; par->slots && k < par->window; k++) {
        free_queued(par->slots[k].first, r->schema.n_children);
        hudi_free(par->slots[k].corrupt_file);
    }
    hudi_free(par->slots);
    pthread_cond_destroy(&par->ready);
    pthread_cond_destroy(&par->room);
    pthread_mutex_destroy(&par->mu);
    hudi_free(par);
    r->par = NULL;
}

/* Starts reading the files left on `threads` threads. */
static int par_start(hudi_reader *r, int32_t threads, hudi_error *err) {
    read_par *par = hudi_calloc(1, sizeof(*par));
    if (!par) return hudi_error_oom(err);
    pthread_mutex_init(&par->mu, NULL);
    pthread_cond_init(&par->ready, NULL);
    pthread_cond_init(&par->room, NULL);
    r->par = par;
    par->r = r;
    par->first = r->next_file;
    par->n = r->n_files - r->next_file;
    if (par->n > 1 && (size_t)threads > par->n) threads = (int32_t)par->n; /* a worker a file */
    par->window = 2 * (size_t)threads;
    par->budget = (int64_t)threads * HUDI_READ_AHEAD_BYTES;
    r->next_file = r->n_files;
    if (!(par->slots = hudi_calloc(par->window, sizeof(read_slot)))) return hudi_error_oom(err);
    /* `threads` workers read while the caller takes their batches */
    int rc = hudi_pool_new(&par->pool, threads + 1, err);
    if (rc == 0) rc = hudi_pool_start(par->pool, (int64_t)par->n, par_task, par, err);
    if (rc < 0) {
        hudi_pool_free(par->pool);
        par->pool = NULL;
    }
    return rc;
}

/* The next batch of a parallel read. */
static int par_next(hudi_reader *r, hudi_batch **out, hudi_error *err) {
    read_par *par = r->par;
    int32_t n_out = r->schema.n_children;
    for (;;) {
        if (par->head >= par->n) return 0;
        read_slot *sl = &par->slots[par->head % par->window];
        pthread_mutex_lock(&par->mu);
        while (!sl->first && !sl->done) pthread_cond_wait(&par->ready, &par->mu);
        queued *q = sl->first;
        if (q) {
            if (!(sl->first = q->next)) sl->last = NULL;
            sl->n_queued--;
            pthread_cond_broadcast(&par->room);
        }
        pthread_mutex_unlock(&par->mu);
        if (q) {
            deliver(r, q->cols, q->rows, out);
            q->next = NULL;
            free_queued(q, n_out);
            return 0;
        }
        /* the head file ended: its counts, warnings and error, then the next file */
        hudi_read_stats *st = &r->stats, *fs = &sl->stats;
        st->files_opened += fs->files_opened;
        st->files_skipped += fs->files_skipped;
        st->files_skipped_keys += fs->files_skipped_keys;
        st->row_groups_total += fs->row_groups_total;
        st->row_groups_skipped += fs->row_groups_skipped;
        st->rows_read += fs->rows_read;
        st->rows_returned += fs->rows_returned;
        st->log_spills += fs->log_spills;
        st->log_spilled_records += fs->log_spilled_records;
        st->log_files_reread += fs->log_files_reread;
        st->merge_rows_dropped += fs->merge_rows_dropped;
        st->merge_rows_inserted += fs->merge_rows_inserted;
        int rc = sl->rc;
        if (rc < 0)
            *err = sl->err;
        else
            rc = warn_corrupt(r, sl->corrupt, sl->corrupt_file, err);
        hudi_free(sl->corrupt_file);
        pthread_mutex_lock(&par->mu);
        memset(sl, 0, sizeof(*sl));
        par->head++;
        /* the new head's queue no longer counts against the budget */
        if (par->head < par->n) {
            read_slot *h = &par->slots[par->head % par->window];
            for (queued *k = h->first; k; k = k->next) par->queued_bytes -= k->bytes;
        }
        if (rc < 0) par->stop = true; /* nothing after a failed file is delivered */
        pthread_cond_broadcast(&par->room);
        pthread_mutex_unlock(&par->mu);
        if (rc < 0) return rc;
    }
}

int hudi_reader_set_threads(hudi_reader *r, int32_t threads, const atomic_int *cancel,
                            hudi_error *err) {
    if (r->started)
        return hudi_error_set(err, HUDI_EINVAL, "%s: threads set after reading began",
                              r->t->base_path);
    int32_t n;
    int rc = hudi_pool_check_threads("threads", threads, &n, err);
    if (rc < 0) {
        hudi_error_wrap(err, "%s", r->t->base_path);
        return rc;
    }
    r->threads = threads; /* 0 stays 0: the table's setting is looked up at the first read */
    r->cancel = cancel;
    return 0;
}

/* The origin of the batch just read by cursor c (rows rows): a merged base batch whose rows
 * are the scan's last rows, none dropped or filtered, has one. */
static int note_origin(hudi_reader *r, const file_cursor *c, int64_t rows, hudi_error *err) {
    hudi_read_origin *o = &r->origin;
    if (!r->want_origin || !c->mor || !c->merged_base || c->post_any || !c->scan ||
        !hudi_pq_scan_last_rows(c->scan, &o->row_group, &o->first_row, &o->rows))
        return 0;
    if (o->rows != rows) {
        o->row_group = -1;
        return 0;
    }
    int32_t n = r->schema.n_children;
    if (!r->as_stored && !(r->as_stored = hudi_calloc((size_t)n + 1, sizeof(bool))))
        return hudi_error_oom(err);
    /* as stored: read as it is, under its own name (schema on read may read a renamed column
     * from a file column of another name; a copy by name would take the wrong one) */
    const bool *same = hudi_mor_same_values(c->mor);
    const hudi_field *fs = hudi_pq_schema(c->pf);
    for (int32_t i = 0; i < n; i++) {
        int32_t k = hudi_projection_source(c->proj, i);
        const char *fname = k >= 0 && k < fs->n_children ? fs->children[k].name : NULL;
        const char *qname = r->schema.children[i].name;
        r->as_stored[i] = c->map[i] >= 0 && same[i] && hudi_projection_exact(c->proj, i) && fname &&
                          qname && strcmp(fname, qname) == 0;
    }
    o->base_path = hudi_pq_path(c->pf);
    o->as_stored = r->as_stored;
    return 0;
}

int hudi_reader_want_origin(hudi_reader *r, hudi_error *err) {
    if (r->started)
        return hudi_error_set(err, HUDI_EINVAL, "%s: the read has started", r->t->base_path);
    r->want_origin = true;
    r->mor_opts.compare_patches = true;
    return 0;
}

void hudi_reader_origin(const hudi_reader *r, hudi_read_origin *out) {
    *out = r->origin;
    if (r->par) out->row_group = -1;
}

int hudi_reader_next(hudi_reader *r, hudi_batch **out, hudi_error *err) {
    int rc;
    *out = NULL;
    if (r->failed < 0)
        return hudi_error_set(err, r->failed, "%s: the read failed before", r->t->base_path);
    if (!r->started) {
        r->started = true;
        int32_t threads = 1;
        if ((rc = reader_threads(r, &threads, err)) < 0) return rc;
        if (threads > 1 && r->n_files > 1 && (rc = par_start(r, threads, err)) < 0) {
            par_free(r);
            return rc;
        }
    }
    if (r->par) {
        if (canceled(r))
            rc = cancel_error(r, err);
        else
            rc = par_next(r, out, err);
        if (rc < 0) {
            r->failed = rc;
            par_free(r); /* stops the tasks; the counts so far stay */
        }
        return rc;
    }
    file_cursor *c = &r->cur;
    for (;;) {
        if (!c->scan && !c->mor) {
            if (r->next_file >= r->n_files) return 0;
            if (canceled(r)) return cancel_error(r, err);
            rc = open_file(r, c, &r->files[r->next_file++], &r->stats, err);
            if (rc == 1 && c->corrupt > 0) rc = warn_corrupt(r, c->corrupt, c->corrupt_file, err);
            hudi_free(c->corrupt_file);
            c->corrupt_file = NULL;
            c->corrupt = 0;
            if (rc < 0) {
                close_file(r, c, &r->stats);
                return rc;
            }
            if (rc == 0) continue;
        }
        int64_t rows = 0;
        r->origin.row_group = -1;
        if ((rc = file_next(r, c, &r->stats, &rows, err)) < 0) return rc;
        if (rc == 0) {
            close_file(r, c, &r->stats);
            continue;
        }
        if ((rc = note_origin(r, c, rows, err)) < 0) return rc;
        deliver(r, c->conv, rows, out);
        free_conv(r, c);
        return 0;
    }
}

void hudi_reader_free(hudi_reader *r) {
    if (!r) return;
    par_free(r);
    cursor_dispose(r, &r->cur, &r->stats);
    hudi_batch_free(r->out);
    hudi_field_dispose(&r->schema);
    hudi_field_dispose(&r->scan_schema);
    hudi_field_dispose(&r->full);
    hudi_schema_view_free(r->sv);
    hudi_fs_view_free(r->view);
    hudi_free(r->files);
    hudi_free(r->fields);
    hudi_free(r->scan_full);
    hudi_free(r->full_is);
    hudi_free(r->as_stored);
    hudi_free(r->begin);
    hudi_free(r->end);
    hudi_free(r->warning);
    hudi_key_probe_dispose(&r->keys);
    for (int32_t i = 0; i < r->n_preds; i++) {
        hudi_free(r->preds[i].column);
        hudi_buf_dispose(&r->preds[i].bytes);
    }
    hudi_free(r->preds);
    pthread_mutex_destroy(&r->sv_mu);
    hudi_free(r);
}
