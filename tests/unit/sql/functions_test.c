/* functions_test.c - the function registry, Spark's types and coercions, CAST, the text of
 * values, and every scalar function and operator (src/sql/functions.c, ops.c, cast.c,
 * fn_string.c, fn_datetime.c, fn_math.c). Expected values are what Spark 3.5 returns for the
 * same expression (spark.sql.session.timeZone=UTC unless a test says otherwise).
 *
 * Expressions are bound with hudi_sql_bind_fn over constants and columns of a small batch and
 * evaluated here by a minimal tree walk (the engine's own evaluator is expr.c), so each call's
 * eval sees constants (is_const) and full arrays as the engine passes them. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "columnar/render.h"
#include "sql/fn_int.h"
#include "sql/sql.h"
#include "support.h"

/* ---- a tiny statement: arena, context, owned arrays ---------------------------------------- */

static hudi_arena arena;
static hudi_sql_ctx ctx;
static hudi_array *owned[4096];
static int n_owned;
static hudi_batch *batch; /* columns for E_COL */

static void setup(void) {
    arena = (hudi_arena)HUDI_ARENA_INIT;
    memset(&ctx, 0, sizeof(ctx));
    ctx.arena = &arena;
    ctx.tz_name = "UTC";
    ctx.now_micros = INT64_C(1764590400) * 1000000; /* 2025-12-01 12:00:00 UTC */
    ctx.batch_rows = 8192;
    n_owned = 0;
    batch = NULL;
}

static void teardown(void) {
    for (int i = 0; i < n_owned; i++) hudi_array_free(owned[i]);
    if (batch) {
        for (int32_t c = 0; c < batch->n_columns; c++) hudi_array_free(batch->columns[c]);
        hudi_free(batch->columns);
        hudi_free(batch);
    }
    hudi_arena_dispose(&arena);
}

TestSuite(functions, .init = setup, .fini = teardown);

static hudi_field *type_of(hudi_type_id t) {
    hudi_field *f = hudi_arena_alloc(&arena, sizeof(hudi_field));
    *f = hudi_sql_prim(t);
    return f;
}

static hudi_sql_bexpr *const_of(hudi_array *a) {
    owned[n_owned++] = a;
    hudi_sql_bexpr *e = hudi_arena_alloc(&arena, sizeof(*e));
    e->kind = HUDI_SQL_BX_CONST;
    e->type = *a->field;
    e->value = a;
    return e;
}

static hudi_array *new_array(const hudi_field *f) {
    hudi_array *a;
    cr_assert_eq(hudi_array_new(&a, f, NULL), 0);
    return a;
}

static hudi_sql_bexpr *E_S(const char *s) {
    hudi_array *a = new_array(type_of(HUDI_TYPE_STRING));
    hudi_array_append_bytes(a, s, strlen(s), NULL);
    return const_of(a);
}

static hudi_sql_bexpr *E_FIX(hudi_type_id t, const void *v) {
    hudi_array *a = new_array(type_of(t));
    cr_assert_eq(hudi_array_append_fixed(a, v, NULL), 0);
    return const_of(a);
}

static hudi_sql_bexpr *E_I(int32_t v) { return E_FIX(HUDI_TYPE_INT32, &v); }
static hudi_sql_bexpr *E_L(int64_t v) { return E_FIX(HUDI_TYPE_INT64, &v); }
static hudi_sql_bexpr *E_D(double v) { return E_FIX(HUDI_TYPE_DOUBLE, &v); }
static hudi_sql_bexpr *E_F(float v) { return E_FIX(HUDI_TYPE_FLOAT, &v); }
static hudi_sql_bexpr *E_B(bool v) {
    uint8_t b = v;
    return E_FIX(HUDI_TYPE_BOOL, &b);
}
static hudi_sql_bexpr *E_Y(int8_t v) { return E_FIX(HUDI_TYPE_INT8, &v); }
static hudi_sql_bexpr *E_NULL(void) {
    hudi_array *a = new_array(type_of(HUDI_TYPE_NULL));
    hudi_array_append_null(a, NULL);
    return const_of(a);
}
static hudi_sql_bexpr *E_NULLT(hudi_type_id t) {
    hudi_array *a = new_array(type_of(t));
    hudi_array_append_null(a, NULL);
    return const_of(a);
}
/* A decimal literal as Spark types it: "1.50" is DECIMAL(3,2). */
static hudi_sql_bexpr *E_DEC(const char *text) {
    const char *dot = strchr(text, '.');
    int digits = 0, scale = dot ? (int)strlen(dot + 1) : 0;
    for (const char *p = text; *p; p++) digits += *p >= '0' && *p <= '9';
    while (digits > scale + 1 && text[text[0] == '-'] == '0') digits--;
    hudi_field *f = hudi_arena_alloc(&arena, sizeof(hudi_field));
    *f = hudi_sql_decimal(HUDI_MAX(digits, scale), scale);
    __int128 v;
    cr_assert(hudi_sql_parse_decimal(hudi_slice_cstr(text), f->precision, scale, &v), "%s", text);
    hudi_array *a = new_array(f);
    hudi_array_append_fixed(a, &v, NULL);
    return const_of(a);
}
static hudi_sql_bexpr *E_DECT(const char *text, int p, int s) {
    hudi_field *f = hudi_arena_alloc(&arena, sizeof(hudi_field));
    *f = hudi_sql_decimal(p, s);
    __int128 v;
    cr_assert(hudi_sql_parse_decimal(hudi_slice_cstr(text), p, s, &v), "%s", text);
    hudi_array *a = new_array(f);
    hudi_array_append_fixed(a, &v, NULL);
    return const_of(a);
}
static hudi_sql_bexpr *E_DATE(const char *text) {
    int32_t d;
    cr_assert(hudi_sql_parse_date(hudi_slice_cstr(text), &d));
    return E_FIX(HUDI_TYPE_DATE, &d);
}
static hudi_sql_bexpr *E_TS(const char *text) {
    int64_t us;
    cr_assert(hudi_sql_parse_timestamp(hudi_slice_cstr(text), 0, 0, &us));
    return E_FIX(HUDI_TYPE_TIMESTAMP, &us);
}
static hudi_sql_bexpr *E_BIN(const char *bytes, size_t n) {
    hudi_array *a = new_array(type_of(HUDI_TYPE_BINARY));
    hudi_array_append_bytes(a, bytes, n, NULL);
    return const_of(a);
}

static hudi_sql_pos here = {1, 1, 0};

static hudi_sql_bexpr *callv(const char *name, int n, va_list ap) {
    hudi_sql_bexpr **args = hudi_arena_alloc(&arena, (size_t)(n ? n : 1) * sizeof(*args));
    for (int i = 0; i < n; i++) args[i] = va_arg(ap, hudi_sql_bexpr *);
    hudi_sql_bexpr *e = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    int rc = hudi_sql_bind_fn(&ctx, name, args, n, here, &e, &err);
    cr_assert_eq(rc, 0, "bind %s: %s", name, err.message);
    return e;
}

static hudi_sql_bexpr *C(const char *name, int n, ...) {
    va_list ap;
    va_start(ap, n);
    hudi_sql_bexpr *e = callv(name, n, ap);
    va_end(ap);
    return e;
}

/* The bind error of a call, or "" when it binds. */
static const char *bind_error(const char *name, int n, ...) {
    static hudi_error err;
    va_list ap;
    va_start(ap, n);
    hudi_sql_bexpr **args = hudi_arena_alloc(&arena, (size_t)(n ? n : 1) * sizeof(*args));
    for (int i = 0; i < n; i++) args[i] = va_arg(ap, hudi_sql_bexpr *);
    va_end(ap);
    hudi_sql_bexpr *e;
    memset(&err, 0, sizeof(err));
    return hudi_sql_bind_fn(&ctx, name, args, n, here, &e, &err) == 0 ? "" : err.message;
}

static hudi_sql_bexpr *CAST(hudi_sql_bexpr *e, hudi_field t) {
    hudi_sql_bexpr *out;
    hudi_error err = HUDI_ERROR_INIT;
    t.name = NULL;
    cr_assert_eq(hudi_sql_bind_cast(&ctx, e, &t, &out, &err), 0, "%s", err.message);
    return out;
}

/* ---- evaluation: a minimal tree walk -------------------------------------------------------- */

static int eval(const hudi_sql_bexpr *e, int64_t nrows, hudi_sql_datum *out, hudi_error *err) {
    memset(out, 0, sizeof(*out));
    if (e->kind == HUDI_SQL_BX_CONST) {
        out->array = e->value;
        out->is_const = true;
        return 0;
    }
    if (e->kind == HUDI_SQL_BX_COLUMN) {
        out->array = batch->columns[e->column];
        return 0;
    }
    hudi_sql_datum args[16] = {{0}};
    int rc = 0;
    int32_t k = 0;
    for (; k < e->n_args && rc == 0; k++) rc = eval(e->args[k], nrows, &args[k], err);
    if (rc == 0) {
        rc = e->fn->eval(&ctx, e, args, nrows, &out->array, err);
        out->owned = true;
        if (rc == 0) {
            cr_assert_eq(out->array->length, nrows, "%s: %lld rows", e->fn->name,
                         (long long)out->array->length);
            cr_assert_eq(hudi_array_validate(out->array, err), 0, "%s: %s", e->fn->name,
                         err->message);
            cr_assert(hudi_sql_type_equal(out->array->field, &e->type));
        }
    }
    for (int32_t i = 0; i < k; i++)
        if (args[i].owned) hudi_array_free(args[i].array);
    return rc;
}

/* Row renderings joined by '|', or "ERROR: message". */
static const char *run(const hudi_sql_bexpr *e, int64_t nrows) {
    hudi_sql_datum d;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_buf b = HUDI_BUF_INIT;
    if (eval(e, nrows, &d, &err) < 0) {
        hudi_buf_printf(&b, "ERROR: %s", err.message);
    } else {
        for (int64_t i = 0; i < nrows; i++) {
            if (i) hudi_buf_putc(&b, '|');
            hudi_sql_render_value(&b, &ctx, d.array, d.is_const ? 0 : i);
        }
        if (d.owned) hudi_array_free(d.array);
    }
    const char *s = hudi_arena_strdup(&arena, b.data ? b.data : "");
    hudi_buf_dispose(&b);
    return s;
}

#define EXPECT(e, want)                                                                            \
    do {                                                                                           \
        const char *got_ = run((e), 1);                                                            \
        cr_expect_str_eq(got_, (want), "line %d: got `%s`, want `%s`", __LINE__, got_, (want));    \
    } while (0)

/* The Spark type name of a bound expression. */
static const char *TYPE(const hudi_sql_bexpr *e) { return hudi_sql_type_str(&arena, &e->type); }

/* A batch of columns for E_COL: strings "a,NULL,c" etc. (NULL is a null row). */
static void make_batch(int n_cols, const hudi_type_id *types, const char *const *rows) {
    hudi_field *schema = hudi_arena_alloc(&arena, sizeof(hudi_field));
    *schema = hudi_sql_prim(HUDI_TYPE_STRUCT);
    schema->children = hudi_arena_alloc(&arena, (size_t)n_cols * sizeof(hudi_field));
    schema->n_children = n_cols;
    for (int c = 0; c < n_cols; c++) {
        schema->children[c] = hudi_sql_prim(types[c]);
        schema->children[c].name = (char *)"c";
    }
    batch = hudi_calloc(1, sizeof(*batch));
    batch->schema = schema;
    batch->n_columns = n_cols;
    batch->columns = hudi_calloc((size_t)n_cols, sizeof(hudi_array *));
    for (int c = 0; c < n_cols; c++) {
        /* parse each row's text by casting a string array */
        hudi_field *sf = type_of(HUDI_TYPE_STRING);
        hudi_array *s = new_array(sf);
        int64_t n = 0;
        char *copy = hudi_arena_strdup(&arena, rows[c]);
        for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ","), n++) {
            if (strcmp(tok, "NULL") == 0)
                hudi_array_append_null(s, NULL);
            else
                hudi_array_append_bytes(s, tok, strlen(tok), NULL);
        }
        hudi_error err = HUDI_ERROR_INIT;
        cr_assert_eq(hudi_sql_cast_array(&ctx, s, &schema->children[c], &batch->columns[c], &err),
                     0);
        hudi_array_free(s);
        batch->num_rows = n;
    }
}

static hudi_sql_bexpr *E_COL(int c) {
    hudi_sql_bexpr *e = hudi_arena_alloc(&arena, sizeof(*e));
    e->kind = HUDI_SQL_BX_COLUMN;
    e->column = c;
    e->type = batch->schema->children[c];
    return e;
}

static hudi_field T(hudi_type_id t) { return hudi_sql_prim(t); }

/* ---- registry ---------------------------------------------------------------------------------
 */

Test(functions, registry_sorted_with_aliases) {
    int32_t n;
    const hudi_sql_func *const *all = hudi_sql_func_all(&n);
    cr_assert_gt(n, 150);
    for (int32_t i = 1; i < n; i++)
        cr_assert_lt(strcmp(all[i - 1]->name, all[i]->name), 0, "%s %s", all[i - 1]->name,
                     all[i]->name);
    for (int32_t i = 0; i < n; i++) {
        cr_assert_eq(hudi_sql_func_lookup(all[i]->name)->eval, all[i]->eval, "%s", all[i]->name);
        cr_assert(all[i]->usage && all[i]->usage[0], "%s has no usage", all[i]->name);
        if (all[i]->kind == HUDI_SQL_FN_SCALAR) cr_assert(all[i]->eval && all[i]->bind);
    }
    cr_assert_eq(hudi_sql_func_lookup("SUBSTR")->eval, hudi_sql_func_lookup("substring")->eval);
    cr_assert_str_eq(hudi_sql_func_lookup("Substr")->name, "substring");
    cr_assert_str_eq(hudi_sql_func_lookup("MOD")->name, "%");
    bool listed = false;
    for (int32_t i = 0; i < n; i++) listed |= strcmp(all[i]->name, "substr") == 0;
    cr_assert(listed, "aliases are listed");
    cr_assert_eq(hudi_sql_func_lookup("lcase")->eval, hudi_sql_func_lookup("lower")->eval);
    cr_assert_eq(hudi_sql_func_lookup("dayofmonth")->eval, hudi_sql_func_lookup("day")->eval);
    cr_assert_eq(hudi_sql_func_lookup("!=")->eval, hudi_sql_func_lookup("<>")->eval);
    cr_assert_null(hudi_sql_func_lookup("no_such_function"));
    /* aggregate.c's functions are in the registry too */
    cr_assert_eq(hudi_sql_func_lookup("COUNT")->kind, HUDI_SQL_FN_AGGREGATE);
    cr_assert_eq(hudi_sql_func_lookup("sum")->kind, HUDI_SQL_FN_AGGREGATE);
    cr_assert_null(hudi_sql_func_lookup(
        "a_name_longer_than_sixty_four_characters_is_never_a_function_name_at_all"));
}

Test(functions, bind_errors) {
    cr_expect_str_eq(bind_error("nope", 0), "line 1, column 1: undefined function: nope");
    cr_expect_str_eq(bind_error("upper", 0), "line 1, column 1: upper takes 1 argument, 0 given");
    cr_expect_str_eq(bind_error("substring", 1, E_S("a")),
                     "line 1, column 1: substring takes 2 to 3 arguments, 1 given");
    cr_expect_str_eq(bind_error("coalesce", 0),
                     "line 1, column 1: coalesce takes at least 1 argument, 0 given");
    cr_expect_str_eq(bind_error("and", 2, E_B(true), E_DATE("2024-01-01")),
                     "line 1, column 1: and: argument 2 requires boolean, not date");
    cr_expect_str_eq(bind_error("coalesce", 2, E_B(true), E_S("x")),
                     "line 1, column 1: coalesce: arguments of types boolean and string have no "
                     "common type");
    cr_expect_str_eq(bind_error("+", 2, E_B(true), E_I(1)),
                     "line 1, column 1: +: requires numeric operands, not boolean and int");
    cr_expect_str_eq(bind_error("rlike", 2, E_S("a"), E_S("(")),
                     "line 1, column 1: rlike: bad regular expression '(': missing closing "
                     "parenthesis at offset 1");
    cr_expect_str_eq(bind_error("date_format", 2, E_TS("2024-01-01"), E_S("YYYY")),
                     "line 1, column 1: date_format: illegal pattern letter 'Y' in 'YYYY'");
}

/* ---- types --------------------------------------------------------------------------------------
 */

static const char *common(hudi_field a, hudi_field b) {
    hudi_field out;
    hudi_error err = HUDI_ERROR_INIT;
    if (hudi_sql_common_type(&arena, &a, &b, &out, &err) < 0)
        return hudi_arena_strdup(&arena, err.message);
    return hudi_sql_type_str(&arena, &out);
}

Test(functions, common_types) {
    cr_expect_str_eq(common(T(HUDI_TYPE_INT32), T(HUDI_TYPE_INT64)), "bigint");
    cr_expect_str_eq(common(T(HUDI_TYPE_INT32), hudi_sql_decimal(2, 1)), "decimal(11,1)");
    cr_expect_str_eq(common(T(HUDI_TYPE_INT64), hudi_sql_decimal(2, 1)), "decimal(21,1)");
    cr_expect_str_eq(common(hudi_sql_decimal(2, 1), T(HUDI_TYPE_DOUBLE)), "double");
    cr_expect_str_eq(common(hudi_sql_decimal(2, 1), T(HUDI_TYPE_FLOAT)), "double");
    cr_expect_str_eq(common(T(HUDI_TYPE_INT64), T(HUDI_TYPE_FLOAT)), "float");
    cr_expect_str_eq(common(hudi_sql_decimal(10, 2), hudi_sql_decimal(5, 4)), "decimal(12,4)");
    cr_expect_str_eq(common(T(HUDI_TYPE_DATE), T(HUDI_TYPE_TIMESTAMP)), "timestamp");
    cr_expect_str_eq(common(T(HUDI_TYPE_DATE), T(HUDI_TYPE_STRING)), "string");
    cr_expect_str_eq(common(T(HUDI_TYPE_INT32), T(HUDI_TYPE_STRING)), "string");
    cr_expect_str_eq(common(T(HUDI_TYPE_NULL), T(HUDI_TYPE_DATE)), "date");
    cr_expect_str_eq(common(T(HUDI_TYPE_BOOL), T(HUDI_TYPE_STRING)),
                     "incompatible types boolean and string");
    cr_expect_str_eq(common(T(HUDI_TYPE_BINARY), T(HUDI_TYPE_STRING)),
                     "incompatible types binary and string");
}

static hudi_field ddl(const char *type_text) {
    hudi_arena a2 = HUDI_ARENA_INIT;
    hudi_sql_stmt *s;
    hudi_sql_pos pos;
    hudi_error err = HUDI_ERROR_INIT;
    char sql[300];
    snprintf(sql, sizeof(sql), "CREATE TABLE t (c %s)", type_text);
    (void)a2;
    cr_assert_eq(hudi_sql_parse(&s, &arena, sql, strlen(sql), &pos, &err), 0, "%s", err.message);
    const hudi_sql_coldef *c = HUDI_SQL_AT(s->columns, hudi_sql_coldef, 0);
    hudi_field f;
    int rc = hudi_sql_type_from_ast(&arena, c->type, "c", &f, &err);
    if (rc < 0) {
        f = hudi_sql_prim(HUDI_TYPE_NULL);
        f.name = hudi_arena_strdup(&arena, err.message);
    }
    return f;
}

static const char *ddl_name(const char *type_text) {
    hudi_field f = ddl(type_text);
    return f.type == HUDI_TYPE_NULL ? f.name : hudi_sql_type_str(&arena, &f);
}

Test(functions, ddl_types) {
    cr_expect_str_eq(ddl_name("LONG"), "bigint");
    cr_expect_str_eq(ddl_name("INTEGER"), "int");
    cr_expect_str_eq(ddl_name("REAL"), "float");
    cr_expect_str_eq(ddl_name("SHORT"), "smallint");
    cr_expect_str_eq(ddl_name("BYTE"), "tinyint");
    cr_expect_str_eq(ddl_name("DOUBLE PRECISION"), "double");
    cr_expect_str_eq(ddl_name("VARCHAR(20)"), "string");
    cr_expect_str_eq(ddl_name("CHAR(3)"), "string");
    cr_expect_str_eq(ddl_name("NUMERIC"), "decimal(10,0)");
    cr_expect_str_eq(ddl_name("DEC(5)"), "decimal(5,0)");
    cr_expect_str_eq(ddl_name("DECIMAL(38, 10)"), "decimal(38,10)");
    cr_expect_str_eq(ddl_name("TIMESTAMP"), "timestamp");
    cr_expect_str_eq(ddl_name("TIMESTAMP_NTZ"), "timestamp_ntz");
    cr_expect_str_eq(ddl_name("TIMESTAMP(3) WITH LOCAL TIME ZONE"), "timestamp");
    cr_expect_str_eq(ddl_name("ARRAY<MAP<STRING, ARRAY<INT>>>"), "array<map<string,array<int>>>");
    cr_expect_str_eq(ddl_name("STRUCT<a: INT, b STRING NOT NULL COMMENT 'x'>"),
                     "struct<a:int,b:string>");
    cr_expect_str_eq(ddl_name("ROW<x INT, y ROW<z BIGINT>>"), "struct<x:int,y:struct<z:bigint>>");
    cr_expect_str_eq(ddl_name("DECIMAL(39,0)"),
                     "line 1, column 19: decimal precision 39 is outside 1..38");
    cr_expect_str_eq(ddl_name("DECIMAL(5,6)"),
                     "line 1, column 19: decimal scale 6 is larger than its precision 5");
    cr_expect_str_eq(ddl_name("STRUCT<a INT, A INT>"),
                     "line 1, column 33: duplicate struct field A");
    hudi_field s = ddl("STRUCT<a: INT, b STRING NOT NULL COMMENT 'x'>");
    cr_expect(s.children[0].nullable);
    cr_expect(!s.children[1].nullable);
    cr_expect_str_eq(s.children[1].comment, "x");
    hudi_field m = ddl("MAP<STRING, INT>");
    cr_expect_str_eq(m.children[0].name, "key_value");
    cr_expect(!m.children[0].children[0].nullable);
    hudi_field copy;
    cr_assert_eq(hudi_sql_field_copy(&arena, &copy, &s), 0);
    cr_expect(hudi_sql_type_equal(&copy, &s));
    cr_expect_str_eq(copy.children[1].comment, "x");
    cr_expect(copy.children[1].name != s.children[1].name);
    cr_expect(!hudi_sql_type_equal(&s, &m));
}

/* ---- CAST
 * ------------------------------------------------------------------------------------------ */

#define CAST_EXPECT(e, t, want) EXPECT(CAST((e), (t)), want)

Test(functions, cast_string_to_numbers) {
    hudi_field i = T(HUDI_TYPE_INT32), l = T(HUDI_TYPE_INT64), d = T(HUDI_TYPE_DOUBLE);
    CAST_EXPECT(E_S("1.9"), i, "1");
    CAST_EXPECT(E_S("-1.9"), i, "-1");
    CAST_EXPECT(E_S(" 12 "), i, "12");
    CAST_EXPECT(E_S("+5"), i, "5");
    CAST_EXPECT(E_S(".5"), i, "0");
    CAST_EXPECT(E_S("5."), i, "5");
    CAST_EXPECT(E_S("abc"), i, "NULL");
    CAST_EXPECT(E_S(""), i, "NULL");
    CAST_EXPECT(E_S("1e3"), i, "NULL");
    CAST_EXPECT(E_S("0x10"), i, "NULL");
    CAST_EXPECT(E_S("1,000"), i, "NULL");
    CAST_EXPECT(E_S("2147483648"), i, "NULL");
    CAST_EXPECT(E_S("9223372036854775807"), l, "9223372036854775807");
    CAST_EXPECT(E_S("9223372036854775808"), l, "NULL");
    CAST_EXPECT(E_S("-9223372036854775808"), l, "-9223372036854775808");
    CAST_EXPECT(E_S("1L"), l, "NULL");
    CAST_EXPECT(E_S("300"), T(HUDI_TYPE_INT8), "NULL");
    CAST_EXPECT(E_S("NaN"), d, "NaN");
    CAST_EXPECT(E_S("nan"), d, "NaN");
    CAST_EXPECT(E_S("Infinity"), d, "Infinity");
    CAST_EXPECT(E_S("-inf"), d, "-Infinity");
    CAST_EXPECT(E_S("1e400"), d, "Infinity");
    CAST_EXPECT(E_S(" 1.5 "), d, "1.5");
    CAST_EXPECT(E_S("1.5d"), d, "1.5");
    CAST_EXPECT(E_S(".5"), d, "0.5");
    CAST_EXPECT(E_S("5."), d, "5.0");
    CAST_EXPECT(E_S("  "), d, "NULL");
    CAST_EXPECT(E_S(" 0x1A"), d, "NULL");
    CAST_EXPECT(E_S("true"), d, "NULL");
    CAST_EXPECT(E_S("1.5f"), T(HUDI_TYPE_FLOAT), "1.5");
}

Test(functions, cast_numbers) {
    hudi_field i = T(HUDI_TYPE_INT32), y = T(HUDI_TYPE_INT8);
    CAST_EXPECT(E_L(2147483648LL), i, "-2147483648");
    CAST_EXPECT(E_D(1e20), i, "2147483647");
    CAST_EXPECT(E_D(-1e20), T(HUDI_TYPE_INT64), "-9223372036854775808");
    CAST_EXPECT(E_D(NAN), i, "0");
    CAST_EXPECT(E_DEC("1.5"), i, "1");
    CAST_EXPECT(E_DEC("-1.5"), i, "-1");
    CAST_EXPECT(E_DEC("3000000000.5"), i, "-1294967296");
    CAST_EXPECT(E_DEC("127.9"), y, "127");
    CAST_EXPECT(E_I(300), y, "44");
    CAST_EXPECT(E_DECT("255", 3, 0), y, "-1");
    CAST_EXPECT(E_D(300.5), y, "44");
    CAST_EXPECT(E_B(true), i, "1");
    CAST_EXPECT(E_B(true), T(HUDI_TYPE_DOUBLE), "1.0");
    CAST_EXPECT(E_F(1.1f), T(HUDI_TYPE_DOUBLE), "1.100000023841858");
    CAST_EXPECT(E_F(1.0e7f), T(HUDI_TYPE_DOUBLE), "1.0E7");
    CAST_EXPECT(E_DECT("1.23", 3, 2), T(HUDI_TYPE_DOUBLE), "1.23");
    CAST_EXPECT(E_DATE("2024-01-05"), i, "NULL");
    CAST_EXPECT(E_NULL(), i, "NULL");
}

Test(functions, cast_decimals) {
    hudi_field d52 = hudi_sql_decimal(5, 2);
    CAST_EXPECT(E_S("1.005"), d52, "1.01");
    CAST_EXPECT(E_S("-1.005"), d52, "-1.01");
    CAST_EXPECT(E_S("123456"), d52, "NULL");
    CAST_EXPECT(E_S("1e2"), d52, "100.00");
    CAST_EXPECT(E_S(" 1.5 "), d52, "1.50");
    CAST_EXPECT(E_S("1E400"), hudi_sql_decimal(10, 0), "NULL");
    CAST_EXPECT(E_S("9.5"), hudi_sql_decimal(1, 0), "NULL");
    CAST_EXPECT(E_D(1.005), d52, "1.01");
    CAST_EXPECT(E_D(1.015), hudi_sql_decimal(5, 3), "1.015");
    CAST_EXPECT(E_DEC("12345.678"), d52, "NULL");
    CAST_EXPECT(E_D(1.5), hudi_sql_decimal(38, 37), "1.5000000000000000000000000000000000000");
    CAST_EXPECT(E_D(99.5), hudi_sql_decimal(2, 0), "NULL");
    CAST_EXPECT(E_D(99.4), hudi_sql_decimal(2, 0), "99");
    CAST_EXPECT(E_D(1e-5), hudi_sql_decimal(10, 8), "0.00001000");
    CAST_EXPECT(E_D(NAN), d52, "NULL");
    CAST_EXPECT(E_I(5), hudi_sql_decimal(10, 2), "5.00");
    CAST_EXPECT(E_DECT("-0.05", 10, 2), T(HUDI_TYPE_STRING), "-0.05");
    CAST_EXPECT(E_DECT("0", 10, 2), T(HUDI_TYPE_STRING), "0.00");
}

Test(functions, cast_booleans) {
    hudi_field b = T(HUDI_TYPE_BOOL);
    CAST_EXPECT(E_S("TRUE"), b, "true");
    CAST_EXPECT(E_S("y"), b, "true");
    CAST_EXPECT(E_S("yes"), b, "true");
    CAST_EXPECT(E_S(" t "), b, "true");
    CAST_EXPECT(E_S("1"), b, "true");
    CAST_EXPECT(E_S("No"), b, "false");
    CAST_EXPECT(E_S("0"), b, "false");
    CAST_EXPECT(E_S("2"), b, "NULL");
    CAST_EXPECT(E_I(2), b, "true");
    CAST_EXPECT(E_DEC("0.0"), b, "false");
    CAST_EXPECT(E_D(NAN), b, "true");
}

Test(functions, cast_dates_and_timestamps) {
    hudi_field d = T(HUDI_TYPE_DATE), ts = T(HUDI_TYPE_TIMESTAMP), s = T(HUDI_TYPE_STRING);
    CAST_EXPECT(E_S("2024-1-5"), d, "2024-01-05");
    CAST_EXPECT(E_S("2024"), d, "2024-01-01");
    CAST_EXPECT(E_S("2024-02"), d, "2024-02-01");
    CAST_EXPECT(E_S("2024-01-05T10:00:00Z"), d, "2024-01-05");
    CAST_EXPECT(E_S("2024-01-05 garbage"), d, "2024-01-05");
    CAST_EXPECT(E_S("2024-02-30"), d, "NULL");
    CAST_EXPECT(E_S(" 2024-01-05 "), d, "2024-01-05");
    CAST_EXPECT(E_S("24-01-05"), d, "NULL");
    CAST_EXPECT(E_S("2024-01-05T10:00:00Z"), ts, "2024-01-05 10:00:00");
    CAST_EXPECT(E_S("2024-01-05 10:00:00+08:00"), ts, "2024-01-05 02:00:00");
    CAST_EXPECT(E_S("2024-01-05 10:00"), ts, "2024-01-05 10:00:00");
    CAST_EXPECT(E_S("2024-01-05 10"), ts, "2024-01-05 10:00:00");
    CAST_EXPECT(E_S("2024-01-05"), ts, "2024-01-05 00:00:00");
    CAST_EXPECT(E_S("2024-01-05 10:00:00.123456789"), ts, "2024-01-05 10:00:00.123456");
    CAST_EXPECT(E_S("2024-01-05T10:00:00.5"), ts, "2024-01-05 10:00:00.5");
    CAST_EXPECT(E_S("2024-01-05 1:2:3"), ts, "2024-01-05 01:02:03");
    CAST_EXPECT(E_S("2024-01-05 10:00:00 UTC"), ts, "2024-01-05 10:00:00");
    CAST_EXPECT(E_S("2024-01-05 10:00:00 +01:00"), ts, "2024-01-05 09:00:00");
    CAST_EXPECT(E_S("2024-01-05 10:00:00-0130"), ts, "2024-01-05 11:30:00");
    CAST_EXPECT(E_S("2024-01-05 10:00:00 GMT+1"), ts, "2024-01-05 09:00:00");
    CAST_EXPECT(E_S("10:00:00"), ts, "2025-12-01 10:00:00"); /* today in the session zone */
    CAST_EXPECT(E_S("T10:00:00"), ts, "2025-12-01 10:00:00");
    CAST_EXPECT(E_S("2024-01-05 25:00:00"), ts, "NULL");
    CAST_EXPECT(E_TS("2024-01-05 10:00:00.120"), s, "2024-01-05 10:00:00.12");
    CAST_EXPECT(E_TS("2024-01-05 10:00:00"), T(HUDI_TYPE_INT64), "1704448800");
    CAST_EXPECT(E_TS("2024-01-05 10:00:00.5"), T(HUDI_TYPE_DOUBLE), "1.7044488005E9");
    CAST_EXPECT(E_TS("2024-01-05 10:00:00.5"), T(HUDI_TYPE_INT32), "1704448800");
    CAST_EXPECT(E_I(1704448800), ts, "2024-01-05 10:00:00");
    CAST_EXPECT(E_D(1704448800.5), ts, "2024-01-05 10:00:00.5");
    CAST_EXPECT(E_D(NAN), ts, "NULL");
    CAST_EXPECT(E_DATE("2024-01-05"), ts, "2024-01-05 00:00:00");
    CAST_EXPECT(E_TS("2024-01-05 23:00:00"), d, "2024-01-05");
}

Test(functions, cast_in_a_fixed_offset_zone) {
    ctx.tz_offset_minutes = 480;
    ctx.tz_name = "+08:00";
    hudi_field ts = T(HUDI_TYPE_TIMESTAMP);
    hudi_field ntz = T(HUDI_TYPE_TIMESTAMP);
    ntz.utc = false;
    /* spark.sql.session.timeZone=+08:00 */
    CAST_EXPECT(E_TS("2024-01-05 10:00:00"), T(HUDI_TYPE_STRING), "2024-01-05 18:00:00");
    CAST_EXPECT(CAST(E_S("2024-01-05 10:00:00"), ts), T(HUDI_TYPE_INT64), "1704420000");
    CAST_EXPECT(CAST(E_DATE("2024-01-05"), ts), T(HUDI_TYPE_INT64), "1704384000");
    CAST_EXPECT(E_TS("2024-01-05 20:00:00"), T(HUDI_TYPE_DATE), "2024-01-06");
    CAST_EXPECT(E_TS("2024-01-05 10:00:00"), ntz, "2024-01-05 18:00:00");
    CAST_EXPECT(CAST(CAST(E_S("2024-01-05 10:00:00"), ntz), ts), T(HUDI_TYPE_INT64), "1704420000");
}

Test(functions, cast_binary_and_strings) {
    CAST_EXPECT(E_BIN("AB", 2), T(HUDI_TYPE_STRING), "AB");
    CAST_EXPECT(E_S("AB"), T(HUDI_TYPE_BINARY), "AB");
    CAST_EXPECT(CAST(E_I(0x41424344), T(HUDI_TYPE_BINARY)), T(HUDI_TYPE_STRING), "ABCD");
    CAST_EXPECT(E_B(false), T(HUDI_TYPE_STRING), "false");
    CAST_EXPECT(E_L(-5), T(HUDI_TYPE_STRING), "-5");
    const char *err = bind_error("upper", 1, E_S("x"));
    cr_expect_str_eq(err, "");
    hudi_sql_bexpr *out;
    hudi_error e2 = HUDI_ERROR_INIT;
    hudi_field d = T(HUDI_TYPE_DATE);
    cr_expect_eq(hudi_sql_bind_cast(&ctx, E_I(1), &d, &out, &e2), HUDI_ESQL);
    cr_expect_str_eq(e2.message, "line 0, column 0: cannot cast int to date");
}

/* ---- the text of values -------------------------------------------------------------------------
 */

static const char *render1(hudi_sql_bexpr *e) { return run(e, 1); }

Test(functions, render_doubles_like_java) {
    static const struct {
        double v;
        const char *want;
    } cases[] = {
        {0.1, "0.1"},
        {1.0e7, "1.0E7"},
        {9999999.0, "9999999.0"},
        {0.001, "0.001"},
        {0.00099, "9.9E-4"},
        {1.0e10, "1.0E10"},
        {123456789.123, "1.23456789123E8"},
        {1.0e-5, "1.0E-5"},
        {-0.0, "-0.0"},
        {0.0, "0.0"},
        {100.0, "100.0"},
        {1.0e20, "1.0E20"},
        {-2.5, "-2.5"},
        {1.7044488005e9, "1.7044488005E9"},
        {1.7976931348623157e308, "1.7976931348623157E308"},
        {0.30000000000000004, "0.30000000000000004"},
        {NAN, "NaN"},
        {INFINITY, "Infinity"},
        {-INFINITY, "-Infinity"},
    };
    for (size_t i = 0; i < HUDI_ARRAY_LEN(cases); i++)
        cr_expect_str_eq(render1(E_D(cases[i].v)), cases[i].want, "%.17g", cases[i].v);
    cr_expect_str_eq(render1(E_F(1.1f)), "1.1");
    cr_expect_str_eq(render1(E_F(1.0e7f)), "1.0E7");
    cr_expect_str_eq(render1(E_F(3.4028235e38f)), "3.4028235E38");
    cr_expect_str_eq(render1(E_F(0.3f)), "0.3");
}

Test(functions, render_scalars) {
    cr_expect_str_eq(render1(E_DECT("5", 10, 2)), "5.00");
    cr_expect_str_eq(render1(E_DECT("-0.05", 10, 2)), "-0.05");
    cr_expect_str_eq(render1(E_DECT("12345678901234567890.123456789012345678", 38, 18)),
                     "12345678901234567890.123456789012345678");
    cr_expect_str_eq(render1(E_TS("2024-01-05 10:00:00.123")), "2024-01-05 10:00:00.123");
    cr_expect_str_eq(render1(E_TS("1969-12-31 23:59:59.999999")), "1969-12-31 23:59:59.999999");
    cr_expect_str_eq(render1(E_DATE("2024-01-05")), "2024-01-05");
    cr_expect_str_eq(render1(E_BIN("A\xff", 2)), "A\xef\xbf\xbd");
    cr_expect_str_eq(render1(E_NULL()), "NULL");
    cr_expect_str_eq(render1(E_B(true)), "true");
    cr_expect_str_eq(render1(E_Y(-128)), "-128");
    ctx.tz_offset_minutes = -480;
    cr_expect_str_eq(render1(E_TS("1970-01-01 00:00:00")), "1969-12-31 16:00:00");
}

/* list<int> rows [1,2], [NULL], NULL; map<string,int> {b:1,a:2}; struct<a:double,b:string> */
static hudi_sql_bexpr *nested_list(void) {
    hudi_field *f = hudi_arena_alloc(&arena, sizeof(hudi_field));
    *f = hudi_sql_prim(HUDI_TYPE_LIST);
    f->children = type_of(HUDI_TYPE_INT32);
    f->children->name = (char *)"element";
    f->n_children = 1;
    hudi_array *a = new_array(f);
    int32_t v1 = 1, v2 = 2;
    hudi_array_append_fixed(a->children[0], &v1, NULL);
    hudi_array_append_fixed(a->children[0], &v2, NULL);
    hudi_array_append_nested(a, 2, NULL);
    hudi_array_append_null(a->children[0], NULL);
    hudi_array_append_nested(a, 1, NULL);
    hudi_array_append_null(a, NULL);
    owned[n_owned++] = a;
    hudi_sql_bexpr *e = hudi_arena_alloc(&arena, sizeof(*e));
    e->kind = HUDI_SQL_BX_CONST;
    e->type = *f;
    e->value = a;
    return e;
}

static hudi_sql_bexpr *nested_map(void) {
    hudi_field *kv = hudi_arena_alloc(&arena, sizeof(hudi_field));
    *kv = hudi_sql_prim(HUDI_TYPE_STRUCT);
    kv->nullable = false;
    kv->children = hudi_arena_alloc(&arena, 2 * sizeof(hudi_field));
    kv->children[0] = hudi_sql_prim(HUDI_TYPE_STRING);
    kv->children[0].nullable = false;
    kv->children[1] = hudi_sql_prim(HUDI_TYPE_INT32);
    kv->n_children = 2;
    hudi_field *f = hudi_arena_alloc(&arena, sizeof(hudi_field));
    *f = hudi_sql_prim(HUDI_TYPE_MAP);
    f->children = kv;
    f->n_children = 1;
    hudi_array *a = new_array(f);
    hudi_array *k = a->children[0]->children[0], *v = a->children[0]->children[1];
    int32_t x = 1, y = 2;
    hudi_array_append_bytes(k, "b", 1, NULL);
    hudi_array_append_fixed(v, &x, NULL);
    hudi_array_append_bytes(k, "a", 1, NULL);
    hudi_array_append_fixed(v, &y, NULL);
    hudi_array_append_nested(a->children[0], 0, NULL);
    hudi_array_append_nested(a->children[0], 0, NULL);
    hudi_array_append_nested(a, 2, NULL);
    owned[n_owned++] = a;
    hudi_sql_bexpr *e = hudi_arena_alloc(&arena, sizeof(*e));
    e->kind = HUDI_SQL_BX_CONST;
    e->type = *f;
    e->value = a;
    return e;
}

static hudi_sql_bexpr *nested_struct(void) {
    hudi_field *f = hudi_arena_alloc(&arena, sizeof(hudi_field));
    *f = hudi_sql_prim(HUDI_TYPE_STRUCT);
    f->children = hudi_arena_alloc(&arena, 2 * sizeof(hudi_field));
    f->children[0] = hudi_sql_prim(HUDI_TYPE_DOUBLE);
    f->children[0].name = (char *)"a";
    f->children[1] = hudi_sql_prim(HUDI_TYPE_STRING);
    f->children[1].name = (char *)"b";
    f->n_children = 2;
    hudi_array *a = new_array(f);
    double d = 1.0;
    hudi_array_append_fixed(a->children[0], &d, NULL);
    hudi_array_append_bytes(a->children[1], "x", 1, NULL);
    hudi_array_append_nested(a, 0, NULL);
    owned[n_owned++] = a;
    hudi_sql_bexpr *e = hudi_arena_alloc(&arena, sizeof(*e));
    e->kind = HUDI_SQL_BX_CONST;
    e->type = *f;
    e->value = a;
    return e;
}

Test(functions, render_nested_like_spark_sql) {
    hudi_sql_bexpr *l = nested_list();
    hudi_buf b = HUDI_BUF_INIT;
    for (int r = 0; r < 3; r++) {
        hudi_sql_render_value(&b, &ctx, l->value, r);
        hudi_buf_putc(&b, ' ');
    }
    cr_expect_str_eq(b.data, "[1,2] [null] NULL ");
    hudi_buf_clear(&b);
    hudi_sql_render_value(&b, &ctx, nested_map()->value, 0);
    cr_expect_str_eq(b.data, "{\"a\":2,\"b\":1}");
    hudi_buf_clear(&b);
    hudi_sql_render_value(&b, &ctx, nested_struct()->value, 0);
    cr_expect_str_eq(b.data, "{\"a\":1.0,\"b\":\"x\"}");
    hudi_buf_dispose(&b);
    /* CAST(... AS STRING) writes Spark's cast text instead */
    CAST_EXPECT(nested_map(), T(HUDI_TYPE_STRING), "{b -> 1, a -> 2}");
    CAST_EXPECT(nested_struct(), T(HUDI_TYPE_STRING), "{1.0, x}");
    cr_expect_str_eq(run(CAST(nested_list(), T(HUDI_TYPE_STRING)), 1), "[1, 2]");
    /* array<int> -> array<string> casts element-wise */
    hudi_field ls = hudi_sql_prim(HUDI_TYPE_LIST);
    ls.children = type_of(HUDI_TYPE_STRING);
    ls.n_children = 1;
    hudi_sql_bexpr *cl = CAST(nested_list(), ls);
    cr_expect_str_eq(TYPE(cl), "array<string>");
    cr_expect_str_eq(run(cl, 1), "[\"1\",\"2\"]");
}

/* ---- operators ----------------------------------------------------------------------------------
 */

Test(functions, comparisons_with_coercion) {
    EXPECT(C("=", 2, E_S("1.9"), E_I(1)), "true");
    EXPECT(C("=", 2, E_S("1"), E_DEC("1.0")), "true");
    EXPECT(C("=", 2, E_S("abc"), E_I(1)), "NULL");
    EXPECT(C("=", 2, E_S("true"), E_B(true)), "true");
    EXPECT(C("=", 2, E_S("2024-01-05"), E_DATE("2024-01-05")), "true");
    EXPECT(C("=", 2, E_DATE("2024-01-05"), E_TS("2024-01-05 00:00:00")), "true");
    EXPECT(C("=", 2, E_D(1), E_D(NAN)), "false");
    EXPECT(C("=", 2, E_D(NAN), E_D(NAN)), "true");
    EXPECT(C(">", 2, E_D(NAN), E_D(INFINITY)), "true");
    EXPECT(C("<=>", 2, E_NULL(), E_NULL()), "true");
    EXPECT(C("<=>", 2, E_I(1), E_NULL()), "false");
    EXPECT(C("=", 2, E_I(1), E_NULL()), "NULL");
    EXPECT(C("<>", 2, E_S("a"), E_S("b")), "true");
    EXPECT(C("<", 2, E_S("a"), E_S("ab")), "true");
    EXPECT(C(">=", 2, E_DEC("1.50"), E_DEC("1.5")), "true");
    EXPECT(C("<=", 2, E_L(5), E_I(4)), "false");
    cr_expect_str_eq(TYPE(C("=", 2, E_S("1"), E_DEC("1.0"))->args[0]), "double");
    cr_expect_str_eq(TYPE(C("=", 2, E_S("1"), E_I(1))->args[0]), "int");
    cr_expect_str_eq(TYPE(C("=", 2, E_DATE("2024-01-01"), E_TS("2024-01-01"))->args[0]),
                     "timestamp");
}

Test(functions, arithmetic) {
    EXPECT(C("+", 2, E_S("1"), E_I(1)), "2.0");
    EXPECT(C("+", 2, E_S("1.5"), E_I(1)), "2.5");
    EXPECT(C("+", 2, E_I(1), E_DEC("1.5")), "2.5");
    EXPECT(C("/", 2, E_I(1), E_I(2)), "0.5");
    EXPECT(C("/", 2, E_I(7), E_I(0)), "NULL");
    EXPECT(C("/", 2, E_D(1), E_D(0)), "NULL");
    EXPECT(C("div", 2, E_I(7), E_I(2)), "3");
    EXPECT(C("div", 2, E_I(-7), E_I(2)), "-3");
    EXPECT(C("div", 2, E_I(7), E_I(0)), "NULL");
    EXPECT(C("div", 2, E_DEC("-7.5"), E_I(2)), "-3");
    EXPECT(C("%", 2, E_I(-7), E_I(3)), "-1");
    EXPECT(C("%", 2, E_I(7), E_I(-3)), "1");
    EXPECT(C("%", 2, E_DEC("-7.5"), E_I(2)), "-1.5");
    EXPECT(C("%", 2, E_I(7), E_I(0)), "NULL");
    EXPECT(C("pmod", 2, E_I(-7), E_I(3)), "2");
    EXPECT(C("mod", 2, E_I(-7), E_I(3)), "-1");
    EXPECT(C("+", 2, E_I(2147483647), E_I(1)), "-2147483648");
    EXPECT(C("+", 2, E_L(INT64_MAX), E_L(1)), "-9223372036854775808");
    EXPECT(C("negative", 1, E_I(INT32_MIN)), "-2147483648");
    EXPECT(C("-", 2, E_Y(-128), E_Y(1)), "127");
    EXPECT(C("*", 2, E_DEC("1.1"), E_DEC("2.25")), "2.475");
    EXPECT(C("/", 2, E_DECT("1", 38, 0), E_I(3)), "0.333333");
    EXPECT(C("/", 2, E_I(1), E_DEC("3.0")), "0.333333");
    EXPECT(C("/", 2, E_DEC("1.0"), E_I(3)), "0.333333");
    EXPECT(C("/", 2, E_DEC("10.25"), E_DEC("0.5")), "20.500000");
    EXPECT(C("/", 2, E_DEC("2.00"), E_DEC("3")), "0.666667");
    EXPECT(C("/", 2, E_DEC("1.5"), E_DEC("0")), "NULL");
    EXPECT(C("*", 2, E_DECT("12345678901234567890", 20, 0), E_DECT("12345678901234567890", 20, 0)),
           "NULL");
    EXPECT(C("*", 2, E_DECT("1", 38, 0), E_DECT("1", 38, 10)), "1.000000");
    EXPECT(C("*", 2, E_DECT("100.5", 38, 18), E_DECT("2.5", 38, 18)), "251.250000");
    EXPECT(C("/", 2, E_DECT("1", 38, 10), E_DECT("3", 38, 10)), "0.333333");
    EXPECT(C("+", 2, E_DEC("1.5"), E_DEC("1.25")), "2.75");
    EXPECT(C("+", 2, E_DECT("99999999999999999999999999999999999999", 38, 0), E_I(1)), "NULL");
    EXPECT(C("-", 2, E_DEC("1.5"), E_DEC("0.75")), "0.75");
    EXPECT(C("+", 2, E_DATE("2024-01-01"), E_I(1)), "2024-01-02");
    EXPECT(C("-", 2, E_DATE("2024-01-01"), E_I(1)), "2023-12-31");
    EXPECT(C("+", 2, E_I(1), E_NULL()), "NULL");
    EXPECT(C("*", 2, E_D(1.5), E_F(2.0f)), "3.0");
    /* result types: Spark's */
    cr_expect_str_eq(TYPE(C("+", 2, E_I(1), E_L(1))), "bigint");
    cr_expect_str_eq(TYPE(C("+", 2, E_Y(1), E_Y(1))), "tinyint");
    cr_expect_str_eq(TYPE(C("+", 2, E_I(1), E_DEC("1.5"))), "decimal(3,1)");
    cr_expect_str_eq(TYPE(C("+", 2, E_L(1), E_DEC("1.5"))), "decimal(3,1)");
    cr_expect_str_eq(TYPE(C("*", 2, E_DEC("1.5"), E_DEC("2.25"))), "decimal(6,3)");
    cr_expect_str_eq(TYPE(C("/", 2, E_DEC("1.5"), E_DEC("2.25"))), "decimal(9,6)");
    cr_expect_str_eq(TYPE(C("/", 2, E_I(1), E_I(2))), "double");
    cr_expect_str_eq(TYPE(C("div", 2, E_I(7), E_I(2))), "bigint");
    cr_expect_str_eq(TYPE(C("div", 2, E_DEC("7.5"), E_I(2))), "bigint");
    cr_expect_str_eq(TYPE(C("%", 2, E_I(7), E_L(2))), "bigint");
    cr_expect_str_eq(TYPE(C("%", 2, E_DEC("7.5"), E_I(2))), "decimal(2,1)");
    cr_expect_str_eq(TYPE(C("%", 2, E_DECT("1", 10, 2), E_DECT("3", 5, 4))), "decimal(5,4)");
    cr_expect_str_eq(TYPE(C("+", 2, E_I(1), E_F(1))), "float");
    cr_expect_str_eq(TYPE(C("+", 2, E_DEC("1.5"), E_F(1))), "double");
    cr_expect_str_eq(TYPE(C("+", 2, E_S("1"), E_I(1))), "double");
    cr_expect_str_eq(TYPE(C("+", 2, E_DATE("2024-01-01"), E_I(1))), "date");
    cr_expect_str_eq(TYPE(C("negative", 1, E_Y(1))), "tinyint");
    cr_expect_str_eq(TYPE(C("*", 2, E_DECT("1", 38, 0), E_DECT("1", 38, 10))), "decimal(38,6)");
    cr_expect_str_eq(TYPE(C("+", 2, E_I(1), E_DECT("1", 10, 2))), "decimal(11,2)");
    cr_expect_str_eq(TYPE(C("*", 2, E_I(100000), E_DECT("1", 10, 2))), "decimal(17,2)");
    /* a constant that is not a literal as written (a folded CAST(1 AS INT)) counts as an int */
    hudi_sql_bexpr *folded = E_I(1);
    folded->text = "CAST(1 AS INT)";
    cr_expect_str_eq(TYPE(C("*", 2, folded, E_DECT("1", 10, 2))), "decimal(21,2)");
    hudi_sql_bexpr *lit = E_L(-12);
    lit->text = "-12L";
    cr_expect_str_eq(TYPE(C("*", 2, lit, E_DECT("1", 10, 2))), "decimal(13,2)");
}

Test(functions, bitwise) {
    EXPECT(C("&", 2, E_I(3), E_I(5)), "1");
    EXPECT(C("|", 2, E_I(3), E_I(5)), "7");
    EXPECT(C("^", 2, E_I(3), E_I(5)), "6");
    EXPECT(C("~", 1, E_I(5)), "-6");
    EXPECT(C("shiftleft", 2, E_I(1), E_I(33)), "2");
    EXPECT(C("shiftright", 2, E_I(-8), E_I(1)), "-4");
    EXPECT(C("shiftrightunsigned", 2, E_I(-8), E_I(1)), "2147483644");
    EXPECT(C("<<", 2, E_I(1), E_I(3)), "8");
    EXPECT(C("&", 2, E_I(3), E_NULL()), "NULL");
    cr_expect_str_eq(TYPE(C("&", 2, E_I(1), E_L(2))), "bigint");
}

Test(functions, logic_three_valued) {
    hudi_sql_bexpr *n = E_NULLT(HUDI_TYPE_BOOL), *t = E_B(true), *f = E_B(false);
    EXPECT(C("and", 2, n, f), "false");
    EXPECT(C("and", 2, f, n), "false");
    EXPECT(C("and", 2, n, t), "NULL");
    EXPECT(C("and", 2, t, t), "true");
    EXPECT(C("or", 2, n, t), "true");
    EXPECT(C("or", 2, n, f), "NULL");
    EXPECT(C("or", 2, f, f), "false");
    EXPECT(C("not", 1, n), "NULL");
    EXPECT(C("not", 1, f), "true");
    EXPECT(C("and", 2, E_NULL(), f), "false");
    EXPECT(C("is_true", 1, t), "true");
    EXPECT(C("is_true", 1, n), "false");
    EXPECT(C("is_not_false", 1, n), "true");
    EXPECT(C("is_false", 1, f), "true");
    EXPECT(C("is_not_true", 1, t), "false");
    EXPECT(C("is_null", 1, E_I(1)), "false");
    EXPECT(C("is_null", 1, E_NULL()), "true");
    EXPECT(C("isnotnull", 1, E_S("")), "true");
}

Test(functions, in_between_like) {
    EXPECT(C("in", 3, E_I(1), E_I(1), E_I(2)), "true");
    EXPECT(C("in", 3, E_I(3), E_I(1), E_NULL()), "NULL");
    EXPECT(C("in", 3, E_I(1), E_I(1), E_NULL()), "true");
    EXPECT(C("in", 2, E_NULL(), E_I(1)), "NULL");
    EXPECT(C("in", 3, E_I(3), E_I(1), E_I(2)), "false");
    EXPECT(C("in", 3, E_S("1"), E_I(1), E_I(2)), "true");
    EXPECT(C("in", 3, E_D(NAN), E_D(1), E_D(NAN)), "true");
    EXPECT(C("between", 3, E_I(1), E_I(0), E_I(2)), "true");
    EXPECT(C("between", 3, E_I(3), E_I(0), E_I(2)), "false");
    EXPECT(C("between", 3, E_I(3), E_NULL(), E_I(2)), "false");
    EXPECT(C("between", 3, E_I(1), E_NULL(), E_I(2)), "NULL");
    EXPECT(C("between", 3, E_S("b"), E_S("a"), E_S("c")), "true");
    EXPECT(C("like", 2, E_S("abc"), E_S("a%")), "true");
    EXPECT(C("like", 2, E_S("abc"), E_S("A%")), "false");
    EXPECT(C("like", 2, E_S("abc"), E_S("%b%")), "true");
    EXPECT(C("like", 2, E_S("a\nb"), E_S("a_b")), "true");
    EXPECT(C("like", 2, E_S("héllo"), E_S("h_llo")), "true");
    EXPECT(C("like", 2, E_S("a_c"), E_S("a\\_c")), "true");
    EXPECT(C("like", 2, E_S("abc"), E_S("a\\_c")), "false");
    EXPECT(C("like", 3, E_S("a%c"), E_S("a!%c"), E_S("!")), "true");
    EXPECT(C("like", 3, E_S("abc"), E_S("a!%c"), E_S("!")), "false");
    EXPECT(C("like", 2, E_S("aaa"), E_S("%a%a%a%")), "true");
    EXPECT(C("like", 2, E_S("aa"), E_S("%a%a%a%")), "false");
    EXPECT(C("like", 2, E_S(""), E_S("%")), "true");
    EXPECT(C("like", 2, E_NULLT(HUDI_TYPE_STRING), E_S("%")), "NULL");
    EXPECT(C("ilike", 2, E_S("abc"), E_S("A%")), "true");
    EXPECT(C("ilike", 2, E_S("ÉTÉ"), E_S("été")), "true");
    EXPECT(C("rlike", 2, E_S("abc"), E_S("b")), "true");
    EXPECT(C("rlike", 2, E_S("abc"), E_S("^b")), "false");
    EXPECT(C("regexp", 2, E_S("a1"), E_S("\\d")), "true");
    cr_expect_str_eq(bind_error("like", 3, E_S("a"), E_S("a"), E_S("ab")),
                     "line 1, column 1: like: the escape must be a one-character constant");
}

Test(functions, conditionals) {
    EXPECT(C("case", 3, C("=", 2, E_I(1), E_I(1)), E_S("a"), E_I(1)), "a");
    EXPECT(C("case", 3, E_NULLT(HUDI_TYPE_BOOL), E_I(1), E_I(2)), "2");
    EXPECT(C("case", 2, E_B(false), E_I(1)), "NULL");
    EXPECT(C("case", 4, E_B(false), E_I(1), E_B(true), E_I(2)), "2");
    EXPECT(C("simple_case", 5, E_I(1), E_I(1), E_S("one"), E_I(2), E_S("two")), "one");
    EXPECT(C("simple_case", 4, E_I(3), E_I(1), E_S("one"), E_S("other")), "other");
    EXPECT(C("simple_case", 3, E_NULL(), E_I(1), E_S("one")), "NULL");
    EXPECT(C("coalesce", 3, E_NULL(), E_I(1), E_DEC("2.5")), "1.0");
    EXPECT(C("coalesce", 3, E_NULL(), E_S("a"), E_I(1)), "a");
    EXPECT(C("coalesce", 2, E_NULL(), E_NULL()), "NULL");
    EXPECT(C("if", 3, C(">", 2, E_I(1), E_I(2)), E_S("a"), E_S("b")), "b");
    EXPECT(C("if", 3, E_NULL(), E_I(1), E_I(2)), "2");
    EXPECT(C("nvl", 2, E_NULL(), E_I(3)), "3");
    EXPECT(C("ifnull", 2, E_I(1), E_I(3)), "1");
    EXPECT(C("nullif", 2, E_I(1), E_I(1)), "NULL");
    EXPECT(C("nullif", 2, E_I(1), E_I(2)), "1");
    EXPECT(C("nvl2", 3, E_NULL(), E_I(1), E_I(2)), "2");
    EXPECT(C("nvl2", 3, E_I(0), E_I(1), E_I(2)), "1");
    cr_expect_str_eq(TYPE(C("coalesce", 2, E_I(1), E_L(1))), "bigint");
    cr_expect_str_eq(TYPE(C("coalesce", 2, E_I(1), E_DEC("1.5"))), "decimal(11,1)");
    cr_expect_str_eq(TYPE(C("coalesce", 2, E_L(1), E_DEC("1.5"))), "decimal(21,1)");
    cr_expect_str_eq(TYPE(C("coalesce", 2, E_DATE("2024-01-01"), E_S("x"))), "string");
    cr_expect_str_eq(TYPE(C("case", 3, E_B(true), E_S("a"), E_I(1))), "string");
    /* nested values go through */
    cr_expect_str_eq(run(C("coalesce", 2, E_NULL(), nested_struct()), 1),
                     "{\"a\":1.0,\"b\":\"x\"}");
    cr_expect_str_eq(run(C("if", 3, E_B(false), nested_list(), nested_list()), 1), "[1,2]");
}

Test(functions, columns_and_constants_mix) {
    static const hudi_type_id types[] = {HUDI_TYPE_INT32, HUDI_TYPE_STRING, HUDI_TYPE_BOOL};
    static const char *const rows[] = {"1,NULL,3,-4", "a,b,NULL,dd", "true,NULL,false,true"};
    make_batch(3, types, rows);
    cr_expect_str_eq(run(C("+", 2, E_COL(0), E_I(10)), 4), "11|NULL|13|6");
    cr_expect_str_eq(run(C("+", 2, E_I(10), E_COL(0)), 4), "11|NULL|13|6");
    cr_expect_str_eq(run(C("=", 2, E_COL(0), E_COL(0)), 4), "true|NULL|true|true");
    cr_expect_str_eq(run(C("upper", 1, E_COL(1)), 4), "A|B|NULL|DD");
    cr_expect_str_eq(run(C("concat", 2, E_COL(1), E_S("!")), 4), "a!|b!|NULL|dd!");
    cr_expect_str_eq(run(C("coalesce", 2, E_COL(1), E_S("-")), 4), "a|b|-|dd");
    cr_expect_str_eq(run(C("and", 2, E_COL(2), E_B(true)), 4), "true|NULL|false|true");
    cr_expect_str_eq(run(C("or", 2, E_COL(2), E_B(true)), 4), "true|true|true|true");
    cr_expect_str_eq(run(C("case", 3, E_COL(2), E_COL(0), E_I(0)), 4), "1|0|0|-4");
    cr_expect_str_eq(run(C("abs", 1, E_COL(0)), 4), "1|NULL|3|4");
    cr_expect_str_eq(run(C("length", 1, E_COL(1)), 4), "1|1|NULL|2");
    cr_expect_str_eq(run(C("in", 3, E_COL(0), E_I(3), E_I(-4)), 4), "false|NULL|true|true");
    cr_expect_str_eq(run(CAST(E_COL(0), T(HUDI_TYPE_STRING)), 4), "1|NULL|3|-4");
    cr_expect_str_eq(run(CAST(E_I(7), T(HUDI_TYPE_STRING)), 3), "7|7|7");
    cr_expect_str_eq(run(C("rlike", 2, E_COL(1), E_COL(1)), 4), "true|true|NULL|true");
    cr_expect_str_eq(run(C("split", 2, E_COL(1), E_S("b")), 4),
                     "[\"a\"]|[\"\",\"\"]|NULL|[\"dd\"]");
    cr_expect_str_eq(run(C("greatest", 2, E_COL(0), E_I(2)), 4), "2|2|3|2");
    cr_expect_str_eq(run(C("date_add", 2, E_S("2024-01-01"), E_COL(0)), 4),
                     "2024-01-02|NULL|2024-01-04|2023-12-28");
}

/* ---- string functions ---------------------------------------------------------------------------
 */

Test(functions, strings) {
    EXPECT(C("upper", 1, E_S("abcß")), "ABCSS");
    EXPECT(C("ucase", 1, E_S("été")), "ÉTÉ");
    EXPECT(C("lower", 1, E_S("ÀÉÎ SparkSQL")), "àéî sparksql");
    EXPECT(C("lower", 1, E_S("ΑΒΓ Жук")), "αβγ жук");
    EXPECT(C("upper", 1, E_I(12)), "12");
    EXPECT(C("upper", 1, E_NULL()), "NULL");
    EXPECT(C("initcap", 1, E_S("hello wORLD  foo")), "Hello World  Foo");
    EXPECT(C("length", 1, E_S("héllo ")), "6");
    EXPECT(C("char_length", 1, E_S("")), "0");
    EXPECT(C("length", 1, E_BIN("\x01\x02", 2)), "2");
    EXPECT(C("octet_length", 1, E_S("é")), "2");
    EXPECT(C("trim", 1, E_S("  a b  ")), "a b");
    EXPECT(C("ltrim", 1, E_S("  a ")), "a ");
    EXPECT(C("rtrim", 1, E_S("  a ")), "  a");
    EXPECT(C("btrim", 2, E_S("xxaxx"), E_S("x")), "a");
    EXPECT(C("substring", 3, E_S("Spark SQL"), E_I(5), E_I(1)), "k");
    EXPECT(C("substring", 2, E_S("Spark SQL"), E_I(-3)), "SQL");
    EXPECT(C("substring", 3, E_S("Spark SQL"), E_I(0), E_I(2)), "Sp");
    EXPECT(C("substring", 3, E_S("Spark SQL"), E_I(1), E_I(-1)), "");
    EXPECT(C("substring", 3, E_S("Spark SQL"), E_I(-20), E_I(22)), "Spark SQL");
    EXPECT(C("substr", 3, E_S("héllo"), E_I(2), E_I(3)), "éll");
    EXPECT(C("substring", 3, E_BIN("abcd", 4), E_I(2), E_I(2)), "bc");
    EXPECT(C("left", 2, E_S("Spark"), E_I(2)), "Sp");
    EXPECT(C("right", 2, E_S("Spark"), E_I(2)), "rk");
    EXPECT(C("right", 2, E_S("Spark"), E_I(0)), "");
    EXPECT(C("concat", 3, E_S("a"), E_I(1), E_NULL()), "NULL");
    EXPECT(C("concat", 3, E_S("a"), E_I(1), E_B(true)), "a1true");
    EXPECT(C("||", 2, E_I(1), E_I(2)), "12");
    EXPECT(C("||", 2, E_S("a"), E_NULL()), "NULL");
    EXPECT(C("concat_ws", 4, E_S(","), E_S("a"), E_NULLT(HUDI_TYPE_STRING), E_S("b")), "a,b");
    EXPECT(C("concat_ws", 2, E_NULLT(HUDI_TYPE_STRING), E_S("a")), "NULL");
    EXPECT(C("replace", 3, E_S("abcabc"), E_S("b"), E_S("X")), "aXcaXc");
    EXPECT(C("replace", 2, E_S("abcabc"), E_S("b")), "acac");
    EXPECT(C("replace", 3, E_S("abc"), E_S(""), E_S("X")), "abc");
    EXPECT(C("lpad", 3, E_S("hi"), E_I(5), E_S("ab")), "abahi");
    EXPECT(C("lpad", 3, E_S("hello"), E_I(3), E_S("x")), "hel");
    EXPECT(C("rpad", 2, E_S("hi"), E_I(5)), "hi   ");
    EXPECT(C("lpad", 3, E_S("hi"), E_I(5), E_S("")), "hi");
    EXPECT(C("rpad", 3, E_S("hi"), E_I(-1), E_S("x")), "");
    EXPECT(C("instr", 2, E_S("SparkSQL"), E_S("SQL")), "6");
    EXPECT(C("instr", 2, E_S("abc"), E_S("")), "1");
    EXPECT(C("instr", 2, E_S("héllo"), E_S("l")), "3");
    EXPECT(C("instr", 2, E_S("abc"), E_S("z")), "0");
    EXPECT(C("locate", 3, E_S("bar"), E_S("foobarbar"), E_I(5)), "7");
    EXPECT(C("locate", 3, E_S("bar"), E_S("foobarbar"), E_I(0)), "0");
    EXPECT(C("position", 2, E_S("bar"), E_S("foobarbar")), "4");
    EXPECT(C("reverse", 1, E_S("héllo")), "olléh");
    EXPECT(C("repeat", 2, E_S("ab"), E_I(3)), "ababab");
    EXPECT(C("repeat", 2, E_S("ab"), E_I(-1)), "");
    EXPECT(C("space", 1, E_I(2)), "  ");
    EXPECT(C("ascii", 1, E_S("A")), "65");
    EXPECT(C("ascii", 1, E_S("")), "0");
    EXPECT(C("chr", 1, E_I(65)), "A");
    EXPECT(C("chr", 1, E_I(321)), "A");
    EXPECT(C("chr", 1, E_I(-1)), "");
    EXPECT(C("startswith", 2, E_S("spark"), E_S("sp")), "true");
    EXPECT(C("endswith", 2, E_S("spark"), E_S("sp")), "false");
    EXPECT(C("contains", 2, E_S("spark"), E_S("ar")), "true");
}

Test(functions, regular_expressions) {
    EXPECT(C("regexp_extract", 3, E_S("100-200"), E_S("(\\d+)-(\\d+)"), E_I(1)), "100");
    EXPECT(C("regexp_extract", 3, E_S("100-200"), E_S("(\\d+)-(\\d+)"), E_I(0)), "100-200");
    EXPECT(C("regexp_extract", 2, E_S("100-200"), E_S("(\\d+)-(\\d+)")), "100");
    EXPECT(C("regexp_extract", 3, E_S("foo"), E_S("(\\d+)"), E_I(1)), "");
    EXPECT(C("regexp_extract", 3, E_S("a1"), E_S("(a)(b)?"), E_I(2)), "");
    EXPECT(C("regexp_extract", 3, E_S("a1"), E_S("(a)"), E_I(2)),
           "ERROR: regexp_extract: the regex has 1 groups, but group 2 was asked for");
    EXPECT(C("regexp_replace", 3, E_S("100-200"), E_S("(\\d+)"), E_S("num$1")), "num100-num200");
    EXPECT(C("regexp_replace", 3, E_S("abc"), E_S("x*"), E_S("-")), "-a-b-c-");
    EXPECT(C("regexp_replace", 3, E_S("aaa"), E_S("a*"), E_S("-")), "--");
    EXPECT(C("regexp_replace", 4, E_S("abcabc"), E_S("b"), E_S("X"), E_I(3)), "abcaXc");
    EXPECT(C("regexp_replace", 3, E_S("a.b"), E_S("\\."), E_S("\\$")), "a$b");
    EXPECT(C("regexp_replace", 3, E_S("héllo"), E_S("l"), E_S("L")), "héLLo");
    EXPECT(C("split", 2, E_S("oneAtwoBthreeC"), E_S("[ABC]")), "[\"one\",\"two\",\"three\",\"\"]");
    EXPECT(C("split", 3, E_S("a,b,c"), E_S(","), E_I(2)), "[\"a\",\"b,c\"]");
    EXPECT(C("split", 2, E_S("abc"), E_S("")), "[\"a\",\"b\",\"c\"]");
    EXPECT(C("split", 2, E_S(""), E_S(",")), "[\"\"]");
    EXPECT(C("split", 2, E_S("a,b,,"), E_S(",")), "[\"a\",\"b\",\"\",\"\"]");
    EXPECT(C("split", 2, E_NULLT(HUDI_TYPE_STRING), E_S(",")), "NULL");
    cr_expect_str_eq(TYPE(C("split", 2, E_S("a"), E_S(","))), "array<string>");
}

/* ---- date and time functions
 * ---------------------------------------------------------------------- */

Test(functions, datetime_formatting) {
    EXPECT(C("from_unixtime", 1, E_L(0)), "1970-01-01 00:00:00");
    EXPECT(C("from_unixtime", 1, E_I(0)), "1970-01-01 00:00:00");
    EXPECT(C("from_unixtime", 1, E_S("0")), "1970-01-01 00:00:00");
    EXPECT(C("from_unixtime", 2, E_L(0), E_S("yyyy/MM/dd HH:mm")), "1970/01/01 00:00");
    EXPECT(C("from_unixtime", 1, E_L(1695159649087LL)), "+55687-06-21 08:18:07");
    EXPECT(C("from_unixtime", 2, E_L(1700000000), E_S("EEE, d MMM yyyy hh:mm:ss a")),
           "Tue, 14 Nov 2023 10:13:20 PM");
    EXPECT(C("from_unixtime", 2, E_L(1700000000), E_S("EEEE MMMM D Q QQQ")),
           "Tuesday November 318 4 Q4");
    EXPECT(C("from_unixtime", 2, E_L(1700000000), E_S("yyyy-MM-dd'T'HH:mm:ss.SSSXXX")),
           "2023-11-14T22:13:20.000Z");
    EXPECT(C("from_unixtime", 2, E_L(1700000000), E_S("yy y yyy")), "23 2023 2023");
    EXPECT(C("from_unixtime", 2, E_L(0), E_S("''HH'' 'o''clock'")), "'00' o'clock");
    EXPECT(C("date_format", 2, E_TS("2024-01-05 10:00:00.123456"), E_S("yyyy-MM-dd HH:mm:ss.SSS")),
           "2024-01-05 10:00:00.123");
    EXPECT(C("date_format", 2, E_TS("2024-01-05 10:00:00.123456"), E_S("SSSSSS S")), "123456 1");
    EXPECT(C("date_format", 2, E_S("2016-04-08"), E_S("y")), "2016");
    EXPECT(C("date_format", 2, E_DATE("2016-04-08"), E_S("MMM dd")), "Apr 08");
    EXPECT(C("date_format", 2, E_TS("2024-01-05 10:00:00"), E_S("Z x X O")), "+0000 +00 Z GMT");
    EXPECT(C("date_format", 2, E_TS("2024-01-05 10:00:00"), E_NULLT(HUDI_TYPE_STRING)), "NULL");
    /* a pattern that is not constant is compiled per row */
    static const hudi_type_id types[] = {HUDI_TYPE_STRING};
    static const char *const rows[] = {"yyyy,MM,YYYY"};
    make_batch(1, types, rows);
    cr_expect_str_eq(run(C("date_format", 2, E_TS("2024-01-05 10:00:00"), E_COL(0)), 3),
                     "2024|01|NULL");
}

Test(functions, datetime_in_a_fixed_offset) {
    ctx.tz_offset_minutes = 480;
    ctx.tz_name = "+08:00";
    EXPECT(C("from_unixtime", 1, E_L(0)), "1970-01-01 08:00:00");
    EXPECT(C("unix_timestamp", 1, E_S("1970-01-01 08:00:00")), "0");
    EXPECT(C("hour", 1, E_TS("2024-01-05 02:00:00")), "10");
    EXPECT(C("to_date", 1, E_TS("2024-01-05 12:00:00")), "2024-01-05");
    EXPECT(C("to_date", 1, E_TS("2024-01-05 20:00:00")), "2024-01-06");
    EXPECT(C("date_format", 2, E_TS("2024-01-05 10:00:00"), E_S("Z x X O XXX z")),
           "+0800 +08 +08 GMT+8 +08:00 +08:00");
    EXPECT(C("date_trunc", 2, E_S("day"), E_TS("2024-01-04 17:00:00")), "2024-01-05 00:00:00");
    ctx.tz_offset_minutes = -480;
    EXPECT(C("from_unixtime", 1, E_L(0)), "1969-12-31 16:00:00");
}

Test(functions, datetime_parsing) {
    EXPECT(C("unix_timestamp", 1, E_S("2024-01-05 10:00:00")), "1704448800");
    EXPECT(C("unix_timestamp", 2, E_S("2024-01-05"), E_S("yyyy-MM-dd")), "1704412800");
    EXPECT(C("unix_timestamp", 1, E_S("garbage")), "NULL");
    EXPECT(C("unix_timestamp", 1, E_TS("2024-01-05 10:00:00")), "1704448800");
    EXPECT(C("unix_timestamp", 1, E_DATE("2024-01-05")), "1704412800");
    EXPECT(C("unix_timestamp", 0), "1764590400");
    EXPECT(C("to_unix_timestamp", 1, E_S("2024-01-05 10:00:00")), "1704448800");
    EXPECT(C("to_date", 1, E_S("2009-07-30 04:17:52")), "2009-07-30");
    EXPECT(C("to_date", 2, E_S("2016-12-31"), E_S("yyyy-MM-dd")), "2016-12-31");
    EXPECT(C("to_date", 2, E_S("12/31/2016"), E_S("MM/dd/yyyy")), "2016-12-31");
    EXPECT(C("to_date", 2, E_S("2016-13-31"), E_S("yyyy-MM-dd")), "NULL");
    EXPECT(C("to_date", 2, E_S("2016-12-31 extra"), E_S("yyyy-MM-dd")), "NULL");
    EXPECT(C("to_date", 2, E_S("Dec 5 16"), E_S("MMM d yy")), "2016-12-05");
    EXPECT(C("to_timestamp", 2, E_S("2016-12-31"), E_S("yyyy-MM-dd")), "2016-12-31 00:00:00");
    EXPECT(C("to_timestamp", 1, E_S("2016-12-31 10:11:12.5")), "2016-12-31 10:11:12.5");
    EXPECT(C("to_timestamp", 2, E_S("31.12.2016 23.59"), E_S("dd.MM.yyyy HH.mm")),
           "2016-12-31 23:59:00");
    EXPECT(C("to_timestamp", 2, E_S("2016-12-31 10:11"), E_S("yyyy-MM-dd HH:mm:ss")), "NULL");
    EXPECT(C("to_timestamp", 2, E_S("2016-12-31 10:11:12 PM"), E_S("yyyy-MM-dd hh:mm:ss a")),
           "2016-12-31 22:11:12");
    EXPECT(C("to_timestamp", 2, E_S("2016-12-31T10:11:12.25+01:00"),
             E_S("yyyy-MM-dd'T'HH:mm:ss.SSXXX")),
           "2016-12-31 09:11:12.25");
}

Test(functions, datetime_fields_and_arithmetic) {
    EXPECT(C("year", 1, E_S("2016-07-30")), "2016");
    EXPECT(C("month", 1, E_S("2016-07-30")), "7");
    EXPECT(C("day", 1, E_S("2009-07-30")), "30");
    EXPECT(C("dayofmonth", 1, E_S("2009-07-30")), "30");
    EXPECT(C("hour", 1, E_S("2009-07-30 12:58:59")), "12");
    EXPECT(C("minute", 1, E_S("2009-07-30 12:58:59")), "58");
    EXPECT(C("second", 1, E_S("2009-07-30 12:58:59")), "59");
    EXPECT(C("hour", 1, E_S("garbage")), "NULL");
    EXPECT(C("year", 1, E_TS("2024-12-31 23:30:00")), "2024");
    EXPECT(C("dayofweek", 1, E_S("2024-01-05")), "6");
    EXPECT(C("dayofyear", 1, E_S("2024-03-01")), "61");
    EXPECT(C("weekofyear", 1, E_S("2024-01-01")), "1");
    EXPECT(C("weekofyear", 1, E_S("2021-01-03")), "53");
    EXPECT(C("quarter", 1, E_S("2024-05-01")), "2");
    EXPECT(C("date_add", 2, E_S("2024-02-28"), E_I(2)), "2024-03-01");
    EXPECT(C("date_sub", 2, E_S("2024-03-01"), E_I(1)), "2024-02-29");
    EXPECT(C("datediff", 2, E_S("2024-03-01"), E_S("2024-02-01")), "29");
    EXPECT(C("add_months", 2, E_S("2024-01-31"), E_I(1)), "2024-02-29");
    EXPECT(C("add_months", 2, E_S("2024-03-31"), E_I(-1)), "2024-02-29");
    EXPECT(C("add_months", 2, E_S("2024-11-30"), E_I(14)), "2026-01-30");
    EXPECT(C("last_day", 1, E_S("2024-02-10")), "2024-02-29");
    EXPECT(C("trunc", 2, E_S("2024-05-17"), E_S("year")), "2024-01-01");
    EXPECT(C("trunc", 2, E_S("2024-05-17"), E_S("MM")), "2024-05-01");
    EXPECT(C("trunc", 2, E_S("2024-05-17"), E_S("week")), "2024-05-13");
    EXPECT(C("trunc", 2, E_S("2024-05-17"), E_S("quarter")), "2024-04-01");
    EXPECT(C("trunc", 2, E_S("2024-05-17"), E_S("Q")), "NULL");
    EXPECT(C("trunc", 2, E_S("2024-05-17"), E_S("day")), "NULL");
    EXPECT(C("date_trunc", 2, E_S("hour"), E_TS("2024-05-17 10:23:45.5")), "2024-05-17 10:00:00");
    EXPECT(C("date_trunc", 2, E_S("month"), E_TS("2024-05-17 10:23:45.5")), "2024-05-01 00:00:00");
    EXPECT(C("date_trunc", 2, E_S("week"), E_S("2024-05-17 10:23:45")), "2024-05-13 00:00:00");
    EXPECT(C("make_date", 3, E_I(2024), E_I(2), E_I(30)), "NULL");
    EXPECT(C("make_date", 3, E_I(2024), E_I(2), E_I(29)), "2024-02-29");
    EXPECT(C("current_date", 0), "2025-12-01");
    EXPECT(C("current_timestamp", 0), "2025-12-01 12:00:00");
    EXPECT(C("now", 0), "2025-12-01 12:00:00");
}

/* ---- math ---------------------------------------------------------------------------------------
 */

Test(functions, math) {
    EXPECT(C("round", 1, E_DEC("2.5")), "3");
    EXPECT(C("round", 1, E_DEC("-2.5")), "-3");
    EXPECT(C("round", 2, E_D(1.005), E_I(2)), "1.01");
    EXPECT(C("round", 1, E_D(2.5)), "3.0");
    EXPECT(C("round", 2, E_D(0.125), E_I(2)), "0.13");
    EXPECT(C("round", 2, E_D(-0.125), E_I(2)), "-0.13");
    EXPECT(C("round", 2, E_DEC("1234.5678"), E_I(-2)), "1200");
    EXPECT(C("round", 2, E_I(15), E_I(-1)), "20");
    EXPECT(C("round", 2, E_F(1.25f), E_I(1)), "1.3");
    EXPECT(C("round", 2, E_DEC("1.25"), E_I(5)), "1.25");
    EXPECT(C("bround", 1, E_DEC("2.5")), "2");
    EXPECT(C("bround", 1, E_D(2.5)), "2.0");
    EXPECT(C("floor", 1, E_DEC("-1.5")), "-2");
    EXPECT(C("ceil", 1, E_D(-1.5)), "-1");
    EXPECT(C("ceiling", 1, E_DEC("1.2")), "2");
    EXPECT(C("floor", 1, E_I(5)), "5");
    EXPECT(C("abs", 1, E_I(INT32_MIN)), "-2147483648");
    EXPECT(C("abs", 1, E_DEC("-1.5")), "1.5");
    EXPECT(C("abs", 1, E_D(-0.0)), "0.0");
    EXPECT(C("sqrt", 1, E_I(-1)), "NaN");
    EXPECT(C("sqrt", 1, E_I(4)), "2.0");
    EXPECT(C("ln", 1, E_I(0)), "NULL");
    EXPECT(C("log", 2, E_I(2), E_I(8)), "3.0");
    EXPECT(C("log10", 1, E_I(100)), "2.0");
    EXPECT(C("pow", 2, E_I(2), E_I(10)), "1024.0");
    EXPECT(C("power", 2, E_D(2), E_D(-1)), "0.5");
    EXPECT(C("exp", 1, E_I(0)), "1.0");
    EXPECT(C("sign", 1, E_DEC("-3.5")), "-1.0");
    EXPECT(C("signum", 1, E_I(0)), "0.0");
    EXPECT(C("pi", 0), "3.141592653589793");
    EXPECT(C("greatest", 3, E_I(1), E_NULL(), E_I(3)), "3");
    EXPECT(C("least", 2, E_S("b"), E_S("a")), "a");
    EXPECT(C("greatest", 2, E_NULL(), E_NULL()), "NULL");
    EXPECT(C("greatest", 2, E_D(1), E_D(NAN)), "NaN");
    EXPECT(C("pmod", 2, E_I(-7), E_I(3)), "2");
    cr_expect_str_eq(TYPE(C("abs", 1, E_DEC("-1.5"))), "decimal(2,1)");
    cr_expect_str_eq(TYPE(C("round", 2, E_DEC("1.25"), E_I(1))), "decimal(3,1)");
    cr_expect_str_eq(TYPE(C("round", 2, E_D(1.25), E_I(1))), "double");
    cr_expect_str_eq(TYPE(C("round", 2, E_I(5), E_I(-1))), "int");
    cr_expect_str_eq(TYPE(C("round", 2, E_DEC("1234.5678"), E_I(-2))), "decimal(5,0)");
    cr_expect_str_eq(TYPE(C("floor", 1, E_DEC("1.5"))), "decimal(2,0)");
    cr_expect_str_eq(TYPE(C("floor", 1, E_D(1.5))), "bigint");
    cr_expect_str_eq(TYPE(C("floor", 1, E_DECT("1.5", 10, 3))), "decimal(8,0)");
    cr_expect_str_eq(TYPE(C("sqrt", 1, E_I(4))), "double");
    cr_expect_str_eq(TYPE(C("mod", 2, E_I(7), E_I(2))), "int");
    cr_expect_str_eq(TYPE(C("greatest", 3, E_I(1), E_L(2), E_DEC("3.5"))), "decimal(21,1)");
    cr_expect_str_eq(TYPE(C("sign", 1, E_I(-5))), "double");
    cr_expect_str_eq(bind_error("round", 2, E_D(1), E_S("x")),
                     "line 1, column 1: round: the scale must be an integer constant");
}

/* ---- allocation failures -----------------------------------------------------------------------
 */

Test(functions, allocation_failures_leave_nothing_behind) {
    static const hudi_type_id types[] = {HUDI_TYPE_STRING, HUDI_TYPE_INT32};
    static const char *const rows[] = {"a-1,NULL,b-22,c", "1,2,NULL,4"};
    make_batch(2, types, rows);
    hudi_sql_bexpr *exprs[] = {
        C("upper", 1, E_COL(0)),
        C("initcap", 1, E_COL(0)),
        C("split", 2, E_COL(0), E_S("-")),
        C("regexp_replace", 3, E_COL(0), E_S("(\\d+)"), E_S("<$1>")),
        C("regexp_extract", 3, E_COL(0), E_COL(0), E_I(0)),
        C("concat_ws", 3, E_S(","), E_COL(0), E_COL(0)),
        CAST(E_COL(1), T(HUDI_TYPE_STRING)),
        CAST(C("split", 2, E_COL(0), E_S("-")), T(HUDI_TYPE_STRING)),
        C("coalesce", 2, C("split", 2, E_COL(0), E_S("-")), C("split", 2, E_S("x"), E_S("-"))),
        C("/", 2, E_DEC("1.5"), CAST(E_COL(1), hudi_sql_decimal(10, 0))),
        C("date_format", 2, E_TS("2024-01-05 10:00:00"), E_COL(0)),
        C("like", 2, E_COL(0), E_S("%-%")),
        C("ilike", 2, E_COL(0), E_S("%-%")),
    };
    for (size_t k = 0; k < HUDI_ARRAY_LEN(exprs); k++) {
        const char *want = run(exprs[k], 4);
        bool done = false;
        for (int fail_at = 1; fail_at < 400 && !done; fail_at++) {
            test_alloc_faults st = {fail_at, 0};
            hudi_allocator a = test_failing_allocator(&st);
            hudi_set_allocator(&a);
            hudi_sql_datum d;
            hudi_error err = HUDI_ERROR_INIT;
            int rc = exprs[k]->fn->eval ? eval(exprs[k], 4, &d, &err) : -1;
            hudi_set_allocator(NULL);
            if (rc == 0) {
                hudi_buf b = HUDI_BUF_INIT;
                for (int64_t i = 0; i < 4; i++) {
                    if (i) hudi_buf_putc(&b, '|');
                    hudi_sql_render_value(&b, &ctx, d.array, i);
                }
                cr_expect_str_eq(b.data, want, "expr %zu", k);
                hudi_buf_dispose(&b);
                hudi_array_free(d.array);
                done = st.count < fail_at;
            } else {
                cr_expect_eq(rc, HUDI_ENOMEM, "expr %zu, allocation %d: %s", k, fail_at,
                             err.message);
            }
        }
        cr_expect(done, "expr %zu never completed", k);
    }
}

/* ---- arrays, maps, structs
 * ------------------------------------------------------------------------ */

Test(functions, nested_values) {
    EXPECT(C("array", 2, E_I(1), E_I(2)), "[1,2]");
    EXPECT(C("array", 2, E_S("a"), E_NULL()), "[\"a\",null]");
    EXPECT(C("array", 0), "[]");
    cr_expect_str_eq(TYPE(C("array", 2, E_I(1), E_L(2))), "array<bigint>");
    cr_expect_str_eq(TYPE(C("array", 1, E_NULL())), "array<void>");
    EXPECT(C("map", 4, E_I(1), E_S("a"), E_I(2), E_S("b")), "{1:\"a\",2:\"b\"}");
    EXPECT(C("map", 4, E_S("b"), E_I(1), E_S("a"), E_I(2)), "{\"a\":2,\"b\":1}");
    EXPECT(C("map", 4, E_S("a"), E_I(1), E_S("a"), E_I(2)), "ERROR: map: duplicate map key");
    EXPECT(C("map", 2, E_NULL(), E_I(1)), "ERROR: map: a map key cannot be NULL");
    cr_expect_str_eq(TYPE(C("map", 2, E_S("k"), C("array", 2, E_I(1), E_NULL()))),
                     "map<string,array<int>>");
    EXPECT(C("map", 2, E_S("k"), C("array", 2, E_I(1), E_NULL())), "{\"k\":[1,null]}");
    EXPECT(C("named_struct", 4, E_S("a"), E_I(1), E_S("b"), E_S("x")), "{\"a\":1,\"b\":\"x\"}");
    cr_expect_str_eq(TYPE(C("named_struct", 4, E_S("a"), E_I(1), E_S("b"), E_S("x"))),
                     "struct<a:int,b:string>");
    EXPECT(C("named_struct", 4, E_S("a"), E_D(1), E_S("b"),
             C("array", 1, E_TS("2024-01-01 00:00:00"))),
           "{\"a\":1.0,\"b\":[2024-01-01 00:00:00]}");
    cr_expect_str_eq(TYPE(C("struct", 2, E_I(1), E_S("x"))), "struct<col1:int,col2:string>");
    EXPECT(CAST(C("named_struct", 4, E_S("a"), E_I(1), E_S("b"), E_S("x")), T(HUDI_TYPE_STRING)),
           "{1, x}");
    EXPECT(CAST(C("map", 4, E_I(1), E_S("a"), E_I(2), E_S("b")), T(HUDI_TYPE_STRING)),
           "{1 -> a, 2 -> b}");
    EXPECT(CAST(C("array", 2, E_S("a"), E_NULL()), T(HUDI_TYPE_STRING)), "[a, null]");
    hudi_sql_bexpr *arr = C("array", 3, E_I(10), E_I(20), E_I(30));
    EXPECT(C("element_at", 2, arr, E_I(1)), "10");
    EXPECT(C("element_at", 2, arr, E_I(-1)), "30");
    EXPECT(C("element_at", 2, arr, E_I(4)), "NULL");
    EXPECT(C("element_at", 2, arr, E_I(0)), "NULL");
    hudi_sql_bexpr *m = C("map", 4, E_S("a"), E_I(1), E_S("b"), E_NULL());
    EXPECT(C("element_at", 2, m, E_S("a")), "1");
    EXPECT(C("element_at", 2, m, E_S("b")), "NULL");
    EXPECT(C("element_at", 2, m, E_S("z")), "NULL");
    EXPECT(C("size", 1, arr), "3");
    EXPECT(C("cardinality", 1, m), "2");
    EXPECT(C("size", 1, E_NULL()), "-1");
    EXPECT(C("array_contains", 2, arr, E_I(20)), "true");
    EXPECT(C("array_contains", 2, arr, E_I(21)), "false");
    EXPECT(C("array_contains", 2, C("array", 2, E_I(1), E_NULL()), E_I(2)), "NULL");
    EXPECT(C("map_keys", 1, m), "[\"a\",\"b\"]");
    EXPECT(C("map_values", 1, m), "[1,null]");
    EXPECT(C("typeof", 1, E_DEC("1.5")), "decimal(2,1)");
    EXPECT(C("typeof", 1, E_NULL()), "void");
    EXPECT(C("concat_ws", 3, E_S(","), C("array", 2, E_S("x"), E_S("y")), E_S("z")), "x,y,z");
    /* several rows: constants and columns inside constructors */
    static const hudi_type_id types[] = {HUDI_TYPE_INT32};
    static const char *const rows[] = {"1,NULL,3"};
    make_batch(1, types, rows);
    cr_expect_str_eq(run(C("array", 2, E_COL(0), E_I(0)), 3), "[1,0]|[null,0]|[3,0]");
    cr_expect_str_eq(run(C("named_struct", 2, E_S("v"), E_COL(0)), 3),
                     "{\"v\":1}|{\"v\":null}|{\"v\":3}");
    cr_expect_str_eq(run(C("element_at", 2, C("array", 2, E_I(7), E_I(8)), E_COL(0)), 3),
                     "7|NULL|NULL");
    cr_expect_str_eq(
        run(C("if", 3, C("is_null", 1, E_COL(0)), C("array", 0), C("array", 1, E_COL(0))), 3),
        "[1]|[]|[3]");
}

Test(functions, like_shapes_over_rows) {
    static const hudi_type_id types[] = {HUDI_TYPE_STRING};
    static const char *const rows[] = {"abc,xabcx,ab,NULL,abcabc"};
    make_batch(1, types, rows);
    cr_expect_str_eq(run(C("like", 2, E_COL(0), E_S("abc")), 5), "true|false|false|NULL|false");
    cr_expect_str_eq(run(C("like", 2, E_COL(0), E_S("abc%")), 5), "true|false|false|NULL|true");
    cr_expect_str_eq(run(C("like", 2, E_COL(0), E_S("%abc")), 5), "true|false|false|NULL|true");
    cr_expect_str_eq(run(C("like", 2, E_COL(0), E_S("%bc%")), 5), "true|true|false|NULL|true");
    cr_expect_str_eq(run(C("like", 2, E_COL(0), E_S("%")), 5), "true|true|true|NULL|true");
    cr_expect_str_eq(run(C("like", 2, E_COL(0), E_S("%%")), 5), "true|true|true|NULL|true");
    cr_expect_str_eq(run(C("like", 2, E_COL(0), E_S("")), 5), "false|false|false|NULL|false");
    cr_expect_str_eq(run(C("like", 2, E_COL(0), E_S("a%c")), 5), "true|false|false|NULL|true");
    cr_expect_str_eq(run(C("like", 2, E_COL(0), E_COL(0)), 5), "true|true|true|NULL|true");
    cr_expect_str_eq(run(C("<", 2, E_COL(0), E_S("abc")), 5), "false|false|true|NULL|false");
    cr_expect_str_eq(run(C(">=", 2, E_COL(0), E_S("abc")), 5), "true|true|false|NULL|true");
}

/* ---- conversions, NaN, bytes and digests
 * ---------------------------------------------------------- */

Test(functions, conversions_and_digests) {
    EXPECT(C("int", 1, E_S("1.9")), "1");
    EXPECT(C("string", 1, E_D(1e7)), "1.0E7");
    EXPECT(C("double", 1, E_S("x")), "NULL");
    EXPECT(C("decimal", 1, E_S("12.5")), "13");
    EXPECT(C("boolean", 1, E_S("yes")), "true");
    EXPECT(C("timestamp", 1, E_S("2024-01-05 10:00")), "2024-01-05 10:00:00");
    EXPECT(C("date", 1, E_S("2024-01-05 10:00")), "2024-01-05");
    cr_expect_str_eq(TYPE(C("decimal", 1, E_I(1))), "decimal(10,0)");
    cr_expect_str_eq(bind_error("date", 1, E_I(1)),
                     "line 1, column 1: to_date: argument 1 requires date, not int");
    cr_expect_str_eq(bind_error("int", 1, E_DATE("2024-01-01")), "");
    cr_expect_str_eq(bind_error("binary", 1, E_D(1)),
                     "line 0, column 0: cannot cast double to binary");
    EXPECT(C("isnan", 1, E_D(NAN)), "true");
    EXPECT(C("isnan", 1, E_NULL()), "false");
    EXPECT(C("nanvl", 2, E_D(NAN), E_I(1)), "1.0");
    EXPECT(C("nanvl", 2, E_D(2), E_I(1)), "2.0");
    /* digests as Spark 3.5 prints them */
    EXPECT(C("md5", 1, E_S("Spark")), "8cde774d6f7333752ed72cacddb05126");
    EXPECT(C("md5", 1, E_S("")), "d41d8cd98f00b204e9800998ecf8427e");
    EXPECT(C("sha1", 1, E_S("Spark")), "85f5955f4b27a9a4c2aab6ffe5d7189fc298b92c");
    EXPECT(C("sha", 1, E_S("abc")), "a9993e364706816aba3e25717850c26c9cd0d89d");
    EXPECT(C("sha2", 2, E_S("Spark"), E_I(256)),
           "529bc3b07127ecb7e53a4dcf1991d9152c24537d919178022b2c42657f79a26b");
    EXPECT(C("sha2", 2, E_S("abc"), E_I(224)),
           "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7");
    EXPECT(C("sha2", 2, E_S("abc"), E_I(384)), "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8"
                                               "b605a43ff5bed8086072ba1e7cc2358baeca134c825a7");
    EXPECT(C("sha2", 2, E_S("abc"), E_I(512)),
           "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c2"
           "3a3feebbd454d4423643ce80e2a9ac94fa54ca49f");
    EXPECT(C("sha2", 2, E_S("abc"), E_I(100)), "NULL");
    EXPECT(C("sha2", 2, E_S("a somewhat longer message that needs two blocks of sixty-four bytes!"),
             E_I(256)),
           "0229c497acb15bc2b5c659a16babbaf1f771abb3a585f716f0c6c4a40e6d7430");
    EXPECT(C("crc32", 1, E_S("Spark")), "1557323817");
    EXPECT(C("hex", 1, E_I(17)), "11");
    EXPECT(C("hex", 1, E_L(-1)), "FFFFFFFFFFFFFFFF");
    EXPECT(C("hex", 1, E_S("Spark SQL")), "537061726B2053514C");
    EXPECT(CAST(C("unhex", 1, E_S("537061726B2053514C")), T(HUDI_TYPE_STRING)), "Spark SQL");
    EXPECT(C("unhex", 1, E_S("GG")), "NULL");
    EXPECT(C("hex", 1, C("unhex", 1, E_S("abc"))), "0ABC");
    EXPECT(C("base64", 1, E_S("Spark SQL")), "U3BhcmsgU1FM");
    EXPECT(CAST(C("unbase64", 1, E_S("U3BhcmsgU1FM")), T(HUDI_TYPE_STRING)), "Spark SQL");
}
