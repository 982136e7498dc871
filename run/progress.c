#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "run/progress.h"
#include "lib/timeutil.h"

#define DEFAULT_COLS 80

/* A private open file description of stderr's terminal, non-blocking, or -1.  Reopening
 * /proc/self/fd/2 (not a path found by name) reaches the very device stderr is on. */
static int open_terminal(void)
{
	struct stat want, got;
	if (!isatty(STDERR_FILENO) || fstat(STDERR_FILENO, &want) != 0)
		return -1;
	int fd = open("/proc/self/fd/2", O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &got) != 0 || !S_ISCHR(got.st_mode) || got.st_rdev != want.st_rdev) {
		close(fd);
		return -1;
	}
	return fd;
}

void progress_open(struct progress *p, bool quiet, size_t runs_total, uint64_t planned_min_ns,
		   uint64_t planned_run_ns)
{
	memset(p, 0, sizeof(*p));
	p->fd = quiet ? -1 : open_terminal();
	p->runs_total = runs_total;
	p->planned_min_ns = planned_min_ns < planned_run_ns ? planned_min_ns : planned_run_ns;
	p->planned_run_ns = planned_run_ns;
}

void progress_budget(struct progress *p, uint64_t budget_ns)
{
	p->budget_ns = budget_ns;
}

void progress_round(struct progress *p, unsigned round, size_t round_len, const char *undecided)
{
	p->round = round;
	p->round_len = round_len;
	p->round_done = 0;
	snprintf(p->undecided, sizeof(p->undecided), "%s", undecided);
}

/* "m:ss", or "h:mm:ss" from an hour on. */
static void format_duration(uint64_t ns, char *buf, size_t len)
{
	uint64_t s = ns / NS_PER_S;
	if (s >= 3600)
		snprintf(buf, len, "%llu:%02llu:%02llu", (unsigned long long)(s / 3600),
			 (unsigned long long)(s / 60 % 60), (unsigned long long)(s % 60));
	else
		snprintf(buf, len, "%llu:%02llu", (unsigned long long)(s / 60), (unsigned long long)(s % 60));
}

uint64_t progress_left_ns(const struct progress *p, uint64_t now_ns)
{
	if (p->runs_done >= p->runs_total)
		return 0;
	uint64_t runs_left = p->runs_total - p->runs_done;
	uint64_t left = runs_left * p->planned_run_ns;
	if (p->in_run && now_ns > p->run_start_ns) {
		uint64_t used = now_ns - p->run_start_ns;
		left -= used < p->planned_run_ns ? used : p->planned_run_ns;
	}
	uint64_t planned_done = p->runs_done * p->planned_run_ns;
	if (p->runs_done && p->done_elapsed_ns > planned_done)
		left += (p->done_elapsed_ns - planned_done) / p->runs_done * runs_left;
	return left;
}

uint64_t progress_left_min_ns(const struct progress *p, uint64_t now_ns)
{
	if (p->runs_done >= p->runs_total)
		return 0;
	uint64_t left = (p->runs_total - p->runs_done) * p->planned_min_ns;
	if (p->in_run && now_ns > p->run_start_ns) {
		uint64_t used = now_ns - p->run_start_ns;
		left -= used < p->planned_min_ns ? used : p->planned_min_ns;
	}
	return left;
}

/* The time left as the status line shows it: "~1:02", or "0:40-9:30" when runs may stop
 * early (planned_min_ns below planned_run_ns). */
static void format_left(const struct progress *p, uint64_t now_ns, char *buf, size_t len)
{
	char lo[24], hi[24];
	format_duration(progress_left_ns(p, now_ns), hi, sizeof(hi));
	if (p->planned_min_ns >= p->planned_run_ns) {
		snprintf(buf, len, "~%s", hi);
		return;
	}
	format_duration(progress_left_min_ns(p, now_ns), lo, sizeof(lo));
	snprintf(buf, len, "%s-%s", lo, hi);
}

size_t progress_format(const struct progress *p, uint64_t now_ns, size_t cols, char *buf, size_t len)
{
	char elapsed[24], left[56];
	format_duration(p->started && now_ns > p->start_ns ? now_ns - p->start_ns : 0, elapsed, sizeof(elapsed));
	format_left(p, now_ns, left, sizeof(left));
	size_t n = cols > 1 && cols - 1 < len ? cols : len; /* at most cols - 1 characters */
	if (n == 0)
		return 0;
	int w;
	if (p->budget_ns) {
		uint64_t used = p->started && now_ns > p->start_ns ? now_ns - p->start_ns : 0;
		format_duration(used < p->budget_ns ? p->budget_ns - used : 0, left, sizeof(left));
		w = snprintf(buf, n, "[round %u: %zu/%zu] %s%s%s | elapsed %s | budget left %s", p->round,
			     p->round_done + 1 > p->round_len ? p->round_len : p->round_done + 1, p->round_len,
			     p->current, p->undecided[0] ? " | " : "", p->undecided, elapsed, left);
	} else {
		w = snprintf(buf, n, "[%zu/%zu] %s | elapsed %s | left %s", p->runs_done + 1 > p->runs_total ?
			     p->runs_total : p->runs_done + 1, p->runs_total, p->current, elapsed, left);
	}
	if (w < 0)
		return 0;
	return (size_t)w < n ? (size_t)w : n - 1;
}

static size_t terminal_cols(int fd)
{
	struct winsize ws;
	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		return ws.ws_col;
	return DEFAULT_COLS;
}

/* Overwrites the line on screen with text (n characters): carriage return, the text, spaces
 * over what is left of the previous line, carriage return.  No escape sequences, so a dumb
 * terminal shows it too.  A write that would block is dropped. */
static void put_line(struct progress *p, const char *text, size_t n)
{
	char buf[1024];
	size_t pad = p->shown_cols > n ? p->shown_cols - n : 0;
	if (n + pad + 2 > sizeof(buf))
		return;
	buf[0] = '\r';
	memcpy(buf + 1, text, n);
	memset(buf + 1 + n, ' ', pad);
	buf[1 + n + pad] = '\r';
	if (write(p->fd, buf, n + pad + 2) == (ssize_t)(n + pad + 2))
		p->shown_cols = n;
}

static void draw(struct progress *p, uint64_t now_ns)
{
	char text[512];
	size_t n = progress_format(p, now_ns, terminal_cols(p->fd), text, sizeof(text));
	put_line(p, text, n);
	p->next_draw_ns = now_ns + PROGRESS_INTERVAL_NS;
}

void progress_run_begin(struct progress *p, const char *sim, const char *load, unsigned repeat,
			unsigned repeats, uint64_t now_ns)
{
	if (repeats > 1)
		snprintf(p->current, sizeof(p->current), "%s vs %s, repeat %u/%u", sim, load, repeat, repeats);
	else
		snprintf(p->current, sizeof(p->current), "%s vs %s", sim, load);
	if (!p->started)
		p->start_ns = now_ns;
	p->started = true;
	p->in_run = true;
	p->run_start_ns = now_ns;
	if (p->fd >= 0)
		draw(p, now_ns);
}

void progress_tick(struct progress *p, uint64_t now_ns)
{
	if (p->fd >= 0 && now_ns >= p->next_draw_ns)
		draw(p, now_ns);
}

static void erase(struct progress *p)
{
	if (p->fd >= 0 && p->shown_cols) {
		put_line(p, "", 0);
		p->shown_cols = 0;
	}
}

void progress_run_end(struct progress *p, uint64_t now_ns)
{
	p->runs_done++;
	p->round_done++;
	p->done_elapsed_ns = now_ns > p->start_ns ? now_ns - p->start_ns : 0;
	p->in_run = false;
	erase(p);
}

void progress_note(const struct progress *p, bool quiet, const char *line)
{
	if (quiet)
		return;
	if (p->fd < 0) {
		fprintf(stderr, "%s\n", line);
		return;
	}
	char buf[1024];
	int n = snprintf(buf, sizeof(buf), "%s\n", line);
	if (n > 0 && (size_t)n < sizeof(buf) && write(p->fd, buf, (size_t)n) != n)
		return;   /* dropped, as a status update is: the run does not wait for the terminal */
}

void progress_close(struct progress *p)
{
	erase(p);
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
}
