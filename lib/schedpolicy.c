#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "lib/schedpolicy.h"

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6     /* include/uapi/linux/sched.h */
#endif
#ifndef SCHED_IDLE
#define SCHED_IDLE 5
#endif
#ifndef SCHED_BATCH
#define SCHED_BATCH 3
#endif

/* The kernel's struct sched_attr, first version (SCHED_ATTR_SIZE_VER0, 48 bytes). */
struct ib_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

static const struct { const char *name; int policy; const char *words; } kinds[SP_KINDS] = {
	[SP_OTHER] = { "other", SCHED_OTHER, "SCHED_OTHER" },
	[SP_BATCH] = { "batch", SCHED_BATCH, "SCHED_BATCH" },
	[SP_IDLE] = { "idle", SCHED_IDLE, "SCHED_IDLE" },
	[SP_FIFO] = { "fifo", SCHED_FIFO, "real time" },
	[SP_RR] = { "rr", SCHED_RR, "SCHED_RR" },
	[SP_DEADLINE] = { "deadline", SCHED_DEADLINE, "SCHED_DEADLINE" },
};

const char *sched_kind_name(unsigned kind)
{
	return kind < SP_KINDS ? kinds[kind].name : NULL;
}

bool sched_kind_realtime(enum sched_kind kind)
{
	return kind == SP_FIFO || kind == SP_RR || kind == SP_DEADLINE;
}

bool sched_kind_has_nice(enum sched_kind kind)
{
	return kind == SP_OTHER || kind == SP_BATCH;
}

bool sched_setting_is_default(const struct sched_setting *s)
{
	return s->kind == SP_OTHER && s->nice == 0 && s->slice_ns == 0;
}

static const char *policy_text(const struct sched_setting *s, char *buf, size_t len)
{
	if (s->kind == SP_DEADLINE)
		snprintf(buf, len, "SCHED_DEADLINE runtime %.3g ms, deadline %.3g ms, period %.3g ms",
			 s->dl_runtime_ns / 1e6, s->dl_deadline_ns / 1e6, s->dl_period_ns / 1e6);
	else if (sched_kind_realtime(s->kind))
		snprintf(buf, len, "%s %d", s->kind == SP_FIFO ? "SCHED_FIFO" : "SCHED_RR", s->rt_prio);
	else if (sched_kind_has_nice(s->kind) && s->slice_ns)
		snprintf(buf, len, "%s nice %d slice %.3g ms", kinds[s->kind].words, s->nice, s->slice_ns / 1e6);
	else if (sched_kind_has_nice(s->kind))
		snprintf(buf, len, "%s nice %d", kinds[s->kind].words, s->nice);
	else
		snprintf(buf, len, "%s", kinds[s->kind].words);
	return buf;
}

int sched_setting_apply(pid_t tid, const struct sched_setting *s, char *err, size_t errlen)
{
	struct ib_sched_attr a = { .size = sizeof(a), .sched_policy = (uint32_t)kinds[s->kind].policy };
	if (sched_kind_has_nice(s->kind)) {
		a.sched_nice = s->nice;
		a.sched_runtime = s->slice_ns;
	}
	if (s->kind == SP_FIFO || s->kind == SP_RR)
		a.sched_priority = (uint32_t)s->rt_prio;
	if (s->kind == SP_DEADLINE) {
		a.sched_runtime = s->dl_runtime_ns;
		a.sched_deadline = s->dl_deadline_ns;
		a.sched_period = s->dl_period_ns;
	}
	if (syscall(SYS_sched_setattr, tid, &a, 0) == 0)
		return 0;
	int e = errno;
	char what[128];
	snprintf(err, errlen, "sched_setattr(%s): %s", policy_text(s, what, sizeof(what)), strerror(e));
	errno = e;
	return -1;
}

int sched_setting_get(pid_t tid, struct sched_setting *s)
{
	struct ib_sched_attr a;
	memset(&a, 0, sizeof(a));
	if (syscall(SYS_sched_getattr, tid, &a, sizeof(a), 0) != 0)
		return -1;
	memset(s, 0, sizeof(*s));
	for (unsigned k = 0; k < SP_KINDS; k++)
		if ((uint32_t)kinds[k].policy == a.sched_policy)
			s->kind = (enum sched_kind)k;
	s->nice = a.sched_nice;
	s->rt_prio = (int)a.sched_priority;
	s->dl_runtime_ns = a.sched_runtime;
	s->dl_deadline_ns = a.sched_deadline;
	s->dl_period_ns = a.sched_period;
	if (sched_kind_has_nice(s->kind))
		s->slice_ns = a.sched_runtime;
	return 0;
}

struct slice_probe {
	uint64_t slice_ns, kept_ns;
	int error;
	char *err;
	size_t errlen;
};

static void *slice_probe_thread(void *arg)
{
	struct slice_probe *p = arg;
	struct sched_setting s = { .kind = SP_OTHER, .slice_ns = p->slice_ns }, back;
	if (sched_setting_apply(0, &s, p->err, p->errlen) != 0) {
		p->error = errno;
		return NULL;
	}
	if (sched_setting_get(0, &back) != 0) {
		p->error = errno;
		snprintf(p->err, p->errlen, "sched_getattr: %s", strerror(errno));
		return NULL;
	}
	p->kept_ns = back.slice_ns;
	return NULL;
}

int sched_slice_probe(uint64_t slice_ns, uint64_t *kept_ns, char *err, size_t errlen)
{
	struct slice_probe p = { .slice_ns = slice_ns, .err = err, .errlen = errlen };
	pthread_t t;
	int rc = pthread_create(&t, NULL, slice_probe_thread, &p);
	if (rc != 0) {
		snprintf(err, errlen, "pthread_create: %s", strerror(rc));
		return -1;
	}
	pthread_join(t, NULL);
	if (p.error)
		return -1;
	if (!p.kept_ns) {
		snprintf(err, errlen, "this kernel kept no slice (sched_setattr took sched_runtime %.3g ms for SCHED_OTHER, "
			 "sched_getattr read back 0: per-task slices need Linux 6.12 or later)", slice_ns / 1e6);
		return -1;
	}
	*kept_ns = p.kept_ns;
	return 0;
}

/* " slice 3000us" after words of length n in buf, for a slice asked for. */
static void add_slice(const struct sched_setting *s, char *buf, size_t len)
{
	size_t n = strlen(buf);
	if (sched_kind_has_nice(s->kind) && s->slice_ns && n < len)
		snprintf(buf + n, len - n, "%sslice %lluus", n ? " " : "", (unsigned long long)(s->slice_ns / 1000));
}

/* " timer-woken" after words of length n in buf, for a task on its own timer. */
static void add_wake(const struct sched_setting *s, char *buf, size_t len)
{
	size_t n = strlen(buf);
	if (s->own_timer && n < len)
		snprintf(buf + n, len - n, "%stimer-woken", n ? " " : "");
}

/* " CPUs 1" and " 4 threads" after the words in buf, for a side a sweep places or widens. */
static void add_place(const struct sched_setting *s, char *buf, size_t len)
{
	size_t n = strlen(buf);
	if (s->cpus && n < len) {
		char cpus[256];
		snprintf(buf + n, len - n, "%sCPUs %s", n ? " " : "", format_cpu_list(s->cpus, cpus, sizeof(cpus)));
		n = strlen(buf);
	}
	if (s->threads && n < len) {
		snprintf(buf + n, len - n, "%s%u thread%s", n ? " " : "", s->threads, s->threads == 1 ? "" : "s");
		n = strlen(buf);
	}
	if (s->cgroup && n < len) {
		snprintf(buf + n, len - n, "%scgroup %s", n ? " " : "", s->cgroup);
		n = strlen(buf);
	}
	if (s->scheduler && n < len)
		snprintf(buf + n, len - n, "%s%s%s", n ? " " : "", strcmp(s->scheduler, SCHED_FAIR_CLASS) ? "sched_ext " : "",
			 s->scheduler);
}

const char *sched_setting_words(const struct sched_setting *s, char *buf, size_t len)
{
	if (s->kind == SP_OTHER && s->nice == 0)
		buf[0] = '\0';
	else if (s->kind == SP_OTHER)
		snprintf(buf, len, "nice %d", s->nice);
	else if (s->kind == SP_BATCH && s->nice)
		snprintf(buf, len, "SCHED_BATCH nice %d", s->nice);
	else
		snprintf(buf, len, "%s", kinds[s->kind].words);
	add_slice(s, buf, len);
	add_wake(s, buf, len);
	add_place(s, buf, len);
	return buf;
}

const char *sched_setting_label(const struct sched_setting *s, char *buf, size_t len)
{
	if (s->kind == SP_OTHER)
		snprintf(buf, len, "nice %d", s->nice);
	else if (s->kind == SP_BATCH)
		snprintf(buf, len, "batch nice %d", s->nice);
	else if (s->kind == SP_FIFO || s->kind == SP_RR)
		snprintf(buf, len, "%s %d", kinds[s->kind].name, s->rt_prio);
	else
		snprintf(buf, len, "%s", kinds[s->kind].name);
	add_slice(s, buf, len);
	add_wake(s, buf, len);
	add_place(s, buf, len);
	return buf;
}

int sched_pin_cpus(const struct optspec_cpus *cpus, char *err, size_t errlen)
{
	cpu_set_t set;
	if (!cpus || !cpus->given)
		return 0;
	CPU_ZERO(&set);
	for (unsigned c = 0; c < OPTSPEC_MAX_CPUS && c < CPU_SETSIZE; c++)
		if (optspec_cpu_isset(cpus, c))
			CPU_SET(c, &set);
	if (sched_setaffinity(0, sizeof(set), &set) == 0)
		return 0;
	int saved = errno;
	char list[256];
	snprintf(err, errlen, "sched_setaffinity(%s): %s", format_cpu_list(cpus, list, sizeof(list)), strerror(saved));
	errno = saved;
	return -1;
}
