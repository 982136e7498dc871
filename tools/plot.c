#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lib/safefile.h"
#include "lib/optparse.h"
#include "lib/text.h"
#include "engine/sim.h"
#include "engine/timeline.h"
#include "report/jsonkeys.h"
#include "engine/summary.h"   /* FIGURE_KEY's fields */
#include "workloads/pipeline_chain.h"

/* The JSON key of Pipeline's figure in field of its block (the chain figure draws it). */
#define CHAIN_KEY(field) TASK_FIGURE_KEY(pipeline_chain_measures, struct chain_figures, field)
#include "explain/model.h"
#include "tools/plot.h"
#include "tools/resultset.h"

/* Bounds on what one result or timeline can make plot do (the man page's plot section). */
#define PLOT_MAX_SIMS 64             /* simulations drawn, two figures each */
#define PLOT_MAX_LOADS 64            /* loads in a simulation's figures */
#define PLOT_MAX_SWEEPS 64           /* sweep figures */
#define PLOT_MAX_PAIRS 256           /* timeline figures */
#define PLOT_MAX_TL_RECORDS (4u * TIMELINE_MAX_RECORDS)  /* records a --timeline may hold */

/* What plot is asked to do. */
struct plot_job {
	const char *result, *timeline, *out_dir;
	unsigned tl_record_bytes;     /* the timeline's records' size, from its header (tl_open) */
	const char *who, *out_opt;     /* "interbench plot", "--out": for messages */
	const char *format;            /* "png" or "svg" */
	FILE *out, *err;
	unsigned made, failed;         /* pictures drawn, figures that failed */
};

/* The environment gnuplot runs in, whatever the caller's: no GNUPLOT_LIB, GNUPLOT_DRIVER_DIR,
 * GNUTERM or font paths, and a HOME nobody but root can create (its .gnuplot is not read anyway:
 * -d, gnuplot(1)). */
static char *const gnuplot_env[] = { "PATH=/usr/bin:/bin", "HOME=/nonexistent", "LC_ALL=C.UTF-8", NULL };

/* Runs gnuplot (found on the caller's PATH) with args, in "/" (a directory only root can
 * write, so nothing it might load relatively is planted) and in gnuplot_env, its standard input
 * in_fd and output out_fd (-1: /dev/null).  Returns its exit status, or -1 when it could not be
 * started (errno set by posix_spawnp(3)) or was killed. */
static int gnuplot_run(char *const args[], int in_fd, int out_fd)
{
	pid_t pid;
	int status = -1;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addchdir_np(&fa, "/");
	if (in_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, in_fd, STDIN_FILENO);
	else
		posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	if (out_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
	else
		posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	int rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, args, gnuplot_env);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		errno = rc;
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	errno = 0;   /* -1 below: killed */
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A figure's gnuplot script, built in memory: the preamble and the data (datablocks $d0, $d1,
 * ...) in head, the plot command in plot, appended to head when the figure is complete (a
 * datablock must be defined before it is plotted). */
struct figure {
	char stem[192];               /* the file name without its extension */
	FILE *head, *plot;            /* open_memstream(3) */
	char *hbuf, *pbuf;
	size_t hlen, plen;
	unsigned blocks;              /* datablocks begun */
};

/* Frees what f holds, its streams closed or not. */
static void fig_free(struct figure *f)
{
	if (f->head)
		fclose(f->head);
	if (f->plot)
		fclose(f->plot);
	free(f->hbuf);
	free(f->pbuf);
	f->head = f->plot = NULL;
	f->hbuf = f->pbuf = NULL;
}

/* Starts datablock $dN of f; returns N.  Its lines start with a number, '"' or '#', never
 * with the terminator. */
static unsigned block_begin(struct figure *f)
{
	fprintf(f->head, "$d%u << EOD\n", f->blocks);
	return f->blocks++;
}

static void block_end(struct figure *f)
{
	fputs("EOD\n", f->head);
}

/* Closes f's streams, its whole script then in hbuf[0..hlen).  Returns 0, or -1 on a stream
 * error (out of memory). */
static int fig_close(struct figure *f)
{
	int bad = fclose(f->plot);
	f->plot = NULL;
	bad |= !f->pbuf || fwrite(f->pbuf, 1, f->plen, f->head) != f->plen;
	bad |= fclose(f->head);
	f->head = NULL;
	return bad || !f->hbuf ? -1 : 0;
}

/* Writes f's script to DIR/STEM.gp through lib/safefile (a temporary renamed into place, never
 * through a link, another user's file or a FIFO).  Returns 0, or -1 having said why. */
static int save_script(struct plot_job *j, const struct figure *f)
{
	char path[PATH_MAX], err[PATH_MAX + 128];
	struct safe_out o;
	snprintf(path, sizeof(path), "%s/%s.gp", j->out_dir, f->stem);
	int rc = safe_out_open(&o, path, SAFE_OUT_CHECK_DIR, err, sizeof(err));
	if (rc == 0 && safe_write_all(o.fd, f->hbuf, f->hlen) != 0) {
		snprintf(err, sizeof(err), "write %s: %s", path, strerror(errno));
		rc = -1;
	}
	if (rc == 0)
		rc = safe_out_commit(&o, err, sizeof(err));
	if (rc != 0) {
		safe_out_abort(&o);
		text_message(j->err, "%s: %s", j->who, err);
	}
	return rc;
}

/* f's script in a memory file (memfd_create(2)) read from its start: what gnuplot reads, so
 * no file another user could change between our write and its read.  Returns the descriptor,
 * or -1 having said why. */
static int script_fd(struct plot_job *j, const struct figure *f)
{
	int fd = memfd_create("interbench-plot", MFD_CLOEXEC);
	if (fd < 0 || safe_write_all(fd, f->hbuf, f->hlen) != 0 || lseek(fd, 0, SEEK_SET) != 0) {
		text_message(j->err, "%s: %s: %s", j->who, fd < 0 ? "memfd_create" : "write", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Why gnuplot gave no picture in pic (status as gnuplot_run returns it, errno set with it), in
 * buf (len bytes), or NULL. */
static const char *no_picture(int status, int pic, char *buf, size_t len)
{
	struct stat st;
	if (status < 0 && errno)
		snprintf(buf, len, "could not be started (posix_spawnp: %s)", strerror(errno));
	else if (status < 0)
		snprintf(buf, len, "was killed");
	else if (status != 0)
		snprintf(buf, len, "failed (exit status %d)", status);
	else if (fstat(pic, &st) != 0)
		snprintf(buf, len, "left a picture fstat cannot read (%s)", strerror(errno));
	else
		return st.st_size > 0 ? NULL : "drew nothing (an empty picture)";
	return buf;
}

/* Keeps the picture gnuplot drew into pic (status as gnuplot_run returns it) under its name, or
 * drops it saying why.  Returns whether it was kept. */
static bool keep_picture(const struct plot_job *j, struct safe_out *pic, int status)
{
	char why[128], err[PATH_MAX + 128];
	const char *bad = no_picture(status, pic->fd, why, sizeof(why));
	if (bad)
		text_message(j->err, "%s: gnuplot %s on %s", j->who, bad, pic->path);
	else if (safe_out_commit(pic, err, sizeof(err)) != 0)
		text_message(j->err, "%s: %s", j->who, (bad = err));
	safe_out_abort(pic);
	return !bad;
}

/* Has gnuplot draw f's script, handed as its standard input (-d: no startup file read; ib_stdout:
 * the script's own set output skipped), into a temporary picture given as its standard output,
 * renamed to DIR/STEM.FORMAT only when gnuplot succeeded and the picture is not empty.  Counts
 * the figure made or failed. */
static void draw(struct plot_job *j, const struct figure *f)
{
	char path[PATH_MAX], err[PATH_MAX + 128];
	char *args[] = { "gnuplot", "-d", "-e", "ib_stdout = 1", "-", NULL };
	struct safe_out pic;
	snprintf(path, sizeof(path), "%s/%s.%s", j->out_dir, f->stem, j->format);
	int script = script_fd(j, f);
	if (script >= 0 && safe_out_open(&pic, path, SAFE_OUT_CHECK_DIR, err, sizeof(err)) != 0) {
		text_message(j->err, "%s: %s", j->who, err);
		close(script);
		script = -1;
	}
	bool kept = script >= 0 && keep_picture(j, &pic, gnuplot_run(args, script, pic.fd));
	if (script >= 0)
		close(script);
	if (!kept) {
		j->failed++;
		return;
	}
	fprintf(j->out, "%s\n", path);
	j->made++;
}

/* Completes figure f: with something to draw, its script saved beside the picture and drawn;
 * else dropped.  Frees f. */
static void fig_end(struct plot_job *j, struct figure *f, bool something)
{
	if (something && fig_close(f) != 0) {
		text_message(j->err, "%s: %s: out of memory", j->who, f->stem);
		j->failed++;
	} else if (something && save_script(j, f) != 0) {
		j->failed++;
	} else if (something) {
		draw(j, f);
	}
	fig_free(f);
}

/* Says that what of figure stem was cut to max of n. */
static void too_many(const struct plot_job *j, const char *stem, const char *what, unsigned long n, unsigned max)
{
	if (n > max)
		text_message(j->err, "%s: %s: %lu %s, the first %u drawn", j->who, stem, n, what, max);
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

/* Makes name safe as a double-quoted string or a comment in a datablock, in place: a double
 * quote or backslash becomes ', a control character '?' (no line break: a line of the block
 * always starts with what we wrote, never with the terminator). */
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
	       num(r, JK_REPEAT) <= 1;
}

/* The label of a result's load with its settings ("Burn", "Burn nice 19"), safe in a datablock
 * (dat_text). */
static void load_label(const json_t *r, char *buf, size_t len)
{
	const char *mode = str(r, JK_MODE), *lm = str(r, JK_LOAD_MODE);
	snprintf(buf, len, "%s%s%s%s%s", str(r, JK_LOAD), *mode ? " / task " : "", mode, *lm ? " / loads " : "", lm);
	dat_text(buf);
}

/* Starts figure f (its stem already set) titled title: the streams opened, the preamble
 * written (title NULL: by the caller, into f->plot, after the data).  Returns false, the
 * figure counted failed, when memory runs out. */
static bool fig_begin(struct plot_job *j, struct figure *f, const char *title)
{
	f->head = open_memstream(&f->hbuf, &f->hlen);
	f->plot = f->head ? open_memstream(&f->pbuf, &f->plen) : NULL;
	if (!f->plot) {
		text_message(j->err, "%s: %s: open_memstream: %s", j->who, f->stem, strerror(errno));
		fig_free(f);
		j->failed++;
		return false;
	}
	if (title)
		gp_head(f->head, j, f->stem, title);
	return true;
}

/* Writes histogram h (validated: [low_ns, count] pairs) as a datablock of f, x in us. */
static unsigned hist_block(struct figure *f, const json_t *h)
{
	size_t k;
	json_t *bucket;
	unsigned b = block_begin(f);
	json_array_foreach(h, k, bucket)
		fprintf(f->head, "%g %lld\n", json_number_value(json_array_get(bucket, 0)) / 1e3,
			(long long)json_integer_value(json_array_get(bucket, 1)));
	block_end(f);
	return b;
}

/* The series of one load in latency-SIM: its sched and timer buckets, its p99 and max. */
static void distribution_load(struct figure *f, const json_t *r)
{
	char label[160], title[256], q[512];
	load_label(r, label, sizeof(label));
	for (int h = 0; h < 2; h++) {
		unsigned b = hist_block(f, json_object_get(r, h ? JK_TIMER_LATENCY_HISTOGRAM : JK_LATENCY_HISTOGRAM));
		snprintf(title, sizeof(title), "%s %s", label, h ? "timer" : "sched");
		fprintf(f->plot, "%s$d%u with linespoints %s title %s", b ? ", \\\n     " : "plot ", b, h ? "dt 2" : "",
			gp_str(title, q, sizeof(q)));
	}
	unsigned b = block_begin(f);
	fprintf(f->head, "# %s p99 max\n%g 1\n%g 1\n", label, num(r, FIGURE_KEY(sched_p99_ns)) / 1e3, num(r, FIGURE_KEY(latency_max_ns)) / 1e3);
	block_end(f);
	snprintf(title, sizeof(title), "%s p99, max", label);
	fprintf(f->plot, ", \\\n     $d%u with points pt 7 title %s", b, gp_str(title, q, sizeof(q)));
}

/* latency-SIM: the sched and timer latency distributions of each load, p99 and max marked. */
static void plot_distribution(struct plot_job *j, const json_t *results, const char *sim)
{
	struct figure f = { .blocks = 0 };
	char s[64], title[256];
	text_slug(sim, s, sizeof(s));
	snprintf(f.stem, sizeof(f.stem), "latency-%s", s);
	snprintf(title, sizeof(title), "%s: latency distributions (log-log); p99 and max marked", sim);
	if (!fig_begin(j, &f, title))
		return;
	fprintf(f.head, "set logscale xy\nset xlabel 'latency (us)'\nset ylabel 'periods'\n");
	unsigned long loads = 0;
	size_t i;
	json_t *r;
	json_array_foreach(results, i, r)
		if (of_sim(r, sim) && loads++ < PLOT_MAX_LOADS)
			distribution_load(&f, r);
	fputs("\n", f.plot);
	too_many(j, f.stem, "loads", loads, PLOT_MAX_LOADS);
	fig_end(j, &f, loads > 0);
}

/* The low and high ends of r's within-run interval of its p99 (ms), from "latency_p99_ns_ci"
 * (schema version 3), else the p99 itself for both (no error bar; also for an interval open
 * above, [low, null], whose max is no bound).  A low end of 0 is drawn at the p99
 * divided by 1000: the axis is logarithmic. */
static void p99_interval_ms(const json_t *r, double p99_ms, double *lo, double *hi)
{
	const json_t *ci = json_object_get(r, figure_of_metric(task_figures, task_figures_n, JM_P99)->ci->json_key);
	*lo = *hi = p99_ms;
	if (json_is_array(ci) && json_is_number(json_array_get(ci, 0)) && json_is_number(json_array_get(ci, 1))) {
		*lo = json_number_value(json_array_get(ci, 0)) / 1e6;
		*hi = json_number_value(json_array_get(ci, 1)) / 1e6;
		if (*lo <= 0)
			*lo = p99_ms / 1000;
	}
}

/* One row of percentiles-SIM's data: the load, p50, p99 and max (ms), then the p99's 95 %
 * interval (ms).  Returns the period of its task (ms), or -1. */
static double percentiles_row(struct figure *f, const json_t *r)
{
	char label[160];
	double p99_ms = num(r, FIGURE_KEY(sched_p99_ns)) / 1e6, lo, hi;
	load_label(r, label, sizeof(label));
	p99_interval_ms(r, p99_ms, &lo, &hi);
	fprintf(f->head, "\"%s\" %g %g %g %g %g\n", label, num(r, FIGURE_KEY(sched_p50_ns)) / 1e6, p99_ms,
		num(r, FIGURE_KEY(classic_max_ns)) >= 0 ? num(r, FIGURE_KEY(classic_max_ns)) / 1e6 : num(r, FIGURE_KEY(latency_max_ns)) / 1e6, lo, hi);
	return num(r, FIGURE_KEY(interval_us)) > 0 ? num(r, FIGURE_KEY(interval_us)) / 1e3 : -1;
}

/* percentiles-SIM: p50, p99 and max per load as bars, the period as a line. */
static void plot_percentiles(struct plot_job *j, const json_t *results, const char *sim)
{
	struct figure f = { .blocks = 0 };
	char s[64], title[256];
	text_slug(sim, s, sizeof(s));
	snprintf(f.stem, sizeof(f.stem), "percentiles-%s", s);
	if (!fig_begin(j, &f, NULL))
		return;
	double period_ms = -1;
	unsigned long rows = 0;
	size_t i;
	json_t *r;
	block_begin(&f);
	fprintf(f.head, "# load p50_ms p99_ms max_ms p99_low_ms p99_high_ms\n");
	json_array_foreach(results, i, r)
		if (of_sim(r, sim) && rows++ < PLOT_MAX_LOADS)
			period_ms = fmax(period_ms, percentiles_row(&f, r));
	block_end(&f);
	snprintf(title, sizeof(title), "%s: latency by load (ms), p99 with its 95%% interval%s", sim,
		 period_ms > 0 ? "; the line is the period" : "");
	gp_head(f.plot, j, f.stem, title);
	/* errorbars: every series gives y, ylow, yhigh; p50 and max have none (ylow = yhigh = y) */
	fprintf(f.plot, "set style data histograms\nset style histogram errorbars gap 2 lw 1\nset style fill solid 0.6\n"
		"set logscale y\nset ylabel 'ms'\nset xtics rotate by -30\n");
	if (period_ms > 0)
		fprintf(f.plot, "set arrow from graph 0, first %g to graph 1, first %g nohead lw 2 dt 2\n", period_ms, period_ms);
	fprintf(f.plot, "plot $d0 using 2:2:2:xtic(1) title 'p50 (sched)', $d0 using 3:5:6 title 'p99 (sched)', "
		"$d0 using 4:4:4 title 'max (interbench)'\n");
	too_many(j, f.stem, "loads", rows, PLOT_MAX_LOADS);
	fig_end(j, &f, rows > 0);
}

/* A figure per simulation of one bar per load stacked by part, from the JSON results. */
struct stacked {
	const char *prefix;        /* the stem: PREFIX-SIM */
	const char *data;          /* the data block's header comment, after "# load, then " */
	const char *title;         /* after "SIM: " */
	const char *ylabel;
	unsigned (*parts)(void);         /* how many parts */
	const char *(*part)(unsigned k); /* part k's name */
	/* Writes r's row (the load, then each part, then `extra` more columns) into f's data;
	 * false when r has none. */
	bool (*row)(struct figure *f, const json_t *r);
	const char *extra;         /* plot clauses after the bars ("%u": the first extra column), or NULL */
};

/* One row of causes-SIM's data: the load, then each part's share of the explained delay, %.
 * Returns whether r had explained periods. */
static bool causes_row(struct figure *f, const json_t *r)
{
	const json_t *e = json_object_get(r, JK_EXPLAIN), *parts = json_object_get(e, EK_PARTS_NS);
	double delay_ns = num(e, EK_DELAY_NS);
	if (!json_is_object(parts) || !(delay_ns > 0))
		return false;
	char label[160];
	load_label(r, label, sizeof(label));
	fprintf(f->head, "\"%s\"", label);
	for (int k = 0; k < EXPLAIN_PARTS; k++) {
		double ns = num(parts, explain_part_name((enum explain_part)k));
		fprintf(f->head, " %g", ns > 0 ? 100 * ns / delay_ns : 0);
	}
	fputc('\n', f->head);
	return true;
}

static unsigned causes(void)
{
	return EXPLAIN_PARTS;
}

static const char *cause_name(unsigned k)
{
	return explain_part_name((enum explain_part)k);
}

/* Whether row f is a share of the input-to-present time: a row of the line of shares
 * (struct figure_line.shares) of Pipeline's measures. */
static bool is_segment(const struct task_figure *f)
{
	const struct sim_measures *m = figure_task_measures(f);
	return m == &pipeline_chain_measures && f->column == FIG_TASK_LINE && f->column_pos < m->n_lines &&
	       m->lines[f->column_pos].shares;
}

/* The row giving segment k's share, counted in the figure table's order, or NULL. */
static const struct task_figure *segment_figure(unsigned k)
{
	for (size_t i = 0; i < task_figures_n; i++)
		if (is_segment(&task_figures[i]) && k-- == 0)
			return &task_figures[i];
	return NULL;
}

/* How many segments there are (plot's chain figure's parts). */
static unsigned segments(void)
{
	unsigned n = 0;
	while (segment_figure(n))
		n++;
	return n;
}

static const char *segment_name(unsigned k)
{
	return segment_figure(k)->column_label;
}

/* One row of chain-SIM's data: the load, then each segment's part of the mean input-to-present
 * latency (ms), then the p99 (ms).  Returns whether r presented input. */
static bool chain_row(struct figure *f, const json_t *r)
{
	double mean_ns = num(r, CHAIN_KEY(i2p_mean_ns)), p99_ns = num(r, CHAIN_KEY(i2p_p99_ns));
	if (!(mean_ns > 0))
		return false;
	char label[160];
	load_label(r, label, sizeof(label));
	fprintf(f->head, "\"%s\"", label);
	for (unsigned k = 0; segment_figure(k); k++) {
		double ppm = num(r, segment_figure(k)->json_key);
		fprintf(f->head, " %g", ppm > 0 ? mean_ns * ppm / 1e6 / 1e6 : 0);
	}
	fprintf(f->head, " %g\n", p99_ns > 0 ? p99_ns / 1e6 : 0);
	return true;
}

/* causes-SIM (with --explain): per load, a bar of the explained delay stacked by cause. */
static const struct stacked causes_figure = {
	.prefix = "causes", .data = "each cause's share of the explained delay (%)",
	.title = "why periods were late, share of the explained delay by cause (%)", .ylabel = "% of the delay",
	.parts = causes, .part = cause_name, .row = causes_row,
};

/* chain-SIM (a task that presents frames): per load, its mean input-to-present latency as a
 * bar stacked by segment, and its p99 as a point. */
static const struct stacked chain_figure = {
	.prefix = "chain", .data = "each segment's part of the mean input-to-present latency (ms), then its p99 (ms)",
	.title = "input-to-present latency, mean by segment, and p99 (ms)", .ylabel = "ms",
	.parts = segments, .part = segment_name, .row = chain_row,
	.extra = ", $d0 using 0:%u with points pt 7 ps 1.5 lc rgb 'black' title 'p99'",
};

/* The stacked figure st of simulation sim, when some of its results have a row. */
static void plot_stacked(struct plot_job *j, const json_t *results, const char *sim, const struct stacked *st)
{
	struct figure f = { .blocks = 0 };
	char s[64], title[256];
	text_slug(sim, s, sizeof(s));
	snprintf(f.stem, sizeof(f.stem), "%s-%s", st->prefix, s);
	if (!fig_begin(j, &f, NULL))
		return;
	unsigned long rows = 0;
	size_t i;
	json_t *r;
	block_begin(&f);
	fprintf(f.head, "# load, then %s:", st->data);
	for (unsigned k = 0; k < st->parts(); k++)
		fprintf(f.head, " %s", st->part(k));
	fputc('\n', f.head);
	json_array_foreach(results, i, r)
		if (of_sim(r, sim) && rows < PLOT_MAX_LOADS)
			rows += st->row(&f, r);
	block_end(&f);
	snprintf(title, sizeof(title), "%s: %s", sim, st->title);
	gp_head(f.plot, j, f.stem, title);
	fprintf(f.plot, "set style data histograms\nset style histogram rowstacked\nset style fill solid 0.8 border -1\n"
		"set boxwidth 0.6\nset yrange [0:*]\nset ylabel '%s'\nset xtics rotate by -30\nplot ", st->ylabel);
	for (unsigned k = 0; k < st->parts(); k++)
		fprintf(f.plot, "%s$d0 using %u%s title '%s'", k ? ", " : "", k + 2, k ? "" : ":xtic(1)", st->part(k));
	if (st->extra)
		fprintf(f.plot, st->extra, st->parts() + 2);
	fputc('\n', f.plot);
	too_many(j, f.stem, "loads", rows, PLOT_MAX_LOADS);
	fig_end(j, &f, rows > 0);
}

/* The curves of column c of sweep sw: % met and p99 of each bench setting, loads at setting c. */
static void sweep_column(struct figure *f, const json_t *sw, size_t c)
{
	const json_t *rows = json_object_get(sw, JK_BENCH_SETTINGS), *cells = json_object_get(sw, JK_CELLS);
	char col[96], x[64], title[160], q[2][256];
	snprintf(col, sizeof(col), "%s", json_string_value(json_array_get(json_object_get(sw, JK_LOAD_SETTINGS), c)));
	dat_text(col);
	unsigned b = block_begin(f);
	fprintf(f->head, "# loads %s\n", col);
	for (size_t rr = 0; rr < json_array_size(rows); rr++) {
		const json_t *cell = json_array_get(json_array_get(cells, rr), c);
		snprintf(x, sizeof(x), "%s", json_string_value(json_array_get(rows, rr)));
		dat_text(x); /* a quoted string in the data: its spaces stay */
		if (json_is_object(cell))
			fprintf(f->head, "%zu \"%s\" %g %g\n", rr, x, num(cell, FIGURE_KEY(deadlines_met_pct)) / 1e4,
				num(cell, FIGURE_KEY(sched_p99_ns)) >= 0 ? num(cell, FIGURE_KEY(sched_p99_ns)) / 1e6 : 0.0);
	}
	block_end(f);
	snprintf(title, sizeof(title), "loads %s met", col);
	gp_str(title, q[0], sizeof(q[0]));
	snprintf(title, sizeof(title), "loads %s p99", col);
	fprintf(f->plot, "%s$d%u using 1:3:xtic(2) with linespoints title %s, $d%u using 1:4 axes x1y2 with points title %s",
		b ? ", \\\n     " : "plot ", b, q[0], b, gp_str(title, q[1], sizeof(q[1])));
}

/* sweep-SIM-LOAD: one figure per sweep summary of the JSON (validated: result_json_load). */
static void plot_sweep(struct plot_job *j, const json_t *sw)
{
	struct figure f = { .blocks = 0 };
	char s[64], l[64], title[256];
	text_slug(str(sw, JK_SIMULATION), s, sizeof(s));
	text_slug(str(sw, JK_LOAD), l, sizeof(l));
	snprintf(f.stem, sizeof(f.stem), "sweep-%s-%s", s, l);
	snprintf(title, sizeof(title), "%s against %s: %% deadlines met (lines) and p99 latency (points, right axis)",
		 str(sw, JK_SIMULATION), str(sw, JK_LOAD));
	if (!fig_begin(j, &f, title))
		return;
	fprintf(f.head, "set ylabel '%% deadlines met'\nset y2label 'p99 (ms)'\nset y2tics\nset yrange [0:105]\n"
		"set xtics rotate by -30\n");
	for (size_t c = 0; c < json_array_size(json_object_get(sw, JK_LOAD_SETTINGS)); c++)
		sweep_column(&f, sw, c);
	fputs("\n", f.plot);
	fig_end(j, &f, true);
}

/* A timeline figure: its pair and result, and its records as they are read. */
struct tl_pair {
	uint32_t id;
	size_t order;                 /* its result's index: of equal ids, the first is drawn */
	const json_t *res;
	struct figure f;              /* begun at the pair's first record */
	unsigned long records;
	unsigned long shown;          /* records of frames shown (a presenting task's) */
	uint64_t last_shown_ns;       /* the last one's vsync */
	bool broken;                  /* its figure could not be begun */
};

/* The timeline figures, one per pair id of the result (at most PLOT_MAX_PAIRS), sorted by id. */
struct tl_set {
	struct tl_pair p[PLOT_MAX_PAIRS];
	size_t n;
	struct tl_pair *last;         /* the last found: records come pair after pair */
	unsigned long unknown;        /* records of ids no result has */
};

/* qsort(3) and bsearch(3) orders: by pair id; by pair id, then result index. */
static int tl_cmp_id(const void *a, const void *b)
{
	const struct tl_pair *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int tl_cmp(const void *a, const void *b)
{
	const struct tl_pair *x = a, *y = b;
	return tl_cmp_id(a, b) ? tl_cmp_id(a, b) : x->order < y->order ? -1 : x->order > y->order;
}

/* Fills set with the results that name a timeline pair, sorted by id, each id once. */
static void tl_index(struct plot_job *j, const json_t *results, struct tl_set *set)
{
	size_t i, n = 0;
	unsigned long named = 0;
	json_t *r;
	json_array_foreach(results, i, r)
		if (json_is_integer(json_object_get(r, JK_TIMELINE_PAIR)) && named++ < PLOT_MAX_PAIRS)
			set->p[n++] = (struct tl_pair){ .id = (uint32_t)json_integer_value(json_object_get(r, JK_TIMELINE_PAIR)),
							.order = i, .res = r };
	too_many(j, j->result, "timeline pairs", named, PLOT_MAX_PAIRS);
	qsort(set->p, n, sizeof(set->p[0]), tl_cmp);
	set->n = 0;
	for (i = 0; i < n; i++)
		if (set->n == 0 || set->p[set->n - 1].id != set->p[i].id)
			set->p[set->n++] = set->p[i];
}

/* The figure of pair id, or NULL. */
static struct tl_pair *tl_find(struct tl_set *set, uint32_t id)
{
	if (set->last && set->last->id == id)
		return set->last;
	struct tl_pair key = { .id = id };
	struct tl_pair *p = bsearch(&key, set->p, set->n, sizeof(set->p[0]), tl_cmp_id);
	return p ? (set->last = p) : NULL;
}

/* Begins p's figure: timeline-PAIR, its title and deadline lines, its datablock opened. */
static void tl_begin(struct plot_job *j, struct tl_pair *p)
{
	char title[256];
	snprintf(p->f.stem, sizeof(p->f.stem), "timeline-%u", p->id);
	snprintf(title, sizeof(title), "pair %u: %s against %s: lateness of each period%s", p->id, str(p->res, JK_SIMULATION),
		 str(p->res, JK_LOAD), json_is_integer(json_object_get(p->res, CHAIN_KEY(vsyncs))) ? ", frame time where shown" : "");
	p->broken = !fig_begin(j, &p->f, title);
	if (p->broken)
		return;
	double period_ms = num(p->res, FIGURE_KEY(interval_us)) / 1e3;
	/* the buffer's length in periods (a result without task_settings: none known, no line) */
	double periods = num(json_object_get(p->res, JK_TASK_SETTINGS), JK_BUFFER_PERIODS);
	fprintf(p->f.head, "set xlabel 'time (s)'\nset ylabel 'lateness (ms)'\n");
	if (period_ms > 0)
		fprintf(p->f.head, "set arrow from graph 0, first %g to graph 1, first %g nohead lw 2 dt 2 lc 'red'\n",
			period_ms, period_ms);
	if (period_ms > 0 && periods > 1)
		fprintf(p->f.head, "set arrow from graph 0, first %g to graph 1, first %g nohead lw 2 dt 3 lc 'orange'\n",
			period_ms * (periods - 1), period_ms * (periods - 1));
	block_begin(&p->f);
	fprintf(p->f.head, "# time_s lateness_ms xrun [shown_s frame_time_ms: a frame shown after the one before]\n");
}

/* Opens --timeline (lib/safefile: a regular file or a handed pipe, never waiting on a FIFO) and
 * reads its header.  Returns the stream at its first record, or NULL having said why. */
static FILE *tl_open(struct plot_job *j)
{
	char why[256];
	unsigned char head[TIMELINE_HEADER_BYTES];
	struct stat st;
	int fd = safe_open_read(j->timeline, why, sizeof(why));
	FILE *in = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (fd >= 0 && !in)
		snprintf(why, sizeof(why), "fdopen: %s", strerror(errno));
	else if (in && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		 (uintmax_t)st.st_size > TIMELINE_HEADER_BYTES + (uintmax_t)PLOT_MAX_TL_RECORDS * TIMELINE_RECORD_BYTES)
		snprintf(why, sizeof(why), "more than %u records (%u MiB): refused", PLOT_MAX_TL_RECORDS,
			 (unsigned)(((uintmax_t)PLOT_MAX_TL_RECORDS * TIMELINE_RECORD_BYTES) >> 20));
	else if (in && (fread(head, 1, sizeof(head), in) != sizeof(head) ||
			(j->tl_record_bytes = timeline_decode_header(head)) == 0))
		snprintf(why, sizeof(why), "not an interbench timeline (doc/timeline.md)");
	else if (in)
		return in;
	text_message(j->err, "%s: --timeline %s: %s", j->who, j->timeline, why);
	if (in)
		fclose(in);
	else if (fd >= 0)
		close(fd);
	return NULL;
}

/* Adds record r to its pair's figure, or counts it unknown. */
static void tl_add(struct plot_job *j, struct tl_set *set, const struct timeline_rec *r)
{
	struct tl_pair *p = tl_find(set, r->pair);
	if (!p) {
		set->unknown++;
		return;
	}
	if (!p->f.head && !p->broken)
		tl_begin(j, p);
	if (p->broken)
		return;
	fprintf(p->f.head, "%.6f %.6f %u", r->start_ns / 1e9, r->late_ns / 1e6, (r->flags & TIMELINE_XRUN) ? 1u : 0u);
	if (r->shown_ns > p->last_shown_ns && p->last_shown_ns) {
		fprintf(p->f.head, " %.6f %.6f", r->shown_ns / 1e9, (double)(r->shown_ns - p->last_shown_ns) / 1e6);
		p->shown++;
	}
	fputc('\n', p->f.head);
	if (r->shown_ns > p->last_shown_ns)
		p->last_shown_ns = r->shown_ns;
	p->records++;
}

/* Reads in's records, at most PLOT_MAX_TL_RECORDS, into set.  Returns 0, or 2 having said why;
 * a record cut short at the end and records of unknown pairs are reported. */
static int tl_read(struct plot_job *j, FILE *in, unsigned record_bytes, struct tl_set *set)
{
	unsigned char rec[TIMELINE_RECORD_BYTES];
	struct timeline_rec r;
	unsigned long n = 0;
	size_t got;
	while ((got = fread(rec, 1, record_bytes, in)) == record_bytes && n++ < PLOT_MAX_TL_RECORDS) {
		timeline_decode(rec, record_bytes, &r);
		tl_add(j, set, &r);
	}
	bool bad = ferror(in) || n > PLOT_MAX_TL_RECORDS;
	if (ferror(in))
		text_message(j->err, "%s: --timeline %s: read: %s", j->who, j->timeline, strerror(errno));
	else if (bad)
		text_message(j->err, "%s: --timeline %s: more than %u records: refused", j->who, j->timeline, PLOT_MAX_TL_RECORDS);
	else if (got)
		text_message(j->err, "%s: --timeline %s: warning: its last record is cut short (%zu of %u bytes); ignored",
			j->who, j->timeline, got, record_bytes);
	if (set->unknown)
		text_message(j->err, "%s: --timeline %s: %lu records of pairs that %s has no result for (timeline_pair) "
			"skipped", j->who, j->timeline, set->unknown, j->result);
	return bad ? 2 : 0;
}

/* timeline-PAIR figures: lateness over time per pair of the result that has records, the
 * deadline and buffer lines, xruns marked.  Returns 0, or 2 on a timeline refused. */
static int plot_timeline(struct plot_job *j, const json_t *doc, FILE *in)
{
	struct tl_set *set = calloc(1, sizeof(*set));
	if (!set) {
		text_message(j->err, "%s: --timeline: out of memory", j->who);
		return 2;
	}
	tl_index(j, json_object_get(doc, JK_RESULTS), set);
	int rc = tl_read(j, in, j->tl_record_bytes, set);
	for (size_t i = 0; i < set->n; i++) {
		struct tl_pair *p = &set->p[i];
		if (!p->f.head)
			continue;
		block_end(&p->f);
		if (p->shown)
			fprintf(p->f.plot, "set y2label 'frame time (ms)'\nset y2range [0:*]\nset y2tics\nset ytics nomirror\n");
		fprintf(p->f.plot, "plot $d0 using 1:2 with impulses title 'lateness', "
			"$d0 using 1:($3 > 0 ? $2 : 1/0) with points pt 7 lc 'red' title 'xrun'%s\n",
			p->shown ? ", $d0 using 4:5 axes x1y2 with steps lc 'dark-green' title 'frame time'" : "");
		fig_end(j, &p->f, rc == 0);
	}
	free(set);
	return rc;
}

/* Whether gnuplot can be run.  Says what to install when not. */
static bool have_gnuplot(const struct plot_job *j)
{
	char *args[] = { "gnuplot", "--version", NULL };
	if (gnuplot_run(args, -1, -1) == 0)
		return true;
	text_message(j->err, "%s: gnuplot is not installed (accepted: gnuplot on the PATH; Debian: apt-get install "
		"gnuplot-nox, or make deps)", j->who);
	return false;
}

/* Makes the output directory when missing and checks that it may take the outputs: a directory
 * of the running user or root that no other user can write, or sticky (safe_dir_check).
 * Returns 0, or -1 having said why. */
static int out_dir_ready(const struct plot_job *j)
{
	char why[PATH_MAX + 192];
	if (mkdir(j->out_dir, 0755) != 0 && errno != EEXIST) {
		text_message(j->err, "%s: %s %s: mkdir: %s", j->who, j->out_opt, j->out_dir, strerror(errno));
		return -1;
	}
	if (safe_dir_check(j->out_dir, why, sizeof(why)) != 0) {
		text_message(j->err, "%s: %s %s", j->who, j->out_opt, why);
		return -1;
	}
	return 0;
}

/* latency-SIM and percentiles-SIM of each simulation, once, in the order of the results (at
 * most PLOT_MAX_SIMS). */
static void plot_sims(struct plot_job *j, const json_t *results)
{
	const char *done[PLOT_MAX_SIMS];
	unsigned ndone = 0;
	bool more = false;
	size_t i;
	json_t *r;
	json_array_foreach(results, i, r) {
		const char *sim = str(r, JK_SIMULATION);
		bool seen = false;
		for (unsigned k = 0; k < ndone && !seen; k++)
			seen = strcmp(done[k], sim) == 0;
		more |= !seen && ndone == PLOT_MAX_SIMS;
		if (seen || ndone == PLOT_MAX_SIMS)
			continue;
		done[ndone++] = sim;
		plot_distribution(j, results, sim);
		plot_percentiles(j, results, sim);
		plot_stacked(j, results, sim, &causes_figure);
		plot_stacked(j, results, sim, &chain_figure);
	}
	if (more)
		text_message(j->err, "%s: %s: more than %u simulations, the first %u drawn", j->who, j->result, PLOT_MAX_SIMS,
			PLOT_MAX_SIMS);
}

/* sweep-SIM-LOAD of each sweep (at most PLOT_MAX_SWEEPS). */
static void plot_sweeps(struct plot_job *j, const json_t *sweeps)
{
	for (size_t i = 0; i < json_array_size(sweeps) && i < PLOT_MAX_SWEEPS; i++)
		plot_sweep(j, json_array_get(sweeps, i));
	too_many(j, j->result, JK_SWEEPS, json_array_size(sweeps), PLOT_MAX_SWEEPS);
}

/* plot's command line. */
struct plot_args {
	const char *timeline, *out_dir;
	unsigned format;          /* --format: the index of its value in plot_formats */
};

enum { PLOT_HELP = 1 };  /* -h's action */

static const char *const plot_formats[] = { "png", "svg", NULL };

#define PA(field) offsetof(struct plot_args, field)

/* plot's options, in --help order (-h and --help are accepted but not listed). */
static const struct optspec plot_options[] = {
	{ .long_name = "timeline", .type = OPTSPEC_TEXT, .metavar = "FILE",
	  .help = "the --timeline file of the same run", .offset = PA(timeline) },
	{ .long_name = "out", .type = OPTSPEC_TEXT, .metavar = "DIR", .def_str = ".",
	  .help = "where the pictures go (created; yours or root's, writable by no other\n"
		  "user unless sticky; default: .)", .offset = PA(out_dir) },
	{ .long_name = "format", .type = OPTSPEC_CHOICE, .metavar = "F", .choices = plot_formats,
	  .help = "png (default) or svg", .offset = PA(format) },
	{ .long_name = "help", .short_name = 'h', .type = OPTSPEC_ACTION, .hidden = true, .action = PLOT_HELP },
};
#define PLOT_OPTIONS (sizeof(plot_options) / sizeof(plot_options[0]))

const struct optspec *plot_option_table(unsigned *n)
{
	*n = PLOT_OPTIONS;
	return plot_options;
}

static const struct optspec_style plot_style = { .column = 20, .long_indent = "  " };

static void plot_usage(FILE *f)
{
	fprintf(f, "Usage: interbench plot RESULT.json [--timeline FILE] [--out DIR]\n"
		"                  [--format png|svg]\n"
		"Draws a result with gnuplot: latency distributions and percentiles per task,\n"
		"sweeps, and with --timeline each pair's periods; each picture beside the gnuplot\n"
		"script, data included, that drew it.\n");
	optspec_help_table(f, plot_options, PLOT_OPTIONS, &plot_style);
}

/* Parses the options into j.  Returns -1 to go on, else the exit status. */
static int plot_args(int argc, char **argv, struct plot_job *j)
{
	struct optparse_fault f;
	struct plot_args a;
	optspec_defaults(plot_options, PLOT_OPTIONS, &a);
	int rc = optparse_table(plot_options, PLOT_OPTIONS, &a, false, argc, argv, &f);
	if (rc == PLOT_HELP) {
		plot_usage(j->out);
		return 0;
	}
	if (rc == OPTSPEC_BAD) {
		text_message(j->err, "interbench plot: %s: %s (accepted: --timeline FILE, --out DIR, --format png|svg; "
			"see --help)", f.word, f.kind == OPTPARSE_BAD_VALUE ? "invalid format" :
			"unknown option or missing value");
		return 2;
	}
	if (argc - optind != 1) {
		text_message(j->err, "interbench plot: expected one result file (see --help)");
		return 2;
	}
	j->timeline = a.timeline;
	j->out_dir = a.out_dir;
	j->format = plot_formats[a.format];
	j->result = argv[optind];
	return -1;
}

/* Draws every figure of doc, with the timeline in tl (or NULL).  Returns 0, 1 when a figure
 * failed, 2 when the timeline was refused. */
static int plot_all(struct plot_job *j, const json_t *doc, FILE *tl)
{
	plot_sims(j, json_object_get(doc, JK_RESULTS));
	plot_sweeps(j, json_object_get(doc, JK_SWEEPS));
	int rc = tl ? plot_timeline(j, doc, tl) : 0;
	fprintf(j->out, "%u figure%s drawn in %s%s\n", j->made, j->made == 1 ? "" : "s", j->out_dir,
		j->failed ? " (some failed: see above)" : "");
	return rc ? rc : j->failed ? 1 : 0;
}

int plot_main(int argc, char **argv, FILE *out, FILE *err)
{
	struct plot_job j = { .out_dir = ".", .format = "png", .who = "interbench plot", .out_opt = "--out", .out = out,
			      .err = err };
	int rc = plot_args(argc, argv, &j);
	if (rc >= 0)
		return rc;
	char why[512];
	json_t *doc = result_json_load(j.result, why, sizeof(why));
	if (!doc) {
		text_message(err, "interbench plot: %s: %s", j.result, why);
		return 2;
	}
	FILE *tl = j.timeline ? tl_open(&j) : NULL;
	rc = (j.timeline && !tl) || !have_gnuplot(&j) || out_dir_ready(&j) != 0 ? 2 : plot_all(&j, doc, tl);
	if (tl)
		fclose(tl);
	json_decref(doc);
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
	struct figure f = { .blocks = 0 };
	char k[96], l[48], title[256];
	if (!res[0] || !res[1])
		return;
	text_slug(key, k, sizeof(k));
	text_slug(load, l, sizeof(l));
	snprintf(f.stem, sizeof(f.stem), "compare-%s-%s", k, l);
	snprintf(title, sizeof(title), "%s against %s: scheduling latency, OLD and NEW (log-log)", key, load);
	if (!fig_begin(j, &f, title))
		return;
	fprintf(f.head, "set logscale xy\nset xlabel 'latency (us)'\nset ylabel 'periods'\n");
	for (int s = 0; s < 2; s++)
		hist_block(&f, json_object_get(res[s], JK_LATENCY_HISTOGRAM));
	fprintf(f.plot, "plot $d0 with linespoints title 'OLD', $d1 with linespoints title 'NEW'\n");
	fig_end(j, &f, true);
}

int plot_compare(const char *dir, const char *old_path, const char *new_path, const struct cmp_flagged *flagged,
		 FILE *out, FILE *err)
{
	struct plot_job j = { .out_dir = dir, .format = "png", .who = "interbench compare", .out_opt = "--plot",
			      .out = out, .err = err };
	const char *paths[2] = { old_path, new_path };
	json_t *docs[2] = { NULL, NULL };
	char why[512];
	int rc = 0;
	for (int i = 0; i < 2 && rc == 0; i++)
		if (!(docs[i] = result_json_load(paths[i], why, sizeof(why)))) {
			text_message(err, "interbench compare: --plot: %s: %s", paths[i], why);
			rc = 2;
		}
	if (rc == 0 && (!have_gnuplot(&j) || out_dir_ready(&j) != 0))
		rc = 2;
	for (unsigned i = 0; rc == 0 && i < flagged->n; i++)
		plot_overlay(&j, docs[0], docs[1], flagged->sim[i], flagged->load[i]);
	json_decref(docs[0]);
	json_decref(docs[1]);
	return rc ? rc : j.failed ? 1 : 0;
}
