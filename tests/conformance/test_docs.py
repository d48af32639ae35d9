"""test_docs.py - the three references of the command line agree: every command and option that
`hudic <group> <command> --help` lists is in the manual page docs/hudic.1 and in docs/CLI.md,
and nothing is listed there that hudic does not accept. Also: every option line of --help has a
description, and the manual page's version is hudic's."""
import os
import re

import pytest

from support import ROOT, run

MAN = os.path.join(ROOT, "docs", "hudic.1")
CLI_MD = os.path.join(ROOT, "docs", "CLI.md")


def help_commands():
    """(group, command) pairs from `hudic --help`."""
    r = run("--help")
    assert r.code == 0, r
    return sorted(set(re.findall(r"^  hudic (\w+) (\w+)", r.out, re.M)))


def help_options(group, cmd):
    r = run(group, cmd, "--help")
    assert r.code == 0 and r.out.startswith("usage: hudic %s %s" % (group, cmd)), r
    opts = set()
    if "\noptions:\n" in r.out:
        for line in r.out.split("\noptions:\n", 1)[1].splitlines():
            m = re.match(r"  (?:-h, )?(--[\w-]+)(?: '[^']*'| \S+)?\s{2,}(\S.*)$", line)
            assert m, "option line without a description: %r" % line
            opts.add(m.group(1))
    opts.discard("--help")
    return opts


def man_sections():
    """{(group, command): set of options} from the manual page's .SS sections."""
    text = open(MAN, encoding="utf-8").read()
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r'\.SS "hudic (\w+) (\w+)', line)
        if m:
            cur = (m.group(1), m.group(2))
            out[cur] = set()
            continue
        if line.startswith(".SH"):
            cur = None
        m = re.match(r"\.BI? (\\-\\-[\w\\-]+)", line)
        if cur and m:
            out[cur].add(m.group(1).replace("\\-", "-"))
    return out


def md_sections():
    """{(group, command): set of options} from docs/CLI.md's option tables."""
    text = open(CLI_MD, encoding="utf-8").read()
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"## `hudic (\w+) (\w+)", line)
        if m:
            cur = (m.group(1), m.group(2))
            out[cur] = set()
            continue
        if line.startswith("## "):
            cur = None
        m = re.match(r"\| `(--[\w-]+)", line)
        if cur and m:
            out[cur].add(m.group(1))
    return out


def test_every_command_is_documented():
    cmds = help_commands()
    assert ("parquet", "cat") in cmds and ("table", "write") in cmds, cmds
    assert sorted(man_sections()) == cmds
    assert sorted(md_sections()) == cmds


@pytest.mark.parametrize("group,cmd", help_commands())
def test_options_agree(group, cmd):
    got = help_options(group, cmd)
    assert man_sections()[(group, cmd)] == got, "docs/hudic.1 vs --help"
    assert md_sections()[(group, cmd)] == got, "docs/CLI.md vs --help"


def test_every_option_is_accepted():
    """An option in --help is parsed: giving it never says 'unknown option'."""
    for group, cmd in help_commands():
        for opt in help_options(group, cmd):
            r = run(group, cmd, opt)
            assert "unknown option" not in r.err, (group, cmd, opt, r)


def test_man_page_version_is_hudics():
    r = run("--version")
    version = r.out.split()[1]
    th = [l for l in open(MAN, encoding="utf-8") if l.startswith(".TH ")][0]
    assert '"hudic %s"' % version in th, th


def _long_options(lines):
    return {o for line in lines for o in re.findall(r"(?<![\w-])--[a-z][\w-]*", line)}


def test_sql_options_agree():
    """`hudic sql --help`, the manual page's `hudic sql` section and docs/CLI.md's list the same
    options (long names; the short ones share their lines)."""
    r = run("sql", "--help")
    assert r.code == 0 and r.out.startswith("usage: hudic sql "), r
    lines = r.out.split("\noptions:\n", 1)[1].splitlines()
    for line in lines:
        assert re.match(r"  (?:-\w, )?--[\w-]+(?: \S+)?\s{2,}\S", line), line
    got = _long_options(lines) - {"--help"}
    assert {"--warehouse", "--database", "--mode", "--conf", "--execute", "--file",
            "--silent"} == got
    man = open(MAN, encoding="utf-8").read().replace("\\-", "-")
    section = man.split('.SS "hudic sql', 1)[1].split("\n.SH", 1)[0]
    assert _long_options(l for l in section.splitlines() if l.startswith(".B")) == got
    md = open(CLI_MD, encoding="utf-8").read()
    section = md.split("## `hudic sql", 1)[1].split("\n## ", 1)[0]
    rows = [l.split("|")[1] for l in section.splitlines() if l.startswith("| `-")]
    assert _long_options(rows) == got
