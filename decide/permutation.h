/* The two-sample permutation (randomization) test of a shift, for decisions from sub-runs.
 * The sub-runs of two settings are interleaved and shuffled (run/matrix.h), so when the setting
 * makes no difference their labels are exchangeable and the test is exact whatever the
 * distribution of a sub-run's figure: bimodal (a run keeps its CPU placement), skewed, tied
 * (Fisher, "The Design of Experiments" (1935), section 21; Pitman, "Significance tests which may
 * be applied to samples from any populations", J. R. Statist. Soc. Suppl. 4 (1937) 119-130).
 * Under the shift model (B = A + delta) shifting B's values by delta0 gives the test of
 * delta = delta0, so the same enumeration answers no change and a change at +-threshold
 * (the two one-sided tests of equivalence).
 *
 * The statistic is the difference of the means, mean(B) - mean(A).  Every split of the pooled
 * values into groups of the two sizes is enumerated when there are at most PERM_MAX_SPLITS of
 * them (exact p-values, the observed split counted); beyond, PERM_MAX_SPLITS splits are drawn at
 * random from a fixed seed (Monte Carlo p-values (1 + count) / (1 + draws), Phipson & Smyth,
 * "Permutation p-values should never be zero", Stat. Appl. Genet. Mol. Biol. 9 (2010) 39). */
#ifndef IB_DECIDE_PERMUTATION_H
#define IB_DECIDE_PERMUTATION_H
#include <stdbool.h>
#include <stddef.h>

#define PERM_MAX_SPLITS 20000u
/* The most values of both groups the test is run on: a draw costs a pass over one group, and
 * with this many sub-runs Welch's t, which every answer needs too, rests on means of hundreds
 * (the central limit theorem) where the permutation test adds nothing; a hostile result of
 * 100000 repeats a side then costs no 10^9 steps.  decision_measure leaves the permutation
 * test out beyond it. */
#define PERM_MAX_VALUES 400u

/* The splits of one comparison: per split the unshifted sum of the values in group A and how
 * many of them came from B (what a shift of B moves). */
struct perm_splits {
	size_t n_a, n_b;
	double sum_a, sum_b;      /* the observed sums */
	size_t count;             /* splits kept */
	bool exact;               /* every split enumerated (else drawn) */
	double *sum;              /* count sums of group A */
	unsigned *from_b;         /* count: values of B in group A */
};

/* The splits of a[0..n_a) against b[0..n_b) (n_a, n_b >= 1) into *s.  Returns 0, or -1 when out
 * of memory (s then holds nothing). */
int perm_splits_make(struct perm_splits *s, const double *a, size_t n_a, const double *b, size_t n_b);

/* Two-sided p of delta = delta0 (|difference| at least the observed). */
double perm_p_two_sided(const struct perm_splits *s, double delta0);

/* One-sided p of delta = delta0 against delta < delta0 (below: true) or delta > delta0. */
double perm_p_one_sided(const struct perm_splits *s, double delta0, bool below);

/* The least two-sided p any data can give with groups of n_a and n_b (the one-sided one is
 * half of it, at least 1 / C): 2 / C(n_a + n_b, n_a) for equal groups (the observed split and
 * its mirror), 1 / C for unequal ones, and never below 1 / PERM_MAX_SPLITS when the splits are
 * drawn (C > PERM_MAX_SPLITS); 0 beyond PERM_MAX_VALUES values, where the test is not run. */
double perm_min_p(size_t n_a, size_t n_b);

/* Whether the test of groups of n_a and n_b values enumerates every split (exact), rather than
 * drawing PERM_MAX_SPLITS of them; false too beyond PERM_MAX_VALUES, where it is not run. */
bool perm_enumerated(size_t n_a, size_t n_b);

/* Frees what s holds. */
void perm_splits_free(struct perm_splits *s);

#endif
