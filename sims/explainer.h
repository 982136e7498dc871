/* The engine's side of --explain (sims/engine.c): tracks the task's first thread for the
 * tracer (and, for a task whose period is a chain of threads, the chain's later stages: struct
 * sim_body.explained), or reads the first thread's schedstat, and turns each period that
 * missed its deadline (or was later than the threshold) into an explained period
 * (lib/explain.h). */
#ifndef IB_SIMS_EXPLAINER_H
#define IB_SIMS_EXPLAINER_H
#include <stdbool.h>
#include <stdint.h>
#include "lib/explain.h"
#include "sims/sim.h"

struct explainer {
	const struct sim_explain *cfg;   /* NULL: off */
	unsigned slots;                  /* threads followed: slot 0 the task's thread 0 */
	unsigned slot_thread[EXPLAIN_SLOTS], slot_stage[EXPLAIN_SLOTS];
	int schedstat_fd;                /* /proc/thread-self/schedstat of thread 0, or -1 */
	struct explain_schedstat last;   /* its reading at the end of the period before */
	struct explain_acc acc[EXPLAIN_SLOTS]; /* the tracer's figures of the period ending, per
	                                    slot (2 KB each: not on the stack of a task thread) */
};

/* Off, or ready for cfg (NULL: off) and a task with body's threads, of which `threads` run.
 * With the tracer, the stages of body->explained are followed too, and s (the pair's summary)
 * gets their names. */
void explainer_init(struct explainer *x, const struct sim_explain *cfg, const struct sim_body *body,
		    unsigned threads, struct explain_summary *s);

/* Whether task thread `thread` is followed (its explainer_thread_start is due). */
bool explainer_follows(const struct explainer *x, unsigned thread);

/* In task thread `thread` (one explainer_follows), before its first period: tracks it
 * (tracer), or, thread 0 without the tracer, opens and reads its schedstat (floor).  Returns
 * 0, or an errno value when the floor cannot be read (the caller records it; nothing is
 * explained then). */
int explainer_thread_start(struct explainer *x, unsigned thread);

/* In that thread, after its last period: stops tracking it, closes the file. */
void explainer_thread_end(struct explainer *x, unsigned thread);

/* In the timing thread, before it wakes the task for period number `period`. */
void explainer_arm(struct explainer *x, uint64_t period);

/* In the thread that ends a period, with facts f (its index, times, whether it missed its
 * deadline) and lateness_ns (nominal start -> running): when it missed or was later than the
 * threshold, explains it into s and k, thread 0's figures and each stage's.  Returns 0, or an
 * errno value when the floor's read failed (the floor stops: the caller records it). */
int explainer_period_end(struct explainer *x, const struct explain_facts *f, uint64_t lateness_ns,
			 struct explain_summary *s, struct explain_kept *k);

#endif
