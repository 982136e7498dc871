/* loops_per_ms: how many iterations of the fixed burn loop one CPU runs per millisecond.
 * Simulated tasks and CPU loads do their work as a count of loops (fixed work), so a task
 * that is preempted still has to finish all of it, as a real decoder would. */
#ifndef IB_CALIBRATE_H
#define IB_CALIBRATE_H
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What a saved loops_per_ms depends on; a saved value is reused only while all match. */
struct calib_key {
	char cpu_model[128];     /* "model name" from /proc/cpuinfo, or "unknown" */
	unsigned online_cpus;    /* sysconf(_SC_NPROCESSORS_ONLN) */
	char kernel_release[65]; /* uname -r */
};

/* Runs n iterations of the burn loop; the loop body cannot be optimised away. */
void burn_loops(uint64_t n);

/* Burns work_us microseconds worth of calibrated loops in chunks of about 100 us, checking
 * *stop between chunks.  Returns the work done in microseconds: work_us when all of it was
 * done, less when stopped. */
uint64_t burn_us_done(uint64_t loops_per_ms, uint64_t work_us, const atomic_bool *stop);

/* burn_us_done, returning true when all the work was done, false when stopped. */
bool burn_us(uint64_t loops_per_ms, uint64_t work_us, const atomic_bool *stop);

/* Burns work_us microseconds of the calling thread's own CPU time (CLOCK_THREAD_CPUTIME_ID),
 * in chunks of loops of about 50 us (sized at the speed measured so far in this burn, the
 * calibrated one at first, so the last chunk stops close to work_us), checking *stop between
 * chunks.  The work owed
 * is CPU time: a preempted task still does all of it, and a CPU running slower than at
 * calibration (a cold burn after a sleep, a busy SMT sibling, a slower clock) does not make the
 * task use more CPU than it asks for, as a fixed loop count did (5-13% over; bench/cpu-emulation.sh).
 * *loops_done (when not NULL) receives the loops run: at calibrated speed they would have taken
 * loops_done / loops_per_ms ms, so less than the CPU time used means the CPU ran slower while
 * the task ran (time stolen from it).  Returns the CPU time used in microseconds, at most
 * work_us: work_us when all of it was done, less when stopped. */
uint64_t burn_cpu_us(uint64_t loops_per_ms, uint64_t work_us, const atomic_bool *stop, uint64_t *loops_done);

/* Fills key for this machine.  Never fails; unreadable fields become "unknown" / 0. */
void calib_key_current(struct calib_key *key);

/* How many measurements a calibration takes (calib_measure); the fastest is kept, since a
 * slow moment (another process on the CPU, a frequency dip, time stolen by the hypervisor)
 * only ever lowers the rate: 1 of 5 `-b` runs on a shared 2-CPU VM measured 2.1 million
 * loops per ms against 3.67 million for the others (bench/RESULTS.md, calibration). */
#define CALIB_MEASUREMENTS 5

/* Margin, in percent of the saved (or run's) loops_per_ms, beyond which a quick measurement
 * disagrees with it: a saved value is then measured again (calib_check_saved), and a rate that
 * changed during a run is warned about.  The 5 agreeing `-b` runs above were within 2% of each
 * other (bench/RESULTS.md), the slow one 43% below. */
#define CALIB_DISAGREE_PCT 10.0

/* A calibration's measurements: the one kept and how far the others fell below it. */
struct calib_result {
	uint64_t loops_per_ms;      /* the fastest measurement; 0 when interrupted */
	unsigned measurements;      /* how many were taken */
	double median_below_pct;    /* the median measurement, percent below the fastest */
	double slowest_below_pct;   /* the slowest measurement, percent below the fastest */
};

/* One measurement of loops per ms (a fake one in the tests).  Returns the rate, or 0 when
 * interrupted. */
typedef double (*calib_measurer)(void *ctx);

/* The fastest of rates[0..n) and how far the median and the slowest fall below it, into *out.
 * Pure.  n == 0 or a zero rate (an interrupted measurement) gives loops_per_ms 0. */
void calib_spread(const double *rates, unsigned n, struct calib_result *out);

/* Runs measure n times (n at most CALIB_MEASUREMENTS; more are not taken) and fills *out with
 * calib_spread of them.  Returns out->loops_per_ms: the fastest (at least 1), or 0 when a
 * measurement was interrupted. */
uint64_t calib_measure_with(calib_measurer measure, void *ctx, unsigned n, struct calib_result *out);

/* How a rate compares with a reference: within margin_pct percent of it, or faster or slower
 * by more.  Pure. */
enum calib_agreement { CALIB_AGREES, CALIB_FASTER, CALIB_SLOWER };
enum calib_agreement calib_compare(uint64_t reference_loops_per_ms, double loops_per_ms, double margin_pct);

/* The percentage by which loops_per_ms differs from reference (positive: faster). */
double calib_diff_pct(uint64_t reference_loops_per_ms, double loops_per_ms);

/* What checking a saved value did (calib_check_saved). */
struct calib_check {
	uint64_t loops_per_ms;      /* the value to use: the saved one, or the new measurement */
	uint64_t saved_loops_per_ms; /* the saved value checked; 0: none (a fresh calibration) */
	double quick_loops_per_ms;  /* the quick measurement */
	bool remeasured;            /* full holds a full calibration (the quick one disagreed) */
	bool replaced;              /* the full calibration disagreed too: loops_per_ms is new */
	struct calib_result full;
};

/* The rule for a saved value: one quick measurement; when it agrees with saved within
 * CALIB_DISAGREE_PCT, saved is kept.  Otherwise a full calibration (CALIB_MEASUREMENTS, the
 * fastest kept): a quick one faster than saved means saved was taken in a slow moment, a
 * slower one may itself be a slow moment, and the full calibration decides both: it replaces
 * saved only when it disagrees with saved too.  Returns the value to use, or 0 when
 * interrupted (out->loops_per_ms 0 too). */
uint64_t calib_check_with(uint64_t saved, calib_measurer measure, void *ctx, struct calib_check *out);

/* One check of the CPU's speed between a run's pairs (calib_check_speed). */
struct calib_speed {
	double loops_per_ms;          /* the median measurement, loops per ms of the check's own CPU
	                                 time; 0 when interrupted */
	double slowest_loops_per_ms;  /* the range of its measurements */
	double fastest_loops_per_ms;
	uint32_t cpu_share_ppm;       /* its CPU time over its wall time, ppm: below 1000000 when
	                                 something else took its CPU (a task of higher or equal
	                                 priority, the hypervisor's steal) */
	int cpu;                      /* the CPU it ran on, -1 when unknown */
	uint32_t freq_khz;            /* that CPU's cpufreq scaling_cur_freq right after it, 0 when
	                                 the kernel does not say (no cpufreq driver, most VMs) */
};

/* The range a check is held against: the run's calibration, its measurements' range. */
struct calib_range {
	double slowest_loops_per_ms;
	double fastest_loops_per_ms;
};

/* The range of calibration c for a run using loops_per_ms: a full calibration's measurements
 * (its fastest and its slowest, slowest_below_pct under it); a saved value kept on one quick
 * measurement is known only within CALIB_DISAGREE_PCT of that measurement, so its range is
 * loops_per_ms +/- CALIB_DISAGREE_PCT.  Pure. */
void calib_reference(const struct calib_check *c, uint64_t loops_per_ms, struct calib_range *out);

/* The median, the range and the CPU share of n measurements rates[0..n) (n at most
 * CALIB_MEASUREMENTS) taken in wall_ns of wall time and cpu_ns of the thread's CPU time, into
 * *out (cpu and freq_khz untouched).  Pure; n == 0 gives loops_per_ms 0. */
void calib_speed_of(const double *rates, unsigned n, uint64_t wall_ns, uint64_t cpu_ns, struct calib_speed *out);

/* Whether check s lies outside ref: its median below ref's slowest, or above ref's fastest,
 * by more than its own spread (its slowest measurement's distance below its fastest, as a
 * share).  ref holds the calibration's spread, s its own: a noisy check, whose spread is wide,
 * is not called off for a difference its own measurements do not agree on.  On the 2-CPU
 * development VM a full calibration spread 0.3 %, while checks at rest took medians 0.6-1.0 %
 * below it with spreads of 1.3 % (both in one run, run.calibration_drift.speeds): without the
 * check's own spread every check was off.  Pure. */
bool calib_speed_off(const struct calib_speed *s, const struct calib_range *ref);

/* One check after a pair: its speed, when it ran (from the run's start) and after which pair
 * (the plan item and repeat, run/matrix.h), and whether it was off. */
struct calib_drift_check {
	struct calib_speed speed;
	uint64_t at_ns;
	size_t item;
	unsigned repeat;
	bool off;
};

/* What the checks between a run's pairs saw (calib_drift_add). */
struct calib_drift {
	struct calib_range reference;  /* what each check is held against (calib_reference) */
	unsigned checks;               /* checks added */
	unsigned off;                  /* of those, the ones outside reference */
	double slowest_loops_per_ms;   /* the slowest check (its median); 0 before the first */
	double fastest_loops_per_ms;   /* the fastest check; 0 before the first */
	struct calib_drift_check *list; /* the first cap checks, in order; NULL: none kept */
	unsigned cap;
	bool virtual_machine;          /* calib_under_hypervisor(): a check slower with all of its
	                                  CPU time may be a core the host shares (an SMT sibling
	                                  running another guest): on the 2-vCPU development VM the
	                                  burn loop ran 40-47 % slower for 20-300 ms at a time,
	                                  at rest, with 100 % of its CPU time */
};

/* Whether /proc/cpuinfo's flags name a hypervisor (x86's "hypervisor" CPUID bit); false when
 * it cannot be read or says nothing (other architectures). */
bool calib_under_hypervisor(void);

/* Adds check c to *d, deciding c's off against d->reference (calib_speed_off); an interrupted
 * check (speed 0) is not added.  Pure. */
void calib_drift_add(struct calib_drift *d, const struct calib_drift_check *c);

/* Whether the run drifted: at least two checks off, or the run's only check.  A single check
 * off among several is a moment, kept in the list but not warned about.  Pure. */
bool calib_drift_off(const struct calib_drift *d);

/* The check that differs most from the reference's nearer end, or NULL when none is off or
 * none is kept. */
const struct calib_drift_check *calib_drift_worst(const struct calib_drift *d);

/* Measures loops_per_ms on the calling thread: pins it to its current CPU and raises it to
 * SCHED_FIFO when permitted (otherwise measures at normal priority), warms up for ~200 ms,
 * then takes CALIB_MEASUREMENTS measurements, each the fastest of 10 samples of ~20 ms
 * (about 1.2 s in all), and keeps the fastest (calib_measure_with); result (may be NULL)
 * receives the spread.  Restores the thread's affinity and policy.  Returns loops_per_ms
 * (> 0), or 0 when *interrupted (may be NULL) became non-zero before it was done. */
uint64_t calib_measure(const volatile sig_atomic_t *interrupted, struct calib_result *result);

/* calib_check_with on this CPU, set up as calib_measure does: the quick measurement is the
 * warm-up and one measurement (about 0.4 s).  Returns the value to use, or 0 when
 * interrupted. */
uint64_t calib_check_saved(uint64_t saved, const volatile sig_atomic_t *interrupted, struct calib_check *out);

/* Checks the CPU's speed between pairs, when the CPUs rest: sleeps CALIB_CHECK_SETTLE_MS
 * first (the pair's processes are reaped, its writeback started), then on the calling
 * thread, pinned and raised as calib_measure does, warms up ~50 ms and takes
 * CALIB_MEASUREMENTS measurements, each the fastest of 3 samples of ~20 ms (sized from the
 * run's loops_per_ms), timed by the thread's own CPU time: time another task or the
 * hypervisor takes from it does not count as slowness (the tasks' work is CPU time too,
 * burn_cpu_us), but shows in cpu_share_ppm.  About 0.45 s.  Fills *out (calib_speed_of, the
 * CPU and its frequency); returns its loops_per_ms, or 0 when interrupted. */
#define CALIB_CHECK_SETTLE_MS 100
double calib_check_speed(uint64_t loops_per_ms, const volatile sig_atomic_t *interrupted, struct calib_speed *out);

/* Default calibration file: $XDG_CACHE_HOME/interbench/loops_per_ms, falling back to
 * $HOME/.cache/...; writes the path into buf.  Returns 0, or -1 if no home is known. */
int calib_default_path(char *buf, size_t len);

/* Plausible loops_per_ms for a saved value.  The burn loop runs about one loop per cycle
 * (3.4 million per ms measured on a 2-CPU ~3 GHz VM, bench/calibration.sh), so 1000 is a
 * 1 MHz-class CPU and 100000000 a 100 GHz one: a cached value outside is a damaged or forged
 * file and is measured again.  -l may still set any value from 1 to UINT32_MAX. */
#define CALIB_MIN_LOOPS_PER_MS 1000ULL
#define CALIB_MAX_LOOPS_PER_MS 100000000ULL
#define CALIB_MAX_FILE_BYTES 4096 /* a larger cache file is not ours */

/* Reads a calibration file that only the running user or root can have written: every
 * directory of its path from / down must belong to the running user or root and be writable
 * by no one else (or sticky, as /tmp), and none may be a symbolic link (lib/safefile.h
 * safe_dir_open_trusted); the file itself is opened without following a symlink or blocking
 * (O_NOFOLLOW|O_NONBLOCK: a FIFO at the path must not hang the start) and must be a regular
 * file of at most CALIB_MAX_FILE_BYTES, owned by the running user or root, writable by no
 * one else.  Returns the saved loops_per_ms when the file is well formed, the value plausible
 * (CALIB_MIN/MAX_LOOPS_PER_MS) and its key equals *want; returns 0 when missing, untrusted,
 * not a regular file, corrupt, implausible or stale (the caller recalibrates).  why (may be
 * NULL) gets a short reason when 0 is returned ("/home/u/.cache belongs to uid 1000, not to
 * the running user (uid 0) or root; not trusted"). */
uint64_t calib_load(const char *path, const struct calib_key *want, char *why, size_t whylen);

/* The checks of calib_load on the text of f, once the file is trusted and open: the
 * "key=value" lines, each key once, the value plausible and the key equal to *want.  Returns
 * loops_per_ms, or 0 with a short reason in why ("corrupt", "incomplete", "implausible ...",
 * "saved for another CPU, CPU count or kernel"). */
uint64_t calib_parse(FILE *f, const struct calib_key *want, char *why, size_t whylen);

/* Saves loops_per_ms with key to the absolute path: the directories of its path are made
 * where missing and each must be trusted as calib_load requires (none a symbolic link, none
 * another user's or writable by others), then the file is written under a private temporary
 * name and renamed over path (lib/safefile.h safe_out_open).  Returns 0, or -1 with a one-line
 * reason in why (may be NULL) naming the failed call or the untrusted directory, and errno
 * EINVAL for a value calib_load would reject; nothing is written then. */
int calib_save(const char *path, const struct calib_key *key, uint64_t loops_per_ms, char *why, size_t whylen);

/* What a run asks of calib_obtain. */
struct calib_request {
	uint64_t given_loops_per_ms;  /* -l's value, used as it is; 0: none given */
	bool recalibrate;             /* -b: the saved value is not read (a new one is saved) */
	const char *path;             /* the cache file; NULL: calib_default_path's, none when no
	                                 home is known (then nothing is read or saved) */
	const volatile sig_atomic_t *interrupted; /* the run's stop flag (may be NULL) */
	calib_measurer measure;       /* NULL: the burn loop on this CPU, pinned and warmed up
	                                 (calib_check_saved, calib_measure); tests pass a script */
	void *measure_ctx;
	/* Called before a full calibration, with why the saved value was not used ("" when none
	 * was looked for): the run says "Measuring loops_per_ms..." on its console.  May be NULL. */
	void (*measuring)(void *ctx, const char *why);
	void *measuring_ctx;
};

/* Where a run's loops_per_ms came from (calib_obtain). */
struct calib_outcome {
	uint64_t loops_per_ms;        /* the value to use; 0 when interrupted */
	const char *source;           /* "-l", "saved" or "measured" (the run header says which) */
	struct calib_check check;     /* the measurements behind it; zero with -l */
	char not_saved[PATH_MAX + 256]; /* why a measured value could not be saved, or "" */
};

/* The policy for a run's loops_per_ms: -l's value as given; else the value saved for this
 * machine (calib_key_current, calib_load at rq->path), unless -b, once a quick measurement
 * agrees with it (calib_check_with: measured again when not, replaced only when the full
 * calibration disagrees too); else a full calibration, after rq->measuring.  A value measured
 * anew (not interrupted) is saved (calib_save); a failure to save is said in out->not_saved,
 * not printed (the caller warns).  Never writes to stderr, which a terminal stopped with
 * Ctrl-S would block.  Returns out->loops_per_ms: 0 only when interrupted (nothing saved). */
uint64_t calib_obtain(const struct calib_request *rq, struct calib_outcome *out);

#endif
