/* The main command line parsed for the tests (tests/check_options.c, check_sweep.c): parse()
 * and err, val(). */
#ifndef IB_CK_OPTIONS_H
#define IB_CK_OPTIONS_H
#include <check.h>
#include <stdarg.h>
#include "run/options.h"
#include "tests/ck_args.h"

/* The message of the last parse that failed ("" after one that did not). */
static char err[512];

/* Sets o's defaults and parses "interbench", first and the arguments after it up to a NULL
 * into it, err emptied first.  Returns options_parse's status. */
static enum opt_status parse(struct options *o, const char *first, ...)
{
	char *argv[CK_ARGV_MAX];
	va_list ap;
	va_start(ap, first);
	int argc = ck_argv(argv, first, ap);
	va_end(ap);
	options_init(o);
	err[0] = '\0';
	return options_parse(o, argc, argv, err, sizeof(err));
}

/* The value of option long_name in o, as text (options_get; a failure fails the test). */
static const char *val(const struct options *o, const char *long_name)
{
	static char buf[256];
	ck_assert_int_eq(options_get(o, long_name, buf, sizeof(buf)), 0);
	return buf;
}

#endif
