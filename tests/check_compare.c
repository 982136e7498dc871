/* compare: Mann-Whitney U against reference values, thresholds, verdicts and exit statuses on
 * constructed results, the logfile reader on interbench 0.20/0.31 tables and ours, and the
 * false alarms of its verdicts on synthetic A/A pairs (tests/ck_synth.h). */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/compare.h"
#include "report/table.h"
#include "tools/mwu.h"
#include "engine/intervals.h"
#include "tests/ck_run.h"
#include "tests/ck_synth.h"

START_TEST(mann_whitney_reference)
{
	struct mwu_result r;
	/* scipy.stats.mannwhitneyu documentation example: U = 17, exact p = 0.1111 (1/9), and
	 * 0.11134688653314041 by the normal approximation with continuity correction. */
	const double males[] = { 19, 22, 16, 29, 24 }, females[] = { 20, 11, 17, 12 };
	ck_assert_int_eq(mwu_test(males, 5, females, 4, &r), 0);
	ck_assert(r.exact);
	ck_assert_double_eq(r.u, 17);
	ck_assert_double_eq_tol(r.p, 1.0 / 9, 1e-12);
	/* R's wilcox.test documentation (Hollander & Wolfe): W = 35, one-sided p = 0.1272, so
	 * two-sided 0.2544 (0.2544122544 by enumeration of all C(15, 5) arrangements). */
	const double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
	const double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	ck_assert_int_eq(mwu_test(x, 10, y, 5, &r), 0);
	ck_assert_double_eq(r.u, 35);
	ck_assert_double_eq_tol(r.p, 0.2544122544, 1e-9);
	/* Complete separation, 4 vs 4: p = 2 / C(8, 4) = 0.0285714. */
	const double lo[] = { 1, 2, 3, 4 }, hi[] = { 5, 6, 7, 8 };
	ck_assert_int_eq(mwu_test(lo, 4, hi, 4, &r), 0);
	ck_assert_double_eq(r.u, 0);
	ck_assert_double_eq_tol(r.p, 2.0 / 70, 1e-12);
	ck_assert_double_eq_tol(mwu_min_p(4, 4), 2.0 / 70, 1e-12);
	ck_assert_double_eq_tol(mwu_min_p(3, 3), 0.1, 1e-12);
	ck_assert(mwu_min_p(3, 3) > CMP_ALPHA && mwu_min_p(1, 20) > CMP_ALPHA && mwu_min_p(4, 4) < CMP_ALPHA);
}
END_TEST

START_TEST(mann_whitney_ties)
{
	struct mwu_result r;
	/* Ties: normal approximation.  U = 1 (the two x = 3 tie with y = 3: 2 x 1/2), mu = 15; tie
	 * groups of 2 (value 2), 3 (value 3), 2 (value 4) and 2 (value 5): sum(t^3 - t) = 42;
	 * sigma^2 = 30 / 12 * (12 - 42 / 110) = 29.0454545; z = (14 - 0.5) / 5.389383 = 2.504925;
	 * p = erfc(z / sqrt 2) = 0.0122477 (worked by hand and in a separate Python script). */
	const double x[] = { 1, 2, 2, 3, 3 }, y[] = { 3, 4, 4, 5, 5, 6 };
	ck_assert_int_eq(mwu_test(x, 5, y, 6, &r), 0);
	ck_assert(!r.exact);
	ck_assert_double_eq(r.u, 1);
	ck_assert_double_eq_tol(r.p, 0.0122477, 1e-6);
	/* All equal: no evidence at all. */
	const double same[] = { 7, 7, 7, 7 };
	ck_assert_int_eq(mwu_test(same, 4, same, 4, &r), 0);
	ck_assert_double_eq(r.p, 1);
	ck_assert_int_eq(mwu_test(same, 0, same, 4, &r), -1);
}
END_TEST

START_TEST(threshold_syntax)
{
	struct cmp_thresholds t;
	char err[256];
	cmp_default_thresholds(&t);
	ck_assert_double_eq(t.limit[JM_P99], 10);
	ck_assert_double_eq(t.limit[JM_MET], 1);
	ck_assert(isnan(t.limit[JM_MEAN]));
	ck_assert_int_eq(cmp_parse_thresholds("p99=5%,mean=20,deadlines=off,cpu=0.5", &t, err, sizeof(err)), 0);
	ck_assert_double_eq(t.limit[JM_P99], 5);
	ck_assert_double_eq(t.limit[JM_MEAN], 20);
	ck_assert(isnan(t.limit[JM_MET]));
	ck_assert_double_eq(t.limit[JM_CPU], 0.5);
	const char *bad[] = { "", "p99", "p98=1", "p99=-1", "p99=abc", "cpu=5%", "p99=1e400", "p99=nan", "max=5%%",
				",", "p99=5,", ",p99=5", "p99=0x10", "p99=1e1" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(cmp_parse_thresholds(bad[i], &t, err, sizeof(err)) == -1, "accepted '%s'", bad[i]);
}
END_TEST

/* A JSON document with Audio/None repeated n times: p99 = p99_ns + i * step_ns, deadlines
 * met met_pct (mean and max fixed); its last starved repeats took no latency sample, written
 * as a run writes them: samples 0, the latencies null, and 100 % deadlines met (a run counts
 * 100 % when no period completed). */
static void make_set_starved(struct result_set *rs, unsigned n, long p99_ns, long step_ns, double met_pct,
			     unsigned starved)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fprintf(f, "{\"schema_version\":1,\"generator\":\"interbench\",\"results\":[");
	for (unsigned i = 0; i < n; i++) {
		fprintf(f, "%s{\"simulation\":\"Audio\",\"load\":\"None\",\"mode\":\"\",\"repeat\":%u,"
			"\"has_deadlines\":true,", i ? "," : "", i + 1);
		if (i >= n - starved)
			fprintf(f, "\"samples\":0,\"latency_mean_ns\":null,\"latency_p99_ns\":null,\"latency_max_ns\":null,"
				"\"desired_cpu_ppm\":0,\"deadlines_met_ppm\":1000000}");
		else
			fprintf(f, "\"latency_mean_ns\":5000,\"latency_p99_ns\":%ld,\"latency_max_ns\":900000,"
				"\"desired_cpu_ppm\":1000000,\"deadlines_met_ppm\":%ld}", p99_ns + (long)i * step_ns,
				lround(met_pct * 1e4));
	}
	fprintf(f, "]}");
	fclose(f);
	ck_assert_msg(result_set_parse(buf, len, rs, err, sizeof(err)) == 0, "%s", err);
	free(buf);
}

static void make_set(struct result_set *rs, unsigned n, long p99_ns, long step_ns, double met_pct)
{
	make_set_starved(rs, n, p99_ns, step_ns, met_pct, 0);
}

/* compare_sets' status for old vs new under the default thresholds, output discarded. */
static int verdict(const struct result_set *a, const struct result_set *b)
{
	struct cmp_thresholds t;
	cmp_default_thresholds(&t);
	FILE *null = fopen("/dev/null", "w");
	int rc = compare_sets("old", a, "new", b, &t, null, null);
	fclose(null);
	return rc;
}

START_TEST(verdicts)
{
	struct result_set a, b;
	/* Single runs: threshold only. */
	make_set(&a, 1, 100000, 0, 100);
	make_set(&b, 1, 130000, 0, 100); /* p99 +30 % */
	ck_assert_int_eq(verdict(&a, &b), CMP_REGRESSION);
	ck_assert_int_eq(verdict(&b, &a), CMP_OK); /* an improvement */
	result_set_free(&b);
	make_set(&b, 1, 105000, 0, 99.5); /* noise within both thresholds */
	ck_assert_int_eq(verdict(&a, &b), CMP_OK);
	result_set_free(&b);
	make_set(&b, 1, 100000, 0, 98); /* deadlines 2 points lower */
	ck_assert_int_eq(verdict(&a, &b), CMP_REGRESSION);
	result_set_free(&a);
	result_set_free(&b);
	/* Five repeats a side: +20 % and clearly separated is significant, a regression. */
	make_set(&a, 5, 100000, 1000, 100);
	make_set(&b, 5, 120000, 1000, 100);
	ck_assert_int_eq(verdict(&a, &b), CMP_REGRESSION);
	result_set_free(&b);
	/* Median +12 % but the spreads overlap (p > 5 %): not a regression. */
	make_set(&b, 5, 92000, 10000, 100);
	ck_assert_int_eq(verdict(&a, &b), CMP_OK);
	result_set_free(&a);
	result_set_free(&b);
}
END_TEST

/* One measured run of Audio/None (schema version 3) with its p99 and % deadlines met and
 * their 95 % intervals (ns, %), and its largest scheduling latency max_ns. */
static void make_set_ci_max(struct result_set *rs, long p99_ns, long p99_lo_ns, long p99_hi_ns, long max_ns,
			    double met_pct, double met_lo_pct, double met_hi_pct)
{
	char buf[1024], err[256];
	int len = snprintf(buf, sizeof(buf), "{\"schema_version\":3,\"generator\":\"interbench\",\"results\":[{"
		"\"simulation\":\"Audio\",\"load\":\"None\",\"mode\":\"\",\"repeat\":1,\"has_deadlines\":true,"
		"\"latency_mean_ns\":5000,\"latency_p99_ns\":%ld,\"latency_p99_ns_ci\":[%ld,%ld],"
		"\"latency_max_ns\":%ld,\"desired_cpu_ppm\":1000000,\"deadlines_met_ppm\":%ld,"
		"\"deadlines_met_ppm_ci\":[%ld,%ld]}]}", p99_ns, p99_lo_ns, p99_hi_ns, max_ns, lround(met_pct * 1e4),
		lround(met_lo_pct * 1e4), lround(met_hi_pct * 1e4));
	ck_assert_msg(result_set_parse(buf, (size_t)len, rs, err, sizeof(err)) == 0, "%s", err);
}

/* The same with a largest latency of 900 us, above every p99 interval given. */
static void make_set_ci(struct result_set *rs, long p99_ns, long p99_lo_ns, long p99_hi_ns, double met_pct,
			double met_lo_pct, double met_hi_pct)
{
	make_set_ci_max(rs, p99_ns, p99_lo_ns, p99_hi_ns, 900000, met_pct, met_lo_pct, met_hi_pct);
}

static int compare_text(const struct result_set *a, const struct result_set *b, char *out, size_t outlen);

/* Without Mann-Whitney (too few repeats), a change beyond its threshold is a regression only
 * when the interval of the change excludes no change: from the runs' own intervals (one
 * repeat), or the t interval of the repeats' mean. */
START_TEST(interval_verdicts)
{
	struct result_set a, b;
	double lo, hi;
	make_set_ci(&a, 100000, 95000, 105000, 100, 100, 100);
	make_set_ci(&b, 130000, 125000, 135000, 100, 100, 100);  /* +30 %, intervals apart */
	ck_assert_int_eq(verdict(&a, &b), CMP_REGRESSION);
	ck_assert(cmp_change_interval(&a.pairs[0], &b.pairs[0], JM_P99, &lo, &hi));
	ck_assert(lo > 20 && lo < 30 && hi > 30 && hi < 40);  /* 30 -+ sqrt(5^2 + 5^2) % */
	result_set_free(&b);
	make_set_ci(&b, 130000, 60000, 260000, 100, 100, 100);  /* +30 %, but NEW is known to -40 % */
	ck_assert_int_eq(verdict(&a, &b), CMP_OK);
	char out[8192];
	ck_assert_int_eq(compare_text(&a, &b, out, sizeof(out)), CMP_OK);
	ck_assert_msg(strstr(out, "no change shown (-40.") && strstr(out, "Intervals: "), "%s", out);
	result_set_free(&b);
	make_set_ci(&b, 100000, 95000, 105000, 98, 97.5, 98.5);  /* 2 points fewer deadlines, known */
	ck_assert_int_eq(verdict(&a, &b), CMP_REGRESSION);
	result_set_free(&b);
	make_set_ci(&b, 100000, 95000, 105000, 98, 90, 100);     /* 2 points fewer, within the noise */
	ck_assert_int_eq(verdict(&a, &b), CMP_OK);
	result_set_free(&a);
	result_set_free(&b);
	/* Two repeats a side (no test possible): the repeats' own spread decides. */
	make_set(&a, 2, 100000, 0, 100);
	make_set(&b, 2, 130000, 0, 100);
	ck_assert_int_eq(verdict(&a, &b), CMP_REGRESSION);   /* no spread at all */
	result_set_free(&a);
	result_set_free(&b);
	make_set(&a, 2, 100000, 20000, 100);
	make_set(&b, 2, 130000, 20000, 100);
	ck_assert_int_eq(verdict(&a, &b), CMP_OK);           /* t(1) = 12.7 over a 20 us spread */
	result_set_free(&a);
	result_set_free(&b);
}
END_TEST

/* A p99 interval open above, as every single run of X (92 periods) and Audio's first looks
 * give: its upper end is the run's largest latency, an understatement, never a bound.  OLD's
 * open: no regression can be shown, however far NEW's p99 moved (the change's lower end is
 * -inf); NEW's open: its lower end still shows a regression beyond OLD's closed interval. */
START_TEST(open_above_p99_is_no_bound)
{
	struct result_set a, b;
	double lo, hi;
	char out[8192];
	make_set_ci_max(&a, 100000, 60000, 100000, 100000, 100, 99, 100);  /* p99 = max, open */
	make_set_ci_max(&b, 130000, 125000, 130000, 130000, 100, 99, 100); /* +30 %, open too */
	ck_assert(cmp_change_interval(&a.pairs[0], &b.pairs[0], JM_P99, &lo, &hi));
	ck_assert(isinf(lo) && lo < 0 && isinf(hi) && hi > 0);
	ck_assert_int_eq(verdict(&a, &b), CMP_OK);   /* [lo, max] as a bound: +25 %..+35 %, a regression */
	ck_assert_int_eq(compare_text(&a, &b, out, sizeof(out)), CMP_OK);
	ck_assert_msg(strstr(out, "no change shown (-inf%..+inf%)"), "%s", out);
	result_set_free(&a);
	result_set_free(&b);
	make_set_ci(&a, 100000, 95000, 105000, 100, 99, 100);              /* closed, max 900 us */
	make_set_ci_max(&b, 200000, 180000, 200000, 200000, 100, 99, 100); /* +100 %, open */
	ck_assert(cmp_change_interval(&a.pairs[0], &b.pairs[0], JM_P99, &lo, &hi));
	ck_assert_double_eq_tol(lo, 100 - sqrt(20 * 20 + 5 * 5), 1e-9);   /* % of OLD's 100 us */
	ck_assert(isinf(hi) && hi > 0);
	ck_assert_int_eq(verdict(&a, &b), CMP_REGRESSION);
	result_set_free(&b);
	make_set_ci_max(&b, 130000, 90000, 130000, 130000, 100, 99, 100);  /* +30 %, known only to -10 % */
	ck_assert_int_eq(verdict(&a, &b), CMP_OK);
	result_set_free(&a);
	result_set_free(&b);
}
END_TEST

static const char seed_tables[] =
	"    --- Benchmarking X in the presence of loads ---\n"
	"    Latency +/- SD (ms) Max Latency % Desired CPU % Deadlines Met\n"
	"    None 0.495 +/- 0.495 45 100 96\n"
	"\n"
	"    Benchmarking kernel 2.6.13-rc1 with datestamp 200507121411\n"
	"\n"
	"    --- Benchmarking Audio in the presence of loads ---\n"
	"    Latency +/- SD (ms) Max Latency % Desired CPU % Deadlines Met\n"
	"    None 0.003 +/- 0 0.005 100 100\n"
	"    Compile 4.59 +/- 5.74 426 96.5 94\n"
	"\n"
	"    Benchmarking kernel 2.6.12-rc6-ck1 with datestamp 200507121345\n"
	"\n"
	"    --- Benchmarking Audio in the presence of loads ---\n"
	"    Latency +/- SD (ms) Max Latency % Desired CPU % Deadlines Met\n"
	"    None 0.003 +/- 0 0.005 100 100\n"
	"    Video 0.003 +/- 0 0.004 100 100\n"
	"    X 2.53 +/- 3.01 11 100 100\n"
	"\n"
	"    --- Benchmarking Video in the presence of loads ---\n"
	"    Latency +/- SD (ms) Max Latency % Desired CPU % Deadlines Met\n"
	"    Burn 0.837 +/- 2.49 50 97.7 95.5\n"
	"\n"
	"    (any trailing text that is not a table)\n";

/* A table header of more columns than the reader keeps (31 words after % Deadlines Met, the
 * last the first word of a two-word label): read up to its bound, never past the words it has
 * (the fuzzer found the reader looking one word beyond).  The columns kept are 31, "timer" the
 * last: a row needs its 7 classic fields and 31 more, a shorter one is refused by line, and
 * "p99" past the bound is no p99 column. */
START_TEST(header_of_too_many_columns)
{
	char log[2048] = "Kernel version #1\n--- Benchmarking simulated cpu of Audio in the presence of simulated ---\n"
			 "Load      Latency +/- SD (ms)    Max Latency   % Desired CPU  % Deadlines Met";
	for (int i = 0; i < 30; i++)
		strcat(log, " p50");
	strcat(log, " timer p99 late max\n");
	size_t header_len = strlen(log);
	struct result_set rs;
	char err[256];
	strcat(log, "None 0.1 +/- 0.01 0.2 100 100\n");
	ck_assert_int_eq(result_set_parse(log, strlen(log), &rs, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "line 4: malformed or truncated row for Audio");
	log[header_len] = '\0';
	strcat(log, "None 0.1 +/- 0.01 0.2 100 97");
	for (int i = 0; i < 31; i++)
		strcat(log, " 0.3");
	strcat(log, "\n");
	ck_assert_msg(result_set_parse(log, strlen(log), &rs, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(rs.n, 1);
	ck_assert_str_eq(rs.pairs[0].sim, "Audio");
	ck_assert_str_eq(rs.pairs[0].load, "None");
	ck_assert_uint_eq(rs.pairs[0].n, 1);
	const struct rs_values *v = &rs.pairs[0].v[0];
	ck_assert_double_eq_tol(v->m[JM_SMEAN], 100000, 1e-6);  /* a log of ours without the definitions line */
	ck_assert_double_eq_tol(v->m[JM_SMAX], 200000, 1e-6);
	ck_assert_double_eq(v->m[JM_CPU], 100);
	ck_assert_double_eq(v->m[JM_MET], 97);
	ck_assert(isnan(v->m[JM_P99]));
	result_set_free(&rs);
}
END_TEST

START_TEST(seed_logfile)
{
	struct result_set rs;
	char err[256];
	ck_assert_msg(result_set_parse(seed_tables, sizeof(seed_tables) - 1, &rs, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(rs.format, "logfile");
	ck_assert_uint_eq(rs.n, 4); /* the last run only */
	ck_assert(!rs.has[JM_P99]);
	ck_assert_ptr_null(result_set_find(&rs, "Audio", "Compile"));
	const struct rs_pair *p = result_set_find(&rs, "Audio", "X");
	ck_assert_ptr_nonnull(p);
	ck_assert_double_eq_tol(p->v[0].m[JM_MEAN], 2.53e6, 1e-3);
	ck_assert_double_eq_tol(p->v[0].m[JM_MAX], 11e6, 1e-3);
	p = result_set_find(&rs, "Video", "Burn");
	ck_assert_double_eq(p->v[0].m[JM_CPU], 97.7);
	ck_assert_double_eq(p->v[0].m[JM_MET], 95.5);
	result_set_free(&rs);
}
END_TEST

START_TEST(v031_and_own_logfiles)
{
	static const char v031[] =
		"Benchmarking kernel 2.6.20 at datestamp 200702211200\n\n"
		"--- Benchmarking simulated cpu of Audio in the presence of simulated ---\n"
		"Load\tLatency +/- SD (ms)  Max Latency   % Desired CPU  % Deadlines Met\n"
		"None\t  0.003 +/- 0.000    0.005\t\t 100\t        100\n"
		"Burn\t  0.018 +/- 0.021    0.119\t\t 100\t        100\n\n"
		"--- Benchmarking simulated cpu of Gaming in the presence of simulated ---\n"
		"Load\tLatency +/- SD (ms)  Max Latency   % Desired CPU\n"
		"None\t     0 +/- 0         0\t\t 100\n";
	/* Our own logfile, verbatim from real runs (report/sink.c writes it): a plain run, then a
	 * -v run appended to the same file in which Audio/Burn's load was SIGKILLed and the run was
	 * interrupted by SIGINT during Video/Ring; the loads' throughput lines under the rows. */
	static const char ours[] =
		"Using 3691921 loops per ms (saved), running every load for 1 seconds\n"
		"Benchmarking kernel 6.18.44-fc-v657 at datestamp 202611220144\n"
		"Kernel version #1 SMP PREEMPT_DYNAMIC @0, 2 CPUs online, 2 load threads\n"
		"Comment: test\n"
		"\n"
		"\n"
		"--- Benchmarking simulated cpu of Audio in the presence of simulated ---\n"
		"Load      Latency +/- SD (ms)    Max Latency   % Desired CPU  % Deadlines Met\n"
		"None         0.132 +/- 0.0316            0.21             100              100\n"
		"Burn        0.0193 +/- 0.0376           0.178             100              100\n"
		"          load: Burn 6.98G loops/s\n"
		"Using 3691921 loops per ms (saved), running every load for 2 seconds\n"
		"Benchmarking kernel 6.18.44-fc-v657 at datestamp 202611220144\n"
		"Kernel version #1 SMP PREEMPT_DYNAMIC @0, 2 CPUs online, 2 load threads\n"
		"Comment: verbose, failed, interrupted\n"
		"\n"
		"\n"
		"--- Benchmarking simulated cpu of Audio in the presence of simulated ---\n"
		"Load      Latency +/- SD (ms)    Max Latency   % Desired CPU  % Deadlines Met        p50        p90"
		"        p99      p99.9  timer p99  timer max\n"
		"Burn      failed: load process ended without a result (killed by signal 9 (Killed))\n"
		"Ring        0.0378 +/- 0.0152           0.101             100              100     0.0358     0.0486"
		"      0.101      0.101      0.082      0.082\n"
		"          95% CI: mean sched latency 0.0331-0.0425 ms, p99 latency 0.0612-0.101 ms, % deadlines met 100-100\n"
		"          load: Ring 58.0K wakeups/s\n"
		"\n"
		"--- Benchmarking simulated cpu of Video in the presence of simulated ---\n"
		"Load      Latency +/- SD (ms)    Max Latency   % Desired CPU  % Deadlines Met        p50        p90"
		"        p99      p99.9  timer p99  timer max\n"
		"Burn         0.849 +/- 1.75              8.98            96.6             71.4     0.0089       3.62"
		"       5.57       8.98       1.54       1.54\n"
		"          load: Burn 5.47G loops/s\n"
		"Ring      failed: interrupted before the bench started\n"
		"          load: Ring 36.8K wakeups/s\n"
		"\n"
		"*** interrupted: the results above are what was measured before the signal (Interrupt)\n";
	/* A real -r -v --repeat 2 run: microseconds, medians with the range of the means, one
	 * throughput line per repeat. */
	static const char ours_repeats[] =
		"Using 3691921 loops per ms (saved), running every load for 1 seconds\n"
		"Benchmarking kernel 6.18.44-fc-v657 at datestamp 202611220144\n"
		"Kernel version #1 SMP PREEMPT_DYNAMIC @0, 2 CPUs online, 2 load threads\n"
		"\n"
		"\n"
		"--- Benchmarking simulated cpu of Video real time in the presence of simulated ---\n"
		"Load      Latency +/- SD (us)    Max Latency   % Desired CPU  % Deadlines Met        p50        p90"
		"        p99      p99.9  timer p99  timer max   Mean range of 2\n"
		"None          29.8 +/- 8.12                52             100              100       27.8       40.1"
		"         52         52        208        208   25.7-34\n"
		"Burn           135 +/- 204                891             100              100       57.6        458"
		"        891        891        523        523   30.5-240\n"
		"          load (one repeat): Burn 3.33G loops/s\n"
		"          load (one repeat): Burn 3.22G loops/s\n";
	struct result_set rs;
	char err[256];
	ck_assert_msg(result_set_parse(v031, sizeof(v031) - 1, &rs, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(rs.n, 3);
	ck_assert_double_eq_tol(result_set_find(&rs, "Audio", "Burn")->v[0].m[JM_MAX], 119000, 1e-6);
	ck_assert(isnan(result_set_find(&rs, "Gaming", "None")->v[0].m[JM_MET]));
	result_set_free(&rs);
	ck_assert_msg(result_set_parse(ours, sizeof(ours) - 1, &rs, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(rs.n, 4); /* the last run only: no Audio/None */
	ck_assert_ptr_null(result_set_find(&rs, "Audio", "None"));
	ck_assert(rs.has[JM_P99]);
	const struct rs_pair *p = result_set_find(&rs, "Audio", "Burn");
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->n, 0);
	ck_assert_uint_eq(p->failed, 1);
	ck_assert_str_eq(p->why, "load process ended without a result (killed by signal 9 (Killed))");
	p = result_set_find(&rs, "Audio", "Ring");
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->n, 1);
	ck_assert(isnan(p->v[0].m[JM_MEAN]));  /* a log of ours before the definitions line: */
	ck_assert_double_eq_tol(p->v[0].m[JM_SMEAN], 37800, 1e-6); /* its classic mean is scheduling latency */
	ck_assert_double_eq_tol(p->v[0].m[JM_P99], 101000, 1e-6);
	ck_assert_double_eq_tol(p->v[0].m[JM_MET], 100, 1e-9);
	p = result_set_find(&rs, "Video", "Burn");
	ck_assert_ptr_nonnull(p);
	ck_assert_double_eq_tol(p->v[0].m[JM_P99], 5.57e6, 1e-3);
	ck_assert_double_eq_tol(p->v[0].m[JM_CPU], 96.6, 1e-9);
	ck_assert_double_eq_tol(p->v[0].m[JM_MET], 71.4, 1e-9);
	p = result_set_find(&rs, "Video", "Ring");
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->n, 0);
	ck_assert_str_eq(p->why, "interrupted before the bench started");
	result_set_free(&rs);
	ck_assert_msg(result_set_parse(ours_repeats, sizeof(ours_repeats) - 1, &rs, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(rs.n, 2);
	p = result_set_find(&rs, "Video real time", "Burn");
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->n, 1);
	ck_assert_double_eq_tol(p->v[0].m[JM_SMEAN], 135000, 1e-6);
	ck_assert_double_eq_tol(p->v[0].m[JM_P99], 891000, 1e-6);
	result_set_free(&rs);
	/* Every truncation is either read or refused with one line; never a crash. */
	const char *const texts[] = { ours, ours_repeats };
	for (size_t t = 0; t < 2; t++)
		for (size_t cut = 0; cut < strlen(texts[t]); cut++) {
			err[0] = '\0';
			if (result_set_parse(texts[t], cut, &rs, err, sizeof(err)) == 0)
				result_set_free(&rs);
			else
				ck_assert(err[0] && !strchr(err, '\n'));
		}
	const char *bad[] = { "--- Benchmarking Audio in the presence of x ---\nLatency +/- SD (s) Max\n",
			      "--- Benchmarking Audio in the presence of x ---\nLatency +/- SD (ms) % Desired CPU\nNone 1 +/- x 1 1\n",
			      "--- Benchmarking Audio in the presence of x ---\nLatency +/- SD (ms) % Desired CPU\nNone -1 +/- 1 1 1\n",
			      "--- Benchmarking Audio in the presence of x ---\nLatency +/- SD (ms) % Desired CPU\nNone 1 +/- 1 1 1001\n",
			      "--- Benchmarking Audio in the presence of x ---\nLatency +/- SD (ms) % Desired CPU\nNone nan +/- 1 1 1\n",
			      "--- Benchmarking in the presence of x ---\n", "just some text\n" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(result_set_parse(bad[i], strlen(bad[i]), &rs, err, sizeof(err)) == -1, "accepted %s", bad[i]);
}
END_TEST

/* A window cut short by a signal is a partial measurement: compare must not weigh it against a
 * whole one.  The logfile marks it under its row, the JSON with "interrupted": true; both read
 * as a failed pair with RS_INTERRUPTED_WHY.  The logfile text is a real run, SIGINT mid-Burn. */
START_TEST(interrupted_windows_left_out)
{
	static const char log[] =
		"Using 3610277 loops per ms (saved), running every load for 3 seconds\n"
		"Benchmarking kernel 6.18.44-fc-v657 at datestamp 202611220154\n"
		"Kernel version #1 SMP PREEMPT_DYNAMIC @0, 2 CPUs online, 2 load threads\n"
		"Comment: interrupted mid-pair\n"
		"\n"
		"\n"
		"--- Benchmarking simulated cpu of Audio in the presence of simulated ---\n"
		"Load      Latency +/- SD (ms)    Max Latency   % Desired CPU  % Deadlines Met\n"
		"None        0.0171 +/- 0.00495         0.0415             100              100\n"
		"Burn          37.7 +/- 96.9               446              70               50\n"
		"          load: Burn 2.15G loops/s\n"
		"          interrupted: measured for 1.5 of 3 s\n"
		"\n"
		"*** interrupted: the results above are what was measured before the signal (Interrupt)\n";
	static const char json[] =
		"{\"schema_version\":1,\"generator\":\"interbench\",\"results\":["
		"{\"simulation\":\"Audio\",\"load\":\"Burn\",\"mode\":\"\",\"interrupted\":true,"
		"\"has_deadlines\":true,\"latency_mean_ns\":1,\"latency_p99_ns\":1,\"latency_max_ns\":1,"
		"\"desired_cpu_ppm\":1,\"deadlines_met_ppm\":1}]}";
	const char *const texts[] = { log, json };
	for (size_t t = 0; t < 2; t++) {
		struct result_set rs;
		char err[256];
		ck_assert_msg(result_set_parse(texts[t], strlen(texts[t]), &rs, err, sizeof(err)) == 0, "%s", err);
		const struct rs_pair *p = result_set_find(&rs, "Audio", "Burn");
		ck_assert_ptr_nonnull(p);
		ck_assert_uint_eq(p->n, 0);
		ck_assert_uint_eq(p->failed, 1);
		ck_assert_str_eq(p->why, RS_INTERRUPTED_WHY);
		if (t == 0)
			ck_assert_uint_eq(result_set_find(&rs, "Audio", "None")->n, 1);
		result_set_free(&rs);
	}
}
END_TEST

/* A starved pair in NEW (no latency sample: "-" in the log, null in JSON) is a regression,
 * never a 100% improvement; starved in both is not compared; an interrupted pair in NEW is
 * left out, not a regression; a hex figure in a log row is refused. */
START_TEST(starved_interrupted_and_hex)
{
	static const char head[] =
		"Using 3610277 loops per ms (saved), running every load for 3 seconds\n"
		"Benchmarking kernel 6.18.44-fc-v657 at datestamp 202611220154\n"
		"Kernel version #1 SMP PREEMPT_DYNAMIC @0, 2 CPUs online, 1024 load threads\n\n\n"
		"--- Benchmarking simulated cpu of Audio in the presence of simulated ---\n"
		"Load      Latency +/- SD (ms)    Max Latency   % Desired CPU  % Deadlines Met\n";
	char old_text[1024], starved_text[1024], hex_text[1024], err[256];
	snprintf(old_text, sizeof(old_text), "%sBurn          0.02 +/- 0.01            0.05             100              100\n", head);
	snprintf(starved_text, sizeof(starved_text), "%sBurn             - +/- -                  -               0                0\n", head);
	snprintf(hex_text, sizeof(hex_text), "%sBurn          0x10 +/- 0.01            0.05             100              100\n", head);
	struct result_set old, starved, json_starved, interrupted, hex;
	ck_assert_int_eq(result_set_parse(old_text, strlen(old_text), &old, err, sizeof(err)), 0);
	ck_assert_msg(result_set_parse(starved_text, strlen(starved_text), &starved, err, sizeof(err)) == 0, "%s", err);
	ck_assert(result_set_find(&starved, "Audio", "Burn")->v[0].no_samples);
	ck_assert_int_eq(verdict(&old, &starved), CMP_REGRESSION);
	ck_assert_int_eq(verdict(&starved, &starved), CMP_OK);  /* starved in both: nothing compared */
	static const char json[] =
		"{\"schema_version\":1,\"generator\":\"interbench 1.0.0\",\"results\":["
		"{\"simulation\":\"Audio\",\"load\":\"Burn\",\"mode\":\"\",\"has_deadlines\":true,\"samples\":0,"
		"\"latency_mean_ns\":null,\"latency_p99_ns\":null,\"latency_max_ns\":null,"
		"\"desired_cpu_ppm\":1000000,\"deadlines_met_ppm\":1000000}]}";
	ck_assert_msg(result_set_parse(json, strlen(json), &json_starved, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(verdict(&old, &json_starved), CMP_REGRESSION);
	ck_assert_int_eq(verdict(&json_starved, &old), CMP_OK);          /* never an improvement either */
	ck_assert_int_eq(verdict(&json_starved, &json_starved), CMP_OK); /* nothing to compare */
	static const char cut[] =
		"{\"schema_version\":1,\"generator\":\"interbench\",\"results\":["
		"{\"simulation\":\"Audio\",\"load\":\"Burn\",\"mode\":\"\",\"interrupted\":true,\"has_deadlines\":true,"
		"\"latency_mean_ns\":1,\"latency_p99_ns\":1,\"latency_max_ns\":1,\"desired_cpu_ppm\":1,\"deadlines_met_ppm\":1}]}";
	ck_assert_int_eq(result_set_parse(cut, strlen(cut), &interrupted, err, sizeof(err)), 0);
	ck_assert_int_eq(verdict(&old, &interrupted), CMP_OK);
	ck_assert_int_eq(result_set_parse(hex_text, strlen(hex_text), &hex, err, sizeof(err)), -1);
	char exp_text[1024];  /* interbench 0.31 prints %g: an exponent is a figure */
	snprintf(exp_text, sizeof(exp_text), "%sBurn      1.5e-05 +/- 2e-06            0.05             100              100\n", head);
	ck_assert_msg(result_set_parse(exp_text, strlen(exp_text), &hex, err, sizeof(err)) == 0, "%s", err);
	ck_assert_double_eq_tol(result_set_find(&hex, "Audio", "Burn")->v[0].m[JM_SMEAN], 15, 1e-9);
	result_set_free(&hex);
	result_set_free(&old);
	result_set_free(&starved);
	result_set_free(&json_starved);
	result_set_free(&interrupted);
}
END_TEST

START_TEST(exit_statuses)
{
	struct result_set a, b;
	char *none[] = { "compare", "/nonexistent.json", "/nonexistent2.json", NULL };
	char *one[] = { "compare", "x", NULL };
	char *badt[] = { "compare", "--threshold", "p99=x", "a", "b", NULL };
	FILE *null = fopen("/dev/null", "w");
	ck_assert_int_eq(compare_main(3, none, null, null), CMP_BAD_INPUT);
	ck_assert_int_eq(compare_main(2, one, null, null), CMP_BAD_INPUT);
	ck_assert_int_eq(compare_main(5, badt, null, null), CMP_BAD_INPUT);
	/* No pair in common. */
	make_set(&a, 1, 100000, 0, 100);
	static const char other[] = "--- Benchmarking X in the presence of loads ---\n"
		"Latency +/- SD (ms) Max Latency % Desired CPU % Deadlines Met\nBurn 1 +/- 1 2 100 100\n";
	ck_assert_int_eq(result_set_parse(other, sizeof(other) - 1, &b, (char[64]){ 0 }, 64), 0);
	ck_assert_int_eq(verdict(&a, &b), CMP_BAD_INPUT);
	result_set_free(&a);
	result_set_free(&b);
	fclose(null);
}
END_TEST

/* compare(a, b) with the default thresholds, its output in out (outlen bytes). */
static int compare_text(const struct result_set *a, const struct result_set *b, char *out, size_t outlen)
{
	struct cmp_thresholds t;
	cmp_default_thresholds(&t);
	FILE *f = fmemopen(out, outlen, "w");
	int rc = compare_sets("old", a, "new", b, &t, f, f);
	fclose(f);
	return rc;
}

static void parse_ok(const char *text, struct result_set *rs)
{
	char err[256];
	ck_assert_msg(result_set_parse(text, strlen(text), rs, err, sizeof(err)) == 0, "%s", err);
}

/* A JSON result of Video against Burn, deadlines_met_ppm met, with disturbance (a JSON
 * object's text, or "" for none). */
static void video_doc(char *buf, size_t len, long met, const char *disturbance)
{
	snprintf(buf, len, "{\"schema_version\":2,\"generator\":\"interbench\",\"results\":[{\"simulation\":\"Video\","
		 "\"load\":\"Burn\",\"mode\":\"\",\"repeat\":1,\"has_deadlines\":true,\"latency_mean_ns\":5000,"
		 "\"latency_p99_ns\":9000,\"latency_max_ns\":90000,\"desired_cpu_ppm\":1000000,"
		 "\"deadlines_met_ppm\":%ld%s%s}]}", met, disturbance[0] ? ",\"disturbance\":" : "", disturbance);
}

/* A pair disturbed in either result is warned of and judged "disturbed", never a regression;
 * below the levels, or without the object, the verdict is the usual one. */
START_TEST(disturbed_pairs_not_judged)
{
	static const char heavy[] = "{\"cpus\":2,\"outside_cpu_ns\":920000000,\"outside_cpu_ppm\":230000,"
				    "\"steal_ns\":0,\"steal_ppm\":0}";
	static const char light[] = "{\"cpus\":2,\"outside_cpu_ns\":40000000,\"outside_cpu_ppm\":10000,"
				    "\"steal_ns\":0,\"steal_ppm\":0}";
	static const char stolen[] = "{\"cpus\":2,\"outside_cpu_ns\":120000000,\"outside_cpu_ppm\":30000,"
				     "\"steal_ns\":120000000,\"steal_ppm\":30000}";
	char old_doc[1024], new_doc[1024], out[8192];
	struct result_set a, b;
	video_doc(old_doc, sizeof(old_doc), 995000, "");
	parse_ok(old_doc, &a);
	video_doc(new_doc, sizeof(new_doc), 38000, heavy);
	parse_ok(new_doc, &b);
	ck_assert_uint_eq(b.pairs[0].disturbed, 1);
	ck_assert_int_eq(compare_text(&a, &b, out, sizeof(out)), CMP_OK);
	ck_assert_msg(strstr(out, "Warning: Video/Burn: NEW was disturbed (outside CPU 23 %): its verdict is not "
			      "reliable\n"), "%s", out);
	ck_assert_msg(strstr(out, "  disturbed\n") && !strstr(out, "REGRESSION"), "%s", out);
	ck_assert_msg(strstr(out, "0 regressions"), "%s", out);
	/* in OLD: the same */
	ck_assert_int_eq(compare_text(&b, &a, out, sizeof(out)), CMP_OK);
	ck_assert_msg(strstr(out, "Warning: Video/Burn: OLD was disturbed"), "%s", out);
	result_set_free(&b);
	/* steal past its level alone */
	video_doc(new_doc, sizeof(new_doc), 38000, stolen);
	parse_ok(new_doc, &b);
	ck_assert_int_eq(compare_text(&a, &b, out, sizeof(out)), CMP_OK);
	ck_assert_msg(strstr(out, "NEW was disturbed (outside CPU 3 %)"), "%s", out);
	result_set_free(&b);
	/* a light disturbance: an ordinary regression, no warning */
	video_doc(new_doc, sizeof(new_doc), 38000, light);
	parse_ok(new_doc, &b);
	ck_assert_int_eq(compare_text(&a, &b, out, sizeof(out)), CMP_REGRESSION);
	ck_assert_msg(!strstr(out, "disturbed") && strstr(out, "REGRESSION"), "%s", out);
	result_set_free(&b);
	/* a malformed object is refused */
	char err[256];
	video_doc(new_doc, sizeof(new_doc), 38000, "{\"outside_cpu_ppm\":-1,\"steal_ppm\":0}");
	ck_assert_int_eq(result_set_parse(new_doc, strlen(new_doc), &b, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "out of range"), "%s", err);
	result_set_free(&a);
}
END_TEST

/* Our logfile's marked row and the line under it: the pair is disturbed, its share read. */
START_TEST(disturbed_logfile_row)
{
	static const char log[] =
		"--- Benchmarking simulated cpu of Video in the presence of simulated ---\n"
		"Load      Latency +/- SD (ms)    Max Latency   % Desired CPU  % Deadlines Met\n"
		"Burn         0.127 +/- 0.03             0.253             100              3.8 *\n"
		"          * disturbed: other processes took 23.4 % of the run's CPUs during this pair (1.5 % steal)\n"
		"None         0.127 +/- 0.03             0.253             100              100\n";
	struct result_set rs;
	parse_ok(log, &rs);
	ck_assert_uint_eq(rs.n, 2);
	const struct rs_pair *p = result_set_find(&rs, "Video", "Burn");
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->n, 1);
	ck_assert_uint_eq(p->disturbed, 1);
	ck_assert_double_eq_tol(p->outside_cpu_pct, 23.4, 1e-9);
	ck_assert_double_eq_tol(p->steal_pct, 1.5, 1e-9);
	ck_assert_double_eq_tol(p->v[0].m[JM_MET], 3.8, 1e-9);
	ck_assert_uint_eq(result_set_find(&rs, "Video", "None")->disturbed, 0);
	result_set_free(&rs);
}
END_TEST

/* The Simulation and Load columns widen for longer names (a sweep's or -r's words), so every
 * row's load stands under "Load". */
START_TEST(wide_names_aligned)
{
	static const char doc[] =
		"{\"schema_version\":2,\"generator\":\"interbench\",\"results\":[{\"simulation\":\"ProAudio\","
		"\"load\":\"Burn\",\"mode\":\"SCHED_BATCH nice -10\",\"repeat\":1,\"has_deadlines\":true,"
		"\"latency_mean_ns\":5000,\"latency_p99_ns\":9000,\"latency_max_ns\":90000,"
		"\"desired_cpu_ppm\":1000000,\"deadlines_met_ppm\":1000000}]}";
	struct result_set a, b;
	parse_ok(doc, &a);
	parse_ok(doc, &b);
	char out[8192];
	ck_assert_int_eq(compare_text(&a, &b, out, sizeof(out)), CMP_OK);
	const char *head = strstr(out, "\nSimulation"), *row = strstr(out, "\nProAudio SCHED_BATCH nice -10 ");
	ck_assert_msg(head && row, "%s", out);
	const char *load_col = strstr(head, " Load "), *burn_col = strstr(row, " Burn ");
	ck_assert_msg(load_col && burn_col, "%s", out);
	ck_assert_int_eq(load_col - head, burn_col - row);
	result_set_free(&a);
	result_set_free(&b);
}
END_TEST

/* Mean and max latency are compared only in a definition both results carry. */
START_TEST(latency_definitions)
{
	static const char table[] =
		"--- Benchmarking simulated cpu of Audio in the presence of simulated ---\n"
		"Load      Latency +/- SD (ms)    Max Latency   % Desired CPU  % Deadlines Met\n"
		"Burn         0.05 +/- 0.01              0.2             100              100\n";
	char v031[1024], ours_old[1024], ours_new[1024], out[8192];
	snprintf(v031, sizeof(v031), "Benchmarking kernel 2.6.20 at datestamp 200702211200\n\n%s", table);
	snprintf(ours_old, sizeof(ours_old), "Benchmarking kernel 6.1 at datestamp 202611220000\n"
		 "Kernel version #1 SMP, 2 CPUs online, 2 load threads\n\n%s", table);
	snprintf(ours_new, sizeof(ours_new), "Benchmarking kernel 6.1 at datestamp 202611220000\n"
		 "Kernel version #1 SMP, 2 CPUs online, 2 load threads\n%s\n\n%s", TABLE_DEFINITIONS_LINE, table);
	struct result_set a, b, c, j1, j2;
	parse_ok(v031, &a);
	parse_ok(ours_old, &b);
	parse_ok(ours_new, &c);
	ck_assert(a.has[JM_MEAN] && !a.has[JM_SMEAN]);   /* interbench 0.31: its own definition */
	ck_assert(!b.has[JM_MEAN] && b.has[JM_SMEAN]);   /* ours before the definitions line */
	ck_assert(c.has[JM_MEAN] && !c.has[JM_SMEAN]);
	ck_assert_int_eq(compare_text(&b, &c, out, sizeof(out)), CMP_BAD_INPUT);
	ck_assert_msg(strstr(out, "not comparable"), "%s", out);
	ck_assert_int_eq(compare_text(&c, &b, out, sizeof(out)), CMP_BAD_INPUT);
	ck_assert_int_eq(compare_text(&a, &c, out, sizeof(out)), CMP_OK);
	ck_assert_msg(strstr(out, "Latency compared: mean and max in interbench 0.31's definition"), "%s", out);
	ck_assert_msg(strstr(out, "mean latency") && !strstr(out, "sched latency"), "%s", out);
	/* JSON: a document from before the new keys against a new one compares scheduling latency. */
	static const char old_json[] =
		"{\"schema_version\":1,\"generator\":\"interbench\",\"results\":[{\"simulation\":\"Audio\",\"load\":\"Burn\","
		"\"mode\":\"\",\"has_deadlines\":true,\"latency_mean_ns\":5000,\"latency_p99_ns\":9000,"
		"\"latency_max_ns\":10000,\"desired_cpu_ppm\":1000000,\"deadlines_met_ppm\":1000000}]}";
	static const char new_json[] =
		"{\"schema_version\":2,\"generator\":\"interbench\",\"results\":[{\"simulation\":\"Audio\",\"load\":\"Burn\","
		"\"mode\":\"\",\"has_deadlines\":true,\"latency_mean_ns\":5000,\"latency_p99_ns\":9000,"
		"\"latency_max_ns\":10000,\"interbench_latency_mean_ns\":60000000,\"interbench_latency_sd_ns\":1,"
		"\"interbench_latency_max_ns\":60000000,\"desired_cpu_ppm\":1000000,\"deadlines_met_ppm\":1000000}]}";
	parse_ok(old_json, &j1);
	parse_ok(new_json, &j2);
	ck_assert_int_eq(compare_text(&j1, &j2, out, sizeof(out)), CMP_OK);
	ck_assert_msg(strstr(out, "Latency compared: mean and max as scheduling latency"), "%s", out);
	ck_assert_msg(strstr(out, "mean sched latency") && !strstr(out, "Burn     mean latency"), "%s", out);
	ck_assert_int_eq(compare_text(&j2, &j2, out, sizeof(out)), CMP_OK);
	ck_assert_msg(strstr(out, "interbench 0.31's definition"), "%s", out);
	ck_assert_int_eq(compare_text(&a, &j2, out, sizeof(out)), CMP_OK);  /* 0.31's log against new JSON */
	/* A -v table of this version, verbatim: every extra column (late p99, cpu %) read as one. */
	static const char verbose[] =
		"Benchmarking kernel 6.18.44-fc-v769 at datestamp 202611221511\n"
		"Kernel version #1 SMP PREEMPT_DYNAMIC @0, 2 CPUs online, 2 load threads\n"
		TABLE_DEFINITIONS_LINE "\n\n\n"
		"--- Benchmarking simulated cpu of Audio in the presence of simulated ---\n"
		"Load      Latency +/- SD (ms)    Max Latency   % Desired CPU  % Deadlines Met        p50        p90"
		"        p99      p99.9  timer p99  timer max   late p99   late max      cpu %\n"
		"Burn       0.00576 +/- 0.0014          0.0107             100              100    0.00563    0.00787"
		"     0.0107     0.0107      0.138      0.138      0.143      0.143       4.83\n";
	result_set_free(&a);
	parse_ok(verbose, &a);
	ck_assert_double_eq_tol(result_set_find(&a, "Audio", "Burn")->v[0].m[JM_P99], 10700, 1e-6);
	ck_assert_double_eq_tol(result_set_find(&a, "Audio", "Burn")->v[0].m[JM_MEAN], 5760, 1e-6);
	result_set_free(&a);
	result_set_free(&b);
	result_set_free(&c);
	result_set_free(&j1);
	result_set_free(&j2);
}
END_TEST

/* compare lists what differs between the machines and refuses different CPUs unless allowed. */
/* The results of a JSON document with one measured pair, Audio against None. */
#define ONE_AUDIO_RESULT \
	"\"results\":[{\"simulation\":\"Audio\",\"load\":\"None\",\"mode\":\"\",\"has_deadlines\":true," \
	"\"latency_mean_ns\":5000,\"latency_p99_ns\":9000,\"latency_max_ns\":10000,\"desired_cpu_ppm\":1000000," \
	"\"deadlines_met_ppm\":1000000}]}"

START_TEST(machine_guard)
{
	static const char fmt[] =
		"{\"schema_version\":2,\"generator\":\"interbench\",\"machine\":{\"cpu_model\":\"%s\",\"online_cpus\":2,"
		"\"audit\":{\"smt\":{\"value\":\"%s\",\"source\":\"x\"},\"scheduler\":{\"value\":\"%s\","
		"\"source\":\"x\"}}},\"options\":{\"dma_latency_us\":null}," ONE_AUDIO_RESULT;
	char a_text[1024], b_text[1024], c_text[1024], d_text[1024], out[8192];
	snprintf(a_text, sizeof(a_text), fmt, "Xeon", "1", "EEVDF");
	snprintf(b_text, sizeof(b_text), fmt, "Xeon", "0", "EEVDF");
	snprintf(c_text, sizeof(c_text), fmt, "EPYC", "1", "EEVDF");
	snprintf(d_text, sizeof(d_text), fmt, "Xeon", "1", "sched_ext: lavd");
	struct result_set a, b, c, d;
	parse_ok(a_text, &a);
	parse_ok(b_text, &b);
	parse_ok(c_text, &c);
	parse_ok(d_text, &d);
	ck_assert_int_eq(compare_text(&a, &b, out, sizeof(out)), CMP_OK);
	ck_assert_msg(strstr(out, "Warning: smt differs: OLD '1', NEW '0'"), "%s", out);
	ck_assert_msg(!strstr(out, "scheduler differs"), "%s", out);
	/* another scheduler is the point of a comparison: a warning, never a refusal */
	ck_assert_int_eq(compare_text(&a, &d, out, sizeof(out)), CMP_OK);
	ck_assert_msg(strstr(out, "Warning: scheduler differs: OLD 'EEVDF', NEW 'sched_ext: lavd'"), "%s", out);
	ck_assert_int_eq(compare_text(&a, &c, out, sizeof(out)), CMP_BAD_INPUT);
	ck_assert_msg(strstr(out, "different machines (cpu_model: OLD 'Xeon', NEW 'EPYC')"), "%s", out);
	struct cmp_thresholds t;
	cmp_default_thresholds(&t);
	t.allow_different_machine = true;
	FILE *f = fmemopen(out, sizeof(out), "w");
	ck_assert_int_eq(compare_sets("old", &a, "new", &c, &t, f, f), CMP_OK);
	fclose(f);
	ck_assert_msg(strstr(out, "Warning: cpu_model differs"), "%s", out);
	ck_assert_int_eq(compare_text(&a, &a, out, sizeof(out)), CMP_OK);
	ck_assert_msg(!strstr(out, "differs"), "%s", out);
	result_set_free(&a);
	result_set_free(&b);
	result_set_free(&c);
	result_set_free(&d);
}
END_TEST

/* Run options that shape every pair are facts too: a different --dsp-load or -L warns; the
 * settings compare matches per pair (nice, policy), the selection and the outputs do not. */
START_TEST(option_differences_warned)
{
	static const char fmt[] =
		"{\"schema_version\":2,\"generator\":\"interbench\",\"options\":{\"proaudio_dsp_load_pct\":%d,"
		"\"load_threads\":%d,\"uniprocessor\":%s,\"load_nice\":%d,\"comment\":\"%s\",\"cpus\":%s},"
		ONE_AUDIO_RESULT;
	char a_text[1024], b_text[1024], out[8192];
	snprintf(a_text, sizeof(a_text), fmt, 80, 1, "false", 0, "old run", "null");
	snprintf(b_text, sizeof(b_text), fmt, 40, 4, "true", 19, "new run", "[0,1]");
	struct result_set a, b;
	parse_ok(a_text, &a);
	parse_ok(b_text, &b);
	ck_assert_int_eq(compare_text(&a, &b, out, sizeof(out)), CMP_OK);
	ck_assert_msg(strstr(out, "Warning: proaudio_dsp_load_pct differs: OLD '80', NEW '40'"), "%s", out);
	ck_assert_msg(strstr(out, "Warning: load_threads differs: OLD '1', NEW '4'"), "%s", out);
	ck_assert_msg(strstr(out, "Warning: uniprocessor differs: OLD 'false', NEW 'true'"), "%s", out);
	ck_assert_msg(strstr(out, "Warning: cpus differs: OLD 'none', NEW '[0,1]'"), "%s", out);
	ck_assert_msg(!strstr(out, "load_nice") && !strstr(out, "comment"), "%s", out);
	result_set_free(&a);
	result_set_free(&b);
}
END_TEST

/* A fact's name comes from the file: cut at rs_fact's 32 bytes, "\u00e9" x 20 ends mid-character,
 * which jansson refuses; the warning still reaches --json (the cut replaced by U+FFFD), and a
 * control character in a name is escaped on the terminal. */
START_TEST(fact_names_into_json)
{
	static const char fmt[] =
		"{\"schema_version\":2,\"generator\":\"interbench\",\"options\":{\"%s\":%d,\"a\\u001b[2Jb\":%d},"
		"\"results\":[{\"simulation\":\"Audio\",\"load\":\"None\",\"mode\":\"\",\"has_deadlines\":true,"
		"\"latency_mean_ns\":5000,\"latency_p99_ns\":9000,\"latency_max_ns\":10000,\"desired_cpu_ppm\":1000000,"
		"\"deadlines_met_ppm\":1000000}]}";
	char name[64] = "", a_text[1024], b_text[1024], out[8192];
	for (int i = 0; i < 20; i++)
		strcat(name, "\xc3\xa9");
	snprintf(a_text, sizeof(a_text), fmt, name, 1, 1);
	snprintf(b_text, sizeof(b_text), fmt, name, 2, 2);
	struct result_set a, b;
	parse_ok(a_text, &a);
	parse_ok(b_text, &b);
	struct cmp_thresholds t;
	cmp_default_thresholds(&t);
	t.json = json_object();
	FILE *f = fmemopen(out, sizeof(out), "w");
	ck_assert_int_eq(compare_sets("old", &a, "new", &b, &t, f, f), CMP_OK);
	fclose(f);
	ck_assert_msg(strstr(out, "Warning: a\\x1b[2Jb differs: OLD '1', NEW '2'"), "%s", out);
	json_t *w = json_object_get(t.json, "warnings");
	ck_assert_uint_eq(json_array_size(w), 2);
	char want[64];
	snprintf(want, sizeof(want), "%.30s\xef\xbf\xbd", name);  /* 15 characters, then U+FFFD */
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(w, 0), "setting")), want);
	json_decref(t.json);
	result_set_free(&a);
	result_set_free(&b);
}
END_TEST

/* A table line of out (the whole line, up to its newline) that starts with prefix, or "". */
static const char *table_line(const char *out, const char *prefix, char *line, size_t len)
{
	const char *p = strstr(out, prefix);
	snprintf(line, len, "%.*s", p ? (int)strcspn(p, "\n") : 0, p ? p : "");
	return line;
}

/* --repeat 5 against 5 of which 2 starved (no latency sample): a starved repeat is no value
 * left out but the worst latency there is, +inf in the medians and Mann-Whitney's ranks, with
 * 0 % deadlines met, and a larger share of starved repeats in NEW is a regression. */
START_TEST(starved_repeats_rank_worst)
{
	struct result_set old, new;
	char out[8192], line[256];
	make_set(&old, 5, 100000, 1000, 100);
	make_set_starved(&new, 5, 100000, 1000, 100, 2);  /* the 3 others as OLD's first 3 */
	const struct rs_pair *a = result_set_find(&old, "Audio", "None"), *b = result_set_find(&new, "Audio", "None");
	ck_assert(b->v[4].no_samples && isinf(b->v[4].m[JM_P99]) && b->v[4].m[JM_P99] > 0);
	ck_assert_double_eq(b->v[4].m[JM_MET], 0);  /* 0 % met, whatever the document says */
	struct cmp_thresholds t;
	struct metric_cmp mc;
	cmp_default_thresholds(&t);
	ck_assert(compare_metric(a, b, JM_P99, &t, &mc));
	ck_assert_double_eq(mc.new, 102000);  /* the median of 100, 101, 102, inf, inf us */
	/* The ranks with midranks: OLD 100 101 102 103 104 us, NEW 100 101 102 inf inf: U of OLD
	 * = 0.5 + 1.5 + 2.5 + 3 + 3 = 10.5, mu = 12.5; ties 100, 101, 102 and inf, pairs each:
	 * sum(t^3 - t) = 24; sigma^2 = 25 / 12 * (11 - 24 / 90) = 22.3611; z = (2 - 0.5) / 4.72875
	 * = 0.317208; p = erfc(z / sqrt 2) = 0.751086 (worked by hand and checked in Python): nowhere near significant. */
	ck_assert(mc.tested);
	ck_assert_double_eq_tol(mc.p, 0.751086, 1e-6);
	ck_assert_int_eq(compare_text(&old, &new, out, sizeof(out)), CMP_REGRESSION);
	ck_assert_msg(strstr(table_line(out, "Audio            None     starved repeats", line, sizeof(line)),
			     "0 of 5     2 of 5  +40.00 pt      -  REGRESSION"), "%s", out);
	ck_assert_msg(strstr(out, "\nStarved: a repeat that took no latency sample"), "%s", out);
	ck_assert_msg(strstr(out, "1 pair compared: 1 regression beyond"), "%s", out);
	ck_assert_int_eq(compare_text(&new, &old, out, sizeof(out)), CMP_OK);  /* fewer starved: better */
	result_set_free(&new);
	/* 3 of 5 starved: the medians are starved, shown so, never as a number; the ranks put
	 * NEW's 3 infinities above all of OLD's values. */
	make_set_starved(&new, 5, 100000, 1000, 100, 3);
	b = result_set_find(&new, "Audio", "None");
	/* p99: U of OLD = 0.5 + 1.5 + 2 + 2 + 2 = 8; ties 100, 101 (pairs) and inf (3): sum(t^3 - t)
	 * = 36; sigma^2 = 25 / 12 * (11 - 36 / 90) = 22.0833; z = (4.5 - 0.5) / 4.69929; p =
	 * 0.394663.  % met: OLD 100 x 5, NEW 100 100 0 0 0: U = 5 x 4 = 20; ties 7 and 3: 360;
	 * sigma^2 = 14.5833; z = 7 / 3.81881; p = 0.0667981 (worked by hand and checked in Python).  Neither alone is
	 * significant at 5 %: the starved repeats' own row flags the pair. */
	ck_assert(compare_metric(a, b, JM_P99, &t, &mc));
	ck_assert(isinf(mc.new) && isinf(mc.change) && mc.tested && !mc.regression);
	ck_assert_double_eq_tol(mc.p, 0.394663, 1e-6);
	ck_assert(compare_metric(a, b, JM_MET, &t, &mc));
	ck_assert(mc.new == 0 && mc.change == -100 && mc.tested);  /* worse when lower */
	ck_assert_double_eq_tol(mc.p, 0.0667981, 1e-6);
	ck_assert_int_eq(compare_text(&old, &new, out, sizeof(out)), CMP_REGRESSION);
	ck_assert_msg(strstr(table_line(out, "Audio            None     p99 latency", line, sizeof(line)),
			     "0.102    starved    starved"), "%s", out);
	result_set_free(&new);
	result_set_free(&old);
}
END_TEST

/* A logfile of n pairs, "Sim<i / 100>" against "L<i % 100>" (the classic table of
 * report/logformat.h, one run), parsed into *rs.  Returns result_set_parse's status, its
 * reason in err (256 bytes). */
static int parse_large_log(struct result_set *rs, unsigned n, char *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fprintf(f, "Benchmarking kernel 6.1 at datestamp 202611230000\n");
	for (unsigned i = 0; i < n; i++) {
		if (i % 100 == 0)
			fprintf(f, "\n--- Benchmarking simulated cpu of Sim%u in the presence of simulated ---\n"
				"Load      Latency +/- SD (ms)    Max Latency   %% Desired CPU  %% Deadlines Met\n", i / 100);
		fprintf(f, "L%u 0.005 +/- 0.001 0.09 100 100\n", i % 100);
	}
	fclose(f);
	int rc = result_set_parse(buf, len, rs, err, 256);
	free(buf);
	return rc;
}

static void make_large_log(struct result_set *rs, unsigned n)
{
	char err[256];
	ck_assert_msg(parse_large_log(rs, n, err) == 0, "%s", err);
}

/* 40000 pairs are read and compared pair by pair, by key and by name: each pair found where it
 * is, every pair matched, none past RS_MAX_PAIRS read.  The lookups are O(log n)
 * (tools/resultset.h, by_key); how fast is a bench's question, not this test's: its test
 * case has a timeout generous for a shared host and sanitizers. */
START_TEST(large_sets_bounded)
{
	enum { N = 40000 };
	struct result_set a, b;
	make_large_log(&a, N);
	make_large_log(&b, N);
	ck_assert_uint_eq(a.n, N);
	const struct rs_pair *p = result_set_find(&b, "Sim399", "L99");
	ck_assert_ptr_eq(p, &b.pairs[N - 1]);
	ck_assert_ptr_eq(result_set_find_name(&b, "Sim7 nice 19", "L3"), &b.pairs[703]);
	ck_assert_ptr_null(result_set_find(&b, "Sim400", "L0"));
	struct cmp_thresholds t;
	cmp_default_thresholds(&t);
	for (int by_name = 0; by_name < 2; by_name++) {
		char tail[128];
		FILE *out = tmpfile();
		t.match_names = by_name;
		ck_assert_int_eq(compare_sets("old", &a, "new", &b, &t, out, out), CMP_OK);
		fseek(out, -(long)sizeof(tail) + 1, SEEK_END);
		tail[fread(tail, 1, sizeof(tail) - 1, out)] = '\0';
		fclose(out);
		ck_assert_msg(strstr(tail, "\n40000 pairs compared: 0 regressions"), "%s", tail);
	}
	result_set_free(&a);
	result_set_free(&b);
	char err[256];
	ck_assert_int_eq(parse_large_log(&a, RS_MAX_PAIRS + 1, err), -1);
	ck_assert_str_eq(err, "more than 100000 (simulation, load) pairs");
}
END_TEST

/* What confined a run is a fact: a different CPU set, CPU quota or concurrent run is a warning
 * before any figure; a result written before these were recorded is not warned of. */
START_TEST(confinement_differences_warned)
{
	static const char fmt[] =
		"{\"schema_version\":2,\"generator\":\"interbench\",\"machine\":{\"online_cpus\":2%s},%s"
		ONE_AUDIO_RESULT;
	char a_text[1024], b_text[1024], c_text[1024], out[8192];
	snprintf(a_text, sizeof(a_text), fmt, ",\"allowed_cpus\":2,\"allowed_cpu_list\":\"0-1\",\"cpu_quota_us\":null",
		 "\"run\":{\"concurrent_run_pid\":null},");
	snprintf(b_text, sizeof(b_text), fmt, ",\"allowed_cpus\":1,\"allowed_cpu_list\":\"1\",\"cpu_quota_us\":5000",
		 "\"run\":{\"concurrent_run_pid\":4242},");
	snprintf(c_text, sizeof(c_text), fmt, "", "");
	const char *const texts[3] = { a_text, b_text, c_text };
	struct result_set rs[3];   /* confined differently, and from before confinement was recorded */
	for (int i = 0; i < 3; i++)
		parse_ok(texts[i], &rs[i]);
	ck_assert_int_eq(compare_text(&rs[0], &rs[1], out, sizeof(out)), CMP_OK);
	ck_assert_msg(strstr(out, "Warning: allowed_cpus differs: OLD '2', NEW '1'"), "%s", out);
	ck_assert_msg(strstr(out, "Warning: allowed_cpu_list differs: OLD '0-1', NEW '1'"), "%s", out);
	ck_assert_msg(strstr(out, "Warning: cpu_quota_us differs: OLD 'none', NEW '5000'"), "%s", out);
	ck_assert_msg(strstr(out, "Warning: concurrent_run_pid differs: OLD 'none', NEW '4242'"), "%s", out);
	ck_assert_msg(strstr(out, "Warning: allowed_cpus") < strstr(out, "Verdict"), "%s", out);
	ck_assert_int_eq(compare_text(&rs[2], &rs[1], out, sizeof(out)), CMP_OK);
	ck_assert_msg(!strstr(out, "Warning:"), "%s", out);
	for (int i = 0; i < 3; i++)
		result_set_free(&rs[i]);
}
END_TEST

/* compare's false alarms on A/A pairs: OLD and NEW measured from the same latency model, so
 * every REGRESSION is a false alarm.  A verdict needs the change beyond its threshold and
 * shown: by the 95 % interval of the change (one run a side, MOVER on the runs' own
 * intervals) or by Mann-Whitney at CMP_ALPHA (5 repeats a side), both two-sided, so a
 * regression (one side) is a false alarm in at most CMP_ALPHA / 2 = 2.5 % of A/A pairs when
 * the intervals and the test are valid.  The fraction seen over n pairs may pass 2.5 % by
 * chance: BINOM_Z999 = 3.090 standard errors of a binomial proportion at 2.5 % is its 99.9 %
 * one-sided upper bound (normal approximation; 2.84 % at 20000 pairs, 3.26 % at 4000), so a
 * correct compare fails a case about once in a thousand seeds, and these seeds are fixed.
 * Before an open-above p99 was taken as unbounded, X's and Audio's first look gave 5.2 to
 * 6.1 % here. */

/* The bound on a false-alarm fraction over n A/A pairs at the nominal one-sided level. */
static double false_alarm_bound(unsigned n)
{
	return binomial_ceiling(CMP_ALPHA / 2, n);
}

/* One repeat's figures as a JSON result gives them: the p99 and its interval at one look
 * (sim_intervals, as engine/summary.c takes them), the scheduling latency's mean and max, ns. */
static void synth_values(const struct synth_model *m, unsigned periods, uint64_t *rng, struct rs_values *v)
{
	static struct sim_result r;
	struct sim_interval iv[SIM_JUDGED];
	synth_run(&r, m, periods, rng);
	sim_intervals(&r, 1, iv);
	for (int k = 0; k < JM_METRICS; k++)
		v->m[k] = v->lo[k] = v->hi[k] = NAN;
	v->no_samples = false;
	v->m[JM_SMEAN] = r.sched.mean_ns;
	v->m[JM_SMAX] = (double)r.sched.max_ns;
	v->m[JM_P99] = iv[SIM_LATENCY_P99].value;
	v->lo[JM_P99] = iv[SIM_LATENCY_P99].lo;
	v->hi[JM_P99] = iv[SIM_LATENCY_P99].hi;
	v->m[JM_MET] = iv[SIM_DEADLINES_MET].value;
	v->lo[JM_MET] = iv[SIM_DEADLINES_MET].lo;
	v->hi[JM_MET] = iv[SIM_DEADLINES_MET].hi;
}

/* The fraction of `pairs` A/A pairs of model m, `repeats` runs of `periods` periods a side,
 * that compare calls a regression of figure `fig` at its default thresholds. */
static double false_alarms(const struct synth_model *m, enum judged_metric fig, unsigned periods, unsigned repeats,
			   unsigned pairs, uint64_t salt)
{
	struct rs_values va[8], vb[8];
	struct rs_pair a = { .n = repeats, .v = va }, b = { .n = repeats, .v = vb };
	struct cmp_thresholds t;
	cmp_default_thresholds(&t);
	unsigned alarms = 0;
	ck_assert_uint_le(repeats, 8);
	for (unsigned i = 0; i < pairs; i++) {
		uint64_t rng = synth_seed(salt, i);
		for (unsigned k = 0; k < repeats; k++) {
			synth_values(m, periods, &rng, &va[k]);
			synth_values(m, periods, &rng, &vb[k]);
		}
		struct metric_cmp mc;
		ck_assert(compare_metric(&a, &b, fig, &t, &mc));
		alarms += mc.regression;
	}
	return (double)alarms / pairs;
}

/* p99: X's sweep (92 periods, a p99 interval open above: the sample's max), Audio's first look
 * (100) and a 60 s Audio window (1200), quiet and with 1 % stalls.  % deadlines met: 3 % of
 * periods missed at random, at Audio's first look and over 60 s. */
START_TEST(a_a_false_alarms)
{
	static const struct synth_model quiet = { .floor_ns = 20000, .scale_ns = 10000 },
		stalls = { .floor_ns = 20000, .scale_ns = 10000, .stall_ppm = 10000, .stall_ns = 2000000 },
		misses = { .floor_ns = 20000, .scale_ns = 10000, .miss_ppm = 30000 };
	static const struct {
		const char *name;
		const struct synth_model *m;
		enum judged_metric fig;
		unsigned periods, repeats, pairs;
	} c[] = {
		{ "p99, X sweep, 1 run a side", &quiet, JM_P99, 92, 1, 20000 },
		{ "p99, Audio first look, 1 run a side", &quiet, JM_P99, 100, 1, 20000 },
		{ "p99, X sweep, 1 % stalls, 1 run a side", &stalls, JM_P99, 92, 1, 20000 },
		{ "p99, Audio 60 s, 1 run a side", &quiet, JM_P99, 1200, 1, 4000 },
		{ "p99, Audio 60 s, 1 % stalls, 1 run a side", &stalls, JM_P99, 1200, 1, 4000 },
		{ "p99, X sweep, 5 repeats a side", &quiet, JM_P99, 92, 5, 4000 },
		{ "p99, X sweep, 1 % stalls, 5 repeats a side", &stalls, JM_P99, 92, 5, 4000 },
		{ "met, Audio first look, 3 % missed, 1 run a side", &misses, JM_MET, 100, 1, 20000 },
		{ "met, Audio 60 s, 3 % missed, 1 run a side", &misses, JM_MET, 1200, 1, 4000 },
		{ "met, Audio first look, 3 % missed, 5 repeats a side", &misses, JM_MET, 100, 5, 4000 },
	};
	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		unsigned pairs = c[i].pairs;
		double fa = false_alarms(c[i].m, c[i].fig, c[i].periods, c[i].repeats, pairs, 0x5eed0000u + i);
		printf("A/A false alarms, %s: %.2f%% of %u pairs (bound %.2f%%)\n", c[i].name, 100 * fa, pairs,
		       100 * false_alarm_bound(pairs));
		fflush(stdout);
		ck_assert_msg(fa <= false_alarm_bound(pairs), "%s: %.2f%% false alarms", c[i].name, 100 * fa);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, mann_whitney_reference);
	tcase_add_test(tc, mann_whitney_ties);
	tcase_add_test(tc, threshold_syntax);
	tcase_add_test(tc, verdicts);
	tcase_add_test(tc, interval_verdicts);
	tcase_add_test(tc, open_above_p99_is_no_bound);
	tcase_add_test(tc, latency_definitions);
	tcase_add_test(tc, machine_guard);
	tcase_add_test(tc, seed_logfile);
	tcase_add_test(tc, header_of_too_many_columns);
	tcase_add_test(tc, v031_and_own_logfiles);
	tcase_add_test(tc, interrupted_windows_left_out);
	tcase_add_test(tc, starved_interrupted_and_hex);
	tcase_add_test(tc, exit_statuses);
	tcase_add_test(tc, wide_names_aligned);
	tcase_add_test(tc, option_differences_warned);
	tcase_add_test(tc, starved_repeats_rank_worst);
	tcase_add_test(tc, fact_names_into_json);
	tcase_add_test(tc, confinement_differences_warned);
	tcase_add_test(tc, disturbed_pairs_not_judged);
	tcase_add_test(tc, disturbed_logfile_row);
	suite_add_tcase(s, tc);
	/* Long work, not a measure of speed: 80000 pairs read and compared; a second here, more
	 * under sanitizers or on a busy host. */
	TCase *slow = tcase_create("long");
	tcase_set_timeout(slow, 600);
	tcase_add_test(slow, large_sets_bounded);
	suite_add_tcase(s, slow);
	/* Some 100000 synthetic runs judged, for a rate (tests/ck_synth.h CK_REPLICATIONS_TAG). */
	TCase *reps = tcase_create("replications");
	tcase_set_timeout(reps, 600);
	tcase_set_tags(reps, CK_REPLICATIONS_TAG);
	tcase_add_test(reps, a_a_false_alarms);
	suite_add_tcase(s, reps);
	return ck_run(s);
}
