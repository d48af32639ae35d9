/* meta_read.c - decodes Parquet's Thrift metadata (FileMetaData, PageHeader, ColumnIndex,
 * OffsetIndex, BloomFilterHeader) from compact-protocol bytes into the pq_* structs of
 * meta.h (docs/formats/parquet.md §1.5-1.7, §8 item 9;
 * docs/formats/thrift.md).
 *
 * Leniency rules: unknown field ids are skipped; a known id with a foreign wire type is
 * skipped too (Dremio writes a list-typed ColumnMetaData field 15); unknown union members
 * decode as 0 (PQ_LT_NONE, PQ_UNIT_UNKNOWN, PQ_ORDER_UNKNOWN). Strictness rules: missing
 * required fields, an out-of-range physical type, a list whose element type differs from
 * the IDL (ARROW-GH-41317) and negative page sizes/counts are ECORRUPT.
 *
 * Invariant: every string and list in a decoded struct lives in the caller's arena, never
 * in the input; list allocations are bounded by the input size (each element needs at
 * least `min` bytes of input), and decoding is one linear pass. */
#include "format/parquet/meta.h"

#include "format/thrift/compact.h"

typedef struct dec {
    hudi_thrift_reader r;
    hudi_arena *arena;
    bool copy; /* binary values must be copied (the input is not arena-owned) */
} dec;

#define BIT(id) (1u << (id))

static const char *const type_names[] = {"stop", "bool", "bool",   "i8",     "i16",
                                         "i32",  "i64",  "double", "binary", "list",
                                         "set",  "map",  "struct", "uuid"};

static const char *type_name(uint8_t t) {
    return t < HUDI_ARRAY_LEN(type_names) ? type_names[t] : "invalid";
}

static bool ok(const dec *d) { return d->r.rc == 0; }

/* True when field `f` has wire type `type` (either bool nibble for bools). Otherwise the
 * value is skipped: a known id with a foreign type is treated like an unknown id. */
static bool want(dec *d, const hudi_thrift_field *f, uint8_t type) {
    uint8_t t = f->type == HUDI_THRIFT_FALSE ? HUDI_THRIFT_TRUE : f->type;
    if (t == type) return true;
    hudi_thrift_skip(&d->r, f->type);
    return false;
}

static void mark(uint32_t *seen, int16_t id) {
    if (id >= 0 && id < 32) *seen |= BIT(id);
}

static bool get_i32(dec *d, const hudi_thrift_field *f, int32_t *dst, uint32_t *seen) {
    if (!want(d, f, HUDI_THRIFT_I32)) return false;
    *dst = hudi_thrift_read_i32(&d->r);
    mark(seen, f->id);
    return true;
}

static bool get_i64(dec *d, const hudi_thrift_field *f, int64_t *dst, uint32_t *seen) {
    if (!want(d, f, HUDI_THRIFT_I64)) return false;
    *dst = hudi_thrift_read_i64(&d->r);
    mark(seen, f->id);
    return true;
}

static bool get_bool(dec *d, const hudi_thrift_field *f, bool *dst, uint32_t *seen) {
    if (!want(d, f, HUDI_THRIFT_TRUE)) return false;
    *dst = f->type == HUDI_THRIFT_TRUE;
    mark(seen, f->id);
    return true;
}

static hudi_slice read_bytes(dec *d) {
    hudi_slice s = hudi_thrift_read_binary(&d->r);
    if (!d->copy || s.len == 0) return s;
    uint8_t *p = hudi_arena_alloc(d->arena, s.len);
    if (!p) {
        hudi_thrift_fail(&d->r, HUDI_ENOMEM, "out of memory");
        return HUDI_SLICE(NULL, 0);
    }
    memcpy(p, s.data, s.len);
    return HUDI_SLICE(p, s.len);
}

static bool get_binary(dec *d, const hudi_thrift_field *f, hudi_slice *dst, uint32_t *seen) {
    if (!want(d, f, HUDI_THRIFT_BINARY)) return false;
    *dst = read_bytes(d);
    mark(seen, f->id);
    return true;
}

/* Names the first required field (bit set in `need`) missing from `seen`. */
static void check_required(dec *d, const char *st, uint32_t seen, uint32_t need,
                           const char *const *names) {
    uint32_t missing = need & ~seen;
    if (!missing || !ok(d)) return;
    int id = __builtin_ctz(missing);
    hudi_thrift_fail(&d->r, HUDI_ECORRUPT, "%s: missing required field %s (%d)", st, names[id], id);
}

/* Reads a list header for field `what` whose elements must have wire type `type` and need
 * at least `min` input bytes each. Returns the count (0 on error). */
static uint32_t list_begin(dec *d, uint8_t type, size_t min, const char *what) {
    uint8_t et;
    uint32_t n;
    if (!hudi_thrift_read_list(&d->r, &et, &n) || n == 0) return 0;
    if (et == HUDI_THRIFT_FALSE) et = HUDI_THRIFT_TRUE;
    if (et != type) {
        hudi_thrift_fail(&d->r, HUDI_ECORRUPT, "%s: expected list<%s>, got list<%s>", what,
                         type_name(type), type_name(et));
        return 0;
    }
    if (min > 1 && n > hudi_thrift_reader_left(&d->r) / min) {
        hudi_thrift_fail(&d->r, HUDI_ECORRUPT, "%s: %u elements cannot fit in %zu bytes", what, n,
                         hudi_thrift_reader_left(&d->r));
        return 0;
    }
    return n;
}

static void *alloc_array(dec *d, uint32_t n, size_t size) {
    size_t bytes;
    if (n == 0 || !ok(d)) return NULL;
    void *p = hudi_mul_overflow(n, size, &bytes) ? NULL : hudi_arena_alloc(d->arena, bytes);
    if (!p) hudi_thrift_fail(&d->r, HUDI_ENOMEM, "out of memory");
    return p;
}

/* A list field: if the wire type is LIST, reads its header and allocates `*out` with room
 * for the count. Returns false (value skipped or error) otherwise. */
static bool get_list(dec *d, const hudi_thrift_field *f, uint8_t type, size_t min, size_t size,
                     const char *what, void **out, int32_t *count) {
    if (!want(d, f, HUDI_THRIFT_LIST)) return false;
    uint32_t n = list_begin(d, type, min, what);
    *out = alloc_array(d, n, size);
    *count = ok(d) ? (int32_t)n : 0;
    return ok(d);
}

static void get_i32_list(dec *d, const hudi_thrift_field *f, const char *what, int32_t **out,
                         int32_t *count, uint32_t *seen) {
    if (!get_list(d, f, HUDI_THRIFT_I32, 1, sizeof(int32_t), what, (void **)out, count)) return;
    for (int32_t i = 0; i < *count; i++) (*out)[i] = hudi_thrift_read_i32(&d->r);
    mark(seen, f->id);
}

static void get_i64_list(dec *d, const hudi_thrift_field *f, const char *what, int64_t **out,
                         int32_t *count, uint32_t *seen) {
    if (!get_list(d, f, HUDI_THRIFT_I64, 1, sizeof(int64_t), what, (void **)out, count)) return;
    for (int32_t i = 0; i < *count; i++) (*out)[i] = hudi_thrift_read_i64(&d->r);
    mark(seen, f->id);
}

static void get_binary_list(dec *d, const hudi_thrift_field *f, const char *what, hudi_slice **out,
                            int32_t *count, uint32_t *seen) {
    if (!get_list(d, f, HUDI_THRIFT_BINARY, 1, sizeof(hudi_slice), what, (void **)out, count))
        return;
    for (int32_t i = 0; i < *count; i++) (*out)[i] = read_bytes(d);
    mark(seen, f->id);
}

static void check_physical_type(dec *d, const char *what, int32_t type) {
    if (type < PQ_BOOLEAN || type > PQ_FIXED_LEN_BYTE_ARRAY)
        hudi_thrift_fail(&d->r, HUDI_ECORRUPT, "invalid physical type %d in %s", (int)type, what);
}

/* ---- unions ---------------------------------------------------------------------------- */

/* A union whose members are all empty structs: returns the member id present (the last
 * one if several), or 0 for an empty union or unknown members (ids above `max_id`). */
static int32_t dec_empty_union(dec *d, int32_t max_id) {
    int32_t which = 0;
    hudi_thrift_field f;
    hudi_thrift_struct_begin(&d->r);
    while (hudi_thrift_read_field(&d->r, &f)) {
        if (f.type == HUDI_THRIFT_STRUCT && f.id >= 1 && f.id <= max_id) which = f.id;
        hudi_thrift_skip(&d->r, f.type);
    }
    hudi_thrift_struct_end(&d->r);
    return which;
}

static const char *const decimal_names[] = {"", "scale", "precision"};
static const char *const time_names[] = {"", "isAdjustedToUTC", "unit"};
static const char *const int_names[] = {"", "bitWidth", "isSigned"};

static void dec_logical_member(dec *d, int16_t id, pq_logical_type *lt) {
    uint32_t seen = 0;
    hudi_thrift_field f;
    hudi_thrift_struct_begin(&d->r);
    while (hudi_thrift_read_field(&d->r, &f)) {
        if (id == PQ_LT_DECIMAL && f.id == 1) {
            get_i32(d, &f, &lt->scale, &seen);
        } else if (id == PQ_LT_DECIMAL && f.id == 2) {
            get_i32(d, &f, &lt->precision, &seen);
        } else if ((id == PQ_LT_TIME || id == PQ_LT_TIMESTAMP) && f.id == 1) {
            get_bool(d, &f, &lt->is_adjusted_to_utc, &seen);
        } else if ((id == PQ_LT_TIME || id == PQ_LT_TIMESTAMP) && f.id == 2) {
            if (want(d, &f, HUDI_THRIFT_STRUCT)) {
                lt->unit = dec_empty_union(d, PQ_UNIT_NANOS);
                mark(&seen, f.id);
            }
        } else if (id == PQ_LT_INTEGER && f.id == 1) {
            if (want(d, &f, HUDI_THRIFT_I8)) {
                lt->bit_width = hudi_thrift_read_i8(&d->r);
                mark(&seen, f.id);
            }
        } else if (id == PQ_LT_INTEGER && f.id == 2) {
            get_bool(d, &f, &lt->is_signed, &seen);
        } else {
            hudi_thrift_skip(&d->r, f.type);
        }
    }
    hudi_thrift_struct_end(&d->r);
    if (id == PQ_LT_DECIMAL) check_required(d, "DecimalType", seen, BIT(1) | BIT(2), decimal_names);
    if (id == PQ_LT_TIME) check_required(d, "TimeType", seen, BIT(1) | BIT(2), time_names);
    if (id == PQ_LT_TIMESTAMP)
        check_required(d, "TimestampType", seen, BIT(1) | BIT(2), time_names);
    if (id == PQ_LT_INTEGER) check_required(d, "IntType", seen, BIT(1) | BIT(2), int_names);
}

/* LogicalType union (§1.6). Unknown members leave kind = PQ_LT_NONE: the column degrades to
 * its converted/physical type instead of failing the file. */
static void dec_logical_type(dec *d, pq_logical_type *lt) {
    hudi_thrift_field f;
    hudi_thrift_struct_begin(&d->r);
    while (hudi_thrift_read_field(&d->r, &f)) {
        bool known = (f.id >= PQ_LT_STRING && f.id <= PQ_LT_FILE && f.id != 9);
        if (!known || !want(d, &f, HUDI_THRIFT_STRUCT)) {
            if (!known) hudi_thrift_skip(&d->r, f.type);
            continue;
        }
        memset(lt, 0, sizeof(*lt));
        lt->kind = f.id;
        dec_logical_member(d, f.id, lt);
    }
    hudi_thrift_struct_end(&d->r);
}

/* ---- FileMetaData and below ------------------------------------------------------------ */

static void dec_statistics(dec *d, pq_statistics *s) {
    uint32_t seen = 0;
    hudi_thrift_field f;
    hudi_thrift_struct_begin(&d->r);
    while (hudi_thrift_read_field(&d->r, &f)) {
        switch (f.id) {
        case 1: s->has_max |= get_binary(d, &f, &s->max, &seen); break;
        case 2: s->has_min |= get_binary(d, &f, &s->min, &seen); break;
        case 3: s->has_null_count |= get_i64(d, &f, &s->null_count, &seen); break;
        case 4: s->has_distinct_count |= get_i64(d, &f, &s->distinct_count, &seen); break;
        case 5: s->has_max_value |= get_binary(d, &f, &s->max_value, &seen); break;
        case 6: s->has_min_value |= get_binary(d, &f, &s->min_value, &seen); break;
        case 7: s->has_is_max_value_exact |= get_bool(d, &f, &s->is_max_value_exact, &seen); break;
        case 8: s->has_is_min_value_exact |= get_bool(d, &f, &s->is_min_value_exact, &seen); break;
        case 9: s->has_nan_count |= get_i64(d, &f, &s->nan_count, &seen); break;
        default: hudi_thrift_skip(&d->r, f.type); break;
        }
    }
    hudi_thrift_struct_end(&d->r);
}

static const char *const kv_names[] = {"", "key", "value"};

static void dec_key_value(dec *d, pq_key_value *kv) {
    uint32_t seen = 0;
    hudi_thrift_field f;
    hudi_thrift_struct_begin(&d->r);
    while (hudi_thrift_read_field(&d->r, &f)) {
        switch (f.id) {
        case 1: get_binary(d, &f, &kv->key, &seen); break;
        case 2: kv->has_value |= get_binary(d, &f, &kv->value, &seen); break;
        default: hudi_thrift_skip(&d->r, f.type); break;
        }
    }
    hudi_thrift_struct_end(&d->r);
    check_required(d, "KeyValue", seen, BIT(1), kv_names);
}

/* list<KeyValue>; a KeyValue needs at least 3 bytes (key header, length, stop). */
static void get_key_values(dec *d, const hudi_thrift_field *f, const char *what, pq_key_value **out,
                           int32_t *count, uint32_t *seen) {
    if (!get_list(d, f, HUDI_THRIFT_STRUCT, 3, sizeof(pq_key_value), what, (void **)out, count))
        return;
    for (int32_t i = 0; i < *count && ok(d); i++) dec_key_value(d, &(*out)[i]);
    mark(seen, f->id);
}

static const char *const schema_names[] = {"", "type", "type_length", "repetition_type", "name"};

static void dec_schema_element(dec *d, pq_schema_element *e) {
    uint32_t seen = 0;
    hudi_thrift_field f;
    hudi_thrift_struct_begin(&d->r);
    while (hudi_thrift_read_field(&d->r, &f)) {
        switch (f.id) {
        case 1: e->has_type |= get_i32(d, &f, &e->type, &seen); break;
        case 2: e->has_type_length |= get_i32(d, &f, &e->type_length, &seen); break;
        case 3: e->has_repetition |= get_i32(d, &f, &e->repetition, &seen); break;
        case 4: get_binary(d, &f, &e->name, &seen); break;
        case 5: get_i32(d, &f, &e->num_children, &seen); break;
        case 6: e->has_converted_type |= get_i32(d, &f, &e->converted_type, &seen); break;
        case 7: e->has_scale |= get_i32(d, &f, &e->scale, &seen); break;
        case 8: e->has_precision |= get_i32(d, &f, &e->precision, &seen); break;
        case 9: e->has_field_id |= get_i32(d, &f, &e->field_id, &seen); break;
        case 10:
            if (want(d, &f, HUDI_THRIFT_STRUCT)) {
                e->has_logical_type = true;
                dec_logical_type(d, &e->logical_type);
            }
            break;
        default: hudi_thrift_skip(&d->r, f.type); break;
        }
    }
    hudi_thrift_struct_end(&d->r);
    check_required(d, "SchemaElement", seen, BIT(4), schema_names);
    if (e->has_type) check_physical_type(d, "SchemaElement.type", e->type);
}

static const char *const pes_names[] = {"", "page_type", "encoding", "count"};

static void dec_encoding_stats(dec *d, pq_page_encoding_stats *s) {
    uint32_t seen = 0;
    hudi_thrift_field f;
    hudi_thrift_struct_begin(&d->r);
    while (hudi_thrift_read_field(&d->r, &f)) {
        switch (f.id) {
        case 1: get_i32(d, &f, &s->page_type, &seen); break;
        case 2: get_i32(d, &f, &s->encoding, &seen); break;
        case 3: get_i32(d, &f, &s->count, &seen); break;
        default: hudi_thrift_skip(&d->r, f.type); break;
        }
    }
    hudi_thrift_struct_end(&d->r);
    check_required(d, "PageEncodingStats", seen, BIT(1) | BIT(2) | BIT(3), pes_names);
}

static const char *const cmd_names[] = {"",
                                        "type",
                                        "encodings",
                                        "path_in_schema",
                                        "codec",
                                        "num_values",
                                        "total_uncompressed_size",
                                        "total_compressed_size",
                                        "key_value_metadata",
                                        "data_page_offset"};

static void dec_column_meta(dec *d, pq_column_meta *m) {
    uint32_t seen = 0;
    hudi_thrift_field f;
    m->n_encoding_stats = -1;
    hudi_thrift_struct_begin(&d->r);
    while (hudi_thrift_read_field(&d->r, &f)) {
        switch (f.id) {
        case 1: get_i32(d, &f, &m->type, &seen); break;
        case 2:
            get_i32_list(d, &f, "ColumnMetaData.encodings", &m->encodings, &m->n_encodings, &seen);
            break;
        case 3:
            get_binary_list(d, &f, "ColumnMetaData.path_in_schema", &m->path_in_schema, &m->n_path,
                            &seen);
            break;
        case 4: get_i32(d, &f, &m->codec, &seen); break;
        case 5: get_i64(d, &f, &m->num_values, &seen); break;
        case 6: get_i64(d, &f, &m->total_uncompressed_size, &seen); break;
        case 7: get_i64(d, &f, &m->total_compressed_size, &seen); break;
        case 8:
            get_key_values(d, &f, "ColumnMetaData.key_value_metadata", &m->key_value,
                           &m->n_key_value, &seen);
            break;
        case 9: get_i64(d, &f, &m->data_page_offset, &seen); break;
        case 10: m->has_index_page_offset |= get_i64(d, &f, &m->index_page_offset, &seen); break;
        case 11:
            m->has_dictionary_page_offset |= get_i64(d, &f, &m->dictionary_page_offset, &seen);
            break;
        case 12:
            if (want(d, &f, HUDI_THRIFT_STRUCT)) {
                m->has_statistics = true;
                dec_statistics(d, &m->statistics);
            }
            break;
        case 13:
            if (get_list(d, &f, HUDI_THRIFT_STRUCT, 7, sizeof(pq_page_encoding_stats),
                         "ColumnMetaData.encoding_stats", (void **)&m->encoding_stats,
                         &m->n_encoding_stats)) {
                for (int32_t i = 0; i < m->n_encoding_stats && ok(d); i++)
                    dec_encoding_stats(d, &m->encoding_stats[i]);
            }
            break;
        case 14:
            m->has_bloom_filter_offset |= get_i64(d, &f, &m->bloom_filter_offset, &seen);
            break;
        case 15:
            /* Dremio writes a list here; want() skips it. */
            m->has_bloom_filter_length |= get_i32(d, &f, &m->bloom_filter_length, &seen);
            break;
        default: hudi_thrift_skip(&d->r, f.type); break;
        }
    }
    hudi_thrift_struct_end(&d->r);
    check_required(d, "ColumnMetaData", seen, 0x2fe /* 1-7, 9 */, cmd_names);
    check_physical_type(d, "ColumnMetaData.type", m->type);
}

static const char *const chunk_names[] = {"", "file_path", "file_offset"};

static void dec_column_chunk(dec *d, pq_column_chunk *c) {
    uint32_t seen = 0;
    hudi_thrift_field f;
    hudi_thrift_struct_begin(&d->r);
    while (hudi_thrift_read_field(&d->r, &f)) {
        switch (f.id) {
        case 1: c->has_file_path |= get_binary(d, &f, &c->file_path, &seen); break;
        case 2: get_i64(d, &f, &c->file_offset, &seen); break;
        case 3:
            if (want(d, &f, HUDI_THRIFT_STRUCT)) {
                c->has_meta_data = true;
                dec_column_meta(d, &c->meta_data);
            }
            break;
        case 4: get_i64(d, &f, &c->offset_index_offset, &seen); break;
        case 5: get_i32(d, &f, &c->offset_index_length, &seen); break;
        case 6: get_i64(d, &f, &c->column_index_offset, &seen); break;
        case 7: get_i32(d, &f, &c->column_index_length, &seen); break;
        case 8:
            if (want(d, &f, HUDI_THRIFT_STRUCT)) {
                c->has_crypto_metadata =
                    true; /* contents not kept: encrypted columns are refused */
                hudi_thrift_skip(&d->r, f.type);
            }
            break;
        case 9:
            if (want(d, &f, HUDI_THRIFT_BINARY)) {
                c->has_encrypted_column_metadata = true;
                (void)hudi_thrift_read_binary(&d->r); /* ciphertext: not kept */
            }
            break;
        default: hudi_thrift_skip(&d->r, f.type); break;
        }
    }
    hudi_thrift_struct_end(&d->r);
    check_required(d, "ColumnChunk", seen, BIT(2), chunk_names);
    /* An index is usable only with both its offset and its length. */
    c->has_offset_index = (seen & (BIT(4) | BIT(5))) == (BIT(4) | BIT(5));
    if (!c->has_offset_index) c->offset_index_offset = c->offset_index_length = 0;
    c->has_column_index = (seen & (BIT(6) | BIT(7))) == (BIT(6) | BIT(7));
    if (!c->has_column_index) c->column_index_offset = c->column_index_length = 0;
}

static const char *const sc_names[] = {"", "column_idx", "descending", "nulls_first"};

static void dec_sorting_column(dec *d, pq_sorting_column *s) {
    uint32_t seen = 0;
    hudi_thrift_field f;
    hudi_thrift_struct_begin(&d->r);
    while (hudi_thrift_read_field(&d->r, &f)) {
        switch (f.id) {
        case 1: get_i32(d, &f, &s->column_idx, &seen); break;
        case 2: get_bool(d, &f, &s->descending, &seen); break;
        case 3: get_bool(d, &f, &s->nulls_first, &seen); break;
        default: hudi_thrift_skip(&d->r, f.type); break;
        }
    }
    hudi_thrift_struct_end(&d->r);
    check_required(d, "SortingColumn", seen, BIT(1) | BIT(2) | BIT(3), sc_names);
}

static const char *const rg_names[] = {"", "columns", "total_byte_size", "num_rows"};

static void dec_row_group(dec *d, pq_row_group *g) {
    uint32_t seen = 0;
    hudi_thrift_field f;
    g->n_sorting_columns = -1;
    hudi_thrift_struct_begin(&d->r);
    while (hudi_thrift_read_field(&d->r, &f)) {
        switch (f.id) {
        case 1:
            /* A ColumnChunk needs at least 3 bytes: file_offset header and value, stop. */
            if (get_list(d, &f, HUDI_THRIFT_STRUCT, 3, sizeof(pq_column_chunk), "RowGroup.columns",
                         (void **)&g->columns, &g->n_columns)) {
                for (int32_t i = 0; i < g->n_columns && ok(d); i++)
                    dec_column_chunk(d, &g->columns[i]);
                mark(&seen, f.id);
            }
            break;
        case 2: get_i64(d, &f, &g->total_byte_size, &seen); break;
        case 3: get_i64(d, &f, &g->num_rows, &seen); break;
        case 4:
            if (get_list(d, &f, HUDI_THRIFT_STRUCT, 5, sizeof(pq_sorting_column),
                         "RowGroup.sorting_columns", (void **)&g->sorting_columns,
                         &g->n_sorting_columns)) {
                for (int32_t i = 0; i < g->n_sorting_columns && ok(d); i++)
                    dec_sorting_column(d, &g->sorting_columns[i]);
            }
            break;
        case 5: g->has_file_offset |= get_i64(d, &f, &g->file_offset, &seen); break;
        case 6:
            g->has_total_compressed_size |= get_i64(d, &f, &g->total_compressed_size, &seen);
            break;
        case 7:
            if (want(d, &f, HUDI_THRIFT_I16)) {
                g->has_ordinal = true;
                g->ordinal = hudi_thrift_read_i16(&d->r);
            }
            break;
        default: hudi_thrift_skip(&d->r, f.type); break;
        }
    }
    hudi_thrift_struct_end(&d->r);
    check_required(d, "RowGroup", seen, BIT(1) | BIT(2) | BIT(3), rg_names);
}

static const char *const fmd_names[] = {"", "version", "schema", "num_rows", "row_groups"};

static void dec_file_meta(dec *d, pq_file_meta *m) {
    uint32_t seen = 0;
    hudi_thrift_field f;
    m->n_key_value = -1;
    m->n_column_orders = -1;
    hudi_thrift_struct_begin(&d->r);
    while (hudi_thrift_read_field(&d->r, &f)) {
        switch (f.id) {
        case 1: get_i32(d, &f, &m->version, &seen); break;
        case 2:
            /* A SchemaElement needs at least 3 bytes: name header, length, stop. */
            if (get_list(d, &f, HUDI_THRIFT_STRUCT, 3, sizeof(pq_schema_element),
                         "FileMetaData.schema", (void **)&m->schema, &m->n_schema)) {
                for (int32_t i = 0; i < m->n_schema && ok(d); i++)
                    dec_schema_element(d, &m->schema[i]);
                mark(&seen, f.id);
            }
            break;
        case 3: get_i64(d, &f, &m->num_rows, &seen); break;
        case 4:
            /* A RowGroup needs at least 7 bytes: 3 required fields and stop. */
            if (get_list(d, &f, HUDI_THRIFT_STRUCT, 7, sizeof(pq_row_group),
                         "FileMetaData.row_groups", (void **)&m->row_groups, &m->n_row_groups)) {
                for (int32_t i = 0; i < m->n_row_groups && ok(d); i++)
                    dec_row_group(d, &m->row_groups[i]);
                mark(&seen, f.id);
            }
            break;
        case 5:
            get_key_values(d, &f, "FileMetaData.key_value_metadata", &m->key_value, &m->n_key_value,
                           &seen);
            break;
        case 6: m->has_created_by |= get_binary(d, &f, &m->created_by, &seen); break;
        case 7:
            if (get_list(d, &f, HUDI_THRIFT_STRUCT, 1, sizeof(int32_t),
                         "FileMetaData.column_orders", (void **)&m->column_orders,
                         &m->n_column_orders)) {
                for (int32_t i = 0; i < m->n_column_orders && ok(d); i++)
                    m->column_orders[i] = dec_empty_union(d, PQ_ORDER_INT96);
            }
            break;
        case 8:
            if (want(d, &f, HUDI_THRIFT_STRUCT)) {
                m->has_encryption_algorithm = true; /* contents not kept */
                hudi_thrift_skip(&d->r, f.type);
            }
            break;
        default: hudi_thrift_skip(&d->r, f.type); break;
        }
    }
    hudi_thrift_struct_end(&d->r);
    check_required(d, "FileMetaData", seen, BIT(1) | BIT(2) | BIT(3) | BIT(4), fmd_names);
}

/* ---- page headers ---------------------------------------------------------------------- */

static const char *const dph_names[] = {"", "num_values", "encoding", "definition_level_encoding",
                                        "repetition_level_encoding"};

static void dec_data_page_header(dec *d, pq_data_page_header *h) {
    uint32_t seen = 0;
    hudi_thrift_field f;
    hudi_thrift_struct_begin(&d->r);
    while (hudi_thrift_read_field(&d->r, &f)) {
        switch (f.id) {
        case 1: get_i32(d, &f, &h->num_values, &seen); break;
        case 2: get_i32(d, &f, &h->encoding, &seen); break;
        case 3: get_i32(d, &f, &h->definition_level_encoding, &seen); break;
        case 4: get_i32(d, &f, &h->repetition_level_encoding, &seen); break;
        case 5:
            if (want(d, &f, HUDI_THRIFT_STRUCT)) {
                h->has_statistics = true;
                dec_statistics(d, &h->statistics);
            }
            break;
        default: hudi_thrift_skip(&d->r, f.type); break;
        }
    }
    hudi_thrift_struct_end(&d->r);
    check_required(d, "DataPageHeader", seen, 0x1e /* 1-4 */, dph_names);
    if (ok(d) && h->num_values < 0)
        hudi_thrift_fail(&d->r, HUDI_ECORRUPT, "DataPageHeader: num_values %d < 0",
                         (int)h->num_values);
}

static const char *const dph2_names[] = {"",
                                         "num_values",
                                         "num_nulls",
                                         "num_rows",
                                         "encoding",
                                         "definition_levels_byte_length",
                                         "repetition_levels_byte_length"};

static void dec_data_page_header_v2(dec *d, pq_data_page_header_v2 *h) {
    uint32_t seen = 0;
    hudi_thrift_field f;
    h->is_compressed = true; /* IDL default */
    hudi_thrift_struct_begin(&d->r);
    while (hudi_thrift_read_field(&d->r, &f)) {
        switch (f.id) {
        case 1: get_i32(d, &f, &h->num_values, &seen); break;
        case 2: get_i32(d, &f, &h->num_nulls, &seen); break;
        case 3: get_i32(d, &f, &h->num_rows, &seen); break;
        case 4: get_i32(d, &f, &h->encoding, &seen); break;
        case 5: get_i32(d, &f, &h->definition_levels_byte_length, &seen); break;
        case 6: get_i32(d, &f, &h->repetition_levels_byte_length, &seen); break;
        case 7: get_bool(d, &f, &h->is_compressed, &seen); break;
        case 8:
            if (want(d, &f, HUDI_THRIFT_STRUCT)) {
                h->has_statistics = true;
                dec_statistics(d, &h->statistics);
            }
            break;
        default: hudi_thrift_skip(&d->r, f.type); break;
        }
    }
    hudi_thrift_struct_end(&d->r);
    check_required(d, "DataPageHeaderV2", seen, 0x7e /* 1-6 */, dph2_names);
    /* num_nulls is not checked: parquet-mr writes -1 there (§1.5). */
    if (ok(d) && (h->num_values < 0 || h->num_rows < 0 || h->definition_levels_byte_length < 0 ||
                  h->repetition_levels_byte_length < 0))
        hudi_thrift_fail(&d->r, HUDI_ECORRUPT,
                         "DataPageHeaderV2: negative count or length (values %d, rows %d, "
                         "def %d, rep %d)",
                         (int)h->num_values, (int)h->num_rows,
                         (int)h->definition_levels_byte_length,
                         (int)h->repetition_levels_byte_length);
}

static const char *const dict_names[] = {"", "num_values", "encoding"};

static void dec_dictionary_page_header(dec *d, pq_dictionary_page_header *h) {
    uint32_t seen = 0;
    hudi_thrift_field f;
    hudi_thrift_struct_begin(&d->r);
    while (hudi_thrift_read_field(&d->r, &f)) {
        switch (f.id) {
        case 1: get_i32(d, &f, &h->num_values, &seen); break;
        case 2: get_i32(d, &f, &h->encoding, &seen); break;
        case 3: h->has_is_sorted |= get_bool(d, &f, &h->is_sorted, &seen); break;
        default: hudi_thrift_skip(&d->r, f.type); break;
        }
    }
    hudi_thrift_struct_end(&d->r);
    check_required(d, "DictionaryPageHeader", seen, BIT(1) | BIT(2), dict_names);
    /* ARROW-RS-GH-6229-DICTHEADER.parquet */
    if (ok(d) && h->num_values < 0)
        hudi_thrift_fail(&d->r, HUDI_ECORRUPT, "DictionaryPageHeader: num_values %d < 0",
                         (int)h->num_values);
}

static const char *const ph_names[] = {"", "type", "uncompressed_page_size",
                                       "compressed_page_size"};

static void dec_page_header(dec *d, pq_page_header *h) {
    uint32_t seen = 0;
    hudi_thrift_field f;
    hudi_thrift_struct_begin(&d->r);
    while (hudi_thrift_read_field(&d->r, &f)) {
        switch (f.id) {
        case 1: get_i32(d, &f, &h->type, &seen); break;
        case 2: get_i32(d, &f, &h->uncompressed_page_size, &seen); break;
        case 3: get_i32(d, &f, &h->compressed_page_size, &seen); break;
        case 4: h->has_crc |= get_i32(d, &f, &h->crc, &seen); break;
        case 5:
            if (want(d, &f, HUDI_THRIFT_STRUCT)) {
                h->has_data_page_header = true;
                dec_data_page_header(d, &h->data_page_header);
            }
            break;
        case 7:
            if (want(d, &f, HUDI_THRIFT_STRUCT)) {
                h->has_dictionary_page_header = true;
                dec_dictionary_page_header(d, &h->dictionary_page_header);
            }
            break;
        case 8:
            if (want(d, &f, HUDI_THRIFT_STRUCT)) {
                h->has_data_page_header_v2 = true;
                dec_data_page_header_v2(d, &h->data_page_header_v2);
            }
            break;
        default: hudi_thrift_skip(&d->r, f.type); break; /* 6: IndexPageHeader, unused */
        }
    }
    hudi_thrift_struct_end(&d->r);
    check_required(d, "PageHeader", seen, BIT(1) | BIT(2) | BIT(3), ph_names);
    if (ok(d) && (h->uncompressed_page_size < 0 || h->compressed_page_size < 0))
        hudi_thrift_fail(&d->r, HUDI_ECORRUPT,
                         "PageHeader: negative page size (uncompressed %d, compressed %d)",
                         (int)h->uncompressed_page_size, (int)h->compressed_page_size);
}

/* ---- page index and bloom filter header ------------------------------------------------ */

static const char *const pl_names[] = {"", "offset", "compressed_page_size", "first_row_index"};

static void dec_page_location(dec *d, pq_page_location *l) {
    uint32_t seen = 0;
    hudi_thrift_field f;
    hudi_thrift_struct_begin(&d->r);
    while (hudi_thrift_read_field(&d->r, &f)) {
        switch (f.id) {
        case 1: get_i64(d, &f, &l->offset, &seen); break;
        case 2: get_i32(d, &f, &l->compressed_page_size, &seen); break;
        case 3: get_i64(d, &f, &l->first_row_index, &seen); break;
        default: hudi_thrift_skip(&d->r, f.type); break;
        }
    }
    hudi_thrift_struct_end(&d->r);
    check_required(d, "PageLocation", seen, BIT(1) | BIT(2) | BIT(3), pl_names);
}

static const char *const oi_names[] = {"", "page_locations"};

static void dec_offset_index(dec *d, pq_offset_index *oi) {
    uint32_t seen = 0;
    hudi_thrift_field f;
    hudi_thrift_struct_begin(&d->r);
    while (hudi_thrift_read_field(&d->r, &f)) {
        if (f.id == 1) {
            if (get_list(d, &f, HUDI_THRIFT_STRUCT, 7, sizeof(pq_page_location),
                         "OffsetIndex.page_locations", (void **)&oi->page_locations,
                         &oi->n_page_locations)) {
                for (int32_t i = 0; i < oi->n_page_locations && ok(d); i++)
                    dec_page_location(d, &oi->page_locations[i]);
                mark(&seen, f.id);
            }
        } else {
            hudi_thrift_skip(&d->r, f.type);
        }
    }
    hudi_thrift_struct_end(&d->r);
    check_required(d, "OffsetIndex", seen, BIT(1), oi_names);
}

static const char *const ci_names[] = {"", "null_pages", "min_values", "max_values",
                                       "boundary_order"};

static void dec_column_index(dec *d, pq_column_index *ci) {
    uint32_t seen = 0;
    hudi_thrift_field f;
    int32_t n_min = 0, n_max = 0, n_nulls = 0, n_nans = 0;
    hudi_thrift_struct_begin(&d->r);
    while (hudi_thrift_read_field(&d->r, &f)) {
        switch (f.id) {
        case 1:
            if (get_list(d, &f, HUDI_THRIFT_TRUE, 1, sizeof(bool), "ColumnIndex.null_pages",
                         (void **)&ci->null_pages, &ci->n_pages)) {
                for (int32_t i = 0; i < ci->n_pages; i++)
                    ci->null_pages[i] = hudi_thrift_read_bool_elem(&d->r);
                mark(&seen, f.id);
            }
            break;
        case 2:
            get_binary_list(d, &f, "ColumnIndex.min_values", &ci->min_values, &n_min, &seen);
            break;
        case 3:
            get_binary_list(d, &f, "ColumnIndex.max_values", &ci->max_values, &n_max, &seen);
            break;
        case 4: get_i32(d, &f, &ci->boundary_order, &seen); break;
        case 5:
            get_i64_list(d, &f, "ColumnIndex.null_counts", &ci->null_counts, &n_nulls, &seen);
            ci->has_null_counts = seen & BIT(5);
            break;
        case 8:
            get_i64_list(d, &f, "ColumnIndex.nan_counts", &ci->nan_counts, &n_nans, &seen);
            ci->has_nan_counts = seen & BIT(8);
            break;
        default: hudi_thrift_skip(&d->r, f.type); break;
        }
    }
    hudi_thrift_struct_end(&d->r);
    check_required(d, "ColumnIndex", seen, 0x1e /* 1-4 */, ci_names);
    if (!ok(d)) return;
    if (n_min != ci->n_pages || n_max != ci->n_pages ||
        (ci->has_null_counts && n_nulls != ci->n_pages) ||
        (ci->has_nan_counts && n_nans != ci->n_pages))
        hudi_thrift_fail(&d->r, HUDI_ECORRUPT,
                         "ColumnIndex: list lengths differ (%d null_pages, %d min_values, "
                         "%d max_values, %d null_counts, %d nan_counts)",
                         (int)ci->n_pages, (int)n_min, (int)n_max, (int)n_nulls, (int)n_nans);
}

static const char *const bloom_names[] = {"", "numBytes", "algorithm", "hash", "compression"};

static void dec_bloom_header(dec *d, pq_bloom_header *h) {
    uint32_t seen = 0;
    hudi_thrift_field f;
    hudi_thrift_struct_begin(&d->r);
    while (hudi_thrift_read_field(&d->r, &f)) {
        int32_t *member = f.id == 2   ? &h->algorithm
                          : f.id == 3 ? &h->hash
                          : f.id == 4 ? &h->compression
                                      : NULL;
        if (f.id == 1) {
            get_i32(d, &f, &h->num_bytes, &seen);
        } else if (member && want(d, &f, HUDI_THRIFT_STRUCT)) {
            /* Each is a union with one known member, id 1 (BLOCK, XXHASH, UNCOMPRESSED). */
            *member = dec_empty_union(d, 1);
            mark(&seen, f.id);
        } else if (!member) {
            hudi_thrift_skip(&d->r, f.type);
        }
    }
    hudi_thrift_struct_end(&d->r);
    check_required(d, "BloomFilterHeader", seen, 0x1e /* 1-4 */, bloom_names);
    if (ok(d) && h->num_bytes < 0)
        hudi_thrift_fail(&d->r, HUDI_ECORRUPT, "BloomFilterHeader: numBytes %d < 0",
                         (int)h->num_bytes);
}

/* ---- entry points ---------------------------------------------------------------------- */

/* Copies `in` into the arena once, so every binary value decoded from it is a view into
 * arena memory: one memcpy instead of one allocation per string. Used for inputs that
 * are metadata only (footer, page indexes); page headers copy per value instead, since
 * their input runs on into page data. */
static int dec_init_copied(dec *d, hudi_arena *arena, hudi_slice in, hudi_error *err) {
    uint8_t *copy = NULL;
    if (in.len) {
        copy = hudi_arena_alloc(arena, in.len);
        if (!copy) return hudi_error_oom(err);
        memcpy(copy, in.data, in.len);
    }
    hudi_thrift_reader_init(&d->r, HUDI_SLICE(copy, in.len), err);
    d->arena = arena;
    d->copy = false;
    return 0;
}

int hudi_pq_decode_file_meta(pq_file_meta *out, hudi_arena *arena, hudi_slice in, hudi_error *err) {
    dec d;
    memset(out, 0, sizeof(*out));
    int rc = dec_init_copied(&d, arena, in, err);
    if (rc < 0) return rc;
    dec_file_meta(&d, out);
    if (d.r.rc < 0) memset(out, 0, sizeof(*out));
    return d.r.rc;
}

int hudi_pq_decode_page_header(pq_page_header *out, hudi_arena *arena, hudi_slice in,
                               size_t *consumed, hudi_error *err) {
    dec d;
    memset(out, 0, sizeof(*out));
    hudi_thrift_reader_init(&d.r, in, err);
    d.arena = arena;
    d.copy = true;
    dec_page_header(&d, out);
    if (d.r.rc < 0) {
        memset(out, 0, sizeof(*out));
        return d.r.rc;
    }
    if (consumed) *consumed = hudi_thrift_reader_pos(&d.r);
    return 0;
}

int hudi_pq_decode_offset_index(pq_offset_index *out, hudi_arena *arena, hudi_slice in,
                                hudi_error *err) {
    dec d;
    memset(out, 0, sizeof(*out));
    /* OffsetIndex holds no strings: decode straight from the input. */
    hudi_thrift_reader_init(&d.r, in, err);
    d.arena = arena;
    d.copy = false;
    dec_offset_index(&d, out);
    if (d.r.rc < 0) memset(out, 0, sizeof(*out));
    return d.r.rc;
}

int hudi_pq_decode_column_index(pq_column_index *out, hudi_arena *arena, hudi_slice in,
                                hudi_error *err) {
    dec d;
    memset(out, 0, sizeof(*out));
    int rc = dec_init_copied(&d, arena, in, err);
    if (rc < 0) return rc;
    dec_column_index(&d, out);
    if (d.r.rc < 0) memset(out, 0, sizeof(*out));
    return d.r.rc;
}

int hudi_pq_decode_bloom_header(pq_bloom_header *out, hudi_slice in, size_t *consumed,
                                hudi_error *err) {
    dec d;
    memset(out, 0, sizeof(*out));
    hudi_thrift_reader_init(&d.r, in, err);
    d.arena = NULL; /* no strings or lists */
    d.copy = false;
    dec_bloom_header(&d, out);
    if (d.r.rc < 0) {
        memset(out, 0, sizeof(*out));
        return d.r.rc;
    }
    if (consumed) *consumed = hudi_thrift_reader_pos(&d.r);
    return 0;
}
