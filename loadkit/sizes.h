/* Size policy of the disk loads and of Memload: pure functions of synthetic inputs (RAM, swap,
 * MemAvailable, the memory cgroup's room, free disk space, overrides), so every branch can be
 * unit-tested.  Probing the
 * real machine is loadkit/probe.c's job. */
#ifndef IB_SIZES_H
#define IB_SIZES_H
#include <stddef.h>
#include <stdint.h>
#include "loadkit/memcg.h"

#define SIZE_MIB (1ull << 20)
#define SIZE_GIB (1ull << 30)
/* --file-size and --mem-size bounds: 1 MiB to 1 EiB (1048576T).  No file or memory is that
 * large; the bound keeps every figure derived from a size (a need with its margin, twice for
 * Compile) far inside uint64_t and off_t. */
#define LOAD_MIN_SIZE_BYTES SIZE_MIB
#define LOAD_MAX_SIZE_BYTES (1ull << 60)
#define DISK_DEFAULT_MAX_BYTES SIZE_GIB      /* default file size is at most 1 GiB ... */
#define DISK_FREE_SHARE_PCT 25u              /* ... and at most 25% of the free space */
#define DISK_MARGIN_PCT 10u                  /* files must fit with this margin */
#define MEM_RESERVE_MIN_BYTES (256 * SIZE_MIB) /* Memload leaves at least this ... */
#define MEM_RESERVE_RAM_PCT 5u               /* ... or 5% of RAM, the larger */
#define MEM_SWAP_TARGET_PCT 110u             /* with swap, Memload aims at 110% of RAM */
/* Inside a memory cgroup Memload leaves at least this or 5% of the limit, the larger: the
 * kernel's own memory is outside the limit, so less than the machine's reserve will do, but the
 * cgroup's other processes, interbench's own and the page tables of the load are inside it. */
#define MEM_CG_RESERVE_MIN_BYTES (64 * SIZE_MIB)
#define MEM_CG_RESERVE_PCT 5u

/* Inputs of the disk file size decision. */
struct disk_size_in {
	uint64_t ram_bytes;        /* physical RAM (MemTotal) */
	uint64_t free_bytes;       /* free space for unprivileged users in the work directory */
	uint64_t override_bytes;   /* --file-size, 0 = default policy */
	unsigned nfiles;           /* files of this size the load keeps at once (1 or 2) */
};

/* Decides the size of each disk load file: the override, else the smallest of RAM, 1 GiB and
 * 25% of the free space, rounded down to whole MiB.  Returns 0 with *size_bytes set, or -1
 * when the files would not fit with a 10% margin (or less than 1 MiB is possible).  reason
 * always receives one line saying why (e.g. "1.0 GiB = 1 GiB limit (RAM 23.5 GiB, 25% of
 * 80.0 GiB free)"). */
int disk_size_decide(const struct disk_size_in *in, uint64_t *size_bytes, char *reason, size_t len);

/* Inputs of the Memload size decision (all from /proc/meminfo, or synthetic). */
struct mem_size_in {
	uint64_t ram_bytes;           /* MemTotal */
	uint64_t mem_available_bytes; /* MemAvailable */
	uint64_t swap_total_bytes;    /* SwapTotal; 0 = no swap */
	uint64_t swap_free_bytes;     /* SwapFree */
	uint64_t override_bytes;      /* --mem-size, 0 = default policy */
	const struct memcg_room *cg;  /* the tightest memory cgroup limit, NULL (or !limited) = none */
};

/* The memory Memload leaves untouched: the larger of 256 MiB and 5% of RAM. */
uint64_t mem_reserve_bytes(uint64_t ram_bytes);

/* The memory Memload leaves untouched under a cgroup limit: the larger of 64 MiB and 5% of
 * the limit. */
uint64_t mem_cg_reserve_bytes(uint64_t limit_bytes);

/* Decides Memload's size, rounded down to whole MiB.  The machine's cap is, with swap, the
 * smaller of RAM + swap and MemAvailable + SwapFree, without swap MemAvailable, minus the
 * reserve; under a cgroup limit the cap is the smaller of that and the cgroup's room minus
 * its reserve (swap not counted, see memcg.h).  The target is the override, else with swap
 * 110% of RAM, else the cap; the size is the smaller of target and cap.  Returns 0 with
 * *size_bytes set, or -1 when less than 1 MiB can be spared.  reason always receives one line
 * naming the cap used (e.g. "22.1 GiB = MemAvailable 23.3 GiB - reserve 1.2 GiB (no swap)",
 * "383.0 MiB = cgroup /sys/fs/cgroup/ib memory.max 512.0 MiB - used 65.0 MiB - reserve
 * 64.0 MiB"). */
int mem_size_decide(const struct mem_size_in *in, uint64_t *size_bytes, char *reason, size_t len);

/* Formats a byte count for people: "512.0 MiB", "22.1 GiB", up to "16.0 EiB". */
void size_human(uint64_t bytes, char *buf, size_t len);

#endif
