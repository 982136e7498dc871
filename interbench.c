/* interbench: the Linux interactivity benchmark.  Command line and orchestration: parse the
 * options, get loops_per_ms, then run every (simulated task, load) pair in its own pair of
 * processes and report each as a row of the classic interbench table, on the console and in
 * the kernel-stamped logfile. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "calibrate/calibrate.h"
#include "core/options.h"
#include "core/pair.h"
#include "core/privs.h"
#include "core/timeutil.h"
#include "loads/load.h"
#include "results/logfile.h"
#include "results/summary.h"
#include "sims/sim.h"

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

#define RAMP_UP_NS (1 * NS_PER_S)   /* head start of the load before the bench */

/* Set by the signal handler; a handler can only reach a global. */
static volatile sig_atomic_t g_signal;

/* The first signal asks for an orderly stop (results so far kept, children reaped, scratch
 * files removed).  A second one exits at once; the children die with us (PR_SET_PDEATHSIG). */
static void on_signal(int sig)
{
	if (g_signal)
		_exit(128 + g_signal);
	g_signal = sig;
}

/* SCHED_FIFO priorities: main at the top, the timing thread below it, the simulated task
 * (-r) below that.  Needs at least 3 levels. */
#define FIFO_LEVELS 3

/* What the run needs besides the options. */
struct run {
	struct options opt;
	bool rt_ok;                /* SCHED_FIFO available to us */
	int prio_max;              /* highest SCHED_FIFO priority we may use (main runs at it) */
	struct run_info info;
	struct load_config load_cfg;
	struct load_ctx *loads;    /* one per load_table entry */
	FILE *log;                 /* NULL with -c */
	char log_path[128];
};

static void install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* Raises main to the highest SCHED_FIFO priority it may use (children start as SCHED_OTHER
 * through SCHED_RESET_ON_FORK) and locks its memory.  Returns whether SCHED_FIFO is in use. */
static bool become_realtime(struct run *r, const struct privs *pv)
{
	int max = sched_get_priority_max(SCHED_FIFO);
	r->prio_max = pv->cap_sys_nice || pv->rlimit_rtprio >= (uint64_t)max ? max : (int)pv->rlimit_rtprio;
	if (r->prio_max < FIFO_LEVELS)
		return false;
	struct sched_param sp = { .sched_priority = r->prio_max };
	if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp) != 0) {
		fprintf(stderr, "interbench: warning: sched_setscheduler(SCHED_FIFO): %s\n", strerror(errno));
		return false;
	}
	if (!SANITIZED) /* a sanitizer's shadow memory is terabytes of reserved address space */
		mlockall(MCL_CURRENT | MCL_FUTURE); /* failure already warned about by privs_warn */
	return true;
}

static int pin_to_cpu0(void)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		fprintf(stderr, "interbench: -u: sched_setaffinity: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

static uint64_t get_loops_per_ms(const struct options *o, const char **source)
{
	char path[4096], why[128] = "";
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
	printf("Measuring loops_per_ms%s%s%s...\n", why[0] ? " (saved value: " : "", why, why[0] ? ")" : "");
	fflush(stdout);
	uint64_t lpms = calib_measure(&g_signal);
	*source = "measured";
	if (!lpms)
		return 0;
	if (have_path && calib_save(path, &key, lpms) != 0)
		fprintf(stderr, "interbench: warning: cannot save %s: %s\n", path, strerror(errno));
	return lpms;
}

static bool sim_selected(const struct run *r, unsigned i)
{
	const struct sim_desc *d = sim_table[i];
	const struct options *o = &r->opt;
	if (o->sim_include && !(o->sim_include & (1u << i)))
		return false;
	if (o->sim_exclude & (1u << i))
		return false;
	if ((d->flags & SIM_CUSTOM) && !o->custom_cpu_pct)
		return false;
	return (d->flags & (o->realtime ? SIM_BENCH_RT : SIM_BENCH_NORMAL)) != 0;
}

static bool load_selected(const struct run *r, unsigned i, const struct sim_desc *sim)
{
	const struct load_desc *d = load_table[i];
	const struct options *o = &r->opt;
	if (o->load_include && !(o->load_include & (1u << i)))
		return false;
	if (o->load_exclude & (1u << i))
		return false;
	if ((d->flags & LOAD_CUSTOM) && !o->custom_cpu_pct)
		return false;
	if (strcmp(d->name, sim->name) == 0) /* a task is not its own load */
		return false;
	return (d->flags & (o->realtime ? LOAD_RT : LOAD_NORMAL)) != 0;
}

static void mode_words(const struct options *o, char *buf, size_t len)
{
	if (o->realtime)
		snprintf(buf, len, "real time");
	else if (o->bench_nice)
		snprintf(buf, len, "nice %d", o->bench_nice);
	else
		buf[0] = '\0';
}

/* Writes to the console and, unless -c, the logfile. */
static void emit_header(struct run *r, const struct sim_desc *sim, const struct table_style *st)
{
	char mode[32];
	mode_words(&r->opt, mode, sizeof(mode));
	printf("\n");
	table_header(stdout, sim->name, mode, st);
	if (r->log) {
		fprintf(r->log, "\n");
		table_header(r->log, sim->name, mode, st);
	}
}

static void emit_row(struct run *r, const struct load_desc *load, const struct pair_outcome *po,
		     const struct table_style *st)
{
	FILE *outs[2] = { stdout, r->log };
	struct pair_summary s;
	char work[200] = "";
	if (po->ok)
		pair_summarize(&po->sim, &s);
	if (po->load.elapsed_ns)
		load_throughput_format(load, &po->load, work, sizeof(work));
	for (int i = 0; i < 2; i++) {
		if (!outs[i])
			continue;
		if (po->ok)
			table_row(outs[i], load->name, &s, st);
		else
			table_row_failed(outs[i], load->name, po->why);
		if (work[0] && (outs[i] == r->log || r->opt.verbose))
			fprintf(outs[i], "          load: %s\n", work);
		fflush(outs[i]);
	}
}

/* Runs a load's prepare hook (scratch files: up to a GiB of writing) at normal priority, so
 * main's top SCHED_FIFO priority does not starve the machine meanwhile. */
static int prepare_load(struct run *r, struct load_ctx *lctx)
{
	struct sched_param normal = { 0 }, top = { .sched_priority = r->prio_max };
	if (r->rt_ok)
		sched_setscheduler(0, SCHED_OTHER | SCHED_RESET_ON_FORK, &normal);
	int rc = lctx->desc->prepare(lctx);
	if (r->rt_ok)
		sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &top);
	return rc;
}

static void run_pair(struct run *r, const struct sim_spec *spec, struct load_ctx *lctx,
		     const struct table_style *st, struct pair_outcome *po)
{
	struct pair_params p = {
		.spec = *spec,
		.run_cfg = {
			.loops_per_ms = r->load_cfg.loops_per_ms,
			.realtime = r->opt.realtime,
			.sim_prio = r->prio_max - 2,
			.nice = r->opt.bench_nice,
			.timer_prio = r->rt_ok ? r->prio_max - 1 : 0,
		},
		.load = lctx,
		.load_nice = r->opt.load_nice,
		.ramp_ns = RAMP_UP_NS,
		.duration_ns = (uint64_t)r->opt.duration_s * NS_PER_S,
		.interrupted = &g_signal,
	};
	if (lctx->desc->prepare && !lctx->prepared) {
		if (prepare_load(r, lctx) != 0) {
			memset(po, 0, sizeof(*po));
			snprintf(po->why, sizeof(po->why), "%s", lctx->counters.errmsg);
			emit_row(r, lctx->desc, po, st);
			return;
		}
		lctx->prepared = true;
	}
	pair_run(&p, po);
	emit_row(r, lctx->desc, po, st);
}

/* Runs every selected pair.  Returns the signal that interrupted the run, or 0. */
static int run_matrix(struct run *r)
{
	struct pair_outcome *po = malloc(sizeof(*po));
	if (!po) {
		fprintf(stderr, "interbench: malloc: %s\n", strerror(errno));
		return 0;
	}
	for (unsigned si = 0; si < sim_count && !g_signal; si++) {
		if (!sim_selected(r, si))
			continue;
		const struct sim_desc *sim = sim_table[si];
		struct sim_spec spec;
		sim_spec_init(&spec, sim, r->opt.custom_interval_us, r->opt.custom_cpu_pct);
		struct table_style st = { .has_deadlines = sim->has_deadlines,
					  .microseconds = r->opt.realtime, .verbose = r->opt.verbose };
		bool header = false;
		for (unsigned li = 0; li < load_count && !g_signal; li++) {
			if (!load_selected(r, li, sim))
				continue;
			if (!header) {
				emit_header(r, sim, &st);
				header = true;
			}
			run_pair(r, &spec, &r->loads[li], &st, po);
		}
	}
	free(po);
	return g_signal;
}

/* Whether load li runs against at least one selected task. */
static bool load_in_run(const struct run *r, int li)
{
	for (unsigned si = 0; li >= 0 && si < sim_count; si++)
		if (sim_selected(r, si) && load_selected(r, (unsigned)li, sim_table[si]))
			return true;
	return false;
}

static void cleanup_loads(struct run *r)
{
	for (unsigned i = 0; i < load_count; i++)
		if (r->loads[i].desc->cleanup)
			r->loads[i].desc->cleanup(&r->loads[i]);
}

static void notes_before_run(const struct run *r)
{
	const struct options *o = &r->opt;
	unsigned x = (unsigned)sim_find("X");
	if (sim_selected(r, x) && (uint64_t)o->duration_s * 1000000 < (uint64_t)X_STEPS * X_FRAME_US)
		printf("Note: X sweeps 0-100%% CPU over %.1f s; with -t %u each X run covers only part of the sweep.\n",
		       X_STEPS * X_FRAME_US / 1e6, o->duration_s);
	if (o->realtime)
		printf("Note: Gaming is not benchmarked in real time runs (a SCHED_FIFO task burning flat out).\n");
}

int main(int argc, char **argv)
{
	static struct run r; /* large (load contexts); static storage, passed explicitly */
	char err[512];
	options_init(&r.opt);
	enum opt_status st = options_parse(&r.opt, argc, argv, err, sizeof(err));
	if (st == OPT_HELP) {
		options_usage(stdout, "interbench");
		return 0;
	}
	if (st == OPT_ERROR) {
		fprintf(stderr, "interbench: %s\n", err);
		return 2;
	}
	struct privs pv;
	privs_probe(&pv);
	if (privs_check_options(&pv, &r.opt, FIFO_LEVELS, err, sizeof(err)) != 0) {
		fprintf(stderr, "interbench: %s\n", err);
		return 2;
	}
	privs_warn(&pv, &r.opt, FIFO_LEVELS, stderr);
	install_signals();
	r.rt_ok = become_realtime(&r, &pv);
	if (r.opt.uniprocessor && pin_to_cpu0() != 0)
		return 1;

	run_info_init(&r.info);
	r.info.loops_per_ms = get_loops_per_ms(&r.opt, &r.info.loops_source);
	if (!r.info.loops_per_ms) {
		fprintf(stderr, "interbench: interrupted (%s) while measuring loops_per_ms\n", strsignal(g_signal));
		return 128 + g_signal;
	}
	r.info.duration_s = r.opt.duration_s;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	r.info.cpus = cpus > 0 ? (unsigned)cpus : 1;
	r.info.load_threads = r.opt.load_threads ? r.opt.load_threads : r.info.cpus;
	r.info.comment = r.opt.comment;

	r.load_cfg = (struct load_config){
		.threads = r.info.load_threads,
		.loops_per_ms = r.info.loops_per_ms,
		.custom_interval_us = r.opt.custom_interval_us,
		.custom_cpu_pct = r.opt.custom_cpu_pct,
		.workdir = r.opt.workdir,
		.file_size_bytes = r.opt.file_size_bytes,
		.mem_size_bytes = r.opt.mem_size_bytes,
		.interrupted = &g_signal,
	};
	r.loads = calloc(load_count, sizeof(*r.loads));
	if (!r.loads) {
		fprintf(stderr, "interbench: calloc: %s\n", strerror(errno));
		return 1;
	}
	for (unsigned i = 0; i < load_count; i++) {
		r.loads[i].desc = load_table[i];
		r.loads[i].cfg = &r.load_cfg;
	}

	if (!r.opt.console_only) {
		r.log = logfile_open(&r.info, r.log_path, sizeof(r.log_path));
		if (!r.log)
			fprintf(stderr, "interbench: open %s: %s; console only\n", r.log_path, strerror(errno));
		else
			logfile_header(r.log, &r.info);
	}
	logfile_header(stdout, &r.info);
	if (load_in_run(&r, load_find("Memload"))) {
		char line[256];
		memload_policy_line(&r.load_cfg, line, sizeof(line));
		printf("%s\n", line);
		if (r.log)
			fprintf(r.log, "%s\n", line);
	}
	notes_before_run(&r);

	int sig = run_matrix(&r);
	cleanup_loads(&r);
	if (sig) {
		const char *msg = "*** interrupted: the results above are what was measured before the signal";
		printf("\n%s (%s)\n", msg, strsignal(sig));
		if (r.log)
			fprintf(r.log, "\n%s (%s)\n", msg, strsignal(sig));
	}
	if (r.log)
		fclose(r.log);
	free(r.loads);
	return sig ? 128 + sig : 0;
}
