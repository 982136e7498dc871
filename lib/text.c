#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "lib/text.h"

void text_message(FILE *f, const char *fmt, ...)
{
	char raw[4096], esc[4 * sizeof(raw)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	text_escape(raw, esc, sizeof(esc), false);
	fprintf(f, "%s\n", esc);
}
