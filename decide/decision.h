/* Decisions about figures between two sides (two settings interleaved in one run, or two runs
 * such as two kernels): for each judged figure, DIFFERENT (worse or better), SAME (any change
 * lies within the figure's threshold) or UNKNOWN (neither shown yet, with the sub-runs a side
 * that would show one at the spread seen), with the error of the whole family of answers
 * controlled.
 *
 * The unit of evidence is the sub-run: one value of the figure per sub-run of each side (a
 * repeat of the pair, its task and load started afresh).  Periods within one sub-run are not
 * independent and sub-runs differ from each other (a run keeps its CPU placement and phase:
 * 82-84 % of the run-to-run variance of Audio/Burn's and Video/Burn's mean latency lies between
 * runs, bench/RESULTS.md), so only the spread between sub-runs says how well a side's figure is
 * known (Kalibera & Jones, "Rigorous benchmarking in reasonable time", ISMM 2013: the run as
 * the replication level).  One sub-run a side gives no answer.
 *
 * The change and its test.  A latency's change is a ratio (B / A - 1, in % of A) estimated on
 * the log scale: the difference of the sides' mean log values, so that the interval is of the
 * ratio itself and never below -100 %; a share's is a difference (B - A, in points).  Its
 * standard error and degrees of freedom are Welch's (Welch, "The generalization of 'Student's'
 * problem when several different population variances are involved", Biometrika 34 (1947)
 * 28-35; Satterthwaite's degrees of freedom), each side's variance never below a floor the
 * caller derives from the periods themselves (a share every sub-run had at 100 % is known only
 * to the exact binomial bound of its periods, not to zero).
 *   - DIFFERENT tests no change: two-sided, p = 2 P(T > |change| / se).
 *   - SAME tests a change at least the threshold: two one-sided tests (Schuirmann, "A
 *     comparison of the two one-sided tests procedure and the power approach for assessing the
 *     equivalence of average bioavailability", J. Pharmacokin. Biopharm. 15 (1987) 657-680),
 *     p the larger of the two; for a ratio the margins are +-log(1 + threshold / 100).
 *   - Each of these p-values is the larger of Welch's and the exact permutation test's of the
 *     same hypothesis (decide/permutation.h; up to PERM_MAX_VALUES sub-runs in all): the
 *     interleaved sub-runs are exchangeable when the setting makes no difference, so the
 *     permutation test holds whatever their distribution (bimodal placements, ties), and an
 *     answer needs both; its least p, 2 / C(2n, n), means no answer below 5 sub-runs a side.
 *   - The family: Holm's step-down adjustment (Holm, "A simple sequentially rejective multiple
 *     test procedure", Scand. J. Statist. 6 (1979) 65-70) over the family's DIFFERENT p-values,
 *     and again over its SAME p-values, so that the chance of any false DIFFERENT among them is
 *     at most alpha, and the chance of any false SAME at most alpha, whatever the figures'
 *     dependence.  A figure both shown SAME and changed (a small real change within the
 *     threshold) answers SAME.
 * A figure without a threshold is reported (its change and interval) but not judged. */
#ifndef IB_DECIDE_DECISION_H
#define IB_DECIDE_DECISION_H
#include <stdbool.h>
#include <stddef.h>

/* The error of each family of answers (any false DIFFERENT; any false SAME): 5 %. */
#define DECISION_ALPHA 0.05

/* The most sub-runs a side an UNKNOWN's projection looks at: beyond, it says none would do. */
#define DECISION_MAX_SUBRUNS 100000

/* The answer about one figure. */
enum decision_answer {
	DECISION_REPORTED,   /* no threshold: the change is shown, not judged */
	DECISION_UNKNOWN,    /* neither a change nor its absence is shown */
	DECISION_SAME,       /* the change lies within +-threshold (equivalence) */
	DECISION_DIFFERENT,  /* a change is shown: worse or better (struct decision.worse) */
};

/* How a figure's change is measured and judged. */
struct decision_rule {
	bool ratio;          /* a latency: the change is B / A - 1 in % of A, every value > 0;
	                        else a difference B - A in the figure's unit (points) */
	bool higher_worse;   /* a higher value is worse (latencies); else a lower one (shares) */
	double threshold;    /* the least change that matters, either way: % of A (ratio) or the
	                        figure's unit; NaN: not judged */
};

/* The decision about one figure: filled by decision_measure, answered by decision_family. */
struct decision {
	struct decision_rule rule;
	unsigned n_a, n_b;       /* the sub-runs with a value, each side */
	double a, b;             /* each side's estimate in the figure's unit: the mean, or for a
	                            ratio the geometric mean (the mean where a value is 0); NaN
	                            for a side without a value */
	double a_lo, a_hi;       /* each side's 95 % interval of its estimate over its sub-runs, from
	                            the values and variance its test uses (decision_side_interval):
	                            between sub-runs, never one run's own; NaN below 2 sub-runs */
	double b_lo, b_hi;
	double change;           /* % of A (ratio) or the figure's unit; NaN without both sides */
	double change_lo, change_hi; /* its 95 % interval (Welch), for this figure alone; NaN
	                                without a test */
	bool tested;             /* both sides have 2 sub-runs or more, and a ratio's values are
	                            all > 0: the p-values below are set */
	double se, dof;          /* the change's standard error on the test scale (the log for a
	                            ratio) and its Welch-Satterthwaite degrees of freedom */
	double p_different;      /* two-sided p of no change (Welch's and the permutation test's,
	                            the larger) */
	double p_same;           /* TOST p of a change of at least the threshold (1 without one),
	                            likewise the larger of the two tests' */
	double p_different_adj, p_same_adj; /* Holm-adjusted in the family (decision_family) */
	/* Welch's own p-values, and whether the permutation test's were drawn (not enumerated):
	 * a family too large for the drawn splits' floor, 1 / PERM_MAX_SPLITS above alpha over its
	 * size (over 1000 figures), answers those on Welch's alone (decision_family): they rest on
	 * 9 sub-runs a side or more, where the floor, not the data, would stop every answer. */
	double p_different_welch, p_same_welch;
	bool perm_drawn;
	enum decision_answer answer;
	bool worse;              /* the estimate moved for the worse */
	/* UNKNOWN: the sub-runs a side at which, at the spread seen and the change as estimated,
	 * the interval would answer (at the family's strictest level, alpha / its size, with
	 * Student's t at that many sub-runs' degrees of freedom): INFINITY when none up to
	 * DECISION_MAX_SUBRUNS would (the change sits on its threshold, or there is no test yet);
	 * 0 otherwise. */
	double subruns_needed;
	const char *why;         /* why there is no test (NULL when tested): "one sub-run a side",
	                            "a value of 0 has no ratio", "no value" */
};

/* Measures the change of one figure from side A's values a[0..na) to side B's b[0..nb) (one
 * per sub-run; NaN values are left out) under rule r into *d, answer DECISION_UNKNOWN (or
 * DECISION_REPORTED without a threshold) until decision_family.  floor_var_a and floor_var_b:
 * the least variance of each side's estimate on the test scale (the log of the value for a
 * ratio), from what the sub-runs' own periods allow (0: none). */
void decision_measure(struct decision *d, const struct decision_rule *r, const double *a, size_t na,
		      const double *b, size_t nb, double floor_var_a, double floor_var_b);

/* One side's estimate of a figure from its sub-runs' values v[0..n) (NaN skipped) into *est,
 * as decision_measure estimates each side (a ratio's: the geometric mean), and its 95 %
 * interval between the sub-runs into *lo and *hi: the estimate's mean on the test scale (the
 * log for a ratio) -+ t(n - 1, 0.975) times its standard error, the variance never below
 * floor_var (then with the normal quantile), mapped back to the figure's unit.  Returns false,
 * lo and hi NaN, with fewer than 2 values or, for a ratio, a value not above 0 or infinite
 * (est still set where there is a value, else NaN). */
bool decision_side_interval(const double *v, size_t n, bool ratio, double floor_var, double *est, double *lo,
			    double *hi);

/* One sub-run's value of a figure, with what the decision needs to know of it. */
struct decision_subrun {
	double value;        /* the figure (NaN or infinite: left out) */
	double periods;      /* its periods with a deadline (a share's floor); NaN: not known */
	double samples;      /* its latency samples (whether a p99 can be bounded); NaN: not known */
	bool usable;         /* neither disturbed nor run with its load stopped: evidence */
};

/* The least samples in every sub-run of both sides for a p99 to be judged: the largest of n
 * samples lies above the p99 with probability 1 - 0.99^n, at least 1 - alpha / 2 = 0.975 from
 * n = ln(0.025) / ln(0.99) = 367.04 on (the exact order-statistic bound, Conover, "Practical
 * Nonparametric Statistics", 3rd ed., section 3.2); below it a sub-run's "p99" is its largest
 * sample or next to it, and p90 (bounded from 36 samples) is judged in its place.  Audio's 5 s
 * sub-run has 100 periods, X's sweep 101, Video's 5 s 300. */
#define DECISION_P99_MIN_SAMPLES 368

/* Whether every usable sub-run of a[0..na) and b[0..nb) has at least DECISION_P99_MIN_SAMPLES
 * samples (a sub-run without a sample, a starved one, has no p99 to bound; one whose count is
 * not said, NaN, as a logfile's rows, cannot show it is bounded and makes this false). */
bool decision_p99_bounded(const struct decision_subrun *a, size_t na, const struct decision_subrun *b, size_t nb);

/* decision_measure over sub-runs: the usable ones' finite values, and for a share (in %, 0 to
 * 100) each side's variance floor from its periods: the binomial variance over every usable
 * sub-run's periods at the Agresti-Coull adjusted share (k + 2) / (n + 4) (Agresti & Coull,
 * "Approximate is better than 'exact' for interval estimation of binomial proportions", Am.
 * Stat. 52 (1998) 119-126), so that sub-runs all at 100 % are known no better than their
 * periods show.  d->why is "its sub-runs left out" when no usable sub-run of a side has a value
 * but some were left out.  Returns whether both sides carry the figure in some sub-run (usable
 * or not, a starved repeat's infinite latency too): the figure exists in both. */
bool decision_measure_subruns(struct decision *d, const struct decision_rule *r, bool share,
			      const struct decision_subrun *a, size_t na, const struct decision_subrun *b, size_t nb);

/* Whether d is known well enough to be answered, whatever its change turns out to be: tested,
 * with sub-runs enough for the permutation test to reach alpha_each (perm_min_p), and the
 * half-width of its change's interval at level 1 - alpha_each (Student's t at its
 * degrees of freedom, on the test scale) at most half its margin (the threshold; for a ratio
 * log(1 + threshold / 100)).  Such an interval either lies within the threshold about a change
 * below half of it (SAME) or excludes no change (DIFFERENT), so a run that gives a pair more
 * sub-runs until its figures are precise stops on their spread, never on their answer: a
 * fixed-width stopping rule, whose intervals keep their level asymptotically without a
 * correction for the looks (Chow & Robbins, "On the asymptotic theory of fixed-width sequential
 * confidence intervals for the mean", Ann. Math. Statist. 36 (1965) 457-462).  A figure
 * without a threshold is always precise (it is not judged). */
bool decision_precise(const struct decision *d, double alpha_each);

/* Whether one side's figure is known to within target (a ratio: a factor 1 + target / 100
 * either way, on the log scale; else the figure's unit) from its usable sub-runs s[0..n) with a
 * finite value: at least 2, and the half-width of the t interval of their mean at level
 * 1 - alpha (for a share its variance never below the floor of its periods, as
 * decision_measure_subruns) at most target.  A run without alternatives gives a pair sub-runs
 * until its judged figures are so known (the same fixed-width rule). */
bool decision_side_precise(const struct decision_subrun *s, size_t n, bool ratio, bool share, double target,
			   double alpha);

/* The between-sub-run interval of one side's figure (decision_side_interval's, from sub-runs
 * with their periods and at any level): from its usable sub-runs s[0..n) with a
 * finite value (at least 2; for a ratio every one above 0), the t interval at level 1 - alpha
 * of their mean (a ratio's on the log scale: of their geometric mean), a share's variance never
 * below the floor of its periods (as decision_side_precise), into *lo and *hi, the estimate
 * (the geometric mean, or the mean) into *est, all in the figure's unit.  It says where the
 * figure of another run of the pair would be centred, which a within-run interval cannot.
 * Returns the sub-runs it rests on, or 0 (everything NaN) when there is no interval. */
size_t decision_subruns_interval(const struct decision_subrun *s, size_t n, bool ratio, bool share, double alpha,
				 double *est, double *lo, double *hi);

/* Answers the family d[0..n) at family error alpha (DECISION_ALPHA): Holm's adjustment over
 * the judged and tested decisions' p_different, and over their p_same; each judged decision
 * then answers SAME (p_same_adj <= alpha), else DIFFERENT (p_different_adj <= alpha), else
 * UNKNOWN with its subruns_needed.  Returns the size of the family (the judged decisions with
 * a test). */
size_t decision_family(struct decision *d, size_t n, double alpha);

/* The answer's word: "DIFFERENT", "SAME", "UNKNOWN", "-" (reported). */
const char *decision_answer_name(enum decision_answer a);

/* Holm's step-down adjusted p-values of p[0..n) into adj[0..n) (NaN entries stay NaN and are
 * not counted in n): adj_(i) = max over j <= i of min(1, (m - j + 1) p_(j)), p_(1) <= ... <=
 * p_(m) the m valid p-values in ascending order.  Returns m. */
size_t holm_adjust(const double *p, double *adj, size_t n);

#endif
