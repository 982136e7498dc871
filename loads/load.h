/* Background loads.  Each file in loads/ exports one struct load_desc; loads/loads.c lists
 * them.  A load is prepared in the main process (before any timed window: scratch files and
 * the like), started and stopped in its own child process, and cleaned up by main at the end
 * of the run. */
#ifndef IB_LOAD_H
#define IB_LOAD_H
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "loads/scratch.h"
#include "sims/sim.h"

#define LOAD_NORMAL 0x1u  /* valid as a load in normal runs */
#define LOAD_RT     0x2u  /* valid as a load in -r runs */
#define LOAD_CUSTOM 0x4u  /* needs -C / -I; skipped unless given */
#define LOAD_WORKDIR 0x8u /* keeps scratch files in --workdir (checked before the run starts) */
/* Upper bound for -L: thread counts and socketpairs stay far below RLIMIT_NOFILE's usual
 * hard limit (Hack uses 2 descriptors per sender/receiver pair, capped separately). */
#define LOAD_MAX_THREADS 1024

/* Counters a load fills, printed as its throughput (load_desc.reports). */
#define LOAD_REPORT_LOOPS    0x01u /* loops: burn loops, in thousands */
#define LOAD_REPORT_WAKEUPS  0x02u /* wakeups */
#define LOAD_REPORT_WRITTEN  0x04u /* bytes_written */
#define LOAD_REPORT_READ     0x08u /* bytes_read */
#define LOAD_REPORT_TOUCHED  0x10u /* mib_touched */
#define LOAD_REPORT_MESSAGES 0x20u /* messages */

/* Settings every load may read; filled by main from the options. */
struct load_config {
	unsigned threads;          /* -L: worker count for Burn, Ring, Hack (>= 1) */
	uint64_t loops_per_ms;
	uint64_t custom_interval_us, custom_cpu_pct; /* -I / -C for the Custom load */
	const char *workdir;       /* scratch directory for disk loads */
	uint64_t file_size_bytes;  /* disk load file size, 0 = default policy */
	uint64_t mem_size_bytes;   /* Memload size, 0 = default policy */
	const volatile sig_atomic_t *interrupted; /* main's signal flag, polled by prepare hooks */
	struct scratch_set *scratch; /* the run's scratch file registry (main's; loads/scratch.h) */
};

/* Work a load did in one pair, sent back to main from the load process. */
struct load_counters {
	uint64_t elapsed_ns;       /* from start to stop */
	uint64_t loops;            /* burn loops run (CPU loads), in units of 1000 */
	uint64_t wakeups;          /* wake-ups passed (Ring) */
	uint64_t bytes_written;
	uint64_t bytes_read;
	uint64_t mib_touched;
	uint64_t messages;         /* messages passed (Hack) */
	int error;                 /* 0, or the errno of a failure that stopped the load */
	char errmsg[200];          /* names the call (and file) that failed */
};

struct load_ctx;
/* Argument of each worker thread started by load_threads_start. */
struct load_worker {
	struct load_ctx *ctx;
	unsigned index;   /* 0 .. n-1 */
};

/* One load's state for a whole run; lives in main and is copied into each load process. */
struct load_ctx {
	const struct load_desc *desc;
	const struct load_config *cfg;
	atomic_bool stop;                 /* set by load_stop(); workers poll it */
	struct load_counters counters;    /* updated by workers with __atomic builtins */
	pthread_t tids[LOAD_MAX_THREADS];
	struct load_worker workers[LOAD_MAX_THREADS];
	unsigned nthreads;
	/* load_threads_start's gate: workers wait until every one exists, so creating many
	 * threads is not starved by the ones already running. */
	pthread_mutex_t gate_lock;
	pthread_cond_t gate;
	bool gate_open;
	bool gate_ready;                  /* gate_lock and gate are initialised */
	void *(*worker_fn)(void *);       /* what each worker runs once the gate opens */
	struct sim_engine *engine;        /* simulated tasks used as loads */
	struct sim_result sim_result;
	void *priv;                       /* the load's own state (scratch file names...) */
	bool prepared;                    /* main: prepare succeeded (not run again) */
	bool prepare_failed;              /* main: prepare failed; counters.errmsg says why and
	                                     every pair with this load is reported failed */
};

struct load_desc {
	const char *name;
	const char *help;                 /* one line for -h */
	unsigned flags;                   /* LOAD_* */
	unsigned reports;                 /* LOAD_REPORT_*: the counters it fills (0: none) */
	/* In main before the pair's timed window; idempotent for the run.  Returns 0, or -1 with
	 * counters.errmsg set (the pair is then reported failed).  NULL: nothing to prepare. */
	int (*prepare)(struct load_ctx *ctx);
	/* In the load process: start the work (threads) and return.  Returns 0, or -1 with
	 * counters.error / errmsg set. */
	int (*start)(struct load_ctx *ctx);
	/* In the load process: stop the work within 1 s (issue 3) and join it.  Main waits
	 * STOP_GRACE_MS (2 s, core/pair.c) for the result before it kills the process and
	 * reports the pair failed. */
	void (*stop)(struct load_ctx *ctx);
	/* In main at the end of the run (and on error or signal): remove scratch files.  Must be
	 * safe to call more than once and without prepare.  NULL: nothing to clean. */
	void (*cleanup)(struct load_ctx *ctx);
	/* In main after each pair with this load that was not interrupted, outside every timed
	 * window and at normal priority: settle what the pair left behind (the disk loads write
	 * back their dirty pages) given the counters c the load reported.  NULL: nothing. */
	void (*after_pair)(struct load_ctx *ctx, const struct load_counters *c);
	/* In main before the run, when the load is in it: one line for the run header (console
	 * and logfile), e.g. Memload's size policy.  Returns 0, or -1 when the load cannot run
	 * (the line then says why).  NULL: no line. */
	int (*describe)(const struct load_config *cfg, char *buf, size_t len);
	/* The simulated task this load runs in the background (Video, X, Custom), or NULL.  A
	 * task is never benchmarked against itself. */
	const struct sim_desc *sim;
};

/* The table of loads, in benchmark order, and lookup by case-insensitive name (-1 if none). */
extern const struct load_desc *const load_table[];
extern const unsigned load_count;
int load_find(const char *name);

/* Helpers for loads built from worker threads: start n workers running fn(ctx, index) until
 * ctx->stop; stop sets the flag and joins them (it cannot fail: workers poll the flag).
 * The workers begin together once all n exist (with -L in the hundreds, creating threads
 * while the first ones burn took seconds).  Start returns 0, or -1 with counters set naming
 * pthread_create and its error (workers already started are stopped). */
int load_threads_start(struct load_ctx *ctx, unsigned n, void *(*fn)(void *));
void load_threads_stop(struct load_ctx *ctx);

/* Start/stop hooks for loads that run a simulated task (Video, X, Custom): the descriptor's
 * .sim. */
int load_sim_start(struct load_ctx *ctx);
void load_sim_stop(struct load_ctx *ctx);

/* Records the first failure of a load from any worker thread: sets counters.error to err and
 * errmsg from the printf-style format; later failures are dropped (reported once). */
void load_fail(struct load_ctx *ctx, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Formats a load's throughput over counters->elapsed_ns from the counters its descriptor
 * reports, e.g. "Write 512 MB/s written" (MB = 10^6 bytes), "Hack 1.2M messages/s",
 * "Memload 3100 MiB/s touched".  buf is empty for a load that counts nothing (None). */
void load_throughput_format(const struct load_desc *d, const struct load_counters *c, char *buf, size_t len);

/* The worker of the Burn load (argument: struct load_worker), reused by Compile. */
void *burn_worker(void *arg);

/* Formats the Memload size policy for the run header as one line, e.g. "Memload: 22.1 GiB =
 * MemAvailable 23.3 GiB - reserve 1.2 GiB (no swap)", or under a tighter memory cgroup limit
 * "Memload: 383.0 MiB = cgroup /sys/fs/cgroup/ib memory.max 512.0 MiB - used 65.0 MiB -
 * reserve 64.0 MiB", from the memory free now.  Returns 0,
 * or -1 when Memload could not run (the line then says why). */
int memload_policy_line(const struct load_config *cfg, char *buf, size_t len);

/* True when the load must stop: load_stop() was called, or (in main, during prepare) a
 * signal asked the run to end. */
static inline bool load_should_stop(struct load_ctx *ctx)
{
	return atomic_load(&ctx->stop) || (ctx->cfg->interrupted && *ctx->cfg->interrupted);
}

/* Adds n to a counter field from any worker thread. */
#define LOAD_COUNT(ctx, field, n) __atomic_fetch_add(&(ctx)->counters.field, (n), __ATOMIC_RELAXED)

#endif
