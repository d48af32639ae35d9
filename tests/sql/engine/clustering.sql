-- Clustering (docs/formats/timeline.md §13): CALL run_clustering and show_clustering.
CREATE TABLE c (id INT, name STRING, ts BIGINT, dt STRING) USING hudi PARTITIONED BY (dt) TBLPROPERTIES (primaryKey = 'id', preCombineField = 'ts');
-- three bulk inserts: three small file groups per partition
SET hoodie.spark.sql.insert.into.operation=bulk_insert;
INSERT INTO c VALUES (5, 'e', 1, 'x'), (2, 'b', 1, 'y');
INSERT INTO c VALUES (3, 'c', 2, 'x'), (4, 'd', 2, 'y');
INSERT INTO c VALUES (1, 'a', 3, 'x'), (6, 'f', 3, 'y');
SET hoodie.spark.sql.insert.into.operation=upsert;
SELECT dt, count(DISTINCT _hoodie_file_name) FROM c GROUP BY dt ORDER BY dt;
CALL show_clustering(table => 'c');
-- schedule only: the plan is pending, the table reads as before
CALL run_clustering(table => 'c', op => 'schedule', selected_partitions => 'dt=x', show_involved_partition => true);
CALL show_clustering(table => 'c', show_involved_partition => true);
SELECT id, name, ts, dt FROM c ORDER BY id;
-- a file group outside the plan can be updated
UPDATE c SET name = 'dd' WHERE id = 4;
-- execute every pending clustering: dt=x has one file group left
CALL run_clustering(table => 'c', op => 'execute', show_involved_partition => true);
SELECT dt, count(DISTINCT _hoodie_file_name) FROM c GROUP BY dt ORDER BY dt;
SELECT id, name, ts, dt FROM c ORDER BY id;
-- the commit times of the rows are preserved: three inserts, three commit times
SELECT count(DISTINCT _hoodie_commit_time), count(DISTINCT _hoodie_file_name) FROM c WHERE dt = 'x';
-- after the clustering its rows can be updated again
UPDATE c SET name = 'cc' WHERE id = 3;
SELECT id, name FROM c WHERE dt = 'x' ORDER BY id;
-- schedule and execute with sort columns: dt=x is rewritten in ts order (the file order)
CALL run_clustering(table => 'c', order => 'ts', selected_partitions => 'dt=x');
SELECT id, ts FROM c WHERE dt = 'x';
CALL run_clustering(table => 'c', order => 'name', selected_partitions => 'dt=y', show_involved_partition => true);
CALL run_clustering(table => 'c', order => 'ts,id', options => 'hoodie.clustering.plan.strategy.small.file.limit=1');
CALL show_clustering(table => 'c', limit => 2);
CALL show_clustering(path => '${WAREHOUSE}/default/c', show_involved_partition => true);
-- an overwrite is a replacecommit but not a clustering
INSERT OVERWRITE c PARTITION (dt = 'y') VALUES (7, 'g', 4);
CALL show_clustering(table => 'c');
SELECT id, name, ts, dt FROM c ORDER BY id;
-- errors
CALL run_clustering(table => 'c', order => 'nope');
CALL run_clustering(table => 'c', instants => '20240101000000000');
CALL run_clustering(table => 'c', op => 'schedule', instants => '20240101000000000');
CALL run_clustering(table => 'c', op => 'bogus');
CALL run_clustering(table => 'c', predicate => 'dt = "x"');
CALL run_clustering(table => 'c', order_strategy => 'z-order');
CALL run_clustering(table => 'c', options => 'hoodie.clustering.plan.strategy.max.num.groups=x');
CALL run_clustering(table => 'c', options => 'hoodie.unknown=1');
CALL run_clustering();
CALL show_clustering(table => 'nope');
