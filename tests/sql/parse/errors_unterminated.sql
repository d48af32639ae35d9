-- Errors that run to the end of the text: they report where the construct started.
SELECT 1;
SELECT 'never closed FROM t;
SELECT 2;
