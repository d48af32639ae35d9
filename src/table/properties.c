/* properties.c - hoodie.properties: the java.util.Properties text format (load and store),
 * the table checksum, the backup-file update protocol and the typed table config
 * (docs/formats/properties.md).
 *
 * Invariant: strings in a hudi_props are UTF-8. The file is ISO-8859-1 with \uXXXX escapes,
 * so loading maps each byte >= 0x80 to U+0080..U+00FF and joins surrogate escapes; storing
 * writes everything outside 0x20..0x7E as \uXXXX, as Properties.store() does. */
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <time.h>

#include "table/table.h"

/* ---- clock ---------------------------------------------------------------------------- */

int64_t hudi_clock_now_ms(const hudi_clock *clock) {
    if (clock && clock->now_ms) return clock->now_ms(clock->payload);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- the ordered map ------------------------------------------------------------------ */

static hudi_prop *find_prop(const hudi_props *p, const char *key) {
    for (size_t i = 0; i < p->count; i++)
        if (strcmp(p->items[i].key, key) == 0) return &p->items[i];
    return NULL;
}

const char *hudi_props_get(const hudi_props *p, const char *key) {
    hudi_prop *e = find_prop(p, key);
    return e ? e->value : NULL;
}

const char *hudi_props_setting(const hudi_props *p, const char *const *kv, const char *key) {
    const char *v = NULL;
    for (size_t i = 0; kv && kv[i] && kv[i + 1]; i += 2)
        if (strcmp(kv[i], key) == 0) v = kv[i + 1];
    return v || !p ? v : hudi_props_get(p, key);
}

/* Takes ownership of key and value (frees them on failure). */
static int put_owned(hudi_props *p, char *key, char *value, hudi_error *err) {
    hudi_prop *e = find_prop(p, key);
    if (e) {
        hudi_free(key);
        hudi_free(e->value);
        e->value = value;
        return 0;
    }
    if (p->count == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 16;
        hudi_prop *items = hudi_realloc(p->items, cap * sizeof(*items));
        if (!items) {
            hudi_free(key);
            hudi_free(value);
            return hudi_error_oom(err);
        }
        p->items = items;
        p->cap = cap;
    }
    p->items[p->count++] = (hudi_prop){key, value};
    return 0;
}

int hudi_props_set(hudi_props *p, const char *key, const char *value, hudi_error *err) {
    char *k = hudi_strdup(key), *v = hudi_strdup(value);
    if (!k || !v) {
        hudi_free(k);
        hudi_free(v);
        return hudi_error_oom(err);
    }
    return put_owned(p, k, v, err);
}

bool hudi_props_unset(hudi_props *p, const char *key) {
    hudi_prop *e = find_prop(p, key);
    if (!e) return false;
    hudi_free(e->key);
    hudi_free(e->value);
    size_t i = (size_t)(e - p->items);
    memmove(&p->items[i], &p->items[i + 1], (p->count - i - 1) * sizeof(*e));
    p->count--;
    return true;
}

void hudi_props_dispose(hudi_props *p) {
    for (size_t i = 0; i < p->count; i++) {
        hudi_free(p->items[i].key);
        hudi_free(p->items[i].value);
    }
    hudi_free(p->items);
    *p = (hudi_props)HUDI_PROPS_INIT;
}

int hudi_props_get_int(const hudi_props *p, const char *key, int64_t dflt, int64_t *out,
                       hudi_error *err) {
    const char *v = hudi_props_get(p, key);
    if (!v) {
        *out = dflt;
        return 0;
    }
    /* Integer.parseInt: optional sign, decimal digits, nothing else (no spaces). */
    const char *s = v + (*v == '-' || *v == '+');
    if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 18)
        return hudi_error_set(err, HUDI_ECORRUPT, "%s=%s: not an integer", key, v);
    *out = strtoll(v, NULL, 10);
    return 0;
}

int hudi_props_get_bool(const hudi_props *p, const char *key, bool dflt, bool *out,
                        hudi_error *err) {
    const char *v = hudi_props_get(p, key);
    if (!v)
        *out = dflt;
    else if (strcasecmp(v, "true") == 0)
        *out = true;
    else if (strcasecmp(v, "false") == 0)
        *out = false;
    /* Java's parseBoolean reads anything else as false; Hudi never writes anything else, so
     * another value means a hand-edited or damaged file: say so. */
    else
        return hudi_error_set(err, HUDI_ECORRUPT, "%s=%s: not a boolean", key, v);
    return 0;
}

/* ---- load: Properties.load grammar ------------------------------------------------------ */

/* Code units (UTF-16, as Java holds them) of one logical line, after line joining. */
typedef struct line_buf {
    uint16_t *u;
    size_t len, cap;
} line_buf;

static int line_push(line_buf *l, uint16_t c) {
    if (l->len == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 256;
        uint16_t *u = hudi_realloc(l->u, cap * sizeof(*u));
        if (!u) return HUDI_ENOMEM;
        l->u = u;
        l->cap = cap;
    }
    l->u[l->len++] = c;
    return 0;
}

static bool is_ws(uint16_t c) { return c == ' ' || c == '\t' || c == '\f'; }

static int hexval(uint16_t c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Properties.loadConvert of u[0..n): backslash escapes to UTF-16 units, then UTF-8. */
static int load_convert(char **out, const uint16_t *u, size_t n, const char *path, size_t line,
                        hudi_error *err) {
    uint16_t *units = hudi_malloc((n ? n : 1) * sizeof(*units));
    if (!units) return hudi_error_oom(err);
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        uint16_t c = u[i++];
        if (c != '\\' || i == n) {
            /* A lone trailing backslash was dropped by the line reader; keep it if present. */
            if (c == '\\' && i == n) continue;
            units[k++] = c;
            continue;
        }
        c = u[i++];
        if (c == 'u') {
            uint16_t v = 0;
            for (int d = 0; d < 4; d++) {
                int h = i < n ? hexval(u[i]) : -1;
                if (h < 0) {
                    hudi_free(units);
                    return hudi_error_set(err, HUDI_ECORRUPT,
                                          "%s: line %zu: malformed \\uxxxx encoding", path, line);
                }
                v = (uint16_t)(v << 4 | (uint16_t)h);
                i++;
            }
            units[k++] = v;
        } else {
            units[k++] = c == 't' ? '\t' : c == 'r' ? '\r' : c == 'n' ? '\n' : c == 'f' ? '\f' : c;
        }
    }
    hudi_buf b = HUDI_BUF_INIT;
    hudi_buf_grow(&b, k * 3);
    for (size_t i = 0; i < k; i++) {
        uint32_t cp = units[i];
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < k && units[i + 1] >= 0xDC00 &&
            units[i + 1] <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (units[i + 1] - 0xDC00u);
            i++;
        } else if (cp >= 0xD800 && cp <= 0xDFFF) {
            cp = 0xFFFD; /* a lone surrogate has no UTF-8 form */
        }
        hudi_buf_put_utf8(&b, cp);
    }
    hudi_free(units);
    hudi_buf_append(&b, "", 0); /* grow() alone does not NUL-terminate */
    if (hudi_buf_failed(&b)) {
        hudi_buf_dispose(&b);
        return hudi_error_oom(err);
    }
    *out = hudi_buf_detach(&b);
    return 0;
}

/* Properties.load0 for one logical line: split key and value, unescape both. */
static int load_pair(hudi_props *out, const line_buf *l, const char *path, size_t line,
                     hudi_error *err) {
    size_t limit = l->len, key_len = 0, value_start = limit;
    bool has_sep = false, backslash = false;
    while (key_len < limit) {
        uint16_t c = l->u[key_len];
        if ((c == '=' || c == ':') && !backslash) {
            value_start = key_len + 1;
            has_sep = true;
            break;
        }
        if (is_ws(c) && !backslash) {
            value_start = key_len + 1;
            break;
        }
        backslash = c == '\\' ? !backslash : false;
        key_len++;
    }
    while (value_start < limit) {
        uint16_t c = l->u[value_start];
        if (!is_ws(c)) {
            if (!has_sep && (c == '=' || c == ':'))
                has_sep = true;
            else
                break;
        }
        value_start++;
    }
    char *key = NULL, *value = NULL;
    int rc = load_convert(&key, l->u, key_len, path, line, err);
    if (rc == 0)
        rc = load_convert(&value, l->u + value_start, limit - value_start, path, line, err);
    if (rc < 0) {
        hudi_free(key);
        return rc;
    }
    return put_owned(out, key, value, err);
}

/* Java's LineReader over ISO-8859-1 bytes: joins continuation lines, drops comments and blank
 * lines, skips leading whitespace of every natural line. */
typedef struct line_reader {
    const uint8_t *p;
    size_t len, off;
    size_t counted_off, line; /* line = 1 + line terminators in p[0, counted_off) */
} line_reader;

static size_t line_at(line_reader *r, size_t off) {
    for (; r->counted_off < off; r->counted_off++) {
        uint8_t c = r->p[r->counted_off];
        if (c == '\n' ||
            (c == '\r' && (r->counted_off + 1 >= r->len || r->p[r->counted_off + 1] != '\n')))
            r->line++;
    }
    return r->line;
}

/* 1 with a logical line in `l` (and its first line number), 0 at the end, ENOMEM. */
static int read_logical_line(line_reader *r, line_buf *l, size_t *start_line) {
    bool skip_ws = true, comment = false, new_line = true, appended = false;
    bool backslash = false, skip_lf = false;
    l->len = 0;
    for (;;) {
        if (r->off >= r->len) {
            if (l->len == 0 || comment) return 0;
            if (backslash) l->len--;
            return 1;
        }
        uint8_t c = r->p[r->off++];
        if (skip_lf) {
            skip_lf = false;
            if (c == '\n') continue;
        }
        if (skip_ws) {
            if (is_ws(c)) continue;
            if (!appended && (c == '\r' || c == '\n')) continue;
            skip_ws = false;
            appended = false;
        }
        if (new_line) {
            new_line = false;
            *start_line = line_at(r, r->off - 1);
            if (c == '#' || c == '!') {
                comment = true;
                continue;
            }
        }
        if (c != '\n' && c != '\r') {
            if (line_push(l, c) < 0) return HUDI_ENOMEM;
            backslash = c == '\\' ? !backslash : false;
            continue;
        }
        if (comment || l->len == 0) {
            comment = false;
            new_line = true;
            skip_ws = true;
            l->len = 0;
            continue;
        }
        if (!backslash) return 1;
        /* An odd run of backslashes: drop one and join the next natural line. */
        l->len--;
        skip_ws = true;
        appended = true;
        backslash = false;
        skip_lf = c == '\r';
    }
}

int hudi_props_parse(hudi_props *out, hudi_slice text, const char *path, hudi_error *err) {
    if (!path) path = HUDI_PROPS_FILE;
    line_reader r = {text.data, text.len, 0, 0, 1};
    line_buf l = {0};
    size_t line = 0;
    int rc;
    while ((rc = read_logical_line(&r, &l, &line)) == 1)
        if ((rc = load_pair(out, &l, path, line, err)) < 0) break;
    if (rc == HUDI_ENOMEM) hudi_error_oom(err);
    hudi_free(l.u);
    return rc < 0 ? rc : 0;
}

/* ---- store: Properties.store / saveConvert ---------------------------------------------- */

/* Next code point of UTF-8 `s`; an invalid byte reads as the Latin-1 char of that byte. */
static uint32_t next_cp(const unsigned char **s) {
    const unsigned char *p = *s;
    uint32_t c = p[0];
    int n = c >= 0xF0 && c < 0xF5 ? 3 : c >= 0xE0 ? 2 : c >= 0xC2 && c < 0xE0 ? 1 : 0;
    if (c >= 0xF5) n = 0;
    uint32_t cp = n == 3 ? c & 0x07 : n == 2 ? c & 0x0F : n == 1 ? c & 0x1F : c;
    for (int i = 1; i <= n; i++) {
        if ((p[i] & 0xC0) != 0x80) {
            *s = p + 1;
            return c;
        }
        cp = cp << 6 | (p[i] & 0x3F);
    }
    *s = p + 1 + n;
    return cp;
}

static void put_u_escape(hudi_buf *b, uint32_t unit) {
    static const char hex[] = "0123456789ABCDEF";
    char s[6] = {'\\',          'u', hex[unit >> 12 & 15], hex[unit >> 8 & 15], hex[unit >> 4 & 15],
                 hex[unit & 15]};
    hudi_buf_append(b, s, 6);
}

static void save_convert(hudi_buf *b, const char *str, bool escape_space) {
    const unsigned char *s = (const unsigned char *)str;
    bool first = true;
    while (*s) {
        uint32_t c = next_cp(&s);
        switch (c) {
        case ' ': hudi_buf_puts(b, first || escape_space ? "\\ " : " "); break;
        case '\t': hudi_buf_puts(b, "\\t"); break;
        case '\n': hudi_buf_puts(b, "\\n"); break;
        case '\r': hudi_buf_puts(b, "\\r"); break;
        case '\f': hudi_buf_puts(b, "\\f"); break;
        case '=':
        case ':':
        case '#':
        case '!':
        case '\\':
            hudi_buf_putc(b, '\\');
            hudi_buf_putc(b, (char)c);
            break;
        default:
            if (c < 0x20 || c > 0x7E) {
                if (c > 0xFFFF) {
                    c -= 0x10000;
                    put_u_escape(b, 0xD800 + (c >> 10));
                    put_u_escape(b, 0xDC00 + (c & 0x3FF));
                } else {
                    put_u_escape(b, c);
                }
            } else {
                hudi_buf_putc(b, (char)c);
            }
        }
        first = false;
    }
}

/* java.util.Date.toString(): "EEE MMM dd HH:mm:ss zzz yyyy" in the local zone. */
static void put_java_date(hudi_buf *b, int64_t now_ms) {
    time_t t = (time_t)(now_ms / 1000);
    struct tm tm;
    char s[64];
    if (!localtime_r(&t, &tm) || !strftime(s, sizeof(s), "%a %b %d %H:%M:%S %Z %Y", &tm)) return;
    hudi_buf_puts(b, s);
}

/* java.time.Instant.toString() at millisecond precision: 2024-04-18T22:27:38.493Z. */
static void put_java_instant(hudi_buf *b, int64_t now_ms) {
    time_t t = (time_t)(now_ms / 1000);
    struct tm tm;
    char s[64];
    if (!gmtime_r(&t, &tm) || !strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S", &tm)) return;
    hudi_buf_puts(b, s);
    if (now_ms % 1000) hudi_buf_printf(b, ".%03d", (int)(now_ms % 1000));
    hudi_buf_putc(b, 'Z');
}

int hudi_props_serialize(const hudi_props *p, const char *comment, int64_t now_ms, hudi_buf *out,
                         hudi_error *err) {
    if (comment) {
        hudi_buf_putc(out, '#');
        hudi_buf_puts(out, comment);
        hudi_buf_putc(out, '\n');
    }
    hudi_buf_putc(out, '#');
    put_java_date(out, now_ms);
    hudi_buf_putc(out, '\n');
    for (size_t i = 0; i < p->count; i++) {
        save_convert(out, p->items[i].key, true);
        hudi_buf_putc(out, '=');
        save_convert(out, p->items[i].value, false);
        hudi_buf_putc(out, '\n');
    }
    return hudi_buf_failed(out) ? hudi_error_oom(err) : 0;
}

/* ---- checksum (§3) -------------------------------------------------------------------------- */

#define KEY_NAME "hoodie.table.name"
#define KEY_DATABASE "hoodie.database.name"
#define KEY_CHECKSUM "hoodie.table.checksum"

int hudi_props_compute_checksum(const hudi_props *p, uint32_t *out, hudi_error *err) {
    const char *name = hudi_props_get(p, KEY_NAME);
    const char *db = hudi_props_get(p, KEY_DATABASE);
    if (!name) return hudi_error_set(err, HUDI_EINVAL, "%s is not set", KEY_NAME);
    if (!db) db = "";
    uint32_t crc = hudi_crc32(0, db, strlen(db));
    crc = hudi_crc32(crc, ".", 1);
    *out = hudi_crc32(crc, name, strlen(name));
    return 0;
}

int hudi_props_verify_checksum(const hudi_props *p, hudi_error *err) {
    const char *stored = hudi_props_get(p, KEY_CHECKSUM);
    if (!stored) return hudi_error_set(err, HUDI_ENOTFOUND, "%s is not set", KEY_CHECKSUM);
    int64_t v;
    uint32_t want;
    int rc = hudi_props_get_int(p, KEY_CHECKSUM, 0, &v, err);
    if (rc < 0) return rc;
    if ((rc = hudi_props_compute_checksum(p, &want, err)) < 0)
        return hudi_error_set(err, HUDI_ECORRUPT, "%s is not set", KEY_NAME);
    if (v != (int64_t)want)
        return hudi_error_set(err, HUDI_ECORRUPT, "%s=%s does not match the table name (want %u)",
                              KEY_CHECKSUM, stored, want);
    return 0;
}

int hudi_props_update_checksum(hudi_props *p, hudi_error *err) {
    uint32_t crc;
    char s[16];
    int rc = hudi_props_compute_checksum(p, &crc, err);
    if (rc < 0) return rc;
    snprintf(s, sizeof(s), "%u", crc);
    hudi_props_unset(p, KEY_CHECKSUM);
    return hudi_props_set(p, KEY_CHECKSUM, s, err);
}

/* ---- load, recover, store (§5) -------------------------------------------------------------- */

static int meta_file_path(hudi_buf *out, const char *base_path, const char *file) {
    hudi_buf_clear(out);
    hudi_buf_printf(out, "%s/%s/%s", base_path, HUDI_META_DIR, file);
    return hudi_buf_failed(out) ? HUDI_ENOMEM : 0;
}

/* Reads and parses one file; with `require_checksum` a missing checksum is invalid too. */
static int read_props_file(hudi_props *out, hudi_fs *fs, const char *path, bool require_checksum,
                           hudi_error *err) {
    hudi_buf text = HUDI_BUF_INIT;
    hudi_props_dispose(out);
    int rc = hudi_fs_read_all(fs, path, &text, err);
    if (rc == 0) rc = hudi_props_parse(out, HUDI_SLICE(text.data, text.len), path, err);
    if (rc == 0) {
        rc = hudi_props_verify_checksum(out, err);
        if (rc == HUDI_ENOTFOUND)
            rc = require_checksum ? hudi_error_set(err, HUDI_ECORRUPT,
                                                   "%s: hoodie.table.checksum is missing", path)
                                  : 0;
        else if (rc < 0)
            rc = hudi_error_wrap(err, "%s", path);
    }
    hudi_buf_dispose(&text);
    if (rc < 0) hudi_props_dispose(out);
    return rc;
}

int hudi_props_load(hudi_props *out, hudi_fs *fs, const char *base_path, hudi_error *err) {
    hudi_buf path = HUDI_BUF_INIT;
    hudi_error main_err = HUDI_ERROR_INIT;
    int rc, main_rc;
    if (meta_file_path(&path, base_path, HUDI_PROPS_FILE) < 0) {
        rc = hudi_error_oom(err);
        goto done;
    }
    /* As Hudi's fetchConfigs: the main file, then the backup (an update may be under way). */
    main_rc = rc = read_props_file(out, fs, path.data, false, &main_err);
    if (rc == 0 || rc == HUDI_ENOMEM) goto done;
    if (meta_file_path(&path, base_path, HUDI_PROPS_BACKUP_FILE) < 0) {
        rc = hudi_error_oom(err);
        goto done;
    }
    rc = read_props_file(out, fs, path.data, false, err);
    if (rc == 0 || rc == HUDI_ENOMEM) goto done;
    if (main_rc == HUDI_ENOTFOUND && rc == HUDI_ENOTFOUND)
        rc = hudi_error_set(err, HUDI_ENOTFOUND, "%s/%s/%s: no such file (not a Hudi table?)",
                            base_path, HUDI_META_DIR, HUDI_PROPS_FILE);
    else if (main_rc != HUDI_ENOTFOUND) {
        /* The main file's problem is the one to report. */
        rc = main_rc;
        if (err) *err = main_err;
    }
done:
    if (rc == HUDI_ENOMEM && main_err.code == HUDI_ENOMEM && err) *err = main_err;
    hudi_buf_dispose(&path);
    return rc;
}

static int remove_if_exists(hudi_fs *fs, const char *path, hudi_error *err) {
    int rc = hudi_fs_remove(fs, path, err);
    if (rc == HUDI_ENOTFOUND) {
        hudi_error_clear(err);
        rc = 0;
    }
    return rc;
}

int hudi_props_recover(hudi_fs *fs, const char *base_path, hudi_error *err) {
    hudi_buf main_path = HUDI_BUF_INIT, backup_path = HUDI_BUF_INIT, bytes = HUDI_BUF_INIT;
    hudi_props probe = HUDI_PROPS_INIT;
    int rc = 0;
    if (meta_file_path(&main_path, base_path, HUDI_PROPS_FILE) < 0 ||
        meta_file_path(&backup_path, base_path, HUDI_PROPS_BACKUP_FILE) < 0) {
        rc = hudi_error_oom(err);
        goto done;
    }
    bool need_copy = false;
    rc = read_props_file(&probe, fs, main_path.data, true, err);
    hudi_props_dispose(&probe);
    if (rc == HUDI_ENOTFOUND || rc == HUDI_ECORRUPT) {
        need_copy = true;
        if (rc == HUDI_ECORRUPT && (rc = hudi_fs_remove(fs, main_path.data, err)) < 0) goto done;
        rc = 0;
    } else if (rc < 0) {
        goto done;
    }
    if (need_copy) {
        rc = hudi_fs_read_all(fs, backup_path.data, &bytes, err);
        if (rc == HUDI_ENOTFOUND) {
            hudi_error_clear(err);
            rc = 0;
            goto done; /* nothing to recover from */
        }
        if (rc < 0) goto done;
        rc = read_props_file(&probe, fs, backup_path.data, true, err);
        hudi_props_dispose(&probe);
        if (rc == HUDI_ECORRUPT) {
            /* As Hudi: a bad backup is useless to readers; drop it and fail. */
            remove_if_exists(fs, backup_path.data, NULL);
            goto done;
        }
        if (rc < 0) goto done;
        rc = hudi_fs_write_all(fs, main_path.data, HUDI_CREATE_OVERWRITE, bytes.data, bytes.len,
                               err);
        if (rc < 0) goto done;
    }
    rc = remove_if_exists(fs, backup_path.data, err);
done:
    hudi_buf_dispose(&main_path);
    hudi_buf_dispose(&backup_path);
    hudi_buf_dispose(&bytes);
    return rc;
}

/* Serializes like Hudi's storeProperties: "Updated at" when the checksum is already right,
 * else "Properties saved on" with a fresh checksum last. */
static int render_props(hudi_buf *out, hudi_props *p, int64_t now_ms, hudi_error *err) {
    hudi_buf comment = HUDI_BUF_INIT;
    bool valid = hudi_props_verify_checksum(p, NULL) == 0;
    int rc = valid ? 0 : hudi_props_update_checksum(p, err);
    if (rc < 0) return rc;
    hudi_buf_puts(&comment, valid ? "Updated at " : "Properties saved on ");
    put_java_instant(&comment, now_ms);
    rc = hudi_buf_failed(&comment) ? hudi_error_oom(err)
                                   : hudi_props_serialize(p, comment.data, now_ms, out, err);
    hudi_buf_dispose(&comment);
    return rc;
}

int hudi_props_store(hudi_props *p, hudi_fs *fs, const char *base_path, const hudi_clock *clock,
                     hudi_error *err) {
    hudi_buf main_path = HUDI_BUF_INIT, backup_path = HUDI_BUF_INIT, text = HUDI_BUF_INIT;
    hudi_buf check = HUDI_BUF_INIT;
    hudi_props current = HUDI_PROPS_INIT, reread = HUDI_PROPS_INIT;
    int64_t now_ms = hudi_clock_now_ms(clock);
    int rc;
    if (meta_file_path(&main_path, base_path, HUDI_PROPS_FILE) < 0 ||
        meta_file_path(&backup_path, base_path, HUDI_PROPS_BACKUP_FILE) < 0) {
        rc = hudi_error_oom(err);
        goto done;
    }
    if (!hudi_fs_exists(fs, main_path.data) && !hudi_fs_exists(fs, backup_path.data)) {
        /* A new table: nothing to protect; the writer publishes atomically, and EXCLUSIVE
         * refuses to clobber a file that a failed existence check missed. */
        rc = render_props(&text, p, now_ms, err);
        if (rc == 0)
            rc = hudi_fs_write_all(fs, main_path.data, HUDI_CREATE_EXCLUSIVE, text.data, text.len,
                                   err);
        goto done;
    }
    /* 0. Finish or undo an earlier interrupted update; 1. read the existing config. */
    if ((rc = hudi_props_recover(fs, base_path, err)) < 0) goto done;
    if ((rc = hudi_props_load(&current, fs, base_path, err)) < 0) goto done;
    /* 2. Back up the existing config. */
    if ((rc = render_props(&text, &current, now_ms, err)) < 0) goto done;
    rc = hudi_fs_write_all(fs, backup_path.data, HUDI_CREATE_OVERWRITE, text.data, text.len, err);
    if (rc < 0) goto done;
    /* 3. Remove the main file: readers now use the backup. Also its Hadoop checksum file
     * (.hoodie.properties.crc, left by Spark's local file system), as Hadoop's delete does:
     * a stale one makes Spark fail to load the new file. */
    if ((rc = hudi_fs_remove(fs, main_path.data, err)) < 0) goto done;
    if ((rc = meta_file_path(&check, base_path, "." HUDI_PROPS_FILE ".crc")) < 0) {
        rc = hudi_error_oom(err);
        goto done;
    }
    if (hudi_fs_exists(fs, check.data) && (rc = hudi_fs_remove(fs, check.data, err)) < 0) goto done;
    hudi_buf_clear(&check);
    /* 4. Write the new config (render_props recomputes a stale checksum). */
    hudi_buf_clear(&text);
    if ((rc = render_props(&text, p, now_ms, err)) < 0) goto done;
    rc = hudi_fs_write_all(fs, main_path.data, HUDI_CREATE_EXCLUSIVE, text.data, text.len, err);
    if (rc < 0) goto done;
    /* 5. Verify what landed, then drop the backup. */
    if ((rc = hudi_fs_read_all(fs, main_path.data, &check, err)) < 0) goto done;
    if ((rc = hudi_props_parse(&reread, HUDI_SLICE(check.data, check.len), main_path.data, err)) <
        0)
        goto done;
    const char *got = hudi_props_get(&reread, KEY_CHECKSUM);
    if (!got || strcmp(got, hudi_props_get(p, KEY_CHECKSUM)) != 0) {
        remove_if_exists(fs, main_path.data, NULL);
        rc = hudi_error_set(err, HUDI_EIO, "%s: checksum missing or wrong after write",
                            main_path.data);
        goto done;
    }
    rc = remove_if_exists(fs, backup_path.data, err);
done:
    hudi_props_dispose(&current);
    hudi_props_dispose(&reread);
    hudi_buf_dispose(&main_path);
    hudi_buf_dispose(&backup_path);
    hudi_buf_dispose(&text);
    hudi_buf_dispose(&check);
    return rc;
}

/* ---- typed config (§4) ---------------------------------------------------------------------- */

static const char *get_or(const hudi_props *p, const char *key, const char *dflt) {
    const char *v = hudi_props_get(p, key);
    return v ? v : dflt;
}

static int parse_version(hudi_table_config *c, const hudi_props *p, const char *path,
                         hudi_error *err) {
    int64_t version, layout;
    int rc;
    if (!hudi_props_get(p, "hoodie.table.version"))
        return hudi_error_set(err, HUDI_ECORRUPT, "%s: hoodie.table.version is not set", path);
    if ((rc = hudi_props_get_int(p, "hoodie.table.version", 0, &version, err)) < 0 ||
        (rc = hudi_props_get_int(p, "hoodie.timeline.layout.version", -1, &layout, err)) < 0)
        return hudi_error_wrap(err, "%s", path), rc;
    /* 5 (0.11-0.13) and 6 (0.14-0.15) share timeline layout 1 with JSON commit metadata;
     * 8 (1.0) and 9 (1.1) use layout 2. 7 was a 1.0 beta format; older ones predate
     * features hudic relies on. */
    if (version != 5 && version != 6 && version != 8 && version != 9)
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "table %s has version %lld; hudic reads table versions 5, 6, 8 and 9",
                              get_or(p, KEY_NAME, "?"), (long long)version);
    int want = version >= 8 ? 2 : 1;
    if (layout == -1) layout = want;
    if (layout != want)
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "table %s: timeline layout version %lld with table version %lld",
                              get_or(p, KEY_NAME, "?"), (long long)layout, (long long)version);
    c->version = (int)version;
    c->timeline_layout = (int)layout;
    return 0;
}

int hudi_table_config_from_props(hudi_table_config *out, const hudi_props *p, const char *path,
                                 hudi_error *err) {
    hudi_table_config c;
    memset(&c, 0, sizeof(c));
    if (!path) path = HUDI_PROPS_FILE;
    int rc;
    if (!(c.name = hudi_props_get(p, KEY_NAME)) || !*c.name)
        return hudi_error_set(err, HUDI_ECORRUPT, "%s: %s is not set", path, KEY_NAME);
    c.database = hudi_props_get(p, KEY_DATABASE);
    const char *type = get_or(p, "hoodie.table.type", "COPY_ON_WRITE");
    if (strcasecmp(type, "COPY_ON_WRITE") == 0)
        c.type = HUDI_COPY_ON_WRITE;
    else if (strcasecmp(type, "MERGE_ON_READ") == 0)
        c.type = HUDI_MERGE_ON_READ;
    else
        return hudi_error_set(err, HUDI_ECORRUPT, "%s: unknown hoodie.table.type %s", path, type);
    if ((rc = parse_version(&c, p, path, err)) < 0) return rc;
    c.timeline_path = c.timeline_layout == 2 ? get_or(p, "hoodie.timeline.path", "timeline") : NULL;
    c.record_key_fields = hudi_props_get(p, "hoodie.table.recordkey.fields");
    c.partition_fields = hudi_props_get(p, "hoodie.table.partition.fields");
    if (c.partition_fields && !*c.partition_fields) c.partition_fields = NULL;
    c.precombine_field = hudi_props_get(p, "hoodie.table.precombine.field");
    if (!c.precombine_field) c.precombine_field = hudi_props_get(p, "hoodie.table.ordering.fields");
    c.keygen_class = hudi_props_get(p, "hoodie.table.keygenerator.class");
    c.keygen_type = hudi_props_get(p, "hoodie.table.keygenerator.type");
    c.base_file_format = get_or(p, "hoodie.table.base.file.format", "PARQUET");
    c.create_schema = hudi_props_get(p, "hoodie.table.create.schema");
    c.metadata_partitions = get_or(p, "hoodie.table.metadata.partitions", "");
    c.payload_class = hudi_props_get(p, "hoodie.compaction.payload.class");
    c.merge_mode = hudi_props_get(p, "hoodie.record.merge.mode");
    const char *tz = get_or(p, "hoodie.table.timeline.timezone", "LOCAL");
    if (strcasecmp(tz, "UTC") == 0)
        c.timeline_utc = true;
    else if (strcasecmp(tz, "LOCAL") != 0)
        return hudi_error_set(err, HUDI_ECORRUPT, "%s: unknown hoodie.table.timeline.timezone %s",
                              path, tz);
    if ((rc = hudi_props_get_bool(p, "hoodie.populate.meta.fields", true, &c.populate_meta_fields,
                                  err)) < 0 ||
        (rc = hudi_props_get_bool(p, "hoodie.datasource.write.hive_style_partitioning", false,
                                  &c.hive_style_partitioning, err)) < 0 ||
        (rc = hudi_props_get_bool(p, "hoodie.datasource.write.partitionpath.urlencode", false,
                                  &c.url_encode_partitions, err)) < 0 ||
        (rc = hudi_props_get_bool(p, "hoodie.datasource.write.drop.partition.columns", false,
                                  &c.drop_partition_columns, err)) < 0)
        return hudi_error_wrap(err, "%s", path), rc;
    *out = c;
    return 0;
}

int hudi_table_config_check_readable(const hudi_table_config *c, hudi_error *err) {
    if (strcasecmp(c->base_file_format, "PARQUET") != 0)
        return hudi_error_set(err, HUDI_EUNSUPPORTED, "table %s: unsupported base file format %s",
                              c->name, c->base_file_format);
    return 0;
}

bool hudi_table_config_has_metadata_partition(const hudi_table_config *c, const char *partition) {
    size_t n = strlen(partition);
    for (const char *s = c->metadata_partitions; s && *s;) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        if (len == n && memcmp(s, partition, n) == 0) return true;
        s = comma ? comma + 1 : NULL;
    }
    return false;
}
