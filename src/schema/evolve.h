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
 *     converted); nullable as in the table (a nullable batch column does not relax NOT NULL:
 *     Hudi's datasource would; nulls in it fail the write);
 *   - columns new in the batch (root or nested, maps and lists included): appended after the
 *     table's columns of their struct, in the batch's order (the table's order is kept: Hudi
 *     0.15 would take the batch's order); a non-nullable one is refused (Hudi: no default
 *     value), so is one differing only in case from a table column;
 *   - table columns the batch lacks (at any depth): kept (null) with reconcile or partial;
 *     else dropped from the table with allow_column_drop (Hudi ignores set_null_for_missing
 *     then); else kept with set_null_for_missing (a non-nullable one refused: no default
 *     value); refused otherwise, all of them in one message, named as Hudi does (record name,
 *     then the dotted path: "t_record.field2", "t_record.tags.element.x", "t_record.m.value");
 *   - pairs the chart marks X (bytes vs numbers, boolean vs anything, struct vs primitive,
 *     logical types lost: int into date, long into timestamp) refused naming the column and
 *     both types.
 * Errors: EINVAL, one line starting with `table_path`. `out` is disposed by the caller. */
int hudi_schema_deduce_writer(hudi_field *out, const hudi_field *table, const hudi_field *incoming,
                              const hudi_evolve_options *opts, const char *table_path,
                              hudi_error *err);

/* Hudi's promotion chart for one primitive pair of table-schema types (Arrow-only types such
 * as int8 normalised first, hudi_schema_from_parquet): the table type after writing `incoming`
 * into a column of type `table` (a copy of one of them in *out, with the table column's name
 * and comment and nullability), or false (*out zeroed) when the chart says X or memory
 * ran out. */
bool hudi_schema_promote(const hudi_field *incoming, const hudi_field *table, hudi_field *out);

#endif
