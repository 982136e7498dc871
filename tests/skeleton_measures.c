/* SkeletonMeasures: the smallest simulated task with measures of its own (sim_desc.measures,
 * engine/sim.h), the example of doc/adding-a-workload.md "A task with measures of its own".  The
 * engine tells its accounting of each period it closes; the task counts them, hands the count
 * to its result's block at the end and exports it as one figure row, a JSON key and a column
 * of its table.  tests/check_sim_body.c registers it in a table of its own and runs it; it is
 * not in interbench's table. */
#include <string.h>
#include "engine/summary.h"
#include "workloads/workload.h"

/* Step 1: the accounting, kept by the engine for the run (sim_measures.state_bytes). */
struct skeleton_count {
	uint64_t closed;         /* periods closed */
};

/* Step 2: the figures, the result's block its rows read (at most SIM_TASK_BLOCK_BYTES). */
struct skeleton_figures {
	uint64_t closed_periods; /* periods closed, counted by the task itself */
};
_Static_assert(sizeof(struct skeleton_figures) <= SIM_TASK_BLOCK_BYTES, "the figures fit the result's block");

/* Step 3: the hooks.  The engine calls period_end for each period it closed (true would mark
 * it in --timeline)... */
static bool skeleton_period_end(void *state, const struct sim_period_facts *f)
{
	(void)f;
	((struct skeleton_count *)state)->closed++;
	return false;
}

/* ...and figures at the end of the run, into the result's block. */
static void skeleton_figures(const void *state, void *block)
{
	const struct skeleton_count *c = state;
	struct skeleton_figures fig = { .closed_periods = c->closed };
	memcpy(block, &fig, sizeof(fig));
}

/* Step 4: its figure row: a JSON key, where the figure is, its unit and its column. */
static const struct task_figure skeleton_rows[] = {
	{ .json_key = "skeleton_closed_periods", .task = "skeleton", .type = FIG_U64, .unit = FIG_COUNT,
	  .offset = PAIR_TASK_OFFSET(struct skeleton_figures, closed_periods), .json_scale = 1,
	  .column = FIG_TASK_COLUMN, .column_pos = 0, .column_label = "closed" },
};

/* Step 5: the measures, named as the rows say. */
static const struct sim_measures skeleton_measures = {
	.name = "skeleton", .state_bytes = sizeof(struct skeleton_count), .period_end = skeleton_period_end,
	.figures = skeleton_figures, .rows = skeleton_rows, .n_rows = 1,
};

/* Step 6: the task: a 10 ms period asking 20 % CPU, with its measures. */
static const struct sim_desc skeleton_measures_sim = {
	.interval_us = 10000,
	.cpu_pct = 20,
	.has_deadlines = true,
	.measures = &skeleton_measures,
};

const struct workload wl_skeleton_measures = {
	.name = "SkeletonMeasures",
	.help = "10 ms period, 20% CPU, counting its closed periods itself (example)",
	.flags = WL_BENCH_NORMAL,
	.sim = &skeleton_measures_sim,
};
