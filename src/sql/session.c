/* session.c - the state of a SQL session (catalog, current database, SET values) and the
 * per-statement result that executors fill (session.h). */
#include "sql/session.h"

#include <stddef.h>
#include <string.h>
#include <strings.h>
#include <time.h>

int hudi_sql_session_open(hudi_sql_session **out, const char *warehouse, hudi_error *err) {
    *out = NULL;
    hudi_sql_session *s = hudi_calloc(1, sizeof(*s));
    if (!s) return hudi_error_oom(err);
    int rc = hudi_fs_local_new(&s->fs, err);
    if (rc == 0) rc = hudi_catalog_open(&s->catalog, s->fs, warehouse, err);
    if (rc == 0 && !(s->database = hudi_strdup("default"))) rc = hudi_error_oom(err);
    if (rc < 0) {
        hudi_sql_session_close(s);
        return rc;
    }
    atomic_init(&s->cancel, 0);
    *out = s;
    return 0;
}

void hudi_sql_session_close(hudi_sql_session *s) {
    if (!s) return;
    hudi_catalog_free(s->catalog);
    hudi_fs_free(s->fs);
    for (int32_t i = 0; i < 2 * s->n_conf; i++) hudi_free(s->conf[i]);
    hudi_free(s->conf);
    hudi_free(s->database);
    hudi_free(s);
}

int hudi_sql_session_use(hudi_sql_session *s, const char *db, hudi_error *err) {
    char *copy = hudi_strdup(db);
    if (!copy) return hudi_error_oom(err);
    for (char *p = copy; *p; p++)
        if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
    hudi_free(s->database);
    s->database = copy;
    return 0;
}

/* ---- configuration ----------------------------------------------------------------------- */

static int32_t conf_find(const hudi_sql_session *s, const char *key) {
    for (int32_t i = 0; i < s->n_conf; i++)
        if (strcmp(s->conf[2 * i], key) == 0) return i;
    return -1;
}

const char *hudi_sql_conf_get(const hudi_sql_session *s, const char *key) {
    int32_t i = conf_find(s, key);
    return i < 0 ? NULL : s->conf[2 * i + 1];
}

const char *hudi_sql_conf_for(const hudi_sql_session *s, const hudi_catalog_table *t,
                              const char *key, const char *dflt) {
    const char *v = hudi_sql_conf_get(s, key);
    if (!v && t) v = hudi_catalog_table_prop(t, key);
    return v ? v : dflt;
}

const char *const *hudi_sql_write_props(hudi_sql_result *r, const hudi_sql_session *s,
                                        const hudi_catalog_table *e) {
    int32_t n = 0;
    const char **kv = hudi_arena_alloc(
        &r->arena, sizeof(char *) * (size_t)(2 * (s->n_conf + e->n_props + 1) + 1));
    if (!kv) return NULL;
    for (int32_t i = 0; i < e->n_props; i++)
        if (strncmp(e->props[2 * i], "hoodie.", 7) == 0) {
            kv[2 * n] = e->props[2 * i];
            kv[2 * n + 1] = e->props[2 * i + 1];
            n++;
        }
    for (int32_t i = 0; i < s->n_conf; i++)
        if (strncmp(s->conf[2 * i], "hoodie.", 7) == 0) {
            kv[2 * n] = s->conf[2 * i];
            kv[2 * n + 1] = s->conf[2 * i + 1];
            n++;
        }
    /* SET hudic.threads: the writer's parallelism (last, so it wins) */
    const char *threads = hudi_sql_conf_get(s, "hudic.threads");
    if (threads) {
        kv[2 * n] = "hoodie.hudic.parallelism";
        kv[2 * n + 1] = threads;
        n++;
    }
    kv[2 * n] = NULL;
    return kv;
}

int hudi_sql_conf_set(hudi_sql_session *s, const char *key, const char *value, hudi_error *err) {
    char *v = hudi_strdup(value);
    if (!v) return hudi_error_oom(err);
    int32_t i = conf_find(s, key);
    if (i >= 0) {
        hudi_free(s->conf[2 * i + 1]);
        s->conf[2 * i + 1] = v;
        return 0;
    }
    char *k = hudi_strdup(key);
    if (!k) {
        hudi_free(v);
        return hudi_error_oom(err);
    }
    if (s->n_conf == s->cap_conf) {
        int32_t cap = s->cap_conf ? 2 * s->cap_conf : 16;
        char **grown = hudi_realloc(s->conf, sizeof(char *) * 2 * (size_t)cap);
        if (!grown) {
            hudi_free(k);
            hudi_free(v);
            return hudi_error_oom(err);
        }
        s->conf = grown;
        s->cap_conf = cap;
    }
    s->conf[2 * s->n_conf] = k;
    s->conf[2 * s->n_conf + 1] = v;
    s->n_conf++;
    return 0;
}

void hudi_sql_conf_unset(hudi_sql_session *s, const char *key) {
    int32_t i = conf_find(s, key);
    if (i < 0) return;
    hudi_free(s->conf[2 * i]);
    hudi_free(s->conf[2 * i + 1]);
    memmove(&s->conf[2 * i], &s->conf[2 * i + 2], sizeof(char *) * 2 * (size_t)(s->n_conf - i - 1));
    s->n_conf--;
}

void hudi_sql_conf_reset(hudi_sql_session *s) {
    for (int32_t i = 0; i < 2 * s->n_conf; i++) hudi_free(s->conf[i]);
    s->n_conf = 0;
}

/* The session zone (spark.sql.session.timeZone) as a fixed offset: "UTC", "GMT", "Z",
 * "Etc/UTC", "+hh:mm", "-hh", "UTC+hh:mm"/"GMT+hh:mm"; unset, the machine's current offset.
 * Region ids with daylight-saving rules are refused rather than applied wrongly. */
int hudi_sql_session_zone(const hudi_sql_session *s, int32_t *offset_minutes, const char **name,
                          hudi_error *err) {
    const char *z = hudi_sql_conf_get(s, "spark.sql.session.timeZone");
    if (!z) {
        time_t now = time(NULL);
        struct tm tm;
        if (!localtime_r(&now, &tm)) {
            *offset_minutes = 0;
            *name = "UTC";
            return 0;
        }
        *offset_minutes = (int32_t)(tm.tm_gmtoff / 60);
        *name = tm.tm_gmtoff == 0 ? "UTC" : "local";
        return 0;
    }
    *name = z;
    const char *p = z;
    if (strcmp(p, "Z") == 0 || strcmp(p, "UTC") == 0 || strcmp(p, "GMT") == 0 ||
        strcmp(p, "Etc/UTC") == 0 || strcmp(p, "Etc/GMT") == 0) {
        *offset_minutes = 0;
        return 0;
    }
    if (strncmp(p, "UTC", 3) == 0 || strncmp(p, "GMT", 3) == 0) p += 3;
    if (*p == '+' || *p == '-') {
        int sign = *p == '-' ? -1 : 1, h = 0, m = 0, n = 0;
        p++;
        while (*p >= '0' && *p <= '9' && n < 2) h = h * 10 + (*p++ - '0'), n++;
        if (*p == ':') p++;
        int k = 0;
        while (*p >= '0' && *p <= '9' && k < 2) m = m * 10 + (*p++ - '0'), k++;
        if (n > 0 && *p == '\0' && h <= 18 && m < 60) {
            *offset_minutes = sign * (h * 60 + m);
            return 0;
        }
    }
    return hudi_error_set(err, HUDI_EUNSUPPORTED,
                          "spark.sql.session.timeZone '%s' is not supported yet: use UTC or a "
                          "fixed offset such as +08:00",
                          z);
}

/* ---- results ----------------------------------------------------------------------------- */

hudi_sql_result *hudi_sql_result_of(hudi_sql_ctx *ctx) {
    return (hudi_sql_result *)((char *)ctx - offsetof(hudi_sql_result, ctx));
}

void hudi_sql_result_init(hudi_sql_result *r, hudi_sql_session *s) {
    memset(r, 0, sizeof(*r));
    r->rows_affected = -1;
    r->arena = (hudi_arena)HUDI_ARENA_INIT;
    r->owned_arrays = (hudi_vec)HUDI_VEC_INIT(hudi_array *);
    r->owned_batches = (hudi_vec)HUDI_VEC_INIT(hudi_batch *);
    r->owned_tables = (hudi_vec)HUDI_VEC_INIT(hudi_table *);
    r->owned_states = (hudi_vec)HUDI_VEC_INIT(hudi_sql_owned_state);
    r->ctx.arena = &r->arena;
    r->ctx.cancel = &s->cancel;
    r->ctx.progress = &s->progress;
    r->ctx.batch_rows = 8192;
    r->ctx.session = s;
}

void hudi_sql_result_dispose(hudi_sql_result *r) {
    for (size_t i = 0; i < r->owned_states.len; i++) {
        hudi_sql_owned_state *st = &hudi_vec_at(&r->owned_states, hudi_sql_owned_state, i);
        st->free(st->state);
    }
    for (size_t i = 0; i < r->owned_arrays.len; i++)
        hudi_array_free(hudi_vec_at(&r->owned_arrays, hudi_array *, i));
    for (size_t i = 0; i < r->owned_batches.len; i++)
        hudi_batch_free(hudi_vec_at(&r->owned_batches, hudi_batch *, i));
    for (size_t i = 0; i < r->owned_tables.len; i++)
        hudi_tbl_free(hudi_vec_at(&r->owned_tables, hudi_table *, i));
    hudi_vec_dispose(&r->owned_states);
    hudi_vec_dispose(&r->owned_arrays);
    hudi_vec_dispose(&r->owned_batches);
    hudi_vec_dispose(&r->owned_tables);
    hudi_arena_dispose(&r->arena);
}

static int own(hudi_vec *v, void *p, hudi_error *err) {
    void **slot = hudi_vec_push(v);
    if (!slot) return hudi_error_oom(err);
    *slot = p;
    return 0;
}

int hudi_sql_result_own_array(hudi_sql_result *r, hudi_array *a, hudi_error *err) {
    int rc = own(&r->owned_arrays, a, err);
    if (rc < 0) hudi_array_free(a);
    return rc;
}

int hudi_sql_result_own_batch(hudi_sql_result *r, hudi_batch *b, hudi_error *err) {
    int rc = own(&r->owned_batches, b, err);
    if (rc < 0) hudi_batch_free(b);
    return rc;
}

int hudi_sql_result_own_table(hudi_sql_result *r, hudi_table *t, hudi_error *err) {
    int rc = own(&r->owned_tables, t, err);
    if (rc < 0) hudi_tbl_free(t);
    return rc;
}

int hudi_sql_result_own_state(hudi_sql_result *r, void *state, void (*free_fn)(void *),
                              hudi_error *err) {
    hudi_sql_owned_state *st = hudi_vec_push(&r->owned_states);
    if (!st) {
        free_fn(state);
        return hudi_error_oom(err);
    }
    st->state = state;
    st->free = free_fn;
    return 0;
}

int hudi_sql_schema_make(hudi_sql_result *r, hudi_field *out, int32_t n, const char *const *names,
                         const hudi_type_id *types, hudi_error *err) {
    memset(out, 0, sizeof(*out));
    out->name = hudi_arena_strdup(&r->arena, "");
    out->type = HUDI_TYPE_STRUCT;
    out->nullable = false;
    out->field_id = -1;
    out->n_children = n;
    out->children = hudi_arena_alloc(&r->arena, sizeof(hudi_field) * (size_t)(n ? n : 1));
    if (!out->name || !out->children) return hudi_error_oom(err);
    for (int32_t i = 0; i < n; i++) {
        hudi_field *f = &out->children[i];
        f->name = hudi_arena_strdup(&r->arena, names[i]);
        if (!f->name) return hudi_error_oom(err);
        f->type = types[i];
        f->nullable = true;
        f->field_id = -1;
        f->unit = HUDI_UNIT_MICROS;
        f->utc = true;
        if (types[i] == HUDI_TYPE_DECIMAL) {
            f->precision = 38;
            f->scale = 0;
        }
    }
    return 0;
}

int hudi_sql_plan_rows(hudi_sql_result *r, const hudi_field *schema, hudi_batch *b,
                       hudi_error *err) {
    int rc = hudi_sql_result_own_batch(r, b, err);
    if (rc < 0) return rc;
    hudi_sql_plan *p = hudi_arena_alloc(&r->arena, sizeof(*p));
    hudi_batch **list = hudi_arena_alloc(&r->arena, sizeof(*list));
    if (!p || !list) return hudi_error_oom(err);
    p->kind = HUDI_SQL_P_BATCHES;
    p->schema = *schema;
    p->limit = -1;
    list[0] = b;
    p->batches = list;
    p->n_batches = 1;
    b->schema = &p->schema;
    for (int32_t i = 0; i < b->n_columns; i++) b->columns[i]->field = &p->schema.children[i];
    r->plan = p;
    return 0;
}

/* ---- table names ------------------------------------------------------------------------- */

static char *lower_dup(const char *s) {
    char *d = hudi_strdup(s);
    if (d)
        for (char *p = d; *p; p++)
            if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
    return d;
}

static int path_entry(hudi_catalog_table *out, hudi_catalog_provider provider, const char *path,
                      hudi_error *err) {
    memset(out, 0, sizeof(*out));
    out->provider = provider;
    out->database = hudi_strdup("");
    out->name = hudi_strdup(path);
    out->location = hudi_strdup(path);
    if (!out->database || !out->name || !out->location) {
        hudi_catalog_table_dispose(out);
        return hudi_error_oom(err);
    }
    return 0;
}

int hudi_sql_resolve_table(hudi_sql_session *s, const hudi_sql_name *name, hudi_catalog_table *out,
                           hudi_error *err) {
    memset(out, 0, sizeof(*out));
    uint32_t n = name->parts.len;
    if (n == 0 || n > 2)
        return hudi_error_set(err, HUDI_ESQL,
                              "line %u, column %u: a table name has one or two parts",
                              name->pos.line, name->pos.col);
    const char *first = HUDI_SQL_AT(name->parts, const char, 0);
    if (n == 2) {
        const char *second = HUDI_SQL_AT(name->parts, const char, 1);
        /* hudi.`/path` and parquet.`/path`: Spark's path syntax, when the second part is a
         * path rather than a table name */
        if (second[0] == '/' || strchr(second, '/')) {
            if (strcasecmp(first, "hudi") == 0)
                return path_entry(out, HUDI_CATALOG_HUDI, second, err);
            if (strcasecmp(first, "parquet") == 0)
                return path_entry(out, HUDI_CATALOG_PARQUET, second, err);
        }
    }
    char *db = lower_dup(n == 2 ? first : s->database);
    char *tbl = lower_dup(n == 2 ? HUDI_SQL_AT(name->parts, const char, 1) : first);
    int rc;
    if (!db || !tbl) {
        rc = hudi_error_oom(err);
    } else {
        rc = hudi_catalog_get_table(s->catalog, db, tbl, out, err);
        if (rc == HUDI_ENOTFOUND)
            rc = hudi_error_set(err, HUDI_ENOTFOUND,
                                "line %u, column %u: Table or view not found: %s.%s",
                                name->pos.line, name->pos.col, db, tbl);
    }
    hudi_free(db);
    hudi_free(tbl);
    return rc;
}
