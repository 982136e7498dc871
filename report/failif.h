/* --fail-if: a pass/fail verdict on one run, for a CI job that gates on it.  Each condition
 * names a figure by compare's --threshold key (report/figures.h judged_metric_named: p99, p90,
 * sched-mean, sched-max, mean, max, cpu, deadlines or met, streak, frame, low1, xruns, stolen,
 * i2p, jank), a comparison and a limit, and optionally the pairs it is checked on:
 *
 *   [TASK[/LOAD]:]FIGURE OP VALUE     OP one of < <= > >=; TASK or LOAD may be *
 *   --fail-if "met<99,p99>2ms" --fail-if "Audio/Burn:p99>500us"
 *
 * A condition says when the run fails: "p99>2ms" fails a pair whose p99 latency is above 2 ms.
 * VALUE carries the figure's unit: a time needs one (ns, us, ms, s, m, h), a share may end in
 * %, a frame rate in fps, xruns in /min.  After the run every condition is checked on every
 * pair it names that ran and that the figure applies to (deadlines are a task's with
 * deadlines, xruns ProAudio's, jank and i2p the Pipeline's), in one of two modes:
 *   point     (default) on the figure as the table shows it: the pair's one run, or the
 *             median over its sub-runs.  A point estimate: a rerun of the pair may land on the
 *             other side of the limit.  It is what a cyclictest or rtla user gates on (one
 *             number against a limit) and it works with a single run (-t).
 *   interval  only when the between-sub-run interval of the figure (decide/decision.h
 *             decision_subruns_interval: the t interval of the sub-runs' mean, a latency's of
 *             their geometric mean) lies wholly beyond the limit, so that a pass-to-fail flip
 *             is evidence, not noise.  Each interval is at level 1 - 0.05 / K for the run's K
 *             interval checks (Bonferroni), so a false fail anywhere is at most 5 %.  A pair with fewer than 2 usable sub-runs has no such
 *             interval: its check is unknown, said, and does not fail the run.  A within-run
 *             interval (the p99's own) is never used: it says nothing of another run.
 * A pair that measured nothing (its every run failed), or whose figure has no value (a task
 * that took no latency sample), fails the conditions on it: nothing measured is no pass. */
#ifndef IB_REPORT_FAILIF_H
#define IB_REPORT_FAILIF_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <jansson.h>
#include "lib/optspec.h"
#include "report/figures.h"
#include "run/matrix.h"

/* The exit status of a run whose --fail-if conditions failed (man page, EXIT STATUS): apart
 * from 1 (a failure of the run itself), 2 (bad input) and 128 + N (a signal). */
#define FAILIF_EXIT_STATUS 3

#define FAILIF_MAX 32             /* conditions over every --fail-if */
#define FAILIF_TEXT_MAX 96        /* bytes of one condition's text */

/* What --fail-if accepts, for messages. */
#define FAILIF_ACCEPTED "[TASK[/LOAD]:]FIGURE OP VALUE,... with OP one of < <= > >=, FIGURE a compare " \
	"--threshold key (p99, p90, sched-mean, sched-max, mean, max, cpu, deadlines or met, streak, frame, " \
	"low1, xruns, stolen, i2p, jank) and VALUE in its unit (a time with ns, us, ms, s, m or h; a share " \
	"in %; fps; /min)"

enum failif_op { FAILIF_LT, FAILIF_LE, FAILIF_GT, FAILIF_GE };

/* How a condition is checked (see above). */
enum failif_mode { FAILIF_POINT, FAILIF_INTERVAL };

/* One condition. */
struct failif_cond {
	char text[FAILIF_TEXT_MAX];  /* as given, blanks removed: for messages and the JSON */
	int task, load;              /* workload_table indexes, -1: any */
	enum judged_metric metric;
	const struct task_figure *f; /* its row (figure_of_metric) */
	enum failif_op op;
	double limit;                /* in the field's unit: ns, %, fps, /min */
};

/* Every condition of a run. */
struct failif_spec {
	unsigned n;
	struct failif_cond c[FAILIF_MAX];
	enum failif_mode mode;
};

/* Parses every text of texts (each one or more comma-separated conditions) into *spec, with
 * mode.  Returns 0, or -1 with err saying "--fail-if: ..." with the condition, what is wrong
 * and what is accepted. */
int failif_parse(const struct optspec_texts *texts, enum failif_mode mode, struct failif_spec *spec, char *err,
		 size_t errlen);

/* Refuses a condition that would check nothing in this run: its pair is not in plan, or its
 * figure applies to none of the pairs it names.  Returns 0, or -1 with err naming it. */
int failif_check_plan(const struct failif_spec *spec, const struct plan *plan, char *err, size_t errlen);

/* A condition's outcome on one pair. */
enum failif_result {
	FAILIF_NA,       /* not checked: another pair, a figure the task has not, or not run */
	FAILIF_PASS,
	FAILIF_FAIL,
	FAILIF_UNKNOWN,  /* interval mode without an interval: said, not failed */
};

/* One condition on one pair. */
struct failif_check {
	enum failif_result r;
	double value;                /* the point (median or one run) or, in interval mode, the
	                                sub-runs' (geometric) mean; NaN: no value */
	double lo, hi;               /* interval mode: the between-sub-run interval; NaN: none */
	unsigned subruns;            /* sub-runs it rests on */
	const char *why;             /* FAILIF_FAIL without a value, FAILIF_UNKNOWN: the reason */
};

/* The verdict of a run: checks[item * spec->n + cond]. */
struct failif_verdict {
	size_t items;
	struct failif_check *checks;
	unsigned checked, failed, unknown; /* checks made (not NA), failed, unknown */
	unsigned family;             /* interval mode: the interval checks made (pairs that ran) */
	double alpha_each;           /* interval mode: each interval's 1 - level, CI_ALPHA / family */
	size_t pairs_failed;         /* plan items with a failed check */
	size_t not_run;              /* plan items a condition names that never ran (the run was
	                                stopped before them: a signal, --on-threshold's stop) */
};

/* Checks spec on every pair of m into *v.  Returns 0, or -1 when out of memory (v empty). */
int failif_judge(const struct failif_spec *spec, const struct matrix *m, struct failif_verdict *v);

/* Prints one line per failed or unknown check to f ("interbench: --fail-if: Audio vs Burn:
 * p99 latency 2.31 ms > 2 ms (p99>2ms; median of 6 sub-runs, a point estimate)"), then the
 * verdict line. */
void failif_print(FILE *f, const struct failif_spec *spec, const struct matrix *m, const struct failif_verdict *v);

/* The verdict as the JSON's "fail_if" object (doc/json.md): mode, conditions, verdict, and per
 * pair checked its checks; NULL when out of memory. */
json_t *failif_json(const struct failif_spec *spec, const struct matrix *m, const struct failif_verdict *v);

/* Frees v's checks (its counts stay). */
void failif_free(struct failif_verdict *v);

#endif
