/* Command line: every interbench 0.31 option with a long form, parsed strictly. */
#ifndef IB_OPTIONS_H
#define IB_OPTIONS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define OPT_MAX_DURATION_S 86400u     /* -t upper bound: one day per benchmark */
#define OPT_MAX_INTERVAL_US 10000000u /* -I upper bound: 10 s */
#define OPT_MAX_REPEAT 1000u          /* --repeat upper bound */
/* --file-size and --mem-size bounds: 1 MiB to 1 EiB (1048576T).  No file or memory is that
 * large; the bound keeps every figure derived from a size (a need with its margin, twice for
 * Compile) far inside uint64_t and off_t. */
#define OPT_MIN_SIZE_BYTES (1ull << 20)
#define OPT_MAX_SIZE_BYTES (1ull << 60)

struct options {
	uint64_t loops_per_ms;      /* -l; 0 = saved or measured */
	unsigned load_threads;      /* -L; 0 = online CPUs */
	unsigned duration_s;        /* -t seconds per benchmark (default 30) */
	int bench_nice;             /* -B */
	int load_nice;              /* -N */
	bool uniprocessor;          /* -u: pin everything to CPU 0 */
	bool recalibrate;           /* -b */
	bool console_only;          /* -c */
	bool realtime;              /* -r */
	bool verbose;               /* -v */
	bool quiet;                 /* -q: no progress line on stderr */
	unsigned custom_cpu_pct;    /* -C, 1..100 */
	uint64_t custom_interval_us;/* -I */
	const char *comment;        /* -m */
	uint32_t sim_include, sim_exclude;   /* -W / -X: bit i = sim_table[i] */
	uint32_t load_include, load_exclude; /* -w / -x: bit i = load_table[i] */
	const char *workdir;        /* --workdir (default ".") */
	uint64_t file_size_bytes;   /* --file-size, 0 = default policy */
	uint64_t mem_size_bytes;    /* --mem-size, 0 = default policy */
	unsigned repeat;            /* --repeat: runs of every pair, in rounds (default 1) */
	const char *json_path;      /* --json FILE ("-" = stdout), or NULL */
	int64_t dma_latency_us;     /* --dma-latency: CPU wakeup latency limit held during the
	                               run, microseconds; -1 = none (the default) */
};

/* Parse results. */
enum opt_status { OPT_OK = 0, OPT_HELP = 1, OPT_ERROR = 2, OPT_SHOW_VERSION = 3 /* --version */ };

/* Sets the defaults. */
void options_init(struct options *o);

/* Parses argv with getopt_long (resetting optind first).  On OPT_ERROR, err holds one line
 * naming the option, the value and what is accepted.  Cross-option checks (-C without -I)
 * are made here too.  Pure: touches nothing but *o and err. */
enum opt_status options_parse(struct options *o, int argc, char **argv, char *err, size_t errlen);

/* Writes the usage text (every option, every sim and load) to f. */
void options_usage(FILE *f, const char *prog);

/* Strict number parsers: the whole string must be a decimal integer within [min, max].
 * Return 0, or -1 on anything else (no atoi). */
int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int parse_int(const char *s, long min, long max, int *out);

/* Parses a size with an optional K, M, G or T suffix (powers of 1024, optional trailing
 * "iB"/"B"), at least 1 byte.  Returns 0, or -1. */
int parse_size(const char *s, uint64_t *bytes);

#endif
