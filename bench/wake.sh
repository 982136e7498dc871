#!/usr/bin/env bash
# How a task is woken, beside Debian's rt-app.  Under one external CPU hog (stress-ng --cpu
# HOGS, started once for the whole script), ROUNDS interleaved rounds of: interbench's Audio and
# Video (-w None) with --wake thread (the realtime timing thread wakes the task, interbench
# 0.31's design), the same with --wake timer (the task sleeps on its own absolute timer), and
# rt-app running one SCHED_OTHER thread of Audio's shape (50 ms period, 2.5 ms of work) and
# one of Video's (16.667 ms, 6.667 ms), each woken by its own timer, for the same time.  The
# figure compared: how late each period's thread ran after its nominal start, interbench's
# lateness and rt-app's wu_lat (the wake-up latency after each timer event, rt-app's
# doc/tutorial.txt "Log and gnuplot"), mean and p99 per round; the median (range) over the
# rounds, the range being the A/A spread of each.  Then `interbench compare` of the last
# round's thread and timer results.  Prints a Markdown section.  Run as root; needs rt-app and
# stress-ng (apt-get install rt-app stress-ng).
# Usage: bench/wake.sh [./interbench] [rounds (3)] [seconds (10)] [hogs (2)]
# shellcheck source=bench/common.sh
source "$(dirname "$0")/common.sh"
bench_setup wake.sh "${1:-./interbench}"
rounds=${2:-3}
secs=${3:-10}
hogs=${4:-2}
for tool in rt-app stress-ng; do
	command -v "$tool" >/dev/null || { echo "wake.sh: $tool: not installed (apt-get install rt-app stress-ng)" >&2; exit 2; }
done

# rtapp_json NAME PERIOD_US WORK_US: rt-app's task set of one thread of that shape, logged to
# NAME-*.log here (a 2 MB buffer per thread, written at the end: "file" mode logged no period here).
rtapp_json() {
	cat <<EOF
{ "global": { "duration": $secs, "calibration": "CPU0", "default_policy": "SCHED_OTHER",
              "logdir": "./", "log_basename": "$1", "log_size": 2 },
  "tasks": { "task": { "loop": -1, "runtime": $3, "timer": { "ref": "unique", "period": $2 } } } }
EOF
}

stress-ng --cpu "$hogs" --timeout 0 --quiet &
hog=$!
trap 'kill $hog 2>/dev/null; wait $hog 2>/dev/null; cd /; bench_keep; rm -rf "$tmp"' EXIT
bench_show stress-ng --cpu "$hogs" --timeout 0 --quiet "&"
for ((r = 1; r <= rounds; r++)); do
	for how in thread timer; do
		bench_run "w-$how-$r.lines" "$bin" -t "$secs" -c -W Audio -W Video -w None --wake "$how" --json "w-$how-$r.json"
	done
	rtapp_json "rtapp-audio-$r" 50000 2500 >"rtapp-audio-$r.json"
	rtapp_json "rtapp-video-$r" 16667 6667 >"rtapp-video-$r.json"
	bench_run "rtapp-audio-$r.lines" rt-app "rtapp-audio-$r.json"
	bench_run "rtapp-video-$r.lines" rt-app "rtapp-video-$r.json"
done
kill $hog 2>/dev/null; wait $hog 2>/dev/null || true

echo "## How a task is woken (--wake), beside rt-app"
echo
echo "Under \`stress-ng --cpu $hogs\`, $rounds interleaved rounds of $secs s: interbench's Audio and Video"
echo "(-w None) woken by its timing thread and by their own timer, and rt-app's thread of the same"
echo "shape (SCHED_OTHER, its own timer).  How late each period's thread ran after its nominal start"
echo "(interbench: lateness; rt-app: wu_lat), median (range over the rounds) of each round's mean"
echo "and p99, ms."
echo
python3 - "$rounds" <<'PY'
import glob, json, statistics, sys
rounds = int(sys.argv[1])
def ib(how, sim, key):
    out = []
    for r in range(1, rounds + 1):
        res = json.load(open(f"w-{how}-{r}.json"))["results"]
        out.append([x[key] for x in res if x["simulation"] == sim][0] / 1e6)
    return out
def rtapp(shape, stat):
    out = []
    for r in range(1, rounds + 1):
        lat = []
        for log in glob.glob(f"rtapp-{shape}-{r}-*.log"):
            for line in open(log):
                f = line.split()
                if f and not line.startswith("#") and len(f) >= 11:
                    lat.append(int(f[10]) / 1e3)  # wu_lat, us -> ms
        lat = lat[1:]                              # the first period has no timer before it
        if not lat:
            sys.exit(f"wake.sh: rt-app logged no periods for {shape} round {r}")
        lat.sort()
        out.append(statistics.mean(lat) if stat == "mean" else lat[min(len(lat) - 1, int(0.99 * len(lat)))])
    return out
def cell(v):
    return f"{statistics.median(v):.3g} ({min(v):.3g}-{max(v):.3g})"
print("| shape | figure | interbench --wake thread | interbench --wake timer | rt-app | timer / thread | rt-app / timer |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for sim, shape in (("Audio", "audio"), ("Video", "video")):
    for stat, key in (("mean", "lateness_mean_ns"), ("p99", "lateness_p99_ns")):
        a, b, c = ib("thread", sim, key), ib("timer", sim, key), rtapp(shape, stat)
        ma, mb, mc = (statistics.median(x) for x in (a, b, c))
        print(f"| {sim} | {stat} | {cell(a)} | {cell(b)} | {cell(c)} | {mb / ma:.2f} | {mc / mb:.2f} |")
PY
echo
echo "\`interbench compare --match simulation,load w-thread-${rounds}.json w-timer-${rounds}.json\` (the last round):"
echo
echo '```'
"$bin" compare --match simulation,load "w-thread-$rounds.json" "w-timer-$rounds.json" | grep -E "^(Warning|Audio|Video|[0-9]+ pairs)" || true
echo '```'
bench_commands
