-- DDL beyond the seed page: every type of docs/SQL.md "Types", clauses in any order,
-- databases, SHOW/DESCRIBE forms, ALTER TABLE forms, indexes, Flink forms and EXPLAIN.
CREATE TABLE db.all_types (
  b BOOLEAN, t TINYINT, t2 BYTE, s SMALLINT, s2 SHORT, i INT, i2 INTEGER, l BIGINT, l2 LONG,
  f FLOAT, f2 REAL, d DOUBLE, dp DOUBLE PRECISION, dec DECIMAL, dec2 DECIMAL(10, 2), dec3 DEC(5), n NUMERIC(38, 0),
  str STRING, c CHAR(3), vc VARCHAR(20), bin BINARY, dt DATE, ts TIMESTAMP, tsn TIMESTAMP_NTZ,
  arr ARRAY<INT>, nested ARRAY<ARRAY<STRING>>, m MAP<STRING, BIGINT>, mm MAP<STRING,MAP<STRING,INT>>,
  st STRUCT<a: INT, b STRING NOT NULL COMMENT 'bee', c: ARRAY<STRUCT<x:DOUBLE>>>, e STRUCT<>,
  id INT NOT NULL COMMENT 'the key'
) USING hudi
OPTIONS (primaryKey = 'id', preCombineField 'ts', hoodie.datasource.write.payload.class = "org.apache.hudi.common.model.OverwriteWithLatestAvroPayload", n = 1, flag = true, neg = -2.5)
COMMENT 'all the types'
PARTITIONED BY (dt)
LOCATION '/tmp/all_types'
TBLPROPERTIES ('type' = 'mor');
CREATE EXTERNAL TABLE IF NOT EXISTS t2 (a INT) USING hudi PARTITIONED BY (p STRING) LOCATION '/x';
CREATE OR REPLACE TABLE t3 USING hudi AS (SELECT 1 AS a);
CREATE TABLE merge_source2 (id int, name string, flag string, dt string, hh string) using parquet;
CREATE TABLE t4 (a INT) STORED AS parquet;
CREATE DATABASE hudidb;
CREATE DATABASE IF NOT EXISTS db2 COMMENT 'c' LOCATION '/w/db2' WITH DBPROPERTIES (k = 'v');
CREATE SCHEMA s1;
USE hudidb;
USE DATABASE db2;
USE default;
DROP DATABASE IF EXISTS db2 CASCADE;
DROP SCHEMA s1 RESTRICT;
DROP TABLE hudi_table;
DROP TABLE IF EXISTS db.t PURGE;
TRUNCATE TABLE hudi_table;
TRUNCATE TABLE hudi_table PARTITION (dt = '2021-12-09');
SHOW TABLES;
SHOW TABLES IN hudidb LIKE 'hudi*';
SHOW TABLES FROM db 'x|y';
SHOW DATABASES;
SHOW SCHEMAS LIKE 'h*';
SHOW PARTITIONS hudi_table PARTITION (dt = '2021-12-09');
SHOW TBLPROPERTIES hudi_table;
SHOW TBLPROPERTIES hudi_table ('primaryKey');
SHOW COLUMNS IN hudi_table;
SHOW COLUMNS FROM t IN db;
SHOW CREATE TABLE hudi_table;
SHOW INDEXES FROM hudi_table;
SHOW INDEXES IN TABLE db.hudi_table;
SHOW CURRENT NAMESPACE;
SHOW CATALOGS;
SHOW FUNCTIONS LIKE 'date*';
DESCRIBE hudi_table;
DESC TABLE EXTENDED hudi_table;
DESCRIBE FORMATTED db.hudi_table PARTITION (dt = '2021-12-09');
DESC hudi_table fare;
DESCRIBE QUERY SELECT * FROM t;
DESC SELECT 1;
DESCRIBE DATABASE EXTENDED hudidb;
ALTER TABLE t ADD COLUMNS (a INT COMMENT 'new', s.b STRING AFTER x, c BIGINT FIRST);
ALTER TABLE t ADD COLUMN d DOUBLE;
ALTER TABLE t ALTER COLUMN a TYPE BIGINT;
ALTER TABLE t CHANGE COLUMN a a BIGINT COMMENT 'wider' AFTER b;
ALTER TABLE t CHANGE a TYPE BIGINT;
ALTER TABLE t ALTER COLUMN s.b COMMENT 'c' FIRST;
ALTER TABLE t ALTER COLUMN a DROP NOT NULL;
ALTER TABLE t ALTER COLUMN a SET NOT NULL;
ALTER TABLE t DROP COLUMN a.b.c;
ALTER TABLE t DROP COLUMNS x, y;
ALTER TABLE t DROP COLUMNS IF EXISTS (x, y);
ALTER TABLE t RENAME COLUMN a.b TO c;
ALTER TABLE t DROP IF EXISTS PARTITION (dt = '2021-12-09'), PARTITION (dt = '2021-12-10') PURGE;
ALTER TABLE t ADD IF NOT EXISTS PARTITION (dt = '2021-12-11') LOCATION '/p';
ALTER TABLE t SET TBLPROPERTIES ('a' = 'b', c.d = 1);
CREATE INDEX record_index ON hudi_table (uuid);
CREATE INDEX idx_bloom ON hudi_indexed_table USING bloom_filters(driver) OPTIONS(expr='identity');
CREATE INDEX datestr ON hudi_indexed_table USING column_stats(ts) OPTIONS(expr='from_unixtime', format = 'yyyy-MM-dd');
CREATE INDEX i2 ON TABLE t (a OPTIONS (k = 'v'), b);
DROP INDEX record_index ON hudi_table;
DROP INDEX IF EXISTS secondary_index_idx ON TABLE hudi_table;
REFRESH INDEX idx ON hudi_table;
REFRESH TABLE hudi_table;
EXPLAIN SELECT * FROM t WHERE id = 1;
EXPLAIN EXTENDED UPDATE t SET a = 1;
CREATE TABLE hudi_table(
  ts BIGINT,
  uuid VARCHAR(40) PRIMARY KEY NOT ENFORCED,
  rider VARCHAR(20),
  fare DOUBLE,
  t3 TIMESTAMP(3),
  ltz TIMESTAMP_LTZ(3),
  ltz2 TIMESTAMP(6) WITH LOCAL TIME ZONE,
  r ROW<a INT, b STRING>,
  b BYTES,
  city VARCHAR(20)
)
PARTITIONED BY (`city`)
WITH (
  'connector' = 'hudi',
  'path' = 'file:///tmp/hudi_table',
  'table.type' = 'MERGE_ON_READ'
);
CREATE TABLE t5 (a INT, b STRING, CONSTRAINT pk PRIMARY KEY (a, b) NOT ENFORCED) WITH ('connector' = 'hudi');
CREATE CATALOG hudi_dfs WITH ('type' = 'hudi', 'mode' = 'dfs', 'catalog.path' = '/tmp/warehouse');
USE CATALOG hudi_dfs;
set sql-client.execution.result-mode = tableau;
SET 'execution.runtime-mode' = 'batch';
SET hoodie.spark.sql.insert.into.operation = 'bulk_insert';
SET spark.sql.session.timeZone=UTC;
SET hoodie.datasource.write.operation;
SET `weird.key` = v a l u e;
SET;
SET -v;
SET TIME ZONE 'UTC';
SET TIME ZONE LOCAL;
RESET;
RESET hoodie.datasource.write.operation;
