#define _GNU_SOURCE /* syncfs */
/* Disk load machinery (see disk.h). */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "host/child.h"
#include "host/oom.h"
#include "lib/text.h"
#include "loadkit/disk.h"
#include "loadkit/probe.h"
#include "loadkit/sizes.h"

const struct optspec disk_opt_workdir = {
	.long_name = "workdir", .type = OPTSPEC_STRING, .metavar = "DIR",
	.help = "directory for disk load scratch files (default: .)", .def_str = ".",
	.accepted = "an existing directory", .noun = "directory name", .json_key = "workdir",
	.section = OPTSPEC_SECTION_WORKLOAD, .offset = offsetof(struct disk_opts, workdir),
};
const struct optspec disk_opt_file_size = {
	.long_name = "file-size", .type = OPTSPEC_SIZE, .metavar = "SIZE",
	.help = "disk load file size, 1M to 1048576T (K/M/G/T suffixes)",
	.min = LOAD_MIN_SIZE_BYTES, .max = LOAD_MAX_SIZE_BYTES, .json_key = "file_size_bytes",
	.section = OPTSPEC_SECTION_WORKLOAD, .offset = offsetof(struct disk_opts, file_size_bytes),
};
const struct optspec *const disk_options[] = { &disk_opt_workdir, &disk_opt_file_size, NULL };

static const struct disk_opts *disk_opts_of(const struct load_ctx *ctx)
{
	return ctx->opts;
}

int disk_preflight(const void *opts, char *err, size_t len)
{
	const char *dir = ((const struct disk_opts *)opts)->workdir;
	struct stat st;
	if (stat(dir, &st) == 0 && (S_ISDIR(st.st_mode) || (errno = ENOTDIR, false)) && access(dir, W_OK | X_OK) == 0)
		return 0;
	snprintf(err, len, "--workdir: '%s' is not usable: %s (accepted: an existing directory you may write to)",
		 dir, strerror(errno));
	return -1;
}

/* A chunk of bytes that compressing or deduplicating filesystems cannot shrink. */
static char *chunk_alloc(struct load_ctx *ctx)
{
	uint64_t x = 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
	uint64_t *buf = malloc(DISK_CHUNK_BYTES);
	if (!buf) {
		load_fail(ctx, ENOMEM, "malloc %u bytes: %s", DISK_CHUNK_BYTES, strerror(ENOMEM));
		return NULL;
	}
	for (size_t i = 0; i < DISK_CHUNK_BYTES / sizeof(*buf); i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[i] = x;
	}
	return (char *)buf;
}

/* Bytes the read file's preparation lets sit in the page cache before it writes them out and
 * drops them (drop-behind): main writes that file, so its footprint in a memory cgroup stays
 * this small whatever the file's size. */
#define DROP_BEHIND_BYTES (8u << 20)

/* Writes [off, off + len) of fd out to the device and drops it from the page cache
 * (sync_file_range(2) with WAIT_BEFORE | WRITE | WAIT_AFTER, then posix_fadvise(2) DONTNEED). */
static int drop_behind(struct load_ctx *ctx, int fd, const char *path, uint64_t off, uint64_t len)
{
	if (sync_file_range(fd, (off_t)off, (off_t)len, SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
			    SYNC_FILE_RANGE_WAIT_AFTER) != 0) {
		load_fail(ctx, errno, "sync_file_range %s: %s", path, strerror(errno));
		return -1;
	}
	posix_fadvise(fd, (off_t)off, (off_t)len, POSIX_FADV_DONTNEED);   /* advice: a refusal costs only memory */
	return 0;
}

/* Writes size bytes to fd from offset 0 in chunks (pwrite: the descriptor is shared across
 * processes, its offset is not used), with drop, every DROP_BEHIND_BYTES out of the page cache.
 * Returns 0 when done or stopped, -1 after recording a failure (EFBIG from a file size limit is
 * reported like ENOSPC: the pair fails). */
static int write_whole(struct load_ctx *ctx, int fd, const char *path, uint64_t size, const char *buf, bool drop)
{
	for (uint64_t off = 0, dropped = 0; off < size && !load_should_stop(ctx);) {
		size_t n = size - off < DISK_CHUNK_BYTES ? (size_t)(size - off) : DISK_CHUNK_BYTES;
		ssize_t w = pwrite(fd, buf, n, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? errno : EIO;
			load_fail(ctx, e, "write %s: %s", path, strerror(e));
			return -1;
		}
		off += (uint64_t)w;
		load_count(ctx, &load_metric_written, (uint64_t)w);
		if (drop && (off - dropped >= DROP_BEHIND_BYTES || off == size)) {
			if (drop_behind(ctx, fd, path, dropped, off - dropped) != 0)
				return -1;
			dropped = off;
		}
	}
	return 0;
}

/* Empties scratch file idx (ftruncate), recording a failure.  Returns 0, or -1. */
static int truncate_file(struct load_ctx *ctx, int idx)
{
	const struct scratch_set *sc = ctx->cfg->scratch;
	int fd = scratch_fd(sc, idx);
	if (fd >= 0 && ftruncate(fd, 0) != 0) {
		load_fail(ctx, errno, "truncate %s: %s", sc->paths[idx], strerror(errno));
		return -1;
	}
	return 0;
}

/* Drops path's pages from the page cache (syncing them first so they can be dropped). */
static int drop_cache(struct load_ctx *ctx, int fd, const char *path)
{
	if (fdatasync(fd) != 0) {
		load_fail(ctx, errno, "fdatasync %s: %s", path, strerror(errno));
		return -1;
	}
	int rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (rc != 0) {
		load_fail(ctx, rc, "posix_fadvise(DONTNEED) %s: %s", path, strerror(rc));
		return -1;
	}
	return 0;
}

/* Fills the read file (scratch idx): written whole with drop-behind, synced and out of the page
 * cache.  Runs in the filler child (fill_in_child). */
static int create_read_file(struct load_ctx *ctx, int idx, uint64_t size)
{
	const char *path = ctx->cfg->scratch->paths[idx];
	int fd = scratch_fd(ctx->cfg->scratch, idx);
	char *buf = chunk_alloc(ctx);
	if (!buf)
		return -1;
	int rc = write_whole(ctx, fd, path, size, buf, true);
	if (rc == 0 && !load_should_stop(ctx)) /* an interrupted file is removed unsynced */
		rc = drop_cache(ctx, fd, path);
	free(buf);
	return rc;
}

/* The filler child's work: what it fills, and (the result it sends) how that went. */
struct fill_job {
	struct load_ctx *ctx;
	int idx;
	uint64_t size_bytes;
};

/* The filler child: first in line for the OOM killer (host/oom.h), it writes the file and sends
 * its counters (error 0, or the failure) back; main stops it by SIGKILL. */
static int fill_body(void *arg, int ctl_fd, int res_fd)
{
	const struct fill_job *j = arg;
	(void)ctl_fd;
	oom_adj_child(true);
	j->ctx->counters.error = 0;
	create_read_file(j->ctx, j->idx, j->size_bytes);
	return fd_write_all(res_fd, &j->ctx->counters, sizeof(j->ctx->counters)) == 0 ? 0 : 1;
}

/* Waits for the filler child's counters, polling main's stop request every 100 ms.  Returns 0
 * with *got filled, or -1 (stopped, or the child died: *got says nothing). */
static int fill_wait(struct load_ctx *ctx, struct child *ch, struct load_counters *got)
{
	struct pollfd p = { .fd = ch->res_fd, .events = POLLIN };
	while (!load_should_stop(ctx)) {
		int n = poll(&p, 1, 100);
		if (n > 0)
			return fd_read_all(ch->res_fd, got, sizeof(*got), 1000);
		if (n < 0 && errno != EINTR)
			return -1;
	}
	return -1;
}

/* Fills the read file in a child process, so that the page cache its writing charges to a
 * memory cgroup never makes the OOM killer take main (which has no other child then).
 * Returns 0, or -1 with the failure recorded: the child's own, how it died ("killed by signal
 * 9 (Killed): the OOM killer? ..."), or an interruption. */
static int fill_in_child(struct load_ctx *ctx, int idx, uint64_t size_bytes)
{
	struct fill_job job = { .ctx = ctx, .idx = idx, .size_bytes = size_bytes };
	struct child_fate fate = { .realtime = false, .oom_kills_before = oom_kill_count() };
	struct child ch;
	struct load_counters got;
	int keep = scratch_fd(ctx->cfg->scratch, idx);
	if (child_spawn(&ch, "ib-read-fill", fill_body, &job, &keep, 1) != 0) {
		load_fail(ctx, errno, "fork the read file's writer: %s", strerror(errno));
		return -1;
	}
	int rc = fill_wait(ctx, &ch, &got);
	child_reap(&ch, load_should_stop(ctx) ? 0 : 5000);   /* stopped: killed at once */
	if (rc == 0 && got.error == 0)
		return 0;
	if (rc == 0) {
		load_fail(ctx, got.error, "%s", got.errmsg);
	} else if (!load_should_stop(ctx)) {
		char why[160];
		child_describe_death(ch.status, &fate, why, sizeof(why));
		load_fail(ctx, EIO, "the read file's writer ended without a result (%s)", why);
	}
	return -1;
}

static void disk_remove_files(struct scratch_set *sc, const struct disk_state *ds)
{
	scratch_remove(sc, ds->write_idx);
	scratch_remove(sc, ds->read_idx);
}

int disk_prepare(struct load_ctx *ctx, const char *write_tag, const char *read_tag)
{
	struct disk_state *ds = ctx->priv;
	struct load_counters *c = &ctx->counters;
	if (!ds) {
		ds = calloc(1, sizeof(*ds));
		if (!ds) {
			load_fail(ctx, ENOMEM, "calloc: %s", strerror(ENOMEM));
			return -1;
		}
		ds->write_idx = ds->read_idx = -1;
		ctx->priv = ds;
	}
	c->error = 0;
	struct scratch_set *sc = ctx->cfg->scratch;
	if (write_tag && (ds->write_idx = scratch_add(sc, disk_opts_of(ctx)->workdir, write_tag,
						      c->errmsg, sizeof(c->errmsg))) < 0)
		goto fail;
	if (read_tag && (ds->read_idx = scratch_add(sc, disk_opts_of(ctx)->workdir, read_tag,
						    c->errmsg, sizeof(c->errmsg))) < 0)
		goto fail;
	if (truncate_file(ctx, ds->write_idx) != 0 || truncate_file(ctx, ds->read_idx) != 0)
		return -1;  /* a failed earlier attempt's files hold no space now */

	struct mem_facts mem;
	struct disk_size_in in = { .override_bytes = disk_opts_of(ctx)->file_size_bytes,
				   .nfiles = (write_tag != NULL) + (read_tag != NULL) };
	char reason[160];
	if (probe_memory(&mem, c->errmsg, sizeof(c->errmsg)) != 0 ||
	    probe_storage_of(disk_opts_of(ctx)->workdir, &ctx->storage, c->errmsg, sizeof(c->errmsg)) != 0 ||
	    probe_free_bytes(disk_opts_of(ctx)->workdir, &in.free_bytes, c->errmsg, sizeof(c->errmsg)) != 0)
		goto fail;
	in.ram_bytes = mem.ram_bytes;
	if (disk_size_decide(&in, &ds->size_bytes, reason, sizeof(reason)) != 0) {
		load_fail(ctx, ENOSPC, "not enough space in %s: %s", disk_opts_of(ctx)->workdir, reason);
		return -1;
	}
	if (read_tag && (fill_in_child(ctx, ds->read_idx, ds->size_bytes) != 0 ||
			 load_should_stop(ctx))) {
		if (!c->error)
			load_fail(ctx, EINTR, "creating the read file: interrupted");
		truncate_file(ctx, ds->read_idx); /* removed by cleanup; no space held meanwhile */
		return -1;
	}
	return 0;
fail:
	if (!c->error)
		c->error = EINVAL;
	return -1;
}

void disk_cleanup(struct load_ctx *ctx)
{
	struct disk_state *ds = ctx->priv;
	if (!ds)
		return;
	disk_remove_files(ctx->cfg->scratch, ds);
	free(ds);
	ctx->priv = NULL;
}

int disk_describe(const struct load_config *cfg, const void *opts, char *buf, size_t len)
{
	(void)cfg;
	const char *dir = ((const struct disk_opts *)opts)->workdir;
	struct probe_storage st;
	char err[8];
	buf[0] = '\0';
	if (probe_storage_of(dir, &st, err, sizeof(err)) == 0 && st.in_memory)
		disk_storage_note(dir, &st, buf, len);
	return 0;
}

void disk_storage_note(const char *workdir, const struct probe_storage *st, char *buf, size_t len)
{
	snprintf(buf, len, "--workdir %s is on %s: the disk loads' files live in memory, no device is reached", workdir, st->fs);
}

void disk_after_pair(struct load_ctx *ctx, const struct load_counters *c)
{
	if (!load_counted(ctx, c, &load_metric_written))
		return;
	int fd = open(disk_opts_of(ctx)->workdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (syncfs(fd) != 0)
		text_message(stderr, "interbench: warning: syncfs %s: %s", disk_opts_of(ctx)->workdir, strerror(errno));
	close(fd);
}

void *disk_writer(void *arg)
{
	struct load_ctx *ctx = ((struct load_worker *)arg)->ctx;
	struct disk_state *ds = ctx->priv;
	const char *path = ctx->cfg->scratch->paths[ds->write_idx];
	int fd = scratch_fd(ctx->cfg->scratch, ds->write_idx);
	char *buf = chunk_alloc(ctx);

	while (buf && !atomic_load(&ctx->stop)) {
		if (truncate_file(ctx, ds->write_idx) != 0 || write_whole(ctx, fd, path, ds->size_bytes, buf, false) != 0)
			break;
	}
	free(buf);
	return NULL;
}

void *disk_reader(void *arg)
{
	struct load_ctx *ctx = ((struct load_worker *)arg)->ctx;
	struct disk_state *ds = ctx->priv;
	const char *path = ctx->cfg->scratch->paths[ds->read_idx];
	int fd = scratch_fd(ctx->cfg->scratch, ds->read_idx);
	char *buf = chunk_alloc(ctx);

	while (buf && !atomic_load(&ctx->stop) && drop_cache(ctx, fd, path) == 0) {
		uint64_t off = 0;
		ssize_t r = 1;
		while (r != 0 && !atomic_load(&ctx->stop)) {
			r = pread(fd, buf, DISK_CHUNK_BYTES, (off_t)off);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0) {
				load_fail(ctx, errno, "read %s: %s", path, strerror(errno));
				goto out;
			}
			off += (uint64_t)r;
			load_count(ctx, &load_metric_read, (uint64_t)r);
		}
		if (off == 0 && !atomic_load(&ctx->stop)) {
			load_fail(ctx, EIO, "read %s: the file is empty", path);
			break;
		}
	}
out:
	free(buf);
	return NULL;
}

/* One pass of the copy: reads the source chunk by chunk and writes each chunk at the same
 * offset of the destination.  Returns the bytes copied, or -1 after recording a failure. */
static int64_t copy_pass(struct load_ctx *ctx, int in, const char *src, int out, const char *dst, char *buf)
{
	uint64_t off = 0;
	for (;;) {
		if (atomic_load(&ctx->stop))
			return (int64_t)off;
		ssize_t r = pread(in, buf, DISK_CHUNK_BYTES, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			load_fail(ctx, errno, "read %s: %s", src, strerror(errno));
			return -1;
		}
		if (r == 0)
			return (int64_t)off;
		load_count(ctx, &load_metric_read, (uint64_t)r);
		for (ssize_t done = 0; done < r;) {
			ssize_t w = pwrite(out, buf + done, (size_t)(r - done), (off_t)(off + (uint64_t)done));
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				int e = w < 0 ? errno : EIO;
				load_fail(ctx, e, "write %s: %s", dst, strerror(e));
				return -1;
			}
			done += w;
			load_count(ctx, &load_metric_written, (uint64_t)w);
		}
		off += (uint64_t)r;
	}
}

void *disk_copier(void *arg)
{
	struct load_ctx *ctx = ((struct load_worker *)arg)->ctx;
	struct disk_state *ds = ctx->priv;
	const struct scratch_set *sc = ctx->cfg->scratch;
	int in = scratch_fd(sc, ds->read_idx), out = scratch_fd(sc, ds->write_idx);
	char *buf = chunk_alloc(ctx);

	while (buf && !atomic_load(&ctx->stop)) {
		/* the source from the device every pass, the destination emptied first */
		if (drop_cache(ctx, in, sc->paths[ds->read_idx]) != 0 || truncate_file(ctx, ds->write_idx) != 0)
			break;
		int64_t n = copy_pass(ctx, in, sc->paths[ds->read_idx], out, sc->paths[ds->write_idx], buf);
		if (n < 0)
			break;
		if (n == 0 && !atomic_load(&ctx->stop)) {
			load_fail(ctx, EIO, "read %s: the file is empty", sc->paths[ds->read_idx]);
			break;
		}
	}
	free(buf);
	return NULL;
}
