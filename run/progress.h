/* The progress line of a long run: one status line on stderr, rewritten in place, naming the
 * pair now running, pairs done / total, the elapsed time and the estimated time left.  Shown
 * only when stderr is a terminal (and not with -q); it never reaches stdout, the logfile or
 * the JSON.  Written through a private non-blocking descriptor on the terminal, so a stopped
 * terminal (Ctrl-S) drops an update instead of blocking the SCHED_FIFO main process; at most
 * one write a second while a pair runs. */
#ifndef IB_PROGRESS_H
#define IB_PROGRESS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROGRESS_INTERVAL_NS 1000000000ULL /* one update a second */

struct progress {
	int fd;                    /* non-blocking descriptor on stderr's terminal; -1 = off */
	size_t runs_total;         /* (pair, repeat) runs planned */
	size_t runs_done;          /* runs finished (measured, failed or skipped) */
	uint64_t planned_run_ns;   /* planned length of one run: ramp-up + timed window (its
	                              most, when runs may stop early) */
	uint64_t planned_min_ns;   /* the least one run may take (planned_run_ns when fixed) */
	bool started;              /* a run has begun: start_ns is set */
	uint64_t start_ns;         /* CLOCK_MONOTONIC start of the first run */
	bool in_run;               /* a run is going on, since run_start_ns */
	uint64_t run_start_ns;     /* start of the run now going on */
	uint64_t done_elapsed_ns;  /* from start_ns to the end of the last finished run */
	uint64_t next_draw_ns;     /* earliest time of the next redraw */
	char current[128];         /* what runs now: "Audio vs Burn, repeat 1/3" */
	size_t shown_cols;         /* columns of the line now on screen (0: none) */
	/* A budget's rounds (progress_budget): 0 without one. */
	uint64_t budget_ns;        /* the whole budget, from start_ns */
	unsigned round;            /* the round running, from 1 */
	size_t round_done, round_len; /* its runs finished, and its runs */
	char undecided[96];        /* what the pairs wait for: "undecided 5: p99 latency 3, ..." */
};

/* Starts the progress line for runs_total runs of planned_run_ns each, or of planned_min_ns to
 * planned_run_ns when runs stop once their figures are known (the time left is then shown as
 * a range): on when stderr is a terminal, quiet is false and /proc/self/fd/2 can be reopened
 * non-blocking (else p->fd is -1 and every other call does nothing).  Never fails. */
void progress_open(struct progress *p, bool quiet, size_t runs_total, uint64_t planned_min_ns,
		   uint64_t planned_run_ns);

/* A budget run of budget_ns (run/matrix.h): the line then shows the round and its runs, what is
 * still undecided and the budget left, not a count of planned runs. */
void progress_budget(struct progress *p, uint64_t budget_ns);

/* Round `round` (from 1) of a budget run begins with round_len runs; undecided says what the
 * pairs still running wait for (copied, cut at its size), "" before the first settling. */
void progress_round(struct progress *p, unsigned round, size_t round_len, const char *undecided);

/* A run begins at now_ns: names it ("Audio vs Burn", repeat, of repeats) and draws the line. */
void progress_run_begin(struct progress *p, const char *sim, const char *load, unsigned repeat,
			unsigned repeats, uint64_t now_ns);

/* Called from the main process's existing wake-ups while a run goes on: redraws the line when
 * PROGRESS_INTERVAL_NS has passed since the last draw, else does nothing. */
void progress_tick(struct progress *p, uint64_t now_ns);

/* A run ended at now_ns: counts it and erases the line, so the rows printed next stand alone. */
void progress_run_end(struct progress *p, uint64_t now_ns);

/* Writes line (a whole line, its newline added) where progress goes, between runs (no status
 * line on screen then: progress_run_end erased it): through p's non-blocking descriptor when
 * the status line is on (a write that would block is dropped), else, unless quiet, to stderr
 * (a file or a pipe: it is no terminal); nothing with quiet.  Never to stdout. */
void progress_note(const struct progress *p, bool quiet, const char *line);

/* Erases the line and closes the descriptor. */
void progress_close(struct progress *p);

/* Estimated nanoseconds left at now_ns: the runs not yet finished at their planned length
 * (minus what the current run has already used), plus the overhead measured so far (time
 * beyond the planned lengths, per finished run) for each run left.  0 when nothing is left. */
uint64_t progress_left_ns(const struct progress *p, uint64_t now_ns);

/* The least time left at now_ns: every run not yet finished at planned_min_ns (minus what
 * the current run has already used).  0 when nothing is left. */
uint64_t progress_left_min_ns(const struct progress *p, uint64_t now_ns);

/* Formats the status text at now_ns into buf (at most cols - 1 characters, so it never wraps;
 * len bytes with the NUL), e.g. "[3/19] Audio vs Burn | elapsed 0:09 | left ~1:02" (left 0:40-9:30 for a range);
 * with a budget "[round 4: 3/7] Audio vs Burn | undecided 7: p99 latency 5, disturbed 2 |
 * elapsed 3:09 | budget left 1:51".
 * Returns the number of characters written. */
size_t progress_format(const struct progress *p, uint64_t now_ns, size_t cols, char *buf, size_t len);

#endif
