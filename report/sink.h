/* The run's report: the one owner of what a run writes.  It is the sink of the run's matrix
 * (run/matrix.h; sink_matrix gives the callbacks) and hands what happens to each of its
 * outputs (report/output.h: the text table on the console and in the logfile, the JSON
 * document, the --timeline file; listed in report/outputs.h), which read the matrix's
 * records (matrix_reps).  It keeps only what they share (struct report_run: the run's set-up,
 * its header facts, the console, queued so it never blocks the run: report/conout.h) and
 * prints the console's own lines: the measuring note, the notes before the run and the end of
 * each round. */
#ifndef IB_SINK_H
#define IB_SINK_H
#include <signal.h>
#include "report/conout.h"
#include "report/output.h"

#define REPORT_OUTPUTS_MAX 8 /* outputs a report can walk */

/* The report of one run.  Zero it, then sink_console_open, sink_open, the matrix through
 * sink_matrix, sink_close. */
struct report_sink {
	struct report_run run;           /* what the outputs share */
	struct conout conout;            /* the console's queue: never blocks a run */
	/* The outputs, NULL-terminated: report_outputs (sink_console_open), or a test's; and the
	 * state of each: state_bytes zeroed by sink_open and freed by sink_close, or a test's own
	 * (that test then calls neither). */
	const struct report_output *const *outputs;
	void *state[REPORT_OUTPUTS_MAX];
};

/* Opens the console: stdout, or stderr when --json - takes stdout.  stop is the run's stop
 * flag: once set, the end of the run no longer waits for a console reader (report/conout.h).
 * Sets the outputs to report_outputs unless set.  Never fails. */
void sink_console_open(struct report_sink *s, const struct options *o, const volatile sig_atomic_t *stop);

/* Says on the console that loops_per_ms is being measured, with why the saved value was not
 * used ("" when none was saved). */
void sink_measuring(struct report_sink *s, const char *why);

/* Sets the run's header facts from in (loops_per_ms is in->load_cfg's), then opens every
 * output in order and, once all are open, begins each (the run header, the audit note and the
 * loads' descriptions on the console).  Returns 0, 2 when an output cannot be used, or -1
 * when out of memory (either: one line on stderr, nothing left open, no sink_close). */
int sink_open(struct report_sink *s, const struct sink_setup *in);

/* The callbacks of the run's matrix, with s as their argument. */
struct matrix_sink sink_matrix(struct report_sink *s);

/* Ends the report: each output closed in the reverse order, told of the speed checks between
 * m's pairs (m->drift, when m is not NULL and has some: run.calibration_drift in the JSON, and when the
 * run drifted, calib_drift_off, a warning on the console and in the logfile naming the
 * farthest check's likely causes) and of another run seen during this one (concurrent_pid,
 * 0: none); then the console drained.  A run stopped by a signal keeps what was measured.  A
 * write error names the file and errno text on stderr, never silently truncating results.
 * Returns 0, or -1 when something was not written. */
int sink_close(struct report_sink *s, const struct matrix *m, long concurrent_pid);

/* Whether --fail-if failed the run (after sink_close): a check failed, or no verdict could be
 * judged (out of memory, or the run ended before the matrix did); false without --fail-if. */
bool sink_fail_if_failed(const struct report_sink *s);

/* Unlinks the temporary files of the outputs still being written: the last act of a signal
 * handler (async-signal-safe; s may not be open yet). */
void sink_unlink_signal_safe(const struct report_sink *s);

#endif
