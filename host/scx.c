#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "host/child.h"
#include "host/scx.h"
#include "lib/timeutil.h"

static const char *const state_names[] = {
	[SCX_PREPPING] = "prepping", [SCX_ENABLING] = "enabling", [SCX_ENABLED] = "enabled",
	[SCX_DISABLING] = "disabling", [SCX_DISABLED] = "disabled", [SCX_UNKNOWN] = "unknown",
};

const char *scx_state_name(enum scx_state s)
{
	return s <= SCX_UNKNOWN ? state_names[s] : state_names[SCX_UNKNOWN];
}

/* The first line of dir/rel into buf (newline dropped).  Returns 0, or -1 with errno set. */
static int read_line(const char *dir, const char *rel, char *buf, size_t len)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	FILE *f = fopen(path, "re");
	buf[0] = '\0';
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int scx_status_read(const char *dir, struct scx_status *st)
{
	char word[64], seq[32];
	memset(st, 0, sizeof(*st));
	st->state = SCX_UNKNOWN;
	if (read_line(dir, "state", word, sizeof(word)) != 0)
		return -1;
	for (int s = 0; s < SCX_UNKNOWN; s++)
		if (strcmp(word, state_names[s]) == 0)
			st->state = (enum scx_state)s;
	if (read_line(dir, "root/ops", st->ops, sizeof(st->ops)) != 0)
		st->ops[0] = '\0';
	char *end;
	if (read_line(dir, "enable_seq", seq, sizeof(seq)) == 0 && seq[0]) {
		errno = 0;
		st->enable_seq = strtoull(seq, &end, 10);
		st->have_seq = !errno && !*end;
	}
	return 0;
}

void scx_runner_init(struct scx_runner *r, const char *dir, char *const *argv)
{
	memset(r, 0, sizeof(*r));
	r->dir = dir;
	r->argv = argv;
	r->out_fd = -1;
}

/* The last SCX_OUTPUT_TAIL bytes the scheduler wrote, printable, its lines joined by " | ";
 * "" when it wrote nothing.  Returns buf. */
static const char *output_tail(const struct scx_runner *r, char *buf, size_t len)
{
	struct stat sb;
	char raw[SCX_OUTPUT_TAIL];
	size_t used = 0;
	buf[0] = '\0';
	if (r->out_fd < 0 || fstat(r->out_fd, &sb) != 0 || sb.st_size <= 0)
		return buf;
	off_t at = sb.st_size > (off_t)sizeof(raw) ? sb.st_size - (off_t)sizeof(raw) : 0;
	ssize_t n = pread(r->out_fd, raw, sizeof(raw), at);
	for (ssize_t i = 0; i < n && used + 4 < len; i++) {
		unsigned char c = (unsigned char)raw[i];
		if (c == '\n' && i + 1 < n && used)
			used += (size_t)snprintf(buf + used, len - used, " | ");
		else if (isprint(c))
			buf[used++] = (char)c;
	}
	buf[used] = '\0';
	return buf;
}

/* In the child, every signal still blocked (spawn): its own process group (a terminal's Ctrl-C
 * is main's to act on), killed with main (PR_SET_PDEATHSIG: the kernel then unloads the
 * scheduler as its link closes), stdin /dev/null, stdout and stderr the memfd, nothing else of
 * main's open, the default signals, then none blocked; then the command.  Never returns. */
static void child_exec(const struct scx_runner *r, pid_t parent)
{
	if (child_exec_prepare(parent, r->out_fd, r->out_fd, -1) != 0)
		_exit(126);
	execvp(r->argv[0], r->argv);
	dprintf(2, "execvp(%s): %s\n", r->argv[0], strerror(errno));
	_exit(127);
}

/* The memfd and the child.  Returns 0, or -1 with err naming the call. */
static int spawn(struct scx_runner *r, char *err, size_t len)
{
	r->out_fd = memfd_create("interbench-scx", MFD_CLOEXEC);
	if (r->out_fd < 0 || fcntl(r->out_fd, F_SETFL, O_APPEND) != 0) {
		snprintf(err, len, "memfd_create: %s", strerror(errno));
		return -1;
	}
	/* every signal blocked across the fork, so none reaches the child while it still has the
	 * parent's handlers and process group; child_exec resets them, then unblocks */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pid_t parent = getpid();
	r->pid = fork();
	int fork_errno = errno;
	if (r->pid == 0)
		child_exec(r, parent);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r->pid < 0) {
		snprintf(err, len, "fork: %s", strerror(fork_errno));
		r->pid = 0;
		return -1;
	}
	return 0;
}

/* "exited with status 1", "killed by signal 9" for wait status ws. */
static const char *exit_words(int ws, char *buf, size_t len)
{
	if (WIFEXITED(ws))
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(ws));
	else
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(ws), strsignal(WTERMSIG(ws)));
	return buf;
}

/* Whether r's process has ended, reaping it with its status in *ws. */
static bool ended(struct scx_runner *r, int *ws)
{
	if (!r->pid)
		return true;
	pid_t got = waitpid(r->pid, ws, WNOHANG);
	if (got == r->pid || (got < 0 && errno == ECHILD)) {
		r->pid = 0;
		return true;
	}
	return false;
}

/* Polls until the kernel reports a new scheduler enabled (0), r's process ends (1, *ws its
 * status), timeout_ns passes (2) or a signal came (3, r->interrupted); st the last status
 * read. */
static int wait_enabled(struct scx_runner *r, const struct scx_status *before, uint64_t timeout_ns,
			struct scx_status *st, int *ws)
{
	uint64_t end_ns = now_ns() + timeout_ns;
	for (;;) {
		bool read = scx_status_read(r->dir, st) == 0;
		bool fresh = !before->have_seq || (st->have_seq && st->enable_seq != before->enable_seq);
		if (read && st->state == SCX_ENABLED && fresh)
			return 0;
		if (ended(r, ws))
			return 1;
		if (now_ns() >= end_ns)
			return 2;
		if (r->interrupted && *r->interrupted)
			return 3;
		sleep_for_ns(SCX_POLL_NS);
	}
}

/* Closes r's memfd. */
static void close_output(struct scx_runner *r)
{
	if (r->out_fd >= 0)
		close(r->out_fd);
	r->out_fd = -1;
}

/* The reason a start failed (rc of wait_enabled), with the scheduler's output, into err;
 * then stops what is left. */
static int start_failed(struct scx_runner *r, int rc, int ws, const struct scx_status *st, uint64_t timeout_ns,
			char *err, size_t len)
{
	char how[96], tail[SCX_OUTPUT_TAIL + 64], stop_err[256];
	output_tail(r, tail, sizeof(tail));
	if (rc == 1)
		snprintf(err, len, "%s %s before the kernel enabled it (state %s)%s%s", r->argv[0],
			 exit_words(ws, how, sizeof(how)), scx_state_name(st->state), tail[0] ? ": " : "", tail);
	else if (rc == 3)
		snprintf(err, len, "%s: interrupted by %s before the kernel enabled it (state %s), stopped", r->argv[0],
			 strsignal(*r->interrupted), scx_state_name(st->state));
	else
		snprintf(err, len, "%s: not enabled within %.3g s (state %s), stopped%s%s", r->argv[0], timeout_ns / 1e9,
			 scx_state_name(st->state), tail[0] ? "; its output: " : "", tail);
	scx_stop(r, timeout_ns, stop_err, sizeof(stop_err));
	close_output(r);
	return -1;
}

int scx_start(struct scx_runner *r, uint64_t timeout_ns, char *err, size_t len)
{
	struct scx_status before, st;
	int ws = 0;
	if (scx_status_read(r->dir, &before) != 0) {
		snprintf(err, len, "%s/state: %s (a kernel without sched_ext, CONFIG_SCHED_CLASS_EXT)", r->dir,
			 strerror(errno));
		return -1;
	}
	if (before.state != SCX_DISABLED) {
		snprintf(err, len, "sched_ext is %s with '%s', a scheduler this run did not start: one at a time (unload "
			 "it first, or leave --scheduler out to measure it as it is)", scx_state_name(before.state),
			 before.ops[0] ? before.ops : "?");
		return -1;
	}
	if (spawn(r, err, len) != 0) {
		close_output(r);
		return -1;
	}
	int rc = wait_enabled(r, &before, timeout_ns, &st, &ws);
	if (rc != 0)
		return start_failed(r, rc, ws, &st, timeout_ns, err, len);
	r->loaded = st;
	return 0;
}

int scx_check(struct scx_runner *r, char *err, size_t len)
{
	struct scx_status st;
	int ws = 0;
	char how[96] = "", tail[SCX_OUTPUT_TAIL + 64];
	bool gone = ended(r, &ws);
	bool read = scx_status_read(r->dir, &st) == 0;
	bool same = read && st.state == SCX_ENABLED && strcmp(st.ops, r->loaded.ops) == 0 &&
		    (!r->loaded.have_seq || st.enable_seq == r->loaded.enable_seq);
	if (!gone && same)
		return 0;
	char what[128];
	if (gone)
		snprintf(what, sizeof(what), "its process %s", exit_words(ws, how, sizeof(how)));
	else
		snprintf(what, sizeof(what), "ejected by the kernel");
	output_tail(r, tail, sizeof(tail));
	snprintf(err, len, "sched_ext scheduler '%s' lost during the pair: %s (sched_ext state %s)%s%s", r->loaded.ops,
		 what, read ? scx_state_name(st.state) : "unreadable", tail[0] ? "; its output: " : "", tail);
	return -1;
}

/* Waits until r's process ended (reaped) and the state reads disabled, or until end_ns.
 * Returns whether both happened. */
static bool wait_stopped(struct scx_runner *r, uint64_t end_ns, struct scx_status *st)
{
	int ws;
	for (;;) {
		bool gone = ended(r, &ws);
		bool off = scx_status_read(r->dir, st) != 0 || st->state == SCX_DISABLED;
		if (gone && off)
			return true;
		if (now_ns() >= end_ns)
			return false;
		sleep_for_ns(SCX_POLL_NS);
	}
}

int scx_stop(struct scx_runner *r, uint64_t timeout_ns, char *err, size_t len)
{
	struct scx_status st = { .state = SCX_DISABLED };
	bool ok = true;
	if (!r->pid && r->out_fd < 0)
		return 0;  /* not started, or stopped already */
	if (r->pid) {
		kill(r->pid, SIGINT);
		if (!wait_stopped(r, now_ns() + timeout_ns, &st) && r->pid) {
			kill(r->pid, SIGKILL);
			ok = wait_stopped(r, now_ns() + timeout_ns, &st);
		}
	} else {
		ok = wait_stopped(r, now_ns() + timeout_ns, &st);
	}
	close_output(r);
	if (ok)
		return 0;
	if (r->pid)
		snprintf(err, len, "%s (pid %d) did not end after SIGINT and SIGKILL", r->argv[0], (int)r->pid);
	else
		snprintf(err, len, "the kernel still reports sched_ext %s with '%s' %.3g s after %s ended",
			 scx_state_name(st.state), st.ops, timeout_ns / 1e9, r->argv[0]);
	return -1;
}
