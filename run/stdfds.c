#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "lib/text.h"
#include "run/stdfds.h"

int stdfds_open(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		int nfd = open("/dev/null", fd == 2 ? O_WRONLY : O_RDONLY);
		if (nfd != fd) {  /* the lowest free descriptor is fd */
			if (nfd >= 0)
				close(nfd);
			return -1;
		}
	}
	return 0;
}

int stdfds_console_optional(void)
{
	int fl = fcntl(STDOUT_FILENO, F_GETFL);
	if (fl == -1 || (fl & O_ACCMODE) != O_RDONLY)
		return 0;
	int nfd = open("/dev/null", O_WRONLY);
	if (nfd < 0 || dup2(nfd, STDOUT_FILENO) < 0) {
		if (nfd >= 0)
			close(nfd);
		return -1;
	}
	close(nfd);
	return 0;
}

int stdfds_written(const char *what)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	text_message(stderr, "interbench%s%s: write standard output: %s", *what ? " " : "", what,
		     strerror(errno ? errno : EIO));
	return 2;
}
