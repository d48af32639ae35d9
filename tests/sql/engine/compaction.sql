-- Compaction of merge-on-read tables (docs/SQL.md 5.6): CALL run_compaction / show_compaction,
-- writes while a plan is pending, inline compaction (hoodie.compact.inline).
CREATE TABLE m (id INT, name STRING, ts BIGINT) USING hudi
TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts');
INSERT INTO m VALUES (1, 'a', 1), (2, 'b', 1), (3, 'c', 1);
CALL show_compaction(table => 'm');
CALL run_compaction(op => 'schedule', table => 'm');
UPDATE m SET name = 'a2', ts = 2 WHERE id = 1;
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
CALL run_compaction(table => 'm');
CREATE TABLE c (id INT) USING hudi TBLPROPERTIES (primaryKey = 'id');
CALL show_compaction(table => 'c');
CALL run_compaction(op => 'run', table => 'c');
-- inline compaction: every second deltacommit since the last compaction
CREATE TABLE mi (id INT, name STRING, ts BIGINT) USING hudi
TBLPROPERTIES (type = 'mor', primaryKey = 'id', preCombineField = 'ts',
  'hoodie.compact.inline' = 'true', 'hoodie.compact.inline.max.delta.commits' = '2');
INSERT INTO mi VALUES (1, 'a', 1), (2, 'b', 1);
UPDATE mi SET name = 'a2', ts = 2 WHERE id = 1;
CALL show_commits(table => 'mi');
UPDATE mi SET name = 'b2', ts = 2 WHERE id = 2;
SET hoodie.compact.inline.max.delta.commits = 1;
UPDATE mi SET name = 'b3', ts = 3 WHERE id = 2;
CALL show_commits(table => 'mi');
SELECT id, name, ts FROM mi ORDER BY id;
