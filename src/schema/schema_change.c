/* schema_change.c - ALTER TABLE changes on an InternalSchema, Hudi's type-change matrix, and the
 * reconciliation of a writer schema with the table's InternalSchema (docs/formats/
 * internal-schema.md §6).
 *
 * A statement's changes are applied one after the other to a working copy; that gives the same
 * result as Hudi's batched applier (added fields are appended to their parent, then moved), and
 * every change is checked against the schema as the earlier changes left it. Invariants: ids are
 * never reused (max_column_id only grows, also across drops); meta columns, map keys, and the
 * protected columns (record key, precombine, partition) keep their identity and type. */
#include <stdarg.h>
#include <stdio.h>
#include <strings.h>

#include "schema/internal_schema.h"
#include "schema/internal_schema_int.h"
#include "schema/schema.h"

#define SOR_KEY "hoodie.schema.on.read.enable=true"

/* ---- the type-change matrix ----------------------------------------------------------------- */

/* The model's primitive kind of a type: the small integer types count as int. */
static hudi_type_id kind_of(const hudi_field *f) {
    switch (f->type) {
    case HUDI_TYPE_INT8:
    case HUDI_TYPE_INT16:
    case HUDI_TYPE_UINT8:
    case HUDI_TYPE_UINT16: return HUDI_TYPE_INT32;
    default: return f->type;
    }
}

static bool same_type(const hudi_field *a, const hudi_field *b) {
    hudi_type_id t = kind_of(a);
    if (t != kind_of(b)) return false;
    switch (t) {
    case HUDI_TYPE_DECIMAL: return a->precision == b->precision && a->scale == b->scale;
    case HUDI_TYPE_FIXED_BINARY:
        return a->byte_width == b->byte_width &&
               (a->hint == HUDI_HINT_UUID) == (b->hint == HUDI_HINT_UUID);
    case HUDI_TYPE_STRUCT:
    case HUDI_TYPE_LIST:
    case HUDI_TYPE_MAP:
        if (a->n_children != b->n_children) return false;
        for (int32_t i = 0; i < a->n_children; i++)
            if (!same_type(&a->children[i], &b->children[i]) ||
                (t == HUDI_TYPE_STRUCT && strcmp(a->children[i].name, b->children[i].name)))
                return false;
        return true;
    default: return true;
    }
}

bool hudi_schema_type_change_allowed(const hudi_field *from, const hudi_field *to) {
    if (same_type(from, to)) return true;
    hudi_type_id f = kind_of(from), t = kind_of(to);
    switch (f) {
    case HUDI_TYPE_INT32:
        return t == HUDI_TYPE_INT64 || t == HUDI_TYPE_FLOAT || t == HUDI_TYPE_DOUBLE ||
               t == HUDI_TYPE_DECIMAL || t == HUDI_TYPE_STRING;
    case HUDI_TYPE_INT64:
        return t == HUDI_TYPE_FLOAT || t == HUDI_TYPE_DOUBLE || t == HUDI_TYPE_DECIMAL ||
               t == HUDI_TYPE_STRING;
    case HUDI_TYPE_FLOAT:
        return t == HUDI_TYPE_DOUBLE || t == HUDI_TYPE_DECIMAL || t == HUDI_TYPE_STRING;
    case HUDI_TYPE_DOUBLE: return t == HUDI_TYPE_DECIMAL || t == HUDI_TYPE_STRING;
    case HUDI_TYPE_DECIMAL:
        if (t == HUDI_TYPE_STRING) return true;
        if (t != HUDI_TYPE_DECIMAL) return false;
        return (to->precision - to->scale >= from->precision - from->scale &&
                to->scale > from->scale) ||
               (to->precision >= from->precision && to->scale == from->scale);
    case HUDI_TYPE_STRING:
        return t == HUDI_TYPE_DECIMAL || t == HUDI_TYPE_DATE || t == HUDI_TYPE_BINARY;
    case HUDI_TYPE_DATE: return t == HUDI_TYPE_STRING;
    case HUDI_TYPE_BINARY: return t == HUDI_TYPE_STRING;
    default: return false;
    }
}

/* What a type may become, for error messages. */
static const char *allowed_targets(const hudi_field *f) {
    switch (kind_of(f)) {
    case HUDI_TYPE_INT32: return "long, float, double, decimal or string";
    case HUDI_TYPE_INT64: return "float, double, decimal or string";
    case HUDI_TYPE_FLOAT: return "double, decimal or string";
    case HUDI_TYPE_DOUBLE: return "decimal or string";
    case HUDI_TYPE_DECIMAL:
        return "string, or a decimal with as many integer digits and a larger scale, or with "
               "the same scale and at least the precision";
    case HUDI_TYPE_STRING: return "decimal, date or binary";
    case HUDI_TYPE_DATE:
    case HUDI_TYPE_BINARY: return "string";
    default: return "nothing else";
    }
}

/* ---- working state -------------------------------------------------------------------------- */

typedef struct actx {
    hudi_ischema *s; /* the working copy */
    const hudi_schema_rules *rules;
    hudi_error *err;
    int32_t next_id;   /* the next id to give out */
    hudi_vec added;    /* char * full paths added by this statement (owned) */
    hudi_buf scratch;  /* type names for messages */
    hudi_buf scratch2; /* second type name */
} actx;

static int fail(actx *c, int code, const char *fmt, ...) HUDI_PRINTF(3, 4);
static int fail(actx *c, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    hudi_error_setv(c->err, code, fmt, ap);
    va_end(ap);
    return code;
}

static const char *type_text(hudi_buf *b, const hudi_field *f) {
    hudi_buf_clear(b);
    if (!hudi_ischema_type_text(b, f)) hudi_buf_puts(b, hudi_type_name(f->type));
    return b->data ? b->data : "?";
}

/* Where a path leads in the working tree. */
typedef struct loc {
    hudi_field *owner;  /* the STRUCT/LIST/MAP that holds the column (root for top level) */
    hudi_field *holder; /* whose children[] holds it: owner, or the map's key_value */
    int32_t index;      /* in holder->children; -1 when the leaf is absent */
    bool top;           /* a top-level column */
    size_t parent_len;  /* length of the parent path in the path text */
} loc;

/* Resolves all but the last segment of `path` (each must exist); then looks the leaf up in its
 * holder, exactly (case-sensitive). False when a parent is missing or not nested. */
static bool locate(hudi_field *root, const char *path, loc *l) {
    hudi_field *owner = root;
    const char *p = path;
    l->parent_len = 0;
    for (;;) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        hudi_field *holder = owner->type == HUDI_TYPE_MAP ? &owner->children[0] : owner;
        if (owner->type != HUDI_TYPE_STRUCT && owner->type != HUDI_TYPE_LIST &&
            owner->type != HUDI_TYPE_MAP)
            return false;
        if (owner->type == HUDI_TYPE_MAP && owner->n_children != 1) return false;
        int32_t idx = -1;
        for (int32_t i = 0; i < holder->n_children; i++) {
            const char *cn = holder->children[i].name ? holder->children[i].name : "";
            if (strlen(cn) == n && !memcmp(cn, p, n)) {
                idx = i;
                break;
            }
        }
        if (!dot) {
            l->owner = owner, l->holder = holder, l->index = idx, l->top = owner == root;
            l->parent_len = (size_t)(p - path) ? (size_t)(p - path) - 1 : 0;
            return true;
        }
        if (idx < 0) return false;
        owner = &holder->children[idx];
        p = dot + 1;
    }
}

static const char *leaf_of(const char *path) {
    const char *dot = strrchr(path, '.');
    return dot ? dot + 1 : path;
}

static bool is_protected(actx *c, const char *path) {
    if (strchr(path, '.')) return false;
    for (int32_t i = 0; i < c->rules->n_protected; i++)
        if (c->rules->protected_columns[i] && !strcasecmp(c->rules->protected_columns[i], path))
            return true;
    return false;
}

/* The five meta columns and _hoodie_operation at the top level are never a target. */
static int check_meta(actx *c, const char *path) {
    if (!strchr(path, '.') && hudi_is_meta_field(path))
        return fail(c, HUDI_EINVAL,
                    "cannot modify hudi meta col: %s (meta columns are managed by "
                    "Hudi and cannot be changed)",
                    path);
    return 0;
}

/* An existing column: located, or "cannot update a missing column". */
static int find_existing(actx *c, const char *path, const char *verb, const char *hudi_text,
                         loc *l) {
    if (!path || !*path) return fail(c, HUDI_EINVAL, "%s: no column named", verb);
    if (!locate(&c->s->root, path, l) || l->index < 0)
        return fail(c, HUDI_EINVAL, "%s %s: %s%s (no such column)", verb, path, hudi_text, path);
    return 0;
}

/* Whether the located column is a list element or a map key/value (fixed names). */
static bool is_element_or_entry(const loc *l) {
    return l->owner->type == HUDI_TYPE_LIST || l->owner->type == HUDI_TYPE_MAP;
}

static bool is_map_key(const loc *l) { return l->owner->type == HUDI_TYPE_MAP && l->index == 0; }

/* A sibling with `name` (case-insensitive) other than `self` in holder, or -1. */
static int32_t find_ci(const hudi_field *holder, const char *name, size_t n, int32_t self) {
    for (int32_t i = 0; i < holder->n_children; i++) {
        const char *cn = holder->children[i].name ? holder->children[i].name : "";
        if (i != self && strlen(cn) == n && !strncasecmp(cn, name, n)) return i;
    }
    return -1;
}

/* Moves holder->children[from] to position `to` (an index in the list without it). */
static void move_child(hudi_field *holder, int32_t from, int32_t to) {
    hudi_field tmp = holder->children[from];
    if (from < to)
        memmove(&holder->children[from], &holder->children[from + 1],
                (size_t)(to - from) * sizeof(hudi_field));
    else if (from > to)
        memmove(&holder->children[to + 1], &holder->children[to],
                (size_t)(from - to) * sizeof(hudi_field));
    holder->children[to] = tmp;
}

/* Applies a FIRST / AFTER position to the column at l->index (Hudi's position rules). */
static int apply_position(actx *c, const char *path, const loc *l, const hudi_schema_change *ch) {
    if (ch->position == HUDI_SCHEMA_POS_NONE) return 0;
    if (l->owner->type != HUDI_TYPE_STRUCT)
        return fail(c, HUDI_EINVAL,
                    "cannot move %s: only support reorder fields in struct type, but find: %s",
                    path, type_text(&c->scratch, l->owner));
    if (ch->position == HUDI_SCHEMA_POS_FIRST) {
        if (l->top)
            return fail(c, HUDI_EINVAL,
                        "cannot place %s first: forbid adjust top-level columns position by "
                        "using through first syntax (FIRST is only for nested columns)",
                        path);
        move_child(l->holder, l->index, 0);
        return 0;
    }
    if (ch->position != HUDI_SCHEMA_POS_AFTER || !ch->anchor || !*ch->anchor)
        return fail(c, HUDI_EINVAL, "cannot move %s: AFTER needs a column", path);
    /* the anchor: a leaf name, or a full path in the same parent */
    const char *a = ch->anchor;
    if (strchr(a, '.')) {
        if (strncmp(a, path, l->parent_len) || l->parent_len == 0 || a[l->parent_len] != '.' ||
            strchr(a + l->parent_len + 1, '.'))
            return fail(c, HUDI_EINVAL,
                        "cannot place %s after %s: cannot order position from different parent",
                        path, a);
        a += l->parent_len + 1;
    }
    int32_t ai = -1;
    for (int32_t i = 0; i < l->holder->n_children && ai < 0; i++)
        if (!strcmp(l->holder->children[i].name, a)) ai = i;
    if (ai < 0) ai = find_ci(l->holder, a, strlen(a), -1);
    if (ai < 0)
        return fail(c, HUDI_EINVAL,
                    "cannot place %s after %s: cannot find col id for given column fullName: %s "
                    "(no such column in the same parent)",
                    path, ch->anchor, ch->anchor);
    const char *an = l->holder->children[ai].name;
    if (l->top && (!strcmp(an, hudi_meta_field_names[HUDI_META_COMMIT_TIME]) ||
                   !strcmp(an, hudi_meta_field_names[HUDI_META_COMMIT_SEQNO]) ||
                   !strcmp(an, hudi_meta_field_names[HUDI_META_RECORD_KEY])))
        return fail(c, HUDI_EINVAL,
                    "cannot place %s after %s: forbid adjust the position of ordinary columns "
                    "between meta columns",
                    path, l->holder->children[ai].name);
    if (ai == l->index) return 0;
    int32_t to = ai < l->index ? ai + 1 : ai;
    move_child(l->holder, l->index, to);
    return 0;
}

static int no_sor(actx *c, const char *what, const char *path) {
    return fail(c, HUDI_EUNSUPPORTED,
                "%s %s: not supported table change without schema on read (set " SOR_KEY ")", what,
                path ? path : "");
}

/* ---- the changes ---------------------------------------------------------------------------- */

static int do_add(actx *c, const hudi_schema_change *ch) {
    const char *path = ch->path;
    bool sor = c->rules->schema_on_read;
    if (!path || !*path) return fail(c, HUDI_EINVAL, "ADD COLUMN: no column named");
    if (!ch->type) return fail(c, HUDI_EINVAL, "ADD COLUMN %s: no type given", path);
    const char *leaf = leaf_of(path);
    if (!*leaf) return fail(c, HUDI_EINVAL, "ADD COLUMN %s: empty column name", path);
    if (!sor && strchr(path, '.')) return no_sor(c, "ADD COLUMN of nested column", path);
    if (!sor && ch->position != HUDI_SCHEMA_POS_NONE)
        return no_sor(c, "ADD COLUMN with FIRST or AFTER", path);
    if (!strchr(path, '.') && hudi_is_meta_field(path))
        return fail(c, HUDI_EINVAL, "cannot add column %s: cannot modify hudi meta col: %s", path,
                    path);
    if (ch->not_null)
        return fail(c, HUDI_EINVAL,
                    "cannot add column %s as NOT NULL: rows written before it have no value "
                    "for it; add it nullable",
                    path);
    for (size_t i = 0; i < c->added.len; i++)
        if (!strcasecmp(hudi_vec_at(&c->added, char *, i), path))
            return fail(c, HUDI_EINVAL, "ADD COLUMN %s: cannot repeat add column: %s", path, path);
    /* the parent: it must exist and be a struct (a list element or map value of struct type
     * is addressed as arr.element.x / m.value.x) */
    size_t plen = (size_t)(leaf - path);
    if (plen) {
        char ppath[1024];
        if (plen > sizeof(ppath))
            return fail(c, HUDI_EINVAL, "ADD COLUMN %s: the path is too long", path);
        snprintf(ppath, sizeof(ppath), "%.*s", (int)(plen - 1), path);
        loc pl;
        if (!locate(&c->s->root, ppath, &pl) || pl.index < 0)
            return fail(c, HUDI_EINVAL, "cannot add column: %s which parent: %s is not exist", path,
                        ppath);
        const hudi_field *parent = &pl.holder->children[pl.index];
        if (is_map_key(&pl))
            return fail(c, HUDI_EINVAL, "cannot add column %s: Cannot add fields to map keys: %.*s",
                        path, (int)pl.parent_len, ppath);
        if (parent->type != HUDI_TYPE_STRUCT)
            return fail(c, HUDI_EINVAL,
                        "cannot add column %s: only support add nested columns to struct column "
                        "(%s is a %s%s)",
                        path, ppath, type_text(&c->scratch, parent),
                        parent->type == HUDI_TYPE_LIST  ? "; use <list>.element.<name>"
                        : parent->type == HUDI_TYPE_MAP ? "; use <map>.value.<name>"
                                                        : "");
    }
    loc l;
    if (!locate(&c->s->root, path, &l) || l.owner->type != HUDI_TYPE_STRUCT)
        return fail(c, HUDI_EINVAL,
                    "cannot add column %s: only support add nested columns to "
                    "struct column",
                    path);
    if (find_ci(l.holder, leaf, strlen(leaf), -1) >= 0)
        return fail(c, HUDI_EINVAL, "cannot add column: %s which already exist", path);

    hudi_field nf;
    int rc = hudi_ischema_convert_type(&nf, ch->type, leaf, c->err);
    if (rc < 0) return rc;
    nf.nullable = true; /* refused above when NOT NULL */
    hudi_free(nf.comment);
    nf.comment = NULL;
    if (ch->comment && !(nf.comment = hudi_strdup(ch->comment))) {
        hudi_field_dispose(&nf);
        return hudi_error_oom(c->err);
    }
    hudi_ischema_assign_new(&nf, &c->next_id);
    hudi_field *h = l.holder;
    hudi_field *kids = hudi_realloc(h->children, (size_t)(h->n_children + 1) * sizeof(hudi_field));
    char **slot = hudi_vec_push(&c->added);
    char *copy = hudi_strdup(path);
    if (!kids || !slot || !copy) {
        if (kids) h->children = kids;
        if (slot) c->added.len--;
        hudi_free(copy);
        hudi_field_dispose(&nf);
        return hudi_error_oom(c->err);
    }
    *slot = copy;
    h->children = kids;
    h->children[h->n_children++] = nf;
    l.index = h->n_children - 1;
    return apply_position(c, path, &l, ch);
}

static int do_alter_type(actx *c, const hudi_schema_change *ch) {
    loc l;
    int rc;
    if ((rc = find_existing(c, ch->path, "ALTER COLUMN", "cannot update a missing column: ", &l)) <
            0 ||
        (rc = check_meta(c, ch->path)) < 0)
        return rc;
    hudi_field *f = &l.holder->children[l.index];
    if (!ch->type) return fail(c, HUDI_EINVAL, "ALTER COLUMN %s TYPE: no type given", ch->path);
    if (hudi_type_is_nested(ch->type->type))
        return fail(c, HUDI_EINVAL,
                    "cannot change the type of %s: only support update primitive type but find "
                    "nest column: %s",
                    ch->path, ch->path);
    if (hudi_type_is_nested(f->type))
        return fail(c, HUDI_EINVAL,
                    "cannot change the type of %s: only support update primitive type (it is a "
                    "%s)",
                    ch->path, type_text(&c->scratch, f));
    hudi_field nt;
    if ((rc = hudi_ischema_convert_type(&nt, ch->type, f->name, c->err)) < 0) return rc;
    if (same_type(f, &nt)) {
        hudi_field_dispose(&nt);
        return 0;
    }
    if (is_protected(c, ch->path) || is_map_key(&l)) {
        hudi_field_dispose(&nt);
        if (is_map_key(&l))
            return fail(c, HUDI_EINVAL, "cannot change the type of %s: map keys cannot be changed",
                        ch->path);
        return fail(c, HUDI_EINVAL,
                    "cannot change the type of %s: it is a record key, precombine or partition "
                    "column (record keys and partition paths would change)",
                    ch->path);
    }
    const char *old_t = type_text(&c->scratch, f), *new_t = type_text(&c->scratch2, &nt);
    if (!c->rules->schema_on_read) {
        rc = fail(c, HUDI_EUNSUPPORTED,
                  "ALTER TABLE CHANGE COLUMN is not supported for changing column '%s' with type "
                  "'%s' to '%s' with type '%s' without schema on read (set " SOR_KEY ")",
                  ch->path, old_t, ch->path, new_t);
        hudi_field_dispose(&nt);
        return rc;
    }
    if (!hudi_schema_type_change_allowed(f, &nt)) {
        rc = fail(c, HUDI_EINVAL,
                  "cannot change the type of %s: cannot update origin type: %s to a "
                  "incompatibility type: %s (%s may only become %s)",
                  ch->path, old_t, new_t, old_t, allowed_targets(f));
        hudi_field_dispose(&nt);
        return rc;
    }
    /* same id, name, nullability and comment; the new type */
    f->type = nt.type, f->unit = nt.unit, f->utc = nt.utc, f->hint = nt.hint;
    f->precision = nt.precision, f->scale = nt.scale, f->byte_width = nt.byte_width;
    hudi_field_dispose(&nt);
    return 0;
}

static int do_comment(actx *c, const hudi_schema_change *ch) {
    loc l;
    int rc;
    if ((rc = find_existing(c, ch->path, "ALTER COLUMN", "cannot update a missing column: ", &l)) <
            0 ||
        (rc = check_meta(c, ch->path)) < 0)
        return rc;
    if (is_element_or_entry(&l))
        return fail(c, HUDI_EINVAL,
                    "cannot comment %s: a list element and a map key or value have no comment",
                    ch->path);
    hudi_field *f = &l.holder->children[l.index];
    char *doc = NULL;
    if (ch->comment && !(doc = hudi_strdup(ch->comment))) return hudi_error_oom(c->err);
    hudi_free(f->comment);
    f->comment = doc;
    return 0;
}

static int do_move(actx *c, const hudi_schema_change *ch) {
    loc l;
    int rc;
    if (!c->rules->schema_on_read) return no_sor(c, "ALTER COLUMN ... FIRST/AFTER of", ch->path);
    if ((rc = find_existing(c, ch->path, "ALTER COLUMN", "cannot update a missing column: ", &l)) <
            0 ||
        (rc = check_meta(c, ch->path)) < 0)
        return rc;
    if (ch->position == HUDI_SCHEMA_POS_NONE) return 0;
    return apply_position(c, ch->path, &l, ch);
}

static int do_nullability(actx *c, const hudi_schema_change *ch, bool nullable) {
    loc l;
    int rc;
    if (!c->rules->schema_on_read)
        return no_sor(c,
                      nullable ? "ALTER COLUMN ... DROP NOT NULL of"
                               : "ALTER COLUMN ... SET "
                                 "NOT NULL of",
                      ch->path);
    if ((rc = find_existing(c, ch->path, "ALTER COLUMN", "cannot update a missing column: ", &l)) <
            0 ||
        (rc = check_meta(c, ch->path)) < 0)
        return rc;
    hudi_field *f = &l.holder->children[l.index];
    if (f->nullable == nullable) return 0;
    if (!nullable)
        return fail(c, HUDI_EINVAL,
                    "cannot make %s NOT NULL: cannot update column Nullability: optional to "
                    "required (old rows may hold nulls)",
                    ch->path);
    if (is_map_key(&l))
        return fail(c, HUDI_EINVAL, "cannot change %s: map keys cannot be changed", ch->path);
    f->nullable = true;
    return 0;
}

/* The existing, non-meta, unprotected column a RENAME or DROP (`stmt`, `verb`) targets, found
 * into *l; schema on read only. */
static int key_safe_target(actx *c, const hudi_schema_change *ch, const char *stmt,
                           const char *missing, const char *verb, loc *l) {
    int rc;
    if (!c->rules->schema_on_read) return no_sor(c, stmt, ch->path);
    if ((rc = find_existing(c, ch->path, stmt, missing, l)) < 0 ||
        (rc = check_meta(c, ch->path)) < 0)
        return rc;
    if (is_protected(c, ch->path))
        return fail(c, HUDI_EINVAL,
                    "cannot %s %s: cannot support apply changes for "
                    "primaryKey/CombineKey/partitionKey (it is a record key, precombine or "
                    "partition column)",
                    verb, ch->path);
    return 0;
}

static int do_rename(actx *c, const hudi_schema_change *ch) {
    loc l;
    int rc =
        key_safe_target(c, ch, "RENAME COLUMN", "cannot update a missing column: ", "rename", &l);
    if (rc < 0) return rc;
    if (is_element_or_entry(&l))
        return fail(c, HUDI_EINVAL,
                    "cannot rename %s: a list element and a map key or value keep their names",
                    ch->path);
    const char *nn = ch->new_name;
    if (!nn || !*nn) return fail(c, HUDI_EINVAL, "cannot rename column: %s to empty", ch->path);
    if (strchr(nn, '.'))
        return fail(c, HUDI_EINVAL, "cannot rename column %s to %s: the new name is a leaf name",
                    ch->path, nn);
    if (l.top && hudi_is_meta_field(nn))
        return fail(c, HUDI_EINVAL,
                    "cannot rename column %s to %s: cannot modify hudi meta col: %s", ch->path, nn,
                    nn);
    if (find_ci(l.holder, nn, strlen(nn), l.index) >= 0)
        return fail(c, HUDI_EINVAL,
                    "cannot rename column: %s to a existing name (%s already has a column %s, "
                    "names compare without case)",
                    ch->path, l.top ? "the table" : "its parent", nn);
    hudi_field *f = &l.holder->children[l.index];
    char *copy = hudi_strdup(nn);
    if (!copy) return hudi_error_oom(c->err);
    hudi_free(f->name);
    f->name = copy;
    return 0;
}

static int do_drop(actx *c, const hudi_schema_change *ch) {
    loc l;
    int rc = key_safe_target(c, ch, "DROP COLUMN", "cannot delete missing columns: ", "drop", &l);
    if (rc < 0) return rc;
    if (l.owner->type == HUDI_TYPE_LIST)
        return fail(c, HUDI_EINVAL, "cannot drop %s: cannot delete element from arrayType: %.*s",
                    ch->path, (int)l.parent_len, ch->path);
    if (l.owner->type == HUDI_TYPE_MAP)
        return fail(c, HUDI_EINVAL, "cannot drop %s: cannot delete %s from mapType: %.*s", ch->path,
                    l.index == 0 ? "key" : "value", (int)l.parent_len, ch->path);
    if (l.holder->n_children == 1)
        return fail(c, HUDI_EINVAL,
                    "cannot drop %s: cannot support delete all columns from Struct (it is the "
                    "last column of %s)",
                    ch->path, l.top ? "the table" : "its struct");
    hudi_field *h = l.holder;
    hudi_field_dispose(&h->children[l.index]);
    memmove(&h->children[l.index], &h->children[l.index + 1],
            (size_t)(h->n_children - l.index - 1) * sizeof(hudi_field));
    h->n_children--;
    return 0;
}

static void actx_dispose(actx *c) {
    for (size_t i = 0; i < c->added.len; i++) hudi_free(hudi_vec_at(&c->added, char *, i));
    hudi_vec_dispose(&c->added);
    hudi_buf_dispose(&c->scratch);
    hudi_buf_dispose(&c->scratch2);
}

static int32_t max_id_of(const hudi_field *f) {
    int32_t m = f->field_id;
    for (int32_t i = 0; i < f->n_children; i++) m = HUDI_MAX(m, max_id_of(&f->children[i]));
    return m;
}

int hudi_ischema_apply(hudi_ischema *out, const hudi_ischema *in, const hudi_schema_change *changes,
                       int32_t n, const hudi_schema_rules *rules, int64_t new_version,
                       hudi_error *err) {
    static const hudi_schema_rules none = {0};
    int rc = hudi_ischema_copy(out, in, err);
    if (rc < 0) return rc;
    actx c = {.s = out,
              .rules = rules ? rules : &none,
              .err = err,
              .added = HUDI_VEC_INIT(char *),
              .scratch = HUDI_BUF_INIT,
              .scratch2 = HUDI_BUF_INIT};
    int32_t high = HUDI_MAX(in->max_column_id, max_id_of(&in->root));
    c.next_id = high + 1;
    for (int32_t i = 0; i < n && rc == 0; i++) {
        const hudi_schema_change *ch = &changes[i];
        switch (ch->kind) {
        case HUDI_SCHEMA_ADD: rc = do_add(&c, ch); break;
        case HUDI_SCHEMA_ALTER_TYPE: rc = do_alter_type(&c, ch); break;
        case HUDI_SCHEMA_COMMENT: rc = do_comment(&c, ch); break;
        case HUDI_SCHEMA_MOVE: rc = do_move(&c, ch); break;
        case HUDI_SCHEMA_DROP_NOT_NULL: rc = do_nullability(&c, ch, true); break;
        case HUDI_SCHEMA_SET_NOT_NULL: rc = do_nullability(&c, ch, false); break;
        case HUDI_SCHEMA_RENAME: rc = do_rename(&c, ch); break;
        case HUDI_SCHEMA_DROP: rc = do_drop(&c, ch); break;
        default:
            rc = fail(&c, HUDI_EINVAL, "find unsupported alter command type: %d", (int)ch->kind);
        }
    }
    if (rc == 0 && (hudi_buf_failed(&c.scratch) || hudi_buf_failed(&c.scratch2)))
        rc = hudi_error_oom(err);
    actx_dispose(&c);
    if (rc < 0) {
        hudi_ischema_dispose(out);
        return rc;
    }
    /* ids are never reused: the high-water mark is carried forward through every change */
    out->max_column_id = HUDI_MAX(high, c.next_id - 1);
    out->version_id = new_version;
    return 0;
}

/* ---- reconcile (schema on write with schema on read) ----------------------------------------- */

typedef struct rctx {
    hudi_ischema *s;
    hudi_error *err;
    int32_t next_id;
    bool changed;
} rctx;

/* Writer list and map children are matched by position (their names vary by source). */
static int reconcile_level(rctx *c, hudi_field *holder, const hudi_field *wholder);

static int reconcile_field(rctx *c, hudi_field *f, const hudi_field *w) {
    /* nested: descend into the same shape; primitive: an allowed type change */
    if (f->type == HUDI_TYPE_STRUCT && w->type == HUDI_TYPE_STRUCT) return reconcile_level(c, f, w);
    if (f->type == HUDI_TYPE_LIST && w->type == HUDI_TYPE_LIST && f->n_children == 1 &&
        w->n_children == 1)
        return reconcile_field(c, &f->children[0], &w->children[0]);
    if (f->type == HUDI_TYPE_MAP && w->type == HUDI_TYPE_MAP && f->n_children == 1 &&
        w->n_children == 1 && w->children[0].n_children == 2)
        return reconcile_field(c, &f->children[0].children[1], &w->children[0].children[1]);
    if (hudi_type_is_nested(f->type) || hudi_type_is_nested(w->type)) return 0;
    hudi_field nt;
    int rc = hudi_ischema_convert_type(&nt, w, f->name, c->err);
    if (rc == HUDI_EUNSUPPORTED || rc == HUDI_EINVAL) return 0; /* kept: no model form */
    if (rc < 0) return rc;
    if (!same_type(f, &nt) && hudi_schema_type_change_allowed(f, &nt)) {
        f->type = nt.type, f->unit = nt.unit, f->utc = nt.utc, f->hint = nt.hint;
        f->precision = nt.precision, f->scale = nt.scale, f->byte_width = nt.byte_width;
        c->changed = true;
    }
    hudi_field_dispose(&nt);
    return 0;
}

static int32_t find_exact(const hudi_field *holder, const char *name) {
    for (int32_t i = 0; i < holder->n_children; i++)
        if (holder->children[i].name && !strcmp(holder->children[i].name, name)) return i;
    return -1;
}

/* One struct level: match writer fields by name (case-sensitive, as Hudi's full names), add the
 * missing ones before the next writer field the level has, recurse into the matched ones. */
static int reconcile_level(rctx *c, hudi_field *holder, const hudi_field *wholder) {
    for (int32_t i = 0; i < wholder->n_children; i++) {
        const hudi_field *w = &wholder->children[i];
        const char *name = w->name ? w->name : "";
        int32_t at = find_exact(holder, name);
        if (at >= 0) {
            int rc = reconcile_field(c, &holder->children[at], w);
            if (rc < 0) return rc;
            continue;
        }
        /* new column: before the next writer column this level already has, else last */
        int32_t before = -1;
        for (int32_t k = i + 1; k < wholder->n_children && before < 0; k++)
            before = find_exact(holder, wholder->children[k].name ? wholder->children[k].name : "");
        hudi_field nf;
        int rc = hudi_ischema_convert_type(&nf, w, name, c->err);
        if (rc < 0) return rc;
        nf.nullable = true; /* Hudi's add change makes every added column optional */
        hudi_free(nf.comment);
        nf.comment = NULL;
        hudi_ischema_assign_new(&nf, &c->next_id);
        hudi_field *kids =
            hudi_realloc(holder->children, (size_t)(holder->n_children + 1) * sizeof(hudi_field));
        if (!kids) {
            hudi_field_dispose(&nf);
            return hudi_error_oom(c->err);
        }
        holder->children = kids;
        int32_t pos = before >= 0 ? before : holder->n_children;
        memmove(&kids[pos + 1], &kids[pos],
                (size_t)(holder->n_children - pos) * sizeof(hudi_field));
        kids[pos] = nf;
        holder->n_children++;
        c->changed = true;
    }
    return 0;
}

int hudi_ischema_reconcile(hudi_ischema *out, bool *changed, const hudi_ischema *in,
                           const hudi_field *writer, int64_t new_version, hudi_error *err) {
    *changed = false;
    if (writer->type != HUDI_TYPE_STRUCT)
        return hudi_error_set(err, HUDI_EINVAL, "reconcile: the writer schema is not a struct");
    int rc = hudi_ischema_copy(out, in, err);
    if (rc < 0) return rc;
    int32_t high = HUDI_MAX(in->max_column_id, max_id_of(&in->root));
    rctx c = {.s = out, .err = err, .next_id = high + 1};
    if ((rc = reconcile_level(&c, &out->root, writer)) < 0) {
        hudi_ischema_dispose(out);
        return rc;
    }
    *changed = c.changed;
    if (c.changed) {
        out->version_id = new_version;
        out->max_column_id = HUDI_MAX(high, c.next_id - 1);
    }
    return 0;
}
