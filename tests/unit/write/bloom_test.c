/* bloom_test.c - Hudi bloom filters: Hadoop murmur vectors, sizing, positions, and every
 * fixture base file's footer filter (membership of its keys, re-serialization byte-exact). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "table/bloom.h"
#include "write_fixtures.h"

Test(bloom, murmur_vectors_from_spec) {
    static const struct {
        const char *key;
        int32_t h0, hm1;
    } v[] = {
        {"1", 1228156847, 886594861},
        {"ab", 1525573013, -1797532438},
        {"abc", 1775488903, -1465591341},
        {"abcd", 646393889, 1555318719},
        {"id:1,name:Alice", 71696166, 669643219},
        {"9909a8b1-2d15-4d3d-8ec9-efc48c536a00", -1911656114, 1952946473},
        {"\xc3\xa9", -384040333, -1125067414},
        {"\xe6\x97\xa5\xe6\x9c\xac", 659168028, -727673871},
    };
    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
        size_t n = strlen(v[i].key);
        cr_expect_eq(hudi_murmur_hadoop(v[i].key, n, 0), v[i].h0, "%s seed 0", v[i].key);
        cr_expect_eq(hudi_murmur_hadoop(v[i].key, n, -1), v[i].hm1, "%s seed -1", v[i].key);
    }
}

Test(bloom, default_sizing_and_positions) {
    int32_t v, k;
    cr_assert_eq(hudi_bloom_size(60000, 0.000000001, &v, &k, NULL), 0);
    cr_expect_eq(v, 2587966);
    cr_expect_eq(k, 30);
    cr_expect_lt(hudi_bloom_size(0, 0.1, &v, &k, NULL), 0);
    cr_expect_lt(hudi_bloom_size(10, 1.5, &v, &k, NULL), 0);

    /* the first ten positions of docs/formats/base-files.md §4.2 for key "1" */
    static const uint32_t want[] = {1460963, 105785,  1189081, 2066078, 47219,
                                    588992,  1488581, 1702643, 2490016, 883953};
    hudi_bloom *bf = NULL;
    cr_assert_eq(hudi_bloom_new(&bf, HUDI_BLOOM_SIMPLE, 60000, 0.000000001, 0, NULL), 0);
    cr_assert_eq(hudi_bloom_add(bf, "1", 1, NULL), 0);
    for (size_t i = 0; i < 10; i++) cr_expect(hudi_bit_get(bf->rows[0], want[i]), "pos %zu", i);
    int64_t set = hudi_bitmap_count(bf->rows[0], 0, bf->vector_bits);
    cr_expect_eq(set, 30);
    cr_expect(hudi_bloom_test(bf, "1", 1));
    cr_expect(!hudi_bloom_test(bf, "2", 1));
    hudi_error err = HUDI_ERROR_INIT;
    cr_expect_eq(hudi_bloom_add(bf, "", 0, &err), HUDI_EINVAL);
    hudi_bloom_free(bf);
}

Test(bloom, simple_roundtrip_and_layout) {
    hudi_bloom *bf = NULL, *back = NULL;
    hudi_buf raw = HUDI_BUF_INIT, raw2 = HUDI_BUF_INIT, b64 = HUDI_BUF_INIT;
    cr_assert_eq(hudi_bloom_new(&bf, HUDI_BLOOM_SIMPLE, 100, 0.01, 0, NULL), 0);
    for (int i = 0; i < 100; i++) {
        char key[32];
        int n = snprintf(key, sizeof(key), "key-%d", i);
        cr_assert_eq(hudi_bloom_add(bf, key, (size_t)n, NULL), 0);
    }
    cr_assert_eq(hudi_bloom_serialize(bf, &raw, NULL), 0);
    cr_assert_eq(raw.len, 13 + ((size_t)bf->vector_bits + 7) / 8);
    static const uint8_t hdr[5] = {0xff, 0xff, 0xff, 0xff, 0};
    cr_expect_eq(memcmp(raw.data, hdr, 4), 0);
    cr_expect_eq((uint8_t)raw.data[8], 1); /* murmur */
    cr_assert_eq(hudi_bloom_to_base64(bf, &b64, NULL), 0);
    cr_assert_eq(
        hudi_bloom_parse_base64(&back, HUDI_BLOOM_SIMPLE, HUDI_SLICE(b64.data, b64.len), NULL), 0);
    cr_assert_eq(hudi_bloom_serialize(back, &raw2, NULL), 0);
    cr_expect(raw.len == raw2.len && memcmp(raw.data, raw2.data, raw.len) == 0);
    cr_expect(hudi_bloom_test(back, "key-7", 5));
    (void)hdr;
    hudi_bloom_free(bf);
    hudi_bloom_free(back);
    hudi_buf_dispose(&raw);
    hudi_buf_dispose(&raw2);
    hudi_buf_dispose(&b64);
}

Test(bloom, dynamic_rows_grow_then_round_robin) {
    hudi_bloom *bf = NULL;
    /* 10 per row, max 30: rows 0..2 filled, then row 0 twice (Java quirk), then 1, 2, ... */
    cr_assert_eq(hudi_bloom_new(&bf, HUDI_BLOOM_DYNAMIC_V0, 10, 0.01, 30, NULL), 0);
    for (int i = 0; i < 35; i++) {
        char key[16];
        int n = snprintf(key, sizeof(key), "k%d", i);
        cr_assert_eq(hudi_bloom_add(bf, key, (size_t)n, NULL), 0);
    }
    cr_expect_eq(bf->n_rows, 3);
    cr_expect(bf->reached_max);
    cr_expect_eq(bf->current_count, 15);
    cr_expect_eq(bf->cur_index, 4);
    for (int i = 0; i < 35; i++) {
        char key[16];
        int n = snprintf(key, sizeof(key), "k%d", i);
        cr_expect(hudi_bloom_test(bf, key, (size_t)n), "%s", key);
    }
    hudi_buf raw = HUDI_BUF_INIT;
    hudi_bloom *back = NULL;
    cr_assert_eq(hudi_bloom_serialize(bf, &raw, NULL), 0);
    cr_assert_eq(
        hudi_bloom_parse(&back, HUDI_BLOOM_DYNAMIC_V0, HUDI_SLICE(raw.data, raw.len), NULL), 0);
    cr_expect_eq(back->n_rows, 3);
    cr_expect_eq(back->entries_per_row, 10);
    cr_expect_eq(back->current_count, 15);
    cr_expect(hudi_bloom_test(back, "k34", 3));
    hudi_bloom_free(back);
    hudi_bloom_free(bf);
    hudi_buf_dispose(&raw);
}

static void add_keys(hudi_bloom *bf, int from, int to) {
    for (int i = from; i < to; i++) {
        char key[16];
        int n = snprintf(key, sizeof(key), "k%d", i);
        cr_assert_eq(hudi_bloom_add(bf, key, (size_t)n, NULL), 0);
    }
}

/* A filter parsed back after n keys continues as the filter that never left memory: before the
 * first row is full, at a row boundary, past the maximum (round-robin rows, whose index is not
 * serialized) - 12 more keys give the same bytes as a fresh filter of all n + 12. A count the
 * filter does not hold, or another sizing, is refused. */
Test(bloom, parsed_filter_continues) {
    static const int counts[] = {0, 1, 9, 10, 11, 29, 30, 31, 32, 35, 47};
    for (size_t c = 0; c < HUDI_ARRAY_LEN(counts); c++) {
        int n = counts[c];
        hudi_bloom *bf = NULL, *back = NULL, *all = NULL;
        hudi_buf raw = HUDI_BUF_INIT, a = HUDI_BUF_INIT, b = HUDI_BUF_INIT;
        cr_assert_eq(hudi_bloom_new(&bf, HUDI_BLOOM_DYNAMIC_V0, 10, 0.01, 30, NULL), 0);
        add_keys(bf, 0, n);
        cr_assert_eq(hudi_bloom_serialize(bf, &raw, NULL), 0);
        cr_assert_eq(
            hudi_bloom_parse(&back, HUDI_BLOOM_DYNAMIC_V0, HUDI_SLICE(raw.data, raw.len), NULL), 0);
        cr_expect(!hudi_bloom_continues(back, HUDI_BLOOM_DYNAMIC_V0, 10, 0.01, 30, n + 1),
                  "%d keys taken for %d", n, n + 1);
        cr_expect(!hudi_bloom_continues(back, HUDI_BLOOM_DYNAMIC_V0, 11, 0.01, 30, n), "%d", n);
        cr_expect(!hudi_bloom_continues(back, HUDI_BLOOM_SIMPLE, 10, 0.01, 30, n), "%d", n);
        cr_assert(hudi_bloom_continues(back, HUDI_BLOOM_DYNAMIC_V0, 10, 0.01, 30, n), "%d", n);
        cr_expect_eq(back->reached_max, bf->reached_max, "%d", n);
        cr_expect_eq(back->cur_index, bf->cur_index, "%d", n);
        add_keys(back, n, n + 12);
        cr_assert_eq(hudi_bloom_new(&all, HUDI_BLOOM_DYNAMIC_V0, 10, 0.01, 30, NULL), 0);
        add_keys(all, 0, n + 12);
        cr_assert_eq(hudi_bloom_serialize(back, &a, NULL), 0);
        cr_assert_eq(hudi_bloom_serialize(all, &b, NULL), 0);
        cr_expect(a.len == b.len && memcmp(a.data, b.data, a.len) == 0, "%d keys: bytes differ", n);
        hudi_bloom_free(bf);
        hudi_bloom_free(back);
        hudi_bloom_free(all);
        hudi_buf_dispose(&raw);
        hudi_buf_dispose(&a);
        hudi_buf_dispose(&b);
    }
}

/* Keys of many lengths (1..140 bytes, bytes >= 0x80 in the tails), in runs of one length so
 * that the several-keys-at-once path runs, and singles between them. */
static size_t make_keys(char (*buf)[160], hudi_slice *keys, size_t max) {
    static const size_t run_lens[] = {36, 4, 3, 8, 1, 13, 128, 129, 140, 2};
    uint32_t x = 12345;
    size_t n = 0;
    for (size_t r = 0; n < max; r++) {
        size_t len = run_lens[r % HUDI_ARRAY_LEN(run_lens)];
        size_t count = r % 3 == 2 ? 1 : 8 + r % 11; /* a lone key, or runs of 8..18 */
        for (size_t c = 0; c < count && n < max; c++, n++) {
            for (size_t b = 0; b < len; b++) {
                x = x * 1103515245u + 12345u;
                buf[n][b] = (char)(x >> 16);
            }
            if (r % 4 == 1) buf[n][0] = '\0'; /* NUL bytes are key bytes too */
            keys[n] = HUDI_SLICE(buf[n], len);
        }
    }
    return n;
}

/* add_many sets exactly the bits of Hadoop's chained hashes (hudi_murmur_hadoop, seeded by
 * the previous hash, Java remainder), for every key in order. */
Test(bloom, add_many_matches_chained_murmur) {
    static char buf[600][160];
    static hudi_slice keys[600];
    size_t n = make_keys(buf, keys, 600);
    static const int32_t entries[] = {60000, 100, 7};
    for (size_t e = 0; e < HUDI_ARRAY_LEN(entries); e++) {
        hudi_bloom *bf = NULL;
        cr_assert_eq(hudi_bloom_new(&bf, HUDI_BLOOM_SIMPLE, entries[e], 0.000000001, 0, NULL), 0);
        cr_assert_eq(hudi_bloom_add_many(bf, keys, n, NULL), 0);
        size_t nbytes = ((size_t)bf->vector_bits + 7) / 8;
        uint8_t *want = calloc(1, nbytes);
        cr_assert(want);
        for (size_t k = 0; k < n; k++) {
            int32_t h = 0;
            for (int32_t i = 0; i < bf->num_hashes; i++) {
                h = hudi_murmur_hadoop(keys[k].data, keys[k].len, h);
                int32_t r = h % bf->vector_bits;
                hudi_bit_set(want, r < 0 ? -r : r);
            }
        }
        cr_expect_eq(memcmp(want, bf->rows[0], nbytes), 0, "%d entries", entries[e]);
        for (size_t k = 0; k < n; k++)
            cr_expect(hudi_bloom_test(bf, keys[k].data, keys[k].len), "key %zu", k);
        free(want);
        hudi_bloom_free(bf);
    }
}

/* A DYNAMIC_V0 filter growing rows and reaching its maximum in the middle of a batch: the
 * same bytes from add_many as from one add per key. */
Test(bloom, add_many_equals_add_dynamic) {
    static char buf[600][160];
    static hudi_slice keys[600];
    size_t n = make_keys(buf, keys, 600);
    hudi_bloom *a = NULL, *b = NULL;
    cr_assert_eq(hudi_bloom_new(&a, HUDI_BLOOM_DYNAMIC_V0, 50, 0.001, 170, NULL), 0);
    cr_assert_eq(hudi_bloom_new(&b, HUDI_BLOOM_DYNAMIC_V0, 50, 0.001, 170, NULL), 0);
    cr_assert_eq(hudi_bloom_add_many(a, keys, 100, NULL), 0);
    cr_assert_eq(hudi_bloom_add_many(a, keys + 100, n - 100, NULL), 0);
    for (size_t k = 0; k < n; k++)
        cr_assert_eq(hudi_bloom_add(b, keys[k].data, keys[k].len, NULL), 0);
    hudi_buf ra = HUDI_BUF_INIT, rb = HUDI_BUF_INIT;
    cr_assert_eq(hudi_bloom_serialize(a, &ra, NULL), 0);
    cr_assert_eq(hudi_bloom_serialize(b, &rb, NULL), 0);
    cr_expect_eq(a->n_rows, 4);
    cr_expect(a->reached_max);
    cr_expect(ra.len == rb.len && memcmp(ra.data, rb.data, ra.len) == 0);
    cr_expect_eq(a->cur_index, b->cur_index);
    /* an empty key fails where one add per key would, the keys before it added */
    hudi_slice with_empty[12];
    for (int i = 0; i < 12; i++) with_empty[i] = keys[i];
    with_empty[9] = HUDI_SLICE("", 0);
    int32_t before = a->current_count;
    hudi_error err = HUDI_ERROR_INIT;
    cr_expect_eq(hudi_bloom_add_many(a, with_empty, 12, &err), HUDI_EINVAL);
    cr_expect_eq(a->current_count, before + 9);
    hudi_error_clear(&err);
    hudi_buf_dispose(&ra);
    hudi_buf_dispose(&rb);
    hudi_bloom_free(a);
    hudi_bloom_free(b);
}

/* hudi_bloom_probe_base64 answers as parse + test, for SIMPLE and multi-row DYNAMIC_V0 filters,
 * key by key and for sets; a filter whose shape the parse rejects is rejected too. */
static void probe_matches(hudi_bloom_type type) {
    hudi_bloom *bf = NULL, *back = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_bloom_new(&bf, type, 50, 0.05, 150, NULL), 0);
    char key[32];
    for (int i = 0; i < 140; i++) {
        int n = snprintf(key, sizeof(key), "key-%d", i * 3);
        cr_assert_eq(hudi_bloom_add(bf, key, (size_t)n, NULL), 0);
    }
    hudi_buf b64 = HUDI_BUF_INIT;
    cr_assert_eq(hudi_bloom_to_base64(bf, &b64, NULL), 0);
    hudi_slice text = HUDI_SLICE(b64.data, b64.len);
    cr_assert_eq(hudi_bloom_parse_base64(&back, type, text, NULL), 0);
    int hits = 0;
    for (int i = 0; i < 600; i++) {
        int n = snprintf(key, sizeof(key), "key-%d", i);
        hudi_slice one = HUDI_SLICE(key, (size_t)n);
        bool maybe = !hudi_bloom_test(back, key, (size_t)n);
        cr_assert_eq(hudi_bloom_probe_base64(type, text, &one, 1, &maybe, &err), 0, "%s",
                     err.message);
        cr_expect_eq(maybe, hudi_bloom_test(back, key, (size_t)n), "%s", key);
        hits += maybe;
    }
    cr_expect_gt(hits, 140); /* every added key, and some false positives at fpp 0.05 */
    cr_expect_lt(hits, 600);
    hudi_slice two[2] = {HUDI_SLICE("absent-a", 8), HUDI_SLICE("key-3", 5)};
    bool maybe = false;
    cr_assert_eq(hudi_bloom_probe_base64(type, text, two, 2, &maybe, NULL), 0);
    cr_expect(maybe);
    /* shapes: four characters short or long, a bad character in the header */
    hudi_slice shorter = HUDI_SLICE(b64.data, b64.len - 4);
    cr_expect_eq(hudi_bloom_probe_base64(type, shorter, two, 2, &maybe, NULL), HUDI_ECORRUPT);
    hudi_buf longer = HUDI_BUF_INIT;
    hudi_buf_printf(&longer, "%sAAAA", b64.data);
    cr_expect_eq(
        hudi_bloom_probe_base64(type, HUDI_SLICE(longer.data, longer.len), two, 2, &maybe, NULL),
        HUDI_ECORRUPT);
    b64.data[2] = '!';
    cr_expect_eq(hudi_bloom_probe_base64(type, text, two, 2, &maybe, &err), HUDI_ECORRUPT);
    hudi_buf_dispose(&longer);
    hudi_buf_dispose(&b64);
    hudi_bloom_free(back);
    hudi_bloom_free(bf);
}

Test(bloom, probe_base64_simple) { probe_matches(HUDI_BLOOM_SIMPLE); }
Test(bloom, probe_base64_dynamic) { probe_matches(HUDI_BLOOM_DYNAMIC_V0); }

Test(bloom, parse_errors) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_bloom *bf = NULL;
    static const uint8_t bad_version[] = {0xff, 0xff, 0xff, 0xfe, 0, 0, 0, 1, 1, 0, 0, 0, 8, 0};
    cr_expect_eq(hudi_bloom_parse(&bf, HUDI_BLOOM_SIMPLE, HUDI_SLICE(bad_version, 14), &err),
                 HUDI_ECORRUPT);
    cr_expect(strstr(err.message, "version"));
    static const uint8_t truncated[] = {0xff, 0xff, 0xff, 0xff, 0, 0, 0, 1, 1, 0, 0, 0, 64, 0};
    cr_expect_eq(hudi_bloom_parse(&bf, HUDI_BLOOM_SIMPLE, HUDI_SLICE(truncated, 14), &err),
                 HUDI_ECORRUPT);
    static const uint8_t jenkins[] = {0, 0, 0, 1, 0, 0, 0, 8, 0};
    cr_expect_eq(hudi_bloom_parse(&bf, HUDI_BLOOM_SIMPLE, HUDI_SLICE(jenkins, 9), &err),
                 HUDI_EUNSUPPORTED);
    /* dynamic with a hostile row count */
    static const uint8_t rows[] = {0xff, 0xff, 0xff, 0xff, 0, 0, 0, 1, 1,    0,    0,    0,   8,
                                   0,    0,    0,    1,    0, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff};
    cr_expect_eq(hudi_bloom_parse(&bf, HUDI_BLOOM_DYNAMIC_V0, HUDI_SLICE(rows, sizeof(rows)), &err),
                 HUDI_ECORRUPT);
    cr_expect_eq(hudi_bloom_parse_base64(&bf, HUDI_BLOOM_SIMPLE, hudi_slice_cstr("ab$d"), &err),
                 HUDI_ECORRUPT);
    cr_expect_null(bf);
    hudi_bloom_type t;
    cr_expect_eq(hudi_bloom_type_parse(&t, "BOGUS", 5, &err), HUDI_EINVAL);
}

/* Every Spark-written base file: the footer filter holds each _hoodie_record_key, rejects
 * random keys, and a fresh filter fed the same keys in file order serializes identically. */
static void check_table(hudi_fs *fs, const char *zip, int *files_checked) {
    const char *root = fixture_unzip(zip);
    cr_assert_not_null(root, "%s", zip);
    char **paths = NULL;
    int n = list_base_files(root, &paths);
    cr_assert_gt(n, 0, "%s has no base files", zip);
    for (int i = 0; i < n; i++) {
        hudi_error err = HUDI_ERROR_INIT;
        file_batch fb;
        cr_assert_eq(file_batch_read(&fb, fs, paths[i], &err), 0, "%s: %s", paths[i], err.message);
        hudi_bloom *bf = NULL, *twin = NULL;
        int rc = hudi_bloom_from_footer(&bf, fb.file, &err);
        if (rc == HUDI_ENOTFOUND) { /* populate.meta.fields=false: key column all null */
            int c = batch_column(fb.batch, "_hoodie_record_key");
            cr_expect(c < 0 || fb.batch->columns[c]->null_count == fb.batch->num_rows, "%s",
                      paths[i]);
            file_batch_dispose(&fb);
            continue;
        }
        cr_assert_eq(rc, 0, "%s", err.message);
        int col = batch_column(fb.batch, "_hoodie_record_key");
        cr_assert_geq(col, 0);
        const hudi_array *keys = fb.batch->columns[col];
        for (int64_t r = 0; r < keys->length; r++) {
            const char *k = (const char *)keys->data + keys->offsets[r];
            size_t len = (size_t)(keys->offsets[r + 1] - keys->offsets[r]);
            cr_expect(hudi_bloom_test(bf, k, len), "%s: key %.*s", paths[i], (int)len, k);
            if (r % 7 == 0) { /* the probe that decodes only the key's bits agrees */
                hudi_slice value, one = HUDI_SLICE(k, len);
                bool maybe = false;
                cr_assert(hudi_pq_kv(fb.file, HUDI_BLOOM_FOOTER_KEY, &value));
                cr_expect_eq(hudi_bloom_probe_base64(bf->type, value, &one, 1, &maybe, &err), 0);
                cr_expect(maybe, "%s: key %.*s", paths[i], (int)len, k);
            }
        }
        int false_pos = 0;
        for (int r = 0; r < 2000; r++) {
            char k[48];
            int len = snprintf(k, sizeof(k), "absent-%d-%d", r, rand());
            false_pos += hudi_bloom_test(bf, k, (size_t)len);
        }
        cr_expect_leq(false_pos, 2, "%s: %d false positives", paths[i], false_pos);

        cr_assert_eq(hudi_bloom_new_sized(&twin, bf->type, bf->vector_bits, bf->num_hashes,
                                          bf->entries_per_row, HUDI_BLOOM_DEFAULT_MAX_ENTRIES,
                                          NULL),
                     0);
        cr_assert_eq(hudi_bloom_add_array(twin, keys, &err), 0, "%s", err.message);
        hudi_buf b64 = HUDI_BUF_INIT;
        hudi_slice want;
        cr_assert_eq(hudi_bloom_to_base64(twin, &b64, NULL), 0);
        cr_assert(hudi_pq_kv(fb.file, HUDI_BLOOM_FOOTER_KEY, &want));
        cr_expect(hudi_slice_eq(want, HUDI_SLICE(b64.data, b64.len)),
                  "%s: re-serialized filter differs", paths[i]);
        hudi_buf_dispose(&b64);
        hudi_bloom_free(twin);
        hudi_bloom_free(bf);
        file_batch_dispose(&fb);
        (*files_checked)++;
    }
    free_paths(paths, n);
}

static void check_zip(const char *zip) {
    hudi_fs *fs = NULL;
    int checked = 0;
    cr_assert_eq(hudi_fs_local_new(&fs, NULL), 0);
    check_table(fs, zip, &checked);
    hudi_fs_free(fs);
}

/* one test per table so Criterion runs them in parallel */
Test(bloom_fixture, v6_nonpartitioned) {
    check_zip("hudi-rs/sample_table/cow/v6_nonpartitioned.zip");
}
Test(bloom_fixture, v6_complexkeygen) {
    check_zip("hudi-rs/sample_table/cow/v6_complexkeygen_hivestyle.zip");
}
Test(bloom_fixture, v6_overwritetable) {
    check_zip("hudi-rs/sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable.zip");
}
Test(bloom_fixture, v6_timebased) {
    check_zip("hudi-rs/sample_table/cow/v6_timebasedkeygen_nonhivestyle.zip");
}
Test(bloom_fixture, v6_no_metafields) {
    check_zip("hudi-rs/sample_table/cow/v6_simplekeygen_hivestyle_no_metafields.zip");
}
Test(bloom_fixture, v8_simplekeygen) {
    check_zip("hudi-rs/sample_table/cow/v8_simplekeygen_nonhivestyle.zip");
}
Test(bloom_fixture, v9_txns_simple) {
    check_zip("hudi-rs/sample_table/cow/v9_txns_simple_nometa.zip");
}
/* Spark row-writer files (org.apache.spark.* footer keys): the historical table */
Test(bloom_fixture, historical_python) {
    check_zip("hudi-rs/historical/python_0.x_cow_partitioned.zip");
}
