/* interbench: the Linux interactivity benchmark.  The wiring of a run: parse the options, set
 * the main process up, build the plan (run/plan.h), get loops_per_ms, then run the matrix of
 * (simulated task, load) pairs (run/matrix.h) into the run's report (report/sink.h), which
 * writes the classic interbench table on the console and in the kernel-stamped logfile, and
 * the JSON; the exit status says how it went. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "calibrate/calibrate.h"
#include "run/mainproc.h"
#include "run/matrix.h"
#include "run/options.h"
#include "run/plan.h"
#include "run/scheduler.h"
#include "run/sweep.h"
#include "host/audit.h"
#include "host/cgplace.h"
#include "run/json_seed.h"
#include "host/machine.h"
#include "host/runlock.h"
#include "lib/suggest.h"
#include "lib/text.h"
#include "lib/timeutil.h"
#include "lib/version.h"
#include "report/failif.h"
#include "report/sink.h"
#include "run/threshold.h"
#include "run/stdfds.h"
#include "tools/subcommand.h"

/* The exit status of a run in which a pair failed while others were measured (results kept;
 * 1 is a run with nothing measured or a result not written, 2 bad input: man/interbench.8
 * EXIT STATUS). */
#define EXIT_PAIR_FAILED 4

/* Set by the signal handler; a handler can only reach a global. */
static volatile sig_atomic_t g_signal;
/* The run's scratch registry and its report, whose outputs still being written the handler's
 * last act unlinks (set once, before any load runs). */
static const struct scratch_set *g_scratch;
static const struct report_sink *g_sink;
/* The cgroups the run placed its processes in (--bench-cgroup, --load-cgroup), which the
 * handler's last act removes when the run created them (set before any is created). */
static const struct cgplace_set *g_cgroups;

/* The first signal asks for an orderly stop (results so far kept, children reaped, scratch
 * files removed).  A second one exits at once, unlinking the scratch files first; the
 * children die with us (PR_SET_PDEATHSIG). */
static void on_signal(int sig)
{
	if (g_signal) {
		if (g_scratch)
			scratch_unlink_signal_safe(g_scratch);
		if (g_sink)
			sink_unlink_signal_safe(g_sink);
		for (int i = 0; g_cgroups && i < 2; i++)
			cgplace_set_release_signal_safe(&g_cgroups[i]);
		_exit(128 + g_signal);
	}
	g_signal = sig;
}

/* What the run needs besides the options, by concern: main's process, the machine, the plan,
 * the loads' shared set-up, the matrix and the report. */
struct run {
	struct options opt;
	struct mainproc main;      /* main's SCHED_FIFO, --dma-latency (run/mainproc.h) */
	struct machine_info machine;
	struct audit audit;        /* what on the machine decides interactivity (host/audit.h) */
	struct run_watch watch;    /* another interbench run at the same time (host/runlock.h) */
	struct sweep_side bench, load; /* the scheduling settings swept (sweep_build) */
	struct plan plan;
	struct scratch_set scratch; /* every scratch file of the run (loadkit/scratch.h) */
	struct load_config load_cfg;
	struct matrix matrix;
	struct report_sink sink;   /* every output of the run (report/sink.h) */
	struct calib_check calib;  /* the measurements behind loops_per_ms; zero with -l */
	struct run_scheduler scheduler; /* --scheduler's sched_ext schedulers (run/scheduler.h) */
	struct cgplace_set cgroups[2]; /* --bench-cgroup's and --load-cgroup's (host/cgplace.h) */
	struct failif_spec fail_if;  /* --fail-if's conditions (report/failif.h) */
	struct threshold_run threshold; /* --on-threshold's rules (run/threshold.h) */
};

/* The console's line before a full calibration (calib_request.measuring). */
static void measuring(void *sink, const char *why)
{
	sink_measuring(sink, why);
}

/* loops_per_ms as the calibration cache's policy gives it (calib_obtain): -l's, the saved
 * value, or measured (the console says so) and saved; r->calib the measurements behind it.
 * *source says which ("-l", "saved", "measured").  Returns 0 only when a signal interrupted
 * the measurement. */
static uint64_t get_loops_per_ms(struct run *r, const char **source)
{
	struct calib_outcome got;
	struct calib_request rq = { .given_loops_per_ms = r->opt.loops_per_ms, .recalibrate = r->opt.recalibrate,
				    .interrupted = &g_signal, .measuring = measuring, .measuring_ctx = &r->sink };
	calib_obtain(&rq, &got);
	if (got.not_saved[0])
		text_message(stderr, "interbench: warning: loops_per_ms not saved: %s", got.not_saved);
	r->calib = got.check;
	*source = got.source;
	return got.loops_per_ms;
}

/* The plan of this run (run/plan.h), at the sweep's settings as they stand.  Returns 0, or -1
 * when out of memory (reported). */
static int build_plan(struct run *r)
{
	struct plan_input in = { .opt = &r->opt, .bench = &r->bench, .load = &r->load, .rt_ok = r->main.rt_ok,
				 .fifo_prio = r->main.prio_max - 2 };
	if (plan_build(&r->plan, &in) == 0)
		return 0;
	text_message(stderr, "interbench: calloc: %s", strerror(errno));
	return -1;
}

/* Refuses, before anything starts, a selection that leaves no pair to run, or one whose
 * workloads the system cannot serve (plan_preflight: the disk loads' --workdir).  Returns 0,
 * or 2 with one line printed (1 when out of memory). */
static int check_selection(struct run *r)
{
	char err[PATH_MAX + 256];
	if (build_plan(r) != 0)
		return 1;
	if (r->plan.n == 0) {
		plan_no_pair_reasons(&r->opt, err, sizeof(err));
		text_message(stderr, "interbench: -W/-X/-w/-x: no (simulation, load) pair left to run (accepted: %s)", err);
		return 2;
	}
	if (plan_preflight(&r->plan, &r->opt, err, sizeof(err)) != 0 ||
	    failif_parse(&r->opt.fail_if, (enum failif_mode)r->opt.fail_if_mode, &r->fail_if, err, sizeof(err)) != 0 ||
	    failif_check_plan(&r->fail_if, &r->plan, err, sizeof(err)) != 0) {
		text_message(stderr, "interbench: %s", err);
		return 2;
	}
	return 0;
}

/* Says that a cgroup the run created stays (cgplace_set_release's warn). */
static void cgroup_stays(const char *err)
{
	text_message(stderr, "interbench: warning: %s", err);
}

/* Resolves --bench-cgroup and --load-cgroup (creating a missing one), before anything runs,
 * and reads what they are; a cgroup without the cpu, cpuset or memory controller is run in
 * with a warning (enabling one is the system owner's call).  Returns 0, or 2 with one line
 * printed (the cgroups created so far removed by release_cgroups). */
static int place_cgroups(struct run *r)
{
	const struct optspec_texts *args[2] = { &r->opt.bench_cgroups, &r->opt.load_cgroups };
	static const char *const names[2] = { "--bench-cgroup", "--load-cgroup" };
	char err[2 * PATH_MAX + 512];
	for (int i = 0; i < 2; i++) {
		if (cgplace_set_resolve("", names[i], args[i]->v, args[i]->n, &r->cgroups[i], err, sizeof(err)) != 0) {
			text_message(stderr, "interbench: %s", err);
			return 2;
		}
		for (unsigned k = 0; k < r->cgroups[i].n; k++) {
			const struct cgplace_facts *f = &r->cgroups[i].v[k].facts;
			if (f->missing[0])
				text_message(stderr, "interbench: warning: %s %s: controllers not enabled in it: %s (its "
					     "cgroup.controllers: '%s'), so their files (cpu.weight, cpu.max, cpuset.cpus, "
					     "memory.max) are not there and limit nothing; its parent's cgroup.subtree_control "
					     "enables them, which interbench leaves as it is", names[i], f->path, f->missing,
					     f->controllers);
		}
	}
	return 0;
}

/* Removes the cgroups the run created, once their processes left (children reaped), and
 * closes them; says so when one stays. */
static void release_cgroups(struct run *r)
{
	for (int i = 0; i < 2; i++)
		cgplace_set_release(&r->cgroups[i], 2000, cgroup_stays);
}

/* The machine's facts, loops_per_ms, the loads' shared set-up, then the outputs opened.
 * Returns 0, the exit status (2: an output refused; -1: a failure reported), or 128 + signal
 * when interrupted while measuring loops_per_ms. */
static int setup_run(struct run *r)
{
	char why[PATH_MAX + 128];
	const char *loops_source;
	if (run_watch_start(&r->watch, now_ns(), why, sizeof(why)) != 0)
		text_message(stderr, "interbench: warning: another interbench run at the same time would go unnoticed: %s", why);
	machine_info_collect(&r->machine);
	audit_collect(&r->audit, "/");
	r->opt.seed = matrix_shuffle_seed(&r->opt);
	uint64_t lpms = get_loops_per_ms(r, &loops_source);
	if (!lpms) {
		text_message(stderr, "interbench: interrupted (%s) while measuring loops_per_ms", strsignal(g_signal));
		return 128 + g_signal;
	}
	/* one load thread per CPU the run may use (taskset, a cpuset), not per CPU online; -L's
	 * first value when it gives alternatives (each load setting then carries its own) */
	r->load_cfg = (struct load_config){
		.threads = r->opt.load_threads.v[0] ? (unsigned)r->opt.load_threads.v[0] :
			   r->machine.allowed_cpus ? r->machine.allowed_cpus : r->machine.online_cpus,
		.loops_per_ms = lpms, .interrupted = &g_signal, .scratch = &r->scratch,
		.cgroup_v2 = r->cgroups[1].n ? &r->cgroups[1].v[0].loc : NULL,
	};
	g_scratch = &r->scratch;
	g_sink = &r->sink;
	struct sink_setup in = { .plan = &r->plan, .bench = &r->bench, .load = &r->load, .machine = &r->machine,
				 .audit = &r->audit, .load_cfg = &r->load_cfg, .loops_source = loops_source,
				 .calib = r->opt.loops_per_ms ? NULL : &r->calib,
				 .concurrent_pid = r->watch.at_start, .rt_ok = r->main.rt_ok,
				 .fail_if = r->fail_if.n ? &r->fail_if : NULL,
				 .cgroups = r->cgroups };
	return sink_open(&r->sink, &in);
}

/* Everything before the first pair: main's priority probed, the settings and the plan resolved
 * with it, the checks that refuse a run (exit 2), main's set-up, the run's, the outputs.  Returns 0, or the exit status
 * (-1: a failure already reported, exit 1). */
static int start_run(struct run *r)
{
	sink_console_open(&r->sink, &r->opt, &g_signal);
	mainproc_probe(&r->main);  /* main's SCHED_FIFO priority, which the settings are resolved with */
	sweep_build(&r->opt, r->main.prio_max - 2, &r->bench, &r->load);
	int rc = mainproc_check_cpus(&r->opt);
	if (rc == 0)
		rc = run_scheduler_preflight(&r->opt, SCX_SYSFS, geteuid() == 0);
	if (rc == 0)
		rc = sweep_probe_slices(&r->bench, &r->load);
	if (rc == 0)
		rc = check_selection(r);
	if (rc == 0)
		rc = place_cgroups(r);
	if (rc == 0)
		rc = mainproc_check_cgroup_cpus(&r->opt, r->cgroups);
	if (rc == 0)
		rc = mainproc_prepare(&r->main, &r->opt, on_signal);
	return rc == 0 ? setup_run(r) : rc;
}

/* Runs the matrix into the report.  Returns 0, or -1 when out of memory (reported). */
static int run_matrix(struct run *r)
{
	struct matrix_params p = {
		.plan = &r->plan, .opt = &r->opt, .load = &r->load, .repeats = r->opt.repeat,
		.shuffle_seed = r->opt.seed,
		/* the budget's sub-runs and -t: fixed windows; the adaptive window from --min-time to
		 * --max-time, until the figures are known (enum run_window) */
		.duration_ns = (uint64_t)options_window_s(&r->opt) * NS_PER_S,
		.precision = r->opt.window == RUN_WINDOW_ADAPTIVE ? &r->opt.precision : NULL,
		.budget_ns = matrix_budget_ns(&r->opt, &r->plan),
		.min_ns = (uint64_t)r->opt.min_time_s * NS_PER_S, .load_cfg = &r->load_cfg,
		.main = r->main, .timeline_fd = r->sink.run.timeline_fd,
		.frame_log_fd = r->sink.run.frame_log_fd, .interrupted = &g_signal, .watch = &r->watch,
		.check_rate = !r->opt.loops_per_ms,  /* a value given on purpose is not the CPU's */
		.scheduler = r->opt.schedulers.n ? &r->scheduler : NULL,
		.cgroups = r->cgroups,
	};
	if (threshold_init(&r->threshold, &r->opt) != 0)
		return -1;
	p.threshold = r->threshold.watch ? &r->threshold : NULL;
	run_scheduler_init(&r->scheduler, SCX_SYSFS, &g_signal);
	calib_reference(&r->calib, r->load_cfg.loops_per_ms, &p.speed_reference);
	if (matrix_init(&r->matrix, &p) != 0) {
		text_message(stderr, "interbench: calloc: %s", strerror(errno));
		return -1;
	}
	struct matrix_sink sink = sink_matrix(&r->sink);
	matrix_run(&r->matrix, &sink);
	run_scheduler_stop(&r->scheduler);  /* the fair class again, also after a signal */
	return 0;
}

/* After the pairs: the nothing-measured verdict, the outputs closed (--fail-if's lines said),
 * the resources released.  Returns the exit status: 128 + the signal that stopped the run, 1
 * when no pair was measured or a result was not written, EXIT_PAIR_FAILED when a pair failed
 * and others were measured (as fio and stress-ng exit non-zero when a job fails), 3 when
 * --fail-if failed the run (FAILIF_EXIT_STATUS), else 0. */
static int finish_run(struct run *r, int rc)
{
	int sig = g_signal;
	size_t failed = rc == 0 && r->plan.n ? matrix_failed(&r->matrix) : 0;
	if (!sig && rc == 0 && r->plan.n && matrix_measured(&r->matrix) == 0) {
		text_message(stderr, "interbench: no pair could be measured (every one failed; see the reasons above)");
		rc = -1;
	}
	if (threshold_stopping(&r->threshold)) {
		size_t ran = 0;
		for (size_t i = 0; i < r->plan.n; i++)
			ran += matrix_ran(&r->matrix, i) > 0;
		text_message(stderr, "interbench: --on-threshold: a stop action ended the run after %zu of its %zu pairs; "
			     "what was measured is kept", ran, r->plan.n);
	}
	pid_t during = r->watch.during;
	run_watch_end(&r->watch);
	if (sink_close(&r->sink, &r->matrix, during) != 0)
		rc = -1;
	if (!sig && !rc && failed)  /* after the tables, which give each reason */
		text_message(stderr, "interbench: %zu run%s of a pair failed (the reasons are in the table; exit %d)",
			     failed, failed == 1 ? "" : "s", EXIT_PAIR_FAILED);
	mainproc_release(&r->main);
	release_cgroups(r);  /* the children are reaped: the cgroups created are empty */
	matrix_free(&r->matrix);
	plan_free(&r->plan);
	threshold_free(&r->threshold);
	return sig ? 128 + sig : rc ? 1 : failed ? EXIT_PAIR_FAILED
		: sink_fail_if_failed(&r->sink) ? FAILIF_EXIT_STATUS : 0;
}

/* A first word that is no option but near a subcommand's name ("compair"): says so, with the
 * nearest (lib/suggest.h).  Returns 2, or -1 for another word (the option parse judges it). */
static int misspelt_subcommand(int argc, char **argv)
{
	struct suggest sg;
	if (argc < 2 || argv[1][0] == '-')
		return -1;
	suggest_begin(&sg, argv[1], false);
	for (unsigned i = 0; i < subcommand_count; i++)
		suggest_offer(&sg, subcommands[i].name);
	if (!sg.best)
		return -1;
	text_message(stderr, "interbench: %s: unknown subcommand (did you mean %s? see -h for the accepted ones)",
		     argv[1], sg.best);
	return 2;
}

/* The subcommand argv names (tools/subcommand.h).  Returns its exit status, or -1 when argv
 * names none; 2 when its standard output could not be written (closed, a full disk), so that
 * a comparison nobody could read never passes for one that found nothing. */
static int subcommand(int argc, char **argv)
{
	const struct subcommand *sub = argc > 1 ? subcommand_find(argv[1]) : NULL;
	if (!sub)
		return misspelt_subcommand(argc, argv);
	int rc = sub->main(argc - 1, argv + 1, stdout, stderr);
	if (rc != 2 && stdfds_written(argv[1]) != 0)  /* 2: the error said already */
		return 2;
	return rc;
}

/* The option parse's outcomes that end the program before a run: -h, --audit, --version, a
 * bad option.  Returns their exit status, or -1 to run. */
static int early_exit(enum opt_status st, const char *err)
{
	static struct audit a;
	switch (st) {
	case OPT_HELP:
		options_usage(stdout, "interbench", subcommand_usage);
		return stdfds_written("");
	case OPT_HELP_ALL:
		options_usage_all(stdout, "interbench", subcommand_usage);
		return stdfds_written("");
	case OPT_AUDIT:
		audit_collect(&a, "/");
		audit_print(stdout, &a);
		return stdfds_written("--audit") ? 2 : audit_hurts(&a) ? 1 : 0;
	case OPT_SHOW_VERSION:
		printf("interbench %s\n", ib_version());
		return stdfds_written("");
	case OPT_ERROR:
		text_message(stderr, "interbench: %s", err);
		return 2;
	default:
		return -1;
	}
}

int main(int argc, char **argv)
{
	static struct run r; /* large (load contexts); static storage, passed explicitly */
	char err[512];
	if (stdfds_open() != 0)
		return 1;
	json_seed_without_blocking(); /* before any JSON object, and before main turns SCHED_FIFO */
	int rc = subcommand(argc, argv);
	if (rc >= 0)
		return rc;
	options_init(&r.opt);
	rc = early_exit(options_parse(&r.opt, argc, argv, err, sizeof(err)), err);
	if (rc >= 0)
		return rc;
	if (stdfds_console_optional() != 0)
		return 1;
	g_cgroups = r.cgroups;  /* empty until resolved */
	rc = start_run(&r);
	if (rc != 0) {
		release_cgroups(&r);
		return rc < 0 ? 1 : rc;
	}
	return finish_run(&r, run_matrix(&r));
}
