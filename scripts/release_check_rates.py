#!/usr/bin/env python3
"""Measures how often each release check of `mapindex audit` fires on real
maps: the share of map entries with at least one finding of the rule, on all
maps and on DDNet's own (docs/audit.md shows the result and the rule that
picks a check's severity from it).

The maps of the corpus folder are indexed twice with the built program, each
time into a new index in a temporary folder, and audited as a first run
(`--format json`, every finding):

- as stored (one file per content, its name prefixed by its hash, so
  `name.similar` cannot fire);
- laid out under their original repository paths from MANIFEST.tsv
  (hard links; a path that holds several versions keeps the first), where
  the names are the mappers' own.

DDNet's own maps are those of MANIFEST.tsv from the repository ddnet/ddnet
or shipped by DDNet now (`selected_for` ddnet-current).

Usage: scripts/release_check_rates.py [BUILD_DIR] [CORPUS_MAPS_DIR]
       (defaults: build, ../shared/corpus/maps)
"""
import collections
import csv
import json
import os
import pathlib
import subprocess
import sys
import tempfile

root = pathlib.Path(__file__).resolve().parent.parent
build = (root / (sys.argv[1] if len(sys.argv) > 1 else "build")).resolve()
corpus = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else root.parent / "shared/corpus/maps")
mapindex = build / "mapindex"
rules = ["map.rejected", "race.no_time_checkpoints", "image.duplicate", "image.unused",
         "image.embedded_standard", "image.external_nonstandard", "name.similar"]


def audit(folder, tmp):
    db = tmp / (folder.name + ".sqlite")
    subprocess.run([mapindex, "index", "--quiet", "--db", db, folder], check=False,
                   stdout=subprocess.DEVNULL)
    out = subprocess.run([mapindex, "audit", "--db", db, "--format", "json", "--fail-on",
                          "never"], check=True, capture_output=True).stdout
    (source,) = json.loads(out)["sources"]
    maps = {e["path"] for e in source["added"] if e["kind"] == "map"}
    fired = collections.defaultdict(set)
    severity = {}
    for f in source["findings"]:
        fired[f["rule"]].add(f["path"])
        severity[f["rule"]] = f["severity"]
    return maps, fired, severity


def share(part, whole):
    return f"{len(part)} of {len(whole)} ({100 * len(part) / len(whole):.0f}%)" if whole else "-"


manifest = list(csv.DictReader(open(corpus / "MANIFEST.tsv"), delimiter="\t"))
ddnet_files = {r["file_name"] for r in manifest
               if r["source_repo"] == "ddnet/ddnet" or r["selected_for"].startswith("ddnet-current")}

with tempfile.TemporaryDirectory() as tmp:
    tmp = pathlib.Path(tmp)
    stored, stored_fired, severity = audit(corpus, tmp)
    laid_out = tmp / "by-path"
    ddnet_paths = set()
    for r in manifest:
        path = pathlib.Path(r["source_repo"]) / r["source_path"]
        target = laid_out / path
        if target.exists():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        os.link(corpus / r["file_name"], target)
        if r["file_name"] in ddnet_files:
            ddnet_paths.add(str(path))
    by_path, by_path_fired, more = audit(laid_out, tmp)
    severity.update(more)

print(f"| rule | severity | all maps | DDNet's own | by original path | DDNet's own there |")
print("| --- | --- | ---: | ---: | ---: | ---: |")
ddnet_stored = {p for p in stored if p in ddnet_files}
ddnet_by_path = {p for p in by_path if p in ddnet_paths}
for rule in rules:
    a, b = stored_fired.get(rule, set()), by_path_fired.get(rule, set())
    print(f"| `{rule}` | {severity.get(rule, '?')} | {share(a, stored)} | "
          f"{share(a & ddnet_stored, ddnet_stored)} | {share(b, by_path)} | "
          f"{share(b & ddnet_by_path, ddnet_by_path)} |")
