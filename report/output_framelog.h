/* The --frame-log output (report/output.h): every frame of each run of a pair whose task shows
 * frames (sim_desc.logs_frames: Video, Gaming, Pipeline), one CSV file per run in the directory
 * given, in the columns the game benchmarking tools read:
 *
 *  - MangoHud's (--frame-log-format mangohud, the default): its log as MangoHud writes it
 *    with log_interval=0, one row per frame (flightlessmango/MangoHud src/logging.cpp
 *    writeFileHeaders): the line "os,cpu,gpu,ram,kernel,driver,cpuscheduler", the machine's
 *    values (its PRETTY_NAME, CPU model, RAM in kB, kernel release, the cpufreq governor;
 *    no GPU or driver), then "fps,frametime,cpu_load,...,elapsed" and a row a frame: fps
 *    (1000 / frametime), frametime in ms, 0 for what interbench does not measure (as MangoHud
 *    writes a sensor it does not read), elapsed in ns from the start of the task's first period.
 *    FlightlessMango's log viewer (FlightlessSomething) knows the file by its first line,
 *    MangoPlot by the row holding "fps".
 *  - PresentMon's (presentmon, for CapFrameX): "Application,ProcessID,...,TimeInSeconds,
 *    MsBetweenPresents,MsBetweenDisplayChange,..." a row a frame (Application the task,
 *    Runtime "Other", Dropped 0, the frame time in both MsBetween columns, NA for the times
 *    interbench does not know), the columns CapFrameX requires of a PresentMon capture
 *    (CXWorld/CapFrameX source/CapFrameX.Data/FileRecordInfo.cs StandardIsValid).
 *
 * A frame is what the task's frame time measures (engine/sim.h sim_result.frame): the Pipeline's
 * presented at a vsync (its time from the vsync that showed the frame before), Video's a
 * period's completion (from the one before), Gaming's a free-running frame (its length).  The
 * rows are the frame-time figures' samples, as many as the JSON's frame count.
 *
 * Files are named TASK-LOAD[-SETTINGS]-RUN_STAMP.csv (SETTINGS a sweep's, the task's and the
 * load's, "nice_-10-load_nice_19", spaces as '_'; RUN the run of the pair from 1, STAMP the
 * run's start as MangoHud stamps its logs, %Y-%m-%d_%H-%M-%S; the PresentMon file
 * TASK-LOAD[-SETTINGS]-RUN-presentmon_STAMP.csv), each written under a temporary name and
 * renamed into place after its pair (lib/safefile.h: never through a planted link or FIFO, in a
 * directory no other user can write).  The directory is made when missing (its parent must
 * exist) and removed again when a run refused before any pair leaves it empty.
 *
 * The bench process keeps a pair's frames in memory (at most FRAME_LOG_MAX_RECORDS, the rest
 * dropped with a warning) and hands them to main through a private file (memfd_create(2)) that
 * main reads after the pair and empties. */
#ifndef IB_OUTPUT_FRAMELOG_H
#define IB_OUTPUT_FRAMELOG_H
#include <limits.h>
#include <stdbool.h>
#include "lib/safefile.h"
#include "report/output.h"

/* Its state for a run. */
struct framelog_output {
	int mem_fd;                      /* the private file of the bench processes' frames; -1 */
	bool open;
	bool made_dir;                   /* the directory was made by this run */
	bool failed;                     /* a file was not written (said on stderr) */
	bool warned_truncated;
	char stamp[32];                  /* the run's start, %Y-%m-%d_%H-%M-%S */
	char system[1024];               /* MangoHud's system line */
	struct safe_out out;             /* the file being written, within pair_measured only */
};

/* MangoHud's system line for the machine (os,cpu,gpu,ram,kernel,driver,cpuscheduler): os the
 * PRETTY_NAME of os_release (the text of /etc/os-release, or NULL), cpu the model without its
 * parenthesised parts, ram in kB, governor the cpufreq governor (NULL: none); commas, quotes
 * and line ends in a value become spaces.  Into buf of len bytes, without a newline. */
void framelog_system_line(const char *os_release, const char *cpu_model, uint64_t ram_bytes, const char *kernel,
			  const char *governor, char *buf, size_t len);

/* A MangoHud row of one frame of frame_ns ending at_ns after the log's start, with its
 * newline, into buf of len bytes.  Returns its length. */
size_t framelog_mangohud_row(uint64_t at_ns, uint64_t frame_ns, char *buf, size_t len);

/* A PresentMon row of one frame of task app, shown at vsyncs (presents) or not. */
size_t framelog_presentmon_row(const char *app, bool presents, uint64_t at_ns, uint64_t frame_ns, char *buf,
			       size_t len);

extern const struct report_output report_output_framelog; /* listed in report/outputs.h */

#endif
