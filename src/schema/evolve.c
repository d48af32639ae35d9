/* evolve.c - the writer schema of a batch whose columns differ from the table's
 * (docs/formats/schema-evolution.md §2): Hudi 0.15's deduction (HoodieSchemaUtils) and
 * promotion chart, refusing before anything is written what Hudi refuses, and the changes Hudi
 * lets through but that lose meaning (int into a date column, long into a timestamp one). */
#include <strings.h>

#include "schema/evolve.h"
#include "schema/internal_schema.h"
#include "schema/schema.h"

/* ---- the promotion chart ------------------------------------------------------------------ */

typedef enum verdict { TAKE_TABLE, TAKE_INCOMING, REFUSE } verdict;

static bool is_decimal_widening(const hudi_field *from, const hudi_field *to) {
    int32_t p1 = from->precision, s1 = from->scale, p2 = to->precision, s2 = to->scale;
    return (p2 - s2 >= p1 - s1 && s2 > s1) || (p2 >= p1 && s2 == s1);
}

static bool same_primitive(const hudi_field *a, const hudi_field *b) {
    if (a->type != b->type) return false;
    switch (a->type) {
    case HUDI_TYPE_DECIMAL: return a->precision == b->precision && a->scale == b->scale;
    case HUDI_TYPE_FIXED_BINARY: return a->byte_width == b->byte_width;
    case HUDI_TYPE_TIME:
    case HUDI_TYPE_TIMESTAMP: return a->unit == b->unit && a->utc == b->utc;
    default: return true;
    }
}

/* Hudi's type-change matrix (SchemaChangeUtils; the one ALTER COLUMN uses,
 * hudi_schema_type_change_allowed): values of `from` may be rewritten as `to`. Hudi
 * canonicalises an incoming column to the table's type when this holds (int into a long table
 * is written as long). Times and timestamps of another unit are not the same type here. */
static bool converts_to(const hudi_field *from, const hudi_field *to) {
    if (same_primitive(from, to)) return true;
    if (from->type == to->type && from->type != HUDI_TYPE_DECIMAL) return false;
    return hudi_schema_type_change_allowed(from, to);
}

/* Avro's reader/writer compatibility as Hudi extends it: a column of the incoming type can read
 * what the table stored, so the incoming type becomes the table's (long into an int table makes
 * it long). Logical types count (Avro's check ignores them): a date or timestamp column never
 * turns into a plain int or long. Decimals widen by the matrix above; Hudi also requires the
 * same fixed size, hudic does not (every reader converts old files by the table's type). */
static bool reads_from(const hudi_field *reader, const hudi_field *writer) {
    hudi_type_id r = reader->type, w = writer->type;
    switch (r) {
    case HUDI_TYPE_INT64: return w == HUDI_TYPE_INT32;
    case HUDI_TYPE_FLOAT: return w == HUDI_TYPE_INT32 || w == HUDI_TYPE_INT64;
    case HUDI_TYPE_DOUBLE:
        return w == HUDI_TYPE_INT32 || w == HUDI_TYPE_INT64 || w == HUDI_TYPE_FLOAT;
    case HUDI_TYPE_BINARY: return w == HUDI_TYPE_STRING;
    case HUDI_TYPE_STRING:
        return w == HUDI_TYPE_BINARY || w == HUDI_TYPE_INT32 || w == HUDI_TYPE_INT64 ||
               w == HUDI_TYPE_FLOAT || w == HUDI_TYPE_DOUBLE;
    case HUDI_TYPE_DECIMAL: return w == HUDI_TYPE_DECIMAL && is_decimal_widening(writer, reader);
    default: return false;
    }
}

static verdict judge(const hudi_field *incoming, const hudi_field *table) {
    if (hudi_type_is_nested(incoming->type) || hudi_type_is_nested(table->type)) return REFUSE;
    if (incoming->type == HUDI_TYPE_NULL || table->type == HUDI_TYPE_NULL) return REFUSE;
    if (converts_to(incoming, table)) return TAKE_TABLE;
    if (reads_from(incoming, table)) return TAKE_INCOMING;
    return REFUSE;
}

/* A copy of `src`'s type under `name_from`'s name and comment, nullable as given. */
static int copy_as(hudi_field *out, const hudi_field *src, const hudi_field *name_from,
                   bool nullable) {
    if (hudi_field_copy(out, src) < 0) return HUDI_ENOMEM;
    if (name_from != src) {
        char *name = name_from->name ? hudi_strdup(name_from->name) : NULL;
        char *comment = name_from->comment ? hudi_strdup(name_from->comment) : NULL;
        if ((name_from->name && !name) || (name_from->comment && !comment)) {
            hudi_free(name);
            hudi_free(comment);
            hudi_field_dispose(out);
            return HUDI_ENOMEM;
        }
        hudi_free(out->name);
        hudi_free(out->comment);
        out->name = name;
        out->comment = comment;
        out->field_id = name_from->field_id;
    }
    out->nullable = nullable;
    return 0;
}

bool hudi_schema_promote(const hudi_field *incoming, const hudi_field *table, hudi_field *out) {
    memset(out, 0, sizeof(*out));
    verdict v = judge(incoming, table);
    if (v == REFUSE) return false;
    const hudi_field *src = v == TAKE_TABLE ? table : incoming;
    if (copy_as(out, src, table, table->nullable) < 0) {
        memset(out, 0, sizeof(*out));
        return false;
    }
    return true;
}

/* ---- deduction ---------------------------------------------------------------------------- */

typedef struct ectx {
    const hudi_evolve_options *o;
    const char *table_path;
    hudi_buf path;     /* dotted path of the struct being merged, from the record name */
    hudi_buf missing;  /* "a.b, a.c" */
    hudi_buf not_null; /* missing columns kept as null that cannot be null */
    hudi_error *err;
} ectx;

/* Avro's words for a type, as Hudi's messages print them. */
static void type_words(hudi_buf *b, const hudi_field *f) {
    switch (f->type) {
    case HUDI_TYPE_BOOL: hudi_buf_puts(b, "boolean"); break;
    case HUDI_TYPE_INT8:
    case HUDI_TYPE_INT16:
    case HUDI_TYPE_INT32: hudi_buf_puts(b, "int"); break;
    case HUDI_TYPE_INT64: hudi_buf_puts(b, "long"); break;
    case HUDI_TYPE_BINARY: hudi_buf_puts(b, "bytes"); break;
    case HUDI_TYPE_DECIMAL: hudi_buf_printf(b, "decimal(%d,%d)", f->precision, f->scale); break;
    case HUDI_TYPE_FIXED_BINARY: hudi_buf_printf(b, "fixed[%d]", f->byte_width); break;
    case HUDI_TYPE_TIMESTAMP:
        hudi_buf_printf(b, "%stimestamp-%s", f->utc ? "" : "local-",
                        f->unit == HUDI_UNIT_MILLIS  ? "millis"
                        : f->unit == HUDI_UNIT_NANOS ? "nanos"
                                                     : "micros");
        break;
    case HUDI_TYPE_TIME:
        hudi_buf_printf(b, "time-%s", f->unit == HUDI_UNIT_MILLIS ? "millis" : "micros");
        break;
    case HUDI_TYPE_STRUCT: hudi_buf_puts(b, "record"); break;
    case HUDI_TYPE_LIST: hudi_buf_puts(b, "array"); break;
    default: hudi_buf_puts(b, hudi_type_name(f->type)); break;
    }
}

static const char *lost_logical(const hudi_field *incoming, const hudi_field *table) {
    if (table->type == HUDI_TYPE_DATE && incoming->type == HUDI_TYPE_INT32)
        return " (the table's date would become a plain int)";
    if ((table->type == HUDI_TYPE_TIMESTAMP || table->type == HUDI_TYPE_TIME) &&
        (incoming->type == HUDI_TYPE_INT64 || incoming->type == HUDI_TYPE_INT32))
        return " (the table's logical type would be lost)";
    if (table->type == HUDI_TYPE_DECIMAL && incoming->type == HUDI_TYPE_DECIMAL)
        return " (a decimal may only widen: more integer digits, or more scale without fewer "
               "integer digits)";
    return "";
}

static int refuse_type(ectx *x, const hudi_field *incoming, const hudi_field *table,
                       const char *path) {
    hudi_buf in = HUDI_BUF_INIT, tb = HUDI_BUF_INIT;
    type_words(&in, incoming);
    type_words(&tb, table);
    int rc =
        hudi_buf_failed(&in) || hudi_buf_failed(&tb)
            ? hudi_error_oom(x->err)
            : hudi_error_set(x->err, HUDI_EINVAL,
                             "%s: incoming type '%s' is not compatible with the table's type "
                             "'%s' for field '%s'%s",
                             x->table_path, in.data, tb.data, path, lost_logical(incoming, table));
    hudi_buf_dispose(&in);
    hudi_buf_dispose(&tb);
    return rc;
}

static int32_t find_field(const hudi_field *st, const char *name) {
    for (int32_t i = 0; i < st->n_children; i++)
        if (st->children[i].name && strcmp(st->children[i].name, name) == 0) return i;
    return -1;
}

static int32_t find_field_nocase(const hudi_field *st, const char *name) {
    for (int32_t i = 0; i < st->n_children; i++)
        if (st->children[i].name && strcasecmp(st->children[i].name, name) == 0) return i;
    return -1;
}

static void push_path(ectx *x, const char *part) {
    hudi_buf_printf(&x->path, "%s%s", x->path.len ? "." : "", part);
}

static int merge_field(ectx *x, hudi_field *out, const hudi_field *t, const hudi_field *s);

/* Incoming `s` into table struct `t` (same path); `out` is a STRUCT already named. */
static int merge_struct(ectx *x, hudi_field *out, const hudi_field *t, const hudi_field *s) {
    int rc = 0;
    int32_t n = 0;
    if (hudi_field_set_children(out, t->n_children + s->n_children) < 0)
        return hudi_error_oom(x->err);
    out->n_children = 0; /* grows one filled child at a time, so dispose frees exactly those */
    for (int32_t i = 0; i < s->n_children; i++) {
        const char *name = s->children[i].name ? s->children[i].name : "";
        int32_t d = find_field_nocase(s, name);
        if (d != i) {
            size_t saved = x->path.len;
            push_path(x, name);
            rc = hudi_error_set(x->err, HUDI_EINVAL, "%s: the incoming batch has field '%s' twice",
                                x->table_path, hudi_buf_failed(&x->path) ? name : x->path.data);
            hudi_buf_truncate(&x->path, saved);
            return rc;
        }
    }
    /* the table's columns, in the table's order */
    for (int32_t i = 0; i < t->n_children && rc == 0; i++) {
        const hudi_field *tf = &t->children[i];
        int32_t k = find_field(s, tf->name);
        size_t saved = x->path.len;
        push_path(x, tf->name);
        if (hudi_buf_failed(&x->path)) return hudi_error_oom(x->err);
        if (k >= 0) {
            rc = merge_field(x, &out->children[n], tf, &s->children[k]);
            if (rc == 0)
                out->n_children = ++n;
            else
                hudi_field_dispose(&out->children[n]);
        } else if (x->o->reconcile || x->o->partial ||
                   (!x->o->allow_column_drop && x->o->set_null_for_missing)) {
            /* kept, written as null */
            if (!tf->nullable && !x->o->partial)
                hudi_buf_printf(&x->not_null, "%s%s", x->not_null.len ? ", " : "", x->path.data);
            if (hudi_field_copy(&out->children[n], tf) < 0) rc = hudi_error_oom(x->err);
            if (rc == 0) out->n_children = ++n;
        } else if (!x->o->allow_column_drop) {
            hudi_buf_printf(&x->missing, "%s%s", x->missing.len ? ", " : "", x->path.data);
        } /* else: dropped from the table */
        hudi_buf_truncate(&x->path, saved);
    }
    /* columns new in the batch, appended in the batch's order */
    for (int32_t i = 0; i < s->n_children && rc == 0; i++) {
        const hudi_field *sf = &s->children[i];
        if (find_field(t, sf->name) >= 0) continue;
        size_t saved = x->path.len;
        push_path(x, sf->name);
        if (hudi_buf_failed(&x->path)) return hudi_error_oom(x->err);
        int32_t other = find_field_nocase(t, sf->name);
        if (other >= 0)
            rc = hudi_error_set(x->err, HUDI_EINVAL,
                                "%s: incoming field '%s' differs only in case from the table's "
                                "field '%s'",
                                x->table_path, x->path.data, t->children[other].name);
        else if (!sf->nullable)
            rc = hudi_error_set(x->err, HUDI_EINVAL,
                                "%s: new field '%s' is not nullable and has no default value "
                                "(columns a write adds must be nullable)",
                                x->table_path, x->path.data);
        else if (sf->type == HUDI_TYPE_NULL)
            rc = hudi_error_set(x->err, HUDI_EINVAL, "%s: field '%s' has type null", x->table_path,
                                x->path.data);
        else if (hudi_field_copy(&out->children[n], sf) < 0)
            rc = hudi_error_oom(x->err);
        else
            out->n_children = ++n;
        hudi_buf_truncate(&x->path, saved);
    }
    return rc;
}

/* One column present in both; x->path names it. */
static int merge_field(ectx *x, hudi_field *out, const hudi_field *t, const hudi_field *s) {
    /* NOT NULL is the table's: a batch typed nullable (Spark and Parquet sources type every
     * column so) does not relax it; nulls in it fail the write (Hudi's datasource would make
     * the column nullable; ALTER COLUMN ... DROP NOT NULL does that here). */
    bool nullable = t->nullable;
    const char *path = x->path.data;
    if (t->type != s->type && (hudi_type_is_nested(t->type) || hudi_type_is_nested(s->type)))
        return refuse_type(x, s, t, path);
    if (!hudi_type_is_nested(t->type)) {
        if (s->type == HUDI_TYPE_NULL)
            return hudi_error_set(x->err, HUDI_EINVAL, "%s: field '%s' has type null",
                                  x->table_path, path);
        verdict v = judge(s, t);
        if (v == REFUSE) return refuse_type(x, s, t, path);
        return copy_as(out, v == TAKE_TABLE ? t : s, t, nullable) < 0 ? hudi_error_oom(x->err) : 0;
    }
    if (hudi_field_init(out, t->name, t->type, nullable) < 0 ||
        (t->comment && !(out->comment = hudi_strdup(t->comment))))
        return hudi_error_oom(x->err);
    out->field_id = t->field_id;
    if (t->type == HUDI_TYPE_STRUCT) return merge_struct(x, out, t, s);
    /* LIST: one child, the element; MAP: one child, key_value { key, value } */
    if (t->n_children != 1 || s->n_children != 1) return refuse_type(x, s, t, path);
    if (hudi_field_set_children(out, 1) < 0) return hudi_error_oom(x->err);
    out->n_children = 0;
    size_t saved = x->path.len;
    int rc;
    if (t->type == HUDI_TYPE_LIST) {
        push_path(x, "element");
        rc = hudi_buf_failed(&x->path)
                 ? hudi_error_oom(x->err)
                 : merge_field(x, &out->children[0], &t->children[0], &s->children[0]);
        if (rc == 0)
            out->n_children = 1;
        else
            hudi_field_dispose(&out->children[0]);
        hudi_buf_truncate(&x->path, saved);
        return rc;
    }
    const hudi_field *te = &t->children[0], *se = &s->children[0];
    if (te->n_children != 2 || se->n_children != 2) return refuse_type(x, s, t, path);
    hudi_field *oe = &out->children[0];
    if (hudi_field_copy(oe, te) < 0) return hudi_error_oom(x->err);
    out->n_children = 1;
    /* map keys are strings in Avro and never change */
    if (!same_primitive(&te->children[0], &se->children[0])) {
        push_path(x, "key");
        rc = hudi_buf_failed(&x->path)
                 ? hudi_error_oom(x->err)
                 : refuse_type(x, &se->children[0], &te->children[0], x->path.data);
        hudi_buf_truncate(&x->path, saved);
        return rc;
    }
    hudi_field value;
    memset(&value, 0, sizeof(value));
    push_path(x, "value");
    rc = hudi_buf_failed(&x->path) ? hudi_error_oom(x->err)
                                   : merge_field(x, &value, &te->children[1], &se->children[1]);
    hudi_buf_truncate(&x->path, saved);
    if (rc < 0) {
        hudi_field_dispose(&value);
        return rc;
    }
    hudi_field_dispose(&oe->children[1]);
    oe->children[1] = value;
    return 0;
}

/* The record name that starts Hudi's field paths: the last part of the full name. */
static const char *record_name(const hudi_field *root) {
    if (!root || !root->name || !*root->name) return "record";
    const char *dot = strrchr(root->name, '.');
    return dot ? dot + 1 : root->name;
}

static int new_table_schema(hudi_field *out, const hudi_field *incoming, ectx *x) {
    /* A first write: the batch's columns; none may have type null. */
    for (int32_t i = 0; i < incoming->n_children; i++)
        if (incoming->children[i].type == HUDI_TYPE_NULL)
            return hudi_error_set(x->err, HUDI_EINVAL, "%s: field '%s.%s' has type null",
                                  x->table_path, record_name(incoming), incoming->children[i].name);
    if (hudi_field_copy(out, incoming) < 0) return hudi_error_oom(x->err);
    out->nullable = false;
    return 0;
}

int hudi_schema_deduce_writer(hudi_field *out, const hudi_field *table, const hudi_field *incoming,
                              const hudi_evolve_options *opts, const char *table_path,
                              hudi_error *err) {
    hudi_evolve_options dflt = {0};
    hudi_field norm;
    ectx x = {opts ? opts : &dflt, table_path ? table_path : "",
              HUDI_BUF_INIT,       HUDI_BUF_INIT,
              HUDI_BUF_INIT,       err};
    memset(out, 0, sizeof(*out));
    if (!incoming || incoming->type != HUDI_TYPE_STRUCT ||
        (table && table->type != HUDI_TYPE_STRUCT))
        return hudi_error_set(err, HUDI_EINVAL, "%s: schemas to evolve must be records",
                              x.table_path);
    /* Arrow types Avro has no word for take the type Spark reads them as (int8 -> int...). */
    int rc = hudi_schema_from_parquet(&norm, incoming, NULL, err);
    if (rc < 0) {
        hudi_error_wrap(err, "%s", x.table_path);
        return rc;
    }
    if (!table) {
        rc = new_table_schema(out, &norm, &x);
        goto done;
    }
    if (hudi_field_init(out, table->name, HUDI_TYPE_STRUCT, false) < 0 ||
        (table->comment && !(out->comment = hudi_strdup(table->comment)))) {
        rc = hudi_error_oom(err);
        goto done;
    }
    hudi_buf_puts(&x.path, record_name(table));
    if (hudi_buf_failed(&x.path)) {
        rc = hudi_error_oom(err);
        goto done;
    }
    if ((rc = merge_struct(&x, out, table, &norm)) < 0) goto done;
    if (hudi_buf_failed(&x.missing) || hudi_buf_failed(&x.not_null)) {
        rc = hudi_error_oom(err);
    } else if (x.missing.len) {
        rc = hudi_error_set(err, HUDI_EINVAL,
                            "%s: schema validation failed due to missing field: fields missing "
                            "from incoming schema: {%s} (hoodie.write.set.null.for.missing.columns"
                            "=true writes them as null)",
                            x.table_path, x.missing.data);
    } else if (x.not_null.len) {
        rc = hudi_error_set(err, HUDI_EINVAL,
                            "%s: missing field {%s} is not nullable and has no default value: "
                            "it cannot be written as null",
                            x.table_path, x.not_null.data);
    }
done:
    if (rc < 0) {
        hudi_field_dispose(out);
        memset(out, 0, sizeof(*out));
    }
    hudi_field_dispose(&norm);
    hudi_buf_dispose(&x.path);
    hudi_buf_dispose(&x.missing);
    hudi_buf_dispose(&x.not_null);
    return rc;
}
