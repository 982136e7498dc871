/* The --frame-log output (report/output_framelog.h) driven through the run's report by a
 * matrix whose stub pair runner hands known frames through the private file as the bench
 * process does (engine/frames.h frame_log_write): a file per run of a pair in MangoHud's and
 * PresentMon's columns, read back line by line; MangoHud's system line; and the hostile
 * places: a link planted under a log's name, a directory that is a link, a file or open to
 * others. */
#define _GNU_SOURCE
#include <check.h>
#include "tests/ck_run.h"
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "engine/frames.h"
#include "lib/timeutil.h"
#include "report/output_framelog.h"
#include "report/outputs.h"
#include "report/sink.h"
#include "tests/ck_report.h"

REPORT_OUTPUTS(OUTPUT_DECLARE)

/* The frame log and the text output (last, as in report/outputs.h): state[0] is the log's. */
const struct report_output *const report_outputs[] = { &report_output_framelog, &report_output_text, NULL };

static volatile sig_atomic_t stop;

#define FRAMES 50u

/* The stub's bench process writes its frames whole (false), or is cut short before the
 * trailer (true: a failed write). */
static bool cut_short;

/* Frame i of a pair ends at (i + 1) x 16.667 ms, 16.667 ms long, the tenth 50 ms. */
static int stub_pair_run(const struct pair_params *p, struct pair_outcome *out)
{
	static struct frame_rec rec[FRAMES];
	struct frame_log_buf b = { .rec = rec, .cap = FRAMES };
	uint64_t at_ns = 0;
	memset(out, 0, sizeof(*out));
	out->ok = true;
	for (unsigned i = 0; i < FRAMES; i++) {
		uint64_t f = i == 9 ? 50000000 : 16667000;
		at_ns += f;
		frame_log_push(&b, at_ns, f);
	}
	if (p->frame_log_fd >= 0 && p->spec.desc->logs_frames && !cut_short)
		ck_assert_int_eq(frame_log_write(p->frame_log_fd, &b), 0);
	else if (p->frame_log_fd >= 0 && p->spec.desc->logs_frames)
		ck_assert_int_eq(pwrite(p->frame_log_fd, rec, sizeof(rec), 0), (ssize_t)sizeof(rec));
	return 0;
}

struct fixture {
	struct ck_report r;
	char top[64], dir[96];
};

/* Video and Audio against None, --frame-log DIR (top/logs) with the formats given; with sweep,
 * at bench nice 0 and -10 and load nice 0 and 19. */
static void fixture_init_sweep(struct fixture *f, const char *formats, bool sweep)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->top, sizeof(f->top), "/tmp/check_framelog.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(f->top));
	snprintf(f->dir, sizeof(f->dir), "%s/logs", f->top);
	char *argv[] = { "interbench", "-W", "Video", "-W", "Audio", "-w", "None", "-c", "--frame-log", f->dir,
			 "--frame-log-format", (char *)formats, "-B", "0,-10", "-N", "0,19", NULL };
	ck_report_plan(&f->r, sweep ? 16 : 12, argv);
	snprintf(f->r.machine.cpu_model, sizeof(f->r.machine.cpu_model), "Intel(R) Core(TM) i7, 8 cores");
	snprintf(f->r.machine.kernel_release, sizeof(f->r.machine.kernel_release), "6.12.0-test");
	f->r.machine.ram_bytes = 16ull << 30;
	sink_console_open(&f->r.s, &f->r.opt, &stop);
	f->r.s.run.con = fopen("/dev/null", "w");
}

static void fixture_init(struct fixture *f, const char *formats)
{
	fixture_init_sweep(f, formats, false);
}

static int fixture_open(struct fixture *f)
{
	return ck_report_open(&f->r);
}

/* Runs the matrix through the report; returns sink_close's status. */
static int fixture_run(struct fixture *f)
{
	struct ck_report *r = &f->r;
	struct matrix_params p = { .plan = &r->plan, .opt = &r->opt, .load = &r->load, .repeats = 2,
				   .duration_ns = NS_PER_S, .load_cfg = &r->load_cfg, .timeline_fd = -1,
				   .frame_log_fd = r->s.run.frame_log_fd, .interrupted = &stop,
				   .pair_run = stub_pair_run };
	ck_assert_int_eq(matrix_init(&r->m, &p), 0);
	struct matrix_sink sink = sink_matrix(&r->s);
	stop = 0;
	ck_assert_int_eq(matrix_run(&r->m, &sink), 0);
	return sink_close(&r->s, &r->m, 0);
}

/* The names in dir, sorted, joined by spaces; every ".csv" name's stamp replaced by STAMP. */
static void names(const char *dir, char *buf, size_t len)
{
	struct dirent **list;
	int n = scandir(dir, &list, NULL, alphasort);
	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		char name[300];
		snprintf(name, sizeof(name), "%s", list[i]->d_name);
		size_t n_stamp = strlen("_2026-11-27_15-04-05.csv"), len_name = strlen(name);
		if (len_name > n_stamp && name[len_name - n_stamp] == '_' && strstr(name, ".csv"))
			snprintf(name + len_name - n_stamp, sizeof(name) - (len_name - n_stamp), "_STAMP.csv");
		if (name[0] != '.')
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? " " : "", name);
		free(list[i]);
	}
	free(list);
}

/* The lines of file path (at most max), each without its newline; returns how many. */
static unsigned read_lines(const char *path, char lines[][256], unsigned max)
{
	FILE *fp = fopen(path, "r");
	unsigned n = 0;
	ck_assert_msg(fp != NULL, "%s", path);
	while (n < max && fgets(lines[n], 256, fp))
		lines[n][strcspn(lines[n], "\n")] = '\0', n++;
	fclose(fp);
	return n;
}

/* The first file in dir whose name starts with prefix, into path. */
static void find(const char *dir, const char *prefix, char *path, size_t len)
{
	DIR *d = opendir(dir);
	path[0] = '\0';
	for (struct dirent *e; d && (e = readdir(d));)
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0)
			snprintf(path, len, "%s/%s", dir, e->d_name);
	if (d)
		closedir(d);
	ck_assert_msg(path[0], "no %s* in %s", prefix, dir);
}

/* Removes every file in dir, then dir and the fixture's top directory. */
static void fixture_free(struct fixture *f)
{
	DIR *d = opendir(f->dir);
	for (struct dirent *e; d && (e = readdir(d));)
		if (e->d_name[0] != '.' || strlen(e->d_name) > 2)
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
	rmdir(f->dir);
	ck_assert_int_eq(rmdir(f->top), 0);
	matrix_free(&f->r.m);
	plan_free(&f->r.plan);
}

/* A MangoHud and a PresentMon file per run of Video's pair (two runs), none for Audio (its
 * periods are no frames a user watches); the rows as the frames were handed. */
START_TEST(a_file_per_run_in_both_formats)
{
	static struct fixture f;
	static char lines[FRAMES + 8][256];
	char got[1024], path[400];
	fixture_init(&f, "mangohud,presentmon");
	ck_assert_int_eq(fixture_open(&f), 0);
	ck_assert_int_eq(fixture_run(&f), 0);
	names(f.dir, got, sizeof(got));
	ck_assert_str_eq(got, "Video-None-1-presentmon_STAMP.csv Video-None-1_STAMP.csv "
			      "Video-None-2-presentmon_STAMP.csv Video-None-2_STAMP.csv");
	find(f.dir, "Video-None-2_", path, sizeof(path));
	ck_assert_uint_eq(read_lines(path, lines, FRAMES + 8), FRAMES + 3);
	ck_assert_str_eq(lines[0], "os,cpu,gpu,ram,kernel,driver,cpuscheduler");
	ck_assert_ptr_nonnull(strstr(lines[1], ",Intel Core i7  8 cores,,16777216,6.12.0-test,,"));
	ck_assert_str_eq(lines[2], "fps,frametime,cpu_load,cpu_power,gpu_load,cpu_temp,gpu_temp,gpu_core_clock,"
				   "gpu_mem_clock,gpu_vram_used,gpu_power,ram_used,swap_used,process_rss,cpu_mhz,elapsed");
	ck_assert_str_eq(lines[3], "59.999,16.667000,0,0,0,0,0,0,0,0,0,0,0,0,0,16667000");
	ck_assert_str_eq(lines[12], "20.000,50.000000,0,0,0,0,0,0,0,0,0,0,0,0,0,200003000");
	find(f.dir, "Video-None-1-presentmon_", path, sizeof(path));
	ck_assert_uint_eq(read_lines(path, lines, FRAMES + 8), FRAMES + 1);
	ck_assert_str_eq(lines[0], "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,"
				   "AllowsTearing,PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,"
				   "MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,MsUntilDisplayed");
	ck_assert_str_eq(lines[1], "Video,0,0x0000000000000000,Other,0,0,0,Unknown,0,0.016667000,16.667000,16.667000,"
				   "NA,NA,NA");
	fixture_free(&f);
}
END_TEST

/* A sweep's settings in the names, the load's told from the task's. */
START_TEST(sweep_names)
{
	static struct fixture f;
	char got[1024];
	fixture_init_sweep(&f, "mangohud", true);
	ck_assert_int_eq(fixture_open(&f), 0);
	ck_assert_int_eq(fixture_run(&f), 0);
	names(f.dir, got, sizeof(got));
	ck_assert_str_eq(got, "Video-None-1_STAMP.csv Video-None-2_STAMP.csv Video-None-load_nice_19-1_STAMP.csv "
			      "Video-None-load_nice_19-2_STAMP.csv Video-None-nice_-10-1_STAMP.csv "
			      "Video-None-nice_-10-2_STAMP.csv Video-None-nice_-10-load_nice_19-1_STAMP.csv "
			      "Video-None-nice_-10-load_nice_19-2_STAMP.csv");
	fixture_free(&f);
}
END_TEST

/* A bench process cut short while handing its frames (no trailer): no log, a warning, and the
 * report's close says so (-1). */
START_TEST(frames_cut_short)
{
	static struct fixture f;
	char got[1024];
	fixture_init(&f, "mangohud");
	ck_assert_int_eq(fixture_open(&f), 0);
	cut_short = true;
	ck_assert_int_eq(fixture_run(&f), -1);
	cut_short = false;
	names(f.dir, got, sizeof(got));
	ck_assert_str_eq(got, "");
	fixture_free(&f);
}
END_TEST

/* A link or a FIFO planted under a log's name is neither followed, opened nor replaced: that
 * log is refused (no hang on the FIFO), and the report's close says so (-1). */
START_TEST(planted_link_refused)
{
	static struct fixture f;
	char got[1024], link[400], fifo[400], target[160];
	fixture_init(&f, "mangohud");
	ck_assert_int_eq(fixture_open(&f), 0);
	const struct framelog_output *t = f.r.s.state[0];
	snprintf(target, sizeof(target), "%s/target", f.top);
	snprintf(link, sizeof(link), "%s/Video-None-1_%s.csv", f.dir, t->stamp);
	snprintf(fifo, sizeof(fifo), "%s/Video-None-2_%s.csv", f.dir, t->stamp);
	ck_assert_int_eq(symlink(target, link), 0);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(fixture_run(&f), -1);
	struct stat st;
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));             /* left as they were */
	ck_assert_int_eq(lstat(fifo, &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));
	ck_assert_int_eq(access(target, F_OK), -1); /* nothing written through it */
	names(f.dir, got, sizeof(got));
	ck_assert_str_eq(got, "Video-None-1_STAMP.csv Video-None-2_STAMP.csv");
	fixture_free(&f);
}
END_TEST

/* A directory that is a link, a regular file, or writable by others: the run is refused (2)
 * and nothing is made; a directory made by a run refused later is taken back. */
START_TEST(hostile_directories_refused)
{
	static struct fixture f;
	fixture_init(&f, "mangohud");
	ck_assert_int_eq(symlink("/tmp", f.dir), 0);
	ck_assert_int_eq(fixture_open(&f), 2);
	unlink(f.dir);
	ck_assert_int_eq(close(open(f.dir, O_WRONLY | O_CREAT | O_EXCL, 0600)), 0);
	ck_assert_int_eq(fixture_open(&f), 2);
	unlink(f.dir);
	ck_assert_int_eq(mkdir(f.dir, 0700), 0);
	ck_assert_int_eq(chmod(f.dir, 0777), 0);
	ck_assert_int_eq(fixture_open(&f), 2);
	ck_assert_int_eq(rmdir(f.dir), 0);
	/* missing: made, and removed by a close that does not commit */
	struct framelog_output t = { 0 };
	struct report_run run = { .opt = &f.r.opt, .frame_log_fd = -1, .in = { .machine = &f.r.machine } };
	ck_assert_int_eq(report_output_framelog.open(&t, &run), 0);
	ck_assert_int_eq(access(f.dir, F_OK), 0);
	ck_assert_int_ge(run.frame_log_fd, 0);
	ck_assert_int_eq(report_output_framelog.close(&t, &run, &(struct report_end){ .commit = false }), 0);
	ck_assert_int_eq(access(f.dir, F_OK), -1);
	ck_assert_int_eq(run.frame_log_fd, -1);
	fixture_free(&f);
}
END_TEST

/* MangoHud's system line: PRETTY_NAME unquoted, the CPU without its parenthesised parts,
 * commas and quotes in values as spaces, RAM in kB. */
START_TEST(system_line)
{
	char buf[512];
	framelog_system_line("NAME=\"Debian\"\nPRETTY_NAME=\"Debian GNU/Linux 13 (trixie)\"\nID=debian\n",
			     "AMD Ryzen 7 5800X 8-Core Processor", 32ull << 30, "6.12.0", "performance", buf, sizeof(buf));
	ck_assert_str_eq(buf, "Debian GNU/Linux 13 (trixie),AMD Ryzen 7 5800X 8-Core Processor,,33554432,6.12.0,,"
			      "performance");
	framelog_system_line(NULL, "Intel(R) Xeon(R) CPU, \"x\"", 0, "k", "", buf, sizeof(buf));
	ck_assert_str_eq(buf, ",Intel Xeon CPU   x,,0,k,,");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("framelog");
	TCase *tc = tcase_create("framelog");
	tcase_add_test(tc, a_file_per_run_in_both_formats);
	tcase_add_test(tc, sweep_names);
	tcase_add_test(tc, frames_cut_short);
	tcase_add_test(tc, planted_link_refused);
	tcase_add_test(tc, hostile_directories_refused);
	tcase_add_test(tc, system_line);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
