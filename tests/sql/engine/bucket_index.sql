-- Hudi's simple bucket index (docs/formats/base-files.md §5.1) from TBLPROPERTIES: every row
-- lives in the file group of its key's bucket, whose file id starts with the bucket number.
CREATE TABLE bm (id INT, name STRING, ts BIGINT, part STRING) USING hudi PARTITIONED BY (part) TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts', hoodie.index.type = 'BUCKET', hoodie.bucket.index.num.buckets = '4');
INSERT INTO bm VALUES (1, 'a', 1, 'p1'), (2, 'b', 1, 'p0'), (3, 'c', 1, 'p1'), (4, 'd', 1, 'p0'), (5, 'e', 1, 'p1'), (6, 'f', 1, 'p0');
-- bucket = (31 + String.hashCode(key)) & INT_MAX % 4: '1' -> 0, '2' -> 1, ... '6' -> 1
SELECT id, substr(_hoodie_file_name, 1, 9) AS bucket, part FROM bm ORDER BY id;
UPDATE bm SET name = 'B' WHERE id = 2;
DELETE FROM bm WHERE id = 3;
-- 10 is in bucket 2 of p0 (new group), 9 in bucket 0 of p1 (old group, to its logs)
MERGE INTO bm USING (SELECT 1 AS id, 'A' AS name, 2L AS ts, 'p1' AS part UNION ALL SELECT 9, 'i', 2L, 'p1' UNION ALL SELECT 10, 'j', 2L, 'p0') s ON bm.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *;
SELECT id, name, substr(_hoodie_file_name, 1, 9) AS bucket, part FROM bm ORDER BY id;
SELECT part, count(DISTINCT substr(_hoodie_file_name, 1, 36)) AS groups FROM bm GROUP BY part ORDER BY part;
-- clustering would break the bucket layout: refused, as in Hudi
CALL run_clustering(table => 'bm');
-- copy-on-write: the bucket's base file is rewritten
CREATE TABLE bc (id INT, name STRING, ts BIGINT) USING hudi TBLPROPERTIES (primaryKey = 'id', preCombineField = 'ts', hoodie.index.type = 'BUCKET', hoodie.bucket.index.num.buckets = '2');
INSERT INTO bc VALUES (1, 'a', 1), (2, 'b', 1), (3, 'c', 1);
INSERT INTO bc VALUES (4, 'd', 2), (5, 'e', 2);
UPDATE bc SET name = 'C' WHERE id = 3;
SELECT id, name, substr(_hoodie_file_name, 1, 9) AS bucket FROM bc ORDER BY id;
SELECT count(DISTINCT substr(_hoodie_file_name, 1, 36)) AS groups FROM bc;
-- errors: another bucket engine, a hash field that is not a key field
SET hoodie.index.bucket.engine = CONSISTENT_HASHING;
INSERT INTO bc VALUES (6, 'f', 3);
SET hoodie.index.bucket.engine = SIMPLE;
SET hoodie.bucket.index.hash.field = name;
INSERT INTO bc VALUES (6, 'f', 3);
