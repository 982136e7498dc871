#!/usr/bin/env bash
# Checks that the JSON result's keys are defined once: every key named by a constant in
# report/jsonkeys.h (JK_*) or explain/json.h (EK_*) is used through that constant by every
# writer and reader (each .c file of report/, explain/ and tools/), never typed there again as
# a quoted literal in code (comments are left out by a scanner that knows C's comments and
# strings).  The figures' keys, defined by the figure table, are checked the same way by
# tests/check_figures.c.  Exits 1 naming each literal, file and line.
set -euo pipefail
cd "$(dirname "$0")/.."
defs=(report/jsonkeys.h explain/json.h)
files=(report/*.c explain/*.c tools/*.c)
# The same word with another meaning, each allowed on the one line holding the text after the
# second '|': an owner's name in --explain's JSON, a cause's name, compare's own list of the
# pairs that failed, the option --run's name, KCIDB's measurement value.
others=(
	'explain/json.c|load|return owner == EXPLAIN_OWNER_LOAD ? "load"'
	'explain/model.c|interrupted|[EXPLAIN_INTERRUPTED] = "interrupted"'
	'tools/compare.c|failed|json_push(t, "failed"'
	'tools/compare.c|culprits|"owners_pct", owners, "culprits"'
	'tools/export.c|run|.long_name = "run"'
	'tools/export.c|value|"value", c->value'
)
rc=0

keys=$(sed -n 's/^#define [JE]K_[A-Z0-9_]*[[:space:]]*"\([a-z_0-9]*\)".*/\1/p' "${defs[@]}" | sort -u)
[ -n "$keys" ] || { echo "jsonkeys: no key constant found in ${defs[*]}"; exit 1; }

# code FILE: its lines with every comment blanked (newlines kept), strings and characters kept.
code() {
	python3 - "$1" <<'PY'
import sys
s, out, i, n = open(sys.argv[1]).read(), [], 0, 0
n = len(s)
while i < n:
    c = s[i]
    if s.startswith("/*", i):
        j = s.find("*/", i + 2); j = n if j < 0 else j + 2
        out.append("".join(ch if ch == "\n" else " " for ch in s[i:j])); i = j
    elif s.startswith("//", i):
        j = s.find("\n", i); j = n if j < 0 else j
        out.append(" " * (j - i)); i = j
    elif c in "\"'":
        j = i + 1
        while j < n and s[j] != c and s[j] != "\n":
            j += 2 if s[j] == "\\" else 1
        out.append(s[i:j + 1]); i = j + 1
    else:
        out.append(c); i += 1
sys.stdout.write("".join(out))
PY
}

# allowed FILE KEY TEXT: whether the line TEXT of FILE may type KEY.
allowed() {
	local o
	for o in "${others[@]}"; do
		[[ "$o" == "$1|$2|"* && "$3" == *"${o#"$1|$2|"}"* ]] && return 0
	done
	return 1
}

for f in "${files[@]}"; do
	while IFS=: read -r line text; do
		for k in $keys; do
			case "$text" in
			*"\"$k\""*)
				allowed "$f" "$k" "$text" && continue
				echo "jsonkeys: $f:$line types \"$k\" (use its constant from ${defs[*]})"
				rc=1 ;;
			esac
		done
	done < <(code "$f" | grep -n '"[a-z_0-9]*"' || true)
done
n=$(echo "$keys" | wc -l)
[ $rc -eq 0 ] && echo "jsonkeys: $n keys, each typed once (${defs[*]}), none again in the ${#files[@]} files of report/, explain/ and tools/"
exit $rc
