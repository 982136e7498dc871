/* The engine's side of --explain (sims/engine.c): tracks the task's first thread for the
 * tracer, or reads its schedstat, and turns each period that missed its deadline (or was
 * later than the threshold) into an explained period (lib/explain.h). */
#ifndef IB_SIMS_EXPLAINER_H
#define IB_SIMS_EXPLAINER_H
#include <stdbool.h>
#include <stdint.h>
#include "lib/explain.h"
#include "sims/sim.h"

struct explainer {
	const struct sim_explain *cfg;   /* NULL: off */
	int schedstat_fd;                /* /proc/thread-self/schedstat of the tracked thread, or -1 */
	struct explain_schedstat last;   /* its reading at the end of the period before */
	struct explain_acc acc;          /* the tracer's figures of the period ending (2 KB: not on
	                                    the stack of a task thread) */
};

/* Off, or ready for cfg (NULL: off). */
void explainer_init(struct explainer *x, const struct sim_explain *cfg);

/* In the tracked thread, before its first period: tracks it (tracer), or opens and reads its
 * schedstat (floor).  Returns 0, or an errno value when the floor cannot be read (the caller
 * records it; nothing is explained then). */
int explainer_thread_start(struct explainer *x);

/* In the tracked thread, after its last period: stops tracking, closes the file. */
void explainer_thread_end(struct explainer *x);

/* In the timing thread, before it wakes the task for period number `period`. */
void explainer_arm(struct explainer *x, uint64_t period);

/* In the tracked thread at the end of a period with facts f (its index, times, whether it
 * missed its deadline) and lateness_ns (nominal start -> running): when it missed or was later
 * than the threshold, explains it into s and k.  Returns 0, or an errno value when the floor's read
 * failed (the floor stops: the caller records it). */
int explainer_period_end(struct explainer *x, const struct explain_facts *f, uint64_t lateness_ns,
			 struct explain_summary *s, struct explain_kept *k);

#endif
