-- Statements of the Apache Hudi 0.14.1 "SQL DDL" page (Flink SQL), verbatim.

CREATE CATALOG hoodie_catalog
 WITH (
 'type'='hudi',
 'catalog.path' = '${catalog default root path}',
 'hive.conf.dir' = '${directory where hive-site.xml is located}',
 'mode'='hms' -- supports 'dfs' mode that uses the DFS backend for table DDLs persistence
 );

-- create a Hudi table
CREATE TABLE hudi_table(
 id BIGINT,
 name STRING,
 price DOUBLE
)
WITH (
'connector' = 'hudi',
'path' = 'file:///tmp/hudi_table',
'table.type' = 'MERGE_ON_READ'
);

CREATE TABLE hudi_table(
 id BIGINT,
 name STRING,
 dt STRING,
 hh STRING
)
PARTITIONED BY (`dt`)
WITH (
'connector' = 'hudi',
'path' = 'file:///tmp/hudi_table',
'table.type' = 'MERGE_ON_READ'
);

CREATE TABLE hudi_table(
 id BIGINT PRIMARY KEY NOT ENFORCED,
 name STRING,
 price DOUBLE,
 ts BIGINT
)
PARTITIONED BY (`dt`)
WITH (
'connector' = 'hudi',
'path' = 'file:///tmp/hudi_table',
'table.type' = 'MERGE_ON_READ',
'precombine.field' = 'ts'
);

ALTER TABLE tableA RENAME TO tableB;

CREATE TABLE hudi_table(
 id BIGINT PRIMARY KEY NOT ENFORCED,
 name STRING,
 price DOUBLE,
 ts BIGINT
)
PARTITIONED BY (`dt`)
WITH (
'connector' = 'hudi',
'path' = 'file:///tmp/hudi_table',
'table.type' = 'MERGE_ON_READ',
'precombine.field' = 'ts',
'hoodie.cleaner.fileversions.retained' = '20',
'hoodie.keep.max.commits' = '20',
'hoodie.datasource.write.hive_style_partitioning' = 'true'
);
