/* Option parsing, good and bad, including every rejection: each with its one-line message. */
#include <check.h>
#include "tests/ck_args.h"
#include "tests/ck_run.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "core/options.h"
#include "loads/load.h"
#include "loads/sizes.h"
#include "workloads/workload.h"

static char err[512];

/* The value of option long_name in o, as text. */
static const char *val(const struct options *o, const char *long_name)
{
	static char buf[256];
	ck_assert_int_eq(options_get(o, long_name, buf, sizeof(buf)), 0);
	return buf;
}

/* Parses a NULL-terminated list of arguments (after the program name). */
static enum opt_status parse(struct options *o, const char *first, ...)
{
	char *argv[CK_ARGV_MAX];
	va_list ap;
	va_start(ap, first);
	int argc = ck_argv(argv, first, ap);
	va_end(ap);
	options_init(o);
	err[0] = '\0';
	return options_parse(o, argc, argv, err, sizeof(err));
}

START_TEST(defaults)
{
	struct options o;
	ck_assert_int_eq(parse(&o, NULL), OPT_OK);
	ck_assert_uint_eq(o.duration_s, 30);
	ck_assert_uint_eq(o.load_threads, 0);
	ck_assert_str_eq(val(&o, "bench-nice"), "0");
	ck_assert(!o.realtime && !o.console_only);
	ck_assert_str_eq(val(&o, "workdir"), ".");
	ck_assert_int_eq(o.dma_latency_us, -1); /* no PM QoS hold unless asked */
}
END_TEST

START_TEST(good_values)
{
	struct options o;
	ck_assert_int_eq(parse(&o, "-t", "5", "-L", "3", "-B", "-5", "-N", "19", "-l", "12345",
			       "-C", "25", "-I", "2000", "-m", "hello world", "-u", "-b", "-c", "-r", NULL), OPT_OK);
	ck_assert_uint_eq(o.duration_s, 5);
	ck_assert_uint_eq(o.load_threads, 3);
	ck_assert_str_eq(val(&o, "bench-nice"), "-5");
	ck_assert_str_eq(val(&o, "load-nice"), "19");
	ck_assert_uint_eq(o.loops_per_ms, 12345);
	ck_assert_str_eq(val(&o, "custom-cpu"), "25");
	ck_assert_str_eq(val(&o, "custom-interval"), "2000");
	ck_assert_str_eq(o.comment, "hello world");
	ck_assert(o.uniprocessor && o.recalibrate && o.console_only && o.realtime);
}
END_TEST

START_TEST(long_forms)
{
	struct options o;
	ck_assert_int_eq(parse(&o, "--time=7", "--load-threads", "2", "--bench-nice=3", "--load-nice", "4",
			       "--console", "--realtime", "--sim", "audio", "--exclude-load", "BURN",
			       "--file-size", "64M", "--mem-size", "1g", "--workdir", "/tmp", "--dma-latency", "0", NULL), OPT_OK);
	ck_assert_int_eq(o.dma_latency_us, 0);
	ck_assert_uint_eq(o.duration_s, 7);
	ck_assert_uint_eq(o.load_threads, 2);
	ck_assert_str_eq(val(&o, "bench-nice"), "3");
	ck_assert_str_eq(val(&o, "load-nice"), "4");
	ck_assert_uint_eq(o.sim_include, 1u << workload_find("Audio", false));
	ck_assert_uint_eq(o.load_exclude, 1u << workload_find("Burn", true));
	ck_assert_str_eq(val(&o, "file-size"), "64M");   /* 64 << 20 bytes */
	ck_assert_str_eq(val(&o, "mem-size"), "1G");     /* 1 << 30 bytes */
	ck_assert_str_eq(val(&o, "workdir"), "/tmp");
}
END_TEST

START_TEST(case_insensitive_names)
{
	struct options o;
	ck_assert_int_eq(parse(&o, "-W", "vIdEo", "-W", "x", "-w", "none", "-w", "Ring", "-X", "GAMING", NULL), OPT_OK);
	ck_assert_uint_eq(o.sim_include, (1u << workload_find("Video", false)) | (1u << workload_find("X", false)));
	ck_assert_uint_eq(o.load_include, (1u << workload_find("None", true)) | (1u << workload_find("Ring", true)));
	ck_assert_uint_eq(o.sim_exclude, 1u << workload_find("Gaming", false));
}
END_TEST

START_TEST(help)
{
	struct options o;
	ck_assert_int_eq(parse(&o, "-h", NULL), OPT_HELP);
	ck_assert_int_eq(parse(&o, "--help", NULL), OPT_HELP);
	ck_assert_int_eq(parse(&o, "--version", NULL), OPT_SHOW_VERSION);
}
END_TEST

START_TEST(quiet)
{
	struct options o;
	ck_assert_int_eq(parse(&o, "-t", "1", NULL), OPT_OK);
	ck_assert(!o.quiet);
	ck_assert_int_eq(parse(&o, "-q", NULL), OPT_OK);
	ck_assert(o.quiet);
	ck_assert_int_eq(parse(&o, "--quiet", NULL), OPT_OK);
	ck_assert(o.quiet);
}
END_TEST

/* Each bad input must be rejected with a message naming the option and the value. */
struct bad { const char *args[4]; const char *opt; const char *value; };
static const struct bad bads[] = {
	{ { "-t", "abc" }, "-t", "abc" },
	{ { "--dma-latency", "-1" }, "--dma-latency", "-1" },
	{ { "--dma-latency", "1000001" }, "--dma-latency", "1000001" },
	{ { "-t", "0" }, "-t", "0" },
	{ { "-t", "-5" }, "-t", "-5" },
	{ { "-t", "5x" }, "-t", "5x" },
	{ { "-t", "" }, "-t", "''" },
	{ { "-t", "99999999999999999999" }, "-t", "99999999999999999999" },
	{ { "-B", "40" }, "-B", "40" },
	{ { "-N", "-21" }, "-N", "-21" },
	{ { "-L", "0" }, "-L", "0" },
	{ { "-C", "150" }, "-C", "150" },
	{ { "-C", "0" }, "-C", "0" },
	{ { "-I", "abc" }, "-I", "abc" },
	{ { "-l", "0" }, "-l", "0" },
	{ { "-w", "Nosuch" }, "-w", "Nosuch" },
	{ { "-W", "Nosuch" }, "-W", "Nosuch" },
	{ { "--file-size", "12Q" }, "--file-size", "12Q" },
	{ { "--mem-size", "0" }, "--mem-size", "0" },
	{ { "--file-size", "16777215T" }, "--file-size", "16777215T" },
	{ { "--file-size", "1048577T" }, "--file-size", "1048577T" },
	{ { "--mem-size", "1073741825G" }, "--mem-size", "1073741825G" },
	{ { "--mem-size", "1048575" }, "--mem-size", "1048575" },
};

START_TEST(bad_values)
{
	struct options o;
	const struct bad *b = &bads[_i];
	ck_assert_int_eq(parse(&o, b->args[0], b->args[1], NULL), OPT_ERROR);
	ck_assert_msg(strstr(err, b->opt) != NULL, "'%s' does not name %s", err, b->opt);
	if (strcmp(b->value, "''") != 0)
		ck_assert_msg(strstr(err, b->value) != NULL, "'%s' does not name %s", err, b->value);
	ck_assert_msg(strstr(err, "accepted") != NULL, "'%s' does not say what is accepted", err);
	ck_assert_msg(strchr(err, '\n') == NULL, "message is not one line");
}
END_TEST

START_TEST(custom_needs_both)
{
	struct options o;
	ck_assert_int_eq(parse(&o, "-C", "10", NULL), OPT_ERROR);
	ck_assert(strstr(err, "-C") && strstr(err, "-I"));
	ck_assert_int_eq(parse(&o, "-I", "10000", NULL), OPT_ERROR);
	ck_assert(strstr(err, "-I") && strstr(err, "-C"));
}
END_TEST

START_TEST(unknown_and_missing)
{
	struct options o;
	ck_assert_int_eq(parse(&o, "-Z", NULL), OPT_ERROR);
	ck_assert(strstr(err, "-Z"));
	ck_assert_int_eq(parse(&o, "--bogus", NULL), OPT_ERROR);
	ck_assert(strstr(err, "--bogus"));
	ck_assert_int_eq(parse(&o, "-t", NULL), OPT_ERROR);
	ck_assert(strstr(err, "-t") && strstr(err, "missing") && strstr(err, "accepted: whole seconds"));
	ck_assert_int_eq(parse(&o, "--time", NULL), OPT_ERROR);
	ck_assert_msg(strncmp(err, "-t: missing", 11) == 0, "%s", err);
	/* long-only options: getopt reports them by their value (>= 256), not a character */
	static const char *long_only[] = { "--json", "--workdir", "--repeat", "--file-size", "--mem-size" };
	for (unsigned i = 0; i < sizeof(long_only) / sizeof(long_only[0]); i++) {
		ck_assert_int_eq(parse(&o, long_only[i], NULL), OPT_ERROR);
		ck_assert_msg(strncmp(err, long_only[i], strlen(long_only[i])) == 0 && strstr(err, "missing value (accepted: "),
			      "'%s' does not name %s", err, long_only[i]);
	}
	ck_assert_int_eq(parse(&o, "stray", NULL), OPT_ERROR);
	ck_assert(strstr(err, "stray"));
}
END_TEST

START_TEST(control_characters_stay_out_of_messages)
{
	/* Found by fuzz_options: a value with a newline broke the one-line message. */
	struct options o;
	ck_assert_int_eq(parse(&o, "a\nb", NULL), OPT_ERROR);
	ck_assert(strchr(err, '\n') == NULL);
	ck_assert_int_eq(parse(&o, "-t", "1\033[2J", NULL), OPT_ERROR);
	ck_assert(strchr(err, '\033') == NULL);
}
END_TEST

START_TEST(reparse_resets)
{
	struct options o;
	ck_assert_int_eq(parse(&o, "-t", "abc", NULL), OPT_ERROR);
	ck_assert_int_eq(parse(&o, "-t", "3", NULL), OPT_OK);
	ck_assert_uint_eq(o.duration_s, 3);
}
END_TEST

START_TEST(size_parser)
{
	uint64_t b;
	ck_assert_int_eq(parse_size("64M", &b), 0);
	ck_assert_uint_eq(b, 64ULL << 20);
	ck_assert_int_eq(parse_size("2GiB", &b), 0);
	ck_assert_uint_eq(b, 2ULL << 30);
	ck_assert_int_eq(parse_size("4096", &b), 0);
	ck_assert_uint_eq(b, 4096);
	ck_assert_int_eq(parse_size("-1M", &b), -1);
	ck_assert_int_eq(parse_size("M", &b), -1);
	ck_assert_int_eq(parse_size("99999999999T", &b), -1);
}
END_TEST

START_TEST(size_option_bounds)
{
	struct options o;
	ck_assert_int_eq(parse(&o, "--file-size", "1048576T", NULL), OPT_OK);
	ck_assert_str_eq(val(&o, "file-size"), "1048576T"); /* LOAD_MAX_SIZE_BYTES */
	ck_assert_int_eq(parse(&o, "--mem-size", "1M", NULL), OPT_OK);
	ck_assert_str_eq(val(&o, "mem-size"), "1M");       /* LOAD_MIN_SIZE_BYTES */
	ck_assert_int_eq(parse(&o, "--file-size", "16777215T", NULL), OPT_ERROR);
	ck_assert_str_eq(err, "--file-size: invalid size '16777215T' (accepted: 1M to 1048576T, with an optional K, M, G or T suffix)");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("options");
	TCase *tc = tcase_create("parse");
	tcase_add_test(tc, defaults);
	tcase_add_test(tc, good_values);
	tcase_add_test(tc, long_forms);
	tcase_add_test(tc, case_insensitive_names);
	tcase_add_test(tc, help);
	tcase_add_test(tc, quiet);
	tcase_add_loop_test(tc, bad_values, 0, (int)(sizeof(bads) / sizeof(bads[0])));
	tcase_add_test(tc, custom_needs_both);
	tcase_add_test(tc, unknown_and_missing);
	tcase_add_test(tc, control_characters_stay_out_of_messages);
	tcase_add_test(tc, reparse_resets);
	tcase_add_test(tc, size_parser);
	tcase_add_test(tc, size_option_bounds);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
