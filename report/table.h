/* The classic interbench table (interbench 0.31's columns, then the task's own columns and the
 * verbose ones the figure table places) and the sweep table, written from pair summaries
 * (engine/summary.h). */
#ifndef IB_TABLE_H
#define IB_TABLE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "engine/summary.h"

/* What a latency column shows for a pair that took no sample of that latency (a starved
 * task): never "0", which would read as the best latency possible.  The log reader
 * (tools/result_log.c) reads it back as "no samples". */
#define TABLE_NO_SAMPLES "-"

/* Table layout: classic columns (Latency +/- SD and Max Latency in interbench 0.31's
 * definition), then the task's own; repeats > 1 adds the range of the mean latency last.
 * verbose adds lines under each row (table_row_verbose), not columns. */
struct table_style {
	bool has_deadlines;   /* print "% Deadlines Met" (not for a free-running task) */
	bool microseconds;    /* latency columns in us (-r runs) instead of ms */
	bool verbose;
	unsigned repeats;     /* rows are medians of this many repeats (0 or 1: single runs) */
	/* A task with measures of its own (sim_desc.measures), or NULL: its columns
	                         (FIG_TASK_COLUMN rows: ProAudio's xruns, overrun, start<1ms,
	                         start<2ms, stolen; Pipeline's input-to-present, frame time, 1% low,
	                         jank) after the classic ones, and with verbose its lines under
	                         each row (table_row_task_lines) */
	const struct sim_measures *measures;
	bool buffered;        /* a task with a buffer (sim_spec.buffer_periods > 0): its buffer's
	                         figures are not null (FIG_NULL_UNBUFFERED) */
};

/* The first words of the run header's legend (table_legend); a logfile carrying them has
 * interbench 0.31's latency in its classic columns (the log reader, tools/result_log.c, tells
 * it from this program's older logs, whose classic columns are scheduling latency). */
#define TABLE_DEFINITIONS_PREFIX "Latency +/- SD and Max Latency: interbench 0.31's definition"

/* The width the legend is wrapped to, in columns. */
#define TABLE_LEGEND_COLS 100

/* The most tasks with columns of their own a legend names. */
#define TABLE_LEGEND_TASKS 8

/* Which columns and lines the run's tables will show, for their legend. */
struct table_legend {
	bool deadlines;       /* some table has "% Deadlines Met" */
	bool verbose;         /* -v: the lines under each row (table_row_verbose) */
	bool repeats;         /* rows are medians of sub-runs and end with "Mean range of N" */
	/* The tasks with columns of their own in the run (sim_measures.legend said for each, once),
	 * and their names; n_measures of them, at most TABLE_LEGEND_TASKS. */
	const struct sim_measures *measures[TABLE_LEGEND_TASKS];
	const char *measures_task[TABLE_LEGEND_TASKS];
	unsigned n_measures;
};

/* Writes the legend of the columns lg says are shown, within TABLE_LEGEND_COLS columns
 * (continuation lines indented two spaces): always the classic columns' definitions, first
 * the line beginning TABLE_DEFINITIONS_PREFIX; the repeats' range only with repeats; the
 * verbose lines' words only with -v; each task's own columns (its measures' legend, "NAME's
 * columns: ...") when it runs. */
void table_legend(FILE *f, const struct table_legend *lg);

/* Writes the "--- Benchmarking simulated cpu of NAME[ MODE] in the presence of simulated ---"
 * line and the column header.  mode is "real time", "nice N" or "" (interbench's words), and
 * load_mode the loads' ("nice 19": "... in the presence of simulated nice 19 ---"). */
void table_header(FILE *f, const char *sim_name, const char *mode, const char *load_mode,
		  const struct table_style *st);

/* Writes one row for load `load`. */
void table_row(FILE *f, const char *load, const struct pair_summary *s, const struct table_style *st);

/* Writes the lines under a single run's row giving the within-run confidence intervals of its
 * figures that have one (report/figures.h, struct figure_interval): they hold the run's own
 * long-run figures, not what another run would measure (the legend says so).  A line for the
 * latencies, then one for the shares, each LOG_ROW_CI and the level ("95% CI:"), then "NAME
 * LO-HI UNIT" for each (a scheduling latency named as on -v's sched line, "sched p99"; in the
 * table's unit; the p99 interval is not symmetric, so ranges, not half-widths), "NAME >= LO
 * UNIT (open above)" for one open above (its high field INFINITY: no upper bound); nothing
 * when no figure has one (a run under 32 periods). */
void table_row_intervals(FILE *f, const struct pair_summary *s, const struct table_style *st);

/* Writes -v's three lines under a row (report/logformat.h LOG_ROW_SCHED, LOG_ROW_TIMER,
 * LOG_ROW_TASK), each figure under the name of its definition, times in the table's unit, "-"
 * for a figure without a value. */
void table_row_verbose(FILE *f, const struct pair_summary *s, const struct table_style *st);

/* Writes, for a task with measures of its own (st->measures), its lines under its row (struct
 * sim_measures.lines: Pipeline's stages' wake-to-run p99 and its segments' shares of the
 * input-to-present time), each its lead then "LABEL VALUE" for each of its FIG_TASK_LINE
 * rows; nothing when the task's first row is null in s (Pipeline: no vsync passed). */
void table_row_task_lines(FILE *f, const struct pair_summary *s, const struct table_style *st);

/* Writes the row of a pair measured several times: s holds the medians (summary_median) and
 * the last column the range mean_lo_ns-mean_hi_ns of the mean latency over the repeats, with
 * "(N failed)" when some repeats could not be measured. */
void table_row_repeats(FILE *f, const char *load, const struct pair_summary *s, const struct table_style *st,
		       double mean_lo_ns, double mean_hi_ns, unsigned failed);

/* One cell of a sweep summary: the pair at one bench and one load setting. */
struct sweep_cell {
	bool measured;            /* some repeat measured it */
	double met_pct;           /* % deadlines met (median over repeats) */
	bool has_p99;             /* it took latency samples */
	uint64_t p99_ns;          /* p99 scheduling latency (median over repeats) */
};

/* Writes the sweep summary of task sim against load: a title line "--- Sweep of SIM against
 * LOAD: % deadlines met / p99 latency (ms) ---", then one row per bench setting (rows[nr]) and
 * one column per load setting (cols[nc]), cells[r * nc + c] as "MET / P99" ("-" where not
 * measured, "-" for MET without deadlines), so the setting where the task stops meeting its
 * deadlines shows at a glance.  Latency in ms, or us when microseconds. */
void sweep_table(FILE *f, const char *sim, const char *load, const char *const *rows, unsigned nr,
		 const char *const *cols, unsigned nc, const struct sweep_cell *cells, bool has_deadlines,
		 bool microseconds);

/* Writes a row for a pair that could not be measured, with the reason. */
void table_row_failed(FILE *f, const char *load, const char *why);

#endif
