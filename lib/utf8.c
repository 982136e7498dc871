#include <stdint.h>
#include <string.h>
#include "lib/utf8.h"

size_t utf8_char(const char *s, uint32_t *cp_out)
{
	static const uint32_t least[5] = { 0, 0, 0x80, 0x800, 0x10000 };  /* below: overlong */
	const unsigned char *u = (const unsigned char *)s;
	if (u[0] < 0x80) {
		*cp_out = u[0];
		return u[0] ? 1 : 0;
	}
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
	*cp_out = cp;
	return n;
}

size_t utf8_char_len(const char *s)
{
	uint32_t cp;
	return utf8_char(s, &cp);
}

bool utf8_valid(const char *s)
{
	for (size_t n; *s; s += n)
		if ((n = utf8_char_len(s)) == 0)
			return false;
	return true;
}
