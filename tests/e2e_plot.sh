#!/bin/bash
# End to end: interbench plot renders real results from short runs (a sweep with --timeline):
# every kind of figure, each a valid PNG or SVG beside the self-contained gnuplot script that
# drew it, with the series expected; a clear message and exit 2 without gnuplot or a result.
# As root in places others can write: gnuplot is handed its script, never a path; --out must be
# a directory no other user controls; planted scripts, links and FIFOs change nothing; input
# is validated and bounded.
# Usage: e2e_plot.sh BINARY
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin plot "${1:?usage: $0 path/to/interbench}"
e2e_run_dir
if ! command -v gnuplot >/dev/null; then
	skip "every plot case: no gnuplot (apt-get install gnuplot-nox)"
	e2e_end
fi

# From a stored result, no run: tests/plot/explain.json, made with
#   interbench -c -q -W ProAudio -W Video -w None -w Burn --repeat 3 -t 2 --explain \
#     --explain-threshold 500us --json explain.json
# (each result's explain.periods cut to its last, for size): ProAudio's sub-runs bound their p99
# with Burn (an interval between them), not all without it (open above), Video's never (2 s: 120
# periods).  plotcheck.py recomputes from the JSON what each script must hold.
FX="$E2E_TREE/tests/plot/explain.json" PC="$E2E_TREE/tests/lib/plotcheck.py"
"$BIN" plot "$FX" --out fx >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && grep -q "^8 figures drawn in fx$" "$out"
then ok "plot of a stored result: tails of latency and timer, percentiles and causes of 2 tasks"
else bad "plot of tests/plot/explain.json (exit $rc)" "$out"; fi
good=1
for sim in ProAudio Video; do
	s=$(echo "$sim" | tr A-Z a-z)
	python3 "$PC" ccdf "fx/latency-$s.gp" "$FX" "$sim" >>"$out" &&
	python3 "$PC" ccdf "fx/timer-$s.gp" "$FX" "$sim" timer_latency_histogram >>"$out" &&
	python3 "$PC" marks "fx/latency-$s.gp" "$FX" "$sim" >>"$out" || good=0
done
if [ "$good" = 1 ] && grep -q "^marks fx/latency-proaudio.gp: kinds \[0, 2\]" "$out"
then ok "tails: log axes, a curve per load in its own colour and dash, each step the exact fraction of periods later (pooled sub-runs), p99 between-run interval or open arrow, max"
else bad "tail figures" "$out"; fi
good=1
for f in fx/*.png; do python3 "$PC" png "$f" "${f%.png}.gp" >>"$out" || good=0; done
if [ "$good" = 1 ] && [ "$(ls fx/*.png | wc -l)" = 8 ]; then ok "each picture a PNG of the size its script states"
else bad "picture sizes" "$out"; fi
if python3 "$PC" fills fx/causes-proaudio.gp 13 >"$out" && python3 "$PC" fills fx/causes-video.gp 13 >>"$out" &&
   python3 "$PC" causes fx/causes-proaudio.gp "$FX" ProAudio >>"$out" &&
   python3 "$PC" causes fx/causes-video.gp "$FX" Video >>"$out" &&
   grep -q "lc rgb '#FB9A99' title 'preempted'" fx/causes-video.gp
then ok "causes: each load's sub-runs pooled; 13 parts in 13 colours (ColorBrewer Paired), preempted pink, unexplained hatched grey"
else bad "causes chart" "$out"; fi
# one sub-run: its p99 a point alone, no interval (a run's own is within-run)
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["results"] = [r for r in d["results"] if r["simulation"] == "ProAudio" and r["load"] == "Burn" and r["repeat"] == 1]
json.dump(d, open("one.json", "w"))' "$FX"
"$BIN" plot one.json --out one >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && python3 "$PC" marks one/latency-proaudio.gp one.json ProAudio >>"$out" &&
   grep -q "kinds \[1\]" "$out" && ! grep -q "xerrorbars pt 7 lc rgb 'black'" one/latency-proaudio.gp
then ok "one sub-run: its p99 a point, no interval bar, no interval in the key"; else bad "one sub-run (exit $rc)" "$out"; fi
# two results: compare's answers drawn, every row compare's own verdict and values
A="$E2E_TREE/tests/golden/fixtures/a.json" B="$E2E_TREE/tests/golden/fixtures/b.json"
"$BIN" plot "$A" "$B" --out ab >"$out" 2>&1; rc=$?
"$BIN" compare --json ab.json "$A" "$B" >/dev/null 2>&1
if [ "$rc" = 0 ] && grep -q "^2 figures drawn in ab$" "$out" &&
   python3 "$PC" decisions ab/decisions-p90-latency.gp ab.json "p90 latency" >>"$out" &&
   python3 "$PC" decisions ab/decisions-deadlines-met.gp ab.json "% deadlines met" >>"$out" &&
   python3 "$PC" png ab/decisions-p90-latency.png ab/decisions-p90-latency.gp >>"$out"
then ok "plot OLD NEW: a row per pair of each judged figure, each compare's answer and values"
else bad "plot OLD NEW (exit $rc)" "$out"; fi
"$BIN" plot "$A" "$B" --timeline x.bin --out ab2 >"$out" 2>&1; rc=$?
if [ "$rc" = 2 ] && grep -q "^interbench plot: --timeline: one run's file, not for two results" "$out" && [ ! -e ab2 ]
then ok "plot OLD NEW --timeline: exit 2 naming why"; else bad "plot OLD NEW --timeline (exit $rc)" "$out"; fi
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["machine"]["cpu_model"] = "another CPU"
json.dump(d, open("othercpu.json", "w"))' "$B"
"$BIN" plot "$A" othercpu.json --out ab3 >"$out" 2>&1; rc=$?
if [ "$rc" = 2 ] && grep -q "^interbench compare: .*allow-different-machine" "$out" &&
   grep -q "^interbench plot: .* and othercpu.json not compared" "$out" && [ ! -e ab3 ]
then ok "plot OLD NEW that compare refuses (another CPU): exit 2 with compare's reason"
else bad "plot OLD NEW refused (exit $rc)" "$out"; fi

"$BIN" -t 1 -c -q -W Audio -W ProAudio -w None -w Burn -N 0,19 --timeline tl.bin --json r.json >"$out" 2>&1 ||
	bad "the run to plot" "$out"
"$BIN" plot r.json --timeline tl.bin --out pics >"$out" 2>&1; rc=$?
n_tl=$(python3 -c 'import json; print(len(json.load(open("r.json"))["results"]))')
if [ "$rc" = 0 ] && grep -q "^$((3 * 2 + 4 + n_tl)) figures drawn in pics$" "$out"
then ok "plot: tails, timer tails and percentiles of 2 tasks, 4 sweeps, $n_tl timelines"; else bad "plot (exit $rc)" "$out"; fi
good=1
for f in latency-audio timer-proaudio percentiles-proaudio sweep-audio-burn timeline-0; do
	grep -q '^\$d0 << EOD$' "pics/$f.gp" && [ ! -e "pics/$f.dat" ] || good=0
	head -c 8 "pics/$f.png" | od -An -tx1 | tr -d ' \n' | grep -q '^89504e470d0a1a0a$' || good=0
	[ "$(stat -c %s "pics/$f.png")" -gt 5000 ] || good=0
done
if [ "$good" = 1 ]; then ok "each figure a PNG (signature, > 5 KB) beside its script, its data inline"; else bad "figure files"; ls -l pics; fi
# series: a curve per load and task setting (4), checked point by point; per load setting, met
# and p99 (a series' title; the figure's own is on the 'set title' line)
if python3 "$E2E_TREE/tests/lib/plotcheck.py" ccdf pics/latency-audio.gp r.json Audio >"$TMP/pc.out" &&
   grep -q "4 curves" "$TMP/pc.out" &&
   [ "$(grep -v '^set title' pics/sweep-audio-burn.gp | grep -o "title '[^']*'" | wc -l)" = 4 ] &&
   grep -q "^set arrow" pics/percentiles-audio.gp && grep -q "^set arrow" pics/timeline-0.gp
then ok "the series expected, the deadline lines"; else bad "series"; fi
# the buffer's line (orange) from each result's task_settings.buffer_periods: on the timelines of
# the task with a buffer only, and on none once the key is gone (a result written before it)
buffered=$(python3 -c 'import json; print(sum(1 for r in json.load(open("r.json"))["results"] if r["task_settings"]["buffer_periods"] > 0))')
python3 -c 'import json; d = json.load(open("r.json")); [r.pop("task_settings") for r in d["results"]]; json.dump(d, open("old.json", "w"))'
"$BIN" plot old.json --timeline tl.bin --out pics-old >"$out" 2>&1
if [ "$buffered" -gt 0 ] && [ "$(grep -l "lc 'orange'" pics/timeline-*.gp | wc -l)" = "$buffered" ] &&
   [ "$(grep -l "lc 'orange'" pics-old/timeline-*.gp | wc -l)" = 0 ]
then ok "the buffer line where task_settings gives a buffer ($buffered timelines), none without the key"
else bad "buffer lines" "$out"; fi
# names are text: "nice 0" a tick label as written, SCHED_BATCH no subscript (noenhanced)
if grep -q '^0 "nice 0" ' pics/sweep-audio-burn.gp && [ "$(grep -L '^set terminal pngcairo noenhanced ' pics/*.gp)" = "" ]
then ok "labels as written (spaces kept, no enhanced-text markup)"; else bad "labels" pics/sweep-audio-burn.gp; fi
# a result file from anyone: names with quotes, backquotes and gnuplot commands stay text
python3 - <<'PY'
import json
d = json.load(open("r.json"))
for r in d["results"]:
    # within the lengths a result's names may have (compare's limits, which plot shares)
    r["simulation"] = r["simulation"] + "\";system(\"touch pwned-1\")`touch pwned-2`\n!touch pwned-4"
    r["load"] = r["load"] + "';system('touch pwned-3')@x"
json.dump(d, open("evil.json", "w"))
PY
"$BIN" plot evil.json --out evil >"$out" 2>&1; rc=$?
"$BIN" plot evil.json evil.json --out evil2 --format svg >>"$out" 2>&1; rc2=$?
if [ "$rc" = 0 ] && [ "$rc2" = 0 ] && ! ls pwned-* evil/pwned-* evil2/pwned-* /pwned-* >/dev/null 2>&1 &&
   [ "$(ls evil/*.png | wc -l)" -ge 2 ] && [ "$(ls evil2/decisions-*.svg | wc -l)" -ge 1 ] &&
   grep -q "system('touch pwned-1')" evil2/decisions-*.gp
then ok "names from the result run nothing in gnuplot (one result, and two compared, in SVG)"
else bad "a crafted result (exit $rc, $rc2)" "$out"; ls pwned-* evil/pwned-* evil2/pwned-* /pwned-* 2>/dev/null; fi
# a link planted under a picture's name: refused, its target untouched, the other figures drawn
mkdir planted && echo precious >target && ln -s "$PWD/target" planted/latency-audio.png
"$BIN" plot r.json --out planted >"$out" 2>&1; rc=$?
if [ "$rc" = 1 ] && [ "$(cat target)" = precious ] && grep -q "planted/latency-audio.png is a symbolic link" "$out" &&
   head -c 4 planted/percentiles-audio.png | grep -q PNG
then ok "a link planted under a picture's name is refused, its target untouched"; else bad "planted link (exit $rc)" "$out"; fi
"$BIN" plot r.json --out svg --format svg >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && grep -q '<svg' svg/latency-audio.svg; then ok "--format svg"; else bad "svg (exit $rc)" "$out"; fi
PATH=/nonexistent "$BIN" plot r.json --out none >"$out" 2>&1; rc=$?
if [ "$rc" = 2 ] && grep -q "gnuplot is not installed.*gnuplot-nox" "$out" && [ ! -e none ]
then ok "without gnuplot: exit 2 naming the package"; else bad "no gnuplot (exit $rc)" "$out"; fi
# compare --plot draws the pairs it flags: a copy of the run as six identical sub-runs a
# side (so that a change is decidable: one sub-run a side answers nothing), Audio/Burn's
# latencies ten times worse plus 1 ms in NEW.  Disturbance set to none: compare leaves a
# disturbed sub-run out, and another program on the host must not hide the answer tested.
python3 "$E2E_TREE/tests/lib/undisturbed.py" r.json quiet1.json
python3 "$E2E_TREE/tests/lib/subruns.py" quiet1.json quiet.json
python3 - <<'PY'
import json
d = json.load(open("quiet.json"))
for r in d["results"]:
    if r["simulation"] == "Audio" and r["load"] == "Burn" and r.get("latency_p99_ns") is not None:
        for k in ("latency_p90_ns", "latency_p99_ns"):
            r[k] = r[k] * 10 + 1000000
        r["latency_histogram"] = [[b[0] * 10, b[1]] for b in r["latency_histogram"]]
json.dump(d, open("worse.json", "w"))
PY
"$BIN" compare --plot cmp --json cmp.json quiet.json worse.json >"$out" 2>&1; rc=$?
n=$(ls cmp/compare-*.png 2>/dev/null | wc -l)
if [ "$rc" = 1 ] && grep -q '^Audio .* Burn  *p90 latency  *6:6 .* DIFFERENT, worse$' "$out" && [ "$n" -ge 1 ] &&
   grep -q "title 'NEW (6 sub-runs, " cmp/compare-audio-*-burn.gp && grep -q "^set logscale xy" cmp/compare-audio-*-burn.gp &&
   python3 "$E2E_TREE/tests/lib/plotcheck.py" decisions cmp/decisions-p90-latency.gp cmp.json "p90 latency" >>"$out" &&
   grep -q '"Audio / Burn" .* "DIFFERENT, worse: ' cmp/decisions-p90-latency.gp
then ok "compare --plot: every judged figure's answers as compare gave them, OLD's and NEW's tails of the $n pair(s) that changed"
else bad "compare --plot (exit $rc, $n pictures)" "$out"; fi
echo '{}' > empty.json
"$BIN" plot empty.json >"$out" 2>&1; rc=$?
if [ "$rc" = 2 ] && grep -q "empty.json: not an interbench result" "$out"; then ok "a file that is not a result: exit 2"
else bad "bad result (exit $rc)" "$out"; fi
"$BIN" plot r.json --timeline r.json --out x >"$out" 2>&1; rc=$?
if [ "$rc" = 2 ] && grep -q "not an interbench timeline" "$out"; then ok "a file that is not a timeline: exit 2"
else bad "bad timeline (exit $rc)" "$out"; fi
# a rerun of a saved script needs nothing beside it: the data is in it
mkdir rerun && cp pics/latency-audio.gp rerun/ && (cd rerun && gnuplot latency-audio.gp) >"$out" 2>&1
if head -c 4 rerun/latency-audio.png 2>/dev/null | grep -q PNG; then ok "a saved script redraws its picture on its own"
else bad "rerun of a saved script" "$out"; fi

# --out a directory another user controls: refused before anything is written
mkdir theirs && chown 65534:65534 theirs
"$BIN" plot r.json --out theirs >"$out" 2>&1; rc=$?
if [ "$rc" = 2 ] && grep -q "^interbench plot: --out theirs belongs to uid 65534" "$out" && [ -z "$(ls -A theirs)" ]
then ok "--out owned by another user: exit 2 naming why"; else bad "--out of another user (exit $rc)" "$out"; fi
mkdir open && chmod 0777 open
"$BIN" plot r.json --out open >"$out" 2>&1; rc=$?
if [ "$rc" = 2 ] && grep -q "^interbench plot: --out open is writable by others (mode 0777) without the sticky bit" "$out" &&
   [ -z "$(ls -A open)" ]
then ok "--out writable by others, not sticky: exit 2 naming why"; else bad "--out world-writable (exit $rc)" "$out"; fi
# a shared sticky directory: another user's script planted under a figure's name is left alone
mkdir shared && chmod 1777 shared
printf 'system("touch %s/MARK-planted")\n' "$PWD" >shared/latency-audio.gp && chown 65534:65534 shared/latency-audio.gp
"$BIN" plot r.json --out shared >"$out" 2>&1; rc=$?
if [ "$rc" = 1 ] && grep -q "shared/latency-audio.gp belongs to uid 65534; not replaced" "$out" &&
   grep -q MARK-planted shared/latency-audio.gp && [ ! -e MARK-planted ] && [ ! -e shared/latency-audio.png ] &&
   head -c 4 shared/percentiles-audio.png | grep -q PNG
then ok "a script planted in a sticky --out is not replaced and never run"; else bad "planted script (exit $rc)" "$out"; fi

# what gnuplot is given: its script on standard input (never a path), in /, a fixed environment
REAL_GNUPLOT=$(command -v gnuplot)
mkdir fake && cat >fake/gnuplot <<EOF
#!/bin/sh
[ "\$1" = --version ] && exit 0
printf '%s\n' "\$@" >$TMP/fake.argv
pwd >$TMP/fake.cwd
env >$TMP/fake.env
cat >$TMP/fake.stdin
EOF
chmod +x fake/gnuplot
PATH="$PWD/fake:$PATH" GNUPLOT_LIB="$PWD" "$BIN" plot r.json --out fk >"$out" 2>&1; rc=$?
if [ "$(tr '\n' ' ' <"$TMP/fake.argv")" = "-d -e ib_stdout = 1 - " ] && [ "$(cat "$TMP/fake.cwd")" = / ] &&
   grep -q '^\$d0 << EOD$' "$TMP/fake.stdin" && grep -q '^plot \$d0 ' "$TMP/fake.stdin" &&
   ! grep -q GNUPLOT_LIB "$TMP/fake.env" && grep -qx HOME=/nonexistent "$TMP/fake.env"
then ok "gnuplot reads its script from standard input, runs in / with a fixed environment"
else bad "what gnuplot is given" "$TMP/fake.argv"; cat "$TMP/fake.cwd"; grep -E '^(HOME|GNUPLOT)' "$TMP/fake.env"; fi
# that fake draws nothing: an empty picture is no figure
if [ "$rc" = 1 ] && grep -q "^0 figures drawn in fk" "$out" && grep -q "gnuplot drew nothing (an empty picture) on fk/latency-audio.png" "$out" &&
   [ -z "$(ls fk/*.png 2>/dev/null)" ]
then ok "an empty picture is not counted and not kept: exit 1"; else bad "empty picture (exit $rc)" "$out"; fi
# a script rewritten on disk between interbench's write and gnuplot's start changes nothing
mkdir race && cat >race/gnuplot <<EOF
#!/bin/sh
for f in $PWD/rc/*.gp; do [ -e "\$f" ] && printf 'system("touch $PWD/MARK-race")\n' >"\$f"; done
exec $REAL_GNUPLOT "\$@"
EOF
chmod +x race/gnuplot
PATH="$PWD/race:$PATH" "$BIN" plot r.json --out rc >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && [ ! -e MARK-race ] && head -c 4 rc/latency-audio.png | grep -q PNG
then ok "a script rewritten on disk is not what gnuplot runs"; else bad "rewritten script (exit $rc)" "$out"; fi
# the caller's gnuplot start-up files are not read
mkdir -p home/.config/gnuplot
printf 'system("touch %s/MARK-home")\n' "$PWD" | tee home/.gnuplot >home/.config/gnuplot/gnuplotrc
HOME="$PWD/home" XDG_CONFIG_HOME="$PWD/home/.config" "$BIN" plot r.json --out hm >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && [ ! -e MARK-home ]; then ok "the caller's ~/.gnuplot is not run"; else bad "~/.gnuplot (exit $rc)" "$out"; fi

# a hard link planted under an output's name: its other name keeps its content
mkdir hl && echo precious >linked && ln linked hl/latency-audio.gp && ln linked hl/percentiles-audio.png
"$BIN" plot r.json --out hl >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && [ "$(cat linked)" = precious ] && [ "$(stat -c %h linked)" = 1 ] && grep -q '^\$d0 << EOD' hl/latency-audio.gp
then ok "hard links planted as outputs: their other name untouched"; else bad "hard link (exit $rc)" "$out"; fi

# FIFOs as the result or the timeline: refused at once, no reader waited for
mkfifo fifo.json fifo.bin
timeout 20 "$BIN" plot fifo.json --out ff >"$out" 2>&1; rc=$?
if [ "$rc" = 2 ] && grep -q "^interbench plot: fifo.json: is a FIFO" "$out"; then ok "a FIFO as the result: exit 2, no hang"
else bad "FIFO result (exit $rc)" "$out"; fi
timeout 20 "$BIN" plot r.json --timeline fifo.bin --out ff >"$out" 2>&1; rc=$?
if [ "$rc" = 2 ] && grep -q "^interbench plot: --timeline fifo.bin: is a FIFO" "$out"; then ok "a FIFO as --timeline: exit 2, no hang"
else bad "FIFO timeline (exit $rc)" "$out"; fi

# results compare would refuse are refused with the validator's reason
python3 - <<'PY2'
import json
d = json.load(open("r.json"))
def variant(name, change):
    v = json.loads(json.dumps(d)); change(v); json.dump(v, open(name, "w"))
variant("schema99.json", lambda v: v.update(schema_version=99))
variant("negative.json", lambda v: v["results"][0]["latency_histogram"][0].__setitem__(1, -4))
variant("string.json", lambda v: v["results"][0].__setitem__("latency_p99_ns", "181015"))
variant("buffer.json", lambda v: v["results"][0]["task_settings"].__setitem__("buffer_periods", -2))
with open("huge.json", "w") as f:
    f.write(json.dumps(d)[:-1] + " " * (65 << 20) + "}")
PY2
for c in "schema99.json:schema version 99 is not supported" "negative.json:results\[0\].latency_histogram\[0\]: not a \[low_ns, count\] pair" \
	 "string.json:results\[0\].latency_p99_ns: not an integer" \
	 "buffer.json:results\[0\].task_settings: not an object with buffer_periods an integer" "huge.json:larger than 64 MiB: refused"; do
	f=${c%%:*}
	"$BIN" plot "$f" --out inv >"$out" 2>&1; rc=$?
	if [ "$rc" = 2 ] && grep -q "^interbench plot: $f: ${c#*:}" "$out" && [ ! -e inv ]; then ok "$f: exit 2 with the validator's reason"
	else bad "$f (exit $rc)" "$out"; fi
done
rm -f huge.json

# a crafted timeline: 200 records alternating two real pairs, 10 of a pair no result has, a cut
# record: a figure per real pair, the rest reported
python3 - <<'PY2'
import struct
with open("crafted.bin", "wb") as f:
    f.write(struct.pack("<4sIII", b"IBTL", 1, 40, 0))
    for i in range(200):
        f.write(struct.pack("<IIQIIIIII", i % 2, i // 2, i * 1000000, 0, 0, 50000 + i, 0, 1, 0))
    for i in range(10):
        f.write(struct.pack("<IIQIIIIII", 999, i, i * 1000000, 0, 0, 1000, 0, 1, 0))
    f.write(b"\0" * 12)
PY2
"$BIN" plot r.json --timeline crafted.bin --out ct >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && [ "$(ls ct/timeline-*.png | tr '\n' ' ')" = "ct/timeline-0.png ct/timeline-1.png " ] &&
   [ "$(grep -c '^[0-9.]* [0-9.]* 0$' ct/timeline-0.gp)" = 100 ] &&
   grep -q "^interbench plot: --timeline crafted.bin: 10 records of pairs that r.json has no result for" "$out" &&
   grep -q "^interbench plot: --timeline crafted.bin: warning: its last record is cut short (12 of 40 bytes)" "$out"
then ok "a crafted timeline: one figure per real pair, unknown pairs and a cut record reported"
else bad "crafted timeline (exit $rc)" "$out"; ls ct; fi

e2e_end
