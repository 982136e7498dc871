#!/usr/bin/env bash
# untouched.sh CMD...: runs CMD (the test suite: make e2e, make check) and fails when it left
# changed a path no test may touch: the device nodes every program writes to or reads from
# (/dev/null a character device 1,3 of mode 666, and its kin), the modes of /tmp and /dev/shm,
# and the user's calibration cache (${XDG_CACHE_HOME:-~/.cache}/interbench, when present: the
# tests keep theirs in their own directory, tests/lib/e2e.sh).  Prints what changed, as
# it was and as it is, and exits 1; else CMD's status.
# Usage: tests/untouched.sh make e2e
set -u
cache="${XDG_CACHE_HOME:-$HOME/.cache}/interbench"

# state: one line per path: its type, device numbers (for a device), mode and owner; the
# cache's files each with size and modification time.
state() {
	local p
	for p in /dev/null /dev/zero /dev/full /dev/random /dev/urandom /dev/tty /tmp /dev/shm; do
		printf '%s %s\n' "$p" "$(stat -c '%F %t,%T mode %a owner %u:%g' "$p" 2>/dev/null || echo absent)"
	done
	if [ -e "$cache" ]; then
		find "$cache" -printf '%p %y size %s mode %m modified %T@\n' 2>/dev/null | sort
	else
		echo "$cache absent"
	fi
}

before=$(state)
"$@"
rc=$?
after=$(state)
if [ "$before" != "$after" ]; then
	{
		echo "untouched: the tests changed paths no test may touch (each line before, then after):"
		diff <(echo "$before") <(echo "$after") | sed -n 's/^</  before:/p; s/^>/  after: /p'
		grep -q '^/dev/null character special file 1,3 ' <<<"$after" ||
			echo "untouched: restore /dev/null as root with: rm -f /dev/null && mknod -m 666 /dev/null c 1 3"
	} >&2
	exit 1
fi
exit "$rc"
