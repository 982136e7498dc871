/* File: the task a task file describes (--task-file PATH, -W file:PATH; doc/task-file.md),
 * compiled by taskfile/ into a model (taskfile/model.h) and run here in the periodic engine:
 * workloads/file.c is its descriptor and options, workloads/file_run.c runs each thread's
 * program, workloads/file_measures.c keeps its figures.  What the three share. */
#ifndef IB_WORKLOADS_FILE_H
#define IB_WORKLOADS_FILE_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "engine/sim.h"
#include "lib/histogram.h"
#include "lib/stats.h"
#include "taskfile/model.h"

/* The task the run's --task-file compiled to: loaded once in the main process when the options
 * are checked, before any fork, and read (never written) by the threads of each run. */
extern struct tf_task file_model;

/* One resource's synchronisation as the threads share it (file_state.sync): a lock, a
 * condition on CLOCK_MONOTONIC and what it guards. */
struct file_sync {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint64_t generation;     /* event: resumes so far; barrier: rounds completed */
	unsigned waiting;        /* barrier: threads arrived in this round */
	uint64_t queued;         /* condition: waiters queued so far (each takes the next number) */
	uint64_t released;       /* condition: waiters 0..released-1 were released by a signal or
	                            broadcast, in the order they queued */
	uint64_t woken_ns;       /* when it was last resumed, signalled or completed */
};

/* What a run's threads share (sim_body.state_bytes, zeroed by the engine; file_setup makes its
 * locks and conditions). */
struct file_state {
	pthread_mutex_t mutex[TF_MAX_RESOURCES];     /* the file's mutexes */
	struct file_sync sync[TF_MAX_RESOURCES];     /* events, conditions, barriers */
	struct file_sync close;                      /* the open period's closing: generation counts
	                                                the periods closed */
	struct file_sync started;                    /* the threads' start: none runs its program
	                                                before all have started */
	_Atomic unsigned closes_left;                /* closing threads yet to reach TF_CLOSE */
	uint64_t opened;                             /* periods opened (the root's) */
	uint64_t period_start_ns;                    /* the open period's nominal start */
	_Atomic uint64_t woken_ns[TF_MAX_THREADS];   /* each thread's last counting wake-up (TF_WAKE) */
};

/* The task's accounting over a run (sim_measures.state_bytes). */
struct file_acct {
	struct lat_stats chain;                    /* period start -> its last TF_CLOSE, ns */
	struct lat_hist chain_hist;
	struct lat_hist wake_hist[TF_MAX_THREADS]; /* each thread's wake-ups, ns (file_run.c) */
	uint64_t timer_overruns;                   /* own-timer ticks already past when reached */
};

/* The figures (sim_result.task's block): the chain's samples, mean, p50, p99 and max, ns (all
 * 0 without a sample), the ticks overrun, each thread's wake-up p99 (0: no wake-up) and its
 * wake-ups counted (capped at UINT32_MAX; no row shows them: tests/check_file_run.c reads
 * them). */
struct file_figures {
	uint64_t chain_samples, chain_p50_ns, chain_p99_ns, chain_max_ns;
	double chain_mean_ns;
	uint64_t timer_overruns;
	uint64_t wake_p99_ns[TF_MAX_THREADS];
	uint32_t wakes[TF_MAX_THREADS];
};

extern const struct sim_measures file_measures;

/* Labels each thread's wake-up row with the model's thread name (at load; "" past its last). */
void file_measures_name_threads(const struct tf_task *m);

/* Whether thread i of m does its period's work (its runs count as the period's, sim_burn): the
 * root, and in interbench's format each thread of the chain (woken by a join). */
bool file_runs_in_chain(const struct tf_task *m, unsigned i);

/* The engine's hooks for the model's threads (sim_body): run, setup, teardown. */
void file_run(struct sim_thread *t);
int file_setup(void *state, const struct sim_spec *spec, char *errmsg, size_t len);
void file_teardown(void *state);

#endif
