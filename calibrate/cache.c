/* The saved loops_per_ms (calibrate/calibrate.h): its file, trusted only as calib_load says,
 * and the policy a run follows (calib_obtain): -l's value, else the saved one once a quick
 * measurement agrees with it, else measured and saved. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "calibrate/calibrate.h"
#include "lib/safefile.h"

int calib_default_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int n;
	if (xdg && xdg[0] == '/')
		n = snprintf(buf, len, "%s/interbench/loops_per_ms", xdg);
	else if (home && home[0] == '/')
		n = snprintf(buf, len, "%s/.cache/interbench/loops_per_ms", home);
	else
		return -1;
	return n > 0 && (size_t)n < len ? 0 : -1;
}

/* The fields of a calibration file as read so far. */
struct calib_file {
	char cpu_model[sizeof(((struct calib_key *)0)->cpu_model)];
	char kernel_release[sizeof(((struct calib_key *)0)->kernel_release)];
	unsigned long long loops_per_ms, online_cpus;
	unsigned seen;   /* bit per key read: 1 loops_per_ms, 2 online_cpus, 4 cpu_model, 8 release */
};

/* Parses one "key=value\n" line into cf.  Returns 0, or -1 for a malformed line, an unknown
 * key, or a number that is not a decimal from 1 to UINT32_MAX (the range of -l). */
static int calib_parse_line(char *line, struct calib_file *cf)
{
	char *eq = strchr(line, '='), *end;
	if (!eq || !strchr(line, '\n'))
		return -1;
	*eq++ = '\0';
	eq[strcspn(eq, "\n")] = '\0';
	bool lpms = strcmp(line, "loops_per_ms") == 0;
	if (lpms || strcmp(line, "online_cpus") == 0) {
		errno = 0;
		unsigned long long v = strtoull(eq, &end, 10);
		if (errno || end == eq || *end || eq[0] == '-' || v == 0 || v > UINT32_MAX)
			return -1;
		*(lpms ? &cf->loops_per_ms : &cf->online_cpus) = v;
		cf->seen |= lpms ? 1 : 2;
	} else if (strcmp(line, "cpu_model") == 0) {
		snprintf(cf->cpu_model, sizeof(cf->cpu_model), "%s", eq);
		cf->seen |= 4;
	} else if (strcmp(line, "kernel_release") == 0) {
		snprintf(cf->kernel_release, sizeof(cf->kernel_release), "%s", eq);
		cf->seen |= 8;
	} else {
		return -1;
	}
	return 0;
}

/* Splits path into its directory (dir) and last name (*base).  Returns 0, or -1 with why set. */
static int split_path(const char *path, char *dir, size_t len, const char **base, char *why, size_t whylen)
{
	const char *slash = strrchr(path, '/');
	if (path[0] != '/' || !slash || !slash[1] || (size_t)(slash - path) >= len) {
		snprintf(why, whylen, "%s: not an absolute file name", path);
		return -1;
	}
	snprintf(dir, len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
	*base = slash + 1;
	return 0;
}

/* What is wrong with the open cache file st (shown as path), or NULL: not a small regular
 * file, or one another user could have written. */
static const char *calib_file_refusal(const struct stat *st, const char *path, char *buf, size_t len)
{
	char what[160];
	if (S_ISDIR(st->st_mode))
		return "a directory";
	if (!S_ISREG(st->st_mode))
		return "not a regular file";
	if (st->st_size > CALIB_MAX_FILE_BYTES)
		return "larger than a calibration file";
	if (safe_stat_trusted(st, what, sizeof(what)))
		return NULL;
	snprintf(buf, len, "%s %s; not trusted", path, what);
	return buf;
}

/* Opens the cache for reading: every directory from / down trusted and none a symbolic link
 * (safe_dir_open_trusted), the file itself no symlink, opened without blocking, a small regular
 * file that the running user or root owns and only they can write.  Returns the stream, or
 * NULL with why set. */
static FILE *calib_open(const char *path, char *why, size_t whylen)
{
	struct stat st;
	char dir[PATH_MAX], buf[PATH_MAX + 160];
	const char *base;
	if (split_path(path, dir, sizeof(dir), &base, why, whylen) != 0)
		return NULL;
	int dir_fd = safe_dir_open_trusted(dir, false, buf, sizeof(buf));
	if (dir_fd < 0) {
		snprintf(why, whylen, "%s%s", buf, strstr(buf, "No such file") ? "" : "; not trusted");
		return NULL;
	}
	int fd = openat(dir_fd, base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	close(dir_fd);
	if (fd < 0) {
		snprintf(why, whylen, "%s", errno == ELOOP ? "a symbolic link, not followed" : strerror(errno));
		return NULL;
	}
	const char *bad = fstat(fd, &st) != 0 ? strerror(errno) : calib_file_refusal(&st, path, buf, sizeof(buf));
	FILE *f = bad ? NULL : fdopen(fd, "r");
	if (!f) {
		snprintf(why, whylen, "%s", bad ? bad : strerror(errno));
		close(fd);
	}
	return f;
}

/* Every key must appear; the key must match want. */
uint64_t calib_parse(FILE *f, const struct calib_key *want, char *why, size_t whylen)
{
	char line[512];
	struct calib_file cf = { .seen = 0 };
	const char *verdict = NULL;
	while (!verdict && fgets(line, sizeof(line), f))
		if (calib_parse_line(line, &cf) != 0)
			verdict = "corrupt";
	if (!verdict && cf.seen != 15)
		verdict = "incomplete";
	if (!verdict && (cf.loops_per_ms < CALIB_MIN_LOOPS_PER_MS || cf.loops_per_ms > CALIB_MAX_LOOPS_PER_MS))
		verdict = "implausible loops_per_ms (accepted: " "1000 to 100000000)";
	if (!verdict && (strcmp(cf.cpu_model, want->cpu_model) || cf.online_cpus != want->online_cpus ||
			 strcmp(cf.kernel_release, want->kernel_release)))
		verdict = "saved for another CPU, CPU count or kernel";
	if (verdict) {
		snprintf(why, whylen, "%s", verdict);
		return 0;
	}
	return cf.loops_per_ms;
}

uint64_t calib_load(const char *path, const struct calib_key *want, char *why, size_t whylen)
{
	char dummy[8];
	if (!why)
		why = dummy, whylen = sizeof(dummy);
	FILE *f = calib_open(path, why, whylen);
	if (!f)
		return 0;
	uint64_t v = calib_parse(f, want, why, whylen);
	fclose(f);
	return v;
}

/* Writes the cache's lines to the output o.  Returns 0, or -1 with why set. */
static int calib_write(struct safe_out *o, const struct calib_key *key, uint64_t loops_per_ms, char *why, size_t whylen)
{
	char text[512];
	int n = snprintf(text, sizeof(text), "loops_per_ms=%llu\ncpu_model=%s\nonline_cpus=%u\nkernel_release=%s\n",
			 (unsigned long long)loops_per_ms, key->cpu_model, key->online_cpus, key->kernel_release);
	if (n < 0 || (size_t)n >= sizeof(text) || safe_write_all(o->fd, text, (size_t)n) != 0) {
		snprintf(why, whylen, "write %s: %s", o->path, n < 0 || (size_t)n >= sizeof(text) ? "key too long" : strerror(errno));
		return -1;
	}
	return 0;
}

int calib_save(const char *path, const struct calib_key *key, uint64_t loops_per_ms, char *why, size_t whylen)
{
	char dir[PATH_MAX], dummy[8];
	const char *base;
	struct safe_out o;
	if (!why)
		why = dummy, whylen = sizeof(dummy);
	if (loops_per_ms < CALIB_MIN_LOOPS_PER_MS || loops_per_ms > CALIB_MAX_LOOPS_PER_MS) {
		snprintf(why, whylen, "implausible loops_per_ms %llu", (unsigned long long)loops_per_ms);
		errno = EINVAL;     /* calib_load would call it implausible */
		return -1;
	}
	if (split_path(path, dir, sizeof(dir), &base, why, whylen) != 0)
		return -1;
	int dir_fd = safe_dir_open_trusted(dir, true, why, whylen);
	if (dir_fd < 0)
		return -1;
	/* every directory on the way is the user's or root's: nobody else can swap one, and a
	 * symbolic link at the name is theirs too, replaced rather than followed */
	struct stat st;
	if (fstatat(dir_fd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
		unlinkat(dir_fd, base, 0);
	close(dir_fd);
	if (safe_out_open(&o, path, SAFE_OUT_CHECK_DIR, why, whylen) != 0)
		return -1;
	if (calib_write(&o, key, loops_per_ms, why, whylen) != 0) {
		safe_out_abort(&o);
		return -1;
	}
	return safe_out_commit(&o, why, whylen);
}

/* The check of a saved value: scripted (rq->measure) or on this CPU. */
static uint64_t check_saved(const struct calib_request *rq, uint64_t saved, struct calib_check *out)
{
	if (rq->measure)
		return calib_check_with(saved, rq->measure, rq->measure_ctx, out);
	return calib_check_saved(saved, rq->interrupted, out);
}

/* A full calibration with nothing saved to check, into *out. */
static uint64_t measure_full(const struct calib_request *rq, struct calib_check *out)
{
	*out = (struct calib_check){ .remeasured = true, .replaced = true };
	if (rq->measure)
		return out->loops_per_ms = calib_measure_with(rq->measure, rq->measure_ctx, CALIB_MEASUREMENTS, &out->full);
	return out->loops_per_ms = calib_measure(rq->interrupted, &out->full);
}

uint64_t calib_obtain(const struct calib_request *rq, struct calib_outcome *out)
{
	char buf[4096], why[PATH_MAX + 256] = "";
	struct calib_key key;
	*out = (struct calib_outcome){ .source = "-l" };
	if (rq->given_loops_per_ms)
		return out->loops_per_ms = rq->given_loops_per_ms;
	const char *path = rq->path ? rq->path : calib_default_path(buf, sizeof(buf)) == 0 ? buf : NULL;
	calib_key_current(&key);
	uint64_t saved = path && !rq->recalibrate ? calib_load(path, &key, why, sizeof(why)) : 0;
	if (saved) {
		out->loops_per_ms = check_saved(rq, saved, &out->check);
		out->source = out->check.replaced ? "measured" : "saved";
		if (!out->check.replaced)
			return out->loops_per_ms;
	} else {
		if (rq->measuring)
			rq->measuring(rq->measuring_ctx, why);
		out->loops_per_ms = measure_full(rq, &out->check);
		out->source = "measured";
	}
	if (out->loops_per_ms && path &&  /* 0: interrupted, nothing measured, nothing saved */
	    calib_save(path, &key, out->loops_per_ms, out->not_saved, sizeof(out->not_saved)) != 0 && !out->not_saved[0])
		snprintf(out->not_saved, sizeof(out->not_saved), "%s: %s", path, strerror(errno));
	return out->loops_per_ms;
}
