/* Proc: -L threads reading every process's /proc/<pid>/stat and status, then /proc/interrupts
 * and /proc/meminfo, in a tight loop, as "top -d 0.01" did in Benno Senoner's latencytest
 * (http://www.gardena.net/benno/linux/audio/): kernel work under locks that a simulated task may wait
 * behind.  Stops within one file of the stop request. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "workloads/workload.h"

/* What Proc counts: /proc files read whole. */
static const struct load_metric_info proc_files = { "proc_files_read", "files/s", 1, true };

/* Reads path whole into buf (len bytes at a time); a file that vanished (a process that
 * exited) is no failure.  Returns 0, or -1 after recording a failure. */
static int read_file(struct load_ctx *ctx, const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT || errno == ESRCH || errno == EACCES)
			return 0;
		load_fail(ctx, errno, "open %s: %s", path, strerror(errno));
		return -1;
	}
	ssize_t r;
	while ((r = read(fd, buf, len)) > 0 || (r < 0 && errno == EINTR))
		;
	close(fd);
	load_count(ctx, &proc_files, 1);
	return 0;
}

/* One sweep over /proc.  Returns 0, or -1 after recording a failure. */
static int proc_pass(struct load_ctx *ctx, char *buf, size_t len)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	char path[64];
	if (!d) {
		load_fail(ctx, errno, "opendir /proc: %s", strerror(errno));
		return -1;
	}
	int rc = 0;
	while (rc == 0 && !atomic_load(&ctx->stop) && (de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/stat", de->d_name);
		rc = read_file(ctx, path, buf, len);
		snprintf(path, sizeof(path), "/proc/%.20s/status", de->d_name);
		if (rc == 0 && !atomic_load(&ctx->stop))
			rc = read_file(ctx, path, buf, len);
	}
	closedir(d);
	if (rc == 0 && !atomic_load(&ctx->stop))
		rc = read_file(ctx, "/proc/interrupts", buf, len);
	if (rc == 0 && !atomic_load(&ctx->stop))
		rc = read_file(ctx, "/proc/meminfo", buf, len);
	return rc;
}

static void *proc_worker(void *arg)
{
	struct load_ctx *ctx = ((struct load_worker *)arg)->ctx;
	char buf[4096];
	while (!atomic_load(&ctx->stop) && proc_pass(ctx, buf, sizeof(buf)) == 0)
		;
	return NULL;
}

static int proc_start(struct load_ctx *ctx)
{
	return load_threads_start(ctx, ctx->cfg->threads, proc_worker);
}

static const struct load_ops proc_ops = { .start = proc_start, .stop = load_threads_stop };

const struct workload wl_proc = {
	.name = "Proc",
	.load_help = "-L threads reading every /proc/<pid>/stat and status, /proc/interrupts and /proc/meminfo",
	.flags = WL_LOAD_NORMAL | WL_LOAD_RT,
	.load = &proc_ops,
	.metrics = (const struct load_metric_info *const[]){ &proc_files, NULL },
};
