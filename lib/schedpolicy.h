/* Scheduling policies as the command line names them (other, batch, idle, fifo, rr,
 * deadline), and applying one, with its nice level, realtime priority or SCHED_DEADLINE
 * reservation, to a thread through the sched_setattr system call (sched_setattr(2); glibc has
 * no wrapper before 2.41, so it is called through syscall(2) with the kernel's struct
 * sched_attr layout, include/uapi/linux/sched/types.h). */
#ifndef IB_SCHEDPOLICY_H
#define IB_SCHEDPOLICY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "lib/optspec.h"

enum sched_kind { SP_OTHER, SP_BATCH, SP_IDLE, SP_FIFO, SP_RR, SP_DEADLINE, SP_KINDS };

/* --scheduler's word for the kernel's own fair class (EEVDF, CFS before 6.6), as opposed to
 * a sched_ext scheduler's command. */
#define SCHED_FAIR_CLASS "fair"

/* How a thread is scheduled. */
struct sched_setting {
	enum sched_kind kind;
	int nice;                 /* SP_OTHER, SP_BATCH: -20..19; ignored otherwise */
	int rt_prio;              /* SP_FIFO, SP_RR: 1..99; ignored otherwise */
	uint64_t dl_runtime_ns;   /* SP_DEADLINE: CPU budget per period (<= dl_deadline_ns) */
	uint64_t dl_deadline_ns;  /* SP_DEADLINE: relative deadline (<= dl_period_ns) */
	uint64_t dl_period_ns;    /* SP_DEADLINE: period */
	uint64_t slice_ns;        /* SP_OTHER, SP_BATCH: the EEVDF slice asked for (sched_attr's
	                             sched_runtime, kernel/sched/syscalls.c, Linux 6.12 and later,
	                             which clamps it to 0.1-100 ms); 0: the kernel's default */
	uint64_t slice_kept_ns;   /* what the kernel kept of it (sched_slice_probe); 0 unknown */
	/* A benchmarked task woken by its own timer (--wake timer, engine/sim.h SIM_WAKE_TIMER), not
	 * by the timing thread: not a policy the kernel is told, but a setting of how the task runs
	 * that a sweep varies and a result is labelled with (" timer-woken"); false on the load
	 * side. */
	bool own_timer;
	/* Where and how wide a side runs when a sweep varies it (--bench-cpus/--load-cpus given
	 * '/'-separated alternatives, -L given several values): settings the kernel is told through
	 * sched_setaffinity(2) and the load's thread count rather than sched_setattr, labelled like
	 * the others (" CPUs 1", " 4 threads").  NULL and 0 when the side is not swept over them: the
	 * run's own --cpus, --bench-cpus, --load-cpus, -u and -L then apply, and no label names them. */
	const struct optspec_cpus *cpus; /* the CPUs of the side's process, or NULL */
	unsigned threads;                /* load side: the loads' worker threads (-L), or 0 */
	/* Bench side: the scheduling class every task runs in, when --scheduler names one: a
	 * sched_ext scheduler's command, or "fair" for the kernel's own class (labelled "sched_ext
	 * CMD", "fair"); NULL: the machine's, as it is. */
	const char *scheduler;
	/* The cgroup the side's processes run in, when --bench-cgroup or --load-cgroup gives
	 * alternatives: the path as given (labelled "cgroup PATH") and its index among the
	 * option's; NULL and 0 when the side is not swept over cgroups (the one given, or none,
	 * then applies to every pair). */
	const char *cgroup;
	unsigned cgroup_index;
};

/* The command-line name of kind ("other", "batch", "idle", "fifo", "rr", "deadline"); NULL
 * past the last (an optspec name_at callback, lib/optspec.h). */
const char *sched_kind_name(unsigned kind);

/* Whether kind is a realtime policy (fifo, rr, deadline): it needs privilege, and can starve
 * the machine without RT throttling. */
bool sched_kind_realtime(enum sched_kind kind);

/* Whether the nice level applies to kind (other, batch). */
bool sched_kind_has_nice(enum sched_kind kind);

/* Whether s is what every thread starts with: SCHED_OTHER, nice 0, the default slice
 * (whatever its wake-up, own_timer, which sched_setattr is not told, and its placement and
 * threads). */
bool sched_setting_is_default(const struct sched_setting *s);

/* Applies s to thread tid (0: the calling thread) with sched_setattr.  Returns 0, or -1 with
 * errno set and err naming the call and the kernel's reason ("sched_setattr(SCHED_DEADLINE
 * runtime 7.3 ms, period 16.7 ms): Device or resource busy"). */
int sched_setting_apply(pid_t tid, const struct sched_setting *s, char *err, size_t errlen);

/* Pins the calling thread to the CPUs of cpus with sched_setaffinity(2); cpus NULL or not
 * given leaves it where it may run.  Returns 0, or -1 with errno set and err naming the call,
 * the list and the kernel's reason ("sched_setaffinity(2-3): Invalid argument"). */
int sched_pin_cpus(const struct optspec_cpus *cpus, char *err, size_t errlen);

/* Reads thread tid's policy back (sched_getattr) into s (kind, nice, rt_prio and the deadline
 * parameters; for other and batch, sched_runtime as slice_ns: the slice in force when one was
 * set, 0 on kernels that keep none).  Returns 0, or -1 with errno set. */
int sched_setting_get(pid_t tid, struct sched_setting *s);

/* What this kernel keeps of a SCHED_OTHER slice of slice_ns: sets it on a short-lived thread
 * of its own and reads it back.  Returns 0 with *kept_ns (clamped by the kernel), or -1 with
 * err saying why: the call's error, or "kept no slice" where the kernel ignores sched_runtime
 * for fair tasks (before Linux 6.12). */
int sched_slice_probe(uint64_t slice_ns, uint64_t *kept_ns, char *err, size_t errlen);

/* The table words for s, as interbench 0.31 wrote a mode after a name: "" (other, nice 0),
 * "nice 5", "real time" (fifo), "SCHED_RR", "SCHED_DEADLINE", "SCHED_BATCH nice 5",
 * "SCHED_IDLE"; a slice asked for follows: "slice 3000us", "nice 5 slice 100us", then the wake-up,
 * the placement and the threads of a sweep over them: "timer-woken", "CPUs 1", "4 threads", and the
 * scheduler: "fair", "sched_ext scx_simple -f".
 * Returns buf. */
const char *sched_setting_words(const struct sched_setting *s, char *buf, size_t len);

/* A short label naming s whole, for the sweep summary: "nice 5", "batch nice 0", "idle",
 * "fifo 97", "rr 97", "deadline", "nice 0 slice 100us", "nice 0 CPUs 1", "nice 0 4 threads".
 * Returns buf. */
const char *sched_setting_label(const struct sched_setting *s, char *buf, size_t len);

#endif
