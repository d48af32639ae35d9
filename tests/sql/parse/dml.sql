-- DML shapes of Hudi's Spark SQL pages (spec appendix A) and the grammar of INSERT, UPDATE,
-- DELETE and MERGE INTO.
insert into hudi_cow_nonpcf_tbl select 1, 'a1', 20;
insert into hudi_mor_tbl select 1, 'a1', 20, 1000;
insert into hudi_cow_pt_tbl partition(dt = '2021-12-09', hh='11') select 2, 'a2', 1000;
insert into hudi_cow_pt_tbl partition (dt, hh)
select 1 as id, 'a1' as name, 1000 as ts, '2021-12-09' as dt, '10' as hh;
INSERT OVERWRITE hudi_mor_tbl SELECT 99, 'a99', 20.0, 900;
INSERT OVERWRITE hudi_cow_pt_tbl PARTITION(dt='2021-12-09', hh='12') SELECT 13, 'a13', 1100;
INSERT OVERWRITE TABLE hudi_cow_pt_tbl SELECT 10, 'a10', 1100, '2021-12-09', '10';
INSERT OVERWRITE TABLE t PARTITION (dt = '2021-12-09') IF NOT EXISTS SELECT * FROM src;
INSERT INTO hudi_table
VALUES
(1695159649087,'334e26e9-8355-45cc-97c6-c31daf0df330','rider-A','driver-K',19.10,'san_francisco'),
(1695091554788,'e96c4396-3fad-413a-a942-4cb36106d721','rider-C','driver-M',27.70 ,'san_francisco');
insert into merge_source values (1, "old_a1", 22.22, 900), (2, "new_a2", 33.33, 2000);
INSERT INTO TABLE db.t (id, name) VALUES (1, 'a');
INSERT INTO t (SELECT * FROM s);
INSERT INTO t TABLE s;
INSERT INTO t /*+ OPTIONS('write.operation'='upsert') */ SELECT * FROM s;
UPDATE hudi_table SET fare = 25.0 WHERE rider = 'rider-D';
update hudi_mor_tbl set price = price * 2, ts = 1111 where id = 1;
UPDATE hudi_table SET rider = 'rider-B', driver = 'driver-N', ts = '1697516137' WHERE rider = 'rider-A';
UPDATE db.t AS x SET x.a = x.a + 1;
DELETE FROM hudi_table WHERE uuid = '3f3d9565-7261-40e6-9b39-b8aa784f95e2';
delete from hudi_cow_nonpcf_tbl where uuid = 1;
delete from hudi_mor_tbl where id % 2 = 0;
DELETE FROM t;
DELETE FROM t x WHERE x.id IN (SELECT id FROM gone);
MERGE INTO hudi_table AS target
USING fare_adjustment AS source
ON target.uuid = source.uuid
WHEN MATCHED THEN UPDATE SET target.fare = target.fare + source.fare
WHEN NOT MATCHED THEN INSERT *
;
merge into hudi_mor_tbl as target
using merge_source as source
on target.id = source.id
when matched then
 update set *
when not matched then
 insert *
;
merge into hudi_cow_pt_tbl as target
using (
  select id, name, '1000' as ts, flag, dt, hh from merge_source2
) source
on target.id = source.id
when matched and flag != 'delete' then
 update set id = source.id, name = source.name, ts = source.ts, dt = source.dt, hh = source.hh
when matched and flag = 'delete' then delete
when not matched then
 insert (id, name, ts, dt, hh) values(source.id, source.name, source.ts, source.dt, source.hh)
;
MERGE INTO t USING s ON t.k = s.k WHEN NOT MATCHED BY TARGET THEN INSERT * WHEN NOT MATCHED BY SOURCE THEN DELETE;
