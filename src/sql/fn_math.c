/* fn_math.c - numeric functions: abs, round (HALF_UP) and bround (HALF_EVEN), floor, ceil,
 * sqrt, exp, ln, log, log10, log2, pow, the trigonometric functions, sign, greatest, least, pi
 * (docs/SQL.md "Functions and operators"). Result types follow Spark: floor/ceil of a double
 * is BIGINT and of DECIMAL(p,s) is DECIMAL(p-s+1,0); the transcendental functions are DOUBLE
 * and give NULL outside their domain (log of a non-positive number). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sql/fn_int.h"

static int numeric_arg(hudi_sql_bind_call *call, int32_t i, hudi_error *err) {
    hudi_type_id t = call->args[i]->type.type;
    if (t == HUDI_TYPE_STRING || t == HUDI_TYPE_NULL)
        return hudi_sql_want_id(call, i, HUDI_TYPE_DOUBLE, err);
    if (!hudi_sql_is_numeric(t))
        return hudi_sql_bind_error(call, err, "argument %d requires a number, not %s", i + 1,
                                   hudi_sql_type_str(call->ctx->arena, &call->args[i]->type));
    return 0;
}

/* ---- abs ------------------------------------------------------------------------------------ */

static int abs_bind(hudi_sql_bind_call *call, hudi_error *err) {
    int rc = numeric_arg(call, 0, err);
    if (rc < 0) return rc;
    call->result = call->arg_types[0];
    return 0;
}

static int abs_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                    int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    if (rc < 0) return rc;
    const hudi_sql_datum *a = &args[0];
    for (int64_t i = 0; i < nrows; i++) {
        if (!hudi_sql_valid(a, i)) {
            hudi_sql_out_null(o, i);
            continue;
        }
        switch (call->type.type) {
        case HUDI_TYPE_INT8: {
            int8_t v = HUDI_SQL_VAL(a, int8_t, i);
            HUDI_SQL_OUT(o, int8_t, i, (int8_t)(v < 0 ? (uint8_t)0 - (uint8_t)v : (uint8_t)v));
            break;
        }
        case HUDI_TYPE_INT16: {
            int16_t v = HUDI_SQL_VAL(a, int16_t, i);
            HUDI_SQL_OUT(o, int16_t, i, (int16_t)(v < 0 ? (uint16_t)0 - (uint16_t)v : (uint16_t)v));
            break;
        }
        case HUDI_TYPE_INT32: {
            int32_t v = HUDI_SQL_VAL(a, int32_t, i);
            HUDI_SQL_OUT(o, int32_t, i, (int32_t)(v < 0 ? 0u - (uint32_t)v : (uint32_t)v));
            break;
        }
        case HUDI_TYPE_INT64: {
            int64_t v = HUDI_SQL_VAL(a, int64_t, i);
            HUDI_SQL_OUT(o, int64_t, i, (int64_t)(v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v));
            break;
        }
        case HUDI_TYPE_FLOAT: HUDI_SQL_OUT(o, float, i, fabsf(HUDI_SQL_VAL(a, float, i))); break;
        case HUDI_TYPE_DOUBLE: HUDI_SQL_OUT(o, double, i, fabs(HUDI_SQL_VAL(a, double, i))); break;
        default: {
            __int128 v = hudi_sql_dec(a, i);
            hudi_sql_out_dec(o, i, v < 0 ? -v : v);
        }
        }
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

/* ---- round, bround ------------------------------------------------------------------------------
 */

static int32_t const_scale(const hudi_sql_bind_call *call) {
    if (call->n_args < 2) return 0;
    const hudi_sql_bexpr *e = call->args[1];
    if (e->kind == HUDI_SQL_BX_CONST && e->value && hudi_array_is_valid(e->value, 0) &&
        hudi_sql_is_integral(e->type.type))
        return (int32_t)hudi_sql_num_i64(e->value, 0);
    return INT32_MIN;
}

static int round_bind(hudi_sql_bind_call *call, hudi_error *err) {
    int rc = numeric_arg(call, 0, err);
    if (rc < 0) return rc;
    if (call->n_args == 2) {
        int32_t d = const_scale(call);
        if (d == INT32_MIN)
            return hudi_sql_bind_error(call, err, "the scale must be an integer constant");
        if ((rc = hudi_sql_want_id(call, 1, HUDI_TYPE_INT32, err)) < 0) return rc;
    }
    hudi_field t = call->arg_types[0];
    if (t.type == HUDI_TYPE_DECIMAL) {
        int32_t d = const_scale(call);
        int32_t int_digits = t.precision - t.scale + 1;
        if (d < 0)
            call->result = hudi_sql_decimal(HUDI_MIN(int_digits, 38), 0);
        else {
            int32_t s = HUDI_MIN(t.scale, d);
            call->result = hudi_sql_decimal(HUDI_MIN(int_digits + s, 38), s);
        }
    } else {
        call->result = hudi_sql_prim(t.type);
    }
    return 0;
}

/* Rounds the unscaled decimal v (scale s) to d fraction digits, half up or half even. */
static __int128 round_unscaled(__int128 v, int32_t s, int32_t d, bool even) {
    if (d >= s) return v;
    int32_t k = s - d;
    if (k > 38) return 0;
    __int128 p = hudi_sql_pow10[k], q = v / p, r = v % p;
    __int128 ar = r < 0 ? -r : r;
    bool up = ar * 2 > p || (ar * 2 == p && (!even || (q % 2 != 0)));
    if (up) q += v < 0 ? -1 : 1;
    return q;
}

static double round_double(double v, int32_t d, bool even, bool as_float) {
    if (isnan(v) || isinf(v) || v == 0) return v;
    char dig[24];
    int e, n = hudi_sql_shortest(v, as_float, dig, &e);
    /* v = 0.dig * 10^e; keep e + d digits */
    int keep = e + d;
    if (keep >= n) return v;
    if (keep < 0) return 0.0 * v;
    __int128 q = 0;
    for (int k = 0; k < keep; k++) q = q * 10 + (dig[k] - '0');
    int next = dig[keep] - '0';
    bool rest = false;
    for (int k = keep + 1; k < n; k++) rest |= dig[k] != '0';
    if (next > 5 || (next == 5 && (rest || !even || (q % 2 != 0)))) q++;
    char text[64];
    snprintf(text, sizeof(text), "%s%llde%d", v < 0 ? "-" : "", (long long)q, -d);
    return as_float ? strtof(text, NULL) : strtod(text, NULL);
}

static int round_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                      int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    if (rc < 0) return rc;
    bool even = call->fn->name[0] == 'b';
    const hudi_sql_datum *a = &args[0];
    const hudi_field *in = a->array->field;
    for (int64_t i = 0; i < nrows; i++) {
        if (!hudi_sql_all_valid(args, call->n_args, i)) {
            hudi_sql_out_null(o, i);
            continue;
        }
        int32_t d = call->n_args > 1 ? HUDI_SQL_VAL(&args[1], int32_t, i) : 0;
        switch (in->type) {
        case HUDI_TYPE_FLOAT:
            HUDI_SQL_OUT(o, float, i,
                         (float)round_double(HUDI_SQL_VAL(a, float, i), d, even, true));
            break;
        case HUDI_TYPE_DOUBLE:
            HUDI_SQL_OUT(o, double, i, round_double(HUDI_SQL_VAL(a, double, i), d, even, false));
            break;
        case HUDI_TYPE_DECIMAL: {
            __int128 q = round_unscaled(hudi_sql_dec(a, i), in->scale, d, even);
            int32_t qs = d < in->scale ? d : in->scale; /* q's scale */
            __int128 r;
            if (hudi_sql_dec_rescale(q, qs, call->type.scale, call->type.precision, &r))
                hudi_sql_out_dec(o, i, r);
            else
                hudi_sql_out_null(o, i);
            break;
        }
        default: {
            int64_t v = hudi_sql_num_i64(a->array, hudi_sql_row(a, i));
            if (d < 0) {
                __int128 q = round_unscaled(v, -d, 0, even);
                v = (int64_t)(uint64_t)(unsigned __int128)(q * (-d <= 38 ? hudi_sql_pow10[-d] : 0));
            }
            switch (in->type) {
            case HUDI_TYPE_INT8: HUDI_SQL_OUT(o, int8_t, i, (int8_t)v); break;
            case HUDI_TYPE_INT16: HUDI_SQL_OUT(o, int16_t, i, (int16_t)v); break;
            case HUDI_TYPE_INT32: HUDI_SQL_OUT(o, int32_t, i, (int32_t)v); break;
            default: HUDI_SQL_OUT(o, int64_t, i, v); break;
            }
        }
        }
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

/* ---- floor, ceil
 * ---------------------------------------------------------------------------------- */

static int floor_bind(hudi_sql_bind_call *call, hudi_error *err) {
    int rc = numeric_arg(call, 0, err);
    if (rc < 0) return rc;
    hudi_field t = call->arg_types[0];
    if (t.type == HUDI_TYPE_DECIMAL)
        call->result = hudi_sql_decimal(HUDI_MIN(38, t.precision - t.scale + 1), 0);
    else
        call->result = hudi_sql_prim(HUDI_TYPE_INT64);
    if (t.type == HUDI_TYPE_FLOAT) return hudi_sql_want_id(call, 0, HUDI_TYPE_DOUBLE, err);
    return 0;
}

static int floor_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                      int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    if (rc < 0) return rc;
    bool ceil_ = call->fn->name[0] == 'c';
    const hudi_sql_datum *a = &args[0];
    const hudi_field *in = a->array->field;
    for (int64_t i = 0; i < nrows; i++) {
        if (!hudi_sql_valid(a, i)) {
            hudi_sql_out_null(o, i);
            continue;
        }
        if (in->type == HUDI_TYPE_DOUBLE) {
            double v = HUDI_SQL_VAL(a, double, i);
            v = ceil_ ? ceil(v) : floor(v);
            int64_t r = isnan(v)                      ? 0
                        : v >= 9.2233720368547758e18  ? INT64_MAX
                        : v <= -9.2233720368547758e18 ? INT64_MIN
                                                      : (int64_t)v;
            HUDI_SQL_OUT(o, int64_t, i, r);
        } else if (in->type == HUDI_TYPE_DECIMAL) {
            __int128 v = hudi_sql_dec(a, i);
            int32_t s = in->scale;
            __int128 q = s > 0 ? v / hudi_sql_pow10[s] : v, r = s > 0 ? v % hudi_sql_pow10[s] : 0;
            if (r != 0 && ceil_ && v > 0) q++;
            if (r != 0 && !ceil_ && v < 0) q--;
            hudi_sql_out_dec(o, i, q);
        } else {
            HUDI_SQL_OUT(o, int64_t, i, hudi_sql_num_i64(a->array, hudi_sql_row(a, i)));
        }
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

/* ---- double functions
 * ------------------------------------------------------------------------------ */

static int dbl_bind(hudi_sql_bind_call *call, hudi_error *err) {
    call->result = hudi_sql_prim(HUDI_TYPE_DOUBLE);
    for (int32_t i = 0; i < call->n_args; i++) {
        int rc = numeric_arg(call, i, err);
        if (rc < 0) return rc;
        if ((rc = hudi_sql_want_id(call, i, HUDI_TYPE_DOUBLE, err)) < 0) return rc;
    }
    return 0;
}

static bool dbl_apply(const char *n, const double *x, int32_t nargs, double *r) {
    double a = nargs > 0 ? x[0] : 0, b = nargs > 1 ? x[1] : 0;
    if (!strcmp(n, "sqrt"))
        *r = sqrt(a);
    else if (!strcmp(n, "cbrt"))
        *r = cbrt(a);
    else if (!strcmp(n, "exp"))
        *r = exp(a);
    else if (!strcmp(n, "expm1"))
        *r = expm1(a);
    else if (!strcmp(n, "ln")) {
        if (a <= 0) return false;
        *r = log(a);
    } else if (!strcmp(n, "log10")) {
        if (a <= 0) return false;
        *r = log10(a);
    } else if (!strcmp(n, "log2")) {
        if (a <= 0) return false;
        *r = log2(a);
    } else if (!strcmp(n, "log1p")) {
        if (a <= -1) return false;
        *r = log1p(a);
    } else if (!strcmp(n, "log")) {
        if (nargs == 1) {
            if (a <= 0) return false;
            *r = log(a);
        } else {
            if (a <= 0 || b <= 0) return false;
            *r = log(b) / log(a);
        }
    } else if (!strcmp(n, "pow"))
        *r = pow(a, b);
    else if (!strcmp(n, "sin"))
        *r = sin(a);
    else if (!strcmp(n, "cos"))
        *r = cos(a);
    else if (!strcmp(n, "tan"))
        *r = tan(a);
    else if (!strcmp(n, "asin"))
        *r = asin(a);
    else if (!strcmp(n, "acos"))
        *r = acos(a);
    else if (!strcmp(n, "atan"))
        *r = atan(a);
    else if (!strcmp(n, "atan2"))
        *r = atan2(a, b);
    else if (!strcmp(n, "sinh"))
        *r = sinh(a);
    else if (!strcmp(n, "cosh"))
        *r = cosh(a);
    else if (!strcmp(n, "tanh"))
        *r = tanh(a);
    else if (!strcmp(n, "degrees"))
        *r = a * (180.0 / M_PI);
    else if (!strcmp(n, "radians"))
        *r = a / 180.0 * M_PI;
    else if (!strcmp(n, "sign"))
        *r = isnan(a) ? a : (a > 0) - (a < 0);
    else if (!strcmp(n, "pi"))
        *r = M_PI;
    else if (!strcmp(n, "e"))
        *r = M_E;
    else
        return false;
    return true;
}

static int dbl_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                    int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    if (rc < 0) return rc;
    const char *n = call->fn->name;
    for (int64_t i = 0; i < nrows; i++) {
        double x[2] = {0, 0}, r;
        if (!hudi_sql_all_valid(args, call->n_args, i)) {
            hudi_sql_out_null(o, i);
            continue;
        }
        for (int32_t k = 0; k < call->n_args; k++) x[k] = HUDI_SQL_VAL(&args[k], double, i);
        if (dbl_apply(n, x, call->n_args, &r))
            HUDI_SQL_OUT(o, double, i, r);
        else
            hudi_sql_out_null(o, i);
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

/* ---- greatest, least
 * ------------------------------------------------------------------------------ */

static int extreme_bind(hudi_sql_bind_call *call, hudi_error *err) {
    int rc = hudi_sql_want_common(call, 0, call->n_args, &call->result, err);
    if (rc < 0) return rc;
    if (hudi_type_is_nested(call->result.type) && call->result.type == HUDI_TYPE_MAP)
        return hudi_sql_bind_error(call, err, "cannot order values of type map");
    return 0;
}

static int extreme_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                        int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    int32_t *choice = hudi_malloc((size_t)(nrows > 0 ? nrows : 1) * sizeof(int32_t));
    if (!choice) return hudi_error_oom(err);
    bool greatest = call->fn->name[0] == 'g';
    for (int64_t i = 0; i < nrows; i++) {
        int32_t best = -1;
        for (int32_t k = 0; k < call->n_args; k++) {
            if (!hudi_sql_valid(&args[k], i) || args[k].array->field->type == HUDI_TYPE_NULL)
                continue;
            if (best < 0) {
                best = k;
                continue;
            }
            int c = hudi_sql_cmp_value(args[k].array, hudi_sql_row(&args[k], i), args[best].array,
                                       hudi_sql_row(&args[best], i));
            if (greatest ? c > 0 : c < 0) best = k;
        }
        choice[i] = best;
    }
    int rc = hudi_sql_gather(&call->type, args, choice, nrows, out, err);
    hudi_free(choice);
    return rc;
}

#define F HUDI_SQL_SCALAR_FN

const hudi_sql_func hudi_sql_math_funcs[] = {
    F("abs", 1, 1, abs_bind, abs_eval, "abs(x) - absolute value"),
    F("round", 1, 2, round_bind, round_eval, "round(x[, d]) - x rounded half up to d decimals"),
    F("bround", 1, 2, round_bind, round_eval, "bround(x[, d]) - x rounded half even to d decimals"),
    F("floor", 1, 1, floor_bind, floor_eval, "floor(x) - the largest integer not above x"),
    F("ceil", 1, 1, floor_bind, floor_eval, "ceil(x) - the smallest integer not below x"),
    F("sqrt", 1, 1, dbl_bind, dbl_eval, "sqrt(x) - square root"),
    F("cbrt", 1, 1, dbl_bind, dbl_eval, "cbrt(x) - cube root"),
    F("exp", 1, 1, dbl_bind, dbl_eval, "exp(x) - e to the power x"),
    F("expm1", 1, 1, dbl_bind, dbl_eval, "expm1(x) - exp(x) - 1"),
    F("ln", 1, 1, dbl_bind, dbl_eval, "ln(x) - natural logarithm (NULL for x <= 0)"),
    F("log", 1, 2, dbl_bind, dbl_eval, "log([base,] x) - logarithm (natural without base)"),
    F("log10", 1, 1, dbl_bind, dbl_eval, "log10(x) - base-10 logarithm"),
    F("log2", 1, 1, dbl_bind, dbl_eval, "log2(x) - base-2 logarithm"),
    F("log1p", 1, 1, dbl_bind, dbl_eval, "log1p(x) - ln(1 + x)"),
    F("pow", 2, 2, dbl_bind, dbl_eval, "pow(x, y) - x to the power y (power)"),
    F("sin", 1, 1, dbl_bind, dbl_eval, "sin(x)"),
    F("cos", 1, 1, dbl_bind, dbl_eval, "cos(x)"),
    F("tan", 1, 1, dbl_bind, dbl_eval, "tan(x)"),
    F("asin", 1, 1, dbl_bind, dbl_eval, "asin(x)"),
    F("acos", 1, 1, dbl_bind, dbl_eval, "acos(x)"),
    F("atan", 1, 1, dbl_bind, dbl_eval, "atan(x)"),
    F("atan2", 2, 2, dbl_bind, dbl_eval, "atan2(y, x)"),
    F("sinh", 1, 1, dbl_bind, dbl_eval, "sinh(x)"),
    F("cosh", 1, 1, dbl_bind, dbl_eval, "cosh(x)"),
    F("tanh", 1, 1, dbl_bind, dbl_eval, "tanh(x)"),
    F("degrees", 1, 1, dbl_bind, dbl_eval, "degrees(x) - radians to degrees"),
    F("radians", 1, 1, dbl_bind, dbl_eval, "radians(x) - degrees to radians"),
    F("sign", 1, 1, dbl_bind, dbl_eval, "sign(x) - -1.0, 0.0 or 1.0 (signum)"),
    F("pi", 0, 0, dbl_bind, dbl_eval, "pi() - 3.141592653589793"),
    F("e", 0, 0, dbl_bind, dbl_eval, "e() - 2.718281828459045"),
    F("greatest", 2, -1, extreme_bind, extreme_eval,
      "greatest(a, b, ...) - the largest non-NULL argument"),
    F("least", 2, -1, extreme_bind, extreme_eval,
      "least(a, b, ...) - the smallest non-NULL argument"),
};
const int32_t hudi_sql_math_nfuncs = (int32_t)HUDI_ARRAY_LEN(hudi_sql_math_funcs);
