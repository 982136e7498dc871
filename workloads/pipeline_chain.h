/* Pipeline's measures (workloads/pipeline.c): the figures of a task whose periods are frames
 * made by a chain of threads (an input source, a game thread, workers, a render thread) and
 * shown by a compositor at a display's vsyncs.  Pure accounting, kept by the engine as the
 * task's measures (struct sim_measures, engine/sim.h) and fed by the task's threads under
 * sim_measures_lock: input-to-present latency per input event, jank per vsync, each stage's
 * wake-to-run latency, and where the input-to-present time went, segment by segment. */
#ifndef IB_PIPELINE_CHAIN_H
#define IB_PIPELINE_CHAIN_H
#include <stdbool.h>
#include <stdint.h>
#include "engine/sim.h"
#include "lib/histogram.h"
#include "lib/stats.h"

/* The wake-ups along a frame's chain, each measured from when it was due or asked for to the
 * woken thread running: the input source (from the event's time), the game thread (from the
 * frame's nominal start: its lateness), the workers (from the fork), the game thread again
 * (from the last worker's finish: the join), the render thread (from the game's hand-off),
 * the compositor reached by the commit (from the render thread's write), the compositor at
 * its latch time (from that time).  X(enum, name): the name is the stage's in the table's
 * stage line and its JSON key stage_<name>_wake_p99_ns. */
#define CHAIN_STAGE_LIST(X) \
	X(CHAIN_INPUT, "input") X(CHAIN_GAME, "game") X(CHAIN_WORKERS, "workers") X(CHAIN_JOIN, "join") \
	X(CHAIN_RENDER, "render") X(CHAIN_COMMIT, "commit") X(CHAIN_LATCH, "latch")

/* The points a frame passes, in order (CLOCK_MONOTONIC ns); the input-to-present time of an
 * event is cut into segments ending at each: the input's age when the game picked it up
 * (PICKUP), the game's logic (FORK), the workers (JOINED: the last one done), the join's
 * wake-up (RESUMED), the render thread (COMMITTED: its wake-up and work), waiting for the
 * compositor to latch it (LATCHED: the wait for the latch time and the compositor's wake-up),
 * composing (COMPOSED) and waiting for the vsync that shows it (PRESENTED).  X(enum, name):
 * the name is the segment's, ending at that point (JSON key i2p_share_<name>_ppm). */
#define CHAIN_POINT_LIST(X) \
	X(CHAIN_PICKUP, "input") X(CHAIN_FORK, "logic") X(CHAIN_JOINED, "workers") X(CHAIN_RESUMED, "join") \
	X(CHAIN_COMMITTED, "render") X(CHAIN_LATCHED, "latch") X(CHAIN_COMPOSED, "compose") \
	X(CHAIN_PRESENTED, "scanout")

#define CHAIN_ENUM(e, name) e,
enum chain_stage { CHAIN_STAGE_LIST(CHAIN_ENUM) CHAIN_STAGES };
enum chain_point { CHAIN_POINT_LIST(CHAIN_ENUM) CHAIN_POINTS };
#undef CHAIN_ENUM

/* One frame along the chain. */
struct chain_frame {
	uint64_t frame;            /* its number (the period's index) */
	uint64_t input_seq;        /* the newest input event it picked up (events from 1; 0: none) */
	uint64_t at_ns[CHAIN_POINTS];
};

/* A chain's accounting over a run (sim_measures.state_bytes: its histograms are 250 KB, kept
 * by the engine for Pipeline alone). */
struct chain_acct {
	/* what the task set up (chain_setup): input event i (from 1) happened at
	 * input0_ns + i * input_period_ns; vsyncs are vsync_period_ns apart */
	uint64_t input0_ns, input_period_ns, vsync_period_ns;
	uint64_t vsyncs;           /* vsyncs passed */
	uint64_t jank;             /* of them, those that showed no new frame */
	uint64_t jank_run;         /* the current run of jank vsyncs */
	uint64_t jank_streak_max;  /* the longest run of jank vsyncs */
	uint64_t presented;        /* frames shown */
	uint64_t last_shown;       /* index + 1 of the last vsync that showed a new frame, 0: none */
	uint64_t last_seq;         /* the newest input event shown */
	uint64_t last_frame;       /* the number + 1 of the last frame shown, 0: none */
	struct lat_stats i2p;      /* input-to-present latency, one sample per event shown, ns */
	struct lat_hist i2p_hist;
	struct lat_hist wake_hist[CHAIN_STAGES]; /* wake-to-run latency per stage, ns */
	/* The input-to-present time of every event shown, summed per segment (ns): segment p ends
	 * at point p (enum chain_point); together they are i2p's sum. */
	double segment_ns[CHAIN_POINTS];
};

/* Names: the stage's ("input", "game", ...) and the segment ending at point p ("input",
 * "logic", ..., "scanout"), from the lists above; "?" past them. */
const char *chain_stage_name(unsigned stage);
const char *chain_segment_name(unsigned point);

/* Sets a's timing: input event i at input0_ns + i * input_period_ns, vsyncs vsync_period_ns
 * apart.  Call before any vsync. */
void chain_setup(struct chain_acct *a, uint64_t input0_ns, uint64_t input_period_ns, uint64_t vsync_period_ns);

/* One wake-up of stage s, wake_ns after it was due; a stage out of range is ignored. */
void chain_wake(struct chain_acct *a, unsigned stage, uint64_t wake_ns);

/* Vsync number index (counted from 0, each index once, in order) passed: it showed frame f
 * (at_ns[CHAIN_PRESENTED] its time), or no new frame (f NULL, or f no newer than the last
 * frame shown).  Counts the vsync and the jank, and for f its events' input-to-present
 * latencies and segments.  Returns the frame time the display showed: the time since the
 * last vsync that showed a new frame, ns; 0 when f is NULL or it is the first. */
uint64_t chain_vsync(struct chain_acct *a, uint64_t index, const struct chain_frame *f);

/* The jank vsyncs, as % of the vsyncs (0 without vsyncs). */
double chain_jank_pct(const struct chain_acct *a);

/* Pipeline's figures, its block of the result and of the summary (sim_result.task,
 * pair_summary.task): the vsyncs passed (0: none, and every figure below is null), those that
 * showed no new frame (count, % of the vsyncs, the longest run of them), input-to-present
 * latency (events, mean, p50, p99, max, ns), each stage's wake-to-run p99 (ns) and each
 * segment's share of the input-to-present time, %. */
struct chain_figures {
	uint64_t vsyncs, jank, jank_streak;
	double jank_pct;
	uint64_t i2p_samples, i2p_p50_ns, i2p_p99_ns, i2p_max_ns;
	double i2p_mean_ns;
	uint64_t stage_wake_p99_ns[CHAIN_STAGES];
	double segment_pct[CHAIN_POINTS];
};

/* The figures of a into *out. */
void chain_figures_of(const struct chain_acct *a, struct chain_figures *out);

/* Pipeline's measures: a struct chain_acct, its figures and its rows. */
extern const struct sim_measures pipeline_chain_measures;

#endif
