/* The frame-time figures the game benchmarking tools report, kept as a task's frames come (its
 * frame times, engine/sim.h sim_result.frame): the lows of MangoHud and CapFrameX, and
 * CapFrameX's stutter rule.
 *
 * Lows.  Two definitions are in use, and both are kept under distinct names:
 *  - the percentile low: 1 s over the 99th (99.9th) percentile frame time.  CapFrameX's "P1"
 *    ("P0.1") FPS (CXWorld/CapFrameX source/CapFrameX.Statistics.NetStandard/
 *    FrametimeStatisticProvider.cs, EMetric.P1: the 0.01 quantile of the frame rates), and
 *    MangoHud's "1% Min FPS" of its summary since its fps_metrics.h (flightlessmango/MangoHud
 *    src/fps_metrics.h: 1000 over the frame time at rank 1 % from the longest).  Computed from
 *    the frame-time histogram (engine/summary.c).
 *  - the average low: 1 s over the mean of the longest 1 % (0.1 %) of frame times, the
 *    ceil(n / 100) (ceil(n / 1000)) longest of n.  CapFrameX's "1% low average" ("0.1% low
 *    average": EMetric.OnePercentLowAverage, the mean of the frame times at or above their
 *    0.99 quantile); MangoHud's older summaries averaged the slowest 1 % of their frame rates
 *    instead (src/logging.cpp writeSummary before fps_metrics.h), which gives no less than this
 *    (the mean of rates is at least the rate of the mean time).  Kept here: exact while
 *    the longest 1 % fit FRAME_WORST_MAX; past that (more than 100 * FRAME_WORST_MAX frames),
 *    taken from the histogram's buckets, each at its midpoint (at most 0.4 % off, its width
 *    being at most 1/128 of its value: lib/histogram.h).
 *
 * Stutter.  A frame stutters when it is longer than FRAME_STUTTER_FACTOR (2.5) times the mean
 * of the FRAME_STUTTER_WINDOW (20) frames before it; the first 20 frames have no such mean and
 * are not judged.  CapFrameX's "stuttering" factor of 2.5 (CapFrameX.Configuration/
 * CapFrameXConfiguration.cs StutteringFactor, applied in GetStutteringTimePercentage), over a
 * trailing moving average; CapFrameX's own average is of round(10 * sqrt(mean frame time in
 * ms)) frames ending at the frame judged (41 at 60 fps, SampleBasedMovingAverage.cs), here the
 * 20 before it whatever the frame rate, so a count means the same for every task.  Counted as
 * frames and as their share of the frame time, CapFrameX's "Stuttering" percentage. */
#ifndef IB_FRAMES_H
#define IB_FRAMES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/histogram.h"

#define FRAME_STUTTER_WINDOW 20u
#define FRAME_STUTTER_FACTOR 2.5
/* The longest frame times kept for the average lows (256 KB): exact up to 3.2 million frames
 * (9 hours at 100 fps). */
#define FRAME_WORST_MAX (1u << 15)

/* A run's frames as they come: the stutter window and counts, and the longest frame times. */
struct frame_acct {
	uint64_t window_ns[FRAME_STUTTER_WINDOW]; /* the last frames, a ring */
	uint64_t window_sum_ns;
	uint64_t frames;          /* frames added */
	uint64_t total_ns;        /* their times summed */
	uint64_t stutters;        /* frames that stuttered */
	uint64_t stutter_ns;      /* their times summed */
	/* The longest frame times (a min-heap of n, at most FRAME_WORST_MAX; grown as needed):
	 * NULL when none or when memory was short (the histogram then answers). */
	uint64_t *worst;
	uint32_t worst_n, worst_cap;
	bool worst_failed;        /* an allocation failed: the longest were not all kept */
};

/* The figures of a run's frames (sim_result.frame_figs): the average lows' frame times, ns
 * (0 without frames), and the stutter counts. */
struct frame_figures {
	double low1_mean_ns, low01_mean_ns;   /* mean of the longest 1 % / 0.1 % */
	uint64_t stutters, stutter_ns, total_ns;
};

/* Adds one frame of frame_ns (its stutter judged against the frames before it).  Returns
 * whether it stuttered. */
bool frame_acct_add(struct frame_acct *a, uint64_t frame_ns);

/* The mean of the longest ceil(frames * pct / 100) frame times (pct 1 or 0.1), ns: exact from
 * the kept longest ones when they hold that many, else from hist (the same frames' histogram,
 * each bucket at its midpoint).  0 without frames. */
double frame_acct_worst_mean_ns(const struct frame_acct *a, const struct lat_hist *hist, double pct);

/* a's figures into *f, hist being the same frames' histogram. */
void frame_acct_figures(const struct frame_acct *a, const struct lat_hist *hist, struct frame_figures *f);

/* Frees what a holds (a is then empty). */
void frame_acct_free(struct frame_acct *a);

/* One frame of the --frame-log (report/output_framelog.c), as the bench process hands it to
 * main through a private file (host form, never stored): when it ended (was shown, for a task
 * that presents frames) from the start of the task's period 0 (a free-running task's first
 * frame), and its frame time, ns. */
struct frame_rec {
	uint64_t at_ns;
	uint64_t frame_ns;
};

/* Frames one pair keeps in memory for --frame-log (16 MB): beyond, the pair's log is cut
 * short and says so. */
#define FRAME_LOG_MAX_RECORDS (1u << 20)

/* A pair's frames in memory (the bench process fills it). */
struct frame_log_buf {
	struct frame_rec *rec;
	uint32_t n, cap;
	bool truncated;           /* more frames than cap */
};

/* Appends a frame to b (dropped, with b->truncated set, when full). */
void frame_log_push(struct frame_log_buf *b, uint64_t at_ns, uint64_t frame_ns);

/* The trailer frame_log_write ends the frames with, so that a reader knows a whole log from a
 * write cut short: FRAME_LOG_MAGIC, the frame count, 1 when frames were dropped, 0. */
#define FRAME_LOG_MAGIC 0x4c464249u  /* "IBFL" little-endian */
struct frame_log_trailer {
	uint32_t magic, n, truncated, zero;
};

/* Writes b's frames to fd from offset 0 (a file main empties after reading each pair's), then
 * its trailer.  Returns 0, or -1 with errno set (what was written is then no whole log). */
int frame_log_write(int fd, const struct frame_log_buf *b);

#endif
