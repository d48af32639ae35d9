/* sql.c - the public SQL API (include/hudi/hudi_sql.h) over the SQL engine (src/sql): sessions,
 * statements one at a time, results as Arrow C streams. */
#include "api/api.h"
#include "columnar/arrow_c.h"
#include "hudi/hudi_sql.h"
#include "sql/session.h"
#include "sql/sql.h"

#include <stdio.h>
#include <string.h>

struct hudi_session {
    hudi_sql_session *s;
    char error_context[1024];
};

struct hudi_result {
    hudi_sql_result r;
    hudi_session *session;
    bool streamed;
    int live_streams; /* a stream holds the result's plan until released */
};

int hudi_session_open(hudi_session **out, const char *warehouse, const hudi_session_options *opts,
                      hudi_error *err) {
    *out = NULL;
    if (!warehouse || !*warehouse)
        return hudi_error_set(err, HUDI_EINVAL, "hudi_session_open: no warehouse folder given");
    if (opts && (opts->version < 1 || opts->version > HUDI_SESSION_OPTIONS_VERSION))
        return hudi_error_set(err, HUDI_EINVAL, "hudi_session_options: unknown version %d",
                              opts->version);
    hudi_session *h = hudi_calloc(1, sizeof(*h));
    if (!h) return hudi_error_oom(err);
    int rc = hudi_sql_session_open(&h->s, warehouse, err);
    if (rc == 0 && opts && opts->conf)
        for (const char *const *kv = opts->conf; rc == 0 && kv[0]; kv += 2) {
            if (!kv[1]) {
                rc = hudi_error_set(err, HUDI_EINVAL, "hudi_session_options: '%s' has no value",
                                    kv[0]);
                break;
            }
            rc = hudi_session_set(h, kv[0], kv[1], err);
        }
    if (rc == 0 && opts && opts->database) {
        if (!hudi_catalog_database_exists(h->s->catalog, opts->database))
            rc = hudi_error_set(err, HUDI_ENOTFOUND, "Database '%s' not found", opts->database);
        else
            rc = hudi_sql_session_use(h->s, opts->database, err);
    }
    if (rc < 0) {
        hudi_session_close(h);
        return rc;
    }
    *out = h;
    return 0;
}

void hudi_session_close(hudi_session *h) {
    if (!h) return;
    hudi_sql_session_close(h->s);
    hudi_free(h);
}

int hudi_session_set(hudi_session *h, const char *key, const char *value, hudi_error *err) {
    if (!key || !*key) return hudi_error_set(err, HUDI_EINVAL, "hudi_session_set: empty key");
    if (strcmp(key, "spark.sql.session.timeZone") == 0) {
        /* through SET so the zone is checked before it is kept */
        hudi_buf sql = HUDI_BUF_INIT;
        hudi_buf_printf(&sql, "SET %s=%s", key, value);
        if (sql.failed) {
            hudi_buf_dispose(&sql);
            return hudi_error_oom(err);
        }
        size_t used;
        hudi_result *r = NULL;
        int rc = hudi_session_execute(h, sql.data, sql.len, &used, &r, err);
        hudi_result_free(r);
        hudi_buf_dispose(&sql);
        return rc;
    }
    return hudi_sql_conf_set(h->s, key, value ? value : "", err);
}

const char *hudi_session_get(const hudi_session *h, const char *key) {
    return hudi_sql_conf_get(h->s, key);
}

const char *hudi_session_database(const hudi_session *h) { return h->s->database; }

hudi_sql_session *hudi_api_sql_session(const hudi_session *h) { return h->s; }

const char *hudi_session_error_context(const hudi_session *h) { return h->error_context; }

_Static_assert(HUDI_PROGRESS_SCAN == HUDI_PROGRESS_PHASE_SCAN &&
                   HUDI_PROGRESS_WRITE == HUDI_PROGRESS_PHASE_WRITE,
               "the public progress phases are the library's");

void hudi_session_progress(const hudi_session *h, hudi_statement_progress *out) {
    memset(out, 0, sizeof(*out));
    if (!h) return;
    hudi_progress *p = &h->s->progress;
    out->phase = (hudi_progress_phase)atomic_load(&p->phase);
    out->done = atomic_load(&p->done);
    out->total = atomic_load(&p->total);
    out->rows = atomic_load(&p->rows);
}

void hudi_session_cancel(hudi_session *h) {
    if (h) atomic_store(&h->s->cancel, 1);
}

/* Bytes up to and including the ';' that ends the statement holding `from` (or to the end). */
static size_t skip_statement(const char *sql, size_t len, size_t from) {
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_sql_lexer lx;
    hudi_sql_lexer_init(&lx, &arena, sql, len);
    size_t end = len;
    for (;;) {
        hudi_sql_token t;
        hudi_sql_pos ep;
        int rc = hudi_sql_lex(&lx, &t, &ep, NULL);
        if (rc == HUDI_ENOMEM) break;
        if (rc < 0) continue;
        if (t.kind == HUDI_SQL_TK_EOF) break;
        if (t.kind == HUDI_SQL_TK_OP && t.text_len == 1 && t.text[0] == ';' &&
            t.pos.offset >= from) {
            end = t.pos.offset + 1;
            break;
        }
    }
    hudi_arena_dispose(&arena);
    return end;
}

/* The "line L, column C:" a message starts with, if any. */
static bool message_position(const char *msg, hudi_sql_pos *pos, const char *sql, size_t len) {
    unsigned line, col;
    if (sscanf(msg, "line %u, column %u:", &line, &col) != 2 || line == 0 || col == 0) return false;
    uint32_t l = 1;
    size_t off = 0;
    while (off < len && l < line) {
        if (sql[off] == '\n') l++;
        off++;
    }
    pos->line = line;
    pos->col = col;
    pos->offset = (uint32_t)(off + col - 1);
    return l == line;
}

static void set_context(hudi_session *h, const char *sql, size_t len, const hudi_error *err) {
    h->error_context[0] = '\0';
    hudi_sql_pos pos;
    if (!err || !message_position(err->message, &pos, sql, len)) return;
    hudi_buf b = HUDI_BUF_INIT;
    hudi_sql_error_context(&b, sql, len, pos);
    if (!b.failed && b.len) {
        size_t n = b.len < sizeof(h->error_context) - 1 ? b.len : sizeof(h->error_context) - 1;
        memcpy(h->error_context, b.data, n);
        h->error_context[n] = '\0';
    }
    hudi_buf_dispose(&b);
}

int hudi_session_execute(hudi_session *h, const char *sql, size_t len, size_t *consumed,
                         hudi_result **out, hudi_error *err) {
    hudi_error local = HUDI_ERROR_INIT;
    if (!err) err = &local;
    *out = NULL;
    *consumed = len;
    h->error_context[0] = '\0';
    atomic_store(&h->s->cancel, 0);
    hudi_progress_reset(&h->s->progress);
    hudi_result *res = hudi_calloc(1, sizeof(*res));
    if (!res) return hudi_error_oom(err);
    hudi_sql_result_init(&res->r, h->s);
    res->session = h;
    hudi_sql_parser p;
    hudi_sql_parser_init(&p, &res->r.arena, sql, len);
    hudi_sql_stmt *st = NULL;
    int rc = hudi_sql_parser_next(&p, &st, err);
    if (rc == 0) { /* only blanks and comments */
        hudi_result_free(res);
        return 0;
    }
    if (rc < 0) {
        *consumed = skip_statement(sql, len, p.error_pos.offset);
    } else {
        *consumed = p.last_end.offset;
        rc = hudi_sql_execute_stmt(h->s, st, &res->r, err);
    }
    if (rc < 0) {
        set_context(h, sql, *consumed, err);
        hudi_result_free(res);
        return rc;
    }
    *out = res;
    return 0;
}

hudi_statement_kind hudi_result_kind(const hudi_result *r) { return r->r.kind; }
const char *hudi_result_statement(const hudi_result *r) { return r->r.statement; }
int64_t hudi_result_rows_affected(const hudi_result *r) { return r->r.rows_affected; }
bool hudi_result_has_rows(const hudi_result *r) { return r->r.plan != NULL; }

/* ---- the stream ---------------------------------------------------------------------------- */

typedef struct result_stream {
    hudi_result *res;
    hudi_sql_oper *op;
} result_stream;

/* A copy of the operator's batch, which the stream then exports by moving its buffers. */
static int stream_next(void *payload, hudi_batch **out, hudi_error *err) {
    result_stream *rs = payload;
    *out = NULL;
    hudi_batch *b;
    for (;;) {
        int rc = hudi_sql_op_next(rs->op, &b, err);
        if (rc < 0) return rc;
        if (!b) return 0;
        if (b->num_rows > 0) break;
    }
    hudi_batch *copy = NULL;
    int rc = hudi_batch_new(&copy, b->schema, err);
    for (int32_t i = 0; rc == 0 && i < b->n_columns; i++)
        rc = hudi_array_append_range(copy->columns[i], b->columns[i], 0, b->num_rows, err);
    if (rc < 0) {
        hudi_batch_free(copy);
        return rc;
    }
    copy->num_rows = b->num_rows;
    *out = copy;
    return 0;
}

static void stream_free(void *payload) {
    result_stream *rs = payload;
    hudi_sql_op_free(rs->op);
    rs->res->live_streams--;
    hudi_free(rs);
}

int hudi_result_stream(hudi_result *r, struct ArrowArrayStream *out, hudi_error *err) {
    if (!r->r.plan) return hudi_error_set(err, HUDI_EINVAL, "%s returns no rows", r->r.statement);
    if (r->streamed)
        return hudi_error_set(err, HUDI_EINVAL, "the rows of this result were streamed already");
    result_stream *rs = hudi_calloc(1, sizeof(*rs));
    if (!rs) return hudi_error_oom(err);
    rs->res = r;
    int rc = hudi_sql_op_open(&rs->op, &r->r.ctx, r->r.plan, err);
    if (rc == 0)
        rc = hudi_arrow_stream_new(out, &r->r.plan->schema, stream_next, stream_free, rs, err);
    if (rc < 0) {
        hudi_sql_op_free(rs->op);
        hudi_free(rs);
        return rc;
    }
    r->streamed = true;
    r->live_streams++;
    return 0;
}

void hudi_result_free(hudi_result *r) {
    if (!r) return;
    hudi_sql_result_dispose(&r->r);
    hudi_free(r);
}
