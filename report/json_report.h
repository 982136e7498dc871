/* The JSON result document of a run (schema in doc/json.md and
 * doc/interbench-result.schema.json), built with jansson while the run goes on and written at
 * the end.  Every figure is an integer whose key names its unit: *_ns for times, *_ppm for
 * fractions in parts per million (100 % = 1000000). */
#ifndef IB_JSON_REPORT_H
#define IB_JSON_REPORT_H
#include <jansson.h>
#include "host/disturb.h"
#include "report/jsonout.h"
#include <stdbool.h>
#include "run/options.h"
#include "lib/schedpolicy.h"
#include "report/jsonkeys.h"
#include "report/runinfo.h"
#include "host/machine.h"
#include "report/figures.h"
#include "report/table.h"
#include "loadkit/load.h"
#include "engine/sim.h"
#include "run/pair.h"
#include "workloads/workload.h"

/* One run of a (simulation, load) pair as the JSON writes it: the words and settings of its
 * plan item, which the run's report gives (report/sink.c), beside the run's record. */
struct report_entry {
	const char *simulation;
	const char *load;
	const char *mode;              /* table header words of the task's setting: "", "real time", "nice N" */
	const char *load_mode;         /* those of the loads' setting ("" for other at nice 0) */
	const struct sched_setting *bench_sched, *load_sched; /* the settings themselves, or NULL */
	unsigned repeat;               /* 1-based */
	bool has_deadlines;
	bool buffered;                 /* a task with a buffer: its xruns and start figures (else
	                                  null); spec's buffer_periods decides when spec is set */
	const struct sim_spec *spec;   /* the task's resolved settings ("task_settings"), or NULL */
	const struct load_metric_info *const *load_metrics; /* what the load counts, NULL-terminated */
	const struct probe_storage *load_storage; /* where a disk load's files live ("load_storage",
	                                             written when its fs is named), or NULL */
	bool explain;                  /* --explain: the record's causes ("explain", explain/json.h) */
	bool timeline_unnamed;         /* the pair's period records went to no --timeline file but to
	                                  an output's own scratch (--trace alone): "timeline_pair",
	                                  an id in no file, is not written */
	/* The run's record (run/pair.h): measured when rec->ok (its figures from rec->bench, "stop"
	 * from rec->stop), else "failed" with rec->why; "interrupted", "window_ns",
	 * "timeline_pair" (when >= 0), "disturbance" (when measured), "load_activity" (when
	 * looked at) and "load_work" (when the load reported) either way. */
	const struct pair_outcome *rec;
	/* --on-threshold's rules as given (the actions' "rule": rec->on_threshold's indexes), or
	 * NULL: "on_threshold" is written when an action was taken in the record. */
	const struct optspec_texts *on_threshold;
};

/* Starts a document: schema_version, generator, machine, run and options.  Returns NULL only
 * when jansson cannot allocate. */
json_t *report_new(const struct machine_info *m, const struct run_info *info, const struct options *o);

/* Appends e to the document's "results".  Returns 0, or -1 when out of memory. */
int report_add(json_t *doc, const struct report_entry *e);

/* Appends to the document's "sweeps" (created on first use) the summary of task sim against
 * load: {"simulation", "load", "bench_settings": [labels], "load_settings": [labels], "cells":
 * [[{"deadlines_met_ppm", "latency_p99_ns"} or null, ...], ...]} with cells[r * nc + c]
 * (report/table.h struct sweep_cell; null where not measured, latency null without samples).
 * Returns 0, or -1 when out of memory. */
int report_add_sweep(json_t *doc, const char *sim, const char *load, const char *const *rows, unsigned nr,
		     const char *const *cols, unsigned nc, const struct sweep_cell *cells);

/* Marks the run as cut short by signal sig: run.interrupted_by = "SIGINT" etc.  Returns 0,
 * or -1 when out of memory. */
int report_mark_interrupted(json_t *doc, int sig);

/* Records in the document the speed checks between pairs: run.calibration_drift {checks,
 * slowest_loops_per_ms, fastest_loops_per_ms, off, off_checks, reference, speeds} (off:
 * calib_drift_off; speeds: each kept check, after the pair of plan item k named sims[k] /
 * loads[k]; doc/json.md).  Returns 0, or -1 when out of memory. */
int report_set_drift(json_t *doc, const struct calib_drift *d, bool off, const char *const *sims,
		     const char *const *loads);

/* Records in the document that another interbench run (process id pid) was running at the same
 * time: run.concurrent_run_pid.  Returns 0, or -1 when out of memory. */
int report_set_concurrent(json_t *doc, long pid);

/* Adds to result object r the figures of s listed in tab[0..n) (task_figures, report/figures.h)
 * that have a JSON key, in tab's order: null where figure_is_null (buffered: the task has a
 * buffer), else the integer field * json_scale, rounded (a negative or non-finite value as 0).
 * Returns 0, or -1 when out of memory. */
int report_add_figures(json_t *r, const struct task_figure *tab, size_t n, const struct pair_summary *s,
		       bool buffered);

/* A histogram's non-empty buckets b[0..n) (b may be NULL when n is 0) as [[low_ns, count],
 * ...]; NULL when out of memory. */
json_t *report_histogram(const struct hist_bucket *b, uint32_t n);

#endif
