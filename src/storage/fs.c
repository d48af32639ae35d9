/* fs.c - backend-independent helpers over the hudi_fs vtable. */
#include "storage.h"

void hudi_fs_free(hudi_fs *fs) {
    if (fs) fs->ops->destroy(fs);
}

int hudi_file_view(hudi_file *f, int64_t off, size_t len, const uint8_t **out, hudi_error *err) {
    *out = NULL;
    if (!f->ops->view) return 0;
    return f->ops->view(f, off, len, out, err);
}

void hudi_file_close(hudi_file *f) {
    if (f) f->ops->close(f);
}

int hudi_writer_close(hudi_writer *w, hudi_error *err) { return w ? w->ops->close(w, err) : 0; }

void hudi_writer_abort(hudi_writer *w) {
    if (w) w->ops->abort(w);
}

void hudi_fs_lock_release(hudi_fs_lock *lock) {
    if (lock) lock->release(lock);
}

void hudi_dir_listing_dispose(hudi_dir_listing *l) {
    for (size_t i = 0; i < l->count; i++) hudi_free(l->entries[i].name);
    hudi_free(l->entries);
    l->entries = NULL;
    l->count = 0;
}

int hudi_fs_read_all(hudi_fs *fs, const char *path, hudi_buf *out, hudi_error *err) {
    hudi_file *f = NULL;
    int rc = hudi_fs_open(fs, path, &f, err);
    if (rc < 0) return rc;
    if (f->size_bytes < 0 || (uint64_t)f->size_bytes > SIZE_MAX / 2) {
        rc = hudi_error_set(err, HUDI_ENOMEM, "%s: file too large", path);
        goto done;
    }
    if ((rc = hudi_buf_grow(out, (size_t)f->size_bytes)) < 0) {
        rc = hudi_error_oom(err);
        goto done;
    }
    rc = hudi_file_read_at(f, 0, out->data + out->len, (size_t)f->size_bytes, err);
    if (rc < 0) goto done;
    out->len += (size_t)f->size_bytes;
    out->data[out->len] = '\0';
done:
    hudi_file_close(f);
    return rc;
}

int hudi_fs_write_all(hudi_fs *fs, const char *path, int mode, const void *data, size_t len,
                      hudi_error *err) {
    hudi_writer *w = NULL;
    int rc = hudi_fs_create(fs, path, mode, &w, err);
    if (rc < 0) return rc;
    if ((rc = hudi_writer_write(w, data, len, err)) < 0) {
        hudi_writer_abort(w);
        return rc;
    }
    return hudi_writer_close(w, err);
}

bool hudi_fs_exists(hudi_fs *fs, const char *path) {
    hudi_stat st;
    return hudi_fs_stat(fs, path, &st, NULL) == 0;
}

int hudi_path_join(hudi_buf *out, const char *a, const char *b) {
    hudi_buf_puts(out, a);
    if (out->len > 0 && out->data[out->len - 1] != '/' && b[0] != '\0') hudi_buf_putc(out, '/');
    hudi_buf_puts(out, b);
    return hudi_buf_failed(out) ? HUDI_ENOMEM : 0;
}

const char *hudi_path_basename(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}
