/* The logfile reader of the result set: the classic tables of our logfiles and of interbench
 * 0.31's (and 0.20's), as report/logformat.h and report/table.h write them, into struct
 * result_set. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/logformat.h"
#include "report/jsonkeys.h"
#include "report/table.h"
#include "tools/result_read.h"

/* Table state while reading a logfile. */
struct table_cols {
	char sim[96];         /* current table's simulation, "" outside a table */
	bool header;          /* the column header has been read */
	double unit_ns;       /* 1e6 for (ms), 1e3 for (us) */
	bool deadlines;       /* "% Deadlines Met" column */
	int extra;            /* verbose columns after the classic ones */
	int p99_col;          /* index of "p99" among them, or -1 */
	long last_row;        /* index in rs->pairs of the pair the last row added to, or -1 */
	bool sched_classic;   /* this run's classic columns are scheduling latency (a log of this
	                         program from before TABLE_DEFINITIONS_LINE), not interbench's */
};

/* Splits line (modified) into at most max whitespace-separated tokens; returns the count, or
 * max + 1 when there are more. */
static int tokenize(char *line, char **tok, int max)
{
	int n = 0;
	for (char *save = NULL, *t = strtok_r(line, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
		if (n == max)
			return max + 1;
		tok[n++] = t;
	}
	return n;
}

/* A non-negative finite number, the whole token, at most max. */
/* Whether s is a figure as the tables print it: digits, an optional fraction and an optional
 * exponent ("0.518", "1.2e+03": interbench 0.31 writes %g); no sign, hex, inf or nan. */
static bool plain_decimal(const char *s)
{
	size_t i = strspn(s, "0123456789");
	if (i == 0)
		return false;
	if (s[i] == '.')
		i += 1 + strspn(s + i + 1, "0123456789");
	if (s[i] == 'e' || s[i] == 'E') {
		i += 1 + (s[i + 1] == '+' || s[i + 1] == '-');
		size_t d = strspn(s + i, "0123456789");
		if (d == 0)
			return false;
		i += d;
	}
	return s[i] == '\0';
}

static int number(const char *s, double max, double *out)
{
	char *end;
	if (!plain_decimal(s))
		return -1;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v) || v < 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

/* "--- Benchmarking [simulated cpu of ]NAME[ MODE] in the presence of ..." */
static int table_title(struct table_cols *c, const char *line, size_t lineno, char *err, size_t errlen)
{
	const char *s = line + strlen(LOG_TITLE);
	if (log_starts(s, LOG_TITLE_SIM))
		s += strlen(LOG_TITLE_SIM);
	const char *end = strstr(s, LOG_TITLE_PRESENCE);
	if (!end || end == s || (size_t)(end - s) >= sizeof(c->sim))
		return rs_fail(err, errlen, "line %zu: malformed table title", lineno);
	/* the loads' setting: "... in the presence of simulated nice 19 ---" */
	const char *lw = end + strlen(LOG_TITLE_PRESENCE);
	lw += strspn(lw, " ");
	bool simulated = log_starts(lw, LOG_TITLE_SIMULATED);  /* 0.31 and ours; 0.20 says "loads" */
	lw += simulated ? strlen(LOG_TITLE_SIMULATED) : 0;
	lw += strspn(lw, " ");
	const char *lend = strstr(lw, LOG_TITLE_END);
	size_t llen = simulated && lend ? (size_t)(lend - lw) : 0;
	while (llen && lw[llen - 1] == ' ')
		llen--;
	bool sched_classic = c->sched_classic;  /* the run's, kept across its tables */
	memset(c, 0, sizeof(*c));
	c->last_row = -1;
	c->sched_classic = sched_classic;
	rs_pair_key(c->sim, sizeof(c->sim), "%.*s", (int)(end - s), s, (int)llen, lw);
	return 0;
}

/* Whether "a b" is the label of a column of the table (report/figures.c column_label: the
 * writer's labels are the reader's, whatever group they are in). */
static bool two_word_label(const char *a, const char *b)
{
	size_t la = strlen(a);
	for (size_t k = 0; k < task_figures_n; k++) {
		const char *l = task_figures[k].column_label;
		if (l && strncmp(l, a, la) == 0 && l[la] == ' ' && strcmp(l + la + 1, b) == 0)
			return true;
	}
	return false;
}

static int table_header_line(struct table_cols *c, char *line, size_t lineno, char *err, size_t errlen)
{
	const char *unit = strstr(line, LOG_COL_LATENCY);
	if (!unit)
		return rs_fail(err, errlen, "line %zu: expected the column header", lineno);
	unit += strlen(LOG_COL_LATENCY);
	c->unit_ns = strncmp(unit, "ms)", 3) == 0 ? 1e6 : strncmp(unit, "us)", 3) == 0 ? 1e3 : 0;
	if (c->unit_ns == 0)
		return rs_fail(err, errlen, "line %zu: unknown latency unit", lineno);
	c->deadlines = strstr(line, LOG_COL_DEADLINES) != NULL;
	c->p99_col = -1;
	const char *last = c->deadlines ? LOG_COL_DEADLINES : LOG_COL_DESIRED;
	const char *tail = strstr(line, last);
	if (!tail)
		return rs_fail(err, errlen, "line %zu: expected a %% Desired CPU column", lineno);
	char buf[512], *tok[32];
	snprintf(buf, sizeof(buf), "%s", tail + strlen(last));
	int n = tokenize(buf, tok, 31);
	if (n > 31)
		n = 31;  /* tokenize says "more" with 32: tok[31] is not set */
	for (int i = 0; i < n && strcmp(tok[i], LOG_COL_REPEATS) != 0; i++) {
		if (i + 1 < n && two_word_label(tok[i], tok[i + 1]))
			i++; /* "timer p99", "cpu %", "i2p p99", "1% low": one column */
		else if (strcmp(tok[i], "p99") == 0)
			c->p99_col = c->extra;
		c->extra++;
	}
	c->header = true;
	return 0;
}

static int table_row_line(struct result_set *rs, struct table_cols *c, char *line, size_t lineno,
			  char *err, size_t errlen)
{
	/* "LOAD failed: REASON": the reason is the rest of the line, spaces and all. */
	char why[sizeof(((struct rs_pair *)0)->why)] = "";
	const char *after = line + strcspn(line, " \t");
	after += strspn(after, " \t");
	bool failed = log_starts(after, LOG_FAILED);
	if (failed) {
		after += strlen(LOG_FAILED) + strspn(after + strlen(LOG_FAILED), " \t");
		snprintf(why, sizeof(why), "%.*s", (int)strcspn(after, "\r"), after);
	}
	char *tok[48];
	int n = tokenize(line, tok, 47);
	struct rs_pair *p = n > 0 ? rs_pair_get(rs, c->sim, tok[0], err, errlen) : NULL;
	if (!p)
		return n > 0 ? -1 : 0;
	if (failed) {
		rs_pair_failed(p, why[0] ? why : JK_FAILED);
		return 0;
	}
	int classic = c->deadlines ? 7 : 6; /* load mean +/- sd max cpu [met] */
	struct rs_values v;
	double sd;
	rs_values_init(&v);
	if (n >= classic + c->extra && strcmp(tok[1], TABLE_NO_SAMPLES) == 0 && strcmp(tok[3], TABLE_NO_SAMPLES) == 0 &&
	    strcmp(tok[4], TABLE_NO_SAMPLES) == 0) {  /* a pair with no latency sample */
		v.no_samples = true;
		tok[1] = tok[3] = tok[4] = "0";
		if (c->p99_col >= 0)
			tok[classic + c->p99_col] = "0";
	}
	if (n < classic + c->extra || strcmp(tok[2], "+/-") != 0 || number(tok[1], 1e15, &v.m[JM_MEAN]) ||
	    number(tok[3], 1e15, &sd) || number(tok[4], 1e15, &v.m[JM_MAX]) ||
	    number(tok[5], FIG_MAX_CPU_PCT, &v.m[JM_CPU]) || (c->deadlines && number(tok[6], 100, &v.m[JM_MET])) ||
	    (c->p99_col >= 0 && number(tok[classic + c->p99_col], 1e15, &v.m[JM_P99])))
		return rs_fail(err, errlen, "line %zu: malformed or truncated row for %s", lineno, c->sim);
	v.m[JM_MEAN] = v.no_samples ? INFINITY : v.m[JM_MEAN] * c->unit_ns;
	v.m[JM_MAX] = v.no_samples ? INFINITY : v.m[JM_MAX] * c->unit_ns;
	v.m[JM_P99] = v.no_samples && c->p99_col >= 0 ? INFINITY : v.m[JM_P99] * c->unit_ns;
	rs_starved_met(&v);
	if (c->sched_classic) {  /* an older log of ours: the classic columns are scheduling latency */
		v.m[JM_SMEAN] = v.m[JM_MEAN];
		v.m[JM_SMAX] = v.m[JM_MAX];
		v.m[JM_MEAN] = v.m[JM_MAX] = NAN;
	}
	c->last_row = p - rs->pairs;
	return rs_pair_add(rs, p, &v, err, errlen);
}

/* "interrupted: measured for X of Y s" under a row: that row is a partial window, so it is
 * taken back and the pair counted as failed, as its JSON entry (JK_INTERRUPTED: true) is. */
static void interrupted_row(struct result_set *rs, struct table_cols *c)
{
	if (c->last_row < 0)
		return;
	struct rs_pair *p = &rs->pairs[c->last_row];
	if (p->n > 0)
		p->n--;
	rs_pair_failed(p, RS_INTERRUPTED_WHY);
	c->last_row = -1;
}

/* "* disturbed: others took X % of the run's CPUs ... (Y % steal)" under a row: the
 * pair of the row above was disturbed (its figures: NaN when they cannot be read). */
static void disturbed_row(struct result_set *rs, const struct table_cols *c, const char *line)
{
	if (c->last_row < 0)
		return;
	const char *took = strstr(line, LOG_ROW_DISTURBED_TOOK), *paren = took ? strchr(took, '(') : NULL;
	double outside = NAN, steal = NAN;
	if (!took || sscanf(took + strlen(LOG_ROW_DISTURBED_TOOK), "%lf", &outside) != 1 || !isfinite(outside))
		outside = NAN;
	if (!paren || sscanf(paren + 1 + strcspn(paren + 1, "0123456789"), "%lf", &steal) != 1 || !isfinite(steal))
		steal = NAN;
	struct rs_pair *p = &rs->pairs[c->last_row];
	rs_pair_disturbed(p, outside, steal);
	if (p->n > 0)
		p->v[p->n - 1].disturbed = true;
}

/* "sched (ms): mean M, p50 A, p90 B, p99 C, ..." under a row (-v): the p99 of the
 * row above, in the table's unit ("-": no samples).  A line without a p99 reads as none. */
static void sched_row(struct result_set *rs, const struct table_cols *c, const char *line)
{
	const char *p99 = strstr(line, " p99 ");
	if (c->last_row < 0 || !p99)
		return;
	char tok[32];
	double v;
	struct rs_pair *p = &rs->pairs[c->last_row];
	if (p->n == 0 || sscanf(p99 + 5, "%31[^,;]", tok) != 1)
		return;
	if (strcmp(tok, TABLE_NO_SAMPLES) == 0)
		v = INFINITY;
	else if (number(tok, 1e15, &v) == 0)
		v *= c->unit_ns;
	else
		return;
	p->v[p->n - 1].m[JM_P99] = v;
	rs->has[JM_P99] = true;
}

/* A line our logfile puts under a row that compare does not read: the load's throughput
 * ("load: Burn 5.80G loops/s", "load (one repeat): ..."), -v's confidence intervals, the
 * adaptive window's line, --explain's causes, -v's timer and task lines or a task's own lines
 * (Pipeline's stages). */
static bool under_row_line(const char *line)
{
	return log_starts(line, LOG_LOAD_WORK) || log_starts(line, LOG_LOAD_WORK_REPEAT) || log_starts(line, LOG_ROW_CI) ||
	       log_starts(line, LOG_ROW_CI_BEFORE) || log_starts(line, LOG_ROW_TIMER) || log_starts(line, LOG_ROW_TASK) ||
	       log_starts(line, LOG_ROW_MORE) ||
	       log_starts(line, LOG_ROW_WINDOW) || log_starts(line, LOG_ROW_WHY) || log_starts(line, LOG_ROW_MARK) ||
	       figure_is_task_line(line);
}

/* One line of a logfile (without its newline; modified). */
static int log_line(struct result_set *rs, struct table_cols *c, char *line, size_t lineno, char *err, size_t errlen)
{
	line += strspn(line, " \t");
	/* "*** interrupted: ..." and the next run's "Using N loops per ms" (appended right after
	 * the last row) end any table. */
	if (log_starts(line, "*** ") || (log_starts(line, LOG_USING) && strstr(line, LOG_USING_LOOPS))) {
		c->sim[0] = '\0';
		return 0;
	}
	if (log_starts(line, LOG_KERNEL)) { /* a new run: keep only the last */
		result_set_free(rs);
		memset(rs->has, 0, sizeof(rs->has));
		c->sim[0] = '\0';
		c->last_row = -1;
		c->sched_classic = false;  /* interbench 0.31's, unless the header says it is ours */
		return 0;
	}
	if (!c->sim[0] && log_starts(line, LOG_KERNEL_VERSION)) { /* our header: our tables */
		c->sched_classic = true;
		return 0;
	}
	if (!c->sim[0] && strncmp(line, TABLE_DEFINITIONS_PREFIX, strlen(TABLE_DEFINITIONS_PREFIX)) == 0) {
		c->sched_classic = false;
		return 0;
	}
	if (log_starts(line, LOG_TITLE))
		return table_title(c, line, lineno, err, errlen);
	if (!*line || *line == '\r' || !c->sim[0]) {
		c->sim[0] = '\0'; /* a blank line ends a table; prose outside tables is skipped */
		return 0;
	}
	if (!c->header)
		return table_header_line(c, line, lineno, err, errlen);
	if (log_starts(line, LOG_ROW_SCHED)) {
		sched_row(rs, c, line);
		return 0;
	}
	if (under_row_line(line))
		return 0;
	if (log_starts(line, LOG_ROW_INTERRUPTED)) {
		interrupted_row(rs, c);
		return 0;
	}
	if (log_starts(line, LOG_ROW_DISTURBED)) {
		disturbed_row(rs, c, line);
		return 0;
	}
	if (log_starts(line, LOG_ROW_LOAD_STOPPED)) {
		struct rs_pair *p = c->last_row >= 0 ? &rs->pairs[c->last_row] : NULL;
		if (p)
			p->load_stopped++;
		if (p && p->n > 0)
			p->v[p->n - 1].load_stopped = true;
		return 0;
	}
	return table_row_line(rs, c, line, lineno, err, errlen);
}

int rs_parse_logfile(const char *buf, size_t len, struct result_set *rs, char *err, size_t errlen)
{
	struct table_cols c = { .sim = "", .last_row = -1 };
	char *copy = malloc(len + 1);
	rs->format = "logfile";
	if (!copy)
		return rs_fail(err, errlen, "out of memory");
	memcpy(copy, buf, len);
	copy[len] = '\0';
	int rc = 0;
	size_t lineno = 1;
	for (char *line = copy, *nl; rc == 0 && line; line = nl ? nl + 1 : NULL, lineno++) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		rc = log_line(rs, &c, line, lineno, err, errlen);
	}
	free(copy);
	if (rc == 0 && rs->n == 0)
		rc = rs_fail(err, errlen, "not an interbench result (no benchmark table found)");
	return rc;
}
