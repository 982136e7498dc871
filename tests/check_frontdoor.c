/* The front door: every option of the main command and of the workloads in a -h section, every
 * line of -h and --help-all within 80 columns, the duration parser (every accepted form, every
 * refusal with its message, overflow), the edit distance behind "did you mean" and its
 * messages. */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/ck_options.h"
#include "lib/optparse.h"
#include "lib/optspec.h"
#include "lib/suggest.h"
#include "run/options.h"
#include "tools/subcommand.h"

#define NS_S 1000000000ull
#define NS_US 1000ull

/* options_walk's check: s has a section (names collected in arg when not). */
static void no_section(const struct optspec *s, const void *base, void *arg)
{
	char *missing = arg;
	(void)base;
	if (s->section == OPTSPEC_SECTION_NONE || s->section >= OPTSPEC_SECTION_COUNT ||
	    !optspec_section_title(s->section))
		snprintf(missing + strlen(missing), 1024 - strlen(missing), " --%s", s->long_name);
}

START_TEST(every_option_has_a_section)
{
	struct options o;
	char missing[1024] = "";
	options_init(&o);
	options_walk(&o, no_section, missing);
	ck_assert_msg(missing[0] == '\0', "options with no -h section:%s", missing);
}
END_TEST

/* options_walk's check: s's summary (its help's first line less a joint ':', ';' or ',', all
 * -h shows: optspec_help_brief) is a whole phrase: no parenthesis left open, no last word that
 * leads into a next line ("the", "a", "to", ...) (names collected in arg when not). */
static void cut_summary(const struct optspec *s, const void *base, void *arg)
{
	static const char *const leads[] = { "a", "an", "the", "to", "of", "in", "as", "and", "or", "for",
					     "with", "its", "their", "this", "per", NULL };
	char *bad = arg, line[256];
	(void)base;
	if (!s->help)
		return;
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(s->help, "\n"), s->help);
	size_t end = strlen(line);
	if (end && strchr(":;,", line[end - 1]))
		line[end - 1] = '\0';
	const char *last = strrchr(line, ' ');
	last = last ? last + 1 : line;
	bool cut = strchr(line, '(') && !strchr(strrchr(line, '('), ')');
	for (unsigned i = 0; leads[i]; i++)
		cut |= strcmp(last, leads[i]) == 0;
	if (cut)
		snprintf(bad + strlen(bad), 2048 - strlen(bad), "\n--%s: '%s'", s->long_name, line);
}

START_TEST(summaries_whole)
{
	struct options o;
	char bad[2048] = "";
	options_init(&o);
	options_walk(&o, cut_summary, bad);
	ck_assert_msg(bad[0] == '\0', "-h summaries cut mid-phrase:%s", bad);
}
END_TEST

/* The text fn writes, in a buffer to free. */
static char *usage_text(void (*fn)(FILE *f, const char *prog, void (*more)(FILE *f, const char *prog)))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	fn(f, "interbench", subcommand_usage);
	fclose(f);
	return buf;
}

/* The lines of text over OPTSPEC_HELP_WIDTH columns (bytes: the help is ASCII), into bad. */
static unsigned wide_lines(const char *text, char *bad, size_t len)
{
	unsigned n = 0;
	bad[0] = '\0';
	for (const char *p = text; *p;) {
		size_t w = strcspn(p, "\n");
		if (w > OPTSPEC_HELP_WIDTH && ++n)
			snprintf(bad + strlen(bad), len - strlen(bad), "\n%.*s", (int)w, p);
		p += w + (p[w] == '\n');
	}
	return n;
}

static unsigned count_lines(const char *text)
{
	unsigned n = 0;
	for (; *text; text++)
		n += *text == '\n';
	return n;
}

START_TEST(help_within_80_columns_and_sections)
{
	char bad[4096];
	char *brief = usage_text(options_usage), *all = usage_text(options_usage_all);
	ck_assert_msg(wide_lines(brief, bad, sizeof(bad)) == 0, "-h lines over 80 columns:%s", bad);
	ck_assert_msg(wide_lines(all, bad, sizeof(bad)) == 0, "--help-all lines over 80 columns:%s", bad);
	/* -h: about one to two screens, the sections in order, the common ones first */
	ck_assert_uint_le(count_lines(brief), 100);
	const char *prev = brief;
	for (unsigned sec = 1; sec < OPTSPEC_SECTION_COUNT; sec++) {
		char head[80];
		snprintf(head, sizeof(head), "\n%s:\n", optspec_section_title(sec));
		const char *at = strstr(brief, head);
		if (sec == OPTSPEC_SECTION_WORKLOAD) {
			ck_assert_msg(!at, "-h lists the workloads' options");
			ck_assert_ptr_nonnull(strstr(all, head));
			continue;
		}
		ck_assert_msg(at && at > prev, "-h: section '%s' missing or out of order", head + 1);
		prev = at;
	}
	ck_assert_ptr_nonnull(strstr(brief, "\n  -t, --time TIME          run each pair once for TIME (10, 10s, 2m)\n"));
	ck_assert(strstr(brief, "-W, --sim") < strstr(brief, "-l, --loops-per-ms"));
	/* -h: each option by its summary; --help-all: in full, and the workloads' own */
	ck_assert_ptr_null(strstr(brief, "a bare number is seconds"));
	ck_assert_ptr_nonnull(strstr(all, "a bare number is\n"));
	ck_assert_ptr_null(strstr(brief, "--refresh"));
	ck_assert_ptr_nonnull(strstr(all, "      --refresh HZ "));
	ck_assert_ptr_nonnull(strstr(all, "\n  Burn     "));
	free(brief);
	free(all);
}
END_TEST

/* Wrapping: a long help wraps at a blank within 80 columns, a word longer than a line stands
 * alone, and a '\n' wraps as a blank. */
START_TEST(help_wraps)
{
	static const struct optspec s = {
		.long_name = "x", .type = OPTSPEC_FLAG, .section = OPTSPEC_SECTION_EXPERT,
		.help = "one two three four five six seven eight nine ten eleven twelve thirteen\nfourteen "
			"0123456789012345678901234567890123456789012345678901234567890123456789",
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	optspec_help_brief(f, &s, &optspec_main_style, false);
	optspec_help_brief(f, &s, &optspec_main_style, true);
	fclose(f);
	ck_assert_str_eq(buf, "      --x                  one two three four five six seven eight nine ten\n"
			      "                           eleven twelve thirteen fourteen\n"
			      "                           0123456789012345678901234567890123456789012345678901234567890123456789\n"
			      "      --x                  one two three four five six seven eight nine ten\n"
			      "                           eleven twelve thirteen\n");
	free(buf);
}
END_TEST

/* Every accepted form of a duration, in seconds and in microseconds. */
START_TEST(duration_forms)
{
	static const struct { const char *in; uint64_t unit_ns, want; } ok[] = {
		{ "10", NS_S, 10 }, { "10s", NS_S, 10 }, { "2m", NS_S, 120 }, { "1h", NS_S, 3600 },
		{ "1d", NS_S, 86400 }, { "1.5h", NS_S, 5400 }, { "0.5m", NS_S, 30 }, { "1500ms", NS_S, 1 + 0 * 1500 },
		{ "2000ms", NS_S, 2 }, { "3000000us", NS_S, 3 }, { "4000000000ns", NS_S, 4 },
		{ "250", NS_US, 250 }, { "250us", NS_US, 250 }, { "2ms", NS_US, 2000 }, { "0.5s", NS_US, 500000 },
		{ "1.25ms", NS_US, 1250 }, { "7000ns", NS_US, 7 }, { "0", NS_US, 0 }, { "0ms", NS_US, 0 },
		{ "007s", NS_S, 7 }, { "1.000000000s", NS_S, 1 },
	};
	for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		uint64_t v = 12345;
		int rc = parse_duration(ok[i].in, ok[i].unit_ns, 0, UINT64_MAX, &v);
		if (strcmp(ok[i].in, "1500ms") == 0) {   /* 1.5 s: not whole seconds, refused */
			ck_assert_int_eq(rc, DURATION_INEXACT);
			continue;
		}
		ck_assert_msg(rc == 0 && v == ok[i].want, "'%s': rc %d, %llu (want %llu)", ok[i].in, rc,
			      (unsigned long long)v, (unsigned long long)ok[i].want);
	}
}
END_TEST

/* Every refusal: malformed, unknown units, out of range, overflow, fractions of the unit. */
START_TEST(duration_refusals)
{
	static const struct { const char *in; int rc; } bad[] = {
		{ "", DURATION_BAD }, { "s", DURATION_BAD }, { "-1s", DURATION_BAD }, { "+1s", DURATION_BAD },
		{ " 1s", DURATION_BAD }, { "1 s", DURATION_BAD }, { "1s ", DURATION_BAD }, { "1e3", DURATION_BAD },
		{ "0x10", DURATION_BAD }, { "1.", DURATION_BAD }, { ".5s", DURATION_BAD }, { "1..5s", DURATION_BAD },
		{ "10x", DURATION_BAD }, { "10S", DURATION_BAD }, { "10sec", DURATION_BAD }, { "10min", DURATION_BAD },
		{ "inf", DURATION_BAD }, { "nan", DURATION_BAD }, { "1.0000000001s", DURATION_BAD },
		{ "1234567890123456789", DURATION_BAD },   /* 19 digits: past what is read exactly */
		{ "1.5", DURATION_INEXACT }, { "1500ms", DURATION_INEXACT }, { "1ns", DURATION_INEXACT },
		{ "0", DURATION_RANGE }, { "0s", DURATION_RANGE }, { "25h", DURATION_RANGE }, { "86401", DURATION_RANGE },
		{ "999999999999999999d", DURATION_RANGE },   /* 8.6e31 ns: past 64 bits of seconds */
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t v = 777;
		int rc = parse_duration(bad[i].in, NS_S, 1, 86400, &v);
		ck_assert_msg(rc == bad[i].rc && v == 777, "'%s': rc %d (want %d)", bad[i].in, rc, bad[i].rc);
	}
	/* the largest: 2^64 - 1 ns is accepted in ns, one more is an overflow */
	uint64_t v;
	ck_assert_int_eq(parse_duration("18446744073709551615", 1, 0, UINT64_MAX, &v), DURATION_BAD); /* 20 digits */
	ck_assert_int_eq(parse_duration("18446744073.709551615s", 1, 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	ck_assert_int_eq(parse_duration("18446744073.709551616s", 1, 0, UINT64_MAX, &v), DURATION_RANGE);
	ck_assert_int_eq(parse_duration("213503982d", 1000, 0, UINT64_MAX, &v), 0);  /* 1.8e19 us */
	ck_assert_int_eq(parse_duration("213503983d", 1000, 0, UINT64_MAX, &v), DURATION_RANGE);
	/* parse_duration_ns rounds to the nearest nanosecond, as --explain-threshold takes it */
	ck_assert_int_eq(parse_duration_ns("1.0000005ms", 1000, 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, 1000001);
	ck_assert_int_eq(parse_duration_ns("2m", 1000, 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, 120 * NS_S);
}
END_TEST

START_TEST(duration_formatted)
{
	char b[32];
	ck_assert_str_eq(format_duration(86400, NS_S, b, sizeof(b)), "1d");
	ck_assert_str_eq(format_duration(90, NS_S, b, sizeof(b)), "90s");
	ck_assert_str_eq(format_duration(7200, NS_S, b, sizeof(b)), "2h");
	ck_assert_str_eq(format_duration(1000000, NS_US, b, sizeof(b)), "1s");
	ck_assert_str_eq(format_duration(1500, NS_US, b, sizeof(b)), "1500us");
	ck_assert_str_eq(format_duration(0, NS_US, b, sizeof(b)), "0us");
	ck_assert_str_eq(format_duration(0, NS_S, b, sizeof(b)), "0s");
}
END_TEST

/* The duration options of the command line: what they store, and their one-line refusals. */
START_TEST(duration_options)
{
	struct options o;
	ck_assert_int_eq(parse(&o, "-t", "2s", NULL), OPT_OK);
	ck_assert_uint_eq(o.duration_s, 2);
	ck_assert_int_eq(parse(&o, "-t", "10", NULL), OPT_OK);   /* a bare number keeps its meaning */
	ck_assert_uint_eq(o.duration_s, 10);
	ck_assert_int_eq(parse(&o, "--budget", "2m", "--repeat", "4", NULL), OPT_OK);
	ck_assert_uint_eq(o.budget_s, 120);
	ck_assert_int_eq(parse(&o, "--min-time", "500ms", NULL), OPT_ERROR);
	ck_assert_str_eq(err, "--min-time: not a whole number of seconds '500ms' (accepted: a time from 1s to 1d in "
			      "whole seconds, with a unit ns, us, ms, s, m, h or d (no unit: seconds))");
	ck_assert_int_eq(parse(&o, "--max-time", "1.5m", NULL), OPT_OK);
	ck_assert_uint_eq(o.max_time_s, 90);
	ck_assert_int_eq(parse(&o, "-t", "25h", NULL), OPT_ERROR);
	ck_assert_str_eq(err, "-t: time out of range '25h' (accepted: a time from 1s to 1d in whole seconds, with a "
			      "unit ns, us, ms, s, m, h or d (no unit: seconds))");
	ck_assert_int_eq(parse(&o, "-t", "10 s", NULL), OPT_ERROR);
	ck_assert_str_eq(err, "-t: invalid time '10 s' (accepted: a time from 1s to 1d in whole seconds, with a "
			      "unit ns, us, ms, s, m, h or d (no unit: seconds))");
	ck_assert_int_eq(parse(&o, "--dma-latency", "2ms", NULL), OPT_OK);
	ck_assert_int_eq(o.dma_latency_us, 2000);
	ck_assert_int_eq(parse(&o, "--dma-latency", "0", NULL), OPT_OK);
	ck_assert_int_eq(o.dma_latency_us, 0);
	ck_assert_int_eq(parse(&o, "--dma-latency", "1500ns", NULL), OPT_ERROR);
	ck_assert_str_eq(err, "--dma-latency: not a whole number of microseconds '1500ns' (accepted: a time from 0us "
			      "to 1s in whole microseconds, with a unit ns, us, ms, s, m, h or d (no unit: "
			      "microseconds))");
	ck_assert_int_eq(parse(&o, "--bench-slice", "100,3ms", NULL), OPT_OK);
	ck_assert_str_eq(val(&o, "bench-slice"), "100,3000");
	ck_assert_int_eq(parse(&o, "-C", "50", "-I", "10ms", NULL), OPT_OK);
	ck_assert_str_eq(val(&o, "custom-interval"), "10000");
	ck_assert_int_eq(parse(&o, "-W", "Pipeline", "--logic-work", "1.5ms", NULL), OPT_OK);
	ck_assert_str_eq(val(&o, "logic-work"), "1500");
}
END_TEST

START_TEST(edit_distance)
{
	ck_assert_uint_eq(suggest_distance("budget", "budget", false), 0);
	ck_assert_uint_eq(suggest_distance("bugdet", "budget", false), 1);   /* a swap is one edit */
	ck_assert_uint_eq(suggest_distance("budgt", "budget", false), 1);
	ck_assert_uint_eq(suggest_distance("budgett", "budget", false), 1);
	ck_assert_uint_eq(suggest_distance("bidget", "budget", false), 1);
	ck_assert_uint_eq(suggest_distance("Audoi", "Audio", false), 1);
	ck_assert_uint_eq(suggest_distance("audoi", "Audio", false), 2);
	ck_assert_uint_eq(suggest_distance("audoi", "Audio", true), 1);
	ck_assert_uint_eq(suggest_distance("ca", "abc", false), 3);   /* optimal string alignment, not full D-L (2) */
	ck_assert_uint_eq(suggest_distance("", "abc", false), 3);
	ck_assert_uint_eq(suggest_distance("kitten", "sitting", false), 3);
	struct suggest sg;
	suggest_begin(&sg, "burn", true);
	suggest_offer(&sg, "Ring");
	suggest_offer(&sg, "Burn");
	ck_assert_str_eq(sg.best, "Burn");
	suggest_begin(&sg, "zz", false);   /* nothing near: no suggestion */
	suggest_offer(&sg, "compare");
	suggest_offer(&sg, "X");
	ck_assert_ptr_null(sg.best);
}
END_TEST

START_TEST(did_you_mean)
{
	struct options o;
	ck_assert_int_eq(parse(&o, "--bugdet", "5", NULL), OPT_ERROR);
	ck_assert_str_eq(err, "--bugdet: unknown option (did you mean --budget? see -h for the accepted ones)");
	ck_assert_int_eq(parse(&o, "--bugdet=5", NULL), OPT_ERROR);
	ck_assert_str_eq(err, "--bugdet=5: unknown option (did you mean --budget? see -h for the accepted ones)");
	ck_assert_int_eq(parse(&o, "--refersh", "60", NULL), OPT_ERROR);   /* a workload's option */
	ck_assert_str_eq(err, "--refersh: unknown option (did you mean --refresh? see -h for the accepted ones)");
	ck_assert_int_eq(parse(&o, "--zzzzzz", NULL), OPT_ERROR);
	ck_assert_str_eq(err, "--zzzzzz: unknown option (see -h for the accepted ones)");
	ck_assert_int_eq(parse(&o, "-W", "Audoi", NULL), OPT_ERROR);
	ck_assert_str_eq(err, "-W: unknown simulation 'Audoi' (did you mean Audio? accepted: Audio, Video, X, Gaming, "
			      "ProAudio, Pipeline, Custom, File)");
	ck_assert_int_eq(parse(&o, "-w", "burn,hakc", NULL), OPT_ERROR);
	ck_assert_msg(strncmp(err, "-w: unknown load 'burn,hakc' (did you mean Hack? accepted: None", 62) == 0, "%s", err);
	ck_assert_int_eq(parse(&o, "-w", "qqq", NULL), OPT_ERROR);
	ck_assert_msg(strncmp(err, "-w: unknown load 'qqq' (accepted: None", 37) == 0, "%s", err);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("frontdoor");
	TCase *tc = tcase_create("frontdoor");
	tcase_add_test(tc, every_option_has_a_section);
	tcase_add_test(tc, summaries_whole);
	tcase_add_test(tc, help_within_80_columns_and_sections);
	tcase_add_test(tc, help_wraps);
	tcase_add_test(tc, duration_forms);
	tcase_add_test(tc, duration_refusals);
	tcase_add_test(tc, duration_formatted);
	tcase_add_test(tc, duration_options);
	tcase_add_test(tc, edit_distance);
	tcase_add_test(tc, did_you_mean);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
