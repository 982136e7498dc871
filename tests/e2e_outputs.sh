#!/usr/bin/env bash
# The run's own output files as an adversary and a full disk see them: --json and --timeline
# replaced only once complete (a write failure leaves the old file whole), never written through
# a hard link, a symbolic link, a FIFO or another user's file (refused before anything is
# measured), created 0644 whatever the umask, a pipe handed as /dev/fd/N written as it is;
# hostile text (-m, --workdir) never reaches the terminal or the logfile as it is.
# Usage: tests/e2e_outputs.sh ./interbench
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin out "${1:-}"
# The runs after the first take the calibration it saved (-l: tests/lib/e2e.sh e2e_calibrate).
run() { "$BIN" ${LPMS:+-l "$LPMS"} -t 1 -c -q -W Audio -w None "$@"; }
temps_left() { compgen -G "$TMP/.*.??????" >/dev/null; }
cd "$TMP" || exit 1
run --json first.json >/dev/null 2>&1 || bad "the first run"
e2e_saved_lpms
echo precious >victim

# 1. A write that fails (here RLIMIT_FSIZE of 1 KiB, as a full disk would) keeps the old result
# whole.
cp first.json j.json
fsize_limited 1024 out "$BIN" -l "$LPMS" -t 1 -c -q -W Audio -w None --json j.json; rc=$?
if [ $rc = 1 ] && grep -q 'write j.json: File too large' out && cmp -s j.json first.json && ! temps_left
then ok "--json on a full disk: exit 1, the old result whole, no temporary file"
else bad "--json on a full disk (exit $rc)" out; fi

# 2. umask 000: still 0644.
rm -f j.json
(umask 000; run --json j.json >out 2>&1)
if [ "$(stat -c %a j.json 2>/dev/null)" = 644 ]; then ok "--json under umask 000: mode 644"
else bad "--json under umask 000: mode $(stat -c %a j.json 2>/dev/null)" out; fi

# 3. Hard links planted at --json and --timeline: the name replaced, the other name untouched.
rm -f j.json; ln victim j.json; ln victim tl.bin
run --json j.json --timeline tl.bin >out 2>&1; rc=$?
if [ $rc = 0 ] && [ "$(cat victim)" = precious ] && [ "$(stat -c %h victim)" = 1 ] &&
   python3 -c 'import json; json.load(open("j.json"))' && ! cmp -s tl.bin victim
then ok "hard links at --json and --timeline: replaced, never written through"
else bad "hard links at --json/--timeline (exit $rc)" out; fi

# 4. A FIFO at --timeline, or at --json with no reader: refused at once, no hang.
rm -f tl.bin j.json; mkfifo tl.bin j.json
timeout 60 "$BIN" -l "$LPMS" -t 1 -c -q -W Audio -w None --timeline tl.bin >out 2>&1; rc=$?
if [ $rc = 2 ] && grep -q 'tl.bin is not a regular file; not replaced' out
then ok "FIFO at --timeline: exit 2 at once"; else bad "FIFO at --timeline (exit $rc)" out; fi
timeout 60 "$BIN" -l "$LPMS" -t 1 -c -q -W Audio -w None --json j.json >out 2>&1; rc=$?
if [ $rc = 2 ] && grep -q 'a FIFO with no reader' out && ! grep -q '^None ' out
then ok "FIFO with no reader at --json: refused before anything is measured, no hang"
else bad "FIFO at --json (exit $rc)" out; fi
"$BIN" -l "$LPMS" -t 1 -c -q -W Audio -w None --json >(python3 -c 'import json, sys; json.load(sys.stdin)' && touch piped.ok) \
	>out 2>&1; rc=$?
for _ in $(seq 100); do [ -e piped.ok ] && break; sleep 0.1; done
if [ $rc = 0 ] && [ -e piped.ok ]; then ok "--json >(reader): the handed pipe gets the document"
else bad "--json to a handed pipe (exit $rc)" out; fi
rm -f tl.bin j.json

# 5. Another user's file at --timeline or --json is neither followed nor replaced.
if [ "$(id -u)" = 0 ]; then
	echo theirs >tl.bin; echo theirs >j.json; chown 65534:65534 tl.bin j.json
	run --timeline tl.bin >out 2>&1; rc1=$?
	run --json j.json >out2 2>&1; rc2=$?
	if [ $rc1 = 2 ] && [ $rc2 = 2 ] && grep -q 'belongs to uid 65534' out && grep -q 'belongs to uid 65534' out2 &&
	   [ "$(cat tl.bin j.json)" = "$(printf 'theirs\ntheirs')" ]
	then ok "another user's file at --timeline and --json: refused, untouched"
	else bad "another user's file ($rc1/$rc2)" out; cat out2; fi
	rm -f tl.bin j.json
else skip "another user's file (needs root for chown)"; fi

# 6. Hostile text: a comment and a work directory with a terminal escape, a C1 CSI and a
# right-to-left override reach neither the terminal nor the logfile as they are.
W=$'w\e[31m\xc2\x9b2J\xe2\x80\xaeX'
mkdir -p "$W"
"$BIN" -l "$LPMS" -t 1 -q -W Audio -w None -w Write --file-size 4M --workdir "$W" -m $'c\xc2\x9b2J\xe2\x80\xae' >out 2>&1
"$BIN" -l "$LPMS" -t 1 -q -W Audio -w Write --workdir "$W/missing" >>out 2>&1
"$BIN" -l "$LPMS" -t 1 -q -W Audio -w None --json "$W/missing/j.json" >>out 2>&1
if ! LC_ALL=C grep -qaP '\x1b|\xc2\x9b|\xe2\x80\xae' out ./*.log && grep -q 'xc2\\x9b2J' out
then ok "escapes, C1 controls and bidirectional overrides from -m and --workdir are escaped"
else bad "raw control text reached the terminal or the logfile" out; fi

e2e_end
