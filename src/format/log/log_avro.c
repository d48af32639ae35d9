/* log_avro.c - Avro data blocks (content version 3, docs/formats/log-file.md §4): records
 * decoded straight into the columnar arrays of a batch, and batches encoded back.
 *
 * The writer schema (compiled by avro.c) and its columnar form (a hudi_field tree, as the schema
 * layer converts it) are walked side by side: a record is a STRUCT, an array a LIST, a map a
 * MAP of string keys, an enum a STRING, a union with null a nullable column and a union of
 * several types a STRUCT of nullable members (member0, member1, ... in branch order, nulls
 * left out). The two trees are checked against each other once per block, so decoding only
 * checks the bytes: every length, count and union branch against what remains. No value is
 * allocated per record; arrays grow geometrically. */
#include <stdio.h>

#include "format/avro/avro_node.h"
#include "format/log/log.h"
#include "format/log/log_int.h"

#define MAX_DEPTH 64

/* ---- schema agreement ---------------------------------------------------------------------- */

/* Non-null branches of a union, and whether it has a null branch. */
static size_t union_members(const hudi_avro_node *n, bool *has_null) {
    size_t k = 0;
    *has_null = false;
    for (size_t i = 0; i < n->n; i++) {
        if (n->kids[i]->type == HUDI_AVRO_NULL)
            *has_null = true;
        else
            k++;
    }
    return k;
}

static bool is_int_like(const hudi_field *f) {
    return f->type == HUDI_TYPE_INT32 || f->type == HUDI_TYPE_DATE ||
           (f->type == HUDI_TYPE_TIME && f->unit == HUDI_UNIT_MILLIS);
}

static bool is_long_like(const hudi_field *f) {
    return f->type == HUDI_TYPE_INT64 || f->type == HUDI_TYPE_TIMESTAMP ||
           (f->type == HUDI_TYPE_TIME && f->unit != HUDI_UNIT_MILLIS);
}

/* Whether values of node `n` can be stored in column `f` (Avro's promotions included:
 * int -> long/float/double, long -> float/double, float -> double, bytes <-> string). */
static bool agree(const hudi_avro_node *n, const hudi_field *f, int depth) {
    if (depth > MAX_DEPTH) return false;
    switch (n->type) {
    case HUDI_AVRO_UNION: {
        bool has_null;
        size_t k = union_members(n, &has_null);
        if (has_null && !f->nullable) return false;
        if (k == 0) return f->nullable;
        if (k == 1) {
            for (size_t i = 0; i < n->n; i++)
                if (n->kids[i]->type != HUDI_AVRO_NULL) return agree(n->kids[i], f, depth + 1);
        }
        if (f->type != HUDI_TYPE_STRUCT || (size_t)f->n_children != k) return false;
        for (size_t i = 0, m = 0; i < n->n; i++) {
            if (n->kids[i]->type == HUDI_AVRO_NULL) continue;
            if (!f->children[m].nullable || !agree(n->kids[i], &f->children[m], depth + 1))
                return false;
            m++;
        }
        return true;
    }
    case HUDI_AVRO_NULL: return f->nullable || f->type == HUDI_TYPE_NULL;
    case HUDI_AVRO_BOOLEAN: return f->type == HUDI_TYPE_BOOL;
    case HUDI_AVRO_INT:
        return is_int_like(f) || f->type == HUDI_TYPE_INT64 || f->type == HUDI_TYPE_FLOAT ||
               f->type == HUDI_TYPE_DOUBLE;
    case HUDI_AVRO_LONG:
        return is_long_like(f) || f->type == HUDI_TYPE_FLOAT || f->type == HUDI_TYPE_DOUBLE;
    case HUDI_AVRO_FLOAT: return f->type == HUDI_TYPE_FLOAT || f->type == HUDI_TYPE_DOUBLE;
    case HUDI_AVRO_DOUBLE: return f->type == HUDI_TYPE_DOUBLE;
    case HUDI_AVRO_BYTES:
        return f->type == HUDI_TYPE_BINARY || f->type == HUDI_TYPE_STRING ||
               f->type == HUDI_TYPE_DECIMAL;
    case HUDI_AVRO_STRING: return f->type == HUDI_TYPE_STRING || f->type == HUDI_TYPE_BINARY;
    case HUDI_AVRO_FIXED:
        return (f->type == HUDI_TYPE_FIXED_BINARY && f->byte_width == n->fixed_size) ||
               f->type == HUDI_TYPE_DECIMAL;
    case HUDI_AVRO_ENUM: return f->type == HUDI_TYPE_STRING;
    case HUDI_AVRO_ARRAY:
        return f->type == HUDI_TYPE_LIST && f->n_children == 1 &&
               agree(n->kids[0], &f->children[0], depth + 1);
    case HUDI_AVRO_MAP:
        return f->type == HUDI_TYPE_MAP && f->n_children == 1 &&
               f->children[0].type == HUDI_TYPE_STRUCT && f->children[0].n_children == 2 &&
               f->children[0].children[0].type == HUDI_TYPE_STRING &&
               agree(n->kids[0], &f->children[0].children[1], depth + 1);
    case HUDI_AVRO_RECORD:
        if (f->type != HUDI_TYPE_STRUCT || (size_t)f->n_children != n->n) return false;
        for (size_t i = 0; i < n->n; i++) {
            const char *name = f->children[i].name ? f->children[i].name : "";
            if (!hudi_slice_eq(n->names[i], hudi_slice_cstr(name)) ||
                !agree(n->kids[i], &f->children[i], depth + 1))
                return false;
        }
        return true;
    default: return false;
    }
}

/* ---- decoding ------------------------------------------------------------------------------ */

typedef struct dec {
    const uint8_t *p, *end;
    size_t budget; /* array/map items still allowed in this block */
    const char *why;
    hudi_error *err;
} dec;

#define CORRUPT(d, msg) ((d)->why = (msg), HUDI_ECORRUPT)

static int rd_long(dec *d, int64_t *v) {
    return hudi_log_read_long(&d->p, d->end, v) ? 0 : CORRUPT(d, "truncated or overlong varint");
}

static int rd_len(dec *d, size_t *n) {
    int64_t v;
    int rc = rd_long(d, &v);
    if (rc < 0) return rc;
    if (v < 0 || (uint64_t)v > (uint64_t)(d->end - d->p)) return CORRUPT(d, "length out of range");
    *n = (size_t)v;
    return 0;
}

static int put_i32(hudi_array *a, int32_t v, hudi_error *err) {
    return hudi_array_append_fixed(a, &v, err);
}

/* A whole number of a long/int node into its column (with Avro's promotions). */
static int put_whole(hudi_array *a, int64_t v, hudi_error *err) {
    const hudi_field *f = a->field;
    if (is_int_like(f)) return put_i32(a, (int32_t)v, err);
    if (f->type == HUDI_TYPE_FLOAT) {
        float x = (float)v;
        return hudi_array_append_fixed(a, &x, err);
    }
    if (f->type == HUDI_TYPE_DOUBLE) {
        double x = (double)v;
        return hudi_array_append_fixed(a, &x, err);
    }
    return hudi_array_append_fixed(a, &v, err);
}

/* Avro decimal bytes (big-endian two's complement, any length) into a 16-byte decimal. */
static int put_decimal(dec *d, hudi_array *a, const uint8_t *s, size_t n) {
    if (n > 16) {
        uint8_t ext = (s[0] & 0x80) ? 0xFF : 0x00;
        for (size_t i = 0; i < n - 16; i++)
            if (s[i] != ext) return CORRUPT(d, "decimal wider than 128 bits");
        if ((s[n - 16] & 0x80) != (ext & 0x80)) return CORRUPT(d, "decimal wider than 128 bits");
        s += n - 16;
        n = 16;
    }
    __int128 v = hudi_load_i128be(s, n);
    uint8_t le[16];
    memcpy(le, &v, 16);
    return hudi_array_append_fixed(a, le, d->err);
}

static int decode(dec *d, const hudi_avro_node *n, hudi_array *a, int depth);

/* Array and map items: blocks of (count, [byte size,] items), ended by a zero count. */
static int decode_blocks(dec *d, const hudi_avro_node *n, hudi_array *a, int depth) {
    bool map = n->type == HUDI_AVRO_MAP;
    hudi_array *items = a->children[0];
    size_t min = n->kids[0]->min_size + (map ? 1 : 0);
    int64_t total = 0;
    int rc;
    for (;;) {
        int64_t count, bytes;
        if ((rc = rd_long(d, &count)) < 0) return rc;
        if (count == 0) break;
        if (count < 0) {
            if (count == INT64_MIN) return CORRUPT(d, "block count out of range");
            if ((rc = rd_long(d, &bytes)) < 0) return rc;
            count = -count;
        }
        if ((uint64_t)count > d->budget ||
            (min && (uint64_t)count > (uint64_t)(d->end - d->p) / min) || count > INT32_MAX - total)
            return CORRUPT(d, "block count larger than the data");
        d->budget -= (size_t)count;
        for (int64_t i = 0; i < count; i++) {
            if (map) {
                size_t len;
                if ((rc = rd_len(d, &len)) < 0 ||
                    (rc = hudi_array_append_bytes(items->children[0], d->p, len, d->err)) < 0)
                    return rc;
                d->p += len;
                if ((rc = decode(d, n->kids[0], items->children[1], depth + 1)) < 0 ||
                    (rc = hudi_array_append_nested(items, 0, d->err)) < 0)
                    return rc;
            } else if ((rc = decode(d, n->kids[0], items, depth + 1)) < 0) {
                return rc;
            }
        }
        total += count;
    }
    return hudi_array_append_nested(a, total, d->err);
}

static int decode(dec *d, const hudi_avro_node *n, hudi_array *a, int depth) {
    const hudi_field *f = a->field;
    int64_t v;
    size_t len;
    int rc;
    if (depth > MAX_DEPTH) return CORRUPT(d, "values nested too deeply");
    switch (n->type) {
    case HUDI_AVRO_UNION: {
        if ((rc = rd_long(d, &v)) < 0) return rc;
        if (v < 0 || (uint64_t)v >= n->n) return CORRUPT(d, "union branch out of range");
        const hudi_avro_node *branch = n->kids[v];
        if (branch->type == HUDI_AVRO_NULL) return hudi_array_append_null(a, d->err);
        bool has_null;
        if (union_members(n, &has_null) <= 1) return decode(d, branch, a, depth + 1);
        /* several types: a struct with the chosen member set, the others null */
        int32_t m = 0;
        for (int64_t i = 0; i < v; i++) m += n->kids[i]->type != HUDI_AVRO_NULL;
        for (int32_t i = 0; i < a->n_children; i++) {
            rc = i == m ? decode(d, branch, a->children[i], depth + 1)
                        : hudi_array_append_null(a->children[i], d->err);
            if (rc < 0) return rc;
        }
        return hudi_array_append_nested(a, 0, d->err);
    }
    case HUDI_AVRO_NULL: return hudi_array_append_null(a, d->err);
    case HUDI_AVRO_BOOLEAN:
        if (d->p >= d->end) return CORRUPT(d, "truncated boolean");
        if (*d->p > 1) return CORRUPT(d, "boolean byte not 0 or 1");
        return hudi_array_append_bool(a, *d->p++ == 1, d->err);
    case HUDI_AVRO_INT:
        if ((rc = rd_long(d, &v)) < 0) return rc;
        if (v < INT32_MIN || v > INT32_MAX) return CORRUPT(d, "int out of range");
        return put_whole(a, v, d->err);
    case HUDI_AVRO_LONG:
        if ((rc = rd_long(d, &v)) < 0) return rc;
        return put_whole(a, v, d->err);
    case HUDI_AVRO_FLOAT: {
        float x;
        if (d->end - d->p < 4) return CORRUPT(d, "truncated float");
        memcpy(&x, d->p, 4);
        d->p += 4;
        if (f->type == HUDI_TYPE_DOUBLE) {
            double w = x;
            return hudi_array_append_fixed(a, &w, d->err);
        }
        return hudi_array_append_fixed(a, &x, d->err);
    }
    case HUDI_AVRO_DOUBLE:
        if (d->end - d->p < 8) return CORRUPT(d, "truncated double");
        rc = hudi_array_append_fixed(a, d->p, d->err);
        d->p += 8;
        return rc;
    case HUDI_AVRO_BYTES:
    case HUDI_AVRO_STRING:
        if ((rc = rd_len(d, &len)) < 0) return rc;
        if (f->type == HUDI_TYPE_DECIMAL) {
            if (len == 0) return CORRUPT(d, "empty decimal");
            rc = put_decimal(d, a, d->p, len);
        } else {
            rc = hudi_array_append_bytes(a, d->p, len, d->err);
        }
        d->p += len;
        return rc;
    case HUDI_AVRO_FIXED:
        if ((uint64_t)n->fixed_size > (uint64_t)(d->end - d->p))
            return CORRUPT(d, "truncated fixed");
        len = (size_t)n->fixed_size;
        if (f->type == HUDI_TYPE_DECIMAL && len == 0) return CORRUPT(d, "empty decimal");
        rc = f->type == HUDI_TYPE_DECIMAL ? put_decimal(d, a, d->p, len)
                                          : hudi_array_append_bytes(a, d->p, len, d->err);
        d->p += len;
        return rc;
    case HUDI_AVRO_ENUM:
        if ((rc = rd_long(d, &v)) < 0) return rc;
        if (v < 0 || (uint64_t)v >= n->n) return CORRUPT(d, "enum index out of range");
        return hudi_array_append_bytes(a, n->names[v].data, n->names[v].len, d->err);
    case HUDI_AVRO_ARRAY:
    case HUDI_AVRO_MAP: return decode_blocks(d, n, a, depth);
    case HUDI_AVRO_RECORD:
        for (size_t i = 0; i < n->n; i++)
            if ((rc = decode(d, n->kids[i], a->children[i], depth + 1)) < 0) return rc;
        return hudi_array_append_nested(a, 0, d->err);
    default: return CORRUPT(d, "unknown schema node");
    }
}

/* ---- flat records: the fast path ------------------------------------------------------------ */

/* Hudi's log records are mostly flat: every field a primitive, alone or in a union with null
 * (a nullable column). A block of such records is decoded by one loop over a plan of its
 * fields that writes straight into the column buffers, with one capacity check per record
 * instead of a call per value; the bytes are checked as decode() checks them. Any other
 * schema (nested fields, unions of several types, promotions, decimals, enums, fixed) goes
 * through decode(). */
enum { FLAT_BOOL, FLAT_I32, FLAT_I64, FLAT_F32, FLAT_F64, FLAT_BYTES };

typedef struct flat_field {
    uint8_t kind;
    int8_t null_branch; /* the union branch that is null (0 or 1), or -1: not a union */
} flat_field;

/* The plan of root record `root` into the columns of `fields` (which agree() accepted); false
 * when a field does not fit the fast path. */
static bool flat_plan(const hudi_avro_node *root, const hudi_field *fields, flat_field *plan) {
    for (size_t i = 0; i < root->n; i++) {
        const hudi_avro_node *n = root->kids[i];
        const hudi_field *f = &fields->children[i];
        plan[i].null_branch = -1;
        if (n->type == HUDI_AVRO_UNION) {
            if (n->n != 2 ||
                (n->kids[0]->type == HUDI_AVRO_NULL) == (n->kids[1]->type == HUDI_AVRO_NULL))
                return false;
            plan[i].null_branch = n->kids[0]->type == HUDI_AVRO_NULL ? 0 : 1;
            n = n->kids[1 - plan[i].null_branch];
        }
        bool fits;
        switch (n->type) {
        case HUDI_AVRO_BOOLEAN:
            fits = f->type == HUDI_TYPE_BOOL;
            plan[i].kind = FLAT_BOOL;
            break;
        case HUDI_AVRO_INT:
            fits = is_int_like(f);
            plan[i].kind = FLAT_I32;
            break;
        case HUDI_AVRO_LONG:
            fits = is_long_like(f);
            plan[i].kind = FLAT_I64;
            break;
        case HUDI_AVRO_FLOAT:
            fits = f->type == HUDI_TYPE_FLOAT;
            plan[i].kind = FLAT_F32;
            break;
        case HUDI_AVRO_DOUBLE:
            fits = f->type == HUDI_TYPE_DOUBLE;
            plan[i].kind = FLAT_F64;
            break;
        case HUDI_AVRO_STRING:
        case HUDI_AVRO_BYTES:
            fits = f->type == HUDI_TYPE_STRING || f->type == HUDI_TYPE_BINARY;
            plan[i].kind = FLAT_BYTES;
            break;
        default: fits = false;
        }
        if (!fits) return false;
    }
    return true;
}

/* Appends one record to the n columns, each of which has room for one more row. */
static int flat_record(dec *d, const flat_field *plan, size_t n, hudi_array *const *cols) {
    int64_t v;
    size_t len;
    int rc;
    for (size_t i = 0; i < n; i++) {
        hudi_array *a = cols[i];
        if (plan[i].null_branch >= 0) {
            if ((rc = rd_long(d, &v)) < 0) return rc;
            if (v != 0 && v != 1) return CORRUPT(d, "union branch out of range");
            if (v == plan[i].null_branch) {
                if ((rc = hudi_array_append_null(a, d->err)) < 0) return rc;
                continue;
            }
        }
        int64_t row = a->length;
        switch (plan[i].kind) {
        case FLAT_BOOL:
            if (d->p >= d->end) return CORRUPT(d, "truncated boolean");
            if (*d->p > 1) return CORRUPT(d, "boolean byte not 0 or 1");
            if (*d->p++)
                hudi_bit_set(a->values, row);
            else
                hudi_bit_clear(a->values, row);
            break;
        case FLAT_I32:
            if ((rc = rd_long(d, &v)) < 0) return rc;
            if (v < INT32_MIN || v > INT32_MAX) return CORRUPT(d, "int out of range");
            ((int32_t *)a->values)[row] = (int32_t)v;
            break;
        case FLAT_I64:
            if ((rc = rd_long(d, &v)) < 0) return rc;
            ((int64_t *)a->values)[row] = v;
            break;
        case FLAT_F32:
            if (d->end - d->p < 4) return CORRUPT(d, "truncated float");
            memcpy((float *)a->values + row, d->p, 4);
            d->p += 4;
            break;
        case FLAT_F64:
            if (d->end - d->p < 8) return CORRUPT(d, "truncated double");
            memcpy((double *)a->values + row, d->p, 8);
            d->p += 8;
            break;
        default: /* FLAT_BYTES */
            if ((rc = rd_len(d, &len)) < 0 ||
                (rc = hudi_array_grow_data(a, (int64_t)len, d->err)) < 0)
                return rc;
            if (len) memcpy(a->data + a->data_len, d->p, len);
            d->p += len;
            a->data_len += (int64_t)len;
            a->offsets[row + 1] = (int32_t)a->data_len;
        }
        if (a->validity) hudi_bit_set(a->validity, row);
        a->length = row + 1;
    }
    return 0;
}

/* Room for one more row in every column of the batch. */
static int flat_room(hudi_batch *batch, hudi_error *err) {
    for (int32_t c = 0; c < batch->n_columns; c++) {
        int rc = hudi_array_grow(batch->columns[c], 1, err);
        if (rc < 0) return rc;
    }
    return 0;
}

int hudi_log_avro_block_read(hudi_batch **out, const hudi_log_block *b,
                             const hudi_avro_schema *writer, const hudi_field *fields,
                             const char *name, hudi_error *err) {
    *out = NULL;
    if (!name) name = "log file";
    size_t off = (size_t)b->offset;
    const hudi_avro_node *root = hudi_avro_schema_root(writer);
    if (b->type != HUDI_LOG_AVRO_DATA_BLOCK && b->type != HUDI_LOG_CDC_DATA_BLOCK)
        return hudi_error_set(err, HUDI_EINVAL,
                              "%s: log block at offset %zu is not an Avro data block", name, off);
    if (root->type != HUDI_AVRO_RECORD || fields->type != HUDI_TYPE_STRUCT ||
        !agree(root, fields, 0))
        return hudi_error_set(err, HUDI_EINVAL,
                              "%s: log block at offset %zu: the columns do not match the writer "
                              "schema %s",
                              name, off, hudi_avro_schema_name(writer));
    const uint8_t *p = b->content.data, *end = p + b->content.len;
    if (b->content.len < 4)
        return hudi_error_set(err, HUDI_ECORRUPT, "%s: log block at offset %zu: content too short",
                              name, off);
    int32_t version = (int32_t)hudi_load_u32be(p);
    if (version != 3)
        return hudi_error_set(
            err, HUDI_EUNSUPPORTED,
            "%s: log block at offset %zu: Avro data block version %d (of older Hudi "
            "releases; only version 3 is supported)",
            name, off, (int)version);
    if (b->content.len < 8)
        return hudi_error_set(err, HUDI_ECORRUPT, "%s: log block at offset %zu: content too short",
                              name, off);
    int32_t count = (int32_t)hudi_load_u32be(p + 4);
    p += 8;
    /* each record takes its 4-byte length at least */
    if (count < 0 || (size_t)count > (size_t)(end - p) / 4)
        return hudi_error_set(
            err, HUDI_ECORRUPT,
            "%s: log block at offset %zu: record count %d does not fit the content", name, off,
            (int)count);
    hudi_batch *batch;
    int rc = hudi_batch_new(&batch, fields, err);
    if (rc < 0) return rc;
    /* room for the records up front, but not more than a bounded guess: a hostile count only
     * has to fit the content, 4 bytes a record */
    for (int32_t c = 0; c < batch->n_columns && rc == 0; c++)
        rc = hudi_array_reserve(batch->columns[c], HUDI_MIN(count, 1 << 16), err);
    dec d = {NULL, NULL, 0, NULL, err};
    d.budget = (1u << 20) + b->content.len * 16;
    flat_field plan_buf[64];
    flat_field *plan = root->n <= 64 ? plan_buf : hudi_malloc(root->n * sizeof(*plan));
    if (!plan) rc = hudi_error_oom(err);
    bool flat = plan && flat_plan(root, fields, plan);
    int64_t room = 0; /* rows every column has room for */
    int32_t r = 0;
    for (; r < count && rc == 0; r++) {
        if (end - p < 4) {
            rc = CORRUPT(&d, "truncated record length");
            break;
        }
        int32_t len = (int32_t)hudi_load_u32be(p);
        p += 4;
        if (len < 0 || len > end - p) {
            rc = CORRUPT(&d, "record length runs past the content");
            break;
        }
        d.p = p;
        d.end = p + len;
        if (flat) {
            if (batch->num_rows == room) {
                if ((rc = flat_room(batch, err)) < 0) break;
                room = INT64_MAX;
                for (int32_t c = 0; c < batch->n_columns; c++)
                    room = HUDI_MIN(room, batch->columns[c]->capacity);
            }
            rc = flat_record(&d, plan, root->n, batch->columns);
        } else {
            for (size_t i = 0; i < root->n && rc == 0; i++)
                rc = decode(&d, root->kids[i], batch->columns[i], 1);
        }
        if (rc == 0 && d.p != d.end) rc = CORRUPT(&d, "record shorter than its length");
        if (rc < 0) break;
        p += len;
        batch->num_rows++;
    }
    if (rc == HUDI_ECORRUPT && d.why)
        hudi_error_set(err, HUDI_ECORRUPT, "%s: log block at offset %zu: record %d: %s", name, off,
                       (int)r, d.why);
    else if (rc == 0 && p != end)
        rc = hudi_error_set(err, HUDI_ECORRUPT,
                            "%s: log block at offset %zu: %zu bytes after the last record", name,
                            off, (size_t)(end - p));
    if (plan != plan_buf) hudi_free(plan);
    if (rc < 0) {
        hudi_batch_free(batch);
        return rc;
    }
    *out = batch;
    return 0;
}

/* ---- encoding ------------------------------------------------------------------------------ */

typedef struct enc {
    hudi_buf *b;
    hudi_error *err;
} enc;

static int enc_bad(enc *e, const hudi_array *a, const char *what) {
    return hudi_error_set(e->err, HUDI_EINVAL, "avro data block: column %s: %s",
                          a->field->name ? a->field->name : "?", what);
}

/* The value of an integer-like column at row i, widened to int64. */
static int64_t get_whole(const hudi_array *a, int64_t i) {
    switch (hudi_type_width(a->field)) {
    case 4: return ((const int32_t *)a->values)[i];
    case 8: return ((const int64_t *)a->values)[i];
    default: return 0;
    }
}

static double get_real(const hudi_array *a, int64_t i) {
    switch (a->field->type) {
    case HUDI_TYPE_FLOAT: return ((const float *)a->values)[i];
    case HUDI_TYPE_DOUBLE: return ((const double *)a->values)[i];
    default: return (double)get_whole(a, i);
    }
}

/* A 128-bit decimal as the fewest big-endian bytes (BigInteger.toByteArray), or sign-extended
 * to `width` bytes when width > 0 (fixed). */
static int put_decimal_bytes(enc *e, const hudi_array *a, int64_t i, int64_t width) {
    __int128 v;
    memcpy(&v, (const uint8_t *)a->values + i * 16, 16);
    uint8_t be[16];
    hudi_store_i128be(be, v, 16);
    size_t skip = 0;
    while (skip < 15 && ((be[skip] == 0x00 && !(be[skip + 1] & 0x80)) ||
                         (be[skip] == 0xFF && (be[skip + 1] & 0x80))))
        skip++;
    size_t n = 16 - skip;
    if (width <= 0) {
        hudi_avro_put_long(e->b, (int64_t)n);
        hudi_buf_append(e->b, be + skip, n);
        return 0;
    }
    if ((size_t)width < n) return enc_bad(e, a, "decimal too wide for its fixed size");
    uint8_t ext = (be[0] & 0x80) ? 0xFF : 0x00;
    for (int64_t k = 0; k < width - (int64_t)n; k++) hudi_buf_putc(e->b, (char)ext);
    hudi_buf_append(e->b, be + skip, n);
    return 0;
}

static int encode(enc *e, const hudi_avro_node *n, const hudi_array *a, int64_t i, int depth);

static int encode_items(enc *e, const hudi_avro_node *n, const hudi_array *a, int64_t i,
                        int depth) {
    int64_t start = a->offsets[i], count = a->offsets[i + 1] - start;
    int rc;
    if (count > 0) {
        hudi_avro_put_long(e->b, count);
        const hudi_array *items = a->children[0];
        for (int64_t k = start; k < start + count; k++) {
            if (n->type == HUDI_AVRO_MAP) {
                const hudi_array *key = items->children[0];
                if (!hudi_array_is_valid(key, k)) return enc_bad(e, a, "null map key");
                int32_t ks = key->offsets[k], ke = key->offsets[k + 1];
                hudi_avro_put_long(e->b, ke - ks);
                if (ke > ks) hudi_buf_append(e->b, key->data + ks, (size_t)(ke - ks));
                rc = encode(e, n->kids[0], items->children[1], k, depth + 1);
            } else {
                rc = encode(e, n->kids[0], items, k, depth + 1);
            }
            if (rc < 0) return rc;
        }
    }
    hudi_avro_put_long(e->b, 0);
    return 0;
}

static int encode(enc *e, const hudi_avro_node *n, const hudi_array *a, int64_t i, int depth) {
    const hudi_field *f = a->field;
    bool valid = f->type != HUDI_TYPE_NULL && hudi_array_is_valid(a, i);
    if (depth > MAX_DEPTH) return enc_bad(e, a, "nested too deeply");
    if (n->type == HUDI_AVRO_UNION) {
        bool has_null;
        size_t k = union_members(n, &has_null);
        int64_t want = -1; /* the branch to write */
        int32_t member = -1;
        if (valid && k > 1) {
            for (int32_t m = 0; m < a->n_children && member < 0; m++)
                if (hudi_array_is_valid(a->children[m], i)) member = m;
            valid = member >= 0;
        }
        for (size_t b = 0, m = 0; b < n->n && want < 0; b++) {
            bool is_null = n->kids[b]->type == HUDI_AVRO_NULL;
            if (!valid ? is_null : (!is_null && (k == 1 || (int32_t)m == member)))
                want = (int64_t)b;
            m += !is_null;
        }
        if (want < 0) return enc_bad(e, a, "null value where the writer schema has no null");
        hudi_avro_put_long(e->b, want);
        if (!valid) return 0;
        return encode(e, n->kids[want], k > 1 ? a->children[member] : a, i, depth + 1);
    }
    if (n->type == HUDI_AVRO_NULL) return 0;
    if (!valid) return enc_bad(e, a, "null value where the writer schema has no null");
    switch (n->type) {
    case HUDI_AVRO_BOOLEAN: hudi_buf_putc(e->b, hudi_bit_get(a->values, i) ? 1 : 0); return 0;
    case HUDI_AVRO_INT:
    case HUDI_AVRO_LONG: hudi_avro_put_long(e->b, get_whole(a, i)); return 0;
    case HUDI_AVRO_FLOAT: {
        float x = (float)get_real(a, i);
        if (f->type == HUDI_TYPE_FLOAT) memcpy(&x, (const float *)a->values + i, 4); /* NaN bits */
        hudi_buf_append(e->b, &x, 4);
        return 0;
    }
    case HUDI_AVRO_DOUBLE: {
        double x = get_real(a, i);
        if (f->type == HUDI_TYPE_DOUBLE) memcpy(&x, (const double *)a->values + i, 8);
        hudi_buf_append(e->b, &x, 8);
        return 0;
    }
    case HUDI_AVRO_BYTES:
    case HUDI_AVRO_STRING:
    case HUDI_AVRO_ENUM:
    case HUDI_AVRO_FIXED: {
        if (f->type == HUDI_TYPE_DECIMAL)
            return put_decimal_bytes(e, a, i, n->type == HUDI_AVRO_FIXED ? n->fixed_size : 0);
        const uint8_t *s;
        size_t len;
        if (f->type == HUDI_TYPE_FIXED_BINARY) {
            len = (size_t)f->byte_width;
            s = (const uint8_t *)a->values + (size_t)i * len;
        } else {
            len = (size_t)(a->offsets[i + 1] - a->offsets[i]);
            s = len ? a->data + a->offsets[i] : (const uint8_t *)""; /* data NULL when all empty */
        }
        if (n->type == HUDI_AVRO_ENUM) {
            for (size_t k = 0; k < n->n; k++)
                if (hudi_slice_eq(n->names[k], HUDI_SLICE(s, len))) {
                    hudi_avro_put_long(e->b, (int64_t)k);
                    return 0;
                }
            return enc_bad(e, a, "value is not a symbol of the enum");
        }
        if (n->type == HUDI_AVRO_FIXED) {
            if ((int64_t)len != n->fixed_size)
                return enc_bad(e, a, "value width is not the fixed size");
        } else {
            hudi_avro_put_long(e->b, (int64_t)len);
        }
        hudi_buf_append(e->b, s, len);
        return 0;
    }
    case HUDI_AVRO_ARRAY:
    case HUDI_AVRO_MAP: return encode_items(e, n, a, i, depth);
    case HUDI_AVRO_RECORD:
        for (size_t k = 0; k < n->n; k++) {
            int rc = encode(e, n->kids[k], a->children[k], i, depth + 1);
            if (rc < 0) return rc;
        }
        return 0;
    default: return enc_bad(e, a, "unknown schema node");
    }
}

int hudi_log_avro_block_encode(hudi_buf *out, const hudi_batch *batch,
                               const hudi_avro_schema *writer, hudi_error *err) {
    const hudi_avro_node *root = hudi_avro_schema_root(writer);
    if (root->type != HUDI_AVRO_RECORD || !agree(root, batch->schema, 0) ||
        (size_t)batch->n_columns != root->n)
        return hudi_error_set(
            err, HUDI_EINVAL,
            "avro data block: the batch's columns do not match the writer schema %s",
            hudi_avro_schema_name(writer));
    if (batch->num_rows > INT32_MAX)
        return hudi_error_set(err, HUDI_EINVAL, "avro data block: too many records");
    size_t start = out->len;
    enc e = {out, err};
    int rc = 0;
    hudi_log_put_i32be(out, 3);
    hudi_log_put_i32be(out, (int32_t)batch->num_rows);
    for (int64_t r = 0; r < batch->num_rows && rc == 0; r++) {
        size_t at = out->len;
        hudi_log_put_i32be(out, 0); /* the record length, patched below */
        for (size_t c = 0; c < root->n && rc == 0; c++)
            rc = encode(&e, root->kids[c], batch->columns[c], r, 1);
        if (rc == 0 && !hudi_buf_failed(out)) {
            size_t len = out->len - at - 4;
            if (len > INT32_MAX) {
                rc = hudi_error_set(err, HUDI_EINVAL, "avro data block: record %lld too large",
                                    (long long)r);
                break;
            }
            hudi_store_u32be(out->data + at, (uint32_t)len);
        }
    }
    if (rc == 0 && hudi_buf_failed(out)) rc = hudi_error_oom(err);
    if (rc < 0 && !hudi_buf_failed(out)) hudi_buf_truncate(out, start);
    return rc;
}
