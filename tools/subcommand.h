/* interbench's subcommands, in one table: main dispatches from it (interbench.c), -h lists
 * it (run/options.h options_usage, through subcommand_usage) and shell completion walks it
 * (tools/completion.c), so a subcommand is added in one place. */
#ifndef IB_SUBCOMMAND_H
#define IB_SUBCOMMAND_H
#include <stdio.h>
#include "lib/optspec.h"

/* One subcommand: `interbench NAME ...`. */
struct subcommand {
	const char *name;   /* argv[1]: "compare" */
	/* Runs it: argv[0] is the name; writes its answer to out and its errors to err.  Returns
	 * the exit status (2: a usage error, said on err). */
	int (*main)(int argc, char **argv, FILE *out, FILE *err);
	/* Its option table, whose help is its --help and whose names completion offers; NULL for
	 * one without options (completion, whose word is a shell). */
	const struct optspec *(*options)(unsigned *n);
	/* Its one line in interbench -h, after "interbench NAME ": its arguments and, in
	 * brackets, where its help is or what it does. */
	const char *usage;
};

/* The subcommands, in the order -h and completion list them. */
extern const struct subcommand subcommands[];
extern const unsigned subcommand_count;

/* The subcommand called name, or NULL (name may be NULL). */
const struct subcommand *subcommand_find(const char *name);

/* Writes -h's line of each subcommand: "       PROG NAME USAGE". */
void subcommand_usage(FILE *f, const char *prog);

#endif
