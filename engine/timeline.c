#include <endian.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "engine/timeline.h"

void timeline_push(struct timeline_buf *b, const struct timeline_rec *r)
{
	if (b->n < b->cap)
		b->rec[b->n++] = *r;
	else
		b->truncated = true;
}

bool timeline_mark_shown(struct timeline_buf *b, uint32_t period, uint64_t shown_ns, uint32_t within)
{
	for (uint32_t i = b->n; i > 0 && b->n - i < within; i--)
		if (b->rec[i - 1].period == period) {
			b->rec[i - 1].shown_ns = shown_ns;
			return true;
		}
	return false;
}

void timeline_set_marks(struct timeline_rec *r, uint64_t period_ns, uint64_t input_ns, const uint64_t *at_ns)
{
	for (unsigned i = 0; i < TIMELINE_MARKS; i++)
		r->marks_ns[i] = at_ns[i] > period_ns ? timeline_u32(at_ns[i] - period_ns) : 0;
	r->input_age_ns = input_ns && at_ns[0] > input_ns ? timeline_u32(at_ns[0] - input_ns) : 0;
}

bool timeline_mark_frame(struct timeline_buf *b, uint32_t period, uint64_t origin_ns, uint64_t input_ns,
			 const uint64_t *at_ns, uint32_t within)
{
	for (uint32_t i = b->n; i > 0 && b->n - i < within; i--)
		if (b->rec[i - 1].period == period) {
			timeline_set_marks(&b->rec[i - 1], origin_ns + b->rec[i - 1].start_ns, input_ns, at_ns);
			return true;
		}
	return false;
}

static void put32(unsigned char *p, uint32_t v) { v = htole32(v); memcpy(p, &v, 4); }
static void put64(unsigned char *p, uint64_t v) { v = htole64(v); memcpy(p, &v, 8); }
static uint32_t get32(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return le32toh(v); }
static uint64_t get64(const unsigned char *p) { uint64_t v; memcpy(&v, p, 8); return le64toh(v); }

void timeline_encode_header(unsigned char *out)
{
	memcpy(out, TIMELINE_MAGIC, 4);
	put32(out + 4, TIMELINE_VERSION);
	put32(out + 8, TIMELINE_RECORD_BYTES);
	put32(out + 12, 0);
}

unsigned timeline_decode_header(const unsigned char *in)
{
	if (memcmp(in, TIMELINE_MAGIC, 4) != 0)
		return 0;
	if (get32(in + 4) == TIMELINE_VERSION && get32(in + 8) == TIMELINE_RECORD_BYTES)
		return TIMELINE_RECORD_BYTES;
	if (get32(in + 4) == 2 && get32(in + 8) == TIMELINE_V2_RECORD_BYTES)
		return TIMELINE_V2_RECORD_BYTES;
	if (get32(in + 4) == 1 && get32(in + 8) == TIMELINE_V1_RECORD_BYTES)
		return TIMELINE_V1_RECORD_BYTES;
	return 0;
}

void timeline_encode(const struct timeline_rec *r, unsigned char *out)
{
	put32(out, r->pair);
	put32(out + 4, r->period);
	put64(out + 8, r->start_ns);
	put32(out + 16, r->timer_ns);
	put32(out + 20, r->sched_ns);
	put32(out + 24, r->late_ns);
	put32(out + 28, r->loop_ns);
	put32(out + 32, r->flags);
	put32(out + 36, r->skipped);
	put64(out + 40, r->shown_ns);
	for (unsigned i = 0; i < TIMELINE_MARKS; i++)
		put32(out + 48 + 4 * i, r->marks_ns[i]);
	put32(out + 76, r->input_age_ns);
}

void timeline_decode(const unsigned char *in, unsigned record_bytes, struct timeline_rec *r)
{
	r->pair = get32(in);
	r->period = get32(in + 4);
	r->start_ns = get64(in + 8);
	r->timer_ns = get32(in + 16);
	r->sched_ns = get32(in + 20);
	r->late_ns = get32(in + 24);
	r->loop_ns = get32(in + 28);
	r->flags = get32(in + 32);
	r->skipped = get32(in + 36);
	r->shown_ns = record_bytes >= TIMELINE_V2_RECORD_BYTES ? get64(in + 40) : 0;
	for (unsigned i = 0; i < TIMELINE_MARKS; i++)
		r->marks_ns[i] = record_bytes >= TIMELINE_RECORD_BYTES ? get32(in + 48 + 4 * i) : 0;
	r->input_age_ns = record_bytes >= TIMELINE_RECORD_BYTES ? get32(in + 76) : 0;
}

/* Writes len bytes of buf to fd.  Returns 0, or -1 with errno set. */
static int write_all(int fd, const unsigned char *buf, size_t len)
{
	while (len > 0) {
		ssize_t w = write(fd, buf, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return -1;
		}
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

int timeline_write(int fd, const struct timeline_buf *b)
{
	unsigned char chunk[256 * TIMELINE_RECORD_BYTES];
	size_t used = 0;
	for (uint32_t i = 0; i < b->n; i++) {
		timeline_encode(&b->rec[i], chunk + used);
		used += TIMELINE_RECORD_BYTES;
		if (used == sizeof(chunk) || i + 1 == b->n) {
			if (write_all(fd, chunk, used) != 0)
				return -1;
			used = 0;
		}
	}
	return 0;
}
