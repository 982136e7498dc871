/* What happened on a run's CPUs besides the run: over a pair's timed window, the CPU time that
 * processes outside the run took on the CPUs the run used, and the time a hypervisor stole
 * from them.  Measured from /proc/stat's per-CPU lines and /proc/<pid>/stat of the run's own
 * processes, both in USER_HZ ticks (proc(5)): sysconf(_SC_CLK_TCK), 100 on most systems, so a
 * measurement resolves 10 ms per CPU and per process read, and a short window is coarse (2 s
 * on 2 CPUs: 1 tick is 0.25 % of the window's CPU time). */
#ifndef IB_DISTURB_H
#define IB_DISTURB_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "lib/optspec.h"

/* A pair is disturbed when other processes took more than this share of its CPUs' time
 * (window x CPUs), in ppm: 5 %.  On a quiet machine the kernel's own work and the daemons
 * take well under 1 % (interrupts, kworkers); another benchmark or a build takes tens of %. */
#define DISTURB_OUTSIDE_PPM_MAX 50000u
/* ... or when a hypervisor stole more than this share, in ppm: 2 %.  Steal is time the run's
 * CPUs were runnable but not running on the host: whatever the guest did, it waited. */
#define DISTURB_STEAL_PPM_MAX 20000u

/* Ticks summed over the selected CPUs of /proc/stat. */
struct cpu_ticks {
	uint64_t busy;             /* user + nice + system + irq + softirq + steal (guest and
	                              guest_nice are already in user and nice: not added) */
	uint64_t steal;
	unsigned cpus;             /* how many selected CPUs had a line */
};

/* One reading at a window's edge. */
struct disturb_sample {
	struct cpu_ticks cpu;      /* the run's CPUs */
	uint64_t own_ticks;        /* utime + stime of the run's processes */
};

/* What a window had besides the run (all zero and measured false when it could not be
 * read). */
struct disturbance {
	bool measured;
	unsigned cpus;             /* the CPUs measured */
	uint64_t outside_cpu_ns;   /* busy time of those CPUs minus the run's own CPU time, >= 0 */
	uint64_t outside_cpu_ppm;  /* outside_cpu_ns of window_ns x cpus, in ppm */
	uint64_t steal_ns;         /* steal time of those CPUs (part of outside_cpu_ns) */
	uint64_t steal_ppm;        /* steal_ns of window_ns x cpus, in ppm */
};

/* Sums the per-CPU lines ("cpuN user nice system idle iowait irq softirq steal guest
 * guest_nice", proc(5); a kernel before 2.6.11 has no steal: 0) of /proc/stat's text whose N
 * is in cpus (NULL: every CPU) into *out.  The aggregate "cpu" line is skipped.  Returns 0,
 * or -1 when no selected CPU has a well-formed line. */
int disturb_parse_stat(const char *text, const struct optspec_cpus *cpus, struct cpu_ticks *out);

/* utime + stime (fields 14 and 15, proc(5)) of the text of /proc/<pid>/stat: the process's
 * every thread, those that ended included, in ticks.  The fields are counted after the last
 * ')' (the command name may hold spaces and parentheses).  Returns 0, or -1 when malformed. */
int disturb_parse_pid_stat(const char *text, uint64_t *ticks);

/* Reads /proc/stat for cpus and /proc/<pid>/stat of pids[0..npids) into *s.  Returns 0, or
 * -1 with err naming the file and errno text ("open /proc/stat: No such file or directory")
 * or the malformed content. */
int disturb_sample(const struct optspec_cpus *cpus, const pid_t *pids, unsigned npids, struct disturb_sample *s,
		   char *err, size_t errlen);

/* The disturbance between samples a and b taken window_ns apart, ticks_per_s ticks a second:
 * outside = (busy(b) - busy(a)) - (own(b) - own(a)), clamped at the steal time between them
 * (the run's own time may be spent on other CPUs, and each reading is rounded down to a tick;
 * stolen time, part of busy, is never the run's).  A counter going
 * backwards, no CPU, no window or no tick rate gives measured false. */
void disturb_compute(const struct disturb_sample *a, const struct disturb_sample *b, uint64_t window_ns,
		     long ticks_per_s, struct disturbance *d);

/* Whether the load process ran through a pair's window: main reads its /proc/<pid>/stat at
 * each of its wake-ups while the window runs (every 200 ms at most, run/pair.c), its state
 * (a stopped process: SIGSTOP, SIGTSTP, a debugger) and its CPU time (every thread's).  A
 * load stopped at any look did not load the machine as the row claims. */
struct load_activity {
	unsigned looks;            /* readings taken */
	unsigned stopped_looks;    /* readings at which it was stopped (state T or t, proc(5)) */
	uint64_t first_ticks;      /* utime + stime at the first reading, USER_HZ ticks */
	uint64_t last_ticks;       /* and at the last */
};

/* The state letter (field 3, proc(5)) of the text of /proc/<pid>/stat into *state.  Returns
 * 0, or -1 when malformed. */
int disturb_parse_pid_state(const char *text, char *state);

/* Reads /proc/<pid>/stat: utime + stime into *ticks, the state letter into *state.  Returns
 * 0, or -1 with err naming the file and the errno text or "malformed". */
int disturb_read_pid(pid_t pid, uint64_t *ticks, char *state, char *err, size_t errlen);

/* Adds one reading (ticks, state) to *a.  Pure. */
void load_activity_add(struct load_activity *a, uint64_t ticks, char state);

/* Whether the load was seen stopped at a reading of *a.  Pure. */
bool load_activity_stopped(const struct load_activity *a);

/* The load's CPU time between the first and the last reading of *a, nanoseconds, at
 * ticks_per_s (sysconf(_SC_CLK_TCK)); 0 with fewer than two readings.  Pure. */
uint64_t load_activity_cpu_ns(const struct load_activity *a, long ticks_per_s);

/* Whether d passes DISTURB_OUTSIDE_PPM_MAX or DISTURB_STEAL_PPM_MAX. */
bool disturbance_marked(const struct disturbance *d);

/* Whether a window with these shares (ppm) is disturbed, as disturbance_marked says. */
bool disturb_ppm_marked(uint64_t outside_cpu_ppm, uint64_t steal_ppm);

#endif
