#!/bin/zsh -f
# zsh-complete.zsh FPATH OUT LINE...: types each LINE into an interactive zsh (on a
# pseudo-terminal, zsh/zpty) whose completion system (compinit) finds its functions in FPATH,
# presses TAB, then writes the edit buffer to OUT as "<BUFFER>" and, to OUT.words, each match
# the completion offered (the words compadd was given after its options; one line per compadd
# call) and a line "---" after each LINE.  Waits for every LINE's buffer, 10 s at most.
# zshzle(1) for widgets and the buffer, zshcompwid(1) for compadd, zshmodules(1) for zpty.
zmodload zsh/zpty || exit 1
dir=$1 out=$2
shift 2
: >$out
: >$out.words
zpty z zsh -f -i
# -D alone: no dump file read or written.  (A -d after it turns dumping back on, compinit's
# options being read in order: `-D -d /dev/null` had root's compdump replace /dev/null with a
# regular file; /usr/share/zsh/functions/Completion/compinit, its -d and -D.)
zpty -w z "fpath=($dir \$fpath); autoload -Uz compinit; compinit -u -D"
# compadd's options end at '-' (or at its first word that is not one); what follows are matches
zpty -w z "compadd() { local -a a=(\"\$@\"); local i=\${a[(i)-]}; print -r -- \"\${a[i+1,-1]}\" >>$out.words; builtin compadd \"\$@\"; }"
zpty -w z "dump() { print -r -- \"<\$BUFFER>\" >>$out; print -r -- --- >>$out.words; BUFFER=''; }; zle -N dump; bindkey '^X' dump"
for line in "$@"; do
	zpty -w -n z "$line"$'\t'$'\C-x'
done
for i in {1..100}; do
	(( $(wc -l <$out) >= $# )) && break
	sleep 0.1
done
zpty -d z
(( $(wc -l <$out) >= $# ))
