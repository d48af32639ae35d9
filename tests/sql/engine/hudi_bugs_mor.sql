-- hudi_bugs.sql on merge-on-read tables: the known Apache Hudi schema-evolution bugs, with
-- the upserts going to log files written under the older schema versions.
-- Known Apache Hudi schema-evolution bugs (docs/SCHEMA_EVOLUTION.md "Where hudic goes beyond
-- Hudi"): each scenario as users hit it, with the rows a correct system returns. Schema on read.
SET hoodie.schema.on.read.enable=true;
-- Hudi issue 7040: DROP col3, RENAME col2 TO col3, then an upsert rewrites the old file group:
-- the old rows' col3 are the values of col2, never those of the dropped column
CREATE TABLE b7040 (id INT, col2 STRING, col3 STRING, ts BIGINT) USING hudi
TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO b7040 VALUES (1, 'col2-1', 'dropped-1', 1), (2, 'col2-2', 'dropped-2', 1);
ALTER TABLE b7040 DROP COLUMN col3;
ALTER TABLE b7040 RENAME COLUMN col2 TO col3;
INSERT INTO b7040 VALUES (1, 'new-1', 2);
SELECT id, col3, ts FROM b7040 ORDER BY id;
-- HUDI-9676/9683: nested fields swapped by renames (s.a <-> s.c), then an upsert merges old
-- and new records: every value stays with its field
CREATE TABLE nswap (id INT, s STRUCT<a: INT, b: INT, c: INT>, ts BIGINT) USING hudi
TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO nswap VALUES (1, named_struct('a', 1, 'b', 2, 'c', 3), 1),
  (2, named_struct('a', 10, 'b', 20, 'c', 30), 1);
ALTER TABLE nswap RENAME COLUMN s.a TO x;
ALTER TABLE nswap RENAME COLUMN s.c TO a;
ALTER TABLE nswap RENAME COLUMN s.x TO c;
DESCRIBE nswap;
INSERT INTO nswap VALUES (1, named_struct('c', 100, 'b', 200, 'a', 300), 2);
SELECT id, s.a, s.b, s.c FROM nswap ORDER BY id;
-- column ids are never reused: DROP the newest column, RENAME another, ADD one - the added
-- column is null in old files, not the dropped column's data
CREATE TABLE idreuse (id INT, ts BIGINT, x INT, newest STRING) USING hudi
TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO idreuse VALUES (1, 1, 11, 'dropped-data');
ALTER TABLE idreuse DROP COLUMN newest;
ALTER TABLE idreuse RENAME COLUMN x TO y;
ALTER TABLE idreuse ADD COLUMNS (z STRING);
SELECT id, y, z FROM idreuse;
CALL show_schema_history(table => 'idreuse');
-- decimal precision and scale widened together (decimal(10,2) -> decimal(12,3)): old values
-- keep their value, not their unscaled digits
CREATE TABLE dec (id INT, d DECIMAL(10,2), ts BIGINT) USING hudi
TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO dec VALUES (1, 12.34, 1), (2, -0.05, 1);
ALTER TABLE dec ALTER COLUMN d TYPE DECIMAL(12,3);
INSERT INTO dec VALUES (3, 1.234, 2);
SELECT id, d FROM dec ORDER BY id;
SELECT id FROM dec WHERE d = 12.34;
-- a widened column filtered through old files' statistics (Trino's "Corrupted statistics"):
-- the float file's statistics are never read as doubles
CREATE TABLE wide (id INT, f FLOAT, ts BIGINT) USING hudi
TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO wide VALUES (1, CAST(1.1 AS FLOAT), 1), (2, CAST(2.5 AS FLOAT), 1);
ALTER TABLE wide ALTER COLUMN f TYPE DOUBLE;
INSERT INTO wide VALUES (3, 1.1, 2);
SELECT id, f FROM wide WHERE f = 1.1 ORDER BY id;
SELECT id, f FROM wide WHERE f > 2 ORDER BY id;
