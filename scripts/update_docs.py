#!/usr/bin/env python3
"""Refreshes the real output printed in the documentation, from the built
program on the demo archive (the `readme` tests check that the pages still
match; run this after a change that alters what they show):

- docs/queries.md: every ```sql block is run with `mapindex query` on an
  index of the demo archive, and its result replaces the ```text block that
  follows it;
- README.md, docs/guide.md, docs/audit.md, docs/audit-json.md: the commands of every ```console
  block ("$ COMMAND" lines; a here-document <<'EOF' goes up to EOF) are run
  in order in a new folder holding the demo archive as maps.zip, with the
  build folder first on PATH, and what each prints replaces the lines after
  it.

Usage: scripts/update_docs.py [BUILD_DIR]   (default: build)
"""
import os
import pathlib
import re
import subprocess
import sys
import tempfile

root = pathlib.Path(__file__).resolve().parent.parent
build = (root / (sys.argv[1] if len(sys.argv) > 1 else "build")).resolve()
console_pages = ["README.md", "docs/guide.md", "docs/audit.md", "docs/audit-json.md"]


def make_demo(folder):
    subprocess.run([build / "mapindex-make-demo", folder / "maps.zip"], check=True,
                   stdout=subprocess.DEVNULL)


def refresh_queries():
    queries = root / "docs" / "queries.md"
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        make_demo(tmp)
        db = tmp / "demo.sqlite"
        subprocess.run([build / "mapindex", "index", "--db", db, "--quiet", tmp / "maps.zip"],
                       check=False)

        def refresh(match):
            sql = match.group(1)
            out = subprocess.run([build / "mapindex", "query", "--db", db, sql],
                                 check=True, capture_output=True, text=True).stdout
            return "```sql\n" + sql + "\n```\n```text\n" + out.rstrip("\n") + "\n```"

        text = re.sub(r"```sql\n(.*?)\n```\n```text\n(?:.*?\n)??```", refresh,
                      queries.read_text(), flags=re.S)
    queries.write_text(text)


def stable(lines):
    """What the test compares: timestamps, the summary's time line and the
    spaces that end a line do not count (so a refresh leaves them be)."""
    out = []
    for line in lines:
        line = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", "<timestamp>", line)
        line = re.sub(r"^  time +.*", "  time <seconds>", line)
        out.append(line.rstrip(" "))
    return out


def refresh_console(page):
    path = root / page
    text = path.read_text()
    env = dict(os.environ, PATH=f"{build}:/usr/local/bin:/usr/bin:/bin")
    with tempfile.TemporaryDirectory() as tmp:
        make_demo(pathlib.Path(tmp))

        def run(command):
            return subprocess.run(["bash", "-c", 'eval "$1" 2>&1', "bash", command], cwd=tmp,
                                  env=env, capture_output=True, text=True).stdout

        def refresh(match):
            lines = match.group(1).split("\n")[:-1]
            out, i = [], 0
            while i < len(lines):
                command = [lines[i]]
                if lines[i].endswith("<<'EOF'"):
                    while i + 1 < len(lines):
                        i += 1
                        command.append(lines[i])
                        if lines[i] == "EOF":
                            break
                i += 1
                old = []
                while i < len(lines) and not lines[i].startswith("$ "):
                    old.append(lines[i])
                    i += 1
                out += command
                printed = run("\n".join(command)[2:])
                new = printed.split("\n")[:-1] if printed else []
                out += old if stable(old) == stable(new) else new
            return "```console\n" + "".join(line + "\n" for line in out) + "```"

        text = re.sub(r"```console\n(.*?)```", refresh, text, flags=re.S)
    path.write_text(text)


refresh_queries()
for page in console_pages:
    if "```console" in (root / page).read_text():
        refresh_console(page)
print("refreshed: docs/queries.md " + " ".join(console_pages))
