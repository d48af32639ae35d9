-- Syntax boxes and fragments of the Apache Hudi 0.14.1 "SQL DDL" page, verbatim. They are
-- grammar templates (placeholders in brackets and ${...}) or TBLPROPERTIES fragments, not
-- statements, so each is a syntax error; a ";" line is added after those that lack one so
-- that the next starts a new statement. The last fragment also misses a comma between its
-- properties (docs/SQL.md: rejected, as Spark does).

CREATE TABLE [IF NOT EXISTS] [db_name.]table_name
 [(col_name data_type [COMMENT col_comment], ...)]
 [COMMENT table_comment]
 [PARTITIONED BY (col_name, ...)]
 [ROW FORMAT row_format]
 [STORED AS file_format]
 [LOCATION path]
 [TBLPROPERTIES (property_name=property_value, ...)]
 [AS select_statement];

CREATE INDEX [IF NOT EXISTS] index_name ON [TABLE] table_name
[USING index_type]
(column_name1 [OPTIONS(key1=value1, key2=value2, ...)], column_name2 [OPTIONS(key1=value1, key2=value2, ...)], ...)
[OPTIONS (key1=value1, key2=value2, ...)]
;

DROP INDEX [IF EXISTS] index_name ON [TABLE] table_name
;

CREATE TABLE IF NOT EXISTS tableName (
 colName1 colType1,
 colName2 colType2,
 ...
) USING hudi
TBLPROPERTIES (
 primaryKey = '${colName1}',
 type = 'cow',
 ${hoodie.config.key1} = '${hoodie.config.value1}',
 ${hoodie.config.key2} = '${hoodie.config.value2}',
 ....
);

TBLPROPERTIES(
 hoodie.write.lock.zookeeper.url = "zookeeper",
 hoodie.write.lock.zookeeper.port = "2181",
 hoodie.write.lock.zookeeper.lock_key = "tableName",
 hoodie.write.lock.provider = "org.apache.hudi.client.transaction.lock.ZookeeperBasedLockProvider",
 hoodie.write.concurrency.mode = "optimistic_concurrency_control",
 hoodie.write.lock.zookeeper.base_path = "/tableName"
)
;

ALTER TABLE tableIdentifier ADD COLUMNS(colAndType [, colAndType]);

ALTER TABLE tableIdentifier SET|UNSET TBLPROPERTIES (table_property = 'property_value');

ALTER TABLE tableIdentifier DROP PARTITION ( partition_col_name = partition_col_val [ , ... ] );

CREATE TABLE [IF NOT EXISTS] [catalog_name.][db_name.]table_name
 (
 { physical_column_definition>
 [ table_constraint> ][ , ...n]
 )
 [COMMENT table_comment]
 [PARTITIONED BY (partition_column_name1, partition_column_name2, ...)]
 WITH (key1=val1, key2=val2, ...)
;

CREATE TABLE IF NOT EXISTS tableName (
 colName1 colType1 PRIMARY KEY NOT ENFORCED,
 colName2 colType2,
 ...
)
WITH (
 'connector' = 'hudi',
 'path' = '${path}',
 ${hoodie.config.key1} = '${hoodie.config.value1}',
 ${hoodie.config.key2} = '${hoodie.config.value2}',
 ....
);

TBLPROPERTIES(
 'hoodie.metadata.index.column.stats.enable' = 'true'
 'hoodie.metadata.record.index.enable' = 'true'
)
;
