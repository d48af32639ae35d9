/* reader.c - opening a Parquet file (docs/formats/parquet.md §1.1-1.3) and scanning it in batches.
 *
 * Open reads the footer once, validates it (§1.2 step 6) and derives the hudic schema and
 * leaf plans. A scan walks the chosen row groups; for each it opens one column reader per
 * projected leaf, and every batch asks each reader for the same number of records, so all
 * columns of a batch line up. */
#include "format/parquet/reader_int.h"

/* ---- open ----------------------------------------------------------------------------- */

static int check_footer(hudi_pq_file *f, hudi_error *err) {
    const pq_file_meta *m = &f->meta;
    if (m->has_encryption_algorithm)
        return hudi_error_set(err, HUDI_EUNSUPPORTED, "%s: encrypted parquet not supported",
                              f->path);
    f->num_rows = 0;
    for (int32_t r = 0; r < m->n_row_groups; r++) {
        const pq_row_group *rg = &m->row_groups[r];
        if (rg->num_rows < 0)
            return hudi_error_set(err, HUDI_ECORRUPT, "%s: row group %d has negative row count",
                                  f->path, r);
        if (rg->n_columns != f->schema.n_leaves)
            return hudi_error_set(err, HUDI_ECORRUPT,
                                  "%s: row group %d has %d column chunks for %d leaf columns",
                                  f->path, r, rg->n_columns, f->schema.n_leaves);
        if (__builtin_add_overflow(f->num_rows, rg->num_rows, &f->num_rows))
            return hudi_error_set(err, HUDI_ECORRUPT, "%s: row count overflows", f->path);
        for (int32_t c = 0; c < rg->n_columns; c++) {
            const pq_column_chunk *cc = &rg->columns[c];
            if (cc->has_crypto_metadata || cc->has_encrypted_column_metadata)
                return hudi_error_set(err, HUDI_EUNSUPPORTED,
                                      "%s: encrypted parquet column not supported", f->path);
            if (cc->has_file_path)
                return hudi_error_set(err, HUDI_EUNSUPPORTED,
                                      "%s: external column chunks not supported", f->path);
            if (!cc->has_meta_data)
                return hudi_error_set(err, HUDI_ECORRUPT,
                                      "%s: column chunk %d of row group %d has no metadata",
                                      f->path, c, r);
            const pq_column_meta *cm = &cc->meta_data;
            if (cm->type != f->schema.leaves[c].physical_type)
                return hudi_error_set(err, HUDI_ECORRUPT,
                                      "%s: column chunk %d type %d differs from the schema's %d",
                                      f->path, c, cm->type, f->schema.leaves[c].physical_type);
            if (cm->num_values < 0 || cm->total_compressed_size < 0 || cm->data_page_offset < 0)
                return hudi_error_set(err, HUDI_ECORRUPT,
                                      "%s: column chunk %d of row group %d has negative sizes",
                                      f->path, c, r);
        }
    }
    return 0;
}

int hudi_pq_open(hudi_pq_file **out, hudi_fs *fs, const char *path,
                 const hudi_pq_open_options *opts, hudi_error *err) {
    hudi_pq_file *f = NULL;
    uint8_t tail[8], head[4];
    uint8_t *footer = NULL;
    int rc;
    *out = NULL;
    if (!(f = hudi_calloc(1, sizeof(*f))) || !(f->path = hudi_strdup(path))) {
        rc = hudi_error_oom(err);
        goto done;
    }
    f->opts = opts ? *opts : (hudi_pq_open_options)HUDI_PQ_OPEN_OPTIONS_INIT;
    if ((rc = hudi_fs_open(fs, path, &f->file, err)) < 0) goto done;
    f->size_bytes = f->file->size_bytes;
    if (f->size_bytes < 12) {
        rc = hudi_error_set(err, HUDI_ECORRUPT, "%s: not a parquet file (too small)", path);
        goto done;
    }
    if ((rc = hudi_file_read_at(f->file, f->size_bytes - 8, tail, 8, err)) < 0 ||
        (rc = hudi_file_read_at(f->file, 0, head, 4, err)) < 0)
        goto done;
    if (memcmp(tail + 4, "PARE", 4) == 0 || memcmp(head, "PARE", 4) == 0) {
        rc = hudi_error_set(err, HUDI_EUNSUPPORTED, "%s: encrypted parquet not supported", path);
        goto done;
    }
    if (memcmp(tail + 4, "PAR1", 4) != 0 || memcmp(head, "PAR1", 4) != 0) {
        rc = hudi_error_set(err, HUDI_ECORRUPT, "%s: not a parquet file (bad magic)", path);
        goto done;
    }
    uint32_t len = hudi_load_u32le(tail);
    if (len == 0 || (int64_t)len > f->size_bytes - 12) {
        rc = hudi_error_set(err, HUDI_ECORRUPT, "%s: footer length %u out of range", path, len);
        goto done;
    }
    f->footer_start = f->size_bytes - 8 - len;
    if (!(footer = hudi_malloc(len))) {
        rc = hudi_error_oom(err);
        goto done;
    }
    if ((rc = hudi_file_read_at(f->file, f->footer_start, footer, len, err)) < 0) goto done;
    if ((rc = hudi_pq_decode_file_meta(&f->meta, &f->arena, HUDI_SLICE(footer, len), err)) < 0) {
        hudi_error_wrap(err, "%s: footer", path);
        goto done;
    }
    pq_schema_read_options so = PQ_SCHEMA_READ_OPTIONS_INIT;
    so.binary_as_string = f->opts.binary_as_string;
    if ((rc = hudi_pq_schema_read(&f->schema, f->meta.schema, f->meta.n_schema, &so, err)) < 0) {
        hudi_error_wrap(err, "%s: schema", path);
        goto done;
    }
    if ((rc = check_footer(f, err)) < 0) goto done;
    *out = f;
    f = NULL;
done:
    hudi_free(footer);
    hudi_pq_close(f);
    return rc;
}

void hudi_pq_close(hudi_pq_file *f) {
    if (!f) return;
    hudi_pq_schema_dispose(&f->schema);
    hudi_arena_dispose(&f->arena);
    hudi_file_close(f->file);
    hudi_free(f->path);
    hudi_free(f);
}

const pq_file_meta *hudi_pq_meta(const hudi_pq_file *f) { return &f->meta; }
const hudi_field *hudi_pq_schema(const hudi_pq_file *f) { return &f->schema.root; }
int64_t hudi_pq_num_rows(const hudi_pq_file *f) { return f->num_rows; }

int64_t hudi_pq_file_size(const hudi_pq_file *f) { return f->size_bytes; }
int32_t hudi_pq_num_row_groups(const hudi_pq_file *f) { return f->meta.n_row_groups; }

int64_t hudi_pq_row_group_rows(const hudi_pq_file *f, int32_t rg) {
    return rg >= 0 && rg < f->meta.n_row_groups ? f->meta.row_groups[rg].num_rows : -1;
}

int64_t hudi_pq_row_group_bytes(const hudi_pq_file *f, int32_t rg) {
    return rg >= 0 && rg < f->meta.n_row_groups ? f->meta.row_groups[rg].total_byte_size : -1;
}

/* parquet.h's codec ids are meta.h's, so options pass straight through. */
#define SAME_CODEC(x) ((int)HUDI_PQ_CODEC_##x == (int)PQ_CODEC_##x)
_Static_assert(SAME_CODEC(UNCOMPRESSED) && SAME_CODEC(SNAPPY) && SAME_CODEC(GZIP) &&
                   SAME_CODEC(LZO) && SAME_CODEC(BROTLI) && SAME_CODEC(LZ4) && SAME_CODEC(ZSTD) &&
                   SAME_CODEC(LZ4_RAW),
               "parquet.h and meta.h codec ids");
const char *hudi_pq_path(const hudi_pq_file *f) { return f->path; }

bool hudi_pq_kv(const hudi_pq_file *f, const char *key, hudi_slice *value) {
    size_t klen = strlen(key);
    for (int32_t i = 0; i < f->meta.n_key_value; i++) {
        const pq_key_value *kv = &f->meta.key_value[i];
        if (kv->key.len == klen && memcmp(kv->key.data, key, klen) == 0) {
            *value = kv->has_value ? kv->value : HUDI_SLICE("", 0);
            return true;
        }
    }
    return false;
}

/* ---- scan ------------------------------------------------------------------------------ */

/* Ends the row group: pending skips are dropped (their pages counted when late). */
static void finish_readers(hudi_pq_scan *s) {
    for (int32_t i = 0; i < s->n_readers; i++) {
        pq_colreader *cr = &s->readers[i];
        if (!cr->f) continue;
        hudi_pq_colreader_finish(cr);
        if (s->late && !s->reader_pred[i]) s->stats.pages_late_skipped += cr->pages_stepped;
        cr->pages_stepped = cr->rows_trashed = 0;
    }
}

static void release_readers(hudi_pq_scan *s) {
    finish_readers(s);
    for (int32_t i = 0; i < s->n_readers; i++) hudi_pq_colreader_release(&s->readers[i]);
}

static void close_readers(hudi_pq_scan *s) {
    for (int32_t i = 0; i < s->n_readers; i++) hudi_pq_colreader_dispose(&s->readers[i]);
}

void hudi_pq_scan_free(hudi_pq_scan *s) {
    if (!s) return;
    close_readers(s);
    hudi_free(s->readers);
    hudi_free(s->reader_col);
    hudi_batch_free(s->batch);
    hudi_field_dispose(&s->schema);
    hudi_free(s->cols);
    hudi_free(s->rgs);
    hudi_free(s->preds);
    hudi_free(s->ranges);
    hudi_free(s->reader_pred);
    hudi_free(s->col_pred);
    hudi_free(s->keep);
    hudi_pq_codec_ctx_free(s->codec);
    hudi_free(s);
}

static int build_projection(hudi_pq_scan *s, hudi_error *err) {
    const pq_schema *ps = &s->f->schema;
    int32_t n_file_cols = ps->root.n_children;
    const hudi_pq_scan_options *o = &s->opts;
    s->n_cols = o->columns ? o->n_columns : n_file_cols;
    if (!(s->cols = hudi_calloc((size_t)s->n_cols + 1, sizeof(int32_t))))
        return hudi_error_oom(err);
    for (int32_t i = 0; i < s->n_cols; i++) {
        int32_t c = o->columns ? o->columns[i] : i;
        if (c < 0 || c >= n_file_cols)
            return hudi_error_set(err, HUDI_EINVAL, "%s: column index %d out of range", s->f->path,
                                  c);
        s->cols[i] = c;
    }
    int rc = hudi_field_init(&s->schema, ps->root.name ? ps->root.name : "schema", HUDI_TYPE_STRUCT,
                             false);
    if (rc == 0) rc = hudi_field_set_children(&s->schema, s->n_cols);
    for (int32_t i = 0; rc == 0 && i < s->n_cols; i++)
        rc = hudi_field_copy(&s->schema.children[i], &ps->root.children[s->cols[i]]);
    if (rc < 0) return hudi_error_oom(err);
    /* Readers: every leaf of every projected column. */
    int32_t n = 0;
    for (int32_t i = 0; i < s->n_cols; i++)
        n += ps->column_leaves[s->cols[i] + 1] - ps->column_leaves[s->cols[i]];
    s->readers = hudi_calloc((size_t)n + 1, sizeof(pq_colreader));
    s->reader_col = hudi_calloc((size_t)n + 1, sizeof(int32_t));
    if (!s->readers || !s->reader_col) return hudi_error_oom(err);
    s->n_readers = n; /* only now: hudi_pq_scan_free disposes n_readers readers */
    return hudi_batch_new(&s->batch, &s->schema, err);
}

/* Late materialisation applies when every predicate is on a projected flat column (anything
 * else keeps the eager path, which reports what it cannot filter). The batch column each
 * predicate is evaluated on is read first; every other reader follows the selection. */
static int plan_late(hudi_pq_scan *s, hudi_error *err) {
    const pq_schema *ps = &s->f->schema;
    bool filter = s->opts.filter_rows && s->opts.n_predicates > 0;
    if ((!filter && !s->opts.dynamic) || s->opts.eager_filter) return 0;
    s->col_pred = hudi_calloc(2 * (size_t)s->n_cols + 1, sizeof(bool)); /* then the others */
    s->reader_pred = hudi_calloc((size_t)s->n_readers + 1, sizeof(bool));
    if (!s->col_pred || !s->reader_pred) return hudi_error_oom(err);
    if (s->opts.dynamic) s->col_pred[s->dyn_col] = true;
    for (int32_t i = 0; filter && i < s->opts.n_predicates; i++) {
        int32_t c = s->opts.predicates[i].column, col = -1;
        for (int32_t k = 0; k < s->n_cols; k++)
            if (s->cols[k] == c) col = k; /* the last one, as hudi_pq_scan_select does */
        if (col < 0 || !hudi_pq_flat_leaf(ps, c)) return 0;
        s->col_pred[col] = true;
    }
    for (int32_t i = 0; i < s->n_cols; i++) s->col_pred[s->n_cols + i] = !s->col_pred[i];
    int32_t k = 0;
    for (int32_t i = 0; i < s->n_cols; i++) {
        int32_t c = s->cols[i];
        for (int32_t l = ps->column_leaves[c]; l < ps->column_leaves[c + 1]; l++, k++)
            s->reader_pred[k] = s->col_pred[i];
    }
    s->late = true;
    return 0;
}

int hudi_pq_scan_open(hudi_pq_scan **out, hudi_pq_file *f, const hudi_pq_scan_options *opts,
                      hudi_error *err) {
    hudi_pq_scan *s = hudi_calloc(1, sizeof(*s));
    int rc;
    *out = NULL;
    if (!s) return hudi_error_oom(err);
    s->f = f;
    s->opts = opts ? *opts : (hudi_pq_scan_options)HUDI_PQ_SCAN_OPTIONS_INIT;
    if (s->opts.batch_rows <= 0) s->opts.batch_rows = 65536;
    s->cur_rg = s->last_rg = -1;
    if ((rc = hudi_pq_codec_ctx_new(&s->codec, err)) < 0) goto fail;
    if ((rc = build_projection(s, err)) < 0) goto fail;
    if (s->opts.n_predicates > 0) {
        s->preds = hudi_calloc((size_t)s->opts.n_predicates, sizeof(*s->preds));
        if (!s->preds) {
            rc = hudi_error_oom(err);
            goto fail;
        }
        memcpy(s->preds, s->opts.predicates, (size_t)s->opts.n_predicates * sizeof(*s->preds));
        s->opts.predicates = s->preds;
        for (int32_t i = 0; i < s->opts.n_predicates; i++) {
            int32_t c = s->preds[i].column;
            if (c < 0 || c >= f->schema.root.n_children) {
                rc = hudi_error_set(err, HUDI_EINVAL, "%s: predicate column %d out of range",
                                    f->path, c);
                goto fail;
            }
        }
    }
    /* The dynamic filter needs its column projected and flat. */
    s->dyn_col = -1;
    for (int32_t k = 0; s->opts.dynamic && k < s->n_cols; k++)
        if (s->cols[k] == s->opts.dynamic_column) s->dyn_col = k;
    if (s->dyn_col < 0 || !hudi_pq_flat_leaf(&f->schema, s->opts.dynamic_column))
        s->opts.dynamic = NULL;
    if ((rc = plan_late(s, err)) < 0) goto fail;
    s->opts.columns = NULL; /* not owned; cols[] holds the projection */
    int32_t n_rg = s->opts.row_groups ? s->opts.n_row_groups : f->meta.n_row_groups;
    if (!(s->rgs = hudi_calloc((size_t)n_rg + 1, sizeof(int32_t)))) {
        rc = hudi_error_oom(err);
        goto fail;
    }
    for (int32_t i = 0; i < n_rg; i++) {
        int32_t r = s->opts.row_groups ? s->opts.row_groups[i] : i;
        if (r < 0 || r >= f->meta.n_row_groups) {
            rc = hudi_error_set(err, HUDI_EINVAL, "%s: row group %d out of range", f->path, r);
            goto fail;
        }
        s->stats.row_groups_total++;
        if (!hudi_pq_scan_keep_row_group(s, r)) {
            s->stats.row_groups_skipped++;
            continue;
        }
        s->rgs[s->n_rgs++] = r;
    }
    s->opts.row_groups = NULL;
    *out = s;
    return 0;
fail:
    hudi_pq_scan_free(s);
    return rc;
}

static int open_row_group(hudi_pq_scan *s, int32_t rg, hudi_error *err) {
    const pq_schema *ps = &s->f->schema;
    release_readers(s);
    s->cur_rg = rg;
    s->range_idx = 0;
    s->row_pos = 0;
    int rc = hudi_pq_scan_select_rows(s, rg, err);
    if (rc < 0 || s->n_ranges == 0) return rc; /* nothing to read in this row group */
    int32_t k = 0;
    for (int32_t i = 0; i < s->n_cols; i++) {
        int32_t c = s->cols[i];
        for (int32_t l = ps->column_leaves[c]; l < ps->column_leaves[c + 1]; l++, k++) {
            s->reader_col[k] = i;
            if ((rc = hudi_pq_colreader_init(&s->readers[k], s->f, rg, &ps->leaves[l], s->codec,
                                             err)) < 0)
                return rc;
        }
    }
    return 0;
}

/* Reads the next n rows of the row group late: the predicate columns first, then the others for
 * the selected rows only. The batch ends up exactly as the eager path leaves it after
 * filtering. A selection of short runs is cheaper read whole and compacted, like the eager
 * path does; otherwise each run of selected rows is appended and every gap skipped (whole pages
 * of flat columns are stepped over without decompression). */
static int read_late(hudi_pq_scan *s, int64_t n, int64_t *kept, hudi_error *err) {
    hudi_batch *b = s->batch;
    int rc;
    for (int32_t i = 0; i < s->n_readers; i++) {
        if (!s->reader_pred[i]) continue;
        if ((rc = hudi_pq_colreader_read(&s->readers[i], b->columns[s->reader_col[i]], n, err)) < 0)
            return rc;
    }
    if (n > s->keep_cap) {
        uint8_t *k = hudi_realloc(s->keep, (size_t)n);
        if (!k) return hudi_error_oom(err);
        s->keep = k;
        s->keep_cap = n;
    }
    const uint8_t *keep = s->keep;
    if ((rc = hudi_pq_scan_select(s, b, n, s->keep, kept, err)) < 0) return rc;
    int64_t runs = n > 0 ? keep[0] : 0; /* keep[] holds 0 or 1: count the rising edges */
    for (int64_t i = 1; i < n; i++) runs += keep[i] & (keep[i - 1] ^ 1);
    bool whole = *kept == n || runs * 32 > n; /* read everything, then compact if needed */
    if (*kept < n && (rc = hudi_pq_batch_compact(b, n, keep, s->col_pred, err)) < 0) return rc;
    for (int32_t i = 0; i < s->n_readers; i++) {
        pq_colreader *cr = &s->readers[i];
        hudi_array *a = b->columns[s->reader_col[i]];
        if (s->reader_pred[i]) continue;
        if (whole) {
            rc = hudi_pq_colreader_read(cr, a, n, err);
            s->stats.values_late_decoded += n;
        } else {
            int64_t pos = 0;
            for (int64_t r = 0; rc == 0 && r < n;) {
                if (!keep[r]) {
                    r++;
                    continue;
                }
                int64_t e = r;
                while (e < n && keep[e]) e++;
                rc = hudi_pq_colreader_skip(cr, r - pos, err);
                if (rc == 0) rc = hudi_pq_colreader_read(cr, a, e - r, err);
                s->stats.values_late_decoded += e - r;
                pos = r = e;
            }
            if (rc == 0) rc = hudi_pq_colreader_skip(cr, n - pos, err);
        }
        s->stats.pages_late_skipped += cr->pages_stepped;
        s->stats.values_late_decoded += cr->rows_trashed;
        cr->pages_stepped = cr->rows_trashed = 0;
        if (rc < 0) return rc;
    }
    if (whole && *kept < n) {
        rc = hudi_pq_batch_compact(b, n, keep, s->col_pred + s->n_cols, err);
    }
    return rc;
}

int hudi_pq_scan_next(hudi_pq_scan *s, hudi_batch **out, hudi_error *err) {
    int rc;
    *out = NULL;
    if (!s->batch && (rc = hudi_batch_new(&s->batch, &s->schema, err)) < 0) return rc;
    for (;;) {
        while (s->cur_rg < 0 || s->range_idx >= s->n_ranges) {
            if (s->rg_pos >= s->n_rgs) {
                finish_readers(s);
                close_readers(s);
                return 0;
            }
            int32_t rg = s->rgs[s->rg_pos++];
            if (s->opts.dynamic && !hudi_pq_dyn_keep_row_group(s, rg)) continue;
            if ((rc = open_row_group(s, rg, err)) < 0) return rc;
        }
        int64_t start = s->ranges[2 * s->range_idx], end = s->ranges[2 * s->range_idx + 1];
        if (s->row_pos < start) { /* a gap the page index ruled out */
            for (int32_t i = 0; i < s->n_readers; i++)
                if ((rc = hudi_pq_colreader_skip(&s->readers[i], start - s->row_pos, err)) < 0)
                    return rc;
            s->row_pos = start;
        }
        int64_t n = HUDI_MIN(s->opts.batch_rows, end - s->row_pos);
        int64_t first = s->row_pos;
        s->last_rg = -1;
        hudi_batch_clear(s->batch);
        int64_t kept = n;
        rc = 0;
        if (s->late) {
            rc = read_late(s, n, &kept, err);
        } else {
            for (int32_t i = 0; rc == 0 && i < s->n_readers; i++)
                rc = hudi_pq_colreader_read(&s->readers[i], s->batch->columns[s->reader_col[i]], n,
                                            err);
        }
        if (rc < 0) return rc;
        s->row_pos += n;
        if (s->row_pos == end) s->range_idx++;
        for (int32_t i = 0; i < s->n_readers; i++) {
            s->stats.bytes_decompressed += s->readers[i].bytes_decompressed;
            s->readers[i].bytes_decompressed = 0;
        }
        s->batch->num_rows = kept;
        s->stats.rows_read += n;
        if (!s->late && ((s->opts.filter_rows && s->opts.n_predicates > 0) || s->opts.dynamic)) {
            if ((rc = hudi_pq_scan_filter_batch(s, s->batch, err)) < 0) return rc;
        }
        if (s->batch->num_rows == 0) continue;
        if (s->batch->num_rows == n) {
            s->last_rg = s->cur_rg;
            s->last_first = first;
            s->last_rows = n;
        }
        s->stats.rows_returned += s->batch->num_rows;
        *out = s->batch;
        return 0;
    }
}

bool hudi_pq_scan_last_rows(const hudi_pq_scan *s, int32_t *rg, int64_t *first, int64_t *rows) {
    if (s->last_rg < 0) return false;
    *rg = s->last_rg;
    *first = s->last_first;
    *rows = s->last_rows;
    return true;
}

hudi_batch *hudi_pq_scan_take_batch(hudi_pq_scan *s) {
    hudi_batch *b = s->batch;
    s->batch = NULL;
    return b;
}

const hudi_field *hudi_pq_scan_schema(const hudi_pq_scan *s) { return &s->schema; }
const hudi_pq_scan_stats *hudi_pq_scan_get_stats(const hudi_pq_scan *s) { return &s->stats; }
