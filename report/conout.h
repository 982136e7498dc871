/* The console of a run (its tables on stdout, or stderr with --json -) without ever blocking
 * the run on it.  A terminal stopped with Ctrl-S, or a pipe whose reader is not reading, makes
 * a write block; in the SCHED_FIFO main process that stalled the run at its first line.  When
 * the console is a terminal or a pipe, what the program prints goes to a memory queue, and
 * each flush (stdio's, between pairs) writes what the reader takes at once through a private
 * non-blocking open file description of the same terminal or pipe (reopened through
 * /proc/self/fd, so the shared one, and the shell's terminal, keep their flags), the rest
 * waiting for the next flush.  Only conout_finish, once the run's results are written, waits
 * for the reader, and only while it reads: a reader that takes nothing for CONOUT_STALL_MS, or
 * a stop signal, ends the wait, and what is left is dropped with a note on stderr.  Every line
 * that arrives arrives once and in order.  A regular file or /dev/null never
 * blocks for long and is written as before; so is a console that cannot be reopened (a
 * socket).  Sources: open(2) O_NONBLOCK, pipe(7) and tty_ioctl(4) (writes to a full pipe or
 * a stopped terminal block), fopencookie(3). */
#ifndef IB_CONOUT_H
#define IB_CONOUT_H
#include <signal.h>
#include <stddef.h>
#include <stdio.h>

/* How long the end of a run waits for a console reader that takes nothing: long enough for a
 * reader that is merely slow (a pager, a loaded machine), short against a run. */
#define CONOUT_STALL_MS 5000
#define CONOUT_STALL_TEXT "5 s"

struct conout {
	FILE *stream;     /* what the program prints to: the queue's stream, or target itself */
	FILE *target;     /* the console stream it stands for */
	int fd;           /* the private non-blocking description, or -1 (stream == target) */
	char *queue;      /* bytes printed and not yet written, from queue[done] to queue[len] */
	size_t len, done, cap;
	int error;        /* the first write error (errno) other than EAGAIN, or 0 */
	const volatile sig_atomic_t *stop; /* non-zero once a stop signal arrived, or NULL */
	size_t dropped;   /* bytes given up on at the end (conout_finish) */
	const char *why;  /* why they were, or NULL */
};

/* Sets c up for target (stdout or stderr, flushed first) and returns the stream to print to:
 * a queued one on a terminal (buffered by line) or a pipe (in blocks), else target itself.
 * The last one set up is finished at exit (conout_finish), so every line is delivered
 * however the program ends, but by _exit.  Never fails: without memory or a private
 * description it returns target.  stop (may be NULL) is the run's stop flag, set by its
 * signal handler: a signal that arrives while the end of the run waits for the reader ends
 * the wait.  c must live until exit. */
FILE *conout_open(struct conout *c, FILE *target, const volatile sig_atomic_t *stop);

/* At the end of the run: flushes the stream and writes everything still queued, waiting for
 * the reader (poll(2) for POLLOUT) while it takes something at least every CONOUT_STALL_MS
 * and no stop signal arrives during the wait (*stop set before the wait, by a signal that cut
 * the run short, does not end it: the lines of a cut run still reach a reader that reads).
 * Otherwise the rest is dropped (c->dropped, c->why) and stderr says so
 * in one line, written without waiting; the run's outcome does not change.  Once given up,
 * a later call writes only what the reader takes at once.  Returns 0, or -1 with errno set
 * to the first write error (EPIPE: the reader went away).  Nothing to do for an unqueued
 * console. */
int conout_finish(struct conout *c);

#endif
