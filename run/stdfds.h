/* The process's standard descriptors 0, 1 and 2, which a daemon or a cron job may start it
 * with closed: opened onto /dev/null before anything else is opened (otherwise the logfile
 * would become descriptor 1 or 2 and get every console line or error message too), a closed
 * standard output made optional for a run (its logfile and JSON hold the results), and a
 * command whose output is the point (a subcommand, --version, -h, --audit) failing when its
 * answer could not be written.  Source: open(2), "the lowest-numbered file descriptor not
 * currently open" is returned. */
#ifndef IB_STDFDS_H
#define IB_STDFDS_H

/* Opens /dev/null onto any of descriptors 0, 1 and 2 that is closed, before anything else is
 * opened.  A closed standard output gets /dev/null opened read-only, so writes to it still
 * fail (EBADF) as they would have: for a command whose output is the point that is an error
 * (stdfds_written); a run takes stdfds_console_optional first.  Returns 0, or -1 when
 * /dev/null cannot be opened (then nothing can be trusted: exit). */
int stdfds_open(void);

/* Before a run: a standard output that stdfds_open found closed takes the console lines
 * silently (/dev/null, writable), as a cron job's run must still finish and write its
 * logfile.  Returns 0, or -1 when /dev/null cannot be opened. */
int stdfds_console_optional(void);

/* After a command whose output is the point (a subcommand, --version, -h, --audit), what
 * names it ("" for the program itself, else "compare", "--audit"): 0 when standard output
 * took all of it, else 2 with the write's error named on stderr ("interbench compare: write
 * standard output: No space left on device"), so that an answer nobody could read never
 * passes for one (a closed descriptor: stdfds_open). */
int stdfds_written(const char *what);

#endif
