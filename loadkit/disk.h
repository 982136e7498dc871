/* The disk loads' shared machinery (Write, Read, and Compile which runs both): scratch files
 * sized by the policy in sizes.h, a streaming writer and a cache-defeating reader.  A disk
 * load's ctx->priv is a struct disk_state made by disk_prepare in main; the load process gets
 * a copy when it forks. */
#ifndef IB_DISK_H
#define IB_DISK_H
#include <stdint.h>
#include "lib/optspec.h"
#include "loadkit/load.h"
#include "loadkit/scratch.h"

#define DISK_CHUNK_BYTES (1u << 20)  /* each write(2) / read(2); stop is checked between */

/* The disk loads' options: the config of every disk load (its workload's opts) begins with
 * this struct, and each lists disk_options, so --workdir and --file-size are defined once and
 * set for all of them. */
struct disk_opts {
	const char *workdir;         /* --workdir: directory of the scratch files (default ".") */
	uint64_t file_size_bytes;    /* --file-size: size of each file, 0 = default policy (sizes.h) */
};
extern const struct optspec disk_opt_workdir, disk_opt_file_size;
/* NULL-terminated, for a disk workload's .options. */
extern const struct optspec *const disk_options[];

struct disk_state {
	uint64_t size_bytes;         /* size of each file */
	int write_idx, read_idx;     /* index in cfg->scratch of the written / read file, or -1;
	                                disk_cleanup removes them */
};

/* preflight of a disk workload (opts: struct disk_opts): --workdir must be an existing
 * directory we may write to.  Returns 0, or -1 with a one-line message in err. */
int disk_preflight(const void *opts, char *err, size_t len);

/* prepare hook body, in main: registers the files of the given tags (NULL: none; the write
 * file is created by the load process, the read file here, filled and synced), decides their
 * size and refuses when they would not fit with a 10% margin.  Idempotent.  Returns 0, or -1
 * with counters.error / errmsg set (and any partial read file removed). */
int disk_prepare(struct load_ctx *ctx, const char *write_tag, const char *read_tag);

/* cleanup hook: removes the load's scratch files and frees its state; safe without prepare
 * and more than once. */
void disk_cleanup(struct load_ctx *ctx);

/* describe hook of the disk loads: when --workdir is on a file system in memory
 * (loadkit/probe.h probe_storage_of), the line disk_storage_note gives, else an empty line.
 * Returns 0. */
int disk_describe(const struct load_config *cfg, const void *opts, char *buf, size_t len);

/* "--workdir /dev/shm is on tmpfs: the disk loads' files live in memory, no device is
 * reached" into buf,
 * for storage st in memory. */
void disk_storage_note(const char *workdir, const struct probe_storage *st, char *buf, size_t len);

/* after_pair hook: when the pair wrote (c->bytes_written), writes back the work directory's
 * file system (syncfs), up to a file size of dirty pages, so the next pair's window does not
 * pay for this one's writeback.  A failure is a warning on stderr naming syncfs. */
void disk_after_pair(struct load_ctx *ctx, const struct load_counters *c);

/* Worker threads (argument: struct load_worker) for load_threads_start.  disk_writer streams
 * the write file over and over (truncate, write it whole in 1 MiB chunks, repeat);
 * disk_reader reads the read file over and over, dropping it from the page cache before each
 * pass so every pass reaches the device.  Both count bytes, stop within a chunk of ctx->stop,
 * and on the first failure (ENOSPC, EIO...) record it once with the file name and return. */
void *disk_writer(void *arg);
void *disk_reader(void *arg);

/* Worker (argument: struct load_worker) copying the read file to the write file over and over,
 * 1 MiB at a time (pread/pwrite), the source dropped from the page cache and the destination
 * emptied before each pass; counts both the bytes read and the bytes written, stops within a
 * chunk of ctx->stop, and on the first failure records it once with the file name. */
void *disk_copier(void *arg);

#endif
