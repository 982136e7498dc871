/* The few kernel types explain/bpf/explain.bpf.c reads, declared by hand for BPF CO-RE: clang
 * records each field access by name (preserve_access_index) and libbpf relocates it against the
 * running kernel's BTF (/sys/kernel/btf/vmlinux) when the program loads, so the build needs no
 * vmlinux.h of the build machine's kernel (libbpf's "BPF CO-RE reference guide",
 * https://nakryiko.com/posts/bpf-core-reference-guide/).  Only the fields used are listed; the
 * layouts are the kernel's (include/linux/sched.h, include/linux/interrupt.h, include/linux/pid.h,
 * include/linux/pid_namespace.h, include/linux/ns_common.h). */
#ifndef IB_BPF_KERNEL_TYPES_H
#define IB_BPF_KERNEL_TYPES_H
#include <linux/types.h>
#include <linux/bpf.h>
#include <stdbool.h>

struct thread_info {
	unsigned int cpu;            /* x86 and arm64 since 5.16 (CONFIG_THREAD_INFO_IN_TASK) */
} __attribute__((preserve_access_index));

struct cfs_rq {
	int throttle_count;          /* CONFIG_CFS_BANDWIDTH: this group or an ancestor throttled */
} __attribute__((preserve_access_index));

struct sched_entity {
	struct cfs_rq *cfs_rq;       /* CONFIG_FAIR_GROUP_SCHED: the group runqueue it is queued on */
} __attribute__((preserve_access_index));

struct ns_common {
	unsigned int inum;           /* the namespace's inode number (stat of /proc/PID/ns/pid) */
} __attribute__((preserve_access_index));

struct pid_namespace {
	struct ns_common ns;
} __attribute__((preserve_access_index));

/* A task's id in one pid namespace. */
struct upid {
	int nr;
	struct pid_namespace *ns;
} __attribute__((preserve_access_index));

/* A task's ids: numbers[0] in the initial namespace ... numbers[level] in its own. */
struct pid {
	unsigned int level;
	struct upid numbers[1];      /* a flexible array (numbers[] since 6.x) */
} __attribute__((preserve_access_index));

struct task_struct {
	struct thread_info thread_info;
	struct sched_entity se;
	unsigned int __state;        /* since 5.14; `long state` before */
	int prio;
	unsigned int policy;
	int pid;
	int tgid;
	struct task_struct *real_parent;
	struct task_struct *group_leader;
	struct pid *thread_pid;      /* since 4.19 */
	char comm[16];
} __attribute__((preserve_access_index));

/* Before 5.14 the state was `long state`; between 5.10 and 5.15 the CPU was task_struct's. */
struct task_struct___old {
	long state;
	unsigned int cpu;
} __attribute__((preserve_access_index));

struct irqaction {
	const char *name;
} __attribute__((preserve_access_index));

#endif
