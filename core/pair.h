/* One benchmark pair: a simulated task measured in its own process while a load runs in
 * another.  The load starts first and ramps up, then the bench runs for the duration; both
 * are stopped, their results read back over pipes, and both reaped. */
#ifndef IB_PAIR_H
#define IB_PAIR_H
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "loads/load.h"
#include "sims/sim.h"

struct pair_params {
	struct sim_spec spec;
	struct sim_run_cfg run_cfg;      /* how the bench process runs the task */
	struct load_ctx *load;           /* prepared load */
	int load_nice;                   /* -N */
	uint64_t ramp_ns;                /* load head start before the bench */
	uint64_t duration_ns;            /* timed window of the bench */
	const volatile sig_atomic_t *interrupted; /* set by main's signal handler */
	void (*tick)(void *arg, uint64_t now_ns); /* called at each of main's wake-ups while the
	                                             pair runs (every POLL_SLICE_MS at most), or NULL */
	void *tick_arg;
};

struct pair_outcome {
	bool ok;                         /* both processes ran and reported */
	bool interrupted;                /* the window was cut short by a signal */
	char why[320];                   /* the reason when !ok */
	struct sim_result sim;           /* the bench's measurements (valid when ok) */
	struct load_counters load;       /* the load's counters (zero if it never reported) */
	uint64_t window_ns;              /* how long the bench actually ran */
};

/* Runs the pair.  Every wait is bounded: a child that does not report within its grace time
 * is killed.  A child that dies early is noticed within the poll interval and named in why.
 * Returns 0 (see out->ok), or -1 when a process could not even be started (why says so). */
int pair_run(const struct pair_params *p, struct pair_outcome *out);

#endif
