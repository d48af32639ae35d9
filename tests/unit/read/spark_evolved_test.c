/* spark_evolved_test.c - the schema-evolved tables Apache Hudi 0.15 wrote on Spark 3.5
 * (tests/data/spark-evolved: evolution on write through the datasource, and Spark SQL DDL with
 * schema on read) read by the library without Spark. Every row and column Spark read after the
 * last step (<table>.expected.json "rows", one JSON object per line) must come back: the
 * expected rows are parsed with the JSON Lines reader in the scan's own schema and compared as
 * values, row by row (matched on record key and partition path), column by column. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "format/json/jsonl.h"
#include "read/read.h"
#include "support.h"

typedef struct expected {
    unsigned char *text; /* the whole file; lines below point into it */
    char *columns[64];   /* Spark's column order */
    int n_columns;
    char *rows[64]; /* one JSON object each, NUL-terminated in place */
    size_t row_len[64];
    int n_rows;
} expected;

/* The quoted strings of the array that follows `key` (one per line, as the generator writes
 * "columns"), terminated in place. */
static void split_columns(expected *e, char *at) {
    char *end = strchr(at, ']');
    cr_assert_not_null(end);
    for (char *q = strchr(at, '"'); q && q < end; q = strchr(q, '"')) {
        char *close = strchr(q + 1, '"');
        cr_assert(close && close < end);
        *close = '\0';
        cr_assert_lt(e->n_columns, 64);
        e->columns[e->n_columns++] = q + 1;
        q = close + 1;
    }
}

/* "rows": one object per line until the line " ]". */
static void split_rows(expected *e, char *at) {
    char *line = strchr(at, '\n');
    cr_assert_not_null(line);
    line++;
    while (*line == '{') {
        char *nl = strchr(line, '\n');
        cr_assert_not_null(nl);
        char *last = nl - 1;
        if (*last == ',') last--;
        cr_assert_eq(*last, '}', "row line does not end with }");
        last[1] = '\0';
        cr_assert_lt(e->n_rows, 64);
        e->row_len[e->n_rows] = (size_t)(last + 1 - line);
        e->rows[e->n_rows++] = line;
        line = nl + 1;
    }
    cr_assert_eq(strncmp(line, " ]", 2), 0, "rows do not end with ' ]'");
}

static void expected_load(expected *e, const char *name) {
    char rel[256];
    snprintf(rel, sizeof(rel), "spark-evolved/%s.expected.json", name);
    size_t len = 0;
    memset(e, 0, sizeof(*e));
    e->text = test_read_file(fixture_path(rel), &len);
    cr_assert_not_null(e->text, "%s", rel);
    char *text = (char *)e->text;
    /* "rows" first: splitting "columns" writes NULs into the text before it. */
    char *rows = strstr(text, "\n \"rows\": [");
    cr_assert_not_null(rows, "%s: no rows", rel);
    split_rows(e, rows + 1);
    char *cols = strstr(text, "\n \"columns\": [");
    cr_assert(cols && cols < rows, "%s: no columns", rel);
    split_columns(e, cols + 12);
    cr_assert_gt(e->n_rows, 0);
}

static int column_index(const hudi_field *schema, const char *name) {
    for (int32_t i = 0; i < schema->n_children; i++)
        if (!strcmp(schema->children[i].name, name)) return i;
    return -1;
}

/* The text of row `row` of a STRING column (not NUL-terminated), or NULL when null. */
static const char *string_at(const hudi_array *a, int64_t row, size_t *len) {
    if (a->validity && !(a->validity[row >> 3] & (1u << (row & 7)))) return NULL;
    *len = (size_t)(a->offsets[row + 1] - a->offsets[row]);
    return (const char *)a->data + a->offsets[row];
}

static bool same_string(const hudi_array *a, int64_t i, const hudi_array *b, int64_t k) {
    size_t la = 0, lb = 0;
    const char *x = string_at(a, i, &la), *y = string_at(b, k, &lb);
    if (!x || !y) return x == y;
    return la == lb && !memcmp(x, y, la);
}

/* Reads table `name` and compares it with its expected rows. `ordered`: the columns must come
 * in Spark's order (tables with an InternalSchema, whose order both readers follow). */
static void check_table(const char *name, bool ordered) {
    expected e;
    expected_load(&e, name);
    char zip[256];
    snprintf(zip, sizeof(zip), "spark-evolved/%s.zip", name);
    const char *dir = fixture_unzip(zip);
    cr_assert_not_null(dir, "%s", zip);

    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = NULL;
    cr_assert_eq(hudi_tbl_open(&t, NULL, dir, &err), 0, "%s: %s", name, err.message);
    hudi_scan_options o = HUDI_SCAN_OPTIONS_INIT;
    hudi_reader *r = NULL;
    cr_assert_eq(hudi_reader_open(&r, t, &o, &err), 0, "%s: %s", name, err.message);
    const hudi_field *schema = hudi_reader_schema(r);

    /* the columns: Spark's, in its order where both follow the InternalSchema */
    cr_assert_eq(schema->n_children, e.n_columns, "%s: %d columns, Spark reads %d", name,
                 (int)schema->n_children, e.n_columns);
    for (int i = 0; i < e.n_columns; i++) {
        int at = column_index(schema, e.columns[i]);
        cr_assert_geq(at, 0, "%s: no column %s", name, e.columns[i]);
        if (ordered)
            cr_assert_eq(at, i, "%s: column %s at %d, Spark has it at %d", name, e.columns[i], at,
                         i);
    }

    /* every row hudic reads, in one batch */
    hudi_batch *got = NULL;
    cr_assert_eq(hudi_batch_new(&got, schema, &err), 0);
    hudi_batch *b;
    while (hudi_reader_next(r, &b, &err) == 0 && b) {
        for (int32_t c = 0; c < got->n_columns; c++)
            cr_assert_eq(
                hudi_array_append_range(got->columns[c], b->columns[c], 0, b->num_rows, &err), 0,
                "%s", err.message);
        got->num_rows += b->num_rows;
    }
    cr_assert_eq(err.code, 0, "%s: %s", name, err.message);

    /* Spark's rows in the same schema */
    hudi_batch *want = NULL;
    cr_assert_eq(hudi_batch_new(&want, schema, &err), 0);
    for (int i = 0; i < e.n_rows; i++)
        cr_assert_eq(hudi_jsonl_parse_row(want, e.rows[i], e.row_len[i], i + 1, NULL, &err), 0,
                     "%s: expected row: %s", name, err.message);
    cr_assert_eq(got->num_rows, want->num_rows, "%s: %lld rows, Spark reads %lld", name,
                 (long long)got->num_rows, (long long)want->num_rows);

    int key = column_index(schema, "_hoodie_record_key");
    int part = column_index(schema, "_hoodie_partition_path");
    cr_assert(key >= 0 && part >= 0);
    for (int64_t k = 0; k < want->num_rows; k++) {
        int64_t i = 0;
        while (i < got->num_rows && !(same_string(got->columns[key], i, want->columns[key], k) &&
                                      same_string(got->columns[part], i, want->columns[part], k)))
            i++;
        cr_assert_lt(i, got->num_rows, "%s: Spark's row %s is missing", name, e.rows[k]);
        for (int32_t c = 0; c < schema->n_children; c++) {
            hudi_array *x = NULL, *y = NULL;
            cr_assert_eq(hudi_array_slice(&x, got->columns[c], i, 1, &err), 0);
            cr_assert_eq(hudi_array_slice(&y, want->columns[c], k, 1, &err), 0);
            hudi_buf why = {0};
            bool eq = hudi_array_equal(x, y, &why);
            cr_assert(eq, "%s: column %s differs from Spark's row %s: %s", name,
                      schema->children[c].name, e.rows[k], why.data ? why.data : "");
            hudi_buf_dispose(&why);
            hudi_array_free(x);
            hudi_array_free(y);
        }
    }
    hudi_batch_free(want);
    hudi_batch_free(got);
    hudi_reader_free(r);
    hudi_tbl_free(t);
    free(e.text);
}

/* Hudi's "Schema Evolution in Action": an upsert adds newField and makes intToLong a long; the
 * upsert rewrote the only file group. */
Test(spark_evolved, onwrite_seed) { check_table("onwrite_seed", false); }

/* The same schemas, the second write into a new partition: the old file has intToLong INT32
 * and no newField (read as long and null). */
Test(spark_evolved, onwrite_newpart) { check_table("onwrite_newpart", false); }

/* A struct gained a field, list<int> became list<long>, map<string,int> became
 * map<string,double>; partition p1 keeps its old file (2-level lists, as Hudi writes them). */
Test(spark_evolved, onwrite_nested) { check_table("onwrite_nested", false); }

/* Schema on read: drop col1, rename col2 to col1, insert: the first file's col1 is the old
 * col2 (by id), not its own col1. */
Test(spark_evolved, sor_rename_drop) { check_table("sor_rename_drop", true); }

/* Schema on read: ADD (top-level AFTER, nested AFTER), ALTER TYPE int->bigint,
 * double->string, float->decimal(10, 2), RENAME (top-level, nested), DROP, a dropped name
 * added again (no resurrection), an UPDATE; one live file per insert. */
Test(spark_evolved, sor_ddl) { check_table("sor_ddl", true); }
