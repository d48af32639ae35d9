/* regex.c - PCRE2 patterns for RLIKE and regexp_* (regex_int.h). Bound patterns live in the
 * statement's arena through a pcre2 general context whose allocator is the arena. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>

#include "sql/regex_int.h"

static void *arena_malloc(PCRE2_SIZE n, void *data) { return hudi_arena_alloc(data, n); }
static void arena_free(void *p, void *data) {
    (void)p;
    (void)data;
}

static void *heap_malloc(PCRE2_SIZE n, void *data) {
    (void)data;
    return hudi_malloc(n);
}
static void heap_free(void *p, void *data) {
    (void)data;
    hudi_free(p);
}

static pcre2_code *compile(hudi_slice p, pcre2_general_context *gc, char *msg, size_t cap,
                           bool *oom) {
    pcre2_compile_context *cc = pcre2_compile_context_create(gc);
    *oom = false;
    if (!cc) {
        *oom = true;
        return NULL;
    }
    int code;
    PCRE2_SIZE off;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)(p.len ? (const char *)p.data : ""), p.len,
                                   PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &code, &off, cc);
    pcre2_compile_context_free(cc);
    if (!re) {
        if (code == PCRE2_ERROR_NOMEMORY || code == PCRE2_ERROR_HEAP_FAILED) *oom = true;
        PCRE2_UCHAR buf[200];
        pcre2_get_error_message(code, buf, sizeof(buf));
        snprintf(msg, cap, "%s at offset %zu", (const char *)buf, (size_t)off);
    }
    return re;
}

int hudi_sql_regex_bind(hudi_sql_bind_call *call, int32_t arg, void **state, hudi_error *err) {
    size_t len;
    const char *p = hudi_sql_const_str(call, arg, &len);
    *state = NULL;
    if (!p) return 0;
    pcre2_general_context *gc =
        pcre2_general_context_create(arena_malloc, arena_free, call->ctx->arena);
    if (!gc) return hudi_error_oom(err);
    char msg[256];
    bool oom;
    pcre2_code *re = compile(HUDI_SLICE(p, len), gc, msg, sizeof(msg), &oom);
    if (!re)
        return oom ? hudi_error_oom(err)
                   : hudi_sql_bind_error(call, err, "bad regular expression '%s': %s", p, msg);
    *state = re;
    return 0;
}

void hudi_sql_regex_cursor_init(hudi_sql_regex_cursor *c, void *bound_state) {
    memset(c, 0, sizeof(*c));
    c->fixed = bound_state;
}

static pcre2_general_context *heap_context(void) {
    return pcre2_general_context_create(heap_malloc, heap_free, NULL);
}

int hudi_sql_regex_find(hudi_sql_regex_cursor *c, hudi_slice pattern, hudi_slice subject,
                        size_t start, hudi_error *err) {
    pcre2_code *re = c->fixed;
    if (!re) {
        if (!c->own || c->last.len != pattern.len ||
            (pattern.len && memcmp(c->last.data, pattern.data, pattern.len) != 0)) {
            pcre2_general_context *gc = heap_context();
            if (!gc) return hudi_error_oom(err);
            char msg[256];
            bool oom;
            pcre2_code *n = compile(pattern, gc, msg, sizeof(msg), &oom);
            pcre2_general_context_free(gc);
            if (!n)
                return oom ? hudi_error_oom(err)
                           : hudi_error_set(err, HUDI_ESQL, "bad regular expression '%.*s': %s",
                                            (int)pattern.len, (const char *)pattern.data, msg);
            pcre2_code_free(c->own);
            c->own = n;
            hudi_buf_clear(&c->last);
            hudi_buf_append(&c->last, pattern.data, pattern.len);
            if (c->last.failed) return hudi_error_oom(err);
            pcre2_match_data_free(c->md);
            c->md = NULL;
        }
        re = c->own;
    }
    if (c->code != re || !c->md) {
        pcre2_match_data_free(c->md);
        pcre2_general_context *gc = heap_context();
        c->md = gc ? pcre2_match_data_create_from_pattern(re, gc) : NULL;
        pcre2_general_context_free(gc);
        if (!c->md) return hudi_error_oom(err);
        c->code = re;
        uint32_t n = 0;
        pcre2_pattern_info(re, PCRE2_INFO_CAPTURECOUNT, &n);
        c->groups = n;
    }
    int rc = pcre2_match(re, (PCRE2_SPTR)(subject.len ? (const char *)subject.data : ""),
                         subject.len, start, 0, c->md, NULL);
    if (rc == PCRE2_ERROR_NOMATCH) return 0;
    if (rc < 0) {
        if (rc == PCRE2_ERROR_NOMEMORY || rc == PCRE2_ERROR_HEAP_FAILED) return hudi_error_oom(err);
        PCRE2_UCHAR buf[200];
        pcre2_get_error_message(rc, buf, sizeof(buf));
        return hudi_error_set(err, HUDI_ESQL, "regular expression match failed: %s",
                              (const char *)buf);
    }
    c->ovector = pcre2_get_ovector_pointer(c->md);
    return 1;
}

void hudi_sql_regex_cursor_dispose(hudi_sql_regex_cursor *c) {
    pcre2_match_data_free(c->md);
    pcre2_code_free(c->own);
    hudi_buf_dispose(&c->last);
    memset(c, 0, sizeof(*c));
}
