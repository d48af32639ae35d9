/* log_int.h - helpers shared by the files of the log module (not exported). */
#ifndef HUDI_LOG_INT_H
#define HUDI_LOG_INT_H

#include "base/base.h"

/* Reads one Avro zigzag varint from [*p, end); advances *p. False when truncated or longer
 * than 64 bits. */
bool hudi_log_read_long(const uint8_t **p, const uint8_t *end, int64_t *out);
/* Appends a big-endian int32 (the framing of blocks and of block contents). */
void hudi_log_put_i32be(hudi_buf *b, int32_t v);

#endif
