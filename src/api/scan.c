/* scan.c - public scans (include/hudi/hudi_table.h): options checked, then handed as they are to
 * the read layer (which takes hudi_scan_options itself and parses the filter), and batches moved
 * out as an Arrow C stream. Invariant: the table a scan reads must outlive it. */
#include "api/api.h"
#include "columnar/arrow_c.h"
#include "read/cdc.h"

struct hudi_scan {
    hudi_table *table; /* borrowed */
    hudi_reader *r;
};

int hudi_scan_open(hudi_scan **out, hudi_table *t, const hudi_scan_options *opts, hudi_error *err) {
    hudi_scan_options dflt = HUDI_SCAN_OPTIONS_INIT;
    hudi_scan *s = NULL;
    int rc;
    if (!out) return hudi_error_set(err, HUDI_EINVAL, "hudi_scan_open: out is NULL");
    *out = NULL;
    if (!t) return hudi_error_set(err, HUDI_EINVAL, "hudi_scan_open: no table");
    if (!opts) opts = &dflt;
    if (opts->version != HUDI_SCAN_OPTIONS_VERSION)
        return hudi_error_set(err, HUDI_EINVAL, "hudi_scan_open: options version %d, expected %d",
                              opts->version, HUDI_SCAN_OPTIONS_VERSION);
    if (opts->n_columns < 0 || (opts->n_columns > 0 && !opts->columns) || opts->batch_rows < 0)
        return hudi_error_set(err, HUDI_EINVAL, "%s: bad column list or batch size", t->base_path);
    if (opts->as_of_instant && (opts->begin_instant || opts->end_instant))
        return hudi_error_set(err, HUDI_EINVAL,
                              "%s: a scan is either as of an instant or incremental, not both",
                              t->base_path);
    if (!(s = hudi_calloc(1, sizeof(*s)))) return hudi_error_oom(err);
    s->table = t;
    if ((rc = hudi_reader_open(&s->r, t, opts, err)) < 0) {
        hudi_scan_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

const char *hudi_scan_warning(const hudi_scan *s) { return s ? hudi_reader_warning(s->r) : NULL; }

void hudi_scan_free(hudi_scan *s) {
    if (!s) return;
    hudi_reader_free(s->r);
    hudi_free(s);
}

/* Stream producer: moves the reader's batch (which the reader keeps and reuses) into a batch
 * the stream owns by swapping column arrays; the reader frees the swapped-in empty ones. */
static int scan_next(void *payload, hudi_batch **out, hudi_error *err) {
    hudi_scan *s = payload;
    hudi_batch *rb = NULL, *nb = NULL;
    int rc;
    *out = NULL;
    for (;;) {
        if ((rc = hudi_reader_next(s->r, &rb, err)) < 0 || !rb) return rc;
        if (rb->num_rows > 0) break; /* a consumer gains nothing from empty batches */
    }
    if ((rc = hudi_batch_new(&nb, rb->schema, err)) < 0) return rc;
    for (int32_t i = 0; i < nb->n_columns; i++) {
        hudi_array *tmp = nb->columns[i];
        nb->columns[i] = rb->columns[i];
        rb->columns[i] = tmp;
    }
    nb->num_rows = rb->num_rows;
    rb->num_rows = 0;
    *out = nb;
    return 0;
}

static void scan_release(void *payload) { hudi_scan_free(payload); }

int hudi_scan_to_arrow(hudi_scan *scan, struct ArrowArrayStream *out, hudi_error *err) {
    if (!scan) return hudi_error_set(err, HUDI_EINVAL, "hudi_scan_to_arrow: no scan");
    if (!out) {
        hudi_scan_free(scan);
        return hudi_error_set(err, HUDI_EINVAL, "hudi_scan_to_arrow: out is NULL");
    }
    int rc =
        hudi_arrow_stream_new(out, hudi_reader_schema(scan->r), scan_next, scan_release, scan, err);
    if (rc < 0) hudi_scan_free(scan); /* consumed in every case, as documented */
    return rc;
}

/* ---- change data capture ------------------------------------------------------------------ */

typedef struct cdc_stream {
    hudi_cdc_rows rows;
    size_t next;
} cdc_stream;

static int cdc_next(void *payload, hudi_batch **out, hudi_error *err) {
    (void)err;
    cdc_stream *s = payload;
    *out = NULL;
    if (s->next < s->rows.count) {
        *out = s->rows.batches[s->next];
        s->rows.batches[s->next++] = NULL; /* the stream owns it now */
    }
    return 0;
}

static void cdc_release(void *payload) {
    cdc_stream *s = payload;
    hudi_cdc_rows_dispose(&s->rows);
    hudi_free(s);
}

int hudi_table_cdc(hudi_table *t, const char *begin, const char *end, struct ArrowArrayStream *out,
                   hudi_error *err) {
    if (!t || !out) return hudi_error_set(err, HUDI_EINVAL, "hudi_table_cdc: no table or stream");
    cdc_stream *s = hudi_calloc(1, sizeof(*s));
    if (!s) return hudi_error_oom(err);
    int rc = hudi_cdc_read(&s->rows, t, begin, end, err);
    if (rc == 0) rc = hudi_arrow_stream_new(out, &s->rows.schema, cdc_next, cdc_release, s, err);
    if (rc < 0) cdc_release(s);
    return rc;
}
