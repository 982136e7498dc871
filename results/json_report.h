/* The JSON result document of a run (schema in doc/json.md and
 * doc/interbench-result.schema.json), built with jansson while the run goes on and written at
 * the end.  Every figure is an integer whose key names its unit: *_ns for times, *_ppm for
 * fractions in parts per million (100 % = 1000000). */
#ifndef IB_JSON_REPORT_H
#define IB_JSON_REPORT_H
#include <jansson.h>
#include "lib/safefile.h"
#include <stdbool.h>
#include "core/options.h"
#include "lib/schedpolicy.h"
#include "results/logfile.h"
#include "lib/machine.h"
#include "results/summary.h"
#include "loads/load.h"
#include "sims/sim.h"
#include "workloads/workload.h"

/* 2: options carry every workload option (workdir, file_size_bytes, mem_size_bytes added);
 * load_work holds elapsed_ns and the load's own metrics only.  Readers take 1 and 2. */
#define REPORT_SCHEMA_VERSION 2
#define REPORT_SCHEMA_OLDEST 1
#define REPORT_GENERATOR "interbench" /* "generator" is this, a space and the version */

/* Whether a document's "generator" names this program: "interbench VERSION", or the bare
 * "interbench" of results written before the version was added. */
bool report_generator_is_ours(const char *generator);

/* One measured (simulation, load, repeat). */
struct report_entry {
	const char *simulation;
	const char *load;
	const char *mode;              /* table header words of the task's setting: "", "real time", "nice N" */
	const char *load_mode;         /* those of the loads' setting ("" for other at nice 0) */
	const struct sched_setting *bench_sched, *load_sched; /* the settings themselves, or NULL */
	unsigned repeat;               /* 1-based */
	bool has_deadlines;
	bool audio;                    /* an audio task: xruns and start figures (else null) */
	const char *failed;            /* reason, or NULL when measured */
	bool interrupted;              /* the window was cut short by a signal */
	uint64_t window_ns;            /* how long the bench ran */
	const struct sim_result *sim;  /* measurements (ignored when failed) */
	const struct pair_summary *summary; /* sim's summary when the caller has it (computed
	                                       here from sim when NULL) */
	const struct load_counters *load_work; /* the load's counters, or NULL when it never reported */
	const struct load_metric_info *const *load_metrics; /* what load_work counts, NULL-terminated */
	int64_t timeline_pair;         /* the pair id of its --timeline records, or -1 */
};

/* Starts a document: schema_version, generator, machine, run and options.  Returns NULL only
 * when jansson cannot allocate. */
json_t *report_new(const struct machine_info *m, const struct run_info *info, const struct options *o);

/* Appends e to the document's "results".  Returns 0, or -1 when out of memory. */
int report_add(json_t *doc, const struct report_entry *e);

/* Appends to the document's "sweeps" (created on first use) the summary of task sim against
 * load: {"simulation", "load", "bench_settings": [labels], "load_settings": [labels], "cells":
 * [[{"deadlines_met_ppm", "latency_p99_ns"} or null, ...], ...]} with cells[r * nc + c]
 * (results/summary.h struct sweep_cell; null where not measured, latency null without samples).
 * Returns 0, or -1 when out of memory. */
int report_add_sweep(json_t *doc, const char *sim, const char *load, const char *const *rows, unsigned nr,
		     const char *const *cols, unsigned nc, const struct sweep_cell *cells);

/* Marks the run as cut short by signal sig: run.interrupted_by = "SIGINT" etc.  Returns 0,
 * or -1 when out of memory. */
int report_mark_interrupted(json_t *doc, int sig);

/* Records in the document that another interbench run (process id pid) was running at the same
 * time: run.concurrent_run_pid.  Returns 0, or -1 when out of memory. */
int report_set_concurrent(json_t *doc, long pid);

/* Writes doc (compact, keys in insertion order) to path, replacing what it held (--json: the
 * user named it) only once all of it is written, under a temporary name renamed into place
 * (lib/safefile.h: never through a link, never another user's file, mode 0644), or to a FIFO
 * or device of the user's as it is, or to stdout (plus a newline) when path is "-".  Returns
 * 0, or -1 with a one-line reason in err naming the failed call and file ("write out.json: No
 * space left on device"); the old file is then left whole. */
int report_write(const json_t *doc, const char *path, char *err, size_t errlen);

/* Where --json goes: standard output, or a file opened when the run starts (so a path that
 * would be refused is refused before anything is measured) and written when it ends. */
struct report_target {
	bool to_stdout;            /* path "-" */
	struct safe_out out;       /* the file, as report_write opens it */
};

/* Opens path as report_write would, without writing.  Returns 0, or -1 with err set (nothing
 * then to abort). */
int report_target_open(struct report_target *t, const char *path, char *err, size_t errlen);

/* Writes doc to the target opened by report_target_open and closes it (a file renamed into
 * place).  Returns 0, or -1 with err set, the target then closed and any old file whole. */
int report_target_write(struct report_target *t, const json_t *doc, char *err, size_t errlen);

/* Closes an opened target without writing: a temporary file removed, any old file whole. */
void report_target_abort(struct report_target *t);

#define REPORT_CREATE_TRIES 100  /* "<stem>.json", then "<stem>-2.json" ... "<stem>-100.json" */

/* Writes doc (as report_write) to a new file, never overwriting one: "<stem>.json" is created
 * exclusively (O_CREAT | O_EXCL), or when it exists "<stem>-2.json", "<stem>-3.json" ... up to
 * REPORT_CREATE_TRIES names.  name (namelen bytes) receives the name used.  Returns 0, or -1
 * with a one-line reason in err naming the failed call and file; a file left incomplete by a
 * failed write is removed. */
int report_create(const json_t *doc, const char *stem, char *name, size_t namelen, char *err, size_t errlen);

/* A JSON string holding text s made valid UTF-8: every byte that does not begin a valid
 * sequence (a stray continuation byte, a truncated or overlong sequence, a surrogate, a code
 * point above U+10FFFF) becomes U+FFFD, the rest is kept as is.  jansson refuses invalid
 * UTF-8, so every string from the user or the system (the -m comment, a path in a failure
 * reason, the CPU model, uname) goes through this before it enters a document.  Decoding is
 * libc's: mbrtowc under a "C.UTF-8" locale (glibc rejects overlongs and surrogates; the
 * U+10FFFF bound is checked here); should that locale be missing, every byte above 0x7f is
 * replaced.  Returns a new reference; NULL when s is NULL or out of memory. */
json_t *report_text(const char *s);

/* The histogram's non-empty buckets as [[low_ns, count], ...]; NULL when out of memory. */
json_t *report_histogram(const struct lat_hist *h);

#endif
