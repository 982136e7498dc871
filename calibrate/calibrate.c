#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "calibrate/calibrate.h"
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
