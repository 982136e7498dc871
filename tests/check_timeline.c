/* The timeline format (engine/timeline.h): header and records survive encoding, little-endian at
 * the documented offsets, saturation, the in-memory bound, and a write to a real file. */
#include <check.h>
#include "tests/ck_run.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "engine/timeline.h"

START_TEST(round_trip)
{
	unsigned char head[TIMELINE_HEADER_BYTES], rec[TIMELINE_RECORD_BYTES];
	struct timeline_rec r = { .pair = 7, .period = 123456, .start_ns = 0x0102030405060708ull, .timer_ns = 1,
				  .sched_ns = 2, .late_ns = 3, .loop_ns = 4, .flags = TIMELINE_MET | TIMELINE_XRUN,
				  .skipped = 5, .shown_ns = 0x1112131415161718ull, .marks_ns = { 10, 20, 30, 40, 50, 60, 0x21222324 },
				  .input_age_ns = 0x31323334 }, back;
	timeline_encode_header(head);
	ck_assert_uint_eq(timeline_decode_header(head), TIMELINE_RECORD_BYTES);
	ck_assert_int_eq(memcmp(head, "IBTL\3\0\0\0\120\0\0\0\0\0\0\0", 16), 0);  /* version 3, 80-byte records */
	head[4] = 4;
	ck_assert_uint_eq(timeline_decode_header(head), 0);
	ck_assert_uint_eq(timeline_decode_header((const unsigned char *)"IBTL\1\0\0\0\50\0\0\0\0\0\0\0"),
			  TIMELINE_V1_RECORD_BYTES);       /* versions 1 and 2 are still read */
	ck_assert_uint_eq(timeline_decode_header((const unsigned char *)"IBTL\2\0\0\0\60\0\0\0\0\0\0\0"),
			  TIMELINE_V2_RECORD_BYTES);
	ck_assert_uint_eq(timeline_decode_header((const unsigned char *)"IBTL\1\0\0\0\60\0\0\0\0\0\0\0"), 0);
	timeline_encode(&r, rec);
	ck_assert_uint_eq(rec[8], 0x08);          /* start_ns little-endian at offset 8 */
	ck_assert_uint_eq(rec[15], 0x01);
	ck_assert_uint_eq(rec[32], 3);            /* flags at offset 32 */
	ck_assert_uint_eq(rec[40], 0x18);         /* shown_ns at offset 40 */
	ck_assert_uint_eq(rec[48], 10);           /* marks_ns from offset 48 */
	ck_assert_uint_eq(rec[72], 0x24);
	ck_assert_uint_eq(rec[76], 0x34);         /* input_age_ns at offset 76 */
	timeline_decode(rec, TIMELINE_RECORD_BYTES, &back);
	ck_assert_int_eq(memcmp(&r, &back, sizeof(r)), 0);
	timeline_decode(rec, TIMELINE_V1_RECORD_BYTES, &back);  /* a version-1 record has none */
	ck_assert_uint_eq(back.shown_ns, 0);
	ck_assert_uint_eq(back.skipped, 5);
	timeline_decode(rec, TIMELINE_V2_RECORD_BYTES, &back);  /* a version-2 record: no marks */
	ck_assert_uint_eq(back.shown_ns, r.shown_ns);
	ck_assert_uint_eq(back.marks_ns[6], 0);
	ck_assert_uint_eq(back.input_age_ns, 0);
	ck_assert_uint_eq(timeline_u32(5000000000ull), UINT32_MAX);  /* over 4.29 s saturates */
}
END_TEST

/* A frame's points into its period's record: as ns after its start, 0 for one not passed,
 * its input's age before the pickup; found among the last records only. */
START_TEST(frame_marks)
{
	struct timeline_rec recs[4];
	struct timeline_buf b = { .rec = recs, .cap = 4 };
	for (uint32_t i = 0; i < 4; i++)
		timeline_push(&b, &(struct timeline_rec){ .period = i, .start_ns = i * 1000000ull });
	uint64_t origin = 5000000000ull, at[TIMELINE_MARKS] = { 0 };
	for (unsigned i = 0; i < TIMELINE_MARKS - 1; i++)
		at[i] = origin + 2000000 + 100 * (i + 1);
	ck_assert(timeline_mark_frame(&b, 2, origin, origin + 2000000 - 300, at, 2));
	ck_assert_uint_eq(recs[2].marks_ns[0], 100);
	ck_assert_uint_eq(recs[2].marks_ns[5], 600);
	ck_assert_uint_eq(recs[2].marks_ns[6], 0);  /* not passed */
	ck_assert_uint_eq(recs[2].input_age_ns, 400);
	ck_assert(!timeline_mark_frame(&b, 1, origin, 0, at, 2));  /* beyond the last 2 */
	ck_assert_uint_eq(recs[1].marks_ns[0], 0);
}
END_TEST

START_TEST(bounded_and_written)
{
	struct timeline_rec recs[3];
	struct timeline_buf b = { .rec = recs, .cap = 3 };
	for (uint32_t i = 0; i < 5; i++)
		timeline_push(&b, &(struct timeline_rec){ .pair = 1, .period = i });
	ck_assert_uint_eq(b.n, 3);
	ck_assert(b.truncated);
	char path[] = "/tmp/check_timeline_XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	unlink(path);
	ck_assert_int_eq(timeline_write(fd, &b), 0);
	ck_assert_int_eq(lseek(fd, 0, SEEK_END), 3 * TIMELINE_RECORD_BYTES);
	unsigned char rec[TIMELINE_RECORD_BYTES];
	struct timeline_rec r;
	ck_assert_int_eq(pread(fd, rec, sizeof(rec), 2 * TIMELINE_RECORD_BYTES), (ssize_t)sizeof(rec));
	timeline_decode(rec, TIMELINE_RECORD_BYTES, &r);
	ck_assert_uint_eq(r.period, 2);
	close(fd);
	ck_assert_int_eq(timeline_write(fd, &b), -1);  /* a closed descriptor: the error, not a crash */
}
END_TEST

/* A frame's vsync reaches its period's record among the last few, never an older one. */
START_TEST(shown_marked)
{
	struct timeline_rec recs[8];
	struct timeline_buf b = { .rec = recs, .cap = 8 };
	for (uint32_t i = 0; i < 6; i++)
		timeline_push(&b, &(struct timeline_rec){ .pair = 1, .period = i * 2 });  /* periods 0, 2, .. 10 */
	ck_assert(timeline_mark_shown(&b, 8, 12345, 4));
	ck_assert_uint_eq(recs[4].shown_ns, 12345);
	ck_assert(!timeline_mark_shown(&b, 3, 1, 4));    /* dropped: no record */
	ck_assert(!timeline_mark_shown(&b, 2, 1, 4));    /* older than the last 4 */
	ck_assert_uint_eq(recs[1].shown_ns, 0);
	struct timeline_buf none = { .rec = recs, .cap = 8 };
	ck_assert(!timeline_mark_shown(&none, 0, 1, 4));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("timeline");
	TCase *tc = tcase_create("format");
	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, frame_marks);
	tcase_add_test(tc, bounded_and_written);
	tcase_add_test(tc, shown_marked);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
