/* lib/utf8: which byte sequences are UTF-8 (RFC 3629, as jansson takes a string); their quoting
 * in a message is check_text's. */
#include <check.h>
#include <string.h>
#include "lib/utf8.h"
#include "tests/ck_run.h"

START_TEST(char_lengths)
{
	static const struct { const char *s; size_t len; } cases[] = {
		{ "a", 1 }, { "\x7f", 1 }, { "\xc3\xa9", 2 }, { "\xe2\x82\xac", 3 }, { "\xf0\x9f\x98\x80", 4 },
		{ "\xf4\x8f\xbf\xbf", 4 },  /* U+10FFFF, the last */
		{ "", 0 }, { "\x80", 0 }, { "\xbf", 0 }, { "\xc3", 0 }, { "\xc3" "a", 0 }, { "\xe2\x82", 0 },
		{ "\xc0\xaf", 0 }, { "\xc1\xbf", 0 }, { "\xe0\x80\xaf", 0 }, { "\xf0\x80\x80\xaf", 0 },  /* overlong */
		{ "\xed\xa0\x80", 0 }, { "\xed\xbf\xbf", 0 },  /* surrogates */
		{ "\xf4\x90\x80\x80", 0 }, { "\xf5\x80\x80\x80", 0 }, { "\xff", 0 }, { "\xfe", 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_msg(utf8_char_len(cases[i].s) == cases[i].len, "case %zu: %zu", i, utf8_char_len(cases[i].s));
	ck_assert(utf8_valid("") && utf8_valid("ci:caf\xc3\xa9 \xe2\x82\xac"));
	ck_assert(!utf8_valid("ci:caf\xe9") && !utf8_valid("\xc3\xa9\xc3"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("utf8");
	TCase *tc = tcase_create("utf8");
	tcase_add_test(tc, char_lengths);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
