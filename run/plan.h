/* The plan of a run: which (simulated task, load) pairs run, at which scheduling settings, in
 * which order, every setting resolved.  Built from the options alone, with no side effects, so
 * that the selection rules are unit-tested (tests/check_plan.c) rather than only end to end. */
#ifndef IB_PLAN_H
#define IB_PLAN_H
#include <stdbool.h>
#include <stddef.h>
#include "run/options.h"
#include "run/sweep.h"
#include "lib/schedpolicy.h"
#include "engine/sim.h"
#include "workloads/workload.h"

/* One pair at one setting of the sweep. */
struct plan_item {
	const struct workload *task; /* the simulated task's workload */
	struct sim_spec spec;        /* its pattern, resolved from its options */
	unsigned load_index;         /* the load's index in workload_table */
	unsigned bench_setting, load_setting; /* the bench and load settings: bench->s[bench_setting],
	                                         load->s[load_setting] */
	struct sched_setting bench_sched; /* bench->s[b] made concrete for this task: its
	                                     SCHED_DEADLINE reservation, or SCHED_FIFO for a task
	                                     that prefers it (WL_PREFERS_FIFO) */
};

/* The pairs, in benchmark order: by task, bench setting, load setting, load. */
struct plan {
	struct plan_item *items;
	size_t n;
};

/* What the plan depends on besides the options: the sweep's settings (run/sweep.h) and
 * whether SCHED_FIFO is available, at which priority for a task that prefers it. */
struct plan_input {
	const struct options *opt;
	const struct sweep_side *bench, *load;
	bool rt_ok;                 /* SCHED_FIFO available to the run */
	int fifo_prio;              /* the priority of a task that prefers SCHED_FIFO, unless
	                               --rt-priority gives one */
};

/* Builds p (freed first: a zeroed plan, or one built before) from in: every task -W/-X leave
 * and its options support, at every bench setting its modes allow (SCHED_DEADLINE only for a
 * fixed work per period), against every load -w/-x leave that its options support and whose
 * modes allow that setting, never the task itself.  Returns 0, or -1 when out of memory (p
 * then empty). */
int plan_build(struct plan *p, const struct plan_input *in);

/* Frees what p holds; p is then empty. */
void plan_free(struct plan *p);

/* Whether workload i is in p, as a load or as the benchmarked task. */
bool plan_uses(const struct plan *p, unsigned i);

/* Whether the system can serve every workload p uses (their preflight hooks: the disk loads'
 * --workdir), with the options o.  Returns 0, or -1 with the first refusal, one line naming
 * the option, in err (len bytes at most). */
int plan_preflight(const struct plan *p, const struct options *o, char *err, size_t len);

/* Whether workload i (an index in workload_table) can run at all with its options, as its
 * supported hook says (no hook: always). */
bool plan_supported(const struct options *o, unsigned i);

/* Whether -W/-X leave task i in the run, whatever its modes and options. */
bool plan_task_named(const struct options *o, unsigned i);

/* Why a selection leaves no pair, for the one-line refusal: the reasons the named workloads
 * give for not running with their options, or the general rules.  buf gets len bytes at most. */
void plan_no_pair_reasons(const struct options *o, char *buf, size_t len);

#endif
