/* mor_read_test.c - merged snapshot reads of the merge-on-read tables of tests/data/hudi-rs
 * (read/mor.h): every query of each table's expected.json (snapshot, read-optimized, time
 * travel, incremental) must return exactly its rows. Rows are matched as a multiset on every
 * value of the expected row that is a JSON string, integer, real or boolean in a column of
 * that type (strings, integers, doubles, booleans: the record key, commit time, partition
 * path, the ordering field and the data columns); other types are compared by the CLI test
 * (tests/conformance/test_hudi_fixtures.py). Then merge rules the fixtures do not show, on
 * fixture tables with log blocks added (event-time ordering against base rows, deletes with
 * ordering values, predicates on merged rows, rollback command blocks, corrupt blocks). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "format/avro/avro.h"
#include "format/log/log.h"
#include "read/read.h"
#include "schema/schema.h"
#include "support.h"

/* Whether row `row` of `a` holds the JSON value `v` (true for types not compared here). */
static bool value_matches(const hudi_array *a, int64_t row, json_t *v) {
    bool valid = hudi_array_is_valid(a, row);
    if (json_is_null(v)) return !valid;
    switch (a->field->type) {
    case HUDI_TYPE_STRING: {
        if (!json_is_string(v)) return true;
        size_t n = (size_t)(a->offsets[row + 1] - a->offsets[row]);
        return valid && n == json_string_length(v) &&
               (n == 0 || memcmp(a->data + a->offsets[row], json_string_value(v), n) == 0);
    }
    case HUDI_TYPE_INT32:
        return !json_is_integer(v) ||
               (valid && ((int32_t *)a->values)[row] == (int32_t)json_integer_value(v));
    case HUDI_TYPE_INT64:
        return !json_is_integer(v) ||
               (valid && ((int64_t *)a->values)[row] == (int64_t)json_integer_value(v));
    case HUDI_TYPE_DOUBLE:
        return !json_is_number(v) || (valid && ((double *)a->values)[row] == json_number_value(v));
    case HUDI_TYPE_BOOL:
        return !json_is_boolean(v) ||
               (valid && hudi_bit_get(a->values, row) == (bool)json_is_true(v));
    default: return true;
    }
}

static bool row_matches(const hudi_batch *b, int64_t row, json_t *want) {
    const char *k;
    json_t *v;
    json_object_foreach(want, k, v) {
        for (int32_t c = 0; c < b->n_columns; c++)
            if (strcmp(b->schema->children[c].name, k) == 0 &&
                !value_matches(b->columns[c], row, v))
                return false;
    }
    return true;
}

/* Reads query `e` of the table at `dir` and checks its rows. */
static void check_query(const char *name, const char *dir, json_t *e) {
    const char *id = json_string_value(json_object_get(e, "id"));
    const char *query = json_string_value(json_object_get(e, "query"));
    json_t *rows = json_object_get(e, "rows");
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    cr_assert_eq(hudi_tbl_open(&t, NULL, dir, &err), 0, "%s: %s", name, err.message);
    hudi_scan_options o = HUDI_SCAN_OPTIONS_INIT;
    o.as_of_instant = json_string_value(json_object_get(e, "as_of"));
    o.begin_instant = json_string_value(json_object_get(e, "start_exclusive"));
    o.end_instant = json_string_value(json_object_get(e, "end_inclusive"));
    o.read_optimized = strncmp(query, "read_optimized", 14) == 0;
    o.batch_rows = 3; /* several batches per file, and of inserts */
    hudi_reader *r = NULL;
    cr_assert_eq(hudi_reader_open(&r, t, &o, &err), 0, "%s %s: %s", name, id, err.message);
    hudi_batch *got = NULL;
    cr_assert_eq(hudi_batch_new(&got, hudi_reader_schema(r), &err), 0);
    hudi_batch *b;
    while (hudi_reader_next(r, &b, &err) == 0 && b) {
        cr_assert_eq(hudi_batch_validate(b, &err), 0, "%s %s: %s", name, id, err.message);
        for (int32_t c = 0; c < got->n_columns; c++)
            cr_assert_eq(
                hudi_array_append_range(got->columns[c], b->columns[c], 0, b->num_rows, &err), 0,
                "%s", err.message);
        got->num_rows += b->num_rows;
    }
    cr_assert_eq(err.code, 0, "%s %s: %s", name, id, err.message);
    size_t n = json_array_size(rows);
    cr_assert_eq(got->num_rows, (int64_t)n, "%s %s: %lld rows, expected %zu", name, id,
                 (long long)got->num_rows, n);
    bool *used = calloc((size_t)n + 1, sizeof(bool));
    for (size_t i = 0; i < n; i++) {
        json_t *want = json_array_get(rows, i);
        int64_t k = 0;
        while (k < got->num_rows && (used[k] || !row_matches(got, k, want))) k++;
        char *text = json_dumps(want, JSON_COMPACT);
        cr_assert_lt(k, got->num_rows, "%s %s: expected row missing: %s", name, id, text);
        free(text);
        used[k] = true;
    }
    free(used);
    hudi_batch_free(got);
    hudi_reader_free(r);
    hudi_tbl_free(t);
}

static void check_table(const char *rel) {
    char zip[512], exp[512];
    snprintf(zip, sizeof(zip), "hudi-rs/%s.expected.json", rel);
    snprintf(exp, sizeof(exp), "%s", fixture_path(zip));
    snprintf(zip, sizeof(zip), "hudi-rs/%s.zip", rel);
    json_error_t jerr;
    json_t *spec = json_load_file(exp, 0, &jerr);
    cr_assert(spec, "%s: %s", exp, jerr.text);
    const char *dir = fixture_unzip(zip);
    cr_assert_not_null(dir, "%s", zip);
    json_t *queries = json_object_get(spec, "expected");
    cr_assert_gt(json_array_size(queries), 0, "%s", rel);
    size_t i;
    json_t *e;
    json_array_foreach(queries, i, e) check_query(rel, dir, e);
    json_decref(spec);
}

#define MOR_TABLE(test, rel)                                                                       \
    Test(mor_read, test) { check_table(rel); }

/* Parquet log data blocks (v6, OverwriteWithLatestAvroPayload). */
MOR_TABLE(parquet_v6_empty, "sample_table/mor/parquet/v6_empty")
MOR_TABLE(parquet_v6_nonpartitioned, "sample_table/mor/parquet/v6_nonpartitioned")
/* A rolled-back deltacommit: its blocks must not count. */
MOR_TABLE(parquet_v6_nonpartitioned_rollback, "sample_table/mor/parquet/v6_nonpartitioned_rollback")
MOR_TABLE(parquet_v6_simplekeygen, "sample_table/mor/parquet/v6_simplekeygen_nonhivestyle")
/* Avro log data blocks; v9 event-time ordering. */
MOR_TABLE(avro_v9_complex_nometa, "sample_table/mor/avro/v9_txns_complex_nometa")
MOR_TABLE(avro_v9_nonpart_nometa, "sample_table/mor/avro/v9_txns_nonpart_nometa")
MOR_TABLE(avro_v9_simple_meta, "sample_table/mor/avro/v9_txns_simple_meta")
/* An update in an Avro log; a delete block of three keys; v8 updates, deletes, compaction. */
MOR_TABLE(trips_v6_8i1u, "quickstart_trips_table/mor/avro/v6_trips_8i1u")
MOR_TABLE(trips_v6_8i3d, "quickstart_trips_table/mor/avro/v6_trips_8i3d")
MOR_TABLE(trips_v8_8i3u1d, "quickstart_trips_table/mor/avro/v8_trips_8i3u1d")
/* Commit-time ordering; a wide nested schema; a file group of logs only. */
MOR_TABLE(pr602_commit_time, "pr602/mor/avro/v9_mor_8i4u_commit_time")
MOR_TABLE(pr602_column_projection, "pr602/mor/avro/table_column_projection")
MOR_TABLE(pr602_log_only, "pr602/mor/avro/table_log_only")

/* ---- merge rules on fixture tables with log blocks added here ------------------------------ */

/* The path of the one file under `dir` whose name matches the find(1) pattern `name`. */
static const char *find_file(const char *dir, const char *name) {
    static char out[4096];
    char cmd[4400];
    snprintf(cmd, sizeof(cmd), "find '%s' -name '%s' -not -path '*/.hoodie/*'", dir, name);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    cr_assert_not_null(fgets(out, sizeof(out), p), "no %s under %s", name, dir);
    pclose(p);
    out[strcspn(out, "\n")] = '\0';
    return out;
}

static void append_file(const char *path, const void *data, size_t len) {
    FILE *f = fopen(path, "ab");
    cr_assert_not_null(f, "%s", path);
    cr_assert_eq(fwrite(data, 1, len, f), len);
    fclose(f);
}

/* Every row of a snapshot of `dir` with `filter` (may be NULL); the reader's warning is copied to
 * `warning` when given. */
static hudi_batch *read_all(const char *dir, const char *filter, char *warning, size_t wlen) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    cr_assert_eq(hudi_tbl_open(&t, NULL, dir, &err), 0, "%s", err.message);
    hudi_scan_options o = HUDI_SCAN_OPTIONS_INIT;
    o.filter = filter;
    hudi_reader *r = NULL;
    cr_assert_eq(hudi_reader_open(&r, t, &o, &err), 0, "%s", err.message);
    /* the schema outlives the reader: a copy */
    hudi_field *schema = calloc(1, sizeof(hudi_field));
    cr_assert_eq(hudi_field_copy(schema, hudi_reader_schema(r)), 0);
    hudi_batch *got = NULL, *b;
    cr_assert_eq(hudi_batch_new(&got, schema, &err), 0);
    while (hudi_reader_next(r, &b, &err) == 0 && b) {
        for (int32_t c = 0; c < got->n_columns; c++)
            cr_assert_eq(
                hudi_array_append_range(got->columns[c], b->columns[c], 0, b->num_rows, &err), 0);
        got->num_rows += b->num_rows;
    }
    cr_assert_eq(err.code, 0, "%s", err.message);
    if (warning)
        snprintf(warning, wlen, "%s", hudi_reader_warning(r) ? hudi_reader_warning(r) : "");
    hudi_reader_free(r);
    hudi_tbl_free(t);
    return got;
}

static void free_rows(hudi_batch *b) {
    hudi_field *schema = (hudi_field *)b->schema;
    hudi_batch_free(b);
    hudi_field_dispose(schema);
    free(schema);
}

static int32_t col(const hudi_batch *b, const char *name) {
    for (int32_t c = 0; c < b->n_columns; c++)
        if (strcmp(b->schema->children[c].name, name) == 0) return c;
    cr_assert_fail("no column %s", name);
    return -1;
}

/* The row of record key `key`, or -1. */
static int64_t row_of(const hudi_batch *b, const char *key) {
    const hudi_array *a = b->columns[col(b, "_hoodie_record_key")];
    for (int64_t i = 0; i < b->num_rows; i++)
        if ((size_t)(a->offsets[i + 1] - a->offsets[i]) == strlen(key) &&
            memcmp(a->data + a->offsets[i], key, strlen(key)) == 0)
            return i;
    return -1;
}

static double fare_of(const hudi_batch *b, const char *key) {
    int64_t i = row_of(b, key);
    cr_assert_geq(i, 0, "no row %s", key);
    return ((const double *)b->columns[col(b, "fare")]->values)[i];
}

#define KEY_A "9909a8b1-2d15-4d3d-8ec9-efc48c536a00" /* fare 33.9 */
#define KEY_B "e96c4396-3fad-413a-a942-4cb36106d721" /* fare 27.7 */
#define KEY_C "1dced545-862b-4ceb-8b43-d2a568f6616b" /* fare 93.5 */
#define KEY_D "334e26e9-8355-45cc-97c6-c31daf0df330"

/* Replaces row 0's value of string column `name` in the one-row batch `b`. */
static void set_string(hudi_batch *b, const char *name, const char *v) {
    hudi_error err = HUDI_ERROR_INIT;
    int32_t c = col(b, name);
    hudi_array *a = NULL;
    cr_assert_eq(hudi_array_new(&a, b->columns[c]->field, &err), 0);
    cr_assert_eq(hudi_array_append_bytes(a, v, strlen(v), &err), 0);
    hudi_array_free(b->columns[c]);
    b->columns[c] = a;
}

#define KEY_X "00000000-0000-0000-0000-00000000000x" /* inserts */
#define KEY_Y "00000000-0000-0000-0000-00000000000y"

/* Appends a data block of one record: the template block's first record with `key`, `ts` and
 * `fare`, in partition city=san_francisco. */
static void add_record(hudi_buf *file, const hudi_log_block *tmpl, const hudi_avro_schema *avro,
                       const hudi_field *writer, const char *key, int64_t ts, double fare) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_batch *rec = NULL;
    cr_assert_eq(hudi_log_avro_block_read(&rec, tmpl, avro, writer, "log", &err), 0, "%s",
                 err.message);
    cr_assert_eq(rec->num_rows, 1);
    set_string(rec, "_hoodie_record_key", key);
    set_string(rec, "uuid", key);
    set_string(rec, "_hoodie_partition_path", "city=san_francisco");
    set_string(rec, "city", "san_francisco");
    ((int64_t *)rec->columns[col(rec, "ts")]->values)[0] = ts;
    ((double *)rec->columns[col(rec, "fare")]->values)[0] = fare;
    hudi_buf content = HUDI_BUF_INIT;
    cr_assert_eq(hudi_log_avro_block_encode(&content, rec, avro, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_log_block_write(file, HUDI_LOG_AVRO_DATA_BLOCK, tmpl->header,
                                      HUDI_SLICE(content.data, content.len), &err),
                 0);
    hudi_buf_dispose(&content);
    hudi_batch_free(rec);
}

/* Event-time ordering (v8, ts): a log update with a smaller ts loses to the base row, one with
 * a greater ts wins; a delete with a smaller ordering value leaves the base row, a delete
 * without one (Integer 0) removes it; a later update older than a delete's ordering value
 * stays deleted, one after a delete without ordering value comes back; predicates see the
 * merged rows. */
Test(mor_read, event_time_rules) {
    const char *dir = fixture_unzip("hudi-rs/quickstart_trips_table/mor/avro/v8_trips_8i3u1d.zip");
    cr_assert_not_null(dir);
    char base[4096];
    snprintf(base, sizeof(base), "%s", dir);
    hudi_error err = HUDI_ERROR_INIT;
    /* the writer schema and a record of the sao_paulo log's data block: the template */
    size_t len = 0;
    unsigned char *bytes = test_read_file(find_file(base, ".8aa68f7e*.log.*"), &len);
    cr_assert_not_null(bytes);
    hudi_log_blocks bl = HUDI_LOG_BLOCKS_INIT;
    cr_assert_eq(hudi_log_scan(&bl, HUDI_SLICE(bytes, len), "log", &err), 0, "%s", err.message);
    const hudi_log_block *data = NULL;
    for (size_t i = 0; i < bl.count; i++)
        if (bl.blocks[i].type == HUDI_LOG_AVRO_DATA_BLOCK) data = &bl.blocks[i];
    cr_assert_not_null(data);
    hudi_slice js = data->header[HUDI_LOG_SCHEMA];
    hudi_avro_schema *avro = NULL;
    hudi_field writer = {0};
    cr_assert_eq(hudi_avro_schema_parse(&avro, js, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_schema_parse_avro(&writer, (const char *)js.data, js.len, &err), 0);
    hudi_buf file = HUDI_BUF_INIT;
    add_record(&file, data, avro, &writer, KEY_A, 1, 1.0);
    add_record(&file, data, avro, &writer, KEY_B, 2000000000000, 2.0);
    add_record(&file, data, avro, &writer, KEY_X, 100, 3.0);
    add_record(&file, data, avro, &writer, KEY_Y, 100, 4.0);
    hudi_log_delete dels[4] = {
        {hudi_slice_cstr(KEY_C),
         hudi_slice_cstr("city=san_francisco"),
         {.kind = HUDI_LOG_ORDER_LONG, .i = 1}},
        {hudi_slice_cstr(KEY_D),
         hudi_slice_cstr("city=san_francisco"),
         {.kind = HUDI_LOG_ORDER_INT, .i = 0}},
        {hudi_slice_cstr(KEY_X),
         hudi_slice_cstr("city=san_francisco"),
         {.kind = HUDI_LOG_ORDER_LONG, .i = 200}},
        {hudi_slice_cstr(KEY_Y),
         hudi_slice_cstr("city=san_francisco"),
         {.kind = HUDI_LOG_ORDER_INT, .i = 0}},
    };
    hudi_buf content = HUDI_BUF_INIT;
    cr_assert_eq(hudi_log_delete_block_encode(&content, dels, 4, &err), 0, "%s", err.message);
    hudi_slice header[HUDI_LOG_META_KEYS] = {{0}};
    header[HUDI_LOG_INSTANT_TIME] = data->header[HUDI_LOG_INSTANT_TIME];
    cr_assert_eq(hudi_log_block_write(&file, HUDI_LOG_DELETE_BLOCK, header,
                                      HUDI_SLICE(content.data, content.len), &err),
                 0);
    hudi_buf_dispose(&content);
    /* after the deletes: X older than its delete (stays deleted), Y after a delete without
     * ordering value (back) */
    add_record(&file, data, avro, &writer, KEY_X, 150, 5.0);
    add_record(&file, data, avro, &writer, KEY_Y, 50, 6.0);
    /* a new log of the san_francisco file group, written by the last (completed) deltacommit */
    char path[4400];
    snprintf(path, sizeof(path),
             "%s/city=san_francisco/.036ded81-9ed4-479f-bcea-7145dfa0079b-0_%.*s.log.1_0-1-0", base,
             (int)data->header[HUDI_LOG_INSTANT_TIME].len,
             (const char *)data->header[HUDI_LOG_INSTANT_TIME].data);
    append_file(path, file.data, file.len);
    hudi_buf_dispose(&file);
    hudi_field_dispose(&writer);
    hudi_avro_schema_free(avro);
    hudi_log_blocks_dispose(&bl);
    free(bytes);

    hudi_batch *got = read_all(base, NULL, NULL, 0);
    cr_assert_eq(got->num_rows, 6); /* six, less KEY_D, plus KEY_Y */
    cr_assert_eq(fare_of(got, KEY_A), 33.9);
    cr_assert_eq(row_of(got, KEY_X), -1);
    cr_assert_eq(fare_of(got, KEY_Y), 6.0);
    cr_assert_eq(fare_of(got, KEY_B), 2.0);
    cr_assert_eq(fare_of(got, KEY_C), 93.5);
    cr_assert_eq(row_of(got, KEY_D), -1);
    free_rows(got);
    /* the filter applies to the merged rows, not to the base file's */
    got = read_all(base, "fare = 27.7", NULL, 0);
    cr_assert_eq(got->num_rows, 0);
    free_rows(got);
    got = read_all(base, "fare = 1.0", NULL, 0);
    cr_assert_eq(got->num_rows, 0);
    free_rows(got);
    got = read_all(base, "fare = 33.9", NULL, 0);
    cr_assert_eq(got->num_rows, 1);
    free_rows(got);
    got = read_all(base, "fare = 2.0", NULL, 0);
    cr_assert_eq(got->num_rows, 1);
    cr_assert_eq(row_of(got, KEY_B), 0);
    free_rows(got);
}

/* v6: the update of KEY_A (fare 33.9 -> 25.0) in the log; a rollback command block for its
 * instant drops it. */
Test(mor_read, rollback_command_block) {
    const char *dir = fixture_unzip("hudi-rs/quickstart_trips_table/mor/avro/v6_trips_8i1u.zip");
    cr_assert_not_null(dir);
    char base[4096];
    snprintf(base, sizeof(base), "%s", dir);
    hudi_batch *got = read_all(base, NULL, NULL, 0);
    cr_assert_eq(fare_of(got, KEY_A), 25.0);
    free_rows(got);
    hudi_error err = HUDI_ERROR_INIT;
    hudi_buf blk = HUDI_BUF_INIT;
    hudi_slice header[HUDI_LOG_META_KEYS] = {{0}};
    header[HUDI_LOG_INSTANT_TIME] = hudi_slice_cstr("20250331030645735");
    header[HUDI_LOG_TARGET_INSTANT_TIME] = hudi_slice_cstr("20250331030645735");
    header[HUDI_LOG_COMMAND_BLOCK_TYPE] = hudi_slice_cstr("0");
    cr_assert_eq(
        hudi_log_block_write(&blk, HUDI_LOG_COMMAND_BLOCK, header, HUDI_SLICE("", 0), &err), 0);
    append_file(find_file(base, "*.log.*"), blk.data, blk.len);
    hudi_buf_dispose(&blk);
    got = read_all(base, NULL, NULL, 0);
    cr_assert_eq(got->num_rows, 8);
    cr_assert_eq(fare_of(got, KEY_A), 33.9);
    free_rows(got);
}

/* Bytes after the last block that are no block: skipped, with a warning naming the log. */
Test(mor_read, corrupt_block_warns) {
    const char *dir = fixture_unzip("hudi-rs/quickstart_trips_table/mor/avro/v6_trips_8i1u.zip");
    cr_assert_not_null(dir);
    char base[4096];
    snprintf(base, sizeof(base), "%s", dir);
    static const char junk[] = "#HUDI#\0\0\0\0\0\0\0\x40 a torn block";
    append_file(find_file(base, "*.log.*"), junk, sizeof(junk) - 1);
    char warning[1024];
    hudi_batch *got = read_all(base, NULL, warning, sizeof(warning));
    cr_assert_eq(got->num_rows, 8);
    cr_assert_eq(fare_of(got, KEY_A), 25.0);
    cr_assert(strstr(warning, "1 corrupt log block skipped in ") && strstr(warning, ".log."), "%s",
              warning);
    free_rows(got);
}

/* hudi_reader_origin (what compaction copies by): only after hudi_reader_want_origin, only for
 * a slice's base rows, and a column is "as stored" exactly when no log record changed it. In
 * v6_trips_8i1u one log record updates a row's fare (and its commit time, sequence number and
 * file name: a log record names the log file's group) in one file group; its other columns, and
 * every column of the file groups without logs (read as they are, so without an origin), are the
 * base file's. */
Test(mor_read, origin_of_merged_batches) {
    const char *dir = fixture_unzip("hudi-rs/quickstart_trips_table/mor/avro/v6_trips_8i1u.zip");
    cr_assert_not_null(dir);
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    cr_assert_eq(hudi_tbl_open(&t, NULL, dir, &err), 0, "%s", err.message);
    for (int want = 0; want < 2; want++) {
        hudi_error_clear(&err);
        hudi_scan_options so = HUDI_SCAN_OPTIONS_INIT;
        hudi_reader *r = NULL;
        cr_assert_eq(hudi_reader_open(&r, t, &so, &err), 0, "%s", err.message);
        cr_assert_eq(hudi_reader_set_threads(r, 1, NULL, &err), 0);
        if (want) cr_assert_eq(hudi_reader_want_origin(r, &err), 0, "%s", err.message);
        const hudi_field *s = hudi_reader_schema(r);
        int merged = 0;
        hudi_batch *b;
        while (hudi_reader_next(r, &b, &err) == 0 && b) {
            hudi_read_origin o;
            hudi_reader_origin(r, &o);
            if (!want) {
                cr_assert_eq(o.row_group, -1);
                continue;
            }
            if (o.row_group < 0) continue;
            merged++;
            cr_assert_eq(o.first_row, 0);
            cr_assert_eq(o.rows, b->num_rows);
            cr_assert(strstr(o.base_path, ".parquet"));
            for (int32_t c = 0; c < s->n_children; c++) {
                const char *n = s->children[c].name;
                bool changed = !strcmp(n, "fare") || !strcmp(n, "_hoodie_commit_time") ||
                               !strcmp(n, "_hoodie_commit_seqno") ||
                               !strcmp(n, "_hoodie_file_name");
                cr_assert_eq(o.as_stored[c], !changed, "column %s", n);
            }
        }
        cr_assert_eq(err.code, 0, "%s", err.message);
        cr_assert_eq(merged, want ? 1 : 0, "merged base batches: %d", merged);
        cr_assert_eq(hudi_reader_want_origin(r, &err), HUDI_EINVAL, "too late once read");
        hudi_reader_free(r);
    }
    hudi_tbl_free(t);
}
