/* fn_nested.c - arrays, maps and structs: the constructors array, map, struct, named_struct;
 * element_at (what arr[i] and m[k] bind to), size/cardinality, array_contains, map_keys,
 * map_values; and typeof (docs/SQL.md "Functions and operators"). */
#include <stdio.h>
#include <strings.h>

#include "sql/fn_int.h"

/* A LIST type of `elem` in the arena. */
static int list_of(hudi_sql_bind_call *call, const hudi_field *elem, hudi_field *out,
                   hudi_error *err) {
    hudi_field *kid = hudi_arena_alloc(call->ctx->arena, sizeof(hudi_field));
    if (!kid) return hudi_error_oom(err);
    *kid = hudi_sql_keep(call, elem);
    kid->name = (char *)"element";
    kid->nullable = true;
    *out = hudi_sql_prim(HUDI_TYPE_LIST);
    out->children = kid;
    out->n_children = 1;
    return 0;
}

/* Appends rows [from, to) of `src` to the child of list `o` and makes them row i. */
static int put_elements(hudi_array *o, int64_t i, const hudi_array *src, int64_t from, int64_t to,
                        hudi_error *err) {
    hudi_array *kid = o->children[0];
    if (to > from) {
        int rc = hudi_array_append_range(kid, src, from, to - from, err);
        if (rc < 0) return rc;
    }
    o->offsets[i + 1] = (int32_t)kid->length;
    hudi_sql_out_valid(o, i);
    return 0;
}

static void null_list_row(hudi_array *o, int64_t i) {
    o->offsets[i + 1] = o->offsets[i];
    hudi_bit_clear(o->validity, i);
}

/* ---- array(...) ----------------------------------------------------------------------------- */

static int array_bind(hudi_sql_bind_call *call, hudi_error *err) {
    hudi_field elem = hudi_sql_prim(HUDI_TYPE_NULL);
    int rc = call->n_args ? hudi_sql_want_common(call, 0, call->n_args, &elem, err) : 0;
    if (rc < 0) return rc;
    return list_of(call, &elem, &call->result, err);
}

static int array_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                      int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    if (rc < 0) return rc;
    hudi_array *kid = o->children[0];
    for (int64_t i = 0; i < nrows && rc == 0; i++) {
        for (int32_t k = 0; k < call->n_args && rc == 0; k++) {
            const hudi_array *a = args[k].array;
            if (a->field->type == HUDI_TYPE_NULL)
                rc = hudi_array_append_null(kid, err);
            else
                rc = hudi_array_append_range(kid, a, hudi_sql_row(&args[k], i), 1, err);
        }
        if (rc == 0) rc = put_elements(o, i, kid, 0, 0, err);
    }
    if (rc < 0) {
        hudi_array_free(o);
        return rc;
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

/* ---- map(k, v, ...)
 * ------------------------------------------------------------------------------ */

static int map_bind(hudi_sql_bind_call *call, hudi_error *err) {
    if (call->n_args % 2)
        return hudi_sql_bind_error(call, err, "expects an even number of arguments (key, value)");
    hudi_field kt = hudi_sql_prim(HUDI_TYPE_NULL), vt = hudi_sql_prim(HUDI_TYPE_NULL);
    hudi_arena *arena = call->ctx->arena;
    for (int32_t i = 0; i < call->n_args; i++) {
        hudi_field *acc = i % 2 ? &vt : &kt;
        if (hudi_sql_common_type(arena, acc, &call->args[i]->type, acc, err) < 0)
            return hudi_sql_bind_error(call, err, "%s have no common type",
                                       i % 2 ? "the values" : "the keys");
    }
    for (int32_t i = 0; i < call->n_args; i++) call->arg_types[i] = i % 2 ? vt : kt;
    hudi_field *kv = hudi_arena_alloc(arena, sizeof(hudi_field));
    hudi_field *kids = hudi_arena_alloc(arena, 2 * sizeof(hudi_field));
    if (!kv || !kids) return hudi_error_oom(err);
    kids[0] = kt;
    kids[0].name = (char *)"key";
    kids[0].nullable = false;
    kids[1] = vt;
    kids[1].name = (char *)"value";
    *kv = hudi_sql_prim(HUDI_TYPE_STRUCT);
    kv->name = (char *)"key_value";
    kv->nullable = false;
    kv->children = kids;
    kv->n_children = 2;
    call->result = hudi_sql_prim(HUDI_TYPE_MAP);
    call->result.children = kv;
    call->result.n_children = 1;
    return 0;
}

static int map_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                    int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    if (rc < 0) return rc;
    hudi_array *kv = o->children[0], *keys = kv->children[0], *vals = kv->children[1];
    for (int64_t i = 0; i < nrows && rc == 0; i++) {
        int64_t first = keys->length;
        for (int32_t k = 0; k + 1 < call->n_args && rc == 0; k += 2) {
            const hudi_sql_datum *kd = &args[k], *vd = &args[k + 1];
            if (!hudi_sql_valid(kd, i) || kd->array->field->type == HUDI_TYPE_NULL) {
                rc = hudi_error_set(err, HUDI_EINVAL, "map: a map key cannot be NULL");
                break;
            }
            for (int64_t e = first; e < keys->length; e++)
                if (hudi_sql_cmp_value(keys, e, kd->array, hudi_sql_row(kd, i)) == 0)
                    rc = hudi_error_set(err, HUDI_EINVAL, "map: duplicate map key");
            if (rc < 0) break;
            if ((rc = hudi_array_append_range(keys, kd->array, hudi_sql_row(kd, i), 1, err)) < 0)
                break;
            rc = vd->array->field->type == HUDI_TYPE_NULL
                     ? hudi_array_append_null(vals, err)
                     : hudi_array_append_range(vals, vd->array, hudi_sql_row(vd, i), 1, err);
            if (rc == 0) rc = hudi_array_append_nested(kv, 0, err);
        }
        if (rc == 0) {
            o->offsets[i + 1] = (int32_t)keys->length;
            hudi_sql_out_valid(o, i);
        }
    }
    if (rc < 0) {
        hudi_array_free(o);
        return rc;
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

/* ---- struct(...), named_struct(name, value, ...) ------------------------------------------------
 */

static int struct_bind(hudi_sql_bind_call *call, hudi_error *err) {
    bool named = call->name[0] == 'n';
    if (named && call->n_args % 2)
        return hudi_sql_bind_error(call, err, "expects pairs of name and value");
    int32_t n = named ? call->n_args / 2 : call->n_args;
    hudi_field *kids = hudi_arena_alloc(call->ctx->arena, (size_t)(n ? n : 1) * sizeof(hudi_field));
    if (!kids) return hudi_error_oom(err);
    for (int32_t f = 0; f < n; f++) {
        const hudi_sql_bexpr *v = call->args[named ? 2 * f + 1 : f];
        kids[f] = hudi_sql_keep(call, &v->type);
        kids[f].nullable = true;
        if (named) {
            const char *name = hudi_sql_const_str(call, 2 * f, NULL);
            if (!name)
                return hudi_sql_bind_error(call, err, "field name %d must be a constant string",
                                           f + 1);
            kids[f].name = (char *)name;
        } else if (v->kind == HUDI_SQL_BX_COLUMN && v->text) {
            const char *dot = strrchr(v->text, '.');
            kids[f].name = hudi_arena_strdup(call->ctx->arena, dot ? dot + 1 : v->text);
        } else {
            char buf[24];
            snprintf(buf, sizeof(buf), "col%d", f + 1);
            kids[f].name = hudi_arena_strdup(call->ctx->arena, buf);
        }
        if (!kids[f].name) return hudi_error_oom(err);
        for (int32_t g = 0; g < f; g++)
            if (strcasecmp(kids[g].name, kids[f].name) == 0 && named)
                return hudi_sql_bind_error(call, err, "duplicate field name %s", kids[f].name);
    }
    call->result = hudi_sql_prim(HUDI_TYPE_STRUCT);
    call->result.children = kids;
    call->result.n_children = n;
    return 0;
}

static int struct_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                       int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    bool named = call->fn->name[0] == 'n';
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    if (rc < 0) return rc;
    for (int32_t f = 0; f < o->n_children && rc == 0; f++) {
        const hudi_sql_datum *d = &args[named ? 2 * f + 1 : f];
        hudi_array *kid = o->children[f];
        for (int64_t i = 0; i < nrows && rc == 0; i++)
            rc = d->array->field->type == HUDI_TYPE_NULL
                     ? hudi_array_append_null(kid, err)
                     : hudi_array_append_range(kid, d->array, hudi_sql_row(d, i), 1, err);
    }
    for (int64_t i = 0; i < nrows; i++) hudi_sql_out_valid(o, i);
    if (rc < 0) {
        hudi_array_free(o);
        return rc;
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

/* ---- element_at, size, array_contains, map_keys, map_values
 * --------------------------------------- */

static int element_at_bind(hudi_sql_bind_call *call, hudi_error *err) {
    const hudi_field *t = &call->args[0]->type;
    if (t->type == HUDI_TYPE_LIST) {
        call->result = hudi_sql_keep(call, &t->children[0]);
        call->result.nullable = true;
        return hudi_sql_want_id(call, 1, HUDI_TYPE_INT32, err);
    }
    if (t->type == HUDI_TYPE_MAP) {
        call->result = hudi_sql_keep(call, &t->children[0].children[1]);
        call->result.nullable = true;
        return hudi_sql_want(call, 1, t->children[0].children[0], err);
    }
    return hudi_sql_bind_error(call, err, "argument 1 requires an array or a map, not %s",
                               hudi_sql_type_str(call->ctx->arena, t));
}

static int element_at_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call,
                           const hudi_sql_datum *args, int64_t nrows, hudi_array **out,
                           hudi_error *err) {
    (void)ctx;
    int32_t *pick = hudi_malloc((size_t)(nrows > 0 ? nrows : 1) * sizeof(int32_t));
    if (!pick) return hudi_error_oom(err);
    const hudi_array *a = args[0].array;
    bool is_map = a->field->type == HUDI_TYPE_MAP;
    const hudi_array *elems = is_map ? a->children[0]->children[1] : a->children[0];
    for (int64_t i = 0; i < nrows; i++) {
        pick[i] = -1;
        if (!hudi_sql_valid(&args[0], i) || !hudi_sql_valid(&args[1], i)) continue;
        int64_t r = hudi_sql_row(&args[0], i);
        int32_t lo = a->offsets[r], n = a->offsets[r + 1] - lo;
        if (is_map) {
            const hudi_array *keys = a->children[0]->children[0];
            for (int32_t k = 0; k < n; k++)
                if (hudi_sql_cmp_value(keys, lo + k, args[1].array, hudi_sql_row(&args[1], i)) ==
                    0) {
                    pick[i] = lo + k;
                    break;
                }
        } else {
            /* 1-based; negative counts from the end; 0 and out of range are NULL */
            int32_t idx = HUDI_SQL_VAL(&args[1], int32_t, i);
            if (idx > 0 && idx <= n) pick[i] = lo + idx - 1;
            if (idx < 0 && -(int64_t)idx <= n) pick[i] = lo + n + idx;
        }
    }
    hudi_array *o = NULL;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    for (int64_t i = 0; i < nrows && rc == 0; i++)
        rc = hudi_sql_out_copy(o, i, pick[i] >= 0 ? elems : NULL, pick[i], err);
    hudi_free(pick);
    if (rc < 0) {
        if (o) hudi_array_free(o);
        return rc;
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

static int size_bind(hudi_sql_bind_call *call, hudi_error *err) {
    hudi_type_id t = call->args[0]->type.type;
    if (t != HUDI_TYPE_LIST && t != HUDI_TYPE_MAP && t != HUDI_TYPE_NULL)
        return hudi_sql_bind_error(call, err, "argument 1 requires an array or a map, not %s",
                                   hudi_sql_type_str(call->ctx->arena, &call->args[0]->type));
    call->result = hudi_sql_prim(HUDI_TYPE_INT32);
    return 0;
}

static int size_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                     int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    if (rc < 0) return rc;
    const hudi_array *a = args[0].array;
    for (int64_t i = 0; i < nrows; i++) {
        /* Spark's default (spark.sql.legacy.sizeOfNull): size(NULL) is -1 */
        int32_t v = -1;
        if (a->field->type != HUDI_TYPE_NULL && hudi_sql_valid(&args[0], i)) {
            int64_t r = hudi_sql_row(&args[0], i);
            v = a->offsets[r + 1] - a->offsets[r];
        }
        HUDI_SQL_OUT(o, int32_t, i, v);
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

static int contains_bind(hudi_sql_bind_call *call, hudi_error *err) {
    const hudi_field *t = &call->args[0]->type;
    if (t->type != HUDI_TYPE_LIST)
        return hudi_sql_bind_error(call, err, "argument 1 requires an array, not %s",
                                   hudi_sql_type_str(call->ctx->arena, t));
    call->result = hudi_sql_prim(HUDI_TYPE_BOOL);
    return hudi_sql_want(call, 1, t->children[0], err);
}

static int contains_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                         int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    if (rc < 0) return rc;
    const hudi_array *a = args[0].array, *e = a->children[0];
    for (int64_t i = 0; i < nrows; i++) {
        if (!hudi_sql_valid(&args[0], i) || !hudi_sql_valid(&args[1], i)) {
            hudi_sql_out_null(o, i);
            continue;
        }
        int64_t r = hudi_sql_row(&args[0], i);
        bool found = false, saw_null = false;
        for (int32_t k = a->offsets[r]; k < a->offsets[r + 1] && !found; k++) {
            if (!hudi_array_is_valid(e, k))
                saw_null = true;
            else
                found = hudi_sql_cmp_value(e, k, args[1].array, hudi_sql_row(&args[1], i)) == 0;
        }
        if (found || !saw_null)
            hudi_sql_out_bool(o, i, found);
        else
            hudi_sql_out_null(o, i);
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

static int map_part_bind(hudi_sql_bind_call *call, hudi_error *err) {
    const hudi_field *t = &call->args[0]->type;
    if (t->type != HUDI_TYPE_MAP)
        return hudi_sql_bind_error(call, err, "argument 1 requires a map, not %s",
                                   hudi_sql_type_str(call->ctx->arena, t));
    bool keys = strcmp(call->name, "map_keys") == 0;
    return list_of(call, &t->children[0].children[keys ? 0 : 1], &call->result, err);
}

static int map_part_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                         int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    if (rc < 0) return rc;
    const hudi_array *a = args[0].array;
    const hudi_array *part = a->children[0]->children[strcmp(call->fn->name, "map_keys") ? 1 : 0];
    for (int64_t i = 0; i < nrows && rc == 0; i++) {
        if (!hudi_sql_valid(&args[0], i)) {
            null_list_row(o, i);
            continue;
        }
        int64_t r = hudi_sql_row(&args[0], i);
        rc = put_elements(o, i, part, a->offsets[r], a->offsets[r + 1], err);
    }
    if (rc < 0) {
        hudi_array_free(o);
        return rc;
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

/* ---- typeof
 * --------------------------------------------------------------------------------------- */

static int typeof_bind(hudi_sql_bind_call *call, hudi_error *err) {
    (void)err;
    call->result = hudi_sql_prim(HUDI_TYPE_STRING);
    call->result.nullable = false;
    call->state = (void *)hudi_sql_type_str(call->ctx->arena, &call->args[0]->type);
    return 0;
}

static int typeof_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                       int64_t nrows, hudi_array **out, hudi_error *err) {
    (void)ctx;
    (void)args;
    hudi_array *o;
    int rc = hudi_sql_out_new(&call->type, nrows, &o, err);
    const char *name = call->fn_state ? call->fn_state : "";
    for (int64_t i = 0; i < nrows && rc == 0; i++)
        rc = hudi_sql_out_str(o, i, name, strlen(name), err);
    if (rc < 0) {
        hudi_array_free(o);
        return rc;
    }
    hudi_sql_out_done(o, nrows);
    *out = o;
    return 0;
}

#define F HUDI_SQL_SCALAR_FN

const hudi_sql_func hudi_sql_nested_funcs[] = {
    F("array", 0, -1, array_bind, array_eval, "array(a, ...) - an array of the arguments"),
    F("map", 0, -1, map_bind, map_eval,
      "map(k1, v1, ...) - a map (a NULL or duplicate key is an error)"),
    F("struct", 1, -1, struct_bind, struct_eval,
      "struct(a, ...) - a struct; fields are named after columns, else col1, col2, ..."),
    F("named_struct", 2, -1, struct_bind, struct_eval,
      "named_struct(name1, v1, ...) - a struct with the given field names"),
    F("element_at", 2, 2, element_at_bind, element_at_eval,
      "element_at(array, i) - element i (1-based, negative from the end, NULL outside); "
      "element_at(map, key) - the key's value or NULL"),
    F("size", 1, 1, size_bind, size_eval,
      "size(array or map) - the number of elements; -1 for NULL (cardinality)"),
    F("array_contains", 2, 2, contains_bind, contains_eval,
      "array_contains(array, v) - whether the array holds v"),
    F("map_keys", 1, 1, map_part_bind, map_part_eval, "map_keys(map) - the keys as an array"),
    F("map_values", 1, 1, map_part_bind, map_part_eval, "map_values(map) - the values as an array"),
    F("typeof", 1, 1, typeof_bind, typeof_eval, "typeof(x) - the Spark type name of x"),
};
const int32_t hudi_sql_nested_nfuncs = (int32_t)HUDI_ARRAY_LEN(hudi_sql_nested_funcs);
