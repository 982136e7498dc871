#!/usr/bin/env bash
# How far the harness is from the kernel's own wake-up latency: a realtime Audio run with no
# load, then cyclictest with the same 50 ms interval at SCHED_FIFO 95 for the same time --
# once with deep idle states allowed (cyclictest --laptop, interbench's default) and once
# with a 0 us CPU wakeup latency limit held (cyclictest's default, interbench --dma-latency 0).
# cyclictest's figures are timer latency: compare them with the "timer" columns of -v.
# Run as root on a quiet machine.  Usage: bench/vs-cyclictest.sh [./interbench] [seconds]
set -euo pipefail
bin=${1:-./interbench}
secs=${2:-10}
command -v cyclictest >/dev/null || { echo "needs cyclictest (Debian: apt-get install rt-tests)" >&2; exit 2; }
for hold in no yes; do
	ib=(-t "$secs" -r -v -c -W Audio -w None)
	ct=(-m -p 95 -i 50000 -D "$secs" -q)
	if [ $hold = yes ]; then ib+=(--dma-latency 0); else ct+=(--laptop); fi
	echo "== $bin ${ib[*]}"
	"$bin" "${ib[@]}"
	echo
	echo "== cyclictest ${ct[*]}"
	cyclictest "${ct[@]}"
	echo
done
