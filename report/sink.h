/* The run's report: the one owner of what a run writes.  The console (stdout, or stderr with
 * --json -, queued so it never blocks the run: report/conout.h), the kernel-stamped logfile
 * (report/logfile.h, unless -c), the JSON document and its --json target
 * (report/json_report.h) and the --timeline file (engine/timeline.h).  It prints the run header,
 * the audit note, the notes before the run, each table's header, its rows (a single run's, or
 * the medians of the repeats'), the sweep tables, and the interrupted and concurrent-run marks,
 * and it keeps the first write error of the console and of the logfile for the end.  It is the
 * sink of the run's matrix (run/matrix.h): sink_matrix gives the callbacks.  It keeps no
 * result of its own: every output reads the matrix's records (matrix_reps), the JSON results
 * written from them when the run ends. */
#ifndef IB_SINK_H
#define IB_SINK_H
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include "run/matrix.h"
#include "run/options.h"
#include "run/plan.h"
#include "run/sweep.h"
#include "host/audit.h"
#include "report/conout.h"
#include "host/machine.h"
#include "lib/safefile.h"
#include "loadkit/load.h"
#include "report/json_report.h"
#include "report/logfile.h"
#include "report/table.h"

/* What the report needs of the run, set before sink_open; every pointer must outlive it. */
struct sink_setup {
	const struct plan *plan;
	const struct sweep_side *bench, *load; /* the sweep's settings (run/sweep.h) */
	const struct machine_info *machine;
	const struct audit *audit;       /* the system audit (host/audit.h) */
	const struct load_config *load_cfg; /* the loads' shared set-up: threads, loops_per_ms */
	const char *loops_source;        /* "measured", "saved", "-l" */
	const struct calib_check *calib; /* the measurements behind loops_per_ms, NULL with -l */
	long concurrent_pid;             /* another run seen at the start, 0: none */
	bool rt_ok;                      /* main runs SCHED_FIFO (notes before the run) */
};

/* The report of one run.  Zero it, then sink_console_open, sink_open, the matrix through
 * sink_matrix, sink_close. */
struct report_sink {
	const struct options *opt;
	struct sink_setup in;
	struct run_info info;            /* the run header */
	char workload_options[1024];     /* run header: the workload options given */
	char settings[2048];             /* run header: the sweep's settings and CPU placement */
	FILE *con;                       /* the console, through conout */
	struct conout conout;            /* the console's queue: never blocks a run */
	FILE *log;                       /* the logfile, NULL with -c */
	char log_path[128];
	FILE *both;                      /* text for the console and the logfile (open_memstream(3)) */
	char *both_text;
	size_t both_size;
	json_t *doc;                     /* the JSON results, or NULL (-c without --json) */
	struct report_target json_target; /* --json's, opened at the start */
	bool json_open;
	struct safe_out timeline_out;    /* --timeline's file, renamed into place at the end */
	int timeline_fd;                 /* timeline_out.fd while open, else -1 */
	bool timeline_warned;            /* a write failure of it was reported */
	const struct plan_item *last_header; /* the item whose table header was printed last */
	int con_errno, log_errno;        /* the first write error on the console / logfile, or 0 */
};

/* Opens the console: stdout, or stderr when --json - takes stdout.  stop is the run's stop
 * flag: once set, the end of the run no longer waits for a console reader (report/conout.h).
 * Never fails. */
void sink_console_open(struct report_sink *s, const struct options *o, const volatile sig_atomic_t *stop);

/* Records the speed checks between m's pairs (m->drift): run.calibration_drift in the JSON,
 * every check with the pair before it, and when the run drifted (calib_drift_off: checks
 * outside the calibration's range) a warning on the console and in the logfile naming the
 * farthest check's likely causes (report/logfile.h logfile_drift).  Call once, after the
 * matrix and before sink_close. */
void sink_calibration_drift(struct report_sink *s, const struct matrix *m);

/* Says on the console that loops_per_ms is being measured, with why the saved value was not
 * used ("" when none was saved). */
void sink_measuring(struct report_sink *s, const char *why);

/* Opens the outputs: --timeline's file (its header written), --json's target, the logfile
 * with its run header and audit (unless -c), the JSON document; then prints the run header,
 * the audit note and the loads' descriptions.  loops_per_ms is in_->load_cfg's.  Returns 0,
 * 2 when an output cannot be used, or -1 when out of memory (either: one line on stderr,
 * nothing left open, no sink_close). */
int sink_open(struct report_sink *s, const struct sink_setup *in);

/* The callbacks of the run's matrix, with s as their argument. */
struct matrix_sink sink_matrix(struct report_sink *s);

/* Ends the report: the concurrent-run mark when concurrent_pid (another run seen during this
 * one, 0: none), the logfile closed, the JSON written (to --json and, unless -c, to a new
 * "<release>-<datestamp>.json"), the console drained, --timeline's file renamed into place.
 * A write error names the file and errno text on stderr, never silently truncating results.
 * Returns 0, or -1 when something was not written. */
int sink_close(struct report_sink *s, long concurrent_pid);

#endif
