/* `interbench plot RESULT.json [--timeline FILE] [--out DIR] [--format png|svg]`: pictures of a
 * result drawn with gnuplot (`interbench plot OLD.json NEW.json`: those of their comparison,
 * plot_compare), one file per figure, named after simulation and load, each beside
 * the self-contained gnuplot script that drew it (its data inline as datablocks, to restyle):
 *   latency-SIM      the scheduling latency tail of every load: the fraction of its periods
 *                    later than x against x on log axes (a complementary CDF), a step at each
 *                    bucket edge of the JSON histograms (its sub-runs pooled), the p99 marked
 *                    with its 95 % interval between sub-runs (open above: an arrow), the max;
 *   timer-SIM        the same of timer latency;
 *   percentiles-SIM  p50, p99 (its bar the 95 % interval between sub-runs) and max latency per
 *                    load, the period (deadline) as a line;
 *   causes-SIM       with --explain: per load, the explained delay stacked by cause (%), a
 *                    colour each;
 *   sweep-SIM-LOAD   % deadlines met and p99 against the task's settings, one curve per load
 *                    setting (after a sweep);
 *   timeline-PAIR    from --timeline: lateness of every period against time, the deadline and
 *                    (audio) buffer lines, xruns marked.
 * Run as root where other users can write, it reads its inputs through lib/safefile (no FIFO
 * waited on, sizes bounded) and the result through result_json_load (validated), writes every
 * file through safe_out_open (never through a link or into another user's file) into a
 * directory that passes safe_dir_check, and hands gnuplot its script on standard input (a
 * memfd) with the picture as standard output: gnuplot(1) is given no path, runs with -d (no
 * gnuplotrc or ~/.gnuplot), in "/" with a fixed environment. */
#ifndef IB_PLOT_H
#define IB_PLOT_H
#include <stdio.h>
#include "lib/optspec.h"
#include "tools/compare.h"
#include "tools/resultset.h"

/* Settings a sweep of a JSON result may have on either axis (result_json_load). */
#define RS_MAX_SWEEP_SETTINGS 256

struct json_t;
/* Reads the JSON result at path for a caller that walks the document itself (plot;
 * tools/plot_input.c): read as
 * result_set_load reads (a regular file or a handed pipe, at most RS_MAX_BYTES), parsed with
 * duplicate keys refused and checked as result_set_parse checks a JSON result (generator,
 * schema version, a non-empty results array, each result's figures: type and range); beyond
 * that each result's latency_histogram and timer_latency_histogram, when present, must be an
 * array of at most HIST_BUCKETS (lib/histogram.h) [low_ns, count] pairs of non-negative
 * integers, its repeat, interval_us, latency_p50_ns and timeline_pair (a u32) non-negative
 * integers or null, its task_settings (when present) an object whose
 * buffer_periods is an integer in 0..UINT32_MAX, and each of "sweeps" name its simulation and load, have 1 to
 * RS_MAX_SWEEP_SETTINGS settings on each axis and a cell for each pair of them (null, or
 * deadlines_met_ppm in 0..1000000 and latency_p99_ns).  Returns the document (json_decref it),
 * or NULL with a one-line reason in err, not naming path ("schema version 99 is not supported
 * ...", "results[3].latency_p99_ns: not an integer", "open: No such file or directory"). */
struct json_t *result_json_load(const char *path, char *err, size_t errlen);

/* The plot subcommand (argv[0] is "plot"), of one result, or of two compared as compare does
 * with its defaults (plot_compare; results compare refuses are bad input).  Returns 0; 1 when
 * a figure failed (gnuplot failed or drew an empty picture, a file could not be written or was
 * refused); 2 on bad input,
 * named in one line: options, a result result_json_load refuses, a --timeline that is not a
 * regular file or pipe handed as - or /dev/fd/N, not a timeline or too large, an --out
 * directory another user controls, gnuplot missing (named with its package). */
int plot_main(int argc, char **argv, FILE *out, FILE *err);

/* The plot subcommand's options (*n of them), for shell completion (tools/completion.h). */
const struct optspec *plot_option_table(unsigned *n);

/* compare --plot DIR: the pictures of a comparison of two JSON results, paths[0] (OLD) and
 * paths[1] (NEW), from compare's own answers (no second computation): decisions-FIGURE, a row
 * per pair of each judged figure, OLD's and NEW's estimates with their 95 % intervals between
 * sub-runs, NEW's coloured by the answer and the answer written beside it, the threshold as a
 * band about OLD's; and compare-SIM-LOAD, the scheduling latency tails of OLD and NEW
 * (plot_tail_overlay) of each pair flagged or answered DIFFERENT.  Written as plot_main writes
 * its figures.  Returns 0, 1 when a figure failed, 2 when gnuplot is missing, DIR is refused
 * or a result is refused by result_json_load (a logfile: no histograms). */
int plot_compare(const char *dir, const char *const paths[2], const struct cmp_flagged *flagged,
		 const struct cmp_answers *answers, FILE *out, FILE *err);

#endif
