#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "lib/explain_bpf.h"
#include "sims/explainer.h"

void explainer_init(struct explainer *x, const struct sim_explain *cfg)
{
	memset(x, 0, sizeof(*x));
	x->cfg = cfg;
	x->schedstat_fd = -1;
}

/* Reads the tracked thread's schedstat into *s.  Returns 0, or an errno value. */
static int read_schedstat(int fd, struct explain_schedstat *s)
{
	char buf[128];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n < 0)
		return errno;
	buf[n] = '\0';
	return explain_parse_schedstat(buf, s) == 0 ? 0 : EPROTO;
}

int explainer_thread_start(struct explainer *x)
{
	if (!x->cfg)
		return 0;
	if (x->cfg->tracer) {
		struct explain_owners o = { .load_tgid = (pid_t)x->cfg->load_tgid, .bench_tgid = getpid(),
					    .main_tgid = (pid_t)x->cfg->main_tgid };
		explain_track(x->cfg->tracer, 0, gettid(), &o);
		return 0;
	}
	x->schedstat_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	if (x->schedstat_fd < 0)
		return errno;
	return read_schedstat(x->schedstat_fd, &x->last);
}

void explainer_thread_end(struct explainer *x)
{
	if (x->cfg && x->cfg->tracer)
		explain_track(x->cfg->tracer, 0, 0, NULL);
	if (x->schedstat_fd >= 0)
		close(x->schedstat_fd);
	x->schedstat_fd = -1;
}

void explainer_arm(struct explainer *x, uint64_t period)
{
	if (x->cfg && x->cfg->tracer)
		explain_arm(x->cfg->tracer, 0, period + 1);
}

/* The floor: this period's schedstat deltas (read every period, so the next has its start). */
static int floor_period(struct explainer *x, const struct explain_facts *f, bool explain, struct explain_period *p)
{
	struct explain_schedstat now, d;
	int err = read_schedstat(x->schedstat_fd, &now);
	if (err)
		return err;
	d = (struct explain_schedstat){ .run_ns = now.run_ns - x->last.run_ns, .wait_ns = now.wait_ns - x->last.wait_ns };
	x->last = now;
	if (explain)
		explain_from_schedstat(f, &d, p);
	return 0;
}

int explainer_period_end(struct explainer *x, const struct explain_facts *f, uint64_t lateness_ns,
			 struct explain_summary *s, struct explain_kept *k)
{
	if (!x->cfg || (!x->cfg->tracer && x->schedstat_fd < 0))
		return 0;
	bool explain = f->missed || (x->cfg->threshold_ns && lateness_ns > x->cfg->threshold_ns);
	struct explain_period p;
	if (!x->cfg->tracer) {
		int err = floor_period(x, f, explain, &p);
		if (err) {
			close(x->schedstat_fd);
			x->schedstat_fd = -1;
			return err;
		}
	} else if (explain) {
		if (!explain_read(x->cfg->tracer, 0, f->index + 1, &x->acc)) {
			uint64_t running_since_ns = x->acc.oncpu_since_ns;
			memset(&x->acc, 0, sizeof(x->acc));
			x->acc.oncpu_since_ns = running_since_ns;
		}
		explain_from_bpf(f, &x->acc, &p);
	}
	if (explain)
		explain_summary_add(s, k, &p);
	return 0;
}
