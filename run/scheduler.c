#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "lib/schedpolicy.h"
#include "lib/text.h"
#include "run/scheduler.h"

void run_scheduler_init(struct run_scheduler *rs, const char *dir, const volatile sig_atomic_t *interrupted)
{
	memset(rs, 0, sizeof(*rs));
	rs->dir = dir;
	scx_runner_init(&rs->r, dir, rs->argv);
	rs->r.interrupted = interrupted;
}

/* Copies the word at *pp (blanks skipped before it) into out, its quotes and backslashes
 * taken away, NUL-terminated, advancing *pp past it.  Returns the bytes written with the NUL,
 * 0 at the end of cmd, or -1 for an unterminated quote or past len bytes. */
static int next_word(const char **pp, char *out, size_t len)
{
	const char *p = *pp + strspn(*pp, " \t");
	size_t n = 0;
	char quote = 0;
	if (!*p)
		return 0;
	for (; *p && (quote || (*p != ' ' && *p != '\t')); p++) {
		if (quote == '\'' ? *p == '\'' : *p == '"' && quote) {
			quote = 0;
			continue;
		}
		if (!quote && (*p == '\'' || *p == '"')) {
			quote = *p;
			continue;
		}
		if (*p == '\\' && quote != '\'' && p[1] && (!quote || p[1] == '"' || p[1] == '\\'))
			p++;
		if (n + 1 >= len)
			return -1;
		out[n++] = *p;
	}
	if (quote || n + 1 > len)
		return -1;
	out[n++] = '\0';
	*pp = p;
	return (int)n;
}

int run_command_split(const char *cmd, char *words, size_t len, char **argv)
{
	int n = 0, w;
	size_t used = 0;
	while ((w = next_word(&cmd, words + used, len - used)) > 0) {
		if (n == RUN_SCHEDULER_WORDS)
			return -1;
		argv[n++] = words + used;
		used += (size_t)w;
	}
	argv[n] = NULL;
	return w < 0 || !n ? -1 : n;
}

int run_scheduler_preflight(const struct options *o, const char *dir, bool is_root)
{
	char words[1024], *argv[RUN_SCHEDULER_WORDS + 1];
	struct scx_status st;
	if (!o->schedulers.n)
		return 0;
	for (unsigned i = 0; i < o->schedulers.n; i++)
		if (strcmp(o->schedulers.v[i], SCHED_FAIR_CLASS) && run_command_split(o->schedulers.v[i], words, sizeof(words), argv) < 0) {
			text_message(stderr, "interbench: --scheduler: '%s' (accepted: a command of 1 to %d words, at most %zu "
				     "bytes, or %s)", o->schedulers.v[i], RUN_SCHEDULER_WORDS, sizeof(words) - 1, SCHED_FAIR_CLASS);
			return 2;
		}
	if (scx_status_read(dir, &st) != 0) {
		text_message(stderr, "interbench: --scheduler: %s/state: %s (this kernel has no sched_ext: "
			     "CONFIG_SCHED_CLASS_EXT, Linux 6.12 and later)", dir, strerror(errno));
		return 2;
	}
	if (st.state != SCX_DISABLED) {
		text_message(stderr, "interbench: --scheduler: sched_ext is %s with '%s', a scheduler loaded before this "
			     "run (unload it, or leave --scheduler out to measure it as it is)", scx_state_name(st.state),
			     st.ops[0] ? st.ops : "?");
		return 2;
	}
	if (!is_root) {
		text_message(stderr, "interbench: --scheduler: loading a BPF scheduler needs root (CAP_SYS_ADMIN, or CAP_BPF "
			     "with CAP_PERFMON)");
		return 2;
	}
	return 0;
}

/* The reason want failed to start before, or NULL. */
static const char *failed_before(const struct run_scheduler *rs, const char *want)
{
	for (unsigned i = 0; i < rs->n_failed; i++)
		if (rs->failed[i] == want)
			return rs->failed_why[i];
	return NULL;
}

/* Stops ours, if any, into why on failure.  Returns 0 or -1. */
static int stop_current(struct run_scheduler *rs, char *why, size_t len)
{
	int rc = rs->current ? scx_stop(&rs->r, RUN_SCHEDULER_STOP_NS, why, len) : 0;
	rs->current = NULL;
	return rc;
}

/* Starts want (a command), remembering a failure.  Returns 0 or -1 with why. */
static int start(struct run_scheduler *rs, const char *want, char *why, size_t len)
{
	if (run_command_split(want, rs->words, sizeof(rs->words), rs->argv) < 0 ||
	    scx_start(&rs->r, RUN_SCHEDULER_START_NS, why, len) != 0) {
		if (rs->n_failed < OPTSPEC_TEXTS_MAX) {
			rs->failed[rs->n_failed] = want;
			snprintf(rs->failed_why[rs->n_failed++], sizeof(rs->failed_why[0]), "%s", why);
		}
		return -1;
	}
	rs->current = want;
	return 0;
}

int run_scheduler_switch(struct run_scheduler *rs, const char *want, char *why, size_t len)
{
	bool fair = !want || strcmp(want, SCHED_FAIR_CLASS) == 0;
	const char *before = fair ? NULL : failed_before(rs, want);
	if (rs->current && rs->current == want)
		return 0;
	if (stop_current(rs, why, len) != 0)
		return -1;
	if (before) {
		snprintf(why, len, "%s", before);
		return -1;
	}
	return fair ? 0 : start(rs, want, why, len);
}

int run_scheduler_check(struct run_scheduler *rs, char *why, size_t len)
{
	char stop_why[256];
	if (!rs->current || scx_check(&rs->r, why, len) == 0)
		return 0;
	stop_current(rs, stop_why, sizeof(stop_why));
	return -1;
}

int run_scheduler_stop(struct run_scheduler *rs)
{
	char why[320];
	if (stop_current(rs, why, sizeof(why)) == 0)
		return 0;
	text_message(stderr, "interbench: --scheduler: %s", why);
	return -1;
}
