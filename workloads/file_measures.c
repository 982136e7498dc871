/* File's measures (workloads/file.h): the chain's time per period (its nominal start to its last
 * closing thread done: the response time rt-app's users read as end-to-end latency), each
 * thread's wake-up latency (its timer's tick, the resume, signal or last counting wake-up that
 * woke it, to it running: rt-app's wu_lat for a timer) and the own-timer ticks overrun (rt-app's
 * negative slack). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "engine/summary.h"
#include "workloads/file.h"

_Static_assert(sizeof(struct file_figures) <= SIM_TASK_BLOCK_BYTES, "SIM_TASK_BLOCK_BYTES holds a task file's figures");

static void file_block(const void *state, void *block)
{
	const struct file_acct *a = state;
	struct file_figures f = {
		.chain_samples = a->chain.count, .chain_mean_ns = a->chain.mean_ns, .chain_max_ns = a->chain.max_ns,
		.chain_p50_ns = hist_percentile_ns(&a->chain_hist, 50, a->chain.max_ns),
		.chain_p99_ns = hist_percentile_ns(&a->chain_hist, 99, a->chain.max_ns),
		.timer_overruns = a->timer_overruns,
	};
	for (unsigned i = 0; i < TF_MAX_THREADS; i++) {
		f.wake_p99_ns[i] = a->wake_hist[i].total ? hist_percentile_ns(&a->wake_hist[i], 99, HIST_MAX_NS) : 0;
		f.wakes[i] = a->wake_hist[i].total < UINT32_MAX ? (uint32_t)a->wake_hist[i].total : UINT32_MAX;
	}
	memcpy(block, &f, sizeof(f));
}

#define F_FIELD(field, t) .offset = PAIR_TASK_OFFSET(struct file_figures, field), .type = t, .task = "file"
#define NO_CHAIN .null_rule = FIG_NULL_ZERO, .null_offset = PAIR_TASK_OFFSET(struct file_figures, chain_samples)
#define TCOL(pos, label) .column = FIG_TASK_COLUMN, .column_pos = pos, .column_label = label
/* The wake-up rows' labels: the file's thread names, "" past its last thread (not shown).  The
 * rows point here, so the copies the figure table makes before main see the names put in at
 * load. */
static char thread_labels[TF_MAX_THREADS][TF_NAME_MAX];

/* Thread k's wake-up p99, null when it was never woken (the root, woken by the engine: its
 * latency is the task's); named after the file's thread at load (file_measures_name_threads). */
#define WAKE_ROW(k) { .json_key = "thread" #k "_wake_p99_ns", F_FIELD(wake_p99_ns[k], FIG_U64), .unit = FIG_NS, \
	.json_scale = 1, .null_rule = FIG_NULL_ZERO, .null_offset = PAIR_TASK_OFFSET(struct file_figures, wake_p99_ns[k]), \
	.column = FIG_TASK_LINE, .column_pos = 0, .column_label = thread_labels[k] },
#define WAKE_ROWS8(a, b, c, d, e, f, g, h) WAKE_ROW(a) WAKE_ROW(b) WAKE_ROW(c) WAKE_ROW(d) WAKE_ROW(e) WAKE_ROW(f) \
	WAKE_ROW(g) WAKE_ROW(h)
enum { FIRST_WAKE_ROW = 6 };

/* In the JSON writer's order (doc/json.md lists them). */
static const struct task_figure file_rows[] = {
	{ .json_key = "chain_samples", F_FIELD(chain_samples, FIG_U64), .unit = FIG_COUNT, .json_scale = 1, NO_CHAIN },
	{ .json_key = "chain_mean_ns", F_FIELD(chain_mean_ns, FIG_DOUBLE), .unit = FIG_NS, .json_scale = 1, NO_CHAIN },
	{ .json_key = "chain_p50_ns", F_FIELD(chain_p50_ns, FIG_U64), .unit = FIG_NS, .json_scale = 1, NO_CHAIN,
	  TCOL(0, "chain p50") },
	{ .json_key = "chain_p99_ns", F_FIELD(chain_p99_ns, FIG_U64), .unit = FIG_NS, .json_scale = 1, NO_CHAIN,
	  TCOL(1, "chain p99") },
	{ .json_key = "chain_max_ns", F_FIELD(chain_max_ns, FIG_U64), .unit = FIG_NS, .json_scale = 1, NO_CHAIN,
	  TCOL(2, "chain max") },
	{ .json_key = "timer_overruns", F_FIELD(timer_overruns, FIG_U64), .unit = FIG_COUNT, .json_scale = 1, NO_CHAIN,
	  TCOL(3, "overruns") },
	WAKE_ROWS8(0, 1, 2, 3, 4, 5, 6, 7) WAKE_ROWS8(8, 9, 10, 11, 12, 13, 14, 15)
	WAKE_ROWS8(16, 17, 18, 19, 20, 21, 22, 23) WAKE_ROWS8(24, 25, 26, 27, 28, 29, 30, 31)
};
_Static_assert(sizeof(file_rows) / sizeof(file_rows[0]) == FIRST_WAKE_ROW + TF_MAX_THREADS, "a wake-up row per thread");

void file_measures_name_threads(const struct tf_task *m)
{
	for (unsigned i = 0; i < TF_MAX_THREADS; i++)
		snprintf(thread_labels[i], sizeof(thread_labels[i]), "%s", i < m->n_threads ? m->threads[i].name : "");
}

static const struct figure_line file_lines[] = {
	{ .lead = "threads: wake-up p99" },
};

const struct sim_measures file_measures = {
	.name = "file", .state_bytes = sizeof(struct file_acct), .figures = file_block,
	.rows = file_rows, .n_rows = sizeof(file_rows) / sizeof(file_rows[0]),
	.lines = file_lines, .n_lines = 1,
	.legend = "chain: a period's nominal start to its last closing thread done (the task file's threads that "
		  "end its chain); overruns: own-timer ticks already past when the thread reached them (rt-app's "
		  "negative slack)",
};
