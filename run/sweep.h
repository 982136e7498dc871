/* The settings a run sweeps: every combination of the --bench-policy policies with the -B nice
 * levels, the --bench-slice slices, the --wake wake-ups, the --bench-cpus placements and the
 * --scheduler schedulers (the machine's, set on the bench side) for the simulated task, and of --load-policy with -N, --load-slice, the --load-cpus placements and the
 * -L thread counts for the loads.  A nice level and a slice apply to other and batch only; fifo
 * and rr take --rt-priority; deadline's reservation depends on the task and is made by
 * sweep_deadline_for.  A placement or a thread count is a setting of the sweep only when the
 * option gives alternatives ("0/1", "1,4"); one value is the whole run's. */
#ifndef IB_SWEEP_H
#define IB_SWEEP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "run/options.h"
#include "lib/schedpolicy.h"
#include "engine/sim.h"

/* The most settings of a side: each policy with at most OPTSPEC_LIST_MAX combinations of nice,
 * slice, placement and threads (options_parse refuses more), each with both wake-ups. */
#define SWEEP_MAX (SP_KINDS * OPTSPEC_LIST_MAX * (SIM_WAKE_TIMER + 1))

/* The settings of one side (the simulated task or the loads), in sweep order: policies in
 * the order of enum sched_kind, then nice levels, slices, wake-ups, placements and thread
 * counts and schedulers, each in the order given; the first is the one a run's decisions take as
 * the base. */
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

/* The one CPU list a side runs on throughout: its own option's (alts, --bench-cpus or
 * --load-cpus, when it gives one list) else --cpus; NULL when none is given or when the sweep
 * places the side (several lists: each setting's cpus says which). */
const struct optspec_cpus *sweep_fixed_cpus(const struct options *o, const struct optspec_cpu_alts *alts);

/* Whether the sweep has more than one setting on either side (a sweep summary is printed). */
bool sweep_is_sweep(const struct sweep_side *bench, const struct sweep_side *load);

/* One line for the run header naming what a sweep or a placement set, or "" when the run is
 * the plain default (one setting each, other at nice 0, no CPU set): "Settings: task nice 0,
 * nice -10; loads nice 0, nice 19; task CPUs 1; load CPUs 0" (fifo/rr labels carry their
 * priority; CPU alternatives are in the labels: "task nice 0 CPUs 0, nice 0 CPUs 1").  Returns
 * buf. */
const char *sweep_describe(const struct options *o, const struct sweep_side *bench, const struct sweep_side *load,
			   char *buf, size_t len);

#endif
