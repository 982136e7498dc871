#!/usr/bin/env bash
# Builds every libFuzzer harness in tests/fuzz/ with ASan+UBSan and runs each for a bounded
# time on a copy of its seed corpus.  Usage: tests/fuzz/run.sh [seconds-per-harness]
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-60}
case $secs in
(*[!0-9]* | '' | 0) echo "usage: tests/fuzz/run.sh [seconds-per-harness] (a whole number of seconds, 1 or more; got '$secs')" >&2; exit 2 ;;
esac
CC=${FUZZ_CC:-clang}
out=$(mktemp -d /tmp/interbench-fuzz.XXXXXX)
trap 'rm -rf "$out"' EXIT
pkgs=$(make -s print-PKGS)      # the libraries the program links, as the Makefile names them
libs=$(pkg-config --libs $pkgs)
cflags=$(pkg-config --cflags $pkgs)
make -s explain/bpf/explain.skel.h  # the --explain tracer's skeleton, generated at build time
# The program's sources built once (instrumented for the fuzzer, not linked with its main),
# two at a time, into one archive every harness links.
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
mkdir "$out/obj"
for d in $(make -s print-FOLDERS); do ls "$d"/*.c; done |
	xargs -P 2 -I{} sh -c 'o="$1/obj/$(echo "$2" | tr / _).o"; exec "$3" -std=gnu11 -g -O1 -fsanitize=fuzzer-no-link $4 -I. $5 -pthread -c "$2" -o "$o"' \
		sh "$out" {} "$CC" "$san" "$cflags"
ar rcs "$out/libib.a" "$out"/obj/*.o
pids=() names=()
for h in tests/fuzz/fuzz_*.c; do
	name=$(basename "$h" .c)
	"$CC" -std=gnu11 -g -O1 -fsanitize=fuzzer $san -I. $cflags -pthread "$h" "$out/libib.a" -o "$out/$name" \
		$libs -pthread -lrt -lm
	corpus="tests/fuzz/corpus/${name#fuzz_}"
	mkdir -p "$out/corpus-$name"
	cp -r "$corpus"/. "$out/corpus-$name"/ 2>/dev/null || true
	# Two harnesses at a time on this 2-CPU machine.
	(cd "$out" && ./"$name" -max_total_time="$secs" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
		"corpus-$name" >"$name.log" 2>&1) &
	pids+=($!) names+=("$name")
	if [ ${#pids[@]} -ge 2 ]; then
		wait "${pids[0]}" || { tail -40 "$out/${names[0]}.log"; echo "fuzz: ${names[0]} failed"; exit 1; }
		echo "fuzz: ${names[0]}: $(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$out/${names[0]}.log")"
		pids=("${pids[@]:1}") names=("${names[@]:1}")
	fi
done
for i in "${!pids[@]}"; do
	wait "${pids[$i]}" || { tail -40 "$out/${names[$i]}.log"; echo "fuzz: ${names[$i]} failed"; exit 1; }
	echo "fuzz: ${names[$i]}: $(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$out/${names[$i]}.log")"
done
echo "fuzz: all harnesses ran ${secs} s without a finding"
