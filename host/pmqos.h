/* Holding a CPU wakeup latency limit through the kernel's PM QoS interface, as cyclictest
 * does by default: while the descriptor stays open the CPUs avoid idle states whose exit
 * latency exceeds the limit, so a benchmark can leave idle-exit latency out of its figures.
 * The kernel drops the request when the descriptor closes (also when the process dies).
 * Interface: Documentation/power/pm_qos_interface.rst, /dev/cpu_dma_latency (root only). */
#ifndef IB_PMQOS_H
#define IB_PMQOS_H
#include <stddef.h>
#include <stdint.h>

#define PMQOS_DEVICE "/dev/cpu_dma_latency"
#define PMQOS_MAX_LATENCY_US 1000000u   /* largest limit accepted by --dma-latency */

/* Opens PMQOS_DEVICE and writes latency_us (microseconds, a binary s32 as the interface
 * expects).  Returns the descriptor to keep open for as long as the limit should hold, or -1
 * with err set to one line naming the call and its errno text (EACCES: needs root). */
int pmqos_hold(uint32_t latency_us, char *err, size_t errlen);

#endif
