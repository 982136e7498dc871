/* The version of this build: the Makefile's VERSION, or `git describe` of the checkout it was
 * built from (e.g. "1.0.0", "1.0.0-g64ec61c-dirty"). */
#ifndef IB_VERSION_H
#define IB_VERSION_H

/* Returns the version string (static storage, never NULL). */
const char *ib_version(void);

#endif
