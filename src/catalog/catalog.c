/* catalog.c - the persistent catalog of a warehouse folder (docs/formats/catalog.md).
 *
 * Layout (all under the warehouse path W):
 *   W/<db>/                          a database (any folder with a valid name, as Flink's
 *                                    dfs catalog lists them)
 *   W/<db>/.hudic-database.json      its comment, location and properties (optional)
 *   W/<db>/<t>/.hudic-table.json     the entry of the managed table <t>, inside its folder, so
 *                                    renaming or dropping the folder carries the entry along
 *   W/<db>/.hudic-table.<t>.json     the entry of the external table <t>
 *   W/.hudic-trash-* W/<db>/.hudic-trash-*   folders being deleted (swept when seen)
 *   W/.hudic-new-*                   a database folder being built (renamed into place)
 *
 * Every change has one commit point: one rename, one exclusive create or one remove. Nothing
 * is cached, so two handles on one warehouse see each other's changes at their next call. */
#include "catalog/catalog.h"

#include <jansson.h>
#include <stdlib.h>

#define DB_MARKER ".hudic-database.json"
#define TABLE_ENTRY ".hudic-table.json"
#define EXT_PREFIX ".hudic-table."
#define EXT_SUFFIX ".json"
#define TRASH_PREFIX ".hudic-trash-"
#define NEW_PREFIX ".hudic-new-"
#define FORMAT_VERSION 1

struct hudi_catalog {
    hudi_fs *fs;
    char *path;
};

/* ---- small helpers ---------------------------------------------------------------------- */

static int oom(hudi_error *err) { return hudi_error_oom(err); }

/* Spark's session catalog accepts [A-Za-z0-9_]+ as database and table names. */
static bool valid_name(const char *s) {
    if (!s || !*s || strlen(s) > 128) return false;
    for (const char *p = s; *p; p++) {
        char ch = *p;
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '_'))
            return false;
    }
    return true;
}

static void fold(char *dst, const char *src, size_t cap) {
    size_t i = 0;
    for (; src[i] && i + 1 < cap; i++)
        dst[i] = (src[i] >= 'A' && src[i] <= 'Z') ? (char)(src[i] - 'A' + 'a') : src[i];
    dst[i] = '\0';
}

static int check_name(const char *what, const char *name, char out[160], hudi_error *err) {
    if (!valid_name(name))
        return hudi_error_set(err, HUDI_EINVAL,
                              "invalid %s name '%s': use letters, digits and '_' (at most 128)",
                              what, name ? name : "");
    fold(out, name, 160);
    return 0;
}

/* A path W/a[/b[/c]] in a malloc'd string (NULL on OOM). */
static char *path3(const char *w, const char *a, const char *b, const char *c) {
    hudi_buf p = HUDI_BUF_INIT;
    hudi_path_join(&p, w, a);
    if (b) {
        hudi_buf_putc(&p, '/');
        hudi_buf_puts(&p, b);
    }
    if (c) {
        hudi_buf_putc(&p, '/');
        hudi_buf_puts(&p, c);
    }
    if (hudi_buf_failed(&p)) {
        hudi_buf_dispose(&p);
        return NULL;
    }
    return hudi_buf_detach(&p);
}

static char *ext_entry_name(const char *table) {
    hudi_buf b = HUDI_BUF_INIT;
    hudi_buf_printf(&b, EXT_PREFIX "%s" EXT_SUFFIX, table);
    if (hudi_buf_failed(&b)) {
        hudi_buf_dispose(&b);
        return NULL;
    }
    return hudi_buf_detach(&b);
}

static bool is_dir(hudi_fs *fs, const char *path) {
    hudi_stat st;
    return hudi_fs_stat(fs, path, &st, NULL) == 0 && st.is_dir;
}

static bool is_file(hudi_fs *fs, const char *path) {
    hudi_stat st;
    return hudi_fs_stat(fs, path, &st, NULL) == 0 && !st.is_dir;
}

/* A name unique across processes and calls, for temporary and trash folders. */
static void nonce(char out[64]) {
    static unsigned counter;
    unsigned n = __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
    snprintf(out, 64, "%ld-%lld-%u", hudi_os_pid(), (long long)hudi_os_now_ms(), n);
}

/* Deletes a file or a folder tree (best effort for what vanished meanwhile). */
static int remove_tree(hudi_fs *fs, const char *path, hudi_error *err) {
    hudi_stat st;
    int rc = hudi_fs_stat(fs, path, &st, err);
    if (rc == HUDI_ENOTFOUND) return 0;
    if (rc < 0) return rc;
    if (st.is_dir) {
        hudi_dir_listing l = {0};
        if ((rc = hudi_fs_list(fs, path, &l, err)) < 0) return rc == HUDI_ENOTFOUND ? 0 : rc;
        for (size_t i = 0; i < l.count && rc == 0; i++) {
            char *child = path3(path, l.entries[i].name, NULL, NULL);
            if (!child) {
                rc = oom(err);
                break;
            }
            rc = remove_tree(fs, child, err);
            hudi_free(child);
        }
        hudi_dir_listing_dispose(&l);
        if (rc < 0) return rc;
    }
    rc = hudi_fs_remove(fs, path, err);
    return rc == HUDI_ENOTFOUND ? 0 : rc;
}

/* Deletes leftover trash folders in `dir` (a crash after a drop's commit point) and database
 * folders being built that are older than an hour (a crash before theirs). Best effort. */
static void sweep(hudi_fs *fs, const char *dir) {
    hudi_dir_listing l = {0};
    if (hudi_fs_list(fs, dir, &l, NULL) < 0) return;
    int64_t now = hudi_os_now_ms();
    for (size_t i = 0; i < l.count; i++) {
        const hudi_dirent *e = &l.entries[i];
        bool trash = strncmp(e->name, TRASH_PREFIX, strlen(TRASH_PREFIX)) == 0;
        bool stale = strncmp(e->name, NEW_PREFIX, strlen(NEW_PREFIX)) == 0 &&
                     now - e->mtime_ms > 3600 * 1000;
        if (!trash && !stale) continue;
        char *p = path3(dir, e->name, NULL, NULL);
        if (p) remove_tree(fs, p, NULL);
        hudi_free(p);
    }
    hudi_dir_listing_dispose(&l);
}

/* Writes `data` to `path` atomically: a temporary sibling, then one rename over `path`. */
static int write_replace(hudi_fs *fs, const char *path, const hudi_buf *data, hudi_error *err) {
    char nn[64];
    nonce(nn);
    hudi_buf tmp = HUDI_BUF_INIT;
    hudi_buf_printf(&tmp, "%s.new-%s", path, nn);
    if (hudi_buf_failed(&tmp)) return oom(err);
    int rc = hudi_fs_write_all(fs, tmp.data, HUDI_CREATE_EXCLUSIVE, data->data, data->len, err);
    if (rc == 0) {
        rc = hudi_fs_rename(fs, tmp.data, path, err);
        if (rc < 0) hudi_fs_remove(fs, tmp.data, NULL);
    }
    hudi_buf_dispose(&tmp);
    return rc;
}

/* ---- JSON writing ----------------------------------------------------------------------- */

static void json_str(hudi_buf *b, const char *s) {
    if (!s) {
        hudi_buf_puts(b, "null");
        return;
    }
    hudi_buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': hudi_buf_puts(b, "\\\""); break;
        case '\\': hudi_buf_puts(b, "\\\\"); break;
        case '\n': hudi_buf_puts(b, "\\n"); break;
        case '\r': hudi_buf_puts(b, "\\r"); break;
        case '\t': hudi_buf_puts(b, "\\t"); break;
        default:
            if (*p < 0x20)
                hudi_buf_printf(b, "\\u%04x", *p);
            else
                hudi_buf_putc(b, (char)*p);
        }
    }
    hudi_buf_putc(b, '"');
}

static const char *unit_name(uint8_t u) {
    return u == HUDI_UNIT_MILLIS ? "ms" : u == HUDI_UNIT_NANOS ? "ns" : "us";
}

static void json_field(hudi_buf *b, const hudi_field *f) {
    hudi_buf_puts(b, "{\"name\": ");
    json_str(b, f->name ? f->name : "");
    hudi_buf_puts(b, ", \"type\": ");
    json_str(b, hudi_type_name(f->type));
    hudi_buf_printf(b, ", \"nullable\": %s", f->nullable ? "true" : "false");
    if (f->comment) {
        hudi_buf_puts(b, ", \"comment\": ");
        json_str(b, f->comment);
    }
    if (f->type == HUDI_TYPE_TIMESTAMP || f->type == HUDI_TYPE_TIME)
        hudi_buf_printf(b, ", \"unit\": \"%s\", \"utc\": %s", unit_name(f->unit),
                        f->utc ? "true" : "false");
    if (f->type == HUDI_TYPE_DECIMAL)
        hudi_buf_printf(b, ", \"precision\": %d, \"scale\": %d", (int)f->precision, (int)f->scale);
    if (f->type == HUDI_TYPE_FIXED_BINARY)
        hudi_buf_printf(b, ", \"byte_width\": %d", (int)f->byte_width);
    if (f->n_children > 0) {
        hudi_buf_puts(b, ", \"children\": [");
        for (int32_t i = 0; i < f->n_children; i++) {
            if (i) hudi_buf_puts(b, ", ");
            json_field(b, &f->children[i]);
        }
        hudi_buf_putc(b, ']');
    }
    hudi_buf_putc(b, '}');
}

static void json_props(hudi_buf *b, char *const *props, int32_t n) {
    hudi_buf_putc(b, '[');
    for (int32_t i = 0; i < n; i++) {
        hudi_buf_puts(b, i ? ",\n    [" : "\n    [");
        json_str(b, props[2 * i]);
        hudi_buf_puts(b, ", ");
        json_str(b, props[2 * i + 1]);
        hudi_buf_putc(b, ']');
    }
    hudi_buf_puts(b, n ? "\n  ]" : "]");
}

static int table_json(hudi_buf *b, const hudi_catalog_table *t, const char *db, const char *name,
                      hudi_error *err) {
    hudi_buf_printf(b, "{\n  \"format\": %d,\n  \"database\": ", FORMAT_VERSION);
    json_str(b, db);
    hudi_buf_puts(b, ",\n  \"name\": ");
    json_str(b, name);
    hudi_buf_printf(b, ",\n  \"provider\": \"%s\",\n  \"managed\": %s,\n  \"location\": ",
                    t->provider == HUDI_CATALOG_PARQUET ? "parquet" : "hudi",
                    t->managed ? "true" : "false");
    json_str(b, t->location);
    hudi_buf_puts(b, ",\n  \"comment\": ");
    json_str(b, t->comment);
    hudi_buf_puts(b, ",\n  \"properties\": ");
    json_props(b, t->props, t->n_props);
    hudi_buf_puts(b, ",\n  \"partition_columns\": ");
    json_str(b, t->partition_columns);
    hudi_buf_puts(b, ",\n  \"schema\": ");
    if (t->schema.n_children > 0)
        json_field(b, &t->schema);
    else
        hudi_buf_puts(b, "null");
    hudi_buf_printf(b, ",\n  \"created_ms\": %lld\n}\n", (long long)t->created_ms);
    return hudi_buf_failed(b) ? oom(err) : 0;
}

/* ---- JSON reading ----------------------------------------------------------------------- */

static int corrupt(hudi_error *err, const char *path, const char *what) {
    return hudi_error_set(err, HUDI_ECORRUPT, "%s: catalog entry: %s", path, what);
}

static int dup_opt(char **dst, json_t *v) {
    *dst = NULL;
    if (!v || json_is_null(v)) return 0;
    if (!json_is_string(v)) return -1;
    *dst = hudi_strdup(json_string_value(v));
    return *dst ? 0 : HUDI_ENOMEM;
}

static int parse_field(hudi_field *f, json_t *o, const char *path, hudi_error *err) {
    if (!json_is_object(o)) return corrupt(err, path, "a schema field is not an object");
    json_t *tn = json_object_get(o, "type"), *nm = json_object_get(o, "name");
    if (!json_is_string(tn) || !json_is_string(nm)) return corrupt(err, path, "bad schema field");
    hudi_type_id type = HUDI_TYPE_COUNT_;
    for (int i = 0; i < HUDI_TYPE_COUNT_; i++)
        if (strcmp(hudi_type_name((hudi_type_id)i), json_string_value(tn)) == 0)
            type = (hudi_type_id)i;
    if (type == HUDI_TYPE_COUNT_) return corrupt(err, path, "unknown type in schema");
    if (hudi_field_init(f, json_string_value(nm), type,
                        !json_is_false(json_object_get(o, "nullable"))) < 0)
        return oom(err);
    json_t *v;
    if ((v = json_object_get(o, "comment")) && json_is_string(v) &&
        !(f->comment = hudi_strdup(json_string_value(v))))
        return oom(err);
    if ((v = json_object_get(o, "unit")) && json_is_string(v)) {
        const char *u = json_string_value(v);
        f->unit = strcmp(u, "ms") == 0   ? HUDI_UNIT_MILLIS
                  : strcmp(u, "ns") == 0 ? HUDI_UNIT_NANOS
                                         : HUDI_UNIT_MICROS;
    }
    f->utc = json_is_true(json_object_get(o, "utc"));
    if ((v = json_object_get(o, "precision")) && json_is_integer(v))
        f->precision = (int32_t)json_integer_value(v);
    if ((v = json_object_get(o, "scale")) && json_is_integer(v))
        f->scale = (int32_t)json_integer_value(v);
    if ((v = json_object_get(o, "byte_width")) && json_is_integer(v))
        f->byte_width = (int32_t)json_integer_value(v);
    json_t *ch = json_object_get(o, "children");
    if (json_is_array(ch) && json_array_size(ch) > 0) {
        if (hudi_field_set_children(f, (int32_t)json_array_size(ch)) < 0) return oom(err);
        for (size_t i = 0; i < json_array_size(ch); i++) {
            int rc = parse_field(&f->children[i], json_array_get(ch, i), path, err);
            if (rc < 0) return rc;
        }
    }
    return 0;
}

static int parse_props(char ***props, int32_t *n, json_t *arr, const char *path, hudi_error *err) {
    *props = NULL;
    *n = 0;
    if (!arr || json_is_null(arr)) arr = NULL;
    if (arr && !json_is_array(arr)) return corrupt(err, path, "properties is not an array");
    size_t count = arr ? json_array_size(arr) : 0;
    char **p = hudi_calloc(2 * count + 1, sizeof(char *));
    if (!p) return oom(err);
    *props = p;
    for (size_t i = 0; i < count; i++) {
        json_t *pair = json_array_get(arr, i);
        json_t *k = json_array_get(pair, 0), *v = json_array_get(pair, 1);
        if (!json_is_array(pair) || !json_is_string(k) || !json_is_string(v))
            return corrupt(err, path, "a property is not a [key, value] pair");
        if (!(p[2 * i] = hudi_strdup(json_string_value(k)))) return oom(err);
        if (!(p[2 * i + 1] = hudi_strdup(json_string_value(v)))) {
            hudi_free(p[2 * i]);
            p[2 * i] = NULL;
            return oom(err);
        }
        *n = (int32_t)i + 1;
    }
    return 0;
}

static int parse_table(hudi_catalog_table *t, const char *json, size_t len, const char *path,
                       hudi_error *err) {
    json_error_t jerr;
    memset(&jerr, 0, sizeof(jerr));
    json_t *root = json_loadb(json, len, 0, &jerr);
    if (!root) return corrupt(err, path, jerr.text[0] ? jerr.text : "not JSON");
    int rc = 0;
    json_t *v;
    if (!json_is_object(root) || !json_is_integer(json_object_get(root, "format"))) {
        rc = corrupt(err, path, "not a table entry");
        goto done;
    }
    if (json_integer_value(json_object_get(root, "format")) > FORMAT_VERSION) {
        rc = hudi_error_set(err, HUDI_EUNSUPPORTED,
                            "%s: catalog entry format %lld is newer "
                            "than this hudic reads (%d)",
                            path, (long long)json_integer_value(json_object_get(root, "format")),
                            FORMAT_VERSION);
        goto done;
    }
    v = json_object_get(root, "provider");
    t->provider = (json_is_string(v) && strcmp(json_string_value(v), "parquet") == 0)
                      ? HUDI_CATALOG_PARQUET
                      : HUDI_CATALOG_HUDI;
    t->managed = json_is_true(json_object_get(root, "managed"));
    if (dup_opt(&t->location, json_object_get(root, "location")) ||
        dup_opt(&t->comment, json_object_get(root, "comment")) ||
        dup_opt(&t->partition_columns, json_object_get(root, "partition_columns"))) {
        rc = corrupt(err, path, "a string field has the wrong type");
        goto done;
    }
    if ((rc = parse_props(&t->props, &t->n_props, json_object_get(root, "properties"), path, err)) <
        0)
        goto done;
    v = json_object_get(root, "schema");
    if (v && !json_is_null(v)) {
        if ((rc = parse_field(&t->schema, v, path, err)) < 0) goto done;
    } else if (hudi_field_init(&t->schema, "schema", HUDI_TYPE_STRUCT, false) < 0) {
        rc = oom(err);
        goto done;
    }
    v = json_object_get(root, "created_ms");
    t->created_ms = json_is_integer(v) ? (int64_t)json_integer_value(v) : 0;
done:
    json_decref(root);
    return rc;
}

/* ---- handle ----------------------------------------------------------------------------- */

int hudi_catalog_open(hudi_catalog **out, hudi_fs *fs, const char *path, hudi_error *err) {
    *out = NULL;
    if (!path || !*path) return hudi_error_set(err, HUDI_EINVAL, "catalog: empty warehouse path");
    hudi_catalog *c = hudi_calloc(1, sizeof(*c));
    if (!c) return oom(err);
    c->fs = fs;
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/') n--;
    if (!(c->path = hudi_strndup(path, n))) {
        hudi_free(c);
        return oom(err);
    }
    int rc = hudi_fs_mkdirs(fs, c->path, err);
    if (rc == 0 && !is_dir(fs, c->path))
        rc = hudi_error_set(err, HUDI_EINVAL, "%s: the warehouse is not a folder", c->path);
    if (rc == 0) {
        char *d = path3(c->path, "default", NULL, NULL);
        rc = d ? hudi_fs_mkdirs(fs, d, err) : oom(err);
        hudi_free(d);
    }
    if (rc < 0) {
        hudi_catalog_free(c);
        return rc;
    }
    sweep(fs, c->path);
    *out = c;
    return 0;
}

void hudi_catalog_free(hudi_catalog *c) {
    if (!c) return;
    hudi_free(c->path);
    hudi_free(c);
}

const char *hudi_catalog_path(const hudi_catalog *c) { return c->path; }

/* ---- databases -------------------------------------------------------------------------- */

bool hudi_catalog_database_exists(hudi_catalog *c, const char *name) {
    if (!valid_name(name)) return false;
    char db[160];
    fold(db, name, sizeof(db));
    char *p = path3(c->path, db, NULL, NULL);
    bool ok = p && is_dir(c->fs, p);
    hudi_free(p);
    return ok;
}

static int require_db(hudi_catalog *c, const char *db, hudi_error *err) {
    if (!hudi_catalog_database_exists(c, db))
        return hudi_error_set(err, HUDI_ENOTFOUND, "database '%s' not found", db);
    return 0;
}

int hudi_catalog_create_database(hudi_catalog *c, const char *name, bool if_not_exists,
                                 const char *comment, const char *location, hudi_error *err) {
    return hudi_catalog_create_database_props(c, name, if_not_exists, comment, location, NULL, err);
}

int hudi_catalog_create_database_props(hudi_catalog *c, const char *name, bool if_not_exists,
                                       const char *comment, const char *location,
                                       const char *const *props, hudi_error *err) {
    char db[160];
    int rc = check_name("database", name, db, err);
    if (rc < 0) return rc;
    if (hudi_catalog_database_exists(c, db)) {
        if (if_not_exists) return 0;
        return hudi_error_set(err, HUDI_EEXISTS, "database '%s' already exists", db);
    }
    char *dir = path3(c->path, db, NULL, NULL);
    if (!dir) return oom(err);
    bool plain = !comment && !location && (!props || !props[0]);
    if (plain) { /* a bare folder, as Flink's catalog makes: one mkdir */
        rc = hudi_fs_mkdirs(c->fs, dir, err);
        hudi_free(dir);
        return rc;
    }
    /* Build the folder with its marker under a hidden name, then rename it into place. */
    hudi_buf b = HUDI_BUF_INIT;
    hudi_buf_printf(&b, "{\n  \"format\": %d,\n  \"name\": ", FORMAT_VERSION);
    json_str(&b, db);
    hudi_buf_puts(&b, ",\n  \"comment\": ");
    json_str(&b, comment);
    hudi_buf_puts(&b, ",\n  \"location\": ");
    json_str(&b, location);
    int32_t np = 0;
    while (props && props[2 * np]) np++;
    hudi_buf_puts(&b, ",\n  \"properties\": ");
    json_props(&b, (char *const *)props, np);
    hudi_buf_printf(&b, ",\n  \"created_ms\": %lld\n}\n", (long long)hudi_os_now_ms());
    char nn[64], tmpname[256];
    nonce(nn);
    snprintf(tmpname, sizeof(tmpname), NEW_PREFIX "%s-%s", db, nn);
    char *tmp = path3(c->path, tmpname, NULL, NULL);
    char *marker = tmp ? path3(tmp, DB_MARKER, NULL, NULL) : NULL;
    if (hudi_buf_failed(&b) || !marker) {
        rc = oom(err);
        goto done;
    }
    if ((rc = hudi_fs_mkdirs(c->fs, tmp, err)) < 0) goto done;
    if ((rc = hudi_fs_write_all(c->fs, marker, HUDI_CREATE_EXCLUSIVE, b.data, b.len, err)) < 0)
        goto cleanup;
    if (is_dir(c->fs, dir)) { /* created meanwhile by someone else */
        rc = if_not_exists ? 0
                           : hudi_error_set(err, HUDI_EEXISTS, "database '%s' already exists", db);
        goto cleanup;
    }
    if ((rc = hudi_fs_rename(c->fs, tmp, dir, err)) == 0) goto done;
cleanup:
    remove_tree(c->fs, tmp, NULL);
done:
    hudi_buf_dispose(&b);
    hudi_free(marker);
    hudi_free(tmp);
    hudi_free(dir);
    return rc;
}

void hudi_catalog_database_dispose(hudi_catalog_database *d) {
    if (!d) return;
    hudi_free(d->name);
    hudi_free(d->comment);
    hudi_free(d->location);
    hudi_catalog_names_free(d->props);
    memset(d, 0, sizeof(*d));
}

int hudi_catalog_get_database(hudi_catalog *c, const char *name, hudi_catalog_database *out,
                              hudi_error *err) {
    memset(out, 0, sizeof(*out));
    char db[160];
    int rc = check_name("database", name, db, err);
    if (rc < 0) return rc;
    if ((rc = require_db(c, db, err)) < 0) return rc;
    if (!(out->name = hudi_strdup(db))) return oom(err);
    char *marker = path3(c->path, db, DB_MARKER, NULL);
    if (!marker) {
        hudi_catalog_database_dispose(out);
        return oom(err);
    }
    hudi_buf b = HUDI_BUF_INIT;
    rc = hudi_fs_read_all(c->fs, marker, &b, err);
    if (rc == HUDI_ENOTFOUND) { /* a bare folder: no properties */
        rc = 0;
        out->props = hudi_calloc(1, sizeof(char *));
        if (!out->props) rc = oom(err);
        goto done;
    }
    if (rc < 0) goto done;
    json_error_t jerr;
    memset(&jerr, 0, sizeof(jerr));
    json_t *root = json_loadb(b.data ? b.data : "", b.len, 0, &jerr);
    if (!root || !json_is_object(root)) {
        rc = hudi_error_set(err, HUDI_ECORRUPT, "%s: not a database marker", marker);
    } else if (dup_opt(&out->comment, json_object_get(root, "comment")) ||
               dup_opt(&out->location, json_object_get(root, "location"))) {
        rc = hudi_error_set(err, HUDI_ECORRUPT, "%s: bad comment or location", marker);
    } else {
        rc = parse_props(&out->props, &out->n_props, json_object_get(root, "properties"), marker,
                         err);
        json_t *v = json_object_get(root, "created_ms");
        out->created_ms = json_is_integer(v) ? (int64_t)json_integer_value(v) : 0;
    }
    json_decref(root);
done:
    hudi_buf_dispose(&b);
    hudi_free(marker);
    if (rc < 0) hudi_catalog_database_dispose(out);
    return rc;
}

static int names_push(hudi_vec *v, const char *name) {
    char **slot = hudi_vec_push(v);
    if (!slot || !(*slot = hudi_strdup(name))) return HUDI_ENOMEM;
    return 0;
}

static int cmp_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts, removes duplicates and NULL-terminates. */
static int names_finish(hudi_vec *v, char ***out, hudi_error *err) {
    size_t n = v->len;
    if (n) qsort(v->data, n, sizeof(char *), cmp_names);
    char **a = v->data;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k && strcmp(a[k - 1], a[i]) == 0) {
            hudi_free(a[i]);
            continue;
        }
        a[k++] = a[i];
    }
    v->len = k;
    if (!hudi_vec_push(v)) { /* the NULL terminator */
        for (size_t i = 0; i < k; i++) hudi_free(a[i]);
        hudi_vec_dispose(v);
        return oom(err);
    }
    *out = v->data;
    return 0;
}

int hudi_catalog_list_databases(hudi_catalog *c, char ***out, hudi_error *err) {
    *out = NULL;
    hudi_dir_listing l = {0};
    int rc = hudi_fs_list(c->fs, c->path, &l, err);
    if (rc < 0) return rc;
    hudi_vec v = HUDI_VEC_INIT(char *);
    for (size_t i = 0; i < l.count && rc == 0; i++) {
        const hudi_dirent *e = &l.entries[i];
        if (!e->is_dir || !valid_name(e->name)) continue;
        char low[160];
        fold(low, e->name, sizeof(low));
        if (strcmp(low, e->name) != 0) continue; /* names are lower case */
        if (names_push(&v, e->name) < 0) rc = oom(err);
    }
    hudi_dir_listing_dispose(&l);
    if (rc == 0) return names_finish(&v, out, err);
    for (size_t i = 0; i < v.len; i++) hudi_free(hudi_vec_at(&v, char *, i));
    hudi_vec_dispose(&v);
    return rc;
}

void hudi_catalog_names_free(char **names) {
    if (!names) return;
    for (char **p = names; *p; p++) hudi_free(*p);
    hudi_free(names);
}

/* ---- tables: locating entries ----------------------------------------------------------- */

typedef enum { ENTRY_NONE, ENTRY_MANAGED, ENTRY_EXTERNAL } entry_kind;

/* Where the entry of db.name is (db and name folded and valid): its kind and path. */
static int find_entry(hudi_catalog *c, const char *db, const char *name, entry_kind *kind,
                      char **path, hudi_error *err) {
    *kind = ENTRY_NONE;
    *path = NULL;
    char *m = path3(c->path, db, name, TABLE_ENTRY);
    if (!m) return oom(err);
    if (is_file(c->fs, m)) {
        *kind = ENTRY_MANAGED;
        *path = m;
        return 0;
    }
    hudi_free(m);
    char *en = ext_entry_name(name);
    char *e = en ? path3(c->path, db, en, NULL) : NULL;
    hudi_free(en);
    if (!e) return oom(err);
    if (is_file(c->fs, e)) {
        *kind = ENTRY_EXTERNAL;
        *path = e;
        return 0;
    }
    hudi_free(e);
    return 0;
}

void hudi_catalog_table_dispose(hudi_catalog_table *t) {
    if (!t) return;
    hudi_free(t->database);
    hudi_free(t->name);
    hudi_free(t->location);
    hudi_free(t->comment);
    if (t->props) {
        for (int32_t i = 0; i < 2 * t->n_props; i++) hudi_free(t->props[i]);
        hudi_free(t->props);
    }
    hudi_field_dispose(&t->schema);
    hudi_free(t->partition_columns);
    memset(t, 0, sizeof(*t));
}

const char *hudi_catalog_table_prop(const hudi_catalog_table *t, const char *key) {
    for (int32_t i = 0; i < t->n_props; i++)
        if (strcmp(t->props[2 * i], key) == 0) return t->props[2 * i + 1];
    return NULL;
}

int hudi_catalog_table_set_prop(hudi_catalog_table *t, const char *key, const char *value,
                                hudi_error *err) {
    char *v = hudi_strdup(value);
    if (!v) return oom(err);
    for (int32_t i = 0; i < t->n_props; i++)
        if (strcmp(t->props[2 * i], key) == 0) {
            hudi_free(t->props[2 * i + 1]);
            t->props[2 * i + 1] = v;
            return 0;
        }
    char *k = hudi_strdup(key);
    char **p = k ? hudi_realloc(t->props, (size_t)(2 * t->n_props + 3) * sizeof(char *)) : NULL;
    if (!p) {
        hudi_free(k);
        hudi_free(v);
        return oom(err);
    }
    t->props = p;
    p[2 * t->n_props] = k;
    p[2 * t->n_props + 1] = v;
    t->n_props++;
    p[2 * t->n_props] = NULL;
    return 0;
}

bool hudi_catalog_table_unset_prop(hudi_catalog_table *t, const char *key) {
    for (int32_t i = 0; i < t->n_props; i++)
        if (strcmp(t->props[2 * i], key) == 0) {
            hudi_free(t->props[2 * i]);
            hudi_free(t->props[2 * i + 1]);
            memmove(&t->props[2 * i], &t->props[2 * i + 2],
                    (size_t)(2 * (t->n_props - i - 1) + 1) * sizeof(char *));
            t->n_props--;
            return true;
        }
    return false;
}

int hudi_catalog_table_copy(hudi_catalog_table *dst, const hudi_catalog_table *src,
                            hudi_error *err) {
    memset(dst, 0, sizeof(*dst));
    int rc = 0;
#define DUP(f)                                                                                     \
    if (src->f && !(dst->f = hudi_strdup(src->f))) rc = HUDI_ENOMEM
    DUP(database);
    DUP(name);
    DUP(location);
    DUP(comment);
    DUP(partition_columns);
#undef DUP
    dst->provider = src->provider;
    dst->managed = src->managed;
    dst->created_ms = src->created_ms;
    if (rc == 0 && !(dst->props = hudi_calloc(2 * (size_t)src->n_props + 1, sizeof(char *))))
        rc = HUDI_ENOMEM;
    /* n_props counts complete pairs, so a failure midway disposes cleanly */
    for (int32_t i = 0; rc == 0 && i < src->n_props; i++) {
        if (!(dst->props[2 * i] = hudi_strdup(src->props[2 * i]))) {
            rc = HUDI_ENOMEM;
        } else if (!(dst->props[2 * i + 1] = hudi_strdup(src->props[2 * i + 1]))) {
            hudi_free(dst->props[2 * i]);
            dst->props[2 * i] = NULL;
            rc = HUDI_ENOMEM;
        } else {
            dst->n_props = i + 1;
        }
    }
    if (rc == 0) {
        if (src->schema.type == HUDI_TYPE_STRUCT || src->schema.n_children > 0)
            rc = hudi_field_copy(&dst->schema, &src->schema);
        else
            rc = hudi_field_init(&dst->schema, "schema", HUDI_TYPE_STRUCT, false);
    }
    if (rc < 0) {
        hudi_catalog_table_dispose(dst);
        return oom(err);
    }
    return 0;
}

char *hudi_catalog_default_location(const hudi_catalog *c, const char *db, const char *name) {
    char d[160], n[160];
    fold(d, db, sizeof(d));
    fold(n, name, sizeof(n));
    return path3(c->path, d, n, NULL);
}

static int table_not_found(hudi_error *err, const char *db, const char *name) {
    return hudi_error_set(err, HUDI_ENOTFOUND, "table %s.%s not found", db, name);
}

/* Reads the entry at `path` into *out, with database and name from where it lies. */
static int load_entry(hudi_catalog *c, entry_kind kind, const char *path, const char *db,
                      const char *name, hudi_catalog_table *out, hudi_error *err) {
    hudi_buf b = HUDI_BUF_INIT;
    int rc = hudi_fs_read_all(c->fs, path, &b, err);
    if (rc == HUDI_ENOTFOUND) rc = table_not_found(err, db, name); /* dropped meanwhile */
    if (rc == 0) rc = parse_table(out, b.data ? b.data : "", b.len, path, err);
    hudi_buf_dispose(&b);
    if (rc == 0 && (!(out->database = hudi_strdup(db)) || !(out->name = hudi_strdup(name))))
        rc = oom(err);
    if (rc == 0 && kind == ENTRY_MANAGED) {
        /* A managed table's location is its folder, wherever a rename moved it. */
        hudi_free(out->location);
        if (!(out->location = hudi_catalog_default_location(c, db, name))) rc = oom(err);
    }
    if (rc == 0 && !out->location) rc = corrupt(err, path, "no location");
    if (rc < 0) hudi_catalog_table_dispose(out);
    return rc;
}

int hudi_catalog_get_table(hudi_catalog *c, const char *db, const char *name,
                           hudi_catalog_table *out, hudi_error *err) {
    memset(out, 0, sizeof(*out));
    char d[160], n[160];
    int rc;
    if ((rc = check_name("database", db, d, err)) < 0) return rc;
    if ((rc = check_name("table", name, n, err)) < 0) return rc;
    entry_kind kind;
    char *path;
    if ((rc = find_entry(c, d, n, &kind, &path, err)) < 0) return rc;
    if (kind == ENTRY_NONE) {
        if (!hudi_catalog_database_exists(c, d)) return require_db(c, d, err);
        return table_not_found(err, d, n);
    }
    rc = load_entry(c, kind, path, d, n, out, err);
    hudi_free(path);
    return rc;
}

bool hudi_catalog_table_exists(hudi_catalog *c, const char *db, const char *name) {
    if (!valid_name(db) || !valid_name(name)) return false;
    char d[160], n[160];
    fold(d, db, sizeof(d));
    fold(n, name, sizeof(n));
    entry_kind kind;
    char *path = NULL;
    if (find_entry(c, d, n, &kind, &path, NULL) < 0) return false;
    hudi_free(path);
    return kind != ENTRY_NONE;
}

int hudi_catalog_create_table(hudi_catalog *c, const hudi_catalog_table *t, hudi_error *err) {
    char d[160], n[160];
    int rc;
    if ((rc = check_name("database", t->database, d, err)) < 0) return rc;
    if ((rc = check_name("table", t->name, n, err)) < 0) return rc;
    if ((rc = require_db(c, d, err)) < 0) return rc;
    if (!t->location || !*t->location)
        return hudi_error_set(err, HUDI_EINVAL, "table %s.%s: no location", d, n);
    if (hudi_catalog_table_exists(c, d, n))
        return hudi_error_set(err, HUDI_EEXISTS, "table %s.%s already exists", d, n);
    hudi_buf b = HUDI_BUF_INIT;
    char *path = NULL, *dir = NULL;
    if ((rc = table_json(&b, t, d, n, err)) < 0) goto done;
    if (t->managed) {
        dir = path3(c->path, d, n, NULL);
        path = dir ? path3(dir, TABLE_ENTRY, NULL, NULL) : NULL;
        if (!path) {
            rc = oom(err);
            goto done;
        }
        /* The folder may hold the table's data already (the Hudi table was created first). */
        if ((rc = hudi_fs_mkdirs(c->fs, dir, err)) < 0) goto done;
    } else {
        char *en = ext_entry_name(n);
        path = en ? path3(c->path, d, en, NULL) : NULL;
        hudi_free(en);
        if (!path) {
            rc = oom(err);
            goto done;
        }
    }
    /* The commit point: an exclusive create (published whole, or not at all). */
    rc = hudi_fs_write_all(c->fs, path, HUDI_CREATE_EXCLUSIVE, b.data, b.len, err);
    if (rc == HUDI_EEXISTS)
        rc = hudi_error_set(err, HUDI_EEXISTS, "table %s.%s already exists", d, n);
done:
    hudi_buf_dispose(&b);
    hudi_free(path);
    hudi_free(dir);
    return rc;
}

int hudi_catalog_update_table(hudi_catalog *c, const hudi_catalog_table *t, hudi_error *err) {
    char d[160], n[160];
    int rc;
    if ((rc = check_name("database", t->database, d, err)) < 0) return rc;
    if ((rc = check_name("table", t->name, n, err)) < 0) return rc;
    entry_kind kind;
    char *path;
    if ((rc = find_entry(c, d, n, &kind, &path, err)) < 0) return rc;
    if (kind == ENTRY_NONE) return table_not_found(err, d, n);
    if ((kind == ENTRY_MANAGED) != t->managed) {
        hudi_free(path);
        return hudi_error_set(err, HUDI_EINVAL,
                              "table %s.%s: an update cannot change whether it is managed", d, n);
    }
    hudi_buf b = HUDI_BUF_INIT;
    if ((rc = table_json(&b, t, d, n, err)) == 0) rc = write_replace(c->fs, path, &b, err);
    hudi_buf_dispose(&b);
    hudi_free(path);
    return rc;
}

/* Moves the folder `dir` out of sight (one rename into a trash folder next to it), then
 * deletes it. */
static int trash_folder(hudi_catalog *c, const char *parent, const char *dir, const char *label,
                        hudi_error *err) {
    char nn[64], tn[256];
    nonce(nn);
    snprintf(tn, sizeof(tn), TRASH_PREFIX "%s-%s", label, nn);
    char *trash = path3(parent, tn, NULL, NULL);
    if (!trash) return oom(err);
    int rc = hudi_fs_rename(c->fs, dir, trash, err); /* the commit point */
    if (rc == 0) remove_tree(c->fs, trash, NULL);    /* leftovers are swept later */
    hudi_free(trash);
    return rc;
}

int hudi_catalog_drop_table(hudi_catalog *c, const char *db, const char *name, bool purge_data,
                            hudi_error *err) {
    hudi_catalog_table t;
    int rc = hudi_catalog_get_table(c, db, name, &t, err);
    if (rc < 0) return rc;
    entry_kind kind;
    char *path = NULL;
    if ((rc = find_entry(c, t.database, t.name, &kind, &path, err)) < 0) goto done;
    if (kind == ENTRY_MANAGED) {
        char *dbdir = path3(c->path, t.database, NULL, NULL);
        if (!dbdir) {
            rc = oom(err);
            goto done;
        }
        if (t.managed || purge_data) {
            rc = trash_folder(c, dbdir, t.location, t.name, err);
        } else {
            rc = hudi_fs_remove(c->fs, path, err);
        }
        hudi_free(dbdir);
    } else if (kind == ENTRY_EXTERNAL) {
        if ((rc = hudi_fs_remove(c->fs, path, err)) == 0 && purge_data) {
            hudi_stat st;
            if (hudi_fs_stat(c->fs, t.location, &st, NULL) == 0)
                rc = remove_tree(c->fs, t.location, err);
        }
    } else {
        rc = table_not_found(err, t.database, t.name);
    }
done:
    hudi_free(path);
    hudi_catalog_table_dispose(&t);
    return rc;
}

int hudi_catalog_rename_table(hudi_catalog *c, const char *db, const char *name, const char *new_db,
                              const char *new_name, hudi_error *err) {
    char d[160], n[160], nd[160], nnm[160];
    int rc;
    if ((rc = check_name("database", db, d, err)) < 0) return rc;
    if ((rc = check_name("table", name, n, err)) < 0) return rc;
    if ((rc = check_name("database", new_db, nd, err)) < 0) return rc;
    if ((rc = check_name("table", new_name, nnm, err)) < 0) return rc;
    entry_kind kind;
    char *path = NULL, *to = NULL;
    if ((rc = find_entry(c, d, n, &kind, &path, err)) < 0) return rc;
    if (kind == ENTRY_NONE) {
        rc =
            hudi_catalog_database_exists(c, d) ? table_not_found(err, d, n) : require_db(c, d, err);
        goto done;
    }
    if ((rc = require_db(c, nd, err)) < 0) goto done;
    if (hudi_catalog_table_exists(c, nd, nnm)) {
        rc = hudi_error_set(err, HUDI_EEXISTS, "table %s.%s already exists", nd, nnm);
        goto done;
    }
    if (kind == ENTRY_MANAGED) {
        /* The folder carries its entry: one rename moves data and name together. */
        char *from = path3(c->path, d, n, NULL);
        to = path3(c->path, nd, nnm, NULL);
        if (!from || !to) {
            hudi_free(from);
            rc = oom(err);
            goto done;
        }
        if (hudi_fs_exists(c->fs, to)) {
            rc = hudi_error_set(err, HUDI_EEXISTS,
                                "cannot rename %s.%s to %s.%s: the folder %s already exists", d, n,
                                nd, nnm, to);
        } else {
            rc = hudi_fs_rename(c->fs, from, to, err);
        }
        hudi_free(from);
    } else {
        char *en = ext_entry_name(nnm);
        to = en ? path3(c->path, nd, en, NULL) : NULL;
        hudi_free(en);
        rc = to ? hudi_fs_rename(c->fs, path, to, err) : oom(err);
    }
done:
    hudi_free(path);
    hudi_free(to);
    return rc;
}

int hudi_catalog_list_tables(hudi_catalog *c, const char *db, char ***out, hudi_error *err) {
    *out = NULL;
    char d[160];
    int rc;
    if ((rc = check_name("database", db, d, err)) < 0) return rc;
    if ((rc = require_db(c, d, err)) < 0) return rc;
    char *dir = path3(c->path, d, NULL, NULL);
    if (!dir) return oom(err);
    sweep(c->fs, dir);
    hudi_dir_listing l = {0};
    if ((rc = hudi_fs_list(c->fs, dir, &l, err)) < 0) {
        hudi_free(dir);
        return rc;
    }
    hudi_vec v = HUDI_VEC_INIT(char *);
    size_t pl = strlen(EXT_PREFIX), sl = strlen(EXT_SUFFIX);
    for (size_t i = 0; i < l.count && rc == 0; i++) {
        const hudi_dirent *e = &l.entries[i];
        if (e->is_dir) {
            if (!valid_name(e->name)) continue;
            char *m = path3(dir, e->name, TABLE_ENTRY, NULL);
            if (!m) {
                rc = oom(err);
                break;
            }
            if (is_file(c->fs, m) && names_push(&v, e->name) < 0) rc = oom(err);
            hudi_free(m);
        } else {
            size_t len = strlen(e->name);
            if (len <= pl + sl || strncmp(e->name, EXT_PREFIX, pl) != 0 ||
                strcmp(e->name + len - sl, EXT_SUFFIX) != 0)
                continue;
            char nm[160];
            if (len - pl - sl >= sizeof(nm)) continue;
            memcpy(nm, e->name + pl, len - pl - sl);
            nm[len - pl - sl] = '\0';
            if (valid_name(nm) && names_push(&v, nm) < 0) rc = oom(err);
        }
    }
    hudi_dir_listing_dispose(&l);
    hudi_free(dir);
    if (rc == 0) return names_finish(&v, out, err);
    for (size_t i = 0; i < v.len; i++) hudi_free(hudi_vec_at(&v, char *, i));
    hudi_vec_dispose(&v);
    return rc;
}

int hudi_catalog_drop_database(hudi_catalog *c, const char *name, bool if_exists, bool cascade,
                               hudi_error *err) {
    char db[160];
    int rc = check_name("database", name, db, err);
    if (rc < 0) return rc;
    if (strcmp(db, "default") == 0)
        return hudi_error_set(err, HUDI_EINVAL, "cannot drop the default database");
    if (!hudi_catalog_database_exists(c, db)) {
        if (if_exists) return 0;
        return hudi_error_set(err, HUDI_ENOTFOUND, "database '%s' not found", db);
    }
    char **tables = NULL;
    if ((rc = hudi_catalog_list_tables(c, db, &tables, err)) < 0) return rc;
    if (tables[0] && !cascade) {
        hudi_catalog_names_free(tables);
        return hudi_error_set(err, HUDI_EINVAL, "database '%s' is not empty", db);
    }
    /* CASCADE: each table goes in its own atomic step (managed tables' data too). */
    for (char **t = tables; *t && rc == 0; t++) {
        hudi_catalog_table e;
        if ((rc = hudi_catalog_get_table(c, db, *t, &e, err)) < 0) break;
        bool managed = e.managed;
        hudi_catalog_table_dispose(&e);
        rc = hudi_catalog_drop_table(c, db, *t, managed, err);
    }
    hudi_catalog_names_free(tables);
    if (rc < 0) return rc;
    char *dir = path3(c->path, db, NULL, NULL);
    if (!dir) return oom(err);
    rc = trash_folder(c, c->path, dir, db, err);
    hudi_free(dir);
    return rc;
}

/* ---- catalogs ---------------------------------------------------------------------------- */

#define CAT_PREFIX ".hudic-catalog."

static char *catalog_file(hudi_catalog *c, const char *name) {
    hudi_buf b = HUDI_BUF_INIT;
    hudi_buf_printf(&b, "%s/" CAT_PREFIX "%s" EXT_SUFFIX, c->path, name);
    if (hudi_buf_failed(&b)) {
        hudi_buf_dispose(&b);
        return NULL;
    }
    return hudi_buf_detach(&b);
}

int hudi_catalog_put_catalog(hudi_catalog *c, const char *name, const char *const *props,
                             hudi_error *err) {
    char n[160];
    int rc = check_name("catalog", name, n, err);
    if (rc < 0) return rc;
    int32_t np = 0;
    while (props && props[2 * np]) np++;
    hudi_buf b = HUDI_BUF_INIT;
    hudi_buf_printf(&b, "{\n  \"format\": %d,\n  \"name\": ", FORMAT_VERSION);
    json_str(&b, n);
    hudi_buf_puts(&b, ",\n  \"properties\": ");
    json_props(&b, (char *const *)props, np);
    hudi_buf_puts(&b, "\n}\n");
    char *path = catalog_file(c, n);
    if (hudi_buf_failed(&b) || !path)
        rc = oom(err);
    else
        rc = write_replace(c->fs, path, &b, err);
    hudi_free(path);
    hudi_buf_dispose(&b);
    return rc;
}

int hudi_catalog_get_catalog(hudi_catalog *c, const char *name, char ***props, hudi_error *err) {
    *props = NULL;
    char n[160];
    int rc = check_name("catalog", name, n, err);
    if (rc < 0) return rc;
    char *path = catalog_file(c, n);
    if (!path) return oom(err);
    hudi_buf b = HUDI_BUF_INIT;
    rc = hudi_fs_read_all(c->fs, path, &b, err);
    if (rc == HUDI_ENOTFOUND) rc = hudi_error_set(err, HUDI_ENOTFOUND, "Catalog %s not found", n);
    if (rc == 0) {
        json_error_t jerr;
        memset(&jerr, 0, sizeof(jerr));
        json_t *root = json_loadb(b.data ? b.data : "", b.len, 0, &jerr);
        int32_t np = 0;
        if (!root || !json_is_object(root))
            rc = corrupt(err, path, "not a catalog record");
        else
            rc = parse_props(props, &np, json_object_get(root, "properties"), path, err);
        json_decref(root);
        if (rc < 0) {
            hudi_catalog_names_free(*props);
            *props = NULL;
        }
    }
    hudi_buf_dispose(&b);
    hudi_free(path);
    return rc;
}

int hudi_catalog_list_catalogs(hudi_catalog *c, char ***out, hudi_error *err) {
    *out = NULL;
    hudi_dir_listing l = {0};
    int rc = hudi_fs_list(c->fs, c->path, &l, err);
    if (rc < 0) return rc;
    hudi_vec v = HUDI_VEC_INIT(char *);
    size_t pl = strlen(CAT_PREFIX), sl = strlen(EXT_SUFFIX);
    for (size_t i = 0; i < l.count && rc == 0; i++) {
        const char *nm = l.entries[i].name;
        size_t len = strlen(nm);
        if (l.entries[i].is_dir || len <= pl + sl || strncmp(nm, CAT_PREFIX, pl) != 0 ||
            strcmp(nm + len - sl, EXT_SUFFIX) != 0 || len - pl - sl >= 160)
            continue;
        char name[160];
        memcpy(name, nm + pl, len - pl - sl);
        name[len - pl - sl] = '\0';
        if (valid_name(name) && names_push(&v, name) < 0) rc = oom(err);
    }
    hudi_dir_listing_dispose(&l);
    if (rc == 0) return names_finish(&v, out, err);
    for (size_t i = 0; i < v.len; i++) hudi_free(hudi_vec_at(&v, char *, i));
    hudi_vec_dispose(&v);
    return rc;
}
