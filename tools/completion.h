/* Shell completion for interbench, generated from its option tables (run/options.c, the
 * workloads' descriptors, and the subcommands' tables, walked from tools/subcommand.h), so
 * that it cannot drift from -h: `interbench completion bash` (or zsh) prints a completion
 * script. */
#ifndef IB_COMPLETION_H
#define IB_COMPLETION_H
#include <stdio.h>

/* The subcommand: argv[0] is "completion", argv[1] the shell ("bash" or "zsh").  Writes the
 * script to out.  Returns 0, or 2 with a one-line message on err for a missing or other
 * shell. */
int completion_main(int argc, char **argv, FILE *out, FILE *err);

#endif
