/* pq_print.c - readable text of a Parquet footer for `hudic parquet schema` and `meta`:
 * the schema tree in parquet-mr's `message ... { optional binary a (STRING); }` form, and
 * the file/row-group/column-chunk metadata with statistics rendered per column type.
 *
 * Invariant: everything printed comes from decoded footer structs, which may hold any
 * bytes a writer put there: every statistic is checked for its expected length before it is
 * interpreted, and falls back to hex otherwise; strings are escaped so each item stays on
 * one line. */
#include <math.h>

#include "cli/cli.h"

#define KV_VALUE_MAX_BYTES 200 /* footer values longer than this are cut (Hudi bloom filters) */
#define STAT_MAX_BYTES 100     /* statistics strings longer than this are cut */
#define SCHEMA_MAX_DEPTH 128

/* The annotation of a schema element, from its LogicalType or else its ConvertedType. */
enum { ANN_INTERVAL = 100 };
typedef struct annotation {
    int32_t kind; /* PQ_LT_*, ANN_INTERVAL, or PQ_LT_NONE */
    int32_t scale, precision;
    int32_t unit; /* PQ_UNIT_* */
    bool utc;
    int32_t bit_width;
    bool is_signed;
} annotation;

static annotation element_annotation(const pq_schema_element *e) {
    annotation a = {PQ_LT_NONE, 0, 0, PQ_UNIT_UNKNOWN, true, 0, true};
    if (e->has_logical_type && e->logical_type.kind != PQ_LT_NONE) {
        const pq_logical_type *lt = &e->logical_type;
        a.kind = lt->kind;
        a.scale = lt->scale;
        a.precision = lt->precision;
        a.unit = lt->unit;
        a.utc = lt->is_adjusted_to_utc;
        a.bit_width = lt->bit_width;
        a.is_signed = lt->is_signed;
        return a;
    }
    if (!e->has_converted_type) return a;
    switch (e->converted_type) {
    case PQ_CT_UTF8: a.kind = PQ_LT_STRING; break;
    case PQ_CT_MAP:
    case PQ_CT_MAP_KEY_VALUE: a.kind = PQ_LT_MAP; break;
    case PQ_CT_LIST: a.kind = PQ_LT_LIST; break;
    case PQ_CT_ENUM: a.kind = PQ_LT_ENUM; break;
    case PQ_CT_DECIMAL:
        a.kind = PQ_LT_DECIMAL;
        a.scale = e->has_scale ? e->scale : 0;
        a.precision = e->has_precision ? e->precision : 0;
        break;
    case PQ_CT_DATE: a.kind = PQ_LT_DATE; break;
    case PQ_CT_TIME_MILLIS: a.kind = PQ_LT_TIME, a.unit = PQ_UNIT_MILLIS; break;
    case PQ_CT_TIME_MICROS: a.kind = PQ_LT_TIME, a.unit = PQ_UNIT_MICROS; break;
    case PQ_CT_TIMESTAMP_MILLIS: a.kind = PQ_LT_TIMESTAMP, a.unit = PQ_UNIT_MILLIS; break;
    case PQ_CT_TIMESTAMP_MICROS: a.kind = PQ_LT_TIMESTAMP, a.unit = PQ_UNIT_MICROS; break;
    case PQ_CT_UINT_8: a.kind = PQ_LT_INTEGER, a.bit_width = 8, a.is_signed = false; break;
    case PQ_CT_UINT_16: a.kind = PQ_LT_INTEGER, a.bit_width = 16, a.is_signed = false; break;
    case PQ_CT_UINT_32: a.kind = PQ_LT_INTEGER, a.bit_width = 32, a.is_signed = false; break;
    case PQ_CT_UINT_64: a.kind = PQ_LT_INTEGER, a.bit_width = 64, a.is_signed = false; break;
    case PQ_CT_INT_8: a.kind = PQ_LT_INTEGER, a.bit_width = 8; break;
    case PQ_CT_INT_16: a.kind = PQ_LT_INTEGER, a.bit_width = 16; break;
    case PQ_CT_INT_32: a.kind = PQ_LT_INTEGER, a.bit_width = 32; break;
    case PQ_CT_INT_64: a.kind = PQ_LT_INTEGER, a.bit_width = 64; break;
    case PQ_CT_JSON: a.kind = PQ_LT_JSON; break;
    case PQ_CT_BSON: a.kind = PQ_LT_BSON; break;
    case PQ_CT_INTERVAL: a.kind = ANN_INTERVAL; break;
    default: break;
    }
    return a;
}

static const char *unit_text(int32_t unit) {
    switch (unit) {
    case PQ_UNIT_MILLIS: return "MILLIS";
    case PQ_UNIT_MICROS: return "MICROS";
    case PQ_UNIT_NANOS: return "NANOS";
    default: return "UNKNOWN_UNIT";
    }
}

static hudi_time_unit hudi_unit(int32_t unit) {
    return unit == PQ_UNIT_MILLIS  ? HUDI_UNIT_MILLIS
           : unit == PQ_UNIT_NANOS ? HUDI_UNIT_NANOS
                                   : HUDI_UNIT_MICROS;
}

static void put_logical(hudi_buf *b, const pq_logical_type *lt) {
    switch (lt->kind) {
    case PQ_LT_STRING: hudi_buf_puts(b, "STRING"); break;
    case PQ_LT_MAP: hudi_buf_puts(b, "MAP"); break;
    case PQ_LT_LIST: hudi_buf_puts(b, "LIST"); break;
    case PQ_LT_ENUM: hudi_buf_puts(b, "ENUM"); break;
    case PQ_LT_DECIMAL: hudi_buf_printf(b, "DECIMAL(%d,%d)", lt->precision, lt->scale); break;
    case PQ_LT_DATE: hudi_buf_puts(b, "DATE"); break;
    case PQ_LT_TIME:
        hudi_buf_printf(b, "TIME(%s,%s)", unit_text(lt->unit),
                        lt->is_adjusted_to_utc ? "true" : "false");
        break;
    case PQ_LT_TIMESTAMP:
        hudi_buf_printf(b, "TIMESTAMP(%s,%s)", unit_text(lt->unit),
                        lt->is_adjusted_to_utc ? "true" : "false");
        break;
    case PQ_LT_INTEGER:
        hudi_buf_printf(b, "INTEGER(%d,%s)", lt->bit_width, lt->is_signed ? "true" : "false");
        break;
    case PQ_LT_UNKNOWN: hudi_buf_puts(b, "UNKNOWN"); break;
    case PQ_LT_JSON: hudi_buf_puts(b, "JSON"); break;
    case PQ_LT_BSON: hudi_buf_puts(b, "BSON"); break;
    case PQ_LT_UUID: hudi_buf_puts(b, "UUID"); break;
    case PQ_LT_FLOAT16: hudi_buf_puts(b, "FLOAT16"); break;
    case PQ_LT_VARIANT: hudi_buf_puts(b, "VARIANT"); break;
    case PQ_LT_GEOMETRY: hudi_buf_puts(b, "GEOMETRY"); break;
    case PQ_LT_GEOGRAPHY: hudi_buf_puts(b, "GEOGRAPHY"); break;
    case PQ_LT_FILE: hudi_buf_puts(b, "FILE"); break;
    default: hudi_buf_printf(b, "LOGICAL_TYPE_%d", lt->kind); break;
    }
}

static const char *converted_name(int32_t ct) {
    static const char *const names[] = {
        "UTF8",
        "MAP",
        "MAP_KEY_VALUE",
        "LIST",
        "ENUM",
        "DECIMAL",
        "DATE",
        "TIME_MILLIS",
        "TIME_MICROS",
        "TIMESTAMP_MILLIS",
        "TIMESTAMP_MICROS",
        "UINT_8",
        "UINT_16",
        "UINT_32",
        "UINT_64",
        "INT_8",
        "INT_16",
        "INT_32",
        "INT_64",
        "JSON",
        "BSON",
        "INTERVAL",
    };
    return ct >= 0 && (size_t)ct < HUDI_ARRAY_LEN(names) ? names[ct] : NULL;
}

/* "(STRING)" from the LogicalType, else "(UTF8)" from the ConvertedType; nothing when
 * neither is set. An unknown LogicalType member shows its ConvertedType (if any). */
static void put_annotation(hudi_buf *b, const pq_schema_element *e) {
    if (e->has_logical_type && e->logical_type.kind != PQ_LT_NONE) {
        hudi_buf_puts(b, " (");
        put_logical(b, &e->logical_type);
        hudi_buf_putc(b, ')');
        return;
    }
    if (!e->has_converted_type) return;
    const char *name = converted_name(e->converted_type);
    if (!name) {
        hudi_buf_printf(b, " (CONVERTED_TYPE_%d)", e->converted_type);
    } else if (e->converted_type == PQ_CT_DECIMAL) {
        hudi_buf_printf(b, " (DECIMAL(%d,%d))", e->has_precision ? e->precision : 0,
                        e->has_scale ? e->scale : 0);
    } else {
        hudi_buf_printf(b, " (%s)", name);
    }
}

static const char *physical_name(int32_t t) {
    static const char *const names[] = {"boolean", "int32",  "int64",  "int96",
                                        "float",   "double", "binary", "fixed_len_byte_array"};
    return t >= 0 && (size_t)t < HUDI_ARRAY_LEN(names) ? names[t] : NULL;
}

static const char *physical_upper(int32_t t) {
    static const char *const names[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                        "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
    return t >= 0 && (size_t)t < HUDI_ARRAY_LEN(names) ? names[t] : "UNKNOWN_TYPE";
}

static const char *repetition_name(const pq_schema_element *e) {
    if (!e->has_repetition) return "required";
    switch (e->repetition) {
    case PQ_REQUIRED: return "required";
    case PQ_OPTIONAL: return "optional";
    case PQ_REPEATED: return "repeated";
    default: return "unknown_repetition";
    }
}

/* A name from the file, with control characters escaped so the tree stays line-based. */
static void put_name(hudi_buf *b, hudi_slice name) {
    for (size_t i = 0; i < name.len; i++) {
        uint8_t c = name.data[i];
        if (c < 0x20 || c == 0x7f)
            hudi_buf_printf(b, "\\x%02x", c);
        else
            hudi_buf_putc(b, (char)c);
    }
}

static void indent(hudi_buf *b, int depth) {
    for (int i = 0; i < depth; i++) hudi_buf_puts(b, "  ");
}

/* Prints element *pos and its subtree; advances *pos past it. */
static void print_element(hudi_buf *b, const pq_file_meta *m, int32_t *pos, int depth) {
    const pq_schema_element *e = &m->schema[(*pos)++];
    indent(b, depth);
    bool group = e->num_children > 0 || !e->has_type;
    hudi_buf_puts(b, repetition_name(e));
    if (group) {
        hudi_buf_puts(b, " group ");
    } else {
        const char *pn = physical_name(e->type);
        if (pn)
            hudi_buf_printf(b, " %s", pn);
        else
            hudi_buf_printf(b, " type(%d)", e->type);
        if (e->type == PQ_FIXED_LEN_BYTE_ARRAY)
            hudi_buf_printf(b, "(%d)", e->has_type_length ? e->type_length : -1);
        hudi_buf_putc(b, ' ');
    }
    put_name(b, e->name);
    put_annotation(b, e);
    if (e->has_field_id) hudi_buf_printf(b, " = %d", e->field_id);
    if (!group) {
        hudi_buf_puts(b, ";\n");
        return;
    }
    hudi_buf_puts(b, " {\n");
    for (int32_t i = 0; i < e->num_children && *pos < m->n_schema; i++) {
        if (depth >= SCHEMA_MAX_DEPTH) {
            indent(b, depth + 1);
            hudi_buf_puts(b, "...\n");
            break;
        }
        print_element(b, m, pos, depth + 1);
    }
    indent(b, depth);
    hudi_buf_puts(b, "}\n");
}

void cli_print_parquet_schema(hudi_buf *out, const pq_file_meta *m, const hudi_field *schema) {
    if (m->n_schema <= 0) {
        hudi_buf_puts(out, "message (empty) {\n}\n");
    } else {
        const pq_schema_element *root = &m->schema[0];
        hudi_buf_puts(out, "message ");
        put_name(out, root->name);
        hudi_buf_puts(out, " {\n");
        int32_t pos = 1;
        for (int32_t i = 0; i < root->num_children && pos < m->n_schema; i++)
            print_element(out, m, &pos, 1);
        hudi_buf_puts(out, "}\n");
    }
    hudi_buf_puts(out, "\nhudic types:\n");
    for (int32_t i = 0; schema && i < schema->n_children; i++) {
        const hudi_field *c = &schema->children[i];
        hudi_buf_puts(out, "  ");
        hudi_buf_puts(out, c->name ? c->name : "");
        hudi_buf_puts(out, ": ");
        hudi_field_describe(out, c);
        if (!c->nullable) hudi_buf_puts(out, " not null");
        if (c->field_id >= 0) hudi_buf_printf(out, " (field id %d)", c->field_id);
        hudi_buf_putc(out, '\n');
    }
}

/* ---- meta ---------------------------------------------------------------------------------- */

static const char *codec_name(int32_t c) {
    static const char *const names[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO",
                                        "BROTLI",       "LZ4",    "ZSTD", "LZ4_RAW"};
    return c >= 0 && (size_t)c < HUDI_ARRAY_LEN(names) ? names[c] : NULL;
}

static void put_encoding(hudi_buf *b, int32_t enc) {
    static const char *const names[] = {"PLAIN",
                                        "GROUP_VAR_INT",
                                        "PLAIN_DICTIONARY",
                                        "RLE",
                                        "BIT_PACKED",
                                        "DELTA_BINARY_PACKED",
                                        "DELTA_LENGTH_BYTE_ARRAY",
                                        "DELTA_BYTE_ARRAY",
                                        "RLE_DICTIONARY",
                                        "BYTE_STREAM_SPLIT",
                                        "ALP"};
    if (enc >= 0 && (size_t)enc < HUDI_ARRAY_LEN(names))
        hudi_buf_puts(b, names[enc]);
    else
        hudi_buf_printf(b, "ENCODING_%d", enc);
}

static void put_page_type(hudi_buf *b, int32_t t) {
    static const char *const names[] = {"DATA_PAGE", "INDEX_PAGE", "DICTIONARY_PAGE",
                                        "DATA_PAGE_V2"};
    if (t >= 0 && (size_t)t < HUDI_ARRAY_LEN(names))
        hudi_buf_puts(b, names[t]);
    else
        hudi_buf_printf(b, "PAGE_%d", t);
}

/* Escaped text of footer bytes (key/value metadata): quotes, backslashes and control
 * characters escaped, cut at `max` bytes (on a UTF-8 boundary) with a size note. */
static void put_text(hudi_buf *b, hudi_slice s, size_t max) {
    size_t shown = s.len;
    if (max && shown > max) {
        shown = max;
        while (shown > 0 && (s.data[shown] & 0xc0) == 0x80) shown--; /* keep whole chars */
    }
    for (size_t i = 0; i < shown; i++) {
        uint8_t c = s.data[i];
        if (c == '\n')
            hudi_buf_puts(b, "\\n");
        else if (c == '\r')
            hudi_buf_puts(b, "\\r");
        else if (c == '\t')
            hudi_buf_puts(b, "\\t");
        else if (c == '\\')
            hudi_buf_puts(b, "\\\\");
        else if (c < 0x20 || c == 0x7f)
            hudi_buf_printf(b, "\\x%02x", c);
        else
            hudi_buf_putc(b, (char)c);
    }
    if (shown < s.len) hudi_buf_printf(b, "… (%zu bytes)", s.len);
}

static void put_kv_list(hudi_buf *b, const pq_key_value *kv, int32_t n, int depth) {
    for (int32_t i = 0; i < n; i++) {
        indent(b, depth);
        put_text(b, kv[i].key, KV_VALUE_MAX_BYTES);
        if (kv[i].has_value) {
            hudi_buf_puts(b, " = ");
            put_text(b, kv[i].value, KV_VALUE_MAX_BYTES);
        } else {
            hudi_buf_puts(b, " (no value)");
        }
        hudi_buf_putc(b, '\n');
    }
}

static bool is_textual(const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (p[i] < 0x20 || p[i] == 0x7f) return false;
    return hudi_utf8_valid(p, n);
}

static void put_decimal(hudi_buf *b, __int128 unscaled, int32_t scale) {
    uint8_t le[16];
    memcpy(le, &unscaled, 16); /* x86-64 and aarch64 are little-endian, as render expects */
    hudi_render_decimal128(b, le, scale);
}

/* One statistic value, rendered per the column's physical type and annotation. Any length
 * that does not fit the type falls back to hex. */
static void put_stat(hudi_buf *b, const pq_schema_element *e, int32_t physical, hudi_slice v) {
    annotation a = e ? element_annotation(e) : (annotation){0};
    const uint8_t *p = v.data;
    switch (physical) {
    case PQ_BOOLEAN:
        if (v.len != 1) break;
        hudi_buf_puts(b, p[0] ? "true" : "false");
        return;
    case PQ_INT32: {
        if (v.len != 4) break;
        int32_t x = (int32_t)hudi_load_u32le(p);
        if (a.kind == PQ_LT_DATE)
            hudi_render_date(b, x);
        else if (a.kind == PQ_LT_DECIMAL)
            put_decimal(b, x, a.scale);
        else if (a.kind == PQ_LT_TIME)
            hudi_render_time(b, x, hudi_unit(a.unit));
        else if (a.kind == PQ_LT_INTEGER && !a.is_signed)
            hudi_render_u64(b, (uint32_t)x);
        else
            hudi_render_i64(b, x);
        return;
    }
    case PQ_INT64: {
        if (v.len != 8) break;
        int64_t x = (int64_t)hudi_load_u64le(p);
        if (a.kind == PQ_LT_TIMESTAMP)
            hudi_render_timestamp(b, x, hudi_unit(a.unit), a.utc);
        else if (a.kind == PQ_LT_DECIMAL)
            put_decimal(b, x, a.scale);
        else if (a.kind == PQ_LT_TIME)
            hudi_render_time(b, x, hudi_unit(a.unit));
        else if (a.kind == PQ_LT_INTEGER && !a.is_signed)
            hudi_render_u64(b, (uint64_t)x);
        else
            hudi_render_i64(b, x);
        return;
    }
    case PQ_INT96: {
        if (v.len != 12) break;
        /* docs/formats/parquet.md §5.4: signed day, wrapping 64-bit arithmetic, never through
         * nanoseconds. */
        int64_t nanos = (int64_t)hudi_load_u64le(p);
        int32_t day = (int32_t)hudi_load_u32le(p + 8);
        uint64_t micros =
            (uint64_t)((int64_t)day - 2440588) * UINT64_C(86400000000) + (uint64_t)(nanos / 1000);
        hudi_render_timestamp(b, (int64_t)micros, HUDI_UNIT_MICROS, true);
        return;
    }
    case PQ_FLOAT: {
        if (v.len != 4) break;
        float f;
        memcpy(&f, p, 4);
        hudi_render_float(b, f);
        return;
    }
    case PQ_DOUBLE: {
        if (v.len != 8) break;
        double d;
        memcpy(&d, p, 8);
        hudi_render_double(b, d);
        return;
    }
    case PQ_BYTE_ARRAY:
    case PQ_FIXED_LEN_BYTE_ARRAY: {
        if (a.kind == PQ_LT_DECIMAL && v.len >= 1 && v.len <= 16) {
            put_decimal(b, hudi_load_i128be(p, v.len), a.scale);
            return;
        }
        if (a.kind == PQ_LT_FLOAT16 && v.len == 2) {
            hudi_render_double(b, cli_half_to_double(hudi_load_u16le(p)));
            return;
        }
        if (a.kind == PQ_LT_UUID && v.len == 16) {
            hudi_render_uuid(b, p);
            return;
        }
        bool text = a.kind == PQ_LT_STRING || a.kind == PQ_LT_ENUM || a.kind == PQ_LT_JSON;
        if (text || (a.kind == PQ_LT_NONE && is_textual(p, v.len))) {
            size_t shown = v.len;
            if (shown > STAT_MAX_BYTES) {
                shown = STAT_MAX_BYTES;
                while (shown > 0 && (p[shown] & 0xc0) == 0x80) shown--;
            }
            hudi_render_json_string(b, p, shown);
            if (shown < v.len) hudi_buf_printf(b, "… (%zu bytes)", v.len);
            return;
        }
        cli_fmt_hex(b, p, v.len, STAT_MAX_BYTES);
        return;
    }
    default: break;
    }
    cli_fmt_hex(b, p, v.len, STAT_MAX_BYTES);
    if (physical >= PQ_BOOLEAN && physical <= PQ_DOUBLE) hudi_buf_puts(b, " (unexpected length)");
}

static void put_stats(hudi_buf *b, const pq_statistics *s, const pq_schema_element *e,
                      int32_t physical) {
    const char *sep = "";
#define SEP() (hudi_buf_puts(b, sep), sep = ", ")
    if (s->has_null_count) SEP(), hudi_buf_printf(b, "null_count %lld", (long long)s->null_count);
    if (s->has_distinct_count)
        SEP(), hudi_buf_printf(b, "distinct_count %lld", (long long)s->distinct_count);
    if (s->has_nan_count) SEP(), hudi_buf_printf(b, "nan_count %lld", (long long)s->nan_count);
    if (s->has_min_value) {
        SEP(), hudi_buf_puts(b, "min ");
        put_stat(b, e, physical, s->min_value);
        if (s->has_is_min_value_exact)
            hudi_buf_puts(b, s->is_min_value_exact ? " (exact)" : " (inexact)");
    }
    if (s->has_max_value) {
        SEP(), hudi_buf_puts(b, "max ");
        put_stat(b, e, physical, s->max_value);
        if (s->has_is_max_value_exact)
            hudi_buf_puts(b, s->is_max_value_exact ? " (exact)" : " (inexact)");
    }
    /* The deprecated pair may be signed-ordered (parquet.md §6.1): shown, labelled, not merged. */
    if (s->has_min) SEP(), hudi_buf_puts(b, "deprecated min "), put_stat(b, e, physical, s->min);
    if (s->has_max) SEP(), hudi_buf_puts(b, "deprecated max "), put_stat(b, e, physical, s->max);
#undef SEP
    if (!*sep) hudi_buf_puts(b, "(empty)");
}

static void put_path(hudi_buf *b, const pq_column_meta *cm) {
    for (int32_t i = 0; i < cm->n_path; i++) {
        if (i) hudi_buf_putc(b, '.');
        put_text(b, cm->path_in_schema[i], 0);
    }
}

static void print_chunk(hudi_buf *b, const pq_column_chunk *cc, int32_t index,
                        const pq_schema_element *leaf) {
    hudi_buf_printf(b, "  column %d", index);
    if (!cc->has_meta_data) {
        hudi_buf_puts(b, cc->has_crypto_metadata || cc->has_encrypted_column_metadata
                             ? ": encrypted column metadata\n"
                             : ": no column metadata\n");
        return;
    }
    const pq_column_meta *cm = &cc->meta_data;
    hudi_buf_puts(b, " ");
    put_path(b, cm);
    const char *codec = codec_name(cm->codec);
    hudi_buf_printf(b, ": %s, ", physical_upper(cm->type));
    if (codec)
        hudi_buf_puts(b, codec);
    else
        hudi_buf_printf(b, "CODEC_%d", cm->codec);
    if (cc->has_file_path) {
        hudi_buf_puts(b, ", file_path ");
        put_text(b, cc->file_path, KV_VALUE_MAX_BYTES);
    }
    hudi_buf_puts(b, "\n    encodings: ");
    for (int32_t i = 0; i < cm->n_encodings; i++) {
        if (i) hudi_buf_puts(b, ", ");
        put_encoding(b, cm->encodings[i]);
    }
    if (cm->n_encodings <= 0) hudi_buf_puts(b, "(none)");
    hudi_buf_putc(b, '\n');
    if (cm->n_encoding_stats > 0) {
        hudi_buf_puts(b, "    encoding_stats: ");
        for (int32_t i = 0; i < cm->n_encoding_stats; i++) {
            const pq_page_encoding_stats *es = &cm->encoding_stats[i];
            if (i) hudi_buf_puts(b, ", ");
            put_page_type(b, es->page_type);
            hudi_buf_putc(b, ' ');
            put_encoding(b, es->encoding);
            hudi_buf_printf(b, " x%d", es->count);
        }
        hudi_buf_putc(b, '\n');
    }
    hudi_buf_printf(b, "    num_values %lld, compressed %lld bytes, uncompressed %lld bytes\n",
                    (long long)cm->num_values, (long long)cm->total_compressed_size,
                    (long long)cm->total_uncompressed_size);
    hudi_buf_puts(b, "    offsets: ");
    if (cm->has_dictionary_page_offset)
        hudi_buf_printf(b, "dictionary_page %lld, ", (long long)cm->dictionary_page_offset);
    if (cm->has_index_page_offset)
        hudi_buf_printf(b, "index_page %lld, ", (long long)cm->index_page_offset);
    hudi_buf_printf(b, "data_page %lld\n", (long long)cm->data_page_offset);
    hudi_buf_puts(b, "    statistics: ");
    if (cm->has_statistics)
        put_stats(b, &cm->statistics, leaf, cm->type);
    else
        hudi_buf_puts(b, "(none)");
    hudi_buf_putc(b, '\n');
    if (cc->has_column_index || cc->has_offset_index) {
        hudi_buf_puts(b, "    page index:");
        if (cc->has_column_index)
            hudi_buf_printf(b, " column_index %lld (%d bytes)", (long long)cc->column_index_offset,
                            cc->column_index_length);
        if (cc->has_offset_index)
            hudi_buf_printf(b, "%s offset_index %lld (%d bytes)", cc->has_column_index ? "," : "",
                            (long long)cc->offset_index_offset, cc->offset_index_length);
        hudi_buf_putc(b, '\n');
    }
    if (cm->has_bloom_filter_offset) {
        hudi_buf_printf(b, "    bloom filter: offset %lld", (long long)cm->bloom_filter_offset);
        if (cm->has_bloom_filter_length) hudi_buf_printf(b, " (%d bytes)", cm->bloom_filter_length);
        hudi_buf_putc(b, '\n');
    }
    if (cm->n_key_value > 0) {
        hudi_buf_puts(b, "    key/value metadata:\n");
        put_kv_list(b, cm->key_value, cm->n_key_value, 3);
    }
}

static const char *order_name(int32_t o) {
    switch (o) {
    case PQ_ORDER_TYPE: return "TYPE_ORDER";
    case PQ_ORDER_IEEE754_TOTAL: return "IEEE_754_TOTAL_ORDER";
    case PQ_ORDER_INT96: return "INT96_TIMESTAMP_ORDER";
    default: return "UNKNOWN_ORDER";
    }
}

/* The leaf schema elements in pre-order (RowGroup.columns[i] belongs to leaves[i]). */
static int32_t collect_leaves(const pq_file_meta *m, const pq_schema_element **leaves) {
    int32_t n = 0;
    for (int32_t i = 1; i < m->n_schema; i++)
        if (m->schema[i].num_children <= 0 && m->schema[i].has_type) leaves[n++] = &m->schema[i];
    return n;
}

static void print_column_orders(hudi_buf *b, const pq_file_meta *m,
                                const pq_schema_element *const *leaves, int32_t n_leaves) {
    hudi_buf_puts(b, "column orders: ");
    if (m->n_column_orders < 0) {
        hudi_buf_puts(b, "(none)\n");
        return;
    }
    bool same = true;
    for (int32_t i = 1; i < m->n_column_orders; i++)
        same = same && m->column_orders[i] == m->column_orders[0];
    if (same && m->n_column_orders > 0) {
        hudi_buf_printf(b, "%s (all %d columns)\n", order_name(m->column_orders[0]),
                        m->n_column_orders);
        return;
    }
    hudi_buf_printf(b, "%d entries\n", m->n_column_orders);
    for (int32_t i = 0; i < m->n_column_orders; i++) {
        hudi_buf_puts(b, "  ");
        if (i < n_leaves)
            put_name(b, leaves[i]->name);
        else
            hudi_buf_printf(b, "#%d", i);
        hudi_buf_printf(b, ": %s\n", order_name(m->column_orders[i]));
    }
}

static void print_row_group(hudi_buf *b, const pq_row_group *rg, int32_t index,
                            const pq_schema_element *const *leaves, int32_t n_leaves) {
    hudi_buf_printf(b, "\nrow group %d: %lld rows, total_byte_size %lld", index,
                    (long long)rg->num_rows, (long long)rg->total_byte_size);
    if (rg->has_total_compressed_size)
        hudi_buf_printf(b, ", total_compressed_size %lld", (long long)rg->total_compressed_size);
    if (rg->has_file_offset) hudi_buf_printf(b, ", file_offset %lld", (long long)rg->file_offset);
    if (rg->has_ordinal) hudi_buf_printf(b, ", ordinal %d", rg->ordinal);
    hudi_buf_putc(b, '\n');
    if (rg->n_sorting_columns > 0) {
        hudi_buf_puts(b, "  sorting columns: ");
        for (int32_t i = 0; i < rg->n_sorting_columns; i++) {
            const pq_sorting_column *sc = &rg->sorting_columns[i];
            if (i) hudi_buf_puts(b, ", ");
            if (sc->column_idx >= 0 && sc->column_idx < n_leaves)
                put_name(b, leaves[sc->column_idx]->name);
            else
                hudi_buf_printf(b, "#%d", sc->column_idx);
            hudi_buf_printf(b, " %s nulls %s", sc->descending ? "desc" : "asc",
                            sc->nulls_first ? "first" : "last");
        }
        hudi_buf_putc(b, '\n');
    }
    for (int32_t c = 0; c < rg->n_columns; c++)
        print_chunk(b, &rg->columns[c], c, c < n_leaves ? leaves[c] : NULL);
}

void cli_print_parquet_meta(hudi_buf *out, const pq_file_meta *m, int64_t file_size) {
    const pq_schema_element **leaves = NULL;
    int32_t n_leaves = 0;
    if (m->n_schema > 0) {
        leaves = hudi_calloc((size_t)m->n_schema, sizeof(*leaves));
        if (!leaves) {
            out->failed = true; /* reported by the caller as out of memory */
            return;
        }
        n_leaves = collect_leaves(m, leaves);
    }
    int64_t rows = 0;
    for (int32_t i = 0; i < m->n_row_groups; i++) rows += m->row_groups[i].num_rows;

    hudi_buf_printf(out, "file size: %lld bytes\n", (long long)file_size);
    hudi_buf_puts(out, "created_by: ");
    if (m->has_created_by)
        put_text(out, m->created_by, KV_VALUE_MAX_BYTES);
    else
        hudi_buf_puts(out, "(none)");
    hudi_buf_printf(out, "\nversion: %d\n", m->version);
    hudi_buf_printf(out, "num_rows: %lld", (long long)rows);
    if (rows != m->num_rows)
        hudi_buf_printf(out, " (FileMetaData.num_rows says %lld)", (long long)m->num_rows);
    hudi_buf_printf(out, "\nrow groups: %d\nleaf columns: %d\n", m->n_row_groups, n_leaves);
    if (m->n_key_value < 0) {
        hudi_buf_puts(out, "key/value metadata: (none)\n");
    } else {
        hudi_buf_printf(out, "key/value metadata: %d entries\n", m->n_key_value);
        put_kv_list(out, m->key_value, m->n_key_value, 1);
    }
    print_column_orders(out, m, leaves, n_leaves);
    if (m->has_encryption_algorithm) hudi_buf_puts(out, "encryption: plaintext footer\n");
    for (int32_t i = 0; i < m->n_row_groups; i++)
        print_row_group(out, &m->row_groups[i], i, leaves, n_leaves);
    hudi_free(leaves);
}
