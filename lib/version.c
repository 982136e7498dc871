#include "lib/version.h"

#ifndef IB_VERSION
#define IB_VERSION "unknown" /* built without the Makefile */
#endif

const char *ib_version(void)
{
	return IB_VERSION;
}
