#!/usr/bin/env bash
# The tables and histograms a result is written as (report/tabular.h, report/histview.h), read
# back by their consumers (tests/lib/tables.py): the stored results of tests/golden/fixtures/
# exported as CSV (Python's csv module: every pair a row, every figure a column equal to the
# JSON's median, CRLF line ends), as Markdown (a GFM table parser: a header, the delimiter row,
# as many cells in every row, the CSV's cells), as histograms (the rows and the overflow add up
# to each pair's samples, the max the JSON's); a short run with --histogram and the files,
# which equal export's of its JSON byte for byte; the options' bad values refused.
# Usage: tests/e2e_tabular.sh ./interbench
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin tabular "${1:-}"
FIX="$E2E_TREE/tests/golden/fixtures"
check() { python3 "$E2E_TREE/tests/lib/tables.py" "$@"; }
e2e_run_dir

# 1. The stored results (two with two repeats a pair, one with settings) as tables and
# histograms.
for f in a b c; do
	r="$FIX/$f.json"
	if "$BIN" export --format csv "$r" >"$f.csv" 2>"$out" && check csv "$r" "$f.csv" >"$out" 2>&1
	then ok "export --format csv $f.json: $(cat "$out")"; else bad "export --format csv $f.json" "$out"; fi
	if "$BIN" export --format markdown "$r" >"$f.md" 2>"$out" && check markdown "$f.md" "$f.csv" >"$out" 2>&1
	then ok "export --format markdown $f.json: $(cat "$out")"; else bad "export --format markdown $f.json" "$out"; fi
	if "$BIN" export --format histogram "$r" >"$f.txt" 2>"$out" && check histogram "$r" "$f.txt" >"$out" 2>&1
	then ok "export --format histogram $f.json: each column's rows add up to its samples"
	else bad "export --format histogram $f.json" "$out"; fi
	if "$BIN" export --format histogram-csv "$r" >"$f.h.csv" 2>"$out" && check histcsv "$r" "$f.h.csv" >"$out" 2>&1
	then ok "export --format histogram-csv $f.json: $(cat "$out")"; else bad "export --format histogram-csv $f.json" "$out"; fi
done

# 2. Bad input: one line naming the option, exit 2.
"$BIN" export --format csv "$FIX/a.log" >/dev/null 2>"$out"; rc=$?
if [ $rc = 2 ] && grep -q 'a.log: not a JSON result' "$out"; then ok "export --format csv of a logfile: exit 2, said"
else bad "export --format csv of a logfile (exit $rc)" "$out"; fi
"$BIN" export --format markdown --against "$FIX/a.json" "$FIX/b.json" >/dev/null 2>"$out"; rc=$?
if [ $rc = 2 ] && grep -q -- '--against: not with --format markdown' "$out"; then ok "export --format markdown --against: exit 2"
else bad "export --format markdown --against (exit $rc)" "$out"; fi
"$BIN" export --format tsv "$FIX/a.json" >/dev/null 2>"$out"; rc=$?
if [ $rc = 2 ] && grep -q "'tsv' is not a format (accepted: lava, kcidb, metrics, csv, markdown, histogram, histogram-csv)" "$out"
then ok "export --format tsv: exit 2, every format named"; else bad "export --format tsv (exit $rc)" "$out"; fi
for v in 0 abc 1ms2 200s; do
	"$BIN" -c -W Audio -w None --histogram "$v" >/dev/null 2>"$out"; rc=$?
	if [ $rc = 2 ] && [ "$(wc -l <"$out")" = 1 ] && grep -q -- "--histogram.*'$v'.*all, or a time from 1us to 137s" "$out"
	then ok "--histogram $v: one line, exit 2"; else bad "--histogram $v (exit $rc)" "$out"; fi
done

# 3. A run with --histogram and every file: the histogram on the console and in the logfile
# adds up; each file is what export writes from the run's JSON.
e2e_calibrate
"$BIN" -l "$LPMS" -t 1 -q -W Audio -w None,Burn --json j.json --histogram 20us --histogram-csv h.csv \
	--export-csv t.csv --export-markdown t.md >run.txt 2>"$out"; rc=$?
log=$(ls ./*.log 2>/dev/null | head -1)
if [ $rc = 0 ] && check histogram j.json run.txt >"$out" 2>&1 && grep -q '^ *over: ' run.txt && grep -q '^# over: the samples from 2[0-9.]* us up' run.txt
then ok "--histogram 20us: rows and over add up to the samples ($(grep -c '^histogram' "$out") columns)"
else bad "--histogram 20us on the console (exit $rc)" "$out"; fi
if [ -n "$log" ] && check histogram j.json "$log" >"$out" 2>&1; then ok "--histogram: in the logfile too"
else bad "--histogram in the logfile ($log)" "$out"; fi
for f in csv:t.csv markdown:t.md histogram-csv:h.csv; do
	"$BIN" export --format "${f%%:*}" j.json >exported 2>"$out"
	if cmp -s exported "${f#*:}"; then ok "--${f%%:*} file: export --format ${f%%:*} of the run's JSON, byte for byte"
	else diff exported "${f#*:}" >"$out" 2>&1; bad "the run's ${f#*:} differs from export's" "$out"; fi
done
if check csv j.json t.csv >"$out" 2>&1 && check histcsv j.json h.csv >>"$out" 2>&1
then ok "--export-csv and --histogram-csv read back: $(tr '\n' ';' <"$out")"; else bad "the run's files read back" "$out"; fi

# 4. A symbolic link planted at --export-csv: refused before anything is measured.
echo precious >victim; ln -s victim link.csv
"$BIN" -l "$LPMS" -t 1 -c -q -W Audio -w None --export-csv link.csv >/dev/null 2>"$out"; rc=$?
if [ $rc = 2 ] && [ "$(cat victim)" = precious ] && grep -q -- '--export-csv: .*link' "$out"
then ok "a symbolic link at --export-csv: exit 2, not written through"; else bad "a link at --export-csv (exit $rc)" "$out"; fi
e2e_end
