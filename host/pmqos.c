#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "host/pmqos.h"

int pmqos_hold(uint32_t latency_us, char *err, size_t errlen)
{
	int32_t value = (int32_t)latency_us;
	int fd = open(PMQOS_DEVICE, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "open %s: %s", PMQOS_DEVICE, strerror(errno));
		return -1;
	}
	if (write(fd, &value, sizeof(value)) != (ssize_t)sizeof(value)) {
		snprintf(err, errlen, "write %s: %s", PMQOS_DEVICE, strerror(errno ? errno : EIO));
		close(fd);
		return -1;
	}
	return fd;
}
