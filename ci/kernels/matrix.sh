#!/usr/bin/env bash
# The kernel matrix: boots each kernel in turn with interbench's initramfs on a qemu device
# through LAVA's own dispatcher (lava-run, offline: no lava-server), collects each kernel's JSON
# result and test cases from the job's log, and runs `interbench compare` of every kernel
# against the first.  The kernels after the first get the first one's result as their
# baseline, so their LAVA test cases fail where compare finds a regression.
#
# With --boots N each kernel is booted N times, the boots alternating between the kernels
# (A B A B ..., A B C A B C ...) so that a drift of the host over the minutes of the matrix
# falls on every kernel alike, and whatever one boot fixes (where the kernel placed things,
# TCG's timing) falls on no kernel alone.  Each boot keeps its own outputs (LABEL.bootK.json,
# LABEL.bootK.cases.txt, LABEL/bootK/ with its job and log); then each kernel's boots that gave
# a result are merged into LABEL.json (ci/kernels/merge.py: every boot's results as sub-runs,
# doc/json.md's "boots"), and compare judges the kernels on the sub-runs of all their boots.
# The guests' baseline stays the first kernel's first boot that gave a result: it exists
# before any later kernel boots, and one baseline makes every boot's test cases comparable
# (the first kernel's own boots run without one); the host's compare is the verdict.  A
# failed boot is reported and makes the exit status 3; its kernel's other boots still count.
#
# Usage: ci/kernels/matrix.sh [--direct] [--boots N] [--scx NAMES] [--args "INTERBENCH ARGS"] [--threshold SPEC]
#        [KERNEL...]
#   KERNEL      [LABEL=]PATH: a linux-image .deb or a kernel image (bzImage), such as a kernel
#               you built; LABEL names its result (LABEL.json; default: the file name up to
#               its first '_' or '.').  Or [LABEL=]debian:SUITE or debian:SUITE-rt: Debian's
#               linux-image-amd64 or linux-image-rt-amd64 of that suite (debian:bookworm 6.1
#               CFS, debian:trixie 6.12 EEVDF, debian:trixie-rt, debian:sid 7.2 with sched_ext,
#               its image in the linux-binary package), fetched through a private apt
#               configuration (label: SUITE[-rt]).  Default: the machine's own Debian
#               linux-image-amd64 (generic) and linux-image-rt-amd64 (rt).
#   --args      interbench's arguments in every guest (default: -t 2 -W Audio -W Video -w None
#               -w Burn --repeat 5 --explain: the causes of missed deadlines travel with
#               each result; compare prints how they moved under each flagged pair): words
#               of A-Za-z0-9._=:/%+- separated by spaces, anything else refused (exit 2): they
#               travel comma-separated on the kernel command line, through job.yaml and the
#               guest's shell
#   --threshold compare's --threshold, for the guests' verdicts and the comparisons
#               (A-Za-z0-9._=%+- and commas)
#   --direct    boot with qemu directly instead of through lava-run (the same initramfs)
#   --boots     N, 1 to 99: how many times each kernel is booted, alternating (default 1: each
#               once, its outputs LABEL.json, LABEL.cases.txt and LABEL/)
#   --scx NAMES the kernel's own example sched_ext schedulers (scx_simple,scx_qmap,...), built
#               for each debian:SUITE kernel from that suite's linux-source package against
#               the kernel image's BTF (ci/kernels/build-scx.sh; kept in KERNEL_CACHE), put into
#               the guest's /bin for interbench's --scheduler: --args "... --scheduler fair
#               --scheduler /bin/scx_simple" (and /bin/scx_simple_fifo, its FIFO mode) runs
#               EEVDF against it in each boot, interleaved.  Needs clang 16 or later.
# Environment: ACCEL (kvm or tcg: no probe), PROBE_SECONDS (the KVM probe's bound, default 15),
#   KERNEL_CACHE (default ~/.cache/interbench-kernels; refused, exit 2, when reached through a
#   symbolic link, or when it or a directory above it belongs to another user than root and
#   the running one, or others can write it, above it but through a sticky bit:
#   ci/kernels/lib.sh), DEBIAN_MIRROR (for debian:SUITE; default
#   http://deb.debian.org/debian), OUT (a path of A-Za-z0-9._/+-; default ./kernel-matrix:
#   LABEL.json, LABEL.cases.txt and LABEL/ with the job, device, logs), TEST_MINUTES (the test
#   action's timeout, default 20), INTERBENCH (default ./interbench), INTERBENCH_STATIC
#   (default ./interbench-static): `make kernel-matrix` builds both.  WATCHDOG_SECONDS (whole
#   seconds; unset: none): when interbench has not exited that long after it started in a
#   guest, the guest prints what its threads and the kernel are doing and stops it
#   (ci/kernels/interbench-lava.sh, WATCHDOG): that kernel's verdict says so, and its block is
#   LABEL.watchdog.txt.  Below LAVA's 2 minutes without a test case (the job's connection
#   timeout) a hang is diagnosed before LAVA gives up on the job; none by default, so that a
#   long run is never cut short.  SCX_DIR: a directory of static sched_ext schedulers
#   (ci/kernels/build-scx.sh) put into every guest's /bin, for --args "... --scheduler fair
#   --scheduler /bin/scx_simple" on a kernel with sched_ext (debian:sid).
# Exit status: 0 no regression and every judged figure decided; 1 compare found a regression;
# 4 no regression shown but something undecided (compare's exit 3: a figure UNKNOWN, e.g. one
# sub-run a side, or the noise of TCG, where it is no failure of the matrix); 2 bad usage or
# missing tools; 3 when a kernel's job, boot or benchmark failed.  The worst of them wins, in
# the order 3, 2, 1, 4, 0.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
args="-t 2 -W Audio -W Video -w None -w Burn --repeat 5 --explain"
threshold="" direct=false boots=1 kernels=() scx=""
while [ $# -gt 0 ]; do
	case $1 in
	(--args) args=$2; shift 2 ;;
	(--threshold) threshold=$2; shift 2 ;;
	(--direct) direct=true; shift ;;
	(--boots) boots=${2-}; shift; [ $# -eq 0 ] || shift ;;
	(--scx) scx=${2-}; shift; [ $# -eq 0 ] || shift ;;
	(-h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	(-*) echo "matrix: $1: unknown option (see --help)" >&2; exit 2 ;;
	(*) kernels+=("$1"); shift ;;
	esac
done
matrix_args_check "$args" || exit 2
matrix_threshold_check "$threshold" || exit 2
matrix_boots_check "$boots" || exit 2
if [ -n "$scx" ] && ! [[ $scx =~ ^scx_[a-z0-9_]+(,scx_[a-z0-9_]+)*$ ]]; then
	echo "matrix: --scx '$scx' (accepted: tools/sched_ext scheduler names, comma-separated: scx_simple,scx_qmap)" >&2
	exit 2
fi
watchdog=${WATCHDOG_SECONDS:-}
matrix_watchdog_check "$watchdog" || exit 2
cache=${KERNEL_CACHE:-$HOME/.cache/interbench-kernels}
case $cache in (/*) ;; (*) cache=$PWD/$cache ;; esac
out=${OUT:-$PWD/kernel-matrix}
test_minutes=${TEST_MINUTES:-20}
bin=$(realpath "${INTERBENCH:-./interbench}")
static=$(realpath "${INTERBENCH_STATIC:-./interbench-static}")
for f in "$bin" "$static"; do
	[ -x "$f" ] || { echo "matrix: $f: not built (make interbench interbench-static)" >&2; exit 2; }
done
deps=()
$direct || deps+=(--lava)
[ -z "$scx" ] || deps+=(--scx)
"$here/deps.sh" "${deps[@]}" || exit 2
mkdir -p "$out"
matrix_path_check OUT "$(realpath "$out")" || exit 2
trusted_dir "$cache" || { echo "matrix: KERNEL_CACHE $cache refused (as root, a cache only root may write)" >&2; exit 2; }
out=$(realpath "$out")
start_s=$(date +%s)

# Package $1 downloaded into the trusted directory $2 with apt options $3... (a private
# configuration, or none: the machine's) and verified (verified_download); as root, after an
# update of the package lists when they do not give it.  Prints its path.
download() {
	local pkg=$1 dest=$2
	shift 2
	verified_download "$pkg" "$dest" "$@" 2>/dev/null && return 0
	if [ "$(id -u)" = 0 ]; then  # stale or missing package lists
		apt_update "$dest/update.log" "$@" && verified_download "$pkg" "$dest" "$@" && return 0
	else
		verified_download "$pkg" "$dest" "$@" && return 0
	fi
	echo "matrix: no verified $pkg (as root: apt-get update first)" >&2
	return 1
}

# Downloads Debian's kernel metapackage $1 and the image package it depends on into directory
# $2, with apt options $3...; prints the path of the package holding the kernel image: the
# image package, or from Debian's 7.x kernels on the linux-binary-VERSION package it depends on
# (the image package then holds no /boot/vmlinuz-*: linux-binary has /usr/lib/modules/VERSION/
# vmlinuz and linux-modules the modules).
debian_kernel() {
	local meta=$1 dest=$2 dep deb bin
	shift 2
	deb=$(download "$meta" "$dest" "$@") || return 1
	dep=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/^ *//; s/[ (].*//' | grep -m1 '^linux-image-' || true)
	[ -n "$dep" ] || { echo "matrix: $deb depends on no linux-image package ($(dpkg-deb -f "$deb" Depends))" >&2; return 1; }
	deb=$(download "$dep" "$dest" "$@") || return 1
	if dpkg-deb -c "$deb" | awk '$6 ~ /^\.\/boot\/vmlinuz-/ { f = 1 } END { exit !f }'; then echo "$deb"; return 0; fi
	bin=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/^ *//; s/[ (].*//' | grep -m1 '^linux-binary-' || true)
	[ -n "$bin" ] || { echo "matrix: $deb holds no /boot/vmlinuz-* and depends on no linux-binary package" >&2; return 1; }
	download "$bin" "$dest" "$@"
}

# The kernel of debian:SUITE (linux-image-amd64) or debian:SUITE-rt (linux-image-rt-amd64):
# fetched from Debian's archive (DEBIAN_MIRROR, default the deb.debian.org of the machine's
# own sources) through a private apt configuration in $cache/debian-SUITE (its own sources
# list, package lists and cache: the machine's apt configuration and lists are never
# touched), the suite's Release file verified against debian-archive-keyring as apt verifies
# any package, the update failing on any error (apt_update: old lists are never used) and each
# package's SHA-256 checked against the lists (verified_download).  Prints the image package's
# path.
debian_suite_kernel() {
	local spec=${1#debian:} suite meta=linux-image-amd64 dir
	suite=${spec%-rt}
	[ "$suite" = "$spec" ] || meta=linux-image-rt-amd64
	case $suite in
	(""|*[!a-z0-9-]*) echo "matrix: $1: not a Debian suite (accepted: debian:SUITE or debian:SUITE-rt, e.g. debian:trixie-rt)" >&2; return 1 ;;
	esac
	dir="$cache/debian-$suite"
	trusted_dir "$dir/lists" && trusted_dir "$dir/archives" || return 1
	mkdir -p "$dir/lists/partial" "$dir/archives/partial"
	printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s main\n' \
		"${DEBIAN_MIRROR:-http://deb.debian.org/debian}" "$suite" | safe_write "$dir/sources.list"
	local apt=(-o Dir::Etc::SourceList="$dir/sources.list" -o Dir::Etc::SourceParts=/nonexistent
		   -o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir" -o Dir::Cache::pkgcache=
		   -o Dir::Cache::srcpkgcache= -o Dir::Etc::Preferences=/nonexistent
		   -o Dir::Etc::PreferencesParts=/nonexistent -o APT::Architectures=amd64
		   -o Acquire::Languages=none)
	apt_update "$dir/update.log" "${apt[@]}" || { echo "matrix: $1: no kernel from Debian's $suite" >&2; return 1; }
	local deb
	deb=$(debian_kernel "$meta" "$dir" "${apt[@]}") || return 1
	[ -z "$scx" ] || suite_schedulers "$deb" "$dir" "${apt[@]}" || return 1
	echo "$deb"
}

# Where the sched_ext schedulers built for kernel package $1 are kept (--scx).
scx_dir_of() { echo "$(dirname "$1")/scx/$(basename "$1" .deb)"; }

# --scx: the schedulers named built for the kernel of package $1 (its image's BTF), from the
# linux-source-X.Y package of the same suite (downloaded into $2 with apt options $3..., like
# the kernel), into scx_dir_of $1: once, kept for the next matrix.
suite_schedulers() {
	local deb=$1 dest=$2 mm src dir img names=()
	shift 2
	dir=$(scx_dir_of "$deb")
	IFS=, read -r -a names <<<"$scx"
	local have=true n
	for n in "${names[@]}"; do [ -x "$dir/$n" ] || have=false; done
	$have && return 0
	mm=$(basename "$deb" | sed -n 's/^linux-\(binary\|image\)-\([0-9]*\.[0-9]*\).*/\2/p')
	[ -n "$mm" ] || { echo "matrix: --scx: no kernel version in $(basename "$deb")" >&2; return 1; }
	src=$(download "linux-source-$mm" "$dest" "$@") || return 1
	img=$(mktemp)
	if ! kernel_image "$img" "$deb" >/dev/null || ! mkdir -p "$dir" ||
	   ! "$here/build-scx.sh" "$src" "$img" "$dir" "${names[@]}" >/dev/null; then
		rm -f "$img"
		return 1
	fi
	rm -f "$img"
}

# The kernel image of $2 (a .deb or an image) as $1 (copied out of the package).
kernel_image() {
	local dest=$1 src=$2 member
	case $src in
	(*.deb)  # /boot/vmlinuz-VERSION, or /usr/lib/modules/VERSION/vmlinuz (Debian's linux-binary)
		member=$(dpkg-deb -c "$src" | awk '($6 ~ /^\.\/boot\/vmlinuz-/ || $6 ~ /^\.\/usr\/lib\/modules\/[^\/]+\/vmlinuz$/) && !m { m = $6 } END { print m }')
		[ -n "$member" ] || { echo "matrix: $src holds no /boot/vmlinuz-* nor /usr/lib/modules/*/vmlinuz" >&2; return 1; }
		dpkg-deb --fsys-tarfile "$src" | tar -xO "$member" >"$dest"
		case $member in (./boot/*) echo "${member#./boot/}" ;; (*) member=${member%/vmlinuz}; echo "vmlinuz-${member##*/}" ;; esac ;;
	(*) cp "$src" "$dest"; basename "$src" ;;
	esac
}

if [ ${#kernels[@]} -eq 0 ]; then
	read -r -a kernels <<<"${KERNELS:-}"
fi
if [ ${#kernels[@]} -eq 0 ]; then
	generic=$(debian_kernel linux-image-amd64 "$cache") || exit 2
	rt=$(debian_kernel linux-image-rt-amd64 "$cache") || exit 2
	kernels=("generic=$generic" "rt=$rt")
fi
# debian:SUITE[-rt] fetched (labelled SUITE[-rt] unless LABEL= says otherwise)
for i in "${!kernels[@]}"; do
	k=${kernels[$i]} lbl=""
	case $k in (*=debian:*) lbl=${k%%=*} k=${k#*=} ;; esac
	case $k in
	(debian:*)
		deb=$(debian_suite_kernel "$k") || exit 2
		kernels[$i]="${lbl:-${k#debian:}}=$deb" ;;
	esac
done


# The accelerator: KVM only when a guest really runs on it, proved by booting the first kernel
# there (no initramfs: it panics once it has started) and finding the kernel's banner on the
# serial console within PROBE_SECONDS.  /dev/kvm may be there and qemu may start on it while
# the guest never gets past the boot loader's "Probing EDD" (a nested host), or qemu may abort
# at once refusing the guest's MSRs; each then costs one bounded probe, not a monitor timeout
# per kernel.  ACCEL=kvm forces KVM (failing at once, with the probe's evidence, when it does
# not boot), ACCEL=tcg forces TCG; one line says which and why.
probe_seconds=${PROBE_SECONDS:-15}
accel=""
# kvm_banner KERNEL: prints the banner line a KVM boot of KERNEL wrote, or fails printing the
# last line the guest wrote (escape sequences dropped), or qemu's own complaint.
kvm_banner() {
	local log err
	err=$(mktemp)
	log=$(timeout "$probe_seconds" qemu-system-x86_64 -enable-kvm -cpu host -nographic -no-reboot -m 256 \
		-monitor none -net none -kernel "$1" -append "console=ttyS0 panic=-1" </dev/null 2>"$err" | tr -d '\r') || true
	if grep -m1 -o 'Linux version [^ ]*' <<<"$log"; then rm -f "$err"; return 0; fi
	log=$(sed -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1b[c78]//g' <<<"$log" | tr -cd '[:print:]\n' | grep -v '^[[:space:]]*$' | tail -1)
	grep -v 'terminating on signal' "$err" | head -1 | sed 's/^/qemu: /' | grep . || echo "${log:0:120}"
	rm -f "$err"
	return 1
}
# choose_accel KERNEL: sets accel, saying why.
choose_accel() {
	local evidence why=""
	case ${ACCEL:-} in
	(tcg) echo "matrix: TCG (ACCEL=tcg)" >&2; return 0 ;;
	(kvm|"") ;;
	(*) echo "matrix: ACCEL=$ACCEL is not accepted (accepted: kvm, tcg, or unset to probe)" >&2; exit 2 ;;
	esac
	if [ ! -w /dev/kvm ]; then
		why="/dev/kvm is not there or not writable"
	elif evidence=$(kvm_banner "$1"); then
		accel="-enable-kvm -cpu host"
		echo "matrix: KVM: a probe boot printed '$evidence' within ${probe_seconds} s" >&2
		return 0
	else
		why="a probe boot on KVM printed no kernel banner within ${probe_seconds} s (its last line: '${evidence:-nothing}')"
	fi
	if [ "${ACCEL:-}" = kvm ]; then echo "matrix: ACCEL=kvm, but $why" >&2; exit 3; fi
	echo "matrix: TCG: $why" >&2
}

# Boots kernel $2 with initramfs $3 through lava-run, in directory $1.  Writes $1/log.
boot_lava() {
	local dir=$1 kernel=$2 ramdisk=$3 label=$4
	sed -e "s|@QEMU_ACCEL@|$accel|" -e '/^ *- $/d' "$here/lava/device-qemu.yaml.in" >"$dir/device.yaml"
	sed -e "s|@SCRATCH@|$dir/scratch-|" "$here/lava/dispatcher.yaml.in" >"$dir/dispatcher.yaml"
	job_yaml "$here/lava/job.yaml.in" "$label" "$args" "$threshold" "$kernel" "$ramdisk" "$test_minutes" "$watchdog" \
		>"$dir/job.yaml"
	local run=(lava-run --job-id 1 --output-dir "$dir/lava" --device "$dir/device.yaml" --dispatcher "$dir/dispatcher.yaml")
	if ! "${run[@]}" --validate "$dir/job.yaml" >"$dir/validate.log" 2>&1; then
		echo "matrix: $label: lava-run --validate refused the job (see $dir/validate.log):" >&2
		grep -v '"lvl": "\(debug\|info\)"' "$dir/validate.log" | tail -5 >&2
		return 1
	fi
	"${run[@]}" "$dir/job.yaml" >"$dir/log" 2>&1 || true  # the job's verdict is read from the log
}

# Boots kernel $2 with initramfs $3 with qemu directly, in directory $1.  Writes $1/log.
boot_direct() {
	local dir=$1 kernel=$2 ramdisk=$3 tcs=""
	[ -z "$threshold" ] || tcs=" ib_threshold=$threshold"
	[ -z "$watchdog" ] || tcs="$tcs ib_watchdog=$watchdog"
	# shellcheck disable=SC2086 # accel is two words or none
	timeout $((test_minutes * 60 + 120)) qemu-system-x86_64 -nographic -no-reboot -m 1024 -smp 2 \
		-monitor none -net none $accel -kernel "$kernel" -initrd "$ramdisk" \
		-append "console=ttyS0,115200 panic=-1 ib_args=$(echo "$args" | tr -s ' ' ,)$tcs" \
		</dev/null >"$dir/log" 2>&1 || true
}

# The label of kernel argument $1 ([LABEL=]PATH).
label_of() {
	local label=${1%%=*}
	[ "$label" != "$1" ] || { label=$(basename "$1"); label=${label%%[._]*}; }
	echo "$label"
}

for k in "${kernels[@]}"; do
	label=$(label_of "$k")
	case $label in
	(""|*[!A-Za-z0-9_.-]*) echo "matrix: $k: label '$label' is not accepted (accepted: [A-Za-z0-9_.-]+, as LABEL=PATH)" >&2; exit 2 ;;
	esac
	[ -f "${k#*=}" ] || { echo "matrix: ${k#*=}: no such file" >&2; exit 2; }
done

probe_dir=$(mktemp -d)
kernel_image "$probe_dir/vmlinuz" "${kernels[0]#*=}" >/dev/null || { rm -rf "$probe_dir"; exit 2; }
choose_accel "$probe_dir/vmlinuz"
# With sched_ext schedulers in TCG, one host thread for all vCPUs: multi-threaded TCG let a vCPU
# run a stale translation of code the kernel was patching when a scheduler was disabled (its
# static keys: "Oops: int3" in set_next_task_idle under scx_root_disable, 7.2.13, after a few
# enable/disable cycles); single-threaded TCG ran the same boot clean.
if [ -z "$accel" ] && [ -n "$scx" ]; then
	accel="-accel tcg,thread=single"
	echo "matrix: TCG single-threaded (--scx: the schedulers' enable and disable patch kernel code)" >&2
fi
rm -rf "$probe_dir"

status=0 summary=() merged=()
declare -A image_of=() results_of=() scx_of=()
# status_rank STATUS: how bad the matrix's exit status STATUS is (the order of the header).
status_rank() { case $1 in (3) echo 4 ;; (2) echo 3 ;; (1) echo 2 ;; (4) echo 1 ;; (*) echo 0 ;; esac; }
first=$(label_of "${kernels[0]}") baseline_json=""

# Each kernel's outputs of an earlier matrix removed, its kernel image taken out once.
for k in "${kernels[@]}"; do
	label=$(label_of "$k")
	rm -rf -- "$out/${label:?}" "$out/$label.json" "$out/$label.cases.txt" "$out/$label.watchdog.txt" \
		"$out/$label".boot[0-9]*.json "$out/$label".boot[0-9]*.cases.txt "$out/$label".boot[0-9]*.watchdog.txt
	mkdir -p "$out/$label"
	image_of[$label]=$(kernel_image "$out/$label/vmlinuz" "${k#*=}")
	results_of[$label]=""
	scx_of[$label]=${SCX_DIR:-}  # --scx's build for a debian:SUITE kernel, else SCX_DIR
	if [ -n "$scx" ] && [ -d "$(scx_dir_of "${k#*=}")" ]; then scx_of[$label]=$(scx_dir_of "${k#*=}"); fi
done

# boot_paths LABEL K: sets bdir, boot K's directory, and stem, its outputs without .json (with
# one boot a kernel, today's names: LABEL/ and LABEL.json).
boot_paths() {
	if [ "$boots" = 1 ]; then bdir="$out/$1" stem="$out/$1"
	else bdir="$out/$1/boot$2" stem="$out/$1.boot$2"; fi
}

# boot_once LABEL K: boot K of kernel LABEL, its verdict printed and added to the summary;
# its JSON, when it left one, added to results_of[LABEL].  Sets status 3 when it failed.
boot_once() {
	local label=$1 b=$2 t0 verdict from=() baseline=() nth=""
	boot_paths "$label" "$b"
	mkdir -p "$bdir"
	[ -z "$baseline_json" ] || [ "$label" = "$first" ] || baseline=(-b "$baseline_json")
	"$here/build-initramfs.sh" "${baseline[@]}" ${scx_of[$label]:+-s "${scx_of[$label]}"} "$static" \
		"$bdir/initramfs.cpio.gz"
	t0=$(date +%s)
	[ "$boots" = 1 ] || nth="boot $b of $boots, "
	echo "== $label: $nth${image_of[$label]}, interbench $args ($($direct && echo qemu directly || echo lava-run))"
	if $direct; then
		boot_direct "$bdir" "$out/$label/vmlinuz" "$bdir/initramfs.cpio.gz"
		from=(--console "$bdir/log")
	else
		boot_lava "$bdir" "$out/$label/vmlinuz" "$bdir/initramfs.cpio.gz" "$label" || exit 3
		from=(--lava "$bdir/log")
	fi
	verdict=$(/usr/bin/python3 "$here/extract.py" "${from[@]}" --json "$stem.json" --cases "$stem.cases.txt" \
		--watchdog "$stem.watchdog.txt") || status=3
	nth=""
	[ "$boots" = 1 ] || nth=$(printf 'boot %-2s ' "$b")
	summary+=("$(printf '%-10s %-28s %s%4s s  %s' "$label" "${image_of[$label]}" "$nth" $(($(date +%s) - t0)) "$verdict")")
	echo "   $verdict"
	[ -s "$stem.json" ] || return 0
	results_of[$label]+=" $stem.json"
	[ -n "$baseline_json" ] || [ "$label" != "$first" ] || baseline_json=$stem.json
}

# The boots, alternating between the kernels; the matrix stops when the first kernel's last
# boot left it no result to compare against.
for ((b = 1; b <= boots; b++)); do
	for k in "${kernels[@]}"; do
		label=$(label_of "$k")
		boot_once "$label" "$b"
		if [ "$label" = "$first" ] && [ "$b" = "$boots" ] && [ -z "$baseline_json" ]; then
			echo "matrix: $label: no result to compare against (see $out/$label/)" >&2; exit 3
		fi
	done
done

# merge_boots LABEL: kernel LABEL's boots that gave a result merged into LABEL.json
# (ci/kernels/merge.py), a line on what was merged added to merged; status 3 when none gave one
# or the merge refused them.
merge_boots() {
	local label=$1 files line rc=0
	read -r -a files <<<"${results_of[$label]}"
	if [ ${#files[@]} = 0 ]; then
		merged+=("$label: none of its $boots boots gave a result"); status=3; return
	fi
	line=$(/usr/bin/python3 "$here/merge.py" --out "$out/$label.json" "${files[@]}" 2>&1) || rc=$?
	[ "$rc" = 0 ] || { status=3; rm -f -- "$out/$label.json"; }
	merged+=("$label: ${#files[@]} of its $boots boots gave a result; ${line#"$out/"}")
}
if [ "$boots" != 1 ]; then
	for k in "${kernels[@]}"; do merge_boots "$(label_of "$k")"; done
fi

echo
if [ "$boots" = 1 ]; then
	echo "== kernels (results and test cases in $out)"
else
	echo "== kernels, $boots boots each, alternating (results and test cases in $out: LABEL.bootK.*"
	echo "   of each boot, LABEL.json the sub-runs of all of a kernel's boots, which compare judges)"
fi
printf '%s\n' "${summary[@]}"
[ ${#merged[@]} = 0 ] || printf '%s\n' "${merged[@]}"
if [ -z "$accel" ]; then
	echo "These figures come from TCG (qemu emulating every instruction, the guests' timers riding"
	echo "on the host's scheduling): plumbing, not performance.  A regression below says the"
	echo "kernels booted, ran and compared, nothing about how they schedule; for that, KVM or"
	echo "real hardware (README, 'Figures from TCG')."
fi
# boot_names LABEL: the results merged into LABEL.json, by their names in $out.
boot_names() { local f; for f in ${results_of[$1]}; do printf ' %s' "${f#"$out/"}"; done; }
cd "$out"
for k in "${kernels[@]:1}"; do
	label=$(label_of "$k")
	[ -s "$first.json" ] && [ -s "$label.json" ] || continue
	echo
	echo "== interbench compare $first.json $label.json"
	[ "$boots" = 1 ] || echo "   the sub-runs of every boot that gave a result:$(boot_names "$first") against$(boot_names "$label")"
	rc=0
	"$bin" compare ${threshold:+--threshold "$threshold"} "$first.json" "$label.json" || rc=$?
	echo "exit status $rc"
	[ "$rc" = 3 ] && rc=4   # compare's undecided; 3 is the matrix's own failure
	[ "$(status_rank "$rc")" -le "$(status_rank "$status")" ] || status=$rc
done
echo
echo "kernel matrix: wall time $(($(date +%s) - start_s)) s, exit status $status"
exit "$status"
