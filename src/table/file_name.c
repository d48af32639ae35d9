/* file_name.c - Hudi data file names (docs/formats/file-names.md §4-6): base files
 * `<fileId>_<writeToken>_<instant>.<ext>` and log files
 * `.<fileId>_<instant>.log.<version>_<writeToken>`, plus write tokens and new file ids.
 *
 * Invariant: a name accepted here is accepted by Hudi 0.14/0.15 with the same parts (its base
 * file regex and its log file regex, including the regex's greedy choices), and every name
 * formatted here parses back to the parts it was made from. Parsed parts are slices of the
 * caller's string: parsing never allocates. */
#include <errno.h>
#include <stdio.h>
#include <sys/random.h>

#include "table/table.h"

static bool is_alnum(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_id_char(char c) { return is_alnum(c) || c == '-'; }

/* True if s[0..n) is non-empty and every byte satisfies pred. */
static bool all_of(const char *s, size_t n, bool (*pred)(char)) {
    if (n == 0) return false;
    for (size_t i = 0; i < n; i++)
        if (!pred(s[i])) return false;
    return true;
}

static hudi_base_format format_of(const char *ext, size_t n) {
    static const struct {
        const char *ext;
        hudi_base_format f;
    } known[] = {{"parquet", HUDI_BASE_FORMAT_PARQUET},
                 {"orc", HUDI_BASE_FORMAT_ORC},
                 {"hfile", HUDI_BASE_FORMAT_HFILE},
                 {"lance", HUDI_BASE_FORMAT_LANCE}};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(known); i++)
        if (strlen(known[i].ext) == n && memcmp(known[i].ext, ext, n) == 0) return known[i].f;
    return HUDI_BASE_FORMAT_OTHER;
}

const char *hudi_base_format_name(hudi_base_format f) {
    switch (f) {
    case HUDI_BASE_FORMAT_PARQUET: return "parquet";
    case HUDI_BASE_FORMAT_ORC: return "orc";
    case HUDI_BASE_FORMAT_HFILE: return "hfile";
    case HUDI_BASE_FORMAT_LANCE: return "lance";
    default: return "other";
    }
}

int hudi_base_format_require_parquet(hudi_base_format f, const char *path, hudi_error *err) {
    if (f == HUDI_BASE_FORMAT_PARQUET) return 0;
    return hudi_error_set(err, HUDI_EUNSUPPORTED, "unsupported base file format '%s': %s",
                          hudi_base_format_name(f), path);
}

/* Hudi's rule: [a-zA-Z0-9-]+_[a-zA-Z0-9-]+_[0-9]+\.[a-zA-Z0-9]+ as a whole match. Since no part
 * may contain '_' or '.', the split is unique. */
bool hudi_base_file_name_parse(hudi_base_file_name *out, const char *name) {
    const char *u1 = strchr(name, '_');
    if (!u1) return false;
    const char *u2 = strchr(u1 + 1, '_');
    if (!u2) return false;
    const char *dot = strchr(u2 + 1, '.');
    if (!dot) return false;
    size_t n_id = (size_t)(u1 - name), n_tok = (size_t)(u2 - u1 - 1);
    size_t n_inst = (size_t)(dot - u2 - 1), n_ext = strlen(dot + 1);
    if (!all_of(name, n_id, is_id_char) || !all_of(u1 + 1, n_tok, is_id_char) ||
        !all_of(u2 + 1, n_inst, is_digit) || !all_of(dot + 1, n_ext, is_alnum))
        return false;
    out->file_id = HUDI_SLICE(name, n_id);
    out->write_token = HUDI_SLICE(u1 + 1, n_tok);
    out->instant = HUDI_SLICE(u2 + 1, n_inst);
    out->ext = HUDI_SLICE(dot + 1, n_ext);
    out->format = format_of(dot + 1, n_ext);
    return true;
}

/* Matches "\.(log|archive)\.(\d+)" at s; on success sets the extension kind and returns the
 * position just after ".log." / ".archive." (where the digits start). */
static const char *match_ext(const char *s, bool *is_archive) {
    if (strncmp(s, ".log.", 5) == 0 && is_digit(s[5])) {
        *is_archive = false;
        return s + 5;
    }
    if (strncmp(s, ".archive.", 9) == 0 && is_digit(s[9])) {
        *is_archive = true;
        return s + 9;
    }
    return NULL;
}

/* Hudi 0.14's LOG_FILE_PATTERN, used with Matcher.find() (anchored at the start only):
 *   ^\.(.+)_(.*)\.(log|archive)\.(\d+)(_((\d+)-(\d+)-(\d+))(.cdc)?)?
 * Both (.+) and (.*) are greedy: the file id ends at the LAST '_' after which some
 * "(.*)\.(log|archive)\.\d" follows, and the instant runs to the LAST such extension. */
bool hudi_log_file_name_parse(hudi_log_file_name *out, const char *name) {
    if (name[0] != '.') return false;
    const char *body = name + 1;
    size_t n = strlen(body);
    for (size_t u = n; u-- > 1;) { /* (.+) needs at least one char before the '_' */
        if (body[u] != '_') continue;
        const char *rest = body + u + 1;
        const char *ext_at = NULL, *digits = NULL;
        bool archive = false;
        for (const char *p = rest; *p; p++) { /* the last extension wins: (.*) is greedy */
            bool a;
            const char *d = match_ext(p, &a);
            if (d) {
                ext_at = p;
                digits = d;
                archive = a;
            }
        }
        if (!ext_at) continue;
        const char *p = digits;
        uint64_t version = 0;
        while (is_digit(*p)) {
            /* A version too large for 64 bits is not a name Hudi could have written (its
             * Integer.parseInt would throw). */
            if (version > (UINT64_MAX - 9) / 10) return false;
            version = version * 10 + (uint64_t)(*p - '0');
            p++;
        }
        memset(out, 0, sizeof(*out));
        out->file_id = HUDI_SLICE(body, u);
        out->instant = HUDI_SLICE(rest, (size_t)(ext_at - rest));
        out->version = version;
        out->is_archive = archive;
        /* Optional "_<d>-<d>-<d>" then optional ".cdc" (any char, then "cdc"). */
        if (*p == '_') {
            const char *t = p + 1, *q = t;
            int groups = 0;
            for (;;) {
                const char *g = q;
                while (is_digit(*q)) q++;
                if (q == g) break;
                groups++;
                if (groups == 3 || *q != '-' || !is_digit(q[1])) break;
                q++;
            }
            if (groups == 3) {
                out->write_token = HUDI_SLICE(t, (size_t)(q - t));
                if (q[0] && strncmp(q + 1, "cdc", 3) == 0) out->is_cdc = true;
            }
        }
        return true;
    }
    return false;
}

static int slice_cmp(hudi_slice a, hudi_slice b) {
    size_t n = HUDI_MIN(a.len, b.len);
    int c = n ? memcmp(a.data, b.data, n) : 0;
    if (c) return c < 0 ? -1 : 1;
    return a.len < b.len ? -1 : a.len > b.len ? 1 : 0;
}

/* HoodieLogFile.LogFileComparator: base instant, then version, then write token. Strings
 * compare by UTF-16 code units in Java; for the ASCII names Hudi writes that is byte order. */
int hudi_log_file_name_cmp(const hudi_log_file_name *a, const hudi_log_file_name *b) {
    int c = slice_cmp(a->instant, b->instant);
    if (c) return c;
    if (a->version != b->version) return a->version < b->version ? -1 : 1;
    c = slice_cmp(a->write_token, b->write_token);
    if (c) return c;
    return (int)a->is_cdc - (int)b->is_cdc;
}

static bool valid_part(const char *s, bool (*pred)(char)) { return all_of(s, strlen(s), pred); }

int hudi_base_file_name_format(hudi_buf *out, const char *file_id, const char *write_token,
                               const char *instant, const char *ext, hudi_error *err) {
    if (!valid_part(file_id, is_id_char) || !valid_part(write_token, is_id_char) ||
        !valid_part(instant, is_digit) || !valid_part(ext, is_alnum))
        return hudi_error_set(err, HUDI_EINVAL, "invalid base file name parts '%s' '%s' '%s' '%s'",
                              file_id, write_token, instant, ext);
    hudi_buf_printf(out, "%s_%s_%s.%s", file_id, write_token, instant, ext);
    return hudi_buf_failed(out) ? hudi_error_oom(err) : 0;
}

/* A write token Hudi's log regex accepts: three digit runs joined by '-'. */
static bool valid_log_token(const char *t) {
    int groups = 0;
    const char *p = t;
    for (;;) {
        const char *g = p;
        while (is_digit(*p)) p++;
        if (p == g) return false;
        if (++groups == 3) return *p == '\0';
        if (*p++ != '-') return false;
    }
}

int hudi_log_file_name_format(hudi_buf *out, const char *file_id, const char *instant,
                              uint64_t version, const char *write_token, hudi_error *err) {
    if (!valid_part(file_id, is_id_char) || !valid_part(instant, is_digit) ||
        !valid_log_token(write_token) || version == 0)
        return hudi_error_set(err, HUDI_EINVAL, "invalid log file name parts '%s' '%s' %llu '%s'",
                              file_id, instant, (unsigned long long)version, write_token);
    hudi_buf_printf(out, ".%s_%s.log.%llu_%s", file_id, instant, (unsigned long long)version,
                    write_token);
    return hudi_buf_failed(out) ? hudi_error_oom(err) : 0;
}

void hudi_write_token_format(char out[HUDI_WRITE_TOKEN_MAX], uint64_t partition_id,
                             uint64_t stage_id, uint64_t attempt_id) {
    snprintf(out, HUDI_WRITE_TOKEN_MAX, "%llu-%llu-%llu", (unsigned long long)partition_id,
             (unsigned long long)stage_id, (unsigned long long)attempt_id);
}

/* java.util.UUID.randomUUID(): 122 random bits, version nibble 4, variant bits 10. */
void hudi_file_id_from_bytes(char out[HUDI_FILE_ID_MAX], const uint8_t random16[16],
                             uint32_t index) {
    uint8_t b[16];
    memcpy(b, random16, 16);
    b[6] = (uint8_t)((b[6] & 0x0f) | 0x40);
    b[8] = (uint8_t)((b[8] & 0x3f) | 0x80);
    static const char hex[] = "0123456789abcdef";
    char *p = out;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) *p++ = '-';
        *p++ = hex[b[i] >> 4];
        *p++ = hex[b[i] & 15];
    }
    snprintf(p, (size_t)(HUDI_FILE_ID_MAX - (p - out)), "-%u", index);
}

/* Tests: 0 = getrandom; else file ids are drawn from a splitmix64 sequence started at the
 * seed, so two runs of the same writes name their files alike. */
static atomic_ullong test_seq;

void hudi_file_id_seed_for_tests(uint64_t seed) { atomic_store(&test_seq, seed); }

static uint64_t splitmix64(uint64_t x) {
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

int hudi_file_id_new(char out[HUDI_FILE_ID_MAX], uint32_t index, hudi_error *err) {
    uint8_t b[16];
    size_t got = 0;
    if (atomic_load(&test_seq) != 0) {
        uint64_t x = atomic_fetch_add(&test_seq, 2);
        uint64_t h[2] = {splitmix64(x), splitmix64(x + 1)};
        memcpy(b, h, 16);
        got = sizeof(b);
    }
    while (got < sizeof(b)) {
        ssize_t n = getrandom(b + got, sizeof(b) - got, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            return hudi_error_set(err, HUDI_EIO, "getrandom: %s", strerror(errno));
        }
        got += (size_t)n;
    }
    hudi_file_id_from_bytes(out, b, index);
    return 0;
}
