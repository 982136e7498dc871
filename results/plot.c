#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lib/text.h"
#include "lib/timeline.h"
#include "results/jsonkeys.h"
#include "results/plot.h"
#include "results/resultset.h"

extern char **environ;

/* What plot is asked to do. */
struct plot_job {
	const char *result, *timeline, *out_dir;
	const char *format;            /* "png" or "svg" */
	FILE *out, *err;
	unsigned made, failed;         /* figures drawn, gnuplot failures */
};

/* A file name part made of the name's letters and digits ("Audio real time" -> "audio-real-time"). */
static void slug(const char *name, char *buf, size_t len)
{
	size_t n = 0;
	for (const char *p = name; *p && n + 1 < len; p++) {
		char c = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			buf[n++] = c;
		else if (n && buf[n - 1] != '-')
			buf[n++] = '-';
	}
	while (n && buf[n - 1] == '-')
		n--;
	buf[n] = '\0';
}

/* Opens DIR/NAME for writing (created exclusively or replaced, never through a link). */
static FILE *out_file(const struct plot_job *j, const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", j->out_dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		fprintf(j->err, "interbench plot: open %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return f;
}

/* Runs gnuplot on DIR/STEM.gp in DIR; counts the figure made or failed.  The picture is opened
 * here, never through a link (out_file), and handed to gnuplot as its standard output with
 * ib_stdout set, so that the script's own `set output` (kept for a user who reruns it) is
 * skipped: gnuplot, run as root, would otherwise follow a link planted under the picture's name. */
static void draw(struct plot_job *j, const char *stem)
{
	char gp[512], pic[512];
	snprintf(gp, sizeof(gp), "%s.gp", stem);
	snprintf(pic, sizeof(pic), "%s.%s", stem, j->format);
	FILE *o = out_file(j, pic);
	if (!o) {
		j->failed++;
		return;
	}
	pid_t pid;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addchdir_np(&fa, j->out_dir);
	posix_spawn_file_actions_adddup2(&fa, fileno(o), STDOUT_FILENO);
	char *argv[] = { "gnuplot", "-e", "ib_stdout = 1", gp, NULL };
	int rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	fclose(o);
	int status = 0;
	if (rc == 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	if (rc == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		fprintf(j->out, "%s/%s.%s\n", j->out_dir, stem, j->format);
		j->made++;
	} else {
		fprintf(j->err, "interbench plot: gnuplot failed on %s/%s\n", j->out_dir, gp);
		char path[4096 + sizeof(pic)];
		snprintf(path, sizeof(path), "%s/%s", j->out_dir, pic);
		unlink(path); /* no empty picture left behind */
		j->failed++;
	}
}

/* text as a gnuplot string literal, its quotes included, in buf (len >= 3), which it returns.
 * Single quotes: the one form in which gnuplot neither runs a `backquoted` command nor expands
 * an @macro, for the names come from a result file that anyone may have written; a quote is
 * doubled, a control character (a newline would end the command) written as '?'.  Text that
 * does not fit is cut. */
static const char *gp_str(const char *text, char *buf, size_t len)
{
	size_t n = 0;
	buf[n++] = '\'';
	for (const unsigned char *p = (const unsigned char *)text; *p && n + 3 < len; p++) {
		if (*p == '\'')
			buf[n++] = '\'';
		buf[n++] = *p < 0x20 || *p == 0x7f ? '?' : (char)*p;
	}
	buf[n++] = '\'';
	buf[n] = '\0';
	return buf;
}

/* Makes name safe as a double-quoted string or a comment in a data file, in place: a double
 * quote or backslash becomes ', a control character '?'. */
static void dat_text(char *name)
{
	for (unsigned char *p = (unsigned char *)name; *p; p++)
		if (*p == '"' || *p == '\\')
			*p = '\'';
		else if (*p < 0x20 || *p == 0x7f)
			*p = '?';
}

/* The gnuplot preamble: terminal, output file and the figure's title (any text). */
static void gp_head(FILE *g, const struct plot_job *j, const char *stem, const char *title)
{
	char t[512];
	/* noenhanced: names such as SCHED_BATCH or nice_0 are text, not subscripts */
	fprintf(g, "set terminal %s noenhanced size 900,560\nif (!exists(\"ib_stdout\")) set output '%s.%s'\n"
		"set title %s\nset grid\nset key outside right\n",
		strcmp(j->format, "svg") == 0 ? "svg" : "pngcairo", stem, j->format, gp_str(title, t, sizeof(t)));
}

static const char *str(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_string(v) ? json_string_value(v) : "";
}

static double num(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : -1;
}

/* Whether result r is a measured result of simulation sim (first repeat only). */
static bool of_sim(const json_t *r, const char *sim)
{
	return strcmp(str(r, JK_SIMULATION), sim) == 0 && !json_object_get(r, JK_FAILED) &&
	       num(r, "repeat") <= 1;
}

/* The label of a result's load with its settings ("Burn", "Burn nice 19"), safe in a data file
 * (dat_text). */
static void load_label(const json_t *r, char *buf, size_t len)
{
	const char *mode = str(r, JK_MODE), *lm = str(r, JK_LOAD_MODE);
	snprintf(buf, len, "%s%s%s%s%s", str(r, JK_LOAD), *mode ? " / task " : "", mode, *lm ? " / loads " : "", lm);
	dat_text(buf);
}

/* latency-SIM: a data block per load (sched and timer buckets), one line each. */
static void plot_distribution(struct plot_job *j, const json_t *results, const char *sim)
{
	char s[64], stem[96], name[128], label[160];
	slug(sim, s, sizeof(s));
	snprintf(stem, sizeof(stem), "latency-%s", s);
	snprintf(name, sizeof(name), "%s.dat", stem);
	FILE *d = out_file(j, name);
	snprintf(name, sizeof(name), "%s.gp", stem);
	FILE *g = d ? out_file(j, name) : NULL;
	if (!g) {
		if (d)
			fclose(d);
		return;
	}
	char title[256], q[512];
	snprintf(title, sizeof(title), "%s: latency distributions (log-log); p99 and max marked", sim);
	gp_head(g, j, stem, title);
	fprintf(g, "set logscale xy\nset xlabel 'latency (us)'\nset ylabel 'periods'\nplot ");
	size_t i;
	json_t *r;
	unsigned block = 0;
	json_array_foreach(results, i, r) {
		if (!of_sim(r, sim))
			continue;
		load_label(r, label, sizeof(label));
		const char *hists[2] = { "latency_histogram", "timer_latency_histogram" };
		for (int h = 0; h < 2; h++) {
			const json_t *b = json_object_get(r, hists[h]);
			size_t k;
			json_t *bucket;
			fprintf(d, "# %s %s\n", label, h ? "timer" : "sched");
			json_array_foreach(b, k, bucket)
				fprintf(d, "%g %lld\n", json_number_value(json_array_get(bucket, 0)) / 1e3,
					(long long)json_integer_value(json_array_get(bucket, 1)));
			fprintf(d, "\n\n");
			snprintf(title, sizeof(title), "%s %s", label, h ? "timer" : "sched");
			fprintf(g, "%s'%s.dat' index %u with linespoints %s title %s", block ? ", \\\n     " : "",
				stem, block, h ? "dt 2" : "", gp_str(title, q, sizeof(q)));
			block++;
		}
		fprintf(d, "# %s p99 max\n%g 1\n%g 1\n\n\n", label, num(r, JK_LATENCY_P99) / 1e3, num(r, JK_LATENCY_MAX) / 1e3);
		snprintf(title, sizeof(title), "%s p99, max", label);
		fprintf(g, ", \\\n     '%s.dat' index %u with points pt 7 title %s", stem, block++, gp_str(title, q, sizeof(q)));
	}
	fprintf(g, "\n");
	fclose(d);
	fclose(g);
	if (block)
		draw(j, stem);
}

/* percentiles-SIM: p50, p99 and max per load as bars, the period as a line. */
static void plot_percentiles(struct plot_job *j, const json_t *results, const char *sim)
{
	char s[64], stem[96], name[128], label[160];
	slug(sim, s, sizeof(s));
	snprintf(stem, sizeof(stem), "percentiles-%s", s);
	snprintf(name, sizeof(name), "%s.dat", stem);
	FILE *d = out_file(j, name);
	snprintf(name, sizeof(name), "%s.gp", stem);
	FILE *g = d ? out_file(j, name) : NULL;
	if (!g) {
		if (d)
			fclose(d);
		return;
	}
	double period_ms = -1;
	unsigned rows = 0;
	size_t i;
	json_t *r;
	fprintf(d, "# load p50_ms p99_ms max_ms\n");
	json_array_foreach(results, i, r) {
		if (!of_sim(r, sim))
			continue;
		load_label(r, label, sizeof(label));
		fprintf(d, "\"%s\" %g %g %g\n", label, num(r, "latency_p50_ns") / 1e6, num(r, JK_LATENCY_P99) / 1e6,
			num(r, JK_IB_LATENCY_MAX) >= 0 ? num(r, JK_IB_LATENCY_MAX) / 1e6 : num(r, JK_LATENCY_MAX) / 1e6);
		if (num(r, "interval_us") > 0)
			period_ms = num(r, "interval_us") / 1e3;
		rows++;
	}
	char title[256];
	snprintf(title, sizeof(title), "%s: latency percentiles by load (ms)%s", sim, period_ms > 0 ? "; the line is the period" : "");
	gp_head(g, j, stem, title);
	fprintf(g, "set style data histograms\nset style histogram clustered\nset style fill solid 0.6\n"
		"set logscale y\nset ylabel 'ms'\nset xtics rotate by -30\n");
	if (period_ms > 0)
		fprintf(g, "set arrow from graph 0, first %g to graph 1, first %g nohead lw 2 dt 2\n", period_ms, period_ms);
	fprintf(g, "plot '%s.dat' using 2:xtic(1) title 'p50 (sched)', '' using 3 title 'p99 (sched)', "
		"'' using 4 title 'max (interbench)'\n", stem);
	fclose(d);
	fclose(g);
	if (rows)
		draw(j, stem);
}

/* sweep-SIM-LOAD: one figure per sweep summary of the JSON. */
static void plot_sweep(struct plot_job *j, const json_t *sw)
{
	char s[64], l[64], stem[160], name[200];
	slug(str(sw, JK_SIMULATION), s, sizeof(s));
	slug(str(sw, JK_LOAD), l, sizeof(l));
	snprintf(stem, sizeof(stem), "sweep-%s-%s", s, l);
	snprintf(name, sizeof(name), "%s.dat", stem);
	FILE *d = out_file(j, name);
	snprintf(name, sizeof(name), "%s.gp", stem);
	FILE *g = d ? out_file(j, name) : NULL;
	if (!g) {
		if (d)
			fclose(d);
		return;
	}
	const json_t *rows = json_object_get(sw, "bench_settings"), *cols = json_object_get(sw, "load_settings");
	const json_t *cells = json_object_get(sw, "cells");
	char title[256], q[2][256];
	snprintf(title, sizeof(title), "%s against %s: %% deadlines met (lines) and p99 latency (points, right axis)",
		 str(sw, JK_SIMULATION), str(sw, JK_LOAD));
	gp_head(g, j, stem, title);
	fprintf(g, "set ylabel '%% deadlines met'\nset y2label 'p99 (ms)'\nset y2tics\nset yrange [0:105]\n"
		"set xtics rotate by -30\nplot ");
	for (size_t c = 0; c < json_array_size(cols); c++) {
		char col[96];
		snprintf(col, sizeof(col), "%s", json_string_value(json_array_get(cols, c)) ?: "");
		dat_text(col);
		fprintf(d, "# loads %s\n", col);
		for (size_t rr = 0; rr < json_array_size(rows); rr++) {
			const json_t *cell = json_array_get(json_array_get(cells, rr), c);
			char x[64];
			snprintf(x, sizeof(x), "%s", json_string_value(json_array_get(rows, rr)) ?: "");
			dat_text(x); /* a quoted string in the data: its spaces stay */
			if (json_is_object(cell))
				fprintf(d, "%zu \"%s\" %g %g\n", rr, x, num(cell, JK_DEADLINES_MET) / 1e4,
					num(cell, JK_LATENCY_P99) >= 0 ? num(cell, JK_LATENCY_P99) / 1e6 : 0.0);
		}
		fprintf(d, "\n\n");
		snprintf(title, sizeof(title), "loads %s met", col);
		gp_str(title, q[0], sizeof(q[0]));
		snprintf(title, sizeof(title), "loads %s p99", col);
		fprintf(g, "%s'%s.dat' index %zu using 1:3:xtic(2) with linespoints title %s, "
			"'' index %zu using 1:4 axes x1y2 with points title %s", c ? ", \\\n     " : "", stem, c, q[0], c,
			gp_str(title, q[1], sizeof(q[1])));
	}
	fprintf(g, "\n");
	fclose(d);
	fclose(g);
	draw(j, stem);
}

/* The result of timeline pair id, or NULL. */
static const json_t *result_of_pair(const json_t *results, uint32_t pair)
{
	size_t i;
	json_t *r;
	json_array_foreach(results, i, r)
		if (json_is_integer(json_object_get(r, "timeline_pair")) &&
		    json_integer_value(json_object_get(r, "timeline_pair")) == pair)
			return r;
	return NULL;
}

/* timeline-PAIR figures: lateness over time per pair, deadline and buffer lines, xruns. */
static int plot_timeline(struct plot_job *j, const json_t *doc)
{
	unsigned char head[TIMELINE_HEADER_BYTES], rec[TIMELINE_RECORD_BYTES];
	FILE *in = fopen(j->timeline, "re");
	if (!in || fread(head, 1, sizeof(head), in) != sizeof(head) || timeline_decode_header(head) != 0) {
		fprintf(j->err, "interbench plot: --timeline %s: %s\n", j->timeline,
			in ? "not an interbench timeline (doc/timeline.md)" : strerror(errno));
		if (in)
			fclose(in);
		return 2;
	}
	const json_t *results = json_object_get(doc, JK_RESULTS), *opts = json_object_get(doc, "options");
	FILE *d = NULL, *g = NULL;
	char stem[64] = "";
	int64_t cur = -1;
	struct timeline_rec r;
	bool more = true;
	while (more) {
		more = fread(rec, 1, sizeof(rec), in) == sizeof(rec);
		if (more)
			timeline_decode(rec, &r);
		if (d && (!more || r.pair != cur)) {   /* the pair's figure is complete */
			fclose(d);
			fclose(g);
			draw(j, stem);
			d = g = NULL;
		}
		if (!more || (d && r.pair == cur))
			goto add;
		cur = r.pair;
		snprintf(stem, sizeof(stem), "timeline-%u", r.pair);
		char name[96];
		snprintf(name, sizeof(name), "%s.dat", stem);
		d = out_file(j, name);
		snprintf(name, sizeof(name), "%s.gp", stem);
		g = d ? out_file(j, name) : NULL;
		if (!g) {
			if (d)
				fclose(d);
			fclose(in);
			return 1;
		}
		const json_t *res = result_of_pair(results, r.pair);
		double period_ms = res ? num(res, "interval_us") / 1e3 : -1;
		char title[256];
		snprintf(title, sizeof(title), "pair %u: %s against %s: lateness of each period", r.pair,
			 res ? str(res, JK_SIMULATION) : "?", res ? str(res, JK_LOAD) : "?");
		gp_head(g, j, stem, title);
		fprintf(g, "set xlabel 'time (s)'\nset ylabel 'lateness (ms)'\n");
		if (period_ms > 0)
			fprintf(g, "set arrow from graph 0, first %g to graph 1, first %g nohead lw 2 dt 2 lc 'red'\n",
				period_ms, period_ms);
		double periods = res && json_object_get(res, JK_XRUNS) && !json_is_null(json_object_get(res, JK_XRUNS)) ?
				 num(opts, "proaudio_periods") : -1;
		if (period_ms > 0 && periods > 1)
			fprintf(g, "set arrow from graph 0, first %g to graph 1, first %g nohead lw 2 dt 3 lc 'orange'\n",
				period_ms * (periods - 1), period_ms * (periods - 1));
		fprintf(g, "plot '%s.dat' using 1:2 with impulses title 'lateness', "
			"'' using 1:($3 > 0 ? $2 : 1/0) with points pt 7 lc 'red' title 'xrun'\n", stem);
	add:
		if (more && d)
			fprintf(d, "%.6f %.6f %u\n", r.start_ns / 1e9, r.late_ns / 1e6, (r.flags & TIMELINE_XRUN) ? 1u : 0u);
	}
	fclose(in);
	return 0;
}

/* Whether gnuplot can be run.  Says what to install when not. */
static bool have_gnuplot(FILE *err)
{
	pid_t pid;
	char *argv[] = { "gnuplot", "--version", NULL };
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	int rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ), status = 1;
	posix_spawn_file_actions_destroy(&fa);
	if (rc == 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	if (rc != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(err, "interbench plot: gnuplot is not installed (accepted: gnuplot on the PATH; Debian: apt-get "
			"install gnuplot-nox, or make deps)\n");
		return false;
	}
	return true;
}

static void plot_usage(FILE *f)
{
	fprintf(f, "Usage: interbench plot RESULT.json [--timeline FILE] [--out DIR] [--format png|svg]\n"
		"Draws a result with gnuplot: latency distributions and percentiles per task, sweeps, and with\n"
		"--timeline each pair's periods; each picture beside its gnuplot script and data.\n"
		"  --timeline FILE   the --timeline file of the same run\n"
		"  --out DIR         where the pictures go (created; default: .)\n"
		"  --format F        png (default) or svg\n");
}

/* Parses the options into j.  Returns -1 to go on, else the exit status. */
static int plot_args(int argc, char **argv, struct plot_job *j)
{
	static const struct option longs[] = {
		{ "timeline", required_argument, NULL, 't' }, { "out", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' }, { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	int c;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longs, NULL)) != -1) {
		if (c == 'h') {
			plot_usage(j->out);
			return 0;
		}
		if (c == 't')
			j->timeline = optarg;
		else if (c == 'o')
			j->out_dir = optarg;
		else if (c == 'f' && (strcmp(optarg, "png") == 0 || strcmp(optarg, "svg") == 0))
			j->format = optarg;
		else {
			fprintf(j->err, "interbench plot: %s: %s (accepted: --timeline FILE, --out DIR, --format png|svg; "
				"see --help)\n", argv[optind - 1], c == 'f' ? "invalid format" : "unknown option or missing value");
			return 2;
		}
	}
	if (argc - optind != 1) {
		fprintf(j->err, "interbench plot: expected one result file (see --help)\n");
		return 2;
	}
	j->result = argv[optind];
	return -1;
}

int plot_main(int argc, char **argv, FILE *out, FILE *err)
{
	struct plot_job j = { .out_dir = ".", .format = "png", .out = out, .err = err };
	int rc = plot_args(argc, argv, &j);
	if (rc >= 0)
		return rc;
	json_error_t je;
	json_t *doc = json_load_file(j.result, JSON_REJECT_DUPLICATES, &je);
	const json_t *results = json_object_get(doc, JK_RESULTS);
	if (!json_is_array(results)) {
		fprintf(err, "interbench plot: %s: not an interbench JSON result (%s)\n", j.result, doc ? "no results" : je.text);
		json_decref(doc);
		return 2;
	}
	if (!have_gnuplot(err) || (mkdir(j.out_dir, 0755) != 0 && errno != EEXIST)) {
		if (errno && errno != EEXIST && errno != ENOENT)
			fprintf(err, "interbench plot: --out %s: %s\n", j.out_dir, strerror(errno));
		json_decref(doc);
		return 2;
	}
	const char *done[64];
	unsigned ndone = 0;
	size_t i;
	json_t *r;
	json_array_foreach(results, i, r) {   /* each simulation once, in the order of the results */
		const char *sim = str(r, JK_SIMULATION);
		bool seen = false;
		for (unsigned k = 0; k < ndone; k++)
			seen |= strcmp(done[k], sim) == 0;
		if (seen || ndone == 64)
			continue;
		done[ndone++] = sim;
		plot_distribution(&j, results, sim);
		plot_percentiles(&j, results, sim);
	}
	json_array_foreach(json_object_get(doc, "sweeps"), i, r)
		plot_sweep(&j, r);
	rc = j.timeline ? plot_timeline(&j, doc) : 0;
	json_decref(doc);
	if (rc == 0 && j.failed)
		rc = 1;
	fprintf(out, "%u figure%s drawn in %s%s\n", j.made, j.made == 1 ? "" : "s", j.out_dir,
		j.failed ? " (some failed: see above)" : "");
	return rc;
}

/* The first measured result of doc keyed key (result_set_json_key) against load, or NULL. */
static const json_t *find_result(const json_t *doc, const char *key, const char *load)
{
	size_t i;
	json_t *r;
	char k[192];
	json_array_foreach(json_object_get(doc, JK_RESULTS), i, r)
		if (!json_object_get(r, JK_FAILED) && result_set_json_key(r, k, sizeof(k)) == 0 && strcmp(k, key) == 0 &&
		    strcmp(str(r, JK_LOAD), load) == 0)
			return r;
	return NULL;
}

/* One overlay figure: OLD's and NEW's latency histograms of a pair. */
static void plot_overlay(struct plot_job *j, const json_t *old, const json_t *new, const char *key, const char *load)
{
	const json_t *res[2] = { find_result(old, key, load), find_result(new, key, load) };
	char k[96], l[48], stem[160], name[200];
	if (!res[0] || !res[1])
		return;
	slug(key, k, sizeof(k));
	slug(load, l, sizeof(l));
	snprintf(stem, sizeof(stem), "compare-%s-%s", k, l);
	snprintf(name, sizeof(name), "%s.dat", stem);
	FILE *d = out_file(j, name);
	snprintf(name, sizeof(name), "%s.gp", stem);
	FILE *g = d ? out_file(j, name) : NULL;
	if (!g) {
		if (d)
			fclose(d);
		return;
	}
	char title[256];
	snprintf(title, sizeof(title), "%s against %s: scheduling latency, OLD and NEW (log-log)", key, load);
	gp_head(g, j, stem, title);
	fprintf(g, "set logscale xy\nset xlabel 'latency (us)'\nset ylabel 'periods'\n");
	fprintf(g, "plot '%s.dat' index 0 with linespoints title 'OLD', '' index 1 with linespoints title 'NEW'\n", stem);
	for (int s = 0; s < 2; s++) {
		size_t i;
		json_t *b;
		json_array_foreach(json_object_get(res[s], "latency_histogram"), i, b)
			fprintf(d, "%g %lld\n", json_number_value(json_array_get(b, 0)) / 1e3,
				(long long)json_integer_value(json_array_get(b, 1)));
		fprintf(d, "\n\n");
	}
	fclose(d);
	fclose(g);
	draw(j, stem);
}

int plot_compare(const char *dir, const char *old_path, const char *new_path, const struct cmp_flagged *flagged,
		 FILE *out, FILE *err)
{
	struct plot_job j = { .out_dir = dir, .format = "png", .out = out, .err = err };
	json_error_t je;
	json_t *docs[2] = { json_load_file(old_path, 0, &je), json_load_file(new_path, 0, &je) };
	int rc = 0;
	if (!json_is_array(json_object_get(docs[0], JK_RESULTS)) || !json_is_array(json_object_get(docs[1], JK_RESULTS))) {
		fprintf(err, "interbench compare: --plot: draws JSON results only (logfiles carry no histograms)\n");
		rc = 2;
	} else if (!have_gnuplot(err) || (mkdir(dir, 0755) != 0 && errno != EEXIST)) {
		rc = 2;
	} else {
		for (unsigned i = 0; i < flagged->n; i++)
			plot_overlay(&j, docs[0], docs[1], flagged->sim[i], flagged->load[i]);
		rc = j.failed ? 1 : 0;
	}
	json_decref(docs[0]);
	json_decref(docs[1]);
	return rc;
}
