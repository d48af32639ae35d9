/* evolve.h - schema evolution on write (docs/formats/schema-evolution.md §2): the schema a
 * batch is written with when its columns differ from the table's, as Apache Hudi 0.15 deduces
 * it, and the changes it refuses, before anything is written. */
#ifndef HUDI_SCHEMA_EVOLVE_H
#define HUDI_SCHEMA_EVOLVE_H

#include "columnar/columnar.h"

typedef struct hudi_evolve_options {
    bool set_null_for_missing; /* hoodie.write.set.null.for.missing.columns (default false) */
    bool allow_column_drop;    /* hoodie.datasource.write.schema.allow.auto.evolution.column.drop */
    bool reconcile;            /* hoodie.datasource.write.reconcile.schema */
    bool partial;              /* MERGE INTO / partial updates: missing columns keep old values */
} hudi_evolve_options;

/* The writer schema for writing a batch of schema `incoming` into a table of schema `table`
 * (both STRUCTs without meta fields; `table` NULL for a table without a schema yet). It becomes
 * the table schema:
 *   - columns of both: the incoming type if it is wider by Hudi's promotion chart (the table
 *     widens: int -> long -> float -> double -> string, bytes <-> string, decimal widening,
 *     recursively in structs, list elements and map values), else the table type (the batch is
 *     converted); nullable if either is;
 *   - columns new in the batch (root or nested, maps and lists included): added, in the batch's
 *     position; a non-nullable one is refused (Hudi: no default value);
 *   - table columns the batch lacks: kept (null) with set_null_for_missing, reconcile or partial;
 *     dropped from the table with allow_column_drop; refused otherwise, naming them as Hudi does
 *     ("hoodie_t_record.field2");
 *   - pairs the chart marks X (bytes vs numbers, boolean vs anything, struct vs primitive,
 *     logical types lost: int into date, long into timestamp) refused naming the column and
 *     both types.
 * Errors: EINVAL, one line starting with `table_path`. `out` is disposed by the caller. */
int hudi_schema_deduce_writer(hudi_field *out, const hudi_field *table, const hudi_field *incoming,
                              const hudi_evolve_options *opts, const char *table_path,
                              hudi_error *err);

/* Hudi's promotion chart for one primitive pair: the table type after writing `incoming` into a
 * column of type `table` (a copy of one of them in *out), or false when the chart says X. */
bool hudi_schema_promote(const hudi_field *incoming, const hudi_field *table, hudi_field *out);

#endif
