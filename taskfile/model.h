/* A task of the user's making, as a task file describes it (doc/task-file.md): threads, each a
 * program of steps (burn CPU, sleep, wait on a timer, wake or wait for another thread, take a
 * mutex, wait on a condition, meet at a barrier) run in a loop, and the named resources the
 * steps share.  Both file formats compile to this one model: interbench's own (a graph of
 * threads per period: taskfile/native.c) and rt-app's JSON (its events, read as rt-app's
 * doc/tutorial.txt describes them: taskfile/rtapp.c).  workloads/file.c runs it in the
 * periodic engine (engine/sim.h); nothing here runs anything.
 *
 * The period: one thread (root) owns the task's period.  Its TF_PERIOD step opens each period
 * (the engine's timing thread, or its own timer with --wake timer, wakes it at the period's
 * start: the latency figures are taken there), and TF_CLOSE steps close it: the period is
 * complete when every closing thread of it has reached its TF_CLOSE (a chain's sinks; rt-app's
 * timer thread itself, at the end of its loop), and met when that happened by its deadline.
 *
 * Layer: on lib/ only. */
#ifndef IB_TASKFILE_MODEL_H
#define IB_TASKFILE_MODEL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/schedpolicy.h"

#define TF_MAX_THREADS   32        /* threads of a task (engine/sim.h SIM_MAX_THREADS) */
#define TF_MAX_STEPS     4096      /* steps of all threads together */
#define TF_MAX_PHASES    1024      /* phases of all threads together */
#define TF_MAX_RESOURCES 64        /* named timers, events, mutexes, conditions, barriers */
#define TF_NAME_MAX      16        /* a thread's name: 15 characters and the NUL (TASK_COMM_LEN) */
#define TF_RES_NAME_MAX  32        /* a resource's name: 31 characters and the NUL */
#define TF_FILE_MAX_BYTES (1u << 20) /* the largest task file read, bytes */
#define TF_DEPTH_MAX     32        /* the deepest nesting of JSON objects and arrays read */
#define TF_TIME_MAX_US   10000000ull /* the longest time a step or a period may give: 10 s */
#define TF_PERIOD_MIN_US 100ull    /* the shortest period (Custom's -I) */
#define TF_PERIODLESS_US 10000ull  /* a periodless task's nominal period (tf_task.periodless) */
/* The highest SCHED_FIFO/RR priority a thread may ask: below interbench's timing thread (98 as
 * root) and main process (99), which must preempt the task's threads to wake and stop them
 * (threads busy at 99 on every CPU would starve both for good: RT throttling's share goes to
 * SCHED_OTHER only).  run/privs.c bounds --rt-priority alike, the highest allowed less 2. */
#define TF_RT_PRIO_MAX   97
#define TF_RT_PRIO_RANGE "1..97"   /* 1..TF_RT_PRIO_MAX, for the messages */
#define TF_RT_PRIO_WHY   "98 and 99 are interbench's timing thread's and main's, which must preempt the task's threads"


/* What a step does.  Times are microseconds. */
enum tf_op {
	TF_PERIOD,    /* root only: waits for the next period's start (the first: period 0) and
	                 opens it; waits first for the period before to be closed */
	TF_CLOSE,     /* this thread's part of the open period is done (the period closes when its
	                 last closing thread reaches it) */
	TF_RUN,       /* burns us (to us_max: uniform in [us, us_max]) of CPU by the thread's own
	                 clock (the task's work_as_loops: calibrated loops) */
	TF_RUNTIME,   /* burns CPU until us of wall-clock time has passed (rt-app's "runtime") */
	TF_SLEEP,     /* sleeps us (rt-app's "sleep") */
	TF_TIMER,     /* sleeps to the next tick of timer res (ticks every res's period_us from the
	                 task's start); the tick -> running is the thread's wake-up latency */
	TF_WAKE,      /* a counting wake-up of thread `thread` (none is lost: the edges of
	                 interbench's format) */
	TF_JOIN,      /* waits for `count` counting wake-ups (a join of count predecessors); the
	                 last waker's call -> running is the thread's wake-up latency */
	TF_RESUME,    /* wakes every thread suspended on event res now; lost when none is
	                 (rt-app's "resume") */
	TF_SUSPEND,   /* waits for the next resume of event res (rt-app's "suspend"); the resume ->
	                 running is the thread's wake-up latency */
	TF_LOCK,      /* takes mutex res */
	TF_UNLOCK,    /* releases mutex res */
	TF_SIGNAL,    /* wakes one waiter on condition res (lost when none) */
	TF_BROADCAST, /* wakes every waiter on condition res */
	TF_WAIT,      /* releases mutex res2, waits on condition res, takes res2 again (it must
	                 hold res2); the signal -> running is the thread's wake-up latency */
	TF_SYNC,      /* signals condition res and waits on it, as TF_WAIT, in one step */
	TF_BARRIER,   /* waits until every thread that meets at barrier res has reached it */
	TF_OPS
};

/* One step of a thread's program. */
struct tf_step {
	enum tf_op op;
	uint16_t res, res2;     /* resource indexes (TF_TIMER..TF_BARRIER; TF_WAIT/TF_SYNC's res2:
	                           the mutex) */
	uint16_t thread;        /* TF_WAKE: the thread woken */
	uint32_t count;         /* TF_JOIN: wake-ups waited for, 1 or more */
	uint64_t us, us_max;    /* TF_RUN (us_max > us: uniform in [us, us_max]; else fixed),
	                           TF_RUNTIME, TF_SLEEP */
	uint32_t line;          /* the line of the file it came from (messages), 0: none */
};

/* Steps [first, first + n) run `loops` times (-1: for ever) in a row. */
struct tf_phase {
	uint32_t first, n;
	int64_t loops;
};

enum tf_res_kind { TF_RES_TIMER, TF_RES_EVENT, TF_RES_MUTEX, TF_RES_COND, TF_RES_BARRIER };

/* A resource the steps share, by name. */
struct tf_resource {
	char name[TF_RES_NAME_MAX];
	enum tf_res_kind kind;
	uint64_t period_us;     /* TF_RES_TIMER: its tick */
	unsigned parties;       /* TF_RES_BARRIER: the threads that meet at it */
};

/* One thread: its phases [first_phase, first_phase + n_phases), all of them run `loops` times
 * (-1: for ever; a thread whose loops end idles until the run stops), after `delay_us`; the
 * first once_phases of them run once only, before the others' loops start (rt-app's root: a
 * phase [TF_PERIOD] that opens period 0, its timers then being [TF_CLOSE, TF_PERIOD]). */
struct tf_thread {
	char name[TF_NAME_MAX];
	uint32_t first_phase, n_phases;
	uint32_t once_phases;   /* 0 but for rt-app's root (1) */
	int64_t loops;
	uint64_t delay_us;
	/* Its scheduling: has_sched false: the run's (-r, --policy, --nice); else sched (kind,
	 * nice, rt_prio, dl_*, slice_ns). */
	bool has_sched;
	struct sched_setting sched;
	/* Its CPUs: cpus.given false: the bench process's; else those set in cpus. */
	struct optspec_cpus cpus;
};

/* Where the model came from. */
enum tf_format { TF_FORMAT_INTERBENCH, TF_FORMAT_RTAPP };

/* A task: everything a task file gives. */
struct tf_task {
	enum tf_format format;
	char name[TF_NAME_MAX];       /* the task's name in tables ("File" when the file names none;
	                                 interbench's format: "name") */
	uint64_t period_us;           /* the root's period */
	uint64_t deadline_us;         /* a period is met when closed within it of its start (<=
	                                 period_us) */
	unsigned root;                /* the thread whose TF_PERIOD steps open the periods */
	/* rt-app's file without a timer: no thread opens periods (root 0, no TF_PERIOD step;
	 * period_us and deadline_us TF_PERIODLESS_US, nominal, for the engine's timing thread).
	 * Without a period there are no task figures: it runs as a load only (workloads/file.c). */
	bool periodless;
	unsigned closers;             /* threads with a TF_CLOSE step (each closes every period) */
	bool work_as_loops;           /* TF_RUN burns calibrated loops (engine/sim.h fixed_work) */
	bool frames;                  /* its periods are frames a user watches (a game's, a video's):
	                                 --frame-log writes them (engine/sim.h logs_frames) */
	uint64_t work_per_period_us;  /* the mean CPU the period's chain asks per period (the sum of
	                                 the runs between a TF_PERIOD and the TF_CLOSEs, over the
	                                 root's cycle), for the CPU figures */
	unsigned n_threads, n_steps, n_phases, n_resources;
	struct tf_thread threads[TF_MAX_THREADS];
	struct tf_phase phases[TF_MAX_PHASES];
	struct tf_step steps[TF_MAX_STEPS];
	struct tf_resource res[TF_MAX_RESOURCES];
};

/* The name of op ("run", "timer", ...), "?" past the last. */
const char *tf_op_name(enum tf_op op);

/* What the wake-ups of thread th of task are called, after its first waiting step: "timer"
 * (TF_PERIOD, TF_TIMER), "join", "resume" (TF_SUSPEND), "signal" (TF_WAIT, TF_SYNC),
 * "barrier"; "" when it has none. */
const char *tf_wakes_on(const struct tf_task *task, const struct tf_thread *th);

/* Reads the task file at path (at most TF_FILE_MAX_BYTES, a regular file, lib/safefile.h: a
 * FIFO or a directory is refused at once), tells its format apart (interbench's has
 * "interbench_task", rt-app's "tasks") and compiles it into *task (zeroed first; zeroed again on
 * failure).  Returns 0, or -1 with one printable line in err naming the file, the line, the JSON
 * path and what is accepted: "t.json:12: threads[2].work: \"fast\" (accepted: a time, 0us..10s
 * (an integer of microseconds, or a string with a unit: \"2.5ms\"), or {\"uniform\": [MIN,
 * MAX]})"; a file that cannot be read: "PATH: open: No such file or directory".  Nothing is run.
 * The JSON is read by taskfile/jsontree.h (a key given twice kept in order); interbench's format
 * by taskfile/native.c, rt-app's by taskfile/rtapp.c, whose comments say what each compiles to. */
int tf_load(const char *path, struct tf_task *task, char *err, size_t errlen);

/* The same from the text buf of len bytes (any bytes, NUL-terminated or not), named `name` in
 * messages. */
int tf_parse(const char *name, const char *buf, size_t len, struct tf_task *task, char *err, size_t errlen);

/* The task as canonical JSON text in interbench's terms (the model, whatever the format read;
 * keys sorted, no spaces), for the result (a run records it; compare refuses two results whose
 * tasks differ).  Threads and resources are objects keyed by name, so neither the file's order
 * of them (but for the order a thread wakes its followers in, which is the file's) nor its
 * format, lines or spelling of times changes the text (taskfile/canon.c).
 * Returns a malloc'd string, or NULL on ENOMEM. */
char *tf_canonical_json(const struct tf_task *task);

#endif
