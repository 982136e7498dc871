#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "calibrate/calibrate.h"
#include "lib/safefile.h"
#include "lib/timeutil.h"

#define WARMUP_NS (200 * NS_PER_MS)
#define CHECK_WARMUP_NS (50 * NS_PER_MS) /* between pairs: the sample is sized already */
/* Samples are long enough to hold the timer ticks and interrupts any real task pays for, and an
 * estimate is the fastest of them, which is robust against noisy neighbours.  The fastest 5 ms
 * sample (which can dodge every tick) overstated sustained speed by 2-5% on the development
 * VM; the median of 20 ms samples swung by 10% between runs there. */
#define SAMPLE_NS (20 * NS_PER_MS)
#define SAMPLES_PER_ESTIMATE 10 /* ~200 ms a measurement; CALIB_MEASUREMENTS of them */
/* A sample is burnt in this many pieces (~1 ms each), the stop flag looked at between them. */
#define SAMPLE_PIECES 20

void burn_loops(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		__asm__ __volatile__("" : : : "memory");
}

uint64_t burn_us_done(uint64_t loops_per_ms, uint64_t work_us, const atomic_bool *stop)
{
	uint64_t total = loops_per_ms * work_us / 1000, loops = total;
	uint64_t chunk = loops_per_ms / 10 ? loops_per_ms / 10 : 1; /* ~100 us */

	while (loops > 0) {
		if (stop && atomic_load(stop))
			return (total - loops) * 1000 / loops_per_ms;
		uint64_t n = loops < chunk ? loops : chunk;
		burn_loops(n);
		loops -= n;
	}
	return work_us;
}

bool burn_us(uint64_t loops_per_ms, uint64_t work_us, const atomic_bool *stop)
{
	return burn_us_done(loops_per_ms, work_us, stop) == work_us;
}

uint64_t burn_cpu_us(uint64_t loops_per_ms, uint64_t work_us, const atomic_bool *stop, uint64_t *loops_done)
{
	uint64_t start_ns = thread_cpu_ns(), target_ns = work_us * NS_PER_US, used_ns = 0, loops = 0;
	uint64_t rate = loops_per_ms; /* loops per ms of CPU: calibrated, then as measured in this burn */
	while (used_ns < target_ns && !(stop && atomic_load(stop))) {
		/* ~50 us a chunk, and no more than what is left at the speed seen so far, so that a CPU
		 * slower than at calibration does not make the last chunk overshoot */
		uint64_t chunk = rate / 20 ? rate / 20 : 1;
		uint64_t left = (target_ns - used_ns) * rate / NS_PER_MS;
		uint64_t n = left < chunk ? (left ? left : 1) : chunk;
		burn_loops(n);
		loops += n;
		used_ns = thread_cpu_ns() - start_ns;
		if (used_ns)
			rate = loops * NS_PER_MS / used_ns;
	}
	if (loops_done)
		*loops_done = loops;
	return (used_ns < target_ns ? used_ns : target_ns) / NS_PER_US;
}

static void read_cpu_model(char *buf, size_t len)
{
	snprintf(buf, len, "unknown");
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	char line[512];
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) != 0)
			continue;
		char *colon = strchr(line, ':');
		if (!colon)
			break;
		colon++;
		while (*colon == ' ' || *colon == '\t')
			colon++;
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, len, "%s", colon);
		break;
	}
	fclose(f);
}

bool calib_under_hypervisor(void)
{
	char line[4096];
	bool vm = false;
	FILE *f = fopen("/proc/cpuinfo", "re");
	while (f && !vm && fgets(line, sizeof(line), f))
		vm = strncmp(line, "flags", 5) == 0 && strstr(line, " hypervisor") != NULL;
	if (f)
		fclose(f);
	return vm;
}

void calib_key_current(struct calib_key *key)
{
	struct utsname u;
	memset(key, 0, sizeof(*key));
	read_cpu_model(key->cpu_model, sizeof(key->cpu_model));
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	key->online_cpus = n > 0 ? (unsigned)n : 0;
	if (uname(&u) == 0)
		snprintf(key->kernel_release, sizeof(key->kernel_release), "%s", u.release);
	else
		snprintf(key->kernel_release, sizeof(key->kernel_release), "unknown");
}

static bool stopped(const volatile sig_atomic_t *interrupted)
{
	return interrupted && *interrupted;
}

/* Burns loops in SAMPLE_PIECES pieces, stopping between two once *interrupted is set: a stop
 * signal acts within a millisecond of CPU time, also where a realtime budget
 * (cpu.rt_runtime_us) lets the pinned SCHED_FIFO thread run only a millisecond a second and a
 * whole measurement would take minutes.  Returns false when stopped. */
static bool burn_sample(uint64_t loops, const volatile sig_atomic_t *interrupted)
{
	uint64_t piece = loops / SAMPLE_PIECES + 1;
	while (loops > 0) {
		if (stopped(interrupted))
			return false;
		uint64_t n = loops < piece ? loops : piece;
		burn_loops(n);
		loops -= n;
	}
	return true;
}

/* Loops per ms from the fastest of `samples` runs of `loops` loops, each timed by clock (now_ns
 * for wall time, thread_cpu_ns for the thread's CPU time); 0 when *interrupted was set (NULL:
 * never). */
static double fastest_rate(uint64_t loops, int samples, uint64_t (*clock)(void),
			   const volatile sig_atomic_t *interrupted)
{
	uint64_t best_ns = UINT64_MAX;
	for (int i = 0; i < samples; i++) {
		uint64_t t0 = clock();
		if (!burn_sample(loops, interrupted))
			return 0;
		uint64_t dt = clock() - t0;
		if (dt > 0 && dt < best_ns)
			best_ns = dt;
	}
	return (double)loops * (double)NS_PER_MS / (double)best_ns;
}

/* Loops per ms of wall time from the fastest of SAMPLES_PER_ESTIMATE runs of `loops` loops; 0
 * when interrupted. */
static double estimate(uint64_t loops, const volatile sig_atomic_t *interrupted)
{
	return fastest_rate(loops, SAMPLES_PER_ESTIMATE, now_ns, interrupted);
}

/* The calling thread's affinity and policy, saved while it is pinned for measuring. */
struct thread_sched {
	cpu_set_t cpus;
	bool have_cpus;
	int policy;
	struct sched_param param;
};

static void pin_to_current_cpu_fifo(struct thread_sched *saved)
{
	pthread_t self = pthread_self();
	struct sched_param sp = { .sched_priority = sched_get_priority_max(SCHED_FIFO) };
	cpu_set_t one;
	saved->have_cpus = pthread_getaffinity_np(self, sizeof(saved->cpus), &saved->cpus) == 0;
	pthread_getschedparam(self, &saved->policy, &saved->param);
	int cpu = sched_getcpu();
	CPU_ZERO(&one);
	CPU_SET(cpu >= 0 ? cpu : 0, &one);
	pthread_setaffinity_np(self, sizeof(one), &one);
	pthread_setschedparam(self, SCHED_FIFO, &sp); /* without privilege: normal priority */
}

static void restore_sched(const struct thread_sched *saved)
{
	pthread_setschedparam(pthread_self(), saved->policy, &saved->param);
	if (saved->have_cpus)
		pthread_setaffinity_np(pthread_self(), sizeof(saved->cpus), &saved->cpus);
}

/* Warms up (frequency ramp, caches) while sizing a SAMPLE_NS (20 ms) sample; returns its loop count. */
static uint64_t warm_up(const volatile sig_atomic_t *interrupted)
{
	uint64_t loops = 1000;
	uint64_t t_end = now_ns() + WARMUP_NS;
	while (now_ns() < t_end && !stopped(interrupted)) {
		uint64_t t0 = now_ns();
		if (!burn_sample(loops, interrupted))
			break;
		uint64_t dt = now_ns() - t0;
		if (dt < SAMPLE_NS)
			loops = dt ? loops * SAMPLE_NS / dt + 1 : loops * 2;
	}
	return loops;
}

/* One measurement on the pinned, warmed-up thread (calib_measurer). */
struct real_measurer {
	uint64_t loops;             /* a sample's loops, sized by warm_up */
	const volatile sig_atomic_t *interrupted;
};

static double measure_once(void *ctx)
{
	struct real_measurer *m = ctx;
	return estimate(m->loops, m->interrupted);
}

/* Pins and warms up the calling thread into *saved and *m. */
static void measuring_start(struct thread_sched *saved, struct real_measurer *m,
			    const volatile sig_atomic_t *interrupted)
{
	pin_to_current_cpu_fifo(saved);
	m->interrupted = interrupted;
	m->loops = warm_up(interrupted);
}

uint64_t calib_measure(const volatile sig_atomic_t *interrupted, struct calib_result *result)
{
	struct thread_sched saved;
	struct real_measurer m;
	struct calib_result dummy;
	measuring_start(&saved, &m, interrupted);
	uint64_t lpms = calib_measure_with(measure_once, &m, CALIB_MEASUREMENTS, result ? result : &dummy);
	restore_sched(&saved);
	return lpms;
}

uint64_t calib_check_saved(uint64_t saved_lpms, const volatile sig_atomic_t *interrupted, struct calib_check *out)
{
	struct thread_sched saved;
	struct real_measurer m;
	measuring_start(&saved, &m, interrupted);
	uint64_t lpms = calib_check_with(saved_lpms, measure_once, &m, out);
	restore_sched(&saved);
	return lpms;
}

#define CHECK_SAMPLES 3 /* a check's measurement: the fastest of 3 samples */

/* cpufreq's scaling_cur_freq of cpu in kHz, 0 when absent or unreadable. */
static uint32_t cpu_freq_khz(int cpu)
{
	char path[96];
	unsigned long khz = 0;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu);
	FILE *f = cpu >= 0 ? fopen(path, "re") : NULL;
	if (f && fscanf(f, "%lu", &khz) != 1)
		khz = 0;
	if (f)
		fclose(f);
	return khz <= UINT32_MAX ? (uint32_t)khz : 0;
}

double calib_check_speed(uint64_t loops_per_ms, const volatile sig_atomic_t *interrupted, struct calib_speed *out)
{
	struct thread_sched saved;
	double rates[CALIB_MEASUREMENTS];
	uint64_t loops = loops_per_ms * SAMPLE_NS / NS_PER_MS;
	unsigned n = 0;
	*out = (struct calib_speed){ .cpu = -1 };
	sleep_for_ns((uint64_t)CALIB_CHECK_SETTLE_MS * NS_PER_MS);
	pin_to_current_cpu_fifo(&saved);
	if (!burn_sample(loops * CHECK_WARMUP_NS / SAMPLE_NS, interrupted)) {
		restore_sched(&saved);
		return 0;
	}
	uint64_t wall0_ns = now_ns(), cpu0_ns = thread_cpu_ns();
	while (loops && n < CALIB_MEASUREMENTS) {
		double rate = fastest_rate(loops, CHECK_SAMPLES, thread_cpu_ns, interrupted);
		if (rate <= 0)
			break;
		rates[n++] = rate;
	}
	uint64_t wall_ns = now_ns() - wall0_ns, cpu_ns = thread_cpu_ns() - cpu0_ns;
	int cpu = sched_getcpu();
	restore_sched(&saved);
	if (n < CALIB_MEASUREMENTS)
		return 0;
	calib_speed_of(rates, n, wall_ns, cpu_ns, out);
	out->cpu = cpu;
	out->freq_khz = cpu_freq_khz(cpu);
	return out->loops_per_ms;
}

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
