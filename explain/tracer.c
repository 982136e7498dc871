#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "explain/tracer.h"
#include "explain/bpf/explain.skel.h"

struct explain_tracer {
	struct explain_bpf *skel;
	int stats_fd;            /* BPF_ENABLE_STATS's: run-time accounting on while open, or -1 */
};

/* What libbpf said while the tracer was opened (its messages would interleave with the
 * table: the caller's one line says why, ending with these): its first program refused, and
 * the verifier's complaint (the log line before "processed N insns", kernel/bpf/verifier.c). */
static char refused_prog[96], verifier_says[160], last_warning[160];

/* Copies the line of text starting at line into buf. */
static void copy_line(char *buf, size_t len, const char *line)
{
	size_t n = strcspn(line, "\n");
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), line);
}

/* The verifier's complaint in libbpf's "-- BEGIN PROG LOAD LOG --" message msg, into
 * verifier_says. */
static void keep_verifier_line(const char *msg)
{
	const char *end = strstr(msg, "\nprocessed ");
	if (!end)
		end = strstr(msg, "-- END PROG LOAD LOG --");
	if (!end || end == msg)
		return;
	const char *line = end - 1;
	while (line > msg && line[-1] != '\n')
		line--;
	if (line < end)
		copy_line(verifier_says, sizeof(verifier_says), line);
}

static int keep_warning(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char *msg = NULL;
	if (level != LIBBPF_WARN || vasprintf(&msg, fmt, ap) < 0)
		return 0;
	const char *prog = strstr(msg, "prog '");
	if (prog && !refused_prog[0] && strstr(msg, "BPF program load failed"))
		snprintf(refused_prog, sizeof(refused_prog), "%.*s", (int)strcspn(prog + 6, "'"), prog + 6);
	if (!verifier_says[0] && strstr(msg, "-- BEGIN PROG LOAD LOG --"))
		keep_verifier_line(msg);
	if (msg[0] && msg[0] != '\n')
		copy_line(last_warning, sizeof(last_warning), msg);
	free(msg);
	return 0;
}

static void say_why(char *why, size_t whylen, const char *step, int err)
{
	const char *hint = err == EPERM || err == EACCES ? " (needs root, or CAP_BPF and CAP_PERFMON)" : "";
	if (refused_prog[0])
		snprintf(why, whylen, "%s: %s: the kernel's verifier refused %s: %s", step, strerror(err), refused_prog,
			 verifier_says[0] ? verifier_says : "(no log)");
	else if (last_warning[0])
		snprintf(why, whylen, "%s: %s%s; %s", step, strerror(err), hint, last_warning);
	else
		snprintf(why, whylen, "%s: %s%s", step, strerror(err), hint);
}

/* The initial pid namespace's inode number (include/linux/proc_ns.h: PROC_PID_INIT_INO). */
#define PID_NS_INIT_INO 0xEFFFFFFCU

/* The pid namespace the run is in, for the tracer to match the ids the benchmark sees (its
 * gettid() and getpid() there) against the kernel's tasks: *ino its inode number, or 0 in the
 * initial namespace, where the ids are the kernel's own.  Returns 0, or -1 with why set. */
static int run_pid_ns(__u32 *ino, char *why, size_t whylen)
{
	struct stat st;
	if (stat("/proc/self/ns/pid", &st) != 0) {
		snprintf(why, whylen, "cannot tell the pid namespace the thread ids are in (stat /proc/self/ns/pid: %s)",
			 strerror(errno));
		return -1;
	}
	*ino = st.st_ino == PID_NS_INIT_INO ? 0 : (__u32)st.st_ino;
	return 0;
}

struct explain_tracer *explain_tracer_open(char *why, size_t whylen)
{
	refused_prog[0] = verifier_says[0] = last_warning[0] = '\0';
	libbpf_set_print(keep_warning);
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
	if (run_pid_ns(&t->skel->rodata->pidns_ino, why, whylen) != 0) {
		explain_tracer_close(t);
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

void explain_track(struct explain_tracer *t, unsigned slot, pid_t tid, const struct explain_owners *o)
{
	if (slot >= EXPLAIN_SLOTS)
		return;
	struct explain_board *b = &t->skel->bss->board[slot];
	__atomic_store_n(&b->tid, 0, __ATOMIC_RELEASE);
	b->load_tgid = o ? (__u32)o->load_tgid : 0;
	b->bench_tgid = o ? (__u32)o->bench_tgid : 0;
	b->main_tgid = o ? (__u32)o->main_tgid : 0;
	__atomic_store_n(&b->tid, (__u32)tid, __ATOMIC_RELEASE);
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
