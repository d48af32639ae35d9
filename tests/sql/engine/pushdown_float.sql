-- Comparisons of DOUBLE and FLOAT columns with a number go down into the scan (docs/SQL.md
-- "Filter pushdown"): =, < and <= as they are (a NaN row fails them in Spark and in IEEE 754
-- alike), > and >= as GT_TOTAL and GE_TOTAL, which keep NaN rows (NaN sorts above every
-- number). Left to the filter above: <> and NaN constants. Every query is followed by the same
-- one on `d + 0`, which nothing pushes: the rows must be the same. NaN, NULL, -0.0, infinities,
-- several files (partitions), a merge-on-read table whose log rows are filtered after merging,
-- a Parquet table partitioned by a DOUBLE column with a NaN folder.
CREATE TABLE f (id INT, d DOUBLE, r FLOAT, p STRING) USING hudi PARTITIONED BY (p)
TBLPROPERTIES (primaryKey = 'id', preCombineField = 'id');
INSERT INTO f VALUES (1, 1.5D, CAST(1.5 AS FLOAT), 'x'),
  (2, CAST('NaN' AS DOUBLE), CAST('NaN' AS FLOAT), 'x'), (3, NULL, NULL, 'x'),
  (4, -0.0D, CAST(-0.0 AS FLOAT), 'y'), (5, 0.0D, CAST(0.0 AS FLOAT), 'y'),
  (6, CAST('Infinity' AS DOUBLE), CAST('Infinity' AS FLOAT), 'y'),
  (7, -2.5D, CAST(-2.5 AS FLOAT), 'z'), (8, 99.99D, CAST(99.99 AS FLOAT), 'z');
INSERT INTO f VALUES (9, CAST('NaN' AS DOUBLE), CAST('NaN' AS FLOAT), 'w'), (10, 100.0D, CAST(100.0 AS FLOAT), 'w');
EXPLAIN SELECT id FROM f WHERE d > 1.5 AND d >= 0 AND d < 100 AND d <= 99.99 AND d = 1.5;
EXPLAIN SELECT id FROM f WHERE d <> 1.5 AND d > CAST('NaN' AS DOUBLE);
SELECT id FROM f WHERE d > 1.5 ORDER BY id;
SELECT id FROM f WHERE d + 0 > 1.5 ORDER BY id;
SELECT id FROM f WHERE d >= 1.5 ORDER BY id;
SELECT id FROM f WHERE d + 0 >= 1.5 ORDER BY id;
SELECT id FROM f WHERE d > 0 ORDER BY id;
SELECT id FROM f WHERE d + 0 > 0 ORDER BY id;
SELECT id FROM f WHERE d >= -0.0D ORDER BY id;
SELECT id FROM f WHERE d + 0 >= -0.0D ORDER BY id;
SELECT id FROM f WHERE d > CAST('Infinity' AS DOUBLE) ORDER BY id;
SELECT id FROM f WHERE d + 0 > CAST('Infinity' AS DOUBLE) ORDER BY id;
SELECT id FROM f WHERE d < 1.5 ORDER BY id;
SELECT id FROM f WHERE d + 0 < 1.5 ORDER BY id;
SELECT id FROM f WHERE d <= 99.99 ORDER BY id;
SELECT id FROM f WHERE d + 0 <= 99.99 ORDER BY id;
SELECT id FROM f WHERE d = 0 ORDER BY id;
SELECT id FROM f WHERE d + 0 = 0 ORDER BY id;
SELECT id FROM f WHERE d <> 1.5 ORDER BY id;
SELECT id FROM f WHERE d + 0 <> 1.5 ORDER BY id;
SELECT id FROM f WHERE d >= CAST('NaN' AS DOUBLE) ORDER BY id;
SELECT id FROM f WHERE d + 0 >= CAST('NaN' AS DOUBLE) ORDER BY id;
SELECT id FROM f WHERE d > 1.5 AND p = 'w' ORDER BY id;
SELECT id FROM f WHERE 1.5 < d ORDER BY id;
-- FLOAT: a FLOAT constant is pushed; a decimal one makes Spark compare as DOUBLE (not pushed)
EXPLAIN SELECT id FROM f WHERE r > CAST(1.5 AS FLOAT);
SELECT id FROM f WHERE r > CAST(1.5 AS FLOAT) ORDER BY id;
SELECT id FROM f WHERE r + 0 > CAST(1.5 AS FLOAT) ORDER BY id;
SELECT id FROM f WHERE r >= CAST(99.99 AS FLOAT) ORDER BY id;
SELECT id FROM f WHERE r + 0 >= CAST(99.99 AS FLOAT) ORDER BY id;
SELECT id FROM f WHERE r > 1.5 ORDER BY id;
-- merge-on-read: a log row turns a number into NaN and a NaN into a number
CREATE TABLE m (id INT, d DOUBLE, ts BIGINT) USING hudi
TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO m VALUES (1, 1.0D, 1), (2, 2.0D, 1), (3, CAST('NaN' AS DOUBLE), 1), (4, NULL, 1);
INSERT INTO m VALUES (1, CAST('NaN' AS DOUBLE), 2), (3, 0.5D, 2);
SELECT id, d FROM m WHERE d > 1.0 ORDER BY id;
SELECT id, d FROM m WHERE d + 0 > 1.0 ORDER BY id;
SELECT id, d FROM m WHERE d >= 0.5 ORDER BY id;
SELECT id, d FROM m WHERE d + 0 >= 0.5 ORDER BY id;
-- a Parquet table partitioned by a DOUBLE column: the NaN folder is above every number
CREATE TABLE pq (id INT, pd DOUBLE) USING parquet PARTITIONED BY (pd) LOCATION '${TMP}/pqf';
INSERT INTO pq VALUES (1, 1.5D), (2, CAST('NaN' AS DOUBLE)), (3, -1.0D), (4, NULL);
SELECT id, pd FROM pq WHERE pd > 0 ORDER BY id;
SELECT id, pd FROM pq WHERE pd + 0 > 0 ORDER BY id;
SELECT id, pd FROM pq WHERE pd < 0 ORDER BY id;
SELECT id, pd FROM pq WHERE pd + 0 < 0 ORDER BY id;
EXPLAIN SELECT id FROM pq WHERE pd >= 1.5;
SELECT id, pd FROM pq WHERE pd >= 1.5 ORDER BY id;
SELECT id, pd FROM pq WHERE pd + 0 >= 1.5 ORDER BY id;
-- a Parquet table: a DOUBLE data column goes to the Parquet scanner with the same operators
CREATE TABLE pd (id INT, d DOUBLE) USING parquet LOCATION '${TMP}/pqd';
INSERT INTO pd VALUES (1, 1.5D), (2, CAST('NaN' AS DOUBLE)), (3, -1.0D), (4, NULL), (5, 0.0D);
INSERT INTO pd VALUES (6, CAST('NaN' AS DOUBLE)), (7, 2.5D);
EXPLAIN SELECT id FROM pd WHERE d > 1.5;
SELECT id, d FROM pd WHERE d > 1.5 ORDER BY id;
SELECT id, d FROM pd WHERE d + 0 > 1.5 ORDER BY id;
SELECT id, d FROM pd WHERE d >= 0 ORDER BY id;
SELECT id, d FROM pd WHERE d + 0 >= 0 ORDER BY id;
SELECT id, d FROM pd WHERE d <= 1.5 ORDER BY id;
SELECT id, d FROM pd WHERE d + 0 <= 1.5 ORDER BY id;
-- statistics: only the file without NaN (NaN count 0) can be skipped by its bounds
INSERT INTO pd VALUES (8, 3.0D), (9, 4.0D);
EXPLAIN SELECT id FROM pd WHERE d > 10;
SELECT id, d FROM pd WHERE d > 10 ORDER BY id;
SELECT id, d FROM pd WHERE d + 0 > 10 ORDER BY id;
