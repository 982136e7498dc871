#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "host/child.h"
#include "host/oom.h"
#include "lib/timeutil.h"

/* Closes descriptors first..last; close_range, or a close() loop on kernels before 5.9. */
static void close_fds(unsigned first, unsigned last)
{
	if (close_range(first, last, 0) == 0 || errno != ENOSYS)
		return;
	long max = sysconf(_SC_OPEN_MAX);
	if (max < 0 || max > 65536)
		max = 65536;
	for (unsigned fd = first; fd <= last && fd < (unsigned)max; fd++)
		close((int)fd);
}

static int cmp_int(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* Closes every descriptor above 2 except the n in keep (sorted here), so no child holds
 * another child's pipe end (which would hide that child's death from main). */
static void close_others(int *keep, unsigned n)
{
	qsort(keep, n, sizeof(*keep), cmp_int);
	unsigned next = 3;
	for (unsigned i = 0; i < n; i++) {
		if (keep[i] < (int)next)
			continue;
		if ((unsigned)keep[i] > next)
			close_fds(next, (unsigned)keep[i] - 1);
		next = (unsigned)keep[i] + 1;
	}
	close_fds(next, ~0U);
}

void stop_signals_fill(sigset_t *set)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM,
				    SIGVTALRM, SIGPROF, SIGXCPU, SIGIO, SIGPWR, SIGSTKFLT };
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(set, sigs[i]);
	for (int s = SIGRTMIN; s <= SIGRTMAX; s++)
		sigaddset(set, s);
}

unsigned stop_signals_catch(void (*handler)(int))
{
	struct sigaction sa = { .sa_handler = handler }, old;
	sigset_t stop_sigs;
	stop_signals_fill(&stop_sigs);
	sigemptyset(&sa.sa_mask);
	unsigned kept = 0;
	for (int s = 1; s <= SIGRTMAX; s++) {
		if (sigismember(&stop_sigs, s) != 1 || sigaction(s, NULL, &old) != 0)
			continue;
		if (old.sa_handler == SIG_IGN)
			kept++;   /* ignored at start (nohup, a background job): stays ignored */
		else
			sigaction(s, &sa, NULL);
	}
	return kept;
}

/* Runs first in a new child, with main's stop signals still blocked (see child_spawn), so
 * main's handler never runs in the child. */
static void child_setup(pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) {
		fprintf(stderr, "interbench: prctl(PR_SET_PDEATHSIG): %s\n", strerror(errno));
		_exit(1);
	}
	if (getppid() != parent) /* main died before the line above took effect */
		_exit(1);
	/* A terminal Ctrl-C, a hangup or a service manager's SIGTERM reaches the whole process
	 * group; children stop only when main asks, so main can collect what they measured.
	 * If main itself dies, PDEATHSIG ends them. */
	sigset_t stop_sigs;
	stop_signals_fill(&stop_sigs);
	for (int s = 1; s <= SIGRTMAX; s++)
		if (sigismember(&stop_sigs, s) == 1)
			signal(s, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	signal(SIGCHLD, SIG_DFL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

int child_spawn(struct child *c, const char *name, child_body body, void *arg, const int *keep_fds,
		unsigned n_keep)
{
	int ctl[2], res[2];
	if (n_keep > CHILD_MAX_KEEP_FDS) {
		errno = EINVAL;
		return -1;
	}
	memset(c, 0, sizeof(*c));
	c->ctl_fd = c->res_fd = -1;
	if (pipe2(ctl, O_CLOEXEC) != 0)
		return -1;
	if (pipe2(res, O_CLOEXEC) != 0) {
		int e = errno;
		close(ctl[0]);
		close(ctl[1]);
		errno = e;
		return -1;
	}
	pid_t parent = getpid();
	sigset_t stop_sigs, old;
	stop_signals_fill(&stop_sigs);
	fflush(NULL); /* nothing buffered may be written twice */
	sigprocmask(SIG_BLOCK, &stop_sigs, &old); /* held until the child ignores them */
	pid_t pid = fork();
	if (pid != 0)
		sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0) {
		int e = errno;
		close(ctl[0]); close(ctl[1]); close(res[0]); close(res[1]);
		errno = e;
		return -1;
	}
	if (pid == 0) {
		int keep[CHILD_MAX_KEEP_FDS + 2] = { ctl[0], res[1] };
		for (unsigned i = 0; i < n_keep; i++)
			keep[2 + i] = keep_fds[i];
		child_setup(parent);
		prctl(PR_SET_NAME, name);
		close_others(keep, n_keep + 2);
		_exit(body(arg, ctl[0], res[1]));
	}
	close(ctl[0]);
	close(res[1]);
	c->pid = pid;
	c->ctl_fd = ctl[1];
	c->res_fd = res[0];
	return 0;
}

void child_control_priority(int prio)
{
	struct sched_param sp = { .sched_priority = prio };
	if (prio > 0)
		pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp); /* refused: stays as it is */
}

void child_wait_stop(int ctl_fd)
{
	char b;
	while (read(ctl_fd, &b, 1) < 0 && errno == EINTR)
		;
}

bool child_stop_requested(int ctl_fd, int timeout_ms)
{
	struct pollfd pfd = { .fd = ctl_fd, .events = POLLIN };
	int rc;
	while ((rc = poll(&pfd, 1, timeout_ms)) < 0 && errno == EINTR)
		;
	return rc != 0;
}

int fd_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int fd_read_all(int fd, void *buf, size_t len, int timeout_ms)
{
	char *p = buf;
	uint64_t end_ns = now_ns() + (uint64_t)timeout_ms * NS_PER_MS;
	while (len > 0) {
		uint64_t t = now_ns();
		if (t >= end_ns) {
			errno = ETIMEDOUT;
			return -1;
		}
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int rc = poll(&pfd, 1, (int)((end_ns - t + NS_PER_MS - 1) / NS_PER_MS));
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc < 0)
			return -1;
		if (rc == 0)
			continue;
		ssize_t n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = EPIPE;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

void child_request_stop(struct child *c)
{
	if (c->ctl_fd >= 0) {
		close(c->ctl_fd);
		c->ctl_fd = -1;
	}
}

int child_reap(struct child *c, int timeout_ms)
{
	int killed = 0;
	child_request_stop(c);
	if (c->pid > 0 && !c->reaped) {
		uint64_t end_ns = now_ns() + (uint64_t)timeout_ms * NS_PER_MS;
		for (;;) {
			pid_t r = waitpid(c->pid, &c->status, WNOHANG);
			if (r == c->pid || (r < 0 && errno != EINTR))
				break;
			if (now_ns() >= end_ns) {
				kill(c->pid, SIGKILL);
				while (waitpid(c->pid, &c->status, 0) < 0 && errno == EINTR)
					;
				killed = 1;
				break;
			}
			sleep_for_ns(5 * NS_PER_MS);
		}
		c->reaped = true;
	}
	if (c->res_fd >= 0) {
		close(c->res_fd);
		c->res_fd = -1;
	}
	return killed;
}

/* The RLIMIT_RTTIME that sends sig (SIGXCPU: the soft limit, SIGKILL: the hard one), in
 * microseconds, or RLIM_INFINITY when none applies. */
static rlim_t rttime_limit_us(int sig)
{
	struct rlimit rl;
	if ((sig != SIGKILL && sig != SIGXCPU) || getrlimit(RLIMIT_RTTIME, &rl) != 0)
		return RLIM_INFINITY;
	return sig == SIGKILL ? rl.rlim_max : rl.rlim_cur;
}

void child_describe_death(int status, const struct child_fate *f, char *buf, size_t len)
{
	child_describe_status(status, buf, len);
	if (!WIFSIGNALED(status))
		return;
	int sig = WTERMSIG(status);
	size_t used = strlen(buf);
	uint64_t kills = sig == SIGKILL && f->oom_kills_before != UINT64_MAX ? oom_kill_count() : UINT64_MAX;
	rlim_t rt_us = f->realtime ? rttime_limit_us(sig) : RLIM_INFINITY;
	if (kills != UINT64_MAX && kills > f->oom_kills_before)
		snprintf(buf + used, len - used, ": the OOM killer? (%llu OOM kill%s meanwhile)",
			 (unsigned long long)(kills - f->oom_kills_before), kills - f->oom_kills_before > 1 ? "s" : "");
	else if (rt_us != RLIM_INFINITY)
		snprintf(buf + used, len - used, ": RLIMIT_RTTIME%s of %llu us exceeded?",
			 sig == SIGXCPU ? " soft limit" : "", (unsigned long long)rt_us);
}

void child_describe_status(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status))
		snprintf(buf, len, "exit status %d", WEXITSTATUS(status));
	else
		snprintf(buf, len, "status 0x%x", status);
}

int child_exec_prepare(pid_t parent, int out_fd, int err_fd, int keep_fd)
{
	sigset_t none;
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0 || getppid() != parent)
		return -1;
	setpgid(0, 0);
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null < 0 || dup2(null, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0 ||
	    (keep_fd >= 0 && (dup2(keep_fd, 3) < 0 || fcntl(3, F_SETFD, FD_CLOEXEC) != 0)))
		return -1;
	close_range(keep_fd >= 0 ? 4 : 3, ~0U, 0);
	for (int s = 1; s < NSIG; s++)
		if (s != SIGKILL && s != SIGSTOP)
			signal(s, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (sched_getscheduler(0) != SCHED_OTHER &&
	    sched_setscheduler(0, SCHED_OTHER, &(struct sched_param){ .sched_priority = 0 }) != 0)
		return -1;
	return 0;
}
