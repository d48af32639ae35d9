/* run.c - one statement from text to result: parse, then hand the syntax tree to the executor
 * of its kind (session.h); SET and RESET are handled here. */
#include "base/pool.h"
#include "read/read.h"
#include "sql/session.h"
#include "sql/sql.h"

#include <stdint.h>
#include <string.h>
#include <time.h>

static const char *statement_name(const hudi_sql_stmt *st) {
    switch (st->kind) {
    case HUDI_SQL_S_QUERY: return "SELECT";
    case HUDI_SQL_S_CREATE_TABLE: return st->query ? "CREATE TABLE AS SELECT" : "CREATE TABLE";
    case HUDI_SQL_S_DROP_TABLE: return "DROP TABLE";
    case HUDI_SQL_S_TRUNCATE: return "TRUNCATE TABLE";
    case HUDI_SQL_S_ALTER_TABLE: return "ALTER TABLE";
    case HUDI_SQL_S_SHOW: return "SHOW";
    case HUDI_SQL_S_DESCRIBE: return "DESCRIBE";
    case HUDI_SQL_S_CREATE_INDEX: return "CREATE INDEX";
    case HUDI_SQL_S_DROP_INDEX: return "DROP INDEX";
    case HUDI_SQL_S_REFRESH_INDEX: return "REFRESH INDEX";
    case HUDI_SQL_S_REFRESH_TABLE: return "REFRESH TABLE";
    case HUDI_SQL_S_CREATE_DATABASE: return "CREATE DATABASE";
    case HUDI_SQL_S_DROP_DATABASE: return "DROP DATABASE";
    case HUDI_SQL_S_USE: return "USE";
    case HUDI_SQL_S_SET: return "SET";
    case HUDI_SQL_S_RESET: return "RESET";
    case HUDI_SQL_S_INSERT: return "INSERT";
    case HUDI_SQL_S_UPDATE: return "UPDATE";
    case HUDI_SQL_S_DELETE: return "DELETE";
    case HUDI_SQL_S_MERGE: return "MERGE";
    case HUDI_SQL_S_EXPLAIN: return "EXPLAIN";
    case HUDI_SQL_S_CALL: return "CALL";
    case HUDI_SQL_S_CREATE_CATALOG: return "CREATE CATALOG";
    }
    return "STATEMENT";
}

static hudi_statement_kind statement_kind(const hudi_sql_stmt *st) {
    switch (st->kind) {
    case HUDI_SQL_S_QUERY: return HUDI_STMT_QUERY;
    case HUDI_SQL_S_SHOW:
    case HUDI_SQL_S_DESCRIBE:
    case HUDI_SQL_S_EXPLAIN: return HUDI_STMT_SHOW;
    case HUDI_SQL_S_SET:
    case HUDI_SQL_S_RESET: return HUDI_STMT_SET;
    case HUDI_SQL_S_CALL: return HUDI_STMT_CALL;
    case HUDI_SQL_S_INSERT:
    case HUDI_SQL_S_UPDATE:
    case HUDI_SQL_S_DELETE:
    case HUDI_SQL_S_MERGE: return HUDI_STMT_DML;
    case HUDI_SQL_S_CREATE_TABLE: return st->query ? HUDI_STMT_DML : HUDI_STMT_DDL;
    default: return HUDI_STMT_DDL;
    }
}

/* Rows of key/value pairs (SET's output). */
static int kv_rows(hudi_sql_result *r, const char *const *kv, int32_t n, hudi_error *err) {
    static const char *const names[] = {"key", "value"};
    static const hudi_type_id types[] = {HUDI_TYPE_STRING, HUDI_TYPE_STRING};
    hudi_field schema;
    int rc = hudi_sql_schema_make(r, &schema, 2, names, types, err);
    hudi_batch *b = NULL;
    if (rc == 0) rc = hudi_batch_new(&b, &schema, err);
    for (int32_t i = 0; rc == 0 && i < n; i++) {
        rc = hudi_array_append_bytes(b->columns[0], kv[2 * i], strlen(kv[2 * i]), err);
        if (rc == 0)
            rc = hudi_array_append_bytes(b->columns[1], kv[2 * i + 1], strlen(kv[2 * i + 1]), err);
        if (rc == 0) b->num_rows++;
    }
    if (rc < 0) {
        hudi_batch_free(b);
        return rc;
    }
    return hudi_sql_plan_rows(r, &schema, b, err);
}

static bool is_threads_key(const char *key) {
    return strcmp(key, "hudic.threads") == 0 || strcmp(key, "hoodie.hudic.parallelism") == 0;
}

static int exec_set(hudi_sql_session *s, const hudi_sql_stmt *st, hudi_sql_result *r,
                    hudi_error *err) {
    if (st->kind == HUDI_SQL_S_RESET) {
        if (st->key)
            hudi_sql_conf_unset(s, st->key);
        else
            hudi_sql_conf_reset(s);
        return 0;
    }
    switch (st->set) {
    case HUDI_SQL_SET_LIST:
    case HUDI_SQL_SET_ALL: return kv_rows(r, (const char *const *)s->conf, s->n_conf, err);
    case HUDI_SQL_SET_GET: {
        const char *v = hudi_sql_conf_get(s, st->key);
        const char *kv[2] = {st->key, v ? v : "<undefined>"};
        return kv_rows(r, kv, 1, err);
    }
    case HUDI_SQL_SET_ASSIGN: {
        const char *v = st->value ? st->value : "";
        int32_t threads;
        if (is_threads_key(st->key)) { /* checked before it is stored */
            int rc = hudi_pool_parse_threads(st->key, v, &threads, err);
            if (rc < 0) return rc;
        }
        if (strcmp(st->key, "spark.sql.session.timeZone") == 0) {
            /* checked before it is stored, so a bad zone never sticks */
            char *old = NULL;
            const char *prev = hudi_sql_conf_get(s, st->key);
            if (prev && !(old = hudi_strdup(prev))) return hudi_error_oom(err);
            int rc = hudi_sql_conf_set(s, st->key, v, err);
            int32_t off;
            const char *name;
            if (rc == 0 && (rc = hudi_sql_session_zone(s, &off, &name, err)) < 0) {
                if (old)
                    hudi_sql_conf_set(s, st->key, old, NULL);
                else
                    hudi_sql_conf_unset(s, st->key);
            }
            hudi_free(old);
            if (rc < 0) return rc;
        } else {
            int rc = hudi_sql_conf_set(s, st->key, v, err);
            if (rc < 0) return rc;
        }
        const char *kv[2] = {st->key, v};
        return kv_rows(r, kv, 1, err);
    }
    }
    return 0;
}

int hudi_sql_execute_stmt(hudi_sql_session *s, const hudi_sql_stmt *st, hudi_sql_result *r,
                          hudi_error *err) {
    r->kind = statement_kind(st);
    r->statement = statement_name(st);
    int rc = hudi_sql_session_zone(s, &r->ctx.tz_offset_minutes, &r->ctx.tz_name, err);
    if (rc < 0) return rc;
    r->ctx.now_micros = hudi_sql_now_micros();
    const char *limit = hudi_sql_conf_get(s, "hudic.memory.limit");
    if (limit && (rc = hudi_sql_parse_bytes(limit, &r->ctx.memory_limit, err)) < 0) return rc;
    const char *threads = hudi_sql_conf_get(s, "hudic.threads");
    const char *key = "hudic.threads";
    if (!threads) threads = hudi_sql_conf_get(s, key = "hoodie.hudic.parallelism");
    if (threads && (rc = hudi_pool_parse_threads(key, threads, &r->ctx.threads, err)) < 0)
        return rc;
    switch (st->kind) {
    case HUDI_SQL_S_SET:
    case HUDI_SQL_S_RESET: return exec_set(s, st, r, err);
    case HUDI_SQL_S_QUERY:
    case HUDI_SQL_S_EXPLAIN: return hudi_sql_exec_query(s, st, r, err);
    case HUDI_SQL_S_INSERT:
    case HUDI_SQL_S_UPDATE:
    case HUDI_SQL_S_DELETE:
    case HUDI_SQL_S_MERGE: return hudi_sql_exec_dml(s, st, r, err);
    default: return hudi_sql_exec_ddl(s, st, r, err);
    }
}

int64_t hudi_sql_now_micros(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* "512m", "2g", "1048576", "64 MB": bytes. */
int hudi_sql_parse_bytes(const char *text, int64_t *out, hudi_error *err) {
    const char *p = text;
    int64_t v = 0;
    if (*p < '0' || *p > '9') goto bad;
    while (*p >= '0' && *p <= '9') {
        if (v > INT64_MAX / 10 - 10) goto bad;
        v = v * 10 + (*p++ - '0');
    }
    while (*p == ' ') p++;
    int shift = 0;
    switch (*p) {
    case 'k':
    case 'K':
        shift = 10;
        p++;
        break;
    case 'm':
    case 'M':
        shift = 20;
        p++;
        break;
    case 'g':
    case 'G':
        shift = 30;
        p++;
        break;
    case 't':
    case 'T':
        shift = 40;
        p++;
        break;
    }
    if (*p == 'b' || *p == 'B') p++;
    if (*p != '\0' || v > (INT64_MAX >> shift)) goto bad;
    *out = v << shift;
    return 0;
bad:
    return hudi_error_set(err, HUDI_EINVAL,
                          "hudic.memory.limit: '%s' is not a size (e.g. 512m, 2g)", text);
}
