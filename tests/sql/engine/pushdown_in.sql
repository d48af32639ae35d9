-- IN lists and ORs of equalities on one column, pushed into scans: record-key probing (key
-- range, bloom filter), partition pruning, the list's bounds for statistics. NOT IN is never
-- pushed; NULL items match nothing. Every query's rows equal those of the same filter written
-- so that nothing is pushed (`|| ''`, `+ 0`).
CREATE TABLE trips (uuid STRING, rider STRING, fare DOUBLE, ts BIGINT, city STRING)
USING hudi PARTITIONED BY (city) TBLPROPERTIES (primaryKey = 'uuid', preCombineField = 'ts');
INSERT INTO trips VALUES
  ('u1', 'rider-A', 19.10, 1000, 'san_francisco'),
  ('u2', 'rider-B', 27.70, 1001, 'san_francisco'),
  ('u3', 'rider-C', 33.90, 2000, 'chennai'),
  ('u4', 'rider-D', 93.50, 2001, 'chennai'),
  ('u5', 'rider-E', 11.00, 3000, 'sao_paulo'),
  ('u6', 'rider-F', 12.00, 3001, 'sao_paulo'),
  ('u7', 'rider-G', 13.00, 4000, 'london');
-- the record key: files without any of the keys are skipped by their key range / bloom filter
SELECT uuid, rider FROM trips WHERE uuid IN ('u1', 'u5') ORDER BY uuid;
SELECT uuid, rider FROM trips WHERE uuid || '' IN ('u1', 'u5') ORDER BY uuid;
EXPLAIN SELECT uuid, rider FROM trips WHERE uuid IN ('u1', 'u5');
SELECT uuid FROM trips WHERE uuid = 'u3' OR 'u6' = uuid OR uuid = 'u3' ORDER BY uuid;
EXPLAIN SELECT uuid FROM trips WHERE uuid = 'u3' OR 'u6' = uuid OR uuid = 'u3';
SELECT uuid FROM trips WHERE _hoodie_record_key IN ('u2', 'u7', 'u9') ORDER BY uuid;
EXPLAIN SELECT uuid FROM trips WHERE _hoodie_record_key IN ('u2', 'u7', 'u9');
-- keys no file holds: every file skipped
SELECT uuid FROM trips WHERE uuid IN ('u0', 'u8');
EXPLAIN SELECT uuid FROM trips WHERE uuid IN ('u0', 'u8');
-- NULL items match nothing: x IN ('u2', NULL) is true for u2 and NULL (filtered) otherwise
SELECT uuid FROM trips WHERE uuid IN ('u2', NULL);
EXPLAIN SELECT uuid FROM trips WHERE uuid IN ('u2', NULL);
SELECT uuid FROM trips WHERE uuid = 'u2' OR uuid = NULL;
SELECT uuid FROM trips WHERE uuid IN (NULL, NULL);
EXPLAIN SELECT uuid FROM trips WHERE uuid IN (NULL, NULL);
-- NOT IN is never pushed (with a NULL item it holds for no row)
SELECT uuid FROM trips WHERE uuid NOT IN ('u1', 'u2', 'u3') ORDER BY uuid;
SELECT uuid FROM trips WHERE uuid NOT IN ('u1', NULL);
EXPLAIN SELECT uuid FROM trips WHERE uuid NOT IN ('u1', 'u2', 'u3');
SELECT uuid FROM trips WHERE NOT (uuid = 'u1' OR uuid = 'u2') ORDER BY uuid;
EXPLAIN SELECT uuid FROM trips WHERE NOT (uuid = 'u1' OR uuid = 'u2');
-- an OR over two columns is not pushed
SELECT uuid FROM trips WHERE uuid = 'u1' OR city = 'london' ORDER BY uuid;
EXPLAIN SELECT uuid FROM trips WHERE uuid = 'u1' OR city = 'london';
-- the partition column: a partition survives when any value matches it
SELECT uuid, city FROM trips WHERE city IN ('chennai', 'sao_paulo') ORDER BY uuid;
SELECT uuid, city FROM trips WHERE city || '' IN ('chennai', 'sao_paulo') ORDER BY uuid;
EXPLAIN SELECT uuid, city FROM trips WHERE city IN ('chennai', 'sao_paulo');
SELECT uuid FROM trips WHERE city = 'london' OR city = 'chennai' OR city IN ('nowhere') ORDER BY uuid;
EXPLAIN SELECT uuid FROM trips WHERE city = 'london' OR city = 'chennai' OR city IN ('nowhere');
SELECT uuid FROM trips WHERE city NOT IN ('chennai', 'sao_paulo') ORDER BY uuid;
EXPLAIN SELECT uuid FROM trips WHERE city NOT IN ('chennai', 'sao_paulo');
-- key and partition together
SELECT uuid FROM trips WHERE uuid IN ('u1', 'u3', 'u5') AND city IN ('chennai', 'london') ORDER BY uuid;
EXPLAIN SELECT uuid FROM trips WHERE uuid IN ('u1', 'u3', 'u5') AND city IN ('chennai', 'london');
-- a plain column: the list's bounds skip by statistics; the IN filter above keeps the rows exact
SELECT uuid, ts FROM trips WHERE ts IN (1000, 3001) ORDER BY uuid;
SELECT uuid, ts FROM trips WHERE ts + 0 IN (1000, 3001) ORDER BY uuid;
EXPLAIN SELECT uuid, ts FROM trips WHERE ts IN (1000, 3001);
SELECT uuid, ts FROM trips WHERE ts = 1001 OR ts = 1000 ORDER BY uuid;
EXPLAIN SELECT uuid, ts FROM trips WHERE ts = 1001 OR ts = 1000;
SELECT uuid FROM trips WHERE ts NOT IN (1000, 3001) ORDER BY uuid;
-- floating point is not pushed (NaN orders and compares as Spark does only above the scan)
SELECT uuid FROM trips WHERE fare IN (19.10, 12.0) ORDER BY uuid;
EXPLAIN SELECT uuid FROM trips WHERE fare IN (19.10, 12.0);
-- UPDATE and DELETE find their rows through the same scans
UPDATE trips SET rider = 'rider-X' WHERE uuid IN ('u1', 'u7');
DELETE FROM trips WHERE uuid = 'u2' OR uuid = 'u6';
SELECT uuid, rider, city FROM trips ORDER BY uuid;
-- an integer record key: keys are the decimal text
CREATE TABLE items (id INT, name STRING, grp STRING)
USING hudi PARTITIONED BY (grp) TBLPROPERTIES (primaryKey = 'id');
INSERT INTO items VALUES (1, 'a', 'g1'), (2, 'b', 'g1'), (10, 'c', 'g2'), (11, 'd', 'g2'), (20, 'e', 'g3');
SELECT id, name FROM items WHERE id IN (2, 20) ORDER BY id;
SELECT id, name FROM items WHERE id + 0 IN (2, 20) ORDER BY id;
EXPLAIN SELECT id, name FROM items WHERE id IN (2, 20);
SELECT id FROM items WHERE id IN (1, NULL);
SELECT id FROM items WHERE id NOT IN (1, NULL);
SELECT id FROM items WHERE id NOT IN (1, 2) ORDER BY id;
-- a constant of a wider type casts the column: nothing is pushed
SELECT id FROM items WHERE id IN (2, 3000000000) ORDER BY id;
EXPLAIN SELECT id FROM items WHERE id IN (2, 3000000000);
-- a Parquet table: IN on a partition folder prunes, on a data column its bounds skip files
CREATE TABLE pq (id INT, v STRING, part STRING) USING parquet PARTITIONED BY (part) LOCATION '${TMP}/pq';
INSERT INTO pq VALUES (1, 'a', 'p1'), (2, 'b', 'p1'), (3, 'c', 'p2'), (4, 'd', 'p3');
SELECT id, part FROM pq WHERE part IN ('p1', 'p3') ORDER BY id;
EXPLAIN SELECT id, part FROM pq WHERE part IN ('p1', 'p3');
SELECT id, part FROM pq WHERE part = 'p2' OR part = 'p9' ORDER BY id;
SELECT id FROM pq WHERE id IN (3, 4) ORDER BY id;
EXPLAIN SELECT id FROM pq WHERE id IN (3, 4);
SELECT id FROM pq WHERE part NOT IN ('p1') ORDER BY id;
-- a date partition: IN with strings compares as strings (Spark casts the column): not pushed;
-- `=` casts the string to a date, and so do DATE literals: pushed
CREATE TABLE ev (id INT, d DATE) USING hudi PARTITIONED BY (d) TBLPROPERTIES (primaryKey = 'id');
INSERT INTO ev VALUES (1, DATE '2024-01-01'), (2, DATE '2024-01-02'), (3, DATE '2024-01-03');
SELECT id, d FROM ev WHERE d IN ('2024-01-01', '2024-01-03') ORDER BY id;
EXPLAIN SELECT id, d FROM ev WHERE d IN ('2024-01-01', '2024-01-03');
SELECT id FROM ev WHERE d IN (DATE '2024-01-01', DATE '2024-01-03') ORDER BY id;
EXPLAIN SELECT id FROM ev WHERE d IN (DATE '2024-01-01', DATE '2024-01-03');
SELECT id FROM ev WHERE d = DATE '2024-01-02' OR d = '2024-01-09' ORDER BY id;
EXPLAIN SELECT id FROM ev WHERE d = DATE '2024-01-02' OR d = '2024-01-09';
