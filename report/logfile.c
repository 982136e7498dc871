#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "explain/text.h"
#include "host/machine.h"
#include "lib/safefile.h"
#include "lib/text.h"
#include "report/logfile.h"
#include "report/logformat.h"
#include "report/table.h"

/* Why the entry st at a logfile name must not be appended to, or NULL: anything but a regular
 * file of its own that only the running user or root can have written. */
static const char *log_refusal(const struct stat *st, char *buf, size_t len)
{
	if (S_ISLNK(st->st_mode))
		return "is a symbolic link; not followed";
	if (!S_ISREG(st->st_mode))
		return "is not a regular file";
	if (st->st_nlink > 1)
		return "has other hard links";
	return safe_stat_trusted(st, buf, len) ? NULL : buf;
}

/* Opens the existing entry st at path for appending when log_refusal has nothing against it,
 * checked again on what was opened (never following a link, never blocking).  Returns the
 * descriptor, or -2 with why set. */
static int open_existing(const char *path, const struct stat *st, char *why, size_t whylen)
{
	struct stat got;
	const char *bad = log_refusal(st, why, whylen);
	if (bad) {
		if (bad != why)
			snprintf(why, whylen, "%s", bad);
		return -2;
	}
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd >= 0 && fstat(fd, &got) == 0 && got.st_dev == st->st_dev && got.st_ino == st->st_ino &&
	    !log_refusal(&got, why, whylen) && fcntl(fd, F_SETFL, O_APPEND) == 0)
		return fd;
	if (fd >= 0)
		close(fd);
	snprintf(why, whylen, "changed while it was opened");
	return -2;
}

/* Opens path for appending: an existing entry as open_existing allows, else a new file
 * created exclusively.  Returns the descriptor, -1 with err set on a failure, or -2 with why
 * set when the name is not ours to append to. */
static int open_log(const char *path, char *why, size_t whylen, char *err, size_t errlen)
{
	struct stat st;
	for (int tries = 0; tries < 2; tries++) {   /* a name made between lstat and open: once more */
		if (lstat(path, &st) == 0)
			return open_existing(path, &st, why, whylen);
		if (errno != ENOENT)
			break;
		int fd = safe_create_new(AT_FDCWD, path, O_APPEND);
		if (fd >= 0 || errno != EEXIST) {
			if (fd < 0)
				snprintf(err, errlen, "open %s: %s", path, strerror(errno));
			return fd;
		}
	}
	snprintf(err, errlen, "lstat %s: %s", path, strerror(errno));
	return -1;
}

/* Takes the run's exclusive lock on fd and makes it a stream.  Returns it, NULL with *busy set
 * when another live run holds the lock, or NULL with err set. */
static FILE *lock_log(int fd, const char *path, bool *busy, char *err, size_t errlen)
{
	*busy = false;
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		*busy = errno == EWOULDBLOCK;
		if (!*busy)
			snprintf(err, errlen, "flock %s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	FILE *f = fdopen(fd, "a");
	if (!f) {
		snprintf(err, errlen, "fdopen %s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

/* Creates "<release>-<datestamp>-XXXXXX.log", a name nobody can have taken
 * (safe_create_unique), when every sibling is locked or not ours. */
static FILE *open_unique(const struct run_info *info, char *path, size_t len, char *err, size_t errlen)
{
	int n = snprintf(path, len, "%s-%s-XXXXXX.log", info->kernel_release, info->datestamp);
	int fd = n < 0 || (size_t)n >= len ? -1 : safe_create_unique(AT_FDCWD, path, 4, O_APPEND);
	if (fd < 0 || fchmod(fd, 0644) != 0) {
		snprintf(err, errlen, "create %s: %s", path, n < 0 || (size_t)n >= len ? "name too long" : strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	flock(fd, LOCK_EX | LOCK_NB);   /* a new name of our own: taken by nobody else */
	FILE *f = fdopen(fd, "a");
	if (!f) {
		snprintf(err, errlen, "fdopen %s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

/* The name of sibling k (1: "<release>.log", else "<release>-k.log").  Returns 0, or -1. */
static int sibling_name(const struct run_info *info, unsigned k, char *path, size_t len)
{
	int n = k == 1 ? snprintf(path, len, "%s.log", info->kernel_release) :
			 snprintf(path, len, "%s-%u.log", info->kernel_release, k);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

FILE *logfile_open(const struct run_info *info, char *path, size_t len, char *note, size_t notelen, char *err,
		   size_t errlen)
{
	char why[256], first[PATH_MAX + 300] = "";
	note[0] = '\0';
	for (unsigned k = 1; k <= LOGFILE_MAX_SIBLINGS; k++) {
		bool busy;
		if (sibling_name(info, k, path, len) != 0) {
			snprintf(err, errlen, "logfile name for kernel %s is too long", info->kernel_release);
			return NULL;
		}
		int fd = open_log(path, why, sizeof(why), err, errlen);
		if (fd == -1)
			return NULL;
		if (fd == -2 && !first[0])
			snprintf(first, sizeof(first), "%s %s", path, why);
		FILE *f = fd >= 0 ? lock_log(fd, path, &busy, err, errlen) : NULL;
		if (f && first[0])
			snprintf(note, notelen, "%s; writing %s instead", first, path);
		if (f || (fd >= 0 && !busy))
			return f;
	}
	FILE *f = open_unique(info, path, len, err, errlen);
	if (f)
		snprintf(note, notelen, "%s.log and its %u siblings are in use by other runs%s%s; writing %s instead",
			 info->kernel_release, LOGFILE_MAX_SIBLINGS - 1, first[0] ? " or not ours to append to: " : "",
			 first, path);
	return f;
}

void logfile_audit(FILE *f, const struct audit *a)
{
	char buf[8192], text[8192];
	FILE *m = fmemopen(buf, sizeof(buf), "w");
	if (!m)
		return;
	audit_print(m, a);
	fclose(m);
	fprintf(f, "Audit (interbench --audit):\n");
	for (char *save = NULL, *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		text_escape_line(line, text, sizeof(text));
		fprintf(f, "  %s\n", text);
	}
}

void logfile_concurrent(FILE *f, long pid)
{
	fprintf(f, "Another interbench run (pid %ld) was running at the same time: figures measured under its load\n", pid);
}

/* The likely causes of check c's speed into buf: "; the check got 54 % of its CPU (...)", or
 * with all of it the CPU's own speed (the host's, in a virtual machine vm); the CPU's
 * frequency; a saved value (saved_kept). */
static void drift_causes(const struct calib_drift_check *c, bool vm, bool saved_kept, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	if (c->speed.cpu_share_ppm < 950000)
		at += (size_t)snprintf(buf, len, "; the check got %.0f %% of its CPU (a task of higher or equal priority, "
				       "or the hypervisor's steal)", c->speed.cpu_share_ppm / 1e4);
	else if (!c->speed.freq_khz)
		at += (size_t)snprintf(buf, len, "; it had all of its CPU time and cpufreq says nothing: %s",
				       vm ? "in this virtual machine the host may share its core (an SMT sibling running "
					    "another guest) or clock it down" : "the CPU's own speed changed (its clock, a busy SMT sibling)");
	if (c->speed.freq_khz && at < len)
		at += (size_t)snprintf(buf + at, len - at, "; CPU %d at %.0f MHz (cpufreq scaling_cur_freq)", c->speed.cpu,
				       c->speed.freq_khz / 1e3);
	if (saved_kept && at < len)
		snprintf(buf + at, len - at, "; the run's value is a saved one, measured at another time (-b measures "
			 "it again)");
}

void logfile_drift(FILE *f, const struct calib_drift *d, const char *after, bool saved_kept)
{
	const struct calib_drift_check *w = calib_drift_worst(d);
	char text[1024];
	size_t at = (size_t)snprintf(text, sizeof(text), LOG_DRIFT "the CPU ran at another speed than calibrated: %u of "
				     "%u checks after pairs (loops per ms of the check's own CPU time, the CPUs at rest) fell "
				     "outside the calibration's %.0f-%.0f", d->off, d->checks,
				     d->reference.slowest_loops_per_ms, d->reference.fastest_loops_per_ms);
	if (w && at < sizeof(text)) {
		char causes[400];
		double v = w->speed.loops_per_ms, slow = v < d->reference.slowest_loops_per_ms;
		double end = slow ? d->reference.slowest_loops_per_ms : d->reference.fastest_loops_per_ms;
		drift_causes(w, d->virtual_machine, saved_kept, causes, sizeof(causes));
		at += (size_t)snprintf(text + at, sizeof(text) - at, "; the farthest %.0f (%+.1f %% from the range) after "
				       "%s at %.0f s on CPU %d%s", v, (v - end) * 100 / end, after, w->at_ns / 1e9,
				       w->speed.cpu, causes);
	}
	if (at < sizeof(text))
		snprintf(text + at, sizeof(text) - at, "; fixed-work figures (ProAudio) may be off");
	fprintf(f, "\n");
	text_wrap(f, text, TABLE_LEGEND_COLS, "  ");   /* within 100 columns, after the tables */
}

/* "Cgroup of the loads: PATH (created for the run): cpu.weight 1, ...": where --bench-cgroup
 * or --load-cgroup placed a side (who: "task", "loads"), or one of its alternatives, as it was
 * at the start. */
static void header_cgroup(FILE *f, const char *who, const struct cgplace_facts *cg)
{
	char path[PATH_MAX + 64], raw[1024], text[1024];
	text_escape_line(cg->path, path, sizeof(path));
	text_escape_line(cgplace_facts_text(cg, raw, sizeof(raw)), text, sizeof(text));
	fprintf(f, "Cgroup of the %s: %s%s%s%s\n", who, path, cg->created ? " (created for the run)" : "", text[0] ? ": " : "",
		text);
}

/* The header's lines on what confined the run: its CPUs, a CPU quota, a realtime budget below
 * the kernel's default (with a warning), a narrower cpuset, another run at the same time. */
static void header_confinement(FILE *f, const struct run_info *info)
{
	char text[512];
	machine_allowed_text(info->allowed_cpus, info->cpus, info->allowed_cpu_list ? info->allowed_cpu_list : "",
			     text, sizeof(text));
	fprintf(f, "CPUs this run may use: %s (sched_getaffinity)\n", text);
	const struct cgroup_cpu_limits *cg = info->cgroup;
	if (cg && cg->quota_us > 0) {
		cgroup_quota_text(cg, text, sizeof(text));
		fprintf(f, "CPU quota of its cgroup: %s (%s)\n", text, cg->quota_file);
	}
	if (cg && cgroup_rt_budget_tight(cg)) {
		cgroup_rt_budget_text(cg, text, sizeof(text));
		fprintf(f, "Realtime budget: %s (%s)\n", text, cg->rt_file);
		fprintf(f, "warning: a realtime budget %s\n", audit_rt_budget_hint(true));
	}
	unsigned in_set = cg ? machine_cpu_list_count(cg->cpuset) : 0;
	if (in_set && in_set < info->cpus)
		fprintf(f, "Cpuset of its cgroup: %s (%s)\n", cg->cpuset, cg->cpuset_file);
	for (int side = 0; info->cgroups && side < 2; side++)
		for (unsigned i = 0; i < info->cgroups[side].n; i++)
			header_cgroup(f, side ? "loads" : "task", &info->cgroups[side].v[i].facts);
	if (info->concurrent_pid > 0)
		logfile_concurrent(f, info->concurrent_pid);
}

/* "Calibration: ...": how loops_per_ms was measured or its saved value checked; nothing with -l. */
static void header_calibration(FILE *f, const struct calib_check *c)
{
	if (!c || (!c->remeasured && !c->saved_loops_per_ms))
		return;
	fprintf(f, LOG_CALIBRATION);
	if (c->saved_loops_per_ms)
		fprintf(f, "saved value %llu, a quick measurement %+.1f%% off it (margin %.0f%%)%s",
			(unsigned long long)c->saved_loops_per_ms, calib_diff_pct(c->saved_loops_per_ms, c->quick_loops_per_ms),
			CALIB_DISAGREE_PCT, !c->remeasured ? ", kept\n" : c->replaced ? ", replaced by the " : ", kept: the ");
	if (c->remeasured)
		fprintf(f, "fastest of %u measurements; the median %.1f%%, the slowest %.1f%% below it\n",
			c->full.measurements, c->full.median_below_pct, c->full.slowest_below_pct);
}

/* How long each pair ran: "for 30 seconds", or the adaptive window and its precision. */
static void header_window(FILE *f, const struct run_info *info)
{
	const struct precision *p = info->precision;
	if (!p) {
		fprintf(f, "for %u seconds\n", info->duration_s);
		return;
	}
	if (info->budget_s) {
		fprintf(f, "in sub-runs of %u seconds within a budget of %u seconds, %u to %u a pair, until "
			"decided or known (precision: p99 latency %g%%, %% deadlines met %g points)\n",
			info->subrun_s, info->budget_s, info->min_subruns, info->max_subruns, p->latency_p99_pct,
			p->deadlines_met_pt);
		return;
	}
	fprintf(f, "until its figures are known, %u to %u seconds (precision: mean latency %g%%, p99 %g%% "
		"or %u us, %% desired CPU %g and %% deadlines met %g points)\n", info->min_time_s, info->max_time_s,
		p->latency_mean_pct, p->latency_p99_pct, STOP_LATENCY_FLOOR_NS / 1000, p->desired_cpu_pt,
		p->deadlines_met_pt);
}

void logfile_header(FILE *f, const struct run_info *info, const struct table_legend *legend)
{
	static const struct table_legend classic = { .deadlines = true };
	fprintf(f, LOG_USING "%llu" LOG_USING_LOOPS " (%s), running every load ", (unsigned long long)info->loops_per_ms,
		info->loops_source);
	header_window(f, info);
	header_calibration(f, info->calib);
	fprintf(f, LOG_KERNEL "%s at datestamp %s\n", info->kernel_release, info->datestamp);
	char text[2 * sizeof(info->kernel_version)];
	text_escape_line(info->kernel_version, text, sizeof(text));
	fprintf(f, LOG_KERNEL_VERSION "%s, %u CPUs online, %u load threads\n", text, info->cpus, info->load_threads);
	header_confinement(f, info);
	if (info->dma_latency_us >= 0)
		fprintf(f, "CPU wakeup latency limit held at %lld us (/dev/cpu_dma_latency)\n",
			(long long)info->dma_latency_us);
	table_legend(f, legend ? legend : &classic);
	if (info->settings && info->settings[0])
		fprintf(f, "%s\n", info->settings);
	if (info->workload_options && info->workload_options[0]) {
		char text[4096];
		text_escape_line(info->workload_options, text, sizeof(text));
		fprintf(f, "Workload options: %s\n", text);
	}
	if (info->comment) {
		char comment[4096];
		text_escape_line(info->comment, comment, sizeof(comment));
		fprintf(f, LOG_COMMENT "%s\n", comment);
	}
	fprintf(f, "\n");
}

void logfile_why(FILE *f, const struct explain_summary *s, const char *load_name, unsigned repeat,
		 uint64_t window_ns)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m) {   /* out of memory: the lines as they come, unwrapped */
		explain_text_why(f, "          " LOG_ROW_WHY, s, load_name, repeat, window_ns);
		return;
	}
	explain_text_why(m, "          " LOG_ROW_WHY, s, load_name, repeat, window_ns);
	if (fclose(m) == 0 && text)
		for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			text_wrap(f, line, TABLE_LEGEND_COLS, "          " LOG_ROW_WHY "   ");
	free(text);
}
