/* ProAudio's measures (workloads/proaudio_buffer.h): its buffer's accounting and figure rows. */
#include <stddef.h>
#include <string.h>
#include "engine/summary.h"
#include "workloads/proaudio_buffer.h"

_Static_assert(sizeof(struct audio_figures) <= SIM_TASK_BLOCK_BYTES, "SIM_TASK_BLOCK_BYTES holds the buffer's figures");

bool audio_acct_period(struct audio_acct *a, unsigned buffer_periods, uint64_t interval_ns, uint64_t wake_ns,
		       uint64_t lateness_ns, uint64_t finish_ns, const struct deadline_verdict *v)
{
	uint64_t allowed_ns = (uint64_t)(buffer_periods ? buffer_periods - 1 : 0) * interval_ns;
	uint64_t took_ns = finish_ns - wake_ns;
	bool xrun = took_ns > allowed_ns;
	if (lateness_ns <= 1000000)
		a->start_within_1ms++;
	if (lateness_ns <= 2000000)
		a->start_within_2ms++;
	if (xrun) {
		a->xruns++;
		if (took_ns - allowed_ns > a->worst_overrun_ns)
			a->worst_overrun_ns = took_ns - allowed_ns;
	}
	a->xruns += v->skipped;   /* a dropped period is a buffer that ran dry */
	return xrun;
}

void audio_acct_unfinished(struct audio_acct *a, unsigned buffer_periods, uint64_t interval_ns, uint64_t wake_ns,
			   uint64_t end_ns, uint64_t unfinished)
{
	if (unfinished == 0)
		return;
	uint64_t allowed_ns = (uint64_t)(buffer_periods ? buffer_periods - 1 : 0) * interval_ns;
	uint64_t took_ns = end_ns > wake_ns ? end_ns - wake_ns : 0;
	a->xruns += unfinished - 1;   /* the periods after it never started: dropped */
	if (took_ns <= allowed_ns)
		return;
	a->xruns++;
	if (took_ns - allowed_ns > a->worst_overrun_ns)
		a->worst_overrun_ns = took_ns - allowed_ns;
}

/* The accounting over a run: the buffer and period (sim_spec), the periods completed. */
struct audio_state {
	unsigned buffer_periods;
	uint64_t interval_ns;
	uint64_t ran;
	struct audio_acct a;
};

static void buffer_start(void *state, const struct sim_spec *spec)
{
	struct audio_state *st = state;
	st->buffer_periods = spec->buffer_periods;
	st->interval_ns = spec->interval_us * 1000;
}

/* A period completed: an xrun or not (marked in --timeline), its dropped successors xruns. */
static bool buffer_period_end(void *state, const struct sim_period_facts *f)
{
	struct audio_state *st = state;
	struct deadline_verdict v = { .met = f->met, .skipped = f->skipped };
	st->ran++;
	return st->buffer_periods && audio_acct_period(&st->a, st->buffer_periods, st->interval_ns, f->wake_ns,
						       f->lateness_ns, f->finish_ns, &v);
}

static void buffer_unfinished(void *state, uint64_t wake_ns, uint64_t end_ns, uint64_t unfinished)
{
	struct audio_state *st = state;
	if (st->buffer_periods)
		audio_acct_unfinished(&st->a, st->buffer_periods, st->interval_ns, wake_ns, end_ns, unfinished);
}

static void buffer_figures(const void *state, void *block)
{
	const struct audio_state *st = state;
	struct audio_figures f = {
		.xruns = st->a.xruns, .worst_overrun_ns = st->a.worst_overrun_ns,
		.start_1ms_pct = st->ran ? 100.0 * (double)st->a.start_within_1ms / (double)st->ran : 0,
		.start_2ms_pct = st->ran ? 100.0 * (double)st->a.start_within_2ms / (double)st->ran : 0,
	};
	memcpy(block, &f, sizeof(f));
}

/* A row of the "buffer" measures: its field of struct audio_figures and its column. */
#define B_FIELD(field, t) .offset = PAIR_TASK_OFFSET(struct audio_figures, field), .type = t, .task = "buffer", \
	.null_rule = FIG_NULL_UNBUFFERED
#define TCOL(pos, label) .column = FIG_TASK_COLUMN, .column_pos = pos, .column_label = label

/* In the JSON writer's order (doc/json.md lists them). */
static const struct task_figure buffer_rows[] = {
	/* xruns per minute is what compare reads (tools/result_json.c: over task_run_ns) */
	{ .json_key = "xruns", B_FIELD(xruns, FIG_U64), .unit = FIG_COUNT, .json_scale = 1, TCOL(0, "xruns"),
	  .cmp = &(const struct figure_compare){ JM_XRUNS, "xruns", "xruns per minute", "/min", 0, false, 0, NULL } },
	{ .json_key = "worst_overrun_ns", B_FIELD(worst_overrun_ns, FIG_U64), .unit = FIG_NS, .json_scale = 1,
	  TCOL(1, "overrun") },
	{ .json_key = "start_within_1ms_ppm", B_FIELD(start_1ms_pct, FIG_DOUBLE), .unit = FIG_PCT, .json_scale = 1e4,
	  .higher_better = true, TCOL(2, "start<1ms") },
	{ .json_key = "start_within_2ms_ppm", B_FIELD(start_2ms_pct, FIG_DOUBLE), .unit = FIG_PCT, .json_scale = 1e4,
	  .higher_better = true, TCOL(3, "start<2ms") },
	/* the stolen CPU-loop time (every task's) again in the task's columns, not written twice */
	{ .offset = offsetof(struct pair_summary, stolen_p99_ns), .type = FIG_U64, .unit = FIG_NS, .json_scale = 1,
	  .null_rule = FIG_NULL_NO_LOOPS, .task = "buffer", TCOL(4, "stolen") },
};

const struct sim_measures proaudio_buffer_measures = {
	.name = "buffer", .state_bytes = sizeof(struct audio_state), .start = buffer_start,
	.period_end = buffer_period_end, .unfinished = buffer_unfinished, .figures = buffer_figures,
	.rows = buffer_rows, .n_rows = sizeof(buffer_rows) / sizeof(buffer_rows[0]),
	.legend = "xruns: fragments completed past what the buffer allows, or dropped (audible clicks); overrun: "
		  "the worst excess over the buffer; start<1ms, start<2ms: % of fragments started within 1 and 2 ms "
		  "of their nominal start; stolen: the p99 of how much longer than calibrated a fragment's work took",
};
