/* key_probe_test.c - a point lookup by record key on a table of several base files skips the
 * files whose footer key range or bloom filter excludes the key (never reading their pages)
 * and still returns exactly the matching rows. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "read/read.h"
#include "support.h"
#include "write/write.h"

#define FILES 4
#define PER_FILE 50

/* Key of row i: interleaved over the files so every file's min/max range spans the others'
 * keys (file f holds rows i with i % FILES == f): only the bloom filter can tell them apart. */
static void key_of(char *out, size_t n, int i) { snprintf(out, n, "key-%05d", i); }

static void schema(hudi_field *out) {
    cr_assert_eq(hudi_field_init(out, "rec", HUDI_TYPE_STRUCT, false), 0);
    cr_assert_eq(hudi_field_set_children(out, 2), 0);
    hudi_field_init(&out->children[0], "k", HUDI_TYPE_STRING, true);
    hudi_field_init(&out->children[1], "v", HUDI_TYPE_INT64, true);
}

/* A non-partitioned table keyed by k, written in FILES insert commits of PER_FILE rows each;
 * small-file handling off, so each commit writes a new base file. `keygen` NULL = inferred
 * (NonpartitionedKeyGenerator); `props` extra table properties. */
static hudi_table *make_table(hudi_fs **fs, const char *keygen, const char *const *props) {
    hudi_field s = {0};
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    schema(&s);
    cr_assert_eq(hudi_fs_memory_new(fs, NULL), 0);
    hudi_create_options o = HUDI_CREATE_OPTIONS_INIT;
    o.table_name = "kp";
    o.record_key_fields = "k";
    o.keygen_class = keygen;
    o.schema = &s;
    static const char *const small[] = {"hoodie.index.bloom.num_entries", "100", NULL};
    o.extra_props = props ? props : small;
    cr_assert_eq(hudi_tbl_create(&t, *fs, "/mem/kp", &o, &err), 0, "%s", err.message);
    for (int f = 0; f < FILES; f++) {
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_batch_new(&b, &s, NULL), 0);
        for (int j = 0; j < PER_FILE; j++) {
            char k[32];
            int64_t v = j * FILES + f;
            key_of(k, sizeof(k), (int)v);
            cr_assert_eq(hudi_array_append_bytes(b->columns[0], k, strlen(k), NULL), 0);
            cr_assert_eq(hudi_array_append_fixed(b->columns[1], &v, NULL), 0);
        }
        b->num_rows = PER_FILE;
        hudi_write_options wo = HUDI_WRITE_OPTIONS_INIT;
        hudi_table_write_result res;
        wo.op = HUDI_WRITE_INSERT;
        wo.small_file_bytes = 1;
        cr_assert_eq(hudi_tbl_write(t, b, &wo, &res, &err), 0, "%s", err.message);
        hudi_batch_free(b);
    }
    hudi_field_dispose(&s);
    cr_assert_eq(hudi_tbl_reload(t, &err), 0, "%s", err.message);
    return t;
}

typedef struct result {
    int64_t rows;         /* rows returned */
    int64_t v_sum;        /* sum of v over them */
    int64_t skipped_keys; /* files skipped by key range / bloom filter */
    int64_t files_total;
    int64_t probed; /* files hudi_reader_probe_file says are skipped by keys */
} result;

/* Reads k, v with `preds` (and an IN list on `in_col` when given), counting rows and probing
 * every file as EXPLAIN does. Rows of an IN list are filtered here, as its caller would. */
static result query(hudi_table *t, const hudi_read_predicate *preds, int32_t n, const char *in_col,
                    const char *const *in, int32_t n_in) {
    static const char *const cols[] = {"k", "v"};
    hudi_scan_options o = HUDI_SCAN_OPTIONS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_reader *r = NULL;
    result res = {0};
    o.columns = cols;
    o.n_columns = 2;
    cr_assert_eq(hudi_reader_open_preds(&r, t, &o, preds, n, &err), 0, "%s", err.message);
    if (in_col) {
        hudi_value vals[8] = {{0}};
        for (int32_t i = 0; i < n_in; i++) vals[i].bytes = hudi_slice_cstr(in[i]);
        cr_assert_eq(hudi_reader_want_keys(r, in_col, vals, n_in, &err), 0, "%s", err.message);
    }
    for (size_t i = 0; i < hudi_reader_file_count(r); i++) {
        int64_t rgs = 0, skipped = 0;
        bool by_keys = false;
        cr_assert_eq(hudi_reader_probe_file(r, i, &rgs, &skipped, &by_keys, &err), 0, "%s",
                     err.message);
        cr_assert(!by_keys || skipped == rgs);
        res.probed += by_keys;
    }
    hudi_batch *b;
    while (hudi_reader_next(r, &b, &err) == 0 && b) {
        const hudi_array *k = b->columns[0], *v = b->columns[1];
        for (int64_t i = 0; i < b->num_rows; i++) {
            hudi_slice key =
                HUDI_SLICE(k->data + k->offsets[i], (size_t)(k->offsets[i + 1] - k->offsets[i]));
            bool keep = !in_col;
            for (int32_t j = 0; j < n_in && !keep; j++)
                keep = hudi_slice_eq(key, hudi_slice_cstr(in[j]));
            if (!keep) continue;
            res.rows++;
            res.v_sum += ((const int64_t *)v->values)[i];
        }
    }
    cr_assert_eq(err.code, 0, "%s", err.message);
    const hudi_read_stats *st = hudi_reader_stats(r);
    res.skipped_keys = st->files_skipped_keys;
    res.files_total = st->files_total;
    cr_assert_eq(st->files_opened, st->files_total); /* footers of all, pages of the kept */
    hudi_reader_free(r);
    return res;
}

static hudi_read_predicate eq(const char *col, const char *key) {
    return (hudi_read_predicate){col, HUDI_CMP_EQ, {.bytes = hudi_slice_cstr(key)}};
}

Test(key_probe, point_lookup_skips_other_files_by_bloom_filter) {
    hudi_fs *fs = NULL;
    hudi_table *t = make_table(&fs, NULL, NULL);
    for (int i = 0; i < FILES * PER_FILE; i += 37) {
        char k[32];
        key_of(k, sizeof(k), i);
        hudi_read_predicate p = eq("k", k);
        result r = query(t, &p, 1, NULL, NULL, 0);
        cr_assert_eq(r.files_total, FILES);
        cr_assert_eq(r.rows, 1, "key %s", k);
        cr_assert_eq(r.v_sum, i);
        cr_assert_eq(r.skipped_keys, FILES - 1, "key %s: %lld files skipped", k,
                     (long long)r.skipped_keys);
        cr_assert_eq(r.probed, FILES - 1);
        /* the same through the meta column */
        p = eq("_hoodie_record_key", k);
        r = query(t, &p, 1, NULL, NULL, 0);
        cr_assert_eq(r.rows, 1);
        cr_assert_eq(r.v_sum, i);
        cr_assert_eq(r.skipped_keys, FILES - 1);
    }
    hudi_tbl_free(t);
    hudi_fs_free(fs);
}

Test(key_probe, absent_keys_skip_every_file) {
    hudi_fs *fs = NULL;
    hudi_table *t = make_table(&fs, NULL, NULL);
    /* inside every file's key range (bloom filter), and outside all ranges (min/max) */
    const char *absent[] = {"key-00010x", "key-00100.5", "aaa", "zzz"};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(absent); i++) {
        hudi_read_predicate p = eq("k", absent[i]);
        result r = query(t, &p, 1, NULL, NULL, 0);
        cr_assert_eq(r.rows, 0);
        cr_assert_eq(r.skipped_keys, FILES, "%s", absent[i]);
        cr_assert_eq(r.probed, FILES);
    }
    hudi_tbl_free(t);
    hudi_fs_free(fs);
}

Test(key_probe, bloom_maybe_without_a_matching_row) {
    hudi_fs *fs = NULL;
    /* A 2-bit SIMPLE filter: every bit set, so it says "maybe" for any key in range. */
    static const char *const props[] = {"hoodie.index.bloom.num_entries",
                                        "1",
                                        "hoodie.index.bloom.fpp",
                                        "0.5",
                                        "hoodie.bloom.index.filter.type",
                                        "SIMPLE",
                                        NULL};
    hudi_table *t = make_table(&fs, NULL, props);
    hudi_read_predicate p = eq("k", "key-00010x");
    result r = query(t, &p, 1, NULL, NULL, 0);
    cr_assert_eq(r.rows, 0);
    cr_assert_eq(r.skipped_keys, 0); /* every file read, no row returned */
    p = eq("k", "key-00010");
    r = query(t, &p, 1, NULL, NULL, 0);
    cr_assert_eq(r.rows, 1);
    cr_assert_eq(r.v_sum, 10);
    /* key range still applies */
    p = eq("k", "zzz");
    r = query(t, &p, 1, NULL, NULL, 0);
    cr_assert_eq(r.rows, 0);
    cr_assert_eq(r.skipped_keys, FILES);
    hudi_tbl_free(t);
    hudi_fs_free(fs);

    /* The bloom filter says maybe (the key is in the file) but another predicate excludes the
     * row: the file is read and nothing returned. */
    t = make_table(&fs, NULL, NULL);
    hudi_read_predicate two[2] = {eq("k", "key-00010"), {"v", HUDI_CMP_GT, {.i64 = 10}}};
    r = query(t, two, 2, NULL, NULL, 0);
    cr_assert_eq(r.rows, 0);
    cr_assert_eq(r.skipped_keys, FILES - 1);
    two[1].op = HUDI_CMP_EQ;
    r = query(t, two, 2, NULL, NULL, 0);
    cr_assert_eq(r.rows, 1);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
}

Test(key_probe, in_list) {
    hudi_fs *fs = NULL;
    hudi_table *t = make_table(&fs, NULL, NULL);
    /* keys of files 0 and 2 (i % FILES), one absent key */
    const char *in[] = {"key-00004", "key-00006", "key-00100", "nope"};
    result r = query(t, NULL, 0, "k", in, 4);
    cr_assert_eq(r.rows, 3);
    cr_assert_eq(r.v_sum, 4 + 6 + 100);
    cr_assert_eq(r.skipped_keys, FILES - 2);
    cr_assert_eq(r.probed, FILES - 2);
    /* an IN list on another column restricts nothing */
    r = query(t, NULL, 0, "v", in, 4);
    cr_assert_eq(r.skipped_keys, 0);
    /* ANDed with an equality, the smaller set wins: one file */
    hudi_read_predicate p = eq("_hoodie_record_key", "key-00006");
    r = query(t, &p, 1, "k", in, 4);
    cr_assert_eq(r.skipped_keys, FILES - 1);
    cr_assert_eq(r.rows, 1);
    cr_assert_eq(r.v_sum, 6);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
}

Test(key_probe, complex_key_generator_reads_every_file) {
    hudi_fs *fs = NULL;
    /* ComplexKeyGenerator keys are "k:key-00010" (keys.md §3): k's value is not the key. */
    hudi_table *t = make_table(&fs, "org.apache.hudi.keygen.ComplexKeyGenerator", NULL);
    hudi_read_predicate p = eq("k", "key-00010");
    result r = query(t, &p, 1, NULL, NULL, 0);
    cr_assert_eq(r.rows, 1);
    cr_assert_eq(r.v_sum, 10);
    cr_assert_eq(r.skipped_keys, 0);
    cr_assert_eq(r.probed, 0);
    /* the meta column holds the real key and is probed */
    p = eq("_hoodie_record_key", "k:key-00010");
    r = query(t, &p, 1, NULL, NULL, 0);
    cr_assert_eq(r.rows, 1);
    cr_assert_eq(r.skipped_keys, FILES - 1);
    p = eq("_hoodie_record_key", "key-00010");
    r = query(t, &p, 1, NULL, NULL, 0);
    cr_assert_eq(r.rows, 0);
    cr_assert_eq(r.skipped_keys, FILES);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
}
