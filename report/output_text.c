/* The text output (report/output_text.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/text.h"
#include "report/figures.h"
#include "report/histview.h"
#include "report/jsonkeys.h"
#include "report/logfile.h"
#include "report/logformat.h"
#include "report/output_text.h"
#include "report/run_decisions.h"
#include "workloads/workload.h"

/* Sends what was printed to t->pending since the last call to the console (when console) and,
 * unless -c, to the logfile, then empties it: the one place the two are written together. */
static void send_pending(struct text_output *t, struct report_run *run, bool console)
{
	off_t len = ftello(t->pending);
	if (fflush(t->pending) != 0 || len <= 0)
		return;
	if (console)
		fwrite(t->pending_text, 1, (size_t)len, run->con);
	if (t->log)
		fwrite(t->pending_text, 1, (size_t)len, t->log);
	rewind(t->pending);
}

/* Flushes the console and the logfile, keeping their first write errors. */
static void flush_both(struct text_output *t, struct report_run *run)
{
	report_flush(run->con, &run->con_errno);
	if (t->log)
		report_flush(t->log, &t->log_errno);
}

/* Opens the text's buffer and, unless -c, the logfile.  Returns 0, -1 when out of memory, or
 * 2 when the logfile cannot be used (reason printed, nothing left open). */
static int text_open(void *st, struct report_run *run)
{
	struct text_output *t = st;
	char err[PATH_MAX + 256], note[2 * PATH_MAX + 512];
	t->pending = open_memstream(&t->pending_text, &t->pending_size);
	if (!t->pending) {
		text_message(stderr, "interbench: open_memstream: %s", strerror(errno));
		return -1;
	}
	if (run->opt->console_only)
		return 0;
	t->log = logfile_open(&run->info, t->log_path, sizeof(t->log_path), note, sizeof(note), err, sizeof(err));
	if (!t->log) {
		text_message(stderr, "interbench: logfile: %s (accepted: a regular file, or -c for none)", err);
		fclose(t->pending);
		free(t->pending_text);
		t->pending = NULL;
		return 2;
	}
	if (note[0])
		text_message(stderr, "interbench: logfile: %s", note);
	return 0;
}

/* One console line naming the settings the audit found known to hurt interactivity (the
 * logfile and the JSON have the whole audit). */
static void audit_note(const struct report_run *run)
{
	const struct audit *a = run->in.audit;
	char names[512] = "";
	size_t used = 0;
	for (unsigned i = 0; i < a->n && used < sizeof(names); i++)
		if (a->item[i].hint[0]) {
			int w = snprintf(names + used, sizeof(names) - used, "%s%s", used ? ", " : "", a->item[i].name);
			used += w > 0 ? (size_t)w : 0;
		}
	if (used)
		fprintf(run->con, "Audit: known to hurt interactivity here: %s (interbench --audit says why)\n", names);
}

/* "Pattern of ProAudio: period 1.333 ms, ...": each task of the plan as its options resolved it
 * (sim_pattern_text), once, in plan order. */
static void pattern_lines(struct text_output *t, struct report_run *run)
{
	const struct plan *plan = run->in.plan;
	for (size_t i = 0; i < plan->n; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = plan->items[j].task == plan->items[i].task;
		if (seen)
			continue;
		char text[512];
		sim_pattern_text(&plan->items[i].spec, text, sizeof(text));
		fprintf(t->pending, LOG_PATTERN "%s: %s\n", plan->items[i].task->name, text);
		send_pending(t, run, true);
	}
}

/* Load li's header line into line (len bytes): empty when the plan does not use it or it has
 * nothing to say.  Memload's policy may name a cgroup directory: len of PATH_MAX + 256. */
static void load_line(const struct report_run *run, unsigned li, char *line, size_t len)
{
	const struct load_ops *ops = workload_table[li]->load;
	line[0] = '\0';
	if (ops && ops->describe && plan_uses(run->in.plan, li))
		ops->describe(run->in.load_cfg, options_wl_opts(run->opt, li), line, len);
}

/* The loads' header lines, each said once: a line an earlier load of the run gave already (the
 * disk loads' note on a file system in memory) is not repeated. */
static void load_lines(struct text_output *t, struct report_run *run)
{
	char line[PATH_MAX + 256], earlier[PATH_MAX + 256];
	for (unsigned li = 0; li < workload_count; li++) {
		load_line(run, li, line, sizeof(line));
		bool said = !line[0];
		for (unsigned lj = 0; lj < li && !said; lj++) {
			load_line(run, lj, earlier, sizeof(earlier));
			said = strcmp(line, earlier) == 0;
		}
		if (said)
			continue;
		fprintf(t->pending, "%s\n", line);
		send_pending(t, run, true);
	}
}

/* The legend of the columns the run's tables will show: % Deadlines Met when a task of the plan
 * has deadlines, the sub-runs' range when rows are medians, the tasks' own columns, -v's
 * lines. */
static struct table_legend legend_of(const struct report_run *run)
{
	const struct plan *plan = run->in.plan;
	struct table_legend lg = { .verbose = run->opt->verbose,
				   .repeats = run->opt->repeat > 1 || (run->info.budget_s && run->info.max_subruns > 1) };
	for (size_t i = 0; i < plan->n; i++) {
		const struct sim_measures *m = plan->items[i].spec.desc->measures;
		bool said = false;
		lg.deadlines |= plan->items[i].spec.desc->has_deadlines;
		for (unsigned k = 0; k < lg.n_measures; k++)
			said |= lg.measures[k] == m;
		if (m && !said && lg.n_measures < TABLE_LEGEND_TASKS) {
			lg.measures_task[lg.n_measures] = plan->items[i].task->name;
			lg.measures[lg.n_measures++] = m;
		}
	}
	return lg;
}

/* The run header (the logfile's with the whole audit, the console's with one line of it), the
 * loads' descriptions and the tasks' patterns. */
static void text_begin(void *st, struct report_run *run)
{
	struct text_output *t = st;
	struct table_legend legend = legend_of(run);
	if (t->log) {
		logfile_header(t->log, &run->info, &legend);
		logfile_audit(t->log, run->in.audit);
	}
	logfile_header(run->con, &run->info, &legend);
	audit_note(run);
	load_lines(t, run);
	pattern_lines(t, run);
}

/* The table style of plan item it; repeats: the rounds that ran (a --budget run stops early). */
static struct table_style style_of(const struct report_run *run, const struct plan_item *it, const struct matrix *m)
{
	return (struct table_style){ .has_deadlines = it->spec.desc->has_deadlines,
				     .microseconds = sched_kind_realtime(it->bench_sched.kind),
				     .buffered = it->spec.buffer_periods > 0, .measures = it->spec.desc->measures,
				     .verbose = run->opt->verbose, .repeats = m->p.budget_ns ? m->rounds : run->opt->repeat };
}

/* The most disturbed of the measured reps[0..n) that pass the levels (host/disturb.h), their
 * count in *count; NULL when none does. */
static const struct disturbance *worst_disturbance(const struct pair_outcome *reps, unsigned n, unsigned *count)
{
	const struct disturbance *worst = NULL;
	*count = 0;
	for (unsigned k = 0; k < n; k++) {
		const struct disturbance *d = &reps[k].disturbance;
		if (!reps[k].ok || !disturbance_marked(d))
			continue;
		++*count;
		if (!worst || d->outside_cpu_ppm > worst->outside_cpu_ppm)
			worst = d;
	}
	return worst;
}

/* Whether a measured repeat of reps[0..n) stopped with a judged figure not known. */
static bool any_unknown(const struct pair_outcome *reps, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		if (reps[k].ok && reps[k].stop.verdict.unknown && reps[k].stop.reason != STOP_INTERRUPTED)
			return true;
	return false;
}

/* How long "more" seconds is in words: "~73 s", "over a day", "more samples" (none to
 * project from). */
static void more_text(double more_s, char *buf, size_t len)
{
	if (isfinite(more_s) && more_s >= 86400)
		snprintf(buf, len, "over a day");
	else if (isfinite(more_s))
		snprintf(buf, len, "~%.0f s", more_s < 1 ? 1 : more_s);
	else
		snprintf(buf, len, "more samples");
}

/* How the adaptive window of st, measured_s long, ended, in words into buf: "known at 20 s";
 * or "stopped: p99 needs ~73 s more, met ~20 s more; --max-time allows 55 s more" (the
 * figures would not be known by the last look, at the rate seen); or "stopped at --max-time
 * (60 s): p99 needs ~352 s more". */
static void window_how(const struct pair_stop *st, double measured_s, char *buf, size_t len)
{
	if (!st->verdict.unknown) {
		snprintf(buf, len, "known at %.0f s", measured_s);
		return;
	}
	size_t at = (size_t)snprintf(buf, len, st->reason == STOP_MAX_TIME ? "stopped at --max-time (%.0f s): " :
				     "stopped: ", st->last_look_s);
	for (unsigned f = 0, n = 0; f < SIM_JUDGED && at < len; f++) {
		if (!(st->verdict.unknown & (1u << f)))
			continue;
		char more[32];
		more_text(st->verdict.needed_s[f] - measured_s, more, sizeof(more));
		bool first = n++ == 0;
		int w = snprintf(buf + at, len - at, "%s%s %s%s", first ? "" : ", ", sim_judged_name(f),
				 first ? "needs " : "", more);
		at += w > 0 ? (size_t)w : 0;
		if (strcmp(more, "more samples") != 0 && at < len)
			at += (size_t)snprintf(buf + at, len - at, " more");
	}
	if (st->reason != STOP_MAX_TIME && at < len)
		snprintf(buf + at, len - at, "; --max-time allows %.0f s more", st->last_look_s > measured_s ?
			 st->last_look_s - measured_s : 0);
}

/* The window lines of an adaptive row's measured repeats (log_row_window). */
static void window_notes(struct text_output *t, const struct pair_outcome *reps, unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		const struct pair_stop *st = &reps[k].stop;
		if (!reps[k].ok || !st->looks || st->reason == STOP_INTERRUPTED)
			continue;
		char how[240];
		window_how(st, reps[k].window_ns / 1e9, how, sizeof(how));
		log_row_window(t->pending, n > 1 ? k + 1 : 0, reps[k].window_ns / 1e9, how);
	}
}

/* The window line of a --budget row (plan item i of m, its sub-runs reps[0..n)), in words:
 * "window: 30.0 s, known after 6 sub-runs", "window: 10.0 s, stopped: the budget ran out
 * after 2 sub-runs; undecided: p99 latency" (what it waits for, as the round line says it) or
 * "stopped at the most sub-runs (--repeat 20); undecided: ..."; nothing outside a budget run.  Returns
 * whether the row was left undecided. */
static bool budget_note(struct text_output *t, const struct matrix *m, size_t i, const struct pair_outcome *reps,
			unsigned n)
{
	if (!m->p.budget_ns)
		return false;
	unsigned runs = 0;
	double measured_s = 0;
	for (unsigned k = 0; k < n; k++)
		if (reps[k].ran && reps[k].ok && !reps[k].interrupted) {
			runs++;
			measured_s += reps[k].window_ns / 1e9;
		}
	if (!runs)
		return false;
	char how[MATRIX_WHY_LEN + 96];
	const char *s = runs == 1 ? "" : "s", *why = m->why[i][0] ? m->why[i] : "a figure";
	if (m->settled[i])
		snprintf(how, sizeof(how), "known after %u sub-run%s", runs, s);
	else if (matrix_ran(m, i) >= m->p.repeats)
		snprintf(how, sizeof(how), "stopped at the most sub-runs (--repeat %u); undecided: %s", m->p.repeats, why);
	else
		snprintf(how, sizeof(how), "stopped: the budget ran out after %u sub-run%s; undecided: %s", runs, s, why);
	log_row_window(t->pending, 0, measured_s, how);
	return !m->settled[i];
}

/* --explain's block for each measured repeat of reps[0..n), its tables sorted for the
 * logfile (explain_summary_sort on a copy: the record keeps them as measured). */
static void why_notes(struct text_output *t, const char *load, const struct pair_outcome *reps, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		if (reps[k].ok) {
			struct explain_summary why = reps[k].bench.explain;
			explain_summary_sort(&why);
			logfile_why(t->pending, &why, load, n > 1 ? k + 1 : 0, reps[k].window_ns);
		}
}

/* The load's throughput in rep (load_throughput_format) into buf, said when the load's files
 * were in memory: empty when the load never reported or counts nothing. */
static void load_work_text(const struct load_ctx *lctx, const struct pair_outcome *rep, char *buf, size_t len)
{
	buf[0] = '\0';
	if (rep->load.elapsed_ns)
		load_throughput_format(lctx->name, lctx->metrics, &rep->load, buf, len);
	size_t used = strlen(buf);
	if (used && lctx->storage.in_memory) /* a rate of memory copies, not of a device */
		snprintf(buf + used, len - used, " (in memory on %s: no device reached)", lctx->storage.fs);
}

/* The lines under a row: the load's throughput (always in the logfile, on the console with
 * -v), then a line under a partial window (compare leaves such a row out), then what
 * disturbed it, then why its periods were late (--explain; on the console with -v). */
static void row_notes(struct text_output *t, struct report_run *run, const struct matrix *m, size_t item,
		      const struct pair_outcome *reps, unsigned n, bool explained)
{
	const struct load_ctx *lctx = &m->loads[run->in.plan->items[item].load_index].ctx;
	const char *load = lctx->name;
	unsigned disturbed;
	const struct disturbance *d = worst_disturbance(reps, n, &disturbed);
	for (unsigned k = 0; k < n; k++) {
		char work[200];
		load_work_text(lctx, &reps[k], work, sizeof(work));
		if (work[0])
			log_load_work(t->pending, work, n > 1);
	}
	send_pending(t, run, run->opt->verbose);
	window_notes(t, reps, n);
	bool undecided = budget_note(t, m, item, reps, n);
	send_pending(t, run, run->opt->verbose || any_unknown(reps, n) || undecided);
	for (unsigned k = 0; k < n; k++)
		if (reps[k].ok && reps[k].interrupted)
			log_row_interrupted(t->pending, reps[k].window_ns / 1e9,
					    options_window_s(run->opt), n > 1);
	if (d)
		log_row_disturbed(t->pending, d->outside_cpu_ppm / 1e4, d->steal_ppm / 1e4, disturbed, n);
	for (unsigned k = 0; k < n; k++) {
		const struct load_activity *a = &reps[k].load_activity;
		if (reps[k].ok && load_activity_stopped(a))
			log_row_load_stopped(t->pending, load, n > 1 ? k + 1 : 0, a->stopped_looks, a->looks,
					     load_activity_cpu_ns(a, sysconf(_SC_CLK_TCK)) / 1e9, reps[k].window_ns / 1e9);
	}
	send_pending(t, run, true);
	if (explained)
		why_notes(t, load, reps, n);
	send_pending(t, run, run->opt->verbose);
}

/* One row of plan item `item`: a single run (n == 1) or the medians of several.  The row keeps
 * interbench 0.31's fields, with no mark after them: what disturbed it, a figure left unknown
 * and a partial window are said on the lines under it (row_notes). */
static void emit_row(struct text_output *t, struct report_run *run, const struct matrix *m, size_t item,
		     const struct pair_outcome *reps, unsigned n, const struct table_style *st)
{
	const char *load = m->loads[run->in.plan->items[item].load_index].ctx.name;
	struct pair_summary ok[n], med;
	unsigned nok = 0;
	double lo = 0, hi = 0;
	for (unsigned k = 0; k < n; k++)  /* a partial repeat stays out of the medians */
		if (reps[k].ok && !(reps[k].interrupted && n > 1))
			ok[nok++] = reps[k].bench.summary;
	if (nok > 1 || (nok == 1 && n > 1))
		summary_median(ok, nok, &med, &lo, &hi);
	if (nok == 0)
		table_row_failed(t->pending, load, reps[0].ok ? "interrupted before a whole repeat" : reps[0].why);
	else if (n == 1)
		table_row(t->pending, load, &ok[0], st);
	else
		table_row_repeats(t->pending, load, &med, st, lo, hi, n - nok);
	if (nok && st->verbose)
		table_row_verbose(t->pending, n == 1 ? &ok[0] : &med, st);
	if (nok && n == 1 && st->verbose)
		table_row_intervals(t->pending, &ok[0], st);
	if (nok && st->verbose && st->measures)
		table_row_task_lines(t->pending, n == 1 ? &ok[0] : &med, st);
	send_pending(t, run, true);
	row_notes(t, run, m, item, reps, n, run->opt->explain && st->has_deadlines);
	flush_both(t, run);
}

/* Prints plan item i's row (and its table's header before the first row of a simulation). */
static void text_item_complete(void *st_, struct report_run *run, const struct matrix *m, size_t i,
			       const struct pair_outcome *reps, unsigned n)
{
	struct text_output *t = st_;
	const struct plan_item *it = &run->in.plan->items[i];
	struct table_style st = style_of(run, it, m);
	const struct plan_item *last = t->last_header;
	if (!last || last->task != it->task || last->bench_setting != it->bench_setting || last->load_setting != it->load_setting) {
		char mode[128], load_mode[128];
		report_item_words(run, it, mode, load_mode, sizeof(mode));
		fprintf(t->pending, "\n");
		table_header(t->pending, it->task->name, mode, load_mode, &st);
		send_pending(t, run, true);
	}
	t->last_header = it;
	emit_row(t, run, m, i, reps, n, &st);
}

/* A sweep table, on the console and in the logfile. */
static void text_sweep(void *st, struct report_run *run, const struct report_sweep *sw)
{
	struct text_output *t = st;
	sweep_table(t->pending, sw->sim, sw->load, sw->rows, sw->nr, sw->cols, sw->nc, sw->cells, sw->has_deadlines,
		    sw->microseconds);
	send_pending(t, run, true);
	report_flush(run->con, &run->con_errno);
}

/* --histogram: each pair's latency histograms (report/histview.h), from the run's results as
 * the JSON holds them. */
static void histogram_lines(struct text_output *t, struct report_run *run, const struct matrix *m)
{
	json_t *doc = report_results_json(run, m);
	if (!doc || hview_text(t->pending, json_object_get(doc, JK_RESULTS), run->opt->histogram_max_ns) != 0)
		text_message(stderr, "interbench: warning: out of memory for --histogram");
	json_decref(doc);
	send_pending(t, run, true);
}

/* The histograms (--histogram), the decisions between the run's alternatives
 * (report/run_decisions.h), when it has some, and the note of a signal that cut the run short. */
static void text_run_end(void *st, struct report_run *run, const struct matrix *m, int sig)
{
	struct text_output *t = st;
	struct run_decisions rd;
	if (run->opt->histogram)
		histogram_lines(t, run, m);
	if (run_decisions_build(m, &rd) == 0) {
		run_decisions_print(t->pending, m, &rd);
		run_decisions_free(&rd);
		send_pending(t, run, true);
	}
	if (!sig)
		return;
	log_run_interrupted(t->pending, strsignal(sig));
	send_pending(t, run, true);
}

/* The warning of a run whose CPU speed drifted from the calibration (report/logfile.h
 * logfile_drift) and the concurrent-run mark. */
static void end_notes(struct text_output *t, struct report_run *run, const struct report_end *end)
{
	const struct matrix *m = end->drift;
	if (m && calib_drift_off(&m->drift)) {
		const struct calib_drift_check *w = calib_drift_worst(&m->drift);
		char after[160] = "?";
		if (w)
			snprintf(after, sizeof(after), "%s/%s", run->in.plan->items[w->item].task->name,
				 matrix_load_name(m, w->item));
		logfile_drift(t->pending, &m->drift, after, run->in.calib && !run->in.calib->remeasured);
		send_pending(t, run, true);
	}
	if (end->concurrent_pid) {
		logfile_concurrent(t->pending, end->concurrent_pid);
		send_pending(t, run, true);
	}
}

/* The end notes, then the logfile closed; a write error (a full disk) is reported, naming the
 * file.  Returns 0, or -1. */
static int text_close(void *st, struct report_run *run, const struct report_end *end)
{
	struct text_output *t = st;
	int rc = 0;
	if (end->commit)
		end_notes(t, run, end);
	if (t->log) {
		report_flush(t->log, &t->log_errno);
		bool failed = ferror(t->log) != 0;
		if ((fclose(t->log) != 0 && !t->log_errno && (t->log_errno = errno)) || failed || t->log_errno) {
			text_message(stderr, "interbench: write %s: %s", t->log_path, strerror(t->log_errno ? t->log_errno : EIO));
			rc = -1;
		} else
			report_wrote(run, "logfile", t->log_path);
		t->log = NULL;
	}
	if (t->pending)
		fclose(t->pending);
	free(t->pending_text);
	t->pending = NULL;
	t->pending_text = NULL;
	return rc;
}

const struct report_output report_output_text = {
	.name = "text", .state_bytes = sizeof(struct text_output), .open = text_open, .begin = text_begin,
	.item_complete = text_item_complete, .sweep = text_sweep, .run_end = text_run_end, .close = text_close,
};
