/* Workloads: the simulated interactive tasks and the background loads, one descriptor each,
 * in the style of fio's `struct ioengine_ops` (engines/ files, each with its own option table
 * and option_struct_size) and stress-ng's `stressor_info_t` (help, options, metrics).  A
 * workload owns its name, help, option table (values in its private config of cfg_size
 * bytes), metrics and hooks; it is a simulated task when it has .sim, a load when it has
 * .load, or both (Video, X and Custom run as loads too, as in interbench 0.20).  Adding one
 * is a file in workloads/ and a line in WORKLOADS (workloads/list.h; doc/adding-a-workload.md).
 *
 * Layer: on lib/, host/, calibrate/, explain/, engine/ (the periodic engine) and loadkit/
 * (load plumbing); under run/, report/, tools/ and interbench.c, which walk these descriptors
 * and name none of them. */
#ifndef IB_WORKLOAD_H
#define IB_WORKLOAD_H
#include <stdbool.h>
#include <stddef.h>
#include "lib/optspec.h"
#include "loadkit/load.h"
#include "engine/sim.h"

#define WL_BENCH_NORMAL 0x01u /* benchmarked as a simulated task in normal (SCHED_OTHER) runs */
#define WL_BENCH_RT     0x02u /* benchmarked as a simulated task in -r (SCHED_FIFO) runs */
#define WL_LOAD_NORMAL  0x04u /* runs as a load in normal runs */
#define WL_LOAD_RT      0x08u /* runs as a load in -r runs */
#define WL_PREFERS_FIFO 0x10u /* benchmarked SCHED_FIFO when allowed even without -r (its real
                                 counterpart always runs so: an audio thread), unless a policy is
                                 asked for; at normal priority with a note otherwise */

#define WL_ONLY_NAMED   0x20u /* in a run only when -W names it (as a task) or -w (as a load): not
                                 in the default selection, which stays interbench's */

#define WL_SELECTED_BY_OPTIONS 0x40u /* its options given (its supported hook says yes) make it the
                                     run's task when -W names none, as -W NAME would (File's
                                     --task-file) */

#define WL_MAX 32             /* registry bound: -W/-w masks are 32-bit, bit i = workload_table[i] */
#define WL_CFG_MAX_BYTES 64   /* bound of a workload's cfg_size (struct options holds them all) */

struct workload {
	const char *name;         /* as given to -W/-w and shown in tables ("Audio", "Burn") */
	const char *help;         /* -h line as a simulated task; NULL when not a task */
	const char *load_help;    /* -h line as a load; NULL when not a load */
	unsigned flags;           /* WL_* */
	/* The workload's own options, NULL-terminated; values live in its private config of
	 * cfg_size (<= WL_CFG_MAX_BYTES) bytes at each option's offset.  An option shared by
	 * several workloads (--workdir for the disk loads) is one struct optspec listed by each,
	 * whose configs all begin with the struct it points into; a value given sets it in each. */
	const struct optspec *const *options;
	size_t cfg_size;
	/* After parsing, whether the workload's options make sense together.  Returns 0, or -1
	 * with a one-line message in err naming the option and what is accepted (exit 2).
	 * NULL: any combination. */
	int (*check)(const void *opts, char *err, size_t len);
	/* Whether the workload can run in this run at all (Custom needs -C and -I).  Returns
	 * true, or false with the reason in why.  NULL: always. */
	bool (*supported)(const void *opts, char *why, size_t len);
	/* Before anything starts, when the workload is in the run: whether the system gives it
	 * what its options ask for (the disk loads' --workdir).  Returns 0, or -1 with a one-line
	 * message in err naming the option, the value and what is accepted (the run is refused,
	 * exit 2).  NULL: nothing to check. */
	int (*preflight)(const void *opts, char *err, size_t len);
	/* When the workload is the run's task (-W names it, or its options select it): whether its
	 * options allow it as one (a task file without a period runs as a load only).  Returns 0,
	 * or -1 with a one-line message in err (exit 2).  NULL: always. */
	int (*check_as_task)(const void *opts, char *err, size_t len);
	/* As a simulated task (or a load that runs one): its periodic pattern; NULL otherwise. */
	const struct sim_desc *sim;
	/* Resolves the pattern's period and CPU from the workload's options into spec (after
	 * sim_spec_init); NULL: the pattern's own fixed values. */
	void (*sim_params)(const void *opts, struct sim_spec *spec);
	/* As a load: its hooks; NULL when it is not a load. */
	const struct load_ops *load;
	/* What the load counts, NULL-terminated, in print order (at most LOAD_MAX_METRICS). */
	const struct load_metric_info *const *metrics;
	/* What a result records of the workload beyond its options, under the run's key record_key
	 * (doc/json.md): a JSON object's text (malloc'd; the caller frees it), or NULL when there is
	 * nothing to record (the workload not given) or no memory.  A task file's model: compare
	 * refuses two results whose tasks differ.  NULL: nothing. */
	const char *record_key;
	char *(*record)(const void *opts);
};

/* The registry, in benchmark order: simulated tasks run in table order, and so do the loads
 * against each task. */
extern const struct workload *const workload_table[];
extern const unsigned workload_count;

/* Index of the workload named name (case-insensitive) that is a simulated task (as_load
 * false) or a load (as_load true), or -1. */
int workload_find(const char *name, bool as_load);

/* Resolves workload w's simulated task with its options opts into spec.  w->sim must be set. */
void workload_sim_spec(const struct workload *w, const void *opts, struct sim_spec *spec);

/* The name of workload i as a simulated task / as a load: its name, "" when it is not one,
 * NULL past the last (optspec name_at callbacks for -W/-X and -w/-x). */
const char *workload_sim_name_at(unsigned i);
const char *workload_load_name_at(unsigned i);

/* Fills ctx for running workload w as a load with its options opts and the run's settings cfg
 * (both must outlive ctx): name, hooks, metrics and, for a simulated task run as a load, its
 * resolved pattern.  The rest is zeroed.  ctx->ops is NULL when w is not a load. */
void workload_load_init(struct load_ctx *ctx, const struct workload *w, const void *opts,
			const struct load_config *cfg);

/* Index of an option of the given long name in w's list, or -1. */
int workload_option_find(const struct workload *w, const char *long_name);

#endif
