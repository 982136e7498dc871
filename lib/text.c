#include <math.h>
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

void text_wrap(FILE *f, const char *line, size_t width, const char *indent)
{
	size_t lead = strlen(indent);
	const char *at = line;
	bool first = true;
	for (;;) {
		size_t room = first ? width : width > lead ? width - lead : 1, len = strlen(at), cut = len;
		if (len > room) {
			cut = room;
			while (cut > 0 && at[cut] != ' ')
				cut--;
			if (strspn(at, " ") >= cut)   /* one long word: up to the next space */
				cut = strcspn(at + room, " ") + room;
		}
		fprintf(f, "%s%.*s\n", first ? "" : indent, (int)cut, at);
		at += cut;
		at += strspn(at, " ");
		if (!*at)
			return;
		first = false;
	}
}

void fmt_sig3(double v, char *buf, size_t len)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "%s", isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf"));
		return;
	}
	double a = fabs(v);
	if (a == 0.0) {
		snprintf(buf, len, "0");
		return;
	}
	int decimals = 0;
	if (a < 999.5) {
		/* Digits after the point so that three significant digits remain. */
		int mag = (int)floor(log10(a));
		decimals = 2 - mag;
		/* Rounding can carry into the next decade (9.996 -> 10.0). */
		double rounded = round(a * pow(10, decimals)) / pow(10, decimals);
		if (rounded >= pow(10, mag + 1))
			decimals--;
		if (decimals < 0)
			decimals = 0;
	}
	snprintf(buf, len, "%.*f", decimals, v);
	if (decimals > 0) {
		char *end = buf + strlen(buf) - 1;
		while (*end == '0')
			*end-- = '\0';
		if (*end == '.')
			*end = '\0';
	}
}
