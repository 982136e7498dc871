/* taskfile/: task files read into the model (taskfile/model.h).  Valid files of both formats with
 * the steps they compile to; rt-app's own examples (tests/taskfiles/rtapp/, which compile and which
 * are refused with what); hostile files with their exact one-line messages; the canonical JSON,
 * the same for two files that mean the same. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "taskfile/jsontree.h"
#include "taskfile/model.h"
#include "tests/ck_run.h"

static struct tf_task task;
static char err[1024];

/* A thread's program as text: each phase "LOOPSx[op op(arg) ...]" ("*" for ever), the phases
 * run once first marked "once". */
static const char *program(const char *thread)
{
	static char out[2048];
	const struct tf_thread *th = NULL;
	for (unsigned i = 0; i < task.n_threads; i++)
		if (strcmp(task.threads[i].name, thread) == 0)
			th = &task.threads[i];
	ck_assert_msg(th, "no thread %s", thread);
	size_t o = 0;
	out[0] = '\0';
	for (uint32_t p = th->first_phase; p < th->first_phase + th->n_phases; p++) {
		const struct tf_phase *ph = &task.phases[p];
		char loops[24];
		snprintf(loops, sizeof(loops), ph->loops < 0 ? "*" : "%lld", (long long)ph->loops);
		o += (size_t)snprintf(out + o, sizeof(out) - o, "%s%s%sx[", o ? " " : "", p - th->first_phase < th->once_phases ? "once " : "", loops);
		for (uint32_t s = ph->first; s < ph->first + ph->n; s++) {
			const struct tf_step *st = &task.steps[s];
			o += (size_t)snprintf(out + o, sizeof(out) - o, "%s%s", s > ph->first ? " " : "", tf_op_name(st->op));
			if (st->op == TF_RUN || st->op == TF_RUNTIME || st->op == TF_SLEEP)
				o += (size_t)(st->us_max ? snprintf(out + o, sizeof(out) - o, "%llu-%llu", (unsigned long long)st->us, (unsigned long long)st->us_max) :
							   snprintf(out + o, sizeof(out) - o, "%llu", (unsigned long long)st->us));
			else if (st->op == TF_WAKE)
				o += (size_t)snprintf(out + o, sizeof(out) - o, "(%s)", task.threads[st->thread].name);
			else if (st->op == TF_JOIN)
				o += (size_t)snprintf(out + o, sizeof(out) - o, "%u", st->count);
			else if (st->op == TF_WAIT || st->op == TF_SYNC)
				o += (size_t)snprintf(out + o, sizeof(out) - o, "(%s,%s)", task.res[st->res].name, task.res[st->res2].name);
			else if (st->op >= TF_TIMER && st->op != TF_WAKE && st->op != TF_JOIN)
				o += (size_t)snprintf(out + o, sizeof(out) - o, "(%s)", task.res[st->res].name);
		}
		o += (size_t)snprintf(out + o, sizeof(out) - o, "]");
	}
	return out;
}

static int parse(const char *text)
{
	return tf_parse("t.json", text, strlen(text), &task, err, sizeof(err));
}

/* text is refused with exactly msg, one line; the task is left zeroed. */
static void refused(const char *text, const char *msg)
{
	ck_assert_msg(parse(text) == -1, "accepted: %s", text);
	ck_assert_str_eq(err, msg);
	ck_assert_int_eq(task.n_threads, 0);
}

static void load_ok(const char *path)
{
	ck_assert_msg(tf_load(path, &task, err, sizeof(err)) == 0, "%s: %s", path, err);
}

START_TEST(native_mixer)
{
	load_ok("tests/taskfiles/mixer.json");
	ck_assert_int_eq(task.format, TF_FORMAT_INTERBENCH);
	ck_assert_str_eq(task.name, "Mixer");
	ck_assert_int_eq(task.period_us, 5000);
	ck_assert_int_eq(task.deadline_us, 4000);
	ck_assert_int_eq(task.n_threads, 5);
	ck_assert_str_eq(task.threads[task.root].name, "capture");
	ck_assert_int_eq(task.closers, 1);
	ck_assert(!task.work_as_loops);
	/* capture 300 + dsp-a's mean (500 + 900) / 2 + dsp-b 700 + mix 400; midi is not the chain's */
	ck_assert_int_eq(task.work_per_period_us, 2100);
	ck_assert_str_eq(program("capture"), "*x[period run300 wake(dsp-a) wake(dsp-b)]");
	ck_assert_str_eq(program("dsp-a"), "*x[join1 run500-900 wake(mix)]");
	ck_assert_str_eq(program("dsp-b"), "*x[join1 run700 wake(mix)]");
	ck_assert_str_eq(program("mix"), "*x[join2 run400 close]");
	ck_assert_str_eq(program("midi"), "*x[timer(midi) run50]");
	ck_assert_int_eq(task.res[0].kind, TF_RES_TIMER);
	ck_assert_int_eq(task.res[0].period_us, 1000);
	const struct tf_thread *cap = &task.threads[0], *mix = &task.threads[3];
	ck_assert(cap->has_sched && cap->sched.kind == SP_FIFO && cap->sched.rt_prio == 80);
	ck_assert(!task.threads[1].has_sched && !task.threads[1].cpus.given);
	ck_assert(mix->cpus.given && mix->cpus.bits[0] == 2);
	ck_assert_str_eq(tf_wakes_on(&task, cap), "timer");
	ck_assert_str_eq(tf_wakes_on(&task, mix), "join");
	ck_assert_int_eq(cap->loops, -1);
	ck_assert_int_eq(cap->once_phases, 0);
}
END_TEST

START_TEST(native_sched)
{
	ck_assert_msg(parse("{\"interbench_task\": 1, \"period\": 1000, \"threads\": ["
			    "{\"name\": \"a\", \"trigger\": \"period\", \"work\": 100, \"nice\": 5, \"slice\": \"3ms\"},"
			    "{\"name\": \"b\", \"trigger\": {\"after\": [\"a\"]}, \"work\": 100, \"policy\": \"deadline\","
			    " \"runtime\": 200, \"dl_period\": \"1ms\"}]}") == 0, "%s", err);
	const struct sched_setting *a = &task.threads[0].sched, *b = &task.threads[1].sched;
	ck_assert(task.threads[0].has_sched && a->kind == SP_OTHER && a->nice == 5 && a->slice_ns == 3000000);
	ck_assert(b->kind == SP_DEADLINE && b->dl_runtime_ns == 200000 && b->dl_deadline_ns == 1000000 &&
		  b->dl_period_ns == 1000000);
}
END_TEST

START_TEST(native_refusals)
{
	static const char head[] = "{\"interbench_task\": 1, \"period\": \"1ms\", \"threads\": [";
	char buf[1024];
#define T(threads, msg) (snprintf(buf, sizeof(buf), "%s%s]}", head, threads), refused(buf, msg))
	T("{\"name\": \"a\", \"trigger\": \"period\", \"work\": \"fast\"}",
	  "t.json:1: threads[0].work: \"fast\" (accepted: a time, 0us..10s (an integer of microseconds, or a string "
	  "with a unit: \"2.5ms\"), or {\"uniform\": [MIN, MAX]})");
	T("{\"name\": \"a\", \"trigger\": \"period\", \"work\": true}",
	  "t.json:1: threads[0].work: true (accepted: a time, 0us..10s (an integer of microseconds, or a string with "
	  "a unit: \"2.5ms\"), or {\"uniform\": [MIN, MAX]})");
	T("{\"name\": \"a\", \"trigger\": \"period\", \"work\": 1, \"wrok\": 2}",
	  "t.json:1: threads[0].wrok: unknown key (accepted: name, trigger, work, policy, priority, nice, slice, "
	  "runtime, dl_deadline, dl_period, cpus); did you mean work?");
	T("{\"name\": \"a b\", \"trigger\": \"period\", \"work\": 1}",
	  "t.json:1: threads[0].name: \"a b\" (accepted: 1..15 of A-Za-z0-9_.-)");
	T("{\"name\": \"a\", \"trigger\": \"period\", \"work\": 1}, {\"name\": \"a\", \"trigger\": \"period\", \"work\": 1}",
	  "t.json:1: threads[1].name: \"a\" names threads[0] too (accepted: a name of its own)");
	T("{\"name\": \"a\", \"trigger\": {\"every\": \"1ms\"}, \"work\": 1}",
	  "t.json:1: threads: no thread has the trigger \"period\" (accepted: exactly one)");
	T("{\"name\": \"a\", \"trigger\": \"period\", \"work\": 1}, {\"name\": \"b\", \"trigger\": \"period\", \"work\": 1}",
	  "t.json:1: threads[1].trigger: a second \"period\" thread (threads[0] is one; accepted: exactly one)");
	T("{\"name\": \"a\", \"trigger\": \"period\", \"work\": 1}, {\"name\": \"b\", \"trigger\": {\"after\": [\"x\"]}, \"work\": 1}",
	  "t.json:1: threads[1].trigger.after[0]: \"x\" names no thread of this file");
	T("{\"name\": \"a\", \"trigger\": \"period\", \"work\": 1}, {\"name\": \"m\", \"trigger\": {\"every\": 1000}, \"work\": 1},"
	  "{\"name\": \"b\", \"trigger\": {\"after\": [\"m\"]}, \"work\": 1}",
	  "t.json:1: threads[2].trigger: \"b\" follows a thread the period does not reach (an \"every\" thread, or one "
	  "after it); accepted: after threads of the period's chain");
	T("{\"name\": \"a\", \"trigger\": \"period\", \"work\": 1, \"priority\": 80}",
	  "t.json:1: threads[0].priority: 80 without a policy (accepted: with \"policy\" fifo or rr)");
	T("{\"name\": \"a\", \"trigger\": \"period\", \"work\": 1, \"policy\": \"fifo\", \"nice\": 3, \"priority\": 9}",
	  "t.json:1: threads[0].nice: 3 with policy fifo (accepted: with \"policy\" other or batch)");
	T("{\"name\": \"a\", \"trigger\": \"period\", \"work\": 1, \"policy\": \"rr\"}",
	  "t.json:1: threads[0].policy: rr without a priority (accepted: \"priority\" 1..97 beside it)");
	/* a thread as high as the timing thread or main could starve them busy on every CPU */
	T("{\"name\": \"a\", \"trigger\": \"period\", \"work\": 1, \"policy\": \"fifo\", \"priority\": 98}",
	  "t.json:1: threads[0].priority: 98 (accepted: 1..97: 98 and 99 are interbench's timing thread's and "
	  "main's, which must preempt the task's threads)");
	T("{\"name\": \"a\", \"trigger\": \"period\", \"work\": 1, \"policy\": \"deadline\", \"runtime\": 500, "
	  "\"dl_deadline\": 400, \"dl_period\": 1000}",
	  "t.json:1: threads[0].runtime: runtime 500us, dl_deadline 400us, dl_period 1000us (accepted: runtime <= "
	  "dl_deadline <= dl_period)");
	T("{\"name\": \"a\", \"trigger\": \"period\", \"work\": 1, \"runtime\": 500}",
	  "t.json:1: threads[0].runtime: a deadline reservation without a policy (accepted: with \"policy\": \"deadline\")");
	T("{\"name\": \"a\", \"trigger\": \"period\", \"work\": 1, \"cpus\": [0, 0]}", "t.json:1: threads[0].cpus[1]: CPU 0 given twice");
	T("{\"name\": \"a\", \"trigger\": \"period\", \"work\": {\"uniform\": [\"2ms\", \"1ms\"]}}",
	  "t.json:1: threads[0].work.uniform: MAX 1000us below MIN 2000us (accepted: MIN <= MAX)");
#undef T
	refused("{\"interbench_task\": 1, \"period\": \"10ms\", \"deadline\": \"11ms\", \"threads\": []}",
		"t.json:1: deadline: 11000us is longer than the period, 10000us (accepted: 1us..the period)");
	refused("{\"interbench_task\": 2}", "t.json:1: interbench_task: 2 (accepted: 1, this format's version)");
	refused("{\"interbench_task\": 1, \"period\": \"50us\"}",
		"t.json:1: period: \"50us\" (accepted: a time, 100us..10s, in whole microseconds: an integer of "
		"microseconds, or a number and a unit, ns, us, ms or s: \"2.5ms\")");
	refused("{\"interbench_task\": 1, \"period\": 1000, \"threads\": {}}",
		"t.json:1: threads: an object (accepted: an array of 1..32 threads)");
	refused("{\"interbench_task\": 1, \"period\": 1000, \"threads\": [], \"x\": 1,}",
		"t.json:1: a comma before a closing bracket is not JSON (accepted: RFC 8259 JSON in interbench's format)");
	refused("[1]", "t.json:1: an array at the top (accepted: a JSON object)");
	refused("{\"interbench_task\": 1, \"tasks\": {}}",
		"t.json:1: both \"interbench_task\" and \"tasks\" (accepted: interbench's format, with \"interbench_task\": 1, "
		"or rt-app's, with \"tasks\", not both)");
}
END_TEST

START_TEST(native_graph_files)
{
	ck_assert_int_eq(tf_load("tests/taskfiles/cycle.json", &task, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "tests/taskfiles/cycle.json:6: threads[1].trigger: the threads' \"after\" make a cycle: "
			      "a -> b -> c -> a (accepted: a graph without cycles)");
	ck_assert_int_eq(tf_load("tests/taskfiles/self.json", &task, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "tests/taskfiles/self.json:6: threads[1].trigger.after[0]: \"loop\" is the thread itself "
			      "(a thread cannot follow itself)");
	ck_assert_int_eq(tf_load("tests/taskfiles/dupkey.json", &task, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "tests/taskfiles/dupkey.json:5: threads[0].work: given twice on this line (accepted: a key "
			      "once per object)");
	ck_assert_int_eq(parse("{\"interbench_task\": 1,\n\"period\": 1000,\n\"period\": 2000}"), -1);
	ck_assert_str_eq(err, "t.json:3: period: given twice, on lines 2 and 3 (accepted: a key once per object)");
}
END_TEST

/* A text of n bytes (malloc'd): head, then fill repeated, then tail. */
static char *big(const char *head, const char *fill, size_t reps, const char *tail, size_t *len)
{
	size_t hl = strlen(head), fl = strlen(fill), tl = strlen(tail);
	char *s = malloc(hl + fl * reps + tl + 1);
	ck_assert(s);
	memcpy(s, head, hl);
	for (size_t i = 0; i < reps; i++)
		memcpy(s + hl + i * fl, fill, fl);
	memcpy(s + hl + fl * reps, tail, tl + 1);
	*len = hl + fl * reps + tl;
	return s;
}

START_TEST(hostile_sizes)
{
	size_t len;
	char *s = big("", "[", 100000, "", &len);
	ck_assert_int_eq(tf_parse("deep.json", s, len, &task, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "deep.json:1: JSON nested deeper than 32 levels (accepted: up to 32)");
	free(s);
	s = big("{\"interbench_task\": 1, \"period\": 1000, \"threads\": [\n",
		"{\"name\": \"t\", \"trigger\": \"period\", \"work\": 1},\n", 9999,
		"{\"name\": \"t\", \"trigger\": \"period\", \"work\": 1}]}", &len);
	ck_assert_int_eq(tf_parse("many.json", s, len, &task, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "many.json:1: threads: 10000 threads (accepted: 1..32)");
	free(s);
	/* 90000 keys in one object, the last a repeat: interbench's format looks for repeats in n log n
	 * (sorted: comparing every pair would be 4e9 comparisons); the repeat named is the first in the file */
	s = malloc(2 << 20);
	ck_assert(s);
	len = (size_t)sprintf(s, "{\"interbench_task\":1,");
	for (unsigned i = 0; i < 89999; i++)
		len += (size_t)sprintf(s + len, "\"%x\":0,%s", i, i % 8 == 7 ? "\n" : "");
	len += (size_t)sprintf(s + len, "\"5\": 1}");
	ck_assert_int_eq(tf_parse("keys.json", s, len, &task, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "keys.json:11250: 5: given twice, on lines 1 and 11250 (accepted: a key once per object)");
	free(s);
	s = big("[", "0,", 100000, "0]", &len);
	ck_assert_int_eq(tf_parse("wide.json", s, len, &task, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "wide.json:1: more than 100000 JSON values (accepted: up to 100000)");
	free(s);
	s = big("{\"x\": \"", "a", 4097, "\"}", &len);
	ck_assert_int_eq(tf_parse("long.json", s, len, &task, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "long.json:1: a string of 4097 bytes (accepted: up to 4096 bytes)");
	free(s);
	s = big("{\"x\": \"", " ", 2 << 20, "\"}", &len);
	ck_assert_int_eq(tf_parse("huge.json", s, len, &task, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "huge.json: 2097161 bytes (accepted: up to 1048576 bytes)");
	free(s);
}
END_TEST

START_TEST(hostile_bytes)
{
	refused("", "t.json:1: the file is empty (accepted: a JSON object)");
	refused(" \n\t", "t.json:1: the file is empty (accepted: a JSON object)");
	ck_assert_int_eq(tf_parse("t.json", "{\n\"a\": \"x\0y\"}", 13, &task, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "t.json:2: a NUL byte (accepted: UTF-8 text)");
	refused("{\"a\":\n \"caf\xe9\"}", "t.json:2: byte 0xe9 at offset 11 is not UTF-8 (accepted: UTF-8 text)");
	refused("{\"a\": \"x\\u0000\"}", "t.json:1: a string holding \\u0000 (accepted: text without NUL characters)");
	/* yajl writes a lone low surrogate as the bytes of a surrogate, which are not UTF-8 (and which
	 * jansson would refuse in the canonical JSON) */
	refused("{\"a\": \"\\udc00\"}", "t.json:1: a string that is not UTF-8 once its escapes are read (accepted: UTF-8 text)");
	refused("{\"interbench_task\": 1, \"period\": 1e400}",
		"t.json:1: period: 1e400 (accepted: a time, 100us..10s, in whole microseconds: an integer of "
		"microseconds, or a number and a unit, ns, us, ms or s: \"2.5ms\")");
	refused("{\"interbench_task\": 99999999999999999999}",
		"t.json:1: interbench_task: 99999999999999999999 (accepted: 1, this format's version)");
	refused("{\"interbench_task\": 1, \"period\": -5}",
		"t.json:1: period: -5 (accepted: a time, 100us..10s, in whole microseconds: an integer of "
		"microseconds, or a number and a unit, ns, us, ms or s: \"2.5ms\")");
	refused("{\"a\": 1\n\n  \"b\": 2}", "t.json:3: not JSON: parse error: after key and value, inside map, I expect ',' or '}'");
	refused("{\"a\": [1, 2}", "t.json:1: not JSON: parse error: after array element, I expect ',' or ']'");
	refused("{\"a\": 1", "t.json:1: not JSON: parse error: premature EOF");
	refused("{\"tasks\": {\"t\": {\n\"suspend\",\n\"run\": 1}}}",
		"t.json:2: \"suspend\" without a value is not JSON (a bare \"suspend\" is rt-app's workgen shorthand, which "
		"fills in the task's name): write \"suspend\": \"NAME\"");
	refused("{\"x\",}", "t.json:1: \"x\" without a value is not JSON (accepted: \"x\": VALUE)");
}
END_TEST

/* tf_load on what is not a regular file: one line, at once, nothing read. */
START_TEST(hostile_paths)
{
	char dir[] = "/tmp/ib-taskfile.XXXXXX", path[256];
	ck_assert(mkdtemp(dir));
	ck_assert_int_eq(tf_load(dir, &task, err, sizeof(err)), -1);
	snprintf(path, sizeof(path), "%s: is a directory", dir);
	ck_assert_str_eq(err, path);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(tf_load(path, &task, err, sizeof(err)), -1);   /* no writer: would block without O_NONBLOCK */
	ck_assert(strstr(err, "fifo: is a FIFO: only regular files are read"));
	unlink(path);
	snprintf(path, sizeof(path), "%s/missing.json", dir);
	ck_assert_int_eq(tf_load(path, &task, err, sizeof(err)), -1);
	ck_assert(strstr(err, "missing.json: open: No such file or directory"));
	/* A link to /etc/shadow is an input like any other: read if the user may, then refused as not
	 * JSON without quoting a byte of it, or refused at open; one line either way. */
	snprintf(path, sizeof(path), "%s/shadow.json", dir);
	ck_assert_int_eq(symlink("/etc/shadow", path), 0);
	ck_assert_int_eq(tf_load(path, &task, err, sizeof(err)), -1);
	ck_assert_msg(!strchr(err, '\n') && !strstr(err, "root:"), "%s", err);
	unlink(path);
	/* a file over the bound, refused before it is read whole */
	snprintf(path, sizeof(path), "%s/big.json", dir);
	FILE *f = fopen(path, "w");
	ck_assert(f && ftruncate(fileno(f), 2 << 20) == 0 && fclose(f) == 0);
	ck_assert_int_eq(tf_load(path, &task, err, sizeof(err)), -1);
	ck_assert(strstr(err, "big.json: larger than 1 MiB: refused"));
	unlink(path);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(rtapp_mp3)
{
	load_ok("tests/taskfiles/rtapp/mp3-short.json");
	ck_assert_int_eq(task.format, TF_FORMAT_RTAPP);
	ck_assert_str_eq(task.name, "File");
	ck_assert_int_eq(task.n_threads, 5);
	ck_assert_str_eq(task.threads[task.root].name, "AudioTick");
	ck_assert_int_eq(task.period_us, 6000);
	ck_assert_int_eq(task.deadline_us, 6000);
	ck_assert_int_eq(task.closers, 1);
	ck_assert(task.work_as_loops);
	ck_assert_str_eq(program("AudioTick"), "once 1x[period] 1x[resume(AudioOut) close period] 4x[close period]");
	/* the two runs around the resume, in file order */
	ck_assert_str_eq(program("AudioOut"), "*x[run275 resume(AudioTrack) run4725 suspend(AudioOut)]");
	ck_assert_str_eq(program("AudioTrack"), "*x[suspend(AudioTrack) run300 resume(mp3.decoder)]");
	ck_assert_str_eq(program("mp3.decoder"),
			 "*x[suspend(mp3.decoder) run1000 lock(mutex) signal(queue) wait(queue,mutex) unlock(mutex) run150]");
	ck_assert_str_eq(program("OMXCall"), "*x[lock(mutex) wait(queue,mutex) unlock(mutex) run300 lock(mutex) "
					     "signal(queue) unlock(mutex)]");
	const struct tf_thread *tick = &task.threads[0];
	ck_assert(tick->has_sched && tick->sched.kind == SP_OTHER && tick->sched.nice == -19);
	ck_assert(tick->cpus.given && tick->cpus.bits[0] == 1);
	ck_assert_int_eq(tick->once_phases, 1);
	ck_assert_str_eq(tf_wakes_on(&task, tick), "timer");
	ck_assert_str_eq(tf_wakes_on(&task, &task.threads[1]), "resume");
	ck_assert_str_eq(tf_wakes_on(&task, &task.threads[4]), "signal");
	ck_assert_int_eq(task.threads[4].sched.nice, -2);
}
END_TEST

START_TEST(rtapp_chain)
{
	load_ok("tests/taskfiles/rtapp-chain.json");
	ck_assert_str_eq(program("tick"), "once 1x[period] 1x[run100 resume(work) close period] "
					  "3x[run50 run60 close period]");
	static const char worker[] = "1x[suspend(work) runtime300 lock(m) signal(c) wait(c,m) unlock(m) barrier(meet) sleep20]";
	ck_assert_str_eq(program("worker-0"), worker);
	ck_assert_str_eq(program("worker-1"), worker);
	ck_assert_str_eq(program("dl"), "1x[run150 timer(unique@dl)]");
	ck_assert_int_eq(task.period_us, 2000);
	ck_assert_int_eq(task.work_per_period_us, 108);   /* (100 + 3 * 110) / 4 periods */
	const struct tf_thread *t = &task.threads[0], *w = &task.threads[1], *d = &task.threads[3];
	ck_assert(t->sched.kind == SP_FIFO && t->sched.rt_prio == 50);
	ck_assert(w->sched.kind == SP_OTHER && w->sched.nice == -5 && w->delay_us == 1000 && w->loops == -1);
	ck_assert(d->sched.kind == SP_DEADLINE && d->sched.dl_runtime_ns == 200000 && d->sched.dl_deadline_ns == 4000000 &&
		  d->sched.dl_period_ns == 5000000);
	for (unsigned r = 0; r < task.n_resources; r++)
		if (task.res[r].kind == TF_RES_BARRIER)
			ck_assert_int_eq(task.res[r].parties, 2);
}
END_TEST

/* Every example of Debian's rt-app package: what compiles (those without a timer periodless: a
 * load only), and what is refused with what. */
START_TEST(rtapp_corpus)
{
	static const struct { const char *file, *msg; bool periodless; } cases[] = {
		{ "mp3-short.json", NULL, false },
		{ "mp3-long.json", NULL, false },
		{ "spreading-tasks.json", NULL, false },
		{ "template.json", NULL, false },
		{ "tutorial-example2.json", NULL, false },
		{ "browser-short.json", NULL, true },
		{ "browser-long.json", NULL, true },
		{ "video-short.json", ":6: \"suspend\" without a value is not JSON (a bare \"suspend\" is rt-app's workgen "
				      "shorthand, which fills in the task's name): write \"suspend\": \"NAME\"", false },
		{ "video-long.json", ":6: \"suspend\" without a value is not JSON (a bare \"suspend\" is rt-app's workgen "
				     "shorthand, which fills in the task's name): write \"suspend\": \"NAME\"", false },
		{ "tutorial-example1.json", NULL, true },
		{ "tutorial-example3.json", ":9: tasks.thread0.loop: 1 in the period's task (accepted: -1, or none: the task "
					    "whose timer gives the period loops for ever, as long as the run)", false },
		{ "tutorial-example4.json", NULL, true },
		{ "tutorial-example5.json", ":13: tasks.thread0.loop: 1 in the period's task (accepted: -1, or none: the task "
					    "whose timer gives the period loops for ever, as long as the run)", false },
		{ "tutorial-example6.json", ":11: tasks.thread0.mem: rt-app's event does not map (interbench has no "
					    "memory-bound work step)", false },
		{ "tutorial-example7.json", NULL, true },
		{ "tutorial-example8.json", ":13: tasks.thread0.phases.phase1.cpus: a task's key in a phase (accepted: in "
					    "the task: interbench sets a thread's scheduling and CPUs once)", false },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[128], want[512];
		snprintf(path, sizeof(path), "tests/taskfiles/rtapp/%s", cases[i].file);
		int rc = tf_load(path, &task, err, sizeof(err));
		if (!cases[i].msg) {
			ck_assert_msg(rc == 0, "%s", err);
			ck_assert_msg(task.periodless == cases[i].periodless, "%s periodless %d", path, task.periodless);
			continue;
		}
		snprintf(want, sizeof(want), "%s%s%s", path, cases[i].msg[0] == ':' ? "" : ": ", cases[i].msg);
		ck_assert_msg(rc == -1, "%s compiled", path);
		ck_assert_str_eq(err, want);
	}
}
END_TEST

START_TEST(rtapp_refusals)
{
	static const struct { const char *text, *msg; } cases[] = {
		{ "{\"tasks\": {\"a\": {\"run\": 10, \"timer\": {\"ref\": \"t\", \"period\": 1000}, \"suspend\": \"x\"}}}",
		  "t.json:1: tasks.a.suspend: suspends on \"x\" that no thread resumes (accepted: an event or condition "
		  "another thread resumes)" },
		{ "{\"tasks\": {\"a\": {\"timer\": {\"ref\": \"t\", \"period\": 1000}, \"resume\": \"a\", \"suspend\": \"a\"}}}",
		  "t.json:1: tasks.a.suspend: suspends on \"a\" that only this thread resumes: it would wait on itself "
		  "(accepted: an event or condition another thread resumes)" },
		{ "{\"tasks\": {\"a\": {\"timer\": {\"ref\": \"t\", \"period\": 1000}},"
		  " \"b\": {\"lock\": \"m\", \"wait\": {\"ref\": \"c\", \"mutex\": \"m\"}, \"unlock\": \"m\"}}}",
		  "t.json:1: tasks.b.wait: waits on \"c\" that no thread signals (accepted: an event or condition another "
		  "thread signals)" },
		{ "{\"tasks\": {\"a\": {\"timer\": {\"ref\": \"t\", \"period\": 1000}},"
		  " \"b\": {\"wait\": {\"ref\": \"c\", \"mutex\": \"m\"}}, \"c\": {\"signal\": \"c\"}}}",
		  "t.json:1: tasks.b.wait: waits with mutex \"m\" it does not hold (accepted: a lock before)" },
		{ "{\"tasks\": {\"a\": {\"timer\": {\"ref\": \"t\", \"period\": 1000}, \"timer2\": {\"ref\": \"u\", "
		  "\"period\": 1000}}}}",
		  "t.json:1: tasks.a.timer2: a second timer, \"u\", in the period's task (its timer \"t\" gives the period; "
		  "accepted: one timer in it)" },
		{ "{\"tasks\": {\"a\": {\"timer\": {\"ref\": \"t\", \"period\": 1000}, \"yield\": \"\"}}}",
		  "t.json:1: tasks.a.yield: rt-app's event does not map (interbench has no yield step)" },
		{ "{\"tasks\": {\"a\": {\"timer\": {\"ref\": \"t\", \"period\": 1000}, \"util_min\": 10}}}",
		  "t.json:1: tasks.a.util_min: does not map (interbench sets no utilization clamp)" },
		{ "{\"tasks\": {\"a\": {\"timer\": {\"ref\": \"t\", \"period\": 1000}, \"run\": -1}}}",
		  "t.json:1: tasks.a.run: -1 (accepted: microseconds, 0..10000000)" },
		{ "{\"tasks\": {\"a\": {\"timer\": {\"ref\": \"t\", \"period\": 1000}, \"policy\": \"SCHED_IDLE\", "
		  "\"priority\": 3}}}",
		  "t.json:1: tasks.a.priority: a priority with SCHED_IDLE (accepted: with SCHED_OTHER, SCHED_BATCH: a nice "
		  "level, -20..19; with SCHED_FIFO, SCHED_RR: 1..97)" },
		{ "{\"tasks\": {\"a\": {\"timer\": {\"ref\": \"t\", \"period\": 1000}, \"policy\": \"SCHED_FIFO\", "
		  "\"priority\": 99}}}",
		  "t.json:1: tasks.a.priority: 99 (accepted: 1..97 with SCHED_FIFO and SCHED_RR: 98 and 99 are "
		  "interbench's timing thread's and main's, which must preempt the task's threads)" },
		{ "{\"tasks\": {\"a\": {\"timer\": {\"ref\": \"t\", \"period\": 1000}, \"dl-runtime\": 3}}}",
		  "t.json:1: tasks.a.dl-runtime: a deadline reservation with SCHED_OTHER (accepted: with SCHED_DEADLINE)" },
		{ "{\"tasks\": {\"a\": {\"instance\": 20, \"timer\": {\"ref\": \"t\", \"period\": 1000}}, "
		  "\"b\": {\"instance\": 20, \"run\": 1}}}",
		  "t.json:1: tasks: 40 threads (accepted: 1..32; each instance is one)" },
		{ "{\"tasks\": {\"a\": {\"timer\": {\"ref\": \"t\", \"period\": 1000}, \"barrier\": \"b\"}}}",
		  "t.json:1: tasks.a.barrier: barrier \"b\" met by one thread only (accepted: two threads or more)" },
		{ "{\"tasks\": {\"a\": {\"timer\": {\"ref\": \"t\", \"period\": 1000}, \"lock\": \"m\"}}}",
		  "t.json:1: tasks.a: ends its loop holding a mutex (accepted: each lock released)" },
		{ "{\"tasks\": {\"a\": {\"timer\": {\"ref\": \"t\", \"period\": 1000}}, \"b\": {\"phases\": {\"p\": {\"loop\": 2, "
		  "\"lock\": \"m\"}, \"q\": {\"unlock\": \"m\"}}}}}",
		  "t.json:1: tasks.b: a phase that loops ends holding other mutexes than it began with (accepted: each lock "
		  "released in the same phase)" },
		{ "{\"tasks\": {\"a\": {\"timer\": {\"ref\": \"t\", \"period\": 1000}, \"lock\": \"m\", \"lock1\": \"m\"}}}",
		  "t.json:1: tasks.a.lock1: takes mutex \"m\" it holds already" },
		{ "{\"tasks\": {\"a\": {\"timer\": {\"ref\": \"t\", \"period\": 1000}}}, \"global\": {\"pi_enabled\": true}}",
		  "t.json:1: global.pi_enabled: true (accepted: false: interbench's mutexes do not inherit priority)" },
		{ "{\"tasks\": {\"a\": {\"timer\": {\"ref\": \"t\", \"period\": 1000}}}, \"global\": {\"colour\": 1}}",
		  "t.json:1: global.colour: unknown key (accepted: default_policy, pi_enabled false, and rt-app's run "
		  "settings duration, calibration, logdir, log_basename, log_size, ftrace, gnuplot, lock_pages, frag, "
		  "io_device, mem_buffer_size, cumulative_slack, which interbench's options give)" },
		{ "{\"tasks\": {\"a\": {\"timer\": {\"ref\": \"t\", \"period\": 1000}, \"phases\": {\"p\": {\"run\": 1}}}}}",
		  "t.json:1: tasks.a.timer: an event beside \"phases\" (accepted: the events in the phases; rt-app runs only "
		  "the phases then)" },
		{ "{\"tasks\": {\"a\": {\"timer\": {\"ref\": \"t\", \"period\": 1000, \"mode\": \"late\"}}}}",
		  "t.json:1: tasks.a.timer.mode: \"late\" (accepted: \"relative\" or \"absolute\")" },
		{ "{\"tasks\": {\"a\": {\"timer\": {\"ref\": \"t\", \"period\": 1000}, \"loop\": 0}}}",
		  "t.json:1: tasks.a.loop: 0 (accepted: -1, for ever, or a count, 1 and more)" },
		{ "{\"tasks\": {\"a task\": {\"timer\": {\"ref\": \"t\", \"period\": 1000}}}}",
		  "t.json:1: tasks[\"a task\"]: a task name of other characters than A-Za-z0-9_.- (accepted: 1 or more of "
		  "them; 15 make a thread's name)" },
		{ "{\"tasks\": {\"NuPlayerDriver1x\": {\"timer\": {\"ref\": \"t\", \"period\": 1000}}, "
		  "\"NuPlayerDriver1y\": {\"run\": 1}, \"z\": {\"run\": 1}}}",
		  "t.json:1: tasks.NuPlayerDriver1y: the thread name \"NuPlayerDriver1\" (the task's name cut to 15 bytes, the "
		  "kernel's length) is tasks.NuPlayerDriver1x's too (accepted: names that differ in their first 15 bytes)" },
		{ "{\"tasks\": {}}", "t.json:1: tasks: no task (accepted: 1..32 threads)" },
		{ "{\"tasks\": {\"a\": {\"timer\": {\"ref\": \"t\", \"period\": 1000}}, \"b\": {\"timer\": {\"ref\": \"t\", "
		  "\"period\": 2000}}}}",
		  "t.json:1: tasks.b.timer: timer \"t\" with a period of 2000us, the period's timer of 1000us (accepted: one "
		  "period per timer)" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		refused(cases[i].text, cases[i].msg);
}
END_TEST

/* rt-app's reader (json-c, not strict) takes comments and a comma before a closing bracket;
 * interbench's format is RFC 8259 JSON. */
/* Names past the kernel's 15 bytes are cut as the kernel cuts them, an instance's number kept. */
START_TEST(rtapp_names)
{
	ck_assert_msg(parse("{\"tasks\": {\"NuPlayerRenderer\": {\"timer\": {\"ref\": \"t\", \"period\": 1000}}, "
			    "\"OMXCallbackDisp2\": {\"instance\": 11, \"run\": 1}}}") == 0, "%s", err);
	ck_assert_str_eq(task.threads[0].name, "NuPlayerRendere");
	ck_assert_str_eq(task.threads[1].name, "OMXCallbackDi-0");
	ck_assert_str_eq(task.threads[11].name, "OMXCallbackD-10");
}
END_TEST

START_TEST(rtapp_lenient_json)
{
	ck_assert_msg(parse("{/* c */ \"tasks\": {\"a\": {\"run\": 5, \"timer\": {\"ref\": \"t\", \"period\": 1000},},},\n}") == 0,
		      "%s", err);
	ck_assert_str_eq(program("a"), "once 1x[period] 1x[run5 close period]");
	refused("{\"interbench_task\": 1 // c\n}", "t.json:1: a comment is not JSON (accepted: RFC 8259 JSON in interbench's format)");
	/* only a comma after a value is taken away: [,] and {,} stay what they are, not JSON */
	refused("{\"tasks\": [,]}", "t.json:1: not JSON: parse error: unallowed token at this point in JSON text");
	refused("{,}", "t.json:1: not JSON: parse error: invalid object key (must be a string)");
	/* a byte order mark is read as a blank */
	ck_assert_msg(parse("\xef\xbb\xbf{\"tasks\": {\"a\": {\"timer\": {\"ref\": \"t\", \"period\": 1000}}}}") == 0, "%s", err);
}
END_TEST

START_TEST(canonical)
{
	load_ok("tests/taskfiles/mixer.json");
	char *a = tf_canonical_json(&task);
	load_ok("tests/taskfiles/mixer-same.json");
	char *b = tf_canonical_json(&task);
	ck_assert(a && b);
	ck_assert_str_eq(a, b);
	ck_assert(strstr(a, "\"threads\":{\"capture\":{") && strstr(a, "\"period_us\":5000") && !strchr(a, ' '));
	ck_assert(strstr(a, "{\"op\":\"run\",\"us\":500,\"us_max\":900}"));
	free(b);
	ck_assert_int_eq(parse("{\"interbench_task\": 1, \"name\": \"Mixer\", \"period\": 5000, \"threads\": "
			       "[{\"name\": \"capture\", \"trigger\": \"period\", \"work\": 301}]}"), 0);
	b = tf_canonical_json(&task);
	ck_assert(b && strcmp(a, b) != 0);
	free(a);
	free(b);
}
END_TEST

/* The tree keeps a key given twice, in order, with its line. */
START_TEST(jsontree_order)
{
	struct jt_doc d;
	static const char text[] = "{\"run\": 1,\n \"resume\": \"x\",\n \"run\": 2, \"n\": 99999999999999999999}";
	ck_assert_int_eq(jt_parse("t", text, strlen(text), &d, err, sizeof(err)), 0);
	const struct jt_node *m = d.root->first;
	ck_assert(d.root->n == 4 && !strcmp(m->key, "run") && m->i == 1 && m->line == 1);
	m = m->next;
	ck_assert(!strcmp(m->key, "resume") && !strcmp(m->text, "x") && m->line == 2);
	m = m->next;
	ck_assert(!strcmp(m->key, "run") && m->i == 2 && m->line == 3);
	m = m->next;
	ck_assert(m->kind == JT_NUMBER && !m->is_int && !strcmp(m->text, "99999999999999999999"));
	ck_assert(jt_get(d.root, "run")->i == 1 && !jt_get(d.root, "none"));
	jt_free(&d);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("taskfile");
	TCase *tc = tcase_create("taskfile");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, native_mixer);
	tcase_add_test(tc, native_sched);
	tcase_add_test(tc, native_refusals);
	tcase_add_test(tc, native_graph_files);
	tcase_add_test(tc, hostile_sizes);
	tcase_add_test(tc, hostile_bytes);
	tcase_add_test(tc, hostile_paths);
	tcase_add_test(tc, rtapp_mp3);
	tcase_add_test(tc, rtapp_chain);
	tcase_add_test(tc, rtapp_corpus);
	tcase_add_test(tc, rtapp_refusals);
	tcase_add_test(tc, rtapp_names);
	tcase_add_test(tc, rtapp_lenient_json);
	tcase_add_test(tc, canonical);
	tcase_add_test(tc, jsontree_order);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
