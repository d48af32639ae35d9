/* parse_stmt.c - statements: DDL (tables, databases, indexes, Flink catalogs), DML (INSERT,
 * UPDATE, DELETE, MERGE), SHOW/DESCRIBE, SET/RESET, EXPLAIN and CALL, plus the entry points
 * that walk a ';'-separated script. The grammar is documented in docs/SQL.md.
 *
 * Invariant: a statement either parses completely up to its ';' (or the end of the text) or
 * fails with the position of the first token that does not fit. */
#include "sql/parser_int.h"

#define KW(s) hudi_sql_accept_kw(p, s)
#define AT(s) hudi_sql_at_kw(p, 0, s)
#define EXPECT(s) hudi_sql_expect_kw(p, s)

static hudi_sql_stmt *new_stmt(P *p, hudi_sql_stmt_kind kind, hudi_sql_pos pos) {
    hudi_sql_stmt *s = hudi_sql_new(p, sizeof(*s));
    if (s) {
        s->kind = kind;
        s->pos = pos;
    }
    return s;
}

static bool if_exists(P *p) {
    if (!AT("IF") || !hudi_sql_at_kw(p, 1, "EXISTS")) return false;
    hudi_sql_advance(p);
    hudi_sql_advance(p);
    return true;
}

static bool if_not_exists(P *p) {
    if (!AT("IF")) return false;
    hudi_sql_advance(p);
    return EXPECT("NOT") && EXPECT("EXISTS");
}

static const char *string_arg(P *p) { return hudi_sql_string(p, NULL); }

/* PARTITION (k [= v], ...) with the PARTITION word already consumed. */
static hudi_sql_partspec *partition_spec(P *p, bool values_required) {
    hudi_sql_partspec *spec = hudi_sql_new(p, sizeof(*spec));
    if (!spec || !hudi_sql_expect_op(p, "(")) return NULL;
    do {
        hudi_sql_part_kv *kv = hudi_sql_new(p, sizeof(*kv));
        if (!kv || !(kv->name = hudi_sql_ident(p))) return NULL;
        if (hudi_sql_accept_op(p, "=")) {
            if (!(kv->value = hudi_sql_parse_literal(p))) return NULL;
        } else if (values_required) {
            return hudi_sql_expected(p, "'='");
        }
        if (!hudi_sql_push(p, spec, kv)) return NULL;
    } while (hudi_sql_accept_op(p, ","));
    return hudi_sql_expect_op(p, ")") ? spec : NULL;
}

/* name type [NOT NULL] [PRIMARY KEY NOT ENFORCED] [COMMENT 'c'] [FIRST | AFTER col] */
static hudi_sql_coldef *column_def(P *p, bool dotted, bool positions) {
    hudi_sql_coldef *c = hudi_sql_new(p, sizeof(*c));
    if (!c) return NULL;
    c->pos = hudi_sql_peek(p, 0)->pos;
    if (dotted) {
        if (!hudi_sql_qname(p, &c->name)) return NULL;
    } else if (!hudi_sql_push(p, &c->name.parts, (void *)hudi_sql_ident(p))) {
        return NULL;
    }
    if (!(c->type = hudi_sql_parse_type(p))) return NULL;
    for (;;) {
        if (AT("NOT") && hudi_sql_at_kw(p, 1, "NULL")) {
            hudi_sql_advance(p);
            hudi_sql_advance(p);
            c->not_null = true;
        } else if (KW("PRIMARY")) {
            if (!EXPECT("KEY") || !EXPECT("NOT") || !EXPECT("ENFORCED")) return NULL;
            c->primary_key = true;
        } else if (KW("COMMENT")) {
            if (!(c->comment = string_arg(p))) return NULL;
        } else if (positions && KW("FIRST")) {
            c->position = 1;
        } else if (positions && KW("AFTER")) {
            c->position = 2;
            if (!hudi_sql_qname(p, &c->after)) return NULL;
        } else {
            break;
        }
    }
    return p->failed ? NULL : c;
}

/* ---- CREATE TABLE --------------------------------------------------------------------- */

static bool table_element(P *p, hudi_sql_stmt *s) {
    if (AT("CONSTRAINT") || (AT("PRIMARY") && hudi_sql_at_kw(p, 1, "KEY"))) {
        if (KW("CONSTRAINT") && !hudi_sql_ident(p)) return false;
        if (!EXPECT("PRIMARY") || !EXPECT("KEY")) return false;
        if (s->primary_key.len)
            return hudi_sql_fail(p, hudi_sql_peek(p, 0), "duplicate PRIMARY KEY") != NULL;
        if (!hudi_sql_ident_list(p, &s->primary_key)) return false;
        return EXPECT("NOT") && EXPECT("ENFORCED");
    }
    if (AT("WATERMARK") && hudi_sql_at_kw(p, 1, "FOR"))
        return hudi_sql_fail(p, hudi_sql_peek(p, 0), "WATERMARK is not supported") != NULL;
    return hudi_sql_push(p, &s->columns, column_def(p, false, false));
}

/* A clause may appear once; `seen` tracks which by bit. */
static bool once(P *p, unsigned *seen, unsigned bit, const hudi_sql_token *t, const char *what) {
    if (*seen & bit) return hudi_sql_fail(p, t, "duplicate %s clause", what) != NULL;
    *seen |= bit;
    return true;
}

static hudi_sql_stmt *create_table(P *p, hudi_sql_stmt *s) {
    s->kind = HUDI_SQL_S_CREATE_TABLE;
    s->if_not_exists = if_not_exists(p);
    if (!hudi_sql_qname(p, &s->name)) return NULL;
    if (hudi_sql_at_op(p, 0, "(") && !hudi_sql_at_query_start(p, 1)) {
        hudi_sql_advance(p);
        do {
            if (!table_element(p, s)) return NULL;
        } while (hudi_sql_accept_op(p, ","));
        if (!hudi_sql_expect_op(p, ")")) return NULL;
    }
    unsigned seen = 0;
    for (;;) {
        hudi_sql_token t = *hudi_sql_peek(p, 0);
        if (KW("USING")) {
            if (!once(p, &seen, 1, &t, "USING") || !(s->provider = hudi_sql_ident(p))) return NULL;
        } else if (AT("OPTIONS") && hudi_sql_at_op(p, 1, "(")) {
            hudi_sql_advance(p);
            if (!once(p, &seen, 2, &t, "OPTIONS") || !hudi_sql_parse_props(p, &s->options, true))
                return NULL;
        } else if (KW("PARTITIONED")) {
            if (!once(p, &seen, 4, &t, "PARTITIONED BY") || !EXPECT("BY") ||
                !hudi_sql_expect_op(p, "("))
                return NULL;
            do {
                hudi_sql_coldef *c = hudi_sql_new(p, sizeof(*c));
                if (!c) return NULL;
                c->pos = hudi_sql_peek(p, 0)->pos;
                if (!hudi_sql_push(p, &c->name.parts, (void *)hudi_sql_ident(p))) return NULL;
                if (!hudi_sql_at_op(p, 0, ",") && !hudi_sql_at_op(p, 0, ")") &&
                    !(c->type = hudi_sql_parse_type(p)))
                    return NULL;
                if (!hudi_sql_push(p, &s->partitioned_by, c)) return NULL;
            } while (hudi_sql_accept_op(p, ","));
            if (!hudi_sql_expect_op(p, ")")) return NULL;
        } else if (KW("COMMENT")) {
            if (!once(p, &seen, 8, &t, "COMMENT") || !(s->comment = string_arg(p))) return NULL;
        } else if (KW("LOCATION")) {
            if (!once(p, &seen, 16, &t, "LOCATION") || !(s->location = string_arg(p))) return NULL;
        } else if (KW("TBLPROPERTIES")) {
            if (!once(p, &seen, 32, &t, "TBLPROPERTIES") ||
                !hudi_sql_parse_props(p, &s->props, true))
                return NULL;
        } else if (AT("WITH") && hudi_sql_at_op(p, 1, "(")) {
            hudi_sql_advance(p);
            if (!once(p, &seen, 64, &t, "WITH") || !hudi_sql_parse_props(p, &s->with, true))
                return NULL;
        } else if (KW("STORED")) {
            if (!once(p, &seen, 128, &t, "STORED AS") || !EXPECT("AS") ||
                !(s->stored_as = hudi_sql_ident(p)))
                return NULL;
        } else if (AT("ROW") && hudi_sql_at_kw(p, 1, "FORMAT")) {
            return hudi_sql_fail(p, &t, "ROW FORMAT is not supported");
        } else if (AT("CLUSTERED") || AT("SKEWED")) {
            return hudi_sql_fail(p, &t, "%.*s BY is not supported", (int)t.text_len, t.text);
        } else {
            break;
        }
    }
    if (KW("AS") && !(s->query = hudi_sql_parse_query(p))) return NULL;
    return p->failed ? NULL : s;
}

/* ---- ALTER TABLE ---------------------------------------------------------------------- */

static hudi_sql_stmt *alter_table(P *p, hudi_sql_stmt *s) {
    s->kind = HUDI_SQL_S_ALTER_TABLE;
    if (!EXPECT("TABLE") || !hudi_sql_qname(p, &s->name)) return NULL;
    if (KW("RENAME")) {
        if (KW("COLUMN")) {
            s->alter = HUDI_SQL_A_RENAME_COLUMN;
            if (!hudi_sql_qname(p, &s->column) || !EXPECT("TO") || !hudi_sql_qname(p, &s->new_name))
                return NULL;
        } else {
            s->alter = HUDI_SQL_A_RENAME;
            if (!EXPECT("TO") || !hudi_sql_qname(p, &s->new_name)) return NULL;
        }
    } else if (KW("ADD")) {
        if (AT("IF") || AT("PARTITION")) {
            s->alter = HUDI_SQL_A_ADD_PARTITION;
            s->if_not_exists = if_not_exists(p);
            if (!AT("PARTITION")) return hudi_sql_expected(p, "PARTITION");
            while (KW("PARTITION")) {
                if (!hudi_sql_push(p, &s->partitions, partition_spec(p, true))) return NULL;
                if (KW("LOCATION") && !(s->location = string_arg(p))) return NULL;
            }
        } else {
            if (!KW("COLUMNS") && !KW("COLUMN"))
                return hudi_sql_expected(p, "COLUMNS or PARTITION");
            s->alter = HUDI_SQL_A_ADD_COLUMNS;
            bool paren = hudi_sql_accept_op(p, "(");
            do {
                if (!hudi_sql_push(p, &s->columns, column_def(p, true, true))) return NULL;
            } while (hudi_sql_accept_op(p, ","));
            if (paren && !hudi_sql_expect_op(p, ")")) return NULL;
        }
    } else if (AT("ALTER") || AT("CHANGE")) {
        bool change = AT("CHANGE");
        hudi_sql_advance(p);
        KW("COLUMN");
        s->alter = HUDI_SQL_A_CHANGE_COLUMN;
        if (!hudi_sql_qname(p, &s->column)) return NULL;
        for (bool first = true;; first = false) {
            if (KW("TYPE")) {
                if (!(s->type = hudi_sql_parse_type(p))) return NULL;
            } else if (KW("COMMENT")) {
                if (!(s->comment = string_arg(p))) return NULL;
            } else if (KW("FIRST")) {
                s->position = 1;
            } else if (KW("AFTER")) {
                s->position = 2;
                if (!hudi_sql_qname(p, &s->after)) return NULL;
            } else if ((AT("SET") || AT("DROP")) && hudi_sql_at_kw(p, 1, "NOT")) {
                s->nullability = AT("SET") ? 1 : 2;
                hudi_sql_advance(p);
                hudi_sql_advance(p);
                if (!EXPECT("NULL")) return NULL;
            } else if (first && change && hudi_sql_at_ident(p, 0)) {
                /* Hive form: CHANGE [COLUMN] old new type */
                if (!hudi_sql_qname(p, &s->new_name) || !(s->type = hudi_sql_parse_type(p)))
                    return NULL;
            } else {
                if (first) return hudi_sql_expected(p, "TYPE, COMMENT, FIRST, AFTER, SET or DROP");
                break;
            }
        }
    } else if (AT("DROP") && (hudi_sql_at_kw(p, 1, "COLUMN") || hudi_sql_at_kw(p, 1, "COLUMNS"))) {
        hudi_sql_advance(p);
        hudi_sql_advance(p);
        s->alter = HUDI_SQL_A_DROP_COLUMNS;
        s->if_exists = if_exists(p);
        bool paren = hudi_sql_accept_op(p, "(");
        do {
            hudi_sql_name *n = hudi_sql_new(p, sizeof(*n));
            if (!n || !hudi_sql_qname(p, n) || !hudi_sql_push(p, &s->names, n)) return NULL;
        } while (hudi_sql_accept_op(p, ","));
        if (paren && !hudi_sql_expect_op(p, ")")) return NULL;
    } else if (KW("DROP")) {
        s->alter = HUDI_SQL_A_DROP_PARTITION;
        s->if_exists = if_exists(p);
        do {
            if (!EXPECT("PARTITION") || !hudi_sql_push(p, &s->partitions, partition_spec(p, true)))
                return NULL;
        } while (hudi_sql_accept_op(p, ","));
        s->purge = KW("PURGE");
    } else if (KW("SET")) {
        if (KW("TBLPROPERTIES"))
            s->alter = HUDI_SQL_A_SET_PROPS;
        else if (KW("SERDEPROPERTIES"))
            s->alter = HUDI_SQL_A_SET_SERDE_PROPS;
        else
            return hudi_sql_expected(p, "TBLPROPERTIES or SERDEPROPERTIES");
        if (!hudi_sql_parse_props(p, &s->props, true)) return NULL;
    } else if (KW("UNSET")) {
        s->alter = HUDI_SQL_A_UNSET_PROPS;
        if (!EXPECT("TBLPROPERTIES")) return NULL;
        s->if_exists = if_exists(p);
        if (!hudi_sql_parse_props(p, &s->props, false)) return NULL;
    } else {
        return hudi_sql_expected(p, "RENAME, ADD, ALTER, CHANGE, DROP, SET or UNSET");
    }
    return p->failed ? NULL : s;
}

/* ---- CREATE / DROP ... ---------------------------------------------------------------- */

static bool index_target(P *p, hudi_sql_stmt *s) {
    if (!hudi_sql_qname(p, &s->name) || !EXPECT("ON")) return false;
    KW("TABLE");
    return hudi_sql_qname(p, &s->table);
}

static hudi_sql_stmt *create_index(P *p, hudi_sql_stmt *s) {
    s->kind = HUDI_SQL_S_CREATE_INDEX;
    s->if_not_exists = if_not_exists(p);
    if (!index_target(p, s)) return NULL;
    if (KW("USING") && !(s->using_index = hudi_sql_ident(p))) return NULL;
    if (!hudi_sql_expect_op(p, "(")) return NULL;
    do {
        hudi_sql_coldef *c = hudi_sql_new(p, sizeof(*c));
        if (!c) return NULL;
        c->pos = hudi_sql_peek(p, 0)->pos;
        if (!hudi_sql_qname(p, &c->name)) return NULL;
        if (AT("OPTIONS") && hudi_sql_at_op(p, 1, "(")) {
            hudi_sql_advance(p);
            if (!hudi_sql_parse_props(p, &c->options, true)) return NULL;
        }
        if (!hudi_sql_push(p, &s->index_columns, c)) return NULL;
    } while (hudi_sql_accept_op(p, ","));
    if (!hudi_sql_expect_op(p, ")")) return NULL;
    if (KW("OPTIONS") && !hudi_sql_parse_props(p, &s->options, true)) return NULL;
    return p->failed ? NULL : s;
}

static bool database_word(P *p) { return KW("DATABASE") || KW("SCHEMA") || KW("NAMESPACE"); }

static hudi_sql_stmt *create_stmt(P *p, hudi_sql_stmt *s) {
    if (AT("OR") && hudi_sql_at_kw(p, 1, "REPLACE")) {
        hudi_sql_advance(p);
        hudi_sql_advance(p);
        s->or_replace = true;
    }
    if (KW("EXTERNAL")) s->external = true;
    if ((s->or_replace || s->external) && !AT("TABLE")) return hudi_sql_expected(p, "TABLE");
    if (KW("TABLE")) return create_table(p, s);
    if (database_word(p)) {
        s->kind = HUDI_SQL_S_CREATE_DATABASE;
        s->if_not_exists = if_not_exists(p);
        if (!hudi_sql_qname(p, &s->name)) return NULL;
        for (;;) {
            if (KW("COMMENT")) {
                if (!(s->comment = string_arg(p))) return NULL;
            } else if (KW("LOCATION")) {
                if (!(s->location = string_arg(p))) return NULL;
            } else if (KW("WITH")) {
                if (!KW("DBPROPERTIES") && !EXPECT("PROPERTIES")) return NULL;
                if (!hudi_sql_parse_props(p, &s->props, true)) return NULL;
            } else {
                break;
            }
        }
        return p->failed ? NULL : s;
    }
    if (KW("INDEX")) return create_index(p, s);
    if (KW("CATALOG")) {
        s->kind = HUDI_SQL_S_CREATE_CATALOG;
        if (!hudi_sql_qname(p, &s->name) || !EXPECT("WITH") ||
            !hudi_sql_parse_props(p, &s->props, true))
            return NULL;
        return s;
    }
    if (AT("VIEW") || AT("TEMPORARY") || AT("FUNCTION"))
        return hudi_sql_fail(p, hudi_sql_peek(p, 0), "CREATE %s is not supported",
                             AT("VIEW")        ? "VIEW"
                             : AT("TEMPORARY") ? "TEMPORARY"
                                               : "FUNCTION");
    return hudi_sql_expected(p, "TABLE, DATABASE, INDEX or CATALOG");
}

static hudi_sql_stmt *drop_stmt(P *p, hudi_sql_stmt *s) {
    if (KW("TABLE")) {
        s->kind = HUDI_SQL_S_DROP_TABLE;
        s->if_exists = if_exists(p);
        if (!hudi_sql_qname(p, &s->name)) return NULL;
        s->purge = KW("PURGE");
    } else if (database_word(p)) {
        s->kind = HUDI_SQL_S_DROP_DATABASE;
        s->if_exists = if_exists(p);
        if (!hudi_sql_qname(p, &s->name)) return NULL;
        if (KW("CASCADE"))
            s->cascade = true;
        else
            KW("RESTRICT");
    } else if (KW("INDEX")) {
        s->kind = HUDI_SQL_S_DROP_INDEX;
        s->if_exists = if_exists(p);
        if (!index_target(p, s)) return NULL;
    } else {
        return hudi_sql_expected(p, "TABLE, DATABASE or INDEX");
    }
    return p->failed ? NULL : s;
}

/* ---- SHOW / DESCRIBE ------------------------------------------------------------------ */

static bool like_pattern(P *p, hudi_sql_stmt *s) {
    bool like = KW("LIKE");
    if (hudi_sql_peek(p, 0)->kind == HUDI_SQL_TK_STRING)
        return (s->pattern = string_arg(p)) != NULL;
    if (like) return hudi_sql_expected(p, "a pattern string") != NULL;
    return true;
}

static hudi_sql_stmt *show_stmt(P *p, hudi_sql_stmt *s) {
    s->kind = HUDI_SQL_S_SHOW;
    if (KW("TABLES")) {
        s->show = HUDI_SQL_SHOW_TABLES;
        if ((KW("FROM") || KW("IN")) && !hudi_sql_qname(p, &s->table)) return NULL;
        if (!like_pattern(p, s)) return NULL;
    } else if (KW("DATABASES") || KW("SCHEMAS") || KW("NAMESPACES")) {
        s->show = HUDI_SQL_SHOW_DATABASES;
        if (!like_pattern(p, s)) return NULL;
    } else if (KW("PARTITIONS")) {
        s->show = HUDI_SQL_SHOW_PARTITIONS;
        if (!hudi_sql_qname(p, &s->name)) return NULL;
        if (KW("PARTITION") && !(s->partition = partition_spec(p, true))) return NULL;
    } else if (KW("TBLPROPERTIES")) {
        s->show = HUDI_SQL_SHOW_TBLPROPERTIES;
        if (!hudi_sql_qname(p, &s->name)) return NULL;
        if (hudi_sql_at_op(p, 0, "(")) {
            hudi_sql_list keys = {0};
            if (!hudi_sql_parse_props(p, &keys, false)) return NULL;
            if (keys.len != 1)
                return hudi_sql_fail(
                    p, &(hudi_sql_token){.pos = HUDI_SQL_AT(keys, hudi_sql_prop, 1)->pos},
                    "SHOW TBLPROPERTIES takes one key");
            s->pattern = HUDI_SQL_AT(keys, hudi_sql_prop, 0)->key;
        }
    } else if (KW("COLUMNS")) {
        s->show = HUDI_SQL_SHOW_COLUMNS;
        if (!KW("FROM") && !EXPECT("IN")) return NULL;
        if (!hudi_sql_qname(p, &s->name)) return NULL;
        if ((KW("FROM") || KW("IN")) && !hudi_sql_qname(p, &s->table)) return NULL;
    } else if (KW("CREATE")) {
        s->show = HUDI_SQL_SHOW_CREATE_TABLE;
        if (!EXPECT("TABLE") || !hudi_sql_qname(p, &s->name)) return NULL;
        if (KW("AS") && !EXPECT("SERDE")) return NULL;
    } else if (KW("INDEXES") || KW("INDEX")) {
        s->show = HUDI_SQL_SHOW_INDEXES;
        if (!KW("FROM") && !EXPECT("IN")) return NULL;
        KW("TABLE");
        if (!hudi_sql_qname(p, &s->name)) return NULL;
    } else if (KW("CURRENT")) {
        s->show = HUDI_SQL_SHOW_CURRENT_DATABASE;
        if (!database_word(p)) return hudi_sql_expected(p, "NAMESPACE or DATABASE");
    } else if (KW("CATALOGS")) {
        s->show = HUDI_SQL_SHOW_CATALOGS;
    } else if (AT("COMPACTION")) {
        return hudi_sql_fail(p, hudi_sql_peek(p, 0), "SHOW COMPACTION is not supported yet");
    } else if (KW("FUNCTIONS")) {
        s->show = HUDI_SQL_SHOW_FUNCTIONS;
        if (!like_pattern(p, s)) return NULL;
    } else {
        return hudi_sql_expected(p, "TABLES, DATABASES, PARTITIONS, TBLPROPERTIES, COLUMNS, "
                                    "CREATE TABLE or INDEXES");
    }
    return p->failed ? NULL : s;
}

static hudi_sql_stmt *describe_stmt(P *p, hudi_sql_stmt *s) {
    s->kind = HUDI_SQL_S_DESCRIBE;
    if (database_word(p)) {
        s->describe = 2;
        s->extended = KW("EXTENDED");
        return hudi_sql_qname(p, &s->name) ? s : NULL;
    }
    if (KW("QUERY") || AT("SELECT") || AT("WITH") || AT("VALUES") || hudi_sql_at_op(p, 0, "(")) {
        s->describe = 1;
        return (s->query = hudi_sql_parse_query(p)) ? s : NULL;
    }
    KW("TABLE");
    if (KW("EXTENDED") || KW("FORMATTED")) s->extended = true;
    if (!hudi_sql_qname(p, &s->name)) return NULL;
    if (KW("PARTITION") && !(s->partition = partition_spec(p, true))) return NULL;
    if (hudi_sql_at_ident(p, 0) && !hudi_sql_qname(p, &s->describe_column)) return NULL;
    return p->failed ? NULL : s;
}

/* ---- SET / RESET ---------------------------------------------------------------------- */

static const char *source_span(P *p, uint32_t from, uint32_t to) {
    char *s = hudi_arena_strndup(p->arena, p->lx.src + from, to - from);
    return s ? s : hudi_sql_oom(p);
}

static bool at_end(P *p) {
    return hudi_sql_at_op(p, 0, ";") || hudi_sql_peek(p, 0)->kind == HUDI_SQL_TK_EOF;
}

static bool key_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == ':' || c == '-';
}

/* A configuration key: 'quoted' (Flink), `quoted`, or the raw text of the tokens up to '='
 * or the end, which must be letters, digits and _ . : - (Spark matches SET by pattern). */
static const char *config_key(P *p) {
    hudi_sql_token *t = hudi_sql_peek(p, 0);
    if (t->kind == HUDI_SQL_TK_STRING) return string_arg(p);
    if (t->kind == HUDI_SQL_TK_QIDENT) return hudi_sql_ident(p);
    hudi_sql_token first = *t;
    uint32_t end = t->pos.offset;
    while (!p->failed && !at_end(p) && !hudi_sql_at_op(p, 0, "=")) {
        hudi_sql_advance(p);
        end = p->last_end.offset;
    }
    if (p->failed) return NULL;
    if (end == first.pos.offset) return hudi_sql_expected(p, "a configuration key");
    for (uint32_t i = first.pos.offset; i < end; i++)
        if (!key_char(p->lx.src[i]))
            return hudi_sql_fail(p, &first, "invalid configuration key '%.*s'",
                                 (int)HUDI_MIN(end - first.pos.offset, 60),
                                 p->lx.src + first.pos.offset);
    return source_span(p, first.pos.offset, end);
}

static hudi_sql_stmt *set_stmt(P *p, hudi_sql_stmt *s) {
    s->kind = HUDI_SQL_S_SET;
    if (at_end(p)) {
        s->set = HUDI_SQL_SET_LIST;
        return s;
    }
    if (hudi_sql_at_op(p, 0, "-") && hudi_sql_at_kw(p, 1, "v")) {
        hudi_sql_advance(p);
        hudi_sql_advance(p);
        s->set = HUDI_SQL_SET_ALL;
        return s;
    }
    if (AT("TIME") && hudi_sql_at_kw(p, 1, "ZONE")) {
        hudi_sql_advance(p);
        hudi_sql_advance(p);
        s->set = HUDI_SQL_SET_ASSIGN;
        s->key = "spark.sql.session.timeZone";
        if (KW("LOCAL"))
            s->value = s->value_raw = "LOCAL";
        else if (!(s->value = s->value_raw = string_arg(p)))
            return NULL;
        return s;
    }
    if (!(s->key = config_key(p))) return NULL;
    if (!hudi_sql_accept_op(p, "=")) {
        s->set = HUDI_SQL_SET_GET;
        return at_end(p) ? s : hudi_sql_expected(p, "'=' or end of statement");
    }
    s->set = HUDI_SQL_SET_ASSIGN;
    uint32_t from = hudi_sql_peek(p, 0)->pos.offset, to = from;
    while (!p->failed && !at_end(p)) {
        hudi_sql_advance(p);
        to = p->last_end.offset;
    }
    if (p->failed || !(s->value_raw = source_span(p, from, to))) return NULL;
    /* Docs-compat decision (docs/SQL.md): one level of matching quotes is stripped. */
    size_t n = to - from;
    const char *v = s->value_raw;
    if (n >= 2 && (v[0] == '\'' || v[0] == '"') && v[n - 1] == v[0])
        s->value = source_span(p, from + 1, to - 1);
    else
        s->value = s->value_raw;
    return p->failed ? NULL : s;
}

static hudi_sql_stmt *reset_stmt(P *p, hudi_sql_stmt *s) {
    s->kind = HUDI_SQL_S_RESET;
    if (!at_end(p) && !(s->key = config_key(p))) return NULL;
    return s;
}

/* ---- DML ------------------------------------------------------------------------------ */

static hudi_sql_stmt *insert_stmt(P *p, hudi_sql_stmt *s) {
    s->kind = HUDI_SQL_S_INSERT;
    if (KW("OVERWRITE"))
        s->overwrite = true;
    else if (!EXPECT("INTO"))
        return NULL;
    KW("TABLE");
    if (!hudi_sql_qname(p, &s->name) || !hudi_sql_parse_hints(p, &s->hints)) return NULL;
    if (KW("PARTITION")) {
        if (!(s->partition = partition_spec(p, false))) return NULL;
        if (s->overwrite) s->if_not_exists = if_not_exists(p);
    }
    if (hudi_sql_at_op(p, 0, "(") && !hudi_sql_at_query_start(p, 1) &&
        !hudi_sql_ident_list(p, &s->insert_columns))
        return NULL;
    if (!hudi_sql_at_query_start(p, 0)) return hudi_sql_expected(p, "SELECT, VALUES or TABLE");
    s->query = hudi_sql_parse_query(p);
    return p->failed ? NULL : s;
}

static bool assignments(P *p, hudi_sql_list *out) {
    do {
        hudi_sql_assign *a = hudi_sql_new(p, sizeof(*a));
        if (!a || !hudi_sql_qname(p, &a->target) || !hudi_sql_expect_op(p, "=") ||
            !(a->value = hudi_sql_parse_expr(p)) || !hudi_sql_push(p, out, a))
            return false;
    } while (hudi_sql_accept_op(p, ","));
    return true;
}

static hudi_sql_stmt *update_stmt(P *p, hudi_sql_stmt *s) {
    s->kind = HUDI_SQL_S_UPDATE;
    if (!hudi_sql_qname(p, &s->name)) return NULL;
    s->alias = hudi_sql_parse_alias(p);
    if (!EXPECT("SET") || !assignments(p, &s->assigns)) return NULL;
    if (KW("WHERE") && !(s->where = hudi_sql_parse_expr(p))) return NULL;
    return p->failed ? NULL : s;
}

static hudi_sql_stmt *delete_stmt(P *p, hudi_sql_stmt *s) {
    s->kind = HUDI_SQL_S_DELETE;
    if (!EXPECT("FROM") || !hudi_sql_qname(p, &s->name)) return NULL;
    s->alias = hudi_sql_parse_alias(p);
    if (KW("WHERE") && !(s->where = hudi_sql_parse_expr(p))) return NULL;
    return p->failed ? NULL : s;
}

static hudi_sql_merge_clause *merge_clause(P *p) {
    hudi_sql_merge_clause *c = hudi_sql_new(p, sizeof(*c));
    if (!c) return NULL;
    c->pos = hudi_sql_peek(p, 0)->pos;
    if (!EXPECT("WHEN")) return NULL;
    if (KW("NOT")) {
        c->match = HUDI_SQL_NOT_MATCHED;
        if (!EXPECT("MATCHED")) return NULL;
        if (KW("BY")) {
            if (KW("SOURCE"))
                c->match = HUDI_SQL_NOT_MATCHED_BY_SOURCE;
            else if (!EXPECT("TARGET"))
                return NULL;
        }
    } else if (!EXPECT("MATCHED")) {
        return NULL;
    }
    if (KW("AND") && !(c->cond = hudi_sql_parse_expr(p))) return NULL;
    if (!EXPECT("THEN")) return NULL;
    if (c->match != HUDI_SQL_NOT_MATCHED) {
        if (KW("DELETE")) {
            c->action = HUDI_SQL_M_DELETE;
        } else if (KW("UPDATE")) {
            if (!EXPECT("SET")) return NULL;
            if (hudi_sql_accept_op(p, "*"))
                c->action = HUDI_SQL_M_UPDATE_STAR;
            else if (!assignments(p, &c->assigns))
                return NULL;
            else
                c->action = HUDI_SQL_M_UPDATE;
        } else {
            return hudi_sql_expected(p, "UPDATE or DELETE");
        }
    } else {
        if (!EXPECT("INSERT")) return NULL;
        if (hudi_sql_accept_op(p, "*")) {
            c->action = HUDI_SQL_M_INSERT_STAR;
        } else {
            c->action = HUDI_SQL_M_INSERT;
            if (hudi_sql_at_op(p, 0, "(") && !hudi_sql_ident_list(p, &c->columns)) return NULL;
            if (!EXPECT("VALUES") || !hudi_sql_expect_op(p, "(")) return NULL;
            do {
                if (!hudi_sql_push(p, &c->values, hudi_sql_parse_expr(p))) return NULL;
            } while (hudi_sql_accept_op(p, ","));
            if (!hudi_sql_expect_op(p, ")")) return NULL;
        }
    }
    return p->failed ? NULL : c;
}

static hudi_sql_stmt *merge_stmt(P *p, hudi_sql_stmt *s) {
    s->kind = HUDI_SQL_S_MERGE;
    if (!EXPECT("INTO") || !hudi_sql_qname(p, &s->name)) return NULL;
    s->alias = hudi_sql_parse_alias(p);
    if (!EXPECT("USING")) return NULL;
    hudi_sql_pos pos = hudi_sql_peek(p, 0)->pos;
    if (hudi_sql_accept_op(p, "(")) {
        hudi_sql_rel *r = hudi_sql_new(p, sizeof(*r));
        if (!r) return NULL;
        r->kind = HUDI_SQL_R_SUBQUERY;
        r->pos = pos;
        if (!(r->query = hudi_sql_parse_query(p)) || !hudi_sql_expect_op(p, ")")) return NULL;
        r->alias = hudi_sql_parse_alias(p);
        s->source = r;
    } else if (!(s->source = hudi_sql_parse_table_ref(p, true))) {
        return NULL;
    }
    if (!EXPECT("ON") || !(s->on = hudi_sql_parse_expr(p))) return NULL;
    if (!AT("WHEN")) return hudi_sql_expected(p, "WHEN");
    while (AT("WHEN"))
        if (!hudi_sql_push(p, &s->clauses, merge_clause(p))) return NULL;
    return p->failed ? NULL : s;
}

/* ---- CALL ----------------------------------------------------------------------------- */

/* Procedure arguments are constants (docs/SQL.md): literals, and map()/array() of them. */
static hudi_sql_expr *call_const(P *p) {
    if (!hudi_sql_enter(p)) return NULL;
    hudi_sql_expr *e = NULL;
    hudi_sql_token *t = hudi_sql_peek(p, 0);
    if ((hudi_sql_is_kw(t, "MAP") || hudi_sql_is_kw(t, "ARRAY")) && hudi_sql_at_op(p, 1, "(")) {
        if (!(e = hudi_sql_new(p, sizeof(*e)))) goto done;
        e->kind = HUDI_SQL_E_FUNC;
        e->pos = t->pos;
        if (!hudi_sql_qname(p, &e->name)) goto done;
        hudi_sql_advance(p);
        if (!hudi_sql_at_op(p, 0, ")")) {
            do {
                if (!hudi_sql_push(p, &e->args, call_const(p))) goto done;
            } while (hudi_sql_accept_op(p, ","));
        }
        hudi_sql_expect_op(p, ")");
        goto done;
    }
    if (t->kind == HUDI_SQL_TK_STRING || t->kind == HUDI_SQL_TK_NUMBER ||
        t->kind == HUDI_SQL_TK_BINARY || hudi_sql_at_op(p, 0, "-") || hudi_sql_at_op(p, 0, "+") ||
        hudi_sql_is_kw(t, "TRUE") || hudi_sql_is_kw(t, "FALSE") || hudi_sql_is_kw(t, "NULL") ||
        (t->kind == HUDI_SQL_TK_WORD && hudi_sql_peek(p, 1)->kind == HUDI_SQL_TK_STRING)) {
        e = hudi_sql_parse_literal(p);
        goto done;
    }
    hudi_sql_expected(p, "a constant (procedure arguments are constants)");
done:
    hudi_sql_leave(p);
    return p->failed ? NULL : e;
}

static hudi_sql_stmt *call_stmt(P *p, hudi_sql_stmt *s) {
    s->kind = HUDI_SQL_S_CALL;
    if (!hudi_sql_qname(p, &s->name) || !hudi_sql_expect_op(p, "(")) return NULL;
    bool named = false;
    if (!hudi_sql_at_op(p, 0, ")")) {
        do {
            hudi_sql_token *t = hudi_sql_peek(p, 0);
            hudi_sql_expr *a;
            if (hudi_sql_at_ident(p, 0) && hudi_sql_at_op(p, 1, "=>")) {
                if (!(a = hudi_sql_new(p, sizeof(*a)))) return NULL;
                a->kind = HUDI_SQL_E_NAMED_ARG;
                a->pos = t->pos;
                if (!(a->field = hudi_sql_ident(p))) return NULL;
                hudi_sql_advance(p);
                if (!(a->left = call_const(p))) return NULL;
                named = true;
            } else {
                if (named) return hudi_sql_fail(p, t, "positional argument after a named argument");
                if (!(a = call_const(p))) return NULL;
            }
            if (!hudi_sql_push(p, &s->args, a)) return NULL;
        } while (hudi_sql_accept_op(p, ","));
    }
    return hudi_sql_expect_op(p, ")") ? s : NULL;
}

/* ---- statements ----------------------------------------------------------------------- */

hudi_sql_stmt *hudi_sql_parse_statement(P *p) {
    if (!hudi_sql_enter(p)) return NULL;
    hudi_sql_token *t = hudi_sql_peek(p, 0);
    hudi_sql_stmt *s = new_stmt(p, HUDI_SQL_S_QUERY, t->pos), *r = NULL;
    if (!s) goto done;
    /* Spark's `WITH v AS (...) INSERT INTO t SELECT ... FROM v`: the CTEs scope the insert's
     * query */
    if (AT("WITH")) {
        hudi_sql_list ctes = {0};
        if (!hudi_sql_parse_ctes(p, &ctes)) goto done;
        if (KW("INSERT")) {
            if ((r = insert_stmt(p, s)) && !(s->query = hudi_sql_query_add_ctes(p, s->query, ctes)))
                r = NULL;
        } else if (hudi_sql_at_query_start(p, 0)) {
            hudi_sql_query *q = hudi_sql_parse_query(p);
            r = q && (s->query = hudi_sql_query_add_ctes(p, q, ctes)) ? s : NULL;
        } else {
            hudi_sql_expected(p, "SELECT, VALUES or INSERT");
        }
        goto done;
    }
    if (hudi_sql_at_query_start(p, 0)) {
        r = (s->query = hudi_sql_parse_query(p)) ? s : NULL;
        goto done;
    }
    if (t->kind != HUDI_SQL_TK_WORD) {
        hudi_sql_expected(p, "a statement");
        goto done;
    }
    if (KW("CREATE"))
        r = create_stmt(p, s);
    else if (KW("DROP"))
        r = drop_stmt(p, s);
    else if (KW("ALTER"))
        r = alter_table(p, s);
    else if (KW("TRUNCATE")) {
        s->kind = HUDI_SQL_S_TRUNCATE;
        if (EXPECT("TABLE") && hudi_sql_qname(p, &s->name) &&
            (!KW("PARTITION") || (s->partition = partition_spec(p, true))))
            r = s;
    } else if (KW("SHOW"))
        r = show_stmt(p, s);
    else if (KW("DESCRIBE") || KW("DESC"))
        r = describe_stmt(p, s);
    else if (KW("USE")) {
        s->kind = HUDI_SQL_S_USE;
        if (KW("CATALOG"))
            s->catalog = true;
        else if ((AT("DATABASE") || AT("SCHEMA") || AT("NAMESPACE")) && hudi_sql_at_ident(p, 1))
            hudi_sql_advance(p);
        r = hudi_sql_qname(p, &s->name) ? s : NULL;
    } else if (KW("SET"))
        r = set_stmt(p, s);
    else if (KW("RESET"))
        r = reset_stmt(p, s);
    else if (KW("INSERT"))
        r = insert_stmt(p, s);
    else if (KW("UPDATE"))
        r = update_stmt(p, s);
    else if (KW("DELETE"))
        r = delete_stmt(p, s);
    else if (KW("MERGE"))
        r = merge_stmt(p, s);
    else if (KW("CALL"))
        r = call_stmt(p, s);
    else if (KW("REFRESH")) {
        if (KW("INDEX")) {
            s->kind = HUDI_SQL_S_REFRESH_INDEX;
            r = index_target(p, s) ? s : NULL;
        } else {
            s->kind = HUDI_SQL_S_REFRESH_TABLE;
            KW("TABLE");
            r = hudi_sql_qname(p, &s->name) ? s : NULL;
        }
    } else if (KW("EXPLAIN")) {
        s->kind = HUDI_SQL_S_EXPLAIN;
        static const char *const modes[] = {"EXTENDED", "COST", "FORMATTED", "CODEGEN", "LOGICAL"};
        static const char *const lower[] = {"extended", "cost", "formatted", "codegen", "logical"};
        for (size_t i = 0; i < HUDI_ARRAY_LEN(modes); i++)
            if (KW(modes[i])) {
                s->explain_mode = lower[i];
                break;
            }
        if (AT("EXPLAIN"))
            hudi_sql_expected(p, "a statement to explain");
        else if ((s->inner = hudi_sql_parse_statement(p)))
            r = s;
    } else if ((AT("RUN") || AT("SCHEDULE")) && hudi_sql_at_kw(p, 1, "COMPACTION")) {
        hudi_sql_fail(p, t, "%.*s COMPACTION is not supported yet", (int)t->text_len, t->text);
    } else {
        hudi_sql_expected(p, "a statement");
    }
done:
    hudi_sql_leave(p);
    if (p->failed) return NULL;
    r->src_end = p->last_end.offset;
    return r;
}

/* ---- entry points --------------------------------------------------------------------- */

void hudi_sql_parser_init(hudi_sql_parser *p, hudi_arena *arena, const char *src, size_t len) {
    memset(p, 0, sizeof(*p));
    p->arena = arena;
    hudi_sql_lexer_init(&p->lx, arena, src, len);
}

/* After an error: drop tokens up to and including the next ';'. A token that failed to lex
 * has been skipped by the lexer, so lexing simply goes on. */
static void recover(P *p) {
    p->failed = true; /* keeps lexing errors met while skipping from replacing the error */
    for (;;) {
        hudi_sql_token *t = hudi_sql_peek(p, 0);
        if (t->lex_error) {
            p->ntok = 0;
            p->lex_failed = false;
            continue;
        }
        if (t->kind == HUDI_SQL_TK_EOF) break;
        bool semi = t->kind == HUDI_SQL_TK_OP && t->text[0] == ';';
        hudi_sql_advance(p);
        if (semi) break;
    }
    p->failed = false;
    p->depth = 0;
}

int hudi_sql_parser_next(hudi_sql_parser *p, hudi_sql_stmt **out, hudi_error *err) {
    *out = NULL;
    p->err = err;
    if (p->failed) recover(p);
    while (hudi_sql_accept_op(p, ";")) {
    }
    hudi_sql_token *t = hudi_sql_peek(p, 0);
    if (p->failed) return p->rc;
    if (t->kind == HUDI_SQL_TK_EOF) return 0;
    hudi_sql_stmt *s = hudi_sql_parse_statement(p);
    if (s && !at_end(p)) hudi_sql_expected(p, "end of statement");
    if (p->failed) return p->rc;
    hudi_sql_accept_op(p, ";");
    *out = s;
    return 1;
}

int hudi_sql_parse(hudi_sql_stmt **out, hudi_arena *arena, const char *src, size_t len,
                   hudi_sql_pos *err_pos, hudi_error *err) {
    hudi_sql_parser p;
    hudi_sql_parser_init(&p, arena, src, len);
    *out = NULL;
    hudi_sql_stmt *s;
    int rc = hudi_sql_parser_next(&p, &s, err);
    if (rc == 0) {
        hudi_sql_pos pos = hudi_sql_peek(&p, 0)->pos;
        if (err_pos) *err_pos = pos;
        return hudi_error_set(err, HUDI_ESQL, "line %u, column %u: empty statement", pos.line,
                              pos.col);
    }
    if (rc < 0) {
        if (err_pos) *err_pos = p.error_pos;
        return rc;
    }
    while (hudi_sql_accept_op(&p, ";")) {
    }
    if (!p.failed && hudi_sql_peek(&p, 0)->kind != HUDI_SQL_TK_EOF)
        hudi_sql_expected(&p, "end of input (one statement only)");
    if (p.failed) {
        if (err_pos) *err_pos = p.error_pos;
        return p.rc;
    }
    *out = s;
    return 0;
}
