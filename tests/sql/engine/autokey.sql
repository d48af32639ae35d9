-- Tables without a primaryKey: record keys generated on insert (docs/formats/keys.md §9).
CREATE TABLE logs (id INT, msg STRING, level STRING) USING hudi;
CALL show_table_properties(table => 'logs', limit => 100);
INSERT INTO logs VALUES (1, 'start', 'info'), (2, 'disk', 'warn'), (2, 'disk', 'warn');
INSERT INTO logs VALUES (1, 'start', 'info'), (3, 'stop', 'info');
-- duplicates are kept: every row has its own key, "<commit time>_0_<row>"
SELECT id, msg, level FROM logs ORDER BY id, msg;
SELECT count(*), count(DISTINCT _hoodie_record_key) FROM logs;
SELECT substring(_hoodie_record_key, 19), substring(_hoodie_record_key, 1, 17) = _hoodie_commit_time, _hoodie_partition_path FROM logs ORDER BY _hoodie_record_key;
-- UPDATE and DELETE find rows by their stored keys
UPDATE logs SET msg = 'disk full' WHERE id = 2;
SELECT id, msg, level FROM logs ORDER BY id, msg;
SELECT count(*), count(DISTINCT _hoodie_record_key) FROM logs;
DELETE FROM logs WHERE id = 1;
SELECT id, msg, level FROM logs ORDER BY id, msg;
-- MERGE: matched rows by a data column, updates and deletes by key, inserts get new keys
MERGE INTO logs t
USING (SELECT 2 AS id, 'disk ok' AS msg, 'info' AS level
       UNION ALL SELECT 3, 'gone', 'info'
       UNION ALL SELECT 4, 'new', 'error') s
ON t.id = s.id
WHEN MATCHED AND s.msg = 'gone' THEN DELETE
WHEN MATCHED THEN UPDATE SET msg = s.msg
WHEN NOT MATCHED THEN INSERT *;
SELECT id, msg, level FROM logs ORDER BY id, msg;
SELECT count(*), count(DISTINCT _hoodie_record_key) FROM logs;
-- partitioned, created from a query
CREATE TABLE events USING hudi PARTITIONED BY (dt) AS
SELECT 1 AS id, 'a' AS name, '2024-01-01' AS dt
UNION ALL SELECT 2, 'b', '2024-01-02'
UNION ALL SELECT 2, 'b', '2024-01-02';
CALL show_table_properties(table => 'events', limit => 100);
SELECT id, name, dt, _hoodie_partition_path, substring(_hoodie_record_key, 19) FROM events ORDER BY id, _hoodie_record_key;
INSERT INTO events VALUES (3, 'c', '2024-01-01');
UPDATE events SET name = 'bb' WHERE id = 2;
DELETE FROM events WHERE dt = '2024-01-01' AND id = 1;
SELECT id, name, dt, _hoodie_partition_path FROM events ORDER BY id, name;
SELECT count(*), count(DISTINCT _hoodie_record_key) FROM events;
-- not partitioned, created from a query
CREATE TABLE copy USING hudi AS SELECT id, msg FROM logs;
SELECT id, msg, _hoodie_partition_path FROM copy ORDER BY id, msg;
SELECT count(*), count(DISTINCT _hoodie_record_key) FROM copy;
