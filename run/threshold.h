/* --on-threshold LATENCY:ACTION: acting while a pair runs when one of its periods is late, as
 * rtla timerlat's --on-threshold and cyclictest's -b do.  The latency is the period's
 * scheduling latency, the sample the latency figures (p99, max) are taken from: the timing
 * thread awake -> the task running (with --wake timer the whole wake-up; a free-running task's
 * overrun), so a LATENCY set to a figure's value acts where that figure would exceed it.
 * Actions:
 *   stop                 end the run after this pair; what was measured is kept
 *   signal=SIG,pid=PID   kill(2) PID (a number above 1, or "parent": interbench's parent)
 *                        with SIG (a number, or a name: USR1, SIGUSR1)
 *   exec=CMD ARGS        run the user's command without a shell (split at blanks, as
 *                        --scheduler's), its facts in its environment (IB_LATENCY_US,
 *                        IB_LATENCY_NS, IB_THRESHOLD_US, IB_TASK, IB_LOAD, IB_PERIOD,
 *                        IB_REPEAT, IB_BENCH_PID), never text of the measurement in its
 *                        command line
 * Each rule acts once a pair (every time with --on-threshold-repeat), in the order given.
 *
 * Where it runs.  The bench process only posts the late period (engine/sim.h struct
 * sim_late_watch: a compare per period, and one non-blocking write to a pipe when it posts);
 * main, which watches the pair's window anyway (run/pair.c), wakes on the pipe and acts, in its
 * own thread, never the timing or task threads.  With --explain the late period's explanation
 * (its record from the tracer or the schedstat floor, made where the period ended) is written
 * on stderr before the action.  An exec action's command runs as main's child: its own process
 * group, SCHED_OTHER (main's SCHED_RESET_ON_FORK), stdin /dev/null, stdout and stderr onto
 * interbench's stderr, killed with interbench (PR_SET_PDEATHSIG); one command of a rule at a
 * time (a crossing while it runs is skipped and said); it is reaped as it ends, and one still
 * running after --on-threshold-timeout seconds gets SIGTERM, SIGKILL a second later.  The pair
 * ends only once its commands have (bounded so): none runs into the next pair.  Its CPU time
 * during the window counts as disturbance (host/disturb.h), as any other process's would.
 * Each action's outcome is kept in the pair's record (struct threshold_events) for the JSON. */
#ifndef IB_THRESHOLD_H
#define IB_THRESHOLD_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "engine/sim.h"
#include "lib/optspec.h"
#include "run/scheduler.h"

struct options;

#define THRESHOLD_TIMEOUT_S_DEFAULT 10u   /* --on-threshold-timeout's default */
#define THRESHOLD_KILL_GRACE_NS 1000000000ull /* SIGTERM -> SIGKILL of a command past its time */
#define THRESHOLD_EVENTS_MAX 8            /* actions a pair's record keeps */

/* What --on-threshold accepts, for messages. */
#define THRESHOLD_ACCEPTED "LATENCY:ACTION with LATENCY a time from 1 us to 10 s (500us, 2ms; no unit: us) and " \
	"ACTION stop, signal=SIG,pid=PID (PID above 1 or parent) or exec=CMD ARGS (a command run without a shell)"

enum threshold_kind { THRESHOLD_STOP, THRESHOLD_SIGNAL, THRESHOLD_EXEC };

/* One --on-threshold rule, and its command while it runs. */
struct threshold_rule {
	const char *text;                /* as given */
	uint64_t latency_ns;
	enum threshold_kind kind;
	int signo;                       /* THRESHOLD_SIGNAL */
	pid_t pid;                       /* THRESHOLD_SIGNAL: 0 for "parent" */
	char words[1024];                /* THRESHOLD_EXEC: the command split in place ... */
	char *argv[RUN_SCHEDULER_WORDS + 1]; /* ... into argv */
	bool fired;                      /* acted in this pair (once a pair without repeat) */
	pid_t child;                     /* its command running, or 0 */
	int child_errfd;                 /* the read end the child writes an exec failure to, or -1 */
	uint64_t deadline_ns;            /* when it is sent SIGTERM (then SIGKILL) */
	bool termed;                     /* SIGTERM sent */
	int event;                       /* its event in the pair's record, -1 none */
};

/* What an action did, in the pair's record (struct pair_outcome). */
struct threshold_event {
	uint32_t rule;                   /* the rule's index (the order given) */
	uint64_t latency_ns;             /* the late period's scheduling latency */
	uint64_t period;                 /* its number in the pair */
	uint64_t at_ns;                  /* its nominal start, from the pair's first period */
	bool ok;                         /* the action did what it says (a command: exit status 0) */
	char outcome[120];               /* "stopping the run after this pair", "SIGUSR1 sent to
	                                    1234", "exit status 0", "killed after 10 s",
	                                    "execvp(x): No such file or directory", "skipped: ..." */
};

/* A pair's actions. */
struct threshold_events {
	uint32_t n, dropped;             /* kept, and past THRESHOLD_EVENTS_MAX */
	struct threshold_event e[THRESHOLD_EVENTS_MAX];
};

/* The run's rules and the pair's state. */
struct threshold_run {
	unsigned n;
	struct threshold_rule r[OPTSPEC_TEXTS_MAX];
	bool repeat;                     /* --on-threshold-repeat */
	uint64_t timeout_ns;             /* --on-threshold-timeout */
	bool explain;                    /* --explain: write the late period's why first */
	struct sim_late_watch *watch;    /* shared with the bench process, or NULL (none given) */
	int notify[2];                   /* the pair's pipe, -1 outside a pair */
	bool stop;                       /* a stop action fired: the run ends after this pair */
	const char *task, *load;         /* the pair running */
	unsigned repeat_no;              /* its sub-run, 1-based */
	pid_t bench_pid;                 /* its bench process, 0 before it runs */
	struct threshold_events *events; /* its record's, or NULL */
};

/* Parses one --on-threshold text into r (text kept as the pointer).  Returns 0, or -1 with err
 * naming the option, the text, what is wrong and what is accepted. */
int threshold_parse(const char *text, struct threshold_rule *r, char *err, size_t errlen);

/* The options' check: every --on-threshold text parses.  Returns 0, or -1 with err set. */
int threshold_check_options(const struct options *o, char *err, size_t errlen);

/* Sets th up from o's rules (none: th->watch NULL, and every call below does nothing): the
 * watch mapped shared.  Returns 0, or -1 with errno set by mmap (said on stderr). */
int threshold_init(struct threshold_run *th, const struct options *o);

/* The smallest latency of the rules, ns; UINT64_MAX without rules. */
uint64_t threshold_least_ns(const struct threshold_run *th);

/* Before a pair's bench starts: its names for messages and commands, the record its actions
 * go to, the watch armed and the pipe made.  Returns the pipe's write end for the bench
 * process to keep (-1: none, or the pipe could not be made: said). */
int threshold_pair_begin(struct threshold_run *th, const char *task, const char *load, unsigned repeat_no,
			 struct threshold_events *events);

/* The pipe's read end main polls during the window, or -1. */
int threshold_poll_fd(const struct threshold_run *th);

/* Main, when the pipe is readable (or once after the window): takes the posted period and
 * fires every rule it is over (once a pair, or every time with repeat). */
void threshold_take(struct threshold_run *th);

/* At each of main's wake-ups: reaps the commands that ended and signals the ones past their
 * time. */
void threshold_poll(struct threshold_run *th, uint64_t now_ns);

/* After the pair: the watch disarmed, the pipe closed, every command waited for (at most its
 * time and the kill grace; at once killed when interrupted) and its outcome recorded. */
void threshold_pair_end(struct threshold_run *th, bool interrupted);

/* Whether a stop action fired: the run ends after the pair running. */
bool threshold_stopping(const struct threshold_run *th);

/* Unmaps the watch. */
void threshold_free(struct threshold_run *th);

#endif
