#!/usr/bin/env python3
"""subruns.py IN OUT [N]: writes the interbench result IN to OUT with each of its results
repeated N times (default 6) as the sub-runs ("repeat" 1..N) of its pair, identical.  For tests
of compare on copies of real runs: one sub-run a side answers nothing (tools/compare.c), and
identical sub-runs, with no spread, make any change of a judged figure beyond its threshold
DIFFERENT and any within it SAME, whatever the noise of the run copied, once there are enough
of them for the permutation test every answer needs (decide/permutation.h: its least p,
2 / C(2N, N), is 0.0022 at 6 a side, below Holm's first level for families of up to 22)."""
import json
import sys

if len(sys.argv) not in (3, 4):
    sys.exit("usage: subruns.py IN OUT [N]")
n = int(sys.argv[3]) if len(sys.argv) == 4 else 6
doc = json.load(open(sys.argv[1]))
doc["results"] = [dict(r, repeat=k) for k in range(1, n + 1) for r in doc["results"]]
json.dump(doc, open(sys.argv[2], "w"))
