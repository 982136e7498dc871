/* The JSON result document's keys that are both written (results/json_report.c) and read back
 * (results/resultset.c), defined once.  Their meaning and units: doc/json.md, and the schema
 * doc/interbench-result.schema.json. */
#ifndef IB_JSONKEYS_H
#define IB_JSONKEYS_H

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
#define JK_LATENCY_MEAN      "latency_mean_ns"
#define JK_LATENCY_P99       "latency_p99_ns"
#define JK_LATENCY_MAX       "latency_max_ns"
#define JK_IB_LATENCY_MEAN   "interbench_latency_mean_ns"
#define JK_IB_LATENCY_MAX    "interbench_latency_max_ns"
#define JK_DESIRED_CPU       "desired_cpu_ppm"
#define JK_DEADLINES_MET     "deadlines_met_ppm"
#define JK_MISS_STREAK_NS    "longest_miss_streak_ns"
#define JK_FRAME_P99         "frame_time_p99_ns"
#define JK_LOW1              "one_percent_low_mfps"
#define JK_XRUNS             "xruns"
#define JK_STOLEN_P99        "stolen_p99_ns"
#define JK_TASK_RUN          "task_run_ns"

#endif
