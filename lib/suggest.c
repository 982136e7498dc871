#include <string.h>
#include "lib/suggest.h"

static char fold(char c, bool nocase)
{
	return nocase && c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

unsigned suggest_distance(const char *a, const char *b, bool nocase)
{
	/* d[i][j]: the distance between a's first i bytes and b's first j (Wagner-Fischer's table
	 * with the transposition step) */
	unsigned d[SUGGEST_MAX_LEN + 1][SUGGEST_MAX_LEN + 1];
	size_t n = strnlen(a, SUGGEST_MAX_LEN), m = strnlen(b, SUGGEST_MAX_LEN);
	for (size_t i = 0; i <= n; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= n; i++)
		for (size_t j = 1; j <= m; j++) {
			unsigned cost = fold(a[i - 1], nocase) != fold(b[j - 1], nocase);
			unsigned v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < v)
				v = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && fold(a[i - 1], nocase) == fold(b[j - 2], nocase) &&
			    fold(a[i - 2], nocase) == fold(b[j - 1], nocase) && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[n][m];
}

unsigned suggest_max_edits(size_t len)
{
	return len <= 4 ? 1 : len <= 8 ? 2 : 3;
}

void suggest_begin(struct suggest *sg, const char *word, bool nocase)
{
	*sg = (struct suggest){ .word = word, .nocase = nocase, .best = NULL };
}

void suggest_offer(struct suggest *sg, const char *candidate)
{
	if (!candidate || !*candidate)
		return;
	unsigned d = suggest_distance(sg->word, candidate, sg->nocase);
	if (d <= suggest_max_edits(strlen(sg->word)) && (!sg->best || d < sg->best_d)) {
		sg->best = candidate;
		sg->best_d = d;
	}
}
