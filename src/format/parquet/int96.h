/* int96.h - INT96 timestamps (Spark, Impala, Hive) to and from microseconds since the Unix
 * epoch (docs/formats/parquet.md §5.4).
 *
 * Layout: bytes 0-7 nanos_of_day (LE int64), bytes 8-11 Julian Day Number (LE int32;
 * 1970-01-01 is 2,440,588). Invariant: reading follows Spark exactly: the day is signed,
 * the arithmetic wraps modulo 2^64 and never goes through nanoseconds, so out-of-range values
 * (int96_from_spark.parquet's year-290000 row) give Spark's documented answer instead of UB. */
#ifndef HUDI_PQ_INT96_H
#define HUDI_PQ_INT96_H

#include "base/base.h"

#define PQ_INT96_JULIAN_EPOCH_DAY 2440588
#define PQ_MICROS_PER_DAY INT64_C(86400000000)

/** micros = (day - 2440588) * 86400000000 + nanos_of_day / 1000, wrapping (mod 2^64). */
static inline int64_t pq_int96_to_micros(const uint8_t *p) {
    int64_t nanos = (int64_t)hudi_load_u64le(p);
    int32_t day = (int32_t)hudi_load_u32le(p + 8);
    uint64_t days = (uint64_t)((int64_t)day - PQ_INT96_JULIAN_EPOCH_DAY);
    /* Unsigned arithmetic wraps by definition; nanos / 1000 truncates toward zero as in Java. */
    uint64_t us = days * (uint64_t)PQ_MICROS_PER_DAY + (uint64_t)(nanos / 1000);
    return (int64_t)us;
}

/** The canonical INT96 for `micros`: nanos_of_day in [0, 86400e9), the matching Julian day
 *  (always fits in int32: |micros| / 86400e6 < 1.1e8 days). */
static inline void pq_int96_from_micros(int64_t micros, uint8_t out[12]) {
    int64_t day = micros / PQ_MICROS_PER_DAY;
    int64_t rem = micros % PQ_MICROS_PER_DAY;
    if (rem < 0) {
        rem += PQ_MICROS_PER_DAY;
        day -= 1;
    }
    hudi_store_u64le(out, (uint64_t)(rem * 1000));
    hudi_store_u32le(out + 8, (uint32_t)(int32_t)(day + PQ_INT96_JULIAN_EPOCH_DAY));
}

#endif
