#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "lib/text.h"
#include "results/logfile.h"
#include "results/logformat.h"
#include "results/summary.h"

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

/* Opens path for appending without following a symlink or blocking, and checks it is a plain
 * file of its own.  Returns the descriptor, or -1 with err set. */
static int open_plain(const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0644);
	if (fd < 0) {
		if (errno == ELOOP)
			snprintf(err, errlen, "%s is a symbolic link; refusing to write through it (remove it, or run "
				 "in another directory)", path);
		else
			snprintf(err, errlen, "open %s: %s", path, strerror(errno));
		return -1;
	}
	const char *bad = fstat(fd, &st) != 0 ? strerror(errno) : !S_ISREG(st.st_mode) ? "is not a regular file" :
			  st.st_nlink > 1 ? "has other hard links; refusing to append to it" : NULL;
	if (!bad && fcntl(fd, F_SETFL, O_APPEND) != 0)
		bad = strerror(errno);
	if (bad) {
		snprintf(err, errlen, "%s %s", path, bad);
		close(fd);
		return -1;
	}
	return fd;
}

FILE *logfile_open(const struct run_info *info, char *path, size_t len, char *err, size_t errlen)
{
	for (unsigned k = 1; k <= LOGFILE_MAX_SIBLINGS; k++) {
		int n = k == 1 ? snprintf(path, len, "%s.log", info->kernel_release) :
				 snprintf(path, len, "%s-%u.log", info->kernel_release, k);
		if (n < 0 || (size_t)n >= len) {
			snprintf(err, errlen, "logfile name for kernel %s is too long", info->kernel_release);
			return NULL;
		}
		int fd = open_plain(path, err, errlen);
		if (fd < 0)
			return NULL;
		if (flock(fd, LOCK_EX | LOCK_NB) != 0) {   /* another live run's log */
			int e = errno;
			close(fd);
			if (e == EWOULDBLOCK)
				continue;
			snprintf(err, errlen, "flock %s: %s", path, strerror(e));
			return NULL;
		}
		FILE *f = fdopen(fd, "a");
		if (!f) {
			snprintf(err, errlen, "fdopen %s: %s", path, strerror(errno));
			close(fd);
		}
		return f;
	}
	snprintf(err, errlen, "%s.log and %u siblings are all in use by other runs", info->kernel_release,
		 LOGFILE_MAX_SIBLINGS - 1);
	return NULL;
}

void logfile_audit(FILE *f, const struct audit *a)
{
	char buf[8192], text[8192];
	FILE *m = fmemopen(buf, sizeof(buf), "w");
	if (!m)
		return;
	audit_print(m, a);
	fclose(m);
	fprintf(f, "Audit (interbench --audit):\n");
	for (char *save = NULL, *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		text_escape_line(line, text, sizeof(text));
		fprintf(f, "  %s\n", text);
	}
}

void logfile_header(FILE *f, const struct run_info *info)
{
	fprintf(f, LOG_USING "%llu" LOG_USING_LOOPS " (%s), running every load for %u seconds\n",
		(unsigned long long)info->loops_per_ms, info->loops_source, info->duration_s);
	fprintf(f, LOG_KERNEL "%s at datestamp %s\n", info->kernel_release, info->datestamp);
	char text[2 * sizeof(info->kernel_version)];
	text_escape_line(info->kernel_version, text, sizeof(text));
	fprintf(f, LOG_KERNEL_VERSION "%s, %u CPUs online, %u load threads\n", text, info->cpus, info->load_threads);
	if (info->dma_latency_us >= 0)
		fprintf(f, "CPU wakeup latency limit held at %lld us (/dev/cpu_dma_latency)\n",
			(long long)info->dma_latency_us);
	fprintf(f, "%s\n", TABLE_DEFINITIONS_LINE);
	if (info->settings && info->settings[0])
		fprintf(f, "%s\n", info->settings);
	if (info->workload_options && info->workload_options[0]) {
		char text[4096];
		text_escape_line(info->workload_options, text, sizeof(text));
		fprintf(f, "Workload options: %s\n", text);
	}
	if (info->comment) {
		char comment[4096];
		text_escape_line(info->comment, comment, sizeof(comment));
		fprintf(f, LOG_COMMENT "%s\n", comment);
	}
	fprintf(f, "\n");
}
