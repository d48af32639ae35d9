/* expr.c - evaluation of bound expressions over a batch (engine.h "bound expressions"), the
 * statement's cancel check and memory accounting.
 *
 * Invariant: a column reference is returned borrowed from the input batch and a literal as a
 * borrowed constant (one row standing for every row); only function calls allocate, and their
 * result belongs to the caller of hudi_sql_eval. */
#include "sql/exec_int.h"

int hudi_sql_check_cancel(const hudi_sql_ctx *ctx, hudi_error *err) {
    if (ctx && ctx->cancel && atomic_load(ctx->cancel))
        return hudi_error_set(err, HUDI_ECANCELED, "statement canceled");
    return 0;
}

int hudi_sql_mem_charge(hudi_sql_ctx *ctx, int64_t bytes, hudi_error *err) {
    ctx->memory_used += bytes;
    if (bytes > 0 && ctx->memory_limit > 0 && ctx->memory_used > ctx->memory_limit) {
        ctx->memory_used -= bytes; /* not held: the caller does not give it back */
        return hudi_error_set(err, HUDI_ENOMEM,
                              "query needs more than hudic.memory.limit (%lld bytes)",
                              (long long)ctx->memory_limit);
    }
    return 0;
}

void hudi_sql_datum_dispose(hudi_sql_datum *d) {
    if (!d) return;
    if (d->owned) hudi_array_free(d->array);
    d->array = NULL;
    d->owned = false;
    d->is_const = false;
}

static const char *expr_text(const hudi_sql_bexpr *e) {
    if (e->text) return e->text;
    if (e->kind == HUDI_SQL_BX_CALL && e->fn) return e->fn->name;
    return "expression";
}

int hudi_sql_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *e, const hudi_batch *in,
                  hudi_sql_datum *out, hudi_error *err) {
    *out = (hudi_sql_datum){NULL, false, false};
    switch (e->kind) {
    case HUDI_SQL_BX_COLUMN:
    case HUDI_SQL_BX_AGGREF:
        /* AGGREF: `column` is the aggregate's column in the AGGREGATE output (engine.h). */
        if (e->column < 0 || e->column >= in->n_columns)
            return hudi_error_set(err, HUDI_EINVAL, "%s: column %d of a %d-column input",
                                  expr_text(e), e->column, in->n_columns);
        out->array = in->columns[e->column];
        return 0;
    case HUDI_SQL_BX_CONST:
        if (!e->value || e->value->length < 1)
            return hudi_error_set(err, HUDI_EINVAL, "%s: constant without a value", expr_text(e));
        out->array = e->value;
        out->is_const = true;
        return 0;
    case HUDI_SQL_BX_CALL: break;
    default:
        return hudi_error_set(err, HUDI_EINVAL, "%s: unknown expression kind %d", expr_text(e),
                              (int)e->kind);
    }
    if (!e->fn || !e->fn->eval)
        return hudi_error_set(err, HUDI_EINVAL, "%s: %s is not a scalar function", expr_text(e),
                              e->fn ? e->fn->name : "call");
    hudi_sql_datum local[8], *args = local;
    int rc = 0;
    int32_t done = 0;
    if (e->n_args > (int32_t)HUDI_ARRAY_LEN(local) &&
        !(args = hudi_calloc((size_t)e->n_args, sizeof(*args))))
        return hudi_error_oom(err);
    for (; done < e->n_args; done++)
        if ((rc = hudi_sql_eval(ctx, e->args[done], in, &args[done], err)) < 0) goto done;
    hudi_array *res = NULL;
    if ((rc = e->fn->eval(ctx, e, args, in->num_rows, &res, err)) < 0) goto done;
    if (!res || res->length != in->num_rows) {
        hudi_array_free(res);
        rc = hudi_error_set(err, HUDI_EINVAL, "%s: function %s returned %lld rows for %lld",
                            expr_text(e), e->fn->name, res ? (long long)res->length : -1LL,
                            (long long)in->num_rows);
        goto done;
    }
    *out = (hudi_sql_datum){res, false, true};
done:
    for (int32_t i = 0; i < done; i++) hudi_sql_datum_dispose(&args[i]);
    if (args != local) hudi_free(args);
    return rc;
}

int hudi_sql_eval_array(hudi_sql_ctx *ctx, const hudi_sql_bexpr *e, const hudi_batch *in,
                        hudi_array **out, hudi_error *err) {
    *out = NULL;
    hudi_sql_datum d;
    int rc = hudi_sql_eval(ctx, e, in, &d, err);
    if (rc < 0) return rc;
    if (d.is_const)
        rc = hudi_sql_array_repeat(out, d.array, in->num_rows, err);
    else if (!d.owned)
        rc = hudi_array_slice(out, d.array, 0, d.array->length, err);
    else {
        *out = d.array;
        d.owned = false;
    }
    hudi_sql_datum_dispose(&d);
    return rc;
}

int64_t hudi_sql_eval_select(hudi_sql_ctx *ctx, const hudi_sql_bexpr *e, const hudi_batch *in,
                             uint8_t *sel, hudi_error *err) {
    hudi_sql_datum d;
    int rc = hudi_sql_eval(ctx, e, in, &d, err);
    if (rc < 0) return rc;
    const hudi_array *a = d.array;
    int64_t n = in->num_rows, count = 0;
    if (a->field->type == HUDI_TYPE_NULL) {
        memset(sel, 0, (size_t)n);
    } else if (a->field->type != HUDI_TYPE_BOOL) {
        hudi_sql_datum_dispose(&d);
        return hudi_error_set(err, HUDI_EINVAL, "%s: a condition must be boolean, not %s",
                              expr_text(e), hudi_type_name(a->field->type));
    } else if (d.is_const) {
        bool v = hudi_array_is_valid(a, 0) && hudi_bit_get(a->values, 0);
        memset(sel, v, (size_t)n);
        count = v ? n : 0;
    } else {
        const uint8_t *bits = a->values, *valid = a->validity;
        for (int64_t i = 0; i < n; i++) {
            uint8_t v = (uint8_t)(hudi_bit_get(bits, i) & (valid ? hudi_bit_get(valid, i) : 1));
            sel[i] = v;
            count += v;
        }
    }
    hudi_sql_datum_dispose(&d);
    return count;
}
