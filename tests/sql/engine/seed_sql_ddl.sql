-- Every Spark SQL and Flink SQL statement of Hudi 0.14.1's "SQL DDL" page, verbatim in the
-- page's order, except: file:///tmp/... locations point into the test's scratch folder, the
-- page's placeholder templates (${colName1}, ...) are left out, and the statements marked
-- "setup" or "between examples" are added so each example has what it needs (the page runs
-- CREATE TABLE parquet_table three times, which would fail the second time in Spark too).
-- setup: the Parquet dataset the CTAS examples load (file:///tmp/parquet_dataset/)
CREATE TABLE setup_parquet (id INT, name STRING, price DOUBLE, ts BIGINT, dt STRING)
USING parquet LOCATION '${TMP}/parquet_dataset';
INSERT INTO setup_parquet VALUES (1, 'a1', 10.0, 1000, '2021-12-09'), (2, 'a2', 20.0, 1001, '2021-12-09'),
  (3, 'a3', 30.0, 1002, '2021-12-10');
-- setup: a table written elsewhere, for "Create table from an external location"
CREATE TABLE setup_external (id INT, name STRING, ts BIGINT) USING hudi
TBLPROPERTIES (primaryKey = 'id', preCombineField = 'ts') LOCATION 'file://${TMP}/hudi_table/';
INSERT INTO setup_external VALUES (1, 'x', 1), (2, 'y', 2);

-- create a Hudi table
CREATE TABLE IF NOT EXISTS hudi_table (
 id INT,
 name STRING,
 price DOUBLE
) USING hudi;

CREATE TABLE IF NOT EXISTS hudi_table_partitioned (
 id BIGINT,
 name STRING,
 dt STRING,
 hh STRING
) USING hudi
TBLPROPERTIES (
 type = 'cow'
)
PARTITIONED BY (dt);

CREATE TABLE IF NOT EXISTS hudi_table_keyed (
 id INT,
 name STRING,
 price DOUBLE,
 ts BIGINT
) USING hudi
TBLPROPERTIES (
 type = 'cow',
 primaryKey = 'id',
 preCombineField = 'ts'
);

CREATE TABLE hudi_table_external
USING hudi
LOCATION 'file://${TMP}/hudi_table/';
SELECT id, name, ts FROM hudi_table_external ORDER BY id;
DESCRIBE hudi_table_external;

# create managed parquet table
CREATE TABLE parquet_table
USING parquet
LOCATION 'file://${TMP}/parquet_dataset/';

# CTAS by loading data into Hudi table
CREATE TABLE hudi_table_ctas
USING hudi
TBLPROPERTIES (
 type = 'cow',
 preCombineField = 'ts'
)
PARTITIONED BY (dt)
AS SELECT * FROM parquet_table;
SELECT id, name, price, ts, dt FROM hudi_table_ctas ORDER BY id;
SHOW PARTITIONS hudi_table_ctas;

-- between examples
DROP TABLE parquet_table;
DROP TABLE hudi_table_ctas;

# create managed parquet table
CREATE TABLE parquet_table
USING parquet
LOCATION 'file://${TMP}/parquet_dataset/';

# CTAS by loading data into Hudi table
CREATE TABLE hudi_table_ctas
USING hudi
TBLPROPERTIES (
 type = 'cow',
 preCombineField = 'ts'
)
AS SELECT * FROM parquet_table;
SELECT count(*) FROM hudi_table_ctas;

-- between examples
DROP TABLE hudi_table_ctas;

CREATE TABLE hudi_table_ctas
USING hudi
TBLPROPERTIES (
 type = 'cow',
 primaryKey = 'id'
)
PARTITIONED BY (dt)
AS
SELECT 1 AS id, 'a1' AS name, 10 AS price, 1000 AS dt;
SELECT id, name, price, dt FROM hudi_table_ctas;

-- between examples
DROP TABLE parquet_table;
DROP TABLE hudi_table_ctas;

# create managed parquet table
CREATE TABLE parquet_table
USING parquet
LOCATION 'file://${TMP}/parquet_dataset/*.parquet';

# CTAS by loading data into hudi table
CREATE TABLE hudi_table_ctas
USING hudi
LOCATION 'file://${TMP}/hudi/hudi_tbl/'
TBLPROPERTIES (
 type = 'cow'
)
AS SELECT * FROM parquet_table;

CREATE INDEX IF NOT EXISTS ts_datestr ON hudi_table USING column_stats(ts) OPTIONS(func='from_unixtime', format='yyyy-MM-dd');
CREATE INDEX ts_hour ON hudi_table USING column_stats(ts) options(func='hour');

-- create a Hudi table
CREATE TABLE hudi_table_func_index (
 ts STRING,
 uuid STRING,
 rider STRING,
 driver STRING,
 fare DOUBLE,
 city STRING
) USING HUDI
tblproperties (primaryKey = 'uuid')
PARTITIONED BY (city)
location 'file://${TMP}/hudi_table_func_index';

-- disable small file handling so the each insert creates new file --
set hoodie.parquet.small.file.limit=0;

INSERT INTO hudi_table_func_index VALUES ('2023-09-20 03:58:59','334e26e9-8355-45cc-97c6-c31daf0df330','rider-A','driver-K',19.10,'san_francisco');
INSERT INTO hudi_table_func_index VALUES ('2023-09-19 08:46:34','e96c4396-3fad-413a-a942-4cb36106d721','rider-C','driver-M',27.70 ,'san_francisco');
INSERT INTO hudi_table_func_index VALUES ('2023-09-18 17:45:31','9909a8b1-2d15-4d3d-8ec9-efc48c536a00','rider-D','driver-L',33.90 ,'san_francisco');
INSERT INTO hudi_table_func_index VALUES ('2023-09-22 13:12:56','1dced545-862b-4ceb-8b43-d2a568f6616b','rider-E','driver-O',93.50,'san_francisco');
INSERT INTO hudi_table_func_index VALUES ('2023-09-24 06:15:45','e3cf430c-889d-4015-bc98-59bdce1e530c','rider-F','driver-P',34.15,'sao_paulo');
INSERT INTO hudi_table_func_index VALUES ('2023-09-22 15:21:36','7a84095f-737f-40bc-b62f-6b69664712d2','rider-G','driver-Q',43.40 ,'sao_paulo');
INSERT INTO hudi_table_func_index VALUES ('2023-09-20 12:35:45','3eeb61f7-c2b0-4636-99bd-5d7a5a1d2c04','rider-I','driver-S',41.06 ,'chennai');
INSERT INTO hudi_table_func_index VALUES ('2023-09-19 05:34:56','c8abbe79-8d89-47ea-b4ce-4d224bae5bfa','rider-J','driver-T',17.85,'chennai');

-- Query with hour function filter but no idex yet --
SELECT city, fare, rider, driver FROM hudi_table_func_index WHERE city NOT IN ('chennai') AND hour(ts) > 12;

EXPLAIN COST SELECT city, fare, rider, driver FROM hudi_table_func_index WHERE city NOT IN ('chennai') AND hour(ts) > 12;

-- create the functional index --
CREATE INDEX ts_hour ON hudi_table_func_index USING column_stats(ts) options(func='hour');

-- query after creating the index --
SELECT city, fare, rider, driver FROM hudi_table_func_index WHERE city NOT IN ('chennai') AND hour(ts) > 12;

set hoodie.insert.shuffle.parallelism = 100;
set hoodie.upsert.shuffle.parallelism = 100;
set hoodie.delete.shuffle.parallelism = 100;

CREATE TABLE IF NOT EXISTS hudi_table (
 id BIGINT,
 name STRING,
 price DOUBLE
) USING hudi
TBLPROPERTIES (
 primaryKey = 'id',
 type = 'cow',
 hoodie.cleaner.fileversions.retained = '20',
 hoodie.keep.max.commits = '20'
);

-- the page's column stats fragment misses a comma between its two properties: an error here
-- as in Spark
CREATE TABLE stats_table (id INT) USING hudi
TBLPROPERTIES(
 'hoodie.metadata.index.column.stats.enable' = 'true'
 'hoodie.metadata.record.index.enable' = 'true'
);

--rename to:
ALTER TABLE hudi_table RENAME TO hudi_table_renamed;
SHOW TABLES;
-- between examples: the page adds a column to hudi_table, so the name comes back
ALTER TABLE hudi_table_renamed RENAME TO hudi_table;

--add column:
ALTER TABLE hudi_table ADD COLUMNS(remark STRING);

ALTER TABLE hudi_table SET TBLPROPERTIES (hoodie.keep.max.commits = '10');
ALTER TABLE hudi_table SET TBLPROPERTIES ("note" = "don't drop this table");
SHOW TBLPROPERTIES hudi_table;

ALTER TABLE hudi_table UNSET TBLPROPERTIES IF EXISTS (hoodie.keep.max.commits);
ALTER TABLE hudi_table UNSET TBLPROPERTIES IF EXISTS ('note');
SHOW TBLPROPERTIES hudi_table;

 ALTER TABLE hudi_table SET SERDEPROPERTIES ('key1' = 'value1');

--Show partition:
SHOW PARTITIONS hudi_table;

--Drop partition：
ALTER TABLE hudi_table DROP PARTITION (dt='2021-12-09', hh='10');

-- between examples: the same statements on a table partitioned by dt and hh
CREATE TABLE hudi_table_dt_hh (id BIGINT, name STRING, dt STRING, hh STRING) USING hudi
TBLPROPERTIES (primaryKey = 'id') PARTITIONED BY (dt, hh);
INSERT INTO hudi_table_dt_hh VALUES (1, 'a', '2021-12-09', '10'), (2, 'b', '2021-12-09', '11'), (3, 'c', '2021-12-10', '10');
SHOW PARTITIONS hudi_table_dt_hh;
ALTER TABLE hudi_table_dt_hh DROP PARTITION (dt='2021-12-09', hh='10');
SHOW PARTITIONS hudi_table_dt_hh;
SELECT id, dt, hh FROM hudi_table_dt_hh ORDER BY id;

-- Flink SQL
CREATE CATALOG hoodie_catalog
 WITH (
 'type'='hudi',
 'catalog.path' = '${TMP}/catalog',
 'mode'='dfs' -- supports 'dfs' mode that uses the DFS backend for table DDLs persistence
 );

-- create a Hudi table
CREATE TABLE hudi_table(
 id BIGINT,
 name STRING,
 price DOUBLE
)
WITH (
'connector' = 'hudi',
'path' = 'file://${TMP}/flink/hudi_table',
'table.type' = 'MERGE_ON_READ'
);

CREATE TABLE hudi_table(
 id BIGINT,
 name STRING,
 dt STRING,
 hh STRING
)
PARTITIONED BY (`dt`)
WITH (
'connector' = 'hudi',
'path' = 'file://${TMP}/flink/hudi_table',
'table.type' = 'MERGE_ON_READ'
);

CREATE TABLE hudi_table(
 id BIGINT PRIMARY KEY NOT ENFORCED,
 name STRING,
 price DOUBLE,
 ts BIGINT
)
PARTITIONED BY (`dt`)
WITH (
'connector' = 'hudi',
'path' = 'file://${TMP}/flink/hudi_table',
'table.type' = 'MERGE_ON_READ',
'precombine.field' = 'ts'
);

-- between examples: the Flink forms on copy-on-write tables (merge-on-read comes with its own
-- issue), as a user of this release writes them
CREATE TABLE flink_table(
 id BIGINT PRIMARY KEY NOT ENFORCED,
 name STRING,
 price DOUBLE,
 ts BIGINT,
 dt STRING
)
PARTITIONED BY (`dt`)
WITH (
'connector' = 'hudi',
'path' = 'file://${TMP}/flink/flink_table',
'table.type' = 'COPY_ON_WRITE',
'precombine.field' = 'ts',
'hoodie.cleaner.fileversions.retained' = '20',
'hoodie.keep.max.commits' = '20',
'hoodie.datasource.write.hive_style_partitioning' = 'true'
);
INSERT INTO flink_table VALUES (1, 'a', 1.5, 10, '2024-01-01');
SELECT id, name, price, ts, dt FROM flink_table;

ALTER TABLE flink_table RENAME TO flink_table_b;
SHOW TABLES;
