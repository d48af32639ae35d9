/* fs_view.c - the file-system view of a table as of an instant Q (docs/formats/
 * file-names.md §2, §7; timeline.md §5):
 * partitions found by walking directories, base and log files grouped into file groups and
 * file slices, with uncommitted files, files after Q and replaced file groups removed. Also the
 * files written by commits, from their write stats (incremental reads, rollback).
 *
 * Invariant: every string and array the view hands out lives in the view's arena or in one of
 * its arrays, and nothing in it changes after hudi_fs_view_build returns, so callers may keep
 * pointers until hudi_fs_view_free. */
#include <stdlib.h>

#include "table/table.h"

#define PARTITION_META_TEXT HUDI_PARTITION_META_FILE
#define PARTITION_META_PARQUET HUDI_PARTITION_META_FILE ".parquet"
#define PARTITION_META_ORC HUDI_PARTITION_META_FILE ".orc"

struct hudi_fs_view {
    hudi_arena arena;
    const char *as_of;
    const char **partitions;
    size_t partitions_count;
    hudi_file_slice *all; /* every visible slice, by (partition, file id, base instant) */
    size_t all_count;
    hudi_file_slice *latest; /* one per visible file group, same order */
    size_t latest_count;
    hudi_missing_file *missing; /* committed base files absent from storage */
    size_t missing_count;
};

/* One data file found by listing. Strings live in the builder's arena (the view's). */
typedef struct entry {
    uint32_t part; /* index into the partition list */
    bool is_log;
    const char *file_id;
    const char *instant;
    const char *name;
    const char *token;
    uint64_t version;
    hudi_base_format format;
    int64_t size_bytes;
} entry;

typedef struct builder {
    const hudi_timeline *tl;
    hudi_fs_view *v;
    const char *q;
    hudi_vec parts;     /* const char * (arena), in discovery order */
    hudi_vec entries;   /* entry */
    hudi_map replaced;  /* "<partition>\0<file id>" -> non-NULL */
    hudi_map committed; /* instant -> VISIBLE / HIDDEN: one timeline lookup per instant */
    hudi_vec all;       /* hudi_file_slice */
    hudi_vec latest;    /* hudi_file_slice */
    hudi_vec missing;   /* hudi_missing_file */
    hudi_error *err;
} builder;

/* ---- paths ---------------------------------------------------------------------------- */

static bool is_partition_meta(const char *name) {
    return strcmp(name, PARTITION_META_TEXT) == 0 || strcmp(name, PARTITION_META_PARQUET) == 0 ||
           strcmp(name, PARTITION_META_ORC) == 0;
}

/* ---- partition discovery (file-names.md §2) ------------------------------------------------- */

typedef int (*partition_fn)(void *payload, const char *rel, const hudi_dir_listing *l,
                            hudi_error *err);

/* Walks the directories under base_path as Hudi's FileSystemBackedTableMetadata does: a
 * directory holding a partition metafile is a partition (and is not descended into); other
 * directories are descended, except ".hoodie" and hidden ones. `fn` sees each partition with
 * its listing. */
static int walk_partitions(hudi_fs *fs, const char *base_path, partition_fn fn, void *payload,
                           hudi_error *err) {
    hudi_vec todo = HUDI_VEC_INIT(char *);
    hudi_buf dir = HUDI_BUF_INIT;
    hudi_dir_listing l = {NULL, 0};
    int rc = 0;
    char **first = hudi_vec_push(&todo);
    if (!first || !(*first = hudi_strdup(""))) {
        rc = hudi_error_oom(err);
        goto done;
    }
    while (todo.len > 0) {
        char *rel = hudi_vec_at(&todo, char *, --todo.len);
        hudi_buf_clear(&dir);
        if (rel[0])
            hudi_path_join(&dir, base_path, rel);
        else
            hudi_buf_puts(&dir, base_path);
        if (hudi_buf_failed(&dir)) rc = hudi_error_oom(err);
        if (rc == 0) rc = hudi_fs_list(fs, dir.data, &l, err);
        bool is_partition = false;
        for (size_t i = 0; rc == 0 && i < l.count && !is_partition; i++)
            is_partition = !l.entries[i].is_dir && is_partition_meta(l.entries[i].name);
        if (rc == 0 && is_partition) rc = fn(payload, rel, &l, err);
        for (size_t i = 0; rc == 0 && !is_partition && i < l.count; i++) {
            const hudi_dirent *e = &l.entries[i];
            if (!e->is_dir || e->name[0] == '.') continue; /* .hoodie, hidden folders */
            hudi_buf child = HUDI_BUF_INIT;
            if (rel[0]) {
                hudi_buf_puts(&child, rel);
                hudi_buf_putc(&child, '/');
            }
            hudi_buf_puts(&child, e->name);
            char **slot = hudi_buf_failed(&child) ? NULL : hudi_vec_push(&todo);
            if (!slot) {
                hudi_buf_dispose(&child);
                rc = hudi_error_oom(err);
                break;
            }
            *slot = hudi_buf_detach(&child);
        }
        hudi_dir_listing_dispose(&l);
        hudi_free(rel);
        if (rc < 0) goto done;
    }
done:
    for (size_t i = 0; i < todo.len; i++) hudi_free(hudi_vec_at(&todo, char *, i));
    hudi_vec_dispose(&todo);
    hudi_buf_dispose(&dir);
    return rc;
}

typedef struct name_list {
    hudi_vec names; /* char * (hudi_malloc) */
} name_list;

static int collect_partition(void *payload, const char *rel, const hudi_dir_listing *l,
                             hudi_error *err) {
    name_list *nl = payload;
    char **slot = hudi_vec_push(&nl->names);
    if (!slot || !(*slot = hudi_strdup(rel))) {
        if (slot) nl->names.len--;
        return hudi_error_oom(err);
    }
    return 0;
}

static int cmp_cstr(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int hudi_table_list_partitions(hudi_fs *fs, const char *base_path, char ***out, size_t *count,
                               hudi_error *err) {
    *out = NULL;
    *count = 0;
    name_list nl = {HUDI_VEC_INIT(char *)};
    int rc = walk_partitions(fs, base_path, collect_partition, &nl, err);
    if (rc < 0) {
        for (size_t i = 0; i < nl.names.len; i++) hudi_free(hudi_vec_at(&nl.names, char *, i));
        hudi_vec_dispose(&nl.names);
        return rc;
    }
    if (nl.names.len) qsort(nl.names.data, nl.names.len, sizeof(char *), cmp_cstr);
    *out = nl.names.data;
    *count = nl.names.len;
    return 0;
}

/* ---- classifying the files of a partition ---------------------------------------------- */

static int add_partition_files(void *payload, const char *rel, const hudi_dir_listing *l,
                               hudi_error *err) {
    builder *b = payload;
    hudi_arena *a = &b->v->arena;
    const char **slot = hudi_vec_push(&b->parts);
    if (!slot || !(*slot = hudi_arena_strdup(a, rel))) return hudi_error_oom(err);
    uint32_t part = (uint32_t)(b->parts.len - 1);
    for (size_t i = 0; i < l->count; i++) {
        const hudi_dirent *d = &l->entries[i];
        if (d->is_dir) continue;
        /* Hadoop's checksum files (`.<name>.crc`, left by Spark on a local file system) are
         * never listed by Hadoop's ChecksumFileSystem; a log file's checksum would otherwise
         * parse as a log file of file id `.<fileId>` (Hudi's pattern is anchored at the start
         * only). */
        size_t nl = strlen(d->name);
        if (d->name[0] == '.' && nl > 4 && strcmp(d->name + nl - 4, ".crc") == 0) continue;
        hudi_base_file_name bn;
        hudi_log_file_name ln;
        entry e = {.part = part, .size_bytes = d->size_bytes};
        hudi_slice id, inst, tok;
        if (hudi_base_file_name_parse(&bn, d->name)) {
            id = bn.file_id, inst = bn.instant, tok = bn.write_token;
            e.format = bn.format;
        } else if (hudi_log_file_name_parse(&ln, d->name) && !ln.is_archive && !ln.is_cdc) {
            id = ln.file_id, inst = ln.instant, tok = ln.write_token;
            e.is_log = true;
            e.version = ln.version;
        } else {
            continue; /* metafile, .crc, temp files, CDC logs, ... */
        }
        e.name = hudi_arena_strdup(a, d->name);
        e.file_id = hudi_arena_strndup(a, (const char *)id.data, id.len);
        e.instant = hudi_arena_strndup(a, (const char *)inst.data, inst.len);
        e.token = hudi_arena_strndup(a, (const char *)tok.data, tok.len);
        entry *slot_e = hudi_vec_push(&b->entries);
        if (!e.name || !e.file_id || !e.instant || !e.token || !slot_e) return hudi_error_oom(err);
        *slot_e = e;
    }
    return 0;
}

/* ---- the timeline's part --------------------------------------------------------------- */

static int read_commit(hudi_commit_metadata **out, const hudi_timeline *tl, const hudi_instant *in,
                       hudi_error *err) {
    hudi_buf json = HUDI_BUF_INIT;
    hudi_buf what = HUDI_BUF_INIT;
    int rc = hudi_timeline_read_commit_json(&json, tl, in, err);
    if (rc == 0) {
        hudi_buf_printf(&what, "%s/%s", tl->dir, in->file);
        rc = hudi_buf_failed(&what)
                 ? hudi_error_oom(err)
                 : hudi_commit_metadata_parse(out, json.data, json.len, what.data, err);
    }
    hudi_buf_dispose(&json);
    hudi_buf_dispose(&what);
    return rc;
}

static int replaced_key(hudi_buf *k, const char *partition, const char *file_id) {
    hudi_buf_clear(k);
    hudi_buf_puts(k, partition);
    hudi_buf_putc(k, '\0');
    hudi_buf_puts(k, file_id);
    return hudi_buf_failed(k) ? HUDI_ENOMEM : 0;
}

/* Every file group retired by a completed replacecommit <= Q (commit-metadata.md §4,
 * file-names.md §7.3). */
static int load_replaced(builder *b) {
    hudi_instant_list l = {NULL, 0};
    hudi_instant_filter f = {HUDI_ACTION_BIT(HUDI_ACTION_REPLACECOMMIT),
                             HUDI_STATE_BIT(HUDI_STATE_COMPLETED), NULL, b->q};
    hudi_buf key = HUDI_BUF_INIT;
    int rc = hudi_timeline_select(&l, b->tl, &f, b->err);
    for (size_t i = 0; rc == 0 && i < l.count; i++) {
        hudi_commit_metadata *md = NULL;
        if ((rc = read_commit(&md, b->tl, l.items[i], b->err)) < 0) break;
        for (size_t p = 0; rc == 0 && p < md->replaced_count; p++) {
            const hudi_partition_replaced *pr = &md->replaced[p];
            for (size_t j = 0; rc == 0 && j < pr->count; j++) {
                if (replaced_key(&key, pr->partition_path, pr->file_ids[j]) < 0 ||
                    hudi_map_put(&b->replaced, key.data, key.len, (void *)1, NULL) < 0)
                    rc = hudi_error_oom(b->err);
            }
        }
        hudi_commit_metadata_free(md);
    }
    hudi_instant_list_dispose(&l);
    hudi_buf_dispose(&key);
    return rc;
}

static bool at_or_before_q(const builder *b, const char *t) {
    return hudi_instant_time_cmp(t, b->q) <= 0;
}

#define VISIBLE ((void *)1)
#define HIDDEN ((void *)2)

/* A base file is visible iff its instant is committed (timeline.md §5) and <= Q. Tables have many
 * files per instant, so the answer is memoised (a failed insert only costs a repeated lookup). */
static bool base_visible(builder *b, const char *instant) {
    if (!at_or_before_q(b, instant)) return false;
    size_t n = strlen(instant);
    void *memo = hudi_map_get(&b->committed, instant, n);
    if (memo) return memo == VISIBLE;
    bool yes = hudi_timeline_is_committed(b->tl, instant);
    (void)hudi_map_put(&b->committed, instant, n, yes ? VISIBLE : HIDDEN, NULL);
    return yes;
}

/* A pending compaction's slice has log files before its base file exists (file-names.md §7.4). */
static bool is_pending_compaction(const hudi_timeline *tl, const char *t) {
    const hudi_instant *in = NULL;
    if (hudi_timeline_find(&in, tl, t, NULL) < 0) return false;
    return in->action == HUDI_ACTION_COMPACTION && in->state != HUDI_STATE_COMPLETED;
}

/* ---- building file groups ---------------------------------------------------------------- */

static int cmp_entry(const void *pa, const void *pb) {
    const entry *a = pa, *b = pb;
    if (a->part != b->part) return a->part < b->part ? -1 : 1;
    int c = strcmp(a->file_id, b->file_id);
    if (c) return c;
    if (a->is_log != b->is_log) return a->is_log ? 1 : -1;
    if ((c = strcmp(a->instant, b->instant))) return c;
    if (a->version != b->version) return a->version < b->version ? -1 : 1;
    if ((c = strcmp(a->token, b->token))) return c;
    return strcmp(a->name, b->name);
}

/* A slice under construction. */
typedef struct slice_acc {
    const char *instant;
    const entry *base;
    hudi_vec logs; /* const entry * */
} slice_acc;

/* With two base files for one (file id, instant) - a retried task that was not cleaned up -
 * the one named in the commit's write stats wins (file-names.md §7.5). */
static int pick_duplicate(builder *b, const entry *cur, const entry *cand, const entry **out) {
    *out = cur;
    const hudi_instant *in = NULL;
    if (hudi_timeline_find(&in, b->tl, cand->instant, NULL) < 0 ||
        in->state != HUDI_STATE_COMPLETED)
        return 0;
    hudi_commit_metadata *md = NULL;
    int rc = read_commit(&md, b->tl, in, b->err);
    if (rc < 0) return rc;
    for (size_t p = 0; p < md->partitions_count; p++) {
        for (size_t i = 0; i < md->partitions[p].count; i++) {
            const char *path = md->partitions[p].stats[i].path;
            if (path && strcmp(hudi_path_basename(path), cand->name) == 0) *out = cand;
        }
    }
    hudi_commit_metadata_free(md);
    return 0;
}

static slice_acc *find_slice(hudi_vec *slices, const char *instant) {
    for (size_t i = 0; i < slices->len; i++) {
        slice_acc *s = &hudi_vec_at(slices, slice_acc, i);
        if (strcmp(s->instant, instant) == 0) return s;
    }
    return NULL;
}

static slice_acc *add_slice(hudi_vec *slices, const char *instant) {
    slice_acc *s = hudi_vec_push(slices);
    if (!s) return NULL;
    s->instant = instant;
    s->logs = (hudi_vec)HUDI_VEC_INIT(const entry *);
    return s;
}

static int cmp_slice_acc(const void *a, const void *b) {
    return strcmp(((const slice_acc *)a)->instant, ((const slice_acc *)b)->instant);
}

/* Layout 2 (file-names.md §6): a log file is named with the deltacommit that wrote it and belongs
 * to the slice with the greatest base instant <= that deltacommit's completion time; with none, it
 * opens (or joins the earliest) log-only slice. */
static int place_log_v2(builder *b, hudi_vec *slices, const entry *e) {
    if (!base_visible(b, e->instant)) return 0; /* blocks of such logs would all be skipped */
    const hudi_instant *in = NULL;
    const char *done_at = e->instant; /* archived instants: no completion time known */
    if (hudi_timeline_find(&in, b->tl, e->instant, NULL) == 0 && in->completion[0])
        done_at = in->completion;
    slice_acc *best = NULL;
    for (size_t i = 0; i < slices->len; i++) {
        slice_acc *s = &hudi_vec_at(slices, slice_acc, i);
        if (hudi_instant_time_cmp(s->instant, done_at) <= 0 &&
            (!best || strcmp(s->instant, best->instant) > 0))
            best = s;
    }
    if (!best && !(best = add_slice(slices, e->instant))) return HUDI_ENOMEM;
    const entry **slot = hudi_vec_push(&best->logs);
    if (!slot) return HUDI_ENOMEM;
    *slot = e;
    return 0;
}

/* Layout 1: a log file names the base instant of its slice (file-names.md §6). */
static int place_log_v1(builder *b, hudi_vec *slices, const entry *e) {
    slice_acc *s = find_slice(slices, e->instant);
    if (!s) {
        if (!at_or_before_q(b, e->instant) || (!hudi_timeline_is_committed(b->tl, e->instant) &&
                                               !is_pending_compaction(b->tl, e->instant)))
            return 0;
        if (!(s = add_slice(slices, e->instant))) return HUDI_ENOMEM;
    }
    const entry **slot = hudi_vec_push(&s->logs);
    if (!slot) return HUDI_ENOMEM;
    *slot = e;
    return 0;
}

static char *entry_path(builder *b, const entry *e) {
    const char *part = hudi_vec_at(&b->parts, const char *, e->part);
    hudi_buf p = HUDI_BUF_INIT;
    hudi_buf_puts(&p, b->tl->base_path);
    if (part[0]) {
        hudi_buf_putc(&p, '/');
        hudi_buf_puts(&p, part);
    }
    hudi_buf_putc(&p, '/');
    hudi_buf_puts(&p, e->name);
    char *s = hudi_buf_failed(&p) ? NULL : hudi_arena_strndup(&b->v->arena, p.data, p.len);
    hudi_buf_dispose(&p);
    return s;
}

/* Turns accumulated slices (sorted) into view slices appended to b->all. */
static int emit_slice(builder *b, const slice_acc *s, const entry *first, hudi_file_slice *out) {
    hudi_arena *a = &b->v->arena;
    memset(out, 0, sizeof(*out));
    out->partition_path = hudi_vec_at(&b->parts, const char *, first->part);
    out->file_id = first->file_id;
    out->base_instant = s->instant;
    if (s->base) {
        hudi_base_file *bf = hudi_arena_alloc(a, sizeof(*bf));
        if (!bf || !(bf->path = entry_path(b, s->base))) return HUDI_ENOMEM;
        bf->name = s->base->name;
        bf->write_token = s->base->token;
        bf->format = s->base->format;
        bf->size_bytes = s->base->size_bytes;
        out->base = bf;
    }
    if (s->logs.len) {
        hudi_log_file *logs = hudi_arena_alloc(a, s->logs.len * sizeof(*logs));
        if (!logs) return HUDI_ENOMEM;
        for (size_t i = 0; i < s->logs.len; i++) {
            const entry *e = hudi_vec_at(&s->logs, const entry *, i);
            logs[i] = (hudi_log_file){e->name,  entry_path(b, e), e->instant,
                                      e->token, e->version,       e->size_bytes};
            if (!logs[i].path) return HUDI_ENOMEM;
        }
        out->logs = logs;
        out->logs_count = s->logs.len;
    }
    return 0;
}

/* Hudi's "latest merged file slice": when the newest slice belongs to a pending compaction
 * (logs only, its base file not written yet), readers merge it with the slice before it. */
static int merge_pending_compaction(builder *b, const hudi_file_slice *prev,
                                    const hudi_file_slice *last, hudi_file_slice *out) {
    *out = *prev;
    size_t n = prev->logs_count + last->logs_count;
    hudi_log_file *logs = hudi_arena_alloc(&b->v->arena, n * sizeof(*logs));
    if (!logs) return HUDI_ENOMEM;
    if (prev->logs_count) memcpy(logs, prev->logs, prev->logs_count * sizeof(*logs));
    memcpy(logs + prev->logs_count, last->logs, last->logs_count * sizeof(*logs));
    out->logs = logs;
    out->logs_count = n;
    return 0;
}

/* One file group: entries [lo, hi) share (partition, file id), bases first then logs. */
static int build_group(builder *b, const entry *lo, const entry *hi) {
    const char *part = hudi_vec_at(&b->parts, const char *, lo->part);
    hudi_buf key = HUDI_BUF_INIT;
    int rc = replaced_key(&key, part, lo->file_id) < 0 ? HUDI_ENOMEM : 0;
    bool replaced = rc == 0 && hudi_map_get(&b->replaced, key.data, key.len) != NULL;
    hudi_buf_dispose(&key);
    if (rc < 0 || replaced) return rc < 0 ? hudi_error_oom(b->err) : 0;

    hudi_vec slices = HUDI_VEC_INIT(slice_acc);
    for (const entry *e = lo; rc == 0 && e < hi && !e->is_log; e++) {
        if (!base_visible(b, e->instant)) continue;
        slice_acc *s = find_slice(&slices, e->instant);
        if (s) {
            rc = pick_duplicate(b, s->base, e, &s->base);
            continue;
        }
        if (!(s = add_slice(&slices, e->instant)))
            rc = hudi_error_oom(b->err);
        else
            s->base = e;
    }
    for (const entry *e = lo; rc == 0 && e < hi; e++) {
        if (!e->is_log) continue;
        rc = b->tl->layout >= 2 ? place_log_v2(b, &slices, e) : place_log_v1(b, &slices, e);
        if (rc < 0) rc = hudi_error_oom(b->err);
    }
    if (rc == 0 && slices.len) {
        qsort(slices.data, slices.len, sizeof(slice_acc), cmp_slice_acc);
        size_t first = b->all.len;
        for (size_t i = 0; rc == 0 && i < slices.len; i++) {
            hudi_file_slice *out = hudi_vec_push(&b->all);
            if (!out || emit_slice(b, &hudi_vec_at(&slices, slice_acc, i), lo, out) < 0)
                rc = hudi_error_oom(b->err);
        }
        hudi_file_slice *latest = rc == 0 ? hudi_vec_push(&b->latest) : NULL;
        if (rc == 0 && !latest) rc = hudi_error_oom(b->err);
        if (rc == 0) {
            /* b->all may have moved: index, do not keep pointers across pushes */
            const hudi_file_slice *last = &hudi_vec_at(&b->all, hudi_file_slice, b->all.len - 1);
            *latest = *last;
            if (!last->base && b->all.len - first >= 2 &&
                is_pending_compaction(b->tl, last->base_instant) &&
                merge_pending_compaction(b, last - 1, last, latest) < 0)
                rc = hudi_error_oom(b->err);
        }
    }
    for (size_t i = 0; i < slices.len; i++)
        hudi_vec_dispose(&hudi_vec_at(&slices, slice_acc, i).logs);
    hudi_vec_dispose(&slices);
    return rc;
}

/* ---- committed base files missing from storage ------------------------------------------- */

/* The listed entries of (partition rank, file id): [*lo, *hi) of the sorted entries. */
static void group_entries(const builder *b, uint32_t part, const char *file_id, size_t *lo,
                          size_t *hi) {
    const entry *e = b->entries.data;
    size_t l = 0, h = b->entries.len;
    while (l < h) {
        size_t mid = l + (h - l) / 2;
        int c =
            e[mid].part != part ? (e[mid].part < part ? -1 : 1) : strcmp(e[mid].file_id, file_id);
        if (c < 0)
            l = mid + 1;
        else
            h = mid;
    }
    *lo = l;
    while (l < b->entries.len && e[l].part == part && strcmp(e[l].file_id, file_id) == 0) l++;
    *hi = l;
}

static bool partition_requested(const hudi_fs_view_options *opts, const char *partition) {
    if (!opts->partitions) return true;
    for (size_t i = 0; i < opts->partitions_count; i++)
        if (strcmp(opts->partitions[i], partition) == 0) return true;
    return false;
}

/* One file a completed commit names in its write stats (commit-metadata.md §2): recorded in
 * b->missing when it is a base file the listing lacks and nothing newer in the view supersedes it.
 * The listing is the view's own (b->entries, sorted), so the check reads no storage. */
static int check_written(builder *b, const hudi_fs_view_options *opts, const hudi_instant *in,
                         const hudi_write_stat *st, hudi_buf *part, hudi_buf *key) {
    hudi_base_file_name bn;
    if (!st->path) return 0;
    const char *name = hudi_path_basename(st->path);
    if (!hudi_base_file_name_parse(&bn, name)) return 0; /* log and CDC files */
    char file_id[128], instant[HUDI_INSTANT_TIME_MAX];
    if (bn.file_id.len >= sizeof(file_id) || bn.instant.len >= sizeof(instant)) return 0;
    memcpy(file_id, bn.file_id.data, bn.file_id.len);
    file_id[bn.file_id.len] = '\0';
    memcpy(instant, bn.instant.data, bn.instant.len);
    instant[bn.instant.len] = '\0';
    /* The folder of the path is the partition ("" for a file at the base path). */
    hudi_buf_clear(part);
    hudi_buf_append(part, st->path, name > st->path ? (size_t)(name - st->path) - 1 : 0);
    const char *partition = part->data && part->len ? part->data : "";
    if (hudi_buf_failed(part) || replaced_key(key, partition, file_id) < 0)
        return hudi_error_oom(b->err);
    if (!partition_requested(opts, partition) ||
        hudi_map_get(&b->replaced, key->data, key->len) != NULL)
        return 0;
    bool newer_visible = false, newer_exists = false;
    const hudi_fs_view *v = b->v;
    const char **hit = v->partitions_count ? bsearch(&partition, v->partitions, v->partitions_count,
                                                     sizeof(char *), cmp_cstr)
                                           : NULL;
    if (hit) {
        size_t lo, hi;
        group_entries(b, (uint32_t)(hit - v->partitions), file_id, &lo, &hi);
        for (size_t i = lo; i < hi; i++) {
            const entry *e = &hudi_vec_at(&b->entries, entry, i);
            if (e->is_log) continue;
            if (strcmp(e->name, name) == 0) return 0; /* present */
            if (hudi_instant_time_cmp(e->instant, instant) <= 0) continue;
            if (base_visible(b, e->instant))
                newer_visible = true;
            else if (hudi_timeline_is_committed(b->tl, e->instant))
                newer_exists = true;
        }
    }
    if (newer_visible) return 0; /* an older slice, e.g. cleaned: the view does not read it */
    hudi_missing_file *m = hudi_vec_push(&b->missing);
    if (!m) return hudi_error_oom(b->err);
    hudi_arena *a = &b->v->arena;
    m->instant = hudi_arena_strdup(a, in->time);
    m->partition_path = hudi_arena_strdup(a, partition);
    m->file_id = hudi_arena_strdup(a, file_id);
    m->path = hudi_arena_strdup(a, st->path);
    hudi_instant_filter cleans = {HUDI_ACTION_BIT(HUDI_ACTION_CLEAN),
                                  HUDI_STATE_BIT(HUDI_STATE_COMPLETED), in->time, NULL};
    m->cleaned = newer_exists && hudi_timeline_count_matching(b->tl, &cleans) > 0;
    if (!m->instant || !m->partition_path || !m->file_id || !m->path) return hudi_error_oom(b->err);
    return 0;
}

/* Every base file named by a completed commit in (opts->missing_after, Q] that the view lacks
 * (hudi_fs_view_missing_files). One commit metadata file read per commit in the range. */
static int check_missing(builder *b, const hudi_fs_view_options *opts) {
    hudi_instant_list l = {NULL, 0};
    hudi_instant_filter f = {HUDI_ACTIONS_COMMITS, HUDI_STATE_BIT(HUDI_STATE_COMPLETED),
                             opts->missing_after, b->q};
    hudi_buf part = HUDI_BUF_INIT, key = HUDI_BUF_INIT;
    int rc = hudi_timeline_select(&l, b->tl, &f, b->err);
    for (size_t i = 0; rc == 0 && i < l.count; i++) {
        hudi_commit_metadata *md = NULL;
        if ((rc = read_commit(&md, b->tl, l.items[i], b->err)) < 0) break;
        for (size_t p = 0; rc == 0 && p < md->partitions_count; p++) {
            const hudi_partition_write_stats *ps = &md->partitions[p];
            for (size_t j = 0; rc == 0 && j < ps->count; j++)
                rc = check_written(b, opts, l.items[i], &ps->stats[j], &part, &key);
        }
        hudi_commit_metadata_free(md);
    }
    hudi_instant_list_dispose(&l);
    hudi_buf_dispose(&part);
    hudi_buf_dispose(&key);
    return rc;
}

/* Remaps partition indexes to sorted order so slices come out sorted by partition. */
static int sort_partitions(builder *b) {
    size_t n = b->parts.len;
    hudi_fs_view *v = b->v;
    v->partitions = hudi_arena_alloc(&v->arena, (n ? n : 1) * sizeof(char *));
    uint32_t *rank = hudi_calloc(n ? n : 1, sizeof(uint32_t));
    if (!v->partitions || !rank) {
        hudi_free(rank);
        return hudi_error_oom(b->err);
    }
    if (n) {
        memcpy(v->partitions, b->parts.data, n * sizeof(char *));
        qsort(v->partitions, n, sizeof(char *), cmp_cstr);
    }
    v->partitions_count = n;
    for (size_t i = 0; i < n; i++) {
        /* partition names are unique: binary search finds the one position */
        const char *name = hudi_vec_at(&b->parts, const char *, i);
        const char **hit = bsearch(&name, v->partitions, n, sizeof(char *), cmp_cstr);
        rank[i] = (uint32_t)(hit - v->partitions);
    }
    for (size_t i = 0; i < b->entries.len; i++) {
        entry *e = &hudi_vec_at(&b->entries, entry, i);
        e->part = rank[e->part];
    }
    if (n) memcpy(b->parts.data, v->partitions, n * sizeof(char *));
    hudi_free(rank);
    return 0;
}

static int list_given_partitions(builder *b, const hudi_fs_view_options *opts) {
    hudi_buf dir = HUDI_BUF_INIT;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < opts->partitions_count; i++) {
        const char *rel = opts->partitions[i];
        bool dup = false;
        for (size_t j = 0; j < i && !dup; j++) dup = strcmp(opts->partitions[j], rel) == 0;
        if (dup) continue;
        hudi_buf_clear(&dir);
        if (rel[0])
            hudi_path_join(&dir, b->tl->base_path, rel);
        else
            hudi_buf_puts(&dir, b->tl->base_path);
        if (hudi_buf_failed(&dir)) {
            rc = hudi_error_oom(b->err);
            break;
        }
        hudi_dir_listing l = {NULL, 0};
        hudi_error e2 = HUDI_ERROR_INIT;
        rc = hudi_fs_list(b->tl->fs, dir.data, &l, &e2);
        if (rc == HUDI_ENOTFOUND) { /* a partition with no folder has no files */
            rc = 0;
            continue;
        }
        if (rc < 0) {
            if (b->err) *b->err = e2;
            break;
        }
        rc = add_partition_files(b, rel, &l, b->err);
        hudi_dir_listing_dispose(&l);
    }
    hudi_buf_dispose(&dir);
    return rc;
}

static void builder_dispose(builder *b) {
    hudi_vec_dispose(&b->parts);
    hudi_vec_dispose(&b->entries);
    hudi_map_dispose(&b->replaced);
    hudi_map_dispose(&b->committed);
    hudi_vec_dispose(&b->all);
    hudi_vec_dispose(&b->latest);
    hudi_vec_dispose(&b->missing);
}

int hudi_fs_view_build(hudi_fs_view **out, const hudi_timeline *tl,
                       const hudi_fs_view_options *opts, hudi_error *err) {
    *out = NULL;
    static const hudi_fs_view_options dflt = HUDI_FS_VIEW_OPTIONS_INIT;
    if (!opts) opts = &dflt;
    if (opts->as_of_instant &&
        !hudi_instant_time_valid(opts->as_of_instant, strlen(opts->as_of_instant)))
        return hudi_error_set(err, HUDI_EINVAL, "invalid as-of instant '%s'", opts->as_of_instant);
    hudi_fs_view *v = hudi_calloc(1, sizeof(*v));
    if (!v) return hudi_error_oom(err);
    builder b = {.tl = tl, .v = v, .err = err};
    b.parts = (hudi_vec)HUDI_VEC_INIT(const char *);
    b.entries = (hudi_vec)HUDI_VEC_INIT(entry);
    b.all = (hudi_vec)HUDI_VEC_INIT(hudi_file_slice);
    b.latest = (hudi_vec)HUDI_VEC_INIT(hudi_file_slice);
    b.missing = (hudi_vec)HUDI_VEC_INIT(hudi_missing_file);
    int rc = 0;
    const hudi_instant *last = hudi_timeline_last_completed_commit(tl);
    /* Hudi shows nothing while the commits timeline is empty, whatever is on storage. */
    const char *q = !last ? "" : opts->as_of_instant ? opts->as_of_instant : last->time;
    if (!(v->as_of = hudi_arena_strdup(&v->arena, q))) {
        rc = hudi_error_oom(err);
        goto done;
    }
    b.q = v->as_of;
    if (opts->partitions)
        rc = list_given_partitions(&b, opts);
    else
        rc = walk_partitions(tl->fs, tl->base_path, add_partition_files, &b, err);
    if (rc < 0 || (rc = sort_partitions(&b)) < 0) goto done;
    if (last) {
        if ((rc = load_replaced(&b)) < 0) goto done;
        if (b.entries.len) qsort(b.entries.data, b.entries.len, sizeof(entry), cmp_entry);
        const entry *all = b.entries.data;
        for (size_t i = 0; rc == 0 && i < b.entries.len;) {
            size_t j = i + 1;
            while (j < b.entries.len && all[j].part == all[i].part &&
                   strcmp(all[j].file_id, all[i].file_id) == 0)
                j++;
            rc = build_group(&b, &all[i], &all[j]);
            i = j;
        }
        if (rc == 0 && opts->check_missing) rc = check_missing(&b, opts);
        if (rc < 0) goto done;
    }
    v->all = b.all.data;
    v->all_count = b.all.len;
    v->latest = b.latest.data;
    v->latest_count = b.latest.len;
    v->missing = b.missing.data;
    v->missing_count = b.missing.len;
    b.all = (hudi_vec)HUDI_VEC_INIT(hudi_file_slice);
    b.latest = (hudi_vec)HUDI_VEC_INIT(hudi_file_slice);
    b.missing = (hudi_vec)HUDI_VEC_INIT(hudi_missing_file);
    *out = v;
    v = NULL;
done:
    builder_dispose(&b);
    hudi_fs_view_free(v);
    return rc;
}

void hudi_fs_view_free(hudi_fs_view *v) {
    if (!v) return;
    hudi_free(v->all);
    hudi_free(v->latest);
    hudi_free(v->missing);
    hudi_arena_dispose(&v->arena);
    hudi_free(v);
}

const char *hudi_fs_view_as_of(const hudi_fs_view *v) { return v->as_of; }

const char *const *hudi_fs_view_partitions(const hudi_fs_view *v, size_t *count) {
    *count = v->partitions_count;
    return v->partitions;
}

const hudi_file_slice *hudi_fs_view_latest_slices(const hudi_fs_view *v, size_t *count) {
    *count = v->latest_count;
    return v->latest;
}

const hudi_file_slice *hudi_fs_view_all_slices(const hudi_fs_view *v, size_t *count) {
    *count = v->all_count;
    return v->all;
}

const hudi_missing_file *hudi_fs_view_missing_files(const hudi_fs_view *v, size_t *count) {
    *count = v->missing_count;
    return v->missing;
}

/* First index in latest[] whose (partition, file id) is >= the key. */
static size_t lower_bound(const hudi_fs_view *v, const char *partition, const char *file_id) {
    size_t lo = 0, hi = v->latest_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const hudi_file_slice *s = &v->latest[mid];
        int c = strcmp(s->partition_path, partition);
        if (c == 0 && file_id) c = strcmp(s->file_id, file_id);
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int hudi_fs_view_latest_slices_in(const hudi_fs_view *v, const char *partition,
                                  const hudi_file_slice **out, size_t *count) {
    size_t lo = lower_bound(v, partition, NULL), hi = lo;
    while (hi < v->latest_count && strcmp(v->latest[hi].partition_path, partition) == 0) hi++;
    *out = v->latest + lo;
    *count = hi - lo;
    return 0;
}

const hudi_file_slice *hudi_fs_view_find(const hudi_fs_view *v, const char *partition,
                                         const char *file_id) {
    size_t i = lower_bound(v, partition, file_id);
    if (i < v->latest_count && strcmp(v->latest[i].partition_path, partition) == 0 &&
        strcmp(v->latest[i].file_id, file_id) == 0)
        return &v->latest[i];
    return NULL;
}

/* ---- files written by commits ------------------------------------------------------------ */

void hudi_written_files_dispose(hudi_written_files *w) {
    hudi_free(w->files);
    hudi_arena_dispose(&w->arena);
    memset(w, 0, sizeof(*w));
}

static hudi_written_file *push_written(hudi_written_files *w) {
    if (w->count == w->cap) {
        size_t ncap = w->cap ? w->cap * 2 : 16, bytes;
        if (hudi_mul_overflow(ncap, sizeof(*w->files), &bytes)) return NULL;
        hudi_written_file *p = hudi_realloc(w->files, bytes);
        if (!p) return NULL;
        w->files = p;
        w->cap = ncap;
    }
    hudi_written_file *f = &w->files[w->count++];
    memset(f, 0, sizeof(*f));
    return f;
}

static const char *wdup(hudi_written_files *w, const char *s, bool *ok) {
    if (!s) return NULL;
    char *p = hudi_arena_strdup(&w->arena, s);
    if (!p) *ok = false;
    return p;
}

static int add_from_metadata(hudi_written_files *w, const hudi_instant *in,
                             const hudi_commit_metadata *md, hudi_error *err) {
    bool ok = true;
    const char *instant = wdup(w, in->time, &ok);
    const char *action = hudi_action_name(in->action);
    for (size_t p = 0; ok && p < md->partitions_count; p++) {
        const hudi_partition_write_stats *ps = &md->partitions[p];
        for (size_t i = 0; ok && i < ps->count; i++) {
            const hudi_write_stat *s = &ps->stats[i];
            hudi_written_file *f = push_written(w);
            if (!f) {
                ok = false;
                break;
            }
            hudi_log_file_name ln;
            f->instant = instant;
            f->action = action;
            f->partition_path = wdup(w, ps->partition_path, &ok);
            f->file_id = wdup(w, s->file_id, &ok);
            f->path = wdup(w, s->path, &ok);
            f->prev_commit = wdup(w, s->prev_commit, &ok);
            f->is_log = s->path && hudi_log_file_name_parse(&ln, hudi_path_basename(s->path));
            f->num_writes = s->num_writes;
            f->num_inserts = s->num_inserts;
            f->num_update_writes = s->num_update_writes;
            f->num_deletes = s->num_deletes;
            f->file_size_bytes = s->file_size_bytes;
        }
    }
    return ok ? 0 : hudi_error_oom(err);
}

int hudi_fs_view_files_between(hudi_written_files *out, const hudi_timeline *tl, const char *begin,
                               const char *end, hudi_error *err) {
    hudi_instant_list l = {NULL, 0};
    int rc = hudi_timeline_commits_between(&l, tl, begin, end, err);
    for (size_t i = 0; rc == 0 && i < l.count; i++) {
        hudi_commit_metadata *md = NULL;
        if ((rc = read_commit(&md, tl, l.items[i], err)) < 0) break;
        rc = add_from_metadata(out, l.items[i], md, err);
        hudi_commit_metadata_free(md);
    }
    hudi_instant_list_dispose(&l);
    return rc;
}

typedef struct pending_scan {
    hudi_written_files *w;
    const hudi_instant *in;
    bool logs_named_by_writer; /* layout 2 */
} pending_scan;

static int scan_pending_partition(void *payload, const char *rel, const hudi_dir_listing *l,
                                  hudi_error *err) {
    pending_scan *ps = payload;
    for (size_t i = 0; i < l->count; i++) {
        const char *name = l->entries[i].name;
        hudi_base_file_name bn;
        hudi_log_file_name ln;
        hudi_slice id, inst;
        bool is_log = false;
        if (l->entries[i].is_dir) continue;
        if (hudi_base_file_name_parse(&bn, name)) {
            id = bn.file_id, inst = bn.instant;
        } else if (ps->logs_named_by_writer && hudi_log_file_name_parse(&ln, name) &&
                   !ln.is_archive) {
            id = ln.file_id, inst = ln.instant;
            is_log = true;
        } else {
            continue;
        }
        if (!hudi_slice_eq(inst, hudi_slice_cstr(ps->in->time))) continue;
        hudi_written_file *f = push_written(ps->w);
        if (!f) return hudi_error_oom(err);
        bool ok = true;
        hudi_buf path = HUDI_BUF_INIT;
        if (rel[0]) {
            hudi_buf_puts(&path, rel);
            hudi_buf_putc(&path, '/');
        }
        hudi_buf_puts(&path, name);
        f->instant = wdup(ps->w, ps->in->time, &ok);
        f->action = hudi_action_name(ps->in->action);
        f->partition_path = wdup(ps->w, rel, &ok);
        f->file_id = hudi_arena_strndup(&ps->w->arena, (const char *)id.data, id.len);
        f->path = hudi_buf_failed(&path) ? NULL : wdup(ps->w, path.data, &ok);
        f->is_log = is_log;
        f->file_size_bytes = l->entries[i].size_bytes;
        hudi_buf_dispose(&path);
        if (!ok || !f->file_id || !f->path) return hudi_error_oom(err);
    }
    return 0;
}

int hudi_fs_view_files_of_instant(hudi_written_files *out, const hudi_timeline *tl,
                                  const char *instant, hudi_error *err) {
    const hudi_instant *in = NULL;
    int rc = hudi_timeline_find(&in, tl, instant, err);
    if (rc < 0) return rc;
    bool commit_like = (HUDI_ACTIONS_COMMITS & HUDI_ACTION_BIT(in->action)) != 0;
    if (in->state == HUDI_STATE_COMPLETED && commit_like) {
        hudi_commit_metadata *md = NULL;
        if ((rc = read_commit(&md, tl, in, err)) < 0) return rc;
        rc = add_from_metadata(out, in, md, err);
        hudi_commit_metadata_free(md);
        return rc;
    }
    pending_scan ps = {out, in, tl->layout >= 2};
    return walk_partitions(tl->fs, tl->base_path, scan_pending_partition, &ps, err);
}
