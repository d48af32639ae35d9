/* schema.h - Parquet schema elements <-> hudi_field trees, and the per-leaf "level plans"
 * that drive Dremel assembly (assemble.c, reader) and shredding (shred.c, writer).
 * docs/formats/parquet.md §1.3, §4, §5.
 *
 * Key invariant: every leaf column carries the chain of hudi nodes from its top-level column
 * down to the leaf with the definition/repetition thresholds of §4.4, so assembly and
 * shredding never look at schema elements again. Each nested node on a chain is "owned" by the
 * first leaf (in pre-order) below it: only that leaf writes the node's length, validity and
 * offsets; other leaves below it write only their own leaf slots. */
#ifndef HUDI_PQ_SCHEMA_H
#define HUDI_PQ_SCHEMA_H

#include "columnar/columnar.h"
#include "format/parquet/meta.h"

#define PQ_SCHEMA_MAX_DEPTH 100 /* nesting of schema elements below the root */

enum { PQ_NODE_LEAF = 0, PQ_NODE_STRUCT = 1, PQ_NODE_LIST = 2 /* LIST or MAP */ };

/* One hudi node on a leaf's path (the file's root struct excluded). For an entry (rep, def)
 * of the leaf column (§4.4):
 *   a new slot of the node starts      iff rep <= rep_slot and def >= def_slot;
 *   that slot is non-null              iff def >= def_valid  (def_valid = D(N));
 *   a null slot of a nullable node is written as def = def_valid - 1;
 *   LIST/MAP: the slot's list gets a new element iff rep <= rep_elem and def >= def_elem
 *   (def_elem = D(R), rep_elem = Rp(R) of the repeated group R), and a non-null slot with
 *   def < def_elem is an empty list.
 * For a node's child: def_slot = def_slot of a struct parent (Arrow layout: struct children
 * have a slot, null, for each null struct slot, whatever their own nullability) or def_elem of
 * a list parent; rep_slot = rep_slot (struct parent) or rep_elem (list parent). */
typedef struct pq_level {
    const hudi_field *field; /* the node's field in pq_schema.root */
    uint8_t kind;            /* PQ_NODE_* */
    bool nullable;
    bool owned; /* this leaf is the first leaf below the node */
    int16_t def_slot, def_valid, def_elem;
    int16_t rep_slot, rep_elem;
    int32_t child;      /* index of the next node among this node's array children */
    int32_t null_child; /* STRUCT: a child with no leaf (MAP without value field) that the
                           owner fills with nulls; -1 when none */
} pq_level;

/* One leaf column (RowGroup.columns[index]). */
typedef struct pq_leaf {
    int32_t index;                    /* leaf number, pre-order */
    int32_t column;                   /* top-level column (child of the root) it belongs to */
    const pq_schema_element *element; /* borrowed from the element array given to read */
    int32_t physical_type;            /* PQ_BOOLEAN.. */
    int32_t type_length;              /* FLBA width, else 0 */
    int16_t max_def, max_rep;
    int32_t path_len;
    hudi_slice *path;        /* element names below the root (path_in_schema) */
    int32_t depth;           /* number of levels */
    pq_level *levels;        /* levels[0] = top-level column, levels[depth-1] = leaf */
    const hudi_field *field; /* == levels[depth-1].field */
} pq_leaf;

typedef struct pq_schema_read_options {
    bool binary_as_string; /* unannotated BYTE_ARRAY -> STRING (Spark binaryAsString) */
} pq_schema_read_options;
#define PQ_SCHEMA_READ_OPTIONS_INIT                                                                \
    { false }

typedef struct pq_schema {
    hudi_field root; /* STRUCT named like the root element; children = columns */
    int32_t n_leaves;
    pq_leaf *leaves;
    int32_t *column_leaves; /* n_columns + 1 entries: leaves of column c are
                               [column_leaves[c], column_leaves[c + 1]) */
    hudi_arena arena;       /* leaves, levels, paths */
} pq_schema;

/* Builds the hudi_field tree and the leaf plans from FileMetaData.schema (pre-order, element
 * 0 = root). `elems` must outlive `out` (leaves point at elements and their names). Mapping
 * choices (§5.1):
 *   - LogicalType first, ConvertedType fallback, physical type last; an unknown LogicalType
 *     member degrades; an annotation on a physical type it cannot apply to is ECORRUPT (as
 *     arrow-cpp, which refuses such schemas); unknown TimeUnit or DECIMAL precision > 38 is
 *     EUNSUPPORTED naming the column.
 *   - UNKNOWN (null) logical type -> HUDI_TYPE_NULL, always nullable (assembly yields nulls).
 *   - MAP without a value field -> the entries struct gets a nullable NULL-typed "value" child.
 *   - LIST rule 3 with an unannotated repeated group R: R is the element, converted like any
 *     group (a struct whose single repeated field is a list).
 * On failure `out` is left disposed (safe to call hudi_pq_schema_dispose). */
int hudi_pq_schema_read(pq_schema *out, const pq_schema_element *elems, int32_t n,
                        const pq_schema_read_options *opts, hudi_error *err);
void hudi_pq_schema_dispose(pq_schema *s);

typedef struct pq_schema_write_options {
    bool two_level_lists;  /* parquet-avro `repeated <T> array` for non-null elements */
    bool decimal_as_flba;  /* always FLBA(minBytes), as parquet-avro / Spark legacy */
    bool int96_timestamps; /* TIMESTAMP fields hinted HUDI_HINT_INT96 are written as INT96 */
} pq_schema_write_options;
#define PQ_SCHEMA_WRITE_OPTIONS_INIT                                                               \
    { false, false, false }

/* Flattens a STRUCT `root` into schema elements (pre-order, element 0 = root) with
 * LogicalType + ConvertedType (+ scale/precision, type_length) per §4.5, §4.6, §5, §7.2.
 * Lists are written `list`/`element`, maps `key_value`/`key`/`value` whatever the hudi names;
 * NULL-typed fields are written OPTIONAL INT32 with LogicalType UNKNOWN. The array and names
 * live in `arena`. EINVAL for shapes Parquet cannot hold (empty struct, bad decimal). */
int hudi_pq_schema_write(pq_schema_element **out, int32_t *n_out, hudi_arena *arena,
                         const hudi_field *root, const pq_schema_write_options *opts,
                         hudi_error *err);

/* Minimal FLBA width for a decimal precision 1..38 (§5.2). */
int32_t hudi_pq_decimal_min_bytes(int32_t precision);

/* The leaf's array inside a top-level column array built from pq_schema.root's children. */
static inline hudi_array *pq_leaf_array(hudi_array *column, const pq_leaf *leaf) {
    hudi_array *a = column;
    for (int32_t i = 0; i + 1 < leaf->depth; i++) a = a->children[leaf->levels[i].child];
    return a;
}

/* ---- assembly (assemble.c): levels + dense values -> nested arrays ----------------------
 *
 * Per page (or any run of entries) of one leaf column:
 *   1. decode rep/def levels (n entries; NULL when max_rep / max_def is 0);
 *   2. hudi_pq_assemble_reserve(column, leaf, n, &leaf_array): room for n more slots on the leaf
 *      and every node the leaf owns;
 *   3. decode the page's n_values non-null values DENSELY into leaf_array starting at slot
 *      leaf_array->length (fixed width: values + length * width; bool: bits from `length`;
 *      string/binary: bytes appended at data + data_len (grow data yourself), data_len
 *      advanced, absolute end offsets in offsets[length + 1 .. length + n_values]);
 *      leave `length` alone;
 *   4. hudi_pq_assemble_leaf(...) spaces the values to their slots and appends slots, validity and
 *      offsets. Calls may split a record (v1 pages): all state lives in the arrays.
 * Leaves may be assembled in any order; a column is complete when all its leaves are. */
int hudi_pq_assemble_reserve(hudi_array *column, const pq_leaf *leaf, int64_t n_entries,
                             hudi_array **leaf_array, hudi_error *err);

/* `starts_record`: the entries must begin a record (first page of a chunk, v2 pages, pages
 * under an OffsetIndex) so rep[0] must be 0. Validates def <= max_def, rep <= max_rep,
 * n_values == number of entries with def == max_def, level consistency (a repeat needs a
 * present list), ECORRUPT naming the column. */
int hudi_pq_assemble_leaf(hudi_array *column, const pq_leaf *leaf, const int16_t *def,
                          const int16_t *rep, int64_t n, int64_t n_values, bool starts_record,
                          hudi_error *err);

/* ---- shredding (shred.c): nested arrays -> levels + value positions ---------------------- */

/* A run of consecutive leaf slots holding non-null values, in leaf-array indices. */
typedef struct pq_value_run {
    int64_t start, len;
} pq_value_run;

/* Output for one leaf, caller-owned and reused across batches (buffers only grow).
 * Each hudi_pq_shred_leaf call REPLACES the contents. */
typedef struct pq_shredded {
    int16_t *def; /* n_levels entries; NULL/unused when max_def == 0 */
    int16_t *rep; /* n_levels entries; NULL/unused when max_rep == 0 */
    int64_t n_levels;
    pq_value_run *runs; /* non-null values in order; gather these to get the dense stream */
    int64_t n_runs;
    int64_t n_values;       /* total length of the runs */
    int64_t *record_starts; /* max_rep > 0: entry index of each row's first entry (rep == 0),
                               n_records entries; with max_rep == 0 entry i is row i */
    int64_t n_records;
    bool no_nulls; /* every def == max_def (writer may emit one RLE run) */
    int64_t level_cap, run_cap, record_cap;
} pq_shredded;

#define PQ_SHREDDED_INIT                                                                           \
    { 0 }
void hudi_pq_shredded_dispose(pq_shredded *s);

/* Shreds rows [row_start, row_start + n_rows) of top-level `column` (built on a field tree
 * with the same shape as pq_schema.root's column) for `leaf` (§4.3). EINVAL when a
 * non-nullable field holds a null or the row range is out of bounds. */
int hudi_pq_shred_leaf(pq_shredded *out, const pq_leaf *leaf, const hudi_array *column,
                       int64_t row_start, int64_t n_rows, hudi_error *err);

#endif
