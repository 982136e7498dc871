/* Runs a check suite and turns its failures into the exit status (shared by tests/check_*.c). */
#ifndef IB_CK_RUN_H
#define IB_CK_RUN_H
#include <check.h>
#include <stdlib.h>

static inline int ck_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
