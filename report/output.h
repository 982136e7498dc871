/* An output of the run's report: something the run writes (the console and logfile table,
 * the JSON document, the --timeline file), as one implementation of struct report_output in
 * its own file under report/, listed once in report/outputs.h.  The run's report
 * (report/sink.h) walks that list and calls each output's hooks at fixed points of the run;
 * it keeps only what they share (struct report_run) and reads the matrix's records
 * (run/matrix.h), which every hook is handed.  doc/adding-an-output.md walks adding one;
 * tests/skeleton_output.c is its example. */
#ifndef IB_OUTPUT_H
#define IB_OUTPUT_H
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <jansson.h>
#include "run/matrix.h"
#include "run/options.h"
#include "run/plan.h"
#include "run/sweep.h"
#include "host/audit.h"
#include "host/machine.h"

#define REPORT_WROTE_MAX 12  /* files a run names at its end: every output's at once */
#include "lib/safefile.h"
#include "loadkit/load.h"
#include "report/failif.h"
#include "report/runinfo.h"
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
	const struct failif_spec *fail_if; /* --fail-if's conditions (report/failif.h), or NULL */
	/* --bench-cgroup's and --load-cgroup's cgroups, their facts as they were at the start
	 * (host/cgplace.h); NULL: none */
	const struct cgplace_set *cgroups;
};

/* What every output shares: the run's options and set-up, its header facts and the console. */
struct report_run {
	const struct options *opt;
	struct sink_setup in;
	struct run_info info;            /* the run header's facts (report/runinfo.h) */
	char workload_options[1024];     /* run header: the workload options given */
	char settings[2048];             /* run header: the sweep's settings and CPU placement */
	FILE *con;                       /* the console: stdout, or stderr with --json - (report/conout.h) */
	int con_errno;                   /* the console's first write error, or 0 (report_flush) */
	int timeline_fd;                 /* the file the bench processes write their periods to
	                                    (the --timeline output's), or -1 */
	int frame_log_fd;                /* the private file the bench processes hand their frames
	                                    to main through (the --frame-log output's), or -1 */
	/* --fail-if's verdict, judged when the matrix ends, before the outputs' run_end (the JSON
	 * writes it); said on stderr once the console is drained (sink_close); checks NULL before
	 * or without --fail-if. */
	struct failif_verdict fail_verdict;
	/* The files the outputs wrote, said on stderr at the end (sink_close, unless -q), each
	 * "PATH (WHAT)": report_wrote adds them. */
	char wrote[REPORT_WROTE_MAX][PATH_MAX + 32];
	unsigned n_wrote;
};

/* A sweep summary of one task against one load: bench settings as rows, load settings as
 * columns, cells[r * nc + c] the medians of the pair at row r and column c. */
struct report_sweep {
	const char *sim, *load;
	const char *const *rows;         /* nr labels ("fifo 97", "nice 0") */
	unsigned nr;
	const char *const *cols;         /* nc labels */
	unsigned nc;
	const struct sweep_cell *cells;
	bool has_deadlines;              /* the task has deadlines (a "% met" to show) */
	bool microseconds;               /* a real-time row: latencies in us, not ms */
};

/* How the run ends, for each output's close hook. */
struct report_end {
	bool commit;                     /* false: the run was refused before any pair: remove what
	                                    was begun; true: keep it, a run cut short by a signal too */
	const struct matrix *drift;      /* the matrix whose speed checks (m->drift) to record, or NULL */
	long concurrent_pid;             /* another interbench run seen during this one, or 0 */
};

/* One output.  The report calls its hooks in this order, each with st (state_bytes zeroed
 * bytes of its own for the run, or a test's) and run: open and, once every output opened,
 * begin; per pair run, pair_measured; per plan item whose repeats ran, item_complete; when
 * the run ends, sweep for each sweep summary then run_end; close once (after begin; or, with
 * end->commit false, after a later output refused to open).  A NULL hook is skipped.  An
 * output states a write failure on stderr, once, naming its file and errno text. */
struct report_output {
	const char *name;                /* "text", "json", "timeline": for messages and tests */
	size_t state_bytes;
	/* Opens what the output writes, with run's header facts (run->info) known.  Returns 0,
	 * 2 when the output cannot be used (one line on stderr naming its option, nothing left
	 * open: close is not called), or -1 when out of memory (said). */
	int (*open)(void *st, struct report_run *run);
	/* Every output is open: writes what begins it (the run header). */
	void (*begin)(void *st, struct report_run *run);
	/* Repeat `repeat` (0-based) of plan item `item` ran; po is its record in m's store
	 * (matrix_reps). */
	void (*pair_measured)(void *st, struct report_run *run, const struct matrix *m, size_t item, unsigned repeat,
			      const struct pair_outcome *po);
	/* Plan item `item` has its repeats reps[0..n) (n >= 1): its row. */
	void (*item_complete)(void *st, struct report_run *run, const struct matrix *m, size_t item,
			      const struct pair_outcome *reps, unsigned n);
	/* A sweep summary (after the last pair, before run_end). */
	void (*sweep)(void *st, struct report_run *run, const struct report_sweep *sw);
	/* The matrix ended: sig is the signal that stopped it, or 0; m holds every record. */
	void (*run_end)(void *st, struct report_run *run, const struct matrix *m, int sig);
	/* Ends the output as end says: commits (writes, renames into place) or removes it.
	 * Returns 0, or -1 when something was not written (said on stderr). */
	int (*close)(void *st, struct report_run *run, const struct report_end *end);
	/* The temporary file to unlink when a second signal ends the run at once, or NULL; called
	 * from a signal handler: it may only read st. */
	const struct safe_out *(*scratch)(const void *st);
};

/* The outputs of interbench, in the order they open (report/outputs.c); NULL-terminated.  A
 * test may link a list of its own instead. */
extern const struct report_output *const report_outputs[];

/* The table words of plan item it's bench and load settings ("nice -10", "real time", ""),
 * each into len bytes. */
void report_item_words(const struct report_run *run, const struct plan_item *it, char *bench, char *load, size_t len);

/* Ends an output's file opened with safe_out_open (lib/safefile.h): renamed into place
 * (commit) or removed.  Returns 0, or -1 with "interbench: WHAT: reason" on stderr (what: its
 * option, "--timeline"). */
int report_file_close(struct safe_out *out, bool commit, const char *what);

/* Appends to doc's "results" (report/json_report.h report_add) every run of m that ran: round
 * by round, each in plan order whatever order the round ran its pairs in (run/matrix.h), a
 * round a signal stopped part way up to where it stopped.  Returns 0, or -1 when out of memory
 * (the results that could be added are there). */
int report_add_results(json_t *doc, const struct report_run *run, const struct matrix *m);

/* {"results": [...]} of report_add_results, for an output that writes what it reads from a
 * result document (report/tabular.h, report/histview.h); NULL when out of memory. */
json_t *report_results_json(const struct report_run *run, const struct matrix *m);
/* Notes that an output wrote path (its what: "logfile", "JSON"), for the closing line on
 * stderr: made absolute when the file is there (realpath(3)), as given otherwise; nothing for
 * "-" (stdout) or past REPORT_WROTE_MAX. */
void report_wrote(struct report_run *run, const char *what, const char *path);

/* Flushes f (the console or a file), keeping its first write error's errno in *first (stdio
 * keeps only a flag). */
void report_flush(FILE *f, int *first);

#endif
