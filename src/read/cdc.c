/* cdc.c - CDC queries (docs/formats/cdc.md): the `.cdc` log files decoded, the changes without
 * one inferred from the write stats (for merge-on-read log appends, from the file group's merged
 * rows before and after the commit), every change rendered as Spark's CDC relation of Hudi 0.15
 * renders it. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "columnar/convert.h"
#include "format/parquet/parquet.h"
#include "read/cdc.h"
#include "read/read.h"
#include "schema/schema.h"

/* ---- settings ------------------------------------------------------------------------------ */

static const char *const mode_names[] = {"OP_KEY_ONLY", "DATA_BEFORE", "DATA_BEFORE_AFTER"};

const char *hudi_cdc_mode_name(hudi_cdc_mode m) { return mode_names[m]; }

int hudi_cdc_config(const hudi_table *t, bool *enabled, hudi_cdc_mode *mode, hudi_error *err) {
    int rc = hudi_props_get_bool(&t->props, "hoodie.table.cdc.enabled", false, enabled, err);
    if (rc < 0) return rc;
    *mode = HUDI_CDC_DATA_BEFORE_AFTER;
    const char *v = hudi_props_get(&t->props, "hoodie.table.cdc.supplemental.logging.mode");
    if (!v) return 0;
    for (int i = 0; i < 3; i++)
        if (strcasecmp(v, mode_names[i]) == 0) {
            *mode = (hudi_cdc_mode)i;
            return 0;
        }
    return hudi_error_set(err, HUDI_EINVAL,
                          "%s: hoodie.table.cdc.supplemental.logging.mode '%s' is not one of "
                          "OP_KEY_ONLY, DATA_BEFORE, DATA_BEFORE_AFTER",
                          t->base_path, v);
}

/* ---- Avro's GenericData.toString --------------------------------------------------------- */

/* Avro's writeEscapedString: \" \\ \b \f \n \r \t, \uXXXX (upper-case hex) for U+0000..001F,
 * U+007F..009F and U+2000..20FF, the rest as is. `latin1`: each byte is one char (bytes). */
static void avro_escaped(hudi_buf *o, const uint8_t *s, size_t n, bool latin1) {
    for (size_t i = 0; i < n;) {
        uint32_t cp = s[i];
        size_t len = 1;
        if (!latin1 && cp >= 0x80) {
            len = hudi_utf8_seq_len(s + i, n - i);
            if (len == 0) {
                len = 1; /* not UTF-8: as is */
            } else {
                int32_t d = hudi_utf8_decode(s + i, len);
                cp = d < 0 ? 0xFFFD : (uint32_t)d;
            }
        }
        switch (cp) {
        case '"': hudi_buf_puts(o, "\\\""); break;
        case '\\': hudi_buf_puts(o, "\\\\"); break;
        case '\b': hudi_buf_puts(o, "\\b"); break;
        case '\f': hudi_buf_puts(o, "\\f"); break;
        case '\n': hudi_buf_puts(o, "\\n"); break;
        case '\r': hudi_buf_puts(o, "\\r"); break;
        case '\t': hudi_buf_puts(o, "\\t"); break;
        default:
            if (cp <= 0x1F || (cp >= 0x7F && cp <= 0x9F) || (cp >= 0x2000 && cp <= 0x20FF)) {
                hudi_buf_printf(o, "\\u%04X", (unsigned)cp);
            } else if (latin1 && cp >= 0x80) {
                uint8_t u[4];
                hudi_buf_append(o, u, hudi_utf8_encode(cp, u));
            } else {
                hudi_buf_append(o, s + i, len);
            }
        }
        i += len;
    }
}

/* The unscaled value of a DECIMAL as big-endian two's complement bytes of `width`. */
static void decimal_be(const hudi_array *a, int64_t i, int32_t width, uint8_t *out) {
    const uint8_t *le = (const uint8_t *)a->values + i * 16;
    for (int32_t k = 0; k < width; k++)
        out[width - 1 - k] = k < 16 ? le[k] : (le[15] & 0x80 ? 0xFF : 0);
}

static bool decimal_is_zero(const hudi_array *a, int64_t i) {
    static const uint8_t zero[16];
    return memcmp((const uint8_t *)a->values + i * 16, zero, 16) == 0;
}

static int64_t int_at(const hudi_array *a, int64_t i) {
    switch (a->field->type) {
    case HUDI_TYPE_INT8: return ((const int8_t *)a->values)[i];
    case HUDI_TYPE_INT16: return ((const int16_t *)a->values)[i];
    case HUDI_TYPE_UINT8: return ((const uint8_t *)a->values)[i];
    case HUDI_TYPE_UINT16: return ((const uint16_t *)a->values)[i];
    case HUDI_TYPE_UINT32: return ((const uint32_t *)a->values)[i];
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_DATE: return ((const int32_t *)a->values)[i];
    case HUDI_TYPE_TIME:
        return a->field->unit == HUDI_UNIT_MILLIS ? ((const int32_t *)a->values)[i]
                                                  : ((const int64_t *)a->values)[i];
    default: return ((const int64_t *)a->values)[i];
    }
}

static void avro_value(hudi_buf *o, const hudi_array *a, int64_t i);

static void avro_record(hudi_buf *o, const hudi_array *a, int64_t i) {
    hudi_buf_putc(o, '{');
    for (int32_t k = 0; k < a->n_children; k++) {
        if (k) hudi_buf_puts(o, ", ");
        hudi_buf_putc(o, '"');
        const char *nm = a->field->children[k].name;
        avro_escaped(o, (const uint8_t *)nm, strlen(nm), false);
        hudi_buf_puts(o, "\": ");
        avro_value(o, a->children[k], i);
    }
    hudi_buf_putc(o, '}');
}

static void avro_value(hudi_buf *o, const hudi_array *a, int64_t i) {
    if (!hudi_array_is_valid(a, i)) {
        hudi_buf_puts(o, "null");
        return;
    }
    const hudi_field *f = a->field;
    switch (f->type) {
    case HUDI_TYPE_BOOL: hudi_buf_puts(o, hudi_bit_get(a->values, i) ? "true" : "false"); break;
    case HUDI_TYPE_FLOAT: {
        float v = ((const float *)a->values)[i];
        bool quote = v != v || v == (float)INFINITY || v == -(float)INFINITY;
        if (quote) hudi_buf_putc(o, '"');
        hudi_java_float_text(o, v);
        if (quote) hudi_buf_putc(o, '"');
        break;
    }
    case HUDI_TYPE_DOUBLE: {
        double v = ((const double *)a->values)[i];
        bool quote = v != v || v == (double)INFINITY || v == -(double)INFINITY;
        if (quote) hudi_buf_putc(o, '"');
        hudi_java_double_text(o, v);
        if (quote) hudi_buf_putc(o, '"');
        break;
    }
    case HUDI_TYPE_UINT64:
        hudi_buf_printf(o, "%llu", (unsigned long long)((const uint64_t *)a->values)[i]);
        break;
    case HUDI_TYPE_DECIMAL: { /* an Avro fixed: Arrays.toString of its signed bytes */
        uint8_t be[32];
        int32_t w = hudi_schema_decimal_bytes(f->precision);
        decimal_be(a, i, w, be);
        hudi_buf_putc(o, '[');
        for (int32_t k = 0; k < w; k++) hudi_buf_printf(o, k ? ", %d" : "%d", (int)(int8_t)be[k]);
        hudi_buf_putc(o, ']');
        break;
    }
    case HUDI_TYPE_STRING:
        hudi_buf_putc(o, '"');
        avro_escaped(o, a->data + a->offsets[i], (size_t)(a->offsets[i + 1] - a->offsets[i]),
                     false);
        hudi_buf_putc(o, '"');
        break;
    case HUDI_TYPE_BINARY:
        hudi_buf_puts(o, "{\"bytes\": \"");
        avro_escaped(o, a->data + a->offsets[i], (size_t)(a->offsets[i + 1] - a->offsets[i]), true);
        hudi_buf_puts(o, "\"}");
        break;
    case HUDI_TYPE_FIXED_BINARY: {
        const int8_t *p = (const int8_t *)a->values + i * f->byte_width;
        hudi_buf_putc(o, '[');
        for (int32_t k = 0; k < f->byte_width; k++) hudi_buf_printf(o, k ? ", %d" : "%d", p[k]);
        hudi_buf_putc(o, ']');
        break;
    }
    case HUDI_TYPE_STRUCT: avro_record(o, a, i); break;
    case HUDI_TYPE_LIST: {
        hudi_buf_putc(o, '[');
        for (int32_t k = a->offsets[i]; k < a->offsets[i + 1]; k++) {
            if (k > a->offsets[i]) hudi_buf_puts(o, ", ");
            avro_value(o, a->children[0], k);
        }
        hudi_buf_putc(o, ']');
        break;
    }
    case HUDI_TYPE_MAP: {
        const hudi_array *e = a->children[0];
        hudi_buf_putc(o, '{');
        for (int32_t k = a->offsets[i]; k < a->offsets[i + 1]; k++) {
            if (k > a->offsets[i]) hudi_buf_puts(o, ", ");
            avro_value(o, e->children[0], k);
            hudi_buf_puts(o, ": ");
            avro_value(o, e->children[1], k);
        }
        hudi_buf_putc(o, '}');
        break;
    }
    default: hudi_buf_printf(o, "%lld", (long long)int_at(a, i)); break;
    }
}

void hudi_cdc_render_avro(hudi_buf *out, const hudi_array *rec, int64_t row) {
    avro_value(out, rec, row);
}

/* ---- Spark's rendering of a base file row ----------------------------------------------- */

/* Java's String.hashCode over the UTF-16 code units of UTF-8 `s`. */
static int32_t java_hash(const char *s) {
    uint32_t h = 0;
    const uint8_t *p = (const uint8_t *)s;
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        size_t len = hudi_utf8_seq_len(p + i, n - i);
        int32_t cp = len ? hudi_utf8_decode(p + i, len) : p[i];
        if (!len) len = 1;
        if (cp >= 0x10000) {
            uint32_t v = (uint32_t)cp - 0x10000;
            h = 31 * h + (0xD800 + (v >> 10));
            h = 31 * h + (0xDC00 + (v & 0x3FF));
        } else {
            h = 31 * h + (uint32_t)cp;
        }
        i += len;
    }
    return (int32_t)h;
}

static uint32_t bswap32(uint32_t v) {
    return (v >> 24) | ((v >> 8) & 0xFF00) | ((v << 8) & 0xFF0000) | (v << 24);
}

/* scala.collection.mutable.HashTable.index: byteswap32 spreading, rotated by the table's seed,
 * top bits. The seed is the bit count of length - 1 when the table was created (16 buckets: 4)
 * and stays so when the table grows. */
static uint32_t scala_index(int32_t hcode, uint32_t len) {
    uint32_t ones = len - 1;
    int seed = 4;
    uint32_t hc = (uint32_t)hcode * 0x9e3775cdu;
    hc = bswap32(hc);
    hc *= 0x9e3775cdu;
    int rot = seed % 32;
    uint32_t improved = rot ? (hc >> rot) | (hc << (32 - rot)) : hc;
    int exponent = ones ? __builtin_clz(ones) : 32;
    return exponent >= 32 ? 0 : (improved >> exponent) & ones;
}

void hudi_cdc_json_order(const hudi_field *st, int32_t *out) {
    /* Scala 2.12 HashMap: 16 buckets, load factor 0.75, entries prepended to their bucket, the
     * table doubled (old buckets re-inserted from the last, which reverses chains) when the
     * size passes the threshold; iteration runs from the last bucket to the first, each from
     * its head. */
    int32_t n = st->n_children;
    int32_t *head = hudi_malloc(sizeof(int32_t) * 16);
    int32_t *next = hudi_malloc(sizeof(int32_t) * (size_t)(n ? n : 1));
    int32_t *hash = hudi_malloc(sizeof(int32_t) * (size_t)(n ? n : 1));
    if (!head || !next || !hash) { /* no memory: schema order */
        for (int32_t k = 0; k < n; k++) out[k] = k;
        goto done;
    }
    uint32_t cur = 16, threshold = 12;
    for (uint32_t b = 0; b < cur; b++) head[b] = -1;
    for (int32_t k = 0; k < n; k++) {
        hash[k] = java_hash(st->children[k].name);
        uint32_t h = scala_index(hash[k], cur);
        next[k] = head[h];
        head[h] = k;
        if ((uint32_t)(k + 1) > threshold) {
            uint32_t ncur = cur * 2;
            int32_t *nh = hudi_malloc(sizeof(int32_t) * ncur);
            if (!nh) {
                for (int32_t q = 0; q < n; q++) out[q] = q;
                goto done;
            }
            for (uint32_t b = 0; b < ncur; b++) nh[b] = -1;
            for (int64_t b = (int64_t)cur - 1; b >= 0; b--) {
                for (int32_t e = head[b]; e >= 0;) {
                    int32_t e1 = next[e];
                    uint32_t h2 = scala_index(hash[e], ncur);
                    next[e] = nh[h2];
                    nh[h2] = e;
                    e = e1;
                }
            }
            hudi_free(head);
            head = nh;
            cur = ncur;
            threshold = cur * 3 / 4;
        }
    }
    int32_t m = 0;
    for (int64_t b = (int64_t)cur - 1; b >= 0; b--)
        for (int32_t e = head[b]; e >= 0; e = next[e]) out[m++] = e;
done:
    hudi_free(head);
    hudi_free(next);
    hudi_free(hash);
}

static void json_value(hudi_buf *o, const hudi_array *a, int64_t i);

static void json_string(hudi_buf *o, const uint8_t *s, size_t n) {
    char *z = hudi_malloc(n + 1);
    if (!z) {
        hudi_buf_puts(o, "\"\"");
        return;
    }
    if (n) memcpy(z, s, n);
    z[n] = '\0';
    hudi_schema_put_json_string(o, z);
    hudi_free(z);
}

static void json_value(hudi_buf *o, const hudi_array *a, int64_t i) {
    if (!hudi_array_is_valid(a, i)) {
        hudi_buf_puts(o, "null");
        return;
    }
    const hudi_field *f = a->field;
    switch (f->type) {
    case HUDI_TYPE_BOOL: hudi_buf_puts(o, hudi_bit_get(a->values, i) ? "true" : "false"); break;
    case HUDI_TYPE_FLOAT: {
        float v = ((const float *)a->values)[i];
        if (v != v || v == (float)INFINITY || v == -(float)INFINITY) hudi_buf_putc(o, '"');
        hudi_java_float_text(o, v);
        if (v != v || v == (float)INFINITY || v == -(float)INFINITY) hudi_buf_putc(o, '"');
        break;
    }
    case HUDI_TYPE_DOUBLE: {
        double v = ((const double *)a->values)[i];
        if (v != v || v == (double)INFINITY || v == -(double)INFINITY) hudi_buf_putc(o, '"');
        hudi_java_double_text(o, v);
        if (v != v || v == (double)INFINITY || v == -(double)INFINITY) hudi_buf_putc(o, '"');
        break;
    }
    case HUDI_TYPE_DECIMAL: /* Jackson's view of Spark's Decimal bean: its one getter */
        hudi_buf_puts(o, decimal_is_zero(a, i) ? "{\"zero\":true}" : "{\"zero\":false}");
        break;
    case HUDI_TYPE_TIMESTAMP: { /* Spark holds microseconds */
        int64_t v = ((const int64_t *)a->values)[i];
        if (f->unit == HUDI_UNIT_MILLIS) v *= 1000;
        if (f->unit == HUDI_UNIT_NANOS) v /= 1000;
        hudi_buf_printf(o, "%lld", (long long)v);
        break;
    }
    case HUDI_TYPE_UINT64:
        hudi_buf_printf(o, "%llu", (unsigned long long)((const uint64_t *)a->values)[i]);
        break;
    case HUDI_TYPE_STRING:
        json_string(o, a->data + a->offsets[i], (size_t)(a->offsets[i + 1] - a->offsets[i]));
        break;
    case HUDI_TYPE_BINARY:
    case HUDI_TYPE_FIXED_BINARY: { /* Jackson writes byte[] as Base64 */
        static const char b64[] =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        const uint8_t *p;
        size_t n;
        if (f->type == HUDI_TYPE_BINARY) {
            p = a->data + a->offsets[i];
            n = (size_t)(a->offsets[i + 1] - a->offsets[i]);
        } else {
            p = (const uint8_t *)a->values + i * f->byte_width;
            n = (size_t)f->byte_width;
        }
        hudi_buf_putc(o, '"');
        for (size_t k = 0; k < n; k += 3) {
            uint32_t v = (uint32_t)p[k] << 16;
            if (k + 1 < n) v |= (uint32_t)p[k + 1] << 8;
            if (k + 2 < n) v |= p[k + 2];
            hudi_buf_putc(o, b64[(v >> 18) & 63]);
            hudi_buf_putc(o, b64[(v >> 12) & 63]);
            hudi_buf_putc(o, k + 1 < n ? b64[(v >> 6) & 63] : '=');
            hudi_buf_putc(o, k + 2 < n ? b64[v & 63] : '=');
        }
        hudi_buf_putc(o, '"');
        break;
    }
    case HUDI_TYPE_STRUCT: /* nested values: as JSON objects and arrays, in schema order */
        hudi_buf_putc(o, '{');
        for (int32_t k = 0; k < a->n_children; k++) {
            if (k) hudi_buf_putc(o, ',');
            hudi_schema_put_json_string(o, f->children[k].name);
            hudi_buf_putc(o, ':');
            json_value(o, a->children[k], i);
        }
        hudi_buf_putc(o, '}');
        break;
    case HUDI_TYPE_LIST:
        hudi_buf_putc(o, '[');
        for (int32_t k = a->offsets[i]; k < a->offsets[i + 1]; k++) {
            if (k > a->offsets[i]) hudi_buf_putc(o, ',');
            json_value(o, a->children[0], k);
        }
        hudi_buf_putc(o, ']');
        break;
    case HUDI_TYPE_MAP: {
        const hudi_array *e = a->children[0];
        hudi_buf_putc(o, '{');
        for (int32_t k = a->offsets[i]; k < a->offsets[i + 1]; k++) {
            if (k > a->offsets[i]) hudi_buf_putc(o, ',');
            hudi_buf key = HUDI_BUF_INIT;
            avro_value(&key, e->children[0], k);
            if (key.len && key.data[0] == '"')
                hudi_buf_append(o, key.data, key.len);
            else
                json_string(o, (const uint8_t *)key.data, key.len);
            hudi_buf_dispose(&key);
            hudi_buf_putc(o, ':');
            json_value(o, e->children[1], k);
        }
        hudi_buf_putc(o, '}');
        break;
    }
    default: hudi_buf_printf(o, "%lld", (long long)int_at(a, i)); break;
    }
}

void hudi_cdc_render_json(hudi_buf *out, const hudi_batch *b, const int32_t *order, int64_t row) {
    bool first = true;
    hudi_buf_putc(out, '{');
    for (int32_t k = 0; k < b->n_columns; k++) {
        const hudi_array *a = b->columns[order[k]];
        if (!hudi_array_is_valid(a, row)) continue; /* Include.NON_ABSENT drops nulls */
        if (!first) hudi_buf_putc(out, ',');
        first = false;
        hudi_schema_put_json_string(out, b->schema->children[order[k]].name);
        hudi_buf_putc(out, ':');
        json_value(out, a, row);
    }
    hudi_buf_putc(out, '}');
}

/* ---- decoding `.cdc` log files --------------------------------------------------------------- */

int hudi_cdc_log_decode(hudi_batch ***out, size_t *n_out, hudi_field *fields, hudi_slice file,
                        const char *name, hudi_error *err) {
    hudi_log_blocks blocks = HUDI_LOG_BLOCKS_INIT;
    hudi_avro_schema *writer = NULL;
    hudi_batch **list = NULL;
    size_t n = 0;
    memset(fields, 0, sizeof(*fields));
    *out = NULL;
    *n_out = 0;
    int rc = hudi_log_scan(&blocks, file, name, err);
    for (size_t i = 0; rc == 0 && i < blocks.count; i++) {
        const hudi_log_block *b = &blocks.blocks[i];
        if (b->type != HUDI_LOG_CDC_DATA_BLOCK) continue; /* corrupt blocks are skipped */
        hudi_slice sj = b->header[HUDI_LOG_SCHEMA];
        if (!sj.data) {
            rc = hudi_error_set(err, HUDI_ECORRUPT,
                                "%s: CDC block at offset %lld has no schema in its header", name,
                                (long long)b->offset);
            break;
        }
        if (!writer) {
            if ((rc = hudi_avro_schema_parse(&writer, sj, err)) < 0 ||
                (rc = hudi_schema_parse_avro(fields, (const char *)sj.data, sj.len, err)) < 0)
                break;
        }
        hudi_batch *batch = NULL;
        if ((rc = hudi_log_avro_block_read(&batch, b, writer, fields, name, err)) < 0) break;
        hudi_batch **l = hudi_realloc(list, (n + 1) * sizeof(*l));
        if (!l) {
            hudi_batch_free(batch);
            rc = hudi_error_oom(err);
            break;
        }
        list = l;
        list[n++] = batch;
    }
    hudi_avro_schema_free(writer);
    hudi_log_blocks_dispose(&blocks);
    if (rc < 0) {
        for (size_t i = 0; i < n; i++) hudi_batch_free(list[i]);
        hudi_free(list);
        hudi_field_dispose(fields);
        memset(fields, 0, sizeof(*fields));
        return rc;
    }
    *out = list;
    *n_out = n;
    return 0;
}

/* ---- the query ------------------------------------------------------------------------------ */

#define CDC_OUT_ROWS 65536

typedef struct bfile { /* a whole base file, its rows by record key on demand */
    hudi_field schema;
    hudi_batch *b;
    int32_t *order;
    hudi_map keys; /* record key -> row + 1 */
    bool keyed;
} bfile;

typedef struct cdc_q {
    hudi_table *t;
    hudi_cdc_mode mode;
    hudi_cdc_rows *out;
    hudi_batch *cur;
    hudi_buf before, after;
    const hudi_instant_list *commits;
} cdc_q;

static void bfile_dispose(bfile *f) {
    hudi_batch_free(f->b);
    hudi_field_dispose(&f->schema);
    hudi_free(f->order);
    hudi_map_dispose(&f->keys);
    memset(f, 0, sizeof(*f));
}

/* Starts f empty with a copy of `schema`. */
static int bfile_start(bfile *f, const hudi_field *schema, hudi_error *err) {
    if (hudi_field_copy(&f->schema, schema) < 0) return hudi_error_oom(err);
    return hudi_batch_new(&f->b, &f->schema, err);
}

/* Appends the rows of batch b (f's columns) to f. */
static int bfile_append(bfile *f, const hudi_batch *b, hudi_error *err) {
    int rc = 0;
    for (int32_t j = 0; rc == 0 && j < b->n_columns; j++)
        rc = hudi_array_append_range(f->b->columns[j], b->columns[j], 0, b->num_rows, err);
    if (rc == 0) f->b->num_rows += b->num_rows;
    return rc;
}

static int bfile_load(cdc_q *q, const char *rel, bfile *f, hudi_error *err) {
    hudi_buf path = HUDI_BUF_INIT;
    hudi_pq_file *pf = NULL;
    hudi_pq_scan *scan = NULL;
    memset(f, 0, sizeof(*f));
    hudi_buf_printf(&path, "%s/%s", q->t->base_path, rel);
    int rc = hudi_buf_failed(&path) ? hudi_error_oom(err) : 0;
    if (rc == 0) rc = hudi_pq_open(&pf, q->t->fs, path.data, NULL, err);
    hudi_pq_scan_options so = HUDI_PQ_SCAN_OPTIONS_INIT;
    if (rc == 0) rc = hudi_pq_scan_open(&scan, pf, &so, err);
    if (rc == 0) rc = bfile_start(f, hudi_pq_scan_schema(scan), err);
    while (rc == 0) {
        hudi_batch *b = NULL;
        if ((rc = hudi_pq_scan_next(scan, &b, err)) < 0 || !b) break;
        rc = bfile_append(f, b, err);
    }
    if (rc == 0) {
        f->order = hudi_malloc(sizeof(int32_t) * (size_t)(f->schema.n_children + 1));
        if (!f->order)
            rc = hudi_error_oom(err);
        else
            hudi_cdc_json_order(&f->schema, f->order);
    }
    hudi_pq_scan_free(scan);
    hudi_pq_close(pf);
    hudi_buf_dispose(&path);
    if (rc < 0) bfile_dispose(f);
    return rc;
}

/* Row of record key `k` in f, or -1. */
static int64_t bfile_find(bfile *f, hudi_slice k, hudi_error *err, int *rc) {
    *rc = 0;
    if (!f->keyed) {
        f->keyed = true;
        int32_t c = -1;
        for (int32_t j = 0; j < f->schema.n_children; j++)
            if (strcmp(f->schema.children[j].name, "_hoodie_record_key") == 0) c = j;
        const hudi_array *a = c >= 0 ? f->b->columns[c] : NULL;
        for (int64_t i = 0; a && a->field->type == HUDI_TYPE_STRING && i < a->length; i++) {
            if (!hudi_array_is_valid(a, i)) continue;
            if (hudi_map_put(&f->keys, (const char *)a->data + a->offsets[i],
                             (size_t)(a->offsets[i + 1] - a->offsets[i]), (void *)(intptr_t)(i + 1),
                             NULL) < 0) {
                *rc = hudi_error_oom(err);
                return -1;
            }
        }
    }
    void *v = hudi_map_get(&f->keys, (const char *)k.data, k.len);
    return v ? (int64_t)(intptr_t)v - 1 : -1;
}

/* Appends one change; before/after NULL = SQL null. */
static int emit(cdc_q *q, const char *op, const char *ts, const hudi_buf *before,
                const hudi_buf *after, hudi_error *err) {
    int rc;
    if (!q->cur && (rc = hudi_batch_new(&q->cur, &q->out->schema, err)) < 0) return rc;
    hudi_array **c = q->cur->columns;
    if ((rc = hudi_array_append_bytes(c[0], op, strlen(op), err)) < 0 ||
        (rc = hudi_array_append_bytes(c[1], ts, strlen(ts), err)) < 0 ||
        (rc = before ? hudi_array_append_bytes(c[2], before->data ? before->data : "", before->len,
                                               err)
                     : hudi_array_append_null(c[2], err)) < 0 ||
        (rc = after ? hudi_array_append_bytes(c[3], after->data ? after->data : "", after->len, err)
                    : hudi_array_append_null(c[3], err)) < 0)
        return rc;
    q->cur->num_rows++;
    if (hudi_buf_failed(&q->before) || hudi_buf_failed(&q->after)) return hudi_error_oom(err);
    if (q->cur->num_rows < CDC_OUT_ROWS) return 0;
    return 1; /* full: the caller flushes */
}

static int flush_out(cdc_q *q, hudi_error *err) {
    if (!q->cur || q->cur->num_rows == 0) return 0;
    hudi_batch **l = hudi_realloc(q->out->batches, (q->out->count + 1) * sizeof(*l));
    if (!l) return hudi_error_oom(err);
    q->out->batches = l;
    l[q->out->count++] = q->cur;
    q->cur = NULL;
    return 0;
}

static int put(cdc_q *q, const char *op, const char *ts, bool before, bool after, hudi_error *err) {
    int rc = emit(q, op, ts, before ? &q->before : NULL, after ? &q->after : NULL, err);
    if (rc == 1) rc = flush_out(q, err);
    return rc;
}

/* Every row of a base file as one kind of change ("i": after, "d": before). */
static int whole_file(cdc_q *q, const char *rel, const char *op, const char *ts, hudi_error *err) {
    bfile f;
    int rc = bfile_load(q, rel, &f, err);
    for (int64_t i = 0; rc == 0 && i < f.b->num_rows; i++) {
        hudi_buf *img = *op == 'i' ? &q->after : &q->before;
        hudi_buf_clear(img);
        hudi_cdc_render_json(img, f.b, f.order, i);
        rc = put(q, op, ts, *op == 'd', *op == 'i', err);
    }
    if (f.b) bfile_dispose(&f);
    return rc;
}

/* The base file that commit `prev` wrote for (partition, file id), from its write stats. */
static int prev_base_path(cdc_q *q, const char *prev, const char *partition, const char *file_id,
                          char **out, hudi_error *err) {
    const hudi_instant *in = NULL;
    hudi_buf json = HUDI_BUF_INIT;
    hudi_commit_metadata *md = NULL;
    *out = NULL;
    int rc = hudi_timeline_find(&in, q->t->timeline, prev, err);
    if (rc == 0) rc = hudi_timeline_read_commit_json(&json, q->t->timeline, in, err);
    if (rc == 0) rc = hudi_commit_metadata_parse(&md, json.data, json.len, prev, err);
    for (size_t p = 0; rc == 0 && p < md->partitions_count && !*out; p++) {
        const hudi_partition_write_stats *ps = &md->partitions[p];
        if (strcmp(ps->partition_path ? ps->partition_path : "", partition) != 0) continue;
        for (size_t s = 0; s < ps->count; s++)
            if (ps->stats[s].file_id && strcmp(ps->stats[s].file_id, file_id) == 0 &&
                ps->stats[s].path) {
                if (!(*out = hudi_strdup(ps->stats[s].path))) rc = hudi_error_oom(err);
                break;
            }
    }
    if (rc == 0 && !*out)
        rc = hudi_error_set(err, HUDI_ENOTFOUND,
                            "%s: commit %s wrote no base file of file group %s (needed for the "
                            "CDC images)",
                            q->t->base_path, prev, file_id);
    hudi_commit_metadata_free(md);
    hudi_buf_dispose(&json);
    return rc;
}

/* The keys of a cdcStats object {"<path>": size, ...}: paths relative to the base path. */
static int cdc_paths(const char *json, char ***out, size_t *n, hudi_error *err) {
    *out = NULL;
    *n = 0;
    for (const char *p = json; *p; p++) {
        if (*p != '"') continue;
        hudi_buf k = HUDI_BUF_INIT;
        for (p++; *p && *p != '"'; p++) {
            if (*p == '\\' && p[1]) p++;
            hudi_buf_putc(&k, *p);
        }
        if (!*p) {
            hudi_buf_dispose(&k);
            break;
        }
        /* a key is followed by ':'; skip the value (a number) */
        const char *q = p + 1;
        while (*q == ' ') q++;
        if (*q != ':') {
            hudi_buf_dispose(&k);
            continue;
        }
        hudi_buf_putc(&k, '\0');
        char **l = hudi_realloc(*out, (*n + 1) * sizeof(char *));
        if (!l || hudi_buf_failed(&k)) {
            if (l) *out = l;
            hudi_buf_dispose(&k);
            return hudi_error_oom(err);
        }
        *out = l;
        l[(*n)++] = hudi_buf_detach(&k);
        p = q;
    }
    return 0;
}

static void free_paths(char **v, size_t n) {
    for (size_t i = 0; i < n; i++) hudi_free(v[i]);
    hudi_free(v);
}

static int32_t col_of(const hudi_field *st, const char *name) {
    for (int32_t j = 0; j < st->n_children; j++)
        if (st->children[j].name && strcmp(st->children[j].name, name) == 0) return j;
    return -1;
}

static hudi_slice str_at(const hudi_array *a, int64_t i) {
    if (!a || a->field->type != HUDI_TYPE_STRING || !hudi_array_is_valid(a, i))
        return HUDI_SLICE(NULL, 0);
    return HUDI_SLICE(a->data + a->offsets[i], (size_t)(a->offsets[i + 1] - a->offsets[i]));
}

/* Avro's toString of a whole base file row (meta columns included), in schema order. */
static void avro_row(hudi_buf *o, const hudi_batch *b, int64_t row) {
    hudi_buf_putc(o, '{');
    for (int32_t k = 0; k < b->n_columns; k++) {
        if (k) hudi_buf_puts(o, ", ");
        hudi_buf_putc(o, '"');
        const char *nm = b->schema->children[k].name;
        avro_escaped(o, (const uint8_t *)nm, strlen(nm), false);
        hudi_buf_puts(o, "\": ");
        avro_value(o, b->columns[k], row);
    }
    hudi_buf_putc(o, '}');
}

/* The changes of one write stat with CDC log files (AS_IS). */
static int as_is(cdc_q *q, const char *ts, const hudi_write_stat *st, const char *partition,
                 hudi_error *err) {
    char **paths = NULL;
    size_t n_paths = 0;
    bfile after_f, before_f;
    bool have_after = false, have_before = false;
    memset(&after_f, 0, sizeof(after_f));
    memset(&before_f, 0, sizeof(before_f));
    int rc = cdc_paths(st->cdc_stats_json, &paths, &n_paths, err);
    if (rc == 0 && q->mode != HUDI_CDC_DATA_BEFORE_AFTER && st->path) {
        if ((rc = bfile_load(q, st->path, &after_f, err)) == 0) have_after = true;
    }
    if (rc == 0 && q->mode == HUDI_CDC_OP_KEY_ONLY && st->prev_commit &&
        strcmp(st->prev_commit, "null") != 0) {
        char *prev = NULL;
        if ((rc = prev_base_path(q, st->prev_commit, partition, st->file_id, &prev, err)) == 0 &&
            (rc = bfile_load(q, prev, &before_f, err)) == 0)
            have_before = true;
        hudi_free(prev);
    }
    for (size_t p = 0; rc == 0 && p < n_paths; p++) {
        hudi_buf path = HUDI_BUF_INIT, bytes = HUDI_BUF_INIT;
        hudi_batch **batches = NULL;
        size_t nb = 0;
        hudi_field fields;
        memset(&fields, 0, sizeof(fields));
        hudi_buf_printf(&path, "%s/%s", q->t->base_path, paths[p]);
        rc = hudi_buf_failed(&path) ? hudi_error_oom(err) : 0;
        if (rc == 0) rc = hudi_fs_read_all(q->t->fs, path.data, &bytes, err);
        if (rc == 0)
            rc = hudi_cdc_log_decode(&batches, &nb, &fields, HUDI_SLICE(bytes.data, bytes.len),
                                     paths[p], err);
        int32_t c_op = col_of(&fields, "op"), c_ts = col_of(&fields, "ts_ms"),
                c_key = col_of(&fields, "record_key"), c_before = col_of(&fields, "before"),
                c_after = col_of(&fields, "after");
        if (rc == 0 && nb > 0 && c_op < 0)
            rc = hudi_error_set(err, HUDI_ECORRUPT, "%s: CDC block schema has no op field",
                                paths[p]);
        for (size_t bi = 0; rc == 0 && bi < nb; bi++) {
            const hudi_batch *b = batches[bi];
            for (int64_t i = 0; rc == 0 && i < b->num_rows; i++) {
                hudi_slice op = str_at(b->columns[c_op], i);
                char opz[2] = {op.len ? (char)op.data[0] : '?', 0};
                hudi_buf_clear(&q->before);
                hudi_buf_clear(&q->after);
                if (q->mode == HUDI_CDC_DATA_BEFORE_AFTER) {
                    hudi_slice t2 = c_ts >= 0 ? str_at(b->columns[c_ts], i) : HUDI_SLICE(NULL, 0);
                    char tsz[HUDI_INSTANT_TIME_MAX + 8];
                    size_t tl = t2.data ? HUDI_MIN(t2.len, sizeof(tsz) - 1) : 0;
                    if (t2.data) memcpy(tsz, t2.data, tl);
                    tsz[tl] = '\0';
                    if (c_before >= 0) hudi_cdc_render_avro(&q->before, b->columns[c_before], i);
                    if (c_after >= 0) hudi_cdc_render_avro(&q->after, b->columns[c_after], i);
                    rc = put(q, opz, t2.data ? tsz : ts, c_before >= 0, c_after >= 0, err);
                    continue;
                }
                hudi_slice key = c_key >= 0 ? str_at(b->columns[c_key], i) : HUDI_SLICE(NULL, 0);
                bool has_before = false, has_after = false;
                if (q->mode == HUDI_CDC_DATA_BEFORE && c_before >= 0) {
                    hudi_cdc_render_avro(&q->before, b->columns[c_before], i);
                    has_before = true;
                } else if (q->mode == HUDI_CDC_OP_KEY_ONLY && opz[0] != 'i' && have_before &&
                           key.data) {
                    int64_t r = bfile_find(&before_f, key, err, &rc);
                    if (r >= 0) {
                        avro_row(&q->before, before_f.b, r);
                        has_before = true;
                    }
                }
                if (rc == 0 && opz[0] != 'd' && have_after && key.data) {
                    int64_t r = bfile_find(&after_f, key, err, &rc);
                    if (r >= 0) {
                        hudi_cdc_render_json(&q->after, after_f.b, after_f.order, r);
                        has_after = true;
                    }
                }
                if (rc == 0) rc = put(q, opz, ts, has_before, has_after, err);
            }
        }
        for (size_t bi = 0; bi < nb; bi++) hudi_batch_free(batches[bi]);
        hudi_free(batches);
        hudi_field_dispose(&fields);
        hudi_buf_dispose(&bytes);
        hudi_buf_dispose(&path);
    }
    if (have_after) bfile_dispose(&after_f);
    if (have_before) bfile_dispose(&before_f);
    free_paths(paths, n_paths);
    return rc;
}

/* The rows of file group (partition, file_id) as of `as_of` (NULL: none, an empty file): the
 * merged snapshot of its slice, every column of the table (meta columns first). */
static int fg_load(cdc_q *q, const char *as_of, const char *partition, const char *file_id,
                   bfile *f, hudi_error *err) {
    hudi_reader *r = NULL;
    hudi_scan_options so = HUDI_SCAN_OPTIONS_INIT;
    memset(f, 0, sizeof(*f));
    so.as_of_instant = as_of;
    int rc = 0;
    if (as_of && (rc = hudi_reader_open(&r, q->t, &so, err)) == 0)
        rc = hudi_reader_only_file_groups(r, partition, &file_id, 1, err);
    if (rc == 0 && r) rc = bfile_start(f, hudi_reader_schema(r), err);
    while (rc == 0 && r) {
        hudi_batch *b = NULL;
        if ((rc = hudi_reader_next(r, &b, err)) < 0 || !b) break;
        rc = bfile_append(f, b, err);
    }
    hudi_reader_free(r);
    if (rc < 0) bfile_dispose(f);
    return rc;
}

/* LOG_FILE: the changes a deltacommit's log append made to one file group. Hudi merges the
 * commit's log records onto the slice as it was before (the write stat's base file and older log
 * files) and emits "i" for a key the slice lacked, "u" when the merged row differs from the old
 * one, "d" for a delete of a key it had; both images are Avro's toString of the whole row.
 * The same changes come out of the file group's merged rows before the commit and at it: a key
 * only after is an insert, one only before a delete, one whose rows differ an update. */
static int log_file(cdc_q *q, const hudi_instant *in, const char *prev, const char *partition,
                    const char *file_id, hudi_error *err) {
    bfile before, after;
    bool *seen = NULL;
    int rc = fg_load(q, prev, partition, file_id, &before, err);
    if (rc < 0) return rc;
    if ((rc = fg_load(q, in->time, partition, file_id, &after, err)) < 0) {
        bfile_dispose(&before);
        return rc;
    }
    int64_t nb = before.b ? before.b->num_rows : 0;
    if (nb > 0 && !(seen = hudi_calloc((size_t)nb, sizeof(bool)))) rc = hudi_error_oom(err);
    int32_t kc = after.b ? col_of(&after.schema, "_hoodie_record_key") : -1;
    if (rc == 0 && after.b && kc < 0)
        rc = hudi_error_set(err, HUDI_ECORRUPT, "%s: file group %s has no _hoodie_record_key",
                            q->t->base_path, file_id);
    for (int64_t i = 0; rc == 0 && after.b && i < after.b->num_rows; i++) {
        hudi_slice key = str_at(after.b->columns[kc], i);
        int64_t r = nb > 0 && key.data ? bfile_find(&before, key, err, &rc) : -1;
        if (rc < 0) break;
        hudi_buf_clear(&q->before);
        hudi_buf_clear(&q->after);
        avro_row(&q->after, after.b, i);
        if (r < 0) {
            rc = put(q, "i", in->time, false, true, err);
            continue;
        }
        seen[r] = true;
        avro_row(&q->before, before.b, r);
        if (q->before.len != q->after.len || memcmp(q->before.data, q->after.data, q->after.len))
            rc = put(q, "u", in->time, true, true, err);
    }
    for (int64_t r = 0; rc == 0 && r < nb; r++) {
        if (seen[r]) continue;
        hudi_buf_clear(&q->before);
        avro_row(&q->before, before.b, r);
        rc = put(q, "d", in->time, true, false, err);
    }
    hudi_free(seen);
    if (before.b) bfile_dispose(&before);
    if (after.b) bfile_dispose(&after);
    return rc;
}

/* The latest completed commit before `time`, or NULL. */
static const char *commit_before(const hudi_timeline *tl, const char *time) {
    const char *best = NULL;
    hudi_instant_list all = {0};
    if (hudi_timeline_completed_commits(&all, tl, NULL) < 0) return NULL;
    for (size_t i = 0; i < all.count; i++)
        if (strcmp(all.items[i]->time, time) < 0) best = all.items[i]->time;
    hudi_instant_list_dispose(&all);
    return best;
}

/* REPLACE_COMMIT: every row of the file groups the replacecommit retired, deleted. */
static int replaced(cdc_q *q, const hudi_instant *in, const hudi_commit_metadata *md,
                    hudi_error *err) {
    if (md->replaced_count == 0) return 0;
    const char *prev = commit_before(q->t->timeline, in->time);
    if (!prev) return 0;
    hudi_fs_view *v = NULL;
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    vo.as_of_instant = prev;
    int rc = hudi_fs_view_build(&v, q->t->timeline, &vo, err);
    for (size_t p = 0; rc == 0 && p < md->replaced_count; p++) {
        const hudi_partition_replaced *r = &md->replaced[p];
        for (size_t k = 0; rc == 0 && k < r->count; k++) {
            const hudi_file_slice *s = hudi_fs_view_find(v, r->partition_path, r->file_ids[k]);
            if (!s || !s->base) continue;
            const char *rel = s->base->path + strlen(q->t->base_path) + 1;
            rc = whole_file(q, rel, "d", in->time, err);
        }
    }
    hudi_fs_view_free(v);
    return rc;
}

static bool is_base_file(const char *path) {
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    return name[0] != '.';
}

/* Whether a write stat before stats[s] of `ps` appended to the same file group's logs (a log
 * rolled over within one commit). */
static bool logged_before(const hudi_partition_write_stats *ps, size_t s) {
    for (size_t k = 0; k < s; k++)
        if (ps->stats[k].file_id && ps->stats[k].path && !is_base_file(ps->stats[k].path) &&
            strcmp(ps->stats[k].file_id, ps->stats[s].file_id) == 0)
            return true;
    return false;
}

static int one_commit(cdc_q *q, const hudi_instant *in, hudi_error *err) {
    const char *prev = NULL;
    hudi_buf json = HUDI_BUF_INIT;
    hudi_commit_metadata *md = NULL;
    int rc = hudi_timeline_read_commit_json(&json, q->t->timeline, in, err);
    if (rc == 0) rc = hudi_commit_metadata_parse(&md, json.data, json.len, in->time, err);
    hudi_buf_dispose(&json);
    if (rc < 0) return rc;
    /* clustering and compaction rewrite rows without changing them */
    if (md->operation_type &&
        (strcmp(md->operation_type, "CLUSTER") == 0 || strcmp(md->operation_type, "COMPACT") == 0 ||
         strcmp(md->operation_type, "LOG_COMPACT") == 0))
        goto done;
    if (md->is_replace && (rc = replaced(q, in, md, err)) < 0) goto done;
    for (size_t p = 0; rc == 0 && p < md->partitions_count; p++) {
        const hudi_partition_write_stats *ps = &md->partitions[p];
        const char *part = ps->partition_path ? ps->partition_path : "";
        for (size_t s = 0; rc == 0 && s < ps->count; s++) {
            const hudi_write_stat *st = &ps->stats[s];
            if (st->cdc_stats_json && strcmp(st->cdc_stats_json, "{}") != 0) {
                rc = as_is(q, in->time, st, part, err);
            } else if (!st->path) {
                rc =
                    hudi_error_set(err, HUDI_ECORRUPT, "%s: commit %s: a write stat without a path",
                                   q->t->base_path, in->time);
            } else if (!is_base_file(st->path)) { /* LOG_FILE, once per file group */
                if (st->file_id && !logged_before(ps, s)) {
                    if (!prev) prev = commit_before(q->t->timeline, in->time);
                    rc = log_file(q, in, prev, part, st->file_id, err);
                }
            } else if (st->num_writes == 0 && st->num_deletes > 0) { /* BASE_FILE_DELETE */
                char *old = NULL;
                rc = prev_base_path(q, st->prev_commit, part, st->file_id, &old, err);
                if (rc == 0) rc = whole_file(q, old, "d", in->time, err);
                hudi_free(old);
            } else if (st->num_update_writes == 0 && st->num_deletes == 0 &&
                       st->num_writes == st->num_inserts) { /* BASE_FILE_INSERT */
                rc = whole_file(q, st->path, "i", in->time, err);
            } else {
                rc = hudi_error_set(err, HUDI_ECORRUPT,
                                    "%s: commit %s rewrote %s without a CDC log file (written "
                                    "before hoodie.table.cdc.enabled was set?)",
                                    q->t->base_path, in->time, st->path);
            }
        }
    }
done:
    hudi_commit_metadata_free(md);
    return rc;
}

int hudi_cdc_read(hudi_cdc_rows *out, hudi_table *t, const char *begin, const char *end,
                  hudi_error *err) {
    static const char *const names[4] = {"op", "ts_ms", "before", "after"};
    memset(out, 0, sizeof(*out));
    bool enabled;
    cdc_q q;
    memset(&q, 0, sizeof(q));
    int rc = hudi_cdc_config(t, &enabled, &q.mode, err);
    if (rc < 0) return rc;
    if (!enabled)
        return hudi_error_set(err, HUDI_EINVAL,
                              "%s: it isn't a CDC hudi table (hoodie.table.cdc.enabled is not "
                              "true)",
                              t->base_path);
    if (hudi_field_init(&out->schema, "cdc", HUDI_TYPE_STRUCT, false) < 0 ||
        hudi_field_set_children(&out->schema, 4) < 0)
        return hudi_error_oom(err);
    for (int k = 0; k < 4; k++)
        if (hudi_field_init(&out->schema.children[k], names[k], HUDI_TYPE_STRING, true) < 0) {
            hudi_cdc_rows_dispose(out);
            return hudi_error_oom(err);
        }
    q.t = t;
    q.out = out;
    const char *after = begin && strcasecmp(begin, "earliest") != 0 ? begin : "000";
    hudi_instant_list commits = {0};
    rc = hudi_timeline_commits_between(&commits, t->timeline, after, end, err);
    for (size_t i = 0; rc == 0 && i < commits.count; i++)
        rc = one_commit(&q, commits.items[i], err);
    if (rc == 0) rc = flush_out(&q, err);
    hudi_instant_list_dispose(&commits);
    hudi_batch_free(q.cur);
    hudi_buf_dispose(&q.before);
    hudi_buf_dispose(&q.after);
    if (rc < 0) hudi_cdc_rows_dispose(out);
    return rc;
}

void hudi_cdc_rows_dispose(hudi_cdc_rows *r) {
    for (size_t i = 0; i < r->count; i++) hudi_batch_free(r->batches[i]);
    hudi_free(r->batches);
    hudi_field_dispose(&r->schema);
    memset(r, 0, sizeof(*r));
}
