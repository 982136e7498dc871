/* The result set compare, export and plot read (tools/resultset.h): its pairs and their
 * repeats, the indexes that find a pair, and the choice between the two readers
 * (tools/result_json.c, tools/result_log.c). */
#define _GNU_SOURCE
#include <math.h>
#include <search.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/safefile.h"
#include "lib/text.h"
#include "tools/result_read.h"

int rs_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}
/* The pair key of a task with its mode words (a printf format and its args for "%.*s") and
 * the loads' setting words: "Audio nice -10", "Audio nice -10 (loads nice 19)". */
void rs_pair_key(char *buf, size_t len, const char *fmt, int n, const char *sim, int ln, const char *lw)
{
	int w = snprintf(buf, len, fmt, n, sim);
	if (ln > 0 && w > 0 && (size_t)w < len)
		snprintf(buf + w, len - (size_t)w, " (loads %.*s)", ln, lw);
}
void result_set_free(struct result_set *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		free(rs->pairs[i].v);
	free(rs->pairs);
	tdestroy(rs->by_key, free);
	tdestroy(rs->by_name, free);
	rs->by_key = rs->by_name = NULL;
	rs->pairs = NULL;
	rs->n = rs->cap = 0;
}
/* ---- the indexes (struct result_set.by_key, .by_name) ---- */

/* A node of an index: the pair's place in pairs and what it is ordered by, "FIRST\0LOAD\0"
 * with FIRST its key (by_key) or its task name (by_name). */
struct rs_key {
	size_t idx;
	size_t first_len;          /* bytes of FIRST */
	char text[];
};

/* Room for the text of any pair's key: names longer than rs_pair's fields match no pair. */
#define RS_KEY_TEXT (sizeof(((struct rs_pair *)0)->sim) + sizeof(((struct rs_pair *)0)->load))

/* The order of both indexes: FIRST, then LOAD, byte by byte (strcmp). */
static int key_cmp(const void *a, const void *b)
{
	const struct rs_key *x = a, *y = b;
	int c = strcmp(x->text, y->text);
	return c ? c : strcmp(x->text + x->first_len + 1, y->text + y->first_len + 1);
}

/* Fills k (with room for RS_KEY_TEXT bytes of text) with first[0..first_len) and load.
 * Returns false when they do not fit: no pair has such names. */
static bool key_fill(struct rs_key *k, size_t idx, const char *first, size_t first_len, const char *load)
{
	size_t load_len = strlen(load);
	if (first_len + load_len + 2 > RS_KEY_TEXT)
		return false;
	k->idx = idx;
	k->first_len = first_len;
	memcpy(k->text, first, first_len);
	k->text[first_len] = '\0';
	memcpy(k->text + first_len + 1, load, load_len + 1);
	return true;
}

/* The pair of index root whose FIRST is first[0..first_len) and whose load is load, or NULL. */
static const struct rs_pair *index_find(const struct result_set *rs, void *const *root, const char *first,
					size_t first_len, const char *load)
{
	_Alignas(struct rs_key) char buf[sizeof(struct rs_key) + RS_KEY_TEXT];
	struct rs_key *probe = (struct rs_key *)buf;
	if (!key_fill(probe, 0, first, first_len, load))
		return NULL;
	struct rs_key *const *hit = tfind(probe, root, key_cmp);
	return hit ? &rs->pairs[(*hit)->idx] : NULL;
}

/* Adds pairs[idx] to index *root under first[0..first_len) and its load, unless a pair is
 * there under the same text already (by_name keeps the first).  Returns 0, or -1 when out of
 * memory. */
static int index_add(void **root, const struct rs_pair *p, size_t idx, size_t first_len)
{
	struct rs_key *k = malloc(sizeof(*k) + first_len + strlen(p->load) + 2);
	if (!k || !key_fill(k, idx, p->sim, first_len, p->load)) {
		free(k);
		return -1;
	}
	struct rs_key **node = tsearch(k, root, key_cmp);
	if (!node || *node != k)
		free(k);
	return node ? 0 : -1;
}

const struct rs_pair *result_set_find_name(const struct result_set *rs, const char *sim, const char *load)
{
	return index_find(rs, &rs->by_name, sim, strcspn(sim, " "), load);
}

const struct rs_pair *result_set_find(const struct result_set *rs, const char *sim, const char *load)
{
	return index_find(rs, &rs->by_key, sim, strlen(sim), load);
}

/* Makes room for one more element in arr (n used of *cap, elem bytes each), doubling from
 * first.  Returns the array, moved or not, or NULL when out of memory (arr then unchanged). */
static void *grow(void *arr, size_t *cap, size_t n, size_t elem, size_t first)
{
	if (n < *cap)
		return arr;
	size_t ncap = *cap ? *cap * 2 : first;
	void *na = realloc(arr, ncap * elem);
	if (na)
		*cap = ncap;
	return na;
}

/* Appends a pair named sim and load (checked to fit) to rs and its indexes.  NULL with err set
 * beyond RS_MAX_PAIRS or when out of memory. */
static struct rs_pair *pair_new(struct result_set *rs, const char *sim, const char *load, char *err, size_t errlen)
{
	if (rs->n >= RS_MAX_PAIRS) {
		rs_fail(err, errlen, "more than %d (simulation, load) pairs", RS_MAX_PAIRS);
		return NULL;
	}
	struct rs_pair *pairs = grow(rs->pairs, &rs->cap, rs->n, sizeof(*rs->pairs), 16);
	if (!pairs) {
		rs_fail(err, errlen, "out of memory");
		return NULL;
	}
	rs->pairs = pairs;
	struct rs_pair *p = &rs->pairs[rs->n];
	memset(p, 0, sizeof(*p));
	snprintf(p->sim, sizeof(p->sim), "%s", sim);
	snprintf(p->load, sizeof(p->load), "%s", load);
	if (index_add(&rs->by_key, p, rs->n, strlen(p->sim)) != 0 ||
	    index_add(&rs->by_name, p, rs->n, strcspn(p->sim, " ")) != 0) {
		rs_fail(err, errlen, "out of memory");
		return NULL;
	}
	rs->n++;
	return p;
}

/* The pair (sim, load), created when new; the names are kept escaped (text_escape_line), so
 * no input can put a control character or escape sequence on the terminal.  NULL with err set
 * on a too long name or too many. */
struct rs_pair *rs_pair_get(struct result_set *rs, const char *raw_sim, const char *raw_load, char *err,
				size_t errlen)
{
	char sim[sizeof(((struct rs_pair *)0)->sim) + 1], load[sizeof(((struct rs_pair *)0)->load) + 1];
	text_escape_line(raw_sim, sim, sizeof(sim));
	text_escape_line(raw_load, load, sizeof(load));
	struct rs_pair *p = (struct rs_pair *)result_set_find(rs, sim, load);
	if (p)
		return p;
	if (strlen(sim) >= sizeof(p->sim) || strlen(load) >= sizeof(p->load) || !*sim || !*load) {
		rs_fail(err, errlen, "simulation or load name empty or too long");
		return NULL;
	}
	return pair_new(rs, sim, load, err, errlen);
}

int rs_pair_add(struct result_set *rs, struct rs_pair *p, const struct rs_values *v, char *err, size_t errlen)
{
	if (p->n >= RS_MAX_REPEATS)
		return rs_fail(err, errlen, "more than %d repeats of %s/%s", RS_MAX_REPEATS, p->sim, p->load);
	struct rs_values *v_new = grow(p->v, &p->cap, p->n, sizeof(*p->v), 4);
	if (!v_new)
		return rs_fail(err, errlen, "out of memory");
	p->v = v_new;
	p->v[p->n++] = *v;
	for (int m = 0; m < JM_METRICS; m++)
		if (!isnan(v->m[m]))
			rs->has[m] = true;
	return 0;
}

void rs_pair_failed(struct rs_pair *p, const char *why)
{
	if (p->failed++ == 0)
		text_escape_line(why, p->why, sizeof(p->why));
}

/* A repeat that took no latency sample (rs_values.no_samples: the task never ran) met no
 * deadline, whatever its source says (a run without a period counts 100 %): its % deadlines
 * met is 0 where the figure is carried. */
void rs_starved_met(struct rs_values *v)
{
	if (v->no_samples && !isnan(v->m[JM_MET]))
		v->m[JM_MET] = 0;
}
/* Sets every figure and interval of v to NaN (not in the result) and no_samples false. */
void rs_values_init(struct rs_values *v)
{
	v->no_samples = v->disturbed = v->load_stopped = false;
	v->samples = v->periods = NAN;
	for (int m = 0; m < JM_METRICS; m++)
		v->m[m] = v->lo[m] = v->hi[m] = NAN;
}

/* Notes a disturbed repeat of p: other processes took outside_pct % of the run's CPUs, steal_pct
 * % of it steal (NaN: not said); the worst repeat's figures are kept. */
void rs_pair_disturbed(struct rs_pair *p, double outside_pct, double steal_pct)
{
	if (p->disturbed++ == 0 || outside_pct > p->outside_cpu_pct || isnan(p->outside_cpu_pct)) {
		p->outside_cpu_pct = outside_pct;
		p->steal_pct = steal_pct;
	}
}

int result_set_parse(const char *buf, size_t len, struct result_set *rs, char *err, size_t errlen)
{
	memset(rs, 0, sizeof(*rs));
	size_t skip = 0;
	while (skip < len && strchr(" \t\r\n", buf[skip]) && buf[skip])
		skip++;
	int rc;
	if (skip == len)
		rc = rs_fail(err, errlen, "empty file");
	else if (memchr(buf, '\0', len))
		rc = rs_fail(err, errlen, "binary data (NUL bytes): not an interbench result");
	else if (buf[skip] == '{')
		rc = rs_parse_json(buf, len, rs, err, errlen);
	else
		rc = rs_parse_logfile(buf, len, rs, err, errlen);
	if (rc == 0 && rs->n == 0)
		rc = rs_fail(err, errlen, "no results in the file");
	if (rc != 0)
		result_set_free(rs);
	return rc;
}

int result_set_load(const char *path, struct result_set *rs, char *err, size_t errlen)
{
	size_t len = 0;
	memset(rs, 0, sizeof(*rs));
	char *buf = safe_read_file(path, RS_MAX_BYTES, &len, err, errlen);
	if (!buf)
		return -1;
	int rc = result_set_parse(buf, len, rs, err, errlen);
	free(buf);
	return rc;
}
