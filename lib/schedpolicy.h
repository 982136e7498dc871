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

enum sched_kind { SP_OTHER, SP_BATCH, SP_IDLE, SP_FIFO, SP_RR, SP_DEADLINE, SP_KINDS };

/* How a thread is scheduled. */
struct sched_setting {
	enum sched_kind kind;
	int nice;                 /* SP_OTHER, SP_BATCH: -20..19; ignored otherwise */
	int rt_prio;              /* SP_FIFO, SP_RR: 1..99; ignored otherwise */
	uint64_t dl_runtime_ns;   /* SP_DEADLINE: CPU budget per period (<= dl_deadline_ns) */
	uint64_t dl_deadline_ns;  /* SP_DEADLINE: relative deadline (<= dl_period_ns) */
	uint64_t dl_period_ns;    /* SP_DEADLINE: period */
};

/* The command-line name of kind ("other", "batch", "idle", "fifo", "rr", "deadline"); NULL
 * past the last (an optspec name_at callback, lib/optspec.h). */
const char *sched_kind_name(unsigned kind);

/* Whether kind is a realtime policy (fifo, rr, deadline): it needs privilege, and can starve
 * the machine without RT throttling. */
bool sched_kind_realtime(enum sched_kind kind);

/* Whether the nice level applies to kind (other, batch). */
bool sched_kind_has_nice(enum sched_kind kind);

/* Applies s to thread tid (0: the calling thread) with sched_setattr.  Returns 0, or -1 with
 * errno set and err naming the call and the kernel's reason ("sched_setattr(SCHED_DEADLINE
 * runtime 7.3 ms, period 16.7 ms): Device or resource busy"). */
int sched_setting_apply(pid_t tid, const struct sched_setting *s, char *err, size_t errlen);

/* Reads thread tid's policy back (sched_getattr) into s (kind, nice, rt_prio and the deadline
 * parameters).  Returns 0, or -1 with errno set. */
int sched_setting_get(pid_t tid, struct sched_setting *s);

/* The table words for s, as interbench 0.31 wrote a mode after a name: "" (other, nice 0),
 * "nice 5", "real time" (fifo), "SCHED_RR", "SCHED_DEADLINE", "SCHED_BATCH nice 5",
 * "SCHED_IDLE".  Returns buf. */
const char *sched_setting_words(const struct sched_setting *s, char *buf, size_t len);

/* A short label naming s whole, for the sweep summary: "nice 5", "batch nice 0", "idle",
 * "fifo 97", "rr 97", "deadline".  Returns buf. */
const char *sched_setting_label(const struct sched_setting *s, char *buf, size_t len);

#endif
