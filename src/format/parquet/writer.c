/* writer.c - the Parquet file writer: hudi_pq_writer_* (docs/formats/parquet.md §1.1,
 * §6.5-6.6, §7).
 *
 * File layout written:
 *   "PAR1"
 *   per row group, per leaf column: [dictionary page] data pages...
 *   every ColumnIndex (row group by row group, column by column), then every OffsetIndex,
 *   then the bloom filters (parquet-mr's placement), then FileMetaData, u32le length, "PAR1".
 *
 * Invariants: bytes reach storage only through the sink (large sequential writes) and the
 * file is published only by hudi_writer_close after the footer; any failure aborts the
 * storage writer, so a half-written file never appears under `path`. Columns hold at most
 * one row group of encoded pages (writer_column.c); the page indexes and blooms of finished
 * row groups are kept encoded until close (small: a few dozen bytes per page). */
#include <inttypes.h>
#include <stdio.h>

#include "base/pool.h"
#include "format/parquet/reader_int.h"
#include "format/parquet/writer_int.h"

#ifndef HUDI_GIT_SHA
#define HUDI_GIT_SHA "unknown"
#endif

#define HUDI_CREATED_BY "hudic version " HUDI_VERSION_STRING " (build " HUDI_GIT_SHA ")"

#define SINK_BUFFER_BYTES (1u << 20)   /* output is gathered into writes of about this size */
#define SINK_DIRECT_BYTES (256u << 10) /* pieces this large go to storage as they are */
#define SLICE_ROWS 65536               /* rows shredded at a time: bounds the per-column scratch */

struct hudi_pq_writer {
    hudi_fs *fs;
    char *path;
    hudi_writer *out;
    hudi_field schema; /* our copy of the caller's schema */
    hudi_arena arena;  /* schema elements, footer metadata, key/values */
    pq_schema_element *elems;
    int32_t n_elems;
    pq_schema ps; /* leaves and level plans of `elems` */
    pq_wctx cx;
    pq_wcol *cols;
    int32_t n_cols;

    hudi_buf obuf; /* pending output */
    int64_t pos;   /* file offset of the next byte */

    hudi_vec rgs;                       /* pq_row_group of the flushed row groups */
    int64_t rg_rows;                    /* rows in the open row group */
    int64_t num_rows;                   /* rows in flushed row groups */
    hudi_buf ci_all, oi_all, bloom_all; /* encoded indexes and blooms, offsets relative */
    hudi_vec kvs;                       /* pq_key_value, strings in arena */
    int failed;                         /* first error: the file can no longer be completed */

    /* hudi_pq_writer_set_pool: the columns of a slice of rows written as pool tasks, task k
     * with context xcx[k] (xcx[0] is cx's twin in use: &cx; the others own their scratch and
     * codec) over the columns whose task[] is k */
    hudi_pool *pool;
    pq_wctx **xcx;
    int32_t n_xcx;
    int32_t *task;

    /* hudi_pq_writer_write_copying: the open row group's columns whose copy_leaf[] is not -1
     * are that leaf's chunk in row group copy_rg of copy_src, taken as stored */
    const hudi_pq_file *copy_src;
    int32_t copy_rg;
    int32_t *copy_leaf;
    hudi_buf copy_buf; /* chunk bytes on their way through; the source's page index */
};

/* ---- output --------------------------------------------------------------------------------- */

static int sink_flush(hudi_pq_writer *w, hudi_error *err) {
    if (w->obuf.len == 0) return 0;
    int rc = hudi_writer_write(w->out, w->obuf.data, w->obuf.len, err);
    hudi_buf_clear(&w->obuf);
    return rc;
}

static int sink(hudi_pq_writer *w, const void *p, size_t n, hudi_error *err) {
    if (n == 0) return 0;
    int rc;
    if (n >= SINK_DIRECT_BYTES) {
        if ((rc = sink_flush(w, err)) < 0) return rc;
        if ((rc = hudi_writer_write(w->out, p, n, err)) < 0) return rc;
    } else {
        hudi_buf_append(&w->obuf, p, n);
        if (hudi_buf_failed(&w->obuf)) return hudi_error_oom(err);
        if (w->obuf.len >= SINK_BUFFER_BYTES && (rc = sink_flush(w, err)) < 0) return rc;
    }
    w->pos += (int64_t)n;
    return 0;
}

/* ---- options and schema ------------------------------------------------------------------------
 */

static int resolve_options(hudi_pq_write_options *o, const hudi_pq_write_options *in,
                           hudi_error *err) {
    hudi_pq_write_options def = HUDI_PQ_WRITE_OPTIONS_INIT;
    *o = in ? *in : def;
    if (o->version != HUDI_PQ_WRITE_OPTIONS_VERSION)
        return hudi_error_set(err, HUDI_EINVAL, "parquet write options: unknown version %d",
                              o->version);
    switch (o->codec) {
    case PQ_CODEC_UNCOMPRESSED:
    case PQ_CODEC_SNAPPY:
    case PQ_CODEC_GZIP:
    case PQ_CODEC_ZSTD:
    case PQ_CODEC_LZ4_RAW:
    case PQ_CODEC_LZ4:    /* Hadoop framing (codec.c); deprecated, readers prefer LZ4_RAW */
    case PQ_CODEC_BROTLI: /* only on request: parquet-mr needs an extra Hadoop codec for it */
        break;
    default:
        return hudi_error_set(err, HUDI_EUNSUPPORTED, "parquet writer: codec %s not supported",
                              hudi_pq_codec_name(o->codec));
    }
    if (o->dictionary_page_bytes <= 0) o->dictionary_page_bytes = def.dictionary_page_bytes;
    if (o->page_bytes <= 0) o->page_bytes = def.page_bytes;
    if (o->page_rows <= 0) o->page_rows = def.page_rows;
    if (o->page_rows > INT32_MAX) o->page_rows = INT32_MAX;
    if (o->row_group_bytes <= 0) o->row_group_bytes = def.row_group_bytes;
    if (o->row_group_rows < 0) o->row_group_rows = 0;
    if (o->stats_truncate_bytes < 0) o->stats_truncate_bytes = def.stats_truncate_bytes;
    if (!(o->bloom_fpp > 0 && o->bloom_fpp < 1)) o->bloom_fpp = def.bloom_fpp;
    if (o->n_bloom_filter_columns < 0 ||
        (o->n_bloom_filter_columns > 0 && !o->bloom_filter_columns))
        return hudi_error_set(err, HUDI_EINVAL, "parquet write options: bad bloom filter columns");
    if (o->n_column_encodings < 0 || (o->n_column_encodings > 0 && !o->column_encodings))
        return hudi_error_set(err, HUDI_EINVAL, "parquet write options: bad column encodings");
    for (int32_t i = 0; i < o->n_column_encodings; i++)
        if (!o->column_encodings[i].column)
            return hudi_error_set(err, HUDI_EINVAL,
                                  "parquet write options: column encoding %d has no column", i);
    return 0;
}

static bool wants_bloom(const hudi_pq_write_options *o, const char *name) {
    for (int32_t i = 0; i < o->n_bloom_filter_columns; i++)
        if (o->bloom_filter_columns[i] && strcmp(o->bloom_filter_columns[i], name) == 0)
            return true;
    return false;
}

/* The leaf's field in the writer's own schema: the array children mirror the field children,
 * so the level plan's child indices walk both. */
static const hudi_field *leaf_field(const hudi_field *root, const pq_leaf *leaf) {
    const hudi_field *f = &root->children[leaf->column];
    for (int32_t i = 0; i + 1 < leaf->depth; i++) f = &f->children[leaf->levels[i].child];
    return f;
}

/* Length of the leaf path component prefix that `name` names ("a.b" names a.b.c but not a.bc),
 * or 0 when it names none. */
static size_t path_match(const pq_leaf *leaf, const char *name) {
    size_t at = 0, n = strlen(name);
    for (int32_t i = 0; i < leaf->path_len; i++) {
        hudi_slice p = leaf->path[i];
        if (i > 0) {
            if (at >= n || name[at] != '.') return 0;
            at++;
        }
        if (n - at < p.len || memcmp(name + at, p.data, p.len) != 0) return 0;
        at += p.len;
        if (at == n) return n;
    }
    return 0;
}

/* The encoding chosen for `leaf`: the longest matching entry (the last of equals), or -1. */
static int32_t leaf_encoding(const hudi_pq_write_options *o, const pq_leaf *leaf) {
    int32_t enc = -1;
    size_t best = 0;
    for (int32_t i = 0; i < o->n_column_encodings; i++) {
        size_t m = path_match(leaf, o->column_encodings[i].column);
        if (m > 0 && m >= best) best = m, enc = o->column_encodings[i].encoding;
    }
    return enc;
}

static int check_encoding_columns(hudi_pq_writer *w, hudi_error *err) {
    const hudi_pq_write_options *o = &w->cx.o;
    for (int32_t i = 0; i < o->n_column_encodings; i++) {
        const char *nm = o->column_encodings[i].column;
        bool found = false;
        for (int32_t l = 0; l < w->ps.n_leaves && !found; l++)
            found = path_match(&w->ps.leaves[l], nm) > 0;
        if (!found)
            return hudi_error_set(err, HUDI_EINVAL,
                                  "%s: encoding column %s names no column of the schema", w->path,
                                  nm);
    }
    return 0;
}

static int setup_columns(hudi_pq_writer *w, hudi_error *err) {
    const hudi_pq_write_options *o = &w->cx.o;
    for (int32_t i = 0; i < o->n_bloom_filter_columns; i++) {
        const char *nm = o->bloom_filter_columns[i];
        bool found = false;
        for (int32_t c = 0; nm && c < w->schema.n_children; c++)
            found |= strcmp(w->schema.children[c].name, nm) == 0;
        if (!found)
            return hudi_error_set(err, HUDI_EINVAL, "%s: bloom filter column %s not in schema",
                                  w->path, nm ? nm : "(null)");
    }
    int rc = check_encoding_columns(w, err);
    if (rc < 0) return rc;
    w->cols = hudi_calloc((size_t)(w->ps.n_leaves ? w->ps.n_leaves : 1), sizeof(pq_wcol));
    if (!w->cols) return hudi_error_oom(err);
    for (int32_t i = 0; i < w->ps.n_leaves; i++) {
        const pq_leaf *lf = &w->ps.leaves[i];
        const hudi_field *top = &w->schema.children[lf->column];
        rc = hudi_pq_wcol_init(&w->cols[i], &w->cx, lf, leaf_field(&w->schema, lf),
                               wants_bloom(o, top->name), leaf_encoding(o, lf), err);
        if (rc < 0) {
            hudi_error_wrap(err, "%s", w->path);
            return rc;
        }
        w->n_cols = i + 1;
    }
    return 0;
}

static void wctx_dispose(pq_wctx *cx) {
    hudi_pq_codec_ctx_free(cx->codec);
    hudi_buf_dispose(&cx->page);
    hudi_buf_dispose(&cx->comp);
    hudi_buf_dispose(&cx->lv);
    hudi_buf_dispose(&cx->hdr);
    hudi_free(cx->dense);
    hudi_free(cx->offs);
    hudi_free(cx->data);
    hudi_free(cx->hashes);
}

static void writer_free(hudi_pq_writer *w) {
    if (!w) return;
    for (int32_t k = 1; k < w->n_xcx; k++) {
        wctx_dispose(w->xcx[k]);
        hudi_free(w->xcx[k]);
    }
    hudi_free(w->xcx);
    hudi_free(w->task);
    hudi_free(w->copy_leaf);
    hudi_buf_dispose(&w->copy_buf);
    for (int32_t i = 0; i < w->n_cols; i++) hudi_pq_wcol_dispose(&w->cols[i]);
    hudi_free(w->cols);
    hudi_pq_schema_dispose(&w->ps);
    hudi_field_dispose(&w->schema);
    wctx_dispose(&w->cx);
    hudi_buf_dispose(&w->obuf);
    hudi_vec_dispose(&w->rgs);
    hudi_vec_dispose(&w->kvs);
    hudi_buf_dispose(&w->ci_all);
    hudi_buf_dispose(&w->oi_all);
    hudi_buf_dispose(&w->bloom_all);
    hudi_arena_dispose(&w->arena);
    hudi_free(w->path);
    hudi_free(w);
}

int hudi_pq_writer_open(hudi_pq_writer **out, hudi_fs *fs, const char *path,
                        const hudi_field *schema, const hudi_pq_write_options *opts,
                        hudi_error *err) {
    *out = NULL;
    if (!fs || !path || !schema || schema->type != HUDI_TYPE_STRUCT)
        return hudi_error_set(err, HUDI_EINVAL,
                              "parquet writer: need a file system, a path and "
                              "a STRUCT schema");
    hudi_pq_writer *w = hudi_calloc(1, sizeof(*w));
    if (!w) return hudi_error_oom(err);
    w->rgs = (hudi_vec)HUDI_VEC_INIT(pq_row_group);
    w->kvs = (hudi_vec)HUDI_VEC_INIT(pq_key_value);
    w->fs = fs;
    int rc;
    if (!(w->path = hudi_strdup(path))) {
        rc = hudi_error_oom(err);
        goto fail;
    }
    if ((rc = resolve_options(&w->cx.o, opts, err)) < 0) {
        hudi_error_wrap(err, "%s", path);
        goto fail;
    }
    if (hudi_field_copy(&w->schema, schema) < 0) {
        rc = hudi_error_oom(err);
        goto fail;
    }
    pq_schema_write_options so = PQ_SCHEMA_WRITE_OPTIONS_INIT;
    so.two_level_lists = w->cx.o.legacy_list_format;
    so.decimal_as_flba = w->cx.o.decimal_as_fixed;
    if ((rc = hudi_pq_schema_write(&w->elems, &w->n_elems, &w->arena, &w->schema, &so, err)) < 0 ||
        (rc = hudi_pq_schema_read(&w->ps, w->elems, w->n_elems, NULL, err)) < 0) {
        hudi_error_wrap(err, "%s", path);
        goto fail;
    }
    if ((rc = hudi_pq_codec_ctx_new(&w->cx.codec, err)) < 0) goto fail;
    if ((rc = setup_columns(w, err)) < 0) goto fail;
    if ((rc = hudi_fs_create(fs, path, HUDI_CREATE_OVERWRITE, &w->out, err)) < 0) goto fail;
    if ((rc = sink(w, "PAR1", 4, err)) < 0) goto fail;
    *out = w;
    return 0;
fail:
    hudi_writer_abort(w->out);
    writer_free(w);
    return rc;
}

int hudi_pq_writer_add_kv(hudi_pq_writer *w, const char *key, const char *value, hudi_error *err) {
    if (!w || !key)
        return hudi_error_set(err, HUDI_EINVAL, "parquet writer: key/value needs a key");
    char *k = hudi_arena_strdup(&w->arena, key);
    char *v = value ? hudi_arena_strdup(&w->arena, value) : NULL;
    if (!k || (value && !v)) return hudi_error_oom(err);
    pq_key_value *kv = NULL;
    for (size_t i = 0; i < w->kvs.len; i++) {
        pq_key_value *e = &hudi_vec_at(&w->kvs, pq_key_value, i);
        if (hudi_slice_eq(e->key, hudi_slice_cstr(key))) kv = e; /* a later add replaces */
    }
    if (!kv && !(kv = hudi_vec_push(&w->kvs))) return hudi_error_oom(err);
    kv->key = hudi_slice_cstr(k);
    kv->has_value = value != NULL;
    kv->value = v ? hudi_slice_cstr(v) : HUDI_SLICE(NULL, 0);
    return 0;
}

/* ---- batches ------------------------------------------------------------------------------------
 */

/* Same shape: types, children, and everything that changes the stored bytes. */
static int check_shape(const hudi_field *want, const hudi_field *got, const char *path,
                       hudi_error *err) {
    bool same = want->type == got->type && want->n_children == got->n_children;
    if (same && want->type == HUDI_TYPE_FIXED_BINARY) same = want->byte_width == got->byte_width;
    if (same && want->type == HUDI_TYPE_DECIMAL)
        same = want->precision == got->precision && want->scale == got->scale;
    if (same && (want->type == HUDI_TYPE_TIME || want->type == HUDI_TYPE_TIMESTAMP))
        same = want->unit == got->unit;
    if (!same) {
        hudi_buf a = HUDI_BUF_INIT, b = HUDI_BUF_INIT;
        hudi_field_describe(&a, want);
        hudi_field_describe(&b, got);
        int rc = hudi_error_set(err, HUDI_EINVAL, "column %s: batch has %s, writer expects %s",
                                path, b.data ? b.data : "?", a.data ? a.data : "?");
        hudi_buf_dispose(&a);
        hudi_buf_dispose(&b);
        return rc;
    }
    for (int32_t i = 0; i < want->n_children; i++) {
        char sub[512];
        snprintf(sub, sizeof(sub), "%s.%s", path, want->children[i].name);
        int rc = check_shape(&want->children[i], &got->children[i], sub, err);
        if (rc < 0) return rc;
    }
    return 0;
}

static int check_batch(hudi_pq_writer *w, const hudi_batch *b, hudi_error *err) {
    const hudi_field *s = &w->schema;
    if (!b->schema || b->n_columns != s->n_children || b->schema->n_children != s->n_children)
        return hudi_error_set(err, HUDI_EINVAL, "%s: batch has %d columns, writer expects %d",
                              w->path, (int)b->n_columns, (int)s->n_children);
    for (int32_t i = 0; i < s->n_children; i++) {
        int rc = check_shape(&s->children[i], &b->schema->children[i], s->children[i].name, err);
        if (rc < 0) return rc;
        const hudi_array *a = b->columns[i];
        if (!a || a->length != b->num_rows)
            return hudi_error_set(err, HUDI_EINVAL, "column %s: %lld rows in a batch of %lld",
                                  s->children[i].name, a ? (long long)a->length : 0LL,
                                  (long long)b->num_rows);
        if (!s->children[i].nullable && a->null_count > 0)
            return hudi_error_set(err, HUDI_EINVAL, "column %s: not nullable but holds nulls",
                                  s->children[i].name);
    }
    return 0;
}

/* Whether column i of the open row group is copied (hudi_pq_writer_write_copying). */
static bool copied(const hudi_pq_writer *w, int32_t i) {
    return w->copy_src && w->copy_leaf[i] >= 0;
}

static int64_t buffered_bytes(const hudi_pq_writer *w) {
    int64_t n = 0;
    for (int32_t i = 0; i < w->n_cols; i++) n += hudi_pq_wcol_buffered(&w->cols[i]);
    return n;
}

static hudi_slice arena_slice(hudi_arena *a, hudi_slice s, bool *oom) {
    if (s.len == 0) return HUDI_SLICE("", 0);
    uint8_t *p = hudi_arena_alloc(a, s.len);
    if (!p) {
        *oom = true;
        return HUDI_SLICE("", 0);
    }
    memcpy(p, s.data, s.len);
    return HUDI_SLICE(p, s.len);
}

/* Fills the chunk's ColumnMetaData (everything but offsets into the index areas). */
static void add_encoding(pq_column_meta *m, int32_t enc) {
    for (int32_t i = 0; i < m->n_encodings; i++)
        if (m->encodings[i] == enc) return;
    m->encodings[m->n_encodings++] = enc;
}

/* Fills the chunk's ColumnMetaData (everything but offsets into the index areas). */
static int chunk_meta(hudi_pq_writer *w, pq_wcol *c, pq_column_meta *m, int64_t chunk_start,
                      int64_t data_start, hudi_error *err) {
    const hudi_pq_write_options *o = &w->cx.o;
    bool has_dict = c->dict_page.len > 0, v2 = o->data_page_v2;
    m->type = c->leaf->physical_type;
    m->encodings = hudi_arena_alloc(&w->arena, 4 * sizeof(int32_t));
    m->encoding_stats = hudi_arena_alloc(&w->arena, 3 * sizeof(pq_page_encoding_stats));
    if (!m->encodings || !m->encoding_stats) return hudi_error_oom(err);
    /* every encoding used by a page of the chunk: values, dictionary page, levels */
    if (has_dict) add_encoding(m, PQ_ENC_PLAIN);
    if (c->n_enc_pages > 0) add_encoding(m, c->enc);
    if (c->leaf->max_def > 0 || c->leaf->max_rep > 0) add_encoding(m, PQ_ENC_RLE);
    if (c->n_dict_pages > 0) add_encoding(m, PQ_ENC_RLE_DICTIONARY);
    int32_t dpt = v2 ? PQ_PAGE_DATA_V2 : PQ_PAGE_DATA;
    if (has_dict)
        m->encoding_stats[m->n_encoding_stats++] =
            (pq_page_encoding_stats){PQ_PAGE_DICTIONARY, PQ_ENC_PLAIN, 1};
    if (c->n_dict_pages > 0)
        m->encoding_stats[m->n_encoding_stats++] =
            (pq_page_encoding_stats){dpt, PQ_ENC_RLE_DICTIONARY, c->n_dict_pages};
    if (c->n_enc_pages > 0)
        m->encoding_stats[m->n_encoding_stats++] =
            (pq_page_encoding_stats){dpt, c->enc, c->n_enc_pages};
    m->n_path = c->leaf->path_len;
    m->path_in_schema = c->leaf->path; /* names live in w->arena with the schema elements */
    m->codec = o->codec;
    m->num_values = c->num_values;
    m->total_uncompressed_size = c->uncompressed;
    m->total_compressed_size = (int64_t)c->dict_page.len + pq_wcol_chunk_len(c);
    m->data_page_offset = data_start;
    m->has_dictionary_page_offset = has_dict;
    m->dictionary_page_offset = has_dict ? chunk_start : 0;
    if (o->write_statistics) {
        pq_statistics st;
        int rc = hudi_pq_wcol_statistics(c, &st, err);
        if (rc < 0) return rc;
        bool oom = false;
        st.min = arena_slice(&w->arena, st.min, &oom);
        st.max = arena_slice(&w->arena, st.max, &oom);
        st.min_value = arena_slice(&w->arena, st.min_value, &oom);
        st.max_value = arena_slice(&w->arena, st.max_value, &oom);
        if (oom) return hudi_error_oom(err);
        m->has_statistics = true;
        m->statistics = st;
    }
    return 0;
}

/* ---- copied column chunks ------------------------------------------------------------------ */

static bool same_logical_type(const pq_logical_type *a, const pq_logical_type *b) {
    return a->kind == b->kind && a->scale == b->scale && a->precision == b->precision &&
           a->is_adjusted_to_utc == b->is_adjusted_to_utc && a->unit == b->unit &&
           a->bit_width == b->bit_width && a->is_signed == b->is_signed;
}

/* Whether the chunks of `src` can be taken as they are into a file hudic labels as its own: the
 * reader trusts a hudic file's deprecated statistics and applies none of the fixes it keys on
 * other writers' names and versions (stats.c, reader_column.c), so only files whose chunks
 * need none are copied from: hudic's own, and parquet-mr 1.10 or later (Spark's Hudi; earlier
 * parquet-mr ordered binary statistics as signed bytes). The leaf's column order must be
 * TYPE_ORDER, the order hudic declares for every column. */
static bool trusted_source(const hudi_pq_file *f, int32_t leaf) {
    const pq_file_meta *m = &f->meta;
    if (!m->has_created_by) return false;
    if (leaf < 0 || m->n_column_orders <= leaf || m->column_orders[leaf] != PQ_ORDER_TYPE)
        return false;
    char by[64];
    size_t n = HUDI_MIN(m->created_by.len, sizeof(by) - 1);
    memcpy(by, m->created_by.data, n);
    by[n] = 0;
    if (strncmp(by, "hudic version ", 14) == 0) return true;
    int major = 0, minor = 0;
    if (sscanf(by, "parquet-mr version %d.%d", &major, &minor) != 2) return false;
    return major > 1 || (major == 1 && minor >= 10);
}

/* The leaf of `src` that the writer's top-level column `col` can be copied from in row group
 * `rg` (hudi_pq_writer_can_copy), or -1. */
static int32_t copy_source(const hudi_pq_writer *w, int32_t col, const hudi_pq_file *src,
                           int32_t rg) {
    if (!src || rg < 0 || rg >= src->meta.n_row_groups || col < 0 || col >= w->schema.n_children)
        return -1;
    int32_t wi = -1;
    for (int32_t i = 0; i < w->n_cols; i++) {
        if (w->cols[i].leaf->column != col) continue;
        if (wi >= 0) return -1; /* nested: more than one leaf */
        wi = i;
    }
    if (wi < 0) return -1;
    const pq_wcol *c = &w->cols[wi];
    const pq_schema_element *we = c->leaf->element;
    if (c->leaf->path_len != 1 || c->leaf->depth != 1 || c->want_bloom) return -1;
    const pq_row_group *g = &src->meta.row_groups[rg];
    for (int32_t j = 0; j < src->schema.n_leaves && j < g->n_columns; j++) {
        const pq_leaf *l = &src->schema.leaves[j];
        if (l->path_len != 1 || l->depth != 1 || !hudi_slice_eq(l->path[0], c->leaf->path[0]))
            continue;
        const pq_schema_element *se = l->element;
        const pq_column_chunk *cc = &g->columns[j];
        const pq_column_meta *m = &cc->meta_data;
        bool same_type =
            se->has_type == we->has_type && se->type == we->type &&
            se->has_type_length == we->has_type_length &&
            (!we->has_type_length || se->type_length == we->type_length) &&
            se->has_repetition == we->has_repetition && se->repetition == we->repetition &&
            se->has_converted_type == we->has_converted_type &&
            (!we->has_converted_type || se->converted_type == we->converted_type) &&
            se->has_scale == we->has_scale && (!we->has_scale || se->scale == we->scale) &&
            se->has_precision == we->has_precision &&
            (!we->has_precision || se->precision == we->precision) &&
            se->has_logical_type == we->has_logical_type &&
            (!we->has_logical_type || same_logical_type(&se->logical_type, &we->logical_type));
        bool plain_chunk = cc->has_meta_data && !cc->has_file_path && !cc->has_crypto_metadata &&
                           !cc->has_encrypted_column_metadata && m->codec == w->cx.o.codec &&
                           m->type == c->leaf->physical_type && m->total_compressed_size > 0;
        return same_type && plain_chunk && trusted_source(src, j) ? j : -1;
    }
    return -1;
}

bool hudi_pq_writer_can_copy(const hudi_pq_writer *w, int32_t col, const hudi_pq_file *src,
                             int32_t rg) {
    return w && copy_source(w, col, src, rg) >= 0;
}

/* The extent of a source chunk: total_compressed_size bytes from its dictionary page when the
 * metadata places one before the data pages (*dict), else from its first data page. false when
 * that extent is not inside the file's data, before the footer. */
static bool source_extent(const hudi_pq_file *f, const pq_column_meta *m, int64_t *start,
                          bool *dict) {
    *dict = m->has_dictionary_page_offset && m->dictionary_page_offset >= 4 &&
            m->dictionary_page_offset < m->data_page_offset;
    *start = *dict ? m->dictionary_page_offset : m->data_page_offset;
    return *start >= 4 && m->total_compressed_size > 0 &&
           *start <= f->footer_start - m->total_compressed_size;
}

/* Whether the chunk of leaf `leaf` in row group `rg` of `f` is exactly its metadata says: page
 * headers that decode, one after the other from the chunk's start, a dictionary page only
 * first, pages that end exactly at start + total_compressed_size, and data pages that hold
 * num_values values in all. A chunk that is not (PARQUET-816: old parquet-mr left the
 * dictionary page header out of the size; any writer's bad offsets; a first data page
 * elsewhere than data_page_offset says) is encoded instead of
 * copied, so a copy never cuts a page or takes a neighbour's bytes. Reads each header
 * (a window of up to 16 KiB) from storage. */
static int chunk_tiles(hudi_pq_writer *w, const hudi_pq_file *f, int32_t rg, int32_t leaf, bool *ok,
                       hudi_error *err) {
    enum { WINDOW = 16 << 10 };
    const pq_column_meta *m = &f->meta.row_groups[rg].columns[leaf].meta_data;
    int64_t start;
    bool dict, first_data = false;
    *ok = false;
    if (!source_extent(f, m, &start, &dict)) return 0;
    int64_t end = start + m->total_compressed_size, values = 0;
    hudi_buf_clear(&w->copy_buf);
    if (hudi_buf_grow(&w->copy_buf, WINDOW) < 0) return hudi_error_oom(err);
    for (int64_t pos = start, n = 0; pos < end; n++) {
        size_t len = (size_t)HUDI_MIN((int64_t)WINDOW, end - pos);
        int rc = hudi_file_read_at(f->file, pos, w->copy_buf.data, len, err);
        if (rc < 0) return rc;
        hudi_arena a = HUDI_ARENA_INIT;
        hudi_error e = HUDI_ERROR_INIT;
        pq_page_header h;
        size_t used = 0;
        bool good =
            hudi_pq_decode_page_header(&h, &a, HUDI_SLICE(w->copy_buf.data, len), &used, &e) == 0 &&
            h.compressed_page_size >= 0 &&
            (h.type != PQ_PAGE_DICTIONARY || (n == 0 && pos == m->dictionary_page_offset));
        hudi_arena_dispose(&a);
        if (!good) return 0;
        bool data = h.type == PQ_PAGE_DATA || h.type == PQ_PAGE_DATA_V2;
        if (data && values == 0 && !first_data) {
            if (pos != m->data_page_offset) return 0; /* the metadata's first data page */
            first_data = true;
        }
        if (h.type == PQ_PAGE_DATA && h.has_data_page_header)
            values += h.data_page_header.num_values;
        if (h.type == PQ_PAGE_DATA_V2 && h.has_data_page_header_v2)
            values += h.data_page_header_v2.num_values;
        if ((int64_t)used + h.compressed_page_size > end - pos) return 0;
        pos += (int64_t)used + h.compressed_page_size;
        if (pos == end) *ok = values == m->num_values;
    }
    return 0;
}

/* Copies n bytes of the source file at `off` to the output. */
static int copy_bytes(hudi_pq_writer *w, int64_t off, int64_t n, hudi_error *err) {
    enum { PIECE = 4 << 20 };
    while (n > 0) {
        size_t len = (size_t)HUDI_MIN(n, (int64_t)PIECE);
        hudi_buf_clear(&w->copy_buf);
        if (hudi_buf_grow(&w->copy_buf, len) < 0) return hudi_error_oom(err);
        int rc = hudi_file_read_at(w->copy_src->file, off, w->copy_buf.data, len, err);
        if (rc == 0) rc = sink(w, w->copy_buf.data, len, err);
        if (rc < 0) return rc;
        off += (int64_t)len;
        n -= (int64_t)len;
    }
    return 0;
}

/* The source chunk's page index, moved by `shift` bytes, appended to the writer's (cc's
 * offsets relative until close, as flush_row_group leaves them). An index that does not read,
 * does not decode, or points outside the chunk [start, end) is left out: a reader then reads
 * every page, where a wrong index would skip rows. */
static int copy_page_index(hudi_pq_writer *w, const pq_column_chunk *sc, int64_t start, int64_t end,
                           int64_t shift, pq_column_chunk *cc, hudi_error *err) {
    const hudi_pq_file *f = w->copy_src;
    if (!w->cx.o.write_page_index || !sc->has_offset_index) return 0;
    int64_t limit = f->footer_start;
    if (sc->offset_index_offset < 4 || sc->offset_index_length <= 0 ||
        sc->offset_index_offset > limit - sc->offset_index_length)
        return 0;
    hudi_arena a = HUDI_ARENA_INIT;
    hudi_error e = HUDI_ERROR_INIT;
    pq_offset_index oi;
    size_t len = (size_t)sc->offset_index_length;
    hudi_buf_clear(&w->copy_buf);
    if (hudi_buf_grow(&w->copy_buf, len) < 0) return hudi_error_oom(err);
    int rc = hudi_file_read_at(f->file, sc->offset_index_offset, w->copy_buf.data, len, err);
    if (rc < 0) return rc;
    if (hudi_pq_decode_offset_index(&oi, &a, HUDI_SLICE(w->copy_buf.data, len), &e) < 0) {
        hudi_arena_dispose(&a);
        return 0;
    }
    for (int32_t p = 0; p < oi.n_page_locations; p++) {
        pq_page_location *pl = &oi.page_locations[p];
        if (pl->offset < start || pl->compressed_page_size <= 0 ||
            pl->offset > end - pl->compressed_page_size) {
            hudi_arena_dispose(&a);
            return 0;
        }
        pl->offset += shift;
    }
    size_t oi0 = w->oi_all.len, ci0 = w->ci_all.len;
    rc = hudi_pq_encode_offset_index(&w->oi_all, &oi, err);
    hudi_arena_dispose(&a);
    if (rc < 0) return rc;
    cc->has_offset_index = true;
    cc->offset_index_offset = (int64_t)oi0;
    cc->offset_index_length = (int32_t)(w->oi_all.len - oi0);
    /* The ColumnIndex holds no offsets: its bytes as they are, when they decode. */
    if (!w->cx.o.write_statistics || !sc->has_column_index || sc->column_index_length <= 0 ||
        sc->column_index_offset < 4 || sc->column_index_offset > limit - sc->column_index_length)
        return 0;
    len = (size_t)sc->column_index_length;
    hudi_buf_clear(&w->copy_buf);
    if (hudi_buf_grow(&w->copy_buf, len) < 0) return hudi_error_oom(err);
    if ((rc = hudi_file_read_at(f->file, sc->column_index_offset, w->copy_buf.data, len, err)) < 0)
        return rc;
    pq_column_index ci;
    bool ok = hudi_pq_decode_column_index(&ci, &a, HUDI_SLICE(w->copy_buf.data, len), &e) == 0 &&
              ci.n_pages == oi.n_page_locations;
    hudi_arena_dispose(&a);
    if (!ok) return 0;
    hudi_buf_append(&w->ci_all, w->copy_buf.data, len);
    if (hudi_buf_failed(&w->ci_all)) return hudi_error_oom(err);
    cc->has_column_index = true;
    cc->column_index_offset = (int64_t)ci0;
    cc->column_index_length = (int32_t)len;
    return 0;
}

/* Column i of the row group being flushed, copied from the source chunk into cc: its bytes
 * (dictionary and data pages, headers and CRCs as they are), its metadata with the offsets
 * moved, its page index. */
static int copy_chunk(hudi_pq_writer *w, int32_t i, pq_column_chunk *cc, hudi_error *err) {
    const hudi_pq_file *f = w->copy_src;
    const pq_column_chunk *sc = &f->meta.row_groups[w->copy_rg].columns[w->copy_leaf[i]];
    const pq_column_meta *sm = &sc->meta_data;
    int64_t start, len = sm->total_compressed_size;
    bool dict;
    if (!source_extent(f, sm, &start, &dict) || sm->data_page_offset >= start + len)
        return hudi_error_set(err, HUDI_ECORRUPT, "%s: column %.*s: chunk outside the file",
                              f->path, (int)w->cols[i].leaf->path[0].len,
                              (const char *)w->cols[i].leaf->path[0].data);
    int64_t shift = w->pos - start;
    int rc = copy_bytes(w, start, len, err);
    if (rc < 0) return rc;
    memset(cc, 0, sizeof(*cc));
    cc->has_meta_data = true;
    pq_column_meta *m = &cc->meta_data;
    m->type = sm->type;
    m->n_encodings = sm->n_encodings;
    m->encodings = hudi_arena_alloc(&w->arena, (size_t)(sm->n_encodings + 1) * sizeof(int32_t));
    m->n_encoding_stats = sm->n_encoding_stats;
    m->encoding_stats =
        hudi_arena_alloc(&w->arena, (size_t)(sm->n_encoding_stats > 0 ? sm->n_encoding_stats : 1) *
                                        sizeof(pq_page_encoding_stats));
    if (!m->encodings || !m->encoding_stats) return hudi_error_oom(err);
    if (sm->n_encodings > 0)
        memcpy(m->encodings, sm->encodings, (size_t)sm->n_encodings * sizeof(int32_t));
    if (sm->n_encoding_stats > 0)
        memcpy(m->encoding_stats, sm->encoding_stats,
               (size_t)sm->n_encoding_stats * sizeof(pq_page_encoding_stats));
    m->n_path = w->cols[i].leaf->path_len;
    m->path_in_schema = w->cols[i].leaf->path;
    m->codec = sm->codec;
    m->num_values = sm->num_values;
    m->total_uncompressed_size = sm->total_uncompressed_size;
    m->total_compressed_size = len;
    m->data_page_offset = sm->data_page_offset + shift;
    m->has_dictionary_page_offset = dict;
    m->dictionary_page_offset = dict ? start + shift : 0;
    if (w->cx.o.write_statistics && sm->has_statistics) {
        bool oom = false;
        m->has_statistics = true;
        m->statistics = sm->statistics;
        pq_statistics *st = &m->statistics;
        st->min = arena_slice(&w->arena, st->min, &oom);
        st->max = arena_slice(&w->arena, st->max, &oom);
        st->min_value = arena_slice(&w->arena, st->min_value, &oom);
        st->max_value = arena_slice(&w->arena, st->max_value, &oom);
        if (oom) return hudi_error_oom(err);
    }
    return copy_page_index(w, sc, start, start + len, shift, cc, err);
}

static int flush_row_group(hudi_pq_writer *w, hudi_error *err) {
    const hudi_pq_write_options *o = &w->cx.o;
    size_t ordinal = w->rgs.len;
    pq_column_chunk *cols =
        hudi_arena_alloc(&w->arena, (size_t)(w->n_cols ? w->n_cols : 1) * sizeof(pq_column_chunk));
    if (!cols) return hudi_error_oom(err);
    int64_t total_u = 0, total_c = 0, first = w->pos;
    int rc;
    for (int32_t i = 0; i < w->n_cols; i++) {
        pq_wcol *c = &w->cols[i];
        if (copied(w, i)) {
            if ((rc = copy_chunk(w, i, &cols[i], err)) < 0) return rc;
            total_u += cols[i].meta_data.total_uncompressed_size;
            total_c += cols[i].meta_data.total_compressed_size;
            continue;
        }
        if ((rc = hudi_pq_wcol_finish(&w->cx, c, err)) < 0) return rc;
        int64_t chunk_start = w->pos;
        if ((rc = sink(w, c->dict_page.data, c->dict_page.len, err)) < 0) return rc;
        int64_t data_start = w->pos;
        for (size_t b = 0; b < c->chunk.len; b++) {
            pq_wblock blk = hudi_vec_at(&c->chunk, pq_wblock, b);
            if ((rc = sink(w, blk.data, blk.len, err)) < 0) return rc;
        }
        pq_column_chunk *cc = &cols[i];
        cc->file_offset = 0;
        cc->has_meta_data = true;
        pq_column_meta *m = &cc->meta_data;
        if ((rc = chunk_meta(w, c, m, chunk_start, data_start, err)) < 0) return rc;
        if (o->write_page_index) {
            size_t ci0 = w->ci_all.len, oi0 = w->oi_all.len;
            bool has_ci;
            if ((rc = hudi_pq_wcol_page_index(c, data_start, &w->ci_all, &has_ci, &w->oi_all,
                                              err)) < 0)
                return rc;
            cc->has_column_index = has_ci && o->write_statistics;
            if (!o->write_statistics) hudi_buf_truncate(&w->ci_all, ci0); /* no bounds, no index */
            cc->column_index_offset = (int64_t)ci0;                       /* relative until close */
            cc->column_index_length = (int32_t)(w->ci_all.len - ci0);
            cc->has_offset_index = true;
            cc->offset_index_offset = (int64_t)oi0;
            cc->offset_index_length = (int32_t)(w->oi_all.len - oi0);
        }
        if (c->want_bloom) {
            size_t b0 = w->bloom_all.len;
            if ((rc = hudi_pq_wcol_bloom(c, o->bloom_fpp, &w->bloom_all, err)) < 0) return rc;
            m->has_bloom_filter_offset = m->has_bloom_filter_length = true;
            m->bloom_filter_offset = (int64_t)b0; /* relative until close */
            m->bloom_filter_length = (int32_t)(w->bloom_all.len - b0);
        }
        total_u += m->total_uncompressed_size;
        total_c += m->total_compressed_size;
        hudi_pq_wcol_reset(c);
    }
    pq_row_group *rg = hudi_vec_push(&w->rgs);
    if (!rg) return hudi_error_oom(err);
    rg->n_columns = w->n_cols;
    rg->columns = cols;
    rg->total_byte_size = total_u;
    rg->num_rows = w->rg_rows;
    rg->n_sorting_columns = -1;
    rg->has_file_offset = true;
    rg->file_offset = first;
    rg->has_total_compressed_size = true;
    rg->total_compressed_size = total_c;
    rg->has_ordinal = ordinal <= INT16_MAX; /* an i16: omitted past 32767 row groups */
    rg->ordinal = (int16_t)(rg->has_ordinal ? ordinal : 0);
    w->num_rows += w->rg_rows;
    w->rg_rows = 0;
    return 0;
}

int hudi_pq_writer_set_pool(hudi_pq_writer *w, hudi_pool *pool, hudi_error *err) {
    int32_t n = pool ? hudi_pool_threads(pool) : 1;
    w->pool = n > 1 && w->n_cols > 1 ? pool : NULL;
    if (!w->pool || w->n_xcx >= n) return 0;
    pq_wctx **x = hudi_realloc(w->xcx, (size_t)n * sizeof(*x));
    if (!x) return hudi_error_oom(err);
    w->xcx = x;
    if (!w->task && !(w->task = hudi_calloc((size_t)w->n_cols, sizeof(int32_t))))
        return hudi_error_oom(err);
    if (w->n_xcx == 0) x[w->n_xcx++] = &w->cx;
    while (w->n_xcx < n) {
        pq_wctx *cx = hudi_calloc(1, sizeof(*cx));
        if (!cx) return hudi_error_oom(err);
        cx->o = w->cx.o;
        cx->blocks = w->cx.blocks;
        int rc = hudi_pq_codec_ctx_new(&cx->codec, err);
        if (rc < 0) {
            hudi_free(cx);
            return rc;
        }
        x[w->n_xcx++] = cx;
    }
    return 0;
}

typedef struct cols_job {
    hudi_pq_writer *w;
    const hudi_batch *b;
    int64_t r, n;
} cols_job;

static int cols_task(void *payload, int64_t k, hudi_error *err) {
    cols_job *j = payload;
    hudi_pq_writer *w = j->w;
    for (int32_t i = 0; i < w->n_cols; i++) {
        pq_wcol *c = &w->cols[i];
        if (w->task[i] != k || copied(w, i)) continue;
        int rc = hudi_pq_wcol_write(w->xcx[k], c, j->b->columns[c->leaf->column], j->r, j->n, err);
        if (rc < 0) return rc;
    }
    return 0;
}

/* Rows [r, r + n) of every column as tasks: the columns go to the tasks largest first, each to
 * the task with the least so far (the size: the slice's value bytes, 8 per fixed value). */
static int write_cols_pooled(hudi_pq_writer *w, const hudi_batch *b, int64_t r, int64_t n,
                             hudi_error *err) {
    int32_t t = HUDI_MIN(w->n_xcx, hudi_pool_threads(w->pool));
    int64_t load[HUDI_POOL_MAX_THREADS] = {0};
    for (int32_t i = 0; i < w->n_cols; i++) w->task[i] = -1;
    for (int32_t done = 0; done < w->n_cols; done++) {
        int32_t best = -1;
        int64_t best_size = -1;
        for (int32_t i = 0; i < w->n_cols; i++) {
            if (w->task[i] >= 0) continue;
            const hudi_array *a = b->columns[w->cols[i].leaf->column];
            int64_t size = copied(w, i) ? 0 : 8 * n;
            if (size > 0 && a->data && a->offsets && a->length >= r + n)
                size += (int64_t)a->offsets[r + n] - a->offsets[r];
            if (size > best_size) {
                best = i;
                best_size = size;
            }
        }
        int32_t k = 0;
        for (int32_t q = 1; q < t; q++)
            if (load[q] < load[k]) k = q;
        w->task[best] = k;
        load[k] += best_size;
    }
    cols_job j = {w, b, r, n};
    return hudi_pool_run(w->pool, t, cols_task, &j, err);
}

static int write_rows(hudi_pq_writer *w, const hudi_batch *b, hudi_error *err) {
    const hudi_pq_write_options *o = &w->cx.o;
    int rc;
    for (int64_t r = 0; r < b->num_rows;) {
        int64_t n = HUDI_MIN(b->num_rows - r, SLICE_ROWS);
        if (o->row_group_rows > 0) n = HUDI_MIN(n, o->row_group_rows - w->rg_rows);
        if (w->pool) {
            if ((rc = write_cols_pooled(w, b, r, n, err)) < 0) return rc;
        } else {
            for (int32_t i = 0; i < w->n_cols; i++) {
                pq_wcol *c = &w->cols[i];
                if (copied(w, i)) continue;
                if ((rc = hudi_pq_wcol_write(&w->cx, c, b->columns[c->leaf->column], r, n, err)) <
                    0)
                    return rc;
            }
        }
        w->rg_rows += n;
        r += n;
        if ((o->row_group_rows > 0 && w->rg_rows >= o->row_group_rows) ||
            buffered_bytes(w) >= o->row_group_bytes) {
            if ((rc = flush_row_group(w, err)) < 0) return rc;
        }
    }
    return 0;
}

int64_t hudi_pq_writer_data_size(const hudi_pq_writer *w) { return w->pos + buffered_bytes(w); }

void hudi_pq_writer_use_block_pool(hudi_pq_writer *w, hudi_pq_block_pool *p) {
    w->cx.blocks = p;
    for (int32_t k = 1; k < w->n_xcx; k++) w->xcx[k]->blocks = p;
}

static int failed_again(hudi_pq_writer *w, hudi_error *err) {
    return hudi_error_set(err, w->failed, "%s: an earlier error left the parquet file unusable",
                          w->path);
}

int hudi_pq_writer_write(hudi_pq_writer *w, const hudi_batch *b, hudi_error *err) {
    if (!w || !b) return hudi_error_set(err, HUDI_EINVAL, "parquet writer: no writer or batch");
    if (w->failed) return failed_again(w, err);
    int rc = check_batch(w, b, err);
    if (rc < 0) return rc; /* nothing was written: the file is still usable */
    if ((rc = write_rows(w, b, err)) < 0) {
        w->failed = rc;
        hudi_error_wrap(err, "%s", w->path);
    }
    return rc;
}

/* The copy: the open row group (if any) flushed, then b's rows as a row group of their own
 * with the copied columns marked while they are written and flushed. */
static int write_copying(hudi_pq_writer *w, const hudi_batch *b, const hudi_pq_file *src,
                         int32_t rg, hudi_error *err) {
    int rc;
    if (w->rg_rows > 0 && (rc = flush_row_group(w, err)) < 0) return rc;
    w->copy_src = src;
    w->copy_rg = rg;
    hudi_pq_write_options saved = w->cx.o;
    /* one row group, whatever its size: the limits are the source's */
    w->cx.o.row_group_rows = 0;
    w->cx.o.row_group_bytes = INT64_MAX;
    rc = write_rows(w, b, err);
    w->cx.o = saved;
    if (rc == 0 && w->rg_rows > 0) rc = flush_row_group(w, err);
    w->copy_src = NULL;
    return rc;
}

int hudi_pq_writer_write_copying(hudi_pq_writer *w, const hudi_batch *b, const hudi_pq_file *src,
                                 int32_t rg, const bool *copy, hudi_error *err) {
    if (!w || !b || !src || !copy)
        return hudi_error_set(err, HUDI_EINVAL, "parquet writer: no writer, batch or source");
    if (w->failed) return failed_again(w, err);
    int rc = check_batch(w, b, err);
    if (rc < 0) return rc;
    if (rg < 0 || rg >= src->meta.n_row_groups || src->meta.row_groups[rg].num_rows != b->num_rows)
        return hudi_error_set(err, HUDI_EINVAL,
                              "%s: row group %d of %s does not have the batch's %" PRId64 " rows",
                              w->path, rg, src->path, b->num_rows);
    if (!w->copy_leaf && !(w->copy_leaf = hudi_calloc((size_t)w->n_cols + 1, sizeof(int32_t))))
        return hudi_error_oom(err);
    for (int32_t i = 0; i < w->n_cols; i++) {
        int32_t col = w->cols[i].leaf->column;
        w->copy_leaf[i] = -1;
        if (!copy[col]) continue;
        if ((w->copy_leaf[i] = copy_source(w, col, src, rg)) < 0)
            return hudi_error_set(err, HUDI_EINVAL, "%s: column %s cannot be copied from %s",
                                  w->path, w->schema.children[col].name, src->path);
    }
    /* a chunk whose pages do not tile its extent is encoded from b instead */
    for (int32_t i = 0; i < w->n_cols; i++) {
        bool ok = false;
        if (w->copy_leaf[i] < 0) continue;
        if ((rc = chunk_tiles(w, src, rg, w->copy_leaf[i], &ok, err)) < 0) return rc;
        if (!ok) w->copy_leaf[i] = -1;
    }
    if ((rc = write_copying(w, b, src, rg, err)) < 0) {
        w->failed = rc;
        hudi_error_wrap(err, "%s", w->path);
    }
    return rc;
}

/* ---- closing -------------------------------------------------------------------------------- */

static int write_tail(hudi_pq_writer *w, hudi_error *err) {
    int rc;
    if (w->rg_rows > 0 && (rc = flush_row_group(w, err)) < 0) return rc;
    int64_t ci_base = w->pos;
    if ((rc = sink(w, w->ci_all.data, w->ci_all.len, err)) < 0) return rc;
    int64_t oi_base = w->pos;
    if ((rc = sink(w, w->oi_all.data, w->oi_all.len, err)) < 0) return rc;
    int64_t bloom_base = w->pos;
    if ((rc = sink(w, w->bloom_all.data, w->bloom_all.len, err)) < 0) return rc;
    pq_row_group *rgs = w->rgs.data;
    for (size_t g = 0; g < w->rgs.len; g++) {
        for (int32_t i = 0; i < rgs[g].n_columns; i++) {
            pq_column_chunk *cc = &rgs[g].columns[i];
            if (cc->has_column_index) cc->column_index_offset += ci_base;
            if (cc->has_offset_index) cc->offset_index_offset += oi_base;
            if (cc->meta_data.has_bloom_filter_offset)
                cc->meta_data.bloom_filter_offset += bloom_base;
        }
    }
    int32_t *orders = hudi_arena_alloc(&w->arena, (size_t)(w->n_cols ? w->n_cols : 1) * 4);
    if (!orders) return hudi_error_oom(err);
    for (int32_t i = 0; i < w->n_cols; i++) orders[i] = PQ_ORDER_TYPE;
    pq_file_meta fm;
    memset(&fm, 0, sizeof(fm));
    fm.version = 1;
    fm.n_schema = w->n_elems;
    fm.schema = w->elems;
    fm.num_rows = w->num_rows;
    fm.n_row_groups = (int32_t)w->rgs.len;
    fm.row_groups = rgs;
    fm.n_key_value = w->kvs.len > 0 ? (int32_t)w->kvs.len : -1;
    fm.key_value = w->kvs.data;
    fm.has_created_by = true;
    fm.created_by = hudi_slice_cstr(HUDI_CREATED_BY);
    fm.n_column_orders = w->n_cols;
    fm.column_orders = orders;
    hudi_buf footer = HUDI_BUF_INIT;
    if ((rc = hudi_pq_encode_file_meta(&footer, &fm, err)) < 0) goto done;
    if (footer.len > UINT32_MAX) {
        rc = hudi_error_set(err, HUDI_EINVAL, "footer too large");
        goto done;
    }
    uint8_t tail[8];
    hudi_store_u32le(tail, (uint32_t)footer.len);
    memcpy(tail + 4, "PAR1", 4);
    if ((rc = sink(w, footer.data, footer.len, err)) < 0) goto done;
    if ((rc = sink(w, tail, 8, err)) < 0) goto done;
    rc = sink_flush(w, err);
done:
    hudi_buf_dispose(&footer);
    return rc;
}

int hudi_pq_writer_close(hudi_pq_writer *w, int64_t *size_bytes, hudi_error *err) {
    if (size_bytes) *size_bytes = 0;
    if (!w) return hudi_error_set(err, HUDI_EINVAL, "parquet writer: no writer");
    int rc = w->failed ? failed_again(w, err) : write_tail(w, err);
    if (rc < 0) {
        if (!w->failed) hudi_error_wrap(err, "%s", w->path);
        hudi_writer_abort(w->out);
    } else {
        hudi_writer *out = w->out;
        if ((rc = hudi_writer_close(out, err)) == 0 && size_bytes) *size_bytes = w->pos;
    }
    w->out = NULL;
    writer_free(w);
    return rc;
}

void hudi_pq_writer_abort(hudi_pq_writer *w) {
    if (!w) return;
    hudi_writer_abort(w->out);
    w->out = NULL;
    writer_free(w);
}
