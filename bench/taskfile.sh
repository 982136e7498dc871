#!/usr/bin/env bash
# Task files (doc/task-file.md), measured.  Two parts:
#  (a) rt-app's own example, its doc/examples/mp3-short.json (a copy: tests/taskfiles/rtapp/), run by
#      rt-app and by interbench --task-file under the same external CPU hog (stress-ng --cpu
#      HOGS, as bench/wake.sh), ROUNDS rounds of SECS seconds each, the two alternating which
#      goes first.  The figures are those of the thread whose timer opens the periods
#      (AudioTick, every 6 ms): its wake-up latency after each tick (rt-app: wu_lat, its log's
#      last column, rt-app's doc/tutorial.txt "Log and gnuplot"; interbench: lateness, the
#      period's nominal start to the thread running, with --wake timer so that both sleep on
#      their own timer) as mean, p99 and max, and its periods missed (rt-app: a loop whose
#      slack was negative; interbench: deadlines missed), the median (range) over the rounds
#      and the ratio of the medians.  rt-app is calibrated once, before the hog (its pLoad),
#      so no run calibrates under it;
#  (b) each built-in task against its file form (doc/tasks/), ROUNDS rounds of one run of the
#      four built-ins and one run of each file, all against Burn for SECS_B seconds a pair:
#      latency mean and p99 and % deadlines met of each, the median (range) over the rounds,
#      the 95 % t interval of each form's mean over the rounds and whether the two overlap,
#      and in how many rounds the runs' own (within-run) intervals overlapped.  Pipeline's
#      file is run with its deadline at the period, as the built-in's % deadlines met counts
#      it (doc/tasks/pipeline.json's deadline is the latch: that figure is the built-in's jank).
# Each round holds the machine's timing lock (flock BENCH_LOCK, /tmp/interbench-timing.lock
# by default; BENCH_LOCK= takes none), the hog inside it: do not run the script itself under
# that lock.  About 4 minutes with the defaults on 2 CPUs.  Prints a Markdown section.  Run as
# root; needs rt-app and stress-ng (apt-get install rt-app stress-ng).
# Usage: bench/taskfile.sh [./interbench] [rounds (3)] [secs (10)] [secs_b (5)] [hogs (2)]
# shellcheck source=bench/common.sh
source "$(dirname "$0")/common.sh"
bench_setup taskfile.sh "${1:-./interbench}"
rounds=${2:-3}
secs=${3:-10}
secs_b=${4:-5}
hogs=${5:-2}
lock=${BENCH_LOCK-/tmp/interbench-timing.lock}
# The files, copied into the scratch directory at their paths in the source tree, so that the
# commands shown read as run from its top.
mkdir -p doc/tasks tests/taskfiles/rtapp
cp "$bench_dir"/../doc/tasks/*.json doc/tasks/
cp "$bench_dir/../tests/taskfiles/rtapp/mp3-short.json" tests/taskfiles/rtapp/
mp3=tests/taskfiles/rtapp/mp3-short.json
tasks=(Audio Video ProAudio Pipeline)
for tool in rt-app stress-ng; do
	command -v "$tool" >/dev/null || { echo "taskfile.sh: $tool: not installed (apt-get install rt-app stress-ng)" >&2; exit 2; }
done
if ! "$bin" --help-all 2>&1 | grep -q -- '--task-file'; then
	echo "taskfile.sh: $bin: reads no task files (no --task-file in --help-all): build a newer one" >&2
	exit 2
fi

hog=''
# hog_stop: ends the hog this script started, if it runs.
hog_stop() {
	if [ -n "$hog" ]; then kill "$hog" 2>/dev/null; wait "$hog" 2>/dev/null || true; fi
	hog=''
}
trap 'hog_stop; cd /; bench_keep; rm -rf "$tmp"' EXIT

# locked / unlocked: take and give back the timing lock (fd 9).
locked() { if [ -n "$lock" ]; then exec 9>>"$lock"; flock 9; fi; }
unlocked() { if [ -n "$lock" ]; then flock -u 9; exec 9>&-; fi; }

# rtapp_copy OUT BASENAME CALIB_NS: mp3-short.json run for secs, logged to BASENAME-*.log here,
# its calibration given (CALIB_NS, or "CPU0" to measure it).  The text is edited, not
# re-serialised: the file repeats keys in one object.  Each edit must take.
rtapp_copy() {
	sed -e "s/\"duration\" : 6,/\"duration\" : $secs,/" -e "s/\"log_basename\" : \"mp3\"/\"log_basename\" : \"$2\"/" \
		-e "s/\"calibration\" : \"CPU0\"/\"calibration\" : $3/" "$mp3" >"$1"
	if ! grep -q "\"duration\" : $secs," "$1" || ! grep -q "\"log_basename\" : \"$2\"" "$1" ||
		! grep -q "\"calibration\" : $3" "$1"; then
		echo "taskfile.sh: $mp3: not the mp3-short.json expected (duration, log_basename, calibration)" >&2
		exit 2
	fi
}

# rt-app's calibration, once, on a quiet machine: its "pLoad = Nns".
locked
rtapp_copy calib.json calib '"CPU0"'
bench_run calib.lines rt-app calib.json
unlocked
calib_ns=$(grep -oE 'pLoad = [0-9]+ns' calib.lines | grep -oE '[0-9]+' | head -1)
[ -n "$calib_ns" ] || { echo "taskfile.sh: rt-app printed no calibration (pLoad = Nns)" >&2; exit 1; }

# (a) rt-app's file by rt-app and by interbench, alternating, under the hog.
run_rtapp() {
	rtapp_copy "a-rtapp-$1.json" "a-rtapp-$1" "$calib_ns"
	bench_run "a-rtapp-$1.lines" rt-app "a-rtapp-$1.json"
	python3 "$bench_dir/taskfile.py" rtapp a-rtapp-"$1"-AudioTick-*.log >"a-rtapp-$1.stats"
}
run_ib() {
	bench_run "a-ib-$1.lines" "$bin" -t "$secs" -c --task-file "$mp3" -w None --wake timer --json "a-ib-$1.json"
}
for ((r = 1; r <= rounds; r++)); do
	locked
	stress-ng --cpu "$hogs" --timeout 0 --quiet &
	hog=$!
	[ "$r" = 1 ] && bench_show stress-ng --cpu "$hogs" --timeout 0 --quiet "&"
	if ((r % 2)); then run_rtapp "$r"; run_ib "$r"; else run_ib "$r"; run_rtapp "$r"; fi
	hog_stop
	unlocked
done

# (b) the built-ins and their files, against Burn.
python3 - doc/tasks/pipeline.json <<'PY' >pipeline-period.json
import json, sys
d = json.load(open(sys.argv[1]))  # interbench's format: no key repeats
d.pop("deadline")
json.dump(d, sys.stdout, indent=1)
PY
for ((r = 1; r <= rounds; r++)); do
	locked
	bench_run "b-builtin-$r.lines" "$bin" -t "$secs_b" -c -W Audio -W Video -W ProAudio -W Pipeline -w Burn --json "b-builtin-$r.json"
	for t in "${tasks[@]}"; do
		f=doc/tasks/${t,,}.json
		[ "$t" = Pipeline ] && f=pipeline-period.json
		bench_run "b-$t-$r.lines" "$bin" -t "$secs_b" -c --task-file "$f" -w Burn --json "b-$t-$r.json"
	done
	unlocked
done

echo "## Task files: rt-app's example beside rt-app; the built-in tasks against their files"
echo
echo "(a) rt-app's doc/examples/mp3-short.json (tests/taskfiles/rtapp/), run by rt-app and by interbench"
echo "\`--task-file\` (\`--wake timer\`, \`-w None\`) under \`stress-ng --cpu $hogs\`, $rounds rounds of $secs s"
echo "alternating which goes first.  AudioTick's wake-up latency after each 6 ms tick (rt-app:"
echo "wu_lat; interbench: lateness) and its periods missed (rt-app: slack < 0; interbench:"
echo "deadlines missed): median (range) over the rounds of each round's figure.  rt-app calibrated"
echo "once before the hog: ${calib_ns} ns a loop.  a-rtapp-R.json is tests/taskfiles/rtapp/mp3-short.json with"
echo "its duration, log_basename and calibration edited (sed: the file repeats keys in one object)."
echo
python3 "$bench_dir/taskfile.py" side "$rounds"
echo
echo "(b) Each built-in task against its file (doc/tasks/; Pipeline's with its deadline at the"
echo "period, as the built-in counts its deadlines: pipeline-period.json), against Burn, $rounds"
echo "rounds of $secs_b s a pair: median (range) over the rounds; the 95 % t interval of each form's"
echo "mean over the rounds (between runs; a latency's of its geometric mean) and whether they"
echo "overlap; the rounds in which the two runs' own 95 % intervals (\`_ci\`, within-run: they hold"
echo "each run's own long-run figure, not another run's) overlapped, of those where both had one."
echo
python3 "$bench_dir/taskfile.py" pairs "$rounds" "${tasks[@]}"
bench_commands
