#!/usr/bin/env python3
"""Checks a trace in the Trace Event Format's JSON Object Format against the format's rules,
as Google's "Trace Event Format" document defines them (the document Perfetto's JSON importer
and chrome://tracing follow; doc/trace.md cites it):

  - the top level is an object whose "traceEvents" is an array of event objects, and
    "displayTimeUnit", when present, is "ms" or "ns";
  - every event has "ph" (one of the phases below), "name", integer "pid" and "tid", and a
    numeric "ts" (microseconds) >= 0; "args", when present, is an object;
  - "X" (complete) events have a numeric "dur" >= 0; "B"/"E" (duration) events balance on each
    thread, an "E" never before its "B";
  - "i"/"I" (instant) events have scope "s" g, p or t when given;
  - "C" (counter) events carry their series as numeric args;
  - "M" (metadata) events are process_name, thread_name, process_sort_index or
    thread_sort_index with the argument each needs;
and two rules of a trace that displays as drawn, which the document leaves to the viewer:
  - slices on one thread nest: two "X" events of a thread are disjoint or one holds the other
    (Perfetto drops a slice that partly overlaps another on its track), in whole nanoseconds
    as Perfetto's JSON importer reads ts and dur (the number times 1000, truncated:
    src/trace_processor/importers/json/json_utils.cc CoerceToTs);
  - every process with events is named by a process_name, every thread with slices by a
    thread_name;
  - a thread id belongs to one process: Perfetto's JSON importer takes a tid as a thread of
    the whole system, and one seen in a second process as a new thread;
  - no member of an event before its "ts" is an array: Perfetto's tokenizer finds ts by
    walking the event's members in order and gives up the whole trace at an array before it
    (json_trace_tokenizer.cc ExtractValueForJsonKey).

Usage: trace_check.py TRACE.json [--summary]
Exit 0 when every rule holds, 1 with each broken rule on stderr.  --summary prints a JSON
object: {"events": n, "by_name": {name: count of X events}, "counters": {name: samples},
"processes": {pid: name}, "threads": {"pid/tid": name}, "other": otherData}.
"""
import collections
import json
import numbers
import sys

PHASES = {"X", "B", "E", "i", "I", "C", "M"}
META_ARG = {"process_name": "name", "thread_name": "name", "process_sort_index": "sort_index",
            "thread_sort_index": "sort_index"}


def number(v):
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def check_event(i, e, errors):
    """The rules every event of its phase obeys; returns whether it can be checked further."""
    where = f"traceEvents[{i}]"
    if not isinstance(e, dict):
        errors.append(f"{where}: not an object")
        return False
    for key in ("ph", "name"):
        if not isinstance(e.get(key), str):
            errors.append(f"{where}: {key} missing or not a string")
    for key in ("pid", "tid"):
        if not isinstance(e.get(key), int) or isinstance(e.get(key), bool):
            errors.append(f"{where}: {key} missing or not an integer")
    if not number(e.get("ts")) or e["ts"] < 0:
        errors.append(f"{where}: ts missing, not a number or negative")
    for key, value in e.items():
        if key == "ts":
            break
        if isinstance(value, list):
            errors.append(f"{where}: {key} is an array before ts")
    if "args" in e and not isinstance(e["args"], dict):
        errors.append(f"{where}: args not an object")
    ph = e.get("ph")
    if ph not in PHASES:
        errors.append(f"{where}: ph {ph!r} is none of {sorted(PHASES)}")
        return False
    if ph == "X" and (not number(e.get("dur")) or e["dur"] < 0):
        errors.append(f"{where}: X event without a dur >= 0")
    if ph in ("i", "I") and e.get("s", "t") not in ("g", "p", "t"):
        errors.append(f"{where}: instant scope {e.get('s')!r}")
    if ph == "C" and (not e.get("args") or not all(number(v) for v in e["args"].values())):
        errors.append(f"{where}: counter without numeric series in args")
    if ph == "M":
        arg = META_ARG.get(e.get("name"))
        if arg is None or arg not in e.get("args", {}):
            errors.append(f"{where}: metadata {e.get('name')!r} without its args.{arg}")
    return not errors


def ns(us):
    """Microseconds as Perfetto's importer turns them into nanoseconds."""
    return int(us * 1000.0)


def check_nesting(slices, errors):
    """Slices (ts, end, name) of one thread, in ns: disjoint or nested, never partly overlapping."""
    stack = []
    for ts, end, name, track in sorted(slices, key=lambda s: (s[0], -(s[1] - s[0]))):
        while stack and stack[-1][1] <= ts:
            stack.pop()
        if stack and end > stack[-1][1]:
            errors.append(f"{track}: {name!r} [{ts}, {end}] overlaps {stack[-1][2]!r} [{stack[-1][0]}, "
                          f"{stack[-1][1]}] without nesting in it")
        stack.append((ts, end, name))


def check_durations(events, errors):
    """B and E balanced per thread, in time order (E of the innermost open B)."""
    open_by = collections.defaultdict(list)
    for e in sorted((e for e in events if e["ph"] in ("B", "E")), key=lambda e: e["ts"]):
        key = (e["pid"], e["tid"])
        if e["ph"] == "B":
            open_by[key].append(e)
        elif not open_by[key]:
            errors.append(f"pid {key[0]} tid {key[1]}: E {e['name']!r} at {e['ts']} without a B")
        else:
            open_by[key].pop()
    for key, left in open_by.items():
        if left:
            errors.append(f"pid {key[0]} tid {key[1]}: {len(left)} B without an E")


def check(doc):
    errors = []
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        return ["top level: not an object with a traceEvents array"], None
    if doc.get("displayTimeUnit", "ms") not in ("ms", "ns"):
        errors.append(f"displayTimeUnit {doc['displayTimeUnit']!r} is neither ms nor ns")
    events = []
    for i, e in enumerate(doc["traceEvents"]):
        ev_errors = []
        if check_event(i, e, ev_errors):
            events.append(e)
        errors += ev_errors
    check_durations(events, errors)
    procs, threads = {}, {}
    for e in events:
        if e["ph"] == "M" and e["name"] == "process_name":
            procs[e["pid"]] = e["args"]["name"]
        if e["ph"] == "M" and e["name"] == "thread_name":
            threads[(e["pid"], e["tid"])] = e["args"]["name"]
    owner = {}
    for e in events:
        if owner.setdefault(e["tid"], e["pid"]) != e["pid"]:
            errors.append(f"tid {e['tid']}: in pid {owner[e['tid']]} and pid {e['pid']}")
            owner[e["tid"]] = e["pid"]
    tracks = collections.defaultdict(list)
    for e in events:
        if e["ph"] == "M":
            continue
        if e["pid"] not in procs:
            errors.append(f"pid {e['pid']}: events but no process_name")
            procs[e["pid"]] = None
        if e["ph"] != "C" and (e["pid"], e["tid"]) not in threads:
            errors.append(f"pid {e['pid']} tid {e['tid']}: slices but no thread_name")
            threads[(e["pid"], e["tid"])] = None
        if e["ph"] == "X":
            tracks[(e["pid"], e["tid"])].append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e["name"],
                                                 f"pid {e['pid']} tid {e['tid']}"))
    for slices in tracks.values():
        check_nesting(slices, errors)
    summary = {
        "events": len(doc["traceEvents"]),
        "by_name": dict(collections.Counter(e["name"] for e in events if e["ph"] == "X")),
        "counters": dict(collections.Counter(e["name"] for e in events if e["ph"] == "C")),
        "processes": {str(k): v for k, v in procs.items()},
        "threads": {f"{p}/{t}": v for (p, t), v in threads.items()},
        "other": doc.get("otherData"),
    }
    return errors, summary


def main():
    if len(sys.argv) not in (2, 3) or (len(sys.argv) == 3 and sys.argv[2] != "--summary"):
        print(__doc__.split("\n\n")[-2], file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    errors, summary = check(doc)
    for err in errors[:50]:
        print(f"{sys.argv[1]}: {err}", file=sys.stderr)
    if len(errors) > 50:
        print(f"{sys.argv[1]}: ... {len(errors) - 50} more", file=sys.stderr)
    if len(sys.argv) == 3 and summary is not None:
        print(json.dumps(summary))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
