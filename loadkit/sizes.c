/* Size policy of the disk loads and of Memload (see sizes.h).  Pure: no system calls. */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "loadkit/sizes.h"

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static uint64_t round_mib(uint64_t bytes) { return bytes / SIZE_MIB * SIZE_MIB; }

/* size_human for any figure, also beyond uint64_t (a disk need computed in 128 bits). */
static void human_of(double bytes, char *buf, size_t len)
{
	static const char *const units[] = { "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = bytes / (double)SIZE_MIB;
	unsigned u = 0;
	for (; v >= 1024.0 && u + 1 < sizeof(units) / sizeof(units[0]); u++)
		v /= 1024.0;
	snprintf(buf, len, "%.1f %s", v, units[u]);
}

void size_human(uint64_t bytes, char *buf, size_t len)
{
	human_of((double)bytes, buf, len);
}

int disk_size_decide(const struct disk_size_in *in, uint64_t *size_bytes, char *reason, size_t len)
{
	char sz[32], ram[32], fr[32], need[32];
	unsigned nfiles = in->nfiles ? in->nfiles : 1;
	uint64_t share = in->free_bytes * DISK_FREE_SHARE_PCT / 100;
	uint64_t size = in->override_bytes ? in->override_bytes
		: round_mib(min_u64(min_u64(in->ram_bytes, DISK_DEFAULT_MAX_BYTES), share));
	/* in 128 bits, so no override can overflow it: the message states the real need */
	unsigned __int128 needed = (unsigned __int128)size * (100 + DISK_MARGIN_PCT) / 100 * nfiles;

	*size_bytes = size;
	size_human(size, sz, sizeof(sz));
	size_human(in->free_bytes, fr, sizeof(fr));
	human_of((double)needed, need, sizeof(need));
	if (size < SIZE_MIB || needed > in->free_bytes) {
		snprintf(reason, len, "%u file%s of %s need%s %s with a %u%% margin; %s free",
			 nfiles, nfiles > 1 ? "s" : "", sz, nfiles > 1 ? "" : "s", need, DISK_MARGIN_PCT, fr);
		return -1;
	}
	size_human(in->ram_bytes, ram, sizeof(ram));
	if (in->override_bytes)
		snprintf(reason, len, "%s (--file-size)", sz);
	else
		snprintf(reason, len, "%s = smallest of RAM %s, 1 GiB and %u%% of %s free",
			 sz, ram, DISK_FREE_SHARE_PCT, fr);
	return 0;
}

uint64_t mem_reserve_bytes(uint64_t ram_bytes)
{
	uint64_t pct = ram_bytes * MEM_RESERVE_RAM_PCT / 100;
	return pct > MEM_RESERVE_MIN_BYTES ? pct : MEM_RESERVE_MIN_BYTES;
}

uint64_t mem_cg_reserve_bytes(uint64_t limit_bytes)
{
	uint64_t pct = limit_bytes / 100 * MEM_CG_RESERVE_PCT;
	return pct > MEM_CG_RESERVE_MIN_BYTES ? pct : MEM_CG_RESERVE_MIN_BYTES;
}

/* The machine's cap (RAM, swap and MemAvailable, minus the reserve), described in desc. */
static uint64_t machine_cap(const struct mem_size_in *in, char *desc, size_t len)
{
	char a[32], b[32], res[32];
	uint64_t reserve = mem_reserve_bytes(in->ram_bytes), base;
	size_human(reserve, res, sizeof(res));
	if (!in->swap_total_bytes) {
		base = in->mem_available_bytes;
		size_human(base, a, sizeof(a));
		snprintf(desc, len, "MemAvailable %s - reserve %s (no swap)", a, res);
	} else if (in->ram_bytes + in->swap_total_bytes <= in->mem_available_bytes + in->swap_free_bytes) {
		base = in->ram_bytes + in->swap_total_bytes;
		size_human(in->ram_bytes, a, sizeof(a));
		size_human(in->swap_total_bytes, b, sizeof(b));
		snprintf(desc, len, "RAM %s + swap %s - reserve %s", a, b, res);
	} else {
		base = in->mem_available_bytes + in->swap_free_bytes;
		size_human(in->mem_available_bytes, a, sizeof(a));
		size_human(in->swap_free_bytes, b, sizeof(b));
		snprintf(desc, len, "MemAvailable %s + SwapFree %s - reserve %s", a, b, res);
	}
	return base > reserve ? base - reserve : 0;
}

/* The cgroup's cap (its room minus its reserve), described in desc; UINT64_MAX without one. */
static uint64_t cgroup_cap(const struct memcg_room *cg, char *desc, size_t len)
{
	char lim[32], used[32], res[32];
	if (!cg || !cg->limited)
		return UINT64_MAX;
	uint64_t reserve = mem_cg_reserve_bytes(cg->limit_bytes), room = memcg_headroom_bytes(cg);
	size_human(cg->limit_bytes, lim, sizeof(lim));
	size_human(cg->used_bytes, used, sizeof(used));
	size_human(reserve, res, sizeof(res));
	snprintf(desc, len, "cgroup %s %s %s - used %s - reserve %s", cg->dir[0] ? cg->dir : "?",
		 cg->file, lim, used, res);
	return room > reserve ? room - reserve : 0;
}

int mem_size_decide(const struct mem_size_in *in, uint64_t *size_bytes, char *reason, size_t len)
{
	char sz[32], ram[32], want_s[32], capdesc[PATH_MAX + 160], cgdesc[PATH_MAX + 160];
	bool swap = in->swap_total_bytes > 0;
	uint64_t cap = machine_cap(in, capdesc, sizeof(capdesc));
	uint64_t cgcap = cgroup_cap(in->cg, cgdesc, sizeof(cgdesc));
	if (cgcap < cap) {
		cap = cgcap;
		memcpy(capdesc, cgdesc, sizeof(capdesc));
	}
	uint64_t want = in->override_bytes ? in->override_bytes
		: swap ? in->ram_bytes * MEM_SWAP_TARGET_PCT / 100 : cap;
	uint64_t size = round_mib(min_u64(want, cap));

	*size_bytes = size;
	size_human(size, sz, sizeof(sz));
	size_human(want, want_s, sizeof(want_s));
	size_human(in->ram_bytes, ram, sizeof(ram));
	if (size < SIZE_MIB)
		snprintf(reason, len, "no memory to spare: %s", capdesc);
	else if (want <= cap && in->override_bytes)
		snprintf(reason, len, "%s (--mem-size)", sz);
	else if (want <= cap && swap)
		snprintf(reason, len, "%s = %u%% of RAM %s (with swap)", sz, MEM_SWAP_TARGET_PCT, ram);
	else if (want <= cap)
		snprintf(reason, len, "%s = %s", sz, capdesc);
	else
		snprintf(reason, len, "%s = %s %s capped at %s", sz,
			 in->override_bytes ? "--mem-size" : "110% of RAM", want_s, capdesc);
	return size < SIZE_MIB ? -1 : 0;
}
