#!/usr/bin/env bash
# Checks the include layers of doc/adding-a-workload.md ("Where things live"):
#  1. each folder includes only from the folders listed before it (and itself), subfolders
#     (explain/bpf/) counted with their folder; interbench.c, the wiring, may include any;
#  2. lib/ is the floor many modules stand on: each lib/ header is included by files of at
#     least two other folders (interbench.c counts as one), directly or through another lib/
#     header they include.  A module only one folder uses belongs in that folder.
# Prints the include graph between folders (folder -> folders it includes, with counts) and
# exits 1 naming each offending include or module.
set -euo pipefail
cd "$(dirname "$0")/.."
# The layers, in order: the Makefile's FOLDERS (the folders it builds), so a folder it builds
# is a folder checked here.
read -r -a order < <(make -s --no-print-directory print-FOLDERS)
rc=0
for d in */; do
	d=${d%/}
	case " ${order[*]} tests bench ci contrib debian doc man " in
	*" $d "*) ;;
	*) if compgen -G "$d/*.c" >/dev/null || compgen -G "$d/*.h" >/dev/null; then
		echo "layers: $d/ holds C but is not in the Makefile's FOLDERS"; rc=1
	   fi ;;
	esac
done

# includes: "FILE INCLUDED" for every include of the product that names a file of it, quoted
# or in angle brackets ("lib/text.h", <lib/text.h>: -I. finds both), however spaced.
includes() {
	local re
	re=$(IFS='|'; echo "${order[*]}")
	grep -RHE --include='*.[ch]' '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' "${order[@]}" interbench.c |
		sed -nE 's/^([^:]*):[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([^>"]*)[>"].*/\1 \2/p' |
		grep -E " ($re)/" | grep -v '\.skel\.h$' || true
}

for ((i = 0; i < ${#order[@]}; i++)); do
	dir=${order[i]}
	allowed=" ${order[*]:0:i+1} "
	while read -r file inc; do
		case "$allowed" in
		*" ${inc%%/*} "*) ;;
		*) echo "layers: $file includes $inc (a $dir/ file may include only:$allowed)"; rc=1 ;;
		esac
	done < <(includes | awk -v d="$dir/" 'index($1, d) == 1')
done

echo "include graph (folder -> folder: includes):"
includes | awk '{ split($1, a, "/"); f = (a[2] == "" ? "interbench.c" : a[1]); split($2, b, "/");
	if (f != b[1]) n[f " -> " b[1]]++ } END { for (k in n) printf "  %s: %d\n", k, n[k] }' | sort

# lib_users H: the folders (not lib) whose files include lib header H, or a lib header that
# includes H.
lib_users() {
	local h=$1 via
	includes | awk -v h="$h" '$2 == h { split($1, a, "/"); print (a[2] == "" ? "interbench.c" : a[1]) }' |
		grep -vx lib || true
	for via in $(includes | awk -v h="$h" '$2 == h && $1 ~ /^lib\/.*\.h$/ { print $1 }'); do
		lib_users "$via"
	done
}
for h in lib/*.h; do
	users=$(lib_users "$h" | sort -u)
	if (($(printf '%s' "$users" | grep -c .) < 2)); then
		echo "layers: $h is used by ${users:-no folder} alone; lib/ holds what at least two other folders use"
		rc=1
	fi
done
exit $rc
