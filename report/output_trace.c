/* The --trace output (report/output_trace.h).  The event fields follow the Trace Event
 * Format document (Google, "Trace Event Format", the JSON Object Format): ph "X" complete
 * events with ts and dur in microseconds, "C" counters (process-local, one series per arg),
 * "M" metadata naming processes and threads; doc/trace.md lists what this output puts where. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "explain/json.h"
#include "engine/timeline.h"
#include "lib/text.h"
#include "lib/timeutil.h"
#include "lib/version.h"
#include "report/figures.h"
#include "report/json_report.h"
#include "report/jsonkeys.h"
#include "report/output_trace.h"
#include "workloads/pipeline_chain.h"
#include "workloads/workload.h"

/* The tracks of a pair's process: its sub-runs, its late periods, then TRACE_FRAME_LANES
 * tracks of frames; 0 the process itself (its metadata).  Track k of the process pid is the
 * thread id pid * TRACKS + k: a trace processor takes a thread id as one thread of the whole
 * system (Perfetto's JSON importer does: a tid seen in another process is a new thread), so
 * no two processes share one. */
enum { TID_PROCESS = 0, TID_RUNS = 1, TID_LATE = 2, TID_FRAMES = 3, TRACKS = 10 };
_Static_assert(TID_FRAMES + TRACE_FRAME_LANES <= TRACKS, "a pair's tracks within its thread ids");

static int tid_of(unsigned pid, unsigned track)
{
	return (int)(pid * TRACKS + track);
}

#define TRACE_READ_RECORDS 4096u   /* records read back at once */
#define TRACE_DUMP_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(16))

/* Writes s to the trace, keeping the first error. */
static void put(struct trace_output *t, const char *s)
{
	if (fputs(s, t->f) == EOF && !t->write_errno)
		t->write_errno = errno ? errno : EIO;
}

/* Writes event ev (stolen; NULL: out of memory) as the next element of traceEvents; after a
 * write error, nothing more (the trace is then abandoned at close). */
static void emit(struct trace_output *t, json_t *ev)
{
	if (!ev || t->write_errno) {
		t->out_of_memory |= !ev;
		json_decref(ev);
		return;
	}
	put(t, t->events++ ? ",\n" : "\n");
	if (json_dumpf(ev, t->f, TRACE_DUMP_FLAGS) != 0 && !t->write_errno)
		t->write_errno = errno ? errno : EIO;
	json_decref(ev);
}

/* A duration in ns as the format's microseconds. */
static json_t *us(uint64_t ns)
{
	return json_real((double)ns / 1000.0);
}

/* A time or duration of the timeline (ts, dur) in ns as the format's microseconds, a quarter
 * of a nanosecond over: a reader that turns them back into whole nanoseconds by truncation
 * (Perfetto's JSON importer, json_utils.cc CoerceToTs: the double times 1000, cast) then gets
 * the nanosecond written, where ns / 1000 itself, seldom exact in binary, could come back one
 * short, and a slice that ends where its parent ends one over it. */
static json_t *tus(uint64_t ns)
{
	return json_real(((double)ns + 0.25) / 1000.0);
}

/* A CLOCK_MONOTONIC time as microseconds from the trace's start (0 before it). */
static json_t *ts_of(const struct trace_output *t, uint64_t at_ns)
{
	return tus(at_ns > t->t0_ns ? at_ns - t->t0_ns : 0);
}

/* A metadata event: name (process_name, thread_name, *_sort_index) of pid/tid, args. */
static void meta(struct trace_output *t, const char *name, unsigned pid, unsigned track, json_t *args)
{
	emit(t, json_pack("{s:s, s:s, s:i, s:i, s:i, s:o}", "ph", "M", "name", name, "pid", (int)pid, "tid", tid_of(pid, track),
			  "ts", 0, "args", args));
}

/* A complete event ("X") on track `track` of pid from at_ns for dur_ns, args stolen (NULL:
 * none).  Every event has its ts before its args (jansson keeps the order members are set
 * in): Perfetto's tokenizer finds ts by walking an event's members and gives up the whole
 * trace at an array before it (json_trace_tokenizer.cc ExtractValueForJsonKey). */
static void slice(struct trace_output *t, unsigned pid, unsigned track, const char *name, const char *cat,
		  uint64_t at_ns, uint64_t dur_ns, json_t *args)
{
	json_t *ev = json_pack("{s:s, s:s, s:s, s:i, s:i, s:o, s:o}", "ph", "X", "name", name, "cat", cat, "pid",
			       (int)pid, "tid", tid_of(pid, track), "ts", ts_of(t, at_ns), "dur", tus(dur_ns));
	if (ev && args && json_object_set_new(ev, "args", args) != 0) {
		json_decref(ev);
		ev = NULL;
	} else if (!ev)
		json_decref(args);
	emit(t, ev);
}

/* A counter sample ("C"): series name of pid at at_ns, value microseconds. */
static void counter(struct trace_output *t, unsigned pid, const char *name, uint64_t at_ns, uint64_t value_ns)
{
	emit(t, json_pack("{s:s, s:s, s:i, s:i, s:o, s:{s:o}}", "ph", "C", "name", name, "pid", (int)pid, "tid",
			  tid_of(pid, TID_LATE), "ts", ts_of(t, at_ns), "args", "us", us(value_ns)));
}

/* Plan item i's process id (1 up: stable, small, in plan order). */
static unsigned pid_of(size_t item)
{
	return (unsigned)item + 1;
}

/* "Audio / Burn" with the item's settings words ("Audio / Burn (real time; load nice 5)"). */
static void item_name(const struct report_run *run, size_t i, char *buf, size_t len)
{
	const struct plan_item *it = &run->in.plan->items[i];
	char bench[128], load[128];
	report_item_words(run, it, bench, load, sizeof(bench));
	int n = snprintf(buf, len, "%s / %s", it->task->name, workload_table[it->load_index]->name);
	if (n >= 0 && (size_t)n < len && (*bench || *load))
		snprintf(buf + n, len - (size_t)n, " (%s%s%s%s)", bench, *bench && *load ? "; " : "", *load ? "load " : "",
			 load);
}

/* The figures of s as args: the JSON result's keys (doc/json.md), those that are null and the
 * within-run intervals (*_ci: the JSON has them, with their level) left out.  NULL when out
 * of memory. */
static json_t *figures_args(const struct pair_summary *s, const struct plan_item *it)
{
	json_t *o = json_object(), *v;
	const char *key;
	void *tmp;
	if (o && report_add_figures(o, task_figures, task_figures_n, s, it->spec.buffer_periods > 0) != 0) {
		json_decref(o);
		return NULL;
	}
	json_object_foreach_safe(o, tmp, key, v) {
		size_t n = strlen(key);
		if (json_is_null(v) || (n > 3 && strcmp(key + n - 3, "_ci") == 0))
			json_object_del(o, key);
	}
	return o;
}

/* Opens the source of the pairs' period records: the --timeline file when it is written (read
 * through /proc/self/fd, its descriptor being write-only), else a memory file of our own that
 * the bench processes append to (run->timeline_fd).  Returns 0, or -1 with why printed. */
static int records_open(struct trace_output *t, struct report_run *run)
{
	const char *call = "memfd_create";
	if (run->timeline_fd >= 0) {
		char self[64];
		snprintf(self, sizeof(self), "/proc/self/fd/%d", run->timeline_fd);
		call = "open /proc/self/fd (the --timeline file)";
		t->rec_fd = open(self, O_RDONLY | O_CLOEXEC);
		t->rec_off = TIMELINE_HEADER_BYTES;
	} else if ((t->rec_fd = memfd_create("interbench-trace", MFD_CLOEXEC)) >= 0) {
		t->rec_own = true;
		call = "fcntl O_APPEND (memfd)";
		if (fcntl(t->rec_fd, F_SETFL, O_APPEND) != 0) {
			close(t->rec_fd);
			t->rec_fd = -1;
		} else
			run->timeline_fd = t->rec_fd;
	}
	if (t->rec_fd >= 0)
		return 0;
	text_message(stderr, "interbench: --trace: %s: %s", call, strerror(errno));
	return -1;
}

/* Opens --trace's file and starts its event array.  Returns 0, or 2 with one line printed. */
static int trace_open(void *st, struct report_run *run)
{
	struct trace_output *t = st;
	char err[PATH_MAX + 128];
	t->rec_fd = -1;
	if (!run->opt->trace_path)
		return 0;
	if (safe_out_open(&t->out, run->opt->trace_path, 0, err, sizeof(err)) != 0) {
		text_message(stderr, "interbench: --trace: %s (accepted: a new file or a regular file of your own)", err);
		return 2;
	}
	int fd = dup(t->out.fd);
	if (fd < 0 || !(t->f = fdopen(fd, "w"))) {
		text_message(stderr, "interbench: --trace %s: %s: %s", run->opt->trace_path, fd < 0 ? "dup" : "fdopen",
			     strerror(errno));
		if (fd >= 0)
			close(fd);
		safe_out_abort(&t->out);
		return 2;
	}
	if (records_open(t, run) != 0) {
		fclose(t->f);
		safe_out_abort(&t->out);
		return 2;
	}
	t->open = true;
	t->t0_ns = now_ns();
	/* no displayTimeUnit: the format makes it a display setting, but Perfetto's JSON importer
	 * (src/trace_processor/importers/json/json_trace_tokenizer.cc, MaybeParseDisplayTimeUnit)
	 * reads "ns" as the unit of ts and dur themselves */
	put(t, "{\"traceEvents\": [");
	return 0;
}

/* Names every pair's process and tracks, in plan order. */
static void trace_begin(void *st, struct report_run *run)
{
	struct trace_output *t = st;
	for (size_t i = 0; t->open && i < run->in.plan->n; i++) {
		const struct sim_desc *d = run->in.plan->items[i].spec.desc;
		char name[320];
		item_name(run, i, name, sizeof(name));
		unsigned pid = pid_of(i);
		meta(t, "process_name", pid, TID_PROCESS, json_pack("{s:s}", "name", name));
		meta(t, "process_sort_index", pid, TID_PROCESS, json_pack("{s:i}", "sort_index", (int)pid));
		meta(t, "thread_name", pid, TID_RUNS, json_pack("{s:s}", "name", "sub-runs"));
		if (d->has_deadlines)
			meta(t, "thread_name", pid, TID_LATE, json_pack("{s:s}", "name", "late periods"));
		for (unsigned l = 0; d->measures && d->measures->shows_frames && l < TRACE_FRAME_LANES; l++) {
			char lane[32];
			snprintf(lane, sizeof(lane), "frames %u", l + 1);
			meta(t, "thread_name", pid, TID_FRAMES + l, json_pack("{s:s}", "name", lane));
		}
	}
}

/* One pair's period records as it reads them, and what it has traced of them. */
struct pair_walk {
	struct trace_output *t;
	const struct pair_outcome *po;
	const struct report_run *run;
	unsigned pid;
	uint64_t interval_ns, origin_ns; /* the task's period; its period 0, CLOCK_MONOTONIC */
	uint64_t n, stride;              /* records in all; periods a counter sample stands for */
	uint64_t seen, late_traced, frames_traced, misses; /* misses: missed deadlines met so far */
	uint64_t next_start_ns;          /* the period after the last record (from origin) */
	uint64_t max_late, max_sched, max_at; /* the counters' stretch so far */
	uint64_t lane_end[TRACE_FRAME_LANES]; /* when each frame track is free again (ns from origin) */
	uint64_t last_shown_ns;
};

/* Puts "explain": the kept explained period numbered index of the pair, when there is one. */
static void add_explained(const struct pair_walk *w, json_t *args, uint64_t index)
{
	const struct bench_record *b = &w->po->bench;
	for (uint32_t k = 0; args && b->kept && k < b->kept_periods; k++)
		if (b->kept[k].index == index) {
			json_object_set_new(args, JK_EXPLAIN, explain_period_json(&b->kept[k], &b->explain));
			return;
		}
}

/* A late-period slice (missed deadline, dropped, unfinished, late) of one period's span from
 * start_ns (from the origin), args stolen; counted against TRACE_LATE_MAX. */
static void late_slice(struct pair_walk *w, const char *name, uint64_t start_ns, json_t *args)
{
	if (w->late_traced >= TRACE_LATE_MAX) {
		w->t->late_cut++;
		json_decref(args);
		return;
	}
	w->late_traced++;
	slice(w->t, w->pid, TID_LATE, name, "period", w->origin_ns + start_ns, w->interval_ns, args);
}

/* The period r when it was late: "missed deadline" (or "late", past --explain-threshold), its
 * figures and its explanation, then the periods dropped after it. */
static void walk_late(struct pair_walk *w, const struct timeline_rec *r)
{
	bool missed = !(r->flags & TIMELINE_MET);
	uint64_t threshold_ns = w->run->opt->explain_threshold_ns;
	if (missed)
		w->misses += 1 + r->skipped;
	if (!missed && !(threshold_ns && r->late_ns > threshold_ns))
		return;
	json_t *args = json_pack("{s:I, s:o, s:o, s:o, s:o, s:I}", "period", (json_int_t)r->period, "lateness_us",
				 us(r->late_ns), "wake_latency_us", us(r->sched_ns), "timer_latency_us", us(r->timer_ns),
				 "cpu_us", us(r->loop_ns), "dropped_after", (json_int_t)r->skipped);
	if (args && (r->flags & TIMELINE_XRUN))
		json_object_set_new(args, "xrun", json_true());
	add_explained(w, args, r->period);
	late_slice(w, missed ? "missed deadline" : "late", r->start_ns, args);
	for (uint32_t k = 1; k <= r->skipped; k++)
		late_slice(w, "dropped period", r->start_ns + k * w->interval_ns,
			   json_pack("{s:I}", "period", (json_int_t)r->period + k));
}

/* Whether r's marks (engine/timeline.h) run in order from its input to its presentation: each
 * point passed, none before the one before it. */
static bool marks_whole(const struct timeline_rec *r)
{
	for (unsigned i = 0; i < TIMELINE_MARKS; i++)
		if (!r->marks_ns[i] || (i && r->marks_ns[i] < r->marks_ns[i - 1]))
			return false;
	return r->start_ns + r->marks_ns[TIMELINE_MARKS - 1] <= r->shown_ns && r->input_age_ns <= r->marks_ns[0] + r->start_ns;
}

/* The frame's segments (workloads/pipeline_chain.h CHAIN_POINT_LIST: input, logic, workers,
 * join, render, latch, compose, scanout) as slices inside its own on track tid, from its input
 * event to its presentation: segment p ends at point p. */
static void walk_segments(struct pair_walk *w, const struct timeline_rec *r, unsigned track)
{
	uint64_t from_ns = r->start_ns + r->marks_ns[0] - r->input_age_ns;
	for (unsigned p = 0; p <= TIMELINE_MARKS; p++) {
		uint64_t to_ns = p < TIMELINE_MARKS ? r->start_ns + r->marks_ns[p] : r->shown_ns;
		slice(w->t, w->pid, track, chain_segment_name(p), "segment", w->origin_ns + from_ns, to_ns - from_ns, NULL);
		from_ns = to_ns;
	}
}

/* The frame of period r, when it was shown: a slice from its input (its period's start when it
 * has no marks) to the vsync that showed it, its segments inside, on the first frame track
 * free by then. */
static void walk_frame(struct pair_walk *w, const struct timeline_rec *r)
{
	if (!r->shown_ns || r->shown_ns < r->start_ns)
		return;
	bool marked = marks_whole(r);
	uint64_t from_ns = marked ? r->start_ns + r->marks_ns[0] - r->input_age_ns : r->start_ns;
	unsigned l = 0;
	while (l < TRACE_FRAME_LANES && w->lane_end[l] > from_ns)
		l++;
	if (l == TRACE_FRAME_LANES || w->frames_traced >= TRACE_FRAMES_MAX) {
		w->t->frames_cut++;
		return;
	}
	w->lane_end[l] = r->shown_ns;
	w->frames_traced++;
	json_t *args = json_pack("{s:I, s:o, s:o}", "frame", (json_int_t)r->period, "lateness_us", us(r->late_ns),
				 "start_to_present_us", us(r->shown_ns - r->start_ns));
	if (args && w->last_shown_ns && r->shown_ns > w->last_shown_ns)
		json_object_set_new(args, "frame_time_us", us(r->shown_ns - w->last_shown_ns));
	if (args && marked)
		json_object_set_new(args, "input_to_present_us", us(r->shown_ns - from_ns));
	w->last_shown_ns = r->shown_ns;
	slice(w->t, w->pid, TID_FRAMES + l, "frame", "frame", w->origin_ns + from_ns, r->shown_ns - from_ns, args);
	if (marked)
		walk_segments(w, r, TID_FRAMES + l);
}

/* The counters: each period's lateness and wake latency, or with more periods than
 * TRACE_COUNTER_MAX the largest of each stretch of w->stride, at that period's start. */
static void walk_counters(struct pair_walk *w, const struct timeline_rec *r)
{
	bool first = w->seen % w->stride == 0;
	if (first || r->late_ns > w->max_late) {
		w->max_late = r->late_ns;
		w->max_at = r->start_ns;
	}
	if (first || r->sched_ns > w->max_sched)
		w->max_sched = r->sched_ns;
	if ((w->seen + 1) % w->stride == 0 || w->seen + 1 == w->n) {
		counter(w->t, w->pid, "lateness", w->origin_ns + w->max_at, w->max_late);
		counter(w->t, w->pid, "wake latency", w->origin_ns + w->max_at, w->max_sched);
	}
}

static void walk_record(struct pair_walk *w, const struct timeline_rec *r)
{
	walk_counters(w, r);
	walk_late(w, r);
	walk_frame(w, r);
	w->next_start_ns = r->start_ns + (1 + (uint64_t)r->skipped) * w->interval_ns;
	w->seen++;
}

/* Reads the pair's records from the record source, from t->rec_off to its end, each of the
 * pair's into walk_record.  Returns 0, or -1 when a read failed (errno set). */
static int walk_records(struct pair_walk *w, off_t end)
{
	static unsigned char buf[TRACE_READ_RECORDS * TIMELINE_RECORD_BYTES];
	struct trace_output *t = w->t;
	while (t->rec_off + (off_t)TIMELINE_RECORD_BYTES <= end) {
		size_t want = (size_t)(end - t->rec_off) / TIMELINE_RECORD_BYTES;
		want = (want < TRACE_READ_RECORDS ? want : TRACE_READ_RECORDS) * TIMELINE_RECORD_BYTES;
		ssize_t got = pread(t->rec_fd, buf, want, t->rec_off);
		if (got <= 0) {
			errno = got < 0 ? errno : EIO;
			return -1;
		}
		for (size_t k = 0; k + TIMELINE_RECORD_BYTES <= (size_t)got; k += TIMELINE_RECORD_BYTES) {
			struct timeline_rec r;
			timeline_decode(buf + k, TIMELINE_RECORD_BYTES, &r);
			if ((int64_t)r.pair == w->po->timeline_pair)
				walk_record(w, &r);
		}
		t->rec_off += got - got % (ssize_t)TIMELINE_RECORD_BYTES;
	}
	return 0;
}

/* The deadlines the sub-run missed that no record shows: the periods cut off unfinished by
 * the end of the window (engine/deadline.h deadline_unfinished_periods), after the last. */
static void walk_unfinished(struct pair_walk *w)
{
	uint64_t missed = w->po->bench.summary.deadlines_missed, n = missed > w->misses ? missed - w->misses : 0;
	uint64_t room = TRACE_LATE_MAX - (w->late_traced < TRACE_LATE_MAX ? w->late_traced : TRACE_LATE_MAX);
	for (uint64_t k = 0; k < n && k < room; k++)
		late_slice(w, "unfinished period", w->next_start_ns + k * w->interval_ns,
			   json_pack("{s:s}", "why", "its deadline passed before the window ended, its work not done"));
	w->t->late_cut += n > room ? n - room : 0;
}

/* The sub-run's periods: its counters, late periods and frames, from the records after
 * t->rec_off; then empties our own memory file. */
static void trace_periods(struct trace_output *t, const struct report_run *run, size_t item,
			  const struct pair_outcome *po)
{
	off_t end = lseek(t->rec_fd, 0, SEEK_END);
	struct pair_walk w = { .t = t, .po = po, .run = run, .pid = pid_of(item),
			       .interval_ns = run->in.plan->items[item].spec.interval_us * 1000, .origin_ns = po->bench.start_ns };
	w.n = end > t->rec_off ? (uint64_t)(end - t->rec_off) / TIMELINE_RECORD_BYTES : 0;
	w.stride = w.n > TRACE_COUNTER_MAX ? (w.n + TRACE_COUNTER_MAX - 1) / TRACE_COUNTER_MAX : 1;
	if (w.stride > t->counter_stride_max)
		t->counter_stride_max = (uint32_t)w.stride;
	bool usable = po->ok && po->timeline_pair >= 0 && w.interval_ns && po->bench.start_ns;
	if (usable && end >= 0 && walk_records(&w, end) != 0 && !t->write_errno)
		text_message(stderr, "interbench: warning: --trace: read of the pair's periods: %s", strerror(errno));
	if (usable && run->in.plan->items[item].spec.desc->has_deadlines) {
		if (po->bench.timeline_truncated || po->bench.timeline_error || end < 0)
			t->records_lost++;
		else
			walk_unfinished(&w);
	}
	if (t->rec_own && ftruncate(t->rec_fd, 0) == 0)
		t->rec_off = 0;
	else if (end > t->rec_off)
		t->rec_off = end;
}

/* The sub-run's slice: "Audio / Burn #2" over its timed window, its figures in args (or why it
 * failed); then its periods. */
static void trace_pair_measured(void *st, struct report_run *run, const struct matrix *m, size_t item,
				unsigned repeat, const struct pair_outcome *po)
{
	struct trace_output *t = st;
	(void)m;
	if (!t->open)
		return;
	const struct plan_item *it = &run->in.plan->items[item];
	char name[360];
	item_name(run, item, name, sizeof(name));
	snprintf(name + strlen(name), sizeof(name) - strlen(name), " #%u", repeat + 1);
	json_t *args = po->ok ? figures_args(&po->bench.summary, it) : json_pack("{s:s}", JK_FAILED, po->why);
	if (args) {
		json_object_set_new(args, "subrun", json_integer(repeat + 1));
		json_object_set_new(args, "window_us", us(po->window_ns));
		json_object_set_new(args, "load_head_start_us", us(po->ramp_ns));
		if (po->interrupted)
			json_object_set_new(args, JK_INTERRUPTED, json_true());
		if (po->ok && run->opt->explain && it->spec.desc->has_deadlines)
			json_object_set_new(args, JK_EXPLAIN, explain_json(&po->bench.explain, NULL, po->window_ns));
	}
	uint64_t at_ns = po->window_start_ns ? po->window_start_ns : now_ns();
	slice(t, pid_of(item), TID_RUNS, name, "subrun", at_ns, po->window_start_ns ? po->window_ns : 0, args);
	if (t->rec_fd >= 0)
		trace_periods(t, run, item, po);
}

/* The medians of the measured ones of reps[0..n) as args (figures_args), with how many sub-runs
 * ran and were measured.  NULL when out of memory. */
static json_t *medians_args(const struct pair_outcome *reps, unsigned n, const struct plan_item *it)
{
	struct pair_summary *ok = calloc(n ? n : 1, sizeof(*ok)), med;
	unsigned nok = 0;
	for (unsigned r = 0; ok && r < n; r++)
		if (reps[r].ok)
			ok[nok++] = reps[r].bench.summary;
	json_t *args = NULL;
	if (ok && nok) {
		double lo, hi;
		summary_median(ok, nok, &med, &lo, &hi);
		figure_intervals_clear(&med);
		if ((args = figures_args(&med, it)) != NULL)
			json_object_set_new(args, "figures", json_string(nok > 1 ? "medians of the measured sub-runs" :
									 "of its one measured sub-run"));
	} else if (ok)
		args = json_object();
	free(ok);
	json_object_set_new(args, "subruns", json_integer(n));
	json_object_set_new(args, "subruns_measured", json_integer(nok));
	return args;
}

/* The pair's slice around its sub-runs' windows, their medians in args. */
static void trace_item_complete(void *st, struct report_run *run, const struct matrix *m, size_t item,
				const struct pair_outcome *reps, unsigned n)
{
	struct trace_output *t = st;
	(void)m;
	uint64_t from_ns = UINT64_MAX, to_ns = 0;
	for (unsigned r = 0; r < n; r++)
		if (reps[r].window_start_ns) {
			uint64_t end_ns = reps[r].window_start_ns + reps[r].window_ns;
			from_ns = reps[r].window_start_ns < from_ns ? reps[r].window_start_ns : from_ns;
			to_ns = end_ns > to_ns ? end_ns : to_ns;
		}
	if (!t->open || from_ns > to_ns)
		return;
	char name[320];
	item_name(run, item, name, sizeof(name));
	slice(t, pid_of(item), TID_RUNS, name, "pair", from_ns, to_ns - from_ns,
	      medians_args(reps, n, &run->in.plan->items[item]));
}

/* What the trace left out, in its otherData and on stderr (once). */
static json_t *trace_other_data(struct trace_output *t, const struct report_run *run)
{
	bool cut = t->late_cut || t->frames_cut || t->records_lost || t->out_of_memory;
	char generator[128];
	snprintf(generator, sizeof(generator), "%s %s", REPORT_GENERATOR, ib_version());
	json_t *o = json_pack("{s:s, s:s, s:s, s:I, s:b, s:I, s:I, s:I, s:{s:i, s:i, s:i}, s:i}", JK_GENERATOR, generator,
			      "kernel", run->info.kernel_release, "clock",
			      "ts: microseconds from the trace's start, clock_origin_ns on CLOCK_MONOTONIC",
			      "clock_origin_ns", (json_int_t)t->t0_ns, "truncated", cut, "late_periods_not_traced",
			      (json_int_t)t->late_cut, "frames_not_traced", (json_int_t)t->frames_cut,
			      "subruns_with_periods_missing", (json_int_t)t->records_lost, "limits_per_subrun",
			      "late_periods", TRACE_LATE_MAX, "frames", TRACE_FRAMES_MAX, "counter_samples", TRACE_COUNTER_MAX,
			      "counter_sample_most_periods", (int)(t->counter_stride_max ? t->counter_stride_max : 1));
	if (cut)
		text_message(stderr, "interbench: warning: --trace %s: truncated: %llu late periods and %llu frames past "
			     "the limits (%u and %u a sub-run) not traced, %llu sub-runs with periods missing%s",
			     run->opt->trace_path, (unsigned long long)t->late_cut, (unsigned long long)t->frames_cut,
			     TRACE_LATE_MAX, TRACE_FRAMES_MAX, (unsigned long long)t->records_lost,
			     t->out_of_memory ? ", events lost to a lack of memory" : "");
	return o;
}

/* Ends the event array with the trace's otherData, flushes; renames the file into place
 * (commit) or removes it.  Returns 0, or -1 with the reason printed. */
static int trace_close(void *st, struct report_run *run, const struct report_end *end)
{
	struct trace_output *t = st;
	if (!t->open)
		return 0;
	t->open = false;
	if (t->rec_own && run->timeline_fd == t->rec_fd)
		run->timeline_fd = -1;
	if (t->rec_fd >= 0)
		close(t->rec_fd);
	t->rec_fd = -1;
	if (end->commit) {
		json_t *other = trace_other_data(t, run);
		put(t, "\n], \"otherData\": ");
		if (!other || json_dumpf(other, t->f, TRACE_DUMP_FLAGS) != 0)
			t->write_errno = t->write_errno ? t->write_errno : other ? EIO : ENOMEM;
		json_decref(other);
		put(t, "}\n");
	}
	if ((fclose(t->f) != 0 || t->write_errno) && end->commit) {
		text_message(stderr, "interbench: --trace %s: write: %s", run->opt->trace_path,
			     strerror(t->write_errno ? t->write_errno : errno));
		safe_out_abort(&t->out);
		return -1;
	}
	t->f = NULL;
	if (report_file_close(&t->out, end->commit, "--trace") != 0)
		return -1;
	if (end->commit)
		report_wrote(run, "trace", run->opt->trace_path);
	return 0;
}

static const struct safe_out *trace_scratch(const void *st)
{
	return &((const struct trace_output *)st)->out;
}

const struct report_output report_output_trace = {
	.name = "trace", .state_bytes = sizeof(struct trace_output), .open = trace_open, .begin = trace_begin,
	.pair_measured = trace_pair_measured, .item_complete = trace_item_complete, .close = trace_close,
	.scratch = trace_scratch,
};
