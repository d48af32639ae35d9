/* cluster.c - clustering (docs/formats/timeline.md "Clustering"): small file groups of a
 * partition are rewritten together into new file groups, their records optionally sorted by
 * `hoodie.clustering.plan.strategy.sort.columns`, as Hudi 0.15's Spark clustering does it
 * (SparkSizeBasedClusteringPlanStrategy + SparkSortAndSizeExecutionStrategy).
 *
 * Schedule: `<I>.replacecommit.requested` holds an Avro HoodieRequestedReplaceMetadata with
 * operationType CLUSTER and a HoodieClusteringPlan: per partition the latest slices whose base
 * file is smaller than the small-file limit (file groups of pending compactions or clusterings
 * left out), largest first, cut into groups of at most max-bytes-per-group, each with
 * numOutputFileGroups = ceil(group bytes / target file bytes); at most max-num-groups groups.
 * Execute: `<I>.replacecommit.inflight` (empty), every group's records read through the merged
 * reader (read/read.h, restricted to the group's file groups), sorted, written as
 * numOutputFileGroups new file groups (more when a file would pass the target size); then the
 * completed replacecommit (operationType CLUSTER, partitionToReplaceFileIds = the input file
 * groups): the commit point. Meta columns are preserved (preserveHoodieMetadata), the file name
 * column names the new file. A failed execution is rolled back to the plan: its files (named by
 * the instant) and the inflight file are removed and the rerun executes the plan again. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "read/read.h"
#include "write/write_int.h"

#define CLUSTER_EXECUTION_STRATEGY                                                                 \
    "org.apache.hudi.client.clustering.run.strategy.SparkSortAndSizeExecutionStrategy"
#define CLUSTER_SORT_COLUMNS_KEY "hoodie.clustering.plan.strategy.sort.columns"
#define CLUSTER_PARQUET_MAX_BYTES (120ll << 20) /* hoodie.parquet.max.file.size */

void hudi_cluster_options_defaults(hudi_cluster_options *o) {
    if (o->small_file_limit <= 0) o->small_file_limit = 314572800ll; /* 300 MB */
    if (o->target_file_max_bytes <= 0) o->target_file_max_bytes = 1073741824ll;
    if (o->max_bytes_per_group <= 0) o->max_bytes_per_group = 2147483648ll;
    if (o->max_num_groups <= 0) o->max_num_groups = 30;
}

/* ---- plan (read) ----------------------------------------------------------------------------- */

void hudi_cluster_plan_free(hudi_cluster_plan *p) {
    if (!p) return;
    for (size_t g = 0; g < p->n_groups; g++) {
        hudi_cluster_group *grp = &p->groups[g];
        for (size_t s = 0; s < grp->n_slices; s++) {
            hudi_cluster_slice *sl = &grp->slices[s];
            hudi_free(sl->partition);
            hudi_free(sl->file_id);
            hudi_free(sl->data_path);
            hudi_write_free_strings(sl->logs, sl->n_logs);
        }
        hudi_free(grp->slices);
    }
    hudi_free(p->groups);
    hudi_free(p->strategy_class);
    hudi_free(p->sort_columns);
    hudi_free(p);
}

/* A union value as the JSON conversion renders it: plain, or {"type": value} (tolerated). */
static json_t *unwrap(json_t *v) {
    if (json_is_object(v) && json_object_size(v) == 1) {
        const char *k = json_object_iter_key(json_object_iter(v));
        if (strcmp(k, "string") == 0 || strcmp(k, "array") == 0 || strcmp(k, "map") == 0 ||
            strcmp(k, "int") == 0 || strcmp(k, "boolean") == 0 || strstr(k, "Hoodie"))
            return json_object_iter_value(json_object_iter(v));
    }
    return v;
}

static json_t *field(json_t *o, const char *name) {
    return json_is_object(o) ? unwrap(json_object_get(o, name)) : NULL;
}

static char *dup_str(json_t *v) {
    const char *s = json_is_string(v) ? json_string_value(v) : "";
    return hudi_strdup(s);
}

static int parse_plan(hudi_cluster_plan *p, json_t *root, const char *what, hudi_error *err) {
    json_t *op = field(root, "operationType");
    json_t *plan = field(root, "clusteringPlan");
    if (!json_is_string(op) || strcmp(json_string_value(op), "CLUSTER") != 0 ||
        !json_is_object(plan))
        return hudi_error_set(err, HUDI_ENOTFOUND, "%s: not a clustering plan", what);
    json_t *strategy = field(plan, "strategy");
    json_t *cls = field(strategy, "strategyClassName");
    json_t *params = field(strategy, "strategyParams");
    json_t *sort = field(params, CLUSTER_SORT_COLUMNS_KEY);
    if (json_is_string(cls) && !(p->strategy_class = dup_str(cls))) return hudi_error_oom(err);
    if (json_is_string(sort) && !(p->sort_columns = dup_str(sort))) return hudi_error_oom(err);
    json_t *groups = field(plan, "inputGroups");
    size_t ng = json_is_array(groups) ? json_array_size(groups) : 0;
    if (ng && !(p->groups = hudi_calloc(ng, sizeof(hudi_cluster_group))))
        return hudi_error_oom(err);
    for (size_t g = 0; g < ng; g++) {
        json_t *jg = unwrap(json_array_get(groups, g));
        json_t *slices = field(jg, "slices"), *nout = field(jg, "numOutputFileGroups");
        hudi_cluster_group *grp = &p->groups[p->n_groups++];
        grp->num_output = json_is_integer(nout) ? (int32_t)json_integer_value(nout) : 1;
        size_t ns = json_is_array(slices) ? json_array_size(slices) : 0;
        if (ns && !(grp->slices = hudi_calloc(ns, sizeof(hudi_cluster_slice))))
            return hudi_error_oom(err);
        for (size_t s = 0; s < ns; s++) {
            json_t *js = unwrap(json_array_get(slices, s));
            hudi_cluster_slice *sl = &grp->slices[grp->n_slices++];
            json_t *fid = field(js, "fileId"), *logs = field(js, "deltaFilePaths");
            if (!json_is_string(fid))
                return hudi_error_set(err, HUDI_ECORRUPT, "%s: a clustering slice has no fileId",
                                      what);
            if (!(sl->partition = dup_str(field(js, "partitionPath"))) ||
                !(sl->file_id = dup_str(fid)) ||
                !(sl->data_path = dup_str(field(js, "dataFilePath"))))
                return hudi_error_oom(err);
            size_t nl = json_is_array(logs) ? json_array_size(logs) : 0;
            if (nl && !(sl->logs = hudi_calloc(nl, sizeof(char *)))) return hudi_error_oom(err);
            for (size_t k = 0; k < nl; k++)
                if (!(sl->logs[sl->n_logs++] = dup_str(unwrap(json_array_get(logs, k)))))
                    return hudi_error_oom(err);
        }
    }
    return 0;
}

int hudi_cluster_plan_read(hudi_cluster_plan **out, const hudi_timeline *tl, const char *time,
                           hudi_error *err) {
    *out = NULL;
    hudi_instant req = {0};
    const hudi_instant *any = NULL;
    int rc = hudi_timeline_find(&any, tl, time, err);
    if (rc < 0) return rc;
    if (any->action != HUDI_ACTION_REPLACECOMMIT)
        return hudi_error_set(err, HUDI_ENOTFOUND, "%s: instant %s is not a clustering",
                              tl->base_path, time);
    req = *any;
    req.state = HUDI_STATE_REQUESTED;
    if ((rc = hudi_instant_format(&req, tl->layout, err)) < 0) return rc;
    hudi_buf js = HUDI_BUF_INIT;
    if ((rc = hudi_timeline_read_json(&js, tl, &req, err)) < 0) {
        hudi_buf_dispose(&js);
        return rc;
    }
    hudi_cluster_plan *p = hudi_calloc(1, sizeof(*p));
    json_error_t je;
    json_t *root = js.data ? json_loadb(js.data, js.len, 0, &je) : NULL;
    if (!p)
        rc = hudi_error_oom(err);
    else if (!root)
        rc = hudi_error_set(err, HUDI_ENOTFOUND, "%s: instant %s is not a clustering",
                            tl->base_path, time);
    else
        rc = parse_plan(p, root, req.file, err);
    json_decref(root);
    hudi_buf_dispose(&js);
    if (rc < 0) {
        hudi_cluster_plan_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

/* Whether the replacecommit `time` is pending (no completed instant of that time). */
static bool is_pending(const hudi_timeline *tl, const char *time) {
    bool pending = false;
    for (size_t i = 0; i < tl->count; i++)
        if (strcmp(tl->instants[i].time, time) == 0) {
            if (tl->instants[i].state == HUDI_STATE_COMPLETED) return false;
            pending = true;
        }
    return pending;
}

bool hudi_cluster_is_pending(const hudi_timeline *tl, const char *time) {
    const hudi_instant *in = NULL;
    if (hudi_timeline_find(&in, tl, time, NULL) < 0 || in->action != HUDI_ACTION_REPLACECOMMIT ||
        !is_pending(tl, time))
        return false;
    hudi_cluster_plan *p = NULL;
    bool yes = hudi_cluster_plan_read(&p, tl, time, NULL) == 0;
    hudi_cluster_plan_free(p);
    return yes;
}

static int fg_key(hudi_buf *k, const char *partition, const char *file_id) {
    hudi_buf_clear(k);
    hudi_buf_puts(k, partition);
    hudi_buf_putc(k, 0);
    hudi_buf_puts(k, file_id);
    return hudi_buf_failed(k) ? HUDI_ENOMEM : 0;
}

int hudi_cluster_pending_file_groups(hudi_map *out, const hudi_timeline *tl, const char *after,
                                     hudi_error *err) {
    hudi_buf k = HUDI_BUF_INIT;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < tl->count; i++) {
        const hudi_instant *in = &tl->instants[i];
        if (in->action != HUDI_ACTION_REPLACECOMMIT || in->state != HUDI_STATE_REQUESTED ||
            !is_pending(tl, in->time))
            continue;
        if (after && hudi_instant_time_cmp(in->time, after) <= 0) continue;
        hudi_cluster_plan *p = NULL;
        if (hudi_cluster_plan_read(&p, tl, in->time, NULL) < 0) continue; /* not a clustering */
        for (size_t g = 0; rc == 0 && g < p->n_groups; g++)
            for (size_t s = 0; rc == 0 && s < p->groups[g].n_slices; s++) {
                const hudi_cluster_slice *sl = &p->groups[g].slices[s];
                if (fg_key(&k, sl->partition, sl->file_id) < 0 ||
                    hudi_map_put(out, k.data, k.len, (void *)in->time, NULL) < 0)
                    rc = hudi_error_oom(err);
            }
        hudi_cluster_plan_free(p);
    }
    hudi_buf_dispose(&k);
    return rc;
}

const char *hudi_cluster_file_group_pending(const hudi_map *m, const char *partition,
                                            const char *file_id) {
    hudi_buf k = HUDI_BUF_INIT;
    const char *v = NULL;
    if (fg_key(&k, partition, file_id) == 0) v = hudi_map_get(m, k.data, k.len);
    hudi_buf_dispose(&k);
    return v;
}

/* ---- plan (schedule) ------------------------------------------------------------------------- */

typedef struct cand {
    const hudi_file_slice *s;
    int64_t size; /* base file size, else the Parquet max file size */
} cand;

static int cmp_cand(const void *a, const void *b) {
    const cand *x = a, *y = b;
    if (x->size != y->size) return x->size > y->size ? -1 : 1; /* largest first */
    return strcmp(x->s->file_id, y->s->file_id);
}

static int cmp_strp(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct sgroup {
    const hudi_file_slice **s;
    size_t n;
    int64_t bytes;
    int32_t num_output;
} sgroup;

static hudi_avro_value *metrics_of(hudi_arena *a, const sgroup *g) {
    /* FileSliceMetricUtils.addFileSliceCommonMetrics */
    int64_t logs = 0, log_bytes = 0, read = 0, write = 0;
    for (size_t i = 0; i < g->n; i++) {
        const hudi_file_slice *s = g->s[i];
        logs += (int64_t)s->logs_count;
        for (size_t k = 0; k < s->logs_count; k++)
            if (s->logs[k].size_bytes > 0) log_bytes += s->logs[k].size_bytes;
        int64_t base = s->base ? s->base->size_bytes : 0;
        read += base;
        write += base > 0 ? base : CLUSTER_PARQUET_MAX_BYTES;
    }
    int64_t read_mb = (read + log_bytes) / (1024 * 1024), write_mb = write / (1024 * 1024);
    static const char *const names[] = {"TOTAL_LOG_FILES", "TOTAL_IO_READ_MB",
                                        "TOTAL_LOG_FILES_SIZE", "TOTAL_IO_WRITE_MB", "TOTAL_IO_MB"};
    double vals[] = {(double)logs, (double)read_mb, (double)log_bytes, (double)write_mb,
                     (double)(read_mb + write_mb)};
    hudi_avro_value *m = hudi_av_coll(a, HUDI_AVRO_MAP, 5);
    if (!m) return NULL;
    for (size_t i = 0; i < 5; i++) {
        m->keys[i] = hudi_slice_cstr(names[i]);
        m->items[i].type = HUDI_AVRO_DOUBLE;
        m->items[i].v.d = vals[i];
    }
    return m;
}

static hudi_avro_value *slice_info(hudi_arena *a, const hudi_file_slice *s) {
    hudi_avro_value *rec = hudi_av_coll(a, HUDI_AVRO_RECORD, 6);
    hudi_avro_value *logs = hudi_av_coll(a, HUDI_AVRO_ARRAY, s->logs_count);
    hudi_avro_value *data = hudi_av_str(a, s->base ? s->base->path : "");
    hudi_avro_value *fid = hudi_av_str(a, s->file_id), *part = hudi_av_str(a, s->partition_path);
    hudi_avro_value *boot = hudi_av_str(a, ""), *ver = hudi_av_long(a, HUDI_AVRO_INT, 1);
    if (!rec || !logs || !data || !fid || !part || !boot || !ver) return NULL;
    for (size_t k = 0; k < s->logs_count; k++) {
        hudi_avro_value *l = hudi_av_str(a, s->logs[k].path);
        if (!l) return NULL;
        logs->items[k] = *l;
    }
    hudi_avro_value *f[] = {data, logs, fid, part, boot, ver};
    for (size_t k = 0; k < 6; k++) rec->items[k] = *f[k];
    return rec;
}

static hudi_avro_value *build_requested(hudi_arena *a, const sgroup *groups, size_t n,
                                        const char *sort_columns) {
    hudi_avro_value *req = hudi_av_coll(a, HUDI_AVRO_RECORD, 4);
    hudi_avro_value *plan = hudi_av_coll(a, HUDI_AVRO_RECORD, 5);
    hudi_avro_value *arr = hudi_av_coll(a, HUDI_AVRO_ARRAY, n);
    hudi_avro_value *strat = hudi_av_coll(a, HUDI_AVRO_RECORD, 3);
    hudi_avro_value *params = hudi_av_coll(a, HUDI_AVRO_MAP, sort_columns ? 1 : 0);
    hudi_avro_value *cls = hudi_av_str(a, CLUSTER_EXECUTION_STRATEGY);
    hudi_avro_value *one = hudi_av_long(a, HUDI_AVRO_INT, 1),
                    *empty = hudi_av_coll(a, HUDI_AVRO_MAP, 0);
    hudi_avro_value *op = hudi_av_str(a, "CLUSTER"), *pres = hudi_av_bool(a, true);
    hudi_avro_value *sort = hudi_av_str(a, sort_columns ? sort_columns : "");
    if (!req || !plan || !arr || !strat || !params || !cls || !one || !empty || !op || !pres ||
        !sort)
        return NULL;
    if (sort_columns) {
        params->keys[0] = hudi_slice_cstr(CLUSTER_SORT_COLUMNS_KEY);
        params->items[0] = *sort;
    }
    for (size_t g = 0; g < n; g++) {
        hudi_avro_value *grp = hudi_av_coll(a, HUDI_AVRO_RECORD, 5);
        hudi_avro_value *sl = hudi_av_coll(a, HUDI_AVRO_ARRAY, groups[g].n);
        hudi_avro_value *m = metrics_of(a, &groups[g]);
        hudi_avro_value *nout = hudi_av_long(a, HUDI_AVRO_INT, groups[g].num_output);
        hudi_avro_value *nul = hudi_av_new(a, HUDI_AVRO_NULL);
        if (!grp || !sl || !m || !nout || !nul) return NULL;
        for (size_t i = 0; i < groups[g].n; i++) {
            hudi_avro_value *info = slice_info(a, groups[g].s[i]);
            if (!info) return NULL;
            sl->items[i] = *info;
        }
        hudi_avro_value *f[] = {sl, m, nout, nul, one};
        for (size_t k = 0; k < 5; k++) grp->items[k] = *f[k];
        arr->items[g] = *grp;
    }
    hudi_avro_value *sf[] = {cls, params, one};
    for (size_t k = 0; k < 3; k++) strat->items[k] = *sf[k];
    hudi_avro_value *pf[] = {arr, strat, empty, one, pres};
    for (size_t k = 0; k < 5; k++) plan->items[k] = *pf[k];
    hudi_avro_value *rf[] = {op, plan, empty, one};
    for (size_t k = 0; k < 4; k++) req->items[k] = *rf[k];
    return req;
}

static bool selected(const hudi_cluster_options *o, const char *partition) {
    if (!o->partitions || o->n_partitions <= 0) return true;
    for (int32_t i = 0; i < o->n_partitions; i++)
        if (strcmp(o->partitions[i], partition) == 0) return true;
    return false;
}

/* File groups that a pending compaction names (their slices are being merged). */
static int pending_compaction_groups(hudi_map *out, const hudi_fs_view *v, const hudi_timeline *tl,
                                     hudi_error *err) {
    size_t n = 0;
    const hudi_file_slice *s = hudi_fs_view_latest_slices(v, &n);
    hudi_buf k = HUDI_BUF_INIT;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const hudi_instant *in = NULL;
        /* a slice whose base instant is a compaction that has not completed */
        if (hudi_timeline_find(&in, tl, s[i].base_instant, NULL) < 0 ||
            in->action != HUDI_ACTION_COMPACTION || !is_pending(tl, s[i].base_instant))
            continue;
        if (fg_key(&k, s[i].partition_path, s[i].file_id) < 0 ||
            hudi_map_put(out, k.data, k.len, (void *)1, NULL) < 0)
            rc = hudi_error_oom(err);
    }
    hudi_buf_dispose(&k);
    return rc;
}

static int schedule_locked(hudi_table *t, const hudi_cluster_options *opts, const hudi_clock *clock,
                           char instant_out[32], hudi_error *err) {
    hudi_cluster_options o = *opts;
    hudi_cluster_options_defaults(&o);
    hudi_fs_view *v = NULL;
    hudi_map busy = HUDI_MAP_INIT;
    cand *c = NULL;
    sgroup *groups = NULL;
    const hudi_file_slice **members = NULL;
    size_t n_groups = 0, n_members = 0, n_all = 0;
    hudi_arena a = HUDI_ARENA_INIT;
    hudi_buf body = HUDI_BUF_INIT;
    char instant[HUDI_INSTANT_TIME_MAX];
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    int rc = hudi_fs_view_build(&v, t->timeline, &vo, err);
    if (rc == 0) rc = hudi_cluster_pending_file_groups(&busy, t->timeline, NULL, err);
    if (rc == 0) rc = pending_compaction_groups(&busy, v, t->timeline, err);
    if (rc < 0) goto done;
    hudi_fs_view_latest_slices(v, &n_all);
    if (!(c = hudi_calloc(n_all + 1, sizeof(cand))) ||
        !(groups = hudi_calloc(n_all + 1, sizeof(sgroup))) ||
        !(members = hudi_calloc(n_all + 1, sizeof(*members))))
        goto oom;
    size_t np = 0;
    const char *const *parts = hudi_fs_view_partitions(v, &np);
    char **sorted = hudi_calloc(np + 1, sizeof(char *));
    if (!sorted) goto oom;
    for (size_t i = 0; i < np; i++) sorted[i] = (char *)parts[i];
    qsort(sorted, np, sizeof(char *), cmp_strp);
    for (size_t pi = 0; pi < np && (int32_t)n_groups < o.max_num_groups; pi++) {
        const char *part = sorted[pi];
        if (!selected(&o, part)) continue;
        const hudi_file_slice *s = NULL;
        size_t n = 0, nc = 0;
        if (hudi_fs_view_latest_slices_in(v, part, &s, &n) < 0) continue;
        for (size_t i = 0; i < n; i++) {
            if (hudi_cluster_file_group_pending(&busy, s[i].partition_path, s[i].file_id)) continue;
            if (s[i].base && (rc = hudi_base_format_require_parquet(s[i].base->format,
                                                                    s[i].base->path, err)) < 0) {
                hudi_free(sorted);
                goto done;
            }
            int64_t base = s[i].base ? s[i].base->size_bytes : 0;
            if (base >= o.small_file_limit) continue;
            c[nc].s = &s[i];
            c[nc++].size = s[i].base ? base : CLUSTER_PARQUET_MAX_BYTES;
        }
        qsort(c, nc, sizeof(cand), cmp_cand);
        sgroup cur = {members + n_members, 0, 0, 0};
        size_t part_groups = 0;
        for (size_t i = 0; i <= nc; i++) {
            bool flush =
                i == nc ? cur.n > 0 : cur.n > 0 && cur.bytes + c[i].size > o.max_bytes_per_group;
            if (flush) {
                bool keep = i < nc || cur.n > 1 || !o.no_single_group || o.sort_columns;
                if (keep && (int32_t)n_groups < o.max_num_groups) {
                    cur.num_output = (int32_t)((cur.bytes + o.target_file_max_bytes - 1) /
                                               o.target_file_max_bytes);
                    if (cur.num_output < 1) cur.num_output = 1;
                    groups[n_groups++] = cur;
                    part_groups++;
                    n_members += cur.n;
                }
                cur = (sgroup){members + n_members, 0, 0, 0};
            }
            if (i == nc || (int32_t)n_groups >= o.max_num_groups) break;
            members[n_members + cur.n++] = c[i].s;
            cur.bytes += c[i].size;
        }
        (void)part_groups;
    }
    hudi_free(sorted);
    if (n_groups == 0) goto done;
    if ((rc = hudi_instant_time_new(instant, clock, t->cfg.timeline_utc,
                                    hudi_timeline_last_time(t->timeline), err)) < 0)
        goto done;
    if (o.instant_time) {
        if (!hudi_instant_time_valid(o.instant_time, strlen(o.instant_time)) ||
            strlen(o.instant_time) >= sizeof(instant) ||
            hudi_instant_time_cmp(o.instant_time, hudi_timeline_last_time(t->timeline)) <= 0) {
            rc = hudi_error_set(err, HUDI_EINVAL, "%s: invalid clustering instant '%s'",
                                t->base_path, o.instant_time);
            goto done;
        }
        snprintf(instant, sizeof(instant), "%s", o.instant_time);
    }
    if ((rc = hudi_av_container(&body, hudi_write_schema_requested_replace,
                                build_requested(&a, groups, n_groups, o.sort_columns), err)) < 0 ||
        (rc = hudi_timeline_write_instant(t->timeline, instant, HUDI_ACTION_REPLACECOMMIT,
                                          HUDI_STATE_REQUESTED, HUDI_SLICE(body.data, body.len),
                                          err)) < 0)
        goto done;
    if (instant_out) snprintf(instant_out, 32, "%s", instant);
    goto done;
oom:
    rc = hudi_error_oom(err);
done:
    hudi_free(c);
    hudi_free(groups);
    hudi_free(members);
    hudi_map_dispose(&busy);
    hudi_fs_view_free(v);
    hudi_arena_dispose(&a);
    hudi_buf_dispose(&body);
    return rc < 0 ? rc : (int)n_groups;
}

/* ---- execution --------------------------------------------------------------------------------
 */

typedef struct cout {
    char file_id[HUDI_FILE_ID_MAX];
    char *rel_path;
    const char *partition;
    int64_t rows, size_bytes;
} cout;

typedef struct cexec {
    hudi_table *t;
    const char *instant;
    const hudi_field *sort_schema;
    int32_t sort_cols[64];
    int32_t n_sort;
    const hudi_batch *all;
    cout *outs;
    size_t n_outs, cap_outs;
    int32_t next_task;
} cexec;

static cexec *sort_ctx; /* qsort has no payload; clustering runs under the table lock */

static int cmp_rows(const void *pa, const void *pb) {
    int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
    for (int32_t k = 0; k < sort_ctx->n_sort; k++) {
        const hudi_array *col = sort_ctx->all->columns[sort_ctx->sort_cols[k]];
        int c = hudi_plan_cmp_values(col, a, col, b);
        if (c) return c;
    }
    return a < b ? -1 : a > b;
}

static int find_col(const hudi_field *st, const char *name) {
    for (int32_t i = 0; i < st->n_children; i++)
        if (st->children[i].name && strcasecmp(st->children[i].name, name) == 0) return i;
    return -1;
}

/* Resolves "c1,c2" against the schema: top-level, orderable columns. */
static int resolve_sort(cexec *x, const hudi_field *schema, const char *cols, hudi_error *err) {
    x->n_sort = 0;
    if (!cols || !*cols) return 0;
    const char *p = cols;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        while (l && (*p == ' ')) p++, l--;
        while (l && p[l - 1] == ' ') l--;
        char name[256];
        if (l == 0 || l >= sizeof(name) || x->n_sort >= 64)
            return hudi_error_set(err, HUDI_EINVAL, "%s: bad clustering sort columns '%s'",
                                  x->t->base_path, cols);
        memcpy(name, p, l);
        name[l] = 0;
        int32_t c = find_col(schema, name);
        if (c < 0)
            return hudi_error_set(err, HUDI_ENOTFOUND, "%s: Order column not exist:%s",
                                  x->t->base_path, name);
        if (hudi_type_is_nested(schema->children[c].type))
            return hudi_error_set(err, HUDI_EUNSUPPORTED,
                                  "%s: clustering cannot sort by the nested column '%s'",
                                  x->t->base_path, name);
        x->sort_cols[x->n_sort++] = c;
        p += (e ? (size_t)(e - p) + 1 : strlen(p));
    }
    return 0;
}

/* Writes rows order[0..n) of x->all as a new file group of `partition`. */
static int write_file(cexec *x, const hudi_field *schema, const char *json, const char *partition,
                      const int32_t *order, int64_t n, hudi_error *err) {
    if (x->n_outs == x->cap_outs) {
        size_t cap = x->cap_outs ? x->cap_outs * 2 : 8;
        cout *o = hudi_realloc(x->outs, cap * sizeof(cout));
        if (!o) return hudi_error_oom(err);
        x->outs = o;
        x->cap_outs = cap;
    }
    cout *o = &x->outs[x->n_outs];
    memset(o, 0, sizeof(*o));
    o->partition = partition;
    int rc = hudi_file_id_new(o->file_id, 0, err);
    if (rc < 0) return rc;
    x->n_outs++;
    char token[HUDI_WRITE_TOKEN_MAX];
    int32_t task = x->next_task++;
    hudi_write_token_format(token, (uint64_t)task, 0, (uint64_t)task);
    hudi_buf name = HUDI_BUF_INIT, rel = HUDI_BUF_INIT, path = HUDI_BUF_INIT;
    hudi_key_footer kf = HUDI_KEY_FOOTER_INIT;
    hudi_pq_writer *w = NULL;
    hudi_batch *b = NULL;
    int32_t key_col = find_col(schema, hudi_meta_field_names[HUDI_META_RECORD_KEY]);
    int32_t name_col = find_col(schema, hudi_meta_field_names[HUDI_META_FILE_NAME]);
    if (key_col < 0 || name_col < 0) {
        rc = hudi_error_set(err, HUDI_EUNSUPPORTED, "%s: clustering needs the meta columns",
                            x->t->base_path);
        goto done;
    }
    if ((rc = hudi_base_file_name_format(&name, o->file_id, token, x->instant, "parquet", err)) < 0)
        goto done;
    if (*partition) hudi_buf_printf(&rel, "%s/", partition);
    hudi_buf_puts(&rel, name.data);
    hudi_buf_printf(&path, "%s/%s", x->t->base_path, rel.data ? rel.data : "");
    if (hudi_buf_failed(&path) || hudi_buf_failed(&rel) || !(o->rel_path = hudi_strdup(rel.data))) {
        rc = hudi_error_oom(err);
        goto done;
    }
    hudi_pq_write_options wo = HUDI_PQ_WRITE_OPTIONS_INIT;
    hudi_bloom_cfg bc;
    wo.legacy_list_format = true;
    wo.decimal_as_fixed = true;
    wo.row_group_bytes = WRITE_DEFAULT_TARGET_BYTES;
    if ((rc = hudi_write_bloom_cfg(x->t, &bc, err)) < 0 ||
        (rc = hudi_pq_writer_open(&w, x->t->fs, path.data, schema, &wo, err)) < 0 ||
        (rc = hudi_pq_writer_add_kv(w, "parquet.avro.schema", json, err)) < 0 ||
        (rc = hudi_pq_writer_add_kv(w, "writer.model.name", "avro", err)) < 0 ||
        (rc = hudi_key_footer_init(&kf, &bc, err)) < 0)
        goto done;
    for (int64_t at = 0; at < n && rc == 0; at += WRITE_CHUNK_ROWS) {
        int64_t m = HUDI_MIN(WRITE_CHUNK_ROWS, n - at);
        hudi_batch_free(b);
        b = NULL;
        if ((rc = hudi_batch_new(&b, schema, err)) < 0) goto done;
        for (int32_t j = 0; j < schema->n_children && rc == 0; j++) {
            if (j == name_col) {
                for (int64_t i = 0; i < m && rc == 0; i++)
                    rc = hudi_array_append_bytes(b->columns[j], name.data, name.len, err);
            } else {
                rc = hudi_take_rows(b->columns[j], x->all->columns[j], order + at, m, err);
            }
        }
        if (rc == 0) rc = hudi_key_footer_add(&kf, b->columns[key_col], m, err);
        if (rc < 0) goto done;
        b->num_rows = m;
        if ((rc = hudi_pq_writer_write(w, b, err)) < 0) goto done;
    }
    o->rows = n;
    rc = hudi_key_footer_put(&kf, w, err);
    if (rc < 0) goto done;
    hudi_pq_writer *cw = w;
    w = NULL;
    rc = hudi_pq_writer_close(cw, &o->size_bytes, err);
done:
    hudi_pq_writer_abort(w);
    hudi_batch_free(b);
    hudi_key_footer_dispose(&kf);
    hudi_buf_dispose(&name);
    hudi_buf_dispose(&rel);
    hudi_buf_dispose(&path);
    return rc;
}

/* The group's slices must still be the latest of their file groups (no write since the
 * schedule changed them, which the update strategy forbids) and in one partition. */
static int check_group(const hudi_table *t, const hudi_fs_view *v, const hudi_cluster_group *g,
                       hudi_error *err) {
    for (size_t i = 0; i < g->n_slices; i++) {
        const hudi_cluster_slice *sl = &g->slices[i];
        if (strcmp(sl->partition, g->slices[0].partition) != 0)
            return hudi_error_set(err, HUDI_EUNSUPPORTED,
                                  "%s: a clustering group spans partitions '%s' and '%s'",
                                  t->base_path, g->slices[0].partition, sl->partition);
        const hudi_file_slice *s = NULL;
        size_t n = 0;
        bool found = false;
        if (hudi_fs_view_latest_slices_in(v, sl->partition, &s, &n) == 0)
            for (size_t k = 0; k < n && !found; k++) {
                if (strcmp(s[k].file_id, sl->file_id) != 0) continue;
                const char *base = strrchr(sl->data_path, '/');
                base = base ? base + 1 : sl->data_path;
                found = (s[k].base ? strcmp(s[k].base->name, base) == 0 : !*base) &&
                        s[k].logs_count == sl->n_logs;
            }
        if (!found)
            return hudi_error_set(err, HUDI_ECONFLICT,
                                  "%s: file group %s of partition '%s' changed since the "
                                  "clustering was planned",
                                  t->base_path, sl->file_id, sl->partition);
    }
    return 0;
}

static int run_group(cexec *x, const hudi_cluster_group *g, const char *sort_columns,
                     int64_t target_bytes, hudi_error *err) {
    hudi_table *t = x->t;
    if (g->n_slices == 0) return 0;
    const char *part = g->slices[0].partition;
    const char **ids = hudi_calloc(g->n_slices, sizeof(char *));
    hudi_reader *r = NULL;
    hudi_field schema = {0};
    hudi_batch *all = NULL;
    int32_t *order = NULL;
    hudi_buf json = HUDI_BUF_INIT, full = HUDI_BUF_INIT;
    int64_t bytes = 0;
    if (!ids) return hudi_error_oom(err);
    for (size_t i = 0; i < g->n_slices; i++) ids[i] = g->slices[i].file_id;
    hudi_scan_options so = HUDI_SCAN_OPTIONS_INIT;
    int rc = hudi_reader_open(&r, t, &so, err);
    if (rc == 0) rc = hudi_reader_only_file_groups(r, part, ids, g->n_slices, err);
    for (size_t i = 0; rc == 0 && i < hudi_reader_file_count(r); i++)
        bytes += hudi_reader_file(r, i)->size_bytes;
    if (rc < 0) goto done;
    if (hudi_field_copy(&schema, hudi_reader_schema(r)) < 0) goto oom;
    hudi_schema_record_fullname(&full, t->cfg.name);
    if (hudi_buf_failed(&full)) goto oom;
    hudi_free(schema.name);
    if (!(schema.name = hudi_strdup(full.data))) goto oom;
    if ((rc = hudi_schema_write_avro(&json, &schema, HUDI_AVRO_STYLE_HUDI, err)) < 0) goto done;
    if ((rc = hudi_batch_new(&all, &schema, err)) < 0) goto done;
    for (;;) {
        hudi_batch *in = NULL;
        if ((rc = hudi_reader_next(r, &in, err)) < 0) goto done;
        if (!in) break;
        for (int32_t j = 0; j < schema.n_children && rc == 0; j++)
            rc = hudi_array_append_range(all->columns[j], in->columns[j], 0, in->num_rows, err);
        if (rc < 0) goto done;
        all->num_rows += in->num_rows;
    }
    x->all = all;
    if ((rc = resolve_sort(x, &schema, sort_columns, err)) < 0) goto done;
    int64_t n = all->num_rows;
    if (!(order = hudi_calloc((size_t)n + 1, sizeof(int32_t)))) goto oom;
    for (int64_t i = 0; i < n; i++) order[i] = (int32_t)i;
    if (x->n_sort > 0) {
        sort_ctx = x;
        qsort(order, (size_t)n, sizeof(int32_t), cmp_rows);
        sort_ctx = NULL;
    }
    /* numOutputFileGroups files, more when the input's bytes would pass the target size */
    int64_t files = g->num_output > 0 ? g->num_output : 1;
    int64_t by_size = target_bytes > 0 ? (bytes + target_bytes - 1) / target_bytes : 1;
    if (by_size > files) files = by_size;
    if (files > n) files = n > 0 ? n : 1;
    int64_t at = 0;
    for (int64_t f = 0; f < files && n > 0 && rc == 0; f++) {
        int64_t take = n / files + (f < n % files ? 1 : 0);
        rc = write_file(x, &schema, json.data, part, order + at, take, err);
        at += take;
    }
    goto done;
oom:
    rc = hudi_error_oom(err);
done:
    x->all = NULL;
    hudi_free(order);
    hudi_batch_free(all);
    hudi_reader_free(r);
    hudi_field_dispose(&schema);
    hudi_buf_dispose(&json);
    hudi_buf_dispose(&full);
    hudi_free(ids);
    return rc;
}

/* extraMetadata "schema" of the commit the table schema comes from (the latest with one). */
static int copy_schema(hudi_table *t, hudi_commit_metadata *md, hudi_error *err) {
    hudi_schema_view *sv = NULL;
    int rc = hudi_schema_view_open(&sv, t, NULL, err);
    const char *at = rc == 0 ? hudi_schema_view_instant(sv) : NULL;
    const hudi_instant *in = NULL;
    if (rc == 0 && at && *at && hudi_timeline_find(&in, t->timeline, at, NULL) == 0 &&
        in->state == HUDI_STATE_COMPLETED) {
        hudi_buf js = HUDI_BUF_INIT;
        hudi_commit_metadata *src = NULL;
        if (hudi_timeline_read_commit_json(&js, t->timeline, in, NULL) == 0 &&
            hudi_commit_metadata_parse(&src, js.data, js.len, in->file, NULL) == 0) {
            const char *s = hudi_commit_metadata_extra(src, "schema");
            if (s) rc = hudi_commit_metadata_set_extra(md, "schema", s, err);
        }
        hudi_commit_metadata_free(src);
        hudi_buf_dispose(&js);
    }
    hudi_schema_view_free(sv);
    return rc;
}

static int complete(cexec *x, const hudi_cluster_plan *p, hudi_error *err) {
    hudi_commit_metadata *md = NULL;
    hudi_buf body = HUDI_BUF_INIT;
    int rc = hudi_commit_metadata_new(&md, err);
    for (size_t i = 0; rc == 0 && i < x->n_outs; i++) {
        const cout *o = &x->outs[i];
        hudi_write_stat st = {0};
        st.file_id = o->file_id;
        st.path = o->rel_path;
        st.prev_commit = "null";
        st.num_writes = o->rows;
        st.num_inserts = o->rows;
        st.total_write_bytes = o->size_bytes;
        st.file_size_bytes = o->size_bytes;
        st.partition_path = o->partition;
        rc = hudi_commit_metadata_add_write_stat(md, NULL, &st, err);
    }
    if (rc == 0) md->is_replace = true;
    for (size_t g = 0; rc == 0 && g < p->n_groups; g++)
        for (size_t s = 0; rc == 0 && s < p->groups[g].n_slices; s++)
            rc = hudi_commit_metadata_add_replaced(md, p->groups[g].slices[s].partition,
                                                   p->groups[g].slices[s].file_id, err);
    if (rc == 0) rc = copy_schema(x->t, md, err);
    if (rc == 0) rc = hudi_commit_metadata_set_operation(md, "CLUSTER", err);
    if (rc == 0) rc = hudi_commit_metadata_write(md, &body, err);
    if (rc == 0)
        rc =
            hudi_timeline_write_instant(x->t->timeline, x->instant, HUDI_ACTION_REPLACECOMMIT,
                                        HUDI_STATE_COMPLETED, HUDI_SLICE(body.data, body.len), err);
    hudi_commit_metadata_free(md);
    hudi_buf_dispose(&body);
    return rc;
}

/* Rolls a failed execution back to its plan: the files named by the instant, then the
 * inflight instant file (the requested plan stays). */
static int rollback_inflight(hudi_table *t, const char *time, hudi_error *err) {
    char **files = NULL;
    size_t nf = 0;
    int rc = hudi_write_list_tree(t->fs, t->base_path, &files, &nf, err);
    hudi_buf p = HUDI_BUF_INIT, suffix = HUDI_BUF_INIT;
    hudi_buf_printf(&suffix, "_%s.parquet", time);
    for (size_t k = 0; rc == 0 && k < nf; k++) {
        size_t l = strlen(files[k]);
        if (strncmp(files[k], ".hoodie", 7) == 0 || l < suffix.len ||
            strcmp(files[k] + l - suffix.len, suffix.data) != 0)
            continue;
        hudi_buf_clear(&p);
        hudi_buf_printf(&p, "%s/%s", t->base_path, files[k]);
        rc = hudi_fs_remove(t->fs, p.data, err);
    }
    hudi_write_free_strings(files, nf);
    hudi_buf_dispose(&p);
    hudi_buf_dispose(&suffix);
    if (rc < 0) return rc;
    hudi_instant in = {0};
    const hudi_instant *f = NULL;
    if (hudi_timeline_find(&f, t->timeline, time, NULL) < 0) return 0;
    in = *f;
    in.state = HUDI_STATE_INFLIGHT;
    if ((rc = hudi_instant_format(&in, t->timeline->layout, err)) < 0) return rc;
    hudi_buf path = HUDI_BUF_INIT;
    hudi_buf_printf(&path, "%s/.hoodie/%s", t->base_path, in.file);
    if (hudi_buf_failed(&path))
        rc = hudi_error_oom(err);
    else if (hudi_fs_exists(t->fs, path.data))
        rc = hudi_fs_remove(t->fs, path.data, err);
    hudi_buf_dispose(&path);
    if (rc == 0) rc = hudi_tbl_reload(t, err);
    return rc;
}

static int execute_locked(hudi_table *t, const char *time, int64_t target_bytes, hudi_error *err) {
    hudi_cluster_plan *p = NULL;
    hudi_fs_view *v = NULL;
    cexec x;
    memset(&x, 0, sizeof(x));
    x.t = t;
    x.instant = time;
    if (!is_pending(t->timeline, time))
        return hudi_error_set(err, HUDI_ENOTFOUND, "%s: no pending clustering at %s", t->base_path,
                              time);
    int rc = hudi_cluster_plan_read(&p, t->timeline, time, err);
    if (rc < 0) return rc;
    if (p->strategy_class && *p->strategy_class &&
        !strstr(p->strategy_class, "SortAndSizeExecutionStrategy")) {
        rc = hudi_error_set(err, HUDI_EUNSUPPORTED,
                            "%s: clustering %s uses the execution strategy %s; hudic executes "
                            "SparkSortAndSizeExecutionStrategy plans only",
                            t->base_path, time, p->strategy_class);
        goto done;
    }
    if ((rc = rollback_inflight(t, time, err)) < 0) goto done;
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    if ((rc = hudi_fs_view_build(&v, t->timeline, &vo, err)) < 0) goto done;
    for (size_t g = 0; rc == 0 && g < p->n_groups; g++) rc = check_group(t, v, &p->groups[g], err);
    if (rc < 0) goto done;
    if ((rc = hudi_timeline_write_instant(t->timeline, time, HUDI_ACTION_REPLACECOMMIT,
                                          HUDI_STATE_INFLIGHT, HUDI_SLICE("", 0), err)) < 0)
        goto done;
    for (size_t g = 0; rc == 0 && g < p->n_groups; g++)
        rc = run_group(&x, &p->groups[g], p->sort_columns, target_bytes, err);
    if (rc == 0) rc = complete(&x, p, err);
done:
    for (size_t i = 0; i < x.n_outs; i++) hudi_free(x.outs[i].rel_path);
    hudi_free(x.outs);
    hudi_fs_view_free(v);
    hudi_cluster_plan_free(p);
    return rc;
}

/* ---- entry points ------------------------------------------------------------------------------
 */

static int with_lock(hudi_table *t, hudi_txn_config *tc, hudi_table_lock **lock, hudi_error *err) {
    int rc = hudi_txn_config_load(tc, t, NULL, err);
    if (rc < 0) return rc;
    if ((rc = hudi_table_lock_acquire(lock, t, tc, err)) == 0) rc = hudi_tbl_reload(t, err);
    return rc;
}

/* Hudi does not cluster tables with the simple bucket index: new file groups would not follow
 * the buckets (base-files.md §5.1). */
static int refuse_bucket_index(const hudi_table *t, hudi_error *err) {
    const char *v = hudi_props_get(&t->props, "hoodie.index.type");
    if (!v || strcasecmp(v, "BUCKET") != 0) return 0;
    return hudi_error_set(err, HUDI_EUNSUPPORTED,
                          "%s: clustering is not supported with the simple bucket index "
                          "(hoodie.index.type=BUCKET)",
                          t->base_path);
}

int hudi_tbl_cluster_schedule(hudi_table *t, const hudi_cluster_options *o, const hudi_clock *clock,
                              char instant_out[32], hudi_error *err) {
    hudi_txn_config tc;
    hudi_table_lock *lock = NULL;
    hudi_cluster_options dflt = {0};
    if (instant_out) instant_out[0] = 0;
    if (refuse_bucket_index(t, err) < 0) return HUDI_EUNSUPPORTED;
    int rc = with_lock(t, &tc, &lock, err);
    if (rc == 0) rc = schedule_locked(t, o ? o : &dflt, clock, instant_out, err);
    hudi_table_lock_release(lock);
    hudi_txn_config_dispose(&tc);
    return rc;
}

int hudi_tbl_cluster_execute(hudi_table *t, const char *instant, const hudi_cluster_options *o,
                             hudi_error *err) {
    hudi_txn_config tc;
    hudi_table_lock *lock = NULL;
    hudi_cluster_options opts = o ? *o : (hudi_cluster_options){0};
    hudi_cluster_options_defaults(&opts);
    if (refuse_bucket_index(t, err) < 0) return HUDI_EUNSUPPORTED;
    int rc = with_lock(t, &tc, &lock, err);
    if (rc == 0) rc = execute_locked(t, instant, opts.target_file_max_bytes, err);
    hudi_table_lock_release(lock);
    hudi_txn_config_dispose(&tc);
    return rc;
}

int hudi_tbl_cluster_pending(const hudi_table *t, char ***out, size_t *count, hudi_error *err) {
    *out = NULL;
    *count = 0;
    const hudi_timeline *tl = t->timeline;
    char **v = hudi_calloc(tl->count + 1, sizeof(char *));
    if (!v) return hudi_error_oom(err);
    size_t n = 0;
    for (size_t i = 0; i < tl->count; i++) {
        const hudi_instant *in = &tl->instants[i];
        if (in->state != HUDI_STATE_REQUESTED || !hudi_cluster_is_pending(tl, in->time)) continue;
        if (!(v[n++] = hudi_strdup(in->time))) {
            hudi_write_free_strings(v, n);
            return hudi_error_oom(err);
        }
    }
    *out = v;
    *count = n;
    return 0;
}
