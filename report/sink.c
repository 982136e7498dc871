/* The run's report (report/sink.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/text.h"
#include "engine/timeline.h"
#include "report/logformat.h"
#include "report/sink.h"
#include "workloads/workload.h"

/* Flushes f (the console or the logfile), keeping the first write error's errno for the
 * report at the end (stdio keeps only a flag). */
static void flush_out(struct report_sink *s, FILE *f)
{
	int *first = f == s->log ? &s->log_errno : &s->con_errno;
	errno = 0;
	if (fflush(f) != 0 && !*first)
		*first = errno ? errno : EIO;
}

/* Writes what was printed to s->both since the last call to the console (when console) and,
 * unless -c, to the logfile, then empties it: the one place the two outputs are written
 * together. */
static void put(struct report_sink *s, bool console)
{
	off_t len = ftello(s->both);
	if (fflush(s->both) != 0 || len <= 0)
		return;
	if (console)
		fwrite(s->both_text, 1, (size_t)len, s->con);
	if (s->log)
		fwrite(s->both_text, 1, (size_t)len, s->log);
	rewind(s->both);
}

void sink_console_open(struct report_sink *s, const struct options *o, const volatile sig_atomic_t *stop)
{
	s->opt = o;
	s->timeline_fd = -1;
	s->con = conout_open(&s->conout, o->json_path && strcmp(o->json_path, "-") == 0 ? stderr : stdout, stop);
}

void sink_measuring(struct report_sink *s, const char *why)
{
	fprintf(s->con, "Measuring loops_per_ms%s%s%s...\n", why[0] ? " (saved value: " : "", why, why[0] ? ")" : "");
	fflush(s->con);
}

/* The run header's facts (report/logfile.h). */
static void fill_info(struct report_sink *s)
{
	const struct sink_setup *in = &s->in;
	run_info_init(&s->info);
	s->info.audit = in->audit;
	s->info.loops_per_ms = in->load_cfg->loops_per_ms;
	s->info.loops_source = in->loops_source;
	s->info.calib = in->calib;
	s->info.duration_s = s->opt->duration_s;
	s->info.min_time_s = s->opt->min_time_s;
	s->info.max_time_s = s->opt->max_time_s;
	s->info.precision = s->opt->duration_s ? NULL : &s->opt->precision;
	s->info.cpus = in->machine->online_cpus;
	s->info.allowed_cpus = in->machine->allowed_cpus;
	s->info.allowed_cpu_list = in->machine->allowed_cpu_list;
	s->info.cgroup = &in->machine->cgroup;
	s->info.concurrent_pid = in->concurrent_pid;
	s->info.load_threads = in->load_cfg->threads;
	s->info.comment = s->opt->comment;
	options_workload_line(s->opt, s->workload_options, sizeof(s->workload_options));
	s->info.workload_options = s->workload_options;
	s->info.settings = sweep_describe(s->opt, in->bench, in->load, s->settings, sizeof(s->settings));
	s->info.dma_latency_us = s->opt->dma_latency_us;
	s->info.shuffle_seed = s->opt->repeat > 1 ? s->opt->seed : 0;
}

/* Opens --timeline's file and writes its header: written under a temporary name beside it and
 * renamed into place when the run ends (lib/safefile.h: never through a link, a FIFO or another
 * user's file).  Returns 0, or 2 with one line printed. */
static int open_timeline(struct report_sink *s)
{
	unsigned char head[TIMELINE_HEADER_BYTES];
	char err[PATH_MAX + 128];
	s->timeline_fd = -1;
	if (!s->opt->timeline_path)
		return 0;
	timeline_encode_header(head);
	if (safe_out_open(&s->timeline_out, s->opt->timeline_path, 0, err, sizeof(err)) != 0) {
		text_message(stderr, "interbench: --timeline: %s (accepted: a new file or a regular file of your own)", err);
		return 2;
	}
	if (fcntl(s->timeline_out.fd, F_SETFL, O_APPEND) != 0 || safe_write_all(s->timeline_out.fd, head, sizeof(head)) != 0) {
		text_message(stderr, "interbench: --timeline %s: write: %s", s->opt->timeline_path, strerror(errno));
		safe_out_abort(&s->timeline_out);
		return 2;
	}
	s->timeline_fd = s->timeline_out.fd;
	return 0;
}

/* Renames --timeline's file into place (commit) or removes it (a run refused before any pair).
 * Returns 0, or -1 with the reason printed. */
static int close_timeline(struct report_sink *s, bool commit)
{
	char err[PATH_MAX + 128];
	if (s->timeline_fd < 0)
		return 0;
	s->timeline_fd = -1;
	if (!commit) {
		safe_out_abort(&s->timeline_out);
		return 0;
	}
	if (safe_out_commit(&s->timeline_out, err, sizeof(err)) == 0)
		return 0;
	text_message(stderr, "interbench: --timeline: %s", err);
	return -1;
}

/* One console line naming the settings the audit found known to hurt interactivity (the
 * logfile and the JSON have the whole audit). */
static void audit_note(const struct report_sink *s)
{
	const struct audit *a = s->in.audit;
	char names[512] = "";
	size_t used = 0;
	for (unsigned i = 0; i < a->n && used < sizeof(names); i++)
		if (a->item[i].hint[0]) {
			int w = snprintf(names + used, sizeof(names) - used, "%s%s", used ? ", " : "", a->item[i].name);
			used += w > 0 ? (size_t)w : 0;
		}
	if (used)
		fprintf(s->con, "Audit: known to hurt interactivity here: %s (interbench --audit says why)\n", names);
}

/* Opens the logfile (unless -c) and the --json target.  Returns 0, or 2 when one cannot be
 * used (reason printed, nothing left open). */
static int open_files(struct report_sink *s)
{
	char err[PATH_MAX + 256], note[2 * PATH_MAX + 512];
	if (s->opt->json_path && report_target_open(&s->json_target, s->opt->json_path, err, sizeof(err)) != 0) {
		text_message(stderr, "interbench: --json: %s (accepted: a new file or a regular file of your own, a FIFO "
			     "or device with a reader, or - for stdout)", err);
		return 2;
	}
	s->json_open = s->opt->json_path != NULL;
	if (s->opt->console_only)
		return 0;
	s->log = logfile_open(&s->info, s->log_path, sizeof(s->log_path), note, sizeof(note), err, sizeof(err));
	if (!s->log) {
		text_message(stderr, "interbench: logfile: %s (accepted: a regular file, or -c for none)", err);
		report_target_abort(&s->json_target);
		s->json_open = false;
		return 2;
	}
	if (note[0])
		text_message(stderr, "interbench: logfile: %s", note);
	return 0;
}

/* "Pattern of ProAudio: period 1.333 ms, ...": each task of the plan as its options resolved it
 * (sim_pattern_text), once, in plan order. */
static void pattern_lines(struct report_sink *s)
{
	const struct plan *plan = s->in.plan;
	for (size_t i = 0; i < plan->n; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = plan->items[j].sim == plan->items[i].sim;
		if (seen)
			continue;
		char text[512];
		sim_pattern_text(&plan->items[i].spec, text, sizeof(text));
		fprintf(s->both, LOG_PATTERN "%s: %s\n", plan->items[i].sim->name, text);
		put(s, true);
	}
}

/* Load li's header line into line (len bytes): empty when the plan does not use it or it has
 * nothing to say.  Memload's policy may name a cgroup directory: len of PATH_MAX + 256. */
static void load_line(const struct report_sink *s, unsigned li, char *line, size_t len)
{
	const struct load_ops *ops = workload_table[li]->load;
	line[0] = '\0';
	if (ops && ops->describe && plan_uses(s->in.plan, li))
		ops->describe(s->in.load_cfg, options_wl_opts(s->opt, li), line, len);
}

/* The loads' header lines, each said once: a line an earlier load of the run gave already (the
 * disk loads' note on a file system in memory) is not repeated. */
static void load_lines(struct report_sink *s)
{
	char line[PATH_MAX + 256], earlier[PATH_MAX + 256];
	for (unsigned li = 0; li < workload_count; li++) {
		load_line(s, li, line, sizeof(line));
		bool said = !line[0];
		for (unsigned lj = 0; lj < li && !said; lj++) {
			load_line(s, lj, earlier, sizeof(earlier));
			said = strcmp(line, earlier) == 0;
		}
		if (said)
			continue;
		fprintf(s->both, "%s\n", line);
		put(s, true);
	}
}

/* The run header on both outputs and the JSON document started; the loads' descriptions and
 * the tasks' patterns. */
static void open_header(struct report_sink *s)
{
	if (s->log) {
		logfile_header(s->log, &s->info);
		logfile_audit(s->log, s->in.audit);
	}
	if (s->opt->json_path || !s->opt->console_only) {
		s->doc = report_new(s->in.machine, &s->info, s->opt);
		if (!s->doc)
			text_message(stderr, "interbench: warning: out of memory for the JSON results");
	}
	logfile_header(s->con, &s->info);
	audit_note(s);
	load_lines(s);
	pattern_lines(s);
}

int sink_open(struct report_sink *s, const struct sink_setup *in)
{
	s->in = *in;
	s->both = open_memstream(&s->both_text, &s->both_size);
	if (!s->both) {
		text_message(stderr, "interbench: open_memstream: %s", strerror(errno));
		return -1;
	}
	fill_info(s);
	int rc = open_timeline(s);
	if (rc == 0 && (rc = open_files(s)) != 0)
		close_timeline(s, false);
	if (rc != 0) {
		fclose(s->both);
		free(s->both_text);
		return rc;
	}
	open_header(s);
	return 0;
}

/* Before the run: what each task named will do, and why one runs other than asked. */
static void notes_before_run(void *arg, const struct matrix *m)
{
	struct report_sink *s = arg;
	const struct sweep_side *bench = s->in.bench;
	bool realtime = false, deadline = false;
	(void)m;
	for (unsigned b = 0; b < bench->n; b++) {
		realtime |= sched_kind_realtime(bench->s[b].kind);
		deadline |= bench->s[b].kind == SP_DEADLINE;
	}
	for (unsigned i = 0; i < workload_count; i++) {
		char note[256];
		struct sim_spec spec;
		const struct workload *w = workload_table[i];
		if (!w->sim || !w->help || !plan_task_named(s->opt, i))
			continue;
		if (w->sim->describe) {
			w->sim->describe(s->opt->duration_s, realtime, note, sizeof(note));
			if (note[0])
				fprintf(s->con, "%s\n", note);
		}
		workload_sim_spec(w, options_wl_opts(s->opt, i), &spec);
		if ((w->flags & WL_PREFERS_FIFO) && !realtime && bench->n == 1 && !s->in.rt_ok)
			fprintf(s->con, "Note: %s runs at normal priority: SCHED_FIFO is not available here (see the "
				"warning above).\n", w->name);
		if (deadline && plan_supported(s->opt, i) && !sweep_deadline_fits(&spec))
			fprintf(s->con, "Note: %s is not benchmarked under SCHED_DEADLINE: its work per period is not "
				"fixed, so no reservation fits it.\n", w->name);
	}
}

/* The table words of item it's bench and load settings ("nice -10", "real time", ""). */
static void item_words(const struct report_sink *s, const struct plan_item *it, char *bench, char *load, size_t len)
{
	sched_setting_words(&it->bench_sched, bench, len);
	sched_setting_words(&s->in.load->s[it->l], load, len);
}

/* Warns once when the bench could not write the pair's periods to --timeline, or had more
 * than it keeps. */
static void timeline_note(struct report_sink *s, const struct pair_outcome *po)
{
	if (s->timeline_fd < 0 || s->timeline_warned || (!po->bench.timeline_error && !po->bench.timeline_truncated))
		return;
	if (po->bench.timeline_error)
		text_message(stderr, "interbench: warning: --timeline %s: write: %s; the timeline is incomplete",
			s->opt->timeline_path, strerror(po->bench.timeline_error));
	else
		text_message(stderr, "interbench: warning: --timeline %s: a pair had more than %u periods; the rest are "
			"not recorded", s->opt->timeline_path, TIMELINE_MAX_RECORDS);
	s->timeline_warned = true;
}

/* A run of a pair: its record is in the matrix's store; a --timeline that lost records is
 * said at once. */
static void pair_measured(void *arg, const struct matrix *m, size_t i, unsigned repeat, const struct pair_outcome *po,
			  int64_t timeline_pair)
{
	(void)m, (void)i, (void)repeat, (void)timeline_pair;
	timeline_note(arg, po);
}

/* Run `repeat` of plan item i in the JSON results: the item's words and settings beside its
 * record.  Returns report_add's value. */
static int result_json(struct report_sink *s, const struct matrix *m, size_t i, unsigned repeat)
{
	const struct plan_item *it = &s->in.plan->items[i];
	const struct workload *lw = workload_table[it->li];
	char mode[64], load_mode[64];
	item_words(s, it, mode, load_mode, sizeof(mode));
	struct report_entry e = {
		.simulation = it->sim->name, .load = lw->name, .mode = mode, .load_mode = load_mode,
		.bench_sched = &it->bench_sched, .load_sched = &s->in.load->s[it->l], .repeat = repeat + 1,
		.has_deadlines = it->spec.desc->has_deadlines, .spec = &it->spec, .load_metrics = lw->metrics,
		.load_storage = &m->loads[it->li].ctx.storage, .explain = s->opt->explain && it->spec.desc->has_deadlines,
		.rec = &matrix_reps(m, i)[repeat],
	};
	return report_add(s->doc, &e);
}

/* The JSON results, from the matrix's records: round by round, each in plan order whatever
 * order the round ran its pairs in (run/matrix.h), every run that ran (a signal stops a round
 * part way). */
static void results_json(struct report_sink *s, const struct matrix *m)
{
	for (unsigned r = 0; s->doc && r < m->p.repeats; r++)
		for (size_t i = 0; i < s->in.plan->n; i++)
			if (matrix_reps(m, i)[r].ran && result_json(s, m, i, r) != 0)
				text_message(stderr, "interbench: warning: out of memory for the JSON results");
}

static struct table_style style_of(const struct report_sink *s, const struct plan_item *it)
{
	return (struct table_style){ .has_deadlines = it->spec.desc->has_deadlines,
				     .microseconds = sched_kind_realtime(it->bench_sched.kind),
				     .buffered = it->spec.buffer_periods > 0, .measures = it->spec.desc->measures,
				     .verbose = s->opt->verbose, .repeats = s->opt->repeat };
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

/* The figures st left unknown and when each would have been known, for its window line:
 * "p99 would need ~412 s, met ~80 s, past the last look at 60 s", or "" when none. */
static void unknown_text(const struct pair_stop *st, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (unsigned f = 0; f < SIM_JUDGED && at < len; f++) {
		if (!(st->verdict.unknown & (1u << f)))
			continue;
		double s = st->verdict.needed_s[f];
		char need[32];
		if (isfinite(s) && s >= 86400)
			snprintf(need, sizeof(need), "over a day");
		else if (isfinite(s))
			snprintf(need, sizeof(need), "~%.0f s", s);
		else
			snprintf(need, sizeof(need), "more samples");
		int n = snprintf(buf + at, len - at, "%s%s%s %s", at ? ", " : "", sim_judged_name(f),
				 at ? "" : " would need", need);
		at += n > 0 ? (size_t)n : 0;
	}
	if (at && at < len)
		snprintf(buf + at, len - at, ", past the last look at %.4g s", st->last_look_s);
}

/* The window lines of an adaptive row's measured repeats (log_row_window). */
static void window_notes(struct report_sink *s, const struct pair_outcome *reps, unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		const struct pair_stop *st = &reps[k].stop;
		if (!reps[k].ok || !st->looks || st->reason == STOP_INTERRUPTED)
			continue;
		char unknown[200];
		unknown_text(st, unknown, sizeof(unknown));
		log_row_window(s->both, n > 1 ? k + 1 : 0, reps[k].window_ns / 1e9, st->look, st->looks, unknown);
	}
}

/* --explain's block for each measured repeat of reps[0..n), its tables sorted for the
 * logfile (explain_summary_sort on a copy: the record keeps them as measured). */
static void why_notes(struct report_sink *s, const char *load, const struct pair_outcome *reps, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		if (reps[k].ok) {
			struct explain_summary why = reps[k].bench.explain;
			explain_summary_sort(&why);
			logfile_why(s->both, &why, load, n > 1 ? k + 1 : 0, reps[k].window_ns);
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
static void row_notes(struct report_sink *s, const struct load_ctx *lctx, const struct pair_outcome *reps, unsigned n,
		      bool explained)
{
	const char *load = lctx->name;
	unsigned disturbed;
	const struct disturbance *d = worst_disturbance(reps, n, &disturbed);
	for (unsigned k = 0; k < n; k++) {
		char work[200];
		load_work_text(lctx, &reps[k], work, sizeof(work));
		if (work[0])
			log_load_work(s->both, work, n > 1);
	}
	put(s, s->opt->verbose);
	window_notes(s, reps, n);
	put(s, s->opt->verbose || any_unknown(reps, n));
	for (unsigned k = 0; k < n; k++)
		if (reps[k].ok && reps[k].interrupted)
			log_row_interrupted(s->both, reps[k].window_ns / 1e9,
					    s->opt->duration_s ? s->opt->duration_s : s->opt->max_time_s, n > 1);
	if (d)
		log_row_disturbed(s->both, d->outside_cpu_ppm / 1e4, d->steal_ppm / 1e4, disturbed, n);
	for (unsigned k = 0; k < n; k++) {
		const struct load_activity *a = &reps[k].load_activity;
		if (reps[k].ok && load_activity_stopped(a))
			log_row_load_stopped(s->both, load, n > 1 ? k + 1 : 0, a->stopped_looks, a->looks,
					     load_activity_cpu_ns(a, sysconf(_SC_CLK_TCK)) / 1e9, reps[k].window_ns / 1e9);
	}
	put(s, true);
	if (explained)
		why_notes(s, load, reps, n);
	put(s, s->opt->verbose);
}

/* One row of load lctx: a single run (n == 1) or the medians of several.  The row keeps
 * interbench 0.31's fields, with no mark after them: what disturbed it, a figure left unknown
 * and a partial window are said on the lines under it (row_notes). */
static void emit_row(struct report_sink *s, const struct load_ctx *lctx, const struct pair_outcome *reps, unsigned n,
		     const struct table_style *st)
{
	const char *load = lctx->name;
	struct pair_summary ok[n], med;
	unsigned nok = 0;
	double lo = 0, hi = 0;
	for (unsigned k = 0; k < n; k++)  /* a partial repeat stays out of the medians */
		if (reps[k].ok && !(reps[k].interrupted && n > 1))
			ok[nok++] = reps[k].bench.summary;
	if (nok > 1 || (nok == 1 && n > 1))
		summary_median(ok, nok, &med, &lo, &hi);
	if (nok == 0)
		table_row_failed(s->both, load, reps[0].ok ? "interrupted before a whole repeat" : reps[0].why);
	else if (n == 1)
		table_row(s->both, load, &ok[0], st);
	else
		table_row_repeats(s->both, load, &med, st, lo, hi, n - nok);
	if (nok && n == 1 && st->verbose)
		table_row_intervals(s->both, &ok[0], st);
	if (nok && st->verbose && st->measures)
		table_row_task_lines(s->both, n == 1 ? &ok[0] : &med, st);
	put(s, true);
	row_notes(s, lctx, reps, n, s->opt->explain && st->has_deadlines);
	flush_out(s, s->con);
	if (s->log)
		flush_out(s, s->log);
}

/* Prints plan item i's row (and its table's header before the first row of a simulation). */
static void item_complete(void *arg, const struct matrix *m, size_t i, const struct pair_outcome *reps, unsigned n)
{
	struct report_sink *s = arg;
	const struct plan_item *it = &s->in.plan->items[i];
	struct table_style st = style_of(s, it);
	const struct plan_item *last = s->last_header;
	if (!last || last->sim != it->sim || last->b != it->b || last->l != it->l) {
		char mode[64], load_mode[64];
		item_words(s, it, mode, load_mode, sizeof(mode));
		fprintf(s->both, "\n");
		table_header(s->both, it->sim->name, mode, load_mode, &st);
		put(s, true);
	}
	s->last_header = it;
	emit_row(s, &m->loads[it->li].ctx, reps, n, &st);
}

static void round_done(void *arg, const struct matrix *m, unsigned round, bool interrupted)
{
	struct report_sink *s = arg;
	if (m->p.repeats > 1)
		fprintf(s->con, "Round %u/%u done (%zu pairs)%s\n", round + 1, m->p.repeats, m->p.plan->n,
			interrupted ? ", interrupted" : "");
	flush_out(s, s->con);
}

/* The cell of plan item k: the medians of its measured repeats. */
static struct sweep_cell sweep_cell_of(const struct matrix *m, size_t k)
{
	const struct pair_outcome *reps = matrix_reps(m, k);
	struct pair_summary ok[m->p.repeats], med;
	unsigned n = 0;
	double lo, hi;
	for (unsigned j = 0; j < m->p.repeats; j++)
		if (reps[j].ran && reps[j].ok && !reps[j].interrupted)
			ok[n++] = reps[j].bench.summary;
	if (n == 0)
		return (struct sweep_cell){ .measured = false };
	summary_median(ok, n, &med, &lo, &hi);
	return (struct sweep_cell){ .measured = true, .met_pct = med.deadlines_met_pct, .has_p99 = med.samples > 0,
				    .p99_ns = med.sched_p99_ns };
}

/* The sweep summary of task sim against load li, on the console, in the logfile and in the
 * JSON: bench settings as rows, load settings as columns. */
static void emit_sweep(struct report_sink *s, const struct matrix *m, const struct plan_item *first)
{
	const struct sweep_side *bench = s->in.bench, *load = s->in.load;
	unsigned nb = bench->n, nl = load->n;
	const char *load_name = workload_table[first->li]->name;
	struct sweep_cell *cells = calloc((size_t)nb * nl, sizeof(*cells));
	char (*labels)[48] = calloc(nb + nl, sizeof(*labels));
	const char **rows = calloc(nb + nl, sizeof(*rows));
	if (!cells || !labels || !rows)
		goto out;
	bool us = false;
	for (size_t k = 0; k < s->in.plan->n; k++) {
		const struct plan_item *it = &s->in.plan->items[k];
		if (it->sim == first->sim && it->li == first->li) {
			cells[it->b * nl + it->l] = sweep_cell_of(m, k);
			us |= sched_kind_realtime(bench->s[it->b].kind);
		}
	}
	for (unsigned i = 0; i < nb + nl; i++)
		rows[i] = sched_setting_label(i < nb ? &bench->s[i] : &load->s[i - nb], labels[i], sizeof(labels[i]));
	sweep_table(s->both, first->sim->name, load_name, rows, nb, rows + nb, nl, cells,
		    first->spec.desc->has_deadlines, us);
	put(s, true);
	if (s->doc && report_add_sweep(s->doc, first->sim->name, load_name, rows, nb, rows + nb, nl, cells) != 0)
		text_message(stderr, "interbench: warning: out of memory for the JSON results");
out:
	free(cells);
	free(labels);
	free(rows);
}

/* After a sweep, one summary per task and load (run/sweep.h). */
static void emit_sweeps(struct report_sink *s, const struct matrix *m)
{
	const struct plan *plan = s->in.plan;
	if (!sweep_is_sweep(s->in.bench, s->in.load))
		return;
	for (size_t k = 0; k < plan->n; k++) {
		bool seen = false;
		for (size_t j = 0; j < k && !seen; j++)
			seen = plan->items[j].sim == plan->items[k].sim && plan->items[j].li == plan->items[k].li;
		if (!seen)
			emit_sweep(s, m, &plan->items[k]);
	}
	flush_out(s, s->con);
}

/* The run ended: the sweep tables, then the note of a signal that cut it short. */
static void run_end(void *arg, const struct matrix *m, int sig)
{
	struct report_sink *s = arg;
	results_json(s, m);
	emit_sweeps(s, m);
	if (!sig)
		return;
	log_run_interrupted(s->both, strsignal(sig));
	put(s, true);
	if (s->doc)
		report_mark_interrupted(s->doc, sig);
}

struct matrix_sink sink_matrix(struct report_sink *s)
{
	return (struct matrix_sink){ .arg = s, .run_begin = notes_before_run, .pair_measured = pair_measured,
				     .item_complete = item_complete, .round_done = round_done, .run_end = run_end };
}

/* Writes the JSON document to --json and, unless -c, to a new "<release>-<datestamp>.json"
 * (or -2, -3... when an earlier run of the same minute has that name).
 * Returns 0, or -1 when a write failed (reported). */
static int write_json(struct report_sink *s)
{
	char err[512], stem[96], path[128];
	int rc = 0;
	if (!s->doc) {
		if (s->json_open)
			report_target_abort(&s->json_target);
		s->json_open = false;
		return 0;
	}
	if (s->json_open && report_target_write(&s->json_target, s->doc, err, sizeof(err)) != 0) {
		text_message(stderr, "interbench: --json: %s", err);
		rc = -1;
	}
	s->json_open = false;
	snprintf(stem, sizeof(stem), "%s-%s", s->info.kernel_release, s->info.datestamp);
	if (!s->opt->console_only && report_create(s->doc, stem, path, sizeof(path), err, sizeof(err)) != 0) {
		text_message(stderr, "interbench: %s", err);
		rc = -1;
	}
	return rc;
}

/* Closes the logfile, writes the JSON and drains the console; a write error (a full disk) is
 * reported, naming the file.  Returns 0, or -1. */
static int close_outputs(struct report_sink *s)
{
	int rc = 0;
	if (s->log) {
		flush_out(s, s->log);
		bool failed = ferror(s->log) != 0;
		if ((fclose(s->log) != 0 && !s->log_errno && (s->log_errno = errno)) || failed || s->log_errno) {
			text_message(stderr, "interbench: write %s: %s", s->log_path, strerror(s->log_errno ? s->log_errno : EIO));
			rc = -1;
		}
		s->log = NULL;
	}
	if (write_json(s) != 0)
		rc = -1;
	flush_out(s, s->con);
	if (conout_finish(&s->conout) != 0 && !s->con_errno)  /* the results are written: now wait, boundedly */
		s->con_errno = errno;
	if (ferror(s->con) || s->con_errno) {
		text_message(stderr, "interbench: write to the console: %s", strerror(s->con_errno ? s->con_errno : EIO));
		rc = -1;
	}
	return rc;
}

void sink_calibration_drift(struct report_sink *s, const struct matrix *m)
{
	const struct calib_drift *d = &m->drift;
	bool off = calib_drift_off(d);
	if (off) {
		const struct calib_drift_check *w = calib_drift_worst(d);
		char after[160] = "?";
		if (w)
			snprintf(after, sizeof(after), "%s/%s", s->in.plan->items[w->item].sim->name,
				 matrix_load_name(m, w->item));
		logfile_drift(s->both, d, after, s->in.calib && !s->in.calib->remeasured);
		put(s, true);
	}
	size_t n = s->in.plan->n ? s->in.plan->n : 1;
	const char *sims[n], *loads[n];
	for (size_t i = 0; i < s->in.plan->n; i++) {
		sims[i] = s->in.plan->items[i].sim->name;
		loads[i] = matrix_load_name(m, i);
	}
	if (s->doc && report_set_drift(s->doc, d, off, sims, loads) != 0)
		text_message(stderr, "interbench: warning: out of memory for the JSON results");
}

int sink_close(struct report_sink *s, long concurrent_pid)
{
	if (concurrent_pid) {
		logfile_concurrent(s->both, concurrent_pid);
		put(s, true);
		if (s->doc)
			report_set_concurrent(s->doc, concurrent_pid);
	}
	int rc = close_outputs(s);
	if (close_timeline(s, true) != 0)
		rc = -1;
	json_decref(s->doc);
	s->doc = NULL;
	fclose(s->both);
	free(s->both_text);
	return rc;
}
