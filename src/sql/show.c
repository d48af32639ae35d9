/* show.c - SHOW ... and DESCRIBE ... (docs/SQL.md "Statements"): rows built from the catalog
 * (catalog/catalog.h) and the tables themselves, with spark-sql's columns. Facts about Spark-
 * Hudi 0.15 followed here:
 *  - SHOW PARTITIONS prints the partition paths as stored (ShowHoodieTablePartitionsCommand):
 *    "dt=2021-01-01/hh=10" for hive-style tables, "2021-01-01/10" otherwise; no rows for a
 *    non-partitioned table; partitions a replacecommit dropped are left out
 *    (HoodieCatalogTable.getPartitionPaths filters TimelineUtils.getDroppedPartitions).
 *  - DESCRIBE of a Hudi table lists the five meta columns first (they are in the catalog
 *    schema), then the data columns, then "# Partition Information". */
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <time.h>

#include "read/read.h"
#include "schema/schema.h"
#include "sql/ddl_int.h"

static int oom(hudi_error *err) { return hudi_error_oom(err); }

/* ---- row building (ddl_int.h) ----------------------------------------------------------- */

int hudi_sql_rows_begin(hudi_sql_rows *w, hudi_sql_result *r, int32_t n, const char *const *names,
                        const hudi_type_id *types, hudi_error *err) {
    memset(w, 0, sizeof(*w));
    w->r = r;
    w->schema = hudi_arena_alloc(&r->arena, sizeof(hudi_field));
    if (!w->schema) return oom(err);
    int rc = hudi_sql_schema_make(r, w->schema, n, names, types, err);
    if (rc == 0) rc = hudi_batch_new(&w->b, w->schema, err);
    w->rc = rc;
    return rc;
}

static hudi_array *cell(hudi_sql_rows *w, int32_t col) {
    if (w->rc < 0 || col >= w->b->n_columns) return NULL;
    w->filled |= 1 << col;
    return w->b->columns[col];
}

void hudi_sql_rows_str(hudi_sql_rows *w, int32_t col, const char *s) {
    if (!s) {
        hudi_sql_rows_null(w, col);
        return;
    }
    hudi_sql_rows_strn(w, col, s, strlen(s));
}

void hudi_sql_rows_strn(hudi_sql_rows *w, int32_t col, const char *s, size_t len) {
    hudi_array *a = cell(w, col);
    if (a && hudi_array_append_bytes(a, s, len, NULL) < 0) w->rc = HUDI_ENOMEM;
}

void hudi_sql_rows_i64(hudi_sql_rows *w, int32_t col, int64_t v) {
    hudi_array *a = cell(w, col);
    if (!a) return;
    int rc;
    if (a->field->type == HUDI_TYPE_INT32) {
        int32_t x = (int32_t)v;
        rc = hudi_array_append_fixed(a, &x, NULL);
    } else {
        rc = hudi_array_append_fixed(a, &v, NULL);
    }
    if (rc < 0) w->rc = rc;
}

void hudi_sql_rows_bool(hudi_sql_rows *w, int32_t col, bool v) {
    hudi_array *a = cell(w, col);
    if (a && hudi_array_append_bool(a, v, NULL) < 0) w->rc = HUDI_ENOMEM;
}

void hudi_sql_rows_null(hudi_sql_rows *w, int32_t col) {
    hudi_array *a = cell(w, col);
    if (a && hudi_array_append_null(a, NULL) < 0) w->rc = HUDI_ENOMEM;
}

void hudi_sql_rows_end(hudi_sql_rows *w) {
    if (w->rc < 0) return;
    for (int32_t c = 0; c < w->b->n_columns; c++)
        if (!(w->filled & (1 << c))) hudi_sql_rows_null(w, c);
    w->filled = 0;
    if (w->rc == 0) w->b->num_rows++;
}

int hudi_sql_rows_finish(hudi_sql_rows *w, hudi_error *err) {
    if (w->rc < 0) {
        hudi_batch_free(w->b);
        w->b = NULL;
        return w->rc == HUDI_ENOMEM ? oom(err) : hudi_error_set(err, w->rc, "building rows");
    }
    hudi_batch *b = w->b;
    w->b = NULL;
    return hudi_sql_plan_rows(w->r, w->schema, b, err);
}

void hudi_sql_rows_abort(hudi_sql_rows *w) {
    hudi_batch_free(w->b);
    w->b = NULL;
}

/* ---- helpers ---------------------------------------------------------------------------- */

/* One string column of rows `vals`. */
static int string_rows(hudi_sql_result *r, const char *col, char *const *vals, int32_t n,
                       hudi_error *err) {
    hudi_sql_rows w;
    const char *names[] = {col};
    const hudi_type_id types[] = {HUDI_TYPE_STRING};
    int rc = hudi_sql_rows_begin(&w, r, 1, names, types, err);
    if (rc < 0) return rc;
    for (int32_t i = 0; i < n; i++) {
        hudi_sql_rows_str(&w, 0, vals[i]);
        hudi_sql_rows_end(&w);
    }
    return hudi_sql_rows_finish(&w, err);
}

static int resolve(hudi_sql_session *s, const hudi_sql_name *n, hudi_catalog_table *e,
                   hudi_error *err) {
    return hudi_sql_resolve_table(s, n, e, err);
}

/* The columns of a table as the catalog shows them: for a Hudi table its latest schema with
 * the meta columns first; for a Parquet table the declared columns, else the files'. A heap
 * STRUCT in *out (hudi_field_dispose). */
static int table_columns(hudi_sql_session *s, hudi_sql_result *r, const hudi_catalog_table *e,
                         hudi_field *out, hudi_table **tbl, hudi_error *err) {
    memset(out, 0, sizeof(*out));
    if (tbl) *tbl = NULL;
    if (e->provider == HUDI_CATALOG_HUDI) {
        hudi_table *t = NULL;
        int rc = hudi_sql_open_entry(s, r, e, "DESCRIBE", &t, err);
        if (rc < 0) return rc;
        if (tbl) *tbl = t;
        hudi_scan_options so = HUDI_SCAN_OPTIONS_INIT;
        hudi_field full = {0};
        hudi_field withmeta = {0};
        if ((rc = hudi_read_table_schema(&full, t, &so, err)) < 0) return rc;
        if (!hudi_schema_has_meta_fields(&full)) {
            rc = hudi_schema_add_meta_fields(&withmeta, &full, err);
            hudi_field_dispose(&full);
            if (rc < 0) return rc;
            full = withmeta;
        }
        rc = hudi_sql_partition_columns_last(out, &full, t->cfg.partition_fields, err);
        hudi_field_dispose(&full);
        return rc;
    }
    if (e->schema.n_children > 0) return hudi_field_copy(out, &e->schema) < 0 ? oom(err) : 0;
    hudi_sql_scan_spec *spec = hudi_arena_alloc(&r->arena, sizeof(*spec));
    hudi_catalog_table *ec = hudi_arena_alloc(&r->arena, sizeof(*ec));
    if (!spec || !ec) return oom(err);
    int rc = hudi_catalog_table_copy(ec, e, err);
    if (rc < 0) return rc;
    spec->entry = ec;
    spec->display_name = e->name;
    rc = hudi_sql_scan_prepare(&r->ctx, spec, err);
    if (rc == 0 && hudi_field_copy(out, &spec->table_schema) < 0) rc = oom(err);
    hudi_catalog_table_dispose(ec);
    return rc;
}

/* Partition column names of an entry (arena strings). */
static int partition_names(hudi_sql_result *r, const hudi_catalog_table *e, const hudi_table *t,
                           const char ***out, int32_t *n, hudi_error *err) {
    *out = NULL;
    *n = 0;
    const char *csv = t ? t->cfg.partition_fields : e->partition_columns;
    if (!csv || !*csv) return 0;
    int32_t cap = 1;
    for (const char *p = csv; *p; p++) cap += *p == ',';
    const char **v = hudi_arena_alloc(&r->arena, sizeof(char *) * (size_t)cap);
    if (!v) return oom(err);
    const char *p = csv;
    for (;;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        while (len && *p == ' ') p++, len--;
        while (len && p[len - 1] == ' ') len--;
        /* CustomKeyGenerator's "field:type" */
        const char *colon = memchr(p, ':', len);
        if (colon) len = (size_t)(colon - p);
        if (len && !(v[(*n)++] = hudi_arena_strndup(&r->arena, p, len))) return oom(err);
        if (!c) break;
        p = c + 1;
    }
    *out = v;
    return 0;
}

static void type_name(hudi_buf *b, const hudi_field *f) { hudi_sql_type_spark_name(b, f); }

/* Spark's DataType.sql: upper-case names, STRUCT<name: TYPE, ...>. */
static void type_sql(hudi_buf *b, const hudi_field *f) {
    switch (f->type) {
    case HUDI_TYPE_LIST:
        hudi_buf_puts(b, "ARRAY<");
        type_sql(b, &f->children[0]);
        hudi_buf_putc(b, '>');
        return;
    case HUDI_TYPE_MAP: {
        const hudi_field *entries = &f->children[0];
        hudi_buf_puts(b, "MAP<");
        type_sql(b, &entries->children[0]);
        hudi_buf_puts(b, ", ");
        type_sql(b, &entries->children[1]);
        hudi_buf_putc(b, '>');
        return;
    }
    case HUDI_TYPE_STRUCT:
        hudi_buf_puts(b, "STRUCT<");
        for (int32_t i = 0; i < f->n_children; i++) {
            hudi_buf_printf(b, "%s%s: ", i ? ", " : "", f->children[i].name);
            type_sql(b, &f->children[i]);
        }
        hudi_buf_putc(b, '>');
        return;
    default: {
        hudi_buf t = HUDI_BUF_INIT;
        hudi_sql_type_spark_name(&t, f);
        for (size_t i = 0; i < t.len; i++)
            hudi_buf_putc(b, (t.data[i] >= 'a' && t.data[i] <= 'z') ? (char)(t.data[i] - 32)
                                                                    : t.data[i]);
        hudi_buf_dispose(&t);
    }
    }
}

static void sql_quote(hudi_buf *b, const char *s) {
    hudi_buf_putc(b, '\'');
    for (; *s; s++) {
        if (*s == '\'' || *s == '\\') hudi_buf_putc(b, '\\');
        hudi_buf_putc(b, *s);
    }
    hudi_buf_putc(b, '\'');
}

/* ---- SHOW ------------------------------------------------------------------------------- */

static int cmp_prop(const void *a, const void *b) {
    return strcmp(**(char *const *const *)a, **(char *const *const *)b);
}

static int show_tables(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                       hudi_error *err) {
    const char *db = s->database;
    if (st->table.parts.len) db = HUDI_SQL_AT(st->table.parts, char, st->table.parts.len - 1);
    char low[256];
    snprintf(low, sizeof(low), "%s", db);
    for (char *p = low; *p; p++)
        if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
    char **names = NULL;
    int rc = hudi_catalog_list_tables(s->catalog, low, &names, err);
    if (rc == HUDI_ENOTFOUND)
        return hudi_error_set(err, HUDI_ENOTFOUND, "Database '%s' not found", low);
    if (rc < 0) return rc;
    hudi_sql_rows w;
    const char *cols[] = {"namespace", "tableName", "isTemporary"};
    const hudi_type_id types[] = {HUDI_TYPE_STRING, HUDI_TYPE_STRING, HUDI_TYPE_BOOL};
    rc = hudi_sql_rows_begin(&w, r, 3, cols, types, err);
    for (char **n = names; rc == 0 && *n; n++) {
        if (st->pattern && !hudi_sql_like_pattern(st->pattern, *n)) continue;
        hudi_sql_rows_str(&w, 0, low);
        hudi_sql_rows_str(&w, 1, *n);
        hudi_sql_rows_bool(&w, 2, false);
        hudi_sql_rows_end(&w);
    }
    hudi_catalog_names_free(names);
    return rc < 0 ? rc : hudi_sql_rows_finish(&w, err);
}

static int show_databases(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                          hudi_error *err) {
    char **names = NULL;
    int rc = hudi_catalog_list_databases(s->catalog, &names, err);
    if (rc < 0) return rc;
    int32_t k = 0;
    for (char **n = names; *n; n++)
        if (!st->pattern || hudi_sql_like_pattern(st->pattern, *n))
            names[k++] = *n;
        else
            hudi_free(*n);
    names[k] = NULL;
    rc = string_rows(r, "namespace", names, k, err);
    hudi_catalog_names_free(names);
    return rc;
}

static int show_tblproperties(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                              hudi_error *err) {
    hudi_catalog_table e;
    int rc = resolve(s, &st->name, &e, err);
    if (rc < 0) return rc;
    hudi_sql_rows w;
    const char *cols[] = {"key", "value"};
    const hudi_type_id types[] = {HUDI_TYPE_STRING, HUDI_TYPE_STRING};
    rc = hudi_sql_rows_begin(&w, r, 2, cols, types, err);
    if (rc == 0 && st->pattern) {
        const char *v = hudi_catalog_table_prop(&e, st->pattern);
        hudi_buf msg = HUDI_BUF_INIT;
        if (!v)
            hudi_buf_printf(&msg, "Table %s.%s does not have property: %s", e.database, e.name,
                            st->pattern);
        hudi_sql_rows_str(&w, 0, st->pattern);
        hudi_sql_rows_str(&w, 1, v ? v : msg.data);
        hudi_sql_rows_end(&w);
        hudi_buf_dispose(&msg);
    } else {
        for (int32_t i = 0; rc == 0 && i < e.n_props; i++) {
            hudi_sql_rows_str(&w, 0, e.props[2 * i]);
            hudi_sql_rows_str(&w, 1, e.props[2 * i + 1]);
            hudi_sql_rows_end(&w);
        }
    }
    hudi_catalog_table_dispose(&e);
    return rc < 0 ? rc : hudi_sql_rows_finish(&w, err);
}

static int show_columns(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                        hudi_error *err) {
    hudi_sql_name name = st->name;
    hudi_sql_list parts = {0};
    if (st->table.parts.len && st->name.parts.len == 1) {
        /* SHOW COLUMNS IN t IN db */
        void *items[2] = {st->table.parts.items[st->table.parts.len - 1], st->name.parts.items[0]};
        void **copy = hudi_arena_alloc(&r->arena, sizeof(items));
        if (!copy) return oom(err);
        memcpy(copy, items, sizeof(items));
        parts.items = copy;
        parts.len = parts.cap = 2;
        name.parts = parts;
    }
    hudi_catalog_table e;
    int rc = resolve(s, &name, &e, err);
    if (rc < 0) return rc;
    hudi_field cols = {0};
    rc = table_columns(s, r, &e, &cols, NULL, err);
    hudi_sql_rows w;
    const char *cn[] = {"col_name"};
    const hudi_type_id types[] = {HUDI_TYPE_STRING};
    if (rc == 0) rc = hudi_sql_rows_begin(&w, r, 1, cn, types, err);
    for (int32_t i = 0; rc == 0 && i < cols.n_children; i++) {
        hudi_sql_rows_str(&w, 0, cols.children[i].name);
        hudi_sql_rows_end(&w);
    }
    hudi_field_dispose(&cols);
    hudi_catalog_table_dispose(&e);
    return rc < 0 ? rc : hudi_sql_rows_finish(&w, err);
}

static int show_partitions(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                           hudi_error *err) {
    hudi_catalog_table e;
    int rc = resolve(s, &st->name, &e, err);
    if (rc < 0) return rc;
    hudi_table *t = NULL;
    const char **parts = NULL;
    int32_t n = 0;
    rc = hudi_sql_open_entry(s, r, &e, "SHOW PARTITIONS", &t, err);
    if (rc == 0 && t->cfg.partition_fields && *t->cfg.partition_fields)
        rc = hudi_sql_match_partitions(s, r, t, st->partition, &parts, &n, err);
    hudi_catalog_table_dispose(&e);
    if (rc < 0) return rc;
    return string_rows(r, "partition", (char *const *)parts, n, err);
}

static int show_create_table(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                             hudi_error *err) {
    hudi_catalog_table e;
    int rc = resolve(s, &st->name, &e, err);
    if (rc < 0) return rc;
    hudi_field cols = {0};
    hudi_table *t = NULL;
    const char **pn = NULL;
    int32_t np = 0;
    rc = table_columns(s, r, &e, &cols, &t, err);
    if (rc == 0) rc = partition_names(r, &e, t, &pn, &np, err);
    hudi_buf b = HUDI_BUF_INIT;
    if (rc == 0) {
        hudi_buf_printf(&b, "CREATE TABLE spark_catalog.%s.%s (", e.database, e.name);
        bool first = true;
        for (int32_t i = 0; i < cols.n_children; i++) { /* meta columns too, as Spark shows */
            const hudi_field *f = &cols.children[i];
            hudi_buf_printf(&b, "%s\n  %s ", first ? "" : ",", f->name);
            type_sql(&b, f);
            if (!f->nullable) hudi_buf_puts(&b, " NOT NULL");
            if (f->comment && *f->comment) {
                hudi_buf_puts(&b, " COMMENT ");
                sql_quote(&b, f->comment);
            }
            first = false;
        }
        hudi_buf_printf(&b, ")\nUSING %s\n", e.provider == HUDI_CATALOG_HUDI ? "hudi" : "parquet");
        if (np) {
            hudi_buf_puts(&b, "PARTITIONED BY (");
            for (int32_t i = 0; i < np; i++) hudi_buf_printf(&b, "%s%s", i ? ", " : "", pn[i]);
            hudi_buf_puts(&b, ")\n");
        }
        if (e.comment) {
            hudi_buf_puts(&b, "COMMENT ");
            sql_quote(&b, e.comment);
            hudi_buf_putc(&b, '\n');
        }
        if (!e.managed) {
            hudi_buf loc = HUDI_BUF_INIT;
            hudi_buf_printf(&loc, "file:%s", e.location);
            hudi_buf_puts(&b, "LOCATION ");
            sql_quote(&b, loc.data ? loc.data : "");
            hudi_buf_putc(&b, '\n');
            hudi_buf_dispose(&loc);
        }
        /* properties sorted by key, the comment property left to COMMENT (Spark) */
        char **sorted[256];
        int32_t ns = 0;
        for (int32_t i = 0; i < e.n_props && ns < 256; i++)
            if (strcmp(e.props[2 * i], "comment") != 0) sorted[ns++] = &e.props[2 * i];
        qsort(sorted, (size_t)ns, sizeof(sorted[0]), cmp_prop);
        if (ns) {
            hudi_buf_puts(&b, "TBLPROPERTIES (");
            for (int32_t i = 0; i < ns; i++) {
                hudi_buf_puts(&b, i ? ",\n  " : "\n  ");
                sql_quote(&b, sorted[i][0]);
                hudi_buf_puts(&b, " = ");
                sql_quote(&b, sorted[i][1]);
            }
            hudi_buf_puts(&b, ")\n");
        }
        if (hudi_buf_failed(&b)) rc = oom(err);
    }
    hudi_field_dispose(&cols);
    hudi_catalog_table_dispose(&e);
    if (rc == 0) {
        char *v[] = {b.data};
        rc = string_rows(r, "createtab_stmt", v, 1, err);
    }
    hudi_buf_dispose(&b);
    return rc;
}

static int show_functions(hudi_sql_result *r, const hudi_sql_stmt *st, hudi_error *err) {
    int32_t n = 0;
    const hudi_sql_func *const *all = hudi_sql_func_all(&n);
    char **names = hudi_arena_alloc(&r->arena, sizeof(char *) * (size_t)(n + 1));
    if (!names) return oom(err);
    int32_t k = 0;
    for (int32_t i = 0; i < n; i++) {
        const char *nm = all[i]->name;
        /* operators are functions inside the engine; Spark lists them too (+, =, and ...) */
        if (st->pattern && !hudi_sql_like_pattern(st->pattern, nm)) continue;
        if (k > 0 && strcmp(names[k - 1], nm) == 0) continue;
        names[k++] = (char *)nm;
    }
    return string_rows(r, "function", names, k, err);
}

int hudi_sql_exec_show(hudi_sql_session *s, const hudi_sql_stmt *st, hudi_sql_result *r,
                       hudi_error *err) {
    switch (st->show) {
    case HUDI_SQL_SHOW_TABLES: r->statement = "SHOW TABLES"; return show_tables(s, r, st, err);
    case HUDI_SQL_SHOW_DATABASES:
        r->statement = "SHOW DATABASES";
        return show_databases(s, r, st, err);
    case HUDI_SQL_SHOW_PARTITIONS:
        r->statement = "SHOW PARTITIONS";
        return show_partitions(s, r, st, err);
    case HUDI_SQL_SHOW_TBLPROPERTIES:
        r->statement = "SHOW TBLPROPERTIES";
        return show_tblproperties(s, r, st, err);
    case HUDI_SQL_SHOW_COLUMNS: r->statement = "SHOW COLUMNS"; return show_columns(s, r, st, err);
    case HUDI_SQL_SHOW_CREATE_TABLE:
        r->statement = "SHOW CREATE TABLE";
        return show_create_table(s, r, st, err);
    case HUDI_SQL_SHOW_INDEXES:
        r->statement = "SHOW INDEXES";
        return hudi_error_set(err, HUDI_EUNSUPPORTED, "SHOW INDEXES is not supported yet");
    case HUDI_SQL_SHOW_CURRENT_DATABASE: {
        r->statement = "SHOW CURRENT NAMESPACE";
        hudi_sql_rows w;
        const char *cols[] = {"catalog", "namespace"};
        const hudi_type_id types[] = {HUDI_TYPE_STRING, HUDI_TYPE_STRING};
        int rc = hudi_sql_rows_begin(&w, r, 2, cols, types, err);
        if (rc < 0) return rc;
        hudi_sql_rows_str(&w, 0, "spark_catalog");
        hudi_sql_rows_str(&w, 1, s->database);
        hudi_sql_rows_end(&w);
        return hudi_sql_rows_finish(&w, err);
    }
    case HUDI_SQL_SHOW_CATALOGS: {
        r->statement = "SHOW CATALOGS";
        char **names = NULL;
        int rc = hudi_catalog_list_catalogs(s->catalog, &names, err);
        if (rc < 0) return rc;
        int32_t n = 0;
        while (names[n]) n++;
        char **all = hudi_arena_alloc(&r->arena, sizeof(char *) * (size_t)(n + 2));
        if (!all) {
            hudi_catalog_names_free(names);
            return oom(err);
        }
        all[0] = "spark_catalog";
        for (int32_t i = 0; i < n; i++) all[i + 1] = names[i];
        rc = string_rows(r, "catalog", all, n + 1, err);
        hudi_catalog_names_free(names);
        return rc;
    }
    case HUDI_SQL_SHOW_FUNCTIONS:
        r->statement = "SHOW FUNCTIONS";
        return show_functions(r, st, err);
    }
    return hudi_error_set(err, HUDI_EUNSUPPORTED, "this SHOW is not supported");
}

/* ---- DESCRIBE --------------------------------------------------------------------------- */

static void describe_row(hudi_sql_rows *w, const char *a, const char *b, const char *c) {
    hudi_sql_rows_str(w, 0, a);
    hudi_sql_rows_str(w, 1, b);
    hudi_sql_rows_str(w, 2, c);
    hudi_sql_rows_end(w);
}

static void describe_field(hudi_sql_rows *w, const hudi_field *f) {
    hudi_buf t = HUDI_BUF_INIT;
    type_name(&t, f);
    describe_row(w, f->name, t.data ? t.data : "", f->comment && *f->comment ? f->comment : NULL);
    hudi_buf_dispose(&t);
}

/* Java's Date.toString in UTC: "Tue Dec 01 17:39:23 UTC 2026". */
static void java_date(char *out, size_t cap, int64_t ms) {
    time_t secs = (time_t)(ms / 1000);
    struct tm tm;
    gmtime_r(&secs, &tm);
    strftime(out, cap, "%a %b %d %H:%M:%S UTC %Y", &tm);
}

static int describe_database(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                             hudi_error *err) {
    const char *name = HUDI_SQL_AT(st->name.parts, char, st->name.parts.len - 1);
    hudi_catalog_database d;
    int rc = hudi_catalog_get_database(s->catalog, name, &d, err);
    if (rc == HUDI_ENOTFOUND)
        return hudi_error_set(err, HUDI_ENOTFOUND, "Database '%s' not found", name);
    if (rc < 0) return rc;
    hudi_sql_rows w;
    const char *cols[] = {"info_name", "info_value"};
    const hudi_type_id types[] = {HUDI_TYPE_STRING, HUDI_TYPE_STRING};
    rc = hudi_sql_rows_begin(&w, r, 2, cols, types, err);
    if (rc == 0) {
        hudi_buf loc = HUDI_BUF_INIT;
        if (d.location)
            hudi_buf_printf(&loc, "file:%s", d.location);
        else
            hudi_buf_printf(&loc, "file:%s/%s", hudi_catalog_path(s->catalog), d.name);
        const char *rows[][2] = {{"Catalog Name", "spark_catalog"},
                                 {"Namespace Name", d.name},
                                 {"Comment", d.comment ? d.comment : ""},
                                 {"Location", loc.data}};
        for (size_t i = 0; i < HUDI_ARRAY_LEN(rows); i++) {
            hudi_sql_rows_str(&w, 0, rows[i][0]);
            hudi_sql_rows_str(&w, 1, rows[i][1]);
            hudi_sql_rows_end(&w);
        }
        if (st->extended) {
            hudi_buf p = HUDI_BUF_INIT;
            hudi_buf_putc(&p, '(');
            for (int32_t i = 0; i < d.n_props; i++)
                hudi_buf_printf(&p, "%s(%s,%s)", i ? ", " : "", d.props[2 * i], d.props[2 * i + 1]);
            hudi_buf_putc(&p, ')');
            hudi_sql_rows_str(&w, 0, "Properties");
            hudi_sql_rows_str(&w, 1, p.data);
            hudi_sql_rows_end(&w);
            hudi_buf_dispose(&p);
        }
        hudi_buf_dispose(&loc);
    }
    hudi_catalog_database_dispose(&d);
    return rc < 0 ? rc : hudi_sql_rows_finish(&w, err);
}

static int describe_table(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                          hudi_error *err) {
    hudi_catalog_table e;
    int rc = resolve(s, &st->name, &e, err);
    if (rc < 0) return rc;
    hudi_field cols = {0};
    hudi_table *t = NULL;
    const char **pn = NULL;
    int32_t np = 0;
    rc = table_columns(s, r, &e, &cols, &t, err);
    if (rc == 0) rc = partition_names(r, &e, t, &pn, &np, err);
    hudi_sql_rows w;
    memset(&w, 0, sizeof(w));
    if (rc == 0 && st->describe_column.parts.len) {
        /* DESCRIBE t col: info_name, info_value */
        const char *cn =
            HUDI_SQL_AT(st->describe_column.parts, char, st->describe_column.parts.len - 1);
        const hudi_field *f = NULL;
        for (int32_t i = 0; i < cols.n_children; i++)
            if (strcasecmp(cols.children[i].name, cn) == 0) f = &cols.children[i];
        if (!f) {
            rc = hudi_error_set(err, HUDI_ESQL, "line %u, column %u: Column %s does not exist",
                                st->describe_column.pos.line, st->describe_column.pos.col, cn);
        } else {
            const char *cn2[] = {"info_name", "info_value"};
            const hudi_type_id ty[] = {HUDI_TYPE_STRING, HUDI_TYPE_STRING};
            rc = hudi_sql_rows_begin(&w, r, 2, cn2, ty, err);
            hudi_buf tn = HUDI_BUF_INIT;
            type_name(&tn, f);
            const char *rows[][2] = {{"col_name", f->name},
                                     {"data_type", tn.data},
                                     {"comment", f->comment ? f->comment : "NULL"}};
            for (size_t i = 0; rc == 0 && i < HUDI_ARRAY_LEN(rows); i++) {
                hudi_sql_rows_str(&w, 0, rows[i][0]);
                hudi_sql_rows_str(&w, 1, rows[i][1]);
                hudi_sql_rows_end(&w);
            }
            hudi_buf_dispose(&tn);
        }
        goto done;
    }
    const char *cn[] = {"col_name", "data_type", "comment"};
    const hudi_type_id ty[] = {HUDI_TYPE_STRING, HUDI_TYPE_STRING, HUDI_TYPE_STRING};
    if (rc == 0) rc = hudi_sql_rows_begin(&w, r, 3, cn, ty, err);
    if (rc < 0) goto done;
    for (int32_t i = 0; i < cols.n_children; i++) describe_field(&w, &cols.children[i]);
    if (np) {
        describe_row(&w, "# Partition Information", "", "");
        describe_row(&w, "# col_name", "data_type", "comment");
        for (int32_t i = 0; i < np; i++)
            for (int32_t c = 0; c < cols.n_children; c++)
                if (strcasecmp(cols.children[c].name, pn[i]) == 0)
                    describe_field(&w, &cols.children[c]);
    }
    if (st->extended) {
        char created[64];
        java_date(created, sizeof(created), e.created_ms);
        hudi_buf props = HUDI_BUF_INIT, loc = HUDI_BUF_INIT, by = HUDI_BUF_INIT;
        char **sorted[256];
        int32_t ns = 0;
        for (int32_t i = 0; i < e.n_props && ns < 256; i++) sorted[ns++] = &e.props[2 * i];
        qsort(sorted, (size_t)ns, sizeof(sorted[0]), cmp_prop);
        hudi_buf_putc(&props, '[');
        for (int32_t i = 0; i < ns; i++)
            hudi_buf_printf(&props, "%s%s=%s", i ? ", " : "", sorted[i][0], sorted[i][1]);
        hudi_buf_putc(&props, ']');
        hudi_buf_printf(&loc, "file:%s", e.location);
        hudi_buf_printf(&by, "hudic %s", hudi_version());
        describe_row(&w, "", "", "");
        describe_row(&w, "# Detailed Table Information", "", "");
        describe_row(&w, "Catalog", "spark_catalog", "");
        describe_row(&w, "Database", e.database, "");
        describe_row(&w, "Table", e.name, "");
        describe_row(&w, "Created Time", created, "");
        describe_row(&w, "Last Access", "UNKNOWN", "");
        describe_row(&w, "Created By", by.data, "");
        describe_row(&w, "Type", e.managed ? "MANAGED" : "EXTERNAL", "");
        describe_row(&w, "Provider", e.provider == HUDI_CATALOG_HUDI ? "hudi" : "parquet", "");
        if (e.comment) describe_row(&w, "Comment", e.comment, "");
        if (e.n_props) describe_row(&w, "Table Properties", props.data, "");
        describe_row(&w, "Location", loc.data, "");
        if (np) describe_row(&w, "Partition Provider", "Catalog", "");
        hudi_buf_dispose(&props);
        hudi_buf_dispose(&loc);
        hudi_buf_dispose(&by);
    }
done:
    hudi_field_dispose(&cols);
    hudi_catalog_table_dispose(&e);
    if (rc < 0) {
        hudi_sql_rows_abort(&w);
        return rc;
    }
    return hudi_sql_rows_finish(&w, err);
}

static int describe_query(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                          hudi_error *err) {
    hudi_sql_plan *p = NULL;
    int rc = hudi_sql_plan_query(s, r, st->query, &p, err);
    if (rc < 0) return rc;
    hudi_field schema = p->schema; /* the plan is not run */
    r->plan = NULL;
    hudi_sql_rows w;
    const char *cn[] = {"col_name", "data_type", "comment"};
    const hudi_type_id ty[] = {HUDI_TYPE_STRING, HUDI_TYPE_STRING, HUDI_TYPE_STRING};
    if ((rc = hudi_sql_rows_begin(&w, r, 3, cn, ty, err)) < 0) return rc;
    for (int32_t i = 0; i < schema.n_children; i++) describe_field(&w, &schema.children[i]);
    return hudi_sql_rows_finish(&w, err);
}

int hudi_sql_exec_describe(hudi_sql_session *s, const hudi_sql_stmt *st, hudi_sql_result *r,
                           hudi_error *err) {
    if (st->describe == 2) return describe_database(s, r, st, err);
    if (st->describe == 1) return describe_query(s, r, st, err);
    if (st->partition && st->partition->len)
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "DESCRIBE ... PARTITION is not supported yet");
    return describe_table(s, r, st, err);
}
