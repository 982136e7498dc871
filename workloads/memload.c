/* Memload: memory pressure as interbench 0.20 made it ("repeatedly accessing 110% of available
 * ram and moving it around and freeing it"): map 1 MiB blocks up to the size the policy in
 * sizes.h allows, write every page, copy blocks over each other, unmap them all, repeat.  The
 * size is decided again from MemAvailable and the memory cgroup's room at start and checked
 * while allocating, so the load never brings in the OOM killer, of the machine or of a
 * container. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "workloads/workload.h"
#include "loadkit/memcg.h"
#include "loadkit/probe.h"
#include "loadkit/sizes.h"

#define MEMLOAD_BLOCK_BYTES SIZE_MIB
#define MEMLOAD_RECHECK_BLOCKS 64   /* MemAvailable is read again after this many blocks */
#define MEMLOAD_REASON_LEN (PATH_MAX + 256)

/* Memload's own options. */
struct memload_opts {
	uint64_t mem_size_bytes;   /* --mem-size, 0 = default policy (sizes.h) */
};

static const struct optspec memload_opt_size = {
	.long_name = "mem-size", .type = OPTSPEC_SIZE, .metavar = "SIZE",
	.help = "Memload size, 1M to 1048576T (K/M/G/T suffixes)",
	.min = LOAD_MIN_SIZE_BYTES, .max = LOAD_MAX_SIZE_BYTES, .json_key = "mem_size_bytes",
	.section = OPTSPEC_SECTION_WORKLOAD, .offset = offsetof(struct memload_opts, mem_size_bytes),
};

/* What Memload counts: MiB blocks touched (mapped and written, or copied over). */
static const struct load_metric_info memload_touched = { "mib_touched", "MiB/s touched", 1, false };

struct memload_state {
	char **blocks;        /* mapped blocks of the current pass */
	size_t nblocks;       /* the size the policy allowed at start, in blocks */
	uint64_t reserve_bytes;    /* the machine's reserve */
	struct memcg_where where;  /* the process's memory cgroups */
};

/* A state with the memory cgroups located, or NULL (calloc failed): the process's own, its
 * unified one replaced by v2 when given (where the load processes will run). */
static struct memload_state *memload_state_new(const struct cgroup_loc *v2)
{
	struct memload_state *ms = calloc(1, sizeof(*ms));
	if (ms)
		memcg_where("", &ms->where);
	if (ms && v2)
		memcg_where_v2(&ms->where, v2);
	return ms;
}

/* Decides the size from the memory free now and sets ms's reserve: 0, or -1 with reason
 * saying why not. */
static int memload_decide(const struct memload_opts *opts, struct memload_state *ms, uint64_t *size_bytes,
			  char *reason, size_t len)
{
	struct mem_facts m;
	struct memcg_room cg;
	if (probe_memory(&m, reason, len) != 0)
		return -1;
	memcg_read(&ms->where, &cg);
	struct mem_size_in in = { .ram_bytes = m.ram_bytes, .mem_available_bytes = m.mem_available_bytes,
				  .swap_total_bytes = m.swap_total_bytes, .swap_free_bytes = m.swap_free_bytes,
				  .override_bytes = opts->mem_size_bytes, .cg = &cg };
	ms->reserve_bytes = mem_reserve_bytes(m.ram_bytes);
	return mem_size_decide(&in, size_bytes, reason, len);
}

/* memload_decide on a state of its own, for a decision made outside the load (in the cgroup
 * v2 the loads will enter, or main's). */
static int memload_decide_once(const struct memload_opts *opts, const struct cgroup_loc *v2, char *reason, size_t len)
{
	uint64_t size;
	struct memload_state *ms = memload_state_new(v2);
	if (!ms) {
		snprintf(reason, len, "calloc: %s", strerror(ENOMEM));
		return -1;
	}
	int rc = memload_decide(opts, ms, &size, reason, len);
	free(ms);
	return rc;
}

/* describe hook: the size policy for the run header as one line, e.g. "Memload: 22.1 GiB =
 * MemAvailable 23.3 GiB - reserve 1.2 GiB (no swap)", or under a tighter memory cgroup limit
 * "Memload: 383.0 MiB = cgroup /sys/fs/cgroup/ib memory.max 512.0 MiB - used 65.0 MiB -
 * reserve 64.0 MiB", from the memory free now.  Returns 0, or -1 when Memload could not run
 * (the line then says why). */
static int memload_policy_line(const struct load_config *cfg, const void *opts, char *buf, size_t len)
{
	char reason[MEMLOAD_REASON_LEN];
	int rc = memload_decide_once(opts, cfg->cgroup_v2, reason, sizeof(reason));
	snprintf(buf, len, "Memload: %s", reason);
	return rc;
}

/* Whether memory is nearly out: MemAvailable below half the machine's reserve, or the
 * cgroup's room below half its reserve (another program grew since start).  An unreadable
 * /proc/meminfo counts as yes. */
static bool memory_short(const struct memload_state *ms)
{
	struct mem_facts m;
	struct memcg_room cg;
	char err[128];
	if (probe_memory(&m, err, sizeof(err)) != 0 || m.mem_available_bytes < ms->reserve_bytes / 2)
		return true;
	memcg_read(&ms->where, &cg);
	return cg.limited && memcg_headroom_bytes(&cg) < mem_cg_reserve_bytes(cg.limit_bytes) / 2;
}

static void *memload_worker(void *arg)
{
	struct load_ctx *ctx = ((struct load_worker *)arg)->ctx;
	struct memload_state *ms = ctx->run_priv;
	uint64_t x = 88172645463325252ull;

	while (!atomic_load(&ctx->stop)) {
		size_t n = 0;
		for (; n < ms->nblocks && !atomic_load(&ctx->stop); n++) {
			if (n % MEMLOAD_RECHECK_BLOCKS == MEMLOAD_RECHECK_BLOCKS - 1 && memory_short(ms))
				break;
			/* MAP_POPULATE faults the block in one go: on a VM measured 6x faster than
			 * first-touch faults (2662 vs 427 MiB/s), so the load reaches its size within
			 * a run instead of a minute later. */
			void *b = mmap(NULL, MEMLOAD_BLOCK_BYTES, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
			if (b == MAP_FAILED)
				break; /* out of address space or memory: work with what we have */
			memset(b, (int)n, MEMLOAD_BLOCK_BYTES);
			ms->blocks[n] = b;
			load_count(ctx, &memload_touched, 1);
		}
		for (size_t i = 0; i < n && !atomic_load(&ctx->stop); i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			memcpy(ms->blocks[i], ms->blocks[x % n], MEMLOAD_BLOCK_BYTES);
			load_count(ctx, &memload_touched, 1);
		}
		if (atomic_load(&ctx->stop))
			break; /* the blocks go with the load process, which exits right after stop */
		for (size_t i = 0; i < n; i++)
			munmap(ms->blocks[i], MEMLOAD_BLOCK_BYTES);
	}
	return NULL;
}

static int memload_start(struct load_ctx *ctx)
{
	struct memload_state *ms = memload_state_new(NULL);  /* in its cgroup already */
	uint64_t size;
	char reason[MEMLOAD_REASON_LEN];
	if (!ms) {
		load_fail(ctx, ENOMEM, "calloc: %s", strerror(ENOMEM));
		return -1;
	}
	if (memload_decide(ctx->opts, ms, &size, reason, sizeof(reason)) != 0) {
		load_fail(ctx, ENOMEM, "%s", reason);
		free(ms);
		return -1;
	}
	ms->nblocks = size / MEMLOAD_BLOCK_BYTES;
	ms->blocks = calloc(ms->nblocks, sizeof(*ms->blocks));
	if (!ms->blocks) {
		load_fail(ctx, ENOMEM, "calloc: %s", strerror(ENOMEM));
		free(ms);
		return -1;
	}
	ctx->run_priv = ms;
	return load_threads_start(ctx, 1, memload_worker);
}

static void memload_stop(struct load_ctx *ctx)
{
	load_threads_stop(ctx);
	/* Blocks still mapped are left to the exit of the load process: unmapping many GiB here
	 * could hold the counters back past main's grace time. */
	struct memload_state *ms = ctx->run_priv;
	if (ms)
		free(ms->blocks);
	free(ms);
	ctx->run_priv = NULL;
}

static int memload_prepare(struct load_ctx *ctx)
{
	char reason[MEMLOAD_REASON_LEN];
	ctx->counters.error = 0; /* an earlier attempt's failure */
	if (memload_decide_once(ctx->opts, ctx->cfg->cgroup_v2, reason, sizeof(reason)) != 0) {
		load_fail(ctx, ENOMEM, "%s", reason);
		return -1;
	}
	return 0;
}

static const struct load_ops memload_ops = {
	.prepare = memload_prepare,
	.start = memload_start,
	.stop = memload_stop,
	.describe = memload_policy_line,
};

const struct workload wl_memload = {
	.name = "Memload",
	.load_help = "maps, touches, copies and frees 1 MiB blocks up to --mem-size (default: all it safely can)",
	.flags = WL_LOAD_NORMAL | WL_LOAD_RT,
	.options = (const struct optspec *const[]){ &memload_opt_size, NULL },
	.cfg_size = sizeof(struct memload_opts),
	.load = &memload_ops,
	.metrics = (const struct load_metric_info *const[]){ &memload_touched, NULL },
};
