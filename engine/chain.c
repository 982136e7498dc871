/* Frame chains' accounting (engine/chain.h). */
#include <stddef.h>
#include "engine/chain.h"

static const char *const stage_names[CHAIN_STAGES] = { "input", "game", "workers", "join", "render", "commit",
							"latch" };
static const char *const segment_names[CHAIN_POINTS] = { "input", "logic", "workers", "join", "render", "latch",
							  "compose", "scanout" };

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
	*out = (struct chain_figures){ .vsyncs = a->vsyncs, .jank = a->jank, .jank_streak_max = a->jank_streak_max,
				       .jank_pct = chain_jank_pct(a), .i2p = a->i2p,
				       .i2p_p50_ns = hist_percentile_ns(&a->i2p_hist, 50, a->i2p.max_ns),
				       .i2p_p99_ns = hist_percentile_ns(&a->i2p_hist, 99, a->i2p.max_ns) };
	for (unsigned k = 0; k < CHAIN_STAGES; k++)
		out->stage_wake_p99_ns[k] = hist_percentile_ns(&a->wake_hist[k], 99, HIST_MAX_NS);
	for (unsigned p = 0; p < CHAIN_POINTS; p++)
		out->segment_ns[p] = a->segment_ns[p];
}
