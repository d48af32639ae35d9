#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_sql_parse: every statement of tests/sql/**/*.sql as its own
file, plus each whole file, named by content hash. Crashers found by libFuzzer are kept in
the same folder under their libFuzzer names. Run from anywhere: python3 make_sql_corpus.py"""
import hashlib
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
SQL = HERE.parent / "sql"
OUT = HERE / "corpus" / "sql_parse"


def statements(text):
    """Splits on ';' outside quotes and comments (the way the shell will)."""
    out, cur, i, n = [], [], 0, len(text)
    while i < n:
        c = text[i]
        if c in "'\"`":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" and c != "`" else 1
            cur.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("--", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            cur.append(text[i:j])
            i = j
        elif c == ";":
            out.append("".join(cur).strip())
            cur, i = [], i + 1
        else:
            cur.append(c)
            i += 1
    out.append("".join(cur).strip())
    return [s for s in out if s]


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    names = set()
    for f in sorted(SQL.rglob("*.sql")):
        text = f.read_text(encoding="utf-8")
        for piece in [text] + statements(text):
            data = piece.encode("utf-8")
            name = "seed-" + hashlib.sha1(data).hexdigest()[:16]
            (OUT / name).write_bytes(data)
            names.add(name)
    # seeds of statements that are gone are removed; other files (crashers) stay
    for old in OUT.glob("seed-*"):
        if old.name not in names:
            old.unlink()
    print(f"{len(names)} seed inputs in {OUT}")


if __name__ == "__main__":
    main()
