/* stats.h - Parquet column statistics: which writers to distrust (created_by), how to
 * compare PLAIN-encoded bounds per column order, and the writer's min/max accumulators
 * (docs/formats/parquet.md §5.5, §6.1-6.4, §8 items 2-3).
 *
 * Invariant: a bound handed out by hudi_pq_stats_view_init has been checked against its sort
 * kind (right width, not NaN under TYPE_ORDER, not from a distrusted writer), so
 * hudi_pq_stats_compare can read it without further checks; anything doubtful is dropped,
 * never guessed. Accumulators exclude NaNs and nulls from min/max and count them. */
#ifndef HUDI_PQ_STATS_H
#define HUDI_PQ_STATS_H

#include "base/base.h"
#include "format/parquet/meta.h"

/* ---- who wrote the file ------------------------------------------------------------------ */

enum {
    PQ_APP_OTHER = 0,
    PQ_APP_PARQUET_MR,
    PQ_APP_PARQUET_CPP,
    PQ_APP_PARQUET_CPP_ARROW,
    PQ_APP_PARQUET_RS,
    PQ_APP_DUCKDB,
    PQ_APP_IMPALA,
    PQ_APP_HUDIC
};

/** FileMetaData.created_by, parsed tolerantly as
 *  `<application>[ version [v]<major>[.<minor>[.<patch>]][<suffix>]][ (build <hash>)]`. */
typedef struct pq_writer_version {
    bool present;        /* created_by present and not blank */
    int app;             /* PQ_APP_* (exact, case-sensitive application names) */
    hudi_slice app_name; /* text before " version" (or all of it), trimmed; borrowed */
    bool has_version;    /* at least a major number followed " version" */
    int32_t major, minor, patch;
    bool pre_release; /* a "-SNAPSHOT"-style suffix: orders before the release itself */
} pq_writer_version;

/** Parses `created_by` (pass has = false when the field is absent). Never fails: every
 *  part that cannot be parsed is reported absent. The result borrows `created_by`. */
void hudi_pq_writer_version_parse(pq_writer_version *out, bool has, hudi_slice created_by);

/** True when `v` is known to be older than major.minor.patch, or its version is missing
 *  or unparsable (then the caller should assume the old, buggy behaviour). */
bool hudi_pq_writer_version_older(const pq_writer_version *v, int32_t major, int32_t minor,
                                  int32_t patch);

/* ---- how to compare bounds ------------------------------------------------------------------ */

/** Sort kinds: how two PLAIN values of a column compare (§6.2). */
enum {
    PQ_SORT_NONE = 0,    /* undefined order (INT96 under TYPE_ORDER, INTERVAL, ...): no bounds */
    PQ_SORT_BOOL,        /* 1 byte, false < true */
    PQ_SORT_INT32,       /* 4 bytes LE, signed */
    PQ_SORT_UINT32,      /* 4 bytes LE, unsigned (UINT_8/16/32, INT(n,false)) */
    PQ_SORT_INT64,       /* 8 bytes LE, signed */
    PQ_SORT_UINT64,      /* 8 bytes LE, unsigned */
    PQ_SORT_FLOAT,       /* 4 bytes LE, numeric (-0 == +0) */
    PQ_SORT_DOUBLE,      /* 8 bytes LE, numeric */
    PQ_SORT_FLOAT16,     /* 2 bytes LE (FLBA(2) FLOAT16), numeric */
    PQ_SORT_BYTES,       /* unsigned lexicographic, shorter prefix first */
    PQ_SORT_DECIMAL,     /* big-endian two's complement, any lengths (FLBA and BYTE_ARRAY) */
    PQ_SORT_INT96,       /* INT96_TIMESTAMP_ORDER: signed day, then signed nanos */
    PQ_SORT_FLOAT_TOTAL, /* IEEE_754_TOTAL_ORDER: -NaN < -inf < .. < -0 < +0 < .. < +NaN */
    PQ_SORT_DOUBLE_TOTAL,
    PQ_SORT_FLOAT16_TOTAL,
};

/* column_order argument when FileMetaData.column_orders is absent: treated as TYPE_ORDER,
 * as parquet-mr and arrow-cpp do (every writer that wrote min_value also wrote orders). */
#define PQ_STATS_ORDER_ABSENT (-1)

/** The sort kind of a leaf under `column_order` (PQ_ORDER_* or PQ_STATS_ORDER_ABSENT).
 *  The LogicalType wins over the ConvertedType; unknown annotations degrade to the physical
 *  type. Unknown orders, or an order that does not apply to the type, give PQ_SORT_NONE. */
int hudi_pq_stats_sort_kind(const pq_schema_element *leaf, int column_order);

/** Three-way compare (<0, 0, >0) of two PLAIN values of sort kind `kind`. Floats under
 *  TYPE_ORDER: -0 == +0 and NaN sorts above everything (bounds never hold NaN after
 *  hudi_pq_stats_view_init). Values of the wrong width fall back to a byte compare (no UB). */
int hudi_pq_stats_compare(int kind, hudi_slice a, hudi_slice b);

/** True when `v` is a NaN of float kind PQ_SORT_FLOAT/DOUBLE/FLOAT16 (false for other kinds or
 *  a value too short for the kind). */
bool hudi_pq_stats_is_nan(int kind, hudi_slice v);

/* ---- reading: the usable part of a Statistics struct ------------------------------------------
 */

typedef struct pq_stats_view {
    int kind;                  /* PQ_SORT_*: compare min/max (and predicate constants) with this */
    bool has_min, has_max;     /* false: that bound is unusable (may be one-sided) */
    hudi_slice min, max;       /* PLAIN bytes, borrowed from the statistics (or static constants) */
    bool min_exact, max_exact; /* the bound is an actual value (else truncated/widened) */
    bool has_null_count;       /* absent means unknown, not 0 */
    int64_t null_count;
    bool has_nan_count;
    int64_t nan_count;
} pq_stats_view;

/** Applies the trust rules of §6.1-6.3 to `st` (may be NULL: nothing usable):
 *  min_value/max_value when present (per the column order), else the deprecated min/max only
 *  for signed-order kinds or when min == max, and for BYTE_ARRAY/FLBA only if the writer is
 *  not parquet-mr < 1.8.0 (PARQUET-251) and created_by is present (PARQUET-297); NaN bounds
 *  drop both bounds; float zero bounds are widened (+0 min -> -0, -0 max -> +0); bounds of
 *  the wrong width are dropped; negative counts are treated as absent. */
void hudi_pq_stats_view_init(pq_stats_view *out, const pq_writer_version *writer,
                             const pq_schema_element *leaf, int column_order,
                             const pq_statistics *st);

/* ---- writing: running min/max per column chunk or page ------------------------------------------
 */

typedef union pq_stats_scalar {
    int64_t i;  /* INT32 (sign-extended), INT64, BOOL */
    uint64_t u; /* UINT32, UINT64, FLOAT16 bits */
    float f;
    double d;
} pq_stats_scalar;

typedef struct pq_stats_acc {
    int kind;                /* PQ_SORT_* under TYPE_ORDER */
    uint32_t truncate_bytes; /* BYTE_ARRAY bounds longer than this are truncated; 0 = never */
    bool utf8;               /* STRING/ENUM/JSON: truncate at code-point boundaries */
    bool has_minmax;         /* some non-null, non-NaN value was seen */
    int64_t null_count, nan_count;
    pq_stats_scalar min, max;
    bool var_len; /* byte bounds came from BYTE_ARRAY values (truncation allowed) */
    hudi_buf min_bytes, max_bytes; /* byte kinds: exact current bounds (owned) */
    /* Output storage for hudi_pq_stats_acc_finish (valid until the next call on the acc). */
    uint8_t out_min[8], out_max[8];
    hudi_buf out_min_bytes, out_max_bytes;
} pq_stats_acc;

/** Prepares an accumulator for `leaf` (TYPE_ORDER). `truncate_bytes` applies to BYTE_ARRAY
 *  bounds only (FLBA and decimals are never truncated); 0 keeps them whole. */
void hudi_pq_stats_acc_init(pq_stats_acc *acc, const pq_schema_element *leaf,
                            uint32_t truncate_bytes);
/** Forgets all values (keeps memory), e.g. for the next page. */
void hudi_pq_stats_acc_reset(pq_stats_acc *acc);
void hudi_pq_stats_acc_dispose(pq_stats_acc *acc);

static inline void pq_stats_add_nulls(pq_stats_acc *acc, int64_t n) { acc->null_count += n; }

/* Dense (non-null) values. Each is one tight loop over the batch; the kind is switched on
 * once per call. INT32/INT64 honour UINT kinds; floats skip and count NaNs. */
void hudi_pq_stats_update_i32(pq_stats_acc *acc, const int32_t *v, size_t n);
void hudi_pq_stats_update_i64(pq_stats_acc *acc, const int64_t *v, size_t n);
void hudi_pq_stats_update_float(pq_stats_acc *acc, const float *v, size_t n);
void hudi_pq_stats_update_double(pq_stats_acc *acc, const double *v, size_t n);
/** Booleans bit-packed LSB first (Arrow layout), bits [bit_offset, bit_offset + n). */
void hudi_pq_stats_update_bool(pq_stats_acc *acc, const uint8_t *bits, size_t bit_offset, size_t n);
/** FLBA values, `width` bytes each: BYTES, DECIMAL or FLOAT16 (NaN skipped) kinds. */
int hudi_pq_stats_update_fixed(pq_stats_acc *acc, const uint8_t *v, size_t width, size_t n,
                               hudi_error *err);
/** BYTE_ARRAY values in Arrow layout: value i is data[offsets[i], offsets[i+1]). */
int hudi_pq_stats_update_binary(pq_stats_acc *acc, const int32_t *offsets, const uint8_t *data,
                                size_t n, hudi_error *err);
/** BYTE_ARRAY values given as dictionary entries: the entries `ix[0..n)` index, entry e being
 *  plain[offs[e] + 4, + its u32le length) (a PLAIN-encoded dictionary). Same bounds as the
 *  values themselves; an entry is compared only where it differs from the previous value and
 *  from the entries holding the bounds, so a column of few values costs no byte compares. */
int hudi_pq_stats_update_dict_bytes(pq_stats_acc *acc, const uint32_t *ix, size_t n,
                                    const uint8_t *plain, const uint32_t *offs, hudi_error *err);
/** Folds `from` (e.g. a page) into `into` (e.g. the chunk). Same kind required. */
int hudi_pq_stats_merge(pq_stats_acc *into, const pq_stats_acc *from, hudi_error *err);

/** Fills `out` (zeroed first): null_count always; nan_count for float kinds;
 *  min_value/max_value (with -0.0 as a zero min, +0.0 as a zero max, byte bounds truncated
 *  and is_*_value_exact set) when any value was seen and, for float kinds, no NaN was (as
 *  parquet-mr does: Spark sorts NaN above all numbers, so NaN-free bounds would mislead its
 *  pushed-down filters); the deprecated min/max too for signed-order kinds (§7.3). Slices point
 * into `acc` and stay valid until it changes. */
int hudi_pq_stats_acc_finish(pq_stats_acc *acc, pq_statistics *out, hudi_error *err);

/* Exposed for tests and the page index: truncation of one byte-array bound (§6.4).
 * Appends the bound to `out` and sets *exact; when it cannot be shortened the whole value
 * is appended (exact). */
void hudi_pq_stats_truncate_min(hudi_buf *out, hudi_slice v, uint32_t limit, bool utf8,
                                bool *exact);
void hudi_pq_stats_truncate_max(hudi_buf *out, hudi_slice v, uint32_t limit, bool utf8,
                                bool *exact);

#endif
