/* The bench record as main reads it from the bench process (run/pair.h): a well-formed one
 * comes through whole; a malformed or cut one is refused, with nothing read past its arrays
 * and no array kept. */
#define _GNU_SOURCE
#include <check.h>
#include "tests/ck_run.h"
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "explain/model.h"
#include "lib/histogram.h"
#include "lib/timeutil.h"
#include "run/pair.h"

#define SENTINEL 0x5a           /* the byte written after a record: the next one in the pipe */
#define WAIT_NS (10 * NS_PER_S) /* a bound the tests never reach: their data is in the pipe */

/* A well-formed record: two sched buckets, one timer bucket, two kept periods, two culprits. */
static struct hist_bucket buckets[3] = { { 3, 5 }, { 70, 1 }, { 12, 2 } };
static struct explain_period kept[2];

static void make(struct bench_record *r)
{
	memset(r, 0, sizeof(*r));
	memset(kept, 0, sizeof(kept));
	r->sched_buckets = 2;
	r->timer_buckets = 1;
	r->buckets = buckets;
	r->kept_periods = 2;
	r->kept = kept;
	kept[1].ntop = 1;
	strcpy(kept[1].top[0].comm, "kworker/0:1");
	r->explain.nwho = 2;
	strcpy(r->explain.who[0].comm, "burn");
	strcpy(r->summary.task.name, "gaming");
}

/* Writes r as the bench process does (fixed part, stop, arrays), then SENTINEL, into a new
 * pipe; the first `cut` bytes only when cut is not 0, the writer then closed.  Returns the
 * read end; the write end goes to *wfd (-1 when closed). */
static int send_record(const struct bench_record *r, size_t cut, int *wfd)
{
	int p[2];
	ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
	struct pair_stop stop = { .look = 2 };
	size_t nb = (size_t)r->sched_buckets + r->timer_buckets;
	size_t len = sizeof(*r) + sizeof(stop) + nb * sizeof(*r->buckets) + r->kept_periods * sizeof(*r->kept) + 1;
	unsigned char *buf = malloc(len), *q = buf;
	ck_assert_ptr_nonnull(buf);
	memcpy(q, r, sizeof(*r)), q += sizeof(*r);
	memcpy(q, &stop, sizeof(stop)), q += sizeof(stop);
	memcpy(q, r->buckets, nb * sizeof(*r->buckets)), q += nb * sizeof(*r->buckets);
	memcpy(q, r->kept, r->kept_periods * sizeof(*r->kept)), q += r->kept_periods * sizeof(*r->kept);
	*q = SENTINEL;
	size_t n = cut ? cut : len;
	ck_assert_uint_lt(n, 65536);  /* within a pipe's default capacity (pipe(7)) */
	ck_assert_int_eq(write(p[1], buf, n), (ssize_t)n);
	free(buf);
	if (cut) {
		close(p[1]);
		p[1] = -1;
	}
	*wfd = p[1];
	return p[0];
}

/* Receives r sent whole; returns bench_record_receive's result into *got, errno in *err_no. */
static int receive(const struct bench_record *r, struct bench_record *got, int *err_no, char *err, int *rfd,
		   int *wfd)
{
	*rfd = send_record(r, 0, wfd);
	struct pair_stop stop;
	errno = 0;
	int rc = bench_record_receive(*rfd, got, &stop, now_ns() + WAIT_NS, err, 160);
	*err_no = errno;
	return rc;
}

/* The next byte in the pipe (what the reader left). */
static int next_byte(int fd)
{
	unsigned char b;
	return read(fd, &b, 1) == 1 ? b : -1;
}

/* A refused record leaves no array and zero counts. */
static void assert_emptied(const struct bench_record *got)
{
	ck_assert_ptr_null(got->buckets);
	ck_assert_ptr_null(got->kept);
	ck_assert_uint_eq(got->sched_buckets + got->timer_buckets + got->kept_periods, 0);
	ck_assert_uint_eq(got->explain.nwho, 0);
}

START_TEST(whole_record)
{
	struct bench_record r, got;
	int e, rfd, wfd;
	char err[160] = "";
	make(&r);
	ck_assert_int_eq(receive(&r, &got, &e, err, &rfd, &wfd), 0);
	ck_assert_uint_eq(got.sched_buckets, 2);
	ck_assert_uint_eq(got.timer_buckets, 1);
	ck_assert_mem_eq(got.buckets, buckets, sizeof(buckets));
	ck_assert_uint_eq(got.kept_periods, 2);
	ck_assert_str_eq(got.kept[1].top[0].comm, "kworker/0:1");
	ck_assert_str_eq(got.explain.who[0].comm, "burn");
	ck_assert_str_eq(got.summary.task.name, "gaming");
	ck_assert_int_eq(next_byte(rfd), SENTINEL);
	bench_record_free(&got);
	close(rfd);
	close(wfd);
}
END_TEST

/* r is refused (EPROTO, err naming member) with no array kept; nothing was read past its
 * arrays: when arrays_read, the sentinel after them is next in the pipe, else (a count past
 * its array, refused after the fixed part) the arrays are still there. */
static void refused(const struct bench_record *r, const char *member, bool arrays_read)
{
	struct bench_record got;
	int e, rfd, wfd;
	char err[160] = "";
	ck_assert_int_eq(receive(r, &got, &e, err, &rfd, &wfd), -1);
	ck_assert_int_eq(e, EPROTO);
	ck_assert_msg(strstr(err, member), "%s not named in \"%s\"", member, err);
	assert_emptied(&got);
	struct hist_bucket first;
	if (arrays_read)
		ck_assert_int_eq(next_byte(rfd), SENTINEL);
	else {
		ck_assert_int_eq(read(rfd, &first, sizeof(first)), (ssize_t)sizeof(first));
		ck_assert_mem_eq(&first, r->buckets, sizeof(first));
	}
	close(rfd);
	close(wfd);
}

static void refused_count(const struct bench_record *r, const char *member)
{
	refused(r, member, false);
}

static void refused_arrays(const struct bench_record *r, const char *member)
{
	refused(r, member, true);
}

START_TEST(counts_past_their_arrays)
{
	struct bench_record r;
	make(&r);
	r.explain.nwho = EXPLAIN_PAIR_WHO + 1;
	refused_count(&r, "explain.nwho 13, at most 12");
	make(&r);
	r.explain.nirq = EXPLAIN_PAIR_IRQS + 1;
	refused_count(&r, "explain.nirq");
	make(&r);
	r.explain.nstages = EXPLAIN_MAX_STAGES + 1;
	refused_count(&r, "explain.nstages");
}
END_TEST

START_TEST(kept_periods_past_their_bound)
{
	struct bench_record r;
	make(&r);
	r.kept_periods = EXPLAIN_KEEP + 1;
	struct explain_period *many = calloc(EXPLAIN_KEEP + 1, sizeof(*many));
	ck_assert_ptr_nonnull(many);
	r.kept = many;
	refused_count(&r, "kept_periods 33, at most 32");
	free(many);
}
END_TEST

/* An index of HIST_BUCKETS (hist_bucket_low_ns would shift by 64), an empty bucket, buckets
 * out of order. */
START_TEST(malformed_buckets)
{
	struct bench_record r;
	make(&r);
	buckets[2].index = HIST_BUCKETS;
	refused_arrays(&r, "timer bucket[0] index");
	buckets[2].index = 12;
	buckets[1].count = 0;
	refused_arrays(&r, "sched bucket[1]");
	buckets[1].count = 1;
	buckets[1].index = 3;
	refused_arrays(&r, "sched bucket[1] index 3");
	buckets[1].index = 70;
}
END_TEST

START_TEST(ntop_past_its_array)
{
	struct bench_record r;
	make(&r);
	kept[1].ntop = EXPLAIN_TOP + 1;
	refused_arrays(&r, "kept[1].ntop 4, at most 3");
}
END_TEST

/* Strings without their NUL get one at their end. */
START_TEST(strings_terminated)
{
	struct bench_record r, got;
	int e, rfd, wfd;
	char err[160] = "";
	make(&r);
	memset(r.errmsg, 'x', sizeof(r.errmsg));
	memset(r.summary.task.name, 'y', sizeof(r.summary.task.name));
	memset(r.explain.who[11].comm, 'z', sizeof(r.explain.who[11].comm));
	memset(r.explain.irqs[5].name, 'z', sizeof(r.explain.irqs[5].name));
	memset(r.explain.stage_name[3], 'z', sizeof(r.explain.stage_name[3]));
	memset(kept[1].top[2].comm, 'z', sizeof(kept[1].top[2].comm));
	memset(kept[0].irq.name, 'z', sizeof(kept[0].irq.name));
	ck_assert_int_eq(receive(&r, &got, &e, err, &rfd, &wfd), 0);
	ck_assert_uint_eq(strlen(got.errmsg), sizeof(got.errmsg) - 1);
	ck_assert_uint_eq(strlen(got.summary.task.name), sizeof(got.summary.task.name) - 1);
	ck_assert_uint_eq(strlen(got.explain.who[11].comm), EXPLAIN_COMM_LEN - 1);
	ck_assert_uint_eq(strlen(got.explain.irqs[5].name), EXPLAIN_COMM_LEN - 1);
	ck_assert_uint_eq(strlen(got.explain.stage_name[3]), EXPLAIN_COMM_LEN - 1);
	ck_assert_uint_eq(strlen(got.kept[1].top[2].comm), EXPLAIN_COMM_LEN - 1);
	ck_assert_uint_eq(strlen(got.kept[0].irq.name), EXPLAIN_COMM_LEN - 1);
	bench_record_free(&got);
	close(rfd);
	close(wfd);
}
END_TEST

/* A stream cut in its fixed part, or in its arrays, by a writer that closed: EPIPE. */
START_TEST(truncated_stream)
{
	struct bench_record r, got;
	struct pair_stop stop;
	char err[160];
	make(&r);
	size_t cuts[] = { sizeof(r) / 2, sizeof(r) + sizeof(stop) + sizeof(buckets) / 2 };
	for (unsigned i = 0; i < 2; i++) {
		int wfd, rfd = send_record(&r, cuts[i], &wfd);
		errno = 0;
		ck_assert_int_eq(bench_record_receive(rfd, &got, &stop, now_ns() + WAIT_NS, err, sizeof(err)), -1);
		ck_assert_int_eq(errno, EPIPE);
		assert_emptied(&got);
		close(rfd);
	}
}
END_TEST

/* One bound for the whole record: once end_ns has passed nothing more is read, though it is
 * there to read. */
START_TEST(one_deadline)
{
	struct bench_record r, got;
	struct pair_stop stop;
	char err[160];
	make(&r);
	int wfd, rfd = send_record(&r, 0, &wfd);
	errno = 0;
	ck_assert_int_eq(bench_record_receive(rfd, &got, &stop, now_ns() - 1, err, sizeof(err)), -1);
	ck_assert_int_eq(errno, ETIMEDOUT);
	assert_emptied(&got);
	struct bench_record again;
	ck_assert_int_eq(read(rfd, &again, sizeof(again)), (ssize_t)sizeof(again));  /* left unread */
	close(rfd);
	close(wfd);
}
END_TEST

/* Sorting a summary whose counts run past its tables touches only the tables: the bytes after
 * them are unchanged (the summary is on the heap at its exact size, for a sanitizer to see). */
static void sort_past(bool who)
{
	struct explain_summary *s = calloc(1, sizeof(*s)), *before = malloc(sizeof(*s));
	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_nonnull(before);
	size_t end = who ? offsetof(struct explain_summary, who) + sizeof(s->who)
			 : offsetof(struct explain_summary, irqs) + sizeof(s->irqs);
	memset((char *)s + end, 0xff, sizeof(*s) - end);  /* what a table past its end would sort first */
	for (unsigned i = 0; i < EXPLAIN_PAIR_WHO; i++)
		s->who[i].ns = i + 1;
	for (unsigned i = 0; i < EXPLAIN_PAIR_IRQS; i++)
		s->irqs[i].ns = i + 1;
	size_t past = (sizeof(*s) - end) / (who ? sizeof(s->who[0]) : sizeof(s->irqs[0]));
	ck_assert_uint_gt(past, 0);
	if (who)
		s->nwho = (uint32_t)(EXPLAIN_PAIR_WHO + past);
	else
		s->nirq = (uint32_t)(EXPLAIN_PAIR_IRQS + past);
	memcpy(before, s, sizeof(*s));
	explain_summary_sort(s);
	ck_assert_mem_eq((char *)s + end, (char *)before + end, sizeof(*s) - end);
	if (who)
		ck_assert_uint_eq(s->who[0].ns, EXPLAIN_PAIR_WHO);
	else
		ck_assert_uint_eq(s->irqs[0].ns, EXPLAIN_PAIR_IRQS);
	free(s);
	free(before);
}

START_TEST(sort_bounded)
{
	sort_past(true);
	sort_past(false);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pair_record");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, whole_record);
	tcase_add_test(tc, counts_past_their_arrays);
	tcase_add_test(tc, kept_periods_past_their_bound);
	tcase_add_test(tc, malformed_buckets);
	tcase_add_test(tc, ntop_past_its_array);
	tcase_add_test(tc, strings_terminated);
	tcase_add_test(tc, truncated_stream);
	tcase_add_test(tc, one_deadline);
	tcase_add_test(tc, sort_bounded);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
