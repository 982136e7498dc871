/* The console of a run (its tables on stdout, or stderr with --json -) without ever blocking
 * the run on it.  A terminal stopped with Ctrl-S, or a pipe whose reader is not reading, makes
 * a write block; in the SCHED_FIFO main process that stalled the run at its first line.  When
 * the console is a terminal or a pipe, what the program prints goes to a memory queue, and
 * each flush (stdio's, between pairs) writes what the reader takes at once through a private
 * non-blocking open file description of the same terminal or pipe (reopened through
 * /proc/self/fd, so the shared one, and the shell's terminal, keep their flags), the rest
 * waiting for the next flush.  Only conout_finish, once the run's results are written, waits
 * for the reader.  Every line arrives, once and in order.  A regular file or /dev/null never
 * blocks for long and is written as before; so is a console that cannot be reopened (a
 * socket).  Sources: open(2) O_NONBLOCK, pipe(7) and tty_ioctl(4) (writes to a full pipe or
 * a stopped terminal block), fopencookie(3). */
#ifndef IB_CONOUT_H
#define IB_CONOUT_H
#include <stddef.h>
#include <stdio.h>

struct conout {
	FILE *stream;     /* what the program prints to: the queue's stream, or target itself */
	FILE *target;     /* the console stream it stands for */
	int fd;           /* the private non-blocking description, or -1 (stream == target) */
	char *queue;      /* bytes printed and not yet written, from queue[done] to queue[len] */
	size_t len, done, cap;
	int error;        /* the first write error (errno) other than EAGAIN, or 0 */
};

/* Sets c up for target (stdout or stderr, flushed first) and returns the stream to print to:
 * a queued one on a terminal (buffered by line) or a pipe (in blocks), else target itself.
 * The last one set up is finished at exit (conout_finish), so every line is delivered
 * however the program ends, but by _exit.  Never fails: without memory or a private
 * description it returns target.  c must live until exit. */
FILE *conout_open(struct conout *c, FILE *target);

/* At the end of the run: flushes the stream and writes everything still queued, waiting for
 * the reader as long as it takes (poll(2) for POLLOUT).  Returns 0, or -1 with errno set to
 * the first write error (EPIPE: the reader went away).  Nothing to do for an unqueued
 * console. */
int conout_finish(struct conout *c);

#endif
