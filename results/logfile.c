#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "results/logfile.h"

void run_info_init(struct run_info *info)
{
	struct utsname u;
	time_t t = time(NULL);
	struct tm tm;
	memset(info, 0, sizeof(*info));
	info->dma_latency_us = -1;
	if (uname(&u) == 0) {
		snprintf(info->kernel_release, sizeof(info->kernel_release), "%s", u.release);
		snprintf(info->kernel_version, sizeof(info->kernel_version), "%s", u.version);
	} else {
		snprintf(info->kernel_release, sizeof(info->kernel_release), "unknown");
	}
	localtime_r(&t, &tm);
	strftime(info->datestamp, sizeof(info->datestamp), "%Y%m%d%H%M", &tm);
}

FILE *logfile_open(const struct run_info *info, char *path, size_t len)
{
	int n = snprintf(path, len, "%s.log", info->kernel_release);
	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return NULL;
	FILE *f = fdopen(fd, "a");
	if (!f) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return f;
}

void logfile_header(FILE *f, const struct run_info *info)
{
	fprintf(f, "Using %llu loops per ms (%s), running every load for %u seconds\n",
		(unsigned long long)info->loops_per_ms, info->loops_source, info->duration_s);
	fprintf(f, "Benchmarking kernel %s at datestamp %s\n", info->kernel_release, info->datestamp);
	fprintf(f, "Kernel version %s, %u CPUs online, %u load threads\n", info->kernel_version,
		info->cpus, info->load_threads);
	if (info->dma_latency_us >= 0)
		fprintf(f, "CPU wakeup latency limit held at %lld us (/dev/cpu_dma_latency)\n",
			(long long)info->dma_latency_us);
	if (info->comment)
		fprintf(f, "Comment: %s\n", info->comment);
	fprintf(f, "\n");
}
