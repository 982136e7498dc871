#!/usr/bin/env bash
# Builds Con Kolivas's interbench 0.31 from its public source into DIR (a scratch directory:
# nothing of it enters this tree) for the side-by-side figures, and prints the binary's path
# and the source's commit.  The source: $IB031_SRC, a git URL or a local clone (default
# https://github.com/ckolivas/interbench.git, whose last commits still say version 0.31), at
# $IB031_REF (default: its default branch); or a directory holding interbench.c (an unpacked
# release).  Exits 3 with the reason on stderr when it cannot be had or built.
# Usage: bench/interbench031.sh DIR
set -euo pipefail
dir=${1:?usage: bench/interbench031.sh DIR}
src=${IB031_SRC:-https://github.com/ckolivas/interbench.git}
ref=${IB031_REF:-}
unavailable() { echo "interbench 0.31 unavailable: $*" >&2; exit 3; }

mkdir -p "$dir"
if [ -f "$src/interbench.c" ]; then
	cp -r "$src/." "$dir/" || unavailable "cannot copy $src"
	commit="(directory $src)"
else
	git clone -q "$src" "$dir/src" 2>"$dir/clone.err" || unavailable "git clone $src failed: $(tail -1 "$dir/clone.err")"
	if [ -n "$ref" ]; then git -C "$dir/src" checkout -q "$ref" || unavailable "no $ref in $src"; fi
	commit=$(git -C "$dir/src" rev-parse HEAD)
	cp -r "$dir/src/." "$dir/"
	rm -rf "$dir/src" "$dir/.git"
fi
grep -q 'INTERBENCH_VERSION[[:space:]]*"0.31"' "$dir/interbench.c" || unavailable "$src is not interbench 0.31 (no INTERBENCH_VERSION \"0.31\")"
make -C "$dir" interbench >"$dir/build.log" 2>&1 || unavailable "its build failed: $(tail -1 "$dir/build.log")"
printf '%s\t%s\n' "$dir/interbench" "$commit"
