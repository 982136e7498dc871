/* A run's own decisions between its alternatives: when the sweep gives a task more than one
 * setting (-B, -N, --bench-policy, --load-policy, --bench-slice, --load-slice, --wake, the
 * CPU alternatives of --bench-cpus and --load-cpus, several -L, several --scheduler: the
 * settings that change between sub-runs), every pair is decided against the first setting of
 * its task and load, figure by figure, from the sub-runs (--repeat N: each setting's N repeats,
 * interleaved and shuffled with the others, so that a drift of the host falls on every side
 * alike), the whole run one family (decide/decision.h).  The text output prints the table after
 * the run's tables, the JSON output writes it as "decisions" (doc/json.md). */
#ifndef IB_REPORT_RUN_DECISIONS_H
#define IB_REPORT_RUN_DECISIONS_H
#include <jansson.h>
#include <stdio.h>
#include "decide/decision.h"
#include "report/figures.h"
#include "run/matrix.h"

/* One figure of one plan item decided against its baseline item. */
struct run_decision {
	size_t item, base;       /* plan items: the alternative and the first setting of its task
	                            and load */
	enum judged_metric m;
	struct decision d;
};

/* The run's decisions, answered as one family. */
struct run_decisions {
	struct run_decision *list;
	size_t n;
	unsigned family;         /* the judged figures with a test (decision_family) */
	unsigned different, worse, same, unknown;
};

/* The decisions of the run in m (every judged figure of the items of plan with a baseline,
 * the figures' default thresholds, struct figure_compare.threshold) into *rd, empty (n 0) when
 * no task has two settings.  Returns 0, or -1 when out of memory (rd then empty). */
int run_decisions_build(const struct matrix *m, struct run_decisions *rd);

/* Prints rd's table to out: a line naming what was decided, the rows, the method, a line of
 * counts. */
void run_decisions_print(FILE *out, const struct matrix *m, const struct run_decisions *rd);

/* rd as the JSON's "decisions" object: family, answers, figures (doc/json.md); NULL when out
 * of memory. */
json_t *run_decisions_json(const struct matrix *m, const struct run_decisions *rd);

/* Whether plan item `item` of the run in m needs no more sub-runs (the --budget run's
 * question after each round): every judged figure of every decision it takes part in (as an
 * alternative, or as the first setting others are decided against) is precise
 * (decision_precise at the family's strictest level, alpha over the run's judged figures:
 * its interval narrow enough to answer at its threshold); without alternatives, every judged
 * figure of its own is known to --precision (decision_side_precise: latencies to
 * latency_p99_pct % of their value, shares to deadlines_met_pt points, at 95 %).  Stopping on
 * the intervals' width, never on the answer, keeps the answers' error as stated (decide/
 * decision.h decision_precise).  When not, why (whylen bytes) names the first figure that is not
 * precise ("p99 latency"), or says "disturbed" when too few of its sub-runs were usable. */
bool run_decisions_settled(const struct matrix *m, size_t item, char *why, size_t whylen);

/* Plan item i's sub-runs of metric m in its first `rounds` rounds into s[0..rounds): every
 * repeat that ran and reported, its value NaN where the figure is null or does not apply to
 * the task, usable when its window was whole, undisturbed and its load never seen stopped.
 * Returns how many were written. */
size_t run_decisions_subruns(const struct matrix *m, size_t i, enum judged_metric metric, struct decision_subrun *s,
			     unsigned rounds);

/* Frees what rd holds. */
void run_decisions_free(struct run_decisions *rd);

#endif
