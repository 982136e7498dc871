#!/bin/bash
# End to end: the Phoronix Test Suite profile, contrib/pts/interbench.  Its XML is well-formed
# and agrees with the run script (interbench-run.sh, the test executable PTS runs) and with
# the release; the run script passes every option combination the profile offers through to
# interbench and fails as interbench fails; install.sh builds and installs, or says it did
# not; and a real 2 s Audio/None run through the run script gives, for every result parser
# of results-definition.xml, exactly one line with a number, as PTS would parse it.
# Usage: e2e_pts.sh BINARY
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin pts "${1:?usage: $0 path/to/interbench}"
e2e_run_dir
PROFILE="$E2E_TREE/contrib/pts/interbench"
RUN="$PROFILE/interbench-run.sh"

# check NAME COMMAND...: ok when COMMAND succeeds, else bad with its output.
check() {
	local name=$1; shift
	if "$@" >"$out" 2>&1; then ok "$name"; else bad "$name" "$out"; fi
}

check "the XML files are well-formed, the results parsers complete" python3 - "$PROFILE" <<'PY'
import sys, xml.etree.ElementTree as ET
d = sys.argv[1]
for f in ("test-definition.xml", "results-definition.xml", "downloads.xml"):
    ET.parse(f"{d}/{f}")
parsers = ET.parse(f"{d}/results-definition.xml").getroot().findall("ResultsParser")
want = {"mean_latency_ms", "p99_latency_ms", "max_latency_ms", "desired_cpu_pct", "deadlines_met_pct"}
got = {p.findtext("OutputTemplate").split(":")[0] for p in parsers}
assert want <= got, f"missing parsers: {want - got}"
for p in parsers:  # a time is ms and lower is better, a share % and higher is better
    t, scale, prop = p.findtext("OutputTemplate"), p.findtext("ResultScale"), p.findtext("ResultProportion")
    unit, better = ("ms", "LIB") if t.split(":")[0].endswith("_ms") else ("%", "HIB")
    assert scale.split(",")[0].split()[0] == unit and prop == better, (t, scale, prop)
# PTS keeps a run's figures apart by description, and drops one equal to an earlier one
# unless the parsers append to the description (results-definition.xml says where)
names = [p.findtext("AppendToArgumentsDescription") for p in parsers]
assert all(names) and len(set(names)) == len(names), f"figures' names: {names}"
PY

# The release: the tarball downloads.xml names is the one install.sh unpacks and the one
# `make dist` of this tree makes, interbench-VERSION.tar.gz, and AppVersion is VERSION.
version=$(sed -n 's/^VERSION *:= *//p' "$E2E_TREE/Makefile")
check "downloads.xml, install.sh and AppVersion name release $version" python3 - "$PROFILE" "$version" <<'PY'
import re, sys, xml.etree.ElementTree as ET
d, v = sys.argv[1], sys.argv[2]
names = [p.findtext("FileName") for p in ET.parse(f"{d}/downloads.xml").getroot().iter("Package")]
assert names == [f"interbench-{v}.tar.gz"], names
assert re.search(rf"^tarball=interbench-{re.escape(v)}\.tar\.gz$", open(f"{d}/install.sh").read(), re.M)
assert ET.parse(f"{d}/test-definition.xml").getroot().findtext("TestInformation/AppVersion") == v
PY

# The options: the run script's usage names exactly the options test-definition.xml passes
# (its default arguments and each option's prefix), and each menu value is a simulated task
# or a load interbench --help-all lists.
sh "$RUN" >usage.txt 2>&1; rc=$?
"$BIN" --help-all >help.txt 2>&1
check "the run script's options are those test-definition.xml passes (usage: exit $rc)" python3 - "$PROFILE" usage.txt help.txt "$rc" <<'PY'
import re, sys, xml.etree.ElementTree as ET
d, usage, help_, rc = sys.argv[1], open(sys.argv[2]).read(), open(sys.argv[3]).read(), sys.argv[4]
assert rc == "2" and usage.startswith("usage: "), (rc, usage)
accepted = set(re.findall(r"(?<![\w-])-[A-Za-z]\b", usage))
root = ET.parse(f"{d}/test-definition.xml").getroot()
passed = {a for a in root.findtext("TestSettings/Default/Arguments").split() if a.startswith("-")}
def section(title):  # the names of the "  Name  what" lines below TITLE:
    lines = help_.split(title + ":\n")[1].splitlines()
    return {l.split()[0].lower() for l in lines[:next(i for i, l in enumerate(lines + [""]) if not l.startswith("  "))]}
lists = {"-W": section("Simulated tasks"), "-w": section("Loads")}
for o in root.iter("Option"):
    prefix = o.findtext("ArgumentPrefix").strip()
    passed.add(prefix)
    values = [e.findtext("Value") for e in o.iter("Entry")]
    assert values and all(v.lower() in lists[prefix] for v in values), (prefix, values, lists[prefix])
assert passed == accepted, f"test-definition.xml passes {sorted(passed)}, the run script takes {sorted(accepted)}"
PY

# Every combination PTS can pass, through a stand-in interbench that records its arguments:
# the run script runs the one pair for the default time, then exports its metrics.
cat >stub <<'SH'
#!/bin/sh
echo "$*" >>"$STUB_LOG"
[ "$1" = export ] && echo "audio.none.mean_latency_ms: 1.000000"
exit "${STUB_RC:-0}"
SH
chmod +x stub
python3 - "$PROFILE" >combos.txt <<'PY'
import itertools, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1] + "/test-definition.xml").getroot()
menus = [[o.findtext("ArgumentPrefix") + e.findtext("Value") for e in o.iter("Entry")] for o in root.iter("Option")]
for combo in itertools.product(*menus):
    print(root.findtext("TestSettings/Default/Arguments"), *combo)
PY
n=0 wrong=0
while read -r -a args; do
	n=$((n + 1))
	rm -f stub.log
	if ! STUB_LOG=stub.log INTERBENCH=./stub sh "$RUN" "${args[@]}" >stub.out 2>&1 ||
	   [ "$(cat stub.log)" != "-c ${args[*]} --json interbench-result.json
export --format metrics interbench-result.json" ]; then
		wrong=$((wrong + 1))
		echo "${args[*]}: $(cat stub.out stub.log 2>/dev/null)" >>"$TMP/wrong.txt"
	fi
done <combos.txt
if [ "$n" -gt 1 ] && [ "$wrong" = 0 ]; then ok "the run script takes all $n option combinations to interbench"
else bad "the run script takes $((n - wrong)) of $n option combinations to interbench" "$TMP/wrong.txt"; fi

rm -f stub.log test-exit-status
STUB_LOG=stub.log STUB_RC=1 LOG_FILE="$PWD/failed.log" HOME="$PWD" INTERBENCH=./stub \
	sh "$RUN" -t 1 -W Audio -w None >/dev/null 2>&1; rc=$?
if [ "$rc" = 1 ] && [ "$(cat test-exit-status 2>/dev/null)" = 1 ] && [ "$(wc -l <stub.log)" = 1 ]; then
	ok "interbench failing: exit 1, 1 in ~/test-exit-status, no export"
else bad "interbench failing: exit $rc, ~/test-exit-status '$(cat test-exit-status 2>/dev/null)'" stub.log; fi

# install.sh on a stand-in release whose make writes a stand-in binary: ./interbench is the
# run script and ~/install-exit-status 0; when make fails, 1.
install_with() { # install_with MAKE_RECIPE: runs install.sh in a fresh ./inst as PTS does
	rm -rf inst rel && mkdir -p inst "rel/interbench-$version"
	printf 'interbench:\n\t%s\n' "$1" >"rel/interbench-$version/Makefile"
	tar -C rel -czf "inst/interbench-$version.tar.gz" "interbench-$version"
	(cd inst && HOME="$PWD" sh "$PROFILE/install.sh" "$PWD" >install.out 2>&1)
}
install_with "printf '#!/bin/sh\\necho interbench $version\\n' >interbench && chmod +x interbench"
if [ "$(cat inst/install-exit-status 2>/dev/null)" = 0 ] && cmp -s inst/interbench "$RUN" && [ -x inst/interbench ] &&
   [ -x inst/interbench-src/interbench ]; then ok "install.sh: built, ./interbench the run script, status 0"
else bad "install.sh: status '$(cat inst/install-exit-status 2>/dev/null)'" inst/install.out; fi
install_with "false"
if [ "$(cat inst/install-exit-status 2>/dev/null)" = 1 ] && grep -q 'make failed' inst/install.out; then
	ok "install.sh: make failing, status 1"
else bad "install.sh with make failing: status '$(cat inst/install-exit-status 2>/dev/null)'" inst/install.out; fi

# The real thing: the run script as PTS runs it (HOME the directory it runs in, LOG_FILE
# set), then every result parser against the log as pts-core/objects/pts_test_result_parser.php
# (phoronix-test-suite) reads it: the lines holding the template's text before #_RESULT_#,
# split on blanks, the value the word at #_RESULT_#'s place.
rm -f test-exit-status
LOG_FILE="$PWD/pts.log" HOME="$PWD" INTERBENCH="$BIN" sh "$RUN" -t 2 -W Audio -w None >run.out 2>&1; rc=$?
if [ "$rc" = 0 ] && [ "$(cat test-exit-status 2>/dev/null)" = 0 ] && [ ! -s run.out ] && [ -s interbench-result.json ]
then ok "a 2 s Audio/None run: exit 0, 0 in ~/test-exit-status, all output in LOG_FILE"
else bad "a 2 s Audio/None run: exit $rc, ~/test-exit-status '$(cat test-exit-status 2>/dev/null)'" pts.log; fi
check "each result parser finds one line and a number in the run's log" python3 - "$PROFILE" pts.log <<'PY'
import re, sys, xml.etree.ElementTree as ET
log = open(sys.argv[2]).read().splitlines()
words = lambda s: re.sub(r"[()\t]", " ", s.replace("=", " = ")).split()
for p in ET.parse(sys.argv[1] + "/results-definition.xml").getroot().findall("ResultsParser"):
    t = p.findtext("OutputTemplate")
    key = t[:t.index("#_RESULT_#")].strip()
    pos = words(t.replace(":#", " #")).index("#_RESULT_#")
    lines = [l for l in log if key in l]
    assert len(lines) == 1, f"{key}: {len(lines)} lines: {lines}"
    value = float(words(lines[0])[pos])
    print(f"{p.findtext('AppendToArgumentsDescription')}: {value} {p.findtext('ResultScale')}")
PY
sed 's/^/       /' "$out"

e2e_end
