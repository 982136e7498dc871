/* --on-threshold (run/threshold.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "explain/model.h"
#include "host/child.h"
#include "explain/text.h"
#include "lib/text.h"
#include "lib/timeutil.h"
#include "run/options.h"
#include "run/threshold.h"

extern char **environ;

/* Says what is wrong with text into err.  Returns -1. */
static int refuse(const char *text, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "--on-threshold: '%s': %s (accepted: %s)", text, what, THRESHOLD_ACCEPTED);
	text_printable_line(err);  /* it quotes the user's text: one printable line */
	return -1;
}

/* A signal's number or name (USR1, SIGUSR1, any case) into *sig.  Returns 0 or -1. */
static int signal_of(const char *s, int *sig)
{
	int64_t v;
	if (parse_i64(s, 1, SIGRTMAX, &v) == 0) {
		*sig = (int)v;
		return 0;
	}
	const char *name = strncasecmp(s, "SIG", 3) == 0 ? s + 3 : s;
	for (int k = 1; k < NSIG; k++)
		if (sigabbrev_np(k) && strcasecmp(name, sigabbrev_np(k)) == 0) {
			*sig = k;
			return 0;
		}
	return -1;
}

/* "SIG,pid=PID" into r.  Returns 0, or -1 with err set. */
static int signal_action(const char *text, const char *a, struct threshold_rule *r, char *err, size_t errlen)
{
	char sig[32];
	const char *pid = strstr(a, ",pid=");
	int64_t v;
	if (!pid || (size_t)(pid - a) >= sizeof(sig))
		return refuse(text, "signal needs SIG,pid=PID", err, errlen);
	snprintf(sig, sizeof(sig), "%.*s", (int)(pid - a), a);
	if (signal_of(sig, &r->signo) != 0)
		return refuse(text, "no such signal", err, errlen);
	pid += strlen(",pid=");
	if (strcmp(pid, "parent") == 0)
		r->pid = 0;
	else if (parse_i64(pid, 2, INT32_MAX, &v) == 0)
		r->pid = (pid_t)v;
	else
		return refuse(text, "PID must be a process above 1 or parent (never a group, every process or init)", err,
			      errlen);
	r->kind = THRESHOLD_SIGNAL;
	return 0;
}

int threshold_parse(const char *text, struct threshold_rule *r, char *err, size_t errlen)
{
	char lat[32];
	const char *colon = strchr(text, ':');
	memset(r, 0, sizeof(*r));
	r->text = text;
	r->child_errfd = -1;
	r->event = -1;
	if (!colon || (size_t)(colon - text) >= sizeof(lat))
		return refuse(text, "no LATENCY: before the action", err, errlen);
	snprintf(lat, sizeof(lat), "%.*s", (int)(colon - text), text);
	if (explain_parse_threshold(lat, &r->latency_ns) != 0)
		return refuse(text, "invalid latency", err, errlen);
	const char *a = colon + 1;
	if (strcmp(a, "stop") == 0)
		r->kind = THRESHOLD_STOP;
	else if (strncmp(a, "signal=", 7) == 0)
		return signal_action(text, a + 7, r, err, errlen);
	else if (strncmp(a, "exec=", 5) != 0)
		return refuse(text, "unknown action", err, errlen);
	else if (run_command_split(a + 5, r->words, sizeof(r->words), r->argv) < 0)
		return refuse(text, "exec needs a command of 1 to 32 words within 1023 bytes, its quotes closed", err, errlen);
	else
		r->kind = THRESHOLD_EXEC;
	return 0;
}

int threshold_check_options(const struct options *o, char *err, size_t errlen)
{
	static struct threshold_rule r; /* 1.3 KB of words: not on the parse's stack */
	for (unsigned i = 0; i < o->on_threshold.n; i++)
		if (threshold_parse(o->on_threshold.v[i], &r, err, errlen) != 0)
			return -1;
	return 0;
}

int threshold_init(struct threshold_run *th, const struct options *o)
{
	char err[512];
	memset(th, 0, sizeof(*th));
	th->notify[0] = th->notify[1] = -1;
	for (unsigned i = 0; i < o->on_threshold.n; i++)
		if (threshold_parse(o->on_threshold.v[i], &th->r[th->n], err, sizeof(err)) == 0)
			th->n++;  /* threshold_check_options refused the others before */
	if (!th->n)
		return 0;
	th->repeat = o->on_threshold_repeat;
	th->timeout_ns = (uint64_t)(o->on_threshold_timeout_s ? o->on_threshold_timeout_s : THRESHOLD_TIMEOUT_S_DEFAULT) * NS_PER_S;
	th->explain = o->explain;
	void *w = mmap(NULL, sizeof(*th->watch), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (w == MAP_FAILED) {
		text_message(stderr, "interbench: --on-threshold: mmap: %s", strerror(errno));
		th->n = 0;
		return -1;
	}
	th->watch = w;
	atomic_store(&th->watch->threshold_ns, UINT64_MAX);
	th->watch->notify_fd = -1;
	return 0;
}

uint64_t threshold_least_ns(const struct threshold_run *th)
{
	uint64_t least = UINT64_MAX;
	for (unsigned i = 0; th && i < th->n; i++)
		if (th->r[i].latency_ns < least)
			least = th->r[i].latency_ns;
	return least;
}

/* The least latency of the rules that may still act in this pair: UINT64_MAX when none may. */
static uint64_t armed_ns(const struct threshold_run *th)
{
	uint64_t least = UINT64_MAX;
	for (unsigned i = 0; i < th->n; i++)
		if ((th->repeat || !th->r[i].fired) && th->r[i].latency_ns < least)
			least = th->r[i].latency_ns;
	return least;
}

int threshold_pair_begin(struct threshold_run *th, const char *task, const char *load, unsigned repeat_no,
			 struct threshold_events *events)
{
	if (!th || !th->watch)
		return -1;
	th->task = task;
	th->load = load;
	th->repeat_no = repeat_no;
	th->bench_pid = 0;
	th->events = events;
	for (unsigned i = 0; i < th->n; i++)
		th->r[i].fired = false;
	if (pipe2(th->notify, O_CLOEXEC | O_NONBLOCK) != 0) {
		text_message(stderr, "interbench: --on-threshold: pipe: %s (this pair is not watched)", strerror(errno));
		th->notify[0] = th->notify[1] = -1;
		return -1;
	}
	th->watch->notify_fd = th->notify[1];
	atomic_store(&th->watch->pending, 0);
	atomic_store(&th->watch->threshold_ns, armed_ns(th));
	return th->notify[1];
}

int threshold_poll_fd(const struct threshold_run *th)
{
	return th && th->watch ? th->notify[0] : -1;
}

/* A new event of rule i for the period in w, or NULL when the record is full (counted). */
static struct threshold_event *event_new(struct threshold_run *th, unsigned i, const struct sim_late_watch *w)
{
	struct threshold_events *ev = th->events;
	if (!ev || ev->n >= THRESHOLD_EVENTS_MAX) {
		if (ev && ev->dropped++ == 0)
			text_message(stderr, "interbench: --on-threshold: more than %d actions in %s vs %s: the rest are "
				     "taken and counted, not said", THRESHOLD_EVENTS_MAX, th->task, th->load);
		return NULL;
	}
	struct threshold_event *e = &ev->e[ev->n++];
	*e = (struct threshold_event){ .rule = i, .latency_ns = w->latency_ns, .period = w->period, .at_ns = w->at_ns };
	return e;
}

/* Sets e's outcome and says it on stderr, as rule r's; e NULL: an action past the record's
 * room, neither kept nor said (event_new said once that they are counted). */
static void outcome(const struct threshold_rule *r, struct threshold_event *e, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void outcome(const struct threshold_rule *r, struct threshold_event *e, bool ok, const char *fmt, ...)
{
	if (!e)
		return;
	char buf[sizeof(e->outcome)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	e->ok = ok;
	snprintf(e->outcome, sizeof(e->outcome), "%s", buf);
	text_message(stderr, "interbench: --on-threshold %s: %s", r->text, buf);
}

/* --explain: the late period's explanation, on stderr before the action. */
static void write_why(const struct threshold_run *th, const struct sim_late_watch *w)
{
	static struct explain_summary s; /* 2 KB: not on main's stack in the window */
	if (!th->explain)
		return;
	if (!w->explained) {
		text_message(stderr, "interbench: --on-threshold: why: period %llu was not explained (the --explain "
			     "floor stopped, or the tracer saw no period)", (unsigned long long)w->period);
		return;
	}
	memset(&s, 0, sizeof(s));
	s.source = w->why.source;
	s.threshold_ns = threshold_least_ns(th);  /* explained past it (run/matrix.c), or missed */
	explain_summary_add(&s, NULL, &w->why);
	explain_summary_sort(&s);
	explain_text_why(stderr, "interbench: --on-threshold: why:", &s, th->load, th->repeat_no, 0);
	fputc('\n', stderr);
}

/* The environment of rule r's command: interbench's, with the facts of the late period w. */
static char **command_env(const struct threshold_run *th, const struct threshold_rule *r,
			  const struct sim_late_watch *w, char (*facts)[96])
{
	size_t n = 0, k = 0;
	while (environ && environ[n])
		n++;
	char **env = calloc(n + 9, sizeof(*env));
	if (!env)
		return NULL;
	snprintf(facts[0], 96, "IB_LATENCY_US=%llu", (unsigned long long)(w->latency_ns / 1000));
	snprintf(facts[1], 96, "IB_LATENCY_NS=%llu", (unsigned long long)w->latency_ns);
	snprintf(facts[2], 96, "IB_THRESHOLD_US=%llu", (unsigned long long)(r->latency_ns / 1000));
	snprintf(facts[3], 96, "IB_TASK=%s", th->task);
	snprintf(facts[4], 96, "IB_LOAD=%s", th->load);
	snprintf(facts[5], 96, "IB_PERIOD=%llu", (unsigned long long)w->period);
	snprintf(facts[6], 96, "IB_REPEAT=%u", th->repeat_no);
	snprintf(facts[7], 96, "IB_BENCH_PID=%d", (int)th->bench_pid);
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "IB_", 3) != 0)  /* ours replace any the caller had */
			env[k++] = environ[i];
	for (int i = 0; i < 8; i++)
		env[k++] = facts[i];
	env[k] = NULL;
	return env;
}

/* In the child, every signal still blocked: killed with main, its own process group, stdin
 * /dev/null, stdout onto main's stderr, errfd (CLOEXEC) kept as the only other descriptor for
 * an exec failure's errno, the default signals, none blocked; then the command.  Never returns. */
static void exec_child(const struct threshold_rule *r, char **env, int errfd, pid_t parent)
{
	if (child_exec_prepare(parent, 2, 2, errfd) != 0)
		_exit(126);
	execvpe(r->argv[0], r->argv, env);
	int e = errno;
	if (write(3, &e, sizeof(e)) != (ssize_t)sizeof(e)) { /* the parent then says exit status 127 */ }
	_exit(127);
}

/* Starts rule r's command for the late period w.  Returns 0, or -1 with err naming the call. */
static int spawn(struct threshold_run *th, struct threshold_rule *r, const struct sim_late_watch *w, char *err,
		 size_t len)
{
	char facts[8][96];
	int pfd[2];
	char **env = command_env(th, r, w, facts);
	if (!env || pipe2(pfd, O_CLOEXEC) != 0) {
		snprintf(err, len, "%s: %s", env ? "pipe" : "calloc", strerror(errno));
		free(env);
		return -1;
	}
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pid_t parent = getpid(), pid = fork();
	int fork_errno = errno;
	if (pid == 0)
		exec_child(r, env, pfd[1], parent);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	free(env);
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		snprintf(err, len, "fork: %s", strerror(fork_errno));
		return -1;
	}
	r->child = pid;
	r->child_errfd = pfd[0];
	r->deadline_ns = now_ns() + th->timeout_ns;
	r->termed = false;
	return 0;
}

/* Rule i acts on the late period w. */
static void fire(struct threshold_run *th, unsigned i, const struct sim_late_watch *w)
{
	struct threshold_rule *r = &th->r[i];
	struct threshold_event *e = event_new(th, i, w);
	char err[160];
	if (e)  /* else past the record's room: taken, counted, not said */
		text_message(stderr, "interbench: --on-threshold %s: %s vs %s: period %llu at %.3f s, scheduling latency "
			     "%.3f ms over %.3f ms", r->text, th->task, th->load, (unsigned long long)w->period,
			     w->at_ns / 1e9, w->latency_ns / 1e6, r->latency_ns / 1e6);
	r->fired = true;
	if (r->kind == THRESHOLD_EXEC && r->child) {
		outcome(r, e, false, "skipped: its command (pid %d) still runs", (int)r->child);
		return;
	}
	if (r->kind == THRESHOLD_STOP) {
		th->stop = true;
		outcome(r, e, true, "stopping the run after this pair");
	} else if (r->kind == THRESHOLD_SIGNAL) {
		pid_t to = r->pid ? r->pid : getppid();
		if (kill(to, r->signo) == 0)
			outcome(r, e, true, "SIG%s sent to %d", sigabbrev_np(r->signo), (int)to);
		else
			outcome(r, e, false, "kill(%d, SIG%s): %s", (int)to, sigabbrev_np(r->signo), strerror(errno));
	} else if (spawn(th, r, w, err, sizeof(err)) != 0) {
		outcome(r, e, false, "%s", err);
	} else {
		r->event = e ? (int)(e - th->events->e) : -1;
		if (e)
			text_message(stderr, "interbench: --on-threshold %s: started %s (pid %d)", r->text, r->argv[0],
				     (int)r->child);
	}
}

void threshold_take(struct threshold_run *th)
{
	char buf[64];
	struct sim_late_watch *w = th ? th->watch : NULL;
	if (!w)
		return;
	if (th->notify[0] >= 0)
		while (read(th->notify[0], buf, sizeof(buf)) > 0)
			;
	if (!atomic_load_explicit(&w->pending, memory_order_acquire))
		return;
	bool acts[OPTSPEC_TEXTS_MAX], any = false;
	for (unsigned i = 0; i < th->n; i++)
		any |= acts[i] = (th->repeat || !th->r[i].fired) && w->latency_ns > th->r[i].latency_ns;
	if (any && (!th->events || th->events->n < THRESHOLD_EVENTS_MAX))
		write_why(th, w);  /* once, before the first action; not for actions past the record */
	for (unsigned i = 0; i < th->n; i++)
		if (acts[i])
			fire(th, i, w);
	atomic_store(&w->threshold_ns, armed_ns(th));
	atomic_store_explicit(&w->pending, 0, memory_order_release);
}

/* Rule r's command ended with wait status ws: its outcome recorded and, when not a success,
 * said. */
static void finished(struct threshold_run *th, struct threshold_rule *r, int ws)
{
	int e = 0;
	struct threshold_event *ev = th->events && r->event >= 0 ? &th->events->e[r->event] : NULL;
	bool exec_failed = read(r->child_errfd, &e, sizeof(e)) == (ssize_t)sizeof(e);
	close(r->child_errfd);
	r->child_errfd = -1;
	r->child = 0;
	r->event = -1;
	if (exec_failed)
		outcome(r, ev, false, "execvp(%s): %s", r->argv[0], strerror(e));
	else if (r->termed)
		outcome(r, ev, false, "killed after %.0f s (--on-threshold-timeout)", th->timeout_ns / 1e9);
	else if (WIFEXITED(ws) && WEXITSTATUS(ws) == 0 && ev)  /* a success is said by its own output */
		*ev = (struct threshold_event){ .rule = ev->rule, .latency_ns = ev->latency_ns, .period = ev->period,
						.at_ns = ev->at_ns, .ok = true, .outcome = "exit status 0" };
	else if (WIFEXITED(ws))
		outcome(r, ev, WEXITSTATUS(ws) == 0, "%s: exit status %d", r->argv[0], WEXITSTATUS(ws));
	else
		outcome(r, ev, false, "%s: killed by signal %d (%s)", r->argv[0], WTERMSIG(ws), strsignal(WTERMSIG(ws)));
}

/* Sends sig to r's command and its process group. */
static void signal_command(const struct threshold_rule *r, int sig)
{
	kill(-r->child, sig);
	kill(r->child, sig);  /* before its setpgid the group is not yet there */
}

void threshold_poll(struct threshold_run *th, uint64_t t_ns)
{
	for (unsigned i = 0; th && i < th->n; i++) {
		struct threshold_rule *r = &th->r[i];
		int ws;
		if (!r->child)
			continue;
		pid_t got = waitpid(r->child, &ws, WNOHANG);
		if (got == r->child || (got < 0 && errno == ECHILD)) {
			finished(th, r, got == r->child ? ws : 0);
		} else if (t_ns >= r->deadline_ns) {
			signal_command(r, r->termed ? SIGKILL : SIGTERM);
			if (!r->termed)
				r->deadline_ns = t_ns + THRESHOLD_KILL_GRACE_NS;
			r->termed = true;
		}
	}
}

/* Whether a command of th still runs. */
static bool running(const struct threshold_run *th)
{
	for (unsigned i = 0; i < th->n; i++)
		if (th->r[i].child)
			return true;
	return false;
}

void threshold_pair_end(struct threshold_run *th, bool interrupted)
{
	if (!th || !th->watch)
		return;
	threshold_take(th);  /* a period posted as the window closed */
	atomic_store(&th->watch->threshold_ns, UINT64_MAX);
	for (int k = 0; k < 2; k++)
		if (th->notify[k] >= 0)
			close(th->notify[k]);
	th->notify[0] = th->notify[1] = -1;
	th->watch->notify_fd = -1;
	for (unsigned i = 0; interrupted && i < th->n; i++)
		if (th->r[i].child && !th->r[i].termed)
			th->r[i].deadline_ns = 0;  /* SIGTERM at once */
	while (running(th)) {
		threshold_poll(th, now_ns());
		if (running(th))
			nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
	}
	th->events = NULL;
}

bool threshold_stopping(const struct threshold_run *th)
{
	return th && th->stop;
}

void threshold_free(struct threshold_run *th)
{
	if (th->watch)
		munmap(th->watch, sizeof(*th->watch));
	th->watch = NULL;
	th->n = 0;
}
