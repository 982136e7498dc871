/* The engine's side of --explain (engine/engine.c): tracks the task's first thread for the
 * tracer (and, for a task whose period is a chain of threads, the chain's later stages: struct
 * struct explain_stages), or reads the first thread's schedstat, and turns each period that
 * missed its deadline (or was later than the threshold) into an explained period
 * (explain/model.h). */
#ifndef IB_EXPLAIN_HOOK_H
#define IB_EXPLAIN_HOOK_H
#include <stdbool.h>
#include <stdint.h>
#include "explain/model.h"

struct explain_tracer;

/* --explain: which periods are explained, and from what.  With a tracer, the first task thread
 * is tracked in its slot 0 (explain/tracer.h); without, each period's deltas of
 * /proc/thread-self/schedstat are the floor (explain/model.h). */
struct explain_config {
	struct explain_tracer *tracer;  /* loaded and attached, or NULL: the schedstat floor */
	uint64_t threshold_ns;          /* also explain periods whose lateness exceeds it; 0: only
	                                   missed deadlines */
	uint32_t load_tgid;             /* the load process, whose tasks are the load's (0: unknown;
	                                   explain/abi.h's board) */
	uint32_t main_tgid;             /* interbench's main process */
};

/* A thread --explain follows besides the task's thread 0: its index, and its stage (1 up). */
struct explain_stage_thread {
	unsigned thread, stage;
};

/* The later stages of a task's chain (engine/sim.h's struct sim_body.explained): --explain
 * follows thread 0 (the one whose periods are judged: stage 0) and these threads (at most
 * EXPLAIN_SLOTS - 1, stages below EXPLAIN_MAX_STAGES; a thread the run did not start is
 * skipped).  Threads of one stage run side by side, as a fork-join's workers: of those, the one
 * that waited and ran longest in a period is counted. */
struct explain_stages {
	const struct explain_stage_thread *threads; /* NULL: thread 0 alone */
	unsigned n_threads;
	const char *const *names;  /* the stages' names (names[i] for stage i; at most 15
	                              characters) */
	unsigned count;            /* stages named */
};

struct explainer {
	const struct explain_config *cfg; /* NULL: off */
	unsigned slots;                  /* threads followed: slot 0 the task's thread 0 */
	unsigned slot_thread[EXPLAIN_SLOTS], slot_stage[EXPLAIN_SLOTS];
	int schedstat_fd;                /* /proc/thread-self/schedstat of thread 0, or -1 */
	struct explain_schedstat last;   /* its reading at the end of the period before */
	struct explain_acc acc[EXPLAIN_SLOTS]; /* the tracer's figures of the period ending, per
	                                    slot (2 KB each: not on the stack of a task thread) */
};

/* Off, or ready for cfg (NULL: off) and a task of which `threads` threads run.  With the
 * tracer, the later stages in `stages` are followed too, and s (the pair's summary) gets their
 * names. */
void explainer_init(struct explainer *x, const struct explain_config *cfg, const struct explain_stages *stages,
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
