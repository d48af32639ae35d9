-- Compaction of merge-on-read tables (docs/SQL.md 5.6): CALL run_compaction / show_compaction,
-- writes while a plan is pending, inline compaction (hoodie.compact.inline).
CREATE TABLE m (id INT, name STRING, ts BIGINT) USING hudi
TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO m VALUES (1, 'a', 1), (2, 'b', 1), (3, 'c', 1);
CALL show_compaction(table => 'm');
UPDATE m SET name = 'a2', ts = 2 WHERE id = 1;
-- Hudi's trigger: 5 deltacommits since the last compaction by default
CALL run_compaction(op => 'schedule', table => 'm');
SET hoodie.compact.inline.max.delta.commits = 1;
CALL run_compaction(op => 'schedule', table => 'm');
CALL show_compaction(table => 'm', limit => 5);
-- a write while the plan is pending: read merged with the slice before
UPDATE m SET name = 'b2', ts = 2 WHERE id = 2;
SELECT id, name, ts FROM m ORDER BY id;
-- nothing new to schedule: the pending plan is listed
CALL run_compaction('schedule', 'm');
CALL run_compaction(op => 'execute', table => 'm');
CALL show_compaction(table => 'm');
SELECT id, name, ts FROM m ORDER BY id;
CALL run_compaction(op => 'run', path => '${WAREHOUSE}/default/m');
SELECT id, name, ts FROM m ORDER BY id;
CALL run_compaction(op => 'run', table => 'm');
-- errors
CALL run_compaction(op => 'execute', table => 'm', timestamp => 20200101000000000);
CALL run_compaction(op => 'schedule', table => 'm', instants => '20200101000000000');
CALL run_compaction(op => 'later', table => 'm');
CALL run_compaction(op => 'run', table => 'm', options => 'hoodie.compaction.strategy=x');
CALL run_compaction(op => 'run', table => 'm', options => 'hoodie.compact.inline.max.delta.commits=9');
CALL run_compaction(table => 'm');
CREATE TABLE c (id INT) USING hudi TBLPROPERTIES (primaryKey = 'id');
CALL show_compaction(table => 'c');
CALL run_compaction(op => 'run', table => 'c');
-- inline compaction: every second deltacommit since the last compaction
SET hoodie.compact.inline.max.delta.commits = 2;
CREATE TABLE mi (id INT, name STRING, ts BIGINT) USING hudi
TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts',
  'hoodie.compact.inline' = 'true', 'hoodie.compact.inline.max.delta.commits' = '2');
INSERT INTO mi VALUES (1, 'a', 1), (2, 'b', 1);
-- (a record in a log file names its file group; a compacted one its new base file)
UPDATE mi SET name = 'a2', ts = 2 WHERE id = 1;
SELECT id, name, _hoodie_file_name LIKE '%.parquet' AS in_base_file FROM mi ORDER BY id;
UPDATE mi SET name = 'b2', ts = 2 WHERE id = 2;
SELECT id, name, _hoodie_file_name LIKE '%.parquet' AS in_base_file FROM mi ORDER BY id;
SET hoodie.compact.inline.max.delta.commits = 1;
UPDATE mi SET name = 'b3', ts = 3 WHERE id = 2;
SELECT id, name, _hoodie_file_name LIKE '%.parquet' AS in_base_file FROM mi ORDER BY id;
CALL show_compaction(table => 'mi');
