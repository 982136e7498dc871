# shellcheck shell=bash
# Sourced (not run) by the bench/ scripts: strict mode, the root check, a scratch directory
# removed on exit, and how each measured command is run and shown.  Each script prints one
# Markdown section on stdout; progress goes to stderr.
set -euo pipefail
bench_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bench_cmds=()

# bench_lib ARGS...: the Python helpers (bench/benchlib.py; standard library only).
bench_lib() { python3 "$bench_dir/benchlib.py" "$@"; }

# bench_setup NAME BIN: needs root; bin = BIN's absolute path; tmp = a scratch directory,
# removed on exit (also on INT, TERM, HUP), and the current directory from here on, so every
# file a run writes (JSON, disk loads' scratch files) lands there.  The calibration cache is
# $BENCH_CACHE (bench/run.sh shares one) or one in tmp.  BENCH_KEEP=DIR (an existing
# directory) keeps the runs' JSON results there when the script ends.
bench_keep() {
	[ -n "${BENCH_KEEP:-}" ] || return 0
	find "$tmp" -maxdepth 1 -type f -name '*.json' -exec cp -t "$BENCH_KEEP" {} +
}

bench_setup() {
	local name=$1
	if [ "$(id -u)" != 0 ]; then
		echo "$name: needs root (SCHED_FIFO for the timing thread and -r, --dma-latency, the /proc files of the runs): run it as root" >&2
		exit 2
	fi
	if [ ! -x "$2" ] || [ -d "$2" ]; then
		echo "$name: $2: not an interbench binary (build it with make)" >&2
		exit 2
	fi
	if ! command -v python3 >/dev/null; then
		echo "$name: python3: not installed (make deps installs it with the suite's other tools)" >&2
		exit 2
	fi
	bin=$(realpath "$2")
	tmp=$(mktemp -d /tmp/interbench-bench.XXXXXX)
	trap 'cd /; bench_keep; rm -rf "$tmp"' EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
	export XDG_CACHE_HOME=${BENCH_CACHE:-$tmp/cache}
	mkdir -p "$XDG_CACHE_HOME"
	cd "$tmp"
}

# bench_note TEXT: a progress line on stderr.
bench_note() { echo "bench: $*" >&2; }

# bench_show CMD...: records CMD for the section's command list, the binaries named
# interbench and interbench-0.31.
bench_show() {
	local shown=() a
	for a in "$@"; do
		case $a in
		("$bin") shown+=(interbench) ;;
		("${ib031:-/nonexistent}") shown+=(interbench-0.31) ;;
		(*) shown+=("$a") ;;
		esac
	done
	bench_cmds+=("${shown[*]}")
}

# bench_run [--sample FILE] LINES CMD...: runs CMD in the current directory with each output line
# timestamped into LINES (benchlib run; --sample also samples its process tree); a failure
# stops the script with CMD's last lines on stderr.
bench_run() {
	local sample=()
	if [ "$1" = --sample ]; then sample=(--sample "$2"); shift 2; fi
	bench_show "${@:2}"
	bench_exec "${sample[@]}" "$@"
}

# timed LINES CMD...: bench_run, and the wall seconds it took in $wall.
timed() {
	local t0
	t0=$(date +%s.%N)
	bench_run "$@"
	# shellcheck disable=SC2034 # wall is the caller's
	wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')
}

# bench_exec [--sample FILE] LINES CMD...: bench_run without recording CMD.
bench_exec() {
	local sample=()
	if [ "$1" = --sample ]; then sample=(--sample "$2"); shift 2; fi
	local lines=$1
	shift
	bench_note "$(date +%T) ${bench_cmds[-1]}"
	if ! bench_lib run "${sample[@]}" "$lines" -- "$@"; then
		echo "bench: failed: ${bench_cmds[-1]}" >&2
		cut -f2- "$lines" | tail -20 >&2
		exit 1
	fi
}

# bench_commands: the section's commands as a Markdown code block.
bench_commands() {
	echo
	echo "Commands (in this order; interbench runs in a scratch directory with -c, so no logfile):"
	echo
	echo '```sh'
	printf '%s\n' "${bench_cmds[@]}"
	echo '```'
}

# bench_ib031 : sets ib031 (interbench 0.31's binary, from $IB031 as bench/run.sh sets it) and
# ib031_dir (its directory: it keeps interbench.loops_per_ms and its Read file there), or
# returns 1 with ib031 empty.
bench_ib031() {
	ib031='' ib031_dir=''
	if [ -n "${IB031:-}" ] && [ -x "$IB031" ]; then
		ib031=$(realpath "$IB031")
		ib031_dir=$(dirname "$ib031")
		return 0
	fi
	return 1
}

# bench_run031 LINES ARGS...: runs interbench 0.31 with ARGS in its own directory, as bench_run.
bench_run031() {
	local lines
	lines=$(realpath "$1")
	shift
	bench_show "$ib031" "$@"
	(cd "$ib031_dir" && bench_exec "$lines" "$ib031" "$@")
}

# bench_ab NAME "OLD ARGS" "NEW ARGS" [COMPARE OPTIONS]: runs bin with the caller's common
# arguments (the array common) and OLD ARGS into NAME-old.json, then NEW ARGS into NAME-new.json,
# then `interbench compare` of the two into NAME.cmp and NAME.cmp.json; its exit status in
# ab_rc (0 decided, no regression; 1 a regression; 3 undecided: tools/compare.h), the argument
# words in ab_old and ab_new.  A compare that fails (exit 2) stops the script.
bench_ab() {
	local name=$1 cmpopt
	read -ra cmpopt <<<"${4:-}"
	read -ra ab_old <<<"$2"
	read -ra ab_new <<<"$3"
	# shellcheck disable=SC2154 # common is the caller's
	bench_run "$name-old.lines" "$bin" "${common[@]}" "${ab_old[@]}" --json "$name-old.json"
	bench_run "$name-new.lines" "$bin" "${common[@]}" "${ab_new[@]}" --json "$name-new.json"
	local cmp=(compare "${cmpopt[@]}" --json "$name.cmp.json" "$name-old.json" "$name-new.json")
	bench_cmds+=("interbench ${cmp[*]}")
	ab_rc=0
	"$bin" "${cmp[@]}" >"$name.cmp" 2>&1 || ab_rc=$?
	if [ "$ab_rc" -eq 2 ]; then
		echo "bench: interbench compare failed: $(cat "$name.cmp")" >&2
		exit 1
	fi
}

# bench_target TARGET FIGURE VERDICT: a row of RESULTS.md's table of targets, when run by
# bench/run.sh ($BENCH_TARGETS).
bench_target() {
	if [ -n "${BENCH_TARGETS:-}" ]; then printf '| %s | %s | %s |\n' "$1" "$2" "$3" >>"$BENCH_TARGETS"; fi
}
