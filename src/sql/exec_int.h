/* exec_int.h - what the executor's files (expr.c, kernels.c, exec*.c, aggregate.c) share and
 * nothing else needs: the open functions of the operators, a group table (open addressing over
 * keys stored in columnar arrays) used by aggregation, DISTINCT, set operations and the join's
 * build side, and row-gathering helpers.
 *
 * Invariant: operator batches are either "views" (columns borrowed from a child or the plan,
 * never freed by the operator) or owned batches reused with hudi_batch_clear; either way they
 * stay valid until the operator's next call to next or free. */
#ifndef HUDI_SQL_EXEC_INT_H
#define HUDI_SQL_EXEC_INT_H

#include "sql/engine.h"

/* ---- operator open functions (one per plan kind) --------------------------------------- */

/* Each takes ownership of its open children: they are freed with the operator, or at once when
 * opening fails. */

int hudi_sql_open_sort(hudi_sql_oper **out, hudi_sql_ctx *ctx, const hudi_sql_plan *p,
                       hudi_sql_oper *child, hudi_error *err);
int hudi_sql_open_aggregate(hudi_sql_oper **out, hudi_sql_ctx *ctx, const hudi_sql_plan *p,
                            hudi_sql_oper *child, hudi_error *err);
int hudi_sql_open_join(hudi_sql_oper **out, hudi_sql_ctx *ctx, const hudi_sql_plan *p,
                       hudi_sql_oper *left, hudi_sql_oper *right, hudi_error *err);
int hudi_sql_open_distinct(hudi_sql_oper **out, hudi_sql_ctx *ctx, const hudi_sql_plan *p,
                           hudi_sql_oper *child, hudi_error *err);
int hudi_sql_open_setop(hudi_sql_oper **out, hudi_sql_ctx *ctx, const hudi_sql_plan *p,
                        hudi_sql_oper *left, hudi_sql_oper *right, hudi_error *err);

/* ---- rows ------------------------------------------------------------------------------- */

/* Appends the rows of `src` listed in rows[0..n) to `dst` (same type shape); a negative index
 * appends a null. On failure dst is truncated back. */
int hudi_sql_array_take(hudi_array *dst, const hudi_array *src, const int64_t *rows, int64_t n,
                        hudi_error *err);
/* Appends the listed rows of every column of `in` to `dst` (same column shapes) and adds n to
 * dst->num_rows. */
int hudi_sql_batch_take(hudi_batch *dst, const hudi_batch *in, const int64_t *rows, int64_t n,
                        hudi_error *err);
/* Bytes an array holds (length-based estimate, children included), for memory accounting. */
int64_t hudi_sql_array_bytes(const hudi_array *a);
int64_t hudi_sql_batch_bytes(const hudi_batch *b);
/* Pulls every batch of `op` into *out (a new batch over `schema`), charging what it holds;
 * *charged receives the bytes charged (release them when freeing the batch). */
int hudi_sql_oper_drain(hudi_sql_oper *op, const hudi_field *schema, hudi_batch **out,
                        int64_t *charged, hudi_error *err);
/* A new array of n rows, each row 0 of `c` (a constant broadcast). */
int hudi_sql_array_repeat(hudi_array **out, const hudi_array *c, int64_t n, hudi_error *err);

/* ---- the group table -------------------------------------------------------------------- */

/* Distinct key rows, each given a group id (0, 1, ... in order of first appearance); the keys
 * are kept in `keys` (row g = group g) and compared with nulls equal, NaN equal to NaN. */
typedef struct hudi_sql_groups {
    int32_t n_keys;
    hudi_array **keys;  /* n_keys arrays over the fields given at init */
    uint64_t *hashes;   /* per group */
    int64_t n_groups;   /* groups so far */
    int64_t cap_groups; /* entries allocated in hashes */
    uint64_t *slots;    /* hash tag << 32 | group id + 1; 0 = empty; cap_slots (a power of 2) */
    int64_t cap_slots;
    int64_t charged;      /* bytes charged to the context */
    uint64_t *row_hashes; /* scratch: the hashes of the batch being added */
    int64_t *pending;     /* scratch: rows of that batch that created groups */
    uint8_t *same;        /* scratch: whether a row's keys equal the row before's */
    int64_t cap_rows;
} hudi_sql_groups;

int hudi_sql_groups_init(hudi_sql_groups *g, const hudi_field *const *fields, int32_t n_keys,
                         hudi_error *err);
/* Finds or adds the group of rows [0, nrows) of `keys` (constants broadcast); ids[i] receives
 * the group id, or -1 for rows where skip[i] is non-zero (skip may be NULL). is_new (may be
 * NULL) receives 1 for the rows that created their group. Charges memory as the table grows.
 * After a failure the table is only good for hudi_sql_groups_dispose. */
int hudi_sql_groups_add(hudi_sql_ctx *ctx, hudi_sql_groups *g, const hudi_sql_datum *keys,
                        int64_t nrows, const uint8_t *skip, int64_t *ids, uint8_t *is_new,
                        hudi_error *err);
/* Looks rows up without adding: ids[i] = the group id or -1 (also for skip[i] rows). */
int hudi_sql_groups_find(hudi_sql_groups *g, const hudi_sql_datum *keys, int64_t nrows,
                         const uint8_t *skip, int64_t *ids, hudi_error *err);
/* Frees everything and gives the charged bytes back. */
void hudi_sql_groups_dispose(hudi_sql_ctx *ctx, hudi_sql_groups *g);

/* Row index of a datum: constants have one row. */
static inline int64_t hudi_sql_datum_row(const hudi_sql_datum *d, int64_t i) {
    return d->is_const ? 0 : i;
}

/* A STRUCT field (arena) whose children are a's children then b's (shallow copies): the rows
 * a join condition sees. */
int hudi_sql_concat_schema(hudi_arena *arena, const hudi_field *a, const hudi_field *b,
                           hudi_field *out, hudi_error *err);

/* A batch whose columns are borrowed (not freed by hudi_sql_view_free). */
int hudi_sql_view_new(hudi_batch **out, const hudi_field *schema, hudi_error *err);
void hudi_sql_view_free(hudi_batch *b);

#endif
