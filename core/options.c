#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "core/options.h"
#include "lib/pmqos.h"
#include "lib/text.h"
#include "loads/load.h"
#include "sims/sim.h"

enum { OPT_WORKDIR = 256, OPT_FILE_SIZE, OPT_MEM_SIZE, OPT_REPEAT, OPT_JSON, OPT_DMA_LATENCY, OPT_VERSION };

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
	{ "quiet",           no_argument,       NULL, 'q' },
	{ "workdir",         required_argument, NULL, OPT_WORKDIR },
	{ "file-size",       required_argument, NULL, OPT_FILE_SIZE },
	{ "mem-size",        required_argument, NULL, OPT_MEM_SIZE },
	{ "repeat",          required_argument, NULL, OPT_REPEAT },
	{ "json",            required_argument, NULL, OPT_JSON },
	{ "dma-latency",     required_argument, NULL, OPT_DMA_LATENCY },
	{ "version",         no_argument,       NULL, OPT_VERSION },
	{ "help",            no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
static const char short_opts[] = ":l:L:t:B:N:ubcrC:I:m:w:x:W:X:vqh";

void options_init(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->duration_s = 30;
	o->workdir = ".";
	o->repeat = 1;
	o->dma_latency_us = -1;
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

/* The option's canonical name for messages: "-t" for those with a short form, "--workdir"
 * for long-only ones, "?" for an unknown value. */
static const char *opt_display(int c, char *buf, size_t len)
{
	if (c > 0 && c < 256) {
		snprintf(buf, len, "-%c", c);
		return buf;
	}
	for (const struct option *lo = long_opts; lo->name; lo++)
		if (lo->val == c) {
			snprintf(buf, len, "--%s", lo->name);
			return buf;
		}
	return "?";
}

/* What option c accepts as its value, for every message about a bad or missing value. */
static const char *opt_accepted(int c, char *buf, size_t len)
{
	char names[256];
	switch (c) {
	case 'l': snprintf(buf, len, "an integer from 1 to %u", UINT32_MAX); break;
	case 'L': snprintf(buf, len, "an integer from 1 to %u", LOAD_MAX_THREADS); break;
	case 't': snprintf(buf, len, "whole seconds from 1 to %u", OPT_MAX_DURATION_S); break;
	case 'B': case 'N': snprintf(buf, len, "an integer from -20 to 19"); break;
	case 'C': snprintf(buf, len, "an integer from 1 to 100"); break;
	case 'I': snprintf(buf, len, "microseconds from 100 to %u", OPT_MAX_INTERVAL_US); break;
	case 'm': snprintf(buf, len, "a line of text"); break;
	case 'w': case 'x': case 'W': case 'X':
		list_names(names, sizeof(names), c == 'W' || c == 'X');
		snprintf(buf, len, "%s", names);
		break;
	case OPT_WORKDIR: snprintf(buf, len, "an existing directory"); break;
	case OPT_FILE_SIZE: case OPT_MEM_SIZE:
		snprintf(buf, len, "1M to %lluT, with an optional K, M, G or T suffix", OPT_MAX_SIZE_BYTES >> 40);
		break;
	case OPT_REPEAT: snprintf(buf, len, "an integer from 1 to %u", OPT_MAX_REPEAT); break;
	case OPT_JSON: snprintf(buf, len, "a file name, or - for stdout"); break;
	case OPT_DMA_LATENCY: snprintf(buf, len, "microseconds from 0 to %u", PMQOS_MAX_LATENCY_US); break;
	default: snprintf(buf, len, "see -h"); break;
	}
	return buf;
}

/* Sets err to "<option>: <what> '<value>' (accepted: ...)" and returns OPT_ERROR. */
static enum opt_status bad_value(int c, const char *what, const char *arg, char *err, size_t errlen)
{
	char name[64], acc[320];
	snprintf(err, errlen, "%s: %s '%s' (accepted: %s)", opt_display(c, name, sizeof(name)), what,
		 arg, opt_accepted(c, acc, sizeof(acc)));
	return OPT_ERROR;
}

/* Adds a -w/-x/-W/-X name to mask; returns OPT_ERROR with err set on an unknown name. */
static enum opt_status add_name(uint32_t *mask, int c, const char *name, char *err, size_t errlen)
{
	bool sims = c == 'W' || c == 'X';
	int idx = sims ? sim_find(name) : load_find(name);
	if (idx < 0)
		return bad_value(c, sims ? "unknown simulation" : "unknown load", name, err, errlen);
	*mask |= 1u << idx;
	return OPT_OK;
}

/* Options whose value is a bounded unsigned integer: where it goes and its range. */
static bool parse_number_opt(struct options *o, int c, const char *arg, bool *bad)
{
	uint64_t v = 0;
	switch (c) {
	case 'l': *bad = parse_u64(arg, 1, UINT32_MAX, &o->loops_per_ms) != 0; return true;
	case 'I': *bad = parse_u64(arg, 100, OPT_MAX_INTERVAL_US, &o->custom_interval_us) != 0; return true;
	case 'L': *bad = parse_u64(arg, 1, LOAD_MAX_THREADS, &v) != 0; o->load_threads = (unsigned)v; return true;
	case 't': *bad = parse_u64(arg, 1, OPT_MAX_DURATION_S, &v) != 0; o->duration_s = (unsigned)v; return true;
	case 'C': *bad = parse_u64(arg, 1, 100, &v) != 0; o->custom_cpu_pct = (unsigned)v; return true;
	case OPT_REPEAT: *bad = parse_u64(arg, 1, OPT_MAX_REPEAT, &v) != 0; o->repeat = (unsigned)v; return true;
	case OPT_DMA_LATENCY:
		*bad = parse_u64(arg, 0, PMQOS_MAX_LATENCY_US, &v) != 0;
		o->dma_latency_us = *bad ? -1 : (int64_t)v;
		return true;
	case 'B': case 'N': *bad = parse_int(arg, -20, 19, c == 'B' ? &o->bench_nice : &o->load_nice) != 0; return true;
	}
	return false;
}

static enum opt_status parse_one(struct options *o, int c, const char *arg, char *err, size_t errlen)
{
	bool bad = false;
	if (parse_number_opt(o, c, arg, &bad))
		return bad ? bad_value(c, "invalid value", arg, err, errlen) : OPT_OK;
	switch (c) {
	case 'u': o->uniprocessor = true; break;
	case 'b': o->recalibrate = true; break;
	case 'c': o->console_only = true; break;
	case 'r': o->realtime = true; break;
	case 'v': o->verbose = true; break;
	case 'q': o->quiet = true; break;
	case 'm': o->comment = arg; break;
	case 'w': return add_name(&o->load_include, c, arg, err, errlen);
	case 'x': return add_name(&o->load_exclude, c, arg, err, errlen);
	case 'W': return add_name(&o->sim_include, c, arg, err, errlen);
	case 'X': return add_name(&o->sim_exclude, c, arg, err, errlen);
	case OPT_WORKDIR:
		if (!*arg)
			return bad_value(c, "empty directory name", arg, err, errlen);
		o->workdir = arg;
		break;
	case OPT_FILE_SIZE:
	case OPT_MEM_SIZE: {
		uint64_t *bytes = c == OPT_FILE_SIZE ? &o->file_size_bytes : &o->mem_size_bytes;
		if (parse_size(arg, bytes) || *bytes < OPT_MIN_SIZE_BYTES || *bytes > OPT_MAX_SIZE_BYTES)
			return bad_value(c, "invalid size", arg, err, errlen);
		break;
	}
	case OPT_JSON:
		if (!*arg)
			return bad_value(c, "empty file name", arg, err, errlen);
		o->json_path = arg;
		break;
	case 'h': return OPT_HELP;
	case OPT_VERSION: return OPT_SHOW_VERSION;
	default:
		snprintf(err, errlen, "internal: unhandled option %d", c);
		return OPT_ERROR;
	}
	return OPT_OK;
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
		if (c == ':') {
			char acc[320];
			snprintf(err, errlen, "%s: missing value (accepted: %s)",
				 opt_display(optopt, name, sizeof(name)), opt_accepted(optopt, acc, sizeof(acc)));
			return OPT_ERROR;
		}
		if (c == '?') {
			snprintf(err, errlen, "%s: unknown option (see -h for the accepted ones)",
				 optopt > 0 && optopt < 256 ? opt_display(optopt, name, sizeof(name)) : argv[optind - 1]);
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
		"       %s export [--format lava|kcidb] RESULT  (see %s export --help)\n"
		"Linux interactivity benchmark: simulated interactive tasks against background loads.\n\n"
		"  -l, --loops-per-ms N     use N loops per ms (default: saved or measured)\n"
		"  -L, --load-threads N     threads of Burn, Ring and Compile, groups of Hack\n"
		"                           (default: online CPUs)\n"
		"  -t, --time S             seconds to run each benchmark (default: 30)\n"
		"  -B, --bench-nice N       nice of the benchmarked task, -20..19 (default: 0)\n"
		"  -N, --load-nice N        nice of the loads, -20..19 (default: 0)\n"
		"  -u, --uniprocessor       pin every task to CPU 0\n"
		"  -b, --recalibrate        measure loops_per_ms even if a saved value matches\n"
		"  -c, --console            console only, no logfile\n"
		"  -r, --realtime           benchmark the tasks as SCHED_FIFO (needs CAP_SYS_NICE\n"
		"                           or an RLIMIT_RTPRIO of at least 3)\n"
		"  -C, --custom-cpu P       Custom task: P%% CPU per period (1..100), needs -I\n"
		"  -I, --custom-interval U  Custom task: period of U microseconds, needs -C\n"
		"  -m, --comment TEXT       comment for the logfile header\n"
		"  -w, --load NAME          run only this load (repeatable)\n"
		"  -x, --exclude-load NAME  skip this load (repeatable)\n"
		"  -W, --sim NAME           benchmark only this simulated task (repeatable)\n"
		"  -X, --exclude-sim NAME   skip this simulated task (repeatable)\n"
		"  -v, --verbose            more detail on the console\n"
		"  -q, --quiet              no progress line (it is shown on stderr only when\n"
		"                           stderr is a terminal, and never in results)\n"
		"      --workdir DIR        directory for disk load scratch files (default: .)\n"
		"      --file-size SIZE     disk load file size, 1M to 1048576T (K/M/G/T suffixes)\n"
		"      --mem-size SIZE      Memload size, 1M to 1048576T (K/M/G/T suffixes)\n"
		"      --repeat N           run every pair N times, in rounds; tables show medians\n"
		"      --json FILE          also write the results as JSON to FILE (- for stdout,\n"
		"                           the tables then go to stderr); see doc/json.md\n"
		"      --dma-latency US     hold a CPU wakeup latency limit of US microseconds via\n"
		"                           /dev/cpu_dma_latency during the run (as cyclictest does;\n"
		"                           0 keeps CPUs out of deep idle states; needs root)\n"
		"      --version            print the version and exit\n"
		"  -h, --help               this help\n\n"
		"Simulated tasks:\n", prog, prog, prog, prog, prog);
	for (unsigned i = 0; i < sim_count; i++)
		fprintf(f, "  %-8s %s\n", sim_table[i]->name, sim_table[i]->help);
	fprintf(f, "Loads:\n");
	for (unsigned i = 0; i < load_count; i++)
		fprintf(f, "  %-8s %s\n", load_table[i]->name, load_table[i]->help);
	fprintf(f, "Names are case-insensitive.\n");
}
