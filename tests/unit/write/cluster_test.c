/* cluster_test.c - clustering (write/cluster.c): the plan written at schedule reads back with
 * its groups and slices; execution rewrites the small file groups into new ones, the table
 * reads the same rows, the replacecommit names the replaced file groups and operation CLUSTER;
 * sort columns order the rows across and within the new files; updates to file groups of a
 * pending clustering fail as Hudi's SparkRejectUpdateStrategy, inserts avoid them, and the
 * next writer does not roll the plan back; a failure at every storage call of schedule and
 * execute leaves the table reading as before, and a rerun completes the clustering. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "wt_util.h"

static const char *const P2[] = {"a", "b"};

/* A table with `commits` bulk inserts of 6 rows each (a new file group per partition each). */
static hudi_table *small_files(hudi_fs *fs, const char *base, hudi_field *s, int commits) {
    wt_schema(s, false);
    hudi_table *t = wt_create(fs, base, NULL, "part", true, true, s);
    for (int c = 0; c < commits; c++) {
        hudi_batch *b = wt_batch_range(s, 100 - c * 6 - 6, 6, c + 1, P2, 2);
        wt_write(t, b, HUDI_WRITE_BULK_INSERT);
        hudi_batch_free(b);
    }
    return t;
}

static size_t latest_slices(hudi_table *t) {
    hudi_fs_view *v = NULL;
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_reload(t, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_fs_view_build(&v, t->timeline, &vo, &err), 0, "%s", err.message);
    size_t n = 0;
    hudi_fs_view_latest_slices(v, &n);
    hudi_fs_view_free(v);
    return n;
}

Test(cluster, schedule_execute_cow) {
    char base[512];
    hudi_field s;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = small_files(fs, base, &s, 3);
    char *before = wt_dump(t, NULL);
    cr_assert_eq(wt_lines(before), 18);
    cr_assert_eq(latest_slices(t), 6);

    char instant[32];
    int rc = hudi_tbl_cluster_schedule(t, NULL, NULL, instant, &err);
    cr_assert_eq(rc, 2, "%d %s", rc, err.message); /* one group per partition */
    hudi_cluster_plan *p = NULL;
    cr_assert_eq(hudi_cluster_plan_read(&p, t->timeline, instant, &err), 0, "%s", err.message);
    cr_assert_eq(p->n_groups, 2);
    cr_assert_str_eq(p->groups[0].slices[0].partition, "part=a");
    cr_assert_eq(p->groups[0].n_slices, 3);
    cr_assert_eq(p->groups[0].num_output, 1);
    cr_assert(strstr(p->groups[0].slices[0].data_path, base), "%s",
              p->groups[0].slices[0].data_path);
    cr_assert_str_eq(p->strategy_class, "org.apache.hudi.client.clustering.run.strategy."
                                        "SparkSortAndSizeExecutionStrategy");
    cr_assert_null(p->sort_columns);
    hudi_cluster_plan_free(p);
    cr_assert(hudi_cluster_is_pending(t->timeline, instant));
    /* the plan does not change what the table reads; a second schedule finds nothing */
    char *d = wt_dump(t, NULL);
    cr_assert_str_eq(d, before);
    free(d);
    cr_assert_eq(hudi_tbl_cluster_schedule(t, NULL, NULL, NULL, &err), 0, "%s", err.message);

    cr_assert_eq(hudi_tbl_cluster_execute(t, instant, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(latest_slices(t), 2);
    d = wt_dump(t, NULL);
    cr_assert_str_eq(d, before);
    free(d);
    cr_assert(!hudi_cluster_is_pending(t->timeline, instant));
    const hudi_instant *in = NULL;
    cr_assert_eq(hudi_timeline_find(&in, t->timeline, instant, &err), 0);
    cr_assert_eq(in->action, HUDI_ACTION_REPLACECOMMIT);
    cr_assert_eq(in->state, HUDI_STATE_COMPLETED);
    hudi_buf js = HUDI_BUF_INIT;
    hudi_commit_metadata *md = NULL;
    cr_assert_eq(hudi_timeline_read_commit_json(&js, t->timeline, in, &err), 0);
    cr_assert_eq(hudi_commit_metadata_parse(&md, js.data, js.len, in->file, &err), 0);
    cr_assert_str_eq(md->operation_type, "CLUSTER");
    cr_assert_eq(md->replaced_count, 2);
    cr_assert_eq(md->replaced[0].count + md->replaced[1].count, 6);
    cr_assert_eq(hudi_commit_metadata_stat_count(md), 2);
    cr_assert_not_null(hudi_commit_metadata_extra(md, "schema"));
    hudi_commit_metadata_free(md);
    hudi_buf_dispose(&js);
    /* time travel to before the clustering reads the old file groups */
    char first[HUDI_INSTANT_TIME_MAX];
    snprintf(first, sizeof(first), "%s", t->timeline->instants[0].time);
    char *old = wt_dump(t, first);
    cr_assert_eq(wt_lines(old), 6);
    free(old);
    /* executing it again: not pending */
    cr_assert_eq(hudi_tbl_cluster_execute(t, instant, NULL, &err), HUDI_ENOTFOUND);
    free(before);
    hudi_tbl_free(t);
    hudi_field_dispose(&s);
    hudi_fs_free(fs);
}

/* Values of column `col` (int64 "ts" or int32 "id") in the order the reader returns them,
 * which is file by file in file name order, each file in its row order. Returns the count. */
static int read_order(hudi_table *t, const char *col, int64_t *out, const char **files, int cap) {
    hudi_scan_options o = HUDI_SCAN_OPTIONS_INIT;
    const char *cols[] = {col, "_hoodie_file_name"};
    o.columns = cols;
    o.n_columns = 2;
    hudi_reader *r = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_reader_open(&r, t, &o, &err), 0, "%s", err.message);
    int n = 0;
    hudi_batch *b;
    while (hudi_reader_next(r, &b, &err) == 0 && b)
        for (int64_t i = 0; i < b->num_rows && n < cap; i++, n++) {
            const hudi_array *a = b->columns[0], *f = b->columns[1];
            out[n] = a->field->type == HUDI_TYPE_INT64 ? ((int64_t *)a->values)[i]
                                                       : ((int32_t *)a->values)[i];
            files[n] = strndup((const char *)f->data + f->offsets[i],
                               (size_t)(f->offsets[i + 1] - f->offsets[i]));
        }
    cr_assert_eq(err.code, 0, "%s", err.message);
    hudi_reader_free(r);
    return n;
}

Test(cluster, sort_columns_order_rows) {
    char base[512];
    hudi_field s;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = small_files(fs, base, &s, 4);
    char *before = wt_dump(t, NULL);
    hudi_cluster_options o = {0};
    o.sort_columns = "id";
    o.partitions = (const char *const[]){"part=b"};
    o.n_partitions = 1;
    char instant[32];
    cr_assert_eq(hudi_tbl_cluster_schedule(t, &o, NULL, instant, &err), 1, "%s", err.message);
    hudi_cluster_plan *p = NULL;
    cr_assert_eq(hudi_cluster_plan_read(&p, t->timeline, instant, &err), 0, "%s", err.message);
    cr_assert_str_eq(p->sort_columns, "id");
    cr_assert_str_eq(p->groups[0].slices[0].partition, "part=b");
    cr_assert_eq(p->groups[0].num_output, 1); /* ceil(bytes / 1 GB) */
    hudi_cluster_plan_free(p);
    /* a target of a third of the input at execution: three files, each a contiguous run
     * of the sorted rows */
    int64_t bytes = 0;
    {
        hudi_fs_view *v = NULL;
        hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
        cr_assert_eq(hudi_fs_view_build(&v, t->timeline, &vo, &err), 0, "%s", err.message);
        const hudi_file_slice *sl = NULL;
        size_t ns = 0;
        cr_assert_eq(hudi_fs_view_latest_slices_in(v, "part=b", &sl, &ns), 0);
        for (size_t i = 0; i < ns; i++) bytes += sl[i].base->size_bytes;
        hudi_fs_view_free(v);
    }
    cr_assert_gt(bytes, 1000);
    hudi_cluster_options x = {0};
    x.target_file_max_bytes = bytes / 3 + 1;
    cr_assert_eq(hudi_tbl_cluster_execute(t, instant, &x, &err), 0, "%s", err.message);
    char *d = wt_dump(t, NULL);
    cr_assert_str_eq(d, before);
    free(d);
    hudi_tbl_free(t);
    cr_assert_eq(hudi_tbl_open(&t, fs, base, &err), 0);
    int64_t v[64];
    const char *f[64];
    int n = read_order(t, "id", v, f, 64);
    cr_assert_eq(n, 24);
    /* per new file of part=b (odd ids): ascending ids, and the files' ranges disjoint */
    const char *names[8];
    int64_t lo[8], hi[8];
    int files = 0, b_rows = 0;
    for (int i = 0; i < n; i++) {
        if (v[i] % 2 == 0) continue; /* part = P2[id % 2] */
        b_rows++;
        int k = 0;
        while (k < files && strcmp(names[k], f[i]) != 0) k++;
        if (k == files) {
            cr_assert_lt(files, 8);
            names[files] = f[i];
            lo[files] = hi[files] = v[i];
            files++;
            continue;
        }
        cr_assert_gt(v[i], hi[k], "file %s: %lld after %lld", f[i], (long long)v[i],
                     (long long)hi[k]);
        hi[k] = v[i];
    }
    cr_assert_eq(b_rows, 12);
    cr_assert_eq(files, 3);
    for (int a = 0; a < files; a++)
        for (int b = 0; b < files; b++)
            if (a != b) cr_assert(hi[a] < lo[b] || hi[b] < lo[a], "overlapping files");
    for (int i = 0; i < n; i++) free((void *)f[i]);
    free(before);
    hudi_tbl_free(t);
    hudi_field_dispose(&s);
    hudi_fs_free(fs);
}

Test(cluster, bad_sort_column) {
    char base[512];
    hudi_field s;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = small_files(fs, base, &s, 2);
    hudi_cluster_options o = {0};
    o.sort_columns = "nope";
    char instant[32];
    cr_assert_eq(hudi_tbl_cluster_schedule(t, &o, NULL, instant, &err), 2, "%s", err.message);
    cr_assert_eq(hudi_tbl_cluster_execute(t, instant, NULL, &err), HUDI_ENOTFOUND);
    cr_assert(strstr(err.message, "Order column not exist:nope"), "%s", err.message);
    hudi_tbl_free(t);
    hudi_field_dispose(&s);
    hudi_fs_free(fs);
}

Test(cluster, small_file_limit_and_groups) {
    char base[512];
    hudi_field s;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = small_files(fs, base, &s, 3);
    hudi_cluster_options o = {0};
    o.small_file_limit = 1; /* no file is smaller */
    cr_assert_eq(hudi_tbl_cluster_schedule(t, &o, NULL, NULL, &err), 0, "%s", err.message);
    o.small_file_limit = 0;
    o.max_bytes_per_group = 1; /* one slice per group */
    o.max_num_groups = 4;
    char instant[32];
    cr_assert_eq(hudi_tbl_cluster_schedule(t, &o, NULL, instant, &err), 4, "%s", err.message);
    hudi_cluster_plan *p = NULL;
    cr_assert_eq(hudi_cluster_plan_read(&p, t->timeline, instant, &err), 0, "%s", err.message);
    for (size_t g = 0; g < p->n_groups; g++) cr_assert_eq(p->groups[g].n_slices, 1);
    hudi_cluster_plan_free(p);
    /* the remaining two file groups can be planned by a second clustering */
    o.max_num_groups = 0;
    cr_assert_eq(hudi_tbl_cluster_schedule(t, &o, NULL, NULL, &err), 2, "%s", err.message);
    hudi_tbl_free(t);
    hudi_field_dispose(&s);
    hudi_fs_free(fs);
}

Test(cluster, updates_to_pending_clustering_conflict) {
    char base[512];
    hudi_field s;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    hudi_table *t = small_files(fs, base, &s, 2);
    char instant[32];
    hudi_cluster_options o = {0};
    o.partitions = (const char *const[]){"part=a"};
    o.n_partitions = 1;
    cr_assert_eq(hudi_tbl_cluster_schedule(t, &o, NULL, instant, &err), 1, "%s", err.message);
    /* an update of a key in part=a: refused, nothing changes */
    char *before = wt_dump(t, NULL);
    hudi_batch *up = wt_batch_range(&s, 88, 1, 50, P2, 2); /* id 88 -> part=a */
    hudi_write_options wo = HUDI_WRITE_OPTIONS_INIT;
    wo.op = HUDI_WRITE_UPSERT;
    cr_assert_eq(hudi_tbl_write(t, up, &wo, NULL, &err), HUDI_ECONFLICT);
    cr_assert(strstr(err.message, "Not allowed to update the clustering file group "
                                  "HoodieFileGroupId{partitionPath='part=a', fileId='"),
              "%s", err.message);
    hudi_batch_free(up);
    hudi_error_clear(&err);
    char *d = wt_dump(t, NULL);
    cr_assert_str_eq(d, before);
    free(d);
    /* an update in part=b and inserts in both partitions: fine, the inserts do not go into
     * the planned (small) file groups, and the plan stays */
    hudi_batch *ok = wt_batch_range(&s, 89, 1, 60, P2, 2); /* part=b, an update */
    wt_write(t, ok, HUDI_WRITE_UPSERT);
    hudi_batch_free(ok);
    ok = wt_batch_range(&s, 200, 3, 60, P2, 2); /* new keys in both partitions */
    wt_write(t, ok, HUDI_WRITE_UPSERT);
    hudi_batch_free(ok);
    cr_assert(hudi_cluster_is_pending(t->timeline, instant));
    char *mid = wt_dump(t, NULL);
    cr_assert_eq(wt_lines(mid), 15);
    cr_assert_eq(hudi_tbl_cluster_execute(t, instant, NULL, &err), 0, "%s", err.message);
    d = wt_dump(t, NULL);
    cr_assert_str_eq(d, mid);
    free(d);
    /* part=a: the clustered file group and the inserts' new one; part=b: its two */
    cr_assert_eq(latest_slices(t), 4);
    /* after the clustering the key can be updated again */
    up = wt_batch_range(&s, 88, 1, 70, P2, 2);
    wt_write(t, up, HUDI_WRITE_UPSERT);
    hudi_batch_free(up);
    d = wt_dump(t, NULL);
    cr_assert(strstr(d, "88|n88|70|a"), "%s", d);
    free(d);
    free(mid);
    free(before);
    hudi_tbl_free(t);
    hudi_field_dispose(&s);
    hudi_fs_free(fs);
}

/* A failure at every storage call of schedule + execute: the table reads as before, and a
 * rerun (executing the pending plan, or scheduling anew when none was written) completes. */
static int cluster_all(hudi_fs *fs, const char *base, hudi_error *err) {
    hudi_table *t = NULL;
    int rc = hudi_tbl_open(&t, fs, base, err);
    char **pend = NULL;
    size_t n = 0;
    if (rc == 0) rc = hudi_tbl_cluster_pending(t, &pend, &n, err);
    if (rc == 0 && n == 0) {
        char instant[32];
        rc = hudi_tbl_cluster_schedule(t, NULL, NULL, instant, err);
        if (rc > 0) rc = hudi_tbl_cluster_execute(t, instant, NULL, err);
    }
    for (size_t i = 0; rc >= 0 && i < n; i++) rc = hudi_tbl_cluster_execute(t, pend[i], NULL, err);
    for (size_t i = 0; i < n; i++) hudi_free(pend[i]);
    hudi_free(pend);
    hudi_tbl_free(t);
    return rc < 0 ? rc : 0;
}

static void crash_loop(wt_fs_kind kind) {
    char base[512];
    hudi_field s;
    hudi_fs *fs = wt_fs(kind, base, sizeof(base));
    hudi_tbl_free(small_files(fs, base, &s, 3));
    char *before = wt_dump_path(fs, base, NULL);
    hudi_fs_free(fs);
    wt_fs_cleanup(kind, base);
    int failures = 0;
    for (int64_t n = 1; n < 5000; n++) {
        hudi_field s2;
        fs = wt_fs(kind, base, sizeof(base));
        hudi_tbl_free(small_files(fs, base, &s2, 3));
        hudi_field_dispose(&s2);
        hudi_fs *ff = NULL;
        cr_assert_eq(hudi_fs_faulty_new(&ff, fs, (hudi_fault_plan){n, -1, true}, NULL), 0);
        hudi_error err = HUDI_ERROR_INIT;
        int rc = cluster_all(ff, base, &err);
        bool tripped = hudi_fs_faulty_tripped(ff);
        hudi_fs_free(ff);
        char *d = wt_dump_path(fs, base, NULL);
        cr_assert_str_eq(d, before, "call %lld (%s)", (long long)n, rc < 0 ? err.message : "ok");
        free(d);
        if (rc < 0) {
            failures++;
            hudi_error_clear(&err);
            rc = cluster_all(fs, base, &err);
            cr_assert_eq(rc, 0, "rerun after a failure at call %lld: %s", (long long)n,
                         err.message);
            d = wt_dump_path(fs, base, NULL);
            cr_assert_str_eq(d, before, "rerun after call %lld", (long long)n);
            free(d);
        }
        hudi_table *t = NULL;
        cr_assert_eq(hudi_tbl_open(&t, fs, base, NULL), 0);
        cr_assert_eq(latest_slices(t), 2, "call %lld: not clustered", (long long)n);
        hudi_tbl_free(t);
        hudi_fs_free(fs);
        wt_fs_cleanup(kind, base);
        if (!tripped) break;
    }
    cr_assert_gt(failures, 20);
    free(before);
    hudi_field_dispose(&s);
}

Test(cluster_crash, fails_at_every_call_memory) { crash_loop(WT_MEMORY); }
Test(cluster_crash, fails_at_every_call_local) { crash_loop(WT_LOCAL); }

/* Merge-on-read: slices with log files are clustered through the merged reader; the new file
 * groups hold the merged records (updates applied, deletes gone). */
Test(cluster, merge_on_read_slices_merge_their_logs) {
    char base[512];
    hudi_field s;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_fs *fs = wt_fs(WT_MEMORY, base, sizeof(base));
    wt_schema(&s, false);
    hudi_create_options o = HUDI_CREATE_OPTIONS_INIT;
    hudi_table *t = NULL;
    o.table_name = "mc";
    o.record_key_fields = "id";
    o.partition_fields = "part";
    o.precombine_field = "ts";
    o.populate_meta_fields = true;
    o.schema = &s;
    o.type = HUDI_MERGE_ON_READ;
    cr_assert_eq(hudi_tbl_create(&t, fs, base, &o, &err), 0, "create: %s", err.message);
    for (int c = 0; c < 2; c++) {
        hudi_batch *b = wt_batch_range(&s, c * 6, 6, 1, P2, 2);
        wt_write(t, b, HUDI_WRITE_BULK_INSERT);
        hudi_batch_free(b);
    }
    hudi_batch *up = wt_batch_range(&s, 2, 3, 5, P2, 2); /* updates: log files */
    wt_write(t, up, HUDI_WRITE_UPSERT);
    hudi_batch_free(up);
    hudi_batch *del = wt_batch_range(&s, 7, 1, 6, P2, 2);
    wt_write(t, del, HUDI_WRITE_DELETE);
    hudi_batch_free(del);
    char *before = wt_dump(t, NULL);
    cr_assert_eq(wt_lines(before), 11);
    char instant[32];
    cr_assert_eq(hudi_tbl_cluster_schedule(t, NULL, NULL, instant, &err), 2, "%s", err.message);
    hudi_cluster_plan *p = NULL;
    cr_assert_eq(hudi_cluster_plan_read(&p, t->timeline, instant, &err), 0, "%s", err.message);
    size_t logs = 0;
    for (size_t g = 0; g < p->n_groups; g++)
        for (size_t k = 0; k < p->groups[g].n_slices; k++) logs += p->groups[g].slices[k].n_logs;
    cr_assert_gt(logs, 0);
    hudi_cluster_plan_free(p);
    cr_assert_eq(hudi_tbl_cluster_execute(t, instant, NULL, &err), 0, "%s", err.message);
    char *d = wt_dump(t, NULL);
    cr_assert_str_eq(d, before);
    free(d);
    /* two file groups, base files only */
    hudi_fs_view *v = NULL;
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    cr_assert_eq(hudi_fs_view_build(&v, t->timeline, &vo, &err), 0, "%s", err.message);
    size_t n = 0;
    const hudi_file_slice *sl = hudi_fs_view_latest_slices(v, &n);
    cr_assert_eq(n, 2);
    for (size_t i = 0; i < n; i++) cr_assert_eq(sl[i].logs_count, 0);
    hudi_fs_view_free(v);
    free(before);
    hudi_tbl_free(t);
    hudi_field_dispose(&s);
    hudi_fs_free(fs);
}
