-- Tables: create, insert, query, update, delete, merge, time travel, SHOW and DESCRIBE.
CREATE TABLE trips (uuid STRING, rider STRING, fare DOUBLE, ts BIGINT, city STRING)
USING hudi PARTITIONED BY (city) TBLPROPERTIES (primaryKey = 'uuid', preCombineField = 'ts');
INSERT INTO trips VALUES
  ('u1', 'rider-A', 19.10, 1000, 'san_francisco'),
  ('u2', 'rider-B', 27.70, 1000, 'san_francisco'),
  ('u3', 'rider-C', 33.90, 1000, 'chennai'),
  ('u4', 'rider-D', 93.50, 1000, 'sao_paulo');
SELECT uuid, rider, fare, ts, city FROM trips ORDER BY uuid;
SELECT _hoodie_record_key, _hoodie_partition_path FROM trips ORDER BY 1;
SELECT city, count(*), round(sum(fare), 2) FROM trips GROUP BY city ORDER BY city;
SELECT rider FROM trips WHERE city = 'chennai';
SELECT rider FROM trips WHERE fare > 30 AND city <> 'chennai';
INSERT INTO trips VALUES ('u1', 'rider-A2', 20.00, 2000, 'san_francisco');
SELECT uuid, rider, fare FROM trips WHERE uuid = 'u1';
UPDATE trips SET fare = fare * 2 WHERE rider = 'rider-B';
SELECT uuid, fare FROM trips WHERE uuid = 'u2';
DELETE FROM trips WHERE uuid = 'u3';
SELECT uuid FROM trips ORDER BY uuid;
CREATE TABLE updates (uuid STRING, rider STRING, fare DOUBLE, ts BIGINT, city STRING, op STRING) USING parquet LOCATION '${TMP}/updates';
MERGE INTO trips AS t
USING (SELECT 'u2' AS uuid, 'rider-B' AS rider, 1.0D AS fare, 3000L AS ts, 'san_francisco' AS city, 'U' AS op
       UNION ALL SELECT 'u4', 'rider-D', 0.0D, 3000L, 'sao_paulo', 'D'
       UNION ALL SELECT 'u5', 'rider-E', 5.0D, 3000L, 'chennai', 'I') AS s
ON t.uuid = s.uuid
WHEN MATCHED AND s.op = 'D' THEN DELETE
WHEN MATCHED THEN UPDATE SET *
WHEN NOT MATCHED THEN INSERT *;
SELECT uuid, rider, fare, ts, city FROM trips ORDER BY uuid;
SHOW TABLES;
SHOW PARTITIONS trips;
DESCRIBE trips;
EXPLAIN SELECT rider FROM trips WHERE city = 'chennai' AND fare > 1;
EXPLAIN SELECT rider FROM trips WHERE uuid = 'u2';
INSERT OVERWRITE trips SELECT 'u9', 'rider-Z', 1.0D, 1L, 'chennai';
SELECT uuid, city FROM trips;
-- errors
SELECT * FROM no_such_table;
INSERT INTO trips VALUES (1, 2);
UPDATE trips SET uuid = 'x';
-- CTEs before INSERT scope its query (Spark's `WITH ... INSERT INTO`); other statements after WITH are errors
CREATE TABLE cte_target (id INT, name STRING) USING hudi TBLPROPERTIES (primaryKey = 'id');
WITH src AS (SELECT col1 AS id, col2 AS name FROM VALUES (1, 'one'), (2, 'two')) INSERT INTO cte_target SELECT id, upper(name) FROM src;
WITH extra AS (SELECT 3 AS id) INSERT INTO cte_target WITH named AS (SELECT id, 'three' AS name FROM extra) SELECT * FROM named;
SELECT id, name FROM cte_target ORDER BY id;
WITH v AS (SELECT 1 AS d) UPDATE cte_target SET name = 'x';
