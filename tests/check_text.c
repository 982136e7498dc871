/* One escaping rule for text from outside: C0, DEL, C1 controls, line separators, bidirectional
 * formatting characters and malformed UTF-8 never reach a terminal or logfile as they are;
 * well-formed text in any script does.  And the one slug of names for files and test ids. */
#include <check.h>
#include "tests/ck_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/text.h"

static const char *esc(const char *in)
{
	static char out[256];
	text_escape_line(in, out, sizeof(out));
	return out;
}

static const char *printable(const char *in)
{
	static char buf[256];
	snprintf(buf, sizeof(buf), "%s", in);
	text_printable_line(buf);
	return buf;
}

START_TEST(c0_and_del)
{
	ck_assert_str_eq(esc("a\nb\tc\\d\x1b[31m\x7f"), "a\\nb\\tc\\\\d\\x1b[31m\\x7f");
	ck_assert_str_eq(printable("a\nb\x1b[31m\x7f"), "a?b?[31m?");
}
END_TEST

START_TEST(c1_controls)
{
	/* U+009B (CSI) and U+0085 (NEL) as UTF-8, and a raw 0x9b byte (malformed) */
	ck_assert_str_eq(esc("x\xc2\x9b" "2Jy\xc2\x85z\x9b"), "x\\xc2\\x9b2Jy\\xc2\\x85z\\x9b");
	ck_assert_str_eq(printable("x\xc2\x9b" "2Jy\xc2\x85z"), "x?2Jy?z");
}
END_TEST

START_TEST(bidi_and_separators)
{
	/* U+202E RIGHT-TO-LEFT OVERRIDE, U+2066 LRI, U+200F RLM, U+2028 LINE SEPARATOR */
	ck_assert_str_eq(esc("a\xe2\x80\xae" "b"), "a\\xe2\\x80\\xaeb");
	ck_assert_str_eq(esc("\xe2\x81\xa6\xe2\x80\x8f\xe2\x80\xa8"), "\\xe2\\x81\\xa6\\xe2\\x80\\x8f\\xe2\\x80\\xa8");
	ck_assert_str_eq(printable("a\xe2\x80\xae" "b"), "a?b");
}
END_TEST

START_TEST(malformed_utf8)
{
	ck_assert_str_eq(esc("\xc0\xaf"), "\\xc0\\xaf");              /* overlong '/' */
	ck_assert_str_eq(esc("\xed\xa0\x80"), "\\xed\\xa0\\x80");     /* a surrogate */
	ck_assert_str_eq(esc("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80"); /* above U+10FFFF */
	ck_assert_str_eq(esc("\xe2\x82"), "\\xe2\\x82");              /* cut short by the end */
	ck_assert_str_eq(esc("\xff" "ok"), "\\xffok");
	ck_assert_str_eq(printable("\xe2\x82" "ok\xff"), "??ok?");
}
END_TEST

START_TEST(well_formed_text_kept)
{
	const char *s = "Zürich 日本語 ñ € 😀 - Audio";
	ck_assert_str_eq(esc(s), s);
	ck_assert_str_eq(printable(s), s);
}
END_TEST

START_TEST(cut_at_a_character)
{
	char out[6];
	text_escape_line("ab\xe2\x80\xae", out, sizeof(out));   /* the escape (12 bytes) does not fit */
	ck_assert_str_eq(out, "ab");
	text_escape_line("ab€€", out, sizeof(out));
	ck_assert_str_eq(out, "ab€");                            /* never half a character */
}
END_TEST

START_TEST(slugs)
{
	static const char *const cases[][2] = {
		{ "Video real time", "video-real-time" }, { "% desired CPU", "desired-cpu" },
		{ "p99 latency", "p99-latency" }, { "  A--B  ", "a-b" }, { "nice -5", "nice-5" }, { "%%", "" },
	};
	char out[32];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		text_slug(cases[i][0], out, sizeof(out));
		ck_assert_str_eq(out, cases[i][1]);
	}
	text_slug("Video real time", out, 8); /* truncated, never a trailing '-' */
	ck_assert_str_eq(out, "video-r");
	text_slug("ab cd", out, 3);
	ck_assert_str_eq(out, "ab");
	text_slug("ab c", out, 4);  /* not "abc" */
	ck_assert_str_eq(out, "ab");
}
END_TEST


/* text_wrap of line at width 20 with indent "  ", as a string. */
static char *wrapped(const char *line)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	text_wrap(f, line, 20, "  ");
	fclose(f);
	return buf;
}

/* Lines past the width break at their last space within it, go on after the indent; a line
 * that fits is kept as it is (its leading spaces too); a word longer than the room is whole. */
START_TEST(wrap_at_spaces)
{
	char *w = wrapped("    why: one two");
	ck_assert_str_eq(w, "    why: one two\n");
	free(w);
	w = wrapped("alpha beta gamma delta epsilon zeta");
	ck_assert_str_eq(w, "alpha beta gamma\n  delta epsilon zeta\n");
	free(w);
	w = wrapped("    why: abcdefghijklmnopqrstuvwxyz end");
	ck_assert_str_eq(w, "    why:\n  abcdefghijklmnopqrstuvwxyz\n  end\n");
	free(w);
	w = wrapped("          abcdefghijklmnopqrstuvwxyz");
	ck_assert_str_eq(w, "          abcdefghijklmnopqrstuvwxyz\n");
	free(w);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("text");
	TCase *tc = tcase_create("escape");
	tcase_add_test(tc, c0_and_del);
	tcase_add_test(tc, wrap_at_spaces);
	tcase_add_test(tc, c1_controls);
	tcase_add_test(tc, bidi_and_separators);
	tcase_add_test(tc, malformed_utf8);
	tcase_add_test(tc, well_formed_text_kept);
	tcase_add_test(tc, cut_at_a_character);
	tcase_add_test(tc, slugs);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
