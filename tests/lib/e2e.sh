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
#   wait_for CMD...    runs CMD until it succeeds, in 0.01 s steps (a state that may last well
#                      under a second must not be missed), for 60 s at most; its status;
#   ok NAME            counts a check passed and says so: "ok   - NAME";
#   bad NAME [FILE]    counts a check failed and says so: "FAIL - NAME", then FILE's first
#                      E2E_SHOW lines (60 unless set) indented;
#   e2e_at_exit CMD    runs CMD (eval'd) on exit, in the order added, before TMP is removed;
#   e2e_end [PREFIX] [SUFFIX]  prints "PREFIXP passed, F failedSUFFIX" and exits 0 when no
#                      check failed, else 1.
# A script is bash with `set -u`; it may count checks of its own in pass and fail.

pass=0 fail=0
E2E_AT_EXIT=()

ok() { pass=$((pass + 1)); echo "ok   - $1"; }

bad() {
	fail=$((fail + 1))
	echo "FAIL - $1"
	[ -n "${2:-}" ] && sed 's/^/       /' "$2" | head -"${E2E_SHOW:-60}"
	return 0
}

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

wait_for() {
	for _ in $(seq 6000); do
		"$@" && return 0
		sleep 0.01
	done
	return 1
}

e2e_end() {
	echo "${1:-}$pass passed, $fail failed${2:-}"
	[ "$fail" = 0 ] && exit 0
	exit 1
}
