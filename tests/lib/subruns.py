#!/usr/bin/env python3
"""subruns.py IN OUT [N]: writes the interbench result IN to OUT with each of its results
repeated N times (default 3) as the sub-runs ("repeat" 1..N) of its pair, identical.  For tests
of compare on copies of real runs: one sub-run a side answers nothing (tools/compare.c), and
identical sub-runs, with no spread, make any change of a judged figure beyond its threshold
DIFFERENT and any within it SAME, whatever the noise of the run copied."""
import json
import sys

if len(sys.argv) not in (3, 4):
    sys.exit("usage: subruns.py IN OUT [N]")
n = int(sys.argv[3]) if len(sys.argv) == 4 else 3
doc = json.load(open(sys.argv[1]))
doc["results"] = [dict(r, repeat=k) for k in range(1, n + 1) for r in doc["results"]]
json.dump(doc, open(sys.argv[2], "w"))
