/* rollback.c - rolling back failed writes (docs/formats/timeline.md §8): for each pending
 * commit/deltacommit/replacecommit F, newest first, a rollback instant R with an Avro
 * HoodieRollbackPlan (requested), an empty inflight, then the work, an Avro
 * HoodieRollbackMetadata (completed), then F's timeline files and markers are removed.
 *
 * The work, as Hudi 0.14/0.15's marker-based rollback does it on table version 6: every base
 * file F wrote (its CREATE/MERGE markers, and a listing for base files named with F) is
 * deleted; the log files F appended to slices of older instants (its APPEND markers) stay,
 * and each such slice gets a new log file with one rollback COMMAND_BLOCK targeting F
 * (log-file.md §7), recorded as rollbackLogFiles / logFilesFromFailedCommit in the metadata.
 *
 * Crash safety: F stays pending until R is complete, so an interrupted rollback is simply
 * done again (with a new R; the stale pending R and the command-block files it wrote, found by
 * its markers, are discarded first). Deleting files of a pending instant never touches
 * committed data: a COW rewrite writes a new file version, a MOR append a new log file. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "format/log/log.h"
#include "write/write_int.h"

typedef struct rb_part {
    const char *path;
    hudi_vec ok;       /* char*: absolute paths deleted */
    hudi_vec failed;   /* char*: absolute paths that could not be deleted */
    hudi_vec cmd_logs; /* char*: absolute paths of the log files with F's rollback blocks */
    hudi_vec cmd_lens; /* int64_t: their lengths */
    hudi_vec f_logs;   /* char*: names of F's log files those blocks roll back */
} rb_part;

/* A rollback command block to write: F appended to log files of the slice (part, file id,
 * base instant) that an older instant started. */
typedef struct rb_cmd {
    const char *part, *file_id, *base;
    hudi_vec logs; /* char*: names of F's log files in the slice (arena) */
} rb_cmd;

typedef struct rb_state {
    hudi_table *t;
    const hudi_instant *f;
    char **files; /* relative paths to delete */
    size_t n_files;
    rb_cmd *cmds;
    size_t n_cmds;
    rb_part *parts;
    size_t n_parts;
    hudi_arena arena;
} rb_state;

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "<part>/<name>" -> part ("" for a file at the base path). */
static const char *parent_of(hudi_arena *a, const char *rel) {
    const char *slash = strrchr(rel, '/');
    return slash ? hudi_arena_strndup(a, rel, (size_t)(slash - rel)) : "";
}

static const char *name_of(const char *rel) {
    const char *slash = strrchr(rel, '/');
    return slash ? slash + 1 : rel;
}

static char *abs_path(rb_state *s, const char *rel) {
    size_t n = strlen(s->t->base_path) + strlen(rel) + 2;
    char *p = hudi_arena_alloc(&s->arena, n);
    if (p) snprintf(p, n, "%s/%s", s->t->base_path, rel);
    return p;
}

/* Adds log file `rel` (of slice file_id/base) to the command block of its slice. */
static int add_cmd(rb_state *s, const char *rel, const hudi_log_file_name *ln, hudi_error *err) {
    hudi_arena *a = &s->arena;
    const char *part = parent_of(a, rel);
    char *fid = hudi_arena_strndup(a, (const char *)ln->file_id.data, ln->file_id.len);
    char *base = hudi_arena_strndup(a, (const char *)ln->instant.data, ln->instant.len);
    char *name = hudi_arena_strdup(a, name_of(rel));
    if (!part || !fid || !base || !name) return hudi_error_oom(err);
    rb_cmd *c = NULL;
    for (size_t i = 0; i < s->n_cmds && !c; i++)
        if (!strcmp(s->cmds[i].part, part) && !strcmp(s->cmds[i].file_id, fid) &&
            !strcmp(s->cmds[i].base, base))
            c = &s->cmds[i];
    if (!c) {
        rb_cmd *v = hudi_realloc(s->cmds, (s->n_cmds + 1) * sizeof(rb_cmd));
        if (!v) return hudi_error_oom(err);
        s->cmds = v;
        c = &s->cmds[s->n_cmds++];
        *c = (rb_cmd){part, fid, base, HUDI_VEC_INIT(char *)};
    }
    char **slot = hudi_vec_push(&c->logs);
    if (!slot) return hudi_error_oom(err);
    *slot = name;
    return 0;
}

/* A file an APPEND marker names (docs/formats/timeline.md §8): a log file of a slice that an
 * older instant started gets a rollback command block, as Hudi 0.14/0.15's marker-based
 * rollback does (its blocks stay, the block tells readers to drop them); a log file that
 * starts a file group of F itself is deleted; a log file that was never written needs
 * nothing. Returns 1 when `rel` is to be deleted, 0 when handled. */
static int classify_append(rb_state *s, const char *rel, hudi_error *err) {
    hudi_log_file_name ln;
    if (!hudi_log_file_name_parse(&ln, name_of(rel)) || ln.is_cdc || ln.is_archive) return 1;
    if (hudi_slice_eq(ln.instant, hudi_slice_cstr(s->f->time))) return 1;
    hudi_stat st;
    char *abs = abs_path(s, rel);
    if (!abs) return hudi_error_oom(err);
    int rc = hudi_fs_stat(s->t->fs, abs, &st, err);
    if (rc == HUDI_ENOTFOUND) {
        hudi_error_clear(err);
        return 0;
    }
    if (rc < 0) return rc;
    return add_cmd(s, rel, &ln, err);
}

/* Merge-on-read: the log files whose base instant is F (file groups F started in log files, or
 * the logs written onto a compaction F's slices), found by listing, as Hudi's listing-based
 * rollback deletes them. */
static int list_own_logs(rb_state *s, hudi_vec *all, hudi_error *err) {
    char **parts = NULL;
    size_t np = 0;
    hudi_buf dir = HUDI_BUF_INIT;
    int rc = hudi_table_list_partitions(s->t->fs, s->t->base_path, &parts, &np, err);
    for (size_t p = 0; rc == 0 && p < np; p++) {
        hudi_dir_listing l = {0};
        hudi_buf_clear(&dir);
        hudi_buf_printf(&dir, "%s%s%s", s->t->base_path, *parts[p] ? "/" : "", parts[p]);
        if (hudi_buf_failed(&dir)) {
            rc = hudi_error_oom(err);
            break;
        }
        rc = hudi_fs_list(s->t->fs, dir.data, &l, err);
        for (size_t i = 0; rc == 0 && i < l.count; i++) {
            hudi_log_file_name ln;
            if (l.entries[i].is_dir || !hudi_log_file_name_parse(&ln, l.entries[i].name) ||
                ln.is_archive || !hudi_slice_eq(ln.instant, hudi_slice_cstr(s->f->time)))
                continue;
            char **slot = hudi_vec_push(all);
            size_t n = strlen(parts[p]) + strlen(l.entries[i].name) + 2;
            if (!slot || !(*slot = hudi_malloc(n))) {
                rc = hudi_error_oom(err);
                break;
            }
            snprintf(*slot, n, "%s%s%s", parts[p], *parts[p] ? "/" : "", l.entries[i].name);
        }
        hudi_dir_listing_dispose(&l);
    }
    hudi_write_free_strings(parts, np);
    hudi_buf_dispose(&dir);
    return rc;
}

/* Files written by F: its markers plus base files named with F (and, merge-on-read, log files
 * of slices F started). */
static int collect_files(rb_state *s, hudi_error *err) {
    hudi_buf dir = HUDI_BUF_INIT;
    hudi_written_files wf = HUDI_WRITTEN_FILES_INIT;
    char **markers = NULL;
    size_t n_markers = 0;
    hudi_vec all = HUDI_VEC_INIT(char *);
    hudi_buf_printf(&dir, "%s/%s/%s", s->t->base_path, WRITE_TEMP_DIR, s->f->time);
    int rc = hudi_buf_failed(&dir) ? hudi_error_oom(err) : 0;
    if (rc == 0) rc = hudi_write_list_markers(s->t->fs, dir.data, &markers, &n_markers, err);
    if (rc == 0 && n_markers > 1) qsort(markers, n_markers, sizeof(char *), cmp_str);
    for (size_t i = 0; rc == 0 && i < n_markers; i++) {
        char *m = strstr(markers[i], ".marker.");
        if (!m) continue;
        *m = '\0';
        if (strcmp(m + 8, "APPEND") == 0 && (rc = classify_append(s, markers[i], err)) <= 0)
            continue;
        rc = 0;
        char **slot = hudi_vec_push(&all);
        if (!slot || !(*slot = hudi_strdup(markers[i]))) rc = hudi_error_oom(err);
    }
    if (rc == 0) {
        rc = hudi_fs_view_files_of_instant(&wf, s->t->timeline, s->f->time, err);
        if (rc == HUDI_ENOTFOUND) {
            hudi_error_clear(err);
            rc = 0;
        }
    }
    for (size_t i = 0; rc == 0 && i < wf.count; i++) {
        if (!wf.files[i].path) continue;
        char **slot = hudi_vec_push(&all);
        if (!slot || !(*slot = hudi_strdup(wf.files[i].path))) rc = hudi_error_oom(err);
    }
    if (rc == 0 && s->t->cfg.type == HUDI_MERGE_ON_READ && s->t->cfg.timeline_layout < 2)
        rc = list_own_logs(s, &all, err);
    if (rc == 0 && all.len > 1) {
        char **v = all.data;
        qsort(v, all.len, sizeof(char *), cmp_str);
        size_t n = 1;
        for (size_t i = 1; i < all.len; i++) {
            if (strcmp(v[i], v[n - 1]) == 0)
                hudi_free(v[i]);
            else
                v[n++] = v[i];
        }
        all.len = n;
    }
    if (rc == 0) {
        s->files = all.data;
        s->n_files = all.len;
    } else {
        hudi_write_free_strings(all.data, all.len);
    }
    hudi_write_free_strings(markers, n_markers);
    hudi_written_files_dispose(&wf);
    hudi_buf_dispose(&dir);
    return rc;
}

static rb_part *part_for(rb_state *s, const char *path, hudi_error *err) {
    for (size_t i = 0; i < s->n_parts; i++)
        if (strcmp(s->parts[i].path, path) == 0) return &s->parts[i];
    rb_part *p = hudi_realloc(s->parts, (s->n_parts + 1) * sizeof(rb_part));
    if (!p) {
        hudi_error_oom(err);
        return NULL;
    }
    s->parts = p;
    p = &s->parts[s->n_parts++];
    p->path = path;
    p->ok = (hudi_vec)HUDI_VEC_INIT(char *);
    p->failed = (hudi_vec)HUDI_VEC_INIT(char *);
    p->cmd_logs = (hudi_vec)HUDI_VEC_INIT(char *);
    p->cmd_lens = (hudi_vec)HUDI_VEC_INIT(int64_t);
    p->f_logs = (hudi_vec)HUDI_VEC_INIT(char *);
    return p;
}

static hudi_avro_value *instant_info(hudi_arena *a, const hudi_instant *f) {
    hudi_avro_value *v = hudi_av_coll(a, HUDI_AVRO_RECORD, 2);
    hudi_avro_value *t = hudi_av_str(a, f->time),
                    *act = hudi_av_str(a, hudi_action_name(f->action));
    if (!v || !t || !act) return NULL;
    v->items[0] = *t;
    v->items[1] = *act;
    return v;
}

static hudi_avro_value *str_array(hudi_arena *a, const hudi_vec *v) {
    hudi_avro_value *arr = hudi_av_coll(a, HUDI_AVRO_ARRAY, v->len);
    for (size_t i = 0; arr && i < v->len; i++) {
        hudi_avro_value *s = hudi_av_str(a, hudi_vec_at(v, char *, i));
        if (!s) return NULL;
        arr->items[i] = *s;
    }
    return arr;
}

/* map<long> of the names in `keys` with `lens` (NULL: every value 1, as Hudi stubs a log
 * file's size from a marker). */
static hudi_avro_value *long_map(hudi_arena *a, const hudi_vec *keys, const hudi_vec *lens) {
    hudi_avro_value *m = hudi_av_coll(a, HUDI_AVRO_MAP, keys->len);
    for (size_t i = 0; m && i < keys->len; i++) {
        hudi_avro_value *v =
            hudi_av_long(a, HUDI_AVRO_LONG, lens ? hudi_vec_at(lens, int64_t, i) : 1);
        if (!v) return NULL;
        m->keys[i] = hudi_slice_cstr(hudi_vec_at(keys, char *, i));
        m->items[i] = *v;
    }
    return m;
}

static hudi_avro_value *plan_request(hudi_arena *a, const char *part, const char *fid,
                                     const char *base, hudi_avro_value *files,
                                     hudi_avro_value *logs) {
    hudi_avro_value *r = hudi_av_coll(a, HUDI_AVRO_RECORD, 5);
    hudi_avro_value *vp = hudi_av_str(a, part), *vf = hudi_av_str(a, fid),
                    *vb = hudi_av_str(a, base);
    if (!r || !vp || !vf || !vb || !files || !logs) return NULL;
    r->items[0] = *vp;
    r->items[1] = *vf;
    r->items[2] = *vb;
    r->items[3] = *files;
    r->items[4] = *logs;
    return r;
}

/* HoodieRollbackPlan: a request per file to delete and per slice to get a command block, as
 * Hudi's marker-based strategy makes them. */
static hudi_avro_value *build_plan(rb_state *s) {
    hudi_arena *a = &s->arena;
    hudi_avro_value *rec = hudi_av_coll(a, HUDI_AVRO_RECORD, 3);
    hudi_avro_value *info = instant_info(a, s->f);
    hudi_avro_value *reqs = hudi_av_coll(a, HUDI_AVRO_ARRAY, s->n_files + s->n_cmds);
    if (!rec || !info || !reqs) return NULL;
    for (size_t i = 0; i < s->n_files; i++) {
        hudi_base_file_name bn;
        const char *fid = "", *base = "";
        if (hudi_base_file_name_parse(&bn, name_of(s->files[i]))) {
            fid = hudi_arena_strndup(a, (const char *)bn.file_id.data, bn.file_id.len);
            base = hudi_arena_strndup(a, (const char *)bn.instant.data, bn.instant.len);
        }
        hudi_avro_value *files = hudi_av_coll(a, HUDI_AVRO_ARRAY, 1);
        hudi_avro_value *path = hudi_av_str(a, abs_path(s, s->files[i]));
        if (!files || !path || !fid || !base) return NULL;
        files->items[0] = *path;
        hudi_avro_value *r = plan_request(a, parent_of(a, s->files[i]), fid, base, files,
                                          hudi_av_coll(a, HUDI_AVRO_MAP, 0));
        if (!r) return NULL;
        reqs->items[i] = *r;
    }
    for (size_t i = 0; i < s->n_cmds; i++) {
        const rb_cmd *c = &s->cmds[i];
        hudi_avro_value *r =
            plan_request(a, c->part, c->file_id, c->base, hudi_av_coll(a, HUDI_AVRO_ARRAY, 0),
                         long_map(a, &c->logs, NULL));
        if (!r) return NULL;
        reqs->items[s->n_files + i] = *r;
    }
    hudi_avro_value *ver = hudi_av_long(a, HUDI_AVRO_INT, 1);
    if (!ver) return NULL;
    rec->items[0] = *info;
    rec->items[1] = *reqs;
    rec->items[2] = *ver;
    return rec;
}

/* HoodieRollbackMetadata; per partition rollbackLogFiles (the log files with the command
 * blocks: path -> length) and logFilesFromFailedCommit (F's log files: name -> 1). */
static hudi_avro_value *build_metadata(rb_state *s, const char *r_time, int64_t took_ms,
                                       int32_t deleted) {
    hudi_arena *a = &s->arena;
    hudi_avro_value *rec = hudi_av_coll(a, HUDI_AVRO_RECORD, 7);
    hudi_avro_value *start = hudi_av_str(a, r_time),
                    *took = hudi_av_long(a, HUDI_AVRO_LONG, took_ms);
    hudi_avro_value *total = hudi_av_long(a, HUDI_AVRO_INT, deleted);
    hudi_avro_value *commits = hudi_av_coll(a, HUDI_AVRO_ARRAY, 1),
                    *ft = hudi_av_str(a, s->f->time);
    hudi_avro_value *pm = hudi_av_coll(a, HUDI_AVRO_MAP, s->n_parts);
    hudi_avro_value *ver = hudi_av_long(a, HUDI_AVRO_INT, 1);
    hudi_avro_value *infos = hudi_av_coll(a, HUDI_AVRO_ARRAY, 1), *info = instant_info(a, s->f);
    if (!rec || !start || !took || !total || !commits || !ft || !pm || !ver || !infos || !info)
        return NULL;
    commits->items[0] = *ft;
    infos->items[0] = *info;
    for (size_t i = 0; i < s->n_parts; i++) {
        const rb_part *pt = &s->parts[i];
        hudi_avro_value *p = hudi_av_coll(a, HUDI_AVRO_RECORD, 5), *path = hudi_av_str(a, pt->path);
        hudi_avro_value *ok = str_array(a, &pt->ok);
        hudi_avro_value *bad = str_array(a, &pt->failed);
        hudi_avro_value *m1 = long_map(a, &pt->cmd_logs, &pt->cmd_lens),
                        *m2 = long_map(a, &pt->f_logs, NULL);
        if (!p || !path || !ok || !bad || !m1 || !m2) return NULL;
        p->items[0] = *path;
        p->items[1] = *ok;
        p->items[2] = *bad;
        p->items[3] = *m1;
        p->items[4] = *m2;
        pm->keys[i] = hudi_slice_cstr(pt->path);
        pm->items[i] = *p;
    }
    rec->items[0] = *start;
    rec->items[1] = *took;
    rec->items[2] = *total;
    rec->items[3] = *commits;
    rec->items[4] = *pm;
    rec->items[5] = *ver;
    rec->items[6] = *infos;
    return rec;
}

static int64_t mono_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int delete_files(rb_state *s, int32_t *deleted, hudi_error *err) {
    *deleted = 0;
    for (size_t i = 0; i < s->n_files; i++) {
        const char *part = parent_of(&s->arena, s->files[i]);
        char *abs = abs_path(s, s->files[i]);
        rb_part *p = part && abs ? part_for(s, part, err) : NULL;
        if (!p) return part && abs ? HUDI_ENOMEM : hudi_error_oom(err);
        int rc = hudi_fs_remove(s->t->fs, abs, err);
        if (rc == HUDI_ENOTFOUND) {
            hudi_error_clear(err);
            continue; /* never published, or removed by an earlier attempt */
        }
        if (rc < 0) return rc; /* stop: the rollback is redone by the next writer */
        char **slot = hudi_vec_push(&p->ok);
        if (!slot) return hudi_error_oom(err);
        *slot = abs;
        (*deleted)++;
    }
    return 0;
}

/* The newest log version of slice (file id, base) in partition directory `dir` (0: none). */
static int latest_log_version(rb_state *s, const char *dir, const rb_cmd *c, uint64_t *out,
                              hudi_error *err) {
    hudi_dir_listing l = {0};
    *out = 0;
    int rc = hudi_fs_list(s->t->fs, dir, &l, err);
    for (size_t i = 0; rc == 0 && i < l.count; i++) {
        hudi_log_file_name ln;
        if (l.entries[i].is_dir || !hudi_log_file_name_parse(&ln, l.entries[i].name) || ln.is_cdc ||
            ln.is_archive || !hudi_slice_eq(ln.file_id, hudi_slice_cstr(c->file_id)) ||
            !hudi_slice_eq(ln.instant, hudi_slice_cstr(c->base)))
            continue;
        if (ln.version > *out) *out = ln.version;
    }
    hudi_dir_listing_dispose(&l);
    return rc;
}

/* Writes the rollback command block of slice `c` as Hudi's log writer does on storage without
 * append (docs/formats/log-file.md §3, §7): a new log file of the slice, one version past its
 * newest, write token 1-0-1, holding one COMMAND_BLOCK (INSTANT_TIME = the rollback R,
 * TARGET_INSTANT_TIME = F, COMMAND_BLOCK_TYPE = 0, no content). An APPEND marker under R is
 * written first, so a rollback that does not complete can take its file back. */
static int write_command_block(rb_state *s, const rb_cmd *c, const char *r_time, hudi_error *err) {
    hudi_table *t = s->t;
    hudi_buf dir = HUDI_BUF_INIT, block = HUDI_BUF_INIT, name = HUDI_BUF_INIT, path = HUDI_BUF_INIT,
             marker = HUDI_BUF_INIT;
    hudi_slice header[HUDI_LOG_META_KEYS];
    memset(header, 0, sizeof(header));
    header[HUDI_LOG_INSTANT_TIME] = hudi_slice_cstr(r_time);
    header[HUDI_LOG_TARGET_INSTANT_TIME] = hudi_slice_cstr(s->f->time);
    header[HUDI_LOG_COMMAND_BLOCK_TYPE] = hudi_slice_cstr("0"); /* ROLLBACK_BLOCK */
    uint64_t version = 0;
    rb_part *p = part_for(s, c->part, err);
    int rc = p ? 0 : HUDI_ENOMEM;
    if (rc == 0) {
        hudi_buf_printf(&dir, "%s%s%s", t->base_path, *c->part ? "/" : "", c->part);
        rc = hudi_buf_failed(&dir) ? hudi_error_oom(err) : 0;
    }
    if (rc == 0) rc = latest_log_version(s, dir.data, c, &version, err);
    if (rc == 0)
        rc = hudi_log_block_write(&block, HUDI_LOG_COMMAND_BLOCK, header, HUDI_SLICE("", 0), err);
    for (int tries = 0; rc == 0; tries++) {
        hudi_buf_clear(&name);
        version++;
        if ((rc = hudi_log_file_name_format(&name, c->file_id, c->base, version, "1-0-1", err)) < 0)
            break;
        hudi_buf_clear(&path);
        hudi_buf_printf(&path, "%s/%s/%s%s%s", t->base_path, WRITE_TEMP_DIR, r_time,
                        *c->part ? "/" : "", c->part);
        if (hudi_buf_failed(&path)) {
            rc = hudi_error_oom(err);
            break;
        }
        if ((rc = hudi_fs_mkdirs(t->fs, path.data, err)) < 0) break;
        hudi_buf_printf(&path, "/%s.marker.APPEND", name.data);
        if (hudi_buf_failed(&path)) {
            rc = hudi_error_oom(err);
            break;
        }
        if ((rc = hudi_fs_write_all(t->fs, path.data, HUDI_CREATE_OVERWRITE, "", 0, err)) < 0)
            break;
        hudi_buf_clear(&marker);
        hudi_buf_append(&marker, path.data, path.len + 1);
        hudi_buf_clear(&path);
        hudi_buf_printf(&path, "%s/%s", dir.data, name.data);
        if (hudi_buf_failed(&path) || hudi_buf_failed(&marker)) {
            rc = hudi_error_oom(err);
            break;
        }
        rc = hudi_fs_write_all(t->fs, path.data, HUDI_CREATE_EXCLUSIVE, block.data, block.len, err);
        if (rc == HUDI_EEXISTS && tries < 100) {
            /* a writer took that version meanwhile: its file is not ours to take back */
            hudi_error_clear(err);
            if ((rc = hudi_fs_remove(t->fs, marker.data, err)) < 0) break;
            continue;
        }
        break;
    }
    if (rc == 0) {
        char **lp = hudi_vec_push(&p->cmd_logs);
        int64_t *len = lp ? hudi_vec_push(&p->cmd_lens) : NULL;
        if (!len || !(*lp = hudi_arena_strdup(&s->arena, path.data))) {
            rc = hudi_error_oom(err);
        } else {
            *len = (int64_t)block.len;
            for (size_t i = 0; rc == 0 && i < c->logs.len; i++) {
                char **slot = hudi_vec_push(&p->f_logs);
                if (!slot)
                    rc = hudi_error_oom(err);
                else
                    *slot = hudi_vec_at(&c->logs, char *, i);
            }
        }
    }
    hudi_buf_dispose(&dir);
    hudi_buf_dispose(&block);
    hudi_buf_dispose(&name);
    hudi_buf_dispose(&path);
    hudi_buf_dispose(&marker);
    return rc;
}

static int remove_markers(hudi_table *t, const char *time, hudi_error *err) {
    hudi_buf dir = HUDI_BUF_INIT;
    hudi_buf_printf(&dir, "%s/%s/%s", t->base_path, WRITE_TEMP_DIR, time);
    int rc =
        hudi_buf_failed(&dir) ? hudi_error_oom(err) : hudi_write_remove_tree(t->fs, dir.data, err);
    hudi_buf_dispose(&dir);
    return rc;
}

static int rollback_one(hudi_table *t, const hudi_instant *f_in, const hudi_clock *clock,
                        hudi_error *err) {
    rb_state s;
    memset(&s, 0, sizeof(s));
    hudi_instant f = *f_in; /* the timeline array changes below */
    hudi_buf body = HUDI_BUF_INIT;
    char r_time[HUDI_INSTANT_TIME_MAX];
    int32_t deleted = 0;
    int64_t t0 = mono_ms();
    s.t = t;
    s.f = &f;
    int rc = collect_files(&s, err);
    if (rc == 0)
        rc = hudi_instant_time_new(r_time, clock, t->cfg.timeline_utc,
                                   hudi_timeline_last_time(t->timeline), err);
    if (rc == 0)
        rc = hudi_av_container(&body, hudi_write_schema_rollback_plan, build_plan(&s), err);
    if (rc == 0)
        rc =
            hudi_timeline_write_instant(t->timeline, r_time, HUDI_ACTION_ROLLBACK,
                                        HUDI_STATE_REQUESTED, HUDI_SLICE(body.data, body.len), err);
    if (rc == 0)
        rc = hudi_timeline_write_instant(t->timeline, r_time, HUDI_ACTION_ROLLBACK,
                                         HUDI_STATE_INFLIGHT, HUDI_SLICE("", 0), err);
    if (rc == 0) rc = delete_files(&s, &deleted, err);
    for (size_t i = 0; rc == 0 && i < s.n_cmds; i++)
        rc = write_command_block(&s, &s.cmds[i], r_time, err);
    if (rc == 0) {
        hudi_buf_clear(&body);
        rc = hudi_av_container(&body, hudi_write_schema_rollback_metadata,
                               build_metadata(&s, r_time, mono_ms() - t0, deleted), err);
    }
    if (rc == 0)
        rc =
            hudi_timeline_write_instant(t->timeline, r_time, HUDI_ACTION_ROLLBACK,
                                        HUDI_STATE_COMPLETED, HUDI_SLICE(body.data, body.len), err);
    /* R is complete: F can go (completed file first, so it never looks committed). */
    if (rc == 0) rc = hudi_timeline_delete_instant(t->timeline, f.time, err);
    if (rc == 0) rc = remove_markers(t, f.time, err);
    if (rc == 0) rc = remove_markers(t, r_time, err);
    for (size_t i = 0; i < s.n_parts; i++) {
        hudi_vec_dispose(&s.parts[i].ok);
        hudi_vec_dispose(&s.parts[i].failed);
        hudi_vec_dispose(&s.parts[i].cmd_logs);
        hudi_vec_dispose(&s.parts[i].cmd_lens);
        hudi_vec_dispose(&s.parts[i].f_logs);
    }
    for (size_t i = 0; i < s.n_cmds; i++) hudi_vec_dispose(&s.cmds[i].logs);
    hudi_free(s.cmds);
    hudi_free(s.parts);
    hudi_write_free_strings(s.files, s.n_files);
    hudi_arena_dispose(&s.arena);
    hudi_buf_dispose(&body);
    return rc;
}

/* A rollback R that did not complete is discarded and done again with a new instant: the log
 * files with command blocks it wrote (named by its APPEND markers) go first - they hold only
 * blocks for a write that is still pending - then its markers and its instant files. */
static int discard_rollback(hudi_table *t, const char *time, hudi_error *err) {
    hudi_buf dir = HUDI_BUF_INIT, path = HUDI_BUF_INIT;
    char **markers = NULL;
    size_t n = 0;
    hudi_buf_printf(&dir, "%s/%s/%s", t->base_path, WRITE_TEMP_DIR, time);
    int rc = hudi_buf_failed(&dir) ? hudi_error_oom(err) : 0;
    if (rc == 0) rc = hudi_write_list_markers(t->fs, dir.data, &markers, &n, err);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        char *m = strstr(markers[i], ".marker.APPEND");
        if (!m || m[14] != '\0') continue;
        hudi_buf_clear(&path);
        hudi_buf_printf(&path, "%s/%.*s", t->base_path, (int)(m - markers[i]), markers[i]);
        rc = hudi_buf_failed(&path) ? hudi_error_oom(err) : hudi_fs_remove(t->fs, path.data, err);
        if (rc == HUDI_ENOTFOUND) {
            hudi_error_clear(err);
            rc = 0;
        }
    }
    if (rc == 0) rc = hudi_write_remove_tree(t->fs, dir.data, err);
    if (rc == 0) rc = hudi_timeline_delete_instant(t->timeline, time, err);
    hudi_write_free_strings(markers, n);
    hudi_buf_dispose(&dir);
    hudi_buf_dispose(&path);
    return rc;
}

/* Times of pending instants whose action is in `actions`, newest first. */
static int pending_times(const hudi_timeline *tl, unsigned actions,
                         char (**out)[HUDI_INSTANT_TIME_MAX], size_t *n, hudi_error *err) {
    *out = NULL;
    *n = 0;
    if (tl->count == 0) return 0;
    char(*v)[HUDI_INSTANT_TIME_MAX] = hudi_calloc(tl->count, HUDI_INSTANT_TIME_MAX);
    if (!v) return hudi_error_oom(err);
    for (size_t i = tl->count; i-- > 0;) {
        const hudi_instant *in = &tl->instants[i];
        if (in->state == HUDI_STATE_COMPLETED || !(HUDI_ACTION_BIT(in->action) & actions)) continue;
        bool completed = false, seen = false;
        for (size_t k = 0; k < tl->count; k++)
            if (strcmp(tl->instants[k].time, in->time) == 0)
                completed |= tl->instants[k].state == HUDI_STATE_COMPLETED;
        for (size_t k = 0; k < *n; k++) seen |= strcmp(v[k], in->time) == 0;
        if (completed || seen) continue;
        snprintf(v[(*n)++], HUDI_INSTANT_TIME_MAX, "%s", in->time);
    }
    *out = v;
    return 0;
}

static const hudi_instant *find_pending(const hudi_timeline *tl, const char *time) {
    const hudi_instant *best = NULL;
    for (size_t i = 0; i < tl->count; i++)
        if (strcmp(tl->instants[i].time, time) == 0) best = &tl->instants[i];
    return best;
}

static int remove_heartbeat(hudi_table *t, const char *time, hudi_error *err) {
    hudi_buf p = HUDI_BUF_INIT;
    hudi_buf_printf(&p, "%s/%s/%s", t->base_path, HUDI_HEARTBEAT_DIR, time);
    int rc = hudi_buf_failed(&p) ? hudi_error_oom(err) : hudi_fs_remove(t->fs, p.data, err);
    if (rc == HUDI_ENOTFOUND) {
        hudi_error_clear(err);
        rc = 0;
    }
    hudi_buf_dispose(&p);
    return rc;
}

int hudi_write_rollback_instant(hudi_table *t, const char *time, const hudi_clock *clock,
                                hudi_error *err) {
    const hudi_instant *f = find_pending(t->timeline, time);
    if (!f) return 0;
    int rc = rollback_one(t, f, clock, err);
    if (rc == 0) rc = remove_heartbeat(t, time, err);
    return rc;
}

int hudi_write_rollback_failed(hudi_table *t, const hudi_txn_config *tc, const hudi_clock *clock,
                               hudi_error *err) {
    char(*times)[HUDI_INSTANT_TIME_MAX] = NULL;
    size_t n = 0;
    int rolled = 0;
    /* Unfinished rollbacks and cleans are redone from scratch: their instants go. A single
     * writer's are its own, dead. With several writers a recent one may be live: Hudi plans a
     * clean or a rollback under the lock but runs it after releasing it, so one younger than
     * the heartbeat expiry is another writer's work in progress, left alone. */
    unsigned redo = HUDI_ACTION_BIT(HUDI_ACTION_ROLLBACK) | HUDI_ACTION_BIT(HUDI_ACTION_CLEAN);
    char live_after[HUDI_INSTANT_TIME_MAX] = "";
    int rc = 0;
    if (tc->occ)
        rc = hudi_instant_time_from_ms(
            live_after, hudi_os_now_ms() - tc->heartbeat_interval_ms * tc->heartbeat_misses,
            t->cfg.timeline_utc, err);
    if (rc == 0) rc = pending_times(t->timeline, redo, &times, &n, err);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (live_after[0] && hudi_instant_time_cmp(times[i], live_after) > 0) continue;
        const hudi_instant *in = find_pending(t->timeline, times[i]);
        if (in && in->action == HUDI_ACTION_ROLLBACK)
            rc = discard_rollback(t, times[i], err);
        else
            rc = hudi_timeline_delete_instant(t->timeline, times[i], err);
    }
    hudi_free(times);
    times = NULL;
    unsigned writes = HUDI_ACTION_BIT(HUDI_ACTION_COMMIT) |
                      HUDI_ACTION_BIT(HUDI_ACTION_DELTACOMMIT) |
                      HUDI_ACTION_BIT(HUDI_ACTION_REPLACECOMMIT);
    if (rc == 0) rc = pending_times(t->timeline, writes, &times, &n, err);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        bool dead = false;
        /* A pending clustering is a plan to execute, not a failed write (Hudi leaves clustering
         * out of the failed writes it rolls back); its execution rolls back its own failures. */
        if (hudi_cluster_is_pending(t->timeline, times[i])) continue;
        /* Never a live writer's instant: only those whose heartbeat says the writer is gone
         * (docs/formats/concurrency.md, "Failed writes"). */
        if ((rc = hudi_heartbeat_writer_dead(&dead, t, tc, times[i], err)) < 0) break;
        if (!dead) continue;
        if ((rc = hudi_write_rollback_instant(t, times[i], clock, err)) == 0) rolled++;
    }
    hudi_free(times);
    return rc < 0 ? rc : rolled;
}

int hudi_tbl_rollback_pending(hudi_table *t, const hudi_clock *clock, hudi_error *err) {
    hudi_txn_config tc;
    hudi_table_lock *lock = NULL;
    int rc = hudi_txn_config_load(&tc, t, NULL, err);
    if (rc < 0) return rc;
    if ((rc = hudi_table_lock_acquire(&lock, t, &tc, err)) == 0 &&
        (rc = hudi_tbl_reload(t, err)) == 0)
        rc = hudi_write_rollback_failed(t, &tc, clock, err);
    hudi_table_lock_release(lock);
    hudi_txn_config_dispose(&tc);
    return rc;
}

/* Rolls back the completed commit `time` (Hudi's rollback_to_instant). Under the table lock:
 * the commit must be the latest completed one, no write may be pending, and the file versions
 * it replaced must still be on storage (a clean after it may have taken them). Then its
 * completed instant file is deleted first, which makes it an ordinary failed write (the
 * commit point: readers stop seeing it), and the failed write is rolled back as any other
 * (timeline.md §8). A crash in between leaves a pending instant that the next writer rolls
 * back. */
int hudi_tbl_rollback_commit(hudi_table *t, const char *time, const hudi_clock *clock,
                             hudi_error *err) {
    hudi_txn_config tc;
    hudi_table_lock *lock = NULL;
    hudi_fs_view *view = NULL;
    hudi_buf path = HUDI_BUF_INIT;
    int rc = hudi_txn_config_load(&tc, t, NULL, err);
    if (rc < 0) return rc;
    if ((rc = hudi_table_lock_acquire(&lock, t, &tc, err)) < 0) goto done;
    if ((rc = hudi_tbl_reload(t, err)) < 0) goto done;
    const hudi_timeline *tl = t->timeline;
    const hudi_instant *f = NULL, *prev = NULL, *last = NULL;
    for (size_t i = 0; i < tl->count; i++) {
        const hudi_instant *in = &tl->instants[i];
        if (!(HUDI_ACTION_BIT(in->action) & HUDI_ACTIONS_WRITES)) continue;
        if (in->state != HUDI_STATE_COMPLETED) {
            bool done_later = false;
            for (size_t k = 0; k < tl->count; k++)
                done_later |= strcmp(tl->instants[k].time, in->time) == 0 &&
                              tl->instants[k].state == HUDI_STATE_COMPLETED;
            if (!done_later) {
                rc = hudi_error_set(err, HUDI_ECONFLICT,
                                    "%s: cannot roll back while the write %s is pending",
                                    t->base_path, in->time);
                goto done;
            }
            continue;
        }
        if (strcmp(in->time, time) == 0) f = in;
        if (!f) prev = in;
        last = in;
    }
    if (!f) {
        rc = hudi_error_set(err, HUDI_ENOTFOUND, "%s: Commit %s not found in Commits", t->base_path,
                            time);
        goto done;
    }
    if (f->action != HUDI_ACTION_COMMIT && f->action != HUDI_ACTION_DELTACOMMIT &&
        f->action != HUDI_ACTION_REPLACECOMMIT) {
        rc = hudi_error_set(err, HUDI_EUNSUPPORTED, "%s: rolling back a %s is not supported",
                            t->base_path, hudi_action_name(f->action));
        goto done;
    }
    if (last != f) {
        rc = hudi_error_set(err, HUDI_ECONFLICT,
                            "%s: found commits after time %s (latest %s), please rollback "
                            "greater commits first",
                            t->base_path, time, last->time);
        goto done;
    }
    if (prev) {
        hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
        vo.as_of_instant = prev->time;
        vo.check_missing = true;
        size_t missing = 0;
        if ((rc = hudi_fs_view_build(&view, tl, &vo, err)) < 0) goto done;
        const hudi_missing_file *mf = hudi_fs_view_missing_files(view, &missing);
        if (missing > 0) {
            rc = hudi_error_set(err, HUDI_ECONFLICT,
                                "%s: cannot roll back %s: %s of the version before it was "
                                "cleaned",
                                t->base_path, time, mf[0].path);
            goto done;
        }
    }
    rc = hudi_write_uncommit_and_rollback(t, f, clock, err);
done:
    hudi_fs_view_free(view);
    hudi_buf_dispose(&path);
    hudi_table_lock_release(lock);
    hudi_txn_config_dispose(&tc);
    return rc;
}

/* A completed deltacommit's log files are named after their slice's base instant, not F: once
 * F is pending again only markers find them. Write APPEND markers for them from its commit
 * metadata before the commit point goes (an existing marker is simply written again). */
static int mark_logs(hudi_table *t, const hudi_instant *f, hudi_error *err) {
    hudi_written_files wf = HUDI_WRITTEN_FILES_INIT;
    hudi_buf path = HUDI_BUF_INIT;
    int rc = hudi_fs_view_files_of_instant(&wf, t->timeline, f->time, err);
    for (size_t i = 0; rc == 0 && i < wf.count; i++) {
        const hudi_written_file *w = &wf.files[i];
        if (!w->is_log || !w->path) continue;
        const char *part = w->partition_path ? w->partition_path : "";
        hudi_buf_clear(&path);
        hudi_buf_printf(&path, "%s/%s/%s%s%s", t->base_path, WRITE_TEMP_DIR, f->time,
                        *part ? "/" : "", part);
        if (hudi_buf_failed(&path)) {
            rc = hudi_error_oom(err);
            break;
        }
        if ((rc = hudi_fs_mkdirs(t->fs, path.data, err)) < 0) break;
        const char *slash = strrchr(w->path, '/');
        hudi_buf_printf(&path, "/%s.marker.APPEND", slash ? slash + 1 : w->path);
        rc = hudi_buf_failed(&path)
                 ? hudi_error_oom(err)
                 : hudi_fs_write_all(t->fs, path.data, HUDI_CREATE_OVERWRITE, "", 0, err);
    }
    hudi_written_files_dispose(&wf);
    hudi_buf_dispose(&path);
    return rc;
}

int hudi_write_uncommit_and_rollback(hudi_table *t, const hudi_instant *f_in,
                                     const hudi_clock *clock, hudi_error *err) {
    hudi_instant f = *f_in; /* the timeline array changes below */
    const hudi_timeline *tl = t->timeline;
    hudi_buf path = HUDI_BUF_INIT;
    bool has_pending = false;
    for (size_t i = 0; i < tl->count; i++)
        has_pending |= strcmp(tl->instants[i].time, f.time) == 0 &&
                       tl->instants[i].state != HUDI_STATE_COMPLETED &&
                       (HUDI_ACTION_BIT(tl->instants[i].action) & HUDI_ACTIONS_WRITES);
    int rc = 0;
    if (f.action == HUDI_ACTION_DELTACOMMIT && f.state == HUDI_STATE_COMPLETED)
        rc = mark_logs(t, &f, err);
    if (rc == 0 && !has_pending) /* an inflight file keeps the un-committed write on the timeline */
        rc = hudi_timeline_write_instant(t->timeline, f.time, f.action, HUDI_STATE_INFLIGHT,
                                         HUDI_SLICE("", 0), err);
    if (rc == 0) {
        hudi_buf_printf(&path, "%s/%s", tl->dir, f.file);
        rc = hudi_buf_failed(&path) ? hudi_error_oom(err)
                                    : hudi_fs_remove(t->fs, path.data, err); /* commit point */
    }
    if (rc == 0) rc = hudi_tbl_reload(t, err);
    if (rc == 0) rc = hudi_write_rollback_instant(t, f.time, clock, err);
    hudi_buf_dispose(&path);
    return rc;
}
