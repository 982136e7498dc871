#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "lib/explain_bpf.h"
#include "lib/bpf/explain.skel.h"

struct explain_tracer {
	struct explain_bpf *skel;
	int stats_fd;            /* BPF_ENABLE_STATS's: run-time accounting on while open, or -1 */
};

/* libbpf's messages would interleave with the table: the caller's one line says why. */
static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static void say_why(char *why, size_t whylen, const char *step, int err)
{
	if (err == EPERM || err == EACCES)
		snprintf(why, whylen, "%s: %s (needs root, or CAP_BPF and CAP_PERFMON)", step, strerror(err));
	else
		snprintf(why, whylen, "%s: %s", step, strerror(err));
}

struct explain_tracer *explain_tracer_open(char *why, size_t whylen)
{
	libbpf_set_print(quiet_print);
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
		snprintf(why, whylen, "no kernel BTF (/sys/kernel/btf/vmlinux: %s; CONFIG_DEBUG_INFO_BTF)",
			 strerror(errno));
		return NULL;
	}
	struct explain_tracer *t = calloc(1, sizeof(*t));
	if (!t) {
		say_why(why, whylen, "calloc", ENOMEM);
		return NULL;
	}
	t->stats_fd = -1;
	t->skel = explain_bpf__open();
	if (!t->skel) {
		say_why(why, whylen, "opening the BPF object", errno);
		free(t);
		return NULL;
	}
	int err = explain_bpf__load(t->skel);
	if (!err)
		err = explain_bpf__attach(t->skel);
	if (err) {
		say_why(why, whylen, "loading the BPF tracer (bpf)", -err);
		explain_tracer_close(t);
		return NULL;
	}
	t->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME); /* best effort: without, no run time */
	return t;
}

int64_t explain_tracer_run_ns(struct explain_tracer *t)
{
	struct bpf_program *prog;
	int64_t sum = 0;
	if (!t || t->stats_fd < 0)
		return -1;
	bpf_object__for_each_program(prog, t->skel->obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len) != 0)
			return -1;
		sum += (int64_t)info.run_time_ns;
	}
	return sum;
}

void explain_tracer_close(struct explain_tracer *t)
{
	if (!t)
		return;
	explain_bpf__destroy(t->skel);
	if (t->stats_fd >= 0)
		close(t->stats_fd);
	free(t);
}

struct explain_board *explain_tracer_boards(struct explain_tracer *t)
{
	return t->skel->bss->board;
}

volatile struct explain_acc *explain_tracer_accs(struct explain_tracer *t)
{
	return t->skel->bss->acc;
}

void explain_track(struct explain_tracer *t, unsigned slot, pid_t tid)
{
	if (slot < EXPLAIN_SLOTS)
		__atomic_store_n(&t->skel->bss->board[slot].tid, (__u32)tid, __ATOMIC_RELEASE);
}

void explain_arm(struct explain_tracer *t, unsigned slot, uint64_t seq)
{
	if (slot < EXPLAIN_SLOTS)
		__atomic_store_n(&t->skel->bss->board[slot].seq, seq, __ATOMIC_RELEASE);
}

bool explain_read(struct explain_tracer *t, unsigned slot, uint64_t seq, struct explain_acc *out)
{
	if (slot >= EXPLAIN_SLOTS)
		return false;
	const struct explain_acc *a = &t->skel->bss->acc[slot];
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	memcpy(out, a, sizeof(*out));
	return out->seq == seq;
}
