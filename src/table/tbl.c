/* tbl.c - opening a table: properties, config and timeline in one handle. */
#include "table/tbl.h"

int hudi_tbl_open(hudi_table **out, hudi_fs *fs, const char *base_path, hudi_error *err) {
    hudi_table *t = hudi_calloc(1, sizeof(*t));
    int rc;
    *out = NULL;
    if (!t) return hudi_error_oom(err);
    size_t n = strlen(base_path);
    while (n > 1 && base_path[n - 1] == '/') n--;
    if (!(t->base_path = hudi_strndup(base_path, n))) {
        rc = hudi_error_oom(err);
        goto fail;
    }
    if (!fs) {
        if ((rc = hudi_fs_local_new(&t->fs, err)) < 0) goto fail;
        t->owns_fs = true;
    } else {
        t->fs = fs;
    }
    if ((rc = hudi_props_load(&t->props, t->fs, t->base_path, err)) < 0) {
        if (rc == HUDI_ENOTFOUND)
            hudi_error_set(err, HUDI_ENOTFOUND,
                           "%s: not a Hudi table (no .hoodie/hoodie.properties)", t->base_path);
        goto fail;
    }
    hudi_buf props_path = HUDI_BUF_INIT;
    hudi_buf_printf(&props_path, "%s/.hoodie/hoodie.properties", t->base_path);
    rc = hudi_table_config_from_props(&t->cfg, &t->props, props_path.data, err);
    hudi_buf_dispose(&props_path);
    if (rc < 0) goto fail;
    if ((rc = hudi_timeline_load(&t->timeline, t->fs, t->base_path, &t->cfg, err)) < 0) goto fail;
    *out = t;
    return 0;
fail:
    hudi_tbl_free(t);
    return rc;
}

int hudi_tbl_reload(hudi_table *t, hudi_error *err) {
    hudi_timeline *tl = NULL;
    int rc = hudi_timeline_load(&tl, t->fs, t->base_path, &t->cfg, err);
    if (rc < 0) return rc;
    hudi_timeline_free(t->timeline);
    t->timeline = tl;
    return 0;
}

void hudi_tbl_free(hudi_table *t) {
    if (!t) return;
    hudi_timeline_free(t->timeline);
    hudi_props_dispose(&t->props);
    if (t->owns_fs) hudi_fs_free(t->fs);
    hudi_free(t->base_path);
    hudi_free(t);
}
