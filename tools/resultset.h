/* Reading results back for `interbench compare`: our JSON documents (doc/json.md), our classic
 * logfiles and interbench 0.31's (and 0.20's) logfiles, into one form.  Input is untrusted:
 * every problem is reported as one line naming what is wrong, never a crash; reading stops at
 * RS_MAX_BYTES. */
#ifndef IB_RESULTSET_H
#define IB_RESULTSET_H
#include <stdbool.h>
#include <stddef.h>
#include "report/figures.h"  /* enum judged_metric and its names */
#include "explain/json.h"

#define RS_MAX_BYTES (64u << 20)  /* larger input is refused */
/* More pairs, or more repeats of one pair, are refused: every pair is looked up in O(log n)
 * (result_set.by_key), so these bound the work of reading and comparing a result. */
#define RS_MAX_PAIRS 100000
#define RS_MAX_REPEATS 100000

/* Per-repeat values of one metric set; NaN where the source does not carry the figure. */
struct rs_values {
	double m[JM_METRICS];      /* NaN: not in this result */
	/* The within-run confidence interval of each figure (a JSON result's "<key>_ci", schema
	 * version 3, report/figures.c), in the figure's unit; NaN where the source gives none
	 * (older results, logfiles, runs too short for one); hi INFINITY when it is open above
	 * (a p99 with too few samples past it: [low, null]). */
	double lo[JM_METRICS], hi[JM_METRICS];
	/* This repeat, a sub-run of its pair: other processes disturbed it (its "disturbance" past
	 * host/disturb.h's levels, a logfile row's LOG_ROW_DISTURBED line) or its load was seen
	 * stopped; compare leaves such a sub-run out of its decisions. */
	bool disturbed, load_stopped;
	double samples;            /* its latency samples; NaN where the source does not say */
	double periods;            /* its periods with a deadline; NaN where not said */
	bool no_samples;           /* the pair ran but took no latency sample (a starved task;
	                              "-" in tables, null in JSON): its latency figures that the
	                              source carries are +INFINITY, worse than any measured, and
	                              its % deadlines met 0 whatever the source says */
};

/* One (simulation, load) pair and its measured repeats. */
struct rs_pair {
	char sim[96];              /* simulation name and mode words: "Audio", "Video real time" */
	char load[32];
	size_t n, cap;             /* measured repeats in v */
	struct rs_values *v;
	unsigned failed;           /* repeats that failed */
	char why[160];             /* the first failure's reason */
	unsigned disturbed;        /* measured repeats other processes disturbed: a JSON result's
	                              "disturbance" past host/disturb.h's levels, a logfile row's
	                              LOG_ROW_DISTURBED line */
	double outside_cpu_pct;    /* the worst of them: other processes' share of the run's CPUs, %
	                              (NaN when the logfile line does not say) */
	double steal_pct;          /* and its steal, % */
	unsigned load_stopped;     /* measured repeats whose load was seen stopped during the window:
	                              a JSON result's "load_activity" "stopped", a logfile row's
	                              LOG_ROW_LOAD_STOPPED line (host/disturb.h struct load_activity) */
	struct explain_causes causes;   /* --explain's causes over its repeats (JSON only) */
};

/* The reason recorded for a result measured over a window a signal cut short: compare
 * treats it like a failed pair rather than comparing a partial measurement. */
#define RS_INTERRUPTED_WHY "interrupted: partial window"

/* A fact about the machine or set-up a result was measured on (JSON only): compare lists the
 * ones that differ before any figure.  Room for the machine's, its audit's and every
 * run option's. */
#define RS_FACTS 64
struct rs_fact {
	char name[48];             /* "cpu_model", "online_cpus", "smt", "dma_latency_us",
	                              "load_cgroup.cpuset_cpus_effective"... */
	char value[160];
};

struct result_set {
	const char *format;        /* "json" or "logfile" */
	struct rs_fact facts[RS_FACTS];
	unsigned n_facts;
	bool has[JM_METRICS];      /* some pair carries the figure */
	struct rs_pair *pairs;
	size_t n, cap;
	/* Indexes of pairs, balanced search trees (tsearch(3)): by_key orders every pair by
	 * (sim, load), by_name the first pair of each (task name, load); a lookup costs
	 * O(log n) string comparisons whatever the input, so reading and comparing n pairs is
	 * O(n log n).  Kept by the reader, freed by result_set_free. */
	void *by_key, *by_name;
};

/* The pairs compare flagged as regressions (compare --plot draws them,
 * tools/plot.h): their keys and loads, as in struct rs_pair. */
#define CMP_FLAGGED_MAX 32
struct cmp_flagged {
	unsigned n;
	char sim[CMP_FLAGGED_MAX][96];
	char load[CMP_FLAGGED_MAX][32];
};

/* Reads path into *rs: a regular file, or a pipe handed by descriptor ("-", /dev/fd/N), read
 * without blocking on a planted FIFO and refused beyond RS_MAX_BYTES (lib/safefile.h).
 * Returns 0, or -1 with a one-line reason in err, not naming the file (the caller does): a
 * failed system call as "open: No such file or directory", "read: ...". */
int result_set_load(const char *path, struct result_set *rs, char *err, size_t errlen);

/* Parses buf[0..len) (JSON when its first non-blank byte is '{', else a logfile).  When a
 * logfile holds several runs, the last one is kept.  Returns 0, or -1 with err set. */
int result_set_parse(const char *buf, size_t len, struct result_set *rs, char *err, size_t errlen);

/* The pair (sim, load), or NULL; O(log n) through rs->by_key. */
const struct rs_pair *result_set_find(const struct result_set *rs, const char *sim, const char *load);

/* The first pair whose task name (sim up to its first space: the settings' words left out)
 * is that of sim and whose load is load, or NULL; O(log n) through rs->by_name. */
const struct rs_pair *result_set_find_name(const struct result_set *rs, const char *sim, const char *load);

/* The pair key (rs_pair.sim) of a JSON result object r: its simulation, mode words and loads'
 * setting, as the JSON reader keys pairs.  Returns 0, or -1 when r has no simulation. */
int result_set_json_key(const struct json_t *r, char *buf, size_t len);

/* Frees what the set holds; safe on a zeroed or failed set. */
void result_set_free(struct result_set *rs);

#endif
