"""spark_harness.py - the peers hudic is checked against: Apache Hudi on Spark (the 0.15.x
bundle as writer and reader, the 1.0.x bundle as a second reader) and hudi-rs (the `hudi`
Python package). Every reader's rows come back rendered exactly as `hudic table cat` prints
them (docs/formats/rendering.md, through tests/conformance/normalise.py), sorted by
(_hoodie_partition_path, _hoodie_record_key), so results compare with ==.

Spark runs in a worker process per bundle (one JVM cannot hold two Hudi bundles): SparkPeer
starts `python3 spark_harness.py serve VERSION`, which builds ONE local Spark session and
answers JSON requests (write, sql, read) one per line. The same functions (start_session,
spark_write, spark_read) work in-process for scripts that want a session of their own.

Where things are: versions in tests/compat/versions.env, jars in $HUDIC_CACHE/jars (default
~/.cache/hudic/jars; scripts/setup_compat fills it), JVM flags in JVM_OPTIONS below (the one
place), Spark logs in $HUDIC_CACHE/logs/spark-VERSION.log.
"""
import atexit
import base64
import datetime
import decimal
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "conformance"))

import pyarrow as pa  # noqa: E402

from normalise import canon_table, first_difference, round_rows  # noqa: E402


def _read_versions():
    out = {}
    with open(os.path.join(HERE, "versions.env")) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#") and "=" in line:
                k, v = line.split("=", 1)
                out[k.strip()] = v.strip()
    return out


VERSIONS = _read_versions()
WRITER = VERSIONS["HUDI_BUNDLE_WRITER"]  # "0.15.0"
READER2 = VERSIONS["HUDI_BUNDLE_READER2"]  # "1.0.2"
CACHE = os.environ.get("HUDIC_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "hudic")
JAR_DIR = os.path.join(CACHE, "jars")
LOG_DIR = os.path.join(CACHE, "logs")
REQUEST_TIMEOUT_S = 900  # one write or read; a hang is a failure, not a stuck CI run

# JVM flags for the Spark driver (the one place to add more). Java 17 needs no --add-opens of
# ours: Spark 3.5's launcher already gives the driver its JavaModuleOptions list (java.lang,
# java.nio, java.util, sun.nio.ch, ... opened to ALL-UNNAMED), and every Hudi 0.15 and 1.0.2
# write and read here (Kryo, upserts through the spillable map) runs with exactly that. Ours:
# a UTC default zone, so instant times and timestamps do not depend on the machine's zone;
# quiet logs; and JOL's probe below.
JVM_OPTIONS = [
    "-Duser.timezone=UTC",
    # Hudi's object-size estimator (shaded JOL) probes the HotSpot Serviceability Agent, which
    # fails here after spawning helper processes; skip the probe (JOL then estimates sizes
    # from Unsafe, which is all Hudi needs).
    "-Djol.skipHotspotSAAttach=true",
    "-Dlog4j2.configurationFile=file:" + os.path.join(HERE, "log4j2.properties"),
]

META_COLUMNS = ["_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_record_key",
                "_hoodie_partition_path", "_hoodie_file_name"]


class PeerError(Exception):
    """A peer failed a request; the message carries the peer's own error text."""


def bundle_jar(version):
    return os.path.join(JAR_DIR, "hudi-spark3.5-bundle_%s-%s.jar"
                        % (VERSIONS["SCALA_BINARY"], version))


def spark_missing(version=WRITER):
    """None when Spark with the given Hudi bundle can run here, else the reason it cannot."""
    try:
        import importlib.metadata as md
        v = md.version("pyspark")
    except Exception:
        return "pyspark is not installed (run scripts/setup_compat)"
    if not v.startswith("3.5"):
        return "pyspark %s installed, the harness needs 3.5.x (run scripts/setup_compat)" % v
    if not shutil.which("java"):
        return "java is not installed (run scripts/setup_compat)"
    if not os.path.exists(bundle_jar(version)):
        return "%s missing (run scripts/setup_compat)" % bundle_jar(version)
    return None


def hudi_rs_missing():
    try:
        import hudi  # noqa: F401
    except Exception as e:
        return "hudi-rs (pip package hudi) is not importable: %s" % e
    return None


# ---- Hudi write options ------------------------------------------------------------------------

KEYGENS = {
    "simple": "org.apache.hudi.keygen.SimpleKeyGenerator",
    "complex": "org.apache.hudi.keygen.ComplexKeyGenerator",
    "nonpartitioned": "org.apache.hudi.keygen.NonpartitionedKeyGenerator",
    "timestamp": "org.apache.hudi.keygen.TimestampBasedKeyGenerator",
    "custom": "org.apache.hudi.keygen.CustomKeyGenerator",
}
PAYLOADS = {
    # Latest write wins against the stored record (precombine only dedups within a batch).
    "latest": "org.apache.hudi.common.model.OverwriteWithLatestAvroPayload",
    # The record with the larger ordering (precombine) value wins, stored or incoming.
    "ordering": "org.apache.hudi.common.model.DefaultHoodieRecordPayload",
}


def write_options(table, record_key, operation="upsert", precombine=None, partition=None,
                  keygen=None, hive_style=False, payload=None, meta_fields=True, extra=None):
    """The Hudi datasource options for one COW write: table version 6, no metadata table (so
    hudic can read what Spark writes), direct markers and no embedded timeline server (fewer
    moving parts), parallelism 2. `partition` is a field name or a comma list, or None."""
    if keygen is None:
        keygen = "nonpartitioned" if not partition else (
            "complex" if "," in record_key or "," in partition else "simple")
    o = {
        "hoodie.table.name": table,
        "hoodie.datasource.write.table.type": "COPY_ON_WRITE",
        "hoodie.datasource.write.operation": operation,
        "hoodie.datasource.write.recordkey.field": record_key,
        "hoodie.datasource.write.partitionpath.field": partition or "",
        "hoodie.datasource.write.keygenerator.class": KEYGENS.get(keygen, keygen),
        "hoodie.datasource.write.hive_style_partitioning": "true" if hive_style else "false",
        "hoodie.metadata.enable": "false",
        "hoodie.write.table.version": "6",  # 1.0.x; 0.15 writes version 6 anyway
        "hoodie.embed.timeline.server": "false",
        "hoodie.write.markers.type": "DIRECT",
        "hoodie.populate.meta.fields": "true" if meta_fields else "false",
        "hoodie.insert.shuffle.parallelism": "2",
        "hoodie.upsert.shuffle.parallelism": "2",
        "hoodie.bulkinsert.shuffle.parallelism": "2",
        "hoodie.delete.shuffle.parallelism": "2",
    }
    if precombine:
        o["hoodie.datasource.write.precombine.field"] = precombine
        o["hoodie.table.precombine.field"] = precombine
    if payload:
        o["hoodie.datasource.write.payload.class"] = PAYLOADS.get(payload, payload)
        o["hoodie.compaction.payload.class"] = PAYLOADS.get(payload, payload)
    if extra:
        o.update(extra)
    return o


# ---- In-process Spark --------------------------------------------------------------------------

def start_session(version=WRITER, app="hudic-compat"):
    """One local Spark session with the given Hudi bundle: local[2], Kryo, Hudi's session
    extension and catalog, 2 shuffle partitions, UTC, no UI, ERROR-level logs."""
    os.environ["TZ"] = "UTC"
    time.tzset()
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    scratch = tempfile.mkdtemp(prefix="hudic-spark-%s-" % version)
    atexit.register(shutil.rmtree, scratch, True)
    b = (SparkSession.builder.master("local[2]").appName(app)
         .config("spark.jars", bundle_jar(version))
         .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
         .config("spark.kryo.registrator", "org.apache.spark.HoodieSparkKryoRegistrar")
         .config("spark.sql.extensions", "org.apache.spark.sql.hudi.HoodieSparkSessionExtension")
         .config("spark.sql.catalog.spark_catalog",
                 "org.apache.spark.sql.hudi.catalog.HoodieCatalog")
         .config("spark.sql.shuffle.partitions", "2")
         .config("spark.default.parallelism", "2")
         .config("spark.sql.session.timeZone", "UTC")
         .config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false")
         .config("spark.driver.host", "127.0.0.1")
         .config("spark.driver.bindAddress", "127.0.0.1")
         .config("spark.driver.memory", "2g")
         .config("spark.local.dir", scratch)
         .config("spark.sql.warehouse.dir", os.path.join(scratch, "warehouse"))
         .config("spark.driver.extraJavaOptions", " ".join(JVM_OPTIONS)))
    spark = b.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def _to_py(v, dt):
    """A JSON value (as tests write rows) -> the Python value Spark wants for type dt. Dates
    and timestamps are ISO strings, decimals strings or numbers, binary base64."""
    from pyspark.sql import types as T
    if v is None:
        return None
    if isinstance(dt, T.DateType):
        return datetime.date.fromisoformat(v)
    if isinstance(dt, T.TimestampType):
        d = datetime.datetime.fromisoformat(v.replace("Z", "+00:00"))
        if d.tzinfo is None:
            d = d.replace(tzinfo=datetime.timezone.utc)
        return d
    if isinstance(dt, T.DecimalType):
        return decimal.Decimal(str(v))
    if isinstance(dt, T.BinaryType):
        return bytearray(base64.b64decode(v))
    if isinstance(dt, (T.FloatType, T.DoubleType)):
        return float(v)
    if isinstance(dt, T.ArrayType):
        return [_to_py(x, dt.elementType) for x in v]
    if isinstance(dt, T.MapType):
        items = v.items() if isinstance(v, dict) else ((e["key"], e["value"]) for e in v)
        return {_to_py(k, dt.keyType): _to_py(x, dt.valueType) for k, x in items}
    if isinstance(dt, T.StructType):
        return tuple(_to_py(v.get(f.name), f.dataType) for f in dt.fields)
    return v


def _arrow_type(dt):
    from pyspark.sql import types as T
    simple = {T.BooleanType: pa.bool_(), T.ByteType: pa.int8(), T.ShortType: pa.int16(),
              T.IntegerType: pa.int32(), T.LongType: pa.int64(), T.FloatType: pa.float32(),
              T.DoubleType: pa.float64(), T.StringType: pa.string(), T.BinaryType: pa.binary(),
              T.DateType: pa.date32(), T.TimestampType: pa.timestamp("us", tz="UTC"),
              T.TimestampNTZType: pa.timestamp("us"), T.NullType: pa.null()}
    if type(dt) in simple:
        return simple[type(dt)]
    if isinstance(dt, T.DecimalType):
        return pa.decimal128(dt.precision, dt.scale)
    if isinstance(dt, T.ArrayType):
        return pa.list_(pa.field("element", _arrow_type(dt.elementType), dt.containsNull))
    if isinstance(dt, T.MapType):
        return pa.map_(pa.field("key", _arrow_type(dt.keyType), False),
                       pa.field("value", _arrow_type(dt.valueType), dt.valueContainsNull))
    if isinstance(dt, T.StructType):
        return pa.struct([pa.field(f.name, _arrow_type(f.dataType), f.nullable)
                          for f in dt.fields])
    raise TypeError("spark_harness: no Arrow type for Spark type %s" % dt)


def _arrow_value(v, dt):
    """A collected Spark value -> what pa.array accepts for _arrow_type(dt). The worker runs
    with TZ=UTC, so pyspark's naive datetimes are UTC wall-clock times."""
    from pyspark.sql import types as T
    if v is None:
        return None
    if isinstance(dt, T.TimestampType):
        return v.replace(tzinfo=datetime.timezone.utc) if v.tzinfo is None else v
    if isinstance(dt, T.BinaryType):
        return bytes(v)
    if isinstance(dt, T.ArrayType):
        return [_arrow_value(x, dt.elementType) for x in v]
    if isinstance(dt, T.MapType):
        return [(_arrow_value(k, dt.keyType), _arrow_value(x, dt.valueType))
                for k, x in v.items()]
    if isinstance(dt, T.StructType):
        return {f.name: _arrow_value(v[i], f.dataType) for i, f in enumerate(dt.fields)}
    return v


def dataframe_to_arrow(df):
    """A Spark DataFrame -> pa.Table, without pyspark's Arrow path (which needs pandas)."""
    rows = df.collect()
    arrays, fields = [], []
    for i, f in enumerate(df.schema.fields):
        t = _arrow_type(f.dataType)
        arrays.append(pa.array([_arrow_value(r[i], f.dataType) for r in rows], type=t))
        fields.append(pa.field(f.name, t, f.nullable))
    return pa.Table.from_arrays(arrays, schema=pa.schema(fields))


def spark_write(spark, path, rows, schema, options, mode="append"):
    """Writes rows (dicts of JSON values) with the Hudi datasource. schema is a Spark DDL
    string ("id int, name string, ts long"). mode "overwrite" creates the table afresh."""
    st = spark.createDataFrame([], schema).schema
    data = [tuple(_to_py(r.get(f.name), f.dataType) for f in st.fields) for r in rows]
    df = spark.createDataFrame(data, st)
    df.write.format("hudi").options(**options).mode(mode).save(path)


def spark_sql(spark, statements):
    """Runs SQL statements in order; returns the rendered rows of the last one."""
    df = None
    for s in statements:
        df = spark.sql(s)
    if df is None:
        return []
    return canon_table(dataframe_to_arrow(df))


def spark_read(spark, path, as_of=None, incremental=None, columns=None, options=None,
               conf=None):
    """Reads a Hudi table: snapshot, time travel (as_of instant) or incremental
    ((begin, end] as a pair). Returns (pa.Table) with Spark's column order. `conf` holds
    session settings for this read only."""
    saved = {}
    for k, v in (conf or {}).items():
        saved[k] = spark.conf.get(k, None)
        spark.conf.set(k, v)
    try:
        return _spark_read(spark, path, as_of, incremental, columns, options)
    finally:
        for k, v in saved.items():
            if v is None:
                spark.conf.unset(k)
            else:
                spark.conf.set(k, v)


def _spark_read(spark, path, as_of, incremental, columns, options):
    r = spark.read.format("hudi")
    if as_of:
        r = r.option("as.of.instant", as_of)
    if incremental:
        begin, end = incremental
        r = (r.option("hoodie.datasource.query.type", "incremental")
             .option("hoodie.datasource.read.begin.instanttime", begin))
        if end:
            r = r.option("hoodie.datasource.read.end.instanttime", end)
    for k, v in (options or {}).items():
        r = r.option(k, v)
    df = r.load(path)
    if columns:
        df = df.select(*columns)
    return dataframe_to_arrow(df)


# ---- Result rows -------------------------------------------------------------------------------

def _sort_key(row, key_columns):
    return tuple("" if row.get(c) is None else json.dumps(row.get(c), sort_keys=True)
                 for c in key_columns)


def sort_rows(rows, key_columns=None):
    """Rows in a reader-independent order: by partition path and record key when the meta
    columns are there, else by key_columns, else by the whole row."""
    if key_columns is None:
        have = set(rows[0]) if rows else set()
        if {"_hoodie_partition_path", "_hoodie_record_key"} <= have and not any(
                r.get("_hoodie_record_key") is None for r in rows):
            key_columns = ["_hoodie_partition_path", "_hoodie_record_key"]
    if key_columns:
        return sorted(rows, key=lambda r: _sort_key(r, key_columns))
    return sorted(rows, key=lambda r: json.dumps(r, sort_keys=True))


class Result:
    """What one reader returned: column names in the reader's order, rendered rows sorted
    with sort_rows, and the Arrow schema (to compare float32 values at float32 width)."""

    def __init__(self, columns, rows, schema=None, reader=""):
        self.columns = columns
        self.rows = rows
        self.schema = schema
        self.reader = reader

    @classmethod
    def from_arrow(cls, table, reader="", key_columns=None):
        rows = sort_rows(canon_table(table), key_columns)
        return cls(list(table.schema.names), rows, table.schema, reader)

    def to_json(self):
        return {"columns": self.columns, "rows": self.rows, "reader": self.reader,
                "schema": base64.b64encode(self.schema.serialize().to_pybytes()).decode()
                if self.schema is not None else None}

    @classmethod
    def from_json(cls, j):
        schema = None
        if j.get("schema"):
            schema = pa.ipc.read_schema(pa.py_buffer(base64.b64decode(j["schema"])))
        # Rows keep the reader's column order even if the JSON was written with sorted keys.
        rows = [{c: r[c] for c in j["columns"] if c in r} for r in j["rows"]]
        return cls(j["columns"], rows, schema, j.get("reader", ""))

    def __repr__(self):
        return "<%s: %d rows, columns %s>" % (self.reader, len(self.rows), self.columns)


def difference(expected, got, what="rows", ignore=(), ordered_columns=False):
    """None when got has the same rows as expected, else one line saying where they first
    differ. Values compare after rounding float32 columns to float32 (so hudic's shortest
    decimal text and pyarrow's float32 agree); `ignore` drops columns from both sides; column
    order is checked only with ordered_columns."""
    a = [{k: v for k, v in r.items() if k not in ignore} for r in expected.rows]
    b = [{k: v for k, v in r.items() if k not in ignore} for r in got.rows]
    if expected.schema is not None:
        a = round_rows(a, expected.schema)
        b = round_rows(b, expected.schema)
    if ordered_columns:
        ca = [c for c in expected.columns if c not in ignore]
        cb = [c for c in got.columns if c not in ignore]
        if ca != cb:
            return "%s: %s columns %s, %s columns %s" % (what, expected.reader, ca,
                                                         got.reader, cb)
    else:
        a = [dict(sorted(r.items())) for r in a]
        b = [dict(sorted(r.items())) for r in b]
    if len(a) != len(b):
        ka = [r.get("_hoodie_record_key") for r in a]
        kb = [r.get("_hoodie_record_key") for r in b]
        return "%s: %s has %d rows, %s has %d (keys %s vs %s)" % (
            what, expected.reader, len(a), got.reader, len(b), ka[:20], kb[:20])
    for i, (x, y) in enumerate(zip(a, b)):
        d = first_difference(x, y, "%s row %d (%s vs %s)" % (what, i, expected.reader,
                                                              got.reader))
        if d:
            return d
    return None


# ---- Spark DDL as Arrow (for writers other than Spark: the same rows, the same types) -----------

_DDL_SIMPLE = {"boolean": pa.bool_(), "tinyint": pa.int8(), "byte": pa.int8(),
               "smallint": pa.int16(), "short": pa.int16(), "int": pa.int32(),
               "integer": pa.int32(), "bigint": pa.int64(), "long": pa.int64(),
               "float": pa.float32(), "double": pa.float64(), "string": pa.string(),
               "binary": pa.binary(), "date": pa.date32(),
               "timestamp": pa.timestamp("us", tz="UTC")}


def _ddl_split(text, sep=","):
    """Splits at top-level separators (not inside <> or ())."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        if ch == sep and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _ddl_type(t):
    t = t.strip()
    low = t.lower()
    if low in _DDL_SIMPLE:
        return _DDL_SIMPLE[low]
    if low.startswith("decimal("):
        p, s = low[8:-1].split(",")
        return pa.decimal128(int(p), int(s))
    if low.startswith("array<"):
        return pa.list_(pa.field("element", _ddl_type(t[6:-1])))
    if low.startswith("map<"):
        k, v = _ddl_split(t[4:-1])
        return pa.map_(pa.field("key", _ddl_type(k), False), pa.field("value", _ddl_type(v)))
    if low.startswith("struct<"):
        fields = []
        for f in _ddl_split(t[7:-1]):
            n, ft = f.split(":", 1)
            fields.append(pa.field(n.strip(), _ddl_type(ft)))
        return pa.struct(fields)
    raise ValueError("spark_harness: unsupported DDL type %r" % t)


def arrow_schema(ddl):
    """A Spark DDL string ("id int, tags array<string>") as a pyarrow schema, Spark's own
    mapping (timestamp = microseconds, UTC)."""
    fields = []
    for col in _ddl_split(ddl):
        n, t = col.split(None, 1)
        fields.append(pa.field(n, _ddl_type(t)))
    return pa.schema(fields)


def _arrow_py(v, t):
    if v is None:
        return None
    if pa.types.is_date32(t):
        return datetime.date.fromisoformat(v)
    if pa.types.is_timestamp(t):
        return datetime.datetime.fromisoformat(v.replace("Z", "+00:00"))
    if pa.types.is_decimal(t):
        return decimal.Decimal(str(v))
    if pa.types.is_binary(t):
        return base64.b64decode(v)
    if pa.types.is_floating(t):
        return float(v)
    if pa.types.is_list(t):
        return [_arrow_py(x, t.value_type) for x in v]
    if pa.types.is_map(t):
        items = v.items() if isinstance(v, dict) else ((e["key"], e["value"]) for e in v)
        return [(_arrow_py(k, t.key_type), _arrow_py(x, t.item_type)) for k, x in items]
    if pa.types.is_struct(t):
        return {t.field(i).name: _arrow_py(v.get(t.field(i).name), t.field(i).type)
                for i in range(t.num_fields)}
    return v


def arrow_rows(rows, schema):
    """Rows written as for spark_write (JSON values) -> a pa.Table of `schema`."""
    cols = [pa.array([_arrow_py(r.get(f.name), f.type) for r in rows], type=f.type)
            for f in schema]
    return pa.Table.from_arrays(cols, schema=schema)


# ---- Timeline (read directly, no peer needed) ---------------------------------------------------

WRITE_ACTIONS = ("commit", "deltacommit", "replacecommit")


def completed_instants(path, actions=WRITE_ACTIONS):
    """Completed instants of a table's active timeline as (time, action), oldest first.
    Layout 1 (table version 6): .hoodie/<time>.<action>; layout 2 (versions 8 and 9):
    .hoodie/timeline/<time>_<completion>.<action>."""
    out = []
    t2 = os.path.join(path, ".hoodie", "timeline")
    if os.path.isdir(t2):
        for name in os.listdir(t2):
            stem, _, action = name.partition(".")
            if action in actions and "_" in stem:
                out.append((stem.split("_")[0], action))
    else:
        for name in os.listdir(os.path.join(path, ".hoodie")):
            stem, _, action = name.partition(".")
            if action in actions and stem.isdigit():
                out.append((stem, action))
    return sorted(out)


def commit_schema_columns(path, instant=None):
    """Field names of the writer schema in the newest completed commit at or before `instant`
    (layout 1, JSON commit files): the data columns in table order, without meta columns."""
    done = [(t, a) for t, a in completed_instants(path) if instant is None or t <= instant]
    for t, a in reversed(done):
        with open(os.path.join(path, ".hoodie", "%s.%s" % (t, a))) as f:
            meta = json.load(f)
        schema = (meta.get("extraMetadata") or {}).get("schema")
        if schema:
            return [fl["name"] for fl in json.loads(schema)["fields"]]
    return None


def table_properties(path):
    props = {}
    with open(os.path.join(path, ".hoodie", "hoodie.properties"), encoding="latin-1") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#") and "=" in line:
                k, v = line.split("=", 1)
                props[k] = v.replace("\\:", ":").replace("\\=", "=")
    return props


# ---- hudi-rs -----------------------------------------------------------------------------------

def hudi_rs_read(path, as_of=None, incremental=None, columns=None, key_columns=None):
    """Reads with hudi-rs (Python package `hudi`); same semantics as spark_read."""
    from hudi import HudiQueryType, HudiReadOptions, HudiTableBuilder
    table = HudiTableBuilder.from_base_uri(path).build()
    opts = HudiReadOptions()
    if as_of:
        opts = opts.with_as_of_timestamp(as_of)
    if incremental:
        begin, end = incremental
        opts = opts.with_query_type(HudiQueryType.Incremental).with_start_timestamp(begin)
        if end:
            opts = opts.with_end_timestamp(end)
    if columns:
        opts = opts.with_projection(list(columns))
    batches = table.read(opts)
    if batches:
        t = pa.Table.from_batches(batches)
    else:
        schema = table.get_schema_with_meta_fields()
        if columns:
            schema = pa.schema([schema.field(c) for c in columns])
        t = schema.empty_table()
    return Result.from_arrow(t, "hudi-rs %s" % VERSIONS["HUDI_RS_VERSION"], key_columns)


# ---- Spark worker process ----------------------------------------------------------------------

class SparkPeer:
    """A Spark session with one Hudi bundle, in its own process. Requests are synchronous;
    a failed request raises PeerError with Spark's message (first lines of the Java trace)."""

    def __init__(self, version=WRITER):
        why = spark_missing(version)
        if why:
            raise PeerError(why)
        self.version = version
        os.makedirs(LOG_DIR, exist_ok=True)
        self.log_path = os.path.join(LOG_DIR, "spark-%s.log" % version)
        self._log = open(self.log_path, "wb")  # this run's log only: the cache stays small
        self._proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "serve", version],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, cwd=HERE)
        self._lines = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        t0 = time.time()
        hello = self._reply(REQUEST_TIMEOUT_S)
        self.start_s = time.time() - t0
        self.spark_version = hello.get("spark")

    def _pump(self):
        for line in self._proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _reply(self, timeout):
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            self.close()
            raise PeerError("Spark %s: no answer in %d s (log: %s)" % (self.version, timeout,
                                                                      self.log_path))
        if line is None:
            raise PeerError("Spark %s worker exited (log: %s):\n%s" % (
                self.version, self.log_path, self.log_tail()))
        j = json.loads(line)
        if not j.get("ok"):
            raise PeerError("Spark %s: %s" % (self.version, j.get("error")))
        return j

    def log_tail(self, n=40):
        try:
            with open(self.log_path, "rb") as f:
                return b"".join(f.readlines()[-n:]).decode("utf-8", "replace")
        except OSError:
            return ""

    def request(self, op, timeout=REQUEST_TIMEOUT_S, **args):
        if self._proc.poll() is not None:
            raise PeerError("Spark %s worker is not running (log: %s)" % (self.version,
                                                                          self.log_path))
        args["op"] = op
        self._proc.stdin.write((json.dumps(args) + "\n").encode())
        self._proc.stdin.flush()
        return self._reply(timeout)

    def write(self, path, rows, schema, options, mode="append"):
        """Writes and returns the newest completed write instant afterwards."""
        self.request("write", path=path, rows=rows, schema=schema, options=options, mode=mode)
        done = completed_instants(path)
        return done[-1][0] if done else None

    def sql(self, *statements):
        return self.request("sql", statements=list(statements))["rows"]

    def read(self, path, as_of=None, incremental=None, columns=None, options=None,
             key_columns=None, conf=None):
        j = self.request("read", path=path, as_of=as_of, incremental=incremental,
                         columns=columns, options=options, key_columns=key_columns, conf=conf)
        return Result.from_json(j["result"])

    def close(self):
        if self._proc.poll() is None:
            try:
                self._proc.stdin.write(b'{"op": "exit"}\n')
                self._proc.stdin.flush()
                self._proc.wait(timeout=60)
            except Exception:
                self._proc.kill()
                self._proc.wait()
        self._log.close()


def serve(version):
    """The worker loop: answers one JSON request per stdin line with one JSON line on the
    protocol fd. The JVM inherits fd 1, so fd 1 is pointed at stderr first: whatever Spark
    prints cannot corrupt the protocol."""
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    def answer(obj):
        proto.write(json.dumps(obj) + "\n")

    try:
        spark = start_session(version)
    except Exception:
        answer({"ok": False, "error": _short_trace()})
        return 1
    answer({"ok": True, "spark": spark.version, "hudi": version})
    for line in sys.stdin:
        req = json.loads(line)
        op = req.get("op")
        t0 = time.time()
        try:
            if op == "exit":
                break
            if op == "write":
                spark_write(spark, req["path"], req["rows"], req["schema"], req["options"],
                            req.get("mode", "append"))
                answer({"ok": True})
            elif op == "sql":
                answer({"ok": True, "rows": spark_sql(spark, req["statements"])})
            elif op == "read":
                t = spark_read(spark, req["path"], req.get("as_of"), req.get("incremental"),
                               req.get("columns"), req.get("options"), req.get("conf"))
                res = Result.from_arrow(t, "spark-hudi %s" % version, req.get("key_columns"))
                answer({"ok": True, "result": res.to_json()})
            else:
                answer({"ok": False, "error": "unknown op %r" % op})
        except Exception:
            answer({"ok": False, "error": _short_trace()})
        sys.stderr.write("spark_harness: %s %s took %.1f s\n" % (op, req.get("path", ""),
                                                                time.time() - t0))
        sys.stderr.flush()
    spark.stop()
    return 0


def _short_trace():
    """The exception lines of a failure without stack frames: the Python exception, then for
    a Java one its class and message and every "Caused by" (the root cause is last)."""
    lines = [l for l in traceback.format_exc().splitlines() if l.strip()
             and not l.startswith((" ", "\t")) and l != "Traceback (most recent call last):"]
    head = [l for l in lines if not l.startswith("Caused by:")][:4]
    causes = [l[:400] for l in lines if l.startswith("Caused by:")]
    return "\n".join(head + causes)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "serve":
        sys.exit(serve(sys.argv[2]))
    sys.stderr.write("usage: spark_harness.py serve HUDI_VERSION\n")
    sys.exit(2)
