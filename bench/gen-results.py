#!/usr/bin/env python3
"""Writes a synthetic interbench result of N (simulation, load) pairs to standard output, to
time compare and export on large inputs: `bench/gen-results.py N json|log [REPEATS]`.  Pair i is
simulation "Sim<i // 100>" against load "L<i % 100>"; every figure is plausible and fixed, so a
result compared with itself shows no change.  JSON follows doc/json.md (schema version 2), the
logfile the classic table of report/logformat.h."""
import json
import sys


def json_doc(n, repeats):
    results = []
    for i in range(n):
        for r in range(repeats):
            results.append({
                "simulation": "Sim%d" % (i // 100), "load": "L%d" % (i % 100), "mode": "",
                "repeat": r + 1, "has_deadlines": True, "samples": 100,
                "latency_mean_ns": 5000 + r, "latency_p99_ns": 9000 + r, "latency_max_ns": 90000,
                "desired_cpu_ppm": 1000000, "deadlines_met_ppm": 1000000})
    return json.dumps({"schema_version": 2, "generator": "interbench 1.0.0", "results": results})


def logfile(n):
    out = ["Benchmarking kernel 6.1 at datestamp 202611230000", ""]
    for i in range(n):
        if i % 100 == 0:
            out += ["", "--- Benchmarking simulated cpu of Sim%d in the presence of simulated ---" % (i // 100),
                    "Load      Latency +/- SD (ms)    Max Latency   % Desired CPU  % Deadlines Met"]
        out.append("L%-8d   0.005 +/- 0.001   0.09   100   100" % (i % 100))
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    n, kind = int(sys.argv[1]), sys.argv[2]
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    sys.stdout.write(json_doc(n, repeats) if kind == "json" else logfile(n))
