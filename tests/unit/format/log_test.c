/* log_test.c - log files (docs/formats/log-file.md): framing and corrupt blocks, Avro data
 * blocks decoded into columns (cross-checked value by value against the generic Avro decoder),
 * delete blocks, command blocks, writing and byte-exact re-encoding of Spark-written blocks. */
#include <criterion/criterion.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/avro/avro_node.h"
#include "format/log/log.h"
#include "schema/schema.h"
#include "support.h"

static const char *const MOR_ZIPS[] = {
    "hudi-rs/sample_table/mor/avro/v9_txns_complex_nometa.zip",
    "hudi-rs/sample_table/mor/avro/v9_txns_nonpart_nometa.zip",
    "hudi-rs/sample_table/mor/avro/v9_txns_simple_meta.zip",
    "hudi-rs/sample_table/mor/parquet/v6_empty.zip",
    "hudi-rs/sample_table/mor/parquet/v6_nonpartitioned.zip",
    "hudi-rs/sample_table/mor/parquet/v6_nonpartitioned_rollback.zip",
    "hudi-rs/sample_table/mor/parquet/v6_simplekeygen_nonhivestyle.zip",
    "hudi-rs/quickstart_trips_table/mor/avro/v6_trips_8i1u.zip",
    "hudi-rs/quickstart_trips_table/mor/avro/v6_trips_8i3d.zip",
    "hudi-rs/quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip",
    "hudi-rs/pr602/mor/avro/table_column_projection.zip",
    "hudi-rs/pr602/mor/avro/table_log_only.zip",
    "hudi-rs/pr602/mor/avro/v9_mor_8i4u_commit_time.zip",
};

/* ---- finding log files -------------------------------------------------------------------- */

static char found[512][1024];
static int n_found;

static int collect(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    (void)st;
    const char *base = path + ftw->base;
    if (type == FTW_F && base[0] == '.' && strstr(base, ".log.") && n_found < 512 &&
        !strstr(path, "__MACOSX"))
        snprintf(found[n_found++], sizeof(found[0]), "%s", path);
    return 0;
}

/* The log files of a fixture (sorted), in found[0..n_found). */
static void find_logs(const char *zip) {
    const char *root = fixture_unzip(zip);
    cr_assert_not_null(root, "unzip %s", zip);
    n_found = 0;
    cr_assert_eq(nftw(root, collect, 16, FTW_PHYS), 0);
    qsort(found, (size_t)n_found, sizeof(found[0]), (int (*)(const void *, const void *))strcmp);
}

/* The log file of a fixture whose name contains `part`. */
static unsigned char *read_log(const char *zip, const char *part, size_t *len) {
    find_logs(zip);
    for (int i = 0; i < n_found; i++)
        if (strstr(found[i], part)) {
            unsigned char *b = test_read_file(found[i], len);
            cr_assert_not_null(b);
            return b;
        }
    cr_assert_fail("no log file %s in %s", part, zip);
    return NULL;
}

static bool header_is(const hudi_log_block *b, hudi_log_meta_key k, const char *want) {
    return b->header[k].data && hudi_slice_eq(b->header[k], hudi_slice_cstr(want));
}

/* ---- a decoded data block with its schemas --------------------------------------------------- */

typedef struct decoded {
    hudi_avro_schema *writer;
    hudi_field fields;
    hudi_batch *batch;
} decoded;

static int decode_block(decoded *d, const hudi_log_block *b, hudi_error *err) {
    memset(d, 0, sizeof(*d));
    hudi_slice s = b->header[HUDI_LOG_SCHEMA];
    cr_assert_not_null(s.data, "data block without a SCHEMA header");
    cr_assert_eq(hudi_avro_schema_parse(&d->writer, s, err), 0, "%s", err->message);
    cr_assert_eq(hudi_schema_parse_avro(&d->fields, (const char *)s.data, s.len, err), 0, "%s",
                 err->message);
    return hudi_log_avro_block_read(&d->batch, b, d->writer, &d->fields, "test.log", err);
}

static void decoded_dispose(decoded *d) {
    hudi_batch_free(d->batch);
    hudi_field_dispose(&d->fields);
    hudi_avro_schema_free(d->writer);
}

static const hudi_array *column(const hudi_batch *b, const char *name) {
    for (int32_t i = 0; i < b->n_columns; i++)
        if (!strcmp(b->schema->children[i].name, name)) return b->columns[i];
    cr_assert_fail("no column %s", name);
    return NULL;
}

static hudi_slice str_at(const hudi_array *a, int64_t i) {
    size_t len = (size_t)(a->offsets[i + 1] - a->offsets[i]);
    return HUDI_SLICE(len ? a->data + a->offsets[i] : (const uint8_t *)"", len);
}

static bool str_is(const hudi_array *a, int64_t i, const char *want) {
    return hudi_array_is_valid(a, i) && hudi_slice_eq(str_at(a, i), hudi_slice_cstr(want));
}

/* Whether row i of `a` holds the value `v` of schema node `n` decoded by the generic decoder
 * (avro.c). */
static bool same_value(const hudi_avro_node *n, const hudi_avro_value *v, const hudi_array *a,
                       int64_t i) {
    const hudi_field *f = a->field;
    if (n->type == HUDI_AVRO_UNION) {
        cr_assert(v->branch >= 0 && (size_t)v->branch < n->n);
        size_t members = 0, m = 0;
        for (size_t k = 0; k < n->n; k++) {
            if (n->kids[k]->type == HUDI_AVRO_NULL) continue;
            if (k < (size_t)v->branch) m++;
            members++;
        }
        const hudi_avro_node *b = n->kids[v->branch];
        if (b->type == HUDI_AVRO_NULL || members <= 1) return same_value(b, v, a, i);
        /* several types: a struct whose member m is set, the others null */
        if (!hudi_array_is_valid(a, i) || f->type != HUDI_TYPE_STRUCT) return false;
        for (int32_t k = 0; k < a->n_children; k++)
            if ((size_t)k != m && hudi_array_is_valid(a->children[k], i)) return false;
        return same_value(b, v, a->children[m], i);
    }
    if (v->type == HUDI_AVRO_NULL) return !hudi_array_is_valid(a, i);
    if (!hudi_array_is_valid(a, i)) return false;
    switch (v->type) {
    case HUDI_AVRO_BOOLEAN:
        return f->type == HUDI_TYPE_BOOL && hudi_bit_get(a->values, i) == v->v.b;
    case HUDI_AVRO_INT: return hudi_type_width(f) == 4 && ((const int32_t *)a->values)[i] == v->v.i;
    case HUDI_AVRO_LONG:
        return hudi_type_width(f) == 8 && ((const int64_t *)a->values)[i] == v->v.i;
    case HUDI_AVRO_FLOAT:
        return f->type == HUDI_TYPE_FLOAT &&
               memcmp(&((const float *)a->values)[i], &(float){(float)v->v.d}, 4) == 0;
    case HUDI_AVRO_DOUBLE:
        return f->type == HUDI_TYPE_DOUBLE &&
               memcmp(&((const double *)a->values)[i], &v->v.d, 8) == 0;
    case HUDI_AVRO_STRING:
    case HUDI_AVRO_BYTES:
    case HUDI_AVRO_ENUM:
    case HUDI_AVRO_FIXED:
        if (f->type == HUDI_TYPE_DECIMAL) {
            __int128 want = hudi_load_i128be(v->bytes.data, v->bytes.len), got;
            memcpy(&got, (const uint8_t *)a->values + i * 16, 16);
            return want == got;
        }
        if (f->type == HUDI_TYPE_FIXED_BINARY)
            return v->bytes.len == (size_t)f->byte_width &&
                   memcmp((const uint8_t *)a->values + i * f->byte_width, v->bytes.data,
                          v->bytes.len) == 0;
        return (f->type == HUDI_TYPE_STRING || f->type == HUDI_TYPE_BINARY) &&
               hudi_slice_eq(str_at(a, i), v->bytes);
    case HUDI_AVRO_ARRAY:
    case HUDI_AVRO_MAP: {
        if (f->type != (v->type == HUDI_AVRO_MAP ? HUDI_TYPE_MAP : HUDI_TYPE_LIST)) return false;
        int64_t start = a->offsets[i];
        if (a->offsets[i + 1] - start != (int64_t)v->count) return false;
        const hudi_array *items = a->children[0];
        for (size_t k = 0; k < v->count; k++) {
            int64_t at = start + (int64_t)k;
            if (v->type == HUDI_AVRO_MAP) {
                if (!hudi_slice_eq(str_at(items->children[0], at), v->keys[k]) ||
                    !same_value(n->kids[0], &v->items[k], items->children[1], at))
                    return false;
            } else if (!same_value(n->kids[0], &v->items[k], items, at)) {
                return false;
            }
        }
        return true;
    }
    case HUDI_AVRO_RECORD:
        if (f->type != HUDI_TYPE_STRUCT || (int32_t)v->count != a->n_children) return false;
        for (size_t k = 0; k < v->count; k++)
            if (!same_value(n->kids[k], &v->items[k], a->children[k], i)) return false;
        return true;
    default: return false;
    }
}

/* Every record of block `b` decoded by the generic decoder equals its row in d->batch. */
static void cross_check(const decoded *d, const hudi_log_block *b) {
    const uint8_t *p = b->content.data + 8;
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    for (int64_t r = 0; r < d->batch->num_rows; r++) {
        size_t len = hudi_load_u32be(p), used = 0;
        hudi_avro_value v;
        cr_assert_eq(
            hudi_avro_decode(&v, 1, d->writer, HUDI_SLICE(p + 4, len), &used, &arena, &err), 0,
            "%s", err.message);
        cr_assert_eq(used, len);
        cr_assert_eq((int32_t)v.count, d->batch->n_columns);
        const hudi_avro_node *root = hudi_avro_schema_root(d->writer);
        for (size_t c = 0; c < v.count; c++)
            cr_assert(same_value(root->kids[c], &v.items[c], d->batch->columns[c], r),
                      "record %lld column %s", (long long)r, d->batch->schema->children[c].name);
        p += 4 + len;
    }
    hudi_arena_dispose(&arena);
}

/* ---- the real files ------------------------------------------------------------------------- */

Test(log, command_block_of_a_rollback) {
    size_t len;
    unsigned char *f = read_log("hudi-rs/sample_table/mor/parquet/v6_nonpartitioned_rollback.zip",
                                ".log.2_1-0-1", &len);
    hudi_log_blocks bl;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(len, 105);
    cr_assert_eq(hudi_log_scan(&bl, HUDI_SLICE(f, len), "rollback.log", &err), 0, "%s",
                 err.message);
    cr_assert_eq(bl.count, 1);
    cr_assert_eq(bl.corrupt, 0);
    const hudi_log_block *b = &bl.blocks[0];
    cr_assert_eq(b->type, HUDI_LOG_COMMAND_BLOCK);
    cr_assert_eq(b->format_version, 1);
    cr_assert_eq(b->offset, 0);
    cr_assert_eq(b->length, 105);
    cr_assert(header_is(b, HUDI_LOG_INSTANT_TIME, "20250126040936578"));
    cr_assert(header_is(b, HUDI_LOG_TARGET_INSTANT_TIME, "20250126040826878"));
    cr_assert(header_is(b, HUDI_LOG_COMMAND_BLOCK_TYPE, "0"));
    cr_assert_null(b->header[HUDI_LOG_SCHEMA].data);
    cr_assert_eq(b->content.len, 0);
    /* written again, it is the same file byte for byte */
    hudi_buf out = HUDI_BUF_INIT;
    cr_assert_eq(hudi_log_block_write(&out, b->type, b->header, b->content, &err), 0);
    cr_assert_eq(out.len, len);
    hudi_log_blocks_dispose(&bl);
    hudi_buf_dispose(&out);
    free(f);
}

Test(log, avro_data_block_of_an_update) {
    size_t len;
    unsigned char *f =
        read_log("hudi-rs/quickstart_trips_table/mor/avro/v6_trips_8i1u.zip", ".log.1_", &len);
    hudi_log_blocks bl;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_log_scan(&bl, HUDI_SLICE(f, len), "trips.log", &err), 0, "%s", err.message);
    cr_assert_eq(bl.count, 1);
    const hudi_log_block *b = &bl.blocks[0];
    cr_assert_eq(b->type, HUDI_LOG_AVRO_DATA_BLOCK);
    cr_assert_eq(b->length, 1148);
    cr_assert_eq(b->content.len, 240);
    cr_assert(header_is(b, HUDI_LOG_INSTANT_TIME, "20250331030645735"));
    decoded d;
    cr_assert_eq(decode_block(&d, b, &err), 0, "%s", err.message);
    cr_assert_eq(d.batch->num_rows, 1);
    cr_assert_eq(d.batch->n_columns, 11);
    cr_assert(
        str_is(column(d.batch, "_hoodie_record_key"), 0, "9909a8b1-2d15-4d3d-8ec9-efc48c536a00"));
    cr_assert(str_is(column(d.batch, "_hoodie_commit_time"), 0, "20250331030645735"));
    cr_assert(str_is(column(d.batch, "_hoodie_partition_path"), 0, "city=san_francisco"));
    cr_assert(str_is(column(d.batch, "rider"), 0, "rider-D"));
    cr_assert_eq(((const double *)column(d.batch, "fare")->values)[0], 25.0);
    cr_assert_eq(hudi_batch_validate(d.batch, &err), 0, "%s", err.message);
    /* re-encoded from the columns: Spark's content byte for byte */
    hudi_buf enc = HUDI_BUF_INIT;
    cr_assert_eq(hudi_log_avro_block_encode(&enc, d.batch, d.writer, &err), 0, "%s", err.message);
    cr_assert_eq(enc.len, b->content.len);
    cr_assert(memcmp(enc.data, b->content.data, enc.len) == 0);
    hudi_buf_dispose(&enc);
    decoded_dispose(&d);
    hudi_log_blocks_dispose(&bl);
    free(f);
}

Test(log, delete_block_of_three_keys) {
    size_t len;
    unsigned char *f =
        read_log("hudi-rs/quickstart_trips_table/mor/avro/v6_trips_8i3d.zip", ".log.1_", &len);
    hudi_log_blocks bl;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_log_scan(&bl, HUDI_SLICE(f, len), "trips.log", &err), 0, "%s", err.message);
    cr_assert_eq(bl.count, 1);
    cr_assert_eq(bl.blocks[0].type, HUDI_LOG_DELETE_BLOCK);
    hudi_log_deletes del;
    cr_assert_eq(hudi_log_delete_block_read(&del, &bl.blocks[0], "trips.log", &err), 0, "%s",
                 err.message);
    cr_assert_eq(del.count, 3);
    static const char *const keys[] = {"e96c4396-3fad-413a-a942-4cb36106d721",
                                       "9909a8b1-2d15-4d3d-8ec9-efc48c536a00",
                                       "334e26e9-8355-45cc-97c6-c31daf0df330"};
    for (size_t i = 0; i < 3; i++) {
        cr_assert(hudi_slice_eq(del.items[i].record_key, hudi_slice_cstr(keys[i])));
        cr_assert(
            hudi_slice_eq(del.items[i].partition_path, hudi_slice_cstr("city=san_francisco")));
        cr_assert_eq(del.items[i].ordering.kind, HUDI_LOG_ORDER_INT);
        cr_assert_eq(del.items[i].ordering.i, 0);
    }
    /* encoded again: the same content */
    hudi_buf enc = HUDI_BUF_INIT;
    cr_assert_eq(hudi_log_delete_block_encode(&enc, del.items, del.count, &err), 0);
    cr_assert_eq(enc.len, bl.blocks[0].content.len);
    cr_assert(memcmp(enc.data, bl.blocks[0].content.data, enc.len) == 0);
    /* and the whole block, whose header Spark wrote SCHEMA first: same length */
    hudi_buf blk = HUDI_BUF_INIT;
    cr_assert_eq(hudi_log_block_write(&blk, HUDI_LOG_DELETE_BLOCK, bl.blocks[0].header,
                                      HUDI_SLICE(enc.data, enc.len), &err),
                 0);
    cr_assert_eq(blk.len, len);
    hudi_buf_dispose(&blk);
    hudi_buf_dispose(&enc);
    hudi_log_deletes_dispose(&del);
    hudi_log_blocks_dispose(&bl);
    free(f);
}

Test(log, log_only_table_rounds) {
    /* insert k1..k3, update k1, delete k3 */
    static const struct {
        const char *part;
        hudi_log_block_type type;
        int rows;
        const char *first_key;
    } want[] = {{"20260409030525348.log", HUDI_LOG_AVRO_DATA_BLOCK, 3, "k1"},
                {"20260409030527298.log", HUDI_LOG_AVRO_DATA_BLOCK, 1, "k1"},
                {"20260409030528554.log", HUDI_LOG_DELETE_BLOCK, 1, "k3"}};
    for (size_t w = 0; w < HUDI_ARRAY_LEN(want); w++) {
        size_t len;
        unsigned char *f =
            read_log("hudi-rs/pr602/mor/avro/table_log_only.zip", want[w].part, &len);
        hudi_log_blocks bl;
        hudi_error err = HUDI_ERROR_INIT;
        cr_assert_eq(hudi_log_scan(&bl, HUDI_SLICE(f, len), want[w].part, &err), 0);
        cr_assert_eq(bl.count, 1);
        cr_assert_eq(bl.blocks[0].type, want[w].type);
        if (want[w].type == HUDI_LOG_DELETE_BLOCK) {
            hudi_log_deletes del;
            cr_assert_eq(hudi_log_delete_block_read(&del, &bl.blocks[0], "x", &err), 0);
            cr_assert_eq(del.count, (size_t)want[w].rows);
            cr_assert(hudi_slice_eq(del.items[0].record_key, hudi_slice_cstr(want[w].first_key)));
            cr_assert(hudi_slice_eq(del.items[0].partition_path, hudi_slice_cstr("")));
            hudi_log_deletes_dispose(&del);
        } else {
            decoded d;
            cr_assert_eq(decode_block(&d, &bl.blocks[0], &err), 0, "%s", err.message);
            cr_assert_eq(d.batch->num_rows, want[w].rows);
            cr_assert(str_is(column(d.batch, "key"), 0, want[w].first_key));
            const hudi_array *level = column(d.batch, "level");
            cr_assert(str_is(level, 0, w == 0 ? "INFO" : "UPD"));
            if (w == 0) {
                cr_assert(str_is(level, 1, "WARN"));
                cr_assert(str_is(level, 2, "ERROR"));
                cr_assert_eq(((const int32_t *)column(d.batch, "severity")->values)[2], 3);
            }
            cr_assert_eq(((const int32_t *)column(d.batch, "round")->values)[0], w == 0 ? 1 : 2);
            decoded_dispose(&d);
        }
        hudi_log_blocks_dispose(&bl);
        free(f);
    }
}

Test(log, nested_types_of_a_real_block) {
    size_t len;
    unsigned char *f = read_log("hudi-rs/pr602/mor/avro/table_column_projection.zip",
                                "20260409030532996.log", &len);
    hudi_log_blocks bl;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_log_scan(&bl, HUDI_SLICE(f, len), "p.log", &err), 0);
    decoded d;
    cr_assert_eq(decode_block(&d, &bl.blocks[0], &err), 0, "%s", err.message);
    cr_assert_eq(d.batch->num_rows, 1);
    cross_check(&d, &bl.blocks[0]);
    cr_assert_eq(column(d.batch, "decimal_field")->field->type, HUDI_TYPE_DECIMAL);
    cr_assert_eq(column(d.batch, "nullable_map_field")->field->type, HUDI_TYPE_MAP);
    cr_assert_eq(column(d.batch, "array_field")->field->type, HUDI_TYPE_LIST);
    cr_assert_eq(column(d.batch, "date_nullable_field")->field->type, HUDI_TYPE_DATE);
    cr_assert_eq(hudi_batch_validate(d.batch, &err), 0, "%s", err.message);
    decoded_dispose(&d);
    hudi_log_blocks_dispose(&bl);
    free(f);
}

/* Every log file of every MOR fixture: framed without corrupt blocks; data blocks decode,
 * agree with the generic decoder and re-encode to Spark's bytes; delete blocks decode and
 * re-encode; command blocks name their target; Parquet blocks are whole Parquet files. */
Test(log, every_fixture_log_file, .timeout = 300) {
    size_t files = 0, kinds[7] = {0}, rows = 0, deletes = 0;
    for (size_t z = 0; z < HUDI_ARRAY_LEN(MOR_ZIPS); z++) {
        find_logs(MOR_ZIPS[z]);
        for (int i = 0; i < n_found; i++) {
            size_t len;
            unsigned char *f = test_read_file(found[i], &len);
            cr_assert_not_null(f);
            hudi_log_blocks bl;
            hudi_error err = HUDI_ERROR_INIT;
            cr_assert_eq(hudi_log_scan(&bl, HUDI_SLICE(f, len), found[i], &err), 0, "%s",
                         err.message);
            cr_assert_eq(bl.corrupt, 0, "%s", found[i]);
            cr_assert_eq(bl.count, 1, "%s", found[i]); /* each fixture file is one block */
            int64_t at = 0;
            for (size_t k = 0; k < bl.count; k++) {
                const hudi_log_block *b = &bl.blocks[k];
                cr_assert_eq(b->offset, at);
                at += b->length;
                cr_assert_not_null(b->header[HUDI_LOG_INSTANT_TIME].data);
                kinds[b->type]++;
                if (b->type == HUDI_LOG_AVRO_DATA_BLOCK) {
                    decoded d;
                    cr_assert_eq(decode_block(&d, b, &err), 0, "%s: %s", found[i], err.message);
                    cr_assert_eq(d.batch->num_rows, (int64_t)hudi_load_u32be(b->content.data + 4));
                    cr_assert_eq(hudi_batch_validate(d.batch, &err), 0, "%s", err.message);
                    cross_check(&d, b);
                    hudi_buf enc = HUDI_BUF_INIT;
                    cr_assert_eq(hudi_log_avro_block_encode(&enc, d.batch, d.writer, &err), 0, "%s",
                                 err.message);
                    cr_assert(enc.len == b->content.len &&
                                  memcmp(enc.data, b->content.data, enc.len) == 0,
                              "%s: re-encoded content differs", found[i]);
                    rows += (size_t)d.batch->num_rows;
                    hudi_buf_dispose(&enc);
                    decoded_dispose(&d);
                } else if (b->type == HUDI_LOG_DELETE_BLOCK) {
                    hudi_log_deletes del;
                    cr_assert_eq(hudi_log_delete_block_read(&del, b, found[i], &err), 0, "%s",
                                 err.message);
                    for (size_t x = 0; x < del.count; x++)
                        cr_assert_not_null(del.items[x].record_key.data);
                    hudi_buf enc = HUDI_BUF_INIT;
                    cr_assert_eq(hudi_log_delete_block_encode(&enc, del.items, del.count, &err), 0);
                    cr_assert(enc.len == b->content.len &&
                              memcmp(enc.data, b->content.data, enc.len) == 0);
                    deletes += del.count;
                    hudi_buf_dispose(&enc);
                    hudi_log_deletes_dispose(&del);
                } else if (b->type == HUDI_LOG_COMMAND_BLOCK) {
                    cr_assert(header_is(b, HUDI_LOG_COMMAND_BLOCK_TYPE, "0"));
                    cr_assert_eq(b->header[HUDI_LOG_TARGET_INSTANT_TIME].len, 17);
                } else if (b->type == HUDI_LOG_PARQUET_DATA_BLOCK) {
                    cr_assert_geq(b->content.len, 12);
                    cr_assert(memcmp(b->content.data, "PAR1", 4) == 0);
                    cr_assert(memcmp(b->content.data + b->content.len - 4, "PAR1", 4) == 0);
                }
            }
            cr_assert_eq(at, (int64_t)len);
            files++;
            hudi_log_blocks_dispose(&bl);
            free(f);
        }
    }
    /* what the fixtures hold (docs/formats/log-file.md §9) */
    cr_assert_eq(files, 218);
    cr_assert_eq(kinds[HUDI_LOG_AVRO_DATA_BLOCK], 20);
    cr_assert_eq(kinds[HUDI_LOG_DELETE_BLOCK], 80);
    cr_assert_eq(kinds[HUDI_LOG_COMMAND_BLOCK], 1);
    cr_assert_eq(kinds[HUDI_LOG_PARQUET_DATA_BLOCK], 4);
    cr_assert_eq(kinds[HUDI_LOG_HFILE_DATA_BLOCK], 113);
    cr_assert_gt(rows, 20);
    cr_assert_gt(deletes, 10);
}

/* ---- corrupt framing --------------------------------------------------------------------------
 */

/* Scans `f`; checks that the blocks tile the file and that decoding any of them never crashes. */
static int scan_any(const unsigned char *f, size_t len, hudi_log_blocks *bl) {
    hudi_error err = HUDI_ERROR_INIT;
    int rc = hudi_log_scan(bl, HUDI_SLICE(f, len), "bad.log", &err);
    if (rc < 0) {
        cr_assert(rc == HUDI_ECORRUPT || rc == HUDI_EUNSUPPORTED, "rc %d", rc);
        cr_assert(strstr(err.message, "bad.log"), "%s", err.message);
        return rc;
    }
    int64_t at = 0;
    size_t corrupt = 0;
    for (size_t k = 0; k < bl->count; k++) {
        const hudi_log_block *b = &bl->blocks[k];
        cr_assert_eq(b->offset, at);
        cr_assert_gt(b->length, 0);
        at += b->length;
        corrupt += b->type == HUDI_LOG_CORRUPT_BLOCK;
        if (b->type == HUDI_LOG_AVRO_DATA_BLOCK && b->header[HUDI_LOG_SCHEMA].data) {
            hudi_avro_schema *w = NULL;
            hudi_field fl;
            hudi_slice s = b->header[HUDI_LOG_SCHEMA];
            if (hudi_avro_schema_parse(&w, s, &err) == 0 &&
                hudi_schema_parse_avro(&fl, (const char *)s.data, s.len, &err) == 0) {
                hudi_batch *batch = NULL;
                if (hudi_log_avro_block_read(&batch, b, w, &fl, "bad.log", &err) == 0)
                    hudi_batch_free(batch);
                hudi_field_dispose(&fl);
            }
            hudi_avro_schema_free(w);
        } else if (b->type == HUDI_LOG_DELETE_BLOCK) {
            hudi_log_deletes del;
            if (hudi_log_delete_block_read(&del, b, "bad.log", &err) == 0)
                hudi_log_deletes_dispose(&del);
        }
    }
    cr_assert_eq(at, (int64_t)len);
    cr_assert_eq(corrupt, bl->corrupt);
    return 0;
}

Test(log, corrupt_blocks) {
    size_t len;
    unsigned char *f =
        read_log("hudi-rs/quickstart_trips_table/mor/avro/v6_trips_8i1u.zip", ".log.1_", &len);
    hudi_log_blocks bl;
    /* cut in half: one corrupt block of everything */
    cr_assert_eq(scan_any(f, len / 2, &bl), 0);
    cr_assert_eq(bl.count, 1);
    cr_assert_eq(bl.blocks[0].type, HUDI_LOG_CORRUPT_BLOCK);
    cr_assert_eq(bl.blocks[0].content.len, len / 2 - 14); /* after the magic and the size */
    hudi_log_blocks_dispose(&bl);
    /* the magic missing */
    unsigned char *g = malloc(2 * len + 7);
    memcpy(g, f, len);
    g[0] = 'X';
    cr_assert_eq(scan_any(g, len, &bl), 0);
    cr_assert_eq(bl.count, 1);
    cr_assert_eq(bl.corrupt, 1);
    cr_assert_eq(bl.blocks[0].content.len, len);
    hudi_log_blocks_dispose(&bl);
    /* a torn block followed by a good one: the good one is found again */
    memcpy(g, f, len / 3);
    memcpy(g + len / 3, f, len);
    cr_assert_eq(scan_any(g, len / 3 + len, &bl), 0);
    cr_assert_eq(bl.count, 2);
    cr_assert_eq(bl.blocks[0].type, HUDI_LOG_CORRUPT_BLOCK);
    cr_assert_eq(bl.blocks[1].type, HUDI_LOG_AVRO_DATA_BLOCK);
    cr_assert_eq(bl.blocks[1].offset, (int64_t)(len / 3));
    hudi_log_blocks_dispose(&bl);
    /* the trailing length wrong; a block followed by junk (not a magic) */
    memcpy(g, f, len);
    g[len - 1] ^= 1;
    cr_assert_eq(scan_any(g, len, &bl), 0);
    cr_assert_eq(bl.corrupt, 1);
    hudi_log_blocks_dispose(&bl);
    memcpy(g, f, len);
    memcpy(g + len, "junk and more junk", 18);
    cr_assert_eq(scan_any(g, len + 18, &bl), 0);
    cr_assert_eq(bl.count, 1);
    cr_assert_eq(bl.corrupt, 1);
    hudi_log_blocks_dispose(&bl);
    /* fewer than 6 trailing bytes: the block stands, the bytes are a corrupt block */
    memcpy(g + len, "junk", 4);
    cr_assert_eq(scan_any(g, len + 4, &bl), 0);
    cr_assert_eq(bl.count, 2);
    cr_assert_eq(bl.blocks[0].type, HUDI_LOG_AVRO_DATA_BLOCK);
    cr_assert_eq(bl.blocks[1].type, HUDI_LOG_CORRUPT_BLOCK);
    hudi_log_blocks_dispose(&bl);
    /* every single byte flipped, every length cut: never a crash, blocks tile the file */
    for (size_t i = 0; i < len; i++) {
        memcpy(g, f, len);
        g[i] ^= (unsigned char)(1u << (i % 8));
        if (scan_any(g, len, &bl) == 0) hudi_log_blocks_dispose(&bl);
        if (scan_any(f, i, &bl) == 0) hudi_log_blocks_dispose(&bl);
    }
    free(g);
    free(f);
}

Test(log, inner_framing_errors) {
    size_t len;
    unsigned char *f = read_log("hudi-rs/sample_table/mor/parquet/v6_nonpartitioned_rollback.zip",
                                ".log.2_1-0-1", &len);
    hudi_log_blocks bl;
    hudi_error err = HUDI_ERROR_INIT;
    f[21] = 9; /* block type 9 */
    cr_assert_eq(hudi_log_scan(&bl, HUDI_SLICE(f, len), "r.log", &err), HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "r.log") && strstr(err.message, "block type 9"), "%s",
              err.message);
    f[21] = 0;
    f[29] = 12; /* first header key 12 */
    cr_assert_eq(hudi_log_scan(&bl, HUDI_SLICE(f, len), "r.log", &err), HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "metadata key 12"), "%s", err.message);
    f[29] = 0;
    f[17] = 0; /* log format version 0 */
    cr_assert_eq(hudi_log_scan(&bl, HUDI_SLICE(f, len), "r.log", &err), HUDI_EUNSUPPORTED);
    f[17] = 1;
    cr_assert_eq(hudi_log_scan(&bl, HUDI_SLICE(f, len), "r.log", &err), 0);
    hudi_log_blocks_dispose(&bl);
    cr_assert_eq(hudi_log_scan(&bl, HUDI_SLICE(f, 0), "r.log", &err), 0);
    cr_assert_eq(bl.count, 0);
    free(f);
}

/* ---- every Avro type, from random datums ----------------------------------------------------- */

static const char *ALL_TYPES =
    "{\"type\":\"record\",\"name\":\"T\",\"namespace\":\"t\",\"fields\":["
    "{\"name\":\"b\",\"type\":\"boolean\"},"
    "{\"name\":\"i\",\"type\":\"int\"},"
    "{\"name\":\"l\",\"type\":[\"null\",\"long\"]},"
    "{\"name\":\"f\",\"type\":\"float\"},"
    "{\"name\":\"d\",\"type\":[\"double\",\"null\"]},"
    "{\"name\":\"by\",\"type\":\"bytes\"},"
    "{\"name\":\"s\",\"type\":[\"string\",\"null\"]},"
    "{\"name\":\"fx\",\"type\":{\"type\":\"fixed\",\"name\":\"F3\",\"size\":3}},"
    "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"RED\",\"GREEN\","
    "\"BLUE\"]}},"
    "{\"name\":\"dt\",\"type\":{\"type\":\"int\",\"logicalType\":\"date\"}},"
    "{\"name\":\"tm\",\"type\":{\"type\":\"int\",\"logicalType\":\"time-millis\"}},"
    "{\"name\":\"tu\",\"type\":{\"type\":\"long\",\"logicalType\":\"time-micros\"}},"
    "{\"name\":\"tsm\",\"type\":[\"null\",{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}]"
    "},"
    "{\"name\":\"lts\",\"type\":{\"type\":\"long\",\"logicalType\":\"local-timestamp-micros\"}},"
    "{\"name\":\"uid\",\"type\":{\"type\":\"string\",\"logicalType\":\"uuid\"}},"
    "{\"name\":\"dec\",\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":38,"
    "\"scale\":3}},"
    "{\"name\":\"decf\",\"type\":[\"null\",{\"type\":\"fixed\",\"name\":\"D9\",\"size\":9,"
    "\"logicalType\":\"decimal\",\"precision\":20,\"scale\":2}]},"
    "{\"name\":\"u\",\"type\":[\"null\",\"int\",\"string\",{\"type\":\"record\",\"name\":\"P\","
    "\"fields\":[{\"name\":\"x\",\"type\":\"int\"}]}]},"
    "{\"name\":\"u2\",\"type\":[\"long\",\"boolean\"]},"
    "{\"name\":\"n\",\"type\":\"null\"},"
    "{\"name\":\"a\",\"type\":{\"type\":\"array\",\"items\":{\"type\":\"array\",\"items\":"
    "[\"null\",\"string\"]}}},"
    "{\"name\":\"m\",\"type\":[\"null\",{\"type\":\"map\",\"values\":[\"null\",\"P\"]}]},"
    "{\"name\":\"r\",\"type\":{\"type\":\"record\",\"name\":\"Q\",\"fields\":["
    "{\"name\":\"y\",\"type\":[\"null\",\"double\"]},"
    "{\"name\":\"z\",\"type\":{\"type\":\"array\",\"items\":\"long\"}},"
    "{\"name\":\"e2\",\"type\":[\"null\",\"E\"]}]}}]}";

static uint64_t rnd(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void put_varint(hudi_buf *b, int64_t v) {
    uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
    do {
        uint8_t byte = z & 0x7F;
        z >>= 7;
        hudi_buf_putc(b, (char)(byte | (z ? 0x80 : 0)));
    } while (z);
}

static void put_be32(hudi_buf *b, uint32_t v) {
    uint8_t s[4];
    hudi_store_u32be(s, v);
    hudi_buf_append(b, s, 4);
}

/* A random binary datum of node `n` (column `f`), written as Java's Avro writer does (arrays and
 * maps in one block, decimals in the fewest bytes). */
static void gen(uint64_t *s, const hudi_avro_node *n, const hudi_field *f, hudi_buf *b) {
    switch (n->type) {
    case HUDI_AVRO_UNION: {
        size_t k = rnd(s) % n->n, members = 0, m = 0;
        for (size_t j = 0; j < n->n; j++) {
            if (n->kids[j]->type == HUDI_AVRO_NULL) continue;
            if (j < k) m++;
            members++;
        }
        put_varint(b, (int64_t)k);
        gen(s, n->kids[k], members > 1 && n->kids[k]->type != HUDI_AVRO_NULL ? &f->children[m] : f,
            b);
        return;
    }
    case HUDI_AVRO_NULL: return;
    case HUDI_AVRO_BOOLEAN: hudi_buf_putc(b, (char)(rnd(s) & 1)); return;
    case HUDI_AVRO_INT: put_varint(b, (int32_t)rnd(s) >> (rnd(s) % 32)); return;
    case HUDI_AVRO_LONG: put_varint(b, (int64_t)rnd(s) >> (rnd(s) % 64)); return;
    case HUDI_AVRO_FLOAT: {
        float x = (float)((int64_t)rnd(s) % 100000) / 7.0f;
        hudi_buf_append(b, &x, 4);
        return;
    }
    case HUDI_AVRO_DOUBLE: {
        uint64_t bits = rnd(s); /* any bits, NaN payloads too */
        hudi_buf_append(b, &bits, 8);
        return;
    }
    case HUDI_AVRO_BYTES:
    case HUDI_AVRO_STRING:
    case HUDI_AVRO_FIXED: {
        uint8_t v[16];
        size_t len = n->type == HUDI_AVRO_FIXED ? (size_t)n->fixed_size : rnd(s) % 12;
        for (size_t j = 0; j < len; j++)
            v[j] = n->type == HUDI_AVRO_STRING ? (uint8_t)('a' + rnd(s) % 26) : (uint8_t)rnd(s);
        if (f->type == HUDI_TYPE_DECIMAL && n->type == HUDI_AVRO_BYTES) {
            /* the fewest bytes of a two's complement number */
            len = 1 + rnd(s) % 16;
            for (size_t j = 0; j < len; j++) v[j] = (uint8_t)rnd(s);
            size_t skip = 0;
            while (skip + 1 < len && ((v[skip] == 0 && !(v[skip + 1] & 0x80)) ||
                                      (v[skip] == 0xFF && (v[skip + 1] & 0x80))))
                skip++;
            memmove(v, v + skip, len - skip);
            len -= skip;
        } else if (f->type == HUDI_TYPE_DECIMAL) {
            v[0] = (v[1] & 0x80) ? 0xFF : 0x00; /* fits 8 bytes: within precision 20 */
        }
        if (n->type != HUDI_AVRO_FIXED) put_varint(b, (int64_t)len);
        hudi_buf_append(b, v, len);
        return;
    }
    case HUDI_AVRO_ENUM: put_varint(b, (int64_t)(rnd(s) % n->n)); return;
    case HUDI_AVRO_ARRAY:
    case HUDI_AVRO_MAP: {
        int64_t count = (int64_t)(rnd(s) % 4);
        if (count) put_varint(b, count);
        for (int64_t j = 0; j < count; j++) {
            const hudi_field *item = &f->children[0];
            if (n->type == HUDI_AVRO_MAP) {
                put_varint(b, 2);
                hudi_buf_putc(b, 'k');
                hudi_buf_putc(b, (char)('0' + j));
                item = &item->children[1];
            }
            gen(s, n->kids[0], item, b);
        }
        put_varint(b, 0);
        return;
    }
    case HUDI_AVRO_RECORD:
        for (size_t j = 0; j < n->n; j++) gen(s, n->kids[j], &f->children[j], b);
        return;
    default: cr_assert_fail("node type %d", n->type);
    }
}

/* A data block's content of `count` random records. */
static void gen_content(hudi_buf *out, const decoded *d, int32_t count, uint64_t seed) {
    const hudi_avro_node *root = hudi_avro_schema_root(d->writer);
    put_be32(out, 3);
    put_be32(out, (uint32_t)count);
    for (int32_t r = 0; r < count; r++) {
        hudi_buf rec = HUDI_BUF_INIT;
        gen(&seed, root, &d->fields, &rec);
        put_be32(out, (uint32_t)rec.len);
        hudi_buf_append(out, rec.data, rec.len);
        hudi_buf_dispose(&rec);
    }
}

static void parse_both(decoded *d, const char *json) {
    hudi_error err = HUDI_ERROR_INIT;
    memset(d, 0, sizeof(*d));
    cr_assert_eq(hudi_avro_schema_parse(&d->writer, hudi_slice_cstr(json), &err), 0, "%s",
                 err.message);
    cr_assert_eq(hudi_schema_parse_avro(&d->fields, json, strlen(json), &err), 0, "%s",
                 err.message);
}

/* A block of `count` random records of `schema`, twice in a log file: scanned, read (into
 * d->batch), valid, equal to the Avro layer's decoding of every record, encoded back byte for
 * byte, and every truncation of its first records an ECORRUPT naming the record. */
static void random_block_round_trips(decoded *d, const char *schema, int32_t count) {
    parse_both(d, schema);
    hudi_buf content = HUDI_BUF_INIT, file = HUDI_BUF_INIT, again = HUDI_BUF_INIT;
    gen_content(&content, d, count, 0x9E3779B97F4A7C15u);
    hudi_slice header[HUDI_LOG_META_KEYS] = {{0}};
    header[HUDI_LOG_INSTANT_TIME] = hudi_slice_cstr("20260101000000000");
    header[HUDI_LOG_SCHEMA] = hudi_slice_cstr(schema);
    hudi_error err = HUDI_ERROR_INIT;
    /* two blocks in one file */
    for (int k = 0; k < 2; k++)
        cr_assert_eq(hudi_log_block_write(&file, HUDI_LOG_AVRO_DATA_BLOCK, header,
                                          HUDI_SLICE(content.data, content.len), &err),
                     0);
    hudi_log_blocks bl;
    cr_assert_eq(hudi_log_scan(&bl, HUDI_SLICE(file.data, file.len), "t.log", &err), 0);
    cr_assert_eq(bl.count, 2);
    cr_assert_eq(bl.corrupt, 0);
    cr_assert_eq(bl.blocks[1].offset, (int64_t)file.len / 2);
    cr_assert(header_is(&bl.blocks[1], HUDI_LOG_SCHEMA, schema));
    cr_assert(hudi_slice_eq(bl.blocks[1].content, HUDI_SLICE(content.data, content.len)));
    cr_assert_eq(
        hudi_log_avro_block_read(&d->batch, &bl.blocks[1], d->writer, &d->fields, "t.log", &err), 0,
        "%s", err.message);
    cr_assert_eq(d->batch->num_rows, count);
    cr_assert_eq(hudi_batch_validate(d->batch, &err), 0, "%s", err.message);
    cross_check(d, &bl.blocks[1]);
    cr_assert_eq(hudi_log_avro_block_encode(&again, d->batch, d->writer, &err), 0, "%s",
                 err.message);
    cr_assert_eq(again.len, content.len);
    cr_assert(memcmp(again.data, content.data, content.len) == 0);
    /* every truncation of a record is ECORRUPT naming the record, never a crash */
    hudi_log_block b = bl.blocks[1];
    for (size_t cut = 8; cut < 400 && cut < content.len; cut++) {
        b.content = HUDI_SLICE(content.data, cut);
        hudi_batch *x = NULL;
        cr_assert_eq(hudi_log_avro_block_read(&x, &b, d->writer, &d->fields, "t.log", &err),
                     HUDI_ECORRUPT, "cut %zu", cut);
        cr_assert(strstr(err.message, "t.log") && strstr(err.message, "record"), "%s", err.message);
    }
    hudi_log_blocks_dispose(&bl);
    hudi_buf_dispose(&content);
    hudi_buf_dispose(&file);
    hudi_buf_dispose(&again);
}

Test(log, every_avro_type_round_trips) {
    decoded d;
    random_block_round_trips(&d, ALL_TYPES, 300);
    /* the column types the schema layer chose */
    static const struct {
        const char *name;
        hudi_type_id type;
    } types[] = {
        {"e", HUDI_TYPE_STRING},      {"dt", HUDI_TYPE_DATE},     {"tm", HUDI_TYPE_TIME},
        {"tsm", HUDI_TYPE_TIMESTAMP}, {"dec", HUDI_TYPE_DECIMAL}, {"decf", HUDI_TYPE_DECIMAL},
        {"u", HUDI_TYPE_STRUCT},      {"u2", HUDI_TYPE_STRUCT},   {"n", HUDI_TYPE_NULL},
        {"a", HUDI_TYPE_LIST},        {"m", HUDI_TYPE_MAP},       {"fx", HUDI_TYPE_FIXED_BINARY}};
    for (size_t k = 0; k < HUDI_ARRAY_LEN(types); k++)
        cr_assert_eq(column(d.batch, types[k].name)->field->type, types[k].type, "%s",
                     types[k].name);
    decoded_dispose(&d);
}

/* Flat records (every field a primitive, alone or in a union with null on either side), as
 * Hudi writes most log blocks: the reader's fast path. 70,000 records, so the columns grow
 * past the room reserved up front. */
static const char *FLAT_TYPES =
    "{\"type\":\"record\",\"name\":\"T\",\"namespace\":\"t\",\"fields\":["
    "{\"name\":\"b\",\"type\":\"boolean\"},"
    "{\"name\":\"nb\",\"type\":[\"null\",\"boolean\"]},"
    "{\"name\":\"i\",\"type\":\"int\"},"
    "{\"name\":\"ni\",\"type\":[\"int\",\"null\"]},"
    "{\"name\":\"l\",\"type\":\"long\"},"
    "{\"name\":\"nl\",\"type\":[\"null\",\"long\"]},"
    "{\"name\":\"f\",\"type\":[\"null\",\"float\"]},"
    "{\"name\":\"d\",\"type\":\"double\"},"
    "{\"name\":\"nd\",\"type\":[\"double\",\"null\"]},"
    "{\"name\":\"s\",\"type\":\"string\"},"
    "{\"name\":\"ns\",\"type\":[\"null\",\"string\"]},"
    "{\"name\":\"by\",\"type\":[\"bytes\",\"null\"]},"
    "{\"name\":\"dt\",\"type\":[\"null\",{\"type\":\"int\",\"logicalType\":\"date\"}]},"
    "{\"name\":\"tm\",\"type\":{\"type\":\"int\",\"logicalType\":\"time-millis\"}},"
    "{\"name\":\"tu\",\"type\":{\"type\":\"long\",\"logicalType\":\"time-micros\"}},"
    "{\"name\":\"ts\",\"type\":[\"null\",{\"type\":\"long\",\"logicalType\":"
    "\"timestamp-micros\"}]}]}";

Test(log, flat_records_round_trip) {
    decoded d;
    random_block_round_trips(&d, FLAT_TYPES, 70000);
    int64_t nulls = 0;
    for (int32_t c = 0; c < d.batch->n_columns; c++) nulls += d.batch->columns[c]->null_count;
    cr_assert_gt(nulls, 0, "the random records hold nulls");
    decoded_dispose(&d);
}

/* A block from bytes: the content as given, no framing. */
static hudi_log_block block_of(hudi_log_block_type type, const void *content, size_t len) {
    hudi_log_block b;
    memset(&b, 0, sizeof(b));
    b.type = type;
    b.format_version = 1;
    b.content = HUDI_SLICE(content, len);
    return b;
}

/* A flat writer schema read into a wider column (Avro's promotion int -> long) is not the
 * fast path's: the values arrive promoted, 8 bytes each. */
Test(log, flat_records_promoted_to_a_wider_column) {
    hudi_error err = HUDI_ERROR_INIT;
    const char *writer_json = "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
                              "{\"name\":\"x\",\"type\":[\"null\",\"int\"]},"
                              "{\"name\":\"y\",\"type\":\"long\"}]}";
    const char *wide_json = "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
                            "{\"name\":\"x\",\"type\":[\"null\",\"long\"]},"
                            "{\"name\":\"y\",\"type\":\"long\"}]}";
    hudi_avro_schema *writer = NULL;
    hudi_field wide;
    cr_assert_eq(hudi_avro_schema_parse(&writer, hudi_slice_cstr(writer_json), &err), 0);
    cr_assert_eq(hudi_schema_parse_avro(&wide, wide_json, strlen(wide_json), &err), 0);
    /* x = -3, y = 7; x = null, y = 1 */
    static const uint8_t r1[] = {0x02, 0x05, 0x0E}, r2[] = {0x00, 0x02};
    hudi_buf c = HUDI_BUF_INIT;
    put_be32(&c, 3);
    put_be32(&c, 2);
    put_be32(&c, sizeof(r1));
    hudi_buf_append(&c, r1, sizeof(r1));
    put_be32(&c, sizeof(r2));
    hudi_buf_append(&c, r2, sizeof(r2));
    hudi_log_block b = block_of(HUDI_LOG_AVRO_DATA_BLOCK, c.data, c.len);
    hudi_batch *x = NULL;
    cr_assert_eq(hudi_log_avro_block_read(&x, &b, writer, &wide, "p.log", &err), 0, "%s",
                 err.message);
    cr_assert_eq(x->num_rows, 2);
    const hudi_array *xs = column(x, "x"), *ys = column(x, "y");
    cr_assert_eq(hudi_type_width(xs->field), 8);
    cr_assert_eq(((const int64_t *)xs->values)[0], -3);
    cr_assert(!hudi_array_is_valid(xs, 1));
    cr_assert_eq(((const int64_t *)ys->values)[0], 7);
    cr_assert_eq(((const int64_t *)ys->values)[1], 1);
    cr_assert_eq(hudi_batch_validate(x, &err), 0, "%s", err.message);
    hudi_batch_free(x);
    hudi_buf_dispose(&c);
    hudi_field_dispose(&wide);
    hudi_avro_schema_free(writer);
}

/* The fast path checks the bytes as the general decoder does. */
Test(log, flat_record_errors) {
    decoded d;
    parse_both(&d, "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
                   "{\"name\":\"b\",\"type\":\"boolean\"},"
                   "{\"name\":\"ni\",\"type\":[\"null\",\"int\"]}]}");
    static const struct {
        uint8_t rec[8];
        size_t len;
        const char *why; /* NULL: reads */
    } cases[] = {
        {{0x01, 0x02, 0x0A}, 3, NULL},                                       /* true, 5 */
        {{0x00, 0x00}, 2, NULL},                                             /* false, null */
        {{0x02, 0x00}, 2, "boolean byte not 0 or 1"},                        /* boolean 2 */
        {{0x01, 0x04, 0x0A}, 3, "union branch out of range"},                /* branch 2 */
        {{0x01, 0x02, 0x80, 0x80, 0x80, 0x80, 0x10}, 7, "int out of range"}, /* 2^31 */
        {{0x01, 0x02}, 2, "truncated or overlong varint"},                   /* no int */
        {{0x01, 0x02, 0x0A, 0x00}, 4, "record shorter than its length"},
    };
    for (size_t k = 0; k < HUDI_ARRAY_LEN(cases); k++) {
        hudi_buf c = HUDI_BUF_INIT;
        put_be32(&c, 3);
        put_be32(&c, 1);
        put_be32(&c, (uint32_t)cases[k].len);
        hudi_buf_append(&c, cases[k].rec, cases[k].len);
        hudi_log_block b = block_of(HUDI_LOG_AVRO_DATA_BLOCK, c.data, c.len);
        hudi_error err = HUDI_ERROR_INIT;
        hudi_batch *x = NULL;
        int rc = hudi_log_avro_block_read(&x, &b, d.writer, &d.fields, "f.log", &err);
        if (!cases[k].why) {
            cr_assert_eq(rc, 0, "case %zu: %s", k, err.message);
            cr_assert_eq(x->num_rows, 1);
            const hudi_array *bo = column(x, "b"), *ni = column(x, "ni");
            cr_assert_eq(hudi_bit_get(bo->values, 0), k == 0);
            cr_assert_eq(hudi_array_is_valid(ni, 0), k == 0);
            if (k == 0) cr_assert_eq(((const int32_t *)ni->values)[0], 5);
            cr_assert_eq(hudi_batch_validate(x, &err), 0, "%s", err.message);
        } else {
            cr_assert_eq(rc, HUDI_ECORRUPT, "case %zu", k);
            cr_assert(strstr(err.message, "f.log: log block at offset 0: record 0: ") &&
                          strstr(err.message, cases[k].why),
                      "case %zu: %s", k, err.message);
            cr_assert_null(x);
        }
        hudi_batch_free(x);
        hudi_buf_dispose(&c);
    }
    decoded_dispose(&d);
}

Test(log, avro_block_values_and_errors) {
    decoded d;
    parse_both(&d, "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
                   "{\"name\":\"a\",\"type\":{\"type\":\"array\",\"items\":\"int\"}},"
                   "{\"name\":\"dec\",\"type\":[\"null\",{\"type\":\"bytes\",\"logicalType\":"
                   "\"decimal\",\"precision\":10,\"scale\":2}]},"
                   "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"X\","
                   "\"Y\"]}}]}");
    /* a: one block of count -2 (with its byte size 2), items 1 and -1; dec: -123; e: Y */
    static const uint8_t rec[] = {0x03, 0x04, 0x02, 0x01, 0x00, 0x02, 0x04, 0xFF, 0x85, 0x02};
    hudi_buf c = HUDI_BUF_INIT;
    put_be32(&c, 3);
    put_be32(&c, 2);
    for (int k = 0; k < 2; k++) {
        put_be32(&c, sizeof(rec));
        hudi_buf_append(&c, rec, sizeof(rec));
    }
    hudi_log_block b = block_of(HUDI_LOG_AVRO_DATA_BLOCK, c.data, c.len);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_log_avro_block_read(&d.batch, &b, d.writer, &d.fields, "v.log", &err), 0,
                 "%s", err.message);
    cr_assert_eq(d.batch->num_rows, 2);
    const hudi_array *a = column(d.batch, "a");
    cr_assert_eq(a->offsets[1], 2);
    cr_assert_eq(a->offsets[2], 4);
    cr_assert_eq(((const int32_t *)a->children[0]->values)[0], 1);
    cr_assert_eq(((const int32_t *)a->children[0]->values)[1], -1);
    __int128 dec;
    memcpy(&dec, column(d.batch, "dec")->values, 16);
    cr_assert(dec == -123);
    cr_assert(str_is(column(d.batch, "e"), 1, "Y"));
    hudi_batch_free(d.batch);
    d.batch = NULL;
    /* content version 2 (older Hudi) */
    ((uint8_t *)c.data)[3] = 2;
    cr_assert_eq(hudi_log_avro_block_read(&d.batch, &b, d.writer, &d.fields, "v.log", &err),
                 HUDI_EUNSUPPORTED);
    ((uint8_t *)c.data)[3] = 3;
    /* a record length past its datum */
    ((uint8_t *)c.data)[11] = sizeof(rec) + 1;
    cr_assert_eq(hudi_log_avro_block_read(&d.batch, &b, d.writer, &d.fields, "v.log", &err),
                 HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "v.log: log block at offset 0: record 0:"), "%s", err.message);
    ((uint8_t *)c.data)[11] = sizeof(rec);
    /* an enum index out of range in the second record */
    ((uint8_t *)c.data)[c.len - 1] = 0x04;
    cr_assert_eq(hudi_log_avro_block_read(&d.batch, &b, d.writer, &d.fields, "v.log", &err),
                 HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "record 1: enum index out of range"), "%s", err.message);
    /* a union branch out of range */
    ((uint8_t *)c.data)[c.len - 1] = 0x02;
    ((uint8_t *)c.data)[c.len - 5] = 0x06;
    cr_assert_eq(hudi_log_avro_block_read(&d.batch, &b, d.writer, &d.fields, "v.log", &err),
                 HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "union branch"), "%s", err.message);
    /* a huge record count */
    ((uint8_t *)c.data)[4] = 0x7F;
    cr_assert_eq(hudi_log_avro_block_read(&d.batch, &b, d.writer, &d.fields, "v.log", &err),
                 HUDI_ECORRUPT);
    /* columns of another schema */
    decoded other;
    parse_both(&other, ALL_TYPES);
    cr_assert_eq(hudi_log_avro_block_read(&d.batch, &b, d.writer, &other.fields, "v.log", &err),
                 HUDI_EINVAL);
    cr_assert_null(d.batch);
    decoded_dispose(&other);
    hudi_buf_dispose(&c);
    decoded_dispose(&d);
}

/* ---- deletes and ordering values ---------------------------------------------------------- */

Test(log, delete_block_every_ordering_kind) {
    hudi_log_delete del[13];
    memset(del, 0, sizeof(del));
    for (int k = 0; k <= HUDI_LOG_ORDER_TIMESTAMP; k++) {
        del[k].record_key = hudi_slice_cstr(k == 3 ? "" : "key");
        del[k].partition_path = k % 2 ? hudi_slice_cstr("p=1") : HUDI_SLICE(NULL, 0);
        del[k].ordering.kind = (hudi_log_ordering_kind)k;
        del[k].ordering.i = k == HUDI_LOG_ORDER_BOOLEAN ? 1 : -1000 * k;
        del[k].ordering.d = -2.5 * k;
        del[k].ordering.bytes = HUDI_SLICE("\x80\x01", 2);
    }
    del[12].record_key = HUDI_SLICE(NULL, 0);
    del[12].ordering.kind = HUDI_LOG_ORDER_INT;
    hudi_buf c = HUDI_BUF_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_log_delete_block_encode(&c, del, 13, &err), 0);
    hudi_log_block b = block_of(HUDI_LOG_DELETE_BLOCK, c.data, c.len);
    hudi_log_deletes out;
    cr_assert_eq(hudi_log_delete_block_read(&out, &b, "d.log", &err), 0, "%s", err.message);
    cr_assert_eq(out.count, 13);
    for (int k = 0; k < 13; k++) {
        const hudi_log_delete *x = &out.items[k];
        cr_assert(hudi_slice_eq(x->record_key, del[k].record_key));
        cr_assert_eq(x->record_key.data == NULL, k == 12);
        cr_assert_eq(x->partition_path.data == NULL, k % 2 == 0);
        cr_assert_eq(x->ordering.kind, del[k].ordering.kind);
        int cmp = 9;
        if (k != HUDI_LOG_ORDER_NULL) {
            cr_assert(hudi_log_ordering_cmp(&x->ordering, &del[k].ordering, &cmp), "kind %d", k);
            cr_assert_eq(cmp, 0, "kind %d", k);
        } else {
            cr_assert_not(hudi_log_ordering_cmp(&x->ordering, &del[k].ordering, &cmp));
        }
    }
    hudi_log_deletes_dispose(&out);
    /* versions 1 and 2 (Java-serialised) and a truncated list */
    ((uint8_t *)c.data)[3] = 1;
    cr_assert_eq(hudi_log_delete_block_read(&out, &b, "d.log", &err), HUDI_EUNSUPPORTED);
    ((uint8_t *)c.data)[3] = 3;
    for (size_t cut = 0; cut + 1 < c.len; cut++) {
        hudi_log_block t = block_of(HUDI_LOG_DELETE_BLOCK, c.data, cut);
        cr_assert_eq(hudi_log_delete_block_read(&out, &t, "d.log", &err), HUDI_ECORRUPT, "cut %zu",
                     cut);
        cr_assert(strstr(err.message, "d.log"), "%s", err.message);
    }
    /* an ArrayWrapper (Hudi 1.x) */
    static const uint8_t aw[] = {0, 0, 0, 3, 0, 0, 0, 5, 0x02, 0x00, 0x00, 0x18, 0x00};
    hudi_log_block t = block_of(HUDI_LOG_DELETE_BLOCK, aw, sizeof(aw));
    cr_assert_eq(hudi_log_delete_block_read(&out, &t, "d.log", &err), HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "ArrayWrapper"), "%s", err.message);
    hudi_buf_dispose(&c);
}

static hudi_log_ordering ord_str(const char *s) {
    return (hudi_log_ordering){.kind = HUDI_LOG_ORDER_STRING, .bytes = hudi_slice_cstr(s)};
}

Test(log, ordering_compares_as_java) {
    int cmp = 0;
    hudi_log_ordering a = {.kind = HUDI_LOG_ORDER_INT, .i = 5},
                      b = {.kind = HUDI_LOG_ORDER_INT, .i = 7};
    cr_assert(hudi_log_ordering_cmp(&a, &b, &cmp) && cmp < 0);
    b.kind = HUDI_LOG_ORDER_LONG; /* Integer vs Long: not comparable */
    cmp = 42;
    cr_assert_not(hudi_log_ordering_cmp(&a, &b, &cmp));
    cr_assert_eq(cmp, 42);
    /* String.compareTo: UTF-16 code units, so U+FFFD sorts after U+1F600 */
    hudi_log_ordering x = ord_str("\xef\xbf\xbd"), y = ord_str("\xf0\x9f\x98\x80");
    cr_assert(hudi_log_ordering_cmp(&x, &y, &cmp) && cmp > 0);
    x = ord_str("ab"), y = ord_str("abc");
    cr_assert(hudi_log_ordering_cmp(&x, &y, &cmp) && cmp < 0);
    /* ByteBuffer.compareTo: signed bytes */
    x = (hudi_log_ordering){.kind = HUDI_LOG_ORDER_BYTES, .bytes = HUDI_SLICE("\x80", 1)};
    y = (hudi_log_ordering){.kind = HUDI_LOG_ORDER_BYTES, .bytes = HUDI_SLICE("\x01", 1)};
    cr_assert(hudi_log_ordering_cmp(&x, &y, &cmp) && cmp < 0);
    /* decimals by value, whatever their byte lengths */
    x = (hudi_log_ordering){.kind = HUDI_LOG_ORDER_DECIMAL, .bytes = HUDI_SLICE("\x00\xff", 2)};
    y = (hudi_log_ordering){.kind = HUDI_LOG_ORDER_DECIMAL, .bytes = HUDI_SLICE("\x7f", 1)};
    cr_assert(hudi_log_ordering_cmp(&x, &y, &cmp) && cmp > 0);
    y.bytes = HUDI_SLICE("\xff\xff\xff", 3); /* -1 */
    cr_assert(hudi_log_ordering_cmp(&y, &x, &cmp) && cmp < 0);
    x.bytes = HUDI_SLICE("\xff", 1);
    cr_assert(hudi_log_ordering_cmp(&y, &x, &cmp) && cmp == 0);
    /* Double.compareTo: -0.0 < 0.0, NaN above infinity and equal to itself */
    x = (hudi_log_ordering){.kind = HUDI_LOG_ORDER_DOUBLE, .d = -0.0};
    y = (hudi_log_ordering){.kind = HUDI_LOG_ORDER_DOUBLE, .d = 0.0};
    cr_assert(hudi_log_ordering_cmp(&x, &y, &cmp) && cmp < 0);
    x.d = NAN, y.d = INFINITY;
    cr_assert(hudi_log_ordering_cmp(&x, &y, &cmp) && cmp > 0);
    y.d = NAN;
    cr_assert(hudi_log_ordering_cmp(&x, &y, &cmp) && cmp == 0);
    x = (hudi_log_ordering){.kind = HUDI_LOG_ORDER_BOOLEAN, .i = 0};
    y = (hudi_log_ordering){.kind = HUDI_LOG_ORDER_BOOLEAN, .i = 1};
    cr_assert(hudi_log_ordering_cmp(&x, &y, &cmp) && cmp < 0);
}
