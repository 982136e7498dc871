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
order=(lib host calibrate explain engine loadkit workloads run report tools)
rc=0

# includes: "FILE INCLUDED" for every quoted include of the product.
includes() {
	grep -RHo --include='*.[ch]' '^#include "[^"]*"' "${order[@]}" interbench.c |
		grep -v '\.skel\.h"$' | sed 's/:#include "\(.*\)"/ \1/'
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
