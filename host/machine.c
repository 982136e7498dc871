#define _GNU_SOURCE
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "host/machine.h"

#define SMALL_FILE_MAX (1u << 20) /* kernel configs are ~300 KiB */

/* Reads at most SMALL_FILE_MAX bytes of path into a NUL-terminated malloc'd buffer, or NULL. */
static char *read_small(const char *path)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return NULL;
	char *buf = malloc(SMALL_FILE_MAX + 1);
	size_t n = buf ? fread(buf, 1, SMALL_FILE_MAX, f) : 0;
	fclose(f);
	if (!buf || n == 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

static void copy_trimmed(char *dst, size_t len, const char *src)
{
	while (*src == ' ' || *src == '\t')
		src++;
	size_t n = strcspn(src, "\n");
	while (n > 0 && (src[n - 1] == ' ' || src[n - 1] == '\t'))
		n--;
	snprintf(dst, len, "%.*s", (int)n, src);
}

/* Whether the space-separated words of s include word. */
static bool has_word(const char *s, const char *word)
{
	size_t wl = strlen(word);
	for (const char *p = s; (p = strstr(p, word)) != NULL; p += wl) {
		bool start = p == s || p[-1] == ' ';
		bool end = p[wl] == '\0' || p[wl] == ' ' || p[wl] == '\n';
		if (start && end)
			return true;
	}
	return false;
}

static void set_model(struct machine_info *m, const char *model, const char *source)
{
	snprintf(m->preempt_model, sizeof(m->preempt_model), "%s", model);
	snprintf(m->preempt_source, sizeof(m->preempt_source), "%s", source);
}

/* The value of kernel parameter name ("preempt=") in cmdline, one word, into buf; false if
 * absent. */
static bool cmdline_value(const char *cmdline, const char *name, char *buf, size_t len)
{
	size_t nl = strlen(name);
	for (const char *p = cmdline; p && (p = strstr(p, name)) != NULL; p += nl)
		if (p == cmdline || p[-1] == ' ') {
			snprintf(buf, len, "%.*s", (int)strcspn(p + nl, " \n"), p + nl);
			return buf[0] != '\0';
		}
	return false;
}

static void set_mode(struct machine_info *m, const char *mode, size_t n, const char *source)
{
	snprintf(m->preempt_mode, sizeof(m->preempt_mode), "%.*s", (int)n, mode);
	snprintf(m->preempt_mode_source, sizeof(m->preempt_mode_source), "%s", source);
}

/* The mode: the kernel's current one, or (dynamic) the boot's, or the config's default. */
static void preempt_mode(struct machine_info *m, const struct preempt_texts *t, bool dynamic)
{
	static const struct { const char *symbol, *mode; } defaults[] = {
		{ "\nCONFIG_PREEMPT_LAZY=y", "lazy" }, { "\nCONFIG_PREEMPT=y", "full" },
		{ "\nCONFIG_PREEMPT_VOLUNTARY=y", "voluntary" }, { "\nCONFIG_PREEMPT_NONE=y", "none" } };
	const char *open = t->dyn_preempt ? strchr(t->dyn_preempt, '(') : NULL;
	const char *close = open ? strchr(open, ')') : NULL;
	char boot[16];
	if (close)
		return set_mode(m, open + 1, (size_t)(close - open - 1), "/sys/kernel/debug/sched/preempt");
	if (!dynamic)
		return;
	if (cmdline_value(t->cmdline, "preempt=", boot, sizeof(boot)))
		return set_mode(m, boot, strlen(boot), "/proc/cmdline preempt=");
	for (size_t i = 0; t->kconfig && i < sizeof(defaults) / sizeof(defaults[0]); i++)
		if (strstr(t->kconfig, defaults[i].symbol))
			return set_mode(m, defaults[i].mode, strlen(defaults[i].mode), "kernel config default");
}

void machine_preempt_model(struct machine_info *m, const struct preempt_texts *t)
{
	m->preempt_mode[0] = m->preempt_mode_source[0] = '\0';
	if ((t->realtime_flag && t->realtime_flag[0] == '1') || has_word(t->uname_v, "PREEMPT_RT")) {
		preempt_mode(m, t, false);
		return set_model(m, "PREEMPT_RT", t->realtime_flag && t->realtime_flag[0] == '1' ? "/sys/kernel/realtime"
												     : "uname -v");
	}
	if (has_word(t->uname_v, "PREEMPT_DYNAMIC")) {
		preempt_mode(m, t, true);
		return set_model(m, "PREEMPT_DYNAMIC", "uname -v");
	}
	if (has_word(t->uname_v, "PREEMPT_LAZY"))
		return set_model(m, "PREEMPT_LAZY", "uname -v");
	if (has_word(t->uname_v, "PREEMPT"))
		return set_model(m, "PREEMPT", "uname -v");
	if (t->kconfig && strstr(t->kconfig, "\nCONFIG_PREEMPT_VOLUNTARY=y"))
		return set_model(m, "voluntary", "kernel config");
	if (t->kconfig && strstr(t->kconfig, "\nCONFIG_PREEMPT_NONE=y"))
		return set_model(m, "none", "kernel config");
	set_model(m, "unknown", "uname -v");
}

const char *machine_scheduler(const char *scx_state, const char *scx_ops, const char *release, char *buf,
			      size_t len)
{
	unsigned major = 0, minor = 0;
	if (scx_state && strncmp(scx_state, "enabled", 7) == 0) {
		char ops[64] = "";
		if (scx_ops)
			copy_trimmed(ops, sizeof(ops), scx_ops);
		snprintf(buf, len, "sched_ext: %s", ops[0] ? ops : "unknown");
	} else if (release && sscanf(release, "%u.%u", &major, &minor) == 2) {
		snprintf(buf, len, "%s", major > 6 || (major == 6 && minor >= 6) ? "EEVDF" : "CFS");
	} else {
		snprintf(buf, len, "unknown");
	}
	return buf;
}

static void read_cpu_model(struct machine_info *m)
{
	static const char *const keys[] = { "model name", "Processor", "cpu model", "cpu" };
	char *info = read_small("/proc/cpuinfo");
	snprintf(m->cpu_model, sizeof(m->cpu_model), "unknown");
	for (size_t k = 0; info && k < sizeof(keys) / sizeof(keys[0]); k++) {
		for (char *line = info; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
			size_t kl = strlen(keys[k]);
			const char *rest = line + kl;
			if (strncmp(line, keys[k], kl) != 0)
				continue;
			rest += strspn(rest, " \t");
			if (*rest != ':')
				continue;
			copy_trimmed(m->cpu_model, sizeof(m->cpu_model), rest + 1);
			free(info);
			return;
		}
	}
	free(info);
}

static void read_preempt(struct machine_info *m)
{
	char path[128];
	snprintf(path, sizeof(path), "/boot/config-%s", m->kernel_release);
	char *rt = read_small("/sys/kernel/realtime");
	char *dyn = read_small("/sys/kernel/debug/sched/preempt");
	char *cmd = read_small("/proc/cmdline");
	char *cfg = read_small(path);
	struct preempt_texts t = { .realtime_flag = rt, .uname_v = m->kernel_version, .dyn_preempt = dyn,
				   .cmdline = cmd, .kconfig = cfg };
	machine_preempt_model(m, &t);
	free(rt);
	free(dyn);
	free(cmd);
	free(cfg);
}

unsigned machine_allowed_cpus(struct optspec_cpus *set)
{
	cpu_set_t allowed;
	unsigned n = 0;
	memset(set, 0, sizeof(*set));
	set->given = true;
	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
		return 0;
	for (unsigned c = 0; c < OPTSPEC_MAX_CPUS && c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed)) {
			set->bits[c / 64] |= 1ull << (c % 64);
			n++;
		}
	return n;
}

bool machine_cpu_allowed(unsigned c)
{
	struct optspec_cpus set;
	return machine_allowed_cpus(&set) == 0 || optspec_cpu_isset(&set, c);
}

void machine_allowed_text(unsigned allowed, unsigned online, const char *list, char *buf, size_t len)
{
	if (allowed)
		snprintf(buf, len, "%u of %u CPUs: %s", allowed, online, list);
	else
		snprintf(buf, len, "unknown");
}

unsigned machine_cpu_list_count(const char *list)
{
	struct optspec_cpus set;
	unsigned n = 0;
	if (parse_cpu_list(list, &set) != 0)
		return 0;
	for (unsigned c = 0; c < OPTSPEC_MAX_CPUS; c++)
		n += optspec_cpu_isset(&set, c);
	return n;
}

/* The CPUs this process may use and what its cgroups allow it. */
static void read_confinement(struct machine_info *m)
{
	struct optspec_cpus set;
	m->allowed_cpus = machine_allowed_cpus(&set);
	format_cpu_list(&set, m->allowed_cpu_list, sizeof(m->allowed_cpu_list));
	cgroup_cpu_limits_read("", &m->cgroup);
}

void machine_info_collect(struct machine_info *m)
{
	struct utsname u;
	struct sysinfo si;
	memset(m, 0, sizeof(*m));
	if (uname(&u) == 0) {
		snprintf(m->kernel_release, sizeof(m->kernel_release), "%s", u.release);
		snprintf(m->kernel_version, sizeof(m->kernel_version), "%s", u.version);
		snprintf(m->machine, sizeof(m->machine), "%s", u.machine);
	}
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	m->online_cpus = cpus > 0 ? (unsigned)cpus : 1;
	if (sysinfo(&si) == 0) {
		m->ram_bytes = (uint64_t)si.totalram * si.mem_unit;
		m->swap_bytes = (uint64_t)si.totalswap * si.mem_unit;
	}
	read_cpu_model(m);
	read_preempt(m);
	read_confinement(m);
	char *cs = read_small("/sys/devices/system/clocksource/clocksource0/current_clocksource");
	copy_trimmed(m->clocksource, sizeof(m->clocksource), cs ? cs : "unknown");
	free(cs);
}
