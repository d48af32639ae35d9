/* schema.c - FileMetaData.schema (flattened pre-order SchemaElements) <-> hudi_field trees,
 * plus the per-leaf level plans of schema.h. docs/formats/parquet.md §1.3, §4.1, §4.4-4.6, §5.
 *
 * Invariant: reading validates the element tree completely (child counts, repetition, types,
 * depth) before any field is built, so conversion never indexes past the element array; each
 * parquet element yields at most two hudi nodes (an unannotated REPEATED field becomes a
 * required list plus its element), so chains stay within 2 * PQ_SCHEMA_MAX_DEPTH + 2. */
#include "format/parquet/schema.h"

#define MAX_CHAIN (2 * PQ_SCHEMA_MAX_DEPTH + 4)

/* Largest decimal precision an FLBA of n bytes holds: floor(log10(2^(8n-1) - 1)), §5.2. */
static const int8_t flba_max_precision[17] = {0,  2,  4,  6,  9,  11, 14, 16, 18,
                                              21, 23, 26, 28, 31, 33, 35, 38};

int32_t hudi_pq_decimal_min_bytes(int32_t precision) {
    for (int32_t n = 1; n <= 16; n++)
        if (precision <= flba_max_precision[n]) return n;
    return 16;
}

static const char *phys_name(int32_t t) {
    static const char *const names[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                        "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
    return t >= 0 && t < 8 ? names[t] : "?";
}

/* ==== reading ============================================================================= */

typedef struct read_ctx {
    const pq_schema_element *el;
    int32_t n;
    int32_t *end; /* exclusive end of each element's subtree */
    const pq_schema_read_options *opts;
    pq_schema *s;
    hudi_error *err;
    int32_t path[PQ_SCHEMA_MAX_DEPTH + 2]; /* element indices below the root */
    int32_t path_len;
    pq_level lv[MAX_CHAIN];
    bool seen[MAX_CHAIN]; /* a leaf below lv[i] was recorded already */
    int32_t n_lv;
    int32_t next_leaf;
    int32_t column;
    char name[256];
} read_ctx;

static bool name_is(hudi_slice name, const char *s) {
    return hudi_slice_eq(name, hudi_slice_cstr(s));
}

/* The current element path joined by '.', for error messages only. */
static const char *path_str(read_ctx *c) {
    size_t at = 0, cap = sizeof(c->name);
    c->name[0] = 0;
    for (int32_t i = 0; i < c->path_len && at + 1 < cap; i++) {
        hudi_slice nm = c->el[c->path[i]].name;
        if (i > 0) c->name[at++] = '.';
        size_t k = HUDI_MIN(nm.len, cap - 1 - at);
        if (k) memcpy(c->name + at, nm.data, k);
        at += k;
        c->name[at] = 0;
    }
    return c->name;
}

static int corrupt_elem(read_ctx *c, int32_t i, const char *what) {
    hudi_slice nm = c->el[i].name;
    return hudi_error_set(c->err, HUDI_ECORRUPT, "schema element %d (%.*s): %s", (int)i,
                          (int)HUDI_MIN(nm.len, 200), nm.data ? (const char *)nm.data : "", what);
}

/* Pass 1: subtree ends, child counts, repetition and type presence, depth. */
static int walk_tree(read_ctx *c, int32_t i, int depth, int32_t *next) {
    const pq_schema_element *e = &c->el[i];
    int rc;
    if (depth > PQ_SCHEMA_MAX_DEPTH)
        return hudi_error_set(c->err, HUDI_ECORRUPT, "schema nested deeper than %d levels",
                              PQ_SCHEMA_MAX_DEPTH);
    if (e->num_children < 0) return corrupt_elem(c, i, "negative num_children");
    if (i > 0 && !e->has_repetition) return corrupt_elem(c, i, "no repetition type");
    if (i > 0 && (e->repetition < PQ_REQUIRED || e->repetition > PQ_REPEATED))
        return corrupt_elem(c, i, "repetition type out of range");
    int32_t j = i + 1;
    if (e->num_children > 0) {
        if (e->has_type) return corrupt_elem(c, i, "group with a physical type");
        for (int32_t k = 0; k < e->num_children; k++) {
            if (j >= c->n) return corrupt_elem(c, i, "num_children runs past the schema");
            if ((rc = walk_tree(c, j, depth + 1, &j)) < 0) return rc;
        }
    } else if (i > 0) {
        if (!e->has_type) return corrupt_elem(c, i, "leaf without a physical type");
        if (e->type < PQ_BOOLEAN || e->type > PQ_FIXED_LEN_BYTE_ARRAY)
            return corrupt_elem(c, i, "physical type out of range");
        if (e->type == PQ_FIXED_LEN_BYTE_ARRAY && (!e->has_type_length || e->type_length <= 0))
            return corrupt_elem(c, i, "FIXED_LEN_BYTE_ARRAY without a positive type_length");
    }
    c->end[i] = j;
    *next = j;
    return 0;
}

/* def_slot/rep_slot as passed: D and Rp of the parquet parent (§4.4); a struct parent's own
 * def_slot replaces def_slot below. */
static int push_level(read_ctx *c, const hudi_field *f, uint8_t kind, bool nullable, int def_slot,
                      int rep_slot) {
    if (c->n_lv >= MAX_CHAIN)
        return hudi_error_set(c->err, HUDI_ECORRUPT, "column %s: schema nested too deeply",
                              path_str(c));
    int dv = def_slot + (nullable ? 1 : 0);
    /* Arrow layout: a struct child has a slot for every struct slot, null ones included */
    if (c->n_lv > 0 && c->lv[c->n_lv - 1].kind == PQ_NODE_STRUCT)
        def_slot = c->lv[c->n_lv - 1].def_slot;
    pq_level *l = &c->lv[c->n_lv];
    *l = (pq_level){.field = f,
                    .kind = kind,
                    .nullable = nullable,
                    .def_slot = (int16_t)def_slot,
                    .def_valid = (int16_t)dv,
                    .def_elem = (int16_t)dv,
                    .rep_slot = (int16_t)rep_slot,
                    .rep_elem = (int16_t)rep_slot,
                    .child = 0,
                    .null_child = -1};
    if (kind == PQ_NODE_LIST) {
        l->def_elem = (int16_t)(dv + 1);
        l->rep_elem = (int16_t)(rep_slot + 1);
    }
    c->seen[c->n_lv] = false;
    c->n_lv++;
    return 0;
}

static int init_field(read_ctx *c, hudi_field *f, int32_t i, hudi_type_id t, bool nullable) {
    hudi_field_init(f, NULL, t, nullable);
    hudi_slice nm = c->el[i].name;
    if (!(f->name = hudi_strndup(nm.data ? (const char *)nm.data : "", nm.len)))
        return hudi_error_oom(c->err);
    if (c->el[i].has_field_id) f->field_id = c->el[i].field_id;
    return 0;
}

static int record_leaf(read_ctx *c, int32_t i, const hudi_field *f) {
    pq_schema *s = c->s;
    if (c->next_leaf >= s->n_leaves)
        return hudi_error_set(c->err, HUDI_ECORRUPT, "column %s: more leaves than counted",
                              path_str(c));
    pq_leaf *l = &s->leaves[c->next_leaf];
    const pq_schema_element *e = &c->el[i];
    l->index = c->next_leaf++;
    l->column = c->column;
    l->element = e;
    l->physical_type = e->type;
    l->type_length = e->type == PQ_FIXED_LEN_BYTE_ARRAY ? e->type_length : 0;
    l->depth = c->n_lv;
    l->levels = hudi_arena_alloc(&s->arena, sizeof(pq_level) * (size_t)c->n_lv);
    l->path_len = c->path_len;
    l->path = hudi_arena_alloc(&s->arena, sizeof(hudi_slice) * (size_t)(c->path_len + 1));
    if (!l->levels || !l->path) return hudi_error_oom(c->err);
    for (int32_t k = 0; k < c->n_lv; k++) {
        l->levels[k] = c->lv[k];
        l->levels[k].owned = !c->seen[k];
        c->seen[k] = true;
    }
    for (int32_t k = 0; k < c->path_len; k++) l->path[k] = c->el[c->path[k]].name;
    l->max_def = c->lv[c->n_lv - 1].def_valid;
    l->max_rep = c->lv[c->n_lv - 1].rep_slot;
    l->field = f;
    return 0;
}

/* ---- leaf types (§5.1) ---- */

static int bad_annotation(read_ctx *c, const char *what, int32_t pt) {
    return hudi_error_set(c->err, HUDI_ECORRUPT, "column %s: %s cannot annotate %s", path_str(c),
                          what, phys_name(pt));
}

static int set_decimal(read_ctx *c, hudi_field *f, const pq_schema_element *e, int32_t precision,
                       int32_t scale) {
    int32_t pt = e->type;
    if (precision < 1 || scale < 0 || scale > precision)
        return hudi_error_set(c->err, HUDI_ECORRUPT, "column %s: DECIMAL(%d,%d) is invalid",
                              path_str(c), precision, scale);
    if (precision > 38)
        return hudi_error_set(c->err, HUDI_EUNSUPPORTED,
                              "column %s: DECIMAL precision %d is above 38", path_str(c),
                              precision);
    bool ok = pt == PQ_INT32   ? precision <= 9
              : pt == PQ_INT64 ? precision <= 18
              : pt == PQ_FIXED_LEN_BYTE_ARRAY
                  ? (e->type_length > 16 || precision <= flba_max_precision[e->type_length])
                  : pt == PQ_BYTE_ARRAY;
    if (!ok)
        return hudi_error_set(c->err, HUDI_ECORRUPT, "column %s: DECIMAL(%d,%d) does not fit %s",
                              path_str(c), precision, scale, phys_name(pt));
    f->type = HUDI_TYPE_DECIMAL;
    f->precision = precision;
    f->scale = scale;
    return 0;
}

static int from_physical(read_ctx *c, const pq_schema_element *e, hudi_field *f) {
    switch (e->type) {
    case PQ_BOOLEAN: f->type = HUDI_TYPE_BOOL; break;
    case PQ_INT32: f->type = HUDI_TYPE_INT32; break;
    case PQ_INT64: f->type = HUDI_TYPE_INT64; break;
    case PQ_INT96: /* legacy timestamp, converted to micros by the value decoder (§5.4) */
        f->type = HUDI_TYPE_TIMESTAMP;
        f->unit = HUDI_UNIT_MICROS;
        f->utc = true;
        f->hint = HUDI_HINT_INT96;
        break;
    case PQ_FLOAT: f->type = HUDI_TYPE_FLOAT; break;
    case PQ_DOUBLE: f->type = HUDI_TYPE_DOUBLE; break;
    case PQ_BYTE_ARRAY:
        f->type = c->opts->binary_as_string ? HUDI_TYPE_STRING : HUDI_TYPE_BINARY;
        break;
    default: /* PQ_FIXED_LEN_BYTE_ARRAY; walk_tree rejected everything else */
        f->type = HUDI_TYPE_FIXED_BINARY;
        f->byte_width = e->type_length;
        break;
    }
    return 0;
}

static int set_int(read_ctx *c, hudi_field *f, int32_t pt, int bits, bool is_signed,
                   const char *what) {
    if (pt != (bits == 64 ? PQ_INT64 : PQ_INT32)) return bad_annotation(c, what, pt);
    static const hudi_type_id s[] = {HUDI_TYPE_INT8, HUDI_TYPE_INT16, HUDI_TYPE_INT32,
                                     HUDI_TYPE_INT64};
    static const hudi_type_id u[] = {HUDI_TYPE_UINT8, HUDI_TYPE_UINT16, HUDI_TYPE_UINT32,
                                     HUDI_TYPE_UINT64};
    int k = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : 3;
    f->type = is_signed ? s[k] : u[k];
    return 0;
}

static int set_time(read_ctx *c, hudi_field *f, int32_t pt, bool ts, int32_t pq_unit, bool utc) {
    const char *what = ts ? "TIMESTAMP" : "TIME";
    if (pq_unit < PQ_UNIT_MILLIS || pq_unit > PQ_UNIT_NANOS)
        return hudi_error_set(c->err, HUDI_EUNSUPPORTED, "column %s: %s with an unknown unit",
                              path_str(c), what);
    int32_t want = (!ts && pq_unit == PQ_UNIT_MILLIS) ? PQ_INT32 : PQ_INT64;
    if (pt != want) return bad_annotation(c, what, pt);
    f->type = ts ? HUDI_TYPE_TIMESTAMP : HUDI_TYPE_TIME;
    f->unit = (uint8_t)(pq_unit == PQ_UNIT_MILLIS   ? HUDI_UNIT_MILLIS
                        : pq_unit == PQ_UNIT_MICROS ? HUDI_UNIT_MICROS
                                                    : HUDI_UNIT_NANOS);
    f->utc = utc;
    return 0;
}

static int set_bytes(read_ctx *c, hudi_field *f, int32_t pt, hudi_type_id t, uint8_t hint,
                     const char *what) {
    if (pt != PQ_BYTE_ARRAY) return bad_annotation(c, what, pt);
    f->type = t;
    f->hint = hint;
    return 0;
}

static int set_fixed(read_ctx *c, hudi_field *f, const pq_schema_element *e, int32_t width,
                     hudi_type_id t, uint8_t hint, const char *what) {
    if (e->type != PQ_FIXED_LEN_BYTE_ARRAY || e->type_length != width)
        return hudi_error_set(c->err, HUDI_ECORRUPT,
                              "column %s: %s needs FIXED_LEN_BYTE_ARRAY(%d), not %s(%d)",
                              path_str(c), what, width, phys_name(e->type), e->type_length);
    f->type = t;
    f->hint = hint;
    if (t == HUDI_TYPE_FIXED_BINARY) f->byte_width = width;
    return 0;
}

static int from_converted(read_ctx *c, const pq_schema_element *e, hudi_field *f) {
    int32_t pt = e->type;
    switch (e->converted_type) {
    case PQ_CT_UTF8: return set_bytes(c, f, pt, HUDI_TYPE_STRING, HUDI_HINT_NONE, "UTF8");
    case PQ_CT_ENUM: return set_bytes(c, f, pt, HUDI_TYPE_STRING, HUDI_HINT_ENUM, "ENUM");
    case PQ_CT_JSON: return set_bytes(c, f, pt, HUDI_TYPE_STRING, HUDI_HINT_JSON, "JSON");
    case PQ_CT_BSON: return set_bytes(c, f, pt, HUDI_TYPE_BINARY, HUDI_HINT_BSON, "BSON");
    case PQ_CT_DECIMAL:
        if (!e->has_precision)
            return hudi_error_set(c->err, HUDI_ECORRUPT, "column %s: DECIMAL without precision",
                                  path_str(c));
        return set_decimal(c, f, e, e->precision, e->has_scale ? e->scale : 0);
    case PQ_CT_DATE:
        if (pt != PQ_INT32) return bad_annotation(c, "DATE", pt);
        f->type = HUDI_TYPE_DATE;
        return 0;
    /* ConvertedType-only files: TIME_* and TIMESTAMP_* mean isAdjustedToUTC = true (§5.1) */
    case PQ_CT_TIME_MILLIS: return set_time(c, f, pt, false, PQ_UNIT_MILLIS, true);
    case PQ_CT_TIME_MICROS: return set_time(c, f, pt, false, PQ_UNIT_MICROS, true);
    case PQ_CT_TIMESTAMP_MILLIS: return set_time(c, f, pt, true, PQ_UNIT_MILLIS, true);
    case PQ_CT_TIMESTAMP_MICROS: return set_time(c, f, pt, true, PQ_UNIT_MICROS, true);
    case PQ_CT_UINT_8: return set_int(c, f, pt, 8, false, "UINT_8");
    case PQ_CT_UINT_16: return set_int(c, f, pt, 16, false, "UINT_16");
    case PQ_CT_UINT_32: return set_int(c, f, pt, 32, false, "UINT_32");
    case PQ_CT_UINT_64: return set_int(c, f, pt, 64, false, "UINT_64");
    case PQ_CT_INT_8: return set_int(c, f, pt, 8, true, "INT_8");
    case PQ_CT_INT_16: return set_int(c, f, pt, 16, true, "INT_16");
    case PQ_CT_INT_32: return set_int(c, f, pt, 32, true, "INT_32");
    case PQ_CT_INT_64: return set_int(c, f, pt, 64, true, "INT_64");
    case PQ_CT_INTERVAL:
        return set_fixed(c, f, e, 12, HUDI_TYPE_FIXED_BINARY, HUDI_HINT_INTERVAL, "INTERVAL");
    case PQ_CT_MAP:
    case PQ_CT_LIST:
    case PQ_CT_MAP_KEY_VALUE: return bad_annotation(c, "a group annotation", pt);
    default: return from_physical(c, e, f); /* a converted type from the future */
    }
}

static int from_logical(read_ctx *c, const pq_schema_element *e, hudi_field *f) {
    const pq_logical_type *lt = &e->logical_type;
    int32_t pt = e->type;
    switch (lt->kind) {
    case PQ_LT_STRING: return set_bytes(c, f, pt, HUDI_TYPE_STRING, HUDI_HINT_NONE, "STRING");
    case PQ_LT_ENUM: return set_bytes(c, f, pt, HUDI_TYPE_STRING, HUDI_HINT_ENUM, "ENUM");
    case PQ_LT_JSON: return set_bytes(c, f, pt, HUDI_TYPE_STRING, HUDI_HINT_JSON, "JSON");
    case PQ_LT_BSON: return set_bytes(c, f, pt, HUDI_TYPE_BINARY, HUDI_HINT_BSON, "BSON");
    case PQ_LT_GEOMETRY: /* raw WKB: out of scope beyond reading the bytes */
    case PQ_LT_GEOGRAPHY: return set_bytes(c, f, pt, HUDI_TYPE_BINARY, HUDI_HINT_NONE, "GEOMETRY");
    case PQ_LT_UUID: return set_fixed(c, f, e, 16, HUDI_TYPE_FIXED_BINARY, HUDI_HINT_UUID, "UUID");
    case PQ_LT_FLOAT16: return set_fixed(c, f, e, 2, HUDI_TYPE_FLOAT16, HUDI_HINT_NONE, "FLOAT16");
    case PQ_LT_DECIMAL: return set_decimal(c, f, e, lt->precision, lt->scale);
    case PQ_LT_DATE:
        if (pt != PQ_INT32) return bad_annotation(c, "DATE", pt);
        f->type = HUDI_TYPE_DATE;
        return 0;
    case PQ_LT_TIME: return set_time(c, f, pt, false, lt->unit, lt->is_adjusted_to_utc);
    case PQ_LT_TIMESTAMP: return set_time(c, f, pt, true, lt->unit, lt->is_adjusted_to_utc);
    case PQ_LT_INTEGER:
        if (lt->bit_width != 8 && lt->bit_width != 16 && lt->bit_width != 32 && lt->bit_width != 64)
            return hudi_error_set(c->err, HUDI_ECORRUPT, "column %s: INTEGER bit width %d",
                                  path_str(c), lt->bit_width);
        return set_int(c, f, pt, lt->bit_width, lt->is_signed, "INTEGER");
    case PQ_LT_UNKNOWN: /* always null, whatever the physical type */
        f->type = HUDI_TYPE_NULL;
        f->nullable = true;
        return 0;
    case PQ_LT_MAP:
    case PQ_LT_LIST: return bad_annotation(c, "a group annotation", pt);
    default: /* absent, unknown member, or a group-only type: degrade (§1.6) */
        if (e->has_converted_type) return from_converted(c, e, f);
        return from_physical(c, e, f);
    }
}

static bool logical_known_for_leaf(int32_t k) {
    return (k >= PQ_LT_STRING && k <= PQ_LT_TIMESTAMP) ||
           (k >= PQ_LT_INTEGER && k <= PQ_LT_FLOAT16) || k == PQ_LT_GEOMETRY ||
           k == PQ_LT_GEOGRAPHY;
}

static int leaf_type(read_ctx *c, const pq_schema_element *e, hudi_field *f) {
    if (e->type == PQ_INT96) return from_physical(c, e, f); /* annotations never apply */
    if (e->has_logical_type && logical_known_for_leaf(e->logical_type.kind))
        return from_logical(c, e, f);
    if (e->has_converted_type) return from_converted(c, e, f);
    return from_physical(c, e, f);
}

/* ---- groups ---- */

enum { G_STRUCT, G_LIST, G_MAP };

static int group_kind(read_ctx *c, const pq_schema_element *e, int *kind) {
    *kind = G_STRUCT;
    int32_t lt = e->has_logical_type ? e->logical_type.kind : PQ_LT_NONE;
    if (lt == PQ_LT_LIST) return (*kind = G_LIST), 0;
    if (lt == PQ_LT_MAP) return (*kind = G_MAP), 0;
    if (logical_known_for_leaf(lt))
        return hudi_error_set(c->err, HUDI_ECORRUPT,
                              "column %s: a primitive logical type annotates a group", path_str(c));
    if (!e->has_converted_type) return 0;
    switch (e->converted_type) {
    case PQ_CT_LIST: *kind = G_LIST; return 0;
    case PQ_CT_MAP: *kind = G_MAP; return 0;
    /* outside a MAP, a MAP_KEY_VALUE group is a map (§4.6); a repeated one is just a group */
    case PQ_CT_MAP_KEY_VALUE: *kind = e->repetition == PQ_REPEATED ? G_STRUCT : G_MAP; return 0;
    default:
        if (e->converted_type >= 0 && e->converted_type <= PQ_CT_INTERVAL)
            return hudi_error_set(c->err, HUDI_ECORRUPT,
                                  "column %s: a primitive converted type annotates a group",
                                  path_str(c));
        return 0;
    }
}

static int convert_element(read_ctx *c, int32_t i, int def, int rep, bool as_element,
                           hudi_field *out);

/* §4.5: which element of a LIST group G (element i) with repeated child r is the element. */
static bool repeated_is_element(read_ctx *c, int32_t g, int32_t r) {
    const pq_schema_element *R = &c->el[r];
    if (R->num_children == 0) return true;                   /* rule 1 */
    if (R->num_children > 1) return true;                    /* rule 2 */
    if (c->el[r + 1].repetition == PQ_REPEATED) return true; /* rule 3 */
    hudi_slice gn = c->el[g].name;                           /* rule 4 */
    if (name_is(R->name, "array")) return true;
    return R->name.len == gn.len + 6 &&
           (gn.len == 0 || memcmp(R->name.data, gn.data, gn.len) == 0) &&
           memcmp(R->name.data + gn.len, "_tuple", 6) == 0;
}

static int convert_list(read_ctx *c, int32_t i, int def, int rep, bool nullable, hudi_field *out) {
    int rc;
    int32_t r = i + 1;
    if (c->el[i].num_children != 1 || c->el[r].repetition != PQ_REPEATED)
        return hudi_error_set(c->err, HUDI_ECORRUPT,
                              "column %s: a LIST group needs exactly one repeated child",
                              path_str(c));
    if ((rc = init_field(c, out, i, HUDI_TYPE_LIST, nullable)) < 0) return rc;
    if (hudi_field_set_children(out, 1) < 0) return hudi_error_oom(c->err);
    if ((rc = push_level(c, out, PQ_NODE_LIST, nullable, def, rep)) < 0) return rc;
    int dv = def + (nullable ? 1 : 0);
    if (repeated_is_element(c, i, r)) {
        rc = convert_element(c, r, dv + 1, rep + 1, true, &out->children[0]);
    } else { /* rule 5: the repeated group's only child, with its own repetition */
        c->path[c->path_len++] = r;
        rc = convert_element(c, r + 1, dv + 1, rep + 1, false, &out->children[0]);
        c->path_len--;
    }
    c->n_lv--;
    return rc;
}

static int convert_map(read_ctx *c, int32_t i, int def, int rep, bool nullable, hudi_field *out) {
    int rc;
    int32_t r = i + 1;
    const pq_schema_element *R = &c->el[r];
    if (c->el[i].num_children != 1 || R->repetition != PQ_REPEATED || R->num_children < 1 ||
        R->num_children > 2)
        return hudi_error_set(c->err, HUDI_ECORRUPT,
                              "column %s: a MAP group needs one repeated group of key and value",
                              path_str(c));
    if ((rc = init_field(c, out, i, HUDI_TYPE_MAP, nullable)) < 0) return rc;
    if (hudi_field_set_children(out, 1) < 0) return hudi_error_oom(c->err);
    hudi_field *entries = &out->children[0];
    c->path[c->path_len++] = r;
    int dv = def + (nullable ? 1 : 0);
    if ((rc = init_field(c, entries, r, HUDI_TYPE_STRUCT, false)) < 0) goto done;
    if (hudi_field_set_children(entries, 2) < 0) {
        rc = hudi_error_oom(c->err);
        goto done;
    }
    if ((rc = push_level(c, out, PQ_NODE_LIST, nullable, def, rep)) < 0) goto done;
    if ((rc = push_level(c, entries, PQ_NODE_STRUCT, false, dv + 1, rep + 1)) < 0) goto pop1;
    pq_level *kv = &c->lv[c->n_lv - 1];
    /* no value field (map_no_value.parquet): a nullable NULL "value" that the key leaf,
     * owner of the entries struct, fills with nulls */
    if (R->num_children == 1) {
        kv->null_child = 1;
        hudi_field_init(&entries->children[1], "value", HUDI_TYPE_NULL, true);
        if (!entries->children[1].name) {
            rc = hudi_error_oom(c->err);
            goto pop2;
        }
    }
    /* key and value by position, not by name (§4.6); an optional key is accepted */
    if ((rc = convert_element(c, r + 1, dv + 1, rep + 1, false, &entries->children[0])) < 0)
        goto pop2;
    kv->child = 1;
    if (R->num_children == 2)
        rc = convert_element(c, c->end[r + 1], dv + 1, rep + 1, false, &entries->children[1]);
pop2:
    c->n_lv--;
pop1:
    c->n_lv--;
done:
    c->path_len--;
    return rc;
}

static int convert_struct(read_ctx *c, int32_t i, int def, int rep, bool nullable,
                          hudi_field *out) {
    int rc;
    const pq_schema_element *e = &c->el[i];
    if ((rc = init_field(c, out, i, HUDI_TYPE_STRUCT, nullable)) < 0) return rc;
    if (hudi_field_set_children(out, e->num_children) < 0) return hudi_error_oom(c->err);
    if ((rc = push_level(c, out, PQ_NODE_STRUCT, nullable, def, rep)) < 0) return rc;
    int32_t lvl = c->n_lv - 1;
    int dv = def + (nullable ? 1 : 0);
    int32_t j = i + 1;
    for (int32_t k = 0; k < e->num_children && rc == 0; k++) {
        c->lv[lvl].child = k;
        rc = convert_element(c, j, dv, rep, false, &out->children[k]);
        j = c->end[j];
    }
    c->n_lv--;
    return rc;
}

/* Converts element i whose slot exists at def >= def / rep <= rep (def_slot, rep_slot). */
static int convert_body(read_ctx *c, int32_t i, int def, int rep, bool nullable, hudi_field *out) {
    const pq_schema_element *e = &c->el[i];
    int rc, kind;
    if (e->num_children == 0) {
        if ((rc = init_field(c, out, i, HUDI_TYPE_BINARY, nullable)) < 0) return rc;
        if ((rc = leaf_type(c, e, out)) < 0) return rc;
        if ((rc = push_level(c, out, PQ_NODE_LEAF, nullable, def, rep)) < 0) return rc;
        rc = record_leaf(c, i, out);
        c->n_lv--;
        return rc;
    }
    if ((rc = group_kind(c, e, &kind)) < 0) return rc;
    if (kind == G_LIST) return convert_list(c, i, def, rep, nullable, out);
    if (kind == G_MAP) return convert_map(c, i, def, rep, nullable, out);
    return convert_struct(c, i, def, rep, nullable, out);
}

static int convert_element(read_ctx *c, int32_t i, int def, int rep, bool as_element,
                           hudi_field *out) {
    int rc;
    c->path[c->path_len++] = i;
    const pq_schema_element *e = &c->el[i];
    if (e->repetition == PQ_REPEATED && !as_element) {
        /* a REPEATED field outside LIST/MAP: a required list of required elements (§4.5) */
        if ((rc = init_field(c, out, i, HUDI_TYPE_LIST, false)) < 0) goto done;
        if (hudi_field_set_children(out, 1) < 0) {
            rc = hudi_error_oom(c->err);
            goto done;
        }
        if ((rc = push_level(c, out, PQ_NODE_LIST, false, def, rep)) < 0) goto done;
        rc = convert_body(c, i, def + 1, rep + 1, false, &out->children[0]);
        out->children[0].field_id = -1; /* the id belongs to the list field */
        c->n_lv--;
    } else {
        rc = convert_body(c, i, def, rep, !as_element && e->repetition == PQ_OPTIONAL, out);
    }
done:
    c->path_len--;
    return rc;
}

void hudi_pq_schema_dispose(pq_schema *s) {
    if (!s) return;
    hudi_field_dispose(&s->root);
    hudi_arena_dispose(&s->arena);
    memset(s, 0, sizeof(*s));
}

int hudi_pq_schema_read(pq_schema *out, const pq_schema_element *elems, int32_t n,
                        const pq_schema_read_options *opts, hudi_error *err) {
    static const pq_schema_read_options defaults = PQ_SCHEMA_READ_OPTIONS_INIT;
    memset(out, 0, sizeof(*out));
    hudi_field_init(&out->root, NULL, HUDI_TYPE_STRUCT, false);
    read_ctx *c = NULL;
    int rc = 0;
    if (n < 1 || !elems) return hudi_error_set(err, HUDI_ECORRUPT, "empty schema");
    if (elems[0].has_type) return hudi_error_set(err, HUDI_ECORRUPT, "schema root is a leaf");
    if (!(c = hudi_calloc(1, sizeof(*c))) || !(c->end = hudi_calloc((size_t)n, sizeof(int32_t)))) {
        rc = hudi_error_oom(err);
        goto done;
    }
    c->el = elems;
    c->n = n;
    c->opts = opts ? opts : &defaults;
    c->s = out;
    c->err = err;
    int32_t next = 0;
    if ((rc = walk_tree(c, 0, 0, &next)) < 0) goto done;
    if (next != n) {
        rc = hudi_error_set(err, HUDI_ECORRUPT, "schema has %d elements but its tree covers %d",
                            (int)n, (int)next);
        goto done;
    }
    for (int32_t i = 1; i < n; i++) out->n_leaves += elems[i].num_children == 0;
    int32_t ncol = elems[0].num_children;
    out->leaves = hudi_arena_alloc(&out->arena, sizeof(pq_leaf) * (size_t)(out->n_leaves + 1));
    out->column_leaves = hudi_arena_alloc(&out->arena, sizeof(int32_t) * (size_t)(ncol + 1));
    hudi_slice rn = elems[0].name;
    out->root.name = hudi_strndup(rn.data ? (const char *)rn.data : "", rn.len);
    if (!out->leaves || !out->column_leaves || !out->root.name ||
        hudi_field_set_children(&out->root, ncol) < 0) {
        rc = hudi_error_oom(err);
        goto done;
    }
    int32_t j = 1;
    for (int32_t k = 0; k < ncol; k++) {
        c->column = k;
        out->column_leaves[k] = c->next_leaf;
        if ((rc = convert_element(c, j, 0, 0, false, &out->root.children[k])) < 0) goto done;
        j = c->end[j];
    }
    out->column_leaves[ncol] = c->next_leaf;
done:
    if (c) hudi_free(c->end);
    hudi_free(c);
    if (rc < 0) hudi_pq_schema_dispose(out);
    return rc;
}

/* ==== writing ============================================================================= */

typedef struct write_ctx {
    hudi_vec v; /* pq_schema_element */
    hudi_arena *arena;
    const pq_schema_write_options *opts;
    hudi_error *err;
} write_ctx;

static int add_element(write_ctx *c, const char *name, int32_t repetition, int32_t *idx) {
    pq_schema_element *e = hudi_vec_push(&c->v);
    const char *nm = hudi_arena_strdup(c->arena, name ? name : "");
    if (!e || !nm) return hudi_error_oom(c->err);
    e->name = hudi_slice_cstr(nm);
    if (repetition >= 0) {
        e->has_repetition = true;
        e->repetition = repetition;
    }
    *idx = (int32_t)(c->v.len - 1);
    return 0;
}

#define EL(c, i) (&hudi_vec_at(&(c)->v, pq_schema_element, i))

static void annotate(pq_schema_element *e, int32_t lt, int32_t ct) {
    if (lt != PQ_LT_NONE) {
        e->has_logical_type = true;
        e->logical_type.kind = lt;
    }
    if (ct >= 0) {
        e->has_converted_type = true;
        e->converted_type = ct;
    }
}

static void set_phys(pq_schema_element *e, int32_t type, int32_t length) {
    e->has_type = true;
    e->type = type;
    if (type == PQ_FIXED_LEN_BYTE_ARRAY) {
        e->has_type_length = true;
        e->type_length = length;
    }
}

static int32_t pq_unit_of(uint8_t unit) {
    return unit == HUDI_UNIT_MILLIS  ? PQ_UNIT_MILLIS
           : unit == HUDI_UNIT_NANOS ? PQ_UNIT_NANOS
                                     : PQ_UNIT_MICROS;
}

static int write_leaf(write_ctx *c, pq_schema_element *e, const hudi_field *f) {
    static const int8_t int_ct[2][4] = {{PQ_CT_UINT_8, PQ_CT_UINT_16, PQ_CT_UINT_32, PQ_CT_UINT_64},
                                        {PQ_CT_INT_8, PQ_CT_INT_16, PQ_CT_INT_32, PQ_CT_INT_64}};
    const char *name = f->name ? f->name : "";
    int bits = 0;
    bool is_signed = true;
    switch (f->type) {
    case HUDI_TYPE_NULL:
        set_phys(e, PQ_INT32, 0);
        annotate(e, PQ_LT_UNKNOWN, -1);
        return 0;
    case HUDI_TYPE_BOOL: set_phys(e, PQ_BOOLEAN, 0); return 0;
    case HUDI_TYPE_INT32: set_phys(e, PQ_INT32, 0); return 0;
    case HUDI_TYPE_INT64: set_phys(e, PQ_INT64, 0); return 0;
    case HUDI_TYPE_FLOAT: set_phys(e, PQ_FLOAT, 0); return 0;
    case HUDI_TYPE_DOUBLE: set_phys(e, PQ_DOUBLE, 0); return 0;
    case HUDI_TYPE_INT8: bits = 8; break;
    case HUDI_TYPE_INT16: bits = 16; break;
    case HUDI_TYPE_UINT8: bits = 8, is_signed = false; break;
    case HUDI_TYPE_UINT16: bits = 16, is_signed = false; break;
    case HUDI_TYPE_UINT32: bits = 32, is_signed = false; break;
    case HUDI_TYPE_UINT64: bits = 64, is_signed = false; break;
    case HUDI_TYPE_FLOAT16:
        set_phys(e, PQ_FIXED_LEN_BYTE_ARRAY, 2);
        annotate(e, PQ_LT_FLOAT16, -1);
        return 0;
    case HUDI_TYPE_DECIMAL: {
        int32_t p = f->precision, s = f->scale;
        if (p < 1 || p > 38 || s < 0 || s > p)
            return hudi_error_set(c->err, HUDI_EINVAL, "column %s: DECIMAL(%d,%d) is invalid", name,
                                  p, s);
        if (c->opts->decimal_as_flba || p > 18)
            set_phys(e, PQ_FIXED_LEN_BYTE_ARRAY, hudi_pq_decimal_min_bytes(p));
        else
            set_phys(e, p <= 9 ? PQ_INT32 : PQ_INT64, 0);
        annotate(e, PQ_LT_DECIMAL, PQ_CT_DECIMAL);
        e->logical_type.precision = p;
        e->logical_type.scale = s;
        e->has_precision = e->has_scale = true;
        e->precision = p;
        e->scale = s;
        return 0;
    }
    case HUDI_TYPE_DATE:
        set_phys(e, PQ_INT32, 0);
        annotate(e, PQ_LT_DATE, PQ_CT_DATE);
        return 0;
    case HUDI_TYPE_TIME:
    case HUDI_TYPE_TIMESTAMP: {
        bool ts = f->type == HUDI_TYPE_TIMESTAMP;
        if (f->unit > HUDI_UNIT_NANOS)
            return hudi_error_set(c->err, HUDI_EINVAL, "column %s: time unit %d", name, f->unit);
        if (ts && f->hint == HUDI_HINT_INT96 && c->opts->int96_timestamps) {
            set_phys(e, PQ_INT96, 0);
            return 0;
        }
        set_phys(e, (!ts && f->unit == HUDI_UNIT_MILLIS) ? PQ_INT32 : PQ_INT64, 0);
        /* the legacy ConvertedType is written even for local times (§5.1) */
        int32_t ct =
            f->unit == HUDI_UNIT_NANOS ? -1
            : ts ? (f->unit == HUDI_UNIT_MILLIS ? PQ_CT_TIMESTAMP_MILLIS : PQ_CT_TIMESTAMP_MICROS)
                 : (f->unit == HUDI_UNIT_MILLIS ? PQ_CT_TIME_MILLIS : PQ_CT_TIME_MICROS);
        annotate(e, ts ? PQ_LT_TIMESTAMP : PQ_LT_TIME, ct);
        e->logical_type.unit = pq_unit_of(f->unit);
        e->logical_type.is_adjusted_to_utc = f->utc;
        return 0;
    }
    case HUDI_TYPE_STRING:
        set_phys(e, PQ_BYTE_ARRAY, 0);
        if (f->hint == HUDI_HINT_JSON)
            annotate(e, PQ_LT_JSON, PQ_CT_JSON);
        else if (f->hint == HUDI_HINT_ENUM)
            annotate(e, PQ_LT_ENUM, PQ_CT_ENUM);
        else
            annotate(e, PQ_LT_STRING, PQ_CT_UTF8);
        return 0;
    case HUDI_TYPE_BINARY:
        set_phys(e, PQ_BYTE_ARRAY, 0);
        if (f->hint == HUDI_HINT_BSON) annotate(e, PQ_LT_BSON, PQ_CT_BSON);
        return 0;
    case HUDI_TYPE_FIXED_BINARY:
        if (f->byte_width <= 0)
            return hudi_error_set(c->err, HUDI_EINVAL, "column %s: fixed_binary width %d", name,
                                  f->byte_width);
        set_phys(e, PQ_FIXED_LEN_BYTE_ARRAY, f->byte_width);
        if (f->hint == HUDI_HINT_UUID && f->byte_width == 16)
            annotate(e, PQ_LT_UUID, -1);
        else if (f->hint == HUDI_HINT_INTERVAL && f->byte_width == 12)
            annotate(e, PQ_LT_NONE, PQ_CT_INTERVAL);
        return 0;
    default:
        return hudi_error_set(c->err, HUDI_EINVAL, "column %s: %s cannot be a Parquet leaf", name,
                              hudi_type_name(f->type));
    }
    /* integers narrower than 32 bits, and unsigned ones */
    set_phys(e, bits == 64 ? PQ_INT64 : PQ_INT32, 0);
    annotate(e, PQ_LT_INTEGER,
             int_ct[is_signed][bits == 8    ? 0
                               : bits == 16 ? 1
                               : bits == 32 ? 2
                                            : 3]);
    e->logical_type.bit_width = bits;
    e->logical_type.is_signed = is_signed;
    return 0;
}

static int32_t repetition_of(const hudi_field *f) {
    return f->nullable || f->type == HUDI_TYPE_NULL ? PQ_OPTIONAL : PQ_REQUIRED;
}

/* parquet-avro's 2-level form (`repeated <T> array`) holds only non-null elements, and a list
 * element written that way must itself be 2-level: a repeated LIST-annotated group holding a
 * 3-level list is a shape no parquet-avro writer produces and Arrow refuses to read. */
static bool two_level_ok(const hudi_field *elem) {
    if (elem->nullable || elem->type == HUDI_TYPE_NULL) return false;
    if (elem->type == HUDI_TYPE_LIST)
        return elem->n_children == 1 && two_level_ok(&elem->children[0]);
    return true;
}

static int write_field(write_ctx *c, const hudi_field *f, const char *name, int32_t repetition,
                       int depth) {
    int rc;
    int32_t idx = 0;
    const char *fname = f->name ? f->name : "";
    if (depth > PQ_SCHEMA_MAX_DEPTH / 2)
        return hudi_error_set(c->err, HUDI_EINVAL, "column %s: nested too deeply for Parquet",
                              fname);
    if ((rc = add_element(c, name ? name : f->name, repetition, &idx)) < 0) return rc;
    if (f->field_id >= 0) {
        EL(c, idx)->has_field_id = true;
        EL(c, idx)->field_id = f->field_id;
    }
    switch (f->type) {
    case HUDI_TYPE_STRUCT:
        if (f->n_children < 1)
            return hudi_error_set(c->err, HUDI_EINVAL,
                                  "column %s: Parquet cannot store a struct without fields", fname);
        EL(c, idx)->num_children = f->n_children;
        for (int32_t k = 0; k < f->n_children; k++)
            if ((rc = write_field(c, &f->children[k], NULL, repetition_of(&f->children[k]),
                                  depth + 1)) < 0)
                return rc;
        return 0;
    case HUDI_TYPE_LIST: {
        if (f->n_children != 1)
            return hudi_error_set(c->err, HUDI_EINVAL, "column %s: malformed list", fname);
        const hudi_field *elem = &f->children[0];
        EL(c, idx)->num_children = 1;
        annotate(EL(c, idx), PQ_LT_LIST, PQ_CT_LIST);
        if (c->opts->two_level_lists && two_level_ok(elem))
            return write_field(c, elem, "array", PQ_REPEATED, depth + 1);
        if ((rc = add_element(c, "list", PQ_REPEATED, &idx)) < 0) return rc;
        EL(c, idx)->num_children = 1;
        return write_field(c, elem, "element", repetition_of(elem), depth + 1);
    }
    case HUDI_TYPE_MAP: {
        const hudi_field *kv = f->n_children == 1 ? &f->children[0] : NULL;
        if (!kv || kv->type != HUDI_TYPE_STRUCT || kv->n_children != 2)
            return hudi_error_set(c->err, HUDI_EINVAL, "column %s: malformed map", fname);
        EL(c, idx)->num_children = 1;
        annotate(EL(c, idx), PQ_LT_MAP, PQ_CT_MAP);
        if ((rc = add_element(c, "key_value", PQ_REPEATED, &idx)) < 0) return rc;
        EL(c, idx)->num_children = 2;
        if (kv->field_id >= 0) {
            EL(c, idx)->has_field_id = true;
            EL(c, idx)->field_id = kv->field_id;
        }
        /* a nullable key is written OPTIONAL, mirroring what the reader accepts */
        if ((rc = write_field(c, &kv->children[0], "key", repetition_of(&kv->children[0]),
                              depth + 1)) < 0)
            return rc;
        return write_field(c, &kv->children[1], "value", repetition_of(&kv->children[1]),
                           depth + 1);
    }
    default: return write_leaf(c, EL(c, idx), f);
    }
}

int hudi_pq_schema_write(pq_schema_element **out, int32_t *n_out, hudi_arena *arena,
                         const hudi_field *root, const pq_schema_write_options *opts,
                         hudi_error *err) {
    static const pq_schema_write_options defaults = PQ_SCHEMA_WRITE_OPTIONS_INIT;
    write_ctx c = {HUDI_VEC_INIT(pq_schema_element), arena, opts ? opts : &defaults, err};
    int rc;
    int32_t idx = 0;
    *out = NULL;
    *n_out = 0;
    if (root->type != HUDI_TYPE_STRUCT)
        return hudi_error_set(err, HUDI_EINVAL, "schema root must be a struct, not %s",
                              hudi_type_name(root->type));
    const char *rname = root->name && root->name[0] ? root->name : "schema";
    if ((rc = add_element(&c, rname, PQ_REQUIRED, &idx)) < 0) goto done;
    EL(&c, idx)->num_children = root->n_children;
    for (int32_t k = 0; k < root->n_children; k++)
        if ((rc = write_field(&c, &root->children[k], NULL, repetition_of(&root->children[k]), 1)) <
            0)
            goto done;
    pq_schema_element *arr = hudi_arena_alloc(arena, sizeof(*arr) * c.v.len);
    if (!arr) {
        rc = hudi_error_oom(err);
        goto done;
    }
    memcpy(arr, c.v.data, sizeof(*arr) * c.v.len);
    *out = arr;
    *n_out = (int32_t)c.v.len;
done:
    hudi_vec_dispose(&c.v);
    return rc;
}
