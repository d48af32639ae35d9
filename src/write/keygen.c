/* keygen.c - Hudi key generators over batches (docs/formats/keys.md): field paths are resolved
 * once; each key/partition column is rendered for all rows into a scratch string column (type
 * switch outside the row loop), then rows are assembled as Simple/Complex/Timestamp/Custom rules
 * say. Invariant: a rendered column has n + 1 end offsets and one null flag per row; a row whose
 * path crosses a null struct is null. */
#include <stdio.h>
#include <stdlib.h>

#include "write/keygen_int.h"

enum { PART_SIMPLE = 0, PART_TIMESTAMP = 1 };

typedef struct key_col {
    char *path; /* as configured: "a.b" (the hive-style prefix) */
    int32_t depth;
    int32_t *index; /* child index at each level from the batch root */
    const hudi_field *leaf;
    int kind; /* PART_* */
} key_col;

typedef struct strcol { /* one rendered column */
    hudi_buf data;
    int64_t *end; /* end offset of row i (start = i ? end[i-1] : 0) */
    uint8_t *null;
    int64_t cap;
} strcol;

struct hudi_keygen {
    hudi_keygen_type type;
    bool hive_style, url_encode, consistent_ts;
    char *default_partition;
    int32_t n_keys, n_parts;
    key_col *keys, *parts;
    /* timestamp settings */
    hudi_keygen_ts_type ts_type;
    hudi_keygen_scalar_unit scalar_unit;
    char **in_formats;
    int32_t n_in_formats;
    char *out_format;
    int32_t in_offset, out_offset;
    strcol scratch[2];
    hudi_buf row;
};

/* ---- configuration ------------------------------------------------------------------------ */

static void free_cols(key_col *c, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        hudi_free(c[i].path);
        hudi_free(c[i].index);
    }
    hudi_free(c);
}

void hudi_keygen_free(hudi_keygen *kg) {
    if (!kg) return;
    free_cols(kg->keys, kg->n_keys);
    free_cols(kg->parts, kg->n_parts);
    for (int32_t i = 0; i < kg->n_in_formats; i++) hudi_free(kg->in_formats[i]);
    hudi_free(kg->in_formats);
    hudi_free(kg->out_format);
    hudi_free(kg->default_partition);
    for (int i = 0; i < 2; i++) {
        hudi_buf_dispose(&kg->scratch[i].data);
        hudi_free(kg->scratch[i].end);
        hudi_free(kg->scratch[i].null);
    }
    hudi_buf_dispose(&kg->row);
    hudi_free(kg);
}

bool hudi_keygen_uses_column(const hudi_keygen *kg, int32_t col) {
    for (int32_t i = 0; i < kg->n_keys; i++)
        if (kg->keys[i].depth > 0 && kg->keys[i].index[0] == col) return true;
    for (int32_t i = 0; i < kg->n_parts; i++)
        if (kg->parts[i].depth > 0 && kg->parts[i].index[0] == col) return true;
    return false;
}

static char *trim_dup(const char *s, size_t n) {
    while (n && (*s == ' ' || *s == '\t')) s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    return hudi_strndup(s, n);
}

static bool renderable(hudi_type_id t) {
    switch (t) {
    case HUDI_TYPE_BOOL:
    case HUDI_TYPE_INT8:
    case HUDI_TYPE_INT16:
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_INT64:
    case HUDI_TYPE_UINT8:
    case HUDI_TYPE_UINT16:
    case HUDI_TYPE_UINT32:
    case HUDI_TYPE_UINT64:
    case HUDI_TYPE_FLOAT:
    case HUDI_TYPE_DOUBLE:
    case HUDI_TYPE_DECIMAL:
    case HUDI_TYPE_DATE:
    case HUDI_TYPE_TIMESTAMP:
    case HUDI_TYPE_STRING: return true;
    default: return false;
    }
}

/* Resolves "a.b.c" through structs of `schema`. */
static int resolve(key_col *c, const char *path, const hudi_field *schema, hudi_error *err) {
    const hudi_field *f = schema;
    int32_t cap = 1;
    for (const char *p = path; *p; p++) cap += *p == '.';
    if (!(c->path = hudi_strdup(path)) || !(c->index = hudi_calloc((size_t)cap, sizeof(int32_t))))
        return hudi_error_oom(err);
    const char *s = path;
    for (;;) {
        const char *dot = strchr(s, '.');
        size_t n = dot ? (size_t)(dot - s) : strlen(s);
        if (f->type != HUDI_TYPE_STRUCT)
            return hudi_error_set(err, HUDI_EINVAL, "keygen: field %s: %.*s is inside a %s", path,
                                  (int)n, s, hudi_type_name(f->type));
        int32_t k = 0;
        while (k < f->n_children &&
               !(strlen(f->children[k].name) == n && !memcmp(f->children[k].name, s, n)))
            k++;
        if (k == f->n_children)
            return hudi_error_set(err, HUDI_EINVAL, "keygen: field %s does not exist", path);
        c->index[c->depth++] = k;
        f = &f->children[k];
        if (!dot) break;
        s = dot + 1;
    }
    c->leaf = f;
    if (!renderable(f->type))
        return hudi_error_set(err, HUDI_EUNSUPPORTED, "keygen: field %s: %s cannot be a key", path,
                              hudi_type_name(f->type));
    return 0;
}

/* Splits a comma list and resolves each; CUSTOM entries carry ":SIMPLE"/":TIMESTAMP". */
static int parse_fields(key_col **out, int32_t *n_out, const char *list, bool custom,
                        const hudi_field *schema, hudi_error *err) {
    int32_t cap = 1, n = 0;
    int rc = 0;
    *out = NULL;
    *n_out = 0;
    if (!list) return 0;
    for (const char *p = list; *p; p++) cap += *p == ',';
    key_col *cols = hudi_calloc((size_t)cap, sizeof(*cols));
    if (!cols) return hudi_error_oom(err);
    const char *s = list;
    while (rc == 0) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        char *item = trim_dup(s, len);
        if (!item) {
            rc = hudi_error_oom(err);
            break;
        }
        if (*item) {
            key_col *c = &cols[n++];
            char *colon = custom ? strrchr(item, ':') : NULL;
            if (custom) {
                if (!colon)
                    rc = hudi_error_set(err, HUDI_EINVAL,
                                        "keygen: custom partition field '%s' needs :SIMPLE or "
                                        ":TIMESTAMP",
                                        item);
                else if (!strcmp(colon + 1, "SIMPLE"))
                    c->kind = PART_SIMPLE;
                else if (!strcmp(colon + 1, "TIMESTAMP"))
                    c->kind = PART_TIMESTAMP;
                else
                    rc = hudi_error_set(err, HUDI_EINVAL, "keygen: partition type '%s' is unknown",
                                        colon + 1);
                if (colon) *colon = '\0';
            }
            if (rc == 0) rc = resolve(c, item, schema, err);
        }
        hudi_free(item);
        if (!comma) break;
        s = comma + 1;
    }
    *out = cols;
    *n_out = n;
    return rc;
}

static int setup_timestamp(hudi_keygen *kg, const hudi_keygen_ts_options *ts, hudi_error *err) {
    int rc;
    kg->ts_type = ts->type;
    kg->scalar_unit = ts->scalar_unit;
    if (ts->type > HUDI_TS_DATE_STRING || ts->scalar_unit > HUDI_SCALAR_DAYS)
        return hudi_error_set(err, HUDI_EINVAL, "keygen: unknown timestamp type or unit");
    if (!ts->output_dateformat)
        return hudi_error_set(err, HUDI_EINVAL, "keygen: timestamp output.dateformat is not set");
    if ((rc = hudi_kg_pattern_check(ts->output_dateformat, err)) < 0) return rc;
    if (!(kg->out_format = hudi_strdup(ts->output_dateformat))) return hudi_error_oom(err);
    const char *in_zone = ts->timezone ? ts->timezone : ts->input_timezone;
    const char *out_zone = ts->timezone ? ts->timezone : ts->output_timezone;
    if ((rc = hudi_kg_parse_zone(&kg->in_offset, in_zone, err)) < 0) return rc;
    if ((rc = hudi_kg_parse_zone(&kg->out_offset, out_zone, err)) < 0) return rc;
    if (ts->type != HUDI_TS_DATE_STRING) return 0;
    if (!ts->input_dateformat || !*ts->input_dateformat)
        return hudi_error_set(err, HUDI_EINVAL,
                              "keygen: DATE_STRING needs timestamp input.dateformat");
    const char *delim = ts->input_delimiter && *ts->input_delimiter ? ts->input_delimiter : ",";
    size_t dl = strlen(delim);
    for (const char *s = ts->input_dateformat;;) {
        const char *d = strstr(s, delim);
        size_t n = d ? (size_t)(d - s) : strlen(s);
        char **f = hudi_realloc(kg->in_formats, sizeof(char *) * ((size_t)kg->n_in_formats + 1));
        if (!f) return hudi_error_oom(err);
        kg->in_formats = f;
        if (!(f[kg->n_in_formats] = trim_dup(s, n))) return hudi_error_oom(err);
        if ((rc = hudi_kg_pattern_check(f[kg->n_in_formats++], err)) < 0) return rc;
        if (!d) break;
        s = d + dl;
    }
    return 0;
}

int hudi_keygen_new(hudi_keygen **out, const hudi_keygen_options *opts, const hudi_field *schema,
                    hudi_error *err) {
    int rc;
    *out = NULL;
    if (!opts || opts->version != HUDI_KEYGEN_OPTIONS_VERSION)
        return hudi_error_set(err, HUDI_EINVAL, "keygen: options version mismatch");
    if (schema->type != HUDI_TYPE_STRUCT)
        return hudi_error_set(err, HUDI_EINVAL, "keygen: the schema must be a struct");
    hudi_keygen *kg = hudi_calloc(1, sizeof(*kg));
    if (!kg) return hudi_error_oom(err);
    kg->type = opts->type;
    kg->hive_style = opts->hive_style;
    kg->url_encode = opts->url_encode;
    kg->consistent_ts = opts->consistent_logical_timestamp;
    if (!(kg->default_partition = hudi_strdup(
              opts->default_partition ? opts->default_partition : HUDI_DEFAULT_PARTITION_PATH))) {
        rc = hudi_error_oom(err);
        goto done;
    }
    if ((rc = parse_fields(&kg->keys, &kg->n_keys, opts->record_key_fields, false, schema, err)) <
        0)
        goto done;
    /* NULL key fields: a table with generated keys (keys.md §9), partition paths only */
    if (kg->n_keys == 0 && opts->record_key_fields) {
        rc = hudi_error_set(err, HUDI_EINVAL, "keygen: no record key field");
        goto done;
    }
    if (opts->type != HUDI_KEYGEN_NONPARTITIONED &&
        (rc = parse_fields(&kg->parts, &kg->n_parts, opts->partition_fields,
                           opts->type == HUDI_KEYGEN_CUSTOM, schema, err)) < 0)
        goto done;
    switch (opts->type) {
    case HUDI_KEYGEN_SIMPLE:
        if (kg->n_keys > 1 || (kg->n_keys == 0 && opts->record_key_fields) || kg->n_parts > 1)
            rc = hudi_error_set(err, HUDI_EINVAL,
                                "keygen: SimpleKeyGenerator takes one key and one partition field");
        break;
    case HUDI_KEYGEN_TIMESTAMP:
        if (kg->n_parts != 1) {
            rc = hudi_error_set(err, HUDI_EINVAL,
                                "keygen: TimestampBasedKeyGenerator takes one partition field");
            break;
        }
        kg->parts[0].kind = PART_TIMESTAMP;
        rc = setup_timestamp(kg, &opts->ts, err);
        break;
    case HUDI_KEYGEN_CUSTOM:
        for (int32_t i = 0; i < kg->n_parts && rc == 0; i++)
            if (kg->parts[i].kind == PART_TIMESTAMP && !kg->out_format)
                rc = setup_timestamp(kg, &opts->ts, err);
        break;
    case HUDI_KEYGEN_COMPLEX:
    case HUDI_KEYGEN_NONPARTITIONED: break;
    default: rc = hudi_error_set(err, HUDI_EINVAL, "keygen: unknown type %d", (int)opts->type);
    }
done:
    if (rc < 0)
        hudi_keygen_free(kg);
    else
        *out = kg;
    return rc;
}

int hudi_keygen_type_parse(hudi_keygen_type *out, const char *name, hudi_error *err) {
    static const struct {
        const char *name;
        hudi_keygen_type type;
    } names[] = {
        {"SIMPLE", HUDI_KEYGEN_SIMPLE},
        {"COMPLEX", HUDI_KEYGEN_COMPLEX},
        {"NON_PARTITION", HUDI_KEYGEN_NONPARTITIONED},
        {"TIMESTAMP", HUDI_KEYGEN_TIMESTAMP},
        {"CUSTOM", HUDI_KEYGEN_CUSTOM},
        {"SimpleKeyGenerator", HUDI_KEYGEN_SIMPLE},
        {"ComplexKeyGenerator", HUDI_KEYGEN_COMPLEX},
        {"NonpartitionedKeyGenerator", HUDI_KEYGEN_NONPARTITIONED},
        {"TimestampBasedKeyGenerator", HUDI_KEYGEN_TIMESTAMP},
        {"CustomKeyGenerator", HUDI_KEYGEN_CUSTOM},
        {"SimpleAvroKeyGenerator", HUDI_KEYGEN_SIMPLE},
        {"ComplexAvroKeyGenerator", HUDI_KEYGEN_COMPLEX},
        {"NonpartitionedAvroKeyGenerator", HUDI_KEYGEN_NONPARTITIONED},
        {"TimestampBasedAvroKeyGenerator", HUDI_KEYGEN_TIMESTAMP},
        {"CustomAvroKeyGenerator", HUDI_KEYGEN_CUSTOM},
    };
    const char *dot = strrchr(name, '.');
    const char *base = dot ? dot + 1 : name;
    for (size_t i = 0; i < HUDI_ARRAY_LEN(names); i++)
        if (!strcmp(base, names[i].name)) {
            *out = names[i].type;
            return 0;
        }
    return hudi_error_set(err, HUDI_EINVAL, "keygen: key generator '%s' is unknown", name);
}

/* ---- rendering one column ----------------------------------------------------------------- */

static int strcol_reset(strcol *c, int64_t rows, hudi_error *err) {
    hudi_buf_clear(&c->data);
    if (rows > c->cap) {
        int64_t *e = hudi_realloc(c->end, sizeof(int64_t) * (size_t)rows);
        uint8_t *n = e ? hudi_realloc(c->null, (size_t)rows) : NULL;
        if (e) c->end = e;
        if (n) c->null = n;
        if (!e || !n) return hudi_error_oom(err);
        c->cap = rows;
    }
    if (rows) memset(c->null, 0, (size_t)rows);
    return 0;
}

static inline hudi_slice strcol_get(const strcol *c, int64_t i) {
    int64_t s = i ? c->end[i - 1] : 0;
    return HUDI_SLICE(c->data.data ? c->data.data + s : "", (size_t)(c->end[i] - s));
}

/* The leaf array and per-row nullness through the path (a null struct nulls the row). */
static const hudi_array *leaf_array(const key_col *c, const hudi_batch *b, strcol *sc) {
    const hudi_array *a = b->columns[c->index[0]];
    for (int32_t lvl = 0;; lvl++) {
        if (a->validity)
            for (int64_t i = 0; i < b->num_rows; i++) sc->null[i] |= !hudi_bit_get(a->validity, i);
        if (lvl + 1 == c->depth) return a;
        a = a->children[c->index[lvl + 1]];
    }
}

static int64_t int_at(const hudi_array *a, hudi_type_id t, int64_t i) {
    switch (t) {
    case HUDI_TYPE_INT8: return ((const int8_t *)a->values)[i];
    case HUDI_TYPE_INT16: return ((const int16_t *)a->values)[i];
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_DATE: return ((const int32_t *)a->values)[i];
    case HUDI_TYPE_UINT8: return ((const uint8_t *)a->values)[i];
    case HUDI_TYPE_UINT16: return ((const uint16_t *)a->values)[i];
    case HUDI_TYPE_UINT32: return ((const uint32_t *)a->values)[i];
    default: return ((const int64_t *)a->values)[i];
    }
}

static int render_column(hudi_keygen *kg, const key_col *c, const hudi_batch *b, strcol *sc,
                         hudi_error *err) {
    int rc;
    int64_t n = b->num_rows;
    if ((rc = strcol_reset(sc, n, err)) < 0) return rc;
    const hudi_array *a = leaf_array(c, b, sc);
    hudi_buf *o = &sc->data;
    const hudi_field *f = c->leaf;
    /* one loop per type: the switch is outside the row loop */
#define EACH_ROW(stmt)                                                                             \
    for (int64_t i = 0; i < n; i++) {                                                              \
        if (!sc->null[i]) stmt;                                                                    \
        sc->end[i] = (int64_t)o->len;                                                              \
    }
    switch (f->type) {
    case HUDI_TYPE_BOOL:
        EACH_ROW(hudi_buf_puts(o, hudi_bit_get(a->values, i) ? "true" : "false"));
        break;
    case HUDI_TYPE_INT8:
    case HUDI_TYPE_INT16:
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_INT64:
    case HUDI_TYPE_UINT8:
    case HUDI_TYPE_UINT16:
    case HUDI_TYPE_UINT32:
        EACH_ROW(hudi_buf_printf(o, "%lld", (long long)int_at(a, f->type, i)));
        break;
    case HUDI_TYPE_UINT64:
        EACH_ROW(hudi_buf_printf(o, "%llu", (unsigned long long)((const uint64_t *)a->values)[i]));
        break;
    case HUDI_TYPE_FLOAT: EACH_ROW(hudi_java_float_str(o, ((const float *)a->values)[i])); break;
    case HUDI_TYPE_DOUBLE: EACH_ROW(hudi_java_double_str(o, ((const double *)a->values)[i])); break;
    case HUDI_TYPE_DECIMAL: {
        const uint8_t *v = a->values;
        EACH_ROW({
            __int128 x;
            memcpy(&x, v + 16 * i, 16);
            hudi_kg_put_decimal(o, x, f->scale);
        });
        break;
    }
    case HUDI_TYPE_DATE: EACH_ROW(hudi_kg_put_date(o, ((const int32_t *)a->values)[i])); break;
    case HUDI_TYPE_TIMESTAMP: {
        const int64_t *v = a->values;
        if (!kg->consistent_ts || f->unit == HUDI_UNIT_NANOS) {
            EACH_ROW(hudi_buf_printf(o, "%lld", (long long)v[i]));
        } else {
            int64_t div = f->unit == HUDI_UNIT_MICROS ? 1000 : 1;
            EACH_ROW(hudi_kg_put_sql_timestamp(o, v[i] / div)); /* new Timestamp(micros / 1000) */
        }
        break;
    }
    case HUDI_TYPE_STRING:
        EACH_ROW(hudi_buf_append(o, a->data + a->offsets[i],
                                 (size_t)(a->offsets[i + 1] - a->offsets[i])));
        break;
    default:
        return hudi_error_set(err, HUDI_EUNSUPPORTED, "keygen: field %s: %s cannot be a key",
                              c->path, hudi_type_name(f->type));
    }
#undef EACH_ROW
    return hudi_buf_failed(o) ? hudi_error_oom(err) : 0;
}

/* ---- timestamp partitions ----------------------------------------------------------------- */

/* java.util.concurrent.TimeUnit MILLISECONDS.convert(v, unit): saturating, truncating. */
static int64_t to_millis(int64_t v, hudi_keygen_ts_type type, hudi_keygen_scalar_unit unit) {
    int64_t mul = 1, div = 1;
    if (type == HUDI_TS_UNIX_TIMESTAMP) unit = HUDI_SCALAR_SECONDS;
    if (type == HUDI_TS_EPOCHMILLISECONDS) unit = HUDI_SCALAR_MILLISECONDS;
    if (type == HUDI_TS_EPOCHMICROSECONDS) unit = HUDI_SCALAR_MICROSECONDS;
    switch (unit) {
    case HUDI_SCALAR_NANOSECONDS: div = 1000000; break;
    case HUDI_SCALAR_MICROSECONDS: div = 1000; break;
    case HUDI_SCALAR_MILLISECONDS: break;
    case HUDI_SCALAR_SECONDS: mul = 1000; break;
    case HUDI_SCALAR_MINUTES: mul = 60000; break;
    case HUDI_SCALAR_HOURS: mul = 3600000; break;
    case HUDI_SCALAR_DAYS: mul = 86400000; break;
    }
    if (div > 1) return v / div;
    int64_t r;
    if (__builtin_mul_overflow(v, mul, &r)) return v < 0 ? INT64_MIN : INT64_MAX;
    return r;
}

/* Renders the formatted time of every row into sc (the row's null flag stays clear: a null
 * value formats Hudi's default, epoch 1 in the configured unit). */
static int render_timestamp(hudi_keygen *kg, const key_col *c, const hudi_batch *b, strcol *sc,
                            hudi_error *err) {
    int rc;
    int64_t n = b->num_rows;
    if ((rc = strcol_reset(sc, n, err)) < 0) return rc;
    const hudi_array *a = leaf_array(c, b, sc);
    const hudi_field *f = c->leaf;
    hudi_type_id t = f->type;
    bool is_string = t == HUDI_TYPE_STRING;
    if (is_string != (kg->ts_type == HUDI_TS_DATE_STRING))
        return hudi_error_set(
            err, HUDI_EINVAL, "keygen: field %s: a %s value needs %s", c->path, hudi_type_name(t),
            is_string ? "timestamp.type DATE_STRING" : "a numeric timestamp.type");
    for (int64_t i = 0; i < n; i++) {
        int64_t ms = 0;
        bool ok = true;
        if (sc->null[i]) {
            /* getDefaultPartitionVal(): 1 in the input unit, or epoch+1ms for DATE_STRING */
            ms = is_string ? 1 : to_millis(1, kg->ts_type, kg->scalar_unit);
        } else if (is_string) {
            const char *s = (const char *)a->data + a->offsets[i];
            size_t len = (size_t)(a->offsets[i + 1] - a->offsets[i]);
            ok = false;
            for (int32_t k = 0; k < kg->n_in_formats && !ok; k++)
                ok = hudi_kg_pattern_parse(kg->in_formats[k], s, len, kg->in_offset, &ms);
            if (!ok)
                return hudi_error_set(err, HUDI_EINVAL,
                                      "keygen: field %s, row %lld: '%.*s' matches no input format",
                                      c->path, (long long)i, (int)HUDI_MIN(len, 64), s);
        } else if (t == HUDI_TYPE_TIMESTAMP && kg->consistent_ts) {
            int64_t v = ((const int64_t *)a->values)[i];
            ms = f->unit == HUDI_UNIT_MICROS  ? v / 1000
                 : f->unit == HUDI_UNIT_NANOS ? v / 1000000
                                              : v;
        } else if (t == HUDI_TYPE_FLOAT || t == HUDI_TYPE_DOUBLE) {
            double v = t == HUDI_TYPE_FLOAT ? ((const float *)a->values)[i]
                                            : ((const double *)a->values)[i];
            int64_t l = v != v         ? 0
                        : v >= 9.2e18  ? INT64_MAX
                        : v <= -9.2e18 ? INT64_MIN
                                       : (int64_t)v;
            ms = to_millis(l, kg->ts_type, kg->scalar_unit);
        } else if (t == HUDI_TYPE_DECIMAL) {
            __int128 x;
            memcpy(&x, (const uint8_t *)a->values + 16 * i, 16);
            for (int32_t s = 0; s < f->scale; s++) x /= 10; /* BigDecimal.longValue */
            ms = to_millis((int64_t)x, kg->ts_type, kg->scalar_unit);
        } else if (t == HUDI_TYPE_BOOL || t == HUDI_TYPE_UINT64) {
            return hudi_error_set(err, HUDI_EINVAL, "keygen: field %s: %s is not a time", c->path,
                                  hudi_type_name(t));
        } else { /* ints, longs, dates (epoch days), raw timestamps */
            ms = to_millis(int_at(a, t, i), kg->ts_type, kg->scalar_unit);
        }
        hudi_kg_pattern_format(&sc->data, kg->out_format, ms, kg->out_offset);
        sc->end[i] = (int64_t)sc->data.len;
        sc->null[i] = 0;
    }
    return hudi_buf_failed(&sc->data) ? hudi_error_oom(err) : 0;
}

/* ---- assembling rows ---------------------------------------------------------------------- */

static int emit(hudi_array *out, const hudi_buf *row, hudi_error *err) {
    if (hudi_buf_failed(row)) return hudi_error_oom(err);
    return hudi_array_append_bytes(out, row->data ? row->data : "", row->len, err);
}

static int check_out(hudi_array *out, const hudi_batch *b, hudi_error *err) {
    if (out->field->type != HUDI_TYPE_STRING)
        return hudi_error_set(err, HUDI_EINVAL, "keygen: output must be a string array");
    int rc = hudi_array_grow(out, b->num_rows, err);
    return rc;
}

int hudi_keygen_record_keys(hudi_keygen *kg, const hudi_batch *b, hudi_array *out,
                            hudi_error *err) {
    int rc;
    if ((rc = check_out(out, b, err)) < 0) return rc;
    if (kg->n_keys == 0)
        return hudi_error_set(
            err, HUDI_EINVAL,
            "keygen: the table has no record key fields (its keys are generated)");
    bool complex = kg->type == HUDI_KEYGEN_COMPLEX || kg->n_keys > 1 ||
                   (kg->type == HUDI_KEYGEN_CUSTOM && kg->n_keys > 1);
    if (!complex) {
        strcol *sc = &kg->scratch[0];
        if ((rc = render_column(kg, &kg->keys[0], b, sc, err)) < 0) return rc;
        for (int64_t i = 0; i < b->num_rows; i++) {
            hudi_slice v = strcol_get(sc, i);
            if (sc->null[i] || v.len == 0)
                return hudi_error_set(
                    err, HUDI_EINVAL, "keygen: record key field %s is %s in row %lld",
                    kg->keys[0].path, sc->null[i] ? "null" : "empty", (long long)i);
            if ((rc = hudi_array_append_bytes(out, v.data, v.len, err)) < 0) return rc;
        }
        return 0;
    }
    /* complex: "f1:v1,f2:v2" with __null__/__empty__; render all key columns first */
    int64_t n = b->num_rows;
    strcol *cols = hudi_calloc((size_t)kg->n_keys, sizeof(strcol));
    if (!cols) return hudi_error_oom(err);
    for (int32_t k = 0; k < kg->n_keys && rc == 0; k++)
        rc = render_column(kg, &kg->keys[k], b, &cols[k], err);
    for (int64_t i = 0; i < n && rc == 0; i++) {
        hudi_buf_clear(&kg->row);
        bool any = false;
        for (int32_t k = 0; k < kg->n_keys; k++) {
            hudi_slice v = strcol_get(&cols[k], i);
            hudi_buf_printf(&kg->row, "%s%s:", k ? "," : "", kg->keys[k].path);
            if (cols[k].null[i])
                hudi_buf_puts(&kg->row, HUDI_NULL_RECORD_KEY_PLACEHOLDER);
            else if (v.len == 0)
                hudi_buf_puts(&kg->row, HUDI_EMPTY_RECORD_KEY_PLACEHOLDER);
            else
                hudi_buf_append(&kg->row, v.data, v.len), any = true;
        }
        if (!any)
            rc = hudi_error_set(
                err, HUDI_EINVAL,
                "keygen: all record key fields (%s...) are null or empty in row %lld",
                kg->keys[0].path, (long long)i);
        else
            rc = emit(out, &kg->row, err);
    }
    for (int32_t k = 0; k < kg->n_keys; k++) {
        hudi_buf_dispose(&cols[k].data);
        hudi_free(cols[k].end);
        hudi_free(cols[k].null);
    }
    hudi_free(cols);
    return rc;
}

/* One partition part of row i: value or default, escaped, hive-prefixed. */
static void put_part(hudi_keygen *kg, const key_col *c, const strcol *sc, int64_t i) {
    hudi_slice v = strcol_get(sc, i);
    const char *s = (const char *)v.data;
    size_t len = v.len;
    if (sc->null[i] || len == 0) {
        s = kg->default_partition;
        len = strlen(s);
    }
    if (kg->hive_style) hudi_buf_printf(&kg->row, "%s=", c->path);
    if (kg->url_encode)
        hudi_partition_escape(&kg->row, s, len);
    else
        hudi_buf_append(&kg->row, s, len);
}

int hudi_keygen_partition_paths(hudi_keygen *kg, const hudi_batch *b, hudi_array *out,
                                hudi_error *err) {
    int rc;
    if ((rc = check_out(out, b, err)) < 0) return rc;
    hudi_buf_clear(&kg->row);
    if (kg->n_parts == 0) {
        for (int64_t i = 0; i < b->num_rows; i++)
            if ((rc = hudi_array_append_bytes(out, "", 0, err)) < 0) return rc;
        return 0;
    }
    /* columns are rendered one at a time into scratch[0] and the partial paths kept in a
     * second string column (scratch[1]), so memory stays two columns wide */
    strcol *acc = &kg->scratch[1], *sc = &kg->scratch[0];
    strcol prev = {HUDI_BUF_INIT, NULL, NULL, 0};
    for (int32_t p = 0; p < kg->n_parts; p++) {
        const key_col *c = &kg->parts[p];
        rc = c->kind == PART_TIMESTAMP ? render_timestamp(kg, c, b, sc, err)
                                       : render_column(kg, c, b, sc, err);
        if (rc < 0) break;
        /* acc = prev + "/" + part */
        strcol tmp = *acc;
        *acc = prev;
        prev = tmp;
        if ((rc = strcol_reset(acc, b->num_rows, err)) < 0) break;
        for (int64_t i = 0; i < b->num_rows; i++) {
            hudi_buf_clear(&kg->row);
            if (p) {
                hudi_slice pv = strcol_get(&prev, i);
                hudi_buf_append(&kg->row, pv.data, pv.len);
                hudi_buf_putc(&kg->row, '/');
            }
            put_part(kg, c, sc, i);
            hudi_buf_append(&acc->data, kg->row.data, kg->row.len);
            acc->end[i] = (int64_t)acc->data.len;
        }
        if (hudi_buf_failed(&acc->data) || hudi_buf_failed(&kg->row)) {
            rc = hudi_error_oom(err);
            break;
        }
    }
    for (int64_t i = 0; i < b->num_rows && rc == 0; i++) {
        hudi_slice v = strcol_get(acc, i);
        rc = hudi_array_append_bytes(out, v.data, v.len, err);
    }
    hudi_buf_dispose(&prev.data);
    hudi_free(prev.end);
    hudi_free(prev.null);
    return rc;
}
