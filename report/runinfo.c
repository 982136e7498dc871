#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include "report/runinfo.h"

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
