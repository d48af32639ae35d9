/* dml.c - INSERT [OVERWRITE], UPDATE, DELETE and MERGE INTO on Hudi tables (docs/SQL.md
 * "DML"), each one commit through the write layer, so a failed statement leaves the table as
 * it was:
 *   INSERT   - the source is aligned to the table's data columns (by position, or by the
 *              column list; static PARTITION values fill partition columns), cast to the
 *              column types with CAST's rules, and written with the operation Hudi 0.14
 *              picks for INSERT INTO (deduce_insert_operation);
 *   UPDATE   - matching rows are read, assigned and upserted (the updated row wins);
 *   DELETE   - matching rows are read and deleted by key;
 *   MERGE    - source LEFT JOIN target on the condition; per row the first WHEN clause that
 *              applies picks the action; updates, inserts and deletes go in one upsert, deletes
 *              marked by a _hoodie_is_deleted column as Hudi's payloads do. */
#include "sql/bind.h"
#include "columnar/convert.h"
#include "format/parquet/parquet.h"
#include "write/write.h"

#include <xxhash.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static int oom(hudi_sql_binder *b) { return hudi_error_oom(b->err); }
static void *alloc(hudi_sql_binder *b, size_t n) { return hudi_arena_alloc(&b->r->arena, n); }

#define IS_DELETED "_hoodie_is_deleted"

/* The target of a DML statement: its scan (all columns), and where its data columns are. */
typedef struct target {
    hudi_sql_plan *scan;
    hudi_sql_scope scope;
    hudi_catalog_table *entry;
    hudi_table *table;
    int32_t first_data; /* index of the first data column (after the meta columns) */
    int32_t n_data;
    const char *name;
} target;

static int open_target(hudi_sql_binder *b, const hudi_sql_name *name, const char *alias,
                       target *t) {
    memset(t, 0, sizeof(*t));
    hudi_catalog_table entry;
    int rc = hudi_sql_resolve_table(b->s, name, &entry, b->err);
    if (rc < 0) return rc;
    if (entry.provider != HUDI_CATALOG_HUDI) {
        hudi_catalog_table_dispose(&entry);
        return ERR(b, name->pos, HUDI_EUNSUPPORTED,
                   "%s is a Parquet table: only Hudi tables take INSERT, UPDATE, DELETE and MERGE",
                   HUDI_SQL_AT(name->parts, const char, name->parts.len - 1));
    }
    const char *qual =
        alias ? hudi_sql_lower(&b->r->arena, alias) : hudi_sql_lower(&b->r->arena, entry.name);
    if ((rc = hudi_sql_bind_scan(b, &entry, qual, NULL, &t->scan, &t->scope)) < 0) return rc;
    t->entry = t->scan->scan->entry;
    t->table = t->scan->scan->table;
    t->name = t->scan->scan->display_name;
    const hudi_field *s = &t->scan->schema;
    while (t->first_data < s->n_children &&
           strncmp(s->children[t->first_data].name, "_hoodie_", 8) == 0)
        t->first_data++;
    t->n_data = s->n_children - t->first_data;
    return 0;
}

static bool in_list(const char *csv, const char *name) {
    if (!csv) return false;
    size_t n = strlen(name);
    for (const char *p = csv; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        while (len && *p == ' ') p++, len--;
        if (len == n && strncasecmp(p, name, n) == 0) return true;
        if (!e) break;
        p = e + 1;
    }
    return false;
}

/* ---- writing ----------------------------------------------------------------------------- */

/* Upserts from SQL keep the incoming row unless the table's payload orders by event time
 * (DefaultHoodieRecordPayload, or EVENT_TIME_ORDERING in 1.x). */
static bool sql_latest_wins(const hudi_table *t) {
    const char *p = t->cfg.payload_class;
    if (p && strstr(p, "DefaultHoodieRecordPayload")) return false;
    if (t->cfg.merge_mode && strcmp(t->cfg.merge_mode, "EVENT_TIME_ORDERING") == 0) return false;
    return true;
}

static int write_batch(hudi_sql_binder *b, const target *t, const hudi_batch *batch,
                       hudi_write_operation op, bool latest_wins, int64_t *affected) {
    hudi_write_options wo = HUDI_WRITE_OPTIONS_INIT;
    wo.op = op;
    wo.latest_wins = latest_wins;
    wo.progress = b->ctx->progress;
    if (!(wo.props = hudi_sql_write_props(b->r, b->s, t->entry))) return oom(b);
    hudi_table_write_result res;
    memset(&res, 0, sizeof(res));
    int rc = hudi_sql_check_cancel(b->ctx, b->err);
    if (rc == 0) rc = hudi_tbl_write(t->table, batch, &wo, &res, b->err);
    if (rc < 0) return rc;
    if (affected) *affected += batch->num_rows;
    return 0;
}

/* The types Spark-Hudi writes for a query's columns: timestamps in micros (rows read from
 * Parquet files in millis or nanos; nanos would otherwise reach the table as Hudi's bigint), and
 * tinyint/smallint as int (Avro has no narrower integer). The batch gets an arena copy of its
 * schema with those columns retyped, and the columns converted. */
static bool spark_retype(hudi_field *f) {
    if (f->type == HUDI_TYPE_TIMESTAMP && f->unit != HUDI_UNIT_MICROS &&
        f->hint != HUDI_HINT_INT96) {
        f->unit = HUDI_UNIT_MICROS;
        return true;
    }
    if (f->type == HUDI_TYPE_INT8 || f->type == HUDI_TYPE_INT16) {
        f->type = HUDI_TYPE_INT32;
        return true;
    }
    return false;
}

static int spark_write_types(hudi_sql_binder *b, hudi_batch *batch) {
    const hudi_field *in = batch->schema;
    hudi_field *schema = NULL;
    for (int32_t i = 0; i < batch->n_columns; i++) {
        const hudi_field *f = &in->children[i];
        hudi_field probe = *f;
        if (!spark_retype(&probe)) continue;
        if (!schema) {
            schema = alloc(b, sizeof(*schema));
            hudi_field *kids = alloc(b, sizeof(*kids) * (size_t)(in->n_children + 1));
            if (!schema || !kids) return oom(b);
            *schema = *in;
            memcpy(kids, in->children, sizeof(*kids) * (size_t)in->n_children);
            schema->children = kids;
        }
        schema->children[i] = probe;
        hudi_array *conv = NULL;
        int rc = hudi_array_convert(&conv, batch->columns[i], &schema->children[i], false, f->name,
                                    b->err);
        if (rc < 0) return rc;
        hudi_array_free(batch->columns[i]);
        batch->columns[i] = conv;
    }
    if (schema) batch->schema = schema;
    return 0;
}

/* Runs `rows` (columns named like the table's data columns) and writes them with `op`. */
static int write_plan_rows(hudi_sql_binder *b, const target *t, hudi_sql_plan *rows,
                           hudi_write_operation op, bool latest_wins) {
    hudi_batch *batch = NULL;
    int rc = hudi_sql_collect(b->ctx, rows, &batch, b->err);
    if (rc == 0) rc = spark_write_types(b, batch);
    if (rc < 0) {
        hudi_batch_free(batch);
        return rc;
    }
    b->r->rows_affected = 0;
    if (batch->num_rows > 0 || op == HUDI_WRITE_INSERT_OVERWRITE_TABLE)
        rc = write_batch(b, t, batch, op, latest_wins, &b->r->rows_affected);
    hudi_batch_free(batch);
    return rc;
}

int hudi_sql_write_rows(hudi_sql_session *s, hudi_sql_result *r, const hudi_catalog_table *entry,
                        hudi_sql_plan *rows, hudi_write_operation op, hudi_error *err) {
    hudi_sql_binder b;
    hudi_sql_binder_init(&b, s, r, err);
    target t;
    memset(&t, 0, sizeof(t));
    hudi_catalog_table copy;
    memset(&copy, 0, sizeof(copy));
    /* a scan spec opens the table the way queries do (and the result owns it) */
    hudi_sql_scan_spec *spec = alloc(&b, sizeof(*spec));
    hudi_catalog_table *e = alloc(&b, sizeof(*e));
    if (!spec || !e) return oom(&b);
    *e = *entry;
    spec->entry = e;
    int rc = hudi_sql_scan_prepare(&r->ctx, spec, err);
    if (rc < 0) return rc;
    t.entry = e;
    t.table = spec->table;
    t.name = entry->name;
    if ((rc = hudi_sql_optimize(&b, &rows)) < 0) return rc;
    return write_plan_rows(&b, &t, rows, op, sql_latest_wins(t.table));
}

/* ---- INSERT ------------------------------------------------------------------------------- */

static const char *conf(hudi_sql_binder *b, const target *t, const char *key) {
    return hudi_sql_conf_for(b->s, t->entry, key, NULL);
}

/* The write operation of INSERT INTO (Hudi 0.14's deduceSparkSqlInsertIntoWriteOperation). */
static int deduce_insert_operation(hudi_sql_binder *b, const target *t, const hudi_sql_stmt *st,
                                   hudi_write_operation *op) {
    const hudi_table_config *cfg = &t->table->cfg;
    const char *v = conf(b, t, "hoodie.datasource.write.operation");
    if (v) return hudi_write_operation_parse(op, v, b->err);
    if (st->overwrite) {
        /* INSERT OVERWRITE: partitions the rows touch with a PARTITION clause or in dynamic
         * mode, else the whole table (Spark's default static mode) */
        const char *mode =
            hudi_sql_conf_for(b->s, t->entry, "hoodie.datasource.overwrite.mode", NULL);
        if (!mode) mode = hudi_sql_conf_get(b->s, "spark.sql.sources.partitionOverwriteMode");
        bool dynamic = mode && strcasecmp(mode, "dynamic") == 0;
        bool partitioned = cfg->partition_fields && *cfg->partition_fields;
        *op = partitioned && (st->partition || dynamic) ? HUDI_WRITE_INSERT_OVERWRITE
                                                        : HUDI_WRITE_INSERT_OVERWRITE_TABLE;
        return 0;
    }
    const char *legacy = conf(b, t, "hoodie.sql.insert.mode");
    const char *into = conf(b, t, "hoodie.spark.sql.insert.into.operation");
    bool pk = cfg->record_key_fields && *cfg->record_key_fields;
    bool pre = cfg->precombine_field && *cfg->precombine_field;
    if (legacy && !into) {
        if (strcasecmp(legacy, "strict") == 0)
            return ERR(
                b, st->pos, HUDI_EUNSUPPORTED,
                "hoodie.sql.insert.mode=strict is not supported yet (use upsert or non-strict)");
        *op =
            strcasecmp(legacy, "upsert") == 0 && pk && pre ? HUDI_WRITE_UPSERT : HUDI_WRITE_INSERT;
        return 0;
    }
    if (!into && pk && pre) {
        *op = HUDI_WRITE_UPSERT;
        return 0;
    }
    const char *dup = conf(b, t, "hoodie.datasource.insert.dup.policy");
    if (dup && strcasecmp(dup, "none") != 0)
        return ERR(b, st->pos, HUDI_EUNSUPPORTED,
                   "hoodie.datasource.insert.dup.policy=%s is not supported yet", dup);
    return hudi_write_operation_parse(op, into ? into : "insert", b->err);
}

static int exec_insert_parquet(hudi_sql_binder *b, const hudi_sql_stmt *st);

static int exec_insert(hudi_sql_binder *b, const hudi_sql_stmt *st) {
    target t;
    {
        hudi_catalog_table probe;
        int rc = hudi_sql_resolve_table(b->s, &st->name, &probe, b->err);
        if (rc < 0) return rc;
        bool parquet = probe.provider == HUDI_CATALOG_PARQUET;
        hudi_catalog_table_dispose(&probe);
        if (parquet) return exec_insert_parquet(b, st);
    }
    int rc = open_target(b, &st->name, NULL, &t);
    if (rc < 0) return rc;
    hudi_sql_plan *src;
    if ((rc = hudi_sql_bind_query(b, st->query, &src, NULL)) < 0) return rc;
    const hudi_field *cols = &t.scan->schema.children[t.first_data];
    int32_t nd = t.n_data;
    /* static partition values, by column */
    hudi_sql_bexpr **fixed = alloc(b, sizeof(*fixed) * (size_t)(nd ? nd : 1));
    hudi_sql_bexpr **exprs = alloc(b, sizeof(*exprs) * (size_t)(nd ? nd : 1));
    const char **names = alloc(b, sizeof(*names) * (size_t)(nd ? nd : 1));
    if (!fixed || !exprs || !names) return oom(b);
    memset(fixed, 0, sizeof(*fixed) * (size_t)(nd ? nd : 1));
    const char *pfields = t.table->cfg.partition_fields;
    int32_t n_static = 0;
    if (st->partition) {
        for (uint32_t i = 0; i < st->partition->len; i++) {
            const hudi_sql_part_kv *kv = HUDI_SQL_AT(*st->partition, hudi_sql_part_kv, i);
            int32_t c = -1;
            for (int32_t k = 0; k < nd; k++)
                if (hudi_sql_ident_eq(cols[k].name, kv->name)) c = k;
            if (c < 0 || !in_list(pfields, cols[c].name))
                return ERR(b, st->pos, HUDI_ESQL,
                           "PARTITION column `%s` is not a partition column of %s", kv->name,
                           t.name);
            if (!kv->value) continue; /* dynamic */
            if ((rc = hudi_sql_bind_expr(b, NULL, NULL, kv->value, &fixed[c])) < 0) return rc;
            n_static++;
        }
    }
    int32_t ns = src->schema.n_children;
    /* which source column feeds each table column */
    int32_t *from = alloc(b, sizeof(*from) * (size_t)(nd ? nd : 1));
    if (!from) return oom(b);
    for (int32_t k = 0; k < nd; k++) from[k] = -1;
    if (st->insert_columns.len) {
        if ((int32_t)st->insert_columns.len != ns)
            return ERR(b, st->pos, HUDI_ESQL,
                       "[INSERT_COLUMN_ARITY_MISMATCH] Cannot write to %s: %u columns are named "
                       "but the query returns %d",
                       t.name, st->insert_columns.len, ns);
        for (int32_t i = 0; i < ns; i++) {
            const char *nm = HUDI_SQL_AT(st->insert_columns, const char, i);
            int32_t c = -1;
            for (int32_t k = 0; k < nd; k++)
                if (hudi_sql_ident_eq(cols[k].name, nm)) c = k;
            if (c < 0)
                return ERR(b, st->pos, HUDI_ESQL, "column `%s` is not a column of %s", nm, t.name);
            from[c] = i;
        }
    } else {
        if (ns != nd - n_static)
            return ERR(b, st->query->pos, HUDI_ESQL,
                       "[INSERT_COLUMN_ARITY_MISMATCH] Cannot write to %s: the table has %d data "
                       "columns%s, the query returns %d",
                       t.name, nd - n_static,
                       n_static ? " besides its static partition values" : "", ns);
        for (int32_t k = 0, i = 0; k < nd; k++)
            if (!fixed[k]) from[k] = i++;
    }
    for (int32_t k = 0; k < nd; k++) {
        hudi_sql_bexpr *e;
        if (fixed[k]) {
            e = fixed[k];
        } else if (from[k] >= 0) {
            e = hudi_sql_bx_column(b, from[k], &src->schema.children[from[k]]);
            if (!e) return oom(b);
        } else if ((rc = hudi_sql_bx_const(b, &cols[k], NULL, 0, &e)) < 0) {
            return rc;
        }
        if (!hudi_sql_type_equal(&e->type, &cols[k]) &&
            (rc = hudi_sql_bind_cast(b->ctx, e, &cols[k], &e, b->err)) < 0)
            return rc;
        if ((rc = hudi_sql_fold(b, &e)) < 0) return rc;
        exprs[k] = e;
        names[k] = cols[k].name;
    }
    hudi_sql_plan *rows;
    if ((rc = hudi_sql_plan_project(b, src, exprs, names, nd, &rows)) < 0) return rc;
    hudi_write_operation op;
    if ((rc = deduce_insert_operation(b, &t, st, &op)) < 0) return rc;
    if ((rc = hudi_sql_optimize(b, &rows)) < 0) return rc;
    return write_plan_rows(b, &t, rows, op, sql_latest_wins(t.table));
}

/* ---- INSERT into Parquet tables ----------------------------------------------------------- */

/* Spark's escapePathName: characters that cannot stand in a folder name as %XX. */
static void escape_path_value(hudi_buf *o, const char *v, size_t n) {
    static const char special[] = "\"#%'*/:=?\\\x7f{[]^";
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)v[i];
        if (c < 0x20 || strchr(special, c))
            hudi_buf_printf(o, "%%%02X", c);
        else
            hudi_buf_putc(o, (char)c);
    }
}

/* A new file name as Spark writes them: part-00000-<uuid>-c000.snappy.parquet. */
static void part_file_name(hudi_buf *o, int32_t n) {
    static unsigned counter;
    struct {
        int64_t now;
        unsigned counter;
        const void *where;
        int32_t n;
    } seed = {hudi_sql_now_micros(), ++counter, &seed, n};
    XXH128_hash_t h = XXH3_128bits(&seed, sizeof(seed));
    uint64_t hi = h.high64, lo = h.low64;
    hi = (hi & ~0xF000ull) | 0x4000ull;                        /* version 4 */
    lo = (lo & 0x3FFFFFFFFFFFFFFFull) | 0x8000000000000000ull; /* RFC 4122 variant */
    hudi_buf_printf(o, "part-%05d-%08x-%04x-%04x-%04x-%012llx-c000.snappy.parquet", (int)n,
                    (unsigned)(hi >> 32), (unsigned)((hi >> 16) & 0xFFFF), (unsigned)(hi & 0xFFFF),
                    (unsigned)(lo >> 48), (unsigned long long)(lo & 0xFFFFFFFFFFFFull));
}

/* INSERT INTO a Parquet table: the rows aligned to its columns, one new file per partition
 * folder (hive style, key=value) under the table's location, each published atomically. */
static int exec_insert_parquet(hudi_sql_binder *b, const hudi_sql_stmt *st) {
    hudi_catalog_table entry;
    int rc = hudi_sql_resolve_table(b->s, &st->name, &entry, b->err);
    if (rc < 0) return rc;
    const char *nm = HUDI_SQL_AT(st->name.parts, const char, st->name.parts.len - 1);
    if (st->overwrite) {
        hudi_catalog_table_dispose(&entry);
        return ERR(b, st->pos, HUDI_EUNSUPPORTED,
                   "INSERT OVERWRITE of the Parquet table %s is not supported yet", nm);
    }
    if (strpbrk(entry.location, "*?[{")) {
        hudi_catalog_table_dispose(&entry);
        return ERR(b, st->pos, HUDI_EUNSUPPORTED,
                   "cannot INSERT into %s: its location is a pattern (%s)", nm, entry.location);
    }
    hudi_sql_plan *scan;
    hudi_sql_scope sc;
    if ((rc = hudi_sql_bind_scan(b, &entry, NULL, NULL, &scan, &sc)) < 0) return rc;
    const hudi_catalog_table *e = scan->scan->entry;
    const hudi_field *cols = scan->schema.children;
    int32_t nd = scan->schema.n_children;
    if (nd == 0)
        return ERR(b, st->pos, HUDI_ESQL,
                   "cannot INSERT into %s: it has no columns (declare them, or add files)", nm);
    hudi_sql_plan *src;
    if ((rc = hudi_sql_bind_query(b, st->query, &src, NULL)) < 0) return rc;
    if (src->schema.n_children != nd)
        return ERR(b, st->query->pos, HUDI_ESQL,
                   "[INSERT_COLUMN_ARITY_MISMATCH] Cannot write to %s: the table has %d columns, "
                   "the query returns %d",
                   nm, nd, src->schema.n_children);
    hudi_sql_bexpr **exprs = alloc(b, sizeof(*exprs) * (size_t)nd);
    const char **names = alloc(b, sizeof(*names) * (size_t)nd);
    bool *is_part = alloc(b, (size_t)nd);
    if (!exprs || !names || !is_part) return oom(b);
    int32_t n_part = 0;
    for (int32_t k = 0; k < nd; k++) {
        hudi_sql_bexpr *x = hudi_sql_bx_column(b, k, &src->schema.children[k]);
        if (!x) return oom(b);
        if (!hudi_sql_type_equal(&x->type, &cols[k]) &&
            (rc = hudi_sql_bind_cast(b->ctx, x, &cols[k], &x, b->err)) < 0)
            return rc;
        exprs[k] = x;
        names[k] = cols[k].name;
        is_part[k] = in_list(e->partition_columns, cols[k].name);
        n_part += is_part[k];
    }
    hudi_sql_plan *rows;
    if ((rc = hudi_sql_plan_project(b, src, exprs, names, nd, &rows)) < 0) return rc;
    if ((rc = hudi_sql_optimize(b, &rows)) < 0) return rc;
    hudi_batch *all = NULL;
    if ((rc = hudi_sql_collect(b->ctx, rows, &all, b->err)) < 0) return rc;
    /* the file schema: the non-partition columns */
    hudi_field *fcols = alloc(b, sizeof(*fcols) * (size_t)nd);
    hudi_field fschema = rows->schema;
    if (!fcols) {
        hudi_batch_free(all);
        return oom(b);
    }
    int32_t nf = 0;
    for (int32_t k = 0; k < nd; k++)
        if (!is_part[k]) fcols[nf++] = rows->schema.children[k];
    fschema.children = fcols;
    fschema.n_children = nf;
    /* rows grouped by their partition folder */
    int64_t nrows = all->num_rows;
    char **dirs = hudi_calloc((size_t)(nrows ? nrows : 1), sizeof(char *));
    int64_t *order = hudi_malloc(sizeof(int64_t) * (size_t)(nrows ? nrows : 1));
    hudi_buf path = HUDI_BUF_INIT;
    hudi_batch *part = NULL;
    if (!dirs || !order) rc = oom(b);
    for (int64_t i = 0; rc == 0 && i < nrows; i++) {
        hudi_buf d = HUDI_BUF_INIT;
        for (int32_t k = 0; k < nd; k++) {
            if (!is_part[k]) continue;
            if (d.len) hudi_buf_putc(&d, '/');
            hudi_buf_printf(&d, "%s=", cols[k].name);
            if (!hudi_array_is_valid(all->columns[k], i)) {
                hudi_buf_puts(&d, "__HIVE_DEFAULT_PARTITION__");
            } else {
                hudi_buf v = HUDI_BUF_INIT;
                hudi_sql_render_value(&v, b->ctx, all->columns[k], i);
                escape_path_value(&d, v.data ? v.data : "", v.len);
                hudi_buf_dispose(&v);
            }
        }
        if (d.failed) rc = oom(b);
        dirs[i] = d.data ? d.data : hudi_strdup("");
        if (!dirs[i]) rc = oom(b);
        order[i] = i;
    }
    int32_t files = 0;
    for (int64_t i = 0; rc == 0 && i < nrows;) {
        /* the rows of the next folder not written yet */
        int64_t n = 0;
        const char *dir = dirs[order[i]];
        for (int64_t j = i; j < nrows; j++)
            if (strcmp(dirs[order[j]], dir) == 0) {
                int64_t tmp = order[i + n];
                order[i + n] = order[j];
                order[j] = tmp;
                n++;
            }
        hudi_batch_free(part);
        part = NULL;
        if ((rc = hudi_batch_new(&part, &fschema, b->err)) < 0) break;
        for (int32_t k = 0, f = 0; rc == 0 && k < nd; k++) {
            if (is_part[k]) continue;
            for (int64_t r = 0; rc == 0 && r < n; r++)
                rc = hudi_array_append_range(part->columns[f], all->columns[k], order[i + r], 1,
                                             b->err);
            f++;
        }
        if (rc < 0) break;
        part->num_rows = n;
        hudi_buf_clear(&path);
        hudi_buf_puts(&path, e->location);
        if (*dir) hudi_buf_printf(&path, "/%s", dir);
        if (path.failed) {
            rc = oom(b);
            break;
        }
        if ((rc = hudi_fs_mkdirs(b->s->fs, path.data, b->err)) < 0) break;
        hudi_buf_putc(&path, '/');
        part_file_name(&path, files++);
        hudi_pq_writer *w = NULL;
        hudi_pq_write_options wo = HUDI_PQ_WRITE_OPTIONS_INIT;
        if (path.failed) rc = oom(b);
        if (rc == 0) rc = hudi_pq_writer_open(&w, b->s->fs, path.data, &fschema, &wo, b->err);
        if (rc == 0) rc = hudi_pq_writer_write(w, part, b->err);
        if (rc == 0) {
            rc = hudi_pq_writer_close(w, NULL, b->err);
        } else if (w) {
            hudi_pq_writer_abort(w);
        }
        i += n;
    }
    (void)n_part;
    if (rc == 0) b->r->rows_affected = nrows;
    for (int64_t i = 0; dirs && i < nrows; i++) hudi_free(dirs[i]);
    hudi_free(dirs);
    hudi_free(order);
    hudi_buf_dispose(&path);
    hudi_batch_free(part);
    hudi_batch_free(all);
    return rc;
}

/* ---- UPDATE and DELETE ---------------------------------------------------------------- */

static int where_filter(hudi_sql_binder *b, const target *t, const hudi_sql_expr *where,
                        hudi_sql_plan **plan) {
    *plan = t->scan;
    if (!where) return 0;
    hudi_sql_bexpr *c;
    int rc = hudi_sql_bind_expr(b, &t->scope, NULL, where, &c);
    if (rc < 0) return rc;
    if (c->type.type != HUDI_TYPE_BOOL && c->type.type != HUDI_TYPE_NULL)
        return ERR(b, where->pos, HUDI_ESQL, "the WHERE condition must be a boolean");
    return hudi_sql_plan_filter(b, t->scan, c, plan);
}

/* A table without a primaryKey (docs/formats/keys.md §9): its rows are updated and deleted by
 * their stored _hoodie_record_key and _hoodie_partition_path, which the written batch carries. */
static bool auto_keys(const target *t) {
    const char *k = t->table->cfg.record_key_fields;
    return !k || !*k;
}

static const char *const key_meta[2] = {"_hoodie_record_key", "_hoodie_partition_path"};

static int32_t column_index(const hudi_field *s, const char *name) {
    for (int32_t i = 0; i < s->n_children; i++)
        if (strcmp(s->children[i].name, name) == 0) return i;
    return -1;
}

static int data_projection(hudi_sql_binder *b, const target *t, hudi_sql_plan *in,
                           hudi_sql_bexpr **set, hudi_sql_plan **out) {
    int32_t nd = t->n_data, n = nd + (auto_keys(t) ? 2 : 0);
    hudi_sql_bexpr **exprs = alloc(b, sizeof(*exprs) * (size_t)(n ? n : 1));
    const char **names = alloc(b, sizeof(*names) * (size_t)(n ? n : 1));
    if (!exprs || !names) return oom(b);
    for (int32_t k = 0; k < nd; k++) {
        const hudi_field *col = &in->schema.children[t->first_data + k];
        names[k] = col->name;
        exprs[k] = set && set[k] ? set[k] : hudi_sql_bx_column(b, t->first_data + k, col);
        if (!exprs[k]) return oom(b);
    }
    for (int32_t k = nd; k < n; k++) {
        int32_t c = column_index(&in->schema, key_meta[k - nd]);
        if (c < 0)
            return ERR(b, (hudi_sql_pos){0}, HUDI_EUNSUPPORTED,
                       "%s has no primaryKey and no %s column: its rows cannot be updated", t->name,
                       key_meta[k - nd]);
        names[k] = key_meta[k - nd];
        if (!(exprs[k] = hudi_sql_bx_column(b, c, &in->schema.children[c]))) return oom(b);
    }
    return hudi_sql_plan_project(b, in, exprs, names, n, out);
}

static int exec_update(hudi_sql_binder *b, const hudi_sql_stmt *st) {
    target t;
    int rc = open_target(b, &st->name, st->alias, &t);
    if (rc < 0) return rc;
    hudi_sql_plan *rows;
    if ((rc = where_filter(b, &t, st->where, &rows)) < 0) return rc;
    int32_t nd = t.n_data;
    hudi_sql_bexpr **set = alloc(b, sizeof(*set) * (size_t)(nd ? nd : 1));
    if (!set) return oom(b);
    memset(set, 0, sizeof(*set) * (size_t)(nd ? nd : 1));
    const hudi_field *cols = &t.scan->schema.children[t.first_data];
    for (uint32_t i = 0; i < st->assigns.len; i++) {
        const hudi_sql_assign *a = HUDI_SQL_AT(st->assigns, hudi_sql_assign, i);
        const char *nm = HUDI_SQL_AT(a->target.parts, const char, a->target.parts.len - 1);
        int32_t c = -1;
        for (int32_t k = 0; k < nd; k++)
            if (hudi_sql_ident_eq(cols[k].name, nm)) c = k;
        if (c < 0)
            return ERR(b, a->target.pos, HUDI_ESQL, "column `%s` is not a column of %s", nm,
                       t.name);
        if (in_list(t.table->cfg.record_key_fields, cols[c].name))
            return ERR(b, a->target.pos, HUDI_ESQL,
                       "UPDATE cannot change the record key column `%s` of %s", cols[c].name,
                       t.name);
        if (in_list(t.table->cfg.partition_fields, cols[c].name))
            return ERR(b, a->target.pos, HUDI_EUNSUPPORTED,
                       "UPDATE of the partition column `%s` is not supported yet", cols[c].name);
        hudi_sql_bexpr *e;
        if ((rc = hudi_sql_bind_expr(b, &t.scope, NULL, a->value, &e)) < 0) return rc;
        if (!hudi_sql_type_equal(&e->type, &cols[c]) &&
            (rc = hudi_sql_bind_cast(b->ctx, e, &cols[c], &e, b->err)) < 0)
            return rc;
        set[c] = e;
    }
    hudi_sql_plan *proj;
    if ((rc = data_projection(b, &t, rows, set, &proj)) < 0) return rc;
    if ((rc = hudi_sql_optimize(b, &proj)) < 0) return rc;
    return write_plan_rows(b, &t, proj, HUDI_WRITE_UPSERT, true);
}

static int exec_delete(hudi_sql_binder *b, const hudi_sql_stmt *st) {
    target t;
    int rc = open_target(b, &st->name, st->alias, &t);
    if (rc < 0) return rc;
    hudi_sql_plan *rows, *proj;
    if ((rc = where_filter(b, &t, st->where, &rows)) < 0) return rc;
    if ((rc = data_projection(b, &t, rows, NULL, &proj)) < 0) return rc;
    if ((rc = hudi_sql_optimize(b, &proj)) < 0) return rc;
    return write_plan_rows(b, &t, proj, HUDI_WRITE_DELETE, true);
}

/* ---- MERGE -------------------------------------------------------------------------------- */

static int source_column(hudi_sql_binder *b, const hudi_sql_scope *src, const char *name,
                         const hudi_field *schema, hudi_sql_pos pos, hudi_sql_bexpr **out) {
    for (int32_t i = 0; i < src->n; i++)
        if (hudi_sql_ident_eq(src->cols[i].name, name)) {
            *out = hudi_sql_bx_column(b, src->cols[i].index, &schema->children[src->cols[i].index]);
            return *out ? 0 : oom(b);
        }
    return ERR(b, pos, HUDI_ESQL,
               "MERGE: the source has no column `%s` for UPDATE SET * / INSERT * (name every "
               "assignment instead)",
               name);
}

static int exec_merge(hudi_sql_binder *b, const hudi_sql_stmt *st) {
    target t;
    int rc = open_target(b, &st->name, st->alias, &t);
    if (rc < 0) return rc;
    hudi_sql_plan *src;
    hudi_sql_scope ss;
    if ((rc = hudi_sql_bind_rel(b, st->source, &src, &ss)) < 0) return rc;
    /* source LEFT JOIN target: columns are the source's, then the target's */
    int32_t ns = src->schema.n_children, nt = t.scan->schema.n_children;
    hudi_field *types = alloc(b, sizeof(*types) * (size_t)(ns + nt));
    hudi_field *joined = alloc(b, sizeof(*joined));
    if (!types || !joined) return oom(b);
    memcpy(types, src->schema.children, sizeof(*types) * (size_t)ns);
    memcpy(types + ns, t.scan->schema.children, sizeof(*types) * (size_t)nt);
    hudi_sql_plan *j = hudi_sql_plan_new(b, HUDI_SQL_P_JOIN, src);
    if (!j) return oom(b);
    j->right = t.scan;
    j->join = HUDI_SQL_J_LEFT;
    if ((rc = hudi_sql_plan_set_schema(b, j, types, NULL, ns + nt)) < 0) return rc;
    hudi_sql_scope js;
    js.n = ss.n + t.scope.n;
    js.cols = alloc(b, sizeof(*js.cols) * (size_t)js.n);
    if (!js.cols) return oom(b);
    memcpy(js.cols, ss.cols, sizeof(*js.cols) * (size_t)ss.n);
    for (int32_t i = 0; i < t.scope.n; i++) {
        js.cols[ss.n + i] = t.scope.cols[i];
        js.cols[ss.n + i].index += ns;
    }
    js.schema = &j->schema;
    hudi_sql_bexpr *on;
    if ((rc = hudi_sql_bind_expr(b, &js, NULL, st->on, &on)) < 0) return rc;
    /* hash keys: equalities between a source-only and a target-only side */
    {
        hudi_sql_bexpr *list[64];
        int32_t n = 0;
        hudi_sql_bexpr *stack[64];
        int sp = 0;
        stack[sp++] = on;
        while (sp > 0 && n < 64) {
            hudi_sql_bexpr *e = stack[--sp];
            if (e->kind == HUDI_SQL_BX_CALL && strcmp(e->fn->name, "and") == 0 &&
                sp + e->n_args <= 64) {
                for (int32_t i = 0; i < e->n_args; i++) stack[sp++] = e->args[i];
            } else {
                list[n++] = e;
            }
        }
        j->left_keys = alloc(b, sizeof(*j->left_keys) * (size_t)(n ? n : 1));
        j->right_keys = alloc(b, sizeof(*j->right_keys) * (size_t)(n ? n : 1));
        hudi_sql_bexpr **rest = alloc(b, sizeof(*rest) * (size_t)(n ? n : 1));
        if (!j->left_keys || !j->right_keys || !rest) return oom(b);
        int32_t nr = 0;
        for (int32_t i = 0; i < n; i++) {
            hudi_sql_bexpr *e = list[i];
            if (e->kind == HUDI_SQL_BX_CALL && strcmp(e->fn->name, "=") == 0 && e->n_args == 2 &&
                e->args[0]->kind == HUDI_SQL_BX_COLUMN && e->args[1]->kind == HUDI_SQL_BX_COLUMN) {
                hudi_sql_bexpr *x = e->args[0], *y = e->args[1];
                if (x->column >= ns && y->column < ns) {
                    hudi_sql_bexpr *tmp = x;
                    x = y;
                    y = tmp;
                }
                if (x->column < ns && y->column >= ns) {
                    j->left_keys[j->n_keys] = x;
                    j->right_keys[j->n_keys] = hudi_sql_bx_column(b, y->column - ns, &y->type);
                    if (!j->right_keys[j->n_keys]) return oom(b);
                    j->n_keys++;
                    continue;
                }
            }
            rest[nr++] = e;
        }
        j->cond = NULL;
        for (int32_t i = 0; i < nr; i++) {
            if (!j->cond) {
                j->cond = rest[i];
                continue;
            }
            hudi_sql_bexpr **args = alloc(b, sizeof(*args) * 2);
            if (!args) return oom(b);
            args[0] = j->cond;
            args[1] = rest[i];
            if ((rc = hudi_sql_bind_fn(b->ctx, "and", args, 2, st->on->pos, &j->cond, b->err)) < 0)
                return rc;
        }
        if (j->n_keys == 0)
            return ERR(b, st->on->pos, HUDI_EUNSUPPORTED,
                       "MERGE INTO needs an equality between a source column and a target column "
                       "in its ON condition (Hudi matches on the record key)");
    }
    /* matched: the target's _hoodie_record_key is present */
    int32_t key_col = -1;
    for (int32_t i = 0; i < nt; i++)
        if (strcmp(t.scan->schema.children[i].name, "_hoodie_record_key") == 0) key_col = ns + i;
    if (key_col < 0)
        return ERR(b, st->pos, HUDI_EUNSUPPORTED, "MERGE INTO needs a table with meta columns");
    hudi_sql_bexpr *matched, *not_matched;
    hudi_sql_bexpr *kc = hudi_sql_bx_column(b, key_col, &j->schema.children[key_col]);
    if (!kc) return oom(b);
    hudi_sql_bexpr **a1 = alloc(b, sizeof(*a1)), **a2 = alloc(b, sizeof(*a2));
    if (!a1 || !a2) return oom(b);
    a1[0] = kc;
    a2[0] = kc;
    if ((rc = hudi_sql_bind_fn(b->ctx, "isnotnull", a1, 1, st->pos, &matched, b->err)) < 0)
        return rc;
    if ((rc = hudi_sql_bind_fn(b->ctx, "isnull", a2, 1, st->pos, &not_matched, b->err)) < 0)
        return rc;
    /* clause id per row: the first clause whose kind and condition apply, else 0 */
    int32_t nc = (int32_t)st->clauses.len;
    hudi_sql_bexpr **case_args = alloc(b, sizeof(*case_args) * (size_t)(2 * nc + 1));
    if (!case_args) return oom(b);
    for (int32_t i = 0; i < nc; i++) {
        const hudi_sql_merge_clause *c = HUDI_SQL_AT(st->clauses, hudi_sql_merge_clause, i);
        if (c->match == HUDI_SQL_NOT_MATCHED_BY_SOURCE)
            return ERR(
                b, c->pos, HUDI_EUNSUPPORTED,
                "WHEN NOT MATCHED BY SOURCE is not supported (Hudi does not support it either)");
        hudi_sql_bexpr *when = c->match == HUDI_SQL_MATCHED ? matched : not_matched;
        if (c->cond) {
            hudi_sql_bexpr *cond;
            if ((rc = hudi_sql_bind_expr(b, &js, NULL, c->cond, &cond)) < 0) return rc;
            hudi_sql_bexpr **args = alloc(b, sizeof(*args) * 2);
            if (!args) return oom(b);
            args[0] = when;
            args[1] = cond;
            if ((rc = hudi_sql_bind_fn(b->ctx, "and", args, 2, c->pos, &when, b->err)) < 0)
                return rc;
        }
        int32_t id = i + 1;
        case_args[2 * i] = when;
        hudi_field it;
        hudi_field_init(&it, "", HUDI_TYPE_INT32, true);
        hudi_array *v = NULL;
        rc = hudi_array_new(&v, &it, b->err);
        if (rc == 0) rc = hudi_array_append_fixed(v, &id, b->err);
        if (rc == 0) rc = hudi_sql_bx_const(b, &it, v, 0, &case_args[2 * i + 1]);
        hudi_array_free(v);
        hudi_field_dispose(&it);
        if (rc < 0) return rc;
    }
    hudi_sql_bexpr *clause_id;
    if ((rc = hudi_sql_bind_fn(b->ctx, "case", case_args, 2 * nc, st->pos, &clause_id, b->err)) < 0)
        return rc;
    /* per data column: CASE clause_id WHEN i THEN <clause i's value> ... ELSE target value */
    int32_t nd = t.n_data;
    const hudi_field *cols = &t.scan->schema.children[t.first_data];
    int32_t nk = auto_keys(&t) ? 2 : 0; /* the target's stored key columns follow */
    hudi_sql_bexpr **exprs = alloc(b, sizeof(*exprs) * (size_t)(nd + nk + 2));
    const char **names = alloc(b, sizeof(*names) * (size_t)(nd + nk + 2));
    if (!exprs || !names) return oom(b);
    for (int32_t k = 0; k < nd; k++) {
        hudi_sql_bexpr *tcol = hudi_sql_bx_column(b, ns + t.first_data + k, &cols[k]);
        hudi_sql_bexpr **args = alloc(b, sizeof(*args) * (size_t)(2 * nc + 1));
        if (!tcol || !args) return oom(b);
        int32_t na = 0;
        for (int32_t i = 0; i < nc; i++) {
            const hudi_sql_merge_clause *c = HUDI_SQL_AT(st->clauses, hudi_sql_merge_clause, i);
            hudi_sql_bexpr *val = NULL;
            switch (c->action) {
            case HUDI_SQL_M_DELETE: continue;
            case HUDI_SQL_M_UPDATE_STAR:
            case HUDI_SQL_M_INSERT_STAR:
                if ((rc = source_column(b, &ss, cols[k].name, &src->schema, c->pos, &val)) < 0)
                    return rc;
                break;
            case HUDI_SQL_M_UPDATE:
                for (uint32_t a = 0; a < c->assigns.len; a++) {
                    const hudi_sql_assign *as = HUDI_SQL_AT(c->assigns, hudi_sql_assign, a);
                    const char *nm =
                        HUDI_SQL_AT(as->target.parts, const char, as->target.parts.len - 1);
                    if (hudi_sql_ident_eq(nm, cols[k].name) &&
                        (rc = hudi_sql_bind_expr(b, &js, NULL, as->value, &val)) < 0)
                        return rc;
                }
                if (!val) val = tcol;
                break;
            case HUDI_SQL_M_INSERT:
                for (uint32_t a = 0; a < c->columns.len; a++)
                    if (hudi_sql_ident_eq(HUDI_SQL_AT(c->columns, const char, a), cols[k].name) &&
                        (rc = hudi_sql_bind_expr(
                             b, &js, NULL, HUDI_SQL_AT(c->values, hudi_sql_expr, a), &val)) < 0)
                        return rc;
                if (!val && (rc = hudi_sql_bx_const(b, &cols[k], NULL, 0, &val)) < 0) return rc;
                break;
            }
            if (!hudi_sql_type_equal(&val->type, &cols[k]) &&
                (rc = hudi_sql_bind_cast(b->ctx, val, &cols[k], &val, b->err)) < 0)
                return rc;
            hudi_sql_bexpr *idc;
            if ((rc = hudi_sql_bx_const(b, &case_args[2 * i + 1]->type, case_args[2 * i + 1]->value,
                                        0, &idc)) < 0)
                return rc;
            hudi_sql_bexpr **eq = alloc(b, sizeof(*eq) * 2);
            if (!eq) return oom(b);
            eq[0] = clause_id;
            eq[1] = idc;
            if ((rc = hudi_sql_bind_fn(b->ctx, "=", eq, 2, c->pos, &args[na], b->err)) < 0)
                return rc;
            args[na + 1] = val;
            na += 2;
        }
        args[na++] = tcol;
        if (na == 1)
            exprs[k] = tcol;
        else if ((rc = hudi_sql_bind_fn(b->ctx, "case", args, na, st->pos, &exprs[k], b->err)) < 0)
            return rc;
        names[k] = cols[k].name;
    }
    exprs[nd] = clause_id;
    names[nd] = "_hudic_clause";
    for (int32_t k = 0; k < nk; k++) { /* null for inserts: the writer generates their keys */
        int32_t c = column_index(&t.scan->schema, key_meta[k]);
        if (c < 0)
            return ERR(b, st->pos, HUDI_EUNSUPPORTED, "%s has no primaryKey and no %s column",
                       t.name, key_meta[k]);
        names[nd + 1 + k] = key_meta[k];
        exprs[nd + 1 + k] = hudi_sql_bx_column(b, ns + c, &j->schema.children[ns + c]);
        if (!exprs[nd + 1 + k]) return oom(b);
    }
    hudi_sql_plan *proj;
    if ((rc = hudi_sql_plan_project(b, j, exprs, names, nd + 1 + nk, &proj)) < 0) return rc;
    if ((rc = hudi_sql_optimize(b, &proj)) < 0) return rc;
    hudi_batch *rows = NULL;
    if ((rc = hudi_sql_collect(b->ctx, proj, &rows, b->err)) < 0) return rc;
    /* rows whose clause is not 0 go to one upsert; DELETE clauses mark _hoodie_is_deleted */
    hudi_field *wschema = alloc(b, sizeof(*wschema));
    hudi_field *wcols = alloc(b, sizeof(*wcols) * (size_t)(nd + 1 + nk));
    int64_t *keep = hudi_malloc(sizeof(int64_t) * (size_t)(rows->num_rows ? rows->num_rows : 1));
    hudi_batch *out = NULL;
    if (!wschema || !wcols || !keep) {
        hudi_free(keep);
        hudi_batch_free(rows);
        return oom(b);
    }
    memcpy(wcols, proj->schema.children, sizeof(*wcols) * (size_t)nd);
    hudi_field_init(&wcols[nd], IS_DELETED, HUDI_TYPE_BOOL, false);
    memcpy(wcols + nd + 1, proj->schema.children + nd + 1, sizeof(*wcols) * (size_t)nk);
    *wschema = proj->schema;
    wschema->children = wcols;
    wschema->n_children = nd + 1 + nk;
    const int32_t *ids = rows->columns[nd]->values;
    int64_t n = 0;
    bool any_delete = false;
    for (int64_t i = 0; i < rows->num_rows; i++)
        if (hudi_array_is_valid(rows->columns[nd], i) && ids[i] > 0) keep[n++] = i;
    rc = hudi_batch_new(&out, wschema, b->err);
    for (int32_t k = 0; rc == 0 && k < nd + 1 + nk; k++)
        for (int64_t i = 0; rc == 0 && i < n && k != nd; i++)
            rc = hudi_array_append_range(out->columns[k], rows->columns[k], keep[i], 1, b->err);
    for (int64_t i = 0; rc == 0 && i < n; i++) {
        const hudi_sql_merge_clause *c =
            HUDI_SQL_AT(st->clauses, hudi_sql_merge_clause, ids[keep[i]] - 1);
        bool del = c->action == HUDI_SQL_M_DELETE;
        any_delete |= del;
        rc = hudi_array_append_bool(out->columns[nd], del, b->err);
    }
    if (rc == 0) {
        out->num_rows = n;
        b->r->rows_affected = 0;
        if (n > 0) rc = write_batch(b, &t, out, HUDI_WRITE_UPSERT, true, &b->r->rows_affected);
    }
    (void)any_delete;
    hudi_field_dispose(&wcols[nd]);
    hudi_batch_free(out);
    hudi_batch_free(rows);
    hudi_free(keep);
    return rc;
}

int hudi_sql_exec_dml(hudi_sql_session *s, const hudi_sql_stmt *st, hudi_sql_result *r,
                      hudi_error *err) {
    hudi_sql_binder b;
    hudi_sql_binder_init(&b, s, r, err);
    switch (st->kind) {
    case HUDI_SQL_S_INSERT: return exec_insert(&b, st);
    case HUDI_SQL_S_UPDATE: return exec_update(&b, st);
    case HUDI_SQL_S_DELETE: return exec_delete(&b, st);
    case HUDI_SQL_S_MERGE: return exec_merge(&b, st);
    default: return hudi_error_set(err, HUDI_EINVAL, "not a DML statement");
    }
}
