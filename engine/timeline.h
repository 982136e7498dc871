/* The per-period timeline file (--timeline; doc/timeline.md): every period of every pair, to draw a
 * diagram as latencytest did.  One definition for writer and reader (doc/timeline.md):
 *
 *   header, 16 bytes: magic "IBTL", u32 version (3), u32 record size (80), u32 reserved (0)
 *   records, 80 bytes each, little-endian:
 *     u32 pair      the pair's id (the JSON result's "timeline_pair")
 *     u32 period    the period's index in the pair (skipped periods are not recorded, but
 *                   counted in the record before them)
 *     u64 start_ns  the period's nominal start, from the pair's first period
 *     u32 timer_ns  timer latency (0 when the period was already due)
 *     u32 sched_ns  scheduling latency
 *     u32 late_ns   lateness: nominal start to the task running
 *     u32 loop_ns   the thread's CPU time for the period's work
 *     u32 flags     TIMELINE_MET, TIMELINE_XRUN
 *     u32 skipped   periods dropped after this one
 *     u64 shown_ns  a task that presents frames (Pipeline): the vsync that showed the period's
 *                   frame, from the pair's first period; 0: not shown (or no such task)
 *     u32 marks_ns[7]  a task that presents frames: the points the shown frame passed, ns after
 *                   the period's nominal start (Pipeline: its chain's pickup, fork, joined,
 *                   resumed, committed, latched and composed, workloads/pipeline_chain.h
 *                   CHAIN_POINT_LIST; presented is shown_ns); 0: not passed (or no such task)
 *     u32 input_age_ns  its frame's input: from the newest input event it picked up to the
 *                   pickup (marks_ns[0]); 0: none
 *   Durations above 4.29 s saturate at UINT32_MAX.  Versions 1 (40-byte records, no shown_ns)
 *   and 2 (48-byte records, no marks) are still read. */
#ifndef IB_TIMELINE_H
#define IB_TIMELINE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TIMELINE_MAGIC "IBTL"
#define TIMELINE_VERSION 3u
#define TIMELINE_HEADER_BYTES 16u
#define TIMELINE_RECORD_BYTES 80u
#define TIMELINE_V1_RECORD_BYTES 40u  /* version 1's records: no shown_ns */
#define TIMELINE_V2_RECORD_BYTES 48u  /* version 2's records: no marks_ns, input_age_ns */
#define TIMELINE_MARKS 7u             /* a shown frame's points before its presentation */
#define TIMELINE_MET  0x1u  /* the deadline was met */
#define TIMELINE_XRUN 0x2u  /* completed later than the audio buffer allows */
/* Records one pair keeps in memory (80 MB): beyond, the pair's timeline is cut short and its
 * JSON result says so. */
#define TIMELINE_MAX_RECORDS (1u << 20)

/* One period, in host form. */
struct timeline_rec {
	uint32_t pair, period;
	uint64_t start_ns;
	uint32_t timer_ns, sched_ns, late_ns, loop_ns, flags, skipped;
	uint64_t shown_ns;
	uint32_t marks_ns[TIMELINE_MARKS];
	uint32_t input_age_ns;
};

/* A pair's records in memory (the bench process fills it). */
struct timeline_buf {
	struct timeline_rec *rec;
	uint32_t n, cap;
	bool truncated;             /* more periods than cap */
};

/* Saturates ns to a u32 field. */
static inline uint32_t timeline_u32(uint64_t ns) { return ns > UINT32_MAX ? UINT32_MAX : (uint32_t)ns; }

/* Appends r to b (dropped, with b->truncated set, when full). */
void timeline_push(struct timeline_buf *b, const struct timeline_rec *r);

/* Sets shown_ns of period number `period`'s record, when it is among b's last `within`
 * records (a frame is shown a few periods after its record at the most).  Returns whether it
 * was found. */
bool timeline_mark_shown(struct timeline_buf *b, uint32_t period, uint64_t shown_ns, uint32_t within);

/* Sets r's marks from a frame's points at_ns[0..TIMELINE_MARKS) and its input event's time
 * input_ns (CLOCK_MONOTONIC ns; 0: not passed, none), the period having started at
 * period_ns (CLOCK_MONOTONIC). */
void timeline_set_marks(struct timeline_rec *r, uint64_t period_ns, uint64_t input_ns, const uint64_t *at_ns);

/* Sets the marks of period number `period`'s record as timeline_set_marks does, when it is
 * among b's last `within` records, the pair's period 0 having started at origin_ns.  Returns
 * whether it was found. */
bool timeline_mark_frame(struct timeline_buf *b, uint32_t period, uint64_t origin_ns, uint64_t input_ns,
			 const uint64_t *at_ns, uint32_t within);

/* Encodes the file header / record r into out (TIMELINE_HEADER_BYTES / TIMELINE_RECORD_BYTES). */
void timeline_encode_header(unsigned char *out);
void timeline_encode(const struct timeline_rec *r, unsigned char *out);

/* Decodes the header: returns its records' size (TIMELINE_RECORD_BYTES, or
 * TIMELINE_V2_RECORD_BYTES or TIMELINE_V1_RECORD_BYTES for versions 2 and 1), or 0 when it is
 * not a timeline of any. */
unsigned timeline_decode_header(const unsigned char *in);
/* Decodes a record of record_bytes (as timeline_decode_header said) from in into *r. */
void timeline_decode(const unsigned char *in, unsigned record_bytes, struct timeline_rec *r);

/* Writes b's records to fd (opened O_APPEND), in chunks.  Returns 0, or -1 with errno set. */
int timeline_write(int fd, const struct timeline_buf *b);

#endif
