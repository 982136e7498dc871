#!/usr/bin/env python3
"""Merges the interbench results of one kernel's boots into one result whose sub-runs are all
of theirs, so that `interbench compare` judges two kernels on every boot of each
(ci/kernels/matrix.sh --boots N).

The results of every boot, in the order given, become the merged document's `results`: boot
k's `repeat` r becomes r plus the highest repeat of the boots before it, so each (pair,
repeat) is unique and the order stays the order they ran.  The run-level facts (`machine`,
`run`, `options`, `generator`) are the first boot's; `decisions` and `sweeps`, which sum up
one boot's sub-runs, are left out (compare decides on all of them).  `boots` lists the boots
in order: `datestamp`, `kernel_release` and `kernel_version` (uname -r and -v), `results` (how
many results it gave), `repeat_offset` (what was added to its repeats) and `interrupted_by`
when a signal cut it short (doc/json.md, "Top level").

Refuses (exit 2, one line naming the file and the reason) a file that is not an interbench
result, and boots that are not one selection of one kernel: a different `schema_version`,
any key of `options` (the tasks, the loads, their settings, -t, the repeats: the command
line), or the kernel (`machine`'s kernel_release, kernel_version, machine, cpu_model,
online_cpus).  OUT is written under a new name in its directory and renamed over OUT: a link
planted at OUT is replaced, never followed.

Usage: merge.py --out OUT.json BOOT.json...
Prints one line: the boots merged and their results.  Exit status: 0 merged; 2 bad usage, an
unreadable or refused input, or OUT not written.
"""
import argparse
import json
import os
import sys
import tempfile

KERNEL_KEYS = ("kernel_release", "kernel_version", "machine", "cpu_model", "online_cpus")
PER_BOOT_SUMMARIES = ("decisions", "sweeps")


class Refused(Exception):
    """An input that cannot be merged; its message is the one line said."""


def load(path):
    """The interbench result in file PATH, checked for the keys a merge reads."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise Refused(f"{path}: {e.strerror}") from e
    except (ValueError, UnicodeDecodeError) as e:
        raise Refused(f"{path}: not JSON ({e})") from e
    if not isinstance(doc, dict):
        raise Refused(f"{path}: not an interbench result (not a JSON object)")
    for key, kind in (("schema_version", int), ("machine", dict), ("run", dict),
                      ("options", dict), ("results", list)):
        if not isinstance(doc.get(key), kind) or isinstance(doc.get(key), bool):
            raise Refused(f"{path}: not an interbench result (no {kind.__name__} '{key}')")
    for i, r in enumerate(doc["results"]):
        rep = r.get("repeat") if isinstance(r, dict) else None
        if not isinstance(rep, int) or isinstance(rep, bool) or rep < 1:
            raise Refused(f"{path}: results[{i}] has no repeat of 1 or more")
    return doc


def short(value):
    """VALUE as JSON, cut to 60 characters for a one-line message."""
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_same(first, first_path, doc, path):
    """Raises Refused when DOC (from PATH) is not the selection and kernel of FIRST."""
    why = "the boots of one kernel must be one selection (tasks, loads, settings, -t)"
    if doc["schema_version"] != first["schema_version"]:
        raise Refused(f"{path}: schema_version {doc['schema_version']} differs from "
                      f"{first_path}'s {first['schema_version']}")
    a, b = first["options"], doc["options"]
    for key in sorted(set(a) | set(b)):
        if a.get(key, "(absent)") != b.get(key, "(absent)"):
            raise Refused(f"{path}: options.{key} {short(b.get(key, '(absent)'))} differs from "
                          f"{first_path}'s {short(a.get(key, '(absent)'))}; {why}")
    for key in KERNEL_KEYS:
        if first["machine"].get(key) != doc["machine"].get(key):
            raise Refused(f"{path}: machine.{key} {short(doc['machine'].get(key))} differs from "
                          f"{first_path}'s {short(first['machine'].get(key))}; not a boot of the same kernel")


def merge(docs):
    """The merged document of DOCS (checked), the first's run-level facts kept."""
    merged = {k: v for k, v in docs[0].items() if k not in PER_BOOT_SUMMARIES}
    merged["results"], merged["boots"] = [], []
    offset = 0
    for doc in docs:
        boot = {"datestamp": doc["run"].get("datestamp"),
                "kernel_release": doc["machine"]["kernel_release"],
                "kernel_version": doc["machine"]["kernel_version"],
                "results": len(doc["results"]), "repeat_offset": offset}
        if "interrupted_by" in doc["run"]:
            boot["interrupted_by"] = doc["run"]["interrupted_by"]
        merged["boots"].append(boot)
        merged["results"] += [dict(r, repeat=r["repeat"] + offset) for r in doc["results"]]
        offset += max((r["repeat"] for r in doc["results"]), default=0)
    return merged


def write(path, doc):
    """DOC into PATH under a new name first, then renamed over it (a planted link replaced)."""
    fd, tmp = tempfile.mkstemp(prefix=".merge.", dir=os.path.dirname(os.path.abspath(path)))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        os.replace(tmp, path)
    except OSError:
        os.unlink(tmp)
        raise


def main():
    ap = argparse.ArgumentParser(usage="merge.py --out OUT.json BOOT.json...",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, metavar="OUT.json")
    ap.add_argument("boots", nargs="+", metavar="BOOT.json")
    a = ap.parse_args()
    try:
        docs = [load(p) for p in a.boots]
        for doc, path in zip(docs[1:], a.boots[1:]):
            check_same(docs[0], a.boots[0], doc, path)
    except Refused as e:
        print(f"merge: {e}", file=sys.stderr)
        return 2
    merged = merge(docs)
    try:
        write(a.out, merged)
    except OSError as e:
        print(f"merge: {a.out}: {e.strerror}", file=sys.stderr)
        return 2
    print(f"{a.out}: {len(docs)} boot{'s' if len(docs) != 1 else ''}, "
          f"{len(merged['results'])} results as sub-runs ("
          + ", ".join(str(b["results"]) for b in merged["boots"]) + " a boot)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
