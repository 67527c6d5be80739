#!/usr/bin/env python3
"""Refreshes the outputs printed under each query of docs/queries.md: builds
the demo archive, indexes it into a temporary index, runs every ```sql block
with `mapindex query` and writes the result into the ```text block that
follows it. The `readme` tests check that the page still matches (run this
after a change that alters the demo's rows).

Usage: scripts/update_docs.py [BUILD_DIR]   (default: build)
"""
import pathlib
import re
import subprocess
import sys
import tempfile

root = pathlib.Path(__file__).resolve().parent.parent
build = root / (sys.argv[1] if len(sys.argv) > 1 else "build")
queries = root / "docs" / "queries.md"
section = queries.read_text()

with tempfile.TemporaryDirectory() as tmp:
    archive = pathlib.Path(tmp) / "demo-maps.zip"
    db = pathlib.Path(tmp) / "demo.sqlite"
    subprocess.run([build / "mapindex-make-demo", archive], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([build / "mapindex", "index", "--db", db, "--quiet", archive], check=False)

    def refresh(match):
        sql = match.group(1)
        out = subprocess.run([build / "mapindex", "query", "--db", db, sql],
                             check=True, capture_output=True, text=True).stdout
        return "```sql\n" + sql + "\n```\n```text\n" + out.rstrip("\n") + "\n```"

    section = re.sub(r"```sql\n(.*?)\n```\n```text\n(?:.*?\n)??```", refresh, section, flags=re.S)

queries.write_text(section)
print("docs/queries.md: outputs refreshed")
