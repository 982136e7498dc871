/* The frame-time figures: lows and stutter (engine/frames.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include "engine/frames.h"

/* The heap's smallest at the root: a frame longer than it displaces it once the heap is full. */
static void sift_down(uint64_t *h, uint32_t n, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < n && h[l] < h[m])
			m = l;
		if (r < n && h[r] < h[m])
			m = r;
		if (m == i)
			return;
		uint64_t t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static void sift_up(uint64_t *h, uint32_t i)
{
	while (i > 0 && h[(i - 1) / 2] > h[i]) {
		uint64_t t = h[i];
		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

/* Keeps frame_ns among the FRAME_WORST_MAX longest. */
static void keep_worst(struct frame_acct *a, uint64_t frame_ns)
{
	if (a->worst_failed)
		return;
	if (a->worst_n == FRAME_WORST_MAX) {
		if (frame_ns > a->worst[0]) {
			a->worst[0] = frame_ns;
			sift_down(a->worst, a->worst_n, 0);
		}
		return;
	}
	if (a->worst_n == a->worst_cap) {
		uint32_t cap = a->worst_cap ? a->worst_cap * 2 : 1024;
		uint64_t *w = realloc(a->worst, cap * sizeof(*w));
		if (!w) {
			a->worst_failed = true;
			return;
		}
		a->worst = w;
		a->worst_cap = cap;
	}
	a->worst[a->worst_n] = frame_ns;
	sift_up(a->worst, a->worst_n++);
}

bool frame_acct_add(struct frame_acct *a, uint64_t frame_ns)
{
	unsigned slot = (unsigned)(a->frames % FRAME_STUTTER_WINDOW);
	bool stutter = a->frames >= FRAME_STUTTER_WINDOW &&
		       (double)frame_ns > FRAME_STUTTER_FACTOR * (double)a->window_sum_ns / FRAME_STUTTER_WINDOW;
	if (stutter) {
		a->stutters++;
		a->stutter_ns += frame_ns;
	}
	a->window_sum_ns += frame_ns - (a->frames >= FRAME_STUTTER_WINDOW ? a->window_ns[slot] : 0);
	a->window_ns[slot] = frame_ns;
	a->frames++;
	a->total_ns += frame_ns;
	keep_worst(a, frame_ns);
	return stutter;
}

static int cmp_desc(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? 1 : a > b ? -1 : 0;
}

/* The mean of the k longest of the histogram's samples, each bucket at its midpoint (the last
 * bucket, open above, at its low end). */
static double hist_worst_mean_ns(const struct lat_hist *h, uint64_t k)
{
	double sum = 0;
	uint64_t left = k;
	for (unsigned i = HIST_BUCKETS; i-- > 0 && left;) {
		uint64_t take = h->counts[i] < left ? h->counts[i] : left;
		double mid = i == HIST_BUCKETS - 1 ? (double)hist_bucket_low_ns(i)
						   : ((double)hist_bucket_low_ns(i) + (double)hist_bucket_high_ns(i)) / 2;
		sum += mid * (double)take;
		left -= take;
	}
	return k > left ? sum / (double)(k - left) : 0;
}

double frame_acct_worst_mean_ns(const struct frame_acct *a, const struct lat_hist *hist, double pct)
{
	if (!a->frames)
		return 0;
	/* ceil(frames * pct / 100) in integers: pct in thousandths of a percent */
	uint64_t milli = (uint64_t)llround(pct * 1000), k = (a->frames * milli + 99999) / 100000;
	if (k < 1)
		k = 1;
	bool kept_all = !a->worst_failed && a->worst_n == (a->frames < FRAME_WORST_MAX ? a->frames : FRAME_WORST_MAX);
	if (!kept_all || k > a->worst_n)
		return hist_worst_mean_ns(hist, k);
	uint64_t *sorted = malloc(a->worst_n * sizeof(*sorted));
	if (!sorted)
		return hist_worst_mean_ns(hist, k);
	memcpy(sorted, a->worst, a->worst_n * sizeof(*sorted));
	qsort(sorted, a->worst_n, sizeof(*sorted), cmp_desc);
	double sum = 0;
	for (uint64_t i = 0; i < k; i++)
		sum += (double)sorted[i];
	free(sorted);
	return sum / (double)k;
}

void frame_acct_figures(const struct frame_acct *a, const struct lat_hist *hist, struct frame_figures *f)
{
	*f = (struct frame_figures){ .low1_mean_ns = frame_acct_worst_mean_ns(a, hist, 1),
				     .low01_mean_ns = frame_acct_worst_mean_ns(a, hist, 0.1),
				     .stutters = a->stutters, .stutter_ns = a->stutter_ns, .total_ns = a->total_ns };
}

void frame_acct_free(struct frame_acct *a)
{
	free(a->worst);
	memset(a, 0, sizeof(*a));
}

void frame_log_push(struct frame_log_buf *b, uint64_t at_ns, uint64_t frame_ns)
{
	if (b->n >= b->cap) {
		b->truncated = true;
		return;
	}
	b->rec[b->n++] = (struct frame_rec){ .at_ns = at_ns, .frame_ns = frame_ns };
}

/* Writes all of buf[0..len) to fd at offset off. */
static int pwrite_all(int fd, const void *buf, size_t len, off_t off)
{
	const char *p = buf;
	while (len) {
		ssize_t w = pwrite(fd, p, len, off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w, len -= (size_t)w, off += w;
	}
	return 0;
}

int frame_log_write(int fd, const struct frame_log_buf *b)
{
	struct frame_log_trailer t = { .magic = FRAME_LOG_MAGIC, .n = b->n, .truncated = b->truncated };
	size_t bytes = (size_t)b->n * sizeof(*b->rec);
	if (b->n && pwrite_all(fd, b->rec, bytes, 0) != 0)
		return -1;
	return pwrite_all(fd, &t, sizeof(t), (off_t)bytes);
}
