#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "host/oom.h"

#define OOM_ADJ_PATH "/proc/self/oom_score_adj"

/* The main process's value once oom_adj_protect_main has run: OOM_ADJ_MAIN, or the value it
 * was started with when it could not lower it; 0 (the kernel's default) until read. */
static int g_main_adj;

/* Reads this process's oom_score_adj into *value.  Returns 0, or -1 with errno set. */
static int adj_read(int *value)
{
	FILE *f = fopen(OOM_ADJ_PATH, "re");
	if (!f)
		return -1;
	int ok = fscanf(f, "%d", value) == 1;
	fclose(f);
	if (!ok)
		errno = EINVAL;
	return ok ? 0 : -1;
}

/* Writes value as this process's oom_score_adj.  Returns 0, or -1 with errno set. */
static int adj_write(int value)
{
	char text[16];
	int n = snprintf(text, sizeof(text), "%d\n", value);
	int fd = open(OOM_ADJ_PATH, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t w = write(fd, text, (size_t)n);
	int e = errno;
	close(fd);
	errno = e;
	return w == n ? 0 : -1;
}

int oom_adj_protect_main(char *err, size_t len)
{
	if (adj_read(&g_main_adj) != 0) {
		snprintf(err, len, "read %s: %s", OOM_ADJ_PATH, strerror(errno));
		return -1;
	}
	if (g_main_adj <= OOM_ADJ_MAIN || adj_write(OOM_ADJ_MAIN) == 0) {
		g_main_adj = g_main_adj < OOM_ADJ_MAIN ? g_main_adj : OOM_ADJ_MAIN;
		return 0;
	}
	snprintf(err, len, "write %d to %s: %s", OOM_ADJ_MAIN, OOM_ADJ_PATH, strerror(errno));
	return -1;
}

int oom_adj_bench(void)
{
	return (g_main_adj + OOM_ADJ_LOAD) / 2;
}

int oom_adj_child(bool load)
{
	return adj_write(load ? OOM_ADJ_LOAD : oom_adj_bench());
}

uint64_t oom_kill_count(void)
{
	FILE *f = fopen("/proc/vmstat", "re");
	if (!f)
		return UINT64_MAX;
	char name[64];
	unsigned long long v;
	uint64_t n = UINT64_MAX;
	while (fscanf(f, "%63s %llu", name, &v) == 2)
		if (strcmp(name, "oom_kill") == 0) {
			n = v;
			break;
		}
	fclose(f);
	return n;
}
