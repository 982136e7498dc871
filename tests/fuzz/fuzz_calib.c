/* libFuzzer harness: the calibration file parser on arbitrary file contents. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "calibrate/calibrate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct calib_key key;
	static int have_key;
	if (!have_key) {
		calib_key_current(&key);
		have_key = 1;
	}
	FILE *f = fmemopen((void *)data, size, "r");   /* the parser: the path's trust is not fuzzed */
	if (!f)
		return 0;
	char why[128];
	uint64_t v = calib_parse(f, &key, why, sizeof(why));
	fclose(f);
	if (v > UINT32_MAX * 1000ULL)
		abort(); /* out-of-range values are never trusted */
	return 0;
}
