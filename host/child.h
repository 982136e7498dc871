/* Child processes of the main process: each runs one body (a benchmarked task or a load),
 * stops when main closes its control pipe (or main dies), and sends one result struct back
 * over its result pipe.  Children never print results or touch the logfile. */
#ifndef IB_CHILD_H
#define IB_CHILD_H
#include <stdbool.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct child {
	pid_t pid;       /* 0 when not running */
	int ctl_fd;      /* main's write end of the control pipe: closing it asks for a stop */
	int res_fd;      /* main's read end of the result pipe */
	int status;      /* waitpid status once reaped */
	bool reaped;
};

/* Runs in the child: ctl_fd is its read end of the control pipe, res_fd its write end of the
 * result pipe.  The return value becomes the exit status. */
typedef int (*child_body)(void *arg, int ctl_fd, int res_fd);

#define CHILD_MAX_KEEP_FDS 16 /* descriptors a child may keep besides its pipes */

/* Fills set with the stop signals: every catchable signal whose default action ends the
 * process (SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1/2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU,
 * SIGIO, SIGPWR, SIGSTKFLT and SIGRTMIN..SIGRTMAX), except SIGPIPE and SIGXFSZ, which are
 * better ignored (the write then fails with EPIPE/EFBIG and is reported).  Program errors
 * (SIGSEGV, SIGABRT...) and SIGTRAP/SIGSYS keep their default action.  signal(7). */
void stop_signals_fill(sigset_t *set);

/* Installs handler (no flags, nothing blocked while it runs) for every stop signal
 * (stop_signals_fill) but those whose disposition is SIG_IGN on entry: a signal ignored when
 * the program started stays ignored, as nohup(1) and a shell's background jobs (SIGINT,
 * SIGQUIT) expect; an ignored disposition is inherited across fork and execve (sigaction(2),
 * signal(7)).  Returns how many stop signals were left ignored.  Call it once, before any other
 * handler is set. */
unsigned stop_signals_catch(void (*handler)(int));

/* Forks a child named name (its comm, as ps and the --explain tracer show it; at most 15
 * bytes kept) running body(arg).  In the child: every inherited descriptor above 2 is
 * closed but its pipes and the n_keep (at most CHILD_MAX_KEEP_FDS) in keep_fds; the stop
 * signals (stop_signals_fill), SIGPIPE and SIGXFSZ are ignored (main stops children over the
 * control pipe; the stop signals stay blocked across fork so main's handler never runs in
 * the child); and PR_SET_PDEATHSIG makes it die with main (it exits 1 if that fails or main
 * is already gone).  Returns 0, or -1 with errno set (EINVAL: too many keep_fds; pipe or
 * fork failed). */
int child_spawn(struct child *c, const char *name, child_body body, void *arg, const int *keep_fds,
		unsigned n_keep);

/* In a child forked (with every signal blocked across the fork) to exec a command the user
 * gave: killed with its parent (PR_SET_PDEATHSIG SIGKILL; fails when the parent, pid parent, is
 * already gone), its own process group (a terminal's Ctrl-C is the parent's to act on), stdin
 * /dev/null, stdout out_fd and stderr err_fd, keep_fd (-1: none) as descriptor 3 (close-on-exec)
 * and nothing else of the parent's open, every signal at its default and none blocked, and
 * SCHED_OTHER (the parent may be SCHED_FIFO in a measuring window: a command the user wrote
 * never runs at the benchmark's realtime priority; sched_setscheduler(2)).
 * Returns 0, or -1 (the child should then _exit(126)). */
int child_exec_prepare(pid_t parent, int out_fd, int err_fd, int keep_fd);

/* In a child, once its worker threads exist (new threads inherit the policy): raises the
 * calling control thread to SCHED_FIFO at prio, so that a stop request is acted on at once
 * however many threads load the CPUs.  That thread only sleeps until the stop, so nothing
 * measured changes.  Best effort: prio <= 0 or a refusal (no privilege) leaves it as it is. */
void child_control_priority(int prio);

/* In the child: blocks until main closes the control pipe or writes to it; a read error
 * other than EINTR also counts as a stop (main is unreachable). */
void child_wait_stop(int ctl_fd);

/* In the child: whether main has asked it to stop (written to or closed the control pipe),
 * waiting at most timeout_ms for that.  A poll error other than EINTR counts as a stop. */
bool child_stop_requested(int ctl_fd, int timeout_ms);

/* Writes all len bytes.  Returns 0, or -1 with errno set. */
int fd_write_all(int fd, const void *buf, size_t len);

/* Reads exactly len bytes, waiting at most timeout_ms in all.  Returns 0; -1 with errno
 * ETIMEDOUT, EPIPE (the child closed the pipe early: it died or sent nothing), or the error of
 * poll/read.  EINTR is retried. */
int fd_read_all(int fd, void *buf, size_t len, int timeout_ms);

/* Asks the child to stop (closes ctl_fd; idempotent). */
void child_request_stop(struct child *c);

/* Waits up to timeout_ms for the child to exit, then SIGKILLs and reaps it.  Closes both
 * pipes.  Returns 0 when it exited by itself within the time, 1 when it had to be killed. */
int child_reap(struct child *c, int timeout_ms);

/* Describes how a reaped child ended ("exit status 3", "killed by signal 9 (Killed)"). */
void child_describe_status(int status, char *buf, size_t len);

/* What may have killed a child, for child_describe_death. */
struct child_fate {
	bool realtime;             /* it had a thread under SCHED_FIFO or SCHED_RR, to which
	                              RLIMIT_RTTIME applies */
	uint64_t oom_kills_before; /* oom_kill_count() before it started (host/oom.h); UINT64_MAX:
	                              unknown */
};

/* child_describe_status, and for a death by signal the likely sender when the facts point to
 * one: SIGKILL while the kernel's OOM kill count grew since f->oom_kills_before, ": the OOM
 * killer? (1 OOM kill meanwhile)"; else SIGKILL (the hard limit) or SIGXCPU (the soft one) of
 * a realtime child under a finite RLIMIT_RTTIME, ": RLIMIT_RTTIME of N us exceeded?"
 * (setrlimit(2): the CPU time a realtime thread may use without a blocking call; a child
 * ignores SIGXCPU, so the hard limit's SIGKILL ends it).  The limits read are the caller's,
 * which the children inherit. */
void child_describe_death(int status, const struct child_fate *f, char *buf, size_t len);

#endif
