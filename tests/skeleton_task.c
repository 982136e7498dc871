/* SkeletonTask: the smallest simulated task with threads of its own (sim_desc.body, engine/sim.h),
 * the example of doc/adding-a-workload.md "A task with its own threads".  Each period a producer
 * thread is woken by the timing thread, burns half the period's work and wakes a consumer, which
 * burns the other half and closes the period.  tests/check_sim_body.c registers it in a table
 * of its own and runs it; it is not in interbench's table. */
#include "workloads/workload.h"

enum { SKELETON_PRODUCER, SKELETON_CONSUMER, SKELETON_THREADS };

/* Opens each period, does the first half of its work, hands the rest on. */
static void skeleton_producer(struct sim_thread *t)
{
	struct sim_period p;
	while (sim_period_begin(t, &p)) {
		sim_burn(t, p.work_us / 2);
		sim_wake(t, SKELETON_CONSUMER);
	}
}

/* Does the second half of each period's work and closes the period. */
static void skeleton_consumer(struct sim_thread *t)
{
	struct sim_period p;
	while (sim_wait_woken(t)) {
		sim_period_current(t, &p);
		sim_burn(t, p.work_us - p.work_us / 2);
		if (!sim_period_end(t))
			break;
	}
}

static void skeleton_task_run(struct sim_thread *t)
{
	if (sim_thread_index(t) == SKELETON_PRODUCER)
		skeleton_producer(t);
	else
		skeleton_consumer(t);
}

static const struct sim_body skeleton_task_body = { .threads = SKELETON_THREADS, .run = skeleton_task_run };

/* A 10 ms period asking 20% CPU: 1 ms on each thread. */
static const struct sim_desc skeleton_task_sim = {
	.interval_us = 10000,
	.cpu_pct = 20,
	.has_deadlines = true,
	.body = &skeleton_task_body,
};

const struct workload wl_skeleton_task = {
	.name = "SkeletonTask",
	.help = "10 ms period, 20% CPU, handed from a producer to a consumer thread (example)",
	.flags = WL_BENCH_NORMAL,
	.sim = &skeleton_task_sim,
};
