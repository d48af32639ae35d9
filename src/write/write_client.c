/* write_client.c - one write = one instant (docs/formats/timeline.md §6): take the table lock,
 * roll back failed writes of dead writers, pick the instant, plan, start the heartbeat, write
 * requested + inflight, then every file group (marker, partition metafile, base file), then the
 * completed instant - the commit point - and finally remove the markers, clean and release the
 * lock. With optimistic concurrency control the lock is let go while the files are written and
 * taken again to check for conflicts and commit (docs/formats/concurrency.md). Before the
 * commit point nothing is visible to readers; after it, errors in the housekeeping steps are
 * not failures of the write (the next writer redoes them). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "write/write_int.h"

static const char *const op_names[] = {"INSERT",           "UPSERT",
                                       "BULK_INSERT",      "DELETE",
                                       "INSERT_OVERWRITE", "INSERT_OVERWRITE_TABLE",
                                       "DELETE_PARTITION"};

const char *hudi_write_operation_name(hudi_write_operation op) {
    return (unsigned)op < HUDI_ARRAY_LEN(op_names) ? op_names[op] : "UNKNOWN";
}

int hudi_write_operation_parse(hudi_write_operation *out, const char *name, hudi_error *err) {
    for (size_t i = 0; i < HUDI_ARRAY_LEN(op_names); i++)
        if (strcasecmp(name, op_names[i]) == 0) {
            *out = (hudi_write_operation)i;
            return 0;
        }
    return hudi_error_set(err, HUDI_EINVAL, "unknown write operation '%s'", name);
}

static void fill_defaults(hudi_write_options *o) {
    if (o->target_file_bytes <= 0) o->target_file_bytes = WRITE_DEFAULT_TARGET_BYTES;
    if (o->small_file_bytes < 0) o->small_file_bytes = 0;
    if (o->small_file_bytes == 0) o->small_file_bytes = WRITE_DEFAULT_SMALL_BYTES;
}

int hudi_write_codec_parse(const char *name, int *codec, hudi_error *err) {
    static const struct {
        const char *name;
        int codec;
    } codecs[] = {{"uncompressed", HUDI_PQ_CODEC_UNCOMPRESSED},
                  {"none", HUDI_PQ_CODEC_UNCOMPRESSED},
                  {"snappy", HUDI_PQ_CODEC_SNAPPY},
                  {"gzip", HUDI_PQ_CODEC_GZIP},
                  {"brotli", HUDI_PQ_CODEC_BROTLI},
                  {"lz4", HUDI_PQ_CODEC_LZ4},
                  {"zstd", HUDI_PQ_CODEC_ZSTD},
                  {"lz4_raw", HUDI_PQ_CODEC_LZ4_RAW}};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(codecs); i++)
        if (strcasecmp(codecs[i].name, name) == 0) {
            *codec = codecs[i].codec;
            return 0;
        }
    return hudi_error_set(err, HUDI_EUNSUPPORTED,
                          "hoodie.parquet.compression.codec=%s: not a codec hudic writes "
                          "(uncompressed, snappy, gzip, brotli, lz4, zstd, lz4_raw)",
                          name);
}

static bool is_replace(hudi_write_operation op) {
    return op == HUDI_WRITE_INSERT_OVERWRITE || op == HUDI_WRITE_INSERT_OVERWRITE_TABLE ||
           op == HUDI_WRITE_DELETE_PARTITION;
}

static void ctx_dispose(wctx *c) {
    for (size_t i = 0; i < c->n_groups; i++) {
        hudi_free(c->groups[i].upd.v);
        hudi_free(c->groups[i].ins.v);
        hudi_free(c->groups[i].name);
        hudi_free(c->groups[i].rel_path);
        hudi_free(c->groups[i].cdc_rel_path);
        hudi_bloom_free(c->groups[i].old_bloom);
        for (size_t k = 0; k < c->groups[i].n_rolled; k++) {
            hudi_free(c->groups[i].rolled[k].name);
            hudi_free(c->groups[i].rolled[k].rel_path);
        }
        hudi_free(c->groups[i].rolled);
    }
    hudi_free(c->groups);
    hudi_bucket_dispose(&c->bucket);
    hudi_pool_free(c->pool);
    hudi_pq_block_pool_free(c->blocks);
    hudi_fs_view_free(c->view);
    hudi_wkeys_dispose(&c->idx);
    hudi_free(c->sel);
    hudi_free(c->dest);
    hudi_free(c->tagged);
    hudi_free(c->done);
    for (int32_t p = 0; p < c->n_parts; p++) hudi_free(c->parts[p].path);
    hudi_free(c->parts);
    hudi_map_dispose(&c->part_ids);
    hudi_free(c->row_part);
    hudi_array_free(c->keys);
    hudi_array_free(c->part_paths);
    hudi_field_dispose(&c->key_field);
    hudi_field_dispose(&c->part_field);
    hudi_keygen_free(c->kg);
    for (int32_t j = 0; c->cols && j < c->schema.n_children; j++)
        if (c->owned_cols[j]) hudi_array_free(c->cols[j]);
    hudi_free(c->cols);
    hudi_free(c->owned_cols);
    hudi_field_dispose(&c->schema);
    hudi_field_dispose(&c->file_schema);
    hudi_ischema_dispose(&c->ischema_new);
    hudi_schema_view_free(c->sv);
    hudi_buf_dispose(&c->schema_json);
    hudi_buf_dispose(&c->file_schema_json);
}

static int check_table(hudi_table *t, const hudi_batch *batch, const hudi_write_options *o,
                       hudi_error *err) {
    if (t->cfg.version != 6 || t->cfg.timeline_layout != 1)
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "%s: writing table version %d is not "
                              "supported (only 6)",
                              t->base_path, t->cfg.version);
    if ((unsigned)o->op > HUDI_WRITE_DELETE_PARTITION)
        return hudi_error_set(err, HUDI_EINVAL, "unknown write operation %d", (int)o->op);
    if (o->op == HUDI_WRITE_DELETE_PARTITION) {
        if (o->n_partitions <= 0 || !o->partitions)
            return hudi_error_set(err, HUDI_EINVAL, "%s: DELETE_PARTITION needs partitions",
                                  t->base_path);
    } else if (!batch) {
        return hudi_error_set(err, HUDI_EINVAL, "%s: %s needs a batch", t->base_path,
                              hudi_write_operation_name(o->op));
    }
    if (batch && batch->num_rows > INT32_MAX - 1)
        return hudi_error_set(err, HUDI_EINVAL, "%s: more than 2^31 rows in one write",
                              t->base_path);
    return 0;
}

int hudi_write_disable_metadata_table(hudi_table *t, const hudi_clock *clock, hudi_error *err) {
    const char *mp = t->cfg.metadata_partitions;
    const char *inflight = hudi_props_get(&t->props, "hoodie.table.metadata.partitions.inflight");
    if ((!mp || !*mp) && (!inflight || !*inflight)) return 0;
    int rc = hudi_props_set(&t->props, "hoodie.table.metadata.partitions", "", err);
    if (rc == 0)
        rc = hudi_props_set(&t->props, "hoodie.table.metadata.partitions.inflight", "", err);
    if (rc == 0) rc = hudi_props_store(&t->props, t->fs, t->base_path, clock, err);
    if (rc == 0) rc = hudi_table_config_from_props(&t->cfg, &t->props, t->base_path, err);
    if (rc == 0) {
        hudi_buf dir = HUDI_BUF_INIT;
        hudi_buf_printf(&dir, "%s/.hoodie/metadata", t->base_path);
        rc = hudi_buf_failed(&dir) ? hudi_error_oom(err)
                                   : hudi_write_remove_tree(t->fs, dir.data, err);
        hudi_buf_dispose(&dir);
    }
    return rc;
}

static int plan(wctx *c, hudi_error *err) {
    int rc;
    bool has_rows = c->in && c->o.op != HUDI_WRITE_DELETE_PARTITION;
    if ((rc = hudi_commit_resolve_schema(c, err)) < 0) return rc;
    if ((rc = hudi_bucket_config(c, err)) < 0) return rc;
    /* bulk_insert with the bucket index is planned as an insert: rows go to their buckets */
    if (has_rows && c->o.op == HUDI_WRITE_BULK_INSERT &&
        !c->bucket.on) { /* keys and files: chunk by chunk */
        if ((rc = hudi_bulk_plan(c, err)) < 0) return rc;
        return hudi_plan_existing_groups(c, err);
    }
    if (has_rows) {
        if ((rc = hudi_plan_keys(c, err)) < 0 || (rc = hudi_plan_dedup(c, err)) < 0) return rc;
        if (!(c->done = hudi_calloc((size_t)c->in->num_rows + 1, sizeof(bool))))
            return hudi_error_oom(err);
    }
    if ((rc = hudi_commit_estimate_record_size(c, err)) < 0) return rc;
    if ((rc = hudi_plan_existing_groups(c, err)) < 0) return rc;
    bool tag = c->o.op == HUDI_WRITE_UPSERT || c->o.op == HUDI_WRITE_DELETE;
    if (c->bucket.on) /* Hudi's HoodieBucketIndex.requiresTagging */
        tag |= c->o.op == HUDI_WRITE_INSERT || c->o.op == HUDI_WRITE_BULK_INSERT;
    if (has_rows && tag &&
        (rc = c->bucket.on ? hudi_bucket_tag(c, err) : hudi_index_tag(c, err)) < 0)
        return rc;
    if (has_rows && (rc = hudi_plan_assign(c, err)) < 0) return rc;
    return hudi_plan_check_clustering(c, err);
}

/* A writer setting: the write's props (the last of a key wins: SQL passes table properties,
 * then the session's SET values), then hoodie.properties. */
const char *hudi_write_setting(const wctx *c, const char *key) {
    return hudi_props_setting(&c->t->props, c->o.props, key);
}

/* Inline compaction (hoodie.compact.inline), Hudi's NUM_COMMITS trigger: compact once the
 * deltacommits (any state) after the latest compaction request - a pending compaction, else the
 * latest completed commit or replacecommit - number hoodie.compact.inline.max.delta.commits
 * (default 5); with neither, all deltacommits count. */
int hudi_write_inline_compaction_due(const hudi_timeline *tl, int64_t max_delta_commits) {
    const char *since = NULL;
    for (size_t i = 0; i < tl->count; i++) {
        const hudi_instant *in = &tl->instants[i];
        if (in->action == HUDI_ACTION_COMPACTION && hudi_compaction_is_pending(tl, in->time))
            since = in->time;
    }
    for (size_t i = tl->count; !since && i-- > 0;) {
        const hudi_instant *in = &tl->instants[i];
        if (in->state == HUDI_STATE_COMPLETED &&
            (in->action == HUDI_ACTION_COMMIT || in->action == HUDI_ACTION_REPLACECOMMIT))
            since = in->time;
    }
    int64_t n = 0;
    const char *last = NULL;
    for (size_t i = 0; i < tl->count; i++) {
        const hudi_instant *in = &tl->instants[i];
        if (in->action != HUDI_ACTION_DELTACOMMIT || (since && strcmp(in->time, since) <= 0) ||
            (last && strcmp(last, in->time) == 0))
            continue;
        last = in->time; /* one per instant, whatever its state files */
        n++;
    }
    return n >= max_delta_commits ? 1 : 0;
}

static void inline_compaction(wctx *c) {
    const char *on = hudi_write_setting(c, "hoodie.compact.inline");
    if (!c->mor || c->action != HUDI_ACTION_DELTACOMMIT || !on || strcasecmp(on, "true") != 0)
        return;
    const char *max = hudi_write_setting(c, "hoodie.compact.inline.max.delta.commits");
    int64_t m = max ? strtoll(max, NULL, 10) : 5;
    if (hudi_tbl_reload(c->t, NULL) < 0 ||
        hudi_write_inline_compaction_due(c->t->timeline, m < 1 ? 1 : m) <= 0)
        return;
    /* a failure leaves the compaction pending (requested or inflight): the next write's inline
     * compaction or `hudic table compact` runs it */
    hudi_compact_cfg cfg = {c->threads, c->o.codec};
    (void)hudi_tbl_compact_locked(c->t, c->o.clock, &cfg, NULL, NULL);
    (void)hudi_tbl_reload(c->t, NULL);
}

/* After the commit point: best effort (the table lock is held). */
static void finish(wctx *c, bool multi_writer) {
    hudi_buf dir = HUDI_BUF_INIT;
    hudi_buf_printf(&dir, "%s/%s/%s", c->t->base_path, WRITE_TEMP_DIR, c->instant);
    if (!hudi_buf_failed(&dir)) (void)hudi_write_remove_tree(c->t->fs, dir.data, NULL);
    hudi_buf_dispose(&dir);
    inline_compaction(c);
    if (c->o.clean_retain_commits > 0)
        (void)hudi_write_clean_locked(c->t, c->o.clean_retain_commits, c->o.clock, multi_writer,
                                      NULL);
}

/* The writer settings read once per write (write options over table properties, as Hudi's
 * write config): hoodie.hudic.parallelism, the threads of the write (file groups, index
 * lookups) and of the inline compaction it triggers (hudi_pool_parse_threads's rule: absent or
 * 0 = the default, 1 = everything in the calling thread); hoodie.parquet.compression.codec, the
 * codec of base files and Parquet log blocks (absent: the options' codec, else gzip, Hudi
 * 0.14/0.15's default); hoodie.write.markers.type, DIRECT (the default: what Hudi writes without
 * a timeline server) or TIMELINE_SERVER_BASED (the MARKERS<n> files such a server leaves, written
 * directly: one folder for the write instead of one per partition level). */
static int read_settings(wctx *c, hudi_error *err) {
    const char *v = hudi_write_setting(c, "hoodie.hudic.parallelism");
    c->threads = hudi_pool_default_threads();
    int rc = v ? hudi_pool_parse_threads("hoodie.hudic.parallelism", v, &c->threads, err) : 0;
    if (rc == 0 && (v = hudi_write_setting(c, "hoodie.parquet.compression.codec")) && *v)
        rc = hudi_write_codec_parse(v, &c->o.codec, err);
    if (c->o.codec == 0) c->o.codec = HUDI_PQ_CODEC_GZIP;
    if (rc == 0 && (v = hudi_write_setting(c, "hoodie.write.markers.type")) && *v) {
        if (strcasecmp(v, "TIMELINE_SERVER_BASED") == 0)
            c->markers_flat = true;
        else if (strcasecmp(v, "DIRECT") != 0)
            rc = hudi_error_set(err, HUDI_EINVAL,
                                "hoodie.write.markers.type=%s: not DIRECT or TIMELINE_SERVER_BASED",
                                v);
    }
    if (rc < 0) hudi_error_wrap(err, "%s", c->t->base_path);
    return rc;
}

int hudi_write_pool(wctx *c, int64_t n_tasks, hudi_pool **out, hudi_error *err) {
    *out = NULL;
    if (c->threads <= 1 || n_tasks <= 1) return 0;
    if (!c->pool) {
        int rc = hudi_pool_new(&c->pool, c->threads, err);
        if (rc < 0) return rc;
    }
    *out = c->pool;
    return 0;
}

static int pick_instant(wctx *c, hudi_error *err) {
    hudi_table *t = c->t;
    const char *last = hudi_timeline_last_time(t->timeline);
    if (!c->o.instant_time)
        return hudi_instant_time_new(c->instant, c->o.clock, t->cfg.timeline_utc, last, err);
    if (!hudi_instant_time_valid(c->o.instant_time, strlen(c->o.instant_time)) ||
        strlen(c->o.instant_time) >= sizeof(c->instant))
        return hudi_error_set(err, HUDI_EINVAL, "invalid instant time '%s'", c->o.instant_time);
    if (last && hudi_instant_time_cmp(c->o.instant_time, last) <= 0)
        return hudi_error_set(err, HUDI_EINVAL, "%s: instant %s is not after %s", t->base_path,
                              c->o.instant_time, last);
    snprintf(c->instant, sizeof(c->instant), "%s", c->o.instant_time);
    return 0;
}

/* The work of writing group gi, for hudi_write_order_by_work: the old base file's bytes plus
 * the rows routed to it at the write's average record size. */
static int64_t group_work(const wctx *c, size_t gi) {
    const wgroup *g = &c->groups[gi];
    int64_t rows = g->upd.n + g->ins.n;
    return (g->old ? g->old->size_bytes : 0) + rows * HUDI_MAX(c->avg_record_bytes, 1);
}

typedef struct work_key {
    int64_t work;
    size_t i;
} work_key;

static int work_cmp(const void *a, const void *b) {
    const work_key *x = a, *y = b;
    if (x->work != y->work) return x->work > y->work ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

int hudi_write_order_by_work(const wctx *c, size_t *order, size_t n, const size_t *gis,
                             hudi_error *err) {
    work_key *k = hudi_malloc((n + 1) * sizeof(work_key));
    if (!k) return hudi_error_oom(err);
    for (size_t i = 0; i < n; i++) k[i] = (work_key){group_work(c, gis ? gis[i] : i), i};
    qsort(k, n, sizeof(work_key), work_cmp);
    for (size_t i = 0; i < n; i++) order[i] = k[i].i;
    hudi_free(k);
    return 0;
}

/* The file groups of a write, one task each (on the pool with hoodie.hudic.parallelism > 1):
 * every task writes its own group (name, marker, file, stats) and the rows routed to it; the
 * heartbeat is beaten under a mutex; the lowest failing group's error is the write's, and the
 * files of the others are found by their markers when the write is rolled back. */
typedef struct group_run {
    wctx *c;
    hudi_heartbeat *hb;
    hudi_progress *p;
    pthread_mutex_t mu;  /* hb */
    const size_t *order; /* task i writes group order[i] */
} group_run;

static int group_task(void *payload, int64_t i, hudi_error *err) {
    group_run *r = payload;
    wctx *c = r->c;
    size_t gi = r->order[i];
    if (!c->groups[gi].active) return 0;
    int rc = c->groups[gi].append ? hudi_mor_append_group(c, gi, err)
                                  : hudi_merge_write_group(c, gi, err);
    if (rc == 0) {
        pthread_mutex_lock(&r->mu);
        rc = hudi_heartbeat_beat(r->hb, err);
        pthread_mutex_unlock(&r->mu);
    }
    if (r->p) atomic_fetch_add(&r->p->done, 1);
    return rc;
}

/* What the group tasks would otherwise do on shared state, done first in the caller in group
 * order: each partition's metafile (written by its first new base file's group, with that
 * group's write token, at the table clock's time) and the schema view's cache of the old
 * files' InternalSchemas. */
static int before_groups(wctx *c, hudi_error *err) {
    int rc = 0;
    bool *seen = hudi_calloc((size_t)c->n_parts + 1, sizeof(bool));
    if (!seen) return hudi_error_oom(err);
    for (size_t gi = 0; rc == 0 && gi < c->n_groups; gi++) {
        wgroup *g = &c->groups[gi];
        if (!g->active || g->append) continue;
        if (c->ischema && g->old) {
            const hudi_ischema *is = NULL;
            rc = hudi_schema_view_file(&is, c->sv, g->prev_commit, err);
        }
        if (rc == 0 && !seen[g->part]) {
            seen[g->part] = true;
            char token[HUDI_WRITE_TOKEN_MAX];
            hudi_write_token_format(token, (uint64_t)g->task, 0, (uint64_t)g->task);
            rc = hudi_partition_meta_write(c->t->fs, c->t->base_path, c->parts[g->part].path,
                                           c->instant, token, c->o.clock, err);
        }
    }
    hudi_free(seen);
    return rc;
}

static int write_groups(wctx *c, hudi_heartbeat *hb, hudi_error *err) {
    hudi_progress *p = c->o.progress;
    int64_t total = 0;
    for (size_t gi = 0; gi < c->n_groups; gi++) total += c->groups[gi].active;
    if (p) {
        atomic_store(&p->done, 0);
        atomic_store(&p->total, total);
        atomic_store(&p->rows, c->in ? c->in->num_rows : 0);
        atomic_store(&p->phase, HUDI_PROGRESS_PHASE_WRITE);
    }
    hudi_pool *pool = NULL;
    int rc = before_groups(c, err);
    if (rc == 0) rc = hudi_write_pool(c, total, &pool, err);
    if (rc < 0) return rc;
    size_t *order = hudi_calloc(c->n_groups + 1, sizeof(size_t));
    if (!order) return hudi_error_oom(err);
    if ((rc = hudi_write_order_by_work(c, order, c->n_groups, NULL, err)) < 0) {
        hudi_free(order);
        return rc;
    }
    group_run r = {c, hb, p, PTHREAD_MUTEX_INITIALIZER, order};
    rc = hudi_pool_run(pool, (int64_t)c->n_groups, group_task, &r, err);
    pthread_mutex_destroy(&r.mu);
    hudi_free(order);
    return rc;
}

/* Undoes a write that failed after its requested instant: rolls it back under the lock (taken
 * again with OCC), else leaves it to the next writer, who sees its heartbeat stopped. */
static void abandon(wctx *c, const hudi_txn_config *tc, hudi_table_lock **lock) {
    hudi_error scratch = HUDI_ERROR_INIT;
    if (!*lock && hudi_table_lock_acquire(lock, c->t, tc, &scratch) < 0) return;
    if (hudi_tbl_reload(c->t, &scratch) == 0)
        (void)hudi_write_rollback_instant(c->t, c->instant, c->o.clock, &scratch);
}

int hudi_tbl_write(hudi_table *t, const hudi_batch *batch, const hudi_write_options *opts,
                   hudi_table_write_result *result, hudi_error *err) {
    wctx c;
    memset(&c, 0, sizeof(c));
    hudi_write_options dflt = HUDI_WRITE_OPTIONS_INIT;
    hudi_table_write_result scratch;
    hudi_txn_config tc;
    hudi_table_lock *lock = NULL;
    hudi_heartbeat *hb = NULL;
    hudi_occ_snapshot snap = {0};
    bool started = false, committed = false;
    c.t = t;
    c.o = opts ? *opts : dflt;
    c.res = result ? result : &scratch;
    memset(c.res, 0, sizeof(*c.res));
    c.in = c.o.op == HUDI_WRITE_DELETE_PARTITION ? NULL : batch;
    fill_defaults(&c.o);
    int rc = check_table(t, c.in, &c.o, err);
    if (rc == 0) rc = read_settings(&c, err);
    if (rc < 0) return rc;
    if ((rc = hudi_txn_config_load(&tc, t, c.o.props, err)) < 0) return rc;
    /* Everything from the first look at the timeline holds the table lock
     * (docs/formats/concurrency.md). */
    if ((rc = hudi_table_lock_acquire(&lock, t, &tc, err)) < 0) goto done;
    if ((rc = hudi_pq_block_pool_new(&c.blocks, err)) < 0) goto done;
    if ((rc = hudi_tbl_reload(t, err)) < 0) goto done;
    if ((rc = hudi_write_disable_metadata_table(t, c.o.clock, err)) < 0) goto done;
    if ((rc = hudi_write_rollback_failed(t, &tc, c.o.clock, err)) < 0) goto done;
    if ((rc = pick_instant(&c, err)) < 0) goto done;
    /* merge-on-read writes are deltacommits (timeline.md); overwrites replace file groups on
     * either table type */
    c.mor = t->cfg.type == HUDI_MERGE_ON_READ;
    c.action = is_replace(c.o.op) ? HUDI_ACTION_REPLACECOMMIT
               : c.mor            ? HUDI_ACTION_DELTACOMMIT
                                  : HUDI_ACTION_COMMIT;
    if ((rc = plan(&c, err)) < 0) goto done;
    char planned[sizeof(c.instant)];
    memcpy(planned, c.instant, sizeof(planned));
    if (tc.occ && (rc = hudi_occ_snapshot_take(&snap, t, err)) < 0) goto done;
    /* A writer that died before its requested instant can leave a heartbeat named after an
     * instant that never reached the timeline; the instant is then taken: pick a later one. */
    for (int tries = 0; (rc = hudi_heartbeat_start(&hb, t, &tc, c.instant, err)) == HUDI_EEXISTS &&
                        tries < 8 && !c.o.instant_time;
         tries++) {
        char taken[sizeof(c.instant)];
        hudi_error_clear(err);
        memcpy(taken, c.instant, sizeof(taken));
        if ((rc = hudi_instant_time_new(c.instant, c.o.clock, t->cfg.timeline_utc, taken, err)) < 0)
            goto done;
    }
    if (rc == HUDI_EEXISTS)
        rc = hudi_error_set(err, HUDI_ECONFLICT, "%s: a heartbeat for instant %s exists already",
                            t->base_path, c.instant);
    if (rc < 0) goto done;
    if (strcmp(planned, c.instant) != 0) hudi_plan_rekey(&c, planned);
    started = true;
    if ((rc = hudi_commit_write_requested(&c, err)) < 0) goto done;
    if (tc.occ) { /* the files are written without the lock; the commit checks for conflicts */
        hudi_table_lock_release(lock);
        lock = NULL;
    }
    if ((rc = hudi_commit_write_inflight(&c, err)) < 0) goto done;
    if ((rc = hudi_commit_start_markers(&c, err)) < 0) goto done;
    if (c.in && c.o.op == HUDI_WRITE_BULK_INSERT && !c.bucket.on)
        rc = hudi_bulk_write(&c, hb, err);
    else
        rc = write_groups(&c, hb, err);
    if (rc < 0) goto done;
    if (c.o.before_commit) c.o.before_commit(c.o.payload);
    if (tc.occ) {
        if ((rc = hudi_table_lock_acquire(&lock, t, &tc, err)) < 0) goto done;
        if ((rc = hudi_tbl_reload(t, err)) < 0) goto done;
        if ((rc = hudi_occ_check(&c, &snap, err)) < 0) goto done;
    }
    if ((rc = hudi_heartbeat_beat(hb, err)) < 0) goto done;
    if ((rc = hudi_table_lock_check(lock, t->base_path, err)) < 0) {
        hudi_table_lock_release(lock); /* lost: the rollback takes it anew */
        lock = NULL;
        goto done;
    }
    if ((rc = hudi_commit_complete(&c, err)) < 0) goto done;
    committed = true;
    snprintf(c.res->instant, sizeof(c.res->instant), "%s", c.instant);
    hudi_heartbeat_stop(hb);
    hb = NULL;
    finish(&c, tc.occ);
done:
    if (rc < 0 && started && !committed) abandon(&c, &tc, &lock);
    hudi_heartbeat_stop(hb);
    hudi_table_lock_release(lock);
    hudi_occ_snapshot_dispose(&snap);
    hudi_txn_config_dispose(&tc);
    ctx_dispose(&c);
    return rc;
}
