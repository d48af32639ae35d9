/* sql_output.c - the rows of a `hudic sql` result in each output mode.
 *
 * Values are rendered by the library (hudi_session_render: spark-sql's text of each value),
 * except in json and jsonl modes, whose objects come from hudi_json_writer (the value
 * rendering of docs/formats/rendering.md). Row-at-a-time modes (spark, tsv, csv, line, json,
 * jsonl) print as batches arrive; box and markdown need column widths first: markdown keeps
 * every row, box keeps the first and last maxrows/2 rows and counts the rest. */
#include <errno.h>
#include <stdlib.h>
#include <strings.h>

#include "sql_shell.h"

static const char *const mode_names[] = {"spark", "box",   "csv",  "tsv",
                                         "json",  "jsonl", "line", "markdown"};

bool sql_mode_parse(const char *name, sql_mode *out) {
    for (size_t i = 0; i < CLI_ARRAY_LEN(mode_names); i++)
        if (strcasecmp(name, mode_names[i]) == 0) {
            *out = (sql_mode)i;
            return true;
        }
    if (strcasecmp(name, "tabs") == 0) return *out = SQL_MODE_TSV, true;
    if (strcasecmp(name, "jsonlines") == 0) return *out = SQL_MODE_JSONL, true;
    if (strcasecmp(name, "duckbox") == 0) return *out = SQL_MODE_BOX, true;
    return false;
}

const char *sql_mode_name(sql_mode m) { return mode_names[m]; }

bool sql_headers_on(const sql_shell *sh) {
    if (sh->headers >= 0) return sh->headers == 1;
    if (sh->mode != SQL_MODE_SPARK) return true;
    const char *v = hudi_session_get(sh->session, "spark.sql.cli.print.header");
    if (!v) v = hudi_session_get(sh->session, "hive.cli.print.header");
    return v && strcasecmp(v, "true") == 0;
}

/* ---- types ------------------------------------------------------------------------------- */

void sql_type_name(cli_buf *out, const struct ArrowSchema *col) {
    const char *f = col->format;
    static const struct {
        const char *format, *name;
    } simple[] = {
        {"n", "void"},     {"b", "boolean"},       {"c", "tinyint"}, {"C", "smallint"},
        {"s", "smallint"}, {"S", "int"},           {"i", "int"},     {"I", "bigint"},
        {"l", "bigint"},   {"L", "decimal(20,0)"}, {"e", "float"},   {"f", "float"},
        {"g", "double"},   {"u", "string"},        {"U", "string"},  {"vu", "string"},
        {"z", "binary"},   {"Z", "binary"},        {"vz", "binary"}, {"tdD", "date"},
        {"tdm", "date"},
    };
    for (size_t i = 0; i < CLI_ARRAY_LEN(simple); i++)
        if (strcmp(f, simple[i].format) == 0) {
            cli_buf_puts(out, simple[i].name);
            return;
        }
    if (strncmp(f, "d:", 2) == 0) {
        int p = 0, s = 0;
        sscanf(f + 2, "%d,%d", &p, &s);
        cli_buf_printf(out, "decimal(%d,%d)", p, s);
    } else if (strncmp(f, "ts", 2) == 0 && f[2] && f[3] == ':') {
        cli_buf_puts(out, f[4] ? "timestamp" : "timestamp_ntz");
    } else if ((strcmp(f, "+l") == 0 || strcmp(f, "+L") == 0) && col->n_children == 1) {
        cli_buf_puts(out, "array<");
        sql_type_name(out, col->children[0]);
        cli_buf_putc(out, '>');
    } else if (strcmp(f, "+m") == 0 && col->n_children == 1 && col->children[0]->n_children == 2) {
        cli_buf_puts(out, "map<");
        sql_type_name(out, col->children[0]->children[0]);
        cli_buf_putc(out, ',');
        sql_type_name(out, col->children[0]->children[1]);
        cli_buf_putc(out, '>');
    } else if (strcmp(f, "+s") == 0) {
        cli_buf_puts(out, "struct<");
        for (int64_t i = 0; i < col->n_children; i++) {
            if (i) cli_buf_putc(out, ',');
            cli_buf_printf(out, "%s:", col->children[i]->name ? col->children[i]->name : "");
            sql_type_name(out, col->children[i]);
        }
        cli_buf_putc(out, '>');
    } else {
        cli_buf_puts(out, f);
    }
}

static bool is_numeric_format(const char *f) {
    return strchr("cCsSiIlLefg", f[0]) && f[1] == '\0' ? true : strncmp(f, "d:", 2) == 0;
}

/* ---- text helpers ------------------------------------------------------------------------ */

/* Display columns of UTF-8 text: one per code point. */
static size_t text_width(const char *s, size_t n) {
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) w++;
    return w;
}

/* Appends `s` with control characters made visible (\n, \t, \r) or turned into spaces: a cell
 * of a box, a markdown table or line mode stays on one line. `pipe`: escape '|' (markdown). */
static void put_visible(cli_buf *b, const char *s, size_t n, bool pipe) {
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '\n')
            cli_buf_puts(b, "\\n");
        else if (c == '\t')
            cli_buf_puts(b, "\\t");
        else if (c == '\r')
            cli_buf_puts(b, "\\r");
        else if ((unsigned char)c < 0x20)
            cli_buf_putc(b, ' ');
        else if (c == '|' && pipe)
            cli_buf_puts(b, "\\|");
        else
            cli_buf_putc(b, c);
    }
}

static void put_repeat(cli_buf *b, const char *s, size_t times) {
    for (size_t i = 0; i < times; i++) cli_buf_puts(b, s);
}

/* Appends the first `width` display columns of s[0, n). */
static void put_prefix(cli_buf *b, const char *s, size_t n, size_t width) {
    size_t w = 0, i = 0;
    for (; i < n; i++) {
        if (((unsigned char)s[i] & 0xC0) != 0x80) {
            if (w == width) break;
            w++;
        }
    }
    cli_buf_append(b, s, i);
}

/* Appends a cell padded to `width` columns: right-aligned, centred or left-aligned; text
 * wider than `width` is cut and ends with "…". */
static void put_cell(cli_buf *b, const char *s, size_t width, int align /* -1 left, 0 centre,
                                                                           1 right */) {
    size_t n = strlen(s), w = text_width(s, n);
    if (w > width) {
        if (width >= 1) put_prefix(b, s, n, width - 1);
        cli_buf_puts(b, "…");
        return;
    }
    size_t pad = width - w, before = align > 0 ? pad : align == 0 ? pad / 2 : 0;
    put_repeat(b, " ", before);
    cli_buf_append(b, s, n);
    put_repeat(b, " ", pad - before);
}

/* ---- the printing state ------------------------------------------------------------------ */

typedef struct stored_row {
    char **cells;
} stored_row;

typedef struct printer {
    sql_shell *sh;
    int32_t n_cols;
    char **names;      /* column names */
    char **types;      /* Spark type names */
    bool *numeric;     /* right-aligned in box and markdown */
    int32_t only_col;  /* spark mode's SHOW TABLES: print this column only; -1: all */
    bool pad20;        /* spark mode's DESCRIBE: cells as %-20s */
    size_t name_width; /* line mode */
    cli_buf line;      /* the row being built */
    cli_buf tmp;
    int64_t rows;
    /* box and markdown */
    stored_row *head; /* the first rows (all of them in markdown) */
    size_t n_head, cap_head, max_head;
    stored_row *tail; /* box: a ring of the last rows */
    size_t n_tail, max_tail, tail_next;
    char **cur; /* cells of the row being rendered */
    bool failed;
} printer;

static void free_row(stored_row *r, int32_t n) {
    if (!r->cells) return;
    for (int32_t i = 0; i < n; i++) free(r->cells[i]);
    free(r->cells);
    r->cells = NULL;
}

static void printer_dispose(printer *p) {
    for (int32_t i = 0; i < p->n_cols; i++) {
        free(p->names ? p->names[i] : NULL);
        free(p->types ? p->types[i] : NULL);
    }
    free(p->names);
    free(p->types);
    free(p->numeric);
    for (size_t i = 0; i < p->n_head; i++) free_row(&p->head[i], p->n_cols);
    for (size_t i = 0; i < p->n_tail; i++) free_row(&p->tail[i], p->n_cols);
    free(p->head);
    free(p->tail);
    if (p->cur) {
        stored_row r = {p->cur};
        free_row(&r, p->n_cols);
    }
    cli_buf_dispose(&p->line);
    cli_buf_dispose(&p->tmp);
}

/* Writes the row buffer to the shell's output. */
static int emit(printer *p, cli_buf *b) {
    if (b->failed) return HUDI_ENOMEM;
    if (b->len && fwrite(b->data, 1, b->len, p->sh->out) != b->len) return HUDI_EIO;
    cli_buf_clear(b);
    return 0;
}

static void put_csv(cli_buf *b, const char *s, size_t n) {
    bool quote = n == 0 ? false : strpbrk(s, ",\"\r\n") != NULL;
    if (!quote) {
        cli_buf_append(b, s, n);
        return;
    }
    cli_buf_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"') cli_buf_putc(b, '"');
        cli_buf_putc(b, s[i]);
    }
    cli_buf_putc(b, '"');
}

static void put_tsv(cli_buf *b, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '\t')
            cli_buf_puts(b, "\\t");
        else if (c == '\n')
            cli_buf_puts(b, "\\n");
        else if (c == '\r')
            cli_buf_puts(b, "\\r");
        else if (c == '\\')
            cli_buf_puts(b, "\\\\");
        else
            cli_buf_putc(b, c);
    }
}

/* One rendered value (hudi_render_fn). */
static int on_cell(void *payload, int64_t row, int32_t col, const char *text, size_t len,
                   bool is_null) {
    (void)row;
    printer *p = payload;
    sql_shell *sh = p->sh;
    cli_buf *b = &p->line;
    bool last = col == p->n_cols - 1;
    switch (sh->mode) {
    case SQL_MODE_SPARK:
        if (p->only_col >= 0) {
            if (col == p->only_col) cli_buf_append(b, text, len);
        } else {
            if (col) cli_buf_putc(b, '\t');
            if (p->pad20) {
                /* Spark's DESCRIBE: a NULL comment is empty; every cell "%-20s". */
                size_t n = is_null ? 0 : len;
                cli_buf_append(b, text, n);
                put_repeat(b, " ", n < 20 ? 20 - text_width(text, n) : 0);
            } else {
                cli_buf_append(b, text, len);
            }
        }
        break;
    case SQL_MODE_TSV:
        if (col) cli_buf_putc(b, '\t');
        put_tsv(b, text, len);
        break;
    case SQL_MODE_CSV:
        if (col) cli_buf_putc(b, ',');
        if (!is_null) put_csv(b, text, len);
        break;
    case SQL_MODE_LINE:
        if (col == 0 && p->rows > 0) cli_buf_putc(b, '\n');
        put_repeat(b, " ", p->name_width - text_width(p->names[col], strlen(p->names[col])));
        cli_buf_printf(b, "%s = ", p->names[col]);
        put_visible(b, text, len, false);
        cli_buf_putc(b, '\n');
        break;
    default: /* box, markdown: keep the cell */
        if (!p->cur) {
            p->cur = calloc((size_t)p->n_cols, sizeof(char *));
            if (!p->cur) return HUDI_ENOMEM;
        }
        cli_buf_clear(&p->tmp);
        put_visible(&p->tmp, text, len, sh->mode == SQL_MODE_MARKDOWN);
        if (p->tmp.failed || !(p->cur[col] = strdup(p->tmp.data ? p->tmp.data : "")))
            return HUDI_ENOMEM;
        break;
    }
    if (!last) return 0;
    p->rows++;
    if (sh->mode == SQL_MODE_BOX || sh->mode == SQL_MODE_MARKDOWN) {
        stored_row r = {p->cur};
        p->cur = NULL;
        if (p->n_head < p->max_head) {
            if (p->n_head == p->cap_head) {
                size_t cap = p->cap_head ? p->cap_head * 2 : 64;
                stored_row *h = realloc(p->head, cap * sizeof(*h));
                if (!h) return free_row(&r, p->n_cols), HUDI_ENOMEM;
                p->head = h;
                p->cap_head = cap;
            }
            p->head[p->n_head++] = r;
        } else if (p->max_tail > 0) {
            if (p->n_tail < p->max_tail) {
                p->tail[p->n_tail++] = r;
            } else {
                free_row(&p->tail[p->tail_next], p->n_cols);
                p->tail[p->tail_next] = r;
            }
            p->tail_next = (p->tail_next + 1) % p->max_tail;
        } else {
            free_row(&r, p->n_cols);
        }
        return 0;
    }
    if (sh->mode != SQL_MODE_LINE) cli_buf_putc(b, '\n');
    if (b->len >= (1u << 16)) return emit(p, b);
    return 0;
}

static int write_header(printer *p) {
    cli_buf *b = &p->line;
    switch (p->sh->mode) {
    case SQL_MODE_SPARK:
        if (!sql_headers_on(p->sh)) return 0;
        for (int32_t i = 0; i < p->n_cols; i++) {
            if (p->only_col >= 0 && i != p->only_col) continue;
            if (i && p->only_col < 0) cli_buf_putc(b, '\t');
            cli_buf_puts(b, p->names[i]);
        }
        cli_buf_putc(b, '\n');
        break;
    case SQL_MODE_TSV:
    case SQL_MODE_CSV:
        if (!sql_headers_on(p->sh)) return 0;
        for (int32_t i = 0; i < p->n_cols; i++) {
            if (i) cli_buf_putc(b, p->sh->mode == SQL_MODE_CSV ? ',' : '\t');
            if (p->sh->mode == SQL_MODE_CSV)
                put_csv(b, p->names[i], strlen(p->names[i]));
            else
                put_tsv(b, p->names[i], strlen(p->names[i]));
        }
        cli_buf_putc(b, '\n');
        break;
    default: break;
    }
    return 0;
}

/* ---- box and markdown -------------------------------------------------------------------- */

static stored_row *shown_row(printer *p, size_t i) {
    if (i < p->n_head) return &p->head[i];
    i -= p->n_head;
    /* the ring's oldest entry is at tail_next once it is full */
    size_t start = p->n_tail == p->max_tail ? p->tail_next : 0;
    return &p->tail[(start + i) % (p->max_tail ? p->max_tail : 1)];
}

static void box_rule(cli_buf *b, const size_t *w, int32_t n, const char *l, const char *m,
                     const char *r) {
    cli_buf_puts(b, l);
    for (int32_t i = 0; i < n; i++) {
        if (i) cli_buf_puts(b, m);
        put_repeat(b, "─", w[i] + 2);
    }
    cli_buf_puts(b, r);
    cli_buf_putc(b, '\n');
}

/* Column widths: the widest of name, type and shown cells, then narrowed (widest first) until
 * the table fits the terminal. */
static void fit_widths(printer *p, size_t *w, size_t n_shown, bool types) {
    for (int32_t c = 0; c < p->n_cols; c++) {
        w[c] = text_width(p->names[c], strlen(p->names[c]));
        if (types) {
            size_t tw = text_width(p->types[c], strlen(p->types[c]));
            if (tw > w[c]) w[c] = tw;
        }
        if (w[c] < 1) w[c] = 1;
        for (size_t i = 0; i < n_shown; i++) {
            const char *s = shown_row(p, i)->cells[c];
            size_t cw = text_width(s, strlen(s));
            if (cw > w[c]) w[c] = cw;
        }
    }
    int width = p->sh->width;
    if (width <= 0) return;
    size_t total = 1;
    for (int32_t c = 0; c < p->n_cols; c++) total += w[c] + 3;
    while (total > (size_t)width) {
        int32_t widest = 0;
        for (int32_t c = 1; c < p->n_cols; c++)
            if (w[c] > w[widest]) widest = c;
        if (w[widest] <= 5) break;
        w[widest]--;
        total--;
    }
}

static int print_box(printer *p) {
    cli_buf *b = &p->line;
    size_t n_shown = p->n_head + p->n_tail;
    size_t *w = calloc((size_t)p->n_cols + 1, sizeof(size_t));
    if (!w) return HUDI_ENOMEM;
    fit_widths(p, w, n_shown, true);
    int32_t n = p->n_cols;
    bool footer = (int64_t)n_shown < p->rows || p->rows == 0;
    char left[96], right[48];
    if (p->rows == 0)
        snprintf(left, sizeof(left), "0 rows");
    else
        snprintf(left, sizeof(left), "%lld rows (%zu shown)", (long long)p->rows, n_shown);
    snprintf(right, sizeof(right), "%d column%s", n, n == 1 ? "" : "s");
    if (footer && n > 0) {
        /* the footer's text fits: the last column widens */
        size_t inner = 0;
        for (int32_t c = 0; c < n; c++) inner += w[c] + 3;
        if (inner - 1 < strlen(left) + 2) w[n - 1] += strlen(left) + 2 - (inner - 1);
    }
    box_rule(b, w, n, "┌", "┬", "┐");
    for (int pass = 0; pass < 2; pass++) {
        cli_buf_puts(b, "│");
        for (int32_t c = 0; c < n; c++) {
            cli_buf_putc(b, ' ');
            put_cell(b, pass ? p->types[c] : p->names[c], w[c], 0);
            cli_buf_puts(b, " │");
        }
        cli_buf_putc(b, '\n');
    }
    box_rule(b, w, n, "├", "┼", "┤");
    for (size_t i = 0; i < n_shown; i++) {
        if (i == p->n_head && (int64_t)n_shown < p->rows) {
            for (int dots = 0; dots < 3; dots++) {
                cli_buf_puts(b, "│");
                for (int32_t c = 0; c < n; c++) {
                    cli_buf_putc(b, ' ');
                    put_cell(b, "·", w[c], p->numeric[c] ? 1 : -1);
                    cli_buf_puts(b, " │");
                }
                cli_buf_putc(b, '\n');
            }
        }
        stored_row *r = shown_row(p, i);
        cli_buf_puts(b, "│");
        for (int32_t c = 0; c < n; c++) {
            cli_buf_putc(b, ' ');
            put_cell(b, r->cells[c], w[c], p->numeric[c] ? 1 : -1);
            cli_buf_puts(b, " │");
        }
        cli_buf_putc(b, '\n');
    }
    if (footer) {
        /* the footer row spans the table */
        size_t inner = 0;
        for (int32_t c = 0; c < n; c++) inner += w[c] + 3;
        inner -= 1;
        box_rule(b, w, n, "├", "┴", "┤");
        size_t lw = strlen(left), rw = strlen(right);
        cli_buf_puts(b, "│ ");
        if (lw + 2 + rw + 2 <= inner) {
            cli_buf_puts(b, left);
            put_repeat(b, " ", inner - 2 - lw - rw);
            cli_buf_puts(b, right);
        } else {
            put_cell(b, left, inner >= 2 ? inner - 2 : 0, -1);
        }
        cli_buf_puts(b, " │\n└");
        put_repeat(b, "─", inner);
        cli_buf_puts(b, "┘\n");
    } else {
        box_rule(b, w, n, "└", "┴", "┘");
    }
    free(w);
    return emit(p, b);
}

static int print_markdown(printer *p) {
    cli_buf *b = &p->line;
    size_t *w = calloc((size_t)p->n_cols + 1, sizeof(size_t));
    if (!w) return HUDI_ENOMEM;
    /* markdown is never narrowed: cells are not cut */
    int saved = p->sh->width;
    p->sh->width = 0;
    fit_widths(p, w, p->n_head, false);
    p->sh->width = saved;
    for (int32_t c = 0; c < p->n_cols; c++) {
        if (w[c] < 3) w[c] = 3;
        cli_buf_puts(b, "| ");
        cli_buf_clear(&p->tmp);
        put_visible(&p->tmp, p->names[c], strlen(p->names[c]), true);
        put_cell(b, p->tmp.data ? p->tmp.data : "", w[c], -1);
        cli_buf_putc(b, ' ');
    }
    cli_buf_puts(b, "|\n");
    for (int32_t c = 0; c < p->n_cols; c++) {
        cli_buf_putc(b, '|');
        put_repeat(b, "-", w[c] + 1);
        cli_buf_putc(b, p->numeric[c] ? ':' : '-');
    }
    cli_buf_puts(b, "|\n");
    for (size_t i = 0; i < p->n_head; i++) {
        for (int32_t c = 0; c < p->n_cols; c++) {
            cli_buf_puts(b, "| ");
            put_cell(b, p->head[i].cells[c], w[c], p->numeric[c] ? 1 : -1);
            cli_buf_putc(b, ' ');
        }
        cli_buf_puts(b, "|\n");
        if (b->len >= (1u << 16)) {
            int rc = emit(p, b);
            if (rc < 0) return free(w), rc;
        }
    }
    free(w);
    return emit(p, b);
}

/* ---- json and jsonl ---------------------------------------------------------------------- */

typedef struct json_out {
    FILE *out;
    bool array;     /* json mode: wrap the lines into one array */
    bool row_start; /* the next byte starts a row */
    int64_t rows;
    bool failed;
} json_out;

static int json_write(void *payload, const char *data, size_t len) {
    json_out *j = payload;
    if (!j->array) {
        if (fwrite(data, 1, len, j->out) != len) return j->failed = true, HUDI_EIO;
        return 0;
    }
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        if (j->row_start) {
            if (fwrite(j->rows ? ",\n" : "[", 1, j->rows ? 2 : 1, j->out) == 0)
                return j->failed = true, HUDI_EIO;
            j->row_start = false;
        }
        if (data[i] == '\n') {
            if (i > start && fwrite(data + start, 1, i - start, j->out) != i - start)
                return j->failed = true, HUDI_EIO;
            start = i + 1;
            j->rows++;
            j->row_start = true;
        }
    }
    if (len > start && fwrite(data + start, 1, len - start, j->out) != len - start)
        return j->failed = true, HUDI_EIO;
    return 0;
}

/* ---- the stream -------------------------------------------------------------------------- */

static int stream_error(struct ArrowArrayStream *st, int code, hudi_error *err) {
    const char *msg = st->get_last_error ? st->get_last_error(st) : NULL;
    int rc = code == ECANCELED ? HUDI_ECANCELED : HUDI_EIO;
    if (msg && strstr(msg, "cancel")) rc = HUDI_ECANCELED;
    return hudi_error_set(err, rc, "%s", msg && *msg ? msg : "reading the result failed");
}

static int setup_printer(printer *p, sql_shell *sh, const struct ArrowSchema *schema,
                         const char *statement) {
    memset(p, 0, sizeof(*p));
    p->sh = sh;
    p->only_col = -1;
    p->n_cols = (int32_t)schema->n_children;
    size_t n = (size_t)p->n_cols + 1;
    p->names = calloc(n, sizeof(char *));
    p->types = calloc(n, sizeof(char *));
    p->numeric = calloc(n, sizeof(bool));
    if (!p->names || !p->types || !p->numeric) return HUDI_ENOMEM;
    for (int32_t i = 0; i < p->n_cols; i++) {
        const struct ArrowSchema *c = schema->children[i];
        p->names[i] = strdup(c->name ? c->name : "");
        cli_buf_clear(&p->tmp);
        sql_type_name(&p->tmp, c);
        p->types[i] = strdup(p->tmp.data && !p->tmp.failed ? p->tmp.data : "");
        if (!p->names[i] || !p->types[i]) return HUDI_ENOMEM;
        p->numeric[i] = is_numeric_format(c->format);
        size_t w = text_width(p->names[i], strlen(p->names[i]));
        if (w > p->name_width) p->name_width = w;
    }
    if (sh->mode == SQL_MODE_SPARK) {
        /* spark-sql prints only the table names of SHOW TABLES, and DESCRIBE's three cells
         * left-justified to 20 characters (its Hive-compatible output). */
        if (statement && strncasecmp(statement, "SHOW TABLES", 11) == 0)
            for (int32_t i = 0; i < p->n_cols; i++)
                if (strcasecmp(p->names[i], "tableName") == 0) p->only_col = i;
        if (p->n_cols == 3 && strcmp(p->names[0], "col_name") == 0 &&
            strcmp(p->names[1], "data_type") == 0 && strcmp(p->names[2], "comment") == 0)
            p->pad20 = true;
    }
    if (sh->mode == SQL_MODE_BOX) {
        int64_t maxrows = sh->maxrows > 0 ? sh->maxrows : INT64_MAX;
        p->max_head = maxrows == INT64_MAX ? SIZE_MAX : (size_t)((maxrows + 1) / 2);
        p->max_tail = maxrows == INT64_MAX ? 0 : (size_t)(maxrows / 2);
        if (p->max_tail) {
            p->tail = calloc(p->max_tail, sizeof(stored_row));
            if (!p->tail) return HUDI_ENOMEM;
        }
    } else {
        p->max_head = SIZE_MAX;
    }
    return 0;
}

int sql_print_rows(sql_shell *sh, hudi_result *r, int64_t *rows, hudi_error *err) {
    struct ArrowArrayStream st;
    memset(&st, 0, sizeof(st));
    *rows = 0;
    int rc = hudi_result_stream(r, &st, err);
    if (rc < 0) return rc;
    struct ArrowSchema schema;
    memset(&schema, 0, sizeof(schema));
    int e = st.get_schema(&st, &schema);
    if (e != 0) {
        rc = stream_error(&st, e, err);
        st.release(&st);
        return rc;
    }
    printer p;
    hudi_json_writer *jw = NULL;
    json_out jo = {sh->out, sh->mode == SQL_MODE_JSON, true, 0, false};
    rc = setup_printer(&p, sh, &schema, hudi_result_statement(r));
    if (rc < 0) {
        hudi_error_set(err, rc, "out of memory");
        goto done;
    }
    if (sh->mode == SQL_MODE_JSON || sh->mode == SQL_MODE_JSONL) {
        rc = hudi_json_writer_new(&jw, &schema, json_write, &jo, err);
        if (rc < 0) goto done;
    } else {
        write_header(&p);
    }
    for (;;) {
        struct ArrowArray batch;
        memset(&batch, 0, sizeof(batch));
        e = st.get_next(&st, &batch);
        if (e != 0) {
            rc = stream_error(&st, e, err);
            goto done;
        }
        if (!batch.release) break;
        /* rows printed as they come take the line from the progress line */
        if (sh->mode != SQL_MODE_BOX && sh->mode != SQL_MODE_MARKDOWN)
            sql_progress_stop(&sh->progress);
        if (jw) {
            rc = hudi_json_writer_write(jw, &batch, 0, batch.length, err);
            p.rows += batch.length;
        } else {
            rc = hudi_session_render(sh->session, &schema, &batch, 0, batch.length, on_cell, &p,
                                     err);
            if (rc == 0) rc = emit(&p, &p.line);
            if (rc < 0 && err->code == 0)
                hudi_error_set(err, rc,
                               rc == HUDI_EIO ? "writing the output failed" : "out of memory");
        }
        batch.release(&batch);
        if (rc < 0) goto done;
    }
    sql_progress_stop(&sh->progress);
    if (jw) {
        rc = hudi_json_writer_flush(jw, err);
        if (rc == 0 && sh->mode == SQL_MODE_JSON) fputs(jo.rows ? "]\n" : "[]\n", sh->out);
    } else if (sh->mode == SQL_MODE_BOX) {
        rc = print_box(&p);
    } else if (sh->mode == SQL_MODE_MARKDOWN) {
        rc = print_markdown(&p);
    } else {
        rc = emit(&p, &p.line);
    }
    if (rc < 0 && err->code == 0)
        hudi_error_set(err, rc, rc == HUDI_EIO ? "writing the output failed" : "out of memory");
done:
    *rows = p.rows;
    hudi_json_writer_free(jw);
    printer_dispose(&p);
    if (schema.release) schema.release(&schema);
    st.release(&st);
    return rc;
}

/* ---- quiet queries for completion and dot commands --------------------------------------- */

typedef struct column_cb {
    int32_t col;
    void (*each)(void *payload, const char *text);
    void *payload;
} column_cb;

static int on_column_cell(void *payload, int64_t row, int32_t col, const char *text, size_t len,
                          bool is_null) {
    (void)row, (void)len;
    column_cb *cb = payload;
    if (col == cb->col && !is_null) cb->each(cb->payload, text);
    return 0;
}

int sql_query_column(hudi_session *s, const char *sql, const char *column,
                     void (*each)(void *payload, const char *text), void *payload) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_result *r = NULL;
    size_t used = 0;
    int rc = hudi_session_execute(s, sql, strlen(sql), &used, &r, &err);
    if (rc < 0 || !r) return rc < 0 ? rc : 0;
    if (!hudi_result_has_rows(r)) {
        hudi_result_free(r);
        return 0;
    }
    struct ArrowArrayStream st;
    memset(&st, 0, sizeof(st));
    rc = hudi_result_stream(r, &st, &err);
    if (rc < 0) {
        hudi_result_free(r);
        return rc;
    }
    struct ArrowSchema schema;
    memset(&schema, 0, sizeof(schema));
    if (st.get_schema(&st, &schema) != 0) {
        st.release(&st);
        hudi_result_free(r);
        return HUDI_EIO;
    }
    column_cb cb = {0, each, payload};
    if (column) {
        cb.col = -1;
        for (int64_t i = 0; i < schema.n_children; i++)
            if (strcasecmp(schema.children[i]->name, column) == 0) cb.col = (int32_t)i;
    }
    while (cb.col >= 0) {
        struct ArrowArray batch;
        memset(&batch, 0, sizeof(batch));
        if (st.get_next(&st, &batch) != 0) {
            rc = HUDI_EIO;
            break;
        }
        if (!batch.release) break;
        rc = hudi_session_render(s, &schema, &batch, 0, batch.length, on_column_cell, &cb, &err);
        batch.release(&batch);
        if (rc < 0) break;
    }
    schema.release(&schema);
    st.release(&st);
    hudi_result_free(r);
    return rc;
}
