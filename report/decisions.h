/* The decision table: for each figure of a pair measured on two sides (two results, or two
 * alternatives of one run), each side's value, the change and its interval, and the answer
 * (decide/decision.h).  compare (tools/compare.h) prints its comparison with it, and a run
 * whose sweep gives alternatives prints each against the first (report/run_decisions.h). */
#ifndef IB_REPORT_DECISIONS_H
#define IB_REPORT_DECISIONS_H
#include <jansson.h>
#include <stdio.h>
#include "decide/decision.h"
#include "report/figures.h"

/* The widths of the table's name columns. */
struct decision_cols {
	int sim, load;
};

/* One row of the table: its cells as shown, and its values for its JSON object (old and new
 * in unit, change in change_unit; NaN or infinite: null). */
struct decision_row {
	const char *figure, *unit, *change_unit;
	char old[32], new[32], change[32], interval[40], runs[24];
	char answer[64];          /* "DIFFERENT, worse", "SAME (within 10%)", "UNKNOWN: ...",
	                             "REGRESSION" (compare's own rows) or "" */
	double old_v, new_v, change_v;
	double change_lo, change_hi; /* the 95 % interval of the change, NaN when none */
	const struct decision *d;    /* the decision behind the row, NULL for a row without one */
};

/* The row of figure m decided as d. */
void decision_row_of(enum judged_metric m, const struct decision *d, struct decision_row *r);

/* The table's header line (after an empty line). */
void decision_header_print(FILE *out, const struct decision_cols *w);

/* Prints row r of pair (sim, load). */
void decision_row_print(FILE *out, const struct decision_cols *w, const char *sim, const char *load,
			const struct decision_row *r);

/* Row r of pair (sim, load) as its JSON object (doc/json.md, compare's "figures"), or NULL
 * when out of memory. */
json_t *decision_row_json(const char *sim, const char *load, const struct decision_row *r);

/* The paragraph under the table saying how the answers were reached, for a family of
 * `family` judged figures. */
void decision_method_print(FILE *out, unsigned family);

/* A family's answers, counted. */
struct decision_counts {
	unsigned family;         /* the judged figures with a test (decision_family) */
	unsigned different, worse, same, unknown;
};

/* Sets "family" ({size, alpha, method}) and "answers" ({different, worse, better, same,
 * unknown}) of c on obj (doc/json.md).  Returns 0, or -1 when out of memory. */
int decision_counts_json(json_t *obj, const struct decision_counts *c);

/* A number for a JSON object: v, or null when not finite. */
json_t *decision_json_number(double v);

#endif
