/* reader_column.c - reads one column chunk page by page (docs/formats/parquet.md §1.4, §3):
 * page headers, CRCs, decompression, levels, and every value encoding, appending records to
 * hudic arrays.
 *
 * Values are decoded densely straight into the destination array (flat columns) and then
 * spaced out by the definition levels; dictionaries are converted to the array's
 * representation once, so dictionary pages gather directly into the output. A page is held
 * decoded (levels + value cursor) only while its entries are being consumed, so memory is
 * bounded by the page and the batch, never by the chunk. */
#include <pthread.h>
#include <stdio.h>

#include "format/parquet/int96.h"
#include "format/parquet/reader_int.h"

#define COL_FMT "%s: column %s"

/* The dotted column path for messages (static buffer per call site is not thread-safe; we
 * format into a caller's stack buffer instead). */
static const char *leaf_name(const pq_leaf *leaf, char *buf, size_t cap) {
    size_t n = 0;
    buf[0] = '\0';
    for (int32_t i = 0; i < leaf->path_len && n + 1 < cap; i++) {
        int w = snprintf(buf + n, cap - n, "%s%.*s", i ? "." : "", (int)leaf->path[i].len,
                         (const char *)leaf->path[i].data);
        if (w < 0) break;
        n += (size_t)w;
    }
    return buf;
}

static int col_error(pq_colreader *cr, hudi_error *err, int code, const char *what) {
    char name[256];
    return hudi_error_set(err, code, COL_FMT " (row group %d): %s", cr->f->path,
                          leaf_name(cr->leaf, name, sizeof(name)), cr->row_group, what);
}

/* Adds file/column context to an error raised below us. */
static int col_wrap(pq_colreader *cr, hudi_error *err, int rc) {
    char name[256];
    if (rc < 0 && err)
        hudi_error_wrap(err, COL_FMT " (row group %d)", cr->f->path,
                        leaf_name(cr->leaf, name, sizeof(name)), cr->row_group);
    return rc;
}

static int32_t stored_width_of(int32_t physical, int32_t type_length) {
    switch (physical) {
    case PQ_BOOLEAN: return -1;
    case PQ_INT32:
    case PQ_FLOAT: return 4;
    case PQ_INT64:
    case PQ_DOUBLE: return 8;
    case PQ_INT96: return 12;
    case PQ_FIXED_LEN_BYTE_ARRAY: return type_length;
    default: return 0;
    }
}

static int32_t out_width_of(const hudi_field *f) {
    if (f->type == HUDI_TYPE_BOOL) return -1;
    int w = hudi_type_width(f);
    return w < 0 ? 0 : w;
}

/* ---- warm buffers ------------------------------------------------------------------------- */

/* Column readers hand their chunk, page and level buffers to this process-wide cache when a
 * scan ends, and the next scan's readers start from them. A fresh buffer of several MB costs a
 * page fault (and a cleared page) per 4 KB on first touch; a scan of many files, or a warm
 * engine scanning again, would pay that for every file. The cache is bounded (CACHE_SLOTS
 * buffers, CACHE_MAX_BYTES in all) and only keeps buffers big enough to matter. */
#define CACHE_SLOTS 48
#define CACHE_MIN_BYTES ((size_t)64 << 10)
#define CACHE_MAX_BYTES ((size_t)128 << 20)

static pthread_mutex_t cache_mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
    void *p;
    size_t cap;
} cache[CACHE_SLOTS];
static size_t cache_bytes;

/* The smallest cached buffer of at least `need` bytes, or NULL. */
static void *cache_take(size_t need, size_t *cap) {
    void *p = NULL;
    if (need < CACHE_MIN_BYTES / 2) return NULL;
    pthread_mutex_lock(&cache_mu);
    int best = -1;
    for (int i = 0; i < CACHE_SLOTS; i++)
        if (cache[i].p && cache[i].cap >= need && (best < 0 || cache[i].cap < cache[best].cap))
            best = i;
    if (best >= 0) {
        p = cache[best].p;
        *cap = cache[best].cap;
        cache_bytes -= cache[best].cap;
        cache[best].p = NULL;
        cache[best].cap = 0;
    }
    pthread_mutex_unlock(&cache_mu);
    return p;
}

/* Keeps p for a later scan, or frees it (too small, or the cache is full). */
static void cache_give(void *p, size_t cap) {
    if (!p) return;
    if (cap >= CACHE_MIN_BYTES && cap <= CACHE_MAX_BYTES) {
        pthread_mutex_lock(&cache_mu);
        int slot = -1;
        for (int i = 0; i < CACHE_SLOTS && slot < 0; i++)
            if (!cache[i].p) slot = i;
        if (slot >= 0 && cache_bytes + cap <= CACHE_MAX_BYTES) {
            cache[slot].p = p;
            cache[slot].cap = cap;
            cache_bytes += cap;
            p = NULL;
        }
        pthread_mutex_unlock(&cache_mu);
    }
    hudi_free(p);
}

size_t hudi_pq_buffer_cache_bytes(void) {
    pthread_mutex_lock(&cache_mu);
    size_t n = cache_bytes;
    pthread_mutex_unlock(&cache_mu);
    return n;
}

size_t hudi_pq_buffer_cache_clear(void) {
    size_t n = 0;
    pthread_mutex_lock(&cache_mu);
    for (int i = 0; i < CACHE_SLOTS; i++) {
        n += cache[i].cap;
        hudi_free(cache[i].p);
        cache[i].p = NULL;
        cache[i].cap = 0;
    }
    cache_bytes = 0;
    pthread_mutex_unlock(&cache_mu);
    return n;
}

static int grow_buffer(uint8_t **buf, size_t *cap, size_t need) {
    if (need <= *cap) return 0;
    if (!*buf && (*buf = cache_take(need, cap)) != NULL) return 0;
    size_t c = *cap ? *cap : 4096;
    while (c < need) c *= 2;
    uint8_t *p = hudi_realloc(*buf, c);
    if (!p) return HUDI_ENOMEM;
    *buf = p;
    *cap = c;
    return 0;
}

/* ---- conversion from the stored representation to the array's --------------------------- */

static int convert_fixed(pq_colreader *cr, const uint8_t *in, int64_t n, uint8_t *out,
                         hudi_error *err) {
    const hudi_field *f = cr->leaf->field;
    int32_t phys = cr->leaf->physical_type;
    switch (f->type) {
    case HUDI_TYPE_INT8:
    case HUDI_TYPE_UINT8:
        for (int64_t i = 0; i < n; i++) out[i] = in[i * 4]; /* low byte, little-endian */
        return 0;
    case HUDI_TYPE_INT16:
    case HUDI_TYPE_UINT16:
        for (int64_t i = 0; i < n; i++) memcpy(out + i * 2, in + i * 4, 2);
        return 0;
    case HUDI_TYPE_DECIMAL: {
        __int128 *o = (__int128 *)(void *)out;
        if (phys == PQ_INT32) {
            for (int64_t i = 0; i < n; i++) o[i] = (int32_t)hudi_load_u32le(in + i * 4);
        } else if (phys == PQ_INT64) {
            for (int64_t i = 0; i < n; i++) o[i] = (int64_t)hudi_load_u64le(in + i * 8);
        } else if (phys == PQ_FIXED_LEN_BYTE_ARRAY) {
            size_t w = (size_t)cr->stored_width;
            for (int64_t i = 0; i < n; i++) {
                __int128 v = hudi_load_i128be(in + i * w, w);
                memcpy(o + i, &v, 16);
            }
        } else {
            return col_error(cr, err, HUDI_EUNSUPPORTED, "decimal physical type");
        }
        return 0;
    }
    case HUDI_TYPE_TIMESTAMP:
        if (phys == PQ_INT96) {
            int64_t *o = (int64_t *)(void *)out;
            for (int64_t i = 0; i < n; i++) o[i] = pq_int96_to_micros(in + i * 12);
            return 0;
        }
        break;
    default: break;
    }
    if (cr->stored_width == cr->out_width) {
        memcpy(out, in, (size_t)n * (size_t)cr->out_width);
        return 0;
    }
    return col_error(cr, err, HUDI_EUNSUPPORTED, "no conversion for this physical type");
}

/* BYTE_ARRAY decimals: variable-length big-endian values to 128-bit. */
static int convert_bytes_decimal(pq_colreader *cr, const int32_t *offsets, const uint8_t *data,
                                 int64_t n, uint8_t *out, hudi_error *err) {
    for (int64_t i = 0; i < n; i++) {
        size_t len = (size_t)(offsets[i + 1] - offsets[i]);
        const uint8_t *p = data + offsets[i];
        if (len > 16) {
            /* Only sign-extension bytes may precede the low 16. */
            uint8_t ext = (p[len - 16] & 0x80) ? 0xFF : 0x00;
            for (size_t k = 0; k < len - 16; k++)
                if (p[k] != ext)
                    return col_error(cr, err, HUDI_ECORRUPT, "decimal overflows 128 bits");
            p += len - 16;
            len = 16;
        }
        __int128 v = hudi_load_i128be(p, len);
        memcpy(out + i * 16, &v, 16);
    }
    return 0;
}

/* ---- byte-array output into a hudi_array ---------------------------------------------- */

static int grow_array_data(pq_bytes_out *o, int64_t need, hudi_error *err) {
    hudi_array *a = o->payload;
    a->data_len = o->data_len;
    int rc = hudi_array_grow_data(a, need - a->data_len, err); /* geometric, not exact */
    if (rc < 0) return rc;
    o->data = a->data;
    o->data_cap = a->data_capacity;
    return 0;
}

static pq_bytes_out bytes_out_for(hudi_array *a, int64_t slot) {
    pq_bytes_out o = {a->offsets + slot, a->data, a->data_len, a->data_capacity, 0,
                      grow_array_data,   a};
    return o;
}

/* ---- dictionary ------------------------------------------------------------------------- */

static int load_dictionary(pq_colreader *cr, const uint8_t *p, size_t len, int64_t n,
                           hudi_error *err) {
    int rc = 0;
    if (cr->has_dict) return col_error(cr, err, HUDI_ECORRUPT, "second dictionary page");
    if (cr->data_pages > 0)
        return col_error(cr, err, HUDI_ECORRUPT, "dictionary page after data pages");
    if (cr->leaf->physical_type == PQ_BOOLEAN)
        return col_error(cr, err, HUDI_EUNSUPPORTED, "dictionary-encoded BOOLEAN");
    cr->dict.n = n;
    if (cr->stored_width > 0) {
        size_t sw = (size_t)cr->stored_width, ow = (size_t)HUDI_MAX(cr->out_width, 1);
        size_t in_bytes, out_bytes;
        if (hudi_mul_overflow((size_t)n, sw, &in_bytes) || in_bytes > len)
            return col_error(cr, err, HUDI_ECORRUPT, "dictionary page shorter than its entries");
        if (hudi_mul_overflow((size_t)n, ow, &out_bytes)) return hudi_error_oom(err);
        if (!(cr->dict_values = hudi_malloc(out_bytes + 16))) return hudi_error_oom(err);
        if (cr->convert)
            rc = convert_fixed(cr, p, n, cr->dict_values, err);
        else
            memcpy(cr->dict_values, p, in_bytes);
        cr->dict.width = (int32_t)ow;
        cr->dict.values = cr->dict_values;
        return rc;
    }
    /* Byte arrays: offsets + data, decoded with the PLAIN decoder into owned buffers. */
    if ((uint64_t)n > len / 4 + 1)
        return col_error(cr, err, HUDI_ECORRUPT, "dictionary entries exceed page");
    cr->dict_offsets = hudi_calloc((size_t)n + 1, sizeof(int32_t));
    if (!cr->dict_offsets) return hudi_error_oom(err);
    pq_bytes_out o = {cr->dict_offsets, NULL, 0, 0, 0, NULL, NULL};
    rc = hudi_pq_plain_decode_bytes(p, len, n, &o, NULL, err);
    cr->dict_data = o.data;
    if (rc < 0) return col_wrap(cr, err, rc);
    if (cr->leaf->field->type == HUDI_TYPE_DECIMAL) {
        if (!(cr->dict_values = hudi_malloc((size_t)n * 16 + 16))) return hudi_error_oom(err);
        if ((rc = convert_bytes_decimal(cr, cr->dict_offsets, cr->dict_data, n, cr->dict_values,
                                        err)) < 0)
            return rc;
        cr->dict.width = 16;
        cr->dict.values = cr->dict_values;
        return 0;
    }
    cr->dict.width = 0;
    cr->dict.offsets = cr->dict_offsets;
    cr->dict.data = cr->dict_data;
    if (o.data && o.data_cap - o.data_len >= PQ_BYTES_PAD) {
        /* hudi_pq_bytes_reserve left this slack: defined bytes for the gathers' block copies. */
        memset(o.data + o.data_len, 0, PQ_BYTES_PAD);
        cr->dict.data_pad = PQ_BYTES_PAD;
    }
    int32_t max_len = 0;
    for (int64_t i = 0; i < n; i++)
        max_len = HUDI_MAX(max_len, cr->dict_offsets[i + 1] - cr->dict_offsets[i]);
    cr->dict.max_len = max_len;
    return 0;
}

/* ---- pages -------------------------------------------------------------------------------- */

static int ensure_levels(pq_colreader *cr, int64_t n, hudi_error *err) {
    if (n <= cr->level_cap) return 0;
    if (!cr->def && !cr->rep) { /* warm buffers from an earlier scan (the pair, or neither) */
        size_t dcap = 0, rcap = 0;
        int16_t *d = cache_take((size_t)n * sizeof(int16_t), &dcap);
        int16_t *r = d ? cache_take((size_t)n * sizeof(int16_t), &rcap) : NULL;
        if (d && r) {
            cr->def = d;
            cr->rep = r;
            cr->level_cap = (int64_t)(HUDI_MIN(dcap, rcap) / sizeof(int16_t));
            return 0;
        }
        cache_give(d, dcap);
    }
    int64_t cap = HUDI_MAX(n, 1024);
    int16_t *d = hudi_realloc(cr->def, (size_t)cap * sizeof(int16_t));
    if (!d) return hudi_error_oom(err);
    cr->def = d;
    int16_t *r = hudi_realloc(cr->rep, (size_t)cap * sizeof(int16_t));
    if (!r) return hudi_error_oom(err);
    cr->rep = r;
    cr->level_cap = cap;
    return 0;
}

/* Decodes one level stream of n entries. v1 RLE streams carry a length prefix. */
static int decode_levels(pq_colreader *cr, const uint8_t **p, const uint8_t *end, int encoding,
                         bool prefixed, size_t v2_len, int max_level, int16_t *out, int64_t n,
                         bool *all_max, hudi_error *err) {
    int w = pq_bit_width((uint64_t)max_level);
    const uint8_t *runs;
    size_t runs_len, consumed;
    int rc;
    if (encoding == PQ_ENC_BIT_PACKED) {
        size_t need = pq_bitpacked_size(n, w);
        if (need > (size_t)(end - *p))
            return col_error(cr, err, HUDI_ECORRUPT, "levels overrun page");
        if ((rc = hudi_pq_bitpacked_decode_i16(*p, need, w, 0, n, out, err)) < 0)
            return col_wrap(cr, err, rc);
        *p += need;
        if (all_max) *all_max = false;
        return 0;
    }
    if (encoding != PQ_ENC_RLE) return col_error(cr, err, HUDI_EUNSUPPORTED, "level encoding");
    if (prefixed) {
        if ((rc = hudi_pq_rle_parse_prefix(*p, (size_t)(end - *p), &runs, &runs_len, &consumed,
                                           err)) < 0)
            return col_wrap(cr, err, rc);
    } else {
        if (v2_len > (size_t)(end - *p))
            return col_error(cr, err, HUDI_ECORRUPT, "levels overrun page");
        runs = *p;
        runs_len = consumed = v2_len;
    }
    pq_rle_decoder d;
    if ((rc = hudi_pq_rle_init(&d, runs, runs_len, w, err)) < 0) return col_wrap(cr, err, rc);
    if (all_max) {
        rc = hudi_pq_rle_consume_run(&d, n, (uint32_t)max_level, err);
        if (rc < 0) return col_wrap(cr, err, rc);
        *all_max = rc == 1;
    }
    if (!all_max || !*all_max) {
        if ((rc = hudi_pq_rle_next_i16(&d, out, n, err)) < 0) return col_wrap(cr, err, rc);
        for (int64_t i = 0; i < n; i++)
            if ((uint16_t)out[i] > (uint16_t)max_level)
                return col_error(cr, err, HUDI_ECORRUPT, "level exceeds its maximum");
    }
    *p += consumed;
    return 0;
}

static int start_values(pq_colreader *cr, hudi_error *err) {
    int rc = 0;
    int32_t enc = cr->encoding;
    bool is_bytes = cr->stored_width == 0;
    cr->vpos = 0;
    cr->vpos_bytes = 0;
    if (cr->dba_live) {
        hudi_pq_dba_dispose(&cr->dba);
        cr->dba_live = false;
    }
    switch (enc) {
    case PQ_ENC_PLAIN:
    case PQ_ENC_BYTE_STREAM_SPLIT: return 0;
    case PQ_ENC_PLAIN_DICTIONARY:
    case PQ_ENC_RLE_DICTIONARY:
        if (!cr->has_dict)
            return col_error(cr, err, HUDI_ECORRUPT,
                             "dictionary-encoded page without a dictionary");
        rc = hudi_pq_rle_init_dict(&cr->rle, cr->vals, cr->vals_len, err);
        break;
    case PQ_ENC_RLE:
        if (cr->leaf->physical_type != PQ_BOOLEAN)
            return col_error(cr, err, HUDI_EUNSUPPORTED, "RLE encoding of a non-BOOLEAN column");
        {
            const uint8_t *runs;
            size_t runs_len, consumed;
            rc = hudi_pq_rle_parse_prefix(cr->vals, cr->vals_len, &runs, &runs_len, &consumed, err);
            if (rc == 0) rc = hudi_pq_rle_init(&cr->rle, runs, runs_len, 1, err);
        }
        break;
    case PQ_ENC_DELTA_BINARY_PACKED:
        if (cr->leaf->physical_type != PQ_INT32 && cr->leaf->physical_type != PQ_INT64)
            return col_error(cr, err, HUDI_ECORRUPT, "DELTA_BINARY_PACKED on a non-integer column");
        rc = hudi_pq_delta_init(&cr->delta, cr->vals, cr->vals_len,
                                cr->leaf->physical_type == PQ_INT32, err);
        break;
    case PQ_ENC_DELTA_LENGTH_BYTE_ARRAY:
        if (!is_bytes)
            return col_error(cr, err, HUDI_ECORRUPT,
                             "DELTA_LENGTH_BYTE_ARRAY on a fixed-width column");
        rc = hudi_pq_dlba_init(&cr->dlba, cr->vals, cr->vals_len, err);
        break;
    case PQ_ENC_DELTA_BYTE_ARRAY:
        if (!is_bytes && cr->leaf->physical_type != PQ_FIXED_LEN_BYTE_ARRAY)
            return col_error(cr, err, HUDI_ECORRUPT, "DELTA_BYTE_ARRAY on a numeric column");
        rc = hudi_pq_dba_init(&cr->dba, cr->vals, cr->vals_len, err);
        cr->dba_live = rc == 0;
        break;
    case PQ_ENC_ALP: return col_error(cr, err, HUDI_EUNSUPPORTED, "unsupported encoding ALP");
    default: {
        char what[64];
        snprintf(what, sizeof(what), "unsupported encoding %d", enc);
        return col_error(cr, err, HUDI_EUNSUPPORTED, what);
    }
    }
    return rc < 0 ? col_wrap(cr, err, rc) : 0;
}

static int decompress_into(pq_colreader *cr, const uint8_t *in, size_t in_len, size_t out_len,
                           size_t offset, hudi_error *err) {
    /* Allocates exactly out_len (+ offset bytes kept from before) and inflates there. */
    if (out_len > ((size_t)1 << 31)) return col_error(cr, err, HUDI_ENOMEM, "page too large");
    if (grow_buffer(&cr->page_buf, &cr->page_cap, offset + out_len + 8) < 0)
        return hudi_error_oom(err);
    int rc = hudi_pq_decompress(cr->codec, cr->cm->codec, HUDI_SLICE(in, in_len),
                                cr->page_buf + offset, out_len, err);
    cr->bytes_decompressed += (int64_t)out_len;
    return rc < 0 ? col_wrap(cr, err, rc) : 0;
}

static bool writer_is_old_parquet_cpp(const hudi_pq_file *f) {
    /* parquet-cpp before the "parquet-cpp-arrow" rename wrote v2 pages flagged uncompressed
     * that were compressed (ARROW-10353). */
    hudi_slice cb = f->meta.created_by;
    static const char k[] = "parquet-cpp version";
    return f->meta.has_created_by && cb.len >= sizeof(k) - 1 &&
           memcmp(cb.data, k, sizeof(k) - 1) == 0;
}

/* Makes page_buf[0, upto) of a lazily decoded page available (all of it, and checked, once
 * upto reaches the page's end). */
static int lazy_fill(pq_colreader *cr, size_t upto, hudi_error *err) {
    if (!cr->lazy) return 0;
    int rc = hudi_pq_snappy_stream_fill(&cr->snappy, upto, err);
    if (rc < 0) {
        cr->lazy = false;
        return col_wrap(cr, err, rc);
    }
    if (cr->snappy.finished) cr->lazy = false;
    return 0;
}

/* Bytes of a v1 level stream at p (a 4-byte length prefix and the runs) made available. */
static int lazy_fill_levels(pq_colreader *cr, const uint8_t *p, const uint8_t *end, int encoding,
                            hudi_error *err) {
    size_t at = (size_t)(p - cr->page_buf), room = (size_t)(end - p);
    if (!cr->lazy) return 0;
    if (encoding != PQ_ENC_RLE || room < 4) return lazy_fill(cr, SIZE_MAX, err);
    int rc = lazy_fill(cr, at + 4, err);
    if (rc < 0) return rc;
    uint32_t len = hudi_load_u32le(p);
    return lazy_fill(cr, len > room - 4 ? SIZE_MAX : at + 4 + len, err);
}

static int load_data_page(pq_colreader *cr, const pq_page_header *h, const uint8_t *payload,
                          hudi_error *err) {
    const pq_leaf *leaf = cr->leaf;
    size_t clen = (size_t)h->compressed_page_size, ulen = (size_t)h->uncompressed_page_size;
    bool v2 = h->type == PQ_PAGE_DATA_V2;
    int64_t n;
    int rc;
    const uint8_t *p, *end;
    cr->lazy = false;
    if (!v2) {
        if (!h->has_data_page_header)
            return col_error(cr, err, HUDI_ECORRUPT, "data page without header");
        n = h->data_page_header.num_values;
        cr->encoding = h->data_page_header.encoding;
        if (cr->cm->codec == PQ_CODEC_UNCOMPRESSED) {
            p = payload;
            end = payload + clen;
        } else if (cr->cm->codec == PQ_CODEC_SNAPPY && cr->encoding == PQ_ENC_PLAIN &&
                   cr->stored_width > 0 && cr->out_width > 0 && leaf->depth == 1 &&
                   leaf->max_rep == 0 && ulen <= ((size_t)1 << 31)) {
            if (grow_buffer(&cr->page_buf, &cr->page_cap, ulen + 8) < 0) return hudi_error_oom(err);
            if ((rc = hudi_pq_snappy_stream_init(&cr->snappy, HUDI_SLICE(payload, clen),
                                                 cr->page_buf, ulen, err)) < 0)
                return col_wrap(cr, err, rc);
            cr->lazy = true;
            cr->bytes_decompressed += (int64_t)ulen;
            p = cr->page_buf;
            end = cr->page_buf + ulen;
        } else {
            if ((rc = decompress_into(cr, payload, clen, ulen, 0, err)) < 0) return rc;
            p = cr->page_buf;
            end = cr->page_buf + ulen;
        }
    } else {
        if (!h->has_data_page_header_v2)
            return col_error(cr, err, HUDI_ECORRUPT, "v2 data page without header");
        const pq_data_page_header_v2 *v = &h->data_page_header_v2;
        n = v->num_values;
        cr->encoding = v->encoding;
        if (v->repetition_levels_byte_length < 0 || v->definition_levels_byte_length < 0 ||
            (size_t)v->repetition_levels_byte_length + (size_t)v->definition_levels_byte_length >
                clen ||
            (size_t)v->repetition_levels_byte_length + (size_t)v->definition_levels_byte_length >
                ulen)
            return col_error(cr, err, HUDI_ECORRUPT, "v2 level lengths exceed the page");
        size_t lv =
            (size_t)v->repetition_levels_byte_length + (size_t)v->definition_levels_byte_length;
        bool compressed = cr->cm->codec != PQ_CODEC_UNCOMPRESSED &&
                          (v->is_compressed || writer_is_old_parquet_cpp(cr->f));
        if (!compressed) {
            p = payload;
            end = payload + clen;
        } else {
            /* Levels stay as they are; values inflate behind them in page_buf. */
            if (grow_buffer(&cr->page_buf, &cr->page_cap, ulen + 8) < 0) return hudi_error_oom(err);
            memcpy(cr->page_buf, payload, lv);
            if (clen == lv) {
                if (ulen != lv)
                    return col_error(cr, err, HUDI_ECORRUPT,
                                     "empty v2 value section inflates to data");
            } else if ((rc = decompress_into(cr, payload + lv, clen - lv, ulen - lv, lv, err)) <
                       0) {
                return rc;
            }
            p = cr->page_buf;
            end = cr->page_buf + ulen;
        }
    }
    if (n < 0) return col_error(cr, err, HUDI_ECORRUPT, "negative num_values in page header");
    if ((rc = ensure_levels(cr, n, err)) < 0) return rc;
    cr->all_defined = leaf->max_def == 0;
    if (leaf->max_rep > 0) {
        size_t rl = v2 ? (size_t)h->data_page_header_v2.repetition_levels_byte_length : 0;
        int enc = v2 ? PQ_ENC_RLE : h->data_page_header.repetition_level_encoding;
        if ((rc = decode_levels(cr, &p, end, enc, !v2, rl, leaf->max_rep, cr->rep, n, NULL, err)) <
            0)
            return rc;
    } else if (v2) {
        p += h->data_page_header_v2.repetition_levels_byte_length;
    }
    if (leaf->max_def > 0) {
        size_t dl = v2 ? (size_t)h->data_page_header_v2.definition_levels_byte_length : 0;
        int enc = v2 ? PQ_ENC_RLE : h->data_page_header.definition_level_encoding;
        if ((rc = lazy_fill_levels(cr, p, end, enc, err)) < 0) return rc;
        if ((rc = decode_levels(cr, &p, end, enc, !v2, dl, leaf->max_def, cr->def, n,
                                &cr->all_defined, err)) < 0)
            return rc;
    } else if (v2) {
        p += h->data_page_header_v2.definition_levels_byte_length;
    }
    if (p > end) return col_error(cr, err, HUDI_ECORRUPT, "levels overrun page");
    if (leaf->max_rep > 0 && n > 0 && cr->rep[0] != 0 && (v2 || cr->data_pages == 0))
        return col_error(cr, err, HUDI_ECORRUPT, "first repetition level of a page must be 0");
    cr->vals = p;
    cr->vals_len = (size_t)(end - p);
    cr->n_entries = n;
    cr->entry_pos = 0;
    cr->page_v2 = v2;
    cr->page_loaded = true;
    cr->entries_seen += n;
    cr->data_pages++;
    return start_values(cr, err);
}

static int load_dictionary_page(pq_colreader *cr, const pq_page_header *h, const uint8_t *payload,
                                hudi_error *err) {
    int rc;
    if (!h->has_dictionary_page_header || h->dictionary_page_header.num_values < 0)
        return col_error(cr, err, HUDI_ECORRUPT, "bad dictionary page header (num_values < 0)");
    const uint8_t *d = payload;
    if (cr->cm->codec != PQ_CODEC_UNCOMPRESSED) {
        if ((rc = decompress_into(cr, payload, (size_t)h->compressed_page_size,
                                  (size_t)h->uncompressed_page_size, 0, err)) < 0)
            return rc;
        d = cr->page_buf;
    }
    size_t dlen = cr->cm->codec != PQ_CODEC_UNCOMPRESSED ? (size_t)h->uncompressed_page_size
                                                         : (size_t)h->compressed_page_size;
    if ((rc = load_dictionary(cr, d, dlen, h->dictionary_page_header.num_values, err)) < 0)
        return rc;
    cr->has_dict = true;
    return 0;
}

static bool is_dict_encoding(int32_t enc) {
    return enc == PQ_ENC_PLAIN_DICTIONARY || enc == PQ_ENC_RLE_DICTIONARY;
}

/* The dictionary page that hudi_pq_colreader_skip stepped over, loaded now that a data page
 * needs it (its header and checksum were checked then). */
static int load_pending_dictionary(pq_colreader *cr, hudi_error *err) {
    hudi_arena arena = HUDI_ARENA_INIT;
    pq_page_header h;
    size_t hlen = 0;
    int rc = hudi_pq_decode_page_header(
        &h, &arena, HUDI_SLICE(cr->chunk + cr->dict_pos, cr->chunk_len - cr->dict_pos), &hlen, err);
    if (rc < 0) {
        hudi_arena_dispose(&arena);
        return col_wrap(cr, err, rc);
    }
    int32_t pages = cr->data_pages;
    cr->data_pages = 0; /* it came first in the chunk */
    cr->dict_pending = false;
    rc = load_dictionary_page(cr, &h, cr->chunk + cr->dict_pos + hlen, err);
    cr->data_pages = pages;
    hudi_arena_dispose(&arena);
    return rc;
}

/* Loads the next data page (reading a dictionary page first if one comes). Returns 1 when a
 * page is loaded, 0 at the end of the chunk. */
static int next_page(pq_colreader *cr, hudi_error *err) {
    hudi_arena arena = HUDI_ARENA_INIT;
    int rc = 0;
    cr->page_loaded = false;
    cr->lazy = false; /* page_buf is about to be reused */
    while (cr->entries_seen < cr->cm->num_values && cr->pos < cr->chunk_len) {
        pq_page_header h;
        size_t hlen = 0;
        hudi_arena_dispose(&arena);
        rc = hudi_pq_decode_page_header(
            &h, &arena, HUDI_SLICE(cr->chunk + cr->pos, cr->chunk_len - cr->pos), &hlen, err);
        if (rc < 0) {
            rc = col_wrap(cr, err, rc);
            break;
        }
        if (h.compressed_page_size < 0 || h.uncompressed_page_size < 0 ||
            (size_t)h.compressed_page_size > cr->chunk_len - cr->pos - hlen) {
            rc = col_error(cr, err, HUDI_ECORRUPT, "page runs past the column chunk");
            break;
        }
        const uint8_t *payload = cr->chunk + cr->pos + hlen;
        cr->pos += hlen + (size_t)h.compressed_page_size;
        if (h.has_crc && cr->f->opts.verify_crc &&
            (int32_t)hudi_crc32(0, payload, (size_t)h.compressed_page_size) != h.crc) {
            rc = col_error(cr, err, HUDI_ECORRUPT, "page checksum mismatch");
            break;
        }
        if (h.type == PQ_PAGE_DICTIONARY) {
            if (cr->dict_pending) {
                rc = col_error(cr, err, HUDI_ECORRUPT, "second dictionary page");
                break;
            }
            if ((rc = load_dictionary_page(cr, &h, payload, err)) < 0) break;
            continue;
        }
        if ((h.type == PQ_PAGE_DATA || h.type == PQ_PAGE_DATA_V2) && cr->dict_pending &&
            is_dict_encoding(h.type == PQ_PAGE_DATA
                                 ? (h.has_data_page_header ? h.data_page_header.encoding : -1)
                             : h.has_data_page_header_v2 ? h.data_page_header_v2.encoding
                                                         : -1) &&
            (rc = load_pending_dictionary(cr, err)) < 0)
            break;
        if (h.type == PQ_PAGE_DATA || h.type == PQ_PAGE_DATA_V2) {
            rc = load_data_page(cr, &h, payload, err);
            if (rc == 0) rc = 1;
            break;
        }
        /* INDEX_PAGE and unknown page types are skipped. */
    }
    hudi_arena_dispose(&arena);
    return rc;
}

/* ---- values ----------------------------------------------------------------------------- */

static int decode_fixed_stored(pq_colreader *cr, uint8_t *out, int64_t n, hudi_error *err) {
    int32_t w = cr->stored_width;
    int rc;
    switch (cr->encoding) {
    case PQ_ENC_PLAIN: {
        size_t used = 0;
        if (cr->lazy) { /* decode and copy out in steps that stay in cache */
            size_t at = (size_t)(cr->vals - cr->page_buf);
            int64_t step = HUDI_MAX(1, (64 << 10) / w);
            while (n > step && cr->lazy) {
                if ((rc = lazy_fill(cr, at + cr->vpos_bytes + (size_t)(step * w), err)) < 0 ||
                    (rc = hudi_pq_plain_decode_fixed(cr->vals + cr->vpos_bytes,
                                                     cr->vals_len - cr->vpos_bytes, w, step, out,
                                                     &used, err)) < 0)
                    return rc;
                cr->vpos_bytes += used;
                out += used;
                n -= step;
            }
            size_t need = (size_t)n * (size_t)w; /* n * w <= the page when the page is valid */
            if ((rc = lazy_fill(cr, need > cr->vals_len ? SIZE_MAX : at + cr->vpos_bytes + need,
                                err)) < 0)
                return rc;
        }
        rc = hudi_pq_plain_decode_fixed(cr->vals + cr->vpos_bytes, cr->vals_len - cr->vpos_bytes, w,
                                        n, out, &used, err);
        cr->vpos_bytes += used;
        return rc;
    }
    case PQ_ENC_DELTA_BINARY_PACKED:
        return w == 4 ? hudi_pq_delta_next_i32(&cr->delta, (int32_t *)(void *)out, n, err)
                      : hudi_pq_delta_next_i64(&cr->delta, (int64_t *)(void *)out, n, err);
    case PQ_ENC_DELTA_BYTE_ARRAY: return hudi_pq_dba_next_fixed(&cr->dba, n, w, out, err);
    case PQ_ENC_BYTE_STREAM_SPLIT:
        return hudi_pq_bss_decode(cr->vals, cr->vals_len, w, cr->vpos, n, out, err);
    default:
        return col_error(cr, err, HUDI_EUNSUPPORTED, "encoding not valid for this column type");
    }
}

static int decode_bytes(pq_colreader *cr, pq_bytes_out *o, int64_t n, hudi_error *err) {
    switch (cr->encoding) {
    case PQ_ENC_PLAIN: {
        size_t used = 0;
        int rc = hudi_pq_plain_decode_bytes(cr->vals + cr->vpos_bytes,
                                            cr->vals_len - cr->vpos_bytes, n, o, &used, err);
        cr->vpos_bytes += used;
        return rc;
    }
    case PQ_ENC_PLAIN_DICTIONARY:
    case PQ_ENC_RLE_DICTIONARY: return hudi_pq_rle_gather_bytes(&cr->rle, &cr->dict, n, o, err);
    case PQ_ENC_DELTA_LENGTH_BYTE_ARRAY: return hudi_pq_dlba_next(&cr->dlba, n, o, err);
    case PQ_ENC_DELTA_BYTE_ARRAY: return hudi_pq_dba_next(&cr->dba, n, o, err);
    default: return col_error(cr, err, HUDI_EUNSUPPORTED, "encoding not valid for byte arrays");
    }
}

/* Decodes the next n non-null values densely into `a` starting at slot `slot`. */
static int decode_dense(pq_colreader *cr, hudi_array *a, int64_t slot, int64_t n, hudi_error *err) {
    int rc = 0;
    if (n == 0) return 0;
    const hudi_field *f = cr->leaf->field;
    bool dict = cr->encoding == PQ_ENC_PLAIN_DICTIONARY || cr->encoding == PQ_ENC_RLE_DICTIONARY;
    if (f->type == HUDI_TYPE_BOOL) {
        if (cr->encoding == PQ_ENC_PLAIN)
            rc = hudi_pq_plain_decode_bool(cr->vals, cr->vals_len, cr->vpos, n, a->values, slot,
                                           err);
        else if (cr->encoding == PQ_ENC_RLE)
            rc = hudi_pq_rle_next_bool(&cr->rle, a->values, slot, n, err);
        else
            rc = col_error(cr, err, HUDI_EUNSUPPORTED, "encoding not valid for BOOLEAN");
    } else if (cr->out_width == 0) { /* string / binary */
        pq_bytes_out o = bytes_out_for(a, slot);
        rc = decode_bytes(cr, &o, n, err);
        a->data_len = o.data_len;
    } else if (dict) {
        rc = hudi_pq_rle_gather_fixed(&cr->rle, &cr->dict, n,
                                      (uint8_t *)a->values + slot * cr->out_width, err);
    } else if (cr->stored_width == 0) { /* BYTE_ARRAY decimal */
        int32_t *offs = hudi_calloc((size_t)n + 1, sizeof(int32_t));
        pq_bytes_out o = {offs, NULL, 0, 0, 0, NULL, NULL};
        if (!offs) return hudi_error_oom(err);
        rc = decode_bytes(cr, &o, n, err);
        if (rc == 0)
            rc = convert_bytes_decimal(cr, offs, o.data, n, (uint8_t *)a->values + slot * 16, err);
        hudi_free(offs);
        hudi_free(o.data);
    } else if (!cr->convert) {
        rc = decode_fixed_stored(cr, (uint8_t *)a->values + slot * cr->out_width, n, err);
    } else {
        size_t need = (size_t)n * (size_t)cr->stored_width;
        if (grow_buffer(&cr->scratch, &cr->scratch_cap, need + 16) < 0) return hudi_error_oom(err);
        rc = decode_fixed_stored(cr, cr->scratch, n, err);
        if (rc == 0)
            rc =
                convert_fixed(cr, cr->scratch, n, (uint8_t *)a->values + slot * cr->out_width, err);
    }
    cr->vpos += n;
    return rc < 0 ? col_wrap(cr, err, rc) : 0;
}

static int skip_now(pq_colreader *cr, int64_t records, hudi_error *err);

/* ---- emitting records ---------------------------------------------------------------------- */

static int64_t count_defined(const int16_t *def, int64_t n, int16_t max_def) {
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) k += def[i] == max_def;
    return k;
}

/* Flat column: entries are rows. */
static int emit_flat(pq_colreader *cr, hudi_array *a, int64_t m, hudi_error *err) {
    const pq_leaf *leaf = cr->leaf;
    int64_t start = cr->entry_pos, slot = a->length;
    int rc;
    if ((rc = hudi_array_grow(a, m, err)) < 0) return rc;
    if (a->field->type == HUDI_TYPE_NULL) {
        a->length += m;
        a->null_count += m;
        cr->entry_pos += m;
        return 0;
    }
    const int16_t *def = cr->def + start;
    int64_t k = (leaf->max_def == 0 || cr->all_defined) ? m : count_defined(def, m, leaf->max_def);
    if (k < m && (rc = hudi_array_ensure_validity(a, err)) < 0) return rc;
    if ((rc = decode_dense(cr, a, slot, k, err)) < 0) return rc;
    /* Index checks made every value of a one-entry dictionary that entry. */
    cr->one_value =
        k == m && cr->dict.n == 1 &&
        (cr->encoding == PQ_ENC_PLAIN_DICTIONARY || cr->encoding == PQ_ENC_RLE_DICTIONARY);
    if (a->validity) {
        if (k == m) {
            hudi_bitmap_set_range(a->validity, slot, m, true);
        } else {
            for (int64_t i = 0; i < m; i++) {
                if (def[i] == leaf->max_def)
                    hudi_bit_set(a->validity, slot + i);
                else
                    hudi_bit_clear(a->validity, slot + i);
            }
            if ((rc = hudi_array_spread(a, slot, m, k, err)) < 0) return rc;
        }
    }
    a->length += m;
    a->null_count += m - k;
    cr->entry_pos += m;
    /* The page's last entry: the rest of a lazily decoded page is decoded and checked. */
    if (cr->lazy && cr->entry_pos == cr->n_entries) return lazy_fill(cr, SIZE_MAX, err);
    return 0;
}

/* Nested column: entries [entry_pos, entry_pos + m) go through Dremel assembly. */
static int emit_nested(pq_colreader *cr, hudi_array *column, int64_t m, hudi_error *err) {
    const pq_leaf *leaf = cr->leaf;
    int64_t start = cr->entry_pos;
    hudi_array *la = NULL;
    int rc;
    if (cr->all_defined && leaf->max_def > 0)
        for (int64_t i = 0; i < m; i++) cr->def[start + i] = leaf->max_def;
    const int16_t *def = leaf->max_def > 0 ? cr->def + start : NULL;
    const int16_t *rep = leaf->max_rep > 0 ? cr->rep + start : NULL;
    int64_t k = def ? count_defined(def, m, leaf->max_def) : m;
    if ((rc = hudi_pq_assemble_reserve(column, leaf, m, &la, err)) < 0)
        return col_wrap(cr, err, rc);
    if (la->field->type != HUDI_TYPE_NULL) {
        if ((rc = hudi_array_grow(la, k, err)) < 0) return rc;
        if ((rc = decode_dense(cr, la, la->length, k, err)) < 0) return rc;
    } else {
        k = 0; /* an always-null column stores no values */
    }
    bool starts_record = start == 0 && (cr->page_v2 || cr->data_pages == 1);
    rc = hudi_pq_assemble_leaf(
        column, leaf, def, rep, m,
        la->field->type == HUDI_TYPE_NULL ? (def ? count_defined(def, m, leaf->max_def) : m) : k,
        starts_record, err);
    if (rc < 0) return col_wrap(cr, err, rc);
    cr->entry_pos += m;
    return 0;
}

/* Marks `column` uniform (columnar.h) when this read filled it from empty with the one entry
 * of the chunk's dictionary and no null: a constant column, such as the partition column Hudi
 * writes into every base file, which consumers may then treat as one value. */
static int read_done(pq_colreader *cr, hudi_array *column, bool uniform, bool var, int64_t len0,
                     int64_t bytes0) {
    if (uniform && column->length > 0) column->uniform = true;
    if (var) {
        cr->seen_rows += column->length - len0;
        cr->seen_bytes += column->data_len - bytes0;
    }
    return 0;
}

int hudi_pq_colreader_read(pq_colreader *cr, hudi_array *column, int64_t records, hudi_error *err) {
    const pq_leaf *leaf = cr->leaf;
    bool flat = leaf->depth == 1;
    bool uniform = flat && column->length == 0 && column->field->type != HUDI_TYPE_NULL;
    int64_t done = 0;
    int rc;
    bool var = flat &&
               (column->field->type == HUDI_TYPE_STRING || column->field->type == HUDI_TYPE_BINARY);
    if (var && column->length == 0 && cr->seen_rows > 0) {
        int64_t want = records * (cr->seen_bytes / cr->seen_rows + 1);
        want += want / 16;
        if (want > column->data_capacity &&
            (rc = hudi_array_reserve_data(column, HUDI_MIN(want, (int64_t)INT32_MAX), err)) < 0)
            return rc;
    }
    /* A flat column gets exactly `records` rows: room for them at once, not page by page (a
     * batch of a whole row group would otherwise be copied at every doubling) - exactly when
     * the array is empty, else geometrically (late materialisation appends run after run to
     * one array). The bytes of a string column are sized above from the reader's earlier
     * batches, else once its first page of this read shows their length per row (`sized`). */
    if (flat && column->field->type != HUDI_TYPE_NULL) {
        rc = column->length == 0 ? hudi_array_reserve(column, records, err)
                                 : hudi_array_grow(column, records, err);
        if (rc < 0) return rc;
    }
    bool sized = !var || cr->seen_rows > 0;
    int64_t len0 = column->length, bytes0 = column->data_len;
    if (cr->skip_pending > 0) {
        int64_t n = cr->skip_pending;
        cr->skip_pending = 0;
        if ((rc = skip_now(cr, n, err)) < 0) return rc;
    }
    for (;;) {
        if (!cr->page_loaded || cr->entry_pos == cr->n_entries) {
            if (flat && done == records) return read_done(cr, column, uniform, var, len0, bytes0);
            if ((rc = next_page(cr, err)) < 0) return rc;
            if (rc == 0) {
                if (done == records) return 0;
                return col_error(cr, err, HUDI_ECORRUPT,
                                 "column chunk has fewer values than the row group has rows");
            }
            if (cr->n_entries == 0) continue;
        }
        int64_t m;
        if (leaf->max_rep == 0) {
            m = HUDI_MIN(cr->n_entries - cr->entry_pos, records - done);
            done += m;
        } else {
            int64_t i = cr->entry_pos;
            const int16_t *rep = cr->rep;
            for (; i < cr->n_entries; i++) {
                if (rep[i] == 0) {
                    if (done == records) break;
                    done++;
                }
            }
            m = i - cr->entry_pos;
        }
        if (m > 0) {
            rc = flat ? emit_flat(cr, column, m, err) : emit_nested(cr, column, m, err);
            if (rc < 0) return rc;
            uniform = uniform && cr->one_value;
            if (!sized && done < records && column->length > len0) {
                sized = true;
                int64_t per = (column->data_len - bytes0) / (column->length - len0) + 1;
                int64_t want = column->data_len + per * (records - done);
                want += want / 16;
                if (want > column->data_capacity &&
                    (rc = hudi_array_reserve_data(column, HUDI_MIN(want, (int64_t)INT32_MAX),
                                                  err)) < 0)
                    return rc;
            }
        }
        if (done == records && (leaf->max_rep == 0 || cr->entry_pos < cr->n_entries))
            return flat ? read_done(cr, column, uniform, var, len0, bytes0) : 0;
    }
}

/* ---- setup ---------------------------------------------------------------------------------- */

/* Buffers survive from one row group to the next (hudi_pq_colreader_dispose with keep_buffers), so
 * a scan does not pay page faults for fresh chunk and page buffers at every row group. */
typedef struct kept_buffers {
    uint8_t *chunk_owned, *page_buf, *scratch;
    size_t chunk_cap, page_cap, scratch_cap;
    int16_t *def, *rep;
    int64_t level_cap;
} kept_buffers;

int hudi_pq_colreader_init(pq_colreader *cr, hudi_pq_file *f, int32_t row_group,
                           const pq_leaf *leaf, pq_codec_ctx *codec, hudi_error *err) {
    kept_buffers k = {cr->chunk_owned, cr->page_buf, cr->scratch, cr->chunk_cap, cr->page_cap,
                      cr->scratch_cap, cr->def,      cr->rep,     cr->level_cap};
    memset(cr, 0, sizeof(*cr));
    cr->chunk_owned = k.chunk_owned;
    cr->chunk_cap = k.chunk_cap;
    cr->page_buf = k.page_buf;
    cr->page_cap = k.page_cap;
    cr->scratch = k.scratch;
    cr->scratch_cap = k.scratch_cap;
    cr->def = k.def;
    cr->rep = k.rep;
    cr->level_cap = k.level_cap;
    cr->f = f;
    cr->leaf = leaf;
    cr->row_group = row_group;
    cr->codec = codec;
    const pq_column_chunk *cc = &f->meta.row_groups[row_group].columns[leaf->index];
    cr->cm = &cc->meta_data;
    cr->stored_width = stored_width_of(leaf->physical_type, leaf->type_length);
    cr->out_width = out_width_of(leaf->field);
    cr->convert = cr->stored_width != cr->out_width || leaf->field->type == HUDI_TYPE_DECIMAL ||
                  leaf->physical_type == PQ_INT96;
    /* Chunk start (§1.4): the dictionary offset when valid and earlier, else the data offset. */
    int64_t start = cr->cm->data_page_offset;
    if (cr->cm->has_dictionary_page_offset && cr->cm->dictionary_page_offset > 0 &&
        (cr->cm->dictionary_page_offset < start || start <= 0))
        start = cr->cm->dictionary_page_offset;
    int64_t len = cr->cm->total_compressed_size;
    if (start < 4 || len < 0 || start > f->footer_start)
        return col_error(cr, err, HUDI_ECORRUPT, "column chunk offset outside the file");
    if (len > f->footer_start - start) {
        /* PARQUET-816: old parquet-mr did not count the dictionary page header. */
        if (len - (f->footer_start - start) > 100)
            return col_error(cr, err, HUDI_ECORRUPT, "column chunk runs past the footer");
        len = f->footer_start - start;
    } else if (!f->meta.has_created_by || f->meta.created_by.len < 20) {
        len = HUDI_MIN(len + 100, f->footer_start - start);
    }
    cr->chunk_len = (size_t)len;
    int rc = hudi_file_view(f->file, start, (size_t)len, &cr->chunk, err);
    if (rc < 0) return rc;
    if (!cr->chunk) {
        if (grow_buffer(&cr->chunk_owned, &cr->chunk_cap, (size_t)len) < 0)
            return hudi_error_oom(err);
        if ((rc = hudi_file_read_at(f->file, start, cr->chunk_owned, (size_t)len, err)) < 0)
            return rc;
        cr->chunk = cr->chunk_owned;
    }
    return 0;
}

void hudi_pq_colreader_release(pq_colreader *cr) {
    hudi_free(cr->dict_values);
    hudi_free(cr->dict_offsets);
    hudi_free(cr->dict_data);
    cr->dict_values = cr->dict_data = NULL;
    cr->dict_offsets = NULL;
    if (cr->dba_live) hudi_pq_dba_dispose(&cr->dba);
    cr->dba_live = false;
    hudi_array_free(cr->trash);
    cr->trash = NULL;
}

void hudi_pq_colreader_dispose(pq_colreader *cr) {
    hudi_pq_colreader_release(cr);
    size_t level_bytes = (size_t)cr->level_cap * sizeof(int16_t);
    cache_give(cr->chunk_owned, cr->chunk_cap);
    cache_give(cr->def, level_bytes);
    cache_give(cr->rep, level_bytes);
    cache_give(cr->page_buf, cr->page_cap);
    cache_give(cr->scratch, cr->scratch_cap);
    memset(cr, 0, sizeof(*cr));
}

/* ---- skipping ------------------------------------------------------------------------------ */

/* A flat column's next page is a data page of at most `records` rows: step over it without
 * decompressing or decoding anything. Returns 1 when skipped, 0 when not possible here. */
static int skip_whole_page(pq_colreader *cr, int64_t records, int64_t *skipped, hudi_error *err) {
    hudi_arena arena = HUDI_ARENA_INIT;
    pq_page_header h;
    size_t hlen = 0;
    if (cr->entries_seen >= cr->cm->num_values || cr->pos >= cr->chunk_len) return 0;
    int rc = hudi_pq_decode_page_header(
        &h, &arena, HUDI_SLICE(cr->chunk + cr->pos, cr->chunk_len - cr->pos), &hlen, err);
    hudi_arena_dispose(&arena);
    if (rc < 0) return col_wrap(cr, err, rc);
    if (h.type == PQ_PAGE_DICTIONARY && !cr->has_dict && !cr->dict_pending && cr->data_pages == 0 &&
        h.compressed_page_size >= 0 && h.uncompressed_page_size >= 0 &&
        (size_t)h.compressed_page_size <= cr->chunk_len - cr->pos - hlen) {
        /* Stepped over; loaded only if a data page that uses it is decoded. */
        const uint8_t *payload = cr->chunk + cr->pos + hlen;
        if (h.has_crc && cr->f->opts.verify_crc &&
            (int32_t)hudi_crc32(0, payload, (size_t)h.compressed_page_size) != h.crc)
            return col_error(cr, err, HUDI_ECORRUPT, "page checksum mismatch");
        cr->dict_pending = true;
        cr->dict_pos = cr->pos;
        cr->pos += hlen + (size_t)h.compressed_page_size;
        *skipped = 0;
        return 1;
    }
    /* Entries and records of the page: the same without repetition; a v2 header also counts
     * the records of a repeated column (v2 pages start at record boundaries). */
    int64_t n = -1, rows = -1;
    if (h.type == PQ_PAGE_DATA && h.has_data_page_header) {
        n = h.data_page_header.num_values;
        rows = cr->leaf->max_rep == 0 ? n : -1;
    } else if (h.type == PQ_PAGE_DATA_V2 && h.has_data_page_header_v2) {
        n = h.data_page_header_v2.num_values;
        rows = cr->leaf->max_rep == 0 ? n : h.data_page_header_v2.num_rows;
    }
    if (n < 0 || rows < 0 || rows > records || h.compressed_page_size < 0 ||
        (size_t)h.compressed_page_size > cr->chunk_len - cr->pos - hlen)
        return 0; /* a dictionary page, or a page we must decode: let next_page handle it */
    cr->pos += hlen + (size_t)h.compressed_page_size;
    cr->entries_seen += n;
    cr->data_pages++;
    cr->pages_stepped++;
    *skipped = rows;
    return 1;
}

static int skip_now(pq_colreader *cr, int64_t records, hudi_error *err) {
    const pq_leaf *leaf = cr->leaf;
    int rc;
    if (records <= 0) return 0;
    if (!cr->trash) {
        /* Decoded-and-dropped rows land in a private array of the column's type. */
        if ((rc = hudi_array_new(&cr->trash, leaf->levels[0].field, err)) < 0) return rc;
    }
    while (records > 0) {
        if (!cr->page_loaded || cr->entry_pos == cr->n_entries) {
            int64_t n = 0;
            cr->page_loaded = false;
            if ((rc = skip_whole_page(cr, records, &n, err)) < 0) return rc;
            if (rc == 1) {
                records -= n;
                continue;
            }
            if (leaf->depth > 1) break; /* the rest is decoded and dropped below */
            if ((rc = next_page(cr, err)) < 0) return rc;
            if (rc == 0)
                return col_error(cr, err, HUDI_ECORRUPT,
                                 "column chunk has fewer values than the row group has rows");
            continue;
        }
        if (leaf->depth > 1) break;
        int64_t m = HUDI_MIN(cr->n_entries - cr->entry_pos, records);
        rc = emit_flat(cr, cr->trash, m, err);
        hudi_array_clear(cr->trash);
        if (rc < 0) return rc;
        cr->rows_trashed += m;
        records -= m;
    }
    if (records > 0) { /* nested: records through assembly into the trash */
        rc = hudi_pq_colreader_read(cr, cr->trash, records, err);
        hudi_array_clear(cr->trash);
        cr->rows_trashed += records;
        return rc;
    }
    return 0;
}

/* Skips are deferred and merged: a run of small skips (one per batch of a filtered scan) then
 * spans whole pages, which are stepped over instead of decompressed, and a skip that runs to
 * the end of the row group is never done at all. */
int hudi_pq_colreader_skip(pq_colreader *cr, int64_t records, hudi_error *err) {
    (void)err;
    if (records > 0) cr->skip_pending += records;
    return 0;
}

void hudi_pq_colreader_finish(pq_colreader *cr) {
    hudi_error ignored = HUDI_ERROR_INIT;
    /* Count the pages the pending skip leaves behind unread (headers only). */
    if (cr->skip_pending > 0 && cr->page_loaded && cr->leaf->max_rep == 0 &&
        cr->n_entries - cr->entry_pos <= cr->skip_pending) {
        cr->skip_pending -= cr->n_entries - cr->entry_pos; /* the rest of the loaded page */
        cr->entry_pos = cr->n_entries;
    }
    while (cr->skip_pending > 0 && (!cr->page_loaded || cr->entry_pos == cr->n_entries)) {
        int64_t n = 0;
        cr->page_loaded = false;
        if (skip_whole_page(cr, cr->skip_pending, &n, &ignored) != 1) break;
        cr->skip_pending -= n;
    }
    cr->skip_pending = 0;
}
