/* lexer.c - tokens of hudic's SQL (docs/SQL.md "The grammar as parsed"): words, `quoted` names,
 * '...' and "..." strings with backslash escapes, numbers with Spark's suffixes (L S Y D F BD),
 * X'hex', operators, -- and nested block comments, and hints kept as HINT_START ... HINT_END.
 *
 * Invariant: every byte of the input is passed once through advance(), which keeps line and
 * column (columns count UTF-8 characters), so positions cost nothing extra. */
#include <ctype.h>

#include "sql/sql.h"

void hudi_sql_lexer_init(hudi_sql_lexer *lx, hudi_arena *arena, const char *src, size_t len) {
    memset(lx, 0, sizeof(*lx));
    lx->src = src;
    lx->len = len;
    lx->line = 1;
    lx->col = 1;
    lx->stmt_start = true;
    lx->arena = arena;
}

static int peekc(const hudi_sql_lexer *lx, size_t ahead) {
    size_t i = lx->off + ahead;
    return i < lx->len ? (unsigned char)lx->src[i] : -1;
}

static void advance(hudi_sql_lexer *lx) {
    unsigned char c = (unsigned char)lx->src[lx->off++];
    if (c == '\n') {
        lx->line++;
        lx->col = 1;
    } else if ((c & 0xC0) != 0x80) {
        lx->col++;
    }
}

static hudi_sql_pos here(const hudi_sql_lexer *lx) {
    return (hudi_sql_pos){lx->line, lx->col, (uint32_t)lx->off};
}

static bool is_word_char(int c) { return c >= 0 && c < 0x80 && (isalnum(c) || c == '_'); }

static int lex_error(hudi_sql_pos *err_pos, hudi_sql_pos pos, hudi_error *err, const char *msg) {
    *err_pos = pos;
    return hudi_error_set(err, HUDI_ESQL, "%s", msg);
}

/* True when only blanks precede the current offset on its line. */
static bool line_blank_before(const hudi_sql_lexer *lx) {
    for (size_t i = lx->off; i > 0; i--) {
        char c = lx->src[i - 1];
        if (c == '\n') return true;
        if (c != ' ' && c != '\t' && c != '\r') return false;
    }
    return true;
}

/* Skips blanks and comments. A block comment opening with "/\*+" is a hint and is left for
 * the caller. Returns HUDI_ESQL for an unterminated block comment. */
static int skip_space(hudi_sql_lexer *lx, hudi_sql_pos *err_pos, hudi_error *err) {
    for (;;) {
        int c = peekc(lx, 0);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            advance(lx);
        } else if (c == '-' && peekc(lx, 1) == '-') {
            while (lx->off < lx->len && lx->src[lx->off] != '\n') advance(lx);
        } else if (lx->stmt_start && !lx->in_hint &&
                   (c == '#' || (c == '/' && peekc(lx, 1) == '/')) && line_blank_before(lx)) {
            /* Doc-compat: '#' and '//' lines between statements are comments. */
            while (lx->off < lx->len && lx->src[lx->off] != '\n') advance(lx);
        } else if (c == '/' && peekc(lx, 1) == '*' && (peekc(lx, 2) != '+' || lx->in_hint)) {
            hudi_sql_pos start = here(lx);
            int depth = 0;
            do {
                if (peekc(lx, 0) == '/' && peekc(lx, 1) == '*') {
                    depth++;
                    advance(lx);
                    advance(lx);
                } else if (peekc(lx, 0) == '*' && peekc(lx, 1) == '/') {
                    depth--;
                    advance(lx);
                    advance(lx);
                } else if (lx->off < lx->len) {
                    advance(lx);
                } else {
                    return lex_error(err_pos, start, err, "unterminated comment");
                }
            } while (depth > 0);
        } else {
            return 0;
        }
    }
}

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static void put_utf8(hudi_buf *b, uint32_t cp) {
    if (cp < 0x80) {
        hudi_buf_putc(b, (char)cp);
    } else if (cp < 0x800) {
        hudi_buf_putc(b, (char)(0xC0 | (cp >> 6)));
        hudi_buf_putc(b, (char)(0x80 | (cp & 0x3F)));
    } else {
        hudi_buf_putc(b, (char)(0xE0 | (cp >> 12)));
        hudi_buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
        hudi_buf_putc(b, (char)(0x80 | (cp & 0x3F)));
    }
}

/* A quoted string with Spark's escapes (docs/SQL.md): \' \" \\ \n \t \r \b \0 \Z \uXXXX,
 * three octal digits, "\%" and "\_" keep the backslash, any other "\x" is "x". */
static int lex_string(hudi_sql_lexer *lx, hudi_sql_token *t, hudi_buf *b, hudi_sql_pos *err_pos,
                      hudi_error *err) {
    char q = lx->src[lx->off];
    advance(lx);
    for (;;) {
        int c = peekc(lx, 0);
        if (c < 0) return lex_error(err_pos, t->pos, err, "unterminated string literal");
        if (c == q) {
            advance(lx);
            return 0;
        }
        if (c != '\\') {
            hudi_buf_putc(b, (char)c);
            advance(lx);
            continue;
        }
        advance(lx);
        int e = peekc(lx, 0);
        if (e < 0) return lex_error(err_pos, t->pos, err, "unterminated string literal");
        if (e == 'u' && lx->off + 4 < lx->len && hexval(peekc(lx, 1)) >= 0 &&
            hexval(peekc(lx, 2)) >= 0 && hexval(peekc(lx, 3)) >= 0 && hexval(peekc(lx, 4)) >= 0) {
            uint32_t cp = 0;
            advance(lx);
            for (int i = 0; i < 4; i++) {
                cp = cp * 16 + (uint32_t)hexval(peekc(lx, 0));
                advance(lx);
            }
            put_utf8(b, cp);
            continue;
        }
        if (e >= '0' && e <= '3' && peekc(lx, 1) >= '0' && peekc(lx, 1) <= '7' &&
            peekc(lx, 2) >= '0' && peekc(lx, 2) <= '7') {
            int v = (e - '0') * 64 + (peekc(lx, 1) - '0') * 8 + (peekc(lx, 2) - '0');
            advance(lx);
            advance(lx);
            advance(lx);
            hudi_buf_putc(b, (char)v);
            continue;
        }
        char out;
        switch (e) {
        case 'n': out = '\n'; break;
        case 't': out = '\t'; break;
        case 'r': out = '\r'; break;
        case 'b': out = '\b'; break;
        case '0': out = '\0'; break;
        case 'Z': out = '\032'; break;
        case '%':
        case '_':
            hudi_buf_putc(b, '\\');
            out = (char)e;
            break;
        default: out = (char)e; break;
        }
        hudi_buf_putc(b, out);
        advance(lx);
    }
}

/* Numbers: digits [. digits] [e[+-]digits] [suffix]. Spark lets a word start with digits
 * ("1a"), so a number directly followed by word characters that are not its suffix is a word
 * (unless it has a '.', as "1.5x" lexes as 1.5 then x). */
static bool lex_number(hudi_sql_lexer *lx, hudi_sql_token *t) {
    size_t i = lx->off;
    const char *s = lx->src;
    size_t n = lx->len;
    bool dot = false, exp = false;
    while (i < n && isdigit((unsigned char)s[i])) i++;
    if (i < n && s[i] == '.') {
        dot = true;
        i++;
        while (i < n && isdigit((unsigned char)s[i])) i++;
    }
    if (i == lx->off + (dot ? 1u : 0u)) return false; /* "." alone */
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < n && (s[j] == '+' || s[j] == '-')) j++;
        if (j < n && isdigit((unsigned char)s[j])) {
            while (j < n && isdigit((unsigned char)s[j])) j++;
            exp = true;
            i = j;
        }
    }
    size_t digits_end = i;
    hudi_sql_lit_kind k = exp ? HUDI_SQL_L_DOUBLE : dot ? HUDI_SQL_L_DECIMAL : HUDI_SQL_L_INT;
    int c = i < n ? toupper((unsigned char)s[i]) : 0;
    int c2 = i + 1 < n ? toupper((unsigned char)s[i + 1]) : 0;
    if (c == 'B' && c2 == 'D') {
        k = HUDI_SQL_L_BIGDEC;
        i += 2;
    } else if (c == 'D') {
        k = HUDI_SQL_L_DOUBLE;
        i++;
    } else if (c == 'F') {
        k = HUDI_SQL_L_FLOAT;
        i++;
    } else if (!dot && !exp && c == 'L') {
        k = HUDI_SQL_L_BIGINT;
        i++;
    } else if (!dot && !exp && c == 'S') {
        k = HUDI_SQL_L_SMALLINT;
        i++;
    } else if (!dot && !exp && c == 'Y') {
        k = HUDI_SQL_L_TINYINT;
        i++;
    }
    if (!dot && i < n && is_word_char((unsigned char)s[i])) return false; /* a word: 12abc */
    t->kind = HUDI_SQL_TK_NUMBER;
    t->lit = k;
    t->text = s + lx->off;
    t->text_len = digits_end - lx->off;
    while (lx->off < i) advance(lx);
    return true;
}

static const char *const OPS[] = {"<=>", ">>>", "<>", "<=", ">=", "==", "!=", "||", "<<", ">>",
                                  "=>",  "->",  "::", "(",  ")",  ",",  ";",  ".",  "[",  "]",
                                  "+",   "-",   "*",  "/",  "%",  "=",  "<",  ">",  "|",  "&",
                                  "^",   "~",   ":",  "?",  "{",  "}",  "!"};

int hudi_sql_lex(hudi_sql_lexer *lx, hudi_sql_token *t, hudi_sql_pos *err_pos, hudi_error *err) {
    int rc;
    memset(t, 0, sizeof(*t));
    if ((rc = skip_space(lx, err_pos, err)) < 0) return rc;
    t->pos = here(lx);
    int c = peekc(lx, 0);
    if (c < 0) {
        t->kind = HUDI_SQL_TK_EOF;
        t->end = t->pos;
        return 0;
    }
    lx->stmt_start = false;
    if (c == '/' && peekc(lx, 1) == '*' && peekc(lx, 2) == '+') {
        t->kind = HUDI_SQL_TK_HINT_START;
        t->text = "/*+";
        t->text_len = 3;
        for (int i = 0; i < 3; i++) advance(lx);
        lx->in_hint = true;
    } else if (lx->in_hint && c == '*' && peekc(lx, 1) == '/') {
        t->kind = HUDI_SQL_TK_HINT_END;
        t->text = "*/";
        t->text_len = 2;
        advance(lx);
        advance(lx);
        lx->in_hint = false;
    } else if ((c == 'x' || c == 'X') && peekc(lx, 1) == '\'') {
        hudi_buf b = HUDI_BUF_INIT;
        advance(lx);
        rc = lex_string(lx, t, &b, err_pos, err);
        if (rc == 0 && !b.failed) {
            size_t n = b.len;
            if (n % 2) {
                rc = lex_error(err_pos, t->pos, err,
                               "binary literal needs an even number of digits");
            } else {
                char *out = hudi_arena_alloc(lx->arena, n / 2 + 1);
                for (size_t i = 0; out && rc == 0 && i < n; i += 2) {
                    int hi = hexval((unsigned char)b.data[i]),
                        lo = hexval((unsigned char)b.data[i + 1]);
                    if (hi < 0 || lo < 0)
                        rc = lex_error(err_pos, t->pos, err, "invalid hex digit in binary literal");
                    else
                        out[i / 2] = (char)(hi * 16 + lo);
                }
                if (!out) rc = hudi_error_oom(err);
                t->kind = HUDI_SQL_TK_BINARY;
                t->text = out;
                t->text_len = n / 2;
            }
        } else if (rc == 0) {
            rc = hudi_error_oom(err);
        }
        hudi_buf_dispose(&b);
        if (rc < 0) return rc;
    } else if (c == '\'' || c == '"') {
        hudi_buf b = HUDI_BUF_INIT;
        rc = lex_string(lx, t, &b, err_pos, err);
        if (rc == 0) {
            char *s = b.failed ? NULL : hudi_arena_strndup(lx->arena, b.data ? b.data : "", b.len);
            if (!s) rc = hudi_error_oom(err);
            t->kind = HUDI_SQL_TK_STRING;
            t->text = s;
            t->text_len = b.len;
        }
        hudi_buf_dispose(&b);
        if (rc < 0) return rc;
    } else if (c == '`') {
        hudi_buf b = HUDI_BUF_INIT;
        advance(lx);
        for (;;) {
            int d = peekc(lx, 0);
            if (d < 0) {
                hudi_buf_dispose(&b);
                return lex_error(err_pos, t->pos, err, "unterminated quoted identifier");
            }
            advance(lx);
            if (d == '`') {
                if (peekc(lx, 0) != '`') break;
                advance(lx);
            }
            hudi_buf_putc(&b, (char)d);
        }
        char *s = b.failed ? NULL : hudi_arena_strndup(lx->arena, b.data ? b.data : "", b.len);
        hudi_buf_dispose(&b);
        if (!s) return hudi_error_oom(err);
        t->kind = HUDI_SQL_TK_QIDENT;
        t->text = s;
        t->text_len = strlen(s);
    } else if ((isdigit(c) || (c == '.' && isdigit(peekc(lx, 1)))) && lex_number(lx, t)) {
        /* done */
    } else if (is_word_char(c)) {
        size_t start = lx->off;
        while (is_word_char(peekc(lx, 0))) advance(lx);
        t->kind = HUDI_SQL_TK_WORD;
        t->text = lx->src + start;
        t->text_len = lx->off - start;
    } else {
        size_t i;
        for (i = 0; i < HUDI_ARRAY_LEN(OPS); i++) {
            size_t n = strlen(OPS[i]);
            if (lx->off + n <= lx->len && memcmp(lx->src + lx->off, OPS[i], n) == 0) break;
        }
        if (i == HUDI_ARRAY_LEN(OPS)) {
            /* The character is consumed, so lexing can resume right after it. */
            *err_pos = t->pos;
            size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
            bool utf8 = n > 1 && lx->off + n <= lx->len;
            for (size_t k = 1; utf8 && k < n; k++)
                utf8 = ((unsigned char)lx->src[lx->off + k] & 0xC0) == 0x80;
            if (!utf8) n = 1;
            const char *at = lx->src + lx->off;
            for (size_t k = 0; k < n; k++) advance(lx);
            if (c >= 0x20 && c < 0x7f)
                return hudi_error_set(err, HUDI_ESQL, "unexpected character '%c'", c);
            if (utf8)
                return hudi_error_set(err, HUDI_ESQL, "unexpected character '%.*s'", (int)n, at);
            return hudi_error_set(err, HUDI_ESQL, "unexpected byte 0x%02x", c);
        }
        t->kind = HUDI_SQL_TK_OP;
        t->text = OPS[i];
        t->text_len = strlen(OPS[i]);
        for (size_t k = 0; k < t->text_len; k++) advance(lx);
        if (t->text[0] == ';') {
            lx->stmt_start = true;
            lx->in_hint = false; /* a hint never spans statements */
        }
    }
    t->src_len = (uint32_t)(lx->off - t->pos.offset);
    t->end = here(lx);
    return 0;
}
