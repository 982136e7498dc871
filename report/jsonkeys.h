/* The JSON result document's format, defined once for its writer (report/json_report.c) and
 * its readers (tools/resultset.c, tools/plot.c): the schema versions, the generator and
 * the keys both sides name.  Their meaning and units: doc/json.md, and the schema
 * doc/interbench-result.schema.json.  The figures' keys are in report/figures.h. */
#ifndef IB_JSONKEYS_H
#define IB_JSONKEYS_H
#include <stdbool.h>

/* 2: options carry every workload option (workdir, file_size_bytes, mem_size_bytes added);
 * load_work holds elapsed_ns and the load's own metrics only.  3: each result carries the 95 %
 * confidence intervals of four figures (report/figures.h, struct figure_interval).  Readers
 * take 1 to 3. */
#define REPORT_SCHEMA_VERSION 3
#define REPORT_SCHEMA_OLDEST 1
#define REPORT_GENERATOR "interbench" /* "generator" is this, a space and the version */

/* Whether a document's "generator" names this program: "interbench VERSION", or the bare
 * "interbench" of results written before the version was added. */
bool report_generator_is_ours(const char *generator);

#define JK_SCHEMA_VERSION    "schema_version"
#define JK_GENERATOR         "generator"
#define JK_RESULTS           "results"
#define JK_SIMULATION        "simulation"
#define JK_LOAD              "load"
#define JK_MODE              "mode"
#define JK_LOAD_MODE         "load_mode"
#define JK_FAILED            "failed"
#define JK_INTERRUPTED       "interrupted"
#define JK_HAS_DEADLINES     "has_deadlines"
#define JK_SAMPLES           "samples"
#define JK_LATENCY_P99       "latency_p99_ns"
#define JK_LATENCY_MAX       "latency_max_ns"
#define JK_IB_LATENCY_MAX    "interbench_latency_max_ns"
#define JK_DEADLINES_MET     "deadlines_met_ppm"
#define JK_XRUNS             "xruns"
/* The task's resolved settings (struct sim_spec, engine/sim.h), an object in each result. */
#define JK_TASK_SETTINGS     "task_settings"
#define JK_BUFFER_PERIODS    "buffer_periods"
#define JK_TASK_RUN          "task_run_ns"
#define JK_VSYNCS            "vsyncs"       /* a presenting task's (report/figures.c) */

#endif
