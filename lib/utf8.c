#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "lib/utf8.h"

size_t utf8_char_len(const char *s)
{
	static const uint32_t least[5] = { 0, 0, 0x80, 0x800, 0x10000 };  /* below: overlong */
	const unsigned char *u = (const unsigned char *)s;
	if (u[0] < 0x80)
		return u[0] ? 1 : 0;
	size_t n = u[0] >= 0xf0 ? 4 : u[0] >= 0xe0 ? 3 : u[0] >= 0xc0 ? 2 : 0;
	if (n == 0 || u[0] > 0xf4)
		return 0;
	uint32_t cp = u[0] & (0x7fu >> n);
	for (size_t i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80)  /* a NUL ends the loop here too */
			return 0;
		cp = cp << 6 | (u[i] & 0x3fu);
	}
	if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

bool utf8_valid(const char *s)
{
	for (size_t n; *s; s += n)
		if ((n = utf8_char_len(s)) == 0)
			return false;
	return true;
}

void utf8_escape_line(const char *in, char *out, size_t outlen)
{
	size_t o = 0;
	if (outlen == 0)
		return;
	while (*in) {
		unsigned char c = (unsigned char)*in;
		size_t n = utf8_char_len(in);
		char piece[8];
		if (c == '\\')
			snprintf(piece, sizeof(piece), "\\\\");
		else if (n == 0 || c < 0x20 || c == 0x7f)
			snprintf(piece, sizeof(piece), "\\x%02x", c);
		else
			snprintf(piece, sizeof(piece), "%.*s", (int)n, in);
		size_t len = strlen(piece);
		if (o + len >= outlen)
			break;
		memcpy(out + o, piece, len);
		o += len;
		in += n ? n : 1;
	}
	out[o] = '\0';
}
