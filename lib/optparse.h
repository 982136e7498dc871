/* A command line parsed with getopt_long(3) from optspec tables (lib/optspec.h): the getopt
 * tables are built from the options, each value is stored as optspec_set stores it, and what
 * went wrong is handed back for the command to word its own message.  The main command
 * (run/options.c) and the subcommands (tools/compare.c, export.c, plot.c) parse with it. */
#ifndef IB_OPTPARSE_H
#define IB_OPTPARSE_H
#include <stdbool.h>
#include <stddef.h>
#include "lib/optspec.h"
#include "lib/suggest.h"

/* What stopped the parse. */
enum optparse_fault_kind {
	OPTPARSE_UNKNOWN,    /* an option not in the tables, or a value given to one taking none */
	OPTPARSE_MISSING,    /* an option's value is missing (the last word) */
	OPTPARSE_BAD_VALUE,  /* optspec_set refused the value */
	OPTPARSE_NO_MEMORY,  /* the getopt tables could not be allocated */
};

struct optparse_fault {
	enum optparse_fault_kind kind;
	const struct optspec *spec;  /* MISSING, BAD_VALUE: the option; else NULL */
	int letter;                  /* getopt's optopt: the unknown short letter; 0 for an unknown
	                                long option; the option's own value (its short letter or
	                                256 + its index) for a value given to one taking none */
	const char *word;            /* argv[optind - 1] when the fault was found: the word as given
	                                (after a bundle of short letters it can be an earlier word,
	                                as getopt leaves optind) */
	const char *value;           /* BAD_VALUE: the value as given; else NULL */
	char what[512];              /* BAD_VALUE: optspec_set's reason ("invalid value"); else "" */
	/* "Did you mean": for an unknown long option, the nearest option's name ("--budget"); for
	 * a MASK's or CHOICE's unknown value, the nearest name (optspec_suggest); else "". */
	char suggest[SUGGEST_MAX_LEN + 3];
};

/* A command line's options: n of them, option i described by spec(ctx, i) and its value
 * stored by set(ctx, i, ...), which returns as optspec_set does. */
struct optparse {
	unsigned n;
	const struct optspec *(*spec)(void *ctx, unsigned i);
	int (*set)(void *ctx, unsigned i, const char *arg, char *what, size_t whatlen);
	void *ctx;
	bool in_order;  /* the options end at the first operand (getopt's leading '+'); else
	                   operands and options may be mixed (GNU getopt permutes them) */
};

/* Parses argv (argv[0] the command's name) from the start (optind reset, getopt's own messages
 * off).  Returns OPTSPEC_SET with optind at the first operand, an ACTION option's .action (the
 * parse stops there), or OPTSPEC_BAD with *f saying why. */
int optparse_run(const struct optparse *p, int argc, char **argv, struct optparse_fault *f);

/* optparse_run over the n options of specs, every value going into base. */
int optparse_table(const struct optspec *specs, unsigned n, void *base, bool in_order, int argc, char **argv,
		   struct optparse_fault *f);

#endif
