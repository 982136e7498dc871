#!/usr/bin/env bash
# The front door as a cyclictest, rtla or fio user meets it: -h in sections, the common options
# first, one to two screens, every line within 80 columns, as are --help-all and the
# subcommands' --help; "did you mean" for a misspelt option, workload and subcommand (one
# line, exit 2); times with units (-t 2s); the closing line naming the files a run wrote
# (none with -q); exit 4 when a pair failed and another was measured; the non-root hint naming
# the binary that runs.  Usage: tests/e2e_frontdoor.sh ./interbench
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin frontdoor "${1:-}"
e2e_run_dir

# width FILE: its widest line, in characters
width() { awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }' "$1"; }

"$BIN" -h >h.txt 2>&1; rc=$?
sections=$(grep -E '^[A-Z][A-Za-z ]+:$' h.txt | tr '\n' '|')
if [ "$rc" = 0 ] && [ "$(width h.txt)" -le 80 ] && [ "$(wc -l <h.txt)" -le 100 ] &&
   [ "$sections" = "What to run:|How long:|Output:|Scheduling:|Placement:|Why periods were late:|Expert:|Information:|" ] &&
   [ "$(grep -n -- '--sim NAME' h.txt | cut -d: -f1)" -lt "$(grep -n -- '--loops-per-ms' h.txt | cut -d: -f1)" ] &&
   ! grep -q -- '--refresh' h.txt
then ok "-h: $(wc -l <h.txt) lines at most $(width h.txt) columns, sections $sections the workloads' options left to --help-all"
else bad "-h (exit $rc, $(wc -l <h.txt) lines, $(width h.txt) columns, sections $sections)" h.txt; fi

"$BIN" --help-all >all.txt 2>&1; rc=$?
if [ "$rc" = 0 ] && [ "$(width all.txt)" -le 80 ] && grep -q '^Options of the simulated tasks and loads:$' all.txt &&
   grep -q -- '^      --refresh HZ ' all.txt && grep -q '^  Burn     ' all.txt && grep -q 'a bare number is seconds' all.txt
then ok "--help-all: $(wc -l <all.txt) lines at most $(width all.txt) columns, every option in full, the workloads' too"
else bad "--help-all (exit $rc, $(width all.txt) columns)" all.txt; fi

wide=""
for sub in compare export plot; do
	"$BIN" "$sub" --help >sub.txt 2>&1
	[ "$(width sub.txt)" -le 80 ] || wide="$wide $sub:$(width sub.txt)"
done
if [ -z "$wide" ]; then ok "compare, export and plot --help within 80 columns"; else bad "subcommands' --help over 80 columns:$wide"; fi

# refused ARGS -- WANT: exit 2 and the one line WANT
refused() {
	local args=() want
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	want=$2
	"$BIN" "${args[@]}" >r.txt 2>&1; rc=$?
	if [ "$rc" = 2 ] && [ "$(wc -l <r.txt)" = 1 ] && grep -qxF -- "$want" r.txt; then ok "${args[*]}: exit 2, '$want'"
	else bad "${args[*]}: exit $rc, want '$want'" r.txt; fi
}
refused --bugdet 5 -- "interbench: --bugdet: unknown option (did you mean --budget? see -h for the accepted ones)"
refused -W Audoi -- "interbench: -W: unknown simulation 'Audoi' (did you mean Audio? accepted: Audio, Video, X, Gaming, ProAudio, Pipeline, Custom, File)"
refused -w burn,hakc -t 1 -- "interbench: -w: unknown load 'burn,hakc' (did you mean Hack? accepted: None, Video, X, Pipeline, Burn, Write, Read, Compile, Memload, Hack, Ring, Copy, Proc, Custom, File)"
refused compare --treshold 5 a b -- "interbench compare: --treshold: unknown option (did you mean --threshold? see --help)"
refused compair a b -- "interbench: compair: unknown subcommand (did you mean compare? see -h for the accepted ones)"
refused -t 1.5s -- "interbench: -t: not a whole number of seconds '1.5s' (accepted: a time from 1s to 1d in whole seconds, with a unit ns, us, ms, s, m, h or d (no unit: seconds))"
refused -t 25h -- "interbench: -t: time out of range '25h' (accepted: a time from 1s to 1d in whole seconds, with a unit ns, us, ms, s, m, h or d (no unit: seconds))"

e2e_calibrate

# -t 2s: a 2 s window; the closing line names the logfile and the JSON, absolute, and they are there.
"$BIN" -l "$LPMS" -t 2s -W Audio -w None >out.txt 2>err.txt; rc=$?
line=$(grep '^interbench: wrote ' err.txt)
log=$(sed -n 's/^interbench: wrote \(.*\) (logfile), .*/\1/p' err.txt)
json=$(sed -n 's/^interbench: wrote .* (logfile), \(.*\) (JSON)$/\1/p' err.txt)
if [ "$rc" = 0 ] && [ "$(grep -c '^interbench: wrote ' err.txt)" = 1 ] && [ "${log:0:1}" = / ] && [ -f "$log" ] &&
   [ "$(dirname "$log")" = "$PWD" ] && [ -f "$json" ] &&
   python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["options"]["duration_s"] == 2, d["options"]' "$json" &&
   grep -q '^None ' out.txt
then ok "-t 2s: a 2 s window (duration_s 2); '$line'"
else bad "-t 2s and the closing line (exit $rc)" err.txt; fi
rm -f ./*.log ./*.json

"$BIN" -l "$LPMS" -t 1 -q -W Audio -w None --json q.json >out.txt 2>err.txt; rc=$?
if [ "$rc" = 0 ] && [ -f q.json ] && ! grep -q 'wrote' err.txt; then ok "-q: no closing line"
else bad "-q: a closing line (exit $rc)" err.txt; fi
"$BIN" -l "$LPMS" -t 1 -c -W Audio -w None --json c.json >out.txt 2>err.txt; rc=$?
if [ "$rc" = 0 ] && grep -qx "interbench: wrote $PWD/c.json (JSON)" err.txt; then ok "-c --json c.json: 'interbench: wrote $PWD/c.json (JSON)'"
else bad "-c --json: the closing line (exit $rc)" err.txt; fi
rm -f ./*.log ./*.json

# A pair that fails (Write under a 4 MiB file size limit, as on a full disk) beside one measured: exit 4.
mkdir -p wd
fsize_limited $((4 << 20)) out.txt "$BIN" -l "$LPMS" -t 1 -c -W Audio -w Write -w None --workdir wd --file-size 8M; rc=$?
if [ "$rc" = 4 ] && grep -q '^Write .*failed: ' out.txt && grep -q '^None .*+/-' out.txt &&
   grep -qx 'interbench: 1 run of a pair failed (the reasons are in the table; exit 4)' out.txt && [ -z "$(ls -A wd)" ]
then ok "a failed pair beside a measured one: exit 4, the failed runs counted"
else bad "a failed pair: exit $rc, want 4" out.txt; fi

# Without privileges the hint names the binary that runs, not ./interbench.
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	mkdir -p "$TMP/user" && chmod 777 "$TMP/user"
	(cd "$TMP/user" && XDG_CACHE_HOME="$TMP/user" setpriv --reuid 65534 --regid 65534 --clear-groups --inh-caps=-all \
		--bounding-set=-all "$BIN" -r -t 1 -c) >r.txt 2>&1; rc=$?
	if [ "$rc" = 2 ] && grep -qF "setcap cap_sys_nice,cap_ipc_lock+ep $BIN" r.txt && ! grep -q '\./interbench' r.txt
	then ok "unprivileged -r: the setcap hint names $BIN"
	else bad "unprivileged -r: the hint (exit $rc)" r.txt; fi
else skip "the non-root hint needs root and setpriv (to drop to nobody)"; fi
e2e_end
