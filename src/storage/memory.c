/* memory.c - an in-memory backend for tests and scratch space. Files are byte buffers in a
 * map keyed by path; directories are recorded explicitly by mkdirs and implicitly by any
 * file beneath them. Files opened for reading keep a reference to an immutable snapshot,
 * so overwriting a file never disturbs an open reader.
 *
 * Threads (a write's file groups run on a pool): one mutex guards the maps, the blobs'
 * reference counts, lock flags and times. The public operations take it and call the
 * unlocked implementations (the `_u` functions); reads of an open file's immutable blob and
 * a writer's own buffer need no lock. */
#include <pthread.h>
#include <stdlib.h>

#include "storage.h"

typedef struct mem_blob {
    int refs;
    uint8_t *data;
    size_t len;
    int64_t mtime_ms;
    bool locked; /* a process-bound lock is held on this file (the inode, not the name) */
} mem_blob;

typedef struct mem_fs {
    hudi_fs base;
    hudi_map files;   /* path -> mem_blob* */
    hudi_map dirs;    /* path -> (void*)1 */
    int64_t clock_ms; /* last modification time handed out: the wall clock, never backwards */
    pthread_mutex_t mu;
} mem_fs;

static int64_t next_mtime(mem_fs *m) {
    int64_t now = hudi_os_now_ms();
    m->clock_ms = now > m->clock_ms ? now : m->clock_ms + 1;
    return m->clock_ms;
}

typedef struct mem_file {
    hudi_file base;
    mem_blob *blob;
    mem_fs *fs;
} mem_file;

typedef struct mem_writer {
    hudi_writer base;
    mem_fs *fs;
    hudi_buf data;
    int mode;
} mem_writer;

static void blob_unref(mem_blob *b) {
    if (b && --b->refs == 0) {
        hudi_free(b->data);
        hudi_free(b);
    }
}

/* Strips trailing slashes so "a/" and "a" name the same thing. */
static size_t norm_len(const char *path) {
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/') n--;
    return n;
}

static int mf_read_at(hudi_file *f, int64_t off, void *buf, size_t len, hudi_error *err) {
    mem_blob *b = ((mem_file *)f)->blob;
    if (off < 0 || (uint64_t)off > b->len || len > b->len - (size_t)off)
        return hudi_error_set(err, HUDI_ECORRUPT, "%s: read of %zu bytes at %lld past end", f->path,
                              len, (long long)off);
    if (len) memcpy(buf, b->data + off, len);
    return 0;
}

static int mf_view(hudi_file *f, int64_t off, size_t len, const uint8_t **out, hudi_error *err) {
    mem_blob *b = ((mem_file *)f)->blob;
    if (off < 0 || (uint64_t)off > b->len || len > b->len - (size_t)off)
        return hudi_error_set(err, HUDI_ECORRUPT, "%s: view past end", f->path);
    *out = b->data + off;
    return 0;
}

static void mf_close(hudi_file *f) {
    mem_fs *m = ((mem_file *)f)->fs;
    pthread_mutex_lock(&m->mu);
    blob_unref(((mem_file *)f)->blob);
    pthread_mutex_unlock(&m->mu);
    hudi_free(f->path);
    hudi_free(f);
}

static const hudi_file_ops mem_file_ops = {mf_read_at, mf_view, mf_close};

static int mem_open_u(hudi_fs *fs, const char *path, hudi_file **out, hudi_error *err) {
    mem_fs *m = (mem_fs *)fs;
    mem_blob *b = hudi_map_get(&m->files, path, norm_len(path));
    if (!b) return hudi_error_set(err, HUDI_ENOTFOUND, "%s: no such file", path);
    mem_file *f = hudi_calloc(1, sizeof(*f));
    if (!f || !(f->base.path = hudi_strdup(path))) {
        hudi_free(f);
        return hudi_error_oom(err);
    }
    b->refs++;
    f->blob = b;
    f->fs = m;
    f->base.ops = &mem_file_ops;
    f->base.size_bytes = (int64_t)b->len;
    *out = &f->base;
    return 0;
}

static int mw_write(hudi_writer *w, const void *data, size_t len, hudi_error *err) {
    mem_writer *mw = (mem_writer *)w;
    hudi_buf_append(&mw->data, data, len);
    if (hudi_buf_failed(&mw->data)) return hudi_error_oom(err);
    w->written_bytes += (int64_t)len;
    return 0;
}

static void mw_free(mem_writer *mw) {
    hudi_buf_dispose(&mw->data);
    hudi_free(mw->base.path);
    hudi_free(mw);
}

static void mw_abort(hudi_writer *w) { mw_free((mem_writer *)w); }

static int mw_close_u(hudi_writer *w, hudi_error *err) {
    mem_writer *mw = (mem_writer *)w;
    mem_fs *m = mw->fs;
    size_t n = norm_len(w->path);
    int rc = 0;
    mem_blob *b = NULL;
    if (mw->mode == HUDI_CREATE_EXCLUSIVE && hudi_map_get(&m->files, w->path, n)) {
        rc = hudi_error_set(err, HUDI_EEXISTS, "%s: already exists", w->path);
        goto done;
    }
    if (!(b = hudi_calloc(1, sizeof(*b)))) {
        rc = hudi_error_oom(err);
        goto done;
    }
    b->refs = 1;
    b->len = mw->data.len;
    b->data = (uint8_t *)hudi_buf_detach(&mw->data);
    b->mtime_ms = next_mtime(m);
    if (!b->data) {
        hudi_free(b);
        rc = hudi_error_oom(err);
        goto done;
    }
    void *old = NULL;
    if (hudi_map_put(&m->files, w->path, n, b, &old) < 0) {
        blob_unref(b);
        rc = hudi_error_oom(err);
        goto done;
    }
    blob_unref(old);
done:
    mw_free(mw);
    return rc;
}

static int mw_close(hudi_writer *w, hudi_error *err) {
    mem_fs *m = ((mem_writer *)w)->fs;
    pthread_mutex_lock(&m->mu);
    int rc = mw_close_u(w, err);
    pthread_mutex_unlock(&m->mu);
    return rc;
}

static const hudi_writer_ops mem_writer_ops = {mw_write, mw_close, mw_abort};

static int mem_create_u(hudi_fs *fs, const char *path, int mode, hudi_writer **out,
                        hudi_error *err) {
    mem_fs *m = (mem_fs *)fs;
    if (mode == HUDI_CREATE_EXCLUSIVE && hudi_map_get(&m->files, path, norm_len(path)))
        return hudi_error_set(err, HUDI_EEXISTS, "%s: already exists", path);
    mem_writer *w = hudi_calloc(1, sizeof(*w));
    if (!w || !(w->base.path = hudi_strndup(path, norm_len(path)))) {
        hudi_free(w);
        return hudi_error_oom(err);
    }
    w->base.ops = &mem_writer_ops;
    w->fs = m;
    w->mode = mode;
    *out = &w->base;
    return 0;
}

/* True if some file or recorded directory lies strictly below `dir`. */
static bool has_children(const mem_fs *m, const char *dir, size_t n) {
    const hudi_map *maps[2] = {&m->files, &m->dirs};
    for (int k = 0; k < 2; k++) {
        size_t it = 0;
        hudi_map_entry *e;
        while ((e = hudi_map_next(maps[k], &it)))
            if (e->key_len > n + 1 && memcmp(e->key, dir, n) == 0 && e->key[n] == '/') return true;
    }
    return false;
}

static int mem_stat_u(hudi_fs *fs, const char *path, hudi_stat *out, hudi_error *err) {
    mem_fs *m = (mem_fs *)fs;
    size_t n = norm_len(path);
    mem_blob *b = hudi_map_get(&m->files, path, n);
    if (b) {
        *out = (hudi_stat){(int64_t)b->len, b->mtime_ms, false};
        return 0;
    }
    if (hudi_map_get(&m->dirs, path, n) || has_children(m, path, n)) {
        *out = (hudi_stat){0, 0, true};
        return 0;
    }
    return hudi_error_set(err, HUDI_ENOTFOUND, "%s: no such file or directory", path);
}

static int cmp_dirent(const void *a, const void *b) {
    return strcmp(((const hudi_dirent *)a)->name, ((const hudi_dirent *)b)->name);
}

static int list_add(hudi_vec *v, hudi_map *seen, const char *name, size_t n, bool is_dir,
                    const mem_blob *b) {
    if (hudi_map_get(seen, name, n)) return 0;
    if (hudi_map_put(seen, name, n, (void *)1, NULL) < 0) return HUDI_ENOMEM;
    hudi_dirent *de = hudi_vec_push(v);
    if (!de || !(de->name = hudi_strndup(name, n))) return HUDI_ENOMEM;
    de->is_dir = is_dir;
    de->size_bytes = b ? (int64_t)b->len : 0;
    de->mtime_ms = b ? b->mtime_ms : 0;
    return 0;
}

static int mem_list_u(hudi_fs *fs, const char *dir, hudi_dir_listing *out, hudi_error *err) {
    mem_fs *m = (mem_fs *)fs;
    size_t n = norm_len(dir);
    out->entries = NULL;
    out->count = 0;
    hudi_stat st;
    if (mem_stat_u(fs, dir, &st, err) < 0) return HUDI_ENOTFOUND;
    if (!st.is_dir) return hudi_error_set(err, HUDI_EINVAL, "%s: not a directory", dir);
    hudi_vec v = HUDI_VEC_INIT(hudi_dirent);
    hudi_map seen = HUDI_MAP_INIT;
    int rc = 0;
    const hudi_map *maps[2] = {&m->files, &m->dirs};
    for (int k = 0; k < 2 && rc == 0; k++) {
        size_t it = 0;
        hudi_map_entry *e;
        while (rc == 0 && (e = hudi_map_next(maps[k], &it))) {
            if (e->key_len <= n + 1 || memcmp(e->key, dir, n) != 0 || e->key[n] != '/') continue;
            const char *rest = e->key + n + 1;
            const char *slash = memchr(rest, '/', e->key_len - n - 1);
            size_t len = slash ? (size_t)(slash - rest) : e->key_len - n - 1;
            bool is_dir = slash != NULL || k == 1;
            rc = list_add(&v, &seen, rest, len, is_dir, is_dir ? NULL : e->value);
        }
    }
    hudi_map_dispose(&seen);
    out->entries = v.data;
    out->count = v.len;
    if (rc < 0) {
        hudi_dir_listing_dispose(out);
        return hudi_error_oom(err);
    }
    if (out->count) qsort(out->entries, out->count, sizeof(hudi_dirent), cmp_dirent);
    return 0;
}

static int mem_remove_u(hudi_fs *fs, const char *path, hudi_error *err) {
    mem_fs *m = (mem_fs *)fs;
    size_t n = norm_len(path);
    void *old = NULL;
    if (hudi_map_remove(&m->files, path, n, &old)) {
        blob_unref(old);
        return 0;
    }
    if (hudi_map_get(&m->dirs, path, n)) {
        if (has_children(m, path, n))
            return hudi_error_set(err, HUDI_EIO, "%s: directory not empty", path);
        hudi_map_remove(&m->dirs, path, n, NULL);
        return 0;
    }
    return hudi_error_set(err, HUDI_ENOTFOUND, "%s: no such file", path);
}

static int mem_rename_u(hudi_fs *fs, const char *from, const char *to, hudi_error *err) {
    mem_fs *m = (mem_fs *)fs;
    void *b = NULL, *old = NULL;
    if (!hudi_map_remove(&m->files, from, norm_len(from), &b))
        return hudi_error_set(err, HUDI_ENOTFOUND, "%s: no such file", from);
    if (hudi_map_put(&m->files, to, norm_len(to), b, &old) < 0) {
        hudi_map_put(&m->files, from, norm_len(from), b, NULL);
        return hudi_error_oom(err);
    }
    blob_unref(old);
    return 0;
}

static int mem_mkdirs_u(hudi_fs *fs, const char *path, hudi_error *err) {
    mem_fs *m = (mem_fs *)fs;
    size_t n = norm_len(path);
    if (hudi_map_get(&m->files, path, n))
        return hudi_error_set(err, HUDI_EEXISTS, "%s: a file exists there", path);
    if (hudi_map_put(&m->dirs, path, n, (void *)1, NULL) < 0) return hudi_error_oom(err);
    return 0;
}

/* ---- process-bound locks: a flag on the blob, cleared when the handle is released (which
 * is what a process's death does to its flocks). */

typedef struct mem_lock {
    hudi_fs_lock base;
    mem_blob *blob;
    mem_fs *fs;
} mem_lock;

static bool ml_holds(hudi_fs_lock *l, const char *path) {
    mem_lock *ml = (mem_lock *)l;
    pthread_mutex_lock(&ml->fs->mu);
    bool held = hudi_map_get(&ml->fs->files, path, norm_len(path)) == ml->blob;
    pthread_mutex_unlock(&ml->fs->mu);
    return held;
}

static void ml_release(hudi_fs_lock *l) {
    mem_lock *ml = (mem_lock *)l;
    pthread_mutex_lock(&ml->fs->mu);
    ml->blob->locked = false;
    blob_unref(ml->blob);
    pthread_mutex_unlock(&ml->fs->mu);
    hudi_free(ml);
}

static int hold(mem_fs *m, mem_blob *b, hudi_fs_lock **out, hudi_error *err) {
    mem_lock *l = hudi_calloc(1, sizeof(*l));
    if (!l) return hudi_error_oom(err);
    l->base.release = ml_release;
    l->base.holds = ml_holds;
    l->fs = m;
    l->blob = b;
    b->refs++;
    b->locked = true;
    *out = &l->base;
    return 0;
}

static int mem_create_locked_u(hudi_fs *fs, const char *path, const void *data, size_t len,
                               hudi_fs_lock **out, hudi_error *err) {
    mem_fs *m = (mem_fs *)fs;
    size_t n = norm_len(path);
    if (hudi_map_get(&m->files, path, n))
        return hudi_error_set(err, HUDI_EEXISTS, "%s: already exists", path);
    mem_blob *b = hudi_calloc(1, sizeof(*b));
    if (!b || !(b->data = hudi_malloc(len ? len : 1))) {
        hudi_free(b);
        return hudi_error_oom(err);
    }
    if (len) memcpy(b->data, data, len);
    b->len = len;
    b->refs = 1;
    b->mtime_ms = next_mtime(m);
    if (hudi_map_put(&m->files, path, n, b, NULL) < 0) {
        blob_unref(b);
        return hudi_error_oom(err);
    }
    int rc = hold(m, b, out, err);
    if (rc < 0) {
        hudi_map_remove(&m->files, path, n, NULL);
        blob_unref(b);
    }
    return rc;
}

static int mem_lock_file_u(hudi_fs *fs, const char *path, hudi_fs_lock **out, hudi_error *err) {
    mem_fs *m = (mem_fs *)fs;
    mem_blob *b = hudi_map_get(&m->files, path, norm_len(path));
    if (!b) return hudi_error_set(err, HUDI_ENOTFOUND, "%s: no such file", path);
    if (b->locked) return hudi_error_set(err, HUDI_ECONFLICT, "%s: locked by a live process", path);
    return hold(m, b, out, err);
}

static int mem_touch_u(hudi_fs *fs, const char *path, hudi_error *err) {
    mem_fs *m = (mem_fs *)fs;
    mem_blob *b = hudi_map_get(&m->files, path, norm_len(path));
    if (!b) return hudi_error_set(err, HUDI_ENOTFOUND, "%s: no such file", path);
    b->mtime_ms = next_mtime(m);
    return 0;
}

int hudi_fs_memory_set_mtime(hudi_fs *fs, const char *path, int64_t mtime_ms, hudi_error *err) {
    mem_fs *m = (mem_fs *)fs;
    if (strcmp(fs->ops->name, "memory") != 0)
        return hudi_error_set(err, HUDI_EINVAL, "%s: not a memory filesystem", path);
    pthread_mutex_lock(&m->mu);
    mem_blob *b = hudi_map_get(&m->files, path, norm_len(path));
    if (b) b->mtime_ms = mtime_ms;
    pthread_mutex_unlock(&m->mu);
    return b ? 0 : hudi_error_set(err, HUDI_ENOTFOUND, "%s: no such file", path);
}

static void mem_destroy(hudi_fs *fs) {
    mem_fs *m = (mem_fs *)fs;
    size_t it = 0;
    hudi_map_entry *e;
    while ((e = hudi_map_next(&m->files, &it))) blob_unref(e->value);
    hudi_map_dispose(&m->files);
    hudi_map_dispose(&m->dirs);
    pthread_mutex_destroy(&m->mu);
    hudi_free(m);
}

/* The locked entry points. */
#define LOCKED(call)                                                                               \
    mem_fs *m = (mem_fs *)fs;                                                                      \
    pthread_mutex_lock(&m->mu);                                                                    \
    int rc = call;                                                                                 \
    pthread_mutex_unlock(&m->mu);                                                                  \
    return rc

static int mem_open(hudi_fs *fs, const char *path, hudi_file **out, hudi_error *err) {
    LOCKED(mem_open_u(fs, path, out, err));
}
static int mem_create(hudi_fs *fs, const char *path, int mode, hudi_writer **out, hudi_error *err) {
    LOCKED(mem_create_u(fs, path, mode, out, err));
}
static int mem_stat(hudi_fs *fs, const char *path, hudi_stat *out, hudi_error *err) {
    LOCKED(mem_stat_u(fs, path, out, err));
}
static int mem_list(hudi_fs *fs, const char *dir, hudi_dir_listing *out, hudi_error *err) {
    LOCKED(mem_list_u(fs, dir, out, err));
}
static int mem_remove(hudi_fs *fs, const char *path, hudi_error *err) {
    LOCKED(mem_remove_u(fs, path, err));
}
static int mem_rename(hudi_fs *fs, const char *from, const char *to, hudi_error *err) {
    LOCKED(mem_rename_u(fs, from, to, err));
}
static int mem_mkdirs(hudi_fs *fs, const char *path, hudi_error *err) {
    LOCKED(mem_mkdirs_u(fs, path, err));
}
static int mem_create_locked(hudi_fs *fs, const char *path, const void *data, size_t len,
                             hudi_fs_lock **out, hudi_error *err) {
    LOCKED(mem_create_locked_u(fs, path, data, len, out, err));
}
static int mem_lock_file(hudi_fs *fs, const char *path, hudi_fs_lock **out, hudi_error *err) {
    LOCKED(mem_lock_file_u(fs, path, out, err));
}
static int mem_touch(hudi_fs *fs, const char *path, hudi_error *err) {
    LOCKED(mem_touch_u(fs, path, err));
}

static const hudi_fs_ops mem_ops = {"memory",    mem_open,          mem_create,    mem_stat,
                                    mem_list,    mem_remove,        mem_rename,    mem_mkdirs,
                                    mem_destroy, mem_create_locked, mem_lock_file, mem_touch};

int hudi_fs_memory_new(hudi_fs **out, hudi_error *err) {
    *out = NULL;
    mem_fs *m = hudi_calloc(1, sizeof(*m));
    if (!m) return hudi_error_oom(err);
    if (pthread_mutex_init(&m->mu, NULL) != 0) {
        hudi_free(m);
        return hudi_error_set(err, HUDI_ENOMEM, "cannot create a mutex");
    }
    m->base.ops = &mem_ops;
    *out = &m->base;
    return 0;
}
