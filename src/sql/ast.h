/* ast.h - the syntax tree of hudic's SQL dialect (Spark SQL with Hudi's extensions and the
 * Flink DDL forms), as the parser builds it and before any name is resolved.
 *
 * Invariant: every node, list and string of a statement lives in the arena passed to the
 * parser, so a statement is freed with that arena. Names keep the case they were written in
 * (the binder folds them); string literals hold their decoded bytes. Positions are 1-based
 * line/column (columns count UTF-8 characters) and byte offsets into the parsed text. */
#ifndef HUDI_SQL_AST_H
#define HUDI_SQL_AST_H

#include "base/base.h"

/* A list of node pointers, grown inside the arena. */
typedef struct hudi_sql_list {
    void **items;
    uint32_t len, cap;
} hudi_sql_list;

#define HUDI_SQL_AT(list, type, i) ((type *)(list).items[i])

typedef struct hudi_sql_pos {
    uint32_t line, col; /* 1-based */
    uint32_t offset;    /* bytes from the start of the text */
} hudi_sql_pos;

/* A possibly qualified name: db.table, a.b.c, hudi.`/path`. Items are char *. */
typedef struct hudi_sql_name {
    hudi_sql_list parts;
    hudi_sql_pos pos;
} hudi_sql_name;

/* ---- types (spec: docs/SQL.md "Types") ------------------------------------------------ */

typedef enum hudi_sql_type_kind {
    HUDI_SQL_T_BOOLEAN,
    HUDI_SQL_T_TINYINT,
    HUDI_SQL_T_SMALLINT,
    HUDI_SQL_T_INT,
    HUDI_SQL_T_BIGINT,
    HUDI_SQL_T_FLOAT,
    HUDI_SQL_T_DOUBLE,
    HUDI_SQL_T_DECIMAL,
    HUDI_SQL_T_STRING,
    HUDI_SQL_T_CHAR,
    HUDI_SQL_T_VARCHAR,
    HUDI_SQL_T_BINARY,
    HUDI_SQL_T_DATE,
    HUDI_SQL_T_TIMESTAMP,
    HUDI_SQL_T_TIMESTAMP_NTZ,
    HUDI_SQL_T_TIMESTAMP_LTZ,
    HUDI_SQL_T_INTERVAL,
    HUDI_SQL_T_VOID,
    HUDI_SQL_T_ARRAY,
    HUDI_SQL_T_MAP,
    HUDI_SQL_T_STRUCT,
} hudi_sql_type_kind;

typedef struct hudi_sql_type hudi_sql_type;
struct hudi_sql_type {
    hudi_sql_type_kind kind;
    const char *spelling; /* the type name as written, e.g. "LONG", "ROW" */
    int precision;        /* -1 when not given: DECIMAL(p,s), CHAR(n), TIMESTAMP(p) */
    int scale;            /* -1 when not given */
    hudi_sql_type *elem;  /* ARRAY element, MAP key */
    hudi_sql_type *value; /* MAP value */
    hudi_sql_list fields; /* STRUCT: hudi_sql_coldef * */
    hudi_sql_pos pos;
};

/* ---- expressions ---------------------------------------------------------------------- */

typedef enum hudi_sql_lit_kind {
    HUDI_SQL_L_NULL,
    HUDI_SQL_L_BOOL,
    HUDI_SQL_L_INT,       /* 12: INT, else BIGINT, else DECIMAL by magnitude (binder) */
    HUDI_SQL_L_BIGINT,    /* 12L */
    HUDI_SQL_L_SMALLINT,  /* 12S */
    HUDI_SQL_L_TINYINT,   /* 12Y */
    HUDI_SQL_L_DECIMAL,   /* 1.5 */
    HUDI_SQL_L_BIGDEC,    /* 1.5BD, 12BD */
    HUDI_SQL_L_DOUBLE,    /* 1.5D, 1e3 */
    HUDI_SQL_L_FLOAT,     /* 1.5F */
    HUDI_SQL_L_STRING,    /* 'a' "a", adjacent literals concatenated */
    HUDI_SQL_L_BINARY,    /* X'0AFF' */
    HUDI_SQL_L_DATE,      /* DATE 'yyyy-mm-dd' (text unchecked) */
    HUDI_SQL_L_TIMESTAMP, /* TIMESTAMP '...' */
    HUDI_SQL_L_TIMESTAMP_NTZ,
    HUDI_SQL_L_TIMESTAMP_LTZ,
    HUDI_SQL_L_INTERVAL, /* INTERVAL '1' DAY ...: see interval */
} hudi_sql_lit_kind;

/* One part of an interval literal: INTERVAL '1-2' YEAR TO MONTH, INTERVAL 3 HOURS. */
typedef struct hudi_sql_interval_part {
    const char *value; /* the number or string as written (string decoded) */
    bool quoted;
    const char *unit;    /* lower-case: year, month, day, hour, ... (plural folded) */
    const char *to_unit; /* NULL unless "TO unit" */
} hudi_sql_interval_part;

typedef enum hudi_sql_expr_kind {
    HUDI_SQL_E_LITERAL,
    HUDI_SQL_E_COLUMN,      /* name: a, t.a, db.t.a, a.field (resolved later) */
    HUDI_SQL_E_STAR,        /* * or t.*: name holds the qualifier (may be empty) */
    HUDI_SQL_E_UNARY,       /* op, left */
    HUDI_SQL_E_BINARY,      /* op, left, right */
    HUDI_SQL_E_IS,          /* left IS [NOT] NULL|TRUE|FALSE|UNKNOWN: op, negated */
    HUDI_SQL_E_IS_DISTINCT, /* left IS [NOT] DISTINCT FROM right */
    HUDI_SQL_E_IN_LIST,     /* left [NOT] IN (args) */
    HUDI_SQL_E_IN_QUERY,    /* left [NOT] IN (query) */
    HUDI_SQL_E_EXISTS,      /* EXISTS (query) */
    HUDI_SQL_E_BETWEEN,     /* left [NOT] BETWEEN args[0] AND args[1] */
    HUDI_SQL_E_LIKE,        /* left [NOT] LIKE|ILIKE|RLIKE right [ESCAPE escape]: op */
    HUDI_SQL_E_CASE,        /* CASE [left] WHEN args[2i] THEN args[2i+1] ... [ELSE right] END */
    HUDI_SQL_E_CAST,        /* CAST(left AS type); op = TRY for TRY_CAST */
    HUDI_SQL_E_FUNC,        /* name(args) [DISTINCT] [FILTER (WHERE filter)] [OVER window] */
    HUDI_SQL_E_FIELD,       /* left.field, on anything that is not a plain name */
    HUDI_SQL_E_SUBSCRIPT,   /* left[right] */
    HUDI_SQL_E_SUBQUERY,    /* (query) as a scalar */
    HUDI_SQL_E_ROW,         /* (a, b, ...) */
    HUDI_SQL_E_ALIAS,       /* left AS field: only inside function arguments, struct(1 AS a) */
    HUDI_SQL_E_NAMED_ARG,   /* field => left: CALL arguments */
} hudi_sql_expr_kind;

typedef enum hudi_sql_op {
    HUDI_SQL_OP_NONE,
    /* unary */
    HUDI_SQL_OP_NEG,
    HUDI_SQL_OP_PLUS,
    HUDI_SQL_OP_BITNOT,
    HUDI_SQL_OP_NOT,
    /* binary, by precedence (lowest first) */
    HUDI_SQL_OP_OR,
    HUDI_SQL_OP_AND,
    HUDI_SQL_OP_EQ, /* = and == */
    HUDI_SQL_OP_NE, /* <> and != */
    HUDI_SQL_OP_LT,
    HUDI_SQL_OP_LE,
    HUDI_SQL_OP_GT,
    HUDI_SQL_OP_GE,
    HUDI_SQL_OP_NULLSAFE_EQ, /* <=> */
    HUDI_SQL_OP_BITOR,
    HUDI_SQL_OP_BITXOR,
    HUDI_SQL_OP_BITAND,
    HUDI_SQL_OP_SHL,
    HUDI_SQL_OP_SHR,
    HUDI_SQL_OP_USHR,
    HUDI_SQL_OP_ADD,
    HUDI_SQL_OP_SUB,
    HUDI_SQL_OP_CONCAT, /* || */
    HUDI_SQL_OP_MUL,
    HUDI_SQL_OP_DIV,
    HUDI_SQL_OP_MOD,
    HUDI_SQL_OP_IDIV, /* DIV */
    /* IS */
    HUDI_SQL_OP_IS_NULL,
    HUDI_SQL_OP_IS_TRUE,
    HUDI_SQL_OP_IS_FALSE,
    HUDI_SQL_OP_IS_UNKNOWN,
    /* LIKE family */
    HUDI_SQL_OP_LIKE,
    HUDI_SQL_OP_ILIKE,
    HUDI_SQL_OP_RLIKE, /* RLIKE and REGEXP */
    /* CAST */
    HUDI_SQL_OP_TRY,
} hudi_sql_op;

typedef struct hudi_sql_expr hudi_sql_expr;
typedef struct hudi_sql_query hudi_sql_query;
typedef struct hudi_sql_window hudi_sql_window;

struct hudi_sql_expr {
    hudi_sql_expr_kind kind;
    hudi_sql_op op;
    bool negated;  /* NOT IN, NOT BETWEEN, NOT LIKE, IS NOT ... */
    bool distinct; /* count(DISTINCT x) */
    hudi_sql_pos pos;
    /* literal */
    hudi_sql_lit_kind lit;
    const char *text; /* number digits as written (with a leading '-' when negative, no
                       * suffix), string/binary bytes (len in text_len), bool "true"/"false" */
    size_t text_len;
    hudi_sql_list interval; /* hudi_sql_interval_part * */
    /* names */
    hudi_sql_name name; /* column, star qualifier, function name */
    const char *field;  /* E_FIELD, E_ALIAS, E_NAMED_ARG */
    hudi_sql_expr *left, *right, *escape, *filter;
    hudi_sql_list args; /* hudi_sql_expr * */
    hudi_sql_type *type;
    hudi_sql_query *query;
    hudi_sql_window *over;
};

typedef struct hudi_sql_order_item {
    hudi_sql_expr *expr;
    bool desc;
    int nulls; /* 0 default, 1 NULLS FIRST, 2 NULLS LAST */
} hudi_sql_order_item;

struct hudi_sql_window {
    hudi_sql_list partition_by; /* hudi_sql_expr * */
    hudi_sql_list order_by;     /* hudi_sql_order_item * */
};

/* ---- queries -------------------------------------------------------------------------- */

/* A hint: /\*+ NAME(args) *\/ after SELECT, or Flink's OPTIONS('k'='v') after a table. */
typedef struct hudi_sql_hint {
    const char *name;
    hudi_sql_list args;  /* hudi_sql_expr * */
    hudi_sql_list props; /* OPTIONS: hudi_sql_prop * */
    hudi_sql_pos pos;
} hudi_sql_hint;

/* key [=] value, in OPTIONS, TBLPROPERTIES, WITH, DBPROPERTIES and hints. */
typedef struct hudi_sql_prop {
    const char *key;      /* quoted keys decoded, dotted keys joined with '.' */
    hudi_sql_expr *value; /* a literal; NULL for UNSET TBLPROPERTIES keys */
    hudi_sql_pos pos;
} hudi_sql_prop;

typedef enum hudi_sql_rel_kind {
    HUDI_SQL_R_TABLE,    /* name [time travel] [hints] [alias] */
    HUDI_SQL_R_SUBQUERY, /* (query) [alias [(columns)]] */
    HUDI_SQL_R_FUNC,     /* name(args) [alias]: hudi_table_changes(...) */
    HUDI_SQL_R_JOIN,     /* left join right [ON on | USING (using)] */
} hudi_sql_rel_kind;

typedef enum hudi_sql_join_kind {
    HUDI_SQL_J_INNER,
    HUDI_SQL_J_LEFT,
    HUDI_SQL_J_RIGHT,
    HUDI_SQL_J_FULL,
    HUDI_SQL_J_CROSS, /* also the comma between FROM items */
    HUDI_SQL_J_SEMI,
    HUDI_SQL_J_ANTI,
} hudi_sql_join_kind;

typedef enum hudi_sql_travel_kind {
    HUDI_SQL_TRAVEL_NONE,
    HUDI_SQL_TRAVEL_TIMESTAMP, /* TIMESTAMP AS OF, FOR SYSTEM_TIME AS OF */
    HUDI_SQL_TRAVEL_VERSION,   /* VERSION AS OF, FOR SYSTEM_VERSION AS OF */
} hudi_sql_travel_kind;

typedef struct hudi_sql_rel hudi_sql_rel;
struct hudi_sql_rel {
    hudi_sql_rel_kind kind;
    hudi_sql_pos pos;
    hudi_sql_name name;    /* TABLE, FUNC */
    hudi_sql_list args;    /* FUNC: hudi_sql_expr * */
    hudi_sql_query *query; /* SUBQUERY */
    hudi_sql_travel_kind travel;
    hudi_sql_expr *as_of;
    hudi_sql_list hints;   /* hudi_sql_hint * */
    const char *alias;     /* NULL when none */
    hudi_sql_list columns; /* column aliases: char * */
    hudi_sql_join_kind join;
    bool natural;
    hudi_sql_rel *left, *right;
    hudi_sql_expr *on;
    hudi_sql_list using_cols; /* char * */
};

typedef struct hudi_sql_select_item {
    hudi_sql_expr *expr; /* E_STAR for * and t.* */
    const char *alias;   /* NULL when none */
} hudi_sql_select_item;

typedef struct hudi_sql_cte {
    const char *name;
    hudi_sql_list columns; /* char * */
    hudi_sql_query *query;
} hudi_sql_cte;

typedef enum hudi_sql_query_kind {
    HUDI_SQL_Q_SELECT,
    HUDI_SQL_Q_VALUES,
    HUDI_SQL_Q_SETOP,
    HUDI_SQL_Q_TABLE, /* TABLE name */
} hudi_sql_query_kind;

typedef enum hudi_sql_setop {
    HUDI_SQL_SET_UNION,
    HUDI_SQL_SET_INTERSECT,
    HUDI_SQL_SET_EXCEPT,
} hudi_sql_setop;

struct hudi_sql_query {
    hudi_sql_query_kind kind;
    hudi_sql_pos pos;
    hudi_sql_list ctes; /* hudi_sql_cte * */
    /* SELECT */
    hudi_sql_list hints; /* hudi_sql_hint * */
    bool distinct;
    hudi_sql_list items; /* hudi_sql_select_item * */
    hudi_sql_rel *from;  /* NULL without FROM; several FROM items are CROSS joins */
    hudi_sql_expr *where;
    hudi_sql_list group_by; /* hudi_sql_expr * */
    hudi_sql_expr *having;
    /* VALUES: rows, each a hudi_sql_expr of kind E_ROW */
    hudi_sql_list rows;
    /* SETOP */
    hudi_sql_setop setop;
    bool all;
    hudi_sql_query *left, *right;
    /* TABLE name */
    hudi_sql_name table;
    /* applies to the whole query */
    hudi_sql_list order_by; /* hudi_sql_order_item * */
    hudi_sql_expr *limit;   /* NULL: none (LIMIT ALL too) */
    hudi_sql_expr *offset;
};

/* ---- statements ----------------------------------------------------------------------- */

/* A column in CREATE TABLE, ADD COLUMNS, or a STRUCT field. */
typedef struct hudi_sql_coldef {
    hudi_sql_name name; /* one part, except in ALTER TABLE ADD COLUMNS a.b.c */
    hudi_sql_type *type;
    bool not_null;
    bool primary_key; /* Flink: col TYPE PRIMARY KEY NOT ENFORCED */
    const char *comment;
    int position; /* ALTER: 0 none, 1 FIRST, 2 AFTER after */
    hudi_sql_name after;
    hudi_sql_list options; /* CREATE INDEX column OPTIONS (...): hudi_sql_prop * */
    hudi_sql_pos pos;
} hudi_sql_coldef;

/* PARTITION (k [= v], ...): value NULL for a dynamic column. */
typedef struct hudi_sql_part_kv {
    const char *name;
    hudi_sql_expr *value;
} hudi_sql_part_kv;

typedef hudi_sql_list hudi_sql_partspec; /* hudi_sql_part_kv * */

typedef enum hudi_sql_stmt_kind {
    HUDI_SQL_S_QUERY,
    HUDI_SQL_S_CREATE_TABLE,
    HUDI_SQL_S_DROP_TABLE,
    HUDI_SQL_S_TRUNCATE,
    HUDI_SQL_S_ALTER_TABLE,
    HUDI_SQL_S_SHOW,
    HUDI_SQL_S_DESCRIBE,
    HUDI_SQL_S_CREATE_INDEX,
    HUDI_SQL_S_DROP_INDEX,
    HUDI_SQL_S_REFRESH_INDEX,
    HUDI_SQL_S_REFRESH_TABLE,
    HUDI_SQL_S_CREATE_DATABASE,
    HUDI_SQL_S_DROP_DATABASE,
    HUDI_SQL_S_USE,
    HUDI_SQL_S_SET,
    HUDI_SQL_S_RESET,
    HUDI_SQL_S_INSERT,
    HUDI_SQL_S_UPDATE,
    HUDI_SQL_S_DELETE,
    HUDI_SQL_S_MERGE,
    HUDI_SQL_S_EXPLAIN,
    HUDI_SQL_S_CALL,
    HUDI_SQL_S_CREATE_CATALOG,
} hudi_sql_stmt_kind;

typedef enum hudi_sql_alter_kind {
    HUDI_SQL_A_RENAME,          /* RENAME TO new_name */
    HUDI_SQL_A_ADD_COLUMNS,     /* columns */
    HUDI_SQL_A_CHANGE_COLUMN,   /* column [new_column] [type] [comment] [position] [nullability] */
    HUDI_SQL_A_DROP_COLUMNS,    /* names */
    HUDI_SQL_A_RENAME_COLUMN,   /* column TO new_column */
    HUDI_SQL_A_SET_PROPS,       /* props */
    HUDI_SQL_A_UNSET_PROPS,     /* props (values NULL), if_exists */
    HUDI_SQL_A_SET_SERDE_PROPS, /* props */
    HUDI_SQL_A_DROP_PARTITION,  /* partitions, if_exists, purge */
    HUDI_SQL_A_ADD_PARTITION,   /* partitions, if_not_exists, location */
} hudi_sql_alter_kind;

typedef enum hudi_sql_show_kind {
    HUDI_SQL_SHOW_TABLES,        /* [db] [pattern] */
    HUDI_SQL_SHOW_DATABASES,     /* [pattern] */
    HUDI_SQL_SHOW_PARTITIONS,    /* table [partition] */
    HUDI_SQL_SHOW_TBLPROPERTIES, /* table [key] */
    HUDI_SQL_SHOW_COLUMNS,       /* table [db] */
    HUDI_SQL_SHOW_CREATE_TABLE,  /* table */
    HUDI_SQL_SHOW_INDEXES,       /* table */
    HUDI_SQL_SHOW_CURRENT_DATABASE,
    HUDI_SQL_SHOW_CATALOGS,
    HUDI_SQL_SHOW_FUNCTIONS, /* [pattern] */
} hudi_sql_show_kind;

typedef enum hudi_sql_merge_action {
    HUDI_SQL_M_UPDATE_STAR,
    HUDI_SQL_M_UPDATE, /* assignments */
    HUDI_SQL_M_DELETE,
    HUDI_SQL_M_INSERT_STAR,
    HUDI_SQL_M_INSERT, /* columns, values */
} hudi_sql_merge_action;

typedef enum hudi_sql_match_kind {
    HUDI_SQL_MATCHED,
    HUDI_SQL_NOT_MATCHED,           /* [BY TARGET] */
    HUDI_SQL_NOT_MATCHED_BY_SOURCE, /* Spark 3.4 syntax; Hudi refuses it */
} hudi_sql_match_kind;

/* target = value in UPDATE SET and MERGE ... UPDATE SET. */
typedef struct hudi_sql_assign {
    hudi_sql_name target; /* col or alias.col */
    hudi_sql_expr *value;
} hudi_sql_assign;

typedef struct hudi_sql_merge_clause {
    hudi_sql_match_kind match;
    hudi_sql_expr *cond; /* AND cond, or NULL */
    hudi_sql_merge_action action;
    hudi_sql_list assigns; /* hudi_sql_assign * */
    hudi_sql_list columns; /* INSERT (cols): char * */
    hudi_sql_list values;  /* INSERT VALUES: hudi_sql_expr * */
    hudi_sql_pos pos;
} hudi_sql_merge_clause;

typedef enum hudi_sql_set_kind {
    HUDI_SQL_SET_LIST,   /* SET */
    HUDI_SQL_SET_ALL,    /* SET -v */
    HUDI_SQL_SET_GET,    /* SET key */
    HUDI_SQL_SET_ASSIGN, /* SET key = value */
} hudi_sql_set_kind;

typedef struct hudi_sql_stmt hudi_sql_stmt;
struct hudi_sql_stmt {
    hudi_sql_stmt_kind kind;
    hudi_sql_pos pos; /* the first token */
    uint32_t src_end; /* offset just past the last token */
    /* common */
    hudi_sql_name name;  /* table, database, index, catalog or procedure */
    hudi_sql_name table; /* index statements: the table; SHOW COLUMNS/TABLES: db */
    bool if_exists, if_not_exists, purge, cascade, external, or_replace, overwrite;
    hudi_sql_query *query; /* QUERY, CTAS, INSERT source, DESCRIBE QUERY */
    hudi_sql_expr *where;
    const char *alias;
    const char *comment;
    const char *location;
    hudi_sql_list props; /* TBLPROPERTIES / DBPROPERTIES / CREATE CATALOG WITH / ALTER */
    /* CREATE TABLE */
    hudi_sql_list columns;     /* hudi_sql_coldef * */
    hudi_sql_list primary_key; /* table constraint PRIMARY KEY (cols) NOT ENFORCED: char * */
    const char *provider;      /* USING x, NULL when absent */
    const char *stored_as;
    hudi_sql_list options;        /* OPTIONS (...) */
    hudi_sql_list with;           /* Flink WITH (...) */
    hudi_sql_list partitioned_by; /* hudi_sql_coldef * (type NULL for a bare name) */
    /* ALTER TABLE */
    hudi_sql_alter_kind alter;
    hudi_sql_name new_name; /* RENAME TO, RENAME COLUMN TO, CHANGE COLUMN new name */
    hudi_sql_name column;   /* CHANGE/RENAME COLUMN target */
    hudi_sql_type *type;    /* CHANGE COLUMN type */
    int position;           /* 0, 1 FIRST, 2 AFTER `after` */
    hudi_sql_name after;
    int nullability;              /* 0, 1 SET NOT NULL, 2 DROP NOT NULL */
    hudi_sql_list names;          /* DROP COLUMNS: hudi_sql_name * */
    hudi_sql_list partitions;     /* DROP/ADD PARTITION: hudi_sql_partspec * */
    hudi_sql_partspec *partition; /* INSERT, TRUNCATE, SHOW PARTITIONS, DESCRIBE */
    /* SHOW / DESCRIBE */
    hudi_sql_show_kind show;
    const char *pattern; /* LIKE pattern; SHOW TBLPROPERTIES (key) */
    int describe;        /* 0 table, 1 query, 2 database */
    bool extended;
    hudi_sql_name describe_column;
    /* CREATE INDEX */
    const char *using_index;     /* USING index_type */
    hudi_sql_list index_columns; /* hudi_sql_coldef * (type NULL, options) */
    /* USE */
    bool catalog; /* USE CATALOG */
    /* SET / RESET */
    hudi_sql_set_kind set;
    const char *key;       /* NULL for SET and RESET without a key */
    const char *value;     /* quotes of a quoted value stripped (docs/SQL.md) */
    const char *value_raw; /* the value as written */
    /* INSERT */
    hudi_sql_list insert_columns; /* char * */
    hudi_sql_list hints;          /* table hints: hudi_sql_hint * */
    /* UPDATE */
    hudi_sql_list assigns; /* hudi_sql_assign * */
    /* MERGE */
    hudi_sql_rel *source;
    hudi_sql_expr *on;
    hudi_sql_list clauses; /* hudi_sql_merge_clause * */
    /* EXPLAIN */
    const char *explain_mode; /* NULL, "extended", "cost", "formatted", "codegen", "logical" */
    hudi_sql_stmt *inner;
    /* CALL */
    hudi_sql_list args; /* hudi_sql_expr * (E_NAMED_ARG for name => value) */
};

/* ---- printing ------------------------------------------------------------------------- */

/** Appends a deterministic S-expression rendering of `s` to `out` (no trailing newline).
 *  The format is stable: golden tests (tests/sql/parse) compare it byte for byte. */
void hudi_sql_ast_print(hudi_buf *out, const hudi_sql_stmt *s);

/** Appends the rendering of one expression, as hudi_sql_ast_print does inside statements. */
void hudi_sql_expr_print(hudi_buf *out, const hudi_sql_expr *e);

const char *hudi_sql_type_name(hudi_sql_type_kind kind);

#endif
