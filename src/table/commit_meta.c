/* commit_meta.c - HoodieCommitMetadata / HoodieReplaceCommitMetadata JSON
 * (docs/formats/commit-metadata.md): parse with jansson into C structs, and write the exact bytes
 * Hudi 0.14/0.15 writes.
 *
 * Hudi serialises these objects with Jackson's default pretty printer over the class fields
 * (declaration order, superclass first): `"key" : value`, objects broken over lines with a
 * two-space indent per object level, arrays inline (`[ a, b ]`), empty containers `{ }` and
 * `[ ]`, no trailing newline. Its maps are java.util.HashMaps, so keys come out in HashMap
 * iteration order: by bucket (String.hashCode spread, masked by the table size), then by
 * insertion order within a bucket. hudi_commit_metadata_write reproduces both, which makes
 * parse -> write the identity on files Hudi wrote.
 *
 * Invariant: every string and array reachable from a hudi_commit_metadata lives in its arena
 * or in one of its own growable arrays, so hudi_commit_metadata_free releases everything. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "table/table.h"

/* ---- the object and its builders --------------------------------------------------------- */

int hudi_commit_metadata_new(hudi_commit_metadata **out, hudi_error *err) {
    *out = NULL;
    hudi_commit_metadata *md = hudi_calloc(1, sizeof(*md));
    if (!md) return hudi_error_oom(err);
    md->arena.chunk_size = 4096;
    md->operation_type = "UNKNOWN"; /* static; Hudi's default WriteOperationType */
    *out = md;
    return 0;
}

void hudi_commit_metadata_free(hudi_commit_metadata *md) {
    if (!md) return;
    for (size_t i = 0; i < md->partitions_count; i++) hudi_free(md->partitions[i].stats);
    for (size_t i = 0; i < md->replaced_count; i++) hudi_free((void *)md->replaced[i].file_ids);
    hudi_free(md->partitions);
    hudi_free(md->extra);
    hudi_free(md->replaced);
    hudi_arena_dispose(&md->arena);
    hudi_free(md);
}

/* Grows *data (elements of `size` bytes) to hold one more than *count. */
static int grow(void **data, size_t *cap, size_t count, size_t size) {
    if (count < *cap) return 0;
    size_t ncap = *cap ? *cap * 2 : 4, bytes;
    if (hudi_mul_overflow(ncap, size, &bytes)) return HUDI_ENOMEM;
    void *p = hudi_realloc(*data, bytes);
    if (!p) return HUDI_ENOMEM;
    *data = p;
    *cap = ncap;
    return 0;
}

/* Arena copy of a nullable string; *ok is cleared on OOM. */
static const char *dup_str(hudi_commit_metadata *md, const char *s, bool *ok) {
    if (!s) return NULL;
    char *p = hudi_arena_strdup(&md->arena, s);
    if (!p) *ok = false;
    return p;
}

static hudi_partition_write_stats *find_partition(hudi_commit_metadata *md, const char *p,
                                                  hudi_error *err, int *rc) {
    for (size_t i = 0; i < md->partitions_count; i++)
        if (strcmp(md->partitions[i].partition_path, p) == 0) return &md->partitions[i];
    bool ok = true;
    const char *copy = dup_str(md, p, &ok);
    if (!ok || grow((void **)&md->partitions, &md->partitions_cap, md->partitions_count,
                    sizeof(*md->partitions)) < 0) {
        *rc = hudi_error_oom(err);
        return NULL;
    }
    hudi_partition_write_stats *ps = &md->partitions[md->partitions_count++];
    memset(ps, 0, sizeof(*ps));
    ps->partition_path = copy;
    return ps;
}

/* Appends a zeroed stat to `ps`. */
static hudi_write_stat *push_stat(hudi_partition_write_stats *ps) {
    if (grow((void **)&ps->stats, &ps->cap, ps->count, sizeof(*ps->stats)) < 0) return NULL;
    hudi_write_stat *s = &ps->stats[ps->count++];
    memset(s, 0, sizeof(*s));
    return s;
}

int hudi_commit_metadata_add_write_stat(hudi_commit_metadata *md, const char *partition,
                                        const hudi_write_stat *stat, hudi_error *err) {
    int rc = 0;
    const char *p = partition ? partition : stat->partition_path ? stat->partition_path : "";
    hudi_partition_write_stats *ps = find_partition(md, p, err, &rc);
    if (!ps) return rc;
    hudi_write_stat *s = push_stat(ps);
    if (!s) return hudi_error_oom(err);
    *s = *stat;
    bool ok = true;
    s->file_id = dup_str(md, stat->file_id, &ok);
    s->path = dup_str(md, stat->path, &ok);
    s->cdc_stats_json = dup_str(md, stat->cdc_stats_json, &ok);
    s->prev_commit = dup_str(md, stat->prev_commit, &ok);
    s->temp_path = dup_str(md, stat->temp_path, &ok);
    s->partition_path = dup_str(md, stat->partition_path, &ok);
    s->base_file = dup_str(md, stat->base_file, &ok);
    s->records_stats_json = dup_str(md, stat->records_stats_json, &ok);
    s->log_files = NULL;
    if (stat->log_files_count) {
        size_t bytes;
        if (hudi_mul_overflow(stat->log_files_count, sizeof(char *), &bytes)) ok = false;
        const char **lf = ok ? hudi_arena_alloc(&md->arena, bytes) : NULL;
        if (!lf) ok = false;
        for (size_t i = 0; ok && i < stat->log_files_count; i++)
            lf[i] = dup_str(md, stat->log_files[i], &ok);
        s->log_files = lf;
    }
    if (!ok) {
        ps->count--;
        return hudi_error_oom(err);
    }
    return 0;
}

int hudi_commit_metadata_set_extra(hudi_commit_metadata *md, const char *key, const char *value,
                                   hudi_error *err) {
    bool ok = true;
    const char *v = dup_str(md, value, &ok);
    if (!ok) return hudi_error_oom(err);
    for (size_t i = 0; i < md->extra_count; i++) {
        if (strcmp(md->extra[i].key, key) == 0) {
            md->extra[i].value = v;
            return 0;
        }
    }
    const char *k = dup_str(md, key, &ok);
    if (!ok || grow((void **)&md->extra, &md->extra_cap, md->extra_count, sizeof(*md->extra)) < 0)
        return hudi_error_oom(err);
    md->extra[md->extra_count++] = (hudi_extra_metadata){k, v};
    return 0;
}

int hudi_commit_metadata_set_operation(hudi_commit_metadata *md, const char *operation_type,
                                       hudi_error *err) {
    bool ok = true;
    const char *v = dup_str(md, operation_type, &ok);
    if (!ok) return hudi_error_oom(err);
    md->operation_type = v;
    return 0;
}

int hudi_commit_metadata_add_replaced(hudi_commit_metadata *md, const char *partition,
                                      const char *file_id, hudi_error *err) {
    md->is_replace = true;
    hudi_partition_replaced *pr = NULL;
    for (size_t i = 0; i < md->replaced_count && !pr; i++)
        if (strcmp(md->replaced[i].partition_path, partition) == 0) pr = &md->replaced[i];
    bool ok = true;
    if (!pr) {
        const char *p = dup_str(md, partition, &ok);
        if (!ok || grow((void **)&md->replaced, &md->replaced_cap, md->replaced_count,
                        sizeof(*md->replaced)) < 0)
            return hudi_error_oom(err);
        pr = &md->replaced[md->replaced_count++];
        memset(pr, 0, sizeof(*pr));
        pr->partition_path = p;
    }
    if (!file_id) return 0; /* a partition with an empty list */
    const char *f = dup_str(md, file_id, &ok);
    if (!ok || grow((void **)&pr->file_ids, &pr->cap, pr->count, sizeof(char *)) < 0)
        return hudi_error_oom(err);
    pr->file_ids[pr->count++] = f;
    return 0;
}

const char *hudi_commit_metadata_extra(const hudi_commit_metadata *md, const char *key) {
    for (size_t i = 0; i < md->extra_count; i++)
        if (strcmp(md->extra[i].key, key) == 0) return md->extra[i].value;
    return NULL;
}

size_t hudi_commit_metadata_stat_count(const hudi_commit_metadata *md) {
    size_t n = 0;
    for (size_t i = 0; i < md->partitions_count; i++) n += md->partitions[i].count;
    return n;
}

/* ---- parsing --------------------------------------------------------------------------- */

typedef struct parse_ctx {
    hudi_commit_metadata *md;
    const char *what;
    hudi_error *err;
    const char *partition; /* for messages */
} parse_ctx;

static int corrupt(parse_ctx *c, const char *field, const char *expected) {
    if (c->partition)
        return hudi_error_set(c->err, HUDI_ECORRUPT,
                              "%s: field '%s' of a write stat in partition '%s' is not %s", c->what,
                              field, c->partition, expected);
    return hudi_error_set(c->err, HUDI_ECORRUPT, "%s: field '%s' is not %s", c->what, field,
                          expected);
}

/* Jackson coerces integral floats to long (ACCEPT_FLOAT_AS_INT); so do we. */
static int get_long(parse_ctx *c, json_t *v, const char *field, int64_t *out) {
    if (!v || json_is_null(v)) return 0; /* absent: the Java default, 0 */
    if (json_is_integer(v)) {
        *out = (int64_t)json_integer_value(v);
        return 0;
    }
    if (json_is_real(v)) {
        double d = json_real_value(v);
        if (d >= -9.2233720368547758e18 && d < 9.2233720368547758e18) {
            *out = (int64_t)d;
            return 0;
        }
    }
    return corrupt(c, field, "an integer");
}

static int get_opt_long(parse_ctx *c, json_t *v, const char *field, bool *has, int64_t *out) {
    *has = v && !json_is_null(v);
    return *has ? get_long(c, v, field, out) : 0;
}

static int get_str(parse_ctx *c, json_t *v, const char *field, const char **out) {
    *out = NULL;
    if (!v || json_is_null(v)) return 0;
    if (!json_is_string(v)) return corrupt(c, field, "a string");
    bool ok = true;
    *out = dup_str(c->md, json_string_value(v), &ok);
    return ok ? 0 : hudi_error_oom(c->err);
}

/* jansson fails without a message when it cannot allocate its first buffer, and with
 * json_error_out_of_memory later: both are out of memory, not bad JSON. */
static bool json_out_of_memory(const json_error_t *e) {
    return json_error_code(e) == json_error_out_of_memory || e->text[0] == '\0';
}

/* Keeps an arbitrary JSON value as compact text (cdcStats, recordsStats). */
static int get_raw(parse_ctx *c, json_t *v, const char **out) {
    *out = NULL;
    if (!v || json_is_null(v)) return 0;
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    if (!s) return hudi_error_oom(c->err);
    bool ok = true;
    *out = dup_str(c->md, s, &ok);
    json_free_t json_free_fn; /* jansson's allocator: hudi's hooks once hudi_set_allocator ran */
    json_malloc_t json_malloc_fn;
    json_get_alloc_funcs(&json_malloc_fn, &json_free_fn);
    json_free_fn(s);
    return ok ? 0 : hudi_error_oom(c->err);
}

#define LONG_FIELD(name, member)                                                                   \
    { name, offsetof(hudi_write_stat, member) }
static const struct {
    const char *name;
    size_t off;
} long_fields[] = {
    LONG_FIELD("numWrites", num_writes),
    LONG_FIELD("numDeletes", num_deletes),
    LONG_FIELD("numUpdateWrites", num_update_writes),
    LONG_FIELD("numInserts", num_inserts),
    LONG_FIELD("totalWriteBytes", total_write_bytes),
    LONG_FIELD("totalWriteErrors", total_write_errors),
    LONG_FIELD("totalLogRecords", total_log_records),
    LONG_FIELD("totalLogFilesCompacted", total_log_files_compacted),
    LONG_FIELD("totalLogSizeCompacted", total_log_size_compacted),
    LONG_FIELD("totalUpdatedRecordsCompacted", total_updated_records_compacted),
    LONG_FIELD("totalLogBlocks", total_log_blocks),
    LONG_FIELD("totalCorruptLogBlock", total_corrupt_log_block),
    LONG_FIELD("totalRollbackBlocks", total_rollback_blocks),
    LONG_FIELD("fileSizeInBytes", file_size_bytes),
    LONG_FIELD("logOffset", log_offset),
};

static int parse_runtime_stats(parse_ctx *c, json_t *v, hudi_write_stat *s) {
    s->has_runtime_stats = v && !json_is_null(v);
    if (!s->has_runtime_stats) return 0;
    if (!json_is_object(v)) return corrupt(c, "runtimeStats", "an object");
    int rc;
    if ((rc = get_long(c, json_object_get(v, "totalScanTime"), "runtimeStats.totalScanTime",
                       &s->runtime_stats.total_scan_time)) < 0 ||
        (rc = get_long(c, json_object_get(v, "totalUpsertTime"), "runtimeStats.totalUpsertTime",
                       &s->runtime_stats.total_upsert_time)) < 0 ||
        (rc = get_long(c, json_object_get(v, "totalCreateTime"), "runtimeStats.totalCreateTime",
                       &s->runtime_stats.total_create_time)) < 0)
        return rc;
    return 0;
}

static int parse_log_files(parse_ctx *c, json_t *v, hudi_write_stat *s) {
    if (!v || json_is_null(v)) return 0;
    if (!json_is_array(v)) return corrupt(c, "logFiles", "an array");
    size_t n = json_array_size(v), bytes;
    if (n == 0) return 0;
    if (hudi_mul_overflow(n, sizeof(char *), &bytes)) return hudi_error_oom(c->err);
    const char **lf = hudi_arena_alloc(&c->md->arena, bytes);
    if (!lf) return hudi_error_oom(c->err);
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(v, i);
        if (!json_is_string(e)) return corrupt(c, "logFiles", "an array of strings");
        int rc = get_str(c, e, "logFiles", &lf[i]);
        if (rc < 0) return rc;
    }
    s->log_files = lf;
    s->log_files_count = n;
    return 0;
}

static int parse_write_stat(parse_ctx *c, json_t *o, hudi_write_stat *s) {
    if (!json_is_object(o)) return corrupt(c, "partitionToWriteStats", "a list of objects");
    int rc;
    if ((rc = get_str(c, json_object_get(o, "fileId"), "fileId", &s->file_id)) < 0 ||
        (rc = get_str(c, json_object_get(o, "path"), "path", &s->path)) < 0 ||
        (rc = get_str(c, json_object_get(o, "prevCommit"), "prevCommit", &s->prev_commit)) < 0 ||
        (rc = get_str(c, json_object_get(o, "tempPath"), "tempPath", &s->temp_path)) < 0 ||
        (rc = get_str(c, json_object_get(o, "partitionPath"), "partitionPath",
                      &s->partition_path)) < 0 ||
        (rc = get_raw(c, json_object_get(o, "cdcStats"), &s->cdc_stats_json)) < 0)
        return rc;
    for (size_t i = 0; i < HUDI_ARRAY_LEN(long_fields); i++) {
        int64_t *dst = (int64_t *)((char *)s + long_fields[i].off);
        if ((rc = get_long(c, json_object_get(o, long_fields[i].name), long_fields[i].name, dst)) <
            0)
            return rc;
    }
    if ((rc = get_opt_long(c, json_object_get(o, "minEventTime"), "minEventTime",
                           &s->has_min_event_time, &s->min_event_time)) < 0 ||
        (rc = get_opt_long(c, json_object_get(o, "maxEventTime"), "maxEventTime",
                           &s->has_max_event_time, &s->max_event_time)) < 0 ||
        (rc = parse_runtime_stats(c, json_object_get(o, "runtimeStats"), s)) < 0)
        return rc;
    /* HoodieDeltaWriteStat: Jackson writes all five fields for a delta stat. */
    static const char *const delta_keys[] = {"logVersion", "logOffset", "baseFile", "logFiles",
                                             "recordsStats"};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(delta_keys); i++)
        if (json_object_get(o, delta_keys[i])) s->is_delta = true;
    if (!s->is_delta) return 0;
    int64_t version = 0;
    if ((rc = get_long(c, json_object_get(o, "logVersion"), "logVersion", &version)) < 0) return rc;
    if (version < INT32_MIN || version > INT32_MAX) return corrupt(c, "logVersion", "an int");
    s->log_version = (int32_t)version;
    if ((rc = get_str(c, json_object_get(o, "baseFile"), "baseFile", &s->base_file)) < 0 ||
        (rc = parse_log_files(c, json_object_get(o, "logFiles"), s)) < 0 ||
        (rc = get_raw(c, json_object_get(o, "recordsStats"), &s->records_stats_json)) < 0)
        return rc;
    return 0;
}

static int parse_partition_stats(parse_ctx *c, json_t *v) {
    if (!v || json_is_null(v)) return 0;
    if (!json_is_object(v)) return corrupt(c, "partitionToWriteStats", "an object");
    const char *key;
    json_t *list;
    json_object_foreach(v, key, list) {
        int rc = 0;
        hudi_partition_write_stats *ps = find_partition(c->md, key, c->err, &rc);
        if (!ps) return rc;
        if (json_is_null(list)) continue;
        if (!json_is_array(list)) return corrupt(c, "partitionToWriteStats", "a map of lists");
        c->partition = ps->partition_path;
        for (size_t i = 0; i < json_array_size(list); i++) {
            hudi_write_stat *s = push_stat(ps);
            if (!s) return hudi_error_oom(c->err);
            if ((rc = parse_write_stat(c, json_array_get(list, i), s)) < 0) return rc;
        }
        c->partition = NULL;
    }
    return 0;
}

static int parse_extra(parse_ctx *c, json_t *v) {
    if (!v || json_is_null(v)) return 0;
    if (!json_is_object(v)) return corrupt(c, "extraMetadata", "an object");
    const char *key;
    json_t *val;
    json_object_foreach(v, key, val) {
        if (!json_is_string(val) && !json_is_null(val))
            return corrupt(c, "extraMetadata", "a map of strings");
        int rc = hudi_commit_metadata_set_extra(c->md, key, json_string_value(val), c->err);
        if (rc < 0) return rc;
    }
    return 0;
}

static int parse_replaced(parse_ctx *c, json_t *v) {
    if (!v) return 0;
    c->md->is_replace = true;
    if (json_is_null(v)) return 0;
    if (!json_is_object(v)) return corrupt(c, "partitionToReplaceFileIds", "an object");
    const char *key;
    json_t *list;
    json_object_foreach(v, key, list) {
        int rc = hudi_commit_metadata_add_replaced(c->md, key, NULL, c->err);
        if (rc < 0) return rc;
        if (json_is_null(list)) continue;
        if (!json_is_array(list)) return corrupt(c, "partitionToReplaceFileIds", "a map of lists");
        for (size_t i = 0; i < json_array_size(list); i++) {
            json_t *e = json_array_get(list, i);
            if (!json_is_string(e))
                return corrupt(c, "partitionToReplaceFileIds", "a map of string lists");
            if ((rc = hudi_commit_metadata_add_replaced(c->md, key, json_string_value(e), c->err)) <
                0)
                return rc;
        }
    }
    return 0;
}

int hudi_commit_metadata_parse(hudi_commit_metadata **out, const char *json, size_t len,
                               const char *what, hudi_error *err) {
    *out = NULL;
    if (!what) what = "commit metadata";
    json_error_t jerr = {0}; /* jansson leaves it untouched when its first allocation fails */
    json_t *root = json_loadb(json, len, 0, &jerr);
    if (!root && json_out_of_memory(&jerr)) return hudi_error_oom(err);
    if (!root)
        return hudi_error_set(err, HUDI_ECORRUPT,
                              "%s: invalid commit metadata JSON at line %d "
                              "column %d: %s",
                              what, jerr.line, jerr.column, jerr.text);
    hudi_commit_metadata *md = NULL;
    int rc;
    if (!json_is_object(root)) {
        rc = hudi_error_set(err, HUDI_ECORRUPT, "%s: commit metadata is not a JSON object", what);
        goto done;
    }
    if ((rc = hudi_commit_metadata_new(&md, err)) < 0) goto done;
    parse_ctx c = {md, what, err, NULL};
    json_t *compacted = json_object_get(root, "compacted");
    if (compacted && !json_is_boolean(compacted) && !json_is_null(compacted)) {
        rc = corrupt(&c, "compacted", "a boolean");
        goto done;
    }
    md->compacted = compacted && json_is_true(compacted);
    json_t *op = json_object_get(root, "operationType");
    if (op && json_is_null(op)) {
        md->operation_type = NULL;
    } else if (op && (rc = get_str(&c, op, "operationType", &md->operation_type)) < 0) {
        goto done;
    }
    if ((rc = parse_partition_stats(&c, json_object_get(root, "partitionToWriteStats"))) < 0 ||
        (rc = parse_extra(&c, json_object_get(root, "extraMetadata"))) < 0 ||
        (rc = parse_replaced(&c, json_object_get(root, "partitionToReplaceFileIds"))) < 0)
        goto done;
    *out = md;
    md = NULL;
done:
    hudi_commit_metadata_free(md);
    json_decref(root);
    return rc;
}

/* ---- Jackson DefaultPrettyPrinter ------------------------------------------------------ */

#define JW_MAX_DEPTH 64

typedef struct jw {
    hudi_buf *b;
    int nesting;                 /* object levels only: Jackson's array indenter is inline */
    int depth;                   /* open containers */
    bool too_deep;               /* a generic value nested deeper than JW_MAX_DEPTH */
    int count[JW_MAX_DEPTH + 1]; /* entries written at each container depth */
} jw;

static void jw_indent(jw *w) {
    hudi_buf_putc(w->b, '\n');
    for (int i = 0; i < w->nesting; i++) hudi_buf_append(w->b, "  ", 2);
}

/* Jackson's escaping: '"', '\\', and control characters (short forms for \b \t \n \f \r,
 * else \u00XX with upper-case hex); everything else, non-ASCII included, is written as is. */
static void jw_string(jw *w, const char *s) {
    static const char hex[] = "0123456789ABCDEF";
    hudi_buf_putc(w->b, '"');
    const char *run = s;
    for (const char *p = s; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        if (ch >= 0x20 && ch != '"' && ch != '\\') continue;
        hudi_buf_append(w->b, run, (size_t)(p - run));
        run = p + 1;
        char esc[7] = {'\\', 0};
        size_t n = 2;
        switch (ch) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\b': esc[1] = 'b'; break;
        case '\t': esc[1] = 't'; break;
        case '\n': esc[1] = 'n'; break;
        case '\f': esc[1] = 'f'; break;
        case '\r': esc[1] = 'r'; break;
        default:
            memcpy(esc + 1, "u00", 3);
            esc[4] = hex[ch >> 4];
            esc[5] = hex[ch & 15];
            n = 6;
        }
        hudi_buf_append(w->b, esc, n);
    }
    hudi_buf_append(w->b, run, strlen(run));
    hudi_buf_putc(w->b, '"');
}

/* Separator before a value inside an array, or nothing at the root. */
static void jw_before_value(jw *w) {
    if (w->depth == 0) return;
    hudi_buf_append(w->b, w->count[w->depth] ? ", " : " ", w->count[w->depth] ? 2 : 1);
    w->count[w->depth]++;
}

static void jw_key(jw *w, const char *key) {
    if (w->count[w->depth]++) hudi_buf_putc(w->b, ',');
    jw_indent(w);
    jw_string(w, key);
    hudi_buf_append(w->b, " : ", 3);
}

static void jw_open(jw *w, char c) {
    hudi_buf_putc(w->b, c);
    if (c == '{') w->nesting++;
    w->depth++;
    w->count[w->depth] = 0;
}

static void jw_close(jw *w, char c) {
    int n = w->count[w->depth];
    if (w->depth > 0) w->depth--;
    if (c == '}') {
        w->nesting--;
        if (n)
            jw_indent(w);
        else
            hudi_buf_putc(w->b, ' ');
    } else {
        hudi_buf_putc(w->b, ' ');
    }
    hudi_buf_putc(w->b, c);
}

static void jw_kv_str(jw *w, const char *key, const char *v) {
    jw_key(w, key);
    if (v)
        jw_string(w, v);
    else
        hudi_buf_append(w->b, "null", 4);
}

static void jw_kv_long(jw *w, const char *key, int64_t v) {
    jw_key(w, key);
    hudi_buf_printf(w->b, "%lld", (long long)v);
}

static void jw_kv_opt_long(jw *w, const char *key, bool has, int64_t v) {
    if (has)
        jw_kv_long(w, key, v);
    else
        jw_kv_str(w, key, NULL);
}

/* Java's Double.toString for the values a generic JSON value may hold (rare here: only in
 * cdcStats / recordsStats). Shortest round-trip digits, Java's exponent rules. */
static void jw_double(jw *w, double d) {
    if (!isfinite(d)) {
        hudi_buf_puts(w->b, "null");
        return;
    }
    char digits[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(digits, sizeof(digits), "%.*e", prec - 1, d);
        if (strtod(digits, NULL) == d) break;
    }
    /* digits = [-]D[.DDD]e[+-]XX */
    char mant[32] = {0};
    size_t m = 0;
    const char *p = digits;
    bool neg = *p == '-';
    if (neg) p++;
    for (; *p && *p != 'e'; p++)
        if (*p != '.' && m + 1 < sizeof(mant)) mant[m++] = *p;
    int exp = atoi(p + 1);
    while (m > 1 && mant[m - 1] == '0') mant[--m] = 0;
    if (neg) hudi_buf_putc(w->b, '-');
    if (d == 0) {
        hudi_buf_puts(w->b, "0.0");
    } else if (exp >= -3 && exp < 7) {
        if (exp < 0) {
            hudi_buf_puts(w->b, "0.");
            for (int i = -1; i > exp; i--) hudi_buf_putc(w->b, '0');
            hudi_buf_append(w->b, mant, m);
        } else {
            for (int i = 0; i <= exp; i++) hudi_buf_putc(w->b, (size_t)i < m ? mant[i] : '0');
            hudi_buf_putc(w->b, '.');
            if ((size_t)exp + 1 < m)
                hudi_buf_append(w->b, mant + exp + 1, m - (size_t)exp - 1);
            else
                hudi_buf_putc(w->b, '0');
        }
    } else {
        hudi_buf_putc(w->b, mant[0]);
        hudi_buf_putc(w->b, '.');
        if (m > 1)
            hudi_buf_append(w->b, mant + 1, m - 1);
        else
            hudi_buf_putc(w->b, '0');
        hudi_buf_printf(w->b, "E%d", exp);
    }
}

/* A generic value (kept as compact text) re-emitted with the pretty printer. */
static void jw_json(jw *w, const json_t *v) {
    if (w->depth >= JW_MAX_DEPTH && (json_is_object(v) || json_is_array(v))) {
        w->too_deep = true;
        hudi_buf_puts(w->b, "null");
        return;
    }
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        jw_open(w, '{');
        const char *k;
        json_t *e;
        json_object_foreach((json_t *)v, k, e) {
            jw_key(w, k);
            jw_json(w, e);
        }
        jw_close(w, '}');
        break;
    }
    case JSON_ARRAY:
        jw_open(w, '[');
        for (size_t i = 0; i < json_array_size(v); i++) {
            jw_before_value(w);
            jw_json(w, json_array_get(v, i));
        }
        jw_close(w, ']');
        break;
    case JSON_STRING: jw_string(w, json_string_value(v)); break;
    case JSON_INTEGER: hudi_buf_printf(w->b, "%lld", (long long)json_integer_value(v)); break;
    case JSON_REAL: jw_double(w, json_real_value(v)); break;
    case JSON_TRUE: hudi_buf_puts(w->b, "true"); break;
    case JSON_FALSE: hudi_buf_puts(w->b, "false"); break;
    default: hudi_buf_puts(w->b, "null"); break;
    }
}

static int jw_kv_raw(jw *w, const char *key, const char *raw, const char *dflt, hudi_error *err) {
    jw_key(w, key);
    const char *text = raw ? raw : dflt;
    if (!text) {
        hudi_buf_puts(w->b, "null");
        return 0;
    }
    json_error_t jerr = {0}; /* jansson leaves it untouched when its first allocation fails */
    json_t *v = json_loads(text, JSON_DECODE_ANY, &jerr);
    if (!v && json_out_of_memory(&jerr)) return hudi_error_oom(err);
    if (!v)
        return hudi_error_set(err, HUDI_EINVAL, "commit metadata: field '%s' holds invalid JSON",
                              key);
    jw_json(w, v);
    json_decref(v);
    if (w->too_deep)
        return hudi_error_set(err, HUDI_EINVAL, "commit metadata: field '%s' is nested too deeply",
                              key);
    return 0;
}

/* ---- Java HashMap iteration order -------------------------------------------------------- */

typedef struct order_item {
    uint32_t bucket;
    size_t index;
} order_item;

static int cmp_order(const void *a, const void *b) {
    const order_item *x = a, *y = b;
    if (x->bucket != y->bucket) return x->bucket < y->bucket ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Fills perm[0..n) with the order in which a java.util.HashMap, filled by put() in index
 * order, iterates its keys: the table starts at 16 buckets and doubles whenever the size
 * passes 3/4 of it; a key's bucket is (h ^ h >>> 16) & (size - 1); resizing keeps the
 * relative order of the keys of a bucket. (Bins of 8+ keys turned into trees could differ;
 * such collisions do not happen with real partition paths.) */
static int java_hashmap_order(const void *keys, size_t stride, size_t n, size_t *perm) {
    if (n == 0) return 0;
    size_t cap = 16;
    while (n > cap / 4 * 3) {
        if (cap > SIZE_MAX / 2) return HUDI_ENOMEM;
        cap *= 2;
    }
    order_item *items = hudi_calloc(n, sizeof(*items));
    if (!items) return HUDI_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        const char *k = *(const char *const *)((const char *)keys + i * stride);
        uint32_t h = (uint32_t)hudi_java_string_hash((const uint8_t *)k, strlen(k));
        h ^= h >> 16;
        items[i] = (order_item){(uint32_t)(h & (cap - 1)), i};
    }
    qsort(items, n, sizeof(*items), cmp_order);
    for (size_t i = 0; i < n; i++) perm[i] = items[i].index;
    hudi_free(items);
    return 0;
}

/* ---- writing ----------------------------------------------------------------------------- */

static int write_stat(jw *w, const hudi_write_stat *s, hudi_error *err) {
    int rc;
    jw_open(w, '{');
    jw_kv_str(w, "fileId", s->file_id);
    jw_kv_str(w, "path", s->path);
    if ((rc = jw_kv_raw(w, "cdcStats", s->cdc_stats_json, NULL, err)) < 0) return rc;
    jw_kv_str(w, "prevCommit", s->prev_commit);
    jw_kv_long(w, "numWrites", s->num_writes);
    jw_kv_long(w, "numDeletes", s->num_deletes);
    jw_kv_long(w, "numUpdateWrites", s->num_update_writes);
    jw_kv_long(w, "numInserts", s->num_inserts);
    jw_kv_long(w, "totalWriteBytes", s->total_write_bytes);
    jw_kv_long(w, "totalWriteErrors", s->total_write_errors);
    jw_kv_str(w, "tempPath", s->temp_path);
    jw_kv_str(w, "partitionPath", s->partition_path);
    jw_kv_long(w, "totalLogRecords", s->total_log_records);
    jw_kv_long(w, "totalLogFilesCompacted", s->total_log_files_compacted);
    jw_kv_long(w, "totalLogSizeCompacted", s->total_log_size_compacted);
    jw_kv_long(w, "totalUpdatedRecordsCompacted", s->total_updated_records_compacted);
    jw_kv_long(w, "totalLogBlocks", s->total_log_blocks);
    jw_kv_long(w, "totalCorruptLogBlock", s->total_corrupt_log_block);
    jw_kv_long(w, "totalRollbackBlocks", s->total_rollback_blocks);
    jw_kv_long(w, "fileSizeInBytes", s->file_size_bytes);
    jw_kv_opt_long(w, "minEventTime", s->has_min_event_time, s->min_event_time);
    jw_kv_opt_long(w, "maxEventTime", s->has_max_event_time, s->max_event_time);
    jw_key(w, "runtimeStats");
    if (s->has_runtime_stats) {
        jw_open(w, '{');
        jw_kv_long(w, "totalScanTime", s->runtime_stats.total_scan_time);
        jw_kv_long(w, "totalUpsertTime", s->runtime_stats.total_upsert_time);
        jw_kv_long(w, "totalCreateTime", s->runtime_stats.total_create_time);
        jw_close(w, '}');
    } else {
        hudi_buf_puts(w->b, "null");
    }
    if (s->is_delta) {
        jw_kv_long(w, "logVersion", s->log_version);
        jw_kv_long(w, "logOffset", s->log_offset);
        jw_kv_str(w, "baseFile", s->base_file);
        jw_key(w, "logFiles");
        jw_open(w, '[');
        for (size_t i = 0; i < s->log_files_count; i++) {
            jw_before_value(w);
            if (s->log_files[i])
                jw_string(w, s->log_files[i]);
            else
                hudi_buf_puts(w->b, "null");
        }
        jw_close(w, ']');
        /* Hudi's Option.empty() serialises as {"val": null}. */
        if ((rc = jw_kv_raw(w, "recordsStats", s->records_stats_json, "{\"val\":null}", err)) < 0)
            return rc;
    }
    jw_close(w, '}');
    return 0;
}

static int write_partitions(jw *w, const hudi_commit_metadata *md, size_t *perm, hudi_error *err) {
    int rc = 0;
    if (md->partitions_count &&
        java_hashmap_order(&md->partitions[0].partition_path, sizeof(*md->partitions),
                           md->partitions_count, perm) < 0)
        return hudi_error_oom(err);
    jw_open(w, '{');
    for (size_t i = 0; i < md->partitions_count; i++) {
        const hudi_partition_write_stats *ps = &md->partitions[perm[i]];
        jw_key(w, ps->partition_path);
        jw_open(w, '[');
        for (size_t j = 0; j < ps->count; j++) {
            jw_before_value(w);
            if ((rc = write_stat(w, &ps->stats[j], err)) < 0) return rc;
        }
        jw_close(w, ']');
    }
    jw_close(w, '}');
    return 0;
}

static int write_extra(jw *w, const hudi_commit_metadata *md, size_t *perm, hudi_error *err) {
    if (md->extra_count &&
        java_hashmap_order(&md->extra[0].key, sizeof(*md->extra), md->extra_count, perm) < 0)
        return hudi_error_oom(err);
    jw_open(w, '{');
    for (size_t i = 0; i < md->extra_count; i++)
        jw_kv_str(w, md->extra[perm[i]].key, md->extra[perm[i]].value);
    jw_close(w, '}');
    return 0;
}

static int write_replaced(jw *w, const hudi_commit_metadata *md, size_t *perm, hudi_error *err) {
    if (md->replaced_count &&
        java_hashmap_order(&md->replaced[0].partition_path, sizeof(*md->replaced),
                           md->replaced_count, perm) < 0)
        return hudi_error_oom(err);
    jw_open(w, '{');
    for (size_t i = 0; i < md->replaced_count; i++) {
        const hudi_partition_replaced *pr = &md->replaced[perm[i]];
        jw_key(w, pr->partition_path);
        jw_open(w, '[');
        for (size_t j = 0; j < pr->count; j++) {
            jw_before_value(w);
            jw_string(w, pr->file_ids[j]);
        }
        jw_close(w, ']');
    }
    jw_close(w, '}');
    return 0;
}

int hudi_commit_metadata_write(const hudi_commit_metadata *md, hudi_buf *out, hudi_error *err) {
    size_t n = HUDI_MAX(HUDI_MAX(md->partitions_count, md->extra_count), md->replaced_count);
    size_t *perm = hudi_calloc(n ? n : 1, sizeof(size_t));
    if (!perm) return hudi_error_oom(err);
    jw w = {.b = out};
    int rc;
    jw_open(&w, '{');
    jw_key(&w, "partitionToWriteStats");
    if ((rc = write_partitions(&w, md, perm, err)) < 0) goto done;
    jw_key(&w, "compacted");
    hudi_buf_puts(out, md->compacted ? "true" : "false");
    jw_key(&w, "extraMetadata");
    if ((rc = write_extra(&w, md, perm, err)) < 0) goto done;
    jw_kv_str(&w, "operationType", md->operation_type);
    if (md->is_replace) {
        jw_key(&w, "partitionToReplaceFileIds");
        if ((rc = write_replaced(&w, md, perm, err)) < 0) goto done;
    }
    jw_close(&w, '}');
    rc = hudi_buf_failed(out) ? hudi_error_oom(err) : 0;
done:
    hudi_free(perm);
    return rc;
}
