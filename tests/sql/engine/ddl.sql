-- DDL, SHOW, DESCRIBE and CALL over the warehouse catalog (docs/SQL.md "Statements").
-- databases
SHOW DATABASES;
CREATE DATABASE sales COMMENT 'the sales team' WITH DBPROPERTIES ('owner' = 'ann');
CREATE DATABASE sales;
CREATE DATABASE IF NOT EXISTS sales;
CREATE SCHEMA hr;
SHOW DATABASES;
SHOW DATABASES LIKE 's*|h*';
DESCRIBE DATABASE EXTENDED sales;
USE sales;
SHOW CURRENT NAMESPACE;
-- a partitioned copy-on-write table with a composite key
CREATE TABLE orders (
  id INT COMMENT 'order id',
  region STRING,
  dt STRING,
  amount DECIMAL(10,2),
  tags ARRAY<STRING>,
  ts BIGINT
) USING hudi
PARTITIONED BY (dt)
COMMENT 'all orders'
TBLPROPERTIES (primaryKey = 'id,region', preCombineField = 'ts', 'hoodie.keep.max.commits' = '40');
CREATE TABLE orders (id INT) USING hudi TBLPROPERTIES (primaryKey = 'id');
CREATE TABLE IF NOT EXISTS orders (id INT) USING hudi TBLPROPERTIES (primaryKey = 'id');
SHOW TABLES;
SHOW TABLES IN default;
SHOW TABLES LIKE 'ord*';
DESCRIBE orders;
DESC orders amount;
SHOW COLUMNS IN orders;
SHOW TBLPROPERTIES orders;
SHOW TBLPROPERTIES orders ('primaryKey');
SHOW TBLPROPERTIES orders ('nope');
SHOW CREATE TABLE orders;
CALL show_table_properties(table => 'orders', limit => 100);
INSERT INTO orders VALUES
  (1, 'eu', 10.50, NULL, 1, '2021-01-01'),
  (2, 'us', 20.00, NULL, 1, '2021-01-01'),
  (3, 'eu', 5.25, NULL, 1, '2021-01-02');
SHOW PARTITIONS orders;
SHOW PARTITIONS orders PARTITION (dt = '2021-01-02');
-- properties live in the catalog
ALTER TABLE orders SET TBLPROPERTIES ('comment.extra' = 'x', 'hoodie.keep.max.commits' = '50');
ALTER TABLE orders UNSET TBLPROPERTIES ('comment.extra');
ALTER TABLE orders UNSET TBLPROPERTIES ('comment.extra');
ALTER TABLE orders UNSET TBLPROPERTIES IF EXISTS ('comment.extra');
ALTER TABLE orders SET TBLPROPERTIES (primaryKey = 'region');
SHOW TBLPROPERTIES orders;
-- DROP PARTITION and TRUNCATE are replacecommits
ALTER TABLE orders DROP PARTITION (dt = '2021-01-02');
SELECT id, region, amount, dt FROM orders ORDER BY id;
ALTER TABLE orders DROP PARTITION (dt = '2030-01-01');
ALTER TABLE orders DROP IF EXISTS PARTITION (dt = '2030-01-01');
ALTER TABLE orders ADD PARTITION (dt = '2022-01-01');
SHOW PARTITIONS orders;
ALTER TABLE orders ADD PARTITION (dt = '2022-01-01');
ALTER TABLE orders ADD IF NOT EXISTS PARTITION (dt = '2022-01-01');
ALTER TABLE orders ADD PARTITION (nope = '1');
ALTER TABLE orders ADD PARTITION (dt = '2022-01-02') LOCATION '/x';
TRUNCATE TABLE orders;
SELECT count(*) FROM orders;
-- rename: the managed folder moves, hoodie.table.name follows
ALTER TABLE orders RENAME TO orders2;
SHOW TABLES;
CALL show_table_properties(table => 'orders2', limit => 100);
INSERT INTO orders2 VALUES (4, 'eu', 1.00, NULL, 2, '2021-01-03');
SELECT id FROM orders2;
-- a non-partitioned table, Flink's form
CREATE TABLE flink_t (
  uuid STRING,
  name STRING,
  ts BIGINT,
  PRIMARY KEY (uuid) NOT ENFORCED
) WITH ('connector' = 'hudi', 'table.type' = 'COPY_ON_WRITE');
CALL show_table_properties(table => 'flink_t', limit => 100);
CREATE TABLE bad_conn (a INT) WITH ('connector' = 'datagen');
-- external tables and parquet tables
CREATE TABLE ext (id INT, v STRING) USING hudi LOCATION '${TMP}/ext' TBLPROPERTIES (primaryKey = 'id');
INSERT INTO ext VALUES (1, 'one');
DROP TABLE ext;
CREATE TABLE ext2 USING hudi LOCATION '${TMP}/ext';
DESCRIBE ext2;
SELECT id, v FROM ext2;
CREATE TABLE pq (a INT, b STRING) USING parquet;
DESCRIBE pq;
-- refusals
CREATE TABLE m (id INT) USING hudi TBLPROPERTIES (type = 'mor', primaryKey = 'id');
CREATE TABLE x (id INT) USING hudi TBLPROPERTIES (type = 'cowx', primaryKey = 'id');
CREATE TABLE y (id INT) USING hudi TBLPROPERTIES (primaryKey = 'nope');
CREATE TABLE z (id INT) USING hudi PARTITIONED BY (dt) TBLPROPERTIES (primaryKey = 'id');
CREATE TABLE w (id INT) USING orc;
ALTER TABLE orders2 ADD COLUMNS (c INT);
CREATE INDEX idx ON orders2 (region);
CALL no_such_procedure();
CALL show_commits(limit => 1);
CALL show_commits(table => 'orders2', nope => 1);
CALL create_savepoint(table => 'orders2', commit_time => '1');
-- drops
DROP TABLE nope;
DROP TABLE IF EXISTS nope;
DROP DATABASE sales;
USE default;
DROP DATABASE sales CASCADE;
DROP DATABASE default;
SHOW DATABASES;
CREATE CATALOG hoodie_catalog WITH ('type' = 'hudi', 'mode' = 'dfs', 'catalog.path' = '${WAREHOUSE}');
CREATE CATALOG hms WITH ('type' = 'hudi', 'mode' = 'hms', 'catalog.path' = '/x');
USE CATALOG hoodie_catalog;
SHOW CATALOGS;
CALL help(cmd => 'show_commits');
