-- schema_evolution.sql on merge-on-read tables (docs/SCHEMA_EVOLUTION.md "Merge-on-read
-- tables"): every table of it created with type = 'mor', so each INSERT of a stored key is an
-- upsert into a log file, read through the schema of the query; ALTER TABLE is a deltacommit.
-- The rows must be those of schema_evolution.out; MOR-only scenarios follow at the end.
-- without schema on read: top-level ADD COLUMNS and COMMENT only (F.10)
CREATE TABLE plain (id INT, name STRING, ts BIGINT, dt STRING) USING hudi
PARTITIONED BY (dt) TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO plain VALUES (1, 'a', 1000, '2021-01-01');
ALTER TABLE plain CHANGE COLUMN id id bigint;
ALTER TABLE plain ALTER COLUMN name TYPE string COMMENT 'the name';
ALTER TABLE plain ADD COLUMNS (note STRING COMMENT 'a note');
ALTER TABLE plain RENAME COLUMN name TO label;
ALTER TABLE plain DROP COLUMN name;
ALTER TABLE plain ADD COLUMNS (later STRING AFTER id);
DESCRIBE plain;
-- SQL INSERT casts to the table's columns and does not add any (Hudi's Spark SQL)
INSERT INTO plain VALUES (3, 'c', 3000, 'y', 'extra', '2021-01-03');
INSERT INTO plain VALUES (2, 'b', 2000, 'x', '2021-01-02');
SELECT id, name, ts, note, dt FROM plain ORDER BY id;
CREATE TABLE pq (id INT) USING parquet;
ALTER TABLE pq ADD COLUMNS (c INT);
-- schema on read
SET hoodie.schema.on.read.enable=true;
-- the documentation's examples: Adding Columns
CREATE TABLE h0 (id INT, col1 STRING, ts BIGINT) USING hudi
TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
ALTER TABLE h0 ADD COLUMNS(ext0 string);
ALTER TABLE h0 ADD COLUMNS(new_col int not null comment 'add new column' AFTER col1);
DESCRIBE h0;
SHOW CREATE TABLE h0;
INSERT INTO h0 VALUES (1, 'one', 11, 1000, 'e1');
SELECT id, col1, new_col, ts, ext0 FROM h0 ORDER BY id;
-- NOT NULL once the table has rows: refused (they have no value)
ALTER TABLE h0 ADD COLUMNS(more int not null);
ALTER TABLE h0 ADD COLUMNS(more int);
INSERT INTO h0 VALUES (2, 'two', 22, 2000, 'e2', 2);
SELECT id, col1, new_col, ts, ext0, more FROM h0 ORDER BY id;
CREATE TABLE complex_table (id INT, col_struct STRUCT<col_from_col_struct: STRING, other: INT>,
  ts BIGINT) USING hudi TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO complex_table VALUES (1, named_struct('col_from_col_struct', 'v', 'other', 7), 1000);
ALTER TABLE complex_table ADD COLUMNS(col_struct.col_name string comment 'add new column to a struct col' AFTER col_from_col_struct);
DESCRIBE complex_table;
SELECT id, col_struct FROM complex_table;
-- Altering Columns
CREATE TABLE table1 (id INT, a STRUCT<b: STRUCT<c: INT, x: STRING>>, x STRING, y STRING,
  ts BIGINT) USING hudi TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO table1 VALUES (1, named_struct('b', named_struct('c', 5, 'x', 'bx')), 'x1', 'y1', 1);
ALTER TABLE table1 ALTER COLUMN a.b.c TYPE bigint;
ALTER TABLE table1 ALTER COLUMN a.b.c COMMENT 'new comment';
ALTER TABLE table1 ALTER COLUMN a.b.c FIRST;
ALTER TABLE table1 ALTER COLUMN a.b.c AFTER x;
ALTER TABLE table1 ALTER COLUMN a.b.c DROP NOT NULL;
DESCRIBE table1;
SELECT id, a, x, y FROM table1;
-- Deleting Columns
ALTER TABLE table1 DROP COLUMN a.b.c;
DESCRIBE table1;
SELECT id, a, x, y FROM table1;
DROP TABLE table1;
CREATE TABLE table1 (id INT, a STRUCT<b: STRUCT<c: INT, x: STRING>>, x STRING, y STRING,
  ts BIGINT) USING hudi TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO table1 VALUES (1, named_struct('b', named_struct('c', 5, 'x', 'bx')), 'x1', 'y1', 1);
ALTER TABLE table1 DROP COLUMNS a.b.c, x, y;
DESCRIBE table1;
SELECT id, a FROM table1;
-- Renaming columns
DROP TABLE table1;
CREATE TABLE table1 (id INT, a STRUCT<b: STRUCT<c: INT, d: STRING>>, x STRING, ts BIGINT)
USING hudi TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO table1 VALUES (1, named_struct('b', named_struct('c', 5, 'd', 'bd')), 'x1', 1);
ALTER TABLE table1 RENAME COLUMN a.b.c TO x;
DESCRIBE table1;
SELECT id, a, x FROM table1;
-- F.1 DROP NOT NULL, then a null
CREATE TABLE f1 (id INT, name STRING NOT NULL, ts BIGINT) USING hudi
TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO f1 VALUES (1, null, 1000);
ALTER TABLE f1 ALTER COLUMN name DROP NOT NULL;
INSERT INTO f1 VALUES (1, null, 1000);
SELECT id, name, ts FROM f1;
-- F.2 a dropped column's name given to another column
CREATE TABLE f2 (id INT, col1 STRING, col2 STRING, ts BIGINT) USING hudi
TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO f2 VALUES (1, 'aaa', 'bbb', 1000);
ALTER TABLE f2 DROP COLUMN col1;
ALTER TABLE f2 RENAME COLUMN col2 TO col1;
INSERT INTO f2 VALUES (2, 'aaa', 1000);
SELECT col1 FROM f2 ORDER BY id;
-- F.3 date -> string -> date
CREATE TABLE f3 (id INT, d DATE, ts BIGINT) USING hudi
TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO f3 VALUES (1, DATE '2021-12-25', 1000);
ALTER TABLE f3 ALTER COLUMN d TYPE string;
SELECT id, d FROM f3;
INSERT INTO f3 VALUES (2, '2021-12-26', 1000);
ALTER TABLE f3 ALTER COLUMN d TYPE date;
DESCRIBE f3;
SELECT id, d FROM f3 ORDER BY id;
-- F.4 int, float, long through double and decimal to string
CREATE TABLE f4 (id INT, i INT, f FLOAT, l BIGINT, ts BIGINT) USING hudi
TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO f4 VALUES (1, 11, CAST(101.01 AS FLOAT), 100001, 1000);
ALTER TABLE f4 ALTER COLUMN i TYPE double;
ALTER TABLE f4 ALTER COLUMN f TYPE double;
ALTER TABLE f4 ALTER COLUMN l TYPE double;
SELECT i, f, l FROM f4;
ALTER TABLE f4 ALTER COLUMN i TYPE decimal(16, 4);
ALTER TABLE f4 ALTER COLUMN f TYPE decimal(16, 4);
ALTER TABLE f4 ALTER COLUMN l TYPE decimal(16, 4);
SELECT i, f, l FROM f4;
ALTER TABLE f4 ALTER COLUMN i TYPE string;
ALTER TABLE f4 ALTER COLUMN f TYPE string;
ALTER TABLE f4 ALTER COLUMN l TYPE string;
DESCRIBE f4;
SELECT i, f, l FROM f4;
-- F.6 to decimal(4, 2), rounding half up
CREATE TABLE f6 (id INT, v DOUBLE, s STRING, ts BIGINT) USING hudi
TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO f6 VALUES (1, 10.024, '10.024', 1), (2, 10.025, '10.025', 1), (3, 10.026, '10.026', 1),
  (4, -10.025, '-10.025', 1), (5, 10.035, '10.035', 1), (6, -10.035, '-10.035', 1);
ALTER TABLE f6 ALTER COLUMN v TYPE decimal(4, 2);
ALTER TABLE f6 ALTER COLUMN s TYPE decimal(4, 2);
SELECT id, v, s FROM f6 ORDER BY id;
-- F.7 nested moves, renames, drops and re-adds
CREATE TABLE f7 (id INT, name STRING, members MAP<STRING, STRUCT<n: STRING, a: INT>>,
  `user` STRUCT<name: STRING, score: INT, age: INT>, ts BIGINT) USING hudi
TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO f7 VALUES (1, 'jack', map('m1', named_struct('n', 'n1', 'a', 1)),
  named_struct('name', 'jack', 'score', 90, 'age', 30), 1000);
ALTER TABLE f7 ALTER COLUMN members.value.a FIRST;
ALTER TABLE f7 RENAME COLUMN `user` TO userx;
SELECT id, name, members, userx FROM f7;
ALTER TABLE f7 DROP COLUMNS (name, userx.name, userx.score);
ALTER TABLE f7 ADD COLUMNS (name string AFTER userx, userx.name string FIRST, userx.score int AFTER age);
DESCRIBE f7;
SELECT id, members, userx, name FROM f7;
-- F.9 refusals
CREATE TABLE f9 (id INT, col0 INT, col1 STRING, ts BIGINT, dt STRING) USING hudi
PARTITIONED BY (dt) TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
ALTER TABLE f9 ADD COLUMNS (c int FIRST);
ALTER TABLE f9 ADD COLUMNS (c int AFTER _hoodie_commit_time);
ALTER TABLE f9 ADD COLUMNS (c int AFTER _hoodie_commit_seqno);
ALTER TABLE f9 ADD COLUMNS (c int AFTER _hoodie_record_key);
ALTER TABLE f9 DROP COLUMN id;
ALTER TABLE f9 RENAME COLUMN ts TO ts2;
ALTER TABLE f9 DROP COLUMN dt;
ALTER TABLE f9 RENAME COLUMN col0 TO COL1;
ALTER TABLE f9 ALTER COLUMN col0 SET NOT NULL;
ALTER TABLE f9 ALTER COLUMN col1 TYPE int;
ALTER TABLE f9 ALTER COLUMN nope TYPE int;
ALTER TABLE f9 DROP COLUMNS col0, nope;
ALTER TABLE f9 DROP COLUMNS IF EXISTS nope;
ALTER TABLE f9 ALTER COLUMN _hoodie_record_key COMMENT 'x';
ALTER TABLE f9 ADD COLUMNS (col0 string);
ALTER TABLE f9 RENAME COLUMN col0 TO a.b;
-- names resolve without case, as in Spark
ALTER TABLE f9 ALTER COLUMN COL1 COMMENT 'named without case';
ALTER TABLE f9 ADD COLUMNS (c2 int AFTER COL0);
DESCRIBE f9;
-- F.13 a column added with schema on read, written with it off
CREATE TABLE f13 (id INT, name STRING, ts BIGINT) USING hudi
TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO f13 VALUES (1, 'a', 1000);
ALTER TABLE f13 ADD COLUMNS (new_col string);
SET hoodie.schema.on.read.enable=false;
INSERT INTO f13 VALUES (2, 'b', 2000, 'nc');
SELECT id, name, ts, new_col FROM f13 ORDER BY id;
ALTER TABLE f13 RENAME COLUMN name TO label;
SELECT id, label, new_col FROM f13 ORDER BY id;
-- hudic's show_schema_history: each InternalSchema version, newest first, with what changed
CALL show_schema_history(table => 'plain');
CALL show_schema_history(table => 'f1');
CALL show_schema_history(table => 'f2');
CALL show_schema_history(table => 'f4', limit => 2);
CALL show_schema_history(table => 'f7');
CALL show_schema_history(table => 'h0');
CALL show_schema_history(table => 'table1');
CALL show_schema_history(table => 'f3', limit => 1);
CALL show_schema_history(table => 'no_such_table');
-- MOR only: UPDATE, DELETE and MERGE write log blocks between ALTERs (rename, widen, add,
-- drop and re-add a name); each block is read through the schema of the query by column id
SET hoodie.schema.on.read.enable=true;
CREATE TABLE m1 (id INT, name STRING, price DOUBLE, qty INT, ts BIGINT) USING hudi
TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO m1 VALUES (1, 'a', 1.5, 10, 1), (2, 'b', 2.5, 20, 1), (3, 'c', 3.5, 30, 1);
UPDATE m1 SET name = 'a-log', price = 9.5, ts = 2 WHERE id = 1;
ALTER TABLE m1 RENAME COLUMN name TO label;
ALTER TABLE m1 ALTER COLUMN qty TYPE bigint;
ALTER TABLE m1 ADD COLUMNS (note STRING AFTER label);
SELECT id, label, note, price, qty, ts FROM m1 ORDER BY id;
UPDATE m1 SET note = 'n2', qty = 3000000000, ts = 3 WHERE id = 2;
DELETE FROM m1 WHERE id = 3;
ALTER TABLE m1 DROP COLUMN price;
ALTER TABLE m1 ADD COLUMNS (price STRING);
DESCRIBE m1;
SELECT id, label, note, qty, price, ts FROM m1 ORDER BY id;
MERGE INTO m1 USING (SELECT 1 AS id, 'merged' AS label, 'p1' AS price, 4 AS ts) s
ON m1.id = s.id
WHEN MATCHED THEN UPDATE SET label = s.label, price = s.price, ts = s.ts;
INSERT INTO m1 VALUES (4, 'd', 'n4', 40, 5, 'p4');
SELECT id, label, note, qty, price, ts FROM m1 ORDER BY id;
SELECT id, label FROM m1 WHERE qty > 100 ORDER BY id;
CALL show_schema_history(table => 'm1');
-- MOR without schema on read: ADD COLUMNS, then an UPDATE of the new column into a log
SET hoodie.schema.on.read.enable=false;
CREATE TABLE m2 (id INT, name STRING, ts BIGINT) USING hudi
TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO m2 VALUES (1, 'a', 1), (2, 'b', 1);
UPDATE m2 SET name = 'a-log' WHERE id = 1;
ALTER TABLE m2 ADD COLUMNS (score DOUBLE COMMENT 'added');
UPDATE m2 SET score = 2.5 WHERE id = 2;
SELECT id, name, score FROM m2 ORDER BY id;
ALTER TABLE m2 RENAME COLUMN name TO label;
DESCRIBE m2;
