/* The judged figures' intervals (engine/intervals.h). */
#include <math.h>
#include "lib/interval.h"
#include "engine/deadline.h"
#include "engine/intervals.h"

static const char *const judged_names[SIM_JUDGED] = { "mean", "p99", "cpu", "met" };

const char *sim_judged_name(enum sim_judged f)
{
	return f < SIM_JUDGED ? judged_names[f] : "?";
}

/* The scheduling latency's mean and p99 with their intervals at alpha. */
static void latency_intervals(const struct sim_result *r, double alpha, struct sim_interval *mean,
			      struct sim_interval *p99)
{
	double lo, hi;
	uint64_t lo_ns, hi_ns;
	mean->value = r->sched.mean_ns;
	if ((mean->has = bm_interval(&r->sched_bm, alpha, &lo, &hi))) {
		mean->lo = lo > 0 ? lo : 0;   /* a latency is never negative */
		mean->hi = hi;
	}
	mean->n = r->sched_bm.n;
	mean->dof = r->sched_bm.batches ? r->sched_bm.batches - 1 : 0;
	mean->n_needed = BM_MIN_SAMPLES;
	p99->value = (double)hist_percentile_ns(&r->sched_hist, 99, r->sched.max_ns);
	p99->n = r->sched_qb.n;
	p99->n_needed = BM_MIN_SAMPLES;
	unsigned dof = r->sched_qb.batches ? r->sched_qb.batches - 1 : 0;
	double vif = qb_inflation(&r->sched_qb, 99);
	p99->inflation = vif;
	p99->dof = dof;
	if (r->sched_qb.n >= BM_MIN_SAMPLES &&
	    hist_percentile_interval_ns(&r->sched_hist, r->sched.max_ns, 99, vif, dof, alpha, &lo_ns, &hi_ns,
					&p99->open_above)) {
		p99->has = true;
		p99->lo = (double)lo_ns;
		p99->hi = (double)hi_ns;
	}
	if (p99->open_above || !p99->has)
		p99->n_needed = fmax(BM_MIN_SAMPLES, hist_percentile_n_needed(99, vif, dof, alpha));
}

void sim_intervals(const struct sim_result *r, double alpha, struct sim_interval iv[SIM_JUDGED])
{
	if (!(alpha > 0 && alpha < 1))
		alpha = CI_ALPHA;
	for (unsigned f = 0; f < SIM_JUDGED; f++)
		iv[f] = (struct sim_interval){ .lo = NAN, .hi = NAN, .inflation = 1 };
	latency_intervals(r, alpha, &iv[SIM_LATENCY_MEAN], &iv[SIM_LATENCY_P99]);
	struct sim_interval *cpu = &iv[SIM_DESIRED_CPU], *met = &iv[SIM_DEADLINES_MET];
	cpu->n = r->acct.work_bm.y.n;
	cpu->dof = r->acct.work_bm.y.batches + (r->acct.work_bm.y.partial_n > 0) - 1;
	met->n = r->acct.met_bm.n;
	cpu->n_needed = met->n_needed = BM_MIN_SAMPLES;
	cpu->value = deadline_desired_cpu_pct(&r->acct);
	cpu->has = deadline_desired_cpu_interval_pct(&r->acct, alpha, &cpu->lo, &cpu->hi);
	met->value = deadline_met_pct(&r->acct);
	met->has = deadline_met_interval_pct(&r->acct, alpha, &met->lo, &met->hi);
	for (unsigned f = 0; f < SIM_JUDGED; f++)
		if (!iv[f].has)
			iv[f].lo = iv[f].hi = NAN;
}
