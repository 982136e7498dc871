#!/usr/bin/env bash
# How far the harness is from the kernel's own wake-up latency: a realtime Audio run with no
# load, then cyclictest with the same 50 ms interval at SCHED_FIFO 95 for the same time.
# Run as root on a quiet machine.  Usage: bench/vs-cyclictest.sh [./interbench] [seconds]
set -euo pipefail
bin=${1:-./interbench}
secs=${2:-10}
command -v cyclictest >/dev/null || { echo "needs cyclictest (Debian: apt-get install rt-tests)" >&2; exit 2; }
echo "== $bin -t $secs -r -v -c -W Audio -w None"
"$bin" -t "$secs" -r -v -c -W Audio -w None
echo
echo "== cyclictest -m -p 95 -i 50000 -D $secs -q"
cyclictest -m -p 95 -i 50000 -D "$secs" -q
