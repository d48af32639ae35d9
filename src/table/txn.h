/* txn.h - what concurrent writers of one table share on storage (docs/formats/concurrency.md):
 * the concurrency settings, the table lock file of Hudi's FileSystemBasedLockProvider
 * (.hoodie/lock, LockInfo JSON) and the heartbeat files of HoodieHeartbeatClient
 * (.hoodie/.heartbeat/<instant>, liveness by modification time).
 *
 * hudic additionally holds a process-bound lock (hudi_fs_lock: flock on local disk) on every
 * lock and heartbeat file it creates and names itself in their content, so another hudic
 * process on the same host knows at once that their owner died; files of other writers (Spark,
 * other hosts) expire by time only, as in Hudi. */
#ifndef HUDI_TABLE_TXN_H
#define HUDI_TABLE_TXN_H

#include "table/tbl.h"

#define HUDI_LOCK_PROVIDER_FS "org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider"
#define HUDI_HEARTBEAT_DIR ".hoodie/.heartbeat"

/* Settings of a writer, from the write's properties first, then hoodie.properties. */
typedef struct hudi_txn_config {
    bool occ;               /* hoodie.write.concurrency.mode=optimistic_concurrency_control */
    int64_t lock_wait_ms;   /* hoodie.write.lock.wait_time_ms (60000) */
    int64_t lock_expire_ms; /* hoodie.write.lock.filesystem.expire (minutes; 0 = never) */
    char *lock_path;        /* <hoodie.write.lock.filesystem.path or .hoodie>/lock */
    int64_t heartbeat_interval_ms; /* hoodie.client.heartbeat.interval_in_ms (60000) */
    int64_t heartbeat_misses;      /* hoodie.client.heartbeat.tolerable.misses (2) */
} hudi_txn_config;

/* `props` is a NULL-terminated key, value list (may be NULL). EINVAL names a bad value,
 * EUNSUPPORTED a lock provider other than the file-system one or a concurrency mode hudic
 * does not have. */
int hudi_txn_config_load(hudi_txn_config *out, const hudi_table *t, const char *const *props,
                         hudi_error *err);
void hudi_txn_config_dispose(hudi_txn_config *c);

/* ---- the table lock ------------------------------------------------------------------------ */

typedef struct hudi_table_lock hudi_table_lock;

/* Takes the table lock, waiting up to cfg->lock_wait_ms; a lock left by a dead hudic process on
 * this host is broken at once, an expired one (lock_expire_ms) as Hudi does. HUDI_ELOCKED
 * "<base>: the table is being written by another writer (<owner>, since <time>); gave up after
 * N ms (hoodie.write.lock.wait_time_ms)". */
int hudi_table_lock_acquire(hudi_table_lock **out, hudi_table *t, const hudi_txn_config *cfg,
                            hudi_error *err);
/* ECONFLICT when the lock file is no longer the one this lock created: another writer deleted
 * it (Hudi's FileSystemBasedLockProvider.close() deletes it unconditionally), so exclusion is
 * lost. Checked right before a commit point. */
int hudi_table_lock_check(hudi_table_lock *l, const char *base_path, hudi_error *err);
/* Deletes the lock file if it is still ours and drops the process lock (NULL-safe; never
 * fails: a lock file that cannot be deleted is broken by the next hudic writer, its holder
 * being gone). */
void hudi_table_lock_release(hudi_table_lock *l);

/* ---- heartbeats ---------------------------------------------------------------------------- */

typedef struct hudi_heartbeat hudi_heartbeat;

/* Creates .hoodie/.heartbeat/<instant> (before the instant's requested file, as Hudi does).
 * HUDI_EEXISTS when that heartbeat exists already (left by a writer that died). */
int hudi_heartbeat_start(hudi_heartbeat **out, hudi_table *t, const hudi_txn_config *cfg,
                         const char *instant, hudi_error *err);
/* Refreshes the modification time when an interval has passed since the last beat. */
int hudi_heartbeat_beat(hudi_heartbeat *hb, hudi_error *err);
/* Deletes the file (best effort) and drops the process lock. NULL-safe. */
void hudi_heartbeat_stop(hudi_heartbeat *hb);

/* Whether the writer of pending `instant` is known to be dead: no heartbeat file (Hudi: last
 * beat 0), a hudic heartbeat of this host whose process lock is free, or a heartbeat older
 * than interval * tolerable misses. */
int hudi_heartbeat_writer_dead(bool *dead, hudi_table *t, const hudi_txn_config *cfg,
                               const char *instant, hudi_error *err);

/* The owner string hudic writes: "hudic pid <pid> on <host>". */
int hudi_txn_owner(hudi_buf *out);

#endif
