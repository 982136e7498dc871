# shellcheck shell=bash
# The kernel matrix's checks and its careful writes (bash), sourced by ci/kernels/matrix.sh and
# by the tests (tests/e2e_kernel_matrix.sh).  The matrix runs as root: its kernel cache is
# trusted as interbench trusts its calibration cache (lib/safefile.h, safe_dir_open_trusted:
# no link followed, every directory on the way owned by root or the running user and writable
# by nobody else but through a sticky bit), its files are written under a new name and renamed
# into place (a link planted under the name is replaced, never followed), apt's package lists
# are used only after an update without a single error, and a package is used only when its
# SHA-256 is the one those lists give.

# The characters --args accepts besides the spaces between words: each word travels on the
# kernel command line (comma-separated), through sed into job.yaml's YAML and through the
# guest's shell, so none of them may mean anything in those.
MATRIX_ARGS_CHARS='A-Za-z0-9._=:/%+-'

# matrix_args_check ARGS: 0 when ARGS holds only words of MATRIX_ARGS_CHARS separated by
# spaces; else says so on stderr (the value quoted as bash would) and returns 2.
matrix_args_check() {
	local LC_ALL=C
	case $1 in
	(*[!A-Za-z0-9._=:/%+\ -]*)
		printf 'matrix: --args: %q has a character it cannot pass on (accepted: words of %s separated by spaces)\n' \
			"$1" "$MATRIX_ARGS_CHARS" >&2
		return 2 ;;
	esac
}

# matrix_threshold_check SPEC: 0 when SPEC holds only compare's KEY=VALUE[,...] characters
# (A-Za-z0-9 . _ = % + - and commas); else says so on stderr and returns 2.
matrix_threshold_check() {
	local LC_ALL=C
	case $1 in
	(*[!A-Za-z0-9._=%+,-]*)
		printf "matrix: --threshold: %q is not accepted (accepted: compare's KEY=VALUE[,...] of A-Za-z0-9._=%%+-)\n" \
			"$1" >&2
		return 2 ;;
	esac
}

# matrix_path_check WHAT PATH: 0 when PATH holds only A-Za-z0-9 . _ / + - (it goes through sed
# into LAVA's YAML files as a file:// URL and a prefix); else says so on stderr, returns 2.
matrix_path_check() {
	local LC_ALL=C
	case $2 in
	(*[!A-Za-z0-9._/+-]*)
		printf 'matrix: %s: %q is not accepted (accepted: a path of A-Za-z0-9._/+-: it goes into the LAVA job)\n' \
			"$1" "$2" >&2
		return 2 ;;
	esac
}

# matrix_watchdog_check SECONDS: 0 when SECONDS is empty (no watchdog) or whole seconds from 1
# to 999999 (the guest's ib_watchdog, ci/kernels/interbench-lava.sh's WATCHDOG); else says so on
# stderr and returns 2.
matrix_watchdog_check() {
	local LC_ALL=C
	case $1 in
	("") ;;
	(*[!0-9]*|0*|???????*)
		printf 'matrix: WATCHDOG_SECONDS: %q is not accepted (accepted: whole seconds, 1 to 999999; unset: no watchdog)\n' \
			"$1" >&2
		return 2 ;;
	esac
}

# matrix_boots_check N: 0 when N is a whole number of boots a kernel from 1 to 99 (matrix.sh
# --boots); else says so on stderr and returns 2.
matrix_boots_check() {
	local LC_ALL=C
	case $1 in
	(""|*[!0-9]*|0*|???*)
		printf 'matrix: --boots: %q is not accepted (accepted: how many times each kernel is booted, 1 to 99)\n' \
			"$1" >&2
		return 2 ;;
	esac
}

# job_yaml TEMPLATE LABEL ARGS THRESHOLD KERNEL RAMDISK TEST_MINUTES [WATCHDOG]: LAVA's job
# (ci/kernels/lava/job.yaml.in) on standard output, its @...@ fields filled: ARGS (checked by
# matrix_args_check) comma-separated as ib_args, THRESHOLD (matrix_threshold_check; may be
# empty) as ib_threshold, KERNEL and RAMDISK (matrix_path_check) as file:// URLs, WATCHDOG
# (matrix_watchdog_check; empty or absent: none) as ib_watchdog.
job_yaml() {
	local tcs="" wd=""
	[ -z "$4" ] || tcs=" ib_threshold=$4"
	[ -z "${8:-}" ] || wd=" ib_watchdog=$8"
	sed -e "s|@NAME@|$2|; s|@JOB_MINUTES@|$(($7 + 5))|; s|@TEST_MINUTES@|$7|" \
	    -e "s|@IB_ARGS@|$(echo "$3" | tr -s ' ' ,)|; s|@IB_THRESHOLD@|$tcs|; s|@IB_WATCHDOG@|$wd|" \
	    -e "s|@KERNEL_URL@|file://$5|; s|@RAMDISK_URL@|file://$6|" "$1"
}

# dir_entry_trusted PATH STRICT: PATH is a directory, not a symbolic link, owned by root or the
# running user, and writable by no one else (unless STRICT is false and it has the sticky bit:
# others cannot remove or rename what is not theirs).  Else says why on stderr, returns 1.
dir_entry_trusted() {
	local p=$1 strict=$2 uid owner mode
	uid=$(id -u)
	if [ -L "$p" ]; then echo "matrix: $p is a symbolic link; not followed" >&2; return 1; fi
	if [ ! -d "$p" ]; then echo "matrix: $p is not a directory" >&2; return 1; fi
	read -r owner mode < <(stat -c '%u %a' -- "$p")
	if [ "$owner" != 0 ] && [ "$owner" != "$uid" ]; then
		echo "matrix: $p belongs to uid $owner, not to the running user (uid $uid) or root; not trusted" >&2
		return 1
	fi
	if (( 8#$mode & 8#022 )) && { $strict || ! (( 8#$mode & 8#1000 )); }; then
		echo "matrix: $p is writable by others (mode $(printf '%04o' $((8#$mode)))); not trusted" >&2
		return 1
	fi
}

# trusted_dir DIR: makes the absolute path DIR (mode 0755 where missing) one component at a
# time from /, never through a symbolic link, each directory checked with dir_entry_trusted
# (DIR itself strictly: nobody else may write in it, sticky bit or not).  Returns 0, or 1
# having said why on stderr.
trusted_dir() {
	local dir=$1 p="" rest
	case $dir in (/*) ;; (*) echo "matrix: $dir: not an absolute path" >&2; return 1 ;; esac
	dir_entry_trusted / false || return 1
	rest=${dir#/}
	while [ -n "$rest" ]; do
		p="$p/${rest%%/*}"
		case $rest in (*/*) rest=${rest#*/} ;; (*) rest="" ;; esac
		[ "$p" != "${p%/}" ] && continue
		[ -e "$p" ] || [ -L "$p" ] || mkdir -m 0755 -- "$p" 2>/dev/null || [ -d "$p" ] ||
			{ echo "matrix: mkdir $p failed" >&2; return 1; }
		if [ "$p" = "${dir%/}" ]; then dir_entry_trusted "$p" true || return 1
		else dir_entry_trusted "$p" false || return 1; fi
	done
}

# safe_write FILE: standard input into FILE (in a trusted directory) under a new name first
# (mktemp: O_EXCL), then renamed over FILE: a link planted at FILE is replaced, not followed.
safe_write() {
	local tmp
	tmp=$(mktemp "$(dirname -- "$1")/.write.XXXXXX") || return 1
	cat >"$tmp" && mv -fT -- "$tmp" "$1" || { rm -f -- "$tmp"; return 1; }
}

# apt_update LOG APT_OPTION...: apt-get update that fails on any error (APT::Update::Error-Mode
# any: a mirror answering 503 is an error, not a warning over old lists) and on any warning or
# error line in its output but apt's note that root downloads unsandboxed; the output into LOG
# (safe_write), its last lines on stderr when it failed.
apt_update() {
	local log=$1 out rc=0
	shift
	out=$(apt-get "$@" -o APT::Update::Error-Mode=any update -qq 2>&1) || rc=$?
	printf '%s\n' "$out" | safe_write "$log"
	if [ "$rc" = 0 ] && ! grep -v '^W: Download is performed unsandboxed' <<<"$out" | grep -qE '^(W|E|Err):'; then
		return 0
	fi
	echo "matrix: apt-get update failed (exit $rc; $log):" >&2
	grep -v '^W: Download is performed unsandboxed' <<<"$out" | tail -3 >&2
	return 1
}

# verified_download PKG DEST APT_OPTION...: downloads PKG's candidate into the trusted
# directory DEST and prints its path once its size and SHA-256 are the ones apt's package lists
# give (apt-get --print-uris); fails saying why.
verified_download() {
	local pkg=$1 dest=$2 uris name size hash log rc=0
	shift 2
	uris=$(cd / && apt-get "$@" --print-uris download "$pkg" 2>/dev/null | grep -E "^'[^']*' [^ /]+\\.deb [0-9]+ SHA256:[0-9a-f]{64}\$" | tail -1)
	[ -n "$uris" ] || { echo "matrix: apt-get --print-uris download $pkg gave no SHA-256 (no package lists for it?)" >&2; return 1; }
	read -r _ name size hash <<<"$uris"
	log=$(cd "$dest" && apt-get "$@" download "$pkg" 2>&1) || rc=$?
	[ "$rc" = 0 ] || { grep -v '^W: Download is performed unsandboxed' <<<"$log" >&2; echo "matrix: apt-get download $pkg failed" >&2; return 1; }
	if [ -L "$dest/$name" ] || [ "$(stat -c %s -- "$dest/$name" 2>/dev/null)" != "$size" ] ||
	   [ "$(sha256sum <"$dest/$name" | cut -d' ' -f1)" != "${hash#SHA256:}" ]; then
		echo "matrix: $dest/$name is not the package apt's lists describe ($size bytes, $hash); not used" >&2
		return 1
	fi
	echo "$dest/$name"
}
