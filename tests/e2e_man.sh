#!/usr/bin/env bash
# The man page as a reader sees it: man/interbench.8 rendered by mandoc and by man (groff), 80
# columns, and the text checked for what lint does not catch (`mandoc -Tlint` passes them):
# a hyphen glued to a word that is no option (an `Fl` macro swallowing the plain words after it:
# "-the -CPU -placement"), quotes nested in quotes (a `Ql` inside another one's line:
# "(‘500us, ‘2ms’’)"), a line over 80 columns.  The options are those interbench --help-all
# and the subcommands' --help list, and any single letter (top -d, sudo -E); a bundle of short
# letters (-bcqruv) counts when each is one of interbench's;
# quoted literal text (‘--N’) is the page's own.  A renderer not installed is a skip, said.
# Usage: tests/e2e_man.sh ./interbench
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin man "${1:-}"
e2e_run_dir
PAGE="$E2E_TREE/man/interbench.8"

for sub in "" compare export plot; do
	if [ -n "$sub" ]; then "$BIN" "$sub" --help; else "$BIN" --help-all; fi
done 2>&1 | grep -oE -- '(^|[ ,[])--?[A-Za-z0-9][A-Za-z0-9-]*' | sed 's/^[ ,[]//' | sort -u >known.txt

cat >check.py <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
known = set(open(sys.argv[2]).read().split())
shorts = {k[1] for k in known if re.fullmatch(r"-[A-Za-z0-9]", k)}
problems = []
for n, line in enumerate(text.splitlines(), 1):
    if len(line) > 80:
        problems.append(f"line {n}: {len(line)} columns: {line.strip()}")
    for m in re.finditer(r"(?<![\w/.=~‘'`-])(--?)([A-Za-z][A-Za-z0-9_-]*)", line):
        dashes, word = m.groups()
        tok = (dashes + word).rstrip("-")
        # a single letter may be another program's option (top -d, sudo -E); a glued word is
        # two letters or more
        if tok in known or (dashes == "-" and (len(word) == 1 or all(c in shorts for c in word))):
            continue
        problems.append(f"line {n}: '{tok}' is no option: {line.strip()}")
    depth = 0
    for ch in line:
        depth += ch in "‘“"
        if depth > 1:
            problems.append(f"line {n}: quotes nested in quotes: {line.strip()}")
            break
        if ch in "’”":
            depth = max(0, depth - 1)
print("\n".join(problems))
sys.exit(1 if problems else 0)
PY

# render NAME FILE: the check of FILE, a rendering by NAME
render_check() {
	if python3 check.py "$2" known.txt >"$1.problems"; then ok "$1: the page renders clean at 80 columns ($(wc -l <"$2") lines)"
	else bad "$1: garbled text in the rendered page" "$1.problems"; fi
}

# the check fails on the garbling it looks for (a sample of each)
printf '%s\n' 'such as -t, -L, -the -CPU -placement, and' '(‘500us, ‘2ms’’)' "$(printf 'x%.0s' $(seq 81))" \
	'interbench [-bcqruv] --budget ‘--N’' >sample.txt
python3 check.py sample.txt known.txt >sample.problems
if [ "$(grep -c "is no option" sample.problems)" = 3 ] && grep -q "quotes nested" sample.problems &&
   grep -q "81 columns" sample.problems && ! grep -q -- "-bcqruv\|--budget\|--N" sample.problems
then ok "the check finds glued hyphens, nested quotes and wide lines, and passes options and literals"
else bad "the check on a sample" sample.problems; fi

if command -v mandoc >/dev/null; then
	LC_ALL=C.UTF-8 mandoc -Tutf8 -Owidth=80 "$PAGE" | col -bx >mandoc.txt
	render_check mandoc mandoc.txt
else skip "mandoc not installed: the page not rendered by mandoc"; fi
if command -v man >/dev/null && command -v groff >/dev/null; then
	LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$PAGE" 2>man.err | col -bx >man.txt
	render_check "man (groff)" man.txt
	if [ -s man.err ]; then bad "man -l: warnings" man.err; fi
else skip "man or groff not installed: the page not rendered by man"; fi
e2e_end
