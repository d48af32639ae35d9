/* partition_meta.c - .hoodie_partition_metadata, the file that makes a directory a partition
 * (docs/formats/file-names.md §3): Java properties text "#partition metadata", "#<date>",
 * commitTime=<instant>, partitionDepth=<n> (verified byte for byte on the fixture tables, '\n' line
 * ends). The .parquet variant keeps the same two keys in its footer key/value metadata.
 *
 * Invariant: an existing metafile is never rewritten; a new one appears whole (temp + rename). */
#include <stdio.h>
#include <stdlib.h>

#include "format/parquet/parquet.h"
#include "table/table.h"

int hudi_partition_depth(const char *partition_path) {
    if (!partition_path || !*partition_path) return 0;
    int depth = 1;
    for (const char *s = partition_path; *s; s++) depth += *s == '/' && s[1] != '\0';
    return depth;
}

static int partition_dir(hudi_buf *out, const char *base_path, const char *partition_path) {
    hudi_buf_clear(out);
    hudi_buf_puts(out, base_path);
    if (partition_path && *partition_path) hudi_buf_printf(out, "/%s", partition_path);
    return hudi_buf_failed(out) ? HUDI_ENOMEM : 0;
}

static int fill_meta(hudi_partition_meta *out, const char *commit, const char *depth_s,
                     const char *path, hudi_error *err) {
    if (!commit || !hudi_instant_time_valid(commit, strlen(commit)))
        return hudi_error_set(err, HUDI_ECORRUPT, "%s: missing or invalid commitTime", path);
    memset(out, 0, sizeof(*out));
    memcpy(out->commit_time, commit, strlen(commit));
    out->depth = -1;
    if (depth_s) {
        char *end = NULL;
        long d = strtol(depth_s, &end, 10);
        if (!*depth_s || *end || d < 0 || d > 1000)
            return hudi_error_set(err, HUDI_ECORRUPT, "%s: invalid partitionDepth %s", path,
                                  depth_s);
        out->depth = (int)d;
    }
    return 0;
}

static int read_parquet_variant(hudi_partition_meta *out, hudi_fs *fs, const char *path,
                                hudi_error *err) {
    hudi_pq_file *f = NULL;
    hudi_slice commit = {0}, depth = {0};
    char commit_s[HUDI_INSTANT_TIME_MAX], depth_s[16];
    int rc = hudi_pq_open(&f, fs, path, NULL, err);
    if (rc < 0) return rc;
    if (!hudi_pq_kv(f, "commitTime", &commit) || commit.len >= sizeof(commit_s)) {
        rc = hudi_error_set(err, HUDI_ECORRUPT, "%s: missing or invalid commitTime", path);
        goto done;
    }
    memcpy(commit_s, commit.data, commit.len);
    commit_s[commit.len] = 0;
    bool has_depth = hudi_pq_kv(f, "partitionDepth", &depth) && depth.len < sizeof(depth_s);
    if (has_depth) {
        memcpy(depth_s, depth.data, depth.len);
        depth_s[depth.len] = 0;
    }
    rc = fill_meta(out, commit_s, has_depth ? depth_s : NULL, path, err);
done:
    hudi_pq_close(f);
    return rc;
}

int hudi_partition_meta_read(hudi_partition_meta *out, hudi_fs *fs, const char *base_path,
                             const char *partition_path, hudi_error *err) {
    hudi_buf path = HUDI_BUF_INIT, text = HUDI_BUF_INIT;
    hudi_props props = HUDI_PROPS_INIT;
    int rc = partition_dir(&path, base_path, partition_path);
    if (rc < 0) goto oom;
    size_t dir_len = path.len;
    hudi_buf_printf(&path, "/%s", HUDI_PARTITION_META_FILE);
    if (hudi_buf_failed(&path)) goto oom;
    rc = hudi_fs_read_all(fs, path.data, &text, err);
    if (rc == 0) {
        rc = hudi_props_parse(&props, HUDI_SLICE(text.data, text.len), path.data, err);
        if (rc == 0)
            rc = fill_meta(out, hudi_props_get(&props, "commitTime"),
                           hudi_props_get(&props, "partitionDepth"), path.data, err);
        goto done;
    }
    if (rc != HUDI_ENOTFOUND) goto done;
    /* hoodie.partition.metafile.use.base.format=true writes an empty Parquet file instead. */
    hudi_buf_truncate(&path, dir_len);
    hudi_buf_printf(&path, "/%s.parquet", HUDI_PARTITION_META_FILE);
    if (hudi_buf_failed(&path)) goto oom;
    if (!hudi_fs_exists(fs, path.data)) {
        hudi_buf_truncate(&path, dir_len);
        rc = hudi_error_set(err, HUDI_ENOTFOUND, "%s: no %s (not a partition)", path.data,
                            HUDI_PARTITION_META_FILE);
        goto done;
    }
    hudi_error_clear(err);
    rc = read_parquet_variant(out, fs, path.data, err);
    goto done;
oom:
    rc = hudi_error_oom(err);
done:
    hudi_props_dispose(&props);
    hudi_buf_dispose(&path);
    hudi_buf_dispose(&text);
    return rc;
}

int hudi_partition_meta_write(hudi_fs *fs, const char *base_path, const char *partition_path,
                              const char *commit_time, const char *write_token,
                              const hudi_clock *clock, hudi_error *err) {
    hudi_buf dir = HUDI_BUF_INIT, final_path = HUDI_BUF_INIT, tmp_path = HUDI_BUF_INIT;
    hudi_buf text = HUDI_BUF_INIT;
    hudi_props props = HUDI_PROPS_INIT;
    char depth[16];
    int rc;
    if (!hudi_instant_time_valid(commit_time, strlen(commit_time)))
        return hudi_error_set(err, HUDI_EINVAL, "invalid commit time '%s'", commit_time);
    if (partition_dir(&dir, base_path, partition_path) < 0) goto oom;
    hudi_buf_printf(&final_path, "%s/%s", dir.data, HUDI_PARTITION_META_FILE);
    hudi_buf_printf(&tmp_path, "%s/%s_%s", dir.data, HUDI_PARTITION_META_FILE,
                    write_token ? write_token : commit_time);
    if (hudi_buf_failed(&final_path) || hudi_buf_failed(&tmp_path)) goto oom;
    if (hudi_fs_exists(fs, final_path.data)) {
        rc = 0;
        goto done;
    }
    if ((rc = hudi_fs_mkdirs(fs, dir.data, err)) < 0) goto done;
    snprintf(depth, sizeof(depth), "%d", hudi_partition_depth(partition_path));
    if ((rc = hudi_props_set(&props, "commitTime", commit_time, err)) < 0 ||
        (rc = hudi_props_set(&props, "partitionDepth", depth, err)) < 0 ||
        (rc = hudi_props_serialize(&props, "partition metadata", hudi_clock_now_ms(clock), &text,
                                   err)) < 0)
        goto done;
    rc = hudi_fs_write_all(fs, tmp_path.data, HUDI_CREATE_OVERWRITE, text.data, text.len, err);
    if (rc < 0) goto done;
    /* Another writer may have created it meanwhile: keep theirs, as Hudi does. */
    if (!hudi_fs_exists(fs, final_path.data))
        rc = hudi_fs_rename(fs, tmp_path.data, final_path.data, err);
    if (hudi_fs_exists(fs, tmp_path.data)) {
        int rm = hudi_fs_remove(fs, tmp_path.data, rc < 0 ? NULL : err);
        if (rc == 0 && rm < 0 && rm != HUDI_ENOTFOUND) rc = rm;
    }
    goto done;
oom:
    rc = hudi_error_oom(err);
done:
    hudi_props_dispose(&props);
    hudi_buf_dispose(&dir);
    hudi_buf_dispose(&final_path);
    hudi_buf_dispose(&tmp_path);
    hudi_buf_dispose(&text);
    return rc;
}
