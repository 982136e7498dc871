/* Custom: a periodic task of the user's making, -C percent of CPU every -I microseconds
 * (interbench 0.31's -C/-I); it runs only when both are given, as a simulated task and as a
 * background load. */
#include <stddef.h>
#include <stdio.h>
#include "workloads/workload.h"

#define CUSTOM_MIN_INTERVAL_US 100u
#define CUSTOM_MAX_INTERVAL_US 10000000u /* 10 s */

struct custom_opts {
	unsigned cpu_pct;        /* -C: CPU per period, percent; 0 = not given */
	uint64_t interval_us;    /* -I: period, microseconds; 0 = not given */
};

static const struct optspec custom_opt_cpu = {
	.long_name = "custom-cpu", .short_name = 'C', .type = OPTSPEC_UINT, .metavar = "P",
	.help = "Custom task: P% CPU per period (1..100), needs -I", .min = 1, .max = 100,
	.json_key = "custom_cpu_pct", .section = OPTSPEC_SECTION_WORKLOAD, .offset = offsetof(struct custom_opts, cpu_pct),
};
static const struct optspec custom_opt_interval = {
	.long_name = "custom-interval", .short_name = 'I', .type = OPTSPEC_U64, .metavar = "TIME",
	.help = "Custom task: a period of TIME (a bare number: microseconds), needs -C", .time_unit_ns = 1000,
	.min = CUSTOM_MIN_INTERVAL_US, .max = CUSTOM_MAX_INTERVAL_US,
	.json_key = "custom_interval_us", .section = OPTSPEC_SECTION_WORKLOAD, .offset = offsetof(struct custom_opts, interval_us),
};

static int custom_check(const void *opts, char *err, size_t len)
{
	const struct custom_opts *o = opts;
	if ((o->cpu_pct != 0) == (o->interval_us != 0))
		return 0;
	snprintf(err, len, o->cpu_pct ? "-C: given without -I (accepted: -C percent together with -I microseconds)" :
		 "-I: given without -C (accepted: -I microseconds together with -C percent)");
	return -1;
}

static bool custom_supported(const void *opts, char *why, size_t len)
{
	const struct custom_opts *o = opts;
	snprintf(why, len, "Custom needs -C and -I");
	return o->cpu_pct != 0;
}

static void custom_params(const void *opts, struct sim_spec *spec)
{
	const struct custom_opts *o = opts;
	spec->interval_us = o->interval_us;
	spec->cpu_pct = o->cpu_pct;
}

static const struct sim_desc custom_sim = { .has_deadlines = true };

static const struct load_ops custom_load = { .start = load_sim_start, .ready = load_sim_ready, .stop = load_sim_stop };

const struct workload wl_custom = {
	.name = "Custom",
	.help = "-C percent CPU every -I microseconds",
	.load_help = "the simulated Custom task as a background load",
	.flags = WL_BENCH_NORMAL | WL_BENCH_RT | WL_LOAD_NORMAL | WL_LOAD_RT,
	.options = (const struct optspec *const[]){ &custom_opt_cpu, &custom_opt_interval, NULL },
	.cfg_size = sizeof(struct custom_opts),
	.check = custom_check,
	.supported = custom_supported,
	.sim = &custom_sim,
	.sim_params = custom_params,
	.load = &custom_load,
	.metrics = (const struct load_metric_info *const[]){ &load_metric_loops, &load_metric_wakeups, NULL },
};
