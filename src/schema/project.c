/* project.c - reading a file's columns as the query schema (docs/formats/schema-evolution.md
 * §4).
 *
 * A projection is a tree of nodes shaped like the query schema. Each node knows which file field
 * holds it (struct fields by name, a list's element and a map's key and value by position) and
 * whether the values pass through as they are. Building a column takes ownership of the file's
 * array and reuses its buffers: a node that passes through is re-pointed at the query field,
 * a struct keeps its validity and gets its children rearranged, a list or map keeps its offsets
 * and gets its child rebuilt; only converted leaves and absent fields get new arrays. So the
 * cost is per field, except for conversions and null fills, and nothing allocates per row. */
#include "schema/project.h"

#include "columnar/convert.h"

typedef struct pnode {
    const hudi_field *file; /* the file's field; NULL when the file lacks it (nulls) */
    int32_t src;            /* index among the file parent's children; -1 when absent */
    bool same;              /* the file's values pass through (same shape and types) */
    bool exact;             /* same, and no field renamed into place */
    int32_t n_children;     /* STRUCT: query's fields; LIST: 1; MAP: 1 (entries: 2) */
    struct pnode *children;
} pnode;

struct hudi_projection {
    pnode root;
    bool lenient;
    char *file_path;
};

typedef struct plan_ctx {
    const char *file_path;
    hudi_buf path; /* dotted path of the node being planned */
    hudi_error *err;
} plan_ctx;

static void node_dispose(pnode *n) {
    for (int32_t i = 0; i < n->n_children; i++) node_dispose(&n->children[i]);
    hudi_free(n->children);
}

static int type_error(plan_ctx *c, const hudi_field *file, const hudi_field *query) {
    hudi_buf f = HUDI_BUF_INIT, q = HUDI_BUF_INIT;
    hudi_field_describe(&f, file);
    hudi_field_describe(&q, query);
    int rc = hudi_error_set(c->err, HUDI_EINVAL,
                            "%s: column %s has type %s in the file, which does not convert to "
                            "the table's %s",
                            c->file_path, c->path.data ? c->path.data : "", f.data ? f.data : "?",
                            q.data ? q.data : "?");
    hudi_buf_dispose(&f);
    hudi_buf_dispose(&q);
    return rc;
}

static bool ascii_case_equal(const char *a, const char *b) {
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a + 32) : *a;
        char y = *b >= 'A' && *b <= 'Z' ? (char)(*b + 32) : *b;
        if (x != y) return false;
    }
    return *a == *b;
}

/* The child of struct `file` called `name`: an exact match, else the only one equal ignoring
 * case (Spark resolves Parquet columns case-insensitively). -1 when none. */
static int32_t find_field(const hudi_field *file, const char *name) {
    if (!name || !name[0]) return -1;
    int32_t found = -1, n_ci = 0;
    for (int32_t i = 0; i < file->n_children; i++) {
        const char *fn = file->children[i].name ? file->children[i].name : "";
        if (strcmp(fn, name) == 0) return i;
        if (ascii_case_equal(fn, name)) {
            found = i;
            n_ci++;
        }
    }
    return n_ci == 1 ? found : -1;
}

static int plan(plan_ctx *c, pnode *n, const hudi_field *file, const hudi_field *query,
                const hudi_field *names);

/* Plans child i of a nested node: `file`, `query`, `names` are the children's fields. */
static int plan_child(plan_ctx *c, pnode *n, int32_t i, const hudi_field *file,
                      const hudi_field *query, const hudi_field *names, const char *label) {
    size_t len = c->path.len;
    if (len) hudi_buf_putc(&c->path, '.');
    hudi_buf_puts(&c->path, label ? label : "");
    if (hudi_buf_failed(&c->path)) return hudi_error_oom(c->err);
    int rc = plan(c, &n->children[i], file, query, names);
    hudi_buf_truncate(&c->path, len);
    return rc;
}

static int plan(plan_ctx *c, pnode *n, const hudi_field *file, const hudi_field *query,
                const hudi_field *names) {
    int rc;
    n->file = file;
    if (!file || (file->type == HUDI_TYPE_NULL && query->type != HUDI_TYPE_NULL)) {
        /* absent, or a NULL-typed field such as the value of a map written without values */
        n->file = NULL;
        return 0;
    }
    hudi_type_id qt = query->type;
    bool nested = hudi_type_is_nested(qt);
    if (nested != hudi_type_is_nested(file->type) || (nested && qt != file->type))
        return type_error(c, file, query);
    if (!nested) {
        if (!hudi_type_can_convert(file, query)) return type_error(c, file, query);
        n->same = n->exact = hudi_type_same(file, query);
        return 0;
    }
    int32_t nc = qt == HUDI_TYPE_STRUCT ? query->n_children : 1;
    if (qt != HUDI_TYPE_STRUCT &&
        (file->n_children != 1 || query->n_children != 1 || (names && names->n_children != 1)))
        return hudi_error_set(c->err, HUDI_ECORRUPT, "%s: column %s: malformed %s", c->file_path,
                              c->path.data ? c->path.data : "", hudi_type_name(qt));
    if (names && names->n_children != query->n_children)
        return hudi_error_set(c->err, HUDI_EINVAL,
                              "column %s: the file-name tree does not have the query's shape",
                              c->path.data ? c->path.data : "");
    if (nc > 0 && !(n->children = hudi_calloc((size_t)nc, sizeof(*n->children))))
        return hudi_error_oom(c->err);
    n->n_children = nc;
    n->same = n->exact = true;
    if (qt == HUDI_TYPE_STRUCT) {
        n->same = n->exact = file->n_children == nc;
        for (int32_t i = 0; i < nc; i++) {
            const hudi_field *q = &query->children[i];
            const char *want = names ? names->children[i].name : q->name;
            int32_t s = find_field(file, want);
            pnode *ch = &n->children[i];
            ch->src = s;
            if ((rc = plan_child(c, n, i, s >= 0 ? &file->children[s] : NULL, q,
                                 names ? &names->children[i] : NULL, q->name)) < 0)
                return rc;
            bool in_place = s == i && ch->file;
            n->same &= in_place && ch->same;
            n->exact &= in_place && ch->exact &&
                        strcmp(file->children[s].name ? file->children[s].name : "",
                               q->name ? q->name : "") == 0;
        }
        return 0;
    }
    /* LIST: the element; MAP: the entries struct, whose key and value match by position */
    const hudi_field *fe = &file->children[0], *qe = &query->children[0];
    const hudi_field *ne = names ? &names->children[0] : NULL;
    pnode *ch = &n->children[0];
    ch->src = 0;
    if (qt == HUDI_TYPE_LIST) {
        if ((rc = plan_child(c, n, 0, fe, qe, ne, "element")) < 0) return rc;
    } else {
        if (fe->type != HUDI_TYPE_STRUCT || fe->n_children != 2 || qe->type != HUDI_TYPE_STRUCT ||
            qe->n_children != 2 || (ne && ne->n_children != 2))
            return hudi_error_set(c->err, HUDI_ECORRUPT, "%s: column %s: malformed map",
                                  c->file_path, c->path.data ? c->path.data : "");
        ch->file = fe;
        ch->n_children = 2;
        if (!(ch->children = hudi_calloc(2, sizeof(*ch->children)))) return hudi_error_oom(c->err);
        static const char *const kv[2] = {"key", "value"};
        ch->same = ch->exact = true;
        for (int32_t i = 0; i < 2; i++) {
            ch->children[i].src = i;
            if ((rc = plan_child(c, ch, i, &fe->children[i], &qe->children[i],
                                 ne ? &ne->children[i] : NULL, kv[i])) < 0)
                return rc;
            bool present = ch->children[i].file != NULL;
            ch->same &= present && ch->children[i].same;
            ch->exact &= present && ch->children[i].exact;
        }
    }
    n->same = ch->file && ch->same;
    n->exact = ch->file && ch->exact;
    return 0;
}

int hudi_projection_new(hudi_projection **out, const hudi_field *file, const hudi_field *query,
                        const hudi_field *names, bool lenient, const char *file_path,
                        hudi_error *err) {
    *out = NULL;
    if (!file_path) file_path = "";
    if (file->type != HUDI_TYPE_STRUCT || query->type != HUDI_TYPE_STRUCT)
        return hudi_error_set(err, HUDI_EINVAL, "%s: a projection needs struct schemas", file_path);
    hudi_projection *p = hudi_calloc(1, sizeof(*p));
    if (!p || !(p->file_path = hudi_strdup(file_path))) {
        hudi_free(p);
        return hudi_error_oom(err);
    }
    p->lenient = lenient;
    plan_ctx c = {p->file_path, HUDI_BUF_INIT, err};
    int rc = plan(&c, &p->root, file, query, names);
    hudi_buf_dispose(&c.path);
    if (rc < 0) {
        hudi_projection_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

void hudi_projection_free(hudi_projection *p) {
    if (!p) return;
    node_dispose(&p->root);
    hudi_free(p->file_path);
    hudi_free(p);
}

int32_t hudi_projection_source(const hudi_projection *p, int32_t i) {
    if (i < 0 || i >= p->root.n_children) return -1;
    return p->root.children[i].src;
}

bool hudi_projection_exact(const hudi_projection *p, int32_t i) {
    if (i < 0 || i >= p->root.n_children) return false;
    return p->root.children[i].exact;
}

/* ---- building columns ------------------------------------------------------------------------ */

typedef struct build_ctx {
    const hudi_projection *p;
    hudi_buf path;
    hudi_error *err;
} build_ctx;

/* Points a (and its children) at f: the shapes are the same. */
static void repoint(hudi_array *a, const hudi_field *f) {
    a->field = f;
    for (int32_t i = 0; i < a->n_children; i++) repoint(a->children[i], &f->children[i]);
}

static int nulls(hudi_array **out, const hudi_field *f, int64_t rows, hudi_error *err) {
    int rc = hudi_array_new(out, f, err);
    if (rc == 0) rc = hudi_array_append_nulls(*out, rows, err);
    if (rc < 0) {
        hudi_array_free(*out);
        *out = NULL;
    }
    return rc;
}

static int build(build_ctx *c, const pnode *n, hudi_array *src, int64_t rows, const hudi_field *q,
                 bool lenient, hudi_array **out);

/* Rebuilds the children of `a` (a struct, list or map shell of the file's, taken over) as the
 * children of q: child i comes from the file's child n->children[i].src. */
static int build_children(build_ctx *c, const pnode *n, hudi_array *a, const hudi_field *q,
                          bool lenient) {
    int32_t nc = n->n_children;
    hudi_array **kids = nc ? hudi_calloc((size_t)nc, sizeof(*kids)) : NULL;
    if (nc && !kids) return hudi_error_oom(c->err);
    int rc = 0;
    int64_t rows = q->type == HUDI_TYPE_STRUCT ? a->length : a->offsets ? a->offsets[a->length] : 0;
    for (int32_t i = 0; i < nc && rc == 0; i++) {
        const pnode *ch = &n->children[i];
        hudi_array *s = NULL;
        if (ch->file && ch->src >= 0 && ch->src < a->n_children) {
            s = a->children[ch->src];
            a->children[ch->src] = NULL;
        }
        size_t len = c->path.len;
        if (len) hudi_buf_putc(&c->path, '.');
        hudi_buf_puts(&c->path, q->type == HUDI_TYPE_STRUCT ? q->children[i].name
                                : q->type == HUDI_TYPE_LIST ? "element"
                                                            : "entries");
        rc = build(c, ch, s, rows, &q->children[i], lenient, &kids[i]);
        hudi_buf_truncate(&c->path, len);
        /* struct children share the struct's capacity (columnar.h) */
        if (rc == 0 && q->type == HUDI_TYPE_STRUCT)
            rc = hudi_array_reserve(kids[i], HUDI_MAX(a->capacity, kids[i]->length), c->err);
    }
    if (rc < 0) {
        for (int32_t i = 0; i < nc; i++) hudi_array_free(kids[i]);
        hudi_free(kids);
        return rc;
    }
    for (int32_t i = 0; i < a->n_children; i++) hudi_array_free(a->children[i]);
    hudi_free(a->children);
    a->children = kids;
    a->n_children = nc;
    a->field = q;
    return 0;
}

static int build(build_ctx *c, const pnode *n, hudi_array *src, int64_t rows, const hudi_field *q,
                 bool lenient, hudi_array **out) {
    *out = NULL;
    if (!n->file || !src) {
        hudi_array_free(src);
        return nulls(out, q, rows, c->err);
    }
    if (n->same) {
        repoint(src, q);
        *out = src;
        return 0;
    }
    if (!hudi_type_is_nested(q->type)) {
        int rc = hudi_array_convert(out, src, q, lenient, c->path.data ? c->path.data : "", c->err);
        hudi_array_free(src);
        return rc;
    }
    if (q->type == HUDI_TYPE_MAP) {
        /* the entries struct: keys stay non-null, so they never convert leniently */
        hudi_array *entries = src->children[0];
        const pnode *en = &n->children[0];
        int rc = 0;
        if (!en->same) {
            const hudi_field *qe = &q->children[0];
            hudi_array *kids[2] = {entries->children[0], entries->children[1]};
            hudi_array *built[2] = {NULL, NULL};
            entries->children[0] = entries->children[1] = NULL;
            for (int32_t i = 0; i < 2 && rc == 0; i++) {
                size_t len = c->path.len;
                hudi_buf_puts(&c->path, i ? ".value" : ".key");
                rc = build(c, &en->children[i], kids[i], entries->length, &qe->children[i],
                           i ? lenient : false, &built[i]);
                kids[i] = NULL;
                hudi_buf_truncate(&c->path, len);
                if (rc == 0)
                    rc = hudi_array_reserve(built[i], HUDI_MAX(entries->capacity, built[i]->length),
                                            c->err);
            }
            if (rc < 0) {
                hudi_array_free(built[0]);
                hudi_array_free(built[1]);
                hudi_array_free(src);
                return rc;
            }
            entries->children[0] = built[0];
            entries->children[1] = built[1];
            entries->field = qe;
        } else {
            repoint(entries, &q->children[0]);
        }
        src->field = q;
        *out = src;
        return 0;
    }
    int rc = build_children(c, n, src, q, lenient);
    if (rc < 0) {
        hudi_array_free(src);
        return rc;
    }
    *out = src;
    return 0;
}

int hudi_projection_column(const hudi_projection *p, int32_t i, hudi_array *src, int64_t rows,
                           const hudi_field *query_field, hudi_array **out, bool *moved,
                           hudi_error *err) {
    *out = NULL;
    *moved = false;
    if (i < 0 || i >= p->root.n_children)
        return hudi_error_set(err, HUDI_EINVAL, "%s: no query column %d", p->file_path, (int)i);
    const pnode *n = &p->root.children[i];
    if (src && n->file && src->field->type != n->file->type)
        return hudi_error_set(err, HUDI_EINVAL, "%s: column %s: the array is %s, the file says %s",
                              p->file_path, query_field->name ? query_field->name : "",
                              hudi_type_name(src->field->type), hudi_type_name(n->file->type));
    build_ctx c = {p, HUDI_BUF_INIT, err};
    hudi_buf_puts(&c.path, query_field->name ? query_field->name : "");
    if (hudi_buf_failed(&c.path)) {
        hudi_buf_dispose(&c.path);
        return hudi_error_oom(err);
    }
    /* build takes over src (and frees it on failure): the caller gives it up either way */
    if (src) *moved = true;
    int rc = build(&c, n, src, src ? src->length : rows, query_field, p->lenient, out);
    hudi_buf_dispose(&c.path);
    return rc;
}
