#!/bin/bash
# End to end: --frame-log.  A Pipeline run and a Video and Gaming run write a CSV per pair in
# MangoHud's columns (and PresentMon's), read back by a parser written from MangoHud's
# documented log format (its README's "FPS logging", src/logging.cpp's header: a system line
# under "os,cpu,gpu,ram,kernel,driver,cpuscheduler", then "fps,frametime,...,elapsed" and a row
# a frame, frametime in ms, elapsed in ns) and PresentMon's columns as CapFrameX requires them:
# as many rows as the JSON's frame count, their mean the JSON's mean frame time, and the lows
# and stutter count of the JSON computed again from the rows.  Hostile directories are refused.
# Usage: e2e_framelog.sh BINARY
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin framelog "${1:?usage: $0 path/to/interbench}"
e2e_run_dir
e2e_calibrate

# check_logs JSON DIR FORMATS: every result of a task that shows frames has its files in DIR,
# in each of FORMATS, agreeing with the JSON; no other file is there.
check_logs() {
	python3 - "$@" <<'PY'
import csv, glob, json, math, os, sys
doc_path, d, formats = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
doc = json.load(open(doc_path))
SHOWS = {"Video", "Gaming", "Pipeline"}

def mangohud(path):
    """Reads a MangoHud log: the system line, then the row naming 'fps', then the frames."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["os", "cpu", "gpu", "ram", "kernel", "driver", "cpuscheduler"], rows[0]
    assert len(rows[1]) == 7 and rows[1][4] == os.uname().release and rows[1][3].isdigit(), rows[1]
    head = rows[2]
    assert head[0] == "fps" and head[1] == "frametime" and head[-1] == "elapsed", head
    col = {name: i for i, name in enumerate(head)}
    frames = [(float(r[col["frametime"]]), float(r[col["fps"]]), int(r[col["elapsed"]])) for r in rows[3:]]
    for ms, fps, _ in frames:
        assert abs(fps - 1000 / ms) < 0.001, (fps, ms)
    return [ms for ms, _, _ in frames], [e for _, _, e in frames]

def presentmon(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for need in ("Application", "Dropped", "TimeInSeconds", "MsBetweenPresents", "MsBetweenDisplayChange"):
        assert need in rows[0], need
    assert all(r["Dropped"] == "0" and r["MsBetweenPresents"] == r["MsBetweenDisplayChange"] for r in rows)
    return [float(r["MsBetweenPresents"]) for r in rows], [float(r["TimeInSeconds"]) for r in rows]

def stutters(ms):
    """A frame longer than 2.5 times the mean of the 20 frames before it."""
    return sum(1 for i in range(20, len(ms)) if ms[i] > 2.5 * sum(ms[i - 20:i]) / 20)

def low_average_mfps(ms, pct):
    k = math.ceil(len(ms) * pct / 100)
    return 1e6 / (sum(sorted(ms, reverse=True)[:k]) / k)

seen = set()
for r in doc["results"]:
    if r["simulation"] not in SHOWS:
        continue
    n, mean_ms = r["frame_time_samples"], r["frame_time_mean_ns"] / 1e6
    for fmt in formats:
        tail = "-presentmon_" if fmt == "presentmon" else "_"
        files = glob.glob(os.path.join(d, f'{r["simulation"]}-{r["load"]}-1{tail}*.csv'))
        assert len(files) == 1, (r["simulation"], fmt, files)
        seen.add(files[0])
        ms, at = (presentmon if fmt == "presentmon" else mangohud)(files[0])
        assert len(ms) == n and n >= 5, (len(ms), n)  # Gaming: 100 ms frames
        assert all(b > a for a, b in zip(at, at[1:])), "times not rising"
        assert abs(sum(ms) / len(ms) - mean_ms) < 1e-6 * mean_ms + 1e-6, (sum(ms) / len(ms), mean_ms)
        assert stutters(ms) == r["stutter_frames"], (stutters(ms), r["stutter_frames"])
        assert abs(low_average_mfps(ms, 1) - r["one_percent_low_average_mfps"]) <= 1
        assert abs(low_average_mfps(ms, 0.1) - r["point_one_percent_low_average_mfps"]) <= 1
        if r["simulation"] == "Pipeline":  # shown at vsyncs: whole vsync intervals
            vsync_ms = r["interval_us"] / 1000
            assert all(abs(x / vsync_ms - round(x / vsync_ms)) < 1e-6 for x in ms), "not whole vsyncs"
        print(f'{os.path.basename(files[0])}: {len(ms)} frames, mean {sum(ms) / len(ms):.3f} ms, '
              f'{stutters(ms)} stutters')
assert seen == set(glob.glob(os.path.join(d, "*"))), sorted(set(glob.glob(os.path.join(d, "*"))) - seen)
PY
}

"$BIN" -l "$LPMS" -t 2 -c -q -W Pipeline -w None --frame-log logs --frame-log-format mangohud,presentmon \
	--json p.json >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && check_logs p.json logs mangohud,presentmon >>"$out" 2>&1
then ok "Pipeline: a MangoHud and a PresentMon log agreeing with the JSON ($(grep -m1 'frames, mean' "$out"))"
else bad "Pipeline --frame-log (exit $rc)" "$out"; fi

"$BIN" -l "$LPMS" -t 2 -c -q -W Video -W Gaming -W Audio -w None --frame-log logs2 --json v.json >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && check_logs v.json logs2 mangohud >>"$out" 2>&1
then ok "Video and Gaming: a MangoHud log each agreeing with the JSON, none for Audio"
else bad "Video and Gaming --frame-log (exit $rc)" "$out"; fi

"$BIN" compare v.json v.json >"$out" 2>&1; rc=$?
if [ "$rc" = 3 ] && grep -q 'Gaming .* 1% low average fps' "$out" && grep -q 'Video .* % stutter time' "$out"
then ok "compare: the 1% low average and the stutter time (one sub-run a side: exit 3)"; else bad "compare (exit $rc)" "$out"; fi

# Hostile directories: a link (to a directory the run could write), a FIFO; refused before any
# pair, nothing written through them.
mkdir elsewhere && ln -s elsewhere linkdir && mkfifo fifo
for dir in linkdir fifo; do
	"$BIN" -l "$LPMS" -t 1 -c -q -W Video -w None --frame-log "$dir" >"$out" 2>&1; rc=$?
	if [ "$rc" = 2 ] && grep -q "^interbench: --frame-log: .*$dir .*accepted: a directory of your own" "$out" &&
	   [ -z "$(ls elsewhere)" ] && ! grep -q "Benchmarking" "$out"
	then ok "--frame-log $dir refused before any pair (exit 2)"; else bad "--frame-log $dir (exit $rc)" "$out"; fi
done
if [ "$(id -u)" = 0 ]; then
	mkdir theirs && chown 65534:65534 theirs
	"$BIN" -l "$LPMS" -t 1 -c -q -W Video -w None --frame-log theirs >"$out" 2>&1; rc=$?
	if [ "$rc" = 2 ] && grep -q "^interbench: --frame-log: .*theirs belongs to uid 65534" "$out" && [ -z "$(ls -A theirs)" ]
	then ok "--frame-log in another user's directory refused (exit 2)"; else bad "--frame-log theirs (exit $rc)" "$out"; fi
else skip "another user's directory (needs root for chown)"; fi

# A full disk (RLIMIT_FSIZE of 1 KiB) while a log is written: said, exit 1, no temporary file.
fsize_limited 1024 "$out" "$BIN" -l "$LPMS" -t 1 -c -q -W Video -w None --frame-log full; rc=$?
if [ "$rc" = 1 ] && grep -q "^interbench: --frame-log full/Video-None-1_.*: write: File too large" "$out" &&
   [ -z "$(ls -A full)" ]
then ok "--frame-log on a full disk: exit 1, nothing left"; else bad "--frame-log on a full disk (exit $rc)" "$out"; fi

"$BIN" -t 1 -c --frame-log logs3 --frame-log-format csv >"$out" 2>&1; rc=$?
if [ "$rc" = 2 ] && grep -q "^interbench: --frame-log-format: .*csv" "$out"
then ok "--frame-log-format csv refused (exit 2)"; else bad "--frame-log-format csv (exit $rc)" "$out"; fi
e2e_end
