/* Output formatting: three significant digits, and the classic table's shape. */
#include <check.h>
#include "tests/ck_run.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/sim.h"
#include "report/figures.h"
#include "report/logfile.h"
#include "report/logformat.h"
#include "tools/resultset.h"
#include "lib/text.h"
#include "report/table.h"

static const char *sig3(double v)
{
	static char buf[64];
	fmt_sig3(v, buf, sizeof(buf));
	return buf;
}

START_TEST(three_significant_digits)
{
	ck_assert_str_eq(sig3(0), "0");
	ck_assert_str_eq(sig3(0.000518), "0.000518");
	ck_assert_str_eq(sig3(0.0051789), "0.00518");
	ck_assert_str_eq(sig3(0.003), "0.003");
	ck_assert_str_eq(sig3(0.5), "0.5");
	ck_assert_str_eq(sig3(27.94), "27.9");
	ck_assert_str_eq(sig3(100), "100");
	ck_assert_str_eq(sig3(99.96), "100");
	ck_assert_str_eq(sig3(9.996), "10");
	ck_assert_str_eq(sig3(1815.2), "1815");
	ck_assert_str_eq(sig3(306004), "306004");
	ck_assert_str_eq(sig3(-1.234), "-1.23");
	/* Sub-millisecond latencies never print as 0. */
	ck_assert_str_ne(sig3(0.0000012), "0");
}
END_TEST

/* Renders through a memory stream. */
static char *render(void (*fn)(FILE *, const void *), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fn(f, arg);
	fclose(f);
	return buf;
}

static void header_audio(FILE *f, const void *st) { table_header(f, "Audio", "", "", st); }
static void header_rt(FILE *f, const void *st) { table_header(f, "Video", "real time", "", st); }

START_TEST(header_words)
{
	struct table_style st = { .has_deadlines = true };
	char *h = render(header_audio, &st);
	ck_assert(strncmp(h, "--- Benchmarking simulated cpu of Audio in the presence of simulated ---\n", 73) == 0);
	ck_assert(strstr(h, "Latency +/- SD (ms)") && strstr(h, "Max Latency") &&
		  strstr(h, "% Desired CPU") && strstr(h, "% Deadlines Met"));
	free(h);
	st.microseconds = true;
	h = render(header_rt, &st);
	ck_assert(strstr(h, "of Video real time in the presence"));
	ck_assert(strstr(h, "Latency +/- SD (us)"));
	free(h);
	st.has_deadlines = false;
	h = render(header_audio, &st);
	ck_assert(strstr(h, "Deadlines") == NULL);
	free(h);
}
END_TEST

static void row_burn(FILE *f, const void *arg)
{
	static const struct table_style st = { .has_deadlines = true };
	table_row(f, "Burn", arg, &st);
}

START_TEST(row_fields)
{
	/* The classic columns show interbench 0.31's latency (ib_*), not scheduling latency. */
	struct pair_summary s = { .samples = 20, .latency_mean_ns = 1000, .latency_sd_ns = 10, .latency_max_ns = 2000,
				  .classic_mean_ns = 518000, .classic_sd_ns = 1730, .classic_max_ns = 52000000,
				  .desired_cpu_pct = 100, .deadlines_met_pct = 99.04 };
	char *row = render(row_burn, &s);
	char load[16], pm[8], mean[16], sd[16], max[16], cpu[16], met[16];
	ck_assert_int_eq(sscanf(row, "%15s %15s %7s %15s %15s %15s %15s", load, mean, pm, sd, max, cpu, met), 7);
	ck_assert_str_eq(load, "Burn");
	ck_assert_str_eq(mean, "0.518");
	ck_assert_str_eq(pm, "+/-");
	ck_assert_str_eq(sd, "0.00173");
	ck_assert_str_eq(max, "52");
	ck_assert_str_eq(cpu, "100");
	ck_assert_str_eq(met, "99");
	free(row);
}
END_TEST

/* A starved pair (no latency sample) shows "-", never a 0 that reads as the best latency;
 * medians over repeats leave its no-sample repeats out. */
START_TEST(no_samples_is_not_zero)
{
	struct pair_summary s = { .desired_cpu_pct = 0, .deadlines_met_pct = 0 };
	char *row = render(row_burn, &s);
	char load[16], pm[8], mean[16], sd[16], max[16], cpu[16], met[16];
	ck_assert_int_eq(sscanf(row, "%15s %15s %7s %15s %15s %15s %15s", load, mean, pm, sd, max, cpu, met), 7);
	ck_assert_str_eq(mean, "-");
	ck_assert_str_eq(sd, "-");
	ck_assert_str_eq(max, "-");
	ck_assert_str_eq(cpu, "0");
	free(row);
	struct pair_summary reps[3] = {
		{ .samples = 10, .latency_mean_ns = 100, .latency_max_ns = 300, .classic_mean_ns = 100 },
		{ .samples = 0 },
		{ .samples = 12, .latency_mean_ns = 200, .latency_max_ns = 500, .classic_mean_ns = 200 },
	}, med;
	double lo, hi;
	summary_median(reps, 3, &med, &lo, &hi);
	ck_assert_double_eq(med.latency_mean_ns, 150);   /* not the 100 a zero would make it */
	ck_assert_uint_eq(med.latency_max_ns, 400);
	ck_assert_double_eq(lo, 100);  /* the range of the classic (interbench) mean */
	ck_assert_double_eq(hi, 200);
	summary_median(&reps[1], 1, &med, &lo, &hi);
	ck_assert_uint_eq(med.samples, 0);
}
END_TEST

START_TEST(summary_from_result)
{
	static struct sim_result r;
	memset(&r, 0, sizeof(r));
	uint64_t samples[] = { 1000, 2000, 3000, 4000 };
	for (unsigned i = 0; i < 4; i++) {
		lat_stats_add(&r.sched, samples[i]);
		hist_add(&r.sched_hist, samples[i]);
	}
	r.acct = (struct deadline_acct){ .periods = 4, .met = 3, .missed = 1, .work_wanted_us = 200, .work_done_us = 150 };
	struct pair_summary s;
	pair_summarize(&r, &s);
	ck_assert_double_eq_tol(s.latency_mean_ns, 2500, 1e-9);
	ck_assert_double_eq_tol(s.latency_sd_ns, 1118.0339887, 1e-6); /* population SD of 1..4 us */
	ck_assert_uint_eq(s.latency_max_ns, 4000);
	ck_assert_double_eq_tol(s.deadlines_met_pct, 75, 1e-9);
	ck_assert_double_eq_tol(s.desired_cpu_pct, 75, 1e-9);
	ck_assert_uint_eq(s.sched_p999_ns, 4000);
}
END_TEST

/* The logfile as the writers write it reads back through the reader (one grammar,
 * report/logformat.h): the run header, a table title with both settings, rows, a failed row,
 * the load and interrupted lines under rows. */
START_TEST(writer_reader_round_trip)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct run_info info = { .kernel_release = "6.1.0", .kernel_version = "#1 SMP", .datestamp = "202611220000",
				 .loops_per_ms = 1000, .loops_source = "-l", .duration_s = 5, .cpus = 2,
				 .load_threads = 2, .comment = "forged\n--- Benchmarking Fake" };
	struct table_style st = { .has_deadlines = true };
	struct pair_summary a = { .samples = 10, .classic_mean_ns = 518000, .classic_sd_ns = 1000, .classic_max_ns = 2000000,
				  .desired_cpu_pct = 99.5, .deadlines_met_pct = 98 };
	logfile_header(f, &info, NULL);
	fprintf(f, "\n");
	table_header(f, "Audio", "nice -10", "nice 19", &st);
	table_row(f, "Burn", &a, &st);
	log_load_work(f, "Burn 6.5G loops/s", false);
	table_row(f, "Ring", &a, &st);
	log_row_interrupted(f, 1.2, 5, false);
	table_row_failed(f, "Hack", "fork: Resource temporarily unavailable");
	log_run_interrupted(f, "Interrupt");
	fclose(f);
	struct result_set rs;
	char err[256];
	ck_assert_msg(result_set_parse(buf, len, &rs, err, sizeof(err)) == 0, "%s\n%s", err, buf);
	ck_assert_uint_eq(rs.n, 3);                 /* the comment forged nothing */
	const struct rs_pair *p = result_set_find(&rs, "Audio nice -10 (loads nice 19)", "Burn");
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->n, 1);
	ck_assert_double_eq_tol(p->v[0].m[JM_MEAN], 518000, 1e-6);  /* interbench 0.31's definition */
	ck_assert_double_eq_tol(p->v[0].m[JM_CPU], 99.5, 1e-9);
	p = result_set_find(&rs, "Audio nice -10 (loads nice 19)", "Ring");
	ck_assert_uint_eq(p->n, 0);                 /* a partial window is taken back */
	ck_assert_str_eq(p->why, RS_INTERRUPTED_WHY);
	p = result_set_find(&rs, "Audio nice -10 (loads nice 19)", "Hack");
	ck_assert_str_eq(p->why, "fork: Resource temporarily unavailable");
	result_set_free(&rs);
	free(buf);
}
END_TEST


/* A disturbed row as written now (interbench 0.31's fields, the line under it) and as earlier
 * builds wrote it (" *" after the row; " ?" after one with a figure left unknown): all read
 * alike, the disturbance noted, the figures kept. */
START_TEST(disturbed_rows_old_and_new)
{
	static const char old_log[] =
		"--- Benchmarking simulated cpu of Audio in the presence of simulated ---\n"
		"Load      Latency +/- SD (ms)    Max Latency   % Desired CPU  % Deadlines Met\n"
		"Burn          0.518 +/- 0.001             2            99.5               98 *\n"
		"          * disturbed: other processes took 23.0 % of the run's CPUs during this pair (0.0 % steal)\n"
		"Ring          0.518 +/- 0.001             2            99.5               98 ?\n"
		"          window: 5.0 s, look 1 of 3: p99 would need ~78 s, past the last look at 60 s\n";
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct table_style st = { .has_deadlines = true };
	struct pair_summary a = { .samples = 10, .classic_mean_ns = 518000, .classic_sd_ns = 1000, .classic_max_ns = 2000000,
				  .desired_cpu_pct = 99.5, .deadlines_met_pct = 98 };
	table_header(f, "Audio", NULL, NULL, &st);
	table_row(f, "Burn", &a, &st);
	log_row_disturbed(f, 23, 0, 1, 1);
	table_row(f, "Ring", &a, &st);
	log_row_window(f, 0, 5, "stopped: p99 needs ~73 s more; --max-time allows 55 s more");
	fclose(f);
	const char *logs[] = { buf, old_log };
	for (int k = 0; k < 2; k++) {
		struct result_set rs;
		ck_assert_msg(result_set_parse(logs[k], strlen(logs[k]), &rs, err, sizeof(err)) == 0, "%s\n%s", err, logs[k]);
		const struct rs_pair *burn = result_set_find(&rs, "Audio", "Burn"), *ring = result_set_find(&rs, "Audio", "Ring");
		ck_assert_ptr_nonnull(burn);
		ck_assert_ptr_nonnull(ring);
		ck_assert_uint_eq(burn->n, 1);
		ck_assert_uint_eq(burn->disturbed, 1);
		ck_assert_double_eq_tol(burn->outside_cpu_pct, 23, 1e-9);
		ck_assert_double_eq_tol(burn->v[0].m[JM_MET], 98, 1e-9);
		ck_assert_uint_eq(ring->n, 1);
		ck_assert_uint_eq(ring->disturbed, 0);
		ck_assert_double_eq_tol(ring->v[0].m[JM_MET], 98, 1e-9);
		result_set_free(&rs);
	}
	ck_assert_msg(!strstr(buf, " *\n") && !strstr(buf, " ?\n"), "%s", buf);  /* no mark after a row */
	free(buf);
}
END_TEST

/* The verbose table's intervals of s, rendered (table_row_intervals). */
static void intervals_of(FILE *f, const void *s)
{
	static const struct table_style st = { .has_deadlines = true, .verbose = true };
	table_row_intervals(f, s, &st);
}

/* -v's lines of intervals: each figure that has one, in the table's unit; nothing when none. */
START_TEST(interval_line)
{
	struct pair_summary s = { .samples = 100, .periods = 100 };
	figure_intervals_clear(&s);
	char *buf = render(intervals_of, &s);
	ck_assert_str_eq(buf, "");
	free(buf);
	s.sched_p99_lo_ns = 1500000;
	s.sched_p99_hi_ns = 2500000;
	s.deadlines_met_lo_pct = 97.5;
	s.deadlines_met_hi_pct = 100;
	buf = render(intervals_of, &s);
	ck_assert_str_eq(buf, "          " LOG_ROW_CI " 95% CI: sched p99 1.5-2.5 ms\n"
			      "          " LOG_ROW_CI " 95% CI: % deadlines met 97.5-100\n");
	free(buf);
	/* open above: the low end alone, said so, never the max as an upper end */
	s.sched_p99_hi_ns = INFINITY;
	buf = render(intervals_of, &s);
	ck_assert_str_eq(buf, "          " LOG_ROW_CI " 95% CI: sched p99 >= 1.5 ms (open above)\n"
			      "          " LOG_ROW_CI " 95% CI: % deadlines met 97.5-100\n");
	free(buf);
	/* four figures: the latencies on a line, the shares on another, each within 100 columns
	 * whatever their values */
	s.latency_mean_lo_ns = 79200;
	s.latency_mean_hi_ns = 88900;
	s.desired_cpu_lo_pct = 93.9;
	s.desired_cpu_hi_pct = 100;
	s.deadlines_met_lo_pct = 93.9;
	s.sched_p99_lo_ns = 113000;
	buf = render(intervals_of, &s);
	ck_assert_str_eq(buf, "          " LOG_ROW_CI " 95% CI: sched mean 0.0792-0.0889 ms, sched p99 >= 0.113 ms (open above)\n"
			      "          " LOG_ROW_CI " 95% CI: % desired CPU 93.9-100, % deadlines met 93.9-100\n");
	free(buf);
	/* the level the run's intervals hold at, said */
	s.ci_alpha = 6.869e-4;   /* the second of three looks' share of 0.05 */
	buf = render(intervals_of, &s);
	ck_assert_msg(strncmp(buf, "          " LOG_ROW_CI " 99.93% CI: ", 32) == 0, "%s", buf);
	free(buf);
	s.ci_alpha = 1.1251e-11; /* the first's: not rounded to 100 % */
	buf = render(intervals_of, &s);
	ck_assert_msg(strncmp(buf, "          " LOG_ROW_CI " 1-1.1e-11 CI: ", 35) == 0, "%s", buf);
	free(buf);
}
END_TEST

/* Each line of text (NUL-terminated) is at most cols columns wide (ASCII). */
static bool lines_within(const char *text, size_t cols)
{
	for (const char *l = text; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n'))
		if (strcspn(l, "\n") > cols)
			return false;
	return true;
}

/* The legend names only the columns shown, within TABLE_LEGEND_COLS, its first line beginning
 * with the words the log reader looks for. */
START_TEST(legend_only_shown_columns)
{
	const struct table_legend plain = { .deadlines = true }, free_running = { 0 },
				  verbose = { .deadlines = true, .verbose = true, .repeats = true };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	table_legend(f, &plain);
	fclose(f);
	ck_assert_msg(strncmp(buf, TABLE_DEFINITIONS_PREFIX, strlen(TABLE_DEFINITIONS_PREFIX)) == 0, "%s", buf);
	ck_assert_msg(strstr(buf, "% Deadlines Met:") && strstr(buf, "% Desired CPU:"), "%s", buf);
	ck_assert_msg(!strstr(buf, "-v") && !strstr(buf, "timer") && !strstr(buf, "Mean range"), "%s", buf);
	ck_assert_msg(lines_within(buf, TABLE_LEGEND_COLS), "%s", buf);
	free(buf);
	f = open_memstream(&buf, &len);
	table_legend(f, &free_running);
	fclose(f);
	ck_assert_msg(!strstr(buf, "Deadlines"), "%s", buf);
	free(buf);
	f = open_memstream(&buf, &len);
	table_legend(f, &verbose);
	fclose(f);
	ck_assert_msg(strstr(buf, "Mean range of N") && strstr(buf, "(-v)") && strstr(buf, "timer latency"), "%s", buf);
	ck_assert_msg(lines_within(buf, TABLE_LEGEND_COLS), "%s", buf);
	ck_assert_msg(!strstr(buf, "columns:"), "%s", buf);
	free(buf);
	/* a task with columns of its own: its legend, named, only when it runs */
	const struct sim_measures own = { .name = "own", .legend = "knocks: how often it knocked, wrapped at the "
					  "legend's width like the rest of it, however long the words run on" };
	struct table_legend with_task = { .deadlines = true, .n_measures = 1 };
	with_task.measures[0] = &own;
	with_task.measures_task[0] = "Door";
	f = open_memstream(&buf, &len);
	table_legend(f, &with_task);
	fclose(f);
	ck_assert_msg(strstr(buf, "\nDoor's columns: knocks: how often it knocked"), "%s", buf);
	ck_assert_msg(lines_within(buf, TABLE_LEGEND_COLS), "%s", buf);
	free(buf);
}
END_TEST

/* -v's lines under a row, each figure under its definition's name, within 100 columns, read
 * back by the log reader: the p99 from the sched line, the row's mean as 0.31's. */
START_TEST(verbose_lines_round_trip)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct run_info info = { .kernel_release = "6.1.0", .kernel_version = "#1 SMP", .datestamp = "202611220000",
				 .loops_per_ms = 1000, .loops_source = "-l", .duration_s = 5, .cpus = 2, .load_threads = 2 };
	const struct table_legend lg = { .deadlines = true, .verbose = true };
	struct table_style st = { .has_deadlines = true, .verbose = true };
	struct pair_summary a = { .samples = 10, .timer_samples = 10, .frame_samples = 10, .latency_mean_ns = 20000,
				  .sched_p50_ns = 10000, .sched_p90_ns = 20000, .sched_p99_ns = 30100, .sched_p999_ns = 40000,
				  .latency_max_ns = 50000, .classic_mean_ns = 577000, .classic_sd_ns = 3020000,
				  .classic_max_ns = 16700000, .desired_cpu_pct = 100, .deadlines_met_pct = 98,
				  .task_cpu_pct = 5.01, .timer_p99_ns = 9000, .timer_max_ns = 12000 };
	struct pair_summary starved = { .desired_cpu_pct = 0 };
	logfile_header(f, &info, &lg);
	fprintf(f, "\n");
	table_header(f, "Audio", NULL, NULL, &st);
	table_row(f, "Burn", &a, &st);
	table_row_verbose(f, &a, &st);
	table_row(f, "Hack", &starved, &st);
	table_row_verbose(f, &starved, &st);
	fclose(f);
	ck_assert_msg(lines_within(buf, 100), "%s", buf);
	ck_assert_msg(strstr(buf, "          sched (ms): mean 0.02, p50 0.01, p90 0.02, p99 0.0301, p99.9 0.04, "
			      "max 0.05\n"), "%s", buf);
	ck_assert_msg(strstr(buf, "          timer latency (ms): p99 0.009, max 0.012; lateness (ms): p99 0, max 0\n"),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "          task cpu: 5.01 %; misses: longest run 0 ms, streaks 0; "
			      "frame time (ms): p99 0\n"), "%s", buf);
	ck_assert_msg(strstr(buf, "          sched (ms): mean -, p50 -, p90 -, p99 -, p99.9 -, max -\n"), "%s", buf);
	/* every -v figure of the figure table has its place on the three lines (report/table.c
	 * verbose_lines): a new one shows on a "more:" line until it is given one */
	ck_assert_msg(!strstr(buf, LOG_ROW_MORE), "%s", buf);
	struct result_set rs;
	ck_assert_msg(result_set_parse(buf, len, &rs, err, sizeof(err)) == 0, "%s\n%s", err, buf);
	const struct rs_pair *p = result_set_find(&rs, "Audio", "Burn");
	ck_assert_ptr_nonnull(p);
	ck_assert_double_eq_tol(p->v[0].m[JM_P99], 30100, 1e-6);
	ck_assert_double_eq_tol(p->v[0].m[JM_MEAN], 577000, 1e-6);   /* interbench 0.31's, as the legend says */
	ck_assert(rs.has[JM_P99]);
	p = result_set_find(&rs, "Audio", "Hack");
	ck_assert_ptr_nonnull(p);
	ck_assert(isinf(p->v[0].m[JM_P99]));
	result_set_free(&rs);
	free(buf);
}
END_TEST

/* A table of one Burn row marked disturbed (23 % by others, 1.5 % steal). */
static void disturbed_table(FILE *f, const void *arg)
{
	static const struct table_style st = { .has_deadlines = true };
	(void)arg;
	struct pair_summary a = { .samples = 10, .classic_mean_ns = 518000, .classic_max_ns = 2000000,
				  .desired_cpu_pct = 99.5, .deadlines_met_pct = 98 };
	table_header(f, "Audio", NULL, NULL, &st);
	table_row(f, "Burn", &a, &st);
	log_row_disturbed(f, 23, 1.5, 1, 1);
	table_row(f, "Ring", &a, &st);
	log_row_disturbed(f, 100, 10.5, 20, 20);   /* the widest: every repeat, all the CPUs */
}

/* The disturbed line states the mark it passed, and still reads back (the steal share too). */
START_TEST(disturbed_line_states_its_mark)
{
	char *buf = render(disturbed_table, NULL), err[256];
	ck_assert_msg(strstr(buf, "\n          * disturbed: others took 23.0 % of the CPUs (1.5 % steal)\n"
			      "          * the mark: other processes over 5 % of the run's CPUs, or steal over 2 %\n"), "%s", buf);
	struct result_set rs;
	ck_assert_msg(result_set_parse(buf, strlen(buf), &rs, err, sizeof(err)) == 0, "%s\n%s", err, buf);
	const struct rs_pair *p = result_set_find(&rs, "Audio", "Burn");
	ck_assert_uint_eq(p->disturbed, 1);
	ck_assert_double_eq_tol(p->outside_cpu_pct, 23, 1e-9);
	ck_assert_double_eq_tol(p->steal_pct, 1.5, 1e-9);
	p = result_set_find(&rs, "Audio", "Ring");
	ck_assert_uint_eq(p->disturbed, 1);
	ck_assert_double_eq_tol(p->outside_cpu_pct, 100, 1e-9);
	ck_assert_double_eq_tol(p->steal_pct, 10.5, 1e-9);
	ck_assert_msg(strstr(buf, "* disturbed: 20 of 20 repeats; at worst others took 100.0 % of the CPUs (10.5 % "
			      "steal)\n"), "%s", buf);
	ck_assert_msg(lines_within(buf, 100), "%s", buf);
	result_set_free(&rs);
	free(buf);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("table");
	TCase *tc = tcase_create("format");
	tcase_add_test(tc, three_significant_digits);
	tcase_add_test(tc, header_words);
	tcase_add_test(tc, row_fields);
	tcase_add_test(tc, no_samples_is_not_zero);
	tcase_add_test(tc, summary_from_result);
	tcase_add_test(tc, writer_reader_round_trip);
	tcase_add_test(tc, disturbed_rows_old_and_new);
	tcase_add_test(tc, interval_line);
	tcase_add_test(tc, legend_only_shown_columns);
	tcase_add_test(tc, verbose_lines_round_trip);
	tcase_add_test(tc, disturbed_line_states_its_mark);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
