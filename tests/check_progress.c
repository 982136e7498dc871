/* The progress line's estimate of the time left and its text, on a made-up timeline (no
 * clock, no terminal: every time is given). */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "run/progress.h"
#include "lib/timeutil.h"
#include "tests/ck_run.h"

/* 4 runs of 31 s each (1 s ramp + 30 s), progress off (quiet). */
static void four_runs(struct progress *p)
{
	progress_open(p, true, 4, 31 * NS_PER_S, 31 * NS_PER_S);
	ck_assert_int_eq(p->fd, -1);
}

START_TEST(left_before_and_during_the_first_run)
{
	struct progress p;
	four_runs(&p);
	ck_assert_uint_eq(progress_left_ns(&p, 0), 4 * 31 * NS_PER_S);
	progress_run_begin(&p, "Audio", "None", 1, 1, 100 * NS_PER_S);
	ck_assert_uint_eq(progress_left_ns(&p, 110 * NS_PER_S), (4 * 31 - 10) * NS_PER_S);
	/* a run over its planned length uses no more than its share */
	ck_assert_uint_eq(progress_left_ns(&p, 200 * NS_PER_S), 3 * 31 * NS_PER_S);
}
END_TEST

START_TEST(left_counts_the_measured_overhead)
{
	struct progress p;
	four_runs(&p);
	progress_run_begin(&p, "Audio", "Write", 1, 1, 0);
	progress_run_end(&p, 35 * NS_PER_S);          /* 4 s more than planned (a file to write) */
	progress_run_begin(&p, "Audio", "Burn", 1, 1, 35 * NS_PER_S);
	progress_run_end(&p, 68 * NS_PER_S);          /* 2 s more: 3 s a run on average */
	ck_assert_uint_eq(p.runs_done, 2);
	ck_assert_uint_eq(progress_left_ns(&p, 68 * NS_PER_S), 2 * (31 + 3) * NS_PER_S);
	progress_run_begin(&p, "Audio", "Read", 1, 1, 68 * NS_PER_S);
	progress_run_end(&p, 99 * NS_PER_S);
	progress_run_begin(&p, "Audio", "Ring", 1, 1, 99 * NS_PER_S);
	progress_run_end(&p, 130 * NS_PER_S);
	ck_assert_uint_eq(progress_left_ns(&p, 130 * NS_PER_S), 0);
}
END_TEST

START_TEST(text_names_the_run_and_fits_the_terminal)
{
	struct progress p;
	char buf[256];
	four_runs(&p);
	progress_run_begin(&p, "Audio", "None", 1, 1, 0);
	progress_run_end(&p, 31 * NS_PER_S);
	progress_run_begin(&p, "Video", "Burn", 2, 3, 31 * NS_PER_S);
	size_t n = progress_format(&p, 40 * NS_PER_S, 200, buf, sizeof(buf));
	ck_assert_str_eq(buf, "[2/4] Video vs Burn, repeat 2/3 | elapsed 0:40 | left ~1:24");
	ck_assert_uint_eq(n, strlen(buf));
	n = progress_format(&p, 40 * NS_PER_S, 20, buf, sizeof(buf)); /* never wraps */
	ck_assert_uint_eq(n, 19);
	ck_assert_uint_eq(strlen(buf), 19);
	progress_open(&p, true, 200, 3601 * NS_PER_S, 3601 * NS_PER_S);
	progress_run_begin(&p, "X", "Hack", 1, 1, NS_PER_S);
	progress_format(&p, 2 * NS_PER_S, 200, buf, sizeof(buf));
	ck_assert_str_eq(buf, "[1/200] X vs Hack | elapsed 0:01 | left ~200:03:19");
}
END_TEST

/* Runs that stop once their figures are known take 6 to 61 s: the time left is a range. */
START_TEST(adaptive_runs_show_a_range)
{
	struct progress p;
	char buf[256];
	progress_open(&p, true, 10, 6 * NS_PER_S, 61 * NS_PER_S);
	progress_run_begin(&p, "Audio", "Burn", 1, 1, 0);
	ck_assert_uint_eq(progress_left_min_ns(&p, 2 * NS_PER_S), 58 * NS_PER_S);
	ck_assert_uint_eq(progress_left_ns(&p, 2 * NS_PER_S), 608 * NS_PER_S);
	progress_format(&p, 2 * NS_PER_S, 200, buf, sizeof(buf));
	ck_assert_str_eq(buf, "[1/10] Audio vs Burn | elapsed 0:02 | left 0:58-10:08");
	/* past its least, the run in progress adds nothing to the low end */
	ck_assert_uint_eq(progress_left_min_ns(&p, 30 * NS_PER_S), 54 * NS_PER_S);
}
END_TEST

/* A budget run shows its round, what is undecided and the budget left, never a count of the
 * runs its cap allows; the budget left is never below zero. */
START_TEST(budget_shows_rounds_and_what_is_undecided)
{
	struct progress p;
	char buf[256];
	progress_open(&p, true, 4 * 20, 5 * NS_PER_S, 5 * NS_PER_S);
	progress_budget(&p, 120 * NS_PER_S);
	progress_round(&p, 1, 4, "");
	progress_run_begin(&p, "Audio", "None", 1, 1, 0);
	progress_format(&p, 3 * NS_PER_S, 200, buf, sizeof(buf));
	ck_assert_str_eq(buf, "[round 1: 1/4] Audio vs None | elapsed 0:03 | budget left 1:57");
	progress_run_end(&p, 6 * NS_PER_S);
	progress_round(&p, 4, 2, "undecided 2: p99 latency 1, disturbed 1");
	progress_run_begin(&p, "Video", "Burn", 4, 1, 100 * NS_PER_S);
	progress_run_end(&p, 106 * NS_PER_S);
	progress_run_begin(&p, "X", "Burn", 4, 1, 106 * NS_PER_S);
	progress_format(&p, 130 * NS_PER_S, 200, buf, sizeof(buf));
	ck_assert_str_eq(buf, "[round 4: 2/2] X vs Burn | undecided 2: p99 latency 1, disturbed 1 | elapsed 2:10 | "
			 "budget left 0:00");
}
END_TEST

/* Reads what fd (at its start) holds into buf, len bytes at most with the NUL. */
static void read_all(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
}

/* A round's line goes where progress goes: the status line's descriptor when it is on,
 * else stderr; with quiet nowhere.  Never stdout. */
START_TEST(note_goes_to_stderr_or_the_terminal_never_with_quiet)
{
	char err_path[] = "/tmp/check_progress.XXXXXX", term_path[] = "/tmp/check_progress.XXXXXX", buf[256];
	int err = mkstemp(err_path), term = mkstemp(term_path), saved = dup(STDERR_FILENO);
	ck_assert(err >= 0 && term >= 0 && saved >= 0);
	unlink(err_path);
	unlink(term_path);
	ck_assert_int_eq(dup2(err, STDERR_FILENO), STDERR_FILENO);
	struct progress p;
	progress_open(&p, true, 1, NS_PER_S, NS_PER_S);
	progress_note(&p, true, "Round 1/2 done (1 pairs)");    /* quiet: nothing */
	progress_note(&p, false, "Round 2/2 done (1 pairs)");   /* no terminal: stderr */
	p.fd = term;                                             /* as the terminal's descriptor */
	progress_note(&p, false, "Round 3 done: 1 of 1 pairs decided or known");
	progress_note(&p, true, "Round 4 done");
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	read_all(err, buf, sizeof(buf));
	ck_assert_str_eq(buf, "Round 2/2 done (1 pairs)\n");
	read_all(term, buf, sizeof(buf));
	ck_assert_str_eq(buf, "Round 3 done: 1 of 1 pairs decided or known\n");
	close(err);
	close(term);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("progress");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, left_before_and_during_the_first_run);
	tcase_add_test(tc, left_counts_the_measured_overhead);
	tcase_add_test(tc, text_names_the_run_and_fits_the_terminal);
	tcase_add_test(tc, adaptive_runs_show_a_range);
	tcase_add_test(tc, budget_shows_rounds_and_what_is_undecided);
	tcase_add_test(tc, note_goes_to_stderr_or_the_terminal_never_with_quiet);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
