/* The order in which the kernel's OOM killer picks interbench's processes, and whether it
 * struck.  Out of memory (a full machine, a small memory cgroup) the load processes go first,
 * then the bench process, and the main process, which holds every result, last or never, so a
 * run short of memory ends with a failed pair and a reason instead of no row at all.
 *
 * Source: the kernel's Documentation/filesystems/proc.rst, "/proc/<pid>/oom_score_adj":
 * a value from -1000 (never killed) to +1000 (killed first) added to the badness score;
 * inherited by children; raising it is always allowed, lowering it below the lowest value a
 * privileged process set needs CAP_SYS_RESOURCE (fs/proc/base.c __set_oom_adj: EACCES).
 * The count of OOM kills: /proc/vmstat oom_kill (mm/oom_kill.c, every kill, a memory
 * cgroup's included; Linux 4.13 and later). */
#ifndef IB_OOM_H
#define IB_OOM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The main process: chosen last, when allowed.  Not -1000 (never chosen): a memory cgroup
 * holding nothing else would then have no victim, and main's page fault would be retried for
 * ever (mm/oom_kill.c, "no killable processes"; mm/memcontrol.c); at -999 it is the last one
 * standing instead of a hang. */
#define OOM_ADJ_MAIN (-999)
#define OOM_ADJ_LOAD 1000     /* a load process: chosen first */

/* In the main process, once at start: lowers its oom_score_adj to OOM_ADJ_MAIN (a value
 * already lower is kept) and remembers the value it ends up with, for oom_adj_bench.
 * Returns 0, or -1 with errno set and err naming the failed call: EACCES or EPERM without
 * CAP_SYS_RESOURCE (the value is then left as it was, and remembered), ENOENT without /proc,
 * or the error of open/read/write. */
int oom_adj_protect_main(char *err, size_t len);

/* A bench process's oom_score_adj: halfway between main's and OOM_ADJ_LOAD, so above main and
 * below the loads whether or not main could lower its own (0 when main has -999, 500 when
 * main kept the default 0): raising is always allowed. */
int oom_adj_bench(void);

/* In a child process, first thing: a load process raises its oom_score_adj to OOM_ADJ_LOAD, a
 * bench process to oom_adj_bench().  Best effort: a failure leaves the inherited value, and is
 * returned as -1 with errno. */
int oom_adj_child(bool load);

/* The OOM kills the kernel has made since boot (/proc/vmstat oom_kill), or UINT64_MAX when it
 * cannot be read (no /proc, a kernel before 4.13). */
uint64_t oom_kill_count(void);

#endif
