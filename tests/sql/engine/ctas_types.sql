-- CTAS from a Parquet file of pandas/pyarrow types (tests/data/pyarrow): timestamps in nanos
-- and millis become Spark's micros timestamps, int8/int16 become int, as Spark-Hudi makes them;
-- then the table evolves and old files read through the new schema.
SELECT * FROM parquet.`${DATA}/pyarrow/types.parquet` ORDER BY id;
CREATE TABLE t USING hudi TBLPROPERTIES (primaryKey = 'id')
AS SELECT * FROM parquet.`${DATA}/pyarrow/types.parquet`;
DESCRIBE t;
SELECT id, ts_ns, ts_ms_utc, ts_us, tiny, small FROM t ORDER BY id;
-- without schema on read: the columns keep their types through ALTER
ALTER TABLE t ADD COLUMNS (note STRING);
DESCRIBE t;
INSERT INTO t VALUES (3, TIMESTAMP_NTZ '2020-05-06 07:08:09.123456', TIMESTAMP '2020-05-06 07:08:09.123', TIMESTAMP_NTZ '2020-05-06 07:08:09', 3, 3, 'n');
SELECT id, ts_ns, ts_ms_utc, tiny, note FROM t WHERE ts_ns > TIMESTAMP_NTZ '2000-01-01 00:00:00' ORDER BY id;
-- schema on read: a timestamp_ntz column has no InternalSchema type, so it is refused clearly
SET hoodie.schema.on.read.enable=true;
ALTER TABLE t ADD COLUMNS (other STRING);
-- a table of millis timestamps in UTC evolves under schema on read: old files rescale to micros
CREATE TABLE u USING hudi TBLPROPERTIES (primaryKey = 'id')
AS SELECT id, ts_ms_utc FROM parquet.`${DATA}/pyarrow/types.parquet`;
ALTER TABLE u ADD COLUMNS (note STRING);
INSERT INTO u VALUES (3, TIMESTAMP '2020-05-06 07:08:09.123456', 'n');
SELECT id, ts_ms_utc, note FROM u ORDER BY id;
SELECT id FROM u WHERE ts_ms_utc = TIMESTAMP '2024-01-02 03:04:05.678';
