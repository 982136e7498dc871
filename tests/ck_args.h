/* A command line for the tests that parse options (shared by tests/check_*.c). */
#ifndef IB_CK_ARGS_H
#define IB_CK_ARGS_H
#include <stdarg.h>

#define CK_ARGV_MAX 32

/* Fills argv (CK_ARGV_MAX entries) with "interbench", then first and the rest of ap up to its
 * NULL, then NULL.  Returns argc. */
static inline int ck_argv(char **argv, const char *first, va_list ap)
{
	int argc = 0;
	argv[argc++] = "interbench";
	for (const char *a = first; a && argc < CK_ARGV_MAX - 1; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	argv[argc] = NULL;
	return argc;
}

#endif
