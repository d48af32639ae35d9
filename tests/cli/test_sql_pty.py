"""test_sql_pty.py - the interactive `hudic sql` shell in a pseudo-terminal (Python's pty): a
multi-line statement and its box output, history recall (and the history file), tab completion
of a table and a column name, Ctrl-C cancelling a long statement while the shell stays up,
Ctrl-C at the prompt dropping the typed line, the progress line of a long scan and of a
write (and none for a quick statement), Ctrl-D leaving the shell, and plain `hudic` on a
terminal opening the same shell."""
import fcntl
import os
import pty
import re
import select
import signal
import struct
import termios
import time

import pytest

from sql_support import HUDIC, Warehouse

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\x07")
PROMPT = "hudic (default)> "


class Pty:
    """hudic on a pseudo-terminal of 100 columns."""

    def __init__(self, args, env):
        if not HUDIC or not os.access(HUDIC, os.X_OK):
            pytest.fail("hudic binary not found", pytrace=False)
        pid, fd = pty.fork()
        if pid == 0:
            os.execve(HUDIC, [HUDIC, *args], env)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
        self.raw = ""
        self.status = None

    def read_until(self, pattern, timeout=60):
        """Reads until `pattern` (a regex) matches the screen text (escape sequences removed)
        since the last mark; returns that text."""
        end = time.time() + timeout
        rx = re.compile(pattern, re.S)
        while True:
            text = ANSI.sub("", self.raw)
            if rx.search(text):
                self.raw = ""
                return text
            left = end - time.time()
            if left <= 0:
                raise AssertionError("timed out waiting for %r; screen: %r" % (pattern, text[-2000:]))
            r, _, _ = select.select([self.fd], [], [], min(left, 0.2))
            if r:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    data = b""
                if not data:
                    raise AssertionError("hudic exited waiting for %r; screen: %r" % (pattern, text[-2000:]))
                self.raw += data.decode("utf-8", errors="replace")

    def send(self, text):
        os.write(self.fd, text.encode("utf-8"))

    def type_slowly(self, text):
        """Types as a person does (libedit reads key by key)."""
        for ch in text:
            self.send(ch)
            time.sleep(0.01)

    def wait(self, timeout=30):
        """Waits for hudic to exit; returns its exit code."""
        end = time.time() + timeout
        while time.time() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = status
                return os.waitstatus_to_exitcode(status)
            try:
                r, _, _ = select.select([self.fd], [], [], 0.1)
                if r:
                    os.read(self.fd, 65536)
            except OSError:
                pass
        raise AssertionError("hudic did not exit")

    def ctrl_d(self, timeout=30):
        """Ctrl-D until hudic exits; returns its exit code. A Ctrl-D that arrives before libedit
        has put the terminal in raw mode is taken by the terminal's line discipline, which
        leaves a NUL on the line, and Ctrl-D on a line that is not empty is no end of input; so
        each try first clears the line (Ctrl-U)."""
        end = time.time() + timeout
        while time.time() < end:
            time.sleep(0.3)
            self.send("\x15\x04")
            try:
                return self.wait(timeout=1)
            except AssertionError:
                pass
        raise AssertionError("hudic did not exit on Ctrl-D")

    def close(self):
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except OSError:
                pass
        os.close(self.fd)


@pytest.fixture
def shell(tmp_path):
    wh = Warehouse(tmp_path / "wh")
    wh.ok("-S", "-e",
          "CREATE TABLE trips (id INT, rider STRING, fare DOUBLE) USING hudi "
          "TBLPROPERTIES (primaryKey = 'id');"
          "INSERT INTO trips VALUES (1, 'rider-a', 19.1), (2, 'rider-b', 27.7), (3, 'rider-c', 5.5);")
    hist = tmp_path / "history"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TERM": "xterm",
           "HOME": str(tmp_path), "HUDIC_HISTORY": str(hist)}
    for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        if k in os.environ:
            env[k] = os.environ[k]
    p = Pty(["sql", "--warehouse", wh.path], env)
    p.hist = hist
    p.env = env
    p.wh = wh
    yield p
    p.close()


BOX = ("┌─────────┬────────┐\n"
       "│  rider  │  fare  │\n"
       "│ string  │ double │\n"
       "├─────────┼────────┤\n"
       "│ rider-c │    5.5 │\n"
       "│ rider-a │   19.1 │\n"
       "│ rider-b │   27.7 │\n"
       "└─────────┴────────┘")


def history_text(path):
    """The history file's entries; libedit escapes blanks and the like as octal (\\040)."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), path.read_text())


def box_of(screen):
    lines = [l.rstrip("\r") for l in screen.split("\n")]
    return "\n".join(l for l in lines if l[:1] in ("┌", "│", "├", "└"))


def test_multiline_statement_history_and_box(shell):
    shell.read_until(re.escape(PROMPT))
    shell.type_slowly("SELECT rider,\r")
    shell.read_until(r"\n {15}> $")  # the continuation prompt, indented to the prompt's width
    shell.type_slowly("  fare FROM trips\r")
    shell.read_until(r"> $")
    shell.type_slowly("ORDER BY fare;\r")
    screen = shell.read_until(re.escape(PROMPT))
    assert box_of(screen) == BOX, screen
    assert re.search(r"Time taken: \d+\.\d+ seconds, Fetched 3 row\(s\)", screen), screen
    # the whole statement is one history entry: up arrow, enter runs it again
    shell.send("\x1b[A")
    shell.read_until("ORDER BY fare;")
    shell.send("\r")
    screen = shell.read_until(re.escape(PROMPT))
    assert box_of(screen) == BOX, screen
    assert shell.ctrl_d() == 0  # Ctrl-D leaves
    assert "SELECT rider,   fare FROM trips ORDER BY fare;" in history_text(shell.hist)


def test_tab_completion_of_table_and_column(shell):
    """libedit redraws completed words with cursor moves, so what the completion inserted is
    judged by the statement that ran and by the history file, not by the echo."""
    shell.read_until(re.escape(PROMPT))
    shell.type_slowly("SELECT count(*) FROM trip\t")
    time.sleep(1)
    shell.type_slowly("WHERE far\t")
    time.sleep(1)
    shell.type_slowly("> 10;\r")
    screen = shell.read_until(re.escape(PROMPT))
    assert "Error" not in screen, screen
    assert re.search(r"│\s+2 │", screen), screen
    # keywords complete too, in the case typed
    shell.type_slowly("sel\t")
    time.sleep(0.5)
    shell.type_slowly("41 + 1 AS answer;\r")
    screen = shell.read_until(re.escape(PROMPT))
    assert re.search(r"│\s+42 │", screen), screen
    shell.send(".exit\r")
    assert shell.wait() == 0
    hist = history_text(shell.hist)
    assert "SELECT count(*) FROM trips WHERE fare > 10;" in hist, hist
    assert "select 41 + 1 AS answer;" in hist, hist


def test_ctrl_c_cancels_a_running_statement(shell):
    shell.read_until(re.escape(PROMPT))
    # 10^10 rows from a 10-row CTE, short to type: a long statement would fill the terminal's
    # buffers while the shell echoes it
    slow = ("WITH v AS (SELECT col1 AS d FROM VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)) "
            "SELECT count(*) FROM v a CROSS JOIN v b CROSS JOIN v c CROSS JOIN v d CROSS JOIN v e "
            "CROSS JOIN v f CROSS JOIN v g CROSS JOIN v h CROSS JOIN v i CROSS JOIN v j;\r")
    shell.send(slow)
    time.sleep(1.5)
    shell.send("\x03")
    screen = shell.read_until(re.escape(PROMPT), timeout=60)
    assert re.search(r"Error: .*cancel", screen, re.I), screen
    # the shell is still up and runs the next statement
    shell.type_slowly("SELECT 41 + 1 AS answer;\r")
    screen = shell.read_until(re.escape(PROMPT))
    assert re.search(r"│\s+42 │", screen), screen
    assert shell.ctrl_d() == 0


def test_ctrl_c_at_the_prompt_drops_the_line(shell):
    shell.read_until(re.escape(PROMPT))
    shell.type_slowly("SELECT this is\r")
    shell.read_until(r"> $")
    shell.type_slowly("not sql")
    shell.send("\x03")
    shell.read_until(re.escape(PROMPT))
    shell.type_slowly("SELECT 7 AS seven;\r")
    screen = shell.read_until(re.escape(PROMPT))
    assert "Error" not in screen, screen
    assert re.search(r"│\s+7 │", screen), screen
    shell.type_slowly("quit;\r")
    assert shell.wait() == 0


def test_errors_do_not_end_the_shell(shell):
    shell.read_until(re.escape(PROMPT))
    shell.type_slowly("SELECT * FORM trips;\r")
    screen = shell.read_until(re.escape(PROMPT))
    assert re.search(r"Error: line 1, column 10: .*\n.*SELECT \* FORM trips;\s*\n\s{9}\^", screen), screen
    shell.type_slowly(".mode csv\r")
    shell.read_until(re.escape(PROMPT))
    shell.type_slowly("SELECT id FROM trips WHERE id = 2;\r")
    screen = shell.read_until(re.escape(PROMPT))
    assert "id\r\n2\r\n" in screen.replace("\r\r", "\r") or "id\n2\n" in screen.replace("\r", ""), screen
    assert shell.ctrl_d() == 0


def test_plain_hudic_on_a_terminal_opens_the_shell(tmp_path):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TERM": "xterm", "HOME": str(tmp_path),
           "HUDIC_HISTORY": str(tmp_path / "h"), "HUDIC_WAREHOUSE": str(tmp_path / "wh")}
    for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        if k in os.environ:
            env[k] = os.environ[k]
    p = Pty([], env)
    try:
        p.read_until(re.escape(PROMPT))
        p.type_slowly("SELECT 'hi' AS greeting;\r")
        screen = p.read_until(re.escape(PROMPT))
        assert "│ hi       │" in screen, screen
        assert p.ctrl_d() == 0
        assert (tmp_path / "wh").is_dir()
    finally:
        p.close()


def test_progress_line_of_a_long_scan_and_a_write(shell):
    """A statement running longer than a second shows a progress line on stderr (the terminal)
    and erases it before its output; a quick one shows none."""
    wh = shell.wh
    # three partitions of 30,000 rows each (one base file per partition)
    wh.ok("-S", "-e",
          "CREATE TABLE big (id BIGINT, v STRING, p STRING) USING hudi PARTITIONED BY (p) "
          "TBLPROPERTIES (primaryKey = 'id', preCombineField = 'id');"
          "INSERT INTO big WITH v AS (SELECT col1 AS d FROM VALUES (0),(1),(2),(3),(4),(5),(6),"
          "(7),(8),(9)) SELECT a.d * 10000 + b.d * 1000 + c.d * 100 + e.d * 10 + f.d, 'x', "
          "cast(a.d % 3 AS STRING) FROM v a CROSS JOIN v b CROSS JOIN v c CROSS JOIN v e "
          "CROSS JOIN v f WHERE a.d < 9;")
    shell.read_until(re.escape(PROMPT))
    shell.type_slowly("SELECT 41 + 1 AS answer;\r")
    screen = shell.read_until(re.escape(PROMPT))
    assert "scanning" not in screen and "writing" not in screen, screen
    # every row of the table joined with 5,000 of them: the scan of `a` takes many seconds
    shell.type_slowly("SELECT count(*) FROM big a CROSS JOIN (SELECT id FROM big "
                      "WHERE id < 5000) b;\r")
    screen = shell.read_until(r"scanning \[[=> ]{20}\] +\d+%  \d+/6 files  [\d,]+ rows  "
                              r"\d+\.\d s", timeout=60)
    shell.send("\x03")
    screen = shell.read_until(re.escape(PROMPT), timeout=60)
    assert re.search(r"Error: .*cancel", screen, re.I), screen
    # an upsert of every row rewrites the three file groups; a fresh shell that draws at once
    # ($HUDIC_PROGRESS_AFTER_MS=0), since the write may well take less than a second
    assert shell.ctrl_d() == 0
    env = dict(shell.env, HUDIC_PROGRESS_AFTER_MS="0")
    shell = Pty(["sql", "--warehouse", wh.path], env)
    try:
        shell.read_until(re.escape(PROMPT))
        shell.type_slowly("UPDATE big SET v = 'y';\r")
        shell.read_until(r"writing \[[=> ]{20}\] +\d+%  \d/3 file groups  90,000 rows",
                         timeout=60)
        screen = shell.read_until(re.escape(PROMPT), timeout=120)
        assert "90000 rows affected" in screen.replace(",", ""), screen
        shell.type_slowly("SELECT count(*) FROM big WHERE v = 'y';\r")
        screen = shell.read_until(re.escape(PROMPT), timeout=60)
        assert re.search(r"│\s+90000 │", screen), screen
        assert shell.ctrl_d() == 0
    finally:
        shell.close()
