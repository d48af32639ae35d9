/* local.c - the local-disk backend. Reads use pread; writes go to a temporary sibling that is
 * renamed into place on close, so readers never see a partial file. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "storage.h"

typedef struct local_file {
    hudi_file base;
    int fd;
} local_file;

typedef struct local_writer {
    hudi_writer base;
    int fd;
    int mode;
    char *tmp_path;
} local_writer;

static int io_error(hudi_error *err, const char *what, const char *path) {
    int e = errno;
    int code = (e == ENOENT || e == ENOTDIR) ? HUDI_ENOTFOUND
               : e == EEXIST                 ? HUDI_EEXISTS
               : e == ENOMEM                 ? HUDI_ENOMEM
                                             : HUDI_EIO;
    return hudi_error_set(err, code, "%s: %s: %s", path, what, strerror(e));
}

static int lf_read_at(hudi_file *f, int64_t off, void *buf, size_t len, hudi_error *err) {
    local_file *lf = (local_file *)f;
    if (off < 0 || (uint64_t)off > (uint64_t)f->size_bytes || len > (uint64_t)(f->size_bytes - off))
        return hudi_error_set(err, HUDI_ECORRUPT,
                              "%s: read of %zu bytes at %lld past end (%lld bytes)", f->path, len,
                              (long long)off, (long long)f->size_bytes);
    uint8_t *p = buf;
    while (len > 0) {
        ssize_t n = pread(lf->fd, p, len, off);
        if (n < 0) {
            if (errno == EINTR) continue;
            return io_error(err, "read", f->path);
        }
        if (n == 0) return hudi_error_set(err, HUDI_ECORRUPT, "%s: truncated", f->path);
        p += n;
        off += n;
        len -= (size_t)n;
    }
    return 0;
}

static void lf_close(hudi_file *f) {
    local_file *lf = (local_file *)f;
    close(lf->fd);
    hudi_free(f->path);
    hudi_free(lf);
}

/* No view: positional reads into the caller's buffers keep resident memory bounded by what
 * the caller holds (a row group), where a whole-file mapping would grow with the file. */
static const hudi_file_ops local_file_ops = {lf_read_at, NULL, lf_close};

static int local_open(hudi_fs *fs, const char *path, hudi_file **out, hudi_error *err) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return io_error(err, "open", path);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int rc = io_error(err, "stat", path);
        close(fd);
        return rc;
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return hudi_error_set(err, HUDI_EINVAL, "%s: is a directory", path);
    }
    local_file *lf = hudi_calloc(1, sizeof(*lf));
    char *p = hudi_strdup(path);
    if (!lf || !p) {
        hudi_free(lf);
        hudi_free(p);
        close(fd);
        return hudi_error_oom(err);
    }
    lf->base.ops = &local_file_ops;
    lf->base.size_bytes = st.st_size;
    lf->base.path = p;
    lf->fd = fd;
    *out = &lf->base;
    return 0;
}

static int lw_write(hudi_writer *w, const void *data, size_t len, hudi_error *err) {
    local_writer *lw = (local_writer *)w;
    const uint8_t *p = data;
    while (len > 0) {
        ssize_t n = write(lw->fd, p, len);
        if (n < 0) {
            if (errno == EINTR) continue;
            return io_error(err, "write", w->path);
        }
        p += n;
        len -= (size_t)n;
        w->written_bytes += n;
    }
    return 0;
}

static void lw_free(local_writer *lw) {
    hudi_free(lw->tmp_path);
    hudi_free(lw->base.path);
    hudi_free(lw);
}

static void lw_abort(hudi_writer *w) {
    local_writer *lw = (local_writer *)w;
    close(lw->fd);
    unlink(lw->tmp_path);
    lw_free(lw);
}

static int lw_close(hudi_writer *w, hudi_error *err) {
    local_writer *lw = (local_writer *)w;
    int rc = 0;
    if (close(lw->fd) != 0) {
        rc = io_error(err, "close", w->path);
    } else if (lw->mode == HUDI_CREATE_EXCLUSIVE) {
        /* link() fails if the target exists: an atomic create-if-absent. */
        if (link(lw->tmp_path, w->path) != 0) rc = io_error(err, "create", w->path);
    } else if (rename(lw->tmp_path, w->path) != 0) {
        rc = io_error(err, "rename", w->path);
    }
    unlink(lw->tmp_path);
    lw_free(lw);
    return rc;
}

static const hudi_writer_ops local_writer_ops = {lw_write, lw_close, lw_abort};

static int local_create(hudi_fs *fs, const char *path, int mode, hudi_writer **out,
                        hudi_error *err) {
    static unsigned counter; /* uniqueness within a process; pid across processes */
    if (mode == HUDI_CREATE_EXCLUSIVE && access(path, F_OK) == 0)
        return hudi_error_set(err, HUDI_EEXISTS, "%s: already exists", path);
    local_writer *lw = hudi_calloc(1, sizeof(*lw));
    hudi_buf tmp = HUDI_BUF_INIT;
    if (!lw) return hudi_error_oom(err);
    hudi_buf_printf(&tmp, "%s.hudic-tmp-%ld-%u", path, (long)getpid(),
                    __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED));
    lw->base.path = hudi_strdup(path);
    if (hudi_buf_failed(&tmp) || !lw->base.path) {
        hudi_buf_dispose(&tmp);
        lw_free(lw);
        return hudi_error_oom(err);
    }
    lw->tmp_path = hudi_buf_detach(&tmp);
    lw->fd = open(lw->tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (lw->fd < 0) {
        int rc = io_error(err, "create", path);
        lw_free(lw);
        return rc;
    }
    lw->base.ops = &local_writer_ops;
    lw->mode = mode;
    *out = &lw->base;
    return 0;
}

static int local_stat(hudi_fs *fs, const char *path, hudi_stat *out, hudi_error *err) {
    struct stat st;
    if (stat(path, &st) != 0) return io_error(err, "stat", path);
    out->size_bytes = st.st_size;
    out->mtime_ms = (int64_t)st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
    out->is_dir = S_ISDIR(st.st_mode);
    return 0;
}

static int cmp_dirent(const void *a, const void *b) {
    return strcmp(((const hudi_dirent *)a)->name, ((const hudi_dirent *)b)->name);
}

static int local_list(hudi_fs *fs, const char *dir, hudi_dir_listing *out, hudi_error *err) {
    out->entries = NULL;
    out->count = 0;
    DIR *d = opendir(dir);
    if (!d) return io_error(err, "list", dir);
    hudi_vec v = HUDI_VEC_INIT(hudi_dirent);
    hudi_buf path = HUDI_BUF_INIT;
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        if (strstr(e->d_name, ".hudic-tmp-")) continue; /* in-flight writes are invisible */
        hudi_buf_clear(&path);
        hudi_path_join(&path, dir, e->d_name);
        struct stat st;
        if (hudi_buf_failed(&path)) {
            rc = hudi_error_oom(err);
            break;
        }
        if (stat(path.data, &st) != 0) continue; /* vanished meanwhile */
        hudi_dirent *de = hudi_vec_push(&v);
        if (!de || !(de->name = hudi_strdup(e->d_name))) {
            rc = hudi_error_oom(err);
            break;
        }
        de->is_dir = S_ISDIR(st.st_mode);
        de->size_bytes = st.st_size;
        de->mtime_ms = (int64_t)st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
    }
    closedir(d);
    hudi_buf_dispose(&path);
    out->entries = v.data;
    out->count = v.len;
    if (rc < 0) {
        hudi_dir_listing_dispose(out);
        return rc;
    }
    if (out->count) qsort(out->entries, out->count, sizeof(hudi_dirent), cmp_dirent);
    return 0;
}

static int local_remove(hudi_fs *fs, const char *path, hudi_error *err) {
    if (unlink(path) == 0) return 0;
    if (errno == EISDIR || errno == EPERM) {
        if (rmdir(path) == 0) return 0;
    }
    return io_error(err, "remove", path);
}

static int local_rename(hudi_fs *fs, const char *from, const char *to, hudi_error *err) {
    if (rename(from, to) != 0) return io_error(err, "rename", from);
    return 0;
}

static int local_mkdirs(hudi_fs *fs, const char *path, hudi_error *err) {
    char *p = hudi_strdup(path);
    if (!p) return hudi_error_oom(err);
    int rc = 0;
    for (char *s = p + 1;; s++) {
        if (*s == '/' || *s == '\0') {
            char c = *s;
            *s = '\0';
            if (mkdir(p, 0755) != 0 && errno != EEXIST) {
                rc = io_error(err, "mkdir", p);
                break;
            }
            *s = c;
            if (c == '\0') break;
        }
    }
    hudi_free(p);
    return rc;
}

/* ---- process-bound locks: flock(2) on the inode, released by the kernel when the process
 * ends, however it ends. */

typedef struct local_lock {
    hudi_fs_lock base;
    int fd;
} local_lock;

static void ll_release(hudi_fs_lock *l) {
    close(((local_lock *)l)->fd); /* drops the flock */
    hudi_free(l);
}

static bool ll_holds(hudi_fs_lock *l, const char *path) {
    struct stat a, b;
    return fstat(((local_lock *)l)->fd, &a) == 0 && stat(path, &b) == 0 && a.st_ino == b.st_ino &&
           a.st_dev == b.st_dev;
}

static int new_lock(hudi_fs_lock **out, int fd, hudi_error *err) {
    local_lock *l = hudi_calloc(1, sizeof(*l));
    if (!l) {
        close(fd);
        return hudi_error_oom(err);
    }
    l->base.release = ll_release;
    l->base.holds = ll_holds;
    l->fd = fd;
    *out = &l->base;
    return 0;
}

static int write_fd(int fd, const void *data, size_t len) {
    const uint8_t *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* The content goes to a temporary sibling, locked before anything else can see it, then
 * link(2) publishes it under `path` only if nothing is there (atomic create-if-absent). */
static int local_create_locked(hudi_fs *fs, const char *path, const void *data, size_t len,
                               hudi_fs_lock **out, hudi_error *err) {
    static unsigned counter;
    hudi_buf tmp = HUDI_BUF_INIT;
    int rc = 0;
    hudi_buf_printf(&tmp, "%s.hudic-tmp-%ld-%u", path, (long)getpid(),
                    __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED));
    if (hudi_buf_failed(&tmp)) return hudi_error_oom(err);
    int fd = open(tmp.data, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        rc = io_error(err, "create", path);
        goto done;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0 || write_fd(fd, data, len) != 0) {
        rc = io_error(err, "create", path);
        close(fd);
        unlink(tmp.data);
        goto done;
    }
    if (link(tmp.data, path) != 0) {
        rc = errno == EEXIST ? hudi_error_set(err, HUDI_EEXISTS, "%s: already exists", path)
                             : io_error(err, "create", path);
        close(fd);
        unlink(tmp.data);
        goto done;
    }
    unlink(tmp.data);
    rc = new_lock(out, fd, err);
done:
    hudi_buf_dispose(&tmp);
    return rc;
}

static int local_lock_file(hudi_fs *fs, const char *path, hudi_fs_lock **out, hudi_error *err) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return io_error(err, "lock", path);
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int rc = errno == EWOULDBLOCK
                     ? hudi_error_set(err, HUDI_ECONFLICT, "%s: locked by a live process", path)
                     : io_error(err, "lock", path);
        close(fd);
        return rc;
    }
    /* The name may have been removed or replaced between open and flock. */
    struct stat a, b;
    if (fstat(fd, &a) != 0 || stat(path, &b) != 0 || a.st_ino != b.st_ino || a.st_dev != b.st_dev) {
        close(fd);
        return hudi_error_set(err, HUDI_ENOTFOUND, "%s: replaced while locking", path);
    }
    return new_lock(out, fd, err);
}

static int local_touch(hudi_fs *fs, const char *path, hudi_error *err) {
    if (utimensat(AT_FDCWD, path, NULL, 0) != 0) return io_error(err, "touch", path);
    return 0;
}

static void local_destroy(hudi_fs *fs) { hudi_free(fs); }

long hudi_os_pid(void) { return (long)getpid(); }

const char *hudi_os_host(void) {
    static char host[256];
    if (!host[0] && (gethostname(host, sizeof(host) - 1) != 0 || !host[0]))
        snprintf(host, sizeof(host), "localhost");
    return host;
}

void hudi_os_sleep_ms(int64_t ms) {
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    while (ms > 0 && nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

int64_t hudi_os_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static const hudi_fs_ops local_ops = {
    "local",      local_open,   local_create,  local_stat,          local_list,      local_remove,
    local_rename, local_mkdirs, local_destroy, local_create_locked, local_lock_file, local_touch};

int hudi_fs_local_new(hudi_fs **out, hudi_error *err) {
    *out = NULL;
    hudi_fs *fs = hudi_calloc(1, sizeof(*fs));
    if (!fs) return hudi_error_oom(err);
    fs->ops = &local_ops;
    *out = fs;
    return 0;
}
