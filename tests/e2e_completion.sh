#!/bin/bash
# End to end: `interbench completion bash`, the bash completion script generated from the
# option tables.  Sourced into bash, it completes every option that --help-all (and each subcommand's
# --help) lists from its first characters, --bench-po to --bench-policy, the workloads after
# -W and -w (the last item of a comma list alone), a choice's values, the subcommands; another
# shell is refused in one line; `interbench completion zsh`, in an interactive zsh, offers the
# same options and completes the same values.  Usage: e2e_completion.sh BINARY
set -u
tests=$(cd "$(dirname "$0")" && pwd)
. "$tests/lib/e2e.sh"
e2e_begin completion "${1:?usage: $0 path/to/interbench}"
e2e_run_dir

"$BIN" completion bash >c.bash 2>err.txt; rc=$?
if [ "$rc" = 0 ] && bash -n c.bash && [ ! -s err.txt ]; then ok "completion bash: a script bash parses"
else bad "completion bash (exit $rc)" err.txt; fi

# complete WORD...: what the script offers for the last word of "interbench WORD..." (with
# the shell options in SHOPT set, and IFS as in IFS_SET when given), and what it printed.
cat >complete.sh <<'SH'
. ./c.bash
[ -n "${SHOPT:-}" ] && shopt -s $SHOPT
[ -n "${IFS_SET:-}" ] && IFS=$IFS_SET
COMP_WORDS=(interbench "$@")
COMP_CWORD=$#
_interbench
printf '%s\n' "${COMPREPLY[@]}"
SH
complete() { bash complete.sh "$@" 2>&1; }

# help_of SUB: the option that lists every option of SUB (the main command's --help-all, whose
# -h leaves the workloads' own and the details out)
help_of() { if [ -n "$1" ]; then echo --help; else echo --help-all; fi; }
# every long option a help text lists, completed from its first 6 characters
# options_of HELPTEXT: the long options of its option lines ("  -t, --duration SECS", "  --json FILE")
options_of() { grep -oE '^ +(-[A-Za-z0-9], )?--[a-z0-9-]+' "$1" | grep -oE -- '--[a-z0-9-]+$' | sort -u; }
missing=""
n=0
for sub in "" compare export plot; do
	"$BIN" $sub "$(help_of "$sub")" >help.txt 2>&1
	for opt in $(options_of help.txt); do
		n=$((n + 1))
		complete $sub "${opt:0:6}" | grep -qx -- "$opt" || missing="$missing ${sub:-main}:$opt"
	done
done
if [ "$n" -gt 60 ] && [ -z "$missing" ]; then ok "every option of -h and of compare, export and plot --help completes ($n)"
else bad "options that do not complete ($n listed):$missing"; fi

if [ "$(complete --bench-po)" = "--bench-policy" ]; then ok "--bench-po completes to --bench-policy"
else bad "--bench-po: '$(complete --bench-po | tr '\n' ' ')'"; fi

if complete -W Au | grep -qx Audio && [ "$(complete -t 5 -w Burn,Ha)" = "Burn,Hack" ] &&
   complete export --format m | grep -qx metrics && complete export --format m | grep -qx markdown && complete co | grep -qx compare &&
   complete compare --match simulation,l | grep -qx simulation,load &&
   [ -z "$(complete -t 5)" ]
then ok "workloads after -W/-w (a comma list's last item alone), --format's and --match's values (a comma inside a value kept), the subcommands"
else bad "values: -W Au '$(complete -W Au | tr '\n' ' ')', -w Burn,Ha '$(complete -t 5 -w Burn,Ha | tr '\n' ' ')'"; fi

# A typed glob is a word, never matched against files (a file that matches it is here), with
# bash's default options, failglob (no "no match") and nullglob (no file names); and the lists
# split on blanks whatever IFS the user set.
touch 'Audfile,Video' 'Aud-two,Video'
globbed=""
for o in "" failglob nullglob; do
	got=$(SHOPT=$o complete -W 'Aud*,V' | tr '\n' ' ')
	[ "$got" = "Aud*,Video " ] || globbed="$globbed ${o:-default}: '$got'"
done
got=$(IFS_SET=, complete -W Vi | tr '\n' ' ')
if [ -z "$globbed" ] && [ "$got" = "Video " ]; then ok "-W 'Aud*,V' completes to 'Aud*,Video' (default, failglob, nullglob); IFS=, splits nothing"
else bad "glob or IFS in completion:$globbed; IFS=, -W Vi: '$got'"; fi
rm -f 'Audfile,Video' 'Aud-two,Video'

"$BIN" completion fish >fish.txt 2>&1; rc=$?
if [ "$rc" = 2 ] && [ "$(wc -l <fish.txt)" = 1 ] && grep -qx "interbench completion: fish: not a shell it writes for (accepted: bash, zsh)" fish.txt
then ok "completion fish: exit 2, one line naming what is accepted"; else bad "completion fish (exit $rc)" fish.txt; fi

# zsh: the script, found through fpath by compinit in an interactive zsh on a pseudo-terminal,
# offers every option each help text lists after a lone '-', and completes values as bash does
if command -v zsh >/dev/null; then
	mkdir -p zfn
	"$BIN" completion zsh >zfn/_interbench 2>err.txt; rc=$?
	if [ "$rc" = 0 ] && zsh -n zfn/_interbench && [ ! -s err.txt ]; then ok "completion zsh: a script zsh parses"
	else bad "completion zsh (exit $rc)" err.txt; fi
	mkdir -p zhome
	if HOME="$PWD/zhome" timeout 60 zsh -f "$tests/lib/zsh-complete.zsh" "$PWD/zfn" z.out 'interbench -' 'interbench compare -' \
		'interbench export -' 'interbench plot -' 'interbench --bench-po' 'interbench -W Au' \
		'interbench -t 5 -w Burn,Ha' 'interbench export --format me' 'interbench completion z' >z.err 2>&1
	then
		missing=""
		n=0
		i=0
		for sub in "" compare export plot; do
			i=$((i + 1))
			"$BIN" $sub "$(help_of "$sub")" >help.txt 2>&1
			# the matches offered for that line: the words between its (i-1)th and ith "---"
			awk -v i="$i" '$0 == "---" { k++; next } k == i - 1' z.out.words | tr ' ' '\n' >offered.txt
			for opt in $(options_of help.txt); do
				n=$((n + 1))
				grep -qx -- "$opt" offered.txt || missing="$missing ${sub:-main}:$opt"
			done
		done
		if [ "$n" -gt 60 ] && [ -z "$missing" ]; then ok "zsh: every option of -h and of compare, export and plot --help offered ($n)"
		else bad "zsh: options not offered ($n listed):$missing" z.out.words; fi
		if sed -n 5,9p z.out | tr '\n' '|' | grep -qx '<interbench --bench-policy=>|<interbench -W Audio,>|<interbench -t 5 -w Burn,Hack,>|<interbench export --format metrics >|<interbench completion zsh >|'
		then ok "zsh: --bench-po to --bench-policy=, the workloads (a comma list's item), --format's values, the shells"
		else bad "zsh: completed lines" z.out; fi
	else
		bad "zsh: an interactive zsh did not complete every line" z.err
	fi
	# compinit dumps nothing: not in HOME, not over /dev/null (as root it once made it a file)
	if [ -c /dev/null ] && [ "$(stat -c %t,%T /dev/null)" = 1,3 ] && [ -z "$(ls -A zhome)" ]
	then ok "zsh: compinit wrote no dump file (/dev/null still the null device, HOME empty)"
	else bad "zsh: compinit wrote a dump file: /dev/null $(stat -c '%F %t,%T' /dev/null), HOME holds '$(ls -A zhome)'"; fi
else
	skip "zsh completion: no zsh here ('make deps' installs it)"
fi

# make install puts it where bash-completion looks, under DESTDIR
# (-o interbench: the binary the suite built is installed as it is, never rebuilt with other flags;
# -W interbench: the scripts generated from it again all the same, never left from an older one)
make -s -o interbench -W interbench -C "$E2E_TREE" install DESTDIR="$TMP/root" PREFIX=/usr >install.txt 2>&1; rc=$?
if [ "$rc" = 0 ] && cmp -s "$TMP/root/usr/share/bash-completion/completions/interbench" c.bash &&
   { [ ! -s zfn/_interbench ] || cmp -s "$TMP/root/usr/share/zsh/site-functions/_interbench" zfn/_interbench; }
then ok "make install: the scripts in share/bash-completion/completions/interbench and share/zsh/site-functions/_interbench"
else bad "make install (exit $rc)" install.txt; fi

e2e_end
