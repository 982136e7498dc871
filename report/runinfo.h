/* The run header: what every output of a run states about it (the kernel, the date, the
 * calibration, the run's set-up), filled by the caller (run_info_init the kernel and date) and
 * written by the logfile (report/logfile.h) and the JSON document (report/json_report.h). */
#ifndef IB_RUNINFO_H
#define IB_RUNINFO_H
#include <stdint.h>
#include "calibrate/calibrate.h"
#include "run/stoprule.h"
#include "host/audit.h"
#include "host/cgplace.h"
#include "host/cgroup.h"

struct run_info {
	char kernel_release[65];   /* uname -r */
	char kernel_version[65];   /* uname -v */
	char datestamp[16];        /* local time, YYYYMMDDHHMM as interbench stamps it */
	uint64_t loops_per_ms;
	const char *loops_source;  /* "measured", "saved", "-l" */
	const struct calib_check *calib; /* the measurements behind it (calibrate/calibrate.h), NULL with -l */
	unsigned duration_s;       /* -t (or --repeat's default window); 0 in the adaptive window */
	unsigned min_time_s, max_time_s; /* the adaptive window's bounds (0 outside it) */
	const struct precision *precision; /* the adaptive window's or the budget's targets
	                                      (run/stoprule.h), NULL with fixed windows */
	unsigned budget_s;         /* the budget's seconds (run/matrix.h matrix_budget_ns); 0: no budget */
	unsigned subrun_s;         /* the budget's sub-run window, seconds (X: at least one sweep) */
	unsigned min_subruns, max_subruns; /* the budget's sub-runs a pair, at least and at most */
	unsigned cpus;             /* online CPUs */
	unsigned load_threads;     /* -L */
	const char *comment;       /* -m, or NULL */
	const char *workload_options; /* the workload options given, as on the command line, or "" */
	const char *settings;      /* the sweep's settings and CPU placement (run/sweep.h), or "" */
	const struct audit *audit; /* the system audit (host/audit.h), or NULL */
	int64_t dma_latency_us;    /* --dma-latency limit held, microseconds; -1 = none */
	unsigned allowed_cpus;     /* CPUs the run may use (sched_getaffinity(2)); 0: unknown */
	const char *allowed_cpu_list; /* those CPUs ("1"), or NULL */
	const struct cgroup_cpu_limits *cgroup; /* its cgroups' CPU quota and cpuset, or NULL */
	/* the cgroups the bench and the load processes ran in (--bench-cgroup, --load-cgroup: [0]
	 * and [1], each one or alternatives), their facts as they were at the start; NULL, or an
	 * empty set: where interbench runs */
	const struct cgplace_set *cgroups;
	long concurrent_pid;       /* another interbench run running when this one started, 0: none */
	uint64_t shuffle_seed;     /* the seed of the rounds' order (run/matrix.h), 0: one round,
	                              plan order */
};

/* Zeroes info and fills its kernel fields from uname(2) ("unknown" when it fails) and its
 * datestamp from the local time; dma_latency_us is -1 (none).  The rest is the caller's. */
void run_info_init(struct run_info *info);

#endif
