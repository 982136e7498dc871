/* `interbench export`: one result (a JSON document or a logfile, read by tools/resultset.h)
 * as test cases for kernel CI systems: LAVA's lava-test-case lines or a KCIDB report.  Each
 * (simulation, load) pair is one case (measured or failed) and each of its figures another,
 * with the median over the repeats as its measurement.  Against a baseline result, a figure
 * fails where `interbench compare BASELINE RESULT` would call it a regression under the same
 * thresholds.  Syntax and names in doc/json.md. */
#ifndef IB_EXPORT_H
#define IB_EXPORT_H
#include <stdio.h>
#include "tools/compare.h"
#include "tools/resultset.h"

/* Exit statuses: every case passed, some case failed, bad input (or a failed write). */
enum { EXPORT_PASS = 0, EXPORT_FAIL = 1, EXPORT_BAD_INPUT = 2 };

/* A test case's verdict. */
enum export_result {
	EXPORT_RESULT_MEASURED,    /* a figure without a baseline: a measurement, no verdict */
	EXPORT_RESULT_PASS,
	EXPORT_RESULT_FAIL,        /* a regression against the baseline (a figure's, or the
	                              pair's starved repeats: cmp_starved_regression) */
	EXPORT_RESULT_ERROR,       /* the pair could not be measured (or a repeat of it); without
	                              a baseline, a latency figure whose median is starved */
};

/* One test case. */
struct export_case {
	char id[192];              /* "audio-burn" or "audio-burn-p99-latency": lower case, [a-z0-9-]
	                              (text_slug, lib/text.h) */
	char sim_slug[112];        /* "audio", "video-real-time" (export_cases: unique, never
	                              empty; EXPORT_NAME_ROOM below its size is the name itself) */
	char load_slug[48];        /* "burn" (the same) */
	char figure_slug[24];      /* "p99-latency", "deadlines-met"; "" for a pair's own case */
	enum export_result result;
	bool has_value;            /* false for a pair's case and a starved median (compare.h) */
	double value;              /* in unit: with an interval (two repeats or more with the figure)
	                              the mean over the repeats, its centre; else the median */
	const char *unit;          /* judged_metric_unit: "ms", "%", "fps", "/min" (NULL without a value) */
	double value_ns;           /* latencies: the same in ns (NaN for percentages) */
	/* The 95 % interval of the figure's mean over the pair's sub-runs (its repeats: the t
	 * interval of their spread, between runs), in unit, and for a latency in ns too; NaN with
	 * fewer than two sub-runs (one run's own interval is within-run, no figure's). */
	double lo, hi, lo_ns, hi_ns;
};

/* How export judges a result: baseline NULL gives measurements without verdicts. */
struct export_spec {
	const struct result_set *baseline;
	struct cmp_thresholds thresholds;   /* used with a baseline */
};

/* Room kept after a test name for "--" and a number of up to 10 digits, and its NUL. */
#define EXPORT_NAME_ROOM 13

/* Calls fn(c, arg) for every case of rs in order: each pair's case, then its figures (those
 * rs carries with a value in a measured repeat).  A simulation's (a load's) test name is its
 * text_slug; a name whose slug is empty, or shared with another of the set's simulation (load)
 * names ("Audio" and "AUDIO"), gets "--N" after it, N its place from 1 among those names in
 * byte order (strcmp): "audio--1" for "AUDIO", "audio--2" for "Audio", "--1" for "!!!".  A slug
 * has no "--" and no leading '-', so no two names share a test name, whatever the input.
 * Returns the number of failed cases (FAIL or ERROR), or -1 out of memory. */
long export_cases(const struct result_set *rs, const struct export_spec *spec,
		      void (*fn)(const struct export_case *c, void *arg), void *arg);

/* LAVA: one line a case, "ID RESULT [MEASUREMENT UNITS]" with RESULT pass or fail (the
 * result.txt format of Linaro's test-definitions, which send-to-lava.sh and our test
 * definition turn into lava-test-case calls).  Returns the number of failed cases, or -1 out of
 * memory. */
long export_lava(const struct result_set *rs, const struct export_spec *spec, FILE *out);

/* Metrics for test farms (LKP's and the Phoronix Test Suite's parsers): one line a figure,
 * "SIM.LOAD.FIGURE_UNIT: VALUE" (lower case, '_' for '-'; UNIT ms, pct, fps or per_min; the
 * median over the repeats, at the LAVA lines' precision), and for a single run's figure with
 * a 95 % interval two more, FIGURE_ci95_low_UNIT and FIGURE_ci95_high_UNIT.  A pair's own case
 * prints no line.  Returns as export_lava. */
long export_metrics(const struct result_set *rs, const struct export_spec *spec, FILE *out);

/* KCIDB identity: origin ("[a-z0-9_]+", the CI system), the build tested ("ORIGIN:..."), and
 * an optional run name appended to every test id so that runs of one build stay apart. */
struct kcidb_ids {
	const char *origin, *build_id, *run;
};

/* KCIDB (kernelci/kcidb-io schema v5.3): a report {"version", "tests"} with one test a case,
 * path "interbench.SIM.LOAD[.FIGURE]", status PASS/FAIL/ERROR, or DONE for a measurement
 * without a baseline, and "number" {value, unit} (latencies in s with a metric prefix).
 * Returns the number of failed cases, or -1 when out of memory or the write failed. */
int export_kcidb(const struct result_set *rs, const struct export_spec *spec, const struct kcidb_ids *ids,
		 FILE *out);

/* Checks ids: origin matches [a-z0-9_]+, build_id starts with "ORIGIN:", run (when set) holds
 * only [A-Za-z0-9_.-].  Returns 0, or -1 with a one-line reason in err. */
int export_kcidb_ids_check(const struct kcidb_ids *ids, char *err, size_t errlen);

/* The subcommand: argv[0] is "export".  Returns the exit status (EXPORT_*). */
int export_main(int argc, char **argv, FILE *out, FILE *err);

/* The export subcommand's options (*n of them), for shell completion (tools/completion.h). */
const struct optspec *export_option_table(unsigned *n);

#endif
