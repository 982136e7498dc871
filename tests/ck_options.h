/* The main command line parsed for the tests (tests/check_options.c, check_sweep.c). */
#ifndef IB_CK_OPTIONS_H
#define IB_CK_OPTIONS_H
#include <stdarg.h>
#include "core/options.h"
#include "tests/ck_args.h"

/* Sets o's defaults and parses "interbench", first and the rest of ap up to its NULL into it,
 * err (errlen bytes) emptied first.  Returns options_parse's status. */
static inline enum opt_status ck_options_parse(struct options *o, char *err, size_t errlen, const char *first,
					       va_list ap)
{
	char *argv[CK_ARGV_MAX];
	int argc = ck_argv(argv, first, ap);
	options_init(o);
	err[0] = '\0';
	return options_parse(o, argc, argv, err, errlen);
}

#endif
