/* sched_ext schedulers the run starts and stops.  A BPF scheduler given as a command (scx_simple,
 * scx_lavd, ...) runs as interbench's child: started, waited for until the kernel says it is
 * enabled, checked after each pair (still enabled, the same load of it, its process alive) and
 * stopped with SIGINT, then SIGKILL after a bound, until the kernel is back on its own fair
 * class.  The kernel's side is read from its sysfs directory, SCX_SYSFS: `state` ("prepping",
 * "enabling", "enabled", "disabling", "disabled"), `root/ops` (the loaded scheduler's name) and
 * `enable_seq` (how many schedulers were enabled since boot, Linux 6.12 and later)
 * (kernel/sched/ext.c, Documentation/scheduler/sched-ext.rst).  The directory is a parameter,
 * so the tests drive a fake one (tests/check_scx.c). */
#ifndef IB_SCX_H
#define IB_SCX_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <sys/types.h>

#define SCX_SYSFS "/sys/kernel/sched_ext"
#define SCX_OPS_NAME_MAX 128      /* include/linux/sched/ext.h SCX_OPS_NAME_LEN */
#define SCX_OUTPUT_TAIL 400       /* bytes of the scheduler's own output quoted in a reason */
#define SCX_POLL_NS 10000000ull   /* how often a wait reads the state: 10 ms */

/* The kernel's sched_ext state (kernel/sched/ext.c scx_enable_state_str), or SCX_UNKNOWN for
 * a word it does not know. */
enum scx_state { SCX_PREPPING, SCX_ENABLING, SCX_ENABLED, SCX_DISABLING, SCX_DISABLED, SCX_UNKNOWN };

/* What the kernel says, read once. */
struct scx_status {
	enum scx_state state;
	char ops[SCX_OPS_NAME_MAX];  /* root/ops, "" when none is loaded or it cannot be read */
	bool have_seq;               /* enable_seq was read (Linux 6.12 and later) */
	uint64_t enable_seq;
};

/* The word of state s ("enabled"; "unknown"). */
const char *scx_state_name(enum scx_state s);

/* Reads dir's state, root/ops and enable_seq into st.  Returns 0, or -1 with errno set when
 * dir/state cannot be read (ENOENT: a kernel without CONFIG_SCHED_CLASS_EXT). */
int scx_status_read(const char *dir, struct scx_status *st);

/* One scheduler the run starts and stops. */
struct scx_runner {
	const char *dir;            /* the sysfs directory: SCX_SYSFS, a fake one in tests */
	char *const *argv;          /* the command, NULL-terminated; run with execvp, no shell */
	pid_t pid;                  /* its process while it runs, else 0 */
	int out_fd;                 /* a memfd holding its stdout and stderr (appended), or -1 */
	struct scx_status loaded;   /* the kernel's status once it was enabled: its ops name and
	                               enable_seq, to see it replaced or ejected */
	const volatile sig_atomic_t *interrupted; /* set by a signal handler: a start stops waiting;
	                               NULL: none */
};

/* Sets r up for command argv under sysfs directory dir; nothing runs yet. */
void scx_runner_init(struct scx_runner *r, const char *dir, char *const *argv);

/* Starts r's command and waits, at most timeout_ns, until the kernel says a scheduler is
 * enabled (a new one: enable_seq moved, where the kernel has it).  Refused while another
 * scheduler is loaded (state not "disabled": one at a time, and one the user loaded is theirs).
 * A signal (r->interrupted) ends the wait at once, the scheduler stopped.
 * Returns 0, or -1 with err naming what failed: the kernel's state, the command's exit or
 * signal and the tail of its own output, the system call and errno; nothing is left running. */
int scx_start(struct scx_runner *r, uint64_t timeout_ns, char *err, size_t len);

/* Whether r still runs the machine: its process alive, the state "enabled", the same load of
 * it (enable_seq, ops).  Returns 0, or -1 with err saying what happened (ejected by the kernel:
 * a stall of runnable tasks or an error exit, whose words the scheduler prints; or its process
 * exited or was killed) and the tail of its output; its process is then reaped or stopped. */
int scx_check(struct scx_runner *r, char *err, size_t len);

/* Stops r: SIGINT, then SIGKILL when it has not exited within timeout_ns, and waits (as long
 * again) until the kernel's state is "disabled".  Returns 0 (also when r was not running), or
 * -1 with err when the kernel still reports a scheduler, or the process could not be reaped.
 * The memfd is closed. */
int scx_stop(struct scx_runner *r, uint64_t timeout_ns, char *err, size_t len);

#endif
