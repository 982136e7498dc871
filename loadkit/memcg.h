/* The memory a cgroup lets this process use: every ancestor's limit applies, so the room left
 * is the tightest over the process's cgroup and all its ancestors visible here, in the v1
 * memory hierarchy and in the unified (v2) one.  memcg_level and memcg_tighter are pure;
 * memcg_where and memcg_read read /proc and the cgroup files (under a root prefix, so tests can
 * hand them a fake tree).
 *
 * The limits read: v2 memory.max (the OOM killer acts above it) and memory.high (above it the
 * kernel throttles and reclaims: a Memload sized past it would measure that throttling, so it
 * counts as a limit too); v1 memory.limit_in_bytes.  Not read: v1 memory.soft_limit_in_bytes
 * (it only matters under global pressure), and the swap a cgroup may use (memory.swap.max, v1
 * memory.memsw.*): Memload stays inside the memory limit so that it never relies on swap to
 * escape the OOM killer. */
#ifndef IB_MEMCG_H
#define IB_MEMCG_H
#include <stdbool.h>
#include <stdint.h>
#include "host/cgroup.h"

/* v1 reports "no limit" as the largest page-aligned long (9223372036854771712 with 4 KiB
 * pages); any limit from this figure up counts as none. */
#define MEMCG_UNLIMITED_BYTES (1ull << 62)

/* One limit and what is used under it. */
struct memcg_room {
	bool limited;          /* a finite limit applies; the fields below are valid only then */
	uint64_t limit_bytes;  /* the limit */
	uint64_t used_bytes;   /* usage minus the inactive file cache (reclaimed before any OOM kill) */
	char file[32];         /* the limit's file: "memory.max", "memory.high" or "memory.limit_in_bytes" */
	char dir[PATH_MAX];    /* the cgroup directory holding it (filled by memcg_read, not memcg_level) */
};

/* The hierarchies the process's memory cgroup is in (at most the v1 memory one and v2). */
struct memcg_where {
	unsigned n;
	struct cgroup_loc loc[2];
};

/* The room under r's limit: limit - used, 0 when usage is above it. */
uint64_t memcg_headroom_bytes(const struct memcg_room *r);

/* Parses one cgroup's files.  version 2: limit_text is memory.max, high_text memory.high,
 * usage_text memory.current, stat_text memory.stat (its "inactive_file" line); version 1:
 * limit_text is memory.limit_in_bytes, high_text NULL, usage_text memory.usage_in_bytes,
 * stat_text memory.stat ("total_inactive_file").  Any text may be NULL (file absent).  The
 * limit is the smaller of max and high; "max", a missing file or a figure from
 * MEMCG_UNLIMITED_BYTES up is no limit; an unreadable usage counts as 0.  Fills out (dir left
 * empty) and returns whether a limit applies. */
bool memcg_level(int version, const char *limit_text, const char *high_text, const char *usage_text,
		 const char *stat_text, struct memcg_room *out);

/* Replaces *best with cand when cand is limited and leaves less room (or *best is unlimited). */
void memcg_tighter(struct memcg_room *best, const struct memcg_room *cand);

/* Locates the process's memory cgroups under root ("" for the real system).  Never fails:
 * w->n is 0 when none is visible. */
void memcg_where(const char *root, struct memcg_where *w);

/* Puts v2 in w as its unified (v2) cgroup, in place of the process's own: where a process
 * that enters v2 will be (--load-cgroup); the v1 memory hierarchy's stays. */
void memcg_where_v2(struct memcg_where *w, const struct cgroup_loc *v2);

/* Reads every level of w, from the process's cgroup up to each mount point, into the tightest
 * room (out->limited false when no level has a limit).  Unreadable files count as absent. */
void memcg_read(const struct memcg_where *w, struct memcg_room *out);

#endif
