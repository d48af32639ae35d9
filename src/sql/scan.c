/* scan.c - the SQL engine's table scan (docs/ARCHITECTURE.md "SQL engine: scans"): preparing
 * a scan spec (opening the table, its schema as of the query's instant), TIMESTAMP AS OF, the
 * scan operator over Hudi tables (the read layer's reader) and plain Parquet tables (the
 * Parquet scanner, file by file, with hive-style partition columns), the pushdown of simple
 * predicates into both, and the EXPLAIN text of a scan.
 *
 * Pushdown: every hudi_sql_pushdown is "column op constant" or IS [NOT] NULL on a top-level
 * column of the scan's table_schema. It prunes partitions (Hudi: from the partition paths, by
 * the read layer; Parquet tables: from the key=value folders), skips row groups and pages from
 * Parquet statistics, and filters rows exactly: a scan returns only rows satisfying all of
 * them. An IN list (HUDI_SQL_PUSH_IN) only skips: partitions none of its values matches, and
 * in Hudi tables the base files whose record keys rule out every value (read/key_probe.h). */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "columnar/value_parse.h"
#include "read/predicate.h"
#include "read/read.h"
#include "schema/schema.h"
#include "sql/engine.h"
#include "sql/session.h"

#define PART_DEFAULT "__HIVE_DEFAULT_PARTITION__" /* Spark's folder for a null value */
#define EXPLAIN_MAX_LINES 20                      /* files or partitions listed by name */

static int check_cancel(const hudi_sql_ctx *ctx, hudi_error *err) {
    if (ctx->cancel && atomic_load(ctx->cancel))
        return hudi_error_set(err, HUDI_ECANCELED, "statement canceled");
    return 0;
}

static hudi_fs *session_fs(const hudi_sql_ctx *ctx) {
    const hudi_sql_session *s = ctx->session;
    return s ? s->fs : NULL;
}

/* A copy of `src` whose names, comments and children live in the arena. */
static int arena_field_copy(hudi_arena *a, hudi_field *dst, const hudi_field *src,
                            hudi_error *err) {
    *dst = *src;
    dst->children = NULL;
    if ((src->name && !(dst->name = hudi_arena_strdup(a, src->name))) ||
        (src->comment && !(dst->comment = hudi_arena_strdup(a, src->comment))))
        return hudi_error_oom(err);
    if (src->n_children > 0) {
        dst->children = hudi_arena_alloc(a, (size_t)src->n_children * sizeof(hudi_field));
        if (!dst->children) return hudi_error_oom(err);
        for (int32_t i = 0; i < src->n_children; i++) {
            int rc = arena_field_copy(a, &dst->children[i], &src->children[i], err);
            if (rc < 0) return rc;
        }
    }
    return 0;
}

static int find_field(const hudi_field *st, const char *name) {
    for (int32_t i = 0; i < st->n_children; i++)
        if (st->children[i].name && strcmp(st->children[i].name, name) == 0) return i;
    for (int32_t i = 0; i < st->n_children; i++) /* Spark resolves Parquet columns ignoring case */
        if (st->children[i].name && strcasecmp(st->children[i].name, name) == 0) return i;
    return -1;
}

static const char *op_text(int op) {
    static const char *const ops[] = {"=", "!=", "<", "<=", ">", ">=", "IS NULL", "IS NOT NULL"};
    return op >= 0 && op < (int)HUDI_ARRAY_LEN(ops) ? ops[op] : "?";
}

/* ---- TIMESTAMP AS OF -------------------------------------------------------------------- */

static bool digits_at(const char *s, size_t off, size_t n) {
    for (size_t i = off; i < off + n; i++)
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

static int num_at(const char *s, size_t off, size_t n) {
    int v = 0;
    for (size_t i = off; i < off + n; i++) v = v * 10 + (s[i] - '0');
    return v;
}

/* Whether the digits yyyyMMddHHmmss at `s` name a real date and time. */
static bool valid_instant_digits(const char *s) {
    int y = num_at(s, 0, 4), mo = num_at(s, 4, 2), d = num_at(s, 6, 2);
    return hudi_civil_valid(y, mo, d) && num_at(s, 8, 2) < 24 && num_at(s, 10, 2) < 60 &&
           num_at(s, 12, 2) < 60;
}

/* Hudi's HoodieSqlCommonUtils.formatQueryInstant (0.15): the text as an instant time, taken
 * literally (no zone conversion: instants are the writer's local time as text).
 * "yyyy-MM-dd HH:mm:ss" -> yyyyMMddHHmmss999 (HoodieInstantTimeGenerator.getInstantForDateString
 * completes missing millis with 999), "yyyy-MM-dd HH:mm:ss.SSS" -> yyyyMMddHHmmssSSS,
 * "yyyy-MM-dd" -> yyyyMMdd000000000, and 14 or 17 digits are an instant already. */
static int format_query_instant(char out[HUDI_INSTANT_TIME_MAX], const char *text,
                                hudi_error *err) {
    size_t n = strlen(text);
    const char *s = text;
    if ((n == 19 || n == 23) && digits_at(s, 0, 4) && s[4] == '-' && digits_at(s, 5, 2) &&
        s[7] == '-' && digits_at(s, 8, 2) && s[10] == ' ' && digits_at(s, 11, 2) && s[13] == ':' &&
        digits_at(s, 14, 2) && s[16] == ':' && digits_at(s, 17, 2) &&
        (n == 19 || (s[19] == '.' && digits_at(s, 20, 3)))) {
        snprintf(out, HUDI_INSTANT_TIME_MAX, "%.4s%.2s%.2s%.2s%.2s%.2s%s", s, s + 5, s + 8, s + 11,
                 s + 14, s + 17, n == 23 ? s + 20 : "999");
        if (!valid_instant_digits(out)) goto bad_value;
        return 0;
    }
    if ((n == 14 || n == 17) && digits_at(s, 0, n)) {
        /* Hudi 0.15 validates with parseDateFromInstantTime (a real date and time). Dates
         * that do not exist are refused; Java's SMART resolver would move 02-30 to 02-29. */
        if (!valid_instant_digits(s))
            return hudi_error_set(err, HUDI_EINVAL, "Got an invalid instant (%s)", text);
        snprintf(out, HUDI_INSTANT_TIME_MAX, "%s", s);
        return 0;
    }
    if (n == 10 && digits_at(s, 0, 4) && s[4] == '-' && digits_at(s, 5, 2) && s[7] == '-' &&
        digits_at(s, 8, 2)) {
        snprintf(out, HUDI_INSTANT_TIME_MAX, "%.4s%.2s%.2s000000000", s, s + 5, s + 8);
        if (!valid_instant_digits(out)) goto bad_value;
        return 0;
    }
    /* Hudi's message, word for word (its pattern list has the typo too) */
    return hudi_error_set(err, HUDI_EINVAL,
                          "Unsupported query instant time format: %s,Supported time format are: "
                          "'yyyy-MM-dd: HH:mm:ss.SSS' or 'yyyy-MM-dd' or 'yyyyMMddHHmmssSSS'",
                          text);
bad_value:
    return hudi_error_set(err, HUDI_EINVAL, "TIMESTAMP AS OF '%s': not a valid date or time", text);
}

/* Whether a pending replacecommit is a clustering (Hudi leaves those out of the check below):
 * its requested file holds a clustering plan (operationType CLUSTER). */
static bool is_clustering(const hudi_timeline *tl, const hudi_instant *in) {
    hudi_buf json = HUDI_BUF_INIT;
    hudi_instant req = *in;
    req.state = HUDI_STATE_REQUESTED;
    bool yes = false;
    if (hudi_instant_format(&req, tl->layout, NULL) == 0 &&
        hudi_timeline_read_json(&json, tl, &req, NULL) == 0 && json.data)
        yes = strstr(json.data, "CLUSTER") != NULL;
    hudi_buf_dispose(&json);
    return yes;
}

int hudi_sql_scan_as_of(hudi_sql_ctx *ctx, hudi_table *t, const char *text,
                        const char **out_instant, hudi_error *err) {
    char q[HUDI_INSTANT_TIME_MAX];
    int rc = format_query_instant(q, text, err);
    if (rc < 0) return rc;
    const hudi_timeline *tl = t->timeline;
    /* TimelineUtils.validateTimestampAsOf: the instant must be earlier than the first pending
     * commit (clustering aside), whose data may or may not show. */
    for (size_t i = 0; i < tl->count; i++) {
        const hudi_instant *in = &tl->instants[i];
        const hudi_instant *latest = NULL;
        if (in->state == HUDI_STATE_COMPLETED ||
            !(HUDI_ACTIONS_COMMITS & HUDI_ACTION_BIT(in->action)))
            continue;
        if (hudi_timeline_find(&latest, tl, in->time, NULL) < 0 ||
            latest->state == HUDI_STATE_COMPLETED)
            continue;
        if (in->action == HUDI_ACTION_REPLACECOMMIT && is_clustering(tl, in)) continue;
        if (hudi_instant_time_cmp(q, in->time) >= 0)
            return hudi_error_set(err, HUDI_EINVAL,
                                  "Time travel's timestamp '%s' must be earlier than the first "
                                  "incomplete commit timestamp '%s'",
                                  q, in->time);
        break;
    }
    /* The latest completed commit at or before it; none: the instant itself (the table as of
     * then is empty). */
    hudi_instant_list l = {0};
    if ((rc = hudi_timeline_completed_commits(&l, tl, err)) < 0) return rc;
    const char *found = NULL;
    for (size_t i = 0; i < l.count; i++)
        if (hudi_instant_time_cmp(l.items[i]->time, q) <= 0) found = l.items[i]->time;
    *out_instant = hudi_arena_strdup(ctx->arena, found ? found : q);
    hudi_instant_list_dispose(&l);
    return *out_instant ? 0 : hudi_error_oom(err);
}

/* ---- pushdown constants ------------------------------------------------------------------ */

/* Row `row` of a pushdown constant as a hudi_value in the type of column `col` (bytes
 * borrowed from the array). */
static int const_value_at(const hudi_sql_pushdown *pd, const hudi_field *col, int64_t row,
                          hudi_value *v, hudi_error *err) {
    const hudi_array *a = pd->value;
    memset(v, 0, sizeof(*v));
    if (pd->op == HUDI_CMP_IS_NULL || pd->op == HUDI_CMP_IS_NOT_NULL) {
        v->is_null = true;
        return 0;
    }
    if (!a || a->length <= row)
        return hudi_error_set(err, HUDI_EINVAL, "pushed predicate on %s has no constant",
                              col->name);
    if (!hudi_array_is_valid(a, row)) {
        v->is_null = true; /* comparing with NULL: no row matches */
        return 0;
    }
    const hudi_field *f = a->field;
    bool same = f->type == col->type;
    if (same && f->type == HUDI_TYPE_DECIMAL) same = f->scale == col->scale;
    if (same && f->type == HUDI_TYPE_FIXED_BINARY) same = f->byte_width == col->byte_width;
    if (same && f->type == HUDI_TYPE_TIME) same = f->unit == col->unit;
    if (!same)
        return hudi_error_set(err, HUDI_EINVAL,
                              "pushed predicate on %s: the constant is %s, the column %s",
                              col->name, hudi_type_name(f->type), hudi_type_name(col->type));
    const void *p = a->values;
    int64_t i = row;
    switch (f->type) {
    case HUDI_TYPE_BOOL: v->i64 = hudi_bit_get(a->values, i); break;
    case HUDI_TYPE_INT8: v->i64 = ((const int8_t *)p)[i]; break;
    case HUDI_TYPE_INT16: v->i64 = ((const int16_t *)p)[i]; break;
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_DATE: v->i64 = ((const int32_t *)p)[i]; break;
    case HUDI_TYPE_INT64: v->i64 = ((const int64_t *)p)[i]; break;
    case HUDI_TYPE_UINT8: v->i64 = ((const uint8_t *)p)[i]; break;
    case HUDI_TYPE_UINT16: v->i64 = ((const uint16_t *)p)[i]; break;
    case HUDI_TYPE_UINT32: v->i64 = ((const uint32_t *)p)[i]; break;
    case HUDI_TYPE_UINT64: v->i64 = (int64_t)((const uint64_t *)p)[i]; break;
    case HUDI_TYPE_FLOAT16: v->f64 = hudi_half_to_float(((const uint16_t *)p)[i]); break;
    case HUDI_TYPE_FLOAT: v->f64 = ((const float *)p)[i]; break;
    case HUDI_TYPE_DOUBLE: v->f64 = ((const double *)p)[i]; break;
    case HUDI_TYPE_DECIMAL: memcpy(&v->dec, (const uint8_t *)p + 16 * i, sizeof(v->dec)); break;
    case HUDI_TYPE_TIME:
        v->i64 = f->unit == HUDI_UNIT_MILLIS ? ((const int32_t *)p)[i] : ((const int64_t *)p)[i];
        break;
    case HUDI_TYPE_TIMESTAMP: {
        static const int64_t per_sec[] = {1000, 1000000, 1000000000};
        int64_t x = ((const int64_t *)p)[i];
        int64_t from = per_sec[f->unit % 3], to = per_sec[col->unit % 3];
        if (from > to) {
            /* A finer constant: exact only on the column's grid; otherwise no stored value can
             * equal it and bounds round, which the reader cannot express - refuse. */
            if (x % (from / to) != 0)
                return hudi_error_set(err, HUDI_EUNSUPPORTED,
                                      "pushed predicate on %s: the constant is finer than the "
                                      "column's time unit",
                                      col->name);
            x /= from / to;
        } else if (to > from) {
            x *= to / from;
        }
        v->i64 = x;
        break;
    }
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY:
        v->bytes = HUDI_SLICE(a->data ? a->data + a->offsets[i] : (const uint8_t *)"",
                              (size_t)(a->offsets[i + 1] - a->offsets[i]));
        break;
    case HUDI_TYPE_FIXED_BINARY:
        v->bytes = HUDI_SLICE((const uint8_t *)a->values + (size_t)f->byte_width * (size_t)i,
                              (size_t)f->byte_width);
        break;
    default:
        return hudi_error_set(err, HUDI_EINVAL, "cannot push a predicate on column %s (%s)",
                              col->name, hudi_type_name(col->type));
    }
    return 0;
}

/* Row 0 of a pushdown constant (const_value_at). */
static int const_value(const hudi_sql_pushdown *pd, const hudi_field *col, hudi_value *v,
                       hudi_error *err) {
    return const_value_at(pd, col, 0, v, err);
}

/* Every value of an IN pushdown (`n` of them), a heap array the caller frees. */
static int in_values(const hudi_sql_pushdown *pd, const hudi_field *col, hudi_value **out,
                     int32_t *n, hudi_error *err) {
    int64_t len = pd->value ? pd->value->length : 0;
    *out = hudi_calloc((size_t)len + 1, sizeof(hudi_value));
    *n = 0;
    if (!*out) return hudi_error_oom(err);
    for (int64_t i = 0; i < len; i++) {
        int rc = const_value_at(pd, col, i, &(*out)[i], err);
        if (rc < 0) {
            hudi_free(*out);
            *out = NULL;
            return rc;
        }
    }
    *n = (int32_t)len;
    return 0;
}

/* One constant of a pushed predicate as EXPLAIN writes it. */
static void value_text(hudi_buf *out, const hudi_field *f, const hudi_value *v) {
    if (v->is_null)
        hudi_buf_puts(out, "NULL");
    else if (f->type == HUDI_TYPE_STRING)
        hudi_buf_printf(out, "'%.*s'", (int)v->bytes.len, (const char *)v->bytes.data);
    else if (f->type == HUDI_TYPE_FLOAT || f->type == HUDI_TYPE_DOUBLE)
        hudi_buf_printf(out, "%.17g", v->f64);
    else
        hudi_buf_printf(out, "%lld", (long long)v->i64);
}

/* The predicate as EXPLAIN shows it: as written, else "col op". */
static void pred_text(hudi_buf *out, const hudi_sql_scan_spec *spec, int32_t i) {
    const hudi_sql_pushdown *pd = &spec->pushdown[i];
    if (pd->text) {
        hudi_buf_puts(out, pd->text);
        return;
    }
    const hudi_field *f = &spec->table_schema.children[pd->column];
    hudi_value v;
    if (pd->op == HUDI_SQL_PUSH_IN) {
        hudi_buf_printf(out, "%s IN (", f->name);
        for (int64_t k = 0; pd->value && k < pd->value->length; k++) {
            if (k) hudi_buf_puts(out, ", ");
            if (const_value_at(pd, f, k, &v, NULL) < 0) v.is_null = true;
            value_text(out, f, &v);
        }
        hudi_buf_putc(out, ')');
        return;
    }
    hudi_buf_printf(out, "%s %s", f->name, op_text(pd->op));
    if (pd->op != HUDI_CMP_IS_NULL && pd->op != HUDI_CMP_IS_NOT_NULL) {
        if (const_value(pd, f, &v, NULL) < 0) v.is_null = true;
        hudi_buf_putc(out, ' ');
        value_text(out, f, &v);
    }
}

static bool is_fp(hudi_type_id t) {
    return t == HUDI_TYPE_FLOAT || t == HUDI_TYPE_DOUBLE || t == HUDI_TYPE_FLOAT16;
}

/* Whether pushed predicate i is applied by the scan. Spark orders NaN above every number and
 * takes NaN = NaN as true, while Parquet statistics and row filters compare as IEEE 754 does
 * (NaN compares false). With a number as the constant the two agree on =, < and <= (a NaN row
 * fails them both ways), and > and >= go down as GT_TOTAL and GE_TOTAL (reader_op), which keep
 * NaN rows. Not applied, so left to the filter above (EXPLAIN says so): a NaN constant, and !=
 * (statistics bounds leave NaN out, so a chunk of one number and NaNs would be pruned). */
static bool applied(const hudi_sql_scan_spec *spec, int32_t i) {
    const hudi_sql_pushdown *pd = &spec->pushdown[i];
    const hudi_field *f = &spec->table_schema.children[pd->column];
    if (!is_fp(f->type) || pd->op == HUDI_CMP_IS_NULL || pd->op == HUDI_CMP_IS_NOT_NULL)
        return true;
    if (pd->op != HUDI_CMP_EQ && pd->op != HUDI_CMP_LT && pd->op != HUDI_CMP_LE &&
        pd->op != HUDI_CMP_GT && pd->op != HUDI_CMP_GE)
        return false;
    hudi_value v;
    if (const_value(pd, f, &v, NULL) < 0) return false;
    return v.is_null || v.f64 == v.f64;
}

/* The reader's operator for applied predicate i: > and >= on floating point keep NaN rows. */
static hudi_cmp_op reader_op(const hudi_sql_scan_spec *spec, int32_t i) {
    const hudi_sql_pushdown *pd = &spec->pushdown[i];
    if (is_fp(spec->table_schema.children[pd->column].type)) {
        if (pd->op == HUDI_CMP_GT) return HUDI_CMP_GT_TOTAL;
        if (pd->op == HUDI_CMP_GE) return HUDI_CMP_GE_TOTAL;
    }
    return (hudi_cmp_op)pd->op;
}

static int check_pushdown(const hudi_sql_scan_spec *spec, hudi_error *err) {
    for (int32_t i = 0; i < spec->n_pushdown; i++) {
        int32_t c = spec->pushdown[i].column;
        if (c < 0 || c >= spec->table_schema.n_children)
            return hudi_error_set(err, HUDI_EINVAL, "%s: pushed predicate on column %d of %d",
                                  spec->display_name, c, spec->table_schema.n_children);
    }
    for (int32_t i = 0; i < spec->n_columns; i++)
        if (spec->columns[i] < 0 || spec->columns[i] >= spec->table_schema.n_children)
            return hudi_error_set(err, HUDI_EINVAL, "%s: scan column %d of %d", spec->display_name,
                                  spec->columns[i], spec->table_schema.n_children);
    return 0;
}

/* Compares two values of field `f` (as the read layer orders them): <0, 0, >0. */
static int cmp_values(const hudi_field *f, const hudi_value *a, const hudi_value *b) {
    switch (f->type) {
    case HUDI_TYPE_FLOAT:
    case HUDI_TYPE_DOUBLE:
    case HUDI_TYPE_FLOAT16: return (a->f64 > b->f64) - (a->f64 < b->f64);
    case HUDI_TYPE_DECIMAL: return (a->dec > b->dec) - (a->dec < b->dec);
    case HUDI_TYPE_UINT64:
        return ((uint64_t)a->i64 > (uint64_t)b->i64) - ((uint64_t)a->i64 < (uint64_t)b->i64);
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

/* Whether a value `v` (is_null for a null) satisfies `op` `c` - exactly, as the filter above
 * does: a comparison with null is never true; NaN is above every number and equals NaN. */
static bool value_matches(const hudi_field *f, const hudi_value *v, int op, const hudi_value *c) {
    if (op == HUDI_CMP_IS_NULL) return v->is_null;
    if (op == HUDI_CMP_IS_NOT_NULL) return !v->is_null;
    if (v->is_null || c->is_null) return false;
    bool nv = is_fp(f->type) && v->f64 != v->f64, nc = is_fp(f->type) && c->f64 != c->f64;
    int x = nv || nc ? (nv && nc ? 0 : nv ? 1 : -1) : cmp_values(f, v, c);
    switch (op) {
    case HUDI_CMP_EQ: return x == 0;
    case HUDI_CMP_NE: return x != 0;
    case HUDI_CMP_LT: return x < 0;
    case HUDI_CMP_LE: return x <= 0;
    case HUDI_CMP_GT: return x > 0;
    case HUDI_CMP_GE: return x >= 0;
    default: return true;
    }
}

/* ---- Parquet tables: files and partition columns ----------------------------------------- */

typedef struct pq_files {
    char **paths;  /* sorted */
    size_t n, cap; /* paths; slots of values */
    /* Partition columns found in key=value folders below the table's root(s), in folder
     * order, and per file its values (NULL = null: the default partition or absent). */
    char **part_names;
    int32_t n_parts;
    char ***values; /* [file][part] */
} pq_files;

static void pq_files_dispose(pq_files *pf) {
    for (size_t i = 0; i < pf->n; i++) hudi_free(pf->paths[i]);
    for (size_t i = 0; i < pf->cap; i++) {
        if (pf->values && pf->values[i]) {
            for (int32_t k = 0; k < pf->n_parts; k++) hudi_free(pf->values[i][k]);
            hudi_free(pf->values[i]);
        }
    }
    for (int32_t k = 0; k < pf->n_parts; k++) hudi_free(pf->part_names[k]);
    hudi_free(pf->part_names);
    hudi_free(pf->values);
    hudi_free(pf->paths);
    memset(pf, 0, sizeof(*pf));
}

/* One found file and the folder path below its root ("" for none). */
typedef struct found_file {
    char *path;
    char *rel_dir;
} found_file;

static int add_found(hudi_vec *v, const char *path, const char *rel_dir, hudi_error *err) {
    found_file *f = hudi_vec_push(v);
    if (!f || !(f->path = hudi_strdup(path)) || !(f->rel_dir = hudi_strdup(rel_dir)))
        return hudi_error_oom(err);
    return 0;
}

static bool hidden(const char *name) { return name[0] == '_' || name[0] == '.'; }

/* Every data file under `dir` (recursively), skipping names starting with _ or . (Spark's
 * hidden files: _SUCCESS, .crc files, _temporary). */
static int walk(hudi_fs *fs, const char *dir, const char *rel, hudi_vec *out, hudi_error *err) {
    hudi_dir_listing l = {0};
    int rc = hudi_fs_list(fs, dir, &l, err);
    if (rc < 0) return rc;
    hudi_buf path = HUDI_BUF_INIT, sub = HUDI_BUF_INIT;
    for (size_t i = 0; i < l.count && rc == 0; i++) {
        const hudi_dirent *e = &l.entries[i];
        if (hidden(e->name)) continue;
        hudi_buf_clear(&path);
        hudi_buf_clear(&sub);
        hudi_path_join(&path, dir, e->name);
        if (*rel)
            hudi_path_join(&sub, rel, e->name);
        else
            hudi_buf_puts(&sub, e->name);
        if (hudi_buf_failed(&path) || hudi_buf_failed(&sub)) {
            rc = hudi_error_oom(err);
            break;
        }
        if (e->is_dir)
            rc = walk(fs, path.data, sub.data, out, err);
        else
            rc = add_found(out, path.data, rel, err);
    }
    hudi_buf_dispose(&path);
    hudi_buf_dispose(&sub);
    hudi_dir_listing_dispose(&l);
    return rc;
}

static bool has_glob(const char *s) { return strpbrk(s, "*?[") != NULL; }

/* Expands the glob segments segs[k..n) under `dir`: a match that is a folder is walked as a root
 * of its own (Spark discovers partitions below each matched path, not above it). */
static int expand(hudi_fs *fs, const char *dir, char **segs, int k, int n, hudi_vec *out,
                  hudi_error *err) {
    hudi_dir_listing l = {0};
    int rc = hudi_fs_list(fs, dir, &l, err);
    if (rc < 0) return rc == HUDI_ENOTFOUND ? (hudi_error_clear(err), 0) : rc;
    hudi_buf path = HUDI_BUF_INIT;
    for (size_t i = 0; i < l.count && rc == 0; i++) {
        const hudi_dirent *e = &l.entries[i];
        if (hidden(e->name) && e->name[0] != segs[k][0]) continue;
        if (fnmatch(segs[k], e->name, 0) != 0) continue;
        hudi_buf_clear(&path);
        hudi_path_join(&path, dir, e->name);
        if (hudi_buf_failed(&path)) {
            rc = hudi_error_oom(err);
            break;
        }
        if (k + 1 < n) {
            if (e->is_dir) rc = expand(fs, path.data, segs, k + 1, n, out, err);
        } else if (e->is_dir) {
            rc = walk(fs, path.data, "", out, err);
        } else {
            rc = add_found(out, path.data, "", err);
        }
    }
    hudi_buf_dispose(&path);
    hudi_dir_listing_dispose(&l);
    return rc;
}

static int cmp_found(const void *a, const void *b) {
    return strcmp(((const found_file *)a)->path, ((const found_file *)b)->path);
}

/* Spark's ExternalCatalogUtils.unescapePathName: %XX escapes decoded. */
static char *unescape(const char *s, size_t n) {
    hudi_buf b = HUDI_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        unsigned hi, lo;
        if (s[i] == '%' && i + 2 < n && sscanf(s + i + 1, "%1x%1x", &hi, &lo) == 2) {
            hudi_buf_putc(&b, (char)(hi * 16 + lo));
            i += 2;
        } else {
            hudi_buf_putc(&b, s[i]);
        }
    }
    if (hudi_buf_failed(&b)) {
        hudi_buf_dispose(&b);
        return NULL;
    }
    if (!b.data) return hudi_strdup("");
    return hudi_buf_detach(&b);
}

/* The trailing key=value segments of a folder path (Spark's parsePartition stops at the first
 * folder, from the leaf up, that is not key=value). */
static int parse_parts(const char *rel_dir, char ***names, char ***values, int32_t *n,
                       hudi_error *err) {
    const char *segs[128];
    int32_t ns = 0;
    *names = *values = NULL;
    *n = 0;
    for (const char *p = rel_dir; *p && ns < 128;) {
        segs[ns++] = p;
        const char *sl = strchr(p, '/');
        p = sl ? sl + 1 : p + strlen(p);
    }
    int32_t first = ns;
    while (first > 0) {
        const char *s = segs[first - 1];
        const char *end = strchr(s, '/');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        const char *eq = memchr(s, '=', len);
        if (!eq || eq == s) break;
        first--;
    }
    if (first == ns) return 0;
    *names = hudi_calloc((size_t)(ns - first) + 1, sizeof(char *));
    *values = hudi_calloc((size_t)(ns - first) + 1, sizeof(char *));
    if (!*names || !*values) return hudi_error_oom(err);
    for (int32_t i = first; i < ns; i++) {
        const char *s = segs[i];
        const char *end = strchr(s, '/');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        const char *eq = memchr(s, '=', len);
        size_t vl = len - (size_t)(eq + 1 - s);
        char *name = unescape(s, (size_t)(eq - s));
        char *val = (vl == strlen(PART_DEFAULT) && strncmp(eq + 1, PART_DEFAULT, vl) == 0)
                        ? NULL
                        : unescape(eq + 1, vl);
        (*names)[*n] = name;
        (*values)[*n] = val;
        (*n)++;
        if (!name || (!val && strncmp(eq + 1, PART_DEFAULT, vl) != 0)) return hudi_error_oom(err);
    }
    return 0;
}

static void free_strs(char **v, int32_t n) {
    if (!v) return;
    for (int32_t i = 0; i < n; i++) hudi_free(v[i]);
    hudi_free(v);
}

/* The declared partition column names of a Parquet entry (comma separated), or none. */
static int declared_parts(const hudi_catalog_table *e, char ***out, int32_t *n, hudi_error *err) {
    *out = NULL;
    *n = 0;
    if (!e->partition_columns || !*e->partition_columns) return 0;
    int32_t cap = 1;
    for (const char *p = e->partition_columns; *p; p++) cap += *p == ',';
    if (!(*out = hudi_calloc((size_t)cap + 1, sizeof(char *)))) return hudi_error_oom(err);
    const char *p = e->partition_columns;
    for (;;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        while (len > 0 && *p == ' ') p++, len--;
        while (len > 0 && p[len - 1] == ' ') len--;
        if (len > 0 && !((*out)[(*n)++] = hudi_strndup(p, len))) return hudi_error_oom(err);
        if (!c) break;
        p = c + 1;
    }
    return 0;
}

/* Lists the files of a Parquet table entry and their partition values. */
static int pq_discover(hudi_fs *fs, const hudi_catalog_table *e, pq_files *out, hudi_error *err) {
    hudi_vec found = HUDI_VEC_INIT(found_file);
    const char *loc = e->location;
    int rc = 0;
    memset(out, 0, sizeof(*out));
    if (!fs) return hudi_error_set(err, HUDI_EINVAL, "%s: no session file system", loc);
    if (has_glob(loc)) {
        /* Split into '/' segments; the leading ones without glob characters are the root. */
        char *copy = hudi_strdup(loc);
        char *segs[256];
        int n = 0;
        if (!copy) return hudi_error_oom(err);
        for (char *save = NULL, *t = strtok_r(copy, "/", &save); t && n < 256;
             t = strtok_r(NULL, "/", &save))
            segs[n++] = t;
        int k = 0;
        hudi_buf root = HUDI_BUF_INIT;
        if (loc[0] == '/') hudi_buf_putc(&root, '/');
        for (; k < n && !has_glob(segs[k]); k++) {
            if (root.len > 1 || (root.len == 1 && root.data[0] != '/')) hudi_buf_putc(&root, '/');
            hudi_buf_puts(&root, segs[k]);
        }
        if (!root.data) hudi_buf_putc(&root, '.');
        rc = hudi_buf_failed(&root) ? hudi_error_oom(err)
                                    : expand(fs, root.data, segs, k, n, &found, err);
        hudi_buf_dispose(&root);
        hudi_free(copy);
        if (rc == 0 && found.len == 0 && e->schema.n_children == 0)
            rc = hudi_error_set(err, HUDI_ENOTFOUND, "Path does not exist: %s", loc);
    } else {
        hudi_stat st;
        if ((rc = hudi_fs_stat(fs, loc, &st, err)) < 0) {
            /* A table with declared columns reads as empty until its folder exists (Spark
             * skips the existence check for catalog tables); a bare path must exist. */
            if (rc == HUDI_ENOTFOUND && e->schema.n_children > 0) {
                hudi_error_clear(err);
                rc = 0;
            } else if (rc == HUDI_ENOTFOUND) {
                rc = hudi_error_set(err, HUDI_ENOTFOUND, "Path does not exist: %s", loc);
            }
        } else if (st.is_dir) {
            rc = walk(fs, loc, "", &found, err);
        } else {
            rc = add_found(&found, loc, "", err);
        }
    }
    found_file *ff = found.data;
    if (rc == 0 && found.len > 1) qsort(ff, found.len, sizeof(found_file), cmp_found);
    char **decl = NULL;
    int32_t n_decl = 0;
    if (rc == 0) rc = declared_parts(e, &decl, &n_decl, err);
    if (rc == 0 && !(out->paths = hudi_calloc(found.len + 1, sizeof(char *))))
        rc = hudi_error_oom(err);
    if (rc == 0 && !(out->values = hudi_calloc(found.len + 1, sizeof(char **))))
        rc = hudi_error_oom(err);
    if (rc == 0) out->cap = found.len; /* values[] slots to dispose */
    for (size_t i = 0; rc == 0 && i < found.len; i++) {
        char **names = NULL, **values = NULL;
        int32_t np = 0;
        rc = parse_parts(ff[i].rel_dir, &names, &values, &np, err);
        if (rc == 0 && i == 0) {
            /* The columns: declared ones, else the first file's folder names. */
            if (n_decl > 0) {
                out->part_names = decl;
                out->n_parts = n_decl;
                decl = NULL;
            } else if (np > 0) {
                out->part_names = names;
                out->n_parts = np;
                names = NULL;
                if (!(names = hudi_calloc((size_t)np + 1, sizeof(char *))))
                    rc = hudi_error_oom(err);
                for (int32_t k = 0; rc == 0 && k < np; k++)
                    if (!(names[k] = hudi_strdup(out->part_names[k]))) rc = hudi_error_oom(err);
            }
        }
        if (rc == 0 && n_decl == 0 && out->n_parts > 0) {
            bool same = np == out->n_parts;
            for (int32_t k = 0; same && k < np; k++)
                same = strcasecmp(names[k], out->part_names[k]) == 0;
            if (!same)
                rc = hudi_error_set(err, HUDI_EINVAL,
                                    "Conflicting partition column names detected: %s has "
                                    "partition folders '%s', %s has %d partition column(s)",
                                    e->location, ff[i].rel_dir, ff[0].path, out->n_parts);
        } else if (rc == 0 && n_decl == 0 && np > 0 && i > 0) {
            rc = hudi_error_set(err, HUDI_EINVAL,
                                "Conflicting directory structures detected under %s: %s has "
                                "partition folders, %s has none",
                                e->location, ff[i].path, ff[0].path);
        }
        if (rc == 0 && out->n_parts > 0 &&
            !(out->values[i] = hudi_calloc((size_t)out->n_parts + 1, sizeof(char *))))
            rc = hudi_error_oom(err);
        for (int32_t k = 0; rc == 0 && k < out->n_parts; k++)
            for (int32_t j = 0; j < np; j++)
                if (strcasecmp(names[j], out->part_names[k]) == 0 && values[j]) {
                    if (!(out->values[i][k] = hudi_strdup(values[j]))) rc = hudi_error_oom(err);
                    break;
                }
        free_strs(names, np);
        free_strs(values, np);
        if (rc == 0) {
            out->paths[i] = ff[i].path;
            ff[i].path = NULL;
            out->n++;
        }
    }
    for (size_t i = 0; i < found.len; i++) {
        hudi_free(ff[i].path);
        hudi_free(ff[i].rel_dir);
    }
    hudi_vec_dispose(&found);
    free_strs(decl, n_decl);
    if (rc < 0) pq_files_dispose(out);
    return rc;
}

/* Number of data (non-partition) columns of a Parquet scan's table_schema. */
static int32_t pq_data_columns(const hudi_sql_scan_spec *spec, const pq_files *pf) {
    return spec->table_schema.n_children - pf->n_parts;
}

static bool is_part_name(const pq_files *pf, const char *name) {
    for (int32_t k = 0; k < pf->n_parts; k++)
        if (strcasecmp(pf->part_names[k], name) == 0) return true;
    return false;
}

/* Spark's inference of a partition column's type from one folder value
 * (PartitioningUtils.inferPartitionColumnValue): int, else long, else decimal(digits, 0) for an
 * integer of up to 38 digits, else double, else date (yyyy-MM-dd), else string. Spark also
 * tries timestamps ("yyyy-MM-dd HH:mm:ss[.S]" in the session zone) before dates; hudic keeps
 * those as strings. */
static void infer_value(const char *v, hudi_type_id *type, int32_t *precision) {
    size_t n = strlen(v);
    int64_t i;
    double d;
    int64_t days;
    size_t k = (v[0] == '-' || v[0] == '+') ? 1 : 0, j;
    bool integer = n > k;
    for (j = k; j < n; j++) integer &= v[j] >= '0' && v[j] <= '9';
    for (j = k; j + 1 < n && v[j] == '0';) j++; /* leading zeros do not count */
    size_t digits = integer ? n - j : 0;
    *precision = 0;
    if (integer && hudi_parse_i64(v, n, &i) == 0) {
        *type = i >= INT32_MIN && i <= INT32_MAX ? HUDI_TYPE_INT32 : HUDI_TYPE_INT64;
    } else if (integer && digits <= 38) {
        *type = HUDI_TYPE_DECIMAL;
        *precision = (int32_t)digits;
    } else if (n > 0 && hudi_parse_double(v, n, &d) == 0) {
        *type = HUDI_TYPE_DOUBLE;
    } else if (n == 10 && hudi_parse_date(v, n, &days) == 0) {
        *type = HUDI_TYPE_DATE;
    } else {
        *type = HUDI_TYPE_STRING;
    }
}

/* The wider of two different inferred types (Spark's findWiderTypeForPartitionColumn):
 * int < long < decimal (at least as wide as the integers it meets), int < double; a double with
 * a long or a decimal, and any other pair, is a string. */
static void widen_inferred(hudi_type_id *t, int32_t *p, hudi_type_id u, int32_t q) {
    static const int rank[HUDI_TYPE_COUNT_] = {[HUDI_TYPE_INT32] = 1,
                                               [HUDI_TYPE_INT64] = 2,
                                               [HUDI_TYPE_DECIMAL] = 3,
                                               [HUDI_TYPE_DOUBLE] = 4};
    if (*t == u) {
        *p = HUDI_MAX(*p, q);
        return;
    }
    /* no precision loss: a double meets only ints, else both are strings */
    bool dbl = *t == HUDI_TYPE_DOUBLE || u == HUDI_TYPE_DOUBLE;
    bool other_int = *t == HUDI_TYPE_INT32 || u == HUDI_TYPE_INT32;
    if (!rank[*t] || !rank[u] || (dbl && !other_int)) {
        *t = HUDI_TYPE_STRING;
        *p = 0;
        return;
    }
    int32_t ip = HUDI_MAX(*t == HUDI_TYPE_INT32 || u == HUDI_TYPE_INT32 ? 10 : 0,
                          *t == HUDI_TYPE_INT64 || u == HUDI_TYPE_INT64 ? 20 : 0);
    if (rank[u] > rank[*t]) *t = u;
    *p = *t == HUDI_TYPE_DECIMAL ? HUDI_MIN(38, HUDI_MAX(HUDI_MAX(*p, q), ip)) : 0;
}

/* The type of discovered partition column k over every file's value (nulls aside); STRING
 * when spark.sql.sources.partitionColumnTypeInference.enabled is false. */
static void infer_part_type(const hudi_sql_ctx *ctx, const pq_files *pf, int32_t k, hudi_field *f) {
    const hudi_sql_session *s = ctx->session;
    const char *conf =
        s ? hudi_sql_conf_get(s, "spark.sql.sources.partitionColumnTypeInference.enabled") : NULL;
    hudi_type_id t = HUDI_TYPE_NULL;
    int32_t p = 0;
    for (size_t i = 0; i < pf->n && !(conf && strcasecmp(conf, "false") == 0); i++) {
        const char *v = pf->values[i] ? pf->values[i][k] : NULL;
        if (!v) continue;
        hudi_type_id u;
        int32_t q;
        infer_value(v, &u, &q);
        if (t == HUDI_TYPE_NULL) {
            t = u;
            p = q;
        } else {
            widen_inferred(&t, &p, u, q);
        }
    }
    f->type = t == HUDI_TYPE_NULL ? HUDI_TYPE_STRING : t; /* all null: Spark says string */
    f->precision = p;
    f->scale = 0;
}

/* table_schema of a Parquet entry: the declared columns (or the first file's), partition
 * columns last - declared ones with their declared type, discovered ones with the type Spark
 * infers from the folder values (infer_value). */
static int pq_prepare(hudi_sql_ctx *ctx, hudi_sql_scan_spec *spec, hudi_error *err) {
    const hudi_catalog_table *e = spec->entry;
    pq_files pf;
    hudi_pq_file *file = NULL;
    int rc = pq_discover(session_fs(ctx), e, &pf, err);
    if (rc < 0) return rc;
    const hudi_field *data = NULL;
    if (e->schema.n_children > 0) {
        data = &e->schema;
    } else if (pf.n > 0) {
        if ((rc = hudi_pq_open(&file, session_fs(ctx), pf.paths[0], NULL, err)) < 0) goto done;
        data = hudi_pq_schema(file);
    } else {
        rc = hudi_error_set(err, HUDI_EINVAL,
                            "Unable to infer schema for Parquet at %s: it has no data files, "
                            "and the table declares no columns",
                            e->location);
        goto done;
    }
    int32_t n = 0;
    for (int32_t i = 0; i < data->n_children; i++) n += !is_part_name(&pf, data->children[i].name);
    hudi_field *st = &spec->table_schema;
    memset(st, 0, sizeof(*st));
    st->type = HUDI_TYPE_STRUCT;
    st->field_id = -1;
    st->name = hudi_arena_strdup(ctx->arena, "schema");
    st->n_children = n + pf.n_parts;
    st->children = hudi_arena_alloc(ctx->arena, (size_t)(st->n_children + 1) * sizeof(hudi_field));
    if (!st->name || !st->children) {
        rc = hudi_error_oom(err);
        goto done;
    }
    int32_t k = 0;
    for (int32_t i = 0; i < data->n_children && rc == 0; i++)
        if (!is_part_name(&pf, data->children[i].name))
            rc = arena_field_copy(ctx->arena, &st->children[k++], &data->children[i], err);
    for (int32_t p = 0; p < pf.n_parts && rc == 0; p++) {
        int d = e->schema.n_children > 0 ? find_field(&e->schema, pf.part_names[p]) : -1;
        if (d >= 0) {
            rc = arena_field_copy(ctx->arena, &st->children[k], &e->schema.children[d], err);
        } else {
            hudi_field *f = &st->children[k];
            memset(f, 0, sizeof(*f));
            infer_part_type(ctx, &pf, p, f);
            f->nullable = true;
            f->field_id = -1;
            f->unit = HUDI_UNIT_MICROS;
            if (!(f->name = hudi_arena_strdup(ctx->arena, pf.part_names[p])))
                rc = hudi_error_oom(err);
        }
        if (rc == 0 && hudi_type_is_nested(st->children[k].type))
            rc =
                hudi_error_set(err, HUDI_EINVAL, "%s: partition column %s cannot be %s",
                               e->location, pf.part_names[p], hudi_type_name(st->children[k].type));
        k++;
    }
done:
    hudi_pq_close(file);
    pq_files_dispose(&pf);
    return rc;
}

/* ---- prepare ----------------------------------------------------------------------------- */

static int hudi_prepare(hudi_sql_ctx *ctx, hudi_sql_scan_spec *spec, hudi_error *err) {
    int rc;
    if (!spec->table) {
        hudi_table *t = NULL;
        if ((rc = hudi_tbl_open(&t, session_fs(ctx), spec->entry->location, err)) < 0) return rc;
        if ((rc = hudi_sql_result_own_table(hudi_sql_result_of(ctx), t, err)) < 0) return rc;
        spec->table = t;
    }
    /* TIMESTAMP AS OF as written (the binder passes the constant's text): an instant. */
    if (spec->as_of_instant && (rc = hudi_sql_scan_as_of(ctx, spec->table, spec->as_of_instant,
                                                         &spec->as_of_instant, err)) < 0)
        return hudi_error_wrap(err, "%s", spec->display_name), rc;
    hudi_scan_options o = HUDI_SCAN_OPTIONS_INIT;
    o.as_of_instant = spec->as_of_instant;
    o.begin_instant = spec->begin_instant;
    o.end_instant = spec->end_instant;
    o.read_optimized = spec->read_optimized;
    hudi_field full = {0}, withmeta = {0};
    if ((rc = hudi_read_table_schema(&full, spec->table, &o, err)) < 0) return rc;
    const hudi_field *src = &full;
    /* Tables without meta fields (hoodie.populate.meta.fields=false) still show the five
     * columns, as null, as Hudi's Spark schema does. */
    bool missing = false;
    for (int i = 0; i < HUDI_META_FIELD_COUNT; i++)
        missing |= find_field(&full, hudi_meta_field_names[i]) < 0;
    if (missing && full.n_children > 0) {
        if ((rc = hudi_schema_add_meta_fields(&withmeta, &full, err)) < 0) goto done;
        src = &withmeta;
    }
    hudi_field ordered = {0};
    if ((rc = hudi_sql_partition_columns_last(&ordered, src, spec->table->cfg.partition_fields,
                                              err)) < 0)
        goto done;
    rc = arena_field_copy(ctx->arena, &spec->table_schema, &ordered, err);
    hudi_field_dispose(&ordered);
done:
    hudi_field_dispose(&full);
    hudi_field_dispose(&withmeta);
    return rc;
}

/* Spark's catalog lists a table's partition columns after its data columns, in the order of
 * the partition fields; Hudi's schema keeps them where the writer put them (a DataFrame
 * write: anywhere; ADD COLUMNS under schema on read: the new column after them). SQL sees
 * Spark's order: SELECT *, DESCRIBE and INSERT's column positions. */
int hudi_sql_partition_columns_last(hudi_field *out, const hudi_field *in,
                                    const char *partition_fields, hudi_error *err) {
    if (hudi_field_copy(out, in) < 0) return hudi_error_oom(err);
    if (!partition_fields || !*partition_fields) return 0;
    int32_t n = out->n_children, w = 0;
    hudi_field *tmp = hudi_calloc((size_t)n + 1, sizeof(hudi_field));
    bool *is_part = hudi_calloc((size_t)n + 1, sizeof(bool));
    if (!tmp || !is_part) {
        hudi_free(tmp);
        hudi_free(is_part);
        hudi_field_dispose(out);
        return hudi_error_oom(err);
    }
    /* data columns in order, then each partition field in the order of the property */
    for (const char *p = partition_fields; *p;) {
        size_t len = strcspn(p, ",");
        for (int32_t i = 0; i < n; i++)
            if (!is_part[i] && strlen(out->children[i].name) == len &&
                strncmp(out->children[i].name, p, len) == 0)
                is_part[i] = true;
        p += len + (p[len] == ',');
    }
    for (int32_t i = 0; i < n; i++)
        if (!is_part[i]) tmp[w++] = out->children[i];
    for (const char *p = partition_fields; *p;) {
        size_t len = strcspn(p, ",");
        for (int32_t i = 0; i < n; i++)
            if (is_part[i] && strlen(out->children[i].name) == len &&
                strncmp(out->children[i].name, p, len) == 0) {
                tmp[w++] = out->children[i];
                is_part[i] = false; /* taken */
            }
        p += len + (p[len] == ',');
    }
    memcpy(out->children, tmp, (size_t)n * sizeof(hudi_field));
    hudi_free(tmp);
    hudi_free(is_part);
    return 0;
}

int hudi_sql_scan_prepare(hudi_sql_ctx *ctx, hudi_sql_scan_spec *spec, hudi_error *err) {
    if (!spec->entry) return hudi_error_set(err, HUDI_EINVAL, "scan without a table entry");
    if (!spec->display_name) spec->display_name = spec->entry->location;
    if (spec->entry->provider == HUDI_CATALOG_PARQUET) {
        if (spec->as_of_instant || spec->begin_instant || spec->end_instant)
            return hudi_error_set(err, HUDI_EINVAL,
                                  "%s: time travel and incremental queries need a Hudi table",
                                  spec->display_name);
        return pq_prepare(ctx, spec, err);
    }
    return hudi_prepare(ctx, spec, err);
}

/* ---- the operator -------------------------------------------------------------------------- */

/* Points a moved array (and its children) at the output schema's fields; widens numbers to
 * the table type (older files of a table keep narrower types). */
static int conform(hudi_array **slot, const hudi_field *f, const char *file, hudi_error *err) {
    hudi_array *a = *slot;
    if (a->field->type != f->type && hudi_type_can_widen(a->field, f)) {
        hudi_array *w = NULL;
        int rc = hudi_array_widen(&w, a, f, err);
        if (rc < 0) return rc;
        hudi_array_free(a);
        *slot = w;
        return 0;
    }
    if (a->field->type != f->type || a->n_children != f->n_children)
        return hudi_error_set(
            err, HUDI_EUNSUPPORTED, "%s: column %s has type %s in this file and %s in the table",
            file, f->name ? f->name : "", hudi_type_name(a->field->type), hudi_type_name(f->type));
    a->field = f;
    for (int32_t i = 0; i < a->n_children; i++) {
        int rc = conform(&a->children[i], &f->children[i], file, err);
        if (rc < 0) return rc;
    }
    return 0;
}

typedef struct scan_op {
    hudi_sql_oper base;
    hudi_sql_scan_spec *spec;
    hudi_field schema; /* output STRUCT (arena) */
    hudi_batch *out;
    bool done; /* a pushed predicate no row can satisfy, or the end */
    /* Hudi tables */
    hudi_reader *r;
    int32_t *map; /* output column -> column of the source batch, -1 = null column (Parquet:
                   * <= -2 = partition column -2 - map) */
    /* Parquet tables */
    pq_files files;
    size_t next_file;
    hudi_pq_file *pf;
    hudi_pq_scan *scan;
    hudi_batch *in;
    int32_t n_data;
    hudi_array **part_value; /* per partition column: the current file's value (1 row) */
    hudi_pq_predicate *preds;
    hudi_value *values; /* converted pushdown constants */
    int64_t shown[3];   /* files done, files to read and rows last added to ctx->progress */
} scan_op;

/* Adds this scan's advance to the statement's progress (a query may run several scans). */
static void report(scan_op *s, int64_t done, int64_t total, int64_t rows) {
    hudi_progress *p = s->base.ctx->progress;
    if (!p) return;
    atomic_fetch_add(&p->done, done - s->shown[0]);
    atomic_fetch_add(&p->total, total - s->shown[1]);
    atomic_fetch_add(&p->rows, rows - s->shown[2]);
    int phase = 0;
    atomic_compare_exchange_strong(&p->phase, &phase, HUDI_PROGRESS_PHASE_SCAN);
    s->shown[0] = done;
    s->shown[1] = total;
    s->shown[2] = rows;
}

static void scan_free(hudi_sql_oper *base) {
    scan_op *s = (scan_op *)base;
    hudi_batch_free(s->out);
    hudi_reader_free(s->r);
    hudi_batch_free(s->in);
    hudi_pq_scan_free(s->scan);
    hudi_pq_close(s->pf);
    if (s->part_value)
        for (int32_t k = 0; k < s->files.n_parts; k++) hudi_array_free(s->part_value[k]);
    hudi_free(s->part_value);
    pq_files_dispose(&s->files);
    hudi_free(s->map);
    hudi_free(s->preds);
    hudi_free(s->values);
    hudi_free(s);
}

/* Empties the output batch (its arrays belong to the operator until the next call). */
static void clear_out(scan_op *s) {
    for (int32_t i = 0; i < s->out->n_columns; i++) {
        hudi_array_free(s->out->columns[i]);
        s->out->columns[i] = NULL;
    }
    s->out->num_rows = 0;
}

/* Fills output column i from source column `c` of `in` (moved; a second use is copied). */
static int take_column(scan_op *s, int32_t i, hudi_batch *in, int32_t c, const char *file,
                       hudi_error *err) {
    int rc;
    if (in->columns[c]) {
        s->out->columns[i] = in->columns[c];
        in->columns[c] = NULL;
        return conform(&s->out->columns[i], &s->schema.children[i], file, err);
    }
    for (int32_t j = 0; j < i; j++) /* moved already for an earlier output column */
        if (s->map[j] == c)
            return hudi_array_slice(&s->out->columns[i], s->out->columns[j], 0,
                                    s->out->columns[j]->length, err);
    if ((rc = hudi_array_new(&s->out->columns[i], &s->schema.children[i], err)) < 0) return rc;
    return hudi_array_append_nulls(s->out->columns[i], in->num_rows, err);
}

static int null_column(scan_op *s, int32_t i, int64_t rows, hudi_error *err) {
    int rc = hudi_array_new(&s->out->columns[i], &s->schema.children[i], err);
    return rc < 0 ? rc : hudi_array_append_nulls(s->out->columns[i], rows, err);
}

static void update_counts(scan_op *s) {
    const hudi_read_stats *st = hudi_reader_stats(s->r);
    s->spec->files_total = st->files_total;
    s->spec->files_pruned = st->files_pruned;
    s->spec->files_read = st->files_opened;
    s->spec->row_groups_skipped = st->row_groups_skipped;
    s->spec->rows_read = st->rows_read;
    report(s, st->files_opened, st->files_total - st->files_pruned, st->rows_read);
}

static int hudi_next(hudi_sql_oper *base, hudi_batch **out, hudi_error *err) {
    scan_op *s = (scan_op *)base;
    int rc;
    *out = NULL;
    clear_out(s);
    if (s->done) return 0;
    if ((rc = check_cancel(s->base.ctx, err)) < 0) return rc;
    hudi_batch *b = NULL;
    rc = hudi_reader_next(s->r, &b, err);
    update_counts(s);
    if (rc < 0) return hudi_error_wrap(err, "%s", s->spec->display_name), rc;
    if (!b) {
        s->done = true;
        return 0;
    }
    for (int32_t i = 0; i < s->spec->n_columns; i++) {
        rc = s->map[i] >= 0 ? take_column(s, i, b, s->map[i], s->spec->display_name, err)
                            : null_column(s, i, b->num_rows, err);
        if (rc < 0) return rc;
    }
    s->out->num_rows = b->num_rows;
    *out = s->out;
    return 0;
}

/* The five meta columns of a table that does not populate them: all null. */
static bool synthetic_column(const hudi_sql_scan_spec *spec, const char *name) {
    if (spec->table->cfg.populate_meta_fields) return false;
    for (int i = 0; i < HUDI_META_FIELD_COUNT; i++)
        if (strcmp(name, hudi_meta_field_names[i]) == 0) return true;
    return false;
}

/* Converts the pushdown into read-layer predicates (from[k]: the pushdown index of predicate
 * k) and lists the IN lists (`ins`, n_ins of them: pushdown indices); sets *none when no row
 * can match. */
static int hudi_preds(const hudi_sql_scan_spec *spec, hudi_read_predicate *preds, int32_t *from,
                      int32_t *n, int32_t *ins, int32_t *n_ins, bool *none, hudi_error *err) {
    *n = *n_ins = 0;
    *none = false;
    for (int32_t i = 0; i < spec->n_pushdown; i++) {
        const hudi_sql_pushdown *pd = &spec->pushdown[i];
        const hudi_field *f = &spec->table_schema.children[pd->column];
        hudi_value v;
        if (!applied(spec, i)) continue;
        if (pd->op == HUDI_SQL_PUSH_IN) { /* skipping only: hudi_open_reader */
            if (synthetic_column(spec, f->name))
                *none = true;
            else
                ins[(*n_ins)++] = i;
            continue;
        }
        int rc = const_value(pd, f, &v, err);
        if (rc < 0) return hudi_error_wrap(err, "%s", spec->display_name), rc;
        if (synthetic_column(spec, f->name)) {
            *none |= pd->op != HUDI_CMP_IS_NULL;
            continue;
        }
        from[*n] = i;
        preds[(*n)++] = (hudi_read_predicate){f->name, reader_op(spec, i), v};
    }
    return 0;
}

/* Gives the reader the IN lists: record keys to probe for (hudi_reader_want_keys) and
 * partitions to prune (hudi_reader_prune_in); each column decides which applies. */
static int hudi_push_ins(hudi_reader *r, const hudi_sql_scan_spec *spec, const int32_t *ins,
                         int32_t n_ins, hudi_error *err) {
    int rc = 0;
    for (int32_t j = 0; j < n_ins && rc == 0; j++) {
        const hudi_sql_pushdown *pd = &spec->pushdown[ins[j]];
        const hudi_field *f = &spec->table_schema.children[pd->column];
        hudi_value *vals = NULL;
        int32_t n = 0;
        if ((rc = in_values(pd, f, &vals, &n, err)) < 0) break;
        rc = hudi_reader_want_keys(r, f->name, vals, n, err);
        if (rc == 0) rc = hudi_reader_prune_in(r, f->name, vals, n, err);
        hudi_free(vals);
    }
    return rc;
}

/* Opens the read layer's reader over the scan's columns (those the files have) and the pushed
 * predicates. `map` (may be NULL) receives output column -> reader column, `from` (may be
 * NULL; n_pushdown entries) the pushdown index of each reader predicate, then of each IN list
 * (hudi_read_file_info.pruned_by numbers them so). */
static int hudi_open_reader(hudi_sql_ctx *ctx, hudi_sql_scan_spec *spec, hudi_reader **out,
                            int32_t *map, int32_t *from, bool *none, hudi_error *err) {
    const char **names = hudi_calloc((size_t)spec->n_columns + 1, sizeof(char *));
    hudi_read_predicate *preds = hudi_calloc((size_t)spec->n_pushdown + 1, sizeof(*preds));
    int32_t *from_buf = hudi_calloc((size_t)spec->n_pushdown + 1, sizeof(int32_t));
    int32_t *ins = hudi_calloc((size_t)spec->n_pushdown + 1, sizeof(int32_t));
    int32_t n_names = 0, n_preds = 0, n_ins = 0;
    int rc = 0;
    if (!names || !preds || !from_buf || !ins) {
        rc = hudi_error_oom(err);
        goto done;
    }
    for (int32_t i = 0; i < spec->n_columns; i++) {
        const char *name = spec->table_schema.children[spec->columns[i]].name;
        int32_t at = -1;
        if (!synthetic_column(spec, name)) {
            for (int32_t k = 0; k < n_names && at < 0; k++)
                if (strcmp(names[k], name) == 0) at = k;
            if (at < 0) names[at = n_names++] = name;
        }
        if (map) map[i] = at;
    }
    if ((rc = hudi_preds(spec, preds, from_buf, &n_preds, ins, &n_ins, none, err)) < 0) goto done;
    if (from) {
        memcpy(from, from_buf, sizeof(int32_t) * (size_t)n_preds);
        memcpy(from + n_preds, ins, sizeof(int32_t) * (size_t)n_ins);
    }
    hudi_scan_options o = HUDI_SCAN_OPTIONS_INIT;
    o.columns = names; /* non-NULL even when empty: no column but the row count */
    o.n_columns = n_names;
    o.as_of_instant = spec->as_of_instant;
    /* hudi_table_changes(..., 'earliest'): Hudi's HoodieTableChangesOptionsParser reads it as
     * the begin instant "000", before every commit. */
    o.begin_instant = spec->begin_instant && strcmp(spec->begin_instant, "earliest") == 0
                          ? "000"
                          : spec->begin_instant;
    o.end_instant = spec->end_instant;
    o.read_optimized = spec->read_optimized;
    o.batch_rows = ctx->batch_rows;
    if ((rc = hudi_reader_open_preds(out, spec->table, &o, preds, n_preds, err)) < 0 ||
        (rc = hudi_push_ins(*out, spec, ins, n_ins, err)) < 0 ||
        (rc = hudi_reader_set_threads(*out, ctx->threads, ctx->cancel, err)) < 0) {
        hudi_reader_free(*out);
        *out = NULL;
        hudi_error_wrap(err, "%s", spec->display_name);
    }
done:
    hudi_free(names);
    hudi_free(preds);
    hudi_free(from_buf);
    hudi_free(ins);
    return rc;
}

/* ---- Parquet tables -------------------------------------------------------------------------- */

/* The 1-row value of partition column k for file i, in its table type. */
static int fill_part_value(scan_op *s, size_t file, int32_t k, hudi_array **out, hudi_error *err) {
    const hudi_field *f = &s->spec->table_schema.children[s->n_data + k];
    const char *text = s->files.values[file] ? s->files.values[file][k] : NULL;
    int rc = hudi_array_new(out, f, err);
    if (rc < 0) return rc;
    if (!text) return hudi_array_append_null(*out, err);
    if (f->type == HUDI_TYPE_STRING) return hudi_array_append_bytes(*out, text, strlen(text), err);
    /* A declared type: the folder's text converted as a CAST would (not valid: null). */
    hudi_value v;
    hudi_buf bytes = HUDI_BUF_INIT;
    if (hudi_value_parse(&v, &bytes, text, true, false, f, NULL) < 0) {
        hudi_buf_dispose(&bytes);
        return hudi_array_append_null(*out, err);
    }
    uint8_t raw[16] = {0};
    switch (f->type) {
    case HUDI_TYPE_BOOL: rc = hudi_array_append_bool(*out, v.i64 != 0, err); break;
    case HUDI_TYPE_FLOAT: {
        float x = (float)v.f64;
        rc = hudi_array_append_fixed(*out, &x, err);
        break;
    }
    case HUDI_TYPE_DOUBLE: rc = hudi_array_append_fixed(*out, &v.f64, err); break;
    case HUDI_TYPE_DECIMAL: rc = hudi_array_append_fixed(*out, &v.dec, err); break;
    case HUDI_TYPE_BINARY:
    case HUDI_TYPE_FIXED_BINARY:
        rc = hudi_array_append_bytes(*out, v.bytes.data, v.bytes.len, err);
        break;
    default: {
        int w = hudi_type_width(f);
        if (w <= 0 || w > 8) {
            rc = hudi_array_append_null(*out, err);
            break;
        }
        memcpy(raw, &v.i64, (size_t)w); /* little-endian: the low bytes */
        rc = hudi_array_append_fixed(*out, raw, err);
    }
    }
    hudi_buf_dispose(&bytes);
    return rc;
}

/* fill_part_value, with nothing left behind on failure. */
static int part_value(scan_op *s, size_t file, int32_t k, hudi_array **out, hudi_error *err) {
    int rc = fill_part_value(s, file, k, out, err);
    if (rc < 0) {
        hudi_array_free(*out);
        *out = NULL;
    }
    return rc;
}

/* Whether file i can hold rows satisfying the pushed predicates on partition columns; sets
 * *why to the first predicate that excludes it. */
static int file_partition_match(scan_op *s, size_t file, bool *match, int32_t *why,
                                hudi_error *err) {
    *match = true;
    *why = -1;
    for (int32_t i = 0; i < s->spec->n_pushdown && *match; i++) {
        const hudi_sql_pushdown *pd = &s->spec->pushdown[i];
        int32_t k = pd->column - s->n_data;
        if (k < 0 || !applied(s->spec, i)) continue;
        hudi_array *a = NULL;
        int rc = part_value(s, file, k, &a, err);
        if (rc < 0) return rc;
        const hudi_field *f = &s->spec->table_schema.children[pd->column];
        hudi_sql_pushdown one = {0, HUDI_CMP_EQ, a, NULL};
        hudi_value v, c;
        rc = const_value(&one, f, &v, err);
        if (rc == 0 && pd->op == HUDI_SQL_PUSH_IN) { /* any value of the list */
            *match = false;
            for (int64_t r = 0; rc == 0 && !*match && r < pd->value->length; r++)
                if ((rc = const_value_at(pd, f, r, &c, err)) == 0)
                    *match = value_matches(f, &v, HUDI_CMP_EQ, &c);
        } else if (rc == 0) {
            *match = value_matches(f, &v, pd->op, &s->values[i]);
        }
        if (rc == 0 && !*match) *why = i;
        hudi_array_free(a);
        if (rc < 0) return rc;
    }
    return 0;
}

/* Appends `n` copies of the 1-row array `v` to the empty array `a` (a partition column's
 * value for a whole batch): strings and fixed-width values are copied into the buffers
 * directly, other types row by row. */
static int repeat_value(hudi_array *a, const hudi_array *v, int64_t n, hudi_error *err) {
    if (!hudi_array_is_valid(v, 0)) return hudi_array_append_nulls(a, n, err);
    hudi_type_id t = a->field->type;
    int w = hudi_type_width(a->field);
    int rc;
    if (a->length == 0 && !a->validity && (t == HUDI_TYPE_STRING || t == HUDI_TYPE_BINARY)) {
        int64_t len = v->offsets[1] - v->offsets[0];
        if (len > 0 && n > (int64_t)INT32_MAX / len)
            return hudi_error_set(err, HUDI_EINVAL, "column %s: a batch of %lld values is too long",
                                  a->field->name, (long long)n);
        if ((rc = hudi_array_grow(a, n, err)) < 0 ||
            (rc = hudi_array_grow_data(a, len * n, err)) < 0)
            return rc;
        for (int64_t i = 0; i < n; i++) {
            if (len) memcpy(a->data + a->data_len, v->data + v->offsets[0], (size_t)len);
            a->data_len += len;
            a->offsets[i + 1] = (int32_t)a->data_len;
        }
        a->length = n;
        return 0;
    }
    if (a->length == 0 && !a->validity && w > 0 && t != HUDI_TYPE_BOOL) {
        if ((rc = hudi_array_grow(a, n, err)) < 0) return rc;
        uint8_t *dst = a->values;
        for (int64_t i = 0; i < n; i++) memcpy(dst + i * w, v->values, (size_t)w);
        a->length = n;
        return 0;
    }
    rc = hudi_array_reserve(a, n, err);
    for (int64_t i = 0; i < n && rc == 0; i++) rc = hudi_array_append_range(a, v, 0, 1, err);
    return rc;
}

/* Opens the next Parquet file that can hold matching rows. Returns 1, or 0 at the end. */
/* The top-N boundary for a file of a Parquet table: on its data column when the file stores
 * it in the table's type (a converted column is not filtered). */
static void dynamic_option(const hudi_sql_scan_spec *spec, int32_t n_data, const hudi_field *fsch,
                           hudi_pq_scan_options *so) {
    if (!spec->dynamic || spec->dynamic_column >= n_data) return; /* partition values: no */
    const hudi_field *tf = &spec->table_schema.children[spec->dynamic_column];
    int fc = find_field(fsch, tf->name);
    if (fc < 0) return;
    const hudi_field *ff = &fsch->children[fc];
    if (ff->type != spec->dynamic->type || ff->type != tf->type ||
        (ff->type == HUDI_TYPE_TIMESTAMP && ff->unit != tf->unit))
        return;
    so->dynamic = spec->dynamic;
    so->dynamic_column = fc;
}

static int pq_open_next(scan_op *s, hudi_error *err) {
    hudi_fs *fs = session_fs(s->base.ctx);
    const hudi_field *ts = &s->spec->table_schema;
    int rc;
    while (s->next_file < s->files.n) {
        size_t fi = s->next_file++;
        const char *path = s->files.paths[fi];
        bool match;
        int32_t why;
        if ((rc = file_partition_match(s, fi, &match, &why, err)) < 0) return rc;
        if (!match) {
            s->spec->files_pruned++;
            continue;
        }
        if ((rc = hudi_pq_open(&s->pf, fs, path, NULL, err)) < 0) return rc;
        s->spec->files_read++;
        const hudi_field *fsch = hudi_pq_schema(s->pf);
        int32_t *cols = hudi_calloc((size_t)s->spec->n_columns + (size_t)s->spec->n_pushdown + 1,
                                    sizeof(int32_t));
        int32_t n_cols = 0, n_preds = 0;
        bool skip = false;
        if (!cols) return hudi_error_oom(err);
        for (int32_t i = 0; i < s->spec->n_columns; i++) {
            int32_t c = s->spec->columns[i];
            if (c >= s->n_data) {
                s->map[i] = -2 - (c - s->n_data);
                continue;
            }
            int fc = find_field(fsch, ts->children[c].name);
            s->map[i] = -1;
            if (fc < 0) continue;
            for (int32_t k = 0; k < n_cols && s->map[i] < 0; k++)
                if (cols[k] == fc) s->map[i] = k;
            if (s->map[i] < 0) {
                s->map[i] = n_cols;
                cols[n_cols++] = fc;
            }
        }
        for (int32_t i = 0; i < s->spec->n_pushdown; i++) {
            const hudi_sql_pushdown *pd = &s->spec->pushdown[i];
            if (pd->column >= s->n_data || !applied(s->spec, i) || pd->op == HUDI_SQL_PUSH_IN)
                continue; /* partitions: above; IN lists skip by partition only */
            int fc = find_field(fsch, ts->children[pd->column].name);
            if (fc < 0) {
                skip |= pd->op != HUDI_CMP_IS_NULL; /* the file lacks it: all null */
                continue;
            }
            if (hudi_type_is_nested(fsch->children[fc].type)) {
                hudi_free(cols);
                return hudi_error_set(err, HUDI_EINVAL, "%s: column %s is not primitive", path,
                                      fsch->children[fc].name);
            }
            s->preds[n_preds++] = (hudi_pq_predicate){fc, reader_op(s->spec, i), s->values[i]};
            bool have = false;
            for (int32_t k = 0; k < n_cols; k++) have |= cols[k] == fc;
            if (!have) cols[n_cols++] = fc;
        }
        if (skip) {
            hudi_free(cols);
            hudi_pq_close(s->pf);
            s->pf = NULL;
            continue;
        }
        for (int32_t k = 0; k < s->files.n_parts; k++) {
            hudi_array_free(s->part_value[k]);
            s->part_value[k] = NULL;
            if ((rc = part_value(s, fi, k, &s->part_value[k], err)) < 0) {
                hudi_free(cols);
                return rc;
            }
        }
        hudi_pq_scan_options so = HUDI_PQ_SCAN_OPTIONS_INIT;
        so.columns = cols;
        so.n_columns = n_cols;
        so.batch_rows = s->base.ctx->batch_rows;
        so.predicates = s->preds;
        so.n_predicates = n_preds;
        so.filter_rows = n_preds > 0;
        dynamic_option(s->spec, s->n_data, fsch, &so);
        rc = hudi_pq_scan_open(&s->scan, s->pf, &so, err);
        hudi_free(cols);
        if (rc < 0) return rc;
        return 1;
    }
    return 0;
}

static void pq_close_file(scan_op *s) {
    if (s->scan) {
        const hudi_pq_scan_stats *st = hudi_pq_scan_get_stats(s->scan);
        s->spec->row_groups_skipped += st->row_groups_skipped;
        s->spec->rows_read += st->rows_read;
    }
    hudi_batch_free(s->in);
    s->in = NULL;
    hudi_pq_scan_free(s->scan);
    s->scan = NULL;
    hudi_pq_close(s->pf);
    s->pf = NULL;
}

static int pq_next(hudi_sql_oper *base, hudi_batch **out, hudi_error *err) {
    scan_op *s = (scan_op *)base;
    int rc;
    *out = NULL;
    clear_out(s);
    if (s->done) return 0;
    if ((rc = check_cancel(s->base.ctx, err)) < 0) return rc;
    for (;;) {
        if (!s->scan) {
            if ((rc = pq_open_next(s, err)) < 0) return rc;
            if (rc == 0) {
                s->done = true;
                return 0;
            }
        }
        hudi_batch *b = NULL;
        if ((rc = hudi_pq_scan_next(s->scan, &b, err)) < 0) return rc;
        if (!b) {
            pq_close_file(s);
            continue;
        }
        hudi_batch_free(s->in);
        s->in = hudi_pq_scan_take_batch(s->scan);
        const char *path = hudi_pq_path(s->pf);
        for (int32_t i = 0; i < s->spec->n_columns; i++) {
            int32_t m = s->map[i];
            if (m >= 0) {
                rc = take_column(s, i, s->in, m, path, err);
            } else if (m == -1) {
                rc = null_column(s, i, s->in->num_rows, err);
            } else {
                rc = hudi_array_new(&s->out->columns[i], &s->schema.children[i], err);
                if (rc == 0)
                    rc = repeat_value(s->out->columns[i], s->part_value[-2 - m], s->in->num_rows,
                                      err);
            }
            if (rc < 0) return rc;
        }
        s->out->num_rows = s->in->num_rows;
        report(s, s->spec->files_read, (int64_t)s->files.n - s->spec->files_pruned,
               s->shown[2] + s->in->num_rows);
        *out = s->out;
        return 0;
    }
}

/* Converts the pushdown constants (s->values) for a Parquet scan. */
static int pq_values(scan_op *s, hudi_error *err) {
    s->values = hudi_calloc((size_t)s->spec->n_pushdown + 1, sizeof(hudi_value));
    s->preds = hudi_calloc((size_t)s->spec->n_pushdown + 1, sizeof(hudi_pq_predicate));
    if (!s->values || !s->preds) return hudi_error_oom(err);
    for (int32_t i = 0; i < s->spec->n_pushdown; i++) {
        const hudi_sql_pushdown *pd = &s->spec->pushdown[i];
        int rc = const_value(pd, &s->spec->table_schema.children[pd->column], &s->values[i], err);
        if (rc < 0) return hudi_error_wrap(err, "%s", s->spec->display_name), rc;
    }
    return 0;
}

int hudi_sql_scan_open(hudi_sql_oper **out, hudi_sql_ctx *ctx, const hudi_sql_plan *p,
                       hudi_error *err) {
    hudi_sql_scan_spec *spec = p->scan;
    int rc;
    *out = NULL;
    if (!spec || !spec->entry) return hudi_error_set(err, HUDI_EINVAL, "scan without a table");
    if ((rc = check_pushdown(spec, err)) < 0) return rc;
    scan_op *s = hudi_calloc(1, sizeof(*s));
    if (!s) return hudi_error_oom(err);
    s->base.plan = p;
    s->base.ctx = ctx;
    s->base.free = scan_free;
    s->spec = spec;
    spec->files_total = spec->files_read = spec->files_pruned = 0;
    spec->row_groups_skipped = spec->rows_read = 0;
    /* The output schema: the plan's when it has the scan's shape, else the table's columns. */
    if (p->schema.n_children == spec->n_columns && p->schema.type == HUDI_TYPE_STRUCT) {
        s->schema = p->schema;
    } else {
        s->schema = (hudi_field){.type = HUDI_TYPE_STRUCT, .field_id = -1};
        s->schema.n_children = spec->n_columns;
        s->schema.children =
            hudi_arena_alloc(ctx->arena, (size_t)(spec->n_columns + 1) * sizeof(hudi_field));
        if (!s->schema.children) {
            rc = hudi_error_oom(err);
            goto fail;
        }
        for (int32_t i = 0; i < spec->n_columns; i++)
            s->schema.children[i] = spec->table_schema.children[spec->columns[i]];
    }
    if ((rc = hudi_batch_new(&s->out, &s->schema, err)) < 0) goto fail;
    if (!(s->map = hudi_calloc((size_t)spec->n_columns + 1, sizeof(int32_t)))) {
        rc = hudi_error_oom(err);
        goto fail;
    }
    if (spec->entry->provider == HUDI_CATALOG_PARQUET) {
        s->base.next = pq_next;
        if ((rc = pq_discover(session_fs(ctx), spec->entry, &s->files, err)) < 0) goto fail;
        s->n_data = pq_data_columns(spec, &s->files);
        if (s->n_data < 0) {
            rc = hudi_error_set(err, HUDI_EINVAL, "%s: the table's files changed since planning",
                                spec->display_name);
            goto fail;
        }
        spec->files_total = (int64_t)s->files.n;
        if (!(s->part_value = hudi_calloc((size_t)s->files.n_parts + 1, sizeof(hudi_array *)))) {
            rc = hudi_error_oom(err);
            goto fail;
        }
        if ((rc = pq_values(s, err)) < 0) goto fail;
    } else {
        s->base.next = hudi_next;
        if (!spec->table) {
            rc = hudi_error_set(err, HUDI_EINVAL, "%s: scan not prepared", spec->display_name);
            goto fail;
        }
        if ((rc = hudi_open_reader(ctx, spec, &s->r, s->map, NULL, &s->done, err)) < 0) goto fail;
        const char *dyn =
            spec->dynamic ? spec->table_schema.children[spec->dynamic_column].name : NULL;
        if (dyn && !synthetic_column(spec, dyn) &&
            (rc = hudi_reader_set_dynamic(s->r, dyn, spec->dynamic, err)) < 0)
            goto fail;
        update_counts(s);
    }
    *out = &s->base;
    return 0;
fail:
    scan_free(&s->base);
    return rc;
}

/* ---- EXPLAIN ------------------------------------------------------------------------------- */

static void explain_preds(hudi_buf *out, const hudi_sql_scan_spec *spec) {
    if (spec->n_pushdown == 0) return;
    hudi_buf_puts(out, "pushed filters: ");
    int32_t n = 0, kept = 0;
    for (int32_t i = 0; i < spec->n_pushdown; i++) {
        if (!applied(spec, i)) {
            kept++;
            continue;
        }
        if (n++) hudi_buf_puts(out, ", ");
        pred_text(out, spec, i);
    }
    if (kept > 0) {
        hudi_buf_puts(out, n ? "\n" : "(none)\n");
        hudi_buf_puts(out, "filters left to the filter above (NaN orders as Spark does): ");
        n = 0;
        for (int32_t i = 0; i < spec->n_pushdown; i++) {
            if (applied(spec, i)) continue;
            if (n++) hudi_buf_puts(out, ", ");
            pred_text(out, spec, i);
        }
    }
    hudi_buf_putc(out, '\n');
}

static void explain_head(hudi_buf *out, const hudi_sql_scan_spec *spec) {
    hudi_buf_printf(out, "location: %s\n", spec->entry->location);
    if (spec->begin_instant || spec->end_instant)
        hudi_buf_printf(out, "incremental: commits in (%s, %s]\n",
                        spec->begin_instant ? spec->begin_instant : "start",
                        spec->end_instant ? spec->end_instant : "latest");
    else if (spec->as_of_instant)
        hudi_buf_printf(out, "time travel: as of instant %s\n", spec->as_of_instant);
    if (spec->read_optimized) hudi_buf_puts(out, "read optimized: base files only\n");
    explain_preds(out, spec);
    if (spec->dynamic)
        hudi_buf_printf(out, "dynamic filter: %s from the TopN above (base files without logs)\n",
                        spec->table_schema.children[spec->dynamic_column].name);
}

/* One file or partition line of EXPLAIN (at most EXPLAIN_MAX_LINES per list, then a count). */
static void explain_line(hudi_buf *out, int64_t *shown, const char *fmt, const char *a,
                         const char *b) {
    if ((*shown)++ < EXPLAIN_MAX_LINES) hudi_buf_printf(out, fmt, a, b);
}

/* "files skipped by statistics:" then a line per partition: its name and count. */
static void explain_count(hudi_buf *out, int64_t *shown, const char *partition, int64_t n) {
    if (*shown == 0) hudi_buf_puts(out, "files skipped by statistics:\n");
    if ((*shown)++ < EXPLAIN_MAX_LINES)
        hudi_buf_printf(out, "  %s: %lld file%s\n", *partition ? partition : "(table)",
                        (long long)n, n == 1 ? "" : "s");
}

static void explain_more(hudi_buf *out, int64_t shown) {
    if (shown > EXPLAIN_MAX_LINES)
        hudi_buf_printf(out, "  ... %lld more\n", (long long)(shown - EXPLAIN_MAX_LINES));
}

typedef struct part_row {
    const char *partition;
    int32_t pruned_by;
} part_row;

static int cmp_part_row(const void *a, const void *b) {
    return strcmp(((const part_row *)a)->partition, ((const part_row *)b)->partition);
}

static int explain_hudi(hudi_buf *out, hudi_sql_ctx *ctx, hudi_sql_scan_spec *spec,
                        hudi_error *err) {
    hudi_reader *r = NULL;
    bool none = false;
    int32_t *from = hudi_calloc((size_t)spec->n_pushdown + 1, sizeof(int32_t));
    if (!from) return hudi_error_oom(err);
    int rc = hudi_open_reader(ctx, spec, &r, NULL, from, &none, err);
    if (rc < 0) {
        hudi_free(from);
        return rc;
    }
    if (!spec->as_of_instant && !spec->begin_instant && !spec->end_instant)
        hudi_buf_printf(out, "snapshot: as of instant %s\n",
                        *hudi_reader_as_of(r) ? hudi_reader_as_of(r) : "(no commit)");
    size_t n = hudi_reader_file_count(r);
    /* Partitions (sorted): read when any of their files is read; pruning drops whole ones. */
    int64_t parts = 0, parts_read = 0, shown = 0;
    hudi_buf why = HUDI_BUF_INIT;
    part_row *rows = hudi_calloc(n + 1, sizeof(part_row));
    if (!rows) {
        hudi_free(from);
        hudi_reader_free(r);
        return hudi_error_oom(err);
    }
    for (size_t i = 0; i < n; i++) {
        const hudi_read_file_info *f = hudi_reader_file(r, i);
        rows[i] = (part_row){f->partition, f->pruned_by};
    }
    if (n > 1) qsort(rows, n, sizeof(part_row), cmp_part_row);
    for (size_t i = 0, j; i < n; i = j) {
        bool any_read = false;
        int32_t by = -1;
        for (j = i; j < n && strcmp(rows[j].partition, rows[i].partition) == 0; j++) {
            any_read |= rows[j].pruned_by < 0;
            if (rows[j].pruned_by >= 0) by = rows[j].pruned_by;
        }
        parts++;
        parts_read += any_read;
        if (!any_read) {
            if (shown == 0) hudi_buf_puts(out, "partitions pruned:\n");
            hudi_buf_clear(&why);
            pred_text(&why, spec, from[by]);
            explain_line(out, &shown, "  %s (by %s)\n", rows[i].partition,
                         why.data ? why.data : "");
        }
    }
    hudi_free(rows);
    hudi_free(from);
    explain_more(out, shown);
    if (spec->table->cfg.partition_fields && *spec->table->cfg.partition_fields)
        hudi_buf_printf(out, "partitions: %lld of %lld read\n", (long long)parts_read,
                        (long long)parts);
    int64_t files_read = 0, files_pruned = 0, files_skipped = 0, rgs = 0, rgs_skipped = 0;
    int64_t files_bloom = 0, cur_n = 0;
    const char *cur = NULL; /* the partition whose skipped files are being counted */
    shown = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const hudi_read_file_info *f = hudi_reader_file(r, i);
        if (f->pruned_by >= 0) {
            files_pruned++;
            continue;
        }
        int64_t total = 0, skipped = 0;
        bool by_keys = false;
        if ((rc = hudi_reader_probe_file(r, i, &total, &skipped, &by_keys, err)) < 0) break;
        if (by_keys) { /* no wanted record key: key range or bloom filter (read/key_probe.h) */
            files_bloom++;
            continue;
        }
        rgs += total;
        rgs_skipped += skipped;
        if (total > 0 && skipped == total) {
            /* counted per partition (file names hold random ids; EXPLAIN stays stable) */
            files_skipped++;
            if (cur && strcmp(cur, f->partition) != 0) {
                explain_count(out, &shown, cur, cur_n);
                cur_n = 0;
            }
            cur = f->partition;
            cur_n++;
        } else {
            files_read++;
        }
    }
    if (cur) explain_count(out, &shown, cur, cur_n);
    explain_more(out, shown);
    if (rc == 0) {
        if (none)
            hudi_buf_puts(out, "no row can match: a pushed filter needs a value in a column "
                               "this table leaves null\n");
        hudi_buf_printf(out, "files: %lld total, %lld pruned by partition, ", (long long)n,
                        (long long)files_pruned);
        if (files_bloom > 0)
            hudi_buf_printf(out, "%lld skipped by bloom filter, ", (long long)files_bloom);
        hudi_buf_printf(out, "%lld skipped by statistics, %lld to read\n", (long long)files_skipped,
                        (long long)files_read);
        if (spec->n_pushdown > 0)
            hudi_buf_printf(out, "row groups: %lld of %lld skipped by statistics\n",
                            (long long)rgs_skipped, (long long)rgs);
    }
    hudi_buf_dispose(&why);
    hudi_reader_free(r);
    return rc;
}

static int explain_parquet(hudi_buf *out, hudi_sql_ctx *ctx, hudi_sql_scan_spec *spec,
                           hudi_error *err) {
    scan_op *s = hudi_calloc(1, sizeof(*s));
    if (!s) return hudi_error_oom(err);
    s->base.ctx = ctx;
    s->spec = spec;
    int rc = pq_discover(session_fs(ctx), spec->entry, &s->files, err);
    if (rc == 0) {
        s->n_data = pq_data_columns(spec, &s->files);
        rc = pq_values(s, err);
    }
    int64_t pruned = 0, skipped = 0, read = 0, rgs = 0, rgs_skipped = 0, shown = 0;
    hudi_buf why = HUDI_BUF_INIT, folder = HUDI_BUF_INIT;
    for (size_t i = 0; rc == 0 && i < s->files.n; i++) {
        bool match;
        int32_t by;
        if ((rc = file_partition_match(s, i, &match, &by, err)) < 0) break;
        if (!match) {
            /* named by folder, once (files are sorted by path, so a folder's come together) */
            pruned++;
            const char *path = s->files.paths[i];
            size_t ll = strlen(spec->entry->location);
            if (strncmp(path, spec->entry->location, ll) == 0 && path[ll] == '/') path += ll + 1;
            const char *slash = strrchr(path, '/');
            size_t dl = slash ? (size_t)(slash - path) : 0;
            if (folder.data && folder.len == dl && memcmp(folder.data, path, dl) == 0) continue;
            hudi_buf_clear(&folder);
            hudi_buf_append(&folder, path, dl);
            if (shown == 0) hudi_buf_puts(out, "partitions pruned:\n");
            hudi_buf_clear(&why);
            pred_text(&why, spec, by);
            explain_line(out, &shown, "  %s (by %s)\n", folder.data ? folder.data : "",
                         why.data ? why.data : "");
            continue;
        }
        /* Statistics: open the footer and let the Parquet scanner choose row groups. */
        hudi_pq_file *f = NULL;
        hudi_pq_scan *sc = NULL;
        if ((rc = hudi_pq_open(&f, session_fs(ctx), s->files.paths[i], NULL, err)) < 0) break;
        const hudi_field *fsch = hudi_pq_schema(f);
        int32_t n_preds = 0;
        bool none = false;
        for (int32_t k = 0; k < spec->n_pushdown; k++) {
            const hudi_sql_pushdown *pd = &spec->pushdown[k];
            if (pd->column >= s->n_data || !applied(spec, k) || pd->op == HUDI_SQL_PUSH_IN)
                continue;
            int fc = find_field(fsch, spec->table_schema.children[pd->column].name);
            if (fc < 0)
                none |= pd->op != HUDI_CMP_IS_NULL;
            else if (!hudi_type_is_nested(fsch->children[fc].type))
                s->preds[n_preds++] = (hudi_pq_predicate){fc, reader_op(spec, k), s->values[k]};
        }
        int64_t total = hudi_pq_num_row_groups(f), sk = total;
        if (!none) {
            hudi_pq_scan_options so = HUDI_PQ_SCAN_OPTIONS_INIT;
            int32_t nocol[1] = {0};
            so.columns = nocol;
            so.n_columns = 0;
            so.predicates = s->preds;
            so.n_predicates = n_preds;
            if ((rc = hudi_pq_scan_open(&sc, f, &so, err)) == 0)
                sk = hudi_pq_scan_get_stats(sc)->row_groups_skipped;
        }
        hudi_pq_scan_free(sc);
        hudi_pq_close(f);
        rgs += total;
        rgs_skipped += sk;
        if (total > 0 && sk == total)
            skipped++;
        else
            read++;
    }
    explain_more(out, shown);
    if (rc == 0 && s->files.n_parts > 0) {
        hudi_buf_puts(out, "partition columns: [");
        for (int32_t k = 0; k < s->files.n_parts; k++)
            hudi_buf_printf(out, "%s%s", k ? ", " : "", s->files.part_names[k]);
        hudi_buf_puts(out, "]\n");
    }
    if (rc == 0) {
        hudi_buf_printf(out,
                        "files: %lld total, %lld pruned by partition, %lld skipped by "
                        "statistics, %lld to read\n",
                        (long long)s->files.n, (long long)pruned, (long long)skipped,
                        (long long)read);
        if (spec->n_pushdown > 0)
            hudi_buf_printf(out, "row groups: %lld of %lld skipped by statistics\n",
                            (long long)rgs_skipped, (long long)rgs);
    }
    hudi_buf_dispose(&why);
    hudi_buf_dispose(&folder);
    s->base.free = scan_free;
    scan_free(&s->base);
    return rc;
}

void hudi_sql_scan_explain(hudi_buf *out, const hudi_sql_scan_spec *spec, int depth) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_buf body = HUDI_BUF_INIT;
    hudi_fs *fs = NULL;
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_sql_ctx ctx = {0};
    hudi_sql_session session = {0};
    int rc = check_pushdown(spec, &err);
    hudi_buf_printf(out, "Scan %s %s [",
                    spec->entry->provider == HUDI_CATALOG_HUDI ? "hudi" : "parquet",
                    spec->display_name ? spec->display_name : spec->entry->location);
    for (int32_t i = 0; rc == 0 && i < spec->n_columns; i++)
        hudi_buf_printf(out, "%s%s", i ? ", " : "",
                        spec->table_schema.children[spec->columns[i]].name);
    hudi_buf_putc(out, ']');
    if (rc == 0) explain_head(&body, spec);
    /* Only files are read here, on the local file system (the session's is one too). */
    ctx.arena = &arena;
    ctx.session = &session;
    if (rc == 0 && spec->entry->provider == HUDI_CATALOG_PARQUET) {
        if ((rc = hudi_fs_local_new(&fs, &err)) == 0) {
            session.fs = fs;
            rc = explain_parquet(&body, &ctx, (hudi_sql_scan_spec *)spec, &err); /* reads it */
        }
    } else if (rc == 0 && !spec->table) {
        rc = hudi_error_set(&err, HUDI_EINVAL, "%s: scan not prepared", spec->display_name);
    } else if (rc == 0) {
        rc = explain_hudi(&body, &ctx, (hudi_sql_scan_spec *)spec, &err); /* reads it */
    }
    if (rc < 0) hudi_buf_printf(&body, "(error: %s)\n", err.message);
    /* Each fact on its own line, indented under the node. */
    const char *p = body.data ? body.data : "";
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        hudi_buf_putc(out, '\n');
        for (int i = 0; i <= depth; i++) hudi_buf_puts(out, "   ");
        hudi_buf_append(out, p, len);
        p += len + (nl ? 1 : 0);
    }
    hudi_buf_dispose(&body);
    hudi_arena_dispose(&arena);
    hudi_fs_free(fs);
}
