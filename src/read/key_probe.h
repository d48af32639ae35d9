/* key_probe.h - skipping base files by record key (docs/formats/base-files.md §2, §4): a point
 * query (`_hoodie_record_key = 'k'`, or an equality on the record key field of a table whose
 * record keys are that field's value) probes each base file's footer before reading a page -
 * the hoodie_min_record_key / hoodie_max_record_key range, then the Hudi bloom filter - and a
 * file that can hold none of the wanted keys is skipped.
 *
 * The record key equals the field's text only for one record key field under the simple or
 * non-partitioned key generator (docs/formats/keys.md §2, §4, §7) with meta fields populated;
 * string fields are their bytes, integer fields their decimal text. For every other table a
 * probe stays inactive and skips nothing. A probe only ever skips files: the rows of the files
 * read are still filtered by the predicates themselves. The footer describes the base file
 * alone: a reader that merges log files into a slice must not skip the slice by it. */
#ifndef HUDI_READ_KEY_PROBE_H
#define HUDI_READ_KEY_PROBE_H

#include "format/parquet/parquet.h"
#include "table/tbl.h"

typedef struct hudi_key_probe {
    char *key_field;       /* the record key field when keys are its text, else NULL (owned) */
    hudi_type_id key_type; /* its type in the table schema */
    bool meta;             /* _hoodie_record_key may be probed (meta fields populated) */
    char **keys;           /* the wanted keys (owned, NUL-terminated); NULL = inactive */
    size_t *lens;
    int32_t n_keys;
} hudi_key_probe;

#define HUDI_KEY_PROBE_INIT                                                                        \
    { NULL, HUDI_TYPE_NULL, false, NULL, NULL, 0 }

/* Decides from the table config and the table schema `full` (a STRUCT) which columns can
 * restrict keys. `kp` must be initialised (HUDI_KEY_PROBE_INIT); dispose it in every case. */
int hudi_key_probe_init(hudi_key_probe *kp, const hudi_table_config *cfg, const hudi_field *full,
                        hudi_error *err);

/* A predicate `column` = one of `values` (n of them: 1 for '=', more for IN). Ignored unless
 * the column is _hoodie_record_key or the key field; otherwise the wanted keys become these
 * (when there are none yet or these are fewer: the predicates are ANDed, either set is a valid
 * restriction). A null value in the list is ignored; an empty key (never written by Hudi)
 * makes the predicate unusable for probing. */
int hudi_key_probe_add(hudi_key_probe *kp, const char *column, const hudi_value *values, int32_t n,
                       hudi_error *err);

/* Whether the probe restricts keys. */
static inline bool hudi_key_probe_active(const hudi_key_probe *kp) { return kp->keys != NULL; }

/* True when the footer of `pf` proves that none of the wanted keys is in the file: all
 * outside its min/max key range, or all rejected by its bloom filter. A file without these
 * footer entries, or whose filter does not parse (a Jenkins-hash filter, a damaged value), is
 * never skipped: it is read as without probing. */
bool hudi_key_probe_file(const hudi_key_probe *kp, const hudi_pq_file *pf);

void hudi_key_probe_dispose(hudi_key_probe *kp);

#endif
