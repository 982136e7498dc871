/* Small text helpers shared by the command-line parsers and every writer of text that came from
 * outside (options, file names, result files, uname): one rule decides what may reach a
 * terminal or a logfile as it is. */
#ifndef IB_TEXT_H
#define IB_TEXT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include "lib/utf8.h"

/* Whether code point cp is one a terminal or a reader must never get as it is: C0 controls and
 * DEL (below 0x20, 0x7f), C1 controls (U+0080-U+009F: U+009B is CSI, a terminal escape in one
 * character; U+0085 a line break), the line and paragraph separators (U+2028, U+2029) and the
 * bidirectional formatting characters of Unicode's UAX #9 (U+061C, U+200E, U+200F,
 * U+202A-U+202E, U+2066-U+2069), which reorder what a reader sees ("Trojan Source",
 * CVE-2021-42574). */
static inline bool text_cp_unsafe(uint32_t cp)
{
	return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 ||
	       cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

/* The length in bytes (1-4) of the UTF-8 character at s (NUL-terminated, s[0] != 0), and in
 * *safe whether it may be written as it is: well-formed UTF-8 (RFC 3629: no overlong form, no
 * surrogate, nothing above U+10FFFF) of a code point text_cp_unsafe accepts.  A byte that does
 * not start a well-formed character is one unsafe byte. */
static inline size_t text_char(const char *s, bool *safe)
{
	uint32_t cp;
	size_t n = utf8_char(s, &cp);
	*safe = n > 0 && !text_cp_unsafe(cp);
	return n ? n : 1;
}

/* Replaces every character text_char finds unsafe in s (controls, C1, bidirectional overrides,
 * each byte of malformed UTF-8) with '?', in place, so a message that quotes user input stays
 * on one printable line.  s must be NUL-terminated. */
static inline void text_printable_line(char *s)
{
	char *o = s;
	while (*s) {
		bool safe;
		size_t n = text_char(s, &safe);
		if (safe)
			memmove(o, s, n);
		else
			*o = '?';
		o += safe ? n : 1;
		s += n;
	}
	*o = '\0';
}

/* Copies in to out (outlen bytes, NUL-terminated, cut short at a character's end if need be)
 * as one printable line: a newline becomes "\n", a tab "\t", a backslash "\\" when backslash
 * is set, and every other byte of a character text_char finds unsafe "\xHH" (a C1 control,
 * U+202E, a malformed byte). */
static inline void text_escape(const char *in, char *out, size_t outlen, bool backslash)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;
	if (outlen == 0)
		return;
	while (*in) {
		bool safe;
		size_t len = text_char(in, &safe), n = 0;
		char esc[16];
		unsigned char c = (unsigned char)*in;
		if ((c == '\\' && backslash) || c == '\n' || c == '\t')
			esc[n++] = '\\', esc[n++] = c == '\n' ? 'n' : c == '\t' ? 't' : '\\';
		else if (safe)
			memcpy(esc, in, len), n = len;
		else
			for (size_t i = 0; i < len; i++) {
				unsigned char b = (unsigned char)in[i];
				esc[n++] = '\\', esc[n++] = 'x', esc[n++] = hex[b >> 4], esc[n++] = hex[b & 15];
			}
		if (o + n >= outlen)
			break;
		memcpy(out + o, esc, n);
		o += n;
		in += len;
	}
	out[o] = '\0';
}

/* text_escape with backslashes doubled, so that the line can be read back unambiguously.  Free
 * text written to the logfile or a table (the -m comment, --workdir, failure reasons, uname,
 * names read from result files) goes through it, so it can never start a line of its own,
 * forge a table, move the cursor or reorder what a reader sees. */
static inline void text_escape_line(const char *in, char *out, size_t outlen)
{
	text_escape(in, out, outlen, true);
}

/* Writes one message line to f: fmt's text (cut at 4 KiB) through text_escape, backslashes
 * kept (a part already escaped by text_escape_line reads the same), then a newline.  Every
 * message that may quote text from outside (a file name, an option's value, a reason read
 * from a file) is written through it. */
void text_message(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Lower-cases s into out (outlen bytes) for a name part (a file name, a test id): every run of
 * other characters than ASCII letters and digits becomes one '-', none leading or trailing:
 * "Video real time" -> "video-real-time", "% desired CPU" -> "desired-cpu".  Cut to fit, never
 * ending in '-'; "" when s has no letter or digit.  Nothing written when outlen is 0. */
void text_slug(const char *s, char *out, size_t outlen);

/* Writes line (no newline in it) to f and a newline, wrapped within width columns (one byte a
 * column: ASCII text): each line past width is cut at its last space that leaves it within
 * width (past its leading spaces), and goes on on the next line after indent; a word longer
 * than the room is not cut.  Spaces inside a line that fits are kept as they are. */
void text_wrap(FILE *f, const char *line, size_t width, const char *indent);

/* Formats v with three significant digits and no exponent, trailing zeros dropped:
 * 0.000518 -> "0.000518", 0.5 -> "0.5", 27.94 -> "27.9", 1815.2 -> "1815", 0 -> "0".
 * Values of 1000 and more are printed whole.  Negative values keep their sign. */
void fmt_sig3(double v, char *buf, size_t len);

#endif
