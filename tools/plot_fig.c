/* What the plot files share (tools/plot_fig.h): gnuplot run on a script in memory, the
 * pictures written through lib/safefile, text quoted, the series' looks. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lib/safefile.h"
#include "lib/text.h"
#include "report/jsonkeys.h"
#include "tools/plot_fig.h"


/* The environment gnuplot runs in, whatever the caller's: no GNUPLOT_LIB, GNUPLOT_DRIVER_DIR,
 * GNUTERM or font paths, and a HOME nobody but root can create (its .gnuplot is not read anyway:
 * -d, gnuplot(1)). */
static char *const gnuplot_env[] = { "PATH=/usr/bin:/bin", "HOME=/nonexistent", "LC_ALL=C.UTF-8", NULL };

/* Runs gnuplot (found on the caller's PATH) with args, in "/" (a directory only root can
 * write, so nothing it might load relatively is planted) and in gnuplot_env, its standard input
 * in_fd and output out_fd (-1: /dev/null).  Returns its exit status, or -1 when it could not be
 * started (errno set by posix_spawnp(3)) or was killed. */
static int gnuplot_run(char *const args[], int in_fd, int out_fd)
{
	pid_t pid;
	int status = -1;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addchdir_np(&fa, "/");
	if (in_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, in_fd, STDIN_FILENO);
	else
		posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	if (out_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
	else
		posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	int rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, args, gnuplot_env);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		errno = rc;
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	errno = 0;   /* -1 below: killed */
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}


/* Frees what f holds, its streams closed or not. */
static void fig_free(struct figure *f)
{
	if (f->head)
		fclose(f->head);
	if (f->plot)
		fclose(f->plot);
	free(f->hbuf);
	free(f->pbuf);
	f->head = f->plot = NULL;
	f->hbuf = f->pbuf = NULL;
}

/* Starts datablock $dN of f; returns N.  Its lines start with a number, '"' or '#', never
 * with the terminator. */
unsigned block_begin(struct figure *f)
{
	fprintf(f->head, "$d%u << EOD\n", f->blocks);
	return f->blocks++;
}

void block_end(struct figure *f)
{
	fputs("EOD\n", f->head);
}

/* Closes f's streams, its whole script then in hbuf[0..hlen).  Returns 0, or -1 on a stream
 * error (out of memory). */
static int fig_close(struct figure *f)
{
	int bad = fclose(f->plot);
	f->plot = NULL;
	bad |= !f->pbuf || fwrite(f->pbuf, 1, f->plen, f->head) != f->plen;
	bad |= fclose(f->head);
	f->head = NULL;
	return bad || !f->hbuf ? -1 : 0;
}

/* Writes f's script to DIR/STEM.gp through lib/safefile (a temporary renamed into place, never
 * through a link, another user's file or a FIFO).  Returns 0, or -1 having said why. */
static int save_script(struct plot_job *j, const struct figure *f)
{
	char path[PATH_MAX], err[PATH_MAX + 128];
	struct safe_out o;
	snprintf(path, sizeof(path), "%s/%s.gp", j->out_dir, f->stem);
	int rc = safe_out_open(&o, path, SAFE_OUT_CHECK_DIR, err, sizeof(err));
	if (rc == 0 && safe_write_all(o.fd, f->hbuf, f->hlen) != 0) {
		snprintf(err, sizeof(err), "write %s: %s", path, strerror(errno));
		rc = -1;
	}
	if (rc == 0)
		rc = safe_out_commit(&o, err, sizeof(err));
	if (rc != 0) {
		safe_out_abort(&o);
		text_message(j->err, "%s: %s", j->who, err);
	}
	return rc;
}

/* f's script in a memory file (memfd_create(2)) read from its start: what gnuplot reads, so
 * no file another user could change between our write and its read.  Returns the descriptor,
 * or -1 having said why. */
static int script_fd(struct plot_job *j, const struct figure *f)
{
	int fd = memfd_create("interbench-plot", MFD_CLOEXEC);
	if (fd < 0 || safe_write_all(fd, f->hbuf, f->hlen) != 0 || lseek(fd, 0, SEEK_SET) != 0) {
		text_message(j->err, "%s: %s: %s", j->who, fd < 0 ? "memfd_create" : "write", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Why gnuplot gave no picture in pic (status as gnuplot_run returns it, errno set with it), in
 * buf (len bytes), or NULL. */
static const char *no_picture(int status, int pic, char *buf, size_t len)
{
	struct stat st;
	if (status < 0 && errno)
		snprintf(buf, len, "could not be started (posix_spawnp: %s)", strerror(errno));
	else if (status < 0)
		snprintf(buf, len, "was killed");
	else if (status != 0)
		snprintf(buf, len, "failed (exit status %d)", status);
	else if (fstat(pic, &st) != 0)
		snprintf(buf, len, "left a picture fstat cannot read (%s)", strerror(errno));
	else
		return st.st_size > 0 ? NULL : "drew nothing (an empty picture)";
	return buf;
}

/* Keeps the picture gnuplot drew into pic (status as gnuplot_run returns it) under its name, or
 * drops it saying why.  Returns whether it was kept. */
static bool keep_picture(const struct plot_job *j, struct safe_out *pic, int status)
{
	char why[128], err[PATH_MAX + 128];
	const char *bad = no_picture(status, pic->fd, why, sizeof(why));
	if (bad)
		text_message(j->err, "%s: gnuplot %s on %s", j->who, bad, pic->path);
	else if (safe_out_commit(pic, err, sizeof(err)) != 0)
		text_message(j->err, "%s: %s", j->who, (bad = err));
	safe_out_abort(pic);
	return !bad;
}

/* Has gnuplot draw f's script, handed as its standard input (-d: no startup file read; ib_stdout:
 * the script's own set output skipped), into a temporary picture given as its standard output,
 * renamed to DIR/STEM.FORMAT only when gnuplot succeeded and the picture is not empty.  Counts
 * the figure made or failed. */
static void draw(struct plot_job *j, const struct figure *f)
{
	char path[PATH_MAX], err[PATH_MAX + 128];
	char *args[] = { "gnuplot", "-d", "-e", "ib_stdout = 1", "-", NULL };
	struct safe_out pic;
	snprintf(path, sizeof(path), "%s/%s.%s", j->out_dir, f->stem, j->format);
	int script = script_fd(j, f);
	if (script >= 0 && safe_out_open(&pic, path, SAFE_OUT_CHECK_DIR, err, sizeof(err)) != 0) {
		text_message(j->err, "%s: %s", j->who, err);
		close(script);
		script = -1;
	}
	bool kept = script >= 0 && keep_picture(j, &pic, gnuplot_run(args, script, pic.fd));
	if (script >= 0)
		close(script);
	if (!kept) {
		j->failed++;
		return;
	}
	fprintf(j->out, "%s\n", path);
	j->made++;
}

/* Completes figure f: with something to draw, its script saved beside the picture and drawn;
 * else dropped.  Frees f. */
void fig_end(struct plot_job *j, struct figure *f, bool something)
{
	if (something && fig_close(f) != 0) {
		text_message(j->err, "%s: %s: out of memory", j->who, f->stem);
		j->failed++;
	} else if (something && save_script(j, f) != 0) {
		j->failed++;
	} else if (something) {
		draw(j, f);
	}
	fig_free(f);
}

/* Says that what of figure stem was cut to max of n. */
void plot_too_many(const struct plot_job *j, const char *stem, const char *what, unsigned long n, unsigned max)
{
	if (n > max)
		text_message(j->err, "%s: %s: %lu %s, the first %u drawn", j->who, stem, n, what, max);
}

/* text as a gnuplot string literal, its quotes included, in buf (len >= 3), which it returns.
 * Single quotes: the one form in which gnuplot neither runs a `backquoted` command nor expands
 * an @macro, for the names come from a result file that anyone may have written; a quote is
 * doubled, a control character (a newline would end the command) written as '?'.  Text that
 * does not fit is cut. */
const char *gp_str(const char *text, char *buf, size_t len)
{
	size_t n = 0;
	buf[n++] = '\'';
	for (const unsigned char *p = (const unsigned char *)text; *p && n + 3 < len; p++) {
		if (*p == '\'')
			buf[n++] = '\'';
		buf[n++] = *p < 0x20 || *p == 0x7f ? '?' : (char)*p;
	}
	buf[n++] = '\'';
	buf[n] = '\0';
	return buf;
}

/* Makes name safe as a double-quoted string or a comment in a datablock, in place: a double
 * quote or backslash becomes ', a control character '?' (no line break: a line of the block
 * always starts with what we wrote, never with the terminator). */
void plot_dat_text(char *name)
{
	for (unsigned char *p = (unsigned char *)name; *p; p++)
		if (*p == '"' || *p == '\\')
			*p = '\'';
		else if (*p < 0x20 || *p == 0x7f)
			*p = '?';
}

/* The gnuplot preamble: terminal, output file and the figure's title (any text). */
void gp_head_size(FILE *g, const struct plot_job *j, const char *stem, const char *title, unsigned width,
		  unsigned height)
{
	char t[512];
	/* noenhanced: names such as SCHED_BATCH or nice_0 are text, not subscripts */
	fprintf(g, "set terminal %s noenhanced size %u,%u\nif (!exists(\"ib_stdout\")) set output '%s.%s'\n"
		"set title %s\nset grid\nset key outside right\n",
		strcmp(j->format, "svg") == 0 ? "svg" : "pngcairo", width, height, stem, j->format,
		gp_str(title, t, sizeof(t)));
}

void gp_head(FILE *g, const struct plot_job *j, const char *stem, const char *title)
{
	gp_head_size(g, j, stem, title, 900, 560);
}

const char *plot_jstr(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_string(v) ? json_string_value(v) : "";
}

double plot_jnum(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : -1;
}

/* Whether result r is a measured result of simulation sim (first repeat only). */
bool plot_of_sim(const json_t *r, const char *sim)
{
	return strcmp(plot_jstr(r, JK_SIMULATION), sim) == 0 && !json_object_get(r, JK_FAILED) &&
	       plot_jnum(r, JK_REPEAT) <= 1;
}

/* The label of a result's load with its settings ("Burn", "Burn nice 19"), safe in a datablock
 * (dat_text). */
void plot_load_label(const json_t *r, char *buf, size_t len)
{
	const char *mode = plot_jstr(r, JK_MODE), *lm = plot_jstr(r, JK_LOAD_MODE);
	snprintf(buf, len, "%s%s%s%s%s", plot_jstr(r, JK_LOAD), *mode ? " / task " : "", mode, *lm ? " / loads " : "", lm);
	plot_dat_text(buf);
}

/* Starts figure f (its stem already set) titled title: the streams opened, the preamble
 * written (title NULL: by the caller, into f->plot, after the data).  Returns false, the
 * figure counted failed, when memory runs out. */
bool fig_begin(struct plot_job *j, struct figure *f, const char *title)
{
	f->head = open_memstream(&f->hbuf, &f->hlen);
	f->plot = f->head ? open_memstream(&f->pbuf, &f->plen) : NULL;
	if (!f->plot) {
		text_message(j->err, "%s: %s: open_memstream: %s", j->who, f->stem, strerror(errno));
		fig_free(f);
		j->failed++;
		return false;
	}
	if (title)
		gp_head(f->head, j, f->stem, title);
	return true;
}

/* Whether gnuplot can be run.  Says what to install when not. */
bool plot_have_gnuplot(const struct plot_job *j)
{
	char *args[] = { "gnuplot", "--version", NULL };
	if (gnuplot_run(args, -1, -1) == 0)
		return true;
	text_message(j->err, "%s: gnuplot is not installed (accepted: gnuplot on the PATH; Debian: apt-get install "
		"gnuplot-nox, or make deps)", j->who);
	return false;
}

/* Makes the output directory when missing and checks that it may take the outputs: a directory
 * of the running user or root that no other user can write, or sticky (safe_dir_check).
 * Returns 0, or -1 having said why. */
int plot_out_dir_ready(const struct plot_job *j)
{
	char why[PATH_MAX + 192];
	if (mkdir(j->out_dir, 0755) != 0 && errno != EEXIST) {
		text_message(j->err, "%s: %s %s: mkdir: %s", j->who, j->out_opt, j->out_dir, strerror(errno));
		return -1;
	}
	if (safe_dir_check(j->out_dir, why, sizeof(why)) != 0) {
		text_message(j->err, "%s: %s %s", j->who, j->out_opt, why);
		return -1;
	}
	return 0;
}

/* Okabe and Ito's 8 colours (tools/plot_fig.h), the darker first: yellow, the faintest on
 * white, last. */
static const char *const okabe_ito[] = { "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
					 "#000000", "#F0E442" };

const char *plot_line_colour(unsigned i)
{
	return okabe_ito[i % (sizeof(okabe_ito) / sizeof(okabe_ito[0]))];
}

void plot_line_style(FILE *g, unsigned i)
{
	fprintf(g, "lc rgb '%s' dt %u", plot_line_colour(i), 1 + i % 5);
}

/* ColorBrewer's "Paired", 12 classes (tools/plot_fig.h), in its own order: light and dark of a
 * hue side by side. */
static const char *const paired[] = { "#A6CEE3", "#1F78B4", "#B2DF8A", "#33A02C", "#FB9A99", "#E31A1C",
				      "#FDBF6F", "#FF7F00", "#CAB2D6", "#6A3D9A", "#FFFF99", "#B15928" };
#define PAIRED_N (sizeof(paired) / sizeof(paired[0]))

void plot_fill_style(FILE *g, unsigned k)
{
	if (k < PAIRED_N)
		fprintf(g, "fs solid 0.9 border rgb '#000000' lc rgb '%s'", paired[k]);
	else if (k == PAIRED_N)
		fprintf(g, "fs pattern 4 border rgb '#000000' lc rgb '#505050'");
	else
		fprintf(g, "fs pattern %u border rgb '#000000' lc rgb '%s'", 5 + (unsigned)((k - PAIRED_N) % 3),
			paired[(k - PAIRED_N - 1) % PAIRED_N]);
}
