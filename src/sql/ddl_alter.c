/* ddl_alter.c - ALTER TABLE ... ADD COLUMNS / ALTER|CHANGE COLUMN / DROP COLUMN(S) / RENAME
 * COLUMN (docs/SQL.md "ALTER TABLE columns"): each statement becomes one list of schema changes
 * committed by hudi_tbl_alter_schema as one ALTER_SCHEMA commit
 * (docs/formats/schema-evolution.md §3).
 *
 * Schema on read is on when hoodie.schema.on.read.enable is true in the session (SET) or the
 * table's properties, or when the table already has an InternalSchema. Without it Hudi allows
 * only top-level ADD COLUMNS and COMMENT; ALTER/CHANGE COLUMN to another type fails with
 * Hudi's own message. Column paths are dotted (a.b.c, member.value.col1, arr.element.x); SQL
 * types map as Hudi maps them (tinyint/smallint -> int). Nothing is cached across statements:
 * DESCRIBE and SELECT read the table schema anew. */
#include <stdio.h>
#include <strings.h>

#include "sql/ddl_int.h"
#include "table/schema_view.h"
#include "write/write.h"

/* A change and where the statement names its column. */
typedef struct alter_list {
    hudi_schema_change *v;
    hudi_sql_pos *pos;
    int32_t n, cap;
} alter_list;

static hudi_schema_change *push(hudi_sql_result *r, alter_list *l, hudi_sql_pos pos) {
    if (l->n == l->cap) {
        int32_t cap = l->cap ? 2 * l->cap : 8;
        hudi_schema_change *v = hudi_arena_alloc(&r->arena, sizeof(*v) * (size_t)cap);
        hudi_sql_pos *p = hudi_arena_alloc(&r->arena, sizeof(*p) * (size_t)cap);
        if (!v || !p) return NULL;
        if (l->n) {
            memcpy(v, l->v, sizeof(*v) * (size_t)l->n);
            memcpy(p, l->pos, sizeof(*p) * (size_t)l->n);
        }
        l->v = v;
        l->pos = p;
        l->cap = cap;
    }
    hudi_schema_change *c = &l->v[l->n];
    memset(c, 0, sizeof(*c));
    l->pos[l->n++] = pos;
    return c;
}

/* "a.b.c" of a name as written (arena). */
static const char *dotted(hudi_sql_result *r, const hudi_sql_name *n) {
    hudi_buf b = HUDI_BUF_INIT;
    for (uint32_t i = 0; i < n->parts.len; i++)
        hudi_buf_printf(&b, "%s%s", i ? "." : "", HUDI_SQL_AT(n->parts, char, i));
    const char *s = hudi_buf_failed(&b) ? NULL : hudi_arena_strndup(&r->arena, b.data, b.len);
    hudi_buf_dispose(&b);
    return s;
}

static int esql_at(hudi_error *err, int code, hudi_sql_pos pos, const char *msg) {
    if (pos.line > 0)
        return hudi_error_set(err, code, "line %u, column %u: %s", pos.line, pos.col, msg);
    return hudi_error_set(err, code, "%s", msg);
}

/* Types as Hudi's InternalSchema holds them: tinyint and smallint are int. */
static int hudi_type(hudi_field *f, const char *column, hudi_sql_pos pos, hudi_error *err) {
    if (f->type == HUDI_TYPE_INT8 || f->type == HUDI_TYPE_INT16) f->type = HUDI_TYPE_INT32;
    if (f->type == HUDI_TYPE_NULL) {
        char msg[300];
        snprintf(msg, sizeof(msg), "column %s: type void cannot be stored in a Hudi table", column);
        return esql_at(err, HUDI_ESQL, pos, msg);
    }
    for (int32_t i = 0; i < f->n_children; i++) {
        int rc = hudi_type(&f->children[i], column, pos, err);
        if (rc < 0) return rc;
    }
    return 0;
}

static int sql_type(hudi_sql_result *r, const hudi_sql_type *t, const char *column,
                    hudi_sql_pos pos, const hudi_field **out, hudi_error *err) {
    hudi_field *f = hudi_arena_alloc(&r->arena, sizeof(*f));
    if (!f) return hudi_error_oom(err);
    int rc = hudi_sql_type_from_ast(&r->arena, t, "type", f, err);
    if (rc == 0) rc = hudi_type(f, column, pos, err);
    *out = f;
    return rc;
}

/* The child named `p` (`len` bytes) of `f` on a column path: a struct's field, a list's
 * "element", a map's "key" or "value"; the exact spelling first, else the one equal without
 * case (Spark resolves column names without case). */
static const hudi_field *child_of(const hudi_field *f, const char *p, size_t len) {
    if (f->type == HUDI_TYPE_LIST)
        return len == 7 && strncasecmp(p, "element", 7) == 0 ? &f->children[0] : NULL;
    const hudi_field *st = f->type == HUDI_TYPE_MAP ? &f->children[0] : f;
    if (st->type != HUDI_TYPE_STRUCT) return NULL;
    const hudi_field *nocase = NULL;
    for (int32_t i = 0; i < st->n_children; i++) {
        const char *name = st->children[i].name;
        if (strlen(name) != len) continue;
        if (strncmp(name, p, len) == 0) return &st->children[i];
        if (!nocase && strncasecmp(name, p, len) == 0) nocase = &st->children[i];
    }
    return nocase;
}

/* The column at dotted `path` of a table schema, or NULL. */
static const hudi_field *find_path(const hudi_field *root, const char *path) {
    const hudi_field *f = root;
    for (const char *p = path; f;) {
        const char *e = strchr(p, '.');
        f = child_of(f, p, e ? (size_t)(e - p) : strlen(p));
        if (!e) break;
        p = e + 1;
    }
    return f == root ? NULL : f;
}

/* `path` spelled as the schema spells its columns (arena); parts the schema does not have (and
 * the last one when `keep_leaf`: a column being added) stay as written. */
static const char *canonical(hudi_sql_result *r, const hudi_field *root, const char *path,
                             bool keep_leaf) {
    if (!root || !path) return path;
    hudi_buf b = HUDI_BUF_INIT;
    const hudi_field *f = root;
    for (const char *p = path;;) {
        const char *e = strchr(p, '.');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        const hudi_field *c = f && !(keep_leaf && !e) ? child_of(f, p, len) : NULL;
        if (b.len) hudi_buf_putc(&b, '.');
        if (c)
            hudi_buf_puts(&b, c->name);
        else
            hudi_buf_append(&b, p, len);
        f = c;
        if (!e) break;
        p = e + 1;
    }
    const char *out = hudi_buf_failed(&b) ? NULL : hudi_arena_strndup(&r->arena, b.data, b.len);
    hudi_buf_dispose(&b);
    return out;
}

/* The statement's column `n` as a canonical path (arena; NULL when out of memory). */
static const char *column_path(hudi_sql_result *r, const hudi_field *root, const hudi_sql_name *n,
                               bool keep_leaf) {
    const char *p = dotted(r, n);
    return p ? canonical(r, root, p, keep_leaf) : NULL;
}

/* An AFTER anchor: a leaf name is a sibling of `target` (a canonical path). */
static const char *anchor_path(hudi_sql_result *r, const hudi_field *root, const char *target,
                               const hudi_sql_name *after) {
    const char *a = dotted(r, after);
    const char *dot = target ? strrchr(target, '.') : NULL;
    if (!a || !root || strchr(a, '.') || !dot) return a ? canonical(r, root, a, false) : NULL;
    char *parent = hudi_arena_strndup(&r->arena, target, (size_t)(dot - target));
    const hudi_field *pf = parent ? find_path(root, parent) : NULL;
    const hudi_field *c = pf ? child_of(pf, a, strlen(a)) : NULL;
    return c ? hudi_arena_strdup(&r->arena, c->name) : a; /* the view goes before the commit */
}

/* Spark's DataType.toString ("IntegerType", "DecimalType(10,2)"), as Hudi's no-schema-on-read
 * CHANGE COLUMN message prints types. */
static void spark_class(hudi_buf *b, const hudi_field *f) {
    switch (f->type) {
    case HUDI_TYPE_BOOL: hudi_buf_puts(b, "BooleanType"); return;
    case HUDI_TYPE_INT8: hudi_buf_puts(b, "ByteType"); return;
    case HUDI_TYPE_INT16: hudi_buf_puts(b, "ShortType"); return;
    case HUDI_TYPE_INT32: hudi_buf_puts(b, "IntegerType"); return;
    case HUDI_TYPE_INT64: hudi_buf_puts(b, "LongType"); return;
    case HUDI_TYPE_FLOAT: hudi_buf_puts(b, "FloatType"); return;
    case HUDI_TYPE_DOUBLE: hudi_buf_puts(b, "DoubleType"); return;
    case HUDI_TYPE_STRING: hudi_buf_puts(b, "StringType"); return;
    case HUDI_TYPE_BINARY:
    case HUDI_TYPE_FIXED_BINARY: hudi_buf_puts(b, "BinaryType"); return;
    case HUDI_TYPE_DATE: hudi_buf_puts(b, "DateType"); return;
    case HUDI_TYPE_TIMESTAMP:
        hudi_buf_puts(b, f->utc ? "TimestampType" : "TimestampNTZType");
        return;
    case HUDI_TYPE_DECIMAL:
        hudi_buf_printf(b, "DecimalType(%d,%d)", f->precision, f->scale);
        return;
    case HUDI_TYPE_LIST:
        hudi_buf_puts(b, "ArrayType(");
        spark_class(b, &f->children[0]);
        hudi_buf_printf(b, ",%s)", f->children[0].nullable ? "true" : "false");
        return;
    case HUDI_TYPE_MAP:
        hudi_buf_puts(b, "MapType(");
        spark_class(b, &f->children[0].children[0]);
        hudi_buf_putc(b, ',');
        spark_class(b, &f->children[0].children[1]);
        hudi_buf_printf(b, ",%s)", f->children[0].children[1].nullable ? "true" : "false");
        return;
    case HUDI_TYPE_STRUCT:
        hudi_buf_puts(b, "StructType(");
        for (int32_t i = 0; i < f->n_children; i++) {
            hudi_buf_printf(b, "%sStructField(%s,", i ? "," : "", f->children[i].name);
            spark_class(b, &f->children[i]);
            hudi_buf_printf(b, ",%s)", f->children[i].nullable ? "true" : "false");
        }
        hudi_buf_putc(b, ')');
        return;
    default: hudi_sql_type_spark_name(b, f); return;
    }
}

/* What the statement sees of the table: its schema (meta fields in front when populated) and
 * whether it has an InternalSchema. */
typedef struct table_state {
    hudi_schema_view *view;
    const hudi_field *schema;
    const hudi_ischema *ischema;
} table_state;

static bool column_exists(const table_state *ts, const char *path) {
    if (ts->ischema) return hudi_ischema_find_path(ts->ischema, path, NULL) != NULL;
    return ts->schema && find_path(ts->schema, path) != NULL;
}

/* Hudi without schema on read refuses CHANGE COLUMN to another type with this message
 * (AlterHoodieTableChangeColumnCommand); hudic adds what would allow it. */
static int check_type_change(const table_state *ts, const char *path, const char *new_name,
                             const hudi_field *to, hudi_sql_pos pos, hudi_error *err) {
    const hudi_field *from = ts->schema && !strchr(path, '.') ? find_path(ts->schema, path) : NULL;
    if (!from) return 0; /* hudi_ischema_apply names the problem */
    hudi_buf a = HUDI_BUF_INIT, b = HUDI_BUF_INIT, msg = HUDI_BUF_INIT;
    hudi_sql_type_spark_name(&a, from);
    hudi_sql_type_spark_name(&b, to);
    int rc = 0;
    if (hudi_buf_failed(&a) || hudi_buf_failed(&b)) {
        rc = hudi_error_oom(err);
    } else if (strcmp(a.data, b.data) != 0) {
        hudi_buf_clear(&a);
        hudi_buf_clear(&b);
        spark_class(&a, from);
        spark_class(&b, to);
        hudi_buf_printf(&msg,
                        "ALTER TABLE CHANGE COLUMN is not supported for changing column '%s' "
                        "with type '%s' to '%s' with type '%s'%s",
                        path, a.data ? a.data : "", new_name ? new_name : path,
                        b.data ? b.data : "",
                        hudi_schema_type_change_allowed(from, to)
                            ? " (schema on read, hoodie.schema.on.read.enable=true, allows it)"
                            : "");
        rc = hudi_buf_failed(&msg) ? hudi_error_oom(err)
                                   : esql_at(err, HUDI_EUNSUPPORTED, pos, msg.data);
    }
    hudi_buf_dispose(&a);
    hudi_buf_dispose(&b);
    hudi_buf_dispose(&msg);
    return rc;
}

static const char *leaf_of(const char *path) {
    const char *dot = strrchr(path, '.');
    return dot ? dot + 1 : path;
}

static int add_columns(hudi_sql_result *r, const hudi_sql_stmt *st, const table_state *ts,
                       alter_list *l, hudi_error *err) {
    for (uint32_t i = 0; i < st->columns.len; i++) {
        const hudi_sql_coldef *cd = HUDI_SQL_AT(st->columns, hudi_sql_coldef, i);
        hudi_schema_change *c = push(r, l, cd->pos);
        if (!c || !(c->path = column_path(r, ts->schema, &cd->name, true)))
            return hudi_error_oom(err);
        c->kind = HUDI_SCHEMA_ADD;
        int rc = sql_type(r, cd->type, c->path, cd->pos, &c->type, err);
        if (rc < 0) return rc;
        c->comment = cd->comment;
        c->not_null = cd->not_null;
        c->position = cd->position == 1   ? HUDI_SCHEMA_POS_FIRST
                      : cd->position == 2 ? HUDI_SCHEMA_POS_AFTER
                                          : HUDI_SCHEMA_POS_NONE;
        if (cd->position == 2 && !(c->anchor = anchor_path(r, ts->schema, c->path, &cd->after)))
            return hudi_error_oom(err);
    }
    return 0;
}

/* ALTER|CHANGE COLUMN: the type, comment, nullability and position changes of the column, then
 * the rename of the Hive form (CHANGE old new type) when the name differs. */
static int change_column(hudi_sql_result *r, const hudi_sql_stmt *st, const table_state *ts,
                         bool sor, alter_list *l, hudi_error *err) {
    const char *path = column_path(r, ts->schema, &st->column, false);
    if (!path) return hudi_error_oom(err);
    hudi_sql_pos pos = st->column.pos;
    const char *new_name = NULL;
    if (st->new_name.parts.len) {
        if (st->new_name.parts.len != 1)
            return esql_at(err, HUDI_ESQL, st->new_name.pos,
                           "CHANGE COLUMN: the new name must be a column name, not a path");
        new_name = HUDI_SQL_AT(st->new_name.parts, char, 0);
        if (strcmp(new_name, leaf_of(path)) == 0) new_name = NULL;
    }
    int rc;
    if (st->type) {
        hudi_schema_change *c = push(r, l, pos);
        if (!c) return hudi_error_oom(err);
        c->kind = HUDI_SCHEMA_ALTER_TYPE;
        c->path = path;
        if ((rc = sql_type(r, st->type, path, pos, &c->type, err)) < 0) return rc;
        if (!sor && (rc = check_type_change(ts, path, new_name, c->type, pos, err)) < 0) return rc;
    }
    if (st->comment) {
        hudi_schema_change *c = push(r, l, pos);
        if (!c) return hudi_error_oom(err);
        c->kind = HUDI_SCHEMA_COMMENT;
        c->path = path;
        c->comment = st->comment;
    }
    if (st->nullability) {
        hudi_schema_change *c = push(r, l, pos);
        if (!c) return hudi_error_oom(err);
        c->kind = st->nullability == 1 ? HUDI_SCHEMA_SET_NOT_NULL : HUDI_SCHEMA_DROP_NOT_NULL;
        c->path = path;
    }
    if (st->position) {
        hudi_schema_change *c = push(r, l, pos);
        if (!c) return hudi_error_oom(err);
        c->kind = HUDI_SCHEMA_MOVE;
        c->path = path;
        c->position = st->position == 1 ? HUDI_SCHEMA_POS_FIRST : HUDI_SCHEMA_POS_AFTER;
        if (st->position == 2 && !(c->anchor = anchor_path(r, ts->schema, path, &st->after)))
            return hudi_error_oom(err);
    }
    if (new_name) {
        hudi_schema_change *c = push(r, l, st->new_name.pos);
        if (!c) return hudi_error_oom(err);
        c->kind = HUDI_SCHEMA_RENAME;
        c->path = path;
        c->new_name = new_name;
    }
    return 0;
}

static int drop_columns(hudi_sql_result *r, const hudi_sql_stmt *st, const table_state *ts,
                        alter_list *l, hudi_error *err) {
    for (uint32_t i = 0; i < st->names.len; i++) {
        const hudi_sql_name *n = HUDI_SQL_AT(st->names, hudi_sql_name, i);
        const char *path = column_path(r, ts->schema, n, false);
        if (!path) return hudi_error_oom(err);
        if (st->if_exists && !column_exists(ts, path)) continue;
        hudi_schema_change *c = push(r, l, n->pos);
        if (!c) return hudi_error_oom(err);
        c->kind = HUDI_SCHEMA_DROP;
        c->path = path;
    }
    return 0;
}

static int rename_column(hudi_sql_result *r, const hudi_sql_stmt *st, const table_state *ts,
                         alter_list *l, hudi_error *err) {
    if (st->new_name.parts.len != 1)
        return esql_at(err, HUDI_ESQL, st->new_name.pos,
                       "RENAME COLUMN: the new name must be a column name, not a path");
    hudi_schema_change *c = push(r, l, st->column.pos);
    if (!c || !(c->path = column_path(r, ts->schema, &st->column, false)))
        return hudi_error_oom(err);
    c->kind = HUDI_SCHEMA_RENAME;
    c->new_name = HUDI_SQL_AT(st->new_name.parts, char, 0);
    return 0;
}

static bool is_true(const char *v) { return v && strcasecmp(v, "true") == 0; }

int hudi_sql_alter_columns(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                           const hudi_catalog_table *e, const char *statement, hudi_error *err) {
    hudi_table *t = NULL;
    int rc = hudi_sql_open_entry(s, r, e, statement, &t, err);
    if (rc < 0) return rc;
    table_state ts = {0};
    if ((rc = hudi_schema_view_open(&ts.view, t, NULL, err)) < 0) return rc;
    ts.schema = hudi_schema_view_table(ts.view);
    ts.ischema = hudi_schema_view_ischema(ts.view);
    bool sor = is_true(hudi_sql_conf_for(s, e, "hoodie.schema.on.read.enable", "false")) ||
               ts.ischema != NULL;
    alter_list l = {0};
    switch (st->alter) {
    case HUDI_SQL_A_ADD_COLUMNS: rc = add_columns(r, st, &ts, &l, err); break;
    case HUDI_SQL_A_CHANGE_COLUMN: rc = change_column(r, st, &ts, sor, &l, err); break;
    case HUDI_SQL_A_DROP_COLUMNS: rc = drop_columns(r, st, &ts, &l, err); break;
    case HUDI_SQL_A_RENAME_COLUMN: rc = rename_column(r, st, &ts, &l, err); break;
    default: rc = hudi_error_set(err, HUDI_EINVAL, "%s: not a column change", statement);
    }
    hudi_schema_view_free(ts.view);
    if (rc < 0 || l.n == 0) return rc; /* DROP IF EXISTS of absent columns: nothing to do */
    int32_t refused = -1;
    hudi_alter_options o = {0};
    o.schema_on_read = sor;
    o.refused = &refused;
    if (!(o.props = hudi_sql_write_props(r, s, e))) return hudi_error_oom(err);
    char instant[HUDI_INSTANT_TIME_MAX];
    if ((rc = hudi_sql_check_cancel(&r->ctx, err)) < 0) return rc;
    rc = hudi_tbl_alter_schema(t, l.v, l.n, &o, instant, err);
    if (rc < 0 && refused >= 0 && refused < l.n && l.pos[refused].line > 0 && err) {
        /* point at the column the statement names */
        char msg[sizeof(err->message)];
        snprintf(msg, sizeof(msg), "%s", err->message);
        rc = esql_at(err, rc, l.pos[refused], msg);
    }
    return rc;
}
