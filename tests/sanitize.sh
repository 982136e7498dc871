#!/usr/bin/env bash
# Builds a copy of the tree with sanitizers and runs the test suite under each, failing on
# any report: AddressSanitizer + UndefinedBehaviorSanitizer over everything (unit and
# end-to-end), ThreadSanitizer over the threaded core: the unit tests and the end-to-end
# scripts that drive the engine, loads, pairs, windows and signals.  Only the bench process
# (engine/engine.c and the tasks' bodies) and the loads (loadkit/common.c) run threads, and
# the probes of lib/schedpolicy.c and run/privs.c one each; so TSan leaves out the scripts
# that run those threads only as the others do: the ones that check how files are opened and
# outputs written, the sweeps (the same pairs again, planned in the single-threaded main
# process), the results' and compare's (e2e_results: Audio against None and Burn, as
# tests/e2e.sh runs them, then main's --repeat and compare), the disturbance's (e2e_disturb:
# main reading /proc around each pair; a load stopped by SIGSTOP, which only the kernel sees),
# the audit and the plots.  In both, a script may leave out the cases that take one C path
# again with another input only the kernel tells apart, saying so (tests/lib/e2e.sh
# e2e_sanitized: E2E_SANITIZER names the sanitizer).
# Usage: tests/sanitize.sh [asan|tsan]...  (default: both)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/tests/lib/copy-tree.sh"
kinds=("${@:-asan}")
[ $# -eq 0 ] && kinds=(asan tsan)
for kind in "${kinds[@]}"; do
	sel_e2e=""
	dir=$(mktemp -d /tmp/interbench-$kind.XXXXXX)
	trap 'rm -rf "$dir"' EXIT
	copy_tree "$src" "$dir"
	case $kind in
	asan)
		flags="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
		export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
		targets="unit e2e"
		# Every script but those that test what surrounds the binary (a build of the tree, the
		# Debian package, the kernel matrix's files, PTS's parsers): they run natively only.
		sel_e2e=$(make -s --no-print-directory -C "$src" print-E2E | tr -s ' \t' '\n' |
			grep -vxE 'e2e_make|e2e_autopkgtest|e2e_kernel_matrix|e2e_pts' | tr '\n' ' ') ;;
	tsan)
		flags="-O1 -g -fsanitize=thread"
		export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
		targets="unit e2e"
		sel_e2e="e2e e2e_loads e2e_faults e2e_stutter e2e_window e2e_pipeline e2e_taskfile" ;;
	*) echo "sanitize.sh: unknown kind '$kind' (accepted: asan, tsan)" >&2; exit 2 ;;
	esac
	# The cases a sanitizer cannot run (tests/e2e_hardening_env.sh measured why): skips it
	# expects, declared, so that E2E_SKIP_FAILS=1 (.ci/run) still fails on any other.
	export E2E_SKIP_EXPECTED="${E2E_SKIP_EXPECTED:+$E2E_SKIP_EXPECTED
}Memload in a memory cgroup: a sanitizer's shadow memory*
OOM in a 12 MiB cgroup: a sanitizer's shadow memory*"
	# A sanitized test runs several times slower: check's timeouts (which only bound a test
	# that would hang, or a lookup gone linear, check_compare's large_sets_bounded) scale with it.
	export CK_TIMEOUT_MULTIPLIER=10
	# The statistics' replication cases (tests/ck_synth.h CK_REPLICATIONS_TAG) are measured by
	# the native `make check`; here they would repeat the same arithmetic for minutes.
	export CK_EXCLUDE_TAGS=replications E2E_SANITIZER=$kind
	# The binary and the unit tests built on every CPU first (nothing is measured meanwhile);
	# the run below finds them built.
	echo "== $kind: building with $flags"
	make -C "$dir" -s -j"$(nproc)" CC=clang CFLAGS="$flags" LDFLAGS="${flags#-O1 -g }" interbench \
		$(make -s --no-print-directory -C "$src" print-TEST_BINS) >/dev/null
	# TSan's shadow layout needs a fixed address space on kernels with high mmap entropy.
	run=""
	[ "$kind" = tsan ] && run="setarch $(uname -m) -R"
	$run make -C "$dir" CC=clang CFLAGS="$flags" LDFLAGS="${flags#-O1 -g }" \
		${sel_e2e:+E2E="$sel_e2e"} $targets
	rm -rf "$dir"
	trap - EXIT
	echo "== $kind: clean"
done
