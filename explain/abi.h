/* What the --explain tracer (explain/bpf/explain.bpf.c) and the benchmark share, defined once for
 * both: the BPF program's global variables, which libbpf maps into the benchmark's memory
 * (a BPF_F_MMAPABLE array: struct explain_bpf_bss in explain/bpf/explain.skel.h, generated).
 *
 * The benchmark writes each tracked thread's board (its thread id and the period it is in);
 * the tracer accounts, in the kernel, where that thread's time went while it was woken but not
 * running, or preempted, into the thread's explain_acc; the thread reads its explain_acc when
 * the period ends (explain/model.h).  Every time is CLOCK_MONOTONIC (bpf_ktime_get_ns), ns.
 *
 * Included by C for the kernel (clang -target bpf, with explain/bpf/kernel_types.h) and for user
 * space: fixed-width fields only. */
#ifndef IB_EXPLAIN_ABI_H
#define IB_EXPLAIN_ABI_H
#ifndef __bpf__
#include <linux/types.h>
#endif

#define EXPLAIN_SLOTS 8          /* threads tracked at once (the benchmarked task's: a chain's
                                    stages, explain/model.h) */
#define EXPLAIN_MAX_CPUS 1024    /* CPUs the tracer keeps state for; others are not traced */
#define EXPLAIN_WHO_MAX 8        /* other tasks named per period; the rest add to who_rest_ns */
#define EXPLAIN_IRQ_MAX 4        /* hard-interrupt handlers named per period */
#define EXPLAIN_SOFTIRQS 10      /* softirq vectors (include/linux/interrupt.h NR_SOFTIRQS) */
#define EXPLAIN_COMM_LEN 16      /* TASK_COMM_LEN (include/linux/sched.h) */
#define EXPLAIN_ANCESTORS 4      /* generations above a task searched for the load process */

/* Whose another task is, decided by the tracer (one rule, in the kernel): the benchmark's own
 * processes, the load's (its process, its threads and descendants), or anyone else's. */
#define EXPLAIN_OWNER_OTHER 0
#define EXPLAIN_OWNER_LOAD 1
#define EXPLAIN_OWNER_BENCH 2
#define EXPLAIN_OWNERS 3

/* A tracked thread, written by the benchmark: tid 0 leaves the slot free; the process ids
 * are written before tid.  All ids are as the benchmark sees them (gettid(), getpid() in its
 * pid namespace); the tracer matches the kernel's tasks by their ids there. */
struct explain_board {
	__u32 tid;
	__u32 load_tgid;         /* the load process (0: none): it and every task up to
	                            EXPLAIN_ANCESTORS generations below it are the load's */
	__u64 seq;               /* the period the thread is in now (numbered from 1) */
	__u32 bench_tgid;        /* the benchmark's process (the thread's own) */
	__u32 main_tgid;         /* the process that runs the benchmark and the load */
};

/* What ran on the thread's CPU while the thread waited for it. */
struct explain_who {
	__u32 pid, tgid;
	__u32 owner;             /* EXPLAIN_OWNER_* */
	__u32 policy;            /* SCHED_OTHER 0, FIFO 1, RR 2, BATCH 3, IDLE 5, DEADLINE 6 */
	__s32 prio;              /* the kernel's prio: 0-99 realtime (99 - rt priority), 100-139
	                            nice -20..19 */
	__u32 switches;          /* how often it was switched in while the thread waited */
	__u64 wait_ns;           /* the thread's wait for a CPU after its wake-up, while this ran */
	__u64 preempt_ns;        /* the thread's wait after it was preempted, while this ran */
	char comm[EXPLAIN_COMM_LEN];
};

/* A hard interrupt's handler that ran on the thread's CPU while the thread waited or ran. */
struct explain_irq {
	__s32 irq;
	__u32 count;
	__u64 ns;
	char name[EXPLAIN_COMM_LEN];
};

/* One period of a tracked thread, accounted by the tracer; reset when the board's seq moves.
 * The waits are net: interrupt time inside them is in hardirq_ns / softirq_ns, not in who[]. */
struct explain_acc {
	__u64 seq;               /* the board's seq these figures are for (0: none yet) */
	__u64 waking_ns;         /* first wake request of the thread in the period (sched_waking) */
	__u64 wakeup_ns;         /* its enqueue (sched_wakeup) */
	__u64 first_run_ns;      /* when it first ran after that wake-up */
	__u64 oncpu_ns;          /* time on a CPU, closed stretches (interrupts included) */
	__u64 oncpu_since_ns;    /* start of the open stretch when running (0: not running; kept
	                            across periods: a thread that never slept is still running) */
	__u64 run_irq_ns;        /* interrupts (hard and soft) on its CPU while it ran */
	__u64 wait_ns;           /* runnable, not running, after the wake-up: gross */
	__u64 preempt_ns;        /* runnable, not running, after a preemption: gross */
	__u64 idle_ns;           /* of the waits: the CPU it was queued on was idle (exit from an
	                            idle state and the switch to the thread) */
	__u64 idle_exit_ns;      /* of idle_ns: until the CPU left its idle state (cpu_idle) */
	__u64 rest_ns[EXPLAIN_OWNERS]; /* waits behind tasks not in who[] (the table was full),
	                            by owner */
	__u64 throttled_ns;      /* of the waits: throttled, not behind a task of its own or a
	                            higher class: its CFS group out of bandwidth (cpu.max), or,
	                            for a realtime thread, lower classes switched in while it was
	                            queued (RT throttling, sched_rt_runtime_us, or the fair
	                            server, kernel/sched/deadline.c) */
	__u64 hardirq_ns;        /* hard interrupts on its CPU while it waited */
	__u64 softirq_ns[EXPLAIN_SOFTIRQS]; /* softirqs on its CPU while it waited, by vector */
	__u32 migrations;        /* moves to another CPU while it waited */
	__u32 first_cpu, last_cpu; /* where its first wait began and its last one ended */
	__u32 preemptions;       /* switched out while still runnable */
	__u32 who_n, irq_n;
	struct explain_who who[EXPLAIN_WHO_MAX];
	struct explain_irq irqs[EXPLAIN_IRQ_MAX];
};

#endif
