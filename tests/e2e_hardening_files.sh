#!/usr/bin/env bash
# Hostile surroundings: a symlink or another user's file planted at the logfile or --json path,
# every logfile name locked, a calibration cache another user could have written, a scratch file
# swapped for a symlink mid-run, every terminating signal (and none ignored at start: nohup), a
# file size limit, closed stdout/stderr, a console that takes nothing (a full pipe, a terminal
# stopped with Ctrl-S), two runs in one directory at once, a FIFO at the calibration cache.
# Usage: tests/e2e_hardening_files.sh ./interbench
set -u
. "$(dirname "$0")/lib/e2e.sh"
fixture="$(cd "$(dirname "$0")" && pwd)/golden/fixtures/b.json"
e2e_begin hard "${1:-}"   # BIN: a private copy, so pgrep finds only our processes
e2e_at_exit 'pkill -KILL -f "$BIN" 2>/dev/null'
none_left() { ! pgrep -f "$BIN" >/dev/null; }
cd "$TMP" || exit 1
e2e_calibrate   # LPMS: the cases not about the calibration run with -l "$LPMS" (tests/lib/e2e.sh)
cp "$XDG_CACHE_HOME/interbench/loops_per_ms" "$TMP/calib.good"   # this machine's key
LOG="$(uname -r).log"
echo precious >"$TMP/victim"

SIB="$(uname -r)-2.log"
# 1. A symlink at the logfile path is not followed: the run logs to the next name and says so,
# the link's target untouched; one at --json is refused.
ln -s "$TMP/victim" "$LOG"
"$BIN" -l "$LPMS" -t 1 -W Audio -w None >out 2>&1; rc=$?
if [ $rc = 0 ] && grep -q "logfile: $LOG is a symbolic link; not followed; writing $SIB instead" out &&
   [ "$(cat victim)" = precious ] && grep -q '^None ' "$SIB"; then
	ok "symlink at the logfile: not followed, results in $SIB"; else bad "symlink at the logfile (exit $rc)" out; fi
rm -f "$LOG" "$SIB" ./*.json

# 1b. A logfile another user planted (mode 0666) is not appended to (it could then be extended
# with a forged run that compare reads): the next name, and one line saying why.
echo planted >"$LOG" && chmod 666 "$LOG" && chown 65534:65534 "$LOG"
"$BIN" -l "$LPMS" -t 1 -W Audio -w None >out 2>&1; rc=$?
if [ $rc = 0 ] && grep -q "logfile: $LOG belongs to uid 65534, .*; writing $SIB instead" out &&
   [ "$(cat "$LOG")" = planted ] && grep -q '^None ' "$SIB"; then
	ok "another user's logfile: left alone, results in $SIB"; else bad "planted logfile (exit $rc)" out; fi
chown 0:0 "$LOG"
"$BIN" -l "$LPMS" -t 1 -W Audio -w None >out 2>&1; rc=$?
if [ $rc = 0 ] && grep -q "logfile: $LOG is writable by others (mode 0666); writing $SIB instead" out &&
   [ "$(cat "$LOG")" = planted ]; then
	ok "a logfile others may write: left alone"; else bad "world-writable logfile (exit $rc)" out; fi
rm -f "$(uname -r)"*.log ./*.json

# 1c. Every sibling name held locked by another process: the run is not refused, it logs
# to a new unique name and says so.
python3 - "$(uname -r)" <<'PY' &
import fcntl, os, sys, time
held = []
for k in range(1, 101):
    f = open(sys.argv[1] + (".log" if k == 1 else "-%d.log" % k), "a")
    fcntl.flock(f, fcntl.LOCK_EX)
    held.append(f)
open("locks-held", "w").close()
time.sleep(120)
PY
locker=$!
wait_for test -e locks-held
"$BIN" -l "$LPMS" -t 1 -W Audio -w None >out 2>&1; rc=$?
kill $locker; wait $locker 2>/dev/null
uniq=$(compgen -G "$(uname -r)-[0-9]*-??????.log" | head -1)
if [ $rc = 0 ] && grep -q "logfile: $LOG and its 99 siblings are in use by other runs; writing $uniq instead" out &&
   [ -n "$uniq" ] && grep -q '^None ' "$uniq"; then
	ok "all 100 logfile names locked: the run logged to $uniq"; else bad "logfile lock DoS (exit $rc)" out; fi
rm -f "$(uname -r)"*.log ./*.json locks-held
ln -s "$TMP/victim" j.json
"$BIN" -l "$LPMS" -t 1 -c -W Audio -w None --json j.json >out 2>&1; rc=$?
if [ $rc = 2 ] && grep -q 'j.json is a symbolic link; not followed' out && [ "$(cat victim)" = precious ] &&
   ! grep -q '^None ' out; then ok "symlink at --json: not followed, refused before anything is measured"
else bad "symlink at --json (exit $rc)" out; fi
rm -f j.json

# 2. The scratch file replaced by a symlink while the load runs: nothing is written through
# it and the planted link is left (the load works through its own descriptor).  The swap
# follows the file's creation by milliseconds, inside the Write pair's 1 s.
mkdir -p wd
"$BIN" -l "$LPMS" -t 1 -c -W Audio -w Write --workdir wd --file-size 8M >out 2>&1 &
pid=$!
wait_for compgen -G "wd/interbench-write-*.tmp" >/dev/null
f=$(compgen -G "wd/interbench-write-*.tmp" | head -1)
rm -f "$f" && ln -s "$TMP/victim" "$f"
wait $pid; rc=$?
if [ $rc = 0 ] && [ "$(cat victim)" = precious ] && [ -L "$f" ] && grep -q 'replaced during the run' out; then
	ok "scratch file swapped for a symlink: target untouched, link left with a warning"
else bad "scratch file swapped for a symlink (exit $rc)" out; fi
rm -f wd/*

# 3. Every terminating signal: an orderly stop, exit 128+signal, results kept, nothing left.
# (A background job of a script starts with SIGINT and SIGQUIT ignored: env gives them back.)
# One handler takes them all (host/child.c stop_signals_catch) and names a signal one of two
# ways (report/json_report.c report_mark_interrupted: its abbreviation, or SIGRTMIN+n): under
# a sanitizer, one of each and the realtime range's last take every path of that code.
sigs="QUIT USR1 USR2 ALRM XCPU VTALRM PROF IO PWR RTMIN RTMAX"
if e2e_sanitized; then
	e2e_left_out "SIGUSR1 USR2 ALRM XCPU VTALRM PROF IO PWR: the handler's path of SIGQUIT again"
	sigs="QUIT RTMIN RTMAX"
fi
for sig in $sigs; do
	rm -f "$LOG" ./*.json
	env --default-signal=INT,QUIT "$BIN" -l "$LPMS" -t 1 -W Audio -w Write -w Burn --workdir wd --file-size 8M >out 2>&1 &
	pid=$!
	wait_for compgen -G "wd/interbench-write-*.tmp" >/dev/null
	kill -s "$sig" $pid; wait $pid; rc=$?
	num=$(kill -l "$sig" 2>/dev/null || echo 0)
	[ "$sig" = RTMIN ] && num=$(kill -l SIGRTMIN); [ "$sig" = RTMAX ] && num=$(kill -l SIGRTMAX)
	if [ $rc = $((128 + num)) ] && [ -z "$(ls -A wd)" ] && grep -q '^Burn ' "$LOG" &&
	   python3 -c 'import json,glob,sys; d=json.load(open(glob.glob("*.json")[0])); sys.exit(0 if d["run"].get("interrupted_by") else 1)'
	then ok "SIG$sig: exit $rc, Burn's row and the JSON kept, no scratch file"
	else bad "SIG$sig: exit $rc (want $((128 + num)))" out; fi
	if ! wait_for none_left; then bad "SIG$sig: processes left"; fi
done

# 3b. A stop signal ignored at start stays ignored: under nohup a hangup (and, in a background
# job, an interrupt) does not stop the run, which ends with every row.  The signals follow the
# Write file's creation by milliseconds: they land in the Write pair's 1 s.
rm -f "$LOG" ./*.json
nohup "$BIN" -l "$LPMS" -t 1 -W Audio -w Write -w Burn --workdir wd --file-size 8M >out 2>&1 &
pid=$!
wait_for compgen -G "wd/interbench-write-*.tmp" >/dev/null
kill -HUP $pid; kill -INT $pid; wait $pid; rc=$?
if [ $rc = 0 ] && grep -q '^Write ' "$LOG" && grep -q '^Burn ' "$LOG" && ! grep -qi 'interrupted' "$LOG" out &&
   [ -z "$(ls -A wd)" ]
then ok "nohup: SIGHUP and SIGINT ignored at start stay ignored, the run ends with every row (exit 0)"
else bad "nohup: SIGHUP stopped the run (exit $rc, want 0)" out; fi
wait_for none_left || bad "nohup: processes left"

# 4. A file size limit: the Write pair fails as on a full disk, the run goes on.
rm -f "$LOG" ./*.json
fsize_limited $((4 << 20)) out "$BIN" -l "$LPMS" -t 1 -c -W Audio -w Write -w None --workdir wd --file-size 8M; rc=$?
if [ $rc = 4 ] && grep -q '^Write .*failed: .*File too large' out && grep -q '^None ' out && [ -z "$(ls -A wd)" ]
then ok "ulimit -f: Write failed with EFBIG, None measured, no scratch file (exit 4)"; else bad "ulimit -f (exit $rc)" out; fi

# 5. Closed stdout or stderr: the logfile gets each line once.
for how in '>&-' '2>&-'; do
	rm -f "$LOG"
	eval "\"\$BIN\" -l \"\$LPMS\" -t 1 -W Audio -w None $how" >/dev/null 2>&1
	if [ "$(grep -c '^None ' "$LOG")" = 1 ] && [ "$(grep -c '^Benchmarking kernel' "$LOG")" = 1 ]
	then ok "started with $how: each line once in the logfile"; else bad "started with $how" "$LOG"; fi
done

# 5a. Closed stdout for what prints its answer there (a subcommand, --version): exit non-zero
# naming the write, never a silent 0 with the answer lost.
for cmd in "export --format metrics $fixture" "completion bash" "--version"; do
	# shellcheck disable=SC2086
	"$BIN" $cmd >&- 2>err; rc=$?
	if [ "$rc" != 0 ] && grep -q 'Bad file descriptor' err
	then ok "interbench $cmd >&-: exit $rc, $(head -c 80 err)"; else bad "interbench $cmd >&- (exit $rc)" err; fi
done

# 5b. A console that takes nothing (a full pipe whose reader sleeps, as a terminal stopped with
# Ctrl-S): the run goes on, the logfile gets every row while the reader still sleeps, and once
# it reads, the pipe carries every console line once, in order, after what was already in it.
rm -f "$LOG"
if LPMS=$LPMS python3 - "$BIN" "$LOG" >out 2>&1 <<'PY'
import os, subprocess, sys, time
binary, log = sys.argv[1], sys.argv[2]
r, w = os.pipe()
os.set_blocking(w, False)
filled = 0
try:
    while True:
        filled += os.write(w, b"\0" * 4096)
except BlockingIOError:
    pass
os.set_blocking(w, True)
p = subprocess.Popen([binary, "-l", os.environ["LPMS"], "-t", "1", "-W", "Audio", "-w", "None", "-w", "Burn"], stdout=w)
os.close(w)
for _ in range(600):   # bounded: 60 s, against a run of about 3 s
    if os.path.exists(log) and any(l.startswith("Burn ") for l in open(log, errors="replace")):
        break
    time.sleep(0.1)
else:
    p.kill()
    sys.exit("the logfile never got the Burn row while the console was full")
data = b""
while chunk := os.read(r, 65536):
    data += chunk
assert p.wait() == 0, p.returncode
assert data[:filled] == b"\0" * filled
lines = [l for l in data[filled:].decode().splitlines() if l.startswith(("Using ", "None ", "Burn "))]
assert [l.split()[0] for l in lines] == ["Using", "None", "Burn"], lines
PY
then ok "a console pipe nobody reads: every row in the logfile meanwhile, then each console line once, in order"
else bad "a console pipe nobody reads stalled the run" out; fi

# 5c. The same on a terminal stopped with Ctrl-S (a pseudo-terminal with IXON, its default).
rm -f "$LOG"
if LPMS=$LPMS python3 - "$BIN" "$LOG" >out 2>&1 <<'PY'
import os, pty, sys, time
binary, log = sys.argv[1], sys.argv[2]
pid, master = pty.fork()
if pid == 0:
    os.execv(binary, [binary, "-l", os.environ["LPMS"], "-q", "-t", "1", "-W", "Audio", "-w", "None", "-w", "Burn"])
os.write(master, b"\x13")   # Ctrl-S: the terminal stops its output
for _ in range(600):         # bounded: 60 s, against a run of about 3 s
    if os.path.exists(log) and any(l.startswith("Burn ") for l in open(log, errors="replace")):
        break
    time.sleep(0.1)
else:
    os.kill(pid, 9)
    sys.exit("the logfile never got the Burn row while the terminal was stopped")
os.write(master, b"\x11")   # Ctrl-Q
data = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:          # EIO once the program has exited
        break
    if not chunk:
        break
    data += chunk
_, status = os.waitpid(pid, 0)
assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
lines = [l for l in data.decode(errors="replace").splitlines() if l.startswith(("Using ", "None ", "Burn "))]
assert [l.split()[0] for l in lines] == ["Using", "None", "Burn"], lines
PY
then ok "a terminal stopped with Ctrl-S: every row in the logfile meanwhile, then each line once, in order"
else bad "a terminal stopped with Ctrl-S stalled the run" out; fi

# 5d. A console pipe whose reader never reads, to the end: the run finishes, waits for the
# reader only while it takes something (report/conout.h, CONOUT_STALL_MS: 5 s), then drops the
# rest with a note on stderr and exits with the run's status, its logfile and JSON complete.
# With "sigterm", a SIGTERM sent once the JSON is written ends the wait at once (the note says
# why), the finished run not marked interrupted.  Each is bounded: 60 s, against about 8 s.
for how in wait sigterm; do
	rm -f "$LOG" r.json
	if LPMS=$LPMS python3 - "$BIN" "$LOG" "$how" >out 2>&1 <<'PY'
import json, os, signal, subprocess, sys, time
binary, log, how = sys.argv[1:]
r, w = os.pipe()
os.set_blocking(w, False)
try:
    while True:
        os.write(w, b"\0" * 4096)
except BlockingIOError:
    pass
os.set_blocking(w, True)
p = subprocess.Popen([binary, "-l", os.environ["LPMS"], "-q", "-t", "1", "-W", "Audio", "-w", "None", "--json", "r.json"],
                     stdout=w, stderr=subprocess.PIPE)
os.close(w)
def complete():
    try:
        return json.load(open("r.json"))
    except (OSError, ValueError):
        return None
if how == "sigterm":
    for _ in range(600):
        if complete():
            break
        time.sleep(0.1)
    p.send_signal(signal.SIGTERM)
try:
    err = p.communicate(timeout=60)[1].decode()
except subprocess.TimeoutExpired:
    p.kill()
    p.wait()
    sys.exit("still waiting for the console reader after 60 s")
print(err)
assert p.returncode == 0, p.returncode
why = "a stop signal arrived" if how == "sigterm" else "the reader took none of it for 5 s"
assert "interbench: console: " in err and "bytes dropped: " + why in err, err
doc = complete()
assert doc and "interrupted_by" not in doc["run"] and doc["results"], doc
assert any(l.startswith("None ") for l in open(log)), "no None row in " + log
PY
	then ok "a console pipe never read ($how): exit 0, the rest dropped with a note, logfile and JSON whole"
	else bad "a console pipe never read ($how)" out; fi
done

# 6. Two runs at once in one directory: each gets a logfile of its own, never interleaved.
rm -f "$(uname -r)"*.log ./*.json
"$BIN" -l "$LPMS" -t 2 -W Audio -w None -w Burn -m first >out1 2>&1 &
p1=$!
wait_for test -s "$LOG"
"$BIN" -l "$LPMS" -t 1 -W Audio -w None -m second >out2 2>&1; rc2=$?
wait $p1; rc1=$?
second="$(uname -r)-2.log"
if [ $rc1 = 0 ] && [ $rc2 = 0 ] && grep -q 'Comment: first' "$LOG" && ! grep -q 'Comment: second' "$LOG" &&
   grep -q 'Comment: second' "$second" && [ "$(grep -c '^Benchmarking kernel' "$LOG")" = 1 ]
then ok "concurrent runs: the second logged to $second, the first's log whole"
else bad "concurrent runs ($rc1/$rc2)" out2; fi

# 7. A FIFO at the calibration cache: no hang, a reason, measured again.
rm -f "$XDG_CACHE_HOME/interbench/loops_per_ms" && mkfifo "$XDG_CACHE_HOME/interbench/loops_per_ms"
timeout 60 "$BIN" -t 1 -c -W Audio -w None >out 2>&1; rc=$?
if [ $rc = 0 ] && grep -q 'saved value: not a regular file' out && grep -q 'loops per ms (measured)' out
then ok "FIFO at the calibration cache: reason given, measured again"; else bad "FIFO cache (exit $rc)" out; fi

# 9. A calibration cache another user could have written (root's XDG_CACHE_HOME kept by sudo -E
# pointing into a user's home): measured again with the reason, the planted file left alone.
mkdir -p "$TMP/userhome/.cache/interbench"
sed 's/^loops_per_ms=.*/loops_per_ms=1000/' "$TMP/calib.good" >"$TMP/userhome/.cache/interbench/loops_per_ms"
chown -R 65534:65534 "$TMP/userhome"
planted=$(md5sum <"$TMP/userhome/.cache/interbench/loops_per_ms")
XDG_CACHE_HOME= HOME="$TMP/userhome" timeout 60 "$BIN" -t 1 -c -W Audio -w None >out 2>&1; rc=$?
if [ $rc = 0 ] && grep -q "saved value: $TMP/userhome belongs to uid 65534.*; not trusted" out &&
   grep -q 'loops per ms (measured)' out && grep -q "loops_per_ms not saved: $TMP/userhome belongs to uid 65534" out &&
   [ "$(md5sum <"$TMP/userhome/.cache/interbench/loops_per_ms")" = "$planted" ] &&
   [ -z "$(find "$TMP/userhome" -user 0)" ]
then ok "another user's calibration cache: not trusted, measured again, nothing written there"
else bad "untrusted calibration cache (exit $rc)" out; fi
# A symbolic link among the cache's directories: not followed, for reading or for saving.
mkdir -p "$TMP/elsewhere/interbench" && cp "$TMP/userhome/.cache/interbench/loops_per_ms" "$TMP/elsewhere/interbench/"
chown -R 0:0 "$TMP/elsewhere" && ln -s "$TMP/elsewhere" "$TMP/linkcache"
XDG_CACHE_HOME="$TMP/linkcache" timeout 60 "$BIN" -t 1 -c -W Audio -w None >out 2>&1; rc=$?
if [ $rc = 0 ] && grep -q "saved value: $TMP/linkcache is a symbolic link; not followed" out &&
   grep -q 'loops per ms (measured)' out && grep -q '^loops_per_ms=1000$' "$TMP/elsewhere/interbench/loops_per_ms"
then ok "a symbolic link on the cache's path: not followed, measured again, not saved through"
else bad "symlinked cache directory (exit $rc)" out; fi

# 8. A comment cannot forge log structure (the log still compares: one sub-run a side,
# undecided, exit 3); compare prints hostile names escaped.
rm -f "$(uname -r)"*.log ./*.json
"$BIN" -l "$LPMS" -t 1 -W Audio -w None -m $'x\n--- Benchmarking simulated cpu of Fake in the presence of simulated ---' >/dev/null 2>&1
"$BIN" compare "$LOG" "$LOG" >out 2>&1; rc=$?
if [ $rc = 3 ] && grep -q '^Comment: x\\n--- Benchmarking' "$LOG" && ! grep -q '^--- Benchmarking simulated cpu of Fake' "$LOG" &&
   ! grep -q Fake out; then ok "a newline in -m is escaped: no forged table, the log still compares"
else bad "comment forging (compare exit $rc)" out; fi
python3 - "$(ls ./*.json | head -1)" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["results"][0]["load"] = "\x1b[31mRed\nLine"
json.dump(d, open("hostile.json", "w"))
PY
"$BIN" compare hostile.json hostile.json >out 2>&1
if ! grep -q $'\x1b' out && grep -q 'Red\\nLine' out; then ok "compare escapes control characters in names"
else bad "compare printed a raw control character" out; fi

e2e_end
