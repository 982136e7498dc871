/* The --trace output (report/output.h): the run as a trace in the Trace Event Format's JSON
 * object form (Google's "Trace Event Format" document, which Perfetto's UI and trace processor
 * and chrome://tracing load; doc/trace.md describes what this one holds).  Streamed: each
 * event is written with jansson as it is made, so memory stays bounded whatever the run's
 * length; the file grows by at most TRACE_LATE_MAX late periods, TRACE_FRAMES_MAX frames and
 * 2 x TRACE_COUNTER_MAX counter samples per sub-run, beyond which it says "truncated" (its
 * otherData and stderr).  Written under a temporary name and renamed into place when the run
 * ends (lib/safefile.h).
 *
 * The periods come from the records the bench process writes after each pair (the --timeline
 * records, engine/timeline.h): read back from the --timeline file when one is written, else
 * from a memory file of this output's own (memfd_create(2)) that holds one pair's records at
 * a time, at most TIMELINE_MAX_RECORDS (80 MB), emptied after each pair. */
#ifndef IB_OUTPUT_TRACE_H
#define IB_OUTPUT_TRACE_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include "lib/safefile.h"
#include "report/output.h"

#define TRACE_LATE_MAX 20000u    /* late, dropped and unfinished periods a sub-run traces */
#define TRACE_FRAMES_MAX 20000u  /* Pipeline frames a sub-run traces */
#define TRACE_COUNTER_MAX 20000u /* samples of each counter a sub-run writes: with more
                                    periods, each sample is the largest of its stretch */
#define TRACE_FRAME_LANES 6u     /* tracks frames in flight are spread over (slices on one
                                    track must nest; a frame overlaps the next ones) */

/* Its state for a run. */
struct trace_output {
	struct safe_out out;             /* --trace's file, under a temporary name until close */
	FILE *f;                         /* the stream written into out.fd (a dup of it) */
	bool open;
	int write_errno;                 /* the first write error, or 0 */
	bool out_of_memory;              /* an event could not be made: the trace is incomplete */
	uint64_t events;                 /* events written */
	uint64_t t0_ns;                  /* the trace's time 0, CLOCK_MONOTONIC ns */
	int rec_fd;                      /* where the pairs' period records are read, or -1 */
	bool rec_own;                    /* rec_fd is this output's memory file (emptied per pair) */
	off_t rec_off;                   /* the next record's offset in rec_fd */
	uint64_t late_cut, frames_cut;   /* late periods and frames past the caps, not traced */
	uint64_t records_lost;           /* sub-runs whose records were cut short or unreadable */
	uint32_t counter_stride_max;     /* the most periods one counter sample stood for */
};

extern const struct report_output report_output_trace; /* listed in report/outputs.h */

#endif
