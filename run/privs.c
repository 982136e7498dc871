#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/resource.h>
#include <unistd.h>
#include "host/cgroup.h"
#include "host/machine.h"
#include "run/privs.h"

#define FIX_CAPS fix_caps()
#define FIX_RTPRIO "or add an rtprio line to /etc/security/limits.conf (e.g. '@audio - rtprio 99')"

/* The fix for missing privileges, naming this binary as the kernel knows it (/proc/self/exe:
 * an installed /usr/bin/interbench, not ./interbench), in single quotes when a shell would
 * split or expand it. */
static const char *fix_caps(void)
{
	static char buf[PATH_MAX + 128];
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	snprintf(exe + (n > 0 ? n : 0), sizeof(exe) - (size_t)(n > 0 ? n : 0), "%s", n > 0 ? "" : "interbench");
	bool plain = exe[strspn(exe, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._+,:@%-")] == '\0';
	snprintf(buf, sizeof(buf), "run as root, or grant it: setcap cap_sys_nice,cap_ipc_lock+ep %s%s%s",
		 plain ? "" : "'", exe, plain ? "" : "'");
	return buf;
}

static bool cap_effective(cap_t caps, cap_value_t cap)
{
	cap_flag_value_t v = CAP_CLEAR;
	return caps && cap_get_flag(caps, cap, CAP_EFFECTIVE, &v) == 0 && v == CAP_SET;
}

static uint64_t soft_limit(int resource)
{
	struct rlimit rl;
	if (getrlimit(resource, &rl) != 0)
		return 0;
	return rl.rlim_cur == RLIM_INFINITY ? UINT64_MAX : (uint64_t)rl.rlim_cur;
}

static int read_rt_runtime_us(void)
{
	FILE *f = fopen("/proc/sys/kernel/sched_rt_runtime_us", "r");
	int v;
	if (!f)
		return INT32_MIN;
	if (fscanf(f, "%d", &v) != 1)
		v = INT32_MIN;
	fclose(f);
	return v;
}

/* What the throwaway thread of fifo_refused tries, and what it found. */
struct fifo_try {
	int prio_max, levels; /* tries prio_max down to prio_max - levels + 1 */
	int err, prio;        /* first refusal: errno and priority; err 0 = none */
};

static void *fifo_try_thread(void *arg)
{
	struct fifo_try *t = arg;
	for (int prio = t->prio_max; prio > t->prio_max - t->levels; prio--) {
		struct sched_param sp = { .sched_priority = prio };
		/* pid 0 is the calling thread; the flags are main's (become_realtime) */
		if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp) != 0) {
			t->err = errno;
			t->prio = prio;
			break;
		}
	}
	struct sched_param normal = { .sched_priority = 0 };
	sched_setscheduler(0, SCHED_OTHER, &normal); /* the thread ends next anyway */
	return NULL;
}

/* Sets and resets SCHED_FIFO on a throwaway thread; fills p->fifo_refused_*.  A thread that
 * cannot be created gives no verdict (the run then finds out as before). */
static void fifo_probe(struct privs *p, int prio_max, int levels)
{
	struct fifo_try t = { .prio_max = prio_max, .levels = levels };
	pthread_t th;
	if (pthread_create(&th, NULL, fifo_try_thread, &t) != 0)
		return;
	pthread_join(th, NULL);
	p->fifo_refused_errno = t.err;
	p->fifo_refused_prio = t.prio;
}

/* Reads cpu.rt_runtime_us of the process's cpu cgroup (v1 cpu hierarchy, else v2 where the
 * kernel has it) into p->cg_rt_runtime_us and p->cg_cpu_dir. */
static void read_cg_rt_runtime(struct privs *p)
{
	struct cgroup_loc loc;
	char path[PATH_MAX + 32];
	for (int v = 1; v <= 2; v++) {
		if (cgroup_locate_self("", v == 1 ? "cpu" : NULL, &loc) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/cpu.rt_runtime_us", loc.dir);
		char *text = cgroup_read_text("", path);
		long long us;
		if (text && sscanf(text, "%lld", &us) == 1) {
			p->cg_rt_runtime_us = us;
			snprintf(p->cg_cpu_dir, sizeof(p->cg_cpu_dir), "%s", loc.dir);
			free(text);
			return;
		}
		free(text);
	}
}

/* Whether the process is in a user namespace other than the initial one, whose uid_map is
 * the identity over all 2^32 - 1 ids (user_namespaces(7)). */
static bool in_user_namespace(void)
{
	char *map = cgroup_read_text("", "/proc/self/uid_map");
	unsigned long long inside, outside, count;
	int n = map ? sscanf(map, "%llu %llu %llu", &inside, &outside, &count) : 0;
	bool known = map != NULL, initial = n == 3 && inside == 0 && outside == 0 && count == UINT32_MAX;
	free(map);
	return known && !initial;
}

void privs_probe(struct privs *p, int fifo_levels)
{
	memset(p, 0, sizeof(*p));
	cap_t caps = cap_get_proc();
	p->cap_sys_nice = cap_effective(caps, CAP_SYS_NICE);
	p->cap_ipc_lock = cap_effective(caps, CAP_IPC_LOCK);
	if (caps)
		cap_free(caps);
	p->rlimit_rtprio = soft_limit(RLIMIT_RTPRIO);
	p->rlimit_nice = soft_limit(RLIMIT_NICE);
	p->rlimit_memlock_bytes = soft_limit(RLIMIT_MEMLOCK);
	p->cpu0_allowed = machine_cpu_allowed(0);
	p->rt_runtime_us = read_rt_runtime_us();
	p->cg_rt_runtime_us = PRIVS_RT_UNKNOWN;
	int max = privs_fifo_max(p);
	if (max >= fifo_levels && fifo_levels > 0)
		fifo_probe(p, max, fifo_levels);
	if (p->fifo_refused_errno) {
		read_cg_rt_runtime(p);
		p->in_user_ns = in_user_namespace();
	}
}

int privs_fifo_max(const struct privs *p)
{
	int max = sched_get_priority_max(SCHED_FIFO);
	return p->cap_sys_nice || p->rlimit_rtprio >= (uint64_t)max ? max : (int)p->rlimit_rtprio;
}

bool privs_can_fifo(const struct privs *p, int prio)
{
	return p->cap_sys_nice || p->rlimit_rtprio >= (uint64_t)prio;
}

bool privs_can_nice(const struct privs *p, int nice)
{
	/* RLIMIT_NICE allows nice values down to 20 - limit (sched(7)). */
	return nice >= 0 || p->cap_sys_nice || p->rlimit_nice >= (uint64_t)(20 - nice);
}

/* Writes what the kernel refused on the test thread and, as far as can be told, why and the
 * fix, as one line. */
static void fifo_refusal(const struct privs *p, char *buf, size_t len)
{
	int w = snprintf(buf, len, "the kernel refused SCHED_FIFO priority %d on a test thread "
			 "(sched_setscheduler: %s): ", p->fifo_refused_prio, strerror(p->fifo_refused_errno));
	size_t at = w < 0 ? 0 : (size_t)w < len ? (size_t)w : len;
	const char *dir = p->cg_cpu_dir;
	if (p->cg_rt_runtime_us == 0)
		snprintf(buf + at, len - at, "the cpu cgroup %s has cpu.rt_runtime_us = 0, no realtime "
			 "budget; give it one, e.g. echo 500000 > %s/cpu.rt_runtime_us (its parent's "
			 "budget must cover it), or run from a cgroup that has one", dir, dir);
	else if (p->in_user_ns)
		snprintf(buf + at, len - at, "this process is in a user namespace, whose capabilities do "
			 "not count for realtime scheduling; run it outside (on the host, or in a container "
			 "the host gives CAP_SYS_NICE)");
	else if (p->cg_rt_runtime_us != PRIVS_RT_UNKNOWN)
		snprintf(buf + at, len - at, "the cpu cgroup %s has cpu.rt_runtime_us = %lld, so something "
			 "else refuses it, e.g. a seccomp filter or a security module; run where realtime "
			 "scheduling is allowed", dir, p->cg_rt_runtime_us);
	else
		snprintf(buf + at, len - at, "no cgroup realtime budget applies (no cpu.rt_runtime_us), so "
			 "something else refuses it, e.g. a seccomp filter or a security module; run where "
			 "realtime scheduling is allowed");
}

/* The option that asks for realtime policy kind on the bench (bench) or load side, in words
 * for a message: "-r", "--bench-policy fifo". */
static void rt_option(const struct options *o, bool bench, enum sched_kind kind, char *buf, size_t len)
{
	if (bench && kind == SP_FIFO && o->realtime && !(o->bench_policies & (1u << SP_FIFO)))
		snprintf(buf, len, "-r");
	else
		snprintf(buf, len, "--%s-policy %s", bench ? "bench" : "load", sched_kind_name(kind));
}

/* The realtime policies asked for: privilege (fifo and rr by capability or RLIMIT_RTPRIO at
 * fifo_prio, deadline by CAP_SYS_NICE only), the kernel's refusal on the test thread, and fifo
 * or rr loads without RT throttling.  Returns 0, or -1 with err set. */
static int check_rt(const struct privs *p, const struct options *o, int fifo_prio, char *err, size_t errlen)
{
	uint32_t sides[2] = { o->bench_policies | (o->realtime ? 1u << SP_FIFO : 0), o->load_policies };
	char opt[64];
	for (int side = 0; side < 2; side++)
		for (unsigned k = SP_FIFO; k <= SP_DEADLINE; k++) {
			if (!(sides[side] & (1u << k)))
				continue;
			rt_option(o, side == 0, (enum sched_kind)k, opt, sizeof(opt));
			if (k == SP_DEADLINE && !p->cap_sys_nice) {
				snprintf(err, errlen, "%s: SCHED_DEADLINE needs CAP_SYS_NICE (RLIMIT_RTPRIO does not grant it): "
					 "%s", opt, FIX_CAPS);
				return -1;
			}
			if (k != SP_DEADLINE && !privs_can_fifo(p, fifo_prio)) {
				snprintf(err, errlen, "%s: SCHED_FIFO priority %d is not permitted (no CAP_SYS_NICE, "
					 "RLIMIT_RTPRIO is %llu): %s, %s", opt, fifo_prio,
					 (unsigned long long)p->rlimit_rtprio, FIX_CAPS, FIX_RTPRIO);
				return -1;
			}
			if (k != SP_DEADLINE && p->fifo_refused_errno) {
				char why[PATH_MAX * 2 + 512];
				fifo_refusal(p, why, sizeof(why));
				snprintf(err, errlen, "%s: %s", opt, why);
				return -1;
			}
			if (side == 1 && p->rt_runtime_us == -1) {
				snprintf(err, errlen, "%s: RT throttling is disabled (sched_rt_runtime_us = -1), so a realtime "
					 "load could lock up this machine (accepted: other, batch or idle loads; or re-enable it: "
					 "sysctl kernel.sched_rt_runtime_us=950000)", opt);
				return -1;
			}
		}
	if (o->rt_priority && o->rt_priority > privs_fifo_max(p) - 2) {
		snprintf(err, errlen, "--rt-priority: %lld is not below the timing thread's and main's priorities "
			 "(accepted: 1 to %d here, the highest allowed less 2)", (long long)o->rt_priority,
			 privs_fifo_max(p) - 2 > 0 ? privs_fifo_max(p) - 2 : 0);
		return -1;
	}
	return 0;
}

int privs_check_options(const struct privs *p, const struct options *o, int fifo_prio,
			char *err, size_t errlen)
{
	if (check_rt(p, o, fifo_prio, err, errlen) != 0)
		return -1;
	const struct optspec_ints *nices[2] = { &o->bench_nices, &o->load_nices };
	for (int i = 0; i < 2; i++)
		for (unsigned k = 0; k < nices[i]->n; k++)
			if (!privs_can_nice(p, nices[i]->v[k])) {
				snprintf(err, errlen, "-%c: nice %d is not permitted (no CAP_SYS_NICE, RLIMIT_NICE is "
					 "%llu): %s, or add a nice line to /etc/security/limits.conf",
					 i ? 'N' : 'B', nices[i]->v[k], (unsigned long long)p->rlimit_nice, FIX_CAPS);
				return -1;
			}
	if (o->uniprocessor && !p->cpu0_allowed) {
		snprintf(err, errlen, "-u: CPU 0 is not in this process's affinity mask (cpuset); "
			 "run where CPU 0 is allowed, e.g. outside the restricting cgroup");
		return -1;
	}
	return 0;
}

int privs_warn(const struct privs *p, const struct options *o, int fifo_prio, FILE *f)
{
	int lines = 0;
	if (!privs_can_fifo(p, fifo_prio)) {
		fprintf(f, "interbench: warning: no SCHED_FIFO (no CAP_SYS_NICE, RLIMIT_RTPRIO %llu): the "
			"timing thread runs at normal priority and results are less reliable; %s\n",
			(unsigned long long)p->rlimit_rtprio, FIX_CAPS);
		lines++;
	} else if (p->fifo_refused_errno) {
		char why[PATH_MAX * 2 + 512];
		fifo_refusal(p, why, sizeof(why));
		fprintf(f, "interbench: warning: no SCHED_FIFO: the timing thread runs at normal priority "
			"and results are less reliable; %s\n", why);
		lines++;
	}
	if (!p->cap_ipc_lock && p->rlimit_memlock_bytes != UINT64_MAX) {
		fprintf(f, "interbench: warning: no CAP_IPC_LOCK and RLIMIT_MEMLOCK is %llu bytes: main "
			"cannot lock its memory and may be paged out; %s\n",
			(unsigned long long)p->rlimit_memlock_bytes, FIX_CAPS);
		lines++;
	}
	if ((o->realtime || (o->bench_policies & ((1u << SP_FIFO) | (1u << SP_RR) | (1u << SP_DEADLINE)))) &&
	    p->rt_runtime_us == -1) {
		fprintf(f, "interbench: warning: RT throttling is disabled (sched_rt_runtime_us = -1): a "
			"runaway SCHED_FIFO task could lock up this machine\n");
		lines++;
	}
	return lines;
}
