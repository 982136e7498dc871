#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "run/options.h"
#include "lib/histogram.h"
#include "run/matrix.h"
#include "run/threshold.h"
#include "explain/model.h"
#include "lib/optparse.h"
#include "host/pmqos.h"
#include "lib/text.h"

#define O(field) offsetof(struct options, field)

/* --precision's parser (run/stoprule.h precision_parse) into struct options. */
static int precision_set_opt(const struct optspec *s, void *base, const char *arg, char *what, size_t whatlen)
{
	struct options *o = base;
	(void)s;
	if (precision_parse(arg, &o->precision, what, whatlen) != 0)
		return OPTSPEC_BAD;
	o->precision_given = true;
	return OPTSPEC_SET;
}

/* --explain-threshold's parser: a time into struct options, --explain with it. */
static int threshold_set_opt(const struct optspec *s, void *base, const char *arg, char *what, size_t whatlen)
{
	struct options *o = base;
	(void)s;
	if (explain_parse_threshold(arg, &o->explain_threshold_ns) != 0) {
		snprintf(what, whatlen, "invalid time");
		return OPTSPEC_BAD;
	}
	o->explain = true;
	return OPTSPEC_SET;
}

/* --histogram MAX: "all", or a time (bare: microseconds, as cyclictest's -h US) from 1 us to
 * lib/histogram.h's HIST_MAX_NS. */
static int histogram_set_opt(const struct optspec *s, void *base, const char *arg, char *what, size_t whatlen)
{
	struct options *o = base;
	(void)s;
	o->histogram = true;
	o->histogram_max_ns = 0;
	if (strcmp(arg, "all") == 0 || parse_duration_ns(arg, 1000, 1000, HIST_MAX_NS, &o->histogram_max_ns) == 0)
		return OPTSPEC_SET;
	snprintf(what, whatlen, "invalid limit");
	return OPTSPEC_BAD;
}

/* --fail-if-mode's values, in enum failif_mode's order (report/failif.h). */
static const char *const fail_if_modes[] = { "point", "interval", NULL };

const char *options_frame_log_format_at(unsigned i)
{
	static const char *const names[] = { [FRAME_LOG_MANGOHUD] = "mangohud", [FRAME_LOG_PRESENTMON] = "presentmon" };
	return i < sizeof(names) / sizeof(names[0]) ? names[i] : NULL;
}

/* The options of the run as a whole.  -h lists them by section (enum optspec_section), in
 * this order within a section, each by its help's first line (its summary); --help-all by the
 * whole help.  Each workload's own options follow them (workloads/, their descriptors'
 * .options).  A time (time_unit_ns) takes units: -t 10 is 10 s, -t 500ms refused (whole
 * seconds), --dma-latency 2ms is 2000 us. */
#define NS_S 1000000000ull
#define NS_US 1000ull
static const struct optspec core_options[] = {
	{ .long_name = "loops-per-ms", .short_name = 'l', .type = OPTSPEC_U64, .metavar = "N",
	  .help = "use N loops per ms (default: saved or measured)", .min = 1, .max = UINT32_MAX,
	  .section = OPTSPEC_SECTION_EXPERT, .offset = O(loops_per_ms) },
	{ .long_name = "load-threads", .short_name = 'L', .type = OPTSPEC_INTS, .metavar = "LIST",
	  .help = "threads of Burn, Ring, Compile; groups of Hack\n(default: one per CPU the run may use); a list "
		  "sweeps: -L 1,4",
	  .min = 1, .max = LOAD_MAX_THREADS, .def = 0, .json_key = "load_threads", .section = OPTSPEC_SECTION_PLACEMENT,
	  .offset = O(load_threads) },
	{ .long_name = "time", .short_name = 't', .type = OPTSPEC_UINT, .metavar = "TIME",
	  .help = "run each pair once for TIME (10, 10s, 2m)\n(default: sub-runs of 5 s within --budget); a bare "
		  "number is seconds, and a time must be whole seconds",
	  .min = 1, .max = OPT_MAX_DURATION_S, .def = 0, .time_unit_ns = NS_S, .json_key = "duration_s",
	  .section = OPTSPEC_SECTION_TIME, .offset = O(duration_s) },
	{ .long_name = "precision", .type = OPTSPEC_CUSTOM, .metavar = "SPEC",
	  .help = "stop a pair once its figures are this precise:\na pair is known, and runs no more, once each "
		  "judged figure's 95% interval is within this of it (default: mean=10%,p99=20%,cpu=2,met=2: "
		  "latency mean and p99 within 10 and 20% or 20 us, % desired CPU and % deadlines met within 2 "
		  "points)", .accepted = PRECISION_ACCEPTED, .section = OPTSPEC_SECTION_TIME,
	  .set = precision_set_opt, .offset = O(precision) },
	{ .long_name = "min-time", .type = OPTSPEC_UINT, .metavar = "TIME",
	  .help = "adaptive window: each pair once, at least TIME\n"
		  "and the task's own cycle (X: one 10.1 s sweep), instead of the budget, until its figures "
		  "are known (default: 5s)", .min = 1, .max = OPT_MAX_DURATION_S, .def = 0, .time_unit_ns = NS_S,
	  .json_key = "min_time_s", .section = OPTSPEC_SECTION_TIME, .offset = O(min_time_s) },
	{ .long_name = "max-time", .type = OPTSPEC_UINT, .metavar = "TIME",
	  .help = "adaptive window: each pair once, at most TIME\n(default: 60s)", .min = 1,
	  .max = OPT_MAX_DURATION_S, .def = 0, .time_unit_ns = NS_S, .json_key = "max_time_s",
	  .section = OPTSPEC_SECTION_TIME, .offset = O(max_time_s) },
	{ .long_name = "bench-nice", .short_name = 'B', .type = OPTSPEC_INTS, .metavar = "LIST",
	  .help = "nice of the benchmarked task, -20..19 (default 0);\na list sweeps: -B 0,-10 or -B 0:-20:5",
	  .min = -20, .max = 19, .json_key = "bench_nice", .not_a_fact = true, .section = OPTSPEC_SECTION_SCHED,
	  .offset = O(bench_nices) },
	{ .long_name = "load-nice", .short_name = 'N', .type = OPTSPEC_INTS, .metavar = "LIST",
	  .help = "nice of the loads, -20..19 (default 0);\na list sweeps: -N 0,19 or -N 0:19:5 (0,5,10,15,19)",
	  .min = -20, .max = 19, .json_key = "load_nice", .not_a_fact = true, .section = OPTSPEC_SECTION_SCHED,
	  .offset = O(load_nices) },
	{ .long_name = "bench-slice", .type = OPTSPEC_INTS, .metavar = "LIST",
	  .help = "EEVDF slice of the benchmarked task (6.12+),\nof policies other and batch, kept within 100us..100ms "
		  "by the kernel (default: 0, the kernel's); a bare number is microseconds; a list sweeps: "
		  "--bench-slice 100,3ms",
	  .min = 0, .max = 1000000, .time_unit_ns = NS_US, .json_key = "bench_slice_us", .not_a_fact = true,
	  .section = OPTSPEC_SECTION_SCHED, .offset = O(bench_slices) },
	{ .long_name = "load-slice", .type = OPTSPEC_INTS, .metavar = "LIST",
	  .help = "EEVDF slice of the loads, as --bench-slice",
	  .min = 0, .max = 1000000, .time_unit_ns = NS_US, .json_key = "load_slice_us", .not_a_fact = true,
	  .section = OPTSPEC_SECTION_SCHED, .offset = O(load_slices) },
	{ .long_name = "uniprocessor", .short_name = 'u', .type = OPTSPEC_FLAG,
	  .help = "pin every task to CPU 0", .json_key = "uniprocessor", .section = OPTSPEC_SECTION_PLACEMENT,
	  .offset = O(uniprocessor) },
	{ .long_name = "recalibrate", .short_name = 'b', .type = OPTSPEC_FLAG,
	  .help = "measure loops_per_ms even if a saved value matches\n(a saved one is checked and re-measured when "
		  "10% off)", .json_key = "recalibrate", .not_a_fact = true, .section = OPTSPEC_SECTION_EXPERT,
	  .offset = O(recalibrate) },
	{ .long_name = "console", .short_name = 'c', .type = OPTSPEC_FLAG, .help = "console only, no logfile",
	  .json_key = "console_only", .not_a_fact = true, .section = OPTSPEC_SECTION_OUTPUT, .offset = O(console_only) },
	{ .long_name = "realtime", .short_name = 'r', .type = OPTSPEC_FLAG,
	  .help = "benchmark the tasks as SCHED_FIFO\n(needs CAP_SYS_NICE or an RLIMIT_RTPRIO of at least 3)",
	  .json_key = "realtime", .not_a_fact = true, .section = OPTSPEC_SECTION_SCHED, .offset = O(realtime) },
	{ .long_name = "bench-policy", .type = OPTSPEC_MASK, .metavar = "LIST",
	  .help = "the task's policies: other,batch,fifo,rr,deadline;\na sweep (repeatable; -r adds fifo)",
	  .noun = "policy", .name_at = sched_kind_name, .json_key = "bench_policy", .not_a_fact = true,
	  .section = OPTSPEC_SECTION_SCHED, .offset = O(bench_policies) },
	{ .long_name = "load-policy", .type = OPTSPEC_MASK, .metavar = "LIST",
	  .help = "the loads' policies: other, batch, idle, fifo, rr;\na sweep (repeatable)",
	  .noun = "policy", .name_at = sched_kind_name, .json_key = "load_policy", .not_a_fact = true,
	  .section = OPTSPEC_SECTION_SCHED, .offset = O(load_policies) },
	{ .long_name = "rt-priority", .type = OPTSPEC_I64, .metavar = "N",
	  .help = "SCHED_FIFO/RR priority of the task and loads, 1..99,\nbelow the timing thread's (default: 2 below "
		  "the highest allowed)", .min = 1, .max = 99, .json_key = "rt_priority",
	  .section = OPTSPEC_SECTION_SCHED, .offset = O(rt_priority) },
	{ .long_name = "cpus", .type = OPTSPEC_CPUS, .metavar = "LIST",
	  .help = "run the task and the loads on these CPUs (0,2-3)", .json_key = "cpus",
	  .section = OPTSPEC_SECTION_PLACEMENT, .offset = O(cpus) },
	{ .long_name = "bench-cpus", .type = OPTSPEC_CPU_ALTS, .metavar = "LIST",
	  .help = "run the benchmarked task on these CPUs;\nlists separated by '/' are alternatives: 0/1",
	  .json_key = "bench_cpus", .section = OPTSPEC_SECTION_PLACEMENT, .offset = O(bench_cpus) },
	{ .long_name = "load-cpus", .type = OPTSPEC_CPU_ALTS, .metavar = "LIST",
	  .help = "run the loads on these CPUs, as --bench-cpus", .json_key = "load_cpus",
	  .section = OPTSPEC_SECTION_PLACEMENT, .offset = O(load_cpus) },
	{ .long_name = "bench-cgroup", .type = OPTSPEC_TEXTS, .metavar = "PATH",
	  .help = "run the benchmarked task in this cgroup v2\n(its timing thread too; under the cgroup2 mount or relative to it; "
		  "created\nwhen missing under an existing parent, then removed);\nrepeated, alternatives",
	  .noun = "cgroup path", .json_key = "bench_cgroups", .section = OPTSPEC_SECTION_PLACEMENT, .offset = O(bench_cgroups) },
	{ .long_name = "load-cgroup", .type = OPTSPEC_TEXTS, .metavar = "PATH",
	  .help = "run the loads in this cgroup v2, as --bench-cgroup", .noun = "cgroup path",
	  .json_key = "load_cgroups", .section = OPTSPEC_SECTION_PLACEMENT, .offset = O(load_cgroups) },
	{ .long_name = "scheduler", .type = OPTSPEC_TEXTS, .metavar = "CMD",
	  .help = "run the pairs under this sched_ext scheduler:\na command run without a shell ('scx_simple -f'); "
		  "fair: the kernel's own class; repeated, alternatives (Linux 6.12+)",
	  .noun = "scheduler", .json_key = "schedulers", .section = OPTSPEC_SECTION_SCHED, .offset = O(schedulers) },
	{ .long_name = "comment", .short_name = 'm', .type = OPTSPEC_TEXT, .metavar = "TEXT",
	  .help = "comment for the logfile header", .accepted = "a line of text", .json_key = "comment", .not_a_fact = true,
	  .section = OPTSPEC_SECTION_OUTPUT, .offset = O(comment) },
	{ .long_name = "load", .short_name = 'w', .type = OPTSPEC_MASK, .metavar = "NAME",
	  .help = "run only this load (repeatable)", .noun = "load", .name_at = workload_load_name_at,
	  .json_key = "loads", .not_a_fact = true, .section = OPTSPEC_SECTION_RUN, .offset = O(load_include) },
	{ .long_name = "exclude-load", .short_name = 'x', .type = OPTSPEC_MASK, .metavar = "NAME",
	  .help = "skip this load (repeatable)", .noun = "load", .name_at = workload_load_name_at,
	  .json_key = "exclude_loads", .not_a_fact = true, .section = OPTSPEC_SECTION_RUN, .offset = O(load_exclude) },
	{ .long_name = "sim", .short_name = 'W', .type = OPTSPEC_MASK, .metavar = "NAME",
	  .help = "benchmark only this simulated task (repeatable)", .noun = "simulation",
	  .name_at = workload_sim_name_at, .json_key = "sims", .not_a_fact = true, .section = OPTSPEC_SECTION_RUN,
	  .offset = O(sim_include) },
	{ .long_name = "exclude-sim", .short_name = 'X', .type = OPTSPEC_MASK, .metavar = "NAME",
	  .help = "skip this simulated task (repeatable)", .noun = "simulation",
	  .name_at = workload_sim_name_at, .json_key = "exclude_sims", .not_a_fact = true,
	  .section = OPTSPEC_SECTION_RUN, .offset = O(sim_exclude) },
	{ .long_name = "verbose", .short_name = 'v', .type = OPTSPEC_FLAG, .help = "more detail on the console",
	  .section = OPTSPEC_SECTION_OUTPUT, .offset = O(verbose) },
	{ .long_name = "quiet", .short_name = 'q', .type = OPTSPEC_FLAG,
	  .help = "no progress line, no closing line of files written;\nthe progress line is shown on stderr only "
		  "when stderr is a terminal, and never in results; the closing line names the logfile, the JSON "
		  "and the --timeline file written",
	  .section = OPTSPEC_SECTION_OUTPUT, .offset = O(quiet) },
	{ .long_name = "repeat", .type = OPTSPEC_UINT, .metavar = "N",
	  .help = "run every pair N times, in rounds; tables: medians;\nwindows of -t (default 5 s); "
		  "with --budget, at most N sub-runs a pair", .min = 1, .max = OPT_MAX_REPEAT,
	  .def = 0, .json_key = "repeat", .not_a_fact = true, .section = OPTSPEC_SECTION_TIME, .offset = O(repeat) },
	{ .long_name = "budget", .type = OPTSPEC_UINT, .metavar = "TIME",
	  .help = "at most TIME of sub-runs (default: 30s a pair):\nthe default run: rounds of every pair (windows "
		  "of -t, default 5 s) until each is decided or known, 3 to --repeat (default 20) sub-runs a pair "
		  "(default: 30 s a pair, X's 46 s); a bare number is seconds",
	  .min = 1, .max = OPT_MAX_DURATION_S, .time_unit_ns = NS_S, .json_key = "budget_s",
	  .section = OPTSPEC_SECTION_TIME, .offset = O(budget_s) },
	{ .long_name = "seed", .type = OPTSPEC_U64, .metavar = "N",
	  .help = "shuffle the pairs of the rounds with seed N\n(default: drawn; the JSON's run.shuffle_seed)",
	  .min = 1, .max = OPT_MAX_SEED, .section = OPTSPEC_SECTION_EXPERT, .offset = O(seed) },
	{ .long_name = "json", .type = OPTSPEC_STRING, .metavar = "FILE",
	  .help = "also write the results as JSON to FILE\n(- for stdout, the tables then go to stderr); see "
		  "doc/json.md", .accepted = "a file name, or - for stdout", .noun = "file name",
	  .section = OPTSPEC_SECTION_OUTPUT, .offset = O(json_path) },
	{ .long_name = "timeline", .type = OPTSPEC_STRING, .metavar = "FILE",
	  .help = "record every period of every pair in FILE\n(binary, doc/timeline.md)", .accepted = "a file name",
	  .noun = "file name", .json_key = "timeline", .not_a_fact = true, .section = OPTSPEC_SECTION_OUTPUT,
	  .offset = O(timeline_path) },
	{ .long_name = "fail-if", .type = OPTSPEC_TEXTS, .metavar = "EXPR",
	  .help = "exit 3 when a figure of a pair is beyond a limit:\n'met<99,p99>2ms', 'Audio/Burn:p99>500us' "
		  "(figures\nas compare --threshold names them; repeatable)", .noun = "condition list",
	  .json_key = "fail_if", .not_a_fact = true, .section = OPTSPEC_SECTION_OUTPUT, .offset = O(fail_if) },
	{ .long_name = "fail-if-mode", .type = OPTSPEC_CHOICE, .metavar = "MODE", .choices = fail_if_modes,
	  .help = "how --fail-if checks a figure: point or interval\n(point, the default: the figure as shown; interval: fail "
		  "only when its 95% interval over the sub-runs lies wholly beyond the limit)",
	  .json_key = "fail_if_mode", .not_a_fact = true, .section = OPTSPEC_SECTION_OUTPUT, .offset = O(fail_if_mode) },
	{ .long_name = "export-csv", .type = OPTSPEC_STRING, .metavar = "FILE",
	  .help = "also write the results as a CSV table to FILE\n(a row a pair, a column a figure; RFC 4180)",
	  .accepted = "a file name", .noun = "file name", .section = OPTSPEC_SECTION_OUTPUT, .offset = O(export_csv_path) },
	{ .long_name = "export-markdown", .type = OPTSPEC_STRING, .metavar = "FILE",
	  .help = "also write that table as GitHub Markdown to FILE",
	  .accepted = "a file name", .noun = "file name", .section = OPTSPEC_SECTION_OUTPUT, .offset = O(export_markdown_path) },
	{ .long_name = "histogram", .type = OPTSPEC_CUSTOM, .metavar = "MAX",
	  .help = "print latency histograms, rows up to MAX\n(as cyclictest -h: us, or 2ms; all: every row; the rest "
		  "counted as over)",
	  .accepted = "all, or a time from 1us to 137s, a bare number in microseconds", .set = histogram_set_opt,
	  .section = OPTSPEC_SECTION_OUTPUT, .offset = O(histogram_max_ns) },
	{ .long_name = "histogram-csv", .type = OPTSPEC_STRING, .metavar = "FILE",
	  .help = "also write the latency histograms to FILE as CSV\n(a line a bucket, for plotting)",
	  .accepted = "a file name", .noun = "file name", .section = OPTSPEC_SECTION_OUTPUT, .offset = O(histogram_csv_path) },
	{ .long_name = "trace", .type = OPTSPEC_STRING, .metavar = "FILE",
	  .help = "write a trace of the run to FILE for Perfetto\n(ui.perfetto.dev): pairs, sub-runs, late periods and\n"
		  "their causes, Pipeline frames (doc/trace.md)",
	  .accepted = "a file name", .noun = "file name", .section = OPTSPEC_SECTION_OUTPUT, .offset = O(trace_path) },
	{ .long_name = "frame-log", .type = OPTSPEC_STRING, .metavar = "DIR",
	  .help = "write frame-time logs as MangoHud does, into DIR\n(Pipeline, Video and Gaming: a CSV per run of a pair; "
		  "DIR made when missing)", .accepted = "a directory name",
	  .noun = "directory name", .json_key = "frame_log", .not_a_fact = true, .section = OPTSPEC_SECTION_OUTPUT, .offset = O(frame_log_dir) },
	{ .long_name = "frame-log-format", .type = OPTSPEC_MASK, .metavar = "LIST",
	  .help = "--frame-log's columns: mangohud, presentmon or both\n(default: mangohud, MangoHud's, for its viewers; "
		  "presentmon: PresentMon's, for CapFrameX)", .noun = "frame log format",
	  .name_at = options_frame_log_format_at, .json_key = "frame_log_formats", .not_a_fact = true,
	  .section = OPTSPEC_SECTION_OUTPUT, .offset = O(frame_log_formats) },
	{ .long_name = "wake", .type = OPTSPEC_MASK, .metavar = "LIST",
	  .help = "how a periodic task is woken: thread, timer;\na sweep: thread (the realtime timing thread wakes "
		  "it, as interbench 0.31; default) and timer (it sleeps on its own absolute timer, as an "
		  "application does)",
	  .noun = "wake-up", .name_at = sim_wake_name_at, .json_key = "wake", .not_a_fact = true,
	  .section = OPTSPEC_SECTION_RUN, .offset = O(wakes) },
	{ .long_name = "explain", .type = OPTSPEC_FLAG,
	  .help = "say why each missed deadline was missed:\nwho ran instead, which interrupts, idle exit, "
		  "preemption (BPF as root; else /proc's schedstat: time runnable against time run)",
	  .json_key = "explain", .section = OPTSPEC_SECTION_EXPLAIN, .offset = O(explain) },
	{ .long_name = "explain-threshold", .type = OPTSPEC_CUSTOM, .metavar = "TIME",
	  .help = "also explain periods later than TIME (500us, 2ms);\nimplies --explain; a bare number is "
		  "microseconds", .accepted = EXPLAIN_THRESHOLD_ACCEPTED, .set = threshold_set_opt,
	  .section = OPTSPEC_SECTION_EXPLAIN, .offset = O(explain_threshold_ns) },
	{ .long_name = "on-threshold", .type = OPTSPEC_TEXTS, .metavar = "LAT:ACTION",
	  .help = "when a period's scheduling latency exceeds LAT\n(500us), once a pair: stop (the run after this pair),\n"
		  "signal=SIG,pid=PID, or exec=CMD ARGS (no shell;\nIB_LATENCY_US... in its environment); repeatable",
	  .noun = "action", .json_key = "on_threshold", .not_a_fact = true, .section = OPTSPEC_SECTION_EXPLAIN, .offset = O(on_threshold) },
	{ .long_name = "on-threshold-repeat", .type = OPTSPEC_FLAG,
	  .help = "act at every period over the latency, not once a pair\n(one command of a rule at a time)",
	  .json_key = "on_threshold_repeat", .not_a_fact = true, .section = OPTSPEC_SECTION_EXPLAIN, .offset = O(on_threshold_repeat) },
	{ .long_name = "on-threshold-timeout", .type = OPTSPEC_UINT, .metavar = "TIME",
	  .help = "an exec action still running after TIME is killed\n(default: 10s; a bare number is seconds)", .min = 1, .max = 3600,
	  .def = THRESHOLD_TIMEOUT_S_DEFAULT, .time_unit_ns = NS_S, .json_key = "on_threshold_timeout_s",
	  .not_a_fact = true, .section = OPTSPEC_SECTION_EXPLAIN, .offset = O(on_threshold_timeout_s) },
	{ .long_name = "dma-latency", .type = OPTSPEC_I64, .metavar = "TIME",
	  .help = "hold a CPU wakeup latency limit of TIME\nvia /dev/cpu_dma_latency during the run, as cyclictest "
		  "does (0 keeps CPUs out of deep idle states; a bare number is microseconds; needs root)",
	  .min = 0, .max = PMQOS_MAX_LATENCY_US, .def = -1, .time_unit_ns = NS_US, .json_key = "dma_latency_us",
	  .section = OPTSPEC_SECTION_SCHED, .offset = O(dma_latency_us) },
	{ .long_name = "audit", .type = OPTSPEC_ACTION, .help = "print what on this machine decides interactivity\n"
	  "and exit (1 when a setting known to hurt it is found)", .action = OPT_AUDIT,
	  .section = OPTSPEC_SECTION_INFO },
	{ .long_name = "version", .type = OPTSPEC_ACTION, .help = "print the version and exit",
	  .action = OPT_SHOW_VERSION, .section = OPTSPEC_SECTION_INFO },
	{ .long_name = "help", .short_name = 'h', .type = OPTSPEC_ACTION, .help = "this help (the common options)",
	  .action = OPT_HELP, .section = OPTSPEC_SECTION_INFO },
	{ .long_name = "help-all", .type = OPTSPEC_ACTION, .help = "every option, in full, the workloads' too",
	  .action = OPT_HELP_ALL, .section = OPTSPEC_SECTION_INFO },
};
#define CORE_COUNT (sizeof(core_options) / sizeof(core_options[0]))
#define MAX_ENTRIES (CORE_COUNT + OPT_MAX_WORKLOAD_OPTIONS)

/* One option of the command line and every settings struct its value goes into (a workload
 * option shared by several workloads has one base per workload). */
struct entry {
	const struct optspec *spec;
	void *bases[WL_MAX];
	unsigned nbases;
};

/* Every option of the command line, in -h order. */
struct entries {
	struct entry e[MAX_ENTRIES];
	unsigned n;
};

static void add_entry(struct entries *es, const struct optspec *s, void *base)
{
	for (unsigned i = 0; i < es->n; i++)
		if (es->e[i].spec == s) {
			if (es->e[i].nbases < WL_MAX)
				es->e[i].bases[es->e[i].nbases++] = base;
			return;
		}
	if (es->n < MAX_ENTRIES)
		es->e[es->n++] = (struct entry){ .spec = s, .bases = { base }, .nbases = 1 };
}

/* Collects the core options (into o) and every workload's (into its config in o). */
static void entries_collect(struct entries *es, struct options *o)
{
	es->n = 0;
	for (unsigned i = 0; i < CORE_COUNT; i++)
		add_entry(es, &core_options[i], o);
	for (unsigned w = 0; w < workload_count; w++)
		for (unsigned k = 0; workload_table[w]->options && workload_table[w]->options[k]; k++)
			add_entry(es, workload_table[w]->options[k], o->wl_opts[w].bytes);
}

const void *options_wl_opts(const struct options *o, unsigned i)
{
	return o->wl_opts[i].bytes;
}

void options_init(struct options *o)
{
	memset(o, 0, sizeof(*o));
	optspec_defaults(core_options, CORE_COUNT, o);
	o->precision = PRECISION_DEFAULT;
	for (unsigned w = 0; w < workload_count; w++)
		for (unsigned k = 0; workload_table[w]->options && workload_table[w]->options[k]; k++)
			optspec_defaults(workload_table[w]->options[k], 1, o->wl_opts[w].bytes);
}

/* Whether option k of workload w was listed by an earlier workload (a shared option). */
static bool listed_before(unsigned w, const struct optspec *s)
{
	for (unsigned v = 0; v < w; v++)
		for (unsigned k = 0; workload_table[v]->options && workload_table[v]->options[k]; k++)
			if (workload_table[v]->options[k] == s)
				return true;
	return false;
}

/* options_walk over the workloads' options only. */
static void walk_workload_options(const struct options *o,
				  void (*fn)(const struct optspec *s, const void *base, void *arg), void *arg)
{
	for (unsigned w = 0; w < workload_count; w++)
		for (unsigned k = 0; workload_table[w]->options && workload_table[w]->options[k]; k++)
			if (!listed_before(w, workload_table[w]->options[k]))
				fn(workload_table[w]->options[k], o->wl_opts[w].bytes, arg);
}

void options_walk(const struct options *o, void (*fn)(const struct optspec *s, const void *base, void *arg),
		  void *arg)
{
	for (unsigned i = 0; i < CORE_COUNT; i++)
		fn(&core_options[i], o, arg);
	walk_workload_options(o, fn, arg);
}

bool options_key_is_fact(const char *json_key)
{
	for (unsigned i = 0; i < CORE_COUNT; i++)
		if (core_options[i].json_key && strcmp(core_options[i].json_key, json_key) == 0)
			return !core_options[i].not_a_fact;
	for (unsigned w = 0; w < workload_count; w++)
		for (unsigned k = 0; workload_table[w]->options && workload_table[w]->options[k]; k++) {
			const struct optspec *s = workload_table[w]->options[k];
			if (s->json_key && strcmp(s->json_key, json_key) == 0)
				return !s->not_a_fact;
		}
	return true;
}

/* options_workload_line's walk: appends "--name value" for an option not at its default. */
struct line_acc {
	char *buf;
	size_t len, used;
};

static void changed_one(const struct optspec *s, const void *base, void *arg)
{
	struct line_acc *a = arg;
	char name[64], val[256];
	if (optspec_is_default(s, base) || a->used >= a->len)
		return;
	int n = snprintf(a->buf + a->used, a->len - a->used, "%s%s %s", a->used ? " " : "",
			 optspec_display(s, name, sizeof(name)), optspec_format(s, base, val, sizeof(val)));
	a->used += n > 0 ? (size_t)n : 0;
}

void options_workload_line(const struct options *o, char *buf, size_t len)
{
	struct line_acc a = { .buf = buf, .len = len };
	buf[0] = '\0';
	walk_workload_options(o, changed_one, &a);
}

/* options_get's walk: formats the option named q->name. */
struct get_query {
	const char *name;
	char *buf;
	size_t len;
	bool found;
};

static void get_one(const struct optspec *s, const void *base, void *arg)
{
	struct get_query *q = arg;
	if (!q->found && strcmp(s->long_name, q->name) == 0) {
		optspec_format(s, base, q->buf, q->len);
		q->found = true;
	}
}

int options_get(const struct options *o, const char *long_name, char *buf, size_t len)
{
	struct get_query q = { .name = long_name, .buf = buf, .len = len };
	options_walk(o, get_one, &q);
	return q.found ? 0 : -1;
}

static const struct optspec *entry_spec(void *ctx, unsigned i)
{
	return ((const struct entries *)ctx)->e[i].spec;
}

/* Stores arg into every base of entry i.  Returns as optspec_set does. */
static int entry_set(void *ctx, unsigned i, const char *arg, char *what, size_t whatlen)
{
	const struct entry *e = &((const struct entries *)ctx)->e[i];
	for (unsigned b = 0; b < e->nbases; b++) {
		int rc = optspec_set(e->spec, e->bases[b], arg, what, whatlen);
		if (rc != OPTSPEC_SET)
			return rc;
	}
	return OPTSPEC_SET;
}

/* The one line for f: "-t: invalid value '0' (accepted: ...)", "--json: missing value
 * (accepted: ...)", "-Z: unknown option (see -h for the accepted ones)". */
static void fault_text(const struct optparse_fault *f, char *err, size_t errlen)
{
	char name[64], acc[320];
	if (f->kind == OPTPARSE_BAD_VALUE)
		snprintf(err, errlen, "%s: %s '%s' (%s%s%saccepted: %s)", optspec_display(f->spec, name, sizeof(name)),
			 f->what, f->value, f->suggest[0] ? "did you mean " : "", f->suggest, f->suggest[0] ? "? " : "",
			 optspec_accepted(f->spec, acc, sizeof(acc)));
	else if (f->kind == OPTPARSE_MISSING)
		snprintf(err, errlen, "%s: missing value (accepted: %s)", optspec_display(f->spec, name, sizeof(name)),
			 optspec_accepted(f->spec, acc, sizeof(acc)));
	else if (f->kind == OPTPARSE_NO_MEMORY)
		snprintf(err, errlen, "malloc: out of memory");
	else if (f->letter > 0 && f->letter < 256)
		snprintf(err, errlen, "-%c: unknown option (see -h for the accepted ones)", f->letter);
	else if (f->suggest[0])
		snprintf(err, errlen, "%s: unknown option (did you mean %s? see -h for the accepted ones)", f->word,
			 f->suggest);
	else
		snprintf(err, errlen, "%s: unknown option (see -h for the accepted ones)", f->word);
}

/* Runs every workload's check hook.  Returns OPT_OK, or OPT_ERROR with err set. */
static enum opt_status check_workloads(const struct options *o, char *err, size_t errlen)
{
	for (unsigned w = 0; w < workload_count; w++)
		if (workload_table[w]->check && workload_table[w]->check(o->wl_opts[w].bytes, err, errlen) != 0)
			return OPT_ERROR;
	return OPT_OK;
}

/* Runs the check_as_task hook of every workload -W names (or its options selected).  Returns
 * OPT_OK, or OPT_ERROR with err set. */
static enum opt_status check_tasks(const struct options *o, char *err, size_t errlen)
{
	for (unsigned w = 0; w < workload_count; w++)
		if ((o->sim_include & (1u << w)) && workload_table[w]->check_as_task &&
		    workload_table[w]->check_as_task(o->wl_opts[w].bytes, err, errlen) != 0)
			return OPT_ERROR;
	return OPT_OK;
}

/* With no -W, a task whose options given make it supported and that asks to be selected so
 * (WL_SELECTED_BY_OPTIONS: --task-file) is the run's task, as -W NAME would say. */
static void select_by_options(struct options *o)
{
	char why[160];
	if (o->sim_include)
		return;
	for (unsigned w = 0; w < workload_count; w++) {
		const struct workload *wl = workload_table[w];
		if ((wl->flags & WL_SELECTED_BY_OPTIONS) && wl->supported && wl->supported(o->wl_opts[w].bytes, why, sizeof(why)))
			o->sim_include |= 1u << w;
	}
}

/* The name of the first of the window's options given that do not go with -t: --precision,
 * --min-time or --max-time; NULL when none. */
static const char *adaptive_option(const struct options *o, bool with_precision)
{
	return with_precision && o->precision_given ? "--precision" : o->min_time_s ? "--min-time" :
	       o->max_time_s ? "--max-time" : NULL;
}

/* The budget's --repeat: its cap of sub-runs a pair, at least MATRIX_BUDGET_MIN_SUBRUNS.
 * Returns OPT_OK, or OPT_ERROR with err set. */
static enum opt_status budget_repeat(struct options *o, char *err, size_t errlen)
{
	if (o->repeat && o->repeat < MATRIX_BUDGET_MIN_SUBRUNS) {
		snprintf(err, errlen, "--repeat: %u with --budget (accepted: %u or more, the most sub-runs a pair; "
			 "default %u)", o->repeat, MATRIX_BUDGET_MIN_SUBRUNS, MATRIX_BUDGET_MAX_SUBRUNS);
		return OPT_ERROR;
	}
	if (!o->repeat)
		o->repeat = MATRIX_BUDGET_MAX_SUBRUNS;
	return OPT_OK;
}

/* Resolves o->window from -t, --repeat, --budget and the adaptive window's options, and the
 * values not given (enum run_window); refuses the combinations that contradict each other.
 * Returns OPT_OK, or OPT_ERROR with err set. */
static enum opt_status check_window(struct options *o, char *err, size_t errlen)
{
	const char *adaptive = adaptive_option(o, true);
	if (o->duration_s && !o->budget_s && adaptive) {  /* with --budget, -t is the sub-runs' window */
		snprintf(err, errlen, "%s: only without -t (-t %u is a fixed window; accepted: one or the other)",
			 adaptive, o->duration_s);
		return OPT_ERROR;
	}
	if (o->budget_s && adaptive_option(o, false)) {
		snprintf(err, errlen, "%s: only without --budget (the adaptive window runs each pair once; "
			 "accepted: one or the other)", adaptive_option(o, false));
		return OPT_ERROR;
	}
	if (o->budget_s || (!o->duration_s && !o->repeat && !adaptive_option(o, false))) {
		o->window = RUN_WINDOW_BUDGET;
		return budget_repeat(o, err, errlen);
	}
	o->window = adaptive_option(o, false) ? RUN_WINDOW_ADAPTIVE : RUN_WINDOW_FIXED;
	if (o->window == RUN_WINDOW_FIXED && o->precision_given) {
		snprintf(err, errlen, "--precision: only with the budget or the adaptive window (--repeat %u runs "
			 "fixed windows; accepted: --budget, --min-time or --max-time with it)", o->repeat);
		return OPT_ERROR;
	}
	if (!o->repeat)
		o->repeat = 1;
	if (o->window == RUN_WINDOW_FIXED && !o->duration_s)
		o->duration_s = MATRIX_BUDGET_SUBRUN_S;
	if (!o->max_time_s)
		o->max_time_s = STOP_MAX_S_DEFAULT;
	if (!o->min_time_s)
		o->min_time_s = o->max_time_s < STOP_MIN_S_DEFAULT ? o->max_time_s : STOP_MIN_S_DEFAULT;
	if (o->min_time_s > o->max_time_s) {
		snprintf(err, errlen, "--min-time: %u is above --max-time %u (accepted: at most the maximum)",
			 o->min_time_s, o->max_time_s);
		return OPT_ERROR;
	}
	return OPT_OK;
}

/* The alternatives of one option on a side: n, or 1 for one value (the run's own). */
static unsigned alternatives(unsigned n)
{
	return n > 1 ? n : 1;
}

/* Refuses a side whose nice levels, slices, placements and thread counts make more than
 * OPTSPEC_LIST_MAX settings of one policy (run/sweep.h SWEEP_MAX), naming the options and
 * their counts; -u with placements.  Returns OPT_OK, or OPT_ERROR with err set. */
static enum opt_status check_sweep_size(const struct options *o, char *err, size_t errlen)
{
	unsigned bench = o->bench_nices.n * o->bench_slices.n * alternatives(o->bench_cpus.n) *
			 alternatives(o->bench_cgroups.n) * alternatives(o->schedulers.n);
	unsigned load = o->load_nices.n * o->load_slices.n * alternatives(o->load_cpus.n) *
			alternatives(o->load_cgroups.n) * alternatives(o->load_threads.n);
	if (bench > OPTSPEC_LIST_MAX || load > OPTSPEC_LIST_MAX) {
		bool b = bench > OPTSPEC_LIST_MAX;
		snprintf(err, errlen, "%s: %u nice levels, %u slices, %u CPU alternatives, %u cgroups and %u %s are "
			 "%u settings of a policy (accepted: at most %u together)",
			 b ? "-B, --bench-slice, --bench-cpus, --bench-cgroup, --scheduler" :
			     "-N, --load-slice, --load-cpus, --load-cgroup, -L",
			 b ? o->bench_nices.n : o->load_nices.n, b ? o->bench_slices.n : o->load_slices.n,
			 alternatives(b ? o->bench_cpus.n : o->load_cpus.n), alternatives(b ? o->bench_cgroups.n : o->load_cgroups.n),
			 b ? alternatives(o->schedulers.n) : alternatives(o->load_threads.n), b ? "schedulers" : "thread counts",
			 b ? bench : load, OPTSPEC_LIST_MAX);
		return OPT_ERROR;
	}
	if (o->uniprocessor && (o->bench_cpus.n > 1 || o->load_cpus.n > 1)) {
		snprintf(err, errlen, "%s: CPU alternatives with -u (which pins every task to CPU 0; accepted: "
			 "one or the other)", o->bench_cpus.n > 1 ? "--bench-cpus" : "--load-cpus");
		return OPT_ERROR;
	}
	return OPT_OK;
}

/* The core options' own cross-checks: the policies that cannot be swept, the window.  Returns
 * OPT_OK, or OPT_ERROR with err set. */
static enum opt_status check_core(struct options *o, char *err, size_t errlen)
{
	if (check_window(o, err, errlen) != OPT_OK)
		return OPT_ERROR;
	if (o->bench_policies & (1u << SP_IDLE)) {
		snprintf(err, errlen, "--bench-policy: idle is not for a simulated task (a SCHED_IDLE task runs only "
			 "when nothing else wants the CPU) (accepted: other, batch, fifo, rr, deadline)");
		return OPT_ERROR;
	}
	if (check_sweep_size(o, err, errlen) != OPT_OK)
		return OPT_ERROR;
	if (threshold_check_options(o, err, errlen) != 0)
		return OPT_ERROR;
	if (o->load_policies & (1u << SP_DEADLINE)) {
		snprintf(err, errlen, "--load-policy: deadline is for simulated tasks, whose work per period is known "
			 "(accepted: other, batch, idle, fifo, rr)");
		return OPT_ERROR;
	}
	if (o->frame_log_formats && !o->frame_log_dir) {
		snprintf(err, errlen, "--frame-log-format: without --frame-log (accepted: with --frame-log DIR)");
		return OPT_ERROR;
	}
	return OPT_OK;
}

static enum opt_status parse_argv(struct options *o, struct entries *es, int argc, char **argv, char *err,
				  size_t errlen)
{
	struct optparse_fault f;
	entries_collect(es, o);
	struct optparse p = { .n = es->n, .spec = entry_spec, .set = entry_set, .ctx = es };
	int rc = optparse_run(&p, argc, argv, &f);
	if (rc == OPTSPEC_BAD)
		fault_text(&f, err, errlen);
	if (rc != OPTSPEC_SET)
		return rc == OPTSPEC_BAD ? OPT_ERROR : (enum opt_status)rc;
	if (optind < argc) {
		snprintf(err, errlen, "%s: unexpected argument (interbench takes options only; see -h)", argv[optind]);
		return OPT_ERROR;
	}
	enum opt_status st = check_core(o, err, errlen);
	if (st == OPT_OK)
		st = check_workloads(o, err, errlen);
	if (st == OPT_OK)
		select_by_options(o);
	if (st == OPT_OK)
		st = check_tasks(o, err, errlen);
	return st;
}

/* Whether arg names a task file as -W's value ("file:PATH", any case): *path is then PATH. */
static bool task_file_value(const char *arg, const char **path)
{
	if (strncasecmp(arg, "file:", 5) != 0)
		return false;
	*path = arg + 5;
	return true;
}

/* The pointers expand_task_files may write for argc arguments: one argument, -Wfile:PATH,
 * becomes four, and a NULL ends them. */
#define EXPANDED_ARGV_MAX(argc) (4 * (argc) + 1)

/* argv with -W file:PATH (also -Wfile:PATH, --sim file:PATH, --sim=file:PATH) said as
 * "-W File --task-file PATH", into out (EXPANDED_ARGV_MAX(argc) pointers: the strings stay
 * argv's).  Returns the count, the NULL not counted. */
static int expand_task_files(int argc, char **argv, char **out)
{
	int n = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *path = NULL;
		bool sep = i + 1 < argc && (strcmp(a, "-W") == 0 || strcmp(a, "--sim") == 0);
		if ((sep && task_file_value(argv[i + 1], &path)) || (strncmp(a, "-W", 2) == 0 && a[2] &&
		    task_file_value(a + 2, &path)) || (strncmp(a, "--sim=", 6) == 0 && task_file_value(a + 6, &path))) {
			out[n++] = (char *)"-W";
			out[n++] = (char *)"File";
			out[n++] = (char *)"--task-file";
			out[n++] = (char *)path;
			i += sep;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			while (i < argc)
				out[n++] = argv[i++];
			break;
		}
		out[n++] = argv[i];
	}
	out[n] = NULL;
	return n;
}

enum opt_status options_parse(struct options *o, int argc, char **argv, char *err, size_t errlen)
{
	struct entries *es = malloc(sizeof(*es));
	char **args = malloc(EXPANDED_ARGV_MAX((size_t)argc) * sizeof(*args));
	if (!es || !args) {
		free(es);
		free(args);
		snprintf(err, errlen, "malloc: out of memory");
		return OPT_ERROR;
	}
	enum opt_status st = parse_argv(o, es, expand_task_files(argc, argv, args), args, err, errlen);
	free(args);
	free(es);
	if (st == OPT_ERROR)
		text_printable_line(err);
	return st;
}

/* help_section's walk over the workloads' options: the help of those of one section. */
struct help_walk {
	FILE *f;
	unsigned section;
	bool brief;
};

static void help_line(const struct optspec *s, const void *base, void *arg)
{
	const struct help_walk *h = arg;
	(void)base;
	if (s->section == h->section)
		optspec_help_brief(h->f, s, &optspec_main_style, h->brief);
}

/* Section sec's heading and options (the core ones, then the workloads'), brief or in full. */
static void help_section(FILE *f, unsigned sec, bool brief)
{
	struct options none; /* the walk needs settings; -h prints no value */
	struct help_walk h = { .f = f, .section = sec, .brief = brief };
	memset(&none, 0, sizeof(none));
	fprintf(f, "\n%s:\n", optspec_section_title(sec));
	for (unsigned i = 0; i < CORE_COUNT; i++)
		if (core_options[i].section == sec)
			optspec_help_brief(f, &core_options[i], &optspec_main_style, brief);
	walk_workload_options(&none, help_line, &h);
}

/* The names of the simulated tasks (sims) or the loads, joined with ", ", wrapped after
 * title. */
static void workload_names(FILE *f, const char *title, bool sims)
{
	char buf[512];
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < workload_count && used < sizeof(buf); i++)
		if (sims ? workload_table[i]->sim && workload_table[i]->help != NULL : workload_table[i]->load != NULL) {
			int w = snprintf(buf + used, sizeof(buf) - used, "%s%s", used ? ", " : "", workload_table[i]->name);
			used += w > 0 ? (size_t)w : 0;
		}
	fputs(title, f);
	optspec_wrap(f, buf, (int)strlen(title), 2, OPTSPEC_HELP_WIDTH);
}

/* Every simulated task and load with its description, for --help-all. */
static void workload_list(FILE *f)
{
	fprintf(f, "\nSimulated tasks:\n");
	for (unsigned i = 0; i < workload_count; i++)
		if (workload_table[i]->sim && workload_table[i]->help) {
			fprintf(f, "  %-8s ", workload_table[i]->name);
			optspec_wrap(f, workload_table[i]->help, 11, 11, OPTSPEC_HELP_WIDTH);
		}
	fprintf(f, "Loads:\n");
	for (unsigned i = 0; i < workload_count; i++)
		if (workload_table[i]->load) {
			fprintf(f, "  %-8s ", workload_table[i]->name);
			optspec_wrap(f, workload_table[i]->load_help, 11, 11, OPTSPEC_HELP_WIDTH);
		}
}

/* -h (all false: the sections but the workloads' options, each option's summary) and
 * --help-all (every section, in full). */
static void usage(FILE *f, const char *prog, void (*more_usage)(FILE *f, const char *prog), bool all)
{
	fprintf(f, "Usage: %s [options]\n", prog);
	if (more_usage)
		more_usage(f, prog);
	fprintf(f, "Linux interactivity benchmark: simulated interactive tasks against\nbackground loads.\n");
	for (unsigned sec = 1; sec < OPTSPEC_SECTION_COUNT; sec++)
		if (all || sec != OPTSPEC_SECTION_WORKLOAD)
			help_section(f, sec, !all);
	if (all)
		workload_list(f);
	else {
		fputc('\n', f);
		workload_names(f, "Simulated tasks (-W): ", true);
		workload_names(f, "Loads (-w): ", false);
	}
	fprintf(f, "Names are case-insensitive.  A TIME takes a unit: 10s, 500ms, 2m, 1h.\n");
	if (!all)
		fprintf(f, "Every option in full, the tasks' and loads' own too: %s --help-all;\nman interbench.\n",
			prog);
}

void options_usage(FILE *f, const char *prog, void (*more_usage)(FILE *f, const char *prog))
{
	usage(f, prog, more_usage, false);
}

void options_usage_all(FILE *f, const char *prog, void (*more_usage)(FILE *f, const char *prog))
{
	usage(f, prog, more_usage, true);
}

unsigned options_window_s(const struct options *o)
{
	return o->window == RUN_WINDOW_ADAPTIVE ? o->max_time_s : o->duration_s ? o->duration_s : MATRIX_BUDGET_SUBRUN_S;
}
