-- Lexical forms (docs/SQL.md "Lexical rules"): literals with their suffixes, escapes,
-- adjacent strings, typed literals, intervals, comments and case.
SELECT 1, 2147483648, 123L, 12S, 7Y, 1.5, .5, 5., 1.5D, 2D, 1.5F, 1.5BD, 10BD, 1e3, 1.5E-2, 2e+3D;
SELECT -1, -9223372036854775808L, -1.5, -1e3;
SELECT 'single', "double", 'it''s', 'a' "b" 'c', '', "";
SELECT 'q\'s', "d\"q", 'b\\s', 'n\nt\tr\r', 'z\0', '\u00e9\u20ac', '\101', '\%\_', '\x';
SELECT X'0AFF', x'', X'deadBEEF';
SELECT DATE '2021-12-09', TIMESTAMP '2021-12-09 10:00:00', TIMESTAMP_NTZ '2021-12-09 10:00:00';
SELECT INTERVAL '1' DAY, INTERVAL 3 HOURS, INTERVAL '1-2' YEAR TO MONTH, INTERVAL 1 DAY 2 HOURS 3 MINUTES, INTERVAL -1 WEEK;
SELECT TRUE, FALSE, NULL, true, null;
select A, b -- trailing comment
from /* block /* nested */ comment */ T where/**/x=1;
SeLeCt 1aa, a1, _x FrOm t WhErE 1=1;
-- an empty statement and a trailing ;; are fine
;
SELECT 1;;
# a doc-style hash comment between statements
// and a doc-style slash comment
SELECT 2
