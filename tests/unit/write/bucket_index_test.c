/* bucket_index_test.c - Hudi's simple bucket index (hoodie.index.type=BUCKET, bucket_index.c):
 * bucket ids as Java computes them, file ids "<bucket %08d>-<uuid tail>-0", one file group per
 * bucket and partition; on merge-on-read tables updates, inserts and deletes of a bucket that
 * has a group go to that group's log files, other buckets get new groups; copy-on-write rewrites
 * the bucket's base file; duplicate buckets and a changed bucket count are refused; the same
 * rows with 1 and 4 threads; a failure at any storage call leaves the table as it was. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "write/write_int.h"
#include "wt_util.h"

static const char *const P2[] = {"a", "b"};

/* ---- bucket ids --------------------------------------------------------------------------- */

static int32_t bid(const char *key, const char *f1, const char *f2, int32_t n) {
    const char *fields[2] = {f1, f2};
    return hudi_bucket_id((const uint8_t *)key, strlen(key), fields, f2 ? 2 : 1, n);
}

/* Expected values from Java's formula, reimplemented in Python:
 *   def shash(s): h = 0; for each UTF-16 code unit u of s: h = (31*h + u) & 0xffffffff
 *   list hash: h = 1; for v: h = (31*h + (0 if v is None else shash(v))) & 0xffffffff
 *   bucket = (h & 0x7fffffff) % n
 * e.g. "1": shash = 49, list = 31 + 49 = 80, 80 % 4 = 0; "42": shash = 52*31 + 50 = 1662,
 * list = 1693, 1693 % 256 = 157. */
Test(bucket_index, ids_match_java) {
    cr_assert_eq(bid("1", "id", NULL, 4), 0);
    cr_assert_eq(bid("42", "id", NULL, 256), 157);
    cr_assert_eq(bid("abc", "id", NULL, 256), 129);
    /* non-ASCII: 2-byte UTF-8 ("héllo wörld", list hash 0x610b94f8) and 3-byte plus a
     * surrogate pair ("日本語🎉", 0xccea8ec3) */
    cr_assert_eq(bid("h\xc3\xa9llo w\xc3\xb6rld", "id", NULL, 256), 248);
    cr_assert_eq(bid("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xf0\x9f\x8e\x89", "id", NULL, 16), 3);
    /* complex keys: the hash fields' values in hash-field order */
    cr_assert_eq(bid("id:7,name:x", "id", "name", 256), 226);
    cr_assert_eq(bid("id:7,name:x", "name", NULL, 256), 151);
    cr_assert_eq(bid("id:7,name:x", "id", NULL, 8), 6);
    /* a ':' in a simple key: Java splits it anyway, field "id" is absent: [null] -> 31 */
    cr_assert_eq(bid("12:30", "id", NULL, 256), 31);
    cr_assert_eq(bid("", "id", NULL, 4), 3); /* [""]: 31 */
    for (int i = 0; i < 10; i++) {
        char k[16];
        snprintf(k, sizeof(k), "%d", i);
        cr_assert_eq(bid(k, "id", NULL, 4), (i + 3) % 4, "key %d", i);
    }
    /* parts Java cannot split */
    cr_assert_eq(bid("id:1,,name:x", "id", NULL, 4), -1);
    cr_assert_eq(bid("id:", "id", NULL, 4), -1);
    cr_assert_eq(bid("id:1,", "id", NULL, 4), bid("id:1", "id", NULL, 4));
    /* String.hashCode: "abc" = 96354; U+1F389 is the pair D83C DF89 */
    cr_assert_eq(hudi_java_string_hash((const uint8_t *)"abc", 3), 96354);
    cr_assert_eq(hudi_java_string_hash((const uint8_t *)"\xf0\x9f\x8e\x89", 4),
                 (int32_t)(0xD83Cu * 31u + 0xDF89u));
    cr_assert_eq(hudi_bucket_of_file_id("00000003-5f1e-4c2a-9b7d-0123456789ab-0"), 3);
    cr_assert_eq(hudi_bucket_of_file_id("5f1e4c2a-5f1e-4c2a-9b7d-0123456789ab-0"), -1);
    cr_assert_eq(hudi_bucket_of_file_id("0000"), -1);
}

/* ---- tables ------------------------------------------------------------------------------- */

static const char *const B4[] = {"hoodie.index.type", "BUCKET", "hoodie.bucket.index.num.buckets",
                                 "4", NULL};

static int bwrite_p(hudi_table *t, const hudi_batch *b, hudi_write_operation op,
                    const char *const *props, hudi_error *err) {
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    o.op = op;
    o.props = props;
    return hudi_tbl_write(t, b, &o, NULL, err);
}

static void bwrite(hudi_table *t, const hudi_batch *b, hudi_write_operation op,
                   const char *const *props) {
    hudi_error err = HUDI_ERROR_INIT;
    int rc = bwrite_p(t, b, op, props, &err);
    cr_assert_eq(rc, 0, "write %s: %s", hudi_write_operation_name(op), err.message);
}

typedef struct layout {
    int slices, bases, logs;
    char ids[64][HUDI_FILE_ID_MAX]; /* "part/fileid" of every slice */
} layout;

/* The latest slices: every file id is a bucket's ("%08d" + uuid tail + "-0", bucket < nb), one
 * group per bucket and partition. */
static void get_layout(hudi_table *t, int32_t nb, layout *out) {
    hudi_file_slices *v = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    memset(out, 0, sizeof(*out));
    cr_assert_eq(hudi_tbl_reload(t, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_table_file_slices(&v, t, NULL, &err), 0, "%s", err.message);
    int32_t n = hudi_file_slices_count(v);
    cr_assert_leq(n, 64);
    for (int32_t i = 0; i < n; i++) {
        hudi_file_slice_info s;
        cr_assert_eq(hudi_file_slices_get(v, i, &s), 0);
        int32_t b = hudi_bucket_of_file_id(s.file_id);
        size_t len = strlen(s.file_id);
        cr_assert(b >= 0 && b < nb, "file id %s", s.file_id);
        cr_assert(len == 38 && strcmp(s.file_id + len - 2, "-0") == 0, "file id %s", s.file_id);
        snprintf(out->ids[i], sizeof(out->ids[i]), "%s/%s", s.partition_path, s.file_id);
        for (int32_t k = 0; k < i; k++) {
            const char *o = strchr(out->ids[k], '/') + 1;
            bool same_part =
                strncmp(out->ids[k], s.partition_path, strlen(s.partition_path)) == 0 &&
                out->ids[k][strlen(s.partition_path)] == '/';
            cr_assert(!same_part || hudi_bucket_of_file_id(o) != b,
                      "two groups of bucket %d in '%s'", b, s.partition_path);
        }
        out->slices++;
        out->bases += s.base_file != NULL;
        out->logs += s.n_log_files;
    }
    hudi_file_slices_free(v);
}

/* Every row is stored in the group of its key's bucket (_hoodie_file_name starts with the file
 * id); returns the rows. */
static int check_rows(hudi_table *t, int32_t nb) {
    const char *const cols[] = {"_hoodie_record_key", "_hoodie_file_name"};
    hudi_scan_options ro = HUDI_SCAN_OPTIONS_INIT;
    hudi_reader *r = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    ro.columns = cols;
    ro.n_columns = 2;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_reader_open(&r, t, &ro, &err), 0, "%s", err.message);
    const char *fields[] = {"id"};
    int rows = 0;
    for (;;) {
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_reader_next(r, &b, &err), 0, "%s", err.message);
        if (!b) break;
        for (int64_t i = 0; i < b->num_rows; i++) {
            hudi_slice k = wstr(b->columns[0], i), f = wstr(b->columns[1], i);
            char fn[128];
            snprintf(fn, sizeof(fn), "%.*s", (int)f.len, (const char *)f.data);
            int32_t want = hudi_bucket_id(k.data, k.len, fields, 1, nb);
            cr_assert_eq(hudi_bucket_of_file_id(fn), want, "key %.*s in %s", (int)k.len,
                         (const char *)k.data, fn);
            rows++;
        }
    }
    hudi_reader_free(r);
    return rows;
}

static hudi_table *mor_table(hudi_fs *fs, const char *base, const hudi_field *s) {
    return wt_mor_create(fs, base, s, "bk");
}

/* With 4 buckets, ids 0..11 put partition a (even ids) in buckets 3, 1, 2 and b (odd ids) in
 * 0, 2, 3 (Java's formula, as above). */
Test(bucket_index, mor_upserts_inserts_and_deletes_go_to_the_bucket_logs) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = mor_table(fs, base, &s);
    hudi_batch *seed = wt_batch_range(&s, 0, 12, 1, P2, 2);
    bwrite(t, seed, HUDI_WRITE_UPSERT, B4);
    layout l0, l1, l2;
    get_layout(t, 4, &l0);
    cr_assert_eq(l0.bases, l0.slices);
    cr_assert_eq(l0.logs, 0);
    cr_assert_leq(l0.slices, 8);
    cr_assert_eq(check_rows(t, 4), 12);
    /* updates of 8..11 and inserts of 12..19: a's rows fall in buckets 3, 2 (old groups) and 0
     * (new), b's in 0, 3 (old) and 1 (new); a's bucket 1 and b's bucket 2 are untouched */
    hudi_batch *up = wt_batch_range(&s, 8, 12, 2, P2, 2);
    bwrite(t, up, HUDI_WRITE_UPSERT, B4);
    get_layout(t, 4, &l1);
    cr_assert_eq(check_rows(t, 4), 20);
    /* the four old groups with rows took a log file, none was rewritten; two new groups */
    cr_assert_eq(l0.slices, 6);
    for (int i = 0; i < l0.slices; i++) {
        bool found = false;
        for (int k = 0; k < l1.slices; k++) found |= strcmp(l0.ids[i], l1.ids[k]) == 0;
        cr_assert(found, "group %s gone", l0.ids[i]);
    }
    cr_assert_eq(l1.slices, 8);
    cr_assert_eq(l1.logs, 4);
    cr_assert_eq(l1.bases, l1.slices);
    /* an insert into an existing bucket only: key 100 is in bucket 0, a's new group */
    wt_row ins[] = {{100, "x", 3, "a", false}};
    char key[8];
    snprintf(key, sizeof(key), "%d", 100);
    const char *f1[] = {"id"};
    int32_t b100 = hudi_bucket_id((const uint8_t *)key, strlen(key), f1, 1, 4);
    hudi_batch *one = wt_batch(&s, ins, 1);
    bwrite(t, one, HUDI_WRITE_INSERT, B4);
    get_layout(t, 4, &l2);
    bool had = false;
    for (int i = 0; i < l1.slices; i++)
        had |= strncmp(l1.ids[i], "a/", 2) == 0 && hudi_bucket_of_file_id(l1.ids[i] + 2) == b100;
    cr_assert(had);
    cr_assert_eq(l2.slices, l1.slices);
    cr_assert_eq(l2.logs, l1.logs + 1);
    cr_assert_eq(check_rows(t, 4), 21);
    /* deletes go to the buckets' logs */
    hudi_batch *del = wt_batch_range(&s, 0, 4, 9, P2, 2);
    bwrite(t, del, HUDI_WRITE_DELETE, B4);
    layout l3;
    get_layout(t, 4, &l3);
    cr_assert_eq(l3.slices, l1.slices);
    cr_assert_gt(l3.logs, l2.logs);
    cr_assert_eq(check_rows(t, 4), 17);
    char *d = wt_dump(t, NULL);
    cr_assert(strstr(d, "000100|x|3|a") && !strstr(d, "000000|") && strstr(d, "000019|n19|2|b"),
              "%s", d);
    free(d);
    hudi_batch_free(seed);
    hudi_batch_free(up);
    hudi_batch_free(one);
    hudi_batch_free(del);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

Test(bucket_index, new_buckets_get_new_groups) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = mor_table(fs, base, &s);
    /* ids 1 and 5: bucket 0 of partition a only */
    wt_row r1[] = {{1, "a", 1, "a", false}, {5, "b", 1, "a", false}};
    hudi_batch *b1 = wt_batch(&s, r1, 2);
    bwrite(t, b1, HUDI_WRITE_INSERT, B4);
    layout l;
    get_layout(t, 4, &l);
    cr_assert_eq(l.slices, 1);
    cr_assert(strncmp(l.ids[0], "a/00000000-", 11) == 0, "%s", l.ids[0]);
    /* id 2 (bucket 1) in a, 1 again in b: two new groups; 9 (bucket 0) to a's log */
    wt_row r2[] = {{2, "c", 2, "a", false}, {1, "d", 2, "b", false}, {9, "e", 2, "a", false}};
    hudi_batch *b2 = wt_batch(&s, r2, 3);
    bwrite(t, b2, HUDI_WRITE_UPSERT, B4);
    get_layout(t, 4, &l);
    cr_assert_eq(l.slices, 3);
    cr_assert_eq(l.logs, 1);
    cr_assert_eq(check_rows(t, 4), 5);
    hudi_batch_free(b1);
    hudi_batch_free(b2);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

Test(bucket_index, cow_rewrites_the_bucket_base_file) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = wt_create(fs, base, NULL, "part", false, true, &s);
    hudi_batch *seed = wt_batch_range(&s, 0, 12, 1, P2, 2);
    bwrite(t, seed, HUDI_WRITE_INSERT, B4);
    layout l0, l1;
    get_layout(t, 4, &l0);
    hudi_batch *up = wt_batch_range(&s, 8, 12, 2, P2, 2);
    bwrite(t, up, HUDI_WRITE_UPSERT, B4);
    get_layout(t, 4, &l1);
    cr_assert_eq(l1.logs, 0);
    cr_assert_eq(l1.bases, l1.slices);
    cr_assert_eq(check_rows(t, 4), 20);
    char *d = wt_dump(t, NULL);
    cr_assert(strstr(d, "000008|n8|2|a") && strstr(d, "000007|n7|1|b"), "%s", d);
    free(d);
    hudi_batch *del = wt_batch_range(&s, 0, 4, 9, P2, 2);
    bwrite(t, del, HUDI_WRITE_DELETE, B4);
    cr_assert_eq(check_rows(t, 4), 16);
    hudi_batch_free(seed);
    hudi_batch_free(up);
    hudi_batch_free(del);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* bulk_insert with the bucket index: one group per (partition, bucket), rows of existing
 * buckets to their groups. */
Test(bucket_index, bulk_insert_routes_by_bucket) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = mor_table(fs, base, &s);
    hudi_batch *b = wt_batch_range(&s, 0, 40, 1, P2, 2);
    bwrite(t, b, HUDI_WRITE_BULK_INSERT, B4);
    layout l;
    get_layout(t, 4, &l);
    cr_assert_eq(l.slices, 8);
    cr_assert_eq(check_rows(t, 4), 40);
    hudi_batch *b2 = wt_batch_range(&s, 40, 10, 1, P2, 2);
    bwrite(t, b2, HUDI_WRITE_BULK_INSERT, B4);
    get_layout(t, 4, &l);
    cr_assert_eq(l.slices, 8);
    cr_assert_eq(check_rows(t, 4), 50);
    hudi_batch_free(b);
    hudi_batch_free(b2);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* ---- refusals ----------------------------------------------------------------------------- */

static void expect_fail(hudi_table *t, const hudi_batch *b, const char *const *props, int code,
                        const char *const *words) {
    hudi_error err = HUDI_ERROR_INIT;
    int rc = bwrite_p(t, b, HUDI_WRITE_UPSERT, props, &err);
    cr_assert_eq(rc, code, "rc %d: %s", rc, err.message);
    for (; words && *words; words++)
        cr_assert(strstr(err.message, *words), "'%s' not in: %s", *words, err.message);
}

Test(bucket_index, changed_bucket_count_and_plain_groups_are_refused) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = mor_table(fs, base, &s);
    hudi_batch *seed = wt_batch_range(&s, 0, 12, 1, P2, 2);
    bwrite(t, seed, HUDI_WRITE_UPSERT, B4);
    /* a holds buckets 1, 2 and 3: not all buckets of 2 */
    static const char *const B2[] = {"hoodie.index.type", "BUCKET",
                                     "hoodie.bucket.index.num.buckets", "2", NULL};
    const char *w1[] = {"partition 'a'", "a larger bucket number", "cannot change", NULL};
    expect_fail(t, seed, B2, HUDI_EINVAL, w1);
    /* a table written with the bloom index: plain file ids */
    hudi_table *t2 = NULL;
    char base2[600];
    snprintf(base2, sizeof(base2), "%s2", base);
    t2 = wt_mor_create(fs, base2, &s, "bk2");
    wt_write(t2, seed, HUDI_WRITE_INSERT);
    /* a random file id whose first 8 characters are digits parses as a (large) bucket number,
     * as in Hudi's BucketIdentifier: either reason is a refusal */
    const char *w2[] = {"is not one of the 4 buckets", "cannot change", NULL};
    expect_fail(t2, seed, B4, HUDI_EINVAL, w2);
    /* consistent hashing and bad settings */
    static const char *const CH[] = {"hoodie.index.type", "BUCKET", "hoodie.index.bucket.engine",
                                     "CONSISTENT_HASHING", NULL};
    const char *w3[] = {"not supported yet", NULL};
    expect_fail(t, seed, CH, HUDI_EUNSUPPORTED, w3);
    static const char *const HF[] = {"hoodie.index.type", "BUCKET",
                                     "hoodie.bucket.index.hash.field", "name", NULL};
    const char *w4[] = {"must be record key fields", NULL};
    expect_fail(t, seed, HF, HUDI_EINVAL, w4);
    static const char *const NB[] = {"hoodie.index.type", "bucket",
                                     "hoodie.bucket.index.num.buckets", "0", NULL};
    expect_fail(t, seed, NB, HUDI_EINVAL, NULL);
    /* the table is as it was */
    cr_assert_eq(check_rows(t, 4), 12);
    hudi_batch_free(seed);
    hudi_tbl_free(t);
    hudi_tbl_free(t2);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* Two groups of one bucket in a partition (a base file copied under another file id of the
 * same bucket): Hudi's "multiple files ... belong to the same bucket id" error. */
Test(bucket_index, duplicate_bucket_is_refused) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_LOCAL, base, sizeof(base));
    hudi_table *t = wt_create(fs, base, NULL, "part", false, true, &s);
    wt_row r1[] = {{1, "a", 1, "a", false}};
    hudi_batch *b1 = wt_batch(&s, r1, 1);
    bwrite(t, b1, HUDI_WRITE_INSERT, B4);
    hudi_file_slices *v = NULL;
    cr_assert_eq(hudi_table_file_slices(&v, t, NULL, NULL), 0);
    hudi_file_slice_info si;
    cr_assert_eq(hudi_file_slices_get(v, 0, &si), 0);
    char src[1024], dst[1024];
    snprintf(src, sizeof(src), "%s/a/%s", base, si.base_file);
    snprintf(dst, sizeof(dst), "%s/a/%s", base, si.base_file);
    char *c = strrchr(dst, '/') + 10; /* the first character after "00000000-" */
    *c = *c == 'f' ? '0' : 'f';
    hudi_file_slices_free(v);
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    cr_assert(in && out);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), in)) > 0) cr_assert_eq(fwrite(buf, 1, n, out), n);
    fclose(in);
    fclose(out);
    cr_assert_eq(hudi_tbl_reload(t, NULL), 0);
    const char *w[] = {"multiple files at partition path=a belong to the same bucket id = 0", NULL};
    expect_fail(t, b1, B4, HUDI_ECORRUPT, w);
    hudi_batch_free(b1);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    wt_fs_cleanup(WT_LOCAL, base);
    hudi_field_dispose(&s);
}

Test(bucket_index, clustering_is_refused) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_create_options o = HUDI_CREATE_OPTIONS_INIT;
    static const char *const props[] = {"hoodie.index.type", "BUCKET",
                                        "hoodie.bucket.index.num.buckets", "4", NULL};
    o.table_name = "cl";
    o.record_key_fields = "id";
    o.partition_fields = "part";
    o.precombine_field = "ts";
    o.schema = &s;
    o.extra_props = props;
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_create(&t, fs, base, &o, &err), 0, "%s", err.message);
    hudi_batch *b = wt_batch_range(&s, 0, 12, 1, P2, 2);
    wt_write(t, b, HUDI_WRITE_INSERT); /* the table property turns the bucket index on */
    layout l;
    get_layout(t, 4, &l);
    cr_assert_eq(check_rows(t, 4), 12);
    char instant[32];
    cr_assert_eq(hudi_tbl_cluster_schedule(t, NULL, NULL, instant, &err), HUDI_EUNSUPPORTED);
    cr_assert(strstr(err.message, "bucket index"), "%s", err.message);
    hudi_batch_free(b);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* ---- threads ------------------------------------------------------------------------------ */

static char *run_rounds(const char *const *props, layout *l) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = mor_table(fs, base, &s);
    for (int round = 0; round < 4; round++) {
        hudi_batch *b = wt_batch_range(&s, round * 7, 30, round + 1, P2, 2);
        bwrite(t, b, round == 3 ? HUDI_WRITE_DELETE : HUDI_WRITE_UPSERT, props);
        hudi_batch_free(b);
    }
    get_layout(t, 8, l);
    check_rows(t, 8);
    char *d = wt_dump(t, NULL);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
    return d;
}

Test(bucket_index, same_rows_with_one_and_four_threads) {
    static const char *const T1[] = {"hoodie.index.type",
                                     "BUCKET",
                                     "hoodie.bucket.index.num.buckets",
                                     "8",
                                     "hoodie.hudic.parallelism",
                                     "1",
                                     NULL};
    static const char *const T4[] = {"hoodie.index.type",
                                     "BUCKET",
                                     "hoodie.bucket.index.num.buckets",
                                     "8",
                                     "hoodie.hudic.parallelism",
                                     "4",
                                     NULL};
    layout l1, l4;
    char *d1 = run_rounds(T1, &l1), *d4 = run_rounds(T4, &l4);
    cr_assert_str_eq(d1, d4);
    cr_assert_eq(l1.slices, l4.slices);
    cr_assert_eq(l1.logs, l4.logs);
    cr_assert_eq(l1.slices, 16);
    /* the same buckets in the same partitions */
    for (int i = 0; i < l1.slices; i++) {
        bool found = false;
        for (int k = 0; k < l4.slices; k++)
            found |= strncmp(l1.ids[i], l4.ids[k], strchr(l1.ids[i], '/') - l1.ids[i] + 9) == 0;
        cr_assert(found, "%s", l1.ids[i]);
    }
    free(d1);
    free(d4);
}

/* ---- crash safety ------------------------------------------------------------------------- */

static hudi_fs *seeded(wt_fs_kind kind, const hudi_field *s, char *base, size_t len) {
    hudi_fs *fs = wt_fs(kind, base, len);
    hudi_table *t = mor_table(fs, base, s);
    hudi_batch *b = wt_batch_range(s, 0, 12, 1, P2, 2);
    bwrite(t, b, HUDI_WRITE_UPSERT, B4);
    hudi_batch_free(b);
    hudi_tbl_free(t);
    return fs;
}

static int upsert(hudi_fs *fs, const char *base, const hudi_batch *b, const char *const *props,
                  hudi_error *err) {
    hudi_table *t = NULL;
    int rc = hudi_tbl_open(&t, fs, base, err);
    if (rc == 0) rc = bwrite_p(t, b, HUDI_WRITE_UPSERT, props, err);
    hudi_tbl_free(t);
    return rc;
}

static void crash_loop(wt_fs_kind kind, const char *const *props) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    /* updates in every seeded bucket, inserts into old and new buckets */
    hudi_batch *up = wt_batch_range(&s, 6, 14, 2, P2, 2);
    hudi_fs *fs = seeded(kind, &s, base, sizeof(base));
    char *before = wt_dump_path(fs, base, NULL);
    cr_assert_eq(upsert(fs, base, up, props, NULL), 0);
    char *after = wt_dump_path(fs, base, NULL);
    cr_assert_eq(wt_lines(after), 20);
    hudi_fs_free(fs);
    wt_fs_cleanup(kind, base);
    int failures = 0;
    for (int64_t n = 1; n < 5000; n++) {
        fs = seeded(kind, &s, base, sizeof(base));
        hudi_fs *ff = NULL;
        cr_assert_eq(hudi_fs_faulty_new(&ff, fs, (hudi_fault_plan){n, -1, true}, NULL), 0);
        hudi_error err = HUDI_ERROR_INIT;
        int rc = upsert(ff, base, up, props, &err);
        bool tripped = hudi_fs_faulty_tripped(ff);
        hudi_fs_free(ff);
        char *d = wt_dump_path(fs, base, NULL);
        if (rc == 0) {
            cr_assert_str_eq(d, after, "call %lld", (long long)n);
            free(d);
            hudi_fs_free(fs);
            wt_fs_cleanup(kind, base);
            if (!tripped) break;
            continue;
        }
        failures++;
        cr_assert_str_eq(d, before, "after a failure at call %lld (%s)", (long long)n, err.message);
        free(d);
        rc = upsert(fs, base, up, props, &err);
        cr_assert_eq(rc, 0, "retry after a failure at call %lld: %s", (long long)n, err.message);
        d = wt_dump_path(fs, base, NULL);
        cr_assert_str_eq(d, after, "retry after a failure at call %lld", (long long)n);
        free(d);
        hudi_table *t = NULL;
        cr_assert_eq(hudi_tbl_open(&t, fs, base, NULL), 0);
        layout l;
        get_layout(t, 4, &l);
        cr_assert_eq(check_rows(t, 4), 20);
        hudi_tbl_free(t);
        hudi_fs_free(fs);
        wt_fs_cleanup(kind, base);
    }
    cr_assert_gt(failures, 20);
    free(before);
    free(after);
    hudi_batch_free(up);
    hudi_field_dispose(&s);
}

Test(bucket_index, mor_upsert_fails_at_every_call_memory, .timeout = 120) {
    crash_loop(WT_MEMORY, B4);
}

Test(bucket_index, parallel_mor_upsert_fails_at_every_call_local, .timeout = 120) {
    static const char *const P4[] = {"hoodie.index.type",
                                     "BUCKET",
                                     "hoodie.bucket.index.num.buckets",
                                     "4",
                                     "hoodie.hudic.parallelism",
                                     "4",
                                     NULL};
    crash_loop(WT_LOCAL, P4);
}

/* insert_overwrite starts new groups for its buckets (Hudi's partitioner always does); the old
 * groups of the partition are replaced. A COW bulk_insert into existing buckets rewrites their
 * base files. */
Test(bucket_index, cow_overwrite_and_bulk_insert) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = wt_create(fs, base, NULL, "part", false, true, &s);
    hudi_batch *seed = wt_batch_range(&s, 0, 12, 1, P2, 2);
    bwrite(t, seed, HUDI_WRITE_BULK_INSERT, B4);
    layout l0, l1, l2;
    get_layout(t, 4, &l0);
    cr_assert_eq(l0.slices, 6);
    hudi_batch *more = wt_batch_range(&s, 12, 8, 2, P2, 2);
    bwrite(t, more, HUDI_WRITE_BULK_INSERT, B4);
    get_layout(t, 4, &l1);
    cr_assert_eq(l1.slices, 8);
    cr_assert_eq(check_rows(t, 4), 20);
    /* ids 0 and 2 overwrite partition a: buckets 3 and 1, new file ids */
    wt_row ow[] = {{0, "o", 3, "a", false}, {2, "p", 3, "a", false}};
    hudi_batch *b = wt_batch(&s, ow, 2);
    bwrite(t, b, HUDI_WRITE_INSERT_OVERWRITE, B4);
    get_layout(t, 4, &l2);
    cr_assert_eq(l2.slices, 6); /* b's 4 groups, a's 2 new ones */
    for (int i = 0; i < l2.slices; i++)
        for (int k = 0; k < l1.slices; k++)
            cr_assert(strncmp(l2.ids[i], "a/", 2) != 0 || strcmp(l2.ids[i], l1.ids[k]) != 0);
    cr_assert_eq(check_rows(t, 4), 12);
    hudi_batch_free(seed);
    hudi_batch_free(more);
    hudi_batch_free(b);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}
