#!/usr/bin/env python3
"""undisturbed.py IN OUT: writes the interbench result IN to OUT with each result's disturbance
(the share of the run's CPUs other processes took, host/disturb.h) set to none and its load
not stopped, every other field as it was.  For tests of compare on doctored copies of real
runs: compare leaves a disturbed sub-run, or one whose load was stopped, out of its answers
(tools/compare.c), and on a shared host a run may be disturbed by another program, which
must not hide what the copy tests."""
import json
import sys

if len(sys.argv) != 3:
    sys.exit("usage: undisturbed.py IN OUT")
doc = json.load(open(sys.argv[1]))
for r in doc["results"]:
    if isinstance(r.get("disturbance"), dict):
        r["disturbance"].update(outside_cpu_ns=0, outside_cpu_ppm=0, steal_ns=0, steal_ppm=0)
    if isinstance(r.get("load_activity"), dict):
        r["load_activity"]["stopped"] = False
json.dump(doc, open(sys.argv[2], "w"))
