/* mor_read_test.c - merged snapshot reads of the merge-on-read tables of tests/data/hudi-rs
 * (read/mor.h): every query of each table's expected.json (snapshot, read-optimized, time
 * travel, incremental) must return exactly its rows. Rows are matched as a multiset on every
 * value of the expected row that is a JSON string, integer, real or boolean in a column of
 * that type (strings, integers, doubles, booleans: the record key, commit time, partition
 * path, the ordering field and the data columns); other types are compared by the CLI test
 * (tests/conformance/test_hudi_fixtures.py). Then the merge rules on synthetic cases. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "read/read.h"
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
