#include <math.h>
#include <string.h>
#include "results/summary.h"

void pair_summarize(const struct sim_result *r, struct pair_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->samples = r->sched.count;
	s->latency_mean_ns = r->sched.mean_ns;
	s->latency_sd_ns = lat_stats_sd_ns(&r->sched);
	s->latency_max_ns = r->sched.max_ns;
	s->desired_cpu_pct = deadline_desired_cpu_pct(&r->acct);
	s->deadlines_met_pct = deadline_met_pct(&r->acct);
	s->periods = r->acct.periods;
	s->deadlines_met = r->acct.met;
	s->deadlines_missed = r->acct.missed;
	s->periods_skipped = r->acct.skipped;
	s->sched_p50_ns = hist_percentile_ns(&r->sched_hist, 50, r->sched.max_ns);
	s->sched_p90_ns = hist_percentile_ns(&r->sched_hist, 90, r->sched.max_ns);
	s->sched_p99_ns = hist_percentile_ns(&r->sched_hist, 99, r->sched.max_ns);
	s->sched_p999_ns = hist_percentile_ns(&r->sched_hist, 99.9, r->sched.max_ns);
	s->timer_samples = r->timer.count;
	s->timer_mean_ns = r->timer.mean_ns;
	s->timer_max_ns = r->timer.max_ns;
	s->timer_p50_ns = hist_percentile_ns(&r->timer_hist, 50, r->timer.max_ns);
	s->timer_p90_ns = hist_percentile_ns(&r->timer_hist, 90, r->timer.max_ns);
	s->timer_p99_ns = hist_percentile_ns(&r->timer_hist, 99, r->timer.max_ns);
	s->timer_p999_ns = hist_percentile_ns(&r->timer_hist, 99.9, r->timer.max_ns);
}

void fmt_sig3(double v, char *buf, size_t len)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "%s", isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf"));
		return;
	}
	double a = fabs(v);
	if (a == 0.0) {
		snprintf(buf, len, "0");
		return;
	}
	int decimals = 0;
	if (a < 999.5) {
		/* Digits after the point so that three significant digits remain. */
		int mag = (int)floor(log10(a));
		decimals = 2 - mag;
		/* Rounding can carry into the next decade (9.996 -> 10.0). */
		double rounded = round(a * pow(10, decimals)) / pow(10, decimals);
		if (rounded >= pow(10, mag + 1))
			decimals--;
		if (decimals < 0)
			decimals = 0;
	}
	snprintf(buf, len, "%.*f", decimals, v);
	if (decimals > 0) {
		char *end = buf + strlen(buf) - 1;
		while (*end == '0')
			*end-- = '\0';
		if (*end == '.')
			*end = '\0';
	}
}

static double to_unit(double ns, const struct table_style *st)
{
	return ns / (st->microseconds ? 1e3 : 1e6);
}

void table_header(FILE *f, const char *sim_name, const char *mode, const struct table_style *st)
{
	const char *unit = st->microseconds ? "us" : "ms";
	fprintf(f, "--- Benchmarking simulated cpu of %s%s%s in the presence of simulated ---\n",
		sim_name, mode && *mode ? " " : "", mode ? mode : "");
	fprintf(f, "Load      Latency +/- SD (%s)    Max Latency   %% Desired CPU", unit);
	if (st->has_deadlines)
		fprintf(f, "  %% Deadlines Met");
	if (st->verbose)
		fprintf(f, "        p50        p99      p99.9");
	fprintf(f, "\n");
}

void table_row(FILE *f, const char *load, const struct pair_summary *s, const struct table_style *st)
{
	char mean[32], sd[32], max[32], cpu[32], met[32];
	fmt_sig3(to_unit(s->latency_mean_ns, st), mean, sizeof(mean));
	fmt_sig3(to_unit(s->latency_sd_ns, st), sd, sizeof(sd));
	fmt_sig3(to_unit((double)s->latency_max_ns, st), max, sizeof(max));
	fmt_sig3(s->desired_cpu_pct, cpu, sizeof(cpu));
	fmt_sig3(s->deadlines_met_pct, met, sizeof(met));
	fprintf(f, "%-9s %8s +/- %-10s %11s %15s", load, mean, sd, max, cpu);
	if (st->has_deadlines)
		fprintf(f, " %16s", met);
	if (st->verbose) {
		char p50[32], p99[32], p999[32];
		fmt_sig3(to_unit((double)s->sched_p50_ns, st), p50, sizeof(p50));
		fmt_sig3(to_unit((double)s->sched_p99_ns, st), p99, sizeof(p99));
		fmt_sig3(to_unit((double)s->sched_p999_ns, st), p999, sizeof(p999));
		fprintf(f, " %10s %10s %10s", p50, p99, p999);
	}
	fprintf(f, "\n");
}

void table_row_failed(FILE *f, const char *load, const char *why)
{
	fprintf(f, "%-9s failed: %s\n", load, why);
}
