/* api.h - internals of the public API layer (include/hudi): the handle structs and helpers the
 * CLI shares. Nothing here is exported; the public functions are declared in include/hudi. */
#ifndef HUDI_API_INT_H
#define HUDI_API_INT_H

#include "hudi/hudi_table.h"
#include "read/read.h"
#include "write/write.h"

struct hudi_table {
    hudi_tbl *t;
    char latest[HUDI_INSTANT_TIME_MAX]; /* latest completed commit, "" when none */
};

/* The data columns of the table now (without meta columns): the schema of the newest base
 * file, else the create schema (hoodie.table.create.schema). A STRUCT the caller disposes. */
int hudi_api_data_schema(hudi_field *out, hudi_tbl *t, hudi_error *err);

/* hudi_write_operation -> the write layer's op; HUDI_EINVAL for unknown values. */
int hudi_api_write_op(hudi_write_op *out, int operation, hudi_error *err);

#endif
