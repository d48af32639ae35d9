/* trips_gen.h - the benchmarks' trips rows, generated in C exactly as bench/gen_trips.py does
 * with DuckDB (mix()/unit_double()/trips_sql() there), so both sides of a benchmark see
 * identical data. Shared by parquet_bench.c and hudi_bench.c. */
#ifndef HUDI_BENCH_TRIPS_GEN_H
#define HUDI_BENCH_TRIPS_GEN_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "columnar/columnar.h"

#define MIX_P 2147483647LL
static const char *const partitions[3] = {"americas/united_states/san_francisco",
                                          "americas/brazil/sao_paulo", "asia/india/chennai"};

static inline int64_t mix(int64_t i, int64_t s) {
    int64_t x = ((i + s * 16777259LL) * 1103515245LL + 12345) % MIX_P;
    return ((x * x) % MIX_P) ^ (x >> 5);
}

static inline double unit_double(int64_t i, int64_t s) {
    return (double)(mix(i, s) * 4194304LL + (mix(i, s + 1) >> 9)) / 9007199254740992.0;
}

enum {
    C_UUID,
    C_RIDER,
    C_DRIVER,
    C_BLAT,
    C_BLON,
    C_ELAT,
    C_ELON,
    C_FARE,
    C_TS,
    C_DIST,
    C_PART,
    N_TRIP_COLS
};

/* The trips schema as a STRUCT named `root`. Returns 0 or HUDI_ENOMEM. */
static inline int trips_schema_init(hudi_field *s, const char *root) {
    static const struct {
        const char *name;
        hudi_type_id t;
    } cols[N_TRIP_COLS] = {
        {"uuid", HUDI_TYPE_STRING},
        {"rider", HUDI_TYPE_STRING},
        {"driver", HUDI_TYPE_STRING},
        {"begin_lat", HUDI_TYPE_DOUBLE},
        {"begin_lon", HUDI_TYPE_DOUBLE},
        {"end_lat", HUDI_TYPE_DOUBLE},
        {"end_lon", HUDI_TYPE_DOUBLE},
        {"fare", HUDI_TYPE_DOUBLE},
        {"ts", HUDI_TYPE_INT64},
        {"distance_m", HUDI_TYPE_INT64},
        {"partition_path", HUDI_TYPE_STRING},
    };
    if (hudi_field_init(s, root, HUDI_TYPE_STRUCT, false) < 0 ||
        hudi_field_set_children(s, N_TRIP_COLS) < 0)
        return HUDI_ENOMEM;
    for (int c = 0; c < N_TRIP_COLS; c++)
        if (hudi_field_init(&s->children[c], cols[c].name, cols[c].t, true) < 0) return HUDI_ENOMEM;
    return 0;
}

/* Appends string row r (the caller reserved the data bytes). */
static inline void put_str(hudi_array *a, int64_t r, const char *s, size_t len) {
    memcpy(a->data + a->data_len, s, len);
    a->data_len += (int64_t)len;
    a->offsets[r + 1] = (int32_t)a->data_len;
}

static inline int uuid_of(char *s, size_t cap, int64_t i) {
    int64_t u = ((i + 1) * 1103515245LL + 12345) % MIX_P;
    int64_t m11 = mix(i, 11), m12 = mix(i, 12);
    return snprintf(
        s, cap, "%08" PRIx64 "-%04" PRIx64 "-%04" PRIx64 "-%04" PRIx64 "-%04" PRIx64 "%08" PRIx64,
        (uint64_t)u, (uint64_t)(m11 & 65535), (uint64_t)((m11 >> 16) & 65535),
        (uint64_t)(m12 & 65535), (uint64_t)((m12 >> 16) & 65535), (uint64_t)mix(i, 13));
}

/* Row r of the batch = generated row i; salt k > 0 makes it the k-th update of that row: same
 * key and partition, new fare and distance, ts later by k hours (so it wins the precombine
 * under either payload). Mirrored by trips_update() in hudi_run.py's key samples. */
static inline void trips_row(hudi_array **col, int64_t r, int64_t i, int64_t k) {
    char s[64];
    int len = uuid_of(s, sizeof(s), i);
    put_str(col[C_UUID], r, s, (size_t)len);
    len = snprintf(s, sizeof(s), "rider-%03d", (int)(mix(i, 1) % 1000));
    put_str(col[C_RIDER], r, s, (size_t)len);
    len = snprintf(s, sizeof(s), "driver-%03d", (int)(mix(i, 2) % 1000));
    put_str(col[C_DRIVER], r, s, (size_t)len);
    ((double *)col[C_BLAT]->values)[r] = unit_double(i, 3);
    ((double *)col[C_BLON]->values)[r] = unit_double(i, 5);
    ((double *)col[C_ELAT]->values)[r] = unit_double(i, 7);
    ((double *)col[C_ELON]->values)[r] = unit_double(i, 9);
    int64_t ts = 1695000000000LL + i * 100 + mix(i, 16) % 1000;
    if (k == 0) {
        ((double *)col[C_FARE]->values)[r] = unit_double(i, 14) * 100.0;
        ((int64_t *)col[C_TS]->values)[r] = ts;
        ((int64_t *)col[C_DIST]->values)[r] = mix(i, 17) % 50000;
    } else {
        ((double *)col[C_FARE]->values)[r] = unit_double(i, 40 + 2 * k) * 100.0;
        ((int64_t *)col[C_TS]->values)[r] = ts + k * 3600000LL;
        ((int64_t *)col[C_DIST]->values)[r] = mix(i, 60 + k) % 50000;
    }
    const char *part = partitions[mix(i, 18) % 3];
    put_str(col[C_PART], r, part, strlen(part));
}

#endif
