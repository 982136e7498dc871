/* The --frame-log output (report/output_framelog.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "engine/frames.h"
#include "host/audit.h"
#include "lib/text.h"
#include "lib/timeutil.h"
#include "report/output_framelog.h"

#define MANGOHUD_SYSTEM_KEYS "os,cpu,gpu,ram,kernel,driver,cpuscheduler"
#define MANGOHUD_COLUMNS "fps,frametime,cpu_load,cpu_power,gpu_load,cpu_temp,gpu_temp,gpu_core_clock," \
	"gpu_mem_clock,gpu_vram_used,gpu_power,ram_used,swap_used,process_rss,cpu_mhz,elapsed"
#define PRESENTMON_COLUMNS "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags," \
	"AllowsTearing,PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI," \
	"MsUntilRenderComplete,MsUntilDisplayed"
#define CHUNK_FRAMES 2048u   /* frames read from the private file at once */
#define ROW_MAX 192u         /* the longest row */

/* Appends src to buf (len bytes, holding *at), a comma, quote or line end as a space; the
 * parenthesised parts left out when drop_parens ("Intel(R) Core(TM)" as MangoHud shows it). */
static void put_value(char *buf, size_t len, size_t *at, const char *src, bool drop_parens)
{
	int depth = 0;
	for (; src && *src && *at + 1 < len; src++) {
		if (drop_parens && (*src == '(' || (*src == ')' && depth))) {
			depth += *src == '(' ? 1 : -1;
			continue;
		}
		if (!depth)
			buf[(*at)++] = strchr(",\"\r\n", *src) ? ' ' : *src;
	}
	buf[*at] = '\0';
}

/* The PRETTY_NAME value of an os-release text (os-release(5)), quotes dropped, into buf. */
static void pretty_name(const char *text, char *buf, size_t len)
{
	buf[0] = '\0';
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "") {
		if (strncmp(l, "PRETTY_NAME=", 12) != 0)
			continue;
		l += 12;
		size_t n = strcspn(l, "\n");
		if (n >= 2 && (l[0] == '"' || l[0] == '\'') && l[n - 1] == l[0])
			l++, n -= 2;
		snprintf(buf, len, "%.*s", (int)n, l);
		return;
	}
}

void framelog_system_line(const char *os_release, const char *cpu_model, uint64_t ram_bytes, const char *kernel,
			  const char *governor, char *buf, size_t len)
{
	char os[256], ram[32];
	size_t at = 0;
	pretty_name(os_release, os, sizeof(os));
	snprintf(ram, sizeof(ram), "%llu", (unsigned long long)(ram_bytes / 1024));
	const char *field[] = { os, cpu_model, "", ram, kernel, "", governor };
	for (unsigned i = 0; i < sizeof(field) / sizeof(field[0]); i++) {
		if (i && at + 1 < len)
			buf[at++] = ',', buf[at] = '\0';
		size_t before = at;
		put_value(buf, len, &at, field[i], i == 1);
		while (at > before && buf[at - 1] == ' ') /* what the dropped parts left */
			buf[--at] = '\0';
	}
}

size_t framelog_mangohud_row(uint64_t at_ns, uint64_t frame_ns, char *buf, size_t len)
{
	double ms = (double)frame_ns / 1e6;
	int n = snprintf(buf, len, "%.3f,%.6f,0,0,0,0,0,0,0,0,0,0,0,0,0,%llu\n", ms > 0 ? 1000 / ms : 0, ms,
			 (unsigned long long)at_ns);
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

size_t framelog_presentmon_row(const char *app, bool presents, uint64_t at_ns, uint64_t frame_ns, char *buf,
			       size_t len)
{
	double ms = (double)frame_ns / 1e6;
	int n = snprintf(buf, len, "%s,0,0x0000000000000000,Other,%d,0,0,%s,0,%.9f,%.6f,%.6f,NA,NA,NA\n", app,
			 presents ? 1 : 0, presents ? "Composed: Flip" : "Unknown", (double)at_ns / 1e9, ms, ms);
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

/* The directory: made when missing, then it must be a directory no other user can change
 * (lib/safefile.h safe_dir_check).  Returns 0, or 2 with one line printed. */
static int dir_ready(struct framelog_output *t, const char *dir)
{
	char err[PATH_MAX + 128];
	struct stat st;
	if (lstat(dir, &st) != 0 && errno == ENOENT) {
		if (mkdir(dir, 0755) != 0) {
			text_message(stderr, "interbench: --frame-log %s: mkdir: %s (accepted: a directory of your own, or "
				     "a new one in an existing directory)", dir, strerror(errno));
			return 2;
		}
		t->made_dir = true;
	}
	if (safe_dir_check(dir, err, sizeof(err)) != 0) {
		text_message(stderr, "interbench: --frame-log: %s; accepted: a directory of your own, or a new one", err);
		if (t->made_dir)
			rmdir(dir);
		return 2;
	}
	return 0;
}

/* The run's start as MangoHud stamps its logs. */
static void run_stamp(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;
	if (!localtime_r(&now, &tm) || strftime(buf, len, "%Y-%m-%d_%H-%M-%S", &tm) == 0)
		snprintf(buf, len, "%lld", (long long)now);
}

/* MangoHud's system line for this machine. */
static void system_line(struct framelog_output *t, const struct report_run *run)
{
	char err[128];
	size_t n;
	char *os = safe_read_file("/etc/os-release", 65536, &n, err, sizeof(err));
	const struct audit_item *gov = run->in.audit ? audit_find(run->in.audit, AUDIT_GOVERNOR) : NULL;
	const struct machine_info *mi = run->in.machine;
	framelog_system_line(os, mi ? mi->cpu_model : "", mi ? mi->ram_bytes : 0, mi ? mi->kernel_release : "",
			     gov && strcmp(gov->value, AUDIT_NA) != 0 ? gov->value : "", t->system, sizeof(t->system));
	free(os);
}

static int framelog_open(void *st, struct report_run *run)
{
	struct framelog_output *t = st;
	t->mem_fd = -1;
	t->out.fd = t->out.dir_fd = -1;
	const char *dir = run->opt->frame_log_dir;
	if (!dir)
		return 0;
	if (dir_ready(t, dir) != 0)
		return 2;
	t->mem_fd = memfd_create("interbench-frames", MFD_CLOEXEC);
	if (t->mem_fd < 0) {
		text_message(stderr, "interbench: --frame-log: memfd_create: %s", strerror(errno));
		if (t->made_dir)
			rmdir(dir);
		return 2;
	}
	run_stamp(t->stamp, sizeof(t->stamp));
	system_line(t, run);
	t->open = true;
	run->frame_log_fd = t->mem_fd;
	return 0;
}

/* Appends a word of a pair's name to name (len bytes): '-' and the word, anything but letters,
 * digits, '.', '+' and '-' as '_'; nothing for an empty word. */
static void name_word(char *name, size_t len, const char *word)
{
	size_t at = strlen(name);
	if (!*word || at + 2 >= len)
		return;
	name[at++] = '-';
	for (; *word && at + 1 < len; word++)
		name[at++] = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.+-", *word) ? *word : '_';
	name[at] = '\0';
}

/* The path of run `repeat` of plan item `item`'s log in format fmt, into path. */
static void log_path(const struct framelog_output *t, const struct report_run *run, const struct matrix *m,
		     size_t item, unsigned repeat, unsigned fmt, char *path, size_t len)
{
	const struct plan_item *it = &m->p.plan->items[item];
	char name[NAME_MAX - 40] = "", bench[96], load[96], load_word[104] = "", run_no[16];
	report_item_words(run, it, bench, load, sizeof(bench));
	if (load[0]) /* the load's setting told from the task's: "nice 19" of which? */
		snprintf(load_word, sizeof(load_word), "load %s", load);
	snprintf(run_no, sizeof(run_no), "%u", repeat + 1);
	snprintf(name, sizeof(name), "%s", it->task->name);
	name_word(name, sizeof(name), matrix_load_name(m, item));
	name_word(name, sizeof(name), bench);
	name_word(name, sizeof(name), load_word);
	name_word(name, sizeof(name), run_no);
	snprintf(path, len, "%s/%s%s_%s.csv", run->opt->frame_log_dir, name,
		 fmt == FRAME_LOG_PRESENTMON ? "-presentmon" : "", t->stamp);
}

/* The frames the bench process left in the private file: their count in *n.  Returns 0, or -1
 * when it holds none (the bench failed before writing) or is malformed; *truncated says some
 * were dropped. */
static int frames_left(int fd, uint32_t *n, bool *truncated)
{
	struct stat st;
	struct frame_log_trailer tr;
	if (fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(tr) ||
	    pread(fd, &tr, sizeof(tr), st.st_size - (off_t)sizeof(tr)) != (ssize_t)sizeof(tr) ||
	    tr.magic != FRAME_LOG_MAGIC || tr.n > FRAME_LOG_MAX_RECORDS ||
	    (off_t)tr.n * (off_t)sizeof(struct frame_rec) + (off_t)sizeof(tr) != st.st_size)
		return -1;
	*n = tr.n;
	*truncated = tr.truncated != 0;
	return 0;
}

/* Writes the header and one row per frame of the private file to out's fd.  Returns 0, or -1
 * with errno set. */
static int write_rows(const struct framelog_output *t, int fd, unsigned fmt, const char *app, bool presents,
		      uint32_t n)
{
	static struct frame_rec rec[CHUNK_FRAMES];
	static char text[(CHUNK_FRAMES + 8) * ROW_MAX]; /* the header (under 8 rows' room) and a chunk */
	size_t at = fmt == FRAME_LOG_MANGOHUD
		? (size_t)snprintf(text, sizeof(text), MANGOHUD_SYSTEM_KEYS "\n%s\n" MANGOHUD_COLUMNS "\n", t->system)
		: (size_t)snprintf(text, sizeof(text), PRESENTMON_COLUMNS "\n");
	for (uint32_t done = 0; done < n;) {
		uint32_t k = n - done < CHUNK_FRAMES ? n - done : CHUNK_FRAMES;
		ssize_t got = pread(t->mem_fd, rec, k * sizeof(*rec), (off_t)done * (off_t)sizeof(*rec));
		if (got != (ssize_t)(k * sizeof(*rec))) {
			errno = got < 0 ? errno : EIO;
			return -1;
		}
		for (uint32_t i = 0; i < k; i++)
			at += fmt == FRAME_LOG_MANGOHUD
				? framelog_mangohud_row(rec[i].at_ns, rec[i].frame_ns, text + at, ROW_MAX)
				: framelog_presentmon_row(app, presents, rec[i].at_ns, rec[i].frame_ns, text + at, ROW_MAX);
		if (safe_write_all(fd, text, at) != 0)
			return -1;
		at = 0;
		done += k;
	}
	return at ? safe_write_all(fd, text, at) : 0;
}

/* One log of n frames of item's run in format fmt: written under a temporary name, renamed
 * into place.  A failure is said on stderr and remembered. */
static void write_log(struct framelog_output *t, struct report_run *run, const struct matrix *m, size_t item,
		      unsigned repeat, unsigned fmt, uint32_t n)
{
	const struct plan_item *it = &m->p.plan->items[item];
	char path[PATH_MAX], err[PATH_MAX + 128];
	log_path(t, run, m, item, repeat, fmt, path, sizeof(path));
	if (safe_out_open(&t->out, path, SAFE_OUT_CHECK_DIR, err, sizeof(err)) != 0) {
		text_message(stderr, "interbench: --frame-log: %s; that log is not written", err);
		t->failed = true;
		return;
	}
	if (write_rows(t, t->out.fd, fmt, it->task->name, it->spec.desc->measures &&
		       it->spec.desc->measures->shows_frames, n) != 0) {
		text_message(stderr, "interbench: --frame-log %s: write: %s", path, strerror(errno));
		safe_out_abort(&t->out);
		t->failed = true;
		return;
	}
	if (report_file_close(&t->out, true, "--frame-log") != 0)
		t->failed = true;
}

/* After each run of a pair whose task logs frames: its logs, then the private file emptied. */
static void framelog_pair_measured(void *st, struct report_run *run, const struct matrix *m, size_t item,
				   unsigned repeat, const struct pair_outcome *po)
{
	struct framelog_output *t = st;
	uint32_t n;
	bool truncated;
	if (!t->open || !m->p.plan->items[item].spec.desc->logs_frames)
		return;
	int got = frames_left(t->mem_fd, &n, &truncated);
	if (got != 0 && po->ok) { /* measured, yet no frames handed: memory or the write failed */
		text_message(stderr, "interbench: warning: --frame-log: %s against %s, run %u: the bench process handed "
			     "no frames; that log is not written", m->p.plan->items[item].task->name,
			     matrix_load_name(m, item), repeat + 1);
		t->failed = true;
	}
	if (got == 0) {
		uint32_t formats = run->opt->frame_log_formats ? run->opt->frame_log_formats : 1u << FRAME_LOG_MANGOHUD;
		for (unsigned fmt = 0; fmt <= FRAME_LOG_PRESENTMON; fmt++)
			if (formats & (1u << fmt))
				write_log(t, run, m, item, repeat, fmt, n);
		if (truncated && !t->warned_truncated) {
			text_message(stderr, "interbench: warning: --frame-log: a pair had more than %u frames; the "
				     "rest are not logged", FRAME_LOG_MAX_RECORDS);
			t->warned_truncated = true;
		}
	}
	if (ftruncate(t->mem_fd, 0) != 0) {
		text_message(stderr, "interbench: --frame-log: ftruncate: %s; no more frames are logged", strerror(errno));
		t->open = false;
		t->failed = true;
	}
}

/* Closes the private file; a run refused before any pair takes back the directory it made. */
static int framelog_close(void *st, struct report_run *run, const struct report_end *end)
{
	struct framelog_output *t = st;
	if (t->mem_fd < 0)
		return 0;
	close(t->mem_fd);
	t->mem_fd = -1;
	t->open = false;
	run->frame_log_fd = -1;
	if (!end->commit && t->made_dir)
		rmdir(run->opt->frame_log_dir);
	else if (end->commit && !t->failed)
		report_wrote(run, "frame logs", run->opt->frame_log_dir);
	return t->failed ? -1 : 0;
}

static const struct safe_out *framelog_scratch(const void *st)
{
	return &((const struct framelog_output *)st)->out;
}

const struct report_output report_output_framelog = {
	.name = "framelog", .state_bytes = sizeof(struct framelog_output), .open = framelog_open,
	.pair_measured = framelog_pair_measured, .close = framelog_close, .scratch = framelog_scratch,
};
