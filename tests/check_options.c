/* Option parsing, good and bad, including every rejection: each with its one-line message. */
#include <check.h>
#include <getopt.h>
#include "tests/ck_args.h"
#include "tests/ck_options.h"
#include "tests/ck_run.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "run/matrix.h"
#include "run/options.h"
#include "lib/optparse.h"
#include "loadkit/load.h"
#include "loadkit/sizes.h"
#include "workloads/workload.h"

START_TEST(defaults)
{
	struct options o;
	ck_assert_int_eq(parse(&o, NULL), OPT_OK);
	ck_assert_int_eq(o.window, RUN_WINDOW_BUDGET);  /* the default run: the budget's sub-runs */
	ck_assert_uint_eq(o.duration_s, 0);
	ck_assert_uint_eq(o.budget_s, 0);  /* MATRIX_BUDGET_PER_PAIR_S a pair */
	ck_assert_uint_eq(o.repeat, MATRIX_BUDGET_MAX_SUBRUNS);
	ck_assert_uint_eq(options_window_s(&o), MATRIX_BUDGET_SUBRUN_S);
	ck_assert_double_eq(o.precision.latency_p99_pct, 20);
	ck_assert(!o.precision_given);
	ck_assert_uint_eq(o.load_threads.n, 1);
	ck_assert_int_eq(o.load_threads.v[0], 0);
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
	ck_assert_int_eq(o.load_threads.v[0], 3);
	ck_assert_str_eq(val(&o, "bench-nice"), "-5");
	ck_assert_str_eq(val(&o, "load-nice"), "19");
	ck_assert_uint_eq(o.loops_per_ms, 12345);
	ck_assert_str_eq(val(&o, "custom-cpu"), "25");
	ck_assert_str_eq(val(&o, "custom-interval"), "2000");
	ck_assert_str_eq(o.comment, "hello world");
	ck_assert(o.uniprocessor && o.recalibrate && o.console_only && o.realtime);
}
END_TEST

/* --frame-log DIR and its formats, a list of names; the formats alone are refused. */
/* Every spelling of -W file:PATH becomes -W File --task-file PATH; many inline ones (each
 * argument becoming four) fit the expanded argv.  One task file a run: a second, different
 * one is refused, naming both, never a silent replacement. */
START_TEST(task_file_spellings)
{
	struct options o;
	const char *a = "doc/tasks/audio.json";
	ck_assert_msg(parse(&o, "-Wfile:doc/tasks/audio.json", "-WFILE:doc/tasks/audio.json", "-W", "file:doc/tasks/audio.json",
			    "--sim", "File:doc/tasks/audio.json", "--sim=file:doc/tasks/audio.json", "--task-file", a,
			    "-Wfile:doc/tasks/audio.json", "-Wfile:doc/tasks/audio.json", "-Wfile:doc/tasks/audio.json",
			    "-Wfile:doc/tasks/audio.json", NULL) == OPT_OK, "%s", err);
	ck_assert_str_eq(val(&o, "task-file"), a);
	ck_assert_int_eq(parse(&o, "--sim=file:doc/tasks/video.json", NULL), OPT_OK);
	ck_assert_str_eq(val(&o, "task-file"), "doc/tasks/video.json");
	ck_assert_int_eq(parse(&o, "-Wfile:doc/tasks/audio.json", "--task-file=doc/tasks/video.json", NULL), OPT_ERROR);
	ck_assert_str_eq(err, "--task-file: second task file after 'doc/tasks/audio.json' 'doc/tasks/video.json' "
			      "(accepted: one task file a run, interbench's format or rt-app's JSON (doc/task-file.md); "
			      "compare --allow-different-task judges two runs' files)");
	ck_assert_int_eq(parse(&o, "-Wfile:no-such-task.json", NULL), OPT_ERROR);  /* the file is read at once */
	ck_assert_str_eq(err, "--task-file: no-such-task.json: open: No such file or directory");
}
END_TEST

/* A task file without a period (rt-app's without a timer) runs as a load only: as the task
 * (--task-file alone selects it, or -W File) it is refused in one line; behind another task it
 * is accepted. */
START_TEST(periodless_task_file_a_load_only)
{
	struct options o;
	const char *f = "tests/taskfiles/rtapp/browser-short.json";
	static const char want[] = "--task-file: tests/taskfiles/rtapp/browser-short.json: no task has a timer, so the "
		"file has no period and no task figures: it runs as a load only (accepted: -w File beside a task, -W Audio "
		"-w File; as the task, a file whose first timer gives the period: doc/task-file.md)";
	ck_assert_int_eq(parse(&o, "--task-file", f, "-w", "None", NULL), OPT_ERROR);
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(parse(&o, "-W", "File", "-W", "Audio", "--task-file", f, NULL), OPT_ERROR);
	ck_assert_str_eq(err, want);
	ck_assert_msg(parse(&o, "-W", "Audio", "-w", "File", "--task-file", f, NULL) == OPT_OK, "%s", err);
	ck_assert_msg(parse(&o, "--task-file", "doc/tasks/audio.json", NULL) == OPT_OK, "%s", err);  /* a period */
}
END_TEST

START_TEST(frame_log_options)
{
	struct options o;
	ck_assert_int_eq(parse(&o, "--frame-log", "logs", NULL), OPT_OK);
	ck_assert_str_eq(o.frame_log_dir, "logs");
	ck_assert_uint_eq(o.frame_log_formats, 0);  /* MangoHud's */
	ck_assert_int_eq(parse(&o, "--frame-log", "logs", "--frame-log-format", "PresentMon,mangohud", NULL), OPT_OK);
	ck_assert_uint_eq(o.frame_log_formats, (1u << FRAME_LOG_MANGOHUD) | (1u << FRAME_LOG_PRESENTMON));
	ck_assert_int_eq(parse(&o, "--frame-log", "logs", "--frame-log-format", "csv", NULL), OPT_ERROR);
	ck_assert_ptr_nonnull(strstr(err, "--frame-log-format"));
	ck_assert_ptr_nonnull(strstr(err, "csv"));
	ck_assert_int_eq(parse(&o, "--frame-log-format", "presentmon", NULL), OPT_ERROR);
	ck_assert_str_eq(err, "--frame-log-format: without --frame-log (accepted: with --frame-log DIR)");
	ck_assert_int_eq(parse(&o, "--frame-log", "", NULL), OPT_ERROR);
}
END_TEST

/* The adaptive window's options: parsed, and refused with -t or out of order. */
START_TEST(window_options)
{
	struct options o;
	ck_assert_int_eq(parse(&o, "--precision", "mean=5%,met=1", "--min-time", "2", "--max-time", "9", NULL), OPT_OK);
	ck_assert_double_eq(o.precision.latency_mean_pct, 5);
	ck_assert_double_eq(o.precision.deadlines_met_pt, 1);
	ck_assert(o.precision_given);
	ck_assert_uint_eq(o.min_time_s, 2);
	ck_assert_uint_eq(o.max_time_s, 9);
	ck_assert_int_eq(parse(&o, "-t", "5", "--precision", "p99=10", NULL), OPT_ERROR);
	ck_assert_str_eq(err, "--precision: only without -t (-t 5 is a fixed window; accepted: one or the other)");
	ck_assert_int_eq(parse(&o, "-t", "5", "--max-time", "9", NULL), OPT_ERROR);
	ck_assert_ptr_nonnull(strstr(err, "--max-time: only without -t"));
	ck_assert_int_eq(parse(&o, "--min-time", "20", "--max-time", "9", NULL), OPT_ERROR);
	ck_assert_str_eq(err, "--min-time: 20 is above --max-time 9 (accepted: at most the maximum)");
	ck_assert_int_eq(parse(&o, "--precision", "p99=0", NULL), OPT_ERROR);
	ck_assert_ptr_nonnull(strstr(err, "--precision: item 'p99=0' in 'p99=0' (accepted: FIGURE=VALUE"));
	ck_assert_int_eq(parse(&o, "--max-time", "0", NULL), OPT_ERROR);
	ck_assert_int_eq(parse(&o, "--max-time", "3", NULL), OPT_OK);  /* the default minimum follows */
	ck_assert_uint_eq(o.min_time_s, 3);
	ck_assert_int_eq(o.window, RUN_WINDOW_ADAPTIVE);
	ck_assert_uint_eq(o.repeat, 1);
	ck_assert_int_eq(parse(&o, "--min-time", "7", NULL), OPT_OK);  /* the default maximum */
	ck_assert_uint_eq(o.max_time_s, STOP_MAX_S_DEFAULT);
}
END_TEST

/* Which window the options resolve to (enum run_window), and the combinations refused. */
START_TEST(window_resolved)
{
	struct options o;
	ck_assert_int_eq(parse(&o, "-t", "2", NULL), OPT_OK);  /* -t alone: one fixed window a pair */
	ck_assert_int_eq(o.window, RUN_WINDOW_FIXED);
	ck_assert_uint_eq(o.repeat, 1);
	ck_assert_int_eq(parse(&o, "--repeat", "3", NULL), OPT_OK);  /* --repeat alone: 3 of 5 s */
	ck_assert_int_eq(o.window, RUN_WINDOW_FIXED);
	ck_assert_uint_eq(o.duration_s, MATRIX_BUDGET_SUBRUN_S);
	ck_assert_int_eq(parse(&o, "-t", "2", "--budget", "60", NULL), OPT_OK);  /* sub-runs of 2 s */
	ck_assert_int_eq(o.window, RUN_WINDOW_BUDGET);
	ck_assert_uint_eq(options_window_s(&o), 2);
	ck_assert_uint_eq(o.repeat, MATRIX_BUDGET_MAX_SUBRUNS);
	ck_assert_int_eq(parse(&o, "--budget", "60", "--repeat", "4", NULL), OPT_OK);  /* its cap */
	ck_assert_uint_eq(o.repeat, 4);
	ck_assert_int_eq(parse(&o, "--precision", "p99=10", NULL), OPT_OK);  /* the budget's "known" */
	ck_assert_int_eq(o.window, RUN_WINDOW_BUDGET);
	ck_assert_int_eq(parse(&o, "-t", "2", "--budget", "60", "--precision", "met=1", NULL), OPT_OK);
	ck_assert_int_eq(o.window, RUN_WINDOW_BUDGET);
	ck_assert_int_eq(parse(&o, "--budget", "60", "--repeat", "2", NULL), OPT_ERROR);
	ck_assert_str_eq(err, "--repeat: 2 with --budget (accepted: 3 or more, the most sub-runs a pair; default 20)");
	ck_assert_int_eq(parse(&o, "--budget", "60", "--repeat", "1", NULL), OPT_ERROR);
	ck_assert_int_eq(parse(&o, "--budget", "60", "--max-time", "9", NULL), OPT_ERROR);
	ck_assert_str_eq(err, "--max-time: only without --budget (the adaptive window runs each pair once; "
			 "accepted: one or the other)");
	ck_assert_int_eq(parse(&o, "--repeat", "3", "--precision", "p99=10", NULL), OPT_ERROR);
	ck_assert_ptr_nonnull(strstr(err, "--precision: only with the budget or the adaptive window"));
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
	ck_assert_int_eq(o.load_threads.v[0], 2);
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

/* Pipeline's --refresh runs over its whole documented range, 24..500 Hz, with the default
 * --compose-work (it follows the repaint window: 1000 us refused 400 Hz and above); a
 * --compose-work given that does not fit the default window is named, with the window and
 * the frame. */
START_TEST(pipeline_refresh_range)
{
	struct options o;
	char hz[16];
	for (unsigned r = 24; r <= 500; r++) {
		snprintf(hz, sizeof(hz), "%u", r);
		ck_assert_msg(parse(&o, "-W", "Pipeline", "--refresh", hz, NULL) == OPT_OK, "--refresh %s: %s", hz, err);
	}
	ck_assert_int_eq(parse(&o, "-W", "Pipeline", "--refresh", "500", "--compose-work", "1000", NULL), OPT_ERROR);
	static const char want[] = "--compose-work: 1000 (accepted: microseconds less than the repaint window, 800 at "
				   "--refresh 500 Hz";
	ck_assert_msg(strncmp(err, want, strlen(want)) == 0 && strstr(err, "--repaint-window, less than the frame, 2000)"),
		      "%s", err);
	ck_assert_int_eq(parse(&o, "-W", "Pipeline", "--refresh", "500", "--compose-work", "1000", "--repaint-window",
			       "1500", NULL), OPT_OK);
	ck_assert_int_eq(parse(&o, "-W", "Pipeline", "--refresh", "500", "--compose-work", "0", NULL), OPT_OK);
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
	ck_assert(strstr(err, "-t") && strstr(err, "missing") && strstr(err, "accepted: a time from 1s to 1d in whole seconds"));
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

/* A subcommand's own table, parsed by lib/optparse as compare, export and plot are. */
struct sub_args {
	unsigned fmt;
	const char *out;
	bool all;
	int custom;
};

static int custom_set(const struct optspec *s, void *base, const char *arg, char *what, size_t whatlen)
{
	(void)s;
	if (strcmp(arg, "ok") != 0) {
		snprintf(what, whatlen, "--custom: not ok");
		return OPTSPEC_BAD;
	}
	((struct sub_args *)base)->custom++;
	return OPTSPEC_SET;
}

static const char *const sub_formats[] = { "png", "svg", NULL };
static const struct optspec sub_options[] = {
	{ .long_name = "format", .short_name = 'f', .hide_short = true, .type = OPTSPEC_CHOICE, .metavar = "F",
	  .choices = sub_formats, .help = "png or svg", .offset = offsetof(struct sub_args, fmt) },
	{ .long_name = "out-directory-of-a-long-name", .type = OPTSPEC_TEXT, .metavar = "DIR", .def_str = ".",
	  .help = "where\nthey go", .offset = offsetof(struct sub_args, out) },
	{ .long_name = "all", .short_name = 'a', .type = OPTSPEC_FLAG, .help = "all",
	  .offset = offsetof(struct sub_args, all) },
	{ .long_name = "custom", .type = OPTSPEC_CUSTOM, .metavar = "X", .set = custom_set, .help = "ok",
	  .offset = offsetof(struct sub_args, custom) },
	{ .long_name = "help", .short_name = 'h', .type = OPTSPEC_ACTION, .hidden = true, .action = 7 },
};
#define SUB_N (unsigned)(sizeof(sub_options) / sizeof(sub_options[0]))

/* Parses a NULL-terminated list of arguments (after "sub") with sub_options. */
static int sub_parse(struct sub_args *a, bool in_order, struct optparse_fault *f, const char *first, ...)
{
	static char *argv[CK_ARGV_MAX];
	va_list ap;
	va_start(ap, first);
	int argc = ck_argv(argv, first, ap);
	va_end(ap);
	memset(a, 0, sizeof(*a));
	optspec_defaults(sub_options, SUB_N, a);
	return optparse_table(sub_options, SUB_N, a, in_order, argc, argv, f);
}

START_TEST(subcommand_tables)
{
	struct sub_args a;
	struct optparse_fault f;
	ck_assert_int_eq(sub_parse(&a, true, &f, "-f", "svg", "--custom", "ok", "--custom=ok", "-a", "file", NULL),
			 OPTSPEC_SET);
	ck_assert_uint_eq(a.fmt, 1);
	ck_assert_int_eq(a.custom, 2);
	ck_assert(a.all);
	ck_assert_str_eq(a.out, ".");
	ck_assert_int_eq(optind, 7);
	/* in order: options end at the first operand; permuted: they may follow it */
	ck_assert_int_eq(sub_parse(&a, true, &f, "file", "-a", NULL), OPTSPEC_SET);
	ck_assert(!a.all);
	ck_assert_int_eq(sub_parse(&a, false, &f, "file", "-a", NULL), OPTSPEC_SET);
	ck_assert(a.all);
	ck_assert_int_eq(sub_parse(&a, true, &f, "-a", "--help", "--bogus", NULL), 7);
	ck_assert_int_eq(sub_parse(&a, true, &f, "--format", "gif", NULL), OPTSPEC_BAD);
	ck_assert_int_eq(f.kind, OPTPARSE_BAD_VALUE);
	ck_assert_str_eq(f.spec->long_name, "format");
	ck_assert_str_eq(f.value, "gif");
	ck_assert_str_eq(f.what, "invalid value");
	char name[64], acc[64];
	ck_assert_str_eq(optspec_display(f.spec, name, sizeof(name)), "--format"); /* -f is hidden */
	ck_assert_str_eq(optspec_accepted(f.spec, acc, sizeof(acc)), "png, svg");
	ck_assert_int_eq(sub_parse(&a, true, &f, "--custom", "no", NULL), OPTSPEC_BAD);
	ck_assert_str_eq(f.what, "--custom: not ok");
	ck_assert_int_eq(sub_parse(&a, true, &f, "--custom", NULL), OPTSPEC_BAD);
	ck_assert_int_eq(f.kind, OPTPARSE_MISSING);
	ck_assert_str_eq(f.word, "--custom");
	ck_assert_int_eq(sub_parse(&a, true, &f, "-z", NULL), OPTSPEC_BAD);
	ck_assert_int_eq(f.kind, OPTPARSE_UNKNOWN);
	ck_assert_int_eq(f.letter, 'z');
	ck_assert_int_eq(sub_parse(&a, true, &f, "--all=1", NULL), OPTSPEC_BAD);
	ck_assert_int_eq(f.kind, OPTPARSE_UNKNOWN);
	ck_assert_str_eq(f.word, "--all=1");
}
END_TEST

START_TEST(subcommand_help_layout)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	const struct optspec_style st = { .column = 20, .long_indent = "  " };
	for (unsigned i = 0; i < SUB_N; i++)
		optspec_help_styled(m, &sub_options[i], &st);
	fclose(m);
	ck_assert_str_eq(buf, "  --format F        png or svg\n"
			      "  --out-directory-of-a-long-name DIR\n"
			      "                    where they go\n"
			      "  -a, --all         all\n"
			      "  --custom X        ok\n");
	free(buf);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("options");
	TCase *tc = tcase_create("parse");
	tcase_add_test(tc, defaults);
	tcase_add_test(tc, good_values);
	tcase_add_test(tc, long_forms);
	tcase_add_test(tc, window_options);
	tcase_add_test(tc, frame_log_options);
	tcase_add_test(tc, window_resolved);
	tcase_add_test(tc, case_insensitive_names);
	tcase_add_test(tc, help);
	tcase_add_test(tc, quiet);
	tcase_add_loop_test(tc, bad_values, 0, (int)(sizeof(bads) / sizeof(bads[0])));
	tcase_add_test(tc, custom_needs_both);
	tcase_add_test(tc, pipeline_refresh_range);
	tcase_add_test(tc, unknown_and_missing);
	tcase_add_test(tc, control_characters_stay_out_of_messages);
	tcase_add_test(tc, reparse_resets);
	tcase_add_test(tc, size_parser);
	tcase_add_test(tc, size_option_bounds);
	tcase_add_test(tc, task_file_spellings);
	tcase_add_test(tc, periodless_task_file_a_load_only);
	tcase_add_test(tc, subcommand_tables);
	tcase_add_test(tc, subcommand_help_layout);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
