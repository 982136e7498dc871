/* The run's report (report/sink.c) as the matrix's sink, with its text output
 * (report/output_text.c) or its JSON output (report/output_json.c), over a matrix run with a
 * stub pair runner: the console and the logfile get the same table (the table header once, a row per
 * pair in interbench 0.31's fields, a disturbed row's line under it, a partial window's line,
 * the interrupted note), but for the load's throughput lines, in the logfile only unless -v;
 * and with --repeat the JSON results stay in plan order whatever order the rounds ran their
 * pairs in. */
#define _GNU_SOURCE
#include <check.h>
#include "tests/ck_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run/matrix.h"
#include "run/options.h"
#include "run/plan.h"
#include "run/sweep.h"
#include "lib/timeutil.h"
#include "report/logformat.h"
#include "report/output_json.h"
#include "report/output_text.h"
#include "report/sink.h"

static volatile sig_atomic_t stop;

/* What other processes took during the first pair: 23 % of 2 CPUs over 2 s. */
static const struct disturbance heavy = { .measured = true, .cpus = 2, .outside_cpu_ns = 920000000,
					  .outside_cpu_ppm = 230000, .steal_ns = 0, .steal_ppm = 0 };

/* Measured; the load did work; the first pair disturbed, the second cut short by a signal. */
static int stub_pair_run(const struct pair_params *p, struct pair_outcome *out)
{
	static unsigned calls;
	memset(out, 0, sizeof(*out));
	out->ok = true;
	out->window_ns = p->duration_ns;
	out->load.elapsed_ns = NS_PER_S;
	out->load.count[0] = 1000;
	if (calls % 2 == 0)
		out->disturbance = heavy;
	if (++calls % 2 == 0) {
		out->interrupted = true;
		out->window_ns = p->duration_ns / 2;
		stop = SIGINT;
	}
	return 0;
}

/* The text of a memory stream so far. */
struct text { FILE *f; char *buf; size_t len; };

static FILE *text_open(struct text *t)
{
	t->f = open_memstream(&t->buf, &t->len);
	ck_assert_ptr_nonnull(t->f);
	return t->f;
}

/* t's text without its lines holding word (the whole text when word is NULL). */
static char *text_without(struct text *t, const char *word)
{
	fflush(t->f);
	char *out = calloc(1, t->len + 1), *line = t->buf;
	for (char *nl; (nl = strchr(line, '\n')); line = nl + 1)
		if (!word || !memmem(line, (size_t)(nl - line), word, strlen(word)))
			strncat(out, line, (size_t)(nl + 1 - line));
	return out;
}

/* The blank-separated fields of the line at line: interbench 0.31's Audio row has 7 (load,
 * mean, "+/-", SD, max, % desired CPU, % deadlines met). */
static unsigned row_fields(const char *line)
{
	unsigned n = 0;
	for (const char *p = line; *p && *p != '\n'; p++)
		n += *p != ' ' && (p == line || p[-1] == ' ');
	return n;
}

/* Runs Audio against None and Burn (the second pair interrupted) into a report whose console
 * and logfile are memory streams; checks them. */
static void run(bool verbose)
{
	char *argv[] = { "interbench", "-W", "Audio", "-w", "None", "-w", "Burn", "-v", NULL }, err[512];
	static struct options opt;
	static struct sweep_side bench, load;
	static struct report_sink s;
	struct plan plan = { 0 };
	struct matrix m;
	struct text con, log;
	struct load_config load_cfg = { .threads = 1, .loops_per_ms = 1000 };
	options_init(&opt);
	ck_assert_msg(options_parse(&opt, verbose ? 8 : 7, argv, err, sizeof(err)) == OPT_OK, "%s", err);
	opt.quiet = true;
	sweep_build(&opt, 97, &bench, &load);
	struct plan_input in = { .opt = &opt, .bench = &bench, .load = &load, .fifo_prio = 97 };
	ck_assert_int_eq(plan_build(&plan, &in), 0);
	struct matrix_params p = { .plan = &plan, .opt = &opt, .load = &load, .repeats = 1, .duration_ns = 2 * NS_PER_S,
				   .load_cfg = &load_cfg, .timeline_fd = -1, .frame_log_fd = -1, .interrupted = &stop,
				   .pair_run = stub_pair_run };
	ck_assert_int_eq(matrix_init(&m, &p), 0);
	static struct text_output text;
	memset(&s, 0, sizeof(s));
	memset(&text, 0, sizeof(text));
	s.run.opt = &opt;
	s.run.in = (struct sink_setup){ .plan = &plan, .bench = &bench, .load = &load, .load_cfg = &load_cfg };
	s.run.timeline_fd = -1;
	s.run.frame_log_fd = -1;
	s.run.con = text_open(&con);
	text.log = text_open(&log);
	text.pending = open_memstream(&text.pending_text, &text.pending_size);
	s.outputs = (const struct report_output *const[]){ &report_output_text, NULL };
	s.state[0] = &text;
	struct matrix_sink sink = sink_matrix(&s);
	sink.run_begin = NULL;  /* the notes before the run are the console's alone */
	stop = 0;
	ck_assert_int_eq(matrix_run(&m, &sink), SIGINT);

	char *c = text_without(&con, NULL), *l = text_without(&log, NULL), *l_no_work = text_without(&log, LOG_LOAD_WORK);
	const char *want = verbose ? l : l_no_work;
	ck_assert_str_eq(c, want);
	ck_assert_ptr_nonnull(strstr(l, LOG_LOAD_WORK));
	ck_assert_ptr_nonnull(strstr(l, LOG_ROW_INTERRUPTED));
	ck_assert_ptr_nonnull(strstr(l, LOG_RUN_INTERRUPTED));
	char *head = strstr(c, "--- Benchmarking simulated cpu of Audio");
	ck_assert_ptr_nonnull(head);
	ck_assert_ptr_null(strstr(head + 1, "--- Benchmarking"));  /* one table */
	ck_assert_ptr_nonnull(strstr(c, "\nNone"));
	ck_assert_ptr_nonnull(strstr(c, "\nBurn"));
	/* the disturbed row in interbench 0.31's shape, the line under it saying why; the other
	 * row with no such line */
	char *none_row = strstr(c, "\nNone") + 1, *burn_row = strstr(c, "\nBurn") + 1;
	ck_assert_uint_eq(row_fields(none_row), row_fields(burn_row));  /* -v: its columns, both */
	if (!verbose)
		ck_assert_uint_eq(row_fields(none_row), 7);
	ck_assert_msg(strstr(none_row, "\n          * disturbed: other processes took 23.0 % of the run's CPUs during "
			     "this pair (0.0 % steal)\n") < burn_row, "%s", c);
	ck_assert_ptr_null(strstr(burn_row, LOG_ROW_DISTURBED));
	free(c), free(l), free(l_no_work);
	fclose(con.f), fclose(log.f), fclose(text.pending);
	free(con.buf), free(log.buf), free(text.pending_text);
	matrix_free(&m);
	plan_free(&plan);
}

/* Measured, never interrupted. */
static int stub_quiet(const struct pair_params *p, struct pair_outcome *out)
{
	memset(out, 0, sizeof(*out));
	out->ok = true;
	out->window_ns = p->duration_ns;
	return 0;
}

/* With --repeat, a round that ran its pairs shuffled (run/matrix.h) leaves the JSON results
 * round by round in plan order. */
START_TEST(json_results_in_plan_order)
{
	char *argv[] = { "interbench", "-W", "Audio", "-w", "None", "-w", "Burn", NULL }, err[512];
	static struct options opt;
	static struct sweep_side bench, load;
	static struct report_sink s;
	struct plan plan = { 0 };
	struct matrix m;
	struct load_config load_cfg = { .threads = 1, .loops_per_ms = 1000 };
	size_t order[2];
	uint64_t seed = 1;
	do  /* a seed whose first round runs Burn first */
		matrix_round_order(seed++, 0, order, 2);
	while (order[0] == 0);
	options_init(&opt);
	ck_assert_msg(options_parse(&opt, 7, argv, err, sizeof(err)) == OPT_OK, "%s", err);
	opt.quiet = true;
	opt.repeat = 2;
	sweep_build(&opt, 97, &bench, &load);
	struct plan_input in = { .opt = &opt, .bench = &bench, .load = &load, .fifo_prio = 97 };
	ck_assert_int_eq(plan_build(&plan, &in), 0);
	struct matrix_params p = { .plan = &plan, .opt = &opt, .load = &load, .repeats = 2, .duration_ns = 2 * NS_PER_S,
				   .load_cfg = &load_cfg, .timeline_fd = -1, .frame_log_fd = -1, .interrupted = &stop,
				   .pair_run = stub_quiet, .shuffle_seed = seed - 1 };
	ck_assert_int_eq(matrix_init(&m, &p), 0);
	static struct json_output json;
	memset(&s, 0, sizeof(s));
	memset(&json, 0, sizeof(json));
	s.run.opt = &opt;
	s.run.in = (struct sink_setup){ .plan = &plan, .bench = &bench, .load = &load, .load_cfg = &load_cfg };
	s.run.timeline_fd = -1;
	s.run.frame_log_fd = -1;
	s.run.con = fopen("/dev/null", "w");
	json.doc = json_pack("{s:[]}", "results");
	s.outputs = (const struct report_output *const[]){ &report_output_json, NULL };
	s.state[0] = &json;
	struct matrix_sink sink = sink_matrix(&s);
	sink.run_begin = NULL;
	stop = 0;
	ck_assert_int_eq(matrix_run(&m, &sink), 0);
	const char *want[][2] = { { "None", "1" }, { "Burn", "1" }, { "None", "2" }, { "Burn", "2" } };
	json_t *a = json_object_get(json.doc, "results");
	ck_assert_uint_eq(json_array_size(a), 4);
	for (size_t k = 0; k < 4; k++) {
		json_t *r = json_array_get(a, k);
		ck_assert_str_eq(json_string_value(json_object_get(r, "load")), want[k][0]);
		ck_assert_int_eq(json_integer_value(json_object_get(r, "repeat")), atoi(want[k][1]));
	}
	json_decref(json.doc);
	fclose(s.run.con);
	matrix_free(&m);
	plan_free(&plan);
}
END_TEST

START_TEST(console_and_logfile_alike)
{
	run(false);
}
END_TEST

START_TEST(verbose_console_has_the_load_work)
{
	run(true);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sink");
	TCase *tc = tcase_create("sink");
	tcase_add_test(tc, console_and_logfile_alike);
	tcase_add_test(tc, verbose_console_has_the_load_work);
	tcase_add_test(tc, json_results_in_plan_order);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
