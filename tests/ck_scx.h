/* A fake sched_ext for the tests (tests/check_scx.c, tests/check_matrix.c): a sysfs directory
 * under /tmp and a fake scheduler, a shell script that plays both the scheduler (its output,
 * SIGINT) and the kernel (state, root/ops, enable_seq; disabled once its process is gone,
 * however it ended: the watcher that says so starts before the state leaves disabled, so a
 * fake killed at any moment leaves none but disabled).  scx_fake_setup and scx_fake_teardown make and remove them; scx_dir and
 * scx_script name them. */
#ifndef IB_CK_SCX_H
#define IB_CK_SCX_H
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include "lib/timeutil.h"

static char scx_dir[64], scx_script[96];

/* The fake scheduler: scx-fake DIR MODE.  MODE ok (enables, exits on SIGINT), exit (fails to load),
 * never (stays "enabling"), deaf (ignores SIGINT), eject (the kernel disables it after 0.3 s;
 * the process keeps running, as a scheduler does until it notices). */
static const char scx_fake[] =
	"#!/bin/sh\n"
	"dir=$1 mode=$2\n"
	"echo \"fake scheduler: $mode\"\n"
	"if [ \"$mode\" = exit ]; then echo 'failed to load BPF program: Operation not permitted' >&2; exit 1; fi\n"
	"me=$$\n"
	"(while kill -0 $me 2>/dev/null; do sleep 0.02; done; echo disabled > \"$dir/state\"; : > \"$dir/root/ops\") &\n"
	"echo enabling > \"$dir/state\"\n"
	"if [ \"$mode\" != never ]; then\n"
	"  echo fake > \"$dir/root/ops\"; echo $(( $(cat \"$dir/enable_seq\") + 1 )) > \"$dir/enable_seq\"\n"
	"  echo enabled > \"$dir/state\"\n"
	"fi\n"
	"if [ \"$mode\" = deaf ]; then trap '' INT; else trap 'echo \"EXIT: unregistered from user space\"; exit 0' INT; fi\n"
	"if [ \"$mode\" = eject ]; then sleep 0.3; echo 'EXIT: runnable task stall (fake)'; echo disabled > \"$dir/state\"; fi\n"
	"while :; do sleep 0.05; done\n";

/* Writes text into dir/rel. */
static void scx_put(const char *rel, const char *text)
{
	char path[160];
	snprintf(path, sizeof(path), "%s/%s", scx_dir, rel);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void scx_fake_setup(void)
{
	char root_dir[128];
	snprintf(scx_dir, sizeof(scx_dir), "/tmp/check_scx.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(scx_dir));
	snprintf(root_dir, sizeof(root_dir), "%s/root", scx_dir);
	ck_assert_int_eq(mkdir(root_dir, 0700), 0);
	scx_put("state", "disabled\n");
	scx_put("root/ops", "");
	scx_put("enable_seq", "3\n");
	snprintf(scx_script, sizeof(scx_script), "%s/scx-fake", scx_dir);
	scx_put("scx-fake", scx_fake);
	ck_assert_int_eq(chmod(scx_script, 0700), 0);
}

/* Removes the fake directory, once the fake's kernel part (which writes "disabled" up to 20 ms
 * after its scheduler ended) is done with it. */
static void scx_fake_teardown(void)
{
	char cmd[160];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' 2>/dev/null", scx_dir);
	int rc = -1;
	for (int tries = 0; tries < 50 && rc != 0; tries++) {
		sleep_for_ns(20 * NS_PER_MS);
		rc = system(cmd);
	}
	ck_assert_int_eq(rc, 0);
}

#endif
