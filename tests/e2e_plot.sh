#!/bin/bash
# End to end: interbench plot (issue 15) renders real results from short runs (a sweep with
# --timeline): every kind of figure, each a valid PNG or SVG beside its gnuplot script and
# data, with the series expected; a clear message and exit 2 without gnuplot or a result.
# Usage: e2e_plot.sh BINARY
set -u
BIN=$(realpath "${1:?usage: $0 path/to/interbench}")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export XDG_CACHE_HOME="$TMP/cache"
mkdir -p "$TMP/cache" "$TMP/run" && cd "$TMP/run" || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && sed 's/^/     /' "$2"; }
out="$TMP/out.txt"
if ! command -v gnuplot >/dev/null; then echo "skip - no gnuplot (apt-get install gnuplot-nox)"; exit 0; fi

"$BIN" -t 1 -c -q -W Audio -W ProAudio -w None -w Burn -N 0,19 --timeline tl.bin --json r.json >"$out" 2>&1 ||
	bad "the run to plot" "$out"
"$BIN" plot r.json --timeline tl.bin --out pics >"$out" 2>&1; rc=$?
n_tl=$(python3 -c 'import json; print(len(json.load(open("r.json"))["results"]))')
if [ "$rc" = 0 ] && grep -q "^$((2 + 2 + 4 + n_tl)) figures drawn in pics$" "$out"
then ok "plot: distributions and percentiles of 2 tasks, 4 sweeps, $n_tl timelines"; else bad "plot (exit $rc)" "$out"; fi
good=1
for f in latency-audio percentiles-proaudio sweep-audio-burn timeline-0; do
	[ -s "pics/$f.gp" ] && [ -s "pics/$f.dat" ] || good=0
	head -c 8 "pics/$f.png" | od -An -tx1 | tr -d ' \n' | grep -q '^89504e470d0a1a0a$' || good=0
	[ "$(stat -c %s "pics/$f.png")" -gt 5000 ] || good=0
done
if [ "$good" = 1 ]; then ok "each figure a PNG (signature, > 5 KB) beside its script and data"; else bad "figure files"; ls -l pics; fi
# series: per load, scheduling and timer latency and the p99/max marks; per load setting, met and p99
# (a series' title; the figure's own is on the 'set title' line)
if [ "$(grep -v '^set title' pics/latency-audio.gp | grep -o "title '[^']*'" | wc -l)" = 12 ] &&
   [ "$(grep -v '^set title' pics/sweep-audio-burn.gp | grep -o "title '[^']*'" | wc -l)" = 4 ] &&
   grep -q "^set arrow" pics/percentiles-audio.gp && grep -q "^set arrow" pics/timeline-0.gp
then ok "the series expected, the deadline lines"; else bad "series"; fi
# names are text: "nice 0" a tick label as written, SCHED_BATCH no subscript (noenhanced)
if grep -q '^0 "nice 0" ' pics/sweep-audio-burn.dat && [ "$(grep -L '^set terminal pngcairo noenhanced ' pics/*.gp)" = "" ]
then ok "labels as written (spaces kept, no enhanced-text markup)"; else bad "labels" pics/sweep-audio-burn.dat; fi
# a result file from anyone: names with quotes, backquotes and gnuplot commands stay text
python3 - <<'PY'
import json
d = json.load(open("r.json"))
for r in d["results"]:
    r["simulation"] = r["simulation"] + "\" ; system(\"touch pwned-1\") ; print \"`touch pwned-2`"
    r["load"] = r["load"] + "' ; system('touch pwned-3') ; print '@x\n; system('touch pwned-4')"
json.dump(d, open("evil.json", "w"))
PY
"$BIN" plot evil.json --out evil >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && ! ls pwned-* evil/pwned-* >/dev/null 2>&1 && [ "$(ls evil/*.png | wc -l)" -ge 2 ]
then ok "names from the result run nothing in gnuplot"; else bad "a crafted result (exit $rc)" "$out"; ls pwned-* evil/pwned-* 2>/dev/null; fi
# a link planted under a picture's name: refused, its target untouched, the other figures drawn
mkdir planted && echo precious >target && ln -s "$PWD/target" planted/latency-audio.png
"$BIN" plot r.json --out planted >"$out" 2>&1; rc=$?
if [ "$rc" = 1 ] && [ "$(cat target)" = precious ] && grep -q "open planted/latency-audio.png" "$out" &&
   head -c 4 planted/percentiles-audio.png | grep -q PNG
then ok "a link planted under a picture's name is refused, its target untouched"; else bad "planted link (exit $rc)" "$out"; fi
"$BIN" plot r.json --out svg --format svg >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && grep -q '<svg' svg/latency-audio.svg; then ok "--format svg"; else bad "svg (exit $rc)" "$out"; fi
PATH=/nonexistent "$BIN" plot r.json --out none >"$out" 2>&1; rc=$?
if [ "$rc" = 2 ] && grep -q "gnuplot is not installed.*gnuplot-nox" "$out" && [ ! -e none ]
then ok "without gnuplot: exit 2 naming the package"; else bad "no gnuplot (exit $rc)" "$out"; fi
python3 - <<'PY'
import json
d = json.load(open("r.json"))
for r in d["results"]:
    if r["simulation"] == "Audio" and r["load"] == "Burn" and "latency_p99_ns" in r:
        r["latency_p99_ns"] = r["latency_p99_ns"] * 10 + 1000000
        r["latency_histogram"] = [[b[0] * 10, b[1]] for b in r["latency_histogram"]]
json.dump(d, open("worse.json", "w"))
PY
"$BIN" compare --plot cmp r.json worse.json >"$out" 2>&1; rc=$?
n=$(ls cmp/*.png 2>/dev/null | wc -l)
if [ "$rc" = 1 ] && grep -q REGRESSION "$out" && [ "$n" -ge 1 ] && grep -q "title 'NEW'" cmp/compare-audio-*-burn.gp
then ok "compare --plot: OLD and NEW overlaid for the $n flagged pair(s)"; else bad "compare --plot (exit $rc, $n pictures)" "$out"; fi
echo '{}' > empty.json
"$BIN" plot empty.json >"$out" 2>&1; rc=$?
if [ "$rc" = 2 ] && grep -q "not an interbench JSON result" "$out"; then ok "a file that is not a result: exit 2"
else bad "bad result (exit $rc)" "$out"; fi
"$BIN" plot r.json --timeline r.json --out x >"$out" 2>&1; rc=$?
if [ "$rc" = 2 ] && grep -q "not an interbench timeline" "$out"; then ok "a file that is not a timeline: exit 2"
else bad "bad timeline (exit $rc)" "$out"; fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
