/* The run's report (report/sink.h). */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/text.h"
#include "lib/timeutil.h"
#include "report/figures.h"
#include "report/sink.h"
#include "report/run_decisions.h"
#include "workloads/workload.h"

void sink_console_open(struct report_sink *s, const struct options *o, const volatile sig_atomic_t *stop)
{
	s->run.opt = o;
	s->run.timeline_fd = -1;
	s->run.frame_log_fd = -1;
	s->run.con = conout_open(&s->conout, o->json_path && strcmp(o->json_path, "-") == 0 ? stderr : stdout, stop);
	if (!s->outputs)
		s->outputs = report_outputs;
}

void sink_measuring(struct report_sink *s, const char *why)
{
	fprintf(s->run.con, "Measuring loops_per_ms%s%s%s...\n", why[0] ? " (saved value: " : "", why, why[0] ? ")" : "");
	fflush(s->run.con);
}

/* The run header's facts (report/runinfo.h). */
static void fill_info(struct report_run *run)
{
	const struct sink_setup *in = &run->in;
	const struct options *o = run->opt;
	struct run_info *info = &run->info;
	run_info_init(info);
	info->audit = in->audit;
	info->loops_per_ms = in->load_cfg->loops_per_ms;
	info->loops_source = in->loops_source;
	info->calib = in->calib;
	bool adaptive = o->window == RUN_WINDOW_ADAPTIVE, budget = o->window == RUN_WINDOW_BUDGET;
	info->duration_s = adaptive ? 0 : o->duration_s;
	info->min_time_s = adaptive ? o->min_time_s : 0;
	info->max_time_s = adaptive ? o->max_time_s : 0;
	info->precision = o->window == RUN_WINDOW_FIXED ? NULL : &o->precision;
	info->budget_s = (unsigned)(matrix_budget_ns(o, in->plan) / NS_PER_S);
	info->subrun_s = budget ? options_window_s(o) : 0;
	info->min_subruns = budget ? MATRIX_BUDGET_MIN_SUBRUNS : 0;
	info->max_subruns = budget ? o->repeat : 0;
	info->cpus = in->machine->online_cpus;
	info->allowed_cpus = in->machine->allowed_cpus;
	info->allowed_cpu_list = in->machine->allowed_cpu_list;
	info->cgroup = &in->machine->cgroup;
	info->concurrent_pid = in->concurrent_pid;
	info->cgroups = in->cgroups;
	info->load_threads = in->load_cfg->threads;
	info->comment = o->comment;
	options_workload_line(o, run->workload_options, sizeof(run->workload_options));
	info->workload_options = run->workload_options;
	info->settings = sweep_describe(o, in->bench, in->load, run->settings, sizeof(run->settings));
	info->dma_latency_us = o->dma_latency_us;
	info->shuffle_seed = o->repeat > 1 ? o->seed : 0;
}

/* Frees the outputs' states (sink_open's). */
static void free_states(struct report_sink *s)
{
	for (size_t k = 0; k < REPORT_OUTPUTS_MAX; k++) {
		void *state = s->state[k];
		s->state[k] = NULL;  /* before the free: a signal now finds no state to ask */
		atomic_signal_fence(memory_order_seq_cst);
		free(state);
	}
}

/* Gives each output its zeroed state.  Returns 0, or -1 when out of memory (said). */
static int alloc_states(struct report_sink *s)
{
	for (size_t k = 0; s->outputs[k]; k++) {
		size_t bytes = s->outputs[k]->state_bytes ? s->outputs[k]->state_bytes : 1;
		if (k == REPORT_OUTPUTS_MAX || !(s->state[k] = calloc(1, bytes))) {
			text_message(stderr, "interbench: calloc: %s",
				     k == REPORT_OUTPUTS_MAX ? "more outputs than REPORT_OUTPUTS_MAX" : strerror(errno));
			free_states(s);
			return -1;
		}
	}
	return 0;
}

/* Closes outputs[0..n) in the reverse order, as end says.  Returns 0, or -1 when one failed. */
static int close_outputs(struct report_sink *s, size_t n, const struct report_end *end)
{
	int rc = 0;
	while (n--)
		if (s->outputs[n]->close && s->outputs[n]->close(s->state[n], &s->run, end) != 0)
			rc = -1;
	return rc;
}

/* Opens the outputs in list order; when one cannot, closes those before it (commit false).
 * Returns 0, or the refusing open's value. */
static int open_outputs(struct report_sink *s)
{
	for (size_t k = 0; s->outputs[k]; k++) {
		int rc = s->outputs[k]->open ? s->outputs[k]->open(s->state[k], &s->run) : 0;
		if (rc != 0) {
			close_outputs(s, k, &(struct report_end){ .commit = false });
			return rc;
		}
	}
	return 0;
}

int sink_open(struct report_sink *s, const struct sink_setup *in)
{
	s->run.in = *in;
	fill_info(&s->run);
	if (alloc_states(s) != 0)
		return -1;
	int rc = open_outputs(s);
	if (rc != 0) {
		free_states(s);
		return rc;
	}
	for (size_t k = 0; s->outputs[k]; k++)
		if (s->outputs[k]->begin)
			s->outputs[k]->begin(s->state[k], &s->run);
	return 0;
}

static void notes_before_run(void *arg, const struct matrix *m)
{
	const struct report_run *run = &((struct report_sink *)arg)->run;
	const struct sweep_side *bench = run->in.bench;
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
		if (!w->sim || !w->help || !plan_task_named(run->opt, i))
			continue;
		if (w->sim->describe) {
			w->sim->describe(run->opt->window == RUN_WINDOW_FIXED ? run->opt->duration_s : 0, realtime, note, sizeof(note));
			if (note[0])
				fprintf(run->con, "%s\n", note);
		}
		workload_sim_spec(w, options_wl_opts(run->opt, i), &spec);
		if ((w->flags & WL_PREFERS_FIFO) && !realtime && bench->n == 1 && !run->in.rt_ok)
			fprintf(run->con, "Note: %s runs at normal priority: SCHED_FIFO is not available here (see the "
				"warning above).\n", w->name);
		if (deadline && plan_supported(run->opt, i) && !sweep_deadline_fits(&spec))
			fprintf(run->con, "Note: %s is not benchmarked under SCHED_DEADLINE: its work per period is not "
				"fixed, so no reservation fits it.\n", w->name);
	}
}


/* A run of a pair: its record is in the matrix's store. */
static void pair_measured(void *arg, const struct matrix *m, size_t i, unsigned repeat, const struct pair_outcome *po,
			  int64_t timeline_pair)
{
	struct report_sink *s = arg;
	(void)timeline_pair;
	for (size_t k = 0; s->outputs[k]; k++)
		if (s->outputs[k]->pair_measured)
			s->outputs[k]->pair_measured(s->state[k], &s->run, m, i, repeat, po);
}

/* Plan item i's repeats ran: its row. */
static void item_complete(void *arg, const struct matrix *m, size_t i, const struct pair_outcome *reps, unsigned n)
{
	struct report_sink *s = arg;
	for (size_t k = 0; s->outputs[k]; k++)
		if (s->outputs[k]->item_complete)
			s->outputs[k]->item_complete(s->state[k], &s->run, m, i, reps, n);
}

/* A round of a --repeat or --budget run ended: a progress line (run/progress.h progress_note:
 * on stderr, nothing with -q, never with the results). */
static void round_done(void *arg, const struct matrix *m, unsigned round, bool interrupted)
{
	struct report_sink *s = arg;
	char line[400], undecided[160];
	size_t settled = 0;
	for (size_t i = 0; m->settled && i < m->p.plan->n; i++)
		settled += m->settled[i];
	if (m->p.repeats > 1 && !m->p.budget_ns)
		snprintf(line, sizeof(line), "Round %u/%u done (%zu pairs)%s", round + 1, m->p.repeats, m->p.plan->n,
			 interrupted ? ", interrupted" : "");
	else if (m->p.budget_ns) {
		matrix_undecided(m, undecided, sizeof(undecided));
		snprintf(line, sizeof(line), "Round %u done: %zu of %zu pairs decided or known%s%s%s", round + 1, settled,
			 m->p.plan->n, undecided[0] ? "; " : "", undecided, interrupted ? ", interrupted" : "");
	} else
		return;
	report_flush(s->run.con, &s->run.con_errno);   /* the rows before it first, where both are seen */
	progress_note(&m->progress, s->run.opt->quiet, line);
}

/* A --budget run's question after a round: whether item needs no more sub-runs. */
static bool item_settled(void *arg, const struct matrix *m, size_t item, char *why, size_t whylen)
{
	(void)arg;
	return run_decisions_settled(m, item, why, whylen);
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

/* The sweep summary of task sim against load li, to every output: bench settings as rows, load
 * settings as columns. */
static void emit_sweep(struct report_sink *s, const struct matrix *m, const struct plan_item *first)
{
	const struct sweep_side *bench = s->run.in.bench, *load = s->run.in.load;
	unsigned nb = bench->n, nl = load->n;
	struct sweep_cell *cells = calloc((size_t)nb * nl, sizeof(*cells));
	char (*labels)[128] = calloc(nb + nl, sizeof(*labels));
	const char **rows = calloc(nb + nl, sizeof(*rows));
	if (!cells || !labels || !rows)
		goto out;
	bool us = false;
	for (size_t k = 0; k < s->run.in.plan->n; k++) {
		const struct plan_item *it = &s->run.in.plan->items[k];
		if (it->task == first->task && it->load_index == first->load_index) {
			cells[it->bench_setting * nl + it->load_setting] = sweep_cell_of(m, k);
			us |= sched_kind_realtime(bench->s[it->bench_setting].kind);
		}
	}
	for (unsigned i = 0; i < nb + nl; i++)
		rows[i] = sched_setting_label(i < nb ? &bench->s[i] : &load->s[i - nb], labels[i], sizeof(labels[i]));
	struct report_sweep sw = { .sim = first->task->name, .load = workload_table[first->load_index]->name, .rows = rows,
				   .nr = nb, .cols = rows + nb, .nc = nl, .cells = cells,
				   .has_deadlines = first->spec.desc->has_deadlines, .microseconds = us };
	for (size_t k = 0; s->outputs[k]; k++)
		if (s->outputs[k]->sweep)
			s->outputs[k]->sweep(s->state[k], &s->run, &sw);
out:
	free(cells);
	free(labels);
	free(rows);
}

/* After a sweep, one summary per task and load (run/sweep.h). */
static void emit_sweeps(struct report_sink *s, const struct matrix *m)
{
	const struct plan *plan = s->run.in.plan;
	if (!sweep_is_sweep(s->run.in.bench, s->run.in.load))
		return;
	for (size_t k = 0; k < plan->n; k++) {
		bool seen = false;
		for (size_t j = 0; j < k && !seen; j++)
			seen = plan->items[j].task == plan->items[k].task && plan->items[j].load_index == plan->items[k].load_index;
		if (!seen)
			emit_sweep(s, m, &plan->items[k]);
	}
}

/* The run ended: the sweep summaries, then each output's end (the signal that cut it short). */
static void run_end(void *arg, const struct matrix *m, int sig)
{
	struct report_sink *s = arg;
	emit_sweeps(s, m);
	if (s->run.in.fail_if && failif_judge(s->run.in.fail_if, m, &s->run.fail_verdict) != 0)
		text_message(stderr, "interbench: --fail-if: out of memory: no verdict (the run fails)");
	for (size_t k = 0; s->outputs[k]; k++)
		if (s->outputs[k]->run_end)
			s->outputs[k]->run_end(s->state[k], &s->run, m, sig);
}

struct matrix_sink sink_matrix(struct report_sink *s)
{
	return (struct matrix_sink){ .arg = s, .run_begin = notes_before_run, .pair_measured = pair_measured,
				     .item_complete = item_complete, .round_done = round_done, .run_end = run_end,
				     .item_settled = item_settled };
}

/* The closing line on stderr naming the files the run wrote ("interbench: wrote
 * /root/6.18.log (logfile), /root/6.18-202611271459.json (JSON)"), unless -q, as a file's
 * name the user did not choose would otherwise go unseen. */
static void say_wrote(const struct report_run *run)
{
	char line[REPORT_WROTE_MAX * (PATH_MAX + 34)];
	size_t used = 0;
	if (run->opt->quiet || !run->n_wrote)
		return;
	for (unsigned i = 0; i < run->n_wrote && used < sizeof(line); i++) {
		int w = snprintf(line + used, sizeof(line) - used, "%s%s", i ? ", " : "", run->wrote[i]);
		used += w > 0 ? (size_t)w : 0;
	}
	text_message(stderr, "interbench: wrote %s", line);
}

int sink_close(struct report_sink *s, const struct matrix *m, long concurrent_pid)
{
	size_t n = 0;
	while (s->outputs[n])
		n++;
	struct report_end end = { .commit = true, .drift = m && m->drift.checks ? m : NULL,
				  .concurrent_pid = concurrent_pid };
	int rc = close_outputs(s, n, &end);
	free_states(s);
	struct report_run *run = &s->run;
	report_flush(run->con, &run->con_errno);
	if (conout_finish(&s->conout) != 0 && !run->con_errno)  /* the results are written: now wait, boundedly */
		run->con_errno = errno;
	if (ferror(run->con) || run->con_errno) {
		text_message(stderr, "interbench: write to the console: %s", strerror(run->con_errno ? run->con_errno : EIO));
		rc = -1;
	}
	if (run->fail_verdict.checks && m)  /* after the tables, which the console has taken */
		failif_print(stderr, run->in.fail_if, m, &run->fail_verdict);
	failif_free(&run->fail_verdict);
	say_wrote(run);
	return rc;
}

bool sink_fail_if_failed(const struct report_sink *s)
{
	return s->run.in.fail_if && (s->run.fail_verdict.failed || !s->run.fail_verdict.items);
}

void sink_unlink_signal_safe(const struct report_sink *s)
{
	for (size_t k = 0; s->outputs && s->outputs[k] && k < REPORT_OUTPUTS_MAX; k++)
		if (s->state[k] && s->outputs[k]->scratch)
			safe_out_unlink_signal_safe(s->outputs[k]->scratch(s->state[k]));
}
