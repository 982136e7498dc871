#!/usr/bin/env python3
"""Takes one kernel's interbench result out of what its boot left: the log of lava-run (one
YAML mapping a line: console lines at level "target", test cases at level "results") or the
raw serial console of a direct qemu boot.

Writes the JSON result (decoded from the base64 of its gzip between the
"interbench-result-begin STATUS" and "interbench-result-end" lines that
ci/kernels/interbench-lava.sh prints) and the test cases as "ID RESULT [MEASUREMENT UNITS]"
lines: from LAVA's own results (the monitor action's) for a LAVA log, from the
<LAVA_SIGNAL_TESTCASE ...> lines for a console.  With --watchdog, the block the guest's
watchdog printed when interbench did not exit in time (from its "interbench-lava: no exit after
N s" line to "interbench-lava: watchdog end", the kernel's lines printed meanwhile included)
into that file, written only when there is one.

Usage: extract.py (--lava LOG | --console LOG) --json OUT.json --cases OUT.txt [--watchdog OUT.txt]
Prints one line: what ran and its verdict.  Exit status: 0 when the job (LAVA) passed, the
result was decoded, interbench exited 0 or 4 (it completed, some pairs failed: each such pair
is a failed case of its own; man interbench, EXIT STATUS) and the case interbench-run passed;
1 otherwise (the line says why);
2 on bad usage or an unreadable log.
"""
import argparse
import base64
import gzip
import re
import sys

import yaml

BEGIN = re.compile(r"^interbench-result-begin (\d+)$")
COMPLETED_PAIR_FAILED = 4  # interbench's exit status: completed, some pairs failed
END = "interbench-result-end"
WATCHDOG = re.compile(r"^interbench-lava: no exit after (\d+) s")
WATCHDOG_END = "interbench-lava: watchdog end"
SIGNAL = re.compile(r"<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=([a-z0-9-]+) RESULT=(pass|fail)"
                    r"(?: MEASUREMENT=([0-9.]+) UNITS=([a-z%]+))?>")
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def lava_records(path):
    """(console lines, test cases, job result) from a lava-run log."""
    lines, cases, job = [], [], None
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            raw = raw.strip()
            if not raw.startswith("{"):
                continue
            try:
                rec = yaml.load(raw, Loader=LOADER)
            except yaml.YAMLError:
                continue
            if not isinstance(rec, dict):
                continue
            msg = rec.get("msg")
            if rec.get("lvl") == "target" and isinstance(msg, str):
                lines.append(msg)
            elif rec.get("lvl") == "results" and isinstance(msg, dict):
                if msg.get("definition") == "lava" and msg.get("case") == "job":
                    job = msg.get("result")
                elif msg.get("definition") == "interbench":
                    case_id = (msg.get("extra") or {}).get("test_case_id", msg.get("case"))
                    value, unit = msg.get("measurement"), msg.get("units")
                    has_value = value not in (None, "null", "None")
                    cases.append((case_id, msg.get("result"), value if has_value else None,
                                  unit if has_value else None))
    return lines, cases, job


def console_records(path):
    """(console lines, test cases) from a raw serial console."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [l.rstrip("\r\n").rstrip("\r") for l in f]
    cases = [m.groups() for m in (SIGNAL.search(l) for l in lines) if m]
    return lines, cases


def decode_result(lines):
    """(interbench's exit status, JSON bytes) from the console lines, or (status, None)."""
    status, block = None, None
    for line in lines:
        line = line.strip()
        m = BEGIN.match(line)
        if m:
            status, block = int(m.group(1)), []
        elif line == END and block is not None:
            if not block:
                return status, None
            return status, gzip.decompress(base64.b64decode("".join(block), validate=True))
        elif block is not None:
            block.append(line)
    return status, None


def watchdog_block(lines):
    """(seconds, lines) of the watchdog's block in the console lines, or (None, [])."""
    for i, line in enumerate(lines):
        m = WATCHDOG.match(line.strip())
        if m:
            block = []
            for l in lines[i:]:
                block.append(l.rstrip())
                if l.strip() == WATCHDOG_END:
                    break
            return int(m.group(1)), block
    return None, []


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--lava", metavar="LOG")
    src.add_argument("--console", metavar="LOG")
    ap.add_argument("--json", required=True)
    ap.add_argument("--cases", required=True)
    ap.add_argument("--watchdog", metavar="OUT.txt")
    a = ap.parse_args()
    job = "pass"
    try:
        if a.lava:
            lines, cases, job = lava_records(a.lava)
        else:
            lines, cases = console_records(a.console)
    except OSError as e:
        print(f"extract: {e.filename}: {e.strerror}", file=sys.stderr)
        return 2
    try:
        status, doc = decode_result(lines)
    except (ValueError, OSError, EOFError) as e:  # bad base64, bad gzip, truncated
        status, doc = None, None
        print(f"extract: the result block is corrupt: {e}", file=sys.stderr)
    if doc is not None:
        with open(a.json, "wb") as f:
            f.write(doc)
    with open(a.cases, "w", encoding="utf-8") as f:
        for c in cases:
            f.write(" ".join(str(x) for x in c if x is not None) + "\n")
    hung_s, block = watchdog_block(lines)
    if a.watchdog and block:
        with open(a.watchdog, "w", encoding="utf-8") as f:
            f.write("\n".join(block) + "\n")
    run = next((c[1] for c in cases if c[0] == "interbench-run"), None)
    failed = sum(1 for c in cases if c[1] == "fail")
    why = [w for w, bad in ((f"LAVA job {job}", job != "pass"),
                            (f"no exit after {hung_s} s, stopped by the watchdog"
                             + (f" (its block: {a.watchdog})" if a.watchdog else ""), hung_s is not None),
                            ("no result on the console", doc is None),
                            (f"interbench exited {status}", status not in (None, 0, COMPLETED_PAIR_FAILED)),
                            ("no interbench-run case", run is None)) if bad]
    print(f"job {job or 'missing'}, interbench {'exit ' + str(status) if status is not None else 'did not finish'}, "
          f"{len(cases)} cases ({failed} failed)" + (": " + "; ".join(why) if why else ""))
    return 1 if why else 0


if __name__ == "__main__":
    sys.exit(main())
