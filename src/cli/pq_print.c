/* pq_print.c - readable text of a Parquet footer for `hudic parquet schema` and `meta`:
 * the schema tree in parquet-mr's `message ... { optional binary a (STRING); }` form, and
 * the file/row-group/column-chunk metadata with statistics rendered per column type, all read
 * through the public footer accessors of hudi_parquet.h.
 *
 * Invariant: the footer may hold any bytes a writer put there: statistics are rendered by the
 * library (hudi_parquet_stat_text, hex when they do not fit their type), and names and
 * key/value text are escaped here so each item stays on one line. */
#include <stdlib.h>

#include "cli.h"

#define KV_VALUE_MAX_BYTES 200 /* footer values longer than this are cut (Hudi bloom filters) */
#define SCHEMA_MAX_DEPTH 128
#define CT_DECIMAL 5 /* ConvertedType DECIMAL */

static const char *unit_text(int32_t unit) {
    switch (unit) {
    case HUDI_PARQUET_UNIT_MILLIS: return "MILLIS";
    case HUDI_PARQUET_UNIT_MICROS: return "MICROS";
    case HUDI_PARQUET_UNIT_NANOS: return "NANOS";
    default: return "UNKNOWN_UNIT";
    }
}

static void put_logical(cli_buf *b, const hudi_parquet_logical_type *lt) {
    switch (lt->kind) {
    case HUDI_PARQUET_LT_STRING: cli_buf_puts(b, "STRING"); break;
    case HUDI_PARQUET_LT_MAP: cli_buf_puts(b, "MAP"); break;
    case HUDI_PARQUET_LT_LIST: cli_buf_puts(b, "LIST"); break;
    case HUDI_PARQUET_LT_ENUM: cli_buf_puts(b, "ENUM"); break;
    case HUDI_PARQUET_LT_DECIMAL:
        cli_buf_printf(b, "DECIMAL(%d,%d)", lt->precision, lt->scale);
        break;
    case HUDI_PARQUET_LT_DATE: cli_buf_puts(b, "DATE"); break;
    case HUDI_PARQUET_LT_TIME:
        cli_buf_printf(b, "TIME(%s,%s)", unit_text(lt->unit), lt->utc ? "true" : "false");
        break;
    case HUDI_PARQUET_LT_TIMESTAMP:
        cli_buf_printf(b, "TIMESTAMP(%s,%s)", unit_text(lt->unit), lt->utc ? "true" : "false");
        break;
    case HUDI_PARQUET_LT_INTEGER:
        cli_buf_printf(b, "INTEGER(%d,%s)", lt->bit_width, lt->is_signed ? "true" : "false");
        break;
    case HUDI_PARQUET_LT_UNKNOWN: cli_buf_puts(b, "UNKNOWN"); break;
    case HUDI_PARQUET_LT_JSON: cli_buf_puts(b, "JSON"); break;
    case HUDI_PARQUET_LT_BSON: cli_buf_puts(b, "BSON"); break;
    case HUDI_PARQUET_LT_UUID: cli_buf_puts(b, "UUID"); break;
    case HUDI_PARQUET_LT_FLOAT16: cli_buf_puts(b, "FLOAT16"); break;
    case HUDI_PARQUET_LT_VARIANT: cli_buf_puts(b, "VARIANT"); break;
    case HUDI_PARQUET_LT_GEOMETRY: cli_buf_puts(b, "GEOMETRY"); break;
    case HUDI_PARQUET_LT_GEOGRAPHY: cli_buf_puts(b, "GEOGRAPHY"); break;
    case HUDI_PARQUET_LT_FILE: cli_buf_puts(b, "FILE"); break;
    default: cli_buf_printf(b, "LOGICAL_TYPE_%d", lt->kind); break;
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
    return ct >= 0 && (size_t)ct < CLI_ARRAY_LEN(names) ? names[ct] : NULL;
}

/* "(STRING)" from the LogicalType, else "(UTF8)" from the ConvertedType; nothing when
 * neither is set. An unknown LogicalType member shows its ConvertedType (if any). */
static void put_annotation(cli_buf *b, const hudi_parquet_schema_element *e) {
    if (e->has_logical_type && e->logical_type.kind != HUDI_PARQUET_LT_NONE) {
        cli_buf_puts(b, " (");
        put_logical(b, &e->logical_type);
        cli_buf_putc(b, ')');
        return;
    }
    if (e->converted_type < 0) return;
    const char *name = converted_name(e->converted_type);
    if (!name) {
        cli_buf_printf(b, " (CONVERTED_TYPE_%d)", e->converted_type);
    } else if (e->converted_type == CT_DECIMAL) {
        cli_buf_printf(b, " (DECIMAL(%d,%d))", e->precision >= 0 ? e->precision : 0,
                       e->scale >= 0 ? e->scale : 0);
    } else {
        cli_buf_printf(b, " (%s)", name);
    }
}

static const char *physical_name(int32_t t) {
    static const char *const names[] = {"boolean", "int32",  "int64",  "int96",
                                        "float",   "double", "binary", "fixed_len_byte_array"};
    return t >= 0 && (size_t)t < CLI_ARRAY_LEN(names) ? names[t] : NULL;
}

static const char *physical_upper(int32_t t) {
    static const char *const names[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                        "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
    return t >= 0 && (size_t)t < CLI_ARRAY_LEN(names) ? names[t] : "UNKNOWN_TYPE";
}

static const char *repetition_name(int32_t repetition) {
    switch (repetition) {
    case -1:
    case HUDI_PARQUET_REQUIRED: return "required";
    case HUDI_PARQUET_OPTIONAL: return "optional";
    case HUDI_PARQUET_REPEATED: return "repeated";
    default: return "unknown_repetition";
    }
}

/* A name from the file, with control characters escaped so the tree stays line-based. */
static void put_name(cli_buf *b, hudi_parquet_bytes name) {
    for (size_t i = 0; i < name.len; i++) {
        uint8_t c = name.data[i];
        if (c < 0x20 || c == 0x7f)
            cli_buf_printf(b, "\\x%02x", c);
        else
            cli_buf_putc(b, (char)c);
    }
}

static void indent(cli_buf *b, int depth) {
    for (int i = 0; i < depth; i++) cli_buf_puts(b, "  ");
}

/* Prints element *pos and its subtree; advances *pos past it. */
static void print_element(cli_buf *b, const hudi_parquet_file *f, int32_t *pos, int depth) {
    int32_t n_schema = hudi_parquet_num_schema_elements(f);
    hudi_parquet_schema_element e;
    hudi_parquet_schema_element_get(f, (*pos)++, &e);
    indent(b, depth);
    bool group = e.num_children > 0 || e.physical_type < 0;
    cli_buf_puts(b, repetition_name(e.repetition));
    if (group) {
        cli_buf_puts(b, " group ");
    } else {
        const char *pn = physical_name(e.physical_type);
        if (pn)
            cli_buf_printf(b, " %s", pn);
        else
            cli_buf_printf(b, " type(%d)", e.physical_type);
        if (e.physical_type == HUDI_PARQUET_FIXED_LEN_BYTE_ARRAY)
            cli_buf_printf(b, "(%d)", e.type_length);
        cli_buf_putc(b, ' ');
    }
    put_name(b, e.name);
    put_annotation(b, &e);
    if (e.field_id >= 0) cli_buf_printf(b, " = %d", e.field_id);
    if (!group) {
        cli_buf_puts(b, ";\n");
        return;
    }
    cli_buf_puts(b, " {\n");
    for (int32_t i = 0; i < e.num_children && *pos < n_schema; i++) {
        if (depth >= SCHEMA_MAX_DEPTH) {
            indent(b, depth + 1);
            cli_buf_puts(b, "...\n");
            break;
        }
        print_element(b, f, pos, depth + 1);
    }
    indent(b, depth);
    cli_buf_puts(b, "}\n");
}

void cli_print_parquet_schema(cli_buf *out, const hudi_parquet_file *f) {
    int32_t n_schema = hudi_parquet_num_schema_elements(f);
    if (n_schema <= 0) {
        cli_buf_puts(out, "message (empty) {\n}\n");
    } else {
        hudi_parquet_schema_element root;
        hudi_parquet_schema_element_get(f, 0, &root);
        cli_buf_puts(out, "message ");
        put_name(out, root.name);
        cli_buf_puts(out, " {\n");
        int32_t pos = 1;
        for (int32_t i = 0; i < root.num_children && pos < n_schema; i++)
            print_element(out, f, &pos, 1);
        cli_buf_puts(out, "}\n");
    }
    cli_buf_puts(out, "\nhudic types:\n");
    for (int32_t i = 0; i < hudi_parquet_num_columns(f); i++) {
        char type[256];
        int64_t n = hudi_parquet_column_type_text(f, i, type, sizeof(type));
        cli_buf_puts(out, "  ");
        cli_buf_puts(out, hudi_parquet_column_name(f, i));
        cli_buf_puts(out, ": ");
        if (n >= (int64_t)sizeof(type)) {
            char *big = malloc((size_t)n + 1);
            if (!big) {
                out->failed = true;
                return;
            }
            hudi_parquet_column_type_text(f, i, big, (size_t)n + 1);
            cli_buf_puts(out, big);
            free(big);
        } else if (n >= 0) {
            cli_buf_puts(out, type);
        }
        int32_t id = hudi_parquet_column_field_id(f, i);
        if (id >= 0) cli_buf_printf(out, " (field id %d)", id);
        cli_buf_putc(out, '\n');
    }
}

/* ---- meta ---------------------------------------------------------------------------------- */

static const char *codec_name(int32_t c) {
    static const char *const names[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO",
                                        "BROTLI",       "LZ4",    "ZSTD", "LZ4_RAW"};
    return c >= 0 && (size_t)c < CLI_ARRAY_LEN(names) ? names[c] : NULL;
}

static void put_encoding(cli_buf *b, int32_t enc) {
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
    if (enc >= 0 && (size_t)enc < CLI_ARRAY_LEN(names))
        cli_buf_puts(b, names[enc]);
    else
        cli_buf_printf(b, "ENCODING_%d", enc);
}

static void put_page_type(cli_buf *b, int32_t t) {
    static const char *const names[] = {"DATA_PAGE", "INDEX_PAGE", "DICTIONARY_PAGE",
                                        "DATA_PAGE_V2"};
    if (t >= 0 && (size_t)t < CLI_ARRAY_LEN(names))
        cli_buf_puts(b, names[t]);
    else
        cli_buf_printf(b, "PAGE_%d", t);
}

/* Escaped text of footer bytes (key/value metadata): quotes, backslashes and control
 * characters escaped, cut at `max` bytes (on a UTF-8 boundary) with a size note. */
static void put_text(cli_buf *b, hudi_parquet_bytes s, size_t max) {
    size_t shown = s.len;
    if (max && shown > max) {
        shown = max;
        while (shown > 0 && (s.data[shown] & 0xc0) == 0x80) shown--; /* keep whole chars */
    }
    for (size_t i = 0; i < shown; i++) {
        uint8_t c = s.data[i];
        if (c == '\n')
            cli_buf_puts(b, "\\n");
        else if (c == '\r')
            cli_buf_puts(b, "\\r");
        else if (c == '\t')
            cli_buf_puts(b, "\\t");
        else if (c == '\\')
            cli_buf_puts(b, "\\\\");
        else if (c < 0x20 || c == 0x7f)
            cli_buf_printf(b, "\\x%02x", c);
        else
            cli_buf_putc(b, (char)c);
    }
    if (shown < s.len) cli_buf_printf(b, "… (%zu bytes)", s.len);
}

static void put_kv(cli_buf *b, const hudi_parquet_key_value *kv, int depth) {
    indent(b, depth);
    put_text(b, kv->key, KV_VALUE_MAX_BYTES);
    if (kv->has_value) {
        cli_buf_puts(b, " = ");
        put_text(b, kv->value, KV_VALUE_MAX_BYTES);
    } else {
        cli_buf_puts(b, " (no value)");
    }
    cli_buf_putc(b, '\n');
}

/* One statistics value of leaf `leaf`, as the library renders it for the leaf's type. */
static void put_stat(cli_buf *b, const hudi_parquet_file *f, int32_t leaf, hudi_parquet_bytes v) {
    char small[256];
    int64_t n = hudi_parquet_stat_text(f, leaf, v, small, sizeof(small));
    if (n < 0) {
        b->failed = true;
    } else if (n < (int64_t)sizeof(small)) {
        cli_buf_append(b, small, (size_t)n);
    } else {
        char *big = malloc((size_t)n + 1);
        if (!big) {
            b->failed = true;
            return;
        }
        hudi_parquet_stat_text(f, leaf, v, big, (size_t)n + 1);
        cli_buf_append(b, big, (size_t)n);
        free(big);
    }
}

static void put_stats(cli_buf *b, const hudi_parquet_file *f, const hudi_parquet_statistics *s,
                      int32_t leaf) {
    const char *sep = "";
#define SEP() (cli_buf_puts(b, sep), sep = ", ")
    if (s->null_count >= 0) SEP(), cli_buf_printf(b, "null_count %lld", (long long)s->null_count);
    if (s->distinct_count >= 0)
        SEP(), cli_buf_printf(b, "distinct_count %lld", (long long)s->distinct_count);
    if (s->nan_count >= 0) SEP(), cli_buf_printf(b, "nan_count %lld", (long long)s->nan_count);
    if (s->has_min_value) {
        SEP(), cli_buf_puts(b, "min ");
        put_stat(b, f, leaf, s->min_value);
        if (s->min_exact >= 0) cli_buf_puts(b, s->min_exact ? " (exact)" : " (inexact)");
    }
    if (s->has_max_value) {
        SEP(), cli_buf_puts(b, "max ");
        put_stat(b, f, leaf, s->max_value);
        if (s->max_exact >= 0) cli_buf_puts(b, s->max_exact ? " (exact)" : " (inexact)");
    }
    /* The deprecated pair may be signed-ordered (docs/formats/parquet.md §6.1): shown,
     * labelled, not merged. */
    if (s->has_deprecated_min)
        SEP(), cli_buf_puts(b, "deprecated min "), put_stat(b, f, leaf, s->deprecated_min);
    if (s->has_deprecated_max)
        SEP(), cli_buf_puts(b, "deprecated max "), put_stat(b, f, leaf, s->deprecated_max);
#undef SEP
    if (!*sep) cli_buf_puts(b, "(empty)");
}

static void put_path(cli_buf *b, const hudi_parquet_file *f, int32_t rg, int32_t c, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        if (i) cli_buf_putc(b, '.');
        put_text(b, hudi_parquet_column_chunk_path(f, rg, c, i), 0);
    }
}

static void print_chunk_offsets(cli_buf *b, const hudi_parquet_column_chunk *cc) {
    cli_buf_printf(b, "    num_values %lld, compressed %lld bytes, uncompressed %lld bytes\n",
                   (long long)cc->num_values, (long long)cc->total_compressed_size,
                   (long long)cc->total_uncompressed_size);
    cli_buf_puts(b, "    offsets: ");
    if (cc->dictionary_page_offset >= 0)
        cli_buf_printf(b, "dictionary_page %lld, ", (long long)cc->dictionary_page_offset);
    if (cc->index_page_offset >= 0)
        cli_buf_printf(b, "index_page %lld, ", (long long)cc->index_page_offset);
    cli_buf_printf(b, "data_page %lld\n", (long long)cc->data_page_offset);
}

static void print_chunk_indexes(cli_buf *b, const hudi_parquet_column_chunk *cc) {
    bool ci = cc->column_index_offset >= 0, oi = cc->offset_index_offset >= 0;
    if (ci || oi) {
        cli_buf_puts(b, "    page index:");
        if (ci)
            cli_buf_printf(b, " column_index %lld (%d bytes)", (long long)cc->column_index_offset,
                           cc->column_index_length);
        if (oi)
            cli_buf_printf(b, "%s offset_index %lld (%d bytes)", ci ? "," : "",
                           (long long)cc->offset_index_offset, cc->offset_index_length);
        cli_buf_putc(b, '\n');
    }
    if (cc->bloom_filter_offset >= 0) {
        cli_buf_printf(b, "    bloom filter: offset %lld", (long long)cc->bloom_filter_offset);
        if (cc->bloom_filter_length >= 0) cli_buf_printf(b, " (%d bytes)", cc->bloom_filter_length);
        cli_buf_putc(b, '\n');
    }
}

static void print_chunk(cli_buf *b, const hudi_parquet_file *f, int32_t rg, int32_t index) {
    hudi_parquet_column_chunk cc;
    hudi_parquet_column_chunk_get(f, rg, index, &cc);
    cli_buf_printf(b, "  column %d", index);
    if (!cc.has_meta_data) {
        cli_buf_puts(b, cc.encrypted ? ": encrypted column metadata\n" : ": no column metadata\n");
        return;
    }
    cli_buf_puts(b, " ");
    put_path(b, f, rg, index, cc.num_path);
    const char *codec = codec_name(cc.codec);
    cli_buf_printf(b, ": %s, ", physical_upper(cc.physical_type));
    if (codec)
        cli_buf_puts(b, codec);
    else
        cli_buf_printf(b, "CODEC_%d", cc.codec);
    if (cc.has_file_path) {
        cli_buf_puts(b, ", file_path ");
        put_text(b, cc.file_path, KV_VALUE_MAX_BYTES);
    }
    cli_buf_puts(b, "\n    encodings: ");
    for (int32_t i = 0; i < cc.num_encodings; i++) {
        if (i) cli_buf_puts(b, ", ");
        put_encoding(b, cc.encodings[i]);
    }
    if (cc.num_encodings <= 0) cli_buf_puts(b, "(none)");
    cli_buf_putc(b, '\n');
    if (cc.num_encoding_stats > 0) {
        cli_buf_puts(b, "    encoding_stats: ");
        for (int32_t i = 0; i < cc.num_encoding_stats; i++) {
            hudi_parquet_encoding_stats es;
            hudi_parquet_encoding_stats_get(f, rg, index, i, &es);
            if (i) cli_buf_puts(b, ", ");
            put_page_type(b, es.page_type);
            cli_buf_putc(b, ' ');
            put_encoding(b, es.encoding);
            cli_buf_printf(b, " x%d", es.count);
        }
        cli_buf_putc(b, '\n');
    }
    print_chunk_offsets(b, &cc);
    cli_buf_puts(b, "    statistics: ");
    if (cc.has_statistics)
        put_stats(b, f, &cc.statistics, index);
    else
        cli_buf_puts(b, "(none)");
    cli_buf_putc(b, '\n');
    print_chunk_indexes(b, &cc);
    if (cc.num_key_values > 0) {
        cli_buf_puts(b, "    key/value metadata:\n");
        for (int32_t i = 0; i < cc.num_key_values; i++) {
            hudi_parquet_key_value kv;
            hudi_parquet_column_key_value_get(f, rg, index, i, &kv);
            put_kv(b, &kv, 3);
        }
    }
}

static const char *order_name(int32_t o) {
    switch (o) {
    case HUDI_PARQUET_ORDER_TYPE: return "TYPE_ORDER";
    case HUDI_PARQUET_ORDER_IEEE754_TOTAL: return "IEEE_754_TOTAL_ORDER";
    case HUDI_PARQUET_ORDER_INT96: return "INT96_TIMESTAMP_ORDER";
    default: return "UNKNOWN_ORDER";
    }
}

/* The name of leaf `leaf` (its schema element's name), or "#leaf" when there is none. */
static void put_leaf_name(cli_buf *b, const hudi_parquet_file *f, int32_t leaf) {
    hudi_parquet_schema_element e;
    if (hudi_parquet_schema_element_get(f, hudi_parquet_leaf_element(f, leaf), &e) == 0)
        put_name(b, e.name);
    else
        cli_buf_printf(b, "#%d", leaf);
}

static void print_column_orders(cli_buf *b, const hudi_parquet_file *f, int32_t n) {
    cli_buf_puts(b, "column orders: ");
    if (n < 0) {
        cli_buf_puts(b, "(none)\n");
        return;
    }
    bool same = true;
    for (int32_t i = 1; i < n; i++)
        same = same && hudi_parquet_column_order(f, i) == hudi_parquet_column_order(f, 0);
    if (same && n > 0) {
        cli_buf_printf(b, "%s (all %d columns)\n", order_name(hudi_parquet_column_order(f, 0)), n);
        return;
    }
    cli_buf_printf(b, "%d entries\n", n);
    for (int32_t i = 0; i < n; i++) {
        cli_buf_puts(b, "  ");
        put_leaf_name(b, f, i);
        cli_buf_printf(b, ": %s\n", order_name(hudi_parquet_column_order(f, i)));
    }
}

static void print_row_group(cli_buf *b, const hudi_parquet_file *f, int32_t index) {
    hudi_parquet_row_group rg;
    hudi_parquet_row_group_get(f, index, &rg);
    cli_buf_printf(b, "\nrow group %d: %lld rows, total_byte_size %lld", index,
                   (long long)rg.num_rows, (long long)rg.total_byte_size);
    if (rg.total_compressed_size >= 0)
        cli_buf_printf(b, ", total_compressed_size %lld", (long long)rg.total_compressed_size);
    if (rg.file_offset >= 0) cli_buf_printf(b, ", file_offset %lld", (long long)rg.file_offset);
    if (rg.ordinal >= 0) cli_buf_printf(b, ", ordinal %d", rg.ordinal);
    cli_buf_putc(b, '\n');
    if (rg.num_sorting_columns > 0) {
        cli_buf_puts(b, "  sorting columns: ");
        for (int32_t i = 0; i < rg.num_sorting_columns; i++) {
            hudi_parquet_sorting_column sc;
            hudi_parquet_sorting_column_get(f, index, i, &sc);
            if (i) cli_buf_puts(b, ", ");
            put_leaf_name(b, f, sc.column);
            cli_buf_printf(b, " %s nulls %s", sc.descending ? "desc" : "asc",
                           sc.nulls_first ? "first" : "last");
        }
        cli_buf_putc(b, '\n');
    }
    for (int32_t c = 0; c < rg.num_columns; c++) print_chunk(b, f, index, c);
}

void cli_print_parquet_meta(cli_buf *out, const hudi_parquet_file *f) {
    hudi_parquet_file_info fi;
    hudi_parquet_file_info_get(f, &fi);
    int64_t rows = hudi_parquet_num_rows(f);
    cli_buf_printf(out, "file size: %lld bytes\n", (long long)hudi_parquet_file_size(f));
    cli_buf_puts(out, "created_by: ");
    if (fi.has_created_by)
        put_text(out, fi.created_by, KV_VALUE_MAX_BYTES);
    else
        cli_buf_puts(out, "(none)");
    cli_buf_printf(out, "\nversion: %d\n", fi.format_version);
    cli_buf_printf(out, "num_rows: %lld", (long long)rows);
    if (rows != fi.footer_num_rows)
        cli_buf_printf(out, " (FileMetaData.num_rows says %lld)", (long long)fi.footer_num_rows);
    cli_buf_printf(out, "\nrow groups: %d\nleaf columns: %d\n", fi.num_row_groups,
                   hudi_parquet_num_leaves(f));
    if (fi.num_key_values < 0) {
        cli_buf_puts(out, "key/value metadata: (none)\n");
    } else {
        cli_buf_printf(out, "key/value metadata: %d entries\n", fi.num_key_values);
        for (int32_t i = 0; i < fi.num_key_values; i++) {
            hudi_parquet_key_value kv;
            hudi_parquet_key_value_get(f, i, &kv);
            put_kv(out, &kv, 1);
        }
    }
    print_column_orders(out, f, fi.num_column_orders);
    if (fi.encryption_algorithm) cli_buf_puts(out, "encryption: plaintext footer\n");
    for (int32_t i = 0; i < fi.num_row_groups; i++) print_row_group(out, f, i);
}
