SELECT `never closed FROM t;
