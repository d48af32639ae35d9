/* fn_int.h - what the files of the function registry share (functions.c, ops.c, cast.c,
 * fn_string.c, fn_datetime.c, fn_math.c): the registration tables, type constructors, the
 * binding helpers for implicit coercion and the writers of result arrays.
 *
 * Evaluation convention (engine.h): args are full arrays of nrows rows or constants whose row 0
 * stands for every row; results are new arrays of call->type. Writers fill the buffers of a
 * result reserved for nrows rows directly (no allocation per row) and hudi_sql_out_done sets its
 * length. */
#ifndef HUDI_SQL_FN_INT_H
#define HUDI_SQL_FN_INT_H

#include "sql/engine.h"

/* ---- registration tables (each file's functions, name order not required) -------------- */

extern const hudi_sql_func hudi_sql_ops_funcs[];
extern const int32_t hudi_sql_ops_nfuncs;
extern const hudi_sql_func hudi_sql_string_funcs[];
extern const int32_t hudi_sql_string_nfuncs;
extern const hudi_sql_func hudi_sql_datetime_funcs[];
extern const int32_t hudi_sql_datetime_nfuncs;
extern const hudi_sql_func hudi_sql_math_funcs[];
extern const int32_t hudi_sql_math_nfuncs;
extern const hudi_sql_func hudi_sql_nested_funcs[];
extern const int32_t hudi_sql_nested_nfuncs;
extern const hudi_sql_func hudi_sql_misc_funcs[];
extern const int32_t hudi_sql_misc_nfuncs;
extern const hudi_sql_func hudi_sql_cast_func; /* "cast" */

/* ---- types ------------------------------------------------------------------------------ */

/* A nullable primitive type (TIMESTAMP: micros, utc), unnamed. */
hudi_field hudi_sql_prim(hudi_type_id t);
hudi_field hudi_sql_decimal(int32_t precision, int32_t scale);
bool hudi_sql_is_integral(hudi_type_id t); /* INT8..INT64 */
bool hudi_sql_is_numeric(hudi_type_id t);  /* integral, FLOAT, DOUBLE, DECIMAL */
/* DECIMAL(p, 0) wide enough for an integral type (tinyint 3, smallint 5, int 10, bigint 20). */
hudi_field hudi_sql_decimal_for(const hudi_field *t);
/* Spark's bounded decimal result: precision above 38 trades scale (keeping at least
 * min(scale, 6) digits) for integral digits. */
hudi_field hudi_sql_decimal_adjust(int32_t precision, int32_t scale);
/* Whether the binder may cast `from` to `to` implicitly for a function argument (Spark's
 * ImplicitTypeCasts: NULL to anything, numeric to numeric, string to numbers, dates,
 * timestamps, binary and boolean, atomic values to string, date <-> timestamp). */
bool hudi_sql_can_implicit(const hudi_field *from, const hudi_field *to);
/* Spark's name of a type into a static-lifetime arena string (for error messages). */
const char *hudi_sql_type_str(hudi_arena *arena, const hudi_field *t);

/* ---- binding helpers -------------------------------------------------------------------- */

/* HUDI_ESQL "name: <what>" at the call's position. */
int hudi_sql_bind_error(const hudi_sql_bind_call *call, hudi_error *err, const char *fmt, ...)
    HUDI_PRINTF(3, 4);
/* Requires argument i to be implicitly castable to `t` and asks for that cast. */
int hudi_sql_want(hudi_sql_bind_call *call, int32_t i, hudi_field t, hudi_error *err);
static inline int hudi_sql_want_id(hudi_sql_bind_call *call, int32_t i, hudi_type_id t,
                                   hudi_error *err) {
    return hudi_sql_want(call, i, hudi_sql_prim(t), err);
}
/* Casts args [from, to) to their common type (hudi_sql_common_type), stored in *out. */
int hudi_sql_want_common(hudi_sql_bind_call *call, int32_t from, int32_t to, hudi_field *out,
                         hudi_error *err);
/* Arena copy of a type, so results can keep it. */
hudi_field hudi_sql_keep(hudi_sql_bind_call *call, const hudi_field *t);
/* The constant value of argument i when it is a non-null constant string, else NULL (arena
 * copy, NUL-terminated; *len its length). */
const char *hudi_sql_const_str(hudi_sql_bind_call *call, int32_t i, size_t *len);
/* The argument is a constant (a literal, possibly cast). */
bool hudi_sql_arg_const(const hudi_sql_bind_call *call, int32_t i);

/* Memory for per-call-site state: from the statement's arena (freed with it). pcre2 contexts
 * use it so compiled patterns need no free_state. */
void *hudi_sql_state_alloc(hudi_sql_ctx *ctx, size_t n);

/* ---- reading arguments ------------------------------------------------------------------ */

static inline int64_t hudi_sql_row(const hudi_sql_datum *d, int64_t i) {
    return d->is_const ? 0 : i;
}
static inline bool hudi_sql_valid(const hudi_sql_datum *d, int64_t i) {
    return hudi_array_is_valid(d->array, hudi_sql_row(d, i));
}
static inline hudi_slice hudi_sql_str(const hudi_sql_datum *d, int64_t i) {
    const hudi_array *a = d->array;
    int64_t r = hudi_sql_row(d, i);
    return HUDI_SLICE(a->data + a->offsets[r], (size_t)(a->offsets[r + 1] - a->offsets[r]));
}
#define HUDI_SQL_VAL(d, T, i) (((const T *)(d)->array->values)[hudi_sql_row((d), (i))])
static inline bool hudi_sql_bool(const hudi_sql_datum *d, int64_t i) {
    return hudi_bit_get((const uint8_t *)d->array->values, hudi_sql_row(d, i));
}
static inline __int128 hudi_sql_dec(const hudi_sql_datum *d, int64_t i) {
    __int128 v;
    memcpy(&v, (const uint8_t *)d->array->values + 16 * hudi_sql_row(d, i), 16);
    return v;
}
/* Any integral, float, double, decimal (as a double), bool or date value as a double / int64. */
double hudi_sql_num_f64(const hudi_array *a, int64_t r);
int64_t hudi_sql_num_i64(const hudi_array *a, int64_t r);
/* True when row i of every one of the n args is valid. */
static inline bool hudi_sql_all_valid(const hudi_sql_datum *args, int32_t n, int64_t i) {
    for (int32_t k = 0; k < n; k++)
        if (!hudi_sql_valid(&args[k], i)) return false;
    return true;
}

/* ---- writing results -------------------------------------------------------------------- */

/* A new array of `type` with room for nrows rows and a validity bitmap (all clear). */
int hudi_sql_out_new(const hudi_field *type, int64_t nrows, hudi_array **out, hudi_error *err);
/* Sets the validity of rows [0, nrows) to the AND of the n args' validity (a NULL constant
 * makes every row null): for kernels that compute every row, then let nulls be nulls. */
void hudi_sql_out_and_validity(hudi_array *o, const hudi_sql_datum *args, int32_t n, int64_t nrows);
/* Row i is null (fixed width: zero value; offsets: empty). Rows are written in order. */
void hudi_sql_out_null(hudi_array *a, int64_t i);
static inline void hudi_sql_out_valid(hudi_array *a, int64_t i) { hudi_bit_set(a->validity, i); }
/* Sets the length to nrows and the null count; a bitmap without nulls is dropped. */
void hudi_sql_out_done(hudi_array *a, int64_t nrows);
static inline void hudi_sql_out_bool(hudi_array *a, int64_t i, bool v) {
    if (v)
        hudi_bit_set((uint8_t *)a->values, i);
    else
        hudi_bit_clear((uint8_t *)a->values, i);
    hudi_bit_set(a->validity, i);
}
#define HUDI_SQL_OUT(a, T, i, v)                                                                   \
    do {                                                                                           \
        ((T *)(a)->values)[i] = (v);                                                               \
        hudi_bit_set((a)->validity, (i));                                                          \
    } while (0)
static inline void hudi_sql_out_dec(hudi_array *a, int64_t i, __int128 v) {
    memcpy((uint8_t *)a->values + 16 * i, &v, 16);
    hudi_bit_set(a->validity, i);
}
/* String/binary row i = the n bytes at p. */
int hudi_sql_out_str(hudi_array *a, int64_t i, const void *p, size_t n, hudi_error *err);
/* Room for n more bytes: returns where to write them (then hudi_sql_out_commit), or NULL. */
static inline uint8_t *hudi_sql_out_reserve(hudi_array *a, size_t n, hudi_error *err) {
    if (hudi_array_grow_data(a, (int64_t)(n ? n : 1), err) < 0) return NULL;
    return a->data + a->data_len;
}
/* Row i ends after n more bytes written at the reserved place. */
static inline void hudi_sql_out_commit(hudi_array *a, int64_t i, size_t n) {
    a->data_len += (int64_t)n;
    a->offsets[i + 1] = (int32_t)a->data_len;
    hudi_bit_set(a->validity, i);
}
/* Row i is a copy of row `row` of `src` (same type shape; nested values deep-copied), or null
 * when src is NULL. */
int hudi_sql_out_copy(hudi_array *a, int64_t i, const hudi_array *src, int64_t row,
                      hudi_error *err);
/* A result whose row i is args[choice[i]] at row i, or null when choice[i] < 0. */
int hudi_sql_gather(const hudi_field *type, const hudi_sql_datum *args, const int32_t *choice,
                    int64_t nrows, hudi_array **out, hudi_error *err);

/* Compares row i of a with row j of b (same type): <0, 0, >0; NaN equals NaN and is above
 * every number; a null is below every value. */
int hudi_sql_cmp_value(const hudi_array *a, int64_t i, const hudi_array *b, int64_t j);
/* Spark's literal decimal type of an integral constant argument (DECIMAL(digits, 0)), else the
 * type's own decimal type. */
hudi_field hudi_sql_decimal_of_arg(const hudi_sql_bexpr *e);

/* Appends s lower-cased (fn_string.c's case mapping); returns the bytes appended. */
size_t hudi_sql_utf8_lower(const uint8_t *s, size_t n, hudi_buf *out);

/* ---- shared conversions (cast.c) --------------------------------------------------------- */

/* Spark's string -> value parsers (CAST semantics; false on failure). */
bool hudi_sql_parse_long(hudi_slice s, int64_t *out);  /* trims, truncates a fraction */
bool hudi_sql_parse_double(hudi_slice s, double *out); /* trims; NaN, Infinity, d/f suffix */
bool hudi_sql_parse_date(hudi_slice s, int32_t *days); /* yyyy[-m[m][-d[d]]][T ...] */
/* yyyy[-mm[-dd]][(T| )hh[:mm[:ss[.f]]]][zone]; no zone: `tz_minutes` (the session's). */
bool hudi_sql_parse_timestamp(hudi_slice s, int32_t tz_minutes, int64_t now_micros,
                              int64_t *micros);
bool hudi_sql_parse_decimal(hudi_slice s, int32_t precision, int32_t scale, __int128 *out);
/* Rescales an unscaled value from scale `from` to `to`, rounding half up; false on overflow
 * of `precision` digits. */
bool hudi_sql_dec_rescale(__int128 v, int32_t from, int32_t to, int32_t precision, __int128 *out);
bool hudi_sql_dec_fits(__int128 v, int32_t precision);
extern const __int128 hudi_sql_pow10[39];
/* A double as Java's Double.toString / Float.toString writes it (1.0, 1.0E10, 9.9E-4). */
void hudi_sql_put_double(hudi_buf *out, double v);
void hudi_sql_put_float(hudi_buf *out, float v);
/* The shortest decimal digits of v (|v| finite, non-zero): digits and the decimal exponent e
 * with v = 0.d1d2... * 10^e. Returns the digit count. */
int hudi_sql_shortest(double v, bool as_float, char digits[24], int *e);
/* A timestamp's microseconds in the given offset as yyyy-MM-dd HH:mm:ss[.ffffff]. */
void hudi_sql_put_timestamp(hudi_buf *out, int64_t micros, int32_t tz_minutes);
/* Micros of a TIMESTAMP value of any unit. */
int64_t hudi_sql_ts_micros(const hudi_array *a, int64_t row);

static inline int64_t hudi_sql_floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
static inline int64_t hudi_sql_floor_mod(int64_t a, int64_t b) {
    return a - hudi_sql_floor_div(a, b) * b;
}
#define HUDI_SQL_MICROS_PER_DAY INT64_C(86400000000)

/* One scalar entry of a function table (the registry lists the tables of every fn_*.c). */
#define HUDI_SQL_SCALAR_FN(name, lo, hi, bind, eval, usage)                                        \
    { name, HUDI_SQL_FN_SCALAR, lo, hi, bind, eval, NULL, usage }

#endif
