#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/nbrandom.h"
#include "lib/safefile.h"

#define TMP_TRIES 64

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (errlen)
		vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

bool safe_stat_trusted(const struct stat *st, char *why, size_t whylen)
{
	if (st->st_uid != geteuid() && st->st_uid != 0) {
		snprintf(why, whylen, "belongs to uid %u, not to the running user (uid %u) or root", (unsigned)st->st_uid,
			 (unsigned)geteuid());
		return false;
	}
	bool sticky_dir = S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX);
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !sticky_dir) {
		snprintf(why, whylen, "is writable by %s (mode %04o)%s", st->st_mode & S_IWOTH ? "others" : "its group",
			 (unsigned)(st->st_mode & 07777), S_ISDIR(st->st_mode) ? " without the sticky bit" : "");
		return false;
	}
	return true;
}

/* Checks the directory open on fd (shown as name) with safe_stat_trusted. */
static int trusted_dir_fd(int fd, const char *name, char *why, size_t whylen)
{
	struct stat st;
	char what[160];
	if (fstat(fd, &st) != 0)
		return fail(why, whylen, "fstat %s: %s", name, strerror(errno));
	if (!safe_stat_trusted(&st, what, sizeof(what)))
		return fail(why, whylen, "%s %s", name, what);
	return 0;
}

/* Opens the directory name inside at (AT_FDCWD: the working directory), shown as shown, not
 * through a symbolic link when nofollow, making it first when create and it is missing.
 * Returns its descriptor, or -1 with why naming a link, a non-directory or the failed call. */
static int open_dir_at(int at, const char *name, const char *shown, bool nofollow, bool create, char *why,
		       size_t whylen)
{
	const int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0);
	int fd = openat(at, name, flags);
	if (fd < 0 && errno == ENOENT && create) {
		if (mkdirat(at, name, 0755) != 0 && errno != EEXIST)
			return fail(why, whylen, "mkdir %s: %s", shown, strerror(errno));
		fd = openat(at, name, flags);
	}
	if (fd < 0) {
		struct stat st;
		int e = errno;
		if ((e == ELOOP || e == ENOTDIR) && fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
			return fail(why, whylen, "%s %s", shown, S_ISLNK(st.st_mode) ? "is a symbolic link; not followed" :
				    "is not a directory");
		return fail(why, whylen, "open %s: %s", shown, strerror(e));
	}
	return fd;
}

/* Opens dir (never through a symbolic link as its last name) and, with check, verifies the
 * directory opened, not the name, is trusted: a directory swapped under the name between the
 * check and the use cannot pass.  Returns the descriptor, or -1 with err set. */
static int open_dir(const char *dir, bool check, char *err, size_t errlen)
{
	int fd = open_dir_at(AT_FDCWD, dir, dir, check, false, err, errlen);
	if (fd < 0 && strstr(err, "symbolic link"))
		snprintf(err + strlen(err), errlen - strlen(err), " (name the directory itself)");
	if (fd < 0 || !check || trusted_dir_fd(fd, dir, err, errlen) == 0)
		return fd;
	snprintf(err + strlen(err), errlen - strlen(err), "; refusing to write there (use a directory of your own)");
	close(fd);
	return -1;
}

int safe_dir_check(const char *dir, char *err, size_t errlen)
{
	int fd = open_dir(dir, true, err, errlen);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/* Opens the directory name inside dir_fd (shown as shown) without following a link, making it
 * first when create and it is missing; checks it is trusted.  Returns its descriptor, or -1. */
static int open_trusted_step(int dir_fd, const char *name, const char *shown, bool create, char *why, size_t whylen)
{
	int fd = open_dir_at(dir_fd, name, shown, true, create, why, whylen);
	if (fd >= 0 && trusted_dir_fd(fd, shown, why, whylen) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int safe_dir_open_trusted(const char *dir, bool create, char *why, size_t whylen)
{
	char name[NAME_MAX + 1], shown[PATH_MAX];
	if (dir[0] != '/')
		return fail(why, whylen, "%s: not an absolute path", dir);
	int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return fail(why, whylen, "open /: %s", strerror(errno));
	if (trusted_dir_fd(fd, "/", why, whylen) != 0) {
		close(fd);
		return -1;
	}
	for (const char *p = dir + strspn(dir, "/"); fd >= 0 && *p; p += strspn(p, "/")) {
		size_t n = strcspn(p, "/");
		if (n > NAME_MAX || (size_t)(p + n - dir) >= sizeof(shown)) {
			close(fd);
			return fail(why, whylen, "%s: file name too long", dir);
		}
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		snprintf(shown, sizeof(shown), "%.*s", (int)(p + n - dir), dir);
		int next = open_trusted_step(fd, name, shown, create, why, whylen);
		close(fd);
		fd = next;
		p += n;
	}
	return fd;
}

/* Splits path into its directory (opened into o->dir_fd) and its last name (o->name). */
static int open_parent(struct safe_out *o, const char *path, unsigned flags, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char dir[PATH_MAX];
	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return fail(err, errlen, "%s: not a file name", path);
	if (strlen(base) > NAME_MAX || strlen(path) >= sizeof(o->path))
		return fail(err, errlen, "%s: file name too long", path);
	snprintf(o->path, sizeof(o->path), "%s", path);
	snprintf(o->name, sizeof(o->name), "%s", base);
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	o->dir_fd = open_dir(dir, flags & SAFE_OUT_CHECK_DIR, err, errlen);
	if (o->dir_fd < 0 && !(flags & SAFE_OUT_CHECK_DIR))
		snprintf(err + strlen(err), errlen - strlen(err), " (the directory of %s)", path);
	return o->dir_fd < 0 ? -1 : 0;
}

/* What is wrong with replacing the existing file st at the output's name, or NULL. */
static const char *replace_refusal(const struct stat *st, unsigned flags, char *why, size_t whylen)
{
	if (S_ISLNK(st->st_mode))
		return "is a symbolic link; not followed";
	if (S_ISDIR(st->st_mode))
		return "is a directory";
	if (st->st_uid != geteuid() && st->st_uid != 0) {
		snprintf(why, whylen, "belongs to uid %u; not replaced", (unsigned)st->st_uid);
		return why;
	}
	if (!S_ISREG(st->st_mode) && !(flags & SAFE_OUT_DEVICES))
		return "is not a regular file; not replaced";
	return NULL;
}

/* Opens an existing FIFO or character device at the output's name as it is, never blocking. */
static int open_device(struct safe_out *o, char *err, size_t errlen)
{
	o->fd = openat(o->dir_fd, o->name, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (o->fd < 0)
		return fail(err, errlen, "open %s: %s", o->path, errno == ENXIO ? "a FIFO with no reader" : strerror(errno));
	int fl = fcntl(o->fd, F_GETFL);
	if (fl < 0 || fcntl(o->fd, F_SETFL, fl & ~O_NONBLOCK) != 0)
		return fail(err, errlen, "fcntl %s: %s", o->path, strerror(errno));
	close(o->dir_fd);
	o->dir_fd = -1;
	return 0;
}

/* Creates the temporary file ".NAME.XXXXXX" beside the output's name. */
int safe_create_new(int dir_fd, const char *name, int extra_flags)
{
	return openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC | extra_flags,
		      SAFE_FILE_MODE);
}

int safe_create_unique(int dir_fd, char *name, size_t suffix_len, int extra_flags)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	size_t len = strlen(name);
	if (len < 6 + suffix_len || strncmp(name + len - suffix_len - 6, "XXXXXX", 6) != 0) {
		errno = EINVAL;
		return -1;
	}
	char *x = name + len - suffix_len - 6;
	int fd = -1;
	for (int t = 0; t < TMP_TRIES && fd < 0; t++) {
		unsigned char r[6];
		random_bytes_nonblocking(r, sizeof(r));
		for (int i = 0; i < 6; i++)
			x[i] = set[r[i] % (sizeof(set) - 1)];
		fd = safe_create_new(dir_fd, name, extra_flags);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	return fd;
}

static int open_tmp(struct safe_out *o, char *err, size_t errlen)
{
	snprintf(o->tmp, sizeof(o->tmp), ".%.*s.XXXXXX", NAME_MAX - 8, o->name);
	o->fd = safe_create_unique(o->dir_fd, o->tmp, 0, 0);
	if (o->fd < 0) {
		int e = errno;
		o->tmp[0] = '\0';
		return fail(err, errlen, "create a file beside %s: %s", o->path, strerror(e));
	}
	return 0;
}

/* Opens a descriptor the program was handed (/dev/fd/N: a pipe, socket or character device
 * only, opened through its magic link as the user meant) as the output. */
static int open_handed(struct safe_out *o, const char *path, char *err, size_t errlen)
{
	struct stat st;
	snprintf(o->path, sizeof(o->path), "%s", path);
	o->fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (o->fd < 0)
		return fail(err, errlen, "open %s: %s", path, errno == ENXIO ? "a FIFO with no reader" : strerror(errno));
	if (fstat(o->fd, &st) != 0 || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISCHR(st.st_mode)))
		return fail(err, errlen, "%s is not a pipe, socket or device (a file is named by its own path)", path);
	int fl = fcntl(o->fd, F_GETFL);
	if (fl < 0 || fcntl(o->fd, F_SETFL, fl & ~O_NONBLOCK) != 0)
		return fail(err, errlen, "fcntl %s: %s", path, strerror(errno));
	return 0;
}

int safe_out_open(struct safe_out *o, const char *path, unsigned flags, char *err, size_t errlen)
{
	struct stat st;
	char why[96];
	memset(o, 0, sizeof(*o));
	o->fd = o->dir_fd = -1;
	if ((flags & SAFE_OUT_DEVICES) && strcmp(path, "-") != 0 && safe_path_is_handed_fd(path)) {
		int rc = open_handed(o, path, err, errlen);
		if (rc != 0)
			safe_out_abort(o);
		return rc;
	}
	if (open_parent(o, path, flags, err, errlen) != 0)
		return -1;
	int rc;
	if (fstatat(o->dir_fd, o->name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		const char *bad = replace_refusal(&st, flags, why, sizeof(why));
		if (bad)
			rc = fail(err, errlen, "%s %s", path, bad);
		else
			rc = S_ISREG(st.st_mode) ? open_tmp(o, err, errlen) : open_device(o, err, errlen);
	} else if (errno == ENOENT) {
		rc = open_tmp(o, err, errlen);
	} else {
		rc = fail(err, errlen, "%s: fstatat: %s", path, strerror(errno));
	}
	if (rc != 0)
		safe_out_abort(o);
	return rc;
}

int safe_out_commit(struct safe_out *o, char *err, size_t errlen)
{
	struct stat st;
	char why[96];
	int rc = 0;
	if (o->fd >= 0 && close(o->fd) != 0)
		rc = fail(err, errlen, "close %s: %s", o->path, strerror(errno));
	o->fd = -1;
	if (rc == 0 && o->tmp[0] && fstatat(o->dir_fd, o->name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		const char *bad = replace_refusal(&st, 0, why, sizeof(why));
		if (bad && !S_ISLNK(st.st_mode))   /* a link is replaced, never followed */
			rc = fail(err, errlen, "%s %s", o->path, bad);
	}
	if (rc == 0 && o->tmp[0] && renameat(o->dir_fd, o->tmp, o->dir_fd, o->name) != 0)
		rc = fail(err, errlen, "rename to %s: %s", o->path, strerror(errno));
	if (rc == 0)
		o->tmp[0] = '\0';
	safe_out_abort(o);
	return rc;
}

void safe_out_abort(struct safe_out *o)
{
	if (o->fd >= 0)
		close(o->fd);
	if (o->tmp[0] && o->dir_fd >= 0)
		unlinkat(o->dir_fd, o->tmp, 0);
	if (o->dir_fd >= 0)
		close(o->dir_fd);
	o->fd = o->dir_fd = -1;
	o->tmp[0] = '\0';
}

void safe_out_unlink_signal_safe(const struct safe_out *o)
{
	if (o && o->dir_fd >= 0 && o->tmp[0])
		unlinkat(o->dir_fd, o->tmp, 0);
}

int safe_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

bool safe_path_is_handed_fd(const char *path)
{
	const char *num = NULL;
	if (strcmp(path, "-") == 0 || strcmp(path, "/dev/stdin") == 0)
		return true;
	if (strncmp(path, "/dev/fd/", 8) == 0)
		num = path + 8;
	else if (strncmp(path, "/proc/self/fd/", 14) == 0)
		num = path + 14;
	if (!num || !*num)
		return false;
	return strspn(num, "0123456789") == strlen(num);
}

int safe_open_read(const char *path, char *err, size_t errlen)
{
	struct stat st;
	bool handed = safe_path_is_handed_fd(path);
	int fd = strcmp(path, "-") == 0 ? fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3) :
		 open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return fail(err, errlen, "open: %s", strerror(errno));
	const char *bad = fstat(fd, &st) != 0 ? "fstat failed" : S_ISDIR(st.st_mode) ? "is a directory" :
			  S_ISREG(st.st_mode) || (handed && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) ? NULL :
			  S_ISFIFO(st.st_mode) ? "is a FIFO: only regular files are read (or a pipe given as - or /dev/fd/N)" :
						 "is not a regular file";
	int fl = bad ? 0 : fcntl(fd, F_GETFL);
	if (!bad && (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0))
		bad = "fcntl failed";
	if (bad) {
		fail(err, errlen, "%s%s%s", bad, strstr(bad, "failed") ? ": " : "", strstr(bad, "failed") ? strerror(errno) : "");
		close(fd);
		return -1;
	}
	return fd;
}

/* Reads fd to its end into a buffer, refusing more than max_bytes. */
/* The refusal of input larger than max_bytes, in MiB where that is exact. */
static void too_large(size_t max_bytes, char *err, size_t errlen)
{
	if (max_bytes >= (1u << 20) && max_bytes % (1u << 20) == 0)
		fail(err, errlen, "larger than %zu MiB: refused", max_bytes >> 20);
	else
		fail(err, errlen, "larger than %zu bytes: refused", max_bytes);
}

static char *read_bounded(int fd, size_t max_bytes, size_t *len, char *err, size_t errlen)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap + 1);
	const char *why = "out of memory";
	while (buf) {
		if (n > max_bytes) {
			why = "too large";
			break;
		}
		char *nb = n < cap ? buf : realloc(buf, (cap = cap * 2 > max_bytes + 1 ? max_bytes + 1 : cap * 2) + 1);
		if (!nb)
			break;
		buf = nb;
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0 && n <= max_bytes) {
			buf[n] = '\0';
			*len = n;
			return buf;
		}
		if (r < 0) {
			why = strerror(errno);
			break;
		}
		n += (size_t)r;
	}
	if (strcmp(why, "too large") == 0)
		too_large(max_bytes, err, errlen);
	else
		fail(err, errlen, "%s%s", buf && strcmp(why, "out of memory") ? "read: " : "", why);
	free(buf);
	return NULL;
}

char *safe_read_file(const char *path, size_t max_bytes, size_t *len, char *err, size_t errlen)
{
	struct stat st;
	int fd = safe_open_read(path, err, errlen);
	if (fd < 0)
		return NULL;
	char *buf = NULL;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uintmax_t)st.st_size > max_bytes)
		too_large(max_bytes, err, errlen);
	else
		buf = read_bounded(fd, max_bytes, len, err, errlen);
	close(fd);
	return buf;
}
