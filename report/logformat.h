/* The classic logfile's grammar, defined once for its writers (report/logfile.c,
 * report/table.c, the lines report/sink.c writes under rows) and its reader
 * (tools/result_log.c).  interbench 0.31's own lines (LOG_USING, LOG_KERNEL, the table title
 * and header words) are kept as it writes them, so both programs' logs read alike. */
#ifndef IB_LOGFORMAT_H
#define IB_LOGFORMAT_H
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "host/disturb.h"

/* Run header: "Using N loops per ms (source), running every load for S seconds". */
#define LOG_USING "Using "
#define LOG_USING_LOOPS " loops per ms"
#define LOG_CALIBRATION "Calibration: " /* under LOG_USING: how loops_per_ms was measured (ours only) */
#define LOG_DRIFT "Warning: " /* after the tables: loops_per_ms changed during the run (ours only) */
/* Run header: "Benchmarking kernel RELEASE at datestamp YYYYMMDDHHMM": a new run. */
#define LOG_KERNEL "Benchmarking kernel "
/* Our run header's own lines: a log with it is ours (its tables' definitions follow). */
#define LOG_KERNEL_VERSION "Kernel version "
#define LOG_COMMENT "Comment: "
/* Run header, a line per task of the run: "Pattern of NAME: " and its resolved pattern
 * (engine/sim.h sim_pattern_text). */
#define LOG_PATTERN "Pattern of "
/* Table title: "--- Benchmarking simulated cpu of NAME[ MODE] in the presence of simulated
 * [LOAD MODE ]---" (interbench 0.20: "--- Benchmarking NAME in the presence of loads ---"). */
#define LOG_TITLE "--- Benchmarking "
#define LOG_TITLE_SIM "simulated cpu of "
#define LOG_TITLE_PRESENCE " in the presence of "
#define LOG_TITLE_SIMULATED "simulated"
#define LOG_TITLE_END "---"
/* Column header words. */
#define LOG_COL_LATENCY "Latency +/- SD ("
#define LOG_COL_DESIRED "Desired CPU"
#define LOG_COL_DEADLINES "Deadlines Met"
#define LOG_COL_REPEATS "Mean"
/* A failed row: "LOAD failed: REASON". */
#define LOG_FAILED "failed:"
/* Under a row: the load's throughput, "load: ..." or "load (one repeat): ...". */
#define LOG_LOAD_WORK "load:"
#define LOG_LOAD_WORK_REPEAT "load (one repeat):"
/* Under a row (-v, a single run): "within-run 95% CI: sched mean LO-HI ms, ...", the
 * level the run's intervals were computed at; logs of earlier builds began it "95% CI:". */
#define LOG_ROW_CI "within-run"
#define LOG_ROW_CI_BEFORE "95% CI:"
/* Under a row: "interrupted: measured for X of Y s[, left out of the medians]". */
#define LOG_ROW_INTERRUPTED "interrupted:"
/* A row itself keeps interbench 0.31's fields (load, latency +/- SD, max latency, % desired
 * CPU[, % deadlines met], then only the columns its header names): what is to be said about
 * it goes on lines under it.  Logs of earlier builds of ours end a disturbed row with " *"
 * and one with a figure left unknown with " ?"; the reader takes no field past the header's
 * columns, so they read as before (tests/check_table.c). */
/* Under a row when other processes took the run's CPUs (host/disturb.h): "* disturbed: others
 * took X % of the CPUs (Y % steal)", or "* disturbed: 2 of 3 repeats; at worst others
 * took X % ...", then LOG_ROW_MARK's line saying the mark.  Logs of earlier builds said "other
 * processes took X % of the run's CPUs during this pair (Y % steal)" and no mark. */
#define LOG_ROW_DISTURBED "* disturbed:"
#define LOG_ROW_DISTURBED_TOOK "took "
/* Under a row, when its load process was seen stopped during the window (SIGSTOP, a debugger:
 * host/disturb.h struct load_activity): "* load stopped: Burn was seen stopped at 9 of 10
 * checks and used 0.21 s of CPU in 3.0 s" ("... checks of repeat 2 ..." with repeats), then
 * LOG_ROW_MARK's line.  Logs of earlier builds said "Burn was stopped at 9 of 10 looks during
 * this pair's window and used ...: it did not load the machine as the row says". */
#define LOG_ROW_LOAD_STOPPED "* load stopped:"
/* After a "*" line: what marks a row so, "* the mark: ..." (a line each, within 100 columns). */
#define LOG_ROW_MARK "* the mark:"
/* Under a row, the window's line: "window: 20.0 s, known at 20 s" or, when a pair stopped with
 * a judged figure not known to its precision (run/stoprule.h), on the console too, "window:
 * 5.0 s, stopped: p99 needs ~73 s more; --max-time allows 55 s more" (with repeats, one line
 * per repeat; logs of earlier builds said "look 1 of 3: p99 would need ~78 s, ..."). */
#define LOG_ROW_WINDOW "window:"
/* Under a row with -v (report/table.h table_row_verbose), three lines: "sched (ms): mean M,
 * p50 A, p90 B, p99 C, p99.9 D, max E" (the scheduling latency alone: the row's mean and max
 * are interbench 0.31's); "timer latency (ms): p99 A, max B; lateness (ms): p99 C, max D";
 * "task cpu: X %; misses: longest run Y ms, streaks N; frame time (ms): p99 Z".
 * Logs of earlier builds had these figures as columns after the row's (p50 p90 p99 ...). */
#define LOG_ROW_SCHED "sched"
#define LOG_ROW_TIMER "timer latency"
#define LOG_ROW_TASK "task cpu"
/* ... and a fourth, "more: LABEL VALUE, ...", for a -v figure those three have no place for
 * (report/table.c verbose_lines); none in this version. */
#define LOG_ROW_MORE "more:"
/* Under a row, with --explain: why its periods were late (explain/text.c explain_text_why,
 * called by report/logfile.c logfile_why with this prefix), every line starting "why:". */
#define LOG_ROW_WHY "why:"
/* After the tables of a run cut short: "*** interrupted: ... (Signal)". */
#define LOG_RUN_INTERRUPTED "*** interrupted:"

/* Writes the load's throughput line under a row (one_repeat: one of several repeats'). */
static inline void log_load_work(FILE *f, const char *work, bool one_repeat)
{
	fprintf(f, "          %s %s\n", one_repeat ? LOG_LOAD_WORK_REPEAT : LOG_LOAD_WORK, work);
}

/* Writes the line marking the row above as a partial window of measured_s of duration_s. */
static inline void log_row_interrupted(FILE *f, double measured_s, unsigned duration_s, bool repeats)
{
	fprintf(f, "          %s measured for %.1f of %u s%s\n", LOG_ROW_INTERRUPTED, measured_s, duration_s,
		repeats ? ", left out of the medians" : "");
}

/* Writes the lines marking the row above as disturbed: outside_pct and steal_pct are the worst
 * repeat's shares of the run's CPUs (%), disturbed of n repeats passed the levels; then the
 * levels (host/disturb.h). */
static inline void log_row_disturbed(FILE *f, double outside_pct, double steal_pct, unsigned disturbed, unsigned n)
{
	fprintf(f, "          %s ", LOG_ROW_DISTURBED);
	if (n > 1)
		fprintf(f, "%u of %u repeats; at worst ", disturbed, n);
	fprintf(f, "others " LOG_ROW_DISTURBED_TOOK "%.1f %% of the CPUs (%.1f %% steal)\n", outside_pct, steal_pct);
	fprintf(f, "          %s other processes over %g %% of the run's CPUs, or steal over %g %%\n", LOG_ROW_MARK,
		DISTURB_OUTSIDE_PPM_MAX / 1e4, DISTURB_STEAL_PPM_MAX / 1e4);
}

/* Writes the lines marking the row above as measured with its load stopped: load was stopped
 * at `stopped` of `looks` checks during repeat `repeat`'s window (0: the only one), window_s
 * long, and used cpu_s of CPU in it; then the mark. */
static inline void log_row_load_stopped(FILE *f, const char *load, unsigned repeat, unsigned stopped, unsigned looks,
					double cpu_s, double window_s)
{
	char of_repeat[32] = "";
	if (repeat)
		snprintf(of_repeat, sizeof(of_repeat), " of repeat %u", repeat);
	fprintf(f, "          %s %s was seen stopped at %u of %u checks%s and used %.2f s of CPU in %.1f s\n",
		LOG_ROW_LOAD_STOPPED, load, stopped, looks, of_repeat, cpu_s, window_s);
	fprintf(f, "          %s a load seen stopped at any check did not load the machine as the row says\n",
		LOG_ROW_MARK);
}

/* Writes the window line of one repeat (repeat 0: the only one): measured_s long, then how
 * it ended in words ("known at 20 s", "stopped: p99 needs ~73 s more; --max-time allows
 * 55 s more"). */
static inline void log_row_window(FILE *f, unsigned repeat, double measured_s, const char *how)
{
	fprintf(f, "          %s ", LOG_ROW_WINDOW);
	if (repeat)
		fprintf(f, "repeat %u ", repeat);
	fprintf(f, "%.1f s, %s\n", measured_s, how);
}

/* Writes the note ending a run a signal cut short. */
static inline void log_run_interrupted(FILE *f, const char *signal_name)
{
	fprintf(f, "\n%s the results above are what was measured before the signal (%s)\n", LOG_RUN_INTERRUPTED,
		signal_name);
}

/* Whether line (leading blanks skipped) starts with prefix. */
static inline bool log_starts(const char *line, const char *prefix)
{
	return strncmp(line, prefix, strlen(prefix)) == 0;
}

#endif
