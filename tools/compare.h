/* `interbench compare OLD NEW`: compares two results (JSON documents or classic logfiles, see
 * tools/resultset.h) pair by pair, each repeat of a pair one sub-run: for each figure its value
 * on each side, the change with its interval, and for the figures with a threshold an answer,
 * DIFFERENT (worse or better), SAME or UNKNOWN, the family of answers under Holm's control
 * (decide/decision.h).  Syntax in doc/json.md. */
#ifndef IB_COMPARE_H
#define IB_COMPARE_H
#include <stdbool.h>
#include <stdio.h>
#include "lib/optspec.h"
#include "tools/resultset.h"
#include "decide/decision.h"

/* Exit statuses: no regression and every judged figure decided; a regression (a judged figure
 * DIFFERENT for the worse, more starved repeats in NEW, a pair failed in NEW only); bad input;
 * no regression shown but something undecided (a judged figure UNKNOWN, a pair failed in OLD). */
enum { CMP_OK = 0, CMP_REGRESSION = 1, CMP_BAD_INPUT = 2, CMP_UNDECIDED = 3 };

/* One figure of a comparison as compare measured and answered it: its pair (OLD's names), its
 * metric and its decision (each side's estimate and interval between its sub-runs, the change
 * and its interval, the answer). */
struct cmp_answer {
	char sim[96], load[32];
	enum judged_metric m;
	struct decision d;
};

/* Every figure of a comparison, in the table's order (compare --plot and plot OLD NEW draw
 * them, tools/plot.h); a is malloc'd (free it). */
struct cmp_answers {
	struct cmp_answer *a;
	size_t n;
};

/* How much worse a metric may get: latencies in % of the old value, percentages in points.
 * NaN: the metric is reported but never a regression. */

struct cmp_thresholds {
	double limit[JM_METRICS];
	/* --match simulation,load: pairs match on the task's and the load's names alone, their
	 * settings (nice, policy: the words after the task's name) set aside; the default matches
	 * on the settings too and refuses results that share a pair only without them. */
	bool match_names;
	/* --allow-different-machine: compare results of different CPU models or counts (a
	 * warning) instead of refusing them. */
	bool allow_different_machine;
	/* --allow-different-task: compare results of different task files (their models' digests
	 * differ: a warning) instead of refusing them, to judge a change of the task itself. */
	bool allow_different_task;
	/* --regressions-only: undecided figures do not fail the comparison (exit 0, not 3). */
	bool regressions_only;
	struct cmp_flagged *flagged;  /* when not NULL, the regressed pairs are noted there */
	struct cmp_answers *answers;  /* when not NULL, every figure answered is copied there */
	/* when not NULL (--json), every line of the comparison is also recorded in this JSON
	 * object: "old", "new", "latency_compared", "warnings", "figures", "failed",
	 * "pairs_compared", "regressions" (doc/json.md) */
	struct json_t *json;
};

/* The defaults: p99 latency 10 % worse, % deadlines met 1 point lower. */
void cmp_default_thresholds(struct cmp_thresholds *t);

/* Applies spec, "KEY=VALUE[,KEY=VALUE...]" with KEY one of mean, p99, max (VALUE a percentage,
 * the '%' optional), cpu, deadlines (VALUE in points), and VALUE "off" to drop a limit; keys not
 * named keep their current limit.  Returns 0, or -1 with a one-line reason in err. */
int cmp_parse_thresholds(const char *spec, struct cmp_thresholds *t, char *err, size_t errlen);


/* The thresholds of pair a (OLD) against b (NEW) into limit: t's, with p99 not judged when a
 * usable sub-run of either side has fewer than DECISION_P99_MIN_SAMPLES samples or does not say
 * how many (a logfile's rows; decide/decision.h decision_p99_bounded), p90 then judged with
 * p99's limit where both sides carry it (unless --threshold gave p90 its own).  p90 is shown
 * only with a limit (default none). */
void cmp_pair_limits(const struct rs_pair *a, const struct rs_pair *b, const struct cmp_thresholds *t,
		     double limit[JM_METRICS]);

/* Measures the change of metric m from OLD's pair a to NEW's pair b into *d (decide/
 * decision.h; answered later by decision_family over the whole comparison): its values in
 * each side's sub-runs, the repeats that were neither disturbed nor run with their load
 * stopped (a starved repeat's latency left out: the starved row judges it); a latency as a
 * ratio, a share as a difference in points with a variance floor from its periods
 * (decision_measure_subruns); limit its threshold (NaN: reported, not judged).  Returns false when either
 * side has no value of the figure at all. */
bool compare_measure(const struct rs_pair *a, const struct rs_pair *b, enum judged_metric m, double limit,
		     struct decision *d);

/* Whether NEW's pair b has a larger share of starved repeats (no latency sample: the task
 * never ran in that window) than OLD's pair a, while t limits some latency figure.  compare
 * calls it a regression without a test, as it does a pair that failed in NEW only: a task
 * that never ran for a whole window is no noise of a working scheduler, and 2 starved
 * repeats of 5 move no figure of the sub-runs that ran enough to be seen. */
bool cmp_starved_regression(const struct rs_pair *a, const struct rs_pair *b, const struct cmp_thresholds *t);

/* The median of metric m over p's repeats (NaN values skipped; a starved repeat's latency,
 * +inf, counted as the worst), or NaN when none has it.  +inf when half or more are starved. */
double cmp_median(const struct rs_pair *p, enum judged_metric m);

/* Compares the pairs present in both sets and writes the report to out.  Returns CMP_OK,
 * CMP_REGRESSION, or CMP_BAD_INPUT (with a line on err) when no pair is in common. */
int compare_sets(const char *old_name, const struct result_set *old, const char *new_name,
		 const struct result_set *new, const struct cmp_thresholds *t, FILE *out, FILE *err);

/* An OPTSPEC_CUSTOM option's .set (lib/optspec.h) for --threshold: applies arg as
 * cmp_parse_thresholds does to the struct cmp_thresholds at s->offset in base.  Returns
 * OPTSPEC_SET, or OPTSPEC_BAD with cmp_parse_thresholds's reason in what. */
int cmp_threshold_option(const struct optspec *s, void *base, const char *arg, char *what, size_t whatlen);

/* The subcommand: argv[0] is "compare".  Returns the exit status (CMP_*). */
int compare_main(int argc, char **argv, FILE *out, FILE *err);

/* The compare subcommand's options (*n of them), for shell completion (tools/completion.h). */
const struct optspec *compare_option_table(unsigned *n);

#endif
