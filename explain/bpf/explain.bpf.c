// SPDX-License-Identifier: GPL-2.0-or-later
/* The --explain tracer: for each thread the benchmark tracks (explain/abi.h's boards), it
 * accounts in the kernel where the thread's time went while it was runnable but not running,
 * after a wake-up or a preemption: which other tasks ran on the CPU it was queued on (and how
 * often they were switched in), hard interrupts by handler, softirqs by vector, the CPU's exit
 * from idle, migrations; and the interrupts that took its CPU while it ran.  The thread reads
 * its figures from the mapped global variables when its period ends (explain/model.c).
 *
 * Events (include/trace/events/sched.h, irq.h, power.h), as BTF-typed raw tracepoints:
 * sched_waking, sched_wakeup, sched_switch, sched_migrate_task, irq_handler_entry/exit,
 * softirq_entry/exit, cpu_idle.  A CPU's interrupt and idle events return after one load
 * when no tracked thread is queued or running there (the CPU's `slots` word), as rtla keeps
 * its tracer cheap (tools/tracing/rtla/src/timerlat.bpf.c in the kernel tree).
 *
 * The accounting is done in pieces: whenever the task on the waiting thread's CPU is switched
 * out, the piece since the last switch (or the wait's start) is charged to that task, less the
 * interrupt time the CPU had inside the piece (osnoise's net accounting:
 * Documentation/trace/osnoise-tracer.rst). */
#include "explain/bpf/kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "explain/abi.h"

char LICENSE[] SEC("license") = "GPL";

#define PWR_EVENT_EXIT ((__u32)-1) /* include/trace/events/power.h: cpu_idle's leave-idle state */

/* Per CPU: what the waits need to know about it. */
struct cpu_state {
	__u64 last_switch_ns;    /* the last context switch */
	__u64 curr;              /* the task running since then (a task_struct address) */
	__u64 irq_total_ns;      /* interrupt time here while a tracked thread was queued or running */
	__u64 irq_start_ns, softirq_start_ns;
	__u64 irq_in_softirq_ns; /* hard interrupts inside the softirq running now */
	__u32 slots;             /* bit s: tracked thread s is queued or running here */
	__u32 softirq_vec;
};

/* Per tracked thread: where its open wait stands. */
struct slot_state {
	__u64 task;              /* its task_struct (an address, read with probe reads) */
	__u64 wait_since_ns;     /* the open wait's start (0: not waiting) */
	__u64 piece_since_ns;    /* the part of it not charged to anyone yet starts here */
	__u64 piece_irq_mark_ns; /* its CPU's irq_total_ns at piece_since_ns */
	__u32 cpu;               /* the CPU it is queued or running on */
	__u32 preempted;         /* the open wait follows a preemption */
};

/* Written by the benchmark. */
struct explain_board board[EXPLAIN_SLOTS];
/* Read by the benchmark. */
struct explain_acc acc[EXPLAIN_SLOTS];
/* The tracer's own. */
static struct slot_state slot_st[EXPLAIN_SLOTS];
static struct cpu_state cpus[EXPLAIN_MAX_CPUS];

/* Indexes masked after their range check, so the verifier sees them bounded whatever the
 * compiler made of the check (both sizes are powers of two).  The barrier keeps the mask: a
 * compiler that saw the check drops it as a no-op, and an older verifier (6.1) does not carry
 * a 32-bit compare's bound over to the 64-bit index. */
static __always_inline unsigned masked(unsigned i, unsigned size)
{
	barrier_var(i);
	return i & (size - 1);
}
#define SLOT(s) masked((unsigned)(s), EXPLAIN_SLOTS)
#define CPU(c) masked((unsigned)(c), EXPLAIN_MAX_CPUS)
_Static_assert((EXPLAIN_SLOTS & (EXPLAIN_SLOTS - 1)) == 0, "EXPLAIN_SLOTS: a power of two");
_Static_assert((EXPLAIN_MAX_CPUS & (EXPLAIN_MAX_CPUS - 1)) == 0, "EXPLAIN_MAX_CPUS: a power of two");

/* The run's pid namespace, set before loading (explain/tracer.c): its inode number, or 0 when
 * the run is in the initial one.  The benchmark writes the ids it sees (gettid(), getpid()),
 * which inside a pid namespace are not the kernel's task->pid and task->tgid. */
const volatile __u32 pidns_ino = 0;

/* Task p's thread id as the benchmark sees it: in the run's pid namespace, its id there when
 * that is p's own namespace (struct pid's numbers[level]), else 0; otherwise task->pid. */
static __always_inline __u32 seen_tid(struct task_struct *p)
{
	if (!pidns_ino)
		return BPF_CORE_READ(p, pid);
	struct pid *pid = BPF_CORE_READ(p, thread_pid);
	if (!pid)
		return 0;
	unsigned int level = BPF_CORE_READ(pid, level);
	struct upid up;
	if (bpf_probe_read_kernel(&up, sizeof(up), (char *)pid + bpf_core_field_offset(struct pid, numbers) +
						      (__u64)level * bpf_core_type_size(struct upid)) != 0 || !up.ns)
		return 0;
	return BPF_CORE_READ(up.ns, ns.inum) == pidns_ino ? (__u32)up.nr : 0;
}

/* Task p's process id as the benchmark sees it (seen_tid's of its thread group leader). */
static __always_inline __u32 seen_tgid(struct task_struct *p)
{
	if (!pidns_ino)
		return BPF_CORE_READ(p, tgid);
	return seen_tid(BPF_CORE_READ(p, group_leader));
}

/* The slot tracking thread id tid, or -1. */
static __always_inline int find_slot(__u32 tid)
{
	if (tid == 0)
		return -1;
	for (int s = 0; s < EXPLAIN_SLOTS; s++)
		if (board[s].tid == tid)
			return s;
	return -1;
}

/* Slot s's figures (s a slot: the caller checked), begun afresh when the benchmark moved on
 * to another period.  Never NULL: no nullable pointers, which older verifiers (6.1) follow
 * into branches they cannot prove dead. */
static __always_inline struct explain_acc *slot_acc(int s)
{
	struct explain_acc *a = &acc[SLOT(s)];
	__u64 seq = board[SLOT(s)].seq;
	if (a->seq != seq) {
		/* Everything but oncpu_since_ns, which is never written here: the reset often runs
		 * on the waker's CPU while the thread's own CPU switches it in (tracked_in), and a
		 * copy read before and written back after would lose that switch-in. */
		__builtin_memset(a, 0, offsetof(struct explain_acc, oncpu_since_ns));
		__builtin_memset((char *)a + offsetof(struct explain_acc, oncpu_since_ns) + sizeof(a->oncpu_since_ns), 0,
				 sizeof(*a) - offsetof(struct explain_acc, oncpu_since_ns) - sizeof(a->oncpu_since_ns));
		a->seq = seq;
	}
	return a;
}

/* CPU cpu's state (cpu below EXPLAIN_MAX_CPUS: the caller checked; never NULL, as slot_acc). */
static __always_inline struct cpu_state *cpu_at(__u32 cpu)
{
	return &cpus[CPU(cpu)];
}

static __always_inline __u32 task_cpu(struct task_struct *p)
{
	if (bpf_core_field_exists(p->thread_info.cpu))
		return BPF_CORE_READ(p, thread_info.cpu);
	return BPF_CORE_READ((struct task_struct___old *)p, cpu);
}

static __always_inline bool task_runnable(bool preempt, struct task_struct *p)
{
	if (preempt)
		return true;
	if (bpf_core_field_exists(p->__state))
		return BPF_CORE_READ(p, __state) == 0;
	return BPF_CORE_READ((struct task_struct___old *)p, state) == 0;
}

/* Whose task p is to slot s's run (EXPLAIN_OWNER_*): the benchmark's processes, the load
 * process or a task up to EXPLAIN_ANCESTORS generations below it, or another's. */
static __always_inline __u32 owner_of(int s, struct task_struct *p)
{
	const struct explain_board *b = &board[SLOT(s)];
	__u32 tgid = seen_tgid(p), load = b->load_tgid;
	if (tgid && (tgid == b->bench_tgid || tgid == b->main_tgid))
		return EXPLAIN_OWNER_BENCH;
	if (!load)
		return EXPLAIN_OWNER_OTHER;
	if (tgid == load)
		return EXPLAIN_OWNER_LOAD;
	struct task_struct *anc = BPF_CORE_READ(p, real_parent);
	for (int k = 0; k < EXPLAIN_ANCESTORS; k++) {
		if (!anc)
			break;
		if (seen_tgid(anc) == load)
			return EXPLAIN_OWNER_LOAD;
		anc = BPF_CORE_READ(anc, real_parent);
	}
	return EXPLAIN_OWNER_OTHER;
}

/* The who[] entry of task p in slot s's a (added when new, NULL when the table is full). */
static __always_inline struct explain_who *who_of(int s, struct explain_acc *a, struct task_struct *p)
{
	__u32 pid = BPF_CORE_READ(p, pid);
	__u32 n = a->who_n;
	for (__u32 i = 0; i < EXPLAIN_WHO_MAX; i++) {
		if (i >= n)
			break;
		if (a->who[i & (EXPLAIN_WHO_MAX - 1)].pid == pid)
			return &a->who[i & (EXPLAIN_WHO_MAX - 1)];
	}
	if (n >= EXPLAIN_WHO_MAX)
		return 0;
	struct explain_who *w = &a->who[n & (EXPLAIN_WHO_MAX - 1)];
	a->who_n = n + 1;
	w->pid = pid;
	w->tgid = BPF_CORE_READ(p, tgid);
	w->owner = owner_of(s, p);
	w->policy = BPF_CORE_READ(p, policy);
	w->prio = BPF_CORE_READ(p, prio);
	BPF_CORE_READ_STR_INTO(&w->comm, p, comm);
	return w;
}

/* Whether the piece slot s waited behind p, switched in at p_since_ns, was throttling: its
 * CFS group out of bandwidth, or (a realtime thread) p of a lower class switched in while it
 * was queued, which the scheduler does only when realtime time is limited. */
static __always_inline bool throttled(struct slot_state *st, struct task_struct *p, __u64 p_since_ns)
{
	struct task_struct *t = (struct task_struct *)st->task;
	if (!t)
		return false;
	__u32 policy = BPF_CORE_READ(t, policy);
	if (policy == 1 || policy == 2) { /* SCHED_FIFO, SCHED_RR */
		__u32 pp = BPF_CORE_READ(p, policy);
		return p_since_ns > st->wait_since_ns && pp != 1 && pp != 2 && pp != 6;
	}
	if (!bpf_core_field_exists(t->se.cfs_rq))
		return false;
	struct cfs_rq *cfs = BPF_CORE_READ(t, se.cfs_rq);
	return cfs && bpf_core_field_exists(cfs->throttle_count) && BPF_CORE_READ(cfs, throttle_count) > 0;
}

/* Charges the uncharged part of slot s's open wait, up to now on CPU cs, to task p (the one
 * that ran there meanwhile; the idle task: to idle; throttled time: to throttling), net of the
 * CPU's interrupts in it. */
static __always_inline void charge_piece(int s, struct explain_acc *a, struct cpu_state *cs, __u64 now,
					 struct task_struct *p, bool switched_in)
{
	if (s < 0 || s >= EXPLAIN_SLOTS)
		return;
	struct slot_state *st = &slot_st[SLOT(s)];
	if (!st->wait_since_ns || now < st->piece_since_ns)
		return;
	__u64 gross = now - st->piece_since_ns, irq = cs->irq_total_ns - st->piece_irq_mark_ns;
	__u64 net = gross > irq ? gross - irq : 0;
	__u64 p_since_ns = cs->last_switch_ns;
	st->piece_since_ns = now;
	st->piece_irq_mark_ns = cs->irq_total_ns;
	if (!p || (__u64)p == st->task) /* never behind itself: a state the events left open */
		return;
	if (throttled(st, p, p_since_ns)) {
		a->throttled_ns += net;
		return;
	}
	if (BPF_CORE_READ(p, pid) == 0) {
		a->idle_ns += net;
		return;
	}
	struct explain_who *w = who_of(s, a, p);
	if (!w) {
		a->rest_ns[owner_of(s, p) % EXPLAIN_OWNERS] += net;
		return;
	}
	if (st->preempted)
		w->preempt_ns += net;
	else
		w->wait_ns += net;
	w->switches += switched_in;
}

/* Slot s's thread starts waiting on cpu at now (after a wake-up, or preempted). */
static __always_inline void wait_begin(int s, __u32 cpu, __u64 now, bool preempted)
{
	if (cpu >= EXPLAIN_MAX_CPUS || s < 0 || s >= EXPLAIN_SLOTS)
		return;
	struct cpu_state *cs = cpu_at(cpu);
	struct slot_state *st = &slot_st[SLOT(s)];
	st->wait_since_ns = st->piece_since_ns = now;
	st->piece_irq_mark_ns = cs->irq_total_ns;
	st->cpu = cpu;
	st->preempted = preempted;
	cs->slots |= 1u << s;
}

SEC("tp_btf/sched_waking")
int BPF_PROG(ib_sched_waking, struct task_struct *p)
{
	int s = find_slot(seen_tid(p));
	if (s < 0)
		return 0;
	struct explain_acc *a = slot_acc(s);
	if (!a->waking_ns)
		a->waking_ns = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(ib_sched_wakeup, struct task_struct *p)
{
	int s = find_slot(seen_tid(p));
	if (s < 0)
		return 0;
	struct explain_acc *a = slot_acc(s);
	struct slot_state *st = &slot_st[SLOT(s)];
	st->task = (__u64)p;
	/* A wake-up of a task still on its runqueue, running or queued (ttwu_runnable,
	 * kernel/sched/core.c: it had not got to sleep yet), starts no wait: the wait open goes
	 * on, and one that never began cannot be charged to the task itself. */
	if (st->wait_since_ns || a->oncpu_since_ns)
		return 0;
	__u64 now = bpf_ktime_get_ns();
	__u32 cpu = task_cpu(p);
	if (!a->wakeup_ns) {
		a->wakeup_ns = now;
		a->first_cpu = cpu;
	}
	wait_begin(s, cpu, now, false);
	return 0;
}

/* The waits on this CPU are charged to prev, which ran until now. */
static __always_inline void charge_cpu(struct cpu_state *cs, __u32 cpu, __u64 now, struct task_struct *prev)
{
	__u32 slots = cs->slots;
	for (int s = 0; s < EXPLAIN_SLOTS; s++) {
		if (!(slots & (1u << s)) || slot_st[SLOT(s)].cpu != cpu || !slot_st[SLOT(s)].wait_since_ns)
			continue;
		charge_piece(s, slot_acc(s), cs, now, prev, true);
	}
}

/* prev, tracked in slot s, leaves cpu: preempted (it waits on) or asleep. */
static __always_inline void tracked_out(int s, struct cpu_state *cs, __u32 cpu, __u64 now, bool runnable)
{
	if (s < 0 || s >= EXPLAIN_SLOTS)
		return;
	struct explain_acc *a = slot_acc(s);
	if (a->oncpu_since_ns && now > a->oncpu_since_ns)
		a->oncpu_ns += now - a->oncpu_since_ns;
	a->oncpu_since_ns = 0;
	if (runnable) {
		a->preemptions++;
		wait_begin(s, cpu, now, true);
	} else {
		cs->slots &= ~(1u << s);
	}
}

/* next, tracked in slot s, runs on cpu from now: its wait ends. */
static __always_inline void tracked_in(int s, struct cpu_state *cs, __u32 cpu, __u64 now)
{
	if (s < 0 || s >= EXPLAIN_SLOTS)
		return;
	struct explain_acc *a = slot_acc(s);
	struct slot_state *st = &slot_st[SLOT(s)];
	if (st->wait_since_ns) {
		__u64 gross = now - st->wait_since_ns;
		if (st->preempted)
			a->preempt_ns += gross;
		else
			a->wait_ns += gross;
		if (st->cpu != cpu && st->cpu < EXPLAIN_MAX_CPUS) /* moved unseen: drop the old mark */
			cpu_at(st->cpu)->slots &= ~(1u << s);
		st->wait_since_ns = 0;
		a->last_cpu = cpu;
		if (!st->preempted && !a->first_run_ns)
			a->first_run_ns = now;
	}
	st->cpu = cpu;
	a->oncpu_since_ns = now;
	cs->slots |= 1u << s;
}

/* Remembers slot s's task_struct (for the throttling checks). */
static __always_inline void note_task(int s, struct task_struct *p)
{
	if (s >= 0 && s < EXPLAIN_SLOTS)
		slot_st[SLOT(s)].task = (__u64)p;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(ib_sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 cpu = bpf_get_smp_processor_id();
	if (cpu >= EXPLAIN_MAX_CPUS)
		return 0;
	struct cpu_state *cs = cpu_at(cpu);
	__u64 now = bpf_ktime_get_ns();
	if (cs->slots)
		charge_cpu(cs, cpu, now, prev);
	int sp = find_slot(seen_tid(prev));
	if (sp >= 0)
		tracked_out(sp, cs, cpu, now, task_runnable(preempt, prev));
	int sn = find_slot(seen_tid(next));
	if (sn >= 0) {
		tracked_in(sn, cs, cpu, now);
		note_task(sn, next);
	}
	cs->last_switch_ns = now;
	cs->curr = (__u64)next;
	return 0;
}

SEC("tp_btf/sched_migrate_task")
int BPF_PROG(ib_sched_migrate_task, struct task_struct *p, int dest_cpu)
{
	int s = find_slot(seen_tid(p));
	if (s < 0 || s >= EXPLAIN_SLOTS || !slot_st[SLOT(s)].wait_since_ns)
		return 0;
	__u32 old_cpu = slot_st[SLOT(s)].cpu;
	if (old_cpu >= EXPLAIN_MAX_CPUS || (__u32)dest_cpu >= EXPLAIN_MAX_CPUS)
		return 0;
	struct explain_acc *a = slot_acc(s);
	struct cpu_state *old = cpu_at(old_cpu);
	__u64 now = bpf_ktime_get_ns();
	/* the piece on the old CPU goes to whoever runs there */
	charge_piece(s, a, old, now, (struct task_struct *)old->curr, false);
	old->slots &= ~(1u << s);
	a->migrations++;
	bool preempted = slot_st[SLOT(s)].preempted;
	__u64 since = slot_st[SLOT(s)].wait_since_ns;
	wait_begin(s, (__u32)dest_cpu, now, preempted);
	slot_st[SLOT(s)].wait_since_ns = since; /* one wait, now on dest_cpu */
	return 0;
}

/* Interrupt time d on this CPU: to each tracked thread queued (waiting) or running here. */
static __always_inline void add_irq_time(struct cpu_state *cs, __u32 cpu, __u64 d, int irq,
					 struct irqaction *action, int vec)
{
	cs->irq_total_ns += d;
	__u32 slots = cs->slots;
	for (int s = 0; s < EXPLAIN_SLOTS; s++) {
		if (!(slots & (1u << s)) || slot_st[SLOT(s)].cpu != cpu)
			continue;
		struct explain_acc *a = slot_acc(s);
		if (!slot_st[SLOT(s)].wait_since_ns) {
			if (a->oncpu_since_ns)
				a->run_irq_ns += d;
		} else if (vec >= 0 && vec < EXPLAIN_SOFTIRQS) {
			a->softirq_ns[vec] += d;
		} else {
			a->hardirq_ns += d;
		}
		if (vec >= 0)
			continue;
		__u32 n = a->irq_n, i;
		for (i = 0; i < EXPLAIN_IRQ_MAX && i < n; i++)
			if (a->irqs[i & (EXPLAIN_IRQ_MAX - 1)].irq == irq)
				break;
		if (i >= EXPLAIN_IRQ_MAX)
			continue;
		i &= EXPLAIN_IRQ_MAX - 1;
		if (i == n) {
			a->irq_n = n + 1;
			a->irqs[i].irq = irq;
			const char *name = BPF_CORE_READ(action, name);
			if (name)
				bpf_probe_read_kernel_str(&a->irqs[i].name, sizeof(a->irqs[i].name), name);
		}
		a->irqs[i].count++;
		a->irqs[i].ns += d;
	}
}

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(ib_irq_entry, int irq, struct irqaction *action)
{
	__u32 cpu = bpf_get_smp_processor_id();
	if (cpu >= EXPLAIN_MAX_CPUS)
		return 0;
	struct cpu_state *cs = cpu_at(cpu);
	if (cs->slots)
		cs->irq_start_ns = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(ib_irq_exit, int irq, struct irqaction *action, int ret)
{
	__u32 cpu = bpf_get_smp_processor_id();
	if (cpu >= EXPLAIN_MAX_CPUS)
		return 0;
	struct cpu_state *cs = cpu_at(cpu);
	if (!cs->irq_start_ns)
		return 0;
	__u64 start_ns = cs->irq_start_ns;
	cs->irq_start_ns = 0; /* cleared even when nothing is tracked now: never a stale start */
	if (!cs->slots)
		return 0;
	__u64 now = bpf_ktime_get_ns(), d = now - start_ns;
	if (cs->softirq_start_ns)
		cs->irq_in_softirq_ns += d;
	add_irq_time(cs, cpu, d, irq, action, -1);
	return 0;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(ib_softirq_entry, unsigned int vec)
{
	__u32 cpu = bpf_get_smp_processor_id();
	if (cpu >= EXPLAIN_MAX_CPUS)
		return 0;
	struct cpu_state *cs = cpu_at(cpu);
	if (cs->slots) {
		cs->softirq_start_ns = bpf_ktime_get_ns();
		cs->irq_in_softirq_ns = 0;
		cs->softirq_vec = vec;
	}
	return 0;
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(ib_softirq_exit, unsigned int vec)
{
	__u32 cpu = bpf_get_smp_processor_id();
	if (cpu >= EXPLAIN_MAX_CPUS)
		return 0;
	struct cpu_state *cs = cpu_at(cpu);
	if (!cs->softirq_start_ns)
		return 0;
	__u64 start_ns = cs->softirq_start_ns;
	cs->softirq_start_ns = 0; /* cleared even when nothing is tracked now */
	if (!cs->slots) {
		cs->irq_in_softirq_ns = 0;
		return 0;
	}
	__u64 now = bpf_ktime_get_ns(), d = now - start_ns;
	/* hard interrupts inside the softirq were counted apart: not twice */
	d = d > cs->irq_in_softirq_ns ? d - cs->irq_in_softirq_ns : 0;
	cs->softirq_start_ns = cs->irq_in_softirq_ns = 0;
	add_irq_time(cs, cpu, d, 0, 0, (int)(vec < EXPLAIN_SOFTIRQS ? vec : EXPLAIN_SOFTIRQS - 1));
	return 0;
}

SEC("tp_btf/cpu_idle")
int BPF_PROG(ib_cpu_idle, unsigned int state, unsigned int cpu_id)
{
	if (cpu_id >= EXPLAIN_MAX_CPUS || state != PWR_EVENT_EXIT)
		return 0;
	struct cpu_state *cs = cpu_at(cpu_id);
	if (!cs->slots)
		return 0;
	__u64 now = bpf_ktime_get_ns();
	for (int s = 0; s < EXPLAIN_SLOTS; s++) {
		if (!(cs->slots & (1u << s)) || slot_st[SLOT(s)].cpu != cpu_id || !slot_st[SLOT(s)].wait_since_ns)
			continue;
		struct explain_acc *a = slot_acc(s);
		if (now > slot_st[SLOT(s)].piece_since_ns)
			a->idle_exit_ns += now - slot_st[SLOT(s)].piece_since_ns;
	}
	return 0;
}
