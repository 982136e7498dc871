/* The JSON result document's format, defined once for its writer (report/json_report.c) and
 * its readers (tools/result_json.c, tools/plot.c, tools/plot_input.c): the schema versions,
 * the generator and every key both sides name (tests/jsonkeys.sh fails when one of them is
 * typed as a literal there again).  Their meaning and units: doc/json.md, and the schema
 * doc/interbench-result.schema.json.  The figures' keys are in the figure table
 * (report/figures.c task_figures): readers find them with figure_of_metric and FIGURE_KEY. */
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

/* The document: {"schema_version", "generator", "machine", "run", "options", "results",
 * "sweeps"} (doc/json.md "Top level"). */
#define JK_SCHEMA_VERSION    "schema_version"
/* A result's level of its within-run intervals (the "_ci" keys): 1 - engine/summary.h ci_alpha. */
#define JK_CI_LEVEL          "ci_level"
#define JK_GENERATOR         "generator"
#define JK_MACHINE           "machine"
#define JK_RUN               "run"
#define JK_TASK_FILE         "task_file" /* run: the task file's record (workloads/file.c) */
#define JK_TASK_FILE_DIGEST  "task_file.digest" /* compare's fact: its model's digest */
#define JK_OPTIONS           "options"   /* every option with a JSON key (lib/optspec.h json_key) */
#define JK_RESULTS           "results"
#define JK_SWEEPS            "sweeps"

/* The machine object's members compare reads as facts (tools/result_json.c), and what
 * confined the run (host/machine.h struct machine_info, host/cgroup.h); its "machine" is
 * uname(2)'s (the architecture). */
#define JK_UNAME_MACHINE     "machine"
#define JK_CPU_MODEL         "cpu_model"
#define JK_ONLINE_CPUS       "online_cpus"
#define JK_PREEMPT_MODEL     "preempt_model"
#define JK_PREEMPT_MODE      "preempt_mode"
#define JK_ALLOWED_CPUS      "allowed_cpus"
#define JK_ALLOWED_CPU_LIST  "allowed_cpu_list"
#define JK_CPU_QUOTA_US      "cpu_quota_us"
#define JK_CPU_QUOTA_PERIOD_US "cpu_quota_period_us"
#define JK_CPUSET            "cpuset"
#define JK_RT_RUNTIME_US     "rt_runtime_us"
#define JK_RT_PERIOD_US      "rt_period_us"
/* machine.audit: {item name: {"value", "source", "hint"}} (host/audit.h). */
#define JK_AUDIT             "audit"
#define JK_AUDIT_VALUE       "value"

/* The run object's member compare reads: another run's pid, or null. */
#define JK_CONCURRENT_RUN_PID "concurrent_run_pid"
/* run.bench_cgroups and run.load_cgroups: the cgroups the bench or the load processes ran in
 * (--bench-cgroup, --load-cgroup, in the order given; host/cgplace.h struct cgplace_facts), or
 * null; compare reads the settings below as facts ("load_cgroups.cpu_weight"), the paths are
 * the options'. */
#define JK_BENCH_CGROUPS     "bench_cgroups"
#define JK_LOAD_CGROUPS      "load_cgroups"
#define JK_CG_DIR            "dir"
#define JK_CG_CREATED        "created"
#define JK_CG_TYPE           "type"
#define JK_CG_CONTROLLERS    "controllers"
#define JK_CG_CPU_WEIGHT     "cpu_weight"
#define JK_CG_CPU_MAX        "cpu_max"
#define JK_CG_CPUSET         "cpuset_cpus_effective"
#define JK_CG_MEMORY_MAX     "memory_max"

/* A result's members other than its figures (the figures' keys: report/figures.c). */
#define JK_SIMULATION        "simulation"
#define JK_LOAD              "load"
#define JK_MODE              "mode"
#define JK_LOAD_MODE         "load_mode"
#define JK_REPEAT            "repeat"
#define JK_FAILED            "failed"
#define JK_INTERRUPTED       "interrupted"
#define JK_HAS_DEADLINES     "has_deadlines"
#define JK_TIMELINE_PAIR     "timeline_pair"   /* the pair's id in the --timeline file */
#define JK_LATENCY_HISTOGRAM "latency_histogram"          /* [[low_ns, count], ...] */
#define JK_TIMER_LATENCY_HISTOGRAM "timer_latency_histogram"
#define JK_EXPLAIN           "explain"         /* --explain's causes (explain/json.h) */
/* The task's resolved settings (struct sim_spec, engine/sim.h), an object in each result;
 * its interval is under the figure's key (FIGURE_KEY(interval_us), report/figures.h). */
#define JK_TASK_SETTINGS     "task_settings"
#define JK_BUFFER_PERIODS    "buffer_periods"
/* result.disturbance: other processes' CPU time on the run's CPUs and the steal, in ppm of
 * them (host/disturb.h). */
#define JK_DISTURBANCE       "disturbance"
#define JK_DECISIONS         "decisions"
#define JK_OUTSIDE_CPU_PPM   "outside_cpu_ppm"
#define JK_STEAL_PPM         "steal_ppm"
/* result.load_activity: whether the load ran through the window (host/disturb.h). */
#define JK_LOAD_ACTIVITY     "load_activity"
#define JK_LOAD_STOPPED      "stopped"

/* A sweep: {"simulation", "load", "bench_settings", "load_settings", "cells": [[cell]]}, a
 * cell null or holding the % deadlines met and p99 under the figures' keys (report/figures.c,
 * JM_MET and JM_P99). */
#define JK_BENCH_SETTINGS    "bench_settings"
#define JK_LOAD_SETTINGS     "load_settings"
#define JK_CELLS             "cells"

#endif
