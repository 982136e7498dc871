/* Whether another interbench run shares the machine with this one: each run holds, for its
 * life, an open file description lock (fcntl(2) F_OFD_SETLK, a read lock) on the byte at
 * offset of its process id in one well-known file, RUNLOCK_PATH; F_OFD_GETLK on the rest of
 * the file finds another run's lock, and the lock's offset is that run's process id (the
 * kernel reports -1 as the pid of an open file description lock).  The lock goes with the
 * last descriptor of the run (SIGKILL included), so no stale entry is ever left, and nothing
 * is ever written to the file.  Process ids are those of the run's pid namespace. */
#ifndef IB_RUNLOCK_H
#define IB_RUNLOCK_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* In /run/lock (FHS: lock files of programs shared by all users; sticky and world-writable
 * on most systems, so the file is never followed through a link nor needed to be ours). */
#define RUNLOCK_PATH "/run/lock/interbench.lock"

/* Opens root + RUNLOCK_PATH (root "" for the real system; a test gives a directory standing
 * in for "/") for reading: never through a symbolic link, never blocking on a FIFO, accepting
 * only a regular file, whoever owns it (runs of different users must see each other; another
 * user's file can at most make a run report a concurrent run that is not); with create, made
 * exclusively (O_EXCL, 0644) when missing.  Returns the descriptor (O_CLOEXEC), or -1 with a
 * one-line reason in why naming the failed call and errno text (errno ENOENT when missing and
 * not created). */
int runlock_open(const char *root, bool create, char *why, size_t whylen);

/* Takes this process's lock (pid getpid()) on fd from runlock_open, held until the last
 * descriptor of that open file description is closed.  Returns 0, or -1 with a one-line reason
 * in why ("fcntl F_OFD_SETLK /run/lock/interbench.lock: ..."). */
int runlock_take(int fd, char *why, size_t whylen);

/* The process id of another run holding its lock on fd (any lock but one at offset getpid()),
 * 0 when none, -1 when the check failed (errno set by fcntl(2)). */
pid_t runlock_other(int fd);

/* runlock_other on a fresh open of root + RUNLOCK_PATH, closed again: for the audit, which
 * takes no lock and creates nothing (a missing file: no run).  Returns as runlock_other, -1
 * when the file cannot be opened or checked (why set). */
pid_t runlock_check(const char *root, char *why, size_t whylen);

/* A run's watch for other runs: its own lock held, others looked for at the start and then at
 * most once every RUN_WATCH_POLL_NS (a run that both starts and ends between two looks is
 * seen by that run, which reports this one). */
#define RUN_WATCH_POLL_NS 1000000000ull
struct run_watch {
	int fd;              /* the lock file, -1 when it could not be opened */
	pid_t at_start;      /* another run seen when this one started, 0: none */
	pid_t during;        /* another run first seen later (none at the start), 0: none */
	uint64_t next_ns;    /* when the next look is due (CLOCK_MONOTONIC ns) */
};

/* Opens the lock file (runlock_open on the real system), takes this run's lock and looks for
 * another run once.  Returns 0, or -1 with a one-line reason in why (w->fd -1: nothing can be
 * seen then). */
int run_watch_start(struct run_watch *w, uint64_t now_ns, char *why, size_t whylen);

/* Looks for another run when a look is due at now_ns (CLOCK_MONOTONIC ns); cheap otherwise. */
void run_watch_poll(struct run_watch *w, uint64_t now_ns);

/* The other run seen (at the start, else later), 0 when none. */
pid_t run_watch_seen(const struct run_watch *w);

/* Releases the lock (closes the descriptor). */
void run_watch_end(struct run_watch *w);

#endif
