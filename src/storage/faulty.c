/* faulty.c - a fault-injecting wrapper around another backend. It counts every call (fs,
 * file and writer operations) and fails call number `fail_call`, or the write that takes
 * the total bytes written past `fail_after_bytes` (writing the bytes that still fit, like a
 * full disk). With `sticky`, every call after the first injected failure fails too: the
 * process is considered crashed, which is how crash-safety tests model a dying writer.
 * A failed writer close never publishes the file.
 *
 * Threads: the call counter and the tripped flag are atomics (each call gets its own number:
 * with several threads which operation is call N varies, never that exactly one is), the byte
 * budget is taken under a mutex. */
#include <pthread.h>

#include "storage.h"

typedef struct faulty_fs {
    hudi_fs base;
    hudi_fs *inner;
    hudi_fault_plan plan;
    atomic_llong calls;
    pthread_mutex_t mu; /* bytes */
    int64_t bytes;
    atomic_bool tripped;
} faulty_fs;

typedef struct faulty_file {
    hudi_file base;
    faulty_fs *fs;
    hudi_file *inner;
} faulty_file;

typedef struct faulty_writer {
    hudi_writer base;
    faulty_fs *fs;
    hudi_writer *inner;
} faulty_writer;

/* Counts one call; returns an error if this call is to fail. */
static int tick(faulty_fs *f, const char *op, const char *path, hudi_error *err) {
    int64_t n = atomic_fetch_add(&f->calls, 1) + 1;
    if ((atomic_load(&f->tripped) && f->plan.sticky) ||
        (f->plan.fail_call > 0 && n == f->plan.fail_call)) {
        atomic_store(&f->tripped, true);
        return hudi_error_set(err, HUDI_EIO, "%s: %s: injected fault at call %lld", path, op,
                              (long long)n);
    }
    return 0;
}

static int ff_read_at(hudi_file *file, int64_t off, void *buf, size_t len, hudi_error *err) {
    faulty_file *ff = (faulty_file *)file;
    int rc = tick(ff->fs, "read", file->path, err);
    return rc < 0 ? rc : hudi_file_read_at(ff->inner, off, buf, len, err);
}

static int ff_view(hudi_file *file, int64_t off, size_t len, const uint8_t **out, hudi_error *err) {
    faulty_file *ff = (faulty_file *)file;
    int rc = tick(ff->fs, "read", file->path, err);
    return rc < 0 ? rc : hudi_file_view(ff->inner, off, len, out, err);
}

static void ff_close(hudi_file *file) {
    faulty_file *ff = (faulty_file *)file;
    hudi_file_close(ff->inner);
    hudi_free(ff);
}

static const hudi_file_ops faulty_file_ops = {ff_read_at, ff_view, ff_close};

static int fw_write(hudi_writer *w, const void *data, size_t len, hudi_error *err) {
    faulty_writer *fw = (faulty_writer *)w;
    faulty_fs *f = fw->fs;
    int rc = tick(f, "write", w->path, err);
    if (rc < 0) return rc;
    if (f->plan.fail_after_bytes >= 0) {
        pthread_mutex_lock(&f->mu);
        size_t fits = len;
        if (f->bytes + (int64_t)len > f->plan.fail_after_bytes) {
            fits = (size_t)(f->plan.fail_after_bytes - f->bytes);
            atomic_store(&f->tripped, true);
        }
        f->bytes += (int64_t)fits;
        pthread_mutex_unlock(&f->mu);
        if (fits < len) {
            if (fits) hudi_writer_write(fw->inner, data, fits, NULL);
            return hudi_error_set(err, HUDI_EIO, "%s: write: injected fault after %lld bytes",
                                  w->path, (long long)f->plan.fail_after_bytes);
        }
    }
    w->written_bytes += (int64_t)len;
    return hudi_writer_write(fw->inner, data, len, err);
}

static int fw_close(hudi_writer *w, hudi_error *err) {
    faulty_writer *fw = (faulty_writer *)w;
    int rc = tick(fw->fs, "close", w->path, err);
    if (rc < 0)
        hudi_writer_abort(fw->inner);
    else
        rc = hudi_writer_close(fw->inner, err);
    hudi_free(fw);
    return rc;
}

static void fw_abort(hudi_writer *w) {
    faulty_writer *fw = (faulty_writer *)w;
    hudi_writer_abort(fw->inner);
    hudi_free(fw);
}

static const hudi_writer_ops faulty_writer_ops = {fw_write, fw_close, fw_abort};

static int faulty_open(hudi_fs *fs, const char *path, hudi_file **out, hudi_error *err) {
    faulty_fs *f = (faulty_fs *)fs;
    int rc = tick(f, "open", path, err);
    if (rc < 0) return rc;
    faulty_file *ff = hudi_calloc(1, sizeof(*ff));
    if (!ff) return hudi_error_oom(err);
    if ((rc = hudi_fs_open(f->inner, path, &ff->inner, err)) < 0) {
        hudi_free(ff);
        return rc;
    }
    ff->base = (hudi_file){&faulty_file_ops, ff->inner->size_bytes, ff->inner->path};
    ff->fs = f;
    *out = &ff->base;
    return 0;
}

static int faulty_create(hudi_fs *fs, const char *path, int mode, hudi_writer **out,
                         hudi_error *err) {
    faulty_fs *f = (faulty_fs *)fs;
    int rc = tick(f, "create", path, err);
    if (rc < 0) return rc;
    faulty_writer *fw = hudi_calloc(1, sizeof(*fw));
    if (!fw) return hudi_error_oom(err);
    if ((rc = hudi_fs_create(f->inner, path, mode, &fw->inner, err)) < 0) {
        hudi_free(fw);
        return rc;
    }
    fw->base = (hudi_writer){&faulty_writer_ops, 0, fw->inner->path};
    fw->fs = f;
    *out = &fw->base;
    return 0;
}

#define FORWARD(name, op, ...)                                                                     \
    faulty_fs *f = (faulty_fs *)fs;                                                                \
    int rc = tick(f, op, name, err);                                                               \
    return rc < 0 ? rc : f->inner->ops->__VA_ARGS__

static int faulty_stat(hudi_fs *fs, const char *path, hudi_stat *out, hudi_error *err) {
    FORWARD(path, "stat", stat(f->inner, path, out, err));
}
static int faulty_list(hudi_fs *fs, const char *dir, hudi_dir_listing *out, hudi_error *err) {
    out->entries = NULL;
    out->count = 0;
    FORWARD(dir, "list", list(f->inner, dir, out, err));
}
static int faulty_remove(hudi_fs *fs, const char *path, hudi_error *err) {
    FORWARD(path, "remove", remove(f->inner, path, err));
}
static int faulty_rename(hudi_fs *fs, const char *from, const char *to, hudi_error *err) {
    FORWARD(from, "rename", rename(f->inner, from, to, err));
}
static int faulty_mkdirs(hudi_fs *fs, const char *path, hudi_error *err) {
    FORWARD(path, "mkdirs", mkdirs(f->inner, path, err));
}

static int faulty_create_locked(hudi_fs *fs, const char *path, const void *data, size_t len,
                                hudi_fs_lock **out, hudi_error *err) {
    FORWARD(path, "create", create_locked(f->inner, path, data, len, out, err));
}
static int faulty_lock_file(hudi_fs *fs, const char *path, hudi_fs_lock **out, hudi_error *err) {
    FORWARD(path, "lock", lock_file(f->inner, path, out, err));
}
static int faulty_touch(hudi_fs *fs, const char *path, hudi_error *err) {
    FORWARD(path, "touch", touch(f->inner, path, err));
}

static void faulty_destroy(hudi_fs *fs) {
    pthread_mutex_destroy(&((faulty_fs *)fs)->mu);
    hudi_free(fs);
}

static const hudi_fs_ops faulty_ops = {
    "faulty",       faulty_open,          faulty_create,    faulty_stat,
    faulty_list,    faulty_remove,        faulty_rename,    faulty_mkdirs,
    faulty_destroy, faulty_create_locked, faulty_lock_file, faulty_touch};

int hudi_fs_faulty_new(hudi_fs **out, hudi_fs *inner, hudi_fault_plan plan, hudi_error *err) {
    *out = NULL;
    faulty_fs *f = hudi_calloc(1, sizeof(*f));
    if (!f) return hudi_error_oom(err);
    f->base.ops = &faulty_ops;
    f->inner = inner;
    f->plan = plan;
    atomic_init(&f->calls, 0);
    atomic_init(&f->tripped, false);
    if (pthread_mutex_init(&f->mu, NULL) != 0) {
        hudi_free(f);
        return hudi_error_set(err, HUDI_ENOMEM, "cannot create a mutex");
    }
    *out = &f->base;
    return 0;
}

int64_t hudi_fs_faulty_calls(const hudi_fs *fs) {
    return atomic_load(&((faulty_fs *)(uintptr_t)fs)->calls);
}
bool hudi_fs_faulty_tripped(const hudi_fs *fs) {
    return atomic_load(&((faulty_fs *)(uintptr_t)fs)->tripped);
}
