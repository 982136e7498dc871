/* The --explain tracer's user side: loads explain/bpf/explain.bpf.c (a BPF CO-RE object, its
 * skeleton generated at build time) into the kernel, attaches its programs, and shares its
 * boards and figures (explain/abi.h) with the benchmark through mapped memory.  The maps
 * and links live as long as the process's file descriptors: a process that dies any way has
 * them released by the kernel (nothing is pinned), and a child forked after
 * explain_tracer_open shares the same memory (MAP_SHARED). */
#ifndef IB_EXPLAIN_TRACER_H
#define IB_EXPLAIN_TRACER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "explain/abi.h"

struct explain_tracer;

/* Loads and attaches the tracer.  Returns it, or NULL with why holding one line naming what
 * is missing or which call failed (no BTF at /sys/kernel/btf/vmlinux; bpf(2) refused:
 * "needs CAP_BPF and CAP_PERFMON, or root"; a tracepoint the kernel lacks).  libbpf's own
 * messages are kept quiet: the reason is the line. */
struct explain_tracer *explain_tracer_open(char *why, size_t whylen);

/* The CPU time the tracer's programs have run so far, ns (the kernel's BPF run-time
 * statistics, enabled while the tracer is open: BPF_ENABLE_STATS, include/uapi/linux/bpf.h),
 * or -1 when the kernel keeps none. */
int64_t explain_tracer_run_ns(struct explain_tracer *t);

/* Detaches and unloads the tracer (NULL: nothing). */
void explain_tracer_close(struct explain_tracer *t);

/* The boards (EXPLAIN_SLOTS) the benchmark writes and the figures (EXPLAIN_SLOTS) it reads,
 * in memory shared with the kernel. */
struct explain_board *explain_tracer_boards(struct explain_tracer *t);
volatile struct explain_acc *explain_tracer_accs(struct explain_tracer *t);

/* Whose the other tasks are (struct explain_board's process ids; 0: none). */
struct explain_owners {
	pid_t load_tgid, bench_tgid, main_tgid;
};

/* Tracks thread tid in slot (below EXPLAIN_SLOTS) from now, naming other tasks' owners by o
 * (NULL: every task another's); tid 0 frees the slot. */
void explain_track(struct explain_tracer *t, unsigned slot, pid_t tid, const struct explain_owners *o);

/* Slot's thread is in period seq (numbered from 1) from now: its figures start afresh at
 * the tracer's next event for it.  Called before the thread is woken for the period. */
void explain_arm(struct explain_tracer *t, unsigned slot, uint64_t seq);

/* Copies slot's figures into *out.  Returns whether they are period seq's: false when the
 * tracer saw no event of the thread in that period (it never slept nor waited; only
 * out->oncpu_since_ns, its open stretch on a CPU, then still holds).  Read by the thread
 * itself at the period's end: the events of its waits all came before it ran. */
bool explain_read(struct explain_tracer *t, unsigned slot, uint64_t seq, struct explain_acc *out);

#endif
