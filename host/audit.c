#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "host/audit.h"
#include "host/cgroup.h"
#include "host/machine.h"
#include "host/runlock.h"

/* Reads the first line of root/rel (newline stripped; "" for an empty file) into buf.  Returns
 * 0, or -1 when the file cannot be read (missing). */
static int read_first(const char *root, const char *rel, char *buf, size_t len)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", strcmp(root, "/") == 0 ? "" : root, rel);
	FILE *f = fopen(path, "re");
	buf[0] = '\0';
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';   /* present but empty: no value, as opposed to not available */
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* Adds an item; value NULL reads as AUDIT_NA; hint may be "" or NULL. */
static struct audit_item *add(struct audit *a, const char *name, const char *value, const char *source,
			      const char *hint)
{
	if (a->n == AUDIT_MAX)
		return NULL;
	struct audit_item *it = &a->item[a->n++];
	snprintf(it->name, sizeof(it->name), "%s", name);
	snprintf(it->value, sizeof(it->value), "%s", value && *value ? value : AUDIT_NA);
	snprintf(it->source, sizeof(it->source), "%s", source);
	snprintf(it->hint, sizeof(it->hint), "%s", hint && value && *value ? hint : "");
	return it;
}

/* An item whose value is the first line of a file, judged by hint_of (NULL: never hurts). */
static void add_file(struct audit *a, const char *root, const char *name, const char *rel,
		     const char *(*hint_of)(const char *))
{
	char v[256], src[160];
	bool have = read_first(root, rel, v, sizeof(v)) == 0;
	snprintf(src, sizeof(src), "/%s", rel);
	if (have && !v[0])
		snprintf(v, sizeof(v), "none");
	add(a, name, have ? v : NULL, src, have && hint_of ? hint_of(v) : "");
}

const char *audit_governor_hint(const char *g)
{
	return strcmp(g, "performance") == 0 || strcmp(g, "schedutil") == 0 ? "" :
	       "a governor that lowers the clock when idle makes each wake-up slower; "
	       "performance (cpupower frequency-set -g performance) keeps it up";
}

const char *audit_preempt_hint(const char *model)
{
	return strcmp(model, "none") == 0 || strcmp(model, "voluntary") == 0 ?
	       "a kernel that preempts only at explicit points: a task waits behind kernel work; "
	       "preempt=full (PREEMPT_DYNAMIC), PREEMPT or PREEMPT_RT help" : "";
}

const char *audit_clocksource_hint(const char *cs)
{
	return strcmp(cs, "hpet") == 0 || strcmp(cs, "acpi_pm") == 0 || strcmp(cs, "jiffies") == 0 ?
	       "a slow clocksource: every time read is a device access (tsc, when it is stable)" : "";
}

const char *audit_idle_hint(long exit_latency_us)
{
	return exit_latency_us > 50 ? "deep idle states: a wake-up from idle waits for the exit latency, which "
				      "is why a task may be later on an idle machine than under Burn; "
				      "--dma-latency 0 keeps the CPUs out of them" : "";
}

static const char *smt_hint(const char *v)
{
	return strcmp(v, "1") == 0 ? "SMT siblings share a core: a load on one slows the other "
				     "(nosmt, or --bench-cpus on a core of its own)" : "";
}

static const char *thp_hint(const char *v)
{
	return strstr(v, "[always]") ? "transparent hugepages always: compaction and khugepaged can stall a task "
				       "for milliseconds (madvise or never)" : "";
}

static const char *rt_runtime_hint(const char *v)
{
	return strcmp(v, "-1") == 0 ? "RT throttling is off: a runaway realtime task can lock the machine up" : "";
}

/* The deepest enabled idle state of CPU 0: "C6 (exit latency 133 us)". */
static void add_idle(struct audit *a, const char *root)
{
	char name[64] = "", lat[32], dis[8], rel[128], best[128] = "", v[64];
	long best_lat = -1;
	for (int s = 0; s < 16; s++) {
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu0/cpuidle/state%d/name", s);
		if (read_first(root, rel, name, sizeof(name)) != 0)
			break;
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu0/cpuidle/state%d/disable", s);
		if (read_first(root, rel, dis, sizeof(dis)) == 0 && strcmp(dis, "1") == 0)
			continue;
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu0/cpuidle/state%d/latency", s);
		if (read_first(root, rel, lat, sizeof(lat)) != 0)
			continue;
		best_lat = atol(lat);
		snprintf(best, sizeof(best), "%s (exit latency %ld us)", name, best_lat);
	}
	add(a, AUDIT_IDLE_STATE, best, "/sys/devices/system/cpu/cpu0/cpuidle/state*/", audit_idle_hint(best_lat));
	add_file(a, root, "cpuidle_driver", "sys/devices/system/cpu/cpuidle/current_driver", NULL);
	(void)v;
}

/* The vulnerabilities' states: "12 files: 9 mitigated, 0 vulnerable, 3 not affected". */
static void add_mitigations(struct audit *a, const char *root)
{
	char dir[512], v[256], rel[512];
	unsigned n = 0, mitigated = 0, vulnerable = 0, unaffected = 0;
	snprintf(dir, sizeof(dir), "%s/sys/devices/system/cpu/vulnerabilities", strcmp(root, "/") == 0 ? "" : root);
	DIR *d = opendir(dir);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/vulnerabilities/%.200s", de->d_name);
		if (read_first(root, rel, v, sizeof(v)) != 0)
			continue;
		n++;
		mitigated += strncmp(v, "Mitigation", 10) == 0;
		vulnerable += strncmp(v, "Vulnerable", 10) == 0;
		unaffected += strcmp(v, "Not affected") == 0;
	}
	if (d)
		closedir(d);
	snprintf(v, sizeof(v), "%u: %u mitigated, %u vulnerable, %u not affected", n, mitigated, vulnerable, unaffected);
	add(a, "cpu_vulnerabilities", n ? v : NULL, "/sys/devices/system/cpu/vulnerabilities/", "");
}

/* Swappiness with the swap there is: a high swappiness matters only with swap. */
static void add_swap(struct audit *a, const char *root)
{
	char sw[32], path[512], line[256], v[96];
	unsigned long long swap_kb = 0;
	bool have = read_first(root, "proc/sys/vm/swappiness", sw, sizeof(sw)) == 0;
	snprintf(path, sizeof(path), "%s/proc/meminfo", strcmp(root, "/") == 0 ? "" : root);
	FILE *f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "SwapTotal: %llu kB", &swap_kb) == 1)
			break;
	if (f)
		fclose(f);
	snprintf(v, sizeof(v), "%s (swap %llu MiB)", sw, swap_kb / 1024);
	add(a, "swappiness", have ? v : NULL, "/proc/sys/vm/swappiness",
	    swap_kb && atoi(sw) > 10 ? "with swap, a swappiness above 10 lets the kernel page out an idle "
				       "interactive task (vm.swappiness=10)" : "");
}

/* This user's RLIMIT_RTPRIO and RLIMIT_MEMLOCK (of the real process, whatever root is). */
static void add_limits(struct audit *a)
{
	struct rlimit rl;
	char v[64];
	bool privileged = geteuid() == 0;
	if (getrlimit(RLIMIT_RTPRIO, &rl) == 0) {
		snprintf(v, sizeof(v), rl.rlim_cur == RLIM_INFINITY ? "unlimited" : "%llu", (unsigned long long)rl.rlim_cur);
		add(a, "rlimit_rtprio", v, "getrlimit(RLIMIT_RTPRIO)", rl.rlim_cur == 0 && !privileged ?
		    "no realtime priority for this user: an rtprio line in /etc/security/limits.conf (an audio group)" : "");
	}
	if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0) {
		if (rl.rlim_cur == RLIM_INFINITY)
			snprintf(v, sizeof(v), "unlimited");
		else
			snprintf(v, sizeof(v), "%llu KiB", (unsigned long long)rl.rlim_cur / 1024);
		add(a, "rlimit_memlock", v, "getrlimit(RLIMIT_MEMLOCK)",
		    rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < (256ull << 20) && !privileged ?
		    "little lockable memory: audio applications lock theirs (a memlock line in /etc/security/limits.conf)" : "");
	}
}

/* The priority of sound-card interrupt threads ("irq/N-snd..."), when there are any. */
static void add_sound_irqs(struct audit *a, const char *root)
{
	char path[512], v[256] = "", comm[64];
	snprintf(path, sizeof(path), "%s/proc", strcmp(root, "/") == 0 ? "" : root);
	DIR *d = opendir(path);
	struct dirent *de;
	bool low = false;
	size_t used = 0;
	while (d && (de = readdir(d)) && used < sizeof(v)) {
		char rel[300];
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(rel, sizeof(rel), "proc/%.20s/comm", de->d_name);
		if (read_first(root, rel, comm, sizeof(comm)) != 0 || strncmp(comm, "irq/", 4) != 0 || !strstr(comm, "snd"))
			continue;
		struct sched_param sp = { 0 };
		int policy = strcmp(root, "/") == 0 ? sched_getscheduler(atoi(de->d_name)) : -1;
		if (policy >= 0)
			sched_getparam(atoi(de->d_name), &sp);
		low |= policy >= 0 && sp.sched_priority <= 50;
		int w = snprintf(v + used, sizeof(v) - used, "%s%s %s %d", used ? ", " : "", comm,
				 policy == SCHED_FIFO ? "SCHED_FIFO" : policy == SCHED_RR ? "SCHED_RR" : "SCHED_OTHER",
				 sp.sched_priority);
		used += w > 0 ? (size_t)w : 0;
	}
	if (d)
		closedir(d);
	add(a, "sound_irq_threads", used ? v : "none (no threaded sound-card interrupt)", "/proc/*/comm",
	    low ? "sound interrupts at the default thread priority 50: raise them above the rest (rtirq)" : "");
}

/* The class ordinary tasks run in (machine_scheduler): a sched_ext scheduler, or EEVDF, or CFS. */
static void add_scheduler(struct audit *a, const char *root)
{
	char state[64], ops[64], rel[128], v[96];
	bool have_state = read_first(root, "sys/kernel/sched_ext/state", state, sizeof(state)) == 0;
	bool have_ops = read_first(root, "sys/kernel/sched_ext/root/ops", ops, sizeof(ops)) == 0;
	bool have_rel = read_first(root, "proc/sys/kernel/osrelease", rel, sizeof(rel)) == 0;
	machine_scheduler(have_state ? state : NULL, have_ops ? ops : NULL, have_rel ? rel : NULL, v, sizeof(v));
	add(a, AUDIT_SCHEDULER, v, "/sys/kernel/sched_ext/state, root/ops; the release (EEVDF from 6.6)", "");
}

/* sched_ext: the state and the scheduler loaded. */
static void add_sched_ext(struct audit *a, const char *root)
{
	char state[64], ops[64], v[160];
	if (read_first(root, "sys/kernel/sched_ext/state", state, sizeof(state)) != 0) {
		add(a, AUDIT_SCHED_EXT, NULL, "/sys/kernel/sched_ext/state", "");
		return;
	}
	if (read_first(root, "sys/kernel/sched_ext/root/ops", ops, sizeof(ops)) == 0 && ops[0])
		snprintf(v, sizeof(v), "%s (%s)", state, ops);
	else
		snprintf(v, sizeof(v), "%s", state);
	add(a, AUDIT_SCHED_EXT, v, "/sys/kernel/sched_ext/state, root/ops", "");
}

/* The first "microcode" line of /proc/cpuinfo. */
static void add_microcode(struct audit *a, const char *root)
{
	char path[512], line[256], *v = NULL;
	snprintf(path, sizeof(path), "%s/proc/cpuinfo", strcmp(root, "/") == 0 ? "" : root);
	FILE *f = fopen(path, "re");
	while (f && !v && fgets(line, sizeof(line), f))
		if (strncmp(line, "microcode", 9) == 0 && (v = strchr(line, ':')) != NULL) {
			v += 1 + strspn(v + 1, " \t");
			v[strcspn(v, "\n")] = '\0';
		}
	if (f)
		fclose(f);
	add(a, "microcode", v, "/proc/cpuinfo", "");
}

/* The model and mode (machine_preempt_model) from root's files; the kernel config as
 * boot/config-<release>. */
static void add_preempt(struct audit *a, const char *root)
{
	char rt[16], ver[256], dyn[128], rel[128], cmd[1024], v[96], src[160], cfg_path[192];
	struct machine_info m;
	memset(&m, 0, sizeof(m));
	bool have_rt = read_first(root, "sys/kernel/realtime", rt, sizeof(rt)) == 0;
	bool have_dyn = read_first(root, "sys/kernel/debug/sched/preempt", dyn, sizeof(dyn)) == 0;
	bool have_cmd = read_first(root, "proc/cmdline", cmd, sizeof(cmd)) == 0;
	read_first(root, "proc/sys/kernel/version", ver, sizeof(ver));
	read_first(root, "proc/sys/kernel/osrelease", rel, sizeof(rel));
	snprintf(cfg_path, sizeof(cfg_path), "/boot/config-%s", rel);
	char *cfg = rel[0] ? cgroup_read_text(strcmp(root, "/") == 0 ? "" : root, cfg_path) : NULL;
	struct preempt_texts t = { .realtime_flag = have_rt ? rt : NULL, .uname_v = ver, .dyn_preempt = have_dyn ? dyn : NULL,
				   .cmdline = have_cmd ? cmd : NULL, .kconfig = cfg };
	machine_preempt_model(&m, &t);
	free(cfg);
	snprintf(v, sizeof(v), "%s%s%s%s", m.preempt_model, m.preempt_mode[0] ? " (" : "", m.preempt_mode,
		 m.preempt_mode[0] ? ")" : "");
	snprintf(src, sizeof(src), "%s%s%s", m.preempt_source, m.preempt_mode_source[0] ? "; mode: " : "",
		 m.preempt_mode_source);
	add(a, "preemption", v, src, audit_preempt_hint(m.preempt_mode[0] ? m.preempt_mode : m.preempt_model));
	bool threaded = strcmp(m.preempt_model, "PREEMPT_RT") == 0 || (have_cmd && strstr(cmd, "threadirqs"));
	add(a, "threadirqs", have_cmd || have_rt ? (threaded ? "yes" : "no") : NULL, "/proc/cmdline, PREEMPT_RT", "");
	add(a, AUDIT_CMDLINE, have_cmd ? cmd : NULL, "/proc/cmdline", "");
}

const char *audit_allowed_cpus_hint(unsigned allowed, unsigned online)
{
	return allowed && allowed < online ? "the run may use only some of the online CPUs (taskset, a cpuset): the "
		"loads and the task share fewer CPUs, so its figures compare only with runs confined alike" : "";
}

const char *audit_cpu_quota_hint(int64_t quota_us)
{
	return quota_us > 0 ? "a CPU bandwidth quota: once the cgroup has used its time in a period, every task in "
		"it waits for the next one (raise or remove cpu.max, cpu.cfs_quota_us)" : "";
}

const char *audit_rt_budget_hint(bool tight)
{
	return tight ? "below the kernel's default 95 %: once the cgroup's (or the system's) realtime tasks have "
		"used it in a period, the timing thread waits for the next one (raise cpu.rt_runtime_us)" : "";
}

const char *audit_concurrent_hint(long pid)
{
	return pid > 0 ? "another interbench run loads the machine too: figures measured now include its load "
		"(wait for it to end)" : "";
}

/* What confines this process: the CPUs it may use (of the real process, whatever root is), its
 * cgroups' CPU quota, realtime budget and cpuset, another interbench run at the same time. */
static void add_confinement(struct audit *a, const char *root)
{
	const char *prefix = strcmp(root, "/") == 0 ? "" : root;
	struct optspec_cpus set;
	struct cgroup_cpu_limits lim;
	char list[256], v[320], why[PATH_MAX + 64];
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned allowed = machine_allowed_cpus(&set);
	format_cpu_list(&set, list, sizeof(list));
	machine_allowed_text(allowed, online > 0 ? (unsigned)online : 0, list, v, sizeof(v));
	add(a, "allowed_cpus", allowed ? v : NULL, "sched_getaffinity(2)",
	    audit_allowed_cpus_hint(allowed, online > 0 ? (unsigned)online : 0));
	cgroup_cpu_limits_read(prefix, &lim);
	cgroup_quota_text(&lim, v, sizeof(v));
	add(a, "cpu_quota", v, lim.quota_file[0] ? lim.quota_file : "cpu.max, cpu.cfs_quota_us of its cgroups",
	    audit_cpu_quota_hint(lim.quota_us));
	cgroup_rt_budget_text(&lim, v, sizeof(v));
	add(a, "rt_budget", v, lim.rt_file[0] ? lim.rt_file : "cpu.rt_runtime_us of its cgroups, sched_rt_runtime_us",
	    audit_rt_budget_hint(cgroup_rt_budget_tight(&lim)));
	add(a, "cpuset", lim.cpuset, lim.cpuset_file[0] ? lim.cpuset_file : "cpuset.cpus.effective, cpuset.cpus", "");
	pid_t other = runlock_check(prefix, why, sizeof(why));
	snprintf(v, sizeof(v), other > 0 ? "interbench pid %ld" : "none", (long)other);
	add(a, "concurrent_run", other >= 0 ? v : NULL, RUNLOCK_PATH, audit_concurrent_hint(other));
}

void audit_collect(struct audit *a, const char *root)
{
	memset(a, 0, sizeof(*a));
	add_preempt(a, root);
	add_file(a, root, AUDIT_GOVERNOR, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", audit_governor_hint);
	add_file(a, root, "cpufreq_boost", "sys/devices/system/cpu/cpufreq/boost", NULL);
	add_idle(a, root);
	add_file(a, root, AUDIT_SMT, "sys/devices/system/cpu/smt/active", smt_hint);
	add_file(a, root, "rt_runtime_us", "proc/sys/kernel/sched_rt_runtime_us", rt_runtime_hint);
	add_limits(a);
	add_swap(a, root);
	add_file(a, root, "transparent_hugepage", "sys/kernel/mm/transparent_hugepage/enabled", thp_hint);
	add_file(a, root, "clocksource", "sys/devices/system/clocksource/clocksource0/current_clocksource",
		 audit_clocksource_hint);
	add_mitigations(a, root);
	add_file(a, root, "isolated_cpus", "sys/devices/system/cpu/isolated", NULL);
	add_file(a, root, "nohz_full", "sys/devices/system/cpu/nohz_full", NULL);
	add_confinement(a, root);
	add_sound_irqs(a, root);
	add_scheduler(a, root);
	add_sched_ext(a, root);
	add_microcode(a, root);
}

const struct audit_item *audit_find(const struct audit *a, const char *name)
{
	for (unsigned i = 0; i < a->n; i++)
		if (strcmp(a->item[i].name, name) == 0)
			return &a->item[i];
	return NULL;
}

unsigned audit_hurts(const struct audit *a)
{
	unsigned n = 0;
	for (unsigned i = 0; i < a->n; i++)
		n += a->item[i].hint[0] != '\0';
	return n;
}

void audit_print(FILE *f, const struct audit *a)
{
	for (unsigned i = 0; i < a->n; i++) {
		const struct audit_item *it = &a->item[i];
		fprintf(f, "%-22s %s (%s)\n", it->name, it->value, it->source);
		if (it->hint[0])
			fprintf(f, "%-22s   hint: %s\n", "", it->hint);
	}
}
