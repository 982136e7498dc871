# Sourced by the end-to-end scripts (tests/e2e_*.sh): the harness they share.
#   e2e_begin NAME [BINARY]  sets up, after which:
#     SRC  the binary under test (BINARY, ./interbench when not given) as an absolute path;
#     TMP  a fresh directory, /tmp/ib-e2e-NAME.XXXXXX (not "interbench-...", the names of the
#          program's scratch files), mode 755 so that a check run as another user can enter
#          it, removed on exit;
#     BIN  a private copy of SRC in TMP, so that a process named by its path is this script's;
#     XDG_CACHE_HOME  TMP/cache (not created): the calibration goes there, never to ~/.cache;
#     SCHEMA  doc/interbench-result.schema.json of this tree, as an absolute path;
#   e2e_run_dir        makes TMP/cache and TMP/run, enters TMP/run, and sets out=TMP/out.txt;
#   e2e_calibrate      one short run (-t 1 -c -W Audio -w None) that saves the calibration in
#                      XDG_CACHE_HOME, then LPMS: the loops_per_ms it saved.  A case whose
#                      claim is not about the calibration runs with -l "$LPMS": the tasks' work
#                      the same as the calibration sizes it, without the quick check at the
#                      start and the speed check after each pair (interbench.c check_rate: a
#                      value given on purpose is not measured), about half a second each, half
#                      of a 1 s run's time.  The cases about the calibration, its checks and
#                      signals at any moment (tests/e2e_faults.sh) run without it;
#   e2e_saved_lpms     sets LPMS from a calibration an earlier run saved (as e2e_calibrate);
#   wait_for CMD...    runs CMD until it succeeds, in 0.01 s steps (a state that may last well
#                      under a second must not be missed), for 60 s at most; its status;
#   fsize_limited BYTES OUT CMD...  runs CMD with RLIMIT_FSIZE at BYTES (as a full disk would
#                      stop its writes), its stdout and stderr written to OUT by a process
#                      outside the limit (so the limit can only stop CMD's own files, never
#                      cut its messages); CMD's status;
#   wait_within S PID  waits for PID, a child of this shell, for S seconds at most, then
#                      SIGKILLs it (a bound that detects a hang, not a claim of speed); PID's
#                      status, 137 when the bound killed it;
#   ok NAME            counts a check passed and says so: "ok   - NAME";
#   bad NAME [FILE]    counts a check failed and says so: "FAIL - NAME", then FILE's first
#                      E2E_SHOW lines (60 unless set) indented;
#   skip NAME          counts a case not run and says why: "skip - NAME" (NAME gives the
#                      reason).  With E2E_SKIP_FAILS=1 in the environment (CI, where root,
#                      BPF, gnuplot and zsh are all present, sets it) a skip counts as a
#                      failure instead, "FAIL - skipped with E2E_SKIP_FAILS=1: NAME", unless
#                      NAME matches one of the shell patterns of E2E_SKIP_EXPECTED (one a
#                      line): the skips a setting declares it expects, as tests/sanitize.sh
#                      does for the cases a sanitizer cannot run;
#   e2e_sanitized      whether the binary under test is a sanitizer's build: E2E_SANITIZER
#                      names it (tests/sanitize.sh sets it to its kind).  A script may then
#                      run a stated subset of the cases that take one C path again with
#                      another input only the kernel tells apart (each signal of a set that
#                      one handler takes): a sanitizer finds nothing new in them, and the
#                      native run checks them all;
#   e2e_left_out WHAT  says what such a subset leaves out, and why: "note - left out under
#                      E2E_SANITIZER: WHAT" (counted neither passed nor skipped);
#   why_joined FILE    prints FILE with each --explain line the logfile wrapped at 100 columns
#                      joined back ("why:   " begins a continuation: report/logfile.c), so a
#                      check can match a whole "why:" line whatever its values' widths;
#   e2e_at_exit CMD    runs CMD (eval'd) on exit, in the order added, before TMP is removed;
#   e2e_end [PREFIX]   prints "PREFIXP passed, F failed, S skipped", appends "P F S" to
#                      the file E2E_TALLY names when set (tests/run-e2e.sh adds them up), and
#                      exits 0 when no check failed, else 1.
# A script is bash with `set -u`; it may count checks of its own in pass and fail.

pass=0 fail=0 skipped=0
E2E_AT_EXIT=()

ok() { pass=$((pass + 1)); echo "ok   - $1"; }

bad() {
	fail=$((fail + 1))
	echo "FAIL - $1"
	[ -n "${2:-}" ] && sed 's/^/       /' "$2" | head -"${E2E_SHOW:-60}"
	return 0
}

skip() {
	local pat
	if [ "${E2E_SKIP_FAILS:-0}" = 1 ]; then
		while IFS= read -r pat; do
			# shellcheck disable=SC2053  # a pattern, matched as one
			if [ -n "$pat" ] && [[ $1 == $pat ]]; then
				skipped=$((skipped + 1)); echo "skip - $1 (expected: E2E_SKIP_EXPECTED)"; return 0
			fi
		done <<<"${E2E_SKIP_EXPECTED:-}"
		bad "skipped with E2E_SKIP_FAILS=1: $1"
		return 0
	fi
	skipped=$((skipped + 1))
	echo "skip - $1"
}

e2e_sanitized() { [ -n "${E2E_SANITIZER:-}" ]; }

why_joined() {
	awk '/^ +why:   / { sub(/^ +why:   /, " "); line = line $0; next }
	     { if (NR > 1) print line; line = $0 } END { if (NR) print line }' "$1"
}

e2e_left_out() { echo "note - left out under $E2E_SANITIZER: $1"; }

e2e_at_exit() { E2E_AT_EXIT+=("$1"); }

e2e_exit() {
	local cmd
	for cmd in "${E2E_AT_EXIT[@]}"; do eval "$cmd"; done
	[ -n "${TMP:-}" ] && rm -rf "$TMP"
}

E2E_TREE=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

e2e_begin() {
	SCHEMA="$E2E_TREE/doc/interbench-result.schema.json"
	SRC=$(realpath "${2:-./interbench}") || exit 1
	TMP=$(mktemp -d "/tmp/ib-e2e-$1.XXXXXX") || exit 1
	trap e2e_exit EXIT
	chmod 755 "$TMP"
	BIN="$TMP/ib-under-test"
	cp "$SRC" "$BIN" || exit 1
	export XDG_CACHE_HOME="$TMP/cache"
}

e2e_run_dir() {
	mkdir -p "$TMP/cache" "$TMP/run" && cd "$TMP/run" || exit 1
	out="$TMP/out.txt"
}

e2e_calibrate() {
	"$BIN" -t 1 -c -W Audio -w None >/dev/null 2>&1
	e2e_saved_lpms
}

e2e_saved_lpms() {
	LPMS=$(sed -n 's/^loops_per_ms=\([0-9][0-9]*\)$/\1/p' "$XDG_CACHE_HOME/interbench/loops_per_ms" 2>/dev/null)
	[ -n "$LPMS" ] || { echo "FAIL - no loops_per_ms saved in $XDG_CACHE_HOME/interbench (e2e_saved_lpms)"; exit 1; }
}

wait_for() {
	for _ in $(seq 6000); do
		"$@" && return 0
		sleep 0.01
	done
	return 1
}

fsize_limited() {
	local bytes=$1 to=$2
	shift 2
	prlimit --fsize="$bytes" "$@" 2>&1 | cat >"$to"
	return "${PIPESTATUS[0]}"
}

wait_within() {
	local i st
	for ((i = 0; i < $1 * 100; i++)); do
		st=$(cat "/proc/$2/stat" 2>/dev/null) || break
		st=${st##*) }
		[ "${st%% *}" = Z ] && break
		sleep 0.01
	done
	[ "${st%% *}" = Z ] || kill -KILL "$2" 2>/dev/null
	wait "$2"
}

e2e_end() {
	echo "${1:-}$pass passed, $fail failed, $skipped skipped"
	[ -n "${E2E_TALLY:-}" ] && echo "$pass $fail $skipped" >>"$E2E_TALLY"
	[ "$fail" = 0 ] && exit 0
	exit 1
}
