#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "core/options.h"
#include "core/text.h"
#include "loads/load.h"
#include "sims/sim.h"

enum { OPT_WORKDIR = 256, OPT_FILE_SIZE, OPT_MEM_SIZE, OPT_REPEAT, OPT_JSON };

static const struct option long_opts[] = {
	{ "loops-per-ms",    required_argument, NULL, 'l' },
	{ "load-threads",    required_argument, NULL, 'L' },
	{ "time",            required_argument, NULL, 't' },
	{ "bench-nice",      required_argument, NULL, 'B' },
	{ "load-nice",       required_argument, NULL, 'N' },
	{ "uniprocessor",    no_argument,       NULL, 'u' },
	{ "recalibrate",     no_argument,       NULL, 'b' },
	{ "console",         no_argument,       NULL, 'c' },
	{ "realtime",        no_argument,       NULL, 'r' },
	{ "custom-cpu",      required_argument, NULL, 'C' },
	{ "custom-interval", required_argument, NULL, 'I' },
	{ "comment",         required_argument, NULL, 'm' },
	{ "load",            required_argument, NULL, 'w' },
	{ "exclude-load",    required_argument, NULL, 'x' },
	{ "sim",             required_argument, NULL, 'W' },
	{ "exclude-sim",     required_argument, NULL, 'X' },
	{ "verbose",         no_argument,       NULL, 'v' },
	{ "workdir",         required_argument, NULL, OPT_WORKDIR },
	{ "file-size",       required_argument, NULL, OPT_FILE_SIZE },
	{ "mem-size",        required_argument, NULL, OPT_MEM_SIZE },
	{ "repeat",          required_argument, NULL, OPT_REPEAT },
	{ "json",            required_argument, NULL, OPT_JSON },
	{ "help",            no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
static const char short_opts[] = ":l:L:t:B:N:ubcrC:I:m:w:x:W:X:vh";

void options_init(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->duration_s = 30;
	o->workdir = ".";
	o->repeat = 1;
}

int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_int(const char *s, long min, long max, int *out)
{
	char *end;
	if (!s || !*s || *s == ' ' || *s == '+')
		return -1;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = (int)v;
	return 0;
}

int parse_size(const char *s, uint64_t *bytes)
{
	char *end;
	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	unsigned shift = 0;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 't': case 'T': shift = 40; end++; break;
	}
	if (shift && (end[0] == 'i' || end[0] == 'I') && (end[1] == 'b' || end[1] == 'B'))
		end += 2;
	else if (end[0] == 'b' || end[0] == 'B')
		end++;
	if (*end || v == 0 || (shift && v > (UINT64_MAX >> shift)))
		return -1;
	*bytes = (uint64_t)v << shift;
	return 0;
}

static void list_names(char *buf, size_t len, bool sims)
{
	size_t used = 0;
	unsigned n = sims ? sim_count : load_count;
	buf[0] = '\0';
	for (unsigned i = 0; i < n && used < len; i++) {
		const char *name = sims ? sim_table[i]->name : load_table[i]->name;
		int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", name);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

/* Adds a -w/-x/-W/-X name to mask; returns -1 with err set on an unknown name. */
static int add_name(uint32_t *mask, bool sims, int opt, const char *name, char *err, size_t errlen)
{
	int idx = sims ? sim_find(name) : load_find(name);
	if (idx < 0) {
		char names[256];
		list_names(names, sizeof(names), sims);
		snprintf(err, errlen, "-%c: unknown %s '%s' (accepted: %s)", opt,
			 sims ? "simulation" : "load", name, names);
		return -1;
	}
	*mask |= 1u << idx;
	return 0;
}

#define BAD(...) do { snprintf(err, errlen, __VA_ARGS__); return OPT_ERROR; } while (0)

static enum opt_status parse_one(struct options *o, int c, const char *arg, char *err, size_t errlen)
{
	uint64_t v;
	switch (c) {
	case 'l':
		if (parse_u64(arg, 1, UINT32_MAX, &o->loops_per_ms))
			BAD("-l: invalid loops_per_ms '%s' (accepted: an integer from 1 to %u)", arg, UINT32_MAX);
		break;
	case 'L':
		if (parse_u64(arg, 1, LOAD_MAX_THREADS, &v))
			BAD("-L: invalid load thread count '%s' (accepted: an integer from 1 to %u)", arg, LOAD_MAX_THREADS);
		o->load_threads = (unsigned)v;
		break;
	case 't':
		if (parse_u64(arg, 1, OPT_MAX_DURATION_S, &v))
			BAD("-t: invalid duration '%s' (accepted: whole seconds from 1 to %u)", arg, OPT_MAX_DURATION_S);
		o->duration_s = (unsigned)v;
		break;
	case 'B':
	case 'N':
		if (parse_int(arg, -20, 19, c == 'B' ? &o->bench_nice : &o->load_nice))
			BAD("-%c: invalid nice value '%s' (accepted: an integer from -20 to 19)", c, arg);
		break;
	case 'u': o->uniprocessor = true; break;
	case 'b': o->recalibrate = true; break;
	case 'c': o->console_only = true; break;
	case 'r': o->realtime = true; break;
	case 'v': o->verbose = true; break;
	case 'C':
		if (parse_u64(arg, 1, 100, &v))
			BAD("-C: invalid CPU percentage '%s' (accepted: an integer from 1 to 100)", arg);
		o->custom_cpu_pct = (unsigned)v;
		break;
	case 'I':
		if (parse_u64(arg, 100, OPT_MAX_INTERVAL_US, &o->custom_interval_us))
			BAD("-I: invalid interval '%s' (accepted: microseconds from 100 to %u)", arg, OPT_MAX_INTERVAL_US);
		break;
	case 'm': o->comment = arg; break;
	case 'w': return add_name(&o->load_include, false, c, arg, err, errlen) ? OPT_ERROR : OPT_OK;
	case 'x': return add_name(&o->load_exclude, false, c, arg, err, errlen) ? OPT_ERROR : OPT_OK;
	case 'W': return add_name(&o->sim_include, true, c, arg, err, errlen) ? OPT_ERROR : OPT_OK;
	case 'X': return add_name(&o->sim_exclude, true, c, arg, err, errlen) ? OPT_ERROR : OPT_OK;
	case OPT_WORKDIR:
		if (!*arg)
			BAD("--workdir: empty directory name (accepted: an existing directory)");
		o->workdir = arg;
		break;
	case OPT_FILE_SIZE:
	case OPT_MEM_SIZE:
		if (parse_size(arg, c == OPT_FILE_SIZE ? &o->file_size_bytes : &o->mem_size_bytes) ||
		    (c == OPT_FILE_SIZE ? o->file_size_bytes : o->mem_size_bytes) < (1u << 20))
			BAD("--%s: invalid size '%s' (accepted: at least 1M, with an optional K, M, G or T suffix)",
			    c == OPT_FILE_SIZE ? "file-size" : "mem-size", arg);
		break;
	case OPT_REPEAT:
		if (parse_u64(arg, 1, OPT_MAX_REPEAT, &v))
			BAD("--repeat: invalid repeat count '%s' (accepted: an integer from 1 to %u)", arg, OPT_MAX_REPEAT);
		o->repeat = (unsigned)v;
		break;
	case OPT_JSON:
		if (!*arg)
			BAD("--json: empty file name (accepted: a file name, or - for stdout)");
		o->json_path = arg;
		break;
	case 'h': return OPT_HELP;
	default: BAD("internal: unhandled option %d", c);
	}
	return OPT_OK;
}

/* Name of the option getopt stopped at, for messages about missing arguments. */
static void opt_name(char *buf, size_t len, int optopt_val, char *const argv_at)
{
	if (optopt_val)
		snprintf(buf, len, "-%c", optopt_val);
	else
		snprintf(buf, len, "%s", argv_at ? argv_at : "?");
}

static enum opt_status parse_argv(struct options *o, int argc, char **argv, char *err, size_t errlen);

enum opt_status options_parse(struct options *o, int argc, char **argv, char *err, size_t errlen)
{
	enum opt_status st = parse_argv(o, argc, argv, err, errlen);
	if (st == OPT_ERROR)
		text_printable_line(err);
	return st;
}

static enum opt_status parse_argv(struct options *o, int argc, char **argv, char *err, size_t errlen)
{
	int c;
	optind = 0; /* full reset, so the parser can run more than once (tests) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1) {
		char name[64];
		if (c == '?' || c == ':') {
			opt_name(name, sizeof(name), optopt, argv[optind - 1]);
			snprintf(err, errlen, c == ':' ? "%s: missing value (see -h)" :
				 "%s: unknown option (see -h for the accepted ones)", name);
			return OPT_ERROR;
		}
		enum opt_status st = parse_one(o, c, optarg, err, errlen);
		if (st != OPT_OK)
			return st;
	}
	if (optind < argc) {
		snprintf(err, errlen, "%s: unexpected argument (interbench takes options only; see -h)", argv[optind]);
		return OPT_ERROR;
	}
	if ((o->custom_cpu_pct != 0) != (o->custom_interval_us != 0)) {
		snprintf(err, errlen, o->custom_cpu_pct ?
			 "-C: given without -I (accepted: -C percent together with -I microseconds)" :
			 "-I: given without -C (accepted: -I microseconds together with -C percent)");
		return OPT_ERROR;
	}
	return OPT_OK;
}

void options_usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s [options]\n"
		"       %s compare [--threshold SPEC] OLD NEW   (see %s compare --help)\n"
		"Linux interactivity benchmark: simulated interactive tasks against background loads.\n\n"
		"  -l, --loops-per-ms N     use N loops per ms (default: saved or measured)\n"
		"  -L, --load-threads N     threads for Burn, Ring and Hack (default: online CPUs)\n"
		"  -t, --time S             seconds to run each benchmark (default: 30)\n"
		"  -B, --bench-nice N       nice of the benchmarked task, -20..19 (default: 0)\n"
		"  -N, --load-nice N        nice of the loads, -20..19 (default: 0)\n"
		"  -u, --uniprocessor       pin every task to CPU 0\n"
		"  -b, --recalibrate        measure loops_per_ms even if a saved value matches\n"
		"  -c, --console            console only, no logfile\n"
		"  -r, --realtime           benchmark the tasks as SCHED_FIFO (needs CAP_SYS_NICE)\n"
		"  -C, --custom-cpu P       Custom task: P%% CPU per period (1..100), needs -I\n"
		"  -I, --custom-interval U  Custom task: period of U microseconds, needs -C\n"
		"  -m, --comment TEXT       comment for the logfile header\n"
		"  -w, --load NAME          run only this load (repeatable)\n"
		"  -x, --exclude-load NAME  skip this load (repeatable)\n"
		"  -W, --sim NAME           benchmark only this simulated task (repeatable)\n"
		"  -X, --exclude-sim NAME   skip this simulated task (repeatable)\n"
		"  -v, --verbose            more detail on the console\n"
		"      --workdir DIR        directory for disk load scratch files (default: .)\n"
		"      --file-size SIZE     disk load file size (K/M/G suffixes)\n"
		"      --mem-size SIZE      Memload size (K/M/G suffixes)\n"
		"      --repeat N           run every pair N times, in rounds; tables show medians\n"
		"      --json FILE          also write the results as JSON to FILE (- for stdout,\n"
		"                           the tables then go to stderr); see doc/json.md\n"
		"  -h, --help               this help\n\n"
		"Simulated tasks:\n", prog, prog, prog);
	for (unsigned i = 0; i < sim_count; i++)
		fprintf(f, "  %-8s %s\n", sim_table[i]->name, sim_table[i]->help);
	fprintf(f, "Loads:\n");
	for (unsigned i = 0; i < load_count; i++)
		fprintf(f, "  %-8s %s\n", load_table[i]->name, load_table[i]->help);
	fprintf(f, "Names are case-insensitive.\n");
}
