#!/usr/bin/env python3
"""Normalizes interbench's outputs for the golden tests (tests/e2e_golden.sh), so that what
varies from run to run and machine to machine is masked and everything else (which lines,
in which order, which columns, which JSON keys, in which order, of which types) is compared.

  normalize.py text FILE   console or logfile: every number becomes '#', runs of blanks one
                           blank, the kernel's release and version and the build's version
                           masked, the audit's values (machine facts) dropped after their key,
                           the lines under a disturbed row dropped (other work on the host, not
                           the program's structure: tests/e2e_disturb.sh checks it; the row
                           itself is kept as it is, interbench 0.31's fields).
                           Also dropped, as facts of what else ran on the host at that moment:
                           the header's line on another interbench run at the same time
                           (report/logfile.c logfile_concurrent), the console's line naming
                           the audit's flagged items (report/sink.c) and the audit's hints (an
                           item has one only when the machine's state is worth a warning:
                           host/audit.c; tests/e2e_audit.sh checks them).
  normalize.py json FILE   JSON document: one line per value, 'path: value' for the settings
                           (options, task, load, modes, policies, has_deadlines...) and
                           'path: <type>' for measured figures and machine facts; arrays of
                           histogram buckets as their type alone; the audit's hints dropped
                           and run.concurrent_run_pid masked, as in text; the high end of a
                           p99's interval masked as '<int or null>' (null when it is open
                           above, which depends on how many periods the run measured and how
                           clustered they were: lib/interval.h).
"""
import json
import os
import re
import sys

NUMBER = re.compile(r"[0-9]+(\.[0-9]+)?([kMGTP](?= ))?")   # a number and its SI prefix
AUDIT_LINE = re.compile(r"^(  [a-z_0-9]+) {2,}\S.*$")
CONCURRENT_LINE = re.compile(r"^Another interbench run \(pid [0-9]+\) was running at the same time")
AUDIT_FLAGGED = re.compile(r"^Audit: known to hurt interactivity here: ")   # report/sink.c
AUDIT_HINT = re.compile(r"^ +hint: ")                        # host/audit.c audit_print
JSON_AUDIT_HINT = re.compile(r"^\.machine\.audit\.[a-z_0-9]+\.hint$")
OPEN_HIGH = re.compile(r"^\.results\[\d+\]\.latency_p99_ns_ci\[1\]$")   # [low, null] when open above
# report/logformat.h LOG_ROW_DISTURBED and the mark's line after it (LOG_ROW_MARK)
DISTURBED_LINE = re.compile(r"^ +\* (disturbed: |the mark: other processes )")
# A row of a decision table (report/decisions.h): its Runs column, "#:#" once masked.
DECISION_ROW = re.compile(r" #:# ")

# Values shown as they are: settings, not measurements or machine facts.
KEEP = re.compile(r"^(\.schema_version|\.options\..*|\.run\.duration_s"
                  r"|\.run\.interrupted_by|\.results\[\d+\]\.(simulation|load|mode|load_mode|repeat"
                  r"|has_deadlines|interrupted|failed|interval_us|bench_setting\..*|load_setting\..*"
                  r"|timeline_pair)|\.sweeps\[\d+\]\.(simulation|load|bench_settings|load_settings).*)$")


def text(path):
    rel, ver = os.uname().release, os.uname().version
    in_audit = False
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n").replace(rel, "KERNEL_RELEASE").replace(ver, "KERNEL_VERSION")
        if DISTURBED_LINE.match(line) or CONCURRENT_LINE.match(line) or AUDIT_FLAGGED.match(line):
            continue
        line = re.sub(r"interbench [0-9]+\.[0-9]+\.[0-9]+(-[0-9a-z.-]+)?", "interbench VERSION", line)
        if line.startswith("Audit ("):
            in_audit = True
        elif in_audit and not line.startswith("  "):
            in_audit = False
        if in_audit and AUDIT_HINT.match(line):
            continue
        m = AUDIT_LINE.match(line) if in_audit else None
        if m:
            line = m.group(1)
        line = re.sub(r" +", " ", NUMBER.sub("#", line))
        if DECISION_ROW.search(line):  # a measured change's sign is the run's, not the output's
            line = re.sub(r"[+-]#", "±#", line)
        print(line.rstrip())


def kind(v):
    if v is None:
        return "null"
    return {bool: "bool", int: "int", float: "float", str: "str", list: "list", dict: "object"}[type(v)]


def walk(v, path):
    if JSON_AUDIT_HINT.match(path):
        return
    if path == ".run.concurrent_run_pid":
        print(f"{path}: <pid or null>")
        return
    if OPEN_HIGH.match(path):
        print(f"{path}: <int or null>")
        return
    if isinstance(v, dict):
        print(f"{path}: {{}}" if not v else f"{path}: object")
        for k, x in v.items():
            walk(x, f"{path}.{k}")
    elif isinstance(v, list):
        if v and all(isinstance(x, list) and len(x) == 2 and all(type(y) is int for y in x) for x in v):
            # histogram buckets [[low_ns, count], ...]: how many vary from run to run
            print(f"{path}: buckets")
        elif KEEP.match(path):
            print(f"{path}: {json.dumps(v)}")
        else:
            print(f"{path}: list")
            for i, x in enumerate(v):
                walk(x, f"{path}[{i}]")
    elif KEEP.match(path):
        print(f"{path}: {json.dumps(v)}")
    else:
        print(f"{path}: <{kind(v)}>")


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("text", "json"):
        sys.exit("usage: normalize.py text|json FILE")
    if sys.argv[1] == "text":
        text(sys.argv[2])
    else:
        walk(json.load(open(sys.argv[2])), "")


main()
