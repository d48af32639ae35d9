SELECT 1 /* an unterminated /* nested */ comment
;
