/* UTF-8 as RFC 3629 defines it, which is what jansson accepts in a string (json_string returns
 * NULL on anything else): no overlong form, no surrogate (U+D800-U+DFFF), nothing above
 * U+10FFFF, no stray or missing continuation byte.  For checking user text before it goes
 * into JSON, and for lib/text.h's escaping of it in a message. */
#ifndef IB_UTF8_H
#define IB_UTF8_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes (1 to 4) of the UTF-8 character s starts with, its code point in *cp; or 0 when s
 * starts none (as utf8_char_len), *cp then unset. */
size_t utf8_char(const char *s, uint32_t *cp);

/* Bytes (1 to 4) of the UTF-8 character s starts with, or 0 when s starts none (NUL, a
 * continuation byte, an overlong form, a surrogate, beyond U+10FFFF, a cut sequence).  s is
 * NUL-terminated; no byte past its NUL is read. */
size_t utf8_char_len(const char *s);

/* Whether the NUL-terminated s is UTF-8 throughout (the empty string is). */
bool utf8_valid(const char *s);

#endif
