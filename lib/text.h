/* Small text helpers shared by the command-line parsers. */
#ifndef IB_TEXT_H
#define IB_TEXT_H

/* Replaces every control character (below 0x20, and DEL) in s with '?', so a message that
 * quotes user input stays on one printable line.  s must be NUL-terminated. */
static inline void text_printable_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

#endif
