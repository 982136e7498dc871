/* The main process's own set-up for a run: SCHED_FIFO at the top priority it may use (the
 * timing thread and the simulated task below it), its memory locked, its descriptor limit
 * raised for the loads, optionally pinned to CPU 0 (-u), and dropped to SCHED_OTHER for slow
 * work between pairs.  Runtime failures are warnings on stderr naming the system call and its
 * errno text; sched(7), mlockall(2), setrlimit(2), sched_setaffinity(2). */
#ifndef IB_MAINPROC_H
#define IB_MAINPROC_H
#include <stdbool.h>
#include "host/cgplace.h"
#include "run/options.h"
#include "run/privs.h"

/* SCHED_FIFO priorities: main at the top, the timing thread below it, the simulated task
 * (-r) below that.  Needs at least 3 levels. */
#define FIFO_LEVELS 3

/* Main's scheduling for the run, and the latency limit it holds. */
struct mainproc {
	bool rt_ok;                /* main runs SCHED_FIFO (mainproc_prepare raised it) */
	int prio_max;              /* the highest SCHED_FIFO priority we may use (main runs at it);
	                              0 when none */
	int dma_fd;                /* /dev/cpu_dma_latency held open (--dma-latency), else -1 */
	/* --explain: the BPF tracer loaded and attached (explain/tracer.h), or NULL: without it
	 * the periods are explained from schedstat (explain_floor) */
	struct explain_tracer *tracer;
	bool explain_floor;
};

/* What main will be allowed, probed with no side effect (privs_probe): mp->prio_max, the highest
 * SCHED_FIFO priority the privileges allow (0 when none), and mp->rt_ok, whether main can run
 * SCHED_FIFO at all (at least FIFO_LEVELS levels, not refused), the settings and the plan of the
 * run are resolved from before anything starts.  mp->dma_fd is set to -1. */
void mainproc_probe(struct mainproc *mp);

/* Sets main up for the run of o, after mainproc_probe: the privileges checked (refusing what cannot be done before
 * anything starts), --dma-latency held, the warnings of missing privileges, on_signal caught
 * for the stop signals (SIGPIPE and SIGXFSZ ignored, so such writes fail with an errno that is
 * reported), main made the OOM killer's last choice, the descriptor limit raised, main at the
 * highest SCHED_FIFO priority the privileges allow (its memory locked; a refusal the probe
 * could not foresee is a warning and leaves mp->rt_ok false: a task the plan gave SCHED_FIFO
 * then reports the kernel's refusal as its pair's failure), -u's CPU 0 and --explain's tracer
 * (when BPF cannot trace here: one line saying why, and the schedstat floor; when neither
 * can be had, exit status 2 naming both reasons).  Returns 0, or the exit status (2: refused, with
 * one line on stderr; 1: -u failed). */
int mainproc_prepare(struct mainproc *mp, const struct options *o, void (*on_signal)(int));

/* Releases what mainproc_prepare holds: the --dma-latency limit, the --explain tracer. */
void mainproc_release(struct mainproc *mp);

/* Drops main to SCHED_OTHER (normal) for slow work between pairs (scratch files, writeback), so
 * its top SCHED_FIFO priority does not starve the machine meanwhile; back to SCHED_FIFO at
 * mp->prio_max when !normal.  Nothing to do unless mp->rt_ok; a failure is a warning. */
void mainproc_priority_normal(const struct mainproc *mp, bool normal);

/* Refuses a --cpus, --bench-cpus or --load-cpus of o naming a CPU this process may not run on
 * (not online, or outside its cpuset).  Returns 0, or 2 with one line printed on stderr. */
int mainproc_check_cpus(const struct options *o);

/* Refuses a CPU list of a side (each --bench-cpus or --load-cpus alternative, else --cpus) that
 * holds no CPU of a cpuset.cpus.effective of that side's cgroups (sets[0] the bench's, [1] the
 * loads'; host/cgplace.h): its processes could not be pinned there (sched_setaffinity(2):
 * EINVAL).  Returns 0, or 2 with one line printed. */
int mainproc_check_cgroup_cpus(const struct options *o, const struct cgplace_set sets[2]);

#endif
