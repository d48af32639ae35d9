-- Queries without tables: literals, arithmetic, NULL semantics, VALUES, set operations,
-- aggregates, joins, ORDER BY / LIMIT, subqueries.
SELECT 1, 2L, 1.5, 1.5D, 'a', true, NULL;
SELECT 1 + 2 * 3, 7 / 2, 7 div 2, 7 % 3, -5 + 2;
SELECT NULL + 1, NULL = NULL, NULL <=> NULL, 1 <=> NULL, NOT NULL, NULL AND false, NULL OR true;
SELECT 1 / 0, 2147483647 + 1, CAST('1.9' AS INT), CAST('abc' AS INT);
SELECT * FROM VALUES (1, 'a'), (2, 'b'), (3, NULL) AS t(id, name);
SELECT id, name FROM VALUES (1, 'a'), (2, 'b'), (3, NULL) AS t(id, name) WHERE name IS NOT NULL ORDER BY id DESC;
SELECT count(*), count(name), count(DISTINCT name), sum(id), avg(id), min(name), max(name)
FROM VALUES (1, 'a'), (2, 'b'), (3, NULL), (4, 'a') AS t(id, name);
SELECT name, count(*) AS n, sum(id) FROM VALUES (1, 'a'), (2, 'b'), (3, NULL), (4, 'a') AS t(id, name)
GROUP BY name ORDER BY name NULLS LAST;
SELECT name, count(*) FROM VALUES (1, 'a'), (2, 'b'), (4, 'a') AS t(id, name) GROUP BY 1 HAVING count(*) > 1;
SELECT count(*), sum(x) FROM VALUES (1) AS t(x) WHERE x > 5;
SELECT a.id, a.v, b.w FROM VALUES (1, 'x'), (2, 'y'), (3, 'z') AS a(id, v)
JOIN VALUES (1, 10), (3, 30), (3, 31), (4, 40) AS b(id, w) ON a.id = b.id ORDER BY a.id, b.w;
SELECT a.id, b.w FROM VALUES (1), (2), (NULL) AS a(id) LEFT JOIN VALUES (1, 10), (NULL, 99) AS b(id, w) ON a.id = b.id ORDER BY a.id;
SELECT a.id, b.id FROM VALUES (1), (2) AS a(id) FULL OUTER JOIN VALUES (2), (3) AS b(id) ON a.id = b.id ORDER BY a.id, b.id;
SELECT x FROM VALUES (1), (2), (3) AS t(x) WHERE x IN (SELECT y FROM VALUES (2), (3), (4) AS u(y));
SELECT x FROM VALUES (1), (2), (3) AS t(x) WHERE x NOT IN (SELECT y FROM VALUES (2) AS u(y)) ORDER BY x;
SELECT x FROM VALUES (1), (2) AS t(x) WHERE x NOT IN (SELECT y FROM VALUES (2), (NULL) AS u(y));
SELECT x, (SELECT max(y) FROM VALUES (5), (7) AS u(y)) AS m FROM VALUES (1) AS t(x);
SELECT 1 AS a UNION ALL SELECT 1 UNION ALL SELECT 2;
SELECT 1 AS a UNION SELECT 1 UNION SELECT 2 ORDER BY a;
SELECT x FROM VALUES (1), (2), (2), (3) AS t(x) INTERSECT SELECT y FROM VALUES (2), (3), (4) AS u(y) ORDER BY 1;
SELECT x FROM VALUES (1), (2), (3) AS t(x) EXCEPT SELECT 2 ORDER BY 1;
SELECT DISTINCT x FROM VALUES (1), (1), (NULL), (NULL) AS t(x) ORDER BY x;
SELECT x FROM VALUES (5), (1), (4), (2), (3) AS t(x) ORDER BY x DESC LIMIT 2;
SELECT x FROM VALUES (5), (1), (4), (2), (3) AS t(x) ORDER BY x LIMIT 2 OFFSET 1;
WITH t AS (SELECT 1 AS a UNION ALL SELECT 2) SELECT sum(a) FROM t;
SELECT CASE WHEN 1 > 2 THEN 'a' WHEN 2 > 1 THEN 'b' ELSE 'c' END, CASE 3 WHEN 1 THEN 'one' ELSE 'other' END;
SELECT coalesce(NULL, 2), if(1 < 2, 'yes', 'no'), nvl(NULL, 'x');
SELECT upper('SparkSql'), lower('SparkSql'), length('Spark SQL '), substring('Spark SQL', 5, 1), substring('Spark SQL', -3);
SELECT concat('a', 'b', 'c'), concat('a', NULL), concat_ws('-', 'a', NULL, 'b');
SELECT regexp_extract('100-200', '(\\d+)-(\\d+)', 1), regexp_replace('100-200', '(\\d+)', 'num');
SELECT 'abc' LIKE 'a%', 'abc' LIKE '_b_', 'abc' NOT LIKE 'b%', 'abc' RLIKE '^a.c$';
SELECT 5 BETWEEN 1 AND 10, 5 NOT BETWEEN 1 AND 4, 3 IN (1, 2, 3), 3 IN (1, NULL), 4 NOT IN (1, NULL);
SELECT from_unixtime(0), from_unixtime(1695159649, 'yyyy-MM-dd'), unix_timestamp('2023-09-19 21:40:49');
SELECT year('2016-07-30'), month('2016-07-30'), day('2009-07-30'), hour('2009-07-30 12:58:59');
SELECT date_format('2016-04-08', 'y'), to_date('2009-07-30 04:17:52'), to_timestamp('2016-12-31', 'yyyy-MM-dd');
SELECT DATE '2024-02-29', TIMESTAMP '2024-01-01 10:00:00.123', CAST('2024-1-5' AS DATE);
SELECT CAST(1.0E10 AS STRING), CAST(0.1 AS DOUBLE), CAST(12.5 AS DECIMAL(5, 2)), CAST(1e20 AS INT), CAST(3.99 AS INT);
SELECT round(2.5), round(-2.5), round(3.14159, 2), abs(-3);
EXPLAIN SELECT x FROM VALUES (1), (2) AS t(x) WHERE x > 1;
-- rows of struct values get one struct type (its field names kept), also in CASE and coalesce
SELECT * FROM VALUES (1, named_struct('a', 1, 'b', 'x')), (2, named_struct('a', 2, 'b', 'y')) AS t(id, s);
SELECT CASE WHEN 1 > 2 THEN named_struct('a', 1) ELSE named_struct('a', 2) END, coalesce(NULL, named_struct('a', 3), named_struct('a', 4));
-- errors: unknown column, unknown function, syntax, type
SELECT nope FROM VALUES (1) AS t(x);
SELECT no_such_function(1);
SELECT FROM WHERE;
SELECT x, count(*) FROM VALUES (1) AS t(x);
SELECT 1 UNION SELECT 1, 2;
