/* Why periods were late (--explain): each explained period's delay split into causes, and a
 * pair's summary of them.
 *
 * A period's delay is the time from its nominal start (the timing thread's intended wake-up)
 * to the task finishing its work, less the CPU time the task itself ran for it.  Its parts:
 *   carried    the period was due before the one before it finished (that one overran)
 *   timer      timer latency: the timing thread itself woke late
 *   wake       the timing thread awake -> the task enqueued (the wake path, IPI)
 *   tasks      other tasks ran on the task's CPU while it waited after its wake-up
 *   preempted  other tasks ran after preempting it
 *   hardirq    hard interrupts on its CPU while it waited
 *   softirq    softirqs on its CPU while it waited (by vector in softirq_ns)
 *   idle       its CPU was idle when it was woken: the exit from the idle state and the switch
 *   throttled  it waited throttled: its CFS group out of bandwidth (cpu.max), or, realtime,
 *              lower classes let run (RT throttling, sched_rt_runtime_us; the fair server)
 *   interrupted interrupts on its CPU while it ran
 *   stages     a chain's other threads at work (explain_add_stage): a task whose period is
 *              a chain of threads (the Pipeline's workers, its render thread) waits for them
 *              to do their part; their own waits are in the parts above
 *   runnable   (without the tracer) runnable but waiting, from /proc/<tid>/schedstat's
 *              run_delay: tasks, preempted, interrupts and idle together
 *   unexplained the rest: the scheduler's own work, what the tracer did not see
 * The tracer (explain/tracer.h) gives every part but runnable; the unprivileged floor gives
 * carried, timer, runnable and unexplained.
 *
 * Everything is plain data, so it travels in struct bench_record over a pipe (run/pair.h). */
#ifndef IB_EXPLAIN_MODEL_H
#define IB_EXPLAIN_MODEL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "explain/abi.h"

enum explain_part {
	EXPLAIN_CARRIED, EXPLAIN_TIMER, EXPLAIN_WAKE, EXPLAIN_TASKS, EXPLAIN_PREEMPTED, EXPLAIN_HARDIRQ,
	EXPLAIN_SOFTIRQ, EXPLAIN_IDLE, EXPLAIN_THROTTLED, EXPLAIN_INTERRUPTED, EXPLAIN_STAGES, EXPLAIN_RUNNABLE,
	EXPLAIN_UNEXPLAINED,
	EXPLAIN_PARTS
};

/* Where a period's facts come from. */
enum explain_source { EXPLAIN_NONE, EXPLAIN_BPF, EXPLAIN_SCHEDSTAT };

#define EXPLAIN_TOP 3            /* other tasks named per period */
#define EXPLAIN_PAIR_WHO 12      /* other tasks a pair's summary keeps (merged by pid) */
#define EXPLAIN_PAIR_IRQS 6      /* interrupt handlers a pair's summary keeps */
#define EXPLAIN_KEEP 32          /* explained periods a pair keeps: the latest ones */
#define EXPLAIN_MAX_STAGES EXPLAIN_SLOTS /* stages of a chain told apart (explain_add_stage): each
                                            takes a tracked thread at least */


/* Another task that took the CPU: its identity and what it took, ns. */
struct explain_culprit {
	uint32_t pid, tgid;
	uint32_t policy;             /* SCHED_* (sched(7)) */
	int32_t prio;                /* the kernel's prio (explain/abi.h) */
	uint32_t switches;
	uint8_t owner;               /* EXPLAIN_OWNER_* (explain/abi.h) */
	uint64_t ns;                 /* wait and preempted time behind it */
	char comm[EXPLAIN_COMM_LEN];
};

/* A hard-interrupt handler and its time, ns. */
struct explain_irq_time {
	int32_t irq;
	uint32_t count;
	uint64_t ns;
	char name[EXPLAIN_COMM_LEN];
};

/* One explained period. */
struct explain_period {
	uint64_t index;              /* the period's number in the pair */
	uint64_t start_ns;           /* its nominal start, from the pair's first period */
	uint64_t delay_ns;           /* nominal start -> finish, less ran_ns */
	uint64_t ran_ns;             /* the task's own time on a CPU (net of interrupts with the tracer) */
	uint64_t part_ns[EXPLAIN_PARTS];
	uint64_t softirq_ns[EXPLAIN_SOFTIRQS];
	uint64_t owner_ns[EXPLAIN_OWNERS]; /* tasks and preempted, by whose the tasks were */
	uint32_t migrations, preemptions;
	uint32_t first_cpu, last_cpu;
	bool missed;                 /* its deadline was missed (else: over --explain-threshold) */
	uint8_t source;              /* enum explain_source */
	uint8_t ntop;
	struct explain_culprit top[EXPLAIN_TOP]; /* by time, largest first */
	struct explain_irq_time irq; /* its largest hard-interrupt handler (count 0: none) */
	/* A chain's stages (explain_add_stage; stage 0 the period's own thread): each stage's
	 * thread's waits (tasks, preempted, interrupts, idle, throttled; stage 0 also wake), of
	 * them its waits for a CPU after a wake-up (gross: what wake-to-run latency measures,
	 * workloads/pipeline_chain.h), and its own time on a CPU, ns */
	uint64_t stage_wait_ns[EXPLAIN_MAX_STAGES], stage_woken_ns[EXPLAIN_MAX_STAGES], stage_ran_ns[EXPLAIN_MAX_STAGES];
};

/* A pair's explained periods. */
struct explain_summary {
	uint8_t source;              /* enum explain_source: what explains its periods (set when the
	                                task starts, so known with none explained) */
	uint64_t threshold_ns;       /* periods later than this were explained too (0: only those
	                                that missed their deadline; --explain-threshold) */
	uint64_t periods;            /* periods explained */
	uint64_t delay_ns;           /* their delay, summed */
	uint64_t part_ns[EXPLAIN_PARTS];
	uint64_t softirq_ns[EXPLAIN_SOFTIRQS];
	uint64_t owner_ns[EXPLAIN_OWNERS]; /* tasks and preempted, by whose the tasks were */
	uint64_t migrations, preemptions;
	uint64_t within_10pct;       /* periods whose named parts (all but unexplained) come within
	                                10 % of their delay */
	uint32_t nwho, nirq;
	uint64_t who_rest_ns;        /* behind tasks the table had no room for */
	int64_t tracer_run_ns;       /* the tracer's own CPU time over the pair's window (every
	                                CPU, every traced event), -1 unknown (set by run/pair.c) */
	struct explain_culprit who[EXPLAIN_PAIR_WHO]; /* merged by pid, largest first once sorted */
	struct explain_irq_time irqs[EXPLAIN_PAIR_IRQS];
	/* A chain's stages (0: the task is one thread, or one is followed): their names
	 * ("game", "workers", "render") and their periods' stage figures, summed */
	uint8_t nstages;
	char stage_name[EXPLAIN_MAX_STAGES][EXPLAIN_COMM_LEN];
	uint64_t stage_wait_ns[EXPLAIN_MAX_STAGES], stage_woken_ns[EXPLAIN_MAX_STAGES], stage_ran_ns[EXPLAIN_MAX_STAGES];
};

/* A pair's latest explained periods, for the JSON (a ring). */
struct explain_kept {
	uint32_t n;                  /* periods held, at most EXPLAIN_KEEP */
	uint64_t next;               /* the ring's next write */
	struct explain_period periods[EXPLAIN_KEEP];
};

/* What the benchmark knew of a period, from user space, ns (CLOCK_MONOTONIC). */
struct explain_facts {
	uint64_t index;
	uint64_t start_ns;           /* nominal start, from the pair's first period */
	uint64_t due_ns;             /* the nominal start (absolute) */
	uint64_t timer_ns;           /* when the timing thread woke for it */
	uint64_t timer_late_ns;      /* its timer latency (0 when it was already due: carried) */
	uint64_t finish_ns;          /* when its work was done */
	bool missed;
};

/* /proc/<tid>/schedstat's three numbers (Documentation/scheduler/sched-stats.rst): time on
 * the CPU, time waiting on a runqueue (both ns), timeslices run. */
struct explain_schedstat {
	uint64_t run_ns, wait_ns, slices;
};

/* What --explain-threshold accepts, for messages. */
#define EXPLAIN_THRESHOLD_ACCEPTED "a time from 1 us to 10 s: a plain decimal (2, 1.5) with a unit ns, us, ms, s, m, h or d (no unit: us)"

/* Parses a time as --explain-threshold takes it ("500us", "2ms", "1.5ms", "300": us) into
 * *ns.  Returns 0, or -1 when malformed or outside 1 us .. 10 s. */
int explain_parse_threshold(const char *arg, uint64_t *ns);

/* Parses the text of /proc/<tid>/schedstat into *s.  Returns 0, or -1 when malformed. */
int explain_parse_schedstat(const char *text, struct explain_schedstat *s);

/* Composes the period f from the tracer's figures a (for f's period: the caller checked its
 * seq).  The delay is finish - due less the task's time on a CPU (a->oncpu_ns, plus the open
 * stretch to finish, less interrupts while it ran); each part as the header says; the tasks
 * behind the waits named with the owner the tracer gave them, and their time summed by owner
 * (owner_ns: the named ones and the rest of a->rest_ns).  Writes *p. */
void explain_from_bpf(const struct explain_facts *f, const struct explain_acc *a, struct explain_period *p);

/* Adds to p (composed by explain_from_bpf for the period f) stage number `stage` (1 up, below
 * EXPLAIN_MAX_STAGES; ignored otherwise) of its chain, whose thread's figures for the period are a:
 * that thread's waits to p's parts, owners, culprits and interrupts, as explain_from_bpf
 * counts the period's own thread's, and its time on a CPU (net of interrupts) to the part
 * stages; both to p's stage figures [stage].  Unexplained is what the delay has
 * beyond the parts then (0 when stages side by side add up to more). */
void explain_add_stage(struct explain_period *p, const struct explain_facts *f, const struct explain_acc *a,
		       unsigned stage);

/* Composes the period f from schedstat deltas over it (run_ns and wait_ns since the end of
 * the period before): ran = run_ns and runnable = wait_ns, each bounded by the stretch from
 * the period's release (the later of due_ns and timer_ns) to finish_ns, since the deltas also
 * hold what ran and waited before it.  Writes *p. */
void explain_from_schedstat(const struct explain_facts *f, const struct explain_schedstat *delta,
			    struct explain_period *p);

/* Adds p to s: the sums and the merged tables (who by pid, irqs by number; what does not fit
 * goes to who_rest_ns or is dropped from the handler table); and to the ring k (NULL: not). */
void explain_summary_add(struct explain_summary *s, struct explain_kept *k, const struct explain_period *p);

/* Sorts s's tables by time, largest first (once, before output); counts past the tables
 * (nwho over EXPLAIN_PAIR_WHO, nirq over EXPLAIN_PAIR_IRQS: a record from a faulty child) are
 * clamped to them first. */
void explain_summary_sort(struct explain_summary *s);

/* The i-th of k's periods, oldest first (i below k->n). */
const struct explain_period *explain_kept_at(const struct explain_kept *k, unsigned i);

/* The part's name as the outputs print it ("tasks", "softirq", ...), and one line saying what
 * it is. */
const char *explain_part_name(enum explain_part part);
const char *explain_part_help(enum explain_part part);

/* The softirq vector's name (include/linux/interrupt.h: "HI", "TIMER", "NET_TX", "NET_RX",
 * "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU"), "?" past them. */
const char *explain_softirq_name(unsigned vec);

/* The source's name: "bpf", "schedstat", "none". */
const char *explain_source_name(enum explain_source src);

/* A culprit's scheduling as text: "SCHED_OTHER nice 0", "SCHED_FIFO 50", ... into buf. */
const char *explain_sched_text(const struct explain_culprit *c, char *buf, size_t len);

#endif
