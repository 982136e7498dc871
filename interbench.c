/* interbench: the Linux interactivity benchmark.  Command line and orchestration: parse the
 * options, get loops_per_ms, then run every (simulated task, load) pair in its own pair of
 * processes and report each as a row of the classic interbench table, on the console and in
 * the kernel-stamped logfile. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/mman.h>
#include <unistd.h>
#include "calibrate/calibrate.h"
#include "core/options.h"
#include "results/compare.h"
#include "core/pair.h"
#include "core/plan.h"
#include "lib/pmqos.h"
#include "core/privs.h"
#include "core/sweep.h"
#include "lib/audit.h"
#include "lib/child.h"
#include "lib/conout.h"
#include "lib/progress.h"
#include "lib/runlock.h"
#include "lib/safefile.h"
#include "lib/text.h"
#include "lib/timeutil.h"
#include "lib/timeline.h"
#include "lib/version.h"
#include "results/export.h"
#include "results/json_report.h"
#include "lib/json_seed.h"
#include "results/logfile.h"
#include "results/logformat.h"
#include "results/plot.h"
#include "lib/machine.h"
#include "lib/oom.h"
#include "results/summary.h"
#include "workloads/workload.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

/* Set by the signal handler; a handler can only reach a global. */
static volatile sig_atomic_t g_signal;
/* The run's scratch registry and its outputs still being written, for the handler's last act
 * (set once, before any load runs). */
static const struct scratch_set *g_scratch;
static const struct safe_out *g_outputs[2];

/* The first signal asks for an orderly stop (results so far kept, children reaped, scratch
 * files removed).  A second one exits at once, unlinking the scratch files first; the
 * children die with us (PR_SET_PDEATHSIG). */
static void on_signal(int sig)
{
	if (g_signal) {
		if (g_scratch)
			scratch_unlink_signal_safe(g_scratch);
		for (int i = 0; i < 2; i++)
			safe_out_unlink_signal_safe(g_outputs[i]);
		_exit(128 + g_signal);
	}
	g_signal = sig;
}

/* SCHED_FIFO priorities: main at the top, the timing thread below it, the simulated task
 * (-r) below that.  Needs at least 3 levels. */
#define FIFO_LEVELS 3

/* A load for the whole run: its context (copied into each of its load processes) and main's
 * own record of its prepare hook. */
struct load_slot {
	struct load_ctx ctx;
	bool prepared;             /* prepare succeeded (not run again) */
	bool prepare_failed;       /* prepare failed: every pair with this load is reported failed */
	char prepare_why[200];     /* why, when prepare_failed */
};

/* One (simulation, load) pair of the plan, at one setting of the sweep (core/sweep.h). */
/* What one run of a pair left for the tables. */
struct rep_result {
	bool ran;                  /* this repeat was attempted */
	bool ok;
	char why[320];             /* reason when !ok */
	struct pair_summary s;     /* valid when ok */
	char load_work[200];       /* the load's throughput ("Write 512 MB/s written"), or "" */
	bool interrupted;          /* a signal cut the window short: a partial measurement */
	uint64_t window_ns;        /* how long the bench was measured */
};

/* What the run needs besides the options. */
struct run {
	struct options opt;
	bool rt_ok;                /* SCHED_FIFO available to us */
	int prio_max;              /* highest SCHED_FIFO priority we may use (main runs at it) */
	int dma_fd;                /* /dev/cpu_dma_latency held open (--dma-latency), else unused */
	struct scratch_set scratch; /* every scratch file of the run (loads/scratch.h) */
	struct run_info info;
	char workload_options[1024]; /* run header: the workload options given */
	char settings[2048];       /* run header: the sweep's settings and CPU placement */
	struct load_config load_cfg;
	struct load_slot *loads;   /* one per workload_table entry (used for the loads) */
	FILE *log;                 /* NULL with -c */
	int timeline_fd;           /* --timeline's file (timeline_out.fd), or -1 */
	struct safe_out timeline_out; /* --timeline's file, renamed into place at the end */
	struct report_target json_target; /* --json's, opened at the start (json_open) */
	bool json_open;
	bool timeline_warned;      /* a write failure of it was reported */
	uint32_t timeline_seq;     /* the pair id of the pair running: pairs run so far */
	char log_path[128];
	FILE *con;                 /* console: stdout, or stderr with --json -, through conout */
	struct conout conout;      /* the console's queue: never blocks a run (lib/conout.h) */
	json_t *doc;               /* JSON results, or NULL (-c without --json) */
	struct machine_info machine;
	struct audit audit;        /* what on the machine decides interactivity (lib/audit.h) */
	struct run_watch watch;    /* another interbench run at the same time (lib/runlock.h) */
	struct plan plan;
	struct sweep_side bench, load; /* the scheduling settings swept (sweep_build) */
	struct rep_result *reps;   /* plan.n x opt.repeat, item-major */
	const struct plan_item *last_header; /* the item whose table header was printed last */
	struct progress progress;  /* the status line on a terminal's stderr */
	int con_errno, log_errno;  /* the first write error on the console / logfile, or 0 */
};

/* Flushes f (the console or the logfile), keeping the first write error's errno for the
 * report at the end (stdio keeps only a flag). */
static void flush_out(struct run *r, FILE *f)
{
	int *first = f == r->log ? &r->log_errno : &r->con_errno;
	errno = 0;
	if (fflush(f) != 0 && !*first)
		*first = errno ? errno : EIO;
}

static void install_signals(void)
{
	stop_signals_catch(on_signal);  /* those ignored at start (nohup) stay ignored */
	signal(SIGPIPE, SIG_IGN);  /* a write to a closed pipe fails with EPIPE and is reported */
	signal(SIGXFSZ, SIG_IGN);  /* a write over RLIMIT_FSIZE fails with EFBIG and is reported */
}

/* Locks main's memory so a page fault never delays it.  MCL_FUTURE only when the lock is
 * unbounded (CAP_IPC_LOCK or an unlimited RLIMIT_MEMLOCK): under a finite limit it would make
 * later allocations (results, JSON) fail once the limit is reached. */
static void lock_memory(const struct privs *pv)
{
	if (SANITIZED) /* a sanitizer's shadow memory is terabytes of reserved address space */
		return;
	bool unbounded = pv->cap_ipc_lock || pv->rlimit_memlock_bytes == UINT64_MAX;
	if (mlockall(MCL_CURRENT | (unbounded ? MCL_FUTURE : 0)) != 0 && unbounded)
		text_message(stderr, "interbench: warning: mlockall: %s", strerror(errno));
	/* with a finite limit privs_warn has already said memory may not be locked */
}

/* Raises the soft RLIMIT_NOFILE to the hard limit (inherited by the loads): Hack and Ring at a
 * large -L need more descriptors than the usual soft limit of 1024. */
static void raise_fd_limit(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
			text_message(stderr, "interbench: warning: setrlimit(RLIMIT_NOFILE): %s", strerror(errno));
	}
}

/* Raises main to the highest SCHED_FIFO priority it may use (children start as SCHED_OTHER
 * through SCHED_RESET_ON_FORK) and locks its memory.  Returns whether SCHED_FIFO is in use. */
static bool become_realtime(struct run *r, const struct privs *pv)
{
	r->prio_max = privs_fifo_max(pv);
	if (r->prio_max < FIFO_LEVELS || pv->fifo_refused_errno) /* privs_warn said why */
		return false;
	struct sched_param sp = { .sched_priority = r->prio_max };
	if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp) != 0) {
		text_message(stderr, "interbench: warning: sched_setscheduler(SCHED_FIFO): %s", strerror(errno));
		return false;
	}
	lock_memory(pv);
	return true;
}

static int pin_to_cpu0(void)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		text_message(stderr, "interbench: -u: sched_setaffinity: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static uint64_t get_loops_per_ms(const struct options *o, FILE *con, const char **source)
{
	char path[4096], why[PATH_MAX + 256] = "";
	struct calib_key key;
	if (o->loops_per_ms) {
		*source = "-l";
		return o->loops_per_ms;
	}
	calib_key_current(&key);
	bool have_path = calib_default_path(path, sizeof(path)) == 0;
	if (have_path && !o->recalibrate) {
		uint64_t saved = calib_load(path, &key, why, sizeof(why));
		if (saved) {
			*source = "saved";
			return saved;
		}
	}
	fprintf(con, "Measuring loops_per_ms%s%s%s...\n", why[0] ? " (saved value: " : "", why, why[0] ? ")" : "");
	fflush(con);
	uint64_t lpms = calib_measure(&g_signal);
	*source = "measured";
	if (lpms == 0)          /* interrupted: nothing measured, nothing saved */
		return 0;
	if (have_path && calib_save(path, &key, lpms, why, sizeof(why)) != 0)
		text_message(stderr, "interbench: warning: loops_per_ms not saved: %s", why);
	return lpms;
}

/* Workload i's own option values. */
static const void *wl_opts(const struct run *r, unsigned i)
{
	return options_wl_opts(&r->opt, i);
}

/* The load slot of plan item it. */
static struct load_slot *slot_of(const struct run *r, const struct plan_item *it)
{
	return &r->loads[it->li];
}

/* The table words of item it's bench and load settings ("nice -10", "real time", ""). */
static void item_words(const struct run *r, const struct plan_item *it, char *bench, char *load, size_t len)
{
	sched_setting_words(&it->bench_sched, bench, len);
	sched_setting_words(&r->load.s[it->l], load, len);
}

/* Writes to the console and, unless -c, the logfile. */
static void emit_header(struct run *r, const struct plan_item *it, const struct table_style *st)
{
	FILE *outs[2] = { r->con, r->log };
	char mode[64], load_mode[64];
	item_words(r, it, mode, load_mode, sizeof(mode));
	for (int i = 0; i < 2; i++)
		if (outs[i]) {
			fprintf(outs[i], "\n");
			table_header(outs[i], it->sim->name, mode, load_mode, st);
		}
}

/* One row: a single run (reps == 1) or the medians of several. */
static void emit_row(struct run *r, const struct plan_item *it, const struct rep_result *reps, unsigned n,
		     const struct table_style *st)
{
	FILE *outs[2] = { r->con, r->log };
	struct pair_summary ok[n], med;
	unsigned nok = 0;
	double lo = 0, hi = 0;
	for (unsigned k = 0; k < n; k++)  /* a partial repeat stays out of the medians */
		if (reps[k].ok && !(reps[k].interrupted && n > 1))
			ok[nok++] = reps[k].s;
	if (nok > 1 || (nok == 1 && n > 1))
		summary_median(ok, nok, &med, &lo, &hi);
	for (int i = 0; i < 2; i++) {
		if (!outs[i])
			continue;
		if (nok == 0)
			table_row_failed(outs[i], slot_of(r, it)->ctx.name,
					 reps[0].ok ? "interrupted before a whole repeat" : reps[0].why);
		else if (n == 1)
			table_row(outs[i], slot_of(r, it)->ctx.name, &ok[0], st);
		else
			table_row_repeats(outs[i], slot_of(r, it)->ctx.name, &med, st, lo, hi, n - nok);
		/* The load's throughput: always in the logfile, on the console with -v. */
		for (unsigned k = 0; k < n; k++)
			if (reps[k].load_work[0] && (outs[i] == r->log || r->opt.verbose))
				log_load_work(outs[i], reps[k].load_work, n > 1);
		/* Marks a partial window under its row (compare leaves such a row out). */
		for (unsigned k = 0; k < n; k++)
			if (reps[k].ok && reps[k].interrupted)
				log_row_interrupted(outs[i], reps[k].window_ns / 1e9, r->opt.duration_s, n > 1);
		flush_out(r, outs[i]);
	}
}

static struct table_style style_of(const struct run *r, const struct plan_item *it)
{
	return (struct table_style){ .has_deadlines = it->spec.desc->has_deadlines,
				     .microseconds = sched_kind_realtime(it->bench_sched.kind),
				     .audio = it->spec.buffer_periods > 0,
				     .verbose = r->opt.verbose, .repeats = r->opt.repeat };
}

/* Prints plan item i's row (and its table's header before the first row of a simulation). */
static void emit_item(struct run *r, size_t i, const struct rep_result *reps, unsigned n)
{
	const struct plan_item *it = &r->plan.items[i];
	struct table_style st = style_of(r, it);
	const struct plan_item *last = r->last_header;
	if (!last || last->sim != it->sim || last->b != it->b || last->l != it->l)
		emit_header(r, it, &st);
	r->last_header = it;
	emit_row(r, it, reps, n, &st);
}

/* Drops main to SCHED_OTHER for slow work between pairs (scratch files, writeback), so its top
 * SCHED_FIFO priority does not starve the machine meanwhile; back to SCHED_FIFO when !normal. */
static void main_priority_normal(const struct run *r, bool normal)
{
	struct sched_param sp = { .sched_priority = normal ? 0 : r->prio_max };
	if (r->rt_ok && sched_setscheduler(0, (normal ? SCHED_OTHER : SCHED_FIFO) | SCHED_RESET_ON_FORK, &sp) != 0)
		text_message(stderr, "interbench: warning: sched_setscheduler(%s): %s",
			normal ? "SCHED_OTHER" : "SCHED_FIFO", strerror(errno));
}

/* Runs a load's prepare hook (scratch files: up to a GiB of writing) at normal priority, once
 * for the run: a failure is kept with its reason and not retried for every later pair (unless
 * a signal cut it short).  Returns whether the load is prepared. */
static bool prepare_load(struct run *r, struct load_slot *slot)
{
	struct load_ctx *lctx = &slot->ctx;
	if (!lctx->ops->prepare || slot->prepared)
		return true;
	if (slot->prepare_failed)
		return false;
	main_priority_normal(r, true);
	slot->prepared = lctx->ops->prepare(lctx) == 0;
	main_priority_normal(r, false);
	if (!slot->prepared) {
		snprintf(slot->prepare_why, sizeof(slot->prepare_why), "%s", lctx->counters.errmsg);
		slot->prepare_failed = !g_signal;
		memset(&lctx->counters, 0, sizeof(lctx->counters)); /* the load processes start clean */
	}
	return slot->prepared;
}

/* Runs a load's after_pair hook (writeback of what the pair left dirty) at normal priority,
 * outside every window. */
static void settle_load(struct run *r, struct load_ctx *lctx, const struct load_counters *c)
{
	main_priority_normal(r, true);
	lctx->ops->after_pair(lctx, c);
	main_priority_normal(r, false);
}

static void tick_progress(void *arg, uint64_t t_ns)
{
	struct run *r = arg;
	progress_tick(&r->progress, t_ns);
	run_watch_poll(&r->watch, t_ns);
}

static void run_pair(struct run *r, const struct plan_item *it, struct pair_outcome *po)
{
	struct load_slot *slot = slot_of(r, it);
	struct load_ctx *lctx = &slot->ctx;
	const struct options *o = &r->opt;
	struct pair_params p = {
		.spec = it->spec,
		.run_cfg = {
			.loops_per_ms = r->load_cfg.loops_per_ms,
			.sched = it->bench_sched,
			.timer_prio = r->rt_ok ? r->prio_max - 1 : 0,
		},
		.load = lctx,
		.load_sched = r->load.s[it->l],
		.bench_cpus = o->bench_cpus.given ? &o->bench_cpus : o->cpus.given ? &o->cpus : NULL,
		.load_cpus = o->load_cpus.given ? &o->load_cpus : o->cpus.given ? &o->cpus : NULL,
		.duration_ns = (uint64_t)r->opt.duration_s * NS_PER_S,
		.timeline_fd = r->timeline_fd,
		.timeline_pair = r->timeline_seq,
		.interrupted = &g_signal,
		.tick = tick_progress,
		.tick_arg = r,
	};
	if (!prepare_load(r, slot)) {
		memset(po, 0, sizeof(*po));
		snprintf(po->why, sizeof(po->why), "%s", slot->prepare_why);
		return;
	}
	pair_run(&p, po);
	if (lctx->ops->after_pair && !g_signal)
		settle_load(r, lctx, &po->load);
}

/* Warns once when the bench could not write the pair's periods to --timeline, or had more
 * than it keeps. */
static void timeline_note(struct run *r, const struct pair_outcome *po)
{
	if (r->timeline_fd < 0 || r->timeline_warned || (!po->sim.timeline_error && !po->sim.timeline_truncated))
		return;
	if (po->sim.timeline_error)
		text_message(stderr, "interbench: warning: --timeline %s: write: %s; the timeline is incomplete",
			r->opt.timeline_path, strerror(po->sim.timeline_error));
	else
		text_message(stderr, "interbench: warning: --timeline %s: a pair had more than %u periods; the rest are "
			"not recorded", r->opt.timeline_path, TIMELINE_MAX_RECORDS);
	r->timeline_warned = true;
}

/* Records run `repeat` (0-based) of plan item i: its summary, and its entry in the JSON. */
static void record(struct run *r, size_t i, unsigned repeat, const struct pair_outcome *po)
{
	const struct plan_item *it = &r->plan.items[i];
	struct rep_result *rep = &r->reps[i * r->opt.repeat + repeat];
	rep->ran = true;
	rep->ok = po->ok;
	timeline_note(r, po);
	rep->interrupted = po->interrupted;
	rep->window_ns = po->window_ns;
	snprintf(rep->why, sizeof(rep->why), "%s", po->why);
	if (po->ok)
		pair_summarize(&po->sim, &rep->s);
	rep->load_work[0] = '\0';
	if (po->load.elapsed_ns)
		load_throughput_format(slot_of(r, it)->ctx.name, slot_of(r, it)->ctx.metrics, &po->load, rep->load_work,
				       sizeof(rep->load_work));
	if (!r->doc)
		return;
	char mode[64], load_mode[64];
	item_words(r, it, mode, load_mode, sizeof(mode));
	struct report_entry e = {
		.simulation = it->sim->name, .load = slot_of(r, it)->ctx.name, .mode = mode, .load_mode = load_mode,
		.bench_sched = &it->bench_sched, .load_sched = &r->load.s[it->l],
		.repeat = repeat + 1, .has_deadlines = it->spec.desc->has_deadlines, .audio = it->spec.buffer_periods > 0,
		.failed = po->ok ? NULL : po->why, .interrupted = po->interrupted,
		.window_ns = po->window_ns, .sim = &po->sim, .summary = po->ok ? &rep->s : NULL,
		.load_work = &po->load,
		.load_metrics = slot_of(r, it)->ctx.metrics,
		.timeline_pair = r->timeline_fd >= 0 && !po->sim.timeline_error ? (int64_t)r->timeline_seq : -1,
	};
	if (report_add(r->doc, &e) != 0)
		text_message(stderr, "interbench: warning: out of memory for the JSON results");
}

/* The plan of this run (core/plan.h), at the sweep's settings as they stand.  Returns 0, or -1
 * when out of memory. */
static int build_plan(struct run *r)
{
	struct plan_input in = { .opt = &r->opt, .bench = &r->bench, .load = &r->load, .rt_ok = r->rt_ok,
				 .fifo_prio = r->prio_max - 2 };
	return plan_build(&r->plan, &in);
}

/* Runs every pair of the plan once (round `round`, 0-based); single runs print each row as
 * its pair finishes. */
static void run_round(struct run *r, unsigned round, struct pair_outcome *po)
{
	for (size_t i = 0; i < r->plan.n && !g_signal; i++) {
		const struct plan_item *it = &r->plan.items[i];
		progress_run_begin(&r->progress, it->sim->name, slot_of(r, it)->ctx.name, round + 1,
				   r->opt.repeat, now_ns());
		run_pair(r, it, po);
		progress_run_end(&r->progress, now_ns());
		record(r, i, round, po);
		r->timeline_seq++;
		if (r->opt.repeat == 1)
			emit_item(r, i, &r->reps[i], 1);
	}
	if (r->opt.repeat > 1)
		fprintf(r->con, "Round %u/%u done (%zu pairs)%s\n", round + 1, r->opt.repeat, r->plan.n,
			g_signal ? ", interrupted" : "");
	flush_out(r, r->con);
}

/* Runs the plan round by round.  Returns 0 (g_signal says whether a signal cut it short),
 * or -1 when memory for the plan could not be allocated (reported). */
static int run_matrix(struct run *r)
{
	struct pair_outcome *po = malloc(sizeof(*po));
	r->reps = calloc(r->plan.n ? r->plan.n * r->opt.repeat : 1, sizeof(*r->reps));
	if (!po || !r->reps) {
		text_message(stderr, "interbench: %s: %s", po ? "calloc" : "malloc", strerror(errno));
		free(po);
		return -1;
	}
	unsigned done = 0;
	progress_open(&r->progress, r->opt.quiet, r->plan.n * r->opt.repeat,
		      (uint64_t)PAIR_RAMP_MIN_MS * NS_PER_MS + (uint64_t)r->opt.duration_s * NS_PER_S);
	while (done < r->opt.repeat && !g_signal)
		run_round(r, done++, po);
	progress_close(&r->progress);
	/* With repeats, the tables come after the last round, from every repeat that ran. */
	for (size_t i = 0; i < r->plan.n && r->opt.repeat > 1; i++) {
		const struct rep_result *reps = &r->reps[i * r->opt.repeat];
		unsigned ran = 0;
		while (ran < r->opt.repeat && reps[ran].ran)
			ran++;
		if (ran)
			emit_item(r, i, reps, ran);
	}
	free(po);
	return 0;
}

/* The cell of plan item k: the medians of its measured repeats. */
static struct sweep_cell sweep_cell_of(const struct run *r, size_t k)
{
	const struct rep_result *reps = &r->reps[k * r->opt.repeat];
	struct pair_summary ok[r->opt.repeat], med;
	unsigned n = 0;
	double lo, hi;
	for (unsigned j = 0; j < r->opt.repeat; j++)
		if (reps[j].ran && reps[j].ok && !reps[j].interrupted)
			ok[n++] = reps[j].s;
	if (n == 0)
		return (struct sweep_cell){ .measured = false };
	summary_median(ok, n, &med, &lo, &hi);
	return (struct sweep_cell){ .measured = true, .met_pct = med.deadlines_met_pct, .has_p99 = med.samples > 0,
				    .p99_ns = med.sched_p99_ns };
}

/* The sweep summary of task sim against load li, on the console, in the logfile and in the
 * JSON: bench settings as rows, load settings as columns. */
static void emit_sweep(struct run *r, const struct plan_item *first)
{
	unsigned nb = r->bench.n, nl = r->load.n;
	struct sweep_cell *cells = calloc((size_t)nb * nl, sizeof(*cells));
	char (*labels)[48] = calloc(nb + nl, sizeof(*labels));
	const char **rows = calloc(nb + nl, sizeof(*rows));
	if (!cells || !labels || !rows)
		goto out;
	bool us = false;
	for (size_t k = 0; k < r->plan.n; k++) {
		const struct plan_item *it = &r->plan.items[k];
		if (it->sim == first->sim && it->li == first->li) {
			cells[it->b * nl + it->l] = sweep_cell_of(r, k);
			us |= sched_kind_realtime(r->bench.s[it->b].kind);
		}
	}
	for (unsigned i = 0; i < nb + nl; i++)
		rows[i] = sched_setting_label(i < nb ? &r->bench.s[i] : &r->load.s[i - nb], labels[i], sizeof(labels[i]));
	FILE *outs[2] = { r->con, r->log };
	for (int i = 0; i < 2; i++)
		if (outs[i])
			sweep_table(outs[i], first->sim->name, slot_of(r, first)->ctx.name, rows, nb, rows + nb, nl, cells,
				    first->spec.desc->has_deadlines, us);
	if (r->doc && report_add_sweep(r->doc, first->sim->name, slot_of(r, first)->ctx.name, rows, nb, rows + nb, nl,
				       cells) != 0)
		text_message(stderr, "interbench: warning: out of memory for the JSON results");
out:
	free(cells);
	free(labels);
	free(rows);
}

/* After a sweep, one summary per task and load (core/sweep.h). */
static void emit_sweeps(struct run *r)
{
	if (!sweep_is_sweep(&r->bench, &r->load))
		return;
	for (size_t k = 0; k < r->plan.n; k++) {
		bool seen = false;
		for (size_t j = 0; j < k && !seen; j++)
			seen = r->plan.items[j].sim == r->plan.items[k].sim && r->plan.items[j].li == r->plan.items[k].li;
		if (!seen)
			emit_sweep(r, &r->plan.items[k]);
	}
	flush_out(r, r->con);
}

/* How many (pair, repeat) results were measured successfully. */
static size_t measured_count(const struct run *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->plan.n * r->opt.repeat; i++)
		n += r->reps[i].ran && r->reps[i].ok;
	return n;
}

/* Refuses, before anything starts, a selection that leaves no pair to run, or one whose
 * workloads the system cannot serve (their preflight: the disk loads' --workdir).  Returns 0,
 * or 2 with one line printed. */
static int check_selection(struct run *r)
{
	char err[PATH_MAX + 256];
	if (build_plan(r) != 0) {
		text_message(stderr, "interbench: calloc: %s", strerror(errno));
		return 1;
	}
	if (r->plan.n == 0) {
		plan_no_pair_reasons(&r->opt, err, sizeof(err));
		text_message(stderr, "interbench: -W/-X/-w/-x: no (simulation, load) pair left to run (accepted: %s)", err);
		return 2;
	}
	for (unsigned i = 0; i < workload_count; i++) {
		const struct workload *w = workload_table[i];
		if (w->preflight && plan_uses(&r->plan, i) &&
		    w->preflight(wl_opts(r, i), err, sizeof(err)) != 0) {
			text_message(stderr, "interbench: %s", err);
			return 2;
		}
	}
	return 0;
}

static void cleanup_loads(struct run *r)
{
	for (unsigned i = 0; i < workload_count; i++)
		if (r->loads[i].ctx.ops && r->loads[i].ctx.ops->cleanup)
			r->loads[i].ctx.ops->cleanup(&r->loads[i].ctx);
}

static void notes_before_run(const struct run *r)
{
	bool realtime = false, deadline = false;
	for (unsigned b = 0; b < r->bench.n; b++) {
		realtime |= sched_kind_realtime(r->bench.s[b].kind);
		deadline |= r->bench.s[b].kind == SP_DEADLINE;
	}
	for (unsigned i = 0; i < workload_count; i++) {
		char note[256];
		struct sim_spec spec;
		const struct workload *w = workload_table[i];
		if (!w->sim || !w->help || !plan_task_named(&r->opt, i))
			continue;
		if (w->sim->describe) {
			w->sim->describe(r->opt.duration_s, realtime, note, sizeof(note));
			if (note[0])
				fprintf(r->con, "%s\n", note);
		}
		workload_sim_spec(w, wl_opts(r, i), &spec);
		if ((w->flags & WL_PREFERS_FIFO) && !realtime && r->bench.n == 1 && !r->rt_ok)
			fprintf(r->con, "Note: %s runs at normal priority: SCHED_FIFO is not available here (see the "
				"warning above).\n", w->name);
		if (deadline && plan_supported(&r->opt, i) && !sweep_deadline_fits(&spec))
			fprintf(r->con, "Note: %s is not benchmarked under SCHED_DEADLINE: its work per period is not "
				"fixed, so no reservation fits it.\n", w->name);
	}
}

/* Refuses a --cpus, --bench-cpus or --load-cpus naming a CPU this process may not run on (not
 * online, or outside its cpuset).  Returns 0, or 2 with one line printed. */
static int check_cpus(const struct run *r)
{
	const struct { const char *name; const struct optspec_cpus *l; } lists[] = {
		{ "--cpus", &r->opt.cpus }, { "--bench-cpus", &r->opt.bench_cpus }, { "--load-cpus", &r->opt.load_cpus },
	};
	char list[256], ok[256];
	struct optspec_cpus have;
	if (machine_allowed_cpus(&have) == 0)
		return 0;  /* the children's sched_setaffinity will name the problem */
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		for (unsigned c = 0; lists[i].l->given && c < OPTSPEC_MAX_CPUS; c++)
			if (optspec_cpu_isset(lists[i].l, c) && !optspec_cpu_isset(&have, c)) {
				text_message(stderr, "interbench: %s: '%s' names CPU %u, which this process may not use "
					"(accepted: CPUs of %s)", lists[i].name, format_cpu_list(lists[i].l, list, sizeof(list)),
					c, format_cpu_list(&have, ok, sizeof(ok)));
				return 2;
			}
	return 0;
}

/* Checks privileges (refusing what cannot be done before anything starts), raises main to
 * SCHED_FIFO and pins CPUs.  Returns 0, or the exit status. */
static int prepare_process(struct run *r)
{
	struct privs pv;
	char err[2 * PATH_MAX + 1024]; /* a refusal may name a cgroup directory twice */
	privs_probe(&pv, FIFO_LEVELS);
	if (privs_check_options(&pv, &r->opt, FIFO_LEVELS, err, sizeof(err)) != 0) {
		text_message(stderr, "interbench: %s", err);
		return 2;
	}
	if (r->opt.dma_latency_us >= 0) {
		char why[256];
		r->dma_fd = pmqos_hold((uint32_t)r->opt.dma_latency_us, why, sizeof(why));
		if (r->dma_fd < 0) {
			text_message(stderr, "interbench: --dma-latency: %s (accepted: a run as root, on a kernel with PM QoS)", why);
			return 2;
		}
	}
	privs_warn(&pv, &r->opt, FIFO_LEVELS, stderr);
	install_signals();
	/* the OOM killer takes a load first and main, which holds the results, last */
	if (oom_adj_protect_main(err, sizeof(err)) != 0 && errno != EACCES && errno != EPERM && errno != ENOENT)
		text_message(stderr, "interbench: warning: %s", err);
	raise_fd_limit();
	r->rt_ok = become_realtime(r, &pv);
	if (r->opt.uniprocessor && pin_to_cpu0() != 0)
		return 1;
	return 0;
}

/* Fills the run info and the load contexts.  Returns 0, -1 on failure, or 128 + signal when
 * interrupted while measuring loops_per_ms. */
static int setup_run(struct run *r)
{
	char why[PATH_MAX + 128];
	run_info_init(&r->info);
	if (run_watch_start(&r->watch, now_ns(), why, sizeof(why)) != 0)
		text_message(stderr, "interbench: warning: another interbench run at the same time would go unnoticed: %s", why);
	machine_info_collect(&r->machine);
	audit_collect(&r->audit, "/");
	r->info.audit = &r->audit;
	r->info.loops_per_ms = get_loops_per_ms(&r->opt, r->con, &r->info.loops_source);
	if (!r->info.loops_per_ms) {
		text_message(stderr, "interbench: interrupted (%s) while measuring loops_per_ms", strsignal(g_signal));
		return 128 + g_signal;
	}
	r->info.duration_s = r->opt.duration_s;
	r->info.cpus = r->machine.online_cpus;
	r->info.allowed_cpus = r->machine.allowed_cpus;
	r->info.allowed_cpu_list = r->machine.allowed_cpu_list;
	r->info.cgroup = &r->machine.cgroup;
	r->info.concurrent_pid = r->watch.at_start;
	/* one load thread per CPU the run may use (taskset, a cpuset), not per CPU online */
	r->info.load_threads = r->opt.load_threads ? r->opt.load_threads :
			       r->info.allowed_cpus ? r->info.allowed_cpus : r->info.cpus;
	r->info.comment = r->opt.comment;
	options_workload_line(&r->opt, r->workload_options, sizeof(r->workload_options));
	r->info.workload_options = r->workload_options;
	r->info.settings = sweep_describe(&r->opt, &r->bench, &r->load, r->settings, sizeof(r->settings));
	r->info.dma_latency_us = r->opt.dma_latency_us;
	r->load_cfg = (struct load_config){
		.threads = r->info.load_threads,
		.loops_per_ms = r->info.loops_per_ms,
		.interrupted = &g_signal,
		.scratch = &r->scratch,
	};
	g_scratch = &r->scratch;
	g_outputs[0] = &r->timeline_out;
	g_outputs[1] = &r->json_target.out;
	r->loads = calloc(workload_count, sizeof(*r->loads));
	if (!r->loads) {
		text_message(stderr, "interbench: calloc: %s", strerror(errno));
		return -1;
	}
	for (unsigned i = 0; i < workload_count; i++)
		workload_load_init(&r->loads[i].ctx, workload_table[i], wl_opts(r, i), &r->load_cfg);
	return 0;
}

/* One console line naming the settings the audit found known to hurt interactivity (the
 * logfile and the JSON have the whole audit). */
static void audit_note(const struct run *r)
{
	char names[512] = "";
	size_t used = 0;
	for (unsigned i = 0; i < r->audit.n && used < sizeof(names); i++)
		if (r->audit.item[i].hint[0]) {
			int w = snprintf(names + used, sizeof(names) - used, "%s%s", used ? ", " : "", r->audit.item[i].name);
			used += w > 0 ? (size_t)w : 0;
		}
	if (used)
		fprintf(r->con, "Audit: known to hurt interactivity here: %s (interbench --audit says why)\n", names);
}

/* Opens --timeline's file and writes its header: written under a temporary name beside it and
 * renamed into place when the run ends (lib/safefile.h: never through a link, a FIFO or another
 * user's file).  Returns 0, or 2 with one line printed. */
static int open_timeline(struct run *r)
{
	unsigned char head[TIMELINE_HEADER_BYTES];
	char err[PATH_MAX + 128];
	r->timeline_fd = -1;
	if (!r->opt.timeline_path)
		return 0;
	timeline_encode_header(head);
	if (safe_out_open(&r->timeline_out, r->opt.timeline_path, 0, err, sizeof(err)) != 0) {
		text_message(stderr, "interbench: --timeline: %s (accepted: a new file or a regular file of your own)", err);
		return 2;
	}
	if (fcntl(r->timeline_out.fd, F_SETFL, O_APPEND) != 0 || safe_write_all(r->timeline_out.fd, head, sizeof(head)) != 0) {
		text_message(stderr, "interbench: --timeline %s: write: %s", r->opt.timeline_path, strerror(errno));
		safe_out_abort(&r->timeline_out);
		return 2;
	}
	r->timeline_fd = r->timeline_out.fd;
	return 0;
}

/* Renames --timeline's file into place (commit) or removes it (a run refused before any pair).
 * Returns 0, or -1 with the reason printed. */
static int close_timeline(struct run *r, bool commit)
{
	char err[PATH_MAX + 128];
	if (r->timeline_fd < 0)
		return 0;
	r->timeline_fd = -1;
	if (!commit) {
		safe_out_abort(&r->timeline_out);
		return 0;
	}
	if (safe_out_commit(&r->timeline_out, err, sizeof(err)) == 0)
		return 0;
	text_message(stderr, "interbench: --timeline: %s", err);
	return -1;
}

/* Opens the logfile (unless -c) and starts the JSON document (when one will be written).
 * Returns 0, or 2 when the logfile cannot be used (reason printed). */
static int open_outputs(struct run *r)
{
	char err[PATH_MAX + 256], note[2 * PATH_MAX + 512];
	if (r->opt.json_path && report_target_open(&r->json_target, r->opt.json_path, err, sizeof(err)) != 0) {
		text_message(stderr, "interbench: --json: %s (accepted: a new file or a regular file of your own, a FIFO "
			     "or device with a reader, or - for stdout)", err);
		return 2;
	}
	r->json_open = r->opt.json_path != NULL;
	if (!r->opt.console_only) {
		r->log = logfile_open(&r->info, r->log_path, sizeof(r->log_path), note, sizeof(note), err, sizeof(err));
		if (!r->log) {
			text_message(stderr, "interbench: logfile: %s (accepted: a regular file, or -c for none)", err);
			report_target_abort(&r->json_target);
			r->json_open = false;
			return 2;
		}
		if (note[0])
			text_message(stderr, "interbench: logfile: %s", note);
		logfile_header(r->log, &r->info);
		logfile_audit(r->log, &r->audit);
	}
	if (r->opt.json_path || !r->opt.console_only) {
		r->doc = report_new(&r->machine, &r->info, &r->opt);
		if (!r->doc)
			text_message(stderr, "interbench: warning: out of memory for the JSON results");
	}
	logfile_header(r->con, &r->info);
	audit_note(r);
	for (unsigned li = 0; li < workload_count; li++) {
		char line[PATH_MAX + 256]; /* Memload's policy may name a cgroup directory */
		const struct load_ops *ops = workload_table[li]->load;
		if (!ops || !ops->describe || !plan_uses(&r->plan, li))
			continue;
		ops->describe(&r->load_cfg, wl_opts(r, li), line, sizeof(line));
		fprintf(r->con, "%s\n", line);
		if (r->log)
			fprintf(r->log, "%s\n", line);
	}
	return 0;
}

/* Writes the JSON document to --json and, unless -c, to a new "<release>-<datestamp>.json"
 * (or -2, -3... when an earlier run of the same minute has that name).
 * Returns 0, or -1 when a write failed (reported). */
static int write_json(struct run *r)
{
	char err[512], stem[96], path[128];
	int rc = 0;
	if (!r->doc) {
		if (r->json_open)
			report_target_abort(&r->json_target);
		r->json_open = false;
		return 0;
	}
	if (r->json_open && report_target_write(&r->json_target, r->doc, err, sizeof(err)) != 0) {
		text_message(stderr, "interbench: --json: %s", err);
		rc = -1;
	}
	r->json_open = false;
	snprintf(stem, sizeof(stem), "%s-%s", r->info.kernel_release, r->info.datestamp);
	if (!r->opt.console_only && report_create(r->doc, stem, path, sizeof(path), err, sizeof(err)) != 0) {
		text_message(stderr, "interbench: %s", err);
		rc = -1;
	}
	return rc;
}

/* Closes the logfile and writes the JSON; a write error (a full disk) is reported, naming
 * the file, never silently truncating the results.  Returns 0, or -1. */
static int close_outputs(struct run *r)
{
	int rc = 0;
	if (r->log) {
		flush_out(r, r->log);
		bool failed = ferror(r->log) != 0;
		if ((fclose(r->log) != 0 && !r->log_errno && (r->log_errno = errno)) || failed || r->log_errno) {
			text_message(stderr, "interbench: write %s: %s", r->log_path, strerror(r->log_errno ? r->log_errno : EIO));
			rc = -1;
		}
		r->log = NULL;
	}
	if (write_json(r) != 0)
		rc = -1;
	flush_out(r, r->con);
	if (conout_finish(&r->conout) != 0 && !r->con_errno)  /* the results are written: now wait */
		r->con_errno = errno;
	if (ferror(r->con) || r->con_errno) {
		text_message(stderr, "interbench: write to the console: %s", strerror(r->con_errno ? r->con_errno : EIO));
		rc = -1;
	}
	return rc;
}

static void note_interrupt(struct run *r, int sig)
{
	log_run_interrupted(r->con, strsignal(sig));
	if (r->log)
		log_run_interrupted(r->log, strsignal(sig));
}

/* Opens /dev/null onto any of descriptors 0, 1 and 2 that is closed (a daemon or a cron job
 * may start us so), before anything else is opened: otherwise the logfile would become
 * descriptor 1 or 2 and get every console line or error message too.  Returns 0, or -1 when
 * /dev/null cannot be opened (then nothing can be trusted: exit). */
static int std_fds_open(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		int nfd = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
		if (nfd != fd) {  /* the lowest free descriptor is fd */
			if (nfd >= 0)
				close(nfd);
			return -1;
		}
	}
	return 0;
}

/* The subcommands: compare, export, plot.  Returns their exit status, or -1 when argv names
 * none; 2 when their standard output could not be written (closed, a full disk), so that a
 * comparison nobody could read never passes for one that found nothing. */
static int subcommand(int argc, char **argv)
{
	int rc = -1;
	if (argc > 1 && strcmp(argv[1], "compare") == 0)
		rc = compare_main(argc - 1, argv + 1, stdout, stderr);
	else if (argc > 1 && strcmp(argv[1], "export") == 0)
		rc = export_main(argc - 1, argv + 1, stdout, stderr);
	else if (argc > 1 && strcmp(argv[1], "plot") == 0)
		rc = plot_main(argc - 1, argv + 1, stdout, stderr);
	if (rc >= 0 && (fflush(stdout) != 0 || ferror(stdout))) {
		text_message(stderr, "interbench %s: write standard output: %s", argv[1], strerror(errno));
		return 2;
	}
	return rc;
}

/* The option parse's outcomes that end the program before a run: -h, --audit, --version, a
 * bad option.  Returns their exit status, or -1 to run. */
static int early_exit(enum opt_status st, const char *err)
{
	static struct audit a;
	switch (st) {
	case OPT_HELP:
		options_usage(stdout, "interbench");
		return 0;
	case OPT_AUDIT:
		audit_collect(&a, "/");
		audit_print(stdout, &a);
		return fflush(stdout) != 0 || ferror(stdout) ? 2 : audit_hurts(&a) ? 1 : 0;
	case OPT_SHOW_VERSION:
		printf("interbench %s\n", ib_version());
		return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
	case OPT_ERROR:
		text_message(stderr, "interbench: %s", err);
		return 2;
	default:
		return -1;
	}
}

/* Everything before the first pair: the checks that refuse a run (exit 2), main's priority,
 * the settings and plan with it, the run's state, the outputs.  Returns 0, or the exit status
 * (-1: a failure already reported, exit 1). */
static int start_run(struct run *r)
{
	r->con = conout_open(&r->conout, r->opt.json_path && strcmp(r->opt.json_path, "-") == 0 ? stderr : stdout);
	sweep_build(&r->opt, 1, &r->bench, &r->load);  /* priorities are set once main's is known */
	int rc = check_cpus(r);
	if (rc == 0)
		rc = check_selection(r);
	if (rc == 0)
		rc = prepare_process(r);
	if (rc == 0) {  /* main's priority known: the settings and the plan with it */
		sweep_build(&r->opt, r->prio_max - 2, &r->bench, &r->load);
		if (build_plan(r) != 0) {
			text_message(stderr, "interbench: calloc: %s", strerror(errno));
			rc = -1;
		}
	}
	if (rc == 0)
		rc = setup_run(r);
	if (rc != 0)
		return rc;
	rc = open_timeline(r);
	if (rc == 0)
		rc = open_outputs(r);
	if (rc != 0) {
		close_timeline(r, false);
		cleanup_loads(r);
	}
	return rc;
}

/* Says, on the console, in the logfile and the JSON, that another run started during this one. */
static void note_concurrent(struct run *r)
{
	logfile_concurrent(r->con, r->watch.during);
	if (r->log)
		logfile_concurrent(r->log, r->watch.during);
	if (r->doc)
		report_set_concurrent(r->doc, r->watch.during);
}

/* After the pairs: the interruption note or the nothing-measured verdict, the outputs closed,
 * the resources released.  Returns the exit status. */
static int finish_run(struct run *r, int rc)
{
	int sig = g_signal;
	if (sig) {
		note_interrupt(r, sig);
		if (r->doc)
			report_mark_interrupted(r->doc, sig);
	} else if (rc == 0 && r->plan.n && measured_count(r) == 0) {
		text_message(stderr, "interbench: no pair could be measured (every one failed; see the reasons above)");
		rc = -1;
	}
	if (r->watch.during)
		note_concurrent(r);
	run_watch_end(&r->watch);
	if (close_outputs(r) != 0)
		rc = -1;
	if (r->opt.dma_latency_us >= 0)
		close(r->dma_fd); /* releases the latency limit */
	if (close_timeline(r, true) != 0)
		rc = -1;
	json_decref(r->doc);
	free(r->loads);
	plan_free(&r->plan);
	free(r->reps);
	return sig ? 128 + sig : rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	static struct run r; /* large (load contexts); static storage, passed explicitly */
	char err[512];
	if (std_fds_open() != 0)
		return 1;
	json_seed_without_blocking(); /* before any JSON object, and before main turns SCHED_FIFO */
	int rc = subcommand(argc, argv);
	if (rc >= 0)
		return rc;
	options_init(&r.opt);
	rc = early_exit(options_parse(&r.opt, argc, argv, err, sizeof(err)), err);
	if (rc >= 0)
		return rc;
	rc = start_run(&r);
	if (rc != 0)
		return rc < 0 ? 1 : rc;
	notes_before_run(&r);
	rc = run_matrix(&r);
	cleanup_loads(&r);
	if (rc == 0)
		emit_sweeps(&r);
	return finish_run(&r, rc);
}
