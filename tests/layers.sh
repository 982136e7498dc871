#!/usr/bin/env bash
# Checks the include layers of doc/adding-a-workload.md: each directory includes only from the
# layers listed before it (and itself).  Exit 1 naming each offending include.
set -euo pipefail
cd "$(dirname "$0")/.."
order=(lib calibrate sims loads workloads core results)
rc=0
for ((i = 0; i < ${#order[@]}; i++)); do
	dir=${order[i]}
	allowed=" ${order[*]:0:i+1} "
	while IFS=: read -r file _ inc; do
		top=${inc%%/*}
		case "$allowed" in
		*" $top "*) ;;
		*) echo "layers: $file includes $inc (a $dir file may include only:$allowed)"; rc=1 ;;
		esac
	done < <(grep -Ho '^#include "[^"]*"' "$dir"/*.[ch] | sed 's/#include "\(.*\)"/\1/' | awk -F: '{print $1 ":" 0 ":" $2}')
done
exit $rc
