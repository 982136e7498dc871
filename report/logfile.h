/* The classic interbench logfile: "<kernel release>.log" in the current directory, appended
 * to by every run, each run starting with a header that stamps the date and the set-up. */
#ifndef IB_LOGFILE_H
#define IB_LOGFILE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "explain/model.h"
#include "report/runinfo.h"

struct table_legend;

#define LOGFILE_MAX_SIBLINGS 100 /* <release>.log, then -2.log ... -100.log */

/* Opens "<release>.log" in the current directory for appending and holds an exclusive flock
 * on it until it is closed, so two runs never interleave their lines.  An existing file is
 * appended to only when it is a regular file with no other hard link, belongs to the running
 * user or root and no one else can write it (lib/safefile.h safe_stat_trusted): a file another
 * user planted (mode 0666 in a shared directory) would get this run's results and could then
 * be extended with a forged run.  Nothing is opened through a symbolic link, no FIFO blocks the
 * open, a missing file is created exclusively (O_EXCL, 0644).  A name that is not ours to
 * append to, or that another live run holds locked, passes to "<release>-2.log", then -3 ...
 * -LOGFILE_MAX_SIBLINGS; when all are taken, a new "<release>-<datestamp>-XXXXXX.log"
 * (mkostemps(3)) rather than no run.  path receives the name; note (notelen bytes) one line
 * saying why another name than "<release>.log" was written when it was not ours ("6.8.log
 * belongs to uid 65534, ...; writing 6.8-2.log instead"), or "".  Returns the stream, or NULL
 * with a one-line reason in err naming the failed call and errno text. */
FILE *logfile_open(const struct run_info *info, char *path, size_t len, char *note, size_t notelen, char *err,
		   size_t errlen);

/* Writes the system audit for a logfile's run header: "Audit:" and one line per setting with
 * its value and source, a hint under each known to hurt. */
void logfile_audit(FILE *f, const struct audit *a);

/* The line saying another interbench run (pid) was running at the same time. */
void logfile_concurrent(FILE *f, long pid);

/* Writes the warning that the speed checks between pairs (d, calib_drift_off) fell outside
 * the calibration's range, after a blank line that ends the table above (tools/
 * result_log.c reads it as prose): how many checks, the range, the farthest check (after the
 * pair `after`, "Audio/Burn") and its likely causes: the share of its CPU it got, the CPU's
 * frequency when cpufreq says it, a saved value kept (saved_kept) measured at another time:
 * "Warning: the CPU ran at another speed than calibrated: 2 of 6 checks ... fixed-work figures
 * (ProAudio) may be off". */
void logfile_drift(FILE *f, const struct calib_drift *d, const char *after, bool saved_kept);

/* Writes --explain's block under a row (explain/text.h explain_text_why), every line
 * starting with the logfile's indent and LOG_ROW_WHY (report/logformat.h): why the pair's
 * periods were late, from s (sorted: explain_summary_sort), the load named load_name; repeat
 * is the repeat's number (0: a single run), window_ns the window the tracer's CPU share is
 * over.  Lines past TABLE_LEGEND_COLS are wrapped, each continuation starting "why:" too (the
 * log reader skips them alike). */
void logfile_why(FILE *f, const struct explain_summary *s, const char *load_name, unsigned repeat,
		 uint64_t window_ns);

/* Writes the run header: loops_per_ms and duration, kernel release and datestamp (the
 * interbench 0.31 lines), then CPUs, load threads, the CPUs the run may use ("CPUs this run may
 * use: 1 of 2 CPUs: 1"), its cgroups' CPU quota and a cpuset narrower than the online CPUs
 * where there are, another run at the same time, the --dma-latency hold, the workload
 * options given ("Workload options: --file-size 64M") and the comment; the legend of the
 * columns legend says are shown (report/table.h table_legend; NULL: the classic columns with
 * % Deadlines Met) after the confinement lines. */
void logfile_header(FILE *f, const struct run_info *info, const struct table_legend *legend);

#endif
