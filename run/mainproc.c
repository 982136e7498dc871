/* The main process's own set-up for a run (run/mainproc.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include "run/mainproc.h"
#include "host/child.h"
#include "explain/tracer.h"
#include "host/machine.h"
#include "host/oom.h"
#include "host/pmqos.h"
#include "lib/text.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

/* Locks main's memory so a page fault never delays it.  MCL_FUTURE only when the lock is
 * unbounded (CAP_IPC_LOCK or an unlimited RLIMIT_MEMLOCK): under a finite limit it would make
 * later allocations (results, JSON) fail once the limit is reached. */
static void lock_memory(const struct privs *pv)
{
	if (SANITIZED) /* a sanitizer's shadow memory is terabytes of reserved address space */
		return;
	bool unbounded = pv->cap_ipc_lock || pv->rlimit_memlock_bytes == UINT64_MAX;
	if (mlockall(MCL_CURRENT | (unbounded ? MCL_FUTURE : 0)) != 0 && unbounded)
		text_message(stderr, "interbench: warning: mlockall: %s", strerror(errno));
	/* with a finite limit privs_warn has already said memory may not be locked */
}

/* Raises the soft RLIMIT_NOFILE to the hard limit (inherited by the loads): Hack and Ring at a
 * large -L need more descriptors than the usual soft limit of 1024. */
static void raise_fd_limit(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
			text_message(stderr, "interbench: warning: setrlimit(RLIMIT_NOFILE): %s", strerror(errno));
	}
}

/* Raises main to the highest SCHED_FIFO priority it may use (children start as SCHED_OTHER
 * through SCHED_RESET_ON_FORK) and locks its memory. */
static void become_realtime(struct mainproc *mp, const struct privs *pv)
{
	if (!mp->rt_ok) /* privs_warn said why */
		return;
	mp->rt_ok = false;
	struct sched_param sp = { .sched_priority = mp->prio_max };
	if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp) != 0) {
		text_message(stderr, "interbench: warning: sched_setscheduler(SCHED_FIFO): %s", strerror(errno));
		return;
	}
	lock_memory(pv);
	mp->rt_ok = true;
}

static int pin_to_cpu0(void)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		text_message(stderr, "interbench: -u: sched_setaffinity: %s", strerror(errno));
		return -1;
	}
	return 0;
}

void mainproc_priority_normal(const struct mainproc *mp, bool normal)
{
	struct sched_param sp = { .sched_priority = normal ? 0 : mp->prio_max };
	if (mp->rt_ok && sched_setscheduler(0, (normal ? SCHED_OTHER : SCHED_FIFO) | SCHED_RESET_ON_FORK, &sp) != 0)
		text_message(stderr, "interbench: warning: sched_setscheduler(%s): %s",
			normal ? "SCHED_OTHER" : "SCHED_FIFO", strerror(errno));
}

/* Refuses l, option name's list, when it names a CPU outside have.  Returns 0, or 2 with one
 * line printed. */
static int check_list(const char *name, const struct optspec_cpus *l, const struct optspec_cpus *have)
{
	char list[256], ok[256];
	for (unsigned c = 0; l->given && c < OPTSPEC_MAX_CPUS; c++)
		if (optspec_cpu_isset(l, c) && !optspec_cpu_isset(have, c)) {
			text_message(stderr, "interbench: %s: '%s' names CPU %u, which this process may not use "
				"(accepted: CPUs of %s)", name, format_cpu_list(l, list, sizeof(list)), c,
				format_cpu_list(have, ok, sizeof(ok)));
			return 2;
		}
	return 0;
}

int mainproc_check_cpus(const struct options *o)
{
	struct optspec_cpus have;
	if (machine_allowed_cpus(&have) == 0)
		return 0;  /* the children's sched_setaffinity will name the problem */
	int rc = check_list("--cpus", &o->cpus, &have);
	for (unsigned i = 0; rc == 0 && i < o->bench_cpus.n; i++)
		rc = check_list("--bench-cpus", &o->bench_cpus.v[i], &have);
	for (unsigned i = 0; rc == 0 && i < o->load_cpus.n; i++)
		rc = check_list("--load-cpus", &o->load_cpus.v[i], &have);
	return rc;
}

/* Whether lists a and b share a CPU. */
static bool overlap(const struct optspec_cpus *a, const struct optspec_cpus *b)
{
	for (size_t i = 0; i < sizeof(a->bits) / sizeof(a->bits[0]); i++)
		if (a->bits[i] & b->bits[i])
			return true;
	return false;
}

/* Refuses l, option name's list, when it holds no CPU of cg's cpuset.  Returns 0, or 2. */
static int check_cgroup_list(const char *name, const struct optspec_cpus *l, const struct cgplace *cg)
{
	struct optspec_cpus set;
	char list[256];
	if (!l->given || !cg->facts.cpuset_cpus_effective[0] || parse_cpu_list(cg->facts.cpuset_cpus_effective, &set) != 0 ||
	    overlap(l, &set))
		return 0;
	text_message(stderr, "interbench: %s: '%s' holds no CPU of the cgroup %s, whose cpuset.cpus.effective is %s "
		     "(accepted: CPUs of it)", name, format_cpu_list(l, list, sizeof(list)), cg->facts.path,
		     cg->facts.cpuset_cpus_effective);
	return 2;
}

int mainproc_check_cgroup_cpus(const struct options *o, const struct cgplace_set sets[2])
{
	const struct optspec_cpu_alts *alts[2] = { &o->bench_cpus, &o->load_cpus };
	static const char *const names[2] = { "--bench-cpus", "--load-cpus" };
	int rc = 0;
	for (int side = 0; side < 2; side++)
		for (unsigned k = 0; rc == 0 && k < sets[side].n; k++) {
			const struct cgplace *cg = &sets[side].v[k];
			if (!alts[side]->n)  /* a side's own lists replace --cpus */
				rc = check_cgroup_list("--cpus", &o->cpus, cg);
			for (unsigned i = 0; rc == 0 && i < alts[side]->n; i++)
				rc = check_cgroup_list(names[side], &alts[side]->v[i], cg);
		}
	return rc;
}

/* Holds --dma-latency's limit when asked.  Returns 0, or 2 with one line printed. */
static int hold_dma_latency(struct mainproc *mp, const struct options *o)
{
	char why[256];
	mp->dma_fd = -1;
	if (o->dma_latency_us < 0)
		return 0;
	mp->dma_fd = pmqos_hold((uint32_t)o->dma_latency_us, why, sizeof(why));
	if (mp->dma_fd >= 0)
		return 0;
	text_message(stderr, "interbench: --dma-latency: %s (accepted: a run as root, on a kernel with PM QoS)", why);
	return 2;
}

/* --explain's tracer, or its floor when BPF cannot trace here.  Returns 0, or 2 with one line
 * printed when neither can be had. */
static int open_explain(struct mainproc *mp, const struct options *o)
{
	char why[256];
	mp->tracer = NULL;
	mp->explain_floor = false;
	if (!o->explain)
		return 0;
	mp->tracer = explain_tracer_open(why, sizeof(why));
	if (mp->tracer)
		return 0;
	FILE *f = fopen("/proc/thread-self/schedstat", "re");
	if (!f) {
		text_message(stderr, "interbench: --explain: cannot trace (%s) nor read /proc/thread-self/schedstat (%s) "
			     "(accepted: a run as root on a kernel with BTF, or a kernel with CONFIG_SCHED_INFO)", why,
			     strerror(errno));
		return 2;
	}
	fclose(f);
	mp->explain_floor = true;
	text_message(stderr, "interbench: --explain: no BPF tracer (%s): each late period is explained only as time "
		     "runnable against time run, from /proc's schedstat", why);
	return 0;
}

void mainproc_probe(struct mainproc *mp)
{
	struct privs pv;
	privs_probe(&pv, FIFO_LEVELS);
	mp->prio_max = privs_fifo_max(&pv);
	mp->rt_ok = mp->prio_max >= FIFO_LEVELS && !pv.fifo_refused_errno;
	mp->dma_fd = -1;
	mp->tracer = NULL;
}

int mainproc_prepare(struct mainproc *mp, const struct options *o, void (*on_signal)(int))
{
	struct privs pv;
	char err[2 * PATH_MAX + 1024]; /* a refusal may name a cgroup directory twice */
	privs_probe(&pv, FIFO_LEVELS);
	if (privs_check_options(&pv, o, FIFO_LEVELS, err, sizeof(err)) != 0) {
		text_message(stderr, "interbench: %s", err);
		return 2;
	}
	if (hold_dma_latency(mp, o) != 0 || open_explain(mp, o) != 0)
		return 2;
	privs_warn(&pv, o, FIFO_LEVELS, stderr);
	stop_signals_catch(on_signal);  /* those ignored at start (nohup) stay ignored */
	signal(SIGPIPE, SIG_IGN);  /* a write to a closed pipe fails with EPIPE and is reported */
	signal(SIGXFSZ, SIG_IGN);  /* a write over RLIMIT_FSIZE fails with EFBIG and is reported */
	/* the OOM killer takes a load first and main, which holds the results, last */
	if (oom_adj_protect_main(err, sizeof(err)) != 0 && errno != EACCES && errno != EPERM && errno != ENOENT)
		text_message(stderr, "interbench: warning: %s", err);
	raise_fd_limit();
	become_realtime(mp, &pv);
	if (o->uniprocessor && pin_to_cpu0() != 0)
		return 1;
	return 0;
}

void mainproc_release(struct mainproc *mp)
{
	if (mp->dma_fd >= 0)
		close(mp->dma_fd); /* releases the latency limit */
	mp->dma_fd = -1;
	explain_tracer_close(mp->tracer); /* detaches every program */
	mp->tracer = NULL;
}
