/* txn.c - the table lock file, heartbeats and concurrency settings (see txn.h and
 * docs/formats/concurrency.md). */
#include "table/txn.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <time.h>

/* ---- settings ------------------------------------------------------------------------------ */

static int prop_long(const hudi_table *t, const char *const *props, const char *key, int64_t dflt,
                     int64_t min, int64_t *out, hudi_error *err) {
    const char *v = hudi_props_setting(&t->props, props, key);
    *out = dflt;
    if (!v || !*v) return 0;
    char *end;
    long long x = strtoll(v, &end, 10);
    if (*end || x < min)
        return hudi_error_set(err, HUDI_EINVAL, "%s: %s=%s is not a number >= %lld", t->base_path,
                              key, v, (long long)min);
    *out = x;
    return 0;
}

int hudi_txn_config_load(hudi_txn_config *out, const hudi_table *t, const char *const *props,
                         hudi_error *err) {
    memset(out, 0, sizeof(*out));
    const char *mode = hudi_props_setting(&t->props, props, "hoodie.write.concurrency.mode");
    if (mode && *mode) {
        if (strcasecmp(mode, "optimistic_concurrency_control") == 0)
            out->occ = true;
        else if (strcasecmp(mode, "single_writer") != 0)
            return hudi_error_set(err, HUDI_EUNSUPPORTED,
                                  "%s: hoodie.write.concurrency.mode=%s is not supported "
                                  "(single_writer or optimistic_concurrency_control)",
                                  t->base_path, mode);
    }
    const char *provider = hudi_props_setting(&t->props, props, "hoodie.write.lock.provider");
    if (provider && *provider && strcmp(provider, HUDI_LOCK_PROVIDER_FS) != 0)
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "%s: hoodie.write.lock.provider=%s is not supported (only %s)",
                              t->base_path, provider, HUDI_LOCK_PROVIDER_FS);
    const char *policy =
        hudi_props_setting(&t->props, props, "hoodie.cleaner.policy.failed.writes");
    if (policy && *policy && strcasecmp(policy, "LAZY") != 0 && strcasecmp(policy, "EAGER") != 0 &&
        strcasecmp(policy, "NEVER") != 0)
        return hudi_error_set(err, HUDI_EINVAL, "%s: hoodie.cleaner.policy.failed.writes=%s",
                              t->base_path, policy);
    int64_t expire_min = 0;
    int rc =
        prop_long(t, props, "hoodie.write.lock.wait_time_ms", 60000, 0, &out->lock_wait_ms, err);
    if (rc == 0)
        rc = prop_long(t, props, "hoodie.write.lock.filesystem.expire", 0, 0, &expire_min, err);
    if (rc == 0)
        rc = prop_long(t, props, "hoodie.client.heartbeat.interval_in_ms", 60000, 1,
                       &out->heartbeat_interval_ms, err);
    if (rc == 0)
        rc = prop_long(t, props, "hoodie.client.heartbeat.tolerable.misses", 2, 1,
                       &out->heartbeat_misses, err);
    if (rc < 0) return rc;
    out->lock_expire_ms = expire_min * 60000;
    const char *dir = hudi_props_setting(&t->props, props, "hoodie.write.lock.filesystem.path");
    hudi_buf p = HUDI_BUF_INIT;
    if (dir && *dir)
        hudi_buf_printf(&p, "%s/lock", dir);
    else
        hudi_buf_printf(&p, "%s/%s/lock", t->base_path, HUDI_META_DIR);
    if (hudi_buf_failed(&p)) return hudi_error_oom(err);
    out->lock_path = hudi_buf_detach(&p);
    return 0;
}

void hudi_txn_config_dispose(hudi_txn_config *c) {
    hudi_free(c->lock_path);
    c->lock_path = NULL;
}

int hudi_txn_owner(hudi_buf *out) {
    hudi_buf_printf(out, "hudic pid %ld on %s", hudi_os_pid(), hudi_os_host());
    return hudi_buf_failed(out) ? HUDI_ENOMEM : 0;
}

/* Whether `owner` names a hudic process of this host (then its process lock tells liveness). */
static bool owned_here(const char *owner) {
    long pid;
    char host[256];
    if (!owner || sscanf(owner, "hudic pid %ld on %255s", &pid, host) != 2) return false;
    return strcmp(host, hudi_os_host()) == 0;
}

/* ---- the lock file ------------------------------------------------------------------------- */

struct hudi_table_lock {
    hudi_fs *fs;
    char *path;
    hudi_fs_lock *held;
};

/* LockInfo as Jackson's default pretty printer writes it; the create time in the format
 * "yyyy-MM-dd HH:mm:ss.SSS" of the writer's local time zone. */
static int lock_info_json(hudi_buf *out) {
    int64_t now = hudi_os_now_ms();
    time_t secs = (time_t)(now / 1000);
    struct tm tm;
    char when[64];
    localtime_r(&secs, &tm);
    strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
    hudi_buf_printf(out, "{\n  \"lockCreateTime\" : \"%s.%03d\",\n  \"lockThreadName\" : \"", when,
                    (int)(now % 1000));
    hudi_txn_owner(out);
    hudi_buf_puts(out, "\",\n  \"lockStacksInfo\" : [ ]\n}");
    return hudi_buf_failed(out) ? HUDI_ENOMEM : 0;
}

typedef struct lock_owner {
    char owner[256]; /* lockThreadName, or "an unknown writer" */
    char since[64];  /* lockCreateTime, or "" */
    bool here;       /* a hudic process of this host */
    int64_t mtime_ms;
} lock_owner;

/* Reads the current lock file; ENOTFOUND when it vanished meanwhile. */
static int read_owner(lock_owner *o, hudi_fs *fs, const char *path, hudi_error *err) {
    hudi_buf b = HUDI_BUF_INIT;
    hudi_stat st;
    memset(o, 0, sizeof(*o));
    snprintf(o->owner, sizeof(o->owner), "an unknown writer");
    int rc = hudi_fs_stat(fs, path, &st, err);
    if (rc == 0) rc = hudi_fs_read_all(fs, path, &b, err);
    if (rc < 0) {
        hudi_buf_dispose(&b);
        return rc;
    }
    o->mtime_ms = st.mtime_ms;
    json_t *root = json_loadb(b.data ? b.data : "", b.len, 0, NULL);
    const char *name = json_string_value(json_object_get(root, "lockThreadName"));
    const char *since = json_string_value(json_object_get(root, "lockCreateTime"));
    if (name) {
        bool hudic = strncmp(name, "hudic ", 6) == 0;
        snprintf(o->owner, sizeof(o->owner), "%s%s", hudic ? "" : "Hudi writer thread ", name);
        o->here = owned_here(name);
    }
    if (since) snprintf(o->since, sizeof(o->since), "%s", since);
    json_decref(root);
    hudi_buf_dispose(&b);
    return 0;
}

/* Removes a lock file whose holder is gone. With `probe` held, the file is the one locked. */
static int break_lock(hudi_fs *fs, const char *path, hudi_error *err) {
    int rc = hudi_fs_remove(fs, path, err);
    if (rc == HUDI_ENOTFOUND) {
        hudi_error_clear(err);
        rc = 0;
    }
    return rc;
}

int hudi_table_lock_acquire(hudi_table_lock **out, hudi_table *t, const hudi_txn_config *cfg,
                            hudi_error *err) {
    hudi_buf info = HUDI_BUF_INIT;
    hudi_table_lock *l = hudi_calloc(1, sizeof(*l));
    lock_owner o;
    int rc = 0;
    *out = NULL;
    if (!l || !(l->path = hudi_strdup(cfg->lock_path)) || lock_info_json(&info) < 0) {
        rc = hudi_error_oom(err);
        goto fail;
    }
    l->fs = t->fs;
    int64_t start = hudi_os_now_ms(), nap = 2;
    /* A per-process jitter keeps waiting writers from polling in step. */
    unsigned seed = (unsigned)hudi_os_pid() * 2654435761u ^ (unsigned)start;
    for (;;) {
        rc = hudi_fs_create_locked(t->fs, l->path, info.data, info.len, &l->held, err);
        if (rc == 0) break;
        if (rc == HUDI_ENOTFOUND) { /* the lock folder (hoodie.write.lock.filesystem.path) */
            hudi_error_clear(err);
            char *slash = strrchr(l->path, '/');
            *slash = '\0';
            rc = hudi_fs_mkdirs(t->fs, l->path, err);
            *slash = '/';
            if (rc < 0) goto fail;
            continue;
        }
        if (rc != HUDI_EEXISTS) goto fail;
        hudi_error_clear(err);
        rc = read_owner(&o, t->fs, l->path, err);
        if (rc == HUDI_ENOTFOUND) {
            hudi_error_clear(err);
            continue; /* released meanwhile */
        }
        if (rc < 0) goto fail;
        if (o.here) {
            hudi_fs_lock *probe = NULL;
            rc = hudi_fs_lock_file(t->fs, l->path, &probe, err);
            if (rc == 0) { /* its process is gone: break the lock while holding the file */
                rc = break_lock(t->fs, l->path, err);
                hudi_fs_lock_release(probe);
                if (rc < 0) goto fail;
                continue;
            }
            if (rc == HUDI_ENOTFOUND) {
                hudi_error_clear(err);
                continue;
            }
            if (rc != HUDI_ECONFLICT) goto fail;
            hudi_error_clear(err);
        } else if (cfg->lock_expire_ms > 0 && hudi_os_now_ms() - o.mtime_ms > cfg->lock_expire_ms) {
            /* FileSystemBasedLockProvider's hoodie.write.lock.filesystem.expire */
            if ((rc = break_lock(t->fs, l->path, err)) < 0) goto fail;
            continue;
        }
        int64_t waited = hudi_os_now_ms() - start;
        if (waited >= cfg->lock_wait_ms) {
            rc = hudi_error_set(err, HUDI_ELOCKED,
                                "%s: the table is being written by another writer (%s%s%s); gave "
                                "up after %lld ms (hoodie.write.lock.wait_time_ms)",
                                t->base_path, o.owner, o.since[0] ? ", since " : "", o.since,
                                (long long)waited);
            goto fail;
        }
        int64_t left = cfg->lock_wait_ms - waited;
        int64_t sleep_ms = nap + (int64_t)(rand_r(&seed) % (unsigned)(nap + 1));
        hudi_os_sleep_ms(sleep_ms < left ? sleep_ms : left);
        if (nap < 50) nap *= 2;
    }
    hudi_buf_dispose(&info);
    *out = l;
    return 0;
fail:
    hudi_buf_dispose(&info);
    if (l) hudi_free(l->path);
    hudi_free(l);
    return rc;
}

int hudi_table_lock_check(hudi_table_lock *l, const char *base_path, hudi_error *err) {
    if (l->held->holds(l->held, l->path)) return 0;
    return hudi_error_set(err, HUDI_ECONFLICT,
                          "%s: the table lock %s was deleted by another writer while this write "
                          "held it (Apache Hudi's FileSystemBasedLockProvider deletes the lock "
                          "file when it closes, held or not); the write was rolled back and can "
                          "be retried",
                          base_path, l->path);
}

void hudi_table_lock_release(hudi_table_lock *l) {
    if (!l) return;
    /* Only our own file: another writer's, created after ours was deleted, stays. */
    if (l->held->holds(l->held, l->path)) (void)break_lock(l->fs, l->path, NULL);
    hudi_fs_lock_release(l->held);
    hudi_free(l->path);
    hudi_free(l);
}

/* ---- heartbeats ---------------------------------------------------------------------------- */

struct hudi_heartbeat {
    hudi_fs *fs;
    char *path;
    hudi_fs_lock *held;
    int64_t last_ms, interval_ms;
};

static int heartbeat_path(hudi_buf *out, const hudi_table *t, const char *instant) {
    hudi_buf_printf(out, "%s/%s/%s", t->base_path, HUDI_HEARTBEAT_DIR, instant);
    return hudi_buf_failed(out) ? HUDI_ENOMEM : 0;
}

int hudi_heartbeat_start(hudi_heartbeat **out, hudi_table *t, const hudi_txn_config *cfg,
                         const char *instant, hudi_error *err) {
    hudi_buf p = HUDI_BUF_INIT, owner = HUDI_BUF_INIT;
    hudi_heartbeat *hb = hudi_calloc(1, sizeof(*hb));
    int rc = 0;
    *out = NULL;
    hudi_txn_owner(&owner);
    hudi_buf_putc(&owner, '\n');
    if (!hb || heartbeat_path(&p, t, instant) < 0 || hudi_buf_failed(&owner)) {
        rc = hudi_error_oom(err);
        goto fail;
    }
    hb->fs = t->fs;
    hb->interval_ms = cfg->heartbeat_interval_ms;
    for (int attempt = 0;; attempt++) {
        rc = hudi_fs_create_locked(t->fs, p.data, owner.data, owner.len, &hb->held, err);
        if (rc != HUDI_ENOTFOUND || attempt > 0) break;
        hudi_error_clear(err);
        char *slash = strrchr(p.data, '/');
        *slash = '\0';
        rc = hudi_fs_mkdirs(t->fs, p.data, err);
        *slash = '/';
        if (rc < 0) break;
    }
    if (rc == HUDI_EEXISTS)
        rc = hudi_error_set(err, HUDI_EEXISTS, "%s: a heartbeat for instant %s exists already",
                            t->base_path, instant);
    if (rc < 0) goto fail;
    hb->last_ms = hudi_os_now_ms();
    hb->path = hudi_buf_detach(&p);
    hudi_buf_dispose(&owner);
    *out = hb;
    return 0;
fail:
    hudi_buf_dispose(&p);
    hudi_buf_dispose(&owner);
    hudi_free(hb);
    return rc;
}

int hudi_heartbeat_beat(hudi_heartbeat *hb, hudi_error *err) {
    int64_t now = hudi_os_now_ms();
    if (!hb || now - hb->last_ms < hb->interval_ms) return 0;
    int rc = hudi_fs_touch(hb->fs, hb->path, err);
    if (rc == 0) hb->last_ms = now;
    return rc;
}

void hudi_heartbeat_stop(hudi_heartbeat *hb) {
    if (!hb) return;
    (void)hudi_fs_remove(hb->fs, hb->path, NULL);
    hudi_fs_lock_release(hb->held);
    hudi_free(hb->path);
    hudi_free(hb);
}

int hudi_heartbeat_writer_dead(bool *dead, hudi_table *t, const hudi_txn_config *cfg,
                               const char *instant, hudi_error *err) {
    hudi_buf p = HUDI_BUF_INIT, body = HUDI_BUF_INIT;
    hudi_stat st;
    *dead = false;
    int rc = heartbeat_path(&p, t, instant) < 0 ? hudi_error_oom(err) : 0;
    if (rc == 0) rc = hudi_fs_stat(t->fs, p.data, &st, err);
    if (rc == HUDI_ENOTFOUND) { /* never started (or a writer without heartbeats): Hudi's 0 */
        hudi_error_clear(err);
        *dead = true;
        rc = 0;
        goto done;
    }
    if (rc == 0) rc = hudi_fs_read_all(t->fs, p.data, &body, err);
    if (rc == HUDI_ENOTFOUND) { /* stopped meanwhile: the writer finished; look again later */
        hudi_error_clear(err);
        rc = 0;
        goto done;
    }
    if (rc < 0) goto done;
    if (body.len && body.data[body.len - 1] == '\n') body.data[--body.len] = '\0';
    if (body.data && owned_here(body.data)) {
        hudi_fs_lock *probe = NULL;
        rc = hudi_fs_lock_file(t->fs, p.data, &probe, err);
        if (rc == 0) {
            *dead = true;
            hudi_fs_lock_release(probe);
        } else if (rc == HUDI_ECONFLICT || rc == HUDI_ENOTFOUND) {
            hudi_error_clear(err);
            rc = 0;
        }
        goto done;
    }
    *dead = hudi_os_now_ms() - st.mtime_ms > cfg->heartbeat_interval_ms * cfg->heartbeat_misses;
done:
    hudi_buf_dispose(&p);
    hudi_buf_dispose(&body);
    return rc;
}
