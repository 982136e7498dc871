/* Command line: every interbench 0.31 option with a long form, parsed strictly.  The options
 * are tables (lib/optspec.h): the core ones below in run/options.c, each workload's own in
 * its descriptor (workloads/); parsing, messages, -h and the walks that print them in the
 * logfile and the JSON are generated from those tables. */
#ifndef IB_OPTIONS_H
#define IB_OPTIONS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "lib/optspec.h"
#include "run/stoprule.h"
#include "lib/schedpolicy.h"
#include "workloads/workload.h"

#define OPT_MAX_DURATION_S 86400u     /* -t upper bound: one day per benchmark */
#define OPT_MAX_REPEAT 1000u          /* --repeat upper bound */
#define OPT_MAX_SEED ((1LL << 53) - 1) /* --seed upper bound: exact in a JSON reader's double */
#define OPT_MAX_WORKLOAD_OPTIONS 64u  /* distinct options of all workloads together (checked by
                                         tests/check_workload.c) */

/* How long each pair runs, resolved by options_parse from -t, --repeat, --budget and the
 * adaptive window's options (run/matrix.h runs them). */
enum run_window {
	RUN_WINDOW_BUDGET,   /* the default, and --budget: rounds of sub-runs of -t seconds (default
	                        MATRIX_BUDGET_SUBRUN_S), each pair until decided or known, within a
	                        time budget (matrix_budget_ns) */
	RUN_WINDOW_FIXED,    /* -t or --repeat without --budget: windows of -t seconds (default
	                        MATRIX_BUDGET_SUBRUN_S), --repeat of them a pair */
	RUN_WINDOW_ADAPTIVE, /* --min-time or --max-time: one window a pair (--repeat of them),
	                        until its figures are known (run/stoprule.h) */
};

struct options {
	uint64_t loops_per_ms;      /* -l; 0 = saved or measured */
	struct optspec_ints load_threads; /* -L: the loads' worker threads (a sweep when several);
	                               the one value 0 when not given: one per CPU the run may use */
	enum run_window window;     /* resolved from the options below (never given itself) */
	unsigned duration_s;        /* -t: the window of a pair or a sub-run, seconds; 0: not given
	                               (resolved to MATRIX_BUDGET_SUBRUN_S for --repeat alone) */
	unsigned min_time_s;        /* --min-time: the least an adaptive pair runs (0 not given,
	                               resolved to STOP_MIN_S_DEFAULT) */
	unsigned max_time_s;        /* --max-time: the most an adaptive pair runs (0 not given,
	                               resolved to STOP_MAX_S_DEFAULT) */
	struct precision precision; /* --precision: the targets of the adaptive window and of the
	                               budget's "known" */
	bool precision_given;       /* --precision was given */
	struct optspec_ints bench_nices; /* -B: nice levels of the simulated task (a sweep when several) */
	struct optspec_ints load_nices;  /* -N: nice levels of the loads */
	struct optspec_ints bench_slices; /* --bench-slice: EEVDF slices of the task, us (0: the
	                                     kernel's default; a sweep when several) */
	struct optspec_ints load_slices;  /* --load-slice: the loads' */
	uint32_t bench_policies;    /* --bench-policy: bit k = enum sched_kind k; 0 = other (fifo with -r) */
	uint32_t load_policies;     /* --load-policy: likewise; 0 = other */
	int64_t rt_priority;        /* --rt-priority: fifo/rr priority of tasks and loads; 0 = automatic */
	struct optspec_cpus cpus;       /* --cpus: CPUs of the simulated task and the loads */
	struct optspec_cpu_alts bench_cpus; /* --bench-cpus: the simulated task's (over --cpus); several
	                                       are alternatives of the sweep (run/sweep.h) */
	struct optspec_cpu_alts load_cpus;  /* --load-cpus: the loads' (over --cpus), as bench_cpus */
	struct optspec_texts bench_cgroups; /* --bench-cgroup: the cgroups v2 of the bench process
	                               (host/cgplace.h); none: where interbench runs; several are
	                               alternatives of the sweep (run/sweep.h) */
	struct optspec_texts load_cgroups;  /* --load-cgroup: the load processes', likewise */
	struct optspec_texts schedulers; /* --scheduler: sched_ext schedulers to run the pairs under,
	                               each a command or "fair" (RUN_SCHEDULER_FAIR); several are
	                               alternatives of the sweep (run/scheduler.h) */
	bool uniprocessor;          /* -u: pin everything to CPU 0 */
	bool recalibrate;           /* -b */
	bool console_only;          /* -c */
	bool realtime;              /* -r: shorthand for --bench-policy fifo */
	bool verbose;               /* -v */
	bool quiet;                 /* -q: no progress line on stderr */
	const char *comment;        /* -m */
	uint32_t sim_include, sim_exclude;   /* -W / -X: bit i = workload_table[i] */
	uint32_t load_include, load_exclude; /* -w / -x: bit i = workload_table[i] */
	unsigned repeat;            /* --repeat: runs of every pair, in rounds (resolved: 1 when not
	                               given; with the budget the most, MATRIX_BUDGET_MAX_SUBRUNS) */
	unsigned budget_s;          /* --budget: seconds of sub-runs at most (run/matrix.h); 0: not
	                               given (the budget's default, matrix_budget_ns) */
	uint64_t seed;              /* --seed: the seed of the rounds' shuffled order (run/matrix.h);
	                               0: drawn at the start (interbench.c) */
	const char *json_path;      /* --json FILE ("-" = stdout), or NULL */
	const char *timeline_path;  /* --timeline FILE (engine/timeline.h), or NULL */
	const char *frame_log_dir;  /* --frame-log DIR: a frame-time CSV per run of a pair whose task
	                               shows frames (report/output_framelog.h), or NULL */
	uint32_t frame_log_formats; /* --frame-log-format: bit FRAME_LOG_MANGOHUD, FRAME_LOG_PRESENTMON;
	                               0: MangoHud's */
	const char *export_csv_path;      /* --export-csv FILE (report/tabular.h), or NULL */
	const char *export_markdown_path; /* --export-markdown FILE, or NULL */
	const char *histogram_csv_path;   /* --histogram-csv FILE (report/histview.h), or NULL */
	bool histogram;             /* --histogram: the latency histograms after the tables */
	uint64_t histogram_max_ns;  /* --histogram's MAX, the last row's bound; 0: all */
	const char *trace_path;     /* --trace FILE (report/output_trace.h), or NULL */
	bool explain;               /* --explain: say why periods were late (explain/model.h) */
	uint32_t wakes;             /* --wake: a sweep, bit SIM_WAKE_THREAD (the timing thread wakes
	                               the task) and bit SIM_WAKE_TIMER (its own absolute timer);
	                               0: thread */
	uint64_t explain_threshold_ns; /* --explain-threshold: also periods later than this; 0:
	                               only missed deadlines */
	struct optspec_texts fail_if; /* --fail-if: the conditions that fail the run (report/failif.h) */
	unsigned fail_if_mode;      /* --fail-if-mode: enum failif_mode (point, interval) */
	struct optspec_texts on_threshold; /* --on-threshold: LATENCY:ACTION each (run/threshold.h) */
	bool on_threshold_repeat;   /* --on-threshold-repeat: act at every period over it, not once a pair */
	unsigned on_threshold_timeout_s; /* --on-threshold-timeout: an exec action's most, seconds */
	int64_t dma_latency_us;     /* --dma-latency: CPU wakeup latency limit held during the
	                               run, microseconds; -1 = none (the default) */
	/* Workload i's own option values: its private config (workload_table[i]->cfg_size bytes). */
	union { max_align_t align; unsigned char bytes[WL_CFG_MAX_BYTES]; } wl_opts[WL_MAX];
};

/* The column sets of --frame-log (--frame-log-format; report/output_framelog.h). */
enum { FRAME_LOG_MANGOHUD, FRAME_LOG_PRESENTMON };

/* The name of --frame-log-format's set i ("mangohud", "presentmon"), NULL past the last (an
 * optspec name_at callback). */
const char *options_frame_log_format_at(unsigned i);

/* Parse results. */
enum opt_status { OPT_OK = 0, OPT_HELP = 1, OPT_ERROR = 2, OPT_SHOW_VERSION = 3 /* --version */,
		  OPT_AUDIT = 4 /* --audit */, OPT_HELP_ALL = 5 /* --help-all */ };

/* Sets the defaults: the core options' and every workload's. */
void options_init(struct options *o);

/* Parses argv with getopt_long (resetting optind first).  On OPT_ERROR, err holds one line
 * naming the option, the value and what is accepted.  Each workload's check hook (cross-option
 * rules: -C without -I) runs here too.  Pure: touches nothing but *o and err. */
enum opt_status options_parse(struct options *o, int argc, char **argv, char *err, size_t errlen);

/* Writes -h's text to f: "Usage: PROG [options]", the further usage lines more_usage writes
 * (may be NULL; the subcommands', tools/subcommand.h subcommand_usage), then the options by
 * section (enum optspec_section), each by its help's first line, all but the workloads' own
 * (--help-all), and the names of the simulated tasks and loads; every line within
 * OPTSPEC_HELP_WIDTH columns. */
void options_usage(FILE *f, const char *prog, void (*more_usage)(FILE *f, const char *prog));

/* Writes --help-all's text to f: as options_usage, but every section (the workloads' own
 * options too), each option's whole help, and each simulated task and load described. */
void options_usage_all(FILE *f, const char *prog, void (*more_usage)(FILE *f, const char *prog));

/* Workload i's own option values in o (its config, to be read as the workload's struct). */
const void *options_wl_opts(const struct options *o, unsigned i);

/* Calls fn once for every option: the core ones in table order, then each workload's in
 * registry order, an option shared by several workloads once (with the first one's values).
 * base is where s's offset points into (o, or a workload's config). */
void options_walk(const struct options *o, void (*fn)(const struct optspec *s, const void *base, void *arg),
		  void *arg);

/* Whether the run option written under json_key in the JSON "options" object is a fact of
 * the run that compare sets side by side (struct optspec.not_a_fact); a key no option table
 * has (another version's) is taken as one. */
bool options_key_is_fact(const char *json_key);

/* The workload options whose values differ from their defaults, as they would be given on
 * the command line ("--workdir /tmp --file-size 64M"), for the run header; "" when none.
 * Values are raw text (the caller escapes them for a logfile). */
void options_workload_line(const struct options *o, char *buf, size_t len);

/* The value of the option named long_name (without dashes) in o, as text (optspec_format).
 * Returns 0, or -1 when there is no such option. */
int options_get(const struct options *o, const char *long_name, char *buf, size_t len);

/* The window of one run of a pair, seconds: the adaptive window's --max-time, else -t, else
 * the budget's sub-run (MATRIX_BUDGET_SUBRUN_S; X's runs are at least one sweep, run/matrix.c). */
unsigned options_window_s(const struct options *o);

#endif
