#include "lib/distrib.h"
#include "engine/deadline.h"

struct deadline_verdict deadline_check(uint64_t wake_ns, uint64_t interval_ns, uint64_t finish_ns)
{
	struct deadline_verdict v = { .met = true, .skipped = 0, .next_wake_ns = wake_ns + interval_ns };
	uint64_t deadline_ns = wake_ns + interval_ns;

	if (finish_ns <= deadline_ns)
		return v;
	v.met = false;
	/* Periods j >= 1 after this one have deadline wake + (j + 1) * interval.  The next one to
	 * run is the first whose deadline is after finish: j = floor((finish - wake) / interval). */
	uint64_t j = (finish_ns - wake_ns) / interval_ns;
	v.skipped = j - 1;
	v.next_wake_ns = wake_ns + j * interval_ns;
	return v;
}

/* One more missed deadline in the run in progress. */
static void streak_add(struct deadline_acct *a)
{
	if (a->streak == 0)
		a->miss_runs++;
	if (++a->streak > a->longest_streak)
		a->longest_streak = a->streak;
}

void deadline_acct_streak_end(struct deadline_acct *a)
{
	a->miss_run_sq += a->streak * a->streak;
	if (a->streak >= 2)
		a->streaks++;
	a->streak = 0;
}

void deadline_acct_period(struct deadline_acct *a, const struct deadline_verdict *v, uint64_t work_us)
{
	a->periods++;
	if (v->met) {
		a->met++;
		deadline_acct_streak_end(a);
	} else {
		a->missed++;
		streak_add(a);
	}
	a->work_wanted_us += work_us;
	a->work_done_us += work_us;
	bm_add(&a->met_bm, v->met);
	br_add(&a->work_bm, (double)work_us, (double)work_us);
}

void deadline_acct_skip(struct deadline_acct *a, uint64_t work_us)
{
	a->periods++;
	a->missed++;
	a->skipped++;
	a->work_wanted_us += work_us;
	streak_add(a);
	bm_add(&a->met_bm, 0);
	br_add(&a->work_bm, 0, (double)work_us);
}

uint64_t deadline_unfinished_periods(uint64_t wake_ns, uint64_t interval_ns, uint64_t end_ns)
{
	/* deadlines wake + (k+1) * interval strictly before end_ns: one exactly at end_ns could
	 * still have been met */
	return end_ns > wake_ns && interval_ns ? (end_ns - wake_ns - 1) / interval_ns : 0;
}

double deadline_desired_cpu_pct(const struct deadline_acct *a)
{
	if (a->work_wanted_us == 0)
		return 100.0;
	return 100.0 * (double)a->work_done_us / (double)a->work_wanted_us;
}

double deadline_met_pct(const struct deadline_acct *a)
{
	if (a->periods == 0)
		return 100.0;
	return 100.0 * (double)a->met / (double)a->periods;
}

/* lo and hi, a share in 0..1 of n periods, as % clamped to 0..100.  A share the batches saw no
 * variation of at all, pinned at 100 % (or 0 %), gets the exact interval of no event in n
 * periods instead of a point (lib/interval.h zero_events_upper): n periods without a miss
 * show that misses are rare, not that there are none. */
static void share_interval_pct(double lo, double hi, uint64_t n, double alpha, double *lo_pct, double *hi_pct)
{
	if (lo == hi && (lo >= 1 || lo <= 0)) {
		double rare = zero_events_upper(n, alpha);
		lo = lo >= 1 ? 1 - rare : 0;
		hi = hi >= 1 ? 1 : rare;
	}
	*lo_pct = lo < 0 ? 0 : 100 * lo;
	*hi_pct = hi > 1 ? 100 : 100 * hi;
}

bool deadline_desired_cpu_interval_pct(const struct deadline_acct *a, double alpha, double *lo_pct, double *hi_pct)
{
	double lo, hi;
	if (!br_interval(&a->work_bm, alpha, &lo, &hi))
		return false;
	share_interval_pct(lo, hi, a->work_bm.y.n, alpha, lo_pct, hi_pct);
	return true;
}

double deadline_miss_inflation(const struct deadline_acct *a)
{
	double vif = bm_proportion_inflation(&a->met_bm);
	if (a->missed == 0 || a->missed > a->met)
		return vif;
	double run = (double)(a->miss_run_sq + a->streak * a->streak) / (double)a->missed;
	return vif > run ? vif : run;
}

bool deadline_met_interval_pct(const struct deadline_acct *a, double alpha, double *lo_pct, double *hi_pct)
{
	if (a->periods < BM_MIN_SAMPLES)
		return false;
	double vif = deadline_miss_inflation(a), miss_lo, miss_hi;
	if (!clopper_pearson((double)a->missed / vif, (double)a->periods / vif, alpha, &miss_lo, &miss_hi))
		return false;
	*lo_pct = 100 * (1 - miss_hi);
	*hi_pct = 100 * (1 - miss_lo);
	return true;
}

uint64_t deadline_interbench_latency_ns(uint64_t sched_latency_ns, uint64_t overrun_ns, uint64_t unit_ns)
{
	uint64_t missed_ns = overrun_ns && unit_ns ? (overrun_ns / unit_ns + 1) * unit_ns : 0;
	return sched_latency_ns + missed_ns;
}

void loop_acct_period(struct loop_acct *l, uint64_t cpu_ns, uint64_t nominal_ns)
{
	if (nominal_ns == 0)
		return;
	uint64_t excess_ns = cpu_ns > nominal_ns ? cpu_ns - nominal_ns : 0;
	l->periods++;
	lat_stats_add(&l->excess, excess_ns);
	hist_add(&l->excess_hist, excess_ns);
	if (cpu_ns * 10 > nominal_ns * 11)
		l->over10++;
}
