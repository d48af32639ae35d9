/* exec_test.c - the vectorized executor (src/sql/expr.c, kernels.c, exec.c, aggregate.c,
 * exec_sort.c, exec_join.c, exec_setop.c) on plans built by hand: VALUES and BATCHES leaves
 * (inputs cut into batches of 3 rows), column and constant expressions, and two small scalar
 * functions of the test's own (">" and "+" on bigints). Results are checked row by row. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sql/exec_int.h"
#include "support.h"

#define NUL INT64_MIN /* a null bigint/int/decimal cell in the row builders */

static hudi_arena A;
static hudi_sql_ctx CTX;
static atomic_int CANCEL;
static hudi_vec owned_batches = HUDI_VEC_INIT(hudi_batch *);
static hudi_vec owned_arrays = HUDI_VEC_INIT(hudi_array *);

static void setup(void) {
    A = (hudi_arena)HUDI_ARENA_INIT;
    atomic_store(&CANCEL, 0);
    CTX = (hudi_sql_ctx){.arena = &A, .cancel = &CANCEL, .tz_name = "UTC", .batch_rows = 8192};
}

static void teardown(void) {
    for (size_t i = 0; i < owned_batches.len; i++)
        hudi_batch_free(hudi_vec_at(&owned_batches, hudi_batch *, i));
    for (size_t i = 0; i < owned_arrays.len; i++)
        hudi_array_free(hudi_vec_at(&owned_arrays, hudi_array *, i));
    hudi_vec_dispose(&owned_batches);
    hudi_vec_dispose(&owned_arrays);
    hudi_arena_dispose(&A);
}

TestSuite(exec, .init = setup, .fini = teardown);

static void *own_batch(hudi_batch *b) {
    *(hudi_batch **)hudi_vec_push(&owned_batches) = b;
    return b;
}
static void *own_array(hudi_array *a) {
    *(hudi_array **)hudi_vec_push(&owned_arrays) = a;
    return a;
}

static void *zalloc(size_t n) {
    void *p = hudi_arena_alloc(&A, n);
    cr_assert(p);
    return p;
}

/* ---- types and schemas ---------------------------------------------------------------------- */

static hudi_field ty(hudi_type_id t) {
    hudi_field f;
    memset(&f, 0, sizeof(f));
    f.type = t;
    f.nullable = true;
    f.field_id = -1;
    f.unit = HUDI_UNIT_MICROS;
    return f;
}
static hudi_field dec_ty(int p, int s) {
    hudi_field f = ty(HUDI_TYPE_DECIMAL);
    f.precision = p;
    f.scale = s;
    return f;
}

static hudi_field *schema_of(int n, const hudi_field *cols) {
    hudi_field *s = zalloc(sizeof(*s));
    *s = ty(HUDI_TYPE_STRUCT);
    s->n_children = n;
    s->children = zalloc(sizeof(hudi_field) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        s->children[i] = cols[i];
        char *name = zalloc(16);
        snprintf(name, 16, "c%d", i);
        s->children[i].name = name;
    }
    return s;
}
#define SCHEMA(...)                                                                                \
    schema_of((int)(sizeof((hudi_field[]){__VA_ARGS__}) / sizeof(hudi_field)),                     \
              (hudi_field[]){__VA_ARGS__})

/* ---- batches ----------------------------------------------------------------------------------
 */

static hudi_batch *new_batch(const hudi_field *schema) {
    hudi_batch *b;
    cr_assert_eq(hudi_batch_new(&b, schema, NULL), 0);
    return own_batch(b);
}

static void append_cell(hudi_array *a, va_list *ap) {
    int rc = 0;
    switch (a->field->type) {
    case HUDI_TYPE_INT64:
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_DECIMAL: {
        int64_t v = va_arg(*ap, int64_t);
        if (v == NUL) {
            rc = hudi_array_append_null(a, NULL);
        } else if (a->field->type == HUDI_TYPE_INT32) {
            int32_t x = (int32_t)v;
            rc = hudi_array_append_fixed(a, &x, NULL);
        } else if (a->field->type == HUDI_TYPE_DECIMAL) {
            __int128 x = v;
            rc = hudi_array_append_fixed(a, &x, NULL);
        } else {
            rc = hudi_array_append_fixed(a, &v, NULL);
        }
        break;
    }
    case HUDI_TYPE_DOUBLE: {
        double v = va_arg(*ap, double);
        rc = v == -12345.0 ? hudi_array_append_null(a, NULL) : hudi_array_append_fixed(a, &v, NULL);
        break;
    }
    case HUDI_TYPE_STRING: {
        const char *s = va_arg(*ap, const char *);
        rc = s ? hudi_array_append_bytes(a, s, strlen(s), NULL) : hudi_array_append_null(a, NULL);
        break;
    }
    case HUDI_TYPE_BOOL: {
        int v = va_arg(*ap, int);
        rc = v < 0 ? hudi_array_append_null(a, NULL) : hudi_array_append_bool(a, v, NULL);
        break;
    }
    default: cr_assert_fail("no cell builder for %s", hudi_type_name(a->field->type));
    }
    cr_assert_eq(rc, 0);
}

/* Appends one row: bigint/int/decimal cells are int64_t (NUL = null; decimals unscaled),
 * doubles are double (-12345.0 = null), strings const char * (NULL = null), bools int (-1). */
static void row(hudi_batch *b, ...) {
    va_list ap;
    va_start(ap, b);
    for (int32_t c = 0; c < b->n_columns; c++) append_cell(b->columns[c], &ap);
    va_end(ap);
    b->num_rows++;
}

/* ---- plans -------------------------------------------------------------------------------- */

static hudi_sql_plan *plan(hudi_sql_plan_kind kind, const hudi_field *schema) {
    hudi_sql_plan *p = zalloc(sizeof(*p));
    p->kind = kind;
    p->schema = *schema;
    p->limit = -1;
    return p;
}

/* A BATCHES leaf over `all`'s rows, cut into batches of `per` rows. */
static hudi_sql_plan *leaf(const hudi_batch *all, int64_t per) {
    hudi_sql_plan *p = plan(HUDI_SQL_P_BATCHES, all->schema);
    int64_t n = (all->num_rows + per - 1) / per;
    p->batches = zalloc(sizeof(hudi_batch *) * (size_t)(n + 1));
    for (int64_t k = 0; k < n; k++) {
        hudi_batch *b = new_batch(&p->schema);
        int64_t from = k * per, len = HUDI_MIN(per, all->num_rows - from);
        for (int32_t c = 0; c < b->n_columns; c++)
            cr_assert_eq(hudi_array_append_range(b->columns[c], all->columns[c], from, len, NULL),
                         0);
        b->num_rows = len;
        p->batches[p->n_batches++] = b;
    }
    return p;
}

static hudi_sql_bexpr *col(const hudi_sql_plan *in, int32_t i) {
    hudi_sql_bexpr *e = zalloc(sizeof(*e));
    e->kind = HUDI_SQL_BX_COLUMN;
    e->column = i;
    e->type = in->schema.children[i];
    return e;
}

static hudi_sql_bexpr *cst_int(int64_t v) {
    hudi_sql_bexpr *e = zalloc(sizeof(*e));
    e->kind = HUDI_SQL_BX_CONST;
    e->type = ty(HUDI_TYPE_INT64);
    hudi_field *f = zalloc(sizeof(*f));
    *f = e->type;
    cr_assert_eq(hudi_array_new(&e->value, f, NULL), 0);
    own_array(e->value);
    if (v == NUL)
        cr_assert_eq(hudi_array_append_null(e->value, NULL), 0);
    else
        cr_assert_eq(hudi_array_append_fixed(e->value, &v, NULL), 0);
    return e;
}

static hudi_sql_bexpr *cst_str(const char *s) {
    hudi_sql_bexpr *e = zalloc(sizeof(*e));
    e->kind = HUDI_SQL_BX_CONST;
    e->type = ty(HUDI_TYPE_STRING);
    hudi_field *f = zalloc(sizeof(*f));
    *f = e->type;
    cr_assert_eq(hudi_array_new(&e->value, f, NULL), 0);
    own_array(e->value);
    cr_assert_eq(hudi_array_append_bytes(e->value, s, strlen(s), NULL), 0);
    return e;
}

/* The test's scalar functions: bigint > bigint and bigint + bigint, null when an input is. */
static int64_t evals; /* rows evaluated by t_add (LIMIT stops pulling) */

static int eval_bin(const hudi_sql_bexpr *call, const hudi_sql_datum *args, int64_t n,
                    hudi_array **out, bool gt) {
    hudi_field *f = zalloc(sizeof(*f));
    *f = call->type;
    cr_assert_eq(hudi_array_new(out, f, NULL), 0);
    for (int64_t i = 0; i < n; i++) {
        const hudi_array *a = args[0].array, *b = args[1].array;
        int64_t ia = hudi_sql_datum_row(&args[0], i), ib = hudi_sql_datum_row(&args[1], i);
        if (!hudi_array_is_valid(a, ia) || !hudi_array_is_valid(b, ib)) {
            cr_assert_eq(hudi_array_append_null(*out, NULL), 0);
            continue;
        }
        int64_t x = ((const int64_t *)a->values)[ia], y = ((const int64_t *)b->values)[ib];
        if (gt) {
            cr_assert_eq(hudi_array_append_bool(*out, x > y, NULL), 0);
        } else {
            int64_t s = x + y;
            cr_assert_eq(hudi_array_append_fixed(*out, &s, NULL), 0);
        }
    }
    return 0;
}
static int eval_gt(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                   int64_t n, hudi_array **out, hudi_error *err) {
    return eval_bin(call, args, n, out, true);
}
static int eval_add(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                    int64_t n, hudi_array **out, hudi_error *err) {
    evals += n;
    return eval_bin(call, args, n, out, false);
}
static const hudi_sql_func fn_gt = {">", HUDI_SQL_FN_SCALAR, 2, 2, NULL, eval_gt, NULL, "test"};
static const hudi_sql_func fn_add = {"+", HUDI_SQL_FN_SCALAR, 2, 2, NULL, eval_add, NULL, "test"};

static hudi_sql_bexpr *call2(const hudi_sql_func *fn, hudi_sql_bexpr *a, hudi_sql_bexpr *b) {
    hudi_sql_bexpr *e = zalloc(sizeof(*e));
    e->kind = HUDI_SQL_BX_CALL;
    e->fn = fn;
    e->type = ty(fn == &fn_gt ? HUDI_TYPE_BOOL : HUDI_TYPE_INT64);
    e->n_args = 2;
    e->args = zalloc(2 * sizeof(*e->args));
    e->args[0] = a;
    e->args[1] = b;
    return e;
}

static hudi_sql_plan *p_filter(hudi_sql_plan *child, hudi_sql_bexpr *cond) {
    hudi_sql_plan *p = plan(HUDI_SQL_P_FILTER, &child->schema);
    p->left = child;
    p->cond = cond;
    return p;
}

static hudi_sql_plan *p_project(hudi_sql_plan *child, int n, hudi_sql_bexpr **exprs) {
    hudi_field *cols = zalloc(sizeof(hudi_field) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) cols[i] = exprs[i]->type;
    hudi_sql_plan *p = plan(HUDI_SQL_P_PROJECT, schema_of(n, cols));
    p->left = child;
    p->n_exprs = n;
    p->exprs = exprs;
    return p;
}

static hudi_sql_plan *p_limit(hudi_sql_plan *child, int64_t limit, int64_t offset) {
    hudi_sql_plan *p = plan(HUDI_SQL_P_LIMIT, &child->schema);
    p->left = child;
    p->limit = limit;
    p->offset = offset;
    return p;
}

static const hudi_sql_func *agg_fn(const char *name) {
    int32_t n;
    const hudi_sql_func *const *all = hudi_sql_aggregate_funcs(&n);
    for (int32_t i = 0; i < n; i++)
        if (!strcmp(all[i]->name, name)) return all[i];
    cr_assert_fail("no aggregate %s", name);
    return NULL;
}

/* An aggregate call over `arg` (NULL: count(*)), its type from the function's bind. */
static hudi_sql_aggcall *agg(const char *name, hudi_sql_bexpr *arg, bool distinct,
                             hudi_sql_bexpr *filter) {
    hudi_sql_aggcall *c = zalloc(sizeof(*c));
    c->fn = agg_fn(name);
    c->distinct = distinct;
    c->star = arg == NULL;
    c->filter = filter;
    c->n_args = arg ? 1 : 0;
    c->args = zalloc(sizeof(*c->args));
    c->args[0] = arg;
    hudi_sql_bind_call b = {.ctx = &CTX, .name = name, .n_args = c->n_args, .args = c->args};
    b.arg_types = zalloc(sizeof(hudi_field));
    if (arg) b.arg_types[0] = arg->type;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(c->fn->bind(&b, &err), 0, "%s", err.message);
    c->type = b.result;
    return c;
}

static hudi_sql_plan *p_agg(hudi_sql_plan *child, int ng, hudi_sql_bexpr **group, int na,
                            hudi_sql_aggcall **aggs) {
    hudi_field *cols = zalloc(sizeof(hudi_field) * (size_t)(ng + na + 1));
    for (int i = 0; i < ng; i++) cols[i] = group[i]->type;
    for (int i = 0; i < na; i++) cols[ng + i] = aggs[i]->type;
    hudi_sql_plan *p = plan(HUDI_SQL_P_AGGREGATE, schema_of(ng + na, cols));
    p->left = child;
    p->n_group = ng;
    p->group = group;
    p->n_aggs = na;
    p->aggs = aggs;
    return p;
}

static hudi_sql_plan *p_sort(hudi_sql_plan *child, int n, hudi_sql_sort_key *keys, int64_t limit) {
    hudi_sql_plan *p = plan(HUDI_SQL_P_SORT, &child->schema);
    p->left = child;
    p->n_keys = n;
    p->keys = keys;
    p->limit = limit;
    return p;
}

static hudi_sql_plan *p_join(hudi_sql_join_kind kind, hudi_sql_plan *l, hudi_sql_plan *r, int nk,
                             hudi_sql_bexpr **lk, hudi_sql_bexpr **rk, hudi_sql_bexpr *cond) {
    bool left_only = kind == HUDI_SQL_J_SEMI || kind == HUDI_SQL_J_ANTI;
    hudi_field both;
    cr_assert_eq(hudi_sql_concat_schema(&A, &l->schema, &r->schema, &both, NULL), 0);
    hudi_sql_plan *p = plan(HUDI_SQL_P_JOIN, left_only ? &l->schema : &both);
    p->left = l;
    p->right = r;
    p->join = kind;
    p->n_keys = nk;
    p->left_keys = lk;
    p->right_keys = rk;
    p->cond = cond;
    return p;
}

static hudi_sql_plan *p_setop(hudi_sql_setop op, bool all, hudi_sql_plan *l, hudi_sql_plan *r) {
    hudi_sql_plan *p = plan(HUDI_SQL_P_SETOP, &l->schema);
    p->left = l;
    p->right = r;
    p->setop = op;
    p->all = all;
    return p;
}

static hudi_sql_plan *p_distinct(hudi_sql_plan *child) {
    hudi_sql_plan *p = plan(HUDI_SQL_P_DISTINCT, &child->schema);
    p->left = child;
    return p;
}

/* ---- results ----------------------------------------------------------------------------------
 */

static void render_cell(hudi_buf *out, const hudi_array *a, int64_t i) {
    if (!hudi_array_is_valid(a, i)) {
        hudi_buf_puts(out, "NULL");
        return;
    }
    switch (a->field->type) {
    case HUDI_TYPE_INT64: hudi_buf_printf(out, "%lld", (long long)((int64_t *)a->values)[i]); break;
    case HUDI_TYPE_INT32: hudi_buf_printf(out, "%d", ((int32_t *)a->values)[i]); break;
    case HUDI_TYPE_DOUBLE: hudi_buf_printf(out, "%g", ((double *)a->values)[i]); break;
    case HUDI_TYPE_BOOL: hudi_buf_puts(out, hudi_bit_get(a->values, i) ? "true" : "false"); break;
    case HUDI_TYPE_STRING:
        hudi_buf_append(out, a->data + a->offsets[i], (size_t)(a->offsets[i + 1] - a->offsets[i]));
        break;
    case HUDI_TYPE_DECIMAL: {
        __int128 v;
        memcpy(&v, (uint8_t *)a->values + 16 * i, 16);
        bool neg = v < 0;
        unsigned __int128 u = neg ? -(unsigned __int128)v : (unsigned __int128)v;
        char digits[64];
        int n = 0;
        do {
            digits[n++] = (char)('0' + (int)(u % 10));
            u /= 10;
        } while (u || n <= a->field->scale);
        if (neg) hudi_buf_putc(out, '-');
        for (int k = n - 1; k >= 0; k--) {
            hudi_buf_putc(out, digits[k]);
            if (k == a->field->scale && k > 0) hudi_buf_putc(out, '.');
        }
        break;
    }
    default: hudi_buf_printf(out, "<%s>", hudi_type_name(a->field->type));
    }
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Rows as "a,b|c,d" (in order, or sorted when `sorted`); the caller frees. */
static char *render(const hudi_batch *b, bool sorted) {
    char **lines = calloc((size_t)b->num_rows + 1, sizeof(*lines));
    for (int64_t r = 0; r < b->num_rows; r++) {
        hudi_buf line = HUDI_BUF_INIT;
        for (int32_t c = 0; c < b->n_columns; c++) {
            if (c) hudi_buf_putc(&line, ',');
            render_cell(&line, b->columns[c], r);
        }
        lines[r] = hudi_buf_detach(&line);
        if (!lines[r]) lines[r] = hudi_strdup("");
    }
    if (sorted) qsort(lines, (size_t)b->num_rows, sizeof(*lines), cmp_str);
    hudi_buf all = HUDI_BUF_INIT;
    for (int64_t r = 0; r < b->num_rows; r++) {
        if (r) hudi_buf_putc(&all, '|');
        hudi_buf_puts(&all, lines[r]);
        hudi_free(lines[r]);
    }
    free(lines);
    char *s = hudi_buf_detach(&all);
    return s ? s : hudi_strdup("");
}

/* Runs the plan to the end (also checking every batch against the plan's schema). */
static char *run(const hudi_sql_plan *p, bool sorted) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_sql_oper *op;
    cr_assert_eq(hudi_sql_op_open(&op, &CTX, p, &err), 0, "%s", err.message);
    hudi_batch *all = new_batch(&p->schema), *b;
    for (;;) {
        int rc = hudi_sql_op_next(op, &b, &err);
        cr_assert_eq(rc, 0, "%s", err.message);
        if (!b) break;
        cr_assert_gt(b->num_rows, 0, "operators return no empty batches");
        cr_assert_eq(b->n_columns, p->schema.n_children);
        cr_assert_eq(hudi_batch_validate(b, &err), 0, "%s", err.message);
        cr_assert_eq(hudi_sql_batch_append(all, b, &err), 0, "%s", err.message);
    }
    hudi_sql_op_free(op);
    cr_assert_eq(CTX.memory_used, 0, "operators give back what they charged");
    return render(all, sorted);
}

static void expect(const hudi_sql_plan *p, bool sorted, const char *want) {
    char *got = run(p, sorted);
    cr_assert_str_eq(got, want);
    hudi_free(got);
}

/* Runs to the first error and returns its code (message in err). */
static int run_error(const hudi_sql_plan *p, hudi_error *err) {
    hudi_sql_oper *op;
    int rc = hudi_sql_op_open(&op, &CTX, p, err);
    if (rc < 0) return rc;
    hudi_batch *b;
    while ((rc = hudi_sql_op_next(op, &b, err)) == 0 && b) {
    }
    hudi_sql_op_free(op);
    return rc;
}

/* A two-column table (bigint key, bigint value) from pairs. */
static hudi_batch *kv(int n, const int64_t *cells) {
    hudi_batch *b = new_batch(SCHEMA(ty(HUDI_TYPE_INT64), ty(HUDI_TYPE_INT64)));
    for (int i = 0; i < n; i++) row(b, cells[2 * i], cells[2 * i + 1]);
    return b;
}

/* ---- streaming operators ------------------------------------------------------------------------
 */

Test(exec, values_project_filter) {
    /* VALUES (1, 'a'), (NULL, 'b'), (5, 'c') */
    hudi_sql_plan *v = plan(HUDI_SQL_P_VALUES, SCHEMA(ty(HUDI_TYPE_INT64), ty(HUDI_TYPE_STRING)));
    v->n_rows = 3;
    v->rows = zalloc(6 * sizeof(*v->rows));
    v->rows[0] = cst_int(1), v->rows[1] = cst_str("a");
    v->rows[2] = cst_int(NUL), v->rows[3] = cst_str("b");
    v->rows[4] = cst_int(5), v->rows[5] = cst_str("c");
    expect(v, false, "1,a|NULL,b|5,c");
    /* SELECT c1, c0 + 10, 'k' FROM v WHERE c0 > 1 */
    hudi_sql_plan *f = p_filter(v, call2(&fn_gt, col(v, 0), cst_int(1)));
    hudi_sql_bexpr **ex = zalloc(3 * sizeof(*ex));
    ex[0] = col(f, 1);
    ex[1] = call2(&fn_add, col(f, 0), cst_int(10));
    ex[2] = cst_str("k");
    expect(p_project(f, 3, ex), false, "c,15,k");
    /* a filter that keeps every row passes the child's columns through */
    expect(p_filter(v, call2(&fn_gt, cst_int(2), cst_int(1))), false, "1,a|NULL,b|5,c");
    expect(p_filter(v, call2(&fn_gt, cst_int(NUL), cst_int(1))), false, "");
}

Test(exec, values_of_no_columns_has_rows) {
    /* SELECT 7 (no FROM): a 1-row VALUES of no columns under a projection */
    hudi_sql_plan *v = plan(HUDI_SQL_P_VALUES, schema_of(0, NULL));
    v->n_rows = 1;
    hudi_sql_bexpr **ex = zalloc(sizeof(*ex));
    ex[0] = cst_int(7);
    expect(p_project(v, 1, ex), false, "7");
}

Test(exec, limit_offset_stop_pulling) {
    hudi_batch *t = new_batch(SCHEMA(ty(HUDI_TYPE_INT64)));
    for (int i = 0; i < 30; i++) row(t, (int64_t)i);
    hudi_sql_plan *in = leaf(t, 3);
    hudi_sql_bexpr **ex = zalloc(sizeof(*ex));
    ex[0] = call2(&fn_add, col(in, 0), cst_int(100));
    hudi_sql_plan *pr = p_project(in, 1, ex);
    evals = 0;
    expect(p_limit(pr, 4, 2), false, "102|103|104|105");
    cr_assert_eq(evals, 6, "two batches of 3 rows evaluated, not %lld", (long long)evals);
    evals = 0;
    expect(p_limit(pr, 0, 0), false, "");
    cr_assert_eq(evals, 0);
    expect(p_limit(pr, -1, 28), false, "128|129");
    expect(p_limit(pr, 5, 40), false, "");
}

/* ---- aggregation
 * --------------------------------------------------------------------------------- */

Test(exec, group_by_with_null_keys_over_batches) {
    int64_t cells[] = {1, 10, NUL, 5, 2, NUL, 1, 30, NUL, 7, 2, 4, 3, NUL, 1, 10};
    hudi_sql_plan *in = leaf(kv(8, cells), 3);
    hudi_sql_bexpr **g = zalloc(sizeof(*g));
    g[0] = col(in, 0);
    hudi_sql_aggcall **a = zalloc(8 * sizeof(*a));
    a[0] = agg("count", NULL, false, NULL);
    a[1] = agg("count", col(in, 1), false, NULL);
    a[2] = agg("sum", col(in, 1), false, NULL);
    a[3] = agg("avg", col(in, 1), false, NULL);
    a[4] = agg("min", col(in, 1), false, NULL);
    a[5] = agg("max", col(in, 1), false, NULL);
    a[6] = agg("first", col(in, 1), false, NULL);
    a[7] = agg("count", col(in, 1), true, NULL);
    hudi_sql_plan *p = p_agg(in, 1, g, 8, a);
    cr_assert_eq(p->schema.children[1].type, HUDI_TYPE_INT64);
    cr_assert_eq(p->schema.children[3].type, HUDI_TYPE_INT64, "sum(bigint) is bigint");
    cr_assert_eq(p->schema.children[4].type, HUDI_TYPE_DOUBLE, "avg is double");
    /* groups come out in order of first appearance; the null key is one group */
    expect(p, false,
           "1,3,3,50,16.6667,10,30,10,2|NULL,2,2,12,6,5,7,5,2|2,2,1,4,4,4,4,NULL,1|"
           "3,1,0,NULL,NULL,NULL,NULL,NULL,0");
}

Test(exec, count_distinct_and_sum_distinct) {
    int64_t cells[] = {1, 5, 1, 5, 1, NUL, 1, 6, 2, 5, 2, 5, 2, 5, 1, 6, 1, 7};
    hudi_sql_plan *in = leaf(kv(9, cells), 3);
    hudi_sql_bexpr **g = zalloc(sizeof(*g));
    g[0] = col(in, 0);
    hudi_sql_aggcall **a = zalloc(4 * sizeof(*a));
    a[0] = agg("count", col(in, 1), true, NULL);
    a[1] = agg("sum", col(in, 1), true, NULL);
    a[2] = agg("sum", col(in, 1), false, NULL);
    a[3] = agg("count", NULL, false, NULL);
    expect(p_agg(in, 1, g, 4, a), true, "1,3,18,29,6|2,1,5,15,3");
    /* global count(DISTINCT) */
    a[0] = agg("count", col(in, 1), true, NULL);
    expect(p_agg(in, 0, NULL, 1, a), false, "3");
}

Test(exec, global_aggregate_of_nothing_is_one_row) {
    hudi_batch *t = kv(0, NULL);
    hudi_sql_plan *in = leaf(t, 3);
    hudi_sql_aggcall **a = zalloc(6 * sizeof(*a));
    a[0] = agg("count", NULL, false, NULL);
    a[1] = agg("sum", col(in, 1), false, NULL);
    a[2] = agg("avg", col(in, 1), false, NULL);
    a[3] = agg("min", col(in, 1), false, NULL);
    a[4] = agg("count", col(in, 1), true, NULL);
    a[5] = agg("count_if", call2(&fn_gt, col(in, 1), cst_int(0)), false, NULL);
    expect(p_agg(in, 0, NULL, 6, a), false, "0,NULL,NULL,NULL,0,0");
    /* with GROUP BY there is no group at all */
    hudi_sql_bexpr **g = zalloc(sizeof(*g));
    g[0] = col(in, 0);
    expect(p_agg(in, 1, g, 1, a), false, "");
}

Test(exec, aggregate_filter_clause) {
    int64_t cells[] = {1, 1, 1, 2, 1, 3, 2, 4, 2, NUL, 2, 1};
    hudi_sql_plan *in = leaf(kv(6, cells), 3);
    hudi_sql_bexpr **g = zalloc(sizeof(*g));
    g[0] = col(in, 0);
    hudi_sql_aggcall **a = zalloc(3 * sizeof(*a));
    hudi_sql_bexpr *big = call2(&fn_gt, col(in, 1), cst_int(1));
    a[0] = agg("count", NULL, false, big);
    a[1] = agg("sum", col(in, 1), false, big);
    a[2] = agg("max", col(in, 1), false, call2(&fn_gt, col(in, 1), cst_int(100)));
    expect(p_agg(in, 1, g, 3, a), false, "1,2,5,NULL|2,1,4,NULL");
}

Test(exec, sum_types_like_spark) {
    /* bigint sums wrap around (non-ANSI); int sums are bigint */
    int64_t cells[] = {1, INT64_MAX, 1, 1, 2, 2000000000, 2, 2000000000};
    hudi_sql_plan *in = leaf(kv(4, cells), 3);
    hudi_sql_bexpr **g = zalloc(sizeof(*g));
    g[0] = col(in, 0);
    hudi_sql_aggcall **a = zalloc(sizeof(*a));
    a[0] = agg("sum", col(in, 1), false, NULL);
    expect(p_agg(in, 1, g, 1, a), false, "1,-9223372036854775808|2,4000000000");

    hudi_batch *ints = new_batch(SCHEMA(ty(HUDI_TYPE_INT32)));
    row(ints, (int64_t)2000000000);
    row(ints, (int64_t)2000000000);
    row(ints, (int64_t)1);
    hudi_sql_plan *ip = leaf(ints, 2);
    a = zalloc(2 * sizeof(*a));
    a[0] = agg("sum", col(ip, 0), false, NULL);
    a[1] = agg("avg", col(ip, 0), false, NULL);
    hudi_sql_plan *p = p_agg(ip, 0, NULL, 2, a);
    cr_assert_eq(p->schema.children[0].type, HUDI_TYPE_INT64);
    expect(p, false, "4000000001,1.33333e+09");

    /* decimal(10,2): sum is decimal(20,2), avg decimal(14,6) rounded half up */
    hudi_batch *d = new_batch(SCHEMA(dec_ty(10, 2)));
    row(d, (int64_t)100); /* 1.00 */
    row(d, (int64_t)200); /* 2.00 */
    row(d, (int64_t)201); /* 2.01 */
    row(d, NUL);
    hudi_sql_plan *dp = leaf(d, 3);
    a = zalloc(4 * sizeof(*a));
    a[0] = agg("sum", col(dp, 0), false, NULL);
    a[1] = agg("avg", col(dp, 0), false, NULL);
    a[2] = agg("min", col(dp, 0), false, NULL);
    a[3] = agg("max", col(dp, 0), false, NULL);
    p = p_agg(dp, 0, NULL, 4, a);
    cr_assert_eq(p->schema.children[0].precision, 20);
    cr_assert_eq(p->schema.children[0].scale, 2);
    cr_assert_eq(p->schema.children[1].precision, 14);
    cr_assert_eq(p->schema.children[1].scale, 6);
    expect(p, false, "5.01,1.670000,1.00,2.01");
    /* 2/3 = 0.666666666... -> 0.666667 at scale 6 (decimal(1,0) -> avg decimal(5,4)) */
    hudi_batch *e = new_batch(SCHEMA(dec_ty(1, 0)));
    row(e, (int64_t)0);
    row(e, (int64_t)1);
    row(e, (int64_t)1);
    hudi_sql_plan *ep = leaf(e, 3);
    a = zalloc(sizeof(*a));
    a[0] = agg("avg", col(ep, 0), false, NULL);
    expect(p_agg(ep, 0, NULL, 1, a), false, "0.6667");
}

Test(exec, aggregate_binds_spark_types) {
    hudi_sql_bexpr *s = cst_str("x");
    hudi_sql_aggcall *c = agg("sum", s, false, NULL);
    cr_assert_eq(c->type.type, HUDI_TYPE_DOUBLE, "sum(string) is a double sum");
    c = agg("min", s, false, NULL);
    cr_assert_eq(c->type.type, HUDI_TYPE_STRING);
    hudi_sql_bexpr *d = cst_int(1);
    d->type = dec_ty(35, 3);
    c = agg("sum", d, false, NULL);
    cr_assert_eq(c->type.precision, 38, "precision is bounded by 38");
    c = agg("avg", d, false, NULL);
    cr_assert_eq(c->type.precision, 38);
    cr_assert_eq(c->type.scale, 7);
    /* sum of a boolean is refused with the function's name */
    hudi_sql_bexpr *b = cst_int(1);
    b->type = ty(HUDI_TYPE_BOOL);
    hudi_sql_bind_call bc = {.ctx = &CTX, .name = "sum", .n_args = 1, .args = &b};
    bc.arg_types = zalloc(sizeof(hudi_field));
    bc.arg_types[0] = b->type;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(agg_fn("sum")->bind(&bc, &err), HUDI_ESQL);
    cr_assert(strstr(err.message, "sum requires a numeric argument"), "%s", err.message);
}

Test(exec, min_max_strings_and_nan) {
    hudi_batch *t = new_batch(SCHEMA(ty(HUDI_TYPE_STRING), ty(HUDI_TYPE_DOUBLE)));
    row(t, "pear", 1.5);
    row(t, "apple", NAN);
    row(t, (const char *)NULL, -2.0);
    row(t, "zebra", -12345.0);
    row(t, "apples", 3.0);
    hudi_sql_plan *in = leaf(t, 2);
    hudi_sql_aggcall **a = zalloc(4 * sizeof(*a));
    a[0] = agg("min", col(in, 0), false, NULL);
    a[1] = agg("max", col(in, 0), false, NULL);
    a[2] = agg("min", col(in, 1), false, NULL);
    a[3] = agg("max", col(in, 1), false, NULL);
    expect(p_agg(in, 0, NULL, 4, a), false, "apple,zebra,-2,nan");
}

Test(exec, million_row_group_by) {
    int64_t n = 1000000;
    hudi_batch *t = new_batch(SCHEMA(ty(HUDI_TYPE_INT64), ty(HUDI_TYPE_INT64)));
    cr_assert_eq(hudi_array_reserve(t->columns[0], n, NULL), 0);
    cr_assert_eq(hudi_array_reserve(t->columns[1], n, NULL), 0);
    for (int64_t i = 0; i < n; i++) {
        ((int64_t *)t->columns[0]->values)[i] = (i * 7919) % 1000;
        ((int64_t *)t->columns[1]->values)[i] = i;
    }
    t->columns[0]->length = t->columns[1]->length = t->num_rows = n;
    hudi_sql_plan *in = leaf(t, 8192);
    hudi_sql_bexpr **g = zalloc(sizeof(*g));
    g[0] = col(in, 0);
    hudi_sql_aggcall **a = zalloc(3 * sizeof(*a));
    a[0] = agg("count", NULL, false, NULL);
    a[1] = agg("sum", col(in, 1), false, NULL);
    a[2] = agg("max", col(in, 1), false, NULL);
    hudi_sql_plan *p = p_agg(in, 1, g, 3, a);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    hudi_batch *out;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_sql_collect(&CTX, p, &out, &err), 0, "%s", err.message);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    own_batch(out);
    cr_assert_eq(out->num_rows, 1000);
    int64_t total = 0, sum = 0, maxes = 0;
    for (int64_t r = 0; r < 1000; r++) {
        cr_assert_eq(((int64_t *)out->columns[1]->values)[r], 1000);
        total += ((int64_t *)out->columns[1]->values)[r];
        sum += ((int64_t *)out->columns[2]->values)[r];
        maxes += ((int64_t *)out->columns[3]->values)[r];
    }
    cr_assert_eq(total, n);
    cr_assert_eq(sum, n * (n - 1) / 2);
    /* each group's largest value is among the last 1000 (i -> 7919 i mod 1000 is one to one) */
    cr_assert_eq(maxes, 1000 * (n - 1000) + 999 * 1000 / 2);
    cr_log_info("1M-row group-by (1000 groups, count/sum/max): %.1f ms",
                (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
    /* and a million distinct groups */
    for (int64_t i = 0; i < n; i++) ((int64_t *)t->columns[0]->values)[i] = i * 31;
    in = leaf(t, 8192);
    g = zalloc(sizeof(*g));
    g[0] = col(in, 0);
    a = zalloc(sizeof(*a));
    a[0] = agg("count", NULL, false, NULL);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cr_assert_eq(hudi_sql_collect(&CTX, p_agg(in, 1, g, 1, a), &out, &err), 0, "%s", err.message);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    own_batch(out);
    cr_assert_eq(out->num_rows, n);
    cr_log_info("1M-row group-by (1M groups, count): %.1f ms",
                (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
}

/* ---- sorting
 * --------------------------------------------------------------------------------------- */

Test(exec, sort_keys_nulls_and_stability) {
    /* (key, tag): tags show that equal keys keep their input order */
    int64_t cells[] = {3, 1, NUL, 2, 1, 3, 3, 4, 2, 5, NUL, 6, 1, 7, 2, 8};
    hudi_sql_plan *in = leaf(kv(8, cells), 3);
    hudi_sql_sort_key *k = zalloc(sizeof(*k));
    k[0] = (hudi_sql_sort_key){col(in, 0), false, true};
    expect(p_sort(in, 1, k, -1), false, "NULL,2|NULL,6|1,3|1,7|2,5|2,8|3,1|3,4");
    k[0] = (hudi_sql_sort_key){col(in, 0), true, false};
    expect(p_sort(in, 1, k, -1), false, "3,1|3,4|2,5|2,8|1,3|1,7|NULL,2|NULL,6");
    k[0] = (hudi_sql_sort_key){col(in, 0), true, true};
    expect(p_sort(in, 1, k, -1), false, "NULL,2|NULL,6|3,1|3,4|2,5|2,8|1,3|1,7");
    /* two keys: key asc nulls last, tag desc */
    k = zalloc(2 * sizeof(*k));
    k[0] = (hudi_sql_sort_key){col(in, 0), false, false};
    k[1] = (hudi_sql_sort_key){col(in, 1), true, false};
    expect(p_sort(in, 2, k, -1), false, "1,7|1,3|2,8|2,5|3,4|3,1|NULL,6|NULL,2");
    /* top-N with ties: the first rows in input order win */
    k[0] = (hudi_sql_sort_key){col(in, 0), false, true};
    expect(p_sort(in, 1, k, 3), false, "NULL,2|NULL,6|1,3");
    expect(p_sort(in, 1, k, 0), false, "");
}

Test(exec, top_n_equals_full_sort) {
    hudi_batch *t = new_batch(SCHEMA(ty(HUDI_TYPE_INT64), ty(HUDI_TYPE_STRING)));
    uint64_t x = 88172645463325252ULL;
    char s[32];
    for (int i = 0; i < 2000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        snprintf(s, sizeof(s), "s%llu", (unsigned long long)(x % 97));
        row(t, x % 11 == 0 ? NUL : (int64_t)(x % 500), x % 13 == 0 ? NULL : s);
    }
    hudi_sql_plan *in = leaf(t, 77);
    hudi_sql_sort_key *k = zalloc(2 * sizeof(*k));
    k[0] = (hudi_sql_sort_key){col(in, 1), true, false};
    k[1] = (hudi_sql_sort_key){col(in, 0), false, true};
    char *full = run(p_sort(in, 2, k, -1), false);
    int64_t limits[] = {1, 10, 100, 999, 1999, 2000, 5000};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(limits); i++) {
        char *top = run(p_sort(in, 2, k, limits[i]), false);
        /* the first `limit` rows of the full sort */
        const char *end = full;
        for (int64_t r = 0; r < limits[i] && end; r++) {
            end = strchr(end, '|');
            if (end && r + 1 < limits[i]) end++;
        }
        size_t len = end ? (size_t)(end - full) : strlen(full);
        cr_assert_eq(strlen(top), len, "limit %lld", (long long)limits[i]);
        cr_assert(!strncmp(top, full, len), "limit %lld", (long long)limits[i]);
        hudi_free(top);
    }
    hudi_free(full);
}

/* ---- joins
 * ------------------------------------------------------------------------------------------ */

static hudi_sql_plan *join_of(hudi_sql_join_kind kind, hudi_sql_bexpr *cond) {
    /* left (k, a): duplicates and a null key; right (k, b): duplicates, a null key, no 4 */
    int64_t lc[] = {1, 10, 2, 20, 2, 21, NUL, 30, 4, 40, 5, 50};
    int64_t rc[] = {2, 200, 1, 100, 2, 201, NUL, 300, 3, 301, 5, 500, 2, 202};
    hudi_sql_plan *l = leaf(kv(6, lc), 3), *r = leaf(kv(7, rc), 2);
    hudi_sql_bexpr **lk = zalloc(sizeof(*lk)), **rk = zalloc(sizeof(*rk));
    lk[0] = col(l, 0);
    rk[0] = col(r, 0);
    return p_join(kind, l, r, 1, lk, rk, cond);
}

Test(exec, joins_of_every_kind) {
    expect(join_of(HUDI_SQL_J_INNER, NULL), true,
           "1,10,1,100|2,20,2,200|2,20,2,201|2,20,2,202|2,21,2,200|2,21,2,201|2,21,2,202|"
           "5,50,5,500");
    expect(join_of(HUDI_SQL_J_LEFT, NULL), true,
           "1,10,1,100|2,20,2,200|2,20,2,201|2,20,2,202|2,21,2,200|2,21,2,201|2,21,2,202|"
           "4,40,NULL,NULL|5,50,5,500|NULL,30,NULL,NULL");
    expect(join_of(HUDI_SQL_J_RIGHT, NULL), true,
           "1,10,1,100|2,20,2,200|2,20,2,201|2,20,2,202|2,21,2,200|2,21,2,201|2,21,2,202|"
           "5,50,5,500|NULL,NULL,3,301|NULL,NULL,NULL,300");
    expect(join_of(HUDI_SQL_J_FULL, NULL), true,
           "1,10,1,100|2,20,2,200|2,20,2,201|2,20,2,202|2,21,2,200|2,21,2,201|2,21,2,202|"
           "4,40,NULL,NULL|5,50,5,500|NULL,30,NULL,NULL|NULL,NULL,3,301|NULL,NULL,NULL,300");
    expect(join_of(HUDI_SQL_J_SEMI, NULL), false, "1,10|2,20|2,21|5,50");
    expect(join_of(HUDI_SQL_J_ANTI, NULL), false, "NULL,30|4,40");
}

Test(exec, joins_with_a_residual_condition) {
    /* ON l.k = r.k AND r.b > 200: the residual sees left columns 0-1, right columns 2-3 */
    hudi_sql_plan *j = join_of(HUDI_SQL_J_INNER, NULL);
    hudi_sql_bexpr *cond = call2(&fn_gt, col(j, 3), cst_int(200));
    expect(join_of(HUDI_SQL_J_INNER, cond), true,
           "2,20,2,201|2,20,2,202|2,21,2,201|2,21,2,202|5,50,5,500");
    expect(join_of(HUDI_SQL_J_LEFT, cond), true,
           "1,10,NULL,NULL|2,20,2,201|2,20,2,202|2,21,2,201|2,21,2,202|4,40,NULL,NULL|"
           "5,50,5,500|NULL,30,NULL,NULL");
    expect(join_of(HUDI_SQL_J_RIGHT, cond), true,
           "2,20,2,201|2,20,2,202|2,21,2,201|2,21,2,202|5,50,5,500|NULL,NULL,1,100|"
           "NULL,NULL,2,200|NULL,NULL,3,301|NULL,NULL,NULL,300");
    expect(join_of(HUDI_SQL_J_SEMI, cond), false, "2,20|2,21|5,50");
    expect(join_of(HUDI_SQL_J_ANTI, cond), false, "1,10|NULL,30|4,40");
}

Test(exec, cross_and_non_equi_joins) {
    int64_t lc[] = {1, 0, 2, 0, 3, 0};
    int64_t rc[] = {2, 0, NUL, 0};
    hudi_sql_plan *l = leaf(kv(3, lc), 2), *r = leaf(kv(2, rc), 1);
    expect(p_join(HUDI_SQL_J_CROSS, l, r, 0, NULL, NULL, NULL), true,
           "1,0,2,0|1,0,NULL,0|2,0,2,0|2,0,NULL,0|3,0,2,0|3,0,NULL,0");
    /* ON l.k > r.k */
    hudi_sql_plan *j = p_join(HUDI_SQL_J_INNER, l, r, 0, NULL, NULL, NULL);
    hudi_sql_bexpr *gt = call2(&fn_gt, col(j, 0), col(j, 2));
    expect(p_join(HUDI_SQL_J_INNER, l, r, 0, NULL, NULL, gt), true, "3,0,2,0");
    expect(p_join(HUDI_SQL_J_LEFT, l, r, 0, NULL, NULL, gt), true,
           "1,0,NULL,NULL|2,0,NULL,NULL|3,0,2,0");
    expect(p_join(HUDI_SQL_J_FULL, l, r, 0, NULL, NULL, gt), true,
           "1,0,NULL,NULL|2,0,NULL,NULL|3,0,2,0|NULL,NULL,NULL,0");
    expect(p_join(HUDI_SQL_J_ANTI, l, r, 0, NULL, NULL, gt), false, "1,0|2,0");
    /* an empty build side */
    hudi_sql_plan *none = leaf(kv(0, NULL), 3);
    expect(p_join(HUDI_SQL_J_LEFT, l, none, 0, NULL, NULL, NULL), false,
           "1,0,NULL,NULL|2,0,NULL,NULL|3,0,NULL,NULL");
    expect(p_join(HUDI_SQL_J_INNER, l, none, 0, NULL, NULL, NULL), false, "");
}

Test(exec, join_fans_out_across_batches) {
    /* 50 x 50 rows of one key: 2500 pairs come out in batches of at most ~batch_rows */
    hudi_batch *t = new_batch(SCHEMA(ty(HUDI_TYPE_INT64), ty(HUDI_TYPE_INT64)));
    for (int i = 0; i < 50; i++) row(t, (int64_t)7, (int64_t)i);
    hudi_sql_plan *l = leaf(t, 25), *r = leaf(t, 10);
    hudi_sql_bexpr **lk = zalloc(sizeof(*lk)), **rk = zalloc(sizeof(*rk));
    lk[0] = col(l, 0);
    rk[0] = col(r, 0);
    CTX.batch_rows = 100;
    hudi_sql_plan *p = p_join(HUDI_SQL_J_INNER, l, r, 1, lk, rk, NULL);
    hudi_sql_oper *op;
    hudi_batch *b;
    cr_assert_eq(hudi_sql_op_open(&op, &CTX, p, NULL), 0);
    int64_t total = 0, batches = 0;
    while (hudi_sql_op_next(op, &b, NULL) == 0 && b) {
        cr_assert_leq(b->num_rows, 150);
        total += b->num_rows;
        batches++;
    }
    hudi_sql_op_free(op);
    cr_assert_eq(total, 2500);
    cr_assert_geq(batches, 17);
}

/* ---- set operations -----------------------------------------------------------------------------
 */

static hudi_sql_plan *setop_of(hudi_sql_setop op, bool all) {
    /* left: 1 1 1 2 NULL NULL 3 ; right: 1 1 NULL 4 */
    hudi_batch *l = new_batch(SCHEMA(ty(HUDI_TYPE_INT64), ty(HUDI_TYPE_STRING)));
    row(l, (int64_t)1, "a");
    row(l, (int64_t)1, "a");
    row(l, (int64_t)1, "a");
    row(l, (int64_t)2, "b");
    row(l, NUL, (const char *)NULL);
    row(l, NUL, (const char *)NULL);
    row(l, (int64_t)3, "c");
    hudi_batch *r = new_batch(SCHEMA(ty(HUDI_TYPE_INT64), ty(HUDI_TYPE_STRING)));
    row(r, (int64_t)1, "a");
    row(r, (int64_t)1, "a");
    row(r, NUL, (const char *)NULL);
    row(r, (int64_t)4, "d");
    return p_setop(op, all, leaf(l, 3), leaf(r, 3));
}

Test(exec, set_operations_with_duplicates_and_nulls) {
    expect(setop_of(HUDI_SQL_SET_UNION, true), true,
           "1,a|1,a|1,a|1,a|1,a|2,b|3,c|4,d|NULL,NULL|NULL,NULL|NULL,NULL");
    expect(setop_of(HUDI_SQL_SET_UNION, false), false, "1,a|2,b|NULL,NULL|3,c|4,d");
    expect(setop_of(HUDI_SQL_SET_INTERSECT, false), false, "1,a|NULL,NULL");
    expect(setop_of(HUDI_SQL_SET_INTERSECT, true), false, "1,a|1,a|NULL,NULL");
    expect(setop_of(HUDI_SQL_SET_EXCEPT, false), false, "2,b|3,c");
    expect(setop_of(HUDI_SQL_SET_EXCEPT, true), false, "1,a|2,b|NULL,NULL|3,c");
    expect(p_distinct(setop_of(HUDI_SQL_SET_UNION, true)), false, "1,a|2,b|NULL,NULL|3,c|4,d");
}

/* ---- kernels ------------------------------------------------------------------------------------
 */

Test(exec, compare_and_hash_rows) {
    hudi_field d = ty(HUDI_TYPE_DOUBLE);
    hudi_array *a;
    cr_assert_eq(hudi_array_new(&a, &d, NULL), 0);
    own_array(a);
    double vals[] = {NAN, -NAN, 1.0, 0.0, -0.0, INFINITY};
    for (int i = 0; i < 6; i++) cr_assert_eq(hudi_array_append_fixed(a, &vals[i], NULL), 0);
    cr_assert_eq(hudi_array_append_null(a, NULL), 0);
    cr_assert_eq(hudi_sql_compare_rows(a, 0, a, 1, true), 0, "NaN = NaN");
    cr_assert_gt(hudi_sql_compare_rows(a, 0, a, 5, true), 0, "NaN > Infinity");
    cr_assert_eq(hudi_sql_compare_rows(a, 3, a, 4, true), 0, "0.0 = -0.0");
    cr_assert_lt(hudi_sql_compare_rows(a, 6, a, 2, true), 0, "nulls first");
    cr_assert_gt(hudi_sql_compare_rows(a, 6, a, 2, false), 0, "nulls last");
    cr_assert_eq(hudi_sql_compare_rows(a, 6, a, 6, false), 0);
    uint64_t h[7];
    hudi_sql_datum k = {a, false, false};
    hudi_sql_hash_rows(&k, 1, 7, h);
    cr_assert_eq(h[0], h[1], "every NaN hashes alike");
    cr_assert_eq(h[3], h[4], "-0.0 hashes as 0.0");
    cr_assert_neq(h[2], h[3]);

    /* list<int64>: lexicographic, then shorter first; nested nulls first */
    hudi_field *lf = zalloc(sizeof(*lf));
    *lf = ty(HUDI_TYPE_LIST);
    lf->n_children = 1;
    lf->children = zalloc(sizeof(hudi_field));
    lf->children[0] = ty(HUDI_TYPE_INT64);
    hudi_array *l;
    cr_assert_eq(hudi_array_new(&l, lf, NULL), 0);
    own_array(l);
    int64_t lists[][3] = {{1, 2, 0}, {1, 2, 3}, {1, 3, 0}, {NUL, 9, 0}};
    int lens[] = {2, 3, 2, 2};
    for (int r = 0; r < 4; r++) {
        for (int e = 0; e < lens[r]; e++) {
            if (lists[r][e] == NUL)
                cr_assert_eq(hudi_array_append_null(l->children[0], NULL), 0);
            else
                cr_assert_eq(hudi_array_append_fixed(l->children[0], &lists[r][e], NULL), 0);
        }
        cr_assert_eq(hudi_array_append_nested(l, lens[r], NULL), 0);
    }
    cr_assert_lt(hudi_sql_compare_rows(l, 0, l, 1, true), 0, "[1,2] < [1,2,3]");
    cr_assert_lt(hudi_sql_compare_rows(l, 1, l, 2, true), 0, "[1,2,3] < [1,3]");
    cr_assert_lt(hudi_sql_compare_rows(l, 3, l, 0, true), 0, "[null,9] < [1,2]");
    cr_assert_eq(hudi_sql_compare_rows(l, 2, l, 2, true), 0);

    /* decimals compare as signed 128-bit values; strings bytewise */
    hudi_batch *t = new_batch(SCHEMA(dec_ty(38, 2), ty(HUDI_TYPE_STRING)));
    row(t, (int64_t)-5, "b");
    row(t, (int64_t)3, "ab");
    row(t, (int64_t)3, "\xc3\xa9");
    cr_assert_lt(hudi_sql_compare_rows(t->columns[0], 0, t->columns[0], 1, true), 0);
    cr_assert_eq(hudi_sql_compare_rows(t->columns[0], 1, t->columns[0], 2, true), 0);
    cr_assert_gt(hudi_sql_compare_rows(t->columns[1], 0, t->columns[1], 1, true), 0);
    cr_assert_gt(hudi_sql_compare_rows(t->columns[1], 2, t->columns[1], 0, true), 0);

    /* take with -1 (nulls) and batch_append */
    int64_t rows[] = {2, -1, 0};
    hudi_batch *taken;
    cr_assert_eq(hudi_sql_take(t, rows, 3, &taken, NULL), 0);
    own_batch(taken);
    char *got = render(taken, false);
    cr_assert_str_eq(got, "0.03,\xc3\xa9|NULL,NULL|-0.05,b");
    hudi_free(got);
    cr_assert_eq(hudi_sql_batch_append(taken, t, NULL), 0);
    cr_assert_eq(taken->num_rows, 6);
    cr_assert_eq(hudi_batch_validate(taken, NULL), 0);
}

Test(exec, eval_array_and_select) {
    hudi_batch *t = new_batch(SCHEMA(ty(HUDI_TYPE_INT64)));
    row(t, (int64_t)1);
    row(t, NUL);
    row(t, (int64_t)3);
    hudi_sql_plan *in = leaf(t, 3);
    hudi_array *a;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_sql_eval_array(&CTX, cst_int(9), t, &a, &err), 0);
    cr_assert_eq(a->length, 3);
    cr_assert_eq(((int64_t *)a->values)[2], 9);
    hudi_array_free(a);
    cr_assert_eq(hudi_sql_eval_array(&CTX, col(in, 0), t, &a, &err), 0);
    cr_assert(a != t->columns[0], "a column is copied");
    cr_assert_eq(a->null_count, 1);
    hudi_array_free(a);
    uint8_t sel[3];
    cr_assert_eq(hudi_sql_eval_select(&CTX, call2(&fn_gt, col(in, 0), cst_int(1)), t, sel, &err),
                 1);
    cr_assert(!sel[0] && !sel[1] && sel[2], "null is not selected");
    cr_assert_eq(hudi_sql_eval_select(&CTX, col(in, 0), t, sel, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "boolean"), "%s", err.message);
}

/* ---- limits -------------------------------------------------------------------------------------
 */

Test(exec, memory_limit_fails_blocking_operators) {
    hudi_batch *t = new_batch(SCHEMA(ty(HUDI_TYPE_INT64), ty(HUDI_TYPE_INT64)));
    for (int64_t i = 0; i < 20000; i++) row(t, i, i);
    hudi_sql_plan *in = leaf(t, 1000);
    hudi_sql_bexpr **g = zalloc(sizeof(*g));
    g[0] = col(in, 0);
    hudi_sql_aggcall **a = zalloc(sizeof(*a));
    a[0] = agg("count", NULL, false, NULL);
    hudi_sql_sort_key *k = zalloc(sizeof(*k));
    k[0] = (hudi_sql_sort_key){col(in, 0), true, false};
    hudi_sql_bexpr **lk = zalloc(sizeof(*lk)), **rk = zalloc(sizeof(*rk));
    lk[0] = col(in, 0);
    rk[0] = col(in, 0);
    hudi_sql_plan *plans[] = {p_agg(in, 1, g, 1, a), p_sort(in, 1, k, -1), p_distinct(in),
                              p_join(HUDI_SQL_J_INNER, in, in, 1, lk, rk, NULL),
                              p_setop(HUDI_SQL_SET_EXCEPT, false, in, in)};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(plans); i++) {
        CTX.memory_limit = 64 * 1024;
        hudi_error err = HUDI_ERROR_INIT;
        cr_assert_eq(run_error(plans[i], &err), HUDI_ENOMEM, "plan %zu", i);
        cr_assert_str_eq(err.message, "query needs more than hudic.memory.limit (65536 bytes)");
        cr_assert_eq(CTX.memory_used, 0, "plan %zu gives its memory back", i);
        /* the same plan fits in 16 MiB, and top-N in little memory */
        CTX.memory_limit = 16 << 20;
        char *s = run(plans[i], false);
        hudi_free(s);
    }
    CTX.memory_limit = 64 * 1024;
    expect(p_sort(in, 1, k, 3), false, "19999,19999|19998,19998|19997,19997");
}

Test(exec, cancel_stops_at_the_next_batch) {
    int64_t cells[] = {1, 1, 2, 2, 3, 3, 4, 4};
    hudi_sql_plan *in = leaf(kv(4, cells), 1);
    hudi_sql_oper *op;
    hudi_batch *b;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_sql_plan *f = p_filter(in, call2(&fn_gt, col(in, 0), cst_int(0)));
    cr_assert_eq(hudi_sql_op_open(&op, &CTX, f, &err), 0);
    cr_assert_eq(hudi_sql_op_next(op, &b, &err), 0);
    cr_assert_eq(b->num_rows, 1);
    atomic_store(&CANCEL, 1);
    cr_assert_eq(hudi_sql_op_next(op, &b, &err), HUDI_ECANCELED);
    cr_assert_str_eq(err.message, "statement canceled");
    hudi_sql_op_free(op);
    /* a blocking operator stops while reading its input */
    hudi_sql_bexpr **g = zalloc(sizeof(*g));
    g[0] = col(in, 0);
    hudi_sql_aggcall **a = zalloc(sizeof(*a));
    a[0] = agg("count", NULL, false, NULL);
    cr_assert_eq(run_error(p_agg(in, 1, g, 1, a), &err), HUDI_ECANCELED);
    cr_assert_eq(CTX.memory_used, 0);
}

/* ---- allocation failure -------------------------------------------------------------------------
 */

/* Drains a plan with the Nth allocation failing, for every N until one run needs no failure:
 * each run either succeeds or fails with HUDI_ENOMEM, frees everything (LeakSanitizer) and gives
 * its memory accounting back. */
Test(exec, allocation_failures_are_clean) {
    int64_t lc[] = {1, 10, 2, 20, 2, 21, NUL, 30, 4, 40, 5, 50};
    int64_t rc_[] = {2, 200, 1, 100, 2, 201, NUL, 300, 3, 301, 5, 500, 2, 202};
    hudi_sql_plan *l = leaf(kv(6, lc), 2), *r = leaf(kv(7, rc_), 3);
    hudi_sql_bexpr **lk = zalloc(sizeof(*lk)), **rk = zalloc(sizeof(*rk));
    lk[0] = col(l, 0);
    rk[0] = col(r, 0);
    hudi_sql_plan *j = p_join(HUDI_SQL_J_FULL, l, r, 1, lk, rk, NULL);
    hudi_sql_bexpr **g = zalloc(sizeof(*g));
    g[0] = col(j, 2);
    hudi_sql_aggcall **a = zalloc(6 * sizeof(*a));
    a[0] = agg("count", NULL, false, NULL);
    a[1] = agg("sum", col(j, 1), false, NULL);
    a[2] = agg("max", col(j, 3), false, NULL);
    a[3] = agg("count", col(j, 3), true, NULL);
    a[4] = agg("collect_set", col(j, 1), false, NULL);
    a[5] = agg("last", col(j, 0), false, NULL);
    hudi_sql_plan *ag = p_agg(j, 1, g, 6, a);
    hudi_sql_sort_key *k = zalloc(sizeof(*k));
    k[0] = (hudi_sql_sort_key){col(ag, 0), false, true};
    hudi_sql_plan *top =
        p_setop(HUDI_SQL_SET_EXCEPT, true, p_sort(ag, 1, k, -1), p_distinct(p_sort(ag, 1, k, 2)));
    char *want = run(top, false);
    cr_assert_str_eq(want,
                     "2,6,123,202,3,<list>,2|3,1,NULL,301,1,<list>,NULL|5,1,50,500,1,<list>,5");
    hudi_free(want);
    test_alloc_faults faults;
    hudi_allocator alloc = test_failing_allocator(&faults);
    int ok_at = 0;
    for (int fail = 1; fail < 5000 && !ok_at; fail++) {
        faults = (test_alloc_faults){.fail_at = fail};
        hudi_set_allocator(&alloc);
        hudi_error err = HUDI_ERROR_INIT;
        hudi_sql_oper *op = NULL;
        hudi_batch *b;
        int64_t rows = 0;
        int rc = hudi_sql_op_open(&op, &CTX, top, &err);
        while (rc == 0 && (rc = hudi_sql_op_next(op, &b, &err)) == 0 && b) rows += b->num_rows;
        hudi_sql_op_free(op);
        hudi_set_allocator(NULL);
        cr_assert_eq(CTX.memory_used, 0, "allocation %d", fail);
        if (faults.count < fail) {
            cr_assert_eq(rc, 0, "%s", err.message);
            cr_assert_eq(rows, 3);
            ok_at = fail;
        } else {
            cr_assert_eq(rc, HUDI_ENOMEM, "allocation %d: %s", fail, err.message);
        }
    }
    cr_assert_gt(ok_at, 20);
}

Test(exec, last_bool_and_collect) {
    hudi_batch *t =
        new_batch(SCHEMA(ty(HUDI_TYPE_INT64), ty(HUDI_TYPE_STRING), ty(HUDI_TYPE_BOOL)));
    row(t, (int64_t)1, "x", 1);
    row(t, (int64_t)2, "y", 0);
    row(t, (int64_t)1, (const char *)NULL, -1);
    row(t, (int64_t)1, "z", 1);
    row(t, (int64_t)2, "y", -1);
    row(t, (int64_t)1, "x", 1);
    row(t, (int64_t)3, (const char *)NULL, -1);
    row(t, (int64_t)2, (const char *)NULL, 1);
    hudi_sql_plan *in = leaf(t, 3);
    hudi_sql_bexpr **g = zalloc(sizeof(*g));
    g[0] = col(in, 0);
    hudi_sql_aggcall **a = zalloc(6 * sizeof(*a));
    a[0] = agg("last", col(in, 1), false, NULL);
    a[1] = agg("bool_and", col(in, 2), false, NULL);
    a[2] = agg("bool_or", col(in, 2), false, NULL);
    a[3] = agg("collect_list", col(in, 1), false, NULL);
    a[4] = agg("collect_set", col(in, 1), false, NULL);
    a[5] = agg("every", col(in, 2), false, NULL);
    hudi_sql_plan *p = p_agg(in, 1, g, 6, a);
    cr_assert_eq(p->schema.children[4].type, HUDI_TYPE_LIST);
    cr_assert_eq(p->schema.children[4].children[0].type, HUDI_TYPE_STRING);
    /* the lists are rendered through their element rows: check counts and values */
    hudi_batch *out;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_sql_collect(&CTX, p, &out, &err), 0, "%s", err.message);
    own_batch(out);
    cr_assert_eq(hudi_batch_validate(out, &err), 0, "%s", err.message);
    hudi_batch flat = {
        .schema = out->schema, .num_rows = 3, .n_columns = 3, .columns = out->columns};
    char *got = render(&flat, false);
    cr_assert_str_eq(got, "1,x,true|2,NULL,false|3,NULL,NULL");
    hudi_free(got);
    cr_assert_eq(out->columns[6]->null_count, 1, "every over nulls only is null");
    cr_assert(hudi_bit_get(out->columns[6]->values, 0) &&
              !hudi_bit_get(out->columns[6]->values, 1));
    cr_assert(hudi_bit_get(out->columns[3]->values, 0) && hudi_bit_get(out->columns[3]->values, 1),
              "bool_or");
    const char *lists[] = {"x z x", "y y", "", "x z", "y", ""};
    for (int c = 0; c < 2; c++) {
        const hudi_array *l = out->columns[4 + c];
        for (int r = 0; r < 3; r++) {
            hudi_buf b = HUDI_BUF_INIT;
            for (int32_t e = l->offsets[r]; e < l->offsets[r + 1]; e++) {
                if (e > l->offsets[r]) hudi_buf_putc(&b, ' ');
                render_cell(&b, l->children[0], e);
            }
            cr_assert_str_eq(b.data ? b.data : "", lists[3 * c + r], "column %d row %d", c, r);
            hudi_buf_dispose(&b);
        }
    }
    /* global collect over no rows: one empty list */
    a[0] = agg("collect_list", col(in, 1), false, NULL);
    cr_assert_eq(hudi_sql_collect(&CTX, p_agg(leaf(kv(0, NULL), 3), 0, NULL, 1, a), &out, &err), 0);
    own_batch(out);
    cr_assert_eq(out->num_rows, 1);
    cr_assert_eq(out->columns[0]->offsets[1], 0);
    cr_assert(hudi_array_is_valid(out->columns[0], 0));
}

Test(exec, sort_one_double_key) {
    /* NaN after every number, -0.0 equal to 0.0 (input order kept), nulls where asked */
    hudi_batch *t = new_batch(SCHEMA(ty(HUDI_TYPE_DOUBLE), ty(HUDI_TYPE_INT64)));
    double v[] = {1.5, NAN, -12345.0, -0.0, -INFINITY, 0.0, 2.0, -12345.0, -3.0, NAN};
    for (int i = 0; i < 10; i++) row(t, v[i], (int64_t)i);
    hudi_sql_plan *in = leaf(t, 3);
    hudi_sql_sort_key *k = zalloc(sizeof(*k));
    k[0] = (hudi_sql_sort_key){col(in, 0), false, true};
    expect(p_sort(in, 1, k, -1), false, "NULL,2|NULL,7|-inf,4|-3,8|-0,3|0,5|1.5,0|2,6|nan,1|nan,9");
    k[0] = (hudi_sql_sort_key){col(in, 0), true, false};
    expect(p_sort(in, 1, k, -1), false, "nan,1|nan,9|2,6|1.5,0|-0,3|0,5|-3,8|-inf,4|NULL,2|NULL,7");
    expect(p_sort(in, 1, k, 4), false, "nan,1|nan,9|2,6|1.5,0");
    /* top-N through the boundary filter agrees with the full sort on many batches */
    hudi_batch *big = new_batch(SCHEMA(ty(HUDI_TYPE_INT64), ty(HUDI_TYPE_INT64)));
    for (int64_t i = 0; i < 5000; i++) row(big, i % 7 == 0 ? NUL : (i * 7919) % 101, i);
    hudi_sql_plan *bin = leaf(big, 64);
    k[0] = (hudi_sql_sort_key){col(bin, 0), true, true};
    char *full = run(p_sort(bin, 1, k, -1), false);
    char *top = run(p_sort(bin, 1, k, 50), false);
    cr_assert(!strncmp(full, top, strlen(top)) && full[strlen(top)] == '|');
    hudi_free(full);
    hudi_free(top);
}

Test(exec, semi_join_over_many_equal_keys) {
    /* x IN (SELECT y ...) where y repeats: the output is linear in the inputs */
    hudi_batch *r = new_batch(SCHEMA(ty(HUDI_TYPE_INT64), ty(HUDI_TYPE_INT64)));
    for (int64_t i = 0; i < 20000; i++) row(r, (int64_t)7, i);
    int64_t lc[] = {7, 1, 8, 2, 7, 3, NUL, 4};
    hudi_sql_plan *l = leaf(kv(4, lc), 3), *rp = leaf(r, 4096);
    hudi_sql_bexpr **lk = zalloc(sizeof(*lk)), **rk = zalloc(sizeof(*rk));
    lk[0] = col(l, 0);
    rk[0] = col(rp, 0);
    expect(p_join(HUDI_SQL_J_SEMI, l, rp, 1, lk, rk, NULL), false, "7,1|7,3");
    expect(p_join(HUDI_SQL_J_ANTI, l, rp, 1, lk, rk, NULL), false, "8,2|NULL,4");
}

Test(exec, group_by_decimal_and_string_keys) {
    hudi_batch *t = new_batch(SCHEMA(dec_ty(20, 2), ty(HUDI_TYPE_STRING), ty(HUDI_TYPE_INT64)));
    row(t, (int64_t)150, "a", (int64_t)1);
    row(t, (int64_t)150, "b", (int64_t)2);
    row(t, NUL, "a", (int64_t)3);
    row(t, (int64_t)-150, "a", (int64_t)4);
    row(t, (int64_t)150, "a", (int64_t)5);
    row(t, NUL, "a", (int64_t)6);
    row(t, (int64_t)150, (const char *)NULL, (int64_t)7);
    hudi_sql_plan *in = leaf(t, 3);
    hudi_sql_bexpr **g = zalloc(2 * sizeof(*g));
    g[0] = col(in, 0);
    g[1] = col(in, 1);
    hudi_sql_aggcall **a = zalloc(sizeof(*a));
    a[0] = agg("sum", col(in, 2), false, NULL);
    hudi_sql_plan *p = p_agg(in, 2, g, 1, a);
    expect(p, false, "1.50,a,6|1.50,b,2|NULL,a,9|-1.50,a,4|1.50,NULL,7");
    /* HAVING-like: a filter over the aggregate's output, the sum referenced as AGGREF 2 */
    hudi_sql_bexpr *s = col(p, 2);
    s->kind = HUDI_SQL_BX_AGGREF;
    expect(p_filter(p, call2(&fn_gt, s, cst_int(5))), false, "1.50,a,6|NULL,a,9|1.50,NULL,7");
}

/* ---- fast paths against references ---------------------------------------------------------
 * The group table reuses the group of a row whose keys equal the row before's, compares short
 * strings word by word and keys by type; the aggregates sum typed columns without a mask when
 * no row is null or filtered; a join on a build side of unique keys lists one pair per left
 * row and passes a wholly matched left batch through. Each is checked against a plain
 * computation here, with nulls, runs, empty strings, strings of every length up to 40 that
 * differ only at their start, middle or end, and 1000+ groups. */

/* Distinct strings: "" and "<k>" followed by k % 33 letters, then 'a' * L with one 'b' at the
 * start, middle or end (L = 1..40). */
static int string_pool(char ***out) {
    int cap = 1400, n = 0;
    char **pool = zalloc(sizeof(char *) * (size_t)cap);
    pool[n++] = "";
    for (int k = 1; k < 1200; k++) {
        char *s = zalloc(64);
        int len = snprintf(s, 64, "%d", k);
        for (int j = 0; j < k % 33; j++) s[len++] = (char)('c' + j % 20);
        s[len] = 0;
        pool[n++] = s;
    }
    for (int len = 1; len <= 40; len++) {
        int pos[] = {-1, 0, len / 2, len - 1};
        for (int q = 0; q < 4; q++) {
            char *s = zalloc((size_t)len + 1);
            memset(s, 'a', (size_t)len);
            if (pos[q] >= 0) s[pos[q]] = 'b';
            bool dup = false;
            for (int j = 1200; j < n && !dup; j++) dup = strcmp(pool[j], s) == 0;
            if (!dup) pool[n++] = s;
        }
    }
    cr_assert_lt(n, cap);
    *out = pool;
    return n;
}

static uint64_t lcg(uint64_t *state) {
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return *state >> 33;
}

/* "line|line|..." of lines sorted as render sorts them. */
static char *join_sorted(char **lines, int64_t n) {
    qsort(lines, (size_t)n, sizeof(*lines), cmp_str);
    hudi_buf all = HUDI_BUF_INIT;
    for (int64_t r = 0; r < n; r++) {
        if (r) hudi_buf_putc(&all, '|');
        hudi_buf_puts(&all, lines[r]);
        hudi_free(lines[r]);
    }
    char *s = hudi_buf_detach(&all);
    return s ? s : hudi_strdup("");
}

/* A formatted string the caller frees with hudi_free. */
static char *fmt(const char *f, ...) HUDI_PRINTF(1, 2);
static char *fmt(const char *f, ...) {
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(NULL, 0, f, ap);
    va_end(ap);
    char *s = hudi_malloc((size_t)n + 1);
    cr_assert(s);
    va_start(ap, f);
    vsnprintf(s, (size_t)n + 1, f, ap);
    va_end(ap);
    return s;
}

/* GROUP BY key: count(*), count(v), sum(v), avg(v), sum(d) over n rows (key column 0: string or
 * bigint; v int; d double = v / 2, never null). `nulls`: keys and values are sometimes null. */
static void check_group_by(hudi_type_id key_type, int64_t n, bool nulls, int64_t per,
                           uint64_t seed) {
    char **pool;
    int np = string_pool(&pool);
    hudi_batch *t = new_batch(SCHEMA(ty(key_type), ty(HUDI_TYPE_INT32), ty(HUDI_TYPE_DOUBLE)));
    int64_t *cnt = calloc((size_t)np + 1, 8), *cntv = calloc((size_t)np + 1, 8);
    int64_t *sum = calloc((size_t)np + 1, 8);
    double *sumd = calloc((size_t)np + 1, sizeof(double));
    int prev = 0;
    for (int64_t i = 0; i < n; i++) {
        uint64_t r = lcg(&seed);
        /* half the rows repeat the key before (runs), 1 in 20 keys and 1 in 10 values null */
        int k = i > 0 && r % 2 ? prev : (int)((r >> 8) % (uint64_t)np);
        if (nulls && (r >> 20) % 20 == 0) k = -1;
        /* first, the strings that differ in one byte one after the other (twice each) */
        if (i < 2 * (np - 1200)) k = 1200 + (int)(i / 2);
        prev = k;
        int64_t v = (int64_t)((r >> 24) % 2001) - 1000;
        bool vnull = nulls && (r >> 36) % 10 == 0;
        double d = (double)v / 2;
        if (key_type == HUDI_TYPE_STRING)
            row(t, k < 0 ? (const char *)NULL : pool[k], vnull ? NUL : v, d);
        else
            row(t, k < 0 ? NUL : (int64_t)k * 1000003 - 600000000, vnull ? NUL : v, d);
        int slot = k + 1;
        cnt[slot]++;
        sumd[slot] += d;
        if (!vnull) {
            cntv[slot]++;
            sum[slot] += v;
        }
    }
    char **lines = calloc((size_t)np + 2, sizeof(*lines));
    int64_t nl = 0;
    for (int slot = 0; slot <= np; slot++) {
        if (!cnt[slot]) continue;
        int k = slot - 1;
        char *key = k < 0 ? fmt("NULL")
                    : key_type == HUDI_TYPE_STRING
                        ? fmt("%s", pool[k])
                        : fmt("%lld", (long long)k * 1000003 - 600000000);
        char *s = cntv[slot] ? fmt("%lld", (long long)sum[slot]) : fmt("NULL");
        char *avg = cntv[slot] ? fmt("%g", (double)sum[slot] / (double)cntv[slot]) : fmt("NULL");
        lines[nl++] = fmt("%s,%lld,%lld,%s,%s,%g", key, (long long)cnt[slot], (long long)cntv[slot],
                          s, avg, sumd[slot]);
        hudi_free(key);
        hudi_free(s);
        hudi_free(avg);
    }
    char *want = join_sorted(lines, nl);
    hudi_sql_plan *in = leaf(t, per);
    hudi_sql_bexpr **g = zalloc(sizeof(*g));
    g[0] = col(in, 0);
    hudi_sql_aggcall **a = zalloc(5 * sizeof(*a));
    a[0] = agg("count", NULL, false, NULL);
    a[1] = agg("count", col(in, 1), false, NULL);
    a[2] = agg("sum", col(in, 1), false, NULL);
    a[3] = agg("avg", col(in, 1), false, NULL);
    a[4] = agg("sum", col(in, 2), false, NULL);
    expect(p_agg(in, 1, g, 5, a), true, want);
    /* the same aggregates without GROUP BY */
    int64_t tc = 0, tcv = 0, ts = 0;
    double td = 0;
    for (int slot = 0; slot <= np; slot++) {
        tc += cnt[slot];
        tcv += cntv[slot];
        ts += sum[slot];
        td += sumd[slot];
    }
    char *gs = tcv ? fmt("%lld", (long long)ts) : fmt("NULL");
    char *ga = tcv ? fmt("%g", (double)ts / (double)tcv) : fmt("NULL");
    char *gd = tc ? fmt("%g", td) : fmt("NULL"); /* the sum of no rows is null */
    char *gwant = fmt("%lld,%lld,%s,%s,%s", (long long)tc, (long long)tcv, gs, ga, gd);
    expect(p_agg(in, 0, NULL, 5, a), false, gwant);
    hudi_free(gs);
    hudi_free(ga);
    hudi_free(gd);
    hudi_free(gwant);
    hudi_free(want);
    free(lines);
    free(cnt);
    free(cntv);
    free(sum);
    free(sumd);
}

Test(exec, group_by_fast_paths_match_a_reference) {
    check_group_by(HUDI_TYPE_STRING, 20000, true, 1000, 1);
    check_group_by(HUDI_TYPE_STRING, 20000, false, 4096, 2);
    check_group_by(HUDI_TYPE_STRING, 3000, true, 7, 3);
    check_group_by(HUDI_TYPE_INT64, 20000, true, 1000, 4);
    check_group_by(HUDI_TYPE_INT64, 20000, false, 333, 5);
    check_group_by(HUDI_TYPE_STRING, 1, false, 1, 6);
    check_group_by(HUDI_TYPE_STRING, 0, true, 5, 7);
}

/* left (key, i) JOIN right (key, k) ON key, right keys unique (pool[0..nb) and one null): the
 * INNER and LEFT results against a nested loop. `all`: every left key matches. */
static void check_unique_join(int64_t n, int nb, bool all, int64_t per, uint64_t seed) {
    char **pool;
    int np = string_pool(&pool);
    cr_assert_leq(2 * nb, np);
    hudi_batch *r = new_batch(SCHEMA(ty(HUDI_TYPE_STRING), ty(HUDI_TYPE_INT64)));
    for (int k = nb - 1; k >= 0; k--) row(r, pool[k], (int64_t)k);
    row(r, (const char *)NULL, (int64_t)-1);
    hudi_batch *l = new_batch(SCHEMA(ty(HUDI_TYPE_STRING), ty(HUDI_TYPE_INT64)));
    char **inner = calloc((size_t)n + 1, sizeof(*inner)), **left = calloc((size_t)n + 1, 8);
    int64_t ni = 0, nl = 0;
    for (int64_t i = 0; i < n; i++) {
        uint64_t x = lcg(&seed);
        int k = (int)(x % (uint64_t)(all ? nb : 2 * nb));
        if (!all && (x >> 16) % 15 == 0) k = -1;
        row(l, k < 0 ? (const char *)NULL : pool[k], (int64_t)i);
        const char *key = k < 0 ? "NULL" : pool[k];
        if (k >= 0 && k < nb) {
            inner[ni++] = fmt("%s,%lld,%s,%d", key, (long long)i, key, k);
            left[nl++] = fmt("%s,%lld,%s,%d", key, (long long)i, key, k);
        } else {
            left[nl++] = fmt("%s,%lld,NULL,NULL", key, (long long)i);
        }
    }
    char *want_inner = join_sorted(inner, ni), *want_left = join_sorted(left, nl);
    hudi_sql_plan *lp = leaf(l, per), *rp = leaf(r, 17);
    hudi_sql_bexpr **lk = zalloc(sizeof(*lk)), **rk = zalloc(sizeof(*rk));
    lk[0] = col(lp, 0);
    rk[0] = col(rp, 0);
    expect(p_join(HUDI_SQL_J_INNER, lp, rp, 1, lk, rk, NULL), true, want_inner);
    expect(p_join(HUDI_SQL_J_LEFT, lp, rp, 1, lk, rk, NULL), true, want_left);
    hudi_free(want_inner);
    hudi_free(want_left);
    free(inner);
    free(left);
}

Test(exec, unique_key_join_matches_a_reference) {
    CTX.batch_rows = 500; /* left batches of 1000 rows are joined in two chunks */
    check_unique_join(5000, 600, false, 1000, 11);
    check_unique_join(5000, 600, true, 1000, 12); /* whole left batches pass through */
    check_unique_join(3000, 40, true, 250, 13);
    check_unique_join(100, 1, false, 7, 14);
}
