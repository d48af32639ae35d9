/* storage.h - the file-system interface: the only door to files in hudic.
 *
 * A hudi_fs is a vtable plus state. Backends: local disk (local.c), memory (memory.c,
 * for tests and scratch), and a fault-injecting wrapper (faulty.c) that fails the Nth
 * call or the Nth byte written, to prove crash safety. Object stores plug in later
 * through the same vtable.
 *
 * Paths are '/'-separated strings; backends interpret them (local: POSIX paths).
 * Reads are positional (read_at), so one open file serves many readers. Writes are
 * sequential through a hudi_writer; a writer is visible at its path only after a
 * successful close (local: written to a temporary name then renamed), so a crash never
 * leaves a half-written file under the final name. */
#ifndef HUDI_STORAGE_H
#define HUDI_STORAGE_H

#include "base/base.h"

typedef struct hudi_fs hudi_fs;
typedef struct hudi_file hudi_file;
typedef struct hudi_writer hudi_writer;
typedef struct hudi_fs_lock hudi_fs_lock;

typedef struct hudi_stat {
    int64_t size_bytes;
    int64_t mtime_ms;
    bool is_dir;
} hudi_stat;

typedef struct hudi_dirent {
    char *name; /* owned by the listing; file name only, no directory */
    bool is_dir;
    int64_t size_bytes;
    int64_t mtime_ms;
} hudi_dirent;

typedef struct hudi_dir_listing {
    hudi_dirent *entries; /* sorted by name */
    size_t count;
} hudi_dir_listing;

enum {
    HUDI_CREATE_OVERWRITE = 0, /* replace an existing file on close */
    HUDI_CREATE_EXCLUSIVE =
        1, /* fail with HUDI_EEXISTS if the path exists (checked at close too) */
};

typedef struct hudi_fs_ops {
    const char *name;
    int (*open)(hudi_fs *fs, const char *path, hudi_file **out, hudi_error *err);
    int (*create)(hudi_fs *fs, const char *path, int mode, hudi_writer **out, hudi_error *err);
    int (*stat)(hudi_fs *fs, const char *path, hudi_stat *out, hudi_error *err);
    int (*list)(hudi_fs *fs, const char *dir, hudi_dir_listing *out, hudi_error *err);
    int (*remove)(hudi_fs *fs, const char *path, hudi_error *err); /* file or empty dir */
    int (*rename)(hudi_fs *fs, const char *from, const char *to, hudi_error *err);
    int (*mkdirs)(hudi_fs *fs, const char *path, hudi_error *err);
    void (*destroy)(hudi_fs *fs);
    /* Process-bound locks (table locks and heartbeats, docs/formats/concurrency.md). A lock is
     * held on a file until released or until the process that took it ends, however it ends
     * (local: flock(2) on the file's inode). create_locked atomically creates `path` holding
     * `data`, already locked before it becomes visible; HUDI_EEXISTS if it exists. lock_file
     * locks the existing file at `path`: HUDI_ECONFLICT when a live holder has it,
     * HUDI_ENOTFOUND when it is absent or was replaced meanwhile. */
    int (*create_locked)(hudi_fs *fs, const char *path, const void *data, size_t len,
                         hudi_fs_lock **out, hudi_error *err);
    int (*lock_file)(hudi_fs *fs, const char *path, hudi_fs_lock **out, hudi_error *err);
    /* Sets the modification time of an existing file to now (heartbeats). */
    int (*touch)(hudi_fs *fs, const char *path, hudi_error *err);
} hudi_fs_ops;

/* A held lock; release never fails and never touches the file's contents or name. */
struct hudi_fs_lock {
    void (*release)(hudi_fs_lock *lock);
    /* Whether `path` still names the locked file (not deleted or replaced by someone else). */
    bool (*holds)(hudi_fs_lock *lock, const char *path);
};

struct hudi_fs {
    const hudi_fs_ops *ops;
};

typedef struct hudi_file_ops {
    /* Reads exactly len bytes at offset; short reads are an error (ECORRUPT "truncated"). */
    int (*read_at)(hudi_file *f, int64_t offset, void *buf, size_t len, hudi_error *err);
    /* Optional: a borrowed view of [offset, offset+len) valid until close (mmap or memory);
     * NULL when the backend cannot. */
    int (*view)(hudi_file *f, int64_t offset, size_t len, const uint8_t **out, hudi_error *err);
    void (*close)(hudi_file *f);
} hudi_file_ops;

struct hudi_file {
    const hudi_file_ops *ops;
    int64_t size_bytes;
    char *path; /* for error messages */
};

typedef struct hudi_writer_ops {
    int (*write)(hudi_writer *w, const void *data, size_t len, hudi_error *err);
    int (*close)(hudi_writer *w, hudi_error *err); /* publish; frees w even on failure */
    void (*abort)(hudi_writer *w);                 /* discard; frees w */
} hudi_writer_ops;

struct hudi_writer {
    const hudi_writer_ops *ops;
    int64_t written_bytes;
    char *path;
};

/* Backends. */
int hudi_fs_local_new(hudi_fs **out, hudi_error *err);
int hudi_fs_memory_new(hudi_fs **out, hudi_error *err);
/* Memory backend only (tests): sets a file's modification time. */
int hudi_fs_memory_set_mtime(hudi_fs *fs, const char *path, int64_t mtime_ms, hudi_error *err);
/* Wraps `inner` (borrowed; must outlive the wrapper). Fails call number `fail_call`
 * (1-based, counting every fs, file and writer call; 0 = never) and/or the write that
 * would take the total written bytes past `fail_after_bytes` (-1 = never). After the first
 * injected failure every later mutating call also fails when `sticky` is set, which
 * models a crashed process. */
typedef struct hudi_fault_plan {
    int64_t fail_call;
    int64_t fail_after_bytes;
    bool sticky;
} hudi_fault_plan;
int hudi_fs_faulty_new(hudi_fs **out, hudi_fs *inner, hudi_fault_plan plan, hudi_error *err);
int64_t hudi_fs_faulty_calls(const hudi_fs *fs); /* calls seen so far */
bool hudi_fs_faulty_tripped(const hudi_fs *fs);  /* a failure was injected */

/* Convenience wrappers (NULL-safe frees). */
static inline int hudi_fs_open(hudi_fs *fs, const char *path, hudi_file **out, hudi_error *err) {
    *out = NULL;
    return fs->ops->open(fs, path, out, err);
}
static inline int hudi_fs_create(hudi_fs *fs, const char *path, int mode, hudi_writer **out,
                                 hudi_error *err) {
    *out = NULL;
    return fs->ops->create(fs, path, mode, out, err);
}
static inline int hudi_fs_stat(hudi_fs *fs, const char *path, hudi_stat *out, hudi_error *err) {
    return fs->ops->stat(fs, path, out, err);
}
static inline int hudi_fs_list(hudi_fs *fs, const char *dir, hudi_dir_listing *out,
                               hudi_error *err) {
    return fs->ops->list(fs, dir, out, err);
}
static inline int hudi_fs_remove(hudi_fs *fs, const char *path, hudi_error *err) {
    return fs->ops->remove(fs, path, err);
}
static inline int hudi_fs_rename(hudi_fs *fs, const char *from, const char *to, hudi_error *err) {
    return fs->ops->rename(fs, from, to, err);
}
static inline int hudi_fs_mkdirs(hudi_fs *fs, const char *path, hudi_error *err) {
    return fs->ops->mkdirs(fs, path, err);
}
static inline int hudi_fs_create_locked(hudi_fs *fs, const char *path, const void *data, size_t len,
                                        hudi_fs_lock **out, hudi_error *err) {
    *out = NULL;
    return fs->ops->create_locked(fs, path, data, len, out, err);
}
static inline int hudi_fs_lock_file(hudi_fs *fs, const char *path, hudi_fs_lock **out,
                                    hudi_error *err) {
    *out = NULL;
    return fs->ops->lock_file(fs, path, out, err);
}
static inline int hudi_fs_touch(hudi_fs *fs, const char *path, hudi_error *err) {
    return fs->ops->touch(fs, path, err);
}
void hudi_fs_lock_release(hudi_fs_lock *lock); /* NULL-safe */
void hudi_fs_free(hudi_fs *fs);
static inline int hudi_file_read_at(hudi_file *f, int64_t off, void *buf, size_t len,
                                    hudi_error *err) {
    return f->ops->read_at(f, off, buf, len, err);
}
/* Returns a borrowed view when the backend supports it, else 0 with *out = NULL. */
int hudi_file_view(hudi_file *f, int64_t off, size_t len, const uint8_t **out, hudi_error *err);
void hudi_file_close(hudi_file *f);
static inline int hudi_writer_write(hudi_writer *w, const void *data, size_t len, hudi_error *err) {
    return w->ops->write(w, data, len, err);
}
int hudi_writer_close(hudi_writer *w, hudi_error *err); /* NULL-safe */
void hudi_writer_abort(hudi_writer *w);                 /* NULL-safe */
void hudi_dir_listing_dispose(hudi_dir_listing *l);

/* Whole-file helpers. */
int hudi_fs_read_all(hudi_fs *fs, const char *path, hudi_buf *out, hudi_error *err);
int hudi_fs_write_all(hudi_fs *fs, const char *path, int mode, const void *data, size_t len,
                      hudi_error *err);
bool hudi_fs_exists(hudi_fs *fs, const char *path);

/* This process: its id and the host name (lock owners in docs/formats/concurrency.md). */
long hudi_os_pid(void);
const char *hudi_os_host(void); /* static storage; "localhost" when unknown */
/* Sleeps `ms` milliseconds (lock waits). */
void hudi_os_sleep_ms(int64_t ms);
/* Wall clock, milliseconds since the epoch (file modification times compare with it). */
int64_t hudi_os_now_ms(void);

/* Path helpers (pure string functions). */
int hudi_path_join(hudi_buf *out, const char *a, const char *b); /* a + "/" + b */
const char *hudi_path_basename(const char *path);

#endif
