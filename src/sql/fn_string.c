/* fn_string.c - string functions: upper, lower, initcap, length, trim family, substring,
 * left, right, concat, concat_ws, replace, regexp_extract, regexp_replace (Java $n references),
 * split, lpad, rpad, instr, locate, reverse, repeat, ascii, chr, startswith, endswith, contains
 * (docs/SQL.md "Functions and operators").
 *
 * Positions and lengths count characters (UTF-8 code points), as Spark's UTF8String does; case
 * mapping covers ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic. */
#include "sql/regex_int.h"

/* ---- case mapping ------------------------------------------------------------------------------
 */

static uint32_t lower_cp(uint32_t c) {
    if (c < 0x80) return c >= 'A' && c <= 'Z' ? c + 32 : c;
    if ((c >= 0xC0 && c <= 0xDE && c != 0xD7) || (c >= 0x391 && c <= 0x3AB && c != 0x3A2) ||
        (c >= 0x410 && c <= 0x42F))
        return c + 32;
    if (c >= 0x400 && c <= 0x40F) return c + 80;
    if (c == 0x130) return 'i';
    if (c == 0x178) return 0xFF;
    if ((c >= 0x100 && c <= 0x137) || (c >= 0x14A && c <= 0x177)) return c | 1;
    if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) return (c & 1) ? c + 1 : c;
    return c;
}

static uint32_t upper_cp(uint32_t c) {
    if (c < 0x80) return c >= 'a' && c <= 'z' ? c - 32 : c;
    if ((c >= 0xE0 && c <= 0xFE && c != 0xF7) || (c >= 0x3B1 && c <= 0x3CB && c != 0x3C2) ||
        (c >= 0x430 && c <= 0x44F))
        return c - 32;
    if (c == 0x3C2) return 0x3A3;
    if (c >= 0x450 && c <= 0x45F) return c - 80;
    if (c == 0xFF) return 0x178;
    if (c == 0x131) return 'I';
    if ((c >= 0x100 && c <= 0x137) || (c >= 0x14A && c <= 0x177)) return c & ~1u;
    if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) return (c & 1) ? c : c - 1;
    return c;
}

/* Decodes one code point at s (n bytes left); invalid bytes are themselves (len 1, cp = -1). */
static size_t next_cp(const uint8_t *s, size_t n, int32_t *cp) {
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    size_t k = hudi_utf8_seq_len(s, n);
    if (!k) {
        *cp = -1;
        return 1;
    }
    *cp = hudi_utf8_decode(s, k);
    return k;
}

static void map_case(const uint8_t *s, size_t n, hudi_buf *out, bool upper, bool title) {
    bool start = true;
    for (size_t i = 0; i < n;) {
        int32_t cp;
        size_t k = next_cp(s + i, n - i, &cp);
        if (cp < 0) {
            hudi_buf_append(out, s + i, k);
        } else {
            bool up = title ? start : upper;
            if (up && cp == 0xDF && !title)
                hudi_buf_puts(out, "SS");
            else
                hudi_buf_put_utf8(out, up ? upper_cp((uint32_t)cp) : lower_cp((uint32_t)cp));
        }
        start = cp == ' ';
        i += k;
    }
}

size_t hudi_sql_utf8_lower(const uint8_t *s, size_t n, hudi_buf *out) {
    size_t before = out->len;
    map_case(s, n, out, false, false);
    return out->len - before;
}

/* Number of characters and the byte offset of character `k` (clamped). */
static size_t num_chars(hudi_slice s) {
    size_t c = 0;
    for (size_t i = 0; i < s.len; c++)
        i += s.data[i] < 0x80 ? 1 : HUDI_MAX(hudi_utf8_seq_len(s.data + i, s.len - i), 1);
    return c;
}

static size_t byte_of_char(hudi_slice s, int64_t k) {
    size_t i = 0;
    for (int64_t c = 0; c < k && i < s.len; c++)
        i += s.data[i] < 0x80 ? 1 : HUDI_MAX(hudi_utf8_seq_len(s.data + i, s.len - i), 1);
    return i;
}

/* ---- the common shape: string arguments, one result per row
 * ---------------------------------------- */

typedef struct str_job {
    hudi_sql_ctx *ctx;
    const hudi_sql_bexpr *call;
    const hudi_sql_datum *args;
    hudi_array *out;
    hudi_buf tmp, tmp2;
    hudi_sql_regex_cursor rx;
    hudi_error *err;
} str_job;

typedef int (*str_row_fn)(str_job *j, int64_t i);

/* Runs fn for every row whose arguments are all non-null (others are null). */
static int run_rows(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                    int64_t nrows, hudi_array **out, hudi_error *err, str_row_fn fn,
                    bool nulls_in) {
    str_job j;
    memset(&j, 0, sizeof(j));
    j.ctx = ctx;
    j.call = call;
    j.args = args;
    j.err = err;
    hudi_sql_regex_cursor_init(&j.rx, call->fn_state);
    int rc = hudi_sql_out_new(&call->type, nrows, &j.out, err);
    if (rc < 0) return rc;
    for (int64_t i = 0; i < nrows; i++) {
        if (!nulls_in && !hudi_sql_all_valid(args, call->n_args, i)) {
            if ((rc = hudi_sql_out_copy(j.out, i, NULL, 0, err)) < 0) break;
            continue;
        }
        if ((rc = fn(&j, i)) < 0) break;
    }
    hudi_buf_dispose(&j.tmp);
    hudi_buf_dispose(&j.tmp2);
    hudi_sql_regex_cursor_dispose(&j.rx);
    if (rc < 0) {
        hudi_array_free(j.out);
        return rc;
    }
    hudi_sql_out_done(j.out, nrows);
    *out = j.out;
    return 0;
}

/* Row i = the bytes of j->tmp. */
static int put_tmp(str_job *j, int64_t i) {
    if (j->tmp.failed) return hudi_error_oom(j->err);
    return hudi_sql_out_str(j->out, i, j->tmp.data ? j->tmp.data : "", j->tmp.len, j->err);
}

static int32_t int_arg(const str_job *j, int32_t k, int64_t i) {
    return HUDI_SQL_VAL(&j->args[k], int32_t, i);
}

/* bind: every argument a string (listed positions may be ints), result STRING or `result`. */
static int strs_bind(hudi_sql_bind_call *call, hudi_error *err, hudi_type_id result,
                     const char *int_args) {
    call->result = hudi_sql_prim(result);
    for (int32_t i = 0; i < call->n_args; i++) {
        bool is_int = int_args && strchr(int_args, '0' + i);
        int rc = hudi_sql_want_id(call, i, is_int ? HUDI_TYPE_INT32 : HUDI_TYPE_STRING, err);
        if (rc < 0) return rc;
    }
    return 0;
}

#define BIND(fname, result, ints)                                                                  \
    static int fname(hudi_sql_bind_call *call, hudi_error *err) {                                  \
        return strs_bind(call, err, result, ints);                                                 \
    }
BIND(str_bind, HUDI_TYPE_STRING, NULL)
BIND(str_int_bind, HUDI_TYPE_INT32, NULL)
BIND(str_bool_bind, HUDI_TYPE_BOOL, NULL)
BIND(str_s_i_bind, HUDI_TYPE_STRING, "1")
BIND(locate_bind, HUDI_TYPE_INT32, "2")
BIND(chr_bind, HUDI_TYPE_STRING, "0")

#define EVAL(fname, rowfn, nulls_in)                                                               \
    static int fname(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,    \
                     int64_t nrows, hudi_array **out, hudi_error *err) {                           \
        return run_rows(ctx, call, args, nrows, out, err, rowfn, nulls_in);                        \
    }

/* ---- upper, lower, initcap, reverse, trim
 * -------------------------------------------------------- */

/* upper/lower never lengthen UTF-8 text with this mapping (ß -> SS keeps 2 bytes), so the
 * result is written in place of a reservation of the input's length. */
static size_t map_into(const uint8_t *s, size_t n, uint8_t *w, bool upper) {
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        uint8_t c = s[i];
        if (c < 0x80) {
            w[k++] =
                upper ? (c >= 'a' && c <= 'z' ? c - 32 : c) : (c >= 'A' && c <= 'Z' ? c + 32 : c);
            i++;
            continue;
        }
        int32_t cp;
        size_t l = next_cp(s + i, n - i, &cp);
        if (cp < 0) {
            memcpy(w + k, s + i, l);
            k += l;
        } else if (upper && cp == 0xDF) {
            w[k++] = 'S';
            w[k++] = 'S';
        } else {
            k += hudi_utf8_encode(upper ? upper_cp((uint32_t)cp) : lower_cp((uint32_t)cp), w + k);
        }
        i += l;
    }
    return k;
}

static int case_row(str_job *j, int64_t i) {
    hudi_slice s = hudi_sql_str(&j->args[0], i);
    const char *n = j->call->fn->name;
    if (n[0] != 'i') {
        uint8_t *w = hudi_sql_out_reserve(j->out, s.len, j->err);
        if (!w) return HUDI_ENOMEM;
        hudi_sql_out_commit(j->out, i, map_into(s.data, s.len, w, n[0] == 'u'));
        return 0;
    }
    hudi_buf_clear(&j->tmp);
    hudi_buf_clear(&j->tmp2);
    map_case(s.data, s.len, &j->tmp2, false, false);
    map_case((const uint8_t *)(j->tmp2.data ? j->tmp2.data : ""), j->tmp2.len, &j->tmp, true, true);
    if (j->tmp2.failed) j->tmp.failed = true;
    return put_tmp(j, i);
}
EVAL(case_eval, case_row, false)

static int reverse_row(str_job *j, int64_t i) {
    hudi_slice s = hudi_sql_str(&j->args[0], i);
    uint8_t *w = hudi_sql_out_reserve(j->out, s.len, j->err);
    if (!w) return HUDI_ENOMEM;
    size_t end = s.len;
    for (size_t k = 0; k < s.len;) {
        int32_t cp;
        size_t l = next_cp(s.data + k, s.len - k, &cp);
        memcpy(w + end - l, s.data + k, l);
        end -= l;
        k += l;
    }
    hudi_sql_out_commit(j->out, i, s.len);
    return 0;
}
EVAL(reverse_eval, reverse_row, false)

static bool in_set(hudi_slice set, const uint8_t *c, size_t l) {
    for (size_t k = 0; k < set.len;) {
        int32_t cp;
        size_t m = next_cp(set.data + k, set.len - k, &cp);
        if (m == l && memcmp(set.data + k, c, l) == 0) return true;
        k += m;
    }
    return false;
}

static int trim_row(str_job *j, int64_t i) {
    hudi_slice s = hudi_sql_str(&j->args[0], i);
    const char *n = j->call->fn->name;
    bool left = n[0] != 'r', right = n[0] != 'l';
    hudi_slice set = j->call->n_args > 1 ? hudi_sql_str(&j->args[1], i) : hudi_slice_cstr(" ");
    size_t a = 0, b = s.len;
    while (left && a < b) {
        int32_t cp;
        size_t l = next_cp(s.data + a, b - a, &cp);
        if (!in_set(set, s.data + a, l)) break;
        a += l;
    }
    while (right && b > a) {
        size_t st = b - 1;
        while (st > a && (s.data[st] & 0xC0) == 0x80) st--;
        if (!in_set(set, s.data + st, b - st)) break;
        b = st;
    }
    return hudi_sql_out_str(j->out, i, s.data + a, b - a, j->err);
}
EVAL(trim_eval, trim_row, false)

/* ---- length, instr, locate, ascii, startswith
 * ------------------------------------------------------ */

static int length_row(str_job *j, int64_t i) {
    hudi_slice s = hudi_sql_str(&j->args[0], i);
    const char *n = j->call->fn->name;
    int64_t v = n[0] == 'o'   ? (int64_t)s.len
                : n[0] == 'b' ? (int64_t)s.len * 8
                              : (int64_t)num_chars(s);
    HUDI_SQL_OUT(j->out, int32_t, i, (int32_t)v);
    return 0;
}
EVAL(length_eval, length_row, false)

static int length_bind(hudi_sql_bind_call *call, hudi_error *err) {
    call->result = hudi_sql_prim(HUDI_TYPE_INT32);
    if (call->args[0]->type.type == HUDI_TYPE_BINARY) return 0;
    return hudi_sql_want_id(call, 0, HUDI_TYPE_STRING, err);
}

static int64_t find_bytes(hudi_slice s, size_t from, hudi_slice sub) {
    if (sub.len == 0) return (int64_t)from;
    for (size_t k = from; k + sub.len <= s.len; k++)
        if (memcmp(s.data + k, sub.data, sub.len) == 0) return (int64_t)k;
    return -1;
}

static int instr_row(str_job *j, int64_t i) {
    bool locate = j->call->fn->name[0] == 'l';
    hudi_slice s = hudi_sql_str(&j->args[locate ? 1 : 0], i);
    hudi_slice sub = hudi_sql_str(&j->args[locate ? 0 : 1], i);
    int32_t pos = locate && j->call->n_args > 2 ? int_arg(j, 2, i) : 1;
    int32_t r = 0;
    if (pos >= 1) {
        size_t from = byte_of_char(s, pos - 1);
        int64_t at = from <= s.len ? find_bytes(s, from, sub) : -1;
        if (at >= 0) r = (int32_t)num_chars(HUDI_SLICE(s.data, (size_t)at)) + 1;
    }
    HUDI_SQL_OUT(j->out, int32_t, i, r);
    return 0;
}
EVAL(instr_eval, instr_row, false)

static int ascii_row(str_job *j, int64_t i) {
    hudi_slice s = hudi_sql_str(&j->args[0], i);
    int32_t cp = 0;
    if (s.len) next_cp(s.data, s.len, &cp);
    HUDI_SQL_OUT(j->out, int32_t, i, cp < 0 ? s.data[0] : cp);
    return 0;
}
EVAL(ascii_eval, ascii_row, false)

static int starts_row(str_job *j, int64_t i) {
    hudi_slice s = hudi_sql_str(&j->args[0], i), p = hudi_sql_str(&j->args[1], i);
    char k = j->call->fn->name[0];
    bool r = p.len == 0 ? true
             : k == 's' ? s.len >= p.len && memcmp(s.data, p.data, p.len) == 0
             : k == 'e' ? s.len >= p.len && memcmp(s.data + s.len - p.len, p.data, p.len) == 0
                        : find_bytes(s, 0, p) >= 0;
    hudi_sql_out_bool(j->out, i, r);
    return 0;
}
EVAL(starts_eval, starts_row, false)

/* ---- substring, left, right ---------------------------------------------------------------------
 */

/* Spark's substringSQL: 1-based pos (0 acts as 1, negative from the end), len characters. */
static hudi_slice substr_sql(hudi_slice s, int64_t pos, int64_t len, bool bytes) {
    int64_t n = bytes ? (int64_t)s.len : (int64_t)num_chars(s);
    int64_t start = pos > 0 ? pos - 1 : pos < 0 ? n + pos : 0;
    int64_t end = start + len;
    if (start < 0) start = 0;
    if (end > n) end = n;
    if (start >= end) return HUDI_SLICE(s.data, 0);
    size_t a = bytes ? (size_t)start : byte_of_char(s, start);
    size_t b =
        bytes ? (size_t)end : a + byte_of_char(HUDI_SLICE(s.data + a, s.len - a), end - start);
    return HUDI_SLICE(s.data + a, b - a);
}

static int substring_bind(hudi_sql_bind_call *call, hudi_error *err) {
    bool bin = call->args[0]->type.type == HUDI_TYPE_BINARY;
    call->result = hudi_sql_prim(bin ? HUDI_TYPE_BINARY : HUDI_TYPE_STRING);
    int rc = bin ? 0 : hudi_sql_want_id(call, 0, HUDI_TYPE_STRING, err);
    for (int32_t i = 1; i < call->n_args && rc == 0; i++)
        rc = hudi_sql_want_id(call, i, HUDI_TYPE_INT32, err);
    return rc;
}

static int substring_row(str_job *j, int64_t i) {
    hudi_slice s = hudi_sql_str(&j->args[0], i);
    const char *n = j->call->fn->name;
    bool bytes = j->call->type.type == HUDI_TYPE_BINARY;
    hudi_slice r;
    if (n[0] == 'l' || n[0] == 'r') { /* left(str, len), right(str, len) */
        int64_t len = int_arg(j, 1, i);
        if (len <= 0)
            r = HUDI_SLICE(s.data, 0);
        else
            r = n[0] == 'l' ? substr_sql(s, 1, len, bytes) : substr_sql(s, -len, len, bytes);
    } else {
        int64_t len = j->call->n_args > 2 ? int_arg(j, 2, i) : INT32_MAX;
        r = substr_sql(s, int_arg(j, 1, i), len, bytes);
    }
    return hudi_sql_out_str(j->out, i, r.data, r.len, j->err);
}
EVAL(substring_eval, substring_row, false)

/* ---- concat, concat_ws, repeat, replace, lpad, rpad, chr ---------------------------------------
 */

static int concat_bind(hudi_sql_bind_call *call, hudi_error *err) {
    bool bin = call->n_args > 0;
    for (int32_t i = 0; i < call->n_args; i++)
        if (call->args[i]->type.type != HUDI_TYPE_BINARY) bin = false;
    call->result = hudi_sql_prim(bin ? HUDI_TYPE_BINARY : HUDI_TYPE_STRING);
    if (bin) return 0;
    for (int32_t i = 0; i < call->n_args; i++) {
        int rc = hudi_sql_want_id(call, i, HUDI_TYPE_STRING, err);
        if (rc < 0) return rc;
    }
    return 0;
}

static int concat_row(str_job *j, int64_t i) {
    hudi_buf_clear(&j->tmp);
    for (int32_t k = 0; k < j->call->n_args; k++) {
        hudi_slice s = hudi_sql_str(&j->args[k], i);
        hudi_buf_append(&j->tmp, s.data, s.len);
    }
    return put_tmp(j, i);
}
EVAL(concat_eval, concat_row, false)

static int concat_ws_bind(hudi_sql_bind_call *call, hudi_error *err) {
    call->result = hudi_sql_prim(HUDI_TYPE_STRING);
    for (int32_t i = 0; i < call->n_args; i++) {
        const hudi_field *t = &call->args[i]->type;
        if (i > 0 && t->type == HUDI_TYPE_LIST && t->children[0].type == HUDI_TYPE_STRING) continue;
        int rc = hudi_sql_want_id(call, i, HUDI_TYPE_STRING, err);
        if (rc < 0) return rc;
    }
    return 0;
}

static int concat_ws_row(str_job *j, int64_t i) {
    if (!hudi_sql_valid(&j->args[0], i)) {
        hudi_sql_out_null(j->out, i);
        return 0;
    }
    hudi_slice sep = hudi_sql_str(&j->args[0], i);
    hudi_buf_clear(&j->tmp);
    bool first = true;
    for (int32_t k = 1; k < j->call->n_args; k++) {
        const hudi_sql_datum *d = &j->args[k];
        if (!hudi_sql_valid(d, i) || d->array->field->type == HUDI_TYPE_NULL) continue;
        int64_t r = hudi_sql_row(d, i);
        if (d->array->field->type == HUDI_TYPE_LIST) {
            const hudi_array *e = d->array->children[0];
            for (int32_t x = d->array->offsets[r]; x < d->array->offsets[r + 1]; x++) {
                if (!hudi_array_is_valid(e, x)) continue;
                if (!first) hudi_buf_append(&j->tmp, sep.data, sep.len);
                hudi_buf_append(&j->tmp, e->data + e->offsets[x],
                                (size_t)(e->offsets[x + 1] - e->offsets[x]));
                first = false;
            }
            continue;
        }
        hudi_slice s = hudi_sql_str(d, i);
        if (!first) hudi_buf_append(&j->tmp, sep.data, sep.len);
        hudi_buf_append(&j->tmp, s.data, s.len);
        first = false;
    }
    return put_tmp(j, i);
}
EVAL(concat_ws_eval, concat_ws_row, true)

static int repeat_row(str_job *j, int64_t i) {
    const char *name = j->call->fn->name;
    bool space = name[0] == 's'; /* space(n) */
    hudi_slice s = space ? hudi_slice_cstr(" ") : hudi_sql_str(&j->args[0], i);
    int32_t n = int_arg(j, space ? 0 : 1, i);
    if (n <= 0 || s.len == 0) return hudi_sql_out_str(j->out, i, "", 0, j->err);
    if ((uint64_t)s.len * (uint64_t)n > INT32_MAX)
        return hudi_error_set(j->err, HUDI_EINVAL, "%s: result of %llu bytes is too long", name,
                              (unsigned long long)s.len * (unsigned long long)n);
    size_t total = s.len * (size_t)n;
    uint8_t *w = hudi_sql_out_reserve(j->out, total, j->err);
    if (!w) return HUDI_ENOMEM;
    for (int32_t k = 0; k < n; k++) memcpy(w + (size_t)k * s.len, s.data, s.len);
    hudi_sql_out_commit(j->out, i, total);
    return 0;
}
EVAL(repeat_eval, repeat_row, false)

static int space_bind(hudi_sql_bind_call *call, hudi_error *err) {
    call->result = hudi_sql_prim(HUDI_TYPE_STRING);
    return hudi_sql_want_id(call, 0, HUDI_TYPE_INT32, err);
}

static int replace_row(str_job *j, int64_t i) {
    hudi_slice s = hudi_sql_str(&j->args[0], i), from = hudi_sql_str(&j->args[1], i);
    hudi_slice to = j->call->n_args > 2 ? hudi_sql_str(&j->args[2], i) : HUDI_SLICE("", 0);
    if (from.len == 0) return hudi_sql_out_str(j->out, i, s.data, s.len, j->err);
    hudi_buf_clear(&j->tmp);
    size_t k = 0;
    for (int64_t at; (at = find_bytes(s, k, from)) >= 0; k = (size_t)at + from.len) {
        hudi_buf_append(&j->tmp, s.data + k, (size_t)at - k);
        hudi_buf_append(&j->tmp, to.data, to.len);
    }
    hudi_buf_append(&j->tmp, s.data + k, s.len - k);
    return put_tmp(j, i);
}
EVAL(replace_eval, replace_row, false)

static int pad_row(str_job *j, int64_t i) {
    hudi_slice s = hudi_sql_str(&j->args[0], i);
    int32_t len = int_arg(j, 1, i);
    hudi_slice pad = j->call->n_args > 2 ? hudi_sql_str(&j->args[2], i) : hudi_slice_cstr(" ");
    bool left = j->call->fn->name[0] == 'l';
    if (len <= 0) return hudi_sql_out_str(j->out, i, "", 0, j->err);
    int64_t have = (int64_t)num_chars(s);
    if (have >= len || pad.len == 0) {
        hudi_slice r = substr_sql(s, 1, len, false);
        return hudi_sql_out_str(j->out, i, r.data, r.len, j->err);
    }
    hudi_buf_clear(&j->tmp);
    if (!left) hudi_buf_append(&j->tmp, s.data, s.len);
    int64_t need = len - have, padn = (int64_t)num_chars(pad);
    for (int64_t k = 0; k < need; k += padn) {
        int64_t take = HUDI_MIN(padn, need - k);
        hudi_buf_append(&j->tmp, pad.data, byte_of_char(pad, take));
    }
    if (left) hudi_buf_append(&j->tmp, s.data, s.len);
    return put_tmp(j, i);
}
EVAL(pad_eval, pad_row, false)

static int chr_row(str_job *j, int64_t i) {
    int64_t n = hudi_sql_num_i64(j->args[0].array, hudi_sql_row(&j->args[0], i));
    hudi_buf_clear(&j->tmp);
    if (n >= 0) hudi_buf_put_utf8(&j->tmp, (uint32_t)(n & 0xFF));
    return put_tmp(j, i);
}
EVAL(chr_eval, chr_row, false)

/* ---- regexp_extract, regexp_replace, split
 * -------------------------------------------------------- */

static int regexp_bind(hudi_sql_bind_call *call, hudi_error *err) {
    const char *n = call->name;
    bool split = n[0] == 's';
    const char *ints = split ? "2" : strcmp(n, "regexp_extract") == 0 ? "2" : "3";
    int rc = strs_bind(call, err, HUDI_TYPE_STRING, ints);
    if (rc < 0) return rc;
    if (split) {
        hudi_field elem = hudi_sql_prim(HUDI_TYPE_STRING), list = hudi_sql_prim(HUDI_TYPE_LIST);
        hudi_field *kid = hudi_arena_alloc(call->ctx->arena, sizeof(hudi_field));
        if (!kid) return hudi_error_oom(err);
        *kid = elem;
        kid->name = (char *)"element";
        list.children = kid;
        list.n_children = 1;
        call->result = list;
    }
    return hudi_sql_regex_bind(call, 1, &call->state, err);
}

static int extract_row(str_job *j, int64_t i) {
    hudi_slice s = hudi_sql_str(&j->args[0], i);
    int32_t idx = j->call->n_args > 2 ? int_arg(j, 2, i) : 1;
    int m = hudi_sql_regex_find(&j->rx, hudi_sql_str(&j->args[1], i), s, 0, j->err);
    if (m < 0) return m;
    if (idx < 0 || (uint32_t)idx > j->rx.groups)
        return hudi_error_set(j->err, HUDI_EINVAL,
                              "regexp_extract: the regex has %u groups, but group %d was asked for",
                              j->rx.groups, idx);
    if (m == 0) return hudi_sql_out_str(j->out, i, "", 0, j->err);
    size_t a = j->rx.ovector[2 * idx], b = j->rx.ovector[2 * idx + 1];
    if (a == (size_t)-1) return hudi_sql_out_str(j->out, i, "", 0, j->err);
    return hudi_sql_out_str(j->out, i, s.data + a, b - a, j->err);
}
EVAL(extract_eval, extract_row, false)

/* Appends Java's replacement text: $n and ${n} groups, \x the character x. */
static int append_replacement(str_job *j, hudi_slice rep, hudi_slice s) {
    for (size_t k = 0; k < rep.len; k++) {
        uint8_t c = rep.data[k];
        if (c == '\\' && k + 1 < rep.len) {
            hudi_buf_putc(&j->tmp, (char)rep.data[++k]);
        } else if (c == '$' && k + 1 < rep.len) {
            uint32_t g = 0;
            if (rep.data[k + 1] == '{') {
                size_t e = k + 2;
                while (e < rep.len && rep.data[e] >= '0' && rep.data[e] <= '9')
                    g = g * 10 + (rep.data[e++] - '0');
                if (e >= rep.len || rep.data[e] != '}' || e == k + 2)
                    return hudi_error_set(j->err, HUDI_EINVAL,
                                          "regexp_replace: bad group reference in '%.*s'",
                                          (int)rep.len, (const char *)rep.data);
                k = e;
            } else if (rep.data[k + 1] >= '0' && rep.data[k + 1] <= '9') {
                g = rep.data[++k] - '0';
                while (k + 1 < rep.len && rep.data[k + 1] >= '0' && rep.data[k + 1] <= '9' &&
                       g * 10 + (uint32_t)(rep.data[k + 1] - '0') <= j->rx.groups)
                    g = g * 10 + (rep.data[++k] - '0');
            } else {
                return hudi_error_set(j->err, HUDI_EINVAL,
                                      "regexp_replace: illegal group reference in '%.*s'",
                                      (int)rep.len, (const char *)rep.data);
            }
            if (g > j->rx.groups)
                return hudi_error_set(j->err, HUDI_EINVAL, "regexp_replace: no group %u", g);
            size_t a = j->rx.ovector[2 * g], b = j->rx.ovector[2 * g + 1];
            if (a != (size_t)-1) hudi_buf_append(&j->tmp, s.data + a, b - a);
        } else if (c == '$') {
            return hudi_error_set(j->err, HUDI_EINVAL,
                                  "regexp_replace: character to be escaped is missing");
        } else {
            hudi_buf_putc(&j->tmp, (char)c);
        }
    }
    return 0;
}

static int replace_re_row(str_job *j, int64_t i) {
    hudi_slice s = hudi_sql_str(&j->args[0], i), rep = hudi_sql_str(&j->args[2], i);
    int32_t pos = j->call->n_args > 3 ? int_arg(j, 3, i) : 1;
    if (pos < 1)
        return hudi_error_set(j->err, HUDI_EINVAL, "regexp_replace: position %d is below 1", pos);
    size_t start = byte_of_char(s, pos - 1), last = 0;
    hudi_buf_clear(&j->tmp);
    while (start <= s.len) {
        int m = hudi_sql_regex_find(&j->rx, hudi_sql_str(&j->args[1], i), s, start, j->err);
        if (m < 0) return m;
        if (m == 0) break;
        size_t a = j->rx.ovector[0], b = j->rx.ovector[1];
        hudi_buf_append(&j->tmp, s.data + last, a - last);
        int rc = append_replacement(j, rep, s);
        if (rc < 0) return rc;
        last = b;
        if (b == a) {
            if (b >= s.len) break;
            int32_t cp;
            size_t l = next_cp(s.data + b, s.len - b, &cp);
            hudi_buf_append(&j->tmp, s.data + b, l);
            last = b + l;
            start = b + l;
        } else {
            start = b;
        }
    }
    hudi_buf_append(&j->tmp, s.data + last, s.len - last);
    return put_tmp(j, i);
}
EVAL(replace_re_eval, replace_re_row, false)

static int split_row(str_job *j, int64_t i) {
    hudi_slice s = hudi_sql_str(&j->args[0], i);
    int32_t limit = j->call->n_args > 2 ? int_arg(j, 2, i) : -1;
    hudi_array *kid = j->out->children[0];
    int64_t base = kid->length;
    size_t start = 0, piece = 0;
    int rc;
    int64_t count = 0;
    while (limit <= 0 || count + 1 < limit) {
        int m = hudi_sql_regex_find(&j->rx, hudi_sql_str(&j->args[1], i), s, start, j->err);
        if (m < 0) return m;
        if (m == 0) break;
        size_t a = j->rx.ovector[0], b = j->rx.ovector[1];
        if (b == a) {
            /* a zero-width match splits between characters, never before the first */
            if (a >= s.len) break;
            if (a == 0) {
                int32_t cp;
                start = next_cp(s.data, s.len, &cp);
                continue;
            }
        }
        if ((rc = hudi_array_append_bytes(kid, s.data + piece, a - piece, j->err)) < 0) return rc;
        count++;
        piece = b;
        if (b == a) {
            int32_t cp;
            start = b + next_cp(s.data + b, s.len - b, &cp);
        } else {
            start = b;
        }
        if (start > s.len) break;
    }
    if ((rc = hudi_array_append_bytes(kid, s.data + piece, s.len - piece, j->err)) < 0) return rc;
    count++;
    (void)base;
    j->out->offsets[i + 1] = (int32_t)kid->length;
    hudi_sql_out_valid(j->out, i);
    return 0;
}
EVAL(split_eval, split_row, false)

#define F HUDI_SQL_SCALAR_FN

const hudi_sql_func hudi_sql_string_funcs[] = {
    F("upper", 1, 1, str_bind, case_eval, "upper(str) - upper case (ucase)"),
    F("lower", 1, 1, str_bind, case_eval, "lower(str) - lower case (lcase)"),
    F("initcap", 1, 1, str_bind, case_eval, "initcap(str) - each word capitalised"),
    F("reverse", 1, 1, str_bind, reverse_eval, "reverse(str) - the characters in reverse order"),
    F("trim", 1, 1, str_bind, trim_eval, "trim(str) - str without leading and trailing spaces"),
    F("btrim", 1, 2, str_bind, trim_eval, "btrim(str[, chars]) - trims chars (default space)"),
    F("ltrim", 1, 1, str_bind, trim_eval, "ltrim(str) - str without leading spaces"),
    F("rtrim", 1, 1, str_bind, trim_eval, "rtrim(str) - str without trailing spaces"),
    F("length", 1, 1, length_bind, length_eval,
      "length(str) - characters (bytes of a binary) (char_length, character_length)"),
    F("octet_length", 1, 1, length_bind, length_eval, "octet_length(str) - bytes"),
    F("bit_length", 1, 1, length_bind, length_eval, "bit_length(str) - bits"),
    F("instr", 2, 2, str_int_bind, instr_eval,
      "instr(str, sub) - 1-based position of the first sub in str, 0 if none"),
    F("locate", 2, 3, locate_bind, instr_eval,
      "locate(sub, str[, pos]) - position of sub in str at or after pos (position)"),
    F("ascii", 1, 1, str_int_bind, ascii_eval, "ascii(str) - code point of the first character"),
    F("startswith", 2, 2, str_bool_bind, starts_eval, "startswith(str, prefix)"),
    F("endswith", 2, 2, str_bool_bind, starts_eval, "endswith(str, suffix)"),
    F("contains", 2, 2, str_bool_bind, starts_eval, "contains(str, sub)"),
    F("substring", 2, 3, substring_bind, substring_eval,
      "substring(str, pos[, len]) - len characters from 1-based pos (negative: from the end) "
      "(substr)"),
    F("left", 2, 2, str_s_i_bind, substring_eval, "left(str, n) - the first n characters"),
    F("right", 2, 2, str_s_i_bind, substring_eval, "right(str, n) - the last n characters"),
    F("concat", 1, -1, concat_bind, concat_eval,
      "concat(a, b, ...) - the arguments joined; NULL if any is NULL"),
    F("concat_ws", 1, -1, concat_ws_bind, concat_ws_eval,
      "concat_ws(sep, a, ...) - non-NULL arguments (and array elements) joined by sep"),
    F("repeat", 2, 2, str_s_i_bind, repeat_eval, "repeat(str, n) - str n times"),
    F("space", 1, 1, space_bind, repeat_eval, "space(n) - n spaces"),
    F("replace", 2, 3, str_bind, replace_eval,
      "replace(str, search[, rep]) - every search replaced"),
    F("lpad", 2, 3, str_s_i_bind, pad_eval, "lpad(str, len[, pad]) - padded on the left to len"),
    F("rpad", 2, 3, str_s_i_bind, pad_eval, "rpad(str, len[, pad]) - padded on the right to len"),
    F("chr", 1, 1, chr_bind, chr_eval, "chr(n) - the character of code n mod 256 (char)"),
    F("regexp_extract", 2, 3, regexp_bind, extract_eval,
      "regexp_extract(str, regex[, idx]) - group idx (default 1) of the first match, '' if none"),
    F("regexp_replace", 3, 4, regexp_bind, replace_re_eval,
      "regexp_replace(str, regex, rep[, pos]) - every match replaced; $n in rep is group n"),
    F("split", 2, 3, regexp_bind, split_eval,
      "split(str, regex[, limit]) - the pieces between matches as an array"),
};
const int32_t hudi_sql_string_nfuncs = (int32_t)HUDI_ARRAY_LEN(hudi_sql_string_funcs);
