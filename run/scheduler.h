/* The sched_ext schedulers of a run (--scheduler): each a command, or "fair" for the kernel's
 * own class (SCHED_FAIR_CLASS), switched between pairs so that each pair runs under its
 * setting's (sched_setting.scheduler; host/scx.h starts, checks and stops one).  One runs at a
 * time, and only one this run started: a scheduler already loaded when the run starts is the
 * user's and refused (run_scheduler_preflight), never replaced.  A scheduler that fails to
 * start fails every pair at it with the reason, once measured; one lost during a pair (ejected
 * by the kernel, its process gone) fails that pair, and the machine is back on the fair class
 * before the next pair starts. */
#ifndef IB_RUN_SCHEDULER_H
#define IB_RUN_SCHEDULER_H
#include <stdbool.h>
#include <stddef.h>
#include "host/scx.h"
#include "lib/optspec.h"
#include "run/options.h"

#define RUN_SCHEDULER_WORDS 32                    /* words of a command */

/* Splits cmd into words (copied into words, len bytes) and argv (RUN_SCHEDULER_WORDS + 1
 * entries, NULL after the last), as a command run without a shell (--scheduler, --on-threshold's
 * exec) is given: words end at blanks, except within '...' (taken as is) or "..." (where \"
 * and \\ stand for " and \); a backslash outside quotes takes the next character as is.
 * Nothing is expanded: no variable, glob or command substitution.  Returns the number of words,
 * or -1 when it has none, more than RUN_SCHEDULER_WORDS, an unterminated quote or is too long. */
int run_command_split(const char *cmd, char *words, size_t len, char **argv);
#define RUN_SCHEDULER_START_NS (10 * 1000000000ull) /* until the kernel says enabled */
#define RUN_SCHEDULER_STOP_NS (5 * 1000000000ull)   /* SIGINT's grace, then SIGKILL's */

/* The run's scheduler state. */
struct run_scheduler {
	const char *dir;                /* the sched_ext sysfs directory: SCX_SYSFS (tests: a fake) */
	const char *current;            /* the --scheduler text running now, NULL: none of ours */
	struct scx_runner r;
	char words[1024];               /* current's command, split in place ... */
	char *argv[RUN_SCHEDULER_WORDS + 1]; /* ... into argv */
	const char *failed[OPTSPEC_TEXTS_MAX];      /* commands that would not start ... */
	char failed_why[OPTSPEC_TEXTS_MAX][320];    /* ... and why */
	unsigned n_failed;
};

/* Sets rs up with sysfs directory dir; a start stops waiting when *interrupted is set (NULL:
 * never); nothing runs. */
void run_scheduler_init(struct run_scheduler *rs, const char *dir, const volatile sig_atomic_t *interrupted);

/* Before anything starts, with --scheduler given: sched_ext present in dir, no scheduler
 * loaded, every command at most RUN_SCHEDULER_WORDS words within 1023 bytes, and root's
 * privilege (loading BPF needs CAP_SYS_ADMIN or CAP_BPF and CAP_PERFMON: is_root true).
 * Returns 0, or 2 with one line printed on stderr naming --scheduler, the value and the
 * reason. */
int run_scheduler_preflight(const struct options *o, const char *dir, bool is_root);

/* Makes want the scheduling class before a pair: NULL or "fair" stops ours (if any), a command
 * stops ours unless it is the same and starts want.  Returns 0, or -1 with why (len bytes):
 * the start's failure (remembered: later pairs at want fail at once with it). */
int run_scheduler_switch(struct run_scheduler *rs, const char *want, char *why, size_t len);

/* After a pair: whether ours, if any, ran throughout (scx_check).  Returns 0, or -1 with why
 * after stopping what is left of it. */
int run_scheduler_check(struct run_scheduler *rs, char *why, size_t len);

/* Stops ours, if any: at the run's end, also after a signal.  Returns 0, or -1 with one line
 * printed on stderr when the kernel still reports a scheduler. */
int run_scheduler_stop(struct run_scheduler *rs);

#endif
