/* wt_util.c - see wt_util.h. */
#include "wt_util.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

void wt_schema(hudi_field *out, bool with_deleted) {
    int n = with_deleted ? 5 : 4;
    cr_assert_eq(hudi_field_init(out, "rec", HUDI_TYPE_STRUCT, false), 0);
    cr_assert_eq(hudi_field_set_children(out, n), 0);
    hudi_field_init(&out->children[0], "id", HUDI_TYPE_INT32, true);
    hudi_field_init(&out->children[1], "name", HUDI_TYPE_STRING, true);
    hudi_field_init(&out->children[2], "ts", HUDI_TYPE_INT64, true);
    hudi_field_init(&out->children[3], "part", HUDI_TYPE_STRING, true);
    if (with_deleted)
        hudi_field_init(&out->children[4], "_hoodie_is_deleted", HUDI_TYPE_BOOL, true);
}

hudi_batch *wt_batch(const hudi_field *schema, const wt_row *rows, size_t n) {
    hudi_batch *b = NULL;
    cr_assert_eq(hudi_batch_new(&b, schema, NULL), 0);
    for (size_t i = 0; i < n; i++) {
        const wt_row *r = &rows[i];
        cr_assert_eq(hudi_array_append_fixed(b->columns[0], &r->id, NULL), 0);
        if (r->name)
            cr_assert_eq(hudi_array_append_bytes(b->columns[1], r->name, strlen(r->name), NULL), 0);
        else
            cr_assert_eq(hudi_array_append_null(b->columns[1], NULL), 0);
        cr_assert_eq(hudi_array_append_fixed(b->columns[2], &r->ts, NULL), 0);
        cr_assert_eq(hudi_array_append_bytes(b->columns[3], r->part, strlen(r->part), NULL), 0);
        if (b->n_columns > 4)
            cr_assert_eq(hudi_array_append_bool(b->columns[4], r->deleted, NULL), 0);
    }
    b->num_rows = (int64_t)n;
    return b;
}

hudi_batch *wt_batch_range(const hudi_field *schema, int32_t first, int32_t n, int64_t ts,
                           const char *const *parts, int n_parts) {
    wt_row *rows = calloc((size_t)n + 1, sizeof(wt_row));
    char(*names)[32] = calloc((size_t)n + 1, 32);
    for (int32_t i = 0; i < n; i++) {
        int32_t id = first + i;
        snprintf(names[i], 32, "n%d", id);
        rows[i] = (wt_row){id, names[i], ts, parts[id % n_parts], false};
    }
    hudi_batch *b = wt_batch(schema, rows, (size_t)n);
    free(rows);
    free(names);
    return b;
}

hudi_fs *wt_fs(wt_fs_kind kind, char *base, size_t base_len) {
    hudi_fs *fs = NULL;
    if (kind == WT_MEMORY) {
        cr_assert_eq(hudi_fs_memory_new(&fs, NULL), 0);
        snprintf(base, base_len, "/mem/tbl");
    } else {
        cr_assert_eq(hudi_fs_local_new(&fs, NULL), 0);
        const char *d = test_tmpdir();
        cr_assert_not_null(d);
        snprintf(base, base_len, "%s/tbl", d);
    }
    return fs;
}

void wt_fs_cleanup(wt_fs_kind kind, const char *base) {
    char cmd[1200];
    const char *slash = strrchr(base, '/');
    if (kind != WT_LOCAL || !slash || !strstr(base, "hudic-test-")) return;
    snprintf(cmd, sizeof(cmd), "rm -rf '%.*s'", (int)(slash - base), base);
    cr_assert_eq(system(cmd), 0);
}

hudi_table *wt_create(hudi_fs *fs, const char *base, const char *keys, const char *parts, bool hive,
                      bool populate_meta, const hudi_field *schema) {
    hudi_create_options o = HUDI_CREATE_OPTIONS_INIT;
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    o.table_name = "wt";
    o.record_key_fields = keys ? keys : "id";
    o.partition_fields = parts;
    o.precombine_field = "ts";
    o.hive_style_partitioning = hive;
    o.populate_meta_fields = populate_meta;
    o.schema = schema;
    /* small bloom filters keep the tests fast (Hudi's default is 60000 entries, 431 KB) */
    static const char *const props[] = {"hoodie.index.bloom.num_entries", "100", NULL};
    if (getenv("WT_DEFAULT_BLOOM") == NULL) o.extra_props = props;
    int rc = hudi_tbl_create(&t, fs, base, &o, &err);
    cr_assert_eq(rc, 0, "create: %s", err.message);
    return t;
}

const char *wt_write(hudi_table *t, const hudi_batch *b, hudi_write_operation op) {
    static char instant[HUDI_INSTANT_TIME_MAX];
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    hudi_table_write_result res;
    hudi_error err = HUDI_ERROR_INIT;
    o.op = op;
    int rc = hudi_tbl_write(t, b, &o, &res, &err);
    cr_assert_eq(rc, 0, "write %s: %s", hudi_write_operation_name(op), err.message);
    snprintf(instant, sizeof(instant), "%s", res.instant);
    return instant;
}

static int cmp_line(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char *wt_dump(hudi_table *t, const char *as_of) { return wt_dump_named(t, as_of, "name"); }

char *wt_dump_named(hudi_table *t, const char *as_of, const char *name_col) {
    const char *const cols[] = {"id", name_col, "ts", "part"};
    hudi_scan_options ro = HUDI_SCAN_OPTIONS_INIT;
    hudi_reader *r = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    ro.as_of_instant = as_of;
    ro.columns = cols;
    ro.n_columns = 4;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0, "%s", err.message);
    int rc = hudi_reader_open(&r, t, &ro, &err);
    if (rc == HUDI_ENOTFOUND) { /* empty table: no columns yet */
        return strdup("");
    }
    cr_assert_eq(rc, 0, "reader: %s", err.message);
    char **lines = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_reader_next(r, &b, &err), 0, "next: %s", err.message);
        if (!b) break;
        for (int64_t i = 0; i < b->num_rows; i++) {
            char buf[256];
            const hudi_array *id = b->columns[0], *nm = b->columns[1], *ts = b->columns[2],
                             *pt = b->columns[3];
            char name[64] = "null", part[64] = "null";
            if (hudi_array_is_valid(nm, i))
                snprintf(name, sizeof(name), "%.*s", nm->offsets[i + 1] - nm->offsets[i],
                         (const char *)nm->data + nm->offsets[i]);
            if (hudi_array_is_valid(pt, i))
                snprintf(part, sizeof(part), "%.*s", pt->offsets[i + 1] - pt->offsets[i],
                         (const char *)pt->data + pt->offsets[i]);
            snprintf(buf, sizeof(buf), "%06d|%s|%lld|%s", ((const int32_t *)id->values)[i], name,
                     (long long)((const int64_t *)ts->values)[i], part);
            if (n == cap) {
                cap = cap ? cap * 2 : 64;
                lines = realloc(lines, cap * sizeof(char *));
            }
            lines[n++] = strdup(buf);
        }
    }
    hudi_reader_free(r);
    if (n) qsort(lines, n, sizeof(char *), cmp_line);
    size_t total = 1;
    for (size_t i = 0; i < n; i++) total += strlen(lines[i]) + 1;
    char *out = malloc(total), *p = out;
    *p = 0;
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(lines[i]);
        memcpy(p, lines[i], l);
        p[l] = '\n';
        p += l + 1;
        *p = 0;
        free(lines[i]);
    }
    free(lines);
    return out;
}

char *wt_dump_path(hudi_fs *fs, const char *base, const char *as_of) {
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_open(&t, fs, base, &err), 0, "open: %s", err.message);
    char *d = wt_dump(t, as_of);
    hudi_tbl_free(t);
    return d;
}

int wt_lines(const char *dump) {
    int n = 0;
    for (const char *p = dump; *p; p++) n += *p == '\n';
    return n;
}

const char *wt_diff(const char *got, const char *want) {
    static char out[512];
    int line = 1;
    const char *g = got, *w = want;
    while (*g && *g == *w) {
        if (*g == '\n') {
            line++;
            got = g + 1;
            want = w + 1;
        }
        g++;
        w++;
    }
    if (*g == *w) return NULL;
    int gl = (int)strcspn(got, "\n"), wl = (int)strcspn(want, "\n");
    snprintf(out, sizeof(out), "line %d: got '%.*s'%s, want '%.*s'%s", line, gl < 200 ? gl : 200,
             got, *got ? "" : " (end)", wl < 200 ? wl : 200, want, *want ? "" : " (end)");
    return out;
}

hudi_table *wt_mor_create(hudi_fs *fs, const char *base, const hudi_field *schema,
                          const char *name) {
    static const char *const props[] = {"hoodie.index.bloom.num_entries", "100", NULL};
    return wt_mor_create_props(fs, base, schema, name, props);
}

hudi_table *wt_mor_create_props(hudi_fs *fs, const char *base, const hudi_field *schema,
                                const char *name, const char *const *props) {
    hudi_create_options o = HUDI_CREATE_OPTIONS_INIT;
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    o.table_name = name;
    o.record_key_fields = "id";
    o.partition_fields = "part";
    o.precombine_field = "ts";
    o.populate_meta_fields = true;
    o.schema = schema;
    o.type = HUDI_MERGE_ON_READ;
    o.extra_props = props;
    cr_assert_eq(hudi_tbl_create(&t, fs, base, &o, &err), 0, "create: %s", err.message);
    return t;
}

hudi_table *wt_create_parted(hudi_fs *fs, const char *base, const hudi_field *s, bool hive,
                             bool auto_keys) {
    if (!auto_keys) return wt_create(fs, base, NULL, "part", hive, true, s);
    hudi_create_options o = HUDI_CREATE_OPTIONS_INIT;
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    o.table_name = "bk";
    o.partition_fields = "part";
    o.schema = s;
    static const char *const props[] = {"hoodie.index.bloom.num_entries", "100", NULL};
    o.extra_props = props;
    cr_assert_eq(hudi_tbl_create(&t, fs, base, &o, &err), 0, "create: %s", err.message);
    return t;
}
