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

void text_slug(const char *s, char *out, size_t outlen)
{
	size_t n = 0;
	bool dash = false;
	if (outlen == 0)
		return;
	for (; *s && n + 1 < outlen; s++) {
		char c = *s >= 'A' && *s <= 'Z' ? (char)(*s - 'A' + 'a') : *s;
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) {
			dash = n > 0;
			continue;
		}
		if (dash && n + 2 >= outlen)
			break;  /* no room for '-' and a character */
		if (dash)
			out[n++] = '-';
		dash = false;
		out[n++] = c;
	}
	out[n] = '\0';
}
