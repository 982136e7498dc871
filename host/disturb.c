/* What happened on a run's CPUs besides the run (host/disturb.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host/disturb.h"
#include "lib/timeutil.h"

/* Adds one line of /proc/stat to *out when it is "cpuN ..." with N in cpus (NULL: any).
 * Returns 1 when added, 0 when not a selected CPU's line, -1 when a CPU line is malformed. */
static int add_cpu_line(const char *line, const struct optspec_cpus *cpus, struct cpu_ticks *out)
{
	unsigned cpu;
	int used = 0;
	if (strncmp(line, "cpu", 3) != 0 || line[3] < '0' || line[3] > '9')
		return 0;  /* the aggregate "cpu " line, or another line */
	if (sscanf(line, "cpu%u%n", &cpu, &used) != 1)
		return -1;
	if (cpus && !optspec_cpu_isset(cpus, cpu))
		return 0;
	/* user nice system idle iowait irq softirq steal: only the first four are always there */
	uint64_t v[8] = { 0 };
	int n = sscanf(line + used, "%" SCNu64 "%" SCNu64 "%" SCNu64 "%" SCNu64 "%" SCNu64 "%" SCNu64 "%" SCNu64
		       "%" SCNu64, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	if (n < 4)
		return -1;
	out->busy += v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	out->steal += v[7];
	out->cpus++;
	return 1;
}

int disturb_parse_stat(const char *text, const struct optspec_cpus *cpus, struct cpu_ticks *out)
{
	memset(out, 0, sizeof(*out));
	for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		if (add_cpu_line(line, cpus, out) < 0)
			return -1;
	return out->cpus ? 0 : -1;
}

int disturb_parse_pid_stat(const char *text, uint64_t *ticks)
{
	const char *p = strrchr(text, ')');
	uint64_t utime, stime;
	if (!p)
		return -1;
	/* after ") ": field 3 (state) is the first; utime and stime are fields 14 and 15 */
	if (sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %" SCNu64 " %" SCNu64, &utime, &stime) != 2)
		return -1;
	*ticks = utime + stime;
	return 0;
}

/* Reads the per-CPU lines of /proc/stat for cpus into *out.  Returns 0, or -1 with err set. */
static int read_stat(const struct optspec_cpus *cpus, struct cpu_ticks *out, char *err, size_t errlen)
{
	FILE *f = fopen("/proc/stat", "re");
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;
	if (!f) {
		snprintf(err, errlen, "open /proc/stat: %s", strerror(errno));
		return -1;
	}
	memset(out, 0, sizeof(*out));
	while (rc >= 0 && getline(&line, &cap, f) > 0 && strncmp(line, "cpu", 3) == 0)
		rc = add_cpu_line(line, cpus, out);
	free(line);
	fclose(f);
	if (rc < 0 || out->cpus == 0) {
		snprintf(err, errlen, "/proc/stat: %s", rc < 0 ? "malformed cpu line" : "no line for the run's CPUs");
		return -1;
	}
	return 0;
}

int disturb_parse_pid_state(const char *text, char *state)
{
	const char *p = strrchr(text, ')');
	return p && sscanf(p + 1, " %c", state) == 1 ? 0 : -1;
}

int disturb_read_pid(pid_t pid, uint64_t *ticks, char *state, char *err, size_t errlen)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	FILE *f = fopen(path, "re");
	if (!f) {
		snprintf(err, errlen, "open %s: %s", path, strerror(errno));
		return -1;
	}
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (disturb_parse_pid_stat(buf, ticks) != 0 || disturb_parse_pid_state(buf, state) != 0) {
		snprintf(err, errlen, "%s: malformed", path);
		return -1;
	}
	return 0;
}

/* Adds utime + stime of process pid to *ticks.  Returns 0, or -1 with err set. */
static int read_pid(pid_t pid, uint64_t *ticks, char *err, size_t errlen)
{
	uint64_t t;
	char state;
	if (disturb_read_pid(pid, &t, &state, err, errlen) != 0)
		return -1;
	*ticks += t;
	return 0;
}

void load_activity_add(struct load_activity *a, uint64_t ticks, char state)
{
	if (!a->looks++)
		a->first_ticks = ticks;
	a->last_ticks = ticks;
	a->stopped_looks += state == 'T' || state == 't';
}

bool load_activity_stopped(const struct load_activity *a)
{
	return a->stopped_looks > 0;
}

uint64_t load_activity_cpu_ns(const struct load_activity *a, long ticks_per_s)
{
	if (a->looks < 2 || ticks_per_s <= 0 || a->last_ticks < a->first_ticks)
		return 0;
	return (a->last_ticks - a->first_ticks) * NS_PER_S / (uint64_t)ticks_per_s;
}

int disturb_sample(const struct optspec_cpus *cpus, const pid_t *pids, unsigned npids, struct disturb_sample *s,
		   char *err, size_t errlen)
{
	s->own_ticks = 0;
	for (unsigned i = 0; i < npids; i++)
		if (read_pid(pids[i], &s->own_ticks, err, errlen) != 0)
			return -1;
	return read_stat(cpus, &s->cpu, err, errlen);
}

/* part of whole, in ppm, whole > 0. */
static uint64_t ppm_of(uint64_t part, uint64_t whole)
{
	return (uint64_t)((double)part * 1e6 / (double)whole + 0.5);
}

void disturb_compute(const struct disturb_sample *a, const struct disturb_sample *b, uint64_t window_ns,
		     long ticks_per_s, struct disturbance *d)
{
	memset(d, 0, sizeof(*d));
	if (ticks_per_s <= 0 || window_ns == 0 || b->cpu.cpus == 0 || a->cpu.cpus != b->cpu.cpus ||
	    b->cpu.busy < a->cpu.busy || b->cpu.steal < a->cpu.steal || b->own_ticks < a->own_ticks)
		return;
	uint64_t busy = b->cpu.busy - a->cpu.busy, own = b->own_ticks - a->own_ticks;
	uint64_t steal = b->cpu.steal - a->cpu.steal;
	/* stolen time is never the run's own: outside holds it even when the run's own ticks
	 * (counted on other CPUs too) pass the busy time of these CPUs */
	if (busy < own + steal)
		own = busy - steal;
	uint64_t capacity_ns = window_ns * b->cpu.cpus;
	d->measured = true;
	d->cpus = b->cpu.cpus;
	d->outside_cpu_ns = busy > own ? (busy - own) * NS_PER_S / (uint64_t)ticks_per_s : 0;
	d->steal_ns = steal * NS_PER_S / (uint64_t)ticks_per_s;
	d->outside_cpu_ppm = ppm_of(d->outside_cpu_ns, capacity_ns);
	d->steal_ppm = ppm_of(d->steal_ns, capacity_ns);
}

bool disturb_ppm_marked(uint64_t outside_cpu_ppm, uint64_t steal_ppm)
{
	return outside_cpu_ppm > DISTURB_OUTSIDE_PPM_MAX || steal_ppm > DISTURB_STEAL_PPM_MAX;
}

bool disturbance_marked(const struct disturbance *d)
{
	return d->measured && disturb_ppm_marked(d->outside_cpu_ppm, d->steal_ppm);
}
