/* The scheduling settings a run sweeps: every combination of the -B nice levels and the
 * --bench-slice slices with the --bench-policy policies for the simulated task, and of -N and
 * --load-slice with --load-policy for the loads (nice and slice apply to other and batch).  A nice level applies to other and batch only; fifo and rr take --rt-priority;
 * deadline's reservation depends on the task and is made by sweep_deadline_for. */
#ifndef IB_SWEEP_H
#define IB_SWEEP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "run/options.h"
#include "lib/schedpolicy.h"
#include "engine/sim.h"

#define SWEEP_MAX (SP_KINDS * OPTSPEC_LIST_MAX)

/* The settings of one side (the simulated task or the loads), in sweep order: policies in
 * the order of enum sched_kind, nice levels in the order given. */
struct sweep_side {
	struct sched_setting s[SWEEP_MAX];
	unsigned n;
};

/* Fills bench and load from the options.  rt_prio is the fifo/rr priority to use when
 * --rt-priority is not given.  The bench side's policies are --bench-policy's, fifo added by
 * -r, other when neither is given; the loads' are --load-policy's, other when not given. */
void sweep_build(const struct options *o, int rt_prio, struct sweep_side *bench, struct sweep_side *load);

/* Where slices are asked for (--bench-slice, --load-slice), what this kernel keeps of each
 * (sched_slice_probe), into the settings' slice_kept_ns: before anything starts.  Returns 0,
 * or 2 with one line printed naming the option, the value and the kernel's answer (a kernel
 * before 6.12 keeps none). */
int sweep_probe_slices(struct sweep_side *bench, struct sweep_side *load);

/* SCHED_DEADLINE's margin over a period's work: 10% and at least 100 us, for the calibration's
 * error (bench/calibration.sh measures it within a few %) and the wake-up path's own cost. */
#define SWEEP_DL_MARGIN_PCT 10u
#define SWEEP_DL_MARGIN_MIN_NS 100000u

/* Whether a task of pattern spec can run under SCHED_DEADLINE: periodic with deadlines and a
 * fixed work per period (not X, whose work changes every frame, nor Gaming). */
bool sweep_deadline_fits(const struct sim_spec *spec);

/* s with the deadline reservation for spec: runtime = the work per period plus the margin
 * (at most the period), deadline = period = the task's interval. */
struct sched_setting sweep_deadline_for(const struct sched_setting *s, const struct sim_spec *spec);

/* Whether the sweep has more than one setting on either side (a sweep summary is printed). */
bool sweep_is_sweep(const struct sweep_side *bench, const struct sweep_side *load);

/* One line for the run header naming what a sweep or a placement set, or "" when the run is
 * the plain default (one setting each, other at nice 0, no CPU set): "Settings: task nice 0,
 * nice -10; loads nice 0, nice 19; task CPUs 1; load CPUs 0" (fifo/rr labels carry their
 * priority).  Returns buf. */
const char *sweep_describe(const struct options *o, const struct sweep_side *bench, const struct sweep_side *load,
			   char *buf, size_t len);

#endif
