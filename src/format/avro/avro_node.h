/* avro_node.h - the compiled form of a parsed Avro schema, for decoders inside the format layer
 * that write values somewhere other than a hudi_avro_value tree (the log layer decodes data
 * block records straight into columnar arrays, docs/formats/log-file.md).
 *
 * A node is immutable once the schema is parsed and lives as long as the schema. Named types
 * referenced twice share one node. */
#ifndef HUDI_AVRO_NODE_H
#define HUDI_AVRO_NODE_H

#include "format/avro/avro.h"

#define HUDI_AVRO_UNION 100 /* node type of a union, next to hudi_avro_type */

typedef struct hudi_avro_node hudi_avro_node;
struct hudi_avro_node {
    int type;              /* hudi_avro_type or HUDI_AVRO_UNION */
    size_t n;              /* record fields, union branches, enum symbols */
    hudi_avro_node **kids; /* record fields / union branches; array items or map values at [0] */
    hudi_slice *names;     /* record field names / enum symbols */
    int64_t fixed_size;
    size_t min_size; /* fewest bytes one encoded value can take */
    bool min_done;
};

/** The root node of a parsed schema. */
const hudi_avro_node *hudi_avro_schema_root(const hudi_avro_schema *s);

#endif
