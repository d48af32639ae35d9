"""gen_evolved_tables.py - writes small schema-evolved Hudi tables with Apache Hudi 0.15 on
Spark 3.5 (the project's own test data, tests/data/spark-evolved) and, next to each table
<name>/, <name>.expected.json: the steps that made it, the rows Spark reads after the last step
(every column, rendered as docs/formats/rendering.md says, sorted by partition path and record
key), Spark's DESCRIBE of that read and the error texts of the illegal ALTERs tried on it.

    python3 tests/compat/gen_evolved_tables.py OUT_DIR [NAME ...]

Tables (each a copy-on-write table, table version 6, no metadata table):

  onwrite_seed     the walk-through of Hudi's schema evolution page ("Schema Evolution in
                   Action"): a second datasource upsert adds `newField` and makes `intToLong`
                   a long
  onwrite_newpart  the same two schemas, the second write into a new partition only (the old
                   partition keeps its int file without newField)
  onwrite_nested   datasource upserts: a struct gains a nullable field, a list<int> element
                   becomes long and a map<string,int> value becomes double
  sor_ddl          Spark SQL with hoodie.schema.on.read.enable=true: inserts between ADD
                   COLUMNS (top-level AFTER, nested AFTER), ALTER COLUMN TYPE (int->bigint,
                   double->string, float->decimal), RENAME COLUMN (top-level, nested), DROP
                   COLUMN and a dropped name added again
  sor_rename_drop  schema on read: drop col1, rename col2 to col1, insert

Spark cannot write fixed instant times, so regenerating gives other instants, file names and
commit times: the reference is the expected rows and DESCRIBE, not the bytes.
"""
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import spark_harness as h  # noqa: E402
from normalise import canon_table  # noqa: E402

SOR = "hoodie.schema.on.read.enable"
VECTORIZED = "spark.sql.parquet.enableVectorizedReader"

# Session settings for the SQL tables: no metadata table (hudic reads tables without one) and
# no timeline server, as h.write_options has for the datasource writes; and no small-file
# packing, so each INSERT writes a new file group and the files of every schema version stay in
# the latest snapshot (read through ids and conversions, not rewritten by Hudi's merge).
SQL_SETTINGS = [
    "SET hoodie.parquet.small.file.limit=0",
    "SET hoodie.metadata.enable=false",
    "SET hoodie.embed.timeline.server=false",
    "SET hoodie.write.markers.type=DIRECT",
    "SET hoodie.insert.shuffle.parallelism=2",
    "SET hoodie.upsert.shuffle.parallelism=2",
    "SET spark.sql.session.timeZone=UTC",
]


class Recorder:
    """Runs and records the steps of one table."""

    def __init__(self, spark, name, path):
        self.spark, self.name, self.path = spark, name, path
        self.steps = []
        self.errors = []

    def sql(self, stmt):
        self.steps.append({"sql": stmt})
        self.spark.sql(stmt).collect()

    def write(self, rows, schema, options, mode="append"):
        self.steps.append({"datasource_write": {"mode": mode, "schema": schema, "rows": rows,
                                                "options": options}})
        h.spark_write(self.spark, self.path, rows, schema, options, mode)

    def illegal(self, stmt):
        """Runs a statement Hudi must refuse; records the first line of its error."""
        try:
            self.spark.sql(stmt).collect()
        except Exception as e:  # pyspark's AnalysisException and Py4J errors alike
            self.errors.append({"sql": stmt, "error": error_text(e)})
            return
        raise RuntimeError("%s: Spark accepted %r" % (self.name, stmt))

    def insert(self, table, values):
        """INSERT INTO table VALUES (...), values given by column name in the order Spark's
        catalog has the columns now (partition columns last)."""
        cols = [f.name for f in self.spark.table(table).schema.fields
                if not f.name.startswith("_hoodie_")]
        rows = values if isinstance(values, list) else [values]
        tuples = []
        for v in rows:
            missing = [c for c in cols if c not in v]
            extra = [c for c in v if c not in cols]
            if missing or extra:
                raise RuntimeError("%s: insert has %s extra, %s missing (table %s)"
                                   % (self.name, extra, missing, cols))
            tuples.append("(%s)" % ", ".join(v[c] for c in cols))
        self.sql("INSERT INTO %s VALUES %s" % (table, ", ".join(tuples)))


def error_text(e):
    """The error as a user sees it: a Java exception's class and message, then each cause's
    ("caused by: ..."); pyspark's own exceptions by their message."""
    j = getattr(e, "java_exception", None) or getattr(e, "_origin", None)
    if j is None:
        return str(e).strip().splitlines()[0][:600]
    parts = []
    while j is not None and len(parts) < 6:
        parts.append(j.toString().strip().splitlines()[0][:600])
        c = j.getCause()
        j = c if c is not None and not c.equals(j) else None
    return " | caused by: ".join(parts)


def snapshot(spark, path, sor):
    """Spark's snapshot read of the table (schema on read as the table was written), rows
    rendered and sorted, and DESCRIBE of that read."""
    r = spark.read.format("hudi")
    if sor:
        r = r.option(SOR, "true")
    df = r.load(path)
    df.createOrReplaceTempView("evolved_snapshot")
    describe = [{"col_name": x[0], "data_type": x[1]}
                for x in spark.sql("DESCRIBE evolved_snapshot").collect()]
    conf, failed = {}, None
    try:
        t = h.dataframe_to_arrow(df)
    except Exception as e:
        # Hudi 0.15 refuses nested type changes in Spark's vectorized Parquet reader and says
        # to turn it off; recorded, then read as it says.
        failed = error_text(e)
        conf = {VECTORIZED: "false"}
        spark.conf.set(VECTORIZED, "false")
        try:
            t = h.dataframe_to_arrow(r.load(path))
        finally:
            spark.conf.unset(VECTORIZED)
    rows = h.sort_rows(canon_table(t))
    return list(t.schema.names), rows, describe, conf, failed


def gen_onwrite_seed(spark, rec):
    opts = h.write_options("hudi_trips_cow", "rowId", operation="upsert", precombine="preComb",
                           partition="partitionId", extra={"hoodie.index.type": "SIMPLE"})
    s1 = ("rowId string, partitionId string, preComb long, name string, versionId string, "
          "intToLong int")
    rec.write([{"rowId": "row_1", "partitionId": "part_0", "preComb": 0, "name": "bob",
                "versionId": "v_0", "intToLong": 0},
               {"rowId": "row_2", "partitionId": "part_0", "preComb": 0, "name": "john",
                "versionId": "v_0", "intToLong": 0},
               {"rowId": "row_3", "partitionId": "part_0", "preComb": 0, "name": "tom",
                "versionId": "v_0", "intToLong": 0}], s1, opts, mode="overwrite")
    s2 = ("rowId string, partitionId string, preComb long, name string, versionId string, "
          "intToLong long, newField string")
    rec.write([{"rowId": "row_2", "partitionId": "part_0", "preComb": 5, "name": "john",
                "versionId": "v_3", "intToLong": 3, "newField": "newField_1"},
               {"rowId": "row_5", "partitionId": "part_0", "preComb": 5, "name": "maroon",
                "versionId": "v_2", "intToLong": 2, "newField": "newField_1"},
               {"rowId": "row_9", "partitionId": "part_0", "preComb": 5, "name": "michael",
                "versionId": "v_2", "intToLong": 2, "newField": "newField_1"}], s2, opts)
    return False


def gen_onwrite_newpart(spark, rec):
    """The seed's two schemas, but the second write goes to a new partition only: the old
    partition keeps its file with intToLong as int and no newField."""
    opts = h.write_options("onwrite_newpart", "rowId", operation="upsert", precombine="preComb",
                           partition="partitionId", extra={"hoodie.index.type": "SIMPLE"})
    s1 = ("rowId string, partitionId string, preComb long, name string, versionId string, "
          "intToLong int")
    rec.write([{"rowId": "row_1", "partitionId": "part_0", "preComb": 0, "name": "bob",
                "versionId": "v_0", "intToLong": -7},
               {"rowId": "row_2", "partitionId": "part_0", "preComb": 0, "name": "john",
                "versionId": "v_0", "intToLong": 2147483647}], s1, opts, mode="overwrite")
    s2 = ("rowId string, partitionId string, preComb long, name string, versionId string, "
          "intToLong long, newField string")
    rec.write([{"rowId": "row_5", "partitionId": "part_1", "preComb": 5, "name": "maroon",
                "versionId": "v_2", "intToLong": 8589934592, "newField": "newField_1"},
               {"rowId": "row_9", "partitionId": "part_1", "preComb": 5, "name": "michael",
                "versionId": "v_2", "intToLong": 2, "newField": None}], s2, opts)
    return False


def gen_onwrite_nested(spark, rec):
    opts = h.write_options("onwrite_nested", "id", operation="upsert", precombine="ts",
                           partition="part")
    s1 = ("id string, part string, ts long, s struct<a:int,b:string>, l array<int>, "
          "m map<string,int>")
    rec.write([{"id": "k1", "part": "p1", "ts": 1, "s": {"a": 1, "b": "one"}, "l": [1, 2],
                "m": {"x": 1}},
               {"id": "k2", "part": "p2", "ts": 1, "s": {"a": 2, "b": "two"}, "l": [],
                "m": {"y": 2, "z": 3}},
               {"id": "k3", "part": "p2", "ts": 1, "s": None, "l": None, "m": None}],
              s1, opts, mode="overwrite")
    s2 = ("id string, part string, ts long, s struct<a:int,b:string,c:string>, l array<long>, "
          "m map<string,double>")
    rec.write([{"id": "k2", "part": "p2", "ts": 2, "s": {"a": 22, "b": "two", "c": "new"},
                "l": [4000000000], "m": {"y": 2.5}},
               {"id": "k4", "part": "p2", "ts": 2, "s": {"a": 4, "b": "four", "c": None},
                "l": [4, 5], "m": {"w": -1.25}}], s2, opts)
    return False


def sql_table(rec, table, ddl, partitioned, key="id", precombine="ts"):
    for s in SQL_SETTINGS:
        rec.sql(s)
    rec.sql("SET %s=true" % SOR)
    rec.sql("CREATE TABLE %s (%s) USING hudi %sTBLPROPERTIES (type = 'cow', primaryKey = '%s', "
            "preCombineField = '%s', 'hoodie.metadata.enable' = 'false') LOCATION '%s'"
            % (table, ddl, "PARTITIONED BY (part) " if partitioned else "", key, precombine,
               rec.path))


def gen_sor_ddl(spark, rec):
    """Every INSERT writes its own file (no small-file packing), so the snapshot holds files
    of each schema version: Spark reads them through ids (renamed, dropped and re-added
    columns) and type conversion. The UPDATE rewrites the file of row 2 only."""
    t = "sor_ddl"
    sql_table(rec, t, "id int, name string, price double, qty int, fl float, drop_me string, "
              "col_struct struct<a:int, b:string>, ts bigint, part string", True)
    rec.insert(t, [
        {"id": "1", "name": "'n1'", "price": "1.5D", "qty": "10", "fl": "CAST(2.5 AS FLOAT)",
         "drop_me": "'d1'", "col_struct": "named_struct('a', 1, 'b', 'b1')", "ts": "1000",
         "part": "'p1'"},
        {"id": "2", "name": "'n2'", "price": "2.25D", "qty": "20", "fl": "CAST(-0.5 AS FLOAT)",
         "drop_me": "'d2'", "col_struct": "named_struct('a', 2, 'b', 'b2')", "ts": "1000",
         "part": "'p2'"}])
    rec.sql("ALTER TABLE %s ADD COLUMNS (note string AFTER name)" % t)
    rec.sql("ALTER TABLE %s ADD COLUMNS (col_struct.x int AFTER a)" % t)
    rec.insert(t, {"id": "3", "name": "'n3'", "note": "'note3'", "price": "12345678.9D",
                   "qty": "-30", "fl": "CAST(0.1 AS FLOAT)", "drop_me": "'d3'",
                   "col_struct": "named_struct('a', 3, 'x', 33, 'b', 'b3')", "ts": "1001",
                   "part": "'p1'"})
    rec.sql("ALTER TABLE %s ALTER COLUMN qty TYPE bigint" % t)
    rec.sql("ALTER TABLE %s ALTER COLUMN price TYPE string" % t)
    rec.sql("ALTER TABLE %s ALTER COLUMN fl TYPE decimal(10, 2)" % t)
    rec.insert(t, {"id": "4", "name": "'n4'", "note": "'note4'", "price": "'4.5'",
                   "qty": "4000000000", "fl": "CAST(4.75 AS DECIMAL(10, 2))", "drop_me": "'d4'",
                   "col_struct": "named_struct('a', 4, 'x', 44, 'b', 'b4')", "ts": "1002",
                   "part": "'p2'"})
    rec.sql("UPDATE %s SET name = 'n2u', ts = 1003 WHERE id = 2" % t)
    rec.sql("ALTER TABLE %s RENAME COLUMN name TO full_name" % t)
    rec.sql("ALTER TABLE %s RENAME COLUMN col_struct.b TO bb" % t)
    rec.insert(t, {"id": "5", "full_name": "'n5'", "note": "'note5'", "price": "'5.5'",
                   "qty": "50", "fl": "CAST(5.5 AS DECIMAL(10, 2))", "drop_me": "'d5'",
                   "col_struct": "named_struct('a', 5, 'x', 55, 'bb', 'b5')", "ts": "1004",
                   "part": "'p2'"})
    rec.sql("ALTER TABLE %s DROP COLUMN drop_me" % t)
    rec.sql("ALTER TABLE %s DROP COLUMN note" % t)
    rec.sql("ALTER TABLE %s ADD COLUMNS (note string)" % t)
    rec.insert(t, {"id": "6", "full_name": "'n6'", "price": "'6.5'", "qty": "60",
                   "fl": "CAST(6.5 AS DECIMAL(10, 2))",
                   "col_struct": "named_struct('a', 6, 'x', 66, 'bb', 'b6')", "ts": "1005",
                   "note": "'new6'", "part": "'p2'"})
    # Illegal ALTERs: each must fail and leave the table as it is.
    rec.illegal("ALTER TABLE %s ADD COLUMNS (first_col int FIRST)" % t)
    rec.illegal("ALTER TABLE %s ALTER COLUMN price FIRST" % t)
    rec.illegal("ALTER TABLE %s RENAME COLUMN full_name TO price" % t)
    rec.illegal("ALTER TABLE %s RENAME COLUMN full_name TO PRICE" % t)
    rec.illegal("ALTER TABLE %s DROP COLUMN id" % t)
    rec.illegal("ALTER TABLE %s RENAME COLUMN id TO id2" % t)
    rec.illegal("ALTER TABLE %s ALTER COLUMN col_struct.a TYPE date" % t)
    rec.illegal("ALTER TABLE %s ADD COLUMNS (full_name string)" % t)
    rec.illegal("ALTER TABLE %s ADD COLUMNS (c2 int AFTER _hoodie_commit_time)" % t)
    return True


def gen_sor_rename_drop(spark, rec):
    t = "sor_rename_drop"
    sql_table(rec, t, "id int, col1 string, col2 string, ts bigint", False)
    rec.insert(t, {"id": "1", "col1": "'aaa'", "col2": "'bbb'", "ts": "1000"})
    rec.sql("ALTER TABLE %s DROP COLUMN col1" % t)
    rec.sql("ALTER TABLE %s RENAME COLUMN col2 TO col1" % t)
    rec.insert(t, {"id": "2", "col1": "'aaa'", "ts": "1000"})
    rec.illegal("ALTER TABLE %s ALTER COLUMN id TYPE date" % t)
    return True


TABLES = {
    "onwrite_seed": gen_onwrite_seed,
    "onwrite_newpart": gen_onwrite_newpart,
    "onwrite_nested": gen_onwrite_nested,
    "sor_ddl": gen_sor_ddl,
    "sor_rename_drop": gen_sor_rename_drop,
}


def generate(spark, out, name):
    path = os.path.join(out, name)
    shutil.rmtree(path, ignore_errors=True)
    for f in (path + ".expected.json",):
        if os.path.exists(f):
            os.remove(f)
    rec = Recorder(spark, name, path)
    sor = TABLES[name](spark, rec)
    columns, rows, describe, conf, failed = snapshot(spark, path, sor)
    spark.sql("RESET")  # drops the SETs (schema on read) before the next table
    spark.sql("DROP TABLE IF EXISTS %s" % name).collect()
    doc = {
        "table": name,
        "written_by": "Apache Hudi %s on Spark %s" % (h.WRITER, spark.version),
        "read_with": dict(({SOR: "true"} if sor else {}), **conf),
        "read_error_without": failed,
        "steps": rec.steps,
        "illegal_alters": rec.errors,
        "columns": columns,
        "describe": describe,
        "rows": rows,
    }
    write_expected(path + ".expected.json", doc)
    return doc


def write_expected(fname, doc):
    """The document as JSON with "rows" last and one row per line (JSON Lines inside JSON), so
    that tests in C read the rows with the library's JSON Lines parser."""
    head = {k: v for k, v in doc.items() if k != "rows"}
    text = json.dumps(head, indent=1)
    lines = [json.dumps(r) for r in doc["rows"]]
    with open(fname, "w") as f:
        f.write(text[:-2] + ',\n "rows": [\n' + ",\n".join(lines) + "\n ]\n}\n")


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    out = os.path.abspath(argv[1])
    names = argv[2:] or list(TABLES)
    for n in names:
        if n not in TABLES:
            sys.stderr.write("gen_evolved_tables: unknown table %s (have %s)\n"
                             % (n, ", ".join(TABLES)))
            return 2
    why = h.spark_missing(h.WRITER)
    if why:
        sys.stderr.write("gen_evolved_tables: %s\n" % why)
        return 1
    os.makedirs(out, exist_ok=True)
    spark = h.start_session(h.WRITER, "hudic-gen-evolved")
    try:
        for n in names:
            doc = generate(spark, out, n)
            sys.stderr.write("gen_evolved_tables: %s: %d rows, %d illegal ALTERs refused\n"
                             % (n, len(doc["rows"]), len(doc["illegal_alters"])))
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
