/* The output plug-in (report/output.h) built from doc/adding-an-output.md's steps: the
 * Skeleton output (tests/skeleton_output.c), listed after interbench's own outputs the way
 * report/outputs.c lists them, driven through the run's report (report/sink.h) by a matrix
 * with a stub pair runner: every hook is called at its point (its file holds a line from
 * each, in order), the file appears only when the run ends, a refused open leaves nothing,
 * and the signal handler's unlink reaches its temporary file. */
#define _GNU_SOURCE
#include <check.h>
#include "tests/ck_run.h"
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/timeutil.h"
#include "report/outputs.h"
#include "report/sink.h"
#include "tests/ck_report.h"
#include "tests/skeleton_output.c"

REPORT_OUTPUTS(OUTPUT_DECLARE)

/* Step 2 of the doc: the output in the list, before the text output, which stays last. */
const struct report_output *const report_outputs[] = { &report_output_timeline, &report_output_trace, &report_output_json,
	&report_output_skeleton, &report_output_text, NULL };

static volatile sig_atomic_t stop;

/* Measured: the n-th pair's p99 scheduling latency is n us. */
static int stub_pair_run(const struct pair_params *p, struct pair_outcome *out)
{
	static uint64_t calls;
	memset(out, 0, sizeof(*out));
	out->ok = true;
	out->window_ns = p->duration_ns;
	out->bench.summary.sched_p99_ns = ++calls * 1000;
	return 0;
}

/* A run of Audio against None and Burn at two bench nice levels (a sweep: 4 pairs), -c (no
 * logfile, no JSON), its console in a file; the state a test case needs. */
struct fixture {
	struct ck_report r;
	char dir[64], path[96];
	int saved_stdout;                /* the test's own stdout, back at fixture_free */
};

static void fixture_init(struct fixture *f)
{
	char *argv[] = { "interbench", "-W", "Audio", "-w", "None", "-w", "Burn", "-B", "0,-10", "-c", NULL };
	memset(f, 0, sizeof(*f));
	ck_report_plan(&f->r, 10, argv);
	struct matrix_params p = { .plan = &f->r.plan, .opt = &f->r.opt, .load = &f->r.load, .repeats = 1,
				   .duration_ns = NS_PER_S, .load_cfg = &f->r.load_cfg, .timeline_fd = -1, .frame_log_fd = -1,
				   .interrupted = &stop, .pair_run = stub_pair_run };
	ck_assert_int_eq(matrix_init(&f->r.m, &p), 0);
	snprintf(f->dir, sizeof(f->dir), "/tmp/check_output.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/pairs.txt", f->dir);
	skeleton_output_path = f->path;
	/* the console (stdout): into a file of the directory */
	char con[96];
	snprintf(con, sizeof(con), "%s/console", f->dir);
	int fd = open(con, O_WRONLY | O_CREAT | O_EXCL, 0600);
	ck_assert_int_ge(fd, 0);
	fflush(stdout);
	f->saved_stdout = dup(STDOUT_FILENO);
	ck_assert_int_ge(f->saved_stdout, 0);
	ck_assert_int_eq(dup2(fd, STDOUT_FILENO), STDOUT_FILENO);
	close(fd);
	sink_console_open(&f->r.s, &f->r.opt, &stop);
}

static int fixture_open(struct fixture *f)
{
	return ck_report_open(&f->r);
}

/* The whole of file dir/name, or "" when there is none (the caller frees it). */
static char *slurp(const char *dir, const char *name)
{
	char path[160], *buf = calloc(1, 65536);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *fp = fopen(path, "r");
	if (fp) {
		fread(buf, 1, 65535, fp);
		fclose(fp);
	}
	return buf;
}

/* How many entries dir holds (its console file included). */
static unsigned entries(const char *dir)
{
	DIR *d = opendir(dir);
	unsigned n = 0;
	ck_assert_ptr_nonnull(d);
	for (struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

static void fixture_free(struct fixture *f)
{
	char path[160];
	fflush(stdout);
	dup2(f->saved_stdout, STDOUT_FILENO);
	close(f->saved_stdout);
	snprintf(path, sizeof(path), "%s/pairs.txt", f->dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/console", f->dir);
	unlink(path);
	ck_assert_int_eq(rmdir(f->dir), 0);  /* nothing else left behind */
	matrix_free(&f->r.m);
	plan_free(&f->r.plan);
}

/* Every hook in its place: a line per pair (in the plan's order: one round), per row, per
 * sweep summary (Audio against each load: 2 bench settings x 1 load setting), then the end;
 * the file under its name only once the report closed; the real outputs beside it (the
 * console's table). */
START_TEST(skeleton_gets_every_hook)
{
	static struct fixture f;
	fixture_init(&f);
	ck_assert_int_eq(fixture_open(&f), 0);
	ck_assert_uint_eq(entries(f.dir), 2);  /* the console and the skeleton's temporary file */
	char *before = slurp(f.dir, "pairs.txt");
	ck_assert_str_eq(before, "");  /* not yet under its name */
	struct matrix_sink sink = sink_matrix(&f.r.s);
	stop = 0;
	ck_assert_int_eq(matrix_run(&f.r.m, &sink), 0);
	ck_assert_int_eq(sink_close(&f.r.s, &f.r.m, 0), 0);
	char *got = slurp(f.dir, "pairs.txt"), *con = slurp(f.dir, "console");
	ck_assert_str_eq(got, "Audio None 1000\nAudio None rows 1\nAudio Burn 2000\nAudio Burn rows 1\n"
			      "Audio None 3000\nAudio None rows 1\nAudio Burn 4000\nAudio Burn rows 1\n"
			      "sweep Audio None 2x1\nsweep Audio Burn 2x1\nend 0\n");
	ck_assert_ptr_nonnull(strstr(con, "--- Benchmarking simulated cpu of Audio"));
	ck_assert_ptr_nonnull(strstr(con, "--- Sweep of Audio against Burn"));
	free(before), free(got), free(con);
	fixture_free(&f);
}
END_TEST

/* An output that cannot open refuses the run (2) and the outputs opened before it close:
 * nothing is written. */
START_TEST(refused_open_leaves_nothing)
{
	static struct fixture f;
	fixture_init(&f);
	char missing[128];
	snprintf(missing, sizeof(missing), "%s/no-such-dir/pairs.txt", f.dir);
	skeleton_output_path = missing;
	ck_assert_int_eq(fixture_open(&f), 2);
	ck_assert_uint_eq(entries(f.dir), 1);  /* the console alone */
	char *con = slurp(f.dir, "console");
	ck_assert_ptr_null(strstr(con, "Benchmarking"));  /* no header: the text output never began */
	free(con);
	fixture_free(&f);
}
END_TEST

/* The signal handler's last act (sink_unlink_signal_safe) removes the skeleton's temporary
 * file through its scratch hook; the report's close then says the file was not written. */
START_TEST(signal_unlinks_the_temporary_file)
{
	static struct fixture f;
	fixture_init(&f);
	ck_assert_int_eq(fixture_open(&f), 0);
	ck_assert_uint_eq(entries(f.dir), 2);
	sink_unlink_signal_safe(&f.r.s);
	ck_assert_uint_eq(entries(f.dir), 1);
	ck_assert_int_eq(sink_close(&f.r.s, NULL, 0), -1);
	ck_assert_uint_eq(entries(f.dir), 1);
	fixture_free(&f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("output");
	TCase *tc = tcase_create("output");
	tcase_add_test(tc, skeleton_gets_every_hook);
	tcase_add_test(tc, refused_open_leaves_nothing);
	tcase_add_test(tc, signal_unlinks_the_temporary_file);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
