/* Pipeline's measures (workloads/pipeline_chain.h): the chain's accounting and its figure rows. */
#include <stddef.h>
#include <string.h>
#include "engine/summary.h"
#include "workloads/pipeline_chain.h"

_Static_assert(sizeof(struct chain_figures) <= SIM_TASK_BLOCK_BYTES, "SIM_TASK_BLOCK_BYTES holds the chain's figures");

#define CHAIN_NAME(e, name) [e] = name,
static const char *const stage_names[CHAIN_STAGES] = { CHAIN_STAGE_LIST(CHAIN_NAME) };
static const char *const segment_names[CHAIN_POINTS] = { CHAIN_POINT_LIST(CHAIN_NAME) };
#undef CHAIN_NAME

const char *chain_stage_name(unsigned stage)
{
	return stage < CHAIN_STAGES ? stage_names[stage] : "?";
}

const char *chain_segment_name(unsigned point)
{
	return point < CHAIN_POINTS ? segment_names[point] : "?";
}

void chain_setup(struct chain_acct *a, uint64_t input0_ns, uint64_t input_period_ns, uint64_t vsync_period_ns)
{
	a->input0_ns = input0_ns;
	a->input_period_ns = input_period_ns;
	a->vsync_period_ns = vsync_period_ns;
}

void chain_wake(struct chain_acct *a, unsigned stage, uint64_t wake_ns)
{
	if (stage < CHAIN_STAGES)
		hist_add(&a->wake_hist[stage], wake_ns);
}

static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* The events f shows for the first time: their latencies, and the segments of each. */
static void add_events(struct chain_acct *a, const struct chain_frame *f)
{
	if (f->input_seq <= a->last_seq)
		return;
	uint64_t n = f->input_seq - a->last_seq, chain_ns = 0;
	for (unsigned p = 1; p < CHAIN_POINTS; p++) {
		uint64_t seg_ns = sub0(f->at_ns[p], f->at_ns[p - 1]);
		a->segment_ns[p] += (double)seg_ns * (double)n;
		chain_ns += seg_ns;
	}
	for (uint64_t i = a->last_seq + 1; i <= f->input_seq; i++) {
		uint64_t age_ns = sub0(f->at_ns[CHAIN_PICKUP], a->input0_ns + i * a->input_period_ns);
		a->segment_ns[CHAIN_PICKUP] += (double)age_ns;
		lat_stats_add(&a->i2p, age_ns + chain_ns);
		hist_add(&a->i2p_hist, age_ns + chain_ns);
	}
	a->last_seq = f->input_seq;
}

uint64_t chain_vsync(struct chain_acct *a, uint64_t index, const struct chain_frame *f)
{
	bool shown = f && f->frame + 1 > a->last_frame;
	a->vsyncs++;
	if (!shown) {
		a->jank++;
		if (++a->jank_run > a->jank_streak_max)
			a->jank_streak_max = a->jank_run;
		return 0;
	}
	a->jank_run = 0;
	a->presented++;
	a->last_frame = f->frame + 1;
	add_events(a, f);
	uint64_t frame_ns = a->last_shown ? (index + 1 - a->last_shown) * a->vsync_period_ns : 0;
	a->last_shown = index + 1;
	return frame_ns;
}

double chain_jank_pct(const struct chain_acct *a)
{
	return a->vsyncs ? 100.0 * (double)a->jank / (double)a->vsyncs : 0;
}

void chain_figures_of(const struct chain_acct *a, struct chain_figures *out)
{
	*out = (struct chain_figures){ .vsyncs = a->vsyncs, .jank = a->jank, .jank_streak = a->jank_streak_max,
				       .jank_pct = chain_jank_pct(a), .i2p_samples = a->i2p.count,
				       .i2p_mean_ns = a->i2p.mean_ns, .i2p_max_ns = a->i2p.max_ns,
				       .i2p_p50_ns = hist_percentile_ns(&a->i2p_hist, 50, a->i2p.max_ns),
				       .i2p_p99_ns = hist_percentile_ns(&a->i2p_hist, 99, a->i2p.max_ns) };
	for (unsigned k = 0; k < CHAIN_STAGES; k++)
		out->stage_wake_p99_ns[k] = hist_percentile_ns(&a->wake_hist[k], 99, HIST_MAX_NS);
	double total = a->i2p.mean_ns * (double)a->i2p.count;
	for (unsigned p = 0; p < CHAIN_POINTS; p++)
		out->segment_pct[p] = total > 0 ? 100.0 * a->segment_ns[p] / total : 0;
}

/* sim_measures.figures: the accounting into the result's block. */
static void chain_block(const void *state, void *block)
{
	struct chain_figures f;
	chain_figures_of(state, &f);
	memcpy(block, &f, sizeof(f));
}

/* The rows: a field of struct chain_figures, a row of the "chain" measures. */
#define C_FIELD(field, t) .offset = PAIR_TASK_OFFSET(struct chain_figures, field), .type = t, .task = "chain"
/* Null when no vsync passed / no input event was presented. */
#define NO_VSYNCS .null_rule = FIG_NULL_ZERO, .null_offset = PAIR_TASK_OFFSET(struct chain_figures, vsyncs)
#define NO_INPUT .null_rule = FIG_NULL_ZERO, .null_offset = PAIR_TASK_OFFSET(struct chain_figures, i2p_samples)
#define TCOL(pos, label) .column = FIG_TASK_COLUMN, .column_pos = pos, .column_label = label
/* The lines under a row (chain_lines). */
enum { LINE_STAGES, LINE_SEGMENTS };
#define STAGE_ROW(k, name) { .json_key = "stage_" name "_wake_p99_ns", C_FIELD(stage_wake_p99_ns[k], FIG_U64), \
	.unit = FIG_NS, .json_scale = 1, NO_VSYNCS, .column = FIG_TASK_LINE, .column_pos = LINE_STAGES, \
	.column_label = name },
#define SEGMENT_ROW(k, name) { .json_key = "i2p_share_" name "_ppm", C_FIELD(segment_pct[k], FIG_DOUBLE), \
	.unit = FIG_PCT, .json_scale = 1e4, NO_INPUT, .column = FIG_TASK_LINE, .column_pos = LINE_SEGMENTS, \
	.column_label = name },

/* In the JSON writer's order (doc/json.md lists them). */
static const struct task_figure chain_rows[] = {
	{ .json_key = "vsyncs", C_FIELD(vsyncs, FIG_U64), .unit = FIG_COUNT, .json_scale = 1, NO_VSYNCS },
	{ .json_key = "jank_vsyncs", C_FIELD(jank, FIG_U64), .unit = FIG_COUNT, .json_scale = 1, NO_VSYNCS,
	  TCOL(5, "jank") },
	{ .json_key = "jank_ppm", C_FIELD(jank_pct, FIG_DOUBLE), .unit = FIG_PCT, .json_scale = 1e4, NO_VSYNCS,
	  TCOL(6, "jank %"), .cmp = &(const struct figure_compare){ JM_JANK, "jank", "% jank vsyncs", "%", 100, false, 1, NULL } },
	{ .json_key = "jank_longest_run", C_FIELD(jank_streak, FIG_U64), .unit = FIG_COUNT, .json_scale = 1, NO_VSYNCS,
	  TCOL(7, "jank run") },
	{ .json_key = "input_to_present_samples", C_FIELD(i2p_samples, FIG_U64), .unit = FIG_COUNT, .json_scale = 1,
	  NO_VSYNCS },
	{ .json_key = "input_to_present_mean_ns", C_FIELD(i2p_mean_ns, FIG_DOUBLE), .unit = FIG_NS, .json_scale = 1,
	  NO_INPUT },
	{ .json_key = "input_to_present_p50_ns", C_FIELD(i2p_p50_ns, FIG_U64), .unit = FIG_NS, .json_scale = 1, NO_INPUT,
	  TCOL(0, "i2p p50") },
	{ .json_key = "input_to_present_p99_ns", C_FIELD(i2p_p99_ns, FIG_U64), .unit = FIG_NS, .json_scale = 1, NO_INPUT,
	  TCOL(1, "i2p p99"),
	  .cmp = &(const struct figure_compare){ JM_I2P_P99, "i2p", "p99 input-to-present", "ms", 0, false, 10, NULL } },
	{ .json_key = "input_to_present_max_ns", C_FIELD(i2p_max_ns, FIG_U64), .unit = FIG_NS, .json_scale = 1, NO_INPUT,
	  TCOL(2, "i2p max") },
	/* the frame figures (taken where the frames are shown) again in the task's columns, not
	 * written twice */
	{ .offset = offsetof(struct pair_summary, frame_p99_ns), .type = FIG_U64, .unit = FIG_NS, .json_scale = 1,
	  .null_rule = FIG_NULL_NO_FRAMES, .task = "chain", TCOL(3, "frame p99") },
	{ .offset = offsetof(struct pair_summary, low1_fps), .type = FIG_DOUBLE, .unit = FIG_FPS, .json_scale = 1e3,
	  .null_rule = FIG_NULL_NO_FRAMES, .higher_better = true, .task = "chain", TCOL(4, "1% low") },
	{ .offset = offsetof(struct pair_summary, stutter_frames), .type = FIG_U64, .unit = FIG_COUNT, .json_scale = 1,
	  .null_rule = FIG_NULL_NO_FRAMES, .task = "chain", TCOL(8, "stutter") },
	CHAIN_STAGE_LIST(STAGE_ROW)
	CHAIN_POINT_LIST(SEGMENT_ROW)
};

/* With -v, under each row. */
static const struct figure_line chain_lines[] = {
	[LINE_STAGES] = { .lead = "stages: wake-to-run p99" },
	[LINE_SEGMENTS] = { .lead = "input-to-present:", .shares = true },
};

const struct sim_measures pipeline_chain_measures = {
	.name = "chain", .state_bytes = sizeof(struct chain_acct), .shows_frames = true, .figures = chain_block,
	.rows = chain_rows, .n_rows = sizeof(chain_rows) / sizeof(chain_rows[0]),
	.lines = chain_lines, .n_lines = sizeof(chain_lines) / sizeof(chain_lines[0]),
	.legend = "i2p: input-to-present, an input event to the vsync that first shows a frame holding it; frame "
		  "p99: the frame time where frames are shown, vsync to vsync; 1% low: 1000 / that p99 in ms; jank: "
		  "vsyncs that showed no new frame, their count, % of the vsyncs and longest run; stutter: frames "
		  "longer than 2.5 times the mean of the 20 before them",
};
