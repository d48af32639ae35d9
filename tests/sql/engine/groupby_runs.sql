-- GROUP BY over keys that repeat: a partition column (one value per base file, which the
-- Parquet reader reports as a one-value column), a data column that is constant in some files
-- only, sorted keys (runs of equal group ids: the accumulators sum each run in a local), keys
-- with nulls, alternating keys (runs of one row: the per-row loops), several key columns, and
-- aggregates with FILTER, DISTINCT and null arguments over those runs.
CREATE TABLE g (id INT, k STRING, c STRING, n BIGINT, d DOUBLE, p STRING) USING hudi
PARTITIONED BY (p) TBLPROPERTIES (primaryKey = 'id', preCombineField = 'n');
INSERT INTO g VALUES (1, 'a', 'same', 1, 0.5, 'x'), (2, 'a', 'same', 2, 1.5, 'x'),
  (3, 'a', 'same', 3, NULL, 'x'), (4, 'b', 'same', 4, 2.25, 'x'), (5, 'b', 'same', NULL, 3.0, 'x'),
  (6, 'b', 'same', 6, 0.1, 'x'), (7, 'b', 'same', 7, 0.2, 'x'), (8, 'c', 'same', 8, 0.3, 'x'),
  (9, 'c', 'same', 9, 1e300, 'x'), (10, 'c', 'same', 10, -1e300, 'x'),
  (11, NULL, 'other', 11, 4.0, 'y'), (12, NULL, 'same', 12, 5.0, 'y'), (13, 'a', 'other', 13, 6.0, 'y'),
  (14, 'b', NULL, 14, 7.0, 'y'), (15, 'a', 'same', 15, 8.0, 'y'), (16, 'b', 'same', 16, 9.0, 'y'),
  (17, 'a', 'same', 17, 10.0, 'y'), (18, 'b', 'same', 18, 11.0, 'y'),
  (19, 'a', 'same', 19, NULL, NULL), (20, 'a', 'same', 20, 1.0, NULL), (21, 'a', 'same', 21, 2.0, NULL);
-- a constant key: the partition column
SELECT p, count(*), count(n), sum(n), avg(n), sum(d), avg(d), min(d), max(k) FROM g GROUP BY p
ORDER BY p NULLS FIRST;
SELECT p, count(*) FILTER (WHERE n > 5), sum(d) FILTER (WHERE id % 2 = 0), count(DISTINCT k),
  sum(DISTINCT n), first(k), last(k), collect_list(id) FROM g GROUP BY p ORDER BY p NULLS FIRST;
-- a data column constant in some files, with a null and another value in one
SELECT c, count(*), sum(n), avg(d) FROM g GROUP BY c ORDER BY c NULLS FIRST;
-- sorted keys with nulls (ORDER BY below the aggregate), then alternating keys
SELECT k, count(*), sum(n), sum(d), avg(d) FROM (SELECT * FROM g ORDER BY k NULLS FIRST, id)
GROUP BY k ORDER BY k NULLS FIRST;
SELECT id % 2 AS odd, count(*), sum(n), sum(d), avg(n) FROM g GROUP BY id % 2 ORDER BY odd;
-- several key columns: a constant one beside a varying one, in both orders
SELECT p, k, count(*), sum(n), avg(d) FROM g GROUP BY p, k ORDER BY p NULLS FIRST, k NULLS FIRST;
SELECT k, p, c, count(*), sum(d) FROM g GROUP BY k, p, c
ORDER BY k NULLS FIRST, p NULLS FIRST, c NULLS FIRST;
-- a literal key and an expression over the partition column
SELECT 'all' AS a, p, count(*) FROM g GROUP BY 1, p ORDER BY p NULLS FIRST;
SELECT upper(p) AS up, count(*), sum(n) FROM g GROUP BY upper(p) ORDER BY up NULLS FIRST;
-- the partition column also read as rows, filtered, and grouped after a join
SELECT p, id FROM g WHERE id IN (1, 11, 19) ORDER BY id;
SELECT p, count(*) FROM g WHERE p = 'x' OR p IS NULL GROUP BY p ORDER BY p NULLS FIRST;
SELECT a.p, count(*), sum(b.n) FROM g a JOIN g b ON a.id = b.id GROUP BY a.p ORDER BY 1 NULLS FIRST;
-- an upsert rewrites partition x's file with other values of c: it is no longer constant there
INSERT INTO g VALUES (1, 'a', 'changed', 100, 0.5, 'x');
SELECT p, c, count(*), sum(n) FROM g GROUP BY p, c ORDER BY p NULLS FIRST, c NULLS FIRST;
SELECT c, count(*) FROM g GROUP BY c ORDER BY c NULLS FIRST;
-- fixed-width columns constant in a file (an int, a double) as keys
CREATE TABLE h (id INT, v INT, w DOUBLE, t BIGINT) USING hudi TBLPROPERTIES (primaryKey = 'id');
INSERT INTO h VALUES (1, 7, 2.5, 1), (2, 7, 2.5, 2), (3, 7, 2.5, 3), (4, 7, 2.5, 4), (5, 7, 2.5, 5);
SELECT v, w, count(*), sum(t), avg(t), min(id), max(id) FROM h GROUP BY v, w;
SELECT v, id % 2 AS odd, count(*), sum(w) FROM h GROUP BY v, id % 2 ORDER BY odd;
SELECT count(*), sum(v), sum(w), avg(t) FROM h;
-- merge-on-read: log records overwrite rows of a base file whose column was one value (the
-- merge patches the base batch in place; the column is not one value any more)
CREATE TABLE mg (id INT, c STRING, v INT, ts BIGINT) USING hudi
TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO mg VALUES (1, 'same', 7, 1), (2, 'same', 7, 1), (3, 'same', 7, 1), (4, 'same', 7, 1);
INSERT INTO mg VALUES (2, 'diff', 8, 2), (4, 'same', 9, 2);
SELECT c, count(*), sum(v) FROM mg GROUP BY c ORDER BY c;
SELECT v, count(*) FROM mg GROUP BY v ORDER BY v;
SELECT c, v, count(*) FROM mg GROUP BY c, v ORDER BY c, v;
