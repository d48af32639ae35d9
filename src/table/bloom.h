/* bloom.h - Hudi's record-key bloom filter (docs/formats/base-files.md §4): Hadoop's BloomFilter
 * with Hadoop's MurmurHash (Java semantics), in Hudi's SIMPLE and DYNAMIC_V0
 * ("HoodieDynamicBoundedBloomFilter") forms, serialized byte-exactly as Java's DataOutputStream
 * writes them and stored as standard Base64 in the Parquet footer of every base file.
 *
 * Not Parquet's split-block bloom filter (format/parquet/bloom.h): a different structure. */
#ifndef HUDI_TABLE_BLOOM_H
#define HUDI_TABLE_BLOOM_H

#include "columnar/columnar.h"
#include "format/parquet/parquet.h"

/* Footer keys (base-files.md §2). The type-code key uses underscores; absent means SIMPLE. */
#define HUDI_BLOOM_FOOTER_KEY "org.apache.hudi.bloomfilter"
#define HUDI_BLOOM_FOOTER_KEY_LEGACY "com.uber.hoodie.bloomfilter"
#define HUDI_BLOOM_TYPE_FOOTER_KEY "hoodie_bloom_filter_type_code"

/* Hudi's defaults (base-files.md §4.3): hoodie.index.bloom.num_entries, .fpp, dynamic max
 * entries. */
#define HUDI_BLOOM_DEFAULT_ENTRIES 60000
#define HUDI_BLOOM_DEFAULT_FPP 0.000000001
#define HUDI_BLOOM_DEFAULT_MAX_ENTRIES 100000

typedef enum hudi_bloom_type {
    HUDI_BLOOM_SIMPLE = 0,
    HUDI_BLOOM_DYNAMIC_V0 = 1,
} hudi_bloom_type;

/** A filter: one row (SIMPLE) or rows of standard filters (DYNAMIC_V0), all with the same
 *  vector size and hash count. Fields are readable; change them only through the calls. */
typedef struct hudi_bloom {
    hudi_bloom_type type;
    int32_t num_hashes;      /* K */
    int32_t vector_bits;     /* V */
    int32_t entries_per_row; /* nr (DYNAMIC_V0) */
    int32_t max_entries;     /* maxNr (DYNAMIC_V0; not serialized: 0 after parsing, as Java) */
    int32_t current_count;   /* currentNbRecord (DYNAMIC_V0) */
    int32_t n_rows;
    uint8_t **rows;    /* n_rows bit vectors of ceil(V/8) bytes, bit i = byte i/8, LSB first */
    bool reached_max;  /* DYNAMIC_V0 writer state (not serialized) */
    int32_t cur_index; /* round-robin row once reached_max */
} hudi_bloom;

/** Hadoop's MurmurHash (base-files.md §4.1): 32-bit MurmurHash2, tail bytes sign-extended. */
int32_t hudi_murmur_hadoop(const void *data, size_t len, int32_t seed);

/** Hudi's sizing (base-files.md §4.3): bits = ceil(n * (-ln fpp / ln²2)),
 *  hashes = ceil(ln 2 * bits / n). EINVAL for n < 1, fpp outside (0, 1) or a size beyond
 *  INT32_MAX. */
int hudi_bloom_size(int32_t num_entries, double fpp, int32_t *vector_bits, int32_t *num_hashes,
                    hudi_error *err);

/** A new empty filter sized for `num_entries` at `fpp` (per row for DYNAMIC_V0, which grows
 *  rows up to `max_entries` keys and then reuses them; ignored for SIMPLE). */
int hudi_bloom_new(hudi_bloom **out, hudi_bloom_type type, int32_t num_entries, double fpp,
                   int32_t max_entries, hudi_error *err);
/** Same with explicit vector size and hash count (to rebuild a parsed filter's twin). */
int hudi_bloom_new_sized(hudi_bloom **out, hudi_bloom_type type, int32_t vector_bits,
                         int32_t num_hashes, int32_t entries_per_row, int32_t max_entries,
                         hudi_error *err);
void hudi_bloom_free(hudi_bloom *bf); /* NULL-safe */

/** Adds one key (UTF-8 bytes). EINVAL for an empty key (Hudi throws), ENOMEM when a
 *  DYNAMIC_V0 row cannot be added. */
int hudi_bloom_add(hudi_bloom *bf, const void *key, size_t len, hudi_error *err);
/** Adds keys[0..n) in order: the same filter as n hudi_bloom_add calls (and the same error at
 *  the first empty key, the keys before it added), hashing several keys at once. */
int hudi_bloom_add_many(hudi_bloom *bf, const hudi_slice *keys, size_t n, hudi_error *err);
/** Adds every non-null value of a STRING/BINARY array, in row order. EINVAL naming the row
 *  for an empty key, or for another array type. */
int hudi_bloom_add_array(hudi_bloom *bf, const hudi_array *keys, hudi_error *err);
/** True if the key may be present (any row has all K bits). */
bool hudi_bloom_test(const hudi_bloom *bf, const void *key, size_t len);

/** Appends the Java DataOutput bytes (base-files.md §4.4-4.6) / their standard Base64 to `out`. */
int hudi_bloom_serialize(const hudi_bloom *bf, hudi_buf *out, hudi_error *err);
int hudi_bloom_to_base64(const hudi_bloom *bf, hudi_buf *out, hudi_error *err);

/** Parses serialized bytes of the given type. ECORRUPT naming what is wrong (bad version,
 *  sizes, truncation, trailing bytes); EUNSUPPORTED for a non-Murmur (Jenkins) filter. */
int hudi_bloom_parse(hudi_bloom **out, hudi_bloom_type type, hudi_slice bytes, hudi_error *err);
/** Whether any of keys[0..n) may be in the Base64 text of a serialized filter of `type`,
 *  without decoding the whole filter: only the header, the row headers and the Base64 quads
 *  holding the keys' bits are decoded (a point query probes a few keys of a filter of hundreds
 *  of KB). The same answer as hudi_bloom_parse_base64 + hudi_bloom_test; HUDI_ECORRUPT where
 *  the parse would fail on the shape (header, sizes, a bad character in the bytes read; bad
 *  characters elsewhere are not seen). */
int hudi_bloom_probe_base64(hudi_bloom_type type, hudi_slice b64, const hudi_slice *keys, size_t n,
                            bool *maybe, hudi_error *err);
/** Parses the Base64 footer value. */
int hudi_bloom_parse_base64(hudi_bloom **out, hudi_bloom_type type, hudi_slice b64,
                            hudi_error *err);
/** Reads the filter from a base file footer (new key, then the legacy one; type code absent =
 *  SIMPLE). ENOTFOUND when the file has none (e.g. populate.meta.fields=false). */
int hudi_bloom_from_footer(hudi_bloom **out, const hudi_pq_file *f, hudi_error *err);

/** Whether `bf` (parsed) is exactly the filter hudi_bloom_new(type, num_entries, fpp,
 *  max_entries) becomes once `n_keys` keys are added, given that they are the keys `bf` was
 *  built from, in the same order: the same type, vector size, hash count and entries per row,
 *  and for DYNAMIC_V0 the row count and current count that many keys leave behind. Then `bf`
 *  takes the writer state the serialized form leaves out (max_entries, and past the maximum
 *  the round-robin row, which follows from the count) and adding keys to it continues that
 *  filter: a compaction that keeps a base file's keys reuses the base file's filter instead of
 *  hashing every key again. */
bool hudi_bloom_continues(hudi_bloom *bf, hudi_bloom_type type, int32_t num_entries, double fpp,
                          int32_t max_entries, int64_t n_keys);

/** "SIMPLE" / "DYNAMIC_V0"; parse returns EINVAL for another name. */
const char *hudi_bloom_type_name(hudi_bloom_type t);
int hudi_bloom_type_parse(hudi_bloom_type *out, const char *name, size_t len, hudi_error *err);

#endif
