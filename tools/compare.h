/* `interbench compare OLD NEW`: compares two results (JSON documents or classic logfiles, see
 * tools/resultset.h) pair by pair: old and new values of mean, p99 and max latency, % desired
 * CPU and % deadlines met, with the change, a Mann-Whitney U test on the per-repeat values where
 * the repeats allow it, and a verdict against thresholds.  Syntax in doc/json.md. */
#ifndef IB_COMPARE_H
#define IB_COMPARE_H
#include <stdbool.h>
#include <stdio.h>
#include "lib/optspec.h"
#include "tools/resultset.h"

#define CMP_ALPHA 0.05 /* two-sided significance level */

/* Exit statuses. */
enum { CMP_OK = 0, CMP_REGRESSION = 1, CMP_BAD_INPUT = 2 };

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
	struct cmp_flagged *flagged;  /* when not NULL, the regressed pairs are noted there */
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

/* The comparison of one metric of one pair. */
struct metric_cmp {
	double old, new;       /* medians over the repeats (ns for latencies, % for percentages);
	                          +inf: starved (see compare_metric) */
	double change;         /* % of old (latencies) or points (percentages); +inf when NEW
	                          is starved and OLD is not, NaN when OLD is starved */
	bool tested;           /* Mann-Whitney applied */
	double p;              /* its two-sided p, NaN when !tested */
	/* Not tested: the 95 % interval of the change (in change's unit) from both sides'
	 * intervals (cmp_change_interval), when both carry one; NaN otherwise; an end -inf or
	 * +inf where a side's p99 interval is open above. */
	double change_lo, change_hi;
	bool shown;            /* that interval excludes no change on the worse side: the change
	                          is real (false without an interval) */
	bool beyond;           /* worse than t's limit of the figure */
	bool regression;       /* worse than t allows, and significant when tested, shown by the
	                          interval of the change when not tested but it has one */
};

/* The 95 % interval of the change of metric m from OLD's pair a to NEW's pair b, in the unit
 * of struct metric_cmp.change (% of OLD's value for latencies, points for percentages), into
 * *lo and *hi.  Each side's estimate and interval: with one measured repeat its value and its
 * run's interval (rs_values.lo/hi, schema version 3), with several the mean of the repeats'
 * values and the t interval of that mean (lib/interval.h student_t975).  One run's p99 interval
 * whose upper end reaches its run's largest scheduling latency (JM_SMAX) is open above: its
 * upper end is +inf, so the change's lower end is -inf when OLD's is open (no regression can be
 * shown) and its upper end +inf when NEW's is.  The difference's
 * limits are MOVER's (Zou & Donner, "Construction of confidence limits about effect measures:
 * a general approach", Statistics in Medicine 27:1693-1702, 2008): NEW - OLD minus
 * sqrt((new - new_lo)^2 + (old_hi - old)^2), plus sqrt((new_hi - new)^2 + (old - old_lo)^2);
 * a latency's are then taken as a % of OLD's estimate (its own uncertainty left out).  Returns
 * false (lo, hi NaN) when a side has no interval, or a starved (+inf) or zero OLD estimate. */
bool cmp_change_interval(const struct rs_pair *a, const struct rs_pair *b, enum judged_metric m, double *lo,
			 double *hi);

/* Compares metric m of pair a (OLD) and pair b (NEW) under t into *mc: the medians, their
 * change, and where the repeats allow it the two-sided Mann-Whitney U test (tools/mwu.h; ties
 * take their mean rank, the midrank, with the tie-corrected variance of Hollander & Wolfe,
 * Nonparametric Statistical Methods).  A starved repeat (rs_values.no_samples) carries its
 * latency figures as +inf: worse than any measured value in the median and in the ranks, its
 * ties with other starved repeats midranks; a median of +inf is "starved", never a number.
 * Returns false (mc zeroed) when either side has no value of the figure. */
bool compare_metric(const struct rs_pair *a, const struct rs_pair *b, enum judged_metric m,
		    const struct cmp_thresholds *t, struct metric_cmp *mc);

/* Whether NEW's pair b has a larger share of starved repeats (no latency sample: the task
 * never ran in that window) than OLD's pair a, while t limits some latency figure.  compare
 * calls it a regression without a test, as it does a pair that failed in NEW only: a task
 * that never ran for a whole window is no noise of a working scheduler, and 2 starved
 * repeats of 5 move neither the median nor Mann-Whitney's ranks enough to be seen. */
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
