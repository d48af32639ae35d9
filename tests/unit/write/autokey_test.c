/* autokey_test.c - tables without record key fields (docs/formats/keys.md §9): hoodie.properties
 * without hoodie.table.recordkey.fields and with the key generator inferred from the partition
 * fields alone; inserts get keys "<instant>_0_<row>" (duplicates kept, every row its own key);
 * upserts and deletes of stored rows by the _hoodie_record_key and _hoodie_partition_path they
 * carry; the commit metadata; what a batch without keys is refused for. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "table/table.h"
#include "write/keygen.h"
#include "wt_util.h"

static const char *const P2[] = {"a", "b"};

static hudi_table *create_auto(hudi_fs *fs, const char *base, const char *parts,
                               const hudi_field *s) {
    hudi_create_options o = HUDI_CREATE_OPTIONS_INIT;
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    o.table_name = "ak";
    o.partition_fields = parts;
    o.hive_style_partitioning = true;
    o.schema = s;
    static const char *const props[] = {"hoodie.index.bloom.num_entries", "100", NULL};
    o.extra_props = props;
    cr_assert_eq(hudi_tbl_create(&t, fs, base, &o, &err), 0, "create: %s", err.message);
    return t;
}

static int write_at(hudi_table *t, const hudi_batch *b, hudi_write_operation op,
                    const char *instant, hudi_error *err) {
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    hudi_table_write_result res;
    o.op = op;
    o.instant_time = instant;
    return hudi_tbl_write(t, b, &o, &res, err);
}

static void slice_str(char *out, size_t cap, const hudi_array *a, int64_t i) {
    if (!hudi_array_is_valid(a, i)) {
        snprintf(out, cap, "null");
        return;
    }
    snprintf(out, cap, "%.*s", (int)(a->offsets[i + 1] - a->offsets[i]),
             (const char *)a->data + a->offsets[i]);
}

static const char *const COLS[] = {
    "_hoodie_record_key", "_hoodie_partition_path", "_hoodie_commit_time", "id", "name", "part"};

/* The table's rows: key, partition path, commit time, id, name, part in one batch, whose
 * schema lives in `schema` (dispose after the batch). */
static hudi_batch *read_all(hudi_table *t, hudi_field *schema) {
    hudi_scan_options ro = HUDI_SCAN_OPTIONS_INIT;
    hudi_reader *r = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    ro.columns = COLS;
    ro.n_columns = 6;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_reader_open(&r, t, &ro, &err), 0, "reader: %s", err.message);
    hudi_batch *all = NULL;
    for (;;) {
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_reader_next(r, &b, &err), 0, "next: %s", err.message);
        if (!b) break;
        if (!all) {
            cr_assert_eq(hudi_field_copy(schema, b->schema), 0);
            cr_assert_eq(hudi_batch_new(&all, schema, NULL), 0);
        }
        for (int32_t k = 0; k < 6; k++)
            cr_assert_eq(
                hudi_array_append_range(all->columns[k], b->columns[k], 0, b->num_rows, NULL), 0);
        all->num_rows += b->num_rows;
    }
    hudi_reader_free(r);
    cr_assert_not_null(all);
    return all;
}

static int find_key(const hudi_batch *b, const char *key) {
    char k[128];
    for (int64_t i = 0; i < b->num_rows; i++) {
        slice_str(k, sizeof(k), b->columns[0], i);
        if (strcmp(k, key) == 0) return (int)i;
    }
    return -1;
}

/* A batch of the data columns plus the stored key columns of rows `rows` of `all`, with name
 * replaced by `name` (NULL = kept). */
static hudi_batch *prepped(hudi_field *schema, const hudi_field *data, const hudi_batch *all,
                           const int *rows, int n, const char *name) {
    hudi_field s;
    cr_assert_eq(hudi_field_init(&s, "rec", HUDI_TYPE_STRUCT, false), 0);
    cr_assert_eq(hudi_field_set_children(&s, 6), 0);
    for (int k = 0; k < 4; k++)
        hudi_field_init(&s.children[k], data->children[k].name, data->children[k].type, true);
    hudi_field_init(&s.children[4], "_hoodie_record_key", HUDI_TYPE_STRING, true);
    hudi_field_init(&s.children[5], "_hoodie_partition_path", HUDI_TYPE_STRING, true);
    *schema = s; /* the batch refers to it */
    hudi_batch *b = NULL;
    cr_assert_eq(hudi_batch_new(&b, schema, NULL), 0);
    for (int i = 0; i < n; i++) {
        int r = rows[i];
        int32_t id = ((const int32_t *)all->columns[3]->values)[r];
        int64_t ts = 2;
        char nm[64], part[64];
        slice_str(nm, sizeof(nm), all->columns[4], r);
        slice_str(part, sizeof(part), all->columns[5], r);
        if (name) snprintf(nm, sizeof(nm), "%s", name);
        cr_assert_eq(hudi_array_append_fixed(b->columns[0], &id, NULL), 0);
        cr_assert_eq(hudi_array_append_bytes(b->columns[1], nm, strlen(nm), NULL), 0);
        cr_assert_eq(hudi_array_append_fixed(b->columns[2], &ts, NULL), 0);
        cr_assert_eq(hudi_array_append_bytes(b->columns[3], part, strlen(part), NULL), 0);
        cr_assert_eq(hudi_array_append_range(b->columns[4], all->columns[0], r, 1, NULL), 0);
        cr_assert_eq(hudi_array_append_range(b->columns[5], all->columns[1], r, 1, NULL), 0);
    }
    b->num_rows = n;
    return b;
}

Test(autokey, properties_without_record_key_fields) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    struct {
        const char *parts, *keygen;
    } cases[] = {{NULL, "org.apache.hudi.keygen.NonpartitionedKeyGenerator"},
                 {"part", "org.apache.hudi.keygen.SimpleKeyGenerator"},
                 {"part,name", "org.apache.hudi.keygen.ComplexKeyGenerator"}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
        hudi_table *t = create_auto(fs, base, cases[i].parts, &s);
        cr_assert_null(hudi_props_get(&t->props, "hoodie.table.recordkey.fields"));
        cr_assert_null(t->cfg.record_key_fields);
        cr_assert_str_eq(hudi_props_get(&t->props, "hoodie.table.keygenerator.class"),
                         cases[i].keygen);
        hudi_tbl_free(t);
        hudi_fs_free(fs);
    }
    /* generated keys live in the meta columns: a table without them cannot have any */
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_create_options o = HUDI_CREATE_OPTIONS_INIT;
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    o.table_name = "ak";
    o.schema = &s;
    o.populate_meta_fields = false;
    cr_assert_eq(hudi_tbl_create(&t, fs, base, &o, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "meta fields"), "%s", err.message);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

Test(autokey, inserts_generate_keys_and_keep_duplicates) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = create_auto(fs, base, "part", &s);
    /* the same rows twice in a batch, the batch twice: nothing is merged */
    wt_row rows[] = {{1, "x", 1, "a", false}, {1, "x", 1, "a", false}, {2, "y", 1, "b", false}};
    hudi_batch *b = wt_batch(&s, rows, 3);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(write_at(t, b, HUDI_WRITE_INSERT, "20240101000000000", &err), 0, "%s",
                 err.message);
    cr_assert_eq(write_at(t, b, HUDI_WRITE_BULK_INSERT, "20240101000000001", &err), 0, "%s",
                 err.message);
    hudi_field as;
    hudi_batch *all = read_all(t, &as);
    cr_assert_eq(all->num_rows, 6);
    static const struct {
        const char *key, *path, *commit;
        int id;
    } want[] = {{"20240101000000000_0_0", "part=a", "20240101000000000", 1},
                {"20240101000000000_0_1", "part=a", "20240101000000000", 1},
                {"20240101000000000_0_2", "part=b", "20240101000000000", 2},
                {"20240101000000001_0_0", "part=a", "20240101000000001", 1},
                {"20240101000000001_0_1", "part=a", "20240101000000001", 1},
                {"20240101000000001_0_2", "part=b", "20240101000000001", 2}};
    for (size_t i = 0; i < 6; i++) {
        int r = find_key(all, want[i].key);
        cr_assert_geq(r, 0, "no row with key %s", want[i].key);
        char v[128];
        slice_str(v, sizeof(v), all->columns[1], r);
        cr_assert_str_eq(v, want[i].path);
        slice_str(v, sizeof(v), all->columns[2], r);
        cr_assert_str_eq(v, want[i].commit);
        cr_assert_eq(((const int32_t *)all->columns[3]->values)[r], want[i].id);
    }
    /* the commit metadata: operation and one insert per row, no record key field anywhere */
    cr_assert_eq(hudi_tbl_reload(t, &err), 0);
    hudi_buf json = HUDI_BUF_INIT;
    char path[700];
    snprintf(path, sizeof(path), "%s/.hoodie/20240101000000000.commit", base);
    cr_assert_eq(hudi_fs_read_all(fs, path, &json, &err), 0, "%s", err.message);
    hudi_commit_metadata *md = NULL;
    cr_assert_eq(hudi_commit_metadata_parse(&md, json.data, json.len, path, &err), 0, "%s",
                 err.message);
    cr_assert_str_eq(md->operation_type, "INSERT");
    int64_t inserts = 0;
    cr_assert_eq(md->partitions_count, 2);
    for (size_t p = 0; p < md->partitions_count; p++)
        for (size_t k = 0; k < md->partitions[p].count; k++)
            inserts += md->partitions[p].stats[k].num_inserts;
    cr_assert_eq(inserts, 3);
    hudi_commit_metadata_free(md);
    hudi_buf_dispose(&json);
    hudi_batch_free(all);
    hudi_field_dispose(&as);
    hudi_batch_free(b);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

Test(autokey, upsert_and_delete_by_stored_key) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = create_auto(fs, base, "part", &s);
    hudi_batch *b = wt_batch_range(&s, 0, 6, 1, P2, 2);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(write_at(t, b, HUDI_WRITE_INSERT, "20240101000000000", &err), 0, "%s",
                 err.message);
    cr_assert_eq(write_at(t, b, HUDI_WRITE_INSERT, "20240101000000001", &err), 0, "%s",
                 err.message);
    hudi_field as;
    hudi_batch *all = read_all(t, &as);
    cr_assert_eq(all->num_rows, 12);
    /* update one of the two copies of id 1 (part b) and one of id 2 (part a) */
    int r1 = find_key(all, "20240101000000000_0_1"), r2 = find_key(all, "20240101000000001_0_2");
    cr_assert(r1 >= 0 && r2 >= 0);
    int upd[] = {r1, r2};
    hudi_field us, ds;
    hudi_batch *u = prepped(&us, &s, all, upd, 2, "changed");
    cr_assert_eq(write_at(t, u, HUDI_WRITE_UPSERT, "20240101000000002", &err), 0, "%s",
                 err.message);
    hudi_field s1;
    hudi_batch *after = read_all(t, &s1);
    cr_assert_eq(after->num_rows, 12, "an update by key adds no row");
    int changed = 0;
    for (int64_t i = 0; i < after->num_rows; i++) {
        char nm[64], key[128], commit[64];
        slice_str(nm, sizeof(nm), after->columns[4], i);
        slice_str(key, sizeof(key), after->columns[0], i);
        slice_str(commit, sizeof(commit), after->columns[2], i);
        if (strcmp(nm, "changed") == 0) {
            changed++;
            cr_assert(strcmp(key, "20240101000000000_0_1") == 0 ||
                          strcmp(key, "20240101000000001_0_2") == 0,
                      "%s", key);
            cr_assert_str_eq(commit, "20240101000000002");
        }
    }
    cr_assert_eq(changed, 2);
    /* an upsert without stored keys inserts, with new keys */
    wt_row fresh[] = {{9, "z", 1, "a", false}};
    hudi_batch *f = wt_batch(&s, fresh, 1);
    cr_assert_eq(write_at(t, f, HUDI_WRITE_UPSERT, "20240101000000003", &err), 0, "%s",
                 err.message);
    hudi_field s2;
    hudi_batch *after2 = read_all(t, &s2);
    cr_assert_eq(after2->num_rows, 13);
    cr_assert_geq(find_key(after2, "20240101000000003_0_0"), 0);
    /* delete both copies of id 0 by their keys: the other rows stay */
    int d1 = find_key(after2, "20240101000000000_0_0"),
        d2 = find_key(after2, "20240101000000001_0_0");
    cr_assert(d1 >= 0 && d2 >= 0);
    int del[] = {d1, d2};
    hudi_batch *d = prepped(&ds, &s, after2, del, 2, NULL);
    cr_assert_eq(write_at(t, d, HUDI_WRITE_DELETE, "20240101000000004", &err), 0, "%s",
                 err.message);
    char *dump = wt_dump(t, NULL);
    cr_assert_eq(wt_lines(dump), 11);
    cr_assert_null(strstr(dump, "000000|"), "%s", dump);
    free(dump);
    /* a DELETE needs the keys: the data columns alone name no row */
    hudi_batch *nokeys = wt_batch_range(&s, 3, 1, 1, P2, 2);
    cr_assert_eq(write_at(t, nokeys, HUDI_WRITE_DELETE, "20240101000000005", &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "_hoodie_record_key"), "%s", err.message);
    hudi_error_clear(&err);
    dump = wt_dump_path(fs, base, NULL);
    cr_assert_eq(wt_lines(dump), 11);
    free(dump);
    hudi_batch_free(nokeys);
    hudi_batch_free(d);
    hudi_field_dispose(&ds);
    hudi_batch_free(after2);
    hudi_field_dispose(&s2);
    hudi_batch_free(f);
    hudi_batch_free(after);
    hudi_field_dispose(&s1);
    hudi_batch_free(u);
    hudi_field_dispose(&us);
    hudi_batch_free(all);
    hudi_field_dispose(&as);
    hudi_batch_free(b);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

Test(autokey, keygen_without_key_fields_gives_partition_paths_only) {
    hudi_field s;
    wt_schema(&s, false);
    hudi_keygen_options ko = HUDI_KEYGEN_OPTIONS_INIT;
    ko.record_key_fields = NULL;
    ko.partition_fields = "part";
    hudi_keygen *kg = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_keygen_new(&kg, &ko, &s, &err), 0, "%s", err.message);
    hudi_batch *b = wt_batch_range(&s, 0, 2, 1, P2, 2);
    hudi_field kf;
    hudi_field_init(&kf, "k", HUDI_TYPE_STRING, false);
    hudi_array *out = NULL;
    cr_assert_eq(hudi_array_new(&out, &kf, NULL), 0);
    cr_assert_eq(hudi_keygen_partition_paths(kg, b, out, &err), 0, "%s", err.message);
    char v[32];
    slice_str(v, sizeof(v), out, 1);
    cr_assert_str_eq(v, "b");
    hudi_array_clear(out);
    cr_assert_eq(hudi_keygen_record_keys(kg, b, out, &err), HUDI_EINVAL);
    /* an empty key list is still an error: only NULL means generated keys */
    hudi_keygen_free(kg);
    ko.record_key_fields = "";
    cr_assert_eq(hudi_keygen_new(&kg, &ko, &s, &err), HUDI_EINVAL);
    hudi_array_free(out);
    hudi_field_dispose(&kf);
    hudi_batch_free(b);
    hudi_field_dispose(&s);
}

static int64_t fixed_ms(void *p) { return *(const int64_t *)p; }

Test(autokey, keys_follow_the_instant_picked_after_a_stale_heartbeat) {
    char base[512];
    hudi_field s;
    wt_schema(&s, false);
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = create_auto(fs, base, NULL, &s);
    int64_t now = 1704067200000LL;
    hudi_clock clock = {fixed_ms, &now};
    hudi_error err = HUDI_ERROR_INIT;
    /* a writer that died before its requested instant left a heartbeat named like ours */
    char first[HUDI_INSTANT_TIME_MAX];
    cr_assert_eq(hudi_instant_time_new(first, &clock, t->cfg.timeline_utc, NULL, &err), 0);
    char hb[700];
    snprintf(hb, sizeof(hb), "%s/.hoodie/.heartbeat/%s", base, first);
    cr_assert_eq(hudi_fs_write_all(fs, hb, HUDI_CREATE_EXCLUSIVE, "", 0, &err), 0, "%s",
                 err.message);
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    hudi_table_write_result res;
    o.op = HUDI_WRITE_INSERT;
    o.clock = &clock;
    hudi_batch *b = wt_batch_range(&s, 0, 2, 1, (const char *const[]){""}, 1);
    cr_assert_eq(hudi_tbl_write(t, b, &o, &res, &err), 0, "%s", err.message);
    cr_assert_str_neq(res.instant, first);
    hudi_field as;
    hudi_batch *all = read_all(t, &as);
    char want[64];
    for (int i = 0; i < 2; i++) {
        snprintf(want, sizeof(want), "%s_0_%d", res.instant, i);
        cr_assert_geq(find_key(all, want), 0, "no key %s", want);
    }
    hudi_batch_free(all);
    hudi_field_dispose(&as);
    hudi_batch_free(b);
    hudi_tbl_free(t);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}
