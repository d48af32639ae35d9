-- ORDER BY ... LIMIT as a top-N whose boundary filters the scan below (docs/SQL.md, "Top-N
-- dynamic filter"). Each query is followed by the same query ordered by an expression
-- (`+ 0`, `date_add(..., 0)`), which no filter serves: the rows must be the same. Ties with
-- the boundary, nulls first and last, NaN (above every number), -0.0, more sort keys, OFFSET,
-- a LIMIT beyond the table, a partitioned table, a merge-on-read table with log files.
CREATE TABLE t (id INT, d DOUBLE, i BIGINT, dt DATE, s STRING, p STRING) USING hudi
PARTITIONED BY (p) TBLPROPERTIES (primaryKey = 'id', preCombineField = 'i');
INSERT INTO t VALUES (1, 5.0, 50, DATE'2024-01-05', 'a', 'x'), (2, 7.5, 75, DATE'2024-01-07', 'b', 'y'),
  (3, NULL, NULL, NULL, 'c', 'x'), (4, 7.5, 75, DATE'2024-01-07', 'd', 'y'),
  (5, -1.0, -10, DATE'2023-12-31', 'e', 'x');
INSERT INTO t VALUES (6, CAST('NaN' AS DOUBLE), 90, DATE'2024-02-01', 'f', 'x'),
  (7, 7.5, 75, DATE'2024-01-07', 'g', 'x'), (8, -0.0, 0, DATE'2024-01-01', 'h', 'y'),
  (9, 0.0, 0, DATE'2024-01-01', 'i', 'y'), (10, NULL, NULL, NULL, 'j', 'y');
INSERT INTO t VALUES (11, 100.0, 1000, DATE'2025-01-01', 'k', 'z'), (12, 3.0, 30, DATE'2024-01-03', 'l', 'z'),
  (13, 3.0, 30, DATE'2024-01-03', 'm', 'x'), (14, 8.0, 80, DATE'2024-01-08', 'n', 'z');
EXPLAIN SELECT id, s FROM t ORDER BY d DESC LIMIT 3;
SELECT id, d FROM t ORDER BY d DESC LIMIT 3;
SELECT id, d FROM t ORDER BY d + 0 DESC LIMIT 3;
SELECT id, d FROM t ORDER BY d DESC NULLS FIRST, id LIMIT 4;
SELECT id, d FROM t ORDER BY d + 0 DESC NULLS FIRST, id LIMIT 4;
SELECT id, d FROM t ORDER BY d ASC, s DESC LIMIT 5;
SELECT id, d FROM t ORDER BY d + 0 ASC, s DESC LIMIT 5;
SELECT id, d FROM t ORDER BY d ASC NULLS LAST, id LIMIT 3 OFFSET 2;
SELECT id, d FROM t ORDER BY d + 0 ASC NULLS LAST, id LIMIT 3 OFFSET 2;
SELECT id, i FROM t WHERE s <> 'k' ORDER BY i DESC, id LIMIT 3;
SELECT id, i FROM t WHERE s <> 'k' ORDER BY i + 0 DESC, id LIMIT 3;
SELECT id, dt FROM t ORDER BY dt, id LIMIT 2;
SELECT id, dt FROM t ORDER BY date_add(dt, 0), id LIMIT 2;
SELECT count(*) FROM (SELECT id FROM t ORDER BY d DESC LIMIT 100);
-- no dynamic filter: an expression, an aggregate below, a string key
EXPLAIN SELECT p, max(d) AS m FROM t GROUP BY p ORDER BY m DESC LIMIT 1;
EXPLAIN SELECT id FROM t ORDER BY s LIMIT 1;
SET hudic.topn.dynamic_filter=false;
EXPLAIN SELECT id, s FROM t ORDER BY d DESC LIMIT 3;
SELECT id, d FROM t ORDER BY d DESC LIMIT 3;
RESET hudic.topn.dynamic_filter;
-- merge-on-read: slices with log files are merged whole (the filter is not used there)
CREATE TABLE m (id INT, v BIGINT, ts BIGINT) USING hudi
TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO m VALUES (1, 10, 5), (2, 20, 5), (3, 30, 5), (4, 40, 5), (5, 50, 5);
INSERT INTO m VALUES (5, 1, 1), (1, 99, 9);
EXPLAIN SELECT id, v FROM m ORDER BY v DESC LIMIT 2;
SELECT id, v FROM m ORDER BY v DESC LIMIT 2;
SELECT id, v FROM m ORDER BY v LIMIT 2;
