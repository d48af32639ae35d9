/* ddl.c - CREATE/DROP/ALTER/TRUNCATE TABLE, databases, USE, CREATE CATALOG and the index
 * statements (docs/SQL.md "Statements"), over the warehouse catalog (catalog/catalog.h,
 * docs/formats/catalog.md) and the write layer (write/write.h).
 *
 * What Spark-Hudi 0.15 does for the same statements (docs/SQL.md records these facts):
 *  - CREATE TABLE ... USING hudi initialises .hoodie/hoodie.properties without a commit;
 *    SQL-created tables get hoodie.datasource.write.hive_style_partitioning=true and
 *    ...partitionpath.urlencode=false, hoodie.database.name = the database; the key generator
 *    is inferred (Simple / Complex / Nonpartitioned). Flink's CREATE TABLE ... WITH
 *    ('connector'='hudi') defaults hive-style partitioning to false and the ordering field to
 *    `ts` when such a column exists.
 *  - CREATE TABLE ... LOCATION on an existing Hudi table reads the schema and configs from it;
 *    given key/partition/ordering fields must agree with hoodie.properties. (Spark-Hudi also
 *    re-initialises hoodie.properties there; hudic registers without touching the table.)
 *    A managed table whose folder exists is refused.
 *  - TRUNCATE TABLE t PARTITION (...) is a delete_partition write (a replacecommit).
 *    TRUNCATE TABLE t without a partition deletes the base path and re-creates
 *    hoodie.properties in Hudi; hudic commits an insert_overwrite_table of no rows instead (one
 *    atomic replacecommit retiring every file group: the same rows, none, and a failure leaves
 *    the table as it was).
 *  - ALTER TABLE RENAME TO rewrites hoodie.table.name in hoodie.properties, then renames the
 *    catalog entry (a managed table's folder moves).
 *  - ALTER TABLE SET/UNSET TBLPROPERTIES change catalog properties only.
 *  - ALTER TABLE DROP PARTITION is a delete_partition write; PURGE also deletes the folders.
 *  - ALTER TABLE ADD COLUMNS / ALTER|CHANGE / DROP / RENAME COLUMN commit the new table schema
 *    as an ALTER_SCHEMA commit (ddl_alter.c). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <unistd.h>

#include "read/read.h"
#include "schema/schema.h"
#include "sql/ddl_int.h"
#include "write/write.h"

static char *adup(hudi_sql_result *r, const char *s) {
    return s ? hudi_arena_strdup(&r->arena, s) : NULL;
}

static char *alower(hudi_sql_result *r, const char *s) {
    char *d = adup(r, s);
    for (char *p = d; p && *p; p++)
        if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
    return d;
}

static int oom(hudi_error *err) { return hudi_error_oom(err); }

static int esql(hudi_error *err, hudi_sql_pos pos, const char *fmt, ...) HUDI_PRINTF(3, 4);
static int esql(hudi_error *err, hudi_sql_pos pos, const char *fmt, ...) {
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (pos.line > 0)
        return hudi_error_set(err, HUDI_ESQL, "line %u, column %u: %s", pos.line, pos.col, msg);
    return hudi_error_set(err, HUDI_ESQL, "%s", msg);
}

/* ---- shared helpers (ddl_int.h) -------------------------------------------------------- */

int hudi_sql_split_name(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_name *n,
                        const char **db, const char **name, hudi_error *err) {
    uint32_t k = n->parts.len;
    if (k == 0 || k > 3) return esql(err, n->pos, "invalid name");
    *name = alower(r, HUDI_SQL_AT(n->parts, char, k - 1));
    *db = k >= 2 ? alower(r, HUDI_SQL_AT(n->parts, char, k - 2)) : adup(r, s->database);
    if (!*name || !*db) return oom(err);
    return 0;
}

int hudi_sql_const_text(hudi_sql_result *r, const hudi_sql_expr *e, const char *what,
                        const char **out, hudi_error *err) {
    *out = NULL;
    if (!e) return 0;
    if (e->kind == HUDI_SQL_E_UNARY && e->op == HUDI_SQL_OP_NEG && e->left &&
        e->left->kind == HUDI_SQL_E_LITERAL && e->left->text) {
        hudi_buf b = HUDI_BUF_INIT;
        hudi_buf_putc(&b, '-');
        hudi_buf_append(&b, e->left->text, e->left->text_len);
        *out = hudi_buf_failed(&b) ? NULL : hudi_arena_strndup(&r->arena, b.data, b.len);
        hudi_buf_dispose(&b);
        return *out ? 0 : oom(err);
    }
    if (e->kind != HUDI_SQL_E_LITERAL) return esql(err, e->pos, "%s must be a constant", what);
    if (e->lit == HUDI_SQL_L_NULL) return 0;
    if (e->lit == HUDI_SQL_L_INTERVAL)
        return esql(err, e->pos, "%s must be a string, number or boolean", what);
    *out = hudi_arena_strndup(&r->arena, e->text ? e->text : "", e->text ? e->text_len : 0);
    return *out ? 0 : oom(err);
}

int hudi_sql_open_entry(hudi_sql_session *s, hudi_sql_result *r, const hudi_catalog_table *e,
                        const char *statement, hudi_table **out, hudi_error *err) {
    *out = NULL;
    if (e->provider != HUDI_CATALOG_HUDI)
        return hudi_error_set(err, HUDI_EINVAL, "%s needs a Hudi table: %s.%s is USING parquet",
                              statement, e->database, e->name);
    hudi_table *t = NULL;
    int rc = hudi_tbl_open(&t, s->fs, e->location, err);
    if (rc < 0) return rc;
    if ((rc = hudi_sql_result_own_table(r, t, err)) < 0) return rc;
    *out = t;
    return 0;
}

bool hudi_sql_like_pattern(const char *pattern, const char *name) {
    const char *alt = pattern;
    for (;;) {
        const char *end = strchr(alt, '|');
        size_t len = end ? (size_t)(end - alt) : strlen(alt);
        /* trim, as Spark does */
        const char *p = alt;
        size_t n = len;
        while (n && (*p == ' ' || *p == '\t')) p++, n--;
        while (n && (p[n - 1] == ' ' || p[n - 1] == '\t')) n--;
        /* glob over [p, p+n) against name: '*' any run, '.' any one character (Spark turns the
         * pattern into a regular expression), other characters case-insensitively */
        const char *star_p = NULL, *star_s = NULL, *q = p, *qe = p + n, *t = name;
        bool ok;
        for (;;) {
            if (*t) {
                if (q < qe && *q == '*') {
                    star_p = ++q;
                    star_s = t;
                    continue;
                }
                char a = *q, b = *t;
                if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
                if (b >= 'A' && b <= 'Z') b = (char)(b - 'A' + 'a');
                if (q < qe && (a == b || *q == '.')) {
                    q++;
                    t++;
                    continue;
                }
                if (star_p) {
                    q = star_p;
                    t = ++star_s;
                    continue;
                }
                ok = false;
                break;
            }
            while (q < qe && *q == '*') q++;
            ok = q == qe;
            break;
        }
        if (ok) return true;
        if (!end) return false;
        alt = end + 1;
    }
}

/* Hive's escapePathName (docs/formats/keys.md §8). */
static void escape_path_value(hudi_buf *b, const char *v) {
    static const char specials[] = "\"#%'*/:=?\\{[]^";
    for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
        if (*p < 0x20 || *p == 0x7f || strchr(specials, *p))
            hudi_buf_printf(b, "%%%02X", *p);
        else
            hudi_buf_putc(b, (char)*p);
    }
}

static int split_csv(hudi_sql_result *r, const char *csv, const char ***out, int32_t *n,
                     hudi_error *err) {
    *out = NULL;
    *n = 0;
    if (!csv || !*csv) return 0;
    int32_t cap = 1;
    for (const char *p = csv; *p; p++) cap += *p == ',';
    const char **v = hudi_arena_alloc(&r->arena, sizeof(char *) * (size_t)cap);
    if (!v) return oom(err);
    const char *p = csv;
    for (;;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        while (len && *p == ' ') p++, len--;
        while (len && p[len - 1] == ' ') len--;
        if (len && !(v[(*n)++] = hudi_arena_strndup(&r->arena, p, len))) return oom(err);
        if (!e) break;
        p = e + 1;
    }
    *out = v;
    return 0;
}

/* Hudi's TimelineUtils.getDroppedPartitions over the active timeline: partitions that a
 * completed delete_partition / insert_overwrite(_table) replacecommit replaced and that no
 * later completed commit wrote. Spark-Hudi leaves them out of SHOW PARTITIONS (their folders
 * stay until the cleaner runs). Arena strings in *out. */
static int dropped_partitions(hudi_sql_result *r, hudi_table *t, const char ***out, int32_t *n,
                              hudi_error *err) {
    *out = NULL;
    *n = 0;
    hudi_instant_list l = {0};
    int rc = hudi_timeline_completed_commits(&l, t->timeline, err);
    if (rc < 0) return rc;
    hudi_map del = HUDI_MAP_INIT; /* partition -> latest delete time (arena string) */
    const char *earliest = NULL;
    for (size_t i = 0; rc == 0 && i < l.count; i++) {
        const hudi_instant *in = l.items[i];
        if (in->action != HUDI_ACTION_REPLACECOMMIT) continue;
        hudi_buf json = HUDI_BUF_INIT;
        hudi_commit_metadata *md = NULL;
        rc = hudi_timeline_read_commit_json(&json, t->timeline, in, err);
        if (rc == 0) rc = hudi_commit_metadata_parse(&md, json.data, json.len, in->file, err);
        const char *op = md ? md->operation_type : NULL;
        if (rc == 0 && op &&
            (!strcmp(op, "DELETE_PARTITION") || !strcmp(op, "INSERT_OVERWRITE_TABLE") ||
             !strcmp(op, "INSERT_OVERWRITE"))) {
            for (size_t p = 0; rc == 0 && p < md->replaced_count; p++) {
                const char *part = md->replaced[p].partition_path;
                if (hudi_map_put(&del, part, strlen(part), (void *)in->time, NULL) < 0)
                    rc = oom(err);
            }
            if (!earliest) earliest = in->time;
        }
        hudi_commit_metadata_free(md);
        hudi_buf_dispose(&json);
    }
    const char **res = NULL;
    if (rc == 0 && del.len > 0) {
        /* writes since the earliest delete bring a partition back */
        for (size_t i = 0; rc == 0 && i < l.count; i++) {
            const hudi_instant *in = l.items[i];
            if (hudi_instant_time_cmp(in->time, earliest) < 0) continue;
            hudi_buf json = HUDI_BUF_INIT;
            hudi_commit_metadata *md = NULL;
            rc = hudi_timeline_read_commit_json(&json, t->timeline, in, err);
            if (rc == 0) rc = hudi_commit_metadata_parse(&md, json.data, json.len, in->file, err);
            for (size_t p = 0; rc == 0 && p < md->partitions_count; p++) {
                const char *part = md->partitions[p].partition_path;
                const char *dt = hudi_map_get(&del, part, strlen(part));
                if (dt && hudi_instant_time_cmp(dt, in->time) <= 0)
                    hudi_map_remove(&del, part, strlen(part), NULL);
            }
            hudi_commit_metadata_free(md);
            hudi_buf_dispose(&json);
        }
        if (rc == 0 && !(res = hudi_arena_alloc(&r->arena, sizeof(char *) * (del.len + 1))))
            rc = oom(err);
        size_t it = 0;
        hudi_map_entry *e;
        while (rc == 0 && (e = hudi_map_next(&del, &it)))
            if (e->key_len && !(res[(*n)++] = hudi_arena_strndup(&r->arena, e->key, e->key_len)))
                rc = oom(err);
    }
    hudi_map_dispose(&del);
    hudi_instant_list_dispose(&l);
    *out = res;
    return rc;
}

int hudi_sql_match_partitions(hudi_sql_session *s, hudi_sql_result *r, hudi_table *t,
                              const hudi_sql_partspec *spec, const char ***out, int32_t *n,
                              hudi_error *err) {
    *out = NULL;
    *n = 0;
    const char **fields = NULL;
    int32_t nf = 0;
    int rc = split_csv(r, t->cfg.partition_fields, &fields, &nf, err);
    if (rc < 0) return rc;
    /* the spec's value for each field (NULL: any) */
    const char **want = hudi_arena_alloc(&r->arena, sizeof(char *) * (size_t)(nf + 1));
    if (!want) return oom(err);
    for (uint32_t i = 0; spec && i < spec->len; i++) {
        const hudi_sql_part_kv *kv = HUDI_SQL_AT(*spec, hudi_sql_part_kv, i);
        int32_t f = -1;
        for (int32_t j = 0; j < nf; j++)
            if (strcasecmp(fields[j], kv->name) == 0) f = j;
        if (f < 0)
            return hudi_error_set(err, HUDI_ESQL,
                                  "%s is not a valid partition column in table %s (partition "
                                  "fields: %s)",
                                  kv->name, t->cfg.name,
                                  t->cfg.partition_fields ? t->cfg.partition_fields : "none");
        const char *v;
        if ((rc = hudi_sql_const_text(r, kv->value, "a partition value", &v, err)) < 0) return rc;
        if (!kv->value)
            return hudi_error_set(err, HUDI_ESQL, "partition %s needs a value", kv->name);
        hudi_buf b = HUDI_BUF_INIT;
        if (!v || !*v)
            hudi_buf_puts(&b, "__HIVE_DEFAULT_PARTITION__");
        else if (t->cfg.url_encode_partitions)
            escape_path_value(&b, v);
        else
            hudi_buf_puts(&b, v);
        want[f] = hudi_buf_failed(&b) ? NULL : hudi_arena_strndup(&r->arena, b.data, b.len);
        hudi_buf_dispose(&b);
        if (!want[f]) return oom(err);
    }
    const char **dropped = NULL;
    int32_t n_dropped = 0;
    if ((rc = dropped_partitions(r, t, &dropped, &n_dropped, err)) < 0) return rc;
    char **parts = NULL;
    size_t np = 0;
    if ((rc = hudi_table_list_partitions(s->fs, t->base_path, &parts, &np, err)) < 0) return rc;
    const char **res = hudi_arena_alloc(&r->arena, sizeof(char *) * (np + 1));
    if (!res) rc = oom(err);
    for (size_t i = 0; rc == 0 && i < np; i++) {
        if (!*parts[i]) continue; /* the base path itself: a non-partitioned table */
        bool ok = true;
        for (int32_t d = 0; d < n_dropped && ok; d++) ok = strcmp(dropped[d], parts[i]) != 0;
        const char *seg = parts[i];
        for (int32_t f = 0; f < nf && ok; f++) {
            const char *e = strchr(seg, '/');
            size_t len = e ? (size_t)(e - seg) : strlen(seg);
            const char *val = seg;
            size_t vlen = len;
            if (t->cfg.hive_style_partitioning) {
                const char *eq = memchr(seg, '=', len);
                if (eq) {
                    val = eq + 1;
                    vlen = len - (size_t)(val - seg);
                }
            }
            if (want[f] && (strlen(want[f]) != vlen || memcmp(want[f], val, vlen) != 0)) ok = false;
            seg = e ? e + 1 : seg + len;
        }
        if (ok && !(res[(*n)++] = hudi_arena_strdup(&r->arena, parts[i]))) rc = oom(err);
    }
    for (size_t i = 0; i < np; i++) hudi_free(parts[i]);
    hudi_free(parts);
    *out = res;
    return rc;
}

/* ---- CREATE TABLE ---------------------------------------------------------------------- */

/* The properties of a CREATE TABLE: OPTIONS, TBLPROPERTIES and WITH, in that order. */
typedef struct props {
    const char **kv; /* key, value, ... (arena) */
    int32_t n, cap;
} props;

static const char *prop_get(const props *p, const char *key) {
    for (int32_t i = p->n - 1; i >= 0; i--)
        if (strcmp(p->kv[2 * i], key) == 0) return p->kv[2 * i + 1];
    return NULL;
}

static int prop_put(hudi_sql_result *r, props *p, const char *k, const char *v, hudi_error *err) {
    for (int32_t i = 0; i < p->n; i++)
        if (strcmp(p->kv[2 * i], k) == 0) {
            p->kv[2 * i + 1] = v;
            return 0;
        }
    if (p->n == p->cap) {
        int32_t cap = p->cap ? 2 * p->cap : 16;
        const char **kv = hudi_arena_alloc(&r->arena, sizeof(char *) * (size_t)(2 * cap + 1));
        if (!kv) return oom(err);
        if (p->n) memcpy(kv, p->kv, sizeof(char *) * (size_t)(2 * p->n));
        p->kv = kv;
        p->cap = cap;
    }
    p->kv[2 * p->n] = k;
    p->kv[2 * p->n + 1] = v ? v : "";
    p->n++;
    p->kv[2 * p->n] = NULL;
    return 0;
}

static int collect_props(hudi_sql_result *r, const hudi_sql_list *l, props *p, hudi_error *err) {
    for (uint32_t i = 0; i < l->len; i++) {
        const hudi_sql_prop *pr = HUDI_SQL_AT(*l, hudi_sql_prop, i);
        const char *v;
        int rc = hudi_sql_const_text(r, pr->value, "a property value", &v, err);
        if (rc < 0) return rc;
        if ((rc = prop_put(r, p, pr->key, v ? v : "", err)) < 0) return rc;
    }
    return 0;
}

/* A path as the catalog keeps it: absolute, without file:// and trailing slashes. */
static const char *norm_location(hudi_sql_result *r, const char *loc) {
    if (strncmp(loc, "file://", 7) == 0) loc += 7;
    if (strncmp(loc, "file:", 5) == 0) loc += 5;
    hudi_buf b = HUDI_BUF_INIT;
    if (loc[0] != '/') {
        char cwd[4096];
        if (getcwd(cwd, sizeof(cwd))) {
            hudi_buf_puts(&b, cwd);
            hudi_buf_putc(&b, '/');
        }
    }
    hudi_buf_puts(&b, loc);
    while (b.len > 1 && b.data[b.len - 1] == '/') b.len--;
    const char *res = hudi_buf_failed(&b) ? NULL : hudi_arena_strndup(&r->arena, b.data, b.len);
    hudi_buf_dispose(&b);
    return res;
}

static int find_child(const hudi_field *st, const char *name) {
    for (int32_t i = 0; i < st->n_children; i++)
        if (strcasecmp(st->children[i].name, name) == 0) return i;
    return -1;
}

/* Canonical column list: each name in `csv` must name a column of `schema` (ESQL "Can't find
 * <what> `x` in <cols>"); returns the names as the schema spells them, comma-joined. */
static int check_columns(hudi_sql_result *r, const hudi_field *schema, const char *csv,
                         const char *what, const char **out, hudi_error *err) {
    *out = NULL;
    const char **names;
    int32_t n;
    int rc = split_csv(r, csv, &names, &n, err);
    if (rc < 0) return rc;
    hudi_buf b = HUDI_BUF_INIT;
    for (int32_t i = 0; i < n; i++) {
        int c = find_child(schema, names[i]);
        if (c < 0) {
            hudi_buf cols = HUDI_BUF_INIT;
            for (int32_t j = 0; j < schema->n_children; j++)
                hudi_buf_printf(&cols, "%s%s", j ? ", " : "", schema->children[j].name);
            rc = hudi_error_set(err, HUDI_ESQL, "Can't find %s `%s` in %s", what, names[i],
                                cols.data ? cols.data : "");
            hudi_buf_dispose(&cols);
            hudi_buf_dispose(&b);
            return rc;
        }
        hudi_buf_printf(&b, "%s%s", i ? "," : "", schema->children[c].name);
    }
    if (n) *out = hudi_buf_failed(&b) ? NULL : hudi_arena_strndup(&r->arena, b.data, b.len);
    hudi_buf_dispose(&b);
    return (n && !*out) ? oom(err) : 0;
}

/* The schema of a CREATE TABLE's column list, partition columns last (as Spark orders a
 * datasource table's schema); PARTITIONED BY (c TYPE) adds the column. `parts` gets the
 * partition column names comma-joined (NULL when none). */
static int build_schema(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                        hudi_field *out, const char **parts, hudi_error *err) {
    *parts = NULL;
    int32_t n = (int32_t)st->columns.len, np = (int32_t)st->partitioned_by.len;
    hudi_field *cols = hudi_arena_alloc(&r->arena, sizeof(hudi_field) * (size_t)(n + np + 1));
    bool *is_part = hudi_arena_alloc(&r->arena, (size_t)(n + np + 1));
    if (!cols || !is_part) return oom(err);
    int rc;
    for (int32_t i = 0; i < n; i++) {
        const hudi_sql_coldef *cd = HUDI_SQL_AT(st->columns, hudi_sql_coldef, i);
        const char *name = HUDI_SQL_AT(cd->name.parts, char, 0);
        if (strchr(name, ','))
            return esql(err, cd->pos, "column name '%s' contains ',' (not allowed in Hudi)", name);
        for (int32_t j = 0; j < i; j++)
            if (strcasecmp(cols[j].name, name) == 0)
                return esql(err, cd->pos, "Found duplicate column(s) in the table definition: %s",
                            name);
        if ((rc = hudi_sql_type_from_ast(&r->arena, cd->type, name, &cols[i], err)) < 0) return rc;
        cols[i].nullable = !cd->not_null;
        if (cd->comment && !(cols[i].comment = hudi_arena_strdup(&r->arena, cd->comment)))
            return oom(err);
    }
    hudi_buf pb = HUDI_BUF_INIT;
    for (int32_t i = 0; i < np; i++) {
        const hudi_sql_coldef *cd = HUDI_SQL_AT(st->partitioned_by, hudi_sql_coldef, i);
        const char *name = HUDI_SQL_AT(cd->name.parts, char, 0);
        int32_t c = -1;
        for (int32_t j = 0; j < n; j++)
            if (strcasecmp(cols[j].name, name) == 0) c = j;
        if (c < 0 && cd->type) {
            if ((rc = hudi_sql_type_from_ast(&r->arena, cd->type, name, &cols[n], err)) < 0) {
                hudi_buf_dispose(&pb);
                return rc;
            }
            cols[n].nullable = true;
            c = n++;
        }
        if (c < 0 && st->query) { /* CTAS: checked against the query's columns */
            hudi_buf_printf(&pb, "%s%s", i ? "," : "", name);
            continue;
        }
        if (c < 0) {
            hudi_buf_dispose(&pb);
            return esql(err, cd->pos, "partition column %s is not a column of the table", name);
        }
        if (is_part[c]) {
            hudi_buf_dispose(&pb);
            return esql(err, cd->pos, "partition column %s is listed twice", name);
        }
        is_part[c] = true;
        hudi_buf_printf(&pb, "%s%s", i ? "," : "", cols[c].name);
    }
    if (np) {
        *parts = hudi_buf_failed(&pb) ? NULL : hudi_arena_strndup(&r->arena, pb.data, pb.len);
        hudi_buf_dispose(&pb);
        if (!*parts) return oom(err);
    }
    memset(out, 0, sizeof(*out));
    out->name = hudi_arena_strdup(&r->arena, "schema");
    out->type = HUDI_TYPE_STRUCT;
    out->field_id = -1;
    out->n_children = n;
    out->children = hudi_arena_alloc(&r->arena, sizeof(hudi_field) * (size_t)(n + 1));
    if (!out->children || !out->name) return oom(err);
    int32_t k = 0;
    for (int32_t i = 0; i < n; i++)
        if (!is_part[i]) out->children[k++] = cols[i];
    /* partition columns in PARTITIONED BY order */
    for (int32_t i = 0; i < np; i++) {
        const hudi_sql_coldef *cd = HUDI_SQL_AT(st->partitioned_by, hudi_sql_coldef, i);
        const char *name = HUDI_SQL_AT(cd->name.parts, char, 0);
        for (int32_t j = 0; j < n; j++)
            if (is_part[j] && strcasecmp(cols[j].name, name) == 0) out->children[k++] = cols[j];
    }
    HUDI_UNUSED(s);
    return 0;
}

/* Heap copy of an arena schema for a catalog entry. */
static int entry_schema(hudi_catalog_table *e, const hudi_field *schema, hudi_error *err) {
    if (schema && schema->n_children > 0) {
        if (hudi_field_copy(&e->schema, schema) < 0) return oom(err);
    } else if (hudi_field_init(&e->schema, "schema", HUDI_TYPE_STRUCT, false) < 0) {
        return oom(err);
    }
    return 0;
}

static int entry_props(hudi_catalog_table *e, const props *p, hudi_error *err) {
    e->props = hudi_calloc(2 * (size_t)p->n + 1, sizeof(char *));
    if (!e->props) return oom(err);
    for (int32_t i = 0; i < p->n; i++) {
        if (!(e->props[2 * i] = hudi_strdup(p->kv[2 * i]))) return oom(err);
        if (!(e->props[2 * i + 1] = hudi_strdup(p->kv[2 * i + 1]))) {
            hudi_free(e->props[2 * i]);
            e->props[2 * i] = NULL;
            return oom(err);
        }
        e->n_props = i + 1;
    }
    return 0;
}

static bool is_true(const char *v) { return v && strcasecmp(v, "true") == 0; }

/* Keys the table's own config holds (set from the statement's key fields, never passed
 * through). */
static bool is_managed_key(const char *k) {
    static const char *const keys[] = {
        "hoodie.table.name",
        "hoodie.table.type",
        "hoodie.table.recordkey.fields",
        "hoodie.table.partition.fields",
        "hoodie.table.precombine.field",
        "hoodie.table.keygenerator.class",
        "hoodie.table.version",
        "hoodie.table.create.schema",
        "hoodie.table.checksum",
        "hoodie.timeline.layout.version",
        "hoodie.database.name",
        "hoodie.datasource.write.hive_style_partitioning",
        "hoodie.datasource.write.partitionpath.urlencode",
        "hoodie.populate.meta.fields",
    };
    for (size_t i = 0; i < HUDI_ARRAY_LEN(keys); i++)
        if (strcmp(k, keys[i]) == 0) return true;
    return false;
}

typedef struct create_plan {
    const char *db, *name, *location;
    bool managed, flink;
    hudi_catalog_provider provider;
    props p;
    const char *record_key, *precombine, *parts, *keygen;
    bool hive_style, url_encode;
    hudi_table_type type;
} create_plan;

/* The key, ordering and layout settings of a CREATE TABLE, Spark's or Flink's. */
static int resolve_hudi_options(hudi_sql_result *r, const hudi_sql_stmt *st, create_plan *cp,
                                const hudi_field *schema, hudi_error *err) {
    props *p = &cp->p;
    int rc;
    /* table type */
    const char *type = prop_get(p, "type");
    if (!type) type = prop_get(p, "hoodie.datasource.write.table.type");
    if (!type) type = prop_get(p, "hoodie.table.type");
    if (!type) type = prop_get(p, "table.type");
    cp->type = HUDI_COPY_ON_WRITE;
    if (type) {
        if (strcasecmp(type, "cow") == 0 || strcasecmp(type, "COPY_ON_WRITE") == 0) {
            cp->type = HUDI_COPY_ON_WRITE;
        } else if (strcasecmp(type, "mor") == 0 || strcasecmp(type, "MERGE_ON_READ") == 0) {
            cp->type = HUDI_MERGE_ON_READ;
        } else {
            return hudi_error_set(err, HUDI_ESQL, "'type' must be 'cow' or 'mor', not '%s'", type);
        }
    }
    /* record key: primaryKey, PRIMARY KEY (...) NOT ENFORCED, hoodie keys */
    const char *pk = prop_get(p, "primaryKey");
    if (!pk && st->primary_key.len) {
        hudi_buf b = HUDI_BUF_INIT;
        for (uint32_t i = 0; i < st->primary_key.len; i++)
            hudi_buf_printf(&b, "%s%s", i ? "," : "", HUDI_SQL_AT(st->primary_key, char, i));
        pk = hudi_buf_failed(&b) ? NULL : hudi_arena_strndup(&r->arena, b.data, b.len);
        hudi_buf_dispose(&b);
        if (!pk) return oom(err);
    }
    if (!pk) {
        hudi_buf b = HUDI_BUF_INIT;
        for (uint32_t i = 0; i < st->columns.len; i++) {
            const hudi_sql_coldef *cd = HUDI_SQL_AT(st->columns, hudi_sql_coldef, i);
            if (cd->primary_key)
                hudi_buf_printf(&b, "%s%s", b.len ? "," : "", HUDI_SQL_AT(cd->name.parts, char, 0));
        }
        if (b.len) pk = hudi_arena_strndup(&r->arena, b.data, b.len);
        hudi_buf_dispose(&b);
    }
    if (!pk) pk = prop_get(p, "hoodie.datasource.write.recordkey.field");
    if (!pk) pk = prop_get(p, "hoodie.table.recordkey.fields");
    if (!pk && cp->flink && find_child(schema, "uuid") >= 0) pk = "uuid"; /* Flink's default */
    /* no primaryKey: record keys generated on insert (docs/formats/keys.md §9) */
    if (pk && *pk && (rc = check_columns(r, schema, pk, "primaryKey", &cp->record_key, err)) < 0)
        return rc;
    /* ordering field */
    const char *pc = prop_get(p, "preCombineField");
    if (!pc) pc = prop_get(p, "precombine.field");
    if (!pc) pc = prop_get(p, "write.precombine.field");
    if (!pc) pc = prop_get(p, "hoodie.datasource.write.precombine.field");
    if (!pc) pc = prop_get(p, "hoodie.table.precombine.field");
    if (!pc && cp->flink && find_child(schema, "ts") >= 0) pc = "ts";
    if (pc && *pc &&
        (rc = check_columns(r, schema, pc, "preCombineField", &cp->precombine, err)) < 0)
        return rc;
    /* partition fields from PARTITIONED BY, else the hoodie key */
    if (!cp->parts) {
        const char *pf = prop_get(p, "hoodie.datasource.write.partitionpath.field");
        if (!pf) pf = prop_get(p, "hoodie.table.partition.fields");
        if (pf && *pf &&
            (rc = check_columns(r, schema, pf, "partition field", &cp->parts, err)) < 0)
            return rc;
    }
    cp->keygen = prop_get(p, "hoodie.datasource.write.keygenerator.class");
    if (!cp->keygen) cp->keygen = prop_get(p, "hoodie.table.keygenerator.class");
    const char *hs = prop_get(p, "hoodie.datasource.write.hive_style_partitioning");
    cp->hive_style = hs ? is_true(hs) : !cp->flink; /* Spark SQL: true; Flink: false */
    cp->url_encode = is_true(prop_get(p, "hoodie.datasource.write.partitionpath.urlencode"));
    return 0;
}

/* For a table that exists at the location: the statement's settings must agree. */
static int check_existing(const create_plan *cp, const hudi_table *t, hudi_error *err) {
    struct {
        const char *key, *mine, *theirs;
    } checks[] = {
        {"hoodie.table.recordkey.fields", cp->record_key, t->cfg.record_key_fields},
        {"hoodie.table.precombine.field", cp->precombine, t->cfg.precombine_field},
        {"hoodie.table.partition.fields", cp->parts, t->cfg.partition_fields},
    };
    for (size_t i = 0; i < HUDI_ARRAY_LEN(checks); i++) {
        if (!checks[i].mine) continue;
        const char *theirs = checks[i].theirs ? checks[i].theirs : "";
        if (strcmp(checks[i].mine, theirs) != 0)
            return hudi_error_set(err, HUDI_ESQL,
                                  "Table config: %s in the create table is: %s, is not the same "
                                  "with the value in hoodie.properties, which is: %s. Please "
                                  "keep the same.",
                                  checks[i].key, checks[i].mine, theirs);
    }
    return 0;
}

static bool folder_has_files(hudi_fs *fs, const char *path) {
    hudi_dir_listing l = {0};
    if (hudi_fs_list(fs, path, &l, NULL) < 0) return false;
    bool any = l.count > 0;
    hudi_dir_listing_dispose(&l);
    return any;
}

static int remove_tree(hudi_fs *fs, const char *path) {
    hudi_stat st;
    if (hudi_fs_stat(fs, path, &st, NULL) < 0) return 0;
    if (st.is_dir) {
        hudi_dir_listing l = {0};
        if (hudi_fs_list(fs, path, &l, NULL) == 0) {
            for (size_t i = 0; i < l.count; i++) {
                hudi_buf c = HUDI_BUF_INIT;
                hudi_path_join(&c, path, l.entries[i].name);
                if (!hudi_buf_failed(&c)) remove_tree(fs, c.data);
                hudi_buf_dispose(&c);
            }
            hudi_dir_listing_dispose(&l);
        }
    }
    return hudi_fs_remove(fs, path, NULL);
}

static int register_entry(hudi_sql_session *s, const create_plan *cp, const hudi_field *schema,
                          const char *comment, hudi_error *err) {
    hudi_catalog_table e;
    memset(&e, 0, sizeof(e));
    int rc = 0;
    if (!(e.database = hudi_strdup(cp->db)) || !(e.name = hudi_strdup(cp->name)) ||
        !(e.location = hudi_strdup(cp->location)) ||
        (comment && !(e.comment = hudi_strdup(comment))) ||
        (cp->provider == HUDI_CATALOG_PARQUET && cp->parts &&
         !(e.partition_columns = hudi_strdup(cp->parts))))
        rc = oom(err);
    e.provider = cp->provider;
    e.managed = cp->managed;
    e.created_ms = hudi_os_now_ms();
    if (rc == 0) rc = entry_props(&e, &cp->p, err);
    if (rc == 0) rc = entry_schema(&e, cp->provider == HUDI_CATALOG_PARQUET ? schema : NULL, err);
    if (rc == 0) rc = hudi_catalog_create_table(s->catalog, &e, err);
    hudi_catalog_table_dispose(&e);
    return rc;
}

static int create_hudi(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                       create_plan *cp, hudi_field *schema, hudi_error *err) {
    int rc;
    hudi_buf props_path = HUDI_BUF_INIT;
    hudi_buf_printf(&props_path, "%s/.hoodie/hoodie.properties", cp->location);
    if (hudi_buf_failed(&props_path)) return oom(err);
    bool exists = hudi_fs_exists(s->fs, props_path.data);
    hudi_buf_dispose(&props_path);
    if (exists) {
        if (st->query)
            return hudi_error_set(err, HUDI_ESQL, "Tablepath %s should be empty for CTAS",
                                  cp->location);
        if (cp->managed)
            return hudi_error_set(err, HUDI_EEXISTS,
                                  "Can not create the managed table('%s.%s'). The associated "
                                  "location('%s') already exists.",
                                  cp->db, cp->name, cp->location);
        /* An existing Hudi table: schema and configs come from it; only register. */
        hudi_table *t = NULL;
        if ((rc = hudi_tbl_open(&t, s->fs, cp->location, err)) < 0) return rc;
        if ((rc = hudi_sql_result_own_table(r, t, err)) < 0) return rc;
        if (st->columns.len || st->partitioned_by.len) {
            hudi_field full = {0};
            hudi_scan_options so = HUDI_SCAN_OPTIONS_INIT;
            if ((rc = hudi_read_table_schema(&full, t, &so, err)) < 0) return rc;
            for (int32_t i = 0; rc == 0 && i < schema->n_children; i++)
                if (find_child(&full, schema->children[i].name) < 0)
                    rc = hudi_error_set(err, HUDI_ESQL,
                                        "column %s is not in the table at %s; leave the column "
                                        "list out to take the table's schema",
                                        schema->children[i].name, cp->location);
            hudi_field_dispose(&full);
            if (rc < 0) return rc;
            if (cp->record_key || prop_get(&cp->p, "primaryKey")) {
                /* key settings given: they must agree (checked below) */
            }
        }
        const char *pk = prop_get(&cp->p, "primaryKey");
        const char *pc = prop_get(&cp->p, "preCombineField");
        create_plan chk = *cp;
        chk.record_key = pk;
        chk.precombine = pc;
        if ((rc = check_existing(&chk, t, err)) < 0) return rc;
        /* the catalog shows the table's SQL options, as Spark-Hudi derives them from
         * hoodie.properties */
        if (!pk && t->cfg.record_key_fields &&
            (rc = prop_put(r, &cp->p, "primaryKey", t->cfg.record_key_fields, err)) < 0)
            return rc;
        if (!pc && t->cfg.precombine_field &&
            (rc = prop_put(r, &cp->p, "preCombineField", t->cfg.precombine_field, err)) < 0)
            return rc;
        if (!prop_get(&cp->p, "type") &&
            (rc = prop_put(r, &cp->p, "type", t->cfg.type == HUDI_MERGE_ON_READ ? "mor" : "cow",
                           err)) < 0)
            return rc;
        return register_entry(s, cp, NULL, st->comment, err);
    }
    if (cp->managed && folder_has_files(s->fs, cp->location))
        return hudi_error_set(err, HUDI_EEXISTS,
                              "Can not create the managed table('%s.%s'). The associated "
                              "location('%s') already exists.",
                              cp->db, cp->name, cp->location);
    hudi_sql_plan *plan = NULL;
    if (st->query) {
        if (st->columns.len)
            return esql(err, st->pos,
                        "Operation not allowed: Schema may not be specified in a Create Table As "
                        "Select (CTAS) statement");
        if ((rc = hudi_sql_plan_query(s, r, st->query, &plan, err)) < 0) return rc;
        /* the query's columns, partition columns last */
        const hudi_field *qs = &plan->schema;
        hudi_field *cols =
            hudi_arena_alloc(&r->arena, sizeof(hudi_field) * (size_t)(qs->n_children + 1));
        if (!cols) return oom(err);
        const char **pn = NULL;
        int32_t npn = 0;
        if ((rc = split_csv(r, cp->parts, &pn, &npn, err)) < 0) return rc;
        int32_t k = 0;
        for (int32_t i = 0; i < qs->n_children; i++) {
            bool isp = false;
            for (int32_t j = 0; j < npn; j++) isp |= strcasecmp(pn[j], qs->children[i].name) == 0;
            if (!isp) cols[k++] = qs->children[i];
        }
        for (int32_t j = 0; j < npn; j++) {
            int c = find_child(qs, pn[j]);
            if (c < 0)
                return hudi_error_set(err, HUDI_ESQL,
                                      "partition column %s is not a column of the query", pn[j]);
            cols[k++] = qs->children[c];
        }
        /* the types Spark-Hudi's CTAS gives a Parquet source's columns: timestamps in micros
         * (millis and nanos too), tinyint and smallint as int (the rows are converted on write,
         * dml.c) */
        for (int32_t i = 0; i < k; i++) {
            if (cols[i].type == HUDI_TYPE_TIMESTAMP && cols[i].hint != HUDI_HINT_INT96)
                cols[i].unit = HUDI_UNIT_MICROS;
            if (cols[i].type == HUDI_TYPE_INT8 || cols[i].type == HUDI_TYPE_INT16)
                cols[i].type = HUDI_TYPE_INT32;
        }
        memset(schema, 0, sizeof(*schema));
        schema->name = "schema";
        schema->type = HUDI_TYPE_STRUCT;
        schema->field_id = -1;
        schema->n_children = k;
        schema->children = cols;
        /* the primary key and ordering field were checked against no columns yet */
        if ((rc = resolve_hudi_options(r, st, cp, schema, err)) < 0) return rc;
    }
    if (schema->n_children == 0)
        return hudi_error_set(err, HUDI_ESQL, "Missing schema for Create Table: %s.%s", cp->db,
                              cp->name);
    /* hoodie.* keys that are table configs pass into hoodie.properties */
    props extra = {0};
    if ((rc = prop_put(r, &extra, "hoodie.database.name", cp->db, err)) < 0) return rc;
    for (int32_t i = 0; i < cp->p.n; i++) {
        const char *k = cp->p.kv[2 * i];
        if ((strncmp(k, "hoodie.table.", 13) == 0 ||
             strcmp(k, "hoodie.compaction.payload.class") == 0) &&
            !is_managed_key(k) && (rc = prop_put(r, &extra, k, cp->p.kv[2 * i + 1], err)) < 0)
            return rc;
    }
    hudi_create_options co = HUDI_CREATE_OPTIONS_INIT;
    co.table_name = cp->name;
    co.type = cp->type;
    co.record_key_fields = cp->record_key;
    co.partition_fields = cp->parts;
    co.precombine_field = cp->precombine;
    co.keygen_class = cp->keygen;
    co.hive_style_partitioning = cp->hive_style;
    co.url_encode_partitions = cp->url_encode;
    co.schema = schema;
    co.extra_props = extra.kv;
    bool had_folder = hudi_fs_exists(s->fs, cp->location);
    hudi_table *t = NULL;
    if ((rc = hudi_tbl_create(&t, s->fs, cp->location, &co, err)) < 0) return rc;
    if ((rc = hudi_sql_result_own_table(r, t, err)) < 0) goto undo;
    if (plan) {
        /* CTAS: bulk insert the query's rows, then register (a failed write leaves no
         * registered table) */
        hudi_catalog_table e;
        memset(&e, 0, sizeof(e));
        e.database = (char *)cp->db;
        e.name = (char *)cp->name;
        e.location = (char *)cp->location;
        e.provider = HUDI_CATALOG_HUDI;
        e.managed = cp->managed;
        e.props = (char **)cp->p.kv;
        e.n_props = cp->p.n;
        rc = hudi_sql_write_rows(s, r, &e, plan, HUDI_WRITE_BULK_INSERT, err);
        if (rc < 0) goto undo;
    }
    /* Spark-Hudi keeps the table type among the SQL options */
    if (!prop_get(&cp->p, "type") && (rc = prop_put(r, &cp->p, "type", "cow", err)) < 0) goto undo;
    if ((rc = register_entry(s, cp, NULL, st->comment, err)) < 0) goto undo;
    return 0;
undo:
    /* nothing registered: take back what this statement made */
    if (!had_folder || cp->managed) {
        remove_tree(s->fs, cp->location);
    } else {
        hudi_buf h = HUDI_BUF_INIT;
        hudi_buf_printf(&h, "%s/.hoodie", cp->location);
        if (!hudi_buf_failed(&h)) remove_tree(s->fs, h.data);
        hudi_buf_dispose(&h);
    }
    return rc;
}

static int create_table(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                        hudi_error *err) {
    create_plan cp;
    memset(&cp, 0, sizeof(cp));
    int rc = hudi_sql_split_name(s, r, &st->name, &cp.db, &cp.name, err);
    if (rc < 0) return rc;
    r->statement = st->query ? "CREATE TABLE AS SELECT" : "CREATE TABLE";
    if (st->or_replace)
        return hudi_error_set(err, HUDI_EUNSUPPORTED, "CREATE OR REPLACE TABLE is not supported");
    if ((rc = collect_props(r, &st->options, &cp.p, err)) < 0) return rc;
    if ((rc = collect_props(r, &st->props, &cp.p, err)) < 0) return rc;
    if ((rc = collect_props(r, &st->with, &cp.p, err)) < 0) return rc;
    const char *provider = st->provider;
    if (st->with.len) {
        const char *conn = prop_get(&cp.p, "connector");
        if (!conn || strcasecmp(conn, "hudi") != 0)
            return hudi_error_set(err, HUDI_EUNSUPPORTED,
                                  "connector '%s' is not supported (only 'hudi')",
                                  conn ? conn : "");
        cp.flink = true;
        provider = "hudi";
    }
    if (!provider) provider = "hudi";
    if (strcasecmp(provider, "hudi") == 0) {
        cp.provider = HUDI_CATALOG_HUDI;
    } else if (strcasecmp(provider, "parquet") == 0) {
        cp.provider = HUDI_CATALOG_PARQUET;
    } else {
        return hudi_error_set(err, HUDI_EUNSUPPORTED, "USING %s is not supported (hudi or parquet)",
                              provider);
    }
    if (st->stored_as)
        return hudi_error_set(err, HUDI_EUNSUPPORTED, "STORED AS is not supported (use USING)");
    if (!hudi_catalog_database_exists(s->catalog, cp.db))
        return hudi_error_set(err, HUDI_ENOTFOUND, "Database '%s' not found", cp.db);
    if (hudi_catalog_table_exists(s->catalog, cp.db, cp.name)) {
        if (st->if_not_exists) return 0;
        return hudi_error_set(err, HUDI_EEXISTS, "Table %s.%s already exists", cp.db, cp.name);
    }
    const char *loc = st->location;
    if (!loc && cp.flink) loc = prop_get(&cp.p, "path");
    if (loc) {
        if (!(cp.location = norm_location(r, loc))) return oom(err);
    } else {
        if (st->external)
            return hudi_error_set(err, HUDI_ESQL,
                                  "CREATE EXTERNAL TABLE must be accompanied by "
                                  "LOCATION");
        char *d = hudi_catalog_default_location(s->catalog, cp.db, cp.name);
        cp.location = adup(r, d);
        hudi_free(d);
        if (!cp.location) return oom(err);
        cp.managed = true;
    }
    hudi_field schema;
    if ((rc = build_schema(s, r, st, &schema, &cp.parts, err)) < 0) return rc;
    if (cp.provider == HUDI_CATALOG_PARQUET) {
        if (st->query)
            return hudi_error_set(err, HUDI_EUNSUPPORTED,
                                  "CREATE TABLE ... USING parquet AS SELECT is not supported yet");
        if (cp.managed && schema.n_children == 0)
            return hudi_error_set(err, HUDI_ESQL,
                                  "Missing schema for Create Table: %s.%s (a parquet table "
                                  "without LOCATION needs columns)",
                                  cp.db, cp.name);
        return register_entry(s, &cp, &schema, st->comment, err);
    }
    if (!st->query && schema.n_children > 0 &&
        (rc = resolve_hudi_options(r, st, &cp, &schema, err)) < 0)
        return rc;
    if (!st->query && schema.n_children == 0) {
        /* no columns: only an existing table at the location will do */
        const char *v = prop_get(&cp.p, "type");
        if (v && strcasecmp(v, "mor") == 0)
            return hudi_error_set(err, HUDI_EUNSUPPORTED,
                                  "MERGE_ON_READ tables (type 'mor') are not supported yet");
    }
    return create_hudi(s, r, st, &cp, &schema, err);
}

/* ---- DROP / TRUNCATE / ALTER ------------------------------------------------------------ */

static int not_found(hudi_error *err, const char *db, const char *name) {
    return hudi_error_set(err, HUDI_ENOTFOUND, "Table or view not found: %s.%s", db, name);
}

static int get_entry(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_name *n,
                     hudi_catalog_table *e, hudi_error *err) {
    const char *db, *name;
    int rc = hudi_sql_split_name(s, r, n, &db, &name, err);
    if (rc < 0) return rc;
    rc = hudi_catalog_get_table(s->catalog, db, name, e, err);
    if (rc == HUDI_ENOTFOUND) return not_found(err, db, name);
    return rc;
}

static int drop_table(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                      hudi_error *err) {
    const char *db, *name;
    int rc = hudi_sql_split_name(s, r, &st->name, &db, &name, err);
    if (rc < 0) return rc;
    hudi_catalog_table e;
    rc = hudi_catalog_get_table(s->catalog, db, name, &e, err);
    if (rc == HUDI_ENOTFOUND) return st->if_exists ? 0 : not_found(err, db, name);
    if (rc < 0) return rc;
    bool purge = e.managed || st->purge;
    hudi_catalog_table_dispose(&e);
    return hudi_catalog_drop_table(s->catalog, db, name, purge, err);
}

static int write_replace(hudi_sql_session *s, hudi_table *t, hudi_write_operation op,
                         const char *const *parts, int32_t n, hudi_sql_result *r, hudi_error *err) {
    hudi_write_options wo = HUDI_WRITE_OPTIONS_INIT;
    wo.op = op;
    wo.partitions = parts;
    wo.n_partitions = n;
    hudi_table_write_result res;
    memset(&res, 0, sizeof(res));
    hudi_batch *b = NULL;
    int rc = 0;
    if (op != HUDI_WRITE_DELETE_PARTITION) {
        /* no rows, over the table's data columns */
        hudi_field full = {0}, data = {0};
        hudi_scan_options so = HUDI_SCAN_OPTIONS_INIT;
        if ((rc = hudi_read_table_schema(&full, t, &so, err)) < 0) return rc;
        hudi_field_init(&data, "schema", HUDI_TYPE_STRUCT, false);
        int32_t keep = 0;
        for (int32_t i = 0; i < full.n_children; i++)
            keep += !hudi_is_meta_field(full.children[i].name);
        if (hudi_field_set_children(&data, keep) < 0) rc = oom(err);
        for (int32_t i = 0, k = 0; rc == 0 && i < full.n_children; i++) {
            if (hudi_is_meta_field(full.children[i].name)) continue;
            if (hudi_field_copy(&data.children[k++], &full.children[i]) < 0) rc = oom(err);
        }
        hudi_field_dispose(&full);
        if (rc == 0) rc = hudi_batch_new(&b, &data, err);
        if (rc == 0) rc = hudi_tbl_write(t, b, &wo, &res, err);
        hudi_batch_free(b);
        hudi_field_dispose(&data);
    } else {
        rc = hudi_tbl_write(t, NULL, &wo, &res, err);
    }
    HUDI_UNUSED(s);
    HUDI_UNUSED(r);
    return rc;
}

static int truncate_table(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                          hudi_error *err) {
    hudi_catalog_table e;
    int rc = get_entry(s, r, &st->name, &e, err);
    if (rc < 0) return rc;
    hudi_table *t = NULL;
    rc = hudi_sql_open_entry(s, r, &e, "TRUNCATE TABLE", &t, err);
    if (rc == 0) {
        if (st->partition && st->partition->len) {
            if (!t->cfg.partition_fields || !*t->cfg.partition_fields) {
                rc = hudi_error_set(err, HUDI_ESQL,
                                    "Operation not allowed: TRUNCATE TABLE ... PARTITION is not "
                                    "supported for tables that are not partitioned: %s.%s",
                                    e.database, e.name);
            } else {
                const char **parts;
                int32_t n;
                rc = hudi_sql_match_partitions(s, r, t, st->partition, &parts, &n, err);
                if (rc == 0 && n > 0)
                    rc = write_replace(s, t, HUDI_WRITE_DELETE_PARTITION, parts, n, r, err);
            }
        } else if (hudi_timeline_last_completed_commit(t->timeline)) {
            rc = write_replace(s, t, HUDI_WRITE_INSERT_OVERWRITE_TABLE, NULL, 0, r, err);
        }
    }
    hudi_catalog_table_dispose(&e);
    return rc;
}

/* Keys that name the table's layout: changing them in the catalog would disagree with
 * hoodie.properties. */
static bool is_layout_key(const char *k) {
    static const char *const keys[] = {"primaryKey",
                                       "type",
                                       "preCombineField",
                                       "hoodie.datasource.write.recordkey.field",
                                       "hoodie.datasource.write.partitionpath.field",
                                       "hoodie.datasource.write.table.type",
                                       "hoodie.datasource.write.keygenerator.class",
                                       "hoodie.datasource.write.precombine.field",
                                       "hoodie.datasource.write.hive_style_partitioning",
                                       "hoodie.datasource.write.partitionpath.urlencode"};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(keys); i++)
        if (strcmp(k, keys[i]) == 0) return true;
    return is_managed_key(k);
}

static int alter_props(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                       hudi_catalog_table *e, hudi_error *err) {
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < st->props.len; i++) {
        const hudi_sql_prop *pr = HUDI_SQL_AT(st->props, hudi_sql_prop, i);
        if (st->alter == HUDI_SQL_A_UNSET_PROPS) {
            if (!hudi_catalog_table_prop(e, pr->key) && !st->if_exists)
                return hudi_error_set(err, HUDI_ESQL,
                                      "Attempted to unset non-existent property '%s' in table "
                                      "%s.%s",
                                      pr->key, e->database, e->name);
            if (e->provider == HUDI_CATALOG_HUDI && is_layout_key(pr->key) &&
                hudi_catalog_table_prop(e, pr->key))
                return hudi_error_set(err, HUDI_EINVAL,
                                      "%s names the table's layout and cannot be unset", pr->key);
            hudi_catalog_table_unset_prop(e, pr->key);
            if (strcmp(pr->key, "comment") == 0) { /* Spark: the table comment goes too */
                hudi_free(e->comment);
                e->comment = NULL;
            }
            continue;
        }
        const char *v;
        if ((rc = hudi_sql_const_text(r, pr->value, "a property value", &v, err)) < 0) return rc;
        if (!v) v = "";
        const char *old = hudi_catalog_table_prop(e, pr->key);
        if (e->provider == HUDI_CATALOG_HUDI && is_layout_key(pr->key) &&
            !(old && strcmp(old, v) == 0))
            return hudi_error_set(err, HUDI_EINVAL,
                                  "%s names the table's layout (key, partitioning, type) and "
                                  "cannot be changed",
                                  pr->key);
        rc = hudi_catalog_table_set_prop(e, pr->key, v, err);
        if (rc == 0 && strcmp(pr->key, "comment") == 0 &&
            st->alter == HUDI_SQL_A_SET_PROPS) { /* Spark: it is the table comment too */
            char *c = hudi_strdup(v);
            if (!c) return oom(err);
            hudi_free(e->comment);
            e->comment = c;
        }
    }
    if (rc == 0) rc = hudi_catalog_update_table(s->catalog, e, err);
    return rc;
}

static int rename_table(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                        hudi_catalog_table *e, hudi_error *err) {
    const char *ndb, *nname;
    int rc = hudi_sql_split_name(s, r, &st->new_name, &ndb, &nname, err);
    if (rc < 0) return rc;
    if (st->new_name.parts.len < 2) ndb = e->database; /* RENAME TO t stays in its database */
    if (strcmp(ndb, e->database) == 0 && strcmp(nname, e->name) == 0) return 0;
    if (hudi_catalog_table_exists(s->catalog, ndb, nname))
        return hudi_error_set(err, HUDI_EEXISTS, "Table %s.%s already exists", ndb, nname);
    if (!hudi_catalog_database_exists(s->catalog, ndb))
        return hudi_error_set(err, HUDI_ENOTFOUND, "Database '%s' not found", ndb);
    /* Hudi first re-initialises hoodie.properties with the new hoodie.table.name */
    hudi_props p = HUDI_PROPS_INIT;
    char *old_name = NULL;
    bool stored = false;
    if (e->provider == HUDI_CATALOG_HUDI) {
        if ((rc = hudi_props_load(&p, s->fs, e->location, err)) < 0) goto done;
        const char *o = hudi_props_get(&p, "hoodie.table.name");
        if (o && !(old_name = hudi_strdup(o))) {
            rc = oom(err);
            goto done;
        }
        if ((rc = hudi_props_set(&p, "hoodie.table.name", nname, err)) < 0) goto done;
        if ((rc = hudi_props_store(&p, s->fs, e->location, NULL, err)) < 0) goto done;
        stored = true;
    }
    rc = hudi_catalog_rename_table(s->catalog, e->database, e->name, ndb, nname, err);
    if (rc < 0 && stored && old_name) { /* put the old name back */
        if (hudi_props_set(&p, "hoodie.table.name", old_name, NULL) == 0)
            hudi_props_store(&p, s->fs, e->location, NULL, NULL);
    }
done:
    hudi_free(old_name);
    hudi_props_dispose(&p);
    return rc;
}

static int drop_partition(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                          hudi_catalog_table *e, hudi_error *err) {
    hudi_table *t = NULL;
    int rc = hudi_sql_open_entry(s, r, e, "ALTER TABLE ... DROP PARTITION", &t, err);
    if (rc < 0) return rc;
    if (!t->cfg.partition_fields || !*t->cfg.partition_fields)
        return hudi_error_set(err, HUDI_ESQL,
                              "%s.%s is a non-partitioned table that is not allowed to drop "
                              "partition",
                              e->database, e->name);
    const char **all = NULL;
    int32_t n_all = 0, cap = 0;
    for (uint32_t i = 0; i < st->partitions.len; i++) {
        const hudi_sql_partspec *spec = HUDI_SQL_AT(st->partitions, hudi_sql_partspec, i);
        const char **parts;
        int32_t n;
        if ((rc = hudi_sql_match_partitions(s, r, t, spec, &parts, &n, err)) < 0) return rc;
        if (n == 0 && !st->if_exists)
            return hudi_error_set(err, HUDI_ENOTFOUND,
                                  "partition %u of the statement matches no partition of %s.%s",
                                  i + 1, e->database, e->name);
        if (n_all + n > cap) {
            cap = 2 * (n_all + n) + 8;
            const char **a = hudi_arena_alloc(&r->arena, sizeof(char *) * (size_t)cap);
            if (!a) return oom(err);
            if (n_all) memcpy(a, all, sizeof(char *) * (size_t)n_all);
            all = a;
        }
        for (int32_t j = 0; j < n; j++) {
            bool dup = false;
            for (int32_t k = 0; k < n_all; k++) dup |= strcmp(all[k], parts[j]) == 0;
            if (!dup) all[n_all++] = parts[j];
        }
    }
    if (n_all == 0) return 0;
    if ((rc = write_replace(s, t, HUDI_WRITE_DELETE_PARTITION, all, n_all, r, err)) < 0) return rc;
    if (st->purge) /* the replacecommit is in: the folders go now instead of at the next clean */
        for (int32_t i = 0; i < n_all; i++) {
            hudi_buf p = HUDI_BUF_INIT;
            hudi_buf_printf(&p, "%s/%s", t->base_path, all[i]);
            if (!hudi_buf_failed(&p)) remove_tree(s->fs, p.data);
            hudi_buf_dispose(&p);
        }
    return 0;
}

/* Hudi's AlterHoodieTableAddPartitionCommand: a partition folder with a partition metafile of
 * commit time 00000000000000 (file-names.md §3), every partition field given. */
static int add_partition(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                         hudi_catalog_table *e, hudi_error *err) {
    hudi_table *t = NULL;
    int rc = hudi_sql_open_entry(s, r, e, "ALTER TABLE ... ADD PARTITION", &t, err);
    if (rc < 0) return rc;
    if (!t->cfg.partition_fields || !*t->cfg.partition_fields)
        return hudi_error_set(err, HUDI_ESQL,
                              "%s.%s is a non-partitioned table that is not allowed to add "
                              "partition",
                              e->database, e->name);
    if (st->location)
        return hudi_error_set(err, HUDI_ESQL,
                              "Hoodie table does not support specify partition location "
                              "explicitly");
    const char **fields;
    int32_t nf;
    if ((rc = split_csv(r, t->cfg.partition_fields, &fields, &nf, err)) < 0) return rc;
    for (uint32_t i = 0; i < st->partitions.len; i++) {
        const hudi_sql_partspec *spec = HUDI_SQL_AT(st->partitions, hudi_sql_partspec, i);
        hudi_buf path = HUDI_BUF_INIT;
        for (int32_t f = 0; rc == 0 && f < nf; f++) {
            const hudi_sql_part_kv *kv = NULL;
            for (uint32_t k = 0; k < spec->len; k++)
                if (strcasecmp(HUDI_SQL_AT(*spec, hudi_sql_part_kv, k)->name, fields[f]) == 0)
                    kv = HUDI_SQL_AT(*spec, hudi_sql_part_kv, k);
            const char *v = NULL;
            if (!kv || !kv->value) {
                rc = hudi_error_set(err, HUDI_ESQL,
                                    "partition spec is invalid: %s needs a value (partition "
                                    "fields: %s)",
                                    fields[f], t->cfg.partition_fields);
                break;
            }
            if ((rc = hudi_sql_const_text(r, kv->value, "a partition value", &v, err)) < 0) break;
            if (f) hudi_buf_putc(&path, '/');
            if (t->cfg.hive_style_partitioning) hudi_buf_printf(&path, "%s=", fields[f]);
            if (!v || !*v)
                hudi_buf_puts(&path, "__HIVE_DEFAULT_PARTITION__");
            else if (t->cfg.url_encode_partitions)
                escape_path_value(&path, v);
            else
                hudi_buf_puts(&path, v);
        }
        for (uint32_t k = 0; rc == 0 && k < spec->len; k++) {
            const char *name = HUDI_SQL_AT(*spec, hudi_sql_part_kv, k)->name;
            bool known = false;
            for (int32_t f = 0; f < nf; f++) known |= strcasecmp(fields[f], name) == 0;
            if (!known)
                rc = hudi_error_set(err, HUDI_ESQL,
                                    "%s is not a valid partition column in table %s (partition "
                                    "fields: %s)",
                                    name, t->cfg.name, t->cfg.partition_fields);
        }
        if (rc == 0 && hudi_buf_failed(&path)) rc = oom(err);
        if (rc == 0) {
            hudi_partition_meta pm;
            hudi_error probe = HUDI_ERROR_INIT;
            if (hudi_partition_meta_read(&pm, s->fs, t->base_path, path.data, &probe) == 0) {
                if (!st->if_not_exists)
                    rc = hudi_error_set(err, HUDI_EEXISTS,
                                        "Partition metadata already exists for path: %s/%s",
                                        t->base_path, path.data);
            } else {
                rc = hudi_partition_meta_write(s->fs, t->base_path, path.data, "00000000000000",
                                               NULL, NULL, err);
            }
        }
        hudi_buf_dispose(&path);
        if (rc < 0) return rc;
    }
    return 0;
}

static int alter_table(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                       hudi_error *err) {
    static const char *const columns[] = {
        [HUDI_SQL_A_ADD_COLUMNS] = "ALTER TABLE ... ADD COLUMNS",
        [HUDI_SQL_A_CHANGE_COLUMN] = "ALTER TABLE ... ALTER/CHANGE COLUMN",
        [HUDI_SQL_A_DROP_COLUMNS] = "ALTER TABLE ... DROP COLUMNS",
        [HUDI_SQL_A_RENAME_COLUMN] = "ALTER TABLE ... RENAME COLUMN",
    };
    hudi_catalog_table e;
    int rc = get_entry(s, r, &st->name, &e, err);
    if (rc < 0) return rc;
    switch (st->alter) {
    case HUDI_SQL_A_RENAME: rc = rename_table(s, r, st, &e, err); break;
    case HUDI_SQL_A_SET_PROPS:
    case HUDI_SQL_A_UNSET_PROPS:
    case HUDI_SQL_A_SET_SERDE_PROPS: rc = alter_props(s, r, st, &e, err); break;
    case HUDI_SQL_A_DROP_PARTITION: rc = drop_partition(s, r, st, &e, err); break;
    case HUDI_SQL_A_ADD_PARTITION: rc = add_partition(s, r, st, &e, err); break;
    case HUDI_SQL_A_ADD_COLUMNS:
    case HUDI_SQL_A_CHANGE_COLUMN:
    case HUDI_SQL_A_DROP_COLUMNS:
    case HUDI_SQL_A_RENAME_COLUMN:
        rc = hudi_sql_alter_columns(s, r, st, &e, columns[st->alter], err);
        break;
    default: rc = hudi_error_set(err, HUDI_EUNSUPPORTED, "this ALTER TABLE is not supported yet");
    }
    hudi_catalog_table_dispose(&e);
    return rc;
}

/* ---- databases, USE, catalogs ---------------------------------------------------------- */

static int create_database(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                           hudi_error *err) {
    if (st->name.parts.len != 1) return esql(err, st->name.pos, "invalid database name");
    props p = {0};
    int rc = collect_props(r, &st->props, &p, err);
    if (rc < 0) return rc;
    const char *loc = st->location ? norm_location(r, st->location) : NULL;
    return hudi_catalog_create_database_props(s->catalog, HUDI_SQL_AT(st->name.parts, char, 0),
                                              st->if_not_exists, st->comment, loc, p.kv, err);
}

static int drop_database(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                         hudi_error *err) {
    if (st->name.parts.len != 1) return esql(err, st->name.pos, "invalid database name");
    const char *db = alower(r, HUDI_SQL_AT(st->name.parts, char, 0));
    if (!db) return oom(err);
    int rc = hudi_catalog_drop_database(s->catalog, db, st->if_exists, st->cascade, err);
    if (rc == 0 && strcmp(s->database, db) == 0) {
        /* Spark keeps the dropped name current; later statements fail. hudic goes back to
         * default, where unqualified names still resolve. */
        char *d = hudi_strdup("default");
        if (!d) return oom(err);
        hudi_free(s->database);
        s->database = d;
    }
    return rc;
}

static int use_database(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                        hudi_error *err) {
    if (st->catalog) {
        const char *name = HUDI_SQL_AT(st->name.parts, char, 0);
        if (strcasecmp(name, "spark_catalog") == 0) return 0;
        char **opts = NULL;
        int rc = hudi_catalog_get_catalog(s->catalog, name, &opts, err);
        if (rc < 0) return rc;
        const char *path = NULL;
        for (char **p = opts; p[0]; p += 2)
            if (strcmp(p[0], "catalog.path") == 0) path = p[1];
        bool same = path && strcmp(norm_location(r, path), hudi_catalog_path(s->catalog)) == 0;
        rc = same ? 0
                  : hudi_error_set(err, HUDI_EUNSUPPORTED,
                                   "USE CATALOG %s: only the session's warehouse (%s) is "
                                   "supported; catalog %s is at %s: open a session there",
                                   name, hudi_catalog_path(s->catalog), name,
                                   path ? path : "(no catalog.path)");
        hudi_catalog_names_free(opts);
        return rc;
    }
    const char *db = alower(r, HUDI_SQL_AT(st->name.parts, char, st->name.parts.len - 1));
    if (!db) return oom(err);
    if (!hudi_catalog_database_exists(s->catalog, db))
        return hudi_error_set(err, HUDI_ENOTFOUND, "Database '%s' not found", db);
    char *d = hudi_strdup(db);
    if (!d) return oom(err);
    hudi_free(s->database);
    s->database = d;
    return 0;
}

static int create_catalog(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                          hudi_error *err) {
    props p = {0};
    int rc = collect_props(r, &st->props, &p, err);
    if (rc == 0) rc = collect_props(r, &st->with, &p, err);
    if (rc < 0) return rc;
    const char *type = prop_get(&p, "type");
    if (!type || strcasecmp(type, "hudi") != 0)
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "CREATE CATALOG: type '%s' is not supported (only 'hudi')",
                              type ? type : "");
    const char *mode = prop_get(&p, "mode");
    if (mode && strcasecmp(mode, "dfs") != 0)
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "CREATE CATALOG: mode '%s' is not supported (only 'dfs')", mode);
    const char *path = prop_get(&p, "catalog.path");
    if (!path || !*path)
        return hudi_error_set(err, HUDI_EINVAL, "Option [catalog.path] should not be empty.");
    return hudi_catalog_put_catalog(s->catalog, HUDI_SQL_AT(st->name.parts, char, 0), p.kv, err);
}

/* ---- dispatch ---------------------------------------------------------------------------- */

int hudi_sql_exec_ddl(hudi_sql_session *s, const hudi_sql_stmt *st, hudi_sql_result *r,
                      hudi_error *err) {
    r->kind = HUDI_STMT_DDL;
    r->rows_affected = -1;
    switch (st->kind) {
    case HUDI_SQL_S_CREATE_TABLE: return create_table(s, r, st, err);
    case HUDI_SQL_S_DROP_TABLE: r->statement = "DROP TABLE"; return drop_table(s, r, st, err);
    case HUDI_SQL_S_TRUNCATE: r->statement = "TRUNCATE TABLE"; return truncate_table(s, r, st, err);
    case HUDI_SQL_S_ALTER_TABLE: r->statement = "ALTER TABLE"; return alter_table(s, r, st, err);
    case HUDI_SQL_S_CREATE_DATABASE:
        r->statement = "CREATE DATABASE";
        return create_database(s, r, st, err);
    case HUDI_SQL_S_DROP_DATABASE:
        r->statement = "DROP DATABASE";
        return drop_database(s, r, st, err);
    case HUDI_SQL_S_USE: r->statement = "USE"; return use_database(s, r, st, err);
    case HUDI_SQL_S_CREATE_CATALOG:
        r->statement = "CREATE CATALOG";
        return create_catalog(s, r, st, err);
    case HUDI_SQL_S_REFRESH_TABLE: {
        /* nothing is cached across statements; the table must exist */
        r->statement = "REFRESH TABLE";
        hudi_catalog_table e;
        int rc = get_entry(s, r, &st->name, &e, err);
        if (rc == 0) hudi_catalog_table_dispose(&e);
        return rc;
    }
    case HUDI_SQL_S_CREATE_INDEX:
        r->statement = "CREATE INDEX";
        return hudi_error_set(err, HUDI_EUNSUPPORTED, "CREATE INDEX is not supported yet");
    case HUDI_SQL_S_DROP_INDEX:
        r->statement = "DROP INDEX";
        return hudi_error_set(err, HUDI_EUNSUPPORTED, "DROP INDEX is not supported yet");
    case HUDI_SQL_S_REFRESH_INDEX:
        r->statement = "REFRESH INDEX";
        return hudi_error_set(err, HUDI_EUNSUPPORTED, "REFRESH INDEX is not supported yet");
    case HUDI_SQL_S_SHOW: r->kind = HUDI_STMT_SHOW; return hudi_sql_exec_show(s, st, r, err);
    case HUDI_SQL_S_DESCRIBE:
        r->kind = HUDI_STMT_SHOW;
        r->statement = "DESCRIBE";
        return hudi_sql_exec_describe(s, st, r, err);
    case HUDI_SQL_S_CALL:
        r->kind = HUDI_STMT_CALL;
        r->statement = "CALL";
        return hudi_sql_exec_call(s, st, r, err);
    default:
        return hudi_error_set(err, HUDI_EINVAL, "hudi_sql_exec_ddl: statement kind %d is not DDL",
                              (int)st->kind);
    }
}
