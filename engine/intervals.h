/* The judged figures of one run of a simulated task and their within-run confidence intervals,
 * computed once here from a struct sim_result for every reader: the pair's summary
 * (engine/summary.c) and the rule that stops a pair once they are known (run/stoprule.h).
 * Within-run: each holds the run's own long-run figure, not what another run would measure.
 *
 * Several looks: a pair that is looked at after each of K pre-declared checkpoints and stopped
 * at the first at which its figures are known must report intervals that hold at whichever
 * look stopped it.  The caller gives each look its own error probability, spent from CI_ALPHA
 * by Lan & DeMets' O'Brien-Fleming-type function (lib/interval.h obf_spent_alpha,
 * run/stoprule.h stop_look_alpha), so that the chance that any look's interval misses its
 * figure is at most CI_ALPHA whatever the stopping rule, where each look's interval is valid:
 * the "repeated confidence intervals" of Jennison & Turnbull, "Group Sequential Methods with
 * Applications to Clinical Trials" (2000), chapter 9. */
#ifndef IB_ENGINE_INTERVALS_H
#define IB_ENGINE_INTERVALS_H
#include <stdbool.h>
#include "engine/sim.h"

/* The figures with an interval, judged by compare and by the stopping rule. */
enum sim_judged {
	SIM_LATENCY_MEAN,   /* scheduling latency mean, ns */
	SIM_LATENCY_P99,    /* scheduling latency p99, ns */
	SIM_DESIRED_CPU,    /* % desired CPU (work done / work wanted) */
	SIM_DEADLINES_MET,  /* % deadlines met (not for a free-running task) */
	SIM_JUDGED
};

/* One figure and its interval. */
struct sim_interval {
	double value;       /* the figure (ns or %, as enum sim_judged says) */
	bool has;           /* an interval was found: lo and hi are set (else both NaN) */
	bool open_above;    /* a percentile with too few samples above it: hi is the max, an
	                       understatement */
	double lo, hi;      /* the interval, in the figure's unit */
	uint64_t n;         /* the samples it rests on (periods; Gaming: frames) */
	/* The fewest samples an interval can be had from: BM_MIN_SAMPLES (two per batch), and for
	 * a percentile open above, the n at which its upper rank falls inside the sample at this
	 * level and inflation (n (1 - p) >= t sqrt(n p (1 - p) VIF) + 1, solved for n). */
	double n_needed;
	/* The degrees of freedom of the quantile the interval's width stands on (0: the normal's;
	 * the batches' less one for the mean and % desired CPU, the percentile's inflation's for
	 * p99), so that its width can be taken to another level, and a percentile's inflation
	 * (1 for the others): with dof, the samples a closed bound needs at another level
	 * (lib/interval.h hist_percentile_n_needed). */
	double inflation;
	unsigned dof;
};

/* The judged figures of r and their intervals at level 1 - alpha (0 < alpha < 1; 0: CI_ALPHA, a
 * plain 95 % interval), from r's batch means, quantile batches and histogram (lib/interval.h)
 * and its deadline accounting (engine/deadline.h).  Reads only r->sched, sched_hist, sched_bm,
 * sched_qb and acct, which sim_snapshot copies.  A figure without enough samples for two
 * batches gets has = false. */
void sim_intervals(const struct sim_result *r, double alpha, struct sim_interval iv[SIM_JUDGED]);

/* The short name of a judged figure, as the stop reason and -h name it: "mean", "p99",
 * "cpu", "met". */
const char *sim_judged_name(enum sim_judged f);

#endif
