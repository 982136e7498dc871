/* `interbench plot RESULT.json [--timeline FILE] [--out DIR] [--format png|svg]` (issue 15):
 * pictures of a result drawn with gnuplot, one file per figure, named after simulation and
 * load, each beside the gnuplot script and data that drew it (to restyle):
 *   latency-SIM      the scheduling and timer latency distributions of every load (log-log
 *                    histograms from the JSON buckets), p99 and max marked;
 *   percentiles-SIM  p50, p99 and max latency per load, the period (deadline) as a line;
 *   sweep-SIM-LOAD   % deadlines met and p99 against the task's settings, one curve per load
 *                    setting (after a sweep);
 *   timeline-PAIR    from --timeline: lateness of every period against time, the deadline and
 *                    (audio) buffer lines, xruns marked. */
#ifndef IB_PLOT_H
#define IB_PLOT_H
#include <stdio.h>
#include "results/compare.h"

/* The plot subcommand (argv[0] is "plot").  Returns 0, 1 when gnuplot failed on a figure, 2 on
 * bad input (options, an unreadable result, gnuplot missing: named with the package). */
int plot_main(int argc, char **argv, FILE *out, FILE *err);

/* compare --plot DIR: OLD's and NEW's scheduling latency distributions overlaid for each flagged
 * pair (compare-SIM-LOAD), from the two JSON results' histogram buckets.  Returns 0, 1 when
 * gnuplot failed on a figure, 2 when gnuplot is missing or a result is not JSON. */
int plot_compare(const char *dir, const char *old_path, const char *new_path, const struct cmp_flagged *flagged,
		 FILE *out, FILE *err);

#endif
