/* "Did you mean": the candidate nearest a misspelt word (an option, a workload, a
 * subcommand), by the optimal string alignment distance, the restricted form of the
 * Damerau-Levenshtein distance (Damerau, "A technique for computer detection and correction of
 * spelling errors", CACM 7(3), 1964; Levenshtein, Soviet Physics Doklady 10(8), 1966): the
 * fewest insertions, deletions, substitutions and swaps of two adjacent characters that turn
 * one word into the other, no substring edited twice.  "bugdet" is 1 from "budget". */
#ifndef IB_SUGGEST_H
#define IB_SUGGEST_H
#include <stdbool.h>
#include <stddef.h>

#define SUGGEST_MAX_LEN 64   /* longer words are compared by their first 64 bytes */

/* The optimal string alignment distance between a and b (bytes; ASCII letters compared
 * case-insensitively when nocase). */
unsigned suggest_distance(const char *a, const char *b, bool nocase);

/* The most edits a suggestion for a word of len bytes may be away: 1 up to 4 bytes, 2 up to 8,
 * else 3 (a third of a long word, at most), so that a short typo is not "corrected" into an
 * unrelated short name. */
unsigned suggest_max_edits(size_t len);

/* Nearest-candidate search: start with suggest_begin, offer each candidate to suggest_offer,
 * then best is the nearest within suggest_max_edits of the word (the first offered on a tie),
 * or NULL. */
struct suggest {
	const char *word;
	bool nocase;
	const char *best;
	unsigned best_d;
};

void suggest_begin(struct suggest *sg, const char *word, bool nocase);
void suggest_offer(struct suggest *sg, const char *candidate);

#endif
