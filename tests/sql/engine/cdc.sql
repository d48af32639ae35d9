-- Change data capture: hudi_table_changes(t, 'cdc', begin[, end]) on copy-on-write tables with
-- hoodie.table.cdc.enabled, one table per supplemental logging mode. File names (random ids)
-- are cut out of the JSON images; instants show as ${INSTANT}.
CREATE TABLE cdc_ba (id INT, name STRING, price DOUBLE, ts BIGINT, dt STRING) USING hudi
PARTITIONED BY (dt) TBLPROPERTIES (primaryKey = 'id', preCombineField = 'ts', 'hoodie.table.cdc.enabled' = 'true');
INSERT INTO cdc_ba VALUES (1, 'a', 10.0, 1000, '2021'), (2, 'b', 20.0, 1000, '2021'), (3, 'c', 30.0, 1000, '2022');
UPDATE cdc_ba SET price = price * 2, ts = 1111 WHERE id = 1;
DELETE FROM cdc_ba WHERE id = 2;
MERGE INTO cdc_ba t USING (SELECT 3 AS id, 'cc' AS name, 33.0D AS price, 1200L AS ts, '2022' AS dt UNION ALL SELECT 4, 'd', 40.0D, 1200L, '2022') s
ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *;
INSERT INTO cdc_ba VALUES (5, 'e', 50.0, 1000, '2023');
DELETE FROM cdc_ba WHERE id = 5;
SELECT op, ts_ms, regexp_replace(before, '"_hoodie_file_name": ?"[^"]*",?', ''), regexp_replace(after, '"_hoodie_file_name": ?"[^"]*",?', '') FROM hudi_table_changes('default.cdc_ba', 'cdc', 'earliest') ORDER BY 2, 1, 3, 4;
SELECT op, count(*) FROM hudi_table_changes('cdc_ba', 'cdc', '000') GROUP BY op ORDER BY op;
INSERT OVERWRITE cdc_ba PARTITION (dt = '2022') VALUES (7, 'g', 70.0, 1000);
SELECT op, regexp_replace(before, '"_hoodie_file_name": ?"[^"]*",?', ''), regexp_replace(after, '"_hoodie_file_name": ?"[^"]*",?', '') FROM hudi_table_changes('cdc_ba', 'cdc', 'earliest') c WHERE c.ts_ms = (SELECT max(ts_ms) FROM hudi_table_changes('cdc_ba', 'cdc', 'earliest')) ORDER BY 1, 2, 3;
CREATE TABLE cdc_b (id INT, name STRING, price DOUBLE, ts BIGINT, dt STRING) USING hudi
PARTITIONED BY (dt) TBLPROPERTIES (primaryKey = 'id', preCombineField = 'ts', 'hoodie.table.cdc.enabled' = 'true', 'hoodie.table.cdc.supplemental.logging.mode' = 'DATA_BEFORE');
INSERT INTO cdc_b VALUES (1, 'a', 10.0, 1000, '2021'), (2, 'b', 20.0, 1000, '2021');
UPDATE cdc_b SET price = 11.0 WHERE id = 1;
DELETE FROM cdc_b WHERE id = 2;
SELECT op, ts_ms, regexp_replace(before, '"_hoodie_file_name": ?"[^"]*",?', ''), regexp_replace(after, '"_hoodie_file_name": ?"[^"]*",?', '') FROM hudi_table_changes('cdc_b', 'cdc', 'earliest') ORDER BY 2, 1, 3, 4;
CREATE TABLE cdc_k (id INT, name STRING, price DOUBLE, ts BIGINT, dt STRING) USING hudi
PARTITIONED BY (dt) TBLPROPERTIES (primaryKey = 'id', preCombineField = 'ts', 'hoodie.table.cdc.enabled' = 'true', 'hoodie.table.cdc.supplemental.logging.mode' = 'OP_KEY_ONLY');
INSERT INTO cdc_k VALUES (1, 'a', 10.0, 1000, '2021'), (2, 'b', 20.0, 1000, '2021');
UPDATE cdc_k SET price = 11.0 WHERE id = 1;
DELETE FROM cdc_k WHERE id = 2;
SELECT op, ts_ms, regexp_replace(before, '"_hoodie_file_name": ?"[^"]*",?', ''), regexp_replace(after, '"_hoodie_file_name": ?"[^"]*",?', '') FROM hudi_table_changes('cdc_k', 'cdc', 'earliest') ORDER BY 2, 1, 3, 4;
SHOW TBLPROPERTIES cdc_k ('hoodie.table.cdc.supplemental.logging.mode');
-- merge-on-read: log appends are inferred from the file group's rows before and after (LOG_FILE)
CREATE TABLE cdc_mor (id INT, name STRING, price DOUBLE, ts BIGINT, dt STRING) USING hudi
PARTITIONED BY (dt) TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts', 'hoodie.table.cdc.enabled' = 'true');
INSERT INTO cdc_mor VALUES (1, 'a', 10.0, 1000, '2021'), (2, 'b', 20.0, 1000, '2021'), (3, 'c', 30.0, 1000, '2022');
UPDATE cdc_mor SET price = price * 2, ts = 1111 WHERE id = 1;
DELETE FROM cdc_mor WHERE id = 2;
MERGE INTO cdc_mor t USING (SELECT 3 AS id, 'cc' AS name, 33.0D AS price, 1200L AS ts, '2022' AS dt UNION ALL SELECT 4, 'd', 40.0D, 1200L, '2022') s
ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *;
UPDATE cdc_mor SET name = 'aa', ts = 2222 WHERE id = 1;
DELETE FROM cdc_mor WHERE id = 99;
SET hoodie.compact.inline.max.delta.commits = 1;
CALL run_compaction(op => 'scheduleAndExecute', table => 'cdc_mor');
UPDATE cdc_mor SET price = 1.0, ts = 1 WHERE id = 3;
UPDATE cdc_mor SET price = 1.0, ts = 1 WHERE id = 3;
SELECT op, ts_ms, regexp_replace(before, '"_hoodie_file_name": ?"[^"]*",?', ''), regexp_replace(after, '"_hoodie_file_name": ?"[^"]*",?', '') FROM hudi_table_changes('cdc_mor', 'cdc', 'earliest') ORDER BY 2, 1, 3, 4;
SELECT op, count(*) FROM hudi_table_changes('cdc_mor', 'cdc', 'earliest') GROUP BY op ORDER BY op;
-- errors
CREATE TABLE plain (id INT, ts BIGINT) USING hudi TBLPROPERTIES (primaryKey = 'id');
SELECT * FROM hudi_table_changes('plain', 'cdc', 'earliest');
SELECT * FROM hudi_table_changes('cdc_ba', 'changes', 'earliest');
