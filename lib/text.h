/* Small text helpers shared by the command-line parsers. */
#ifndef IB_TEXT_H
#define IB_TEXT_H
#include <stddef.h>
#include <string.h>

/* Replaces every control character (below 0x20, and DEL) in s with '?', so a message that
 * quotes user input stays on one printable line.  s must be NUL-terminated. */
static inline void text_printable_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

/* Copies in to out (outlen bytes, NUL-terminated, cut short if need be) as one printable line:
 * a backslash becomes "\\", a newline "\n", a tab "\t", any other control character (below
 * 0x20, and DEL) "\xHH".  Free text written to the logfile (the -m comment, failure reasons,
 * uname) goes through it, so it can never start a line of its own and forge a table. */
static inline void text_escape_line(const char *in, char *out, size_t outlen)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;
	if (outlen == 0)
		return;
	for (; *in; in++) {
		unsigned char c = (unsigned char)*in;
		char esc[5] = { (char)c, 0 };
		if (c == '\\' || c == '\n' || c == '\t')
			esc[0] = '\\', esc[1] = c == '\n' ? 'n' : c == '\t' ? 't' : '\\', esc[2] = 0;
		else if (c < 0x20 || c == 0x7f)
			esc[0] = '\\', esc[1] = 'x', esc[2] = hex[c >> 4], esc[3] = hex[c & 15], esc[4] = 0;
		size_t n = strlen(esc);
		if (o + n >= outlen)
			break;
		memcpy(out + o, esc, n);
		o += n;
	}
	out[o] = '\0';
}

#endif
