"""test_sql_cli.py - `hudic sql` without a terminal: -e, -f and piped statements, every output
mode's exact text, dot commands in scripts, timing and error lines, exit codes.

Each test has a warehouse of its own (pytest's tmp_path)."""
import json
import os
import re

import pytest

from sql_support import TIMING, Warehouse, hudic, timing_lines

CREATE = ("CREATE TABLE t (id INT, name STRING, price DOUBLE) USING hudi "
          "TBLPROPERTIES (primaryKey = 'id');")
FILL = "INSERT INTO t VALUES (1, 'a', 1.5), (2, 'b,c', NULL), (3, NULL, 20.0);"


@pytest.fixture
def wh(tmp_path):
    return Warehouse(tmp_path / "wh")


@pytest.fixture
def filled(wh):
    wh.ok("-S", "-e", CREATE + FILL)
    return wh


# ---- spark mode (the default without a terminal) -----------------------------------------------


def test_spark_rows_and_timing(wh):
    r = wh.ok("-e", "SELECT 1 AS a, 'x' AS b;")
    assert r.out == "1\tx\n"
    assert timing_lines(r.err) == [", Fetched 1 row(s)"]


def test_spark_is_the_default_mode_when_not_a_terminal(wh):
    explicit = wh.ok("--mode", "spark", "-S", "-e", "SELECT 1 AS a, 'x' AS b")
    default = wh.ok("-S", "-e", "SELECT 1 AS a, 'x' AS b")
    assert explicit.out == default.out == "1\tx\n"


def test_silent_drops_timing(wh):
    r = wh.ok("-S", "-e", "SELECT 1")
    assert r.out == "1\n" and r.err == ""


def test_ddl_and_dml_print_only_the_time(wh):
    r = wh.ok("-e", CREATE + FILL)
    assert r.out == ""
    assert timing_lines(r.err) == ["", ""]  # no ", Fetched" for statements without rows


def test_spark_values_and_nulls(filled):
    r = filled.ok("-e", "SELECT id, name, price FROM t ORDER BY id")
    assert r.out == "1\ta\t1.5\n2\tb,c\tNULL\n3\tNULL\t20.0\n"
    assert timing_lines(r.err) == [", Fetched 3 row(s)"]


def test_empty_result_has_no_fetched(filled):
    r = filled.ok("-e", "SELECT id FROM t WHERE id > 100")
    assert r.out == ""
    assert timing_lines(r.err) == [""]


def test_spark_header_from_conf(filled):
    r = filled.ok("-S", "--conf", "spark.sql.cli.print.header=true", "-e",
                  "SELECT id, name FROM t WHERE id = 1")
    assert r.out == "id\tname\n1\ta\n"
    r = filled.ok("-S", "-e", "SET spark.sql.cli.print.header=true; SELECT id FROM t WHERE id = 1")
    assert r.out.endswith("id\n1\n"), r


def test_spark_show_tables_prints_names_only(filled):
    r = filled.ok("-S", "-e", "SHOW TABLES")
    assert r.out == "t\n"


def test_spark_describe_pads_cells(filled):
    r = filled.ok("-S", "-e", "DESCRIBE t")
    lines = r.out.split("\n")
    row = [l for l in lines if l.startswith("id")][0]
    # every cell left-justified to 20 characters, a NULL comment empty, cells joined by TAB
    assert row == "id".ljust(20) + "\t" + "int".ljust(20) + "\t" + "".ljust(20), repr(row)


# ---- -e, -f, stdin, exit codes -----------------------------------------------------------------


def test_several_e_and_f_run_in_order(wh, tmp_path):
    f = tmp_path / "two.sql"
    f.write_text("SELECT 2;\nSELECT 3;\n")
    r = wh.ok("-S", "-e", "SELECT 1", "-f", str(f), "-e", "SELECT 4")
    assert r.out == "1\n2\n3\n4\n"


def test_script_file_multiline_comments_and_quotes(wh, tmp_path):
    f = tmp_path / "s.sql"
    f.write_text("-- a comment; with a semicolon\n"
                 "SELECT\n  'x;y' AS a, -- trailing; comment\n"
                 "  `we;ird` FROM (SELECT 1 AS `we;ird`) /* block; /* nested; */ still */;\n"
                 "# a documentation comment line, don't stop here\n"
                 "SELECT \"it's\"\n")  # the last statement has no ';'
    r = wh.ok("-S", "-f", str(f))
    assert r.out == "x;y\t1\nit's\n"


def test_piped_stdin_runs_as_a_script(filled):
    r = filled.ok("-S", stdin="SELECT count(*)\nFROM t;\nSELECT max(id) FROM t;\n")
    assert r.out == "3\n3\n"


def test_first_failure_stops_with_exit_1(filled, tmp_path):
    f = tmp_path / "bad.sql"
    f.write_text("SELECT 1;\nSELECT * FORM t;\nSELECT 2;\n")
    r = filled.sql("-S", "-f", str(f))
    assert r.code == 1, r
    assert r.out == "1\n"  # the statement after the error did not run
    lines = r.err.splitlines()
    assert lines[0].startswith("Error in query: line 1, column "), r
    # the statement's line and a caret under the offending token
    assert lines[1] == "SELECT * FORM t;", r
    assert lines[2].strip() == "^" and lines[2].index("^") == lines[1].index("FORM"), r


def test_failure_in_e_and_stdin(filled):
    r = filled.sql("-S", "-e", "SELECT * FROM missing_table; SELECT 1")
    assert r.code == 1 and r.out == "", r
    assert "missing_table" in r.err, r
    r = filled.sql("-S", stdin="SELECT 5;\nSELECT nope(1);\nSELECT 6;\n")
    assert r.code == 1 and r.out == "5\n", r
    assert "nope" in r.err, r


def test_errors_ignored_by_conf(filled):
    r = filled.sql("-S", "--conf", "hive.cli.errors.ignore=true", "-e",
                   "SELECT * FROM missing_table; SELECT 7")
    assert r.out == "7\n", r
    assert "missing_table" in r.err


def test_quit_and_exit_end_the_script(wh):
    r = wh.ok("-S", "-e", "SELECT 1; quit; SELECT 2")
    assert r.out == "1\n"
    r = wh.ok("-S", stdin="SELECT 1;\nEXIT;\nSELECT 2;\n")
    assert r.out == "1\n"


def test_only_comments_is_fine(wh):
    r = wh.ok("-e", "-- nothing\n/* here */")
    assert r.out == "" and r.err == ""


def test_warehouse_default_and_env(tmp_path):
    work = tmp_path / "cwd"
    work.mkdir()
    r = hudic("sql", "-S", "-e", CREATE, cwd=str(work))
    assert r.code == 0, r
    assert (work / "hudic-warehouse").is_dir()
    other = tmp_path / "env-wh"
    r = hudic("sql", "-S", "-e", CREATE, cwd=str(work), env={"HUDIC_WAREHOUSE": str(other)})
    assert r.code == 0, r
    r = hudic("sql", "-S", "-e", "SHOW TABLES", cwd=str(work),
              env={"HUDIC_WAREHOUSE": str(other)})
    assert r.out == "t\n", r


def test_database_option(wh):
    wh.ok("-S", "-e", "CREATE DATABASE d2; USE d2; " + CREATE)
    r = wh.ok("-S", "--database", "d2", "-e", "SHOW TABLES")
    assert r.out == "t\n"
    r = wh.sql("-S", "--database", "nope", "-e", "SELECT 1")
    assert r.code == 1 and "nope" in r.err, r


def test_usage_errors_exit_2(wh):
    for args in (["--mode", "fancy"], ["--bogus"], ["--conf", "novalue"], ["-e"]):
        r = wh.sql(*args)
        assert r.code == 2, (args, r)
        assert r.err.startswith("hudic: ") and "usage: hudic sql" in r.err, (args, r)


def test_help():
    r = hudic("sql", "--help")
    assert r.code == 0 and r.out.startswith("usage: hudic sql "), r
    for opt in ("--warehouse", "--database", "--mode", "--conf", "-e", "-f", "-S"):
        assert opt in r.out, opt
    assert hudic("help", "sql").out == r.out


def test_no_arguments_without_terminal_prints_help():
    r = hudic()
    assert r.code == 2 and "hudic sql" in r.err, r


# ---- the other modes -----------------------------------------------------------------------------

Q = "SELECT id, name, price FROM t ORDER BY id"


def test_csv(filled):
    r = filled.ok("--mode", "csv", "-S", "-e", Q)
    assert r.out == 'id,name,price\n1,a,1.5\n2,"b,c",\n3,,20.0\n'
    r = filled.ok("--mode", "csv", "-S", "-e", "SELECT 'say \"hi\"' AS `a b`, 'x\ny' AS c")
    assert r.out == 'a b,c\n"say ""hi""","x\ny"\n'


def test_tsv_escapes(filled):
    r = filled.ok("--mode", "tsv", "-S", "-e", "SELECT 'a\tb' AS x, 'c\\\\d' AS y, NULL AS z")
    assert r.out == "x\ty\tz\na\\tb\tc\\\\d\tNULL\n"


def test_json_and_jsonl(filled):
    r = filled.ok("--mode", "jsonl", "-S", "-e", Q)
    rows = [json.loads(l) for l in r.out.splitlines()]
    assert rows == [{"id": 1, "name": "a", "price": 1.5}, {"id": 2, "name": "b,c", "price": None},
                    {"id": 3, "name": None, "price": 20.0}]
    r2 = filled.ok("--mode", "json", "-S", "-e", Q)
    assert json.loads(r2.out) == rows
    assert r2.out.startswith("[{") and r2.out.endswith("}]\n") and r2.out.count("\n") == 3
    r3 = filled.ok("--mode", "json", "-S", "-e", "SELECT 1 AS a WHERE false")
    assert r3.out == "[]\n"


def test_jsonl_prints_nothing_for_ddl_and_dml(wh):
    r = wh.ok("--mode", "jsonl", "-e", CREATE + FILL + "SELECT id FROM t ORDER BY id")
    assert r.out == '{"id":1}\n{"id":2}\n{"id":3}\n'


def test_line_mode(filled):
    r = filled.ok("--mode", "line", "-S", "-e", "SELECT id, name AS longer_name FROM t WHERE id <= 2 ORDER BY id")
    assert r.out == ("         id = 1\nlonger_name = a\n\n"
                     "         id = 2\nlonger_name = b,c\n")


def test_markdown(filled):
    r = filled.ok("--mode", "markdown", "-S", "-e", Q)
    assert r.out == ("| id  | name | price |\n"
                     "|----:|------|------:|\n"
                     "|   1 | a    |   1.5 |\n"
                     "|   2 | b,c  |  NULL |\n"
                     "|   3 | NULL |  20.0 |\n")


def test_box(filled):
    r = filled.ok("--mode", "box", "-S", "-e", Q)
    assert r.out == ("┌─────┬────────┬────────┐\n"
                     "│ id  │  name  │ price  │\n"
                     "│ int │ string │ double │\n"
                     "├─────┼────────┼────────┤\n"
                     "│   1 │ a      │    1.5 │\n"
                     "│   2 │ b,c    │   NULL │\n"
                     "│   3 │ NULL   │   20.0 │\n"
                     "└─────┴────────┴────────┘\n")


def test_box_elides_middle_rows(wh):
    values = ", ".join("(%d)" % i for i in range(1, 101))
    r = wh.ok("--mode", "box", "-S", "-e", ".maxrows 6\nSELECT col1 AS n FROM VALUES %s AS v ORDER BY n;" % values)
    lines = r.out.splitlines()
    body = [l for l in lines if l.startswith("│")]
    assert [l.strip("│ ") for l in body[2:5]] == ["1", "2", "3"]
    assert [l.strip("│ ") for l in body[5:8]] == ["·", "·", "·"]
    assert [l.strip("│ ") for l in body[8:11]] == ["98", "99", "100"]
    assert "100 rows (6 shown)" in body[11], r.out
    assert lines[-1].startswith("└") and lines[-1].endswith("┘")
    widths = {len(l) for l in lines}
    assert len(widths) == 1, r.out  # every line of the box has the same width


def test_box_fits_the_terminal_width(wh):
    long = "x" * 200
    r = wh.ok("--mode", "box", "-S", "-e", "SELECT '%s' AS a, 1 AS b" % long, env={"COLUMNS": "60"})
    lines = r.out.splitlines()
    assert all(len(l) <= 60 for l in lines), r.out
    assert "…" in r.out


def test_box_dml_reports_rows(wh):
    r = wh.ok("--mode", "box", "-S", "-e", CREATE + FILL)
    assert r.out == "3 rows affected\n"


# ---- dot commands in scripts ---------------------------------------------------------------------


def test_dot_commands_in_a_script(filled, tmp_path):
    out = tmp_path / "out.csv"
    inc = tmp_path / "inc.sql"
    inc.write_text("SELECT 'included';\n")
    script = "\n".join([
        ".mode csv",
        "SELECT id FROM t WHERE id = 1;",
        ".headers off",
        "SELECT id FROM t WHERE id = 2;",
        ".output %s" % out,
        "SELECT id FROM t WHERE id = 3;",
        ".output",
        ".mode spark",
        ".read %s" % inc,
        ".tables",
        ".tables x%",
        ".mode",
    ]) + "\n"
    r = filled.ok("-S", stdin=script)
    assert r.out == "id\n1\n2\nincluded\nt\nspark\n"
    assert out.read_text() == "3\n"


def test_dot_schema(filled):
    r = filled.ok("-S", "-e", ".schema t")
    assert r.out.lstrip().upper().startswith("CREATE TABLE"), r
    assert r.out.rstrip().endswith(";"), r
    assert r.out == filled.ok("-S", "-e", ".schema").out


def test_dot_timer(wh):
    r = wh.ok("-S", "-e", ".timer on\nSELECT 1;")
    assert timing_lines(r.err) == [", Fetched 1 row(s)"]
    r = wh.ok("-e", ".timer off\nSELECT 1;")
    assert r.err == ""


def test_bad_dot_command_fails_the_script(wh):
    r = wh.sql("-S", "-e", ".frobnicate\nSELECT 1;")
    assert r.code == 1 and r.out == "", r
    assert "frobnicate" in r.err
    r = wh.sql("-S", "-e", ".mode fancy")
    assert r.code == 1 and "fancy" in r.err, r


def test_dot_help(wh):
    r = wh.ok("-S", "-e", ".help")
    for cmd in (".mode", ".headers", ".timer", ".maxrows", ".output", ".read", ".tables",
                ".schema", ".help", ".exit"):
        assert cmd in r.out, cmd
